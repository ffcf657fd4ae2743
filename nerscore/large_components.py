"""A compiled assignment solver for large components of the pairing of nested entities (docs/scoring.md §3).

`nerscore.assignment.max_weight_flow` is exact on integers of any size but pure Python: on a component of
thousands of deeply nested entities (millions of overlapping pairs) its time grows about as the cube of the size.
Where the weights fit in a float64 exactly, scipy's compiled solvers find the matching, and its proof of
optimality (the potentials rule (d) needs, `nerscore.pairing._rule_d`) is recovered and checked here in integer
arithmetic. Whatever cannot be proven exactly returns None, and the caller keeps the pure-Python solver.

scipy is imported inside the functions: `import nerscore` must stay light (tests/test_house.py).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

# Every integer below 2**53 is a float64 exactly, and so is every sum of them that stays below it.
EXACT = 2**53

# Rounds of the potentials' relaxation (`_potentials`) allowed, in units of rows + columns + 64. It is
# Bellman-Ford along alternating paths (each round one row further): when the matching is best there is no
# cycle to gain on, and it settles within rows + 1 rounds, usually far fewer (nested entities keep the paths
# short); a matching that is not best may never settle, and the cap hands it back to the exact solver.
_ROUNDS = 1


# A component with at least 1 / _DENSE_SHARE of all its possible pairs overlapping is solved on a dense matrix.
_DENSE_SHARE = 4


def spare_bits(weights: Mapping[tuple[int, int], int]) -> int:
    """How many bits of their own (`nerscore.pairing._with_bits`, every room 1) the edges can get below
    `weights` with every total a solver forms still below 2**53, so exact in a float64; -1 when the weights
    themselves do not fit. A matching has at most min(rows, columns) edges, each at most the largest weight;
    the sparse solver's full matching (`_solve`) has rows + columns of costs at most the largest weight + 1.
    So (rows + columns) * (largest + 1), shifted by the bits, bounds every sum. The answer does not rest on
    this alone: whatever scipy returns is proven in integer arithmetic (`_potentials`)."""
    if not weights:
        return -1
    rows = len({i for i, _ in weights})
    columns = len({j for _, j in weights})
    bound = (rows + columns) * (max(weights.values()) + 1)
    if bound >= EXACT:
        return -1
    bits = 0
    while (bound << (bits + 1)) < EXACT:
        bits += 1
    return bits


def max_weight_matching(
    weights: Mapping[tuple[int, int], int],
) -> tuple[dict[tuple[int, int], int], dict[int, int], dict[int, int], list[tuple[int, int]]] | None:
    """`max_weight_flow(weights)` with every capacity 1, in the same form ({edge: 1}, row potentials >= 0,
    column potentials <= 0), and the edges whose potentials add up to their weight (tight), solved by scipy
    where `spare_bits(weights) >= 0` (the caller checks) and proven here; None when the proof fails.

    The matching comes from `scipy.optimize.linear_sum_assignment` on a dense matrix (0 for a missing pair,
    which no best matching needs) when the component is dense, else from
    `scipy.sparse.csgraph.min_weight_full_bipartite_matching` with an "unpaired" column per row and an
    "unpaired" row per column, so that a full matching always exists. scipy gives no potentials; they are the
    least fixed point of v_j = max(0, max_i w_ij - u_i), u_i = w_i,m(i) - v_m(i) (0 for an unmatched row),
    reached from v = 0 by vectorized relaxation. Then, in int64 (every value below 2**53): u, v >= 0,
    u_i + v_j >= w_ij on every edge, equality on the matching, and u = 0, v = 0 on unmatched entities. That
    is an optimal dual, so the matching is a best one (weak duality), whatever rounding scipy did."""
    rows = sorted({i for i, _ in weights})
    columns = sorted({j for _, j in weights})
    row_index = {row: k for k, row in enumerate(rows)}
    column_index = {column: k for k, column in enumerate(columns)}
    count = len(weights)
    edge_rows = np.fromiter((row_index[i] for i, _ in weights), np.int64, count)
    edge_columns = np.fromiter((column_index[j] for _, j in weights), np.int64, count)
    edge_weights = np.fromiter(weights.values(), np.int64, count)
    matched_rows, matched_columns = _solve(edge_rows, edge_columns, edge_weights, len(rows), len(columns))
    proof = _potentials(edge_rows, edge_columns, edge_weights, len(rows), len(columns), matched_rows, matched_columns)
    if proof is None:
        return None
    u, v = proof
    flow = {(rows[r], columns[c]): 1 for r, c in zip(matched_rows.tolist(), matched_columns.tolist())}
    row_potential = dict(zip(rows, u.tolist()))
    column_potential = {column: -value for column, value in zip(columns, v.tolist()) if value}
    tight = np.flatnonzero(u[edge_rows] + v[edge_columns] == edge_weights).tolist()
    edges = list(weights)
    return flow, row_potential, column_potential, [edges[k] for k in tight]


def _solve(
    edge_rows: np.ndarray, edge_columns: np.ndarray, edge_weights: np.ndarray, rows: int, columns: int
) -> tuple[np.ndarray, np.ndarray]:
    """A matching of largest total weight, as (row indices, column indices) of its edges, by scipy (float64,
    exact below 2**53)."""
    if len(edge_weights) * _DENSE_SHARE >= rows * columns:
        from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

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
    proven (the relaxation does not settle in its rounds, or the result is not an optimal dual)."""
    partner = np.full(rows, -1, np.int64)
    partner[matched_rows] = matched_columns
    if len(np.unique(matched_columns)) != len(matched_columns) or len(np.unique(matched_rows)) != len(matched_rows):
        return None
    # The weight of each matched edge; a pair that is not an edge is no matching's.
    key = edge_rows * columns + edge_columns
    order = np.argsort(key, kind="stable")
    wanted = matched_rows * columns + matched_columns
    at = np.searchsorted(key[order], wanted)
    if np.any(at >= len(key)) or np.any(key[order][np.minimum(at, len(key) - 1)] != wanted):
        return None
    matched_weight = np.zeros(rows, np.int64)
    matched_weight[matched_rows] = edge_weights[order][at]
    has_partner = partner >= 0
    if len(edge_weights) * _DENSE_SHARE >= rows * columns:
        # Dense: one matrix, missing pairs at a weight no potential goes below (-1), maxima along its axis.
        dense = np.full((rows, columns), -1, np.int64)
        dense[edge_rows, edge_columns] = edge_weights

        def column_best(u: np.ndarray) -> np.ndarray:
            return np.maximum((dense - u[:, None]).max(axis=0), 0)

    else:
        # Sparse: edges grouped by column, a per-column maximum by reduceat.
        by_column = np.argsort(edge_columns, kind="stable")
        group_rows, group_weights = edge_rows[by_column], edge_weights[by_column]
        starts = np.flatnonzero(np.r_[True, np.diff(edge_columns[by_column]) != 0])
        present = edge_columns[by_column][starts]

        def column_best(u: np.ndarray) -> np.ndarray:
            best = np.zeros(columns, np.int64)
            best[present] = np.maximum(np.maximum.reduceat(group_weights - u[group_rows], starts), 0)
            return best

    # From v = 0 up: while v is at most some optimal dual's v*, u = w_m - v is at least u*, so the next v is
    # at most v* again; the first fixed point is the least one, an optimal dual when the matching is best.
    v = np.zeros(columns, np.int64)
    u = np.where(has_partner, matched_weight, 0)
    for _ in range(_ROUNDS * (rows + columns + 64)):
        v_next = column_best(u)
        if np.array_equal(v_next, v):
            break
        v = v_next
        u = np.where(has_partner, matched_weight - v[np.maximum(partner, 0)], 0)
    else:
        return None
    if not verified(edge_rows, edge_columns, edge_weights, matched_rows, matched_columns, u, v):
        return None
    return u, v


