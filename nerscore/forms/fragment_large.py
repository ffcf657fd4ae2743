"""Large components and dense sentences of discontinuous entities (docs/scoring.md §12) on arrays (issue 31): what
`rules.best_flow` does one component at a time with the exact flow, by the solvers of contiguous ones.

A large component of listed pairs (`large_amounts`) is solved as `component_arrays` solves one of contiguous
entities: copies made entities of their own, each pair's weight `rules._digits`' digits with the shared units in
place of the shared extent (§12), scipy's matching proven in integers and rule (d) on the tight edges, by the
entities' indices, which are in rule (d)'s order (fragment lists, then type).

A dense sentence (an onion of discontinuous entities, every reference sharing units with most predictions) would
list every overlapping pair of fragments, then sum them per pair of entities: tens of bytes a pair of fragments,
and a pair of entities of four fragments each is up to sixteen of them. Here, as `pairing.dense` pairs a dense
sentence of contiguous entities, a cell's weight is worked out where it is needed, a block of rows at a time, from
the entities' fragments (`FragmentCells`: each entity's fragments padded to as many as the longest, their shared
units summed over every two of them), and `dense.dense_pairs` finds the best matching from a few candidate cells a
row, proven on every cell by its optimal dual, and rule (d) on the cells that dual leaves tight (`dense_sentences`).
Sentences that are not dense, hold copies or entities of many fragments are left to `fragment_arrays`' listed
pairs. tests/test_fragment_arrays.py proves both equal to the readable path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import located
from ..pairing.dense import dense_pairs
from ..pairing.dense_matrix import Cells
from ..pairing.overlaps import overlap_kept
from ..pairing.staircase import overlap_total
from ..span import FragmentEntities, units_of
from .component_arrays import sentences_of

# A sentence of at least this many cells (references x predictions, one copy each) where at least 1 / _DENSE_SHARE
# of the cells' extents overlap is paired here: its pairs listed would cost 60 bytes or more a pair of fragments
# (indices, shared units, their sort, the solver's copies), here a block of cells at a time.
LEAST_CELLS = 1 << 12
_DENSE_SHARE = 4
# FragmentClasses of at most this many fragments (a cell's weight is worked out over every two of its entities'
# fragments: up to this squared passes over a block).
MOST_FRAGMENTS = 8

# One side of a sentence: each entity's extent start, end, type id, units, and its fragments padded to as many as
# the longest (a list of (starts, ends) arrays, the k-th fragment of each; [0, 0) where it has fewer).
Side = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]]]


@dataclass(frozen=True)
class FragmentClasses(FragmentEntities):
    """The distinct entities of one side, in order of sentence and then rule (d)'s (fragment lists, type): each
    one's sentence, type, fragments (a run of `start`/`end` from `first`; its extent and units) and copies."""

    count: np.ndarray


def shared_units(small: Side, large: Side, a: Any, b: Any) -> np.ndarray:
    """The units each cell (small's entity a, large's entity b) shares: index arrays that broadcast, or a slice;
    the overlaps of every two of their fragments added up (§12: fragments of an entity are apart, so no unit is
    counted twice). A padded fragment [0, 0) shares nothing: min(0, end) - max(0, start) <= 0."""
    shared: np.ndarray | None = None
    for start, end in small[4]:
        start_a, end_a = start[a], end[a]
        for other_start, other_end in large[4]:
            part = np.minimum(end_a, other_end[b])
            part -= np.maximum(start_a, other_start[b])
            np.maximum(part, 0, out=part)
            if shared is None:
                shared = part
            else:
                shared += part
    assert shared is not None
    return shared


class FragmentCells(Cells):
    """`dense_matrix.Cells` of discontinuous entities: the same digits (identical boundaries, a pair, one type,
    the shared extent), with the shared units in place of the shared extent and identical boundaries where the
    two share all their units and have as many (merged fragments are their units' union, §12). The radices are
    `Cells`' own, of the extents, which are at least the units: every digit's total stays below them."""

    def __init__(self, references: Side, predictions: Side, min_overlap: float | None) -> None:
        super().__init__(references[:3], predictions[:3], min_overlap, None)
        self.small_side, self.large_side = (predictions, references) if self.flipped else (references, predictions)

    def weights(self, a: Any, b: Any) -> np.ndarray:
        small, large = self.small_side, self.large_side
        shared = shared_units(small, large, a, b)
        edge = shared > 0
        if self.min_overlap is not None:
            length = large[3][b] if self.flipped else small[3][a]
            edge &= overlap_kept(shared, length, self.min_overlap)
        plain: Any = np.equal(small[2][a], large[2][b]) if self.typed else np.zeros(1, np.int64)
        if self.same_bounds:
            same = (shared == small[3][a]) & (shared == large[3][b])
            plain = plain + same * (self.bounds_radix * self.type_radix)
        plain = (plain + self.type_radix) * self.extent_radix + shared
        return np.where(edge, plain, 0)


def side_of(type_id: np.ndarray, first: np.ndarray, pieces: np.ndarray, start: np.ndarray, end: np.ndarray) -> Side:
    """A sentence's side as `FragmentCells` reads it, of entities each a run of `pieces` fragments of `start` and
    `end` from `first`."""
    padded = []
    for k in range(int(pieces.max(initial=1))):
        has = pieces > k
        at = np.where(has, first + k, 0)
        padded.append((np.where(has, start[at], 0), np.where(has, end[at], 0)))
    return start[first], end[first + pieces - 1], type_id, units_of(first, pieces, start, end), padded


