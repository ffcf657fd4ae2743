"""Hostile input to the metric and its wrapper: nothing lost, nothing unbounded, every mistake a ValueError that
says where and what. The command line's hostile input is in tests/test_cli.py."""

from __future__ import annotations

import os
import tracemalloc
from fractions import Fraction

import numpy as np
import pytest

from nerscore import SCENARIOS, compare_semeval, compute_semeval, scores
from nerscore.result_scores import MAX_CONFUSION_TYPES

LABELS = ["O", "B-PER", "I-PER"]

# ---------------------------------------------------------------------------------------------------------
# Integer ids of any size: memory follows the input and label_list, never the id values
# ---------------------------------------------------------------------------------------------------------

HUGE_IDS = [
    pytest.param([[10**9, 0]], [[1, 0]], LABELS, "predictions, sentence 0, token 0: found id 1000000000", id="1e9"),
    pytest.param([[10**12, 0]], [[1, 0]], LABELS, "predictions, sentence 0, token 0: found id 10{12}", id="1e12"),
    pytest.param([[1, 0]], [[0, 2**62]], LABELS, "references, sentence 0, token 1: found id 46116", id="2**62"),
    pytest.param([[0, 10**30]], [[1, 0]], LABELS, "predictions, sentence 0, token 1: found id 10{30}", id="1e30"),
    pytest.param([[1, 0]], [[1, -(10**20)]], LABELS, "references, sentence 0, token 1: found id -10{20}", id="-1e20"),
    pytest.param(
        [[1, 0, 5]],
        [[1, 0, 10**9]],
        {0: "O", 1: "B-PER", 10**9: "I-PER"},
        r"predictions, sentence 0, token 2: found id 5; expected an id of label_list \(0, 1, 1000000000\)",
        id="sparse-label-list-unknown-id",
    ),
]


@pytest.mark.parametrize(("predictions", "references", "label_list", "message"), HUGE_IDS)
def test_a_huge_or_unknown_id_is_named_without_a_table_of_its_size(predictions, references, label_list, message):
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=message):
            compute_semeval(predictions=predictions, references=references, label_list=label_list)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


def test_a_sparse_label_list_scores_in_memory_of_its_size():
    label_list = {0: "O", 1: "B-PER", 10**9: "I-PER", 2**70: "B-LOC"}
    tracemalloc.start()
    try:
        result = compute_semeval(predictions=[[1, 10**9, 0]], references=[[1, 10**9, 0]], label_list=label_list)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (result["strict_correct"], result["strict_possible"]) == (1, 1)
    assert peak < 5_000_000


def test_uint64_ids_near_two_to_the_64_are_not_read_as_ignore_index():
    # 2**64 - 100 wraps to -100 as int64: the array path must not drop it as ignored while the readable path
    # refuses it; both paths name the id.
    predictions = np.array([[2**64 - 100, 0]], dtype=np.uint64)
    references = np.array([[1, 0]], dtype=np.uint64)
    with pytest.raises(ValueError, match="predictions, sentence 0, token 0: found id 18446744073709551516"):
        compute_semeval(predictions=predictions, references=references, label_list=LABELS)
    references = np.array([[2**64 - 100, 0]], dtype=np.uint64)
    with pytest.raises(ValueError, match="references, sentence 0, token 0: found id 18446744073709551516"):
        compute_semeval(predictions=np.array([[1, 0]], dtype=np.uint64), references=references, label_list=LABELS)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int32, np.int64])
def test_every_integer_array_type_scores_as_lists_do(dtype):
    predictions, references = [[1, 2, 0, 1]], [[1, 2, 0, 0]]
    expected = compute_semeval(predictions=predictions, references=references, label_list=LABELS)
    result = compute_semeval(
        predictions=np.array(predictions, dtype=dtype), references=np.array(references, dtype=dtype), label_list=LABELS
    )
    assert result == expected


def test_both_paths_agree_on_an_ignore_index_no_id_can_equal():
    result = compute_semeval(predictions=[[1, 0]], references=[[1, 0]], label_list=LABELS, ignore_index=2**70)
    assert result["strict_correct"] == 1
    with_rows = compute_semeval(
        predictions=[[1, 0]], references=[[1, 0]], label_list=LABELS, ignore_index=2**70, return_entities=True
    )
    assert {key: value for key, value in with_rows.items() if key != "entities"} == result


