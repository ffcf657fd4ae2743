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

from .columns import NO_COLUMNS, Columns
from .component_arrays import nested_rows
from .counts import Cell, Counted, Diagnostics, Row, Tally, weighted_width
from .inputs import TYPE_KEYS
from .options import OVERLAP, Options
from .pairing import SCENARIOS, scenario_of
from .readable import findings, overlapped_twice, pair_sentences, scenarios_by_sentence, weighed
from .slices import RowArrays, SentenceFacts
from .span import Span
from .tag_arrays import (
    Findings,
    FlatSpans,
    Rows,
    cells_of,
    chunk_findings,
    count_errors,
    pair_flat,
    weighted_rows,
)

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


@dataclass(frozen=True)
class SpanValues:
    """One side of a batch of spans in columns: `start`, `end` and `type_id` (indexing `type_names`, each of
    which some entity has) per entity, in order of sentence, and `counts`, each sentence's number of entities.
    What `_span_values` reads from lists of entities, and what the grounding of string entities (docs/scoring.md
    §1b) makes directly, never building the entities as objects; valid by construction (0 <= start < end)."""

    start: np.ndarray
    end: np.ndarray
    type_id: np.ndarray
    type_names: list[str]
    counts: np.ndarray

    def __len__(self) -> int:
        return len(self.counts)

    def renumbered(self, type_ids: dict[str, int]) -> np.ndarray:
        """Each entity's id in `type_ids` (which names every type of `type_names`)."""
        return np.array([type_ids[name] for name in self.type_names], dtype=np.int64)[self.type_id]


