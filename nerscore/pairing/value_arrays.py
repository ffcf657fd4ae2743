"""The value score's pairing (docs/scoring.md §10) of sentences of nested, overlapping or repeated entities, many
sentences at once on arrays: what `nerscore.pairing.value.value_pair` does one sentence at a time, without a
Python object per entity or per row (issue 31, item 6: 100,000 copies a side cost 7x the call without the value
score when every copy was a `Span` and every row a tuple).

As `value_pair`: identical entities are one entity with its number of copies; the overlap edges of the distinct
entities (with the value's `min_overlap`) are found from the sorted starts (`staircase.overlapping_pairs`)
and labelled by connected component (scipy); a component of one edge pairs as many copies as both ends have
(every worth is >= 0 and a pair more wins a tie, §3 (a)); a large component without copies goes to §3's compiled
solver on the arrays (`value.large_value_mask`); a dense cluster without copies (most of its references
overlapping most of its predictions: an onion, a staircase of two types) to `dense.dense_sentences` with the value's
worths (`value.dense_worth`), its pairs never listed (issue 31, item 7); every other component to the exact flow of
`value` (`rules.smallest_best` on `value.value_digits`), which is given `Span`s for that component's entities
alone. Discontinuous entities (§12) likewise, by `value_fragments`: the units each two share summed from their
fragments that meet, never pair by pair. Each path is exact, so the pairing is `value_pair`'s
(tests/test_value_arrays.py and tests/test_dense.py compare them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise
from typing import Any

import numpy as np

from ..errors import InvalidInputError
from ..grouping import ranges, run_bounds, run_starts
from ..span import FragmentEntities, Span, folded_entities
from .dense import dense_sentences, large_enough
from .overlaps import ARRAY_PAIR_BYTES, check_pairs_fit, kept_pairs, overlap_kept
from .rules import LARGE_COMPONENT_EDGES, Scenario, scenario_codes, smallest_best, unfolding_admitted
from .staircase import clusters, overlap_total, staircase_pairs, uncrossed
from .value import WeightTable, dense_worth, large_value_mask, value_digits

# One side's entities: start, end and type id arrays.
Side = tuple[np.ndarray, np.ndarray, np.ndarray]


def value_nested(
    references: Side,
    predictions: Side,
    type_names: Sequence[str],
    table: WeightTable,
    min_overlap: float | None,
) -> tuple[np.ndarray, ...] | None:
    """The value pairing of the entities of sentences placed at positions of their own (no entity of one overlaps
    an entity of another), as columns (scenario index, reference type id, predicted type id, reference start,
    reference end, prediction start, prediction end; -1 on an unpaired side), the rows of `value_pair` in some
    order. Type ids index `type_names`. None where the overlapping pairs of all the sentences together would not
    fit in memory (`overlaps.check_pairs_fit`): the caller then pairs one sentence at a time, which refuses a
    sentence too large alone with its place."""
    rank = np.argsort(np.argsort(np.array(list(type_names), dtype=object), kind="stable"), kind="stable")
    folded_r, folded_p = (folded(*side, rank[side[2]]) for side in (references, predictions))
    if min_overlap is None and _staircase(*folded_r, *folded_p):
        stairs = staircase_pairs(folded_r[0], folded_r[1], folded_p[0], folded_p[1], reuse=True)  # §3's if known
        if stairs is not None:
            return pair_rows(folded_r, folded_p, *stairs, np.ones(len(stairs[0])))
    parts = []
    found = _dense_clusters(folded_r, folded_p, type_names, table, min_overlap)
    if found is None:
        return None
    if found[0] is not None:
        rows, left_r, left_p = found
        parts.append(rows)
        folded_r, folded_p = tuple(column[left_r] for column in folded_r), tuple(column[left_p] for column in folded_p)
    try:
        parts.append(_listed(folded_r, folded_p, type_names, table, min_overlap))
    except InvalidInputError:  # a component's copies unfolded would not fit (`unfolded`): one sentence at a time
        return None
    if any(part is None for part in parts):
        return None
    if len(parts) == 1:
        return parts[0]
    return tuple(np.concatenate(columns) for columns in zip(*parts))


def _dense_clusters(
    references: tuple, predictions: tuple, type_names: Sequence[str], table: WeightTable, min_overlap: float | None
) -> tuple | None:
    """The value pairing of the dense clusters of the entities (each side's start, end, type id and copies, in rule
    (d)'s order): sets of entities that overlap one another in a chain, most references of one overlapping most of
    its predictions, without copies (`dense.dense_sentences` on them, with `value.dense_worth`), their overlapping
    pairs never listed (issue 31, item 7). Returns their rows (`pair_rows`) and the masks of the entities left
    on each side; (None, None, None) where no cluster is dense; None where one would not fit in memory (the
    caller pairs one sentence at a time then, which refuses it with its place)."""
    r_start, r_end, r_type, r_count = references
    p_start, p_end, p_type, p_count = predictions
    cluster_r, cluster_p, firsts = clusters(r_start, r_end, p_start, p_end)
    per_r, per_p = np.bincount(cluster_r, minlength=len(firsts)), np.bincount(cluster_p, minlength=len(firsts))
    # (`dense.large_enough` reads the number of cells: asked once for each number present, not for each cluster.)
    cells = per_r * per_p
    present_cells = np.unique(cells)
    large = np.isin(cells, present_cells[[large_enough(int(count), 1) for count in present_cells.tolist()]])
    if not large.any():
        return None, None, None
    present = np.union1d(r_type[large[cluster_r]], p_type[large[cluster_p]]).tolist()
    worth = dense_worth(table, {type_id: type_names[type_id] for type_id in present})
    if worth is None:
        return None, None, None
    try:
        solved, i, j = dense_sentences(
            (r_start, r_end, r_type, cluster_r, r_count),
            (p_start, p_end, p_type, cluster_p, p_count),
            large,
            min_overlap,
            worth,
        )
    except InvalidInputError:
        return None
    if not solved.any():
        return None, None, None
    in_r, in_p = solved[cluster_r], solved[cluster_p]
    i, j = (np.cumsum(in_r) - 1)[i], (np.cumsum(in_p) - 1)[j]
    rows = pair_rows(
        tuple(column[in_r] for column in references),
        tuple(column[in_p] for column in predictions),
        i,
        j,
        np.ones(len(i), np.int64),
    )
    return rows, ~in_r, ~in_p


def _listed(
    references: tuple, predictions: tuple, type_names: Sequence[str], table: WeightTable, min_overlap: float | None
) -> tuple[np.ndarray, ...] | None:
    """`value_nested` of entities folded (each side's start, end, type id and copies), their overlapping pairs
    listed; None where they would not fit in memory."""
    from .large_components import component_labels

    r_start, r_end, r_type, r_count = references
    p_start, p_end, p_type, p_count = predictions
    try:
        check_pairs_fit(overlap_total(r_start, r_end, p_start, p_end), len(r_start), len(p_start), ARRAY_PAIR_BYTES)
    except InvalidInputError:
        return None
    i, j = kept_pairs(r_start, r_end, p_start, p_end, min_overlap)  # (none where the dense clusters took a side)
    columns = (r_start, r_end, r_type, p_start, p_end, p_type)
    amount: Any = np.zeros(len(i), np.int64)
    if len(i):
        label = component_labels(i, j, len(r_start), len(p_start))
        if len(i) > 1 and label.min() == label.max():
            # One component holds every pair (a dense sentence): solved on the pairs as they are (issue 31, item 7).
            del label, amount
            amount = _component_amounts(columns, r_count, p_count, i, j, type_names, table)
            return pair_rows(references, predictions, i, j, amount)
        edges_of = np.bincount(label)
        single = edges_of[label] == 1
        amount[single] = np.minimum(r_count[i[single]], p_count[j[single]])
        general = np.flatnonzero(~single)
        del single
        if len(general):
            general = general[np.argsort(label[general], kind="stable")]
            bounds = run_bounds(label[general]).tolist()
            for first, last in pairwise(bounds):
                edges = general[first:last]
                amount[edges] = _component_amounts(columns, r_count, p_count, i[edges], j[edges], type_names, table)
        del label
    return pair_rows(references, predictions, i, j, amount)


def _staircase(*columns: np.ndarray) -> bool:
    """Whether the entities (start, end, type id, copies of each side) make a staircase (`staircase`) of one worth:
    one copy each, one type and ends that never decrease on either side (`staircase.uncrossed`: sentences placed one
    after another keep that across them), and no reference with a prediction's boundaries. Then every overlapping
    pair has the same worth (scenario V, docs/scoring.md §10), which the digits leave out (`value.large_value_mask`),
    and the value pairing is §3's staircase pairing: most pairs, then the most shared extent, then rule (d)."""
    r_start, r_end, r_type, r_count, p_start, p_end, p_type, p_count = columns
    if not len(r_start) or not len(p_start) or r_count.max() != 1 or p_count.max() != 1:
        return False
    if not uncrossed((r_start, r_end, r_type, p_start, p_end, p_type), slice(None), slice(None)):
        return False
    starts, ends = np.concatenate((r_start, p_start)), np.concatenate((r_end, p_end))
    order = np.lexsort((ends, starts))
    starts, ends = starts[order], ends[order]
    return not np.any((starts[1:] == starts[:-1]) & (ends[1:] == ends[:-1]))


def folded(start: np.ndarray, end: np.ndarray, type_id: np.ndarray, key: np.ndarray, *carried: np.ndarray) -> tuple:
    """The distinct entities of one side in rule (d)'s order (start, end, then `key`, each entity's type's
    place), each with its `carried` columns (its first copy's) and its number of copies, last."""
    order = np.lexsort((key, end, start))
    bounds = run_bounds(start[order], end[order], type_id[order])
    first = order[bounds[:-1]]
    return (*(column[first] for column in (start, end, type_id, *carried)), np.diff(bounds))


# A copy pair unfolded costs 74-175 bytes at the peak of the solvers that take it (benchmarks/README.md, "Onions of 3
# and 2 copies").
UNFOLDED_PAIR_BYTES = 200


def unfolded(columns: tuple, r_count: np.ndarray, p_count: np.ndarray, i: np.ndarray, j: np.ndarray) -> tuple | None:
    """One component of folded sides (`folded`: `columns` each side's start, end and type id, then its copies)
    with each copy an entity of its own, one after the other in rule (d)'s order, as the readable path pairs them
    (folding copies into counts only makes the exact flow faster, and scipy's solvers take no counts): the
    copies' `columns`, each copy pair's (i, j) among them, and the edge k of (i[k], j[k]) it copies. None where
    that lists more than `rules.unfolding_admitted` admits (thousands of copies of one entity: the flow on the folded
    edges then). An onion of 800 references in 3 copies and predictions in 2 took 99 s of pure-Python flows, x11 a
    doubling (benchmarks/README.md, "Copies"). An `InvalidInputError` (which the caller locates) where the copy pairs
    would not fit in memory: the listed pairs were checked, not these."""
    count_r, count_p = r_count[i], p_count[j]
    copy_edges = count_r * count_p
    rows, kept = np.unique(i), np.unique(j)
    paired = min(int(r_count[rows].sum()), int(p_count[kept].sum()))  # the folded flow's augmenting paths, at most
    if not unfolding_admitted(copy_pairs := int(copy_edges.sum()), len(i), paired):
        return None
    check_pairs_fit(copy_pairs, int(r_count[rows].sum()), int(p_count[kept].sum()), UNFOLDED_PAIR_BYTES)
    # Each entity's first copy, numbered over the component's entities in order (so the first is 0).
    first_r, first_p = np.zeros(len(r_count) + 1, np.int64), np.zeros(len(p_count) + 1, np.int64)
    first_r[rows + 1], first_p[kept + 1] = r_count[rows], p_count[kept]
    first_r, first_p = np.cumsum(first_r), np.cumsum(first_p)
    edge, within = ranges(np.zeros(len(i), np.int64), copy_edges)  # each copy pair's edge, its place among the edge's
    copy_i = first_r[i[edge]] + within // count_p[edge]
    copy_j = first_p[j[edge]] + within % count_p[edge]
    copies = [np.repeat(column[rows], r_count[rows]) for column in columns[:3]]
    copies += [np.repeat(column[kept], p_count[kept]) for column in columns[3:]]
    return tuple(copies), copy_i, copy_j, edge


def _component_amounts(
    columns: tuple,
    r_count: np.ndarray,
    p_count: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    type_names: Sequence[str],
    table: WeightTable,
) -> Any:
    """How many pairs each edge (i[k], j[k]) of one component of two edges or more takes: `value._component_flow`'s
    answer, on the arrays where the component is large (its copies `unfolded`)."""
    r_start, r_end, r_type, p_start, p_end, p_type = columns
    no_copies = int(r_count[i].max()) == int(p_count[j].max()) == 1
    if len(i) > LARGE_COMPONENT_EDGES:
        names = dict(enumerate(type_names))
        if no_copies:
            chosen = large_value_mask(columns, names, i, j, table)
            if chosen is not None:
                return chosen
        elif (copies := unfolded(columns, r_count, p_count, i, j)) is not None:
            chosen = large_value_mask(copies[0], names, copies[1], copies[2], table)
            if chosen is not None:
                return np.bincount(copies[3][chosen], minlength=len(i))
    # Entities numbered within the component in the side's order, which is rule (d)'s.
    rows, predicted = np.unique(i), np.unique(j)
    local_i, local_j = np.searchsorted(rows, i).tolist(), np.searchsorted(predicted, j).tolist()
    spans_r, spans_p = (
        [Span(start, end, type_names[kind]) for start, end, kind in zip(*(c[kept].tolist() for c in side))]
        for side, kept in (((r_start, r_end, r_type), rows), ((p_start, p_end, p_type), predicted))
    )
    edges = list(zip(local_i, local_j))
    if no_copies:
        flow = dict.fromkeys(smallest_best(value_digits(spans_r, spans_p, edges, table)), 1)
    else:
        room_r, room_p = r_count[rows].tolist(), p_count[predicted].tolist()
        digits = value_digits(spans_r, spans_p, edges, table, room_r, room_p)
        flow = smallest_best(digits, dict(enumerate(room_r)), dict(enumerate(room_p)))
    return [flow.get(edge, 0) for edge in edges]


def pair_rows(
    references: tuple, predictions: tuple, i: np.ndarray, j: np.ndarray, amount: Any, same: Any = None
) -> tuple:
    """The table's columns (scenario index, reference type id, predicted type id, reference start, end, prediction
    start, end; -1 on an unpaired side) of a pairing of distinct entities, each side's (start, end, type id,
    copies): the pairs, `amount` copies of each edge (i, j) (or a bool mask: one), then the copies left unpaired,
    references' then predictions'. The array path of §3 (`forms.component_arrays`) makes its rows by it too.
    `same`: whether each edge has identical boundaries, where the extents do not say (docs/scoring.md §12)."""
    r_start, r_end, r_type, r_count = references
    p_start, p_end, p_type, p_count = predictions
    paired = np.flatnonzero(amount)
    i, j, amount = i[paired], j[paired], np.asarray(amount)[paired].astype(np.int64)
    same_bounds = (r_start[i] == p_start[j]) & (r_end[i] == p_end[j]) if same is None else same[paired]
    same_type = r_type[i] == p_type[j]
    kind = scenario_codes(same_bounds, same_type)
    left_r = r_count - np.bincount(i, weights=amount, minlength=len(r_start)).astype(np.int64)
    left_p = p_count - np.bincount(j, weights=amount, minlength=len(p_start)).astype(np.int64)
    none_r, none_p = np.full(int(left_p.sum()), -1, np.int64), np.full(int(left_r.sum()), -1, np.int64)
    groups = [
        [
            np.repeat(column, amount)
            for column in (kind, r_type[i], p_type[j], r_start[i], r_end[i], p_start[j], p_end[j])
        ],
        [
            np.full(len(none_p), Scenario.III),
            np.repeat(r_type, left_r),
            none_p,
            np.repeat(r_start, left_r),
            np.repeat(r_end, left_r),
            none_p,
            none_p,
        ],
        [
            np.full(len(none_r), Scenario.II),
            none_r,
            np.repeat(p_type, left_p),
            none_r,
            none_r,
            np.repeat(p_start, left_p),
            np.repeat(p_end, left_p),
        ],
    ]
    return tuple(np.concatenate([group[column].astype(np.int64) for group in groups]) for column in range(7))


# Pairs of entities summed by counting (`summed_shared_units`) where they are at most so many cells: this many, or
# this many a fragment.
_COUNTED_CELLS = (1 << 16, 8)


def summed_shared_units(
    references: tuple[np.ndarray, np.ndarray, np.ndarray],
    predictions: tuple[np.ndarray, np.ndarray, np.ndarray],
    width: int,
    at_once: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every (reference, prediction) of entities whose fragments share a unit, with the units they share summed over
    their fragments that meet (docs/scoring.md §12), sorted: each side's fragments (owner entity, start, end),
    sorted by start, every sentence at positions of its own; `width`, more than any prediction's owner. §3's array
    path (`forms.fragment_arrays`) and the value's (`value_fragments`) list them so."""
    from . import staircase

    owner_r, start_r, end_r = references
    owner_p, start_p, end_p = predictions
    width = max(width, 1)
    # The pairs of fragments that meet are listed a run of references at a time (at most `at_once` and one
    # reference's) and summed into the pairs of entities as they come, so that memory follows the pairs of
    # entities: 400 entities a side of 100 fragments at the same places (16 million pairs of fragments, 160,000 of
    # entities) took 1 GB listed at once. Each pair of fragments is in the run of its reference (`overlapping_pairs`
    # of a run of the references, sorted by start, against every prediction); `met`, each reference's pairs.
    met = np.searchsorted(start_p, end_r, "left") - np.searchsorted(np.sort(end_p), start_r, "right")
    ends = np.cumsum(met)
    cuts = np.searchsorted(ends, np.arange(at_once, int(ends[-1]) if len(ends) else 0, at_once))
    bounds = np.unique(np.concatenate(([0], cuts + 1, [len(start_r)]))).tolist()
    # Few pairs of entities that can meet (a comb: every reference meeting every prediction in many fragments):
    # summed by counting into a cell each, exact in a float64 below 2**53; else by sorting their keys.
    cells = (int(owner_r.max(initial=-1)) + 1) * width
    least, per_fragment = _COUNTED_CELLS
    counted = cells <= max(least, per_fragment * (len(start_r) + len(start_p))) and int((end_r - start_r).sum()) < 2**53
    total = np.zeros(cells if counted else 0)
    key, units = np.zeros(0, np.int64), np.zeros(0, np.int64)
    for low, high in pairwise(bounds):
        a, b = staircase.overlapping_pairs(start_r[low:high], end_r[low:high], start_p, end_p)
        a = a + low
        shared = np.minimum(end_r[a], end_p[b]) - np.maximum(start_r[a], start_p[b])
        found = owner_r[a].astype(np.int64) * width + owner_p[b]
        if counted:
            total += np.bincount(found, weights=shared, minlength=cells)
        else:
            key, units = _summed(np.concatenate((key, found)), np.concatenate((units, shared)))
    if counted:
        key = np.flatnonzero(total)
        units = total[key].astype(np.int64)
    i, j = np.divmod(key, width)
    return i, j, units


def _summed(key: np.ndarray, units: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct key, sorted, and the units of its rows summed (in int64: exact at any offset; float weights
    would round past 2**53)."""
    order = np.argsort(key, kind="stable")
    key, units = key[order], units[order]
    first = run_starts(key)
    return key[first], (np.add.reduceat(units, first) if len(key) else np.zeros(0, np.int64))


# Pairs of fragments listed at once at most (`summed_shared_units`) by the value's pairing of discontinuous entities.
_FRAGMENT_PAIRS_AT_ONCE = 1 << 19

# One side's entities for `value_fragments`: each one's sentence, type id, extent start and end in its sentence, and
# fragments as runs (`FragmentEntities`, a contiguous entity's its extent: `Pairs.fragment_runs` or `tuple_runs`).
FragmentSide = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, FragmentEntities]


def value_fragments(
    references: FragmentSide,
    predictions: FragmentSide,
    move: np.ndarray,
    type_names: Sequence[str],
    table: WeightTable,
    min_overlap: float | None,
) -> tuple[Any, ...]:
    """`value.value_pair` of sentences of discontinuous entities (docs/scoring.md §12) on arrays: the columns of
    `Pairs.of_columns` and each row's run of fragments per side (`pieces` 0 where none); `move`, each sentence's
    to positions of its own. Copies folded (`span.folded_entities`, rule (d)'s order); the units each two share
    summed from their fragments that meet (`summed_shared_units`, as §3's array path sums them); a component of
    one edge pairs as many copies as both have, a large one without copies goes to `value.large_value_mask`
    (shared units for shared extents), the others to the exact flow on `Span`s, the shared units given
    (`value.value_digits`)."""
    from .large_components import component_labels

    rank = np.argsort(np.argsort(np.array(list(type_names), dtype=object), kind="stable"), kind="stable")
    entities = [replace(side[4], sentence=side[0], type_id=rank[side[1]]) for side in (references, predictions)]
    folded = folded_entities(*entities)
    (classes_r, count_r, _), (classes_p, count_p, _) = folded
    swept = []
    for classes, _, _ in folded:
        which, at = ranges(classes.first, classes.pieces)
        moved = move[classes.sentence[which]]
        start, end = classes.start[at] + moved, classes.end[at] + moved
        if len(start) > 1 and bool((start[1:] < start[:-1]).any()):  # (sentences of entities apart: in order)
            order = np.argsort(start, kind="stable")
            which, start, end = which[order], start[order], end[order]
        swept.append((which, start, end))
    i, j, shared = summed_shared_units(swept[0], swept[1], len(classes_p.first), _FRAGMENT_PAIRS_AT_ONCE)
    units_r, units_p = (classes.units() for classes, _, _ in folded)
    if min_overlap is not None:
        kept = overlap_kept(shared, units_r[i], min_overlap)
        i, j, shared = i[kept], j[kept], shared[kept]
    same = (shared == units_r[i]) & (shared == units_p[j])  # the same units, as many: the same fragments (§12)
    amount = np.zeros(len(i), np.int64)
    if len(i):
        # An edge whose two entities have no other is a component of its own (most, in flat sentences).
        single = (np.bincount(i)[i] == 1) & (np.bincount(j)[j] == 1)
        amount[single] = np.minimum(count_r[i[single]], count_p[j[single]])
        general = np.flatnonzero(~single)
        label = component_labels(i[general], j[general], len(count_r), len(count_p)) if len(general) else general
        general = general[np.argsort(label, kind="stable")]
        label = np.sort(label, kind="stable")
        for first, last in pairwise(run_bounds(label).tolist()):
            edges = general[first:last]
            amount[edges] = _fragment_amounts(folded, units_r, type_names, rank, table, (i, j, shared, same), edges)
    by_rank = np.argsort(rank)
    index_r, index_p = np.arange(len(count_r)), np.arange(len(count_p))
    sides = (index_r, index_r, classes_r.type_id, count_r), (index_p, index_p, classes_p.type_id, count_p)
    kind, type_r, type_p, row_r, _, row_p, _ = pair_rows(*sides, i, j, amount, same)  # (entities for bounds)
    sentence = np.zeros(len(kind), np.int64)
    bounds, held = [], []
    for side, own, (classes, _, _), row in zip((references, predictions), entities, folded, (row_r, row_p)):
        has, order = row >= 0, np.argsort(own.first, kind="stable")  # (runs: copies share a first)
        origin = order[np.searchsorted(own.first, classes.first, sorter=order)][row[has]]  # a copy of the row's
        sentence[has] = side[0][origin]
        for column in side[2:4]:
            bounds.append(np.full(len(row), -1, np.int64))
            bounds[-1][has] = column[origin]
        held.append(_rows_held(side[4], has, origin))
    types = [np.where(type_id >= 0, by_rank[np.maximum(type_id, 0)], -1) for type_id in (type_r, type_p)]
    held = [replace(runs, sentence=sentence, type_id=type_id) for runs, type_id in zip(held, types)]
    return (sentence, kind, *types, *bounds, *held)


def _rows_held(held: FragmentEntities, has: np.ndarray, origin: np.ndarray) -> FragmentEntities:
    """Each row's run of fragments of one side (`origin`, the entity given of rows `has`), `pieces` 0 where none."""
    pieces, first = np.zeros(len(has), np.int64), np.zeros(len(has), np.int64)
    pieces[has], first[has] = held.pieces[origin], held.first[origin]
    return FragmentEntities(first, first, pieces, first, held.start, held.end)


def _fragment_amounts(
    folded: list, units_r: np.ndarray, type_names: Sequence[str], rank: np.ndarray, table: WeightTable, edges: tuple, at
) -> Any:
    """How many pairs each edge `at` of one component of two edges or more takes (`edges`: every edge's reference,
    prediction, shared units and identical boundaries; `folded`, each side's distinct entities and copies): §3's
    compiled solver on the value's digits for a large one without copies (`value.large_value_mask`), else the exact
    flow on `Span`s of the component's entities (`value.value_digits`, the shared units given)."""
    (classes_r, count_r, _), (classes_p, count_p, _) = folded
    i, j, shared, same = (column[at] for column in edges)
    names = dict(zip(rank.tolist(), type_names))
    no_copies = int(count_r[i].max()) == int(count_p[j].max()) == 1
    if len(i) > LARGE_COMPONENT_EDGES and no_copies:
        columns = [(*c.extent(), c.type_id) for c in (classes_r, classes_p)]
        chosen = large_value_mask((*columns[0], *columns[1]), names, i, j, table, (shared, same, units_r))
        if chosen is not None:
            return chosen
    rows, predicted = np.unique(i), np.unique(j)
    spans_r, spans_p = (
        [_span(classes, k, names) for k in kept.tolist()]
        for classes, kept in ((classes_r, rows), (classes_p, predicted))
    )
    edge_list = list(zip(np.searchsorted(rows, i).tolist(), np.searchsorted(predicted, j).tolist()))
    if no_copies:
        flow = dict.fromkeys(smallest_best(value_digits(spans_r, spans_p, edge_list, table, shared=shared.tolist())), 1)
    else:
        room_r, room_p = count_r[rows].tolist(), count_p[predicted].tolist()
        digits = value_digits(spans_r, spans_p, edge_list, table, room_r, room_p, shared.tolist())
        flow = smallest_best(digits, dict(enumerate(room_r)), dict(enumerate(room_p)))
    return [flow.get(edge, 0) for edge in edge_list]


def _span(entities: FragmentEntities, index: int, names: dict) -> Span:
    first, last = int(entities.first[index]), int(entities.first[index] + entities.pieces[index] - 1)
    name = names[int(entities.type_id[index])]
    return Span(int(entities.start[first]), int(entities.end[last]), name, entities.fragments(index))