# ---------------------------------------------------------------------------------------------------------
# Options that used to pass silently or crash late
# ---------------------------------------------------------------------------------------------------------

REAL_NUMBERS = [
    pytest.param("beta", np.float32(0.5), "strict_f0.5", id="beta-numpy-float32"),
    pytest.param("beta", Fraction(1, 2), "strict_f0.5", id="beta-fraction"),
    pytest.param("beta", np.int64(2), "strict_f2", id="beta-numpy-int"),
    pytest.param("zero_division", np.float32(1), "strict_f1", id="zero-division-numpy-float32"),
    pytest.param("zero_division", Fraction(1, 2), "strict_f1", id="zero-division-fraction"),
]


@pytest.mark.parametrize(("option", "value", "f_key"), REAL_NUMBERS)
def test_any_real_number_is_accepted_as_the_equal_float(option, value, f_key):
    inputs = {"predictions": [["B-PER", "O"]], "references": [["B-PER", "B-LOC"]]}
    result = compute_semeval(**inputs, **{option: value})
    assert result == compute_semeval(**inputs, **{option: float(value)})
    assert f_key in result


BAD_OPTIONS = [
    pytest.param({"beta": "1"}, r"beta must be a finite number >= 0, found '1'", id="beta-string"),
    pytest.param({"beta": float("nan")}, r"beta must be a finite number >= 0, found nan", id="beta-nan"),
    pytest.param({"beta": 10**400}, r"beta must be a finite number >= 0", id="beta-huge-int"),
    pytest.param({"beta": True}, r"beta must be a finite number >= 0, found True", id="beta-bool"),
    pytest.param({"zero_division": 2}, r"zero_division must be a number from 0 to 1, found 2", id="zero-division-2"),
    pytest.param({"zero_division": None}, r"zero_division must be a number from 0 to 1", id="zero-division-none"),
    pytest.param(
        {"label_list": {0.0: "O", 1.9: "B-PER"}}, r"label_list keys must be integer ids .*found 0\.0", id="float-keys"
    ),
    pytest.param(
        {"label_list": {0: "O", "1": "B-PER", 1: "I-PER"}},
        r"label_list has two keys for id 1: '1' and 1",
        id="same-id-twice",
    ),
    pytest.param({"label_list": {0: "O", 1: 5}}, r"label_list maps id 1 to 5; expected a tag string", id="tag-not-str"),
    pytest.param({"label_list": "O B-PER"}, r"label_list must be a list of tags", id="label-list-string"),
    pytest.param({"labels": []}, r"labels=\[\] keeps no entity type.*or None for every type", id="labels-empty"),
    pytest.param({"labels": ["B-PER"]}, r"labels holds the tag 'B-PER'.*pass 'PER' instead", id="labels-a-tag"),
    pytest.param(
        {"labels": ["PER-B"], "suffix": True}, r"labels holds the tag 'PER-B'.*pass 'PER'", id="labels-a-suffix-tag"
    ),
    pytest.param({"labels": "PER"}, r"labels must be a list of entity types", id="labels-string"),
    pytest.param({"labels": [None]}, r"labels must be a list of entity types.*found None", id="labels-none-inside"),
    pytest.param({"per_type": "yes"}, r"per_type must be True or False, found 'yes'", id="per-type-string"),
    pytest.param({"ignore_index": -100.0}, r"ignore_index must be an integer id", id="ignore-index-float"),
    pytest.param({"mode": "loose"}, r"unknown mode 'loose'; expected one of lenient, strict", id="mode"),
    pytest.param({"scheme": "IOB3"}, r"unknown scheme 'IOB3'", id="scheme"),
    pytest.param({"schema": "IOB2"}, r"unknown option\(s\) \['schema'\]", id="unknown-option"),
    # A newcomer's slips (issue 31): the option meant, or the input, is named.
    pytest.param({"per_types": True}, r"'per_types': did you mean per_type\?", id="option-misspelt"),
    pytest.param({"text": ["a"]}, r"'text': did you mean texts= \(an input", id="input-singular"),
    pytest.param({"id2label": {0: "O"}}, r"'id2label': did you mean label_list", id="peer-name-id2label"),
    pytest.param({"colour": "red"}, r"\['colour'\]; expected some of", id="unknown-option-nothing-close"),
    pytest.param(
        {"label_list": {"O": 0, "B-PER": 1}},
        r"found 'O'; this is tag -> id \(label2id\): pass model.config.id2label",
        id="label-list-label2id",
    ),
]


