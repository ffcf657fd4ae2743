"""Pairing reference and predicted entities into scenarios (docs/scoring.md §3, §4).

Identical boundaries pair first; the rest pair by the four priorities of §3. Sides without overlapping entities
(always so for tags) have best pairings that never cross, found by a dynamic programme linear in the entities
(`_pair_disjoint`); nested, overlapping or repeated entities make general bipartite components (`_pair_nested`),
each solved exactly as a flow in which identical entities are one node with their number of copies
(`nerscore.pairing.assignment`); components of a few edges are solved by trying every pairing. The overlap graph
they start from (which pairs overlap, whether they fit in memory) is `nerscore.pairing.overlaps`."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import partial
from typing import Any

import numpy as np

from ..errors import InvalidInputError, shown
from ..option_checks import check_min_overlap
from ..span import Span, check_spans
from . import dense
from .assignment import connected, max_weight_flow

# The overlap graph's parts (`nerscore.pairing.overlaps`), named here for the callers that import them from the pairing.
from .overlaps import (  # noqa: F401
    ARRAY_PAIR_BYTES,
    PYTHON_PAIR_BYTES,
    any_fragmented,
    check_pairs_fit,
    distinct_entities,
    overlap_count,
    overlap_edges,
    overlap_kept,
    spans_disjoint,
    spans_overlap,
)
from .staircase import best_noncrossing
from .tight_matchings import usable_edges

SCENARIOS = ("I", "II", "III", "IV", "V", "VI")
# Each scenario's position in SCENARIOS: the integer code the tables and arrays count it under, by its string.
SCENARIO_INDEX = {scenario: index for index, scenario in enumerate(SCENARIOS)}


class Scenario:  # and by its name in docs/scoring.md §4: Scenario.IV == SCENARIO_INDEX["IV"]
    I, II, III, IV, V, VI = range(len(SCENARIOS))  # noqa: E741


def scenario_of(reference: Span | None, prediction: Span | None) -> str:
    """The docs/scoring.md §4 scenario of a pair, or of an unpaired entity (the other side None)."""
    for name, span in (("reference", reference), ("prediction", prediction)):
        if span is not None and not isinstance(span, Span):
            raise InvalidInputError(f"{name} is {shown(span)} ({type(span).__name__}); expected a Span or None")
    if reference is None:
        return "II"
    if prediction is None:
        return "III"
    same_type = reference.entity_type == prediction.entity_type
    if reference.same_bounds(prediction):  # the same fragments (docs/scoring.md §12)
        return "I" if same_type else "IV"
    return "V" if same_type else "VI"


def scenario_codes(same_bounds: Any, same_type: Any) -> Any:
    """`scenario_of` on arrays: the scenario codes of pairs, from whether each has the same bounds, the same type."""
    kinds = [same_bounds & same_type, same_bounds, same_type]
    return np.select(kinds, [Scenario.I, Scenario.IV, Scenario.V], Scenario.VI)


def pair(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None = None
) -> list[tuple[Span | None, Span | None]]:
    """Pair the entities of one sentence one-to-one (docs/scoring.md §3), in position order.

    Identical boundaries always pair. The rest pair among overlapping spans to maximise, in this order, the
    number of pairs, the number of same-type pairs and the shared extent; ties go to the lexicographically
    smallest sorted list of pairs. Unlike nervaluate's greedy first-come matching, this is exact. With
    `min_overlap`, a prediction overlaps a reference only if it covers at least that share of its length. The
    module's docstring says how (`_pair_disjoint`, `_pair_nested`)."""
    references, predictions = check_spans("references", references), check_spans("predictions", predictions)
    min_overlap = check_min_overlap("min_overlap", min_overlap)
    if spans_disjoint(references) and spans_disjoint(predictions):
        rows = _pair_disjoint(references, predictions, min_overlap)
    else:
        rows = _pair_nested(references, predictions, min_overlap)
    rows.sort(key=_row_position)
    return rows


