"""nerscore.pairing.value_arrays: the value pairing (docs/scoring.md §10) of nested sentences on arrays gives
`value.value_pair`'s rows, sentence by sentence, on every path (one edge, copies, small components, large ones
by the compiled solver), and the reducer takes it for nested sentences (issue 31, item 6)."""

from __future__ import annotations

import random
from collections import Counter
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fragment_arrays import OPTIONS as FRAGMENT_OPTIONS
from test_fragment_arrays import batches as fragment_batches
from test_fragment_arrays import crowded
from test_tag_arrays import assert_same_table, in_order

from nerscore import compute_semeval, errors
from nerscore.forms import span_arrays
from nerscore.options import Options
from nerscore.pairing import large_components, rules, staircase, value_arrays
from nerscore.pairing import value as value_module
from nerscore.pairing.rules import SCENARIOS, scenario_of
from nerscore.pairing.value import WeightTable, value_pair
from nerscore.pairing.value_arrays import value_nested
from nerscore.span import Span
from nerscore.table import reducers
from nerscore.table.pairs import Pairs

# Type ids deliberately not in the names' order: rule (d) compares names.
TYPE_NAMES = ("C", "A", "B")
WEIGHTS = [True, "ace08", {"types": {"A": 2.0, "B": 0.5}, "type_error": 0.25, "boundary_error": 0.5}]


def table_of(weights) -> tuple[WeightTable, float | None]:
    checked = Options.of(value=weights).value
    assert checked is not None
    return WeightTable(checked), checked.min_overlap


def expected_rows(sentences: list[tuple[list[Span], list[Span]]], table, min_overlap) -> Counter:
    """`value_pair`'s rows of each sentence, placed as `value_nested` takes them (sentence k at 1,000 k), every
    component solved by the pure-Python flow (an independent reading of the compiled solver's answers)."""
    rows: Counter = Counter()
    for k, (references, predictions) in enumerate(sentences):
        with mock.patch.object(value_module, "LARGE_COMPONENT_EDGES", 10**12):
            paired = value_pair(references, predictions, table, min_overlap)
        for r, p in paired:
            shift = 1_000 * k
            rows[
                (
                    SCENARIOS.index(scenario_of(r, p)),
                    -1 if r is None else TYPE_NAMES.index(r.entity_type),
                    -1 if p is None else TYPE_NAMES.index(p.entity_type),
                    *((-1, -1) if r is None else (r.start + shift, r.end + shift)),
                    *((-1, -1) if p is None else (p.start + shift, p.end + shift)),
                )
            ] += 1
    return rows


def arrays_rows(sentences: list[tuple[list[Span], list[Span]]], table, min_overlap) -> Counter | None:
    def side(index: int) -> tuple[np.ndarray, ...]:
        spans = [
            (s.start + 1_000 * k, s.end + 1_000 * k, s.entity_type)
            for k, pair in enumerate(sentences)
            for s in pair[index]
        ]
        random.Random(index).shuffle(spans)  # any order
        return (
            np.array([s[0] for s in spans], np.int64),
            np.array([s[1] for s in spans], np.int64),
            np.array([TYPE_NAMES.index(s[2]) for s in spans], np.int64),
        )

    columns = value_nested(side(0), side(1), TYPE_NAMES, table, min_overlap)
    return None if columns is None else Counter(zip(*(column.tolist() for column in columns)))


def nested_side(rng: random.Random, size: int, width: int) -> list[Span]:
    spans = []
    for _ in range(rng.randint(0, size)):
        start = rng.randint(0, width)
        span = Span(start, start + rng.randint(1, 6), rng.choice(TYPE_NAMES))
        spans += [span] * rng.choice((1, 1, 1, 2, 4))
    return spans


@pytest.mark.parametrize("weights", WEIGHTS, ids=["true", "ace08", "typed"])
def test_nested_sentences_on_arrays_pair_as_value_pair(weights) -> None:
    table, min_overlap = table_of(weights)
    rng = random.Random(f"value arrays {weights}")
    for _ in range(40):
        sentences = [(nested_side(rng, 8, 10), nested_side(rng, 8, 10)) for _ in range(rng.randint(1, 5))]
        assert arrays_rows(sentences, table, min_overlap) == expected_rows(sentences, table, min_overlap), sentences