def verified(
    edge_rows: np.ndarray,
    edge_columns: np.ndarray,
    edge_weights: np.ndarray,
    matched_rows: np.ndarray,
    matched_columns: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
) -> bool:
    """Whether (u, v) is an optimal dual of the matching (integer arithmetic): feasible (u, v >= 0,
    u_i + v_j >= w_ij on every edge) and complementary (equality on matched edges, 0 on unmatched entities)."""
    if np.any(u < 0) or np.any(v < 0) or np.any(u[edge_rows] + v[edge_columns] < edge_weights):
        return False
    key = edge_rows * len(v) + edge_columns
    order = np.argsort(key, kind="stable")
    at = np.searchsorted(key[order], matched_rows * len(v) + matched_columns)
    if np.any(at >= len(key)):
        return False
    weight = edge_weights[order][at]
    if np.any(key[order][at] != matched_rows * len(v) + matched_columns):
        return False
    if np.any(u[matched_rows] + v[matched_columns] != weight):
        return False
    free_rows = np.ones(len(u), bool)
    free_rows[matched_rows] = False
    free_columns = np.ones(len(v), bool)
    free_columns[matched_columns] = False
    return not (np.any(u[free_rows] != 0) or np.any(v[free_columns] != 0))


def component_labels(edges: list[tuple[int, int]], references: int, predictions: int) -> list[int]:
    """`nerscore.assignment.union_find` by scipy's connected components, for many edges: for each edge
    (reference index < `references`, prediction index < `predictions`), a number naming its component."""
    from scipy.sparse import coo_array
    from scipy.sparse.csgraph import connected_components

    pairs = np.array(edges, np.int64).reshape(-1, 2)
    size = references + predictions
    graph = coo_array((np.ones(len(pairs), np.int8), (pairs[:, 0], references + pairs[:, 1])), shape=(size, size))
    _, labels = connected_components(graph, directed=False)
    return labels[pairs[:, 0]].tolist()
