"""The statistics the resampling measures (docs/scoring.md §9): every scheme's precision, recall and F (and with
`value` the value keys, §10; with slices every bucket's, §11) as a function of scenario totals, in floats over
arrays of totals (one row per resample), by `scores`' rules (`measures.Rule`), and the keys they go under.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from ..measures import Rule, possible_actual
from ..option_checks import OVERLAP
from ..options import EVALUATION_SCHEMES, Options
from ..pairing.rules import SCENARIOS
from ..result_scores import VALUE_COLUMNS, cost_scale, weighted_width
from ..tally import COUNT_NAMES, OUTCOME_MATRIX
from .unit_counts import Vectors, dense_columns, is_sparse

# The terms `_measures` reads, per scheme: COR, PAR, ACT = COR + INC + PAR + SPU and POS = COR + INC + PAR + MIS,
# from scenario totals in one product (a third of its time, slices' thousands of buckets): the counts are whole
# numbers, so their sums are exact in any order, the floats those of the outcomes summed one by one.
_COUNT_SHARES = np.eye(len(COUNT_NAMES))  # (each count's share of COR, PAR: itself; of POS and ACT: possible_actual's)
_TERMS_MATRIX = (
    OUTCOME_MATRIX.reshape(len(SCENARIOS), len(EVALUATION_SCHEMES), len(COUNT_NAMES))
    @ np.column_stack([_COUNT_SHARES[0], _COUNT_SHARES[2], *possible_actual(*_COUNT_SHARES)[::-1]])
).reshape(len(SCENARIOS), -1)
# docs/scoring.md §10: the bound under which `value_exponent` keeps a resample's value (in its scaled units), so
# that the difference of two, np.quantile's interpolation and the jackknife's sums (scaled first, `bca_interval`)
# stay finite, with room for the rounding of sums (a jackknife's worth is at least 2**-53 of a sentence's).
VALUE_BOUND = 2.0**960
# The measures the statistics cover, in the order of `_measures`' last axis; F's key depends on beta.
_MEASURES = ("precision", "recall", "f")


def _measures(totals: np.ndarray, options: Options, overlap: np.ndarray | None = None) -> np.ndarray:
    """Precision, recall and F of every scheme for scenario totals of shape (..., 6): shape (..., 4 schemes,
    3 measures), by `scores`' rules (`measures.Rule`) in floats where `scores` works in exact ratios;
    P and R are the correctly rounded floats `scores` gives, F within rounding (tests/test_sample_statistics.py)."""
    terms = np.asarray(totals, dtype=np.float64) @ _TERMS_MATRIX
    correct, partial, actual, possible = np.moveaxis(
        terms.reshape(*terms.shape[:-1], len(EVALUATION_SCHEMES), 4), -1, 0
    )
    if overlap is None:  # docs/scoring.md §10: a PAR earns partial_credit (a half unless told)
        credit = correct + partial * float(options.partial_credit)
    else:  # the overlap credit, of the partial scheme's PARs (the only scheme with any)
        credit = correct + overlap[..., None] * _PARTIAL_ONLY
    return Rule.of(options).floats(credit, actual, credit, possible)


def measure_keys(options: Options) -> list[str]:
    """The keys of the statistics, in the order of `statistics`: strict_precision ... type_f1, and with `value`
    the four value keys (docs/scoring.md §10)."""
    names = [options.f_name if measure == "f" else measure for measure in _MEASURES]
    keys = [f"{scheme}_{name}" for scheme in EVALUATION_SCHEMES for name in names]
    if options.value is not None:
        keys += ["value", "value_precision", "value_recall", f"value_{options.f_name}"]
    return keys


_PARTIAL_ONLY = np.array([float(scheme == "partial") for scheme in EVALUATION_SCHEMES])


def statistics(totals: np.ndarray, options: Options, exponent: int = 0) -> np.ndarray:
    """The statistics of totals (..., 6 + `weighted_width`): every scheme's P, R and F (`_measures`), then with
    `value` the value, its precision, recall and F (docs/scoring.md §10), by `scores.value_scores`' rules; the
    value divided by 2**`exponent` (`value_exponent`, `scaled_back`)."""
    width = len(SCENARIOS)
    overlap = totals[..., width] if options.partial_credit == OVERLAP else None
    measures = _measures(totals[..., :width], options, overlap)
    measures = measures.reshape(*measures.shape[:-2], -1)
    if options.value is None:
        return measures
    kept, kept_precision, cost, worth_r, worth_p = np.moveaxis(np.asarray(totals[..., -5:], dtype=np.float64), -1, 0)
    rule = Rule.of(options)
    scale = cost_scale(options.value)
    if not exponent:  # (`value_exponent`: the value of every total lies well within floats)
        with np.errstate(over="ignore", invalid="ignore"):  # (the agreement's F reads no value: any exponent)
            value = rule.share(kept - cost * scale, worth_r)
    else:
        # docs/scoring.md §10: the value divided by 2**exponent, where a resample's may pass the largest float.
        # The cost column is kept divided by `scale` (2**shift, a false_alarm above 2**900) so that its sums stay
        # finite; the numerator is divided by 2**beyond where cost·scale would pass 2**1000 (so kept, below the
        # cost's last digit there, changes nothing), and the quotient is that of the significands, its exponent
        # that of the two: powers of two, which change no digit.
        shift = math.frexp(scale)[1] - 1
        beyond = np.maximum(0, np.frexp(cost)[1] + shift - 1000)
        numerator, numerator_power = np.frexp(np.ldexp(kept, -beyond) - np.ldexp(cost, shift - beyond))
        denominator, denominator_power = np.frexp(worth_r)
        with np.errstate(divide="ignore", invalid="ignore"):
            power = numerator_power - denominator_power + beyond - exponent
            quotient = np.ldexp(numerator / denominator, power)
        value = np.where(worth_r > 0, quotient, math.ldexp(rule.zero_division, -exponent))
    value_measures = rule.floats(kept_precision, worth_p, kept, worth_r)
    return np.concatenate((measures, value[..., None], value_measures), axis=-1)


def value_exponent(vectors: Vectors, systems: int, size: int, options: Options) -> int:
    """docs/scoring.md §10: the power of two (its exponent, 0 or more) the statistics keep the value divided by,
    so that its value on any total of at most `size` rows of `vectors` (each holding `systems` systems' columns
    side by side, each system's led by its six counts and its weighted columns) lies within `VALUE_BOUND`: a
    resample, a leave-one-out sample or a swap. 0 (the value as it is) unless weights are extreme: a
    false_alarm of 1e308 gives values of resamples beyond the largest float, where the result's own is within."""
    rows, width = vectors.shape
    if options.value is None or not rows or not width:
        return 0
    start = len(SCENARIOS) + (options.partial_credit == OVERLAP)
    per_system = width // systems
    picked = [system * per_system + start + column for system in range(systems) for column in range(len(VALUE_COLUMNS))]
    columns = dense_columns(vectors, picked).reshape(rows, systems, len(VALUE_COLUMNS))
    kept, cost, worth = (np.asarray(columns[..., index], dtype=np.float64) for index in (0, 2, 3))

    def power(values: np.ndarray) -> int:  # 2**power bounds the largest (a float's least exponent for none)
        return math.frexp(float(values.max(initial=0.0)))[1] if values.any() else -1100

    # |Σ kept - Σ cost·scale| <= size · the largest sentence's, below 2**top; Σ worth >= the smallest positive
    # sentence's, at least 2**bottom.
    top = max(power(kept), power(cost) + math.frexp(cost_scale(options.value))[1] - 1) + size.bit_length()
    positive = worth[worth > 0]
    bottom = math.frexp(float(positive.min()))[1] - 1 if positive.size else 0
    return max(0, top - min(bottom, 0) - (math.frexp(VALUE_BOUND)[1] - 1))


def scaled_back(
    keys: list[str], low: np.ndarray, high: np.ndarray, exponent: int, options: Options, name: str = "value"
) -> tuple[np.ndarray, np.ndarray]:
    """The interval's ends `low` and `high` (by `keys`, `measure_keys`' order) with the value's multiplied back by
    2**`exponent` (`value_exponent`). An end that no float holds is a `ValueError` naming it (`name`_low or
    _high), as the value's own is (docs/scoring.md §10)."""
    if not exponent or "value" not in keys:
        return low, high
    column = keys.index("value")
    low, high = np.array(low, dtype=np.float64), np.array(high, dtype=np.float64)
    for end, ends in (("low", low), ("high", high)):
        try:
            ends[column] = math.ldexp(float(ends[column]), exponent)
        except OverflowError:
            assert options.value is not None
            mantissa, power = math.frexp(float(ends[column]))
            digits = (power + exponent) * math.log10(2) + math.log10(abs(mantissa))
            size = f"{'-' if mantissa < 0 else ''}{10 ** (digits % 1):.2f}e+{int(digits)}"
            raise ValueError(
                f"value: with false_alarm={options.value.false_alarm!r} and these type weights, the interval's "
                f"{name}_{end} is about {size}, beyond the largest float ({sys.float_info.max:.4g}); expected "
                "weights under which the value's resamples stay within it: lower false_alarm, or bring the type "
                "weights closer (docs/scoring.md §10)"
            ) from None
    return low, high


# ---------------------------------------------------------------------------------------------------------
# Slices (docs/scoring.md §11): each sentence's vector carries, beside its six scenario counts, its counts in
# every bucket (`slices.SliceCounts.layout`), so that one resample of the sentences gives the totals and every
# bucket at once: a bucket's interval is that of the same resamples of all sentences, never of its own.
# ---------------------------------------------------------------------------------------------------------


def slice_measures(
    totals: np.ndarray, layout: list[tuple[str, int, int, int]], options: Options, exponent: int = 0
) -> np.ndarray:
    """Precision, recall and F of every scheme of the totals and of every bucket, flattened: the statistics of
    the totals (`statistics`, with `value` its four keys too), then 12 per bucket in `layout`'s order ((slice,
    first column, columns per bucket, buckets), columns counted after the six scenario counts and
    docs/scoring.md §10's weighted columns). A two-sided bucket's precision is that of the rows whose prediction
    lies in it, its recall that of the rows whose reference does (docs/scoring.md §5). The value divided by
    2**`exponent` (`statistics`)."""
    width = len(SCENARIOS)
    base = width + weighted_width(options)
    parts = [statistics(totals[..., :base], options, exponent)]
    for _, start, per_bucket, buckets in layout:
        block = totals[..., base + start : base + start + per_bucket * buckets]
        block = block.reshape(*totals.shape[:-1], buckets, per_bucket)
        parts.append(
            bucket_measures(block, options).reshape(
                *totals.shape[:-1], buckets * len(EVALUATION_SCHEMES) * len(_MEASURES)
            )
        )
    return np.concatenate(parts, axis=-1)


def bucket_measures(block: np.ndarray, options: Options) -> np.ndarray:
    """Precision, recall and F of every scheme (12 columns) of bucket totals (..., columns per bucket): a
    sentence-level bucket's six scenario counts, or a two-sided bucket's (those of the rows whose reference lies in
    it, then of those whose prediction does, docs/scoring.md §5)."""
    width = len(SCENARIOS)
    if block.shape[-1] == 2 * width:
        precision = _measures(block[..., width:], options)[..., 0]
        recall = _measures(block[..., :width], options)[..., 1]
        measures = np.stack((precision, recall, Rule.of(options).f(precision, recall)), axis=-1)
    else:
        measures = _measures(block, options)
    return measures.reshape(*block.shape[:-1], len(EVALUATION_SCHEMES) * len(_MEASURES))


@dataclass(frozen=True)
class SparseJackknife:
    """A jackknife (each unit left out in turn, `resampling.bca_interval`) whose bucket statistics are held only
    where the unit left out has counts in the bucket: elsewhere a bucket's statistics are its estimate's (a
    sentence in one group changes no other group's), so units x buckets are never held. `dense` (units x the
    first columns) are the totals' statistics, which every unit changes; then (`units`, `columns`, `values`) one
    entry per unit, bucket and statistic."""

    dense: np.ndarray
    units: np.ndarray
    columns: np.ndarray
    values: np.ndarray
    estimate: np.ndarray  # every statistic's estimate: a bucket statistic's value for a unit not listed


# A part of a statistic's columns (`SliceStatistics.parts`): the totals' columns it reads, the statistics' columns
# it gives, and its statistic of those totals.
StatisticPart = tuple[np.ndarray, slice, Callable[[np.ndarray], np.ndarray]]


@dataclass(frozen=True)
class SliceStatistics:
    """`slice_measures` as the function of totals the resampling measures (`resampling.Statistic`): one system's,
    or with `paired` B - A of totals holding system A's columns then B's (the paired comparison's), with the
    value divided by 2**`exponent`; and its jackknife, sparse where the vectors are (`SparseJackknife`)."""

    layout: list[tuple[str, int, int, int]]
    options: Options
    exponent: int = 0
    paired: bool = False

    def __call__(self, totals: np.ndarray) -> np.ndarray:
        if not self.paired:
            return slice_measures(totals, self.layout, self.options, self.exponent)
        half = totals.shape[-1] // 2
        system_a, system_b = (
            slice_measures(side, self.layout, self.options, self.exponent)
            for side in (totals[..., :half], totals[..., half:])
        )
        return system_b - system_a

    def parts(self, width: int, per_part: int) -> list[StatisticPart]:
        """The statistic as parts of its columns, for totals `width` wide: the totals' statistics, then each slice's
        buckets about `per_part` statistics at a time. Each part is (the totals' columns it reads, of every system;
        the statistics' columns it gives; its statistic of those columns): a bucket's statistics read its own columns
        only, so `resampling.resampled_interval` scores the resamples part by part and never holds resamples x
        buckets (a group slice of 5,000 groups and 10,000 resamples: 4.8 GB of statistics). The floats are those of
        the whole (`slice_measures` scores each bucket on its own)."""
        systems = 2 if self.paired else 1
        per_system, base = width // systems, len(SCENARIOS) + weighted_width(self.options)

        def columns(first: int, count: int) -> np.ndarray:
            return np.concatenate([system * per_system + first + np.arange(count) for system in range(systems)])

        column = len(measure_keys(self.options))
        totals = SliceStatistics([], self.options, self.exponent, self.paired)
        found: list[StatisticPart] = [(columns(0, base), slice(0, column), totals)]
        bucket_keys = len(EVALUATION_SCHEMES) * len(_MEASURES)
        step = max(1, per_part // bucket_keys)
        for _, start, per_bucket, buckets in self.layout:
            statistic = BucketStatistics(per_bucket, self.options, self.paired)
            for first in range(0, buckets, step):
                count = min(step, buckets - first)
                read = columns(base + start + first * per_bucket, count * per_bucket)
                found.append((read, slice(column, column + count * bucket_keys), statistic))
                column += count * bucket_keys
        return found

    def jackknife(self, totals: np.ndarray, vectors: Vectors) -> np.ndarray | SparseJackknife:
        """The statistics of `totals` less each row of `vectors` (the units left out one at a time)."""
        if not is_sparse(vectors):
            return self(totals - vectors)
        systems = 2 if self.paired else 1
        per_system = vectors.shape[1] // systems
        base = len(SCENARIOS) + weighted_width(self.options)
        picked = np.concatenate([system * per_system + np.arange(base) for system in range(systems)])
        base_statistics = SliceStatistics([], self.options, self.exponent, self.paired)
        dense = base_statistics(totals[picked] - dense_columns(vectors, picked))
        entries = vectors.tocoo()
        unit, column, count = entries.row, entries.col, entries.data
        system, local = np.divmod(column, per_system)
        local = local - base
        units, statistic_columns, values = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)], [np.zeros(0)]
        first_statistic = dense.shape[1]
        for _, start, per_bucket, buckets in self.layout:
            held = (local >= start) & (local < start + per_bucket * buckets)
            bucket, within = np.divmod(local[held] - start, per_bucket)
            pairs, pair = np.unique(unit[held] * buckets + bucket, return_inverse=True)
            left_out = np.zeros((len(pairs), systems, per_bucket), dtype=totals.dtype)
            left_out[pair.reshape(-1), system[held], within] = count[held]
            pair_unit, pair_bucket = np.divmod(pairs, buckets)
            block = totals.reshape(systems, per_system)[:, base + start : base + start + per_bucket * buckets]
            block = block.reshape(systems, buckets, per_bucket)
            measured = bucket_measures(block[:, pair_bucket].transpose(1, 0, 2) - left_out, self.options)
            measured = measured[:, 1] - measured[:, 0] if self.paired else measured[:, 0]
            keys = measured.shape[1]
            units.append(np.repeat(pair_unit, keys))
            statistic_columns.append(first_statistic + (pair_bucket[:, None] * keys + np.arange(keys)).reshape(-1))
            values.append(measured.reshape(-1))
            first_statistic += keys * buckets
        return SparseJackknife(
            dense, np.concatenate(units), np.concatenate(statistic_columns), np.concatenate(values), self(totals)
        )


