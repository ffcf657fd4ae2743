"""Weighted scores (docs/scoring.md §10, issue 18): `partial_credit` and the ACE-style `value`.

The value pairing is checked against an enumeration of every one-to-one pairing of overlapping entities, written
here from §10 alone; the worked example's value under "ace08" is the one docs/scoring.md computes by hand; the
overlap credit is recomputed from the `entities` rows; the array path equals the readable path with every weighted
option, bootstrap included; and every bad weight, key, preset or partial credit is refused by name."""

from __future__ import annotations

import itertools
import json
import math
import random
import sys
import warnings
from fractions import Fraction
from itertools import combinations, permutations
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from conftest import trials, worked_example
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import nested_spans
from test_spans import overlaps

import nerscore as ns
from nerscore import Span, compute_semeval
from nerscore.options import Options
from nerscore.pairing import dense
from nerscore.pairing import value as value_module
from nerscore.pairing.value import WeightTable, value_pair

TYPES = ("A", "B", "C")
WEIGHTS: list[Any] = [
    True,
    "ace08",
    {"types": {"A": 2.0, "B": 0.1}, "type_error": 0.25, "boundary_error": 0.5, "false_alarm": 0.3},
    {"types": {"C": 0.0}, "default_type_weight": 3.0, "type_error": 0.0, "false_alarm": 1e-3, "min_overlap": 0.5},
    {"type_error": 1.0, "boundary_error": 0.0, "false_alarm": 0.0},
]


def weight(weights: dict, entity_type: str) -> Fraction:
    return Fraction(weights.get("types", {}).get(entity_type, weights.get("default_type_weight", 1.0)))


def as_dict(value: Any) -> dict:
    if value is True:
        return {}
    if value == "ace08":
        return {"min_overlap": 0.3}
    return value


def factor(weights: dict, reference: Span, prediction: Span) -> Fraction:
    result = Fraction(1)
    if reference.entity_type != prediction.entity_type:
        result *= Fraction(weights.get("type_error", 0.5))
    if (reference.start, reference.end) != (prediction.start, prediction.end):
        result *= Fraction(weights.get("boundary_error", 1.0))
    return result


def best_value_pairing(references: list[Span], predictions: list[Span], weights: dict, min_overlap: float | None):
    """Every one-to-one pairing of overlapping entities, the best by §10: most Σ kept + false_alarm · Σ w(p)
    over paired p, then most pairs, most pairs of one type, most shared extent, then the smallest sorted list of
    (reference start, end, type, prediction start, end, type)."""
    false_alarm = Fraction(weights.get("false_alarm", 0.75))
    # Each overlapping pair's terms, worked out once for the thousands of pairings that hold it (the worths over a
    # common denominator: integers, added and compared as the fractions are).
    terms = {
        (i, j): (
            weight(weights, r.entity_type) * factor(weights, r, p) + false_alarm * weight(weights, p.entity_type),
            r.entity_type == p.entity_type,
            r.overlap(p),
        )
        for i, r in enumerate(references)
        for j, p in enumerate(predictions)
        if overlaps(r, p, min_overlap)
    }
    denominator = math.lcm(*(worth.denominator for worth, _, _ in terms.values()))
    scaled = {pair: (int(worth * denominator), same, shared) for pair, (worth, same, shared) in terms.items()}
    best: tuple | None = None
    best_pairs: list[tuple[Span, Span]] = []
    for size in range(min(len(references), len(predictions)) + 1):
        for chosen_r in combinations(range(len(references)), size):
            for chosen_p in permutations(range(len(predictions)), size):
                chosen = list(zip(chosen_r, chosen_p))
                if not all(pair in scaled for pair in chosen):
                    continue
                key = (
                    sum(scaled[pair][0] for pair in chosen),
                    size,
                    sum(scaled[pair][1] for pair in chosen),
                    sum(scaled[pair][2] for pair in chosen),
                )
                pairs = [(references[i], predictions[j]) for i, j in chosen]
                if best is None or key > best[:4] or (key == best[:4] and listed(pairs) < best[4]):  # (d) last
                    best, best_pairs = (*key, listed(pairs)), pairs
    return best_pairs


def listed(pairs: list[tuple[Span, Span]]) -> list[tuple]:
    """A pairing as rule (d) compares it: its sorted (reference start, end, type, prediction start, end, type)."""
    return sorted((r.start, r.end, r.entity_type, p.start, p.end, p.entity_type) for r, p in pairs)


def _better(key: tuple, best: tuple) -> bool:
    if key[:4] != best[:4]:
        return key[:4] > best[:4]
    return key[4] < best[4]  # (d): the smaller sorted list wins


