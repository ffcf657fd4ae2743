"""The module as users get it: `evaluate.load` of the file, offline; load-time options; batches; numpy ids;
label_list forms; and the `Examples:` of the docstring, run as doctests."""

from __future__ import annotations

import doctest
import json
from itertools import pairwise

import numpy as np
import pytest
from conftest import METRIC_PATH, REPO, worked_example

import ner_semeval
from ner_semeval import compute_semeval

ID_LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


def test_load_by_path_offline(load_metric) -> None:
    metric = load_metric()
    assert metric.name == "ner_semeval"
    result = metric.compute(predictions=[["B-PER", "I-PER", "O"]], references=[["B-PER", "I-PER", "O"]])
    assert (result["strict_correct"], result["strict_f1"]) == (1, 1.0)


def test_load_time_scheme_and_mode_are_defaults_overridden_per_call(load_metric) -> None:
    metric = load_metric(scheme="IOBES", mode="strict")
    references = [["B-PER", "E-PER", "O", "S-LOC"]]
    predictions = [["B-PER", "I-PER", "O", "S-LOC"]]  # PER lacks its E: not well formed in IOBES
    # Strict IOBES (load time): the PER prediction is dropped, the PER reference missed.
    result = metric.compute(predictions=predictions, references=references)
    assert (result["strict_correct"], result["strict_missed"], result["strict_actual"]) == (1, 1, 1)
    # Lenient per call: PER [0, 2) is decoded on both sides.
    result = metric.compute(predictions=predictions, references=references, mode="lenient")
    assert (result["strict_correct"], result["strict_missed"], result["strict_actual"]) == (2, 0, 2)
    # The per-call override does not stick.
    result = metric.compute(predictions=predictions, references=references)
    assert result["strict_correct"] == 1
    # scheme per call: S- is no IOB2 letter (docs/scoring.md §2).
    with pytest.raises(ValueError, match="IOBES"):
        metric.compute(predictions=predictions, references=references, scheme="IOB2")


def test_load_time_options_are_checked(load_metric) -> None:
    with pytest.raises(ValueError, match="IOB3"):
        load_metric(scheme="IOB3")


