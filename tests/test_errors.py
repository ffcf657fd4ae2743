"""Bad input (docs/scoring.md §1): every problem is a ValueError that says where (side, sentence, token), what was found
and what was expected; nothing else escapes; inputs are never modified."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from conftest import nested
from hypothesis import given, settings
from hypothesis import strategies as st

import nerscore
from nerscore import InvalidInputError, compute_semeval
from nerscore.errors import located, shown

ID_LABELS = ["O", "B-PER", "I-PER"]


def with_tag(side: str, tag: object) -> dict:
    """A batch of two sentences with `tag` at sentence 1, token 2 of `side`, "O" everywhere else."""
    bad = [["O", "O", "O"], ["O", "O", tag]]
    good = [["O", "O", "O"], ["O", "O", "O"]]
    return (
        {"predictions": bad, "references": good} if side == "predictions" else {"predictions": good, "references": bad}
    )


def tag_case(side: str, tag: object, expected: list[str], *, id: str, **options):
    return pytest.param(side, tag, options, expected, id=id)


# (side, tag, options, fragments of the expected form that the message must contain)
TAG_CASES = [
    tag_case("references", "X-PER", ["unknown prefix 'X'", "'O' or PREFIX-TYPE", "B, I"], id="unknown-prefix"),
    tag_case("predictions", "X-PER", ["unknown prefix 'X'", "'O' or PREFIX-TYPE"], id="unknown-prefix-predictions"),
    tag_case("predictions", "B-", ["no type", "PREFIX-TYPE"], id="prefix-with-empty-type"),
    tag_case("references", "B", ["no type", "PREFIX-TYPE"], id="bare-prefix"),
    tag_case("references", "I", ["no type", "PREFIX-TYPE"], id="bare-prefix-I"),
    tag_case("predictions", "PER", ["no prefix", "PREFIX-TYPE"], id="type-without-prefix"),
    tag_case("references", "", ["no prefix", "PREFIX-TYPE"], id="empty-tag"),
    tag_case("predictions", "o", ["uppercase 'O'"], id="lowercase-o"),
    tag_case("references", "O-PER", ["'O'", "PREFIX-TYPE"], id="O-with-type"),
    tag_case("predictions", "S-PER", ["IOB2", "IOBES"], id="S-under-IOB2-suggests-IOBES"),
    tag_case("predictions", "S-PER", ["IOB2", "IOBES"], id="S-under-IOB2-strict", mode="strict"),
    tag_case("references", "E-PER", ["IOB2", "IOE2"], id="E-under-IOB2"),
    tag_case("references", "B-PER", ["IOE2", "IOB2"], id="B-under-IOE2", scheme="IOE2"),
    tag_case("references", "B-PER", ["IO ", "IOB2"], id="B-under-IO", scheme="IO"),
    tag_case("predictions", "U-PER", ["IOBES", "BILOU"], id="U-under-IOBES", scheme="IOBES"),
    tag_case("predictions", "M-PER", ["IOBES", "BMES"], id="M-under-IOBES", scheme="IOBES"),
    tag_case("predictions", "L-PER", ["BMES", "BILOU"], id="L-under-BMES", scheme="BMES", mode="strict"),
    tag_case("references", "B-PER", ["TYPE-PREFIX"], id="prefix-first-with-suffix", suffix=True),
    tag_case("references", "-B", ["no type", "TYPE-PREFIX"], id="suffix-empty-type", suffix=True),
]


def check_located(error: BaseException, side: str, fragments: list[str]) -> None:
    message = str(error)
    for fragment in (side, "sentence 1", "token 2", *fragments):
        assert fragment in message, f"{fragment!r} not in {message!r}"
    # evaluate imports its own copy of the module, hence the class by name.
    assert type(error).__name__ == InvalidInputError.__name__
    assert (error.side, error.sentence, error.token) == (side, 1, 2)


@pytest.mark.parametrize(("side", "tag", "options", "fragments"), TAG_CASES)
def test_bad_tag(metric, side: str, tag: str, options: dict, fragments: list[str]) -> None:
    with pytest.raises(ValueError) as caught:
        compute_semeval(**with_tag(side, tag), **options)
    check_located(caught.value, side, [repr(tag), *fragments])
    # The evaluate wrapper reports the same.
    with pytest.raises(ValueError) as caught:
        metric.compute(**with_tag(side, tag), **options)
    check_located(caught.value, side, [repr(tag), *fragments])


NON_STRING_TAGS = [
    pytest.param(None, ["None", "string"], id="None-tag"),
    pytest.param(3, ["3", "string"], id="int-among-strings"),
    pytest.param(1.5, ["1.5", "string"], id="float-tag"),
    pytest.param(["B-PER"], ["['B-PER']", "string"], id="nested-list"),
    pytest.param(b"B-PER", ["b'B-PER'", "string"], id="bytes-tag"),
]


@pytest.mark.parametrize(("tag", "fragments"), NON_STRING_TAGS)
def test_non_string_tag(tag: object, fragments: list[str]) -> None:
    with pytest.raises(ValueError) as caught:
        compute_semeval(**with_tag("predictions", tag))
    check_located(caught.value, "predictions", fragments)


def ids(predictions: list, references: list, **options) -> dict:
    return {"predictions": predictions, "references": references, **options}


# (inputs and options, fragments the message must contain)
OTHER_CASES = [
    pytest.param(
        ids([["O"], ["O", "O", "O"]], [["O"], ["O", "O"]]),
        ["sentence 1", "predictions", "references", "3", "2"],
        id="different-lengths",
    ),
    pytest.param(
        ids([["O"], ["O"]], [["O"], ["O"], ["O"]]),
        ["predictions", "references", "2", "3", "sentences"],
        id="different-number-of-sentences",
    ),
    pytest.param(ids([["O"]], [["O"]], scheme="IOB3"), ["'IOB3'", "IOB2", "IOBES", "BIOES"], id="unknown-scheme"),
    pytest.param(ids([["O"]], [["O"]], mode="loose"), ["'loose'", "lenient", "strict"], id="unknown-mode"),
    pytest.param(ids([["O"]], [["O"]], beta=-1.0), ["beta", "-1.0", ">= 0"], id="negative-beta"),
    pytest.param(ids([[1, 0]], [[1, 0]]), ["integer ids", "label_list"], id="ids-without-label-list"),
    pytest.param(
        ids([[0, 0, 0], [0, 0, 0]], [[0, 1, 2], [0, 0, 7]], label_list=ID_LABELS),
        ["references", "sentence 1", "token 2", "7", "0 to 2"],
        id="reference-id-out-of-range",
    ),
    pytest.param(
        ids([[0, 0, 0], [0, 0, -1]], [[0, 0, 0], [0, 0, 0]], label_list=ID_LABELS),
        ["predictions", "sentence 1", "token 2", "-1", "0 to 2"],
        id="negative-prediction-id",
    ),
    pytest.param(
        ids([[0, 0, 0], [0, 0, 3]], [[0, 0, 0], [0, 0, 0]], label_list={0: "O", 1: "B-PER", 2: "I-PER"}),
        ["predictions", "sentence 1", "token 2", "3", "0 to 2"],
        id="prediction-id-not-in-dict",
    ),
    pytest.param(
        ids([[0, 0, 0], [0, 0, -100]], [[0, 0, 0], [0, 0, 1]], label_list=ID_LABELS),
        ["predictions", "sentence 1", "token 2", "-100"],
        id="ignore-index-in-predictions-where-reference-has-a-label",
    ),
    pytest.param(
        ids([[0, 0, 0], [0, 0, 1]], [[0, 0, 0], [0, 0, 0]], label_list=["O", "PER"]),
        ["predictions", "sentence 1", "token 2", "'PER'", "no prefix"],
        id="label-list-holds-a-bad-tag",
    ),
]


def refusals(metric, inputs: dict, fragments: list[str]) -> list[str]:
    """The messages of compute_semeval and of the metric's compute for `inputs`, each a ValueError holding every
    one of `fragments`."""
    messages = []
    for compute in (compute_semeval, metric.compute):
        with pytest.raises(ValueError) as caught:
            compute(**inputs)
        message = str(caught.value)
        for fragment in fragments:
            assert fragment in message, f"{compute.__name__}: {fragment!r} not in {message!r}"
        messages.append(message)
    return messages


@pytest.mark.parametrize(("inputs", "fragments"), OTHER_CASES)
def test_bad_input(metric, inputs: dict, fragments: list[str]) -> None:
    refusals(metric, inputs, fragments)


# Odd inputs of every kind: whatever they are, the only exception is ValueError (no TypeError, IndexError,
# KeyError from deep inside). pytest.raises(ValueError) lets any other exception fail the test.
ODD_INPUTS = [
    pytest.param(ids(None, [["O"]]), id="predictions-None"),
    pytest.param(ids([["O"]], None), id="references-None"),
    pytest.param(ids(5, 5), id="batch-is-int"),
    pytest.param(ids("B-PER", "B-PER"), id="batch-is-string"),
    pytest.param(ids(["B-PER"], ["B-PER"]), id="flat-list-of-tags"),
    pytest.param(ids([None], [None]), id="sentence-None"),
    pytest.param(ids([5], [5]), id="sentence-is-int"),
    pytest.param(ids({"a": 1}, {"a": 1}), id="batch-is-dict"),
    pytest.param(ids([[None]], [[None]]), id="tags-None"),
    pytest.param(ids([[{}]], [["O"]]), id="tag-is-dict"),
    pytest.param(ids([[["B-PER"]]], [[["B-PER"]]]), id="three-levels"),
    pytest.param(ids(np.zeros((1, 2, 2), dtype=int), np.zeros((1, 2, 2), dtype=int)), id="3-D-array"),
    pytest.param(ids(np.array(["B-PER", "O"]), np.array(["B-PER", "O"])), id="1-D-array-of-tags"),
    pytest.param(ids([[1, "O"]], [[1, 1]], label_list=ID_LABELS), id="ids-mixed-with-strings"),
    pytest.param(ids([[True]], [[1]], label_list=ID_LABELS), id="bool-id"),
    pytest.param(ids([[1.0]], [[1.0]], label_list=ID_LABELS), id="float-ids"),
    pytest.param(ids([[1]], [[1]], label_list={"a": "O"}), id="label-list-dict-with-word-keys"),
    pytest.param(ids([[1]], [[1]], label_list=[]), id="label-list-empty"),
    pytest.param(ids([[1]], [[1]], label_list=[None, None]), id="label-list-of-None"),
    pytest.param(ids([[1]], [[1]], label_list={0: "O", 1: 5}), id="label-list-dict-with-int-tag"),
    pytest.param(
        ids([[1]], [[1]], label_list=5),
        id="label-list-is-int",
    ),
    pytest.param(ids([["O"]], [["O"]], labels="PER"), id="labels-is-a-string"),
    pytest.param(ids([["O"]], [["O"]], labels=5), id="labels-is-int"),
    pytest.param(
        ids([["B-PER"]], [["B-PER"]], labels=[["PER"]]),
        id="labels-holds-a-list",
    ),
    pytest.param(ids([["O"]], [["O"]], scheme=None), id="scheme-None"),
    pytest.param(ids([["O"]], [["O"]], scheme=3), id="scheme-int"),
    pytest.param(ids([["O"]], [["O"]], mode=None), id="mode-None"),
    pytest.param(ids([["O"]], [["O"]], beta=None), id="beta-None"),
    pytest.param(ids([["O"]], [["O"]], beta="1"), id="beta-string"),
    pytest.param(ids([["O"]], [["O"]], beta=float("nan")), id="beta-nan"),
    pytest.param(ids([["O"]], [["O"]], beta=float("inf")), id="beta-inf"),
    pytest.param(ids([["O"]], [["O"]], zero_division=None), id="zero-division-None"),
    pytest.param(ids([["O"]], [["O"]], zero_division="1"), id="zero-division-string"),
]


@pytest.mark.parametrize("inputs", ODD_INPUTS)
def test_odd_input_raises_only_value_error(inputs: dict) -> None:
    with pytest.raises(ValueError):
        compute_semeval(**inputs)


@pytest.mark.parametrize(
    "inputs",
    [
        pytest.param(
            ids(None, [["O"]]),
            id="predictions-None",
        ),
        pytest.param(ids("B-PER", "B-PER"), id="batch-is-string"),
        pytest.param(ids([None], [None]), id="sentence-None"),
        pytest.param(ids([[None]], [[None]]), id="tags-None"),
        pytest.param(ids([[["B-PER"]]], [[["B-PER"]]]), id="three-levels"),
        pytest.param(ids([[1, "O"]], [[1, 1]], label_list=ID_LABELS), id="ids-mixed-with-strings"),
        pytest.param(ids([[0, 1]], [["O", "B-PER"]], label_list=ID_LABELS), id="ids-against-strings"),
        pytest.param(ids([[True]], [[True]], label_list=ID_LABELS), id="bool-ids"),
        pytest.param(ids([["O"]], [["O"]], foo=1), id="unknown-option"),
        pytest.param(ids([["O"]], [["O"], ["O"]]), id="different-number-of-sentences"),
    ],
)
def test_odd_input_through_evaluate_raises_only_value_error(metric, inputs: dict) -> None:
    with pytest.raises(ValueError):
        metric.compute(**inputs)


_STRINGS_BATCH = {"predictions": [[("PER", "a")]], "references": [[("PER", "a")]], "texts": ["a b"]}


def test_metric_is_usable_after_a_failed_compute(metric) -> None:
    with pytest.raises(ValueError):
        metric.compute(predictions=[[True]], references=[[True]], label_list=ID_LABELS)
    result = metric.compute(predictions=[[1, 2]], references=[[1, 2]], label_list=ID_LABELS)
    assert result["strict_correct"] == 1


@pytest.mark.parametrize(
    "first",
    [{"predictions": [["B-PER"]], "references": [["B-PER"]]}, {**_STRINGS_BATCH}],
    ids=["after-tags", "after-strings"],
)
@pytest.mark.parametrize(
    ("call", "inputs", "fragment"),
    [
        ("add_batch", {"predictions": None, "references": [["O"]]}, "predictions=None beside references"),
        ("add_batch", {"predictions": [["O"]], "references": None}, "references=None beside predictions"),
        ("add_batch", {"predictions": None, "references": None}, "predictions=None and references=None"),
        ("add", {"prediction": None, "reference": ["O"]}, "prediction=None beside reference"),
    ],
    ids=["add-batch-predictions", "add-batch-references", "add-batch-both", "add-prediction"],
)
def test_an_add_without_one_side_is_refused_and_the_batches_before_kept(
    metric, first: dict, call: str, inputs: dict, fragment: str
) -> None:
    # evaluate raised TypeError ("object of type 'NoneType' has no len()"), KeyError 'columns' after a batch with
    # texts, or (add) stored None for compute to fail on (redteam2).
    metric.add_batch(**first)
    with pytest.raises(ValueError, match=re.escape(fragment)):
        getattr(metric, call)(**inputs)
    assert metric.compute()["strict_correct"] == 1


# Inputs are never modified (docs/scoring.md §7 promises a pure function; Trainer reuses its arrays).
def unchanged_inputs() -> list:
    padded = np.array([[1, 2, 0, -100], [0, 1, -100, -100]])
    return [
        pytest.param(ids([["B-PER", "I-PER", "O"], ["O"]], [["B-PER", "O", "O"], ["B-LOC"]]), id="string-lists"),
        pytest.param(
            ids([[1, 2, 0, 0], [0, 1, 0, 0]], [[1, 2, 0, -100], [0, 1, -100, -100]], label_list=list(ID_LABELS)),
            id="id-lists-with-ignore-index",
        ),
        pytest.param(
            ids(padded.copy(), padded.copy(), label_list={0: "O", 1: "B-PER", 2: "I-PER"}),
            id="numpy-id-arrays-and-dict",
        ),
        pytest.param(
            ids(np.array([["B-PER", "O"], ["O", "O"]]), np.array([["B-PER", "I-PER"], ["O", "O"]])),
            id="numpy-string-arrays",
        ),
        pytest.param(
            ids([["B-PER", "O", "B-LOC"]], [["B-PER", "O", "O"]], labels=["PER"], per_type=True, return_entities=True),
            id="labels-list",
        ),
        pytest.param(ids([["PER-B", "PER-I"]], [["PER-B", "O"]], suffix=True, scheme="BIO"), id="suffix"),
    ]


def assert_same(before: object, after: object) -> None:
    if isinstance(before, np.ndarray):
        assert isinstance(after, np.ndarray)
        assert before.dtype == after.dtype
        assert np.array_equal(before, after)
    elif isinstance(before, dict):
        assert list(before) == list(after)
        for key in before:
            assert_same(before[key], after[key])
    elif isinstance(before, list):
        assert type(after) is list and len(before) == len(after)
        for a, b in zip(before, after):
            assert_same(a, b)
    else:
        assert type(before) is type(after) and before == after


@pytest.mark.parametrize("inputs", unchanged_inputs())
def test_compute_semeval_never_modifies_inputs(inputs: dict) -> None:
    before = copy.deepcopy(inputs)
    compute_semeval(**inputs)
    assert_same(before, inputs)


@pytest.mark.parametrize("inputs", unchanged_inputs())
def test_metric_compute_never_modifies_inputs(metric, inputs: dict) -> None:
    before = copy.deepcopy(inputs)
    metric.compute(**inputs)
    assert_same(before, inputs)


@pytest.mark.parametrize(
    "scheme, tag, suggestion",
    [
        pytest.param("IOB2", "S-PER", "IOBES", id="S-in-IOB2-points-to-IOBES"),
        pytest.param("IOB2", "E-PER", "IOBES", id="E-in-IOB2-keeps-B-and-I"),
        pytest.param("IOE2", "B-PER", "IOBES", id="B-in-IOE2-keeps-E"),
        pytest.param("IO", "B-PER", "IOB2", id="B-in-IO-points-to-IOB2"),
        pytest.param("IOB2", "L-PER", "BILOU", id="L-points-to-BILOU"),
        pytest.param("IOB2", "M-PER", "BMES", id="M-points-to-BMES-though-it-lacks-I"),
    ],
)
def test_a_letter_the_scheme_lacks_suggests_a_scheme_that_has_it(scheme: str, tag: str, suggestion: str) -> None:
    with pytest.raises(
        ValueError, match=rf"^predictions, sentence 0, token 1: found tag '{tag}'.*scheme='{suggestion}'$"
    ):
        compute_semeval(predictions=[["O", tag]], references=[["O", "O"]], scheme=scheme)


# ---------------------------------------------------------------------------------------------------------
# Values nested deep or of many digits (issue 16, item 10): the message shows them cut short, and says where
# ---------------------------------------------------------------------------------------------------------


DEEP = nested(100_000)
HUGE = 10**5000  # more digits than Python writes (4,300)


def bounded_case(inputs: dict, fragments: list[str], *, id: str):
    return pytest.param(inputs, fragments, id=id)


# (inputs and options, fragments the message must contain); on e2fb4c1 each raised RecursionError, or a ValueError
# about Python's digit limit that named no place.
BOUNDED_CASES = [
    bounded_case(
        ids([["O", DEEP]], [["O", "O"]]), ["predictions", "sentence 0", "token 1", "[[[[", "string tag"], id="deep-tag"
    ),
    bounded_case(ids([DEEP], [["O"]]), ["predictions", "sentence 0", "token 0", "[[[["], id="deep-sentence"),
    bounded_case(
        ids([[0, DEEP]], [[0, 0]], label_list=ID_LABELS),
        ["predictions", "sentence 0", "token 1", "[[[[", "label_list"],
        id="deep-id",
    ),
    bounded_case(
        ids([[(0, 1, DEEP)]], [[(0, 1, "PER")]]),
        ["predictions", "sentence 0", "entity 0", "the type is [[[[", "'PER'"],
        id="deep-type",
    ),
    bounded_case(
        ids([[(0, 1, "PER")]], [[(DEEP, 1, "PER")]]),
        ["references", "sentence 0", "entity 0", "start is [[[[", "(list)", "non-negative integer"],
        id="deep-start",
    ),
    bounded_case(
        ids([[{"start": 0, "end": DEEP, "type": "PER"}]], [[]]), ["entity 0", "end is [[[["], id="deep-end-in-a-dict"
    ),
    bounded_case(
        ids([[{"start": DEEP}]], [[]]), ["entity 0", "{'start': [[[[", "no 'end'"], id="deep-dict-without-end"
    ),
    bounded_case(ids([["O"]], [["O"]], labels=[DEEP]), ["labels must be", "[[[["], id="deep-label"),
    bounded_case(ids([["O"]], [["O"]], beta=DEEP), ["beta must be", "[[[[", "(list)"], id="deep-beta"),
    bounded_case(ids([["O"]], [["O"]], seed=DEEP), ["seed must be", "[[[["], id="deep-seed"),
    bounded_case(ids([["O"]], [["O"]], scheme=DEEP), ["unknown scheme [[[["], id="deep-scheme"),
    bounded_case(ids([["O"]], [["O"]], mode=DEEP), ["unknown mode [[[["], id="deep-mode"),
    bounded_case(ids([["O"]], [["O"]], per_type=DEEP), ["per_type must be True or False", "[[[["], id="deep-flag"),
    bounded_case(ids([[1]], [[1]], label_list=[DEEP]), ["label_list maps id 0 to [[[["], id="deep-label-list-tag"),
    bounded_case(ids([["O"]], [["O"]], min_overlap=DEEP), ["min_overlap must be", "[[[["], id="deep-min-overlap"),
    bounded_case(ids([["O"]], [["O"]], ignore_index=DEEP), ["ignore_index must be", "[[[["], id="deep-ignore-index"),
    bounded_case(ids([["O"]], [["O"]], bootstrap=DEEP), ["bootstrap must be", "[[[["], id="deep-bootstrap"),
    bounded_case(
        ids([[0, HUGE]], [[0, 0]], label_list=ID_LABELS),
        ["predictions", "sentence 0", "token 1", "found id <int of about 5,001 digits>", "0 to 2"],
        id="huge-id",
    ),
    bounded_case(
        ids([[1]], [[1]], label_list={0: "O", HUGE: "B-PER"}),
        ["sentence 0", "token 0", "found id 1", "0, <int of about 5,001 digits>"],
        id="huge-label-list-key",
    ),
    bounded_case(
        ids([[(HUGE, 1, "PER")]], [[]]),
        ["predictions", "entity 0", "start <int of about 5,001 digits> >= end 1"],
        id="huge-start-after-end",
    ),
    bounded_case(
        ids([[(-HUGE, 1, "PER")]], [[]]),
        ["entity 0", "start is <negative int of about 5,001 digits>"],
        id="huge-negative-start",
    ),
    bounded_case(ids([["O"]], [["O"]], bootstrap=HUGE), ["bootstrap must be", "5,001 digits"], id="huge-bootstrap"),
    bounded_case(
        ids([[{"fragments": [[0, 1], [HUGE + 5, HUGE + 1]], "type": "PER"}]], [[]]),
        ["predictions", "sentence 0", "entity 0", "fragment 1", "<int of about 5,001 digits>"],
        id="huge-fragment-start-after-end",
    ),
]


@pytest.mark.parametrize(("inputs", "fragments"), BOUNDED_CASES)
def test_a_deep_or_huge_value_is_shown_cut_short_where_it_is(metric, inputs: dict, fragments: list[str]) -> None:
    for message in refusals(metric, inputs, fragments):
        assert len(message) < 600


@pytest.mark.parametrize(("inputs", "fragments"), [case for case in BOUNDED_CASES if len(case.values[0]) == 2])
def test_a_deep_or_huge_value_added_to_the_metric_is_refused_where_it_is(
    metric, inputs: dict, fragments: list[str]
) -> None:
    metric.add_batch(predictions=[[]], references=[[]])  # a sentence before: the bad one is sentence 1 of all
    with pytest.raises(ValueError) as caught:
        metric.add_batch(**inputs)
    message = str(caught.value)
    for fragment in fragments:
        fragment = fragment.replace("sentence 0", "sentence 1")
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert "sentence 1" in message and len(message) < 600
    assert metric.compute()["strict_possible"] == 0  # nothing stored from the refused batch


SHOWN_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(), st.binary())
SHOWN_VALUES = st.recursive(
    SHOWN_SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), children, max_size=3),
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(SHOWN_VALUES, st.integers(min_value=4, max_value=200))
def test_shown_writes_a_short_value_as_repr_does_and_any_value_within_its_limit(value, limit: int) -> None:
    text = shown(value, limit)
    assert len(text) <= limit
    if len(repr(value)) <= limit:
        assert text == repr(value)
    else:
        assert text.endswith("...")


class CountedRepr:
    """An item that counts how often it is written."""

    calls = 0

    def __repr__(self) -> str:
        CountedRepr.calls += 1
        return "c"


def test_shown_writes_only_what_fits_of_a_long_list() -> None:
    # Structural, not timed: Python's repr writes all million items (and recurses on a deep list), shown those
    # that fit its limit.
    CountedRepr.calls = 0
    text = shown([CountedRepr()] * 1_000_000)
    assert len(text) == 100 and text.startswith("[c, c, c") and text.endswith("...")
    assert CountedRepr.calls <= 100
    assert shown(nested(100_000), 10) == "[[[[[[[..."


class FailingRepr:
    """A foreign object whose repr raises."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_shown_names_the_type_of_a_value_whose_repr_fails() -> None:
    assert shown(FailingRepr()) == "<FailingRepr object>"
    assert shown([1, FailingRepr()]) == "[1, <FailingRepr object>]"


