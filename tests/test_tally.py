"""nerscore.tally: a `Tally`'s counts by type on both sides (docs/scoring.md §5), and tallies that add, their
diagnostics, errors and tokens included; the error rows' order."""

from __future__ import annotations

import dataclasses
import operator
import pickle
from collections import Counter
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore import Counts, compute_semeval, tally_semeval
from nerscore.error_table import ErrorTable, added_errors, error_rows
from nerscore.pairing.rules import SCENARIOS
from nerscore.tally import Cell, CellTable, Diagnostics, Tally, TokenCounts, _counts_added, summed


def test_per_type_is_two_sided() -> None:
    # docs/scoring.md §5: a PER reference predicted as LOC with the same boundaries.
    predictions, references = [["B-LOC", "I-LOC", "O"]], [["B-PER", "I-PER", "O"]]
    tally, _ = tally_semeval(predictions, references)
    reference_side, prediction_side = tally.counts_by_type("strict")
    assert reference_side == {"PER": Counts(incorrect=1)}
    assert prediction_side == {"LOC": Counts(incorrect=1)}
    reference_side, prediction_side = tally.counts_by_type("exact")
    assert reference_side == {"PER": Counts(correct=1)}
    assert prediction_side == {"LOC": Counts(correct=1)}

    result = compute_semeval(predictions=predictions, references=references, per_type=True)
    # Recall of PER counts the PER reference, precision of LOC the LOC prediction.
    assert (result["PER_strict_possible"], result["PER_strict_actual"]) == (1, 0)
    assert (result["LOC_strict_possible"], result["LOC_strict_actual"]) == (0, 1)
    assert result["PER_strict_recall"] == 0.0
    assert result["LOC_strict_precision"] == 0.0
    assert result["PER_exact_recall"] == 1.0
    assert result["LOC_exact_precision"] == 1.0
    # The sides with no entity divide by zero.
    assert result["PER_exact_precision"] == 0.0
    assert result["LOC_exact_recall"] == 0.0


def test_errors_most_frequent_first_then_by_values_none_first_and_capped() -> None:
    errors = {
        ("III", "b", "PER", None, None): 1,
        ("II", None, None, "a", "PER"): 1,
        ("VI", "a", "PER", "a", "LOC"): 3,
        ("III", "a", "PER", None, None): 1,
        ("IV", "a", "PER", "a", "LOC"): 1,
    }
    rows = [tuple(row.values()) for row in error_rows(errors)]
    assert rows == [
        ("VI", "a", "PER", "a", "LOC", 3),
        ("II", None, None, "a", "PER", 1),
        ("III", "a", "PER", None, None, 1),
        ("III", "b", "PER", None, None, 1),
        ("IV", "a", "PER", "a", "LOC", 1),
    ]
    assert [tuple(row.values()) for row in error_rows(errors, 2)] == rows[:2]
    predictions, references = [["B-PER", "O", "B-LOC"]] * 3, [["O", "B-PER", "B-PER"]] * 3
    capped = ns.compute_semeval(predictions=predictions, references=references, tokens=[["x", "y", "z"]] * 3, errors=1)
    assert capped["errors"] == [
        {"scenario": "II", "reference_text": None, "reference_type": None, "predicted_text": "x",
         "predicted_type": "PER", "count": 3}
    ]  # fmt: skip


def _reference_order(errors: dict) -> list[tuple]:
    # The documented order, written plainly: most frequent first, then each value in turn, None before any string.
    def key(item: tuple) -> tuple:
        values, number = item
        return (-number, *((value is not None, value or "") for value in values))

    return [(*values, number) for values, number in sorted(errors.items(), key=key)]


ERROR_ORDERS = {
    # Every side present or absent alike within a scenario: the one sort of the rows.
    "uniform": {("III", "b", "PER", None, None): 1, ("II", None, None, "", "PER"): 1, ("IV", "a", "PER", "a", "X"): 2},
    # A text None in one row and a string in another of the same scenario (batches with and without texts
    # added): the sort meets None against a string, and the rows are ranked column by column instead.
    "mixed": {
        ("III", None, "PER", None, None): 1,
        ("III", "", "PER", None, None): 1,
        ("III", "a", "PER", None, None): 1,
        ("II", None, None, None, "LOC"): 2,
        ("II", None, None, "b", "LOC"): 2,
    },
}


@pytest.mark.parametrize("errors", ERROR_ORDERS.values(), ids=ERROR_ORDERS.keys())
def test_error_rows_follow_the_documented_order_by_either_route(errors: dict) -> None:
    expected = _reference_order(errors)
    assert [tuple(row.values()) for row in error_rows(errors)] == expected
    assert [tuple(row.values()) for row in error_rows(errors, 2)] == expected[:2]