@dataclass(frozen=True)
class BucketStatistics:
    """`bucket_measures` of consecutive buckets of `per_bucket` columns each, of one system, or with `paired` B - A
    of totals holding system A's bucket columns then B's: a part of `SliceStatistics` (`SliceStatistics.parts`)."""

    per_bucket: int
    options: Options
    paired: bool = False

    def __call__(self, totals: np.ndarray) -> np.ndarray:
        systems = 2 if self.paired else 1
        measured = bucket_measures(totals.reshape(*totals.shape[:-1], systems, -1, self.per_bucket), self.options)
        measured = measured[..., 1, :, :] - measured[..., 0, :, :] if self.paired else measured[..., 0, :, :]
        return measured.reshape(*totals.shape[:-1], -1)


def slice_key_positions(
    layout: list[tuple[str, int, int, int]], names: Mapping[str, list[str]], options: Options
) -> Iterator[tuple[str, str, str, int]]:
    """(slice, bucket, key, column of `slice_measures`) for every bucket statistic: a bucket's keys are the
    schemes' P, R and F (a bucket has no value score, docs/scoring.md §11)."""
    column = len(measure_keys(options))
    bucket_keys = measure_keys(options.evolve(value=None))
    for name, _, _, buckets in layout:
        for bucket in names[name][:buckets]:
            for key in bucket_keys:
                yield name, bucket, key, column
                column += 1