def _refused(error: InvalidInputError) -> None:
    raise error


def test_located_places_an_error_at_its_sentence_unless_it_names_one() -> None:
    with pytest.raises(InvalidInputError) as unlocated:
        located(3, _refused, InvalidInputError("too many pairs", "predictions"))
    assert (unlocated.value.side, unlocated.value.sentence) == ("predictions", 3)
    with pytest.raises(InvalidInputError) as own:
        located(3, _refused, InvalidInputError("too many pairs", "predictions", 1))
    assert own.value.sentence == 1


# What evaluate stores (Arrow int64 and UTF-8) is narrower than what compute_semeval scores: before it is stored,
# a value beyond it is refused where it is (on e2fb4c1: pyarrow's OverflowError or an unlocated
# UnicodeEncodeError). (batch, the start of the message); the batch follows one sentence without values.
STORING_CASES = [
    pytest.param(
        ids([[(0, HUGE, "PER")]], [[]]),
        "predictions, sentence 1, entity 0: end is <int of about 5,001 digits>, beyond the 64-bit integers",
        id="offset-of-5000-digits",
    ),
    pytest.param(
        ids([[]], [[(2**63, 2**63 + 1, "PER")]]),
        "references, sentence 1, entity 0: start is 9223372036854775808, beyond the 64-bit integers",
        id="offset-2-to-the-63",
    ),
    pytest.param(
        ids([[0, 2**63]], [[0, 0]]),
        "predictions, sentence 1, token 1: found id 9223372036854775808, beyond the 64-bit integers",
        id="id-2-to-the-63",
    ),
    pytest.param(
        ids([[0, 0]], [[0, -(2**63) - 1]]),
        "references, sentence 1, token 1: found id -9223372036854775809, beyond",
        id="id-below-int64",
    ),
    pytest.param(
        ids([[(0, 2, "\ud800")]], [[(0, 2, "PER")]]),
        "predictions, sentence 1, entity 0: the type is '\\ud800', which holds the lone surrogate '\\ud800'",
        id="type-with-a-lone-surrogate",
    ),
    pytest.param(
        ids([[]], [[(0, 1, "PER"), {"start": 0, "end": 2, "label": "P\udc00"}]]),
        "references, sentence 1, entity 1: the type is 'P\\udc00', which holds the lone surrogate",
        id="label-with-a-lone-surrogate",
    ),
    pytest.param(
        ids([["O", "B-\ud800"]], [["O", "O"]]),
        "predictions, sentence 1, token 1: found tag 'B-\\ud800', which holds the lone surrogate",
        id="tag-with-a-lone-surrogate",
    ),
]


