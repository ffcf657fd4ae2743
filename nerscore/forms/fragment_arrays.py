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

from dataclasses import dataclass, replace
from itertools import pairwise

import numpy as np

from ..grouping import owners, ranges, run_bounds, run_starts
from ..options import Options
from ..pairing import rules as pairing
from ..pairing.rules import Scenario, scenario_codes
from ..span import Span
from ..table.pairs import Pairs, fragment_column
from . import fragment_large
from .component_arrays import check_pairs_fit, edge_components, flows_by_component, sentences_apart, sentences_of
from .fragment_large import FragmentClasses
from .fragment_reading import FragmentValues, shared_types

# Positions of a batch stay below this once its sentences are moved one after another (as span_arrays' chunks).
_POSITION_LIMIT = 1 << 62

# Entities of at most this many fragments are ordered by their padded fragments (one integer an entity where it
# fits, a lexsort otherwise); a batch with a longer one orders its entities by Python's comparison of tuples.
_PADDED_FRAGMENTS = 8


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


@dataclass(frozen=True)
class _Entities:
    """One side's entities, a row each, before they are folded: each one's sentence, type, number of fragments
    (`pieces`) and first fragment (`first`, a run of `start`/`end`, which hold every fragment of the side)."""

    sentence: np.ndarray
    type_id: np.ndarray
    pieces: np.ndarray
    first: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @classmethod
    def of(cls, side: tuple[np.ndarray, ...]) -> _Entities:
        """A side as `fragment_pairs` reads it (sentence, type, pieces, start, end, kept), the kept entities."""
        sentence, type_id, pieces, start, end, keep = side
        first = np.cumsum(pieces) - pieces
        if keep.all():
            return cls(sentence, type_id, pieces, first, start, end)
        return cls(sentence[keep], type_id[keep], pieces[keep], first[keep], start, end)

    def taken(self, index: np.ndarray) -> _Entities:
        """The entities `index` picks, their fragments where they were."""
        return _Entities(
            self.sentence[index], self.type_id[index], self.pieces[index], self.first[index], self.start, self.end
        )

    def classes(self, count: np.ndarray) -> FragmentClasses:
        return FragmentClasses(self.sentence, self.type_id, count, self.first, self.pieces, self.start, self.end)


