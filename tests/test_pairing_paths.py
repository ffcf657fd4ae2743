"""The paths of the pairing of nested and repeated spans (docs/scoring.md §3, issue 16): identical entities folded
into one node with their copies, small components enumerated, the array path's components solved on arrays. Each
is checked against the enumeration of every pairing (test_spans.best_pairing), against the general solver, and
against the readable path; bounded cost is checked structurally (memory peaks, solver calls), never by time."""

from __future__ import annotations

import contextlib
import random
import tracemalloc
from collections import Counter
from unittest import mock

import numpy as np
import pytest
import strategies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_spans import best_pairing, check_rows, paired, spans_of

import nerscore as ns
from nerscore import Span, compute_semeval, pair
from nerscore.forms import component_arrays, span_arrays
from nerscore.pairing import large_components
from nerscore.pairing import rules as pairing
from nerscore.pairing.assignment import connected, union_find

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TYPES = ("A", "B", "C")
MIN_OVERLAPS = st.one_of(st.none(), st.sampled_from([0.25, 0.5, 2 / 3, 1.0]))


@st.composite
def copied_spans(draw: st.DrawFn, max_distinct: int = 3, max_copies: int = 3) -> list[tuple[int, int, str]]:
    """A side of a sentence of few distinct entities, each repeated up to `max_copies` times, over few positions
    and three types, so that copies of identical boundaries and other types meet."""
    distinct = draw(
        st.lists(
            st.tuples(st.integers(0, 4), st.integers(1, 3), st.sampled_from(TYPES)),
            max_size=max_distinct,
        )
    )
    entities = []
    for start, length, entity_type in distinct:
        entities += [(start, start + length, entity_type)] * draw(st.integers(1, max_copies))
    return draw(st.permutations(entities))


# At most six entities a side: the enumeration visits every pairing, some 17 million for nine against nine.
@SETTINGS
@given(references=copied_spans(max_copies=2), predictions=copied_spans(max_copies=2), min_overlap=MIN_OVERLAPS)
def test_copies_pair_as_every_pairing_enumerated(references, predictions, min_overlap) -> None:
    references, predictions = spans_of(references), spans_of(predictions)
    rows = pair(references, predictions, min_overlap)
    check_rows(rows, references, predictions)
    assert paired(rows) == best_pairing(references, predictions, min_overlap)


@pytest.mark.parametrize("copies", [2, 3, 40])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(references=strategies.nested_spans(), predictions=strategies.nested_spans(), min_overlap=MIN_OVERLAPS)
def test_every_entity_copied_k_times_pairs_k_times_alike(copies, references, predictions, min_overlap) -> None:
    # The pairing of k copies of everything is k times the pairing (the best flows scale, and so does the
    # smallest list of rule (d)): the solver with rooms of k against the solver with rooms of 1.
    references, predictions = spans_of(references), spans_of(predictions)
    once = pair(references, predictions, min_overlap)
    many = pair(references * copies, predictions * copies, min_overlap)
    assert Counter(many) == Counter({row: copies * number for row, number in Counter(once).items()})


@pytest.mark.parametrize("block_edges", [1, 2, pairing._BLOCK_EDGES], ids=lambda size: f"blocks-of-{size}")
@SETTINGS
@given(
    references=copied_spans(max_distinct=5, max_copies=4),
    predictions=copied_spans(max_distinct=5, max_copies=4),
    min_overlap=MIN_OVERLAPS,
)
def test_enumeration_and_the_solver_block_by_block_pair_alike(block_edges, references, predictions, min_overlap):
    references, predictions = spans_of(references), spans_of(predictions)
    expected = pair(references, predictions, min_overlap)
    with mock.patch.object(pairing, "_BLOCK_EDGES", block_edges), mock.patch.object(pairing, "_ENUMERATED_EDGES", 0):
        assert pair(references, predictions, min_overlap) == expected


def random_batch(rng: random.Random, documents: int) -> tuple[list[list], list[list]]:
    """Documents of nested, overlapping and repeated entities of three types, some under an entity around all of
    the document."""

    def document(size: int) -> list[tuple[int, int, str]]:
        entities = []
        for _ in range(rng.randint(0, size)):
            start = rng.randint(0, 2 * size)
            entity = (start, start + rng.randint(1, 5), rng.choice(TYPES))
            entities += [entity] * rng.choice((1, 1, 1, 2, 3, 6))
        if rng.random() < 0.2:
            entities.append((0, 3 * size, "A"))
        rng.shuffle(entities)
        return entities

    sizes = [rng.choice((2, 4, 8)) for _ in range(documents)]
    return [document(size) for size in sizes], [document(size) for size in sizes]


