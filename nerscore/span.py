"""An entity: a half-open interval and its type, what decoding yields and pairing pairs (docs/scoring.md §1); or,
discontinuous, several fragments of one type (§12), whose units are the union of its fragments."""

from __future__ import annotations

import numbers
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from operator import itemgetter
from typing import Any

import numpy as np

from .errors import InvalidInputError, is_collection, plain_text, shown
from .grouping import group_bounds, ranges, run_bounds

Fragments = tuple[tuple[int, int], ...]


@dataclass(frozen=True, order=True)
class Span:
    """An entity: the half-open token interval ``[start, end)`` and its type. A discontinuous entity
    (docs/scoring.md §12) also has `fragments`: two or more sorted, disjoint, non-touching ``(start, end)``
    intervals, `start` and `end` its extent; `fragments` is ``()`` for every contiguous entity, so that an entity
    of one fragment is the ordinary span, equal to it (`fragment_span` makes both)."""

    start: int
    end: int
    entity_type: str
    fragments: Fragments = ()

    def __repr__(self) -> str:
        pieces = f", fragments={self.fragments!r}" if self.fragments else ""
        return f"Span(start={self.start!r}, end={self.end!r}, entity_type={self.entity_type!r}{pieces})"

    def overlap(self, other: Span) -> int:
        """How many tokens (units, docs/scoring.md §12) the two spans share."""
        if not self.fragments and not other.fragments:
            return max(0, min(self.end, other.end) - max(self.start, other.start))
        return shared_units(self.pieces(), other.pieces())

    @property
    def units(self) -> int:
        """Its length: the number of positions it covers (docs/scoring.md §12: the union of its fragments)."""
        if not self.fragments:
            return self.end - self.start
        return sum(end - start for start, end in self.fragments)

    def pieces(self) -> Fragments:
        """Its fragments, one ``(start, end)`` for a contiguous entity (docs/scoring.md §12)."""
        return self.fragments or ((self.start, self.end),)

    def same_bounds(self, other: Span) -> bool:
        """Identical boundaries (docs/scoring.md §3, §12): the same fragments after merging."""
        return self.start == other.start and self.end == other.end and self.fragments == other.fragments

    def as_dict(self) -> dict[str, Any]:
        written: dict[str, Any] = {"start": self.start, "end": self.end, "type": self.entity_type}
        if self.fragments:
            written["fragments"] = [list(piece) for piece in self.fragments]
        return written


def merged_fragments(fragments: Any) -> Fragments:
    """Fragments sorted, those that touch or overlap merged into one (docs/scoring.md §12); each already checked
    as a pair of integers with start < end."""
    merged: list[list[int]] = []
    for start, end in sorted(fragments):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return tuple((start, end) for start, end in merged)


def fragment_span(fragments: Any, entity_type: str) -> Span:
    """The entity of checked `fragments` (pairs of integers, start < end) and a type: merged, and the ordinary
    `Span` when they merge into one (docs/scoring.md §12)."""
    pieces = list(fragments)
    if all(before[1] < after[0] for before, after in pairwise(pieces)):  # already sorted and apart (most)
        merged = tuple(map(tuple, pieces))
    else:
        merged = merged_fragments(pieces)
    if len(merged) == 1:
        return Span(merged[0][0], merged[0][1], entity_type)
    return Span(merged[0][0], merged[-1][1], entity_type, merged)


_END = itemgetter(1)


def shared_units(first: Fragments, second: Fragments) -> int:
    """The positions two sorted lists of disjoint fragments share: for each fragment of the shorter list, the
    fragments of the longer one it meets, found by binary search, so an entity of 10,000 fragments against one of
    a few costs a few searches (docs/scoring.md §12)."""
    if len(first) > len(second):
        first, second = second, first
    shared = 0
    for start, end in first:
        k = bisect_right(second, start, key=_END)  # the first fragment ending after `start`
        while k < len(second) and second[k][0] < end:
            shared += min(end, second[k][1]) - max(start, second[k][0])
            k += 1
    return shared


