"""HIPE's TSV (CLEF-HIPE-2020, HIPE-2022): documents with their metadata, tokens by segment, every column's values
and the MISC flags; a system response aligned to its gold file as the HIPE scorer aligns them; each column's tags
decoded into entities as the scorer decodes them (docs/hipe.md).

A file is a header line naming the columns (the first is the token), then token lines, one value per column,
and `#` comment lines: `# key = value` (HIPE-2022: `# hipe2022:key = value`) carries a document's metadata,
`# document_id` starts a document and `# segment...` a segment. A malformed line is a `HipeFileError` (a
`ValueError`) naming the file, the line and the column.
"""

from __future__ import annotations

import datetime
import functools
import os
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, pairwise, repeat
from operator import methodcaller

from ..span import Span
from .readers import ConllError

# The coarse and fine types of CLEF-HIPE-2020 (the HIPE scorer's tagset.txt), in upper case as the scorer reads
# every tag: the official runs were scored with them, a predicted type outside them and the gold left out.
_HIPE_2020_TAGSET = (
    "comp.demonym comp.function comp.name comp.qualifier comp.title loc loc.add.elec loc.add.phys loc.adm.nat "
    "loc.adm.reg loc.adm.sup loc.adm.town loc.fac loc.oro loc.phys.astro loc.phys.geo loc.phys.hydro loc.unk "
    "org org.adm org.ent org.ent.pressagency pers pers.coll pers.ind pers.ind.articleauthor prod prod.doctr "
    "prod.media time time.date.abs time.hour.abs"
)
HIPE_2020_TYPES = frozenset(_HIPE_2020_TAGSET.upper().split(" "))
NE_COLUMNS = ("NE-COARSE-LIT", "NE-COARSE-METO", "NE-FINE-LIT", "NE-FINE-METO", "NE-FINE-COMP", "NE-NESTED")
NEL_COLUMNS = ("NEL-LIT", "NEL-METO")
# Values that mark no entity: `O`, and `_` or `-` (a column not annotated), or a cell left empty.
OUTSIDE = frozenset({"O", "_", "-", ""})
_NOISE = re.compile(r"LED(\d+(?:\.\d+)?)")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class HipeFileError(ConllError):
    """A malformed HIPE file: `source`, `line` (1-based, None for the whole file) and `column` (None for a whole
    line) as attributes."""

    def __init__(self, source: str, line: int | None, problem: str, column: str | None = None) -> None:
        self.column = column
        super().__init__(source, line, problem if column is None else f"column {column}: {problem}")


class HipeColumns(Mapping[str, tuple[str, ...]]):
    """A document's columns by the header's names, each split off its token lines when first read (scoring reads
    two or three of HIPE's ten): a missing value is `_`, as the HIPE scorer reads it. The token lines are given as
    a list, or as one text (`text`, lines joined by newlines, `count` of them) that is split only if need be;
    `check` is called with the lines where a column's values do not come one a line (a line of too many values
    in a text whose tab count looked right), to raise the located error."""

    def __init__(
        self,
        header: Sequence[str],
        lines: Sequence[str] | None,
        short: bool | None = None,
        *,
        text: str | None = None,
        count: int = 0,
        check: Callable[[Sequence[str]], None] | None = None,
    ) -> None:
        self._header = tuple(header)
        self._index = {name: index for index, name in enumerate(self._header)}
        self._given = lines
        self._split: dict[str, tuple[str, ...]] = {}
        self._short = short  # whether a line has fewer values than the header names (None: not known yet)
        self._joined = None if text is None else text + "\n"
        self._count = len(lines) if lines is not None else count
        self._check = check

    @property
    def _lines(self) -> Sequence[str]:
        if self._given is None:
            assert self._joined is not None, "lines or a text"
            self._given = self._joined[:-1].split("\n") if self._count else []
        return self._given

    def __getitem__(self, name: str) -> tuple[str, ...]:
        values = self._split.get(name)
        if values is None:
            index = self._index[name]
            if self._short is None:
                self._short = min(map(str.count, self._lines, repeat("\t")), default=0) < len(self._header) - 1
            if not self._short:
                # Every line holds every value: one regular expression over the lines joined, a match a whole line
                # of exactly the header's number of values (faster than splitting each line).
                if self._joined is None:
                    self._joined = "\n".join(self._lines) + "\n"
                found = _column_pattern(index, len(self._header)).findall(self._joined) if self._count else []
                if len(found) == self._count:
                    values = tuple(found)
                elif self._check is not None:
                    self._check(self._lines)  # raises where a line has too many values
                self._short = values is None  # else a line has too few: read line by line
            if values is None:  # a line with values missing
                split = map(methodcaller("split", "\t", index + 1), self._lines)
                values = tuple(piece[index] if len(piece) > index else "_" for piece in split)
            self._split[name] = values
        return values

    def __iter__(self) -> Iterator[str]:
        return iter(self._header)

    def __len__(self) -> int:
        return len(self._header)

    def sliced(self, start: int, end: int) -> HipeColumns:
        """The columns of the token lines start to end."""
        return HipeColumns(self._header, self._lines[start:end], check=self._check)


