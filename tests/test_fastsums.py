"""Sums done once rather than step by step: agreement's pooled tally (docs/scoring.md §13) against the pairs' tallies
added one to the next as they were, and the value score's sums (§10) against the per-type Fraction sums they
replaced, kept here as the oracles."""

from __future__ import annotations

import importlib
from fractions import Fraction
from itertools import combinations
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_agreement import span_annotations, tag_annotations
from test_redteam7 import POOLED_OF_BOTH_DIRECTIONS

from nerscore import agreement
from nerscore.option_checks import HIPE
from nerscore.options import Options
from nerscore.pairing.value import WeightTable
from nerscore.result_scores import cost_scale, scores, value_cell_columns, value_scores, value_sums
from nerscore.tally import Tally

agreement_module = importlib.import_module("nerscore.agreement")  # (the package's name is the function)

# -- agreement's pooled tally -------------------------------------------------------------------------------------

_REVERSED_SCENARIO = {"II": "III", "III": "II"}


def reversed_tally(tally):
    """The oracle's mirror image of a pair's tally: each cell's sides traded, II and III trading places."""
    cells = {
        (_REVERSED_SCENARIO.get(scenario, scenario), predicted, reference): count
        for (scenario, reference, predicted), count in tally.cells.items()
    }
    credit = None if tally.credit is None else {(p, r): value for (r, p), value in tally.credit.items()}
    return Tally(cells, credit=credit)


def naive_pooled_scores(annotators, accumulators, options, given, mirrored):
    """agreement's pooled scores as they were: the tallies added one to the next (the total copied each time)."""
    counting = options.overall()
    total = Tally()
    for (first, second), accumulator in zip(combinations(annotators, 2), accumulators):
        tally = accumulator.tally or Tally()
        if mirrored and options.min_overlap is None and options.value is None and options.pairing != HIPE:
            backwards = reversed_tally(tally)
        else:
            backwards = agreement_module._pair(second, first, counting, given, False)[0].tally or Tally()
        total = total + Tally(dict(tally.cells), credit=tally.credit) + backwards
    return scores(total, counting.evolve(value=None)), total


def assert_pooled_as_naive(annotations, **options):
    """agreement's pooled scores are, key for key and to the bit, those of the tallies added one by one, and its
    pooled cells and credit theirs."""
    calls = []
    pooled = agreement_module._pooled_scores

    def recorded(*arguments, **keywords):
        calls.append((arguments, keywords, pooled(*arguments, **keywords)))
        return calls[-1][2]

    with mock.patch.object(agreement_module, "_pooled_scores", recorded):
        agreement(annotations, **options)
    ((arguments, keywords, found),) = calls
    expected, total = naive_pooled_scores(*arguments, **keywords)
    # (the old total kept the tokens and ungrounded entities of a direction counted for itself, not of the other:
    # keys agreement never read; the pooled tally sums cells and credit alone)
    expected = {key: value for key, value in expected.items() if key not in ("token_accuracy", "ungrounded")}
    assert found == expected
    assert {key: str(value) for key, value in found.items()} == {key: str(value) for key, value in expected.items()}
    directions = _directions(*arguments, **keywords)
    summed = agreement_module.pooled_tally(directions)
    assert dict(summed.cells.items()) == dict(total.cells.items())
    assert summed.credit == total.credit


def _directions(annotators, accumulators, options, given, mirrored):
    """What `_pooled_scores` hands `pooled_tally`, as the oracle counts it."""
    counting = options.overall()
    directions = []
    for (first, second), accumulator in zip(combinations(annotators, 2), accumulators):
        tally = accumulator.tally or Tally()
        symmetric = mirrored and options.min_overlap is None and options.value is None and options.pairing != HIPE
        other = None if symmetric else agreement_module._pair(second, first, counting, given, False)[0].tally
        directions += [(tally, False), (tally, True) if symmetric else (other or Tally(), False)]
    return directions


POOLED_OPTIONS = st.sampled_from(
    [
        {},
        {"per_type": True},
        {"partial_credit": "overlap", "per_type": True},
        {"min_overlap": 0.5},
        {"pairing": "hipe"},
        {"value": True, "per_type": True},
        {"labels": ["LOC", "PER"], "per_type": True},
    ]
)


