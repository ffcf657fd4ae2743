"""The array path for spans: the readable path's table of pairs of span input, made on whole chunks of sentences.

Every entity of a chunk of sentences becomes a row of parallel arrays, and each sentence is moved to positions of
its own (its first start right after the previous sentence's last end), so that `pair_flat`, the tag path's
pairing, pairs in one go every sentence whose entities are disjoint on both sides, and
`component_arrays.nested_rows` the sentences with nested, overlapping or repeated entities. Reading the three
keys of every dict is the one step that touches every entity, so it stays in C (`operator.itemgetter` mapped
over them). Dicts with `fragments` (docs/scoring.md §12) are read by `fragment_reading`; the sentences that hold a
discontinuous entity are paired by `fragment_arrays`, the others here. What the result reports is reduced from the
table by `nerscore.table.reducers`, as for every path.
tests/test_span_arrays.py proves the table equal to the readable path's, at any offset int64 holds."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import chain, pairwise, repeat
from typing import cast

import numpy as np

from ..errors import InvalidInputError
from ..grouping import group_bounds, lengths, owners
from ..options import Options
from ..span import Span
from ..table import reducers
from ..table.columns import NO_COLUMNS, Columns
from ..table.pairs import FlatSpans, Pairs, SentenceFacts
from ..table.reducers import Reduction
from ..tally import Counted
from .component_arrays import nested_rows, sentences_apart
from .fragment_arrays import fragment_pairs
from .fragment_reading import STORED_SPANS, FragmentValues, fragment_columns, item_bounds, shared_types, type_column
from .readable import pair_sentences, span_rows
from .tag_arrays import chunk_bounds, joined_rows, pair_flat

# Sentences are scored in chunks of about this many entities (both sides), as tags are in chunks of tokens.
_CHUNK_ENTITIES = 1 << 15
# Sides with fragments are read in blocks of sentences of about this many entities (`_side_values`).
_BLOCK_ENTITIES = 1 << 12
# Positions of a chunk stay below this, so that `pair_flat`'s start * width + end fits in 64 bits: a chunk
# whose sentences span more (each from its first start to its last end, added up) goes the readable way, which
# holds any offset exactly.
_POSITION_LIMIT = 1 << 31


@dataclass(frozen=True)
class SpanValues:
    """One side of a batch of spans in columns: `start`, `end` and `type_id` (indexing `type_names`; as read, each
    name some entity's) per entity, in order of sentence, and `counts`, each sentence's number of entities.
    What `span_values` reads from lists of entities, and what the grounding of string entities (docs/scoring.md
    §1b) makes directly, never building the entities as objects; valid by construction (0 <= start < end)."""

    start: np.ndarray
    end: np.ndarray
    type_id: np.ndarray
    type_names: list[str]
    counts: np.ndarray

    def __len__(self) -> int:
        return len(self.counts)


def count_spans(
    predictions: list[list] | SpanValues,
    references: list[list] | SpanValues,
    options: Options,
    keep_sentences: bool = False,
    columns: Columns = NO_COLUMNS,
    rows: bool = False,
) -> Counted | None:
    """The readable path's count (`readable.tally_semeval`) from the table the arrays make (`span_pairs`), reduced
    by the same reducers (`nerscore.table.reducers`): the tally, with `keep_sentences` each sentence's counts, with
    `rows` the table too (slices, docs/scoring.md §11), positions the spans' own; None for anything the readable path
    must check or explain (a bad entity, a mix of forms, a type key out of the usual order)."""
    pairs = span_pairs(predictions, references, options, rows or _reads_extents(options))
    if pairs is None:
        return None
    slice_input = (pairs, SentenceFacts(len(references))) if rows else None
    return reducers.counted(Reduction(pairs, options, columns), None, keep_sentences, slice_input)


def _reads_extents(options: Options) -> bool:
    """Whether a reducer `options` ask for reads the table's extents (`reducers.REDUCERS`' columns): then it reads a
    discontinuous entity's fragments too (docs/scoring.md §12). The tally alone reads scenarios and types."""
    extents = {"reference_start", "reference_end", "predicted_start", "predicted_end"}
    return any(reducer.wanted(options) and extents.intersection(reducer.reads) for reducer in reducers.REDUCERS)


