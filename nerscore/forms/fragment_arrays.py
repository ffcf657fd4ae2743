"""The array path for discontinuous entities (docs/scoring.md §12): the readable path's table of pairs of span input
with fragments, made on arrays.

Every entity is a run of fragments (a contiguous entity, one) in parallel arrays. Identical entities of a side (the
same sentence, fragments and type) are folded into one with their number of copies, in the order rule (d) compares
(fragment lists, then type); rule 1's pairs of identical fragments and type are made directly, min(k, m) of each
entity found on both sides. The overlaps of the entities left are found fragment by fragment, every sentence moved
to positions of its own (`staircase.overlapping_pairs`, linear in the fragments and the pairs of fragments
that meet), and the shared units summed per pair of entities; two entities have identical boundaries when they
share all their units and have as many (merged fragments are the union of their units, so the same units are the
same fragments). A component of one edge pairs as many copies as both have; a large one goes to scipy's matching
on the arrays (`fragment_large.large_amounts`), the others to `pairing.best_flow`, the readable path's exact solver,
one by one; a dense sentence (an onion) is paired before its pairs would be listed, without listing them
(`fragment_large.dense_sentences`). tests/test_fragment_arrays.py proves the table equal to the readable path's."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..grouping import owners, ranges
from ..options import Options
from ..pairing import rules as pairing
from ..pairing.rules import Scenario, scenario_codes
from ..pairing.value_arrays import summed_shared_units
from ..span import FragmentEntities, Span, folded_entities
from ..table.pairs import Pairs
from . import fragment_large
from .component_arrays import check_pairs_fit, edge_components, flows_by_component, sentences_apart, sentences_of
from .fragment_large import FragmentClasses
from .fragment_reading import FragmentValues, shared_types

# Positions of a batch stay below this once its sentences are moved one after another (as span_arrays' chunks).
_POSITION_LIMIT = 1 << 62


def fragment_pairs(
    read_p: FragmentValues, read_r: FragmentValues, options: Options, fragments: bool = True
) -> Pairs | None:
    """The table of pairs of a batch of entities read as fragments (docs/scoring.md §12), the readable path's
    (`readable.span_rows`); None for `pairing="hipe"` (§3a) and for positions past what the arrays hold, which the
    readable path pairs. Without `fragments`, the table leaves its entities' fragments out (the same rows, the
    extents as every table has them), for what reads scenarios and types alone."""
    if options.pairing != "optimal":
        return None
    type_names, ids, listed = shared_types(
        [(read.type_names, read.type_id) for read in (read_r, read_p)], options.labels
    )
    sides = []
    for read, type_id in zip((read_r, read_p), ids):
        sentence = owners(read.counts)
        keep = np.ones(len(type_id), dtype=bool) if listed is None else listed[type_id]
        sides.append((sentence, type_id, read.pieces, read.start, read.end, keep))
    classes_r, classes_p, twins = _folded(sides[0], sides[1])
    dense, solved = fragment_large.dense_sentences(classes_r, classes_p, options.min_overlap)
    listed_r, listed_p = (
        replace(side, count=np.where(solved[side.sentence], 0, side.count)) for side in (classes_r, classes_p)
    )
    shared = _shared_units(listed_r, listed_p)
    if shared is None:
        return None
    i, j, units = shared
    units_r, units_p = classes_r.units(), classes_p.units()
    if options.min_overlap is not None:
        kept_edges = pairing.overlap_kept(units, units_r[i], options.min_overlap)
        i, j, units = i[kept_edges], j[kept_edges], units[kept_edges]
    amount = _amounts(classes_r, classes_p, (i, j, units), (units_r, units_p), type_names)
    i, j, units = (np.concatenate((listed, found)) for listed, found in zip((i, j, units), dense))
    edges = (i, j, np.concatenate((amount, np.ones(len(dense[0]), np.int64))), units)
    return _table(classes_r, classes_p, twins, edges, units_r, units_p, type_names, len(read_r.counts), fragments)


def _folded(
    references: tuple[np.ndarray, ...], predictions: tuple[np.ndarray, ...]
) -> tuple[FragmentClasses, FragmentClasses, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Both sides' distinct entities (`FragmentClasses`) and rule 1's pairs of identical fragments and type (reference
    entity, prediction entity, how many), taken off both sides' copies: each side folded by its entities' keys
    (`span.folded_entities`: one integer per (sentence, fragments, type), in rule (d)'s order), and the keys found on
    both sides paired."""
    (folded_r, count_r, key_r), (folded_p, count_p, key_p) = folded_entities(
        FragmentEntities.of(references), FragmentEntities.of(predictions)
    )
    at = np.minimum(np.searchsorted(key_p, key_r), max(len(key_p) - 1, 0))
    found = key_p[at] == key_r if len(key_p) else np.zeros(len(key_r), dtype=bool)
    twin_r, twin_p = np.flatnonzero(found), at[found]
    paired = np.minimum(count_r[twin_r], count_p[twin_p])
    count_r[twin_r] -= paired
    count_p[twin_p] -= paired
    return _classes(folded_r, count_r), _classes(folded_p, count_p), (twin_r, twin_p, paired)


