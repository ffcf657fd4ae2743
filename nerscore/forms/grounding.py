"""Entities as surface strings, grounded to the text (docs/scoring.md §1b).

A string entity is mapped to one occurrence of its text in the sentence's (document's) text, and from then on is
scored as that span. References take the earliest occurrences in listing order. Predictions are grounded jointly
with the pairing: of all ways to give them distinct occurrences, the one whose §3 pairing is best, ties to the
earliest occurrences. Predictions of one text and type are interchangeable, so this is a flow per connected group
of texts, occurrences and references (`joint_grounding`), not a search over lists; only the occurrences that
overlap a reference, and the first few that overlap none, can be chosen, so a text that occurs 10,000 times costs
its occurrences once, not a graph of them.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import InvalidInputError, shown
from ..pairing.rules import _overlap_edges
from ..span import Span
from .joint_grounding import Count, ground_jointly

# ---------------------------------------------------------------------------------------------------------
# The text as occurrences are found in it: itself, or its normalised copy with the way back (§1b)
# ---------------------------------------------------------------------------------------------------------

_FOLDED: dict[str, str] = {}  # each character's NFKC + case fold, worked out once per character seen


def _folded(character: str) -> str:
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
            for folded in _folded(character):
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
count: Count | None = None


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
        solved = ground_jointly(left, candidates, undecided, references, min_overlap, count)
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
    overlapping = [0] * len(references)
    for reference, _ in _overlap_edges(references, spans, min_overlap):
        overlapping[reference] += 1
    return [number <= 1 for number in overlapping]


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
        places = every_position(find, needle, len(indices))
        if places is None:
            return None  # more occurrences than predictions: a choice to make
        if count is not None:
            count("occurrences", len(places))
        for index, position in zip(indices, places):
            grounded[index] = Span(*haystack.span(position, len(needle)), entity_type)
    return grounded


def every_position(find: Callable[..., int], needle: str, most: int) -> list[int] | None:
    """Every position of `needle` that `find` (a text's `str.find`) finds, in order; None when there are more
    than `most` (a choice to make)."""
    places: list[int] = []
    position = find(needle)
    while position >= 0:
        if len(places) == most:
            return None
        places.append(position)
        position = find(needle, position + 1)
    return places


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