def count_spans(
    predictions: list[list] | SpanValues,
    references: list[list] | SpanValues,
    options: Options,
    by_sentence: bool = False,
    columns: Columns = NO_COLUMNS,
    rows: bool = False,
) -> Counted | None:
    """`readable.pair_spans`'s `Tally`, computed on arrays chunk by chunk of sentences, and with `by_sentence`
    each sentence's scenario counts too (`readable.scenarios_by_sentence`); None for anything the readable path
    must check or explain (a bad entity, a mix of forms, a type key out of the usual order, an offset int64 does
    not hold). With `diagnostics` and `errors`, the tally holds them too (the texts of `errors` from
    `columns`). With `rows`, the rows as `RowArrays` too (slices, docs/scoring.md §11), positions the spans'
    own."""
    read_r, read_p = _span_values(references), _span_values(predictions)
    if read_r is None or read_p is None:
        return None
    # Type ids in the order of the type names, so that the tie-break of docs/scoring.md §3 (d), which compares
    # types, reads the same on ids as on names.
    type_names = sorted(set(read_r.type_names).union(read_p.type_names))
    type_ids = {name: index for index, name in enumerate(type_names)}
    columns_r, columns_p = (
        _SpanColumns(read.start, read.end, read.renumbered(type_ids), read.counts) for read in (read_r, read_p)
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
    weighted = Tally()
    weighted_counts = [np.zeros((0, weighted_width(options)))]
    diagnostics = Diagnostics() if options.diagnostics else None
    errors: Counter | None = Counter() if options.errors else None
    asked = options if options.diagnostics or options.errors else None
    row_parts: list[RowArrays] = []
    for first, last in pairwise(bounds):
        if first == last:
            continue
        chunk_r = _chunk(columns_r, offsets_r, first, last)
        chunk_p = _chunk(columns_p, offsets_p, first, last)
        chunk_cells, counts, found, chunk_rows = _chunk_cells(
            chunk_r, chunk_p, type_names, options.min_overlap, by_sentence, asked, rows
        )
        cells.update(chunk_cells)
        if chunk_rows is not None:
            row_parts.append(chunk_rows.renumbered(chunk_rows.sentence + first))
        if counts is not None:
            sentence_counts.append(counts)
        if found is not None and diagnostics is not None and found.diagnostics is not None:
            diagnostics += found.diagnostics
        if found is not None and errors is not None and found.errors is not None:
            errors.update(count_errors(found.errors, first, type_names, columns))
        if weighted_width(options):
            part, part_counts = _weighted_chunk(chunk_r, chunk_p, type_names, options, by_sentence)
            weighted += part
            if part_counts is not None:
                weighted_counts.append(part_counts)
    tally = Tally(
        dict(cells),
        None,
        credit=weighted.credit,
        value_cells=weighted.value_cells,
        diagnostics=diagnostics,
        errors=None if errors is None else dict(errors),
    )
    by_sentence_counts = np.concatenate(sentence_counts) if by_sentence else None
    counted_rows = None
    if rows:
        counted_rows = (RowArrays.joined(row_parts, type_names), SentenceFacts(len(references)))
    if not weighted_width(options):
        return Counted(tally, by_sentence_counts, rows=counted_rows)
    weighted_by_sentence = np.concatenate(weighted_counts) if by_sentence else None
    return Counted(tally, by_sentence_counts, rows=counted_rows, weighted=weighted_by_sentence)


def _weighted_chunk(
    references: _SpanColumns, predictions: _SpanColumns, type_names: list[str], options: Options, by_sentence: bool
) -> tuple[Tally, np.ndarray | None]:
    """What docs/scoring.md §10 adds for one chunk of span input (the overlap credit, the value cells) and with
    `by_sentence` each sentence's weighted columns: the sentences of disjoint entities on arrays, as the tag
    path does them (`tag_arrays.weighted_rows`, after the translation `_chunk_cells` makes), the nested ones
    and the chunks of too large positions by the readable path."""
    moved = _moved(references, predictions)
    if moved is None:
        return _readable_weighted(references, predictions, type_names, options)
    shift, _, nested, (flat_r, sentence_r), (flat_p, sentence_p) = moved
    flat_r, flat_p = flat_r.select(~nested[sentence_r]), flat_p.select(~nested[sentence_p])
    groups = pair_flat(flat_r, flat_p, options.min_overlap) if options.partial_credit == OVERLAP else []
    rows = weighted_rows(flat_r, flat_p, groups, shift, options, type_names, by_sentence)
    names = [*type_names]
    credit = None
    if rows.credit is not None:
        credit = {(names[r], names[p]): share for (r, p), share in rows.credit.items()}
    value_cells = None
    if rows.value_cells is not None:
        value_cells = _value_cell_dict(rows.value_cells, names)
    part = Tally({}, None, credit=credit, value_cells=value_cells)
    counts = rows.by_sentence
    if nested.any():
        nested_part, nested_counts = _readable_weighted(
            _sentences(references, nested), _sentences(predictions, nested), type_names, options
        )
        part += nested_part
        if counts is not None and nested_counts is not None:
            counts[nested] = nested_counts
    return part, counts if by_sentence else None


def _value_cell_dict(cells: Rows, names: list[str]) -> dict[Cell, int]:
    """Distinct value cells (`tag_arrays._counted_cells`' columns) as a dict of named cells."""
    kinds, reference_types, predicted_types, numbers = (column.tolist() for column in cells)
    named: list[str | None] = [*names, None]
    return {
        (SCENARIOS[kind], named[r], named[p]): number
        for kind, r, p, number in zip(kinds, reference_types, predicted_types, numbers)
    }


def _span_lists(columns: _SpanColumns, type_names: list[str]) -> list[list[Span]]:
    """One side's columns as each sentence's list of `Span`s, for the readable path."""
    values = zip(columns.start.tolist(), columns.end.tolist(), columns.type_id.tolist())
    spans = [Span(start, end, type_names[type_id]) for start, end, type_id in values]
    bounds = np.concatenate(([0], np.cumsum(columns.counts))).tolist()
    return [spans[a:b] for a, b in pairwise(bounds)]


def _readable_weighted(
    references: _SpanColumns, predictions: _SpanColumns, type_names: list[str], options: Options
) -> tuple[Tally, np.ndarray]:
    """`_weighted_chunk` sentence by sentence by the readable path (`readable.weighed`)."""
    sides = [_span_lists(columns, type_names) for columns in (references, predictions)]
    tally, rows = pair_sentences(sides[0], sides[1], options.min_overlap)
    weighted, counts = weighed(tally, rows, len(references.counts), options)
    assert counts is not None  # weighted_width(options) > 0
    return Tally({}, None, credit=weighted.credit, value_cells=weighted.value_cells), counts


def _span_values(batch: list[list] | SpanValues) -> SpanValues | None:
    """One side's `SpanValues`; None if any entity is not a plain, valid dict or tuple (the readable path then
    explains or reads it). Each column is read in one pass of `operator.itemgetter` mapped over the entities, at
    C speed."""
    if isinstance(batch, SpanValues):
        return batch
    counts = np.fromiter(map(len, batch), dtype=np.int64, count=len(batch))
    entities = list(chain.from_iterable(batch))
    if not entities:
        return SpanValues(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), [], counts)
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
    local = {name: index for index, name in enumerate(dict.fromkeys(types))}
    type_id = np.fromiter(map(local.__getitem__, types), dtype=np.int64, count=len(types))
    return SpanValues(start, end, type_id, list(local), counts)


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
    findings: Options | None = None,
    rows: bool = False,
) -> tuple[dict[Cell, int], np.ndarray | None, Findings | None, RowArrays | None]:
    """The cells of one chunk of sentences of span input, with `by_sentence` each sentence's scenario counts
    (sentences x 6), with `findings` (the options, when they ask for diagnostics or errors) its `Findings`, and
    with `rows` its rows (chunk-local sentences, the spans' own positions)."""
    size = len(references.counts)
    moved = _moved(references, predictions)
    if moved is None:
        cells, counts, readable_rows = _readable_span_chunk(references, predictions, type_names, min_overlap)
        found = None
        if findings is not None:
            found = _readable_findings(readable_rows, np.arange(size), type_names, findings, overlaps=True)
        row_arrays = RowArrays.of_rows(readable_rows, type_names) if rows else None
        return cells, counts if by_sentence else None, found, row_arrays
    shift, move, nested, (flat_r, sentence_r), (flat_p, sentence_p) = moved
    with_positions = findings is not None or rows
    groups = pair_flat(
        flat_r.select(~nested[sentence_r]), flat_p.select(~nested[sentence_p]), min_overlap, with_positions
    )

    def locate(at: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # A position's sentence, and the translation that moved it there (positions are given back as they came).
        holding = np.searchsorted(shift, at, side="right") - 1
        return holding, move[holding]

    if not by_sentence and not rows:
        if nested.any():
            groups.append(_nested_rows(flat_r, flat_p, sentence_r, sentence_p, nested, min_overlap, with_positions))
        found = None if findings is None else chunk_findings(groups, flat_r, flat_p, findings, locate)
        return cells_of(groups, type_names), None, found, None
    # A row's sentence is the one whose positions hold its first position (sentences without entities take no
    # room, so the last sentence starting at or before it is the one).
    kinds, positions = (np.concatenate([group[column] for group in groups]) for column in (0, 3))
    sentence = np.searchsorted(shift, positions, side="right") - 1
    counts = np.bincount(sentence * len(SCENARIOS) + kinds, minlength=size * len(SCENARIOS))
    counts = counts.reshape(size, len(SCENARIOS))
    cells = Counter(cells_of(groups, type_names))
    found = None if findings is None else chunk_findings(groups, flat_r, flat_p, findings, locate)
    row_arrays = None
    if rows:
        # pair_flat's positions (columns 5 to 8) moved back into their sentence, -1 kept for no entity.
        position_columns = [
            np.concatenate([np.asarray(group[column], dtype=np.int64) for group in groups]) for column in range(9)
        ]
        moved_by = move[sentence]
        ends = [np.where(column >= 0, column - moved_by, -1) for column in position_columns[5:]]
        row_arrays = RowArrays.of_columns([sentence, *position_columns[:3], *ends])
    if nested.any():
        # The nested sentences, which `pair` takes one by one, by the readable path, which tells each row's sentence.
        nested_cells, nested_counts, nested_rows_list = _readable_span_chunk(
            _sentences(references, nested), _sentences(predictions, nested), type_names, min_overlap
        )
        cells.update(nested_cells)
        counts[nested] = nested_counts
        if found is not None and findings is not None:
            # Their overlaps are counted with the rest (`chunk_findings`); their pairs' boundaries and errors here.
            found = found + _readable_findings(
                nested_rows_list, np.flatnonzero(nested), type_names, findings, overlaps=False
            )
        if row_arrays is not None:
            nested_part = RowArrays.of_rows(nested_rows_list, type_names)
            nested_part = nested_part.renumbered(np.flatnonzero(nested)[nested_part.sentence])
            row_arrays = RowArrays.joined([row_arrays, nested_part], type_names)
    return dict(cells), counts if by_sentence else None, found, row_arrays


def _moved(
    references: _SpanColumns, predictions: _SpanColumns
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[FlatSpans, np.ndarray], tuple[FlatSpans, np.ndarray]] | None:
    """The entities of a chunk with each sentence moved to positions of its own: the sentences' first positions
    (`shift`), how far each sentence moved (`move`), which sentences are nested, and each side's spans in
    (start, end) order with their sentences; None where the positions would not stay below `_POSITION_LIMIT`
    (the readable path then counts the chunk)."""
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
        return None
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
    return shift, move, nested, sides[0], sides[1]


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
    positions: bool = False,
) -> Rows:
    """The rows of the nested sentences (`component_arrays.nested_rows`)."""
    keep_r, keep_p = nested[sentence_r], nested[sentence_p]
    return nested_rows(
        references.select(keep_r),
        predictions.select(keep_p),
        sentence_r[keep_r],
        sentence_p[keep_p],
        min_overlap,
        positions,
    )