@functools.cache
def _column_pattern(index: int, width: int) -> re.Pattern[str]:
    """The value at `index` of each line of `width` values, a match a whole line: a line of fewer values holds
    no match (so that a text of one match a line has no such line)."""
    # Written out, not as a repeated group: re matches it about 1.5 times as fast.
    return re.compile("[^\t\n]*\t" * index + "([^\t\n]*)" + "\t[^\t\n]*" * (width - 1 - index) + "\n")


@dataclass(frozen=True)
class HipeDocument:
    """One document of a HIPE file: its id and metadata (each `# key = value` comment before its first token, the
    key as written), where its segments start (`segments`, its tokens by segment), every column's values one per
    token (`columns`, by the header's names, the token column included) and each token's line in `source`."""

    id: str | None
    metadata: Mapping[str, str]
    segment_starts: tuple[int, ...]
    columns: Mapping[str, tuple[str, ...]]
    lines: tuple[int, ...]
    source: str = ""
    line: int = 0
    token_column: str = "TOKEN"

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.columns[self.token_column]

    @property
    def segments(self) -> tuple[tuple[str, ...], ...]:
        """The tokens by segment (`segment_starts` holds where each starts)."""
        tokens = self.tokens
        return tuple(tokens[a:b] for a, b in pairwise([*self.segment_starts, len(tokens)]))

    def __len__(self) -> int:
        return len(self.lines)

    def values(self, column: str) -> tuple[str, ...]:
        """The column's values, one per token; a `HipeFileError` naming the file when it has no such column."""
        try:
            return self.columns[column]
        except KeyError:
            raise HipeFileError(
                self.source, None, f"no such column (the header has {', '.join(self.columns)})", column
            ) from None

    @property
    def flags(self) -> tuple[frozenset[str], ...]:
        """Each token's MISC flags (`NoSpaceAfter`, `EndOfLine`, `EndOfSentence`, `LED0.25`, ...), `|`-separated
        in the file; empty where the file has no MISC column or `_`."""
        misc = self.columns.get("MISC", ("_",) * len(self))
        return tuple(frozenset(v for v in value.split("|") if v and v != "_") for value in misc)

    @property
    def noise(self) -> tuple[float | None, ...]:
        """Each token's OCR noise, the normalised Levenshtein distance of its `LED` flag (None without one)."""
        misc = self.columns.get("MISC", ("",) * len(self))
        found = (_NOISE.search(value) for value in misc)
        return tuple(None if match is None else float(match.group(1)) for match in found)

    @property
    def date(self) -> datetime.date | None:
        """The document's date (`# date = 1790-01-02`, HIPE-2022's `# hipe2022:date`), None without one."""
        for key in ("date", "hipe2022:date"):
            match = _DATE.search(self.metadata.get(key, ""))
            if match:
                try:
                    return datetime.date.fromisoformat(match.group(0))
                except ValueError as error:  # 1790-13-45: located, not datetime's bare message
                    problem = f"# {key} = {self.metadata[key]}: {error}; expected a date as YYYY-MM-DD"
                    raise HipeFileError(self.source, self.line or None, problem) from None
        return None