def _row_position(row: tuple[Span | None, Span | None]) -> tuple:
    # docs/scoring.md §7: smaller start first, rows with a reference first, then by the first entity's end; the
    # rest only orders rows that nested or repeated entities would otherwise leave tied.
    reference, prediction = row
    starts = [span.start for span in row if span is not None]
    first = reference if reference is not None else prediction
    assert first is not None, "a row holds an entity"
    paired = (
        () if prediction is None or reference is None else (prediction.start, prediction.end, prediction.entity_type)
    )
    position = min(starts), reference is None, first.end, first.start, first.entity_type, not paired, paired
    if first.fragments or (prediction is not None and prediction.fragments):
        # Discontinuous entities of one extent and type (docs/scoring.md §12) are ordered by their fragments.
        return (*position, first.fragments, () if prediction is None else prediction.fragments)
    return position


def _pair_disjoint(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None
) -> list[tuple[Span | None, Span | None]]:
    """`pair` for sides whose entities are disjoint, in any order."""
    by_bounds = {(p.start, p.end, p.fragments): p for p in predictions}
    rows: list[tuple[Span | None, Span | None]] = []
    left_references = []
    for reference in references:
        match = by_bounds.pop((reference.start, reference.end, reference.fragments), None)
        if match is None:
            left_references.append(reference)
        else:
            rows.append((reference, match))
    left_predictions = sorted(by_bounds.values())
    left_references.sort()
    paired = pair_overlapping(left_references, left_predictions, min_overlap)
    rows.extend(paired)
    taken_references = {id(r) for r, _ in paired}
    taken_predictions = {id(p) for _, p in paired}
    rows.extend((r, None) for r in left_references if id(r) not in taken_references)
    rows.extend((None, p) for p in left_predictions if id(p) not in taken_predictions)
    return rows


def pair_overlapping(
    references: list[Span], predictions: list[Span], min_overlap: float | None = None
) -> list[tuple[Span, Span]]:
    # Overlap edges (i, j), sorted by i then j; j never decreases along the list (see docs/scoring.md §3). With
    # `min_overlap` some edges are left out, which keeps both properties: a subset of non-crossing edges does
    # not cross.
    # Discontinuous entities (docs/scoring.md §12) overlap when they share a unit: extents that overlap are only
    # candidates, each tested.
    edges: list[tuple[int, int]] = []
    first_open = 0
    tested = min_overlap is not None or any_fragmented(references, predictions)
    for i, reference in enumerate(references):
        while first_open < len(predictions) and predictions[first_open].end <= reference.start:
            first_open += 1
        j = first_open
        while j < len(predictions) and predictions[j].start < reference.end:
            if not tested or spans_overlap(reference, predictions[j], min_overlap):
                edges.append((i, j))
            j += 1
    if not edges:
        return []

    # One integer per edge orders (pairs, same-type pairs, shared tokens) lexicographically: each total is
    # below `base`, the number of tokens spanned plus one.
    base = max(s.end for s in (*references, *predictions)) + 1

    def weight(edge: tuple[int, int]) -> int:
        reference, prediction = references[edge[0]], predictions[edge[1]]
        same_type = reference.entity_type == prediction.entity_type
        return base * base + base * same_type + reference.overlap(prediction)

    return [(references[i], predictions[j]) for i, j in best_noncrossing(edges, weight)]


