"""The pairing of a staircase (docs/scoring.md §3): the non-crossing programme on listed pairs (`best_chain`,
where `uncrossed` admits it), and on a staircase's runs without listing its pairs (`best_staircase`, issue 31,
item 7), with §3's weights (`staircase_pairs`); and the pairs that share a position of any entities as arrays,
found from the sorted starts (`started_within`), which every array path lists (`overlapping_pairs`) or counts
(`overlap_total`).

In a staircase, entities of one type whose ends, like their starts, never decrease on either side, the
predictions a reference overlaps are a run of consecutive ones, and the runs move on from reference to
reference: its overlap graph is an interval graph, given whole by two numbers a reference (`runs`). The best
pairing never crosses there (`uncrossed`), and `best_chain`'s dynamic
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

from ..grouping import ranges, run_bounds
from .recent import KEPT_LARGEST, key_of, recall, remember

# A staircase of at most this many pairs keeps its whole table (8 bytes a pair): worked out once, not twice.
_KEPT_PAIRS = 1 << 20


def runs(
    r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each reference, the run [low, high) of the predictions it shares a position with, both sides sorted
    by start with ends that never decrease: those that end after it starts (a suffix) and start before it ends
    (a prefix)."""
    return np.searchsorted(p_end, r_start, "right"), np.searchsorted(p_start, r_end, "left")