@pytest.mark.parametrize(("inputs", "message"), STORING_CASES)
def test_what_evaluate_cannot_store_is_refused_where_it_is(metric, inputs: dict, message: str) -> None:
    metric.add_batch(predictions=[[]], references=[[]])
    with pytest.raises(ValueError) as caught:
        metric.add_batch(**inputs)
    assert str(caught.value).startswith(message), str(caught.value)
    assert type(caught.value).__name__ == InvalidInputError.__name__
    assert metric.compute()["strict_possible"] == 0  # the refused batch stored nothing, and the metric works


def test_a_string_entity_whose_text_evaluate_cannot_store_is_refused_where_it_is(metric) -> None:
    batch = {"predictions": [[("PER", "A\ud800")]], "references": [[("PER", "A")]], "texts": ["A b"]}
    with pytest.raises(ValueError, match=r"^predictions, sentence 0, entity 0: the text is 'A\\ud800', which holds"):
        metric.add_batch(**batch)
    result = compute_semeval(**batch)  # (compute_semeval stores nothing: the text scores, ungrounded)
    assert result["ungrounded"] == 1


@pytest.mark.parametrize(("inputs", "message"), [case for case in STORING_CASES if "entity" in case.values[1]])
def test_compute_semeval_which_stores_nothing_scores_them(metric, inputs: dict, message: str) -> None:
    # A Python int of any size is an offset and a lone surrogate a string: only storing them is refused.
    for compute in (compute_semeval, metric.compute):
        result = compute(**inputs)
        assert result["strict_possible"] + result["strict_actual"] >= 1


