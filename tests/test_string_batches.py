"""nerscore.forms.string_batches: a batch's strings grounded: linear in 10,000 occurrences, the array way equal to
the readable one, ungrounded predictions sliced by their strings as given and never paired, spans past their text
located (the batch-wide grounding's own tests: test_string_arrays.py)."""

from __future__ import annotations

import pytest
from grounding_counts import tracked
from hypothesis import given, settings
from hypothesis import strategies as st
from test_strings import TYPES

from nerscore import InvalidInputError, compute_semeval
from nerscore.forms.string_batches import ground_batch, refuse_past_text
from nerscore.options import Options
from nerscore.span import Span


@pytest.mark.parametrize("normalize", [False, True], ids=["exact", "normalized"])
def test_10000_references_and_predictions_of_one_string_are_linear(normalize: bool) -> None:
    n = 10_000
    text = "a " * n
    entities = [["X", "a"]] * n
    with tracked() as tracker:
        grounded = ground_batch([entities], [entities], Options.of(normalize=normalize), [text])
    assert len(grounded.predictions[0]) == n
    assert tracker.occurrences <= 3 * n  # each occurrence looked at a bounded number of times
    assert tracker.flows == 0  # every occurrence is taken: nothing to choose
    result = compute_semeval(predictions=[entities], references=[entities], texts=[text], normalize=normalize)
    assert result["strict_correct"] == n


@pytest.mark.slow  # (the full suite: the quick profile stays under 3 minutes)
def test_a_few_predictions_among_10000_occurrences_inside_references() -> None:
    n = 10_000
    text = "New York " * n
    references = [["LOC", "New York"]] * n
    predictions = [["LOC", "York"]] * 3
    with tracked() as tracker:
        grounded = ground_batch([predictions], [references], Options(), [text])
    assert grounded.predictions[0] == [Span(4, 8, "LOC"), Span(13, 17, "LOC"), Span(22, 26, "LOC")]
    assert tracker.occurrences <= 3 * n
    assert tracker.flows == 0  # each occurrence overlaps its own reference: the best three, no flow


@st.composite
def batches_of_strings(draw):
    words = ["Paris", "paris", "York", "New York", "new  york", "NEW YORK", "and", "Straße", "strasse"]
    texts, references, predictions = [], [], []
    for _ in range(draw(st.integers(1, 5))):
        chosen = draw(st.lists(st.sampled_from(words), min_size=1, max_size=5))
        text = draw(st.sampled_from([" ", "  ", "\t"])).join(chosen)
        texts.append(text)
        references.append(
            [(draw(st.sampled_from(TYPES)), w) for w in dict.fromkeys(chosen) if w.strip() == w and draw(st.booleans())]
        )
        predictions.append(draw(st.lists(st.tuples(st.sampled_from(TYPES), st.sampled_from(words)), max_size=4)))
    return texts, references, predictions


@settings(max_examples=150, deadline=None)
@given(batches_of_strings(), st.booleans(), st.sampled_from([None, ["X"]]))
def test_the_quick_way_equals_the_readable_one(batch, normalize, labels) -> None:
    texts, references, predictions = batch
    options = {"normalize": normalize, "labels": labels, "per_type": True}
    try:
        quick = compute_semeval(predictions=predictions, references=references, texts=texts, bootstrap=20, **options)
    except InvalidInputError as error:
        with pytest.raises(InvalidInputError) as raised:
            compute_semeval(
                predictions=predictions, references=references, texts=texts, return_entities=True, **options
            )
        assert str(raised.value) == str(error)
        return
    readable = compute_semeval(
        predictions=predictions, references=references, texts=texts, return_entities=True, bootstrap=20, **options
    )
    readable.pop("entities")
    assert quick == readable


# Slices of strings with normalize=True (docs/scoring.md §11): an ungrounded prediction's text is its string as
# given, with or without rows asked for (issue 31). (texts, references, predictions, seen)
UNGROUNDED_SLICES = [
    pytest.param(
        ["Berlin Berlin x"],
        [[("LOC", "Berlin")]],
        [[("ORG", "berlin"), ("ORG", "berlin"), ("LOC", "  PARIS ")]],
        {"  PARIS "},
        id="a-sentence-grounded-alone-with-a-padded-ungrounded-string",
    ),
    pytest.param(
        ["Berlin Berlin x"],
        [[("MISC", "x")]],
        [[("ORG", "Berlin"), ("ORG", "berlin"), ("LOC", "Paris")]],
        {"Paris"},
        id="a-sentence-grounded-alone-with-a-capitalised-ungrounded-string",
    ),
    pytest.param(
        ["Berlin x"], [[("LOC", "Berlin")]], [[("LOC", "berlin"), ("LOC", "  PARIS ")]], {"  PARIS "}, id="batch"
    ),
    pytest.param(["Ünïcode Berlin"], [[]], [[("LOC", "BERLIN"), ("LOC", "Paris ")]], {"Paris "}, id="non-ascii-text"),
]


