"""Entities as surface strings, grounded to the text (docs/scoring.md §1b): a string entity is mapped to one
occurrence of its text in the sentence's (document's) text, and from then on is scored as that span. References
take the earliest occurrences in listing order; predictions, the grounding whose §3 pairing is best, ties to the
earliest occurrences (`joint_grounding` where that is a choice). Only the occurrences that overlap a reference, and
the first few that overlap none, can be chosen, so a text that occurs 10,000 times costs its occurrences once, not a
graph of them.
"""

from __future__ import annotations

import numbers
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..errors import InvalidInputError, is_collection, shown
from ..pairing.rules import overlap_edges
from ..span import Span, merged_fragments
from .inputs import as_string_entity, is_string_entity, read_spans
from .joint_grounding import Count, ground_jointly


@cache  # each character's NFKC + case fold, worked out once per character seen
def _folded(character: str) -> str:
    return unicodedata.normalize("NFKC", character).casefold()


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
    if text.isascii() and _PLAIN_SPACING.fullmatch(text):
        return text.lower().strip(" ")
    # Haystack.of's copy without the positions: its runs of white space one space (str.split's is str.isspace's)
    return " ".join("".join(map(_folded, text)).split())


# What the tests count to bound the work without a clock (tests/grounding_counts.py): `count(what, number)` for
# "occurrences" looked at, "flows" (components solved by a flow, the rest had one answer) and "solves" (flows
# solved for them: one each, as nothing branches). None, as in every call but a test's, costs one comparison per
# count.
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
    needles = [needle_of(text, normalize) for _, text in entities]
    places = reference_places(haystack.text.find, needles)  # lazily: each entity is checked before the next
    taken: dict[str, int] = {}
    spans = []
    for index, ((entity_type, text), needle, found) in enumerate(zip(entities, needles, places)):
        if not needle:
            raise InvalidInputError(
                f"found {shown(text)}, empty once normalised; expected text", side, sentence, entity=index
            )
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
            # ("Ada", "PER"): (text, type), where string entities are (type, text) as eval4ner writes them (§1b)
            type_needle = needle_of(entity_type, normalize)
            swapped = not times and bool(type_needle) and haystack.text.find(type_needle) >= 0
            raise InvalidInputError(
                f"the text {shown(text)} {found_times}; expected every reference "
                "string to occur in the text once for each time it is listed (two references on one occurrence "
                "need spans)"
                + (f"; a string entity is (type, text): pass {shown((text, entity_type))}" if swapped else ""),
                side,
                sentence,
                entity=index,
            )
        taken[needle] = taken.get(needle, 0) + 1
        start, end = haystack.span(found, len(needle))
        spans.append(Span(start, end, entity_type))
    return spans


def reference_places(find: Callable[[str, int], int], needles: Iterable[str]) -> Iterator[int]:
    """Each reference's position (§1b), in listing order: the first occurrence of its text after the one the last
    reference of that text took; -1 where none is left (and so for every later reference of that text). The one
    placement of references: grounding (`ground_references`), its cost (`occurrences_looked_at`) and the check of a
    batch the evaluate module stores (`stored_batches`)."""
    next_position: dict[str, int] = {}
    for needle in needles:
        found = find(needle, next_position.get(needle, 0))
        if found >= 0:
            next_position[needle] = found + 1
        yield found


