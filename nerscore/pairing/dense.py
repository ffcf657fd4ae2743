"""The pairing of a dense sentence (docs/scoring.md §3) on one matrix of its weights, without listing its pairs
(issue 31, item 7).

In a sentence where most references overlap most predictions (an onion of nested entities, a staircase of two
types, any clique of the overlap graph), the pairs listed cost far more than the matrix of their weights: two
indices, the digits of their weight, the masks and labels of the components, scipy's copies (45-56 bytes a pair).
Here every (reference, prediction) cell of the sentence gets its weight worked out a block of rows at a time
into one float64 matrix (0 where the two do not overlap: no pair), 8 bytes a cell, which scipy's assignment reads
in place. Its matching is then proven best by an optimal dual found and checked on the same matrix, in integers
below 2**53 (`large_components.best_matching`'s proof, on cells), and rule (d) is worked out on the edges the
dual leaves tight (`large_components.tight_smallest_best`): a few a row where the weights differ. The whole
sentence is one problem: its components' digits add up, and rule (d)'s smallest list of the whole is each
component's smallest, as every best pairing of a component has as many pairs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InvalidInputError
from .large_components import EXACT, dense_assignment, tight_smallest_best
from .overlaps import check_pairs_fit, overlap_kept

# A sentence is paired on its matrix where at least 1 / _DENSE_SHARE of its cells are pairs (each pair then costs
# at most 8 * _DENSE_SHARE bytes, against 45 or more listed), and it has at least _LEAST_CELLS cells.
_DENSE_SHARE = 4
_LEAST_CELLS = 1 << 16
# Cells worked out at a time: a block's temporaries are a few of these in int64.
_BLOCK_CELLS = 1 << 14
# What a cell costs at the peak: the matrix's 8 bytes, and room for the block's temporaries and scipy's vectors.
DENSE_CELL_BYTES = 9


def overlap_total(r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray) -> int:
    """How many (reference, prediction) pairs share a position, both sides sorted by start, without listing them:
    each pair once, where the later-starting one starts inside the other."""
    started_in_r = np.searchsorted(p_start, r_end, "left") - np.searchsorted(p_start, r_start, "left")
    started_in_p = np.searchsorted(r_start, p_end, "left") - np.searchsorted(r_start, p_start, "right")
    return int(np.maximum(started_in_r, 0).sum()) + int(np.maximum(started_in_p, 0).sum())


def worth_matrix(pairs: int, references: int, predictions: int) -> bool:
    """Whether a sentence of `pairs` overlapping pairs is better paired on its matrix than from its pairs listed."""
    cells = references * predictions
    return cells >= _LEAST_CELLS and pairs * _DENSE_SHARE >= cells


def dense_sentences(
    references: tuple[np.ndarray, ...],
    predictions: tuple[np.ndarray, ...],
    large: np.ndarray,
    min_overlap: float | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`dense_pairs` of each sentence flagged `large` whose entities are one copy each and that is `worth_matrix`:
    each side (start, end, type id, sentence, copies) arrays of distinct entities in (start, end, type) order, as
    `forms.component_arrays` holds them. Returns which sentences were paired so, and their pairs (reference
    indices, prediction indices into the arrays given). A sentence whose matrix would not fit in memory is
    refused, located (an `InvalidInputError`)."""
    solved = np.zeros(len(large), bool)
    chosen_r: list[np.ndarray] = []
    chosen_p: list[np.ndarray] = []
    candidates = large.copy()
    for side in (references, predictions):
        candidates[side[3][side[4] != 1]] = False
    if candidates.any():
        order_r, order_p = np.argsort(references[3], kind="stable"), np.argsort(predictions[3], kind="stable")
        every = np.arange(len(large) + 1)
        bounds_r = np.searchsorted(references[3][order_r], every).tolist()
        bounds_p = np.searchsorted(predictions[3][order_p], every).tolist()
    for sentence in np.flatnonzero(candidates).tolist():
        at_r = order_r[bounds_r[sentence] : bounds_r[sentence + 1]]
        at_p = order_p[bounds_p[sentence] : bounds_p[sentence + 1]]
        start_r, end_r, type_r = (column[at_r] for column in references[:3])
        start_p, end_p, type_p = (column[at_p] for column in predictions[:3])
        if not worth_matrix(overlap_total(start_r, end_r, start_p, end_p), len(at_r), len(at_p)):
            continue
        try:
            found = dense_pairs((start_r, end_r, type_r), (start_p, end_p, type_p), min_overlap)
        except InvalidInputError as error:
            raise error.at(sentence=sentence) from None
        if found is not None:
            chosen_r.append(at_r[found[0]])
            chosen_p.append(at_p[found[1]])
            solved[sentence] = True
    if not chosen_r:
        return solved, np.zeros(0, np.int64), np.zeros(0, np.int64)
    return solved, np.concatenate(chosen_r), np.concatenate(chosen_p)


