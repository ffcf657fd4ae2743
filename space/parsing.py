"""The page's input: the editor's text (or an uploaded file) read into sentences or documents, by the package's
readers (`nerscore.read_conll`, `nerscore.read_two_systems`, `nerscore.read_span_lines`), within the page's caps.
Anything the page cannot read is an `InputProblem` whose message names the line, in the editor's numbering.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import nerscore

from . import caps, texts


class InputProblem(ValueError):
    """Input the page cannot evaluate; the message says which line and what is wrong."""


@dataclass(frozen=True)
class Corpus:
    """The sentences of the input: tokens, reference tags, predicted tags and the line of every token."""

    tokens: list[list[str]]
    references: list[list[str]]
    predictions: list[list[str]]
    lines: list[list[int]]


@dataclass(frozen=True)
class ComparedCorpus:
    """The sentences of a comparison, column by column, as `nerscore.compare_semeval` takes them."""

    tokens: list[list[str]]
    references: list[list[str]]
    predictions_a: list[list[str]]
    predictions_b: list[list[str]]
    lines: list[list[int]]
    # Each sentence's document: the number of -DOCSTART- lines before it (docs/scoring.md §9); None without any.
    documents: list[int] | None = None


@dataclass(frozen=True)
class SpanCorpus:
    """The documents of span input: each one's text (None when not given), reference and predicted entities as
    given, and its line in the editor."""

    texts: list[str | None]
    references: list[list[Any]]
    predictions: list[list[Any]]
    lines: list[int]


# Line breaks as the page's editor counts them (str.splitlines also breaks at \f, \x1c, \u2028 ...), so the line
# numbers of messages match the editor's.
_LINE_BREAK = re.compile(r"\r\n?|\n")
# A code point of a UTF-16 surrogate pair: JSON can carry one alone ("\ud800"), but it is no character and
# cannot be encoded, so it is refused with a message before anything tries to.
SURROGATE = re.compile(r"[\ud800-\udfff]")

Item = TypeVar("Item")

# What the compare mode's message about too few columns adds: how to read three columns instead.
COLUMN_HINT = f' (for token, reference and predicted tag, choose "{texts.ONE_SYSTEM}")'


def _check_characters(text: str) -> None:
    found = SURROGATE.search(text)
    if found is None:
        return
    before = _LINE_BREAK.split(text[: found.start()])
    raise InputProblem(
        f"Line {len(before)}, character {len(before[-1]) + 1}: U+{ord(found.group()):04X} is half of a UTF-16 "
        "surrogate pair, not a character; send the text as valid Unicode (UTF-8)."
    )


def input_lines(text: str, command: str) -> list[str]:
    """The lines of the page's input, once it is known to be text the page takes: valid Unicode of at most
    `caps.MAX_BYTES` (`command` is the command line that takes more)."""
    if not isinstance(text, str):
        raise InputProblem(f"The input must be text, found {type(text).__name__}.")
    _check_characters(text)
    size = len(text.encode("utf-8"))
    if size > caps.MAX_BYTES:
        raise InputProblem(
            f"The input holds {size:,} bytes; the page evaluates at most {caps.MAX_BYTES:,} bytes (1 MB). "
            f"Use `{command}` for larger files."
        )
    # A pasted byte-order mark is dropped as an upload's is (read_upload): it made a line of spans "not JSON
    # (Unexpected UTF-8 BOM (decode using utf-8-sig))", advice for Python, and a first token of the mark.
    return _LINE_BREAK.split(text.removeprefix("\ufeff"))


class _Numbered:
    """The lines of the input, remembering the number of the last one handed out: the package's readers read
    lazily, so when one fails without naming its line, that is the line it failed on."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.number = 0

    def __iter__(self) -> Iterator[str]:
        for number, line in enumerate(self.lines, start=1):
            self.number = number
            yield line


def _page_reading(other: Any) -> str:
    """How the page reads a file of another format a reader found (a `nerscore.ConllError`'s `other_format`, the
    package's `OtherFormat`, which the page reaches by public names only): the task that reads it, or the command
    where the page reads no such file."""
    task = {other.SPANS: texts.SPANS, other.CONLL: texts.ONE_SYSTEM}.get(other.name)
    return f'choose "{task}"' if task else f"python ner_semeval.py {other.command_line()}"


