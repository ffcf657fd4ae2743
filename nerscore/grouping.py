"""Two numpy idioms by which the array paths group their rows, written once: the runs of equal rows of sorted
columns (where each group begins and ends), and ranges of indices laid end to end (the members of each group, the
pairs of each entity). numpy only; every function takes and returns arrays, time and memory those of its output."""

from __future__ import annotations

from typing import Any

import numpy as np


def run_starts(*columns: np.ndarray) -> np.ndarray:
    """The first index of each run of equal rows of `columns` (one or more arrays of one length, sorted so that
    equal rows stand together), in order: the first row of each group; none for no row."""
    size = len(columns[0])
    new = np.ones(size, dtype=bool)
    if size > 1:
        changed = new[1:]
        changed[:] = columns[0][1:] != columns[0][:-1]
        for column in columns[1:]:
            changed |= np.asarray(column[1:] != column[:-1], dtype=bool)
    return np.flatnonzero(new)


def run_bounds(*columns: np.ndarray) -> np.ndarray:
    """`run_starts` and then the number of rows: run k is rows bounds[k] to bounds[k + 1] (its length
    `np.diff(bounds)[k]`)."""
    return np.append(run_starts(*columns), len(columns[0]))


def ranges(first: np.ndarray, count: np.ndarray, dtype: Any = np.int64) -> tuple[np.ndarray, np.ndarray]:
    """The ranges first[k], first[k] + 1, ..., first[k] + count[k] - 1 laid end to end (none where count[k] <= 0),
    as two arrays of `dtype`: each value's k, and the value."""
    count = np.maximum(count, 0)
    owner = np.repeat(np.arange(len(count), dtype=dtype), count)
    value = np.arange(len(owner), dtype=dtype)
    value += np.repeat((np.asarray(first) - (np.cumsum(count) - count)).astype(dtype), count)
    return owner, value
