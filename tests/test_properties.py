"""Hypothesis properties of ner_semeval, and its agreement with the independent oracle (tests/oracle.py)."""

from __future__ import annotations

import contextlib
import math
from collections import Counter
from typing import Any

import oracle
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import SCHEMES, TYPES, as_ids, soup_batches, span_batches, spans, splits

import nerscore as ns

MODES = ("lenient", "strict")
EVALUATION_SCHEMES = ("strict", "exact", "partial", "type")


def assert_same_results(result: dict[str, Any], expected: dict[str, Any]) -> None:
    """Same keys; counts equal plain ints, scores plain floats equal up to rounding (docs/scoring.md §7)."""
    assert sorted(result) == sorted(expected)
    for key, value in expected.items():
        if key == "entities":
            continue
        if isinstance(value, int):
            assert type(result[key]) is int and result[key] == value, key
        else:
            assert type(result[key]) is float and result[key] == pytest.approx(value), key
    if "entities" in expected:
        rows = result["entities"]
        assert Counter(map(repr, rows)) == Counter(map(repr, expected["entities"]))
        # docs/scoring.md §7: in sentence and position order.
        positions = [
            (row["sentence"], min(side["start"] for side in (row["reference"], row["prediction"]) if side))
            for row in rows
        ]
        assert positions == sorted(positions)


# The drawn arguments most properties share: a batch of tag soup (drawn in the test from `data`), its scheme and
# mode; and the options several vary.
BATCHES = {"data": st.data(), "scheme": st.sampled_from(SCHEMES), "mode": st.sampled_from(MODES)}
LABELS = st.none() | st.lists(st.sampled_from([*TYPES, "ORG"]), min_size=1, unique=True)
ZERO_DIVISION = st.sampled_from([0, 1])


def entity_count(batch: list[list[str]], scheme: str, mode: str, suffix: bool, labels: list[str] | None) -> int:
    spans = [span for tags in batch for span in ns.decode(tags, scheme, mode, suffix)]
    return sum(labels is None or span.entity_type in labels for span in spans)


# ---------------------------------------------------------------------------------------------------------
# encode / decode
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [False, True], ids=["prefix", "suffix"])
@pytest.mark.parametrize("scheme", SCHEMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_encode_then_decode_gives_the_spans_back(scheme: str, suffix: bool, data: st.DataObject) -> None:
    # IO has no letter to separate two touching entities of one type (docs/scoring.md §1: adjacent tokens form one).
    drawn, length = data.draw(spans(separate_same_type=scheme == "IO"))
    expected = [ns.Span(*span) for span in drawn]
    tags = ns.encode(expected, length, scheme, suffix)
    assert len(tags) == length
    for mode in MODES:
        assert ns.decode(tags, scheme, mode, suffix) == expected
        assert oracle.decode(tags, scheme, mode, suffix) == drawn


def test_io_cannot_encode_touching_entities_of_one_type() -> None:
    with pytest.raises(ValueError, match="IO cannot separate"):
        ns.encode([ns.Span(0, 1, "PER"), ns.Span(1, 2, "PER")], 2, "IO")


# ---------------------------------------------------------------------------------------------------------
# additivity: batches, chunks and Tallies
# ---------------------------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(**BATCHES)
def test_tallies_of_chunks_add_up_to_one_compute(data: st.DataObject, scheme: str, mode: str) -> None:
    predictions, references = data.draw(soup_batches(scheme, max_sentences=6))
    labels = data.draw(st.none() | st.lists(st.sampled_from(TYPES), min_size=1, unique=True))
    options = ns.Options.of(scheme=scheme, mode=mode, labels=labels, per_type=True)
    total = ns.Tally()
    for a, b in data.draw(splits(len(references))):
        tally, _ = ns.tally_semeval(predictions[a:b], references[a:b], options)
        total = total + tally
    expected = ns.compute_semeval(
        predictions=predictions, references=references, scheme=scheme, mode=mode, labels=labels, per_type=True
    )
    assert ns.scores(total, options) == expected


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(**BATCHES)
def test_add_batch_chunks_give_one_compute(load_metric, data: st.DataObject, scheme: str, mode: str) -> None:
    predictions, references = data.draw(soup_batches(scheme, max_sentences=6))
    metric = load_metric(scheme=scheme)  # a fresh module per example: a failed one leaves no batches behind
    for a, b in data.draw(splits(len(references))):
        metric.add_batch(predictions=predictions[a:b], references=references[a:b])
    result = metric.compute(mode=mode, per_type=True)
    assert result == ns.compute_semeval(
        predictions=predictions, references=references, scheme=scheme, mode=mode, per_type=True
    )


# ---------------------------------------------------------------------------------------------------------
# what every result must satisfy
# ---------------------------------------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(
    **BATCHES,
    suffix=st.booleans(),
    zero_division=ZERO_DIVISION,
)
def test_a_perfect_prediction_scores_one(
    data: st.DataObject, scheme: str, mode: str, suffix: bool, zero_division: int
) -> None:
    _, references = data.draw(soup_batches(scheme, suffix=suffix))
    result = ns.compute_semeval(
        predictions=references,
        references=references,
        scheme=scheme,
        mode=mode,
        suffix=suffix,
        zero_division=zero_division,
        per_type=True,
    )
    assume(result["strict_possible"] > 0)
    for key, value in result.items():
        if key.endswith(("precision", "recall", "f1")):
            assert value == 1.0, key
    for scheme_name in EVALUATION_SCHEMES:
        assert result[f"{scheme_name}_correct"] == result[f"{scheme_name}_possible"] == result[f"{scheme_name}_actual"]


