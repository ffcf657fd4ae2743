"""The sixth red team's escapes (issue 31's kinds): each a named case that failed before its fix."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from nerscore import Accumulator, InvalidInputError, Options, cli, compute_semeval
from nerscore.errors import shown


class _Counted:
    """An item that counts how often it is written (each a distinct set member)."""

    calls = 0

    def __repr__(self) -> str:
        _Counted.calls += 1
        return "c"


@pytest.mark.parametrize("kind", [frozenset, set])
def test_shown_writes_only_what_fits_of_a_large_set(kind: type) -> None:
    # Structural, not timed: repr wrote every member (and a frozenset holding a tuple that holds one frozenset
    # twice, 60 deep, never ended: groups=[that] hung compute_semeval while its message was written).
    _Counted.calls = 0
    text = shown(kind(_Counted() for _ in range(100_000)))
    assert len(text) == 100 and text.endswith("...") and _Counted.calls <= 100
    for value in (kind(), kind({1}), kind({(1, "a")})):
        assert shown(value) == repr(value)


def _doubled(depth: int, kind: type = tuple) -> Any:
    """A tuple (or frozenset) `depth` deep, each level holding the one below twice: `depth` objects, whose hash
    (uncached for tuples) and text read 2**depth of them."""
    value: Any = kind()
    for level in range(depth):
        value = tuple([value, value]) if kind is tuple else frozenset([value, (value, level)])
    return value


# Ids that hash (or write) in time exponential in their size: 2**25 tuples read for 24 objects took 0.5 s to hash
# and were scored; 60 deep never ended (the depth check's list of levels doubled too).
HOSTILE_IDS = [
    pytest.param("groups", _doubled(24), {}, id="groups-tuple-doubled-24"),
    pytest.param("documents", _doubled(24), {"bootstrap": 10}, id="documents-tuple-doubled-24"),
    pytest.param("groups", _doubled(60), {"slices": ["group"]}, id="groups-tuple-doubled-60"),
    pytest.param("groups", _doubled(24, frozenset), {"slices": ["group"]}, id="groups-frozenset-doubled-24"),
]


@pytest.mark.parametrize(("column", "value", "options"), HOSTILE_IDS)
def test_an_id_too_large_to_hash_is_refused_before_it_is_hashed(column: str, value: Any, options: dict) -> None:
    with pytest.raises(InvalidInputError, match=rf"^{column}, sentence 0: found .*, holding more than 10,000,000 "):
        compute_semeval(predictions=[["B-PER"]], references=[["B-PER"]], **{column: [value]}, **options)
    # An id holding one tuple many times over, within the bound, is an id.
    shared = (("doc", 1),) * 1000
    assert compute_semeval(predictions=[["B-PER"]], references=[["B-PER"]], **{column: [shared]})["strict_f1"] == 1


# A group Python hashes but cannot write as its label: the bare "Exceeds the limit (4300 digits)" named nothing.
UNWRITABLE_GROUPS = [
    pytest.param(frozenset([10**5000]), "which Python cannot write as text", id="frozenset-of-a-long-integer"),
    pytest.param(frozenset([(1, 10**5000)]), "which Python cannot write as text", id="frozenset-of-a-tuple-of-one"),
]


@pytest.mark.parametrize(("group", "message"), UNWRITABLE_GROUPS)
def test_a_group_python_cannot_write_is_located(group: Any, message: str) -> None:
    with pytest.raises(InvalidInputError, match=rf"^groups, sentence 1: found .*{message}"):
        compute_semeval(predictions=[["O"], ["O"]], references=[["O"], ["O"]], groups=["a", group], slices=["group"])


# Batches add_batch stored and compute refused whatever its options: a failed compute keeps every batch, so each made
# the evaluation unscorable until the metric was loaded again. Refused when added, in compute's words; the good
# batches around them still compute. (first: the batches added before, each predictions, references, tokens.)
_TAGS = ([["B-PER", "O"]], [["B-PER", "O"]], [["Ada", "met"]])
_SPANS = ([[(0, 1, "PER")]], [[(0, 1, "PER")]], [["Ada", "met"]])
UNSCORABLE_BATCHES = [
    pytest.param(
        [_TAGS],
        ([["B-PER", "O"]], [["B-PER", "O"]], [["Ada"]]),
        "tokens, sentence 1: found 1 tokens for 2 tags",
        id="tags-with-too-few-tokens",
    ),
    pytest.param(
        [_TAGS],
        ([["O"]], [["O"]], [["a", "b"]]),
        "tokens, sentence 1: found 2 tokens for 1 tags",
        id="tags-with-too-many-tokens",
    ),
    pytest.param(
        [_TAGS],
        ([[]], [[]], [["a"]]),
        "tokens, sentence 1: found 1 tokens for 0 tags",
        id="no-tag-beside-tags-with-a-token",
    ),
    pytest.param(
        [([[]], [[]], [["a"]])], _TAGS, "tokens, sentence 0: found 1 tokens for 0 tags", id="a-token-waiting-for-tags"
    ),
    pytest.param(
        [_SPANS],
        ([[(0, 5, "PER")]], [[(0, 1, "PER")]], [["Ada"]]),
        "predictions, sentence 1: found an entity [0, 5) past the sentence's 1 tokens",
        id="span-past-its-tokens",
    ),
]


@pytest.mark.parametrize(("first", "bad", "message"), UNSCORABLE_BATCHES)
def test_a_batch_no_compute_could_score_is_refused_when_added(metric, first: list, bad: tuple, message: str) -> None:
    for predictions, references, tokens in first:
        metric.add_batch(predictions=predictions, references=references, tokens=tokens)
    with pytest.raises(InvalidInputError, match=f"^{re.escape(message)}"):
        metric.add_batch(predictions=bad[0], references=bad[1], tokens=bad[2])
    expected = compute_semeval(
        predictions=[row for batch in first for row in batch[0]],
        references=[row for batch in first for row in batch[1]],
        tokens=[row for batch in first for row in batch[2]],
    )
    assert metric.compute() == expected


# Accumulator.result(options) asking for what the batches were not counted with: each was silently another answer
# than compute_semeval's (value 0.0 for 0.83, entities [], intervals of no unit as wide as a point, the scheme or
# min_overlap or slice_edges or the overlap credit ignored).
_P = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG"]]
_R = [["B-PER", "I-PER", "O", "B-ORG"], ["B-ORG", "I-ORG"]]
UNCOUNTED = [
    pytest.param({}, {"value": True}, "value", id="value"),
    pytest.param({"value": True}, {"value": "ace08"}, "value", id="other-value-weights"),
    pytest.param({}, {"return_entities": True}, "return_entities=True", id="entities"),
    pytest.param({}, {"bootstrap": 50}, "bootstrap=50", id="intervals"),
    pytest.param({}, {"partial_credit": "overlap"}, "partial_credit='overlap'", id="overlap-credit"),
    pytest.param({}, {"min_overlap": 1.0}, "min_overlap=1.0", id="min-overlap"),
    pytest.param({}, {"scheme": "IOBES"}, "scheme,", id="scheme"),
    pytest.param(
        {"slices": ["entity_length"]},
        {"slices": ["entity_length"], "slice_edges": {"entity_length": [1, 3]}},
        "slice_edges",
        id="slice-edges",
    ),
]


@pytest.mark.parametrize(("counting", "asked", "named"), UNCOUNTED)
def test_a_result_asking_for_what_was_not_counted_is_refused(counting: dict, asked: dict, named: str) -> None:
    counted = Accumulator.of(**counting).update(predictions=_P, references=_R)
    with pytest.raises(ValueError, match=f"^options asks for {re.escape(named)}.* which the batches were not counted"):
        counted.result(Options.of(**asked))


# What a result may change: what is reported of the same counts (and a key left out), as compute_semeval reports it.
REPORTED = [
    pytest.param({}, {"per_type": True, "beta": 2.0, "zero_division": 1.0, "confusion": True}, id="reporting"),
    pytest.param({"bootstrap": 50}, {"bootstrap": 100, "seed": 3, "confidence_level": 0.9}, id="other-resamples"),
    pytest.param({"value": True, "return_entities": True}, {"partial_credit": 1.0}, id="keys-left-out"),
]


@pytest.mark.parametrize(("counting", "asked"), REPORTED)
def test_a_result_under_options_of_what_is_reported_is_compute_semevals(counting: dict, asked: dict) -> None:
    counted = Accumulator.of(**counting).update(predictions=_P, references=_R)
    assert counted.result(Options.of(**asked)) == compute_semeval(predictions=_P, references=_R, **asked)


# A CoNLL file whose lines end in CR alone: read as one line, its last two columns its last token's tags, it was
# "processed 1 tokens in 1 sentences" with exit status 0.
CR_FILES = [
    pytest.param([], b"Ada B-PER B-PER\rmet O O\r\rLondon B-LOC O\r", id="one-system"),
    pytest.param(["--compare"], b"Ada B-PER B-PER B-PER\rmet O O O\r", id="two-systems"),
]


@pytest.mark.parametrize(("flags", "content"), CR_FILES)
def test_a_conll_file_of_cr_line_ends_is_refused(
    flags: list[str], content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conll = tmp_path / "mac.conll"
    conll.write_bytes(content)
    files = [str(conll), str(conll)] if flags else [str(conll)]
    assert cli.main([*flags, *files]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"{conll}:1: found a carriage return within the line"), captured.err


# String entities with pairing="hipe": the array path grounded each sentence's spans in order of position, the rows
# (return_entities, errors) in listing order, and the HIPE scorer's pairing reads them in order (§3a): the counts
# depended on return_entities (strict_possible 6 without, 7 with).
_TEXT = "BOB london ß the the a ada london"
_REFERENCES = [("ORG", "london"), ("LOC", "london"), ("LOC", "ß"), ("ORG", "the"), ("PER", "the"), ("ORG", "ada")]
_PREDICTIONS = [("ORG", "ada london"), ("PER", "the the"), ("LOC", "london")]
# The same entities as spans, in listing order: what the strings ground to.
_AS_SPANS = (
    [(4, 10, "ORG"), (27, 33, "LOC"), (11, 12, "LOC"), (13, 16, "ORG"), (17, 20, "PER"), (23, 26, "ORG")],
    [(23, 33, "ORG"), (13, 20, "PER"), (27, 33, "LOC")],
)


@pytest.mark.parametrize("options", [{}, {"return_entities": True}, {"normalize": True}, {"per_type": True}])
def test_strings_paired_as_the_hipe_scorer_pairs_do_not_depend_on_the_rows(options: dict) -> None:
    result = compute_semeval(
        predictions=[_PREDICTIONS], references=[_REFERENCES], texts=[_TEXT], pairing="hipe", **options
    )
    spans = compute_semeval(
        predictions=[_AS_SPANS[1]], references=[_AS_SPANS[0]], texts=[_TEXT], pairing="hipe", **options
    )
    assert (result["strict_possible"], result["strict_correct"]) == (7, 1)  # LOC london taken twice (§3a)
    assert {key: value for key, value in result.items() if key not in ("entities", "ungrounded")} == {
        key: value for key, value in spans.items() if key not in ("entities", "ungrounded")
    }


# Reference strings no compute could ground, with normalize or without (labels keeps them): stored, each failed
# every compute after it. A string that only normalize grounds is stored, for compute(normalize=True) to read.
UNGROUNDABLE = [
    pytest.param([("PER", "Zed")], "Ada met Bob", "entity 0: the text 'Zed' does not occur", id="absent"),
    pytest.param(
        [("PER", "Bob"), ("PER", "Bob")],
        "Ada met Bob",
        "entity 1: the text 'Bob' occurs only 1 time",
        id="listed-twice-occurs-once",
    ),
]


@pytest.mark.parametrize(("references", "text", "message"), UNGROUNDABLE)
def test_a_reference_string_no_compute_could_ground_is_refused_when_added(
    metric, references: list, text: str, message: str
) -> None:
    metric.add_batch(predictions=[[("PER", "Ada")]], references=[[("PER", "Ada")]], texts=["Ada met Bob"])
    with pytest.raises(InvalidInputError, match=f"^references, sentence 1, {re.escape(message)}"):
        metric.add_batch(predictions=[[]], references=[references], texts=[text])
    metric.add_batch(predictions=[[]], references=[[("PER", "bob")]], texts=["Ada met Bob"])  # normalize reads it
    expected = compute_semeval(
        predictions=[[("PER", "Ada")], []],
        references=[[("PER", "Ada")], [("PER", "bob")]],
        texts=["Ada met Bob", "Ada met Bob"],
        normalize=True,
    )
    assert metric.compute(normalize=True) == expected


def test_string_entities_without_texts_are_refused_when_added(metric) -> None:
    # Stored, they failed every compute ("no texts"), and every later batch had to come without texts too.
    with pytest.raises(InvalidInputError, match=r"^references: found string entities \(no offsets\) and no texts"):
        metric.add_batch(predictions=[[("PER", "Ada")]], references=[[("PER", "Ada")]])
    metric.add_batch(predictions=[[("PER", "Ada")]], references=[[("PER", "Ada")]], texts=["Ada met Bob"])
    assert metric.compute() == compute_semeval(
        predictions=[[("PER", "Ada")]], references=[[("PER", "Ada")]], texts=["Ada met Bob"]
    )


# Unknown options named whole: 20,000 of them, or one a million characters long, wrote a message of 1.2 MB (and
# each name was matched against every option). The first ten, each cut short; a short one reads as before.
UNKNOWN_OPTIONS = [
    pytest.param(
        {f"bootstrap{i}": 1 for i in range(20_000)}, r"\['bootstrap0', .*, \.\.\.\] \(20,000 of them\)", id="many"
    ),
    pytest.param({"b" * 1_000_000: 1}, r"\['bbbbbbbbbb[b]*\.\.\.\]; expected some of", id="long"),
    pytest.param({"schema": 1}, r"^unknown option\(s\) \['schema'\]; 'schema': did you mean scheme\?", id="short"),
]


@pytest.mark.parametrize(("given", "message"), UNKNOWN_OPTIONS)
def test_unknown_options_are_named_in_a_message_of_bounded_length(given: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message) as refused:
        Options.of(**given)
    assert len(str(refused.value)) < 2_000


@pytest.mark.parametrize("options", [{"return_entities": True}, {"normalize": True}, {"pairing": "hipe"}])
def test_a_batch_grounded_under_other_options_is_refused(options: dict) -> None:
    # Without rows to read, return_entities failed an assert (AssertionError); normalize or pairing counted spans
    # found or laid out as other options say, silently.
    grounded = Accumulator.of().ground(predictions=[[("PER", "ada")]], references=[[("PER", "Ada")]], texts=["Ada"])
    with pytest.raises(ValueError, match=r"^found a batch grounded under other options than this accumulator's"):
        Accumulator.of(**options).update_grounded(grounded)
    assert Accumulator.of().update_grounded(grounded).result() == compute_semeval(
        predictions=[[("PER", "ada")]], references=[[("PER", "Ada")]], texts=["Ada"]
    )


# The accumulator's lower steps given what is not theirs: AttributeError ('NoneType' object has no attribute ...).
MISUSED_STEPS = [
    pytest.param(lambda: Accumulator.of().add(None, 3), "expected a batch counted by", id="add-of-none"),
    pytest.param(lambda: Accumulator.of().add({"tally": 1}, 1), "expected a batch counted by", id="add-of-a-dict"),
    pytest.param(
        lambda: Accumulator.of().update_grounded(None), "expected the grounded batch", id="update-grounded-of-none"
    ),
]


@pytest.mark.parametrize(("call", "message"), MISUSED_STEPS)
def test_the_accumulators_steps_refuse_what_is_not_theirs(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
