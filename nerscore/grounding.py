"""Entities as surface strings, grounded to the text (docs/scoring.md §1b).

A string entity is mapped to one occurrence of its text in the sentence's (document's) text, and from then on is
scored as that span. References take the earliest occurrences in listing order. Predictions are grounded jointly
with the pairing: of all ways to give them distinct occurrences, the one whose §3 pairing is best, ties to the
earliest occurrences. Predictions of one text and type are interchangeable, so this is a flow per connected group
of texts, occurrences and references (`_best_grounding`), not a search over lists; only the occurrences that
overlap a reference, and the first few that overlap none, can be chosen, so a text that occurs 10,000 times costs
its occurrences once, not a graph of them.
"""

from __future__ import annotations

import heapq
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .assignment import Network, union_find
from .errors import InvalidInputError, shown
from .pairing import _overlap_edges, _overlaps, rank_shares
from .span import Span

# ---------------------------------------------------------------------------------------------------------
# The text as occurrences are found in it: itself, or its normalised copy with the way back (§1b)
# ---------------------------------------------------------------------------------------------------------

_FOLDED: dict[str, str] = {}  # each character's NFKC + case fold, worked out once per character seen


def _fold(character: str) -> str:
    folded = _FOLDED.get(character)
    if folded is None:
        folded = _FOLDED[character] = unicodedata.normalize("NFKC", character).casefold()
    return folded


@dataclass(frozen=True)
class Haystack:
    """Where a sentence's occurrences are looked for: `text` itself, or with `normalize` its normalised copy,
    each normalised character knowing the first and last original character that made it (`first`, `last`)."""

    text: str
    first: list[int] | None = None  # None: not normalised, positions are the original ones
    last: list[int] | None = None

    @classmethod
    def of(cls, text: str, normalize: bool) -> Haystack:
        if not normalize:
            return cls(text)
        if text.isascii() and _PLAIN_SPACING.fullmatch(text):
            # ASCII with no white space but single spaces: folding is lower-casing, character for character.
            return cls(text.lower())
        characters: list[str] = []
        first: list[int] = []
        last: list[int] = []
        in_space = False
        for index, character in enumerate(text):
            for folded in _fold(character):
                if folded.isspace():
                    if in_space:  # a run of white space is one space, made by all of its characters
                        last[-1] = index
                        continue
                    folded, in_space = " ", True
                else:
                    in_space = False
                characters.append(folded)
                first.append(index)
                last.append(index)
        return cls("".join(characters), first, last)

    def span(self, position: int, length: int) -> tuple[int, int]:
        """The original [start, end) of the match of `length` characters at `position`."""
        if self.first is None or self.last is None:
            return position, position + length
        return self.first[position], self.last[position + length - 1] + 1


# Text whose only white space is single spaces (none at all, or one between other characters).
_PLAIN_SPACING = re.compile(r"[^\s]*(?: [^\s]+)*")


def needle_of(text: str, normalize: bool) -> str:
    """An entity's string as it is looked for: itself, or normalised as the text is and stripped (§1b)."""
    if not normalize:
        return text
    return Haystack.of(text, True).text.strip(" ")


# ---------------------------------------------------------------------------------------------------------
# Grounding a sentence
# ---------------------------------------------------------------------------------------------------------


# What the tests count to bound the work without a clock (tests/grounding_counts.py): `count(what, number)` for
# "occurrences" looked at, "flows" (groups solved by a flow, the rest had one answer), "solves" (flows solved for
# them: one, or one per branch) and "contested" (occurrences of a text predicted with several types at a shared
# reference: what branches). None, as in every call but a test's, costs one comparison per count.
count: Callable[[str, int], None] | None = None


def ground_references(
    entities: Sequence[tuple[str, str]],
    haystack: Haystack,
    normalize: bool,
    sentence: int,
    side: str = "references",
) -> list[Span]:
    """The references' spans (§1b): the references of one text, whatever their types, take its occurrences in
    order of position, in the order they are listed. A text that occurs fewer times than it is listed is an
    `InvalidInputError` naming side, sentence and entity."""
    next_position: dict[str, int] = {}
    taken: dict[str, int] = {}
    spans = []
    for index, (entity_type, text) in enumerate(entities):
        needle = needle_of(text, normalize)
        if not needle:
            raise InvalidInputError(
                f"found {shown(text)}, empty once normalised; expected text", side, sentence, entity=index
            )
        found = haystack.text.find(needle, next_position.get(needle, 0))
        if count is not None:
            count("occurrences", 1)
        if found < 0:
            times = taken.get(needle, 0)
            found_times = (
                f"occurs only {times} {'time' if times == 1 else 'times'} in the sentence's text and is listed "
                f"{times + 1} times"
                if times
                else "does not occur in the sentence's text"
            )
            raise InvalidInputError(
                f"the text {shown(text)} {found_times}; expected every reference "
                "string to occur in the text once for each time it is listed (two references on one occurrence "
                "need spans)",
                side,
                sentence,
                entity=index,
            )
        next_position[needle] = found + 1
        taken[needle] = taken.get(needle, 0) + 1
        start, end = haystack.span(found, len(needle))
        spans.append(Span(start, end, entity_type))
    return spans


