"""Every derived result of a batch as a reducer over its table of pairs (`nerscore.table.pairs.Pairs`), written once.

Each input path ends in one `Pairs` table; what the result reports of it is reduced here, whichever path made it:
the tally's cells (§4), each sentence's scenario counts (the statistics' unit, §9), the overlap credit (§10),
the value score's cells (§10, from the value pairing's own table), the diagnostics and the errors by surface
string (§11, `nerscore.table.findings`), the slices' buckets (§11, `nerscore.table.slices`). A reducer declares
the table's columns it reads and the option that asks for it; `REDUCERS` lists them, each filling a field of the
`Tally` or, slices, of the batch's `Counted`, and `counted` runs them. docs/architecture.md shows how to add one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import located
from ..grouping import key_counts, ranges
from ..option_checks import OVERLAP
from ..options import Options
from ..pairing.overlaps import kept_edges
from ..pairing.rules import SCENARIOS, Scenario, scenario_codes
from ..pairing.value import WeightTable, value_pair
from ..pairing.value_arrays import value_fragments, value_nested
from ..result_scores import sentence_sums, value_cell_columns, weighted_width
from ..span import Span
from ..tally import Cell, CellTable, Counted, Row, Tally, TokenCounts, named_cells
from .columns import NO_COLUMNS, Columns
from .findings import diagnostics, errors, placed_sides, placement, sides_by_sentence, unit_overlaps
from .pairs import PAIR_COLUMNS, FlatSpans, Pairs, SentenceFacts, cell_key_columns, tuple_runs
from .row_texts import RowTexts, row_texts
from .slices import SEEN, SLICE_COLUMNS, count_slices

if TYPE_CHECKING:
    from fractions import Fraction

_WIDTH = len(SCENARIOS)


@dataclass(frozen=True)
class Reduction:
    """What the reducers read of one batch: its table of pairs, the options, its columns (texts, tokens), the
    value pairing's own table (§10) when the path made it (else made from the pairs on first use), and for slices
    each sentence's facts and whether each sentence's bucket counts are kept (`keep_sentences`)."""

    pairs: Pairs
    options: Options
    columns: Columns = NO_COLUMNS
    given_value_pairs: Pairs | None = None
    facts: SentenceFacts | None = None
    keep_sentences: bool = False

    @cached_property
    def row_texts(self) -> RowTexts | None:
        """Each row's two texts (`row_texts.row_texts`) where the seen slice reads them, found once for it and
        errors; else None (errors then find those of their rows alone)."""
        if SEEN not in self.options.slices:
            return None
        return row_texts(self.pairs, self.columns, self.options.seen)

    @cached_property
    def value_pairs(self) -> Pairs:
        if self.given_value_pairs is not None:
            return self.given_value_pairs
        return value_pairs(self.pairs, self.options)


@dataclass(frozen=True)
class Reducer:
    """One field of the `Tally` (or of `Counted`): the table's columns it reads, whether the options ask for it,
    and how."""

    field: str
    reads: tuple[str, ...]
    wanted: Callable[[Options], bool]
    reduce: Callable[[Reduction], Any]


def cells(pairs: Pairs) -> CellTable:
    """The tally's cells (docs/scoring.md §4): how many rows fell into each (scenario, reference type, predicted
    type), None for no entity; as the columns of a `CellTable`, which the scores read as they are."""
    distinct, numbers = _distinct_keys(pairs, inverse=False)
    return CellTable(*cell_key_columns(distinct, pairs.cell_radix), numbers.reshape(-1), pairs.type_names)


def _distinct_cells(pairs: Pairs, inverse: bool) -> tuple[list[Cell], np.ndarray]:
    """The distinct cells of the rows, in order, with each one's number of rows, or (`inverse`) instead each row's
    index into them: asked for only where needed, as it costs np.unique an argsort."""
    distinct, per = _distinct_keys(pairs, inverse)
    columns = cell_key_columns(distinct, pairs.cell_radix)
    return named_cells(*columns, pairs.type_names), per.reshape(-1)


def _distinct_keys(pairs: Pairs, inverse: bool) -> tuple[np.ndarray, np.ndarray]:
    """`_distinct_cells` as one integer a cell (`Pairs.cell_keys`): every cell found at once."""
    if inverse:
        return np.unique(pairs.cell_keys, return_inverse=True)
    return key_counts(pairs.cell_keys, len(SCENARIOS) * pairs.cell_radix * pairs.cell_radix)


def token_counts(facts: SentenceFacts) -> TokenCounts:
    """`token_accuracy`'s counts (docs/scoring.md §7): the tokens, and those whose two tags are equal."""
    assert facts.lengths is not None and facts.equal is not None  # tags
    return TokenCounts(int(facts.lengths.sum()), int(facts.equal.sum()))


