"""The reducers (`nerscore.table.reducers`) on tables made by hand and by the readable path: each derived result read
off the table of pairs, the registry's fields, and the sentence-by-sentence fallback equal to the placed one."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest

import nerscore as ns
from nerscore.span import Span
from nerscore.table import reducers
from nerscore.table.columns import Columns
from nerscore.table.pairs import Pairs, SentenceFacts
from nerscore.tally import Counted, Diagnostics, Tally

# Two sentences: an exact pair, a boundary error (too long), a type error, a miss and a spurious entity.
ROWS = [
    (0, Span(0, 1, "PER"), Span(0, 1, "PER")),
    (0, Span(2, 4, "LOC"), Span(2, 5, "LOC")),
    (1, Span(0, 2, "PER"), Span(0, 2, "LOC")),
    (1, Span(3, 4, "ORG"), None),
    (1, None, Span(5, 6, "PER")),
]
TOKENS = [["Ann", "in", "New", "York", "now", "."], ["Bob", "Lee", "of", "IBM", "says", "Zed"]]


def table() -> Pairs:
    return Pairs.of_rows(ROWS, sentences=2)


def test_every_registered_reducer_fills_a_field_of_the_tally() -> None:
    fields = {field.name for field in dataclasses.fields(Tally)}
    # Every reducer but slices fills the Tally's; slices fill the batch's `Counted.slices`.
    assert {reducer.field for reducer in reducers.REDUCERS if reducer.field != "slices"} <= fields
    assert [reducer.field for reducer in reducers.REDUCERS if reducer.field not in fields] == ["slices"]
    assert "slices" in Counted._fields
    for reducer in reducers.REDUCERS:
        assert set(reducer.reads) <= {"sentence", *reducers.PAIR_COLUMNS}


def test_cells_and_each_sentences_counts() -> None:
    pairs = table()
    assert reducers.cells(pairs) == {
        ("I", "PER", "PER"): 1,
        ("V", "LOC", "LOC"): 1,
        ("IV", "PER", "LOC"): 1,
        ("III", "ORG", None): 1,
        ("II", None, "PER"): 1,
    }
    assert reducers.scenario_counts(pairs).tolist() == [[1, 0, 0, 0, 1, 0], [0, 1, 1, 1, 0, 0]]


def test_overlap_credit_is_shared_over_union_of_each_partial_pair() -> None:
    assert reducers.overlap_credit(table()) == {("LOC", "LOC"): Fraction(2, 3)}


def test_token_counts_are_the_sentences_totals() -> None:
    facts = SentenceFacts(2, np.array([6, 6]), np.array([5, 4]))
    assert reducers.token_counts(facts) == ns.tally.TokenCounts(12, 9)


def test_the_tally_runs_each_reducer_its_options_ask_for() -> None:
    options = ns.Options.of(partial_credit="overlap", diagnostics=True)
    tally = reducers.tally(reducers.Reduction(table(), options))
    assert tally.credit == {("LOC", "LOC"): Fraction(2, 3)}
    assert tally.diagnostics == Diagnostics(1, 0, 0, 0, 0)
    assert tally.value_cells is None and tally.errors is None


@pytest.mark.parametrize("offset", [0, 2**62, 2**64])
def test_the_table_holds_any_offset(offset: int) -> None:
    rows = [(0, Span(offset, offset + 3, "X"), Span(offset + 1, offset + 3, "X"))]
    pairs = Pairs.of_rows(rows, sentences=1)
    assert pairs.rows() == rows
    assert pairs.entity_dicts() == ns.entity_rows(rows)
    assert reducers.overlap_credit(pairs) == {("X", "X"): Fraction(2, 3)}
    assert reducers.diagnostics(pairs, None) == Diagnostics(0, 1, 0, 0, 0)


def test_the_slices_reducer_fills_counted_slices_where_the_facts_are_kept() -> None:
    options = ns.Options.of(slices=["entity_length", "seen", "group"], seen={"IBM"}, errors=True)
    columns = Columns.of(2, tokens=TOKENS, groups=["a", "b"])
    reduction = reducers.Reduction(table(), options, columns)
    counted = reducers.counted(reduction, None, False, (table(), SentenceFacts(2)))
    assert list(counted.slices.names) == ["entity_length", "seen", "group"]
    assert counted.slices.names["group"] == ["a", "b"]
    assert counted.slices.two_sided["seen"].cells[("III", "seen", None)] == 1  # IBM, missed
    assert reducers.counted(reduction, None, False).slices is None  # without the facts: the tally alone


SCALED_CASES = {
    "contiguous": ([[(0, 4, "X"), (5, 9, "Y")]], [[(1, 4, "X"), (2, 9, "Y")]]),
    "from zero": ([[(0, 4, "X")], [(0, 1, "Y")]], [[(0, 2, "X"), (1, 3, "X")], [(0, 1, "Y")]]),  # starts all fit
    "fragmented": ([[{"fragments": [[0, 2], [5, 9]], "type": "X"}]], [[(1, 6, "X"), (7, 8, "X")]]),
}


@pytest.mark.parametrize("case", SCALED_CASES)
@pytest.mark.parametrize("factor", [2**62, 10**30])
@pytest.mark.parametrize(
    "options", [{"diagnostics": True}, {"partial_credit": "overlap"}, {"diagnostics": True, "min_overlap": 0.5}]
)
def test_entities_ending_past_int64_are_read_as_any_other(case: str, factor: int, options: dict) -> None:
    # docs/scoring.md §1 takes any non-negative offset. Every position times `factor`: containment and the ratios
    # of shared units are kept, so the scores are the same, where an entity starts at 0 (a column of int64) and
    # ends past int64 (the red team's: OverflowError in `placement` and `unit_overlaps`).
    references, predictions = SCALED_CASES[case]

    def scaled(batch: list[list]) -> list[list]:
        return [
            [
                {**entity, "fragments": [[a * factor, b * factor] for a, b in entity["fragments"]]}
                if isinstance(entity, dict)
                else (entity[0] * factor, entity[1] * factor, entity[2])
                for entity in sentence
            ]
            for sentence in batch
        ]

    expected = ns.compute_semeval(predictions=predictions, references=references, **options)
    assert ns.compute_semeval(predictions=scaled(predictions), references=scaled(references), **options) == expected