def value_of(references: list[Span], predictions: list[Span], pairs, weights: dict) -> tuple[Fraction, ...]:
    """(value, precision, recall) of a pairing, by §10's formulas, exact."""
    false_alarm = Fraction(weights.get("false_alarm", 0.75))
    worth_r = sum((weight(weights, r.entity_type) for r in references), Fraction(0))
    worth_p = sum((weight(weights, p.entity_type) for p in predictions), Fraction(0))
    kept = sum((weight(weights, r.entity_type) * factor(weights, r, p) for r, p in pairs), Fraction(0))
    kept_p = sum((weight(weights, p.entity_type) * factor(weights, r, p) for r, p in pairs), Fraction(0))
    paired_p = [p for _, p in pairs]
    unpaired = list(predictions)
    for p in paired_p:
        unpaired.remove(p)
    cost = false_alarm * sum((weight(weights, p.entity_type) for p in unpaired), Fraction(0))
    value = (kept - cost) / worth_r if worth_r else Fraction(0)
    return value, kept_p / worth_p if worth_p else Fraction(0), kept / worth_r if worth_r else Fraction(0)


def random_side(rng: random.Random, nested: bool) -> list[Span]:
    if nested:
        spans = []
        for _ in range(rng.randint(0, 6)):
            start = rng.randint(0, 7)
            spans.append(Span(start, start + rng.randint(1, 4), rng.choice(TYPES)))
        return spans
    spans, position = [], rng.randint(0, 2)
    while position < 12 and len(spans) < 6:
        length = rng.randint(1, 3)
        spans.append(Span(position, position + length, rng.choice(TYPES)))
        position += length + rng.randint(0, 2)
    return spans


@pytest.mark.parametrize("nested", [False, True], ids=["disjoint", "nested"])
@pytest.mark.parametrize("weights", WEIGHTS, ids=["true", "ace08", "typed", "zero-weights", "no-costs"])
def test_the_value_pairing_is_the_best_of_every_pairing(weights: Any, nested: bool) -> None:
    rng = random.Random(f"{weights}{nested}")
    checked = Options.of(value=weights).value
    assert checked is not None
    table = WeightTable(checked)
    plain = as_dict(weights)
    for _ in range(trials(60)):
        references, predictions = random_side(rng, nested), random_side(rng, nested)
        min_overlap = plain.get("min_overlap")
        expected = best_value_pairing(references, predictions, plain, min_overlap)
        rows = value_pair(references, predictions, table, min_overlap)
        found = sorted((r, p) for r, p in rows if r is not None and p is not None)
        assert found == sorted(expected), (references, predictions)
        # every entity once
        assert sorted(r for r, _ in rows if r is not None) == sorted(references)
        assert sorted(p for _, p in rows if p is not None) == sorted(predictions)
        # and the scores of compute_semeval are that pairing's, exact and rounded once
        result = compute_semeval(
            predictions=[[(p.start, p.end, p.entity_type) for p in predictions]],
            references=[[(r.start, r.end, r.entity_type) for r in references]],
            value=weights,
        )
        value, precision, recall = value_of(references, predictions, expected, plain)
        if sum(weight(plain, r.entity_type) for r in references):
            assert result["value"] == float(value)
            assert result["value_recall"] == float(recall)
        if sum(weight(plain, p.entity_type) for p in predictions):
            assert result["value_precision"] == float(precision)


# Weights of every kind for the twins' claim (below): errors keeping less than all, a type worth nothing, no false
# alarm's cost and a huge one, the value's own min_overlap.
EQUAL_SIDES_WEIGHTS = [
    *WEIGHTS,
    {"types": {"A": 0.0, "B": 4.0}, "type_error": 0.5, "boundary_error": 0.25, "false_alarm": 1e6, "min_overlap": 0.3},
    {"types": {"A": 0.0, "B": 0.0, "C": 0.0}, "false_alarm": 0.0},
]


# (The quick profile: the defaults, ace08 and the two added above.)
@pytest.mark.parametrize(
    "weights",
    [
        pytest.param(w, marks=pytest.mark.slow if 2 <= i < len(WEIGHTS) else ())
        for i, w in enumerate(EQUAL_SIDES_WEIGHTS)
    ],
)
def test_predictions_equal_to_the_references_pair_with_their_twins(weights: Any) -> None:
    # docs/scoring.md §10, and `dense.dense_pairs`' shortcut where the sides are equal: no pairing of equal sides,
    # enumerated, beats every entity paired with its twin (copies included), whatever the weights; `value_pair`'s
    # solvers find it.
    rng = random.Random(f"equal sides {weights}")
    checked = Options.of(value=weights).value
    assert checked is not None
    table, plain = WeightTable(checked), as_dict(weights)
    min_overlap = plain.get("min_overlap")
    for _ in range(trials(40)):
        references = random_side(rng, nested=True)
        if references and rng.random() < 0.3:
            references.append(rng.choice(references))  # a copy
        predictions = rng.sample(references, len(references))
        expected = best_value_pairing(references, predictions, plain, min_overlap)
        assert len(expected) == len(references) and all(r == p for r, p in expected), references
        assert all(r == p for r, p in value_pair(references, predictions, table, min_overlap)), references