@pytest.mark.parametrize("weights", WEIGHTS, ids=["true", "ace08", "typed"])
@pytest.mark.parametrize("shape", ["onion", "staircase", "dense staircase", "copies", "onion with copies"])
def test_large_components_on_arrays_pair_as_value_pair(weights, shape: str) -> None:
    # Components of more than 200 edges go to the compiled solver on the arrays, their copies entities of their own
    # (`value_arrays.unfolded`: an onion of two copies of each of 400 references took 32 s of the exact flow);
    # copies of one entity a side make a component of one edge.
    table, min_overlap = table_of(weights)
    rng = random.Random(f"{shape} {weights}")
    n = 40
    if shape == "onion":
        references = [Span(s, 2 * n - s + rng.randint(-2, 2), rng.choice(TYPE_NAMES)) for s in range(n)]
        predictions = [Span(s, 2 * n - s + rng.randint(-2, 2), rng.choice(TYPE_NAMES)) for s in range(n)]
    elif shape == "staircase":
        references = [Span(s, s + 12 + rng.randint(0, 2), "A") for s in range(n)]
        predictions = [Span(s, s + 11 + rng.randint(0, 3), "A") for s in range(n)]
    elif shape == "dense staircase":  # one worth on every edge: the dynamic programme (issue 31, item 7)
        references = [Span(s, s + n, "A") for s in range(n)]
        predictions = [Span(s + 1, s + n + 2, "A") for s in range(n)]
    elif shape == "copies":
        references, predictions = [Span(0, 5, "A")] * 300, [Span(0, 5, "B")] * 200 + [Span(1, 5, "A")] * 7
    else:
        references = [Span(s, 2 * n - s, rng.choice("AB")) for s in range(n)] * 2
        predictions = [Span(s, 2 * n - s - 1, rng.choice("AB")) for s in range(n)]
    sentences = [(references, predictions), (predictions[:5], references[:9])]
    chained = []
    best_chain = large_components.best_chain

    def chain(*arguments):
        chained.append(best_chain(*arguments))
        return chained[-1]

    with (
        mock.patch.object(value_arrays, "large_value_mask", wraps=value_arrays.large_value_mask) as large,
        mock.patch.object(large_components, "best_chain", chain),
        mock.patch.object(staircase, "best_staircase", wraps=staircase.best_staircase) as runs,
        mock.patch.object(staircase, "_LONG_RUN", 0),  # its runs of 40 from the runs as well
    ):
        found = arrays_rows(sentences, table, min_overlap)
    assert found == expected_rows(sentences, table, min_overlap)
    # A staircase of one worth is paired from its runs, without listing its pairs (issue 31, item 7); with
    # min_overlap, its pairs are listed, its one worth left out of the digits, and the programme solves it.
    from_runs = shape == "dense staircase" and min_overlap is None
    assert runs.called == from_runs
    assert large.called == (shape in ("onion", "staircase", "dense staircase", "onion with copies") and not from_runs)
    if shape == "dense staircase" and not from_runs:
        assert chained and chained[0] is not None


spans = st.builds(
    lambda start, length, kind: Span(start, start + length, kind),
    st.integers(0, 12),
    st.integers(1, 5),
    st.sampled_from(TYPE_NAMES),
)


@settings(max_examples=60, deadline=None)
@given(
    sentences=st.lists(st.tuples(st.lists(spans, max_size=7), st.lists(spans, max_size=7)), min_size=1, max_size=4),
    weights=st.sampled_from(WEIGHTS),
)
def test_any_sentences_pair_as_value_pair(sentences, weights) -> None:
    table, min_overlap = table_of(weights)
    assert arrays_rows(sentences, table, min_overlap) == expected_rows(sentences, table, min_overlap)


def test_the_reducer_pairs_nested_sentences_on_arrays_and_falls_back_where_they_would_not_fit(monkeypatch) -> None:
    references = [[(i, 80 - i, "A" if i % 2 else "B") for i in range(40)], [(0, 5, "A")] * 500]
    predictions = [[(i, 79 - i, "B" if i % 3 else "A") for i in range(40)], [(0, 5, "A")] * 300 + [(1, 4, "B")] * 9]
    expected = compute_semeval(predictions=predictions, references=references, value=True, return_entities=True)
    expected.pop("entities")
    with mock.patch.object(reducers, "value_pair", side_effect=AssertionError("a nested sentence one at a time")):
        assert compute_semeval(predictions=predictions, references=references, value=True) == expected
    # Where the nested sentences' pairs together would not fit, one sentence at a time, as before.
    monkeypatch.setattr(errors, "free_memory", lambda: 0)
    monkeypatch.setattr(value_arrays, "ARRAY_PAIR_BYTES", 1 << 26)
    table, _ = table_of(True)
    sentences = [([Span(i, 9, "A") for i in range(5)], [Span(i, 8, "B") for i in range(5)])]
    assert arrays_rows(sentences, table, None) is None


