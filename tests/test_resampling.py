"""nerscore.statistics.resampling: `compute(bootstrap=N)`'s interval keys (issue 11, docs/scoring.md §9), their
agreement with scipy and their coverage; and the resampling loops (issue 16, item 7): resamples drawn and scored in
blocks, so that memory stays flat in the number of resamples, with the numbers of the code that held every
resample."""

from __future__ import annotations

import itertools
import tracemalloc
from itertools import chain
from unittest import mock

import numpy as np
import pytest
import strategies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_statistics import SENTENCES, WEIGHTS, sample_batch, strict_f1_of_totals, two_systems
from test_unit_counts import readable_by_sentence

import nerscore as ns
from nerscore.forms import tag_arrays
from nerscore.statistics import resampling, sample_statistics

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
    "block_cells",
    [
        pytest.param(resampling._RESAMPLE_BLOCK_CELLS, id="default"),
        pytest.param(1 << 12, id="small", marks=pytest.mark.slow),  # (the full suite's: 2.5 s)
        pytest.param(1 << 24, id="all-held"),
    ],
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


def interval_keys(options: ns.Options) -> list[str]:
    return [f"{key}_{end}" for key in sample_statistics.measure_keys(options) for end in ("low", "high")]


def test_bootstrap_adds_the_interval_keys_and_nothing_else_changes() -> None:
    batch = sample_batch(np.random.default_rng(0), 200)
    plain = ns.compute_semeval(**batch)
    with_intervals = ns.compute_semeval(**batch, bootstrap=200)
    added = {key: value for key, value in with_intervals.items() if key not in plain}
    assert {key: with_intervals[key] for key in plain} == plain
    assert sorted(added) == sorted(interval_keys(ns.Options()))
    assert "strict_f1_low" in added and "strict_precision_high" in added and "type_recall_low" in added
    assert all(isinstance(value, float) for value in added.values())
    beta = ns.compute_semeval(**batch, bootstrap=50, beta=0.5)
    assert "strict_f0.5_low" in beta and "strict_f0.5_high" in beta and "strict_f1_low" not in beta


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others() -> None:
    batch = sample_batch(np.random.default_rng(1), 300)
    first = ns.compute_semeval(**batch, bootstrap=500, seed=7)
    assert ns.compute_semeval(**batch, bootstrap=500, seed=7) == first
    assert ns.compute_semeval(**batch, bootstrap=500) == ns.compute_semeval(**batch, bootstrap=500, seed=0)
    assert ns.compute_semeval(**batch, bootstrap=500, seed=8) != first


def test_intervals_narrow_with_the_confidence_level_and_with_more_sentences() -> None:
    batch = sample_batch(np.random.default_rng(2), 400)
    wide = ns.compute_semeval(**batch, bootstrap=2000, confidence_level=0.99)
    narrow = ns.compute_semeval(**batch, bootstrap=2000, confidence_level=0.8)
    assert wide["strict_f1_low"] < narrow["strict_f1_low"] < narrow["strict_f1_high"] < wide["strict_f1_high"]
    small = ns.compute_semeval(**sample_batch(np.random.default_rng(2), 100), bootstrap=2000)
    large = ns.compute_semeval(**sample_batch(np.random.default_rng(2), 1600), bootstrap=2000)
    # The width shrinks as one over the square root of the sentences: a quarter, give or take.
    ratio = (large["strict_f1_high"] - large["strict_f1_low"]) / (small["strict_f1_high"] - small["strict_f1_low"])
    assert 0.15 < ratio < 0.4


@pytest.mark.parametrize("scheme", ["IOB2", "IOBES"])
@SETTINGS
@given(data=st.data())
def test_intervals_contain_the_point_estimate(scheme: str, data: st.DataObject) -> None:
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=8))
    options = {
        "scheme": scheme,
        "bootstrap": data.draw(st.sampled_from([1, 2, 19, 200])),
        "confidence_level": data.draw(st.sampled_from([0.5, 0.95, 0.999])),
        "zero_division": data.draw(st.sampled_from([0.0, 1.0])),
        "beta": data.draw(st.sampled_from([0.0, 1.0, 2.0])),
        "seed": data.draw(st.integers(0, 2**32)),
    }
    result = ns.compute_semeval(predictions=predictions, references=references, **options)
    for key in sample_statistics.measure_keys(ns.Options.of(**options)):
        assert 0 <= result[f"{key}_low"] <= result[key] <= result[f"{key}_high"] <= 1, key


