"""What a red team of the files and the command line noticed and left (test_redteam15): each named case failed
on the code before its fix."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from nerscore import cli

_CONLL = "EU B-ORG B-ORG\nrejects O O\n"


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The command line's standard error where `argv` is refused by its parser (status 2), nothing printed."""
    with pytest.raises(SystemExit) as stopped:
        cli.main(argv)
    captured = capsys.readouterr()
    assert stopped.value.code == 2 and captured.out == "", captured.err
    return captured.err


def _refused_beside_a_file(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """`_refused` of `argv` with standard input holding a CoNLL file and "{a}" naming a file that holds it too."""
    (tmp_path / "a.conll").write_text(_CONLL, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(_CONLL))
    return _refused([str(tmp_path / "a.conll") if argument == "{a}" else argument for argument in argv], capsys)


# `ner-semeval agreement -` said "error: [Errno 2] No such file or directory: '-'", where the scoring command reads
# standard input. The agreement command tells its files' layout and names its annotators by their paths (a
# folder, .json, .jsonl; an annotator is its file's name), which standard input has none of: refused in words,
# naming the path's place and what to give instead.
AGREEMENT_DASHES = [
    pytest.param(["-"], "path 1 is - (standard input)", id="alone"),
    pytest.param(["{a}", "-"], "path 2 is - (standard input)", id="second"),
    pytest.param(["--format", "conll", "-", "{a}"], "path 1 is - (standard input)", id="format-given"),
]


@pytest.mark.parametrize(("paths", "says"), AGREEMENT_DASHES)
def test_agreement_refuses_standard_input_in_words(
    paths: list[str], says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    err = _refused_beside_a_file(["agreement", *paths], tmp_path, monkeypatch, capsys)
    assert says in err and "which agreement does not read" in err and "No such file" not in err, err


# --brat (and agreement of BRAT folders) of folders holding no .ann file scored silent zeros: "processed 0 documents
# with 0 reference and 0 predicted entities", status 0, for an empty folder, a wrong one, or BioNLP's .a1/.a2 files.
# Now the first folder is named with what it holds and what was expected, as HIPE's reader refuses a gold of no
# token ("nothing to score"); an empty CoNLL file or JSON lines file stays valid (conlleval.pl scores it: 0 tokens).
NO_ANN_FILES = [
    pytest.param([], ["--brat"], "(found no file); expected .ann files beside their .txt", id="empty"),
    pytest.param(["x.a1", "x.a2", "x.txt"], ["--brat"], "(found .a1, .a2, .txt files)", id="bionlp"),
    pytest.param(["x.a1"], ["--brat"], "; BioNLP's .a1 files are BRAT standoff: name them .ann", id="bionlp-hint"),
    pytest.param(["sub/x.txt", "README"], ["--brat"], "subfolders included (found .txt, unsuffixed files)", id="deep"),
    pytest.param([], ["agreement"], "holds no .ann file, subfolders included (found no file)", id="agreement"),
]


@pytest.mark.parametrize(("files", "command", "says"), NO_ANN_FILES)
def test_brat_folders_without_an_ann_file_are_refused_by_name(
    files: list[str], command: list[str], says: str, tmp_path: Path, capsys
) -> None:
    folders = [tmp_path / "gold", tmp_path / "system"]
    for folder in folders:
        for name in files:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text("Ada\n", encoding="utf-8")
        folder.mkdir(exist_ok=True)
    assert cli.main([*command, *map(str, folders)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"{folders[0]}: holds no .ann file"), captured.err
    assert says in captured.err, captured.err


@pytest.mark.parametrize("flags", [[], ["--spans"]], ids=["conll", "spans"])
def test_an_empty_file_stays_a_valid_input_of_nothing(flags: list[str], tmp_path: Path, capsys) -> None:
    path = tmp_path / "empty"
    path.write_bytes(b"")
    assert cli.main([*flags, str(path)]) == 0
    assert capsys.readouterr().out.startswith("processed 0 ")


# The hint "(a folder: --brat REFERENCE_DIR PREDICTION_DIR reads two folders of BRAT files)" followed a folder given
# anywhere a file goes: --hipe's files, --tagset, --relaxed, --compare and --runs, where BRAT folders mean nothing.
# Now it follows a folder given as one system's file (FILE, --spans, --label-studio) alone.
_HINT = "(a folder: --brat REFERENCE_DIR PREDICTION_DIR reads two folders of BRAT files)"
_HIPE = "TOKEN\tNE-COARSE-LIT\tNEL-LIT\n# document_id = d\nParis\tB-loc\tQ90\n"
FOLDERS = [
    pytest.param(["{dir}"], True, id="file"),
    pytest.param(["--spans", "{dir}"], True, id="spans"),
    pytest.param(["--label-studio", "{dir}"], True, id="label-studio"),
    pytest.param(["--hipe", "{dir}", "{gold}"], False, id="hipe-gold"),
    pytest.param(["--hipe", "{gold}", "{dir}"], False, id="hipe-system"),
    pytest.param(["--hipe", "{gold}", "{gold}", "--tagset", "{dir}"], False, id="tagset"),
    pytest.param(["--hipe", "{gold}", "{gold}", "--nel", "--hipe-table", "--relaxed", "{dir}"], False, id="relaxed"),
    pytest.param(["--compare", "{dir}", "{gold}"], False, id="compare"),
    pytest.param(["--runs", "{gold}", "{dir}"], False, id="runs"),
]


@pytest.mark.parametrize(("argv", "hinted"), FOLDERS)
def test_the_brat_hint_follows_a_folder_only_where_one_systems_file_goes(
    argv: list[str], hinted: bool, tmp_path: Path, capsys
) -> None:
    gold = tmp_path / "gold.tsv"
    gold.write_text(_HIPE, encoding="utf-8")
    named = {"{dir}": str(tmp_path), "{gold}": str(gold)}
    assert cli.main([named.get(argument, argument) for argument in argv]) == 2
    err = capsys.readouterr().err
    assert "Is a directory" in err and (_HINT in err) == hinted, err


# `ner-semeval - -` read standard input twice: the second read was empty, and the first file's sentences were
# scored alone, silently (status 0); --conlleval - - alike. Now refused, naming both.
STANDARD_INPUT_TWICE = [
    pytest.param(["-", "-"], "FILE 1 - and FILE 2 -", id="twice"),
    pytest.param(["{a}", "-", "-"], "FILE 2 - and FILE 3 -", id="after-a-file"),
    pytest.param(["-", "{a}", "-", "-"], "FILE 1 -, FILE 3 - and FILE 4 -", id="three"),
    pytest.param(["--conlleval", "-", "-"], "FILE 1 - and FILE 2 -", id="conlleval"),
]


@pytest.mark.parametrize(("argv", "says"), STANDARD_INPUT_TWICE)
def test_standard_input_named_twice_is_refused(
    argv: list[str], says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    err = _refused_beside_a_file(argv, tmp_path, monkeypatch, capsys)
    assert f"{says} each read standard input, one stream, read once" in err, err


def test_standard_input_once_among_files_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    (tmp_path / "a.conll").write_text(_CONLL, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(_CONLL))
    assert cli.main([str(tmp_path / "a.conll"), "-"]) == 0
    assert capsys.readouterr().out.startswith("processed 4 tokens in 2 sentences")


# An empty --tagset file read as no tag set: the HIPE scorer's `if tags:` (ner_eval.set_evaluation_tags) does the
# same, so the scores were the scorer's, but a file named for a tag set that names none is a wrong or truncated file
# (a failed download): its predicted types outside the gold were dropped where the task's set would count them
# spurious, silently. Now refused, saying how to score without a tag set.
EMPTY_TAGSETS = [
    pytest.param("", [], id="empty"),
    pytest.param("\n  \n\t\n", [], id="blank"),
    pytest.param("", ["--hipe-table"], id="table"),
]


@pytest.mark.parametrize(("content", "flags"), EMPTY_TAGSETS)
def test_an_empty_tag_set_is_refused(content: str, flags: list[str], tmp_path: Path, capsys) -> None:
    gold, tagset = tmp_path / "gold.tsv", tmp_path / "tagset.txt"
    gold.write_text(_HIPE, encoding="utf-8")
    tagset.write_text(content, encoding="utf-8")
    assert cli.main(["--hipe", str(gold), str(gold), "--tagset", str(tagset), *flags]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        f"error: --tagset {tagset} names no type (an empty or blank file); expected the task's types, one a line, "
        "or no --tagset to score the gold's types alone (what the HIPE scorer does with an empty tag set)\n"
    )
    tagset.write_text("loc\n", encoding="utf-8")
    assert cli.main(["--hipe", str(gold), str(gold), "--tagset", str(tagset), *flags]) == 0


# `agreement` of one path holding one annotator said "error: found 1 annotator ('1'); expected at least two to
# compare", naming no file: now the file, and how its layout tells annotators apart.
_TASK = {"id": 1, "data": {"text": "Ada met"}, "annotations": [{"completed_by": 1, "result": []}]}
ONE_ANNOTATOR = [
    pytest.param("ls.json", json.dumps([_TASK]), ["--format", "label-studio"], "found 1 annotator ('1')", id="ls"),
    pytest.param("ls.json", json.dumps([_TASK]), [], "each task's annotations, told apart by completed_by", id="told"),
    pytest.param("ls.json", "[]", [], "found 0 annotators (none); expected at least two to compare", id="no-task"),
    pytest.param("one.jsonl", '{"annotations": {"ann": []}}\n', [], "named by each line's annotations", id="jsonl"),
    pytest.param("d.jsonl", '{"text": "Ada", "label": []}\n', [], "compare, one file each", id="doccano"),
    pytest.param("folder", None, [], "found 1 annotator ('folder'); expected at least two to compare, one", id="brat"),
]


@pytest.mark.parametrize(("name", "content", "flags", "says"), ONE_ANNOTATOR)
def test_agreement_of_one_annotator_names_its_file(
    name: str, content: str | None, flags: list[str], says: str, tmp_path: Path, capsys
) -> None:
    path = tmp_path / name
    if content is None:
        path.mkdir()
        (path / "x.txt").write_text("Ada", encoding="utf-8")
        (path / "x.ann").write_text("T1\tPER 0 3\tAda\n", encoding="utf-8")
    else:
        path.write_text(content, encoding="utf-8")
    assert cli.main(["agreement", *flags, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"{path}: found "), captured.err
    assert says in captured.err, captured.err
