"""HIPE files laid out with numpy (`nerscore.files.hipe_arrays`, docs/hipe.md "Speed") read exactly as the
line-by-line reader reads them: the same documents (ids, metadata, segments, line numbers, every column's values,
the entities decoded from them, the scores), and for a file the array path leaves to the reader, the same error.
Files are generated here, well-formed and subtly not (never the shared task data)."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import nerscore
from nerscore.files import hipe
from nerscore.files.hipe import HipeDocument, align_hipe, read_hipe
from nerscore.files.hipe_arrays import ArrayColumns, file_layout
from nerscore.files.hipe_tags import hipe_spans

HEADER = "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNEL-LIT\tMISC"
WIDTH = len(HEADER.split("\t"))


@contextlib.contextmanager
def line_by_line() -> Iterator[None]:
    """`read_hipe` without its array path: the reader that defines the format (benchmarks/hipe2020.py reads and
    times it through this one copy)."""
    kept = hipe._parse_bytes
    hipe._parse_bytes = lambda data, source, bom: None  # type: ignore[assignment]
    try:
        yield
    finally:
        hipe._parse_bytes = kept  # type: ignore[assignment]


def described(documents: Sequence[HipeDocument]) -> list[tuple[object, ...]]:
    """Everything a document holds, each column read, and its NE-COARSE-LIT entities where it has them."""
    found = []
    for d in documents:
        entities: object = None
        if "NE-COARSE-LIT" in d.columns:
            try:
                entities = hipe_spans(d, "NE-COARSE-LIT")
            except ValueError as error:
                entities = (type(error), str(error))
        columns = dict(d.columns)
        found.append((d.id, dict(d.metadata), d.segment_starts, d.lines, d.source, d.line, d.token_column, columns))
        found.append((entities, d.segments, d.flags, d.noise, d.date))
    return found


def outcome(read: object) -> object:
    """What a reading gives: its documents described, or its error (type and message)."""
    try:
        return described(read())  # type: ignore[operator]
    except (ValueError, UnicodeDecodeError) as error:
        return (type(error).__name__, str(error))


def both(path: Path, encoding: str = "utf-8-sig") -> tuple[object, object]:
    with line_by_line():
        expected = outcome(lambda: read_hipe(path, encoding))
    return outcome(lambda: read_hipe(path, encoding)), expected


def laid_out(data: bytes) -> bool:
    return hipe._parse_bytes(data, "<test>", True) is not None


# Generated files: lines of a few kinds, values from a small alphabet (tags, links, flags, non-ASCII text, empty
# and white space), any line ending, sometimes a BOM, a line of too few or too many values, a bad byte.
VALUES = st.sampled_from(["O", "_", "B-loc", "I-loc", "B-pers", "I-pers", "S-org", "E-org", "b-loc", "Q60", "NIL",
                          "New", "Zürich", "“", "x y", "", " ", "LED0.25", "EndOfSentence", "NoSpaceAfter|LED1.0",
                          "#", "B-time.date.abs", "I-loc.adm.town"])  # fmt: skip
COMMENTS = st.sampled_from(["# document_id = d1", "# segment_iiif_link = https://e.org/2", "# document_id = d2",
                            "# hipe2022:document_id = h1",
                            "# segment_iiif_link = https://e.org/1", "# segment", "# segment_iiif_link\t_\t_",
                            "# date = 1790-01-02", "# hipe2022:date = 1850-06-30", "# language = en", "#", "#x",
                            "# key=value\tmore", "## document_id = d3", "#\tdocument_id = d4", "# =",
                            "# é = ü"])  # fmt: skip


def token_line(width: int) -> st.SearchStrategy[str]:
    count = st.integers(1, width + 1).flatmap(lambda n: st.lists(VALUES, min_size=n, max_size=n))
    return count.map("\t".join)


WELL_FORMED = st.lists(VALUES.filter(lambda value: value.strip() != ""), min_size=WIDTH, max_size=WIDTH).map("\t".join)
TOKENS = VALUES.filter(lambda value: value.strip() != "")
# A token and up to all the other values (`_` for the missing ones).
SHORT = st.tuples(TOKENS, st.lists(VALUES, max_size=WIDTH - 1)).map(lambda line: "\t".join([line[0], *line[1]]))
BLANK = st.sampled_from(["", "\t\t", "  ", " \t"])
# No token, or too many values.
BAD = st.sampled_from(["\t x", " x\tO", " # document_id = d5", "\t".join(["x"] * (WIDTH + 1))])
ENDINGS = st.sampled_from(["\n", "\r\n", "\r", "\r\r\n"])


def blocks(token: st.SearchStrategy[str], comment: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    """Lines in blocks, as files have them: a few comments, then a few token lines (sometimes none)."""
    block = st.tuples(st.lists(comment, max_size=3), st.lists(token, max_size=3))
    return st.lists(block, max_size=8).map(lambda found: [line for c, t in found for line in [*c, *t]])


@st.composite
def hipe_bytes(draw: st.DrawFn, regular: bool = False) -> bytes:
    """A file's bytes; `regular`: one the array path must lay out (well-formed, LF or CR LF, maybe a BOM)."""
    if regular:
        comment = st.one_of(COMMENTS.filter(lambda c: c.startswith("#")), st.just(""))
        lines = [HEADER, *draw(blocks(WELL_FORMED, comment)), "\t".join(["tok"] * WIDTH)]
        ending = draw(st.sampled_from(["\n", "\r\n"]))
        text = ending.join(lines) + draw(st.sampled_from(["", ending]))
        return draw(st.sampled_from([b"", b"\xef\xbb\xbf"])) + text.encode("utf-8")
    odd_headers = [HEADER.replace("\t", " "), "TOKEN", "", "# document_id = x", "A\tA"]
    header = draw(st.sampled_from([HEADER] * 15 + odd_headers))
    lines = [header, *draw(blocks(st.one_of(WELL_FORMED, WELL_FORMED, SHORT, BLANK), COMMENTS)), draw(SHORT)]
    if draw(st.sampled_from([False] * 4 + [True])):  # one irregular line somewhere
        lines.insert(draw(st.integers(0, len(lines))), draw(BAD))
    endings = draw(st.lists(ENDINGS, min_size=len(lines), max_size=len(lines)))
    if draw(st.booleans()):
        endings = [endings[0]] * len(lines)  # one kind of ending, as most files have
    text = "".join(line + ending for line, ending in zip(lines, endings))
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    data = draw(st.sampled_from([b"", b"", b"\xef\xbb\xbf"])) + text.encode("utf-8")
    if draw(st.sampled_from([False] * 19 + [True])):  # (integers(0, 19) == 0 would be drawn far more often)
        at = draw(st.integers(0, len(data)))
        data = data[:at] + b"\xff" + data[at:]
    return data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hipe_bytes())
