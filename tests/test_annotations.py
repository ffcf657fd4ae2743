"""Annotation tools' output, scored as it is (issue 21, items 4 to 6): spaCy Docs, Prodigy's spans, Label
Studio's JSON export and BRAT standoff folders, in Python and on the command line.

Most Docs here are duck-typed stand-ins with what the metric reads of spaCy's `Doc` and `Span` (`ents`;
`start_char`, `end_char`, `label_`), and the metric never imports spaCy; `test_a_real_spacy_doc` runs spaCy
itself (requirements-dev.txt), `spacy.blank("en")` with entities set by hand.
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nerscore
from nerscore import InvalidInputError, Span, cli

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
        "import sys, nerscore, nerscore.forms.inputs\n"
        "class D:\n    ents = ()\n"
        "nerscore.compute_semeval(predictions=[D()], references=[[(0, 1, 'X')]])\n"
        "assert 'spacy' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parent.parent)


def test_a_real_spacy_doc() -> None:
    import spacy

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


# ---------------------------------------------------------------------------------------------------------
# BRAT standoff (item 4)
# ---------------------------------------------------------------------------------------------------------

DOC1_TEXT = "Ada Lovelace studied at the University of London.\nShe met Charles Babbage."
# Nested entities (LOC inside ORG), a discontinuous one (two fragments, its text joined by a space as brat
# writes it), and lines that are not entities: a relation, an attribute, a note, an event with its trigger.
DOC1_REFERENCE = (
    "T1\tPER 0 12\tAda Lovelace\n"
    "T2\tORG 28 48\tUniversity of London\n"
    "T3\tLOC 42 48\tLondon\n"
    "R1\tWorksAt Arg1:T1 Arg2:T2\n"
    "A1\tNegated T1\n"
    "#1\tAnnotatorNotes T1\ta note\n"
    "T4\tPER 58 65;66 73\tCharles Babbage\n"
    "\n"
)
DOC1_PREDICTION = (
    "T1\tPER 0 12\tAda Lovelace\r\nT2\tORG 28 41\tUniversity of\r\nT3\tLOC 42 48\tLondon\r\nT4\tPER 66 73\tBabbage\r\n"
)
# Characters beyond ASCII and beyond U+FFFF: offsets count code points, as Python's str does.
DOC2_TEXT = "Zoë in Zürich 😀 Bern"
DOC2_REFERENCE = "T1\tPER 0 3\tZoë\nT2\tLOC 7 13\tZürich\nT3\tLOC 16 20\tBern\n"
DOC2_PREDICTION = "T1\tPER 0 3\tZoë\nT2\tLOC 16 20\tBern\n"


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode("utf-8"))
    return folder


@pytest.fixture
def brat(tmp_path: Path) -> tuple[Path, Path]:
    """Two BRAT folders with a subfolder; the predictions' second .txt is left out (read against the
    references')."""
    references = write(
        tmp_path / "gold",
        {
            "doc1.txt": DOC1_TEXT,
            "doc1.ann": DOC1_REFERENCE,
            "news/doc2.txt": DOC2_TEXT,
            "news/doc2.ann": DOC2_REFERENCE,
        },
    )
    predictions = write(
        tmp_path / "system",
        {"doc1.txt": DOC1_TEXT, "doc1.ann": DOC1_PREDICTION, "news/doc2.ann": DOC2_PREDICTION},
    )
    return references, predictions


BRAT_REFERENCES = [
    [Span(0, 12, "PER"), Span(28, 48, "ORG"), Span(42, 48, "LOC"), Span(58, 73, "PER")],
    [Span(0, 3, "PER"), Span(7, 13, "LOC"), Span(16, 20, "LOC")],
]
BRAT_PREDICTIONS = [
    [Span(0, 12, "PER"), Span(28, 41, "ORG"), Span(42, 48, "LOC"), Span(66, 73, "PER")],
    [Span(0, 3, "PER"), Span(16, 20, "LOC")],
]


def test_read_brat_gives_each_document_its_name_text_and_spans(brat) -> None:
    references, _ = brat
    documents = list(nerscore.read_brat(references))
    assert [document.name for document in documents] == ["doc1", "news/doc2"]
    assert [document.text for document in documents] == [DOC1_TEXT, DOC2_TEXT]
    assert [document.spans for document in documents] == BRAT_REFERENCES
    assert documents[0].lines == [1, 2, 3, 7]
    assert [document.discontinuous for document in documents] == [1, 0]
    # The slices of the text are the annotations' texts: offsets in code points, the emoji one character.
    assert [DOC2_TEXT[span.start : span.end] for span in documents[1].spans] == ["Zoë", "Zürich", "Bern"]
    # One .ann file reads as a folder of one.
    assert list(nerscore.read_brat(references / "news" / "doc2.ann")) == [documents[1]._replace(name="doc2")]


