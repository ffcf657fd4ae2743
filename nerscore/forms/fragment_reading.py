"""Reading span dicts with fragments (docs/scoring.md §12) into columns at C speed, for the array paths: every
fragment's start and end, sorted and merged, each entity's number of fragments, and the types of any span dicts
(`type_column`), the fragments as `marshal` writes them where it can (`marshalled_fragments`). Whatever the
readable path (`inputs.as_fragment_span`) would refuse or read otherwise is None here, so that it explains it.
tests/test_fragment_arrays.py checks the reading through `span_arrays` against the readable path, and the
marshalled reading against the passes."""

from __future__ import annotations

import marshal
import operator
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from itertools import chain, compress, repeat
from typing import Any

import numpy as np

from ..decoding import kept_types
from ..grouping import group_bounds, lengths, owners
from ..span import merged_fragments
from .inputs import TYPE_KEYS


def type_column(entities: list[dict]) -> list | None:
    """The types of entity dicts: under the first of TYPE_KEYS that every dict has; None if some dict lacks it,
    or has an earlier one (`inputs.as_span` takes the first present, which the readable path then reads)."""
    for position, key in enumerate(TYPE_KEYS):
        try:
            types = list(map(operator.itemgetter(key), entities))
        except KeyError:
            continue
        for earlier in TYPE_KEYS[:position]:
            if any(map(operator.contains, entities, repeat(earlier))):
                return None
        return types
    return None


@dataclass(frozen=True)
class FragmentValues:
    """One side of a batch of entities as fragments (`fragment_columns`, or spans of one fragment each): each
    entity's `pieces` (its number of merged, sorted fragments) and `type_id` (indexing `type_names`), every
    fragment's `start` and `end` (an entity's in a run, in order), and `counts`, each sentence's number of
    entities; valid by construction (0 <= start < end, fragments of one entity apart)."""

    start: np.ndarray
    end: np.ndarray
    pieces: np.ndarray
    type_id: np.ndarray
    type_names: list[str]
    counts: np.ndarray


def shared_types(
    sides: Sequence[tuple[list[str], np.ndarray]], labels: Collection[str] | None
) -> tuple[list[str], list[np.ndarray], np.ndarray | None]:
    """The types of both sides of a batch (each side's `type_names` and its entities' `type_id` indexing them)
    numbered in the order of their names, so that the tie-break of docs/scoring.md §3 (d), which compares types,
    reads the same on ids as on names: the names, each side's entities' ids among them, and which of them `labels`
    keeps (None where it keeps every type)."""
    type_names = sorted({name for names, _ in sides for name in names})
    type_ids = {name: index for index, name in enumerate(type_names)}
    ids = [np.array([type_ids[name] for name in names], dtype=np.int64)[type_id] for names, type_id in sides]
    kept = kept_types(labels)
    listed = None if kept is None else np.fromiter(map(kept, type_names), dtype=bool, count=len(type_names))
    return type_names, ids, listed


# `fragment_columns`' answer for dicts whose every `fragments` is None: spans as evaluate stores them.
STORED_SPANS = (np.zeros(0, np.int64), np.zeros(0, np.int64), None)


def fragment_columns(entities: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray | None] | None:
    """Of entity dicts some of which give `fragments` (the others `start` and `end`, or `fragments` None, as
    evaluate stores spans): every fragment's start and end, sorted and merged (docs/scoring.md §12), an entity's
    in a run, and each entity's number of them; that number None where every entity was given as one fragment
    (then one start and end an entity: the span). `STORED_SPANS` where every `fragments` is None; None for
    anything the readable path must check or explain (the types are read apart, `type_column`).

    The fragments are read first as `marshal` writes them (`marshalled_fragments`: lists or tuples of pairs of
    ints below 2**31, one pass at C speed, the checks on arrays); where that does not answer, in passes: the
    fragments, the first of each, their numbers, the first's length, its two bounds and the dicts' sizes (a
    `start` or `end` beside), the fewest that check what `inputs.as_fragment_span` checks. `list.__getitem__` mapped
    over lists checks that each is a list while it reads (a type check of its own would be one more pass). Tuples,
    spans beside, empty lists take the general reading."""
    try:
        held = list(map(operator.itemgetter("fragments"), entities))
        read = marshalled_fragments(held)
    except KeyError:  # spans beside: the general reading
        held = list(map(dict.get, entities, repeat("fragments")))
        read = None
    if read is not None:
        start, end, each = read
        if each is None:
            return (start, end, None) if _extents_agree(entities, None, start, end) else None
        return _sorted_columns(entities, None, start, end, each)
    try:
        # `list.__getitem__` mapped: the first fragment of each, and a TypeError unless every one is a list.
        firsts = list(map(list.__getitem__, held, repeat(0)))
    except (TypeError, IndexError):  # a tuple, None (a span beside), an empty list: the general reading
        firsts = None
    if firsts is not None:
        counts = lengths(held)
        one = bool((counts == 1).all())
        pieces = firsts if one else list(chain.from_iterable(held))
        try:
            pairs = set(map(len, pieces)) == {2}
        except TypeError:  # a fragment of no length (a number): the general reading explains it
            pairs = False
        if pairs:
            try:  # the bounds, and a TypeError unless every fragment is a list
                bounds = checked_bounds(*(list(map(list.__getitem__, pieces, repeat(k))) for k in (0, 1)))
            except TypeError:
                if set(map(type, pieces)) - {list, tuple}:
                    return None
                bounds = item_bounds(pieces, (0, 1))
            if bounds is None:
                return None
            start, end = bounds
            if one:
                return (start, end, None) if _extents_agree(entities, None, start, end) else None
            return _sorted_columns(entities, None, start, end, counts)
    if not any(map(operator.is_not, held, repeat(None))):  # (not `count`: an array among them compares elementwise)
        return STORED_SPANS
    return _general_columns(entities, held)


