"""nerscore.pairing.dense: a dense sentence paired on the matrix of its weights (issue 31, item 7). With its size
threshold patched to 0 it pairs every sentence dense enough, and must give the rows every pairing enumerated
gives (small onions and cliques, exhaustively), the readable path's counts (`pair` on the pure-Python solver,
larger random onions, staircases of two types, clusters), in memory of the order of its cells, and refuse a
matrix that would not fit with a located ValueError before allocating it."""

from __future__ import annotations

import contextlib
import random
import tracemalloc
from collections import Counter
from collections.abc import Iterator
from unittest import mock

import numpy as np
import pytest
from conftest import crossed, forget_recent, trials
from test_spans import best_pairing, paired, spans_of
from test_value import WEIGHTS as VALUE_WEIGHTS
from test_value import as_dict, best_value_pairing

import nerscore as ns
from nerscore import Span, compute_semeval, errors, pair
from nerscore.forms import component_arrays, span_arrays
from nerscore.pairing import dense, dense_matrix, value_arrays
from nerscore.pairing import rules as pairing
from nerscore.pairing import value as value_module

TYPES = "ABC"


def onion(rng: random.Random, size: int, types: str = TYPES) -> list[tuple[int, int, str]]:
    """Nested entities around one point, every one overlapping every other, starts and ends drawn (some shared)."""
    starts = sorted(rng.randint(0, 40) for _ in range(size))
    ends = sorted((rng.randint(41, 81) for _ in range(size)), reverse=True)
    return sorted({(start, end, rng.choice(types)) for start, end in zip(starts, ends)})


def clique(rng: random.Random, size: int, types: str = TYPES) -> list[tuple[int, int, str]]:
    """Entities that all hold position 10, of any starts and ends (not nested)."""
    return sorted({(rng.randint(0, 10), rng.randint(11, 21), rng.choice(types)) for _ in range(size)})