def _pair_nested(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None
) -> list[tuple[Span | None, Span | None]]:
    """`pair` for sides with nested, overlapping or repeated entities (docs/scoring.md §3).

    Identical entities of one side (same start, end and type) are interchangeable: they pair alike, and which
    copy takes a pair changes no count and no row. So each side is folded into its distinct entities, each with
    its number of copies, and the pairing is a flow on those: a thousand copies cost one node, not a thousand
    (and a thousand against a thousand, not a million edges). Rule 1's pairs of identical boundaries and type
    come first and directly: at each entity found on both sides, min(k, m) of them; every best pairing makes
    exactly these, as their total is the most possible and no other pair competes for them. What is left of an
    entity then has no twin of its type on the other side. The rest of the overlap graph is split into its
    connected components, and each is solved exactly (`best_flow`)."""
    classes_r, copies_r = distinct_entities(references)
    classes_p, copies_p = distinct_entities(predictions)
    rows: list[tuple[Span | None, Span | None]] = []
    twin = {span: j for j, span in enumerate(classes_p)}
    for i, span in enumerate(classes_r):
        j = twin.get(span)
        if j is not None:
            count = min(len(copies_r[i]), len(copies_p[j]))
            rows.extend(_take(copies_r[i], copies_p[j], count))
    # The entities left, still in (start, end, type) order, which is the order rule (d) compares.
    left_r = [i for i, copies in enumerate(copies_r) if copies]
    left_p = [j for j, copies in enumerate(copies_p) if copies]
    spans_r, spans_p = [classes_r[i] for i in left_r], [classes_p[j] for j in left_p]
    room_r, room_p = [len(copies_r[i]) for i in left_r], [len(copies_p[j]) for j in left_p]
    found = _dense_pairs(spans_r, spans_p, room_r, room_p, min_overlap)
    if found is not None:
        for i, j in zip(*found):
            rows.extend(_take(copies_r[left_r[i]], copies_p[left_p[j]], 1))
    else:
        edges = overlap_edges(spans_r, spans_p, min_overlap)
        for component_edges in components(edges, len(spans_r), len(spans_p)):
            for (i, j), amount in best_flow(spans_r, spans_p, component_edges, room_r, room_p).items():
                rows.extend(_take(copies_r[left_r[i]], copies_p[left_p[j]], amount))
    rows.extend((span, None) for copies in copies_r for span in copies)
    rows.extend((None, span) for copies in copies_p for span in copies)
    return rows


def _dense_pairs(
    references: list[Span], predictions: list[Span], room_r: list[int], room_p: list[int], min_overlap: float | None
) -> tuple[list[int], list[int]] | None:
    """The pairs (reference indices, prediction indices) of a dense sentence without copies, by
    `dense.dense_pairs`, its overlapping pairs never listed (issue 31, item 7); None for any other sentence."""
    columns = dense.dense_columns(references, predictions, max(room_r + room_p, default=1) > 1)
    if columns is None:
        return None
    found = dense.dense_pairs(columns[:3], columns[3:], min_overlap)
    return None if found is None else (found[0].tolist(), found[1].tolist())


def components(edges: list[tuple[int, int]], references: int, predictions: int) -> list[list[tuple[int, int]]]:
    """`connected(edges)`, by scipy's labels on many edges, where union-find's Python loop costs most."""
    if len(edges) <= LARGE_COMPONENT_EDGES:
        return connected(edges)
    from . import large_components

    pairs = np.array(edges, np.int64).reshape(-1, 2)
    labels = large_components.component_labels(pairs[:, 0], pairs[:, 1], references, predictions)
    return connected(edges, labels.tolist())


def _take(copies_r: list[Span], copies_p: list[Span], count: int) -> list[tuple[Span | None, Span | None]]:
    """`count` pairs of the last copies of two entities, taken off their lists."""
    if count <= 0:
        return []
    pairs: list[tuple[Span | None, Span | None]] = list(zip(copies_r[-count:], copies_p[-count:]))
    del copies_r[-count:], copies_p[-count:]
    return pairs


