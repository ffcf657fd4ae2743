"""A dense sentence's matrix of weights (docs/scoring.md §3, issue 31, item 7): its cells' weights worked out from
the entities where needed, a block of rows at a time (`Cells`, given the value pairing's `Worth` for §10's), and
the whole matrix solved and proven where the candidate cells of `dense` do not settle in a few rounds: scipy's
assignment of the matrix (8 bytes a cell, read in place) finds the best matching, and potentials found from it by
relaxation, checked on every cell in integers, prove it best (`large_components.relaxed`, `complementary`), as
`dense`'s rounds are proven. And the value pairing's check of a round's potentials on every cell
(`bounded_shortfalls`), which works out only the cells that a bound over their block does not already show
covered (issue 31, item 6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .large_components import complementary, dense_assignment, relaxed
from .overlaps import check_pairs_fit, overlap_kept
from .staircase import overlap_total

# Cells worked out at a time (here and in `dense`): a block's temporaries are a few of these in int64.
BLOCK_CELLS = 1 << 14
# What a cell costs at the peak: the matrix's 8 bytes, and room for the block's temporaries and scipy's vectors.
DENSE_CELL_BYTES = 9
# A solve's matching (rows, columns), its optimal dual (x, y) and its tight cells where found on the way, or None.
Solved = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None]

# What a tight cell costs in rule (d)'s search (`large_components.tight_smallest_best`), measured where weights tie
# everywhere (every reference holding every prediction whole, 800 a side: 155 bytes a pair at the peak; the listed
# pairs, before this module, 129).
TIGHT_PAIR_BYTES = 160


@dataclass(frozen=True)
class Worth:
    """The value pairing's worth of a cell (docs/scoring.md §10) as an integer, from its two types and its
    scenario: `reference[2 * same_bounds + same_type, reference type id] + prediction[predicted type id]` (int64
    arrays). With it, a cell's weight is §3's with the worth as its first digit and no digit of identical
    boundaries (the value does not force them together): `value.value_digits`' order. `tells_type`: the worth is
    one number for a pair of one type and another for the rest (the default weights, ACE's), so that a pairing's
    total worth and its pairs give its pairs of one type, whose digit is then left out (2**53 reached later)."""

    reference: np.ndarray
    prediction: np.ndarray
    tells_type: bool = False

    @property
    def largest(self) -> int:
        return int(self.reference.max(initial=0)) + int(self.prediction.max(initial=0))


class Cells:
    """The weights of a sentence's cells, worked out where needed: the smaller side's entities are the rows
    ("flipped" where that is the predictions), so that scipy reads a matrix of them in place. A weight holds
    the digits of `rules.best_flow`, from the most significant: identical boundaries, a pair, one type, the shared
    extent (a digit no pair can vary left out); 0 where the two do not overlap (no pair). With a `Worth`, the worth
    in place of identical boundaries (`value.value_digits`' digits)."""

    def __init__(self, references: tuple, predictions: tuple, min_overlap: float | None, worth: Worth | None) -> None:
        r_start, r_end, r_type = references
        p_start, p_end, p_type = predictions
        self.flipped = len(r_start) > len(p_start)
        self.small, self.large = (predictions, references) if self.flipped else (references, predictions)
        self.min_overlap = min_overlap
        radix = min(len(r_start), len(p_start)) + 1
        self.extent_radix = int((r_end - r_start).sum()) + 1
        bounds_r = set(zip(r_start.tolist(), r_end.tolist()))
        self.same_bounds = any(bounds in bounds_r for bounds in zip(p_start.tolist(), p_end.tolist()))
        self.typed = len(np.union1d(r_type, p_type)) > 1
        self.bounds_radix = radix if self.same_bounds else 0
        if worth is not None and worth.tells_type:
            self.typed = False
        self.type_radix = radix if self.typed else 1
        self.largest = ((self.bounds_radix + 1) * self.type_radix + 1) * self.extent_radix
        self.worth, self.radix = worth, radix
        if worth is not None:
            self.largest = ((worth.largest * radix + 1) * self.type_radix + 1) * self.extent_radix
            self._worth_parts(worth, r_type, p_type)
        self.shape = len(self.small[0]), len(self.large[0])
        self.step = max(1, BLOCK_CELLS // self.shape[1])

    def _worth_parts(self, worth: Worth, r_type: np.ndarray, p_type: np.ndarray) -> None:
        """A value weight's digits above the shared extent, split into parts of one entity each (int64), so that
        a block adds them up in a few passes (`weights`): the reference's part where the two differ in type and
        where they agree (its worth of that scenario and the type digit), the prediction's (its worth and the
        pair digit), and the reference's further part where the two have identical boundaries (of either)."""
        step = self.radix * self.type_radix * self.extent_radix
        kept = worth.reference[:, r_type] * step
        self.part_other = kept[0]
        self.part_same = kept[1] + (self.extent_radix if self.typed else 0)
        self.part_bounds = (kept[2] - kept[0], kept[3] - kept[1])
        # Identical boundaries worth nothing more (`boundary_error` 1, the defaults and ACE's): the value does not
        # force them together (docs/scoring.md §10), so no cell's weight looks at them (issue 31, item 6).
        self.same_bounds &= bool(self.part_bounds[0].any() or self.part_bounds[1].any())
        self.part_predicted = worth.prediction[p_type] * step + self.type_radix * self.extent_radix

    def weights(self, a: Any, b: Any) -> np.ndarray:
        """The weights (int64) of the cells (a, b): index arrays that broadcast, or a slice."""
        start, end, kind = (column[a] for column in self.small)
        other_start, other_end, other_kind = (column[b] for column in self.large)
        shared = np.minimum(end, other_end) - np.maximum(start, other_start)
        edge = shared > 0
        if self.min_overlap is not None:
            length = (other_end - other_start) if self.flipped else (end - start)
            edge &= overlap_kept(shared, length, self.min_overlap)
        if self.worth is not None:
            # The value's worth first (`Worth`), then a pair, one type, the shared extent (`value.value_digits`),
            # added up from each entity's parts (`_worth_parts`) in place: a few passes a block.
            r, p = (b, a) if self.flipped else (a, b)
            same = np.equal(kind, other_kind)
            weight = np.where(same, self.part_same[r], self.part_other[r])
            weight += self.part_predicted[p]
            if self.same_bounds:
                both = (start == other_start) & (end == other_end)
                if both.any():
                    weight += np.where(both, np.where(same, self.part_bounds[1][r], self.part_bounds[0][r]), 0)
            weight += shared
            weight *= edge
            return weight
        plain: Any = np.equal(kind, other_kind) if self.typed else np.zeros(1, np.int64)
        if self.same_bounds:
            plain = plain + ((start == other_start) & (end == other_end)) * (self.bounds_radix * self.type_radix)
        plain = (plain + self.type_radix) * self.extent_radix + shared
        return np.where(edge, plain, 0)

    def blocks(self) -> Any:
        """(first row, the block's weights) of every block of rows."""
        every = slice(None)
        for first in range(0, self.shape[0], self.step):
            rows = np.arange(first, min(first + self.step, self.shape[0]))[:, None]
            yield first, self.weights(rows, every)

    def tight(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The cells that are pairs and whose potentials add up to their weight (the edges some best matching
        may hold): (row indices, column indices). They are counted first: where weights tie everywhere (every
        reference sharing all of each prediction) they are every pair, which rule (d)'s search holds as listed
        pairs, refused where they would not fit (`overlaps.check_pairs_fit`)."""
        count = sum(
            int(np.count_nonzero((block > 0) & (block == x[first : first + len(block), None] + y)))
            for first, block in self.blocks()
        )
        check_pairs_fit(count, len(self.small[0]), len(self.large[0]), TIGHT_PAIR_BYTES)
        found_a, found_b = np.empty(count, np.int64), np.empty(count, np.int64)  # (filled: no copies, issue 31)
        at = 0
        for first, block in self.blocks():
            a, b = np.nonzero((block > 0) & (block == x[first : first + len(block), None] + y))
            found_a[at : at + len(a)], found_b[at : at + len(a)] = a + first, b
            at += len(a)
        return found_a, found_b


def from_matrix(cells: Cells, references: tuple, predictions: tuple) -> Solved | None:
    """The best matching and its optimal dual from scipy's assignment of the whole matrix of weights of `cells` (a
    `Cells`: its `shape` and `blocks()`; 8 bytes a cell, negated: 0 where no pair), refused first where it
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


# Rows a block and columns a chunk of `bounded_shortfalls`' bounds (an onion's blocks: about three in four bounded).
_BOUND_ROWS = 16
_BOUND_COLUMNS = 64


def _runs(values: np.ndarray, size: int, reduce: Any) -> np.ndarray:
    """`reduce` (np.maximum or np.minimum) over each run of `size` consecutive `values`."""
    return reduce.reduceat(values, np.arange(0, len(values), size))


def bounded_shortfalls(cells: Cells, x: np.ndarray, y: np.ndarray) -> Any:
    """How far each cell of the value pairing's `cells` (a `Cells` with a worth, whose weights do not look at
    identical boundaries) is short of the potentials x (rows) and y (columns): yields (rows, columns, short),
    short[k, l] = w(rows[k], columns[l]) - x - y for a pair, -1 for a cell that is no pair (never short, never
    tight), for every cell but those of the blocks shown covered with room to spare (every cell below 0) by a bound.

    A cell's weight is its row's part and its column's part (which of them by whether the two have one type) plus
    the shared extent (`Cells._worth_parts`). Rows and columns sorted by (type, start), a block of rows and a
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