def span_pairs(
    predictions: list[list] | SpanValues,
    references: list[list] | SpanValues,
    options: Options,
    fragments: bool = True,
) -> Pairs | None:
    """The table of pairs of a batch of spans, paired on arrays chunk by chunk of sentences; None for anything
    the readable path must check or explain. Without `fragments`, a batch with discontinuous entities gives its
    table without their fragments, for reducers that read no extent (`_reads_extents`): their tuples are most of
    the cost of its table (docs/scoring.md §12)."""
    read_r, read_p = _side_values(references), _side_values(predictions)
    if read_r is None or read_p is None:
        return _with_discontinuous(predictions, references, options)
    if isinstance(read_r, FragmentValues) or isinstance(read_p, FragmentValues):
        # Discontinuous entities (docs/scoring.md §12): their sentences as fragments, the others as spans.
        sides = [_as_fragments(read) for read in (read_r, read_p)]
        sentence_r, sentence_p = (owners(side.counts) for side in sides)
        held = np.zeros(len(sides[0].counts), dtype=bool)
        held[sentence_r[sides[0].pieces > 1]] = True
        held[sentence_p[sides[1].pieces > 1]] = True
        table = fragment_pairs(_sentences(sides[1], held), _sentences(sides[0], held), options, fragments)
        if table is None:
            return _with_discontinuous(predictions, references, options)
        if held.all():
            return table
        spans_p, spans_r = (_as_spans(_sentences(side, ~held)) for side in (sides[1], sides[0]))
        plain = span_pairs(spans_p, spans_r, options)
        assert plain is not None  # valid spans at offsets int64 holds
        return _parts_joined(plain, table, len(held))
    type_names, ids, listed = shared_types(
        [(read.type_names, read.type_id) for read in (read_r, read_p)], options.labels
    )
    columns_r, columns_p = (
        SpanValues(read.start, read.end, type_id, type_names, read.counts)
        for read, type_id in zip((read_r, read_p), ids)
    )
    if listed is not None:
        columns_r, columns_p = (_keep_types(columns, listed[columns.type_id]) for columns in (columns_r, columns_p))

    offsets_r = group_bounds(columns_r.counts)
    offsets_p = group_bounds(columns_p.counts)
    parts: list[Pairs] = []
    for first, last in pairwise(chunk_bounds(offsets_r + offsets_p, _CHUNK_ENTITIES)):
        if first == last:
            continue
        chunk_r = _chunk(columns_r, offsets_r, first, last)
        chunk_p = _chunk(columns_p, offsets_p, first, last)
        chunk_pairs = _chunk_pairs(chunk_r, chunk_p, options.min_overlap, options.pairing)
        parts.append(chunk_pairs.renumbered(chunk_pairs.sentence + first))
    return Pairs.joined(parts, type_names, len(references))


def _discontinuous(entity: object) -> bool:
    """Whether an entity of span input is given with fragments (docs/scoring.md §12)."""
    if type(entity) is dict or isinstance(entity, Mapping):
        return entity.get("fragments") is not None
    return isinstance(entity, Span) and bool(entity.fragments)


def _with_discontinuous(
    predictions: list[list] | SpanValues, references: list[list] | SpanValues, options: Options
) -> Pairs | None:
    """The table of a batch in which some sentences hold entities given with fragments (docs/scoring.md §12): those
    sentences by the readable path (`readable.span_rows`), the others on arrays (with the first ones empty, so
    that sentence numbers stay the batch's); None where no sentence or every sentence holds fragments, or where
    either part holds what its path does not read (the readable path then reads the whole batch and names what
    is wrong). For the batches the arrays cannot read as a whole (dicts mixed with tuples, `Span` objects, offsets
    past what `fragment_arrays` holds, `pairing="hipe"`)."""
    if isinstance(predictions, SpanValues) or isinstance(references, SpanValues):
        return None
    held = [
        any(map(_discontinuous, predicted)) or any(map(_discontinuous, reference))
        for predicted, reference in zip(predictions, references)
    ]
    if not any(held) or all(held):
        return None
    # One shared empty sentence: no new list per sentence, which would wake the garbage collector over the input.
    empty: list = cast(list, ())
    plain_p = [empty if hold else sentence for sentence, hold in zip(predictions, held)]
    plain_r = [empty if hold else sentence for sentence, hold in zip(references, held)]
    table = span_pairs(plain_p, plain_r, options)
    if table is None:
        return None
    indices = [index for index, hold in enumerate(held) if hold]
    try:
        rows = span_rows([predictions[k] for k in indices], [references[k] for k in indices], options)
    except InvalidInputError:
        return None
    part = Pairs.of_rows([(indices[sentence], r, p) for sentence, r, p in rows], sentences=len(references))
    return _parts_joined(table, part, len(references))