def _folded(
    references: tuple[np.ndarray, ...], predictions: tuple[np.ndarray, ...]
) -> tuple[FragmentClasses, FragmentClasses, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Both sides' distinct entities (`FragmentClasses`) and rule 1's pairs of identical fragments and type (reference
    entity, prediction entity, how many), taken off both sides' copies: each side sorted by its entities' keys
    (`_rule_d_keys`: one integer per (sentence, fragments, type), in rule (d)'s order), copies folded where keys
    repeat, and the keys found on both sides paired."""
    sides = _Entities.of(references), _Entities.of(predictions)
    folded, counts, keys = [], [], []
    for entities, key in zip(sides, _rule_d_keys(*sides)):
        order = np.argsort(key, kind="stable")
        key = key[order]
        bounds = run_bounds(key)
        new = bounds[:-1]
        counts.append(np.diff(bounds))
        folded.append(entities.taken(order[new]))
        keys.append(key[new])
    key_r, key_p = keys
    at = np.minimum(np.searchsorted(key_p, key_r), max(len(key_p) - 1, 0))
    found = key_p[at] == key_r if len(key_p) else np.zeros(len(key_r), dtype=bool)
    twin_r, twin_p = np.flatnonzero(found), at[found]
    paired = np.minimum(counts[0][twin_r], counts[1][twin_p])
    counts[0][twin_r] -= paired
    counts[1][twin_p] -= paired
    return folded[0].classes(counts[0]), folded[1].classes(counts[1]), (twin_r, twin_p, paired)


def _rule_d_keys(references: _Entities, predictions: _Entities) -> tuple[np.ndarray, np.ndarray]:
    """Each entity's key, on both sides: equal for the same (sentence, fragment list, type), and ordered as rule
    (d) orders entities within a sentence (docs/scoring.md §3, §12: fragment lists compare as lists, a list before
    any it begins, then types). `_packed_keys` where they fit; else each entity's rank among the distinct ones of
    both sides sorted together (by a lexsort of their padded fragments, or Python's comparison of tuples for
    entities of more than `_PADDED_FRAGMENTS`)."""
    longest = int(max(references.pieces.max(initial=1), predictions.pieces.max(initial=1)))
    if longest <= _PADDED_FRAGMENTS:
        packed = _packed_keys(references, predictions, longest)
        if packed is not None:
            return packed
    size, shift = len(references.pieces), len(references.start)
    both = _Entities(
        np.concatenate((references.sentence, predictions.sentence)),
        np.concatenate((references.type_id, predictions.type_id)),
        np.concatenate((references.pieces, predictions.pieces)),
        np.concatenate((references.first, predictions.first + shift)),
        np.concatenate((references.start, predictions.start)),
        np.concatenate((references.end, predictions.end)),
    )
    if longest <= _PADDED_FRAGMENTS:
        # A missing fragment as -1: before any fragment, so that a list comes before those it begins.
        keys = [both.type_id]
        for k in range(longest - 1, -1, -1):
            has = both.pieces > k
            at = np.where(has, both.first + k, 0)
            keys += [np.where(has, both.end[at], -1), np.where(has, both.start[at], -1)]
        keys.append(both.sentence)
        order = np.lexsort(keys)
    else:
        starts, ends = both.start.tolist(), both.end.tolist()
        lists = [
            (s, tuple(zip(starts[a : a + n], ends[a : a + n])), t)
            for s, a, n, t in zip(
                *(column.tolist() for column in (both.sentence, both.first, both.pieces, both.type_id))
            )
        ]
        order = np.array(sorted(range(len(lists)), key=lists.__getitem__), dtype=np.int64)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.cumsum(~_same_as_previous(both.taken(order)))
    return rank[:size], rank[size:]


def _packed_keys(references: _Entities, predictions: _Entities, longest: int) -> tuple[np.ndarray, np.ndarray] | None:
    """`_rule_d_keys` as one integer an entity, in mixed radix (sentence, then each fragment's start + 1 and end +
    1, 0 for none, then type), where it fits in 63 bits (short sentences, few fragments: one argsort for the
    lexsort of 2 * `longest` + 2 keys); None where it does not."""
    sides = references, predictions
    radix = max(int(side.type_id.max(initial=0)) for side in sides) + 1
    width = max(int(side.end.max(initial=0)) for side in sides) + 2
    sentences = max(int(side.sentence.max(initial=0)) for side in sides) + 1
    if sentences * width ** (2 * longest) * radix >= 1 << 63:
        return None
    keys = []
    for side in sides:
        # Each fragment as its two digits, start + 1 and end + 1; an entity's key gains two places per fragment,
        # its k-th fragment's digits added where it has one (0 where not).
        digits = (side.start + 1) * width + side.end + 1
        key = side.sentence * (width * width) + digits[side.first]
        for k in range(1, longest):
            key *= width * width
            has = np.flatnonzero(side.pieces > k)
            key[has] += digits[side.first[has] + k]
        keys.append(key * radix + side.type_id)
    return keys[0], keys[1]


def _same_as_previous(entities: _Entities) -> np.ndarray:
    """Whether each entity (in `_rule_d_keys`' order) is the one before it: the same sentence, type and
    fragments."""
    sentence, type_id, pieces, first = entities.sentence, entities.type_id, entities.pieces, entities.first
    same = np.zeros(len(sentence), dtype=bool)
    if len(sentence) < 2:
        return same
    same[1:] = (sentence[1:] == sentence[:-1]) & (type_id[1:] == type_id[:-1]) & (pieces[1:] == pieces[:-1])
    candidates = np.flatnonzero(same)
    # Their fragments compared one by one: as many as they have.
    which, here = ranges(first[candidates], pieces[candidates])
    owner = candidates[which]
    before = here + (first[candidates - 1] - first[candidates])[which]
    differs = (entities.start[here] != entities.start[before]) | (entities.end[here] != entities.end[before])
    same[owner[differs]] = False
    return same


def _shared_units(
    references: FragmentClasses, predictions: FragmentClasses
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Every (reference, prediction) of distinct entities with copies left that share a unit, with the units they
    share, summed over their fragments that meet (docs/scoring.md §12); each sentence moved to positions of its
    own. None where those positions would pass `_POSITION_LIMIT` (the readable path holds any offset)."""
    from ..pairing.staircase import overlapping_pairs

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
    width = max(len(predictions.first), 1)
    # The pairs of fragments that meet are listed a run of references at a time (at most `_FRAGMENT_PAIRS_AT_ONCE`
    # and one reference's) and summed into the pairs of entities as they come, so that memory follows the pairs of
    # entities: 400 entities a side of 100 fragments at the same places (16 million pairs of fragments, 160,000 of
    # entities) took 1 GB listed at once. Each pair of fragments is in the run of its reference (`overlapping_pairs`
    # of a run of the references, sorted by start, against every prediction); `met`, each reference's pairs.
    met = np.searchsorted(start_p, end_r, "left") - np.searchsorted(np.sort(end_p), start_r, "right")
    ends = np.cumsum(met)
    cuts = np.searchsorted(
        ends, np.arange(_FRAGMENT_PAIRS_AT_ONCE, int(ends[-1]) if len(ends) else 0, _FRAGMENT_PAIRS_AT_ONCE)
    )
    bounds = np.unique(np.concatenate(([0], cuts + 1, [len(start_r)]))).tolist()
    key, units = np.zeros(0, np.int64), np.zeros(0, np.int64)
    for low, high in pairwise(bounds):
        a, b = overlapping_pairs(start_r[low:high], end_r[low:high], start_p, end_p)
        a = a + low
        shared = np.minimum(end_r[a], end_p[b]) - np.maximum(start_r[a], start_p[b])
        found = owner_r[a].astype(np.int64) * width + owner_p[b]
        key, units = _summed(np.concatenate((key, found)), np.concatenate((units, shared)))
    i, j = np.divmod(key, width)
    return i, j, units


# Pairs of fragments listed at once at most (`_shared_units`): about 50 bytes each at the peak.
_FRAGMENT_PAIRS_AT_ONCE = 1 << 19


def _summed(key: np.ndarray, units: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct key, sorted, and the units of its rows summed (in int64: exact at any offset; float weights
    would round past 2**53)."""
    order = np.argsort(key, kind="stable")
    key, units = key[order], units[order]
    first = run_starts(key)
    return key[first], (np.add.reduceat(units, first) if len(key) else np.zeros(0, np.int64))


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
    held = None
    if fragments and ((references.pieces > 1).any() or (predictions.pieces > 1).any()):  # every entity has a row
        objects_r, objects_p = _fragment_objects(references, predictions, twins)
        held = (objects_r[row_r], objects_p[row_p])  # row -1 (no entity): the last, ()
    return Pairs.of_columns([sentence, kinds, *types, *extents], type_names, sentences, held)


def _fragment_objects(
    references: FragmentClasses, predictions: FragmentClasses, twins: tuple[np.ndarray, np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct entity's fragments as `Pairs` holds them, a tuple of (start, end) tuples (``()`` for a
    contiguous entity), and ``()`` last, for rows without an entity: object columns per side. An entity found on
    both sides (rule 1's pairs) shares one tuple, made once."""
    objects: list[np.ndarray] = []
    twin_r, twin_p, _ = twins
    for classes, side in ((references, 0), (predictions, 1)):
        column = np.empty(len(classes.first) + 1, dtype=object)
        column.fill(())
        held = classes.pieces > 1
        if side == 1:
            shared = held[twin_p]
            column[twin_p[shared]] = objects[0][twin_r[shared]]
            held[twin_p] = False
        which = np.flatnonzero(held)
        _, runs = ranges(classes.first[which], classes.pieces[which])
        pairs = list(zip(classes.start[runs].tolist(), classes.end[runs].tolist()))
        lasts = np.cumsum(classes.pieces[which])
        firsts = (lasts - classes.pieces[which]).tolist()
        column[which] = fragment_column(list(map(tuple, map(pairs.__getitem__, map(slice, firsts, lasts.tolist())))))
        objects.append(column)
    return objects[0], objects[1]
