"""Resampling: the bootstrap's and the paired swap's draws, the BCa interval, and the result's interval keys
(docs/scoring.md §9).

Why this shape: a resample of the units (`nerscore.statistics.unit_counts`) draws how often each distinct vector is
taken (a multinomial draw: the same law as drawing the sentences one by one with replacement), and one matrix product
gives the totals of a block of resamples. Only the totals outlive a block (a byte or a few a count): the interval's
quantiles are found in two passes over them (`_Quantiles`), the p-values counted block by block.

Why by hand: scipy.stats.bootstrap and permutation_test take such a statistic, but draw and sum one index per
sentence per resample. Measured (benchmarks/significance.py --scipy), for strict F1 alone: 1.2 s for 1,000
percentile resamples of 20,000 sentences (33 times the scoring; here 0.01 s for all twelve P/R/F keys), 21 s for
BCa, whose jackknife scores all 20,000 leave-one-out samples (here one per distinct vector), and 1.7 s for 10,000
shuffles of WNUT-17 (here 0.26 s for the twelve keys' tests and intervals together). The methods are scipy's
(BCa, and the paired swap); tests/test_resampling.py and test_paired_comparison.py check the numbers against it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from ..errors import refuse_past_free_memory
from ..options import Options
from ..pairing.rules import SCENARIOS
from .sample_statistics import (
    SliceStatistics,
    SparseJackknife,
    jackknife_moments,
    measure_keys,
    scaled_back,
    slice_key_positions,
    value_exponent,
)
from .unit_counts import SentenceCounts, is_sparse

# Statistics of resamples, block by block (resamples x k each), the same blocks each time it is called.
Blocks = Callable[[], Iterable[np.ndarray]]
# A statistic's columns in parts: each part's columns of the statistics and its blocks (resamples x its columns).
Parts = list[tuple[slice, Blocks]]
# The k statistics of totals (..., width) -> (..., k).
Statistic = Callable[[np.ndarray], np.ndarray]

# Resamples are drawn and scored in blocks of about this many cells (resamples x distinct vectors when drawn,
# resamples x floats when scored: a resample's statistics take some 60 floats on the way), so that memory stays
# flat up to MAX_RESAMPLES but for what must outlive a block (`bootstrap_totals`); the draws are the same
# whatever the block size.
_RESAMPLE_BLOCK_CELLS = 1 << 19
# The statistics `_RESAMPLE_BLOCK_CELLS` is reckoned for (every scheme's P, R and F): `_Quantiles` holds as many
# resamples of more (slices' buckets).
_STATISTICS = 12
# `_Quantiles.at` sorts the held resamples' statistics in parts of about this many values (32 MB).
_QUANTILE_CHUNK_CELLS = 1 << 22
# The resamples' statistics are found part by part (`SliceStatistics.parts`: the totals', then slice buckets a few
# hundred at a time), what `_Quantiles` holds of a part within about this many bytes (32 MB): a group slice of
# 5,000 groups and 10,000 resamples held 4.8 GB of statistics at once.
_PART_BYTES = 1 << 25
SCORED_WIDTH = 64


def resample_blocks(resamples: int, width: int) -> list[slice]:
    """The rows of `resamples` resamples, in blocks of about `_RESAMPLE_BLOCK_CELLS` cells of `width` each."""
    block = max(1, _RESAMPLE_BLOCK_CELLS // max(width, SCORED_WIDTH))
    return [slice(start, min(start + block, resamples)) for start in range(0, resamples, block)]


def _drawn_blocks(
    sample: SentenceCounts, resamples: int, rng: np.random.Generator
) -> Iterator[tuple[slice, np.ndarray]]:
    """Bootstrap samples, block by block (with the block's rows): how many times each distinct vector is drawn
    (block x distinct vectors), each sample taking as many sentences as `sample` holds, drawn with replacement.
    The draws of the seed (docs/scoring.md §9) whatever is kept of them."""
    size = sample.size
    if size:
        share = sample.sentences / size
        for rows in resample_blocks(resamples, len(share)):
            yield rows, rng.multinomial(size, share, size=rows.stop - rows.start)


def _totals_type(sample: SentenceCounts) -> np.dtype:
    """The smallest type that holds every total of a bootstrap sample of `sample`: 1 to 4 bytes a count, 8 for
    docs/scoring.md §10's weighted columns (floats)."""
    if sample.vectors.dtype == np.float64:
        return np.dtype(np.float64)
    largest = sample.size * int(sample.vectors.max()) if sample.vectors.shape[0] and sample.vectors.shape[1] else 0
    return np.min_scalar_type(largest) if largest < 1 << 63 else np.dtype(np.int64)


def totals_bytes(sample: SentenceCounts) -> int:
    """The bytes a resample's totals take in `bootstrap_totals`."""
    return sample.vectors.shape[1] * _totals_type(sample).itemsize


def bootstrap_totals(sample: SentenceCounts, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The totals (resamples x width) of bootstrap samples (`_drawn_blocks`). They are kept (the interval reads
    them twice, `bca_interval`) in the smallest unsigned integers that hold them: 1 to 4 bytes a count where
    the draws and the statistics take 8."""
    totals = np.zeros((resamples, sample.vectors.shape[1]), dtype=_totals_type(sample))
    for rows, drawn in _drawn_blocks(sample, resamples, rng):
        totals[rows] = drawn @ sample.vectors
    return totals


class DrawnSamples:
    """Bootstrap samples of `sample` (`_drawn_blocks`), kept as their totals (`bootstrap_totals`) or, where that
    takes fewer bytes (slices' bucket columns, sparse: a group slice of a group a sentence has six columns a
    sentence), as how many times each distinct vector is drawn, from which `blocks` makes the totals of the columns
    a part of a statistic reads (`SliceStatistics.parts`), block by block. Whole-number sums are exact in any order,
    and a sparse product sums each column over the vectors in their order, so the totals are those of
    `bootstrap_totals` to the last bit either way."""

    def __init__(self, sample: SentenceCounts, resamples: int, rng: np.random.Generator) -> None:
        self.vectors, self.resamples = sample.vectors, resamples
        self.totals: np.ndarray | None = None
        self.counts: np.ndarray | None = None
        if self.draws_kept(sample):
            self.counts = np.zeros((resamples, sample.vectors.shape[0]), dtype=np.min_scalar_type(sample.size))
            for rows, drawn in _drawn_blocks(sample, resamples, rng):
                self.counts[rows] = drawn
        else:
            self.totals = bootstrap_totals(sample, resamples, rng)

    @staticmethod
    def draws_kept(sample: SentenceCounts) -> bool:
        """Whether the draws take fewer bytes than the totals (sparse vectors only: a dense product's floats may
        depend on the columns taken)."""
        units, width = sample.vectors.shape
        return is_sparse(sample.vectors) and units * np.min_scalar_type(sample.size).itemsize < width * (
            _totals_type(sample).itemsize
        )

    @staticmethod
    def bytes_a_resample(sample: SentenceCounts) -> int:
        """What `DrawnSamples` keeps of each resample."""
        units = sample.vectors.shape[0]
        if DrawnSamples.draws_kept(sample):
            return units * np.min_scalar_type(sample.size).itemsize
        return totals_bytes(sample)

    def blocks(self, columns: np.ndarray | None, statistic: Statistic) -> Blocks:
        """`statistic` of the totals' `columns` (None: all of them) of every resample, block by block."""
        read: Callable[[slice], np.ndarray]
        if self.counts is not None:
            counts, picked = self.counts, self.vectors[:, columns]
            units = np.flatnonzero(np.diff(picked.indptr))  # the vectors with an entry in these columns
            picked = picked[units]
            # (a block's draws of the units read are multiplied in 8 bytes each: the totals' part reads every unit)
            width = max(picked.shape[1], len(units) // 4)

            def read(rows: slice) -> np.ndarray:
                return np.asarray(counts[rows][:, units] @ picked)

        else:
            totals = self.totals
            assert totals is not None
            width = totals.shape[1] if columns is None else len(columns)

            def read(rows: slice) -> np.ndarray:
                return totals[rows] if columns is None else totals[rows][:, columns]

        def blocks() -> Iterator[np.ndarray]:
            # A resample's statistics take a few floats a column of its totals on the way (slices' buckets: 12,000
            # columns): blocks of fewer resamples where the totals are wide.
            for rows in resample_blocks(self.resamples, 4 * width):
                yield statistic(read(rows))

        return blocks


def swapped_totals(
    pairs: SentenceCounts, shuffles: int, rng: np.random.Generator, width: int = len(SCENARIOS)
) -> Iterator[np.ndarray]:
    """The totals (block x 12) of the two systems, block by block, with each sentence's two outputs swapped with
    probability one half (approximate randomization). A swap moves the difference of the sentence's two vectors
    from one system to the other, so sentences where both systems agree are left out and the rest are drawn as
    how many of the sentences sharing a pair of vectors are swapped (a binomial draw). `width` is one system's
    (its six counts, and docs/scoring.md §10's columns when asked for)."""
    system_a, system_b = pairs.vectors[:, :width], pairs.vectors[:, width:]
    differ = np.asarray((system_a != system_b).sum(axis=1)).reshape(-1) > 0
    moved, sentences = system_b[differ] - system_a[differ], pairs.sentences[differ]
    totals = pairs.totals()
    for rows in resample_blocks(shuffles, max(len(sentences), pairs.vectors.shape[1])):
        shift = rng.binomial(sentences, 0.5, size=(rows.stop - rows.start, len(sentences))) @ moved
        yield np.hstack((totals[:width] + shift, totals[width:] - shift))


def resampled_interval(
    sample: SentenceCounts, statistic: Statistic, resamples: int, rng: np.random.Generator, level: float
) -> tuple[np.ndarray, np.ndarray]:
    """The BCa interval (`bca_interval`) of `statistic` from `resamples` bootstrap samples of the units of
    `sample`: what the intervals of one system, of the paired differences and of agreement share. With no unit
    there is nothing to resample: the ends are inf and -inf, so that the keys hold the estimate alone
    (`holding_estimates`, `paired_comparison.difference_keys`)."""
    totals = sample.totals()
    estimate = statistic(totals)
    if not sample.size:
        return np.full(len(estimate), np.inf), np.full(len(estimate), -np.inf)
    check_memory(resamples, len(estimate), sample)
    drawn = DrawnSamples(sample, resamples, rng)
    if isinstance(statistic, SliceStatistics):
        parts = statistic.parts(sample.vectors.shape[1], _part_statistics(resamples))
        resampled: Blocks | Parts = [(wanted, drawn.blocks(read, scored)) for read, wanted, scored in parts]
        jackknife = statistic.jackknife(totals, sample.vectors)
    else:
        resampled, jackknife = drawn.blocks(None, statistic), statistic(totals - sample.vectors)
    return bca_interval(estimate, resampled, jackknife, sample.sentences, level)


def _part_statistics(resamples: int) -> int:
    """How many statistics a part of a statistic (`SliceStatistics.parts`) takes, so that what `_Quantiles` holds
    of a part, its values or its bins, stays within `_PART_BYTES`."""
    held = resamples * _STATISTICS <= _RESAMPLE_BLOCK_CELLS
    return max(1, _PART_BYTES // (8 * resamples if held else 4 * _Quantiles.BINS))


def check_memory(
    resamples: int,
    statistics: int,
    sample: SentenceCounts,
    kept: int | None = None,
    fewer: str = "fewer slice buckets (fewer groups or slice edges)",
) -> None:
    """An `InvalidInputError` (a ValueError, never a MemoryError) before the resamples' draws or totals and the
    statistics `_Quantiles` holds of a part are allocated, where they would not fit: resamples x units (a group
    slice of a group a sentence, 10**6 sentences: four GB of draws for 1,000 resamples). `kept`: the bytes a
    resample keeps, where not `DrawnSamples`' (the runs' totals and picks, `run_statistics`: 100 runs with
    `value` and 10**6 resamples asked 8.2 GB of totals at once, a MemoryError), and `fewer` what else would
    need less."""
    # The draws take a byte or more a unit, the totals a byte or more a count (`DrawnSamples`); a part's values
    # are held up to `_PART_BYTES`; past a block of resamples, `_Quantiles.fit` checks a part's bins.
    held = 8 * statistics if resamples * min(statistics, _STATISTICS) <= _RESAMPLE_BLOCK_CELLS else 0
    kept = DrawnSamples.bytes_a_resample(sample) if kept is None else kept
    needed = resamples * kept + min(resamples * held, _PART_BYTES)
    refuse_past_free_memory(
        needed,
        f"bootstrap (or n_resamples): {resamples:,} resamples of {statistics:,} statistics (each slice bucket's "
        f"precision, recall and F count as three) over {sample.vectors.shape[0]:,} distinct units need",
        f"fewer resamples, or {fewer}",
        unit="MB",
    )


def bca_interval(
    estimate: np.ndarray,
    resampled: Blocks | Parts,
    jackknife: np.ndarray | SparseJackknife,
    weights: np.ndarray,
    level: float,
) -> tuple[np.ndarray, np.ndarray]:
    """The bias-corrected and accelerated (BCa) bootstrap interval of each statistic (Efron 1987; Efron and
    Tibshirani 1993, ch. 14; scipy's default): `estimate` (k,), its values on the resamples (blocks of
    resamples x k, read twice: `_Quantiles`; or `Parts`, each part's columns in turn), and its leave-one-sentence-out
    values (distinct vectors x k, or sparse: `SparseJackknife`), each standing for `weights` sentences."""
    # Imported here, not at the top: `statistics` brings `random` with it, a tenth of what `import nerscore`
    # costs beyond numpy (benchmarks/README.md), for the calls that ask for intervals.
    from statistics import NormalDist

    second, third = jackknife_moments(jackknife, weights)
    parts = [(slice(0, len(estimate)), resampled)] if callable(resampled) else resampled
    normal = NormalDist()
    alpha = (1 - level) / 2
    tails = (normal.inv_cdf(alpha), normal.inv_cdf(1 - alpha))
    found: dict[tuple[float, float], list[float]] = {}
    low, high = np.empty(len(estimate)), np.empty(len(estimate))
    for columns, blocks in parts:
        part_estimate = estimate[columns]
        quantiles = _Quantiles(len(part_estimate))
        less, ties = np.zeros(len(part_estimate), dtype=np.int64), np.zeros(len(part_estimate), dtype=np.int64)
        for block in blocks():
            less += (block < part_estimate).sum(axis=0)
            ties += (block == part_estimate).sum(axis=0)
            quantiles.count(block)
        resamples = quantiles.resamples
        # Bias correction: where the estimate falls among the resamples. Ties count half, as F takes few values on
        # a few sentences (one sentence: every resample ties, and the interval has zero width); an estimate outside
        # every resample counts as if half a resample lay beyond it.
        below = (less + 0.5 * ties) / resamples
        below = np.clip(below, 0.5 / resamples, 1 - 0.5 / resamples)
        # The same NormalDist calls as a column at a time (so the same floats), once for each distinct (bias,
        # acceleration), which a slice's thousands of small buckets share: five calls a column were 0.15 s of the
        # 24,000 statistics of 2,000 groups (cProfile).
        levels = []
        for column_below, column_second, column_third in zip(
            below.tolist(), second[columns].tolist(), third[columns].tolist()
        ):
            spread = 6 * column_second**1.5
            acceleration = column_third / spread if spread > 0 else 0.0
            ends = found.get((column_below, acceleration))
            if ends is None:
                bias = normal.inv_cdf(column_below)
                ends = []
                for z in tails:
                    shifted = bias + z
                    denominator = 1 - acceleration * shifted
                    # Where the correction runs past infinity, the level is the end it runs to.
                    ends.append(normal.cdf(bias + shifted / denominator) if denominator > 0 else float(shifted > 0))
                found[column_below, acceleration] = ends
            levels.append(ends)
        low[columns], high[columns] = quantiles.at(levels, blocks).T
    return low, high


class _Quantiles:
    """np.quantile's quantiles of each column of statistics that come in blocks, without holding them all (a
    million resamples of twelve statistics are 96 MB of floats). Up to `_RESAMPLE_BLOCK_CELLS` values (4 MB: the
    43,690 resamples of twelve statistics that cover the usual 1,000 to 10,000) are simply held, for speed.
    Beyond, a first pass counts the values in fixed bins, and a second keeps only the values of the bins
    that hold the order statistics np.quantile reads; those are given to np.quantile in an array that holds
    them at their ranks, so that the numbers are numpy's to the last bit either way (tests/test_resampling.py)."""

    # Bins of equal width over [-1, 1], where every score and every difference of scores lies (a value outside
    # would fall in an end bin, which keeps the order): 2**16 bins leave a few thousand values in a bin for the
    # narrowest intervals a large test set gives, and take 0.5 MB a statistic.
    BINS = 1 << 16

    def __init__(self, columns: int) -> None:
        self.held: list[np.ndarray] | None = []  # the blocks while they are few; None once counted in bins
        self.counts = np.zeros((0, self.BINS), dtype=np.int32)
        self.nan = np.zeros(columns, dtype=bool)
        self.resamples = 0

    @classmethod
    def bins(cls, values: np.ndarray) -> np.ndarray:
        """Each value's bin: a non-decreasing function of the value, so a bin's values are contiguous in order."""
        scaled = np.clip((values + 1.0) * (cls.BINS / 2), 0, cls.BINS - 1)
        return np.nan_to_num(scaled, nan=cls.BINS - 1).astype(np.int64)

    def count(self, block: np.ndarray) -> None:
        """The first pass: hold a block (resamples x columns), or count its values in their bins."""
        self.resamples += len(block)
        self.nan |= np.isnan(block).any(axis=0)
        if self.held is not None:
            self.held.append(block)
            # As many resamples held whatever the number of statistics: bins cost 256 KB a statistic, which
            # the values of few resamples do not (slices of 1,000 edges are 12,000 statistics: 3 GB of bins
            # and 13 GB of their sums for 60 resamples, where the values take 6 MB).
            if self.resamples * min(block.shape[1], _STATISTICS) <= _RESAMPLE_BLOCK_CELLS:
                return
            blocks, self.held = self.held, None
            self.counts = np.zeros((self.fit(block.shape[1]), self.BINS), dtype=np.int32)
        else:
            blocks = [block]
        for held in blocks:
            for column, bins in enumerate(self.bins(held).T):
                self.counts[column] += np.bincount(bins, minlength=self.BINS)

    def fit(self, columns: int) -> int:
        """`columns`, once their bins are known to fit in memory: else an `InvalidInputError` (a ValueError, never a
        MemoryError) before they are allocated (slices of 1,000 edges are 12,000 statistics: 3 GB of bins)."""
        held = _RESAMPLE_BLOCK_CELLS // max(1, min(columns, _STATISTICS))
        refuse_past_free_memory(
            columns * self.BINS * 4,
            f"bootstrap (or n_resamples): more than {held:,} resamples of {columns:,} statistics (each slice bucket's "
            "precision, recall and F count as three) need",
            f"at most {held:,} resamples, or fewer slice edges",
            " to find their quantiles",
        )
        return columns

    def at(self, levels: list[list[float]], resampled: Blocks) -> np.ndarray:
        """The second pass: each column's quantiles at its `levels` (columns x levels), as np.quantile gives
        them for the column."""
        resamples, columns = self.resamples, len(levels)
        if self.held is not None:
            # A few hundred columns at a time, gathered from the blocks and sorted where they lie: one array of
            # every resample's statistics, and np.sort's copy of it, cost more than the sort (2,000 groups and
            # 10,000 resamples: twice 1.9 GB; this call 2.1 s where it took about 7, benchmarks/README.md).
            at = np.array(levels, dtype=np.float64)
            found = np.empty(at.shape)
            step = max(1, _QUANTILE_CHUNK_CELLS // resamples)
            for start in range(0, columns, step):
                # Each column's values gathered in a row of their own, where a sort runs 2.5 times faster than down
                # a column (10,000 resamples).
                part = np.concatenate([block[:, start : start + step].T for block in self.held], axis=1)
                part.sort(axis=1)
                found[start : start + step] = sorted_column_quantiles(part.T, at[start : start + step])
                del part  # (before the next is gathered: two at once were the peak)
            return found
        # np.quantile (linear, its default) interpolates between the order statistics at floor((n - 1) q) and
        # the next; a rank more on each side spares depending on how numpy rounds (n - 1) q.
        ranks = []
        for ends in levels:
            near = {math.floor((resamples - 1) * level) + step for level in ends for step in (-1, 0, 1, 2)}
            ranks.append(np.array(sorted(rank for rank in near if 0 <= rank < resamples), dtype=np.int64))
        wanted, below = [], []  # the bins that hold each column's ranks, and how many values lie before each
        for column in range(columns):  # a column at a time: the sums of every bin of every column are 8x counts
            through = np.cumsum(self.counts[column])
            bins = np.searchsorted(through, ranks[column], side="right")
            wanted.append(bins)
            below.append(dict(zip(bins.tolist(), (through[bins] - self.counts[column][bins]).tolist())))
        kept: list[list[tuple[np.ndarray, np.ndarray]]] = [[] for _ in range(columns)]
        for block in resampled():
            bins = self.bins(block)
            for column in range(columns):
                kept[column].append(
                    np.unique(block[np.isin(bins[:, column], wanted[column]), column], return_counts=True)
                )
        result = np.empty((columns, len(levels[0])))
        for column in range(columns):
            if self.nan[column]:  # as np.quantile: a NaN among the values makes every quantile NaN
                result[column] = math.nan
                continue
            values, inverse = np.unique(np.concatenate([v for v, _ in kept[column]]), return_inverse=True)
            counts = np.bincount(inverse, weights=np.concatenate([c for _, c in kept[column]])).astype(np.int64)
            value_bins = self.bins(values)
            order = []
            for rank, bin_ in zip(ranks[column].tolist(), wanted[column].tolist()):
                in_bin = value_bins == bin_
                within = np.cumsum(counts[in_bin])
                order.append(values[in_bin][np.searchsorted(within, rank - below[column][bin_], side="right")])
            held = np.repeat(order, np.diff(np.r_[0, ranks[column][1:], resamples]))
            result[column] = np.quantile(held, levels[column], overwrite_input=True)
        return result


def sorted_column_quantiles(ordered: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """np.quantile(ordered[:, column], levels[column]) of every column, each sorted (NaN last, as np.sort leaves
    them): numpy 2's `_quantile` of its default, linear, method step by step, so that the numbers are numpy's to
    the last bit (tests/test_resampling.py), with one sort of every column where a call a column took 0.14 ms, 3.4 s
    for the 24,000 statistics of 2,000 groups."""
    count, columns = ordered.shape
    virtual = (count - 1) * levels.T  # (levels, columns)
    previous = np.floor(virtual)
    following = previous + 1
    above, below = virtual >= count - 1, virtual < 0
    previous[above], following[above] = -1, -1
    previous[below], following[below] = 0, 0
    previous[np.isnan(virtual)], following[np.isnan(virtual)] = -1, -1
    previous, following = previous.astype(np.intp), following.astype(np.intp)
    weight = virtual - previous
    low, high = ordered[previous, np.arange(columns)], ordered[following, np.arange(columns)]
    step = high - low
    with np.errstate(invalid="ignore"):
        found = np.where(weight >= 0.5, high - step * (1 - weight), low + step * weight)
    found[:, np.isnan(ordered[-1])] = np.nan  # as np.quantile: a NaN among the values makes every quantile NaN
    return found.T


def interval_keys(result: Mapping[str, Any], sample: SentenceCounts, options: Options) -> dict[str, float]:
    """`{key}_low` and `{key}_high` for every scheme's precision, recall and F: the BCa interval from
    `options.bootstrap` resamples of the sentences (docs/scoring.md §9), always holding the point estimate."""
    return slice_interval_keys(result, sample, {}, [], options)[0]


def holding_estimates(
    keys: list[str], low: np.ndarray, high: np.ndarray, estimates: Mapping[str, Any], suffix: str = ""
) -> dict[str, float]:
    """`{key}{suffix}_low` and `_high` of every key whose `{key}{suffix}` `estimates` holds (not a scheme that
    `evaluation_schemes` leaves out), widened to hold it: the estimate is exact (`scores`' value), and the
    resamples' floats may round it a hair differently."""
    intervals = {}
    for key, key_low, key_high in zip(keys, low.tolist(), high.tolist()):
        name = f"{key}{suffix}"
        if name in estimates:
            intervals[f"{name}_low"] = min(key_low, estimates[name])
            intervals[f"{name}_high"] = max(key_high, estimates[name])
    return intervals


def slice_interval_keys(
    result: Mapping[str, Any],
    sample: SentenceCounts,
    names: Mapping[str, list[str]],
    layout: list[tuple[str, int, int, int]],
    options: Options,
) -> tuple[dict[str, float], dict[str, dict[str, dict[str, float]]]]:
    """`interval_keys` of the totals and of every bucket of `result["slices"]` from one set of resamples of the
    sentences, whose vectors (`sample`) are the six scenario counts followed by the bucket columns of `layout`."""
    exponent = value_exponent(sample.vectors, 1, sample.size, options)  # docs/scoring.md §10: extreme weights
    statistic = SliceStatistics(layout, options, exponent)
    keys = measure_keys(options)
    positions = list(slice_key_positions(layout, names, options))
    rng = np.random.default_rng(options.seed)
    low, high = resampled_interval(sample, statistic, options.bootstrap, rng, options.confidence_level)
    low, high = scaled_back(keys, low, high, exponent, options)
    base = holding_estimates(keys, low, high, result)
    by_bucket: dict[str, dict[str, dict[str, float]]] = {}
    buckets = result.get("slices", {})
    for name, bucket, key, column in positions:
        scored = buckets.get(name, {}).get(bucket)
        if scored is None or key not in scored:  # a bucket with no entity, or a scheme left out
            continue
        low_value, high_value = min(float(low[column]), scored[key]), max(float(high[column]), scored[key])
        by_bucket.setdefault(name, {}).setdefault(bucket, {}).update(
            {f"{key}_low": low_value, f"{key}_high": high_value}
        )
    return base, by_bucket