def two_type_staircase(rng: random.Random, size: int) -> list[tuple[int, int, str]]:
    width = rng.randint(size // 2, size + 2)
    shift = rng.randint(0, 2)
    return [(i + shift, i + shift + width, rng.choice("AB")) for i in range(size)]


# How the solver starts: from a few neighbours a row in sorted order, or from the heaviest and nearest cells a row
# found in a pass over the cells (a small matrix where the first round does not settle), from
# one candidate a row and criterion (rounds of cells added where the dual falls short), or from the whole matrix.
WAYS = {
    "candidates": {},
    "heaviest": {"_NEIGHBOURS": 0},
    "rounds": {"_CANDIDATES": 1, "_ADDED": 1, "_SMALL_MATRIX_CELLS": 0},
    "matrix": {"_ROUNDS": 0},
}


def red_team_onion(n: int) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    """The red team's onion (issue 31, items 6 and 7): n nested entities a side, of two types, each overlapping
    every entity of the other side: (the references here, the predictions)."""
    return (
        [(i, 2 * n - i - 1, "B" if i % 3 == 0 else "A") for i in range(n)],
        [(i, 2 * n - i, "A" if i % 2 else "B") for i in range(n)],
    )


def peak_unlisted(predictions, references, **options) -> tuple[dict, int]:
    """`compute_semeval`'s result and its peak of traced memory, with the overlapping pairs never listed (the
    listing fails the call)."""
    compute_semeval(predictions=predictions, references=references, **options)  # imports done
    listed = mock.Mock(side_effect=AssertionError("not to be listed"))
    tracemalloc.start()
    try:
        with mock.patch("nerscore.pairing.staircase.overlapping_pairs", listed):
            result = compute_semeval(predictions=predictions, references=references, **options)
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def started(way: str) -> contextlib.ExitStack:
    stack = contextlib.ExitStack()
    for name, value in WAYS[way].items():
        stack.enter_context(mock.patch.object(dense, name, value))
    return stack


@contextlib.contextmanager
def dense_pairs_watched() -> Iterator[list[bool]]:
    """`dense.dense_pairs` tried on every sentence (`_LEAST_CELLS` 0), each call listed: True where it paired it."""
    proven: list[bool] = []
    real = dense.dense_pairs

    def spy(*arguments):
        found = real(*arguments)
        proven.append(found is not None)
        return found

    with mock.patch.object(dense, "_LEAST_CELLS", 0), mock.patch.object(dense, "dense_pairs", spy):
        yield proven


def dense_counts(predictions, references, min_overlap=None):
    """The array path's tally with every dense sentence on the matrix, and how many were proven there."""
    options = ns.Options.of(min_overlap=min_overlap)
    every_sentence_large = mock.patch.object(component_arrays, "_PAIRS_PER_SENTENCE", 0)
    with every_sentence_large, dense_pairs_watched() as proven:
        fast = span_arrays.count_spans(predictions, references, options)
    assert fast is not None
    return fast.tally, sum(proven)


@pytest.mark.parametrize(("seed", "way"), crossed(range(150), WAYS))
def test_small_onions_and_cliques_pair_as_every_pairing_enumerated(seed, way) -> None:
    rng = random.Random(seed)
    shape = (onion, clique)[seed % 2]
    references = spans_of(shape(rng, rng.randint(1, 5), TYPES[: rng.randint(1, 3)]))
    predictions = spans_of(shape(rng, rng.randint(1, 5), TYPES[: rng.randint(1, 3)]))
    # Rule 1's pairs of identical boundaries and type are made before (`component_arrays._same_entities`); the
    # solver is given the rest, distinct, one copy each, as the array path gives it.
    left_r = sorted(set(references) - set(predictions))
    left_p = sorted(set(predictions) - set(references))
    min_overlap = rng.choice([None, None, 0.5])
    columns = [
        tuple(
            np.array(column, np.int64) for column in zip(*((s.start, s.end, TYPES.index(s.entity_type)) for s in side))
        )
        for side in (left_r, left_p)
    ]
    if not left_r or not left_p:
        return
    with started(way):
        found = dense.dense_pairs(columns[0], columns[1], min_overlap)
    assert found is not None
    chosen = [(left_r[i], left_p[j]) for i, j in zip(*(part.tolist() for part in found))]
    assert paired(chosen) == best_pairing(left_r, left_p, min_overlap)


@pytest.mark.parametrize(("seed", "way"), crossed(range(20), WAYS))
def test_dense_sentences_count_as_the_readable_path(seed, way) -> None:
    rng = random.Random(seed)
    shapes = (onion, clique, two_type_staircase)
    references, predictions = [], []
    for _ in range(rng.randint(1, 3)):
        shape = rng.choice(shapes)
        references.append(shape(rng, rng.randint(5, 40)))
        predictions.append(shape(rng, rng.randint(5, 40)))
    for min_overlap in (None, 0.5):
        with started(way), mock.patch.object(dense, "from_matrix", wraps=dense.from_matrix) as matrix:
            tally, proven = dense_counts(predictions, references, min_overlap)
        if way not in ("candidates", "heaviest"):  # (a small matrix is solved where the first round does not settle)
            assert matrix.called == (way == "matrix")
        with mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 10**12):  # the pure-Python solver
            assert tally == ns.tally_semeval(predictions, references, ns.Options.of(min_overlap=min_overlap))[0]
        assert proven > 0


def test_an_onion_and_a_staircase_of_two_types_pair_as_pair_does() -> None:
    n = 150
    onion_r, onion_p = red_team_onion(n)
    stairs_r = [(i + 1, i + n + 2, "AB"[i % 3 % 2]) for i in range(n)]
    stairs_p = [(i, i + n, "AB"[i % 2]) for i in range(n)]
    for references, predictions in ((onion_r, onion_p), (stairs_r, stairs_p)):
        tally, proven = dense_counts([predictions], [references])
        assert proven == 1
        expected = pair(spans_of(references), spans_of(predictions))
        assert tally == ns.tally_semeval([predictions], [references])[0]
        assert sum(r is not None and p is not None for r, p in expected) == n


def test_an_onion_takes_a_few_bytes_a_pair() -> None:
    # 600 a side: 360,000 pairs, every reference overlapping every prediction. Listed, they took 45-56 bytes each
    # at the peak (100 before issue 31); on the matrix, 8 and the blocks'.
    n = 600
    references, predictions = red_team_onion(n)
    result, peak = peak_unlisted([predictions], [references])
    assert result["strict_incorrect"] == n
    assert peak < 12 * n * n


