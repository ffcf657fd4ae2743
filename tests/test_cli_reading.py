"""How the command line reads a CoNLL file's bytes (`nerscore.files.file_counts.text_blocks`): a binary file a
block at a time, decoded at once, read as its lines one by one were (`readers.text_lines`): the same lines, the same
byte-order marks dropped, the same error at the same line and column, after the same lines before it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import nerscore
from nerscore import cli
from nerscore.accumulator import Accumulator
from nerscore.files import file_counts
from nerscore.files.file_counts import count_tag_file, text_blocks
from nerscore.files.readers import ConllError, text_lines
from nerscore.options import Options

BOM = b"\xef\xbb\xbf"


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 7 bytes: every case's lines cross blocks, and a line longer than a block is a line of pieces."""
    monkeypatch.setattr(file_counts, "_BLOCK_BYTES", 7)


def read(blocks: Iterator[list[str]]) -> tuple[list[str], str | None]:
    """The lines given, and the error (its message) raised after them, if any."""
    lines: list[str] = []
    try:
        for block in blocks:
            lines += block
    except ConllError as error:
        return lines, str(error)
    return lines, None


def one_by_one(data: bytes) -> tuple[list[str], str | None]:
    """`text_lines` of the file's lines (split as a binary file iterates: at b"\\n" alone), each without its \\n."""
    lines: list[str] = []
    try:
        for line in text_lines(list(io.BytesIO(data)), "f.conll"):
            lines.append(line.removesuffix("\n"))
    except ConllError as error:
        return lines, str(error)
    return lines, None


# Named cases: (bytes of the file, its lines as text, the error after them).
CASES = {
    "lines-crossing-blocks": (b"w B-PER I-PER\nw O O\n\nx O O\n", ["w B-PER I-PER", "w O O", "", "x O O"], None),
    "last-line-without-newline": (b"w O O\nx O O", ["w O O", "x O O"], None),
    "line-longer-than-blocks": (b"w" * 40 + b" O O\n", ["w" * 40 + " O O"], None),
    "bom-first": (BOM + b"w O O\n", ["w O O"], None),
    "bom-at-a-block-start": (b"w O O\n" + BOM + b"x O\n", ["w O O", "x O"], None),  # 6 bytes, then the mark
    "bom-on-every-line-once": (BOM + BOM + b"a\n" + BOM + b"b\n", ["\ufeffa", "b"], None),
    "cr-lf": (b"w O O\r\n\r\n", ["w O O\r", "\r"], None),
    "cr-within-a-line": (b"a\rb c\n", ["a\rb c"], None),
    "bad-byte-after-lines": (
        b"w O O\nx O O\nw \xff O\ny O O\n",
        ["w O O", "x O O"],
        "f.conll:3: byte 0xff at column 3",
    ),
    "bad-byte-after-a-bom": (BOM + b"a\n" + BOM + b"\xffb\n", ["a"], "f.conll:2: byte 0xff at column 1"),
    "cut-character-at-line-end": (b"a\nw B-\xe2\x82\n", ["a"], "f.conll:2: byte 0xe2 at column 5"),
    "bad-byte-on-a-last-line-without-newline": (b"a\nb\xff", ["a"], "f.conll:2: byte 0xff at column 2"),
}


@pytest.mark.parametrize(("data", "lines", "error"), CASES.values(), ids=CASES.keys())
@pytest.mark.usefixtures("small_blocks")
def test_blocks_read_a_file_as_its_lines_one_by_one(data: bytes, lines: list[str], error: str | None) -> None:
    found, raised = read(text_blocks(io.BytesIO(data), "f.conll"))
    assert found == lines
    assert (raised is None) if error is None else (raised is not None and raised.startswith(error)), raised
    assert (found, raised) == one_by_one(data)