def ground_predictions(
    entities: Sequence[tuple[str, str]],
    haystack: Haystack,
    normalize: bool,
    references: Sequence[Span],
    min_overlap: float | None,
) -> list[Span | None]:
    """Each listed prediction's span, or None when it stays ungrounded (§1b): predictions of one text and type
    take distinct occurrences of it (of different types they may share one), in the grounding whose pairing with
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
    covered = _Cover((span.start, span.end) for span in references)
    candidates: dict[str, list[tuple[int, int]]] = {}
    for needle, types in classes.items():
        # Each text and type chooses among the occurrences on its own (§1b): the first free ones it may need.
        candidates[needle], looked = _candidates(haystack, needle, max(map(len, types.values())), covered)
        if count is not None:
            count("occurrences", looked)
    touched = _touched(candidates, references, min_overlap) if covered.starts else set()
    chosen: dict[tuple[str, str], list[tuple[int, int]]] = {}
    wanted: dict[tuple[str, str], int] = {}  # the texts and types that compete for references
    undecided: set[tuple[str, str]] = set()
    for needle, types in classes.items():
        found = candidates[needle]
        for entity_type, indices in types.items():
            key = (needle, entity_type)
            number = min(len(indices), len(found))
            if needle in touched:
                wanted[key] = number
                if number < len(found):
                    undecided.add(key)
                    continue
            # Every candidate taken, or (with no reference to pair with) the earliest: one answer.
            chosen[key] = found[:number]
    if undecided:
        chosen.update(ground_jointly(wanted, candidates, undecided, references, min_overlap, count))
    grounded: list[Span | None] = [None] * len(entities)
    for needle, types in classes.items():
        for entity_type, indices in types.items():
            places = sorted(chosen[needle, entity_type])
            for index, (start, end) in zip(indices, places):
                grounded[index] = Span(start, end, entity_type)
    return grounded


def _touched(
    candidates: dict[str, list[tuple[int, int]]], references: Sequence[Span], min_overlap: float | None
) -> set[str]:
    """The texts of which some candidate occurrence overlaps a reference."""
    needles = [needle for needle, found in candidates.items() for _ in found]
    spans = [Span(*place, "") for found in candidates.values() for place in found]
    return {needles[place] for _, place in overlap_edges(references, spans, min_overlap)}


def _every_occurrence(
    classes: dict[str, dict[str, list[int]]], haystack: Haystack, listed: int
) -> list[Span | None] | None:
    """The grounding when there is nothing to choose: every text occurs no more often than it is predicted with
    each of its types, so each text and type takes every occurrence (in listing order), whatever the references.
    None otherwise. Most documents are so; this is their whole cost, one search per occurrence."""
    grounded: list[Span | None] = [None] * listed
    find = haystack.text.find
    for needle, types in classes.items():
        places = every_position(find, needle, min(map(len, types.values())))
        if places is None:
            return None  # more occurrences than predictions of some type: a choice to make
        if count is not None:
            count("occurrences", len(places))
        for entity_type, indices in types.items():
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
    """The characters the references cover (their [start, end)), as sorted disjoint intervals: whether an occurrence
    touches one."""

    def __init__(self, references: Iterable[tuple[int, int]]) -> None:
        merged = merged_fragments(references)
        self.starts = [start for start, _ in merged]
        self.ends = [end for _, end in merged]
        self.last_end = self.ends[-1] if merged else 0

    def touches(self, start: int, end: int) -> bool:
        at = bisect_right(self.starts, end - 1) - 1  # the last interval starting before `end`
        return at >= 0 and self.ends[at] > start


def _candidates(
    haystack: Haystack, needle: str, wanted: int, covered: _Cover, most: int | None = None
) -> tuple[list[tuple[int, int]], int]:
    """The occurrences of `needle` a best grounding can use, in order of position: every one that touches a
    reference, and the first `wanted` that touch none; and how many occurrences it looked at to find them (at most
    `most`). A later free one is never better: an unpaired prediction there moves to an earlier free one left
    unused, which makes the sorted list smaller (§1b's tie). The one walk of grounding (`ground_predictions`) and of
    its cost (`occurrences_looked_at`)."""
    found: list[tuple[int, int]] = []
    free = looked = 0
    position = haystack.text.find(needle)
    length = len(needle)
    while position >= 0 and looked != most:
        looked += 1
        start, end = haystack.span(position, length)
        if covered.touches(start, end):
            found.append((start, end))
        elif free < wanted:
            found.append((start, end))
            free += 1
        if free >= wanted and start >= covered.last_end:
            break  # everything further is free, and enough free ones are found
        position = haystack.text.find(needle, position + 1)
    return found, looked


def occurrences_looked_at(
    text: str, references: Sequence[Any], predictions: Sequence[Any], most_work: int, most_characters: int
) -> tuple[int, int]:
    """What grounding one document's string `predictions` in `text` looks at (docs/scoring.md §1b, without
    `normalize`), as (work, characters), worked out without grounding them: the occurrences of each predicted text
    that grounding weighs (`_candidates`' walk: every one touching a reference, then free ones until as many as
    the text's most predictions of one type lie past the last reference), each counted once and once more for each
    reference it overlaps, for each type the text is predicted with; and the characters compared to find them.
    None of this when nothing is to choose (every text occurs no more often than it is predicted with each of its
    types): (0, the characters of its occurrences). `references` are the document's entities as given, strings or
    spans; entities the package refuses are left out (grounding names them). Counting stops once either passes
    its `most_`, so that a caller capping them (the Space) pays no more than its caps to know."""
    _check_estimate_inputs(text, references, predictions, most_work, most_characters)
    most_work, most_characters = int(most_work), int(most_characters)  # numpy's wrap past 2**63 (or 2**64)
    references = list(references)  # read twice (strings, else spans): a generator once
    by_type = Counter(entity for entity in map(_string_or_none, predictions) if entity is not None)
    wanted: dict[str, int] = {}
    fewest: dict[str, int] = {}
    types: dict[str, int] = {}  # each type of a text weighs its occurrences on its own (§1b)
    for (_, needle), number in by_type.items():
        wanted[needle] = max(wanted.get(needle, 0), number)
        fewest[needle] = min(fewest.get(needle, number), number)
        types[needle] = types.get(needle, 0) + 1
    find = text.find
    # No choice to make (`_every_occurrence`, grounding's first pass): each text takes every occurrence, one search
    # apiece, and nothing is weighed.
    every = {needle: every_position(find, needle, most) for needle, most in fewest.items()}
    if None not in every.values():
        return 0, sum(len(needle) * len(places or ()) for needle, places in every.items())
    bounds = _reference_bounds(text, references)
    starts = sorted(start for start, _ in bounds)
    ends = sorted(end for _, end in bounds)
    haystack, covered = Haystack(text), _Cover(bounds)
    work = characters = 0
    for needle, number in wanted.items():
        if work > most_work or characters > most_characters:
            break
        # each occurrence adds at least `types[needle]` to the work and its length to the characters: no more can
        # be counted before a cap is passed
        most = min((most_work - work) // types[needle], (most_characters - characters) // len(needle)) + 1
        found, looked = _candidates(haystack, needle, number, covered, most)
        for start, end in found:  # the references each overlaps (those looked at and not found overlap none)
            work += (1 + bisect_left(starts, end) - bisect_right(ends, start)) * types[needle]
            if work > most_work:
                break
        work += (looked - len(found)) * types[needle]
        characters += looked * len(needle)
    return work, characters


def _string_or_none(entity: Any) -> tuple[str, str] | None:
    """A string entity as grounding reads it, (type, text); None for what it refuses (a span at once: the error
    saying so would cost more than the rest)."""
    if not is_string_entity(entity):
        return None
    try:
        return as_string_entity(entity)
    except InvalidInputError:
        return None


def _reference_bounds(text: str, references: Sequence[Any]) -> list[tuple[int, int]]:
    """The references' [start, end) as grounding places them (§1b): spans as given, strings on the occurrences of
    their text in listing order (`reference_places`); what the package refuses is left out."""
    strings = [_string_or_none(entity) for entity in references]
    if references and None not in strings:
        needles = [needle for _, needle in filter(None, strings)]
        places = reference_places(text.find, needles)
        return [(found, found + len(needle)) for needle, found in zip(needles, places) if found >= 0]
    try:
        return [(span.start, span.end) for span in read_spans([list(references)], "references")[0]]
    except ValueError:
        return []


def _check_estimate_inputs(text: Any, references: Any, predictions: Any, most_work: Any, most_characters: Any) -> None:
    """`occurrences_looked_at`'s arguments, each of its kind (a public function: a ValueError, not what reading a
    wrong one would raise)."""
    if not isinstance(text, str):
        raise InvalidInputError(f"text is {shown(text)}; expected the document's text, a string")
    for name, entities in (("references", references), ("predictions", predictions)):
        if not is_collection(entities):
            raise InvalidInputError(f"{name} is {shown(entities)}; expected a list of the document's entities")
    for name, most in (("most_work", most_work), ("most_characters", most_characters)):
        if not isinstance(most, numbers.Integral) or isinstance(most, bool) or most < 0:
            raise InvalidInputError(f"{name} is {shown(most)}; expected a whole number, 0 or more")
