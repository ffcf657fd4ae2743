"""nerscore.pairing.rules: `pair` (docs/scoring.md §3) and the scenario of each resulting row (§4): named
hand-derived cases, and a property that checks `pair` against a brute-force reading of §3 on small random sentences.
Then the paths of the pairing of nested and repeated spans (issue 16): identical entities folded into one node with
their copies, small components enumerated, each checked against the enumeration of every pairing
(test_spans.best_pairing) and against the general solver; bounded cost is checked structurally (memory peaks), never
by time. The compiled solver's tests are in test_large_components.py, the array path's in test_component_arrays.py."""

from __future__ import annotations

import tracemalloc
from collections import Counter
from itertools import combinations, permutations
from unittest import mock

import pytest
import strategies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_spans import S, best_pairing, check_rows, paired, spans_of

from nerscore import Span, compute_semeval, pair, scenario_of
from nerscore.pairing import rules as pairing

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TYPES = ("A", "B", "C")
MIN_OVERLAPS = st.one_of(st.none(), st.sampled_from([0.25, 0.5, 2 / 3, 1.0]))

PER, LOC = "PER", "LOC"


# Each case: references, predictions, and the expected rows (reference, prediction, scenario) in position order.
PAIRING_CASES = [
    pytest.param([S(0, 2)], [S(0, 2)], [(S(0, 2), S(0, 2), "I")], id="identical-same-type"),
    pytest.param(
        [S(0, 2, PER)], [S(0, 2, LOC)], [(S(0, 2, PER), S(0, 2, LOC), "IV")], id="identical-boundaries-across-types"
    ),
    pytest.param(
        [S(0, 2, PER), S(3, 6, PER)],
        [S(0, 2, LOC), S(4, 5, PER)],
        [(S(0, 2, PER), S(0, 2, LOC), "IV"), (S(3, 6), S(4, 5), "V")],
        id="identical-across-types-beside-overlap",
    ),
    pytest.param([S(0, 2)], [S(3, 5)], [(S(0, 2), None, "III"), (None, S(3, 5), "II")], id="disjoint-no-pair"),
    pytest.param([], [], [], id="empty"),
    pytest.param([S(1, 3)], [], [(S(1, 3), None, "III")], id="only-reference"),
    pytest.param([], [S(1, 3)], [(None, S(1, 3), "II")], id="only-prediction"),
    pytest.param([S(1, 4, PER)], [S(0, 2, LOC)], [(S(1, 4, PER), S(0, 2, LOC), "VI")], id="overlap-other-type"),
    # One prediction across two references: one pair at most (a); equal types and shared tokens (b, c) tie;
    # (d) picks the smaller reference start.
    pytest.param(
        [S(0, 2), S(3, 5)],
        [S(0, 5)],
        [(S(0, 2), S(0, 5), "V"), (S(3, 5), None, "III")],
        id="one-prediction-across-two-references-tie",
    ),
    # ... and (c) prefers the reference sharing 3 tokens over the one sharing 1.
    pytest.param(
        [S(0, 2), S(2, 5)],
        [S(1, 5)],
        [(S(0, 2), None, "III"), (S(2, 5), S(1, 5), "V")],
        id="one-prediction-across-two-references-more-shared",
    ),
    # Two predictions inside one reference: symmetric.
    pytest.param(
        [S(0, 5)],
        [S(0, 2), S(3, 5)],
        [(S(0, 5), S(0, 2), "V"), (None, S(3, 5), "II")],
        id="two-predictions-inside-one-reference-tie",
    ),
    pytest.param(
        [S(0, 6)],
        [S(1, 2), S(3, 6)],
        [(S(0, 6), S(3, 6), "V"), (None, S(1, 2), "II")],
        id="two-predictions-inside-one-reference-more-shared",
    ),
    # (b) before (c): the same-type prediction sharing 1 token beats the other-type one sharing 2.
    pytest.param(
        [S(1, 5, PER)],
        [S(0, 3, LOC), S(4, 5, PER)],
        [(None, S(0, 3, LOC), "II"), (S(1, 5, PER), S(4, 5, PER), "V")],
        id="same-type-prediction-preferred",
    ),
    pytest.param(
        [S(0, 3, LOC), S(4, 5, PER)],
        [S(1, 5, PER)],
        [(S(0, 3, LOC), None, "III"), (S(4, 5, PER), S(1, 5, PER), "V")],
        id="same-type-reference-preferred",
    ),
    # (a) before (b): two pairs (one of them across types) beat one same-type pair.
    pytest.param(
        [S(0, 2, PER), S(2, 4, PER)],
        [S(1, 3, PER), S(3, 5, LOC)],
        [(S(0, 2, PER), S(1, 3, PER), "V"), (S(2, 4, PER), S(3, 5, LOC), "VI")],
        id="more-pairs-beat-same-type",
    ),
    # (c) before (d): sharing 3 tokens beats the lexicographically smaller (1, 0).
    pytest.param(
        [S(1, 7)],
        [S(0, 3), S(4, 7)],
        [(None, S(0, 3), "II"), (S(1, 7), S(4, 7), "V")],
        id="shared-tokens-beat-tie-break",
    ),
    # (d) tie-breaks.
    pytest.param(
        [S(0, 2), S(2, 4)],
        [S(1, 3)],
        [(S(0, 2), S(1, 3), "V"), (S(2, 4), None, "III")],
        id="tie-break-smaller-reference-start",
    ),
    pytest.param(
        [S(1, 5)],
        [S(0, 3), S(3, 6)],
        [(S(1, 5), S(0, 3), "V"), (None, S(3, 6), "II")],
        id="tie-break-smaller-prediction-start",
    ),
    # Chain R1 P1 R2 P2 R3: three 2-pair matchings share 2 tokens each; [(0,1), (2,3)] is the smallest list.
    pytest.param(
        [S(0, 2), S(2, 4), S(4, 6)],
        [S(1, 3), S(3, 5)],
        [(S(0, 2), S(1, 3), "V"), (S(2, 4), S(3, 5), "V"), (S(4, 6), None, "III")],
        id="chain-tie-break-over-whole-list",
    ),
    # Chains where the first overlap must be left unpaired.
    pytest.param(
        [S(0, 2, LOC), S(2, 4, PER)],
        [S(1, 3, PER)],
        [(S(0, 2, LOC), None, "III"), (S(2, 4, PER), S(1, 3, PER), "V")],
        id="chain-skips-first-overlap-for-same-type",
    ),
    pytest.param(
        [S(0, 2, PER), S(2, 4, LOC), S(4, 6, PER)],
        [S(1, 3, LOC), S(3, 5, PER)],
        [(S(0, 2, PER), None, "III"), (S(2, 4, LOC), S(1, 3, LOC), "V"), (S(4, 6, PER), S(3, 5, PER), "V")],
        id="chain-two-same-type-pairs-beat-greedy",
    ),
    pytest.param(
        [S(0, 2), S(2, 4), S(4, 6)],
        [S(1, 3), S(3, 5), S(5, 7)],
        [(S(0, 2), S(1, 3), "V"), (S(2, 4), S(3, 5), "V"), (S(4, 6), S(5, 7), "V")],
        id="long-chain-all-paired",
    ),
    pytest.param(
        [S(0, 3, LOC), S(5, 7), S(9, 10)],
        [S(0, 3, PER), S(6, 9), S(12, 13)],
        [
            (S(0, 3, LOC), S(0, 3, PER), "IV"),
            (S(5, 7), S(6, 9), "V"),
            (S(9, 10), None, "III"),
            (None, S(12, 13), "II"),
        ],
        id="rows-in-position-order",
    ),
]