def read_hipe(path: str | os.PathLike[str], encoding: str = "utf-8-sig") -> list[HipeDocument]:
    """The documents of a HIPE file, in file order (docs/hipe.md).

    Lines are split on tabs; blank lines (and the empty lines of CR-CR-LF endings) are skipped; a token line with
    fewer values than the header has `_` for the missing ones, as the HIPE scorer reads it, and one with more is
    an error (raised as the file is read, or where a document's tab count looks right, with a line of too few
    values too, when its columns are first read). A file without `# document` lines is one document (the
    scorer's reading of a flat response, which `align_hipe` then splits as the gold is split)."""
    source = os.fspath(path)
    try:
        with open(source, encoding=encoding, newline=None) as handle:
            # Universal newlines: lines end with "\n" alone.
            text = handle.read()
    except UnicodeDecodeError:
        raise undecodable(source, encoding) from None
    return _parse_text(text, source)


def undecodable(source: str, encoding: str = "utf-8-sig") -> HipeFileError:
    """The error of a file that is not `encoding` text, naming its line and byte (the decoder's own message names
    neither the file nor the line: it reads the file in chunks)."""
    with open(source, "rb") as handle:
        raw = handle.read()
    try:
        raw.decode(encoding)
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        return HipeFileError(source, line, f"byte {raw[error.start]:#04x} is not {encoding}; expected {encoding} text")
    return HipeFileError(source, None, f"is not {encoding} text")


def parse_hipe(lines: Iterable[str], source: str = "<hipe>") -> list[HipeDocument]:
    """`read_hipe` of lines already read (a file's, or a test's)."""
    return _parse_text("\n".join(line.rstrip("\r\n") for line in lines), source)


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
        # tab was typed as spaces (a submitted run of CLEF-HIPE-2020 has one).
        self.header = line.split()
        if len(set(self.header)) < len(self.header):
            raise HipeFileError(self.source, number, f"a column is named twice in the header {self.header}")

    def segment(self, number: int) -> None:
        """A `# segment...` line: what `comment` does with it, without reading its key and value (a segment's
        comments are not the document's metadata)."""
        tokens = self.count
        if self.pending and tokens > self.seen:
            self.pending = {}  # comments between tokens of a document that no `# document` line followed
        self.seen = tokens
        if not tokens and not self.start:
            self.start = number
        self.segmented = True
        if tokens and (not self.breaks or self.breaks[-1] < tokens):
            self.breaks.append(tokens)

    def comment(self, number: int, comment: str) -> None:
        if self.pending and self.count > self.seen:
            self.pending = {}  # comments between tokens of a document that no `# document` line followed
        self.seen = self.count
        if not self.count and not self.start:
            self.start = number
        body = comment.lstrip("#").strip()
        key, _, value = body.partition("=")
        key, value = key.strip(), value.strip()
        name = key.removeprefix("hipe2022:")
        if name.startswith("document"):
            # The HIPE scorer starts a document at a `# document` line that follows tokens.
            if self.count:
                pending, pending_line = self.pending, self.pending_line
                self._close()
                self.start = pending_line or number
                self.metadata.update(pending)
                self.pending = {}
        elif name.startswith("segment"):
            self.segmented = True
            if self.count and (not self.breaks or self.breaks[-1] < self.count):
                self.breaks.append(self.count)
        if not key or name.startswith("segment"):
            return  # a segment's own comments (its IIIF link) are not the document's metadata
        if self.count:
            if not self.pending:
                self.pending_line = number
            self.pending.setdefault(key, value)
        else:
            self.metadata.setdefault(key, value)

    def _close(self) -> None:
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
        if self.untokened:
            tokens = columns[self.header[0]]
            for number in self.untokened:
                if number in numbers and not tokens[numbers.index(number)].strip():
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
        return self.documents


