"""The whole matrix of a dense sentence's weights solved and proven (docs/scoring.md §3, issue 31, item 7): where
the candidate cells of `dense` do not settle in a few rounds, scipy's assignment of the matrix (8 bytes a cell,
read in place) finds the best matching, and potentials found from it by relaxation, checked on every cell in
integers, prove it best (`large_components.relaxed`, `complementary`), as `dense`'s rounds are proven. And the
value pairing's check of a round's potentials on every cell (`bounded_shortfalls`), which works out only the
cells that a bound over their block does not already show covered (issue 31, item 6).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .large_components import complementary, relaxed
from .overlaps import check_pairs_fit, overlap_kept
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
    from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

    # Minimised on a float64 matrix of no more rows than columns, C-ordered, which scipy then reads in place:
    # maximising, or more rows than columns, would have it copy the matrix (8 bytes a cell).
    costs = np.empty(cells.shape, np.float64)
    for first, block in cells.blocks():
        np.negative(block, out=costs[first : first + len(block)], casting="unsafe")
    matched_small, matched_large = linear_sum_assignment(costs)
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


# Rows a block and columns a chunk of `bounded_shortfalls`' bounds (an onion's blocks: about three in four bounded).
_BOUND_ROWS = 16
_BOUND_COLUMNS = 64


def _runs(values: np.ndarray, size: int, reduce: Any) -> np.ndarray:
    """`reduce` (np.maximum or np.minimum) over each run of `size` consecutive `values`."""
    return reduce.reduceat(values, np.arange(0, len(values), size))


def bounded_shortfalls(cells: Any, x: np.ndarray, y: np.ndarray) -> Any:
    """How far each cell of the value pairing's `cells` (a `dense._Cells` with a worth, whose weights do not look at
    identical boundaries) is short of the potentials x (rows) and y (columns): yields (rows, columns, short),
    short[k, l] = w(rows[k], columns[l]) - x - y for a pair, -1 for a cell that is no pair (never short, never
    tight), for every cell but those of the blocks shown covered with room to spare (every cell below 0) by a bound.

    A cell's weight is its row's part and its column's part (which of them by whether the two have one type) plus
    the shared extent (`dense._Cells._worth_parts`). Rows and columns sorted by (type, start), a block of rows and a
    chunk of columns bound it by the largest parts of the types they hold and the most extent any two of them can
    share (the nearer of the largest ends less the farther of the least starts, and the shorter of the longest):
    where that stays below 0, no cell of them is short or tight, and none is worked out. The potentials of a round
    nearly cover most cells, so most blocks are bounded out (3 in 4 of the half-identical onion's)."""
    (row_start, row_end, row_kind), (column_start, column_end, column_kind) = cells.small, cells.large
    if cells.flipped:  # the predictions are the rows: the reference's parts are the columns'
        row_same = row_other = cells.part_predicted - x
        column_same, column_other = cells.part_same - y, cells.part_other - y
    else:
        row_same, row_other = cells.part_same - x, cells.part_other - x
        column_same = column_other = cells.part_predicted - y
    order_r, order_c = np.lexsort((row_start, row_kind)), np.lexsort((column_start, column_kind))
    bounds = []
    for order, size, same, other, start, end, kind in (
        (order_r, _BOUND_ROWS, row_same, row_other, row_start, row_end, row_kind),
        (order_c, _BOUND_COLUMNS, column_same, column_other, column_start, column_end, column_kind),
    ):
        start, end, kind = start[order], end[order], kind[order]
        largest = [_runs(values, size, np.maximum) for values in (same[order], other[order], end, end - start)]
        least = [_runs(values, size, np.minimum) for values in (start, kind)]
        bounds.append([*largest[:2], least[0], *largest[2:], least[1], _runs(kind, size, np.maximum)])
    (r_same, r_other, r_first, r_last, r_long, r_low, r_high) = (part[:, None] for part in bounds[0])
    (c_same, c_other, c_first, c_last, c_long, c_low, c_high) = bounds[1]
    shared = np.minimum(np.minimum(r_last, c_last) - np.maximum(r_first, c_first), np.minimum(r_long, c_long))
    one_type = (r_low == r_high) & (c_low == c_high) & (r_low == c_low)
    may_share_type = (r_low <= c_high) & (c_low <= r_high)
    same_part, other_part = r_same + c_same, r_other + c_other
    part = np.where(one_type, same_part, np.where(may_share_type, np.maximum(same_part, other_part), other_part))
    worked = (shared > 0) & (part + shared >= 0)
    chunk_of = np.arange(len(order_c)) // _BOUND_COLUMNS
    common = max(int(row_start.max()), int(column_start.max())) < min(int(row_end.min()), int(column_end.min()))
    every_pair = cells.min_overlap is None and common
    for block in np.flatnonzero(worked.any(axis=1)).tolist():
        rows = order_r[block * _BOUND_ROWS : (block + 1) * _BOUND_ROWS]
        columns = order_c[worked[block][chunk_of]]
        start, end, kind = row_start[rows, None], row_end[rows, None], row_kind[rows, None]
        other_start, other_end = column_start[columns], column_end[columns]
        short = np.minimum(end, other_end)
        short -= np.maximum(start, other_start)
        no_pair = None
        if not every_pair:  # (where every entity holds a common position, every cell is a pair)
            no_pair = short <= 0
            if cells.min_overlap is not None:
                length = (other_end - other_start) if cells.flipped else (end - start)
                no_pair |= ~overlap_kept(short, length, cells.min_overlap)
        same = np.equal(kind, column_kind[columns])
        if cells.flipped:
            short += np.where(same, column_same[columns], column_other[columns])
            short += row_same[rows, None]
        else:
            short += np.where(same, row_same[rows, None], row_other[rows, None])
            short += column_same[columns]
        if no_pair is not None:
            short[no_pair] = -1
        yield rows, columns, short
