"""The array path of the pairing of nested, overlapping or repeated entities (docs/scoring.md §3), for many
sentences at once: what `rules._pair_nested` does one sentence at a time, with numpy, up to the components
that need the exact solver.

Each side is folded into its distinct entities with their numbers of copies; rule 1's pairs of identical
boundaries and type are made directly (min(k, m) at each entity found on both sides); the overlap edges of the
entities left are found among the pairs of one sentence, and the overlap graph is split into connected
components by label propagation. Most components of ordinary nested documents are one edge (its two entities
pair, as many copies as both have) or can hold one pair only (the heaviest edge by §3's priorities, the first by
rule (d) of equals): both are solved on the arrays. Only the others go to `pairing.best_flow`, one by one, or,
when large and without copies, to `large_components.best_matching` straight from the arrays. Sentences whose
entities would give too many pairs to try all of them have their overlaps found from the sorted starts
(`_overlapping_pairs`) and their components by scipy (`large_components.component_labels`). The result is the
same rows, as counts; tests/test_span_arrays.py and tests/test_component_arrays.py check it against `pair`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from ..errors import InvalidInputError, located
from ..grouping import group_bounds, ranges, run_bounds, run_starts
from ..pairing import rules as pairing
from ..pairing.dense import dense_sentences
from ..pairing.overlaps import FLOOR
from ..pairing.rules import Scenario, best_flow
from ..pairing.staircase import staircase_pairs, started_within
from ..pairing.value_arrays import folded, pair_rows, unfolded
from ..span import Span
from .tag_arrays import FlatSpans, PairColumns

# A sentence whose distinct entities would make more pairs than this (references x predictions) goes to `pair`,
# which finds its overlaps by a sweep: all pairs of a sentence are tried here, which is cheap for a few dozen
# entities and quadratic in them.
_PAIRS_PER_SENTENCE = 1 << 12


def nested_rows(
    references: FlatSpans,
    predictions: FlatSpans,
    sentence_r: np.ndarray,
    sentence_p: np.ndarray,
    min_overlap: float | None,
    positions: bool = False,
) -> PairColumns:
    """The rows (scenario index, reference type id, predicted type id; -1 for no entity) of the pairing of
    sentences given as entities sorted by (start, end) with the sentence of each, every sentence at positions of
    its own (no entity of one overlaps an entity of another). With `positions`, the rows as `pair_flat` gives them
    (`PairColumns`): then the reference's and the prediction's start and end too (-1 on an unpaired side)."""
    out: list[PairColumns] = []
    classes_r, classes_p = _classes(references, sentence_r), _classes(predictions, sentence_p)
    sentences = sentences_of(sentence_r, sentence_p)
    per_r = np.bincount(classes_r.sentence, minlength=sentences)
    per_p = np.bincount(classes_p.sentence, minlength=sentences)
    large = per_r * per_p > _PAIRS_PER_SENTENCE
    out.append(_same_entities(classes_r, classes_p))
    classes_r, classes_p = classes_r.select(classes_r.count > 0), classes_p.select(classes_p.count > 0)
    if large.any() and min_overlap is None:
        # Staircases are paired from their runs, without listing their pairs (issue 31, item 7).
        stairs = large & _staircases(classes_r, classes_p, sentences)
        if stairs.any():
            in_r, in_p = stairs[classes_r.sentence], stairs[classes_p.sentence]
            solved = _staircase_rows(classes_r.select(in_r), classes_p.select(in_p))
            if solved is not None:
                out.extend(solved)
                classes_r, classes_p = classes_r.select(~in_r), classes_p.select(~in_p)
                large &= ~stairs
    if large.any():
        # Dense sentences are paired on the matrix of their weights, without listing their pairs (issue 31, item 7).
        r, p = classes_r, classes_p
        matrix_paired, i, j = dense_sentences(
            (r.start, r.end, r.type_id, r.sentence, r.count),
            (p.start, p.end, p.type_id, p.sentence, p.count),
            large,
            min_overlap,
        )
        if matrix_paired.any():
            in_r, in_p = matrix_paired[r.sentence], matrix_paired[p.sentence]
            i, j = (np.cumsum(in_r) - 1)[i], (np.cumsum(in_p) - 1)[j]
            out.extend(_chosen_rows(r.select(in_r), p.select(in_p), i, j))
            classes_r, classes_p = r.select(~in_r), p.select(~in_p)
            large &= ~matrix_paired
    if large.any():
        big_r, big_p = large[classes_r.sentence], large[classes_p.sentence]
        out.extend(_paired_classes(classes_r.select(big_r), classes_p.select(big_p), min_overlap, large=True))
        classes_r, classes_p = classes_r.select(~big_r), classes_p.select(~big_p)
    out.extend(_paired_classes(classes_r, classes_p, min_overlap))
    return tuple(np.concatenate([rows[column] for rows in out]) for column in range(7 if positions else 3))


@dataclass(frozen=True)
class _Classes:
    """The distinct entities of one side in (start, end, type) order, each with its sentence and its number of
    copies (`count`, lowered in place as copies pair)."""

    start: np.ndarray
    end: np.ndarray
    type_id: np.ndarray
    sentence: np.ndarray
    count: np.ndarray

    def select(self, keep: np.ndarray) -> _Classes:
        return _Classes(self.start[keep], self.end[keep], self.type_id[keep], self.sentence[keep], self.count[keep])


def _classes(spans: FlatSpans, sentence: np.ndarray) -> _Classes:
    return _Classes(*folded(spans.start, spans.end, spans.type_id, spans.type_id, sentence))


def _same_entities(references: _Classes, predictions: _Classes) -> PairColumns:
    """Rule 1's pairs of identical boundaries and type: min(k, m) at each entity of both sides (every best
    pairing makes exactly these), taken off both sides' counts."""
    size = len(references.start)
    start = np.concatenate((references.start, predictions.start))
    end = np.concatenate((references.end, predictions.end))
    type_id = np.concatenate((references.type_id, predictions.type_id))
    side = np.repeat([0, 1], [size, len(predictions.start)])
    order = np.lexsort((side, type_id, end, start))
    first, second = order[:-1], order[1:]
    twins = (
        (start[first] == start[second])
        & (end[first] == end[second])
        & (type_id[first] == type_id[second])
        & (side[first] == 0)
        & (side[second] == 1)
    )
    i, j = first[twins], second[twins] - size
    count = np.minimum(references.count[i], predictions.count[j])
    references.count[i] -= count
    predictions.count[j] -= count
    types = np.repeat(references.type_id[i], count)
    starts, ends = np.repeat(references.start[i], count), np.repeat(references.end[i], count)
    return np.full(len(types), Scenario.I, dtype=np.int64), types, types, starts, ends, starts, ends


