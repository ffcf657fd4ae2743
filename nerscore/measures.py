"""Precision, recall and F_β (docs/scoring.md §4): the one place their rules are written. The scores, per type,
macro averages, slices and value keys (`result_scores`) and the intervals and comparisons (`sample_statistics`)
all call it.

The rules, as scikit-learn's: P = credit / ACT and R = credit / POS, each `zero_division` where its total is 0
(`zero_division` enters only through P and R); F_β = (1 + β²)·P·R / (β²·P + R), and 0 where β²·P + R = 0. So F
is `zero_division` when neither side has an entity, and 0 for a system whose entities are all wrong, whatever
`zero_division` says.

One rule, two arithmetics (`Rule`):

- exact (`Rule.exact`), for what `scores` reports: integer ratios (numerator, denominator) in numpy arrays,
  reduced to a float once by a correctly rounded division, so the worked example's 0.2 is 0.2, not
  0.20000000000000004, and every key is the correctly rounded value of its formula. A ratio of integers below
  2**53 is a float64 division of exact floats, which IEEE rounds correctly as Python's int division does; F's
  products stay in int64 while they are below 2**53 and are otherwise Python integers in object arrays (a β or
  `zero_division` whose fraction has large terms), still one array operation per step.
- floats (`Rule.share`, `Rule.f`), for the statistics' millions of resamples: P and R are the same correctly
  rounded floats (their credits are exact in floats), F within rounding (tests/test_sample_statistics.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from .grouping import run_starts
from .options import Options

# Below this, an integer and every product of the F terms is a float64 exactly (its 53-bit significand).
EXACT_FLOATS = 1 << 53


def possible_actual(correct: Any, incorrect: Any, partial: Any, missed: Any, spurious: Any) -> tuple[Any, Any]:
    """POS and ACT, the totals of R and P (docs/scoring.md §4): COR + INC + PAR + MIS, the reference entities, and
    COR + INC + PAR + SPU, the predicted ones; of counts or arrays of them alike (of np.eye(5)'s rows: each count's
    share of them, as matrices take it)."""
    matched = correct + incorrect + partial
    return matched + missed, matched + spurious


@dataclass(frozen=True)
class Ratios:
    """Exact P, R and F of each of several rows (types, buckets, or the one row of the totals): each measure as
    (numerator, denominator) arrays, int64 or object (Python integers)."""

    precision: tuple[np.ndarray, np.ndarray]
    recall: tuple[np.ndarray, np.ndarray]
    f: tuple[np.ndarray, np.ndarray]

    def values(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """P, R and F as float64 arrays, each the correctly rounded value of its ratio."""
        precision, recall, f = (
            (numerator / denominator).astype(np.float64, copy=False) for numerator, denominator in self
        )
        return precision, recall, f

    def rows(self, start: int, stop: int) -> Ratios:
        """The ratios of rows start to stop (one scheme's types of several schemes computed at once)."""
        part = slice(start, stop)
        return Ratios(*((numerator[part], denominator[part]) for numerator, denominator in self))

    def __iter__(self) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        return iter((self.precision, self.recall, self.f))

    def means(self, zero_division: float) -> list[float]:
        """The macro P, R and F over the rows: exact means, correctly rounded once (Python's int division rounds
        correctly); `zero_division` with no row."""
        if not len(self.precision[0]):
            return [zero_division] * 3
        return [_mean(numerators, denominators) for numerators, denominators in self]

    def grouped_means(self, starts: np.ndarray, zero_division: float) -> list[list[float]]:
        """`means` of consecutive groups of rows (the types of each of several tallies, stacked): group g holds
        the rows from starts[g] to the next start (the last, to the end). P's, R's and F's lists of the same
        exact means, correctly rounded once (so any exact way gives the same float): over each group's least
        common denominator in int64 where every integer of it stays below 2**53 (float64 then divides exact
        integers, which IEEE rounds correctly, as Python's int division does: many small groups, a slice's
        buckets), else summed by denominator, every group in one bincount where that is exact (a few groups of
        thousands of types, which share a few denominators), else by `means`' sums."""
        starts = np.asarray(starts, dtype=np.int64)
        sizes = np.diff(np.append(starts, len(self.precision[0])))
        filled = np.flatnonzero(sizes)
        at, lengths = starts[filled], sizes[filled]
        means = []
        for numerators, denominators in self:
            measure: list[float] = [zero_division] * len(starts)
            small = np.zeros(len(filled), dtype=bool)
            # Each row adds at least 1 to the bits (a denominator is a non-zero integer), the size its own bits: a
            # group of more than 47 rows (47 + 6 = 53) is never small, and one tally's 100,000 types skip the bits.
            if (
                len(filled)
                and lengths.min() <= _LARGEST_SMALL_GROUP
                and numerators.dtype != object
                and denominators.dtype != object
            ):
                # The common denominator is at most the product of the group's, the sum of its terms at most the
                # group's size times the largest numerator times it: bounded by the sum of their bit lengths
                # (a float's exponent is an integer's bit length, or one more where the float rounds up).
                bits = np.add.reduceat(np.frexp(denominators.astype(np.float64))[1], at)
                bits += np.frexp(np.maximum.reduceat(np.abs(numerators), at).astype(np.float64))[1]
                bits += np.frexp(lengths.astype(np.float64))[1]
                small = bits <= 53
            if small.any():
                # The other groups' rows as 0 / 1, so that one pass over every row leaves them out.
                kept = np.repeat(small, lengths)
                kept_denominators = np.where(kept, denominators, 1)
                common = np.lcm.reduceat(kept_denominators, at)
                sums = np.add.reduceat(
                    np.where(kept, numerators, 0) * (np.repeat(common, lengths) // kept_denominators), at
                )
                values = sums / (common * lengths)
                for group, value in zip(filled[small].tolist(), values[small].tolist()):
                    measure[group] = value
            large = filled[~small]
            by_group = _grouped_blocks(numerators, denominators, sizes, starts) if len(large) else None
            for group in large.tolist():
                size, start = int(sizes[group]), int(starts[group])
                if by_group is None or size <= _FEW_ROWS:
                    measure[group] = _mean(numerators[start : start + size], denominators[start : start + size])
                else:
                    numerator, denominator = _sum_of_ratios(by_group[group])
                    measure[group] = numerator / (denominator * size)
            means.append(measure)
        return means


def _mean(numerators: np.ndarray, denominators: np.ndarray) -> float:
    """The exact mean of the ratios numerators[i] / denominators[i] (at least one), correctly rounded once."""
    rows = len(numerators)
    if rows <= _FEW_ROWS:
        # A few types: over their least common denominator, in Python integers (every denominator is > 0).
        terms = denominators.tolist()
        common = math.lcm(*terms)
        numerator = sum(n * (common // d) for n, d in zip(numerators.tolist(), terms))
        return numerator / (common * rows)
    numerator, denominator = _sum_of_ratios(_grouped(numerators, denominators))
    return numerator / (denominator * rows)


@dataclass(frozen=True)
class Rule:
    """docs/scoring.md §4's P, R and F_β with `beta` and `zero_division` (the options of those names)."""

    beta: float = 1.0
    zero_division: float = 0.0

    @classmethod
    def of(cls, options: Options) -> Rule:
        return cls(options.beta, options.zero_division)

    @cached_property
    def _exact_terms(self) -> tuple[int, int, int, int]:
        """(z, y, n, m): `zero_division` = z / y and β² = n / m, exactly."""
        # A number's integer ratio is exact and in lowest terms, as its Fraction (so is the ratio squared).
        z, y = self.zero_division.as_integer_ratio()
        n, m = self.beta.as_integer_ratio()
        return z, y, n * n, m * m

    # -- exact ----------------------------------------------------------------------------------------------

    def exact(
        self,
        precision_credit: np.ndarray,
        precision_total: np.ndarray,
        recall_credit: np.ndarray,
        recall_total: np.ndarray,
    ) -> Ratios:
        """P = precision credit / total (ACT) and R = recall credit / total (POS) and F of each row: integer arrays,
        int64 or object, of one length; a credit of a fraction comes with both terms scaled by its denominator
        (COR + PAR / 2 over ACT as 2·COR + PAR over 2·ACT)."""
        z, y, n, m = self._exact_terms
        terms = [
            (precision_credit, precision_total, np.asarray(precision_total) > 0),
            (recall_credit, recall_total, np.asarray(recall_total) > 0),
        ]
        largest = [max(_largest(credit), z, 1) for credit, _, _ in terms]
        totals = [max(_largest(total), y, 1) for _, total, _ in terms]
        (a_max, c_max), (b_max, d_max) = largest, totals
        exact = max((m + n) * a_max * c_max, n * a_max * d_max + m * c_max * b_max) < EXACT_FLOATS
        kind = np.int64 if exact else object
        # (asarray: int64 terms are read as they are, where astype copied each of them before `where` did)
        (a, b), (c, d) = (
            (
                np.where(side_seen, np.asarray(credit, dtype=kind), z),
                np.where(side_seen, np.asarray(total, dtype=kind), y),
            )
            for credit, total, side_seen in terms
        )
        # (m + n)·a·c over n·a·d + m·c·b, each product made in place (exact integers in any order): fresh arrays
        # of 100,000 rows are memory mapped afresh.
        f_numerator, f_denominator, other = a * c, a * d, c * b
        for term, factor in ((f_numerator, m + n), (f_denominator, n), (other, m)):
            if factor != 1:
                term *= factor
        f_denominator += other
        none = f_denominator == 0
        f_numerator[none] = 0
        f_denominator[none] = 1
        return Ratios((a, b), (c, d), (f_numerator, f_denominator))

    def exact_share(self, credit: np.ndarray, total: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """credit / total as (numerator, denominator) arrays, `zero_division` where total is 0 (the value score's
        value, docs/scoring.md §10, which has no F)."""
        z, y, _, _ = self._exact_terms
        seen = np.asarray(total) != 0
        return np.where(seen, credit, z), np.where(seen, total, y)

    # -- floats ---------------------------------------------------------------------------------------------

    def share(self, credit: np.ndarray, total: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """credit / total in floats, `zero_division` where total is not above 0 (into `out` where given)."""
        seen = np.asarray(total) > 0
        if out is None:
            out = np.empty(np.broadcast_shapes(np.shape(credit), seen.shape))
        out[...] = self.zero_division
        np.divide(credit, total, out=out, where=seen)
        return out

    def f(self, precision: np.ndarray, recall: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """F_β of float precision and recall arrays, 0 where β²·P + R = 0 (into `out` where given)."""
        try:
            weights = (self.beta**2, 1.0)
        except OverflowError:  # a β above 1.34e154, whose square no float holds (any finite β is an option):
            weights = (1.0, (1 / self.beta) ** 2)  # the same F over β², (1 + 1/β²)·P·R / (P + R/β²)
        with np.errstate(divide="ignore", invalid="ignore"):
            denominator = weights[0] * precision
            denominator += weights[1] * recall
            numerator = (weights[0] + weights[1]) * precision
            numerator *= recall
        if out is None:
            out = np.empty(denominator.shape)
        out[...] = 0.0
        # ((1 + β²)·P)·R / (β²·P + R), in that order (the floats the statistics always gave).
        np.divide(numerator, denominator, out=out, where=denominator > 0)
        return out

    def floats(
        self, precision_credit: np.ndarray, actual: np.ndarray, recall_credit: np.ndarray, possible: np.ndarray
    ) -> np.ndarray:
        """P, R and F in floats, stacked on a last axis of 3 (each written in place there: no stacking copy)."""
        shape = np.broadcast_shapes(*(np.shape(term) for term in (precision_credit, actual, recall_credit, possible)))
        out = np.empty((*shape, 3))
        precision, recall = (
            self.share(precision_credit, actual, out[..., 0]),
            self.share(recall_credit, possible, out[..., 1]),
        )
        self.f(precision, recall, out[..., 2])
        return out


def _largest(values: np.ndarray) -> int:
    return int(np.asarray(values).max(initial=0))


# The most rows a group of `Ratios.grouped_means` summed in int64 can have: each row's denominator adds a bit or
# more to the 53 an exact float holds, and the group's size its 6 bits.
_LARGEST_SMALL_GROUP = 47

# Up to this many rows `Ratios.means` sums over the least common denominator in Python (the macro means of a few
# types: each array call of `_grouped` costs more than all those sums).
_FEW_ROWS = 32


def _grouped(numerators: np.ndarray, denominators: np.ndarray) -> list[tuple[int, int]]:
    """The ratios numerators[i] / denominators[i] as (summed numerator, denominator), one per denominator:
    thousands of types share a few denominators."""
    if numerators.dtype != object and denominators.dtype != object:
        top = int(denominators.max())
        if top <= 4 * len(denominators) + 1024 and int(np.abs(numerators).max()) * len(numerators) < EXACT_FLOATS:
            # Small denominators (P's and R's are 2·ACT and 2·POS): summed by one bincount, in floats that hold
            # every partial sum exactly, where a sort would take longer.
            sums = np.bincount(denominators, weights=numerators, minlength=top + 1)
            present = np.flatnonzero(np.bincount(denominators, minlength=top + 1))
            return list(zip(sums[present].astype(np.int64).tolist(), present.tolist()))
    order = np.argsort(denominators, kind="stable")
    numerators, denominators = numerators[order], denominators[order]
    starts = run_starts(denominators)
    if numerators.dtype != object and int(numerators.max(initial=0)) * len(numerators) >= 1 << 63:
        numerators = numerators.astype(object)  # the sums would overflow int64
    return list(zip(np.add.reduceat(numerators, starts).tolist(), denominators[starts].tolist()))


def _grouped_blocks(
    numerators: np.ndarray, denominators: np.ndarray, sizes: np.ndarray, starts: np.ndarray
) -> list[list[tuple[int, int]]] | None:
    """`_grouped` of each group of rows (`sizes` from `starts`), by one bincount of (group, denominator) keys, or of
    a few groups each by its own; None where that is not exact and small (then each group by `_grouped`). Only the
    denominators whose sums are not 0 are listed."""
    if numerators.dtype == object or denominators.dtype == object or not len(denominators):
        return None
    width = int(denominators.max()) + 1
    if (
        width * len(sizes) > 4 * len(denominators) + 1024
        or int(np.abs(numerators).max()) * int(sizes.max()) >= EXACT_FLOATS
    ):
        return None
    if len(sizes) <= _FEW_GROUPS:
        # (a tally's schemes: each group's rows summed where they lie, with no key made for every row)
        sums = [
            np.bincount(denominators[start : start + size], numerators[start : start + size], width)
            for start, size in zip(starts.tolist(), sizes.tolist())
        ]
    else:
        keys = np.repeat(np.arange(len(sizes), dtype=np.int64) * width, sizes) + denominators
        sums = list(np.bincount(keys, weights=numerators, minlength=width * len(sizes)).reshape(len(sizes), width))
    blocks = []
    for block_sums in sums:
        # Only the denominators whose numerators sum to other than 0: a sum of 0 adds nothing to the exact sum,
        # whose float is the same however it is written (int division rounds correctly), and the rows' keys are
        # not counted a second time to find which denominators occur (1 ms of one tally's 100,000 types).
        present = np.flatnonzero(block_sums)
        blocks.append(list(zip(block_sums[present].astype(np.int64).tolist(), present.tolist())))
    return blocks


# Up to this many groups `_grouped_blocks` sums each group's rows by a bincount of its own (one tally's schemes).
_FEW_GROUPS = 8


def _sum_of_ratios(ratios: list[tuple[int, int]]) -> tuple[int, int]:
    """The exact sum of ratios (numerator, denominator), added in pairs so that the integers grow evenly (a running
    sum would carry an ever larger denominator through every addition)."""
    while len(ratios) > 1:
        pairs = zip(ratios[0::2], ratios[1::2])
        ratios = [(a * d + c * b, b * d) for (a, b), (c, d) in pairs] + ratios[len(ratios) - len(ratios) % 2 :]
    return ratios[0] if ratios else (0, 1)