def best_flow(
    references: Sequence[Span],
    predictions: Sequence[Span],
    edges: list[tuple[int, int]],
    room_r: Sequence[int],
    room_p: Sequence[int],
    weighing: Any = None,
) -> dict[tuple[int, int], int]:
    """The docs/scoring.md §3 pairing of one connected component of the overlap graph of distinct entities
    (`references[i]` standing for `room_r[i]` identical copies, likewise for predictions, both in (start, end,
    type) order) as {edge (i, j): number of pairs}.

    Each edge gets an integer weight whose digits, from the most significant, count: a pair with identical
    boundaries, a pair, a pair of one type, the shared extent (the pairs of identical boundaries and type are
    made before, `_pair_nested`). Each digit's total over a pairing is below its radix (the most pairs a
    component can hold, the extent of all its reference copies), so a pairing of largest total weight is a best
    one by rule 1, then (a), (b), (c). Rule (d) is `_rule_d`'s.

    With `weighing` (the value's `WeightTable`), the value score's pairing (docs/scoring.md §10) by the same
    solvers: its weights (`weighing.digits`), and on a large component without copies its compiled solver's
    choice (`weighing.large_mask`)."""
    if len(edges) == 1:
        (i, j), *_ = edges
        return {(i, j): min(room_r[i], room_p[j])}
    reference_indices = {i for i, _ in edges}
    prediction_indices = {j for _, j in edges}
    radix, extent_radix = radices(references, edges, room_r, room_p)
    most_pairs = radix - 1
    no_copies = all(room_r[i] == 1 for i in reference_indices) and all(room_p[j] == 1 for j in prediction_indices)
    # scipy's solvers read extents (`large_components.span_columns`): discontinuous ones (docs/scoring.md §12) don't.
    arrays_read = not any_fragmented(
        [references[i] for i in reference_indices], [predictions[j] for j in prediction_indices]
    )
    large = arrays_read and most_pairs > 1 and len(edges) > LARGE_COMPONENT_EDGES
    if large and no_copies:
        from . import large_components

        pairs = np.array(edges, np.int64).reshape(-1, 2)
        if weighing is None:
            arrays = large_components.span_columns(references, predictions)
            chosen = large_components.best_pairs(arrays, pairs[:, 0], pairs[:, 1], radix, extent_radix)
        else:
            chosen = weighing.large_mask(references, predictions, pairs[:, 0], pairs[:, 1])
        if chosen is not None:
            return {edges[k]: 1 for k in np.flatnonzero(chosen).tolist()}
    if large and not no_copies:
        unfolded = unfolded_flow(references, predictions, edges, room_r, room_p, partial(best_flow, weighing=weighing))
        if unfolded is not None:
            return unfolded
    if weighing is None:
        digits = _digits(references, predictions, edges, radix, extent_radix, arrays_read)
    else:
        digits = weighing.digits(references, predictions, edges, room_r, room_p)
    if most_pairs == 1:  # one pair at most: the heaviest edge, the first of equals (rule (d)'s order, as sorted)
        return {max(sorted(edges), key=digits.__getitem__): 1}
    if no_copies:
        return smallest_best(digits)
    return smallest_best(digits, {i: room_r[i] for i in reference_indices}, {j: room_p[j] for j in prediction_indices})


def radices(
    references: Sequence[Span],
    edges: list[tuple[int, int]],
    room_r: Sequence[int] | None = None,
    room_p: Sequence[int] | None = None,
) -> tuple[int, int]:
    """The radices of a component's digits (`best_flow`'s, `value.value_digits`'), its entities counted with their
    copies (`room_r`, `room_p`; one each where not given): the most pairs it can hold + 1, the units of its
    reference copies + 1 (each digit's total over a flow stays below its radix)."""
    rows, columns = {i for i, _ in edges}, {j for _, j in edges}
    copies_r = (lambda i: 1) if room_r is None else room_r.__getitem__
    copies_p = (lambda j: 1) if room_p is None else room_p.__getitem__
    most_pairs = min(sum(map(copies_r, rows)), sum(map(copies_p, columns)))
    return most_pairs + 1, sum(copies_r(i) * references[i].units for i in rows) + 1