def started_within(
    r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pairs that share a position, both sides sorted by start, as runs of the other side's starts: for each
    reference, the first prediction starting within it and how many do; for each prediction, the first
    reference starting after it (a tie of starts is the reference's) and how many start within it. Each pair is
    in one run, so the counts sum to the pairs, whatever the ends (`overlapping_pairs` lists them, and the
    array paths count them first, `overlap_total`)."""
    low_r, low_p = np.searchsorted(p_start, r_start, "left"), np.searchsorted(r_start, p_start, "right")
    width_r = np.maximum(np.searchsorted(p_start, r_end, "left") - low_r, 0)
    width_p = np.maximum(np.searchsorted(r_start, p_end, "left") - low_p, 0)
    return low_r, width_r, low_p, width_p


def overlap_total(r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray) -> int:
    """How many (reference, prediction) pairs share a position, both sides sorted by start, without listing them
    (`started_within`'s runs)."""
    _, width_r, _, width_p = started_within(r_start, r_end, p_start, p_end)
    return int(width_r.sum()) + int(width_p.sum())


def overlapping_pairs(
    r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Every (reference, prediction) index pair of entities that share a position, both sides sorted by start:
    where the prediction starts within the reference, and where the reference starts after the prediction and
    within it (`started_within`'s runs): the cost is that of the pairs found, 4 bytes an index (int32)
    while every count fits one, half of what int64 would hold at the peak (issue 31)."""

    def runs(low: np.ndarray, width: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        index = np.int32 if max(int(width.sum()), len(r_start), len(p_start)) < 2**31 else np.int64
        return ranges(low, width, index)

    low_r, width_r, low_p, width_p = started_within(r_start, r_end, p_start, p_end)
    (i_a, j_a), (j_b, i_b) = runs(low_r, width_r), runs(low_p, width_p)
    return np.concatenate((i_a, i_b)), np.concatenate((j_a, j_b))


def pair_count(low: np.ndarray, high: np.ndarray) -> int:
    """How many overlapping pairs the runs hold."""
    return int(np.maximum(high - low, 0).sum())


# Runs shorter than this on average are listed instead (`worth_runs`): the programme on the runs pays Python's
# cost a row three times (a pass, a block's pass again, the choice), which short runs do not repay (the staircase
# of 100,000 windows of 10, 2 million pairs: 2 s listed, 7 s from its runs).
_LONG_RUN = 64
# ... unless the pairs listed would take more than this (about 50 bytes each, `overlaps.ARRAY_PAIR_BYTES`).
_LISTED_PAIRS = 1 << 22


def worth_runs(low: np.ndarray, high: np.ndarray) -> bool:
    """Whether a staircase is better paired from its runs than from its pairs listed: long runs, or too many
    pairs to list lightly."""
    pairs = pair_count(low, high)
    return pairs >= _LONG_RUN * max(len(low), 1) or pairs > _LISTED_PAIRS


def best_staircase(
    low: np.ndarray,
    high: np.ndarray,
    weights: Callable[[int, int, int], np.ndarray],
    block: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """`best_chain` of the edges (k, c) for c in [low[k], high[k]) (runs whose ends never
    decrease; empty runs allowed), each of weight `weights(k, first, last)[c - first]` (positive integers, every
    total below 2**63, which the caller checks): the pairs (references, predictions) of the best matching that
    never crosses, and of those the smallest list (rule (d)). The table of f(k, c), the best total of the rows
    from k on and the columns from c on, is kept for every `block`-th row (by default every row up to
    `_KEPT_PAIRS` pairs, else the square root of the rows), and a block's other rows are worked out again from the
    row after it when the choice reaches them."""
    if not block:  # every row's table where they fit in a few MB (worked out once), else one row a block
        block = 1 if pair_count(low, high) <= _KEPT_PAIRS else max(1, math.isqrt(int(np.count_nonzero(high > low))))
    return _programme(low, high, weights, block)


def _programme(
    low: np.ndarray, high: np.ndarray, weights: Callable[[int, int, int], np.ndarray], block: int
) -> tuple[np.ndarray, np.ndarray]:
    """`best_staircase` with its table kept every `block`-th row (`best_chain`'s numpy programme: every row)."""
    rows = np.flatnonzero(high > low)
    count = len(rows)
    if not count:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    lows, highs = low[rows].tolist(), (high[rows] - 1).tolist()  # each row's columns, the last included
    row_of = rows.tolist()

    def row_table(k: int, after: np.ndarray | None, after_low: int) -> np.ndarray:
        # f(row k, column) for its run and one column past it, from f of the next row (from column after_low).
        low_k, high_k = lows[k], highs[k]
        if after is None:
            later = np.zeros(high_k + 2 - low_k, np.int64)
        else:
            later = after[np.maximum(np.arange(low_k - after_low, high_k + 2 - after_low), 0)]
        values = np.empty(len(later), np.int64)
        values[-1] = later[-1]
        values[:-1] = np.maximum(later[:-1], weights(row_of[k], low_k, high_k + 1) + later[1:])
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
    for k in range(count):
        if block > 1 and k % block == 0:  # the block's other tables again, from the kept table of the row after it
            last = min(k + block, count)
            after = kept.get(last)
            for row in range(last - 1, k, -1):
                after = kept[row] = row_table(row, after, lows[row + 1] if row + 1 < count else 0)
        low_k, high_k, table = lows[k], highs[k], kept.pop(k)  # each table dropped once read
        if column > high_k:
            continue
        column = max(column, low_k)
        if k + 1 < count:
            following = kept[k + 1][np.maximum(np.arange(column + 1 - lows[k + 1], high_k + 2 - lows[k + 1]), 0)]
        else:
            following = np.zeros(high_k + 1 - column, np.int64)
        reach = weights(row_of[k], column, high_k + 1) + following
        hits = np.flatnonzero(reach == table[column - low_k])
        if len(hits):
            taken = column + int(hits[0])
            chosen_r.append(row_of[k])
            chosen_p.append(taken)
            column = taken + 1
    return np.array(chosen_r, np.int64), np.array(chosen_p, np.int64)


def staircase_pairs(
    r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray, reuse: bool = False
) -> tuple[np.ndarray, np.ndarray] | None:
    """§3's pairs (references, predictions) of a staircase from its runs, without listing its overlapping pairs
    (`best_staircase`), with `rules.best_flow`'s weights (a pair, then the shared extent: the reference extent of
    them all + 1 as the radix); None where the totals would not fit an int64 or the runs are short (`worth_runs`:
    the pairs are listed then). The array path of §3 (`forms.component_arrays`) pairs its staircases by it, and
    the value pairing (`value_arrays`) those whose pairs are all of one worth: with `reuse`, it reads §3's pairs
    of the same staircase where they were found a moment before (`recent`, issue 31, item 6)."""
    extent_radix = int((r_end - r_start).sum()) + 1
    if 2 * extent_radix * (len(r_start) + 1) >= 2**62:
        return None

    def weights(k: int, first: int, last: int) -> np.ndarray:
        shared = np.minimum(p_end[first:last], r_end[k]) - np.maximum(p_start[first:last], r_start[k])
        return shared + extent_radix

    low, high = runs(r_start, r_end, p_start, p_end)
    if not worth_runs(low, high):
        return None
    key = key_of("staircase", *_placed_apart(r_start, r_end, p_start, p_end))
    found = recall(key) if reuse else None
    if found is None:
        found = best_staircase(low, high, weights)
        if not reuse:
            remember(key, found)
    return found[0], found[1]


def _placed_apart(r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray) -> list[np.ndarray]:
    """What a staircase's pairs depend on, wherever its sentences are placed: each entity's start and end from the
    first start of its cluster (`clusters`: no pair joins two), and each entity's cluster, references first. The
    runs, the pairs' shared extents and the references' extent are the same for any placement of the clusters in
    order, so `recent` reads §3's pairs back where the value pairing places the same sentences otherwise."""
    cluster_r, cluster_p, firsts = clusters(r_start, r_end, p_start, p_end)
    first_r, first_p = firsts[cluster_r], firsts[cluster_p]
    return [
        r_start - first_r,
        r_end - first_r,
        p_start - first_p,
        p_end - first_p,
        np.concatenate((cluster_r, cluster_p)),
    ]


def clusters(
    r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each entity's cluster, of each side (a maximal run of both sides' entities, by start, each starting before
    the ends before it reach: every overlap component lies within one), and each cluster's first start."""
    starts, ends = np.concatenate((r_start, p_start)), np.concatenate((r_end, p_end))
    order = np.argsort(starts, kind="stable")
    new = np.ones(len(starts), bool)
    new[1:] = starts[order][1:] >= np.maximum.accumulate(ends[order])[:-1]
    label = np.empty(len(starts), np.int64)
    label[order] = np.cumsum(new) - 1
    return label[: len(r_start)], label[len(r_start) :], starts[order][new]


def uncrossed(columns: tuple, rows, predictions) -> bool:
    """Whether rule (d)'s pairing of a component without copies never crosses, so that
    `best_chain` finds it: when its entities (`rows` and `predictions`, indices into the arrays
    of `span_columns`, in (start, end, type) order) are of one type and on each side no entity ends before an
    earlier one. Then of references a < b and predictions c < d, the starts and the ends of a are at most those of
    b, and likewise for c and d; where (a, d) and (b, c) overlap, (a, c) and (b, d) are pairs as well (when each
    reference's predictions form a run, which `best_chain` checks), of the same type, and share at least as much:
    min(end) is supermodular and max(start) submodular on ordered values, so
    min(a, c) + min(b, d) >= min(a, d) + min(b, c) for the ends and the opposite for the starts. Uncrossing a best
    pairing thus keeps it best and makes its sorted list smaller ((a, c) comes before (a, d)). The pairs of
    identical boundaries are all of one type and made before (`rules._pair_nested`)."""
    _, r_end, r_type, _, p_end, p_type = columns
    kinds = np.concatenate((r_type[rows], p_type[predictions]))
    if kinds.min() != kinds.max():
        return False
    return bool(np.all(np.diff(r_end[rows]) >= 0) and np.all(np.diff(p_end[predictions]) >= 0))


def best_noncrossing(edges: list[tuple[int, int]], weight: Callable[[tuple[int, int]], int]) -> list[tuple[int, int]]:
    """Of the pairings made of `edges` (i, j) sorted, which never cross (docs/scoring.md §3), the one of largest
    total `weight` (positive integers), and of those the lexicographically smallest (§3 d): a dynamic programme
    linear in the edges: §3's pairing of sides without overlapping entities (`rules.pair_overlapping`) and the value's
    (`value.py`); `best_chain` where a row's columns form a run that may reach back past the next row's first."""
    # After edge k, the edges compatible with it (later reference and later prediction) form a suffix of the
    # list starting at follow[k]; best[k] is the best total of a pairing whose first edge is k.
    count = len(edges)
    follow = [count] * count
    cut = count
    for k in range(count - 1, -1, -1):
        i, j = edges[k]
        while cut > k + 1 and edges[cut - 1][0] > i and edges[cut - 1][1] > j:
            cut -= 1
        follow[k] = cut
    best = [0] * count
    best_from = [0] * (count + 1)  # best_from[k] = max(best[k:]), 0 for the empty pairing
    for k in range(count - 1, -1, -1):
        best[k] = weight(edges[k]) + best_from[follow[k]]
        best_from[k] = max(best[k], best_from[k + 1])

    # Reading left to right and taking the first edge that still reaches the optimum gives the
    # lexicographically smallest pairing among the optimal ones (docs/scoring.md §3 d).
    pairs = []
    target = best_from[0]
    k = 0
    while target > 0:
        while best[k] != target:
            k += 1
        pairs.append(edges[k])
        target -= weight(edges[k])
        k = follow[k]
    return pairs


def best_chain(
    edge_rows: np.ndarray, edge_columns: np.ndarray, edge_weights: np.ndarray, reuse: bool = False
) -> np.ndarray | None:
    """`best_matching` among the matchings that never cross (no two edges (a, d) and (b, c) with a < b and
    c < d), by a dynamic programme linear in the edges; None unless every row's columns form one run whose first
    and last never decrease from row to row (a "staircase" of windows; then, of two crossing edges (a, d) and
    (b, c), the uncrossed (a, c) and (b, d) are edges too). The caller knows that rule (d)'s choice among the
    best matchings never crosses (`uncrossed`).

    f(i, j), the best total of the rows from i on and the columns from j on, is
    max(f(i + 1, j), f(i, j + 1), w_ij + f(i + 1, j + 1)), kept for each row over its run and one column past
    it (beyond that f(i, j) = f(i + 1, j), before it f(i, first)). Reading rows in order and taking at each the
    smallest column that still reaches the optimum gives the smallest list of the best ones (rule (d)).

    With `reuse` (the value pairing's call), the answer found a moment before for the same edges and weights
    (§3's, kept in `recent`; edges numbered from anywhere) is read back where there is one (issue 31, item 6)."""
    if len(edge_weights) == 0:
        return None
    order = np.lexsort((edge_columns, edge_rows))
    rows_sorted, columns_sorted = edge_rows[order], edge_columns[order]
    bounds = run_bounds(rows_sorted)
    starts, ends = bounds[:-1], bounds[1:]
    if int(edge_weights.max()) * (len(starts) + 1) >= 2**63:
        return None  # every total (of a matching: an edge a row at most) and each plus a weight below 2**63, exact
    low, high = columns_sorted[starts], columns_sorted[ends - 1]
    if np.any(high - low + 1 != ends - starts) or np.any(np.diff(low) < 0) or np.any(np.diff(high) < 0):
        return None
    weights = edge_weights[order]
    chosen = np.zeros(len(order), bool)
    key = None
    if 3 * len(order) <= KEPT_LARGEST:
        key = key_of("chain", rows_sorted - rows_sorted[0], columns_sorted - low[0], weights)
    del rows_sorted, columns_sorted  # (issue 31, item 7)
    found = recall(key) if reuse else None
    if found is not None:
        chosen[order[found[0]]] = True
        return chosen
    first, lows, highs = starts.tolist(), low.tolist(), high.tolist()
    if len(weights) <= _SHORT_RUN * len(first):
        picked = _chain_on_lists(first, lows, highs, weights.tolist())
    else:
        picked = _chain_on_numpy(first, lows, highs, weights)
    if not reuse:
        remember(key, (np.array(picked, np.int64),))
    chosen[order[picked]] = True
    return chosen


def _chain_on_numpy(first: list[int], lows: list[int], highs: list[int], weights: np.ndarray) -> list[int]:
    """`best_chain`'s programme on numpy runs, `best_staircase`'s with every row's table kept: the positions of the
    chosen edges in `weights` (edges by (row, column)), the first edge of each row at `first`, its columns from
    `lows` to `highs`."""
    at = [edge - low for edge, low in zip(first, lows)]  # the edge (k, c) is weights[at[k] + c]
    rows, columns = _programme(
        np.array(lows, np.int64),
        np.array(highs, np.int64) + 1,
        lambda k, low, high: weights[at[k] + low : at[k] + high],
        1,
    )
    return [at[k] + c for k, c in zip(rows.tolist(), columns.tolist())]


# Runs of at most this many columns on average are worked out in plain Python (`_chain_on_lists`): numpy's calls
# cost more than the arithmetic of a short run (the staircase of windows of 11, 2,000 a side: 19 ms on numpy).
_SHORT_RUN = 32


def _chain_on_lists(first: list[int], lows: list[int], highs: list[int], weights: list[int]) -> list[int]:
    """`best_chain`'s programme on Python lists, for short runs: the same tables, the same choice; the positions
    of the chosen edges in `weights` (edges by (row, column))."""
    count = len(first)
    tables: list[list[int]] = [[]] * count
    after: list[int] = []  # f of the row after, by column from after_low
    after_low = 0
    for k in range(count - 1, -1, -1):
        low_k, high_k = lows[k], highs[k]
        if k + 1 < count:
            # f(row k + 1, column) over the run and one past it; before the next run's first column, f(k + 1, first)
            # (Runs only move on: low_k <= after_low, and the run ends within the next one's table.)
            later = [after[0]] * (min(after_low, high_k + 2) - low_k) + after[: max(high_k + 2 - after_low, 0)]
        else:
            later = [0] * (high_k + 2 - low_k)
        at = first[k]  # the edge of column low_k + t is weights[at + t]
        values = later[:]
        best = later[-1]
        for t in range(len(later) - 2, -1, -1):
            value = weights[at + t] + later[t + 1]
            if later[t] > value:
                value = later[t]
            if value > best:
                best = value
            values[t] = best
        tables[k] = after = values
        after_low = low_k
    chosen = []
    column = lows[0]
    for k in range(count):
        low_k, high_k = lows[k], highs[k]
        if column > high_k:
            continue
        column = max(column, low_k)
        target = tables[k][column - low_k]
        last = k + 1 == count
        following, next_low = ([], 0) if last else (tables[k + 1], lows[k + 1])
        for taken in range(column, high_k + 1):
            reach = weights[first[k] + taken - low_k]
            if not last:
                reach += following[taken + 1 - next_low] if taken + 1 > next_low else following[0]
            if reach == target:
                chosen.append(first[k] + taken - low_k)
                column = taken + 1
                break
    return chosen