def test_any_file_reads_as_the_reader_reads_it(tmp_path: Path, data: bytes) -> None:
    try:
        event("laid out" if laid_out(data) else "read line by line")
    except ValueError:
        event("an error")
    path = tmp_path / "file.tsv"
    path.write_bytes(data)
    fast, expected = both(path)
    assert fast == expected


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hipe_bytes())
def test_many_files_read_as_the_reader_reads_them(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "file.tsv"
    path.write_bytes(data)
    fast, expected = both(path)
    assert fast == expected


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=hipe_bytes(regular=True))
def test_a_well_formed_file_is_laid_out_and_reads_alike(tmp_path: Path, data: bytes) -> None:
    assert laid_out(data)  # so that the comparison is of the two readings, not of the reader with itself
    path = tmp_path / "file.tsv"
    path.write_bytes(data)
    fast, expected = both(path)
    assert fast == expected


GOLD = [
    HEADER,
    "# document_id = a",
    "# segment_iiif_link = 1",
    "NEW\tB-loc\tO\tQ60\tNoSpaceAfter",
    "YORK\tI-loc\tO\tQ60\t_",
    "# segment_iiif_link = 2",
    "Mr\tB-pers\tO\tNIL\tEndOfLine",
    "",
    "# document_id = b",
    "Boston\tB-loc\tB-org\tQ100\t_",
    "said\tO",  # a line of too few values: `_` for the others
]


@pytest.mark.parametrize(
    ("name", "data", "laid"),
    [
        ("LF", "\n".join(GOLD).encode(), True),
        ("CR LF and a final end of line", ("\r\n".join(GOLD) + "\r\n").encode(), True),
        ("CR CR LF (a blank line after each)", "\r\r\n".join(GOLD).encode(), True),
        ("CR alone", "\r".join(GOLD).encode(), True),
        ("a BOM", b"\xef\xbb\xbf" + "\n".join(GOLD).encode(), True),
        ("white space only lines", "\n".join([*GOLD[:4], "\t\t ", *GOLD[4:]]).encode(), True),
        ("a token line without its token", "\n".join([*GOLD[:4], "\tB-loc", *GOLD[4:]]).encode(), False),
        ("a line of too many values", "\n".join([*GOLD, "x\tO\tO\tO\tO\tO"]).encode(), False),
        ("a comment before the header", "\n".join(["# document_id = z", *GOLD]).encode(), False),
        ("a blank line before the header", "\n".join(["", *GOLD]).encode(), True),
        ("bytes that are not UTF-8", "\n".join(GOLD).encode() + b"\xff", False),
        ("a header only", HEADER.encode(), False),
        ("empty", b"", False),
    ],
)
def test_named_files(tmp_path: Path, name: str, data: bytes, laid: bool) -> None:
    assert laid_out(data) == laid, name
    path = tmp_path / "file.tsv"
    path.write_bytes(data)
    fast, expected = both(path)
    assert fast == expected, name


