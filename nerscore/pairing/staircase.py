"""The pairing of a staircase (docs/scoring.md §3) without listing its pairs (issue 31, item 7).

In a staircase, entities of one type whose ends, like their starts, never decrease on either side, the
predictions a reference overlaps are a run of consecutive ones, and the runs move on from reference to
reference: its overlap graph is an interval graph, given whole by two numbers a reference (`runs`). The best
pairing never crosses there (`large_components.uncrossed`), and `large_components.best_chain`'s dynamic
programme finds it; `best_staircase` runs the same programme on the runs, each reference's weights worked out
when its row is, so that a dense staircase of 10,000 a side (10**8 overlapping pairs, which listed would take
gigabytes) takes memory of the order of its entities times the square root of the references: the programme's
table is kept for every `block`-th reference only, and a block of rows is worked out again when the choice is
read off it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np


def runs(
    r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each reference, the run [low, high) of the predictions it shares a position with, both sides sorted
    by start with ends that never decrease: those that end after it starts (a suffix) and start before it ends
    (a prefix)."""
    return np.searchsorted(p_end, r_start, "right"), np.searchsorted(p_start, r_end, "left")


def pair_count(low: np.ndarray, high: np.ndarray) -> int:
    """How many overlapping pairs the runs hold."""
    return int(np.maximum(high - low, 0).sum())


def best_staircase(
    low: np.ndarray,
    high: np.ndarray,
    weights: Callable[[int, int, int], np.ndarray],
    block: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """`large_components.best_chain` of the edges (k, c) for c in [low[k], high[k]) (runs whose ends never
    decrease; empty runs allowed), each of weight `weights(k, first, last)[c - first]` (positive integers, every
    total below 2**63, which the caller checks): the pairs (references, predictions) of the best matching that
    never crosses, and of those the smallest list (rule (d)). The table of f(k, c), the best total of the rows
    from k on and the columns from c on, is kept for every `block`-th row (by default the square root of the
    rows), and a block's rows are worked out again from the row after it when the choice reaches them."""
    rows = np.flatnonzero(high > low)
    count = len(rows)
    if not count:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    lows, highs = low[rows].tolist(), (high[rows] - 1).tolist()  # each row's columns, the last included
    block = block or max(1, math.isqrt(count))

    def row_table(k: int, after: np.ndarray | None, after_low: int) -> np.ndarray:
        # f(row k, column) for its run and one column past it, from f of the next row (from column after_low).
        low_k, high_k = lows[k], highs[k]
        if after is None:
            later = np.zeros(high_k + 2 - low_k, np.int64)
        else:
            later = after[np.maximum(np.arange(low_k - after_low, high_k + 2 - after_low), 0)]
        values = np.empty(len(later), np.int64)
        values[-1] = later[-1]
        values[:-1] = np.maximum(later[:-1], weights(int(rows[k]), low_k, high_k + 1) + later[1:])
        return np.maximum.accumulate(values[::-1])[::-1]

    # The first pass keeps the table of every block's first row, and of the row after each block.
    kept: dict[int, np.ndarray] = {}
    after: np.ndarray | None = None
    for k in range(count - 1, -1, -1):
        after = row_table(k, after, lows[k + 1] if k + 1 < count else 0)
        if k % block == 0:
            kept[k] = after

    chosen_r: list[int] = []
    chosen_p: list[int] = []
    column = lows[0]
    for first in range(0, count, block):
        last = min(first + block, count)
        # The block's tables again, from the kept table of the row after it.
        tables: dict[int, np.ndarray] = {}
        after = kept.get(last)
        for k in range(last - 1, first - 1, -1):
            after = tables[k] = row_table(k, after, lows[k + 1] if k + 1 < count else 0)
        if last < count:
            tables[last] = kept[last]
        for k in range(first, last):
            low_k, high_k = lows[k], highs[k]
            if column > high_k:
                continue
            column = max(column, low_k)
            if k + 1 < count:
                following = tables[k + 1][np.maximum(np.arange(column + 1 - lows[k + 1], high_k + 2 - lows[k + 1]), 0)]
            else:
                following = np.zeros(high_k + 1 - column, np.int64)
            reach = weights(int(rows[k]), column, high_k + 1) + following
            hits = np.flatnonzero(reach == tables[k][column - low_k])
            if len(hits):
                taken = column + int(hits[0])
                chosen_r.append(int(rows[k]))
                chosen_p.append(taken)
                column = taken + 1
    return np.array(chosen_r, np.int64), np.array(chosen_p, np.int64)