@pytest.mark.parametrize(("references", "predictions", "expected"), PAIRING_CASES)
def test_pair(references: list[Span], predictions: list[Span], expected: list[tuple]) -> None:
    rows = pair(references, predictions)
    assert rows == [(reference, prediction) for reference, prediction, _ in expected]
    assert [scenario_of(reference, prediction) for reference, prediction in rows] == [s for *_, s in expected]


SCENARIO_CASES = [
    pytest.param(S(0, 2), S(0, 2), "I", id="I-same-boundaries-same-type"),
    pytest.param(None, S(0, 2), "II", id="II-prediction-unpaired"),
    pytest.param(S(0, 2), None, "III", id="III-reference-unpaired"),
    pytest.param(S(0, 2, PER), S(0, 2, LOC), "IV", id="IV-same-boundaries-other-type"),
    pytest.param(S(0, 2), S(1, 3), "V", id="V-other-boundaries-same-type"),
    pytest.param(S(0, 2), S(0, 3), "V", id="V-same-start-other-end"),
    pytest.param(S(0, 2, PER), S(1, 3, LOC), "VI", id="VI-other-boundaries-other-type"),
]


@pytest.mark.parametrize(("reference", "prediction", "scenario"), SCENARIO_CASES)
def test_scenario_of(reference: Span | None, prediction: Span | None, scenario: str) -> None:
    assert scenario_of(reference, prediction) == scenario


