"""nerscore.pairing.large_components: the compiled solver of large components. With its size threshold patched to 0
it solves every component of more than one pair, and must give the rows the pure-Python solver and the
enumeration of every pairing give (docs/scoring.md §3, issue 16); where it cannot prove its answer it must hand
the component back. The non-crossing programme (`best_chain`) pairs staircases and onions alike."""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from unittest import mock

import numpy as np
import pytest
import strategies
from hypothesis import given
from test_rules import MIN_OVERLAPS, SETTINGS, TYPES
from test_spans import best_pairing, check_rows, paired, spans_of

import nerscore as ns
from nerscore import Span, compute_semeval, pair
from nerscore.forms import component_arrays, span_arrays
from nerscore.pairing import large_components
from nerscore.pairing import rules as pairing


class Spy:
    """Counts the calls of `large_components.best_matching` (or `name`) that returned a proven matching."""

    def __init__(self, name: str = "best_matching") -> None:
        self.proven = 0
        self.real = getattr(large_components, name)

    def __call__(self, *arguments):
        solved = self.real(*arguments)
        self.proven += solved is not None
        return solved


def compiled_pair(references, predictions, min_overlap=None, dense_share=None):
    """`pair` with every component of more than a few edges on the compiled solver (or the non-crossing
    programme); and how many of them it solved."""
    spy, chains = Spy(), Spy("best_chain")
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 0))
        stack.enter_context(mock.patch.object(pairing, "_ENUMERATED_EDGES", 0))
        stack.enter_context(mock.patch.object(large_components, "best_matching", spy))
        stack.enter_context(mock.patch.object(large_components, "best_chain", chains))
        if dense_share is not None:
            stack.enter_context(mock.patch.object(large_components, "_DENSE_SHARE", dense_share))
        return pair(references, predictions, min_overlap), spy.proven + chains.proven


@pytest.mark.parametrize("dense_share", [0, 10**9], ids=["sparse", "dense"])
@SETTINGS
@given(
    references=strategies.nested_spans(types=TYPES, max_size=6),
    predictions=strategies.nested_spans(types=TYPES, max_size=6),
    min_overlap=MIN_OVERLAPS,
)
def test_the_compiled_solver_pairs_as_every_pairing_enumerated(dense_share, references, predictions, min_overlap):
    references, predictions = spans_of(references), spans_of(predictions)
    rows, _ = compiled_pair(references, predictions, min_overlap, dense_share)
    check_rows(rows, references, predictions)
    assert paired(rows) == best_pairing(references, predictions, min_overlap)
    assert rows == pair(references, predictions, min_overlap)


@SETTINGS
@given(
    references=strategies.nested_spans(types=TYPES, max_size=8),
    predictions=strategies.nested_spans(types=TYPES, max_size=8),
)
def test_the_digits_on_arrays_are_the_pure_python_ones(references, predictions) -> None:
    # `edge_digits` (§3's, and through `tiered_digits` §12's `fragment_large.large_amounts`) on arrays, against
    # `rules._digits`' pure-Python ones, where a digit equal on every edge is left out alike.
    references, predictions = sorted(set(spans_of(references))), sorted(set(spans_of(predictions)))
    edges = pairing.overlap_edges(references, predictions, None)
    if not edges:
        return
    radix, extent_radix = pairing.radices(references, edges)
    assert large_components.digits_fit(radix, extent_radix)
    pairs = np.array(edges, np.int64)
    columns = large_components.span_columns(references, predictions)
    on_arrays = large_components.edge_digits(columns, pairs[:, 0], pairs[:, 1], radix, extent_radix)
    in_python = pairing._digits(references, predictions, edges, radix, extent_radix, arrays_read=False)
    assert on_arrays.tolist() == [in_python[edge] for edge in edges]


