"""The evaluate module's stored batches (nerscore/stored_batches.py) on a host that stands in for evaluate: what a
batch is checked against the ones before it, and the sentences without values that wait for a form. Through
evaluate itself: tests/test_evaluate_load.py, test_spans.py, test_columns.py, test_distributed.py."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest
from conftest import REPO
from grounding_counts import tracked
from hypothesis import given, settings
from hypothesis import strategies as st

from nerscore import Scheme, compute_semeval
from nerscore.errors import InvalidInputError
from nerscore.forms.grounding import Haystack, _folded, ground_references, needle_of, reference_places
from nerscore.forms.inputs import SPANS, TAGS
from nerscore.schemes import BEGIN, HAND_BUILT_HINT, INSIDE
from nerscore.stored_batches import StoredBatches, columns_given, missing_sides


class Host(StoredBatches):
    """evaluate's state as `StoredBatches` reads it, and a `_store` that keeps what evaluate would write."""

    num_process = 1

    def __init__(self, **options: Any) -> None:
        self.options = options  # given to evaluate.load
        self.writer = self.buf_writer = self.data = self.selected_feature_format = None
        self.filelocks = self.file_paths = None
        self.written: list[tuple[list, list, list[str] | None]] = []
        self._start_storing()

    def _store(self, predictions: list, references: list, columns: list[str] | None = None, **kwargs: Any) -> None:
        self.written.append((predictions, references, columns))
        self.writer = "open"


def test_columns_given_as_none_are_not_given_and_leave_the_rest() -> None:
    kwargs = {"texts": ["Ada"], "documents": None, "scheme": "IOB2"}
    assert columns_given(kwargs) == {"texts": ["Ada"]}
    assert kwargs == {"scheme": "IOB2"}


@pytest.mark.parametrize(
    ("predictions", "references", "found"),
    [
        (None, None, "predictions=None and references=None"),
        (None, [], "predictions=None beside references"),
        ([], None, "references=None beside predictions"),
    ],
)
def test_missing_sides_names_what_was_found(predictions: Any, references: Any, found: str) -> None:
    assert missing_sides(predictions, references, "predictions", "references") == found


def test_sentences_without_values_wait_for_the_batch_that_fixes_the_form() -> None:
    host = Host()
    host._add_checked([[]], [[]], {}, {})
    assert host.written == [] and host._stored_form is None and host._sentences_added == 1
    host._add_checked([[(0, 1, "PER")]], [[(0, 1, "PER")]], {}, {})
    # Stored as spans, the waiting sentence first; tags would have made every later document tags.
    [(predictions, references, columns)] = host.written
    assert len(predictions) == len(references) == 2 and predictions[0] == [] and columns is None
    assert host._stored_form == SPANS and host._waiting_empty == 0 and host._sentences_added == 2


def test_a_batch_is_checked_against_the_batches_before_it() -> None:
    host = Host()
    host._add_checked([["B-PER", "O"], ["O"]], [["B-PER", "O"], ["O"]], {}, {})
    assert host._stored_form == TAGS
    # Sentence numbers count over every batch added: the misaligned sentence is the third.
    with pytest.raises(InvalidInputError) as raised:
        host._add_checked([["B-PER"]], [["B-PER", "O"]], {}, {})
    assert raised.value.sentence == 2
    with pytest.raises(ValueError, match="where the batches added before hold tags"):
        host._add_checked([[(0, 1, "PER")]], [[(0, 1, "PER")]], {}, {})
    assert len(host.written) == 1


# After batches of tags, a batch of another form was refused for what its own form lacks (texts to ground strings in,
# the tokens the batches before were not given): the form is checked first, whatever else is wrong with the batch.
ANOTHER_FORM_AFTER_TAGS = [
    pytest.param([[("PER", "Bob")]], {"texts": ["Ada"]}, "strings", id="strings-that-do-not-ground"),
    pytest.param([[("PER", "Bob")]], {}, "strings", id="strings-without-texts"),
    pytest.param([[(0, 1, "PER")]], {"tokens": [["Ada"]]}, "spans", id="spans-with-tokens-the-tags-had-not"),
]


