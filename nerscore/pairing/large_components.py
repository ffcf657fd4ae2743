"""A compiled assignment solver for large components of the pairing of nested entities (docs/scoring.md §3).

`nerscore.pairing.assignment.max_weight_flow` is exact on integers of any size but pure Python: on a component of
thousands of deeply nested entities (millions of overlapping pairs) its time grows about as the cube of the size.
Where the weights fit in a float64 exactly, scipy's compiled solvers find the matching, and its proof of
optimality (an optimal dual) is recovered and checked here in integer arithmetic; rule (d) is then worked out on
the edges the dual leaves (`best_matching`). Whatever cannot be proven exactly returns None, and the caller keeps
the pure-Python solver. A component whose best pairing never crosses (`uncrossed`) goes to a dynamic programme
first (`best_chain`); `best_pairs` makes that choice on `edge_digits`' weights, for the entities as arrays
(`span_columns`, or the array path's own).

scipy is imported inside the functions: `import nerscore` must stay light (tests/test_house.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..span import Span

# The non-crossing programme, named here as well for its callers (`best_pairs`, the value pairing, tests).
from .staircase import best_chain, uncrossed
from .tight_matchings import tight_smallest_best

# Every integer below 2**53 is a float64 exactly, and so is every sum of them that stays below it.
EXACT = 2**53

# Sweeps of the potentials' relaxation (`_potentials`) allowed, in units of rows + columns + 64. Each sweep does
# at least what a round of Bellman-Ford along alternating paths does (one row further): when the matching is
# best there is no cycle to gain on, and it settles within rows + 1 of them, in practice a handful (sweeps go
# over the columns forwards and backwards in turn, so a path running either way settles in one); a matching that
# is not best may never settle, and the cap hands it back to the exact solver.
_ROUNDS = 1

# A component with at least 1 / _DENSE_SHARE of all its possible pairs overlapping is solved on a dense matrix.
_DENSE_SHARE = 4


def fits(edge_weights: np.ndarray, rows: int, columns: int) -> bool:
    """Whether every total a solver forms stays below 2**53, so exact in a float64: a matching has at most
    min(rows, columns) edges, each at most the largest weight; the sparse solver's full matching (`_solve`) has
    rows + columns costs of at most the largest weight + 1. So (rows + columns) * (largest + 1) bounds every sum.
    The answer does not rest on this alone: whatever scipy returns is proven in integer arithmetic
    (`_potentials`)."""
    return len(edge_weights) > 0 and (rows + columns) * (int(edge_weights.max()) + 1) < EXACT


def best_matching(
    edge_rows: np.ndarray, edge_columns: np.ndarray, edge_weights: np.ndarray, exact_sums: bool = True
) -> np.ndarray | None:
    """Of the matchings of largest total weight of a bipartite graph (edge k joins row `edge_rows[k]` and column
    `edge_columns[k]` at weight `edge_weights[k]` > 0, no pair twice), the one rule (d) of docs/scoring.md §3
    prefers: the one whose edges, sorted by (row, column), form the smallest list (entities are numbered in
    (start, end, type) order, so this is rule (d)'s order). Returns a mask of its edges; None where the weights do
    not fit a float64 or scipy's matching is not proven best, and the caller keeps the pure-Python solver.

    The matching comes from scipy (`_solve`), its proof from `_potentials`: an optimal dual, checked exactly in
    int64. By complementary slackness the best matchings are then exactly the matchings of the edges whose
    potentials add up to their weight (tight) that pair every entity of non-zero potential (each of them has the
    dual's total, and no other matching does). So rule (d) needs no weights of its own, which would not fit a
    float64: `tight_smallest_best` chooses among those matchings on the tight edges.

    With `exact_sums` False, only every weight (and every cost scipy is given) need be exact in a float64, not
    every sum: scipy's sums may then round, and a matching it gets wrong is not proven, so the answer is as exact
    (the value pairing's digits, one more digit than §3's, issue 31); a failed proof costs a scipy solve more."""
    (rows_at, rows), (columns_at, columns) = _numbered(edge_rows), _numbered(edge_columns)
    weights = np.asarray(edge_weights, dtype=np.int64)
    if exact_sums and not fits(weights, rows, columns):
        return None
    proven = proven_matching(rows_at, columns_at, weights, rows, columns)
    return None if proven is None else tight_smallest_best(rows_at, columns_at, weights, rows, columns, *proven)


def proven_matching(
    edge_rows: np.ndarray, edge_columns: np.ndarray, edge_weights: np.ndarray, rows: int, columns: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """`best_matching`'s matching (matched rows, matched columns) and its optimal dual (u, v), on rows and columns
    numbered 0, 1, ... already; None where a weight is not exact in a float64 or the matching is not proven."""
    weights = np.asarray(edge_weights, dtype=np.int64)
    if not len(weights) or int(weights.max()) + 1 >= EXACT:
        return None
    matched_rows, matched_columns = _solve(edge_rows, edge_columns, weights, rows, columns)
    proof = _potentials(edge_rows, edge_columns, weights, rows, columns, matched_rows, matched_columns)
    return None if proof is None else (matched_rows, matched_columns, *proof)


def dense_assignment(costs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """scipy's assignment of least total cost of a float64 matrix of no more rows than columns, C-ordered, which
    scipy then reads in place: maximising, or more rows than columns, would have it copy the matrix (8 bytes a
    cell, `pairing.dense`). (Of the pairing, only this module imports scipy, tests/test_house.py.)"""
    from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

    return linear_sum_assignment(costs)


def _numbered(ids: np.ndarray) -> tuple[np.ndarray, int]:
    """`ids` (integers >= 0) renumbered 0, 1, ... in the same order, and how many there are (no sort)."""
    present = np.zeros(int(ids.max()) + 1, bool)
    present[ids] = True
    if present.all():  # numbered already (every entity of a dense sentence): no copy of the pairs (issue 31)
        return ids, len(present)
    index = np.int32 if len(present) < 2**31 else np.int64  # 4 bytes an edge where it can (issue 31)
    return (np.cumsum(present, dtype=index) - 1)[ids], int(present.sum())


def _on_matching(
    edge_rows: np.ndarray, edge_columns: np.ndarray, rows: int, matched_rows: np.ndarray, matched_columns: np.ndarray
) -> np.ndarray | None:
    """The mask of the edges in the matching; None if it is not one (an entity twice, a pair that is no edge)."""
    if len(np.unique(matched_columns)) != len(matched_columns) or len(np.unique(matched_rows)) != len(matched_rows):
        return None
    partner = np.full(rows, -1, np.int64)
    partner[matched_rows] = matched_columns
    on = partner[edge_rows] == edge_columns
    return on if int(on.sum()) == len(matched_rows) else None


def _solve(
    edge_rows: np.ndarray, edge_columns: np.ndarray, edge_weights: np.ndarray, rows: int, columns: int
) -> tuple[np.ndarray, np.ndarray]:
    """A matching of largest total weight, as (row indices, column indices) of its edges, by scipy (float64,
    exact below 2**53)."""
    if len(edge_weights) * _DENSE_SHARE >= rows * columns:
        from scipy.optimize import linear_sum_assignment

        dense = np.zeros((rows, columns), np.float64)
        dense[edge_rows, edge_columns] = edge_weights
        found_rows, found_columns = linear_sum_assignment(dense, maximize=True)
        keep = dense[found_rows, found_columns] > 0
        return found_rows[keep].astype(np.int64), found_columns[keep].astype(np.int64)
    from scipy.sparse import coo_array  # type: ignore[import-untyped]
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching  # type: ignore[import-untyped]

    # Costs to minimise, all >= 1 (scipy takes a stored entry as an edge, and rejects none of these): a pair
    # costs top - w, an entity unpaired top, and each "unpaired" row may take any "unpaired" column at top
    # (one for each pair made), so every full matching costs (rows + columns) * top - its total weight.
    top = int(edge_weights.max()) + 1
    unpaired_r, unpaired_c = np.arange(rows), np.arange(columns)
    matrix_rows = np.concatenate([edge_rows, unpaired_r, rows + unpaired_c, rows + edge_columns])
    matrix_columns = np.concatenate([edge_columns, columns + unpaired_r, unpaired_c, columns + edge_rows])
    costs = np.concatenate(
        [top - edge_weights, np.full(rows + columns, top, np.int64), np.full(len(edge_weights), top, np.int64)]
    ).astype(np.float64)
    size = rows + columns
    matrix = coo_array((costs, (matrix_rows, matrix_columns)), shape=(size, size)).tocsr()
    found_rows, found_columns = min_weight_full_bipartite_matching(matrix)
    keep = (found_rows < rows) & (found_columns < columns)
    return found_rows[keep].astype(np.int64), found_columns[keep].astype(np.int64)


def relaxed(
    count: int,
    sweeps: int,
    best_of: Callable[[int], int],
    mates: Sequence[int],
    mate_weights: Sequence[int],
    own: Any,
    other: Any,
) -> bool:
    """The Gauss-Seidel relaxation of `_potentials` (and `dense`'s): `own[k]` rises to `best_of(k)`, one k at a time,
    sweeps alternately forward and back, and the mate's `other[mates[k]]` follows as its weight less `own[k]`. True
    once a sweep changes nothing; False where a potential of `other` goes negative or the sweeps run out."""
    for sweep in range(sweeps):
        changed = False
        for k in range(count) if sweep % 2 == 0 else range(count - 1, -1, -1):
            best = best_of(k)
            if best > own[k]:
                own[k] = best
                changed = True
                mate = mates[k]
                if mate >= 0:
                    other[mate] = mate_weights[mate] - best
                    if other[mate] < 0:
                        return False
        if not changed:
            return True
    return False


def _potentials(
    edge_rows: np.ndarray,
    edge_columns: np.ndarray,
    edge_weights: np.ndarray,
    rows: int,
    columns: int,
    matched_rows: np.ndarray,
    matched_columns: np.ndarray,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Row potentials u and column potentials v (int64) proving the matching best, or None when it is not
    proven (a potential goes negative, the relaxation does not settle in its sweeps, or the result is not an
    optimal dual).

    scipy gives no potentials. They are the least fixed point of v_j = max(0, max_i w_ij - u_i), with
    u_i = w_i,m(i) - v_m(i) for a matched row and 0 for an unmatched one, reached from v = 0 by relaxing one
    column at a time (Gauss-Seidel: each column sees the values just found, which is what makes a handful of
    sweeps enough where rounds over all columns at once need one per entity on a chain of nested entities).
    While v is at most some optimal dual's v*, u is at least u* >= 0 and the next value of a column at most v*
    again: so a negative u proves the matching not best, and the first fixed point is the least optimal dual."""
    on = _on_matching(edge_rows, edge_columns, rows, matched_rows, matched_columns)
    if on is None:
        return None
    matched_weight = np.zeros(rows, np.int64)
    matched_weight[edge_rows[on]] = edge_weights[on]
    owner = np.full(columns, -1, np.int64)
    owner[matched_columns] = matched_rows
    owners, weights_of = owner.tolist(), matched_weight.tolist()
    best_of: Callable[[int], int]
    by_column: Any = None
    if len(edge_weights) * _DENSE_SHARE >= rows * columns:
        # Dense: one row of weights per column, -1 for a missing pair (below every w - u that counts), in numpy.
        by_column = np.full((columns, rows), -1, np.int64)
        by_column[edge_columns, edge_rows] = edge_weights
        u: Any = matched_weight.copy()

        def best_of(column: int) -> int:
            return int((by_column[column] - u).max())

    else:
        # Sparse: each column's (row, weight) lists, in plain Python (a few edges each).
        by_column_order = np.argsort(edge_columns, kind="stable")
        bounds = np.searchsorted(edge_columns[by_column_order], np.arange(columns + 1)).tolist()
        rows_of, weights_in = edge_rows[by_column_order].tolist(), edge_weights[by_column_order].tolist()
        u = matched_weight.tolist()

        def best_of(column: int) -> int:
            best = -1
            for k in range(bounds[column], bounds[column + 1]):
                value = weights_in[k] - u[rows_of[k]]
                if value > best:
                    best = value
            return best

    v = [0] * columns
    if not relaxed(columns, _ROUNDS * (rows + columns + 64), best_of, owners, weights_of, v, u):
        return None
    proof = np.array(u, np.int64), np.array(v, np.int64)
    by_column = None  # the dense weights go before the proof is checked (issue 31, item 7)
    return proof if verified(edge_rows, edge_columns, edge_weights, matched_rows, matched_columns, *proof) else None


_VERIFIED_BLOCK = 1 << 16  # edges checked at a time by `verified`


def verified(
    edge_rows: np.ndarray,
    edge_columns: np.ndarray,
    edge_weights: np.ndarray,
    matched_rows: np.ndarray,
    matched_columns: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
) -> bool:
    """Whether (u, v) is an optimal dual of the matching (integer arithmetic): u_i + v_j >= w_ij on every edge, and
    `complementary` (u, v >= 0, equality on matched edges, 0 on unmatched entities)."""
    # A block of edges at a time: three temporaries of a million pairs each would be 24 bytes a pair at the peak.
    for first in range(0, len(edge_weights), _VERIFIED_BLOCK):
        block = slice(first, first + _VERIFIED_BLOCK)
        if np.any(u[edge_rows[block]] + v[edge_columns[block]] < edge_weights[block]):
            return False
    on = _on_matching(edge_rows, edge_columns, len(u), matched_rows, matched_columns)
    return on is not None and complementary(edge_rows[on], edge_columns[on], edge_weights[on], u, v)


def complementary(rows: np.ndarray, columns: np.ndarray, weights: np.ndarray, u: np.ndarray, v: np.ndarray) -> bool:
    """Whether potentials (u, v) covering every pair (u_i + v_j >= w_ij: the caller checks it on the edges listed,
    `verified`, or on every cell, `dense`) are an optimal dual of the matching of pairs (rows[k], columns[k]) of
    weight weights[k], in integers: u, v >= 0, equality on the matching, 0 on the entities it leaves."""
    free_rows, free_columns = np.ones(len(u), bool), np.ones(len(v), bool)
    free_rows[rows], free_columns[columns] = False, False
    wrong = np.any(u < 0) or np.any(v < 0) or np.any(u[rows] + v[columns] != weights)
    return not (wrong or np.any(u[free_rows] != 0) or np.any(v[free_columns] != 0))


def span_columns(references: Sequence[Span], predictions: Sequence[Span]) -> tuple:
    """Start, end and type id arrays of each side (type ids equal where the types are)."""
    type_ids: dict[str, int] = {}

    def columns(spans: Sequence[Span]) -> tuple:
        starts = np.fromiter((span.start for span in spans), np.int64, len(spans))
        ends = np.fromiter((span.end for span in spans), np.int64, len(spans))
        kinds = np.fromiter((type_ids.setdefault(span.entity_type, len(type_ids)) for span in spans), np.int64)
        return starts, ends, kinds

    return (*columns(references), *columns(predictions))


def edge_digits(columns: tuple, i, j, radix: int, extent_radix: int):
    """`rules._digits` on arrays, of the edges (i[k], j[k]) of entities given as arrays (`span_columns`), every digit
    below 2**62 (`digits_fit`, which the caller checks): the same digits, left out where equal on every edge."""
    r_start, r_end, r_type, p_start, p_end, p_type = columns
    same_bounds = (r_start[i] == p_start[j]) & (r_end[i] == p_end[j])
    digits = tiered_digits(same_bounds, r_type[i] == p_type[j], radix, extent_radix)
    del same_bounds
    add_shared(digits, columns, i, j)
    return digits


def digits_fit(radix: int, extent_radix: int) -> bool:
    """Whether `rules._digits`' digits of these radices stay below 2**62, in an int64 (each solver checks its sums)."""
    return ((radix + 1) * radix + 2) * extent_radix < 2**62


def tiered_digits(same_bounds: np.ndarray, same_type: np.ndarray, radix: int, extent_radix: int) -> np.ndarray:
    """`rules._digits` on arrays above the shared part, times `extent_radix`: identical boundaries, a pair, one type
    (each of `radix`), left out where equal on every edge; the caller adds what each edge shares (the extent, §3's
    `edge_digits`; the units, §12's `forms.fragment_large.large_amounts`). In place, one array of digits and one
    temporary at a time: 8 bytes a pair and a passing 16, where the digits, their tiers and the shared extent each
    held 8 (issue 31, item 7)."""
    digits = same_bounds * np.int64(radix if same_bounds.min() != same_bounds.max() else 0)
    digits += 1
    if same_type.min() != same_type.max():
        digits *= radix
        digits += same_type
    digits *= np.int64(extent_radix)
    return digits


def add_shared(digits: np.ndarray, columns: tuple, i: np.ndarray, j: np.ndarray) -> None:
    """Adds the extent each edge (i[k], j[k]) of `columns`' entities shares to `digits[k]`, in place: a temporary
    less of 8 bytes a pair (issue 31, item 7)."""
    r_start, r_end, _, p_start, p_end, _ = columns
    bound = r_end[i]
    np.minimum(bound, p_end[j], out=bound)
    digits += bound
    del bound
    bound = r_start[i]
    np.maximum(bound, p_start[j], out=bound)
    digits -= bound


def best_pairs(columns: tuple, i, j, radix: int, extent_radix: int):
    """`rules.best_flow` of a large component without copies, whose edges are (i[k], j[k]) between the
    entities of `columns` (`span_columns`' arrays): whether each edge pairs (bool array), by `best_chain` where
    `uncrossed` admits it, else by `best_matching`; or None where the
    pure-Python solver must do it (digits beyond int64, weights that do not fit a float64 exactly for scipy, or no
    proof). The digits are `edge_digits`'; rule (d) needs no bits below them there (it is worked out on the tight
    edges, or by the programme)."""
    if not digits_fit(radix, extent_radix):
        return None
    digits = edge_digits(columns, i, j, radix, extent_radix)
    return chosen_edges(i, j, digits, uncrossed(columns, np.unique(i), np.unique(j)))


def chosen_edges(i, j, digits, chained: bool, reuse: bool = False, exact_sums: bool = True) -> np.ndarray | None:
    """The mask of the best pairing of a large component's edges (i[k], j[k]) on `digits` (§3's, `best_pairs`, or
    the value's, `value.large_value_mask`): by `best_chain` where the caller knows it never crosses (`chained`:
    `uncrossed`; `reuse`, §3's answer read back), else by `best_matching` (`exact_sums`); None where neither can."""
    chosen = best_chain(i, j, digits, reuse) if chained else None
    return best_matching(i, j, digits, exact_sums) if chosen is None else chosen


def component_labels(i: np.ndarray, j: np.ndarray, references: int, predictions: int) -> np.ndarray:
    """`nerscore.pairing.assignment.union_find` by scipy's connected components, for many edges: for each edge
    (reference index i[k] < `references`, prediction index j[k] < `predictions`), a number naming its
    component."""
    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import connected_components

    size = references + predictions
    graph = coo_array((np.ones(len(i), np.int8), (i, references + j)), shape=(size, size))
    _, labels = connected_components(graph, directed=False)
    return labels[i]
