"""A twelfth hostile sweep, of the front ends (compute_semeval, the accumulator, the public functions over them):
each named case failed on the code before its fix."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from nerscore import Accumulator, Options, agreement, compute_semeval, result_dict, tally_semeval
from nerscore.compute import count_batch
from nerscore.forms.inputs import TAGS
from nerscore.tally import Counted

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


# The accumulator's own methods given what they do not take: AttributeError ("'dict' object has no attribute
# 'bootstrap'") from an Accumulator built on a dict, TypeError from update_checked's columns given as no mapping,
# and from `add` (a batch count_batch counted, as the command line's chunks) given sentences as a string or unhashable
# document ids; NaN document ids, refused everywhere else, were each a unit of its own (by identity).
def _counted(options: Options) -> Counted:
    return count_batch(_TAGS["predictions"], _TAGS["references"], TAGS, options, keep_sentences=True)[0]


_BOOTSTRAP = Options.of(bootstrap=10)
ACCUMULATOR_MISUSES = [
    pytest.param(
        lambda: Accumulator({"per_type": True}), r"options is \{'per_type': True\}; expected an Options", id="a-dict"
    ),
    pytest.param(lambda: Accumulator("IOB2"), r"options is 'IOB2'; expected an Options", id="a-string"),
    pytest.param(
        lambda: Accumulator(Options(), ordered="yes"), r"ordered is 'yes'; expected True or False", id="ordered"
    ),
    pytest.param(
        lambda: Accumulator().update_checked(_TAGS["predictions"], _TAGS["references"], [["a", "b", "c"]]),
        r"columns is \[\['a', 'b', 'c'\]\]; expected a mapping of column names",
        id="columns-a-list",
    ),
    pytest.param(
        lambda: Accumulator().update_checked(_TAGS["predictions"], _TAGS["references"], {1: ["a"]}),
        r"columns is \{1: \['a'\]\}; expected a mapping of column names",
        id="columns-keyed-by-a-number",
    ),
    pytest.param(
        lambda: Accumulator(_BOOTSTRAP).add(_counted(_BOOTSTRAP), "1"),
        r"sentences is '1'; expected the number of sentences counted \(1\)",
        id="sentences-a-string",
    ),
    pytest.param(
        lambda: Accumulator(_BOOTSTRAP).add(_counted(_BOOTSTRAP), 2),
        r"sentences is 2; expected the number of sentences counted \(1\)",
        id="sentences-not-those-counted",
    ),
    pytest.param(
        lambda: Accumulator(_BOOTSTRAP).add(_counted(_BOOTSTRAP), 1, [["doc"]]),
        r"documents, sentence 0: found \['doc'\], which is not hashable",
        id="documents-unhashable",
    ),
    pytest.param(
        lambda: Accumulator(_BOOTSTRAP).add(_counted(_BOOTSTRAP), 1, [math.nan]),
        r"documents, sentence 0: found nan, equal to no id",
        id="documents-nan",
    ),
    pytest.param(  # (0 for False kept token_accuracy, and 1 for True before any batch left it out)
        lambda: Accumulator().update(**_TAGS).result(token_accuracy=0),
        r"token_accuracy must be True or False, found 0",
        id="token-accuracy-a-number",
    ),
    pytest.param(
        lambda: Accumulator(Options.of(return_entities=True)).add(_counted(Options()), 1, entities=[1]),
        r"entities is \[1\]; expected the rows of the batch",
        id="entities-no-rows",
    ),
]


@pytest.mark.parametrize(("call", "message"), ACCUMULATOR_MISUSES)
def test_the_accumulators_methods_refuse_what_they_do_not_take_in_words(call, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}"):
        call()


def test_add_takes_a_batch_of_documents_as_update_counts_it() -> None:  # (a guard of the checks above)
    counted = Accumulator(_BOOTSTRAP).add(_counted(_BOOTSTRAP), 1, ["doc"])
    assert counted.result() == Accumulator(_BOOTSTRAP).update(**_TAGS, documents=["doc"]).result()


# result_dict (public: the one result builder, over a tally_semeval's tally and rows) checked its tally and options
# alone: AttributeError ("'int' object has no attribute 'vectors'" ...) or TypeError from what it is given beside.
_TALLY, _ROWS = tally_semeval(_TAGS["predictions"], _TAGS["references"])
RESULT_DICT_ARGUMENTS = [
    pytest.param(
        {"sentence_counts": 5},
        {"bootstrap": 10},
        r"sentence_counts is 5 \(int\); expected a SentenceCounts",
        id="counts",
    ),
    pytest.param({"rows": 5}, {"return_entities": True}, r"rows is 5 \(int\); expected a list", id="rows"),
    pytest.param(
        {"slices": 5}, {"slices": ["entity_length"]}, r"slices is 5 \(int\); expected a SliceCounts", id="slices"
    ),
    pytest.param(
        {"rows": _ROWS, "columns": 5},
        {"return_entities": True},
        r"columns is 5 \(int\); expected a Columns",
        id="columns",
    ),
    pytest.param({"entities": 5}, {"return_entities": True}, r"entities is 5 \(int\); expected a list", id="entities"),
]


@pytest.mark.parametrize(("given", "options", "message"), RESULT_DICT_ARGUMENTS)
def test_result_dict_refuses_what_it_does_not_take_beside_the_tally(given: dict, options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}"):
        result_dict(_TALLY, Options.of(**options), **given)
    assert result_dict(_TALLY, Options.of(return_entities=True), rows=_ROWS)["entities"]  # (a guard: rows taken)


# The evaluate module's compute of a batch after sentences without any value (waiting for a batch to fix the form,
# stored_batches): its columns' errors were numbered within the batch only at its first sentence (sentence 0, where
# the waiting sentences come first; sentence 1 on was numbered after them), and columns given after sentences
# added without any were refused as "found 2 values for 3 sentences" (add_batch's "this batch gives texts").
_TWO = {"predictions": [["B-PER"], ["O"]], "references": [["B-PER"], ["O"]]}
AFTER_WAITING_SENTENCES = [
    pytest.param(
        {}, {"texts": ["a", "b"]}, r"texts, sentence 1: this batch gives texts, which the batches", id="texts"
    ),
    pytest.param({"texts": ["x"]}, {}, r"texts, sentence 1: this batch lacks texts, which the batches", id="lacks"),
    pytest.param({"texts": ["x"]}, {"texts": [5, "a"]}, r"texts, sentence 1: found 5; expected", id="a-bad-text"),
    pytest.param({"groups": ["g"]}, {"groups": [math.nan, "a"]}, r"groups, sentence 1: found nan", id="a-nan-group"),
    # (a guard: numbered after them from the batch's second sentence on, before too)
    pytest.param({"tokens": [[]]}, {"tokens": [["a"], 7]}, r"tokens, sentence 2: found 7", id="second-sentence"),
]


@pytest.mark.parametrize(("waiting", "given", "message"), AFTER_WAITING_SENTENCES)
def test_a_computed_batchs_columns_are_checked_after_the_waiting_sentences(
    waiting: dict, given: dict, message: str, metric
) -> None:
    metric.add_batch(predictions=[[]], references=[[]], **waiting)
    with pytest.raises(ValueError, match=f"^{message}"):
        metric.compute(**_TWO, **given)
    after = {"tokens": [["a"], ["b"]]}
    columns = {name: [*values, *after.get(name, ["a", "b"])] for name, values in waiting.items()}
    expected = compute_semeval(predictions=[[], *_TWO["predictions"]], references=[[], *_TWO["references"]], **columns)
    assert metric.compute(**_TWO, **{name: values[1:] for name, values in columns.items()}) == expected