@given(span_annotations(), POOLED_OPTIONS)
@settings(max_examples=60, deadline=None)
def test_pooled_spans_are_the_pairs_added_one_by_one(annotations, options):
    assert_pooled_as_naive(annotations, **options)


@given(tag_annotations(), POOLED_OPTIONS)
@settings(max_examples=60, deadline=None)
def test_pooled_tags_are_the_pairs_added_one_by_one(annotations, options):
    assert_pooled_as_naive(annotations, **options)


def test_pooled_strings_are_the_pairs_added_one_by_one():
    for case in POOLED_OF_BOTH_DIRECTIONS:
        annotations, options = case.values
        assert_pooled_as_naive(annotations, **options)


def test_pooled_tally_of_mappings_and_tables_alike():
    """A tally's cells as a dict and as the same cells' columns pool alike, the traded side's II and III swapped."""
    mapping = Tally({("I", "PER", "PER"): 2, ("II", None, "LOC"): 1, ("VI", "PER", "LOC"): 3})
    found = agreement_module.pooled_tally([(mapping, False), (mapping, True), (Tally(), False)])
    expected = {
        ("I", "PER", "PER"): 4,
        ("II", None, "LOC"): 1,
        ("III", "LOC", None): 1,
        ("VI", "PER", "LOC"): 3,
        ("VI", "LOC", "PER"): 3,
    }
    assert dict(found.cells.items()) == expected
    assert found.credit is None
    assert dict(agreement_module.pooled_tally([(Tally(), False)]).cells.items()) == {}


# -- the value score's sums ---------------------------------------------------------------------------------------


def per_type_fraction_sums(value_cells, table):
    """The oracle: the five sums of each type (docs/scoring.md §10) in fractions, a type and cell at a time, as
    `result_scores.value_sums` summed them before they were integers over one denominator."""
    worth, kept, unpaired = {}, {}, {}
    for (scenario, reference_type, predicted_type), number in value_cells.items():
        if reference_type is not None:
            worth[reference_type, 3] = worth.get((reference_type, 3), 0) + number
        if predicted_type is not None:
            worth[predicted_type, 4] = worth.get((predicted_type, 4), 0) + number
        if reference_type is not None and predicted_type is not None:
            kept[reference_type, 0, scenario] = kept.get((reference_type, 0, scenario), 0) + number
            kept[predicted_type, 1, scenario] = kept.get((predicted_type, 1, scenario), 0) + number
        elif predicted_type is not None:
            unpaired[predicted_type] = unpaired.get(predicted_type, 0) + number
    sums = {entity_type: [Fraction(0)] * 5 for entity_type, _ in worth}
    for (entity_type, column), number in worth.items():
        sums[entity_type][column] += number * table.weight(entity_type)
    for (entity_type, column, scenario), number in kept.items():
        sums[entity_type][column] += number * table.weight(entity_type) * table.factor(scenario)
    for entity_type, number in unpaired.items():
        sums[entity_type][2] += number * table.false_alarm * table.weight(entity_type)
    return {entity_type: tuple(totals) for entity_type, totals in sums.items()}


def fraction_value_scores(value_cells, options, entity_types):
    """The oracle's value keys: each ratio of its fraction sums, rounded once (`Fraction` rounds correctly)."""
    sums = per_type_fraction_sums(value_cells, WeightTable(options.value))
    nothing = (Fraction(0),) * 5
    rows = {"": tuple(sum(column, Fraction(0)) for column in zip(*sums.values())) if sums else nothing}
    rows |= {f"{entity_type}_": sums.get(entity_type, nothing) for entity_type in entity_types}
    zero, beta = Fraction(options.zero_division), Fraction(options.beta) ** 2
    result = {}
    for prefix, (kept, kept_p, cost, worth_r, worth_p) in rows.items():
        value = (kept - cost) / worth_r if worth_r else zero
        precision = kept_p / worth_p if worth_p > 0 else zero
        recall = kept / worth_r if worth_r > 0 else zero
        total = beta * precision + recall
        f = (1 + beta) * precision * recall / total if total else Fraction(0)
        names = ("value", "value_precision", "value_recall", f"value_{options.f_name}")
        result |= {prefix + name: float(number) for name, number in zip(names, (value, precision, recall, f))}
    return result


