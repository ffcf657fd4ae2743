"""The array path for tags and ids: the readable path's `Tally`, computed on whole chunks of sentences at once.

Why: the readable path takes a few Python steps per tag; a batch of 20,000 sentences of 20 tokens is 400,000 of
them. This path turns every tag into a small integer code in one C-level pass, then decodes and pairs whole
chunks of sentences with a handful of numpy operations, and sends only entities in a forked overlap chain (one
entity overlapping two) through the exact `pair_overlapping`.

What proves it equal: tests/test_fast_path.py compares its `Tally` with the readable path's on random tag soup in
every scheme, mode and tag style, with ids, documents and chunk sizes down to one token. On any input it cannot
read (a bad tag, an unknown id), it returns None and the readable path raises the error.
"""

from __future__ import annotations

import numbers
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, count, islice, pairwise, repeat
from typing import Any, NamedTuple

import numpy as np

from .columns import NO_COLUMNS, Columns, entity_text, join_tokens
from .counts import (
    Cell,
    Counted,
    Diagnostics,
    Tally,
    TokenCounts,
    sentence_sums,
    value_cell_columns,
    weighted_width,
)
from .errors import InvalidInputError
from .inputs import Batch, lengths
from .options import OVERLAP, Options
from .pairing import SCENARIOS, pair_overlapping, scenario_of
from .schemes import BEGIN, END, INSIDE, LENIENT, SINGLE, Scheme, TagTable
from .slices import RowArrays, SentenceFacts
from .span import Span
from .value import WeightTable, value_pair

# A role as bit flags, so that one array lookup per token answers all three questions decoding asks.
_ENTITY, _OPENS, _CLOSES = 1, 2, 4
_ROLE_FLAGS = {None: 0, INSIDE: _ENTITY, BEGIN: _ENTITY | _OPENS, END: _ENTITY | _CLOSES}
_ROLE_FLAGS[SINGLE] = _ENTITY | _OPENS | _CLOSES

# Sentences are scored in chunks of about this many tokens: the arrays of a chunk stay in the processor's
# cache, so time grows linearly with the batch and memory does not grow with it at all. Tallies add.
_CHUNK_TOKENS = 1 << 16
_I, _II, _III, _IV, _V, _VI = range(len(SCENARIOS))


def count_tags(
    predictions: Batch,
    references: Batch,
    holds_ids: bool,
    options: Options,
    by_sentence: bool,
    columns: Columns = NO_COLUMNS,
    rows: bool = False,
) -> Counted | None:
    """The readable path's `Tally` (`nerscore.readable.pair_tags`), computed on arrays chunk by chunk of
    sentences, and with `by_sentence` each sentence's scenario counts too (`readable.scenarios_by_sentence`);
    with `rows`, the rows as `RowArrays` and each sentence's `SentenceFacts` (for slices, docs/scoring.md §11);
    None if the input is invalid, so that the readable path raises its precise error. With `diagnostics` and
    `errors`, the tally holds them too (the texts of `errors` from `columns`)."""
    offsets = np.concatenate(([0], np.cumsum(lengths(references))))
    # A chunk ends with the sentence that crosses each multiple of _CHUNK_TOKENS.
    cuts = np.searchsorted(offsets[1:], np.arange(_CHUNK_TOKENS, offsets[-1], _CHUNK_TOKENS)) + 1
    bounds = [0, *np.unique(cuts).tolist(), len(references)]
    table = TagTable(options.scheme, options.suffix)
    labels = options.label_list
    codes = _CodeBook(table, list(labels.values()) if holds_ids and labels is not None else None)
    cells: list[Rows] = []
    tokens = TokenCounts()
    sentence_counts = [np.zeros((0, len(SCENARIOS)), dtype=np.int64)]
    weighted: list[Weighted] = []
    diagnostics = Diagnostics() if options.diagnostics else None
    errors: Counter | None = Counter() if options.errors else None
    row_parts: list[RowArrays] = []
    lengths_parts: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    equal_parts: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    for first, last in pairwise(bounds):
        if first == last:
            continue
        chunk = (predictions[first:last], references[first:last], offsets[first : last + 1] - offsets[first])
        counted = _chunk_cells(*chunk, holds_ids, options, codes, by_sentence, rows)
        if counted is None:
            return None
        cells.append(counted[0])
        if counted[1] is not None:
            sentence_counts.append(counted[1])
        tokens += counted[2]
        if counted[3] is not None:
            weighted.append(counted[3])
        found = counted[4]
        if found is not None and diagnostics is not None and found.diagnostics is not None:
            diagnostics += found.diagnostics
        if found is not None and errors is not None and found.errors is not None:
            errors.update(count_errors(found.errors, first, list(codes.type_names), columns))
        if counted[5] is not None:
            chunk_rows, chunk_lengths, chunk_equal = counted[5]
            row_parts.append(chunk_rows.renumbered(chunk_rows.sentence + first))
            lengths_parts.append(chunk_lengths)
            equal_parts.append(chunk_equal)
    # The chunks' cells added as arrays, and one dict made of them at the end: a dict per chunk, added to the
    # last, would cost a Python step per cell and chunk (thousands of cells with thousands of types).
    tally = _cell_dict(cells, list(codes.type_names))
    counted_rows = None
    if rows:
        facts = SentenceFacts(len(references), np.concatenate(lengths_parts), np.concatenate(equal_parts))
        counted_rows = (RowArrays.joined(row_parts, list(codes.type_names)), facts)
    if not weighted_width(options):
        return Counted(
            Tally(tally.cells, tokens, diagnostics=diagnostics, errors=None if errors is None else dict(errors)),
            np.concatenate(sentence_counts) if by_sentence else None,
            rows=counted_rows,
        )
    names = list(codes.type_names)
    credit: dict[tuple[str, str], Fraction] | None = None
    value_cells = None
    if options.partial_credit == OVERLAP:
        credit = {}
        for part in weighted:
            for (r_type, p_type), share in (part.credit or {}).items():
                credit[names[r_type], names[p_type]] = credit.get((names[r_type], names[p_type]), Fraction(0)) + share
    if options.value is not None:
        value_cells = _cell_dict([part.value_cells for part in weighted if part.value_cells is not None], names).cells
    extra = None
    if by_sentence:
        extra = np.concatenate(
            [
                np.zeros((0, weighted_width(options))),
                *(part.by_sentence for part in weighted if part.by_sentence is not None),
            ]
        )
    return Counted(
        Tally(
            tally.cells,
            tokens,
            credit=credit,
            value_cells=value_cells,
            diagnostics=diagnostics,
            errors=None if errors is None else dict(errors),
        ),
        np.concatenate(sentence_counts) if by_sentence else None,
        rows=counted_rows,
        weighted=extra,
    )