# Values that only look like another form (issue 31): the message says what the value is and where it is, never
# "predictions hold spans" (logits as nested lists) or "predictions hold tags" (a malformed string entity or span).
# (inputs, (side, sentence, token, entity), fragments of the message)
_STRING_REFERENCES = {"references": [[("PER", "a")]] * 4, "texts": ["a b"] * 4}


class _EvalPrediction:
    """What Trainer hands compute_metrics (transformers' EvalPrediction): logits and labels, not a tuple."""

    predictions = np.zeros((2, 5, 3))
    label_ids = np.zeros((2, 5), dtype=int)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter((self.predictions, self.label_ids))


MISLEADING_FIRST_VALUES = [
    pytest.param(
        {"predictions": [[[0.1, 0.9, 0.0], [0.8, 0.1, 0.1]]], "references": [[1, 0]], "label_list": ID_LABELS},
        ("predictions", 0, 0, None),
        ["[0.1, 0.9, 0.0]", "a list of numbers", "integer ids", "logits.argmax(-1)"],
        id="logits-of-three-labels-as-lists-against-ids",
    ),
    pytest.param(
        {"predictions": [[[0.1, 0.9, 0.0]]], "references": [["B-PER"]]},
        ("predictions", 0, 0, None),
        ["a list of numbers", "holds tags", "logits.argmax(-1)"],
        id="logits-of-three-labels-as-lists-against-tags",
    ),
    pytest.param(
        {"predictions": [[[0.1, 0.9]]], "references": [["B-PER"]]},
        ("predictions", 0, 0, None),
        ["[0.1, 0.9]", "a list of numbers", "expected a string tag", "logits.argmax(-1)"],
        id="logits-of-two-labels-as-lists-against-tags",
    ),
    pytest.param(
        {"predictions": [[[0.1, 0.9, 0.0, 0.0, 0.0]]], "references": [[1]], "label_list": [*ID_LABELS, "B-X", "I-X"]},
        ("predictions", 0, 0, None),
        ["[0.1, 0.9, 0.0, 0.0, 0.0]", "expected an id of label_list", "logits.argmax(-1)"],
        id="logits-of-five-labels-as-lists-against-ids",
    ),
    # Trainer's (logits, labels) given as the predictions (redteam4): read as two sentences, this was "sentence 0:
    # predictions have 2 tags and references 5".
    pytest.param(
        {
            "predictions": (np.zeros((2, 5, 3)), np.zeros((2, 5), dtype=int)),
            "references": np.zeros((2, 5), dtype=int),
            "label_list": ID_LABELS,
        },
        ("predictions", None, None, None),
        [
            "tuple (predictions of shape (2, 5, 3), and labels), from Trainer",
            "eval_pred.predictions.argmax(-1)",
            "label_ids",
        ],
        id="trainer-logits-and-labels-as-the-predictions",
    ),
    pytest.param(
        {"predictions": _EvalPrediction(), "references": np.zeros((2, 5), dtype=int), "label_list": ID_LABELS},
        ("predictions", None, None, None),
        ["_EvalPrediction (predictions of shape (2, 5, 3), and labels)", "argmax(-1)"],
        id="trainer-eval-prediction-as-the-predictions",
    ),
    pytest.param(
        {"predictions": [[], [], [], [(1, 2)]], **_STRING_REFERENCES},
        ("predictions", 3, None, 0),
        ["(1, 2)", "whose type and text are int and int", "(type, text) pair of strings"],
        id="offsets-as-a-string-entity-in-document-3",
    ),
    pytest.param(
        {"predictions": [[], [], [], [("LOC", 7)]], **_STRING_REFERENCES},
        ("predictions", 3, None, 0),
        ["('LOC', 7)", "whose type and text are str and int"],
        id="a-number-as-the-text-in-document-3",
    ),
    pytest.param(
        {"references": [[], [], [], [(1, 2)]], "predictions": [[(0, 1, "PER")]] * 4},
        ("references", 3, None, 0),
        ["(1, 2)", "a tuple of 2 items", "(start, end, type)"],
        id="a-span-without-its-type-in-document-3",
    ),
    # Against a side with no entity at all (redteam2): read as tags, these were "predictions have 1 tags and
    # references 0", naming no entity.
    pytest.param(
        {"predictions": [[(0, 1)]], "references": [[]]},
        ("predictions", 0, None, 0),
        ["(0, 1)", "a tuple of 2 items", "(start, end, type)"],
        id="a-span-without-its-type-against-no-entity",
    ),
    pytest.param(
        {"predictions": [[], [], [("LOC", 7)]], "references": [[], [], []]},
        ("predictions", 2, None, 0),
        ["('LOC', 7)", "whose type and text are str and int"],
        id="a-number-as-the-text-against-no-entity",
    ),
    pytest.param(
        {"predictions": [[]], "references": [[[1, 2]]]},
        ("references", 0, None, 0),
        ["[1, 2]", "a list of 2 items"],
        id="a-list-span-without-its-type-in-the-references-against-no-entity",
    ),
    # After a valid string entity, one of three values was "the span ('LOC', 'Paris', 'x')": it is a string entity
    # of the wrong length (docs/scoring.md §1b: a (type, text) pair).
    pytest.param(
        {"predictions": [[("PER", "a"), ("LOC", "Paris", "x")], [], [], []], **_STRING_REFERENCES},
        ("predictions", 0, None, 1),
        ["('LOC', 'Paris', 'x')", "a string entity of 3 values", "expected a (type, text) pair of strings"],
        id="a-string-entity-of-three-values",
    ),
    pytest.param(
        {"predictions": [[("PER", "a"), ["LOC", "Paris", 0]], [], [], []], **_STRING_REFERENCES},
        ("predictions", 0, None, 1),
        ["['LOC', 'Paris', 0]", "a string entity of 3 values"],
        id="a-string-entity-with-a-start-appended",
    ),
    pytest.param(
        {"predictions": [[("PER", "a"), ("LOC",)], [], [], []], **_STRING_REFERENCES},
        ("predictions", 0, None, 1),
        ["('LOC',)", "a string entity of 1 value)"],
        id="a-string-entity-of-one-value",
    ),
    # After a valid string entity, a value of no length (True, 5, None) raised TypeError "object of type 'bool'
    # has no len()" where its message was written (issue 31, the red team's).
    pytest.param(
        {"predictions": [[("PER", "a"), True], [], [], []], **_STRING_REFERENCES},
        ("predictions", 0, None, 1),
        ["found True (bool)", "expected a (type, text) pair of strings"],
        id="a-bool-among-string-entities",
    ),
    pytest.param(
        {"references": [[("PER", "a")], [], [], [("PER", "b"), None]], "predictions": [[]] * 4, "texts": ["a b"] * 4},
        ("references", 3, None, 1),
        ["found None (NoneType)", "expected a (type, text) pair of strings"],
        id="none-among-string-entities-in-the-references",
    ),
    # A sentence of tags nested one list too deep read as a string entity ("predictions hold string entities and
    # references hold tags") or, of three tags, as a span; named where it is (issue 31, a newcomer's).
    pytest.param(
        {"predictions": [[["B-PER", "O"]]], "references": [["B-PER", "O"]]},
        ("predictions", 0, 0, None),
        ["['B-PER', 'O']", "a list of tags where one tag belongs", "nested one list too deep"],
        id="tags-nested-one-list-too-deep-read-as-a-string-entity",
    ),
    pytest.param(
        {"predictions": [["B-PER", "O", "O"]], "references": [[["B-PER", "O", "O"]]]},
        ("references", 0, 0, None),
        ["['B-PER', 'O', 'O']", "expected one list of tags per sentence"],
        id="tags-nested-one-list-too-deep-read-as-a-span",
    ),
    pytest.param(  # (was "found string entities (no offsets) and no texts; expected texts=")
        {"predictions": [[], [["B-PER", "O"]]], "references": [[], [["B-PER", "O"]]]},
        ("references", 1, 0, None),
        ["['B-PER', 'O']", "a list of tags where one tag belongs", "nested one list too deep"],
        id="tags-nested-one-list-too-deep-on-both-sides",
    ),
    # One sentence's entities given without their list: the entity's values were read as tags or ids ("references
    # hold spans and predictions hold integer ids", "found integer ids; pass label_list").
    pytest.param(
        {"predictions": [(0, 1, "PER")], "references": [[(0, 1, "PER")]]},
        ("predictions", 0, None, None),
        ["found the entity (0, 1, 'PER') where a batch holds one list per sentence", "[entities]"],
        id="a-span-where-a-sentence-belongs",
    ),
    pytest.param(
        {"predictions": [(0, 1, "PER")], "references": [(0, 1, "PER")]},
        ("references", 0, None, None),
        ["found the entity (0, 1, 'PER') where a batch holds one list per sentence"],
        id="spans-where-sentences-belong-on-both-sides",
    ),
    pytest.param(
        {"predictions": [[], ("PER", "Ann")], "references": [[], [("PER", "Ann")]], "texts": ["", "Ann"]},
        ("predictions", 1, None, None),
        ["found the entity ('PER', 'Ann') where a batch holds one list per sentence"],
        id="a-string-entity-where-a-sentence-belongs",
    ),
    # Tags against ids without label_list: "found integer ids; pass label_list", which would not have helped.
    pytest.param(
        {"predictions": [[], ["B-PER", "O"]], "references": [[], [1, 0]]},
        ("predictions", 1, 0, None),
        ["found the tag 'B-PER' where the other side holds integer ids", "both sides in one form"],
        id="tags-against-ids-without-label-list",
    ),
    # Logits as nested lists against reference ids, without label_list: "found integer ids; pass label_list",
    # which names no place and mistakes the scores for ids (issue 31, a newcomer's, again on a fresh clone).
    pytest.param(
        {"predictions": [[[0.1, 0.9], [0.8, 0.2]]], "references": [[1, 0]]},
        ("predictions", 0, 0, None),
        ["found [0.1, 0.9]", "argmax(-1)"],
        id="logits-as-nested-lists-without-label-list",
    ),
    # Ids without label_list (a datasets column of ClassLabel ids, say) named no place, nor the dataset's names.
    pytest.param(
        {"predictions": [[], [1, 0]], "references": [[], [1, 0]]},
        ("predictions", 1, 0, None),
        ["found the integer id 1 where a tag belongs", "pass label_list", "id2label", ".feature.names"],
        id="ids-without-label-list-named-where",
    ),
]