def _parts_joined(first: Pairs, second: Pairs, sentences: int) -> Pairs:
    """The tables of two parts of a batch (each with the type names of its own sentences, some sentences held out
    of each) as the batch's, its type names theirs in order."""
    names = sorted({*first.type_names, *second.type_names})
    return Pairs.joined([first.renamed(names), second.renamed(names)], names, sentences)


def _span_lists(columns: SpanValues) -> list[list[Span]]:
    """One side's columns as each sentence's list of `Span`s, for the readable path."""
    values = zip(columns.start.tolist(), columns.end.tolist(), columns.type_id.tolist())
    spans = [Span(start, end, columns.type_names[type_id]) for start, end, type_id in values]
    bounds = group_bounds(columns.counts).tolist()
    return [spans[a:b] for a, b in pairwise(bounds)]


def entity_ends(batch: list[list]) -> tuple[np.ndarray, np.ndarray] | None:
    """Each entity's end (a discontinuous entity's extent's, docs/scoring.md §12), in order of sentence, and each
    sentence's number of entities, read as `count_spans` reads them (before `labels` leave any out); None where
    it cannot read them. For a batch already counted, hence valid: the ends alone are read where every entity
    gives one (a pass of `itemgetter`, not the whole reading again, which cost `labels` with `texts` half as
    much again as the count itself)."""
    counts = lengths(batch)
    entities = list(chain.from_iterable(batch))
    kinds = set(map(type, entities))
    try:
        if kinds == {dict}:
            ends = list(map(operator.itemgetter("end"), entities))
        elif kinds <= {tuple, list} and set(map(len, entities)) == {3}:
            ends = list(map(operator.itemgetter(1), entities))
        else:
            ends = None
    except KeyError:  # fragments without their extent beside them
        ends = None
    if ends is not None and not set(map(type, ends)) - {int}:
        try:
            return np.array(ends, dtype=np.int64), counts
        except OverflowError:
            return None
    read = _side_values(batch)
    if read is None:
        return None
    if isinstance(read, FragmentValues):
        return read.end[np.cumsum(read.pieces) - 1], read.counts
    return read.end, read.counts


def span_values(batch: list[list] | SpanValues) -> SpanValues | None:
    """One side's `SpanValues`; None if any entity is not a plain, valid dict or tuple, or is discontinuous (the
    readable path then explains or reads it)."""
    read = _side_values(batch)
    return read if isinstance(read, SpanValues) else None


def _side_values(batch: list[list] | SpanValues) -> SpanValues | FragmentValues | None:
    """One side's `SpanValues`, or `FragmentValues` where a dict gives an entity of several fragments
    (docs/scoring.md §12); None if any entity is not a plain, valid dict or tuple (the readable path then explains
    or reads it). Where its first entity is a dict with `fragments`, read in blocks of sentences of about
    `_BLOCK_ENTITIES` entities (`_block_values`), joined, as long as the first block read fragments: every pass
    over a block's dicts and nested lists then finds them in the cache (one-fragment dicts read 1.5x as fast at
    100,000 entities, 2-3 fragments 1.7x; benchmarks/README.md). Spans gain nothing (their dicts lie close
    together) and are read at once."""
    if isinstance(batch, SpanValues):
        return batch
    counts = lengths(batch)
    first_entity = next(chain.from_iterable(batch), None)
    if type(first_entity) is not dict or "fragments" not in first_entity:
        return _block_values(batch, counts, set())
    bounds = chunk_bounds(group_bounds(counts), _BLOCK_ENTITIES)
    parts: list[SpanValues | FragmentValues] = []
    kinds: set[type] = set()
    for first, last in pairwise(bounds):
        if parts and FragmentValues not in kinds:  # no fragments read in the first block: the rest at once
            last = len(batch)
        read = _block_values(batch[first:last], counts[first:last], kinds)
        if read is None:
            return None
        parts.append(read)
        if last == len(batch):
            break
    if len(parts) == 1:
        return parts[0]
    kinds.discard(FragmentValues)
    if len(kinds) > 1 and not kinds <= {tuple, list}:  # dicts in one block, tuples in another: as in one block
        return None
    return _joined(parts)


