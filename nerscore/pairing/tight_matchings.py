"""Rule (d) among the best flows (docs/scoring.md §3): which edges some best flow holds (`usable_at` on arrays;
`usable_edges` on {edge: amount} dicts, in lists, for `rules._rule_d`; one scipy call each), and given a best
matching and an optimal dual of it, the matching whose pairs, sorted, form the smallest list, searched on the edges
the dual leaves tight (`tight_smallest_best`, for `large_components.best_matching` and the dense sentences of
`dense`). Where weights tie everywhere, every overlapping pair is tight: the directed graph the search starts from
is laid out at once in scipy's CSR (`usable_at`), about 12 bytes an arc (issue 31).

scipy is imported inside the functions: `import nerscore` must stay light (tests/test_house.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from itertools import accumulate, chain

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

    The best matchings are the matchings of the tight edges that pair every entity of non-zero potential: the
    edges some of them holds are `usable_at`'s.

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
    matched_r, matched_c = mate_r >= 0, mate_c >= 0
    usable = usable_at(
        edge_rows,
        edge_columns,
        outside,
        in_matching,
        ~matched_r,
        ~matched_c,
        matched_r & (u == 0),
        matched_c & (v == 0),
    )
    z = rows + columns
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


def usable_edges(
    edges: list[tuple[int, int]],
    matched: Mapping[tuple[int, int], int] | set[tuple[int, int]],
    must_pair: set[tuple[str, int]],
    room_r: Mapping[int, int] | None = None,
    room_p: Mapping[int, int] | None = None,
) -> list[tuple[int, int]]:
    """`usable_at` of `edges` (reference index, prediction index), in their order: those some flow among them
    filling every entity of `must_pair` (("r", i) or ("p", j)) to its room (`room_r`, `room_p`: 1 where not given)
    carries, given one such flow (`matched`: {edge: amount}, or a set of edges of amount 1).

    The same graph as `usable_at`'s, laid out from `rules._rule_d`'s dicts in plain Python: a group holds a few
    dozen edges, where numpy's thirty-odd calls of `usable_at`'s graph cost three times these lists (2658b3f
    made sentences of 65-200 overlapping pairs a third slower so); one scipy call (`_strong_labels`) all the same."""
    if not edges:
        return []
    flow = matched if isinstance(matched, Mapping) else dict.fromkeys(matched, 1)
    amounts = [flow.get(edge, 0) for edge in edges]
    # Nodes: each edge's reference numbered 0, 1, ..., then its prediction from `rows`, then Z.
    number_r: dict[int, int] = {}
    number_p: dict[int, int] = {}
    ends_r = [number_r.setdefault(i, len(number_r)) for i, _ in edges]
    ends_p = [number_p.setdefault(j, len(number_p)) for _, j in edges]
    rows = len(number_r)
    z = rows + len(number_p)
    room = [1 if room_r is None else room_r[i] for i in number_r]
    room += [1 if room_p is None else room_p[j] for j in number_p]
    carried = [0] * z
    successors: list[list[int]] = [[] for _ in range(z + 1)]
    for row, column, amount in zip(ends_r, ends_p, amounts):
        column += rows
        if amount:
            carried[row] += amount
            carried[column] += amount
            successors[column].append(row)
        if amount < room[row] and amount < room[column]:
            successors[row].append(column)
    names = [("r", i) for i in number_r] + [("p", j) for j in number_p]
    for node, (held, most, name) in enumerate(zip(carried, room, names)):
        left, leaves = held < most, held > 0 and name not in must_pair
        if left if node < rows else leaves:  # a path may start here
            successors[z].append(node)
        if leaves if node < rows else left:  # ... and end here
            successors[node].append(z)
    indptr = [0, *accumulate(map(len, successors))]
    strong = _strong_labels(np.array(indptr, np.int32), np.array(list(chain.from_iterable(successors)), np.int32))
    label = strong.tolist()
    return [
        edge
        for edge, row, column, amount in zip(edges, ends_r, ends_p, amounts)
        if amount or label[row] == label[rows + column]
    ]


def usable_at(
    edge_rows: np.ndarray,
    edge_columns: np.ndarray,
    outside: np.ndarray,
    inside: np.ndarray,
    open_r: np.ndarray,
    open_c: np.ndarray,
    leaves_r: np.ndarray,
    leaves_c: np.ndarray,
) -> np.ndarray:
    """The indices, ascending, of the edges (row `edge_rows[k]`, column `edge_columns[k]`, numbered 0, 1, ...)
    that some best flow carries, given one (edges `inside` carry some of it, `outside` could carry more; entities
    `open_r`, `open_c` have room left, `leaves_r`, `leaves_c` carry some and need not: of zero potential).

    Another best flow differs from it by alternating cycles and paths, a path running from an entity with room
    left, or one that need not fill, to another. In the directed graph with an arc from row to column for each
    edge `outside`, from column to row for each edge `inside`, and a node Z with arcs to where such paths may
    start and from where they may end, an edge lies on one of them exactly when its two ends are in one strongly
    connected component (scipy's, in time linear in the edges). Dropping the rest keeps an entity that ties with
    everything (an entity around a whole document) from holding its group together through edges no best
    pairing can use.

    The graph (a label per node: rows, then columns, then Z) is laid out as scipy's CSR at once, about 12 bytes an
    arc (a row's and a column's first arc is to Z, or to itself, which joins no component), where a list of arcs
    and scipy's copies of it took 60 (issue 31: where every pair ties, every pair is tight)."""
    rows, columns = len(open_r), len(open_c)
    z = rows + columns
    carried = np.flatnonzero(inside)  # a few: each entity carries at most its room
    carried_rows, carried_columns = edge_rows[carried], edge_columns[carried]
    by_column = np.argsort(carried_columns, kind="stable")
    carried_rows, carried_columns = carried_rows[by_column], carried_columns[by_column]
    # The arcs laid out row by row: the edges in row order (the indices returned are those given).
    arc_rows, arc_columns, arc_outside = edge_rows, edge_columns, outside
    if len(edge_rows) > 1 and np.any(edge_rows[1:] < edge_rows[:-1]):
        order = np.argsort(edge_rows, kind="stable")
        arc_rows, arc_columns, arc_outside = edge_rows[order], edge_columns[order], outside[order]
    count = int(arc_outside.sum())
    arcs = count + rows + columns + len(carried) + int(open_r.sum()) + int(leaves_c.sum())
    index = np.int32 if arcs + z < 2**31 else np.int64
    per_row = np.ones(rows, np.int64)
    for first in range(0, len(arc_rows), _CHUNK):
        per_row += np.bincount(arc_rows[first : first + _CHUNK][arc_outside[first : first + _CHUNK]], minlength=rows)
    indptr = np.empty(z + 2, index)
    indptr[0] = 0
    np.cumsum(per_row, out=indptr[1 : rows + 1])
    del per_row
    indptr[rows + 1 : z + 1] = indptr[rows] + np.cumsum(1 + np.bincount(carried_columns, minlength=columns))
    indptr[z + 1] = arcs
    indices = np.empty(arcs, index)
    indices[indptr[:rows]] = np.where(leaves_r, z, np.arange(rows))
    rank = 0
    for first in range(0, len(arc_rows), _CHUNK):  # each arc after its row's first: at its rank + its row + 1
        at = first + np.flatnonzero(arc_outside[first : first + _CHUNK])
        indices[np.arange(rank + 1, rank + 1 + len(at)) + arc_rows[at]] = rows + arc_columns[at]
        rank += len(at)
    indices[indptr[rows:z]] = np.where(open_c, z, rows + np.arange(columns))
    indices[indptr[rows] + np.arange(1, len(carried) + 1) + carried_columns] = carried_rows  # likewise per column
    indices[indptr[z] :] = np.concatenate((np.flatnonzero(open_r), rows + np.flatnonzero(leaves_c)))
    del arc_rows, arc_columns, arc_outside
    strong = _strong_labels(indptr, indices)
    return np.concatenate(
        [
            first
            + np.flatnonzero(
                inside[part] | (outside[part] & (strong[edge_rows[part]] == strong[rows + edge_columns[part]]))
            )
            for first in range(0, len(edge_rows), _CHUNK)
            for part in [slice(first, first + _CHUNK)]
        ]
        or [np.zeros(0, np.int64)]
    )


def _strong_labels(indptr: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """scipy's strongly connected components of the directed graph whose node k has arcs to
    `indices[indptr[k]:indptr[k + 1]]`: a label per node."""
    from scipy.sparse import csr_array
    from scipy.sparse.csgraph import connected_components

    nodes = len(indptr) - 1
    graph = csr_array((np.ones(len(indices)), indices, indptr), shape=(nodes, nodes))
    return connected_components(graph, directed=True, connection="strong")[1]


# Arcs laid out at a time by `usable_at` (its temporaries: a few int64 of these).
_CHUNK = 1 << 16
