"""The whole matrix of a dense sentence's weights solved and proven (docs/scoring.md §3, issue 31, item 7): where
the candidate cells of `dense` do not settle in a few rounds, scipy's assignment of the matrix (8 bytes a cell,
read in place) finds the best matching, and potentials found from it by relaxation, checked on every cell in
integers, prove it best (`large_components.relaxed`, `complementary`), as `dense`'s rounds are proven."""

from __future__ import annotations

from typing import Any

import numpy as np

from .large_components import complementary, dense_assignment, relaxed
from .overlaps import check_pairs_fit
from .staircase import started_within

# Cells worked out at a time (here and in `dense`): a block's temporaries are a few of these in int64.
BLOCK_CELLS = 1 << 14
# What a cell costs at the peak: the matrix's 8 bytes, and room for the block's temporaries and scipy's vectors.
DENSE_CELL_BYTES = 9
# A solve's matching (rows, columns), its optimal dual (x, y) and its tight cells where found on the way, or None.
Solved = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None]


def overlap_total(r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray) -> int:
    """How many (reference, prediction) pairs share a position, both sides sorted by start, without listing them
    (`staircase.started_within`'s runs)."""
    _, width_r, _, width_p = started_within(r_start, r_end, p_start, p_end)
    return int(width_r.sum()) + int(width_p.sum())


def from_matrix(cells: Any, references: tuple, predictions: tuple) -> Solved | None:
    """The best matching and its optimal dual from scipy's assignment of the whole matrix of weights of `cells` (a
    `dense._Cells`: its `shape` and `blocks()`; 8 bytes a cell, negated: 0 where no pair), refused first where it
    would not fit in memory."""
    overlaps = overlap_total(references[0], references[1], predictions[0], predictions[1])
    check_pairs_fit(
        overlaps, len(references[0]), len(predictions[0]), 0, need=cells.shape[0] * cells.shape[1] * DENSE_CELL_BYTES
    )
    costs = np.empty(cells.shape, np.float64)
    for first, block in cells.blocks():
        np.negative(block, out=costs[first : first + len(block)], casting="unsafe")
    matched_small, matched_large = dense_assignment(costs)
    keep = costs[matched_small, matched_large] < 0
    matched_small, matched_large = matched_small[keep], matched_large[keep]
    if not len(matched_small):
        return (
            matched_small,
            matched_large,
            np.zeros(cells.shape[0], np.int64),
            np.zeros(cells.shape[1], np.int64),
            None,
        )
    proof = _potentials(costs, matched_small, matched_large)
    return None if proof is None else (matched_small, matched_large, *proof, None)


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
    weight_of = [0] * large  # the matched weight, by its column
    for a, b, cost in zip(matched_small.tolist(), matched_large.tolist(), costs[matched_small, matched_large].tolist()):
        mate[a], weight_of[b] = b, -int(cost)
    x = [0] * small
    y = np.zeros(large, np.float64)  # integers below 2**53, exact
    y[matched_large] = -costs[matched_small, matched_large]

    def best_of(a: int) -> int:
        return -int((costs[a] + y).min())

    if not relaxed(small, small + large + 64, best_of, mate, weight_of, x, y):
        return None
    proof = np.array(x, np.int64), y.astype(np.int64)
    return proof if _verified(costs, matched_small, matched_large, *proof) else None


def _verified(
    costs: np.ndarray, matched_small: np.ndarray, matched_large: np.ndarray, x: np.ndarray, y: np.ndarray
) -> bool:
    """Whether (x, y) is an optimal dual of the matching, in integers: x_a + y_b >= w_ab on every cell (0 where no
    pair), a block of rows at a time, then `large_components.complementary`."""
    step = max(1, BLOCK_CELLS // costs.shape[1])
    for first in range(0, costs.shape[0], step):
        block = slice(first, first + step)
        if np.any(costs[block].astype(np.int64) + x[block, None] + y < 0):
            return False
    matched = -costs[matched_small, matched_large].astype(np.int64)
    return complementary(matched_small, matched_large, matched, x, y)