TYPES_OF_CELLS = ("PER", "LOC", "ORG", "MISC")
WEIGHT_FLOATS = st.sampled_from([0.0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1 / 3, 2.5, 7.0, 1e-300, 1e-12, 1e12])
SHARES = st.sampled_from([0.0, 0.1, 0.2, 0.5, 1 / 3, 0.9, 1.0, 1e-200])


@st.composite
def value_cells(draw):
    """Value cells of a few types: pairs of scenarios I, IV, V and VI, unpaired references (III) and predictions
    (II), each with a number of rows, some large."""
    kinds = st.sampled_from(TYPES_OF_CELLS)
    cells = {}
    for _ in range(draw(st.integers(0, 12))):
        scenario = draw(st.sampled_from(["I", "II", "III", "IV", "V", "VI"]))
        reference = None if scenario == "II" else draw(kinds)
        prediction = None if scenario == "III" else draw(kinds)
        cells[scenario, reference, prediction] = draw(st.one_of(st.integers(1, 50), st.integers(1, 2**45)))
    return cells


@st.composite
def value_weights(draw):
    named = draw(st.dictionaries(st.sampled_from(TYPES_OF_CELLS), WEIGHT_FLOATS, max_size=4))
    return Options.of(
        value={
            "types": named,
            "default_type_weight": draw(WEIGHT_FLOATS),
            "type_error": draw(SHARES),
            "boundary_error": draw(SHARES),
            "false_alarm": draw(st.sampled_from([0.0, 0.75, 1.0, 0.3, 1e-300, 1e200])),
        },
        beta=draw(st.sampled_from([1.0, 0.5, 2.0])),
        zero_division=draw(st.sampled_from([0.0, 1.0])),
    )


@given(value_cells(), value_weights())
@settings(max_examples=150, deadline=None)
def test_value_sums_are_the_per_type_fraction_sums(cells, options):
    table = WeightTable(options.value)
    sums = value_sums(cells, table)
    expected = per_type_fraction_sums(cells, table)
    assert sums.by_type() == expected
    totals = [Fraction(total, sums.denominator) for total in sums.totals()]
    assert totals == [sum(column, Fraction(0)) for column in zip(*expected.values())] or (
        not expected and not any(totals)
    )


@given(value_cells(), value_weights(), st.lists(st.sampled_from([*TYPES_OF_CELLS, "NONE"]), unique=True))
@settings(max_examples=150, deadline=None)
def test_value_keys_are_the_fraction_sums_rounded_once(cells, options, entity_types):
    tally = Tally({}, value_cells=cells)
    try:
        expected = fraction_value_scores(cells, options, entity_types)
    except OverflowError:  # (a value no float holds: refused, naming the weights)
        with pytest.raises(ValueError, match="beyond the largest float"):
            value_scores(tally, options, entity_types)
        return
    assert value_scores(tally, options, entity_types) == expected


def fraction_cell_columns(cells, table):
    """The oracle: each cell's five values, a Fraction sum a cell (as `value_cell_columns` worked them)."""
    unit = table.largest
    units = [unit, unit, unit * Fraction(cost_scale(table.weights)), unit, unit]
    values = np.zeros((len(cells), 5))
    for position, cell in enumerate(cells):
        one = per_type_fraction_sums({cell: 1}, table)
        values[position] = [float(sum(column, Fraction(0)) / by) for column, by in zip(zip(*one.values()), units)]
    return values


@given(value_cells(), value_weights())
@settings(max_examples=100, deadline=None)
def test_value_cell_columns_are_each_cells_fraction_sums(cells, options):
    table = WeightTable(options.value)
    found = value_cell_columns(list(cells), table)
    assert found.tobytes() == fraction_cell_columns(list(cells), table).tobytes()
