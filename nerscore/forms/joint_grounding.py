"""The joint grounding of string predictions (docs/scoring.md §1b): of the ways to give the predictions of a
connected group of texts, occurrences and references distinct occurrences, the one whose §3 pairing is best, ties
to the earliest occurrences, exactly.

`grounding` decides every text with one answer (and finds each text's candidate occurrences); the texts left
come here (`ground_jointly`), each group solved on its own: one text and type whose occurrences each overlap a
reference of their own by ranking them (`_apart`), any other group as a max-weight flow on an
`assignment.Network` (`_best_grounding`), branching where the flow gives one occurrence to several types.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence

from ..pairing.assignment import Network, union_find
from ..pairing.rules import _overlap_edges, _overlaps, rank_shares
from ..span import Span

# `grounding.count`, the tests' counts: (what, number).
Count = Callable[[str, int], None]


# A node of the joint problem: (text, index of the occurrence among the text's candidates, type).
_Node = tuple[str, int, str]


def ground_jointly(
    left: dict[str, dict[str, int]],
    candidates: dict[str, list[tuple[int, int]]],
    undecided: list[str],
    references: Sequence[Span],
    min_overlap: float | None,
    count: Count | None = None,
) -> dict[str, dict[str, list[tuple[int, int]]]]:
    """The groundings of the `undecided` texts (`left`: how many predictions of each text and type are still to
    ground), each connected group of texts, occurrences and references solved on its own (`_best_grounding`);
    the other texts of a group take part as they compete for its references."""
    places = [(needle, index) for needle in candidates for index in range(len(candidates[needle]))]
    spans = [Span(*candidates[needle][index], "") for needle, index in places]
    edges = _overlap_edges(references, spans, min_overlap)
    # One graph of texts (0 ... texts - 1) and references (texts + number) against candidate occurrences.
    texts = list(candidates)
    number_of = {needle: number for number, needle in enumerate(texts)}
    links = [(number_of[needle], place) for place, (needle, _) in enumerate(places)]
    links += [(len(texts) + reference, place) for reference, place in edges]
    group_of: dict[str, int] = {}
    for (node, _), label in zip(links, union_find(links)):
        if node < len(texts):
            group_of[texts[node]] = label
    touching: dict[tuple[str, int], list[int]] = {}
    for reference, place in edges:
        touching.setdefault(places[place], []).append(reference)
    groups: dict[object, list[str]] = {}
    for needle in candidates:  # a text with no candidate is a group of its own
        groups.setdefault(group_of.get(needle, needle), []).append(needle)
    result: dict[str, dict[str, list[tuple[int, int]]]] = {}
    for needles in groups.values():
        if not any(needle in undecided for needle in needles):
            continue
        group = {needle: {t: n for t, n in left[needle].items() if n} for needle in needles}
        apart = _apart(group, candidates, touching, references, min_overlap)
        if apart is not None:
            result.update(apart)
            continue
        if count is not None:
            count("flows", 1)
        solved = _best_grounding(
            group, {needle: candidates[needle] for needle in needles}, touching, references, min_overlap, count
        )
        result.update({needle: solved[needle] for needle in needles if needle in undecided})
    return result


def _apart(
    group: dict[str, dict[str, int]],
    candidates: dict[str, list[tuple[int, int]]],
    touching: dict[tuple[str, int], list[int]],
    references: Sequence[Span],
    min_overlap: float | None,
) -> dict[str, dict[str, list[tuple[int, int]]]] | None:
    """A group of one text and type whose occurrences each overlap at most one reference, none shared: each
    occurrence is worth its own pair alone, so the best grounding takes the k most valuable by §3's digits
    (identical boundaries and type, identical boundaries, a pair, the same type, shared characters), the earliest
    of equals (the smaller sorted list). None for any other group (the flow's)."""
    if len(group) != 1:
        return None
    ((needle, types),) = group.items()
    if len(types) != 1:
        return None
    ((entity_type, wanted),) = types.items()
    seen: set[int] = set()
    values = []
    for index, (start, end) in enumerate(candidates[needle]):
        overlapped = [
            number
            for number in touching.get((needle, index), [])
            if _overlaps(references[number], Span(start, end, entity_type), min_overlap)
        ]
        if len(overlapped) > 1 or (overlapped and overlapped[0] in seen):
            return None
        value: tuple[int, ...] = (0, 0, 0, 0, 0)
        if overlapped:
            seen.add(overlapped[0])
            reference = references[overlapped[0]]
            same_bounds = (start, end) == (reference.start, reference.end)
            same_type = entity_type == reference.entity_type
            shared = min(end, reference.end) - max(start, reference.start)
            value = (same_bounds and same_type, same_bounds, 1, same_type, shared)
        values.append((tuple(-digit for digit in value), index))
    chosen = sorted(values)[:wanted]
    return {needle: {entity_type: [candidates[needle][index] for _, index in sorted(chosen, key=lambda c: c[1])]}}


def _best_grounding(
    classes: dict[str, dict[str, int]],
    candidates: dict[str, list[tuple[int, int]]],
    touching: dict[tuple[str, int], list[int]],
    references: Sequence[Span],
    min_overlap: float | None,
    count: Count | None = None,
) -> dict[str, dict[str, list[tuple[int, int]]]]:
    """The best grounding of one connected group (§1b), exactly, as a max-weight flow.

    Source -> text, with as many units as it grounds (min(predictions, candidates)) -> (text, type) with the
    number of its predictions -> the occurrence -> a reference, or the sink unpaired -> sink. A grounded
    prediction's weight counts above all (as many as can be are grounded), then its share of the tie; a pair's
    weight has the digits of §3's priorities (rule 1's identical boundaries and type, identical boundaries, then
    (a) pairs, (b) same-type pairs, (c) shared characters), each digit's total below its radix, above every share.
    The shares are `pairing.rank_shares` of the ranked (start, end, type) of the candidates: of two
    groundings as good by the pairing, the larger sum of shares is the smaller sorted list.

    An occurrence holds one prediction, whatever its type. A reference that no other candidate overlaps
    ("private", counted over the links `_twins_first` keeps) can only pair with this occurrence, so its best pair
    for each type is folded into the arc that grounds the occurrence with that type: an occurrence whose
    references are all private is one node of capacity 1, which each of its text's types reaches by an arc of its
    own weight, and no flow can give it to two types. Only an occurrence that overlaps a shared reference has a
    node per type (its pair's weight there depends on the type), each of them reaching the occurrence's node for
    its private options; two of them may not both be used, and a flow that uses both is cut into branches (the
    occurrence kept for one type each), best first, until the best is one the rule allows. The text's cap makes a
    second type on an occurrence cost a prediction elsewhere, and a bonus on the units its private occurrences
    must hold makes that prediction one at a shared reference, so the flow seldom tries it; the branching, the
    only part that can grow exponentially, is confined to the occurrences of a text predicted with several types
    that share references, and every other group is one flow (the tests count "solves")."""
    # A text with one answer (one type, every candidate taken) competes for the references all the same: the flow
    # takes all of its occurrences, as it grounds as many predictions as it can.
    links = _twins_first(classes, candidates, touching, references)
    nodes: list[_Node] = []
    for needle, types in classes.items():
        for index in range(len(candidates[needle])):
            if (needle, index) in links:
                nodes.extend((needle, index, entity_type) for entity_type in sorted(types))
    involved = sorted({reference for needle, index, _ in nodes for reference in links[needle, index]})
    radix = min(len(involved), len(nodes)) + 1
    extent_radix = sum(references[r].end - references[r].start for r in involved) + 1
    holders: dict[int, int] = {}  # reference -> how many candidate occurrences of the group overlap it
    for here in links.values():
        for reference in here:
            holders[reference] = holders.get(reference, 0) + 1
    shared = [reference for reference in involved if holders[reference] > 1]

    def place(node: _Node) -> tuple[int, int]:
        return candidates[node[0]][node[1]]

    triples = sorted({(*place(node), node[2]) for node in nodes})
    room: dict[tuple[int, int, str], int] = {}
    for node in nodes:
        key = (*place(node), node[2])
        room[key] = room.get(key, 0) + 1
    share, scale = rank_shares(triples, room)
    grounded_weight = radix**4 * extent_radix * scale

    def pair_weight(node: _Node, reference: Span) -> int | None:
        start, end = place(node)
        prediction = Span(start, end, node[2])
        if not _overlaps(reference, prediction, min_overlap):
            return None
        same_bounds = (start, end) == (reference.start, reference.end)
        same_type = node[2] == reference.entity_type
        digits = (((same_bounds and same_type) * radix + same_bounds) * radix + 1) * radix + same_type
        return (digits * extent_radix + reference.overlap(prediction)) * scale

    supply: dict[tuple[str, str], int] = {}
    for needle, types in classes.items():
        for entity_type, number in types.items():
            supply[needle, entity_type] = number
    alone: dict[int, int] = {}  # node -> the weight of its best pair with a private reference (0: unpaired)
    pair_weights: dict[tuple[int, int], int] = {}  # (node, shared reference) -> weight
    private_place: dict[tuple[str, int], bool] = {}
    for number, node in enumerate(nodes):
        best = 0
        here = links[node[0], node[1]]
        private_place[node[:2]] = all(holders[reference] == 1 for reference in here)
        for reference in here:
            weight = pair_weight(node, references[reference])
            if weight is None:
                continue
            if holders[reference] == 1:
                best = max(best, weight)
            else:
                pair_weights[number, reference] = weight
        alone[number] = best

    # Each branch keeps one type at one contested occurrence, which then cannot conflict again below it: with C
    # contested occurrences and at most t types to a text, at most 1 + t + ... + t**C flows are solved.
    if count is not None:
        contested = [needle for (needle, _), private in private_place.items() if not private]
        count("contested", sum(1 for needle in contested if len(classes[needle]) > 1))

    grounded_number = {needle: min(sum(types.values()), len(candidates[needle])) for needle, types in classes.items()}
    contested_places: dict[str, int] = {}
    for (needle, _), private in private_place.items():
        if not private:
            contested_places[needle] = contested_places.get(needle, 0) + 1
    at_least = {
        needle: grounded_number[needle] - contested_places.get(needle, 0)
        for needle in classes
        if grounded_number[needle] > contested_places.get(needle, 0) and needle in contested_places
    }
    spill_weight = 4 * grounded_weight  # above what a unit adds anywhere (grounded, pair, share): any > 0 is exact

    def solve(forbidden: frozenset[int]) -> tuple[int, set[int]]:
        if count is not None:
            count("solves", 1)
        flow = Network()
        source, sink = flow.node(), flow.node()
        # As many of a text's predictions are grounded as it has occurrences or predictions, the fewer (§1b): a
        # flow that holds more units than occurrences puts two on one, which no branch could then undo cheaply.
        text_node = {needle: flow.node() for needle in classes}
        for needle in classes:
            flow.arc(source, text_node[needle], grounded_number[needle], 0)
        # A text's occurrences at shared references hold at most one unit each in a grounding, so its private
        # ones hold at least the rest, L units: a bonus on those L, the same for every grounding that grounds as
        # many as it can (the only ones that can be best), changes no choice between groundings, and takes from
        # the flow a unit it would otherwise put on an occurrence twice in place of a free occurrence worth nothing.
        spill = {}
        for needle, least in at_least.items():
            spill[needle] = flow.node()
            flow.arc(spill[needle], sink, least, spill_weight)
            flow.arc(spill[needle], sink, grounded_number[needle], 0)
        class_node = {key: flow.node() for key in supply}
        for key, amount in supply.items():
            flow.arc(text_node[key[0]], class_node[key], amount, 0)
        # One node of capacity 1 per occurrence for the options whose weight the arc into it carries: a pair with a
        # private reference, or none.
        occurrence_ids = {key: flow.node() for key in private_place}
        for here, node_id in occurrence_ids.items():
            flow.arc(node_id, spill.get(here[0], sink) if private_place[here] else sink, 1, 0)
        grounding_arcs = {}  # node -> the arc whose flow grounds it (at a private occurrence)
        node_ids = {}
        for number, node in enumerate(nodes):
            if number in forbidden:
                continue
            weight = grounded_weight + share[(*place(node), node[2])]
            occurrence = occurrence_ids[node[:2]]
            if private_place[node[:2]]:
                grounding_arcs[number] = flow.arc(class_node[node[0], node[2]], occurrence, 1, weight + alone[number])
                continue
            node_ids[number] = flow.node()
            flow.arc(class_node[node[0], node[2]], node_ids[number], 1, weight)
            flow.arc(node_ids[number], occurrence, 1, alone[number])
        reference_ids = {reference: flow.node() for reference in shared}
        for node_id in reference_ids.values():
            flow.arc(node_id, sink, 1, 0)
        for (number, reference), weight in pair_weights.items():
            if number in node_ids:
                flow.arc(node_ids[number], reference_ids[reference], 1, weight)
        value = flow.max_weight(source, sink)
        used = {number for number, node_id in node_ids.items() if flow.inflow(node_id)}
        used.update(number for number, arc in grounding_arcs.items() if flow.carried(arc))
        return value, used

    best_used: set[int] = set()
    counter = 1
    value, used = solve(frozenset())
    heap: list[tuple[int, int, frozenset[int], set[int]]] = [(-value, 0, frozenset(), used)]
    while heap:
        _, _, forbidden, used = heapq.heappop(heap)
        conflict = _conflict(nodes, used)
        if conflict is None:
            best_used = used
            break
        for keep in conflict:  # the occurrence kept for one of its types, the others forbidden there
            branch = forbidden | {number for number in conflict if number != keep}
            value, branch_used = solve(branch)
            heapq.heappush(heap, (-value, counter, branch, branch_used))
            counter += 1
    result: dict[str, dict[str, list[tuple[int, int]]]] = {needle: {} for needle in classes}
    for number in sorted(best_used):
        needle, _, entity_type = nodes[number]
        result[needle].setdefault(entity_type, []).append(place(nodes[number]))
    return result


def _twins_first(
    classes: dict[str, dict[str, int]],
    candidates: dict[str, list[tuple[int, int]]],
    touching: dict[tuple[str, int], list[int]],
    references: Sequence[Span],
) -> dict[tuple[str, int], list[int]]:
    """The references each candidate occurrence of a group may pair with in a best grounding, by candidate; a
    candidate left out is never grounded in one.

    A "site" is a candidate with a reference of identical boundaries on it. When no two candidates of the group
    share a span, every best grounding pairs each site with such a reference as far as its text's grounded
    number allows: a site that is not so paired either is not grounded, and then takes the prediction of a
    grounded candidate of its text that is not a site so paired (there is one while the text's sites number at
    most its grounded number g), or is grounded and pairs otherwise or not at all; either way it can pair with its
    reference instead (leaving unpaired whatever was paired with the two, none of it of identical boundaries),
    which makes one more pair of identical boundaries (rule 1) and none fewer of identical boundaries and type.
    So a site pairs only with the references of its boundaries, and a text with at least g sites grounds only
    sites. Each reference of a site is then held by that site alone unless a candidate overlaps it without
    matching it, and a flow with fewer shared references branches less (`_best_grounding`)."""
    places = [(needle, index) for needle in classes for index in range(len(candidates[needle]))]
    links = {place: touching.get(place, []) for place in places}
    spans = [candidates[needle][index] for needle, index in places]
    if len(set(spans)) < len(spans):
        return links  # two candidates on one span (normalised text): a reference could be the twin of both
    sites: dict[str, int] = {}
    for place in places:
        needle, index = place
        bounds = candidates[needle][index]
        twins = [number for number in links[place] if (references[number].start, references[number].end) == bounds]
        if twins:
            links[place] = twins
            sites[needle] = sites.get(needle, 0) + 1
    for needle, types in classes.items():
        if sites.get(needle, 0) >= min(sum(types.values()), len(candidates[needle])):
            for index in range(len(candidates[needle])):
                bounds = candidates[needle][index]
                if not any((references[n].start, references[n].end) == bounds for n in links[needle, index]):
                    del links[needle, index]
    return links


def _conflict(nodes: list[_Node], used: set[int]) -> list[int] | None:
    """The nodes of the first occurrence that the flow gives to several types (None when there is none)."""
    by_place: dict[tuple[str, int], list[int]] = {}
    for number in sorted(used):
        by_place.setdefault(nodes[number][:2], []).append(number)
    for numbers in by_place.values():
        if len(numbers) > 1:
            return [number for number, node in enumerate(nodes) if node[:2] == nodes[numbers[0]][:2]]
    return None