def random_component(rng: random.Random, entities: int, width: int) -> tuple[list[Span], list[Span]]:
    """Distinct nested and overlapping entities of three types over `width` positions (no copies: the compiled
    solver takes rooms of 1 only)."""

    def side() -> list[Span]:
        spans = set()
        while len(spans) < entities:
            start = rng.randrange(width)
            spans.add(Span(start, start + rng.randint(1, max(1, width // rng.choice([1, 3, 10]))), rng.choice(TYPES)))
        return list(spans)

    return side(), side()


@pytest.mark.parametrize("dense_share", [0, 4, 10**9], ids=["sparse", "by-density", "dense"])
@pytest.mark.parametrize("seed", range(10))
def test_the_compiled_solver_pairs_large_components_as_the_pure_python_solver(seed, dense_share) -> None:
    rng = random.Random(seed)
    references, predictions = random_component(rng, rng.randint(20, 60), rng.choice([15, 40, 200]))
    for min_overlap in (None, 0.5):
        rows, proven = compiled_pair(references, predictions, min_overlap, dense_share)
        with mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 10**12):
            assert rows == pair(references, predictions, min_overlap)
        assert proven > 0


@pytest.mark.parametrize("seed", range(4))
def test_an_onion_and_a_staircase_pair_alike_on_both_solvers(seed) -> None:
    size = 30 + seed * 7
    onion_r = [Span(i, 2 * size - i, "A" if i % 2 else "B") for i in range(size)]
    onion_p = [Span(i, 2 * size - i - 1, "B" if i % 3 == 0 else "A") for i in range(size)]
    stairs_r = [Span(i, i + 10, "A") for i in range(size * 3)]
    stairs_p = [Span(i + 1, i + 12, "A") for i in range(size * 3)]
    for references, predictions in ((onion_r, onion_p), (stairs_r, stairs_p)):
        rows, proven = compiled_pair(references, predictions)
        assert proven > 0
        with mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 10**12):
            assert rows == pair(references, predictions)


def test_weights_beyond_a_float64_go_to_the_pure_python_solver() -> None:
    # Entities of 10**15 tokens make the extent digit alone exceed 2**53: the compiled solver declines.
    big = 10**15
    references = [Span(0, big, "A"), Span(1, big - 1, "B"), Span(2, big + 5, "A")]
    predictions = [Span(0, big - 2, "B"), Span(1, big + 3, "A"), Span(3, big, "A")]
    assert not large_components.fits(np.array([2**53]), 1, 1)
    assert not large_components.fits(np.array([2**51, 2**51]), 2, 2)  # 4 * (2**51 + 1) > 2**53
    assert large_components.fits(np.array([2**50, 2**50]), 2, 2)
    rows, proven = compiled_pair(references, predictions)
    assert paired(rows) == best_pairing(references, predictions, None)
    assert proven == 0  # asked, the compiled solver declines: the weights do not fit


@pytest.mark.parametrize("seed", range(6))
def test_a_matching_that_is_not_best_is_not_proven_and_goes_back(seed) -> None:
    # scipy's matching spoilt (one pair dropped, or two swapped): the relaxation finds no optimal dual, the
    # component goes back to the pure-Python solver, and the rows do not change.
    rng = random.Random(seed)
    references, predictions = random_component(rng, 30, 40)
    real = large_components._solve

    def spoilt(*arguments):
        rows, columns = real(*arguments)
        return rows[1:], columns[1:]

    expected = pair(references, predictions)
    spy = Spy()
    with (
        mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 0),
        mock.patch.object(large_components, "_solve", spoilt),
        mock.patch.object(large_components, "best_matching", spy),
    ):
        assert pair(references, predictions) == expected
    assert spy.proven == 0


def test_wrong_potentials_are_rejected() -> None:
    # A 2 x 2 component: weights 3 1 / 1 3, the matching (0, 0), (1, 1) and its dual u = (3, 3), v = (0, 0).
    def check(u, v, rows=(0, 1), columns=(0, 1)):
        return large_components.verified(
            np.array([0, 0, 1, 1]),
            np.array([0, 1, 0, 1]),
            np.array([3, 1, 1, 3]),
            np.array(rows),
            np.array(columns),
            np.array(u),
            np.array(v),
        )

    assert check([3, 3], [0, 0])
    assert check([2, 2], [1, 1])
    assert not check([3, 2], [0, 0])  # an edge not covered
    assert not check([3, 3], [1, 0])  # not tight on a matched edge
    assert not check([4, -1], [-1, 4])  # negative
    assert not check([3, 1], [0, 0], rows=(0,), columns=(0,))  # an unmatched row of non-zero potential
    assert not check([1, 1], [2, 2], rows=(0, 1), columns=(1, 0))  # the swapped matching is not tight


# Issue 16, deep and chained nesting: the onion and the staircase of equal windows. Large components without
# copies are solved by scipy with one proven dual, and rule (d) worked out on its tight edges (no bits, no
# rounds of the pure-Python solver); a staircase (one type, no entity of a side ending before an earlier one)
# by the non-crossing programme (`large_components.best_chain`). Both must pair as the pure-Python solver does.


def staircase_like(rng: random.Random, entities: int) -> tuple[list[Span], list[Span]]:
    """Windows of one type whose starts and ends both rise (some equal), a side each: the shape
    `large_components.uncrossed` admits, with ties in the shared extent everywhere."""

    def side() -> list[Span]:
        spans, start, end = set(), 0, rng.randint(1, 12)
        while len(spans) < entities:
            start += rng.choice((0, 1, 1, 2))
            end = max(end + rng.choice((0, 1, 1, 2, 3)), start + 1)
            spans.add(Span(start, end, "A"))
        return sorted(spans)

    return side(), side()


def pure_python_pair(references, predictions, min_overlap=None):
    with mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 10**12):
        return pair(references, predictions, min_overlap)


