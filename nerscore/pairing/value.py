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
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ..grouping import run_bounds
from ..option_checks import Weights
from ..span import Span
from . import dense
from .dense_matrix import Worth
from .overlaps import (
    ARRAY_PAIR_BYTES,
    FLOOR,
    any_fragmented,
    check_pairs_fit,
    distinct_entities,
    kept_pairs,
    overlap_count,
    overlap_edges,
    span_key,
    spans_disjoint,
)
from .rules import LARGE_COMPONENT_EDGES, best_flow, components, radices, scenario_of
from .staircase import best_noncrossing

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
        # Each (scenario, reference type, predicted type)'s worth, found once: the arithmetic of fractions an edge
        # took most of the value pairing of 20,000 x 20 tags' forked chains.
        self._worths: dict[tuple[str, str, str], Fraction] = {}

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
        return self.pair_worth(scenario_of(reference, prediction), reference.entity_type, prediction.entity_type)

    def digits(
        self, references: Sequence[Span], predictions: Sequence[Span], edges: list[tuple[int, int]], room_r, room_p
    ) -> dict[tuple[int, int], int]:
        """`value_digits` under these weights: the value's weights for `rules.best_flow`."""
        return value_digits(references, predictions, edges, self, room_r, room_p)

    def large_mask(self, references: Sequence[Span], predictions: Sequence[Span], i: Any, j: Any) -> Any:
        """Which edges (i[k], j[k]) of a large component without copies the value pairing takes, by §3's compiled
        solver (`large_value_mask` on the entities as arrays); None where it hands the component back."""
        from .large_components import span_columns

        columns = span_columns(references, predictions)
        names = {int(columns[2][k]): references[k].entity_type for k in set(i.tolist())}
        names |= {int(columns[5][k]): predictions[k].entity_type for k in set(j.tolist())}
        return large_value_mask(columns, names, i, j, self)

    def pair_worth(self, scenario: str, reference_type: str, predicted_type: str) -> Fraction:
        """`worth` of a pair of this scenario and these types."""
        key = (scenario, reference_type, predicted_type)
        worth = self._worths.get(key)
        if worth is None:
            worth = self.kept(scenario, reference_type) + self.false_alarm * self.weight(predicted_type)
            self._worths[key] = worth
        return worth


def value_pair(
    references: Sequence[Span], predictions: Sequence[Span], table: WeightTable, min_overlap: float | None
) -> list[tuple[Span | None, Span | None]]:
    """The value pairing of one sentence (docs/scoring.md §10): every reference and prediction once, paired or
    unpaired, in (start, end, type) order of the references then of the unpaired predictions. `min_overlap` is
    the value's own (the weights' `min_overlap`, else the call's).

    As §3's pairing, on the same solvers: identical entities are one node with their number of copies (a flow
    carries as many as pair, so 100,000 copies a side are one edge); a sentence of many entities has its overlaps
    found and its components labelled with numpy; each goes to §3's `rules.best_flow` with the value's weights (the
    `WeightTable`): a large component to `large_components.best_matching`
    (scipy, proven in integers), its copies entities of their own within §3's budget (`rules.unfolded_flow`), every
    other to `rules.smallest_best`. A dense sentence without copies goes to `dense.dense_pairs` with the value's
    worths, its pairs never listed."""
    sorted_r = sorted(references, key=span_key)
    sorted_p = sorted(predictions, key=span_key)
    if spans_disjoint(sorted_r) and spans_disjoint(sorted_p):
        # Tags, and spans that do not nest: the overlaps never cross, and a dynamic programme is linear in them.
        edges = overlap_edges(sorted_r, sorted_p, min_overlap)
        return _rows(sorted_r, sorted_p, dict(_chain_pairs(sorted_r, sorted_p, sorted(edges), table)))
    found = _dense_value_pairs(sorted_r, sorted_p, table, min_overlap)
    if found is not None:
        return _rows(sorted_r, sorted_p, found)
    distinct_r, copies_r = distinct_entities(sorted_r)
    distinct_p, copies_p = distinct_entities(sorted_p)
    room_r, room_p = [len(copies) for copies in copies_r], [len(copies) for copies in copies_p]
    flows: dict[tuple[int, int], int] = {}
    for component_edges in _components_of(distinct_r, distinct_p, min_overlap):
        flows.update(_component_flow(distinct_r, distinct_p, component_edges, room_r, room_p, table))
    # Copies of one entity are alike (and may be one object): each pair takes the next copies of its two
    # entities, in order, told apart by their place.
    partners: list[list[Span | None]] = [[None] * len(copies) for copies in copies_r]
    paired_r = [0] * len(distinct_r)  # how many copies of each entity are paired (the first ones)
    paired_p = [0] * len(distinct_p)
    for (i, j), amount in sorted(flows.items()):
        partners[i][paired_r[i] : paired_r[i] + amount] = copies_p[j][paired_p[j] : paired_p[j] + amount]
        paired_r[i] += amount
        paired_p[j] += amount
    rows: list[tuple[Span | None, Span | None]] = [
        (reference, partner)
        for copies, partner_list in zip(copies_r, partners)
        for reference, partner in zip(copies, partner_list)
    ]
    rows.extend((None, prediction) for j, copies in enumerate(copies_p) for prediction in copies[paired_p[j] :])
    return rows


