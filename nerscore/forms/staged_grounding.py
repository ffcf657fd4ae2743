"""The joint grounding of string predictions (docs/scoring.md §1b) in two stages, for components of many texts and
types (`joint_grounding.STAGED_FROM`): the best pairing's value by a min-cost flow whose costs have a few bits,
then the smallest sorted list by a search per row in order among the flows as good, where §1b's rows
(`joint_grounding._best_grounding`) are about types x occurrences, each weight a share of as many bits (issue 31,
item 5: n types of one string over n occurrences, half of them the references' types, about n^4).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Sequence

from ..span import Span

# `grounding.count`, the tests' counts: (what, number).
Count = Callable[[str, int], None]

# A text and type: the predictions that take distinct occurrences among themselves (§1b).
TextAndType = tuple[str, str]


def pair_weight(place: tuple[int, int], reference: Span, same_type: bool, radix: int, extent_radix: int) -> int:
    """The weight of a prediction grounded at `place` (start, end) paired with `reference`: the digits of §1b's
    rule 1 (the same boundaries and type) and §3's (a) the same boundaries, (b) a pair, (c) the same type, each of
    `radix`, then the characters they share (of `extent_radix`); every grounding flow's (`joint_grounding`)."""
    start, end = place
    same_bounds = place == (reference.start, reference.end)
    digits = (((same_bounds and same_type) * radix + same_bounds) * radix + 1) * radix + same_type
    return digits * extent_radix + min(end, reference.end) - max(start, reference.start)


