"""The resampling loops (issue 16, item 7): resamples drawn and scored in blocks, so that memory stays flat in the
number of resamples, with the numbers of the code that held every resample (docs/scoring.md §9)."""

from __future__ import annotations

import itertools
import tracemalloc
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_statistics import SENTENCES, sample_batch, two_systems

import nerscore as ns
from nerscore.statistics import resampling

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------------------------
# The quantiles of statistics that come in blocks are np.quantile's, to the last bit
# ---------------------------------------------------------------------------------------------------------

# Values as the statistics take them: few distinct values (a few sentences: many ties), or many; some outside
# [-1, 1], where the bins end, and the ends of the bins themselves.
VALUES = st.one_of(
    st.sampled_from([0.0, 0.25, 1 / 3, 0.5, 1.0]),
    st.floats(-1, 1, allow_nan=False),
    st.sampled_from([-1.0, 1.0, -3.0, 2.5, 1 - 2**-17, -1 + 2**-17]),
)
LEVELS = st.one_of(st.sampled_from([0.0, 1.0, 0.025, 0.975, 0.5]), st.floats(0, 1))


def blocks_of(values: np.ndarray, sizes: list[int]) -> resampling.Blocks:
    bounds = np.cumsum([0, *sizes])
    return lambda: (values[start:end] for start, end in itertools.pairwise(bounds))


def quantiles(values: np.ndarray, sizes: list[int], levels: list[list[float]]) -> np.ndarray:
    """`_Quantiles` in two passes over the blocks, however few the values (none is simply held)."""
    with mock.patch.object(resampling, "_RESAMPLE_BLOCK_CELLS", 0):
        counted = resampling._Quantiles(values.shape[1])
        for block in blocks_of(values, sizes)():
            counted.count(block)
        assert counted.held is None
        return counted.at(levels, blocks_of(values, sizes))


@SETTINGS
@given(data=st.data())
def test_quantiles_of_blocks_are_numpys(data: st.DataObject) -> None:
    columns = data.draw(st.integers(1, 3))
    sizes = data.draw(st.lists(st.integers(1, 40), min_size=1, max_size=6))
    shape = (sum(sizes), columns)
    values = np.array(data.draw(st.lists(VALUES, min_size=shape[0] * columns, max_size=shape[0] * columns)))
    values = values.reshape(shape)
    levels = [data.draw(st.lists(LEVELS, min_size=2, max_size=2)) for _ in range(columns)]
    expected = np.array([np.quantile(values[:, column], levels[column]) for column in range(columns)])
    # Bit for bit: array_equal, not approx.
    np.testing.assert_array_equal(quantiles(values, sizes, levels), expected)


def test_quantiles_of_many_values_in_few_bins_are_numpys() -> None:
    # A large test set makes the statistics vary in the fourth decimal: thousands of values to a bin.
    rng = np.random.default_rng(0)
    values = 0.4 + rng.normal(0, 1e-4, size=(60_000, 2))
    values[:, 1] = np.round(values[:, 1], 6)  # and many ties among them
    levels = [[0.025, 0.975], [0.01, 0.6]]
    expected = [np.quantile(values[:, column], levels[column]) for column in range(2)]
    np.testing.assert_array_equal(quantiles(values, [8192] * 7 + [60_000 - 7 * 8192], levels), expected)


def test_a_nan_among_the_values_makes_the_quantiles_nan_as_in_numpy() -> None:
    values = np.array([[0.5, 0.1], [np.nan, 0.2], [0.25, 0.3], [0.75, 0.4]])
    result = quantiles(values, [1, 1, 2], [[0.1, 0.9], [0.1, 0.9]])
    assert np.isnan(result[0]).all()
    np.testing.assert_array_equal(result[1], np.quantile(values[:, 1], [0.1, 0.9]))


# ---------------------------------------------------------------------------------------------------------
# The numbers are those of e2fb4c1, which held every resample (the draws are the same)
# ---------------------------------------------------------------------------------------------------------

# Computed at e2fb4c1 (float.hex): 50,000 resamples, more than `_Quantiles` holds, so found in two passes.
E2FB4C1_INTERVALS = {
    "strict_precision_low": "0x1.7ae147ae147aep-1",
    "strict_f1_low": "0x1.6d0d25e5b434ap-1",
    "strict_f1_high": "0x1.a79e79e79e79ep-1",
    "exact_recall_high": "0x1.b745d1745d174p-1",
    "partial_precision_low": "0x1.c0da740da740ep-1",
    "type_f1_high": "0x1.b7c12d8bc775dp-1",
}
E2FB4C1_COMPARISON = {
    "strict_f1_delta_low": "-0x1.116168f84257ep-4",
    "strict_f1_delta_high": "0x1.fea8a64e55123p-4",
    "strict_f1_p_value": "0x1.2895dea0e5dcfp-1",
    "partial_recall_delta_low": "-0x1.ed3c506b39a20p-5",
    "type_precision_delta_high": "0x1.792f4cabe20d1p-4",
    "exact_f1_p_value": "0x1.a68b8ee42722fp-1",
}


@pytest.mark.parametrize(
    "block_cells", [resampling._RESAMPLE_BLOCK_CELLS, 1 << 12, 1 << 24], ids=["default", "small", "all-held"]
)
def test_the_numbers_are_those_of_the_code_that_held_every_resample(
    block_cells: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(resampling, "_RESAMPLE_BLOCK_CELLS", block_cells)
    result = ns.compute_semeval(**sample_batch(np.random.default_rng(11), 200), bootstrap=50_000, seed=3)
    assert {key: result[key].hex() for key in E2FB4C1_INTERVALS} == E2FB4C1_INTERVALS
    compared = ns.compare_semeval(**two_systems(np.random.default_rng(12), 200), n_resamples=50_000, seed=4)
    assert {key: compared[key].hex() for key in E2FB4C1_COMPARISON} == E2FB4C1_COMPARISON


# ---------------------------------------------------------------------------------------------------------
# Memory stays flat in the number of resamples
# ---------------------------------------------------------------------------------------------------------

TEN_SENTENCES = {
    "references": [reference for reference, _ in SENTENCES] + [["B-PER", "O"], ["O", "B-LOC"]],
    "predictions": [prediction for _, prediction in SENTENCES] + [["B-PER", "O"], ["B-LOC", "O"]],
}


def peak_bytes(function, **arguments) -> int:
    tracemalloc.start()
    try:
        function(**arguments)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "function, arguments",
    [
        pytest.param(ns.compute_semeval, {"bootstrap": 100_000}, id="bootstrap"),
        pytest.param(
            ns.compare_semeval,
            {
                "predictions_a": TEN_SENTENCES["predictions"],
                "predictions_b": TEN_SENTENCES["references"][:5] + TEN_SENTENCES["predictions"][5:],
                "n_resamples": 100_000,
            },
            id="compare",
        ),
    ],
)
def test_a_hundred_thousand_resamples_of_ten_sentences_take_little_memory(function, arguments: dict) -> None:
    # Holding every resample's counts and statistics took 55 MB (bootstrap) and 77 MB (compare) here, and ten
    # times that for a million (MAX_RESAMPLES); in blocks, 17-19 MB, 34-38 MB for a million
    # (benchmarks/hostile.py), most of it the resamples' totals, a byte a count here, and fixed costs.
    references = TEN_SENTENCES["references"]
    given = {"predictions": TEN_SENTENCES["predictions"]} if function is ns.compute_semeval else {}
    assert peak_bytes(function, references=references, **given, **arguments) < 30_000_000