def _paired_classes(
    references: _Classes, predictions: _Classes, min_overlap: float | None, large: bool = False
) -> list[PairColumns]:
    """The rows of the entities left after `_same_entities`, none of which has a twin of its type. `large`:
    sentences of many entities, whose overlaps are found by a sweep (`_overlapping_pairs`) rather than among all
    their pairs, and whose components by scipy rather than by label propagation (whose rounds grow with a
    component's diameter, a chain of thousands of entities)."""
    if large:
        i, j = _overlapping_pairs(references, predictions)
    else:
        i, j = _candidate_pairs(references.sentence, predictions.sentence)
    keep = _shared(references, predictions, i, j) > 0
    if min_overlap is not None:
        keep &= pairing.overlap_kept(
            _shared(references, predictions, i, j), references.end[i] - references.start[i], min_overlap
        )
    if not keep.all():  # (no copy of a million pairs that all overlap)
        i, j = i[keep], j[keep]
    del keep
    same_bounds = (references.start[i] == predictions.start[j]) & (references.end[i] == predictions.end[j])
    same_type = references.type_id[i] == predictions.type_id[j]
    size = len(references.start)
    edge_component = edge_components(i, j, size, len(predictions.start), by_scipy=large)
    components = int(edge_component.max(initial=-1)) + 1
    edges = np.bincount(edge_component, minlength=components)
    # Each entity once per component: its first edge.
    first_r, first_p = _one_edge_each(i, size), _one_edge_each(j, len(predictions.start))
    room_r = np.bincount(edge_component[first_r], weights=references.count[i[first_r]], minlength=components)
    room_p = np.bincount(edge_component[first_p], weights=predictions.count[j[first_p]], minlength=components)
    most_pairs = np.minimum(room_r, room_p)
    # 4 bytes a pair where every entity's copies fit (issue 31, item 7).
    counted = max(int(references.count.sum()), int(predictions.count.sum()))
    amount_type: Any = np.int32 if counted < 2**31 else np.int64
    amount = np.zeros(len(i), dtype=amount_type)
    single = edges[edge_component] == 1
    amount[single] = np.minimum(references.count[i[single]], predictions.count[j[single]])
    # A component that holds one pair at most takes its heaviest edge by rule 1 and (a)-(c), the first of equals
    # in (reference, prediction) order, which is rule (d)'s (entities are in (start, end, type) order).
    one = (most_pairs[edge_component] == 1) & ~single
    if one.any():
        ones = np.flatnonzero(one)
        shared = _shared(references, predictions, i[ones], j[ones])
        order = ones[
            np.lexsort((j[ones], i[ones], -shared, ~same_type[ones], ~same_bounds[ones], edge_component[ones]))
        ]
        leaders = order[run_starts(edge_component[order])]
        amount[leaders] = 1
    general = ~single & ~one
    two = (np.bincount(edge_component[first_r], minlength=components) == 2) & (room_r == 2)
    two &= (np.bincount(edge_component[first_p], minlength=components) == 2) & (room_p == 2)
    square = general & two[edge_component]
    if square.any():
        shared = np.zeros(len(i), np.int64)
        shared[square] = _shared(references, predictions, i[square], j[square])
        amount[square] = _two_by_two(references, i, j, shared, same_bounds, same_type, edge_component, square)
        del shared
        general &= ~square
    if general.any():
        amount[general] = _general_flows(references, predictions, i, j, edge_component, general)
    # Each row with both entities' bounds (-1 on an unpaired side), which `nested_rows` keeps with `positions`;
    # no pair is of scenario I (rule 1 took every pair of identical entities, `_same_entities`).
    return [pair_rows(_side_columns(references), _side_columns(predictions), i, j, amount)]