def test_the_worked_example_under_ace08() -> None:
    # docs/scoring.md §10's hand computation: kept 1 + 1 + 0.5 + 1 + 0.5 ... over five references worth 1 each.
    predictions, references = worked_example()
    result = compute_semeval(predictions=predictions, references=references, value="ace08")
    assert (result["value"], result["value_precision"], result["value_recall"], result["value_f1"]) == (
        0.45,
        0.6,
        0.6,
        0.6,
    )
    # the same when II and III share a sentence: the spurious 年轮 overlaps no reference entity
    predictions, references = worked_example(shared=True)
    shared = compute_semeval(predictions=predictions, references=references, value="ace08")
    assert (shared["value"], shared["value_precision"], shared["value_recall"]) == (0.45, 0.6, 0.6)


def test_the_value_pairing_does_not_force_identical_boundaries() -> None:
    # A PER reference with a LOC prediction of the same boundaries and a PER prediction around it: §3 pairs the
    # identical boundaries (keeping 0.5 under the default weights); the value pairs the PER with the PER (1).
    references = [[(0, 2, "PER")]]
    predictions = [[(0, 2, "LOC"), (0, 3, "PER")]]
    result = compute_semeval(predictions=predictions, references=references, value=True, return_entities=True)
    assert result["value_recall"] == 1.0
    assert result["value"] == 1 - 0.75
    assert [row["scenario"] for row in result["entities"]] == ["IV", "II"]


@pytest.mark.parametrize(
    ("credit", "expected"),
    [(0.5, 0.6), (0.0, 0.4), (1.0, 0.8), (0.25, 0.5), ("overlap", 2 / 3)],
    ids=["half", "none", "whole", "quarter", "overlap"],
)
def test_partial_credit_on_the_worked_example(credit: Any, expected: float) -> None:
    predictions, references = worked_example()
    result = compute_semeval(predictions=predictions, references=references, partial_credit=credit)
    default = compute_semeval(predictions=predictions, references=references)
    assert result["partial_precision"] == result["partial_recall"] == pytest.approx(expected, abs=1e-15)
    # the counts, and every other scheme, stay as they are
    assert {
        k: v for k, v in result.items() if not k.startswith("partial_") or k[8:] in ns.tally.COUNT_NAMES.values()
    } == {k: v for k, v in default.items() if not k.startswith("partial_") or k[8:] in ns.tally.COUNT_NAMES.values()}


def random_tags(rng: random.Random, sentences: int = 6, length: int = 12) -> tuple[list, list]:
    tags = ["O", "B-A", "I-A", "B-B", "I-B", "B-C"]
    references = [[rng.choice(tags) for _ in range(rng.randint(0, length))] for _ in range(sentences)]
    predictions = [[rng.choice(tags) for _ in sentence] for sentence in references]
    return predictions, references


def test_overlap_credit_is_the_entities_rows_shares() -> None:
    rng = random.Random(7)
    for _ in range(100):
        predictions, references = random_tags(rng)
        result = compute_semeval(
            predictions=predictions,
            references=references,
            partial_credit="overlap",
            return_entities=True,
            per_type=True,
        )
        credit: dict[str, Fraction] = {}
        credit_p: dict[str, Fraction] = {}
        total = Fraction(0)
        for row in result["entities"]:
            if row["partial"] != "PAR":
                continue
            r, p = row["reference"], row["prediction"]
            share = Fraction(
                min(r["end"], p["end"]) - max(r["start"], p["start"]),
                max(r["end"], p["end"]) - min(r["start"], p["start"]),
            )
            total += share
            credit[r["type"]] = credit.get(r["type"], Fraction(0)) + share
            credit_p[p["type"]] = credit_p.get(p["type"], Fraction(0)) + share
        correct, actual, possible = result["partial_correct"], result["partial_actual"], result["partial_possible"]
        if actual:
            assert result["partial_precision"] == float((correct + total) / actual)
        if possible:
            assert result["partial_recall"] == float((correct + total) / possible)
        # Per type, each side's entities of that type: the references' make recall, the predictions' precision.
        sides = [("reference", "possible", "recall", credit), ("prediction", "actual", "precision", credit_p)]
        for entity_type, (side, count, measure, side_credit) in itertools.product("ABC", sides):
            type_correct = sum(
                1
                for row in result["entities"]
                if row["partial"] == "COR" and (row[side] or {}).get("type") == entity_type
            )
            type_count = result.get(f"{entity_type}_partial_{count}", 0)
            if type_count:
                assert result[f"{entity_type}_partial_{measure}"] == float(
                    (type_correct + side_credit.get(entity_type, 0)) / type_count
                )


WEIGHTED_OPTIONS = [
    {"value": True},
    {"value": "ace08", "beta": 2},
    {"partial_credit": "overlap"},
    {"partial_credit": 0.1, "value": WEIGHTS[2], "min_overlap": 0.5},
    {"partial_credit": "overlap", "value": WEIGHTS[3], "zero_division": 1.0},
]


COMMON = {"per_type": True, "bootstrap": 30}