@pytest.mark.parametrize(
    ("value", "match"),
    [
        (False, r"sentence 1: .* 3,000 references and 3,000 predictions .* 9,000,000 pairs"),
        (True, r"sentence 1: .* 3,000 references and 3,000 predictions"),
    ],
    ids=["pairing", "value"],
)
@pytest.mark.parametrize("return_entities", [False, True], ids=["arrays", "readable"])
def test_a_matrix_beyond_the_free_memory_is_refused_before_it_is_made(
    monkeypatch, return_entities, value, match
) -> None:
    # Where the candidates do not settle, the whole matrix is the way left (the value's pairing's too).
    monkeypatch.setattr(errors, "free_memory", lambda: 10_000_000)
    monkeypatch.setattr(dense, "_ROUNDS", 0)
    made = []
    monkeypatch.setattr(dense_matrix, "dense_assignment", lambda *a: made.append(1))
    onion_r, onion_p = red_team_onion(3_000)  # 9 million cells: 81 MB
    references, predictions = [[(0, 1, "A")], onion_r], [[(0, 1, "A")], onion_p]
    with pytest.raises(ns.InvalidInputError, match=match):
        compute_semeval(predictions=predictions, references=references, value=value, return_entities=return_entities)
    assert not made


# 600 references by 300 predictions (9 s of the readable solver and 8 s of the array path's, both on the listed
# pairs) in the full suite; the quick profile's 80 by 40 are the same onion of copies, matrix-worthy but for them
# (dense_counts sets no size threshold), its 3,200 pairs past rules.LARGE_COMPONENT_EDGES as the 180,000 are.
@pytest.mark.parametrize("n", [40, pytest.param(300, marks=pytest.mark.slow)])
def test_sparse_sentences_and_copies_are_left_to_the_listed_pairs(n) -> None:
    assert not dense.worth_matrix(1000, 400, 400)  # 160,000 cells, 1,000 pairs
    assert dense.worth_matrix(40_000, 400, 400)
    assert not dense.worth_matrix(400, 20, 20)  # too small to be worth it
    references = [[(i, 2 * n - i, "A") for i in range(n)] * 2]  # two copies of each
    predictions = [[(i, 2 * n - i - 1, "B") for i in range(n)]]
    tally, proven = dense_counts(predictions, references)
    assert proven == 0
    assert tally == ns.tally_semeval(predictions, references)[0]


@pytest.mark.parametrize(("seed", "way"), crossed(range(10), WAYS))
def test_pair_takes_dense_sentences_alike(seed, way) -> None:
    # The readable path (`pair`, return_entities=True) pairs a dense sentence here too, its pairs never listed.
    rng = random.Random(seed)
    shape = (onion, clique, two_type_staircase)[seed % 3]
    references, predictions = spans_of(shape(rng, 30)), spans_of(shape(rng, 30))
    listed = mock.Mock(side_effect=AssertionError("not to be listed"))
    with started(way), mock.patch.object(dense, "_LEAST_CELLS", 0), mock.patch.object(pairing, "overlap_edges", listed):
        rows = pair(references, predictions, 0.5 if seed % 2 else None)
    with mock.patch.object(pairing, "LARGE_COMPONENT_EDGES", 10**12), mock.patch.object(dense, "_LEAST_CELLS", 10**18):
        assert rows == pair(references, predictions, 0.5 if seed % 2 else None)


def test_a_sentence_whose_entities_all_pair_by_rule_1_leaves_nothing_here() -> None:
    # Rule 1's twins paired before: an empty side is no sentence for the matrix, at any threshold.
    references = [Span(0, 2, "A"), Span(0, 3, "B")]
    with mock.patch.object(dense, "_LEAST_CELLS", 0):
        rows = pair(references, list(references))
    assert [pairing.scenario_of(r, p) for r, p in rows] == ["I", "I"]


def test_tight_cells_beyond_the_free_memory_are_refused_before_they_are_listed(monkeypatch) -> None:
    # Where weights tie everywhere (every reference holds every prediction whole), every pair is tight, and rule
    # (d)'s search holds them all: counted first, refused where they would not fit.
    monkeypatch.setattr(errors, "free_memory", lambda: 10_000_000)
    monkeypatch.setattr(dense, "tight_smallest_best", mock.Mock(side_effect=AssertionError("not to be searched")))
    n = 800  # most of its 640,000 cells tight
    references = [[(n - i, 2 * n + i, "AB"[i % 2]) for i in range(n)]]
    predictions = [[(n + i, n + i + 1 + i % 7, "AB"[i % 3 % 2]) for i in range(n)]]
    with pytest.raises(ns.InvalidInputError, match=r"sentence 0: .* 800 references and 800 predictions"):
        compute_semeval(predictions=predictions, references=references)