def slice_layout(names: Mapping[str, list[str]], layout: list[tuple[str, int, int]]) -> list[tuple[str, int, int, int]]:
    """`SliceCounts.layout` with each slice's number of buckets."""
    return [(name, start, per_bucket, len(names[name])) for name, start, per_bucket in layout]


def jackknife_moments(jackknife: np.ndarray | SparseJackknife, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The weighted second and third central moments (sums) of each column of jackknife values (units x k, or
    sparse), each unit standing for `weights` sentences: `resampling.bca_interval`'s acceleration."""
    if isinstance(jackknife, SparseJackknife):
        return _sparse_moments(jackknife, weights)
    return _moments(jackknife, weights)


def _moments(jackknife: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The weighted second and third central moments (sums) of each column of jackknife values, for the
    acceleration: the skewness of the jackknife values."""
    # It does not change when a column is scaled, so a column whose values are huge (docs/scoring.md §10's value
    # under extreme false alarms: up to 2**961) is scaled by a power of two first, and its deviations again where
    # they are huge or tiny (extreme type weights), so that their sums, squares and cubes neither overflow nor
    # vanish; other columns are left exactly as they are.
    jackknife = jackknife * power_of_two_scale(np.abs(jackknife).max(axis=0, initial=0.0))
    centred = (weights @ jackknife) / weights.sum() - jackknife
    centred = centred * power_of_two_scale(np.abs(centred).max(axis=0, initial=0.0))
    with np.errstate(over="ignore", invalid="ignore"):
        return weights @ centred**2, weights @ centred**3


def _sparse_moments(jackknife: SparseJackknife, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`_moments` of a `SparseJackknife`: its bucket columns' sums run over the units listed for each, and once
    over the rest, which all hold the estimate (scaled as `_moments` scales)."""
    second, third = _moments(jackknife.dense, weights)
    first = jackknife.dense.shape[1]
    count = len(jackknife.estimate) - first
    column, value = jackknife.columns - first, jackknife.values
    weight = weights[jackknife.units].astype(np.float64)
    total = float(weights.sum())
    rest = total - np.bincount(column, weights=weight, minlength=count)  # the weight of the units not listed
    estimate = jackknife.estimate[first:]

    def largest(values: np.ndarray, others: np.ndarray) -> np.ndarray:  # per column, of its entries and the rest
        most = np.where(rest > 0, np.abs(others), 0.0)
        np.maximum.at(most, column, np.abs(values))
        return most

    scale = power_of_two_scale(largest(value, estimate))
    value, estimate = value * scale[column], estimate * scale
    mean = (np.bincount(column, weights=weight * value, minlength=count) + rest * estimate) / total
    centred, centred_rest = mean[column] - value, mean - estimate
    scale = power_of_two_scale(largest(centred, centred_rest))
    centred, centred_rest = centred * scale[column], centred_rest * scale
    with np.errstate(over="ignore", invalid="ignore"):
        moments = [
            np.bincount(column, weights=weight * centred**power, minlength=count) + rest * centred_rest**power
            for power in (2, 3)
        ]
    return np.concatenate((second, moments[0])), np.concatenate((third, moments[1]))


def power_of_two_scale(largest: np.ndarray, smallest: float = 2.0**-100) -> np.ndarray:
    """Per column, 1 where its largest magnitude lies within `smallest` and 2**100 (or is 0 or not finite), else
    the power of two that brings it within 1/2 and 1 (within 2**-1000 and 2**1000 of it, a float's own reach):
    scaling by it changes no digit, and the column's squares and cubes neither overflow nor vanish."""
    odd = np.isfinite(largest) & (largest > 0) & ((largest > 2.0**100) | (largest < smallest))
    exponents = np.clip(-np.frexp(np.where(odd, largest, 1.0))[1], -1000, 1000)
    return np.where(odd, np.ldexp(1.0, exponents), 1.0)