def scenario_counts(pairs: Pairs) -> np.ndarray:
    """Each sentence's scenario counts (sentences x 6, scenarios I to VI): the statistics' unit (§9)."""
    counts = np.bincount(pairs.sentence * _WIDTH + pairs.scenario, minlength=pairs.sentences * _WIDTH)
    return counts.reshape(pairs.sentences, _WIDTH)


def _shares(pairs: Pairs) -> tuple[np.ndarray, dict[tuple[str, str], Fraction], np.ndarray]:
    """The PAR rows (scenarios V and VI), the exact sum of |shared| / |union| of each (reference type, predicted
    type) over them, and each one's share as the float nearest it."""
    from fractions import Fraction  # here: `import nerscore` does not load fractions and decimal (1.4 ms)

    partial, r0, r1, p0, p1 = pairs.partial_rows()
    if pairs.fragmented:  # shared units over the units of the union (docs/scoring.md §12)
        shared, units_r, units_p = unit_overlaps(pairs, partial)
        union = units_r + units_p - shared
    else:
        shared, union = np.minimum(r1, p1) - np.maximum(r0, p0), np.maximum(r1, p1) - np.minimum(r0, p0)
    r_types, p_types = pairs.reference_type[partial], pairs.predicted_type[partial]
    types, extent = len(pairs.type_names) + 1, int(union.max(initial=0)) + 1
    if shared.dtype != object and types * types * extent * extent < 1 << 62:
        # One integer per (reference type, predicted type, shared, union), in mixed radix: np.unique on it takes
        # a fraction of what it takes on rows.
        keys = ((r_types * types + p_types) * extent + shared) * extent + union
        distinct, inverse, numbers = np.unique(keys, return_inverse=True, return_counts=True)
        rest, whole_of = np.divmod(distinct, extent)
        rest, part_of = np.divmod(rest, extent)
        r_of, p_of = np.divmod(rest, types)
        distinct_rows: Any = zip(r_of.tolist(), p_of.tolist(), part_of.tolist(), whole_of.tolist())
        numbers_list = numbers.tolist()
    else:  # thousands of types and a sentence of a million tokens, or offsets past int64: the rows themselves
        index: dict[tuple, int] = {}
        rows = zip(r_types.tolist(), p_types.tolist(), shared.tolist(), union.tolist())
        inverse = np.array([index.setdefault(row, len(index)) for row in rows], dtype=np.int64)
        distinct_rows, numbers_list = list(index), np.bincount(inverse, minlength=len(index)).tolist()
    names = pairs.type_names
    credit: dict[tuple[str, str], Fraction] = {}
    floats = []
    for (r_type, p_type, part, whole), number in zip(distinct_rows, numbers_list):
        share = Fraction(part, whole)
        named = (names[r_type], names[p_type])
        credit[named] = credit.get(named, Fraction(0)) + number * share
        floats.append(float(share))
    return partial, credit, np.array(floats, dtype=np.float64)[inverse.reshape(-1)]


def overlap_credit(pairs: Pairs) -> dict[tuple[str, str], Fraction]:
    """`partial_credit="overlap"`'s credit (docs/scoring.md §10): the exact sum of |shared| / |union| over the
    PAR pairs of each (reference type, predicted type)."""
    return _shares(pairs)[1]


def weighted_columns(reduction: Reduction) -> np.ndarray:
    """Each sentence's `result_scores.weighted_width` columns for the statistics (§10): its overlap credit, then the
    value's five sums of its value rows."""
    pairs, options = reduction.pairs, reduction.options
    columns = [np.zeros((pairs.sentences, 0))]
    if options.partial_credit == OVERLAP:
        partial, _, shares = _shares(pairs)
        columns.append(sentence_sums(pairs.sentence[partial], shares.reshape(-1, 1), pairs.sentences))
    if options.value is not None:
        value = reduction.value_pairs
        distinct, inverse = _distinct_cells(value, inverse=True)
        per_cell = value_cell_columns(distinct, WeightTable(options.value))
        columns.append(sentence_sums(value.sentence, per_cell[inverse], pairs.sentences))
    return np.hstack(columns)


