"""nerscore.grouping: runs of equal sorted rows, ranges laid end to end and keys counted, against their plain-Python
definitions (itertools.groupby, range, Counter) on named cases and on any input; batches kept as runs of a binary
counter."""

from __future__ import annotations

from collections import Counter
from itertools import groupby, pairwise
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from nerscore.grouping import (
    group_bounds,
    joined_runs,
    key_counts,
    lengths,
    lexsorted,
    merged_runs,
    owners,
    place_in_groups,
    ranges,
    run_bounds,
    run_starts,
)


def groups_of(rows: list[tuple]) -> list[int]:
    """Where each run of equal rows begins, by groupby."""
    starts, at = [], 0
    for _, run in groupby(rows):
        starts.append(at)
        at += len(list(run))
    return starts


@pytest.mark.parametrize(
    ("columns", "starts"),
    [
        pytest.param([[]], [], id="no row"),
        pytest.param([[7]], [0], id="one row"),
        pytest.param([[1, 1, 2, 3, 3, 3]], [0, 2, 3], id="one column"),
        pytest.param([[1, 1, 1, 2], [5, 5, 6, 6]], [0, 2, 3], id="a second column splits a run of the first"),
        pytest.param([[0, 0, 0], [1, 1, 1], [2, 2, 2]], [0], id="all rows equal"),
    ],
)
def test_run_starts_and_bounds(columns: list[list[int]], starts: list[int]) -> None:
    arrays = [np.array(column, dtype=np.int64) for column in columns]
    assert run_starts(*arrays).tolist() == starts
    assert run_bounds(*arrays).tolist() == [*starts, len(columns[0])]


def test_run_starts_of_an_object_column() -> None:
    # Exact ratios' denominators can be Python integers beyond int64 (`measures`).
    column = np.array([2**70, 2**70, 3, 3, 2**80], dtype=object)
    assert run_starts(column).tolist() == [0, 2, 4]


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), max_size=30))
def test_run_starts_are_groupbys(rows: list[tuple[int, int]]) -> None:
    rows.sort()
    columns = [np.array([row[k] for row in rows], dtype=np.int64) for k in range(2)]
    assert run_starts(*columns).tolist() == groups_of(rows)
    assert np.diff(run_bounds(*columns)).tolist() == [len(list(run)) for _, run in groupby(rows)]


@pytest.mark.parametrize(
    ("first", "count", "owners", "values"),
    [
        pytest.param([], [], [], [], id="no range"),
        pytest.param([4], [3], [0, 0, 0], [4, 5, 6], id="one range"),
        pytest.param([4, 0, 9], [2, 0, 1], [0, 0, 2], [4, 5, 9], id="an empty range between"),
        pytest.param([3, 1], [-2, 2], [1, 1], [1, 2], id="a negative count is none"),
    ],
)
def test_ranges(first: list[int], count: list[int], owners: list[int], values: list[int]) -> None:
    owner, value = ranges(np.array(first, dtype=np.int64), np.array(count, dtype=np.int64))
    assert (owner.tolist(), value.tolist()) == (owners, values)


@given(st.lists(st.tuples(st.integers(0, 50), st.integers(-2, 5)), max_size=20), st.sampled_from([np.int32, np.int64]))
def test_ranges_are_ranges_laid_end_to_end(pairs: list[tuple[int, int]], dtype: type) -> None:
    first = np.array([a for a, _ in pairs], dtype=np.int64)
    count = np.array([c for _, c in pairs], dtype=np.int64)
    owner, value = ranges(first, count, dtype)
    expected = [(k, v) for k, (a, c) in enumerate(pairs) for v in range(a, a + c)]
    assert list(zip(owner.tolist(), value.tolist())) == expected
    assert owner.dtype == value.dtype == dtype


@pytest.mark.parametrize(
    "columns",
    [
        pytest.param([[]], id="no row"),
        pytest.param([[5]], id="one row"),
        pytest.param([[2, 1, 2, 1], [0, 9, -3, 9]], id="ties kept in order"),
        pytest.param([[3, 3, 3], [-(2**63), 2**63 - 1, 0]], id="a column spanning int64: np.lexsort"),
        pytest.param([[2**63 - 1, 2**63 - 2, 2**63 - 1], [-(2**63), -(2**63), -(2**63) + 1]], id="at int64's ends"),
        pytest.param([[1, 0, 1], [2**40, -(2**40), 0], [2**30, 0, 1]], id="ranges whose product passes int64"),
    ],
)
def test_lexsorted_named(columns: list[list[int]]) -> None:
    arrays = [np.array(column, dtype=np.int64) for column in columns]
    assert lexsorted(*arrays).tolist() == np.lexsort(arrays[::-1]).tolist()
    rows = list(zip(*columns))
    assert [rows[i] for i in lexsorted(*arrays).tolist()] == sorted(rows)


@given(
    st.integers(1, 4).flatmap(
        lambda width: st.lists(st.tuples(*[st.integers(-(2**63), 2**63 - 1) | st.integers(-3, 3)] * width), max_size=30)
    ),
    st.sampled_from([np.int64, np.int32, np.int8]),
)
def test_lexsorted_is_np_lexsort(rows: list[tuple[int, ...]], dtype: Any) -> None:
    """Whichever way it sorts (one combined integer where the ranges' product fits, np.lexsort where not), the
    order is np.lexsort's, equal rows in their order: Python's stable sort of the rows as tuples."""
    info = np.iinfo(dtype)
    rows = [tuple(min(max(value, int(info.min)), int(info.max)) for value in row) for row in rows]
    width = len(rows[0]) if rows else 1
    arrays = [np.array([row[k] for row in rows], dtype=dtype) for k in range(width)]
    order = lexsorted(*arrays).tolist()
    assert order == np.lexsort(arrays[::-1]).tolist()
    assert order == sorted(range(len(rows)), key=rows.__getitem__)


