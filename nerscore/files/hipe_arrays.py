"""HIPE's TSV laid out with numpy (docs/hipe.md, "Speed"): where a well-formed file's lines, comments, token lines
and tabs are (`file_layout`, on the file's bytes), and its columns split off those offsets when first read
(`ArrayColumns`): a column's bytes gathered by numpy and decoded at once, not line by line.

Only what the line-by-line reader (`nerscore.files.hipe`) reads exactly so is laid out here: UTF-8, LF or CR LF
endings, no line starting with white space but blank ones, the header first. Anything else gives None and the
reader reads the file, which stays the definition of the format and the source of every located error.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .hipe_model import LazyColumns

_NEWLINE, _RETURN, _TAB, _SPACE, _HASH = 10, 13, 9, 32, 35
_SEGMENT = b"# segment"


@dataclass(frozen=True, eq=False)
class Layout:
    """A file's token lines and comments. `header` is the header line (its number and text); `comments` each
    comment line after it but `# segment` ones, in file order (its number, the token lines before it, and its
    text as the reader gives it to its builder); `segment_numbers` and `segment_tokens` each `# segment` line's
    number and the token lines before it, `segments_before` how many come before each of the other comments;
    `numbers`, `starts`, `ends` each token line's number and byte offsets (the end before its CR, if any);
    `tab_first` the index in `tabs` of its first tab and `tab_counts` how many it holds."""

    data: bytes
    header: tuple[int, str]
    comments: list[tuple[int, int, str]]
    segment_numbers: np.ndarray
    segment_tokens: np.ndarray
    segments_before: np.ndarray
    numbers: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    tabs: np.ndarray
    tab_first: np.ndarray
    tab_counts: np.ndarray

    @property
    def count(self) -> int:
        return len(self.numbers)


def file_layout(data: bytes) -> Layout | None:
    """The layout of a file's bytes (its BOM removed), or None where the reader must read it line by line."""
    try:
        data.decode("utf-8")  # the reader's decoding raises alike on the same bytes
    except UnicodeDecodeError:
        return None
    buffer = np.frombuffer(data, np.uint8)
    size = len(buffer)
    if not size:
        return None
    # Universal newlines, as the reader opens a file: a line ends at LF, at CR LF, or at CR alone.
    newlines = np.flatnonzero(buffer == _NEWLINE)
    returns = np.flatnonzero(buffer == _RETURN) if b"\r" in data else newlines[:0]
    ends, following = newlines, newlines + 1
    if returns.size:
        pair = buffer[np.minimum(returns + 1, size - 1)] == _NEWLINE
        pair[returns + 1 >= size] = False
        if pair.all():  # CR LF only: each line ends before its CR
            ends = newlines - (buffer[np.maximum(newlines - 1, 0)] == _RETURN)
        else:
            ended = np.zeros(size, bool)
            ended[newlines] = True
            ended[returns[pair] + 1] = False  # the LF of a CR LF ends nothing more
            ended[returns] = True
            ends = np.flatnonzero(ended)
            skip = np.zeros(size, bool)
            skip[returns[pair]] = True
            following = ends + 1 + skip[ends]
    if not ends.size or following[-1] < size:
        ends = np.append(ends, size)  # the last line, without its end of line
    starts = np.concatenate(([0], following))[: len(ends)]
    first = buffer[np.minimum(starts, size - 1)].copy()
    first[starts == ends] = _NEWLINE  # a blank line
    for index in np.flatnonzero((first == _TAB) | (first == _SPACE)).tolist():
        if data[starts[index] : ends[index]].strip(b"\t "):
            return None  # a token line without its token: the reader's error
        first[index] = _NEWLINE  # white space only: skipped as a blank line
    read = np.flatnonzero(first != _NEWLINE)
    if not read.size or first[read[0]] == _HASH:
        return None  # no header, or a comment before it: the reader's error
    header_index = int(read[0])
    comment = first == _HASH
    token = ~comment & (first != _NEWLINE)
    token[: header_index + 1] = False
    token_indices = np.flatnonzero(token)
    if not token_indices.size:
        return None
    comment_indices = np.flatnonzero(comment)
    before = np.searchsorted(token_indices, comment_indices)
    # `# segment` lines (most comments) found by their first bytes; the others read one by one, as the reader
    # gives them to its builder (nerscore.files.hipe._parse_text).
    prefix = np.frombuffer(_SEGMENT, np.uint8)
    heads = buffer[np.minimum(starts[comment_indices, None] + np.arange(len(prefix)), size - 1)]
    segment = (heads == prefix).all(axis=1) & (ends[comment_indices] - starts[comment_indices] >= len(prefix))
    comments: list[tuple[int, int, str]] = []
    for index, tokens in zip(comment_indices[~segment].tolist(), before[~segment].tolist()):
        text = data[starts[index] : ends[index]].decode("utf-8").split("\t", 1)[0].strip()
        comments.append((index + 1, tokens, text))
    token_starts, token_ends = starts[token_indices], ends[token_indices]
    tabs = np.flatnonzero(buffer == _TAB)
    tab_first = np.searchsorted(tabs, token_starts)
    tab_counts = np.searchsorted(tabs, token_ends) - tab_first
    return Layout(
        data,
        (header_index + 1, data[starts[header_index] : ends[header_index]].decode("utf-8")),
        comments,
        comment_indices[segment] + 1,
        before[segment],
        np.searchsorted(comment_indices[segment], comment_indices[~segment]),
        token_indices + 1,
        token_starts,
        token_ends,
        tabs,
        tab_first,
        tab_counts,
    )


