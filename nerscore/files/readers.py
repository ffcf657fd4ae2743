"""Readers of the files the command line and the Space take: CoNLL columns (one system, or two side by side) and
JSON lines of spans. Each yields as it reads, and a malformed line is a `ConllError` naming the file and the line.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import itemgetter
from typing import Any, BinaryIO, ClassVar, NamedTuple

from ..errors import is_collection, shown


@dataclass(frozen=True)
class OtherFormat:
    """The format a reader found instead of its own (a JSON object where CoNLL columns go ...): `name` (one of
    SPANS, CONLL, LABEL_STUDIO, HIPE), `found` (how the message describes what was found: ``JSON lines``, ``a
    Label Studio export, a JSON list``) and whether the command line's words give its flag's `operands`
    (``--label-studio FILE.json``). Each front end says how it reads the format: the command line by its flag
    (`command_line`, the words of `ConllError`'s message), the Space by its task (space/parsing.py)."""

    SPANS: ClassVar[str] = "spans"
    CONLL: ClassVar[str] = "conll"
    LABEL_STUDIO: ClassVar[str] = "label-studio"
    HIPE: ClassVar[str] = "hipe"

    name: str
    found: str
    operands: bool = False

    def command_line(self) -> str:
        """How the command line reads this format: its flag (``--hipe GOLD SYSTEM``), or ``leave out --spans``."""
        flag, operands = _COMMAND_LINE_READS[self.name]
        return f"{flag} {operands}" if self.operands and operands else flag


# What the command line does with each format: its flag (or leaving one out), and the flag's operands.
_COMMAND_LINE_READS = {
    OtherFormat.SPANS: ("--spans", ""),
    OtherFormat.CONLL: ("leave out --spans", ""),
    OtherFormat.LABEL_STUDIO: ("--label-studio", "FILE.json"),
    OtherFormat.HIPE: ("--hipe", "GOLD SYSTEM"),
}


class ConllError(ValueError):
    """A malformed line of a CoNLL (or JSON lines, or annotation) file: `source` (file name), `line` (1-based)
    and `problem` as attributes; `line` is None for a problem of a whole file (a BRAT file without its pair).

    ``other_format`` names the format the file is when a reader can tell it was given another (an `OtherFormat`):
    the problem says how the command line reads it, between the problem given and `rest` (``found a JSON object,
    not CoNLL columns (JSON lines: --spans); expected ...``), and `worded` says it in a front end's own terms."""

    def __init__(
        self, source: str, line: int | None, problem: str, other_format: OtherFormat | None = None, rest: str = ""
    ) -> None:
        self.source = source
        self.line = line
        self.other_format = other_format
        self._parts = (problem, rest)
        self.problem = self.worded(OtherFormat.command_line)
        super().__init__(f"{source}: {self.problem}" if line is None else f"{source}:{line}: {self.problem}")

    def worded(self, reading: Callable[[OtherFormat], str]) -> str:
        """The problem with the other format found (if any) read as `reading` says: the page names its task."""
        problem, rest = self._parts
        if self.other_format is None:
            return problem + rest
        return f"{problem} ({self.other_format.found}: {reading(self.other_format)}){rest}"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its message and attributes, as a process pool sends a worker's error back: an exception's own
        # pickling calls __init__ with the message alone, which this one's arguments refuse (TypeError on loading).
        return _unpickled_error, (type(self), self.args), self.__dict__


def _unpickled_error(kind: type[ConllError], args: tuple[Any, ...]) -> ConllError:
    """A pickled `ConllError` (or subclass) with its message, before its attributes are set again."""
    return kind.__new__(kind, *args)


def print_error(error: Exception, where: str = "", folder: str = "") -> int:
    """A command's error on standard error (a `ConllError` names its file and line, any other starts ``error:``;
    `where` follows it: the file and line of the sentence it names; `folder`, where a folder was read as a file,
    how the command reads folders, given where one means something: none for a HIPE file or a tag set) and its
    exit status, 2."""
    hint = folder if isinstance(error, IsADirectoryError) else ""
    print(f"{error}{where}" if isinstance(error, ConllError) else f"error: {error}{hint}{where}", file=sys.stderr)
    return 2


def print_output(write: Callable[[], object]) -> int:
    """A command's output: `write()` on standard output, flushed, and the exit status 0. A reader that closed the
    pipe (`ner-semeval FILE | head`) has seen enough: standard output then goes to os.devnull, so that Python's
    own flush at exit does not report the closed pipe ("Exception ignored", exit status 120). Output that cannot be
    written otherwise (a full disk, ENOSPC; an I/O error) is said on standard error, status 2, not a traceback."""
    try:
        write()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except UnicodeEncodeError as error:  # (a type's name the stream's encoding lacks: Windows' cp1252, ascii)
        found = ascii(error.object[error.start : error.end])
        print(
            f"error: standard output's encoding, {error.encoding}, cannot write {found}; expected UTF-8 output: set "
            "PYTHONIOENCODING=utf-8 (or run python -X utf8)",
            file=sys.stderr,
        )
        return 2
    except OSError as error:
        with contextlib.suppress(OSError, ValueError):  # (what is left unwritten goes nowhere at exit)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        print(f"error: cannot write to standard output: {error}", file=sys.stderr)
        return 2
    return 0


def checked_path(path: Any, expected: str) -> str:
    """A reader's path as a `str` (bytes and `os.PathLike` too); None, a number or an open file is a ValueError
    saying what was found and what `expected` is (`os.fspath`'s TypeError names neither the argument nor a fix)."""
    if isinstance(path, (str, bytes, os.PathLike)):
        return os.fsdecode(os.fspath(path))
    raise ValueError(f"found {type(path).__name__} {shown(path, 60)}; expected {expected} (a str or os.PathLike path)")


def checked_lines(lines: Any, reader: str) -> Iterable[str]:
    """A line reader's `lines`: a str or bytes would be read a character at a time (a path given where lines go
    reads as a file of one-letter lines), None or a number not at all."""
    if isinstance(lines, os.PathLike) or not is_collection(lines):
        raise ValueError(
            f"found {type(lines).__name__} {shown(lines, 60)}; expected lines, such as an open text file or a list of "
            f"strings: {reader}(open(path, encoding='utf-8')), or text.splitlines() for a file's text"
        )
    return lines


def line_text(line: Any, source: str, number: int) -> str:
    """A line of `lines` that is a str; anything else (a binary file's bytes, None, a list) a `ConllError` naming
    it, where `str.split` would raise AttributeError."""
    if isinstance(line, str):
        return line
    binary = "; open the file in text mode, open(path, encoding='utf-8')" if isinstance(line, bytes) else ""
    raise ConllError(source, number, f"found {type(line).__name__} {shown(line, 60)}; expected a line of text{binary}")


class ConllSentence(NamedTuple):
    """One sentence of a CoNLL file: the first column, the second-last and the last, and each token's line;
    lists from `read_conll`, tuples and a range where the command line counts a file (what it holds at a time: the
    garbage collector stops tracking tuples of strings, and traversed lists at every collection)."""

    tokens: Sequence[str]
    references: Sequence[str]
    predictions: Sequence[str]
    lines: Sequence[int]


class TwoSystemSentence(NamedTuple):
    """One sentence of two systems' output in one file: the first column, then the last three (the reference
    tag, system A's and system B's), and each token's line."""

    tokens: list[str]
    references: list[str]
    predictions_a: list[str]
    predictions_b: list[str]
    lines: list[int]


def read_conll(
    lines: Iterable[str], source: str = "<stdin>", documents: list[int] | None = None
) -> Iterator[ConllSentence]:
    """The sentences of a CoNLL file, read lazily: the first column is the token, the last two the reference
    and the predicted tag; a blank line ends a sentence and ``-DOCSTART-`` lines are skipped. Raises
    `ConllError` (a `ValueError`) naming `source` and the line of a malformed line. A `documents` list given
    receives each sentence's document as the sentence is read: the number of ``-DOCSTART-`` lines before it
    (sentences before the first one form document 0)."""
    blocks = line_blocks(checked_lines(lines, "read_conll"), source)
    for rows, numbers in conll_block_rows(blocks, source, 2, CONLL_COLUMNS, documents):
        tokens, references, predictions = split_columns(rows, 2)
        yield ConllSentence(tokens, references, predictions, list(numbers))


# What a line of one system's CoNLL file holds, as its readers' errors end.
CONLL_COLUMNS = (
    "expected at least 3 columns, separated by spaces or tabs: the token, the reference tag and the predicted tag last"
)


def read_two_systems(
    lines: Iterable[str], source: str = "<stdin>", column_hint: str = "", documents: list[int] | None = None
) -> Iterator[TwoSystemSentence]:
    """The sentences of CoNLL text with two systems' tags, read as `read_conll` reads one system's: the first
    column is the token, the last three the reference tag, system A's and system B's (columns between are
    ignored). A line of fewer than four columns is a `ConllError`, its problem ending in `column_hint` (where the
    caller can say how to read three columns instead). `documents` as in `read_conll`."""
    expected = (
        "comparing two systems takes at least 4 columns: the token first, then the reference tag, system A's tag "
        f"and system B's tag last{column_hint}"
    )
    for rows, numbers in conll_rows(checked_lines(lines, "read_two_systems"), source, 3, expected, documents):
        tokens, references, predictions_a, predictions_b = split_columns(rows, 3)
        yield TwoSystemSentence(tokens, references, predictions_a, predictions_b, numbers)


def conll_rows(
    lines: Iterable[str], source: str, tag_columns: int = 0, expected: str = "", documents: list[int] | None = None
) -> Iterator[tuple[list[list[str]], list[int]]]:
    """The one CoNLL reader: each sentence's lines split into columns, and their line numbers. A blank line ends
    a sentence and ``-DOCSTART-`` lines are skipped; a line of `tag_columns` columns or fewer is a `ConllError`
    ending in `expected`; each sentence's document number goes into `documents` (when given) before it is
    yielded."""
    for rows, numbers in conll_block_rows(line_blocks(lines, source), source, tag_columns, expected, documents):
        yield rows, list(numbers)


def line_blocks(lines: Iterable[str], source: str, size: int = 1 << 12) -> Iterator[list[str]]:
    """`lines` in lists of `size`, as `conll_block_rows` reads them (a block's lines stay in the processor's cache);
    a line that is not a str is a `ConllError`. Where a line raises, the lines before it are given first."""
    block: list[str] = []
    try:
        for number, line in enumerate(lines, start=1):
            block.append(line_text(line, source, number))
            if len(block) >= size:
                yield block
                block = []
    except Exception:
        yield block
        raise
    yield block


def conll_block_rows(
    blocks: Iterable[list[str]], source: str, tag_columns: int, expected: str, documents: list[int] | None = None
) -> Iterator[tuple[list[list[str]], range]]:
    """`conll_rows` of lines given a block at a time (`line_blocks`; a file's: `file_counts.text_blocks`), the line
    numbers a range: a line costs a split and a test or two in one loop, no call (the loop was most of the time)."""
    if documents is not None and not callable(getattr(documents, "append", None)):  # (AttributeError before)
        raise ValueError(
            f"documents is {shown(documents)}; expected a list, which receives each sentence's document number, or None"
        )
    rows: list[list[str]] = []  # the columns of each line of the sentence (its lines follow one another)
    document, first, number = 0, True, 0
    for lines in chain(blocks, [[""]]):  # a blank line after the last ends its sentence
        if first:
            first = _before_first_line(lines, number, source, tag_columns, expected)
        before = number
        for number, columns in enumerate(map(str.split, lines), before + 1):
            if columns and columns[0] != "-DOCSTART-":
                if len(columns) <= tag_columns:
                    line = lines[number - before - 1].strip()
                    found = f"{len(columns)} column{'' if len(columns) == 1 else 's'} ({line!r})"
                    raise ConllError(source, number, f"found {found}; {expected}")
                rows.append(columns)
                continue
            if rows:
                if documents is not None:
                    documents.append(document)
                yield rows, range(number - len(rows), number)
                rows = []
            document += bool(columns)


def _before_first_line(lines: list[str], before: int, source: str, tag_columns: int, expected: str) -> bool:
    """Whether `lines` (after `before` lines) are all blank; their first line that is not is checked for what
    only a file's first line can show."""
    for number, line in enumerate(lines, before + 1):
        if not (columns := line.split()):
            continue
        if "\r" in line.strip():
            # str.split reads a CR as white space: a file whose lines end in CR alone read as one line, its last
            # two columns those of its last token ("processed 1 tokens"), silently.
            raise ConllError(
                source,
                number,
                "found a carriage return within the line: its lines end in CR alone (an old Mac's), which read as one "
                "line; expected lines that end in LF or CR LF",
            )
        if tag_columns and (other := _other_format(columns, line)):
            # Another format given as CoNLL: its words would be read as columns, its last as a tag.
            found, other_format = other
            raise ConllError(source, number, found, other_format, f"; {expected}")
        return False
    return True


def _other_format(columns: list[str], line: str) -> tuple[str, OtherFormat] | None:
    """What a file's first line is when it is another format the front ends read, and that format, else None."""
    if columns[0].startswith("{") and _is_json(line, dict):
        return "found a JSON object, not CoNLL columns", OtherFormat(OtherFormat.SPANS, "JSON lines")
    if columns == ["["] or (columns[0].startswith("[") and _is_json(line, list)):
        return "found a JSON list, not CoNLL columns", OtherFormat(OtherFormat.LABEL_STUDIO, "a Label Studio export")
    if columns[0] == "TOKEN" and any(name.startswith(("NE-", "NEL-")) for name in columns[1:]):
        return "found HIPE's header line, not CoNLL columns", OtherFormat(OtherFormat.HIPE, "HIPE's TSV", operands=True)
    return None


def _is_json(line: str, kind: type) -> bool:
    import json  # here, as in json_line_records: only a first line that starts with "{" or "[" reads it

    try:
        return isinstance(json.loads(line), kind)
    except (ValueError, RecursionError):
        return False


def split_columns(rows: list[list[str]], tag_columns: int, kind: Callable[[Iterable[str]], Any] = list) -> list[Any]:
    """A sentence's first column and its last `tag_columns`, each a `kind` (list, tuple): rows of one width (nearly
    all) turned by `zip` at once, others by a `map` per column (line by line cost 4x `zip`, a comprehension 2x)."""
    if len(set(map(len, rows))) == 1:
        columns = list(zip(*rows))
        picked = [columns[0], *columns[len(columns) - tag_columns :]]
        return picked if kind is tuple else [kind(column) for column in picked]
    return [kind(map(itemgetter(column), rows)) for column in (0, *range(-tag_columns, 0))]


class SpanDocument(NamedTuple):
    """One JSON line of spans: its line number, its `text` (None when not given), the entities of each side
    as given (docs/scoring.md §1), and its `document` id when the line has one (the resampling unit, §9)."""

    line: int
    text: str | None
    references: list[Any]
    predictions: list[Any]
    document: Any = None


def json_line_records(
    lines: Iterable[str], source: str, expected: str, other: Callable[[str], OtherFormat | None] | None = None
) -> Iterator[tuple[int, str, Any]]:
    """Each non-blank line of a JSON lines file, numbered from 1, with its JSON value, read lazily: a line that is
    not JSON is a `ConllError` (`json_error`) naming `source` and the line (`expected`: what the file should
    hold; `other(line)`: the other format such a line says the file is, if any). The one reader of every JSON lines
    layout: `--spans`, doccano's exports, annotators' spans."""
    import json  # here, not at the top: what only JSON lines need stays out of `import nerscore`

    for number, line in enumerate(lines, start=1):
        if not line_text(line, source, number).strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as error:
            raise json_error(error, source, number, expected, other=other(line) if other else None) from None
        if (surrogate := lone_surrogate(line, record)) is not None:  # (every layout: a name or type printed later)
            raise ConllError(source, number, surrogate)
        yield number, line, record


def json_file_records(source: str, expected: str) -> Iterator[tuple[int, str, Any]]:
    """`json_line_records` of the file `source`, read as UTF-8 (`text_lines`) while the records are taken."""
    with open(source, "rb") as handle:
        yield from json_line_records(text_lines(handle, source), source, expected)


def json_error(
    error: Exception, source: str, line: int, expected: str = "", where: str = "", other: OtherFormat | None = None
) -> ConllError:
    """The `ConllError` at `line` of `source` for JSON that is not JSON, nests too deeply or holds an integer of
    more digits than Python reads (3.11+: a 5,000-digit offset), whose bare errors name no place: the problem
    starts with `where` (``task 3: ``) and ends with `expected` (``expected ...``) and the `other` format the
    line says the file is, but for too many digits."""
    import json

    tail = f"; {expected}" if expected else ""
    if isinstance(error, json.JSONDecodeError):
        return ConllError(source, line, f"not JSON ({error.msg}, column {error.colno}){tail}", other)
    if isinstance(error, RecursionError):
        return ConllError(source, line, f"{where}JSON nested too deeply{tail}", other)
    limit = getattr(sys, "get_int_max_str_digits", lambda: 4300)()
    digits = f"found an integer of more than {limit:,} digits, which Python does not read; expected shorter offsets"
    return ConllError(source, line, where + digits)


def read_span_lines(lines: Iterable[str], source: str = "<stdin>") -> Iterator[SpanDocument]:
    """The documents of a JSON lines file of spans (`--spans`), read lazily: one JSON object a line with
    `references` and `predictions` (each a list of entities) and optionally `text`; blank lines are skipped. A
    malformed line is a `ConllError` naming `source` and the line."""
    expected = "expected one JSON object a line with 'references' and 'predictions' lists of entities"
    records = json_line_records(checked_lines(lines, "read_span_lines"), source, expected, _not_span_lines)
    for number, _, record in records:
        if not isinstance(record, dict):
            export = _not_span_lines("[") if isinstance(record, list) else None
            raise ConllError(source, number, f"found a JSON {type(record).__name__}; {expected}", export)
        for key in ("references", "predictions"):
            if not isinstance(record.get(key), list):
                found = "no" if key not in record else f"a JSON {type(record[key]).__name__} for"
                raise ConllError(source, number, f"found {found} {key!r}; {expected}")
        text = record.get("text")
        if text is not None and not isinstance(text, str):
            raise ConllError(source, number, f"found a JSON {type(text).__name__} for 'text'; expected a string")
        document = record.get("document")
        if isinstance(document, (list, dict)) or document != document:  # (NaN: equal to no id, itself included)
            found = "NaN" if document != document else f"a JSON {type(document).__name__}"
            raise ConllError(source, number, f"found {found} for 'document'; expected a string or a number")
        yield SpanDocument(number, text, record["references"], record["predictions"], document)


def _not_span_lines(line: str) -> OtherFormat | None:
    """The format a line that is not JSON lines of spans says the file is, when the front ends read it, else None."""
    columns = line.split()
    if columns and columns[0] in ("[", "[{"):
        return OtherFormat(OtherFormat.LABEL_STUDIO, "a Label Studio export, a JSON list", operands=True)
    if len(columns) >= 3 and columns[0][0] not in "{[":
        return OtherFormat(OtherFormat.CONLL, "CoNLL columns")
    return None


# A JSON escape of a UTF-16 surrogate (\ud800 to \udfff): a pair of them is one character, half a pair none.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# Read left to right, an escaped backslash, a pair (high then low) or a surrogate escape left alone (group 1): a
# backslash outside these starts another escape (\n, \"), whose second character is never a backslash.
_ESCAPES = re.compile(
    r"\\\\|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|(\\u[dD][89a-fA-F][0-9a-fA-F]{2})"
)
_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(line: str, record: Any) -> str | None:
    """The problem with a JSON line whose strings hold a lone surrogate (``"\\ud800"``), or None. Such a string
    is not text: it cannot be written as UTF-8 (printing a table of its type would fail), so the line is refused
    where it is read. Lines without a surrogate escape, nearly all, cost one search of the line."""
    if "\\u" not in line or not _SURROGATE_ESCAPE.search(line):
        return None
    if not any(match.group(1) for match in _ESCAPES.finditer(line)):
        return None  # every surrogate escape is one of a pair: an emoji, as json.dumps writes it
    stack: list[tuple[str, Any]] = [("", record)]
    while stack:  # depth first, without recursion (the record may nest as deep as JSON allows)
        path, value = stack.pop()
        if isinstance(value, str):
            found = _SURROGATE.search(value)
            if found:
                where = f" in {path}" if path else ""
                return (
                    f"found the lone surrogate {found.group()!r}{where} (half of a UTF-16 pair, written as a JSON "
                    "escape), which is not text; expected UTF-8 text"
                )
        elif isinstance(value, dict):
            items = [(f"{path}.{key}" if path else key, item) for key, item in value.items()]
            stack.extend([*reversed(items), *((f"a key of {path or 'the object'}", key) for key in value)])
        elif isinstance(value, list):
            stack.extend(reversed([(f"{path}[{index}]", item) for index, item in enumerate(value)]))
    return None


def text_lines(handle: Iterable[bytes | str], source: str) -> Iterator[str]:
    """The lines of a file as text: UTF-8 bytes decoded (a text stream passes as it is), a byte-order mark at
    the start of a line dropped (as the Space drops the file's: files joined, ``cat a b``, read as the files one
    after the other, a ``-DOCSTART-`` line after the mark a document's start); a byte that is not UTF-8 is a
    `ConllError` naming the line."""
    for number, raw in enumerate(handle, start=1):
        if isinstance(raw, str):  # (a surrogate is what no UTF-8 decodes to: a label printed later raised)
            if found := _SURROGATE.search(raw):
                at = f"character {ord(found.group()):#06x} at column {found.start() + 1}"
                raise ConllError(source, number, f"{at} is no text UTF-8 can hold (a lone surrogate); expected text")
            yield raw.removeprefix("\ufeff")
            continue
        raw = raw.removeprefix(codecs.BOM_UTF8)
        try:  # (decoded inline: a line of valid UTF-8, nearly all, costs no call)
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            decoded(raw, source, number)  # raises, naming the line and the column


def decoded(raw: bytes, source: str, first_line: int = 1) -> str:
    """`raw` (starting at line `first_line` of `source`) read as UTF-8, or a `ConllError` naming `source`, the line
    and the column of the first bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = line_and_column(raw, error.start, first_line)
        raise ConllError(
            source, line, f"byte {raw[error.start]:#04x} at column {column} is not UTF-8; expected UTF-8 text"
        ) from None


def standard_input(prog: str, what: str) -> BinaryIO:
    """Standard input's bytes; from a terminal, first a line on standard error saying what is read (a command
    waiting in silence looks hung), and how to end it."""
    stdin: Any = sys.stdin  # (replaced by an embedder, it may hold bytes already, or be only their `buffer`)
    if stdin is None:  # (pythonw, a service): never a file named "-"
        raise OSError("found no standard input (sys.stdin is None); expected FILE arguments")
    isatty = getattr(stdin, "isatty", None)
    if not getattr(stdin, "closed", False) and callable(isatty) and isatty():
        print(f"{prog}: reading {what} from standard input (end it with Ctrl-D; --help for files)", file=sys.stderr)
    return getattr(stdin, "buffer", stdin)


def line_and_column(content: str | bytes, position: int, first_line: int = 1) -> tuple[int, int]:
    """The line (counted from `first_line`) and the 1-based column of `position` in a file's `content` (its text,
    or its bytes where they are not text): where a reader names a byte that does not decode, or a character where
    two files' texts differ."""
    if isinstance(content, bytes):
        before, line_start = content.count(b"\n", 0, position), content.rfind(b"\n", 0, position) + 1
    else:
        before, line_start = content.count("\n", 0, position), content.rfind("\n", 0, position) + 1
    return first_line + before, position - line_start + 1


def first_difference(found: Sequence[Any], expected: Sequence[Any]) -> int:
    """The index of the first item where `found` parts from `expected` (the shorter one's length where one is
    the other's start, or where they are equal): where two files that must hold the same text or tokens differ."""
    return next(
        (index for index, (item, other) in enumerate(zip(found, expected)) if item != other),
        min(len(found), len(expected)),
    )
