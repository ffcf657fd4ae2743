"""The exact assignment solver and the graph algorithms the pairing of nested entities needs (docs/scoring.md §3)."""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from typing import Any

# Node kinds of `max_weight_matching`'s search.
_ROW, _COLUMN, _UNPAIRED = 0, 1, 2


def max_weight_matching(
    weights: Mapping[tuple[int, int], int],
) -> tuple[list[tuple[int, int]], dict[int, int], dict[int, int]]:
    """The matching of largest total weight of a bipartite graph given as {(row, column): weight > 0}, and the
    potentials that prove it best: every row's is >= 0, every column's <= 0 (0 where not given), and
    row - column >= weight for every edge, with equality on the matching's edges (an optimal dual).

    The Hungarian method in its sparse form (successive shortest augmenting paths, Dijkstra on costs made
    non-negative by potentials, exact on integers of any size): rows join one at a time, and each row may
    also stay unpaired, which costs 0 (its own "unpaired" node). After each row the matching is the best of
    the rows so far. Each search explores only what alternating paths reach from the new row within the
    length of the shortest augmenting path, so rows with few edges go first and a row overlapping everything
    (a nested entity around a whole sentence) comes last: components of entities nested a few levels deep
    cost close to their size, not its cube."""
    adjacency: dict[int, list[tuple[int, int]]] = {}
    for (row, column), weight in weights.items():
        adjacency.setdefault(row, []).append((column, -weight))  # costs, to be minimised
    # Potentials make every cost non-negative. A node that ends a path (a free column, or a row's "unpaired")
    # keeps potential 0 until it is taken, so that the distances to all of them compare.
    row_potential: dict[int, int] = {}
    column_potential: dict[int, int] = {}
    column_of: dict[int, int | None] = {}
    row_of: dict[int, int] = {}
    for root in sorted(adjacency, key=lambda row: (len(adjacency[row]), row)):
        # A potential for the new row that keeps every cost from it non-negative, "unpaired" (0) included.
        row_potential[root] = max(0, *(column_potential.get(column, 0) - cost for column, cost in adjacency[root]))
        column_of[root] = None
        settled_rows: dict[int, int] = {}
        settled_columns: dict[int, int] = {}
        tentative: dict[int, int] = {}
        reached_from: dict[int, int] = {}
        heap = [(0, 0, _ROW, root)]
        pushed = 1
        while True:
            distance, _, kind, node = heapq.heappop(heap)
            if kind == _UNPAIRED:
                break  # the cheapest way on is that `node` gives up its column and stays unpaired
            if kind == _COLUMN:
                if node in settled_columns:
                    continue
                settled_columns[node] = distance
                owner = row_of.get(node)
                if owner is None:
                    break  # a free column: the augmenting path ends here
                # Along the pair owner-node backwards; its reduced cost is 0.
                cost = next(c for column, c in adjacency[owner] if column == node)
                reduced = -cost + column_potential.get(node, 0) - row_potential[owner]
                heapq.heappush(heap, (distance + reduced, pushed, _ROW, owner))
                pushed += 1
                continue
            if node in settled_rows:
                continue
            settled_rows[node] = distance
            potential = row_potential[node]
            heapq.heappush(heap, (distance + potential, pushed, _UNPAIRED, node))
            pushed += 1
            for column, cost in adjacency[node]:
                if column in settled_columns or column_of[node] == column:
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
        # Flip the path: the end takes its column (or stays unpaired), each row before it takes the column that
        # the next one gave up, back to the root.
        taken: int | None  # the column that the row before the path's end takes
        if kind == _UNPAIRED:
            taken, column_of[node] = column_of[node], None
        else:
            taken = node
        while taken is not None:
            row = reached_from[taken]
            row_of[taken] = row
            column_of[row], taken = taken, column_of[row]
    pairs = sorted((row, column) for row, column in column_of.items() if column is not None)
    return pairs, row_potential, column_potential


def strong_components(nodes: list, successors: Mapping[Any, list]) -> dict[Any, int]:
    """The strongly connected component of each node, named by a number (Tarjan's algorithm, without recursion,
    which a long alternating path would exceed)."""
    index: dict[Any, int] = {}
    low: dict[Any, int] = {}
    component: dict[Any, int] = {}
    stack: list = []
    on_stack: set = set()
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(successors.get(start, ())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, arcs = work[-1]
            advanced = False
            for successor in arcs:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(successors.get(successor, ()))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:  # the root of a component: pop it off
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = index[node]
                    if member == node:
                        break
    return component


def connected(edges: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The edges of a bipartite graph (reference index, prediction index) grouped by connected component."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def root(node: tuple[str, int]) -> tuple[str, int]:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for i, j in edges:
        parent[root(("r", i))] = root(("p", j))
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for i, j in edges:
        groups.setdefault(root(("r", i)), []).append((i, j))
    return list(groups.values())