def align_hipe(gold: Sequence[HipeDocument], system: Sequence[HipeDocument]) -> list[HipeDocument]:
    (
        """The system's documents in the gold's structure (ids, metadata, segments), token by token by position, as
    the HIPE scorer aligns them: a response with the gold's documents keeps them, one without `# document` lines
    (one document) is split as the gold is. Tokens are matched by position, not by text (runs spell `"` as
    `"""
        "`); a different number of tokens is a `HipeFileError` at the first document (and line) that differs."
        ""
    )
    if not gold:
        raise HipeFileError("<gold>", None, "the gold has no tokens: nothing to score")
    if not system:
        source = "<system>"
        raise HipeFileError(source, None, f"no tokens, where the gold ({_source(gold)}) has {_total(gold)}")
    source = system[0].source
    # Aligned by position, never silently across documents: where both name theirs, the names must agree.
    for index, (g, s) in enumerate(zip(gold, system) if len(system) > 1 else ()):
        if g.id is not None and s.id is not None and g.id != s.id:
            raise HipeFileError(
                source,
                s.line,
                f"document {index + 1} is {s.id!r} where the gold's ({g.source}:{g.line}) is {g.id!r}; expected the "
                "gold's documents in its order",
            )
    if len(system) == len(gold) and all(len(s) == len(g) for s, g in zip(system, gold)):
        return [_restructured(g, s.columns, s.lines, s.source) for g, s in zip(gold, system)]
    if len(system) == 1:
        flat = system[0]
        if len(flat) != _total(gold):
            raise _mismatch(gold, flat)
        documents, at = [], 0
        for document in gold:
            end = at + len(document)
            columns = (
                flat.columns.sliced(at, end)
                if isinstance(flat.columns, HipeColumns)
                else {name: values[at:end] for name, values in flat.columns.items()}
            )
            documents.append(_restructured(document, columns, flat.lines[at:end], flat.source))
            at = end
        return documents
    for index, (g, s) in enumerate(zip(gold, system)):
        if len(g) != len(s):
            raise HipeFileError(
                source,
                s.line,
                f"document {index + 1} ({s.id or 'no id'}) has {len(s)} tokens where the gold's "
                f"({g.source}:{g.line}, {g.id or 'no id'}) has {len(g)}",
            )
    raise HipeFileError(source, None, f"{len(system)} documents where the gold ({_source(gold)}) has {len(gold)}")


def _restructured(
    gold: HipeDocument, columns: Mapping[str, tuple[str, ...]], lines: tuple[int, ...], source: str
) -> HipeDocument:
    token_column = next(iter(columns))
    return HipeDocument(
        gold.id, gold.metadata, gold.segment_starts, columns, lines, source, lines[0] if lines else 0, token_column
    )


def _total(documents: Sequence[HipeDocument]) -> int:
    return sum(len(document) for document in documents)


def _source(documents: Sequence[HipeDocument]) -> str:
    return documents[0].source if documents else "<gold>"


def _mismatch(gold: Sequence[HipeDocument], flat: HipeDocument) -> HipeFileError:
    """The flat response's token count error, at its first token whose text differs from the gold's (where the
    shift most likely starts), or at its end."""
    gold_tokens = [(token, document, line) for document in gold for token, line in zip(document.tokens, document.lines)]
    problem = f"{len(flat)} tokens where the gold ({_source(gold)}) has {len(gold_tokens)}"
    for position, (token, (expected, _, gold_line)) in enumerate(zip(flat.tokens, gold_tokens)):
        if token != expected:
            return HipeFileError(
                flat.source,
                flat.lines[position],
                f"{problem}; token {position + 1}, {token!r}, differs from the gold's {expected!r} (line {gold_line})",
                flat.token_column,
            )
    return HipeFileError(flat.source, flat.lines[-1] if flat.lines else None, problem)


