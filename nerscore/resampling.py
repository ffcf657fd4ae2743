"""Statistics: bootstrap confidence intervals and the paired test of two systems (docs/scoring.md §9).

Why this shape: every score of every scheme is a function of the six scenario totals (§4), and totals add over
sentences. So what the statistics resample is each sentence's scenario counts, counted in the pass that scores, and
a resample is a weighted sum of them, never a new scoring (sacrebleu's lesson). Sentences share a handful of
distinct count vectors (85 to 113 among the 20,000 generated sentences of benchmarks/; 78 among WNUT-17's 1,287
for one system, 202 pairs for two), so a resample draws how often each distinct vector is taken (a multinomial
draw: the same law as drawing the sentences one by one with replacement), and one matrix product gives the
totals of a block of resamples. Only the totals outlive a block (a byte or a few a count): the interval's
quantiles are found in two passes over them (`_Quantiles`), the p-values counted block by block.

Why by hand: scipy.stats.bootstrap and permutation_test take such a statistic, but draw and sum one index per
sentence per resample. Measured (benchmarks/significance.py --scipy), for strict F1 alone: 1.2 s for 1,000
percentile resamples of 20,000 sentences (33 times the scoring; here 0.01 s for all twelve P/R/F keys), 21 s for
BCa, whose jackknife scores all 20,000 leave-one-out samples (here one per distinct vector), and 1.7 s for 10,000
shuffles of WNUT-17 (here 0.26 s for the twelve keys' tests and intervals together). The methods are scipy's
(BCa, and the paired swap); tests/test_statistics.py checks the numbers against it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .measures import Rule
from .options import EVALUATION_SCHEMES, OVERLAP, Options
from .pairing import SCENARIOS
from .scores import scores, weighted_width
from .tally import COUNT_NAMES, OUTCOMES, Tally

# Statistics of resamples, block by block (resamples x k each), the same blocks each time it is called.
Blocks = Callable[[], Iterable[np.ndarray]]


@dataclass(frozen=True)
class SentenceCounts:
    """Per-sentence count vectors, kept as the distinct vectors (sorted rows) and how many sentences have each.

    One system's vectors are its six scenario counts (I to VI); a pair of systems' are twelve, system A's six
    then system B's, for the same sentence. Sentences are exchangeable in the bootstrap and in the paired test,
    so this is all either needs, and it adds over chunks, batches and files."""

    vectors: np.ndarray  # (distinct vectors, width) int64
    sentences: np.ndarray  # (distinct vectors,) int64: how many sentences have each

    @classmethod
    def of(cls, by_sentence: np.ndarray, weighted: np.ndarray | None = None) -> SentenceCounts:
        """From one row of counts per sentence, and with `weighted` (docs/scoring.md §10: each sentence's overlap
        credit and value sums, `scores.weighted_width` floats) those after them, the vectors then of floats."""
        rows = np.asarray(by_sentence, dtype=np.int64)
        if weighted is not None and weighted.shape[1]:
            floats = np.hstack((rows.astype(np.float64), np.asarray(weighted, dtype=np.float64)))
            if not len(floats):
                return cls(floats, np.zeros(0, dtype=np.int64))
            distinct, inverse = np.unique(floats, axis=0, return_inverse=True)
            return cls(distinct, np.bincount(inverse.reshape(-1), minlength=len(distinct)).astype(np.int64))
        return cls(*_distinct_rows(rows, np.ones(len(rows), dtype=np.int64)))

    def __add__(self, other: SentenceCounts) -> SentenceCounts:
        rows = np.concatenate((self.vectors, other.vectors))
        return SentenceCounts(*_distinct_rows(rows, np.concatenate((self.sentences, other.sentences))))

    @property
    def size(self) -> int:
        """The number of sentences."""
        return int(self.sentences.sum())

    def totals(self) -> np.ndarray:
        """The counts summed over all sentences."""
        return self.sentences @ self.vectors


def unit_rows(by_sentence: np.ndarray, documents: Sequence[Hashable] | None = None) -> np.ndarray:
    """The rows the statistics resample (docs/scoring.md §9): each sentence's, or with `documents` (one id per
    sentence) each document's, the sum of its sentences' rows, in the order documents first appear. A document's
    sentences need not be adjacent; ids equal in Python (1 and 1.0) are one document. The one place sentences
    become units, whatever the rows' width (a pair of systems, several runs, wider vectors)."""
    rows = np.asarray(by_sentence)
    if documents is None:
        return rows
    if len(documents) != len(rows):
        raise ValueError(f"found {len(documents)} document ids for {len(rows)} sentences; expected one per sentence")
    index: dict[Hashable, int] = {}
    inverse = np.fromiter(
        (index.setdefault(document, len(index)) for document in documents), dtype=np.int64, count=len(documents)
    )
    # Sentences sorted by document, then one reduction per run of a document: np.add.at would be 10 times slower.
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(len(index)))
    if not len(rows):
        return rows.reshape(0, *rows.shape[1:])
    return np.add.reduceat(rows[order], starts, axis=0)