def _joined(parts: list[SpanValues | FragmentValues]) -> SpanValues | FragmentValues:
    """Blocks of one side read apart (`_block_values`) as one: what reading the side at once would give (types
    numbered in order of first appearance)."""
    names = list(dict.fromkeys(chain.from_iterable(part.type_names for part in parts)))
    index = {name: number for number, name in enumerate(names)}
    type_id = np.concatenate(
        [np.array([index[name] for name in part.type_names], dtype=np.int64)[part.type_id] for part in parts]
    )
    start, end, counts = (np.concatenate([getattr(part, key) for part in parts]) for key in ("start", "end", "counts"))
    if all(isinstance(part, SpanValues) for part in parts):
        return SpanValues(start, end, type_id, names, counts)
    pieces = np.concatenate([_as_fragments(part).pieces for part in parts])
    return FragmentValues(start, end, pieces, type_id, names, counts)


def _block_values(batch: list[list], counts: np.ndarray, kinds: set[type]) -> SpanValues | FragmentValues | None:
    """`_side_values` of a block of sentences (`counts` entities each), the types of its entities added to
    `kinds` (and `FragmentValues` where their fragments were read). Each column is read in one pass of
    `operator.itemgetter` mapped over the entities, at C speed; fragments by `fragment_reading.fragment_columns`."""
    entities = list(chain.from_iterable(batch))
    if not entities:
        return SpanValues(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), [], counts)
    kind = set(map(type, entities))
    kinds |= kind
    if kind == {dict}:
        types = type_column(entities)
        numbered = None if types is None else _numbered(types)
        if numbered is None:
            return None
        given = any(map(operator.contains, entities, repeat("fragments")))
        read = fragment_columns(entities) if given else None
        if given and read is None:
            return None
        if read is not None and read is not STORED_SPANS:
            kinds.add(FragmentValues)
            start, end, pieces = read
            if pieces is None or len(pieces) == len(start):  # one fragment each: spans
                return SpanValues(start, end, *numbered, counts)
            return FragmentValues(start, end, pieces, *numbered, counts)
        try:
            bounds = item_bounds(entities, ("start", "end"))
        except KeyError:
            return None
    elif kind <= {tuple, list} and set(map(len, entities)) == {3}:
        # One pass per column: zip(*entities) would pass every entity as an argument, far slower.
        numbered = _numbered(list(map(operator.itemgetter(2), entities)))
        if numbered is None:
            return None
        bounds = item_bounds(entities, (0, 1))
    else:
        return None
    return None if bounds is None else SpanValues(*bounds, *numbered, counts)


def _numbered(types: list) -> tuple[np.ndarray, list[str]] | None:
    """Each entity's type as its index among the types in order of first appearance, and those types; None
    unless every type is a non-empty string."""
    if set(map(type, types)) != {str} or "" in types:
        return None
    local = {name: index for index, name in enumerate(dict.fromkeys(types))}
    return np.fromiter(map(local.__getitem__, types), dtype=np.int64, count=len(types)), list(local)


def _sentences(read: FragmentValues, keep: np.ndarray) -> FragmentValues:
    """The entities of the sentences `keep` holds; the others' left out (still counted, with no entity)."""
    if keep.all():
        return read
    entities = np.repeat(keep, read.counts)
    pieces = np.repeat(entities, read.pieces)
    counts = np.where(keep, read.counts, 0)
    return FragmentValues(
        read.start[pieces], read.end[pieces], read.pieces[entities], read.type_id[entities], read.type_names, counts
    )