@pytest.mark.parametrize(("inputs", "where", "fragments"), MISLEADING_FIRST_VALUES)
def test_a_value_that_looks_like_another_form_says_what_it_is(inputs: dict, where: tuple, fragments: list) -> None:
    with pytest.raises(InvalidInputError) as caught:
        compute_semeval(**inputs)
    error = caught.value
    assert (error.side, error.sentence, error.token, error.entity) == where
    message = str(error)
    assert "hold spans" not in message and "hold tags" not in message, message
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} not in {message!r}"


def test_fragments_as_a_numpy_array_are_read_as_lists_are() -> None:
    # The red team's: each row of a 2-D array of fragments was "not a pair; expected [start, end]", which it is.
    as_lists = [[{"fragments": [[0, 2], [4, 6]], "type": "A"}]]
    as_array = [[{"fragments": np.array([[0, 2], [4, 6]]), "type": "A"}]]
    expected = compute_semeval(predictions=as_lists, references=[[(0, 6, "A")]], return_entities=True)
    assert compute_semeval(predictions=as_array, references=[[(0, 6, "A")]], return_entities=True) == expected
    with pytest.raises(InvalidInputError, match=r"fragment 0 array\(\[0, 2, 4\]\) is not a pair"):
        compute_semeval(predictions=[[{"fragments": np.array([[0, 2, 4]]), "type": "A"}]], references=[[]])