def _distinct_rows(rows: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a non-negative integer matrix, sorted, and the summed weights of each."""
    if not len(rows):
        return rows.reshape(0, rows.shape[1]), np.zeros(0, dtype=np.int64)
    if rows.dtype == np.float64:  # docs/scoring.md §10's weighted columns
        distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
        return distinct, np.bincount(inverse.reshape(-1), weights=weights, minlength=len(distinct)).astype(np.int64)
    # One integer key per row, in mixed radix, sorts in a millisecond where np.unique(axis=0) takes 20 ms
    # for 20,000 sentences; the keys fit in int64 unless a document holds millions of entities.
    radix = rows.max(axis=0).astype(object) + 1
    places = [math.prod(radix[column + 1 :]) for column in range(len(radix))]
    if math.prod(radix) < 1 << 62:
        keys = rows @ np.array(places, dtype=np.int64)
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        distinct = rows[first]
    else:
        distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
    summed = np.bincount(inverse.reshape(-1), weights=weights, minlength=len(distinct))
    return distinct, summed.astype(np.int64)


# Resamples are drawn and scored in blocks of about this many cells (resamples x distinct vectors when drawn,
# resamples x floats when scored: a resample's statistics take some 60 floats on the way), so that memory stays
# flat up to MAX_RESAMPLES but for what must outlive a block (`_bootstrap_totals`); the draws are the same
# whatever the block size.
_RESAMPLE_BLOCK_CELLS = 1 << 19
_SCORED_WIDTH = 64


def _blocks(resamples: int, width: int) -> list[int]:
    block = max(1, _RESAMPLE_BLOCK_CELLS // max(width, _SCORED_WIDTH))
    return [min(block, resamples - start) for start in range(0, resamples, block)]


def _bootstrap_totals(sample: SentenceCounts, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The totals (resamples x width) of bootstrap samples: each takes as many sentences as `sample` holds,
    drawn with replacement, as how many times each distinct vector is drawn. They are kept (the interval reads
    them twice, `_bca_interval`) in the smallest unsigned integers that hold them: 1 to 4 bytes a count where
    the draws and the statistics take 8."""
    size, width = sample.size, sample.vectors.shape[1]
    if sample.vectors.dtype == np.float64:  # docs/scoring.md §10's weighted columns
        totals = np.zeros((resamples, width))
    else:
        largest = size * int(sample.vectors.max(initial=0))
        totals = np.zeros((resamples, width), dtype=np.min_scalar_type(largest) if largest < 1 << 63 else np.int64)
    if size:
        share, start = sample.sentences / size, 0
        for block in _blocks(resamples, len(share)):
            totals[start : start + block] = rng.multinomial(size, share, size=block) @ sample.vectors
            start += block
    return totals


def _swapped_totals(
    pairs: SentenceCounts, shuffles: int, rng: np.random.Generator, width: int = len(SCENARIOS)
) -> Iterator[np.ndarray]:
    """The totals (block x 12) of the two systems, block by block, with each sentence's two outputs swapped with
    probability one half (approximate randomization). A swap moves the difference of the sentence's two vectors
    from one system to the other, so sentences where both systems agree are left out and the rest are drawn as
    how many of the sentences sharing a pair of vectors are swapped (a binomial draw). `width` is one system's
    (its six counts, and docs/scoring.md §10's columns when asked for)."""
    system_a, system_b = pairs.vectors[:, :width], pairs.vectors[:, width:]
    differ = (system_a != system_b).any(axis=1)
    moved, sentences = system_b[differ] - system_a[differ], pairs.sentences[differ]
    totals = pairs.totals()
    for block in _blocks(shuffles, len(sentences)):
        shift = rng.binomial(sentences, 0.5, size=(block, len(sentences))) @ moved
        yield np.hstack((totals[:width] + shift, totals[width:] - shift))


def _resampled_interval(
    sample: SentenceCounts,
    statistic: Callable[[np.ndarray], np.ndarray],
    resamples: int,
    rng: np.random.Generator,
    level: float,
) -> tuple[np.ndarray, np.ndarray]:
    """The BCa interval (`_bca_interval`) of `statistic` from `resamples` bootstrap samples of the units of
    `sample`, which holds at least one: what the intervals of one system and the paired differences share."""
    totals = sample.totals()
    resampled = _scored(_bootstrap_totals(sample, resamples, rng), statistic)
    jackknife = statistic(totals - sample.vectors)
    return _bca_interval(statistic(totals), resampled, jackknife, sample.sentences, level)


def _scored(totals: np.ndarray, statistic: Callable[[np.ndarray], np.ndarray]) -> Blocks:
    """The statistics of every row of `totals`, block by block, as often as they are asked for."""

    def blocks() -> Iterator[np.ndarray]:
        start = 0
        for block in _blocks(len(totals), 0):
            yield statistic(totals[start : start + block])
            start += block

    return blocks


# _OUTCOMES_MATRIX[scenario, scheme * 5 + outcome] is 1 where docs/scoring.md §4 gives the scenario that outcome
# under the scheme: the table `Tally.counts` reads, as a matrix that turns scenario totals into MUC counts.
_OUTCOMES_MATRIX = np.array(
    [
        [float(OUTCOMES[scenario][scheme] == outcome) for scheme in EVALUATION_SCHEMES for outcome in COUNT_NAMES]
        for scenario in SCENARIOS
    ]
)
# The measures the statistics cover, in the order of `_measures`' last axis; F's key depends on beta.
_MEASURES = ("precision", "recall", "f")


def _measures(totals: np.ndarray, options: Options, overlap: np.ndarray | None = None) -> np.ndarray:
    """Precision, recall and F of every scheme for scenario totals of shape (..., 6): shape (..., 4 schemes,
    3 measures), by `scores`' rules (`measures.Rule`) in floats where `scores` works in exact ratios;
    P and R are the correctly rounded floats `scores` gives, F within rounding (tests/test_statistics.py)."""
    counts = np.asarray(totals, dtype=np.float64) @ _OUTCOMES_MATRIX
    counts = counts.reshape(*counts.shape[:-1], len(EVALUATION_SCHEMES), len(COUNT_NAMES))
    correct, incorrect, partial, missed, spurious = np.moveaxis(counts, -1, 0)
    if overlap is None:  # docs/scoring.md §10: a PAR earns partial_credit (a half unless told)
        credit = correct + partial * float(options.partial_credit)
    else:  # the overlap credit, of the partial scheme's PARs (the only scheme with any)
        credit = correct + overlap[..., None] * _PARTIAL_ONLY
    actual = correct + incorrect + partial + spurious
    possible = correct + incorrect + partial + missed
    return Rule.of(options).floats(credit, actual, credit, possible)


def _measure_keys(options: Options) -> list[str]:
    """The keys of the statistics, in the order of `_statistics`: strict_precision ... type_f1, and with `value`
    the four value keys (docs/scoring.md §10)."""
    names = [options.f_name if measure == "f" else measure for measure in _MEASURES]
    keys = [f"{scheme}_{name}" for scheme in EVALUATION_SCHEMES for name in names]
    if options.value is not None:
        keys += ["value", "value_precision", "value_recall", f"value_{options.f_name}"]
    return keys


_PARTIAL_ONLY = np.array([float(scheme == "partial") for scheme in EVALUATION_SCHEMES])


def _statistics(totals: np.ndarray, options: Options) -> np.ndarray:
    """The statistics of totals (..., 6 + `weighted_width`): every scheme's P, R and F (`_measures`), then with
    `value` the value, its precision, recall and F (docs/scoring.md §10), by `scores.value_scores`' rules."""
    width = len(SCENARIOS)
    overlap = totals[..., width] if options.partial_credit == OVERLAP else None
    measures = _measures(totals[..., :width], options, overlap)
    measures = measures.reshape(*measures.shape[:-2], -1)
    if options.value is None:
        return measures
    kept, kept_precision, cost, worth_r, worth_p = np.moveaxis(np.asarray(totals[..., -5:], dtype=np.float64), -1, 0)
    rule = Rule.of(options)
    value = rule.share(kept - cost, worth_r)
    value_measures = rule.floats(kept_precision, worth_p, kept, worth_r)
    return np.concatenate((measures, value[..., None], value_measures), axis=-1)


def _bca_interval(
    estimate: np.ndarray, resampled: Blocks, jackknife: np.ndarray, weights: np.ndarray, level: float
) -> tuple[np.ndarray, np.ndarray]:
    """The bias-corrected and accelerated (BCa) bootstrap interval of each statistic (Efron 1987; Efron and
    Tibshirani 1993, ch. 14; scipy's default): `estimate` (k,), its values on the resamples (blocks of
    resamples x k, read twice: `_Quantiles`), and its leave-one-sentence-out values (distinct vectors x k), each
    standing for `weights` sentences."""
    # Imported here, not at the top: `statistics` brings `random` with it, a tenth of what `import nerscore`
    # costs beyond numpy (benchmarks/README.md), for the calls that ask for intervals.
    from statistics import NormalDist

    normal = NormalDist()
    quantiles = _Quantiles(len(estimate))
    less, ties = np.zeros(len(estimate), dtype=np.int64), np.zeros(len(estimate), dtype=np.int64)
    for block in resampled():
        less += (block < estimate).sum(axis=0)
        ties += (block == estimate).sum(axis=0)
        quantiles.count(block)
    resamples = quantiles.resamples
    # Bias correction: where the estimate falls among the resamples. Ties count half, as F takes few values on
    # a few sentences (one sentence: every resample ties, and the interval has zero width); an estimate outside
    # every resample counts as if half a resample lay beyond it.
    below = (less + 0.5 * ties) / resamples
    below = np.clip(below, 0.5 / resamples, 1 - 0.5 / resamples)
    # Acceleration: the skewness of the jackknife values.
    centred = (weights @ jackknife) / weights.sum() - jackknife
    with np.errstate(over="ignore", invalid="ignore"):  # a value of -1e300 (docs/scoring.md §10's false alarms)
        second, third = weights @ centred**2, weights @ centred**3
    alpha = (1 - level) / 2
    levels = []
    for column in range(len(estimate)):
        bias = normal.inv_cdf(float(below[column]))
        acceleration = float(third[column]) / (6 * float(second[column]) ** 1.5) if second[column] > 0 else 0.0
        ends = []
        for z in (normal.inv_cdf(alpha), normal.inv_cdf(1 - alpha)):
            shifted = bias + z
            denominator = 1 - acceleration * shifted
            # Where the correction runs past infinity, the level is the end it runs to.
            ends.append(normal.cdf(bias + shifted / denominator) if denominator > 0 else float(shifted > 0))
        levels.append(ends)
    low, high = quantiles.at(levels, resampled).T
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
            if self.resamples * block.shape[1] <= _RESAMPLE_BLOCK_CELLS:
                return
            blocks, self.held = self.held, None
            self.counts = np.zeros((block.shape[1], self.BINS), dtype=np.int32)
        else:
            blocks = [block]
        for held in blocks:
            for column, bins in enumerate(self.bins(held).T):
                self.counts[column] += np.bincount(bins, minlength=self.BINS)

    def at(self, levels: list[list[float]], resampled: Blocks) -> np.ndarray:
        """The second pass: each column's quantiles at its `levels` (columns x levels), as np.quantile gives
        them for the column."""
        resamples, columns = self.resamples, len(levels)
        if self.held is not None:
            held = np.concatenate(self.held)
            return np.array([np.quantile(held[:, column], levels[column]) for column in range(columns)])
        # np.quantile (linear, its default) interpolates between the order statistics at floor((n - 1) q) and
        # the next; a rank more on each side spares depending on how numpy rounds (n - 1) q.
        ranks = []
        for ends in levels:
            near = {math.floor((resamples - 1) * level) + step for level in ends for step in (-1, 0, 1, 2)}
            ranks.append(np.array(sorted(rank for rank in near if 0 <= rank < resamples), dtype=np.int64))
        below = np.cumsum(self.counts, axis=1) - self.counts  # how many values lie in the bins before each bin
        wanted = [
            np.searchsorted(below[column] + self.counts[column], ranks[column], side="right")
            for column in range(columns)
        ]
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
                order.append(values[in_bin][np.searchsorted(within, rank - below[column, bin_], side="right")])
            held = np.repeat(order, np.diff(np.r_[0, ranks[column][1:], resamples]))
            result[column] = np.quantile(held, levels[column], overwrite_input=True)
        return result


def _randomization_p_values(observed: np.ndarray, shuffled: Iterable[np.ndarray]) -> np.ndarray:
    """Two-sided p-values of approximate randomization (Yeh 2000; Riezler and Maxwell 2005): the share of
    shuffles (blocks of shuffles x k) whose difference is at least as far from zero as the observed one, counted
    as (c + 1) / (n + 1) (as scipy's permutation_test counts a randomized test), so never 0, and 1 for a system
    against itself. Differences that are equal but rounded differently count as equal (scipy's relative
    tolerance)."""
    tolerance = 100 * np.finfo(np.float64).eps * np.abs(observed)
    extreme, shuffles = np.zeros(len(observed), dtype=np.int64), 0
    for block in shuffled:
        extreme += (np.abs(block) >= np.abs(observed) - tolerance).sum(axis=0)
        shuffles += len(block)
    return (extreme + 1) / (shuffles + 1)


def interval_keys(result: Mapping[str, Any], sample: SentenceCounts, options: Options) -> dict[str, float]:
    """`{key}_low` and `{key}_high` for every scheme's precision, recall and F: the BCa interval from
    `options.bootstrap` resamples of the sentences (docs/scoring.md §9), always holding the point estimate."""

    def statistic(totals: np.ndarray) -> np.ndarray:
        return _statistics(totals, options)

    keys = _measure_keys(options)
    if sample.size:
        rng = np.random.default_rng(options.seed)
        low, high = _resampled_interval(sample, statistic, options.bootstrap, rng, options.confidence_level)
    else:  # no sentence: nothing to resample
        low = high = np.array([result.get(key, 0.0) for key in keys])
    intervals = {}
    for key, key_low, key_high in zip(keys, low.tolist(), high.tolist()):
        if key not in result:  # a scheme that `evaluation_schemes` leaves out
            continue
        # The estimate is `scores`' exact value; the resamples' floats may round it a hair differently.
        intervals[f"{key}_low"] = min(key_low, result[key])
        intervals[f"{key}_high"] = max(key_high, result[key])
    return intervals


def _paired_statistics(
    pairs: SentenceCounts,
    totals: np.ndarray,
    difference: Callable[[np.ndarray], np.ndarray],
    resamples: int,
    seed: int,
    width: int,
    options: Options,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The BCa interval of B - A (`difference` of the paired units' `totals`, one system `width` columns) and
    its approximate randomization p-value, from one generator seeded with `seed`: what the totals' comparison and
    the slices' share (docs/scoring.md §9, §11)."""
    rng = np.random.default_rng(seed)
    observed = difference(totals)
    if pairs.size:
        low, high = _resampled_interval(pairs, difference, resamples, rng, options.confidence_level)
    else:
        low = high = observed
    p_values = _randomization_p_values(observed, map(difference, _swapped_totals(pairs, resamples, rng, width)))
    return low, high, p_values


def comparison(
    tally_a: Tally, tally_b: Tally, pairs: SentenceCounts, options: Options, resamples: int, seed: int
) -> dict[str, float]:
    """`compare_semeval`'s dict from the two systems' tallies and their per-sentence counts, side by side."""
    width = pairs.vectors.shape[1] // 2  # one system's: six counts, and docs/scoring.md §10's columns

    def difference(totals: np.ndarray) -> np.ndarray:
        return _statistics(totals[..., width:], options) - _statistics(totals[..., :width], options)

    result_a, result_b = scores(tally_a, options), scores(tally_b, options)
    keys = _measure_keys(options)
    low, high, p_values = _paired_statistics(pairs, pairs.totals(), difference, resamples, seed, width, options)
    result: dict[str, float] = {}
    for key, key_low, key_high, p_value in zip(keys, low.tolist(), high.tolist(), p_values.tolist()):
        if key not in result_a:  # a scheme that `evaluation_schemes` leaves out
            continue
        delta = result_b[key] - result_a[key]
        result[f"{key}_a"] = result_a[key]
        result[f"{key}_b"] = result_b[key]
        result[f"{key}_delta"] = delta
        result[f"{key}_delta_low"] = min(key_low, delta)
        result[f"{key}_delta_high"] = max(key_high, delta)
        result[f"{key}_p_value"] = p_value
    return result


# ---------------------------------------------------------------------------------------------------------
# Slices (docs/scoring.md §11): each sentence's vector carries, beside its six scenario counts, its counts in
# every bucket (`slices.SliceCounts.layout`), so that one resample of the sentences gives the totals and every
# bucket at once: a bucket's interval is that of the same resamples of all sentences, never of its own.
# ---------------------------------------------------------------------------------------------------------


def _slice_measures(totals: np.ndarray, layout: list[tuple[str, int, int, int]], options: Options) -> np.ndarray:
    """Precision, recall and F of every scheme of the totals and of every bucket, flattened: the statistics of
    the totals (`_statistics`, with `value` its four keys too), then 12 per bucket in `layout`'s order ((slice,
    first column, columns per bucket, buckets), columns counted after the six scenario counts and
    docs/scoring.md §10's weighted columns). A two-sided bucket's precision is that of the rows whose prediction
    lies in it, its recall that of the rows whose reference does (docs/scoring.md §5)."""
    width = len(SCENARIOS)
    base = width + weighted_width(options)
    parts = [_statistics(totals[..., :base], options)]
    for _, start, per_bucket, buckets in layout:
        block = totals[..., base + start : base + start + per_bucket * buckets]
        block = block.reshape(*totals.shape[:-1], buckets, per_bucket)
        if per_bucket == 2 * width:
            precision = _measures(block[..., width:], options)[..., 0]
            recall = _measures(block[..., :width], options)[..., 1]
            measures = np.stack((precision, recall, Rule.of(options).f(precision, recall)), axis=-1)
        else:
            measures = _measures(block, options)
        parts.append(measures.reshape(*totals.shape[:-1], -1))
    return np.concatenate(parts, axis=-1)


def _slice_key_positions(
    layout: list[tuple[str, int, int, int]], names: Mapping[str, list[str]], options: Options
) -> Iterator[tuple[str, str, str, int]]:
    """(slice, bucket, key, column of `_slice_measures`) for every bucket statistic: a bucket's keys are the
    schemes' P, R and F (a bucket has no value score, docs/scoring.md §11)."""
    column = len(_measure_keys(options))
    bucket_keys = _measure_keys(options.evolve(value=None))
    for name, _, _, buckets in layout:
        for bucket in names[name][:buckets]:
            for key in bucket_keys:
                yield name, bucket, key, column
                column += 1


def slice_layout(names: Mapping[str, list[str]], layout: list[tuple[str, int, int]]) -> list[tuple[str, int, int, int]]:
    """`SliceCounts.layout` with each slice's number of buckets."""
    return [(name, start, per_bucket, len(names[name])) for name, start, per_bucket in layout]


def slice_interval_keys(
    result: Mapping[str, Any],
    sample: SentenceCounts,
    names: Mapping[str, list[str]],
    layout: list[tuple[str, int, int, int]],
    options: Options,
) -> tuple[dict[str, float], dict[str, dict[str, dict[str, float]]]]:
    """`interval_keys` of the totals and of every bucket of `result["slices"]` from one set of resamples of the
    sentences, whose vectors (`sample`) are the six scenario counts followed by the bucket columns of `layout`."""

    def statistic(totals: np.ndarray) -> np.ndarray:
        return _slice_measures(totals, layout, options)

    keys = _measure_keys(options)
    positions = list(_slice_key_positions(layout, names, options))
    if sample.size:
        rng = np.random.default_rng(options.seed)
        low, high = _resampled_interval(sample, statistic, options.bootstrap, rng, options.confidence_level)
    else:
        low = high = np.zeros(len(keys) + len(positions))
    base: dict[str, float] = {}
    for key, key_low, key_high in zip(keys, low.tolist(), high.tolist()):
        if key in result:
            base[f"{key}_low"] = min(key_low, result[key])
            base[f"{key}_high"] = max(key_high, result[key])
    by_bucket: dict[str, dict[str, dict[str, float]]] = {}
    buckets = result.get("slices", {})
    for name, bucket, key, column in positions:
        scored = buckets.get(name, {}).get(bucket)
        if scored is None or key not in scored:  # a bucket with no entity, or a scheme left out
            continue
        if not sample.size:
            low_value = high_value = scored[key]
        else:
            low_value, high_value = min(float(low[column]), scored[key]), max(float(high[column]), scored[key])
        by_bucket.setdefault(name, {}).setdefault(bucket, {}).update(
            {f"{key}_low": low_value, f"{key}_high": high_value}
        )
    return base, by_bucket


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (Holm 1979), in the order given: the i-th smallest of m times
    (m - i + 1), never below the one before, at most 1. (scipy.stats.false_discovery_control does
    Benjamini-Hochberg, not Holm; statsmodels' multipletests has it, but is not a dependency.)"""
    order = sorted(range(len(p_values)), key=p_values.__getitem__)
    adjusted, running = [0.0] * len(p_values), 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def slice_comparison(
    tally_a: Tally,
    tally_b: Tally,
    pairs: SentenceCounts,
    names: Mapping[str, list[str]],
    layout: list[tuple[str, int, int, int]],
    scored: tuple[Mapping[str, Any], Mapping[str, Any]],
    options: Options,
    resamples: int,
    seed: int,
) -> tuple[dict[str, float], dict[str, dict[str, dict[str, float]]]]:
    """`comparison` of the totals and of every bucket, from one set of resamples and shuffles of the sentences:
    `pairs` holds system A's vector (six scenario counts, then the bucket columns of `layout`) then system B's;
    `scored` the two systems' `slices` keys (exact scores). Each bucket's keys: `{key}_a`, `{key}_b`,
    `{key}_delta`, `_delta_low`, `_delta_high`, `_p_value`, and `_p_value_holm`, Holm's correction over every
    bucket of every slice, key by key."""
    half = pairs.vectors.shape[1] // 2

    def difference(totals: np.ndarray) -> np.ndarray:
        return _slice_measures(totals[..., half:], layout, options) - _slice_measures(
            totals[..., :half], layout, options
        )

    result_a, result_b = scores(tally_a, options), scores(tally_b, options)
    keys = _measure_keys(options)
    positions = list(_slice_key_positions(layout, names, options))
    totals = pairs.totals()
    low, high, p_values = _paired_statistics(pairs, totals, difference, resamples, seed, half, options)
    estimates = (_slice_measures(totals[:half], layout, options), _slice_measures(totals[half:], layout, options))
    base: dict[str, float] = {}
    for column, key in enumerate(keys):
        if key not in result_a:
            continue
        delta = result_b[key] - result_a[key]
        base.update(
            {
                f"{key}_a": result_a[key],
                f"{key}_b": result_b[key],
                f"{key}_delta": delta,
                f"{key}_delta_low": min(float(low[column]), delta),
                f"{key}_delta_high": max(float(high[column]), delta),
                f"{key}_p_value": float(p_values[column]),
            }
        )
    by_bucket: dict[str, dict[str, dict[str, float]]] = {}
    holm_terms: dict[str, list[tuple[str, str]]] = {}
    for name, bucket, key, column in positions:
        present = [side.get(name, {}).get(bucket) for side in scored]
        if all(value is None for value in present) or key not in result_a:
            continue
        a, b = (
            value[key] if value is not None else float(estimate[column]) for value, estimate in zip(present, estimates)
        )
        delta = b - a
        by_bucket.setdefault(name, {}).setdefault(bucket, {}).update(
            {
                f"{key}_a": a,
                f"{key}_b": b,
                f"{key}_delta": delta,
                f"{key}_delta_low": min(float(low[column]), delta),
                f"{key}_delta_high": max(float(high[column]), delta),
                f"{key}_p_value": float(p_values[column]),
            }
        )
        holm_terms.setdefault(key, []).append((name, bucket))
    for key, places in holm_terms.items():
        adjusted = holm([by_bucket[name][bucket][f"{key}_p_value"] for name, bucket in places])
        for (name, bucket), value in zip(places, adjusted):
            by_bucket[name][bucket][f"{key}_p_value_holm"] = value
    return base, by_bucket


# ---------------------------------------------------------------------------------------------------------
# Several runs of a system (docs/scoring.md §9): a unit's row holds every run's counts side by side, so one
# draw of units serves every run (the references, hence the units, are shared), and the runs are drawn on top.
# ---------------------------------------------------------------------------------------------------------


def _per_run(totals: np.ndarray, runs: int, options: Options) -> np.ndarray:
    """Each run's measures (..., runs, 12) from totals holding the runs' six scenario totals side by side."""
    measures = _measures(totals.reshape(*totals.shape[:-1], runs, len(SCENARIOS)), options)
    return measures.reshape(*measures.shape[:-2], -1)


def _run_picks(groups: Sequence[int], resamples: int, seed: int) -> np.ndarray:
    """How often each run is drawn in each resample (resamples x runs): each group of runs (a system's) drawn with
    replacement from itself, as many as it holds. From a generator of its own, so that the units' draws are those
    of one run's bootstrap (a single run gives compute_semeval's and compare_semeval's numbers)."""
    rng = np.random.default_rng((seed, 1))
    largest = max(groups)
    picks = np.empty((resamples, sum(groups)), dtype=np.min_scalar_type(largest))
    start = 0
    for runs in groups:
        picks[:, start : start + runs] = rng.multinomial(runs, [1 / runs] * runs, size=resamples)
        start += runs
    return picks


def _two_level(
    units: SentenceCounts,
    groups: Sequence[int],
    signs: Sequence[float],
    resamples: int,
    seed: int,
    rng: np.random.Generator,
    options: Options,
) -> tuple[np.ndarray, Blocks, np.ndarray, np.ndarray]:
    """The pieces of a two-level bootstrap of the sum over groups of sign x (the mean over the group's drawn runs
    of the measures on the drawn units): the estimate, the resampled statistics (blocks), the leave-one-unit-out
    values and the units' resampled totals (resamples x width, every run's)."""
    runs = sum(groups)
    # Each run's weight in the statistic: sign / runs of its group, so that the picks give the mean of the drawn.
    weights = np.concatenate([np.full(size, sign / size) for size, sign in zip(groups, signs)])
    totals = units.totals()
    drawn = _bootstrap_totals(units, resamples, rng)
    picks = _run_picks(groups, resamples, seed)

    def resampled() -> Iterator[np.ndarray]:
        start = 0
        for block in _blocks(resamples, _SCORED_WIDTH * runs):
            measures = _per_run(drawn[start : start + block], runs, options)
            chosen = picks[start : start + block] * weights
            yield np.einsum("br,brk->bk", chosen, measures)
            start += block

    estimate = weights @ _per_run(totals, runs, options)
    jackknife = np.einsum("r,urk->uk", weights, _per_run(totals - units.vectors, runs, options))
    return estimate, resampled, jackknife, drawn


def run_interval_keys(means: Mapping[str, Any], units: SentenceCounts, runs: int, options: Options) -> dict[str, float]:
    """`{key}_mean_low` and `{key}_mean_high` for every scheme's precision, recall and F: the BCa interval of the
    mean over runs from `options.bootstrap` two-level resamples (runs, then units; docs/scoring.md §9). `units`
    holds the runs' six counts side by side for each unit."""
    keys = _measure_keys(options)
    if units.size:
        rng = np.random.default_rng(options.seed)
        estimate, resampled, jackknife, _ = _two_level(
            units, [runs], [1.0], options.bootstrap, options.seed, rng, options
        )
        low, high = _bca_interval(estimate, resampled, jackknife, units.sentences, options.confidence_level)
    else:
        low = high = np.array([means.get(f"{key}_mean", 0.0) for key in keys])
    intervals = {}
    for key, key_low, key_high in zip(keys, low.tolist(), high.tolist()):
        if f"{key}_mean" not in means:
            continue
        intervals[f"{key}_mean_low"] = min(key_low, means[f"{key}_mean"])
        intervals[f"{key}_mean_high"] = max(key_high, means[f"{key}_mean"])
    return intervals


def runs_comparison(
    units: SentenceCounts, runs_a: int, runs_b: int, options: Options, resamples: int, seed: int
) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """The keys, and for each the two-level BCa interval of mean(B) - mean(A) and the two-sided p-value
    (docs/scoring.md §9). `units` holds A's runs' six counts, then B's, side by side for each unit.

    The p-value: with one run a side, compare_semeval's approximate randomization (two runs show no variation
    between seeds; the question is then about these two outputs). Otherwise a t test of the difference of the
    means, whose variance is the runs' (their variance on these units, pooled over both systems) plus the
    units' (the variance over unit resamples of the difference of means, every run kept, less the part the
    runs' variance already holds), against Student's t with R_A + R_B - 2 degrees of freedom. A permutation
    of run labels alone cannot do with few runs: three runs against three have 20 arrangements, in mirrored
    pairs, so its smallest two-sided p-value is 2/20 = 0.1, and 2 against 2 (6 arrangements) 1/3."""
    keys = _measure_keys(options)
    groups, width = (runs_a, runs_b), len(SCENARIOS)
    if not units.size:
        nothing = np.zeros(len(keys))
        return keys, nothing, nothing, np.ones(len(keys))
    rng = np.random.default_rng(seed)
    estimate, resampled, jackknife, drawn = _two_level(units, groups, (-1.0, 1.0), resamples, seed, rng, options)
    low, high = _bca_interval(estimate, resampled, jackknife, units.sentences, options.confidence_level)
    if runs_a == runs_b == 1:
        # The generator goes on from the units' draws, as compare_semeval's does.

        def difference(totals: np.ndarray) -> np.ndarray:
            delta = _measures(totals[..., width:], options) - _measures(totals[..., :width], options)
            return delta.reshape(*delta.shape[:-2], -1)

        p_values = _randomization_p_values(estimate, map(difference, _swapped_totals(units, resamples, rng)))
        return keys, low, high, p_values
    values = _per_run(units.totals(), runs_a + runs_b, options)
    p_values = _pooled_p_values(values[:runs_a], values[runs_a:], _unit_variances(drawn, groups, options), resamples)
    return keys, low, high, p_values


def _unit_variances(drawn: np.ndarray, groups: Sequence[int], options: Options) -> np.ndarray:
    """The variance over unit resamples (every run kept) of mean(B) - mean(A), less its part that comes from
    runs varying unit by unit, which the runs' own variance already holds. Over unit resamples, each run's
    deviation from its system's mean varies by (R - 1)/R of that part for a system of R runs, so the deviations'
    variances summed over the runs of both systems and divided by R_A + R_B - 2 estimate it (a method-of-moments
    correction, pooled as `_pooled_p_values` pools). Never below 0."""
    runs_a, runs_b = groups
    runs = runs_a + runs_b
    sums = np.zeros(len(_measure_keys(options)))
    squares = np.zeros_like(sums)
    deviations = np.zeros((runs, len(sums)))
    deviation_squares = np.zeros_like(deviations)
    start = 0
    for block in _blocks(len(drawn), _SCORED_WIDTH * runs):
        measures = _per_run(drawn[start : start + block], runs, options)
        mean_a, mean_b = measures[:, :runs_a].mean(axis=1), measures[:, runs_a:].mean(axis=1)
        delta = mean_b - mean_a
        sums += delta.sum(axis=0)
        squares += (delta**2).sum(axis=0)
        apart = measures - np.concatenate(
            (np.repeat(mean_a[:, None], runs_a, axis=1), np.repeat(mean_b[:, None], runs_b, axis=1)), axis=1
        )
        deviations += apart.sum(axis=0)
        deviation_squares += (apart**2).sum(axis=0)
        start += block
    count = len(drawn)
    if count < 2:
        return np.zeros_like(sums)
    variance = (squares - sums**2 / count) / (count - 1)
    spread = (deviation_squares - deviations**2 / count) / (count - 1)  # (runs, k): each run's deviation
    noise = spread.sum(axis=0) / (runs - 2)
    return np.maximum(variance - noise * (1 / runs_a + 1 / runs_b), 0.0)


def _pooled_p_values(values_a: np.ndarray, values_b: np.ndarray, units: np.ndarray, resamples: int) -> np.ndarray:
    """Two-sided p-values of t = (mean B - mean A) / SE, SE² = s²·(1/R_A + 1/R_B) + the units' variance, with s²
    the runs' variance pooled over both systems (R_A + R_B - 2 degrees of freedom: under the null hypothesis the
    runs of A and B are runs of one system, so they vary alike), against Student's t with Satterthwaite's
    degrees of freedom (the units' part, estimated from many units, counted as known: R_A + R_B - 2 when it is
    0, more as it grows). Welch's separate variances, tried
    first, rejected 8.6 % of null pairs of 2 runs against 5 at 5 % (tests/test_runs.py). Where nothing varies,
    p is 1 for no difference and the resamples' floor 1 / (n + 1) otherwise."""
    runs_a, runs_b = len(values_a), len(values_b)
    runs_freedom = runs_a + runs_b - 2
    squares = ((values_a - values_a.mean(axis=0)) ** 2).sum(axis=0) + ((values_b - values_b.mean(axis=0)) ** 2).sum(
        axis=0
    )
    seeds = squares / runs_freedom * (1 / runs_a + 1 / runs_b)
    error = np.sqrt(seeds + units)
    delta = values_b.mean(axis=0) - values_a.mean(axis=0)
    varies = (error != 0) & np.isfinite(error)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.abs(delta) / error
        # Satterthwaite: the runs' part brings R_A + R_B - 2 degrees of freedom, the units' part (from many
        # units) as good as infinitely many (the normal); all the runs' when the units' part is 0.
        freedom = np.where(seeds > 0, error**4 / (seeds**2 / runs_freedom), np.inf)
        p_values = _two_sided_t(t, np.where(freedom > 1e6, np.inf, freedom))
    return np.where(varies, p_values, np.where(np.abs(delta) < 1e-12, 1.0, 1 / (resamples + 1)))


def _two_sided_t(t: np.ndarray, freedom: np.ndarray) -> np.ndarray:
    """P(|T| >= t) for Student's T with `freedom` degrees of freedom (infinite: the normal)."""
    # scipy (a dependency) imported here, so that `import nerscore` stays numpy's cost (tests/test_house.py):
    # `stdtr` is the function scipy.stats.t.sf calls, without scipy.stats' second of import.
    from scipy.special import stdtr  # type: ignore[import-untyped]

    return 2 * stdtr(freedom, -np.asarray(t))