# The value score's pairing (docs/scoring.md §10) on the same machinery, given its worths (`dense.Worth`).


# test_value's weights, but in binary fractions (0.125 for 0.1, 2**-10 for 1e-3): 0.1's exact fraction has 2**55
# below it, whose scaled worths pass 2**53 (`value.dense_worth` gives None: the pairs are listed then, as before).
DENSE_VALUE_WEIGHTS = [
    *VALUE_WEIGHTS[:2],
    {"types": {"A": 2.0, "B": 0.125}, "type_error": 0.25, "boundary_error": 0.5, "false_alarm": 0.375},
    {"types": {"C": 0.0}, "default_type_weight": 3.0, "type_error": 0.0, "false_alarm": 2**-10, "min_overlap": 0.5},
    VALUE_WEIGHTS[4],
]
DENSE_WEIGHT_IDS = ["true", "ace08", "typed", "zero-weights", "no-costs"]


def value_table(weights):
    checked = ns.Options.of(value=weights).value
    assert checked is not None
    return value_module.WeightTable(checked), checked.min_overlap


def dense_value(weights):
    """`value_table`'s weights and min_overlap, and their worths as `dense.Worth` holds them (never None here)."""
    table, min_overlap = value_table(weights)
    worth = value_module.dense_worth(table, dict(enumerate(TYPES)))
    assert worth is not None
    return table, min_overlap, worth


def paired_entities(references, predictions, found):
    """The pairs (reference, prediction) of `dense.dense_pairs`' indices."""
    assert found is not None
    return [(references[i], predictions[j]) for i, j in zip(*(part.tolist() for part in found))]


def value_columns(side: list[Span]) -> tuple[np.ndarray, ...]:
    return tuple(
        np.array(column, np.int64).reshape(-1)
        for column in zip(*((s.start, s.end, TYPES.index(s.entity_type)) for s in side))
    )


@pytest.mark.parametrize(("weights", "way"), crossed(DENSE_VALUE_WEIGHTS, WAYS, DENSE_WEIGHT_IDS))
def test_small_onions_and_cliques_pair_by_value_as_every_pairing_enumerated(weights, way) -> None:
    rng = random.Random(f"{weights}{way}")
    table, min_overlap, worth = dense_value(weights)
    for trial in range(40):
        shape = (onion, clique)[trial % 2]
        # Twins (identical entities on both sides) included: the value does not pair them first.
        references = spans_of(shape(rng, rng.randint(1, 5), TYPES[: rng.randint(1, 3)]))
        predictions = spans_of(shape(rng, rng.randint(1, 5), TYPES[: rng.randint(1, 3)]))
        with started(way):
            found = dense.dense_pairs(value_columns(references), value_columns(predictions), min_overlap, worth)
        chosen = paired_entities(references, predictions, found)
        expected = best_value_pairing(references, predictions, as_dict(weights), min_overlap)
        assert sorted(chosen) == sorted(expected), (references, predictions)
        with mock.patch.object(value_module, "LARGE_COMPONENT_EDGES", 10**12):
            rows = value_module.value_pair(references, predictions, table, min_overlap)
        assert sorted(chosen) == sorted((r, p) for r, p in rows if r is not None and p is not None)


def listed_value_pair(references, predictions, table, min_overlap):
    """`value_pair` with its pairs listed, every component on the pure-Python flow (main's readable path)."""
    with (
        mock.patch.object(value_module, "LARGE_COMPONENT_EDGES", 10**12),
        mock.patch.object(dense, "_LEAST_CELLS", 10**18),
    ):
        return value_module.value_pair(references, predictions, table, min_overlap)


@pytest.mark.parametrize(("seed", "way"), crossed(range(9), WAYS))
def test_value_pair_takes_dense_sentences_without_listing_their_pairs(seed, way) -> None:
    rng = random.Random(seed)
    shape = (onion, clique, two_type_staircase)[seed % 3]
    table, min_overlap = value_table(DENSE_VALUE_WEIGHTS[seed % len(DENSE_VALUE_WEIGHTS)])
    references, predictions = spans_of(shape(rng, 30)), spans_of(shape(rng, 30))
    listed = mock.Mock(side_effect=AssertionError("not to be listed"))
    with (
        started(way),
        mock.patch.object(dense, "_LEAST_CELLS", 0),
        mock.patch.object(value_module, "overlap_edges", listed),
        mock.patch.object(value_module, "_components_of", listed),
    ):
        rows = value_module.value_pair(references, predictions, table, min_overlap)
    assert rows == listed_value_pair(references, predictions, table, min_overlap)


