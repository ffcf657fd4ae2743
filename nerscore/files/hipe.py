"""HIPE's TSV read (CLEF-HIPE-2020, HIPE-2022; docs/hipe.md): `read_hipe` and `parse_hipe` give a file's documents
(`nerscore.files.hipe_model.HipeDocument`, whose names this module also offers: `HipeDocument`, `HipeFileError`,
`align_hipe`, `HIPE_2020_TYPES`, ...).

A file is a header line naming the columns (the first is the token), then token lines, one value per column,
and `#` comment lines: `# key = value` (HIPE-2022: `# hipe2022:key = value`) carries a document's metadata,
`# document_id` starts a document and `# segment...` a segment. A malformed line is a `HipeFileError` (a
`ValueError`) naming the file, the line and the column.

The reader here (`_parse_text`, line by line) defines the format. A well-formed file is laid out with numpy
(`nerscore.files.hipe_arrays`) and its comments given to the same builder (`_parse_bytes`): the same documents,
faster (docs/hipe.md, "Speed"); any other file is read line by line.
"""

from __future__ import annotations

import bisect
import codecs
import os
import re
from collections.abc import Iterable, Mapping, Sequence

from ..errors import shown
from .hipe_arrays import ArrayColumns, ArrayTable, Layout, file_layout
from .hipe_model import (
    HIPE_2020_TYPES,
    NE_COLUMNS,
    NEL_COLUMNS,
    OUTSIDE,
    HipeColumns,
    HipeDocument,
    HipeFileError,
    align_hipe,
)
from .readers import checked_path, line_and_column

__all__ = [
    "HIPE_2020_TYPES",
    "NEL_COLUMNS",
    "NE_COLUMNS",
    "OUTSIDE",
    "HipeColumns",
    "HipeDocument",
    "HipeFileError",
    "align_hipe",
    "parse_hipe",
    "parse_hipe_bytes",
    "read_hipe",
]


def read_hipe(path: str | os.PathLike[str], encoding: str = "utf-8-sig") -> list[HipeDocument]:
    """The documents of a HIPE file, in file order (docs/hipe.md).

    Lines are split on tabs; blank lines (and the empty lines of CR-CR-LF endings) are skipped; a token line with
    fewer values than the header has `_` for the missing ones, as the HIPE scorer reads it, and one with more is
    an error (raised as the file is read, or where a document's tab count looks right, with a line of too few
    values too, when its columns are first read). A file without `# document` lines is one document (the
    scorer's reading of a flat response, which `align_hipe` then splits as the gold is split). A UTF-8 file is laid
    out with numpy where it can be, read alike (docs/hipe.md, "Speed")."""
    source = checked_path(path, "a HIPE TSV file")
    unknown = (
        f"encoding is {shown(encoding)}, which Python does not know; expected a codec such as 'utf-8' or 'latin-1'"
    )
    try:
        codec = codecs.lookup(encoding).name
    except (LookupError, TypeError):  # (neither a ValueError)
        raise ValueError(unknown) from None
    # Read once: a pipe (<(zcat system.tsv.gz)) read again is empty, and "the file is empty" named no fault.
    with open(source, "rb") as handle:
        raw = handle.read()
    if codec in ("utf-8", "utf-8-sig"):
        # A well-formed file is laid out with numpy (docs/hipe.md, "Speed"); any other is read line by line.
        documents = _parse_bytes(raw, source, codec == "utf-8-sig")
        if documents is not None:
            return documents
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError:
        raise undecodable(source, encoding, raw) from None
    except LookupError:  # a codec of no text ('rot13', 'hex')
        raise ValueError(unknown.replace("which Python does not know", "a codec of no text")) from None
    # Universal newlines, as open() reads text: lines end with "\n" alone.
    return _parse_text(text.replace("\r\n", "\n").replace("\r", "\n"), source)


def undecodable(source: str, encoding: str = "utf-8-sig", raw: bytes | None = None) -> HipeFileError:
    """The error of a file that is not `encoding` text, naming its line and byte (the decoder's own message names
    neither the file nor the line: it reads the file in chunks); `raw`, its bytes when read already."""
    if raw is None:
        with open(source, "rb") as handle:
            raw = handle.read()
    try:
        raw.decode(encoding)
    except UnicodeDecodeError as error:
        return _undecodable_at(raw, source, encoding, error)
    return HipeFileError(source, None, f"is not {encoding} text")


