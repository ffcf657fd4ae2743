"""HIPE's TSV as read (CLEF-HIPE-2020, HIPE-2022; docs/hipe.md): a file's documents (`HipeDocument`: id, metadata,
segments, every column's values, the MISC flags), their columns split off the token lines when first read
(`HipeColumns`), the located error of a malformed file (`HipeFileError`), and a system response aligned to its
gold file as the HIPE scorer aligns them (`align_hipe`). The reader is `nerscore.files.hipe`; the columns' tags
decoded into entities, `nerscore.files.hipe_tags`.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise, repeat
from operator import methodcaller

from ..errors import InvalidInputError, shown
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


class LazyColumns(Mapping[str, tuple[str, ...]]):
    """A document's columns by the header's names, each read (`_read`, by its index in the header) when first
    asked for and kept: scoring reads two or three of HIPE's ten."""

    def __init__(self, header: Sequence[str]) -> None:
        self._header = tuple(header)
        self._index = {name: index for index, name in enumerate(self._header)}
        self._split: dict[str, tuple[str, ...]] = {}

    def _read(self, index: int) -> tuple[str, ...]:
        raise NotImplementedError

    def __getitem__(self, name: str) -> tuple[str, ...]:
        values = self._split.get(name)
        if values is None:
            values = self._split[name] = self._read(self._index[name])
        return values

    def __iter__(self) -> Iterator[str]:
        return iter(self._header)

    def __contains__(self, name: object) -> bool:
        return name in self._index  # without splitting the column off its lines, as Mapping's would

    def __len__(self) -> int:
        return len(self._header)


class HipeColumns(LazyColumns):
    """A document's columns (`LazyColumns`) split off its token lines: a missing value is `_`, as the HIPE scorer
    reads it. The token lines are given as a list, or as one text (`text`, lines joined by newlines, `count` of
    them) that is split only if need be; `check` is called with the lines where a column's values do not come one
    a line (a line of too many values in a text whose tab count looked right), to raise the located error."""

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
        super().__init__(header)
        self._given = lines
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

    def _read(self, index: int) -> tuple[str, ...]:
        values = None
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
        return values

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

    def period(
        self, periods: Iterable[tuple[datetime.date, datetime.date]]
    ) -> tuple[datetime.date, datetime.date] | None:
        """The first of the time `periods` [start, end) that holds the document's date, as the HIPE scorer's date
        filter keeps documents; None for none, or without a date (read, and so checked, whatever the periods)."""
        date = self.date
        return next((period for period in periods if date is not None and period[0] <= date < period[1]), None)


def align_hipe(gold: Sequence[HipeDocument], system: Sequence[HipeDocument]) -> list[HipeDocument]:
    (
        """The system's documents in the gold's structure (ids, metadata, segments), token by token by position, as
    the HIPE scorer aligns them: a response with the gold's documents keeps them, one without `# document` lines
    (one document) is split as the gold is. Tokens are matched by position, not by text (runs spell `"` as
    `"""
        "`); a different number of tokens is a `HipeFileError` at the first document (and line) that differs."
        ""
    )
    for name, documents in (("gold", gold), ("system", system)):
        if not isinstance(documents, Sequence) or not all(isinstance(item, HipeDocument) for item in documents):
            found = f"{shown(documents)} ({type(documents).__name__})"
            raise InvalidInputError(f"{name} is {found}; expected a list of HipeDocument, as read_hipe returns")
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
            # HipeColumns and the laid-out file's columns (nerscore.files.hipe_arrays) slice without splitting.
            sliced = getattr(flat.columns, "sliced", None)
            columns = (
                sliced(at, end)
                if sliced is not None
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


def document_names(documents: Sequence[HipeDocument]) -> list[str]:
    """Each document's id (`hipe_inputs`' `documents=`, `bootstrap`'s units), `document 3` for one without, never
    another's id (a document named "document 2" and the second, unnamed, were one unit)."""
    taken, names = {document.id for document in documents}, []
    for index, document in enumerate(documents):
        name = document.id or f"document {index + 1}"
        while not document.id and name in taken:
            name += " (no id)"
        taken.add(name)
        names.append(name)
    return names


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