@pytest.mark.parametrize("pairs_per_sentence", [0, 4, component_arrays._PAIRS_PER_SENTENCE])
@pytest.mark.parametrize("seed", range(12))
def test_the_array_path_counts_as_the_readable_path(seed, pairs_per_sentence) -> None:
    rng = random.Random(seed)
    references, predictions = random_batch(rng, rng.randint(1, 40))
    for min_overlap in (None, 0.5, 1 / 3):
        options = ns.Options.of(min_overlap=min_overlap)
        with mock.patch.object(component_arrays, "_PAIRS_PER_SENTENCE", pairs_per_sentence):
            fast = span_arrays.count_spans(predictions, references, options)
        assert fast is not None and fast.tally == ns.tally_semeval(predictions, references, options)[0]


@pytest.mark.parametrize("seed", range(8))
def test_components_of_two_entities_a_side_count_on_arrays_as_the_readable_path(seed) -> None:
    # Documents of one to three entities a side over few positions: many components of two references and two
    # predictions, which the array path solves in closed form (`component_arrays._two_by_two`).
    rng = random.Random(seed)

    def document() -> list[tuple[int, int, str]]:
        starts = [rng.randint(0, 4) for _ in range(rng.randint(1, 3))]
        return [(start, start + rng.randint(1, 4), rng.choice(TYPES[:2])) for start in starts]

    references, predictions = [document() for _ in range(60)], [document() for _ in range(60)]
    for min_overlap in (None, 0.5):
        options = ns.Options.of(min_overlap=min_overlap)
        fast = span_arrays.count_spans(predictions, references, options)
        assert fast is not None and fast.tally == ns.tally_semeval(predictions, references, options)[0]


def test_ordinary_nested_documents_need_the_general_solver_for_few_components() -> None:
    # Components of one edge, or of one pair at most, are solved on the arrays, and those of a few edges by
    # enumeration: the assignment solver is never set up for them (before issue 16 it was, for every one).
    calls = Counter()
    real = pairing.max_weight_flow

    def counting(*arguments, **keywords):
        calls["solver"] += 1
        return real(*arguments, **keywords)

    references = [[(0, 5, "ORG"), (3, 5, "LOC"), (7, 9, "PER")], [(0, 4, "ORG"), (0, 2, "PER"), (2, 4, "LOC")]]
    predictions = [[(0, 3, "ORG"), (2, 5, "LOC"), (7, 9, "PER")], [(0, 4, "LOC"), (0, 2, "PER"), (2, 3, "LOC")]]
    with mock.patch.object(pairing, "max_weight_flow", counting):
        result = compute_semeval(predictions=predictions * 500, references=references * 500)
    assert calls["solver"] == 0
    assert result["strict_correct"] == 2 * 500 and result["strict_possible"] == 6 * 500


def traced_peak(run) -> tuple[object, int]:
    tracemalloc.start()
    try:
        result = run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, peak


def test_a_hundred_thousand_identical_entities_a_side_score_in_little_memory() -> None:
    # Before issue 16, 400 copies took 2 GB (a weight of one bit per edge of 160,000) and 800 a MemoryError.
    entities = [(0, 5, "A")] * 100_000
    result, peak = traced_peak(lambda: compute_semeval(predictions=[entities], references=[entities]))
    assert (result["strict_correct"], result["strict_possible"], result["strict_actual"]) == (100_000,) * 3
    assert peak < 80_000_000


def test_copies_of_identical_boundaries_and_other_types_pair_in_memory_of_the_copies() -> None:
    # 3,000 A and 2,000 B against 1,000 B and 5,000 C, all at one boundary: 1,000 pairs B-B (rule 1, same type),
    # then 4,000 of the A and B left against C, and 1,000 C unpaired. Unfolded, the 4,000 x 5,000 edges of the
    # second step would not fit.
    references = [[(0, 5, "A")] * 3_000 + [(0, 5, "B")] * 2_000 + [(9, 12, "A")]]
    predictions = [[(0, 5, "B")] * 1_000 + [(0, 5, "C")] * 5_000 + [(10, 11, "A")] * 2]
    for return_entities in (False, True):  # the array path, and the readable path behind the rows
        result, peak = traced_peak(
            lambda rows=return_entities: compute_semeval(
                predictions=predictions, references=references, return_entities=rows
            )
        )
        assert peak < 40_000_000
        assert (result["strict_correct"], result["exact_correct"], result["strict_spurious"]) == (1_000, 5_000, 1_001)
        assert (result["partial_partial"], result["strict_missed"]) == (1, 0)