@pytest.mark.parametrize("seed", range(12))
def test_dense_clusters_on_arrays_pair_by_value_as_value_pair(seed) -> None:
    # Several sentences at once (`value_arrays.value_nested`), dense ones among sparse ones and copies.
    rng = random.Random(seed)
    weights = DENSE_VALUE_WEIGHTS[seed % len(DENSE_VALUE_WEIGHTS)]
    table, min_overlap = value_table(weights)
    sentences = []
    for k in range(rng.randint(1, 4)):
        shape = rng.choice((onion, clique, two_type_staircase))
        references, predictions = spans_of(shape(rng, rng.randint(5, 40))), spans_of(shape(rng, rng.randint(5, 40)))
        if k and rng.random() < 0.3:
            references = references + references[:3]  # copies: left to the listed pairs
        sentences.append((references, predictions))
    with dense_pairs_watched() as solved:
        found = value_arrays_rows(sentences, table, min_overlap)
    assert any(solved)
    expected: Counter = Counter()
    for k, (references, predictions) in enumerate(sentences):
        for r, p in listed_value_pair(references, predictions, table, min_overlap):
            expected[value_row(r, p, 1_000 * k)] += 1
    assert found == expected


def value_row(r, p, shift: int) -> tuple:
    return (
        pairing.SCENARIOS.index(pairing.scenario_of(r, p)),
        -1 if r is None else TYPES.index(r.entity_type),
        -1 if p is None else TYPES.index(p.entity_type),
        *((-1, -1) if r is None else (r.start + shift, r.end + shift)),
        *((-1, -1) if p is None else (p.start + shift, p.end + shift)),
    )


def value_arrays_rows(sentences, table, min_overlap) -> Counter:
    def side(index: int) -> tuple[np.ndarray, ...]:
        spans = [
            (s.start + 1_000 * k, s.end + 1_000 * k, s.entity_type)
            for k, two in enumerate(sentences)
            for s in two[index]
        ]
        random.Random(index).shuffle(spans)
        return value_columns([Span(*s) for s in spans])

    columns = value_arrays.value_nested(side(0), side(1), TYPES, table, min_overlap)
    assert columns is not None
    return Counter(zip(*(column.tolist() for column in columns)))


@pytest.mark.parametrize("return_entities", [False, True], ids=["arrays", "readable"])
def test_an_onion_takes_a_few_bytes_a_pair_by_value(return_entities) -> None:
    n = 600
    references, predictions = red_team_onion(n)
    result, peak = peak_unlisted([predictions], [references], value=True, return_entities=return_entities)
    assert result["value"] == 550 / 600  # as main: every entity paired, 500 of them within their type (0.5 each other)
    assert peak < 12 * n * n


def test_worths_beyond_exact_floats_leave_a_dense_sentence_to_its_listed_pairs() -> None:
    table, min_overlap = value_table(VALUE_WEIGHTS[2])  # a type weight of 0.1
    assert value_module.dense_worth(table, dict(enumerate(TYPES))) is None
    rng = random.Random(7)
    sentences = [(spans_of(onion(rng, 30)), spans_of(onion(rng, 30)))]
    with mock.patch.object(dense, "_LEAST_CELLS", 0), mock.patch.object(dense, "dense_pairs") as solver:
        found = value_arrays_rows(sentences, table, min_overlap)
        rows = value_module.value_pair(*sentences[0], table, min_overlap)
    assert not solver.called
    assert rows == listed_value_pair(*sentences[0], table, min_overlap)
    assert found == Counter(value_row(r, p, 0) for r, p in rows)


@pytest.mark.parametrize(("weights", "tells_type"), zip(DENSE_VALUE_WEIGHTS, [True, True, False, False, False]))
def test_worths_of_one_type_and_of_the_others_leave_the_type_digit_out(weights, tells_type) -> None:
    # The defaults and ACE's: 1.75 for a pair of one type, 1.25 for the others, whatever the types and boundaries:
    # the total worth and the pairs tell how many pairs are of one type (the exhaustive test above checks the rest).
    worth = value_module.dense_worth(value_table(weights)[0], dict(enumerate(TYPES)))
    assert worth is not None
    assert worth.tells_type == tells_type