def _as_spans(read: FragmentValues) -> SpanValues:
    """Entities of one fragment each as spans."""
    return SpanValues(read.start, read.end, read.type_id, read.type_names, read.counts)


def _as_fragments(read: SpanValues | FragmentValues) -> FragmentValues:
    """One side as fragments: a span is one."""
    if isinstance(read, FragmentValues):
        return read
    pieces = np.ones(len(read.start), dtype=np.int64)
    return FragmentValues(read.start, read.end, pieces, read.type_id, read.type_names, read.counts)


def _keep_types(columns: SpanValues, keep: np.ndarray) -> SpanValues:
    sentence = owners(columns.counts)
    counts = np.bincount(sentence[keep], minlength=len(columns.counts))
    return SpanValues(columns.start[keep], columns.end[keep], columns.type_id[keep], columns.type_names, counts)


def _chunk(columns: SpanValues, offsets: np.ndarray, first: int, last: int) -> SpanValues:
    """Sentences first to last (excluded) of one side."""
    rows = slice(offsets[first], offsets[last])
    return SpanValues(
        columns.start[rows], columns.end[rows], columns.type_id[rows], columns.type_names, columns.counts[first:last]
    )


def _chunk_pairs(
    references: SpanValues, predictions: SpanValues, min_overlap: float | None, pairing: str = "optimal"
) -> Pairs:
    """The table of one chunk of sentences of span input (chunk-local sentences, the spans' own positions): the
    sentences of disjoint entities by `pair_flat`, the nested ones by `component_arrays.nested_rows`, all at
    positions of their own; a chunk whose positions are too large, or any chunk with `pairing="hipe"`
    (docs/scoring.md §3a), sentence by sentence by `readable.pair_sentences`."""
    size, type_names = len(references.counts), references.type_names  # (both sides' names)
    moved = None if pairing != "optimal" else _moved(references, predictions)
    if moved is None:
        sides = [_span_lists(columns) for columns in (references, predictions)]
        return Pairs.of_rows(pair_sentences(sides[0], sides[1], min_overlap, pairing), type_names, size)
    shift, move, nested, (flat_r, sentence_r), (flat_p, sentence_p) = moved
    groups = pair_flat(flat_r.select(~nested[sentence_r]), flat_p.select(~nested[sentence_p]), min_overlap)
    if nested.any():
        keep_r, keep_p = nested[sentence_r], nested[sentence_p]
        groups.append(
            nested_rows(
                flat_r.select(keep_r), flat_p.select(keep_p), sentence_r[keep_r], sentence_p[keep_p], min_overlap, True
            )
        )
    (kinds, r_types, p_types, *extents), first_position = joined_rows(groups)
    # A row's sentence is the one whose positions hold its first position (sentences without entities take no
    # room, so the last sentence starting at or before it is the one); its positions are moved back.
    sentence = np.searchsorted(shift, first_position, side="right") - 1
    moved_by = move[sentence]
    extents = [np.where(column >= 0, column - moved_by, -1) for column in extents]
    return Pairs.of_columns([sentence, kinds, r_types, p_types, *extents], type_names, size)


def _moved(
    references: SpanValues, predictions: SpanValues
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[FlatSpans, np.ndarray], tuple[FlatSpans, np.ndarray]] | None:
    """The entities of a chunk with each sentence moved to positions of its own: the sentences' first positions
    (`shift`), how far each sentence moved (`move`), which sentences are nested, and each side's spans in
    (start, end) order with their sentences; None where the positions would not stay below `_POSITION_LIMIT`
    (the readable path then counts the chunk)."""
    size = len(references.counts)
    sentence_r, sentence_p = owners(references.counts), owners(predictions.counts)
    apart = sentences_apart(
        size,
        [(sentence_r, references.start, references.end), (sentence_p, predictions.start, predictions.end)],
        _POSITION_LIMIT,
    )
    if apart is None:
        return None
    shift, move = apart
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