class _Copied(tuple):
    """A run of rows whose `+` counts the rows it copies."""

    copied = 0

    def __add__(self, other: Any) -> _Copied:  # type: ignore[override]
        _Copied.copied += len(self) + len(other)
        return _Copied(tuple(self) + tuple(other))


@example(sizes=[1] * 512)
@example(sizes=[5, 0] * 300)
@given(st.lists(st.integers(0, 40), max_size=300))
def test_runs_merged_like_a_binary_counter_keep_the_order_and_copy_n_log_n_rows(sizes: list[int]) -> None:
    _Copied.copied, runs, at = 0, (), 0
    for size in sizes:  # one batch at a time, as an Accumulator adds them
        runs = merged_runs((*runs, _Copied(range(at, at + size))), len)
        at += size
    assert len(runs) <= max(1, at).bit_length() + sizes.count(0) + 1
    assert all(len(earlier) > 2 * len(later) for earlier, later in pairwise(runs))
    assert list(joined_runs(runs) if runs else ()) == list(range(at))
    # Each row is copied once a merge it takes part in, and a row's run at least doubles at each: log2 n merges.
    assert _Copied.copied <= 2 * at * (max(1, at).bit_length() + 1)


@given(st.lists(st.integers(0, 99)), st.sampled_from([100, 1 << 40]))
@example([], 100)
def test_keys_counted_are_the_distinct_keys_in_order_with_their_numbers(keys: list[int], size: int) -> None:
    # Few possible keys (or many keys): counted by bincount; else by np.unique. Either way Counter's count, in order.
    distinct, numbers = key_counts(np.array(keys, dtype=np.int64), size)
    assert list(zip(distinct.tolist(), numbers.tolist())) == sorted(Counter(keys).items())


# A position among groups laid end to end (each sentence's tokens in one flat array, as the annotators' bad tags and
# the entities past their text are found) and its group and place in it, past empty groups.
@pytest.mark.parametrize(
    ("lengths", "position", "placed"),
    [
        pytest.param([3], 2, (0, 2), id="one group"),
        pytest.param([2, 3], 2, (1, 0), id="the first of the next group"),
        pytest.param([2, 0, 0, 3], 4, (3, 2), id="past empty groups"),
        pytest.param([0, 1], 0, (1, 0), id="an empty first group"),
    ],
)
def test_place_in_groups(lengths: list[int], position: int, placed: tuple[int, int]) -> None:
    assert place_in_groups(np.array(lengths, dtype=np.int64), position) == placed


@given(st.lists(st.integers(0, 4), min_size=1, max_size=20).filter(any), st.data())
def test_a_place_in_groups_is_that_of_the_position_laid_end_to_end(lengths: list[int], data: st.DataObject) -> None:
    position = data.draw(st.integers(0, sum(lengths) - 1))
    flat = [(group, place) for group, length in enumerate(lengths) for place in range(length)]
    assert place_in_groups(np.array(lengths, dtype=np.int64), position) == flat[position]


# Each sentence's length (`grouping.lengths`, also each text's characters, as the entities past their text and the
# annotators' units are measured): of lists, of texts, of a padded 2-D array (its width).
LENGTHS = {
    "rows": ([["B-X", "O"], [], ("O",)], [2, 0, 1]),
    "texts": (["Ann met", "", "Bo"], [7, 0, 2]),
    "padded-ids": (np.zeros((3, 4), np.int64), [4, 4, 4]),
    "no-sentence": ([], []),
    "ragged-object-array": (np.array([["B-X", "O"], ["O"]], dtype=object), [2, 1]),
}


@pytest.mark.parametrize(("batch", "expected"), LENGTHS.values(), ids=LENGTHS.keys())
def test_the_lengths_of_a_batch(batch: Any, expected: list[int]) -> None:
    measured = lengths(batch)
    assert measured.tolist() == expected and measured.dtype == np.int64


# Each group's bounds laid end to end (`grouping.group_bounds`): where each begins, the total last, int64 whatever
# the counts' type (a mask's running count, as the ids' kept tags).
GROUP_BOUNDS = {
    "groups": (np.array([2, 0, 3], np.int64), [0, 2, 2, 5]),
    "no-group": (np.zeros(0, np.int64), [0]),
    "a-mask": (np.array([True, False, True]), [0, 1, 1, 2]),
}


@pytest.mark.parametrize(("counts", "expected"), GROUP_BOUNDS.values(), ids=GROUP_BOUNDS.keys())
def test_group_bounds(counts: np.ndarray, expected: list[int]) -> None:
    bounds = group_bounds(counts)
    assert bounds.tolist() == expected and bounds.dtype == np.int64


# Each member's group (`grouping.owners`): k repeated counts[k] times, in the dtype asked (the token -> sentence
# table of the tag path is int32).
OWNERS = {
    "groups": ([2, 0, 3], np.int64, [0, 0, 2, 2, 2]),
    "no-group": ([], np.int64, []),
    "int32": (np.array([1, 2]), np.int32, [0, 1, 1]),
}


@pytest.mark.parametrize(("counts", "dtype", "expected"), OWNERS.values(), ids=OWNERS.keys())
def test_owners(counts: Any, dtype: Any, expected: list[int]) -> None:
    owner = owners(counts, dtype)
    assert owner.tolist() == expected and owner.dtype == dtype