@pytest.mark.parametrize(("weights", "way"), crossed(DENSE_VALUE_WEIGHTS, WAYS, DENSE_WEIGHT_IDS))
def test_the_value_pairing_from_any_cells_to_start_from_is_every_pairing_enumerated(weights, way) -> None:
    # The value pairing starts from the cells §3's pairing of the same sentence left tight (`recent`, issue 31,
    # item 6): from any cells at all (none, pairs or not, too few, all), its answer is the same.
    rng = random.Random(f"start {weights}{way}")
    _, min_overlap, worth = dense_value(weights)
    for trial in range(40):
        shape = (onion, clique, two_type_staircase)[trial % 3]
        references = spans_of(shape(rng, rng.randint(2, 6)))  # (a staircase of one has entities of no length)
        predictions = spans_of(shape(rng, rng.randint(2, 6)))
        cells = [(a, b) for a in range(len(references)) for b in range(len(predictions)) if rng.random() < 0.4]
        start = tuple(np.array(column, np.int64).reshape(-1) for column in zip(*cells)) if cells else None
        with started(way), mock.patch.object(dense, "recall", return_value=start):
            found = dense.dense_pairs(value_columns(references), value_columns(predictions), min_overlap, worth)
        chosen = paired_entities(references, predictions, found)
        expected = best_value_pairing(references, predictions, as_dict(weights), min_overlap)
        assert sorted(chosen) == sorted(expected), (references, predictions, cells)


@pytest.mark.parametrize(("weights", "way"), crossed(DENSE_VALUE_WEIGHTS, WAYS, DENSE_WEIGHT_IDS))
def test_the_value_pairing_from_the_twins_is_every_pairing_enumerated(weights, way) -> None:
    # Where every entity of the smaller side has its twin (identical boundaries and type), §3 solves nothing and
    # the value pairing starts from its neighbours in sorted order, the twins among them (issue 31, item 6: the
    # half-identical onion), which it need not keep; where the sides are equal, the twins are its pairing (§10).
    rng = random.Random(f"twins {weights}{way}")
    _, min_overlap, worth = dense_value(weights)
    started_from = []
    real = dense._from_candidates

    def spy(cells, rounds, warm=None):
        started_from.append(warm is not None)
        return real(cells, rounds, warm)

    for trial in range(12):
        shape = (onion, clique, two_type_staircase)[trial % 3]
        entities = shape(rng, rng.randint(2, 5))
        extra = shape(rng, 2) if trial % 2 else []  # (a staircase of one has entities of no length)
        references = spans_of(entities)
        predictions = spans_of(sorted(set(entities) | set(extra)))
        if trial % 4 == 1:
            references, predictions = predictions, references
        with (
            started(way),
            mock.patch.object(dense, "recall", return_value=None),
            mock.patch.object(dense, "_from_candidates", spy),
        ):
            found = dense.dense_pairs(value_columns(references), value_columns(predictions), min_overlap, worth)
        chosen = paired_entities(references, predictions, found)
        expected = best_value_pairing(references, predictions, as_dict(weights), min_overlap)
        assert sorted(chosen) == sorted(expected), (references, predictions)
        if not extra:  # equal sides: no solve (the twins, proven in `dense_pairs`)
            assert len(started_from) == 0 and sorted(chosen) == sorted(zip(references, predictions))
        elif way in ("candidates", "rounds"):
            assert started_from.pop()
        started_from.clear()


@pytest.mark.parametrize("weights", DENSE_VALUE_WEIGHTS, ids=DENSE_WEIGHT_IDS)
def test_equal_sides_pair_as_twins_without_a_solve_as_the_solver_pairs_them(weights) -> None:
    # Predictions equal to the references: their twins, proven (docs/scoring.md §10), where the solver runs on the
    # same cells without the shortcut and finds them too; the red team's identical onion among them.
    rng = random.Random(f"equal sides {weights}")
    _, min_overlap, worth = dense_value(weights)
    onion_r, _ = red_team_onion(300)
    for trial in range(31):
        shape = (onion, clique, two_type_staircase)[trial % 3]
        columns = value_columns(spans_of(shape(rng, rng.randint(2, 40)) if trial < 30 else onion_r))
        no_solve = mock.Mock(side_effect=AssertionError("not to be solved"))
        with mock.patch.object(dense, "_from_candidates", no_solve), mock.patch.object(dense, "from_matrix", no_solve):
            found = dense.dense_pairs(columns, columns, min_overlap, worth)
        with mock.patch.object(dense, "_equal_sides", return_value=False):
            solved = dense.dense_pairs(columns, columns, min_overlap, worth)
        assert found is not None and solved is not None
        assert (
            [part.tolist() for part in found]
            == [part.tolist() for part in solved]
            == [list(range(len(columns[0])))] * 2
        )