# read_spans and side_forms (public) take batches as compute_semeval does: None or a sentence that is no list was
# a TypeError ("'NoneType' object is not iterable", "object of type 'int' has no len()"), labels of lists
# "unhashable type: 'list'"; now the side and sentence are named, labels refused as the option is.
# (call, message)
@pytest.mark.parametrize("container", [dict, "DataFrame", "Dataset"])
def test_a_table_of_columns_is_refused_not_read_by_its_keys(container) -> None:
    # Iterated, a dict or a DataFrame gives its keys: "sentence 0: found 'tags'; expected a list of tags"; a
    # datasets.Dataset its rows: "found the entity {'tags': [...]} where a batch holds one list per sentence".
    columns = {"tags": [["B-PER", "O"]]}
    if container is dict:
        batch: Any = columns
    elif container == "DataFrame":
        batch = pytest.importorskip("pandas").DataFrame(columns)
    else:
        batch = pytest.importorskip("datasets").Dataset.from_dict(columns)
    with pytest.raises(InvalidInputError) as caught:
        compute_semeval(predictions=batch, references=[["B-PER", "O"]])
    assert (caught.value.side, caught.value.sentence) == ("predictions", None)
    assert "keys ['tags']" in str(caught.value) and "one column of it" in str(caught.value)