@settings(max_examples=80, deadline=None)
@given(
    **BATCHES,
    suffix=st.booleans(),
    labels=LABELS,
)
def test_possible_and_actual_count_the_entities(
    data: st.DataObject, scheme: str, mode: str, suffix: bool, labels: list[str] | None
) -> None:
    predictions, references = data.draw(soup_batches(scheme, suffix=suffix))
    result = ns.compute_semeval(
        predictions=predictions,
        references=references,
        scheme=scheme,
        mode=mode,
        suffix=suffix,
        labels=labels,
        per_type=True,
    )
    # docs/scoring.md §3: POS is the number of reference entities and ACT of predicted ones, whatever the pairing.
    possible = entity_count(references, scheme, mode, suffix, labels)
    actual = entity_count(predictions, scheme, mode, suffix, labels)
    types = {key.split("_")[0] for key in result if key.endswith("_strict_possible")}
    for name in EVALUATION_SCHEMES:
        assert result[f"{name}_possible"] == possible
        assert result[f"{name}_actual"] == actual
        # docs/scoring.md §5: the per-type sides sum to the totals.
        assert sum(result[f"{t}_{name}_possible"] for t in types) == possible
        assert sum(result[f"{t}_{name}_actual"] for t in types) == actual


SWAPPED = {"precision": "recall", "recall": "precision", "missed": "spurious", "spurious": "missed"}
SWAPPED |= {"possible": "actual", "actual": "possible"}


def swapped_key(key: str) -> str:
    head, _, measure = key.rpartition("_")
    return f"{head}_{SWAPPED.get(measure, measure)}"


@settings(max_examples=80, deadline=None)
@given(**BATCHES)
def test_swapping_sides_swaps_precision_and_recall(data: st.DataObject, scheme: str, mode: str) -> None:
    predictions, references = data.draw(soup_batches(scheme))
    forward = ns.compute_semeval(
        predictions=predictions, references=references, scheme=scheme, mode=mode, per_type=True
    )
    backward = ns.compute_semeval(
        predictions=references, references=predictions, scheme=scheme, mode=mode, per_type=True
    )
    assert {swapped_key(key): value for key, value in forward.items()} == pytest.approx(backward)


# ---------------------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(
    **BATCHES,
    suffix=st.booleans(),
    label_list=st.none() | st.just(["O", "B-PER", "I-PER"]),
    lower=st.booleans(),
)
def test_tag_soup_raises_nothing_but_value_error(
    data: st.DataObject, scheme: str, mode: str, suffix: bool, label_list: list[str] | None, lower: bool
) -> None:
    predictions, references = data.draw(soup_batches(scheme, suffix=suffix, foreign_letters=True, junk=True))
    if lower:
        predictions = [[t.lower() if isinstance(t, str) else t for t in row] for row in predictions]
    with contextlib.suppress(ValueError):
        ns.compute_semeval(
            predictions=predictions,
            references=references,
            scheme=scheme,
            mode=mode,
            suffix=suffix,
            label_list=label_list,
        )
    for tags in (*predictions, *references):
        with contextlib.suppress(ValueError):
            ns.decode(tags, scheme, mode, suffix)


