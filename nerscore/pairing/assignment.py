"""The exact max-weight flow, on integers of any size, and the connected components of the pairing's graphs.

`max_weight_flow`: bipartite, entities against entities with a number of copies each (docs/scoring.md §3's
pairing, the value pairing, and the joint grounding of string predictions, §1b, whose "ungrounded" columns hold
as many rows as a text and type leaves without a prediction). Rows join one at a time and each search explores
only what the new row reaches, which keeps components of nested entities close to linear in their overlapping
pairs. (A general network solver for the grounding, with branches where its flow gave one occurrence to two types,
was dropped with §1b's amended rule, issue 31.)
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping

# Node kinds of `max_weight_flow`'s search.
_ROW, _COLUMN, _UNPAIRED = 0, 1, 2


def max_weight_flow(
    weights: Mapping[tuple[int, int], int],
    row_capacity: Mapping[int, int] | None = None,
    column_capacity: Mapping[int, int] | None = None,
) -> tuple[dict[tuple[int, int], int], dict[int, int], dict[int, int]]:
    """The flow of largest total weight of a bipartite graph given as {(row, column): weight > 0}, where each row
    and column carries at most its capacity (1 where not given) and an edge any amount: {edge: amount > 0}; and
    the potentials that prove it best: every row's is >= 0, every column's <= 0 (0 where not given),
    row - column >= weight for every edge, with equality on the edges that carry flow, and a row or column of
    non-zero potential at its capacity (an optimal dual). With capacities 1 it is a matching; a capacity stands
    for that many identical entities, so that copies cost one node, not one each.

    The Hungarian method in its sparse form (successive shortest augmenting paths, Dijkstra on costs made
    non-negative by potentials, exact on integers of any size): rows join one at a time, and each unit of a row
    may also stay unpaired, which costs 0 (its own "unpaired" node). A path carries as much as its narrowest
    step allows (the root's units left, the end column's room, the flow each row on it gives up), so a row of
    many copies takes few paths. After each row the flow is the best of the rows so far. Each search explores
    only what alternating paths reach from the new row within the length of the shortest augmenting path, so
    rows with few edges go first and a row overlapping everything (a nested entity around a whole sentence)
    comes last: components of entities nested a few levels deep cost close to their size, not its cube."""
    adjacency: dict[int, list[tuple[int, int]]] = {}
    cost_of: dict[tuple[int, int], int] = {}
    for (row, column), weight in weights.items():
        adjacency.setdefault(row, []).append((column, -weight))  # costs, to be minimised
        cost_of[row, column] = -weight
    row_room = (lambda row: 1) if row_capacity is None else row_capacity.__getitem__
    column_room = (lambda column: 1) if column_capacity is None else column_capacity.__getitem__
    # Potentials make every cost non-negative. A node that ends a path (a column with room, or a row's
    # "unpaired") keeps potential 0 until it is full, so that the distances to all of them compare.
    row_potential: dict[int, int] = {}
    column_potential: dict[int, int] = {}
    flow: dict[tuple[int, int], int] = {}
    rows_of: dict[int, dict[int, int]] = {}  # column -> {row: amount > 0}
    used: dict[int, int] = {}  # column -> the amount it carries
    for root in sorted(adjacency, key=lambda row: (len(adjacency[row]), row)):
        # A potential for the new row that keeps every cost from it non-negative, "unpaired" (0) included.
        row_potential[root] = max(0, *(column_potential.get(column, 0) - cost for column, cost in adjacency[root]))
        supply = row_room(root)
        while supply > 0:
            settled_rows: dict[int, int] = {}
            settled_columns: dict[int, int] = {}
            tentative: dict[int, int] = {}
            tentative_rows: dict[int, int] = {}
            reached_from: dict[int, int] = {}  # column -> the row that takes it
            reached_by: dict[int, int] = {}  # row (not the root) -> the column whose unit it gives up
            heap = [(0, 0, _ROW, root)]
            pushed = 1
            while True:
                distance, _, kind, node = heapq.heappop(heap)
                if kind == _UNPAIRED:
                    break  # the cheapest way on is that `node` gives up a unit and stays unpaired for it
                if kind == _COLUMN:
                    if node in settled_columns:
                        continue
                    settled_columns[node] = distance
                    if used.get(node, 0) < column_room(node):
                        break  # a column with room: the augmenting path ends here
                    # Back along the flow into the column; those edges are tight (reduced cost 0).
                    for owner in rows_of[node]:
                        if owner in settled_rows or owner == root:
                            continue
                        reduced = -cost_of[owner, node] + column_potential.get(node, 0) - row_potential[owner]
                        candidate = distance + reduced
                        if candidate < tentative_rows.get(owner, candidate + 1):
                            tentative_rows[owner] = candidate
                            reached_by[owner] = node
                            heapq.heappush(heap, (candidate, pushed, _ROW, owner))
                            pushed += 1
                    continue
                if node in settled_rows:
                    continue
                settled_rows[node] = distance
                potential = row_potential[node]
                heapq.heappush(heap, (distance + potential, pushed, _UNPAIRED, node))
                pushed += 1
                gives_up = reached_by.get(node)
                for column, cost in adjacency[node]:
                    if column in settled_columns or column == gives_up:
                        continue
                    candidate = distance + cost + potential - column_potential.get(column, 0)
                    if candidate < tentative.get(column, candidate + 1):
                        tentative[column] = candidate
                        reached_from[column] = node
                        heapq.heappush(heap, (candidate, pushed, _COLUMN, column))
                        pushed += 1
            # Potentials: settled nodes move by their distance less the path's length, which keeps every reduced
            # cost non-negative (the others stay: a common shift of all potentials changes no reduced cost).
            for row, settled in settled_rows.items():
                row_potential[row] += settled - distance
            for column, settled in settled_columns.items():
                column_potential[column] = column_potential.get(column, 0) + settled - distance
            if kind == _UNPAIRED and node == root:
                break  # the rest of the root's units stay unpaired
            # The path, from its end back to the root: each row takes a unit of a column; every row but the root
            # gives up a unit of the column it was reached by.
            steps: list[tuple[int, int]] = []  # (row, column it takes), from the end
            amount = supply
            if kind == _UNPAIRED:
                row, taken = node, reached_by[node]
                amount = min(amount, flow[row, taken])
                steps.append((row, -taken - 1))  # a mark: `row` only gives `taken` up
            else:
                taken = node
                amount = min(amount, column_room(node) - used.get(node, 0))
            while True:
                row = reached_from[taken]
                steps.append((row, taken))
                if row == root:
                    break
                taken = reached_by[row]
                amount = min(amount, flow[row, taken])
            for row, column in steps:
                if column < 0:
                    _add_flow(flow, rows_of, row, -column - 1, -amount)
                    continue
                _add_flow(flow, rows_of, row, column, amount)
                gave_up = reached_by.get(row) if row != root else None
                if gave_up is not None:
                    _add_flow(flow, rows_of, row, gave_up, -amount)
            if kind != _UNPAIRED:
                used[node] = used.get(node, 0) + amount
            supply -= amount
    return flow, row_potential, column_potential


def _add_flow(flow: dict[tuple[int, int], int], rows_of: dict[int, dict[int, int]], row: int, column: int, amount: int):
    """Add `amount` (negative: take it away) to the flow on (row, column)."""
    left = flow.get((row, column), 0) + amount
    owners = rows_of.setdefault(column, {})
    if left:
        flow[row, column] = owners[row] = left
    else:
        del flow[row, column], owners[row]


def connected(edges: list[tuple[int, int]], labels: list[int] | None = None) -> list[list[tuple[int, int]]]:
    """The edges of a bipartite graph (reference index, prediction index) grouped by connected component, as
    `labels` names them (`union_find`'s where not given)."""
    groups: dict[int, list[tuple[int, int]]] = {}
    for edge, group in zip(edges, union_find(edges) if labels is None else labels):
        groups.setdefault(group, []).append(edge)
    return list(groups.values())


def union_find(edges: list[tuple[int, int]]) -> list[int]:
    """For each edge (reference index, prediction index) of a bipartite graph, a number naming its connected
    component. Union by size with path halving: time about linear in the edges, whatever the graph's shape (one
    entity around a whole document included)."""
    node: dict[tuple[int, int], int] = {}
    parent: list[int] = []
    size: list[int] = []

    def root(key: tuple[int, int]) -> int:
        index = node.get(key)
        if index is None:
            index = node[key] = len(parent)
            parent.append(index)
            size.append(1)
            return index
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    for i, j in edges:
        a, b = root((0, i)), root((1, j))
        if a != b:
            if size[a] < size[b]:
                a, b = b, a
            parent[b] = a
            size[a] += size[b]
    return [root((0, i)) for i, _ in edges]
