"""nerscore.forms.component_arrays: the array path's components of nested and repeated spans (docs/scoring.md §3,
issue 16), solved on arrays, count as the readable path; components of a few edges never set up the general
solver."""

from __future__ import annotations

import random
from collections import Counter
from unittest import mock

import numpy as np
import pytest
from conftest import trials
from test_rules import TYPES

import nerscore as ns
from nerscore import compute_semeval, errors
from nerscore.forms import component_arrays, span_arrays
from nerscore.options import Options
from nerscore.pairing import dense, large_components, value_arrays
from nerscore.pairing import rules as pairing
from nerscore.pairing.value import WeightTable


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


def dense_staircase(n: int) -> tuple[list[list], list[list]]:
    """Issue 31's dense staircase: n windows of n positions a side, one apart, none of identical boundaries, so
    every reference overlaps every prediction but one (n**2 - 1 pairs), after a sentence of one pair. Of two
    types, alternating: a staircase of one type is paired from its runs without listing its pairs
    (tests/test_staircase.py), this one has them listed."""
    references = [[(0, 1, "A")], [(i, i + n, "AB"[i % 2]) for i in range(n)]]
    predictions = [[(0, 1, "A")], [(i + 1, i + n + 2, "AB"[i % 3 % 2]) for i in range(n)]]
    return predictions, references


@pytest.mark.parametrize("value", [False, True], ids=["pairing", "value"])
def test_pairs_beyond_the_free_memory_are_refused_before_they_are_listed(monkeypatch, value) -> None:
    # Issue 31, item 7: a located ValueError, never numpy's MemoryError, where the pairs would not fit.
    monkeypatch.setattr(errors, "free_memory", lambda: 50_000_000)
    monkeypatch.setattr(dense, "_LEAST_CELLS", 10**18)  # the pairs listed (a matrix: tests/test_dense.py)
    listed = []
    monkeypatch.setattr(large_components, "component_labels", lambda *a: listed.append(1))
    predictions, references = dense_staircase(1000)
    with pytest.raises(
        ns.InvalidInputError, match=r"sentence 1: .* 1,000 references and 1,000 predictions .* 999,999 pairs"
    ):
        compute_semeval(predictions=predictions, references=references, value=value)
    assert not listed
    # With room (or a machine that does not say), the same input scores.
    monkeypatch.undo()
    monkeypatch.setattr(errors, "free_memory", lambda: None)
    predictions, references = dense_staircase(300)
    assert compute_semeval(predictions=predictions, references=references)["strict_f1"] > 0


def test_the_python_path_refuses_as_well_and_counts_pairs_without_listing_them(monkeypatch) -> None:
    rng = random.Random(31)
    for _ in range(200):
        spans = [
            pairing.Span(s, s + rng.randint(1, 6), "A") for s in (rng.randint(0, 12) for _ in range(rng.randint(0, 9)))
        ]
        others = [
            pairing.Span(s, s + rng.randint(1, 6), "B") for s in (rng.randint(0, 12) for _ in range(rng.randint(0, 9)))
        ]
        assert pairing.overlap_count(spans, others) == len(pairing.overlap_edges(spans, others, None))
    monkeypatch.setattr(errors, "free_memory", lambda: 1_000_000)
    monkeypatch.setattr(dense, "_LEAST_CELLS", 10**18)  # the pairs listed (a dense sentence: tests/test_dense.py)
    references = [pairing.Span(i, i + 400, "A") for i in range(400)]
    predictions = [pairing.Span(i + 1, i + 402, "A") for i in range(400)]
    with pytest.raises(ns.InvalidInputError, match="159,999 pairs"):
        pairing.pair(references, predictions, None)


def _with_copies(rng: random.Random, size: int) -> list[tuple[int, int, str]]:
    """An onion or clique of a few types, some of its entities given two to four times."""
    shape = [
        (rng.randint(0, 8), rng.randint(9, 18), rng.choice("AB"))
        if rng.random() < 0.5
        else (i, 30 - i, rng.choice("AB"))
        for i in range(size)
    ]
    return sorted(entity for entity in shape for _ in range(rng.choice((1, 1, 2, 3, 4))))


