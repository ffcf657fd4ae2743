"""The array path for spans: the readable path's `Tally` of span input, computed on whole chunks of documents.

Every entity of a chunk of sentences becomes a row of parallel arrays, and each sentence is moved to positions of
its own (its first start right after the previous sentence's last end), so that `pair_flat`, the tag path's
pairing, pairs in one go
every sentence whose entities are disjoint on both sides; the sentences with nested, overlapping or repeated
entities go through `pair` one by one. Reading the three keys of every dict is the one step that touches every
entity, so it stays in C (`operator.itemgetter` mapped over them). With `by_sentence` it also counts each
sentence's scenarios, as the tag path does, for the statistics. tests/test_fast_path.py proves it equal to the
readable path, at any offset int64 holds."""

from __future__ import annotations

import operator
from collections import Counter
from dataclasses import dataclass
from itertools import chain, pairwise, repeat

import numpy as np

from .component_arrays import nested_rows
from .counts import Cell, Counted, Tally
from .inputs import TYPE_KEYS
from .options import Options
from .pairing import SCENARIOS
from .readable import pair_sentences, scenarios_by_sentence
from .slices import RowArrays, SentenceFacts
from .span import Span
from .tag_arrays import FlatSpans, Rows, cells_of, pair_flat

# Sentences are scored in chunks of about this many entities (both sides), as tags are in chunks of tokens.
_CHUNK_ENTITIES = 1 << 15
# Positions of a chunk stay below this, so that `pair_flat`'s start * width + end fits in 64 bits: a chunk
# whose sentences span more (each from its first start to its last end, added up) goes the readable way, which
# holds any offset exactly.
_POSITION_LIMIT = 1 << 31


@dataclass(frozen=True)
class _SpanColumns:
    """The entities of one side of a batch, in order: `start`, `end` and `type_id` per entity (`type_id`
    indexing the sorted type names), and `counts`, the number of entities of each sentence."""

    start: np.ndarray
    end: np.ndarray
    type_id: np.ndarray
    counts: np.ndarray


def count_spans(
    predictions: list[list], references: list[list], options: Options, by_sentence: bool = False, rows: bool = False
) -> Counted | None:
    """`readable.pair_spans`'s `Tally`, computed on arrays chunk by chunk of sentences, and with `by_sentence`
    each sentence's scenario counts too (`readable.scenarios_by_sentence`); None for anything the readable path
    must check or explain (a bad entity, a mix of forms, a type key out of the usual order, an offset int64 does
    not hold). With `rows`, the rows as `RowArrays` too (slices, docs/scoring.md §11), positions the spans' own."""
    read_r, read_p = _span_values(references), _span_values(predictions)
    if read_r is None or read_p is None:
        return None
    # Type ids in the order of the type names, so that the tie-break of docs/scoring.md §3 (d), which compares
    # types, reads the same on ids as on names.
    type_names = sorted(set(read_r[2]).union(read_p[2]))
    type_ids = {name: index for index, name in enumerate(type_names)}
    columns_r, columns_p = (
        _SpanColumns(start, end, np.fromiter(map(type_ids.__getitem__, types), np.int64, len(types)), counts)
        for start, end, types, counts in (read_r, read_p)
    )
    if options.labels is not None:
        wanted = np.array([type_ids[label] for label in options.labels if label in type_ids], dtype=np.int64)
        columns_r, columns_p = (_keep_types(columns, wanted) for columns in (columns_r, columns_p))

    offsets_r = np.concatenate(([0], np.cumsum(columns_r.counts)))
    offsets_p = np.concatenate(([0], np.cumsum(columns_p.counts)))
    entities = offsets_r + offsets_p
    cuts = np.searchsorted(entities[1:], np.arange(_CHUNK_ENTITIES, entities[-1], _CHUNK_ENTITIES)) + 1
    bounds = [0, *np.unique(cuts).tolist(), len(references)]
    cells: Counter = Counter()
    sentence_counts = [np.zeros((0, len(SCENARIOS)), dtype=np.int64)]
    row_parts: list[RowArrays] = []
    for first, last in pairwise(bounds):
        if first == last:
            continue
        chunk_r = _chunk(columns_r, offsets_r, first, last)
        chunk_p = _chunk(columns_p, offsets_p, first, last)
        chunk_cells, counts, chunk_rows = _chunk_cells(
            chunk_r, chunk_p, type_names, options.min_overlap, by_sentence, rows
        )
        cells.update(chunk_cells)
        if counts is not None:
            sentence_counts.append(counts)
        if chunk_rows is not None:
            row_parts.append(chunk_rows.renumbered(chunk_rows.sentence + first))
    counted_rows = None
    if rows:
        counted_rows = (RowArrays.joined(row_parts, type_names), SentenceFacts(len(references)))
    by_sentences = np.concatenate(sentence_counts) if by_sentence else None
    return Counted(Tally(dict(cells)), by_sentences, counted_rows)


