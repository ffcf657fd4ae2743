"""A fifteenth hostile sweep, of the files and the command line (issue 31): each named case failed on the code
before its fix."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from nerscore import cli, read_hipe
from nerscore.files import file_counts

# --spans read a file in chunks of entities and judged each chunk's form alone: a line without 'text' beside
# string entities was refused when both fell in one chunk ("found string entities", at a line holding none) and
# scored when they fell in two (a line of 32,768 entities first: "strings, 0 ungrounded", status 0). A file is one
# batch (docs/scoring.md §1b): refused whatever the chunks, at the line without text, naming the strings' line.
_STRINGS = {"text": "Ada met Bob", "references": [["PER", "Ada"]], "predictions": [["PER", "Ada"]]}
_TEXTLESS = {"references": [], "predictions": [[0, 1, "X"]]}
STRINGS_WITHOUT_TEXT = [
    pytest.param([_TEXTLESS, _STRINGS], ":1: found no 'text', which a file of string entities (line 2)", id="first"),
    pytest.param([_STRINGS, _TEXTLESS], ":2: found no 'text', which a file of string entities (line 1)", id="after"),
    pytest.param([_STRINGS, {**_STRINGS, "text": None}], ":2: found string entities and no 'text'", id="its-own"),
]


@pytest.mark.parametrize("chunk", [1, 2, 1 << 15], ids=["chunk-1", "chunk-2", "chunk-default"])
@pytest.mark.parametrize(("lines", "message"), STRINGS_WITHOUT_TEXT)
def test_a_line_without_text_in_a_file_of_string_entities_is_refused_however_it_is_chunked(
    lines: list[dict], message: str, chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setattr(file_counts, "_CLI_CHUNK_ENTITIES", chunk)
    path = tmp_path / "spans.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert cli.main(["--spans", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and f"{path}{message}" in captured.err, captured.err


# --conlleval wrote its report and its stops on sys.stdout.buffer and sys.stderr.buffer: an embedder's text stream
# without one (contextlib.redirect_stdout(io.StringIO()), a notebook's stream) raised AttributeError, a traceback.
# Now the bytes as text, a byte that is not UTF-8 kept as standard input's text keeps it (surrogateescape).
NO_BUFFER = [
    pytest.param(b"EU B-ORG B-ORG\n", "stdout", 0, "processed 1 tokens with 1 phrases", id="report"),
    pytest.param(b"EU B-\xe9 B-\xe9\n", "stdout", 0, "             \udce9: precision: 100.00%", id="latin-1-type"),
    pytest.param(b"EU B-ORG B-ORG\nx O\n", "stderr", 1, "unexpected number of features: 2 (3)\n", id="stop"),
]


@pytest.mark.parametrize(("data", "stream", "status", "expected"), NO_BUFFER)
def test_conlleval_writes_on_text_streams_without_a_buffer(
    data: bytes, stream: str, status: int, expected: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.conll"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert cli.main(["--conlleval", str(path)]) == status
    assert expected in {"stdout": out, "stderr": err}[stream].getvalue()


# A byte-order mark was dropped at a file's start only: files joined (cat a.conll b.conll | ner-semeval), the
# second saved with one, read its "-DOCSTART-" line as a token (3 tokens in 3 sentences, token accuracy 0.67,
# against 2 in 2 and 0.5 for the files given apart), its blank line as a line of 1 column, and its JSON lines
# refused ("Unexpected UTF-8 BOM"). Now a mark at any line's start is dropped: joined files read as without it.
_BOM = b"\xef\xbb\xbf"
JOINED_FILES = [
    pytest.param([], b"-DOCSTART- O O\n\nEU B-ORG B-ORG\n", b"-DOCSTART- O O\n\nBob B-PER O\n", id="docstart"),
    pytest.param([], b"EU B-ORG B-ORG\n", b"\nBob B-PER O\n", id="blank-line"),
    pytest.param(
        ["--by-document", "--bootstrap", "20"],
        b"EU B-ORG B-ORG\nAda B-PER O\n\n",
        b"-DOCSTART- O O\nBob B-PER O\n\nAnn B-PER B-PER\n",
        id="documents",
    ),
    pytest.param(["--spans", "-"], json.dumps(_STRINGS).encode() + b"\n", json.dumps(_STRINGS).encode(), id="json"),
]


@pytest.mark.parametrize(("flags", "first", "second"), JOINED_FILES)
def test_files_joined_read_alike_with_a_byte_order_mark_or_without(
    flags: list[str], first: bytes, second: bytes, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    results = []
    for joined in (first + second, first + _BOM + second):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(joined)))
        status = cli.main([*flags, "--json"])
        captured = capsys.readouterr()
        assert status == 0, captured.err
        results.append(json.loads(captured.out))
    assert results[1] == results[0]


# Output that cannot be written but for a closed pipe (a full disk: ENOSPC, /dev/full; an I/O error) was a
# traceback ending "OSError: [Errno 28] No space left on device", status 1. Now said on standard error, status 2.
class _FullDisk(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


UNWRITABLE = [
    pytest.param([], id="summary"),
    pytest.param(["--json"], id="json"),
    pytest.param(["--conlleval"], id="conlleval"),
    pytest.param(["agreement"], id="agreement"),
]


@pytest.mark.parametrize("flags", UNWRITABLE)
def test_output_that_cannot_be_written_is_said_not_a_traceback(
    flags: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "x.conll"
    path.write_text("EU B-ORG B-ORG\n", encoding="utf-8")
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", _FullDisk())
    monkeypatch.setattr(sys, "stderr", err)
    argv = [*flags, str(path)] if flags != ["agreement"] else ["agreement", str(path), str(path)]
    assert cli.main(argv) == 2
    assert err.getvalue() == "error: cannot write to standard output: [Errno 28] No space left on device\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_disk_ends_the_command_with_one_line_and_status_2(tmp_path: Path) -> None:
    path = tmp_path / "x.conll"
    path.write_text("EU B-ORG B-ORG\n", encoding="utf-8")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "nerscore", str(path)], stdout=full, stderr=subprocess.PIPE, text=True, cwd=REPO
        )
    assert (done.returncode, done.stderr) == (
        2,
        "error: cannot write to standard output: [Errno 28] No space left on device\n",
    )


# Standard output in an encoding that lacks a character printed (Windows' cp1252 for a file redirected, ascii):
# agreement's table of annotators named by their files raised UnicodeEncodeError, a traceback, status 1; the
# summary said "error: 'ascii' codec can't encode character '\xd6' in position 59", naming no cause. Now one line
# that names the encoding, the character and the fix, status 2.
ENCODINGS = [
    pytest.param(["agreement", "{Öa.conll}", "{Öb.conll}"], id="agreement-names"),
    pytest.param(["--per-type", "{Öa.conll}"], id="summary-types"),
]


@pytest.mark.parametrize("argv", ENCODINGS)
def test_an_output_encoding_without_a_character_printed_is_named(
    argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("Öa.conll", "Öb.conll"):
        (tmp_path / name).write_text("EU B-ÖRG B-ÖRG\n", encoding="utf-8")
    err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    monkeypatch.setattr(sys, "stderr", err)
    assert cli.main([str(tmp_path / a[1:-1]) if a.startswith("{") else a for a in argv]) == 2
    assert err.getvalue() == (
        "error: standard output's encoding, ascii, cannot write '\\xd6'; expected UTF-8 output: set "
        "PYTHONIOENCODING=utf-8 (or run python -X utf8)\n"
    )


# --confusion with an entity type "O" in a file (a tag B-O, a span of type "O") was refused when the matrix was
# built, after the whole file was read: "error: found entity type 'O', ..." naming no file, line or entity, where
# compute_semeval names the sentence and token. Now each chunk is checked as it is counted, at the file's line.
_O_TYPE = "found entity type 'O', which the confusion matrix cannot tell"
OUTSIDE_TYPES = [
    pytest.param(
        [], "EU B-ORG B-ORG\n\nrejects O O\nGerman B-MISC B-O\n", f":4: predicted (last) column: {_O_TYPE}", id="tag"
    ),
    pytest.param(
        ["--spans"],
        json.dumps({"text": "Ada met", "references": [[0, 3, "PER"]], "predictions": [[0, 3, "PER"], [4, 7, "O"]]}),
        f":1: predictions, entity 1: {_O_TYPE}",
        id="span",
    ),
    pytest.param(
        ["--spans"],
        "\n" + json.dumps({"text": "Ada met", "references": [["O", "Ada"]], "predictions": []}),
        f":2: references, entity 0: {_O_TYPE}",
        id="string",
    ),
]


@pytest.mark.parametrize(("flags", "content", "message"), OUTSIDE_TYPES)
def test_an_entity_type_o_with_confusion_is_named_at_its_line(
    flags: list[str], content: str, message: str, tmp_path: Path, capsys
) -> None:
    path = tmp_path / "x.txt"
    path.write_text(content + "\n", encoding="utf-8")
    assert cli.main(["--confusion", *flags, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"{path}{message}"), captured.err


# read_hipe read a file twice where it was not laid out with numpy (a byte not UTF-8, a line of too many values):
# a pipe (--hipe gold.tsv <(zcat system.tsv.gz)) was empty the second time, and the error was "the file is empty"
# for a file that was not. And a codec of no text (read_hipe(path, encoding="rot13")) raised LookupError.
_HIPE = "TOKEN\tNE-COARSE-LIT\n# document_id = d\nParis\tB-loc\n"
PIPED_HIPE = [
    pytest.param(
        b"TOKEN\tNE-COARSE-LIT\n# document_id = d\nP\xe9ris\tB-loc\n", ":3: byte 0xe9 is not utf-8", id="latin-1"
    ),
    pytest.param(
        b"TOKEN\tNE-COARSE-LIT\n# document_id = d\nParis\tB-loc\tO\n", ":3: 3 values where the header", id="values"
    ),
]


@pytest.mark.skipif(not os.path.exists("/dev/fd"), reason="no /dev/fd")
@pytest.mark.parametrize(("data", "message"), PIPED_HIPE)
def test_a_hipe_file_in_a_pipe_is_read_once(data: bytes, message: str, tmp_path: Path, capsys) -> None:
    gold = tmp_path / "gold.tsv"
    gold.write_text(_HIPE, encoding="utf-8")
    read, write = os.pipe()
    try:
        os.write(write, data)
        os.close(write)
        assert cli.main(["--hipe", str(gold), f"/dev/fd/{read}"]) == 2
    finally:
        os.close(read)
    assert message in capsys.readouterr().err


def test_a_codec_of_no_text_is_refused_as_an_unknown_one_is(tmp_path: Path) -> None:
    path = tmp_path / "gold.tsv"
    path.write_text(_HIPE, encoding="utf-8")
    with pytest.raises(ValueError, match=r"^encoding is 'rot13', a codec of no text; expected a codec such as"):
        read_hipe(path, encoding="rot13")
    assert [document.tokens for document in read_hipe(path, encoding="latin-1")] == [("Paris",)]