def test_one_sequence_gives_a_zero_width_interval() -> None:
    # The unit is the sequence as passed: a document passed whole is one unit, and one unit has nothing to
    # resample. No sentence at all is the same.
    document = (
        [list(chain.from_iterable(r for r, _ in SENTENCES))],
        [list(chain.from_iterable(p for _, p in SENTENCES))],
    )
    for references, predictions in (document, ([], [])):
        result = ns.compute_semeval(predictions=predictions, references=references, bootstrap=100)
        for key in sample_statistics.measure_keys(ns.Options()):
            assert result[f"{key}_low"] == result[key] == result[f"{key}_high"], key
    split = ns.compute_semeval(
        predictions=[p for _, p in SENTENCES], references=[r for r, _ in SENTENCES], bootstrap=100
    )
    assert split["strict_f1_low"] < split["strict_f1"] < split["strict_f1_high"]


def test_every_path_to_the_counts_gives_the_same_intervals(monkeypatch: pytest.MonkeyPatch) -> None:
    # The readable path (return_entities), the array path in any chunk size and resampling in blocks of any
    # size all resample the same distinct vectors with the same draws.
    batch = sample_batch(np.random.default_rng(4), 300)
    expected = ns.compute_semeval(**batch, bootstrap=300)
    with_rows = ns.compute_semeval(**batch, bootstrap=300, return_entities=True)
    with_rows.pop("entities")
    assert with_rows == expected
    monkeypatch.setattr(tag_arrays, "_CHUNK_TOKENS", 7)
    monkeypatch.setattr(resampling, "_RESAMPLE_BLOCK_CELLS", 50)
    assert ns.compute_semeval(**batch, bootstrap=300) == expected


def test_integer_ids_and_padded_arrays_give_the_same_intervals() -> None:
    batch = sample_batch(np.random.default_rng(5), 100)
    label_list = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
    ids = {side: [[label_list.index(tag) for tag in row] for row in rows] for side, rows in batch.items()}
    padded = {side: np.array([row + [-100] * (3 - len(row)) for row in rows]) for side, rows in ids.items()}
    expected = ns.compute_semeval(**batch, bootstrap=200)
    assert ns.compute_semeval(**ids, label_list=label_list, bootstrap=200) == expected
    assert ns.compute_semeval(**padded, label_list=label_list, bootstrap=200) == expected


def test_bca_interval_agrees_with_scipy() -> None:
    # scipy.stats.bootstrap resamples sentence indices and scores each resample: the same BCa method, the slow
    # way. With 20,000 resamples each, the ends agree within Monte Carlo error (about 1 % of the width).
    stats = pytest.importorskip("scipy.stats")
    batch = sample_batch(np.random.default_rng(6), 300)
    options = ns.Options.of(bootstrap=20_000, seed=1)
    result = ns.compute_semeval(**batch, bootstrap=options.bootstrap, seed=options.seed)
    by_sentence = readable_by_sentence(batch["predictions"], batch["references"], options)
    scipy_interval = stats.bootstrap(
        (np.arange(len(by_sentence)),),
        lambda index, axis=-1: strict_f1_of_totals(by_sentence[index].sum(axis=-2)),
        n_resamples=20_000,
        method="BCa",
        vectorized=True,
        batch=1000,
        rng=np.random.default_rng(2),
    ).confidence_interval
    width = result["strict_f1_high"] - result["strict_f1_low"]
    assert result["strict_f1_low"] == pytest.approx(scipy_interval.low, abs=0.05 * width)
    assert result["strict_f1_high"] == pytest.approx(scipy_interval.high, abs=0.05 * width)


