"""nerscore.stacked_scores: `scores_of` of many tallies at once (a slice's buckets, docs/scoring.md §11, their cells
stacked as one table) gives each tally the dict `scores_of` gives it alone: the same keys in the same order, every
float the same to the bit (Hypothesis tallies, stored as the table of pairs stores them or as dicts, counts from zero
to beyond 2**53, with zero_division, beta, partial credits (the overlap credit: each tally's own shares), labels,
per_type, schemes and the confusion matrix); and the worked example's 0.2 is 0.2."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from conftest import as_inputs, worked_example
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from nerscore import SCENARIOS, Options, Tally, measures, tally_semeval
from nerscore.measures import Ratios
from nerscore.result_scores import scores_of
from nerscore.stacked_scores import StackedScores
from nerscore.tally import CellTable, TokenCounts

TYPES = ("PER", "LOC", "ORG", "A", "B", "O")


def bits(value: Any) -> Any:
    """A result in a form that compares its key order, its types and its floats' bits."""
    if isinstance(value, dict):
        return [(key, bits(item)) for key, item in value.items()]
    if isinstance(value, float):
        return ("float", "nan" if math.isnan(value) else value.hex())
    return (type(value).__name__, value)


# Counts small, zero-free but summing to 2**51 and more, or huge (a tally of 2**52 entities is refused).
COUNTS = st.integers(1, 9) | st.integers(1, 1 << 40) | st.integers(1 << 50, 1 << 53)


@st.composite
def tally_lists(
    draw: st.DrawFn, types: tuple[str, ...] = TYPES, counts: st.SearchStrategy[int] = COUNTS, min_size: int = 0
) -> list[Tally]:
    """Several tallies (at least `min_size`) over one table's type names (as a slice's buckets are) or as dicts
    (buckets added over batches), some empty, their cells' numbers drawn from `counts`."""
    names = tuple(draw(st.lists(st.sampled_from(types), min_size=1, max_size=len(types), unique=True)))
    tallies = []
    for _ in range(draw(st.integers(min_size, 6))):
        cells: dict[tuple[str, str | None, str | None], int] = {}
        for scenario in draw(st.lists(st.sampled_from(SCENARIOS), max_size=12)):
            reference = None if scenario == "II" else draw(st.sampled_from(names))
            predicted = None if scenario == "III" else draw(st.sampled_from(names))
            if scenario in ("I", "V"):
                predicted = reference
            cells[scenario, reference, predicted] = cells.get((scenario, reference, predicted), 0) + draw(counts)
        if draw(st.booleans()):
            ids = {name: index for index, name in enumerate(names)}
            keys = list(cells)
            columns = [
                np.array([SCENARIOS.index(scenario) for scenario, _, _ in keys], dtype=np.int64),
                np.array([-1 if r is None else ids[r] for _, r, _ in keys], dtype=np.int64),
                np.array([-1 if p is None else ids[p] for _, _, p in keys], dtype=np.int64),
                np.array([cells[key] for key in keys], dtype=np.int64),
            ]
            stored: Any = CellTable(*columns, names)
        else:
            stored = cells
        tokens = draw(st.none() | st.builds(TokenCounts, st.integers(0, 50), st.integers(0, 50)))
        # partial_credit="overlap"'s summed shares of the PAR pairs (scenarios V and VI), each tally's own.
        credit = {}
        for (scenario, reference, predicted), number in cells.items():
            if scenario in ("V", "VI") and draw(st.booleans()):
                share = draw(st.fractions(0, number, max_denominator=1000))
                credit[reference, predicted] = credit.get((reference, predicted), 0) + share
        credit = draw(st.sampled_from([credit, None]))
        tallies.append(Tally(stored, tokens, credit=credit, ungrounded=draw(st.none() | st.integers(0, 3))))
    return tallies


options_of = st.builds(
    Options.of,
    zero_division=st.sampled_from([0.0, 1.0, 0.5, 1 / 3, 0.1]),
    beta=st.sampled_from([1.0, 0.5, 2.0, 1e-3, 3.7, 1e10]),
    partial_credit=st.sampled_from([0.5, 0.3, 0.0, 1.0, 0.25, "overlap"]),
    labels=st.none() | st.lists(st.sampled_from([*TYPES[:-1], "NONE"]), min_size=1, max_size=4),
    per_type=st.booleans(),
    evaluation_schemes=st.lists(st.sampled_from(["strict", "exact", "partial", "type"]), min_size=1, unique=True),
    confusion=st.sampled_from([False, True, "sparse"]),
)


