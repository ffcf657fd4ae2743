"""The table of pairs: what every input path ends in, and what every derived result is reduced from.

One row per pair or unpaired entity of a batch (docs/scoring.md §3): its sentence, its scenario, both entities'
types and extents (-1 on an unpaired side), positions as scored (tokens kept after `ignore_index`, or the spans'
own offsets), so that an entity's text is found in the batch's columns by (sentence, start, end). The readable
path (`nerscore.forms.readable`) defines the table through `Pairs.of_rows`; the array paths
(`nerscore.forms.tag_arrays`, `nerscore.forms.span_arrays`) build the same table faster, and their tests prove the
tables equal. The tally, each sentence's counts, the overlap credit, diagnostics, errors and slices are
reducers over it (`nerscore.table.reducers`, `nerscore.table.slices`). The value score's own pairing (§10) gives a
table of the same shape.

Discontinuous entities (docs/scoring.md §12) keep their extents in the start and end columns and their fragments
beside them (`Pairs.reference_fragments`, `Pairs.predicted_fragments`: None for a table whose every entity is
contiguous, so that the array paths' tables and the reducers' array code are as they were); the reducers read
units where a table has them (`Pairs.fragmented`).

`FlatSpans` is one side of a batch in columns: what the array paths decode and pair. `SentenceFacts` is what the
sentence-level reducers read of each sentence besides its rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, repeat
from operator import attrgetter
from types import SimpleNamespace
from typing import Any

import numpy as np

from ..grouping import ranges
from ..options import EVALUATION_SCHEMES
from ..pairing.rules import SCENARIOS, Scenario, scenario_codes, scenario_of
from ..result_scores import entity_rows, row_tails
from ..span import FragmentEntities, Span
from ..tally import Row

# The table's integer columns, in the order `Pairs.of_columns` takes them.
PAIR_COLUMNS = (
    "sentence",
    "scenario",
    "reference_type",
    "predicted_type",
    "reference_start",
    "reference_end",
    "predicted_start",
    "predicted_end",
)


# A row's missing side, read as `Pairs.of_rows` reads an entity: -1 for its type and bounds, no fragments.
_NO_ENTITY = SimpleNamespace(start=-1, end=-1, entity_type=None, fragments=())
_START, _END, _TYPE, _FRAGMENTS = (attrgetter(name) for name in ("start", "end", "entity_type", "fragments"))


@dataclass(frozen=True)
class Pairs:
    """The rows of a pairing as parallel int64 columns: sentence, scenario (index in SCENARIOS), the two type ids
    (indexing `type_names`, -1 for no entity) and the two entities' start and end within their sentence (-1 for
    no entity); `sentences`, the batch's number of sentences (some may have no row). Where an entity is
    discontinuous (docs/scoring.md §12), `reference_fragments` and `predicted_fragments` hold each row's
    fragments as object columns (``()`` for a contiguous entity or none); None where every entity is contiguous.
    The array path gives them as `fragment_runs` instead (each row's entity a run of fragments, `pieces` 0 where
    none): the columns are made of them where read, and the value pairing reads the runs (benchmarks/README.md)."""

    sentence: np.ndarray
    scenario: np.ndarray
    reference_type: np.ndarray
    predicted_type: np.ndarray
    reference_start: np.ndarray
    reference_end: np.ndarray
    predicted_start: np.ndarray
    predicted_end: np.ndarray
    type_names: tuple[str, ...] = ()
    sentences: int = 0
    reference_fragments: np.ndarray | None = None
    predicted_fragments: np.ndarray | None = None
    fragment_runs: tuple[FragmentEntities, FragmentEntities] | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.sentence)

    @property
    def cell_radix(self) -> int:
        """How many values each type digit of `cell_keys` takes: the types, and no entity."""
        return len(self.type_names) + 1

    @cached_property
    def cell_keys(self) -> np.ndarray:
        """Each row's cell (scenario, reference type, predicted type) as one integer in mixed radix: the scenario,
        then the reference type + 1, then the predicted type + 1, each type digit below `cell_radix` (read back by
        `cell_key_columns`). Made once for the tally's cells and every bucket of sentences (`nerscore.table.slices`)."""
        return cell_keys_of(self.scenario, self.reference_type, self.predicted_type, self.cell_radix)

    @property
    def fragmented(self) -> bool:
        """Whether some entity of the table is discontinuous (docs/scoring.md §12)."""
        return self.reference_fragments is not None or self.fragment_runs is not None

    @cached_property
    def fragments(self) -> tuple[np.ndarray, np.ndarray] | None:
        if self.fragment_runs is not None:
            return run_fragments(self.fragment_runs[0]), run_fragments(self.fragment_runs[1])
        if self.reference_fragments is None or self.predicted_fragments is None:
            return None
        return self.reference_fragments, self.predicted_fragments

    def pieces(self, side: int, rows: np.ndarray | None = None) -> list[tuple[tuple[int, int], ...]]:
        """Each row's entity of one side (0: references, 1: predictions) as its fragments (`Span.pieces`; ``()``
        where the row has none), of `rows` (indices) or of every row."""
        start, end = (
            (self.reference_start, self.reference_end) if side == 0 else (self.predicted_start, self.predicted_end)
        )
        kept = self.fragments
        pieces = None if kept is None else kept[side]
        if rows is not None:
            start, end = start[rows], end[rows]
            pieces = None if pieces is None else pieces[rows]
        bounds = zip(start.tolist(), end.tolist(), [()] * len(start) if pieces is None else pieces.tolist())
        return [held or (((a, b),) if a >= 0 else ()) for a, b, held in bounds]

    @classmethod
    def of_rows(cls, rows: Iterable[Row], type_names: Sequence[str] | None = None, sentences: int = 0) -> Pairs:
        """The readable path's rows (sentence, reference, prediction); type ids index `type_names` (by default
        the types of the rows, sorted)."""
        rows = list(rows)
        sides = [r for _, r, _ in rows], [p for _, _, p in rows]
        if not {*map(type, sides[0]), *map(type, sides[1])} <= {Span, type(None)}:  # (a subclass, or no Span)
            for r, p in zip(*sides):
                scenario_of(r, p)  # raises at the first row that is not of Spans or None, saying which side
        # Column by column, by C-level maps, and the scenarios from the columns as the array paths find theirs
        # (`scenario_codes`): a row's call of `scenario_of` and eight appends took 0.33 s of 100,000 rows.
        filled = [[_NO_ENTITY if span is None else span for span in side] for side in sides]
        types = [list(map(_TYPE, side)) for side in filled]
        names = list(type_names) if type_names is not None else sorted({*types[0], *types[1]} - {None})
        type_id: dict[str | None, int] = {**{name: position for position, name in enumerate(names)}, None: -1}
        reference_type, predicted_type = (int_column(list(map(type_id.__getitem__, side))) for side in types)
        r0, r1, p0, p1 = (int_column(list(map(bound, side))) for side in filled for bound in (_START, _END))
        fragments = None
        if any(any(map(_FRAGMENTS, side)) for side in filled):
            fragments = (
                fragment_column(list(map(_FRAGMENTS, filled[0]))),
                fragment_column(list(map(_FRAGMENTS, filled[1]))),
            )
        same_bounds = (r0 == p0) & (r1 == p1)
        if fragments is not None:  # the same fragments too (`Span.same_bounds`, docs/scoring.md §12)
            same_bounds &= np.array([a == b for a, b in zip(*fragments)], dtype=bool)
        scenario = scenario_codes(same_bounds, reference_type == predicted_type)
        scenario[predicted_type < 0] = Scenario.III
        scenario[reference_type < 0] = Scenario.II
        columns = [[sentence for sentence, _, _ in rows], scenario, reference_type, predicted_type, r0, r1, p0, p1]
        return cls.of_columns(columns, names, sentences, fragments)

    @classmethod
    def of_columns(
        cls,
        columns: Sequence[np.ndarray],
        type_names: Sequence[str] = (),
        sentences: int = 0,
        fragments: tuple[np.ndarray, np.ndarray] | None = None,
        runs: tuple[FragmentEntities, FragmentEntities] | None = None,
    ) -> Pairs:
        """From the eight columns in the order of `PAIR_COLUMNS` (and the two fragment columns, or their `runs`,
        where some entity is discontinuous)."""
        sentence, scenario, reference_type, predicted_type, r0, r1, p0, p1 = (int_column(column) for column in columns)
        held_r, held_p = (None, None) if fragments is None else fragments
        return cls(
            sentence,
            scenario,
            reference_type,
            predicted_type,
            r0,
            r1,
            p0,
            p1,
            tuple(type_names),
            sentences,
            held_r,
            held_p,
            runs,
        )

    @classmethod
    def joined(cls, parts: Sequence[Pairs], type_names: Sequence[str], sentences: int = 0) -> Pairs:
        """Rows of several parts of one batch (their sentences already the batch's), type ids indexing
        `type_names`."""
        fragments = None
        if any(part.fragmented for part in parts):
            fragments = (
                np.concatenate([fragment_column([]), *(part.fragment_columns()[0] for part in parts)]),
                np.concatenate([fragment_column([]), *(part.fragment_columns()[1] for part in parts)]),
            )
        if fragments is not None or any(column.dtype == object for part in parts for column in part.columns()):
            empty = np.zeros(0, dtype=np.int64)
            columns = [np.concatenate([empty, *(getattr(part, name) for part in parts)]) for name in PAIR_COLUMNS]
            return cls.of_columns(columns, type_names, sentences, fragments)
        # The columns as rows of one block: one large allocation, which the allocator then keeps for the next
        # call, where eight columns each their own memory are mapped afresh every call (about 0.8 ms of a plain
        # compute_semeval on 20,000 x 20 tags, 35 ms; benchmarks/redesign.py).
        block = np.empty((len(PAIR_COLUMNS), sum(len(part) for part in parts)), dtype=np.int64)
        for row, name in zip(block, PAIR_COLUMNS):
            np.concatenate([getattr(part, name) for part in parts] or [row[:0]], out=row)
        return cls.of_columns(list(block), type_names, sentences)

    def columns(self) -> list[np.ndarray]:
        return [getattr(self, name) for name in PAIR_COLUMNS]

    def fragment_columns(self) -> tuple[np.ndarray, np.ndarray]:
        """Both fragment columns, ``()`` in every row of a table without discontinuous entities."""
        kept = self.fragments
        if kept is not None:
            return kept
        return fragment_column([()] * len(self)), fragment_column([()] * len(self))

    def renumbered(self, sentence: np.ndarray, sentences: int | None = None) -> Pairs:
        """The same rows placed in other sentences (a chunk's in the batch's)."""
        count = self.sentences if sentences is None else sentences
        return Pairs.of_columns([sentence, *self.columns()[1:]], self.type_names, count, self.fragments)

    def renamed(self, type_names: Sequence[str]) -> Pairs:
        """The same rows with type ids indexing `type_names` (which holds every name of `self.type_names`)."""
        index = {name: position for position, name in enumerate(type_names)}
        ids = np.array([*(index[name] for name in self.type_names), -1], dtype=np.int64)
        columns = self.columns()
        columns[2], columns[3] = ids[columns[2]], ids[columns[3]]
        return Pairs.of_columns(columns, type_names, self.sentences, self.fragments)

    def select(self, keep: np.ndarray) -> Pairs:
        kept = self.fragments
        fragments = None if kept is None else (kept[0][keep], kept[1][keep])
        return Pairs.of_columns([column[keep] for column in self.columns()], self.type_names, self.sentences, fragments)

    def _fragment_ranks(self) -> tuple[np.ndarray, ...]:
        """Each row's fragments' rank among the table's, per side (reference, prediction): ties of extent broken
        by fragments (docs/scoring.md §12); nothing for a table without discontinuous entities."""
        kept = self.fragments
        if kept is None:
            return ()
        ranks = []
        for held in kept:
            index = {piece: rank for rank, piece in enumerate(sorted(set(held.tolist())))}
            ranks.append(np.fromiter(map(index.__getitem__, held.tolist()), dtype=np.int64, count=len(held)))
        return tuple(ranks)

    def _name_rank(self) -> np.ndarray:
        """Each type id's rank among the names (type ids of the tag path are in the order first met), -1 last
        for no entity."""
        rank = np.argsort(np.argsort(np.array(self.type_names, dtype=object), kind="stable"), kind="stable")
        return np.append(rank, -1).astype(np.int64)

    def spans(
        self,
        start: np.ndarray,
        end: np.ndarray,
        type_id: np.ndarray,
        made: dict[tuple, Span] | None = None,
        fragments: np.ndarray | None = None,
    ) -> list[Span | None]:
        """The entities of one side's columns as `Span`s (None where there is none). Spans are values: one object
        serves every entity of the same extent and type (`made`, shared by the calls of one table), so that a
        batch makes as many as it has distinct entities, not one per row."""
        names = self.type_names
        made = {} if made is None else made
        out: list[Span | None] = []
        held = repeat(()) if fragments is None else fragments.tolist()
        for key in zip(start.tolist(), end.tolist(), type_id.tolist(), held):
            span = made.get(key)
            if span is None:
                span = made[key] = Span(key[0], key[1], names[key[2]], key[3])
            out.append(None if key[0] < 0 else span)
        return out

    def in_row_order(self) -> Pairs:
        """The rows in the readable path's order, each sentence's in the order of §7 (`pairing.pair`'s): smaller
        start first, a row with a reference first, then by the first entity's end."""
        has_r, paired = self.reference_start >= 0, (self.reference_start >= 0) & (self.predicted_start >= 0)
        first_start = np.where(has_r, self.reference_start, self.predicted_start)
        first_end = np.where(has_r, self.reference_end, self.predicted_end)
        rank = self._name_rank()
        first_type = rank[np.where(has_r, self.reference_type, self.predicted_type)]
        low = np.where(paired, np.minimum(first_start, self.predicted_start), first_start)
        keys = (rank[self.predicted_type], self.predicted_end, self.predicted_start, ~paired, first_type, first_start)
        ties = self._fragment_ranks()[::-1]  # the last keys of `rules._row_position`: fragments, then the first's
        return self.select(np.lexsort((*ties, *keys, first_end, ~has_r, low, self.sentence)))

    def rows(self) -> list[Row]:
        """The readable path's rows (sentence, reference, prediction), in its order (`in_row_order`)."""
        ordered = self.in_row_order()
        made: dict[tuple, Span] = {}
        held_r, held_p = (None, None) if ordered.fragments is None else ordered.fragments
        references = ordered.spans(ordered.reference_start, ordered.reference_end, ordered.reference_type, made, held_r)
        predictions = ordered.spans(
            ordered.predicted_start, ordered.predicted_end, ordered.predicted_type, made, held_p
        )
        return list(zip(ordered.sentence.tolist(), references, predictions))

    def entity_dicts(self, schemes: Sequence[str] = EVALUATION_SCHEMES) -> list[dict[str, Any]]:
        """The `entities` output, `result_scores.entity_rows(self.rows(), schemes)`, made from the columns: a `Span` and
        a tuple per row besides the dicts would double the new objects that outlive the call, enough at 20,000
        sentences for the garbage collector to walk the whole heap, the input's lists too (2.5x the time of the
        dicts alone; benchmarks/redesign.py)."""
        by_name = row_tails(schemes)
        tails = [by_name[scenario] for scenario in SCENARIOS]
        names = self.type_names
        if self.fragmented:  # a row of a discontinuous entity also gives its fragments (§12)
            return entity_rows(self.rows(), schemes)
        columns = (column.tolist() for column in self.in_row_order().columns())
        return [
            {
                "sentence": sentence,
                "reference": None if r0 < 0 else {"start": r0, "end": r1, "type": names[reference_type]},
                "prediction": None if p0 < 0 else {"start": p0, "end": p1, "type": names[predicted_type]},
                **tails[scenario],
            }
            for sentence, scenario, reference_type, predicted_type, r0, r1, p0, p1 in zip(*columns)
        ]

    def partial_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The PAR rows (scenarios V and VI: overlapping, boundaries not the same; docs/scoring.md §4) as indices,
        and their references' starts and ends, then their predictions'."""
        rows = np.flatnonzero((self.scenario == Scenario.V) | (self.scenario == Scenario.VI))
        r0, r1, p0, p1 = self.reference_start, self.reference_end, self.predicted_start, self.predicted_end
        return rows, r0[rows], r1[rows], p0[rows], p1[rows]

    def sides(self) -> tuple[FlatSpans, FlatSpans, np.ndarray, np.ndarray]:
        """Both sides' entities (every entity is in exactly one row), each with its sentence, in the order of
        the rows."""
        has_r, has_p = self.reference_start >= 0, self.predicted_start >= 0
        references = FlatSpans(self.reference_start[has_r], self.reference_end[has_r], self.reference_type[has_r])
        predictions = FlatSpans(self.predicted_start[has_p], self.predicted_end[has_p], self.predicted_type[has_p])
        return references, predictions, self.sentence[has_r], self.sentence[has_p]


def fragment_column(values: Sequence[Any]) -> np.ndarray:
    """An object column of fragment tuples (``()`` for a contiguous entity or none)."""
    return np.fromiter(values, dtype=object, count=len(values))


def run_fragments(runs: FragmentEntities) -> np.ndarray:
    """Each row's fragments (`FragmentEntities` a row: `pieces` 0 where the row has no entity) as `Pairs` holds
    them: a tuple of (start, end) tuples, ``()`` for a contiguous entity or none; one tuple for the copies of one."""
    column = fragment_column([()] * len(runs.pieces))
    held = np.flatnonzero(runs.pieces > 1)
    firsts, at, back = np.unique(runs.first[held], return_index=True, return_inverse=True)
    if len(firsts):
        pieces = runs.pieces[held][at]
        bounds = list(zip(runs.start.tolist(), runs.end.tolist()))
        made = [tuple(bounds[a : a + n]) for a, n in zip(firsts.tolist(), pieces.tolist())]
        column[held] = fragment_column(made)[back.reshape(-1)]
    return column


def tuple_runs(held: np.ndarray, start: np.ndarray, end: np.ndarray) -> FragmentEntities:
    """`run_fragments`' inverse: entities of fragment tuples (`held`; ``()`` for a contiguous entity, its extent
    `start`, `end`) as runs of fragments, their sentence and type left 0."""
    count = np.fromiter(map(len, held), np.int64, len(held))
    pieces = np.maximum(count, 1)
    first = np.cumsum(pieces) - pieces
    starts, ends = np.empty(int(pieces.sum()), np.int64), np.empty(int(pieces.sum()), np.int64)
    alone = count == 0
    starts[first[alone]], ends[first[alone]] = start[alone], end[alone]
    several = np.flatnonzero(~alone)
    if len(several):  # (a contiguous entity's `()` adds nothing to the chain)
        _, at = ranges(first[several], count[several])
        flat = np.fromiter(chain.from_iterable(chain.from_iterable(held.tolist())), np.int64, 2 * len(at))
        starts[at], ends[at] = flat[0::2], flat[1::2]
    zeros = np.zeros(len(held), np.int64)
    return FragmentEntities(zeros, zeros, pieces, first, starts, ends)


def cell_keys_of(scenario: np.ndarray, reference: np.ndarray, predicted: np.ndarray, width: int) -> np.ndarray:
    """Cells (each one's scenario index and two types, -1 for no entity) as one integer each in mixed radix: the
    scenario, then the reference type + 1, then the predicted type + 1, each type digit below `width`."""
    # In place, one new column: each temporary column of a large table is fresh memory the system must map.
    combined = scenario * width
    combined += reference
    combined += 1
    combined *= width
    combined += predicted
    combined += 1
    return combined


def cell_key_columns(keys: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cells of keys made by `cell_keys_of` (each type digit below `width`): each one's scenario index, reference
    type and predicted type, -1 for no entity."""
    kinds, rest = np.divmod(keys, width * width)
    reference_types, predicted_types = np.divmod(rest, width)
    return kinds, reference_types - 1, predicted_types - 1


def piece_units(pieces: Iterable[tuple[tuple[int, int], ...]]) -> np.ndarray:
    """Each entity's units, given as its fragments (`Pairs.pieces`): docs/scoring.md §12's union of its fragments,
    0 for none; as Python ints where they pass int64 (units are bounded by offsets, which §1 does not bound)."""
    return int_column([sum(end - start for start, end in held) for held in pieces])


def int_column(values: Sequence[int] | np.ndarray) -> np.ndarray:
    """A column as int64, or as Python ints where a span's offset is past what int64 holds (docs/scoring.md §1
    takes any non-negative integer): the readable path's table holds them exactly."""
    if isinstance(values, np.ndarray) and values.dtype == object:
        return values
    try:
        return np.asarray(values, dtype=np.int64)
    except OverflowError:
        return np.array(values, dtype=object)


@dataclass(frozen=True)
class FlatSpans:
    """The entities of one side as parallel arrays: `start`, `end` and `type_id`; positions count from the
    batch's start where the array paths place sentences one after another."""

    start: np.ndarray
    end: np.ndarray
    type_id: np.ndarray

    def select(self, keep: np.ndarray | slice) -> FlatSpans:
        return FlatSpans(self.start[keep], self.end[keep], self.type_id[keep])


@dataclass(frozen=True)
class SentenceFacts:
    """What sentence-level slices read of each sentence besides its rows: its length (tokens as scored, or the
    characters of `texts`; None where nothing gives one) and, for tags, its tokens whose two tags are equal
    (`token_accuracy` per bucket)."""

    sentences: int
    lengths: np.ndarray | None = None
    equal: np.ndarray | None = None