@pytest.mark.parametrize(("options", "message"), BAD_OPTIONS)
def test_bad_options_are_refused_before_scoring(options, message):
    with pytest.raises(ValueError, match=message):
        compute_semeval(predictions=[["B-PER"]], references=[["B-PER"]], **options)


def test_a_type_that_only_looks_like_another_scheme_s_tag_is_a_label():
    # E-MAIL is not a tag under IOB2 (which has no E): it is a type.
    result = compute_semeval(predictions=[["B-E-MAIL"]], references=[["B-E-MAIL"]], labels=["E-MAIL"], per_type=True)
    assert result["E-MAIL_strict_f1"] == 1.0


def test_a_system_whose_only_entity_is_wrong_never_scores_a_perfect_f():
    # docs/scoring.md §4: F is 0 where P = R = 0, whatever zero_division says, overall, per type and macro.
    result = compute_semeval(predictions=[["B-LOC"]], references=[["B-PER"]], zero_division=1.0, per_type=True)
    for scheme in ("strict", "type"):
        assert (result[f"{scheme}_precision"], result[f"{scheme}_recall"], result[f"{scheme}_f1"]) == (0, 0, 0)
        assert result[f"{scheme}_macro_f1"] == 0.0
        assert result[f"PER_{scheme}_f1"] == result[f"LOC_{scheme}_f1"] == 0.0
    assert result["exact_f1"] == 1.0  # same boundaries: exact ignores the type
    nothing = compute_semeval(predictions=[["O"]], references=[["O"]], zero_division=1.0)
    assert nothing["strict_f1"] == nothing["strict_macro_f1"] == 1.0  # neither side has an entity


def test_compute_semeval_takes_keywords_only():
    with pytest.raises(TypeError):
        compute_semeval([["B-PER"]], [["B-PER"]])  # seqeval and scikit-learn take the truth first


def test_inputs_are_never_modified():
    predictions = [["B-PER", "I-PER"], np.array([1, 0])]
    references = [["B-PER", "O"], [1, 0]]
    label_list = {"0": "O", "1": "B-PER"}
    snapshot = repr((predictions, references, label_list))
    with pytest.raises(ValueError):
        compute_semeval(predictions=predictions, references=references, label_list=label_list)
    assert repr((predictions, references, label_list)) == snapshot


# ---------------------------------------------------------------------------------------------------------
# The wrapper: a failed compute loses nothing; add() is checked like add_batch()
# ---------------------------------------------------------------------------------------------------------

FIRST = {"predictions": [["B-PER", "I-PER", "O"]], "references": [["B-PER", "I-PER", "O"]]}
SECOND = {"predictions": [["O", "B-LOC"]], "references": [["B-ORG", "B-LOC"]]}
WHOLE = compute_semeval(
    predictions=FIRST["predictions"] + SECOND["predictions"], references=FIRST["references"] + SECOND["references"]
)


@pytest.mark.parametrize(
    "bad_compute",
    [
        pytest.param({"scheme": "IOB3"}, id="unknown-scheme"),
        pytest.param({"schema": "IOB2"}, id="unknown-option"),
        pytest.param({"beta": -1}, id="negative-beta"),
        pytest.param({"scheme": "IOE2"}, id="tags-the-scheme-lacks"),  # fails while scoring, not when checked
        pytest.param({"predictions": [["B-PER"]], "references": [["B-PER", "O"]]}, id="misaligned-last-batch"),
    ],
)
@pytest.mark.parametrize("keep_in_memory", [False, True])
def test_a_failed_compute_keeps_every_added_batch(load_metric, bad_compute, keep_in_memory):
    metric = load_metric(keep_in_memory=keep_in_memory)
    metric.add_batch(**FIRST)
    metric.add_batch(**SECOND)
    with pytest.raises(ValueError):
        metric.compute(**bad_compute)
    assert metric.compute() == WHOLE
    assert metric.compute() == compute_semeval(predictions=[], references=[])  # a success consumes them