# marshal's format, version 2 (no back-references, `marshal.dumps(value, 2)`): a list or a tuple (exactly, no
# subclass) is its code byte, "[" or "(", and its size in 4 bytes (little endian), then its items; an int (exactly)
# of 32 bits its code "i" and its value in 4 bytes (signed). Other objects write other codes, or raise ValueError.
_ENTITY = np.dtype([("code", "u1"), ("size", "<i4")])
_FRAGMENT = np.dtype(
    [("code", "u1"), ("size", "<i4"), ("start_code", "u1"), ("start", "<i4"), ("end_code", "u1"), ("end", "<i4")]
)
_ONE_FRAGMENT = np.dtype([("entity", _ENTITY), ("fragment", _FRAGMENT)])
_LIST, _TUPLE, _INT = b"[(i"


def marshalled_fragments(held: list) -> tuple[np.ndarray, np.ndarray, np.ndarray | None] | None:
    """Every fragment's start and end (an entity's in a run, as given) and each entity's number of fragments (None
    where each has one) of entities' `fragments` (`held`), where each is a list or tuple of one or more lists or
    tuples of two ints, 0 <= start < end < 2**31: what `inputs.as_fragment_span` reads without a question; None
    for anything else (None beside, bools, floats, larger offsets, other containers: the passes of
    `fragment_columns` then read or refuse it).

    `marshal.dumps` writes the lists in one pass at C speed, each object a record of a code byte and its size or
    value (`_ENTITY`, `_FRAGMENT`), and the checks are on arrays of those records, in place of 6-7 passes over the
    lists (their sizes, the fragments, theirs, both bounds, their types: `fragment_columns` reads 2.5 times as fast,
    benchmarks/README.md). A record checked where the sizes before it place it is the object there: each one's size
    fixes where the next begins."""
    try:
        data = marshal.dumps(held, 2)
    except ValueError:  # an object marshal does not write (a numpy integer, a subclass, a generator ...)
        return None
    count, head = len(held), _ENTITY.itemsize  # `held` itself: "[" and its size
    if not count:
        return None
    pieces = None
    one = len(data) == head + count * _ONE_FRAGMENT.itemsize  # one fragment each, if the entities' records say so
    if one:
        records = np.frombuffer(data, _ONE_FRAGMENT, offset=head)
        entities, fragments = records["entity"], records["fragment"]
        one = bool((entities["size"] == 1).all()) and _containers(entities["code"])
    if not one:
        try:
            pieces = lengths(held)
        except TypeError:  # (a number, which marshal wrote)
            return None
        total = int(pieces.sum())
        if not pieces.all() or len(data) != head + count * _ENTITY.itemsize + total * _FRAGMENT.itemsize:
            return None
        # In units of 5 bytes (an entity's record is one, a fragment's three): where each entity's record begins
        # and each fragment's after it, all inside `data` (they add up to its length).
        before = np.cumsum(pieces) - pieces
        at = 3 * before + np.arange(count)
        fragment_at = 3 * np.arange(total) + np.repeat(np.arange(1, count + 1), pieces)
        units = (len(data) - head) // _ENTITY.itemsize
        entities = np.ndarray((units,), "V5", data, head)[at].view(_ENTITY)
        fragments = np.ndarray((units - 2,), "V15", data, head, (_ENTITY.itemsize,))[fragment_at].view(_FRAGMENT)
        if not (entities["size"] == pieces).all() or not _containers(entities["code"]):
            return None
    start, end = fragments["start"].astype(np.int64), fragments["end"].astype(np.int64)
    valid = (
        _containers(fragments["code"])
        and (fragments["size"] == 2).all()
        and (fragments["start_code"] == _INT).all()
        and (fragments["end_code"] == _INT).all()
        and (start >= 0).all()
        and (start < end).all()
    )
    return (start, end, pieces) if valid else None


def _containers(codes: np.ndarray) -> bool:
    """Whether every code is a list's or a tuple's."""
    return bool(((codes == _LIST) | (codes == _TUPLE)).all())


def checked_bounds(starts: list, ends: list) -> tuple[np.ndarray, np.ndarray] | None:
    """Starts and ends as int64 arrays where each is an int (no bool), 0 <= start < end; else None."""
    if set(map(type, starts)) - {int} or set(map(type, ends)) - {int}:
        return None
    try:
        start, end = np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64)
    except OverflowError:
        return None
    if not (start >= 0).all() or not (start < end).all():
        return None
    return start, end