def population_score(key: str) -> float:
    """The score of the population SENTENCES x WEIGHTS: every score is a ratio of totals, so the batch holding
    each sentence as many times as its weight scores exactly what an infinite sample would."""
    references = [SENTENCES[i][0] for i, weight in enumerate(WEIGHTS) for _ in range(weight)]
    predictions = [SENTENCES[i][1] for i, weight in enumerate(WEIGHTS) for _ in range(weight)]
    return ns.compute_semeval(predictions=predictions, references=references)[key]


@pytest.mark.slow
def test_intervals_cover_the_population_score_about_95_percent_of_the_time() -> None:
    # 300 samples of 60 sentences from a population whose scores are known; each gets a 95 % interval from 999
    # resamples. A correct interval covers the truth about 95 % of the time (here 93.7-95.3 % for these keys;
    # 95-97 % in a run of 1,000 samples); at a true 93-97 % the band 88-99.5 % fails by chance in under 0.1 %
    # of seeds (binomial tails of 300 draws). Intervals too wide by a factor 1.4 (resamples of half the
    # sentences) cover 99.3-99.7 % and fail it; too narrow by 1.4 (twice the sentences), 82-86 %, and fail.
    keys = ["strict_f1", "strict_precision", "strict_recall", "partial_f1", "type_f1"]
    truth = {key: population_score(key) for key in keys}
    rng = np.random.default_rng(2013)
    covered = dict.fromkeys(keys, 0)
    replications = 300
    for replication in range(replications):
        result = ns.compute_semeval(**sample_batch(rng, 60), bootstrap=999, seed=replication)
        for key in keys:
            covered[key] += result[f"{key}_low"] <= truth[key] <= result[f"{key}_high"]
    rates = {key: count / replications for key, count in covered.items()}
    assert all(0.88 <= rate <= 0.995 for rate in rates.values()), rates


@pytest.mark.parametrize("power", [1000, -1000, 0], ids=["huge", "tiny", "plain"])
def test_the_bca_interval_of_scaled_statistics_is_the_interval_scaled(power: int) -> None:
    # docs/scoring.md §10: statistics of extreme weights reach 2**960 in a resample, or deviations of 1e-300;
    # the jackknife's cubes overflowed (the acceleration NaN, the interval the resamples' range) or vanished (a
    # ZeroDivisionError). The acceleration is scale-free, so the interval of 2**power times the statistics is
    # 2**power times theirs, to the bit.
    rng = np.random.default_rng(2)
    resampled = rng.gamma(2.0, size=(400, 1))  # skewed: an acceleration that matters
    jackknife = rng.gamma(2.0, size=(30, 1))
    estimate, weights = np.array([2.0]), np.ones(30, dtype=np.int64)

    def interval(scale: float) -> tuple[float, float]:
        low, high = resampling.bca_interval(
            estimate * scale, lambda: [resampled * scale], jackknife * scale, weights, 0.95
        )
        return float(low[0]), float(high[0])

    plain = interval(1.0)
    scaled = interval(2.0**power)
    assert scaled == (plain[0] * 2.0**power, plain[1] * 2.0**power)
    assert plain != (float(resampled.min()), float(resampled.max()))


def test_the_quantiles_of_many_statistics_are_held_not_binned() -> None:
    # Slices of 100 edges are 1,200 statistics a resample: 1,000 resamples of them were counted in 65,536 bins
    # each (315 MB of counts, and twice their sums at once: a 1.3 GB peak; 1,000 edges 16 GB), where the values
    # themselves take 10 MB. As many resamples are held as of twelve statistics.
    data = sample_batch(np.random.default_rng(5), 20)
    options = {"slices": ["entity_length"], "slice_edges": {"entity_length": list(range(1, 101))}, "seed": 1}
    assert peak_bytes(ns.compute_semeval, **data, bootstrap=1_000, **options) < 150_000_000