def looks_like_entity(value: Any) -> bool:
    """Whether `value` has the shape of an entity of span input (docs/scoring.md §1): a dict, a `Span`, a tuple
    or list of three (start, end, type), or a longer one that starts as one does, (start, end, type, score): a
    span with extra fields, which reading it as a tag would report as "predictions hold tags" with no entity
    named. A batch whose first value is one holds spans."""
    if isinstance(value, (Mapping, Span)):
        return True
    if not isinstance(value, (tuple, list)) or len(value) < 3:
        return False
    return len(value) == 3 or (_is_offset(value[0]) and _is_offset(value[1]) and isinstance(value[2], str))


def looks_like_scores(value: Any) -> bool:
    """Whether `value` is a tuple or list of numbers only: where a tag or id belongs, a token's scores per label
    (model logits given as nested lists, which want `argmax(-1)`); never an entity, whose type is a string."""
    return (
        isinstance(value, (tuple, list))
        and len(value) > 0
        and all(isinstance(item, numbers.Real) and not isinstance(item, bool) for item in value)
    )


LOGITS_HINT = "for model logits pass logits.argmax(-1)"


def nested_tags(value: Any, side: str, sentence: int) -> InvalidInputError:
    """The error for a sentence's first value that is itself a list of tags (`all_tags`), read as an entity."""
    return InvalidInputError(
        f"found {shown(value)}, a list of tags where one tag belongs (a sentence nested one list too deep?); "
        "expected one list of tags per sentence",
        side,
        sentence,
        0,
    )


def all_tags(value: Any) -> bool:
    """Whether `value` is a tuple or list of strings that all read as tags ('O', or a prefix and a type joined
    by a hyphen: 'B-PER', 'PER-B'): a sentence of tags, where one value belongs."""
    return (
        isinstance(value, (tuple, list))
        and len(value) > 0
        and all(isinstance(tag, str) and (tag == "O" or 0 < tag.find("-") < len(tag) - 1) for tag in value)
    )