def one_by_one(tallies: list[Tally], options: Options) -> Any:
    """Each tally scored alone, or the error `scores_of` raises."""
    try:
        return [bits(scores_of([tally], options)[0]) for tally in tallies]
    except ValueError as error:
        return str(error)


@settings(max_examples=300, deadline=None)
@given(tally_lists(), options_of)
def test_same_dicts_as_each_tally_alone(tallies: list[Tally], options: Options) -> None:
    expected = one_by_one(tallies, options)
    try:
        found: Any = [bits(result) for result in scores_of(tallies, options)]
    except ValueError as error:
        found = str(error)
    assert found == expected


# Counts that a tally sums below 2**52 but at times to 2**51 and more (four cells of 2**49): such a tally is scored
# alone, beside the others stacked.
SCORED_COUNTS = st.integers(1, 9) | st.integers(1, 1 << 40) | st.just(1 << 49)


@settings(max_examples=300, deadline=None)
@given(tally_lists(TYPES[:-1], SCORED_COUNTS, min_size=2), options_of)
def test_many_tallies_are_scored_as_each_alone(tallies: list[Tally], options: Options) -> None:
    # The one scorer of n tallies (stacked as one table, or with the overlap credit and a tally of 2**51 entities
    # one table a tally) against n calls on one tally, to the bit: at least two tallies, of types the confusion
    # matrix takes ("O" left out), so that the dicts are compared rather than the errors (eight cells of 2**49
    # reach 2**52, the refused size: test_same_dicts_as_each_tally_alone compares the errors).
    assume(all(sum(tally.cells.values()) < 1 << 52 for tally in tallies))
    assert [bits(result) for result in scores_of(tallies, options)] == one_by_one(tallies, options)


def test_worked_example() -> None:
    # docs/scoring.md §6: strict precision 1 / 5, as the float 0.2, in every bucket that holds the example.
    tally, _ = tally_semeval(**as_inputs(worked_example()))
    results = scores_of([tally, Tally({}), tally], Options())
    assert [result["strict_precision"] for result in results] == [0.2, 0.0, 0.2]
    assert results[0] == scores_of([tally])[0]


@pytest.mark.parametrize(
    ("numerators", "denominators", "starts", "expected"),
    [
        ([1, 1, 1], [3, 6, 2], [0, 1], [1 / 3, (1 / 6 + 1 / 2) / 2]),  # one group alone, one of two rows
        ([1, 2], [3, 3], [0, 0, 2], [0.25, 0.5, 0.25]),  # empty groups take zero_division
    ],
)
def test_grouped_means(numerators: list, denominators: list, starts: list, expected: list) -> None:
    ratios = Ratios(*[(np.array(numerators), np.array(denominators))] * 3)
    means = ratios.grouped_means(np.array(starts), 0.25)
    assert means == [expected] * 3


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.integers(0, 1 << 30) | st.integers(0, 9), st.integers(1, 1 << 30) | st.integers(1, 9))),
        min_size=1,
    ),
    st.booleans(),
)
def test_grouped_means_are_means(groups: list[list[tuple[int, int]]], as_objects: bool) -> None:
    # Each group's mean, whichever way it is computed (int64 over the least common denominator, or `means`' sums,
    # or Python integers): `means` of its rows alone, to the bit.
    rows = [row for group in groups for row in group]
    dtype = object if as_objects else np.int64
    numerators, denominators = (
        np.array([row[side] for row in rows] or [0], dtype=dtype)[: len(rows)] for side in (0, 1)
    )
    ratios = Ratios(*[(numerators, denominators)] * 3)
    starts = np.cumsum([0] + [len(group) for group in groups[:-1]])
    expected = [ratios.rows(int(start), int(start) + len(group)).means(0.5)[0] for start, group in zip(starts, groups)]
    assert ratios.grouped_means(starts, 0.5) == [expected] * 3


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(st.integers(0, 1000), st.integers(1, 60)), min_size=33, max_size=300)
        | st.lists(st.tuples(st.integers(0, 9), st.integers(1, 9)), max_size=5),
        min_size=1,
        max_size=6,
    )
)
def test_grouped_means_of_large_groups_sharing_denominators_are_means(groups: list[list[tuple[int, int]]]) -> None:
    # Groups of many rows and few denominators (a tally's thousands of types) are summed by denominator in one
    # bincount: `means` of each group's rows alone, to the bit, beside small groups taken another way.
    rows = [row for group in groups for row in group]
    numerators, denominators = (np.array([row[side] for row in rows], dtype=np.int64) for side in (0, 1))
    ratios = Ratios(*[(numerators, denominators)] * 3)
    starts = np.cumsum([0] + [len(group) for group in groups[:-1]])
    expected = [ratios.rows(int(start), int(start) + len(group)).means(0.5)[0] for start, group in zip(starts, groups)]
    assert ratios.grouped_means(starts, 0.5) == [expected] * 3