def paths_agree(predictions: list, references: list, options: dict) -> dict:
    """The array path's result with `options` (and per type, 30 resamples), asserted equal to the readable path's
    (`return_entities`) but for its entities."""
    common = {**COMMON, **options}
    fast = compute_semeval(predictions=predictions, references=references, **common)
    readable = compute_semeval(predictions=predictions, references=references, return_entities=True, **common)
    readable.pop("entities")
    assert fast == readable, (predictions, references)
    return fast


@pytest.mark.parametrize("options", WEIGHTED_OPTIONS, ids=["value", "ace08-beta", "overlap", "both", "zero-weights"])
def test_the_array_path_equals_the_readable_path(options: dict) -> None:
    rng = random.Random(json.dumps(options))
    for _ in range(trials(40)):
        predictions, references = random_tags(rng, sentences=rng.randint(1, 8))
        fast = paths_agree(predictions, references, options)
        # spans of the same entities score the same
        decoded = [[(s.start, s.end, s.entity_type) for s in ns.decode(tags)] for tags in predictions]
        decoded_r = [[(s.start, s.end, s.entity_type) for s in ns.decode(tags)] for tags in references]
        spans = compute_semeval(predictions=decoded, references=decoded_r, **{**COMMON, **options})
        assert {k: v for k, v in spans.items() if k != "token_accuracy"} == {
            k: v for k, v in fast.items() if k != "token_accuracy"
        }


@pytest.mark.slow  # (1-2 s: the quick profile stays under 3 minutes; the full suite runs it)
def test_a_whole_chunk_of_forked_chains_on_arrays() -> None:
    # Many sentences, forks included: the array path's chains go through value_pair across sentences at once.
    rng = random.Random(3)
    predictions, references = random_tags(rng, sentences=3000, length=20)
    fast = compute_semeval(predictions=predictions, references=references, value="ace08", partial_credit="overlap")
    readable = compute_semeval(
        predictions=predictions, references=references, value="ace08", partial_credit="overlap", return_entities=True
    )
    readable.pop("entities")
    assert fast == readable


def test_defaults_change_nothing() -> None:
    rng = random.Random(11)
    predictions, references = random_tags(rng, sentences=50)
    default = compute_semeval(predictions=predictions, references=references, per_type=True, bootstrap=50)
    explicit = compute_semeval(
        predictions=predictions, references=references, per_type=True, bootstrap=50, partial_credit=0.5, value=False
    )
    assert default == explicit
    assert not any("value" in key for key in default)


def test_bootstrap_and_compare_carry_the_value_keys() -> None:
    rng = random.Random(5)
    predictions, references = random_tags(rng, sentences=80)
    other = random_tags(rng, sentences=80)[0]
    other = [
        tags[: len(reference)] + ["O"] * (len(reference) - len(tags)) for tags, reference in zip(other, references)
    ]
    result = compute_semeval(predictions=predictions, references=references, value=True, bootstrap=200)
    for key in ("value", "value_precision", "value_recall", "value_f1"):
        assert result[f"{key}_low"] <= result[key] <= result[f"{key}_high"]
    compared = ns.compare_semeval(
        predictions_a=predictions, predictions_b=other, references=references, value=True, n_resamples=200
    )
    b = compute_semeval(predictions=other, references=references, value=True)
    for key in ("value", "value_precision", "value_recall", "value_f1"):
        assert compared[f"{key}_a"] == result[key]
        assert compared[f"{key}_b"] == b[key]
        assert compared[f"{key}_delta"] == b[key] - result[key]
        assert compared[f"{key}_delta_low"] <= compared[f"{key}_delta"] <= compared[f"{key}_delta_high"]
        assert 0 < compared[f"{key}_p_value"] <= 1
    credited = ns.compare_semeval(
        predictions_a=predictions, predictions_b=other, references=references, partial_credit="overlap", n_resamples=50
    )
    overlap_a = compute_semeval(predictions=predictions, references=references, partial_credit="overlap")
    assert credited["partial_f1_a"] == overlap_a["partial_f1"]
    assert credited["strict_f1_a"] == overlap_a["strict_f1"]
    against_itself = ns.compare_semeval(
        predictions_a=predictions, predictions_b=predictions, references=references, value="ace08", n_resamples=50
    )
    assert against_itself["value_p_value"] == 1.0