BAD_BATCH_CALLS = [
    pytest.param(lambda: nerscore.read_spans(None, "predictions"), r"^predictions: found NoneType", id="no-batch"),
    pytest.param(lambda: nerscore.read_spans([3], "references"), r"^references, sentence 0: found 3", id="an-int"),
    pytest.param(lambda: nerscore.read_spans([[(0, 1, "X")]], "predictions", [[]]), r"^labels must be", id="labels"),
    pytest.param(lambda: nerscore.side_forms(None, [[]]), r"^predictions: found NoneType", id="forms-no-batch"),
    pytest.param(lambda: nerscore.side_forms([["B-X"]], [None]), r"^references, sentence 0: found None", id="none"),
]


@pytest.mark.parametrize(("call", "message"), BAD_BATCH_CALLS)
def test_public_readers_of_batches_name_the_side_and_sentence(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def _raised_by(sentences: Iterator[Any]) -> Exception:
    """The error a reader raises (a ConllError naming the other format it found: its `other_format` pickles)."""
    with pytest.raises(nerscore.ConllError) as raised:
        list(sentences)
    return raised.value


ERRORS_ACROSS_PROCESSES = [
    pytest.param(lambda: InvalidInputError("bad", side="predictions", sentence=3, token=2), id="invalid-input"),
    pytest.param(lambda: nerscore.ConllError("a.conll", 3, "found 1 column"), id="conll-line"),
    pytest.param(lambda: nerscore.ConllError("ann/", None, "has no counterpart"), id="conll-whole-file"),
    pytest.param(lambda: _raised_by(nerscore.read_conll(['{"text": "a"}'], "a.conll")), id="conll-of-another-format"),
    pytest.param(lambda: nerscore.HipeFileError("a.tsv", 4, "found 'X'", "NE-COARSE-LIT"), id="hipe-column"),
]


@pytest.mark.parametrize("make", ERRORS_ACROSS_PROCESSES)
@pytest.mark.parametrize("protocol", [0, 2, 5])
def test_errors_pickle_with_their_attributes(make, protocol: int) -> None:
    # A process pool sends a worker's error back pickled: ConllError and HipeFileError could not be loaded
    # ("__init__() missing 2 required positional arguments"), so the pool reported a TypeError, not the file's line.
    import pickle

    error = make()
    loaded = pickle.loads(pickle.dumps(error, protocol))
    assert type(loaded) is type(error) and str(loaded) == str(error) and loaded.args == error.args
    assert vars(loaded) == vars(error)