# A literal reading of docs/scoring.md §3, by enumeration: fine for a handful of entities.
def spec_pairs(references: list[Span], predictions: list[Span]) -> set[tuple[Span, Span]]:
    forced = {(r, p) for r in references for p in predictions if (r.start, r.end) == (p.start, p.end)}
    rest_r = [r for r in references if all(r != f for f, _ in forced)]
    rest_p = [p for p in predictions if all(p != f for _, f in forced)]
    best_key, best = None, ()
    for size in range(min(len(rest_r), len(rest_p)), -1, -1):
        for chosen_r in combinations(rest_r, size):
            for chosen_p in permutations(rest_p, size):
                pairs = list(zip(chosen_r, chosen_p))
                if any(r.overlap(p) == 0 for r, p in pairs):
                    continue
                key = (
                    -len(pairs),
                    -sum(r.entity_type == p.entity_type for r, p in pairs),
                    -sum(r.overlap(p) for r, p in pairs),
                    sorted((r.start, p.start) for r, p in pairs),
                )
                if best_key is None or key < best_key:
                    best_key, best = key, pairs
    return forced | set(best)


@st.composite
def layouts(draw: st.DrawFn) -> list[Span]:
    """Disjoint spans over at most 12 tokens, in order."""
    result, position = [], 0
    for _ in range(draw(st.integers(0, 4))):
        position += draw(st.integers(0, 2))
        size = draw(st.integers(1, 4))
        result.append(Span(position, position + size, draw(st.sampled_from((PER, LOC)))))
        position += size
    return result


@settings(max_examples=300, deadline=None)
@given(layouts(), layouts())
def test_pair_agrees_with_a_brute_force_reading_of_spec(references: list[Span], predictions: list[Span]) -> None:
    rows = pair(references, predictions)
    # Every entity appears in exactly one row; unpaired ones alone (docs/scoring.md §3: POS = #references,
    # ACT = #predictions).
    assert sorted(r for r, _ in rows if r is not None) == references
    assert sorted(p for _, p in rows if p is not None) == predictions
    assert {(r, p) for r, p in rows if r is not None and p is not None} == spec_pairs(references, predictions)
    # Position order: rows sorted by their first token.
    firsts = [min(span.start for span in row if span is not None) for row in rows]
    assert firsts == sorted(firsts)


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