def test_no_reference_follows_zero_division() -> None:
    result = compute_semeval(predictions=[["B-A"]], references=[["O"]], value=True, zero_division=1.0)
    assert (result["value"], result["value_recall"], result["value_precision"]) == (1.0, 1.0, 0.0)
    weightless = compute_semeval(predictions=[["O"]], references=[["B-A"]], value={"types": {"A": 0}})
    assert weightless["value"] == weightless["value_recall"] == 0.0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"partial_credit": 1.5}, "partial_credit must be"),
        ({"partial_credit": -0.1}, "partial_credit must be"),
        ({"partial_credit": float("nan")}, "partial_credit must be"),
        ({"partial_credit": "overlaps"}, "partial_credit must be .* found 'overlaps'"),
        ({"partial_credit": True}, "partial_credit must be"),
        ({"value": "ace05"}, "unknown preset 'ace05'"),
        ({"value": 3}, "value must be"),
        ({"value": {"false_alarms": 1}}, r"unknown key\(s\) \['false_alarms'\]"),
        ({"value": {"types": {"PER": -1}}}, r"value\['types'\]\['PER'\] must be"),
        ({"value": {"types": {"PER": float("inf")}}}, r"value\['types'\]\['PER'\] must be"),
        ({"value": {"types": ["PER"]}}, r"value\['types'\] must be a dict"),
        ({"value": {"types": {1: 1.0}}}, r"value\['types'\] keys must be"),
        ({"value": {"default_type_weight": "1"}}, r"value\['default_type_weight'\] must be"),
        ({"value": {"type_error": 1.5}}, r"value\['type_error'\] must be a finite number from 0 to 1"),
        ({"value": {"boundary_error": 2}}, r"value\['boundary_error'\] must be a finite number from 0 to 1"),
        ({"value": {"false_alarm": float("nan")}}, r"value\['false_alarm'\] must be"),
        ({"value": {"min_overlap": 0}}, r"value\['min_overlap'\]"),
        ({"value": {"min_overlap": 1.5}}, r"value\['min_overlap'\]"),
    ],
    ids=lambda case: json.dumps(case, default=str) if isinstance(case, dict) else None,
)
def test_bad_weights_are_refused_by_name(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Options.of(**options)
    with pytest.raises(ValueError, match=message):
        compute_semeval(predictions=[["O"]], references=[["O"]], **options)


def test_entities_rows_carry_their_value_pair() -> None:
    references = [[(0, 2, "PER"), (5, 6, "LOC")]]
    predictions = [[(0, 2, "LOC"), (0, 3, "PER"), (9, 10, "ORG")]]
    rows = compute_semeval(predictions=predictions, references=references, value=True, return_entities=True)["entities"]
    by_entity = {(str(row["reference"]), str(row["prediction"])): row["value_pair"] for row in rows}
    assert by_entity == {
        # §3 pairs the identical boundaries; the value pairs the PER reference with the PER prediction
        (str({"start": 0, "end": 2, "type": "PER"}), str({"start": 0, "end": 2, "type": "LOC"})): {
            "start": 0,
            "end": 3,
            "type": "PER",
        },
        (str(None), str({"start": 0, "end": 3, "type": "PER"})): {"start": 0, "end": 2, "type": "PER"},
        (str({"start": 5, "end": 6, "type": "LOC"}), str(None)): None,
        (str(None), str({"start": 9, "end": 10, "type": "ORG"})): None,
    }
    plain = compute_semeval(predictions=predictions, references=references, return_entities=True)["entities"]
    assert all("value_pair" not in row for row in plain)


@pytest.mark.parametrize(
    "weights",
    [
        {"types": {"A": 1e308, "B": 5e-324}, "false_alarm": 1e300},
        {"types": {"A": 0.1, "B": 0.2, "C": 0.3}, "type_error": 0.1, "boundary_error": 0.7},
        {"default_type_weight": 0.0},
    ],
    ids=["extreme-floats", "decimal-fractions", "all-zero"],
)
def test_extreme_weights_stay_exact_and_finite(weights: dict) -> None:
    rng = random.Random(13)
    predictions, references = random_tags(rng, sentences=40)
    fast = compute_semeval(predictions=predictions, references=references, value=weights, bootstrap=100)
    readable = compute_semeval(
        predictions=predictions, references=references, value=weights, bootstrap=100, return_entities=True
    )
    readable.pop("entities")
    assert fast == readable
    for key in ("value", "value_precision", "value_recall", "value_f1"):
        for name in (key, f"{key}_low", f"{key}_high"):
            assert fast[name] == fast[name] and abs(fast[name]) < float("inf"), name  # no NaN, no infinity


@pytest.mark.parametrize("options", WEIGHTED_OPTIONS, ids=["value", "ace08-beta", "overlap", "both", "zero-weights"])
def test_the_span_array_path_equals_the_readable_path(options: dict) -> None:
    # Sentences of disjoint entities (on arrays), nested and repeated ones (readable), far offsets (moved).
    rng = random.Random(json.dumps(options) + "spans")
    for _ in range(trials(30)):
        sentences = rng.randint(1, 8)
        sides = []
        for _side in range(2):
            batch = []
            for _sentence in range(sentences):
                nested = rng.random() < 0.3
                offset = rng.choice([0, 10**6, 2**40])
                batch.append([(s.start + offset, s.end + offset, s.entity_type) for s in random_side(rng, nested)])
            sides.append(batch)
        predictions, references = sides
        paths_agree(predictions, references, options)


# ---------------------------------------------------------------------------------------------------------
# The command line, the metric's stored batches
# ---------------------------------------------------------------------------------------------------------

WORKED_FILE = str(Path(__file__).resolve().parent.parent / "examples" / "worked_example.conll")


def run_cli(capsys: pytest.CaptureFixture[str], *arguments: str) -> str:
    assert ns.main(list(arguments)) == 0
    return capsys.readouterr().out


def test_the_command_line_prints_a_value_row(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plain = run_cli(capsys, WORKED_FILE)
    printed = run_cli(capsys, "--value", "ace08", WORKED_FILE)
    assert printed.startswith(plain.split("\n\nstrict by type")[0])  # the table as it was, then the value row
    assert "value         0.4500  (precision 0.6000, recall 0.6000, F1 0.6000)" in printed
    weights = tmp_path / "weights.json"
    weights.write_text(json.dumps({"types": {"SINGER": 2.0}}), encoding="utf-8")
    as_json = json.loads(run_cli(capsys, "--value", str(weights), "--partial-credit", "overlap", "--json", WORKED_FILE))
    predictions, references = worked_example()
    expected = compute_semeval(
        predictions=predictions, references=references, value={"types": {"SINGER": 2.0}}, partial_credit="overlap"
    )
    assert as_json == expected
    with_intervals = json.loads(run_cli(capsys, "--value", "true", "--bootstrap", "200", "--json", WORKED_FILE))
    assert with_intervals == compute_semeval(predictions=predictions, references=references, value=True, bootstrap=200)


def test_the_command_line_compares_values(capsys: pytest.CaptureFixture[str]) -> None:
    printed = run_cli(capsys, "--compare", WORKED_FILE, WORKED_FILE, "--value", "ace08", "--bootstrap", "100")
    assert "value     value         0.4500   0.4500  +0.0000  +0.0000  +0.0000     1.0000" in printed


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--value", "nowhere.json"], "--value takes a preset"),
        (["--partial-credit", "most"], "takes a number from 0 to 1 or overlap"),
        (["--partial-credit", "2"], "partial_credit must be"),
    ],
    ids=["missing-file", "a-word", "above-one"],
)
def test_the_command_line_refuses_bad_weights(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = ns.main([*arguments, WORKED_FILE])
    except SystemExit as stopped:  # argparse's own refusal
        status = stopped.code
    assert status == 2
    assert message in capsys.readouterr().err


def test_the_command_line_refuses_weights_nested_too_deep(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    # A file of JSON nested 100,000 deep ended in RecursionError's traceback, exit status 1 (redteam5).
    weights = tmp_path / "deep.json"
    weights.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(SystemExit) as stopped:  # argparse's own refusal
        ns.main(["--value", str(weights), WORKED_FILE])
    assert stopped.value.code == 2
    assert "--value takes a preset" in capsys.readouterr().err


def test_the_metric_stores_batches_and_scores_the_value(load_metric) -> None:
    metric = load_metric(value="ace08", partial_credit="overlap")
    predictions, references = worked_example()
    for prediction, reference in zip(predictions, references):
        metric.add_batch(predictions=[prediction], references=[reference])
    stored = metric.compute()
    direct = compute_semeval(predictions=predictions, references=references, value="ace08", partial_credit="overlap")
    assert stored == direct
    assert stored["value"] == 0.45


def test_a_long_forked_chain_takes_the_linear_programme() -> None:
    # Tags whose every entity overlaps two of the other side make one chain as long as the sentence: the general
    # solver's cost grew with its square (58 s at 4,000 entities); the chain goes through the linear programme.
    from unittest import mock

    from nerscore.pairing import value as value_module

    references = [["B-A", "I-A"] * 2000]
    predictions = [["O", *(["B-A", "I-A"] * 1999), "O"]]
    with mock.patch.object(value_module, "_component_flow", side_effect=AssertionError("general solver")):
        fast = compute_semeval(predictions=predictions, references=references, value=True)
    assert fast["value_recall"] == 1999 / 2000


# Issue 31 (14): a false_alarm of 1e308 was accepted and gave NaN intervals (value_low, value_delta_high).
EXTREME_WEIGHT = st.one_of(
    st.floats(0, sys.float_info.max),
    st.sampled_from([0.0, 5e-324, 1e-308, 0.75, 1.0, 2.0**100, 2.0**900, 2.0**1000, 1e308, sys.float_info.max]),
)
EXTREME_WEIGHTS = st.fixed_dictionaries(
    {
        "types": st.fixed_dictionaries({"A": EXTREME_WEIGHT, "B": EXTREME_WEIGHT}),
        "default_type_weight": EXTREME_WEIGHT,
        "false_alarm": EXTREME_WEIGHT,
        "type_error": st.sampled_from([0.0, 5e-324, 0.5, 1.0]),
    }
)


@settings(max_examples=25, deadline=None)
@given(weights=EXTREME_WEIGHTS)
@example(weights={"false_alarm": 1e308})  # the issue's
@example(
    weights={
        "types": {"A": 0.0, "B": 1.6501273145491622e-285},
        "default_type_weight": 2.636820040012284e23,
        "false_alarm": 0.0,
        "type_error": 0.0,
    }
)
@example(weights={"types": {"A": 0.0, "B": 1.0}, "default_type_weight": 2e107, "false_alarm": 0.0, "type_error": 0.0})
def test_every_value_key_and_interval_is_finite_under_extreme_weights(weights: dict) -> None:
    predictions, references = random_tags(random.Random(3), sentences=12)
    other = random_tags(random.Random(4), sentences=12)[0]
    other = [
        tags[: len(reference)] + ["O"] * (len(reference) - len(tags)) for tags, reference in zip(other, references)
    ]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # no overflow on the way either
            results = [
                compute_semeval(predictions=predictions, references=references, value=weights, bootstrap=40),
                ns.compare_semeval(
                    predictions_a=predictions, predictions_b=other, references=references, value=weights, n_resamples=40
                ),
                ns.summarize_runs(runs=[predictions, other], references=references, value=weights, bootstrap=40),
                ns.compare_runs(
                    runs_a=[predictions, other], runs_b=[other], references=references, value=weights, n_resamples=40
                ),
            ]
    except ValueError as error:  # only where the value itself is beyond what a float holds
        assert "beyond the largest float" in str(error)
        exact = compute_semeval(predictions=predictions, references=references, value={**weights, "false_alarm": 0})
        assert exact["value"] >= 0  # (the false alarms' cost is what overflows)
        return
    value_keys = [key for result in results for key in result if key.startswith("value")]
    assert len(value_keys) == 12 + 24 + 24 + 24
    for result in results:
        for key, number in result.items():
            if key.startswith("value"):
                assert math.isfinite(number), (key, number)
        assert all(0 < number <= 1 for key, number in result.items() if key.endswith("_p_value"))


def test_a_value_no_float_holds_is_a_located_error() -> None:
    references = [[(0, 1, "PER"), (3, 4, "LOC")]]
    predictions = [[(5, 6, "LOC"), (7, 8, "LOC"), (9, 10, "LOC"), (11, 12, "LOC")]]
    with pytest.raises(ValueError, match=r"false_alarm=1e\+308 .* value is about -2.00e\+308, beyond the largest"):
        compute_semeval(predictions=predictions, references=references, value={"false_alarm": 1e308})
    references = [[(0, 1, "PER"), (1, 2, "PER"), (3, 4, "LOC")]]
    with pytest.raises(ValueError, match=r" LOC_value is about -4.00e\+308, beyond the largest"):
        compute_semeval(predictions=predictions, references=references, value={"false_alarm": 1e308}, per_type=True)
    assert compute_semeval(predictions=predictions, references=references, value={"false_alarm": 1e308})["value"] < 0


def test_the_issues_false_alarm_of_1e308_gives_finite_intervals() -> None:
    references = [[(0, 1, "PER"), (3, 4, "LOC")], [(0, 2, "PER")]]
    predictions = [[(3, 4, "LOC"), (7, 8, "LOC")], [(0, 2, "PER"), (5, 6, "LOC")]]
    weights = {"false_alarm": 1e308}
    result = compute_semeval(predictions=predictions, references=references, value=weights, bootstrap=200)
    assert result["value"] == float((2 - 2 * Fraction(1e308)) / 3)
    assert -1e308 <= result["value_low"] <= result["value"] < result["value_high"] <= 1.0  # NaN before
    compared = ns.compare_semeval(
        predictions_a=predictions, predictions_b=references, references=references, value=weights, n_resamples=200
    )
    # (`< 1e308` before the value was scaled, not clipped: the resample of the second sentence twice has the value
    # -1e308, so B - A reaches 1 + 1e308, the float 1e308; clipped at 2**1020, the interval ended at 1.12e307.)
    assert compared["value_delta_low"] <= compared["value_delta"] <= compared["value_delta_high"] == 1e308  # NaN


def unfolded_value_pair(references, predictions, table, min_overlap):
    """The value pairing as it was solved before issue 31 (item 6): every copy its own entity, every component by
    the pure-Python flow (`rules.smallest_best` on `value_digits`), the independent reading of the large paths."""
    from nerscore.pairing import overlaps, rules
    from nerscore.pairing.value import value_digits

    sorted_r = sorted(references, key=overlaps.span_key)
    sorted_p = sorted(predictions, key=overlaps.span_key)
    edges = rules.overlap_edges(sorted_r, sorted_p, min_overlap)
    pairs = []
    for component in rules.components(edges, len(sorted_r), len(sorted_p)):
        digits = value_digits(sorted_r, sorted_p, component, table) if len(component) > 1 else None
        chosen = component if digits is None else rules.smallest_best(digits)
        pairs += [(sorted_r[i], sorted_p[j]) for i, j in chosen]
    return sorted(pairs)


@pytest.mark.parametrize("weights", WEIGHTS, ids=["true", "ace08", "typed", "zero-weights", "no-costs"])
def test_large_components_and_copies_pair_as_the_pure_python_flow(weights: Any) -> None:
    # Issue 31, item 6: components of hundreds of edges go to §3's compiled solver (or its chain), copies are one
    # entity with a number; both as the exact flow on every copy.
    checked = Options.of(value=weights).value
    assert checked is not None
    table = WeightTable(checked)
    min_overlap = as_dict(weights).get("min_overlap")
    rng = random.Random(f"large {weights}")

    def side(kind: int, size: int) -> list[Span]:
        if kind == 0:  # nested: every entity around the middle, as an onion with noise
            return [Span(s, 2 * size - s + rng.randint(-2, 2), rng.choice("AB")) for s in range(size)]
        if kind == 1:  # a staircase of windows of one type
            return [Span(s + rng.randint(0, 1), s + 12 + rng.randint(0, 2), "A") for s in range(size)]
        return [Span(s, s + rng.randint(1, 4), rng.choice("AB")) for s in rng.choices(range(6), k=size)]  # copies

    # 40 a side: the component's edges as lists; 70: found with numpy (more than 4,096 possible pairs).
    for kind, size in [(0, 40), (1, 40), (2, 60), (0, 70), (1, 70), (2, 100)]:
        references, predictions = side(kind, size), side(kind, size)
        rows = value_pair(references, predictions, table, min_overlap)
        found = sorted((r, p) for r, p in rows if r is not None and p is not None)
        assert found == unfolded_value_pair(references, predictions, table, min_overlap)
        assert sorted(r for r, _ in rows if r is not None) == sorted(references)
        assert sorted(p for _, p in rows if p is not None) == sorted(predictions)


@settings(max_examples=300, deadline=None)
@given(nested_spans(max_size=7), nested_spans(max_size=7), st.sampled_from(range(len(WEIGHTS))))
def test_a_component_with_copies_unfolded_pairs_as_the_exact_flow(
    references: list, predictions: list, weights: int
) -> None:
    # Copies are entities of their own for the compiled solver (`rules.unfolded_flow`, as §3's pairing takes
    # them), where the exact flow over copies grew as the cube of the entities: the same rows, forced on every
    # component, as the flow gives on every component.
    checked = Options.of(value=WEIGHTS[weights]).value
    assert checked is not None
    table, min_overlap = WeightTable(checked), checked.min_overlap
    references, predictions = [Span(*entity) for entity in references], [Span(*entity) for entity in predictions]
    rows = {}
    for edges in (0, 10**12):
        with (
            mock.patch.object(value_module, "LARGE_COMPONENT_EDGES", edges),
            mock.patch.object(dense, "_LEAST_CELLS", 10**18),
        ):
            rows[edges] = value_pair(references, predictions, table, min_overlap)
    assert rows[0] == rows[10**12]


def _two_fragments(rng: random.Random, count: int, spread: int, longest: int, gap: tuple[int, int]) -> list[dict]:
    entities = []
    for _ in range(count):
        start = rng.randint(0, spread)
        first_end = start + rng.randint(1, longest)
        second_start = first_end + rng.randint(*gap)
        fragments = [[start, first_end], [second_start, second_start + rng.randint(1, longest)]]
        entities.append({"fragments": fragments, "type": rng.choice("AB")})
    return entities


@pytest.mark.parametrize(
    ("count", "spread", "longest", "gap"),
    [
        pytest.param(70, 400, 3, (20, 40), id="70-a-side-overlaps-found-on-arrays"),
        pytest.param(25, 10, 20, (1, 20), id="25-a-side-one-large-component"),
    ],
)
def test_discontinuous_entities_pair_for_the_value_on_their_units(
    count: int, spread: int, longest: int, gap: tuple[int, int]
) -> None:
    # docs/scoring.md §12: entities overlap when they share a unit, and rule (c) counts shared units. The value
    # pairing read extents where a sentence had more than 4,096 pairs of entities (it paired entities that share no
    # unit: value 0.868 where 0.443) or a component more than 200 edges (rule (c) on extents); as the exact flow now.
    from nerscore.pairing import value as value_module

    rng = random.Random(f"fragments {count}")
    references, predictions = (_two_fragments(rng, count, spread, longest, gap) for _ in range(2))
    weights = {"types": {"A": 2.0, "B": 0.5}, "type_error": 0.25, "boundary_error": 0.5}
    found = compute_semeval(predictions=[predictions], references=[references], value=weights, return_entities=True)
    with (
        mock.patch.object(value_module, "_ARRAY_PAIRS", 10**12),
        mock.patch.object(value_module, "LARGE_COMPONENT_EDGES", 10**12),
    ):
        exact = compute_semeval(predictions=[predictions], references=[references], value=weights, return_entities=True)
    assert found == exact

    def units(entity: dict) -> set[int]:
        return {unit for start, end in entity["fragments"] for unit in range(start, end)}

    pairs = [(row["reference"], row["value_pair"]) for row in found["entities"] if row.get("reference")]
    assert all(units(reference) & units(partner) for reference, partner in pairs if partner)
