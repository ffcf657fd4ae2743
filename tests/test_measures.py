"""nerscore.measures: docs/scoring.md §4's precision, recall and F_β, exact and in floats, by one rule."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nerscore.measures import Rule

BETAS = (1.0, 0.5, 2.0, 0.0, 0.3, 1e-5, 1e200)
ZERO_DIVISIONS = (0.0, 1.0, 0.5, 0.3)


def by_fractions(credit_p: int, total_p: int, credit_r: int, total_r: int, rule: Rule) -> list[Fraction]:
    """The rule written out on Fractions: zero_division where a total is 0, F = 0 where β²P + R = 0."""
    zero = Fraction(rule.zero_division)
    precision = Fraction(credit_p, total_p) if total_p else zero
    recall = Fraction(credit_r, total_r) if total_r else zero
    beta2 = Fraction(rule.beta) ** 2
    denominator = beta2 * precision + recall
    return [precision, recall, (1 + beta2) * precision * recall / denominator if denominator else Fraction(0)]


@settings(max_examples=200, deadline=None)
@given(
    # small counts (the macro means' denominators summed by bincount) and large ones (sorted and summed); up to
    # 32 rows the means are summed over the least common denominator, beyond by denominator
    rows=st.lists(st.tuples(*[st.integers(0, 12) | st.integers(0, 1 << 40)] * 4), min_size=1, max_size=40),
    beta=st.sampled_from(BETAS),
    zero_division=st.sampled_from(ZERO_DIVISIONS),
)
def test_exact_is_the_rule_correctly_rounded_and_floats_agree(rows, beta, zero_division) -> None:
    rule = Rule(beta, zero_division)
    rows = [(min(a, b), b, min(c, d), d) for a, b, c, d in rows]  # a credit never above its total
    columns = [np.array(column, dtype=np.int64) for column in zip(*rows)]
    exact = rule.exact(*columns)
    values = [column.tolist() for column in exact.values()]
    floats = rule.floats(*(column.astype(np.float64) for column in columns))
    for row, (credit_p, total_p, credit_r, total_r) in enumerate(rows):
        expected = by_fractions(credit_p, total_p, credit_r, total_r, rule)
        assert [values[measure][row] for measure in range(3)] == [float(value) for value in expected]
        assert floats[row, :2].tolist() == [float(value) for value in expected[:2]]  # P and R to the bit
        assert floats[row, 2] == pytest.approx(float(expected[2]), rel=1e-12, abs=1e-300)
    means = exact.means(zero_division)
    for measure in range(3):
        total = sum((by_fractions(*row, rule)[measure] for row in rows), Fraction(0))
        assert means[measure] == float(total / len(rows))


def test_the_worked_example_is_exact_and_the_f_rule_holds() -> None:
    rule = Rule()
    # docs/scoring.md §4: 1/5 (here 2/10, in halves: 2·COR + PAR over 2·ACT) is 0.2, not 0.20000000000000004.
    values = rule.exact(*(np.array([n]) for n in (2, 10, 2, 10))).values()
    assert [value.tolist() for value in values] == [[0.2], [0.2], [0.2]]
    # §4's table, z = 0.5: no entity; predictions only; references only; none credited.
    rows = [(0, 0, 0, 0), (0, 4, 0, 0), (0, 0, 0, 6), (0, 4, 0, 6)]
    table = Rule(zero_division=0.5).exact(*(np.array(column) for column in zip(*rows))).values()
    assert [value.tolist() for value in table] == [[0.5, 0, 0.5, 0], [0.5, 0.5, 0, 0], [0.5, 0, 0, 0]]
    assert Rule().exact(*(np.array([], dtype=np.int64) for _ in range(4))).means(0.5) == [0.5, 0.5, 0.5]


@pytest.mark.parametrize("size", [1, 32, 33, 200])
@pytest.mark.parametrize("largest", [12, 1 << 40], ids=["small", "large"])
def test_macro_means_are_exact_on_either_side_of_few_rows(size: int, largest: int) -> None:
    # Up to 32 rows the means are summed over the least common denominator, beyond by denominator (by bincount
    # for small ones, sorted for large ones): every way the correctly rounded mean of the rows' exact ratios.
    rng = np.random.default_rng(size + largest)
    totals = rng.integers(0, largest, size=(2, size), endpoint=True)
    credits = rng.integers(0, totals + 1)
    rule = Rule(2.0, 0.3)
    means = rule.exact(credits[0], totals[0], credits[1], totals[1]).means(rule.zero_division)
    rows = zip(credits[0].tolist(), totals[0].tolist(), credits[1].tolist(), totals[1].tolist())
    expected = [by_fractions(*row, rule) for row in rows]
    for measure in range(3):
        assert means[measure] == float(sum((row[measure] for row in expected), Fraction(0)) / size)


def floats_as_written(rule: Rule, credit_p, total_p, credit_r, total_r) -> np.ndarray:
    """`Rule.floats` as its formulas read, each measure a whole array then stacked (what it computed before it
    wrote into one array): the floats it gives must be these, to the bit."""
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(total_p > 0, credit_p / total_p, rule.zero_division)
        recall = np.where(total_r > 0, credit_r / total_r, rule.zero_division)
        try:
            weights = (rule.beta**2, 1.0)
        except OverflowError:
            weights = (1.0, (1 / rule.beta) ** 2)
        denominator = weights[0] * precision + weights[1] * recall
        f = np.where(denominator > 0, (weights[0] + weights[1]) * precision * recall / denominator, 0.0)
    return np.stack((precision, recall, f), axis=-1)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(*[st.integers(0, 7) | st.integers(0, 1 << 40)] * 4), min_size=1, max_size=20),
    st.sampled_from((*BETAS, 1e155, 3.7)),
    st.sampled_from(ZERO_DIVISIONS),
)
def test_floats_are_the_formulas_to_the_bit(rows, beta, zero_division) -> None:
    rule = Rule(beta, zero_division)
    credit_p, total_p, credit_r, total_r = (np.array(column, dtype=np.float64) for column in zip(*rows))
    total_p, total_r = total_p + credit_p, total_r + credit_r  # (a credit is at most its total)
    found = rule.floats(credit_p, total_p, credit_r, total_r)
    expected = floats_as_written(rule, credit_p, total_p, credit_r, total_r)
    assert found.shape == expected.shape and found.tobytes() == expected.tobytes()
