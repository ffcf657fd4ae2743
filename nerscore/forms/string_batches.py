"""Batches of string entities grounded (docs/scoring.md §1b), for the span path that scores them.

`grounding` says where one sentence's strings go; this module grounds a whole batch: `ground_batch` sentence by
sentence (with the strings each span was given as, for the `entities` rows), and `string_spans`, what
`compute.count_strings` scores, which grounds the sentences that have one best grounding for the whole batch at
once on arrays (`_batch_without_choice`) and hands the span path columns (`SpanValues`), the others one by
one. Ungrounded predictions are placed after their sentence's text, where they overlap nothing (`StringSpans`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain, compress, repeat
from operator import itemgetter
from typing import Any

import numpy as np

from ..decoding import kept_types
from ..errors import InvalidInputError, shown
from ..option_checks import EVALUATION_SCHEMES
from ..options import Options
from ..result_scores import entity_rows
from ..span import Span
from ..table.columns import Columns
from ..tally import OUTCOMES, Row
from .grounding import Haystack, every_position, ground_predictions, ground_references, needle_of
from .inputs import STRINGS, StringColumns, read_span_side, read_string_columns, read_strings, side_forms
from .span_arrays import SpanValues


@dataclass(frozen=True)
class GroundedBatch:
    """A batch of string entities grounded (§1b): each side's spans per sentence (what the span path scores),
    the ungrounded predictions per sentence as (type, text as given), and the text each grounded entity was
    given with (per sentence and side, span -> the strings of the entities grounded there, in listing order)."""

    references: list[list[Span]]
    predictions: list[list[Span]]
    ungrounded: list[list[tuple[str, str]]]
    given_texts: tuple[list[dict[Span, list[str]]], list[dict[Span, list[str]]]]  # references', predictions'


def ground_batch(
    predictions: list[list],
    references: list[list],
    options: Options,
    texts: Sequence[str] | None,
    with_names: bool = True,
) -> GroundedBatch:
    """Both sides of a batch that holds string entities, grounded (§1b). Reference strings are grounded over all
    listed references, then `labels` drops other types on both sides, then the predictions are grounded."""
    reference_form, predicted_form = side_forms(predictions, references)
    if texts is None:
        side = "references" if reference_form == STRINGS else "predictions"
        raise InvalidInputError(
            "found string entities (no offsets) and no texts; expected texts=, one string per sentence (document), "
            "in which each string is found",
            side,
        )
    strings_r = read_strings(references, "references") if reference_form == STRINGS else None
    strings_p = read_strings(predictions, "predictions") if predicted_form == STRINGS else None
    spans_given_r = read_span_side(references, "references", texts) if strings_r is None else None
    spans_given_p = read_span_side(predictions, "predictions", texts) if strings_p is None else None
    keep = kept_types(options.labels)
    normalize = options.normalize
    grounded_r, grounded_p, ungrounded = [], [], []
    given_r: list[dict[Span, list[str]]] = []
    given_p: list[dict[Span, list[str]]] = []
    for sentence, text in enumerate(texts):
        haystack = Haystack.of(text, normalize)
        names_r: dict[Span, list[str]] = {}
        if strings_r is not None:
            spans_r = ground_references(strings_r[sentence], haystack, normalize, sentence)
            if with_names:
                for span, (_, given) in zip(spans_r, strings_r[sentence]):
                    names_r.setdefault(span, []).append(given)
        else:
            assert spans_given_r is not None
            spans_r = list(spans_given_r[sentence])
        if keep is not None:
            spans_r = [span for span in spans_r if keep(span.entity_type)]
        names_p: dict[Span, list[str]] = {}
        left: list[tuple[str, str]] = []
        if strings_p is not None:
            if normalize:  # a string that normalises to nothing, located in the list as given (before labels)
                for index, (_, given) in enumerate(strings_p[sentence]):
                    if not needle_of(given, True):
                        raise InvalidInputError(
                            f"found {shown(given)}, empty once normalised; expected text",
                            "predictions",
                            sentence,
                            entity=index,
                        )
            listed = [entity for entity in strings_p[sentence] if keep is None or keep(entity[0])]
            try:
                places = ground_predictions(listed, haystack, normalize, spans_r, options.min_overlap)
            except InvalidInputError as error:
                raise error.at("predictions", sentence) from None
            spans_p = []
            for place, entity in zip(places, listed):
                if place is None:
                    left.append(entity)
                else:
                    spans_p.append(place)
                    if with_names:
                        names_p.setdefault(place, []).append(entity[1])
        else:
            assert spans_given_p is not None
            spans_p = [span for span in spans_given_p[sentence] if keep is None or keep(span.entity_type)]
        grounded_r.append(spans_r)
        grounded_p.append(spans_p)
        ungrounded.append(left)
        given_r.append(names_r)
        given_p.append(names_p)
    return GroundedBatch(grounded_r, grounded_p, ungrounded, (given_r, given_p))


@dataclass(frozen=True)
class StringSpans:
    """A batch that holds string entities grounded for the span path (§1b): each side's spans, every ungrounded
    prediction placed after its sentence's text (in `columns`' texts, which hold the text, then each such
    prediction's string as given after a line break), where it overlaps nothing and so is the spurious prediction
    §1b counts it as, by every option of the span path (value, diagnostics, errors by its text); `texts` the
    texts as given, `ungrounded` each sentence's ungrounded predictions (type, string) and `grounded` the
    `GroundedBatch` with the given strings (with `return_entities` only). The sides are lists of (start, end,
    type) per sentence for the readable path (`return_entities`, `errors`), else `SpanValues`, the columns the
    array path reads, so that no entity is built twice."""

    predictions: list[list[_Triple]] | SpanValues
    references: list[list[_Triple]] | SpanValues
    columns: Columns
    texts: Sequence[str]
    ungrounded: list[Sequence[tuple[str, str]]]
    grounded: GroundedBatch | None


def string_spans(predictions: list[list], references: list[list], options: Options, columns: Columns) -> StringSpans:
    """A batch that holds string entities grounded (§1b), as `StringSpans`. The strings are character offsets in
    `texts`, so `tokens`, if given, name none of them: the span path gets the texts alone."""
    texts = columns.texts
    grounded = None
    placed_p: list[list[_Triple]] | SpanValues
    placed_r: list[list[_Triple]] | SpanValues
    if not options.return_entities and not options.errors and texts is not None:
        values_p, placed_r, ungrounded = ground_tuples(predictions, references, options, texts)
        placed_p = _with_placed(values_p, _placed(ungrounded, texts))
    else:
        grounded = ground_batch(predictions, references, options, texts, with_names=options.return_entities)
        ungrounded = list(grounded.ungrounded)
        placed_r = [[(span.start, span.end, span.entity_type) for span in side] for side in grounded.references]
        placed_p = [[(span.start, span.end, span.entity_type) for span in side] for side in grounded.predictions]
        assert texts is not None  # ground_batch refuses strings without texts
        for sentence, spans in _placed(ungrounded, texts).items():
            placed_p[sentence] = [*placed_p[sentence], *spans]
        if not options.return_entities:
            grounded = None
    assert texts is not None
    placed_texts = list(texts)
    for sentence in compress(range(len(ungrounded)), ungrounded):
        placed_texts[sentence] = "\n".join([texts[sentence], *(given for _, given in ungrounded[sentence])])
    span_columns = Columns(texts=tuple(placed_texts), groups=columns.groups, documents=columns.documents)
    return StringSpans(placed_p, placed_r, span_columns, texts, ungrounded, grounded)


def _placed(ungrounded: Sequence[Sequence[tuple[str, str]]], texts: Sequence[str]) -> dict[int, list[_Triple]]:
    """The ungrounded predictions as spans after their sentence's text, one line each (`StringSpans`), by
    sentence, for the sentences that have some."""
    placed: dict[int, list[_Triple]] = {}
    for sentence in compress(range(len(ungrounded)), ungrounded):
        spans = placed[sentence] = []
        position = len(texts[sentence])
        for entity_type, given in ungrounded[sentence]:
            position += 1  # the line break: no two placed predictions touch, nor the text
            spans.append((position, position + len(given), entity_type))
            position += len(given)
    return placed


def _with_placed(values: SpanValues, placed: dict[int, list[_Triple]]) -> SpanValues:
    """`values` with the spans of `placed` (by sentence) added to their sentences."""
    names = {name: number for number, name in enumerate(values.type_names)}
    sentence = np.repeat(np.arange(len(values.counts)), values.counts)
    given = (sentence, values.start, values.end, values.type_id)
    return _joined(len(values), [given, _from_triples(placed, names)], names)


_Triple = tuple[int, int, str]
# Each entity's sentence, start, end and type id; the ids index a dict of type names shared by the parts joined.
_Flat = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _from_triples(sentences: dict[int, list[_Triple]], names: dict[str, int]) -> _Flat:
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


def _joined(size: int, parts: list[_Flat], names: dict[str, int]) -> SpanValues:
    """The entities of `parts` as the `SpanValues` of `size` sentences, each sentence's in the order of the parts,
    with the names of the types they hold."""
    parts = [part for part in parts if len(part[0])] or parts[:1]
    sentence, start, end, type_id = _concatenated(*parts) if len(parts) > 1 else parts[0]
    held = np.bincount(type_id, minlength=len(names)) > 0
    renumbered = np.cumsum(held) - 1
    type_names = [name for name, is_held in zip(names, held.tolist()) if is_held]
    return SpanValues(start, end, renumbered[type_id], type_names, np.bincount(sentence, minlength=size))


def ground_tuples(
    predictions: list[list], references: list[list], options: Options, texts: Sequence[str]
) -> tuple[SpanValues, SpanValues, list[Sequence[tuple[str, str]]]]:
    """`ground_batch`'s spans as `SpanValues`, for the array path of spans, and the ungrounded predictions. The
    sentences with nothing to choose are grounded by `_batch_without_choice`, for the whole batch at C speed; the
    others (`_without_choice`'s, then `ground_batch`'s) one at a time."""
    reference_form, predicted_form = side_forms(predictions, references)
    columns_r = read_string_columns(references, "references") if reference_form == STRINGS else None
    columns_p = read_string_columns(predictions, "predictions") if predicted_form == STRINGS else None
    strings_r = None if columns_r is None else columns_r.sentences
    strings_p = None if columns_p is None else columns_p.sentences
    if strings_r is None:
        read_span_side(references, "references", texts)  # checked, located
    if strings_p is None:
        read_span_side(predictions, "predictions", texts)
    keep = kept_types(options.labels)
    size = len(texts)
    names: dict[str, int] = {}
    if columns_r is not None and columns_p is not None:
        separate, batch_r, batch_p, left, names = _batch_without_choice(
            columns_r, columns_p, texts, keep, options.normalize
        )
    else:
        separate, left = np.ones(size, dtype=bool), [[] for _ in range(size)]
        batch_r = batch_p = _from_triples({}, names)
    separate_r: dict[int, list[_Triple]] = {}
    separate_p: dict[int, list[_Triple]] = {}
    for sentence in np.flatnonzero(separate).tolist():
        text = texts[sentence]
        grounded = None
        if strings_r is not None and strings_p is not None:
            if not options.normalize:
                grounded = _without_choice(strings_r[sentence], strings_p[sentence], text, keep)
            else:
                haystack = Haystack.of(text, True)
                if haystack.first is None:  # positions unchanged by normalising: strings normalised the same way
                    listed_r = [(kind, needle_of(given, True)) for kind, given in strings_r[sentence]]
                    listed_p = [(kind, needle_of(given, True)) for kind, given in strings_p[sentence]]
                    if all(needle for _, needle in listed_r) and all(needle for _, needle in listed_p):
                        grounded = _without_choice(listed_r, listed_p, haystack.text, keep)
                        if grounded is not None and grounded[2]:
                            # Its ungrounded come back normalised, where an entity's text (slices by `seen` and
                            # `entity_length`) is its string as given (docs/scoring.md §11): the general way.
                            grounded = None
        if grounded is None:
            try:
                one = ground_batch([predictions[sentence]], [references[sentence]], options, [text], with_names=False)
            except InvalidInputError as error:
                raise error.at(sentence=sentence) from None
            grounded = (
                [(span.start, span.end, span.entity_type) for span in one.references[0]],
                [(span.start, span.end, span.entity_type) for span in one.predictions[0]],
                one.ungrounded[0],
            )
        separate_r[sentence], separate_p[sentence], left[sentence] = grounded
    parts_p, parts_r = [batch_p, _from_triples(separate_p, names)], [batch_r, _from_triples(separate_r, names)]
    return _joined(size, parts_p, names), _joined(size, parts_r, names), left


_Grounded = tuple[list[_Triple], list[_Triple], list[tuple[str, str]]]  # references, predictions, ungrounded


def _batch_without_choice(
    strings_r: StringColumns,
    strings_p: StringColumns,
    texts: Sequence[str],
    keep: Callable[[str], bool] | None,
    normalize: bool,
) -> tuple[np.ndarray, _Flat, _Flat, list[Sequence[tuple[str, str]]], dict[str, int]]:
    """The sentences with one best grounding, grounded for the whole batch on arrays: each side's strings are
    searched by one `map` of `str.find`, so that such a sentence costs no Python loop of its own. Gives which
    sentences are left (`_without_choice` or `ground_batch` grounds them one by one, and locates any error), the spans
    of the others on each side, references first, their ungrounded predictions, and the type names the spans'
    ids index.

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
        lowered = _lowered(texts)
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
    origin = np.concatenate(([0], np.cumsum(np.fromiter(map(len, searched), dtype=np.int64, count=size))))
    sides = []
    for strings in (strings_r, strings_p):
        counts = np.fromiter(map(len, strings.sentences), dtype=np.int64, count=size)
        sentence = np.repeat(np.arange(size), counts)
        types, given = strings.types, strings.texts
        needles = given
        if normalize:
            lowered = _lowered(given, stripped=True)
            if lowered is not None:
                needles = lowered
            else:
                normalized: dict[str, str] = {}
                needles = [normalized.get(text) or normalized.setdefault(text, needle_of(text, True)) for text in given]
        within = list(chain.from_iterable(map(repeat, searched, counts.tolist())))
        first = np.fromiter(map(str.find, within, needles), dtype=np.int64, count=len(types))
        length = np.fromiter(map(len, needles), dtype=np.int64, count=len(types))
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
    new_key = np.ones(len(by_key), dtype=bool)
    new_key[1:] = (np.diff(key_place[by_key]) != 0) | (np.diff(key_length[by_key]) != 0)
    new_key[1:] |= np.diff(key_type[by_key]) != 0
    key = np.cumsum(new_key) - 1  # of each entry in by_key's order
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
    ) -> _Flat:
        return sentence[index], start[index], start[index] + extent[index], kind[index]

    batch_r = np.flatnonzero(~separate[sentence_r] & kept_r)
    # Predictions at twins: each twin key's earliest twins, as many as it has predictions (by_key lists a key's
    # twins by their place of listing, which is their order of position).
    rank = np.arange(len(by_key)) - np.flatnonzero(new_key)[key]
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


