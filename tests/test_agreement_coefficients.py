"""nerscore.statistics.agreement_coefficients (docs/scoring.md §13): Cohen's κ, Fleiss' κ and Krippendorff's α
from codes, against scikit-learn, statsmodels and the krippendorff package on random labelings (missing values,
one label everywhere), weighted units, the patterns that weigh them and the sums by sentence the bootstrap
resamples. tests/test_agreement.py checks them on the unit labels of annotations."""

from __future__ import annotations

import math
import warnings

import krippendorff
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

from nerscore.statistics.agreement_coefficients import (
    alpha_totals,
    cohen_kappa,
    fleiss_kappa,
    fleiss_totals,
    krippendorff_alpha,
    pattern_counts,
    unit_patterns,
)

# -- the coefficients against the libraries -----------------------------------------------------------------------


@st.composite
def codes_and_categories(draw):
    categories = draw(st.integers(2, 5))
    units = draw(st.integers(1, 40))
    raters = draw(st.integers(2, 5))
    values = draw(
        st.lists(
            st.lists(st.integers(-1, categories - 1), min_size=raters, max_size=raters), min_size=units, max_size=units
        )
    )
    return np.array(values, dtype=np.int64), categories


@given(codes_and_categories())
def test_cohen_kappa_is_scikit_learns(case):
    codes, categories = case
    first, second = codes[:, 0].clip(0), codes[:, 1].clip(0)
    found = cohen_kappa(first, second, categories, zero_division=-7.0)
    if len(set(first.tolist()) | set(second.tolist())) < 2:
        assert found == -7.0  # one label everywhere: expected agreement 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert math.isnan(cohen_kappa_score(first, second))
    else:
        assert found == pytest.approx(cohen_kappa_score(first, second), abs=1e-12)


@given(codes_and_categories())
def test_fleiss_kappa_is_statsmodels(case):
    codes, categories = case
    complete = codes.clip(0)
    weights = np.ones(len(complete), dtype=np.int64)
    found = float(fleiss_kappa(fleiss_totals(complete, weights, categories), complete.shape[1], zero_division=-7.0))
    counts = np.array([np.bincount(row, minlength=categories) for row in complete])
    if len(set(complete.ravel().tolist())) < 2:
        assert found == -7.0
    else:
        assert found == pytest.approx(statsmodels_fleiss(counts), abs=1e-12)


@given(codes_and_categories())
def test_krippendorff_alpha_is_the_krippendorff_packages(case):
    codes, categories = case
    weights = np.ones(len(codes), dtype=np.int64)
    found = float(krippendorff_alpha(alpha_totals(codes, weights, categories), zero_division=-7.0))
    pairable = codes[(codes >= 0).sum(axis=1) >= 2]
    if len(set(pairable[pairable >= 0].tolist())) < 2:
        assert found == -7.0  # no pairable unit, or one value everywhere: no expected disagreement
    else:
        data = np.where(codes >= 0, codes, np.nan).T.astype(float)
        assert found == pytest.approx(
            krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"), abs=1e-12
        )


@pytest.mark.parametrize("categories", [3, 3000, 10**13])  # counted, sorted as integers, sorted as rows
@given(codes=st.lists(st.lists(st.integers(-1, 2), min_size=5, max_size=5), min_size=1, max_size=30))
def test_unit_patterns_are_the_distinct_rows_and_their_counts(categories, codes):
    codes = np.array(codes, dtype=np.int64) * (categories // 3)  # codes up to the number of categories
    codes[codes < 0] = -1
    rows, weights, inverse = unit_patterns(codes, categories)
    assert (rows[inverse] == codes).all()
    assert weights.tolist() == np.bincount(inverse, minlength=len(rows)).tolist()
    assert len({tuple(row) for row in rows.tolist()}) == len(rows)


@given(codes_and_categories(), st.lists(st.integers(1, 5), min_size=40, max_size=40))
def test_weighted_cohen_kappa_is_scikit_learns_with_sample_weight(case, weights):
    codes, categories = case
    first, second = codes[:, 0].clip(0), codes[:, 1].clip(0)
    weights = np.array(weights[: len(first)])
    found = cohen_kappa(first, second, categories, zero_division=-7.0, weights=weights)
    if len(set(first.tolist()) | set(second.tolist())) > 1:
        assert found == pytest.approx(cohen_kappa_score(first, second, sample_weight=weights), abs=1e-12)


@given(codes_and_categories(), st.lists(st.integers(1, 4), min_size=40, max_size=40))
def test_weighted_rows_are_the_rows_repeated(case, weights):
    # A pattern standing for w units (agreement counts each pattern of labels once) sums as w copies of it.
    codes, categories = case
    weights = np.array(weights[: len(codes)], dtype=np.int64)
    repeated = np.repeat(codes, weights, axis=0)
    ones = np.ones(len(repeated), dtype=np.int64)
    assert fleiss_totals(codes, weights, categories) == pytest.approx(fleiss_totals(repeated, ones, categories))
    assert alpha_totals(codes, weights, categories) == pytest.approx(alpha_totals(repeated, ones, categories))


@given(codes_and_categories())
def test_pattern_counts_are_the_counts_without_their_zeros(case):
    codes, categories = case
    row, category, count = pattern_counts(codes, categories)
    dense = np.zeros((len(codes), categories), dtype=np.int64)
    dense[row, category] = count
    for index, labels in enumerate(codes.tolist()):
        assert (
            dense[index].tolist()
            == np.bincount([label for label in labels if label >= 0], minlength=categories).tolist()
        )
    assert (count > 0).all()
