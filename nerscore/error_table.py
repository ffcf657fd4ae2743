"""The errors by surface string (docs/scoring.md §11), as `Tally.errors` counts them: each distinct (scenario,
reference text, reference type, predicted text, predicted type) with its number of rows, kept as integer codes
(`ErrorTable`) from the table of pairs to the result, where `error_rows` ranks them into the `errors` output. A
dict of the same keys is the same count (`Tally` takes either; the table reads as that dict)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, cast

import numpy as np

from .grouping import run_bounds
from .pairing.rules import SCENARIOS

# (scenario, reference text, reference type, predicted text, predicted type), None on an unpaired side: what
# `errors` counts (docs/scoring.md §11).
ErrorKey = tuple[str, str | None, str | None, str | None, str | None]
ERROR_FIELDS = ("scenario", "reference_text", "reference_type", "predicted_text", "predicted_type")
# Each scenario index's place among the scenarios' names sorted as strings ("II" before "IV"): the rows' order.
_SCENARIO_RANK = np.argsort(np.argsort(np.array(SCENARIOS)))


def distinct_ids(values: Sequence[str | None]) -> tuple[list[str], np.ndarray]:
    """The distinct strings of `values` (None left out), in order of first occurrence, and each value's index
    into them, -1 for None: one dict of the values, built and read in C."""
    last = dict(zip(values, range(len(values))))  # each distinct value's last place
    places = np.fromiter(map(last.__getitem__, values), np.int64, len(values))
    last.pop(None, None)
    lookup = np.full(len(values), -1, dtype=np.int64)  # a value's last place to its index, -1 for None
    lookup[np.fromiter(last.values(), np.int64, len(last))] = np.arange(len(last))
    return cast(list[str], list(last)), lookup[places]


def ranked_ids(values: Sequence[str | None]) -> tuple[list[str], np.ndarray]:
    """The distinct strings of `values` (None left out) in string order, and each value's index into them, -1 for
    None: an index is then the string's rank, so that the rows are ranked without sorting the strings again."""
    distinct = set(values)
    distinct.discard(None)
    names = sorted(cast(set[str], distinct))
    index: dict[str | None, int] = dict(zip(names, range(len(names))))
    index[None] = -1
    return names, np.fromiter(map(index.__getitem__, values), np.int64, len(values))


def _ranks(names: Sequence[str], used: np.ndarray) -> np.ndarray:
    """Each name of those `used` (codes, -1 for None) ranked by its place in string order, counted from 1, and 0
    for None (code -1, the last entry): of 100,000 type names, those the errors name alone are sorted."""
    ranks = np.zeros(len(names) + 1, dtype=np.int64)
    order = sorted(np.unique(used[used >= 0]).tolist(), key=names.__getitem__)
    ranks[order] = np.arange(1, len(order) + 1)
    return ranks