@pytest.mark.parametrize("weights", [True, WEIGHTS[2]], ids=["true", "typed"])
def test_staircases_of_one_worth_pair_from_their_runs_as_value_pair(weights) -> None:
    table, min_overlap = table_of(weights)
    rng = random.Random(f"staircases {weights}")

    def side(size: int, kind: str) -> list[Span]:
        starts = sorted(rng.sample(range(2 * size), size))
        ends = np.maximum.accumulate([start + rng.randint(1, 9) for start in starts]).tolist()
        return [Span(start, end, kind) for start, end in zip(starts, ends)]

    taken = 0
    for _ in range(40):
        kind = rng.choice(TYPE_NAMES)
        sentences = [(side(rng.randint(1, 30), kind), side(rng.randint(1, 30), kind)) for _ in range(rng.randint(1, 3))]
        with (
            mock.patch.object(staircase, "best_staircase", wraps=staircase.best_staircase) as runs,
            mock.patch.object(staircase, "_LONG_RUN", 0),
        ):
            found = arrays_rows(sentences, table, min_overlap)
        assert found == expected_rows(sentences, table, min_overlap), sentences
        taken += runs.called
    assert taken >= 10  # (a pair of identical boundaries makes two worths: those are listed)


def test_copies_of_two_to_five_a_side_unfolded_by_the_budget_pair_as_the_exact_flow() -> None:
    # Every component of two edges or more goes to the compiled solver with its copies unfolded, admitted by
    # `rules.UNFOLDED_PAIRS` alone (the factor set to 0): 4 to 25 copy pairs an edge, past `UNFOLDED_FACTOR`.
    rng = random.Random("copies 2-5")
    found_unfolded = []
    real = value_arrays.unfolded

    def unfolded(*arguments):
        found_unfolded.append(real(*arguments))
        return found_unfolded[-1]

    for trial in range(30):
        table, min_overlap = table_of(WEIGHTS[trial % 3])

        def side(size: int) -> list[Span]:
            distinct = {Span(s, s + rng.randint(3, 12), rng.choice(TYPE_NAMES)) for s in rng.sample(range(10), size)}
            return [span for span in sorted(distinct, key=lambda span: span.start) for _ in range(rng.randint(2, 5))]

        sentences = [(side(rng.randint(2, 7)), side(rng.randint(2, 7))) for _ in range(rng.randint(1, 3))]
        with (
            mock.patch.object(value_arrays, "LARGE_COMPONENT_EDGES", 0),
            mock.patch.object(rules, "UNFOLDED_FACTOR", 0),
            mock.patch.object(value_arrays, "unfolded", unfolded),
        ):
            found = arrays_rows(sentences, table, min_overlap)
        assert found == expected_rows(sentences, table, min_overlap), sentences
    assert sum(copies is not None for copies in found_unfolded) >= 20
    # Past the budget as well, the copies stay folded, on the exact flow.
    found_unfolded.clear()
    with (
        mock.patch.object(value_arrays, "LARGE_COMPONENT_EDGES", 0),
        mock.patch.object(rules, "UNFOLDED_FACTOR", 0),
        mock.patch.object(rules, "UNFOLDED_PAIRS", 0),
        mock.patch.object(rules, "UNFOLDED_WORK", 0),
        mock.patch.object(value_arrays, "unfolded", unfolded),
    ):
        found = arrays_rows(sentences, table, min_overlap)
    assert found == expected_rows(sentences, table, min_overlap)
    assert found_unfolded and not any(copies is not None for copies in found_unfolded)