def value_pairs(pairs: Pairs, options: Options) -> Pairs:
    """The value pairing's own table (docs/scoring.md §10) of the entities of `pairs`: the sentences whose sides
    are disjoint on arrays at once (`value_flat`), the nested ones on arrays as well (`value_arrays.value_nested`);
    where the positions are too large to place, entities are discontinuous (§12) or the nested sentences' pairs
    together would not fit in memory, by `value.value_pair` one sentence at a time."""
    assert options.value is not None
    table = WeightTable(options.value)
    placed = placement(pairs)
    if pairs.fragmented and placed is not None:  # units (§12): the sentences at positions of their own
        return _fragment_value_pairs(pairs, placed[1], table, options)
    nested = np.ones(pairs.sentences, dtype=bool)
    parts = []
    if placed is not None:
        shift, move = placed
        placed_r, placed_p, sentence_r, sentence_p = placed_sides(pairs, move)
        nested[:] = False
        sides = []
        for side, of_entity in ((placed_r, sentence_r), (placed_p, sentence_p)):
            # By start (stable: the rows come in sorted runs); ties only in a nested sentence, found either way.
            order = np.argsort(side.start, kind="stable")
            side, of_entity = side.select(order), of_entity[order]
            # A sentence is nested where an entity starts before an earlier one (in start order) of its side ends.
            overlapping = side.start[1:] < np.maximum.accumulate(side.end)[:-1]
            nested[of_entity[1:][overlapping]] = True
            sides.append((side, of_entity))
        (placed_r, sentence_r_sorted), (placed_p, sentence_p_sorted) = sides
        flat_r, flat_p = placed_r.select(~nested[sentence_r_sorted]), placed_p.select(~nested[sentence_p_sorted])
        found = [value_flat(flat_r, flat_p, table, options.value_min_overlap, list(pairs.type_names))]
        if nested.any():
            # The nested sentences on arrays too (issue 31, item 6), unless their pairs together would not fit.
            inner_r = placed_r.select(nested[sentence_r_sorted])
            inner_p = placed_p.select(nested[sentence_p_sorted])
            inner = value_nested(
                (inner_r.start, inner_r.end, inner_r.type_id),
                (inner_p.start, inner_p.end, inner_p.type_id),
                pairs.type_names,
                table,
                options.value_min_overlap,
            )
            if inner is not None:
                found.append(inner)
                nested[:] = False
        # The columns of the one part as they are (each made here by `value_flat`), else joined: fresh memory a
        # column the size of the table, which the system maps afresh each call (page faults: benchmarks/README.md).
        kinds, r_types, p_types, r0, r1, p0, p1 = (
            column[0] if len(found) == 1 else np.concatenate(column) for column in zip(*found)
        )
        # A row's sentence is the one whose placed positions hold its first position: the last sentence starting
        # at or before it (a sentence without entities takes a stride of its own, or no room at all, so never
        # that one); back to the sentence's own, in place (-1 where the row has no such entity).
        holding = np.searchsorted(shift, np.where(r0 >= 0, r0, p0), side="right") - 1
        back = move[holding]
        for column in (r0, r1, p0, p1):
            missing = column < 0
            column -= back
            column[missing] = -1
        parts.append(
            Pairs.of_columns([holding, kinds, r_types, p_types, r0, r1, p0, p1], pairs.type_names, pairs.sentences)
        )
    if nested.any():
        parts.append(Pairs.of_rows(value_rows(pairs.select(nested[pairs.sentence]).rows(), options), pairs.type_names))
    if len(parts) == 1 and parts[0].sentences == pairs.sentences:
        return parts[0]  # all on arrays: already the batch's table (joining would copy every column)
    return Pairs.joined(parts, pairs.type_names, pairs.sentences)


def _fragment_value_pairs(pairs: Pairs, move: np.ndarray, table: WeightTable, options: Options) -> Pairs:
    """`value_pairs` of a table with discontinuous entities (docs/scoring.md §12), on arrays
    (`value_arrays.value_fragments`), each sentence moved by `move`."""
    sides = []
    for side, own in enumerate(("reference", "predicted")):
        start, end, kind = (getattr(pairs, f"{own}_{column}") for column in ("start", "end", "type"))
        has = np.flatnonzero(start >= 0)
        # The array path's runs of fragments where the table has them (no tuples made, then read back).
        runs = (
            tuple_runs(pairs.fragment_columns()[side][has], start[has], end[has])
            if pairs.fragment_runs is None
            else pairs.fragment_runs[side].taken(has)
        )
        sides.append((pairs.sentence[has], kind[has], start[has], end[has], runs))
    found = value_fragments(sides[0], sides[1], move, pairs.type_names, table, options.value_min_overlap)
    return Pairs.of_columns(found[:8], pairs.type_names, pairs.sentences, runs=(found[8], found[9]))