def _read(
    read: Iterable[Item], lines: _Numbered, first_line: Callable[[Item], int], noun: str, command: str
) -> list[Item]:
    """What a package reader of `lines` yields (sentences, or documents of spans), at most `caps.MAX_SENTENCES` of
    them (`first_line` gives the line each starts on); a malformed line is a message naming it, in the reader's
    words. Any other `ValueError` of the reader names the line it was reading: Python's `json` refuses an
    integer of more than 4,300 digits with a plain one."""
    items: list[Item] = []
    limit = caps.MAX_SENTENCES
    try:
        for item in read:
            if len(items) == limit:
                raise InputProblem(
                    f"The input holds more than {limit:,} {noun}s (line {first_line(item)} starts {noun} "
                    f"{limit + 1:,}); the page evaluates at most {limit:,}. Use `{command}` for larger files."
                )
            items.append(item)
    except nerscore.ConllError as error:
        raise InputProblem(f"Line {error.line}: {error.worded(_page_reading)}.") from None
    except InputProblem:
        raise
    except ValueError as error:
        reason = str(error).split("; use sys.", 1)[0]  # Python's advice to programmers is no help on the page
        raise InputProblem(f"Line {lines.number}: cannot be read ({reason}).") from None
    return items


def parse_conll(text: str) -> Corpus:
    """The sentences of CoNLL text, read by `nerscore.read_conll`: the token is the first column, the reference
    and the predicted tag the last two."""
    command = "python ner_semeval.py FILE"
    lines = _Numbered(input_lines(text, command))
    read = nerscore.read_conll(lines, "input")
    sentences = _read(read, lines, lambda sentence: sentence.lines[0], "sentence", command)
    if not sentences:
        raise InputProblem("The input holds no sentences: write one token per line as `token reference predicted`.")
    return Corpus(
        [sentence.tokens for sentence in sentences],
        [sentence.references for sentence in sentences],
        [sentence.predictions for sentence in sentences],
        [sentence.lines for sentence in sentences],
    )


def parse_comparison(text: str) -> ComparedCorpus:
    """The sentences of two systems' CoNLL text, read by `nerscore.read_two_systems` (the token first, the
    reference tag, system A's and system B's last), with the same caps as `parse_conll`; with -DOCSTART- lines,
    each sentence's document (the statistics then resample documents)."""
    command = "python ner_semeval.py --compare A B"
    lines = _Numbered(input_lines(text, command))
    documents: list[int] = []
    read = nerscore.read_two_systems(lines, "input", column_hint=COLUMN_HINT, documents=documents)
    sentences = _read(read, lines, lambda sentence: sentence.lines[0], "sentence", command)
    if not sentences:
        raise InputProblem(
            "The input holds no sentences: write one token per line as `token reference systemA systemB`."
        )
    return ComparedCorpus(
        [sentence.tokens for sentence in sentences],
        [sentence.references for sentence in sentences],
        [sentence.predictions_a for sentence in sentences],
        [sentence.predictions_b for sentence in sentences],
        [sentence.lines for sentence in sentences],
        documents[: len(sentences)] if any(documents) else None,
    )


def parse_spans(text: str) -> SpanCorpus:
    """The documents of JSON lines text, read by `nerscore.read_span_lines` as the command line's `--spans`
    reads them (blank lines skipped), with the same caps as `parse_conll`."""
    command = "python ner_semeval.py --spans FILE.jsonl"
    lines = _Numbered(input_lines(text, command))
    read = nerscore.read_span_lines(lines, "input")
    documents = _read(read, lines, lambda document: document.line, "document", command)
    if not documents:
        raise InputProblem(
            'The input holds no documents: write one JSON object a line, {"text": ..., "references": [...], '
            '"predictions": [...]}.'
        )
    return SpanCorpus(
        [document.text for document in documents],
        [document.references for document in documents],
        [document.predictions for document in documents],
        [document.line for document in documents],
    )


def read_upload(path: str | None) -> str:
    """The text of an uploaded file (a byte-order mark dropped); an `InputProblem` when there is none, or it is
    too large or not UTF-8 text."""
    if not path:
        raise InputProblem("No file was uploaded.")
    if not isinstance(path, (str, os.PathLike)):  # (Gradio hands over a path; a direct caller may not)
        raise InputProblem(f"The upload is no file's path (found {type(path).__name__}).")
    name = Path(path).name
    try:
        size = os.path.getsize(path)
        if size > caps.MAX_BYTES:
            raise InputProblem(
                f"{name} holds {size:,} bytes; the page evaluates at most {caps.MAX_BYTES:,} bytes (1 MB)."
            )
        with open(path, "rb") as file:  # at most one byte past the cap: a device's size is 0 (/dev/zero never ends)
            content = file.read(caps.MAX_BYTES + 1)
    except OSError as error:
        raise InputProblem(f"{name} cannot be read ({error.strerror}).") from None
    if len(content) > caps.MAX_BYTES:
        raise InputProblem(
            f"{name} holds more than {caps.MAX_BYTES:,} bytes; the page evaluates at most {caps.MAX_BYTES:,} bytes "
            "(1 MB)."
        )
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputProblem(
            f"{name} is not UTF-8 text (byte {error.start:,} is {error.object[error.start]:#04x})."
        ) from None