# -- the tags as the HIPE scorer decodes them -------------------------------------------------------------------


def entity_type_of(value: str) -> str | None:
    """The entity type of a tag as the HIPE scorer reads it (upper case, after the prefix), None outside."""
    tag = value.upper()
    return None if tag in OUTSIDE else tag[2:]


def hipe_spans(
    document: HipeDocument, column: str, types: Collection[str] | None = None, keep: Sequence[bool] | None = None
) -> list[Span]:
    """A column's entities over the whole document (the scorer merges a document's segments, so an entity may
    cross one), decoded as the HIPE scorer decodes them: tags in upper case; `O`, `_`, `-` and empty outside;
    an entity continues while the type stays and the prefix is `I` or `E` (IOBES's `E-` read as `I-`, `S-` as
    `B-`), so `I-` after another type or outside starts one; a type outside `types` is outside. `keep` leaves out
    tokens (the scorer's noise and date filters drop tokens before decoding)."""
    values = document.values(column)
    # Only the tokens inside some entity are read one by one (a few in a hundred): the rest, outside, end an entity
    # by the gap they leave between two positions.
    inside: Iterable[tuple[int, int]]
    if keep is None:
        # The indices of the values inside, picked in C (`compress`) by the few distinct values inside.
        entity_values = set(values) - _OUTSIDE_ANY_CASE
        indices = compress(range(len(values)), map(entity_values.__contains__, values))
        inside = ((index, index) for index in indices)
    else:
        positions = [index for index, kept in enumerate(keep) if kept]
        inside = [(p, index) for p, index in enumerate(positions) if values[index] not in _OUTSIDE_ANY_CASE]
    spans: list[Span] = []
    open_type: str | None = None
    start = last = -2
    for position, index in inside:
        value = values[index]
        tag = value.upper()
        if tag in OUTSIDE or len(tag) < 3 or tag[1] != "-" or tag[0] not in "BIES":
            if tag not in OUTSIDE:
                raise HipeFileError(
                    document.source,
                    document.lines[index],
                    f"{value!r} is not a tag (B-, I-, E- or S- and a type; O or _ outside)",
                    column,
                )
            entity_type = None
        else:
            entity_type = tag[2:]
            if types is not None and entity_type not in types:
                entity_type = None
        if open_type is not None and (position != last + 1 or entity_type != open_type or tag[0] in "BS"):
            spans.append(Span(start, last + 1, open_type))
            open_type = None
        if entity_type is not None and open_type is None:
            open_type, start = entity_type, position
        last = position
    if open_type is not None:
        spans.append(Span(start, last + 1, open_type))
    return spans


_OUTSIDE_ANY_CASE = OUTSIDE | {"o"}


def column_types(documents: Iterable[HipeDocument], column: str) -> set[str]:
    """Every entity type a column holds (the scorer's tags of a column)."""
    found: set[str] = set()
    for document in documents:
        for value in set(document.values(column)):
            entity_type = entity_type_of(value)
            if entity_type:
                found.add(entity_type)
    return found


def scored_types(
    gold: Sequence[HipeDocument], system: Sequence[HipeDocument], column: str, tagset: Collection[str] | None
) -> set[str]:
    """The types the HIPE scorer scores in a column: the gold's, and with a tag set the system's within it too
    (a predicted type outside both is dropped: neither spurious nor paired)."""
    types = column_types(gold, column)
    if tagset is not None:
        allowed = {name.upper() for name in tagset}
        types |= column_types(system, column) & allowed
    return types


