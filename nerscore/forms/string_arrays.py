"""String entities grounded on arrays (docs/scoring.md §1b): the sentences of a batch that have one best grounding,
grounded for the whole batch at once (`batch_without_choice`, a `map` of `str.find` per side, no Python loop per
sentence), one sentence without a choice (`sentence_without_choice`), and the spans' columns (`BatchSpans`) that
`string_batches.ground_batch_values` joins into the `SpanValues` the span path reads. A sentence with a choice, or an
error to locate, is left to `string_batches.ground_batch`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain, repeat
from operator import itemgetter
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InvalidInputError
from ..grouping import group_bounds, lengths, owners, run_bounds
from .grounding import Haystack, every_position, ground_references, needle_of
from .inputs import StringColumns

if TYPE_CHECKING:
    from .span_arrays import SpanValues

SpanTriple = tuple[int, int, str]
# Each entity's sentence, start, end and type id; the ids index a dict of type names shared by the parts joined.
BatchSpans = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def triples_as_columns(sentences: dict[int, list[SpanTriple]], names: dict[str, int]) -> BatchSpans:
    """The (start, end, type) spans of some sentences (by sentence) as columns, with each span's sentence, the
    types numbered in `names` (which gains the types it lacks)."""
    rows = [(number, *triple) for number, triples in sentences.items() for triple in triples]
    types = [names.setdefault(name, len(names)) for name in map(itemgetter(3), rows)]
    return (
        np.fromiter(map(itemgetter(0), rows), dtype=np.int64, count=len(rows)),
        np.fromiter(map(itemgetter(1), rows), dtype=np.int64, count=len(rows)),
        np.fromiter(map(itemgetter(2), rows), dtype=np.int64, count=len(rows)),
        np.array(types, dtype=np.int64),
    )


def joined_values(size: int, parts: list[BatchSpans], names: dict[str, int]) -> SpanValues:
    """The entities of `parts` as the `SpanValues` of `size` sentences, each sentence's in the order of the parts,
    with the names of the types they hold."""
    from .span_arrays import SpanValues  # here: the span path's modules load with the first spans

    parts = [part for part in parts if len(part[0])] or parts[:1]
    sentence, start, end, type_id = _concatenated(*parts) if len(parts) > 1 else parts[0]
    held = np.bincount(type_id, minlength=len(names)) > 0
    renumbered = np.cumsum(held) - 1
    type_names = [name for name, is_held in zip(names, held.tolist()) if is_held]
    return SpanValues(start, end, renumbered[type_id], type_names, np.bincount(sentence, minlength=size))


_Grounded = tuple[list[SpanTriple], list[SpanTriple], list[tuple[str, str]]]  # references, predictions, ungrounded


def batch_without_choice(
    strings_r: StringColumns,
    strings_p: StringColumns,
    texts: Sequence[str],
    keep: Callable[[str], bool] | None,
    normalize: bool,
) -> tuple[np.ndarray, BatchSpans, BatchSpans, list[Sequence[tuple[str, str]]], dict[str, int]]:
    """The sentences with one best grounding, grounded for the whole batch on arrays: each side's strings are
    searched by one `map` of `str.find`, so that such a sentence costs no Python loop of its own. Gives which
    sentences are left (`sentence_without_choice` or `ground_batch` grounds them one by one, and locates any
    error), the spans of the others on each side, references first, their ungrounded predictions, and the type
    names the spans' ids index.

    A sentence is grounded here when each of its predicted texts and types ("keys") is one of:
    - a twin key: it has at most as many predictions as references of that text and type (its twins);
    - a fixed key: its text is predicted once in the sentence (whatever the type) and occurs at most once;
    and a sentence with a twin key of fewer predictions than twins has no fixed key without twins. Twins of two keys
    are distinct references at distinct occurrences (the references of one text take distinct occurrences), so
    every best grounding has, for each key, min(predictions, twins) pairs of identical boundaries and type
    (§3's first priority); when every key has at most its twins, every prediction is paired with a twin and the
    pairing is the same for any choice of twins, so the earliest twins of each key give the smallest sorted list
    (§1b's tie); when every key has exactly its twins or one place, there is no choice at all."""
    size = len(texts)
    searched: Sequence[str] = texts
    separate = np.zeros(size, dtype=bool)
    if normalize:
        lowered = _ascii_normalized(texts)
        if lowered is not None:
            searched = lowered
        else:
            haystacks = [Haystack.of(text, True) for text in texts]
            searched = [haystack.text for haystack in haystacks]
            # Positions move where normalising changes the length: such sentences map back one by one.
            separate |= np.fromiter((haystack.first is not None for haystack in haystacks), dtype=bool, count=size)
    # Each sentence's first position in the texts laid end to end: a found string's place in the batch. A text
    # found at one place of one sentence with one length is one text, so (place, length) names a sentence's text
    # without hashing strings.
    origin = group_bounds(lengths(searched))
    sides = []
    for strings in (strings_r, strings_p):
        counts = lengths(strings.sentences)
        sentence = owners(counts)
        types, given = strings.types, strings.texts
        needles = given
        if normalize:
            lowered = _ascii_normalized(given, stripped=True)
            if lowered is not None:
                needles = lowered
            else:
                normalized: dict[str, str] = {}
                needles = [normalized.get(text) or normalized.setdefault(text, needle_of(text, True)) for text in given]
        within = list(chain.from_iterable(map(repeat, searched, counts.tolist())))
        first = np.fromiter(map(str.find, within, needles), dtype=np.int64, count=len(types))
        length = lengths(needles)
        separate[sentence[length == 0]] = True  # empty once normalised: the error is located one by one
        kept = np.ones(len(types), dtype=bool)
        if keep is not None:
            kept = np.fromiter(map(keep, types), dtype=bool, count=len(types))
        place = np.where(first >= 0, origin[sentence] + first, -1)
        sides.append((sentence, types, given, needles, within, first, length, kept, place))
    sentence_r, types_r, _, needles_r, within_r, first_r, length_r, kept_r, place_r = sides[0]
    sentence_p, types_p, given_p, needles_p, within_p, first_p, length_p, kept_p, place_p = sides[1]
    type_ids = {name: number for number, name in enumerate(dict.fromkeys(chain(types_r, types_p)))}
    type_r, type_p = (
        np.fromiter(map(type_ids.__getitem__, types), dtype=np.int64, count=len(types)) for types in (types_r, types_p)
    )
    separate[sentence_r[first_r < 0]] = True  # a reference that does not occur: an error, located one by one

    # References of one text take its occurrences in listing order (§1b): the second of a text the next one.
    start_r = first_r.copy()
    order = np.lexsort((length_r, place_r))
    again = (np.diff(place_r[order]) == 0) & (np.diff(length_r[order]) == 0) & (place_r[order][1:] >= 0)
    for previous, index in zip(order[:-1][again].tolist(), order[1:][again].tolist()):
        if not separate[sentence_r[index]]:
            start_r[index] = within_r[index].find(needles_r[index], start_r[previous] + 1)
            if start_r[index] < 0:
                separate[sentence_r[index]] = True  # listed more often than it occurs: an error, located one by one

    # Each predicted key's number of predictions and of twins (references of its text and type).
    found_p = (place_p >= 0) & kept_p
    key_place = np.concatenate((place_r, place_p[found_p]))
    key_length = np.concatenate((length_r, length_p[found_p]))
    key_type = np.concatenate((type_r, type_p[found_p]))
    is_prediction = np.concatenate((np.zeros(len(place_r), dtype=bool), np.ones(int(found_p.sum()), dtype=bool)))
    by_key = np.lexsort((is_prediction, key_type, key_length, key_place))  # twins first, by place of listing
    bounds = run_bounds(key_place[by_key], key_length[by_key], key_type[by_key])
    key = owners(np.diff(bounds))  # of each entry in by_key's order
    twins = np.bincount(key[~is_prediction[by_key]], minlength=key[-1] + 1 if len(key) else 0)
    predicted = np.bincount(key[is_prediction[by_key]], minlength=len(twins))
    key_of = np.empty(len(by_key), dtype=np.int64)
    key_of[by_key] = key
    key_p = key_of[len(place_r) :]  # of each found, kept prediction
    # A text predicted once in its sentence, whatever the type, that occurs once: one place.
    again_p = np.fromiter(
        map(str.find, within_p, needles_p, (first_p + 1).tolist()), dtype=np.int64, count=len(first_p)
    )
    listed = np.flatnonzero(kept_p)  # predictions of other types than `keep` are dropped before grounding
    text_order = listed[np.lexsort((length_p[listed], place_p[listed]))]
    same_text = np.zeros(len(place_p), dtype=bool)
    twice = (np.diff(place_p[text_order]) == 0) & (np.diff(length_p[text_order]) == 0)
    same_text[text_order[1:][twice]] = True
    same_text[text_order[:-1][twice]] = True
    fixed = (again_p < 0) & ~same_text
    where = np.flatnonzero(found_p)
    has_twins = twins[key_p] > 0
    at_most_twins = predicted[key_p] <= twins[key_p]
    fewer = predicted[key_p] < twins[key_p]
    separate[sentence_p[where[~(at_most_twins | fixed[where])]]] = True
    alone = fixed[where] & ~has_twins  # a fixed key of no twin
    both = np.zeros(size, dtype=bool)
    both[sentence_p[where[fewer]]] = True
    separate[sentence_p[where[alone]][both[sentence_p[where[alone]]]]] = True

    def chosen(
        index: np.ndarray, sentence: np.ndarray, start: np.ndarray, extent: np.ndarray, kind: np.ndarray
    ) -> BatchSpans:
        return sentence[index], start[index], start[index] + extent[index], kind[index]

    batch_r = np.flatnonzero(~separate[sentence_r] & kept_r)
    # Predictions at twins: each twin key's earliest twins, as many as it has predictions (by_key lists a key's
    # twins by their place of listing, which is their order of position).
    rank = np.arange(len(by_key)) - bounds[:-1][key]
    taken = ~is_prediction[by_key] & (rank < predicted[key])
    twin_entries = by_key[taken]  # references
    at_twin = twin_entries[~separate[sentence_r[twin_entries]] & kept_r[twin_entries]]
    twin_spans = chosen(at_twin, sentence_r, start_r, length_r, type_r)
    alone_p = where[~has_twins & ~separate[sentence_p[where]]]
    batch_p = _concatenated(twin_spans, chosen(alone_p, sentence_p, first_p, length_p, type_p))
    # One empty tuple for every sentence without an ungrounded prediction: no list to build (nor to collect) each.
    left: list[Sequence[tuple[str, str]]] = [()] * size
    ungrounded: dict[int, list[tuple[str, str]]] = {}
    for index in np.flatnonzero(kept_p & (first_p < 0) & ~separate[sentence_p]).tolist():
        ungrounded.setdefault(int(sentence_p[index]), []).append((types_p[index], given_p[index]))
    for number, entities in ungrounded.items():
        left[number] = entities
    return separate, chosen(batch_r, sentence_r, start_r, length_r, type_r), batch_p, left, type_ids


def _ascii_normalized(strings: Sequence[str], stripped: bool = False) -> list[str] | None:
    """Every string normalised as §1b says, at C speed for the usual batch: when all are ASCII with no white space
    but single spaces (and, `stripped`, none at either end), NFKC changes nothing and case folding is lowering, one
    character for one, so the normalised strings are the strings lowered, at the same positions. None for any
    other batch (each string is then normalised on its own)."""
    if not strings:
        return []
    joined = "\x00".join(strings)
    if not joined.isascii() or "  " in joined or any(space in joined for space in _OTHER_SPACES):
        return None
    if stripped and (" \x00" in joined or "\x00 " in joined or joined[:1] == " " or joined[-1:] == " "):
        return None
    lowered = joined.lower().split("\x00")
    return lowered if len(lowered) == len(strings) else None  # (a string holding the separator is not usual)


# ASCII white space other than the space (str.isspace): each searched for alone, at memchr speed.
_OTHER_SPACES = ("\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f")


def _concatenated(*parts: BatchSpans) -> BatchSpans:
    """Spans of several parts in order of sentence (of one part, in its order)."""
    sentence, start, end, type_id = (np.concatenate(column) for column in zip(*parts))
    order = np.argsort(sentence, kind="stable")
    return sentence[order], start[order], end[order], type_id[order]


def sentence_without_choice(
    references: list[tuple[str, str]], predictions: list[tuple[str, str]], text: str, keep: Callable[[str], bool] | None
) -> _Grounded | None:
    """One sentence of strings against strings grounded when there is nothing to choose: the references as
    `ground_references` grounds them, every predicted text with one type and no more occurrences than
    predictions (`every_position`, as `grounding._every_occurrence`). None when there is a choice to make, or an
    error to locate: the general way then does it."""
    try:  # the strings are searched for as given: `text` is already normalised where the strings are
        grounded_r = ground_references(references, Haystack(text), False, 0)
    except InvalidInputError:
        return None
    spans_r = [
        (span.start, span.end, span.entity_type) for span in grounded_r if keep is None or keep(span.entity_type)
    ]
    find = text.find
    wanted: dict[str, list] = {}
    for entity_type, needle in predictions:
        if keep is not None and not keep(entity_type):
            continue
        entry = wanted.get(needle)
        if entry is None:
            wanted[needle] = [entity_type, 1]
        elif entry[0] != entity_type:
            return None
        else:
            entry[1] += 1
    spans_p: list[SpanTriple] = []
    left: list[tuple[str, str]] = []
    for needle, (entity_type, number) in wanted.items():
        places = every_position(find, needle, number)
        if places is None:
            return None
        length = len(needle)
        spans_p.extend((found, found + length, entity_type) for found in places)
        if len(places) < number:
            left.extend([(entity_type, needle)] * (number - len(places)))
    spans_p.sort()  # in order of position, as the array path pairs them at its best
    return spans_r, spans_p, left