@dataclass(frozen=True)
class Findings:
    """What one chunk adds with `diagnostics` and `errors` (docs/scoring.md §11): its diagnostics, and its
    error rows as (scenario index, reference type id, predicted type id, sentence of the chunk, reference start,
    reference end, prediction start, prediction end) columns, positions counted in the sentence, -1 on an
    unpaired side (`count_errors` names them)."""

    diagnostics: Diagnostics | None
    errors: Rows | None

    def __add__(self, other: Findings) -> Findings:
        diagnostics = None
        if self.diagnostics is not None or other.diagnostics is not None:
            diagnostics = (self.diagnostics or Diagnostics()) + (other.diagnostics or Diagnostics())
        errors = None
        if self.errors is not None or other.errors is not None:
            parts = [part for part in (self.errors, other.errors) if part is not None]
            errors = tuple(np.concatenate([part[column] for part in parts]) for column in range(8))
        return Findings(diagnostics, errors)


def chunk_findings(
    groups: Sequence[Rows],
    references: FlatSpans,
    predictions: FlatSpans,
    options: Options,
    locate: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
) -> Findings:
    """The `Findings` of rows that carry their positions (`pair_flat(..., positions=True)`) and of the entities
    they pair; `locate` gives the sentence of each position and the position where that sentence starts."""
    kinds, reference_types, predicted_types, _, _, start_r, end_r, start_p, end_p = (
        np.concatenate([np.zeros(0, np.int64), *(np.asarray(group[column], np.int64) for group in groups)])
        for column in range(9)
    )
    diagnostics = None
    if options.diagnostics:
        pairs = (kinds == _V) | (kinds == _VI)
        r0, r1, p0, p1 = start_r[pairs], end_r[pairs], start_p[pairs], end_p[pairs]
        too_long = (p0 <= r0) & (r1 <= p1)
        too_short = ~too_long & (r0 <= p0) & (p1 <= r1)
        split, merged = overlapped_twice(
            references.start, references.end, predictions.start, predictions.end, options.min_overlap
        )
        diagnostics = Diagnostics(
            int(np.count_nonzero(too_long)),
            int(np.count_nonzero(too_short)),
            int(len(r0) - np.count_nonzero(too_long) - np.count_nonzero(too_short)),
            split,
            merged,
        )
    errors = None
    if options.errors:
        wrong = kinds != _I
        kinds, reference_types, predicted_types = kinds[wrong], reference_types[wrong], predicted_types[wrong]
        start_r, end_r, start_p, end_p = start_r[wrong], end_r[wrong], start_p[wrong], end_p[wrong]
        sentence, origin = locate(np.where(start_r >= 0, start_r, start_p))
        bounds = [np.where(side >= 0, side - origin, -1) for side in (start_r, end_r, start_p, end_p)]
        errors = (kinds, reference_types, predicted_types, sentence, *bounds)
    return Findings(diagnostics, errors)


def count_errors(rows: Rows, first_sentence: int, type_names: Sequence[str], columns: Columns) -> Counter:
    """The error rows of a chunk (`Findings.errors`, its sentences counted from `first_sentence` of the batch) by
    (scenario, reference text, reference type, predicted text, predicted type): the `errors` statistic."""
    names: list[str | None] = [*type_names, None]  # type id -1, no entity, is the last name
    text = _text_of(columns)
    counted: Counter = Counter()
    for kind, r_type, p_type, sentence, r0, r1, p0, p1 in zip(*(np.asarray(column).tolist() for column in rows)):
        sentence += first_sentence
        counted[
            (
                SCENARIOS[kind],
                text(sentence, r0, r1) if r0 >= 0 else None,
                names[r_type],
                text(sentence, p0, p1) if p0 >= 0 else None,
                names[p_type],
            )
        ] += 1
    return counted


def _text_of(columns: Columns) -> Callable[[int, int, int], str | None]:
    """`columns.entity_text` for `columns`: with tokens, a one-token entity (most of them) is its token as it
    is, which is what joining one token gives, without the slice and the join."""
    tokens = columns.tokens
    if tokens is None:
        return lambda sentence, start, end: entity_text(columns, sentence, start, end)

    def text(sentence: int, start: int, end: int) -> str | None:
        words = tokens[sentence]
        if end - start == 1 and start < len(words):
            return words[start]
        return join_tokens(words[start:end])

    return text


def overlapped_twice(
    start_r: np.ndarray, end_r: np.ndarray, start_p: np.ndarray, end_p: np.ndarray, min_overlap: float | None
) -> tuple[int, int]:
    """`readable.overlapped_twice` of entities given as arrays of positions in which entities of different
    sentences never overlap: the references overlapped by two or more predictions and the predictions that
    overlap two or more references (docs/scoring.md §11), on sides nested or not."""
    if min_overlap is None:
        # Of the predictions that start before a reference ends, those that end by its start are the ones that
        # miss it: two binary searches per entity, whatever the nesting.
        sorted_start_p, sorted_end_p = np.sort(start_p), np.sort(end_p)
        degree_r = np.searchsorted(sorted_start_p, end_r, "left") - np.searchsorted(sorted_end_p, start_r, "right")
        sorted_start_r, sorted_end_r = np.sort(start_r), np.sort(end_r)
        degree_p = np.searchsorted(sorted_start_r, end_p, "left") - np.searchsorted(sorted_end_r, start_p, "right")
        return int(np.count_nonzero(degree_r >= 2)), int(np.count_nonzero(degree_p >= 2))
    # With min_overlap each overlap is tested: the edges between distinct extents (copies folded, as the
    # readable path folds them), each found once.
    (r0, r1, copies_r), (p0, p1, copies_p) = _extents(start_r, end_r), _extents(start_p, end_p)
    i, j = _overlap_pairs(r0, r1, p0, p1)
    shared = np.minimum(r1[i], p1[j]) - np.maximum(r0[i], p0[j])
    keep = shared / (r1[i] - r0[i]) >= min_overlap  # the float quotient, as `pairing._overlaps`
    i, j = i[keep], j[keep]
    degree_r = np.zeros(len(r0), np.int64)
    np.add.at(degree_r, i, copies_p[j])
    degree_p = np.zeros(len(p0), np.int64)
    np.add.at(degree_p, j, copies_r[i])
    return int(copies_r[degree_r >= 2].sum()), int(copies_p[degree_p >= 2].sum())


