"""Annotation tools' output, scored as it is (issue 21, items 4 to 6): spaCy Docs, Prodigy's spans, Label
Studio's JSON export and BRAT standoff folders, in Python and on the command line.

spaCy is not installed in the test environment: the Docs here are duck-typed stand-ins with what the metric
reads of spaCy's `Doc` and `Span` (`ents`; `start_char`, `end_char`, `label_`), and the metric never imports
spaCy. With spaCy installed, `test_a_real_spacy_doc` runs `spacy.blank("en")` with entities set by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import nerscore
from nerscore import InvalidInputError

# ---------------------------------------------------------------------------------------------------------
# spaCy (item 5)
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandInSpan:
    """What spaCy's `Span` holds that the metric reads (and token offsets, which it must not read)."""

    start_char: int
    end_char: int
    label_: str
    start: int = 0  # spaCy's token offsets: a reader that took these would score the wrong unit
    end: int = 0


class StandInDoc:
    """What spaCy's `Doc` holds that the metric reads: `ents`. Iterating it gives tokens, as a Doc does, so that a
    reader treating it as a sequence of tags would fail."""

    def __init__(self, text: str, entities: list[tuple[int, int, str]]) -> None:
        self.text = text
        self.ents = tuple(StandInSpan(start, end, label) for start, end, label in entities)

    def __iter__(self):
        return iter(self.text.split())

    def __len__(self) -> int:
        return len(self.text.split())


TEXTS = ["Ada Lovelace met Charles Babbage in London.", "Nothing here."]
REFERENCE_ENTITIES = [[(0, 12, "PERSON"), (17, 32, "PERSON"), (36, 42, "GPE")], []]
PREDICTED_ENTITIES = [[(0, 12, "PERSON"), (25, 32, "PERSON"), (36, 42, "ORG")], [(0, 7, "ORG")]]


def docs(entities: list[list[tuple[int, int, str]]]) -> list[StandInDoc]:
    return [StandInDoc(text, spans) for text, spans in zip(TEXTS, entities)]


def expected() -> dict[str, Any]:
    return nerscore.compute_semeval(predictions=PREDICTED_ENTITIES, references=REFERENCE_ENTITIES)


def test_docs_score_as_their_entities_in_characters() -> None:
    results = nerscore.compute_semeval(predictions=docs(PREDICTED_ENTITIES), references=docs(REFERENCE_ENTITIES))
    assert results == expected()
    assert (results["strict_correct"], results["partial_partial"], results["strict_spurious"]) == (1, 1, 1)


@pytest.mark.parametrize(
    "form",
    [
        pytest.param(lambda doc: doc, id="docs"),
        pytest.param(lambda doc: doc.ents, id="doc.ents-tuples"),
        pytest.param(lambda doc: list(doc.ents), id="lists-of-spans"),
    ],
)
def test_docs_and_their_ents_work_on_either_side(form) -> None:
    predictions = [form(doc) for doc in docs(PREDICTED_ENTITIES)]
    assert nerscore.compute_semeval(predictions=predictions, references=REFERENCE_ENTITIES) == expected()
    references = [form(doc) for doc in docs(REFERENCE_ENTITIES)]
    assert nerscore.compute_semeval(predictions=PREDICTED_ENTITIES, references=references) == expected()


def test_docs_through_evaluate_are_stored_as_spans(load_metric, tmp_path) -> None:
    # The wrapper stores span dicts through pyarrow: Docs are converted in its batch conversion (storable).
    metric = load_metric(cache_dir=str(tmp_path))
    predictions, references = docs(PREDICTED_ENTITIES), docs(REFERENCE_ENTITIES)
    assert metric.compute(predictions=predictions, references=references) == expected()
    metric.add_batch(predictions=predictions[:1], references=references[:1])
    metric.add(prediction=predictions[1], reference=references[1])
    assert metric.compute() == expected()