def test_diagnostics_add() -> None:
    assert Diagnostics(1, 2, 3, 4, 5) + Diagnostics(1, 1, 1, 1, 1) == Diagnostics(2, 3, 4, 5, 6)
    a = Tally(
        {("II", None, "PER"): 1},
        None,
        diagnostics=Diagnostics(1, 0, 0, 0, 0),
        errors={("II", None, None, "x", "PER"): 1},
    )
    b = Tally(
        {("II", None, "PER"): 2},
        None,
        diagnostics=Diagnostics(0, 1, 0, 0, 0),
        errors={("II", None, None, "x", "PER"): 2},
    )
    assert (a + b).diagnostics == Diagnostics(1, 1, 0, 0, 0)
    assert (a + b).errors == {("II", None, None, "x", "PER"): 3}
    assert (a + Tally()).errors == a.errors and (Tally() + Tally()).errors is None


def test_tallies_add_their_tokens() -> None:
    first = ns.tally_semeval([["B-PER", "O"]], [["B-PER", "B-PER"]])[0]
    second = ns.tally_semeval([["O"]], [["O"]])[0]
    assert (first + second).tokens == ns.tally_semeval([["B-PER", "O"], ["O"]], [["B-PER", "B-PER"], ["O"]])[0].tokens
    assert (ns.Tally() + ns.Tally()).tokens is None


def test_cell_table_reads_as_its_dict_and_scores_as_it() -> None:
    # The table's cells (`reducers.cells`) are a `CellTable`: a mapping equal to the dict of its cells, which
    # adds, pickles and scores exactly as that dict does, types in the same order (counts_by_type, per_type).
    import pickle

    from nerscore.options import Options
    from nerscore.result_scores import scores
    from nerscore.tally import CellColumns, CellTable

    predictions = [["B-ZED", "O", "B-LOC", "I-LOC", "B-PER"], ["B-ANT", "I-ANT", "O", "B-PER", "O"], ["O"] * 5]
    references = [["B-LOC", "O", "B-LOC", "I-LOC", "O"], ["B-ANT", "O", "B-MISC", "I-MISC", "O"], ["B-PER"] * 5]
    tally, _ = tally_semeval(predictions, references)
    assert isinstance(tally.cells, CellTable)
    as_dict = Tally(dict(tally.cells), tally.tokens)
    assert tally.cells == dict(tally.cells) and dict(tally.cells) == tally.cells and as_dict == tally
    assert list(tally.cells) == list(as_dict.cells) and len(tally.cells) == len(as_dict.cells)
    assert pickle.loads(pickle.dumps(tally)) == tally
    assert (tally + tally).cells == {cell: 2 * number for cell, number in as_dict.cells.items()}
    assert tally.entity_types == as_dict.entity_types
    for labels, ordered in ((None, False), (None, True), (["PER", "NONE", "LOC"], True)):
        table, mapping = CellColumns.of(tally, labels, ordered), CellColumns.of(as_dict, labels, ordered)
        assert table.entity_types == mapping.entity_types
        for scheme in ("strict", "exact", "partial", "type"):
            for a, b in zip(table.totals_by_type(scheme), mapping.totals_by_type(scheme)):
                assert a.tolist() == b.tolist()
    assert list(tally.counts_by_type("strict")[1].items()) == list(as_dict.counts_by_type("strict")[1].items())
    for options in (Options(), Options(per_type=True), Options(per_type=True, labels=["PER", "NONE"])):
        assert list(scores(tally, options).items()) == list(scores(as_dict, options).items())


_TYPE_NAMES = ["b", "A", "ab", "Z", "é", "a"]


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.tuples(
            st.sampled_from(SCENARIOS),
            st.none() | st.sampled_from(_TYPE_NAMES),
            st.none() | st.sampled_from(_TYPE_NAMES),
        ).filter(lambda cell: cell[1] is not None or cell[2] is not None),
        st.integers(0, 4),
    ),
    st.permutations([*_TYPE_NAMES, "unnamed"]),
)
def test_types_by_frequency_counts_both_sides_ties_alphabetical(cells: dict, names: list[str]) -> None:
    # The Space's per-type table and colours (space/scoring.py): the types of the cells, each counted once for
    # every reference and every predicted entity of it, the most frequent first, ties in Python's string order;
    # the same of the cells as a dict and as a CellTable (its names in any order, one named by no cell).
    frequency: Counter[str] = Counter()
    for (_, reference_type, predicted_type), number in cells.items():
        for entity_type in (reference_type, predicted_type):
            if entity_type is not None:
                frequency[entity_type] += number
    expected = sorted(frequency, key=lambda entity_type: (-frequency[entity_type], entity_type))
    ids = {name: at for at, name in enumerate(names)} | {None: -1}
    columns = [np.array([ids[cell[side]] for cell in cells], dtype=np.int64) for side in (1, 2)]
    scenario = np.array([SCENARIOS.index(cell[0]) for cell in cells], dtype=np.int64)
    table = CellTable(scenario, *columns, np.array(list(cells.values()), dtype=np.int64), names)
    for tally in (Tally(cells), Tally(table)):
        assert tally.types_by_frequency() == expected
        assert tally.entity_types == sorted(frequency)


