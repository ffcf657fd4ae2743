"""`labels` through every front end (issue 27: one accumulator serves every front end, and they must agree).

`labels` leaves the other types' entities out as a batch is read, before they are paired and counted
(docs/scoring.md §7), so a front end that takes it counts with it. `Accumulator.result(options)` under labels the
batches were not counted with gave other counts than compute_semeval (`strict_possible` 2 for 1: a pair of two
types left out counted as an INC) and is now refused, as the other counted options are; the same types in another
order are the same counts. The Space's table of a few types is `result(types=...)` instead: compute_semeval's keys
and values, without the other types' rows and the macro keys (a mean over every type).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import deferred_import

from nerscore import (
    Accumulator,
    Options,
    agreement,
    compare_runs,
    compare_semeval,
    compute_semeval,
    summarize_runs,
)
from nerscore.cli import main

scoring = deferred_import("space.scoring")
parsing = deferred_import("space.parsing")
caps = deferred_import("space.caps")

# Predictions, references and labels: a type error of two types labels leaves out (the issue's); references of the
# kept type paired with a prediction of another type where labels leaves one of their own type; a label that no
# sentence has.
EXAMPLES = {
    "type-error-of-left-out-types": ([["B-PER", "O", "B-LOC"]], [["B-PER", "O", "B-ORG"]], ["PER"]),
    "other-type-paired-first": (
        [["B-LOC", "B-PER", "O"], ["B-PER", "O", "B-MISC"]],
        [["B-PER", "I-PER", "O"], ["B-PER", "B-LOC", "I-LOC"]],
        ["PER"],
    ),
    "a-label-of-no-entity": (
        [["B-LOC", "B-PER", "O"], ["B-PER", "O", "B-MISC"], ["O", "B-ORG", "I-ORG"]],
        [["B-PER", "I-PER", "O"], ["B-PER", "B-LOC", "I-LOC"], ["B-ORG", "I-ORG", "O"]],
        ["LOC", "EVENT"],
    ),
}

# A front end: (predictions, references, labels, options, a folder for files, the evaluate loader) -> the keys it
# gives under compute_semeval's names (`_mean`, `_a` ... taken off), each to equal compute_semeval's.
FrontEnd = Callable[[list, list, list, dict, Path, Any], dict]


def _batch_by_batch(predictions: list, references: list, labels: list, options: dict, *_: Any) -> dict:
    accumulator = Accumulator.of(labels=labels, **options)
    for prediction, reference in zip(predictions, references):
        accumulator = accumulator.update(predictions=[prediction], references=[reference])
    return accumulator.result()


def _labels_at_result(predictions: list, references: list, labels: list, options: dict, *_: Any) -> dict:
    counted = Accumulator.of(**options).update(predictions=predictions, references=references)
    return counted.result(Options.of(labels=labels, **options))  # refused: every type was counted


def _labels_reordered_at_result(predictions: list, references: list, labels: list, options: dict, *_: Any) -> dict:
    counted = Accumulator.of(labels=labels[::-1], **options).update(predictions=predictions, references=references)
    return counted.result(Options.of(labels=labels, **options))


def _labels_at_load(predictions: list, references: list, labels: list, options: dict, _: Path, load: Any) -> dict:
    return load(labels=labels, **options).compute(predictions=predictions, references=references)


def _labels_at_compute(predictions: list, references: list, labels: list, options: dict, _: Path, load: Any) -> dict:
    return load().compute(predictions=predictions, references=references, labels=labels, **options)


def _added_batches(predictions: list, references: list, labels: list, options: dict, _: Path, load: Any) -> dict:
    metric = load(**options)
    for prediction, reference in zip(predictions, references):  # stored, and scored by evaluate's `_compute`
        metric.add_batch(predictions=[prediction], references=[reference])
    return metric.compute(labels=labels)


_FLAGS = {"per_type": "--per-type", "confusion": "--confusion", "diagnostics": "--diagnostics"}


def _printed_json(arguments: list[str]) -> dict:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main([*arguments, "--json"]) == 0
    return json.loads(printed.getvalue())


def _conll(folder: Path, predictions: list, references: list) -> str:
    path = folder / "labels.conll"
    sentences = ["".join(f"w {r} {p}\n" for r, p in zip(*pair)) for pair in zip(references, predictions)]
    path.write_text("\n".join(sentences), encoding="utf-8")
    return str(path)


def _command_line(predictions: list, references: list, labels: list, options: dict, folder: Path, _: Any) -> dict:
    path = _conll(folder, predictions, references)
    return _printed_json([path, "--labels", ",".join(labels), *map(_FLAGS.get, options)])


def _command_line_runs(predictions: list, references: list, labels: list, options: dict, folder: Path, _: Any) -> dict:
    path = _conll(folder, predictions, references)
    summary = _printed_json(["--runs", path, path, "--labels", ",".join(labels), *map(_FLAGS.get, options)])
    return {key.removesuffix("_mean"): value for key, value in summary.items() if key.endswith("_mean")}


def _command_line_compare(predictions: list, references: list, labels: list, _: dict, folder: Path, __: Any) -> dict:
    path = _conll(folder, predictions, references)
    compared = _printed_json(["--compare", path, path, "--labels", ",".join(labels), "--bootstrap", "10"])
    return {key.removesuffix("_a"): value for key, value in compared.items() if key.endswith("_a")}


def _runs_summarized(predictions: list, references: list, labels: list, options: dict, *_: Any) -> dict:
    summary = summarize_runs(runs=[predictions, predictions], references=references, labels=labels, **options)
    return {key.removesuffix("_mean"): value for key, value in summary.items() if key.endswith("_mean")}


def _runs_compared(predictions: list, references: list, labels: list, options: dict, *_: Any) -> dict:
    compared = compare_runs(
        runs_a=[predictions], runs_b=[predictions], references=references, labels=labels, n_resamples=10, **options
    )
    return {key.removesuffix("_a_mean"): value for key, value in compared.items() if key.endswith("_a_mean")}


def _systems_compared(predictions: list, references: list, labels: list, options: dict, *_: Any) -> dict:
    compared = compare_semeval(
        predictions_a=predictions, predictions_b=predictions, references=references, labels=labels, n_resamples=10
    )
    return {key.removesuffix("_a"): value for key, value in compared.items() if key.endswith("_a")}


def _annotators(predictions: list, references: list, labels: list, options: dict, *_: Any) -> dict:
    pair = agreement(annotations={"a": references, "b": predictions}, labels=labels, **options)["pairs"][0]
    return {key: value for key, value in pair.items() if key not in ("a", "b", "cohen_kappa", "cohen_kappa_labelled")}


# Every option that adds to what is counted or reported, for the front ends that take them all.
ADDING = [
    {"per_type": True},
    {"confusion": True},
    {"value": True, "per_type": True},
    {"bootstrap": 20},
    {"return_entities": True},
    {"slices": ["entity_length"]},
    {"diagnostics": True},
]
FRONT_ENDS: dict[str, tuple[FrontEnd, list[dict]]] = {
    "accumulator-batch-by-batch": (_batch_by_batch, [{}, *ADDING]),
    "accumulator-labels-at-result-alone": (_labels_at_result, [{}, *ADDING]),
    "accumulator-labels-reordered-at-result": (_labels_reordered_at_result, [{}, *ADDING]),
    "evaluate-labels-at-load": (_labels_at_load, [{}, {"per_type": True}, {"bootstrap": 20}]),
    "evaluate-labels-at-compute": (_labels_at_compute, [{}, {"per_type": True}, {"bootstrap": 20}]),
    "evaluate-added-batches": (_added_batches, [{}, {"per_type": True}, {"return_entities": True}]),
    "command-line-json": (_command_line, [{}, {"per_type": True}, {"confusion": True}, {"diagnostics": True}]),
    "command-line-runs-json": (_command_line_runs, [{}, {"diagnostics": True}]),
    "command-line-compare-json": (_command_line_compare, [{}]),
    "summarize-runs": (_runs_summarized, [{}, {"per_type": True}, {"diagnostics": True}]),
    "compare-runs": (_runs_compared, [{}]),
    "compare-semeval": (_systems_compared, [{}]),
    "agreement-pair": (_annotators, [{}, {"per_type": True}, {"confusion": True}, {"bootstrap": 20}]),
}
FRONT_END_CASES = [
    pytest.param(front_end, example, options, id=f"{front_end}-{example}-{'-'.join(options) or 'overall'}")
    for front_end, (_, taken) in FRONT_ENDS.items()
    for options in taken
    for example in EXAMPLES
]


@pytest.mark.parametrize(("front_end", "example", "options"), FRONT_END_CASES)
def test_every_front_end_scores_labels_as_compute_semeval(
    front_end: str, example: str, options: dict, tmp_path: Path, load_metric: Any
) -> None:
    predictions, references, labels = EXAMPLES[example]
    expected = compute_semeval(predictions=predictions, references=references, labels=labels, **options)
    scored = FRONT_ENDS[front_end][0]
    if scored is _labels_at_result:  # (on the old code, the counts of every type: strict_possible 2 for 1)
        with pytest.raises(ValueError, match=r"^options asks for labels=\(.*, which the batches were not counted"):
            scored(predictions, references, labels, options)
        return
    found = scored(predictions, references, labels, options, tmp_path, load_metric)
    assert "strict_f1" in found  # (an empty dict would agree with any)
    assert found == {key: expected[key] for key in found}


def test_labels_leave_the_type_error_of_two_other_types_out() -> None:
    # By hand, the example: PER correct, the LOC-for-ORG pair left out by labels (with every type: an INC).
    predictions, references, labels = EXAMPLES["type-error-of-left-out-types"]
    scored = compute_semeval(predictions=predictions, references=references, labels=labels)
    assert (scored["strict_possible"], scored["strict_actual"], scored["strict_f1"]) == (1, 1, 1.0)
    every = compute_semeval(predictions=predictions, references=references)
    assert (every["strict_possible"], every["strict_incorrect"], every["strict_f1"]) == (2, 1, 0.5)


# Labels asked of a result that the batches were not counted with: the counts of other entities.
# (After every type counted: the table's "accumulator-labels-at-result-alone".)
UNCOUNTED_LABELS = [
    pytest.param(["PER", "LOC"], ["PER"], id="fewer-labels"),
    pytest.param(["PER"], ["PER", "LOC"], id="more-labels"),
    pytest.param(["PER"], None, id="every-type-after-labels"),
]


@pytest.mark.parametrize(("counting", "asked"), UNCOUNTED_LABELS)
def test_a_result_asking_for_labels_not_counted_is_refused(counting: list, asked: Any) -> None:
    predictions, references, _ = EXAMPLES["type-error-of-left-out-types"]
    counted = Accumulator.of(labels=counting).update(predictions=predictions, references=references)
    named = "labels" if asked is None else f"labels={tuple(asked)!r}"
    with pytest.raises(ValueError, match=f"^options asks for {re.escape(named)}, which the batches were not counted"):
        counted.result(Options.of(labels=asked))


@pytest.mark.parametrize(
    "asked", [pytest.param(["LOC", "PER"], id="reordered"), pytest.param(["PER", "LOC", "PER"], id="repeated")]
)
def test_a_result_under_the_same_labels_in_another_order_is_compute_semevals(asked: list) -> None:
    predictions, references, _ = EXAMPLES["a-label-of-no-entity"]
    counted = Accumulator.of(labels=["PER", "LOC"]).update(predictions=predictions, references=references)
    found = counted.result(Options.of(labels=asked, per_type=True))
    assert found == compute_semeval(predictions=predictions, references=references, labels=asked, per_type=True)
    assert list(found) == list(
        compute_semeval(predictions=predictions, references=references, labels=asked, per_type=True)
    )


# result(types=...): compute_semeval's keys of every type counted, those of other types' rows and the macro keys
# left out, each value compute_semeval's (the Space's table: 50 types of up to 100,000).
TYPES = [
    pytest.param(["PER"], {}, id="one-type"),
    pytest.param(["PER", "ORG", "LOC", "MISC"], {}, id="every-type"),
    pytest.param(["LOC", "PER", "LOC"], {}, id="repeated-unsorted"),
    pytest.param([], {}, id="none"),
    pytest.param(("ORG",), {"value": True}, id="value-per-type"),
    pytest.param(["MISC"], {"bootstrap": 20, "diagnostics": True}, id="intervals-and-diagnostics"),
    pytest.param(["PER"], {"slices": ["entity_length"], "return_entities": True}, id="slices-and-entities"),
    pytest.param(["LOC"], {"labels": ["LOC", "PER"]}, id="counted-with-labels"),
]


@pytest.mark.parametrize(("types", "options"), TYPES)
def test_a_result_of_some_types_rows_is_compute_semevals_without_the_others(types: list, options: dict) -> None:
    predictions, references, _ = EXAMPLES["a-label-of-no-entity"]
    expected = compute_semeval(predictions=predictions, references=references, per_type=True, **options)
    counted = Accumulator.of(per_type=True, **options).update(predictions=predictions, references=references)
    found = counted.result(types=types)
    every = [name for name in ("PER", "ORG", "LOC", "MISC") if f"{name}_strict_f1" in expected]
    left_out = {
        key
        for key in expected
        if "_macro_" in key or any(key.startswith(f"{name}_") for name in every if name not in types)
    }
    assert found == {key: value for key, value in expected.items() if key not in left_out}
    assert list(found) == [key for key in expected if key not in left_out]  # in compute_semeval's order


REFUSED_TYPES = [
    pytest.param(["EVENT"], {"per_type": True}, "types holds 'EVENT', of which no entity was counted", id="no-entity"),
    pytest.param(["PER"], {}, "types names the per-type keys to report; expected per_type=True", id="not-per-type"),
    pytest.param(["PER"], {"per_type": True, "confusion": True}, "types names the per-type keys", id="confusion"),
    pytest.param("PER", {"per_type": True}, "types is 'PER'; expected a list of entity types", id="a-string"),
    pytest.param([1], {"per_type": True}, "types is [1]; expected a list of entity types", id="not-a-type"),
]


@pytest.mark.parametrize(("types", "options", "message"), REFUSED_TYPES)
def test_a_result_of_types_no_compute_semeval_reports_is_refused(types: Any, options: dict, message: str) -> None:
    predictions, references, _ = EXAMPLES["a-label-of-no-entity"]
    counted = Accumulator.of(**options).update(predictions=predictions, references=references)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
        counted.result(types=types)


def test_the_space_shows_compute_semevals_values_for_its_shown_types() -> None:
    # More types than the page's table shows: its keys are compute_semeval's with per_type (on the old code, the
    # macro keys averaged over the shown types alone), the per-type keys those of the shown types.
    count = caps.MAX_SHOWN_TYPES + 10
    text = "".join(f"w B-T{n:02} B-T{n:02}\n" + ("w B-T00 O\n" if n % 2 else "") + "\n" for n in range(count))
    corpus = parsing.parse_conll(text)
    evaluation = scoring.evaluate_corpus(corpus, "IOB2", "lenient")
    options = {"scheme": "IOB2", "mode": "lenient", "diagnostics": True, "errors": caps.MAX_ERROR_ROWS}
    expected = compute_semeval(
        predictions=corpus.predictions, references=corpus.references, tokens=corpus.tokens, per_type=True, **options
    )
    assert len(evaluation.shown_types) == caps.MAX_SHOWN_TYPES < len(evaluation.entity_types) == count
    assert evaluation.results == {key: expected[key] for key in evaluation.results}
    typed = {key.split("_", 1)[0] for key in evaluation.results if key.startswith("T")}
    assert typed == set(evaluation.shown_types)
    assert not [key for key in evaluation.results if "_macro_" in key]