def test_large_components_with_copies_pair_as_the_readable_path() -> None:
    # Copies solved as entities of their own by scipy's solvers (an onion of two copies of each of 400 references
    # took 32 s of pure-Python flows, x13 a doubling): the tally and the rows are the readable path's.
    solved_copies = 0
    real = component_arrays._large_component_amounts

    def solved(references, predictions, i, j):
        nonlocal solved_copies
        found = real(references, predictions, i, j)
        copies = max(references.count[i].max(), predictions.count[j].max()) > 1
        solved_copies += found is not None and copies
        return found

    for seed in range(trials(100)):
        rng = random.Random(seed)
        references, predictions = [_with_copies(rng, rng.randint(2, 14))], [_with_copies(rng, rng.randint(2, 14))]
        with (
            mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 0),
            mock.patch.object(component_arrays, "_large_component_amounts", solved),
        ):
            found = span_arrays.count_spans(predictions, references, ns.Options())
            rows = compute_semeval(predictions=predictions, references=references, return_entities=True)["entities"]
        tally, readable_rows = ns.tally_semeval(predictions, references)
        assert found is not None and found.tally == tally, seed
        pairs = Counter((_entity(row["reference"]), _entity(row["prediction"])) for row in rows)
        assert pairs == Counter((_span(reference), _span(prediction)) for _, reference, prediction in readable_rows)
    assert solved_copies >= trials(100) // 2


def test_copies_of_two_to_five_a_side_unfolded_by_the_budget_pair_as_the_exact_flow() -> None:
    # Both §3 paths unfold copies admitted by `rules.UNFOLDED_PAIRS` alone (the factor set to 0: 4 to 25 copy pairs
    # an edge), and pair as the exact flow of counts (no component large).
    unfolded_arrays, unfolded_readable = [], []
    real_arrays, real_readable = value_arrays.unfolded, pairing.unfolded_flow

    def arrays(*arguments):
        found = real_arrays(*arguments)
        unfolded_arrays.append(found is not None)
        return found

    def readable(*arguments):
        found = real_readable(*arguments)
        unfolded_readable.append(found is not None)
        return found

    for seed in range(trials(40)):
        rng = random.Random(f"copies 2-5 {seed}")
        distinct = [sorted(set(_with_copies(rng, rng.randint(2, 10)))) for _ in range(2)]
        references, predictions = ([[e for e in side for _ in range(rng.randint(2, 5))]] for side in distinct)
        with mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 10**12):
            exact = ns.tally_semeval(predictions, references)
        with (
            mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 0),
            mock.patch.object(pairing, "UNFOLDED_FACTOR", 0),
            mock.patch.object(component_arrays, "unfolded", arrays),
            mock.patch.object(pairing, "unfolded_flow", readable),
        ):
            found = span_arrays.count_spans(predictions, references, ns.Options())
            fast = ns.tally_semeval(predictions, references)
        assert found is not None and found.tally == fast[0] == exact[0], seed
        assert Counter(fast[1]) == Counter(exact[1]), seed
    assert sum(unfolded_arrays) >= trials(40) // 2 and sum(unfolded_readable) >= trials(40) // 2


def _entity(found: dict | None) -> tuple | None:
    return None if found is None else (found["start"], found["end"], found["type"])


def _span(found: ns.Span | None) -> tuple | None:
    return None if found is None else (found.start, found.end, found.entity_type)


def test_an_onion_of_copies_is_solved_by_scipy_not_by_flows() -> None:
    n = 60
    references = [[(i, 2 * n - i, "A") for i in range(n)] * 2]
    predictions = [[(i, 2 * n - i - 1, "B") for i in range(n)]]
    flows = mock.Mock(side_effect=AssertionError("not the pure-Python flow"))
    with mock.patch.object(component_arrays, "component_flow", flows):
        found = span_arrays.count_spans(predictions, references, ns.Options())
    assert found is not None and found.tally == ns.tally_semeval(predictions, references)[0]


def test_the_readable_path_solves_large_components_with_copies_as_its_exact_flow() -> None:
    # rules.best_flow with copies unfolded for scipy's solvers (`unfolded_flow`) against the exact flow of counts.
    unfolded = 0
    for seed in range(trials(60)):
        rng = random.Random(seed)
        references, predictions = [_with_copies(rng, rng.randint(2, 14))], [_with_copies(rng, rng.randint(2, 14))]
        with mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 0):
            fast = ns.tally_semeval(predictions, references)
            unfolded += any(count > 1 for count in Counter(references[0]).values())
        with mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 10**12):
            exact = ns.tally_semeval(predictions, references)
        assert fast[0] == exact[0] and Counter(fast[1]) == Counter(exact[1]), seed
    assert unfolded


