"""nerscore.pairing.recent: a result is read back under its whole input only, the least recently used go first, and
the value pairing of a hostile sentence reads what §3's pairing of it found (issue 31, item 6), with the answer it
finds alone."""

from __future__ import annotations

from collections.abc import Iterator
from unittest import mock

import numpy as np
import pytest
from conftest import forget_recent
from test_dense import red_team_onion

from nerscore import compute_semeval
from nerscore.pairing import dense, recent, staircase


@pytest.fixture(autouse=True)
def empty_store() -> Iterator[None]:
    forget_recent()
    yield
    forget_recent()


def arrays(*values: list[int]) -> list[np.ndarray]:
    return [np.array(value, np.int64) for value in values]


def test_a_result_is_read_back_under_its_whole_input_only() -> None:
    key = recent.key_of("chain", *arrays([1, 2], [3]))
    recent.remember(key, tuple(arrays([7, 8])))
    found = recent.recall(recent.key_of("chain", *arrays([1, 2], [3])))
    assert found is not None and found[0].tolist() == [7, 8]
    found[0][0] = 0  # a copy: the kept result stays
    again = recent.recall(key)
    assert again is not None and again[0].tolist() == [7, 8]
    # The same values split otherwise, another kind, other values: not the same input.
    for other in (
        recent.key_of("chain", *arrays([1], [2, 3])),
        recent.key_of("staircase", *arrays([1, 2], [3])),
        recent.key_of("chain", *arrays([1, 2], [4])),
        None,
    ):
        assert recent.recall(other) is None
    assert recent.key_of("chain", np.array([1, 2**70], dtype=object), np.array([3])) is None  # past int64


def test_the_least_recently_used_go_first_and_the_large_are_not_kept(monkeypatch) -> None:
    monkeypatch.setattr(recent, "_HELD", 40)
    monkeypatch.setattr(recent, "KEPT_LARGEST", 20)
    # A key of n integers holds n + 1 (their lengths first), a result its own.
    keys = [recent.key_of("k", *arrays([n] * 5)) for n in range(4)]
    for n, key in enumerate(keys[:3]):
        recent.remember(key, tuple(arrays([n] * 5)))  # 11 integers each: three fit in 40
    assert recent.recall(keys[0]) is not None  # now the most recently used
    recent.remember(keys[3], tuple(arrays([3] * 5)))  # 44 held: the least recently used (keys[1]) goes
    assert [recent.recall(key) is not None for key in keys] == [True, False, True, True]
    assert recent.key_of("k", *arrays([0] * 21)) is None  # too large to keep
    large = recent.key_of("k", *arrays([9] * 5))
    recent.remember(large, tuple(arrays([0] * 15)))  # 21 integers with its key
    assert recent.recall(large) is None


# benchmarks/hostile.py's shapes: a dense sentence (the cells it starts from), a dense staircase (its runs), a
# staircase of short windows (the programme on its listed pairs).
SHAPES = {
    "onion": (red_team_onion(300), "_neighbours"),
    "two-type staircase": (
        (
            [(i + 1, i + 302, "AB"[i % 3 % 2]) for i in range(300)],
            [(i, i + 300, "AB"[i % 2]) for i in range(300)],
        ),
        "_neighbours",
    ),
    "dense staircase": (
        ([(i + 1, i + 302, "A") for i in range(300)], [(i, i + 300, "A") for i in range(300)]),
        "best_staircase",
    ),
    "staircase": (([(i + 1, i + 12, "A") for i in range(600)], [(i, i + 10, "A") for i in range(600)]), "_chain"),
}


@pytest.mark.parametrize("sentences", [1, 3])
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("weights", [True, {"type_error": 0.75, "false_alarm": 0.25}], ids=["default", "weighted"])
def test_the_value_pairing_reads_what_the_pairing_of_the_same_sentence_found(shape, weights, sentences) -> None:
    # The solver runs for §3's pairing alone with value=True (the value's reads its answers, or its tight cells
    # to start from, however the two place the sentences), twice as often where nothing is read back, and the
    # scores are the same.
    (predictions, references), solver = SHAPES[shape]
    batch = {"predictions": [predictions] * sentences, "references": [references] * sentences, "value": weights}
    module = dense if solver == "_neighbours" else staircase
    names = ["_chain_on_lists", "_chain_on_numpy"] if solver == "_chain" else [solver]
    counted, results = {}, {}
    for reused in (True, False):
        forget_recent()
        spies = {name: mock.Mock(wraps=getattr(module, name)) for name in names}
        with mock.patch.multiple(module, **spies):
            if reused:
                results[reused] = compute_semeval(**batch)
            else:
                with (
                    mock.patch.object(dense, "recall", return_value=None),
                    mock.patch.object(staircase, "recall", return_value=None),
                ):
                    results[reused] = compute_semeval(**batch)
        counted[reused] = sum(spy.call_count for spy in spies.values())
    assert counted[False] == 2 * counted[True] > 0
    assert results[True] == results[False]