def test_after_a_scoring_failure_the_right_option_scores_the_kept_batches(load_metric):
    metric = load_metric()
    metric.add_batch(predictions=[["S-PER", "O"]], references=[["S-PER", "O"]])
    metric.add_batch(predictions=[["B-LOC", "E-LOC"]], references=[["B-LOC", "E-LOC"]])
    with pytest.raises(ValueError, match="pass scheme='IOBES'"):
        metric.compute()
    result = metric.compute(scheme="IOBES")
    assert (result["strict_correct"], result["strict_possible"]) == (2, 2)


@pytest.mark.parametrize(
    ("tag", "found"),
    [
        pytest.param("X-PER", "unknown prefix 'X'", id="unknown-prefix"),
        pytest.param("PER", "which has no prefix", id="no-prefix"),
        pytest.param("B-", "a prefix with no type", id="no-type"),
        pytest.param("o", "an uppercase 'O'", id="lowercase-outside"),
    ],
)
def test_a_tag_no_scheme_reads_is_refused_when_added(load_metric, tag, found):
    # Stored, it would fail every compute after it whatever scheme or suffix compute is given, and a failed
    # compute keeps every batch: the evaluation could never be scored again.
    metric = load_metric()
    metric.add_batch(**FIRST)
    with pytest.raises(ValueError, match=rf"^references, sentence 1, token 1: found tag .*{found}.*no scheme reads it"):
        metric.add_batch(predictions=[["O", "O"]], references=[["O", tag]])
    metric.add_batch(**SECOND)
    assert metric.compute() == WHOLE


@pytest.mark.parametrize(
    "entities",
    [
        pytest.param([{"start": 0, "end": 9, "type": "PER"}], id="span"),
        pytest.param([{"type": "PER", "fragments": [[0, 1], [3, 9]]}], id="fragments"),
    ],
)
def test_an_entity_past_its_text_is_refused_when_added(load_metric, entities):
    metric = load_metric()
    ada = [{"start": 0, "end": 3, "type": "PER"}]
    metric.add_batch(predictions=[ada], references=[ada], texts=["Ada"])
    with pytest.raises(ValueError, match=r"^predictions, sentence 1, entity 0: found the span \[\d, 9\) past the end"):
        metric.add_batch(predictions=[entities], references=[[]], texts=["Ada"])
    assert metric.compute()["strict_correct"] == 1


@pytest.mark.parametrize(
    ("tags", "options"),
    [
        (["S-PER"], {"scheme": "IOBES"}),
        (["PER-B"], {"suffix": True}),
        (["U-PER"], {"scheme": "BILOU"}),
        (["B-PER", "M-PER", "E-PER"], {"scheme": "BMES"}),
    ],
)
def test_a_tag_some_scheme_reads_is_stored_for_compute_to_choose(load_metric, tags, options):
    metric = load_metric()
    metric.add_batch(predictions=[tags], references=[tags])
    assert metric.compute(**options)["strict_correct"] == 1


def test_sentence_numbers_of_errors_count_the_kept_batches(load_metric):
    metric = load_metric()
    metric.add_batch(**FIRST)
    with pytest.raises(ValueError):
        metric.compute(scheme="IOB3")
    with pytest.raises(ValueError, match=r"^predictions, sentence 1, token 1: found 3"):
        metric.add_batch(predictions=[["O", 3]], references=[["O", "O"]])


def test_add_is_checked_like_add_batch(load_metric):
    metric = load_metric()
    metric.add(prediction=["B-PER", "I-PER"], reference=["B-PER", "I-PER"])
    with pytest.raises(ValueError, match=r"^predictions, sentence 1, token 1: found 1 \(int\) where the batch holds"):
        metric.add(prediction=["B-PER", 1], reference=["B-PER", "O"])
    with pytest.raises(ValueError, match=r"^sentence 1: predictions have 1 tags and references 2"):
        metric.add(prediction=["O"], reference=["O", "O"])
    metric.add(prediction=np.array(["O", "B-PER"]), reference=["O", "B-PER"])
    result = metric.compute()
    assert (result["strict_correct"], result["strict_possible"]) == (2, 2)