@pytest.mark.parametrize("value", [False, True])
def test_a_large_onion_of_three_and_two_copies_goes_to_scipys_solvers_not_the_flow(value: bool) -> None:
    n = 40  # 1,600 folded edges, past LARGE_COMPONENT_EDGES
    references = [[(s, 2 * n - s, "AB"[s % 2]) for s in range(n) for _ in range(3)]]
    predictions = [[(s, 2 * n - s - 1, "AB"[s % 3 % 2]) for s in range(n) for _ in range(2)]]
    from nerscore.forms import component_arrays

    with (
        mock.patch.object(component_arrays, "best_flow", wraps=component_arrays.best_flow) as flow,
        mock.patch.object(value_arrays, "smallest_best", wraps=value_arrays.smallest_best) as smallest,
    ):
        compute_semeval(predictions=predictions, references=references, value=value)
    assert not flow.called and not smallest.called


@pytest.mark.parametrize("weights", WEIGHTS, ids=["true", "ace08", "typed"])
@pytest.mark.parametrize("shape", ["staircase of two types", "nested of one type"])
def test_only_a_staircase_of_one_type_is_paired_as_sections_3(weights, shape: str) -> None:
    # `value_arrays._staircase` admits a staircase of one worth to §3's pairing from its runs by
    # `staircase.uncrossed` (one type, ends that never decrease): of two types, or nested, it is the value's own.
    table, min_overlap = table_of(weights)
    n = 60
    if shape == "staircase of two types":
        references = [Span(s, s + 12, "AB"[s % 3 % 2]) for s in range(n)]
        predictions = [Span(s + 1, s + 14, "AB"[s % 2]) for s in range(n)]
    else:  # ends that go up and down
        rng = random.Random(f"nested {weights}")
        references = [Span(s, s + 2 * rng.randint(1, 15), "A") for s in range(n)]  # (no identical boundaries)
        predictions = [Span(s, s + 2 * rng.randint(1, 15) - 1, "A") for s in range(n)]
    sentences = [(references, predictions)]
    with mock.patch.object(staircase, "_LONG_RUN", 0):  # (every staircase from its runs where admitted)
        assert arrays_rows(sentences, table, min_overlap) == expected_rows(sentences, table, min_overlap)


# The value pairing of discontinuous entities (docs/scoring.md §12) on arrays (`value_arrays.value_fragments`), each
# route given every component it can take: the exact flow on `Span`s (small components), §3's compiled solver on the
# value's digits (`large`: every component of two edges or more without copies), and the shared units summed by
# sorting the pairs' keys a pair of fragments at a time (`sorted`) rather than counted into cells.
FRAGMENT_ROUTES = {
    "flow": {"LARGE_COMPONENT_EDGES": value_arrays.LARGE_COMPONENT_EDGES},
    "large": {"LARGE_COMPONENT_EDGES": 0},
    "sorted": {"_COUNTED_CELLS": (0, 0), "_FRAGMENT_PAIRS_AT_ONCE": 1},
}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    batch=st.one_of(crowded(), fragment_batches()),
    options=FRAGMENT_OPTIONS,
    route=st.sampled_from(sorted(FRAGMENT_ROUTES)),
    as_tuples=st.booleans(),
)
def test_fragments_on_arrays_pair_as_value_pair(batch, options, route, as_tuples) -> None:
    # `value_pair` with `span.shared_units` defines; the arrays never call it (nor `value_rows`). The table's
    # fragments as the array path gives them (`Pairs.fragment_runs`, read as runs) or as tuples (`as_tuples`).
    predictions, references = batch
    checked = Options.of(**options)
    table = span_arrays.span_pairs(predictions, references, checked)
    assert table is not None
    if as_tuples:
        table = Pairs.of_columns(table.columns(), table.type_names, table.sentences, table.fragments)
        assert table.fragment_runs is None
    expected = Pairs.of_rows(reducers.value_rows(table.rows(), checked), table.type_names, table.sentences)
    with (
        mock.patch.multiple(value_arrays, **FRAGMENT_ROUTES[route]),
        mock.patch.object(reducers, "value_rows", side_effect=AssertionError("one sentence at a time")),
    ):
        found = reducers.value_pairs(table, checked)
    assert (found.fragment_runs is not None) == table.fragmented  # (runs out: tuples made where read)
    if table.fragmented:
        assert_same_table(found, expected)
        assert [list(column) for column in in_order(found).fragment_columns()] == [
            list(column) for column in in_order(expected).fragment_columns()
        ]