def value_paired(
    rows: list[Row], options: Options
) -> Iterator[tuple[int, list[Span], list[Span], list[tuple[Span | None, Span | None]]]]:
    """Each sentence of `rows` with its references, its predictions (in the order of its rows) and their value
    pairing (docs/scoring.md §10), by `value.value_pair`, its definition."""
    assert options.value is not None
    table = WeightTable(options.value)
    for sentence, (references, predictions) in sides_by_sentence(rows).items():
        paired = located(sentence, value_pair, references, predictions, table, options.value_min_overlap)
        yield sentence, references, predictions, paired


def value_rows(rows: list[Row], options: Options) -> list[Row]:
    """The rows of the value pairing (`value_paired`) of the entities of `rows`."""
    return [(sentence, *pair) for sentence, _, _, paired in value_paired(rows, options) for pair in paired]


def value_flat(
    references: FlatSpans,
    predictions: FlatSpans,
    table: WeightTable,
    min_overlap: float | None,
    type_names: list[str],
) -> tuple[np.ndarray, ...]:
    """`value.value_pair` for a whole batch of sorted, disjoint spans, as columns (scenario index, reference type
    id, predicted type id, reference start, reference end, prediction start, prediction end; -1 on an unpaired
    side). An entity that overlaps one entity which overlaps only it pairs with it (every worth is >= 0, and a
    pair more wins a tie): those, and the entities that overlap nothing, are settled on arrays; the rest, chains
    with a fork, go through the exact `value.value_pair` (spans never cross a sentence, so neither do its
    components)."""
    none = np.int64(-1)
    first = np.searchsorted(predictions.end, references.start, side="right")
    degree = np.searchsorted(predictions.start, references.end, side="left") - first
    edge_r, edge_p = kept_edges(
        *ranges(first, degree), references.start, references.end, predictions.start, predictions.end, min_overlap
    )
    degree_r = np.bincount(edge_r, minlength=len(references.start))
    degree_p = np.bincount(edge_p, minlength=len(predictions.start))
    simple = (degree_r[edge_r] == 1) & (degree_p[edge_p] == 1)
    pair_r, pair_p = edge_r[simple], edge_p[simple]
    types_r, types_p = references.type_id[pair_r], predictions.type_id[pair_p]
    # Each pair's extents gathered once, for the comparison and the columns.
    extent_r = (references.start[pair_r], references.end[pair_r])
    extent_p = (predictions.start[pair_p], predictions.end[pair_p])
    same_bounds = (extent_r[0] == extent_p[0]) & (extent_r[1] == extent_p[1])
    same_type = types_r == types_p
    kind = scenario_codes(same_bounds, same_type)
    lone_r, lone_p = np.flatnonzero(degree_r == 0), np.flatnonzero(degree_p == 0)
    absent_r, absent_p = np.full(len(lone_r), none), np.full(len(lone_p), none)
    lone_extent_r = (references.start[lone_r], references.end[lone_r])
    lone_extent_p = (predictions.start[lone_p], predictions.end[lone_p])
    groups: list[Sequence[Any]] = [
        (kind, types_r, types_p, *extent_r, *extent_p),
        (np.full(len(lone_r), Scenario.III), references.type_id[lone_r], absent_r, *lone_extent_r, absent_r, absent_r),
        (np.full(len(lone_p), Scenario.II), absent_p, predictions.type_id[lone_p], absent_p, absent_p, *lone_extent_p),
    ]
    # Entities with an edge that are not in a one-to-one pair: the chains with a fork (masks, not set
    # differences, which would sort).
    has_r, has_p = degree_r > 0, degree_p > 0
    has_r[pair_r] = False
    has_p[pair_p] = False
    forked_r, forked_p = np.flatnonzero(has_r), np.flatnonzero(has_p)
    if len(forked_r) or len(forked_p):
        spans_r = _as_spans(references.select(forked_r), type_names)
        spans_p = _as_spans(predictions.select(forked_p), type_names)
        paired = value_pair(spans_r, spans_p, table, min_overlap)
        groups.append(Pairs.of_rows([(0, r, p) for r, p in paired], type_names).columns()[1:])  # sentence dropped
    return tuple(np.concatenate([np.asarray(group[column], dtype=np.int64) for group in groups]) for column in range(7))