# evaluate stores offsets and ids as int64: a larger one is refused where it is added, located (pyarrow's own
# OverflowError says nothing of where). compute without stored batches stores nothing: it scores such an offset
# exactly, as compute_semeval does, and refuses such an id as one label_list lacks.
PAST_INT64 = [
    pytest.param(
        [[(0, 2**64, "X")]],
        [[(0, 1, "X")]],
        {},
        r"^predictions, sentence 1, entity 0: end is 18446744073709551616, beyond the 64-bit integers evaluate stores",
        id="offset-2**64",
    ),
    pytest.param(
        [[]],
        [[(1, 2, "X"), {"start": 0, "end": 2**63, "label": "X"}]],
        {},
        r"^references, sentence 1, entity 1: end is 9223372036854775808, beyond the 64-bit integers evaluate stores",
        id="offset-2**63-in-a-dict",
    ),
    pytest.param(
        [[(5, 4, "X"), (0, 2**64, "X")]],
        [[]],
        {},
        r"^predictions, sentence 1, entity 0: start 5 >= end 4",
        id="a-bad-entity-before-it-first",
    ),
    pytest.param(
        [[0, 2**64]],
        [[0, 1]],
        {"label_list": ["O", "B-X"]},
        r"^predictions, sentence 1, token 1: found id 1844674",
        id="id-2**64",
    ),
    pytest.param(
        np.array([[0, 2**64 - 1]], dtype=np.uint64),
        [[0, 1]],
        {"label_list": ["O", "B-X"]},
        r"^predictions, sentence 1, token 1: found id 18446744073709551615, beyond the 64-bit integers evaluate stores",
        id="uint64-array-id",
    ),
]


@pytest.mark.parametrize("predictions, references, options, message", PAST_INT64)
def test_an_offset_or_id_past_int64_is_refused_where_it_is_added(
    load_metric, predictions, references, options, message
):
    metric = load_metric(**options)
    first = [[0, 1]] if options else [[(0, 1, "X")]]
    metric.add_batch(predictions=first, references=first)
    with pytest.raises(ValueError, match=message):
        metric.add_batch(predictions=predictions, references=references)
    assert metric.compute()["strict_correct"] == 1  # nothing lost, nothing half stored
    # Without stored batches nothing is stored: an offset is scored as compute_semeval scores it, an id refused as
    # one label_list lacks (sentence 0 now).
    if options or ">= end" in message:
        with pytest.raises(ValueError, match=r"^predictions, sentence 0, (token|entity) \d: "):
            metric.compute(predictions=predictions, references=references)
    else:
        assert metric.compute(predictions=predictions, references=references) == compute_semeval(
            predictions=predictions, references=references
        )
    largest = [[(0, 2**63 - 1, "X")]] if not options else [[0, 1]]
    metric.add_batch(predictions=largest, references=largest)  # the largest offset int64 holds is stored
    assert metric.compute()["strict_correct"] == 1


def test_load_time_options_are_checked_at_load(load_metric):
    with pytest.raises(ValueError, match="beta must be a finite number >= 0"):
        load_metric(beta=-1)
    # Whether a label is a tag depends on the input's form, known at compute (tests/test_options.py)
    with pytest.raises(ValueError, match="labels holds the tag 'B-PER'"):
        load_metric(labels=["B-PER"]).compute(predictions=[["B-PER"]], references=[["B-PER"]])


