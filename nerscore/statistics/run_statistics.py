"""The statistics of several runs of each system (docs/scoring.md §9): the two-level bootstrap (runs, then units)
of the mean over runs, and the comparison of two systems' runs (its interval, and a t test against Student's t).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..options import Options
from .paired_comparison import randomization_p_values
from .resampling import (
    SCORED_WIDTH,
    bca_interval,
    bootstrap_totals,
    check_memory,
    holding_estimates,
    resample_blocks,
    totals_bytes,
)
from .sample_statistics import (
    SliceStatistics,
    measure_keys,
    power_of_two_scale,
    scaled_back,
    statistics,
    value_exponent,
)
from .unit_counts import SentenceCounts, mirrored, sides_in_order

# ---------------------------------------------------------------------------------------------------------
# Several runs of a system (docs/scoring.md §9): a unit's row holds every run's counts side by side, so one
# draw of units serves every run (the references, hence the units, are shared), and the runs are drawn on top.
# A run's counts are its six scenario counts and, when asked for, §10's weighted columns (the overlap credit,
# the value's sums): the statistics of one run are then those of its single-run bootstrap (`statistics`).
# ---------------------------------------------------------------------------------------------------------


def _per_run(totals: np.ndarray, runs: int, options: Options, exponent: int = 0) -> np.ndarray:
    """Each run's statistics (..., runs, k: `measure_keys`' order) from totals holding the runs' counts side by
    side (six scenario totals, then §10's weighted columns when asked for), the value divided by 2**`exponent`
    (`value_exponent`: the same for every run, every draw and both systems)."""
    return statistics(totals.reshape(*totals.shape[:-1], runs, -1), options, exponent)


def _drawn_measures(
    drawn: np.ndarray, runs: int, options: Options, exponent: int
) -> Iterator[tuple[slice, np.ndarray]]:
    """Each run's statistics (`_per_run`) of the resampled totals `drawn`, block by block, with the block's rows."""
    for rows in resample_blocks(len(drawn), SCORED_WIDTH * runs):
        yield rows, _per_run(drawn[rows], runs, options, exponent)


def _run_picks(groups: Sequence[int], resamples: int, seed: int) -> np.ndarray:
    """How often each run is drawn in each resample (resamples x runs): each group of runs (a system's) drawn with
    replacement from itself, as many as it holds. From a generator of its own, so that the units' draws are those
    of one run's bootstrap (a single run gives compute_semeval's and compare_semeval's numbers)."""
    rng = np.random.default_rng((seed, 1))
    picks = [rng.multinomial(runs, [1 / runs] * runs, size=resamples) for runs in groups]
    return np.hstack(picks).astype(np.min_scalar_type(max(groups)))


def _two_level(
    units: SentenceCounts,
    groups: Sequence[int],
    signs: Sequence[float],
    resamples: int,
    seed: int,
    options: Options,
    name: str,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, np.random.Generator]:
    """The BCa interval of a two-level bootstrap (docs/scoring.md §9) of the sum over groups of sign x (the mean
    over the group's drawn runs of the measures on the drawn units), the value's ends multiplied back and named
    `name` (`scaled_back`); then what the runs' test reads: the estimate, the units' resampled totals (resamples x
    width, every run's), the value's exponent (`value_exponent`) and the generator, which goes on from the
    units' draws."""
    runs = sum(groups)
    # The totals of every resample, and the runs' picks (drawn as int64), are held through the interval.
    check_memory(resamples, len(measure_keys(options)), units, totals_bytes(units) + 9 * runs, "fewer runs")
    rng = np.random.default_rng(seed)
    exponent = value_exponent(units.vectors, runs, units.size, options)  # docs/scoring.md §10
    # Each run's weight in the statistic: sign / runs of its group, so that the picks give the mean of the drawn.
    weights = np.concatenate([np.full(size, sign / size) for size, sign in zip(groups, signs)])
    totals = units.totals()
    drawn = bootstrap_totals(units, resamples, rng)
    picks = _run_picks(groups, resamples, seed)

    def resampled() -> Iterator[np.ndarray]:
        for rows, measures in _drawn_measures(drawn, runs, options, exponent):
            yield np.einsum("br,brk->bk", picks[rows] * weights, measures)

    estimate = weights @ _per_run(totals, runs, options, exponent)
    jackknife = np.einsum("r,urk->uk", weights, _per_run(totals - units.vectors, runs, options, exponent))
    low, high = bca_interval(estimate, resampled, jackknife, units.sentences, options.confidence_level)
    low, high = scaled_back(measure_keys(options), low, high, exponent, options, name)
    return low, high, estimate, drawn, exponent, rng


def run_interval_keys(means: Mapping[str, Any], units: SentenceCounts, runs: int, options: Options) -> dict[str, float]:
    """`{key}_mean_low` and `{key}_mean_high` for every scheme's precision, recall and F (and with `value` the
    value keys): the BCa interval of the mean over runs from `options.bootstrap` two-level resamples (runs, then
    units; docs/scoring.md §9). `units` holds the runs' counts (`_per_run`) side by side for each unit."""
    keys = measure_keys(options)
    if units.size:
        low, high, *_ = _two_level(units, [runs], [1.0], options.bootstrap, options.seed, options, "value_mean")
    else:
        low = high = np.array([means.get(f"{key}_mean", 0.0) for key in keys])
    return holding_estimates(keys, low, high, means, "_mean")


def runs_comparison(
    units: SentenceCounts, runs_a: int, runs_b: int, options: Options, resamples: int, seed: int
) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """The keys, and for each the two-level BCa interval of mean(B) - mean(A) and the two-sided p-value
    (docs/scoring.md §9). `units` holds A's runs' counts (`_per_run`), then B's, side by side for each unit.

    The p-value: with one run a side, compare_semeval's approximate randomization (two runs show no variation
    between seeds; the question is then about these two outputs). Otherwise a t test of the difference of the
    means, whose variance is the runs' (their variance on these units, pooled over both systems) plus the
    units' (the variance over unit resamples of the difference of means, every run kept, less the part the
    runs' variance already holds), against Student's t (`_pooled_p_values`). A permutation
    of run labels alone cannot do with few runs: three runs against three have 20 arrangements, in mirrored
    pairs, so its smallest two-sided p-value is 2/20 = 0.1, and 2 against 2 (6 arrangements) 1/3."""
    keys = measure_keys(options)
    groups, runs = (runs_a, runs_b), runs_a + runs_b
    if not units.size:
        nothing = np.zeros(len(keys))
        return keys, nothing, nothing, np.ones(len(keys))
    # Drawn on the two systems in an order of their own (`sides_in_order`): swapping A and B mirrors the interval
    # and keeps the p-values.
    drawn_on, orientation = sides_in_order(units, units.vectors.shape[1] // runs * runs_a)
    if orientation < 0:
        keys, low, high, p_values = runs_comparison(drawn_on, runs_b, runs_a, options, resamples, seed)
        return (keys, *mirrored(low, high, orientation), p_values)
    low, high, estimate, drawn, exponent, rng = _two_level(
        units, groups, (-1.0, 1.0), resamples, seed, options, "value_delta"
    )
    low, high = mirrored(low, high, orientation)
    if runs_a == runs_b == 1:  # the generator goes on from the units' draws, as compare_semeval's does
        difference = SliceStatistics([], options, exponent, paired=True)
        return keys, low, high, randomization_p_values(units, difference, estimate, resamples, rng)
    values = _per_run(units.totals(), runs, options, exponent)
    scale = _scales(values, drawn, runs, options, exponent)
    variances, interaction = _unit_variances(drawn, groups, options, scale, exponent)
    p_values = _pooled_p_values(values[:runs_a] * scale, values[runs_a:] * scale, variances - interaction, interaction)
    unjudged = np.isnan(p_values)
    if unjudged.any():
        # Nothing varies, runs or units, and B - A is not 0: every run of a system is its first as far as these
        # statistics go, so the test is compare_semeval's of A's first run against B's (a one-unit sample: p 1,
        # as with one run a side, where the floor 1 / (n + 1) was given for two runs identical a side).
        width = units.vectors.shape[1] // runs
        first = SentenceCounts(units.vectors[:, np.r_[0:width, runs_a * width : (runs_a + 1) * width]], units.sentences)
        difference = SliceStatistics([], options, exponent, paired=True)
        found = randomization_p_values(first, difference, difference(first.totals()), resamples, rng)
        p_values[unjudged] = found[unjudged]
    return keys, low, high, p_values


def _scales(values: np.ndarray, drawn: np.ndarray, runs: int, options: Options, exponent: int) -> np.ndarray:
    """Each statistic's scale for the t test (`power_of_two_scale` of huge columns only: docs/scoring.md §10's
    value under extreme false alarms, up to `VALUE_BOUND` in `value_exponent`'s units), so that their squares
    stay finite; t and its degrees of freedom do not change with the scale. The value divided by 2**`exponent`,
    as in `_per_run`."""
    largest = np.abs(values).max(axis=0)
    if options.value is not None:  # only the value is unbounded: the drawn units' too
        for _, measures in _drawn_measures(drawn, runs, options, exponent):
            largest = np.maximum(largest, np.abs(measures).max(axis=(0, 1)))
    return power_of_two_scale(largest, smallest=0.0)


def _unit_variances(
    drawn: np.ndarray, groups: Sequence[int], options: Options, scale: np.ndarray, exponent: int
) -> tuple[np.ndarray, np.ndarray]:
    """The units' part V is the variance over unit resamples (every run kept) of mean(B) - mean(A), less its
    part that comes from runs varying unit by unit, which the runs' own variance already holds. Over unit
    resamples, each run's deviation from its system's mean varies by (R - 1)/R of that part for a system of R
    runs, so the deviations' variances summed over the runs of both systems and divided by R_A + R_B - 2
    estimate it (a method-of-moments correction, pooled as `_pooled_p_values` pools). An unbiased difference of
    two variances, so below 0 at times: clipping it at 0 biased it upwards, and the t test with it
    (`_pooled_p_values`). Each statistic is multiplied by `scale`. The variance, and that part (the interaction)."""
    runs_a, runs_b = groups
    runs = runs_a + runs_b
    sums = np.zeros(len(measure_keys(options)))
    squares = np.zeros_like(sums)
    deviations = np.zeros((runs, len(sums)))
    deviation_squares = np.zeros_like(deviations)
    for _, measures in _drawn_measures(drawn, runs, options, exponent):
        measures = measures * scale
        mean_a, mean_b = measures[:, :runs_a].mean(axis=1), measures[:, runs_a:].mean(axis=1)
        delta = mean_b - mean_a
        sums += delta.sum(axis=0)
        squares += (delta**2).sum(axis=0)
        apart = measures - np.repeat(np.stack((mean_a, mean_b), axis=1), groups, axis=1)
        deviations += apart.sum(axis=0)
        deviation_squares += (apart**2).sum(axis=0)
    count = len(drawn)
    if count < 2:
        return np.zeros_like(sums), np.zeros_like(sums)
    variance = (squares - sums**2 / count) / (count - 1)
    spread = (deviation_squares - deviations**2 / count) / (count - 1)  # (runs, k): each run's deviation
    interaction = np.maximum(spread.sum(axis=0) / (runs - 2) * (1 / runs_a + 1 / runs_b), 0.0)
    return variance, interaction


def _pooled_p_values(
    values_a: np.ndarray, values_b: np.ndarray, units: np.ndarray, interaction: Any = 0.0
) -> np.ndarray:
    """Two-sided p-values of t = (mean B - mean A) / SE, SE² = s²·(1/R_A + 1/R_B) + V, with s² the runs' variance
    pooled over both systems (under the null hypothesis the runs of A and B are runs of one system, so they vary
    alike) and V `units`, the units' part (`_unit_variances`), against Student's t with Satterthwaite's degrees
    of freedom, SE⁴ / (E²/(R_A + R_B - 2)), E the runs' part read as at least `interaction` (what the units show
    of the runs varying unit by unit, which the runs' variance holds for sure), and never fewer than the runs'
    R_A + R_B - 2: exact where V is 0 (the pooled t test), the normal's as V dominates (docs/scoring.md §9).
    V is an unbiased estimate, negative at times; where it outweighs the runs' part, SE is the runs' part alone.

    Why so (tests/test_runs.py, null systems of 1 run against 2, 4,000 replications): with V clipped at 0 and
    the runs' part itself in E, 7.3-8.1 % were rejected at 5 % (10.2 % with seed effects of sd 1.0). At 1
    degree of freedom the runs' variance is below 4 % of its expectation one time in six, the t test's level
    rests on those draws, and there V's noise took the degrees of freedom to the normal's. With V unclipped,
    5.4-5.9 % (7.7 %); with V's noise estimated too (jackknife), no better; with the runs' degrees of freedom
    alone, systems that differ sentence by sentence were rejected in 1.2 % only. The floor that kept the runs'
    part of SE at least `interaction` went: at 1 degree of freedom it alone gave 0.2 %. It stays where each
    system's runs tie exactly (a recall of 2/5 in both of A's runs, 1/5 in both of B's): a coarse statistic's
    tie shows no seed variance (a sliver of V alone gave p 0.04 for a difference whose interval ran from -0.67
    to +0.25). Where nothing varies, p is 1 for no difference and NaN otherwise (`runs_comparison` swaps units
    instead)."""
    runs_a, runs_b = len(values_a), len(values_b)
    squares = ((values_a - values_a.mean(axis=0)) ** 2).sum(axis=0) + ((values_b - values_b.mean(axis=0)) ** 2).sum(
        axis=0
    )
    seeds = squares / (runs_a + runs_b - 2) * (1 / runs_a + 1 / runs_b)
    tied = (np.ptp(values_a, axis=0) == 0) & (np.ptp(values_b, axis=0) == 0)
    seeds = np.where(tied, np.maximum(seeds, interaction), seeds)
    units = np.asarray(units, dtype=np.float64)
    error = np.sqrt(np.where(seeds + units > 0, seeds + units, seeds))
    delta = values_b.mean(axis=0) - values_a.mean(axis=0)
    varies = (error != 0) & np.isfinite(error)
    runs_freedom = runs_a + runs_b - 2.0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # Satterthwaite's degrees of freedom, the runs' term's expectation read as at least `interaction` (what
        # the runs' variance holds for sure), never fewer than the runs' own.
        expected = np.maximum(seeds, interaction)
        freedom = np.where(expected > 0, error**4 / (expected**2 / runs_freedom), np.inf)
        freedom = np.maximum(np.nan_to_num(freedom, nan=runs_freedom), runs_freedom)
        p_values = _two_sided_t(np.abs(delta) / error, np.where(freedom > 1e6, np.inf, freedom))
    return np.where(varies, p_values, np.where(np.abs(delta) < 1e-12, 1.0, math.nan))


def _two_sided_t(t: np.ndarray, freedom: np.ndarray) -> np.ndarray:
    """P(|T| >= t) for Student's T with `freedom` degrees of freedom (infinite: the normal)."""
    # scipy (a dependency) imported here, so that `import nerscore` stays numpy's cost (tests/test_house.py):
    # `stdtr` is the function scipy.stats.t.sf calls, without scipy.stats' second of import.
    from scipy.special import stdtr  # type: ignore[import-untyped]

    return 2 * stdtr(freedom, -np.asarray(t))