def _readable_span_chunk(
    references: _SpanColumns, predictions: _SpanColumns, type_names: list[str], min_overlap: float | None
) -> tuple[dict[Cell, int], np.ndarray, list[Row]]:
    """The cells, each sentence's scenario counts and the rows of a chunk, sentence by sentence by the readable
    path: for positions too large for the arrays, and each nested sentence's counts."""
    sides = [_span_lists(columns, type_names) for columns in (references, predictions)]
    tally, rows = pair_sentences(sides[0], sides[1], min_overlap)
    return dict(tally.cells), scenarios_by_sentence(rows, len(references.counts)), rows


def _readable_findings(
    rows: list[Row], sentences: np.ndarray, type_names: list[str], options: Options, overlaps: bool
) -> Findings:
    """The `Findings` of rows of the readable path (`_readable_span_chunk`), whose sentence k is the chunk's
    `sentences[k]`: the boundaries of their pairs, their errors, and with `overlaps` their `split` and `merged`
    (`readable.overlapped_twice`, sentence by sentence)."""
    type_ids: dict[str | None, int] = {name: index for index, name in enumerate(type_names)}
    type_ids[None] = -1
    diagnostics = None
    if options.diagnostics:
        found = findings([], [], rows, options.evolve(errors=False))[0]
        assert found is not None
        if overlaps:
            by_sentence: dict[int, tuple[list[Span], list[Span]]] = {}
            for sentence, reference, prediction in rows:
                sides = by_sentence.setdefault(sentence, ([], []))
                for side, entity in zip(sides, (reference, prediction)):
                    if entity is not None:
                        side.append(entity)
            counted = [overlapped_twice(r, p, options.min_overlap) for r, p in by_sentence.values()]
            found += Diagnostics(0, 0, 0, sum(split for split, _ in counted), sum(merged for _, merged in counted))
        diagnostics = found
    errors = None
    if options.errors:
        wrong = [
            (
                SCENARIOS.index(scenario_of(r, p)),
                type_ids[None if r is None else r.entity_type],
                type_ids[None if p is None else p.entity_type],
                int(sentences[sentence]),
                *((-1, -1) if r is None else (r.start, r.end)),
                *((-1, -1) if p is None else (p.start, p.end)),
            )
            for sentence, r, p in rows
            if scenario_of(r, p) != "I"
        ]
        errors = tuple(np.array(column, dtype=np.int64) for column in zip(*wrong)) if wrong else _NO_ERRORS
    return Findings(diagnostics, errors)


_NO_ERRORS: Rows = tuple(np.zeros(0, np.int64) for _ in range(8))