def item_bounds(items: list, keys: tuple[Any, Any]) -> tuple[np.ndarray, np.ndarray] | None:
    """`checked_bounds` of each item's start and end, under `keys` (indices of tuples, or a dict's keys): each read in
    one pass of `operator.itemgetter` mapped over the items, at C speed (a KeyError or IndexError raised as it is)."""
    return checked_bounds(*(list(map(operator.itemgetter(key), items)) for key in keys))


def _general_columns(entities: list[dict], held: list) -> tuple[np.ndarray, np.ndarray, np.ndarray | None] | None:
    """`fragment_columns` of any mix: lists or tuples of fragments, spans beside, fragments to sort and merge."""
    plain = np.fromiter(map(operator.is_, held, repeat(None)), dtype=bool, count=len(held))
    given: list = list(compress(held, (~plain).tolist()))
    read = marshalled_fragments(given)  # (lists or tuples of pairs of ints below 2**31: most)
    if read is not None:
        bounds: tuple[np.ndarray, np.ndarray] | None = read[:2]
        counts = np.ones(len(given), dtype=np.int64) if read[2] is None else read[2]
    else:
        if set(map(type, given)) - {list, tuple}:
            return None
        counts = lengths(given)
        pieces_given = list(chain.from_iterable(given))
        if set(map(type, pieces_given)) - {list, tuple} or set(map(len, pieces_given)) - {2} or not counts.all():
            return None
        bounds = item_bounds(pieces_given, (0, 1))
    plain_entities = list(compress(entities, plain.tolist()))
    try:
        plain_bounds = item_bounds(plain_entities, ("start", "end"))
    except KeyError:
        return None
    if plain_bounds is None or bounds is None:
        return None
    pieces = np.ones(len(entities), dtype=np.int64)
    pieces[~plain] = counts
    owner = owners(pieces)
    from_plain = plain[owner]
    start, end = np.empty(len(owner), np.int64), np.empty(len(owner), np.int64)
    start[from_plain], end[from_plain] = plain_bounds
    start[~from_plain], end[~from_plain] = bounds
    return _sorted_columns(entities, plain, start, end, pieces)


def _sorted_columns(
    entities: list[dict], plain: np.ndarray | None, start: np.ndarray, end: np.ndarray, pieces: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The fragments of every entity (`pieces` each, in runs) sorted and merged, checked against the extents
    given beside them."""
    owner = owners(pieces)
    unsorted = (owner[1:] == owner[:-1]) & (start[1:] <= end[:-1])
    if unsorted.any():
        start, end, pieces, owner = _merged(start, end, pieces.copy(), owner, np.unique(owner[1:][unsorted]))
    offsets = group_bounds(pieces)
    if not _extents_agree(entities, plain, start[offsets[:-1]], end[offsets[1:] - 1]):
        return None
    return start, end, pieces


def _merged(
    start: np.ndarray, end: np.ndarray, pieces: np.ndarray, owner: np.ndarray, entities: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The fragments with those of `entities` (whose fragments are out of order, touch or overlap) sorted and
    merged (`span.merged_fragments`, docs/scoring.md §12), each such entity in Python: they are few."""
    offsets = group_bounds(pieces)
    keep = np.ones(len(start), dtype=bool)
    added_start: list[int] = []
    added_end: list[int] = []
    added_owner: list[int] = []
    for entity in entities.tolist():
        first, last = int(offsets[entity]), int(offsets[entity + 1])
        keep[first:last] = False
        merged = merged_fragments(zip(start[first:last].tolist(), end[first:last].tolist()))
        pieces[entity] = len(merged)
        added_start.extend(a for a, _ in merged)
        added_end.extend(b for _, b in merged)
        added_owner.extend([entity] * len(merged))
    owner = np.concatenate((owner[keep], np.array(added_owner, np.int64)))
    order = np.argsort(owner, kind="stable")  # each entity's run in place again, already sorted within
    start = np.concatenate((start[keep], np.array(added_start, np.int64)))[order]
    end = np.concatenate((end[keep], np.array(added_end, np.int64)))[order]
    return start, end, pieces, owner[order]


def _extents_agree(entities: list[dict], plain: np.ndarray | None, start: np.ndarray, end: np.ndarray) -> bool:
    """Whether every `start` and `end` given beside `fragments` is its entity's extent (`start`, `end`;
    docs/scoring.md §12); `plain`: the entities given as spans, None for none."""
    if plain is not None:  # (a span's `start` and `end` are its extent)
        entities, start, end = list(compress(entities, (~plain).tolist())), start[~plain], end[~plain]
    if set(map(len, entities)) <= {2}:  # `fragments` and a type only (most)
        return True
    for name, extent in (("start", start), ("end", end)):
        beside = np.fromiter(map(operator.contains, entities, repeat(name)), bool, count=len(entities))
        if beside.any():
            given = list(map(operator.itemgetter(name), compress(entities, beside)))
            if set(map(type, given)) - {int} or given != extent[beside].tolist():
                return False
    return True