def _as_spans(spans: FlatSpans, type_names: Sequence[str]) -> list[Span]:
    columns = spans.start.tolist(), spans.end.tolist(), spans.type_id.tolist()
    return [Span(start, end, type_names[type_id]) for start, end, type_id in zip(*columns)]


# The reducers, those that fill the `Tally`'s fields in the order of its fields, then those of `Counted`.
REDUCERS = (
    Reducer("cells", PAIR_COLUMNS[1:4], lambda options: True, lambda reduction: cells(reduction.pairs)),
    Reducer(
        "credit",
        PAIR_COLUMNS[1:],
        lambda options: options.partial_credit == OVERLAP,
        lambda reduction: overlap_credit(reduction.pairs),
    ),
    Reducer(
        "value_cells",
        PAIR_COLUMNS,  # the value pairing pairs the table's entities again (§10)
        lambda options: options.value is not None,
        lambda reduction: cells(reduction.value_pairs),
    ),
    Reducer(
        "diagnostics",
        ("sentence", "scenario", "reference_start", "reference_end", "predicted_start", "predicted_end"),
        lambda options: options.diagnostics,
        lambda reduction: diagnostics(reduction.pairs, reduction.options.min_overlap),
    ),
    Reducer(
        "errors",
        PAIR_COLUMNS,
        lambda options: bool(options.errors),
        lambda reduction: errors(reduction.pairs, reduction.columns, reduction.row_texts),
    ),
    Reducer(
        "slices",
        SLICE_COLUMNS,
        lambda options: bool(options.slices),
        lambda reduction: count_slices(
            reduction.pairs,
            reduction.options,
            reduction.columns,
            reduction.facts,
            reduction.keep_sentences,
            reduction.row_texts,
        ),
    ),
)
_TALLY_FIELDS = frozenset(field.name for field in fields(Tally))


def tally(reduction: Reduction, tokens: TokenCounts | None = None) -> Tally:
    """The `Tally` of a batch: every reducer of its fields its options ask for, once."""
    found = {
        reducer.field: reducer.reduce(reduction)
        for reducer in REDUCERS
        if reducer.field in _TALLY_FIELDS and reducer.wanted(reduction.options)
    }
    return Tally(found.pop("cells"), tokens, **found)


def counted(
    reduction: Reduction,
    tokens: TokenCounts | None,
    keep_sentences: bool,
    slice_input: tuple[Pairs, SentenceFacts] | None = None,
) -> Counted:
    """What `count_batch` returns of a batch: its tally, with `keep_sentences` each sentence's scenario counts
    and weighted columns (§9, §10), and the other reducers' fields (slices) where `slice_input` gives what they
    read besides the table (the sentence facts); `slice_input` (the table and the facts) is kept as its rows."""
    sentence_counts = weighted = None
    if keep_sentences:
        sentence_counts = scenario_counts(reduction.pairs)
        if weighted_width(reduction.options):
            weighted = weighted_columns(reduction)
    if slice_input is None:
        return Counted(tally(reduction, tokens), sentence_counts, per_sentence_floats=weighted)
    # One reduction for the tally and the rest, so that what they share (`Reduction.row_texts`) is found once.
    reduction = replace(reduction, facts=slice_input[1], keep_sentences=keep_sentences)
    counted = Counted(tally(reduction, tokens), sentence_counts, rows=slice_input, per_sentence_floats=weighted)
    if reduction.options.value is not None and reduction.options.return_entities:
        counted = counted._replace(value_pairs=reduction.value_pairs)  # the rows' partners: the tally's own table
    return counted._replace(**batch_fields(reduction))


def batch_fields(reduction: Reduction) -> dict[str, Any]:
    """The fields of `Counted` that reducers fill (slices), those its options ask for, of a reduction with its
    sentence facts."""
    return {
        reducer.field: reducer.reduce(reduction)
        for reducer in REDUCERS
        if reducer.field not in _TALLY_FIELDS and reducer.wanted(reduction.options)
    }