@pytest.mark.parametrize(
    ("given", "match"),
    [
        # evaluate.load hands unknown keywords on and evaluate's module drops them: a typo lost its option silently.
        pytest.param(
            {"bootstraps": 1000},
            r"unknown option\(s\) \['bootstraps'\]; 'bootstraps': did you mean bootstrap\?",
            id="misspelt",
        ),
        pytest.param({"predictions": [["O"]]}, r"'predictions': did you mean compute\(predictions=", id="an-input"),
    ],
)
def test_load_time_unknown_keywords_are_refused(load_metric, given: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        load_metric(**given)


def test_load_time_options_given_by_position_are_refused(load_metric) -> None:
    # evaluate.load's second argument is config_name, which this metric has none of: `evaluate.load(path, "IOBES")`
    # loaded an IOB2 metric silently (newcomer3, issue 31).
    with pytest.raises(ValueError, match=r"config_name 'IOBES'.*options are keywords.*scheme='IOBES'"):
        load_metric(config_name="IOBES")
    assert load_metric(config_name="default").options == {}


# A misspelt input at compute was hidden behind the one-side check: `prediction=` gave "found references without
# predictions", naming neither the misspelling nor the fix (newcomer3, issue 31).
@pytest.mark.parametrize(
    ("given", "match"),
    [
        pytest.param(
            {"prediction": [["O"]], "references": [["O"]]},
            r"unknown option\(s\) \['prediction'\]; 'prediction': did you mean predictions=",
            id="prediction-singular",
        ),
        pytest.param(
            {"predictions": [["O"]], "reference": [["O"]]},
            r"'reference': did you mean references=",
            id="reference-singular",
        ),
        pytest.param(
            {"y_pred": [["O"]], "y_true": [["O"]]},
            r"'y_pred': did you mean predictions=.*'y_true': did you mean references=",
            id="seqeval-names",
        ),
    ],
)
def test_compute_time_misspelt_inputs_are_named(metric, given: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        metric.compute(**given)


def test_load_time_evaluate_keywords_still_reach_evaluate(load_metric, tmp_path) -> None:
    metric = load_metric(cache_dir=str(tmp_path), keep_in_memory=True, seed=3)
    assert (metric.keep_in_memory, metric.options) == (True, {"seed": 3})


def test_load_time_label_list_overridden_per_call(load_metric) -> None:
    metric = load_metric(label_list=ID_LABELS)
    result = metric.compute(predictions=[[1, 2, 0]], references=[[1, 2, 0]], per_type=True)
    assert result["strict_correct"] == 1
    assert result["PER_strict_possible"] == 1
    other = ["O", "B-ORG", "I-ORG"]
    result = metric.compute(predictions=[[1, 2, 0]], references=[[1, 2, 0]], per_type=True, label_list=other)
    assert result["ORG_strict_possible"] == 1
    assert "PER_strict_possible" not in result


def test_load_time_options_of_every_kind(load_metric) -> None:
    metric = load_metric(beta=2.0, per_type=True, labels=["PER"], zero_division=1.0, return_entities=True)
    result = metric.compute(predictions=[["B-PER", "B-LOC"]], references=[["B-PER", "O"]])
    assert result["strict_f2"] == 1.0
    assert result["strict_spurious"] == 0  # LOC filtered out
    assert [row["scenario"] for row in result["entities"]] == ["I"]
    assert "PER_strict_f2" in result


# The worked example of docs/scoring.md §6 as III, II, V, IV, I, VI, one sentence each, split into batches.
PREDICTIONS, REFERENCES = worked_example()


@pytest.mark.parametrize(
    "cuts",
    [
        pytest.param([0, 6], id="one-batch"),
        pytest.param([0, 2, 3, 6], id="three-batches"),
        pytest.param([0, 1, 2, 3, 4, 5, 6], id="sentence-by-sentence"),
        pytest.param([0, 0, 3, 3, 6], id="with-empty-batches"),
    ],
)
def test_add_batch_chunks_equal_one_compute(metric, cuts: list[int]) -> None:
    for start, end in pairwise(cuts):
        metric.add_batch(predictions=PREDICTIONS[start:end], references=REFERENCES[start:end])
    result = metric.compute(per_type=True, return_entities=True)
    assert result == compute_semeval(
        predictions=PREDICTIONS, references=REFERENCES, per_type=True, return_entities=True
    )
    # docs/scoring.md §6 strict column, and sentence indices that run across batches.
    assert (result["strict_correct"], result["strict_incorrect"], result["strict_f1"]) == (1, 3, 0.2)
    assert [row["sentence"] for row in result["entities"]] == [0, 1, 2, 3, 4, 5]


def test_add_batch_then_compute_with_a_last_batch(metric) -> None:
    metric.add_batch(predictions=PREDICTIONS[:4], references=REFERENCES[:4])
    result = metric.compute(predictions=PREDICTIONS[4:], references=REFERENCES[4:])
    assert result == compute_semeval(predictions=PREDICTIONS, references=REFERENCES)


BAD_BATCHES = [
    pytest.param({"predictions": [["B-PER", "O"]], "references": [["B-PER"]]}, id="sides-of-two-lengths"),
    pytest.param({"predictions": [["O"], ["O"]], "references": [["O"]]}, id="two-numbers-of-sentences"),
    pytest.param({"predictions": [[None]], "references": [["O"]]}, id="a-tag-of-none"),
    pytest.param({"predictions": [["O"]], "references": [["O"]], "groups": [[1]]}, id="an-unhashable-group"),
    # A prefix no scheme has: a scheme compute may still be given reads the others (tests/test_hostile.py)
    pytest.param({"predictions": [["X-PER"]], "references": [["O"]]}, id="a-prefix-of-no-scheme"),
]


@pytest.mark.parametrize("bad", BAD_BATCHES)
def test_a_refused_batch_leaves_the_good_batches_to_compute(metric, bad: dict) -> None:
    metric.add_batch(predictions=PREDICTIONS[:4], references=REFERENCES[:4])
    with pytest.raises(ValueError):
        metric.add_batch(**bad)
    metric.add_batch(predictions=PREDICTIONS[4:], references=REFERENCES[4:])
    assert metric.compute() == compute_semeval(predictions=PREDICTIONS, references=REFERENCES)


@pytest.mark.parametrize("call", ["add_batch", "add", "compute"])
def test_columns_given_as_none_are_not_given(metric, call: str) -> None:
    # None is compute_semeval's default for texts, tokens, groups and documents; through evaluate it was refused as
    # "Bad inputs" (add_batch), an unknown option (compute) or a text of None (add) (redteam2).
    none = {"texts": None, "tokens": None, "groups": None, "documents": None}
    if call == "add":
        for prediction, reference in zip(PREDICTIONS, REFERENCES):
            metric.add(prediction=prediction, reference=reference, **none)
        result = metric.compute()
    elif call == "add_batch":
        metric.add_batch(predictions=PREDICTIONS, references=REFERENCES, **none)
        result = metric.compute()
    else:
        result = metric.compute(predictions=PREDICTIONS, references=REFERENCES, **none)
    assert result == compute_semeval(predictions=PREDICTIONS, references=REFERENCES, **none)


@pytest.mark.parametrize("batches", [1, 2])
def test_empty_batches_with_texts_keep_ungrounded(metric, batches: int) -> None:
    # A batch of no sentence with `texts=[]` says string entities (docs/scoring.md §1b): compute_semeval gives
    # `ungrounded` 0; through add_batch the empty batch was dropped with its columns, and the key with it.
    for _ in range(batches):
        metric.add_batch(predictions=[], references=[], texts=[])
    result = metric.compute()
    assert result == compute_semeval(predictions=[], references=[], texts=[])
    assert result["ungrounded"] == 0
    # The next evaluation starts afresh: no texts given, no `ungrounded`.
    assert "ungrounded" not in metric.compute(predictions=[], references=[])


TOKENS = [[str(index)] * len(sentence) for index, sentence in enumerate(REFERENCES)]
TAG_TEXTS = [" ".join(sentence) for sentence in REFERENCES]
STRINGS = ([[("PER", "Ada")], [("LOC", "Paris")]], [[("PER", "Ada")], [("LOC", "Rome")]])


@pytest.mark.parametrize(
    ("predictions", "references", "columns"),
    [
        # It was refused: "texts, sentence 0: this batch lacks texts", the empty batch having fixed them.
        pytest.param(PREDICTIONS, REFERENCES, {}, id="no-columns"),
        pytest.param(PREDICTIONS, REFERENCES, {"tokens": TOKENS}, id="tokens-only"),
        pytest.param(PREDICTIONS, REFERENCES, {"texts": TAG_TEXTS}, id="texts"),
        pytest.param(*STRINGS, {"texts": ["Ada wrote.", "In Rome."]}, id="string-entities"),
    ],
)
def test_an_empty_batch_with_texts_binds_no_later_batch(metric, predictions, references, columns: dict) -> None:
    # A batch of no sentence describes none: its `texts=[]` says what an evaluation of nothing gives (`ungrounded`,
    # above), and a batch of sentences after it gives its own columns, or none, as a first batch would.
    metric.add_batch(predictions=[], references=[], texts=[])
    metric.add_batch(predictions=predictions, references=references, **columns)
    result = metric.compute()
    assert result == compute_semeval(predictions=predictions, references=references, **columns)
    assert ("ungrounded" in result) == ("texts" in columns)


# Integer ids the way a Trainer hands them over: 2-D arrays padded with -100 (the labels), sub-word pieces
# labelled -100 too. Sentence 0: "B-PER I-PER <piece> O B-LOC", sentence 1: "O B-LOC <pad> <pad> <pad>".
LABEL_IDS = np.array([[1, 2, -100, 0, 3], [0, 3, -100, -100, -100]])
PREDICTED_IDS = np.array([[1, 2, 4, 0, 0], [0, 3, -100, -100, -100]])
# After dropping the -100 positions: references PER [0, 2), LOC [3, 4); LOC [1, 2). Predictions PER [0, 2);
# LOC [1, 2). So COR 2 (PER, LOC of sentence 1), MIS 1 (LOC of sentence 0).
EXPECTED_IDS = {"strict_correct": 2, "strict_missed": 1, "strict_spurious": 0, "strict_possible": 3}


@pytest.mark.parametrize(
    "label_list",
    [
        pytest.param(ID_LABELS, id="list"),
        pytest.param(dict(enumerate(ID_LABELS)), id="dict-int-keys"),
        pytest.param(json.loads(json.dumps(dict(enumerate(ID_LABELS)))), id="dict-str-keys-after-json"),
    ],
)
def test_numpy_padded_ids(metric, label_list) -> None:
    result = metric.compute(predictions=PREDICTED_IDS, references=LABEL_IDS, label_list=label_list)
    assert {key: result[key] for key in EXPECTED_IDS} == EXPECTED_IDS
    assert result == compute_semeval(predictions=PREDICTED_IDS, references=LABEL_IDS, label_list=label_list)
    tags = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-LOC"]]
    predicted_tags = [["B-PER", "I-PER", "O", "O"], ["O", "B-LOC"]]
    assert result == compute_semeval(predictions=predicted_tags, references=tags)


def test_numpy_batches_of_different_widths(metric) -> None:
    metric.add_batch(predictions=PREDICTED_IDS[:1], references=LABEL_IDS[:1])
    metric.add_batch(predictions=PREDICTED_IDS[1:, :2], references=LABEL_IDS[1:, :2])
    result = metric.compute(label_list=ID_LABELS)
    assert {key: result[key] for key in EXPECTED_IDS} == EXPECTED_IDS


def test_lists_of_1d_arrays(metric) -> None:
    result = metric.compute(predictions=list(PREDICTED_IDS), references=list(LABEL_IDS), label_list=ID_LABELS)
    assert {key: result[key] for key in EXPECTED_IDS} == EXPECTED_IDS


def test_predictions_at_ignored_positions_do_not_matter(metric) -> None:
    # Trainer pads predictions too, with argmax ids or with -100: only the reference decides what is dropped.
    predicted = np.where(LABEL_IDS == -100, 4, PREDICTED_IDS)
    result = metric.compute(predictions=predicted, references=LABEL_IDS, label_list=ID_LABELS)
    assert {key: result[key] for key in EXPECTED_IDS} == EXPECTED_IDS


def test_custom_ignore_index(metric) -> None:
    references = [[1, 2, 9, 0]]
    predictions = [[1, 2, 0, 0]]
    result = metric.compute(predictions=predictions, references=references, label_list=ID_LABELS, ignore_index=9)
    assert (result["strict_correct"], result["strict_possible"]) == (1, 1)


def docstring_examples() -> doctest.DocTest:
    return doctest.DocTestParser().get_doctest(
        ner_semeval._KWARGS_DESCRIPTION, {}, "ner_semeval._KWARGS_DESCRIPTION", str(METRIC_PATH), 0
    )


def test_docstring_examples_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # The example loads "ner_semeval.py" by relative path, as from a clone of the repository.
    monkeypatch.chdir(REPO)
    test = docstring_examples()
    assert len(test.examples) >= 4
    output: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
    assert runner.tries == len(test.examples)
