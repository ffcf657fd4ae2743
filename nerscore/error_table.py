"""The errors by surface string (docs/scoring.md §11), as `Tally.errors` counts them: each distinct (scenario,
reference text, reference type, predicted text, predicted type) with its number of rows, kept as integer codes
(`ErrorTable`) from the table of pairs to the result, where `error_rows` ranks them into the `errors` output. A
dict of the same keys is the same count (`Tally` takes either; the table reads as that dict)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, cast

import numpy as np

from .grouping import lexsorted, run_bounds
from .pairing.rules import SCENARIO_INDEX, SCENARIOS

# (scenario, reference text, reference type, predicted text, predicted type), None on an unpaired side: what
# `errors` counts (docs/scoring.md §11).
ErrorKey = tuple[str, str | None, str | None, str | None, str | None]
ERROR_FIELDS = ("scenario", "reference_text", "reference_type", "predicted_text", "predicted_type")
# Each scenario index's place among the scenarios' names sorted as strings ("II" before "IV"): the rows' order.
_SCENARIO_RANK = np.argsort(np.argsort(np.array(SCENARIOS)))
_SCENARIO_NAMES = np.array(SCENARIOS, dtype=object)


def ranked_ids(values: Sequence[str | None]) -> tuple[list[str], np.ndarray]:
    """The distinct strings of `values` (None left out) in string order, and each value's index into them, -1 for
    None: an index is then the string's rank, so that the rows are ranked without sorting the strings again."""
    # One dict, its keys the distinct values, then each one's rank in place (no second dict: 0.15 ms of 6,000).
    index: dict[str | None, int] = dict.fromkeys(values, -1)
    index.pop(None, None)
    names = sorted(cast(dict[str, int], index))
    index.update(zip(names, range(len(names))))
    index[None] = -1
    return names, np.fromiter(map(index.__getitem__, values), np.int64, len(values))


def _ranked_columns(codes: np.ndarray, names: Sequence[str | None]) -> tuple[np.ndarray, list[str]]:
    """`codes` (a column or several, indices into `names`, -1 for None) given as ranks among the distinct names
    they use alone, in string order (`ranked_ids`), and those names: of 100,000 type names, those the errors name
    alone are sorted."""
    named = np.zeros(len(names) + 1, dtype=bool)
    named[codes] = True  # (code -1, None, marks the last place, left out)
    used = np.flatnonzero(named[:-1])
    # Plain strings: a one-token text beside the seen slice is the token given (np.str_ of an array's).
    ranked, ids = ranked_ids(
        [None if name is None else str.__str__(name) for name in map(names.__getitem__, used.tolist())]
    )
    lookup = np.full(len(names) + 1, -1, dtype=np.int64)  # (code -1, None, stays -1)
    lookup[used] = ids
    return lookup[codes], ranked


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
        type_names: Sequence[str | None],
        number: np.ndarray | None = None,
    ) -> ErrorTable:
        """The table of rows `codes` (each counted once, or `number` times), equal rows summed. `texts` and
        `type_names` may name a string twice (tables added, or one text a row) or hold None (a code of it reads
        as no entity): each string is given one code, its rank in string order among those the codes use, and
        the rows are put in the order of their codes, which is `rows`' order of ties."""
        codes = codes.copy()
        codes[:, (1, 3)], texts = _ranked_columns(codes[:, (1, 3)], texts)
        codes[:, (2, 4)], type_names = _ranked_columns(codes[:, (2, 4)], type_names)
        number = np.ones(len(codes), dtype=np.int64) if number is None else number
        if not len(codes):
            return cls(codes, number, texts, type_names)
        order = lexsorted(_SCENARIO_RANK[codes[:, 0]], *codes.T[1:])
        codes = codes[order]
        first = run_bounds(*codes.T)[:-1]
        return cls(codes[first], np.add.reduceat(number[order], first), texts, type_names)

    @classmethod
    def of(cls, errors: Mapping[ErrorKey, int]) -> ErrorTable:
        """The table of a mapping of `ErrorKey`s."""
        keys = list(errors)
        columns = list(zip(*keys)) if keys else [()] * len(ERROR_FIELDS)
        size = len(keys)
        scenario = np.fromiter(map(SCENARIO_INDEX.__getitem__, columns[0]), np.int64, size)
        # Each key's texts and types are entries of the lists given: the reference's the first `size`, the
        # prediction's after.
        places = np.arange(2 * size, dtype=np.int64)
        codes = np.stack((scenario, places[:size], places[:size], places[size:], places[size:]), axis=1)
        texts, types = [*columns[1], *columns[3]], [*columns[2], *columns[4]]
        return cls.counted(codes, texts, types, np.fromiter(errors.values(), np.int64, size))

    def __add__(self, other: ErrorTable) -> ErrorTable:
        if not isinstance(other, ErrorTable):
            return NotImplemented
        moved = other.codes.copy()
        for columns, names in (((1, 3), self.texts), ((2, 4), self.type_names)):
            moved[:, columns] += np.where(moved[:, columns] >= 0, len(names), 0)
        return ErrorTable.counted(
            np.concatenate((self.codes, moved)),
            [*self.texts, *other.texts],
            [*self.type_names, *other.type_names],
            np.concatenate((self.number, other.number)),
        )

    def rows(self, limit: int | None = None) -> list[dict[str, Any]]:
        """`error_rows` of the table: most frequent first, ties in the order of the codes, each a value's place in
        string order (None, -1, first), in which `counted` put the rows; strings looked up for the rows kept
        alone."""
        order = np.argsort(-self.number, kind="stable")[:limit]
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
                *self._named_columns(order), self.number[order].tolist()
            )
        ]

    def _named_columns(self, order: np.ndarray | slice = slice(None)) -> list[list[Any]]:
        """The rows `order`'s values, column by column (a list a row, as tolist of the rows makes, is a container
        the collector traverses): each code's string picked by numpy from an object array of the names (a
        `map` of a list's `__getitem__` over 5,000 rows' codes took 0.5 ms more)."""
        text_names = np.array([*self.texts, None], dtype=object)  # code -1, None, the last
        type_names = np.array([*self.type_names, None], dtype=object)
        codes = self.codes[order]
        names = (_SCENARIO_NAMES, text_names, type_names, text_names, type_names)
        return [column_names[column].tolist() for column_names, column in zip(names, codes.T)]

    def _keys(self) -> Iterator[ErrorKey]:
        return zip(*self._named_columns())


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