# pair takes Spans (its signature and docstring): anything else was an AttributeError ("'tuple' object has no
# attribute 'start'") or a TypeError; now a ValueError that names the argument, the value and what it expects.
# (references, predictions, min_overlap, fragments of the message)
BAD_PAIR_ARGUMENTS = [
    pytest.param(
        [(0, 2, "X")], [S(0, 2)], None, ["references[0] is (0, 2, 'X') (tuple)", "expected a Span"], id="a-tuple"
    ),
    pytest.param(
        [S(0, 2)], [{"start": 0, "end": 2, "type": "X"}], None, ["predictions[0] is {", "(dict)"], id="a-dict"
    ),
    pytest.param([S(0, 2), S(0, 1)], [(0, 1, "X")], None, ["predictions[0] is (0, 1, 'X')"], id="nested-and-a-tuple"),
    pytest.param(None, [S(0, 2)], None, ["references is None (NoneType)", "expected a list of Span"], id="none"),
    pytest.param("ab", [S(0, 2)], None, ["references is 'ab' (str)"], id="a-string"),
    pytest.param([S(0, 2), 3], [S(0, 2)], None, ["references[1] is 3 (int)"], id="an-int-after-a-span"),
    pytest.param([S(0, 2)], [S(1, 3)], "x", ["min_overlap must be a number", "found 'x'"], id="min-overlap-a-string"),
    pytest.param([S(0, 2)], [S(1, 3)], 2.0, ["min_overlap must be a number", "found 2.0"], id="min-overlap-above-1"),
]


@pytest.mark.parametrize(("references", "predictions", "min_overlap", "fragments"), BAD_PAIR_ARGUMENTS)
def test_pair_refuses_what_is_no_span_with_a_located_message(references, predictions, min_overlap, fragments) -> None:
    with pytest.raises(ValueError) as caught:
        pair(references, predictions, min_overlap)
    for fragment in fragments:
        assert fragment in str(caught.value), str(caught.value)


# (copy pairs, edges, the most pairs, admitted): the one budget of copies unfolded for scipy's solvers, §3's and the
# value's, readable and on arrays (`rules.unfolding_admitted`): up to 8 times the edges, 1,000,000 copy pairs, or
# the folded flow's work (the most pairs x the edges).
UNFOLDING_CASES = [
    pytest.param(1_600_000, 200_000, 0, True, id="eight-times-the-edges"),
    pytest.param(1_600_001, 200_000, 0, False, id="past-eight-times-the-edges"),
    pytest.param(1_000_000, 10, 1, True, id="a-million-copy-pairs"),
    pytest.param(1_000_001, 10, 1, False, id="past-a-million-copy-pairs"),
    pytest.param(1_440_000, 160_000, 1_200, True, id="onion-of-400-in-3-copies-within-the-flows-work"),
    pytest.param(1_440_000, 160_000, 0, False, id="onion-of-400-in-3-copies-past-every-bound"),
]


@pytest.mark.parametrize(("copy_pairs", "edges", "paired", "admitted"), UNFOLDING_CASES)
def test_copies_unfold_within_one_budget(copy_pairs: int, edges: int, paired: int, admitted: bool) -> None:
    assert pairing.unfolding_admitted(copy_pairs, edges, paired) is admitted


def test_the_radices_count_copies_and_units() -> None:
    # `rules.radices`, the digits' radices of §3's pairing and the value's (`value.value_digits`): the most pairs + 1
    # and the reference copies' units + 1, a discontinuous entity counting its units, not its extent (§12).
    references = [Span(0, 3, "A"), Span(0, 9, "A", ((0, 2), (6, 9))), Span(20, 22, "B")]
    edges = [(0, 0), (1, 0), (1, 1)]  # the third reference in no edge of this component
    assert pairing.radices(references, edges) == (3, 3 + 5 + 1)
    assert pairing.radices(references, edges, [2, 1, 7], [4, 1]) == (4, 2 * 3 + 5 + 1)
    assert pairing.radices(references, edges, [2, 1, 7], [1, 1]) == (3, 2 * 3 + 5 + 1)
