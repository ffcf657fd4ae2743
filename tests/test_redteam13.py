"""A thirteenth hostile sweep, of the pairing and the forms of input (issue 31): each named case failed on the code
before its fix."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nerscore import Span, compute_semeval, encode, pair, pair_greedy


class UnhashableText(str):
    """A string whose own hash raises, as a str subclass may (a lazily translated string, a proxy)."""

    def __hash__(self) -> int:
        raise TypeError("this string cannot be hashed")


# A type or a text that is a str subclass was kept as given, and its own hash reached the sets and dicts the types
# and texts are counted in: a TypeError from table/pairs.py (span types), string_arrays.py (string types) or
# grounding.py (texts, with pairing="hipe" or return_entities) naming nothing. Tags of such a string were refused
# at their token, and tokens are read as plain strings (test_hostile): a type or a text is now read as its plain
# string, and scores as that string does.
_H = UnhashableText
STR_SUBCLASSES = [
    pytest.param([[(0, 1, _H("A"))]], [[(0, 1, "A")]], None, id="span-type-in-a-tuple"),
    pytest.param([[{"start": 0, "end": 1, "type": _H("A")}]], [[(0, 1, "A")]], None, id="span-type-in-a-dict"),
    pytest.param([[{"fragments": [[0, 1], [2, 3]], "label": _H("A")}]], [[(0, 1, "A")]], None, id="fragment-type"),
    pytest.param([[(_H("A"), "a")]], [[("A", "a")]], ["a"], id="string-type"),
    pytest.param([[("A", _H("a"))]], [[("A", "a")]], ["a"], id="reference-text"),
    pytest.param([[("A", "a")]], [[("A", _H("a"))]], ["a a"], id="prediction-text"),
]
SCORING_OPTIONS = [{}, {"pairing": "hipe"}, {"return_entities": True}, {"value": True}]


@pytest.mark.parametrize(("references", "predictions", "texts"), STR_SUBCLASSES)
@pytest.mark.parametrize("options", SCORING_OPTIONS, ids=["plain", "hipe", "entities", "value"])
def test_a_type_or_text_of_a_str_subclass_scores_as_its_plain_string(references, predictions, texts, options) -> None:
    def plain(batch: list) -> list:
        return [[_plain_entity(entity) for entity in sentence] for sentence in batch]

    expected = compute_semeval(predictions=plain(predictions), references=plain(references), texts=texts, **options)
    assert compute_semeval(predictions=predictions, references=references, texts=texts, **options) == expected


def _plain_entity(entity):
    if isinstance(entity, dict):
        return {key: str.__str__(value) if isinstance(value, str) else value for key, value in entity.items()}
    return tuple(str.__str__(value) if isinstance(value, str) else value for value in entity)


# Spans built by hand hold anything their fields are given: redteam11 refused an empty or reversed extent and
# fragments out of order, but offsets of no integer, a type of no string, or fragments in lists reached the
# pairing's sorts and sets: TypeError ("'<' not supported between 'int' and 'str'", "unhashable type: 'list'").
# (references, predictions, the value named)
_GOOD = [Span(0, 2, "A"), Span(1, 3, "B")]
HAND_BUILT_SPANS = [
    pytest.param([Span("0", "3", "A"), *_GOOD], _GOOD, "references[0] is Span(start='0'", id="offsets-strings"),
    pytest.param(_GOOD, [*_GOOD, Span(None, None, "A")], "predictions[2] is Span(start=None", id="offsets-none"),
    pytest.param([Span(0.5, 3, "A")], _GOOD, "references[0] is Span(start=0.5", id="offset-a-float"),
    pytest.param([Span(True, 3, "A")], _GOOD, "references[0] is Span(start=True", id="offset-a-bool"),
    pytest.param(
        _GOOD, [Span(0, 3, ["A"])], "predictions[0] is Span(start=0, end=3, entity_type=['A']", id="type-list"
    ),
    pytest.param([Span(0, 3, None)], _GOOD, "references[0]", id="type-none"),  # type: ignore[arg-type]
    pytest.param([Span(0, 3, "")], _GOOD, "references[0]", id="type-empty"),
    pytest.param([Span(0, 3, "A", [(0, 1), (2, 3)])], _GOOD, "references[0]", id="fragments-a-list"),
    pytest.param(_GOOD, [Span(0, 3, "A", ((0, 1), [2, 3]))], "predictions[0]", id="a-fragment-a-list"),
    pytest.param(_GOOD, [Span(0, 3, "A", ((0, 1), (2, 3.0)))], "predictions[0]", id="a-fragment-end-a-float"),
    pytest.param(_GOOD, [Span(0, 3, "A", ((0, 1, 9), (2, 3)))], "predictions[0]", id="a-fragment-of-three"),
    pytest.param(_GOOD, [Span(0, 3, "A", None)], "predictions[0]", id="fragments-none"),  # type: ignore[arg-type]
    pytest.param([Span(0, 3, "A", np.array([[0, 1], [2, 3]]))], _GOOD, "references[0]", id="fragments-an-array"),
]


@pytest.mark.parametrize(("references", "predictions", "named"), HAND_BUILT_SPANS)
@pytest.mark.parametrize("pairing", [pair, pair_greedy], ids=["pair", "pair_greedy"])
def test_spans_built_by_hand_of_wrong_kinds_are_refused_naming_the_span(references, predictions, named, pairing):
    with pytest.raises(
        ValueError, match=r"expected start < end \(end exclusive\), both integers, a non-empty"
    ) as caught:
        pairing(references, predictions)
    assert named in str(caught.value)


def test_spans_of_numpy_integers_and_strings_still_pair() -> None:  # (a guard of the check above)
    references = [Span(np.int64(0), np.int64(2), np.str_("A")), Span(0, 9, "B", ((0, 1), (np.int32(3), 9)))]
    assert pair(references, references) == [(span, span) for span in references]


# encode took the same Spans unchecked: float offsets raised TypeError ("can't multiply sequence by non-int"), a
# type None or "" wrote 'B-None' or 'B-', tags no decoding reads back as that span.
ENCODED_BY_HAND = [
    pytest.param(Span(0.0, 1.0, "A"), id="float-offsets"),
    pytest.param(Span(0, 1, None), id="type-none"),  # type: ignore[arg-type]
    pytest.param(Span(0, 1, ""), id="type-empty"),
]


@pytest.mark.parametrize("span", ENCODED_BY_HAND)
def test_encode_refuses_spans_built_by_hand_of_wrong_kinds(span: Span) -> None:
    with pytest.raises(ValueError, match=r"^spans\[0\] is Span\(.*both integers, a non-empty string type"):
        encode([span], 3)


# Any field values a Span may be built with: pair, pair_greedy and encode pair or write it, or refuse it with a
# ValueError, never another exception (the cases above are found ones; this looks for more of them).
_FIELD = st.one_of(
    st.integers(-3, 12),
    st.sampled_from([None, 1.0, 2.5, True, "", "A", "B", "3", np.int64(4), np.str_("A"), b"A", ("A",)]),
)
_FRAGMENTS = st.one_of(
    st.just(()),
    st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=3).map(tuple),
    st.lists(st.lists(_FIELD, min_size=1, max_size=3), max_size=3),
    st.sampled_from([None, "ab", ((0, 1), (3, 4)), ((0, 1.0), (3, 4))]),
)
_ANY_SPAN = st.builds(Span, _FIELD, _FIELD, _FIELD, _FRAGMENTS)
_PLAIN_SPAN = st.builds(Span, st.integers(0, 5), st.integers(6, 12), st.sampled_from(["A", "B"]))


@settings(max_examples=300, deadline=None)
@given(odd=_ANY_SPAN, references=st.lists(_PLAIN_SPAN, max_size=3), predictions=st.lists(_PLAIN_SPAN, max_size=3))
def test_a_span_of_any_field_values_is_paired_or_refused_with_a_value_error(odd, references, predictions) -> None:
    for pairing in (pair, pair_greedy):
        for sides in ([odd, *references], predictions), (references, [*predictions, odd]):
            with contextlib.suppress(ValueError):
                pairing(*sides)
    with contextlib.suppress(ValueError):
        encode([odd], 13)
