"""Chance-corrected agreement on units (docs/scoring.md §13): Cohen's κ of two annotators, Fleiss' κ of all of
them, Krippendorff's α for nominal data, from each unit's label per annotator.

The labels come as a matrix of codes (units x annotators, -1 where an annotator left the unit out) and every
coefficient is a function of sums over units: Fleiss' κ of the units' category counts and their squares,
Krippendorff's α of the coincidences on the diagonal and the category totals. So, as the scores' scenario counts
(`nerscore.statistics.unit_counts`), each sentence's (or document's) sums are what a bootstrap resamples, and
one formula, in floats over arrays of totals, gives both the estimate and every resample's value: the interval
and the estimate never disagree about the definition.

Why numpy and not the libraries: scikit-learn, statsmodels and krippendorff are heavy imports for three
formulas of a few lines, none of them takes sums to resample, and `krippendorff.alpha` builds a units x values
matrix in Python floats per call. tests/test_agreement_coefficients.py checks every coefficient against
`sklearn.metrics.cohen_kappa_score`, `statsmodels.stats.inter_rater.fleiss_kappa` and
`krippendorff.alpha(level_of_measurement="nominal")` on random labelings, tests/test_agreement.py on the unit
labels of random annotations.

Why counts without their zeros (`pattern_counts`): nested entities of many types make thousands of distinct
stacked labels, and a units x labels matrix of counts would take memory that follows their product.
"""

from __future__ import annotations

import numpy as np

from .unit_counts import distinct_rows, radix_keys

MISSING = -1  # the code of a unit an annotator did not annotate


def unit_patterns(codes: np.ndarray, categories: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rows of `codes` (units x annotators), how many units have each, and each unit's row among
    them. NER units repeat a few patterns (all "O" above all), so the coefficients are computed once per
    pattern, weighted, rather than once per unit."""
    # The order is not free: α's float sums follow it, and the bootstrap's draws their last bits. So it is the
    # codes' (+1 for MISSING) read from the last annotator while every category fits in int64 at each place, the
    # rows sorted beyond, as it always was.
    keys = radix_keys(codes[:, ::-1] + 1) if (categories + 1) ** codes.shape[1] < 1 << 62 else None
    return distinct_rows(codes, keys)


def cohen_kappa(
    first: np.ndarray,
    second: np.ndarray,
    categories: int,
    zero_division: float,
    weights: np.ndarray | None = None,
) -> float:
    """Cohen's κ (Cohen 1960) of two annotators' codes on the same units (no `MISSING`), each unit standing for
    `weights` units (`unit_patterns`): observed agreement against the agreement expected from each one's own
    label distribution, (p_o - p_e) / (1 - p_e), in exact integers until the one division; `zero_division`
    where p_e is 1 (one label everywhere) or there is no unit."""
    weights = np.ones(len(first), dtype=np.int64) if weights is None else np.asarray(weights, dtype=np.int64)
    units = int(weights.sum())
    agree = int(weights[first == second].sum())
    by_first = np.bincount(first, weights, minlength=categories).round().astype(np.int64).tolist()
    by_second = np.bincount(second, weights, minlength=categories).round().astype(np.int64).tolist()
    expected = sum(a * b for a, b in zip(by_first, by_second))  # Python integers: no overflow
    denominator = units * units - expected
    if denominator == 0:
        return float(zero_division)
    return (units * agree - expected) / denominator


def fleiss_kappa(totals: np.ndarray, raters: int, zero_division: float) -> np.ndarray:
    """Fleiss' κ (Fleiss 1971) of `fleiss_totals` (..., 2 + categories), each unit rated by
    `raters` annotators: (P̄ - P̄_e) / (1 - P̄_e), P̄ the mean over units of the agreeing pairs' share, P̄_e the sum
    of the squared category shares; `zero_division` where P̄_e is 1 or there is no unit."""
    totals = np.asarray(totals, dtype=np.float64)
    units, squares, by_category = totals[..., 0], totals[..., 1], totals[..., 2:]
    ratings = units * raters
    # Both terms times (N K)² (N K (K - 1)) / ... : the ratio keeps its value and the test for 1 - P̄_e = 0 is
    # exact in floats while the counts are below 2**26.
    expected = (by_category * by_category).sum(axis=-1)  # P̄_e (N K)²
    observed = (squares - ratings) * ratings / max(raters - 1, 1)  # P̄ (N K)²
    denominator = ratings * ratings - expected
    with np.errstate(divide="ignore", invalid="ignore"):
        kappa = (observed - expected) / denominator
    return np.where((denominator > 0) & (units > 0), kappa, float(zero_division))


def krippendorff_alpha(totals: np.ndarray, zero_division: float) -> np.ndarray:
    """Krippendorff's α for nominal data of `alpha_totals` (..., 1 + categories):
    1 - D_o / D_e = 1 - (n - 1) (n - Σ_c o_cc) / (n² - Σ_c n_c²), n the pairable values; `zero_division`
    where D_e is 0 (one value everywhere) or no unit is pairable."""
    totals = np.asarray(totals, dtype=np.float64)
    diagonal, by_category = totals[..., 0], totals[..., 1:]
    values = by_category.sum(axis=-1)
    denominator = values * values - (by_category * by_category).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = 1 - (values - 1) * (values - diagonal) / denominator
    return np.where(denominator > 0, alpha, float(zero_division))


def pattern_counts(patterns: np.ndarray, categories: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How many annotators give each row of `patterns` (rows x annotators, `MISSING` left out) each category,
    without the zeros: (row, category, count), sorted by row then category, so that thousands of labels (nested
    entities of many types) cost what the rows hold, not rows x labels."""
    rows = len(patterns)
    present = patterns >= 0
    keys = (np.arange(rows, dtype=np.int64)[:, None] * categories + patterns)[present]
    distinct, counts = np.unique(keys, return_counts=True)
    return distinct // categories, distinct % categories, counts.astype(np.int64)


def fleiss_totals(patterns: np.ndarray, weights: np.ndarray, categories: int) -> np.ndarray:
    """Fleiss' κ's sums over the rows all annotators labelled, each row standing for `weights` units: the
    units, Σ_u Σ_c n_uc², and each category's count Σ_u n_uc (2 + categories)."""
    complete = (patterns >= 0).all(axis=1)
    row, category, count = pattern_counts(patterns[complete], categories)
    kept = weights[complete]
    totals = np.zeros(2 + categories)
    totals[0] = kept.sum()
    totals[1] = float(kept[row] @ (count * count))
    totals[2:] = np.bincount(category, kept[row] * count, minlength=categories)
    return totals


def alpha_totals(patterns: np.ndarray, weights: np.ndarray, categories: int) -> np.ndarray:
    """Krippendorff's α's sums over the rows, each standing for `weights` units: the coincidences on the
    diagonal, Σ_u Σ_c n_uc (n_uc - 1) / (m_u - 1), and each category's pairable values (1 + categories);
    units with fewer than two values are not pairable and count nothing (Krippendorff 2011)."""
    values = (patterns >= 0).sum(axis=1)
    pairable = values >= 2
    row, category, count = pattern_counts(patterns[pairable], categories)
    kept, size = weights[pairable], values[pairable]
    totals = np.zeros(1 + categories)
    totals[0] = float(kept[row] @ (count * (count - 1) / (size[row] - 1))) if len(row) else 0.0
    totals[1:] = np.bincount(category, kept[row] * count, minlength=categories)
    return totals