def test_wide_totals_are_scored_and_swapped_in_small_blocks() -> None:
    # Slices of 1,000 edges: 12,000 columns a system. The resamples were scored and swapped in blocks sized for
    # the plain totals' few columns (compare_semeval of 50 sentences, 1,000 resamples: a 957 MB peak, now 281 MB;
    # compute_semeval's 604 MB, now 287 MB); what must be held, the resamples' statistics, is 96 MB.
    data = two_systems(np.random.default_rng(6), 50)
    options = {"slices": ["entity_length"], "slice_edges": {"entity_length": list(range(1, 1_001))}}
    assert peak_bytes(ns.compare_semeval, **data, n_resamples=1_000, **options) < 450_000_000


# A group slice (sentence-level buckets) and entity_length (two-sided ones), with the value's float columns (docs/
# scoring.md §10) beside the counts, one system's bootstrap and the paired comparison's.
PARTED_CALLS = {
    "bootstrap": lambda **options: ns.compute_semeval(
        **sample_batch(np.random.default_rng(21), 60), bootstrap=300, seed=2, **options
    ),
    "compare": lambda **options: ns.compare_semeval(
        **two_systems(np.random.default_rng(22), 60), n_resamples=300, seed=3, **options
    ),
}


@pytest.mark.parametrize("value", [False, True], ids=["counts", "value"])
@pytest.mark.parametrize("call", PARTED_CALLS.values(), ids=PARTED_CALLS)
def test_the_statistics_found_part_by_part_are_those_of_the_whole(call, value: bool, monkeypatch) -> None:
    # The buckets' statistics are scored and their quantiles found a few at a time (`SliceStatistics.parts`), from
    # the draws of each unit (`DrawnSamples`) where those take fewer bytes than the totals: one bucket a part, from
    # the draws or from the totals, gives the numbers of every bucket in one part, to the last bit.
    options = {"groups": [index % 23 for index in range(60)], "slices": ["group", "entity_length"], "value": value}
    monkeypatch.setattr(resampling, "_PART_BYTES", 1 << 40)
    whole = call(**options)
    assert len(whole["slices"]["group"]) >= 20  # (a group of no entity has no bucket)
    monkeypatch.setattr(resampling, "_PART_BYTES", 1)
    assert call(**options) == whole
    monkeypatch.setattr(resampling.DrawnSamples, "draws_kept", staticmethod(lambda sample: False))
    assert call(**options) == whole


@pytest.mark.parametrize("per_part", [1, 13, 10_000])
@pytest.mark.parametrize("paired", [False, True], ids=["one system", "B - A"])
def test_a_slice_statistics_parts_give_its_columns(paired: bool, per_part: int) -> None:
    # Each part scores its own columns of the totals (`SliceStatistics.parts`): put together, the statistics of the
    # whole, to the last bit, whatever the parts' size.
    layout = [("entity_length", 0, 12, 3), ("group", 36, 6, 5)]  # two-sided buckets, then sentence-level ones
    systems = 2 if paired else 1
    totals = np.random.default_rng(per_part).integers(0, 4, size=(7, systems * (6 + 36 + 30)))
    statistic = sample_statistics.SliceStatistics(layout, ns.Options(), paired=paired)
    whole = statistic(totals)
    found = np.full(whole.shape, np.nan)
    for read, columns, part in statistic.parts(totals.shape[1], per_part):
        found[:, columns] = part(totals[:, read])
    assert found.tolist() == whole.tolist()


def test_draws_beyond_the_free_memory_are_refused_before_they_are_made(monkeypatch: pytest.MonkeyPatch) -> None:
    # What grows with resamples x units is the draws (`DrawnSamples`): 5,000 resamples of 300 distinct sentences
    # (a group each) take 3 MB in two bytes a count, refused where 1 MB is free, whatever a part holds.
    monkeypatch.setattr(resampling, "_PART_BYTES", 1)
    monkeypatch.setattr("nerscore.errors.free_memory", lambda: 1_000_000)
    references = [[(0, 1, "PER")]] * 300
    with pytest.raises(ns.InvalidInputError, match=r"5,000 resamples of .* over 300 distinct units need about 3 MB"):
        ns.compare_semeval(
            predictions_a=references,
            predictions_b=[[(0, 2, "PER")]] * 300,  # (a bucket where both systems agree is not resampled)
            references=references,
            groups=list(range(300)),
            slices=["group"],
            n_resamples=5_000,
        )