@dataclass(frozen=True, eq=False)
class ArrayTable:
    """A laid-out file's columns, every token line holding one value per header name: each column split off the
    whole file once, when first read."""

    layout: Layout
    header: tuple[str, ...]
    _split: dict[int, tuple[str, ...]] = field(default_factory=dict, compare=False)

    def column(self, index: int) -> tuple[str, ...]:
        values = self._split.get(index)
        if values is None:
            values = self._split[index] = self._values(index)
        return values

    def _values(self, index: int) -> tuple[str, ...]:
        """The column's values; `_` where a line has too few values, as the reader has it (`HipeColumns`)."""
        layout = self.layout
        starts: np.ndarray = layout.starts
        ends: np.ndarray = layout.ends
        counts, last = layout.tab_counts, len(layout.tabs) - 1
        missing = None
        if index and int(counts.min()) < index:
            missing = counts < index
        if index and last >= 0:
            starts = layout.tabs[np.minimum(layout.tab_first + index - 1, last)] + 1
        if last >= 0:
            # A value ends at the tab after it, the last one of a line at the line's end.
            ends = np.where(counts > index, layout.tabs[np.minimum(layout.tab_first + index, last)], ends)
        if missing is not None:
            starts, ends = np.where(missing, 0, starts), np.where(missing, 0, ends)
        # Every value's bytes and the byte that ends it gathered in one array (the ends made newlines), decoded and
        # split at once: one pass over the column's bytes, not a Python object a line before the values.
        sizes = ends - starts + 1
        stops = np.cumsum(sizes)
        buffer = np.frombuffer(layout.data, np.uint8)
        at = np.repeat(starts - stops + sizes, sizes) + np.arange(stops[-1])
        if ends[-1] == len(buffer):  # the last line has no end of line: its byte is replaced below anyway
            at[-1] = len(buffer) - 1
        picked = buffer[at]
        picked[stops - 1] = _NEWLINE
        values = picked.tobytes().decode("utf-8").split("\n")
        values.pop()
        if missing is not None:
            for line in np.flatnonzero(missing).tolist():
                values[line] = "_"
        return tuple(values)


class ArrayColumns(LazyColumns):
    """A document's columns, its token lines `start` to `end` of a laid-out file (as `HipeColumns` reads them)."""

    def __init__(self, table: ArrayTable, start: int, end: int) -> None:
        super().__init__(table.header)
        self._table = table
        self._start, self._end = start, end

    def _read(self, index: int) -> tuple[str, ...]:
        return self._table.column(index)[self._start : self._end]

    def sliced(self, start: int, end: int) -> ArrayColumns:
        """The columns of the document's token lines start to end."""
        return ArrayColumns(self._table, self._start + start, self._start + end)
