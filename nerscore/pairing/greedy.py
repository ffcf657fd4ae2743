"""The HIPE scorer's pairing, `pairing="hipe"` (docs/hipe.md): greedy in file order, as the NER-Evaluation
algorithm it descends from pairs.

Each prediction, in order, takes the first reference (in order) that it matches: a reference identical to it
(scenario I); else the first reference with its boundaries and another type (IV), or the first it overlaps that
no earlier prediction took (V or VI), whichever comes first; else it is spurious (II). References no prediction
took are missed (III). Unlike `nerscore.pairing.rules.pair`, which maximises the pairs, then the same-type pairs
(docs/scoring.md §3), a prediction overlapping two references takes the first, whatever their types. As in the
scorer, an identical or same-boundary reference is taken even if an earlier prediction took it already, and
references are told apart by value: with nested or overlapping entities a reference may then stand in two rows,
and of identical references one taken leaves none missed (never so with tags, whose entities are disjoint).

The reference a prediction takes is found without a scan past the taken ones (`_InOrder` where the references are
in order and disjoint, `_Untaken` else), so that time follows the entities (times a log), never the pairs that
overlap: an onion of 2,000 a side pairs in about as many steps as 2,000 entities elsewhere.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Collection, Sequence
from dataclasses import replace
from itertools import pairwise

from ..errors import FLOOR, InvalidInputError, refuse_past_free_memory, shown
from ..span import Span, check_spans


def pair_greedy(
    references: Sequence[Span],
    predictions: Sequence[Span],
    alternatives: Sequence[Collection[str]] | None = None,
    identical: Sequence[bool] | None = None,
) -> list[tuple[Span | None, Span | None]]:
    """The HIPE scorer's pairing of one unit (a document) as rows (reference, prediction), either side None for
    an unpaired entity: the same rows as `nerscore.pairing.rules.pair` returns, in position order (the smaller
    start first, a row with a reference before one without).

    `alternatives` (entity links: a prediction's n best links, or the links related to them in the relaxed
    setting) gives each prediction the types that count as its own: a prediction matched through one stands in
    its row with that type, so that the row's scenario is the scorer's (I or V).

    `identical` (the later HIPE scorer, which compares the entities' text too, docs/hipe.md) says of each
    prediction whether it may be identical to a reference: one that may not (its tokens spelled otherwise than
    the reference's) takes no reference as identical, a reference with its boundaries only if of another type
    (IV), and one of its own type only as an overlap no earlier prediction took (the caller then counts that row
    as V, not I)."""
    references, predictions = check_spans("references", references), check_spans("predictions", predictions)
    for name, given in (("alternatives", alternatives), ("identical", identical)):
        if given is not None and (
            not isinstance(given, Sequence)
            or len(given) != len(predictions)
            or (name == "alternatives" and not all(isinstance(item, Collection) for item in given))
        ):
            raise InvalidInputError(f"{name} is {shown(given)}; expected one value per prediction, or None")
    # As the scorer, by value: a reference identical to one already taken counts as taken (only nested or
    # repeated entities can be identical), so that taking one takes its copies.
    present = set(references)
    untaken: _InOrder | _Untaken | None = None  # built when a prediction first needs one: none where all are identical
    taken: set[Span] = set()
    rows: list[tuple[Span | None, Span | None]] = []
    for number, prediction in enumerate(predictions):
        offered = (prediction.entity_type,) if alternatives is None else alternatives[number]
        same_text = identical is None or identical[number]
        # Its boundaries are its fragments (docs/scoring.md §12): an extent alone never makes it identical.
        if not same_text:
            exact = None
        elif alternatives is None:  # its own type alone (no Span built: a hundred thousand copies cost 0.4 s)
            exact = prediction if prediction in present else None
        else:
            typed = (Span(prediction.start, prediction.end, t, prediction.fragments) for t in offered)
            exact = next((span for span in typed if span in present), None)
        if exact is not None:
            if exact not in taken:
                taken.add(exact)
                if untaken is not None:
                    untaken.take(exact)
            rows.append((exact, exact))
            continue
        # The first reference (in order) it matches: one of its boundaries, the scorer's scenario IV (taken or not;
        # where the text may match, an identical one was found above, so the type differs), or one it overlaps that
        # no earlier prediction took (V or VI), whichever comes first.
        if untaken is None:
            ordered = all(a.end <= b.start for a, b in pairwise(references))
            untaken = (_InOrder if ordered else _Untaken)(references, taken)
        first, by_bounds = untaken.first_match(prediction, same_text)
        match = None if first is None else references[first]
        if match is not None:
            if match not in taken:
                taken.add(match)
                untaken.take(match)
            renamed = same_text or not by_bounds  # scenario IV keeps the first type where the text differs
            if renamed and match.entity_type != prediction.entity_type and match.entity_type in offered:
                prediction = replace(prediction, entity_type=match.entity_type)
        rows.append((match, prediction))
    missed = [reference for reference in references if reference not in taken]
    rows.extend((reference, None) for reference in missed)
    rows.sort(key=_position)
    return rows


def _position(row: tuple[Span | None, Span | None]) -> tuple[int, bool, int]:
    """A row's place: its smaller start, a row with a reference first, then the reference's end (or the
    prediction's). Without a generator of its two sides: a third of 100,000 identical entities' pairing was this."""
    reference, prediction = row
    if reference is None:
        assert prediction is not None, "a row holds an entity"
        return prediction.start, True, prediction.end
    start = reference.start if prediction is None or reference.start <= prediction.start else prediction.start
    return start, False, reference.end


class _InOrder:
    """References whose extents are in order and disjoint (always so with tags), for finding the first untaken one
    that shares a unit with a prediction: those it may meet are a run found by bisection, whose taken ones are
    skipped by pointers to the next untaken (halved as they are followed), so that a document costs time linear in
    its entities (times a log), never their product (2,000 predictions over 2,000 references, each over all of
    them, took 0.89 s by a scan past the taken ones)."""

    def __init__(self, references: Sequence[Span], taken: Collection[Span]) -> None:
        self.references = references
        self.ends = [reference.end for reference in references]
        self.fragmented = any(reference.fragments for reference in references)
        # after[i]: i while the reference is untaken, else an index nearer the next untaken one (len: none left).
        self.after = list(range(len(references) + 1))
        for reference in taken:
            self.take(reference)

    def take(self, reference: Span) -> None:
        """Marks `reference` taken (disjoint references have no copies)."""
        index = bisect_right(self.ends, reference.start)
        self.after[index] = index + 1

    def _untaken_from(self, index: int) -> int:
        after = self.after
        while after[index] != index:
            after[index] = after[after[index]]
            index = after[index]
        return index

    def first_match(self, prediction: Span, same_text: bool) -> tuple[int | None, bool]:
        """The first reference the prediction matches (`pair_greedy`), None where none, and whether by its
        boundaries: one with them comes before any it overlaps (those before it end before the prediction starts)."""
        references, count, after = self.references, len(self.references), self.after
        first = bisect_right(self.ends, prediction.start)
        if first < count:
            reference = references[first]
            if reference.same_bounds(prediction) and (same_text or reference.entity_type != prediction.entity_type):
                return first, True
        plain = not self.fragmented and not prediction.fragments  # then an extent met is a unit shared
        best = count
        for start, end in prediction.pieces():
            index = first if start == prediction.start else bisect_right(self.ends, start)
            if after[index] != index:
                index = self._untaken_from(index)
            while index < count and references[index].start < end:
                if plain or references[index].overlap(prediction) > 0:
                    best = index if index < best else best
                    break
                index = self._untaken_from(index + 1)
        return (None if best == count else best), False


class _Untaken:
    """The references no prediction took yet, for finding the first of them (by index) that shares a unit with a
    prediction (docs/scoring.md §12: a fragment of each meets), in time that follows the references' fragments
    times a log, never the pairs that overlap: an onion of 2,000 a side (4 million pairs) took 0.74 s by a scan
    past the taken references, quadratic, and 2,000 predictions between two runs of references out of order
    0.56 s with no pair at all (a tree over the references' extents descended into both runs each time).

    A reference's fragment [a, b) meets a prediction's [s, e) where it holds s (a <= s < b) or starts inside it
    (s < a < e). For the first: a segment tree over the positions where fragments start or end, each node listing,
    the first on top, the references whose fragments cover all its positions, the taken ones dropped when met;
    for the second: the references' fragments in order of their starts, a tree of the least untaken index."""

    def __init__(self, references: Sequence[Span], taken: Collection[Span]) -> None:
        pieces = [
            (start, end, index)
            for index, reference in enumerate(references)
            if not taken or reference not in taken
            for start, end in reference.pieces()
        ]
        self.bounds = sorted({position for start, end, _ in pieces for position in (start, end)})
        self.leaves = 1 << max(0, len(self.bounds) - 2).bit_length()  # one a gap between two bounds
        depth = self.leaves.bit_length()
        refuse_past_free_memory(
            len(pieces) * (2 * depth * 9 + 120) + self.leaves * 200,
            f"its {len(references):,} references ({len(pieces):,} fragments) need",
            "fewer entities in one sentence (split the document)",
            " to pair them as the HIPE scorer does",
            FLOOR,
        )
        self.references = references
        self.taken = [reference in taken for reference in references] if taken else [False] * len(references)
        self.copies: dict[Span, list[int]] = {}  # of each entity, the indices of its copies
        for index, reference in enumerate(references):
            self.copies.setdefault(reference, []).append(index)
        # Of each boundaries (`Span.same_bounds`: the fragments too), the first reference that has them and the
        # first of another type than that one's.
        self.firsts: dict[tuple, tuple[int, int | None]] = {}
        for index, reference in enumerate(references):
            bounds = (reference.start, reference.end, reference.fragments)
            first, other = self.firsts.get(bounds, (index, None))
            if other is None and references[first].entity_type != reference.entity_type:
                other = index
            self.firsts[bounds] = (first, other)
        self.covering: list[list[int] | None] = [None] * (2 * self.leaves)
        for start, end, index in pieces:  # by index: each node's list ascending
            low = bisect_left(self.bounds, start) + self.leaves
            high = bisect_left(self.bounds, end) + self.leaves
            while low < high:  # the nodes that cover [low, high) between them, each whole
                if low & 1:
                    self._file(low, index)
                    low += 1
                if high & 1:
                    high -= 1
                    self._file(high, index)
                low, high = low >> 1, high >> 1
        for listed in self.covering:
            if listed is not None:
                listed.reverse()  # the first on top
        by_start = sorted(pieces)
        self.starts = [start for start, _, _ in by_start]
        self.size = 1 << max(0, len(by_start) - 1).bit_length()
        self.none = len(references)  # the least index where none is left
        self.least = [self.none] * (2 * self.size)
        self.places: list[list[int]] = [[] for _ in references]
        for place, (_, _, index) in enumerate(by_start, self.size):
            self.least[place] = index
            self.places[index].append(place)
        for node in range(self.size - 1, 0, -1):
            self.least[node] = min(self.least[2 * node], self.least[2 * node + 1])

    def _file(self, node: int, index: int) -> None:
        listed = self.covering[node]
        if listed is None:
            self.covering[node] = [index]
        else:
            listed.append(index)

    def take(self, reference: Span) -> None:
        """Marks `reference` and its copies taken: their places in the tree of starts
        emptied, each node above worked out again up to the first that keeps its least index. The last copy first:
        a node's least index is then the taken one's only where no other copy is left below it, so that a thousand
        copies take about a thousand steps, not a thousand paths to the root."""
        least, none = self.least, self.none
        for index in reversed(self.copies[reference]):
            self.taken[index] = True
            for place in self.places[index]:
                least[place] = none
                while place > 1:
                    place >>= 1
                    left, right = least[2 * place], least[2 * place + 1]
                    new = left if left < right else right
                    if new == least[place]:
                        break
                    least[place] = new

    def first_match(self, prediction: Span, same_text: bool) -> tuple[int | None, bool]:
        """As `_InOrder.first_match`: the first reference with the prediction's boundaries that it may take as
        scenario IV (any where the text may match, an identical one taken as such; else the first of another type)
        or the first untaken one sharing a unit with it, whichever comes first; and whether by its boundaries."""
        first, other = self.firsts.get((prediction.start, prediction.end, prediction.fragments), (None, None))
        bounded = (
            first
            if first is None or same_text or self.references[first].entity_type != prediction.entity_type
            else other
        )
        best = self.none if bounded is None else bounded
        for start, end in prediction.pieces():
            best = min(best, self._holding(start), self._starting(start + 1, end))
        return (None if best == self.none else best), best == bounded

    def _holding(self, position: int) -> int:
        bounds = self.bounds
        if not bounds or position < bounds[0] or position >= bounds[-1]:
            return self.none
        best, node = self.none, bisect_right(bounds, position) - 1 + self.leaves
        while node:
            listed = self.covering[node]
            if listed:
                while listed and self.taken[listed[-1]]:
                    listed.pop()
                if listed and listed[-1] < best:
                    best = listed[-1]
            node >>= 1
        return best

    def _starting(self, start: int, end: int) -> int:
        """The least untaken index of a fragment starting at `start` or later and before `end`."""
        low = bisect_left(self.starts, start) + self.size
        high = bisect_left(self.starts, end) + self.size
        best, least = self.none, self.least
        while low < high:
            if low & 1:
                best = min(best, least[low])
                low += 1
            if high & 1:
                high -= 1
                best = min(best, least[high])
            low, high = low >> 1, high >> 1
        return best