def test_the_readable_path_pairs_an_onion_of_copies_without_the_exact_flow() -> None:
    n = 60
    references = [[(i, 2 * n - i, "A") for i in range(n)] * 2]
    predictions = [[(i, 2 * n - i - 1, "B") for i in range(n)]]
    with mock.patch.object(pairing, "smallest_best", side_effect=AssertionError("the exact flow")):
        tally = ns.tally_semeval(predictions, references)[0]
    assert tally == span_arrays.count_spans(predictions, references, ns.Options()).tally


def test_copies_unfolded_past_the_free_memory_are_a_located_error_never_a_memory_error() -> None:
    # The listed pairs are checked before they are listed (`check_pairs_fit`); copies unfolded for scipy's solvers
    # (`value_arrays.unfolded`, `rules.unfolded_flow`) multiply them, up to `UNFOLDED_FACTOR` times: those are
    # checked too. 340 references in 3 copies and predictions in 2, every pair overlapping: 115,600 listed pairs
    # (11 MB on arrays, unchecked below 64 MB; 69 MB as Python objects), 693,600 copy pairs (0.14 / 0.42 GB).
    n = 340
    references = [[], [(s, 2 * n - s, "AB"[s % 2]) for s in range(n) for _ in range(3)]]
    predictions = [[], [(s, 2 * n - s - 1, "AB"[s % 3 % 2]) for s in range(n) for _ in range(2)]]
    refused = r"^sentence 1: its 1,020 references and 680 predictions overlap in 693,600 pairs"
    with mock.patch.object(errors, "free_memory", return_value=10**8):
        with pytest.raises(ValueError, match=refused):
            compute_semeval(predictions=predictions, references=references)
        # The value pairing's arrays leave such a sentence to `value_pair`, one sentence at a time, which places its
        # refusal itself (None, as where the listed pairs would not fit).
        table = WeightTable(Options.of(value=True).value)
        sides = [
            tuple(np.array(column) for column in zip(*[(start, end, "AB".index(kind)) for start, end, kind in side[1]]))
            for side in (references, predictions)
        ]
        assert value_arrays.value_nested(*sides, ["A", "B"], table, None) is None
    with mock.patch.object(errors, "free_memory", return_value=2 * 10**8), pytest.raises(ValueError, match=refused):
        ns.tally_semeval(predictions, references)  # the readable path: its listed pairs fit, not its copies
    with mock.patch.object(errors, "free_memory", return_value=10**9):
        scores = compute_semeval(predictions=predictions, references=references)
        assert (scores["strict_possible"], scores["strict_actual"], scores["strict_missed"]) == (3 * n, 2 * n, n)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"value": True}], ids=["section-3", "value"])
def test_a_large_component_of_copies_past_the_unfolding_budget_is_not_folded(options: dict) -> None:
    # 400 references in 3 copies and predictions in 3, every pair overlapping: 160,000 edges, 1,440,000 copy pairs,
    # past `rules.UNFOLDED_PAIRS`, went to the pure-Python flow (redteam5): §3 at n = 200 / 400 / 800 took 0.42 / 9.2 /
    # 80.6 s (x9 a doubling), the value 0.51 / 19 s; unfolded, 0.93 / 3.95 s at 400 / 800 (441 MB, folded 533).
    n = 400
    references = [[(s, 2 * n - s, "A") for s in range(n) for _ in range(3)]]
    predictions = [[(s, 2 * n - s - 1, "A") for s in range(n) for _ in range(3)]]
    folded: list[int] = []
    real = pairing._rule_d

    def counted(weights, *arguments):
        folded.append(len(weights))
        return real(weights, *arguments)

    with mock.patch.object(pairing, "_rule_d", counted):
        compute_semeval(predictions=predictions, references=references, **options)
    assert max(folded, default=0) <= pairing.LARGE_COMPONENT_EDGES


