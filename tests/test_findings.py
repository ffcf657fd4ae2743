"""The findings reducers (`nerscore.table.findings`) on tables made by hand and by the readable path: the boundary
diagnostics with split and merged, sentences placed one after another or taken one by one, and the errors by
surface string (docs/scoring.md §11)."""

from __future__ import annotations

from unittest import mock

import strategies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_reducers import TOKENS, table

import nerscore as ns
from nerscore.forms import readable
from nerscore.table import findings, reducers, slices
from nerscore.table.columns import Columns
from nerscore.tally import Diagnostics


def test_diagnostics_of_the_table() -> None:
    assert findings.diagnostics(table(), None) == Diagnostics(1, 0, 0, 0, 0)


def test_errors_by_surface_string() -> None:
    found = findings.errors(table(), Columns.of(2, tokens=TOKENS))
    assert found == {
        ("V", "New York", "LOC", "New York now", "LOC"): 1,
        ("IV", "Bob Lee", "PER", "Bob Lee", "LOC"): 1,
        ("III", "IBM", "ORG", None, None): 1,
        ("II", None, None, "Zed", "PER"): 1,
    }


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_sentences_taken_one_by_one_give_what_placed_sentences_give(data: st.DataObject) -> None:
    # Past the placement limit (spans near 2**63) split, merged and the value pairing go sentence by sentence.
    sentences = data.draw(st.lists(strategies.nested_spans(max_position=12, types=strategies.TYPES), max_size=8))
    predictions = sentences[0::2]
    references = sentences[1::2][: len(predictions)] + [[] for _ in range(len(predictions) - len(sentences[1::2]))]
    min_overlap = data.draw(st.sampled_from([None, 0.5]))
    options = ns.Options.of(value=True, min_overlap=min_overlap)
    rows = readable.span_rows(predictions, references, options)
    pairs = readable.reduction(rows, len(references), options).pairs
    placed = findings.diagnostics(pairs, min_overlap), reducers.cells(reducers.value_pairs(pairs, options))
    with mock.patch.object(findings, "_PLACEMENT_LIMIT", 1):
        assert findings.placement(pairs) is None or not len(pairs)
        alone = findings.diagnostics(pairs, min_overlap), reducers.cells(reducers.value_pairs(pairs, options))
    assert alone == placed


def test_an_entity_and_its_twin_overlapped_by_a_nested_entity_is_split() -> None:
    # The reference's partner has its extent, but a prediction nested in that partner overlaps the reference too.
    options = ns.Options.of()
    rows = readable.span_rows([[(0, 3, "PER"), (1, 2, "PER")]], [[(0, 3, "PER")]], options)
    assert findings.diagnostics(readable.reduction(rows, 1, options).pairs, None).split == 1


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=strategies.span_batches(max_sentences=6), nested=st.booleans(), data=st.data())
def test_split_and_merged_skip_twins_only_where_a_side_never_overlaps_itself(
    batch: list, nested: bool, data: st.DataObject
) -> None:
    # Placed sentences search only the entities whose row's partner has another extent when the other side
    # never overlaps itself (tags): the counts are those of every entity searched, sentence by sentence.
    references = [reference for _, reference, _ in batch]
    predictions = [prediction for _, _, prediction in batch]
    if nested:  # a side that overlaps itself: every entity searched
        predictions = [data.draw(strategies.nested_spans(max_position=10)) for _ in batch]
    rows = readable.span_rows(predictions, references, ns.Options.of())
    pairs = readable.reduction(rows, len(references), ns.Options.of()).pairs
    placed = findings.diagnostics(pairs, None)
    with mock.patch.object(findings, "_PLACEMENT_LIMIT", 1):
        assert findings.diagnostics(pairs, None) == placed


def test_errors_read_the_seen_slices_row_texts_as_their_own() -> None:
    columns = Columns.of(2, tokens=TOKENS)
    assert findings.errors(table(), columns, slices.row_texts(table(), columns)) == findings.errors(table(), columns)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_rows_in_any_sentence_order_are_placed_alike(data: st.DataObject) -> None:
    # The paths write the rows sentence after sentence; a table in another order is placed by sorting its rows.
    sentences = data.draw(st.lists(strategies.nested_spans(max_position=12, types=strategies.TYPES), max_size=8))
    predictions, references = sentences[0::2], sentences[1::2][: len(sentences[0::2])]
    references += [[] for _ in range(len(predictions) - len(references))]
    options = ns.Options.of(value=True)
    rows = readable.span_rows(predictions, references, options)
    shuffled = data.draw(st.permutations(rows))
    pairs, other = (readable.reduction(table_rows, len(references), options).pairs for table_rows in (rows, shuffled))
    assert findings.diagnostics(other, None) == findings.diagnostics(pairs, None)
    assert reducers.cells(reducers.value_pairs(other, options)) == reducers.cells(reducers.value_pairs(pairs, options))
    placed, placed_other = findings.placement(pairs), findings.placement(other)
    assert (placed is None) == (placed_other is None)
    if placed is not None and placed_other is not None:
        assert [column.tolist() for column in placed] == [column.tolist() for column in placed_other]