def hipe_links(
    document: HipeDocument, column: str, n_best: int = 1, keep: Sequence[bool] | None = None
) -> list[tuple[Span, tuple[str, ...]]]:
    """A link column's entities as the HIPE scorer of CLEF-HIPE-2020 reads them: each run of tokens with the same
    value (a Wikidata QID, `NIL`, or several `|`-separated, best first), `_` and `-` outside, values in upper case;
    each as a `Span` of its first link and the links it offers (its first `n_best`). A run of `O` (a tag where a
    link belongs) is no entity. `keep` leaves out tokens, as in `hipe_spans`."""
    values = document.values(column)
    links: list[tuple[Span, tuple[str, ...]]] = []
    open_value: str | None = None
    start = position = 0
    for index, value in enumerate(values):
        if keep is not None and not keep[index]:
            continue
        upper = value.upper()
        link = None if upper in ("_", "-", "") else upper
        if open_value is not None and link != open_value:
            if open_value != "O":
                offered = tuple(open_value.split("|")[:n_best])
                links.append((Span(start, position, offered[0]), offered))
            open_value = None
        if link is not None and open_value is None:
            open_value, start = link, position
        position += 1
    if open_value is not None and open_value != "O":
        offered = tuple(open_value.split("|")[:n_best])
        links.append((Span(start, position, offered[0]), offered))
    return links


def hipe_linked_mentions(
    document: HipeDocument,
    column: str,
    mentions: str,
    n_best: int = 1,
    keep: Sequence[bool] | None = None,
    split: bool = True,
) -> list[tuple[Span, tuple[str, ...]]]:
    """A link column's entities bounded by a tag column's mentions (NEL-LIT by NE-COARSE-LIT), as the HIPE scorer
    reads them when given both: a mention's link is its first token's; a token outside every mention (`O`) with a
    link is an entity of its own; a link changing inside a mention splits it when `split` (a response), and
    is kept first otherwise (the gold). Values in upper case; a tag other than `O` with an unknown prefix (`_`)
    opens a mention as the scorer's reading does; the link `_` or `-` is no entity."""
    links_of = document.values(column)
    tags = document.values(mentions)
    found: list[tuple[int, int, str]] = []
    link: str | None = None
    mention: str | None = None
    start = position = 0
    for index, (value, tag_value) in enumerate(zip(links_of, tags)):
        if keep is not None and not keep[index]:
            continue
        value, tag = value.upper(), tag_value.upper()
        if tag == "O":
            if link is not None:
                found.append((start, position, link))
                link = mention = None
            if value not in ("_", "-"):
                found.append((position, position + 1, value))
        elif mention is None:
            link, mention, start = value, tag[2:], position
        elif mention == tag[2:] and tag[:1] == "I" and link != value:
            if split:
                found.append((start, position, link or ""))
                link, start = value, position
        elif mention != tag[2:] or tag[:1] == "B":
            found.append((start, position, link or ""))
            link, mention, start = value, tag[2:], position
        position += 1
    if link:
        found.append((start, position, link))
    result = []
    for begin, end, value in found:
        if value in ("_", "-", "O", ""):
            continue
        offered = tuple(value.split("|")[:n_best])
        result.append((Span(begin, end, offered[0]), offered))
    return result


def read_link_alternatives(path: str | os.PathLike[str]) -> dict[str, frozenset[str]]:
    """The relaxed setting's mapping (the HIPE scorer's historico-fuzzy-QID-mapping file): a header line, then a
    main Wikidata entity and its historically related ones, tab-separated, as QIDs or Wikidata addresses (`#N/A`
    empty); each main QID's set holds itself and its related ones."""
    mapping: dict[str, set[str]] = {}
    try:
        with open(path, encoding="utf-8-sig") as handle:
            lines = handle.readlines()
    except UnicodeDecodeError:
        raise undecodable(os.fspath(path)) from None
    for number, line in enumerate(lines, 1):
        cells = [cell.strip() for cell in line.split("\t")]
        cells = [cell.rsplit("/", 1)[-1].upper() for cell in cells if cell and cell != "#N/A"]
        if number == 1 or not cells:
            continue
        if not all(cell.startswith("Q") and cell[1:].isdigit() for cell in cells):
            raise HipeFileError(os.fspath(path), number, f"not Wikidata entities: {cells}")
        mapping.setdefault(cells[0], {cells[0]}).update(cells[1:])
    return {main: frozenset(related) for main, related in mapping.items()}