def unfolded_flow(references, predictions, edges, room_r, room_p, solve=best_flow) -> dict[tuple[int, int], int] | None:
    """`solve` (`best_flow`, §3's or the value's) of a large component with each copy an entity of its own (rule (d)'s
    order) for scipy's solvers, folded back; None past the budget (`UNFOLDED_FACTOR`), an error where they'd not fit."""
    owners = [  # each copy's entity, on each side (as many as the folded flow's paths, at most)
        [index for index in sorted({edge[side] for edge in edges}) for _ in range(rooms[index])]
        for side, rooms in enumerate((room_r, room_p))
    ]
    copy_pairs = sum(room_r[i] * room_p[j] for i, j in edges)
    if not unfolding_admitted(copy_pairs, len(edges), min(map(len, owners))):
        return None
    check_pairs_fit(copy_pairs, sum(room_r), sum(room_p), PYTHON_PAIR_BYTES)
    firsts = [{index: at for at, index in reversed(list(enumerate(owner)))} for owner in owners]
    copies_r, copies_p = ([spans[index] for index in owner] for spans, owner in zip((references, predictions), owners))
    pairs = [(firsts[0][i] + a, firsts[1][j] + b) for i, j in edges for a in range(room_r[i]) for b in range(room_p[j])]
    amounts: dict[tuple[int, int], int] = {}
    for (a, b), amount in solve(copies_r, copies_p, pairs, [1] * len(owners[0]), [1] * len(owners[1])).items():
        amounts[owners[0][a], owners[1][b]] = amounts.get((owners[0][a], owners[1][b]), 0) + amount
    return amounts


def smallest_best(
    weights: Mapping[tuple[int, int], int],
    room_r: Mapping[int, int] | None = None,
    room_p: Mapping[int, int] | None = None,
) -> dict[tuple[int, int], int]:
    """Rule (d)'s flow among those of largest total `weights` (`_rule_d`'s), as {edge: amount}: by trying every
    pairing for a few edges without copies (`_enumerated`). Entities are indexed in (start, end, type) order, so
    edges sort as rule (d) compares them."""
    ranked = sorted(weights)
    if room_r is None and room_p is None and len(ranked) <= _ENUMERATED_EDGES:
        return dict.fromkeys(_enumerated(weights, ranked), 1)
    return _rule_d(weights, {edge: rank for rank, edge in enumerate(ranked)}, room_r, room_p)


def _digits(
    references: Sequence[Span],
    predictions: Sequence[Span],
    edges: list[tuple[int, int]],
    radix: int,
    extent_radix: int,
    arrays_read: bool = True,
) -> dict[tuple[int, int], int]:
    """`best_flow`'s weight of each edge: digits for identical boundaries, a pair, a pair of one type (each of
    `radix`) and the shared extent (of `extent_radix`). A digit equal on every edge adds the same to every
    pairing of as many pairs (0, or the number of pairs, which the pair digit counts already), so it is left
    out: shorter weights, which scipy's solvers need to hold exactly (`large_components.best_pairs`), in the same
    order. On many edges the digits are worked out with numpy where the largest fits an int64."""
    from . import large_components

    if arrays_read and len(edges) > LARGE_COMPONENT_EDGES and large_components.digits_fit(radix, extent_radix):
        pairs = np.array(edges, np.int64).reshape(-1, 2)
        arrays = large_components.span_columns(references, predictions)
        numbers = large_components.edge_digits(arrays, pairs[:, 0], pairs[:, 1], radix, extent_radix)
        return dict(zip(edges, numbers.tolist()))
    kinds = {}
    for i, j in edges:
        reference, prediction = references[i], predictions[j]
        same_bounds = reference.same_bounds(prediction)
        kinds[i, j] = (same_bounds, reference.entity_type == prediction.entity_type)
    bounds_radix = radix if len({bounds for bounds, _ in kinds.values()}) > 1 else 0
    type_radix = 1 if len({same_type for _, same_type in kinds.values()}) > 1 else 0
    digits: dict[tuple[int, int], int] = {}
    for (i, j), (same_bounds, same_type) in kinds.items():
        tiers = ((same_bounds * bounds_radix + 1) * radix + same_type) if type_radix else same_bounds * bounds_radix + 1
        digits[i, j] = tiers * extent_radix + references[i].overlap(predictions[j])
    return digits