# Tallies add only to tallies, as accumulators do: Python's own "unsupported operand" (Tally() + 5 raised
# AttributeError "'int' object has no attribute 'cells'", naming no operand).
NOT_ADDABLE = {
    "Tally + None": (Tally(), None),
    "Tally + int": (Tally(), 5),
    "Tally + dict of scores": (Tally(), {"strict_f1": 1.0}),
    "Diagnostics + tuple": (Diagnostics(), (0, 0, 0, 0, 0)),
    "TokenCounts + int": (TokenCounts(), 1),
}


@pytest.mark.parametrize(("counts", "other"), NOT_ADDABLE.values(), ids=NOT_ADDABLE.keys())
def test_only_counts_of_one_kind_add(counts, other) -> None:
    with pytest.raises(TypeError, match="unsupported operand type"):
        counts + other


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_half_terms_are_the_type_terms_of_the_totals_by_type(data: st.DataObject) -> None:
    # `CellColumns.half_terms` sums each scheme's credits (2·COR + PAR), POS and ACT straight from the scenario
    # rows: `type_terms` of `totals_by_type`, for every scheme, type and label list.
    from nerscore.stacked_scores import type_terms
    from nerscore.tally import CellColumns

    tags = st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"])
    length = data.draw(st.integers(1, 12))
    sentence = st.lists(tags, min_size=length, max_size=length)
    sentences = data.draw(st.lists(st.tuples(sentence, sentence), max_size=6))
    predictions = [list(prediction) for prediction, _ in sentences]
    references = [list(reference) for _, reference in sentences]
    tally, _ = tally_semeval(predictions, references)
    labels = data.draw(st.none() | st.lists(st.sampled_from(["PER", "LOC", "ORG", "NONE"]), min_size=1, unique=True))
    columns = CellColumns.of(tally, labels, data.draw(st.booleans()))
    for scheme in ("strict", "exact", "partial", "type"):
        expected = type_terms(*columns.totals_by_type(scheme))
        assert [terms.tolist() for terms in columns.half_terms(scheme)] == [terms.tolist() for terms in expected]


# Tallies with random subsets of their optional fields (docs/architecture.md, "Adding a reducer": each field declares
# how it adds, `tally.summed`). Cells as a dict or as the table of pairs counts them (`CellTable`), errors as a dict
# or an `ErrorTable`: either adds, and the sum is the same.
_CELLS = [("I", "PER", "PER"), ("II", None, "LOC"), ("III", "PER", None), ("IV", "PER", "LOC"), ("V", "LOC", "LOC")]


@st.composite
def _cells(draw: st.DrawFn, table: bool) -> Mapping[Cell, int]:
    cells = draw(st.dictionaries(st.sampled_from(_CELLS), st.integers(1, 5)))
    if not table or not cells:
        return cells
    ids = {"PER": 0, "LOC": 1, None: -1}
    columns = [np.array([ids[cell[side]] for cell in cells], dtype=np.int64) for side in (1, 2)]
    scenario = np.array([SCENARIOS.index(cell[0]) for cell in cells], dtype=np.int64)
    return CellTable(scenario, *columns, np.array(list(cells.values()), dtype=np.int64), ["PER", "LOC"])


@st.composite
def _tallies(draw: st.DrawFn) -> Tally:
    def maybe(strategy: st.SearchStrategy) -> Any:
        return draw(st.none() | strategy)

    tokens = maybe(st.tuples(st.integers(0, 9), st.integers(0, 9)).map(lambda t: TokenCounts(max(t), min(t))))
    errors = maybe(
        st.dictionaries(
            st.tuples(st.sampled_from(["II", "III", "VI"]), st.sampled_from(["a", "b", None]), st.just("PER"),
                      st.sampled_from(["a", None]), st.sampled_from(["LOC", None])),
            st.integers(1, 3), max_size=3,
        ).map(lambda errors: ErrorTable.of(errors) if len(errors) % 2 else errors)
    )  # fmt: skip
    return Tally(
        draw(_cells(draw(st.booleans()))),
        tokens,
        credit=maybe(
            st.dictionaries(st.sampled_from([("PER", "PER"), ("LOC", "PER")]), st.fractions(0, 3), max_size=2)
        ),
        value_cells=maybe(_cells(False)),
        diagnostics=maybe(st.lists(st.integers(0, 3), min_size=5, max_size=5).map(lambda d: Diagnostics(*d))),
        errors=errors,
        ungrounded=maybe(st.integers(0, 3)),
    )