def _span_values(batch: list[list]) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray] | None:
    """The start and end arrays, the type names and each sentence's number of entities of one side; None if
    any entity is not a plain, valid dict or tuple (the readable path then explains or reads it). Each column
    is read in one pass of `operator.itemgetter` mapped over the entities, at C speed."""
    counts = np.fromiter(map(len, batch), dtype=np.int64, count=len(batch))
    entities = list(chain.from_iterable(batch))
    if not entities:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), [], counts
    kinds = set(map(type, entities))
    if kinds == {dict}:
        columns = _dict_columns(entities)
    elif kinds <= {tuple, list} and set(map(len, entities)) == {3}:
        # One pass per column: zip(*entities) would pass every entity as an argument, far slower.
        columns = [list(map(operator.itemgetter(index), entities)) for index in range(3)]
    else:
        return None
    if columns is None:
        return None
    starts, ends, types = columns
    if not {*map(type, starts), *map(type, ends)} <= {int} or set(map(type, types)) != {str} or "" in types:
        return None
    try:
        start = np.array(starts, dtype=np.int64)
        end = np.array(ends, dtype=np.int64)
    except OverflowError:
        return None
    if not (start >= 0).all() or not (start < end).all():
        return None
    return start, end, list(types), counts


def _dict_columns(entities: list[dict]) -> list[list] | None:
    """The start, end and type columns of entity dicts, the type from the first of TYPE_KEYS that every dict
    has; None if some dict lacks it, or has an earlier one (`as_span` takes the first present)."""
    for position, key in enumerate(TYPE_KEYS):
        try:
            types = list(map(operator.itemgetter(key), entities))
        except KeyError:
            continue
        for earlier in TYPE_KEYS[:position]:
            if any(map(operator.contains, entities, repeat(earlier))):
                return None
        try:
            return [
                list(map(operator.itemgetter("start"), entities)),
                list(map(operator.itemgetter("end"), entities)),
                types,
            ]
        except KeyError:
            return None
    return None


def _keep_types(columns: _SpanColumns, wanted: np.ndarray) -> _SpanColumns:
    keep = np.isin(columns.type_id, wanted)
    sentence = np.repeat(np.arange(len(columns.counts)), columns.counts)
    counts = np.bincount(sentence[keep], minlength=len(columns.counts))
    return _SpanColumns(columns.start[keep], columns.end[keep], columns.type_id[keep], counts)


def _chunk(columns: _SpanColumns, offsets: np.ndarray, first: int, last: int) -> _SpanColumns:
    """Sentences first to last (excluded) of one side."""
    rows = slice(offsets[first], offsets[last])
    return _SpanColumns(columns.start[rows], columns.end[rows], columns.type_id[rows], columns.counts[first:last])