# A component of at most this many edges (and no copies) is solved by trying every pairing (`_enumerated`).
_ENUMERATED_EDGES = 8


def _enumerated(weights: Mapping[tuple[int, int], int], ranked: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Of the matchings of largest total `weights`, the one whose edges come first in `ranked` (rule (d)), by
    trying every matching: the nested entities of ordinary documents make components of a few edges, for which
    this costs less than setting up the assignment solver. Matchings of equal weight have as many pairs
    (`best_flow`'s digits), so of two of them the one whose ranks, sorted, form the smaller list wins."""
    options: dict[int, list[tuple[int, int, int]]] = {}
    for rank, (i, j) in enumerate(ranked):
        options.setdefault(i, []).append((rank, j, weights[i, j]))
    rows = list(options.values())
    best: tuple[int, list[int]] = (-1, [])

    def visit(row: int, used: frozenset[int], total: int, chosen: list[int]) -> None:
        nonlocal best
        if row == len(rows):
            key = (total, [-rank for rank in sorted(chosen)])
            if key > best:
                best = key
            return
        visit(row + 1, used, total, chosen)
        for rank, j, weight in rows[row]:
            if j not in used:
                visit(row + 1, used | {j}, total + weight, [*chosen, rank])

    visit(0, frozenset(), 0, [])
    return [ranked[-negated] for negated in best[1]]


# Rule (d) gives this many edges a bit of their own at a time (`_rule_d`).
_BLOCK_EDGES = 64


def _rule_d(
    weights: Mapping[tuple[int, int], int],
    rank: Mapping[tuple[int, int], int],
    room_r: Mapping[int, int] | None = None,
    room_p: Mapping[int, int] | None = None,
    block_size: int = 0,
) -> dict[tuple[int, int], int]:
    """Of the flows of largest total `weights` (positive integers) that carry at most `room_r[i]` pairs at
    reference i and `room_p[j]` at prediction j (1 where not given), the one rule (d) prefers, as {edge: amount}:
    the one whose edges, each listed as often as it carries and sorted by `rank` (0 for the edge of smallest
    (reference start, end, type, prediction start, end, type)), form the smallest list. Of two lists of as many
    pairs, the smaller is the one that holds more copies of the smallest edge whose amounts differ.

    Below the weights each edge gets a weight of its own that exceeds what all the edges of larger rank can add
    up to (a bit each, when every room is 1), the largest for the smallest rank. Flows equal on the weights have
    as many pairs, and of two of them the larger sum is the one that carries more of the smallest edge whose
    amounts differ: the smaller list. No two flows have the same sum, so the answer is unique.

    A weight of its own for every edge makes weights as long as the graph has edges, and a long weight costs in
    every step, so they go a block at a time (`block_size`, at first `_BLOCK_EDGES`), the smallest ranks first.
    The flows best by the weights and the first block's share all carry the same amounts on the block, the ones
    the flow found carries: those are taken, the other edges of the block dropped. What remains to choose is
    among the edges whose potentials add up to their weight ("tight") whose ends have room left, filling every
    entity of non-zero potential (the complementary slackness of the flow's linear programme): each connected
    group of those edges goes on in the same way, with a weight that counts the entities of non-zero potential
    it fills and the next block's share. An entity around a whole document ties all the rest into one group until
    a block holds the edge it takes; while a group keeps more than half the edges its blocks double, so that
    takes a few rounds, not one per block."""
    block_size = block_size or _BLOCK_EDGES
    room_r = room_r if room_r is not None else {i: 1 for i, _ in weights}
    room_p = room_p if room_p is not None else {j: 1 for _, j in weights}
    ranked = sorted(weights, key=rank.__getitem__)
    block = ranked[:block_size]
    share, scale = rank_shares(block, {(i, j): min(room_r[i], room_p[j]) for i, j in block})
    staged = {edge: weight * scale + share.get(edge, 0) for edge, weight in weights.items()}  # shares below weights
    flow, row_potential, column_potential = max_weight_flow(staged, room_r, room_p)
    candidates = ranked[block_size:]
    if len(ranked) <= block_size:
        return flow
    taken = {edge: flow[edge] for edge in block if edge in flow}
    left_r, left_p = dict(room_r), dict(room_p)
    for (i, j), amount in taken.items():
        left_r[i] -= amount
        left_p[j] -= amount
    tight = [
        (i, j)
        for i, j in candidates
        if left_r[i] and left_p[j] and row_potential[i] - column_potential.get(j, 0) == staged[i, j]
    ]
    rest = {edge: flow[edge] for edge in tight if edge in flow}
    must_pair = {("r", i) for i, potential in row_potential.items() if potential > 0}
    must_pair |= {("p", j) for j, potential in column_potential.items() if potential < 0}
    pairs = taken
    for group in connected(usable_edges(tight, rest, must_pair, left_r, left_p)):
        if len(group) == 1:  # a tight edge has an end that must fill, and nothing else to fill it with
            pairs[group[0]] = rest[group[0]]
            continue
        coverage = {(i, j): (("r", i) in must_pair) + (("p", j) in must_pair) for i, j in group}
        group_r = {i: left_r[i] for i, _ in group}
        group_p = {j: left_p[j] for _, j in group}
        size = 2 * block_size if 2 * len(group) > len(ranked) else _BLOCK_EDGES
        pairs.update(_rule_d(coverage, rank, group_r, group_p, size))
    return pairs


# A component of more edges than this, without copies, goes to scipy's solvers where its weights fit
# (`large_components.best_pairs`); smaller ones cost less in the pure-Python one than in setting up arrays.
LARGE_COMPONENT_EDGES = 200
# One with copies goes there, copies entities of their own (`unfolded_flow`, `value_arrays.unfolded`), where they
# pair at most 8 times its edges (a copy pair's peak is an eighth of an edge's in the exact flow), 1,000,000 or the
# folded flow's work (a path over the edges per copy paired); thousands of copies of one stay folded.
UNFOLDED_FACTOR, UNFOLDED_PAIRS, UNFOLDED_WORK = 8, 1_000_000, 1


def unfolding_admitted(copy_pairs: int, edges: int, paired: int) -> bool:
    """Whether a large component of `edges` edges between entities with copies, whose copies make `copy_pairs` pairs
    and at most `paired` pairs, goes to scipy's solvers with each copy an entity of its own (the budget above): the
    one rule of §3's and the value's pairings, readable (`unfolded_flow`) and on arrays (`value_arrays.unfolded`)."""
    return copy_pairs <= max(UNFOLDED_FACTOR * edges, UNFOLDED_PAIRS, UNFOLDED_WORK * paired * edges)


def rank_shares(ranked: Sequence[Hashable], room: Mapping[Any, int] | None = None) -> tuple[dict[Any, int], int]:
    """A share of its own for each item of `ranked`, exceeding what all the items after it can add up to, each
    taken at most its `room` times (1 where not given: then the shares are the bits of a number of one bit per
    item, the highest for the first); and the scale above every sum of them. Of two selections, the larger sum
    of shares is the one that takes more of the first item whose numbers differ (rule (d)'s smaller list)."""
    share: dict[Any, int] = {}
    total = 0  # the most the items after the current one can add up to
    for item in reversed(ranked):
        share[item] = total + 1
        total += (1 if room is None else room[item]) * (total + 1)
    return share, total + 1