def test_grouped_blocks_list_the_denominators_of_sums_other_than_0() -> None:
    # A group's rows summed by denominator, those summing to 0 left out (they add nothing to the exact mean): the
    # first group's 0 / 2 and -1 / 3 + 1 / 3, the second group's rows of 0 alone.
    numerators, denominators = np.array([0, -1, 1, 5, 0, 0]), np.array([2, 3, 3, 4, 2, 5])
    blocks = measures._grouped_blocks(numerators, denominators, np.array([4, 2]), np.array([0, 4]))
    assert blocks == [[(5, 4)], []]
    ratios = Ratios(*[(numerators, denominators)] * 3)
    assert ratios.grouped_means(np.array([0, 4]), 0.5) == [[5 / 16, 0.0]] * 3


@pytest.mark.parametrize("groups", [3, 9], ids=["each group alone", "by keys"])
def test_grouped_blocks_are_each_groups_sums_by_denominator(groups: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # Up to 8 groups (a tally's schemes) each group's rows are summed where they lie, with no key made for every
    # row (np.repeat, which here fails); more, by one bincount of (group, denominator) keys: the same sums.
    rng = np.random.default_rng(5)
    sizes = rng.integers(1, 60, groups)
    starts = np.cumsum(np.append(0, sizes[:-1]))
    numerators, denominators = rng.integers(-9, 50, int(sizes.sum())), rng.integers(1, 12, int(sizes.sum()))
    expected = [
        [(n, d) for n, d in measures._grouped(numerators[at : at + size], denominators[at : at + size]) if n]
        for at, size in zip(starts, sizes)
    ]
    if groups <= 8:
        monkeypatch.setattr(np, "repeat", lambda *_: pytest.fail("a key made for every row of a few groups"))
    assert measures._grouped_blocks(numerators, denominators, sizes, starts) == expected


def test_grouped_means_of_47_rows_are_summed_in_int64(monkeypatch: pytest.MonkeyPatch) -> None:
    # 47 rows of 0 / 1 hold 47 + 6 = 53 bits: the largest group summed over its common denominator in int64, not
    # by `_mean` or `_grouped_blocks` (the ways of larger groups, which here fail).
    def refused(*_: Any) -> None:
        raise AssertionError("a group of 47 rows summed as a large one")

    monkeypatch.setattr(measures, "_mean", refused)
    monkeypatch.setattr(measures, "_grouped_blocks", refused)
    ratios = Ratios(*[(np.zeros(47, dtype=np.int64), np.ones(47, dtype=np.int64))] * 3)
    assert ratios.grouped_means(np.array([0]), 0.5) == [[0.0]] * 3


def test_grouped_means_of_groups_over_47_rows_count_no_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    # One tally's 100,000 types: no group of more than 47 rows can be small, so no row's bits are counted.
    def refused(*_: Any) -> None:
        raise AssertionError("bits counted of groups that cannot be small")

    rows = np.arange(96, dtype=np.int64)
    ratios = Ratios(*[(rows, rows + 1)] * 3)
    expected = [ratios.rows(0, 48).means(0.5)[0], ratios.rows(48, 96).means(0.5)[0]]
    monkeypatch.setattr(np, "frexp", refused)
    assert ratios.grouped_means(np.array([0, 48]), 0.5) == [expected] * 3


@settings(max_examples=100, deadline=None)
@given(tally_lists(TYPES[:-1], SCORED_COUNTS), options_of)
def test_the_types_columns_alone_are_those_beside_the_totals(tallies: list[Tally], options: Options) -> None:
    # `totals=False` (a slice's buckets scored as types are, result_scores.two_sided_scores): the same columns of
    # every type, rows and places, without the counts, overall and macro scores.
    assume(all(sum(tally.cells.values()) < 1 << 52 for tally in tallies))
    whole, alone = StackedScores.of(tallies, options), StackedScores.of(tallies, options, totals=False)
    assert bits(alone.per_type) == bits(whole.per_type)
    assert (alone.firsts, alone.sizes) == (whole.firsts, whole.sizes)
    assert [at for _, at in alone.places] == [at for _, at in whole.places]
    assert [alone.entity_types(at) for at in range(len(tallies))] == [
        whole.entity_types(at) for at in range(len(tallies))
    ]
    assert (alone.counts, alone.overall, alone.means) == ([], [[], [], []], [[], [], []])