def _chunk_cells(
    references: _SpanColumns,
    predictions: _SpanColumns,
    type_names: list[str],
    min_overlap: float | None,
    by_sentence: bool = False,
    rows: bool = False,
) -> tuple[dict[Cell, int], np.ndarray | None, RowArrays | None]:
    """The cells of one chunk of sentences of span input, with `by_sentence` each sentence's scenario counts
    (sentences x 6), and with `rows` its rows (chunk-local sentences, the spans' own positions)."""
    size = len(references.counts)
    sentence_r = np.repeat(np.arange(size), references.counts)
    sentence_p = np.repeat(np.arange(size), predictions.counts)
    # Each sentence moves to positions of its own: translated by its first start to right after the end of the
    # sentence before. Pairing depends only on differences of offsets within a sentence (overlaps and lengths,
    # docs/scoring.md §3), so a translation changes nothing, and positions stay small whatever the offsets: a
    # sentence at 2**62 needs only its own extent, never 2**62 of room.
    low = np.full(size, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(low, sentence_r, references.start)
    np.minimum.at(low, sentence_p, predictions.start)
    high = np.zeros(size, dtype=np.int64)
    np.maximum.at(high, sentence_r, references.end)
    np.maximum.at(high, sentence_p, predictions.end)
    low = np.minimum(low, high)  # a sentence without entities takes no room
    extent = high - low  # 0 <= low <= high < 2**63: never wraps
    # Checked before adding up, so that the sum, below size * _POSITION_LIMIT, cannot wrap either.
    shift = None if extent.max(initial=0) >= _POSITION_LIMIT else np.concatenate(([0], np.cumsum(extent)))
    if shift is None or shift[-1] >= _POSITION_LIMIT:
        cells, counts, readable_rows = _readable_span_chunk(references, predictions, type_names, min_overlap)
        return cells, counts if by_sentence else None, readable_rows if rows else None
    move = shift[:-1] - low
    nested = np.zeros(size, dtype=bool)
    sides = []
    for columns, sentence in ((references, sentence_r), (predictions, sentence_p)):
        start, end = columns.start + move[sentence], columns.end + move[sentence]
        order = np.lexsort((end, start))
        start, end, sentence = start[order], end[order], sentence[order]
        # A sentence is nested where an entity starts before an earlier one (in start order) of its side ends.
        overlapping = start[1:] < np.maximum.accumulate(end)[:-1]
        nested[sentence[1:][overlapping]] = True
        sides.append((FlatSpans(start, end, columns.type_id[order]), sentence))
    (flat_r, sentence_r), (flat_p, sentence_p) = sides
    groups = pair_flat(
        flat_r.select(~nested[sentence_r]), flat_p.select(~nested[sentence_p]), min_overlap, extents=rows
    )
    if not by_sentence and not rows:
        if nested.any():
            groups.append(_nested_rows(flat_r, flat_p, sentence_r, sentence_p, nested, min_overlap))
        return cells_of(groups, type_names), None, None
    # A row's sentence is the one whose positions hold its first position (sentences without entities take no
    # room, so the last sentence starting at or before it is the one).
    kinds, positions = (np.concatenate([group[column] for group in groups]) for column in (0, 3))
    sentence = np.searchsorted(shift, positions, side="right") - 1
    counts = np.bincount(sentence * len(SCENARIOS) + kinds, minlength=size * len(SCENARIOS))
    counts = counts.reshape(size, len(SCENARIOS))
    cells = Counter(cells_of(groups, type_names))
    row_arrays = None
    if rows:
        extent_columns = [
            np.concatenate([np.asarray(group[column], dtype=np.int64) for group in groups]) for column in range(8)
        ]
        moved = move[sentence]
        ends = [np.where(column >= 0, column - moved, -1) for column in extent_columns[4:]]
        row_arrays = RowArrays.of_columns([sentence, *extent_columns[:3], *ends])
    if nested.any():
        # The nested sentences, which `pair` takes one by one, by the readable path, which tells each row's sentence.
        nested_cells, nested_counts, nested_rows_arrays = _readable_span_chunk(
            _sentences(references, nested), _sentences(predictions, nested), type_names, min_overlap
        )
        cells.update(nested_cells)
        counts[nested] = nested_counts
        if row_arrays is not None:
            renumbered = np.flatnonzero(nested)[nested_rows_arrays.sentence]
            nested_part = nested_rows_arrays.renumbered(renumbered)
            row_arrays = RowArrays.joined([row_arrays, nested_part], type_names)
    return dict(cells), counts if by_sentence else None, row_arrays


def _sentences(columns: _SpanColumns, keep: np.ndarray) -> _SpanColumns:
    """The sentences of one side of a chunk where `keep` is True."""
    rows = np.repeat(keep, columns.counts)
    return _SpanColumns(columns.start[rows], columns.end[rows], columns.type_id[rows], columns.counts[keep])


def _nested_rows(
    references: FlatSpans,
    predictions: FlatSpans,
    sentence_r: np.ndarray,
    sentence_p: np.ndarray,
    nested: np.ndarray,
    min_overlap: float | None,
) -> Rows:
    """The rows of the nested sentences (`component_arrays.nested_rows`)."""
    keep_r, keep_p = nested[sentence_r], nested[sentence_p]
    return nested_rows(
        references.select(keep_r), predictions.select(keep_p), sentence_r[keep_r], sentence_p[keep_p], min_overlap
    )


def _readable_span_chunk(
    references: _SpanColumns, predictions: _SpanColumns, type_names: list[str], min_overlap: float | None
) -> tuple[dict[Cell, int], np.ndarray, RowArrays]:
    """The cells and each sentence's scenario counts of a chunk, sentence by sentence by the readable path: for
    positions too large for the arrays, and each nested sentence's counts."""
    sides = []
    for columns in (references, predictions):
        values = zip(columns.start.tolist(), columns.end.tolist(), columns.type_id.tolist())
        spans = [Span(start, end, type_names[type_id]) for start, end, type_id in values]
        bounds = np.concatenate(([0], np.cumsum(columns.counts))).tolist()
        sides.append([spans[a:b] for a, b in pairwise(bounds)])
    tally, rows = pair_sentences(sides[0], sides[1], min_overlap)
    counts = scenarios_by_sentence(rows, len(references.counts))
    return dict(tally.cells), counts, RowArrays.of_rows(rows, type_names)