def ground_in_stages(
    component: list[tuple[int, int]],
    rows: list[tuple[TextAndType, tuple[int, int]]],
    references: Sequence[Span],
    spare: dict[TextAndType, int],
    count: Count | None = None,
) -> set[int] | None:
    """`_best_grounding`'s answer in two stages, with weights of a few bits: the best pairing's value by a min-cost
    flow of the grounded predictions, then the smallest list by one search per row in order among the flows as
    good; None where two rows share a (start, end, type) (`normalize`'s texts on one occurrence).

    The flow: each text and type ships its predictions (as many as its rows of the component less its spare) to
    distinct rows of its own (capacity 1), each row to a reference it overlaps (§3's digits, as `_best_grounding`'s
    without the share) or unpaired (0); R units (the grounded predictions), not the rows left out, which are
    about n x n for n types over n occurrences. Its potentials π are an optimal dual, and every optimal flow meets
    complementary slackness with every optimal dual: two best flows differ by cycles of the residual graph whose
    arcs all have reduced cost 0 (a cycle's cost is the sum of its reduced costs, each >= 0). Smallest list: of
    lists of one length, the smaller is the one holding the first (start, end, type) where they differ, so the
    rows are taken in order, each grounded if a best flow keeps the rows decided so far and grounds it too: it is
    grounded in the current flow (kept: its arc back to its text and type is barred), or a cycle of such arcs
    runs through its own (text and type, row) arc without a barred one (the flow moves along it). A row found
    ungroundable stays so as others are decided (a cycle through it later would have been one then: it keeps the
    rows kept then), so its arc needs no bar; a text and type with all of its predictions kept has no arc back
    left, so its later rows need no search. The searches follow only arcs of reduced cost 0 (listed once: the
    potentials stay), start at a row's references and "unpaired", and are kept until the flow moves along a cycle
    through their tree (its nodes' arcs out changed; a tree the cycle misses reaches what it reached) or a bar
    cuts it: one search an occurrence, not one per type, and at most 2R more (issue 31's n types, half the
    references': n / 2 searches in all, the flow's two rounds of paths each over the n^2 arcs; forgetting every
    search at each move made them moves x references on overlapping windows, tests/test_review19.py)."""
    members = sorted({row for row, _ in component})
    order = sorted(members, key=lambda row: (rows[row][1], rows[row][0][1]))
    if len({(rows[row][1], rows[row][0][1]) for row in members}) < len(members):
        return None
    involved = sorted({column for _, column in component if column < len(references)})
    radix = min(len(involved), len(members)) + 1
    extent_radix = sum(references[r].end - references[r].start for r in involved) + 1
    keys = sorted({rows[row][0] for row in members})
    # Nodes: 0 the source, 1 "unpaired", then texts and types, rows, references. Arc a and a ^ 1 are a pair.
    node = {key: 2 + index for index, key in enumerate(keys)}
    row_node = {row: 2 + len(keys) + index for index, row in enumerate(members)}
    reference_node = {r: 2 + len(keys) + len(members) + index for index, r in enumerate(involved)}
    size = 2 + len(keys) + len(members) + len(involved)
    head: list[int] = []
    room: list[int] = []
    cost: list[int] = []
    out: list[list[int]] = [[] for _ in range(size)]

    def arc(tail: int, to: int, capacity: int, price: int) -> int:
        out[tail].append(len(head))
        head.extend((to, tail))
        room.extend((capacity, 0))
        cost.extend((price, -price))
        out[to].append(len(head) - 1)
        return len(head) - 2

    supply = Counter(rows[row][0] for row in members)
    for key in keys:
        supply[key] -= spare.get(key, 0)
        arc(0, node[key], supply[key], 0)
    own = {row: arc(node[rows[row][0]], row_node[row], 1, 0) for row in members}
    potential = [0] * size
    for row, column in component:
        if column < len(references):
            (_, entity_type), place = rows[row]
            reference = references[column]
            weight = pair_weight(place, reference, entity_type == reference.entity_type, radix, extent_radix)
            to = reference_node[column]
            arc(row_node[row], to, 1, -weight)
            potential[to] = min(potential[to], -weight)  # distances from the source: its graph is acyclic
    for row in members:
        arc(row_node[row], 1, 1, 0)
    for column in involved:
        arc(reference_node[column], 1, 1, 0)
        potential[1] = min(potential[1], potential[reference_node[column]])
    if count is not None:
        count("flows", 1)
        count("solves", 1)
    left = sum(supply.values())
    while left:  # successive shortest paths: a search gives the potentials, then every path of reduced cost 0
        settled: dict[int, int] = {}
        distance = {0: 0}
        queue = [(0, 0)]
        while queue:
            here, tail = heapq.heappop(queue)
            if tail in settled:
                continue
            settled[tail] = here
            if tail == 1:
                break
            for a in out[tail]:
                to = head[a]
                if room[a] and to not in settled:
                    step = here + cost[a] + potential[tail] - potential[to]
                    if step < distance.get(to, step + 1):
                        distance[to] = step
                        heapq.heappush(queue, (step, to))
        last = settled[1]
        for index in range(size):
            potential[index] += settled.get(index, last)
        left -= _paths_at_cost_zero(head, room, cost, out, potential, left)
    # The potentials stay: the arcs of reduced cost 0 (either way), the source's left out, are the searches' arcs.
    tight = [
        [a for a in arcs if head[a] and cost[a] + potential[tail] == potential[head[a]]]
        for tail, arcs in enumerate(out)
    ]
    barred = set()  # the arcs back from rows decided grounded
    reached: dict[int, dict[int, int]] = {}  # start -> {node: the arc into it}, until the flow or a bar changes
    kept = Counter[int]()  # each text and type's rows decided grounded: at its supply, none of its rows can join

    def reach(start: int) -> dict[int, int]:
        if start not in reached:
            found = {start: -1}
            frontier = [start]
            for tail in frontier:
                for a in tight[tail]:
                    to = head[a]
                    if room[a] and to not in found and a not in barred:
                        found[to] = a
                        frontier.append(to)
            reached[start] = found
        return reached[start]

    for row in order:
        a = own[row]
        tail, here = head[a ^ 1], head[a]
        if room[a]:
            if cost[a] + potential[tail] != potential[here] or kept[tail] == supply[keys[tail - 2]]:
                continue
            for b in tight[here]:
                found = reach(head[b]) if room[b] else {}
                if tail in found:
                    cycle = [a, b]
                    at, path = tail, []
                    while found[at] >= 0:
                        path.append(found[at])
                        at = head[found[at] ^ 1]
                    path.reverse()
                    for index, step in enumerate(path):
                        if head[step ^ 1] == here:  # the path comes back through the row: start there
                            cycle, path = [a], path[index:]
                    for step in cycle + path:
                        room[step] -= 1
                        room[step ^ 1] += 1
                    # The cycle's nodes (each the head of one of its arcs) are those whose arcs out changed.
                    changed = {head[step] for step in cycle + path}
                    reached = {start: found for start, found in reached.items() if changed.isdisjoint(found)}
                    break
            else:
                continue
        barred.add(a ^ 1)
        kept[tail] += 1
        # A search whose tree does not enter the text and type by the barred arc reaches what it reached.
        reached = {start: found for start, found in reached.items() if found.get(head[a ^ 1]) != a ^ 1}
    return {row for row in members if room[own[row]]}


def _paths_at_cost_zero(
    head: list[int], room: list[int], cost: list[int], out: list[list[int]], potential: list[int], most: int
) -> int:
    """`ground_in_stages`'s flow moved along up to `most` paths from node 0 to node 1 whose arcs all have reduced
    cost 0 (shortest paths: no reduced cost is negative), depth first, a node abandoned once it leads nowhere;
    how many. The first search finds one where the potentials' own search did (a depth-first search misses no
    node it can reach); later ones may stop short, and the caller searches again."""
    dead: set[int] = set()
    pointer = [0] * len(out)
    moved = 0
    while moved < most:
        stack, on_path = [0], {0}
        arcs: list[int] = []
        while stack and stack[-1] != 1:
            tail = stack[-1]
            arcs_out = out[tail]
            index = pointer[tail]
            while index < len(arcs_out):
                a = arcs_out[index]
                to = head[a]
                if room[a] and to not in dead and to not in on_path and cost[a] + potential[tail] == potential[to]:
                    break
                index += 1
            pointer[tail] = index
            if index == len(arcs_out):
                dead.add(tail)
                on_path.discard(stack.pop())
                if arcs:
                    arcs.pop()
            else:
                stack.append(to)
                on_path.add(to)
                arcs.append(a)
        if not stack:
            return moved
        for a in arcs:
            room[a] -= 1
            room[a ^ 1] += 1
        moved += 1
    return moved
