"""What compare_semeval takes (issue 16, item 14): `references_b` is compared by its entities and tags, not by how
they are written (docs/scoring.md §1), and the options it has no place for are refused, never ignored."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from conftest import compare_semeval_refuses

import nerscore as ns
from nerscore.errors import shown

# Three documents of spans: entities as (start, end, type) tuples, two systems' outputs.
SPAN_REFERENCES = [[(0, 2, "PER"), (5, 9, "LOC")], [], [(3, 4, "ORG"), (0, 2, "PER"), (6, 8, "ORG")]]
SPAN_SYSTEMS = {
    "predictions_a": [[(0, 2, "PER")], [(1, 2, "LOC")], [(3, 4, "ORG"), (0, 2, "LOC")]],
    "predictions_b": [[(0, 2, "PER"), (5, 9, "LOC")], [], [(3, 4, "ORG"), (0, 3, "PER")]],
}
TAG_REFERENCES = [["B-PER", "I-PER", "O"], ["O", "B-LOC"], ["B-ORG", "O", "B-PER"]]
TAG_SYSTEMS = {
    "predictions_a": [["B-PER", "O", "O"], ["O", "B-LOC"], ["B-ORG", "O", "O"]],
    "predictions_b": [["B-PER", "I-PER", "O"], ["O", "O"], ["B-ORG", "O", "B-PER"]],
}
LABEL_LIST = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
ID_REFERENCES = [[LABEL_LIST.index(tag) for tag in row] + [-100] * (3 - len(row)) for row in TAG_REFERENCES]
ID_SYSTEMS = {
    side: [[LABEL_LIST.index(tag) for tag in row] + [0] * (3 - len(row)) for row in rows]
    for side, rows in TAG_SYSTEMS.items()
}


def as_dicts(batch: list, type_key: str = "type") -> list:
    return [[{"start": s, "end": e, type_key: t, "score": 0.9} for s, e, t in row] for row in batch]


SAME = [
    pytest.param(SPAN_REFERENCES, json.loads(json.dumps(SPAN_REFERENCES)), id="spans-after-a-json-round-trip"),
    pytest.param(SPAN_REFERENCES, as_dicts(SPAN_REFERENCES), id="spans-as-dicts"),
    pytest.param(as_dicts(SPAN_REFERENCES, "label"), SPAN_REFERENCES, id="dicts-with-label-against-tuples"),
    pytest.param(
        SPAN_REFERENCES, as_dicts(SPAN_REFERENCES, "entity_group"), id="pipeline-dicts-with-entity-group-and-score"
    ),
    pytest.param(SPAN_REFERENCES, [row[::-1] for row in SPAN_REFERENCES], id="entities-in-another-order"),
    pytest.param(
        SPAN_REFERENCES,
        [[ns.Span(*entity) for entity in row] for row in SPAN_REFERENCES],
        id="span-objects",
    ),
    pytest.param(
        SPAN_REFERENCES,
        [[(np.int64(s), np.int32(e), t) for s, e, t in row] for row in SPAN_REFERENCES],
        id="numpy-integer-offsets",
    ),
    pytest.param(
        SPAN_REFERENCES,
        [[[0, 2, "PER"], {"start": 5, "end": 9, "type": "LOC"}], (), ((6, 8, "ORG"), [0, 2, "PER"], (3, 4, "ORG"))],
        id="forms-mixed-within-a-sentence",
    ),
    pytest.param(TAG_REFERENCES, [np.array(row) for row in TAG_REFERENCES], id="tags-as-numpy-arrays"),
    pytest.param(TAG_REFERENCES, [tuple(row) for row in TAG_REFERENCES], id="tags-as-tuples"),
    pytest.param(TAG_REFERENCES, json.loads(json.dumps(TAG_REFERENCES)), id="tags-after-a-json-round-trip"),
    pytest.param(ID_REFERENCES, np.array(ID_REFERENCES), id="ids-as-a-padded-array"),
    pytest.param(ID_REFERENCES, [[np.int64(value) for value in row] for row in ID_REFERENCES], id="numpy-ids"),
]


def systems_for(references: list) -> dict:
    first = next((row[0] for row in references if len(row)), None)
    if isinstance(first, str):
        return {**TAG_SYSTEMS}
    if isinstance(first, int):
        return {**ID_SYSTEMS, "label_list": LABEL_LIST}
    if isinstance(first, tuple) and len(first) == 2:  # string entities, scored in texts (docs/scoring.md §1b)
        return {"predictions_a": references, "predictions_b": references, "texts": ["a"] * len(references)}
    return {**SPAN_SYSTEMS}


@pytest.mark.parametrize("references, references_b", SAME)
def test_the_same_references_written_otherwise_are_the_same(references: list, references_b) -> None:
    systems = systems_for(references)
    expected = ns.compare_semeval(**systems, references=references, n_resamples=50)
    assert ns.compare_semeval(**systems, references=references, references_b=references_b, n_resamples=50) == expected


def with_sentence(batch: list, index: int, sentence) -> list:
    return [sentence if position == index else row for position, row in enumerate(batch)]


DIFFERENT = [
    pytest.param(
        SPAN_REFERENCES,
        with_sentence(SPAN_REFERENCES, 2, [(3, 4, "ORG"), (0, 2, "LOC"), (6, 8, "ORG")]),
        r"references_b, sentence 2: references_b differs from references; .*\(found \[\(0, 2, 'LOC'\)",
        id="another-type",
    ),
    pytest.param(
        SPAN_REFERENCES,
        with_sentence(SPAN_REFERENCES, 0, [(0, 2, "PER")]),
        r"references_b, sentence 0: references_b differs from references",
        id="an-entity-missing",
    ),
    pytest.param(
        SPAN_REFERENCES,
        with_sentence(SPAN_REFERENCES, 0, [(0, 2, "PER"), (5, 9, "LOC"), (0, 2, "PER")]),
        r"references_b, sentence 0: references_b differs from references",
        id="an-entity-twice-counts-twice",
    ),
    pytest.param(
        SPAN_REFERENCES,
        with_sentence(SPAN_REFERENCES, 1, [(0, 1, "PER")]),
        r"references_b, sentence 1: references_b differs from references",
        id="an-entity-where-there-was-none",
    ),
    pytest.param(
        SPAN_REFERENCES,
        with_sentence(SPAN_REFERENCES, 2, [(3, 4, "ORG"), {"start": 0, "end": 2}]),
        r"references_b, sentence 2, entity 1: found .*which has no type",
        id="a-malformed-entity-is-located",
    ),
    pytest.param(
        TAG_REFERENCES,
        with_sentence(TAG_REFERENCES, 1, ["O", "B-ORG"]),
        r"references_b, sentence 1: references_b differs from references; .*\(found \['O', 'B-ORG'\]",
        id="another-tag",
    ),
    pytest.param(
        TAG_REFERENCES,
        with_sentence(TAG_REFERENCES, 0, ["B-PER", np.array([1, 2]), "O"]),
        r"references_b, sentence 0: references_b differs from references",
        id="an-array-among-the-tags",
    ),
    pytest.param(
        TAG_REFERENCES,
        [[(index, index + 1, "PER")] for index in range(3)],
        r"references_b, sentence 0: references_b differs from references",
        id="spans-against-tags",
    ),
    pytest.param(
        TAG_REFERENCES, TAG_REFERENCES[:2], r"references hold 3 sentences and references_b 2", id="a-sentence-fewer"
    ),
    # One side without an entity, or its first value no string read as a tag: no form to tell apart, the sentences
    # compared as they are.
    pytest.param(
        [[], [], []],
        SPAN_REFERENCES,
        r"references_b, sentence 0: references_b differs from references; .*where references hold \[\]",
        id="entities-against-none",
    ),
    pytest.param(
        SPAN_REFERENCES,
        [[], [], []],
        r"references_b, sentence 0: references_b differs from references; .*\(found \[\] where",
        id="none-against-entities",
    ),
    pytest.param(
        SPAN_REFERENCES,
        with_sentence(SPAN_REFERENCES, 0, [None]),
        r"references_b, sentence 0: references_b differs from references; expected both systems scored on the same",
        id="a-malformed-first-value-against-spans",
    ),
    pytest.param(
        [[(0, 1, "PER")]],
        [[("PER", "a")]],
        r"references_b, sentence 0: references_b differs from references: references_b hold string entities and "
        r"references hold spans \(lists of entities\); expected",
        id="string-entities-against-spans",
    ),
    pytest.param(
        [[], [("PER", "a")]],
        [[], [{"start": 0, "end": 1, "type": "PER"}]],
        r"references_b, sentence 1: references_b differs from references: references_b hold spans \(lists of "
        r"entities\) and references hold string entities; expected",
        id="spans-against-string-entities",
    ),
]


@pytest.mark.parametrize("references, references_b, message", DIFFERENT)
def test_different_references_are_named_at_the_first_sentence_that_differs(
    references: list, references_b, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        ns.compare_semeval(**systems_for(references), references=references, references_b=references_b)


@pytest.mark.parametrize(
    "option",
    [
        pytest.param({"confusion": True}, id="confusion"),
        pytest.param({"per_type": True}, id="per_type"),
        pytest.param({"return_entities": True}, id="return_entities"),
        pytest.param({"bootstrap": 100}, id="bootstrap"),
        pytest.param({"diagnostics": True}, id="diagnostics"),
        pytest.param({"errors": True}, id="errors"),
        pytest.param({"errors": 10**5000}, id="errors-of-5001-digits"),  # raised "Exceeds the limit (4300 digits)"
    ],
)
def test_options_compare_semeval_has_no_place_for_are_refused(option: dict) -> None:
    ((name, value),) = option.items()
    found = re.escape(shown(value))
    refused = re.escape(compare_semeval_refuses())
    with pytest.raises(ValueError, match=rf"^compare_semeval takes neither {refused}, found {name}={found}"):
        ns.compare_semeval(**TAG_SYSTEMS, references=TAG_REFERENCES, **option)
    # Every other option of compute_semeval reaches the scores (seed is compare_semeval's own argument): a new
    # option fails here until it is decided whether compare_semeval uses it or refuses it (by adding it to
    # Options.ADDING, which the refusal is named off).
    used = set(ns.OPTION_NAMES) - (set(ns.Options.ADDING) - {"slices"})
    assert used == {
        "scheme",
        "mode",
        "suffix",
        "labels",
        "min_overlap",
        "pairing",  # docs/scoring.md §3a: both systems paired as the HIPE scorer pairs
        "beta",
        "zero_division",
        "label_list",
        "ignore_index",
        "confidence_level",
        "seed",
        "evaluation_schemes",
        "normalize",
        # docs/scoring.md §11: compare_semeval gives every bucket its difference, interval and p-value.
        "slices",
        "slice_edges",
        "seen",
        "partial_credit",
        "value",
    }


def test_an_option_added_to_options_adding_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 27: the refusal names the options it refuses off Options.ADDING, not from a list of its own, so that a
    # new option there is named in "takes neither ..." as well as refused.
    refused = compare_semeval_refuses("seen")  # the table's list, then seen last
    monkeypatch.setattr(ns.Options, "ADDING", (*ns.Options.ADDING, "seen"))
    with pytest.raises(ValueError) as raised:
        ns.compare_semeval(**TAG_SYSTEMS, references=TAG_REFERENCES, seen=["Ada"])
    assert str(raised.value).startswith(
        f"compare_semeval takes neither {refused}, found seen=['Ada']: it reports overall scores"
    ), raised.value
