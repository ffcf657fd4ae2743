"""nerscore.forms.string_arrays: the batch's strings normalised at C speed as string by string, and every sentence
with one best grounding grounded for the whole batch as it is grounded alone."""

from __future__ import annotations

from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_strings import TYPES

from nerscore.forms.grounding import Haystack, needle_of
from nerscore.forms.string_arrays import _ascii_normalized
from nerscore.forms.string_batches import ground_batch, ground_batch_values
from nerscore.options import Options


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet="aB \t\x00ßﬁ\x1c", max_size=6), max_size=5))
def test_a_batch_normalised_as_ascii_is_normalised_string_by_string(strings) -> None:
    """`_ascii_normalized`, the batch's normalisation at C speed, answers only where it equals §1b's, character for
    character at the same positions: the texts' (Haystack) and the strings' (needle_of, stripped)."""

    texts = _ascii_normalized(strings)
    if texts is not None:
        assert texts == [Haystack.of(text, True).text for text in strings]
        assert all(len(lowered) == len(text) for lowered, text in zip(texts, strings))
    needles = _ascii_normalized([text for text in strings if text], stripped=True)
    if needles is not None:
        assert needles == [needle_of(text, True) for text in strings if text]


@st.composite
def sentences_with_twins(draw):
    """Sentences whose texts recur (and occur inside each other), references listed as often as they occur, and
    predictions that are mostly copies of the references (twins), with some of them left out, retyped, repeated
    or added, as `batch_without_choice` must tell apart: a choice (left to the general way) from none."""
    words = ["ab", "a", "b", "ab a", "AB", "ba"]
    texts, references, predictions = [], [], []
    for _ in range(draw(st.integers(1, 6))):
        chosen = draw(st.lists(st.sampled_from(words), min_size=1, max_size=6))
        texts.append(" ".join(chosen))
        listed = [(draw(st.sampled_from(TYPES)), word) for word in chosen if draw(st.integers(0, 3))]
        listed = draw(st.permutations(listed))
        references.append(listed)
        copies = [entity for entity in listed if draw(st.integers(0, 4))]
        extra = draw(st.lists(st.tuples(st.sampled_from(TYPES), st.sampled_from([*words, "zz"])), max_size=2))
        predictions.append(draw(st.permutations(copies + extra)))
    return texts, references, predictions


def _spans(values, sentence):
    """One sentence's sorted (start, end, type) spans of `SpanValues`."""
    first = int(values.counts[:sentence].sum())
    last = first + int(values.counts[sentence])
    types = [values.type_names[number] for number in values.type_id[first:last].tolist()]
    return sorted(zip(values.start[first:last].tolist(), values.end[first:last].tolist(), types))


@settings(max_examples=300, deadline=None)
@given(sentences_with_twins(), st.booleans(), st.sampled_from([None, ["X"]]))
@example(
    (["ab a b ab"], [[("X", "ab"), ("Y", "ab")]], [[("X", "ab")]]), False, None
)  # fewer predictions than twins: the earliest
@example((["ab ab"], [[("Y", "ab"), ("X", "ab")]], [[("X", "ab"), ("Y", "ab")]]), False, None)  # one twin each
@example(
    (["a a a ab"], [[("X", "a"), ("X", "a"), ("Y", "ab"), ("X", "a")]], [[("X", "ab"), ("Y", "ab"), ("X", "ab")]]),
    False,
    ["X"],
)  # a text predicted twice once labels drop a prediction listed between: not one place
@example((["ab a"], [[("X", "ab"), ("X", "a")]], [[("X", "a"), ("X", "ab"), ("Y", "b")]]), False, None)  # fixed
def test_sentences_grounded_with_the_batch_are_grounded_as_one_by_one(batch, normalize, labels) -> None:
    """Every sentence the batch-wide way grounds (`string_arrays.batch_without_choice`) is grounded as
    `ground_batch` grounds it alone: the same spans on each side and the same ungrounded predictions."""
    texts, references, predictions = batch
    options = Options.of(normalize=normalize, labels=labels)
    values_p, values_r, left = ground_batch_values(predictions, references, options, texts)
    for values in (values_p, values_r):  # each type name is held by some entity, and each entity's is named
        assert sorted(set(values.type_id.tolist())) == list(range(len(values.type_names)))
    for sentence, text in enumerate(texts):
        one = ground_batch([predictions[sentence]], [references[sentence]], options, [text], with_names=False)
        assert _spans(values_r, sentence) == sorted(
            (span.start, span.end, span.entity_type) for span in one.references[0]
        )
        assert _spans(values_p, sentence) == sorted(
            (span.start, span.end, span.entity_type) for span in one.predictions[0]
        )
        assert Counter(entity_type for entity_type, _ in left[sentence]) == Counter(
            entity_type for entity_type, _ in one.ungrounded[0]
        )