@pytest.mark.parametrize(("entities", "columns", "form"), ANOTHER_FORM_AFTER_TAGS)
def test_a_batch_of_another_form_is_refused_as_such_first(entities: list, columns: dict, form: str) -> None:
    host = Host()
    host._add_checked([["B-PER"]], [["B-PER"]], {}, {})
    with pytest.raises(ValueError, match=f"^found {form} where the batches added before hold tags; expected every"):
        host._add_checked(entities, entities, columns, {})
    assert len(host.written) == 1


# A scheme built by hand (nerscore.Scheme) given to evaluate.load: add_batch refused its letters (the stored batches'
# checks knew the table's schemes alone) where compute_semeval under it scores them.
BX = Scheme("BX", {"B": BEGIN, "X": INSIDE}, "BX*")
HAND_BUILT_TAGS = [["B-PER", "X-PER", "O"], ["X-LOC", "B-PER"]]


def test_a_scheme_built_by_hand_given_at_load_reads_its_tags_when_added(load_metric) -> None:
    metric = load_metric(scheme=BX, mode="strict")
    references = [HAND_BUILT_TAGS[0], ["O", "B-PER"], ["B-LOC"]]
    metric.add_batch(predictions=HAND_BUILT_TAGS, references=references[:2])
    metric.add_batch(predictions=[["B-LOC"]], references=references[2:])
    expected = compute_semeval(
        predictions=[*HAND_BUILT_TAGS, ["B-LOC"]], references=references, scheme=BX, mode="strict", per_type=True
    )
    assert metric.compute(per_type=True) == expected
    assert (expected["strict_correct"], expected["strict_spurious"]) == (3, 0)  # X-LOC alone is no entity in strict


HAND_BUILT_REFUSED = [
    # Given to compute alone, it is not known when the batch is added: its letters are refused, with the way out.
    pytest.param(
        {},
        [["B-PER", "X-PER"]],
        "predictions, sentence 0, token 1: found tag 'X-PER' with unknown prefix 'X'; expected 'O' or PREFIX-TYPE "
        "with a prefix of any scheme (B, E, I, L, M, S, U); no scheme reads it, with its prefix before the type or "
        f"after it; {HAND_BUILT_HINT}",
        id="given-to-compute-alone",
    ),
    # Given at load, a letter of neither it nor the table is refused as before; and so is a tag of the table's
    # schemes beside its own that no one reading shares (its prefix after the type, E of IOE2 beside X).
    pytest.param(
        {"scheme": BX},
        [["B-PER", "Y-PER"]],
        "predictions, sentence 0, token 1: found tag 'Y-PER' with unknown prefix 'Y'",
        id="a-letter-of-no-scheme",
    ),
    pytest.param(
        {"scheme": BX},
        [["X-PER", "E-PER"]],
        "predictions, sentence 0, token 1: found tag 'E-PER', which no scheme reads together with the tags before it "
        "(read only as BX (built by hand))",
        id="a-letter-of-another-scheme",
    ),
]


@pytest.mark.parametrize(("options", "tags", "message"), HAND_BUILT_REFUSED)
def test_tags_no_scheme_known_when_added_reads_are_refused(options: dict, tags: list, message: str) -> None:
    host = Host(**options)
    with pytest.raises(InvalidInputError, match=f"^{re.escape(message)}"):
        host._add_checked(tags, tags, {}, {})
    assert host.written == []


# A batch's reference strings are checked when added (one that no compute could ground is refused, tests/
# test_redteam6.py): those found as often as they are listed, as they are, without grounding them (compute grounds
# them, once); the others are grounded, with normalize and without, for compute's message.
def test_reference_strings_found_as_listed_are_not_grounded_when_added() -> None:
    host = Host()
    found = [[("PER", "Ada"), ("PER", "Bob"), ("X", "a"), ("X", "a")]]  # "a" twice, in "Ada" and "and"
    with tracked() as tracker:
        host._add_checked([[("PER", "Ada")]], found, {"texts": ["Ada and Bob"]}, {})
    assert tracker.occurrences == 0 and len(host.written) == 1
    with tracked() as tracker, pytest.raises(InvalidInputError, match="'Bob' occurs only 1 time"):
        host._add_checked([[]], [[("PER", "Bob"), ("PER", "Bob")]], {"texts": ["Ada met Bob"]}, {})
    assert tracker.occurrences > 0
    host._add_checked([[]], [[("PER", "bob")]], {"texts": ["Ada met Bob"]}, {})  # normalize grounds it: stored
    assert len(host.written) == 2