def ground_predictions(
    entities: Sequence[tuple[str, str]],
    haystack: Haystack,
    normalize: bool,
    references: Sequence[Span],
    min_overlap: float | None,
) -> list[Span | None]:
    """Each listed prediction's span, or None when it stays ungrounded (§1b): the grounding whose pairing with
    `references` is best by §3's priorities, ties to the lexicographically smallest sorted list of (start, end,
    type) of the grounded predictions. Predictions of one text and type get their occurrences in listing order."""
    classes: dict[str, dict[str, list[int]]] = {}
    for index, (entity_type, text) in enumerate(entities):
        needle = needle_of(text, normalize)
        if not needle:
            raise InvalidInputError(f"found {shown(text)}, empty once normalised; expected text", entity=index)
        classes.setdefault(needle, {}).setdefault(entity_type, []).append(index)
    every = _every_occurrence(classes, haystack, len(entities))
    if every is not None:
        return every
    covered = _Cover(references)
    candidates: dict[str, list[tuple[int, int]]] = {}
    for needle, types in classes.items():
        wanted = sum(map(len, types.values()))
        candidates[needle] = _candidates(haystack, needle, wanted, covered)
    left = {
        needle: {entity_type: len(indices) for entity_type, indices in types.items()}
        for needle, types in classes.items()
    }
    chosen: dict[str, dict[str, list[tuple[int, int]]]] = {needle: {} for needle in classes}
    if covered.starts:
        candidates, references = _take_identical(left, candidates, references, chosen, min_overlap)
    touched = _touched(candidates, references, min_overlap) if covered.starts else set()
    undecided = []
    for needle, numbers in left.items():
        found = candidates[needle]
        wanted = sum(numbers.values())
        if not wanted:
            continue
        live = [entity_type for entity_type, number in numbers.items() if number]
        if len(live) == 1 and wanted >= len(found):
            # Every occurrence that can be chosen is taken: one answer, whatever the references.
            chosen[needle].setdefault(live[0], []).extend(found)
        elif needle not in touched:
            for entity_type, places in _earliest(numbers, found).items():
                chosen[needle].setdefault(entity_type, []).extend(places)
        else:
            undecided.append(needle)
    if undecided:
        solved = _ground_jointly(left, candidates, undecided, references, min_overlap)
        for needle, solved_types in solved.items():
            for entity_type, places in solved_types.items():
                chosen[needle].setdefault(entity_type, []).extend(places)
    grounded: list[Span | None] = [None] * len(entities)
    for needle, types in classes.items():
        for entity_type, indices in types.items():
            places = sorted(chosen[needle].get(entity_type, []))
            for index, (start, end) in zip(indices, places):
                grounded[index] = Span(start, end, entity_type)
    return grounded


def _take_identical(
    left: dict[str, dict[str, int]],
    candidates: dict[str, list[tuple[int, int]]],
    references: Sequence[Span],
    chosen: dict[str, dict[str, list[tuple[int, int]]]],
    min_overlap: float | None,
) -> tuple[dict[str, list[tuple[int, int]]], list[Span]]:
    """Rule 1's pairs that every best grounding makes, made first: the occurrences of a predicted text that are a
    reference of the prediction's type ("twins"). Where no occurrence or reference is the twin of two, the most
    such pairs is each text and type's min(predictions, twins), so a text and type with at least as many
    predictions as twins takes them all; one with fewer takes its earliest twins when nothing else overlaps them
    and the text is predicted with no other type (the choice then changes nothing but the order). What is left
    (candidates, references and `left`'s numbers) goes on; what is taken goes into `chosen`."""
    at: dict[tuple[int, int], list[int]] = {}
    for number, reference in enumerate(references):
        at.setdefault((reference.start, reference.end), []).append(number)
    twins: dict[tuple[str, str], list[tuple[int, int]]] = {}  # (text, type) -> [(candidate index, reference)]
    claimed: dict[int, int] = {}
    claimed_places: dict[tuple[str, int], int] = {}
    for needle, found in candidates.items():
        types = left[needle]
        for index, place in enumerate(found):
            for number in at.get(place, ()):
                entity_type = references[number].entity_type
                if entity_type in types:
                    twins.setdefault((needle, entity_type), []).append((index, number))
                    claimed[number] = claimed.get(number, 0) + 1
                    claimed_places[needle, index] = claimed_places.get((needle, index), 0) + 1
    if not twins or any(n > 1 for n in claimed.values()) or any(n > 1 for n in claimed_places.values()):
        return candidates, list(references)
    alone = None
    taken_places: set[tuple[str, int]] = set()
    taken_references: set[int] = set()
    for (needle, entity_type), pairs in twins.items():
        number = left[needle][entity_type]
        if number < len(pairs):
            if len(left[needle]) > 1:
                continue  # its other types would take the twins left over: which twin matters to the tie (§1b)
            if alone is None:
                alone = _alone(candidates, references, min_overlap)
            if not all(alone[twin] for _, twin in pairs):
                continue
            pairs = pairs[:number]  # in order of position: the earliest
        for index, twin in pairs:
            taken_places.add((needle, index))
            taken_references.add(twin)
            chosen[needle].setdefault(entity_type, []).append(candidates[needle][index])
        left[needle][entity_type] = number - len(pairs)
    kept = {
        needle: [place for index, place in enumerate(found) if (needle, index) not in taken_places]
        for needle, found in candidates.items()
    }
    return kept, [reference for number, reference in enumerate(references) if number not in taken_references]