def _lowered(strings: Sequence[str], stripped: bool = False) -> list[str] | None:
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


def _concatenated(*parts: _Flat) -> _Flat:
    """Spans of several parts in order of sentence (of one part, in its order)."""
    sentence, start, end, type_id = (np.concatenate(column) for column in zip(*parts))
    order = np.argsort(sentence, kind="stable")
    return sentence[order], start[order], end[order], type_id[order]


def _without_choice(
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
    spans_p: list[_Triple] = []
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


def entity_dicts(
    rows: list[Row],
    grounded: GroundedBatch,
    texts: Sequence[str],
    schemes: Sequence[str] = EVALUATION_SCHEMES,
    partners: Sequence[Span | None] | None = None,
) -> list[dict[str, Any]]:
    """The `entities` rows (docs/scoring.md §7) of a grounded batch: each entity with its `text`, and after each
    sentence's rows its ungrounded predictions (start and end None), in listing order. Rows of predictions placed
    after the text (`StringSpans`) are those ungrounded ones and are left out; `partners`, one per row, the value
    pairing's (docs/scoring.md §10), adds each row's `value_pair` (None for an ungrounded prediction)."""
    given = tuple(
        [{span: deque(names) for span, names in sentence.items()} for sentence in side] for side in grounded.given_texts
    )
    sentence_rows: dict[int, list[dict[str, Any]]] = {}
    for number, (row, (sentence, reference, prediction)) in enumerate(zip(entity_rows(rows, schemes), rows)):
        if reference is None and prediction is not None and prediction.start >= len(texts[sentence]):
            continue  # an ungrounded prediction, listed below as given
        if partners is not None:
            partner = partners[number]
            row["value_pair"] = None if partner is None else partner.as_dict()
        for key, span, side in (("reference", reference, 0), ("prediction", prediction, 1)):
            if span is not None:
                names = given[side][sentence].get(span)
                row[key]["text"] = names.popleft() if names else texts[sentence][span.start : span.end]
        sentence_rows.setdefault(sentence, []).append(row)
    spurious = OUTCOMES["II"]
    for sentence, left in enumerate(grounded.ungrounded):
        for entity_type, text in left:
            sentence_rows.setdefault(sentence, []).append(
                {
                    "sentence": sentence,
                    "reference": None,
                    "prediction": {"start": None, "end": None, "type": entity_type, "text": text},
                    "scenario": "II",
                    **{scheme: spurious[scheme] for scheme in schemes},
                    **({} if partners is None else {"value_pair": None}),
                }
            )
    return [row for sentence in sorted(sentence_rows) for row in sentence_rows[sentence]]
