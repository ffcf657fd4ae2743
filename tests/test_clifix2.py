"""What a red team of the files and the command line noticed and left (test_redteam15): each named case failed
on the code before its fix."""

from __future__ import annotations

import io
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
    (tmp_path / "a.conll").write_text(_CONLL, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(_CONLL))
    err = _refused(["agreement", *(str(tmp_path / "a.conll") if p == "{a}" else p for p in paths)], capsys)
    assert says in err and "which agreement does not read" in err and "No such file" not in err, err