# An entity past its sentence's tokens would fail every compute: refused when added, the first past them named
# (as compute names it: side and sentence), one that ends at the last token stored.
def test_the_first_entity_past_its_tokens_is_refused_when_added() -> None:
    host = Host()
    within = [[(0, 1, "PER"), (1, 2, "LOC")]]
    host._add_checked(within, within, {"tokens": [["Ada", "Bob"]]}, {})
    past = [[(0, 2, "PER"), (1, 3, "LOC"), (0, 9, "ORG")]]
    with pytest.raises(InvalidInputError) as raised:
        host._add_checked(within, past, {"tokens": [["Ada", "Bob"]]}, {})
    assert str(raised.value) == (
        "references, sentence 1: found an entity [1, 3) past the sentence's 2 tokens; expected tokens= to hold every "
        "token the entities cover"
    )
    assert len(host.written) == 1


def test_the_module_never_imports_evaluate() -> None:
    probe = "import sys, nerscore.stored_batches\nprint(sorted({'evaluate', 'datasets'} & set(sys.modules)))\n"
    printed = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True)
    assert printed.stdout.strip() == "[]"


# add_batch grounds neither reading of a sentence whose reference strings are found as given as often as they are
# listed (stored_batches._ungrounded): it takes them to ground once normalised too, unless one is white space alone
# or two are one needle once normalised ("aa" and "aa ": as given they may share an occurrence, not once normalised).
# Both rest on §1b's folding: character by character, white space exactly from white space (every code point), and
# so every occurrence in a text is one in its normalised copy (random texts of characters that fold to several, to
# a space and a mark, to white space, or case-fold across lengths).
@pytest.mark.slow  # (the full suite: the quick profile stays under 3 minutes)
def test_a_character_folds_to_white_space_alone_exactly_when_it_is_white_space() -> None:
    differ = [
        hex(point)
        for point in range(sys.maxunicode + 1)
        if not _folded(chr(point)) or _folded(chr(point)).isspace() != chr(point).isspace()
    ]
    assert differ == []


_FOLDING = st.sampled_from(
    ["a", "A", "b", " ", "  ", "\n", "\u00a0", "\u00a8", "\u2002", "\u0308", "ß", "ss", "İ", "i", "ﬁ"]
)


@settings(max_examples=500)
@given(
    text=st.lists(_FOLDING, max_size=12).map("".join),
    needles=st.lists(st.lists(_FOLDING, min_size=1, max_size=4).map("".join), min_size=1, max_size=4),
)
def test_references_found_as_given_are_found_once_normalised(text: str, needles: list[str]) -> None:
    # (Unless one normalises to nothing or two to one: "a" and "a " in "a ", which Hypothesis found.)
    normalised = {needle_of(needle, True) for needle in set(needles)}
    if min(reference_places(text.find, needles)) < 0 or "" in normalised or len(normalised) < len(set(needles)):
        return
    ground_references([("PER", needle) for needle in needles], Haystack.of(text, True), True, 0)


def test_two_strings_that_normalise_to_one_leave_only_the_reading_without_normalize(metric) -> None:
    # "a" and "a " are each once in "a " as given, "a" once for both once normalised: that batch grounds only without
    # normalize, the next only with it, so the next is refused as it is added (it was stored, and every compute failed).
    metric.add_batch(predictions=[[("PER", "a")]], references=[[("PER", "a"), ("PER", "a ")]], texts=["a "])
    with pytest.raises(ValueError, match=r"^references, sentence 1, entity 0: the text 'A' does not occur"):
        metric.add_batch(predictions=[[("PER", "A")]], references=[[("PER", "A")]], texts=["a"])
    assert metric.compute()["strict_possible"] == 2