def test_sentences_apart_moves_each_sentence_right_after_the_one_before() -> None:
    # Sentence 0 at 2**62 (its own extent, 5, is all the room it takes), sentence 1 empty, sentence 2 from 3 to 9
    # over both sides: moved to [0, 5) and [5, 11), nothing between them.
    start, end, sentence = np.array([2**62, 2**62 + 1, 3]), np.array([2**62 + 5, 2**62 + 2, 7]), np.array([0, 0, 2])
    sides = [(sentence, start, end), (np.array([2]), np.array([4]), np.array([9]))]
    apart = component_arrays.sentences_apart(3, sides, 1 << 62)
    assert apart is not None
    shift, move = apart
    assert shift.tolist() == [0, 5, 5, 11]
    assert (start + move[sentence]).tolist() == [0, 1, 5] and (end + move[sentence]).tolist() == [5, 2, 9]
    # Positions that reach the limit are refused: one sentence's extent, or their sum, even past 2**63.
    assert component_arrays.sentences_apart(3, sides, 11) is None
    assert component_arrays.sentences_apart(3, sides, 12) is not None
    assert component_arrays.sentences_apart(3, sides, 5) is None
    wide = np.array([0, 1, 2, 3]), np.zeros(4, np.int64), np.full(4, 2**62 - 1)
    assert component_arrays.sentences_apart(4, [wide], 1 << 62) is None
    one_and_widest = np.array([0, 1]), np.zeros(2, np.int64), np.array([1, 2**63 - 1])
    assert component_arrays.sentences_apart(2, [one_and_widest], 1 << 62) is None
    assert component_arrays.sentences_apart(0, [], 1 << 62)[0].tolist() == [0]


def test_edge_components_number_the_components_alike_by_scipy_and_by_propagation() -> None:
    # Reference 0 with prediction 1 and reference 1 with prediction 0: two components (a reference and a
    # prediction of one index are two nodes); reference 2 joins both through predictions 0 and 1.
    for i, j, expected in (([0, 1], [1, 0], 2), ([0, 1, 2, 2], [1, 0, 0, 1], 1), ([0, 0, 3], [0, 2, 2], 1)):
        for by_scipy in (False, True):
            component = component_arrays.edge_components(np.array(i), np.array(j), 4, 3, by_scipy)
            assert len(set(component.tolist())) == expected, (i, j, by_scipy)
            assert component.min() >= 0


def test_flows_by_component_hands_a_large_component_to_its_solver_and_the_others_to_the_flow(monkeypatch) -> None:
    monkeypatch.setattr(pairing, "LARGE_COMPONENT_EDGES", 3)
    spans = [
        [ns.Span(0, 10, "A"), ns.Span(2, 5, "A"), ns.Span(20, 25, "B")],
        [ns.Span(0, 9, "A"), ns.Span(3, 6, "A"), ns.Span(20, 25, "A")],
    ]
    # Edges of two components, listed mixed: the nested four (component 0) and (2, 2) alone (component 1).
    i, j, component = np.array([0, 2, 0, 1, 1]), np.array([0, 2, 1, 0, 1]), np.array([0, 1, 0, 0, 0])
    rooms = ([1, 1, 1], [1, 1, 1])
    handed: list[list[int]] = []

    def handed_back(edges: np.ndarray) -> None:
        handed.append(edges.tolist())
        return None

    def span(side: int, index: int) -> ns.Span:
        return spans[side][index]

    flows = component_arrays.flows_by_component(i, j, np.arange(5), component, span, rooms, handed_back)
    assert flows.tolist() == [1, 1, 0, 0, 1] and handed == [[0, 2, 3, 4]]  # (0, 0) and (1, 1): the most extent
    solved = component_arrays.flows_by_component(
        i, j, np.array([0, 2, 3, 4]), component, span, rooms, lambda edges: np.full(len(edges), 7)
    )
    assert solved.tolist() == [7, 0, 7, 7, 7]  # edge 1 not picked
    small = component_arrays.flows_by_component(i, j, np.array([1, 2]), component, span, rooms, handed_back)
    assert small.tolist() == [0, 1, 1, 0, 0] and len(handed) == 1  # (0, 1) alone of its component: small
    component_arrays.flows_by_component(i, j, np.array([0, 2, 3]), component, span, rooms, handed_back)
    assert len(handed) == 1  # three edges: not more than LARGE_COMPONENT_EDGES


def test_sentences_of_two_sides_is_one_past_the_last_either_names() -> None:
    none = np.zeros(0, np.int64)
    assert component_arrays.sentences_of(none, none) == 0
    assert component_arrays.sentences_of(np.array([0, 2]), np.array([5])) == 6
    assert component_arrays.sentences_of(np.array([3]), none) == 4
    assert component_arrays.sentences_of(none, np.array([0])) == 1