def _classes(entities: FragmentEntities, count: np.ndarray) -> FragmentClasses:
    return FragmentClasses(
        entities.sentence, entities.type_id, entities.pieces, entities.first, entities.start, entities.end, count
    )


def _shared_units(
    references: FragmentClasses, predictions: FragmentClasses
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Every (reference, prediction) of distinct entities with copies left that share a unit, with the units they
    share, summed over their fragments that meet (docs/scoring.md §12); each sentence moved to positions of its
    own. None where those positions would pass `_POSITION_LIMIT` (the readable path holds any offset)."""
    pieces = []
    for classes in (references, predictions):
        live = np.flatnonzero(classes.count > 0)
        which, at = ranges(classes.first[live], classes.pieces[live])
        owner = live[which]
        pieces.append((owner, classes.start[at], classes.end[at], classes.sentence[owner]))
    sentences = sentences_of(references.sentence, predictions.sentence)
    apart = sentences_apart(sentences, [(sentence, start, end) for _, start, end, sentence in pieces], _POSITION_LIMIT)
    if apart is None:
        return None
    move = apart[1]
    moved = []
    for owner, start, end, sentence in pieces:
        start, end = start + move[sentence], end + move[sentence]
        order = np.argsort(start, kind="stable")
        moved.append((owner[order], start[order], end[order], sentence[order]))
    (owner_r, start_r, end_r, sentence_r), (owner_p, start_p, end_p, sentence_p) = moved
    copies = [(side.sentence, side.count) for side in (references, predictions)]
    check_pairs_fit((start_r, end_r, sentence_r), (start_p, end_p, sentence_p), *copies)
    found = summed_shared_units(
        (owner_r, start_r, end_r), (owner_p, start_p, end_p), len(predictions.first), _FRAGMENT_PAIRS_AT_ONCE
    )
    return found


# Pairs of fragments listed at once at most (`value_arrays.summed_shared_units`): about 50 bytes each at the peak.
_FRAGMENT_PAIRS_AT_ONCE = 1 << 19


# Components are labelled by label propagation (`component_arrays.edge_components`, no scipy to import) up to this
# many edges, by scipy's connected components beyond (whose time does not grow with a component's diameter).
_SCIPY_EDGES = 1 << 12


def _amounts(
    references: FragmentClasses,
    predictions: FragmentClasses,
    edges: tuple[np.ndarray, np.ndarray, np.ndarray],
    units: tuple[np.ndarray, np.ndarray],
    type_names: list[str],
) -> np.ndarray:
    """How many pairs each edge (i, j, shared units) carries: a component of one edge as many as both entities
    have copies; a large one (more than `pairing.LARGE_COMPONENT_EDGES` edges) by `fragment_large.large_amounts`;
    the others, and the large ones it hands back, solved one by one by `pairing.best_flow` on their entities as
    `Span`s, indexed in rule (d)'s order (the classes' order). `units`: each class's units, per side."""
    i, j, shared = edges
    amount = np.zeros(len(i), dtype=np.int64)
    if not len(i):
        return amount
    component = edge_components(i, j, len(references.first), len(predictions.first), by_scipy=len(i) > _SCIPY_EDGES)
    sizes = np.bincount(component)
    single = sizes[component] == 1
    amount[single] = np.minimum(references.count[i[single]], predictions.count[j[single]])
    picked = np.flatnonzero(~single)
    if not len(picked):
        return amount
    sides = []
    for classes in (references, predictions):
        start, end = classes.extent()
        sides.append((start.tolist(), end.tolist(), classes.type_id.tolist(), classes.count.tolist(), classes))
    made: dict[tuple[int, int], Span] = {}

    def span(side: int, index: int) -> Span:
        found = made.get((side, index))
        if found is None:
            start, end, type_id, _, classes = sides[side]
            found = Span(start[index], end[index], type_names[type_id[index]], classes.fragments(index))
            made[side, index] = found
        return found

    def large(edges: np.ndarray) -> np.ndarray | None:
        return fragment_large.large_amounts(references, predictions, (i[edges], j[edges], shared[edges]), units)

    rooms = [sides[0][3], sides[1][3]]
    amount[picked] = flows_by_component(i, j, picked, component, span, rooms, large)[picked]
    return amount


