"""The seventh red team's escapes (issue 31's kinds): each a named case that failed before its fix."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import nested

from nerscore import Accumulator, Options, agreement, compare_semeval, compute_semeval, summarize_runs

# Batches of spans of which `labels` keeps no entity count no cell, like `Tally()`: beside an empty batch (tags of
# no token) the sum kept its token counts, and batches gave `token_accuracy` 0.0 that one call of them all did not.
_SPANS = [[(1, 3, "PER")], [(0, 1, "PER")]]
EMPTY_BESIDE_FILTERED_SPANS = [
    pytest.param([], {"labels": ["LOC"]}, id="empty-batch"),
    pytest.param([[]], {"labels": ["LOC"]}, id="sentence-of-nothing"),
    pytest.param([[]], {"labels": ["LOC"], "bootstrap": 10}, id="with-intervals"),
    pytest.param([[], []], {"labels": ["LOC"], "slices": ["entity_length"], "per_type": True}, id="with-slices"),
]


@pytest.mark.parametrize(("empty", "options"), EMPTY_BESIDE_FILTERED_SPANS)
def test_an_empty_batch_adds_no_token_accuracy_to_spans_labels_keep_none_of(empty: list, options: dict) -> None:
    expected = compute_semeval(predictions=empty + _SPANS, references=empty + _SPANS, **options)
    assert "token_accuracy" not in expected
    before = Accumulator.of(**options).update(predictions=empty, references=empty)
    after = Accumulator.of(**options).update(predictions=_SPANS, references=_SPANS)
    assert before.update(predictions=_SPANS, references=_SPANS).result() == expected
    assert after.update(predictions=empty, references=empty).result() == compute_semeval(
        predictions=_SPANS + empty, references=_SPANS + empty, **options
    )


# Tags each some scheme reads, but no one scheme all of them (a prefix before the type beside one after it, letters
# of two schemes): stored, they failed every compute after them whatever its scheme or suffix, and the evaluation
# was unscorable until reloaded. Refused when added; the batches before them still compute.
_TAGS = [["B-PER", "I-PER", "O"]]
UNREADABLE_TOGETHER = [
    pytest.param(
        [_TAGS], ["PER-B", "O"], "predictions, sentence 1, token 0: found tag 'PER-B'", {}, id="suffix-after-prefix"
    ),
    pytest.param(
        [], ["B-PER", "PER-I"], "predictions, sentence 0, token 1: found tag 'PER-I'", {}, id="both-in-one-batch"
    ),
    pytest.param(
        [[["B-PER", "M-PER", "E-PER"]]],
        ["O", "I-PER"],
        "predictions, sentence 1, token 1: found tag 'I-PER'",
        {"scheme": "BMES"},
        id="bmes-then-inside",
    ),
    pytest.param(
        [[["S-PER"]]],
        ["U-PER"],
        "predictions, sentence 1, token 0: found tag 'U-PER'",
        {"scheme": "IOBES"},
        id="iobes-then-bilou",
    ),
]


@pytest.mark.parametrize(("first", "bad", "message", "options"), UNREADABLE_TOGETHER)
def test_tags_no_one_scheme_reads_are_refused_when_added(
    metric, first: list, bad: list, message: str, options: dict
) -> None:
    for batch in first:
        metric.add_batch(predictions=batch, references=batch)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}, which no scheme reads together with the tags"):
        metric.add_batch(predictions=[bad], references=[bad])
    metric.add_batch(predictions=[["O"]], references=[["O"]])
    expected = [row for batch in first for row in batch] + [["O"]]
    assert metric.compute(**options) == compute_semeval(predictions=expected, references=expected, **options)


# agreement's pooled F is compute_semeval's of both directions of every pair (docs/scoring.md §13); it added each
# pair's mirror image where the other direction counts otherwise: the HIPE scorer's pairing (a reference taken by
# two predictions, §3a) and string entities (references found in order, predictions as a choice, §1b).
POOLED_OF_BOTH_DIRECTIONS = [
    pytest.param(
        {
            "a": [[(2, 3, "LOC")], [(4, 5, "LOC"), (2, 6, "LOC"), (4, 5, "LOC")]],
            "b": [[(3, 5, "PER")], [(4, 6, "PER"), (3, 6, "PER")]],
        },
        {"pairing": "hipe"},
        id="hipe-pairing",
    ),
    pytest.param(
        {
            "a": [[("PER", "bob"), ("LOC", "ada"), ("LOC", "bob")], []],
            "b": [[("LOC", "ada"), ("LOC", "bob"), ("LOC", "ada bob")], [("LOC", "ada bob")]],
        },
        {"texts": ["bob ada bob bob", "bob ada ada bob"]},
        id="strings",
    ),
    pytest.param(
        {"a": [[("LOC", "ada ada")], [("LOC", "ada ada")]], "b": [[("LOC", "bob"), ("LOC", "ada")], []]},
        {"texts": ["ada bob ada ada bob", "ada ada x bob x x"], "normalize": True},
        id="strings-normalized",
    ),
]


@pytest.mark.parametrize(("annotations", "options"), POOLED_OF_BOTH_DIRECTIONS)
def test_pooled_f_is_that_of_both_directions_counted(annotations: dict, options: dict) -> None:
    a, b = annotations["a"], annotations["b"]
    texts = options.pop("texts", None)
    both = {} if texts is None else {"texts": texts + texts}
    expected = compute_semeval(predictions=b + a, references=a + b, **both, **options)
    result = agreement(annotations, texts=texts, **options)
    assert {scheme: result[f"{scheme}_f1_pooled"] for scheme in ("strict", "exact", "partial", "type")} == {
        scheme: pytest.approx(expected[f"{scheme}_f1"]) for scheme in ("strict", "exact", "partial", "type")
    }


# Two equal document ids 990 deep (within the old bound of 1,000 on what is hashed) met in a dict, which compares
# them one level a frame: RecursionError ("maximum recursion depth exceeded in comparison"). Refused where they
# are read, as deeper ones are.
_O = [["O"], ["O"]]
TWIN_DOCUMENTS_TOO_DEEP = [
    pytest.param(
        lambda documents: compute_semeval(predictions=_O, references=_O, documents=documents, bootstrap=10),
        id="compute-bootstrap",
    ),
    pytest.param(
        lambda documents: compare_semeval(
            predictions_a=_O, predictions_b=_O, references=_O, documents=documents, n_resamples=10
        ),
        id="compare",
    ),
    pytest.param(
        lambda documents: summarize_runs(runs=[_O, _O], references=_O, documents=documents, bootstrap=10), id="runs"
    ),
    pytest.param(lambda documents: agreement({"a": _O, "b": _O}, documents=documents, bootstrap=10), id="agreement"),
]


def _twins_990_deep() -> list[tuple]:
    """Two equal tuples 990 deep, distinct objects: a dict that meets both compares them one level a frame."""
    return [nested(990, ("x",), tuple) for _ in range(2)]


@pytest.mark.parametrize("call", TWIN_DOCUMENTS_TOO_DEEP)
def test_equal_document_ids_nested_deep_are_refused_not_compared(call: Any) -> None:
    with pytest.raises(ValueError, match=r"documents, sentence 0: found \(+.*, nested too deep to hash"):
        call(_twins_990_deep())


# Accumulator.result() handed out the rows the accumulator keeps: a caller that changed its result's `entities`
# (a field added to each row, a fragment appended) changed every later result of that accumulator and of any sum
# made from it, though an Accumulator is immutable.
_FRAGMENTED = [[{"fragments": [[0, 1], [2, 3]], "type": "PER"}, (4, 6, "LOC")]]
ROW_CHANGES = [
    pytest.param(lambda row: row.update(document="d1"), {}, id="a-field-added"),
    pytest.param(lambda row: row["prediction"].update(start=99), {}, id="an-entity-changed"),
    pytest.param(lambda row: row["prediction"].get("fragments", []).append([9, 9]), {}, id="a-fragment-appended"),
    pytest.param(lambda row: row["value_pair"].update(type="X"), {"value": True}, id="a-value-pair-changed"),
]


@pytest.mark.parametrize(("change", "options"), ROW_CHANGES)
def test_changing_a_results_rows_changes_no_later_result(change: Any, options: dict) -> None:
    counted = Accumulator.of(return_entities=True, **options).update(predictions=_FRAGMENTED, references=_FRAGMENTED)
    expected = compute_semeval(predictions=_FRAGMENTED, references=_FRAGMENTED, return_entities=True, **options)
    for row in counted.result()["entities"]:
        change(row)
    assert counted.result() == expected
    doubled = (counted + counted).result()
    for row in doubled["entities"]:
        change(row)
    assert counted.result() == expected


# compare_semeval's check that references_b are the references: a malformed tag that is a list nested 5,000 deep
# raised RecursionError, in its repr (one side) or in the comparison (both), where compute_semeval refuses the same
# value as a ValueError at its token.
_TWO = [["O", "O"]]
DEEP_REFERENCES_B = [
    pytest.param(_TWO, [["O", nested(5_000, ["O"])]], r"^references_b, sentence 0: references_b differs", id="in-copy"),
    pytest.param(
        [["O", nested(5_000, ["O"])]],
        [["O", nested(5_000, ["X"])]],
        r"^references, sentence 0, token 1: found \[+\.\.\. \(list\)",
        id="in-both",
    ),
]


@pytest.mark.parametrize(("references", "references_b", "message"), DEEP_REFERENCES_B)
def test_references_b_nested_deep_are_compared_without_recursion_error(
    references: list, references_b: list, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        compare_semeval(
            predictions_a=_TWO, predictions_b=_TWO, references=references, references_b=references_b, n_resamples=5
        )


# Accumulator.ground, then update_grounded (the Space's two steps), against update of the same batch: the grounding
# numbered a bad sentence within its batch (sentence 0 for update's sentence 2), and with confusion an entity type
# "O", which update refuses, was counted into the matrix's "O" for no entity.
_ADA = {"predictions": [[("PER", "Ada")]] * 2, "references": [[("PER", "Ada")]] * 2, "texts": ["Ada"] * 2}
GROUNDED_APART = [
    pytest.param(
        {},
        {"predictions": [[("PER", "Ada")]], "references": [[("PER", "Zed")]], "texts": ["Ada"]},
        "references, sentence 2, entity 0: the text 'Zed' does not occur",
        id="numbered-among-the-batches",
    ),
    pytest.param(
        {"confusion": True},
        {"predictions": [[("O", "Ada")]], "references": [[("PER", "Ada")]], "texts": ["Ada"]},
        "predictions, sentence 2, entity 0: found entity type 'O'",
        id="type-o-with-confusion",
    ),
    # (the group slice without groups: ground takes none and says so, tests/test_fronts.py)
    pytest.param(
        {"slices": ["entity_length"], "partial_credit": "overlap"},
        dict(_ADA),
        "slices=['entity_length'] scores each bucket with a PAR's credit as a number",
        id="slices-with-overlap-credit",  # (counted silently)
    ),
]


@pytest.mark.parametrize(("options", "batch", "message"), GROUNDED_APART)
def test_a_batch_grounded_apart_is_refused_as_update_refuses_it(options: dict, batch: dict, message: str) -> None:
    counted = Accumulator.of(**options)
    if "slices" not in options:  # (a batch before, to number the sentences after)
        counted = counted.update(**_ADA)
        kept = Accumulator.of(labels=["PER"], **options).update(**_ADA)  # the two steps count as update counts
        assert kept.update_grounded(kept.ground(**_ADA)).result() == kept.update(**_ADA).result()
    with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
        counted.update(**batch)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
        counted.update_grounded(counted.ground(**batch))


# Accumulator.result(options) under options of what is reported: the entities rows kept the outcomes of the schemes
# counted (and their order) and the value pair of the value counted, where compute_semeval under those options
# writes the asked schemes' outcomes and no value pair.
ROWS_REPORTED = [
    pytest.param({"evaluation_schemes": ["type", "strict"]}, {}, id="all-schemes-asked"),
    pytest.param({}, {"evaluation_schemes": ["partial"]}, id="one-scheme-asked"),
    pytest.param({"value": True}, {}, id="value-left-out"),
]


@pytest.mark.parametrize(("counting", "asked"), ROWS_REPORTED)
def test_a_results_rows_under_options_are_compute_semevals(counting: dict, asked: dict) -> None:
    spans, references = [[(0, 2, "PER"), (3, 4, "LOC")]], [[(0, 1, "PER"), (3, 4, "ORG")]]
    counted = Accumulator.of(return_entities=True, **counting).update(predictions=spans, references=references)
    expected = compute_semeval(predictions=spans, references=references, return_entities=True, **asked)
    assert counted.result(Options.of(return_entities=True, **asked))["entities"] == expected["entities"]


# Two equal tags 990 deep in one batch: the array path's dict compares them one level a frame (RecursionError, as
# the document ids above); the readable path, which it hands them to, refuses a tag that is no string.
TWIN_TAGS_TOO_DEEP = [
    pytest.param(lambda predictions: compute_semeval(predictions=predictions, references=_THREE_O), id="compute"),
    pytest.param(
        lambda predictions: Accumulator.of().update(predictions=predictions, references=_THREE_O).result(),
        id="accumulator",
    ),
]
_THREE_O = [["O", "O", "O"]]


@pytest.mark.parametrize("call", TWIN_TAGS_TOO_DEEP)
def test_equal_tags_nested_deep_are_refused_not_compared(call: Any) -> None:
    with pytest.raises(ValueError, match=r"^predictions, sentence 0, token 1: found \(+"):
        call([["B-PER", *_twins_990_deep()]])