def _in_order(tally: Tally) -> list[Any]:
    """A tally's fields as compared: mappings by their items in order, so that the order of their keys counts."""
    return [
        list(value.items()) if isinstance(value, Mapping) else value
        for value in (getattr(tally, field.name) for field in dataclasses.fields(tally))
    ]


def _added_field_by_field(a: Tally, b: Tally) -> Tally:
    """`+` as each field was once added in Tally.__add__, written out field by field: the oracle of the sums."""

    def added(x: Any, y: Any, add: Any, zero: Any) -> Any:
        return None if x is None and y is None else add(zero if x is None else x, zero if y is None else y)

    def counts(x: Mapping, y: Mapping) -> dict:
        summed = Counter(x)
        summed.update(y)  # in the order the keys first come
        return dict(summed)

    spans_beside_no_token = any(
        spans.tokens is None and spans.cells and tags.tokens is not None and not tags.tokens.tokens
        for spans, tags in ((a, b), (b, a))
    )
    return Tally(
        counts(a.cells, b.cells),
        None if spans_beside_no_token else added(a.tokens, b.tokens, operator.add, TokenCounts()),
        credit=added(a.credit, b.credit, counts, {}),
        value_cells=added(a.value_cells, b.value_cells, counts, {}),
        diagnostics=added(a.diagnostics, b.diagnostics, operator.add, Diagnostics()),
        errors=added_errors(a.errors, b.errors),
        ungrounded=added(a.ungrounded, b.ungrounded, operator.add, 0),
    )


@settings(max_examples=200, deadline=None)
@given(_tallies(), _tallies(), _tallies())
def test_tallies_add_associatively_with_the_empty_tally_as_zero(a: Tally, b: Tally, c: Tally) -> None:
    # What the accumulator, the runs and the slices' buckets rely on: batches add in any grouping, and `Tally()`
    # (an accumulator's start) changes nothing; keys in the order they first come, whichever the grouping.
    assert _in_order((a + b) + c) == _in_order(a + (b + c))
    for tally in (a, b, c):
        assert _in_order(tally + Tally()) == _in_order(Tally() + tally) == _in_order(tally + Tally() + Tally())
        assert tally + Tally() == tally and pickle.loads(pickle.dumps(tally + tally)) == tally + tally
    # Each field as it was once added by a line of its own: tokens None for spans beside tags of no token, None
    # where neither tally has a field, mappings added key by key in order, errors beside none kept as they are.
    for x, y in ((a, b), (b, c), (a, c)):
        assert _in_order(x + y) == _in_order(_added_field_by_field(x, y))
        assert (x + Tally()).errors is x.errors and (Tally() + y).errors is y.errors


@dataclasses.dataclass(frozen=True)
class _WithRowsBySentenceLength(Tally):
    # A made-up reducer's field, declared as every field of Tally is: Tally.__add__ adds it unchanged.
    rows_by_length: Mapping[int, int] | None = summed(_counts_added, {})


def test_a_new_field_declared_with_its_sum_adds_with_no_line_in_add() -> None:
    a = _WithRowsBySentenceLength({("I", "PER", "PER"): 1}, TokenCounts(2, 2), rows_by_length={3: 1, 1: 2})
    b = _WithRowsBySentenceLength({("II", None, "PER"): 1}, None, diagnostics=Diagnostics(1, 0, 0, 0, 0))
    total = a + b + _WithRowsBySentenceLength(rows_by_length={5: 1, 3: 1})
    assert isinstance(total, _WithRowsBySentenceLength)
    assert list(total.rows_by_length.items()) == [(3, 2), (1, 2), (5, 1)]
    assert (total.cells, total.tokens, total.diagnostics) == (
        {("I", "PER", "PER"): 1, ("II", None, "PER"): 1},
        TokenCounts(2, 2),
        Diagnostics(1, 0, 0, 0, 0),
    )
    assert (b + b).rows_by_length is None and (a + b).credit is None


def test_a_field_that_declares_no_sum_is_refused_when_added() -> None:
    @dataclasses.dataclass(frozen=True)
    class Undeclared(Tally):
        rows_by_length: Mapping[int, int] | None = None

    with pytest.raises(TypeError, match="the field 'rows_by_length' of Undeclared declares no sum"):
        Undeclared() + Undeclared()
