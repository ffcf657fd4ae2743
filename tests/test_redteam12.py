"""A twelfth hostile sweep, of the front ends (compute_semeval, the accumulator, the public functions over them):
each named case failed on the code before its fix."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from nerscore import Accumulator, agreement, compute_semeval

# Strings of numpy (np.str_, a str subclass: what iterating an array of strings gives) kept in the result where it is
# plain data: the confusion matrix keyed by np.str_('PER') for labels=np.array([...]); the `entities` rows of span
# types (read one by one, with labels) and of string entities; the errors' texts of one token beside the seen slice;
# agreement's annotator names. The evaluate module's results of the same data (stored by Arrow) are plain.
_TAGS = {"predictions": [["B-PER", "O", "B-PER"]], "references": [["B-PER", "I-PER", "B-LOC"]]}
_SPANS = {"predictions": [[(0, 3, "LOC"), (8, 11, "LOC")]], "references": [[(0, 3, "PER"), (8, 11, "LOC")]]}
_STRINGS = {
    "predictions": [[("LOC", "Ada"), ("PER", "Bob")]],
    "references": [[("PER", "Ada")]],
    "texts": ["Ada met Bob"],
}
_TOKENS = [["Ada", "Lovelace", "Bob"]]


def _numpy_strings(value: Any) -> Any:
    """`value` with every string a np.str_, at any depth of lists, tuples and dicts."""
    if isinstance(value, str):
        return np.str_(value)
    if isinstance(value, (list, tuple)):
        return type(value)(map(_numpy_strings, value))
    if isinstance(value, dict):
        return {_numpy_strings(key): _numpy_strings(item) for key, item in value.items()}
    return value


def _not_plain(value: Any, path: str = "result") -> list[str]:
    """Where `value` holds anything but dicts and lists of str, int, float, bool and None (keys included)."""
    if type(value) is dict:
        return [
            found
            for key, item in value.items()
            for found in ([] if type(key) in (str, int) else [f"{path} key {key!r}"])
            + _not_plain(item, f"{path}[{key!r}]")
        ]
    if type(value) is list:
        return [found for index, item in enumerate(value) for found in _not_plain(item, f"{path}[{index}]")]
    return [] if type(value) in (str, int, float, bool, type(None)) else [f"{path}: {type(value).__name__}"]


NUMPY_STRINGS = [
    pytest.param(compute_semeval, {**_TAGS, "labels": ["PER", "LOC"], "confusion": True}, id="labels-confusion"),
    pytest.param(compute_semeval, {**_SPANS, "labels": ["PER", "LOC"], "return_entities": True}, id="span-types"),
    pytest.param(
        compute_semeval, {**_STRINGS, "return_entities": True, "confusion": True, "value": True}, id="string-entities"
    ),
    pytest.param(
        compute_semeval,
        {**_TAGS, "tokens": _TOKENS, "errors": True, "slices": ["seen"], "seen": ["Ada"]},
        id="one-token-errors-beside-seen",
    ),
    pytest.param(
        lambda **given: Accumulator.of(labels=given.pop("labels"), confusion=True).update(**given).result(),
        {**_SPANS, "labels": ["PER", "LOC"]},
        id="accumulator-labels",
    ),
    pytest.param(agreement, {"annotations": {"ann": _TAGS["predictions"], "bob": _TAGS["references"]}}, id="names"),
]


@pytest.mark.parametrize(("call", "given"), NUMPY_STRINGS)
def test_numpy_strings_given_give_plain_strings_back(call, given: dict) -> None:
    result = call(**_numpy_strings(given))
    assert _not_plain(result) == []
    assert result == call(**given)