def dense_sentence(references: Side, predictions: Side, min_overlap: float | None) -> tuple | None:
    """§3's pairing (§12's reading) of one sentence's distinct entities, one copy each, in rule (d)'s order, none
    with a twin of its type on the other side: (reference indices, prediction indices, shared units) of its pairs;
    None where it is not dense (`LEAST_CELLS`, `_DENSE_SHARE` of its extents' cells overlapping) or
    `dense.dense_pairs` hands it back (its caller lists its pairs then)."""
    rows, columns = len(references[0]), len(predictions[0])
    if rows * columns < LEAST_CELLS:
        return None
    order_r, order_p = np.argsort(references[0], kind="stable"), np.argsort(predictions[0], kind="stable")
    extents = references[0][order_r], references[1][order_r], predictions[0][order_p], predictions[1][order_p]
    if overlap_total(*extents) * _DENSE_SHARE < rows * columns:
        return None
    cells = FragmentCells(references, predictions, min_overlap)
    found = dense_pairs(references[:3], predictions[:3], min_overlap, cells=cells)
    if found is None:
        return None
    i, j = found
    return i, j, shared_units(references, predictions, i, j)


def dense_sentences(
    references: FragmentClasses, predictions: FragmentClasses, min_overlap: float | None
) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    """The pairs (reference, prediction, shared units) of the dense sentences, paired by `dense_sentence` without
    listing their pairs (issue 31): sentences of many entities, one copy each, of at most `MOST_FRAGMENTS`
    fragments; and which sentences those are (their overlaps are not to be listed). FragmentClasses are in sentence
    order, then rule (d)'s (`fragment_arrays`' classes)."""
    sentences = sentences_of(references.sentence, predictions.sentence)
    candidate = np.ones(sentences, bool)
    for classes in (references, predictions):
        live = classes.count > 0
        candidate &= np.bincount(classes.sentence[live], minlength=sentences) > 0
        many = live & ((classes.count > 1) | (classes.pieces > MOST_FRAGMENTS))
        candidate[classes.sentence[many]] = False
    per = [
        np.bincount(classes.sentence[classes.count > 0], minlength=sentences) for classes in (references, predictions)
    ]
    candidate &= per[0] * per[1] >= LEAST_CELLS
    found: list[list[np.ndarray]] = [[], [], []]
    solved = np.zeros(sentences, bool)
    every = np.arange(sentences + 1)
    bounds = [np.searchsorted(classes.sentence, every).tolist() for classes in (references, predictions)]
    for sentence in np.flatnonzero(candidate).tolist():
        at, sides = [], []
        for classes, bound in zip((references, predictions), bounds):
            here = np.arange(bound[sentence], bound[sentence + 1])
            here = here[classes.count[here] > 0]
            at.append(here)
            sides.append(
                side_of(classes.type_id[here], classes.first[here], classes.pieces[here], classes.start, classes.end)
            )
        pairs = dense_sentence(sides[0], sides[1], min_overlap)
        if pairs is None:
            continue
        solved[sentence] = True
        for parts, part in zip(found, (at[0][pairs[0]], at[1][pairs[1]], pairs[2])):
            parts.append(part.astype(np.int64))
    i, j, units = (np.concatenate(parts) if parts else np.zeros(0, np.int64) for parts in found)
    return (i, j, units), solved


def large_amounts(
    references: FragmentClasses,
    predictions: FragmentClasses,
    edges: tuple[np.ndarray, np.ndarray, np.ndarray],
    units: tuple[np.ndarray, np.ndarray],
) -> np.ndarray | None:
    """`pairing.best_flow` of one large component, edges (i, j, shared units), on the arrays: its copies entities
    of their own (`value_arrays.unfolded`, as `best_flow` unfolds a large component's), each edge's weight
    `rules._digits`' digits (identical boundaries, a pair, one type, shared units: §12 reads units where §3 reads
    extents), left out where equal on every edge, and the matching of largest weight that rule (d) prefers found
    by `large_components.best_matching` (scipy's solver, proven in integers; rule (d) on the tight edges, by the
    entities' indices, which are in rule (d)'s order). No non-crossing programme: its proof reads extents. None
    where that solver hands the component back (many copies, weights past a float64, no proof): `best_flow`
    then solves it. `units`: each class's units, per side."""
    from ..pairing.large_components import best_matching, digits_fit, tiered_digits
    from ..pairing.value_arrays import unfolded

    i, j, shared = edges
    units_r, units_p = units
    columns = (units_r, units_r, references.type_id, units_p, units_p, predictions.type_id)
    copies = located(int(references.sentence[i[0]]), unfolded, columns, references.count, predictions.count, i, j)
    if copies is None:
        return None
    sides, local_i, local_j, edge = copies
    radix = min(len(sides[0]), len(sides[3])) + 1
    extent_radix = int(sides[0].sum()) + 1
    if not digits_fit(radix, extent_radix):
        return None
    # Identical boundaries: the same units, as many on both sides (§12: merged fragments are their units' union).
    same_bounds = (shared == units_r[i]) & (shared == units_p[j])
    digits = tiered_digits(same_bounds, references.type_id[i] == predictions.type_id[j], radix, extent_radix)
    digits += shared
    chosen = best_matching(local_i, local_j, digits[edge])
    if chosen is None:
        return None
    return np.bincount(edge[chosen], minlength=len(i))