@pytest.mark.parametrize(("weights", "way"), crossed(DENSE_VALUE_WEIGHTS, WAYS, DENSE_WEIGHT_IDS))
def test_the_value_pairing_after_the_pairing_of_the_same_entities_is_every_pairing_enumerated(weights, way) -> None:
    # §3's pairing of the same entities first (`recent` keeps its tight cells, free entities and rule (d)'s choice);
    # the value's reads them, and takes §3's choice where its own tight cells and free entities are §3's.
    rng = random.Random(f"after {weights}{way}")
    _, min_overlap, worth = dense_value(weights)
    searched = mock.Mock(wraps=dense.tight_smallest_best)
    taken = 0
    for trial in range(trials(40)):
        shape = (onion, clique, two_type_staircase)[trial % 3]
        references = spans_of(shape(rng, rng.randint(2, 6)))
        predictions = [p for p in spans_of(shape(rng, rng.randint(2, 6))) if p not in references]  # no twins (§3)
        if not predictions:
            continue
        forget_recent()
        with started(way), mock.patch.object(dense, "tight_smallest_best", searched):
            dense.dense_pairs(value_columns(references), value_columns(predictions), None)
            before = searched.call_count
            found = dense.dense_pairs(value_columns(references), value_columns(predictions), min_overlap, worth)
        assert found is not None
        taken += searched.call_count == before and len(found[0]) > 0
        chosen = paired_entities(references, predictions, found)
        expected = best_value_pairing(references, predictions, as_dict(weights), min_overlap)
        assert sorted(chosen) == sorted(expected), (references, predictions)
    assert taken


def every_block(cells, x, y):
    """`dense._shortfalls` as it was before the value's bounds (issue 31, item 6): every block of rows over every
    column, the weights of each to be made shortfalls by `_from_candidates`."""
    for first, block in cells.blocks():
        yield np.arange(first, first + len(block)), None, block


def half_identical_onion(n: int) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]]]:
    """benchmarks/hostile.py's half-identical onion: n nested entities a side, half of them with the boundaries of
    one on the other side (a sixth with its type too)."""
    return (
        [(i, 2 * n - i, "A" if i % 2 else "B") for i in range(n)],
        [(i, 2 * n - i - (i % 2), "B" if i % 3 == 0 else "A") for i in range(n)],
    )


@pytest.mark.parametrize(("weights", "bound"), crossed(DENSE_VALUE_WEIGHTS, ["1x1", "1x2", "2x3"], DENSE_WEIGHT_IDS))
def test_the_value_pairing_on_bounded_blocks_is_every_pairing_enumerated(weights, bound) -> None:
    # The value's round works out only the blocks of cells that a bound does not show covered: with blocks of a
    # cell or two, nearly every bound is exact, most blocks are left out, and the answer is every pairing's best.
    rng = random.Random(f"bounded {weights}{bound}")
    _, min_overlap, worth = dense_value(weights)
    bounded = mock.Mock(wraps=dense_matrix.bounded_shortfalls)
    rows, columns = (int(size) for size in bound.split("x"))
    for trial in range(30):
        shape = (onion, clique, two_type_staircase)[trial % 3]
        references = spans_of(shape(rng, rng.randint(2, 5)))
        predictions = spans_of(shape(rng, rng.randint(2, 5)))
        if trial % 4 == 1:  # twins too
            predictions = spans_of(sorted({*shape(rng, 1), *((r.start, r.end, r.entity_type) for r in references)}))
        with (
            mock.patch.multiple(dense_matrix, _BOUND_ROWS=rows, _BOUND_COLUMNS=columns),
            mock.patch.object(dense, "bounded_shortfalls", bounded),
            mock.patch.object(dense, "recall", return_value=None),
        ):
            found = dense.dense_pairs(value_columns(references), value_columns(predictions), min_overlap, worth)
        chosen = paired_entities(references, predictions, found)
        expected = best_value_pairing(references, predictions, as_dict(weights), min_overlap)
        assert sorted(chosen) == sorted(expected), (references, predictions)
    # (with boundary_error below 1, a sentence holding identical boundaries goes over every block: its weights
    # look at them)
    assert bounded.called