def test_the_evaluate_internals_the_wrapper_relies_on_are_still_there(load_metric):
    # NerSemeval keeps stored batches across a failed compute and forgets a rejected first batch through these
    # private attributes of evaluate.EvaluationModule; requirements.txt pins evaluate below its next minor version,
    # and this test is what fails, loudly, if a release renames or drops any of them.
    import evaluate
    import filelock

    assert evaluate.__version__.startswith("0.4."), evaluate.__version__
    metric = load_metric()
    for name in ("writer", "buf_writer", "data", "selected_feature_format", "filelocks", "file_paths", "filelock"):
        assert hasattr(metric, name), name
    metric.add_batch(**FIRST)
    assert metric.writer is not None and metric.selected_feature_format is not None
    assert isinstance(metric.filelock, filelock.BaseFileLock) and os.path.exists(metric.cache_file_name)
    metric._finalize()  # what compute does before scoring
    assert metric.writer is None
    assert len(metric.data) == 1 and metric.file_paths == [metric.cache_file_name]
    assert [type(lock) for lock in metric.filelocks] == [type(metric.filelock)]


# ---------------------------------------------------------------------------------------------------------
# Issue 16, item 9: every β that Options accepts scores everywhere, finite, whatever its square
# ---------------------------------------------------------------------------------------------------------

# 1.3407807929942596e154 is the largest float whose square a float holds; the next one's square overflows.
ANY_BETA = [0.0, 5e-324, 1e-200, 0.3, 1.0, 1e154, 1.3407807929942596e154, 1.3407807929942597e154, 1e155, 1e308]
BETA_INPUTS = {
    "predictions": [["B-PER", "O", "B-LOC"], ["B-ORG", "O"], ["O", "O"]],
    "references": [["B-PER", "I-PER", "B-LOC"], ["O", "B-ORG"], ["B-PER", "O"]],
}


@pytest.mark.parametrize("beta", [*ANY_BETA, np.finfo(np.float64).max], ids=str)
def test_any_accepted_beta_gives_finite_intervals_and_comparisons(beta):
    result = compute_semeval(**BETA_INPUTS, beta=beta, bootstrap=50)
    assert all(np.isfinite(value) for value in result.values())
    for scheme in ("strict", "exact", "partial", "type"):
        key = f"{scheme}_{'f1' if beta == 1 else f'f{beta:g}'}"
        assert result[f"{key}_low"] <= result[key] <= result[f"{key}_high"]
    compared = compare_semeval(
        predictions_a=BETA_INPUTS["predictions"],
        predictions_b=BETA_INPUTS["references"],
        references=BETA_INPUTS["references"],
        beta=beta,
        n_resamples=50,
    )
    assert all(np.isfinite(value) for value in compared.values())


@pytest.mark.parametrize("beta", ANY_BETA, ids=str)
def test_the_statistics_f_is_the_scores_f_within_rounding_at_any_beta(beta):
    # sample_statistics._measures works in floats, scores in exact ratios: they agree to rounding, for β² finite or not.
    from nerscore import tally_semeval
    from nerscore.options import Options
    from nerscore.statistics.sample_statistics import _measures

    options = Options.of(beta=beta)
    tally = tally_semeval(BETA_INPUTS["predictions"], BETA_INPUTS["references"], options)[0]
    expected = scores(tally, options)
    totals = np.zeros(6, dtype=np.int64)
    for (scenario, _, _), number in tally.cells.items():
        totals[SCENARIOS.index(scenario)] += number
    measured = _measures(totals, options)
    for position, scheme in enumerate(("strict", "exact", "partial", "type")):
        assert measured[position, 2] == pytest.approx(expected[f"{scheme}_{options.f_name}"], rel=1e-12, abs=0)


# ---------------------------------------------------------------------------------------------------------
# Issue 16, items 6 and 8: many entity types
# ---------------------------------------------------------------------------------------------------------


def many_types(types: int) -> tuple[list[list[str]], list[list[str]]]:
    """One sentence per type: each type once in the references and once in the predictions, half of them
    predicted as the next type, so that the pairs spread over `types` rows and columns."""
    references = [[f"B-T{number}", "O"] for number in range(types)]
    predictions = [[f"B-T{number if number % 2 else (number + 1) % types}", "O"] for number in range(types)]
    return predictions, references