def _side_columns(classes: _Classes) -> tuple[np.ndarray, ...]:
    """One side's distinct entities as `value_arrays.pair_rows` takes them: start, end, type id, copies."""
    return classes.start, classes.end, classes.type_id, classes.count


def _staircases(references: _Classes, predictions: _Classes, sentences: int) -> np.ndarray:
    """Which sentences are staircases (`pairing.staircase`): entities of one type, one copy each, whose ends never
    decrease on either side in (start, end) order. What is left after rule 1's pairs (`_same_entities`) then
    holds no pair of identical boundaries either, so §3's weights are the shared extent below a pair."""
    bad = np.zeros(sentences, bool)
    first_type = np.full(sentences, -1, np.int64)
    for side in (references, predictions):
        first_type[side.sentence] = side.type_id
    for side in (references, predictions):
        bad[side.sentence[side.count != 1]] = True
        bad[side.sentence[side.type_id != first_type[side.sentence]]] = True
        same = side.sentence[1:] == side.sentence[:-1]
        bad[side.sentence[1:][same & (side.end[1:] < side.end[:-1])]] = True
    return ~bad


def _staircase_rows(references: _Classes, predictions: _Classes) -> list[PairColumns] | None:
    """The rows of staircase sentences (`_staircases`; placed apart, so one programme runs over all of them and
    pairs none across two: sentences are independent, so the best of all is the best of each), paired by
    `staircase.staircase_pairs` on the runs; None where it finds none (totals beyond an int64, or runs so short
    that listed pairs cost less)."""
    pairs = staircase_pairs(references.start, references.end, predictions.start, predictions.end)
    return None if pairs is None else _chosen_rows(references, predictions, *pairs)


def _chosen_rows(references: _Classes, predictions: _Classes, i: np.ndarray, j: np.ndarray) -> list[PairColumns]:
    """The rows of entities of one copy each of which the pairs (i[k], j[k]) are chosen, the others unpaired."""
    return [pair_rows(_side_columns(references), _side_columns(predictions), i, j, np.ones(len(i), np.int64))]