def test_docs_are_not_modified() -> None:
    predictions = docs(PREDICTED_ENTITIES)
    before = [doc.ents for doc in predictions]
    nerscore.compute_semeval(predictions=predictions, references=docs(REFERENCE_ENTITIES), return_entities=True)
    assert [doc.ents for doc in predictions] == before


def _doc_with(*entities: Any) -> StandInDoc:
    doc = StandInDoc("Ada", [])
    doc.ents = entities
    return doc


DOC_ERRORS = [
    pytest.param(
        [_doc_with(StandInSpan(0, 3, "PER"), object())],
        r"^predictions, sentence 0, entity 1: found <object object at .*> \(object\) in the StandInDoc's ents, "
        r"which has no start_char and end_char and label_",
        id="a-member-that-is-no-span",
    ),
    pytest.param(
        [_doc_with(StandInSpan(3, 3, "PER"))],
        r"^predictions, sentence 0, entity 0: start 3 >= end 3; expected start < end",
        id="an-empty-span",
    ),
    pytest.param(
        [_doc_with(StandInSpan(0, 3, ""))],
        r"^predictions, sentence 0, entity 0: the type is ''; expected a non-empty string",
        id="no-label",
    ),
    pytest.param(
        StandInDoc("Ada", [(0, 3, "PER")]),
        r"^predictions: found one StandInDoc \(a document\); expected a batch: a list .* \[doc\] for one",
        id="one-doc-for-a-batch",
    ),
]


@pytest.mark.parametrize(("predictions", "match"), DOC_ERRORS)
def test_a_bad_doc_is_a_located_error(predictions, match) -> None:
    with pytest.raises(InvalidInputError, match=match):
        nerscore.compute_semeval(predictions=predictions, references=[[(0, 3, "PER")]])


def test_the_metric_reads_docs_without_importing_spacy() -> None:
    import subprocess
    import sys

    code = (
        "import sys, nerscore, nerscore.inputs\n"
        "class D:\n    ents = ()\n"
        "nerscore.compute_semeval(predictions=[D()], references=[[(0, 1, 'X')]])\n"
        "assert 'spacy' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parent.parent)


def test_a_real_spacy_doc() -> None:
    spacy = pytest.importorskip("spacy")
    nlp = spacy.blank("en")
    predictions, references = [], []
    for text, predicted, reference in zip(TEXTS, PREDICTED_ENTITIES, REFERENCE_ENTITIES):
        for entities, batch in ((predicted, predictions), (reference, references)):
            doc = nlp(text)
            doc.ents = [doc.char_span(start, end, label=label) for start, end, label in entities]
            batch.append(doc)
    assert nerscore.compute_semeval(predictions=predictions, references=references) == expected()


# ---------------------------------------------------------------------------------------------------------
# Prodigy (item 6): its JSONL spans score as they are
# ---------------------------------------------------------------------------------------------------------

# Prodigy's ner_manual output, one task a line: character `start` and `end` (exclusive), `label`, and token
# offsets (`token_end` inclusive) that the metric ignores.
PRODIGY_LINES = [
    {
        "text": "Ada Lovelace met Charles Babbage in London.",
        "spans": [
            {"start": 0, "end": 12, "token_start": 0, "token_end": 1, "label": "PERSON"},
            {"start": 25, "end": 32, "token_start": 4, "token_end": 4, "label": "PERSON"},
            {"start": 36, "end": 42, "token_start": 6, "token_end": 6, "label": "ORG"},
        ],
        "answer": "accept",
    },
    {"text": "Nothing here.", "spans": [{"start": 0, "end": 7, "token_start": 0, "token_end": 0, "label": "ORG"}]},
]


def test_prodigy_spans_score_as_they_are() -> None:
    predictions = [json.loads(json.dumps(task))["spans"] for task in PRODIGY_LINES]
    assert nerscore.compute_semeval(predictions=predictions, references=REFERENCE_ENTITIES) == expected()
