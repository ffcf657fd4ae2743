"""nerscore.pairing.staircase: a staircase paired from its runs, its table kept a block at a time, is
`large_components.best_chain` on the listed pairs, and the array path of spans pairs staircase sentences as `pair`
does (issue 31, item 7)."""

from __future__ import annotations

import random
import tracemalloc
from unittest import mock

import numpy as np
import pytest

from nerscore import compute_semeval
from nerscore.forms import component_arrays
from nerscore.pairing import large_components, staircase
from nerscore.pairing.rules import pair
from nerscore.span import Span


def random_staircase(rng: random.Random, size: int) -> tuple[np.ndarray, ...]:
    """Both sides' starts and ends, sorted by start, ends never decreasing."""

    def side() -> tuple[np.ndarray, np.ndarray]:
        starts = np.sort(rng.choices(range(3 * size), k=size))
        lengths = [rng.randint(1, 8) for _ in range(size)]
        ends = np.maximum.accumulate(starts + np.array(lengths))
        return starts.astype(np.int64), ends.astype(np.int64)

    return (*side(), *side())


@pytest.mark.parametrize("block", [1, 2, 3, 0])
def test_the_runs_programme_is_best_chain_on_the_listed_pairs(block: int) -> None:
    rng = random.Random(block)
    for _ in range(200):
        r_start, r_end, p_start, p_end = random_staircase(rng, rng.randint(1, 12))
        low, high = staircase.runs(r_start, r_end, p_start, p_end)
        i = np.repeat(np.arange(len(low)), np.maximum(high - low, 0))
        j = np.concatenate([np.arange(a, b) for a, b in zip(low.tolist(), high.tolist())] + [np.zeros(0, np.int64)])
        shared = np.minimum(r_end[i], p_end[j]) - np.maximum(r_start[i], p_start[j])
        assert (shared > 0).all() and staircase.pair_count(low, high) == len(i)
        # Every overlapping pair is in a run.
        every = np.minimum.outer(r_end, p_end) - np.maximum.outer(r_start, p_start) > 0
        assert int(every.sum()) == len(i)
        weights = 100 + shared + rng.choice([0, 1]) * (j % 3)  # ties and not

        def of_row(k: int, first: int, last: int, weights=weights, i=i, j=j) -> np.ndarray:
            return weights[(i == k) & (j >= first) & (j < last)]

        found = staircase.best_staircase(low, high, of_row, block)
        if not len(i):
            assert not len(found[0])
            continue
        chosen = large_components.best_chain(i, j, weights)
        assert chosen is not None
        assert sorted(zip(*(side.tolist() for side in found))) == sorted(zip(i[chosen].tolist(), j[chosen].tolist()))


@pytest.mark.parametrize("seed", range(4))
def test_the_programme_on_lists_is_the_programme_on_numpy(seed: int) -> None:
    # Short runs are worked out in plain Python (`_chain_on_lists`), long ones on numpy: the same choice, on
    # windows of any width, gaps between runs, ties and not, edges in any order.
    rng = random.Random(seed)
    for _ in range(300):
        rows = rng.randint(1, 9)
        lows = sorted(rng.randint(0, 8) for _ in range(rows))
        highs = np.maximum.accumulate([low + rng.randint(0, 4) for low in lows]).tolist()
        i = np.concatenate([np.full(high - low + 1, k) for k, (low, high) in enumerate(zip(lows, highs))])
        j = np.concatenate([np.arange(low, high + 1) for low, high in zip(lows, highs)])
        weights = np.array([rng.randint(1, rng.choice([2, 6])) for _ in range(len(i))], np.int64)
        shuffled = np.array(rng.sample(range(len(i)), len(i)))
        found = []
        for short in (0, 10**6):
            with mock.patch.object(staircase, "_SHORT_RUN", short):
                found.append(large_components.best_chain(i[shuffled], j[shuffled], weights[shuffled]))
        assert found[0] is not None and found[1] is not None
        assert found[0].tolist() == found[1].tolist()


def staircase_sentence(rng: random.Random, size: int) -> list[tuple[int, int, str]]:
    starts = sorted(rng.sample(range(2 * size), size))  # distinct: one copy of each
    ends = np.maximum.accumulate([start + rng.randint(1, 12) for start in starts]).tolist()
    return [(start, end, "A") for start, end in zip(starts, ends)]


def test_staircase_sentences_pair_as_pair_does() -> None:
    rng = random.Random(7)
    for _ in range(30):
        sentences = rng.randint(1, 4)
        references = [staircase_sentence(rng, rng.randint(1, 90)) for _ in range(sentences)]
        predictions = [staircase_sentence(rng, rng.randint(1, 90)) for _ in range(sentences)]
        with (
            mock.patch.object(component_arrays, "_PAIRS_PER_SENTENCE", 0),  # every sentence large
            mock.patch.object(staircase, "_LONG_RUN", 0),  # short runs too
            mock.patch.object(staircase, "best_staircase", wraps=staircase.best_staircase) as solved,
        ):
            fast = compute_semeval(predictions=predictions, references=references, per_type=True)
        assert solved.called
        expected = [
            pair([Span(*r) for r in sentence_r], [Span(*p) for p in sentence_p])
            for sentence_r, sentence_p in zip(references, predictions)
        ]
        readable = compute_semeval(predictions=predictions, references=references, per_type=True, return_entities=True)
        entities = readable.pop("entities")
        assert fast == readable
        assert len(entities) == sum(len(rows) for rows in expected)


def test_a_dense_staircase_is_paired_without_listing_its_pairs() -> None:
    # 1,200 a side overlap in 1,439,999 pairs; listed, they took 100 bytes each at the peak.
    n = 1_200
    references = [[(i, i + n, "A") for i in range(n)]]
    predictions = [[(i + 1, i + n + 2, "A") for i in range(n)]]
    tracemalloc.start()
    try:
        result = compute_semeval(predictions=predictions, references=references)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result["strict_correct"] == 0 and result["partial_partial"] == n
    assert peak < 10 * n * n  # bytes: 10 a pair at most


def test_short_runs_are_listed_and_long_ones_are_not() -> None:
    # Windows of 10 (2 million pairs at 100,000 a side) cost less listed; a dense staircase's runs are long.
    windows = [[(i, i + 10, "A") for i in range(600)]], [[(i + 1, i + 12, "A") for i in range(600)]]
    dense = [[(i, i + 600, "A") for i in range(600)]], [[(i + 1, i + 602, "A") for i in range(600)]]
    for (references, predictions), from_runs in ((windows, False), (dense, True)):
        with mock.patch.object(staircase, "best_staircase", wraps=staircase.best_staircase) as solved:
            fast = compute_semeval(predictions=predictions, references=references)
        assert solved.called == from_runs
        readable = compute_semeval(predictions=predictions, references=references, return_entities=True)
        readable.pop("entities")
        assert fast == readable