@pytest.mark.parametrize("size", [1, 7, 1 << 17])
@given(
    st.lists(
        st.sampled_from([b"w O O", b"", b"  ", BOM + b"x B-A I-A", b"y\xe2\x80\xa8 O", b"\xff", b"z O O\r", BOM]),
        max_size=12,
    ),
    st.booleans(),
)
def test_blocks_of_any_size_read_the_lines_one_by_one_read(size: int, lines: list[bytes], ended: bool) -> None:
    data = b"\n".join(lines) + b"\n" * ended
    file_counts_size = file_counts._BLOCK_BYTES
    file_counts._BLOCK_BYTES = size
    try:
        assert read(text_blocks(io.BytesIO(data), "f.conll")) == one_by_one(data)
    finally:
        file_counts._BLOCK_BYTES = file_counts_size


@pytest.mark.usefixtures("small_blocks")
def test_a_bad_tag_before_a_bad_byte_is_the_error_as_it_was() -> None:
    # The chunk is counted once read: the reader's error comes first, as line by line (a bad tag, line 1, is only
    # found by the count).
    data = b"w B-X Z-X\n\nx \xff O\n"
    expected = "f.conll:3: byte 0xff at column 3"
    for handle in (io.BytesIO(data), list(io.BytesIO(data))):
        with pytest.raises(ConllError, match=expected):
            count_tag_file(handle, "f.conll", Accumulator(Options.of()), 0, False)


@pytest.mark.parametrize("flags", [["--per-type"], ["--by-document", "--bootstrap", "20", "--json"], ["--errors", "2"]])
@pytest.mark.usefixtures("small_blocks")
def test_a_file_read_in_blocks_prints_what_its_lines_print(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, flags: list[str]
) -> None:
    text = "".join(f"w{i} B-PER {'I-PER' if i % 3 else 'O'}\n" + "\n-DOCSTART-\n" * (i % 9 == 0) for i in range(90))
    path = tmp_path / "f.conll"
    path.write_bytes(BOM + text.encode())
    assert cli.main([*flags, str(path)]) == 0
    in_blocks = capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("\ufeff" + text))  # a text stream: its lines one by one
    assert cli.main([*flags, "-"]) == 0
    assert capsys.readouterr() == in_blocks
    assert "processed 90 tokens in 11 sentences" in in_blocks.out or "--json" in flags


def _failing_lines() -> Iterator[str]:
    yield from ["w O O\n", "\n", "x B-A B-A\n", "\n"]
    raise OSError("the disk")


# read_conll takes lines in blocks (`readers.line_blocks`): the sentences before a line that is not a str, or before
# the lines' own iterator fails, are still given first, as line by line.
RAISING_LINES = {
    "a-line-of-bytes": (lambda: ["w O O\n", "\n", "x B-A B-A\n", "\n", b"y O O\n"], ConllError),
    "an-iterator-that-fails": (_failing_lines, OSError),
}


@pytest.mark.parametrize(("lines", "error"), RAISING_LINES.values(), ids=RAISING_LINES.keys())
def test_lines_are_read_up_to_the_line_that_raises(lines: Any, error: type[Exception]) -> None:
    sentences = nerscore.read_conll(lines(), "f.conll")
    assert [next(sentences).tokens, next(sentences).tokens] == [["w"], ["x"]]
    with pytest.raises(error):
        next(sentences)


# A sentence's columns (`readers.split_columns`): lines of one width at once, of several widths line by line.
WIDTHS = {
    "one-width": (["a B-A O\n", "b I-A O\n"], (["a", "b"], ["B-A", "I-A"], ["O", "O"])),
    "several-widths": (
        ["a x B-A B-A\n", "b O O\n", "c y z O I-A\n"],
        (["a", "b", "c"], ["B-A", "O", "O"], ["B-A", "O", "I-A"]),
    ),
}


@pytest.mark.parametrize(("lines", "columns"), WIDTHS.values(), ids=WIDTHS.keys())
def test_a_sentence_is_its_first_column_and_its_last_two(lines: list[str], columns: tuple[list[str], ...]) -> None:
    (sentence,) = nerscore.read_conll(lines)
    assert (sentence.tokens, sentence.references, sentence.predictions) == columns
    handle = io.BytesIO("".join(lines).encode())
    (counted,) = file_counts._sentences(handle, "f.conll", None)
    assert (counted.tokens, counted.references, counted.predictions) == tuple(map(tuple, columns))