def _alone(
    candidates: dict[str, list[tuple[int, int]]], references: Sequence[Span], min_overlap: float | None
) -> list[bool]:
    """For each reference, whether at most one candidate occurrence overlaps it."""
    spans = [Span(*place, "") for found in candidates.values() for place in found]
    count = [0] * len(references)
    for reference, _ in _overlap_edges(references, spans, min_overlap):
        count[reference] += 1
    return [number <= 1 for number in count]


def _touched(
    candidates: dict[str, list[tuple[int, int]]], references: Sequence[Span], min_overlap: float | None
) -> set[str]:
    """The texts of which some candidate occurrence overlaps a reference."""
    needles = [needle for needle, found in candidates.items() for _ in found]
    spans = [Span(*place, "") for found in candidates.values() for place in found]
    return {needles[place] for _, place in _overlap_edges(references, spans, min_overlap)}


def _every_occurrence(
    classes: dict[str, dict[str, list[int]]], haystack: Haystack, listed: int
) -> list[Span | None] | None:
    """The grounding when there is nothing to choose: every text is predicted with one type, and occurs no more
    often than it is predicted, so every occurrence is taken (in listing order), whatever the references. None
    otherwise. Most documents are so; this is their whole cost, one search per occurrence."""
    grounded: list[Span | None] = [None] * listed
    find = haystack.text.find
    for needle, types in classes.items():
        if len(types) > 1:
            return None
        ((entity_type, indices),) = types.items()
        wanted = len(indices)
        places: list[int] = []
        position = find(needle)
        while position >= 0:
            if len(places) == wanted:
                return None  # more occurrences than predictions: a choice to make
            places.append(position)
            position = find(needle, position + 1)
        if count is not None:
            count("occurrences", len(places))
        for index, position in zip(indices, places):
            grounded[index] = Span(*haystack.span(position, len(needle)), entity_type)
    return grounded


class _Cover:
    """The characters the references cover, as sorted disjoint intervals: whether an occurrence touches one."""

    def __init__(self, references: Sequence[Span]) -> None:
        merged: list[list[int]] = []
        for span in sorted(references, key=lambda span: (span.start, span.end)):
            if merged and span.start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], span.end)
            else:
                merged.append([span.start, span.end])
        self.starts = [start for start, _ in merged]
        self.ends = [end for _, end in merged]
        self.last_end = self.ends[-1] if merged else 0

    def touches(self, start: int, end: int) -> bool:
        at = bisect_right(self.starts, end - 1) - 1  # the last interval starting before `end`
        return at >= 0 and self.ends[at] > start


def _candidates(haystack: Haystack, needle: str, wanted: int, covered: _Cover) -> list[tuple[int, int]]:
    """The occurrences of `needle` a best grounding can use, in order of position: every one that touches a
    reference, and the first `wanted` that touch none. A later free one is never better: an unpaired prediction
    there moves to an earlier free one left unused, which makes the sorted list smaller (§1b's tie)."""
    found: list[tuple[int, int]] = []
    free = 0
    position = haystack.text.find(needle)
    length = len(needle)
    counted = count
    while position >= 0:
        if counted is not None:
            counted("occurrences", 1)
        start, end = haystack.span(position, length)
        if covered.touches(start, end):
            found.append((start, end))
        elif free < wanted:
            found.append((start, end))
            free += 1
        if free >= wanted and start >= covered.last_end:
            break  # everything further is free, and enough free ones are found
        position = haystack.text.find(needle, position + 1)
    return found


def _earliest(types: dict[str, int], found: list[tuple[int, int]]) -> dict[str, list[tuple[int, int]]]:
    """Without a reference to pair with, the smallest sorted list: the earliest occurrences, each to the smallest
    type that has predictions left."""
    left = dict(types)
    chosen: dict[str, list[tuple[int, int]]] = {}
    order = sorted(left)
    for place in found:
        entity_type = next((name for name in order if left[name]), None)
        if entity_type is None:
            break
        left[entity_type] -= 1
        chosen.setdefault(entity_type, []).append(place)
    return chosen


# A node of the joint problem: (text, index of the occurrence among the text's candidates, type).
_Node = tuple[str, int, str]


def _ground_jointly(
    left: dict[str, dict[str, int]],
    candidates: dict[str, list[tuple[int, int]]],
    undecided: list[str],
    references: Sequence[Span],
    min_overlap: float | None,
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
            group, {needle: candidates[needle] for needle in needles}, touching, references, min_overlap
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