@settings(max_examples=100, deadline=None)
@given(**BATCHES, suffix=st.booleans())
def test_well_formed_tag_soup_scores_without_error(data: st.DataObject, scheme: str, mode: str, suffix: bool) -> None:
    # Only the scheme's own letters, in the declared prefix or suffix form, in any order: never an error
    # (lenient mode decodes any order, strict mode drops what is not well formed; docs/scoring.md §2).
    predictions, references = data.draw(soup_batches(scheme, suffix=suffix))
    ns.compute_semeval(predictions=predictions, references=references, scheme=scheme, mode=mode, suffix=suffix)
    for tags in (*predictions, *references):
        ns.decode(tags, scheme, mode, suffix)


@pytest.mark.parametrize(
    ("options", "match"),
    [
        pytest.param({"scheme": "IOB3"}, "unknown scheme", id="unknown-scheme"),
        pytest.param({"scheme": None}, "unknown scheme", id="scheme-none"),
        pytest.param({"mode": "loose"}, "unknown mode", id="unknown-mode"),
        pytest.param({"beta": -1}, "beta", id="negative-beta"),
        pytest.param({"beta": math.inf}, "beta", id="infinite-beta"),
        pytest.param({"beta": math.nan}, "beta", id="nan-beta"),
        pytest.param({"zero_division": "0"}, "zero_division", id="zero-division-string"),
        pytest.param({"labels": "PER"}, "labels", id="labels-string"),
        pytest.param(
            {"zero_division": math.inf},
            "zero_division",
            id="infinite-zero-division",
        ),
        pytest.param(
            {"beta": 10**400},
            "beta",
            id="huge-int-beta",
        ),
        pytest.param(
            {"labels": [["PER"]]},
            "labels",
            id="unhashable-label",
        ),
    ],
)
def test_bad_options_are_value_errors(options: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ns.compute_semeval(predictions=[["B-PER"]], references=[["O"]], **options)


# ---------------------------------------------------------------------------------------------------------
# agreement with the oracle: the main differential test of the scoring core
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    mode=st.sampled_from(MODES),
    suffix=st.booleans(),
    labels=LABELS,
    beta=st.sampled_from([0.5, 1.0, 2.0]),
    zero_division=ZERO_DIVISION,
    return_entities=st.booleans(),
    form=st.sampled_from(["tags", "tags", "ids", "foreign letters"]),
)
def test_agrees_with_the_oracle(
    scheme: str,
    data: st.DataObject,
    mode: str,
    suffix: bool,
    labels: list[str] | None,
    beta: float,
    zero_division: int,
    return_entities: bool,
    form: str,
) -> None:
    predictions, references = data.draw(
        soup_batches(scheme, suffix=suffix, max_length=10, foreign_letters=form == "foreign letters")
    )
    options: dict[str, Any] = {
        "scheme": scheme,
        "mode": mode,
        "suffix": suffix,
        "labels": labels,
        "beta": beta,
        "zero_division": zero_division,
        "per_type": True,
        "return_entities": return_entities,
    }
    if form == "ids":
        predictions, references, options["label_list"] = as_ids(data.draw, predictions, references)
    try:
        expected = oracle.evaluate(predictions, references, **options)
    except ValueError:
        with pytest.raises(ValueError):
            ns.compute_semeval(predictions=predictions, references=references, **options)
        return
    assert_same_results(ns.compute_semeval(predictions=predictions, references=references, **options), expected)


@pytest.mark.parametrize("scheme", SCHEMES)
@settings(max_examples=15, deadline=None)
@given(data=st.data(), suffix=st.booleans())
def test_agrees_with_the_oracle_on_well_formed_sentences(scheme: str, data: st.DataObject, suffix: bool) -> None:
    # Soup rarely holds long well-formed entities in BIOES-like schemes; encoded spans always do.
    sentences = data.draw(span_batches(separate_same_type=scheme == "IO"))
    references = [ns.encode([ns.Span(*s) for s in r], n, scheme, suffix) for n, r, _ in sentences]
    predictions = [ns.encode([ns.Span(*s) for s in p], n, scheme, suffix) for n, _, p in sentences]
    for mode in MODES:
        options = {"scheme": scheme, "mode": mode, "suffix": suffix, "per_type": True}
        expected = oracle.evaluate(predictions, references, **options)
        assert_same_results(ns.compute_semeval(predictions=predictions, references=references, **options), expected)
