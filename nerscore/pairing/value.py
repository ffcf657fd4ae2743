"""The value score's pairing and what it counts (docs/scoring.md §10): ACE's weighting, on flat entities.

The value pairing is not §3's: identical boundaries are not forced together, and among the one-to-one pairings
of overlapping entities it is the one that keeps the most value. Each pair (r, p) adds kept(r, p) and spares
the false-alarm cost of p, so the pairing maximises, per connected component of the overlap graph, the sum of
kept(r, p) + false_alarm · w(type p) over its pairs; ties go by §3's rule 2 (a) to (d). Weights are floats, so
every edge's worth is an exact rational (a float's `Fraction` is exact, with a power of two below it), scaled by
the common denominator to an integer, and the integer digits of §3 (pairs, pairs of one type, shared extent)
go below it: the exact solvers of `nerscore.pairing.rules` then find the pairing, on integers of any size.

What adds, as for §3's pairing, is how many value pairs and unpaired entities fell into each (scenario,
reference type, predicted type) cell: every value key is a function of those cells and the weights
(`nerscore.result_scores.value_scores`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..option_checks import Weights
from ..span import Span
from .rules import (
    _disjoint,
    _overlap_edges,
    _span_key,
    best_noncrossing,
    components,
    scenario_of,
    smallest_best,
)

if TYPE_CHECKING:  # fractions (and decimal, 1.4 ms of `import nerscore`) load when a WeightTable is made
    from fractions import Fraction

# A value pair's scenario (docs/scoring.md §4) says which errors it has: IV a type error, V a boundary error,
# VI both.
TYPE_ERROR_SCENARIOS = frozenset({"IV", "VI"})
BOUNDARY_ERROR_SCENARIOS = frozenset({"V", "VI"})


class WeightTable:
    """The weights of one call as exact fractions, looked up per type once."""

    def __init__(self, weights: Weights) -> None:
        from fractions import Fraction

        self.weights = weights
        self._one = Fraction(1)
        self.type_error = Fraction(weights.type_error)
        self.boundary_error = Fraction(weights.boundary_error)
        self.false_alarm = Fraction(weights.false_alarm)
        self._types = {entity_type: Fraction(weight) for entity_type, weight in weights.types}
        self._default = Fraction(weights.default_type_weight)

    @property
    def largest(self) -> Fraction:
        """The largest weight of a type (1 where every weight is 0): the statistics' unit, so that their floats stay
        within 0 and 1 a row whatever the weights (every value key is a ratio, which a common unit leaves as is)."""
        return max([self._default, *self._types.values()]) or self._one

    def weight(self, entity_type: str) -> Fraction:
        """w(type), exact."""
        return self._types.get(entity_type, self._default)

    def factor(self, scenario: str) -> Fraction:
        """f(r, p) of a pair of this scenario: type_error if the types differ, times boundary_error if the
        boundaries differ."""
        factor = self._one
        if scenario in TYPE_ERROR_SCENARIOS:
            factor *= self.type_error
        if scenario in BOUNDARY_ERROR_SCENARIOS:
            factor *= self.boundary_error
        return factor

    def kept(self, scenario: str, reference_type: str) -> Fraction:
        """kept(r, p) = w(type r) · f(r, p)."""
        return self.weight(reference_type) * self.factor(scenario)

    def worth(self, reference: Span, prediction: Span) -> Fraction:
        """What pairing the two adds to the value's numerator: kept(r, p) plus the false alarm p no longer costs."""
        scenario = scenario_of(reference, prediction)
        return self.kept(scenario, reference.entity_type) + self.false_alarm * self.weight(prediction.entity_type)


def value_pair(
    references: Sequence[Span], predictions: Sequence[Span], table: WeightTable, min_overlap: float | None
) -> list[tuple[Span | None, Span | None]]:
    """The value pairing of one sentence (docs/scoring.md §10): every reference and prediction once, paired or
    unpaired, in (start, end, type) order of the references then of the unpaired predictions. `min_overlap` is
    the value's own (the weights' `min_overlap`, else the call's)."""
    sorted_r = sorted(references, key=_span_key)
    sorted_p = sorted(predictions, key=_span_key)
    edges = _overlap_edges(sorted_r, sorted_p, min_overlap)
    paired: dict[int, int] = {}
    if _disjoint(sorted_r) and _disjoint(sorted_p):
        # Tags, and spans that do not nest: the overlaps never cross, and a dynamic programme is linear in them.
        paired = dict(_chain_pairs(sorted_r, sorted_p, sorted(edges), table))
    else:
        for component_edges in components(edges, len(sorted_r), len(sorted_p)):
            for i, j in best_value_pairs(sorted_r, sorted_p, component_edges, table):
                paired[i] = j
    taken = set(paired.values())
    rows: list[tuple[Span | None, Span | None]] = [
        (reference, sorted_p[paired[i]] if i in paired else None) for i, reference in enumerate(sorted_r)
    ]
    rows.extend((None, prediction) for j, prediction in enumerate(sorted_p) if j not in taken)
    return rows


def _digits(
    references: Sequence[Span], predictions: Sequence[Span], edges: list[tuple[int, int]], table: WeightTable
) -> dict[tuple[int, int], int]:
    """Each edge's weight as one integer: from the most significant digit, its worth scaled by the common
    denominator of all the worths, a pair, a pair of one type, and the shared extent; each digit's total over a
    matching is below its radix, so the largest total weight is the best pairing by the value, then rule 2 (a),
    (b), (c) of §3."""
    worths = {(i, j): table.worth(references[i], predictions[j]) for i, j in edges}
    scale = math.lcm(*(worth.denominator for worth in worths.values()))
    reference_indices = {i for i, _ in edges}
    radix = min(len(reference_indices), len({j for _, j in edges})) + 1
    extent_radix = sum(references[i].end - references[i].start for i in reference_indices) + 1
    digits = {}
    for (i, j), worth in worths.items():
        reference, prediction = references[i], predictions[j]
        scaled = worth.numerator * (scale // worth.denominator)
        same_type = reference.entity_type == prediction.entity_type
        digits[i, j] = ((scaled * radix + 1) * radix + same_type) * extent_radix + reference.overlap(prediction)
    return digits


def _chain_pairs(
    references: Sequence[Span], predictions: Sequence[Span], edges: list[tuple[int, int]], table: WeightTable
) -> list[tuple[int, int]]:
    """The value pairing where neither side has two entities that share a position: overlap edges (i, j), sorted,
    never cross then (docs/scoring.md §3), so the best matching is `rules.best_noncrossing`'s dynamic programme
    on `_digits`' weights, linear in the edges, and reading it left to right gives rule (d)'s smallest list."""
    if not edges:
        return []
    digits = _digits(references, predictions, edges, table)
    return best_noncrossing(edges, digits.__getitem__)


def best_value_pairs(
    references: Sequence[Span], predictions: Sequence[Span], edges: list[tuple[int, int]], table: WeightTable
) -> list[tuple[int, int]]:
    """The value pairing of one connected component of the overlap graph (`edges` between entities indexed in
    (start, end, type) order): the matching of largest Σ worth, then by §3's rule 2 (a) most pairs, (b) most
    pairs of one type, (c) most shared extent, (d) the smallest sorted list of pairs: `rules.smallest_best` on
    `_digits`' weights, whose largest total is the best by every rule in turn."""
    if len(edges) == 1:  # every worth is >= 0 and a pair more wins a tie (a): the one edge pairs
        return list(edges)
    return sorted(smallest_best(_digits(references, predictions, edges, table)))