def _dense_value_pairs(
    sorted_r: Sequence[Span], sorted_p: Sequence[Span], table: WeightTable, min_overlap: float | None
) -> dict[int, int] | None:
    """The value pairing {reference index: prediction index} of a dense sentence without copies (most references
    overlapping most predictions) by `dense.dense_pairs` with the value's `dense_worth`, its overlapping pairs never
    listed (issue 31, item 7); None for any other sentence (or where its weights would not be exact)."""
    columns = dense.dense_columns(sorted_r, sorted_p)
    if columns is None:
        return None
    names = dict(zip(columns[2].tolist(), (span.entity_type for span in sorted_r)))
    names |= dict(zip(columns[5].tolist(), (span.entity_type for span in sorted_p)))
    worth = dense_worth(table, names)
    found = None if worth is None else dense.dense_pairs(columns[:3], columns[3:], min_overlap, worth)
    return None if found is None else dict(zip(found[0].tolist(), found[1].tolist()))


# A pair's scenario by its flags, 2 * (identical boundaries) + (one type) (docs/scoring.md §4), as `Worth`
# indexes its worths.
_FLAG_SCENARIOS = ("VI", "V", "IV", "I")


def dense_worth(table: WeightTable, names: Mapping[int, str]) -> Worth | None:
    """The value's worths (`WeightTable.worth`) as `Worth` holds them, for the type ids of `names`: kept(r, p)
    by scenario and reference type, and the false alarm spared by predicted type, exact fractions scaled by their
    common denominator to integers (left out, all 0, where every pair would have one worth: the pair's digit
    counts it already, as `large_value_mask` leaves it out; `Worth.tells_type` where the worth is one number
    for the pairs of one type and another for the rest). None where they pass 2**53."""
    import numpy as np

    from .large_components import EXACT

    kept = {
        (flag, t): table.kept(scenario, name)
        for flag, scenario in enumerate(_FLAG_SCENARIOS)
        for t, name in names.items()
    }
    alarm = {t: table.false_alarm * table.weight(name) for t, name in names.items()}
    size = max(names, default=-1) + 1
    reference, prediction = np.zeros((4, size), np.int64), np.zeros(size, np.int64)
    if len(set(kept.values())) <= 1 and len(set(alarm.values())) <= 1:
        return Worth(reference, prediction)
    # One worth for the pairs of one type (flags 1 and 3) and one for the others (0 and 2), whatever the types.
    tells_type = len(set(alarm.values())) == 1 and all(
        len({worth for (flag, _), worth in kept.items() if flag % 2 == same}) == 1 for same in (0, 1)
    )
    numbers = _scaled([*kept.values(), *alarm.values()])
    scaled_kept, scaled_alarm = dict(zip(kept, numbers)), dict(zip(alarm, numbers[len(kept) :]))
    if max(scaled_kept.values()) + max(scaled_alarm.values()) >= EXACT:
        return None
    for (flag, t), worth in scaled_kept.items():
        reference[flag, t] = worth
    for t, worth in scaled_alarm.items():
        prediction[t] = worth
    return Worth(reference, prediction, tells_type)