def _shared(references: _Classes, predictions: _Classes, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """The extent each pair (i[k], j[k]) shares, worked out where it is needed rather than kept beside the pairs:
    8 bytes a pair less at the peak of a dense sentence (issue 31, item 7)."""
    return np.minimum(references.end[i], predictions.end[j]) - np.maximum(references.start[i], predictions.start[j])


def _one_edge_each(ends: np.ndarray, nodes: int) -> np.ndarray:
    """An edge of each entity that has one (which of them does not matter: they are of one component), without
    sorting the edges (millions of them in an onion)."""
    edge = np.full(nodes, -1, np.int64)
    edge[ends] = np.arange(len(ends))
    return edge[edge >= 0]


def _two_by_two(
    references: _Classes,
    i: np.ndarray,
    j: np.ndarray,
    shared: np.ndarray,
    same_bounds: np.ndarray,
    same_type: np.ndarray,
    edge_component: np.ndarray,
    square: np.ndarray,
) -> np.ndarray:
    """The amounts (0 or 1) of the edges flagged `square`: components of two references a < b and two
    predictions c < d, one copy each, the commonest components of nested documents that can hold two pairs.
    Their pairings are {ac, bd}, {ad, bc} and the single edges; each is scored by `pairing.best_flow`'s digits
    (identical boundaries, pairs, same type, shared extent, radix 3 for the counts, the references' extent + 1
    for the extent), and the first of the best in the order ac-bd, ad-bc, ac, ad, bc, bd wins, which is rule
    (d)'s: edges sort ac < ad < bc < bd."""
    edges = np.flatnonzero(square)
    component, local = np.unique(edge_component[edges], return_inverse=True)
    lowest_i = np.full(len(component), np.iinfo(np.int64).max)
    lowest_j = np.full(len(component), np.iinfo(np.int64).max)
    np.minimum.at(lowest_i, local, i[edges])
    np.minimum.at(lowest_j, local, j[edges])
    slot = 2 * (i[edges] != lowest_i[local]) + (j[edges] != lowest_j[local])  # ac, ad, bc, bd
    length = (references.end - references.start)[i[edges]]
    # The references' extent, each once: a reference's length appears once per edge it has.
    degree = np.zeros((len(component), 2), dtype=np.int64)
    np.add.at(degree, (local, slot // 2), 1)
    per_reference = np.zeros((len(component), 2), dtype=np.int64)
    np.add.at(per_reference, (local, slot // 2), length)
    radix = (per_reference // np.maximum(degree, 1)).sum(axis=1) + 1
    tiers = (same_bounds[edges].astype(np.int64) * 3 + 1) * 3 + same_type[edges]
    weight = np.full((len(component), 4), -1, dtype=np.int64)
    weight[local, slot] = tiers * radix[local] + shared[edges]
    missing = weight < 0
    both = np.where(missing[:, [0, 1]] | missing[:, [3, 2]], -1, weight[:, [0, 1]] + weight[:, [3, 2]])
    choice = np.argmax(np.concatenate((both, weight), axis=1), axis=1)  # the first of the largest
    chosen = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    amounts = np.zeros(len(square), dtype=np.int64)
    amounts[edges] = chosen[choice][local, slot]
    return amounts[square]


def _candidate_pairs(sentence_r: np.ndarray, sentence_p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every (reference, prediction) of one sentence, both sides sorted by sentence."""
    sentences = sentences_of(sentence_r, sentence_p)
    per_p = np.bincount(sentence_p, minlength=sentences)
    first_p = np.cumsum(per_p) - per_p
    return ranges(first_p[sentence_r], per_p[sentence_r])


def _overlapping_pairs(references: _Classes, predictions: _Classes) -> tuple[np.ndarray, np.ndarray]:
    """Every (reference, prediction) that share a position, both sides sorted by start (sentences lie at
    positions of their own, so no pair spans two), once `check_pairs_fit` says they fit in memory."""
    from ..pairing.staircase import overlapping_pairs

    r_start, r_end, p_start, p_end = references.start, references.end, predictions.start, predictions.end
    check_pairs_fit(
        (r_start, r_end, references.sentence),
        (p_start, p_end, predictions.sentence),
        (references.sentence, references.count),
        (predictions.sentence, predictions.count),
    )
    return overlapping_pairs(r_start, r_end, p_start, p_end)


def check_pairs_fit(
    pieces_r: tuple[np.ndarray, np.ndarray, np.ndarray],
    pieces_p: tuple[np.ndarray, np.ndarray, np.ndarray],
    copies_r: tuple[np.ndarray, np.ndarray],
    copies_p: tuple[np.ndarray, np.ndarray],
) -> None:
    """`pairing.check_pairs_fit` before the pairs of a batch are listed, located at the sentence with the most
    pairs: an `InvalidInputError`, never a MemoryError, where they would not fit in memory. `pieces_r`: the start,
    end and sentence of each reference (or fragment of one, docs/scoring.md §12), sorted by start, `pieces_p`
    likewise; `copies_r`: the sentence and copies of each distinct reference, `copies_p` likewise."""
    _, width_r, _, width_p = started_within(pieces_r[0], pieces_r[1], pieces_p[0], pieces_p[1])
    total = int(width_r.sum()) + int(width_p.sum())
    if total * pairing.ARRAY_PAIR_BYTES < FLOOR:
        return
    sentences = sentences_of(pieces_r[2], pieces_p[2])
    per_sentence = np.bincount(pieces_r[2], weights=width_r, minlength=sentences)
    per_sentence += np.bincount(pieces_p[2], weights=width_p, minlength=sentences)
    worst = int(per_sentence.argmax())
    count_r, count_p = (int(count[sentence == worst].sum()) for sentence, count in (copies_r, copies_p))
    try:
        pairing.check_pairs_fit(total, count_r, count_p, pairing.ARRAY_PAIR_BYTES)
    except InvalidInputError as error:
        raise error.at(sentence=worst) from None


def sentences_of(sentence_r: np.ndarray, sentence_p: np.ndarray) -> int:
    """How many sentences both sides' rows (each row's sentence, `sentence_r` and `sentence_p`) span: one past the
    last sentence either names, 0 for no row."""
    return int(max(sentence_r.max(initial=-1), sentence_p.max(initial=-1))) + 1


def sentences_apart(
    sentences: int, sides: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]], limit: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """Each of `sentences` sentences moved to positions of its own, translated by its first start to right after
    the end of the sentence before: each sentence's first position (`shift`, and the last position after them) and
    how far it moves (`move`), of the (sentence, start, end) of every entity or fragment of `sides`; None where the
    positions would reach `limit` (at most 2**62; the readable path then pairs them, at any offset). Pairing depends
    only on differences of offsets within a sentence (overlaps and lengths, docs/scoring.md §3), so a translation
    changes nothing, and positions stay small whatever the offsets: a sentence at 2**62 needs only its own extent."""
    low = np.full(sentences, np.iinfo(np.int64).max, dtype=np.int64)
    high = np.zeros(sentences, dtype=np.int64)
    for sentence, start, end in sides:
        np.minimum.at(low, sentence, start)
        np.maximum.at(high, sentence, end)
    low = np.minimum(low, high)  # a sentence without entities takes no room
    extent = high - low  # 0 <= low <= high < 2**63: never wraps
    if extent.max(initial=0) >= limit:
        return None
    shift = group_bounds(extent)
    # Each extent below `limit` <= 2**62: the sums pass `limit` before any could wrap past 2**63.
    if shift.max() >= limit:
        return None
    return shift, shift[:-1] - low


def propagated_labels(nodes: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A label per node, equal within a connected component of the graph of edges (a, b): the smallest node of
    the component, by label propagation and pointer jumping (rounds grow with the components' diameter, which the
    sentences' bound on pairs keeps small)."""
    label = np.arange(nodes)
    while True:
        lowest = np.minimum(label[a], label[b])
        new = label.copy()
        np.minimum.at(new, a, lowest)
        np.minimum.at(new, b, lowest)
        new = new[new]
        if np.array_equal(new, label):
            return label
        label = new


def _general_flows(
    references: _Classes,
    predictions: _Classes,
    i: np.ndarray,
    j: np.ndarray,
    edge_component: np.ndarray,
    general: np.ndarray,
) -> np.ndarray:
    """The amounts of the edges flagged `general`, solved component by component by `pairing.best_flow` (or,
    large and without copies, `_large_component_amounts`)."""
    if general.all() and len(i) > pairing.LARGE_COMPONENT_EDGES and edge_component.min() == edge_component.max():
        # One component holds every pair (a dense sentence): solved on the pairs as they are, no copy of them
        # (issue 31, item 7).
        solved = _large_component_amounts(references, predictions, i, j)
        if solved is not None:
            return solved
    columns_r = references.start.tolist(), references.end.tolist(), references.type_id.tolist()
    columns_p = predictions.start.tolist(), predictions.end.tolist(), predictions.type_id.tolist()
    counts_r, counts_p = references.count.tolist(), predictions.count.tolist()

    def span(side: int, index: int) -> Span:
        return Span(*(column[index] for column in (columns_r, columns_p)[side]))

    def large(edges: np.ndarray) -> np.ndarray | None:
        return _large_component_amounts(references, predictions, i[edges], j[edges])

    picked = np.flatnonzero(general)
    return flows_by_component(i, j, picked, edge_component, span, (counts_r, counts_p), large)[general]


def edge_components(i: np.ndarray, j: np.ndarray, references: int, predictions: int, by_scipy: bool) -> np.ndarray:
    """A number naming the connected component of each edge (reference i[k] < `references`, prediction j[k] <
    `predictions`), from 0 (not every number need name one): by scipy's connected components
    (`large_components.component_labels`, whose time does not grow with a component's diameter, a chain of
    thousands of entities) or by label propagation (`propagated_labels`, no scipy to import)."""
    if by_scipy:
        from ..pairing.large_components import component_labels

        return component_labels(i, j, references, predictions)
    label = propagated_labels(references + predictions, i, j + references)[i]
    return np.unique(label, return_inverse=True)[1].reshape(-1)


def flows_by_component(
    i: np.ndarray,
    j: np.ndarray,
    picked: np.ndarray,
    edge_component: np.ndarray,
    span: Callable[[int, int], Span],
    rooms: Sequence[Sequence[int]],
    large: Callable[[np.ndarray], np.ndarray | None],
) -> np.ndarray:
    """How many pairs each edge (i[k], j[k]) of `picked` carries (0 for the others), solved component by
    component (`edge_component`): one of more than `pairing.LARGE_COMPONENT_EDGES` edges by `large` (given its
    edges' indices; on the arrays), unless it hands the component back (None), the others by `component_flow`
    (`pairing.best_flow`) of `span` and `rooms`."""
    if len(picked) and edge_component[picked].min() != edge_component[picked].max():
        picked = picked[np.argsort(edge_component[picked], kind="stable")]
    bounds = run_bounds(edge_component[picked]).tolist()
    amounts = np.zeros(len(i), dtype=np.int64)
    for first, last in pairwise(bounds):
        edges_of = picked[first:last]
        if last - first > pairing.LARGE_COMPONENT_EDGES:
            solved = large(edges_of)
            if solved is not None:
                amounts[edges_of] = solved
                continue
        amounts[edges_of] = component_flow(i[edges_of].tolist(), j[edges_of].tolist(), span, rooms)
    return amounts


def component_flow(
    edges_i: list[int], edges_j: list[int], span: Callable[[int, int], Span], rooms: Sequence[Sequence[int]]
) -> list[int]:
    """How many pairs `pairing.best_flow` gives each edge (edges_i[k], edges_j[k]) of one component: its entities
    (`span(side, index)`, 0 the references) with their copies (`rooms[side][index]`) numbered within it in the
    order of their indices, which is the order rule (d) compares."""
    local = [{index: rank for rank, index in enumerate(sorted(set(side)))} for side in (edges_i, edges_j)]
    spans_r, spans_p = ([span(side, index) for index in local[side]] for side in (0, 1))
    room_r, room_p = ([rooms[side][index] for index in local[side]] for side in (0, 1))
    edges = [(local[0][a], local[1][b]) for a, b in zip(edges_i, edges_j)]
    flow = best_flow(spans_r, spans_p, edges, room_r, room_p)
    return [flow.get(edge, 0) for edge in edges]


def _large_component_amounts(
    references: _Classes, predictions: _Classes, i: np.ndarray, j: np.ndarray
) -> np.ndarray | None:
    """The amounts of one large component's edges (i[k], j[k]) as `pairing.best_flow` gives them, by
    `large_components.best_pairs` on the arrays, without building its entities; None for one that solver hands
    back (`best_flow` then solves it). Entities are indexed in (start, end, type) order on both sides, so (i, j)
    order is rule (d)'s; copies are entities of their own (`value_arrays.unfolded`), unless there are many."""
    r, p = references, predictions
    columns = (r.start, r.end, r.type_id, p.start, p.end, p.type_id)
    copies = located(int(r.sentence[i[0]]), unfolded, columns, r.count, p.count, i, j)
    if copies is None:
        return None
    sides, local_i, local_j, edge = copies
    radix = min(len(sides[0]), len(sides[3])) + 1
    extent_radix = int((sides[1] - sides[0]).sum()) + 1
    from ..pairing.large_components import best_pairs

    chosen = best_pairs(sides, local_i, local_j, radix, extent_radix)
    if chosen is None:
        return None
    return np.bincount(edge[chosen], minlength=len(i))
