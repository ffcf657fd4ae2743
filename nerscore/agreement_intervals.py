"""The intervals of `nerscore.agreement` (docs/scoring.md §9, §13): one resampling of the sentences (or
documents) whose vectors hold every pair's scenario counts and the coefficients' sums at once, by the BCa machinery
of `nerscore.statistics.resampling`, for each scheme's mean pairwise F, Fleiss' κ and Krippendorff's α.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np

from .accumulator import Accumulator
from .agreement_inputs import Annotator
from .agreement_units import UnitLabels
from .grouping import ranges
from .options import EVALUATION_SCHEMES, Options
from .statistics.agreement_coefficients import fleiss_kappa, krippendorff_alpha, pattern_counts, unit_patterns
from .statistics.resampling import holding_estimates, resampled_interval
from .statistics.sample_statistics import statistics
from .statistics.unit_counts import SentenceCounts, distinct_rows, per_unit, unit_of


def distinct_units(vectors: np.ndarray) -> SentenceCounts:
    """The units' vectors as `SentenceCounts`, distinct rows found by one 64-bit key per row, checked exactly:
    the rows of ten pairs and the coefficients are some 80 wide, where np.unique(axis=0) takes a second for
    20,000 sentences and this a few milliseconds."""
    rows = np.ascontiguousarray(vectors, dtype=np.float64) + 0.0  # -0.0 as 0.0: one key per value
    multipliers = (np.random.default_rng(0).integers(1, 1 << 62, size=rows.shape[1]) | 1).astype(np.uint64)
    bits = rows.view(np.uint64)
    bits = bits ^ (bits >> np.uint64(32))  # a float's high bits into its low ones, which the products keep
    keys = bits @ multipliers  # wraps around: a hash
    return SentenceCounts(*distinct_rows(rows, keys, hashed=True)[:2])


# The coefficients' sums of every unit of resampling are held densely, one column per label: beyond this many
# cells (512 MB of floats; thousands of distinct stacked labels over tens of thousands of sentences) the
# bootstrap is refused with a way out rather than run out of memory.
_MOST_SUM_CELLS = 1 << 26


def _coefficient_sums(units: UnitLabels, unit_of: np.ndarray, resampled: int) -> tuple[np.ndarray, np.ndarray]:
    """Each unit of resampling's sums for Fleiss' κ (units all annotated, Σ n_uc², each label's count) and
    Krippendorff's α (the diagonal coincidences, each label's pairable values), from the labels' patterns."""
    categories = len(units.names)
    if resampled * (2 * categories + 3) > _MOST_SUM_CELLS:
        raise ValueError(
            f"bootstrap resamples {resampled} sentences (or documents) whose units hold {categories} distinct "
            "labels (stacked types count apart): too many to hold their sums; pass documents= (fewer units), "
            "labels= (fewer types), or score without bootstrap"
        )
    patterns, _, inverse = unit_patterns(units.codes, categories)
    # How many units of each pattern each unit of resampling holds.
    keys, grouped = np.unique(unit_of[units.sentence] * len(patterns) + inverse, return_inverse=True)
    many = units.weighted(grouped.reshape(-1), len(keys))
    owner, pattern = np.divmod(keys, len(patterns))
    row, category, count = pattern_counts(patterns, categories)
    values = (patterns >= 0).sum(axis=1)
    complete, pairable = values == patterns.shape[1], values >= 2
    squares = np.bincount(row, count * count, minlength=len(patterns))
    diagonal = np.bincount(row, count * (count - 1) / np.maximum(values[row] - 1, 1), minlength=len(patterns))
    # Each (unit of resampling, pattern) with each label of the pattern: the patterns' entries, repeated.
    starts = np.searchsorted(row, np.arange(len(patterns) + 1))
    spread = starts[pattern + 1] - starts[pattern]
    which, entry = ranges(starts[pattern], spread)
    entry_owner, entry_many = owner[which], many[which]
    entry_pattern = row[entry]
    fleiss = np.zeros((resampled, 2 + categories))
    fleiss[:, 0] = np.bincount(owner, many * complete[pattern], minlength=resampled)
    fleiss[:, 1] = np.bincount(owner, many * complete[pattern] * squares[pattern], minlength=resampled)
    alpha = np.zeros((resampled, 1 + categories))
    alpha[:, 0] = np.bincount(owner, many * pairable[pattern] * diagonal[pattern], minlength=resampled)
    for table, kept in ((fleiss, complete), (alpha, pairable)):
        weight = entry_many * count[entry] * kept[entry_pattern]
        cells = np.bincount(entry_owner * categories + category[entry], weight, minlength=resampled * categories)
        table[:, -categories:] = cells.reshape(resampled, categories)
    return fleiss, alpha


def intervals(
    result: Mapping[str, Any],
    accumulators: list[Accumulator],
    units: UnitLabels,
    options: Options,
    given: Mapping[str, list[Any]],
    annotators: Sequence[Annotator],
) -> dict[str, float]:
    """BCa intervals (docs/scoring.md §9) of each scheme's mean pairwise F, Fleiss' κ and α: one resampling of
    the sentences (or documents) whose vectors hold every pair's scenario counts and the coefficients' sums."""
    sentences = len(annotators[0].present)
    blocks, widths = [], []
    for (first, second), accumulator in zip(combinations(annotators, 2), accumulators):
        kept = accumulator.in_order
        rows = kept.ints.astype(np.float64) if kept.floats is None else np.hstack((kept.ints, kept.floats))
        block = np.zeros((sentences, rows.shape[1]))
        block[first.present & second.present] = rows
        blocks.append(block)
        widths.append(rows.shape[1])
    documents = given.get("documents")
    pair_rows = per_unit(np.hstack(blocks), None if documents is None else list(documents))
    fleiss, alpha = _coefficient_sums(units, unit_of(sentences, documents), len(pair_rows))
    sample = distinct_units(np.hstack((pair_rows, fleiss, alpha)))
    schemes = [EVALUATION_SCHEMES.index(scheme) for scheme in options.evaluation_schemes]
    raters, zero = len(annotators), options.zero_division
    fleiss_width = fleiss.shape[1]

    def statistic(totals: np.ndarray) -> np.ndarray:
        start, means = 0, np.zeros((*totals.shape[:-1], len(schemes)))
        for width in widths:
            measured = statistics(totals[..., start : start + width], options)
            means += measured[..., [3 * scheme + 2 for scheme in schemes]]
            start += width
        kappa = fleiss_kappa(totals[..., start : start + fleiss_width], raters, zero)
        alpha_value = krippendorff_alpha(totals[..., start + fleiss_width :], zero)
        return np.concatenate((means / len(widths), kappa[..., None], alpha_value[..., None]), axis=-1)

    f_name = options.f_name
    keys = [f"{scheme}_{f_name}_mean" for scheme in options.evaluation_schemes]
    keys += ["fleiss_kappa", "krippendorff_alpha"]
    rng = np.random.default_rng(options.seed)
    low, high = resampled_interval(sample, statistic, options.bootstrap, rng, options.confidence_level)
    return holding_estimates(keys, low, high, result)