def _scaled(worths: Sequence[Fraction]) -> list[int]:
    """Exact fractions as integers of one scale, the common denominator of them all."""
    scale = math.lcm(*(worth.denominator for worth in worths))
    return [worth.numerator * (scale // worth.denominator) for worth in worths]


def _rows(
    sorted_r: Sequence[Span], sorted_p: Sequence[Span], paired: dict[int, int]
) -> list[tuple[Span | None, Span | None]]:
    taken = set(paired.values())
    rows: list[tuple[Span | None, Span | None]] = [
        (reference, sorted_p[paired[i]] if i in paired else None) for i, reference in enumerate(sorted_r)
    ]
    rows.extend((None, prediction) for j, prediction in enumerate(sorted_p) if j not in taken)
    return rows


# A sentence whose distinct entities would make more pairs than this has its overlaps found with numpy.
_ARRAY_PAIRS = 1 << 12


def _components_of(references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None) -> list[Any]:
    """The overlap edges of the distinct entities, by connected component: lists of (i, j) in plain Python for a
    few entities or any discontinuous one (whose overlaps are of units, docs/scoring.md §12, not of the extents the
    arrays hold: entities sharing no unit were paired); for many, arrays (i, j) found with numpy (sorted starts,
    scipy's labels), sorted."""
    if len(references) * len(predictions) <= _ARRAY_PAIRS or any_fragmented(references, predictions):
        return components(overlap_edges(references, predictions, min_overlap), len(references), len(predictions))
    import numpy as np

    from .large_components import component_labels, span_columns

    r_start, r_end, _, p_start, p_end, _ = span_columns(references, predictions)
    if len(references) * len(predictions) * ARRAY_PAIR_BYTES >= FLOOR:  # could need more than 64 MB
        check_pairs_fit(overlap_count(references, predictions), len(references), len(predictions), ARRAY_PAIR_BYTES)
    i, j = kept_pairs(r_start, r_end, p_start, p_end, min_overlap)
    if not len(i):
        return []
    labels = component_labels(i, j, len(references), len(predictions))
    order = np.lexsort((j, i, labels))
    i, j, labels = i[order], j[order], labels[order]
    bounds = run_bounds(labels).tolist()
    return [(i[first:last], j[first:last]) for first, last in pairwise(bounds)]


def _component_flow(
    references: Sequence[Span],
    predictions: Sequence[Span],
    edges: Any,
    room_r: Sequence[int],
    room_p: Sequence[int],
    table: WeightTable,
) -> dict[tuple[int, int], int]:
    """The value pairing of one component of distinct entities with their copies (`room_r`, `room_p`), as
    {edge: amount}: §3's solvers on the value's weights (`rules.best_flow` given the `table`). `edges`: a list of
    (i, j), or arrays i and j, whose large component without copies goes to the compiled solver on them first."""
    if isinstance(edges, tuple):
        i, j = edges
        no_copies = max(room_r[k] for k in set(i.tolist())) == max(room_p[k] for k in set(j.tolist())) == 1
        if len(i) > LARGE_COMPONENT_EDGES and no_copies:
            chosen = table.large_mask(references, predictions, i, j)
            if chosen is not None:
                return dict.fromkeys(zip(i[chosen].tolist(), j[chosen].tolist()), 1)
        edges = list(zip(i.tolist(), j.tolist()))
    return best_flow(references, predictions, edges, room_r, room_p, table)


def value_digits(
    references: Sequence[Span],
    predictions: Sequence[Span],
    edges: list[tuple[int, int]],
    table: WeightTable,
    room_r: Sequence[int] | None = None,
    room_p: Sequence[int] | None = None,
    shared: Sequence[int] | None = None,
) -> dict[tuple[int, int], int]:
    """Each edge's weight as one integer: from the most significant digit, its worth scaled by the common
    denominator of all the worths, a pair, a pair of one type, and the shared extent; each digit's total over a
    flow is below its radix (`rules.radices`: entities counted with their copies, `room_r` and `room_p`, 1 where not
    given), so the largest total weight is the best pairing by the value, then rule 2 (a), (b), (c) of §3. `shared`:
    each edge's shared units where the caller found them on arrays (`value_arrays.value_fragments`)."""
    worths = {(i, j): table.worth(references[i], predictions[j]) for i, j in edges}
    overlaps = iter(shared) if shared is not None else (references[i].overlap(predictions[j]) for i, j in edges)
    scaled = dict(zip(worths, _scaled(list(worths.values()))))
    radix, extent_radix = radices(references, edges, room_r, room_p)
    digits = {}
    for (i, j), worth in scaled.items():
        reference, prediction = references[i], predictions[j]
        same_type = reference.entity_type == prediction.entity_type
        digits[i, j] = ((worth * radix + 1) * radix + same_type) * extent_radix + next(overlaps)
    return digits


def _chain_pairs(
    references: Sequence[Span], predictions: Sequence[Span], edges: list[tuple[int, int]], table: WeightTable
) -> list[tuple[int, int]]:
    """The value pairing where neither side has two entities that share a position: overlap edges (i, j), sorted,
    never cross then (docs/scoring.md §3), so the best matching is `staircase.best_noncrossing`'s dynamic programme
    on `value_digits`' weights, linear in the edges, and reading it left to right gives rule (d)'s smallest list."""
    if not edges:
        return []
    digits = value_digits(references, predictions, edges, table)
    return best_noncrossing(edges, digits.__getitem__)


def _present(indices: Any, size: int) -> Any:
    """The distinct values of `indices` (integers below `size`), sorted, without sorting the edges (a million of
    them in an onion)."""
    import numpy as np

    seen = np.zeros(size, bool)
    seen[indices] = True
    return np.flatnonzero(seen)


def large_value_mask(
    columns: tuple, names: Mapping[int, str], i: Any, j: Any, table: WeightTable, units: tuple | None = None
) -> Any:
    """Which edges (i[k], j[k]) of a large component without copies the value pairing takes (a bool array), by
    §3's compiled solver (`large_components.best_matching`: scipy's matching, proven best by an optimal dual
    checked in integers, rule (d) on the tight edges), on `value_digits`' weights worked out with numpy: a worth for
    each of the few (reference type, predicted type, scenario) an edge can have, not a Fraction per edge.
    `columns`: both sides' start, end and type id arrays (`large_components.span_columns`), entities in (start,
    end, type) order; `names`: each type id's name. None where the digits do not fit an int64 or the solver hands
    the component back (the pure-Python flow then solves it). `units` (discontinuous entities, docs/scoring.md
    §12: each edge's shared units, whether it has identical boundaries, each reference's units) stand in for what
    the extents give: the shared extent, identical extents and the references' lengths."""
    import numpy as np

    from .large_components import add_shared, chosen_edges, edge_digits, uncrossed

    r_start, r_end, r_type, p_start, p_end, p_type = columns
    kinds = int(max(r_type.max(initial=0), p_type.max(initial=0))) + 1
    # The worth of an edge depends on its two types and its scenario only (docs/scoring.md §10): a code per
    # edge, and a worth per code present (found by counting where the codes are few, by sorting where not).
    same_type = r_type[i] == p_type[j]
    key = r_type[i] * kinds
    key += p_type[j]
    key *= 4
    key += (((r_start[i] == p_start[j]) & (r_end[i] == p_end[j])) if units is None else units[1]) * 2
    key += same_type
    if 4 * kinds * kinds <= 4 * len(key) + 1024:
        distinct = _present(key, 4 * kinds * kinds)
        # A byte an edge for its code's number where the codes are few (issue 31, item 7).
        lookup = np.zeros(4 * kinds * kinds, np.int8 if len(distinct) < 128 else np.int64)
        lookup[distinct] = np.arange(len(distinct))
        index = lookup[key]
    else:
        distinct, index = np.unique(key, return_inverse=True)
    del key
    worths = []
    for code in distinct.tolist():
        types, flags = divmod(code, 4)
        reference_type, predicted_type = names[types // kinds], names[types % kinds]
        worths.append(table.pair_worth(_FLAG_SCENARIOS[flags], reference_type, predicted_type))
    scaled = _scaled(worths)
    if len(scaled) == 1:
        # One worth on every edge: a pairing's worth is it times its pairs, which the digit below counts already,
        # so it is left out (as `rules._digits` leaves out a digit equal on every edge): shorter digits, which the
        # dynamic programme holds in int64 where the worth's would not (the dense staircase of 2,000 a side).
        scaled = [0]
    rows, predicted = _present(i, len(r_start)), _present(j, len(p_start))
    radix = min(len(rows), len(predicted)) + 1
    extent_radix = int((r_end[rows] - r_start[rows]).sum() if units is None else units[2][rows].sum()) + 1
    if ((max(scaled) * radix + 1) * radix + 2) * extent_radix >= 2**62:
        return None
    if len(distinct) == 1 and units is None:
        # One scenario and pair of types on every edge: the digits left are §3's (`edge_digits`, every digit equal
        # on every edge left out), whose answer for the same component is read back (`recent`, issue 31, item 6).
        del index, same_type
        digits = edge_digits(columns, i, j, radix, extent_radix)
    else:
        digits = np.array(scaled, np.int64)[index]
        del index
        digits *= radix
        digits += 1
        digits *= radix
        digits += same_type
        del same_type
        digits *= extent_radix
        if units is None:
            add_shared(digits, columns, i, j)
        else:
            digits += units[0]
    # One worth on every edge (one type, no pair of identical boundaries): the digits below it are §3's, whose best
    # pairing never crosses here (`large_components.uncrossed`), as `best_pairs` solves §3's, its answer read back.
    chained = len(distinct) == 1 and units is None and uncrossed(columns, rows, predicted)
    return chosen_edges(i, j, digits, chained, reuse=True, exact_sums=False)
