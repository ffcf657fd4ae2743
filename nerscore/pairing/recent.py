"""The last results of the pairing's solvers on large inputs, kept by their input (issue 31, item 6).

With `value=True` a sentence is paired twice, by §3 and by the value score's pairing (docs/scoring.md §10), and on
hostile shapes both run the same solvers on the same entities: a staircase's programme on its runs or on its listed
pairs with the same weights (where every pair has one worth the value's weights are §3's), or a dense sentence's
matching, where the value's starts from the cells §3's left tight. The value's pairing, which comes second, reads
here what the first one found (`dense`, `staircase`): each result is kept under its whole input (the arrays' bytes,
compared whole, never a hash of them), so that what is read back is what the solver would find again, or a start
that the dense solver proves its answer from whatever it is. A thread's result read by another is as good as its
own.

At most `_HELD` integers are kept (8 MB: inputs and results), the least recently used go first, and an input too
large to keep beside them is not kept: an ordinary sentence never comes here, and nothing grows with use.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

from ..grouping import lengths

# What is kept at most, in integers of 8 bytes (keys and results), and an entry's most.
_HELD = 1 << 20
KEPT_LARGEST = _HELD // 4

Key = tuple[str, bytes]

_kept: OrderedDict[Key, tuple[tuple[np.ndarray, ...], int]] = OrderedDict()
_held = 0
_lock = threading.Lock()


def key_of(kind: str, *columns: np.ndarray) -> Key | None:
    """The key of a solver's input: its kind and its arrays' values (int64), each array's length first so that
    no two inputs read alike; None where the input is too large to keep."""
    if sum(len(column) for column in columns) > KEPT_LARGEST:
        return None
    parts = [lengths(columns)]
    try:
        parts += [np.asarray(column, np.int64) for column in columns]
    except OverflowError:  # positions past int64 (docs/scoring.md §1 takes any): not kept
        return None
    return kind, b"".join(part.tobytes() for part in parts)


def remember(key: Key | None, result: tuple[np.ndarray, ...]) -> None:
    """Keep `result` under `key` (nothing where the key is None or the whole too large), the least recently used
    results going first past `_HELD` integers."""
    global _held
    if key is None:
        return
    size = len(key[1]) // 8 + sum(len(part) for part in result)
    if size > KEPT_LARGEST:
        return
    with _lock:
        if key in _kept:
            _held -= _kept.pop(key)[1]
        _kept[key] = (tuple(part.copy() for part in result), size)
        _held += size
        while _held > _HELD:
            _held -= _kept.popitem(last=False)[1][1]


def recall(key: Key | None) -> tuple[np.ndarray, ...] | None:
    """A copy of what was kept under `key`, or None."""
    if key is None:
        return None
    with _lock:
        found = _kept.get(key)
        if found is None:
            return None
        _kept.move_to_end(key)
    return tuple(part.copy() for part in found[0])