@pytest.mark.parametrize(("texts", "references", "predictions", "seen"), UNGROUNDED_SLICES)
def test_an_ungrounded_prediction_is_sliced_by_its_string_as_given(texts, references, predictions, seen) -> None:
    options = {"normalize": True, "slices": ["seen", "entity_length"], "seen": seen, "texts": texts}
    quick = compute_semeval(predictions=predictions, references=references, **options)
    readable = compute_semeval(predictions=predictions, references=references, return_entities=True, **options)
    assert quick["slices"] == readable["slices"]
    (given,) = seen
    assert quick["slices"]["seen"]["seen"]["strict_actual"] == 1  # the one ungrounded prediction, as given
    ungrounded = [row for row in readable["entities"] if row["prediction"] and row["prediction"]["start"] is None]
    assert [row["prediction"]["text"] for row in ungrounded] == [given]


# A span into the texts that runs past its text's end (issue 31): where the ungrounded predictions are placed, so
# that it paired with one as scenario V (strict_spurious 0, value 1.0). A located error on either side, on every
# path. (predictions, references, where: (side, sentence, entity))
_TEXTS = ["Ada met Bob", "Ada"]
SPANS_PAST_THE_TEXT = [
    pytest.param([[], [("PER", "Zed")]], [[], [(1, 7, "PER")]], ("references", 1, 0), id="reference-past-the-end"),
    pytest.param(
        [[], [("PER", "Zed")]], [[], [(0, 3, "PER"), (3, 4, "PER")]], ("references", 1, 1), id="by-one-character"
    ),
    pytest.param([[(0, 3, "PER")], [(4, 9, "LOC")]], [[("PER", "Ada")], []], ("predictions", 1, 0), id="prediction"),
    # An end Python will not write as text: the message describes it (was "Exceeds the limit (4300 digits)").
    pytest.param([[], [("PER", "Zed")]], [[], [(0, 10**5000, "PER")]], ("references", 1, 0), id="end-of-5001-digits"),
    pytest.param([[(0, 10**5000, "PER")], []], [[(0, 3, "PER")], []], ("predictions", 0, 0), id="spans-5001-digits"),
]


@pytest.mark.parametrize(
    "options", [{}, {"return_entities": True, "value": True}, {"errors": True}, {"slices": ["seen"], "seen": []}]
)
@pytest.mark.parametrize(("predictions", "references", "where"), SPANS_PAST_THE_TEXT)
def test_a_span_past_its_text_is_a_located_error(predictions, references, where, options) -> None:
    with pytest.raises(InvalidInputError) as raised:
        compute_semeval(predictions=predictions, references=references, texts=_TEXTS, **options)
    error = raised.value
    assert (error.side, error.sentence, error.entity) == where
    assert "past the end of its text" in str(error)


# refuse_past_text, the one check of an entity against its text that every data shape goes through (spans against
# strings, spans as given, the evaluate module's stored batches): each entity as (start, end), None for a string.
PAST_TEXT_CASES = [
    pytest.param([(0, 3), (4, 11)], "Ada met Bob", None, id="ending-at-the-end-is-within"),
    pytest.param([(0, 3), (4, 12)], "Ada met Bob", (1, "[4, 12) past the end of its text (11 characters)"), id="past"),
    pytest.param([(20, 30), (4, 40)], "Ada", (0, "[20, 30) past the end of its text (3 characters)"), id="the-first"),
    pytest.param([None, (0, 9)], "Ada", (1, "[0, 9) past the end of its text (3 characters)"), id="after-a-string"),
    pytest.param([(0, 9)], None, None, id="no-text-nothing-to-check"),
    pytest.param([(0, 1)], "", (0, "[0, 1) past the end of its text (0 characters)"), id="an-empty-text"),
]


@pytest.mark.parametrize(("extents", "text", "refused"), PAST_TEXT_CASES)
def test_refuse_past_text_locates_the_first_entity_past_its_text(extents, text, refused) -> None:
    if refused is None:
        refuse_past_text("references", 4, extents, text)
        return
    entity, found = refused
    with pytest.raises(InvalidInputError) as raised:
        refuse_past_text("predictions", 4, extents, text)
    assert (raised.value.side, raised.value.sentence, raised.value.entity) == ("predictions", 4, entity)
    assert str(raised.value) == (
        f"predictions, sentence 4, entity {entity}: found the span {found}; expected character offsets into texts="
    )


@pytest.mark.parametrize("options", [{}, {"return_entities": True, "value": True}])
def test_an_ungrounded_prediction_is_never_paired(options) -> None:
    # The reference ends where the text does; the ungrounded "Zed" is placed after the text: unpaired, spurious.
    result = compute_semeval(
        predictions=[[("PER", "Zed")]], references=[[(8, 11, "PER")]], texts=["Ada met Bob"], **options
    )
    assert (result["strict_spurious"], result["strict_missed"], result["partial_partial"]) == (1, 1, 0)
    assert result["ungrounded"] == 1
    if "entities" in result:
        assert sorted(row["scenario"] for row in result["entities"]) == ["II", "III"]
        assert all(row["value_pair"] is None for row in result["entities"])
