"""The table of pairs: what every input path ends in, and what every derived result is reduced from.

One row per pair or unpaired entity of a batch (docs/scoring.md §3): its sentence, its scenario, both entities'
types and extents (-1 on an unpaired side), positions as scored (tokens kept after `ignore_index`, or the spans'
own offsets), so that an entity's text is found in the batch's columns by (sentence, start, end). The readable
path (`nerscore.forms.readable`) defines the table through `Pairs.of_rows`; the array paths
(`nerscore.forms.tag_arrays`, `nerscore.forms.span_arrays`) build the same table faster, and their tests prove the
tables equal. The tally, each sentence's counts, the overlap credit, diagnostics, errors and slices are
reducers over it (`nerscore.table.reducers`, `nerscore.table.slices`). The value score's own pairing (§10) gives a
table of the same shape.

`FlatSpans` is one side of a batch in columns: what the array paths decode and pair. `SentenceFacts` is what the
sentence-level reducers read of each sentence besides its rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..options import EVALUATION_SCHEMES
from ..pairing.rules import SCENARIOS, scenario_of
from ..span import Span
from ..tally import OUTCOMES, Row

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
_SCENARIO_INDEX = {name: position for position, name in enumerate(SCENARIOS)}


@dataclass(frozen=True)
class Pairs:
    """The rows of a pairing as parallel int64 columns: sentence, scenario (index in SCENARIOS), the two type ids
    (indexing `type_names`, -1 for no entity) and the two entities' start and end within their sentence (-1 for
    no entity); `sentences`, the batch's number of sentences (some may have no row)."""

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

    def __len__(self) -> int:
        return len(self.sentence)

    @classmethod
    def of_rows(cls, rows: Iterable[Row], type_names: Sequence[str] | None = None, sentences: int = 0) -> Pairs:
        """The readable path's rows (sentence, reference, prediction); type ids index `type_names` (by default
        the types of the rows, sorted)."""
        rows = list(rows)
        names = (
            list(type_names)
            if type_names is not None
            else sorted({span.entity_type for _, r, p in rows for span in (r, p) if span is not None})
        )
        index = {name: position for position, name in enumerate(names)}
        columns: list[list[int]] = [[] for _ in PAIR_COLUMNS]
        for sentence, r, p in rows:
            values = (
                sentence,
                _SCENARIO_INDEX[scenario_of(r, p)],
                -1 if r is None else index[r.entity_type],
                -1 if p is None else index[p.entity_type],
                -1 if r is None else r.start,
                -1 if r is None else r.end,
                -1 if p is None else p.start,
                -1 if p is None else p.end,
            )
            for column, value in zip(columns, values):
                column.append(value)
        return cls.of_columns([_column(column) for column in columns], names, sentences)

    @classmethod
    def of_columns(cls, columns: Sequence[np.ndarray], type_names: Sequence[str] = (), sentences: int = 0) -> Pairs:
        """From the eight columns in the order of `PAIR_COLUMNS`."""
        sentence, scenario, reference_type, predicted_type, r0, r1, p0, p1 = (_column(column) for column in columns)
        return cls(sentence, scenario, reference_type, predicted_type, r0, r1, p0, p1, tuple(type_names), sentences)

    @classmethod
    def joined(cls, parts: Sequence[Pairs], type_names: Sequence[str], sentences: int = 0) -> Pairs:
        """Rows of several parts of one batch (their sentences already the batch's), type ids indexing
        `type_names`."""
        if any(column.dtype == object for part in parts for column in part.columns()):
            empty = np.zeros(0, dtype=np.int64)
            columns = [np.concatenate([empty, *(getattr(part, name) for part in parts)]) for name in PAIR_COLUMNS]
            return cls.of_columns(columns, type_names, sentences)
        # The columns as rows of one block: one large allocation, which the allocator then keeps for the next
        # call, where eight columns each their own memory are mapped afresh every call (about 0.8 ms of a plain
        # compute_semeval on 20,000 x 20 tags, 35 ms; benchmarks/redesign.py).
        block = np.empty((len(PAIR_COLUMNS), sum(len(part) for part in parts)), dtype=np.int64)
        for row, name in zip(block, PAIR_COLUMNS):
            np.concatenate([getattr(part, name) for part in parts] or [row[:0]], out=row)
        return cls.of_columns(list(block), type_names, sentences)

    def columns(self) -> list[np.ndarray]:
        return [getattr(self, name) for name in PAIR_COLUMNS]

    def renumbered(self, sentence: np.ndarray, sentences: int | None = None) -> Pairs:
        """The same rows placed in other sentences (a chunk's in the batch's)."""
        count = self.sentences if sentences is None else sentences
        return Pairs.of_columns([sentence, *self.columns()[1:]], self.type_names, count)

    def renamed(self, type_names: Sequence[str]) -> Pairs:
        """The same rows with type ids indexing `type_names` (which holds every name of `self.type_names`)."""
        index = {name: position for position, name in enumerate(type_names)}
        ids = np.array([*(index[name] for name in self.type_names), -1], dtype=np.int64)
        columns = self.columns()
        columns[2], columns[3] = ids[columns[2]], ids[columns[3]]
        return Pairs.of_columns(columns, type_names, self.sentences)

    def select(self, keep: np.ndarray) -> Pairs:
        return Pairs.of_columns([column[keep] for column in self.columns()], self.type_names, self.sentences)

    def in_order(self) -> Pairs:
        """The rows in one canonical order (sentence, then every column, type ids by name): two paths that find
        the same pairing give equal tables in this order."""
        rank = self._name_rank()
        keys = (
            self.predicted_end,
            self.predicted_start,
            rank[self.predicted_type],
            rank[self.reference_type],
            self.reference_end,
            self.reference_start,
            self.scenario,
            self.sentence,
        )
        return self.select(np.lexsort(keys))

    def _name_rank(self) -> np.ndarray:
        """Each type id's rank among the names (type ids of the tag path are in the order first met), -1 last
        for no entity."""
        rank = np.argsort(np.argsort(np.array(self.type_names, dtype=object), kind="stable"), kind="stable")
        return np.append(rank, -1).astype(np.int64)

    def spans(
        self, start: np.ndarray, end: np.ndarray, type_id: np.ndarray, made: dict[tuple, Span] | None = None
    ) -> list[Span | None]:
        """The entities of one side's columns as `Span`s (None where there is none). Spans are values: one object
        serves every entity of the same extent and type (`made`, shared by the calls of one table), so that a
        batch makes as many as it has distinct entities, not one per row."""
        names = self.type_names
        made = {} if made is None else made
        out: list[Span | None] = []
        for key in zip(start.tolist(), end.tolist(), type_id.tolist()):
            span = made.get(key)
            if span is None:
                span = made[key] = Span(key[0], key[1], names[key[2]])
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
        return self.select(np.lexsort((*keys, first_end, ~has_r, low, self.sentence)))

    def rows(self) -> list[Row]:
        """The readable path's rows (sentence, reference, prediction), in its order (`in_row_order`)."""
        ordered = self.in_row_order()
        made: dict[tuple, Span] = {}
        references = ordered.spans(ordered.reference_start, ordered.reference_end, ordered.reference_type, made)
        predictions = ordered.spans(ordered.predicted_start, ordered.predicted_end, ordered.predicted_type, made)
        return list(zip(ordered.sentence.tolist(), references, predictions))

    def entity_dicts(self, schemes: Sequence[str] = EVALUATION_SCHEMES) -> list[dict[str, Any]]:
        """The `entities` output, `result_scores.entity_rows(self.rows(), schemes)`, made from the columns: a `Span` and
        a tuple per row besides the dicts would double the new objects that outlive the call, enough at 20,000
        sentences for the garbage collector to walk the whole heap, the input's lists too (2.5x the time of the
        dicts alone; benchmarks/redesign.py)."""
        # Each scenario's last keys (the scenario and its outcomes) made once, as entity_rows makes them.
        tails = [
            {"scenario": scenario, **{scheme: OUTCOMES[scenario][scheme] for scheme in schemes}}
            for scenario in SCENARIOS
        ]
        names = self.type_names
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

    def sides(self) -> tuple[FlatSpans, FlatSpans, np.ndarray, np.ndarray]:
        """Both sides' entities (every entity is in exactly one row), each with its sentence, in the order of
        the rows."""
        has_r, has_p = self.reference_start >= 0, self.predicted_start >= 0
        references = FlatSpans(self.reference_start[has_r], self.reference_end[has_r], self.reference_type[has_r])
        predictions = FlatSpans(self.predicted_start[has_p], self.predicted_end[has_p], self.predicted_type[has_p])
        return references, predictions, self.sentence[has_r], self.sentence[has_p]


def _column(values: Sequence[int] | np.ndarray) -> np.ndarray:
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