def dense_pairs(
    references: tuple[np.ndarray, np.ndarray, np.ndarray],
    predictions: tuple[np.ndarray, np.ndarray, np.ndarray],
    min_overlap: float | None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """§3's pairing of one sentence's entities, each side (start, end, type id) arrays in (start, end, type) order
    of distinct entities, one copy each, none with a twin of its type on the other side (rule 1's pairs made
    before): the pairs (reference indices, prediction indices) as `rules.best_flow` makes them, component by
    component; None where the weights would not be exact in a float64 or the matching is not proven (the caller
    lists the pairs then). A matrix that would not fit in memory is refused first (`overlaps.check_pairs_fit`:
    an `InvalidInputError`, which the caller locates)."""
    rows, columns = len(references[0]), len(predictions[0])
    if not rows or not columns:
        return None
    r_start, r_end, r_type = references
    p_start, p_end, p_type = predictions
    radix = min(rows, columns) + 1
    extent_radix = int((r_end - r_start).sum()) + 1
    bounds_r = set(zip(r_start.tolist(), r_end.tolist()))
    same_bounds = any(bounds in bounds_r for bounds in zip(p_start.tolist(), p_end.tolist()))
    typed = len(np.union1d(r_type, p_type)) > 1
    # The digits of `rules.best_flow`, from the most significant: identical boundaries, a pair, one type, the
    # shared extent; a digit no pair can vary is left out.
    bounds_radix = radix if same_bounds else 0
    type_radix = radix if typed else 1
    largest = ((bounds_radix + 1) * type_radix + 1) * extent_radix
    if (rows + columns) * (largest + 1) >= EXACT:
        return None
    overlaps = overlap_total(r_start, r_end, p_start, p_end)
    check_pairs_fit(overlaps, rows, columns, 0, need=rows * columns * DENSE_CELL_BYTES)
    # scipy reads a matrix of no more rows than columns in place: the smaller side is the rows ("flipped" where
    # that is the predictions).
    flipped = rows > columns
    small, large = (predictions, references) if flipped else (references, predictions)
    costs = np.empty((len(small[0]), len(large[0])), np.float64)
    step = max(1, _BLOCK_CELLS // len(large[0]))
    for first in range(0, len(small[0]), step):
        block = slice(first, first + step)
        start, end, kind = (column[block, None] for column in small)
        shared = np.minimum(end, large[1]) - np.maximum(start, large[0])
        weight: Any = np.equal(kind, large[2]) if typed else np.zeros(1, np.int64)
        if same_bounds:
            weight = weight + ((start == large[0]) & (end == large[1])) * (bounds_radix * type_radix)
        weight = (weight + type_radix) * extent_radix + shared
        edge = shared > 0
        if min_overlap is not None:
            length = (end - start) if not flipped else (large[1] - large[0])
            edge &= overlap_kept(shared, length, min_overlap)
        np.negative(np.where(edge, weight, 0), out=costs[block], casting="unsafe")
    del start, end, kind, shared, weight, edge
    matched_small, matched_large = dense_assignment(costs)
    keep = costs[matched_small, matched_large] < 0
    matched_small, matched_large = matched_small[keep], matched_large[keep]
    if not len(matched_small):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    proof = _potentials(costs, matched_small, matched_large)
    if proof is None:
        return None
    x, y = proof
    tight_small, tight_large = _tight(costs, x, y)
    del costs
    if flipped:
        tight_r, tight_p, u, v = tight_large, tight_small, y, x
        matched_r, matched_p = matched_large, matched_small
    else:
        tight_r, tight_p, u, v = tight_small, tight_large, x, y
        matched_r, matched_p = matched_small, matched_large
    order = np.lexsort((tight_p, tight_r))
    tight_r, tight_p = tight_r[order], tight_p[order]
    chosen = tight_smallest_best(tight_r, tight_p, u[tight_r] + v[tight_p], rows, columns, matched_r, matched_p, u, v)
    return tight_r[chosen], tight_p[chosen]


def _potentials(
    costs: np.ndarray, matched_small: np.ndarray, matched_large: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """Potentials x (the rows of `costs`) and y (its columns), int64, proving the matching best: the least fixed
    point of x_a = max(0, max_b w_ab - y_b), y_b = w_m(b)b - x_m(b) for a matched column and 0 for the others
    (w = -costs), reached from x = 0 one row at a time, as `large_components.best_matching`'s proof relaxes its
    columns (there a column's weights are a row here, read in place); None where it is not proven (a potential
    goes negative, the relaxation does not settle in its sweeps, or the result is not an optimal dual)."""
    small, large = costs.shape
    mate = [-1] * small
    weight_of = [0] * small
    for a, b, cost in zip(matched_small.tolist(), matched_large.tolist(), costs[matched_small, matched_large].tolist()):
        mate[a], weight_of[a] = b, -int(cost)
    x = [0] * small
    y = np.zeros(large, np.float64)  # integers below 2**53, exact
    y[matched_large] = -costs[matched_small, matched_large]
    for sweep in range(small + large + 64):
        changed = False
        for a in range(small) if sweep % 2 == 0 else range(small - 1, -1, -1):
            best = -int((costs[a] + y).min())
            if best > x[a]:
                x[a] = best
                changed = True
                b = mate[a]
                if b >= 0:
                    y[b] = weight_of[a] - best
                    if y[b] < 0:
                        return None
        if not changed:
            break
    else:
        return None
    proof = np.array(x, np.int64), y.astype(np.int64)
    return proof if _verified(costs, matched_small, matched_large, *proof) else None


def _verified(
    costs: np.ndarray, matched_small: np.ndarray, matched_large: np.ndarray, x: np.ndarray, y: np.ndarray
) -> bool:
    """Whether (x, y) is an optimal dual of the matching, in integers (`large_components.verified` on cells):
    feasible (x, y >= 0, x_a + y_b >= w_ab on every cell, 0 where no pair) and complementary (equality on the
    matching, 0 on the entities it leaves)."""
    if np.any(x < 0) or np.any(y < 0):
        return False
    step = max(1, _BLOCK_CELLS // costs.shape[1])
    for first in range(0, costs.shape[0], step):
        block = slice(first, first + step)
        if np.any(costs[block].astype(np.int64) + x[block, None] + y < 0):
            return False
    if np.any(costs[matched_small, matched_large].astype(np.int64) + x[matched_small] + y[matched_large] != 0):
        return False
    free_small = np.ones(len(x), bool)
    free_small[matched_small] = False
    free_large = np.ones(len(y), bool)
    free_large[matched_large] = False
    return not (np.any(x[free_small] != 0) or np.any(y[free_large] != 0))


def _tight(costs: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cells that are pairs and whose potentials add up to their weight (the edges some best matching may
    hold), found a block of rows at a time: (row indices, column indices)."""
    found_a, found_b = [], []
    step = max(1, _BLOCK_CELLS // costs.shape[1])
    for first in range(0, costs.shape[0], step):
        block = costs[first : first + step].astype(np.int64)
        a, b = np.nonzero((block < 0) & (block + x[first : first + step, None] + y == 0))
        found_a.append(a + first)
        found_b.append(b)
    return np.concatenate(found_a).astype(np.int64), np.concatenate(found_b).astype(np.int64)