@pytest.mark.parametrize(("seed", "way"), crossed(range(12), WAYS))
def test_the_value_pairing_on_bounded_blocks_is_the_pairing_on_every_block(seed, way) -> None:
    # Differential, on sentences large enough for many blocks of the usual size: onions, cliques and staircases of
    # 50 to 300 entities a side, either side the larger, every weight, the bounds against every block worked out.
    rng = random.Random(f"blocks {seed}")
    weights = DENSE_VALUE_WEIGHTS[seed % len(DENSE_VALUE_WEIGHTS)]
    _, min_overlap, worth = dense_value(weights)
    shape = (onion, clique, two_type_staircase)[seed % 3]
    wide = {onion: 400, clique: 60}.get(shape)
    for trial in range(3):
        sizes = [rng.randint(50, 300), rng.randint(50, 300)]
        sides = []
        for size in sizes:
            if shape is two_type_staircase:
                sides.append(two_type_staircase(rng, size))
            else:  # positions drawn wide enough for a few hundred distinct entities
                start, end = (0, wide // 2), (wide // 2 + 1, wide)
                sides.append(sorted({(rng.randint(*start), rng.randint(*end), rng.choice(TYPES)) for _ in range(size)}))
        if trial == 2:  # half of one side's entities on the other (twins, or boundaries of another type)
            sides[1] = sorted({*sides[1], *((s, e, rng.choice(TYPES)) for s, e, _ in sides[0][::2])})
        columns = [value_columns(spans_of(side)) for side in sides]
        answers = []
        for shortfalls in (dense._shortfalls, every_block):
            with started(way), mock.patch.object(dense, "_shortfalls", shortfalls):
                forget_recent()
                found = dense.dense_pairs(*columns, min_overlap, worth)
            answers.append(None if found is None else [part.tolist() for part in found])
        assert answers[0] is not None and answers[0] == answers[1]


def test_the_half_identical_onion_works_out_few_of_its_cells_by_value() -> None:
    # benchmarks/hostile.py's half-identical onion (issue 31, item 6): its value pairing works out under half of
    # its cells in its round (3 in 4 are bounded out), and pairs as every block worked out pairs.
    references, predictions = (value_columns(spans_of(side)) for side in half_identical_onion(1_000))
    _, min_overlap, worth = dense_value(True)
    worked = []
    real = dense_matrix.bounded_shortfalls

    def counted(cells, x, y):
        for rows, columns, short in real(cells, x, y):
            worked.append(short.size)
            yield rows, columns, short

    forget_recent()
    with mock.patch.object(dense, "bounded_shortfalls", counted):
        found = dense.dense_pairs(references, predictions, min_overlap, worth)
    with mock.patch.object(dense, "_shortfalls", every_block):
        forget_recent()
        expected = dense.dense_pairs(references, predictions, min_overlap, worth)
    assert found is not None and expected is not None
    assert [part.tolist() for part in found] == [part.tolist() for part in expected]
    assert 0 < sum(worked) < 1_000 * 1_000 // 2


@pytest.mark.parametrize(
    ("references", "predictions", "paired_with"),
    [
        # At the defaults (boundary_error 1) both pairs keep the whole worth, share all of (1, 3) and have one type:
        # rule (d) takes the smaller list, the prediction that starts first.
        ([(1, 3, "A")], [(1, 3, "A"), (0, 3, "A")], (0, 3, "A")),
        # Two pairs are worth more than the twins' one, where neither other entity overlaps the other.
        ([(0, 10, "A"), (0, 5, "B")], [(0, 10, "A"), (5, 10, "A")], (5, 10, "A")),
    ],
    ids=["rule-d", "two-pairs"],
)
def test_a_reference_need_not_pair_with_its_twin_among_other_predictions(references, predictions, paired_with) -> None:
    # Why the value's dense solve does not take partial twins out first (issue 31, item 6): only equal sides are
    # their twins (`dense.dense_pairs`); a twin among other entities may be parted from its reference.
    table, min_overlap = value_table(True)
    rows = value_module.value_pair(spans_of(references), spans_of(predictions), table, min_overlap)
    first = Span(*references[0])
    assert [p for r, p in rows if r == first] == [Span(*paired_with)]
    chosen = [(r, p) for r, p in rows if r is not None and p is not None]
    expected = best_value_pairing(spans_of(references), spans_of(predictions), as_dict(True), min_overlap)
    assert sorted(chosen) == sorted(expected)
