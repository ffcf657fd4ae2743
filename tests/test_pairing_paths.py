"""The paths of the pairing of nested and repeated spans (docs/scoring.md §3, issue 16): identical entities folded
into one node with their copies, small components enumerated, the array path's components solved on arrays. Each
is checked against the enumeration of every pairing (test_spans.best_pairing), against the general solver, and
against the readable path; bounded cost is checked structurally (memory peaks, solver calls), never by time."""

from __future__ import annotations

import tracemalloc
from collections import Counter
from unittest import mock

import pytest
import strategies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_spans import best_pairing, check_rows, paired, spans_of

from nerscore import Span, compute_semeval, pair
from nerscore.pairing import rules as pairing

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


def test_rows_of_folded_copies_keep_the_order_of_section_7() -> None:
    references = [Span(0, 5, "A")] * 3 + [Span(0, 5, "B")] * 2 + [Span(2, 3, "A")]
    predictions = [Span(0, 5, "C")] * 4 + [Span(0, 5, "A")] + [Span(1, 3, "A")]
    rows = pair(references, predictions)
    check_rows(rows, references, predictions)
    assert rows == sorted(rows, key=pairing._row_position)
    assert paired(rows) == best_pairing(references, predictions)
