"""A ninth hostile sweep, of the files' readers, the command line, agreement, fragments and HIPE's pairing: each
case failed on the code before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nerscore.cli import main

# `ner-semeval agreement` of one file per annotator (CoNLL files, doccano's JSONL): an error in the second
# annotator's file was placed at the first file's line of that sentence ("annotations['b.conll'], ... (a.conll:4)"),
# a line of another file, which holds no such tag; the files' lines differ where blank lines do.
ANOTHER_ANNOTATORS_FILE = [
    pytest.param(
        ("a.conll", "Ada B-PER\nmet O\n\nBob B-PER\n"),
        ("b.conll", "\n\nAda B-PER\nmet O\n\n\n\nBob X-PER\n"),
        [],
        r"^error: annotations\['{name}'\], sentence 1, token 0: found tag 'X-PER'.* \(.*b\.conll:8\)$",
        id="conll-files",
    ),
    pytest.param(
        ("a.jsonl", '{"text": "Ada met", "label": [[0, 3, "PER"]]}\n{"text": "Bob", "label": []}\n'),
        ("b.jsonl", '\n\n{"text": "Ada met", "label": [[0, 3, "PER"]]}\n\n{"text": "Bob", "label": [[0, 3, "O"]]}\n'),
        ["--confusion"],
        r"^error: annotations\['{name}'\], sentence 1, entity 0: found entity type 'O'.* \(.*b\.jsonl:5\)$",
        id="doccano-files",
    ),
]


@pytest.mark.parametrize(("first", "second", "flags", "message"), ANOTHER_ANNOTATORS_FILE)
@pytest.mark.parametrize("names", [[], ["--names", "x,y"]], ids=["file-names", "names-given"])
def test_an_annotators_error_names_its_own_files_line(
    first: tuple, second: tuple, flags: list[str], message: str, names: list[str], tmp_path: Path, capsys
) -> None:
    paths = []
    for name, content in (first, second):
        (tmp_path / name).write_text(content, encoding="utf-8")
        paths.append(str(tmp_path / name))
    assert main(["agreement", *paths, *flags, *names]) == 2
    error = capsys.readouterr().err.strip()
    assert re.match(message.replace("{name}", "y" if names else re.escape(second[0])), error), error


def test_an_annotators_bad_tag_in_one_conll_file_names_the_tags_line(tmp_path: Path, capsys) -> None:
    # The place named was the sentence's first line (one.conll:4 for a tag on line 6), as if the tag stood there.
    path = tmp_path / "one.conll"
    path.write_text("Ada B-PER B-PER\nmet O O\n\nBob B-PER B-PER\nsaw O O\nAnn O X-PER\n", encoding="utf-8")
    assert main(["agreement", str(path)]) == 2
    error = capsys.readouterr().err.strip()
    assert re.match(
        r"^error: annotations\['annotator2'\], sentence 1, token 2: found tag 'X-PER'.*one\.conll:6\)$", error
    )


# A lone surrogate ("\ud800", half of a UTF-16 pair, as JSON may escape it) in a label or an annotator's name of a
# JSON file other than --spans' (whose lines were checked): read, scored, then fatal when printed: agreement's
# table or --json raised UnicodeEncodeError (a traceback), --label-studio printed half its tables and then
# "error: 'utf-8' codec can't encode character '\ud800' in position 59", naming no file, task or label.
def _export(label: str, who: object = None) -> str:
    region = {"value": {"start": 0, "end": 3, "text": "Ada", "labels": [label]}, "type": "labels"}
    annotation: dict = {"id": 1, "result": [region]}
    annotations = [annotation] if who is None else [{**annotation, "completed_by": who}, {"id": 2, "result": []}]
    task = {"id": 1, "data": {"text": "Ada met"}, "annotations": annotations, "predictions": [{"result": [region]}]}
    return json.dumps([task])


_LONE = "P\ud800"
LONE_SURROGATES = [
    pytest.param(
        {"export.json": _export(_LONE)},
        ["--label-studio", "{export.json}", "--per-type"],
        r"export\.json:1: task 0: found the lone surrogate '\\ud800' in annotations\[0\]\.result\[0\]\.value"
        r"\.labels\[0\]",
        id="label-studio-label",
    ),
    pytest.param(
        {"export.json": _export("PER", who=_LONE)},
        ["agreement", "{export.json}"],
        r"export\.json:1: found the lone surrogate '\\ud800' in annotations\[0\]\.completed_by",
        id="agreement-label-studio-annotator",
    ),
    pytest.param(
        {"all.jsonl": json.dumps({"text": "Ada met", "annotations": {_LONE: [[0, 3, "PER"]], "b": []}})},
        ["agreement", "{all.jsonl}"],
        r"all\.jsonl:1: found the lone surrogate '\\ud800' in a key of annotations",
        id="agreement-jsonl-annotator",
    ),
    pytest.param(
        {"all.jsonl": json.dumps({"text": "Ada met", "annotations": {"a": [[0, 3, _LONE]], "b": []}})},
        ["agreement", "{all.jsonl}", "--json"],
        r"all\.jsonl:1: found the lone surrogate '\\ud800' in annotations\.a\[0\]\[2\]",
        id="agreement-jsonl-type-json",
    ),
    pytest.param(
        {
            "a.jsonl": json.dumps({"text": "Ada met", "label": [[0, 3, _LONE]]}),
            "b.jsonl": json.dumps({"text": "Ada met", "label": [[0, 3, "PER"]]}),
        },
        ["agreement", "{a.jsonl}", "{b.jsonl}", "--errors", "3"],
        r"a\.jsonl:1: found the lone surrogate '\\ud800' in label\[0\]\[2\]",
        id="agreement-doccano-type",
    ),
]


@pytest.mark.parametrize(("files", "argv", "message"), LONE_SURROGATES)
def test_a_lone_surrogate_in_a_json_file_is_refused_at_its_line(
    files: dict[str, str], argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, content in files.items():
        (tmp_path / name).write_text(content + "\n", encoding="utf-8")
    paths = {f"{{{name}}}": str(tmp_path / name) for name in files}
    assert main([paths.get(argument, argument) for argument in argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert re.search(message, captured.err), captured.err


# `ner-semeval agreement` given a folder among files: the hint named `--brat REFERENCE_DIR PREDICTION_DIR`, a flag
# of ner-semeval that this command does not take. Two JSON lines files of --spans' (references and predictions,
# no "label"), told doccano's by their names, were read as documents of no entity each: agreement 0 over
# "labelled 0" units, status 0.
_SPANS_LINE = {"text": "Ada met", "references": [[0, 3, "PER"]], "predictions": [[0, 3, "PER"]]}
AGREEMENT_PATHS_MISREAD = [
    pytest.param(
        ["{folder}", "{a.conll}"],
        r"^error: \[Errno 21\] Is a directory: .* \(a folder: BRAT folders are read when every path is one",
        id="a-folder-among-files",
    ),
    pytest.param(
        ["--format", "label-studio", "{folder}"],
        r"^error: \[Errno 21\] Is a directory: .* \(a folder: BRAT folders are read when every path is one",
        id="a-folder-as-an-export",
    ),
    pytest.param(
        ["{a.jsonl}", "{b.jsonl}"],
        r'a\.jsonl:1: found no "label" and no "entities"; expected doccano',
        id="span-lines-as-doccano",
    ),
]


@pytest.mark.parametrize(("argv", "message"), AGREEMENT_PATHS_MISREAD)
def test_agreement_paths_of_another_layout_say_how_this_command_reads(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "a.conll").write_text("Ada B-PER B-PER\n", encoding="utf-8")
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_text(json.dumps(_SPANS_LINE) + "\n", encoding="utf-8")
    assert main(["agreement", *(str(tmp_path / a[1:-1]) if a.startswith("{") else a for a in argv)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert re.search(message, captured.err.strip()), captured.err