def test_read_brat_pairs_pairs_by_path_and_reads_predictions_against_the_reference_text(brat) -> None:
    pairs = list(nerscore.read_brat_pairs(*brat))
    assert [(reference.name, prediction.name) for reference, prediction in pairs] == [
        ("doc1", "doc1"),
        ("news/doc2", "news/doc2"),
    ]
    assert [prediction.spans for _, prediction in pairs] == BRAT_PREDICTIONS
    assert pairs[1][1].text == DOC2_TEXT  # no .txt beside it: the references'


def brat_expected(**options: Any) -> dict[str, Any]:
    # With the documents' texts, as --brat reads them: `ungrounded` 0 is there, as for spans with texts (§1b).
    texts = [DOC1_TEXT, DOC2_TEXT]
    return nerscore.compute_semeval(predictions=BRAT_PREDICTIONS, references=BRAT_REFERENCES, texts=texts, **options)


def test_the_brat_flag_scores_the_folders_as_documents(brat, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--brat", *map(str, brat), "--json", "--per-type"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out) == brat_expected(per_type=True)
    assert captured.err == (
        "note: 1 discontinuous annotation (1 reference, 0 predicted) scored by their full extent, from the first "
        "fragment's start to the last one's end (--fragments scores them as discontinuous entities)\n"
    )
    assert cli.main(["--brat", *map(str, brat)]) == 0
    out = capsys.readouterr().out.splitlines()
    # The summary table as --spans prints it, documents as sentences.
    assert out[0] == "processed 2 documents with 7 reference and 6 predicted entities (spans)"
    assert out[2].split() == ["measure", "type", "partial", "exact", "strict"]
    expected = brat_expected()
    assert f"F1            {expected['type_f1']:.4f}    {expected['partial_f1']:.4f}" in "\n".join(out)
    assert expected["strict_correct"] == 4 and expected["partial_partial"] == 2


def test_brat_with_the_other_flags(brat, capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--labels", "LOC,PER", "--min-overlap", "0.6", "--evaluation-schemes", "strict,partial"]
    assert cli.main(["--brat", *map(str, brat), "--json", *flags]) == 0
    assert json.loads(capsys.readouterr().out) == brat_expected(
        labels=["LOC", "PER"], min_overlap=0.6, evaluation_schemes=["strict", "partial"]
    )


def _brat_case(tmp_path: Path, reference: str, text: str = DOC1_TEXT, **more: str) -> tuple[Path, Path]:
    references = write(tmp_path / "gold", {"doc1.txt": text, "doc1.ann": reference})
    predictions = write(tmp_path / "system", {"doc1.ann": "", **more})
    return references, predictions


BRAT_ERRORS = [
    pytest.param(
        {"reference": "T1\tPER 0 12\tAda Lovelace\nT2\tPER 0 3\tAda Lovelace\n"},
        "gold/doc1.ann:2: T2's text is 'Ada Lovelace' but {gold}/doc1.txt holds 'Ada' at 0 3; expected the text of "
        "the .txt at the annotation's offsets",
        id="text-not-the-slice",
    ),
    pytest.param(
        {"reference": "T1\tPER 58 65;66 73\tCharles  Babbage\n"},
        "gold/doc1.ann:1: T1's text is 'Charles  Babbage' but {gold}/doc1.txt holds 'Charles Babbage' at 58 65;66 73",
        id="discontinuous-text-not-the-fragments-joined-by-a-space",
    ),
    pytest.param(
        {"reference": "T1\tPER 0 3\tAda\n", "text": "Ada\r\nBob", "system/doc1.txt": "Ada\r\nBob"},
        None,
        id="crlf-text-as-it-is-is-fine",
    ),
    pytest.param(
        {"reference": "T1\tPER 4 7\tBob\n", "text": "Ada\r\nBob"},
        "gold/doc1.ann:1: T1's text is 'Bob' but {gold}/doc1.txt holds '\\nBo' at 4 7; expected the text of the .txt "
        "at the annotation's offsets ({gold}/doc1.txt has \\r\\n line ends",
        id="crlf-counted-as-one",
    ),
    pytest.param(
        {"reference": "T1\tPER 0 99\tAda\n"},
        "gold/doc1.ann:1: T1: end 99 is past the end of {gold}/doc1.txt (74 characters)",
        id="past-the-end",
    ),
    pytest.param(
        {"reference": "T1\tPER 3 3\t\n"},
        "gold/doc1.ann:1: T1: start 3 >= end 3; expected start < end",
        id="empty",
    ),
    pytest.param(
        {"reference": "T1\tPER 0 " + "9" * 5000 + "\tAda\n"},
        "gold/doc1.ann:1: T1: an offset of 5,000 digits is past the end of {gold}/doc1.txt (74 characters)",
        id="an-offset-of-5000-digits",
    ),
    pytest.param(
        {"reference": "T1\tPER " + "0" * 5000 + " 3\tAda\n"},
        None,
        id="an-offset-of-5000-zeros-is-0",
    ),
    pytest.param(
        {"reference": "T1\tPER 0 x\tAda\n"},
        "gold/doc1.ann:1: T1's offsets are '0 x'; expected START END (or START END;START END)",
        id="not-a-number",
    ),
    pytest.param(
        {"reference": "T1\tPER -1 3\tAda\n"},
        "gold/doc1.ann:1: T1's offsets are '-1 3'; expected START END",
        id="negative",
    ),
    pytest.param(
        {"reference": "T1 PER 0 3 Ada\n"},
        "gold/doc1.ann:1: found 'T1 PER 0 3 Ada', a T line without two tabs; expected ID TAB TYPE START END TAB TEXT",
        id="spaces-for-tabs",
    ),
    pytest.param(
        {"reference": "T1\t 0 3\tAda\n"},
        "gold/doc1.ann:1: T1 has no type",
        id="no-type",
    ),
    pytest.param(
        {"reference": "\ufeffT1\tPER 0 3\tAda\n"},
        None,
        id="bom-dropped-in-the-ann",
    ),
    pytest.param(
        {"reference": "", "system/other.ann": ""},
        "system/other.ann: has no counterpart {gold}/other.ann; the two folders must hold the same .ann files",
        id="a-file-on-one-side-only",
    ),
    pytest.param(
        {"reference": "", "system/doc1.txt": DOC1_TEXT[:-1] + "!"},
        "system/doc1.txt:2: differs from {gold}/doc1.txt at character 73 ('!' against '.'); expected the same text",
        id="prediction-text-differs",
    ),
]


@pytest.mark.parametrize(("case", "message"), BRAT_ERRORS)
def test_a_bad_brat_file_names_the_file_and_the_line(
    tmp_path: Path, case: dict[str, str], message: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    case = dict(case)
    more = {key.removeprefix("system/"): case.pop(key) for key in list(case) if key.startswith("system/")}
    references, predictions = _brat_case(tmp_path, **case, **more)
    status = cli.main(["--brat", str(references), str(predictions), "--json"])
    err = capsys.readouterr().err
    if message is None:
        assert status == 0, err
        return
    assert status == 2
    assert err.startswith(f"{tmp_path}/" + message.format(gold=references)), err
    assert err.count("\n") == 1


def test_a_brat_file_that_is_not_utf8_names_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    references, predictions = _brat_case(tmp_path, "T1\tPER 0 3\tAda\n")
    (references / "doc1.ann").write_bytes(b"T1\tPER 0 3\tAda\nT2\tPER 4 12\tLovel\xe6ce\n")
    assert cli.main(["--brat", str(references), str(predictions)]) == 2
    assert (
        capsys.readouterr().err
        == f"{references}/doc1.ann:2: byte 0xe6 at column 18 is not UTF-8; expected UTF-8 text\n"
    )


def test_read_brat_refuses_what_is_no_brat(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.raises(nerscore.ConllError, match=r"notes\.txt: is neither a folder nor an \.ann file"):
        list(nerscore.read_brat(tmp_path / "notes.txt"))
    (tmp_path / "alone.ann").write_text("T1\tX 0 1\tx\n", encoding="utf-8")
    with pytest.raises(nerscore.ConllError, match=r"alone\.ann: has no alone\.txt beside it"):
        list(nerscore.read_brat(tmp_path))


# What is no path where a reader takes a path, and a path where one takes lines (redteam2): os.fspath's bare
# TypeError ("expected str, bytes or os.PathLike object, not NoneType"), or a path read a letter a line.
PATH_READERS = [nerscore.read_brat, nerscore.read_hipe, nerscore.read_label_studio]
LINE_READERS = [nerscore.read_conll, nerscore.read_two_systems, nerscore.read_span_lines]


@pytest.mark.parametrize("reader", PATH_READERS, ids=lambda reader: reader.__name__)
@pytest.mark.parametrize("path", [None, 3, ["a.ann"]], ids=["none", "a-number", "a-list"])
def test_a_path_reader_given_no_path_says_what_it_found(reader, path) -> None:
    with pytest.raises(ValueError, match=rf"found {type(path).__name__} .*; expected .*\(a str or os\.PathLike path\)"):
        list(reader(path))


@pytest.mark.parametrize("reader", PATH_READERS, ids=lambda reader: reader.__name__)
def test_a_path_reader_takes_a_bytes_path(reader, tmp_path: Path) -> None:
    missing = os.fsencode(tmp_path / "missing.ann")
    with pytest.raises((OSError, nerscore.ConllError), match="missing"):
        list(reader(missing))


@pytest.mark.parametrize("reader", LINE_READERS, ids=lambda reader: reader.__name__)
@pytest.mark.parametrize(
    "lines",
    [None, 3, "data/test.conll", b"data/test.conll", np.array("x")],
    ids=["none", "a-number", "a-path", "bytes", "a-0-d-array"],  # the last: "iteration over a 0-d array" before
)
def test_a_line_reader_given_no_lines_says_what_it_found(reader, lines) -> None:
    with pytest.raises(
        ValueError, match=rf"found {type(lines).__name__} .*; expected lines, .*{reader.__name__}\(open"
    ):
        list(reader(lines))


# A line that is no text (a binary file's bytes, None, a list) was an AttributeError ("'bytes' object has no
# attribute 'split'", or "... 'strip'"): now the line is named. (lines, line number, what is found)
NOT_TEXT_LINES = [
    pytest.param(["", None], 2, "found NoneType None; expected a line of text", id="none"),
    pytest.param(["", b"a B-PER B-PER O"], 2, "found bytes .*open the file in text mode", id="a-binary-file"),
    pytest.param(["", ["a", "O"]], 2, r"found list \['a', 'O'\]; expected a line of text", id="a-list"),
]


@pytest.mark.parametrize("reader", LINE_READERS, ids=lambda reader: reader.__name__)
@pytest.mark.parametrize(("lines", "number", "message"), NOT_TEXT_LINES)
def test_a_line_that_is_no_text_is_named(reader, lines: list, number: int, message: str) -> None:
    with pytest.raises(nerscore.ConllError, match=message) as caught:
        list(reader(lines, "f.conll"))
    assert (caught.value.source, caught.value.line) == ("f.conll", number)


# ---------------------------------------------------------------------------------------------------------
# Label Studio's JSON export (item 6), written by hand as Label Studio writes it (indented, one task after
# another): annotations are the references, predictions the system's
# ---------------------------------------------------------------------------------------------------------


def region(start: int, end: int, text: str, *labels: str, **more: Any) -> dict[str, Any]:
    return {
        "value": {"start": start, "end": end, "text": text, "labels": list(labels)},
        "id": f"r{start}",
        "from_name": "label",
        "to_name": "text",
        "type": "labels",
        "origin": "manual",
        **more,
    }


LS_TEXT_1 = "Ada Lovelace met Charles Babbage in London."
LS_TEXT_2 = "😀 Zoë visited Bern."
LABEL_STUDIO_EXPORT = [
    {
        "id": 101,
        "data": {"text": LS_TEXT_1},
        "annotations": [
            {
                "id": 1,
                "result": [
                    region(0, 12, "Ada Lovelace", "PERSON"),
                    region(17, 32, "Charles Babbage", "PERSON"),
                    region(36, 42, "London", "GPE"),
                    {"value": {"choices": ["history"]}, "from_name": "topic", "to_name": "text", "type": "choices"},
                    {"from_id": "r0", "to_id": "r17", "type": "relation", "direction": "right", "labels": []},
                ],
                "was_cancelled": False,
                "ground_truth": False,
                "completed_by": 1,
            },
            {"id": 2, "result": [region(0, 3, "Ada", "PERSON")], "was_cancelled": True},
        ],
        "predictions": [
            {
                "model_version": "v1",
                "score": 0.5,
                "result": [
                    region(0, 12, "Ada Lovelace", "PERSON", score=0.9),
                    region(25, 32, "Babbage", "PERSON", score=0.8),
                    region(36, 42, "London", "ORG", "GPE", score=0.7),
                ],
            }
        ],
    },
    {
        "id": 102,
        "data": {"text": LS_TEXT_2},
        "annotations": [
            {"id": 3, "result": [region(2, 5, "Zoë", "PERSON")], "ground_truth": False},
            {"id": 4, "result": [region(2, 5, "Zoë", "PERSON"), region(14, 18, "Bern", "GPE")], "ground_truth": True},
        ],
        "predictions": [{"model_version": "v1", "result": [region(14, 18, "Bern", "GPE")]}],
    },
    {"id": 103, "data": {"text": "Not labelled yet."}, "annotations": [], "predictions": []},
]
LS_REFERENCES = [
    [Span(0, 12, "PERSON"), Span(17, 32, "PERSON"), Span(36, 42, "GPE")],
    [Span(2, 5, "PERSON"), Span(14, 18, "GPE")],
]
LS_PREDICTIONS = [
    [Span(0, 12, "PERSON"), Span(25, 32, "PERSON"), Span(36, 42, "ORG"), Span(36, 42, "GPE")],
    [Span(14, 18, "GPE")],
]


def write_export(path: Path, tasks: Any) -> Path:
    path.write_text(json.dumps(tasks, indent=2, ensure_ascii=False), encoding="utf-8")
    return path


def test_read_label_studio_takes_the_annotation_and_the_prediction(tmp_path: Path) -> None:
    tasks = list(nerscore.read_label_studio(write_export(tmp_path / "export.json", LABEL_STUDIO_EXPORT)))
    assert [task.id for task in tasks] == [101, 102, 103]
    assert [task.text for task in tasks] == [LS_TEXT_1, LS_TEXT_2, "Not labelled yet."]
    # The cancelled annotation is left out; of two, the ground truth; a region with two labels is two entities;
    # choices and relations are no entities.
    assert [task.references for task in tasks] == [*LS_REFERENCES, None]
    assert [task.predictions for task in tasks] == [*LS_PREDICTIONS, None]
    # Each task's line in the export: where its object opens.
    lines = (tmp_path / "export.json").read_text(encoding="utf-8").splitlines()
    assert [lines[task.line - 1] for task in tasks] == ["  {"] * 3
    assert tasks[1].line > tasks[0].line + 10


def test_the_label_studio_flag_scores_the_tasks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_export(tmp_path / "export.json", LABEL_STUDIO_EXPORT)
    assert cli.main(["--label-studio", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    # The tasks' texts are known, so `ungrounded` 0 is there, as compute_semeval's with texts (§1b).
    texts = [LS_TEXT_1, LS_TEXT_2]
    expected = nerscore.compute_semeval(predictions=LS_PREDICTIONS, references=LS_REFERENCES, texts=texts)
    assert json.loads(captured.out) == expected and expected["ungrounded"] == 0
    assert captured.err == "note: 1 of 3 tasks left out, without an annotation or a prediction\n"
    # A minified export (one line) reads the same.
    path.write_text(json.dumps(LABEL_STUDIO_EXPORT, separators=(",", ":")), encoding="utf-8")
    assert cli.main(["--label-studio", str(path)]) == 0
    first_line = capsys.readouterr().out.splitlines()[0]
    assert first_line.startswith("processed 2 documents with 5 reference and 5 predicted entities")
    assert first_line.endswith("(spans)")  # (`ungrounded` in --json: still spans, as --spans with texts says)


@pytest.mark.parametrize("stream", [io.StringIO, lambda text: io.BytesIO(text.encode())], ids=["text", "bytes"])
def test_the_label_studio_flag_reads_standard_input_for_a_dash(tmp_path: Path, capsys, monkeypatch, stream) -> None:
    # --label-studio - opened a file named "-" where FILE, --spans, --compare and --runs read standard input (polish).
    path = write_export(tmp_path / "export.json", LABEL_STUDIO_EXPORT)
    assert cli.main(["--label-studio", str(path), "--json"]) == 0
    expected = capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", stream(path.read_text(encoding="utf-8")))
    assert cli.main(["--label-studio", "-", "--json"]) == 0
    assert capsys.readouterr().out == expected
    monkeypatch.setattr("sys.stdin", stream("[1]"))  # named as standard input is elsewhere
    assert cli.main(["--label-studio", "-"]) == 2
    assert capsys.readouterr().err.startswith("<stdin>:1: task 0 is a JSON int")


def test_a_label_studio_task_without_its_text_leaves_ungrounded_out(tmp_path: Path, capsys) -> None:
    # Some tasks without data.text are not compute_semeval's texts= (one per document): no key, as --spans does.
    tasks = json.loads(json.dumps(LABEL_STUDIO_EXPORT))
    tasks[1]["data"] = {"html": "<p>Zoë visited Bern.</p>"}
    assert cli.main(["--label-studio", str(write_export(tmp_path / "export.json", tasks)), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == nerscore.compute_semeval(
        predictions=LS_PREDICTIONS, references=LS_REFERENCES
    )


def _task(**changes: Any) -> list[dict[str, Any]]:
    task = json.loads(json.dumps(LABEL_STUDIO_EXPORT[0]))
    task.update(changes)
    return [LABEL_STUDIO_EXPORT[2], task]


LABEL_STUDIO_ERRORS = [
    pytest.param(
        _task(annotations=[{"id": 7, "result": []}, {"id": 8, "result": []}]),
        "export.json:10: task 1 (id 101) has 2 annotations (ids [7, 8]) and none marked ground_truth; expected one "
        "annotation per task, or one marked ground_truth",
        id="two-annotations",
    ),
    pytest.param(
        _task(predictions=[{"model_version": "a", "result": []}, {"model_version": "b", "result": []}]),
        "export.json:10: task 1 (id 101) has 2 predictions (model versions ['a', 'b']); expected one prediction "
        "per task",
        id="two-predictions",
    ),
    pytest.param(
        _task(predictions=[{"result": [region(0, 3, "Ad", "PERSON")]}]),
        "export.json:10: task 1 (id 101), predictions[0].result[0]: value.text is 'Ad' but data.text holds 'Ada' at "
        "0-3; expected the text at the region's offsets",
        id="text-not-the-slice",
    ),
    pytest.param(
        _task(
            data={"text": "😀 Ada Lovelace"}, annotations=[], predictions=[{"result": [region(3, 6, "Ada", "PERSON")]}]
        ),
        "(the text holds characters beyond U+FFFF, such as emoji: older Label Studio versions counted each as two)",
        id="utf16-offsets",
    ),
    pytest.param(
        _task(predictions=[{"result": [region(5, 2, "", "PERSON")]}]),
        "export.json:10: task 1 (id 101), predictions[0].result[0]: start 5 >= end 2; expected start < end",
        id="start-after-end",
    ),
    pytest.param(
        _task(predictions=[{"result": [region(0, "3", "Ada", "PERSON")]}]),
        "predictions[0].result[0]: value.end is '3'; expected a character offset (an integer >= 0)",
        id="offset-a-string",
    ),
    pytest.param(
        _task(predictions=[{"result": [region(0, 3, "Ada")]}]),
        "predictions[0].result[0]: value.labels is []; expected a list of labels",
        id="no-label",
    ),
    pytest.param(
        _task(predictions=[{"result": [region(0, 300, "Ada", "PERSON")]}]),
        "predictions[0].result[0]: end 300 is past the end of data.text (43 characters)",
        id="past-the-end",
    ),
    pytest.param(
        _task(annotations={"id": 1}),
        "export.json:10: task 1 (id 101): annotations is not a list",
        id="annotations-not-a-list",
    ),
    pytest.param(
        {"data": {"text": "x"}},
        "export.json:1: found a JSON object (one task?) where an export holds a list of tasks; expected Label "
        "Studio's JSON export: a list of tasks",
        id="one-task",
    ),
    pytest.param([LABEL_STUDIO_EXPORT[2], 3], "export.json:10: task 1 is a JSON int; expected", id="a-task-no-object"),
    # Older exports' completions beside annotations: one of them was dropped unread (redteam4).
    pytest.param(
        _task(completions=[{"result": []}]),
        "export.json:10: task 1 (id 101) holds both annotations and completions; expected one, Label Studio's",
        id="annotations-and-completions",
    ),
]


@pytest.mark.parametrize(("tasks", "message"), LABEL_STUDIO_ERRORS)
def test_a_bad_label_studio_export_names_the_task_and_its_line(
    tmp_path: Path, tasks: Any, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_export(tmp_path / "export.json", tasks)
    assert cli.main(["--label-studio", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert err.startswith(f"{path}:"), err


def test_a_label_studio_file_that_is_not_json_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "export.json"
    path.write_text('[\n  {"id": 1,\n   "data": {"text": "x"},}\n]', encoding="utf-8")
    assert cli.main(["--label-studio", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}:3: not JSON (Expecting property name enclosed in double quotes")
    path.write_text('[{"id": 1, "data": {"text": "x"}} {"id": 2}]', encoding="utf-8")
    assert cli.main(["--label-studio", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}:1: found '{{' after task 0; expected ',' or ']'")
    path.write_text('[{"id": 1, "data": {"text": "x"}}', encoding="utf-8")
    assert cli.main(["--label-studio", str(path)]) == 2
    assert "found the end of the file after task 0" in capsys.readouterr().err
    path.write_text("[" * 100_000, encoding="utf-8")
    assert cli.main(["--label-studio", str(path)]) == 2
    assert "JSON nested too deeply" in capsys.readouterr().err


TASK = '{"data": {"text": "x"}, "annotations": []}'
HUGE = "1" + "0" * 5_000

# One JSON list, read by both Label Studio readers (read_label_studio, one annotation per task, and
# read_label_studio_annotators, several: files.annotations.json_list_items): the same line, each reader's words.
JSON_LISTS = [
    pytest.param("", 1, "found nothing; expected Label Studio's", "found no JSON list; expected", id="empty"),
    pytest.param("\n\n" + TASK, 3, "found a JSON object (one task?)", "found no JSON list", id="one-task"),
    pytest.param(
        f"[\n{TASK},\n{TASK} {TASK}]", 3, "found '{' after task 1; expected ',' or ']'", "expected ','", id="no-comma"
    ),
    pytest.param(
        f"[{TASK},\n\n",
        3,
        "not JSON (Expecting value, column 1)",
        "not JSON (Expecting value, column 1)",
        id="end-of-file",
    ),
    pytest.param(f"[{TASK}\n", 2, "found the end of the file after task 0", "expected ',' or ']'", id="no-bracket"),
    pytest.param(
        f"[{TASK},\n[[{HUGE}]]]",
        2,
        "task 1: found an integer of more than 4,300 digits",
        "found an integer of more than 4,300 digits",
        id="huge-integer",
    ),
    pytest.param("[\n" + "[" * 100_000, 2, "task 0: JSON nested too deeply", "JSON nested too deeply", id="deep"),
    # Two exports pasted into one file: the second list was dropped unread.
    pytest.param(
        f"[{TASK}]\n\n[{TASK}]",
        3,
        'found \'[{"data": {"text": "\' after the list\'s end; expected Label Studio\'s',
        'found \'[{"data": {"text": "\' after the list\'s end; expected',
        id="after-the-list",
    ),
    # Not JSON's white space: json.loads refuses it, and so do both (the several annotators' reader skipped it).
    pytest.param(f"[{TASK},\u00a0{TASK}]", 1, "not JSON (Expecting value", "not JSON (Expecting value", id="nbsp"),
]


@pytest.mark.parametrize(("content", "line", "one", "several"), JSON_LISTS)
def test_both_label_studio_readers_read_a_json_list_alike(
    tmp_path: Path, content: str, line: int, one: str, several: str
) -> None:
    path = tmp_path / "export.json"
    path.write_text(content, encoding="utf-8")
    for read, problem in (
        (lambda: list(nerscore.read_label_studio(path)), one),
        (lambda: nerscore.read_label_studio_annotators(path), several),
    ):
        with pytest.raises(nerscore.ConllError) as error:
            read()
        assert str(error.value).startswith(f"{path}:{line}: {problem}"), error.value


def test_label_studio_exports_in_python_score_with_compute(tmp_path: Path) -> None:
    path = write_export(tmp_path / "export.json", LABEL_STUDIO_EXPORT)
    tasks = [task for task in nerscore.read_label_studio(path) if task.references is not None]
    results = nerscore.compute_semeval(
        predictions=[task.predictions for task in tasks], references=[task.references for task in tasks]
    )
    assert results == nerscore.compute_semeval(predictions=LS_PREDICTIONS, references=LS_REFERENCES)


def test_the_flag_table_lists_the_annotation_flags() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "command-line.md").read_text(encoding="utf-8")
    help_text = cli.build_parser().format_help()
    for flag in ("--brat REFERENCE_DIR PREDICTION_DIR", "--label-studio FILE.json", "--evaluation-schemes NAMES"):
        assert f"| `{flag}` |" in page, flag
        assert flag in help_text, flag


def test_the_command_line_page_shows_what_brat_prints(monkeypatch, capsys: pytest.CaptureFixture[str]) -> None:
    repo = Path(__file__).resolve().parent.parent
    page = (repo / "docs" / "command-line.md").read_text(encoding="utf-8")
    block = page.split("<!-- brat-example -->\n```\n", 1)[1].split("```", 1)[0].splitlines()
    command, *shown = block
    monkeypatch.chdir(repo)
    assert cli.main(command.split()[3:]) == 0
    captured = capsys.readouterr()
    assert shown == [*captured.err.splitlines(), captured.out.splitlines()[0]]


def test_many_fragments_over_a_long_text_stay_within_the_line_s_size(tmp_path: Path) -> None:
    # A T line of 20,000 fragments, each the whole 100,000-character text: joined, their text would be 2 GB. The
    # check compares lengths first, then fragment by fragment within the annotation's own text: memory follows
    # the line (a few hundred kB), never the fragments' extent.
    import tracemalloc

    text = "a" * 100_000
    offsets = ";".join(["0 100000"] * 20_000)
    references = write(tmp_path / "gold", {"doc1.txt": text, "doc1.ann": f"T1\tX {offsets}\tshort\n"})
    tracemalloc.start()
    try:
        with pytest.raises(nerscore.ConllError, match=r"doc1\.ann:1: T1's text is 'short' but"):
            list(nerscore.read_brat(references))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50_000_000


@pytest.mark.parametrize(
    ("offset", "message"),
    [
        pytest.param("9" * 5000, "task 0: found an integer of more than 4,300 digits", id="5000-digits"),
        pytest.param("9" * 4000, "digits> is past the end of data.text", id="4000-digits"),
    ],
)
def test_a_label_studio_offset_of_thousands_of_digits_names_the_task_and_its_line(
    tmp_path: Path, offset: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # json.loads refuses an integer of more than 4,300 digits with a bare ValueError that names no file (issue 31).
    path = tmp_path / "export.json"
    region = '{"value": {"start": 0, "end": ' + offset + ', "labels": ["PER"]}}'
    path.write_text('[\n {"data": {"text": "Ada"}, "annotations": [{"result": [' + region + "]}]}\n]", encoding="utf-8")
    assert cli.main(["--label-studio", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:2: "), err
    assert message in err, err


def test_fragments_that_touch_are_no_discontinuous_annotation(tmp_path: Path, capsys) -> None:
    # docs/scoring.md §12: "0 2;2 4" merges into the span [0, 4); the red team's: read_brat counted it discontinuous
    # and --brat printed the note that --fragments would score it otherwise, which it does not.
    for side in ("reference", "prediction"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "a.txt").write_text("abcdefghij", encoding="utf-8")
        (tmp_path / side / "a.ann").write_text("T1\tX 0 2;2 4\tab cd\nT2\tX 5 6;8 9\tf i\n", encoding="utf-8")
    (document,) = nerscore.read_brat(tmp_path / "reference")
    assert document.discontinuous == 1
    nerscore.main(["--brat", str(tmp_path / "reference"), str(tmp_path / "prediction")])
    assert "note: 2 discontinuous annotations (1 reference, 1 predicted)" in capsys.readouterr().err


def test_a_brat_folder_deeper_than_python_recurses_is_read(tmp_path: Path) -> None:
    # Python 3.11's os.walk recurses once a folder: 1,500 nested folders raised RecursionError out of read_brat and
    # `--brat` (a traceback). Folders are walked as deep as the file system holds them.
    folders = [str(tmp_path / "gold")]
    for _ in range(1_500):
        folders.append(os.path.join(folders[-1], "d"))
    for folder in folders:
        os.mkdir(folder)  # (os.makedirs recurses too)
    try:
        Path(folders[-1], "x.ann").write_text("T1\tPER 0 3\tAda\n", encoding="utf-8")
        Path(folders[-1], "x.txt").write_text("Ada", encoding="utf-8")
        (document,) = nerscore.read_brat(tmp_path / "gold")
        assert document.name == "/".join(["d"] * 1_500) + "/x"
        assert document.spans == [nerscore.Span(0, 3, "PER")]
    finally:  # removed here, from the deepest up: shutil.rmtree, which pytest cleans tmp_path with, recurses too
        for name in ("x.ann", "x.txt"):
            Path(folders[-1], name).unlink(missing_ok=True)
        for folder in reversed(folders):
            os.rmdir(folder)


@pytest.mark.parametrize("reader", [nerscore.read_conll, nerscore.read_two_systems], ids=lambda reader: reader.__name__)
@pytest.mark.parametrize(
    "documents", [5, "docs", (), np.array([1])], ids=["a-number", "a-string", "a-tuple", "an-array"]
)
def test_a_documents_argument_that_takes_no_number_is_refused(reader, documents) -> None:
    # `documents` receives each sentence's document number: anything without append raised AttributeError
    # ("'int' object has no attribute 'append'") at the first sentence.
    with pytest.raises(ValueError, match=r"^documents is .*; expected a list, which receives each sentence's document"):
        list(reader(["a O O O", ""], documents=documents))


@pytest.mark.parametrize(
    ("references", "predictions", "message"),
    [
        pytest.param(None, "b", r"^found NoneType None; expected a BRAT folder", id="references-none"),
        pytest.param("a", 5, r"^found int 5; expected a BRAT folder", id="predictions-a-number"),
        pytest.param(["a"], "b", r"^found list \['a'\]; expected a BRAT folder", id="references-a-list"),
    ],
)
def test_read_brat_pairs_names_a_folder_that_is_no_path(references, predictions, message) -> None:
    # (Red team 2: TypeError "expected str, bytes or os.PathLike object, not NoneType" out of os.path.join.)
    with pytest.raises(ValueError, match=message):
        list(nerscore.read_brat_pairs(references, predictions))


def test_a_label_studio_message_quotes_a_huge_task_id_cut(tmp_path: Path) -> None:
    # The task's id is quoted as found: a list of 10,000 items made a message of 50 KB.
    path = write_export(tmp_path / "export.json", _task(id=list(range(10_000)), annotations={"id": 1}))
    with pytest.raises(
        nerscore.ConllError, match=r"task 1 \(id \[0, 1, 2, .*\.\.\.\): annotations is not a list"
    ) as error:
        list(nerscore.read_label_studio(path))
    assert len(str(error.value)) < 500
