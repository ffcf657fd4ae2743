"""Bad input (docs/scoring.md §1): every problem is a ValueError that says where (side, sentence, token), what was found
and what was expected; nothing else escapes; inputs are never modified."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from nerscore import InvalidInputError, compute_semeval

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


@pytest.mark.parametrize(("inputs", "fragments"), OTHER_CASES)
def test_bad_input(metric, inputs: dict, fragments: list[str]) -> None:
    for compute in (compute_semeval, metric.compute):
        with pytest.raises(ValueError) as caught:
            compute(**inputs)
        message = str(caught.value)
        for fragment in fragments:
            assert fragment in message, f"{compute.__name__}: {fragment!r} not in {message!r}"


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


def test_metric_is_usable_after_a_failed_compute(metric) -> None:
    with pytest.raises(ValueError):
        metric.compute(predictions=[[True]], references=[[True]], label_list=ID_LABELS)
    result = metric.compute(predictions=[[1, 2]], references=[[1, 2]], label_list=ID_LABELS)
    assert result["strict_correct"] == 1


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