def _extents(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (start, end) of entities in (start, end) order, and the copies of each."""
    order = np.lexsort((end, start))
    start, end = start[order], end[order]
    new = np.ones(len(start), dtype=bool)
    new[1:] = (start[1:] != start[:-1]) | (end[1:] != end[:-1])
    first = np.flatnonzero(new)
    return start[first], end[first], np.diff(np.append(first, len(start))).astype(np.int64)


def _overlap_pairs(
    start_r: np.ndarray, end_r: np.ndarray, start_p: np.ndarray, end_p: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(i, j) of every overlapping reference i and prediction j, both sides sorted by start: the predictions
    starting inside a reference (at or after its start) form one run in start order, and so do the references
    starting strictly inside a prediction; every overlap is one of the two, once. Time and memory follow the
    number of overlaps."""
    low = np.searchsorted(start_p, start_r, "left")
    high = np.searchsorted(start_p, end_r, "left")
    i_a, j_a = _runs(low, high)
    low = np.searchsorted(start_r, start_p, "right")
    high = np.searchsorted(start_r, end_p, "left")
    j_b, i_b = _runs(low, high)
    return np.concatenate((i_a, i_b)), np.concatenate((j_a, j_b))


def _runs(low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(k, m) for every k and every m in range(low[k], high[k])."""
    width = np.maximum(high - low, 0)
    k = np.repeat(np.arange(len(low)), width)
    step = np.arange(len(k)) - np.repeat(np.cumsum(width) - width, width)
    return k, low[k] + step


class _CodeBook:
    """One call's tag -> code table, and each code's role flags and type id, kept across its chunks, so that each
    distinct tag is numbered and parsed once per call whatever the number of chunks (issue 16). It starts from
    the codes of earlier calls (`_known_codes`, kept while they are at most 256); `_tag_codes` numbers the new
    tags of a chunk as its look-up meets them."""

    def __init__(self, table: TagTable, label_list_tags: list[Any] | None = None) -> None:
        self.table = table
        # With ids, a code is the id's position in label_list: the same in every chunk, and no tag is looked up.
        self.codes: dict[Any, int] = _known_codes if label_list_tags is None else {}
        self.tags: list[Any] = list(_known_codes) if label_list_tags is None else label_list_tags
        self.type_names: dict[str, int] = {}
        self.role_of = np.zeros(len(self.tags) + 1, dtype=np.int8)
        self.type_of = np.full(len(self.tags) + 1, -1, dtype=np.int32)
        self.parsed = np.zeros(len(self.tags) + 1, dtype=bool)

    def sync(self) -> None:
        """Take in the tags the look-ups numbered, in the order of their codes (the dict's own order)."""
        global _known_codes
        grow = len(self.codes) - len(self.tags)
        if not grow:
            return
        self.tags.extend(islice(self.codes, len(self.tags), None))
        if len(self.codes) <= 256:
            _known_codes = dict(self.codes)  # a few tags: the next call finds them numbered
        self.role_of = np.concatenate((self.role_of, np.zeros(grow, dtype=np.int8)))
        self.type_of = np.concatenate((self.type_of, np.full(grow, -1, dtype=np.int32)))
        self.parsed = np.concatenate((self.parsed, np.zeros(grow, dtype=bool)))

    def parse(self, used: np.ndarray) -> bool:
        """Parse the tags of the `used` codes not parsed yet; False if one is not a tag of the scheme."""
        new = np.flatnonzero(used & ~self.parsed[: len(used)]).tolist()
        if not new:
            return True
        try:
            roles, entity_types = self.table.roles_and_types([self.tags[code] for code in new])
        except (InvalidInputError, TypeError):
            return False
        type_names: dict[Any, int] = self.type_names
        # Types numbered in the order they are first met (tags B-X and I-X share one), all in C but one step per type.
        met: dict[Any, None] = dict.fromkeys(entity_types)
        met.pop(None, None)
        unnumbered = [name for name in met if name not in type_names]
        type_names.update(zip(unnumbered, range(len(type_names), len(type_names) + len(unnumbered))))
        self.role_of[new] = np.fromiter(map(_ROLE_FLAGS.__getitem__, roles), dtype=np.int8, count=len(new))
        self.type_of[new] = np.fromiter(map(type_names.get, entity_types, repeat(-1)), dtype=np.int32, count=len(new))
        self.parsed[new] = True
        return True


def _chunk_cells(
    predictions: Batch,
    references: Batch,
    offsets: np.ndarray,
    holds_ids: bool,
    options: Options,
    codes: _CodeBook,
    by_sentence: bool = False,
    rows: bool = False,
) -> (
    tuple[
        Rows,
        np.ndarray | None,
        TokenCounts,
        Weighted | None,
        Findings | None,
        tuple[RowArrays, np.ndarray, np.ndarray] | None,
    ]
    | None
):
    """The cells of one chunk as (scenario index, reference type id, predicted type id, number) columns, all its
    sentences decoded and paired with a handful of array operations, with `by_sentence` each sentence's scenario
    counts (sentences x 6), its token counts (`token_accuracy`), with `diagnostics` or `errors` its `Findings`,
    and with `rows` its rows (chunk-local sentences), each sentence's length and its tokens whose tags are
    equal."""
    if holds_ids:
        by_id = _id_codes(predictions, references, offsets, options)
        if by_id is None:
            return None
        codes_p, codes_r, offsets, _ = by_id
    else:
        by_tag = _tag_codes(predictions, references, codes)
        if by_tag is None:
            return None
        codes_p, codes_r = by_tag
    tokens = _token_counts(codes_p, codes_r, codes.tags if holds_ids else None)
    used = np.zeros(len(codes.tags) + 1, dtype=bool)
    used[codes_p] = True
    used[codes_r] = True
    used[-1] = False
    if not codes.parse(used):
        return None
    type_names = codes.type_names
    spans = [_decode_flat(side, offsets, codes.role_of, codes.type_of, options) for side in (codes_r, codes_p)]
    if options.labels is not None:
        wanted = np.array([type_names[label] for label in options.labels if label in type_names], dtype=np.int64)
        spans = [side.select(np.isin(side.type_id, wanted)) for side in spans]
    wanted_findings = options.diagnostics or bool(options.errors)
    groups = pair_flat(spans[0], spans[1], options.min_overlap, positions=wanted_findings or rows)
    cells = _counted_cells(groups, len(type_names))
    weighted = None
    if weighted_width(options):
        weighted = weighted_rows(spans[0], spans[1], groups, offsets, options, list(type_names), by_sentence)
    found = None
    if wanted_findings:

        def locate(positions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            sentence = np.searchsorted(offsets, positions, side="right") - 1
            return sentence, offsets[sentence]

        found = chunk_findings(groups, spans[0], spans[1], options, locate)
    if not by_sentence and not rows:
        return cells, None, tokens, weighted, found, None
    kinds, positions = (np.concatenate([group[column] for group in groups]) for column in (0, 3))
    # A row's sentence is the last one starting at or before the row's first token (empty sentences share
    # their offset with the next one, which is the one holding that token).
    sentence = np.searchsorted(offsets, positions, side="right") - 1
    sentences = len(offsets) - 1
    counts = None
    if by_sentence:
        counts = np.bincount(sentence * len(SCENARIOS) + kinds, minlength=sentences * len(SCENARIOS))
        counts = counts.reshape(sentences, len(SCENARIOS))
    if not rows:
        return cells, counts, tokens, weighted, found, None
    columns = [np.concatenate([np.asarray(group[column], dtype=np.int64) for group in groups]) for column in range(9)]
    base = offsets[sentence]
    # Extents within their sentence (pair_flat's columns 5 to 8), -1 kept for no entity.
    ends = [np.where(column >= 0, column - base, -1) for column in columns[5:]]
    row_arrays = RowArrays.of_columns([sentence, columns[0], columns[1], columns[2], *ends])
    equal = _sentence_equal(codes_p, codes_r, offsets, codes.tags if holds_ids else None)
    return cells, counts, tokens, weighted, found, (row_arrays, np.diff(offsets).astype(np.int64), equal)


def _sentence_equal(
    codes_p: np.ndarray, codes_r: np.ndarray, offsets: np.ndarray, label_tags: list | None
) -> np.ndarray:
    """Each sentence's tokens whose two tags are equal (`_token_counts`, sentence by sentence)."""
    if label_tags is not None and len(set(label_tags)) < len(label_tags):
        first: dict[Any, int] = {}
        same = np.array([first.setdefault(tag, code) for code, tag in enumerate(label_tags)], dtype=np.int64)
        codes_p, codes_r = same[codes_p], same[codes_r]
    sentences = len(offsets) - 1
    token_sentence = np.repeat(np.arange(sentences), np.diff(offsets))
    return np.bincount(token_sentence[codes_p == codes_r], minlength=sentences).astype(np.int64)


class Weighted(NamedTuple):
    """What docs/scoring.md §10 adds to a chunk's count, when asked for: the overlap credit of the PAR pairs by
    (reference type id, predicted type id), the value pairing's rows as distinct cells (`_counted_cells`), and
    with `by_sentence` each sentence's `counts.weighted_width` columns."""

    credit: dict[tuple[int, int], Fraction] | None
    value_cells: Rows | None
    by_sentence: np.ndarray | None


def weighted_rows(
    references: FlatSpans,
    predictions: FlatSpans,
    groups: Sequence[Rows],
    offsets: np.ndarray,
    options: Options,
    type_names: list[str],
    by_sentence: bool,
) -> Weighted:
    """`readable.weighed` on arrays: the overlap credit of `pair_flat`'s PAR rows, and the value pairing of the
    same spans (`value_flat`); `offsets` place a row's first position in its sentence."""
    sentences = len(offsets) - 1
    columns = []
    credit: dict[tuple[int, int], Fraction] | None = None
    value_cells = None
    if options.partial_credit == OVERLAP:
        kinds, r_types, p_types, r_starts, p_starts = (
            np.concatenate([np.asarray(group[column], dtype=np.int64) for group in groups]) for column in range(5)
        )
        partial = (kinds == SCENARIOS.index("V")) | (kinds == SCENARIOS.index("VI"))
        r_starts, p_starts = r_starts[partial], p_starts[partial]
        # Starts are distinct on each side (spans are disjoint): a start finds its entity.
        r_ends = references.end[np.searchsorted(references.start, r_starts)]
        p_ends = predictions.end[np.searchsorted(predictions.start, p_starts)]
        shared = np.minimum(r_ends, p_ends) - np.maximum(r_starts, p_starts)
        union = np.maximum(r_ends, p_ends) - np.minimum(r_starts, p_starts)
        # One integer per (reference type, predicted type, shared, union), in mixed radix: np.unique on it takes
        # a fraction of what it takes on rows.
        types, extent = len(type_names) + 1, int(union.max(initial=0)) + 1
        if types * types * extent * extent < 1 << 62:
            keys = ((r_types[partial] * types + p_types[partial]) * extent + shared) * extent + union
            distinct, inverse, numbers = np.unique(keys, return_inverse=True, return_counts=True)
            rest, whole_of = np.divmod(distinct, extent)
            rest, part_of = np.divmod(rest, extent)
            r_of, p_of = np.divmod(rest, types)
            columns_of = (r_of.tolist(), p_of.tolist(), part_of.tolist(), whole_of.tolist())
        else:  # thousands of types and a sentence of a million tokens: the rows themselves
            credit_rows = np.stack((r_types[partial], p_types[partial], shared, union), axis=1)
            distinct_rows, inverse, numbers = np.unique(credit_rows, axis=0, return_inverse=True, return_counts=True)
            columns_of = tuple(distinct_rows.T.tolist())
        credit = {}
        shares: list[float] = []
        for (r_type, p_type, part, whole), number in zip(zip(*columns_of), numbers.tolist()):
            share = Fraction(part, whole)
            credit[r_type, p_type] = credit.get((r_type, p_type), Fraction(0)) + number * share
            shares.append(float(share))
        if by_sentence:
            sentence = np.searchsorted(offsets, r_starts, side="right") - 1
            values = np.array(shares, dtype=np.float64)[inverse.reshape(-1)].reshape(-1, 1)
            columns.append(sentence_sums(sentence, values, sentences))
    if options.value is not None:
        table = WeightTable(options.value)
        rows = value_flat(references, predictions, table, options.value_min_overlap, type_names)
        value_cells = _counted_cells([rows], len(type_names))
        if by_sentence:
            distinct_cells, inverse = _distinct_cells(rows, len(type_names))
            names: list[str | None] = [*type_names, None]
            cells = [(SCENARIOS[kind], names[r], names[p]) for kind, r, p in distinct_cells]
            per_cell = value_cell_columns(cells, table)
            sentence = np.searchsorted(offsets, rows[3], side="right") - 1
            columns.append(sentence_sums(sentence, per_cell[inverse], sentences))
    return Weighted(credit, value_cells, np.hstack(columns) if by_sentence else None)


def _distinct_cells(rows: Rows, types: int) -> tuple[list[tuple[int, int, int]], np.ndarray]:
    """The distinct (scenario index, reference type id, predicted type id) of rows, and each row's among them."""
    width = types + 1
    combined = (rows[0] * width + rows[1] + 1) * width + rows[2] + 1
    distinct, inverse = np.unique(combined, return_inverse=True)
    kinds, rest = np.divmod(distinct, width * width)
    reference_types, predicted_types = np.divmod(rest, width)
    cells = list(zip(kinds.tolist(), (reference_types - 1).tolist(), (predicted_types - 1).tolist()))
    return cells, inverse.reshape(-1)


def value_flat(
    references: FlatSpans,
    predictions: FlatSpans,
    table: WeightTable,
    min_overlap: float | None,
    type_names: list[str],
) -> Rows:
    """`value.value_pair` for a whole batch of sorted, disjoint spans, as rows (scenario index, reference type id,
    predicted type id, first position). An entity that overlaps one entity which overlaps only it pairs with it
    (every worth is >= 0, and a pair more wins a tie): those, and the entities that overlap nothing, are settled
    on arrays; the rest, chains with a fork, go through the exact `value.value_pair` (spans never cross a
    sentence, so neither do its components)."""
    none = np.int64(-1)
    first = np.searchsorted(predictions.end, references.start, side="right")
    degree = np.searchsorted(predictions.start, references.end, side="left") - first
    edge_r = np.repeat(np.arange(len(references.start)), degree)
    starts = np.repeat(np.cumsum(degree) - degree, degree)
    edge_p = first[edge_r] + np.arange(len(edge_r)) - starts
    if min_overlap is not None and len(edge_r):
        shared = np.minimum(references.end[edge_r], predictions.end[edge_p]) - np.maximum(
            references.start[edge_r], predictions.start[edge_p]
        )
        # The share is the float quotient, as `pairing._overlaps` computes it.
        kept = shared / (references.end[edge_r] - references.start[edge_r]) >= min_overlap
        edge_r, edge_p = edge_r[kept], edge_p[kept]
    degree_r = np.bincount(edge_r, minlength=len(references.start))
    degree_p = np.bincount(edge_p, minlength=len(predictions.start))
    simple = (degree_r[edge_r] == 1) & (degree_p[edge_p] == 1)
    pair_r, pair_p = edge_r[simple], edge_p[simple]
    types_r, types_p = references.type_id[pair_r], predictions.type_id[pair_p]
    same_bounds = (references.start[pair_r] == predictions.start[pair_p]) & (
        references.end[pair_r] == predictions.end[pair_p]
    )
    same_type = types_r == types_p
    kind = np.select(
        [same_bounds & same_type, same_bounds, same_type],
        [SCENARIOS.index("I"), SCENARIOS.index("IV"), SCENARIOS.index("V")],
        SCENARIOS.index("VI"),
    )
    lone_r, lone_p = np.flatnonzero(degree_r == 0), np.flatnonzero(degree_p == 0)
    columns = [
        [kind, types_r, types_p, references.start[pair_r]],
        [np.full(len(lone_r), SCENARIOS.index("III")), references.type_id[lone_r], np.full(len(lone_r), none)],
        [np.full(len(lone_p), SCENARIOS.index("II")), np.full(len(lone_p), none), predictions.type_id[lone_p]],
    ]
    columns[1].append(references.start[lone_r])
    columns[2].append(predictions.start[lone_p])
    forked_r = np.setdiff1d(np.flatnonzero(degree_r > 0), pair_r, assume_unique=True)
    forked_p = np.setdiff1d(np.flatnonzero(degree_p > 0), pair_p, assume_unique=True)
    if len(forked_r) or len(forked_p):
        spans_r = [
            Span(start, end, type_names[type_id])
            for start, end, type_id in zip(
                references.start[forked_r].tolist(),
                references.end[forked_r].tolist(),
                references.type_id[forked_r].tolist(),
            )
        ]
        spans_p = [
            Span(start, end, type_names[type_id])
            for start, end, type_id in zip(
                predictions.start[forked_p].tolist(),
                predictions.end[forked_p].tolist(),
                predictions.type_id[forked_p].tolist(),
            )
        ]
        ids = {name: type_id for type_id, name in enumerate(type_names)}
        rows = [
            (
                SCENARIOS.index(scenario_of(r, p)),
                none if r is None else ids[r.entity_type],
                none if p is None else ids[p.entity_type],
                r.start if r is not None else p.start,  # type: ignore[union-attr]
            )
            for r, p in value_pair(spans_r, spans_p, table, min_overlap)
        ]
        columns.append([np.array(column, dtype=np.int64) for column in zip(*rows)])
    return tuple(
        np.concatenate([np.asarray(group[column], dtype=np.int64) for group in columns]) for column in range(4)
    )


def _token_counts(codes_p: np.ndarray, codes_r: np.ndarray, label_tags: list | None) -> TokenCounts:
    """`readable.token_counts` of a chunk's codes. A tag's code is the tag's own, but ids are coded by their
    place in `label_list` (`label_tags`), where two ids may name one tag: those count as equal."""
    if label_tags is not None and len(set(label_tags)) < len(label_tags):
        first: dict[Any, int] = {}
        same = np.array([first.setdefault(tag, code) for code, tag in enumerate(label_tags)], dtype=np.int64)
        codes_p, codes_r = same[codes_p], same[codes_r]
    return TokenCounts(len(codes_r), int(np.count_nonzero(codes_p == codes_r)))


def _counted_cells(groups: Sequence[Rows], types: int) -> Rows:
    """Rows given as (scenario index, reference type id, predicted type id, ...) columns, -1 for no entity, as
    distinct cells: (scenario index, reference type id, predicted type id, number of rows) columns."""
    kinds, reference_types, predicted_types = (
        np.concatenate([np.asarray(group[column], dtype=np.int64) for group in groups]) for column in range(3)
    )
    # One integer per cell, in mixed radix: scenario, then reference type + 1, then predicted type + 1 (0 for
    # "no entity" on that side), each digit below `width`; np.unique then counts every cell at once.
    width = types + 1
    combined = (kinds * width + reference_types + 1) * width + predicted_types + 1
    combined, numbers = np.unique(combined, return_counts=True)
    kinds, rest = np.divmod(combined, width * width)
    reference_types, predicted_types = np.divmod(rest, width)
    return kinds, reference_types - 1, predicted_types - 1, numbers.astype(np.int64)


def _cell_dict(chunks: Sequence[Rows], type_names: Sequence[str]) -> Tally:
    """The `Tally` of the distinct cells of several chunks (`_counted_cells`), type ids indexing `type_names`."""
    empty = np.zeros(0, dtype=np.int64)
    kinds, reference_types, predicted_types, numbers = (
        np.concatenate([empty, *(chunk[column] for chunk in chunks)]) for column in range(4)
    )
    if len(chunks) > 1:  # a cell met in several chunks: summed, in int64 (a float bincount rounds past 2**53)
        width = len(type_names) + 1
        combined = (kinds * width + reference_types + 1) * width + predicted_types + 1
        distinct, inverse = np.unique(combined, return_inverse=True)
        numbers_summed = np.zeros(len(distinct), dtype=np.int64)
        np.add.at(numbers_summed, inverse.reshape(-1), numbers)
        kinds, rest = np.divmod(distinct, width * width)
        reference_types, predicted_types = np.divmod(rest, width)
        reference_types, predicted_types, numbers = reference_types - 1, predicted_types - 1, numbers_summed
    names: list[str | None] = [*type_names, None]  # type id -1, no entity, is the last name
    columns = (kinds.tolist(), reference_types.tolist(), predicted_types.tolist(), numbers.tolist())
    return Tally({(SCENARIOS[kind], names[r], names[p]): number for kind, r, p, number in zip(*columns)})


def cells_of(groups: Sequence[Rows], type_names: list[str]) -> dict[Cell, int]:
    """The `Tally` cells of rows given as (scenario index, reference type id, predicted type id, ...) columns,
    -1 for no entity, type ids indexing `type_names`."""
    return dict(_cell_dict([_counted_cells(groups, len(type_names))], type_names).cells)


# tag -> code for the tags met so far, kept across calls: an evaluation loop scores the same few tags again
# and again, and a plain dict filled once looks them up faster than one that numbers tags as it meets them.
_known_codes: dict[Any, int] = {}


def _tag_codes(predictions: Batch, references: Batch, book: _CodeBook) -> tuple[np.ndarray, np.ndarray] | None:
    """The code of every tag of each side, in order; None for an unhashable value. Tags not in `book` yet get
    their codes there.

    This is the one step that touches every tag, so it stays in C: `map` over the dict's own look-up, into
    one byte per tag while there are at most 256 distinct tags, which numpy takes as it is (turning Python
    ints into an array costs more than the look-ups; benchmarks/run.py)."""
    batches = (predictions, references)
    try:
        try:
            arrays = [_code_array(book.codes, batch) for batch in batches]
        except KeyError:  # tags not met before: looked up again in a dict that numbers them as it meets them
            numbering = defaultdict(count(len(book.codes)).__next__, book.codes)
            arrays = [_code_array(numbering, batch) for batch in batches]
            # A plain dict again: a defaultdict's look-ups take 1.4x as long (benchmarks/hostile.py, 1,000 types).
            book.codes = dict(numbering)
    except TypeError:  # an unhashable value
        return None
    book.sync()
    return arrays[0], arrays[1]


def _code_array(codes: dict[Any, int], batch: Batch) -> np.ndarray:
    if len(codes) <= 256:
        try:
            return np.frombuffer(bytearray(map(codes.__getitem__, chain.from_iterable(batch))), dtype=np.uint8)
        except ValueError:  # a code above 255: more than 256 distinct tags in this call; those met keep theirs
            pass
    return np.fromiter(map(codes.__getitem__, chain.from_iterable(batch)), dtype=np.int32)


def _id_codes(
    predictions: Batch, references: Batch, offsets: np.ndarray, options: Options
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list] | None:
    """Integer ids as codes (their position in `label_list`), with the `ignore_index` positions dropped, which
    moves the sentence offsets; None for anything the readable path must explain (an unknown id)."""
    labels = options.label_list
    if labels is None:
        return None
    try:
        ids = np.fromiter(labels, dtype=np.int64, count=len(labels))
    except OverflowError:  # an id no int64 holds
        return None
    ids_p, ids_r = (_flat_ids(batch, int(offsets[-1])) for batch in (predictions, references))
    if ids_p is None or ids_r is None:
        return None
    kept = ids_r != options.ignore_index
    ids_p, ids_r = ids_p[kept], ids_r[kept]
    offsets = np.concatenate(([0], np.cumsum(kept)))[offsets]
    # Ids to codes by binary search in the sorted ids: time and memory follow the input and label_list, not
    # the size of the id values (a table indexed by id would take gigabytes for an id of 10**9).
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    codes = []
    for side in (ids_p, ids_r):
        where = np.searchsorted(sorted_ids, side).clip(0, max(len(ids) - 1, 0))
        if side.size and (not ids.size or not np.array_equal(sorted_ids[where], side)):
            return None
        codes.append(order[where] if ids.size else where)
    return codes[0], codes[1], offsets, list(labels.values())


def _flat_ids(batch: list[list] | np.ndarray, size: int) -> np.ndarray | None:
    """All ids of a batch in one int64 array; None if any value is not an integer id that int64 holds."""
    if isinstance(batch, np.ndarray):
        if batch.dtype == np.uint64 and batch.size and batch.max() > np.iinfo(np.int64).max:
            return None  # it would wrap around to a negative id, even to ignore_index
        return batch.reshape(-1).astype(np.int64, copy=False)
    kinds = set(map(type, chain.from_iterable(batch)))
    if not all(issubclass(kind, numbers.Integral) and kind is not bool for kind in kinds):
        return None  # np.fromiter would truncate 1.5 to 1: floats, strings and bools go the readable way
    try:
        return np.fromiter(chain.from_iterable(batch), dtype=np.int64, count=size)
    except (OverflowError, ValueError):
        return None


# The rows of a pairing as parallel columns: scenario index, reference type id, predicted type id (-1 for no
# entity) and, where a sentence must be told, the row's first position.
Rows = tuple[np.ndarray, ...]


@dataclass(frozen=True)
class FlatSpans:
    """Spans of a whole batch as parallel arrays; `start` and `end` count tokens from the batch's start."""

    start: np.ndarray
    end: np.ndarray
    type_id: np.ndarray

    def select(self, keep: np.ndarray) -> FlatSpans:
        return FlatSpans(self.start[keep], self.end[keep], self.type_id[keep])


def _strict_table(scheme: Scheme, pattern: str) -> np.ndarray:
    """valid[first role, last role, min(length, 3)] for entities of the lenient decoder.

    Inside an entity every token but the first and the last is INSIDE (a B/S would open a new entity, an
    E/L would close it), so an entity's prefix letters are fixed by its first and last role and whether it
    is longer than two tokens: the scheme's regular expression is evaluated once per combination."""
    letter = {_ROLE_FLAGS[role]: prefix for prefix, role in scheme.roles.items()}
    middle = letter.get(_ROLE_FLAGS[INSIDE], "")
    valid = np.zeros((8, 8, 4), dtype=bool)
    for first, first_letter in letter.items():
        for last, last_letter in letter.items():
            valid[first, last, 1] = first == last and re.fullmatch(pattern, first_letter) is not None
            valid[first, last, 2] = re.fullmatch(pattern, first_letter + last_letter) is not None
            valid[first, last, 3] = re.fullmatch(pattern, first_letter + middle + last_letter) is not None
    return valid


def _decode_flat(
    codes: np.ndarray, offsets: np.ndarray, role_of: np.ndarray, type_of: np.ndarray, options: Options
) -> FlatSpans:
    """`decode` of every sentence of a batch: `codes[offsets[i]:offsets[i + 1]]` is sentence i; `role_of`
    and `type_of` give each code's role flags and type id."""
    size = len(codes)
    role = role_of[codes]
    entity_type = type_of[codes]
    entity = (role & _ENTITY).astype(bool)
    first = np.zeros(size + 1, dtype=bool)
    first[offsets] = True  # also marks `size`, the end of the last sentence
    # An entity can go on into the next token unless this token is O or closes it (E/L/S/U).
    open_after = np.concatenate(([False], (role & (_ENTITY | _CLOSES)) == _ENTITY))[:-1]
    same_type_before = np.concatenate(([False], entity_type[1:] == entity_type[:-1]))
    # docs/scoring.md §2 lenient: an entity begins at B/S/U, after O or a closed entity, at a new type, or a sentence.
    begins = entity & (first[:-1] | (role & _OPENS).astype(bool) | ~open_after | ~same_type_before)
    continues = entity & ~begins
    ends = entity & ~np.concatenate((continues, [False]))[1:]
    start = np.flatnonzero(begins)
    end = np.flatnonzero(ends) + 1
    spans = FlatSpans(start, end, entity_type[start])
    if options.mode == LENIENT:
        return spans
    scheme = options.scheme
    first_role = role[start]
    last_role = role[end - 1]
    length = np.minimum(end - start, 3)
    valid = _strict_table(scheme, scheme.well_formed)[first_role, last_role, length]
    if scheme.well_formed_next_to_same_type is not None:
        # IOB1 / IOE1: the neighbouring token, in the same sentence, has an entity of the same type.
        if scheme.touching_side == "before":
            neighbour, inside_sentence = start - 1, ~first[start]
        else:
            neighbour, inside_sentence = end, ~first[end]
        neighbour = np.minimum(neighbour, size - 1).clip(0)
        touching = inside_sentence & (entity_type[neighbour] == spans.type_id)
        touching &= entity[neighbour]
        table = _strict_table(scheme, scheme.well_formed_next_to_same_type)
        valid |= touching & table[first_role, last_role, length]
    return spans.select(valid)


def pair_flat(
    references: FlatSpans, predictions: FlatSpans, min_overlap: float | None = None, positions: bool = False
) -> list[Rows]:
    """`pair` for a whole batch of sorted, disjoint spans: the (scenario index, reference type id, predicted type
    id, first token, predicted start) of every row; the first token (the reference's start, else the
    prediction's) places the row in its sentence, the predicted start (-1 for none) finds a pair's prediction.
    With `positions`, each row also carries (reference start, reference end, prediction start, prediction end),
    -1 on an unpaired side: what the diagnostics and errors read (docs/scoring.md §11).

    Identical boundaries, entities that overlap nothing and one-to-one overlaps are resolved with array
    operations; only entities in a chain with a fork (one entity overlapping two) go through the exact
    `pair_overlapping`, which is linear and never crosses a sentence (spans do not). With `min_overlap`, a
    one-to-one overlap below it is a miss and a spurious entity; a fork is left to `pair_overlapping`, which
    drops the edges below it (docs/scoring.md §3: a subset of the overlaps still never crosses)."""
    none = np.int64(-1)
    scenario = {name: index for index, name in enumerate(SCENARIOS)}
    groups: list[Rows] = []

    def add(
        kind: Any,
        reference_types: np.ndarray,
        predicted_types: np.ndarray,
        first: np.ndarray,
        reference: tuple[np.ndarray, np.ndarray] | None,
        prediction: tuple[np.ndarray, np.ndarray] | None,
    ) -> None:
        kinds = np.asarray(kind) if np.ndim(kind) else np.full(len(first), kind)
        absent = np.full(len(first), none)
        group: Rows = (kinds, reference_types, predicted_types, first, absent if prediction is None else prediction[0])
        if positions:
            group += (*(reference or (absent, absent)), *(prediction or (absent, absent)))
        groups.append(group)

    width = int(max(references.end.max(initial=0), predictions.end.max(initial=0))) + 1
    _, exact_r, exact_p = np.intersect1d(
        references.start * width + references.end,
        predictions.start * width + predictions.end,
        assume_unique=True,
        return_indices=True,
    )
    reference_types = references.type_id[exact_r]
    predicted_types = predictions.type_id[exact_p]
    same = reference_types == predicted_types
    add(
        np.where(same, scenario["I"], scenario["IV"]),
        reference_types,
        predicted_types,
        references.start[exact_r],
        (references.start[exact_r], references.end[exact_r]),
        (predictions.start[exact_p], predictions.end[exact_p]),
    )

    left_r = np.ones(len(references.start), dtype=bool)
    left_r[exact_r] = False
    left_p = np.ones(len(predictions.start), dtype=bool)
    left_p[exact_p] = False
    rest_r, rest_p = references.select(left_r), predictions.select(left_p)
    # Spans on one side are sorted and disjoint: the overlapping ones on the other side form one run.
    r_first = np.searchsorted(rest_p.end, rest_r.start, side="right")
    r_degree = np.searchsorted(rest_p.start, rest_r.end, side="left") - r_first
    p_first = np.searchsorted(rest_r.end, rest_p.start, side="right")
    p_degree = np.searchsorted(rest_r.start, rest_p.end, side="left") - p_first

    missed = r_degree == 0
    spurious = p_degree == 0
    add(
        scenario["III"],
        rest_r.type_id[missed],
        np.full(missed.sum(), none),
        rest_r.start[missed],
        (rest_r.start[missed], rest_r.end[missed]),
        None,
    )
    add(
        scenario["II"],
        np.full(spurious.sum(), none),
        rest_p.type_id[spurious],
        rest_p.start[spurious],
        None,
        (rest_p.start[spurious], rest_p.end[spurious]),
    )
    partner = np.minimum(r_first, max(len(rest_p.start) - 1, 0))
    simple = (r_degree == 1) & (p_degree[partner] == 1) if len(rest_p.start) else np.zeros_like(missed)
    below = np.zeros_like(simple)
    if min_overlap is not None and simple.any():
        # One-to-one overlaps whose shared extent is below min_overlap of the reference's length: no pair. The
        # share is the float quotient, as in `_overlaps`.
        starts_r, ends_r = rest_r.start[simple], rest_r.end[simple]
        starts_p, ends_p = rest_p.start[partner[simple]], rest_p.end[partner[simple]]
        shared = np.minimum(ends_r, ends_p) - np.maximum(starts_r, starts_p)
        below[simple] = shared / (ends_r - starts_r) < min_overlap
        simple &= ~below
        unpaired_p = partner[below]
        add(
            scenario["III"],
            rest_r.type_id[below],
            np.full(below.sum(), none),
            rest_r.start[below],
            (rest_r.start[below], rest_r.end[below]),
            None,
        )
        add(
            scenario["II"],
            np.full(below.sum(), none),
            rest_p.type_id[unpaired_p],
            rest_p.start[unpaired_p],
            None,
            (rest_p.start[unpaired_p], rest_p.end[unpaired_p]),
        )
        spurious[unpaired_p] = True  # settled: not part of a fork
    simple_r = rest_r.type_id[simple]
    simple_p = rest_p.type_id[partner[simple]]
    add(
        np.where(simple_r == simple_p, scenario["V"], scenario["VI"]),
        simple_r,
        simple_p,
        rest_r.start[simple],
        (rest_r.start[simple], rest_r.end[simple]),
        (rest_p.start[partner[simple]], rest_p.end[partner[simple]]),
    )

    forked_r = ~missed & ~simple & ~below
    forked_p = ~spurious
    forked_p[partner[simple]] = False
    if forked_r.any() or forked_p.any():
        chain_r, chain_p = id_spans(rest_r.select(forked_r)), id_spans(rest_p.select(forked_p))
        paired = pair_overlapping(chain_r, chain_p, min_overlap)
        taken_r = {r.start for r, _ in paired}
        taken_p = {p.start for _, p in paired}
        rows: list[tuple[Any, ...]] = [
            (
                scenario[scenario_of(r, p)],
                r.entity_type,
                p.entity_type,
                r.start,
                p.start,
                r.start,
                r.end,
                p.start,
                p.end,
            )
            for r, p in paired
        ]
        rows += [
            (scenario["III"], r.entity_type, none, r.start, none, r.start, r.end, none, none)
            for r in chain_r
            if r.start not in taken_r
        ]
        rows += [
            (scenario["II"], none, p.entity_type, p.start, p.start, none, none, p.start, p.end)
            for p in chain_p
            if p.start not in taken_p
        ]
        columns = tuple(np.array(column, dtype=np.int64) for column in zip(*rows))
        groups.append(columns if positions else columns[:5])
    return groups


def id_spans(spans: FlatSpans) -> list[Span]:
    """The spans as `Span`s whose types are their type ids: the exact pairing only compares types, and the ids
    sort as the names do (docs/scoring.md §3 d), so it pairs them as it would pair the names."""
    columns = spans.start.tolist(), spans.end.tolist(), spans.type_id.tolist()
    return [Span(*span) for span in zip(*columns)]