@pytest.mark.parametrize("seed", range(12))
def test_a_staircase_pairs_by_the_non_crossing_programme_as_the_pure_python_solver(seed) -> None:
    rng = random.Random(seed)
    references, predictions = staircase_like(rng, rng.randint(20, 70))
    chains = mock.Mock(wraps=large_components.best_chain)
    for min_overlap in (None, 0.5):
        with (
            mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 0),
            mock.patch.object(large_components, "best_chain", chains),
        ):
            rows = pair(references, predictions, min_overlap)
        assert rows == pure_python_pair(references, predictions, min_overlap)
    assert chains.called


@pytest.mark.slow  # (the full suite: the quick profile stays under 3 minutes)
@SETTINGS
@given(
    references=strategies.nested_spans(types=("A",), max_size=6),
    predictions=strategies.nested_spans(types=("A",), max_size=6),
    min_overlap=MIN_OVERLAPS,
)
def test_the_non_crossing_programme_pairs_as_every_pairing_enumerated(references, predictions, min_overlap):
    # Of one type and nested or not: where `uncrossed` admits a component, the programme must give the
    # enumeration's pairing; where it does not, the scipy solver does.
    references, predictions = spans_of(references), spans_of(predictions)
    rows, _ = compiled_pair(references, predictions, min_overlap)
    check_rows(rows, references, predictions)
    assert paired(rows) == best_pairing(references, predictions, min_overlap)


def test_best_chain_refuses_rows_whose_columns_are_not_one_run() -> None:
    rows, columns, weights = np.array([0, 0, 1]), np.array([0, 2, 1]), np.array([1, 1, 1])
    assert large_components.best_chain(rows, columns, weights) is None
    assert large_components.best_chain(np.array([0, 1]), np.array([1, 0]), np.array([1, 1])) is None
    chosen = large_components.best_chain(np.array([0, 0, 1, 1]), np.array([0, 1, 1, 2]), np.array([3, 5, 5, 1]))
    assert chosen.tolist() == [True, False, True, False]  # (0, 0) and (1, 1): 3 + 5 beats 5 + 1


@pytest.mark.slow
def test_an_onion_and_a_staircase_need_neither_the_pure_python_solver_nor_rounds_of_rule_d() -> None:
    # Before, the onion's rule (d) went in blocks of 64 edges through `_rule_d` (the pure-Python solver on the
    # later rounds) and the staircase's stayed there for one round per block: quadratic.
    refused = mock.Mock(side_effect=AssertionError("not to be called"))
    onion_r = [(i, 2 * 120 - i, "A" if i % 2 else "B") for i in range(120)]
    onion_p = [(i, 2 * 120 - i - 1, "B" if i % 3 == 0 else "A") for i in range(120)]
    stairs_r = [(i, i + 10, "A") for i in range(600)]
    stairs_p = [(i + 1, i + 12, "A") for i in range(600)]
    expected = {}
    for name, (references, predictions) in {"onion": (onion_r, onion_p), "staircase": (stairs_r, stairs_p)}.items():
        spans_r, spans_p = spans_of(references), spans_of(predictions)
        expected[name] = pure_python_pair(spans_r, spans_p)
        with mock.patch.object(pairing, "_rule_d", refused), mock.patch.object(pairing, "max_weight_flow", refused):
            assert pair(spans_r, spans_p) == expected[name]
            result = compute_semeval(predictions=[predictions], references=[references])
        rows = Counter(pairing.scenario_of(r, p) for r, p in expected[name])
        assert result["strict_incorrect"] == rows["IV"] + rows["V"] + rows["VI"]
        assert result["strict_missed"] == rows["III"] and result["strict_spurious"] == rows["II"]


@pytest.mark.parametrize("seed", range(8))
def test_large_sentences_count_on_arrays_as_the_pure_python_solver_pairs_them(seed) -> None:
    # The array path's large sentences: overlaps by the sweep, components by scipy, large components without
    # copies solved from the arrays (`component_arrays._large_component_amounts`), against `pair` on the
    # pure-Python solver.
    rng = random.Random(seed)
    batch = [random_component(rng, rng.randint(20, 50), rng.choice([15, 40, 200])) for _ in range(3)]
    batch.append(staircase_like(rng, 40))
    references = [[(s.start, s.end, s.entity_type) for s in r] for r, _ in batch]
    predictions = [[(s.start, s.end, s.entity_type) for s in p] for _, p in batch]
    for min_overlap in (None, 0.5):
        options = ns.Options.of(min_overlap=min_overlap)
        with (
            mock.patch.object(component_arrays, "_PAIRS_PER_SENTENCE", 0),
            mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 0),
        ):
            fast = span_arrays.count_spans(predictions, references, options)
        with mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 10**12):
            readable = ns.tally_semeval(predictions, references, options)[0]
        assert fast is not None and fast.tally == readable