def _used(codes: np.ndarray, names: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """`codes` (a column or several, -1 for None) renumbered over the names they use alone, and those names."""
    used = np.unique(codes[codes >= 0])
    lookup = np.full(len(names) + 1, -1, dtype=np.int64)  # (code -1, None, stays -1)
    lookup[used] = np.arange(len(used))
    return lookup[codes], [names[i] for i in used.tolist()]


KeyT = TypeVar("KeyT")


class CodedCounts(Mapping[KeyT, int], Generic[KeyT]):
    """Counts kept as integer columns, one row a distinct key, `number` each row's count (`ErrorTable` here,
    `tally.CellTable`), read as the dict of their keys only where a key is looked up (`named`); equal to that dict,
    and pickled as it: a few keys' dict is smaller than their columns (an accumulator sent to another process
    carries its counts, tests/test_accumulator.py)."""

    number: np.ndarray
    _named: dict[KeyT, int] | None = None

    def _keys(self) -> Iterable[KeyT]:
        """Each row's key, in the rows' order."""
        raise NotImplementedError

    @property
    def named(self) -> dict[KeyT, int]:
        if self._named is None:
            self._named = dict(zip(self._keys(), self.number.tolist()))
        return self._named

    def __getitem__(self, key: KeyT) -> int:
        return self.named[key]

    def __iter__(self) -> Iterator[KeyT]:
        return iter(self.named)

    def __len__(self) -> int:
        return len(self.number)

    def __eq__(self, other: object) -> bool:
        return self.named == (other.named if isinstance(other, CodedCounts) else other)

    __hash__ = None  # type: ignore[assignment]  # as a dict's

    def __repr__(self) -> str:
        return repr(self.named)

    def __reduce__(self) -> tuple[Any, ...]:
        return dict, (self.named,)


class ErrorTable(CodedCounts[ErrorKey]):
    """`Tally.errors` as integer codes: one row a distinct error, columns (scenario index, reference text,
    reference type, predicted text, predicted type), the texts indices into `texts` (distinct, in string order:
    a text's index is its rank) and the types into `type_names`, -1 for an unpaired side; and each row's count.
    Read as the mapping of `ErrorKey`s only where a key is looked up; `error_rows` ranks the codes (strings made
    only for the rows written: a dict of 5,000 tuples of strings, counted, sorted and added, took a fifth of
    everything on 20,000 x 20 tags, benchmarks/redesign.py)."""

    def __init__(self, codes: np.ndarray, number: np.ndarray, texts: Sequence[str], type_names: Sequence[str]):
        # Distinct rows of `codes` (rows x 5), distinct `texts` in string order and distinct `type_names`: one
        # error a row (`counted` makes them so).
        self.codes, self.number, self.texts, self.type_names = codes, number, texts, type_names

    @classmethod
    def counted(
        cls,
        codes: np.ndarray,
        texts: Sequence[str | None],
        type_names: Sequence[str],
        number: np.ndarray | None = None,
        distinct: bool = False,
    ) -> ErrorTable:
        """The table of rows `codes` (each counted once, or `number` times), equal rows summed. `texts` may name a
        string twice (tables added, or one text a row) or hold None (a code of it reads as no entity): each
        string is given one code, its rank in string order. Unless `distinct`, `type_names` may name a type twice
        too."""
        texts, text_ids = ranked_ids(texts)
        codes = codes.copy()
        codes[:, (1, 3)] = np.append(text_ids, -1)[codes[:, (1, 3)]]  # (code -1, no entity, stays -1)
        if not distinct:
            type_names, type_ids = distinct_ids(type_names)
            codes[:, (2, 4)] = np.append(type_ids, -1)[codes[:, (2, 4)]]
        number = np.ones(len(codes), dtype=np.int64) if number is None else number
        if not len(codes):
            return cls(codes, number, texts, type_names)
        order = np.lexsort(codes.T[::-1])
        codes = codes[order]
        first = run_bounds(*codes.T)[:-1]
        return cls(codes[first], np.add.reduceat(number[order], first), texts, type_names)

    @classmethod
    def of(cls, errors: Mapping[ErrorKey, int]) -> ErrorTable:
        """The table of a mapping of `ErrorKey`s."""
        keys = list(errors)
        columns = list(zip(*keys)) if keys else [()] * len(ERROR_FIELDS)
        names, type_ids = distinct_ids([*columns[2], *columns[4]])
        size = len(keys)
        scenario = np.fromiter(map(SCENARIOS.index, columns[0]), np.int64, size)
        # Each key's texts are entries of the texts given: the reference's the first `size`, the prediction's after.
        places = np.arange(2 * size, dtype=np.int64)
        codes = np.stack((scenario, places[:size], type_ids[:size], places[size:], type_ids[size:]), axis=1)
        texts = [*columns[1], *columns[3]]
        return cls.counted(codes, texts, names, np.fromiter(errors.values(), np.int64, size), distinct=True)

    def __add__(self, other: ErrorTable) -> ErrorTable:
        if not isinstance(other, ErrorTable):
            return NotImplemented
        # Each side's types renumbered over those it names (a batch's table names every type of the batch).
        (types_a, names_a), (types_b, names_b) = (
            _used(self.codes[:, (2, 4)], self.type_names),
            _used(other.codes[:, (2, 4)], other.type_names),
        )
        moved = other.codes.copy()
        moved[:, (1, 3)] += np.where(moved[:, (1, 3)] >= 0, len(self.texts), 0)
        moved[:, (2, 4)] = np.where(types_b >= 0, types_b + len(names_a), -1)
        codes = np.concatenate((self.codes, moved))
        codes[: len(self.codes), (2, 4)] = types_a
        return ErrorTable.counted(
            codes, [*self.texts, *other.texts], [*names_a, *names_b], np.concatenate((self.number, other.number))
        )

    def rows(self, limit: int | None = None) -> list[dict[str, Any]]:
        """`error_rows` of the table: the codes ranked by np.lexsort on each column's place in string order
        (None first), most frequent first; strings looked up for the rows kept alone."""
        codes = self.codes.T
        types = _ranks(self.type_names, codes[(2, 4),])
        # A text's code is its rank already (`counted`), and None's, -1, comes first.
        ranked = (types[codes[4]], codes[3], types[codes[2]], codes[1], _SCENARIO_RANK[codes[0]])
        order = np.lexsort((*ranked, -self.number))[:limit]
        text_names, type_names = [*self.texts, None], [*self.type_names, None]
        # Column by column (a list a row, as tolist of the rows makes, is a container the collector traverses).
        columns = [column.tolist() for column in self.codes[order].T]
        return [
            {
                "scenario": scenario,
                "reference_text": reference_text,
                "reference_type": reference_type,
                "predicted_text": predicted_text,
                "predicted_type": predicted_type,
                "count": count,
            }
            for scenario, reference_text, reference_type, predicted_text, predicted_type, count in zip(
                map(SCENARIOS.__getitem__, columns[0]),
                map(text_names.__getitem__, columns[1]),
                map(type_names.__getitem__, columns[2]),
                map(text_names.__getitem__, columns[3]),
                map(type_names.__getitem__, columns[4]),
                self.number[order].tolist(),
            )
        ]

    @property
    def errors(self) -> dict[ErrorKey, int]:
        return self.named

    def _keys(self) -> Iterator[ErrorKey]:
        text_names, type_names = [*self.texts, None], [*self.type_names, None]
        columns = [column.tolist() for column in self.codes.T]
        return zip(
            map(SCENARIOS.__getitem__, columns[0]),
            map(text_names.__getitem__, columns[1]),
            map(type_names.__getitem__, columns[2]),
            map(text_names.__getitem__, columns[3]),
            map(type_names.__getitem__, columns[4]),
        )


def added_errors(a: Mapping[ErrorKey, int] | None, b: Mapping[ErrorKey, int] | None) -> Mapping[ErrorKey, int] | None:
    """The errors of two tallies added: a table where both have errors, else the one that has (None: neither)."""
    if a is None or b is None:
        return a if b is None else b
    return _as_table(a) + _as_table(b)


def _as_table(errors: Mapping[ErrorKey, int]) -> ErrorTable:
    return errors if isinstance(errors, ErrorTable) else ErrorTable.of(errors)


def error_rows(errors: Mapping[ErrorKey, int], limit: int | None = None) -> list[dict[str, Any]]:
    """The `errors` output (docs/scoring.md §11): one dict per distinct (scenario, texts, types) with its count,
    most frequent first, ties by the values in order (None first); the first `limit` rows when given."""
    return _as_table(errors).rows(limit)
