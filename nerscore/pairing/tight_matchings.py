"""Rule (d) among the best matchings (docs/scoring.md §3): given a best matching and an optimal dual of it, the
matching whose pairs, sorted, form the smallest list, searched on the edges the dual leaves tight
(`tight_smallest_best`), for `large_components.best_matching` and the dense sentences of `dense`. Where weights tie
everywhere, every overlapping pair is tight: the directed graph its search starts from is laid out at once in
scipy's CSR (`_strong_components`), about 12 bytes an arc (issue 31).

scipy is imported inside the functions: `import nerscore` must stay light (tests/test_house.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

import numpy as np


def tight_smallest_best(
    edge_rows: np.ndarray,
    edge_columns: np.ndarray,
    edge_weights: np.ndarray | None,
    rows: int,
    columns: int,
    matched_rows: np.ndarray,
    matched_columns: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
) -> np.ndarray:
    """The mask of rule (d)'s matching among the best ones, given a best matching and its optimal dual (u, v)
    (`edge_weights` None: every edge given is tight).

    The best matchings are the matchings of the tight edges that pair every entity of non-zero potential. An
    edge some of them holds ("usable") lies on an alternating cycle or path of the matching found: in the
    directed graph with an arc from row to column for each tight edge outside the matching, from column to row
    for each edge in it, and a node Z with arcs to where such paths may start and from where they may end, its
    ends are in one strongly connected component (as `nerscore.pairing.assignment.usable_edges`, here by scipy).

    Then row by row, in order, the row takes the smallest column it can still take: its partner, or a column
    from which an alternating path leads back to the row (found by breadth-first search over the rows and
    columns not yet settled), which the matching is turned along; a row that can take none stays unpaired. The
    smallest list starts with the smallest edge some best matching holds, and, that edge taken, goes on with
    the smallest of the best matchings that hold it, which is what this does. An edge no best matching holds
    at the start never becomes usable (settling rows only removes matchings), so only the usable edges are
    looked at, and each search runs within its connected group of them."""
    from scipy.sparse import coo_array  # type: ignore[import-untyped]
    from scipy.sparse.csgraph import connected_components  # type: ignore[import-untyped]

    tight = None if edge_weights is None else u[edge_rows] + v[edge_columns] == edge_weights
    mate_r = np.full(rows, -1, np.int64)
    mate_r[matched_rows] = matched_columns
    mate_c = np.full(columns, -1, np.int64)
    mate_c[matched_columns] = matched_rows
    in_matching = mate_r[edge_rows] == edge_columns
    outside = ~in_matching if tight is None else tight & ~in_matching
    del tight
    strong = _strong_components(edge_rows, edge_columns, outside, mate_r, mate_c, u == 0, v == 0)
    z = rows + columns
    usable = np.concatenate(
        [
            first + np.flatnonzero(part | (outside[first : first + _CHUNK] & (strong[rows_of] == strong[columns_of])))
            for first in range(0, len(edge_rows), _CHUNK)
            for part, rows_of, columns_of in [
                (
                    in_matching[first : first + _CHUNK],
                    edge_rows[first : first + _CHUNK],
                    rows + edge_columns[first : first + _CHUNK],
                )
            ]
        ]
        or [np.zeros(0, np.int64)]
    )
    del outside, in_matching
    usable = usable[np.lexsort((edge_columns[usable], edge_rows[usable]))]
    use_r, use_c = edge_rows[usable], edge_columns[usable]
    links = coo_array((np.ones(len(usable), np.int8), (use_r, rows + use_c)), shape=(z, z))
    _, group_of = connected_components(links, directed=False)

    # Plain Python from here: a search touches a few nodes at a time. Nodes: row x is x, column c is rows + c.
    group, mate_row, mate_column = group_of.tolist(), mate_r.tolist(), mate_c.tolist()
    may_leave_r, may_leave_c = (u == 0).tolist(), (v == 0).tolist()
    adjacency: dict[int, list[int]] = {}
    for row, column in zip(use_r.tolist(), use_c.tolist()):
        adjacency.setdefault(row, []).append(column)
    settled_r, settled_c = [False] * rows, [False] * columns
    starts: dict[int, set[int]] = {}  # per group, the unsettled nodes Z leads to

    def place(node: int) -> None:
        if node < rows:
            starting = not settled_r[node] and mate_row[node] < 0
        else:
            column = node - rows
            starting = not settled_c[column] and mate_column[column] >= 0 and may_leave_c[column]
        if starting:
            starts.setdefault(group[node], set()).add(node)
        else:
            starts.get(group[node], set()).discard(node)

    for row, columns_of in adjacency.items():
        place(row)
        for column in columns_of:
            place(rows + column)

    def path_back(column: int, target: int) -> list[int] | None:
        """The nodes of an alternating path from `column` to row `target`, Z included, or None."""
        source = rows + column
        parent = {source: -1}
        queue = deque([source])
        while queue:
            node = queue.popleft()
            if node < rows:
                for other in adjacency[node]:
                    if not settled_c[other] and other != mate_row[node] and rows + other not in parent:
                        parent[rows + other] = node
                        queue.append(rows + other)
                if mate_row[node] >= 0 and may_leave_r[node] and z not in parent:
                    parent[z] = node
                    queue.append(z)
                continue
            successors: Iterable[int] = starts.get(group[target], ()) if node == z else ()
            if node < z:
                owner = mate_column[node - rows]
                successors = (owner,) if owner >= 0 else ((z,) if z not in parent else ())
            for successor in successors:
                if successor in parent:
                    continue
                parent[successor] = node
                if successor == target:
                    nodes = [target]
                    while nodes[-1] != source:
                        nodes.append(parent[nodes[-1]])
                    return nodes[::-1]
                queue.append(successor)
        return None

    for row in sorted(adjacency):
        taken = -1
        for column in adjacency[row]:
            if settled_c[column]:
                continue
            if column == mate_row[row]:
                taken = column
                break
            nodes = path_back(column, row)
            if nodes is None:
                continue
            # Turn the matching along the cycle: row -> column, then the path back to the row.
            arcs = list(zip([row, *nodes], nodes))
            for tail_node, head_node in arcs:
                if rows <= tail_node < z and head_node < rows:  # an edge of the matching leaves it
                    mate_row[head_node], mate_column[tail_node - rows] = -1, -1
            for tail_node, head_node in arcs:
                if tail_node < rows and rows <= head_node < z:  # an edge joins it
                    mate_row[tail_node], mate_column[head_node - rows] = head_node - rows, tail_node
            for node in nodes:
                if node != z:
                    place(node)
            taken = column
            break
        settled_r[row] = True
        place(row)
        if taken >= 0:
            settled_c[taken] = True
            place(rows + taken)
    return np.array(mate_row, np.int64)[edge_rows] == edge_columns


def _strong_components(
    edge_rows: np.ndarray,
    edge_columns: np.ndarray,
    outside: np.ndarray,
    mate_r: np.ndarray,
    mate_c: np.ndarray,
    leaves_r: np.ndarray,
    leaves_c: np.ndarray,
) -> np.ndarray:
    """`tight_smallest_best`'s strongly connected components (a label per node: rows, then columns, then Z) of
    the graph with an arc from row to column for each tight edge `outside` the matching, from column to row for
    each edge in it, from Z to each free row and column of zero potential (`leaves_c`) that is matched, to Z from
    each free column and matched row of zero potential (`leaves_r`). Laid out as scipy's CSR at once, about 12
    bytes an arc (a row's first arc is to Z, or to itself, which joins no component), where a list of arcs and
    scipy's copies of it took 60 (issue 31: where every pair ties, every pair is tight)."""
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import connected_components

    rows, columns = len(mate_r), len(mate_c)
    z = rows + columns
    if len(edge_rows) > 1 and np.any(edge_rows[1:] < edge_rows[:-1]):
        order = np.argsort(edge_rows, kind="stable")
        edge_rows, edge_columns, outside = edge_rows[order], edge_columns[order], outside[order]
    count = int(outside.sum())
    arcs = count + rows + columns + int((mate_r < 0).sum()) + int((leaves_c & (mate_c >= 0)).sum())
    index = np.int32 if arcs + z < 2**31 else np.int64
    per_row = np.ones(rows, np.int64)
    for first in range(0, len(edge_rows), _CHUNK):
        per_row += np.bincount(edge_rows[first : first + _CHUNK][outside[first : first + _CHUNK]], minlength=rows)
    indptr = np.empty(z + 2, index)
    indptr[0] = 0
    np.cumsum(per_row, out=indptr[1 : rows + 1])
    del per_row
    indptr[rows + 1 : z + 1] = indptr[rows] + np.arange(1, columns + 1)
    indptr[z + 1] = arcs
    indices = np.empty(arcs, index)
    indices[indptr[:rows]] = np.where(~(mate_r < 0) & leaves_r, z, np.arange(rows))
    rank = 0
    for first in range(0, len(edge_rows), _CHUNK):  # each arc after its row's first: at its rank + its row + 1
        at = first + np.flatnonzero(outside[first : first + _CHUNK])
        indices[np.arange(rank + 1, rank + 1 + len(at)) + edge_rows[at]] = rows + edge_columns[at]
        rank += len(at)
    indices[indptr[rows] : indptr[z]] = np.where(mate_c >= 0, mate_c, z)
    indices[indptr[z] :] = np.concatenate((np.flatnonzero(mate_r < 0), rows + np.flatnonzero(leaves_c & (mate_c >= 0))))
    graph = csr_array((np.ones(arcs), indices, indptr), shape=(z + 1, z + 1))
    return connected_components(graph, directed=True, connection="strong")[1]


# Arcs laid out at a time by `_strong_components` (its temporaries: a few int64 of these).
_CHUNK = 1 << 16
