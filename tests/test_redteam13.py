"""A thirteenth hostile sweep, of the pairing and the forms of input (issue 31): each named case failed on the code
before its fix."""

from __future__ import annotations

import pytest

from nerscore import compute_semeval


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