@pytest.mark.slow  # 15 s under tracemalloc
def test_a_group_slices_draws_are_kept_not_its_totals() -> None:
    # A group a sentence: 2,000 sentences and 1,000 resamples held 1,000 x 24,012 statistics (192 MB) and as many
    # totals (48 MB): a 256 MB peak. A part's statistics (`_PART_BYTES`) and each unit's draws are what is held now:
    # 88 MB, of which some 35 MB are the inputs and results.
    references = [[(0, 1, "PER" if index % 3 else "LOC")] for index in range(2_000)]
    predictions = [[(0, 1 + index % 2, "PER")] for index in range(2_000)]
    arguments = {"groups": list(range(2_000)), "slices": ["group"], "n_resamples": 1_000}
    peak = peak_bytes(
        ns.compare_semeval, predictions_a=references, predictions_b=predictions, references=references, **arguments
    )
    assert peak < 120_000_000


WIDE_SLICES = {"slices": ["entity_length"], "slice_edges": {"entity_length": list(range(1, 21))}}


# 400 resamples counted in the bins a small block at a time take 10 s: the full suite; the quick profile's 100, more
# than the 85 held too, are refused alike, then counted in the same bins.
@pytest.mark.parametrize("resamples", [100, pytest.param(400, marks=pytest.mark.slow)])
@pytest.mark.parametrize(
    "call",
    [
        pytest.param(
            lambda n: ns.compute_semeval(**sample_batch(np.random.default_rng(7), 20), bootstrap=n, **WIDE_SLICES),
            id="bootstrap",
        ),
        pytest.param(
            lambda n: ns.compare_semeval(**two_systems(np.random.default_rng(8), 20), n_resamples=n, **WIDE_SLICES),
            id="compare",
        ),
    ],
)
def test_bins_beyond_the_free_memory_are_refused_before_they_are_made(
    call, resamples: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 10**6 resamples of slices of 1,000 edges: 12,000 statistics' bins are 3 GB, allocated unchecked. Here few
    # resamples are held (a small block) and the machine says it has 1 MB free: the bins of 20 edges take 20 MB.
    monkeypatch.setattr(resampling, "_RESAMPLE_BLOCK_CELLS", 1 << 10)
    monkeypatch.setattr("nerscore.errors.free_memory", lambda: 1_000_000)
    with pytest.raises(
        ns.InvalidInputError,
        match=r"bootstrap .*statistics .*GB to find their quantiles.*expected at most 85 resamples",
    ):
        call(resamples)
    monkeypatch.setattr("nerscore.errors.free_memory", lambda: None)  # a machine that does not say: counted as before
    assert call(resamples)


@pytest.mark.parametrize("slices", [None, ["entity_length"]])
def test_no_sentence_gives_each_interval_its_estimate_with_slices_as_without(slices) -> None:
    # zero_division 1: every score of no sentence is 1, and so are both ends of its interval (the slices' way
    # once gave a low end of 0 here, where the totals' interval is the same with or without slices).
    result = ns.compute_semeval(predictions=[], references=[], bootstrap=20, zero_division=1.0, slices=slices)
    for key in sample_statistics.measure_keys(ns.Options()):
        assert result[f"{key}_low"] == result[key] == result[f"{key}_high"] == 1.0


@pytest.mark.parametrize("paired", [False, True], ids=["one system", "B - A"])
@pytest.mark.parametrize("seed", range(4))
def test_a_sparse_jackknife_gives_the_dense_ones_interval(paired: bool, seed: int) -> None:
    # Slices' vectors held sparse: a bucket's jackknife lists only the units with counts in it (the others hold the
    # estimate), so its sums run in another order: the intervals agree to rounding, the totals' exactly.
    from scipy import sparse

    rng = np.random.default_rng(seed)
    layout = [("entity_length", 0, 12, 3), ("group", 36, 6, 4)]  # two-sided buckets, then sentence-level ones
    per_system = 6 + 36 + 24
    systems = 2 if paired else 1
    units = int(rng.integers(5, 40))
    vectors = np.zeros((units, systems * per_system), dtype=np.int64)
    for system in range(systems):
        base = system * per_system
        vectors[:, base : base + 6] = rng.integers(0, 3, size=(units, 6))
        for unit in range(units):  # a unit in one group, its entities in one or two length buckets
            group = int(rng.integers(0, 4))
            vectors[unit, base + 42 + 6 * group : base + 48 + 6 * group] = vectors[unit, base : base + 6]
            for bucket in rng.choice(3, size=int(rng.integers(1, 3)), replace=False):
                vectors[unit, base + 6 + 12 * bucket : base + 18 + 12 * bucket] = rng.integers(0, 2, size=12)
    dense = ns.SentenceCounts.of(vectors)
    held = ns.SentenceCounts(sparse.csr_array(dense.vectors), dense.sentences)
    statistic = sample_statistics.SliceStatistics(layout, ns.Options(), paired=paired)
    ends = [
        resampling.resampled_interval(sample, statistic, 200, np.random.default_rng(1), 0.95)
        for sample in (dense, held)
    ]
    totals = len(sample_statistics.measure_keys(ns.Options()))
    for dense_end, held_end in zip(*ends):
        assert held_end[:totals].tolist() == dense_end[:totals].tolist()
        np.testing.assert_allclose(held_end, dense_end, rtol=0, atol=1e-12)
    jackknife = statistic.jackknife(dense.totals(), held.vectors)
    assert isinstance(jackknife, sample_statistics.SparseJackknife)
    assert len(jackknife.values) < units * 12 * 7  # listed only where a unit has counts


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 5),
    st.lists(st.sampled_from([0.0, 0.25, 1 / 3, 0.5, 2 / 7, 1.0, -0.1, float("nan")]), min_size=200, max_size=200),
    st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 1.0, 1e-17, 1 - 1e-16])), min_size=10, max_size=10),
)
def test_column_quantiles_are_numpys_to_the_last_bit(rows: int, columns: int, values: list, levels: list) -> None:
    # Every column's interval ends from one sort (a call a column took 3.4 s for a group slice of 2,000 groups).
    held = np.array(values[: rows * columns]).reshape(rows, columns)
    at = np.array(levels[: 2 * columns]).reshape(columns, 2)
    expected = np.array([np.quantile(held[:, column], at[column]) for column in range(columns)])
    assert np.array_equal(resampling.sorted_column_quantiles(np.sort(held, axis=0), at), expected, equal_nan=True)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(1, 12), min_size=1, max_size=5),
    st.integers(1, 7),
    st.integers(1, 40),
    st.lists(st.sampled_from([0.0, 0.25, 1 / 3, 0.5, 2 / 7, 1.0, -0.1, float("nan")]), min_size=420, max_size=420),
    st.lists(st.floats(0, 1), min_size=14, max_size=14),
)
def test_held_quantiles_in_parts_are_numpys(
    sizes: list[int], columns: int, cells: int, values: list, levels: list
) -> None:
    # The held resamples are sorted a few columns at a time (`_QUANTILE_CHUNK_CELLS`): parts of one column or more,
    # of columns that do not divide into them, give each column np.quantile's numbers.
    held = np.array(values[: sum(sizes) * columns]).reshape(sum(sizes), columns)
    at = np.array(levels[: 2 * columns]).reshape(columns, 2)
    with mock.patch.object(resampling, "_QUANTILE_CHUNK_CELLS", cells):
        found = resampling._Quantiles(columns)
        for block in blocks_of(held, sizes)():
            found.count(block)
        assert found.held is not None
        result = found.at(at.tolist(), blocks_of(held, sizes))
    expected = np.array([np.quantile(held[:, column], at[column]) for column in range(columns)])
    assert np.array_equal(result, expected, equal_nan=True)
