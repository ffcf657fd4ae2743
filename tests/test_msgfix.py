"""Messages that mislead (issue 31, item 4), as a newcomer meets them: string predictions written (text, type), float
references next to integer predictions, and the input forms' likely mistakes, each answered with its fix."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import nerscore as ns
from nerscore.forms import string_batches

PARIS = ["John lives in Paris", "Ada met Bob"]
REFERENCES = [[("LOC", "Paris")], [("PER", "Ada"), ("PER", "Bob")]]

# String predictions written (text, type), where an entity is (type, text) (docs/scoring.md §1b): each is left
# ungrounded and counted spurious, which is right for a string a system invents, but said nothing where most of a
# call's predictions read so (the same mistake in the references is refused with its fix, `ground_references`).
SWAPPED = [
    pytest.param(
        {"predictions": [[("Paris", "LOC")], [("Ada", "PER"), ("Bob", "PER")]]},
        r"^predictions, sentence 0, entity 0: found \('Paris', 'LOC'\), whose text 'LOC' does not occur in the "
        r"sentence's text .*: 3 of the 3 predictions read so, .*counted spurious.*; a string entity is \(type, "
        r"text\): pass \('LOC', 'Paris'\)$",
        id="every-prediction-swapped",
    ),
    pytest.param(
        {"predictions": [[("LOC", "Paris")], [("Ada", "PER"), ("Bob", "PER")]]},
        r"^predictions, sentence 1, entity 0: .*2 of the 3 predictions read so.*pass \('PER', 'Ada'\)$",
        id="most-predictions-swapped-the-first-named",
    ),
    pytest.param(
        {"predictions": [[{"type": "Paris", "text": "LOC"}], []]},
        r"pass \{'type': 'LOC', 'text': 'Paris'\}$",
        id="a-dict-with-its-values-swapped",
    ),
    pytest.param(  # dropped by labels before grounding: not even ungrounded, the prediction vanished silently
        {"predictions": [[("Paris", "LOC")], [("Ada", "PER")]], "labels": ["LOC"]},
        r"^predictions, sentence 0, entity 0: .*2 of the 2 predictions read so.*pass \('LOC', 'Paris'\)$",
        id="left-out-by-labels",
    ),
    pytest.param(
        {"predictions": [[("paris", "LOC")], [("ada", "PER"), ("PER", "Bob")]], "normalize": True},
        r"2 of the 3 predictions read so.*pass \('LOC', 'paris'\)$",
        id="normalized",
    ),
    pytest.param(
        {"predictions": [[("Paris", "LOC")], []], "references": [[(14, 19, "LOC")], []]},
        r"pass \('LOC', 'Paris'\)$",
        id="against-spans",
    ),
]

# Ungrounded predictions that are a system's own strings (docs/scoring.md §1b): spurious, and nothing to say.
NOT_SWAPPED = [
    pytest.param({"predictions": [[("LOC", "Paris")], [("PER", "Ada"), ("PER", "Zed")]]}, id="an-invented-string"),
    pytest.param({"predictions": [[("Paris", "LOC")], [("PER", "Ada"), ("PER", "Bob")]]}, id="one-swapped-of-three"),
    pytest.param({"predictions": [[("Lives", "LOC")], []]}, id="its-type-not-in-the-text"),
    pytest.param({"predictions": [[("Paris", "CITY")], []]}, id="its-text-no-known-type"),
    pytest.param(  # its text occurs as written ("LOC" in the text): grounded, no mistake, one of two is not most
        {"texts": ["LOC in Paris", PARIS[1]], "predictions": [[("Paris", "LOC")], [("Ada", "PER")]]},
        id="its-text-found-as-written",
    ),
    pytest.param({"predictions": REFERENCES}, id="every-prediction-grounded"),
    pytest.param(  # labels leave out two of three, by their types: nothing read (text, type)
        {"predictions": [[("LOC", "Paris")], [("PER", "Ada"), ("PER", "Bob")]], "labels": ["LOC"]},
        id="left-out-by-labels-as-asked",
    ),
]


def _scored(inputs: dict) -> tuple[dict, list[str]]:
    given = {"texts": PARIS, "references": REFERENCES, **inputs}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = ns.compute_semeval(**given)
    return result, [str(warning.message) for warning in caught if warning.category is UserWarning]


@pytest.mark.parametrize("inputs, message", SWAPPED)
def test_predictions_written_text_then_type_are_warned_of_with_the_fix(inputs: dict, message: str) -> None:
    result, said = _scored(inputs)
    assert len(said) == 1 and re.search(message, said[0]), said
    unwarned = {"texts": PARIS, "references": REFERENCES, **inputs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert result == ns.compute_semeval(**unwarned)  # scored as before: ungrounded and spurious (§1b)


@pytest.mark.parametrize("inputs", NOT_SWAPPED)
def test_ungrounded_predictions_of_a_systems_own_are_not_warned_of(inputs: dict) -> None:
    assert _scored(inputs)[1] == []


@pytest.mark.parametrize("return_entities", [False, True], ids=["arrays", "rows"])
def test_a_few_ungrounded_predictions_are_not_looked_at_again(return_entities: bool, monkeypatch) -> None:
    """The warning is looked for only where most predictions are not grounded: a system's few strings of its own
    (docs/scoring.md §1b) cost no second reading of the batch."""
    looked = []
    monkeypatch.setattr(string_batches, "warn_swapped", lambda *given: looked.append(given))
    few = {"predictions": [[("LOC", "Paris")], [("PER", "Ada"), ("PER", "Zed")]], "return_entities": return_entities}
    _scored(few)
    assert looked == []
    _scored({**few, "predictions": [[("LOC", "Rome")], [("PER", "Ada"), ("PER", "Zed")]]})
    assert len(looked) == 1


@pytest.mark.parametrize("return_entities", [False, True], ids=["arrays", "rows"])
def test_the_warning_names_the_callers_line_on_both_paths(return_entities: bool) -> None:
    with pytest.warns(UserWarning, match="pass") as caught:
        ns.compute_semeval(
            texts=PARIS[:1],
            predictions=[[("Paris", "LOC")]],
            references=REFERENCES[:1],
            return_entities=return_entities,
        )
    assert caught[0].filename == __file__


def test_the_warning_reaches_the_accumulator_and_the_evaluate_module(load_metric) -> None:
    batch = {"texts": PARIS[:1], "predictions": [[("Paris", "LOC")]], "references": REFERENCES[:1]}
    with pytest.warns(UserWarning, match=r"pass \('LOC', 'Paris'\)"):
        ns.Accumulator.of().update(**batch).result()
    with pytest.warns(UserWarning, match=r"pass \('LOC', 'Paris'\)"):
        load_metric().compute(**batch)


# Float ids on one side, integer ids on the other (labels.astype(float), a float tensor): the batch was read as tags
# by the references' first value, and the integer side was blamed, "an integer id among string tags".
FLOAT_IDS = [
    pytest.param(
        {"predictions": [[1, 0]], "references": [[1.0, 0.0]]},
        r"^references, sentence 0, token 0: found 1\.0 where predictions hold integer ids; expected integer ids \(a "
        r"float: ids are integers, as argmax gives them; cast with \.astype\(int\)\)$",
        id="float-references",
    ),
    pytest.param(
        {"predictions": [[], [0, 1]], "references": [[], [-100.0, 1.0]]},
        r"^references, sentence 1, token 0: found -100\.0 where predictions hold integer ids; .*\.astype\(int\)",
        id="float-references-padded-from-a-later-sentence",
    ),
    pytest.param(
        {"predictions": np.array([[1, 0]]), "references": np.array([[1, 0]]).astype(float)},
        r"^references, sentence 0, token 0: found 1\.0 where predictions hold integer ids; .*\.astype\(int\)",
        id="float-array-references",
    ),
]


@pytest.mark.parametrize("inputs, message", FLOAT_IDS)
def test_float_references_by_integer_predictions_say_cast_them(inputs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ns.compute_semeval(**inputs, label_list=["O", "B-PER"])


def test_float_references_by_tags_are_not_said_to_face_integer_ids() -> None:
    with pytest.raises(
        ValueError, match=r"^references, sentence 0, token 0: found 1\.0 \(float\); expected a string tag"
    ):
        ns.compute_semeval(predictions=[["B-PER", "O"]], references=[[1.0, 0.0]])


PIPELINE = {"entity_group": "PER", "score": 0.99, "word": "john"}

# A newcomer's likely mistakes of the input forms, each once answered with no fix (or a wrong one): now with it.
MISTAKES = [
    pytest.param(
        {"predictions": [("PER", "John")], "references": [("PER", "John")], "texts": PARIS[:1]},
        r"^predictions, sentence 0: found the entity \('PER', 'John'\) where a batch holds one list per sentence; "
        r"expected a list of entity lists \(for one sentence, \[entities\]\)$",
        id="one-sentences-string-entities-not-wrapped",  # was: found tag 'PER', which has no prefix
    ),
    pytest.param(
        {"predictions": [[{**PIPELINE, "start": None, "end": None}]], "references": [[(0, 4, "PER")]]},
        r"^predictions, sentence 0, entity 0: found .*, a pipeline's entity without offsets; expected 'start' and "
        r"'end': load the pipeline with a fast tokenizer \(use_fast=True\)$",
        id="pipeline-of-a-slow-tokenizer",  # was: start is None (NoneType); expected a non-negative integer offset
    ),
    pytest.param(
        {"predictions": [[PIPELINE]], "references": [[("PER", "John")]], "texts": PARIS[:1]},
        r"a pipeline's entity without offsets; .*use_fast=True",
        id="pipeline-without-offsets",  # was: with texts= a string entity {'type': ..., 'text': ...}, as if 'word'
    ),
    pytest.param(
        {"predictions": [["B-PER", "O"]], "references": [[1, 0]], "label_list": ["O", "B-PER"]},
        r"^predictions, sentence 0, token 0: found the tag 'B-PER' where the other side holds integer ids; expected "
        r"both sides in one form: tags, or integer ids with label_list$",
        id="tags-against-ids-with-label-list",  # was: found 'B-PER'; expected an id of label_list (0 to 1)
    ),
    pytest.param(
        {"predictions": [[1, 0]], "references": [[1, 0]], "labels": {0: "O", 1: "B-PER"}},
        r"^labels must be .*, found a mapping \{0: 'O', 1: 'B-PER'\}; ids to tags \(model\.config\.id2label\) go as "
        r"label_list=$",
        id="labels-given-id2label",  # was: pass list(...) for its keys
    ),
    pytest.param(
        {"predictions": [[1, 0]], "references": [[1, 0]], "labels": {"0": "O", "1": "B-PER"}},
        r"go as label_list=$",
        id="labels-given-id2label-from-json",
    ),
    pytest.param(
        {"predictions": [[1, 0]], "references": [[1, 0]], "labels": ["O", "B-PER"]},
        r"^labels holds the tag 'B-PER'; labels are entity types: pass 'PER' instead of 'B-PER'; a list of every "
        r"tag, which maps ids to tags, goes as label_list=$",
        id="labels-given-the-label-list",  # was: pass 'PER' instead of 'B-PER', and ids without label_list next
    ),
]


@pytest.mark.parametrize("inputs, message", MISTAKES)
def test_a_newcomers_mistake_is_answered_with_its_fix(inputs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ns.compute_semeval(**inputs)


# What is right stays so: the pipeline's grouped output with offsets is spans, and a list of two strings that are
# not tags is a sentence of two tags without prefixes (said as such), not an entity.
def test_the_pipelines_grouped_output_is_spans() -> None:
    predictions = [[{**PIPELINE, "word": "John", "start": 0, "end": 4}]]
    assert ns.compute_semeval(predictions=predictions, references=[[(0, 4, "PER")]])["strict_f1"] == 1.0


def test_a_list_of_two_bare_types_is_still_tags_without_prefixes() -> None:
    with pytest.raises(ValueError, match=r"found tag 'PER', which has no prefix"):
        ns.compute_semeval(predictions=[["PER", "LOC"]], references=[["PER", "LOC"]])


def test_labels_of_types_keep_their_message_without_the_label_list_advice() -> None:
    with pytest.raises(ValueError, match=r"pass 'PER' instead of 'B-PER'$"):
        ns.compute_semeval(predictions=[["B-PER"]], references=[["B-PER"]], labels=["B-PER"])
    with pytest.raises(ValueError, match=r"pass list\(\.\.\.\) for its keys$"):
        ns.compute_semeval(predictions=[["B-PER"]], references=[["B-PER"]], labels={"PER": 1})