def test_the_full_confusion_square_is_refused_beyond_its_bound_with_the_fixes():
    predictions, references = many_types(MAX_CONFUSION_TYPES + 1)
    with pytest.raises(
        ValueError,
        match=r"found 1,001 entity types, whose full square would hold 1,004,004 cells.*labels.*confusion='sparse'",
    ):
        compute_semeval(predictions=predictions, references=references, confusion=True)
    # At the bound, the full square, as before.
    predictions, references = many_types(MAX_CONFUSION_TYPES)
    matrix = compute_semeval(predictions=predictions, references=references, confusion=True)["confusion"]
    assert len(matrix) == MAX_CONFUSION_TYPES + 1 and all(
        len(row) == MAX_CONFUSION_TYPES + 1 for row in matrix.values()
    )


@pytest.mark.slow
def test_a_sparse_confusion_of_100000_types_takes_memory_of_its_cells():
    predictions, references = many_types(100_000)
    tracemalloc.start()
    try:
        result = compute_semeval(predictions=predictions, references=references, confusion="sparse")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The full square would be 10**10 cells (hundreds of GB); the input itself is about 25 MB of lists.
    assert peak < 200 * 2**20
    matrix = result["confusion"]
    assert sum(map(len, matrix.values())) == 100_000  # 50,000 same-type pairs and 50,000 across types
    assert sum(sum(row.values()) for row in matrix.values()) == 100_000 == result["strict_possible"]


def test_ten_thousand_types_score_as_the_readable_path_does():
    # The array path numbers and parses tens of thousands of distinct tags once per call, across chunks.
    from nerscore import Options, tally_semeval
    from nerscore.forms import tag_arrays

    predictions, references = many_types(10_000)
    options = Options()
    fast = tag_arrays.count_tags(predictions, references, False, options, keep_sentences=False)
    assert fast is not None
    assert fast.tally == tally_semeval(predictions, references, options)[0]


def test_a_one_token_entity_past_its_tokens_is_refused_with_the_seen_slice() -> None:
    # The seen slice reads one-token entities' texts by index while the batch is counted, before its entities are
    # checked against the tokens (slices.check_tokens_cover): an entity past them is that check's ValueError, not
    # the look-up's IndexError (row_texts._texts_for_seen falls back to the reading that leaves it to the check).
    with pytest.raises(ValueError, match=r"^predictions, sentence 0: found an entity \[3, 4\) past the sentence's 2"):
        compute_semeval(
            predictions=[[(0, 1, "PER"), (3, 4, "PER")]],
            references=[[(0, 1, "PER")]],
            tokens=[["Ada", "b"]],
            slices=["seen"],
            seen=["Ada"],
        )


def test_tokens_of_a_str_subclass_are_read_as_plain_strings() -> None:
    # numpy's strings (np.str_, a str subclass: a sentence's tokens listed from an array), read token by token
    # (the batch's other sentence an array: no fast pass over the whole column), fail the sentence's own fast
    # pass, which wants exactly `str`, and pass its token-by-token one.
    tokens = list(np.array(["Ada", "met", "Bob"]))
    assert type(tokens[0]) is np.str_
    tags = {"predictions": [["B-PER", "O", "B-PER"], ["O"]], "references": [["B-PER", "O", "O"], ["O"]], "errors": True}
    plain = compute_semeval(**tags, tokens=[["Ada", "met", "Bob"], ["x"]])
    assert compute_semeval(**tags, tokens=[tokens, np.array(["x"])]) == plain


class RecursiveHash:
    """An id whose hash recurses without end."""

    def __hash__(self) -> int:
        return hash(self)


def test_an_id_whose_hash_recurses_is_refused_where_it_is() -> None:
    with pytest.raises(ValueError, match=r"^groups, sentence 1: found <.*RecursiveHash.*, nested too deep to hash"):
        compute_semeval(predictions=[["B-PER"], ["O"]], references=[["B-PER"], ["O"]], groups=["a", RecursiveHash()])


def test_tags_of_a_str_subclass_among_plain_ones_are_stored_and_scored(metric) -> None:
    # np.str_ among str: kinds of tags the store's fast pass does not take as one, each value then a string tag.
    predictions, references = [["B-PER", np.str_("O")]], [["B-PER", "I-PER"]]
    metric.add_batch(predictions=predictions, references=references)
    assert metric.compute() == compute_semeval(predictions=predictions, references=references)