def test_many_documents_of_copies_and_types_count_alike_on_both_paths() -> None:
    references = [[(0, 5, "A")] * 2 + [(0, 5, "C")] * 3 + [(2, 4, "A")] * 2] * 300
    predictions = [[(0, 5, "A")] * 3 + [(0, 5, "B")] * 2 + [(1, 3, "A")]] * 300
    fast = compute_semeval(predictions=predictions, references=references)
    rows = compute_semeval(predictions=predictions, references=references, return_entities=True)
    assert {key: value for key, value in rows.items() if key != "entities"} == fast
    # Per document: 2 A-A (rule 1), the 3 C against the A and 2 B left (IV), the A at (1, 3) with one A at (2, 4)
    # (V), and the other A at (2, 4) missed.
    assert (fast["strict_correct"], fast["exact_correct"], fast["partial_partial"]) == (600, 1_500, 300)
    assert (fast["strict_missed"], fast["strict_spurious"]) == (300, 0)


UNION_CASES = [
    pytest.param([], [], id="empty"),
    pytest.param([(0, 0)], [[(0, 0)]], id="one-edge"),
    pytest.param([(0, 0), (1, 1)], [[(0, 0)], [(1, 1)]], id="two-apart"),
    pytest.param([(0, 0), (1, 0), (1, 1), (2, 1)], [[(0, 0), (1, 0), (1, 1), (2, 1)]], id="chain"),
    pytest.param([(5, 3), (0, 0), (5, 0), (2, 2)], [[(5, 3), (0, 0), (5, 0)], [(2, 2)]], id="out-of-order"),
]


@pytest.mark.parametrize(("edges", "groups"), UNION_CASES)
def test_connected_groups_edges_by_component(edges, groups) -> None:
    assert connected(edges) == groups


def test_union_find_on_a_long_chain_and_a_star() -> None:
    # One entity around a whole document (a star) and a staircase (a path) are one component each.
    chain = [(i, j) for i in range(50_000) for j in (i, i + 1)]
    star = [(0, j) for j in range(50_000)]
    for edges in (chain, star):
        assert len(set(union_find(edges))) == 1


def test_rows_of_folded_copies_keep_the_order_of_section_7() -> None:
    references = [Span(0, 5, "A")] * 3 + [Span(0, 5, "B")] * 2 + [Span(2, 3, "A")]
    predictions = [Span(0, 5, "C")] * 4 + [Span(0, 5, "A")] + [Span(1, 3, "A")]
    rows = pair(references, predictions)
    check_rows(rows, references, predictions)
    assert rows == sorted(rows, key=pairing._row_position)
    assert paired(rows) == best_pairing(references, predictions)


# The compiled solver of large components (nerscore.pairing.large_components): with its size threshold patched to 0 it
# solves every component of more than one pair, and must give the rows the pure-Python solver and the
# enumeration of every pairing give; where it cannot prove its answer it must hand the component back.


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
        stack.enter_context(mock.patch.object(pairing, "_LARGE_COMPONENT_EDGES", 0))
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
        with mock.patch.object(pairing, "_LARGE_COMPONENT_EDGES", 10**12):
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
        with mock.patch.object(pairing, "_LARGE_COMPONENT_EDGES", 10**12):
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
        mock.patch.object(pairing, "_LARGE_COMPONENT_EDGES", 0),
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
    with mock.patch.object(pairing, "_LARGE_COMPONENT_EDGES", 10**12):
        return pair(references, predictions, min_overlap)


@pytest.mark.parametrize("seed", range(12))
def test_a_staircase_pairs_by_the_non_crossing_programme_as_the_pure_python_solver(seed) -> None:
    rng = random.Random(seed)
    references, predictions = staircase_like(rng, rng.randint(20, 70))
    chains = mock.Mock(wraps=large_components.best_chain)
    for min_overlap in (None, 0.5):
        with (
            mock.patch.object(pairing, "_LARGE_COMPONENT_EDGES", 0),
            mock.patch.object(large_components, "best_chain", chains),
        ):
            rows = pair(references, predictions, min_overlap)
        assert rows == pure_python_pair(references, predictions, min_overlap)
    assert chains.called


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
            mock.patch.object(pairing, "_LARGE_COMPONENT_EDGES", 0),
        ):
            fast = span_arrays.count_spans(predictions, references, options)
        with mock.patch.object(pairing, "_LARGE_COMPONENT_EDGES", 10**12):
            readable = ns.tally_semeval(predictions, references, options)[0]
        assert fast is not None and fast.tally == readable
