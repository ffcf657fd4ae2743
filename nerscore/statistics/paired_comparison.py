"""The paired test of two systems (docs/scoring.md §9, §11): the BCa interval of B - A and the approximate
randomization p-value of every key, for the totals (`comparison`) and every bucket of the slices
(`slice_comparison`, with Holm's correction), from one generator.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..options import EVALUATION_SCHEMES, Options
from ..pairing.rules import SCENARIOS
from ..result_scores import scores, weighted_width
from ..tally import Tally
from .resampling import Statistic, resampled_interval, swapped_totals
from .sample_statistics import (
    SliceStatistics,
    measure_keys,
    scaled_back,
    slice_measures,
    value_exponent,
)
from .unit_counts import SentenceCounts, mirrored, sides_in_order

# A bucket's statistics: every scheme's precision, recall and F (docs/scoring.md §11).
_BUCKET_KEYS = len(EVALUATION_SCHEMES) * 3


def randomization_p_values(
    pairs: SentenceCounts, difference: Statistic, observed: np.ndarray, shuffles: int, rng: np.random.Generator
) -> np.ndarray:
    """Two-sided p-values of approximate randomization (Yeh 2000; Riezler and Maxwell 2005): the share of
    `shuffles` swaps of the units' two outputs (`swapped_totals`) whose `difference` is at least as far from zero
    as the `observed` one, counted as (c + 1) / (n + 1) (as scipy's permutation_test counts a randomized test), so
    never 0, and 1 for a system against itself. Differences that are equal but rounded differently count as equal
    (scipy's relative tolerance)."""
    tolerance = 100 * np.finfo(np.float64).eps * np.abs(observed)
    extreme = np.zeros(len(observed), dtype=np.int64)
    for totals in swapped_totals(pairs, shuffles, rng, pairs.vectors.shape[1] // 2):
        extreme += (np.abs(difference(totals)) >= np.abs(observed) - tolerance).sum(axis=0)
    return (extreme + 1) / (shuffles + 1)


def comparison(
    tally_a: Tally, tally_b: Tally, pairs: SentenceCounts, options: Options, resamples: int, seed: int
) -> dict[str, float]:
    """`compare_semeval`'s dict from the two systems' tallies and their per-sentence counts, side by side: the
    totals of `slice_comparison` without slices."""
    return slice_comparison(tally_a, tally_b, pairs, {}, [], ({}, {}), options, resamples, seed)[0]


def difference_keys(
    key: str, value_a: float, value_b: float, low: float, high: float, p_value: float, suffix: str = ""
) -> dict[str, float]:
    """One measure's keys of a comparison (compare_semeval's; compare_runs' of the means, `suffix` "_mean"): A, B,
    B - A, its interval (which holds B - A itself) and its p-value."""
    delta = value_b - value_a
    return {
        f"{key}_a{suffix}": value_a,
        f"{key}_b{suffix}": value_b,
        f"{key}_delta": delta,
        f"{key}_delta_low": min(low, delta),
        f"{key}_delta_high": max(high, delta),
        f"{key}_p_value": p_value,
    }


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (Holm 1979), in the order given: the i-th smallest of m times
    (m - i + 1), never below the one before, at most 1. (scipy.stats.false_discovery_control does
    Benjamini-Hochberg, not Holm; statsmodels' multipletests has it, but is not a dependency.)"""
    # One array operation a step, not a Python step a bucket (thousands with a group slice): a stable sort as
    # `sorted`'s, the same products and the running maximum.
    values = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(values, kind="stable")
    scaled = np.minimum(1.0, np.arange(len(values), 0, -1) * values[order])
    adjusted = np.empty(len(values))
    adjusted[order] = np.maximum.accumulate(np.maximum(scaled, 0.0)) if len(values) else scaled
    return adjusted.tolist()


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
    # docs/scoring.md §10: the value divided by a power of two where extreme weights take it beyond floats; a
    # shuffle's or a resample's, of either system, within the bound, so their difference too.
    exponent = value_exponent(pairs.vectors, 2, pairs.size, options)

    result_a, result_b = scores(tally_a, options), scores(tally_b, options)
    keys = measure_keys(options)
    totals = pairs.totals()
    estimates = tuple(slice_measures(side, layout, options, exponent) for side in (totals[:half], totals[half:]))
    observed = estimates[1] - estimates[0]  # difference(totals)
    # The interval's resamples and the swaps from one generator (docs/scoring.md §9), drawn on the two systems in
    # an order of their own (`sides_in_order`), so that swapping A and B mirrors the interval and keeps p.
    drawn_on, orientation = sides_in_order(pairs, half)
    # Buckets where no unit's two outputs differ have B - A = 0 in every resample and every swap: resampled
    # without them (the same units, so the same draws), their interval is [0, 0] and their p-value 1.
    varying, statistic_columns, varying_layout = _varying_buckets(drawn_on, layout, options)
    difference = SliceStatistics(varying_layout, options, exponent, paired=True)
    rng = np.random.default_rng(seed)
    low_varying, high_varying = mirrored(
        *resampled_interval(varying, difference, resamples, rng, options.confidence_level), orientation
    )
    low_scaled, high_scaled = np.zeros(len(observed)), np.zeros(len(observed))
    low_scaled[statistic_columns], high_scaled[statistic_columns] = low_varying, high_varying
    p_found = np.ones(len(observed))
    p_found[statistic_columns] = randomization_p_values(
        varying, difference, observed[statistic_columns], resamples, rng
    )
    p_values = p_found.tolist()
    low, high = (ends.tolist() for ends in scaled_back(keys, low_scaled, high_scaled, exponent, options, "value_delta"))
    base: dict[str, float] = {}
    for column, key in enumerate(keys):
        if key in result_a:  # not a scheme that `evaluation_schemes` leaves out
            base.update(difference_keys(key, result_a[key], result_b[key], low[column], high[column], p_values[column]))
    by_bucket: dict[str, dict[str, dict[str, float]]] = {}
    holm_terms: dict[str, list[tuple[str, str]]] = {}
    # Bucket by bucket, each bucket's 12 statistics after the totals' (`sample_statistics.slice_key_positions`),
    # each key that `evaluation_schemes` keeps; a bucket with no entity in either system is left out.
    bucket_keys = measure_keys(options.evolve(value=None))
    kept = [(offset, key) for offset, key in enumerate(bucket_keys) if key in result_a]
    estimate_a, estimate_b = (estimate.tolist() for estimate in estimates)
    column = len(keys)
    for name, _, _, buckets in layout:
        sides = [side.get(name, {}) for side in scored]
        for bucket in names[name][:buckets]:
            value_a, value_b = (side.get(bucket) for side in sides)
            if value_a is not None or value_b is not None:
                out = by_bucket.setdefault(name, {}).setdefault(bucket, {})
                for offset, key in kept:
                    at = column + offset
                    a = value_a[key] if value_a is not None else estimate_a[at]
                    b = value_b[key] if value_b is not None else estimate_b[at]
                    out.update(difference_keys(key, a, b, low[at], high[at], p_values[at]))
                    holm_terms.setdefault(key, []).append((name, bucket))
            column += len(bucket_keys)
    for key, places in holm_terms.items():
        adjusted = holm([by_bucket[name][bucket][f"{key}_p_value"] for name, bucket in places])
        for (name, bucket), value in zip(places, adjusted):
            by_bucket[name][bucket][f"{key}_p_value_holm"] = value
    return base, by_bucket


def _varying_buckets(
    pairs: SentenceCounts, layout: list[tuple[str, int, int, int]], options: Options
) -> tuple[SentenceCounts, np.ndarray, list[tuple[str, int, int, int]]]:
    """`pairs` with the columns of only the buckets where some unit's two systems differ (the same units in the
    same order: the bootstrap draws the same, and the same units are swapped), the columns of `SliceStatistics`
    of `layout` that its statistics give, and its layout. (A group slice where the two systems agree on most
    sentences: most groups.)"""
    keys = len(measure_keys(options))
    if not layout or not pairs.size:
        return pairs, np.arange(keys + sum(buckets for *_, buckets in layout) * _BUCKET_KEYS), layout
    half, base = pairs.vectors.shape[1] // 2, len(SCENARIOS) + weighted_width(options)
    read, statistic_columns, varying_layout = [np.arange(base)], [np.arange(keys)], []
    start, column = 0, keys
    for name, first, per_bucket, buckets in layout:
        columns = base + first + np.arange(per_bucket * buckets)
        differ = (pairs.vectors[:, columns] != pairs.vectors[:, half + columns]).sum(axis=0)
        varies = np.flatnonzero((np.asarray(differ).reshape(buckets, per_bucket) > 0).any(axis=1))
        read.append(base + first + (varies[:, None] * per_bucket + np.arange(per_bucket)).reshape(-1))
        statistic_columns.append(column + (varies[:, None] * _BUCKET_KEYS + np.arange(_BUCKET_KEYS)).reshape(-1))
        varying_layout.append((name, start, per_bucket, len(varies)))
        start, column = start + per_bucket * len(varies), column + buckets * _BUCKET_KEYS
    kept = np.concatenate(read)
    vectors = pairs.vectors[:, np.concatenate((kept, half + kept))]
    return SentenceCounts(vectors, pairs.sentences), np.concatenate(statistic_columns), varying_layout
