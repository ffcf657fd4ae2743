"""The registry of input forms (nerscore/forms/registry.py): one entry per form, and count_batch reads its entry
alone."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from nerscore import compute, compute_semeval
from nerscore.forms import batches, inputs
from nerscore.forms import registry as forms
from nerscore.forms.inputs import IDS, SPANS, STRINGS, TAGS, as_list, batch_form, value_form
from nerscore.forms.readable import reduction
from nerscore.forms.registry import (
    FORMS,
    STORED_COLUMNS,
    holds_values,
    same_sides,
    storable,
    stored_batch,
    stored_features,
)
from nerscore.options import Options
from nerscore.result_scores import scores
from nerscore.table import reducers
from nerscore.table.columns import NO_COLUMNS


def test_every_form_the_input_can_take_has_its_entry() -> None:
    values = ["B-PER", 3, (0, 2, "PER"), {"start": 0, "end": 2, "type": "PER"}, ("PER", "Ada"), {"text": "Ada"}]
    assert {value_form(value) for value in values} == set(FORMS) == {TAGS, IDS, SPANS, STRINGS}
    assert all(FORMS[name].name == name for name in FORMS)
    # Tags and ids differ in reading ids (and in what evaluate stores of them), not in their paths' meaning.
    assert replace(FORMS[IDS], name=TAGS, ids=False, count=None, readable=None, fits=None, unstorable=None) == replace(
        FORMS[TAGS], count=None, readable=None, fits=None, unstorable=None
    )
    # String entities are spans grounded first.
    assert FORMS[STRINGS].grounded and not FORMS[SPANS].grounded
    assert FORMS[STRINGS].count is FORMS[SPANS].count and FORMS[STRINGS].entities


# A batch of each form that both paths read, with the options it needs: (predictions, references, options).
OWN_FORM_BATCHES = {
    TAGS: ([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-LOC"]], {}),
    IDS: ([[1, 2, 0, 3]], [[1, 0, 0, 3]], {"label_list": ["O", "B-PER", "I-PER", "B-LOC"]}),
    SPANS: ([[(0, 2, "PER"), (3, 4, "LOC")]], [[(0, 1, "PER"), (3, 4, "LOC")]], {}),
}


@pytest.mark.parametrize("form", sorted(OWN_FORM_BATCHES))
def test_each_entrys_paths_read_its_own_form(form: str) -> None:
    # Both paths of an entry read its form, each on its own: an array path that returned None would hide behind the
    # readable one (ids read as tags did, in count_batch), so each is asked here without the other.
    predictions, references, given = OWN_FORM_BATCHES[form]
    options = Options.of(**given)
    entry = FORMS[form]
    counted = entry.count(predictions, references, options, False, NO_COLUMNS, False, None)
    assert counted is not None
    rows, _, tokens = entry.readable(predictions, references, options)
    assert (tokens is None) is entry.entities
    read = reducers.counted(reduction(rows, len(references), options), tokens, False, None)
    assert counted.tally == read.tally
    assert scores(counted.tally, options)["strict_correct"] == 1  # LOC; PER's extents differ


def test_a_new_form_is_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    # A form whose array path reads nothing: count_batch takes its readable path, with no branch of its own.
    predictions = [[(0, 2, "PER"), (3, 5, "LOC")], [(1, 2, "PER")]]
    references = [[(0, 2, "PER"), (3, 4, "LOC")], [(1, 3, "ORG")]]
    monkeypatch.setitem(FORMS, "new", replace(FORMS[SPANS], name="new", count=lambda *given: None))
    options = Options(return_entities=True)
    counted, table = compute.count_batch(predictions, references, "new", options, True)
    expected, expected_table = compute.count_batch(predictions, references, SPANS, options, True)
    assert table is not None and expected_table is not None  # return_entities: the table of pairs
    assert counted.tally == expected.tally and table.rows() == expected_table.rows()
    assert counted.per_sentence is not None and expected.per_sentence is not None
    assert counted.per_sentence.tolist() == expected.per_sentence.tolist()


def test_a_batch_without_a_value_may_be_any_form() -> None:
    assert not holds_values([[], []], [[], []])
    assert not holds_values(np.zeros((2, 0), np.int64), np.zeros((2, 0), np.int64))
    assert holds_values([[], []], [["O"], []]) and holds_values(np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64))


# Batches of every form, and those a side without a value makes of the other's: (predictions, references).
FORM_BATCHES = {
    "tags": ([["B-PER", "O"]], [["O", "B-LOC"]]),
    "ids": ([[1, 0]], [[0, 2]]),
    "spans": ([[(0, 2, "PER")]], [[{"start": 0, "end": 1, "type": "LOC"}]]),
    "strings": ([[("PER", "Ada")]], [[{"text": "Ada", "type": "PER"}]]),
    "strings-spans": ([[("PER", "Ada")]], [[(0, 3, "PER")]]),
    "no-value": ([[], []], [[], []]),
    "empty-side": ([[], [(0, 1, "X")]], [[], []]),
    "tuples-and-arrays": ((("B-X",), np.array(["O"])), [["B-X"], ["I-X"]]),
}


@pytest.mark.parametrize(("predictions", "references"), FORM_BATCHES.values(), ids=FORM_BATCHES.keys())
def test_the_forms_of_listed_sides_are_those_of_the_sides(predictions: list, references: list) -> None:
    listed = as_list(predictions, "predictions"), as_list(references, "references")
    assert batch_form(*listed, listed=True) == batch_form(predictions, references)


def test_a_call_lists_each_side_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # batches() lists both sides; the forms are then read of the listed sides, not listed again (d1beba6 listed
    # them six more times a call through side_forms: 8% of a plain call on 20,000 sentences).
    calls: list[str] = []

    def counted_as_list(values: object, side: str) -> object:
        calls.append(side)
        return as_list(values, side)

    monkeypatch.setattr(inputs, "as_list", counted_as_list)
    monkeypatch.setattr(batches, "as_list", counted_as_list)
    compute_semeval(predictions=[["B-PER", "O"], ["O"]], references=[["B-PER", "I-PER"], ["B-LOC"]])
    assert sorted(calls) == ["predictions", "references"]


def test_storable_keeps_one_stored_form_per_entry() -> None:
    assert storable([[(0, 2, "PER")]], [[{"start": 0, "end": 2, "label": "PER"}]]) == (
        [[{"start": 0, "end": 2, "type": "PER"}]],
        [[{"start": 0, "end": 2, "type": "PER"}]],
        SPANS,
    )
    assert storable([[(0, 3, "PER")]], [[("PER", "Ada")]]) == (
        [[{"start": 0, "end": 3, "type": "PER", "text": None}]],
        [[{"start": None, "end": None, "type": "PER", "text": "Ada"}]],
        STRINGS,
    )
    assert storable([["B-PER"]], [["O"]])[2] == TAGS
    assert forms.FORMS[IDS].unstorable(1 << 63) is not None and forms.FORMS[IDS].unstorable(3) is None


def test_the_stored_batch_gives_every_entity_its_fragments() -> None:
    # evaluate's Arrow structs need every key in every entity: null where an entity is contiguous (§12).
    predictions, references, form = stored_batch([[(0, 2, "PER")]], [[{"type": "PER", "fragments": [(0, 1), (3, 4)]}]])
    assert form == SPANS and predictions == [[{"start": 0, "end": 2, "type": "PER", "fragments": None}]]
    assert references == [[{"start": 0, "end": 4, "type": "PER", "fragments": [[0, 1], [3, 4]]}]]
    assert stored_batch([["B-PER"]], [["O"]]) == ([["B-PER"]], [["O"]], TAGS)


def test_each_side_keeps_its_form_over_the_batches() -> None:
    assert same_sides((None, None), (STRINGS, SPANS)) == (STRINGS, SPANS)
    assert same_sides((STRINGS, None), (None, STRINGS)) == (STRINGS, STRINGS)
    with pytest.raises(ValueError, match="found predictions in spans where the batches added before hold predictions"):
        same_sides((STRINGS, STRINGS), (STRINGS, SPANS))


def test_what_evaluate_stores_of_each_form() -> None:
    datasets = pytest.importorskip("datasets")
    value, sequence, features = datasets.Value, datasets.Sequence, datasets.Features
    span = {"start": value("int64"), "end": value("int64"), "type": value("string"), "fragments": [[value("int64")]]}
    entity = {**span, "text": value("string")}
    expected = {
        TAGS: features({"predictions": sequence(value("string")), "references": sequence(value("string"))}),
        IDS: features({"predictions": sequence(value("int64")), "references": sequence(value("int64"))}),
        SPANS: features({"predictions": [span], "references": [span]}),
        STRINGS: features({"predictions": [entity], "references": [entity]}),
        None: features({"predictions": sequence(value("null")), "references": sequence(value("null"))}),
    }
    for form, stored in expected.items():
        assert stored_features(datasets, form) == stored
        assert stored_features(datasets, form, with_columns=True) == features(
            {**stored, STORED_COLUMNS: value("string")}
        )
    # Every form's entry has its features, tags first (evaluate keeps to the names of the first).
    assert next(iter(FORMS)) == TAGS and set(FORMS) | {None} == set(expected)


# A tag that is an array (a token's logits, a row of tags) is located by the tags' own check, wherever the
# readable path reads the tags (its sentence facts compared such an array with numpy's "setting an array element
# with a sequence", naming no sentence, in compute_semeval, summarize_runs and compare_semeval alike).
ARRAY_TAGS = {
    "logits of one token": [["B-X"], [np.zeros((1, 2, 2)), "B-X", "O"]],
    "a row of tags as one token": [["B-X"], [np.array(["B-X", "O"]), "B-X", "O"]],
    "two scores as one token": [["B-X"], [np.zeros(2), "B-X", "O"]],
}


@pytest.mark.parametrize("predictions", ARRAY_TAGS.values(), ids=ARRAY_TAGS.keys())
def test_an_array_as_a_tag_is_located(predictions: list) -> None:
    from nerscore import InvalidInputError, compute_semeval, summarize_runs

    references = [["B-X"], ["I-X", "B-X", "O"]]
    with pytest.raises(
        InvalidInputError, match=r"(?s)^predictions, sentence 1, token 0: found array\(.*expected a string tag"
    ):
        compute_semeval(predictions=predictions, references=references)
    with pytest.raises(InvalidInputError, match=r"^runs\[0\], sentence 1, token 0: found array\("):
        summarize_runs(runs=[predictions], references=references)


# A sentence's row that is itself one entity, where a batch holds one list per sentence (`refuse_entity_row`,
# the one place of its message, which the forms' checks and `batches.ids_to_tags` raise): the rows that are one
# entity and the word the message uses for the lists expected; None where the row is a sentence.
MISPLACED_ROWS = {
    "offsets": ((0, 5, "PER"), "entity"),
    "offsets-as-a-list": ([0, 5, "PER"], "entity"),
    "a-string-entity": (("PER", "Ann"), "entity"),
    "a-span-dict": ({"start": 0, "end": 1, "type": "PER"}, "span"),
    "two-tags": (("B-PER", "O"), None),
    "three-ids": ((0, 5, 2), None),
    "three-tags": (("B-PER", "I-PER", "O"), None),
    "an-array-of-ids": (np.array([0, 5, 2]), None),
    "no-row": (None, None),
}


@pytest.mark.parametrize(("row", "lists"), MISPLACED_ROWS.values(), ids=MISPLACED_ROWS.keys())
def test_a_row_that_is_one_entity_is_refused_in_one_message(row: object, lists: str | None) -> None:
    from nerscore import InvalidInputError

    if lists is None:
        inputs.refuse_entity_row(row, "predictions", 3)
        return
    expected = (
        rf"^predictions, sentence 3: found the entity .* where a batch holds one list per sentence; expected a list "
        rf"of {lists} lists \(for one sentence, \[entities\]\)$"
    )
    with pytest.raises(InvalidInputError, match=expected):
        inputs.refuse_entity_row(row, "predictions", 3)


# The first value of a batch and its sentence (`first_located`, the one place of the idiom: forms are judged, and
# errors located, by it): the sentence that first holds a value, past empty ones; None when none holds one.
FIRST_LOCATED = {
    "the-first-sentence": ([["B-PER", "O"], ["O"]], (0, "B-PER")),
    "past-empty-sentences": ([[], (), [(0, 1, "PER")]], (2, (0, 1, "PER"))),
    "padded-ids": (np.array([[4, 5], [6, 7]]), (0, 4)),
    "no-value": ([[], []], None),
    "no-sentence": ([], None),
    "ids-of-no-token": (np.zeros((2, 0), np.int64), None),
}


@pytest.mark.parametrize(("batch", "located"), FIRST_LOCATED.values(), ids=FIRST_LOCATED.keys())
def test_the_first_value_is_located_in_its_sentence(batch: list, located: tuple | None) -> None:
    assert inputs.first_located(batch) == located
    assert inputs.first_value(batch) == (None if located is None else located[1])


# A dict without a type, read as a span or as a string entity: one message (`inputs._type_key`), which names the
# pipeline's grouping only for a span dict that is a token of its output (one with "entity").
NO_TYPE = "which has no type; expected the type under 'type', 'label' or 'entity_group'"
UNTYPED_DICTS = {
    "a-span": (inputs.as_span, {"start": 0, "end": 2}, ""),
    "a-pipeline-token": (
        inputs.as_span,
        {"start": 0, "end": 2, "entity": "B-PER"},
        " (token-level pipeline output: pass aggregation_strategy='simple' to the pipeline)",
    ),
    "a-string-entity": (inputs.as_string_entity, {"text": "Ann"}, ""),
    "a-string-entity-with-entity": (inputs.as_string_entity, {"text": "Ann", "entity": "B-PER"}, ""),
}


@pytest.mark.parametrize(("read", "entity", "hint"), UNTYPED_DICTS.values(), ids=UNTYPED_DICTS.keys())
def test_a_dict_without_a_type_is_refused_in_one_message(read: Any, entity: dict, hint: str) -> None:
    from nerscore import InvalidInputError

    with pytest.raises(InvalidInputError) as raised:
        read(entity)
    assert str(raised.value) == f"found {entity!r}, {NO_TYPE}{hint}"


# An entity whose type is no non-empty string, read as a span, as fragments or as a string entity: one message
# (`inputs._checked_type`); fragments say where the type is looked for.
PER_OR_WHERE = "expected a non-empty string such as 'PER'"
BAD_TYPES = {
    "a-span-typed-empty": (inputs.as_span, (0, 2, ""), f"the type is ''; {PER_OR_WHERE}"),
    "a-span-typed-none": (inputs.as_span, {"start": 0, "end": 2, "type": None}, f"the type is None; {PER_OR_WHERE}"),
    "fragments-untyped": (
        inputs.as_span,
        {"fragments": [[0, 2]]},
        f"the type is None; {PER_OR_WHERE} under 'type', 'label' or 'entity_group'",
    ),
    "a-string-entity-typed-empty": (inputs.as_string_entity, ("", "Ann"), f"the type is ''; {PER_OR_WHERE}"),
}


@pytest.mark.parametrize(("read", "entity", "message"), BAD_TYPES.values(), ids=BAD_TYPES.keys())
def test_a_type_that_is_no_name_is_refused_in_one_message(read: Any, entity: Any, message: str) -> None:
    from nerscore import InvalidInputError

    with pytest.raises(InvalidInputError) as raised:
        read(entity)
    assert str(raised.value) == message