def _table(
    references: FragmentClasses,
    predictions: FragmentClasses,
    twins: tuple[np.ndarray, np.ndarray, np.ndarray],
    edges: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    units_r: np.ndarray,
    units_p: np.ndarray,
    type_names: list[str],
    sentences: int,
    fragments: bool,
) -> Pairs:
    """The rows: rule 1's pairs, the edges' pairs (`edges`: reference, prediction, how many pairs, shared units),
    each entity's copies left unpaired; each row's entities' extents and, where one is discontinuous and
    `fragments` asks, fragments."""
    twin_r, twin_p, twin_count = twins
    i, j, amount, units = edges
    paired = amount > 0
    i, j, amount, units = i[paired], j[paired], amount[paired], units[paired]
    same_bounds = (units == units_r[i]) & (units == units_p[j])
    scenario = scenario_codes(same_bounds, references.type_id[i] == predictions.type_id[j])
    left_r = references.count - np.bincount(i, weights=amount, minlength=len(references.first)).astype(np.int64)
    left_p = predictions.count - np.bincount(j, weights=amount, minlength=len(predictions.first)).astype(np.int64)
    none_r = np.arange(len(references.first))
    none_p = np.arange(len(predictions.first))
    row_r = np.concatenate((np.repeat(twin_r, twin_count), np.repeat(i, amount), np.repeat(none_r, left_r)))
    row_r = np.concatenate((row_r, np.full(int(left_p.sum()), -1, np.int64)))
    row_p = np.concatenate((np.repeat(twin_p, twin_count), np.repeat(j, amount)))
    row_p = np.concatenate((row_p, np.full(int(left_r.sum()), -1, np.int64), np.repeat(none_p, left_p)))
    kinds = np.concatenate(
        (
            np.full(int(twin_count.sum()), Scenario.I, np.int64),
            np.repeat(scenario, amount),
            np.full(int(left_r.sum()), Scenario.III, np.int64),
            np.full(int(left_p.sum()), Scenario.II, np.int64),
        )
    )
    sentence = np.zeros(len(kinds), np.int64)
    types, extents = [], []
    for classes, rows in ((references, row_r), (predictions, row_p)):
        has = rows >= 0
        at = np.where(has, rows, 0)
        if len(classes.first):
            start, end = classes.extent()
            sentence = np.where(has, classes.sentence[at], sentence)
            types.append(np.where(has, classes.type_id[at], -1))
            extents += [np.where(has, start[at], -1), np.where(has, end[at], -1)]
        else:
            types.append(np.full(len(rows), -1, np.int64))
            extents += [np.full(len(rows), -1, np.int64)] * 2
    if not fragments or not ((references.pieces > 1).any() or (predictions.pieces > 1).any()):
        return Pairs.of_columns([sentence, kinds, *types, *extents], type_names, sentences)
    runs = []  # each row's entity as its run of fragments (`Pairs.fragment_runs`): tuples made only where read
    for classes, rows, kind in ((references, row_r, types[0]), (predictions, row_p, types[1])):
        at = np.where(rows >= 0, rows, 0) if len(classes.first) else np.zeros(len(rows), np.int64)
        first = classes.first[at] if len(classes.first) else at
        pieces = np.where(rows >= 0, classes.pieces[at], 0) if len(classes.first) else at
        runs.append(FragmentEntities(sentence, kind, pieces, first, classes.start, classes.end))
    return Pairs.of_columns([sentence, kinds, *types, *extents], type_names, sentences, runs=(runs[0], runs[1]))