def test_a_bom_is_kept_by_the_utf_8_codec_and_other_codecs_read_line_by_line(tmp_path: Path) -> None:
    path = tmp_path / "file.tsv"
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(GOLD).encode())
    for encoding in ("utf-8", "utf-8-sig", "latin-1", "utf8"):
        fast, expected = both(path, encoding)
        assert fast == expected, encoding
    assert read_hipe(path, "utf-8")[0].columns.__iter__().__next__() == "\ufeffTOKEN"


def test_the_columns_are_laid_out_and_slice_for_a_flat_response(tmp_path: Path) -> None:
    gold_path, flat_path = tmp_path / "gold.tsv", tmp_path / "flat.tsv"
    gold_path.write_text("\n".join(GOLD) + "\n", encoding="utf-8")
    flat = [line for line in GOLD if not line.startswith("#")]
    flat_path.write_text("\n".join(flat).replace("B-pers", "B-loc") + "\n", encoding="utf-8")
    documents = read_hipe(flat_path)
    assert isinstance(documents[0].columns, ArrayColumns)
    aligned = align_hipe(read_hipe(gold_path), documents)
    with line_by_line():
        expected = align_hipe(read_hipe(gold_path), read_hipe(flat_path))
    assert described(aligned) == described(expected)
    assert [d.columns["NE-COARSE-LIT"] for d in aligned] == [("B-loc", "I-loc", "B-loc"), ("B-loc", "O")]


def test_the_layout_names_the_lines(tmp_path: Path) -> None:
    layout = file_layout("\n".join(GOLD).encode())
    assert layout is not None
    assert layout.header == (1, HEADER)
    assert layout.comments == [(2, 0, "# document_id = a"), (9, 3, "# document_id = b")]
    assert layout.segment_numbers.tolist() == [3, 6]
    assert layout.numbers.tolist() == [4, 5, 7, 10, 11]
    assert layout.tab_counts.tolist() == [4, 4, 4, 4, 1]


def test_the_command_line_scores_alike(tmp_path: Path) -> None:
    gold_path, run_path = tmp_path / "gold.tsv", tmp_path / "run.tsv"
    gold_path.write_text("\n".join(GOLD) + "\n", encoding="utf-8")
    run_path.write_bytes(("\r\n".join(GOLD).replace("I-loc", "O") + "\r\n").encode())
    printed = []
    for reading in (contextlib.nullcontext(), line_by_line()):
        sink = io.StringIO()
        with reading, contextlib.redirect_stdout(sink):
            nerscore.main(["--hipe", str(gold_path), str(run_path), "--json"])
        printed.append(json.loads(sink.getvalue()))
    assert printed[0] == printed[1]
    assert printed[0]["strict_f1"] < 1  # the run differs: a comparison of results that can fail


# Every file of up to six lines of these kinds after a header: the comments' order against the tokens (which
# document a comment belongs to, where segments start, which comments are kept as metadata) read alike.
KINDS = ("x\tB-loc", "# segment_iiif_link = 1", "# language = en", "# document_id = d")


def test_every_short_file_of_tokens_and_comments_reads_alike() -> None:
    compared = 0
    for length in range(1, 7):
        for kinds in itertools.product(KINDS, repeat=length):
            text = "\n".join(["TOKEN\tNE-COARSE-LIT", *kinds])
            fast = hipe._parse_bytes(text.encode(), "<test>", True)
            if KINDS[0] not in kinds:
                assert fast is None  # no token lines: left to the reader
                continue
            assert fast is not None
            assert described(fast) == described(hipe._parse_text(text, "<test>")), kinds
            compared += 1
    assert compared > 4000


def test_comments_left_between_tokens_by_segments_are_not_metadata() -> None:
    lines = ["TOKEN\tNE-COARSE-LIT", "# document_id = a", "x\tO", "# language = en", "# segment_iiif_link = 1"]
    text = "\n".join([*lines, "y\tO", "# segment_iiif_link = 2", "# document_id = b", "z\tO"])
    fast = hipe._parse_bytes(text.encode(), "<test>", True)
    assert fast is not None
    assert described(fast) == described(hipe._parse_text(text, "<test>"))
    assert [d.metadata for d in fast] == [{"document_id": "a"}, {"document_id": "b"}]