def _is_offset(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def listed(name: str, values: Any, expected: str) -> list:
    """`values` (a function's argument `name`) as a list; an `InvalidInputError` saying what it is and that
    `expected` was, where it is no collection of values (a string, a number, None)."""
    if isinstance(values, (Mapping, Span)) or not is_collection(values):
        raise InvalidInputError(f"{name} is {shown(values)} ({type(values).__name__}); expected {expected}")
    return list(values)


def check_spans(name: str, spans: Any) -> Sequence[Span]:
    """An `InvalidInputError` naming the first value of `spans` (a function's argument `name`) that is no `Span`,
    or `spans` itself when it is no sequence of them: where a function takes `Span`s (`nerscore.pair`). Returns
    `spans`, or where a type is a str subclass (whose own hash may raise) a list with its plain string instead."""
    made = "(nerscore.as_span makes one of a (start, end, type) tuple or a dict)"
    if isinstance(spans, (str, bytes)) or not isinstance(spans, Sequence):
        raise InvalidInputError(f"{name} is {shown(spans)} ({type(spans).__name__}); expected a list of Span {made}")
    subclassed = []
    for index, span in enumerate(spans):
        if not isinstance(span, Span):
            raise InvalidInputError(f"{name}[{index}] is {shown(span)} ({type(span).__name__}); expected a Span {made}")
        # Built by hand, an empty extent (3, 3) or fragments out of order: what as_span refuses, which pairing's
        # bisections take as in order (pair_greedy paired Span(6, 6) with Span(5, 8), sharing no unit); offsets of
        # no integer, a type of no string or fragments in lists raised TypeError from the pairing's sorts and sets
        # (tests/test_redteam13.py). A span as as_span makes most of them is told by its fields' exact kinds.
        start, end, entity_type = span.start, span.end, span.entity_type
        if type(start) is int and type(end) is int and type(entity_type) is str and start < end and entity_type:
            if (type(span.fragments) is tuple and not span.fragments) or _fragments_apart(span):
                continue
        elif _well_formed(span):
            if type(entity_type) is not str:  # (the usual spans never come here)
                subclassed.append(index)
            continue
        raise InvalidInputError(
            f"{name}[{index}] is {shown(span)}; expected start < end (end exclusive), both integers, a non-empty "
            f"string type, and fragments, where given, a tuple of two or more (start, end) tuples sorted and apart "
            f"from start to end {made}"
        )
    if not subclassed:
        return spans
    read = list(spans)
    for index in subclassed:
        read[index] = replace(read[index], entity_type=plain_text(read[index].entity_type))
    return read


def _well_formed(span: Span) -> bool:
    """Whether a Span holds what `fragment_span` makes: integer offsets start < end, a non-empty string type, and
    fragments () or apart (`_fragments_apart`)."""
    start, end, entity_type, pieces = span.start, span.end, span.entity_type, span.fragments
    if not (_is_offset(start) and _is_offset(end) and start < end and isinstance(entity_type, str) and entity_type):
        return False
    return (type(pieces) is tuple and not pieces) or _fragments_apart(span)


def _fragments_apart(span: Span) -> bool:
    """Whether a Span's fragments are as `fragment_span` makes them (docs/scoring.md §12)."""
    pieces = span.fragments
    return (
        type(pieces) is tuple
        and len(pieces) > 1
        and all(type(piece) is tuple and len(piece) == 2 and all(map(_is_offset, piece)) for piece in pieces)
        and pieces[0][0] == span.start
        and pieces[-1][1] == span.end
        and all(start < end for start, end in pieces)
        and all(before[1] < after[0] for before, after in pairwise(pieces))
    )


# Discontinuous entities on arrays (docs/scoring.md §12): §3's pairing (`forms.fragment_arrays`) and the value's
# (`pairing.value_arrays.value_fragments`) fold each side's copies and order its entities by one key an entity.

# Entities of at most this many fragments are ordered by their padded fragments (one integer an entity where it
# fits, a lexsort otherwise); a batch with a longer one orders its entities by Python's comparison of tuples.
PADDED_FRAGMENTS = 8


@dataclass(frozen=True)
class FragmentEntities:
    """One side's entities, a row each, before they are folded: each one's sentence, type, number of fragments
    (`pieces`) and first fragment (`first`, a run of `start`/`end`, which hold every fragment of the side)."""

    sentence: np.ndarray
    type_id: np.ndarray
    pieces: np.ndarray
    first: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @classmethod
    def of(cls, side: tuple[np.ndarray, ...]) -> FragmentEntities:
        """A side as the array paths read it (sentence, type, pieces, start, end, kept), the kept entities."""
        sentence, type_id, pieces, start, end, keep = side
        first = np.cumsum(pieces) - pieces
        if keep.all():
            return cls(sentence, type_id, pieces, first, start, end)
        return cls(sentence[keep], type_id[keep], pieces[keep], first[keep], start, end)

    def taken(self, index: np.ndarray) -> FragmentEntities:
        """The entities `index` picks, their fragments where they were."""
        return FragmentEntities(
            self.sentence[index], self.type_id[index], self.pieces[index], self.first[index], self.start, self.end
        )

    def extent(self) -> tuple[np.ndarray, np.ndarray]:
        """Each entity's extent: its first fragment's start, its last one's end."""
        return self.start[self.first], self.end[self.first + self.pieces - 1]

    def units(self) -> np.ndarray:
        return units_of(self.first, self.pieces, self.start, self.end)

    def fragments(self, index: int) -> tuple[tuple[int, int], ...]:
        """Entity `index`'s fragments as `Span` holds them: ``()`` for a contiguous one."""
        first, last = int(self.first[index]), int(self.first[index] + self.pieces[index])
        if last - first == 1:
            return ()
        return tuple(zip(self.start[first:last].tolist(), self.end[first:last].tolist()))


def units_of(first: np.ndarray, pieces: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Each entity's number of units, of entities each a run of `pieces` fragments of `start` and `end` from
    `first`: its fragments' lengths added up (they are apart, docs/scoring.md §12)."""
    total = group_bounds(end - start)
    return total[first + pieces] - total[first]


def folded_entities(
    references: FragmentEntities, predictions: FragmentEntities
) -> list[tuple[FragmentEntities, np.ndarray, np.ndarray]]:
    """Each side's distinct entities (the same sentence, fragments and type: one) in order of sentence, then rule
    (d)'s, with each one's copies and its key (`rule_d_keys`, equal on both sides for the same entity)."""
    folded = []
    for entities, key in zip((references, predictions), rule_d_keys(references, predictions)):
        order = np.argsort(key, kind="stable")
        key = key[order]
        bounds = run_bounds(key)
        new = bounds[:-1]
        folded.append((entities.taken(order[new]), np.diff(bounds), key[new]))
    return folded


def rule_d_keys(references: FragmentEntities, predictions: FragmentEntities) -> tuple[np.ndarray, np.ndarray]:
    """Each entity's key, on both sides: equal for the same (sentence, fragment list, type), and ordered as rule
    (d) orders entities within a sentence (docs/scoring.md §3, §12: fragment lists compare as lists, a list before
    any it begins, then types). `packed_keys` where they fit; else each entity's rank among the distinct ones of
    both sides sorted together (by a lexsort of their padded fragments, or Python's comparison of tuples for
    entities of more than `PADDED_FRAGMENTS`)."""
    longest = int(max(references.pieces.max(initial=1), predictions.pieces.max(initial=1)))
    if longest <= PADDED_FRAGMENTS:
        packed = packed_keys(references, predictions, longest)
        if packed is not None:
            return packed
    size, shift = len(references.pieces), len(references.start)
    both = FragmentEntities(
        np.concatenate((references.sentence, predictions.sentence)),
        np.concatenate((references.type_id, predictions.type_id)),
        np.concatenate((references.pieces, predictions.pieces)),
        np.concatenate((references.first, predictions.first + shift)),
        np.concatenate((references.start, predictions.start)),
        np.concatenate((references.end, predictions.end)),
    )
    if longest <= PADDED_FRAGMENTS:
        # A missing fragment as -1: before any fragment, so that a list comes before those it begins.
        keys = [both.type_id]
        for k in range(longest - 1, -1, -1):
            has = both.pieces > k
            at = np.where(has, both.first + k, 0)
            keys += [np.where(has, both.end[at], -1), np.where(has, both.start[at], -1)]
        keys.append(both.sentence)
        order = np.lexsort(keys)
    else:
        starts, ends = both.start.tolist(), both.end.tolist()
        lists = [
            (s, tuple(zip(starts[a : a + n], ends[a : a + n])), t)
            for s, a, n, t in zip(
                *(column.tolist() for column in (both.sentence, both.first, both.pieces, both.type_id))
            )
        ]
        order = np.array(sorted(range(len(lists)), key=lists.__getitem__), dtype=np.int64)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.cumsum(~_same_as_previous(both.taken(order)))
    return rank[:size], rank[size:]


def packed_keys(
    references: FragmentEntities, predictions: FragmentEntities, longest: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """`rule_d_keys` as one integer an entity, in mixed radix (sentence, then each fragment's start + 1 and end +
    1, 0 for none, then type), where it fits in 63 bits (short sentences, few fragments: one argsort for the
    lexsort of 2 * `longest` + 2 keys); None where it does not."""
    sides = references, predictions
    radix = max(int(side.type_id.max(initial=0)) for side in sides) + 1
    width = max(int(side.end.max(initial=0)) for side in sides) + 2
    sentences = max(int(side.sentence.max(initial=0)) for side in sides) + 1
    if sentences * width ** (2 * longest) * radix >= 1 << 63:
        return None
    keys = []
    for side in sides:
        # Each fragment as its two digits, start + 1 and end + 1; an entity's key gains two places per fragment,
        # its k-th fragment's digits added where it has one (0 where not).
        digits = (side.start + 1) * width + side.end + 1
        key = side.sentence * (width * width) + digits[side.first]
        for k in range(1, longest):
            key *= width * width
            has = np.flatnonzero(side.pieces > k)
            key[has] += digits[side.first[has] + k]
        keys.append(key * radix + side.type_id)
    return keys[0], keys[1]


def _same_as_previous(entities: FragmentEntities) -> np.ndarray:
    """Whether each entity (in `rule_d_keys`' order) is the one before it: the same sentence, type and
    fragments."""
    sentence, type_id, pieces, first = entities.sentence, entities.type_id, entities.pieces, entities.first
    same = np.zeros(len(sentence), dtype=bool)
    if len(sentence) < 2:
        return same
    same[1:] = (sentence[1:] == sentence[:-1]) & (type_id[1:] == type_id[:-1]) & (pieces[1:] == pieces[:-1])
    candidates = np.flatnonzero(same)
    # Their fragments compared one by one: as many as they have.
    which, here = ranges(first[candidates], pieces[candidates])
    owner = candidates[which]
    before = here + (first[candidates - 1] - first[candidates])[which]
    differs = (entities.start[here] != entities.start[before]) | (entities.end[here] != entities.end[before])
    same[owner[differs]] = False
    return same