def _undecodable_at(raw: bytes, source: str, encoding: str, error: UnicodeDecodeError) -> HipeFileError:
    line, _ = line_and_column(raw, error.start)
    return HipeFileError(source, line, f"byte {raw[error.start]:#04x} is not {encoding}; expected {encoding} text")


def parse_hipe_bytes(raw: bytes, source: str) -> list[HipeDocument]:
    """`read_hipe` of a UTF-8 file's bytes already read (standard input's: ``--hipe -``)."""
    documents = _parse_bytes(raw, source, True)
    if documents is not None:
        return documents
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _undecodable_at(raw, source, "utf-8-sig", error) from None
    return _parse_text(text.replace("\r\n", "\n").replace("\r", "\n"), source)  # (universal newlines)


def read_lines(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a small text file beside a HIPE file (the scorer's tag set, its mapping of related links), as
    Python reads a UTF-8 text file: a byte-order mark dropped (read as part of the first line, it matched nothing,
    silently), and a byte that is not UTF-8 a `HipeFileError` naming the line (`undecodable`)."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.readlines()
    except UnicodeDecodeError:
        raise undecodable(os.fspath(path)) from None


def parse_hipe(lines: Iterable[str], source: str = "<hipe>") -> list[HipeDocument]:
    """`read_hipe` of lines already read (a file's, or a test's)."""
    return _parse_text("\n".join(line.rstrip("\r\n") for line in lines), source)


def _parse_bytes(data: bytes, source: str, bom: bool) -> list[HipeDocument] | None:
    """`read_hipe` of a file's bytes laid out by `file_layout`, None where it must be read line by line. The
    comments go to the reader's builder as `_parse_text` gives them, so documents, metadata and segments are the
    reader's; only the token lines' columns are split from the layout."""
    if data.startswith(codecs.BOM_UTF8):
        if not bom:
            return None
        data = data[len(codecs.BOM_UTF8) :]
    layout = file_layout(data)
    if layout is None:
        return None
    builder = _ArrayBuilder(source, layout)
    builder.read_header(*layout.header)
    if int(layout.tab_counts.max()) >= len(builder.header):
        return None  # a line of too many values: the reader's error
    numbers, tokens_before = layout.segment_numbers, layout.segment_tokens
    done = 0  # the `# segment` lines given to the builder
    for (number, tokens, text), segments in zip(
        [*layout.comments, (0, layout.count, "")], [*layout.segments_before.tolist(), len(numbers)]
    ):
        if segments > done:
            builder.segments(int(numbers[done]), (tokens_before[done:segments] - builder.base).tolist())
            done = segments
        builder.count = tokens - builder.base
        if number:
            builder.comment(number, text)
    return builder.finish()


# Where a line starts that is not a plain token line: a comment, or one that starts with white space (blank lines,
# every other line of a file of CR CR LF endings, are dropped from the runs of token lines they are in).
_SPECIAL_LINE = re.compile(r"\n(?=[#\t \r]|\Z)")


def _parse_text(text: str, source: str) -> list[HipeDocument]:
    """`parse_hipe` of the lines of `text` (separated by "\n"). Token lines come in runs between comments: each
    run is kept whole as text, found by one regular expression, and only the lines that start with `#` or white
    space (or are empty) are looked at one by one."""
    builder = _Builder(source)
    starts = [match.start() + 1 for match in _SPECIAL_LINE.finditer(text)]
    if text[:1] in ("#", "\t", " ", "\r"):
        starts.insert(0, 0)
    position = 0  # where the next run of token lines starts
    number = 1  # its line number
    for start in [*starts, len(text) + 1]:
        if position < start:
            run = text[position : start - 1]
            if not run or "\n\n" in run or run[0] == "\n" or run[-1] == "\n":  # blank lines in the run
                pieces = run.split("\n")
                numbered = [(number + index, piece) for index, piece in enumerate(pieces) if piece]
                number += len(pieces)
                if numbered and not builder.header:
                    builder.read_header(*numbered[0])
                    numbered = numbered[1:]
                if numbered:
                    builder.add_lines([piece for _, piece in numbered], [line for line, _ in numbered])
            else:
                lines = run.count("\n") + 1
                if not builder.header:
                    header, _, run = run.partition("\n")
                    builder.read_header(number, header)
                    number, lines = number + 1, lines - 1
                if lines:
                    builder.add_run(run, number, lines)
                number += lines
        if start > len(text):
            break
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        line = text[start:end]
        position = end + 1
        if line[:1] == "#":
            if not builder.header:
                raise HipeFileError(source, number, "the first line must be the header naming the columns")
            if line.startswith("# segment"):  # one a segment (CLEF-HIPE-2020): most comments, taken first
                builder.segment(number)
            else:
                builder.comment(number, line.split("\t", 1)[0].strip())
        elif line.strip("\t\r "):  # a token line without its token, an error when its document is read
            if not builder.header:
                builder.read_header(number, line)
            else:
                builder.untokened.append(number)
                builder.add_run(line, number, 1)
        number += 1
    return builder.finish()


def _is_document_key(key: str) -> bool:
    """Whether a comment's key starts a document (`# document_id`, HIPE-2022's `# hipe2022:document_id`)."""
    return key.removeprefix("hipe2022:").startswith("document")


class _Builder:
    """The reading state of one file: the header, the document being read (its token lines, read whole, and split
    into columns when it closes) and the comments since its last token."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.header: list[str] = []
        self.documents: list[HipeDocument] = []
        self.pending: dict[str, str] = {}  # the comments since the last token line
        self.pending_line = 0
        # Whether the file marks segments with `# segment` comments (CLEF-HIPE-2020); without any, a segment ends
        # at a token flagged EndOfSentence (HIPE-2022).
        self.segmented = False
        self.runs: list[str] = []  # the document's runs of token lines, each as one text
        self.count = 0  # its token lines
        self.numbers: list[int] = []  # and their line numbers
        self.untokened: list[int] = []  # the lines that start with white space (a token line without a token?)
        self._reset(0)

    def _reset(self, line: int) -> None:
        self.metadata: dict[str, str] = {}
        self.breaks: list[int] = []  # where segments start (token positions), from `# segment` comments
        self.runs.clear()
        self.count = 0
        self.numbers.clear()
        self.start = line
        self.seen = 0  # the tokens whose pending comments were settled
        # The line of the document's `# document` line (0 before it), the comments after it while it has no token
        # (the next document's, where another `# document` line follows), and whether one did (an empty document).
        self.document_line = 0
        self.since_document: dict[str, str] = {}
        self.replacing = False

    def add_run(self, run: str, number: int, lines: int) -> None:
        """`lines` token lines, joined by newlines in `run`, the first at line `number`."""
        self.runs.append(run)
        self.numbers.extend(range(number, number + lines))
        self.count += lines

    def add_lines(self, lines: list[str], numbers: list[int]) -> None:
        """Token lines and their line numbers."""
        self.runs.append("\n".join(lines))
        self.numbers.extend(numbers)
        self.count += len(lines)

    def read_header(self, number: int, line: str) -> None:
        # The header's names never hold a space: split on any run of white space, which also reads a header whose
        # tab was typed as spaces (a submitted run of CLEF-HIPE-2020 has one). A field between tabs that names
        # nothing is a column without a name, as the scorer's csv reader reads it (a file whose every line ends with
        # a tab was refused: "3 values where the header names 2 columns").
        self.header = [
            name
            for number, field in enumerate(line.split("\t"), 1)
            for name in (field.split() or [f"(column {number})"])
        ]
        if len(set(self.header)) < len(self.header):
            raise HipeFileError(self.source, number, f"a column is named twice in the header {self.header}")

    def segment(self, number: int) -> None:
        """A `# segment...` line: what `comment` does with it, without reading its key and value (a segment's
        comments are not the document's metadata)."""
        self.segments(number, [self.count])

    def segments(self, number: int, tokens: list[int]) -> None:
        """Consecutive `# segment` lines, the first at line `number`, with `tokens` the document's token lines
        before each (never fewer than before the last): what `segment` of each one by one would do."""
        if self.pending and tokens[-1] > self.seen:
            self.pending = {}  # comments between tokens of a document that no `# document` line followed
        self.seen = tokens[-1]
        if not tokens[0] and not self.start:
            self.start = number
        self.segmented = True
        breaks = self.breaks
        for count in tokens:
            if count and (not breaks or breaks[-1] < count):
                breaks.append(count)

    def comment(self, number: int, comment: str) -> None:
        key, _, value = comment.lstrip("#").strip().partition("=")
        key, value = key.strip(), value.strip()
        name = key.removeprefix("hipe2022:")
        if name.startswith("segment"):  # its own comments (its IIIF link) are not the document's metadata
            self.segment(number)
            return
        if self.pending and self.count > self.seen:
            self.pending = {}  # comments between tokens of a document that no `# document` line followed
        self.seen = self.count
        if not self.count and not self.start:
            self.start = number
        if name.startswith("document") and self.count:  # the HIPE scorer's start of a document after tokens
            pending, pending_line = self.pending, self.pending_line
            self._close()
            self.start = pending_line or number
            self.metadata.update(pending)
            self.pending = {}
        elif name.startswith("document") and self.document_line:
            # The document before has no token line (an empty one, which the scorer scores as nothing): its `#
            # document` line is dropped, and the comments since, the next document's whichever side of its id line
            # they are on (CLEF-HIPE-2020's date before it, HIPE-2022's after), are taken over the empty one's (the
            # next document's tokens had the empty one's id and date before).
            kept = {kept: value for kept, value in self.metadata.items() if not _is_document_key(kept)}
            self.metadata, self.replacing, self.start = kept | self.since_document, True, number
        if name.startswith("document"):
            self.document_line, self.since_document = number, {}
        elif key and self.document_line and not self.count:
            self.since_document.setdefault(key, value)
        if not key:
            return
        if self.count:
            if not self.pending:
                self.pending_line = number
            self.pending.setdefault(key, value)
        elif self.replacing:
            self.metadata[key] = value
        else:
            self.metadata.setdefault(key, value)

    def _columns(self) -> tuple[Mapping[str, tuple[str, ...]], tuple[int, ...]]:
        """The document's columns and its token lines' numbers."""
        width = len(self.header)
        text = "\n".join(self.runs)
        count = self.count
        numbers = tuple(self.numbers)
        source = self.source

        def check(lines: Sequence[str]) -> None:
            """Raise at the first line of more values than the header names."""
            for at, line in enumerate(lines):
                if line.count("\t") >= width:
                    found = line.count("\t") + 1
                    raise HipeFileError(source, numbers[at], f"{found} values where the header names {width} columns")

        # Each line has width - 1 tabs but where the total says otherwise: only then are the lines counted one by
        # one (a line of too many values then raises here; one of too many and one of too few, whose total looks
        # right, raise when a column is first read: `check`).
        if text.count("\t") == count * (width - 1):
            columns = HipeColumns(self.header, None, False, text=text, count=count, check=check)
        else:
            lines = text.split("\n")
            check(lines)
            columns = HipeColumns(self.header, lines, check=check)
        return columns, numbers

    def _close(self) -> None:
        count = self.count
        columns, numbers = self._columns()
        if self.untokened:
            tokens = columns[self.header[0]]
            # Each line's position found by bisection (`numbers` ascend): `numbers.index` of each line was
            # quadratic in a file of many lines that start with a space.
            for number in self.untokened:
                at = bisect.bisect_left(numbers, number)
                if at < len(numbers) and numbers[at] == number and not tokens[at].strip():
                    raise HipeFileError(self.source, number, "a token line without a token", self.header[0])
            self.untokened.clear()
        breaks = self.breaks
        if not self.segmented and "MISC" in columns:
            breaks = [index + 1 for index, misc in enumerate(columns["MISC"]) if "EndOfSentence" in misc.split("|")]
        starts = tuple(sorted({0, *breaks} - {count}))
        doc_id = self.metadata.get("document_id", self.metadata.get("hipe2022:document_id")) or None
        self.documents.append(
            HipeDocument(
                doc_id,
                dict(self.metadata),
                starts,
                columns,
                numbers,
                self.source,
                self.start or numbers[0],
                self.header[0],
            )
        )
        self._reset(0)

    def finish(self) -> list[HipeDocument]:
        if not self.header:
            raise HipeFileError(self.source, None, "the file is empty (a HIPE file starts with its header)")
        if self.count:
            self._close()
        if not self.documents:  # (scored, it was "<gold>: the gold has no tokens", naming no file)
            problem = "has no token line after its header (nothing to score); expected a line a token"
            raise HipeFileError(self.source, None, problem)
        return self.documents


class _ArrayBuilder(_Builder):
    """The builder of a laid-out file: its token lines are counted (`count`, set before each comment, from `base`,
    the file's token lines before the document) and its columns split from the layout."""

    def __init__(self, source: str, layout: Layout) -> None:
        super().__init__(source)
        self.layout = layout
        self.base = 0
        self.table: ArrayTable | None = None

    def _columns(self) -> tuple[Mapping[str, tuple[str, ...]], tuple[int, ...]]:
        if self.table is None:
            self.table = ArrayTable(self.layout, tuple(self.header))
        end = self.base + self.count
        return ArrayColumns(self.table, self.base, end), tuple(self.layout.numbers[self.base : end].tolist())

    def _close(self) -> None:
        count = self.count
        super()._close()
        self.base += count
