"""How the page writes what it shows, in tables, drawn sentences and pictures alike: tokens joined into text (no
space between two CJK tokens), long texts shortened to `caps.MAX_TEXT_CHARACTERS`, and numbers and p-values in
the command line's format.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from . import caps

NONE = "—"  # a cell with nothing in it: the other side of an unpaired entity
ELLIPSIS = "…"

_CJK = re.compile(r"^[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+$")


# What Markdown reads as markup in a status (the page's statuses are Markdown): escaped, so that a name or text of
# the visitor's is shown as written, never as a link, an image, emphasis or HTML.
_MARKDOWN = re.compile(r"([\\`*_<>\[\]|~])")
# The bidirectional controls of Unicode's algorithm (UAX #9): embeddings and overrides (U+202A-U+202E), isolates
# (U+2066-U+2069) and the marks (U+200E, U+200F, U+061C). In a visitor's token, type or name they reorder what
# follows on its line (U+202E writes the rest of a status or a drawn sentence backwards): a status and a tooltip
# write them as escapes (\u202e), a drawing isolates the text that holds them (`html_text`).
_BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# Line breaks (as str.splitlines breaks), which would start a heading, a list or a rule in the middle of a status.
_LINE_BREAKS = re.compile(r"[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]+")


def escape_markdown(text: str) -> str:
    """`text` with every character Markdown reads as markup escaped, and its bidirectional controls written as
    escapes (``\\u202e``)."""
    return _MARKDOWN.sub(r"\\\1", escaped_controls(text))


def escaped_controls(text: str) -> str:
    """`text` with its bidirectional controls written as escapes (``\\u202e``), as a status and a tooltip show
    them."""
    return _BIDI_CONTROLS.sub(lambda control: f"\\u{ord(control.group()):04x}", text)


def html_text(text: str) -> str:
    """A visitor's text (a token, a type, a document's text) as a drawing writes it: HTML-escaped, and in a <bdi>
    when it holds a bidirectional control, whose reordering then ends with it (HTML isolates a <bdi>'s content) so
    that the rest of the line reads as written."""
    escaped = html.escape(text)
    return f"<bdi>{escaped}</bdi>" if _BIDI_CONTROLS.search(text) else escaped


def quoted(text: str, limit: int | None = None) -> str:
    """A name or text of the visitor's as a status quotes it: shortened (`shorten`), on one line, escaped."""
    return escape_markdown(_LINE_BREAKS.sub(" ", shorten(text, limit)))


def join_segments(segments: Iterable[tuple[str, str, str]]) -> str:
    """Pieces of a sentence as text, each ``(first token, last token, text written)``: a space between two
    pieces unless the tokens on both sides of the gap are CJK (告 白 气 球 reads 告白气球). The one place that
    spaces tokens, for the tables' entity texts and the highlighted sentences alike."""
    parts: list[str] = []
    previous = None
    for first, last, text in segments:
        if previous is not None and not (_CJK.match(previous) and _CJK.match(first)):
            parts.append(" ")
        parts.append(text)
        previous = last
    return "".join(parts)


def join_tokens(tokens: Sequence[str]) -> str:
    """Tokens as text: spaces between words, none between two CJK tokens."""
    return join_segments((token, token, token) for token in tokens)


def shorten(text: str, limit: int | None = None) -> str:
    """`text`, or its first `limit` characters (`caps.MAX_TEXT_CHARACTERS` unless given; without a space at the
    end) and an ellipsis when longer."""
    limit = caps.MAX_TEXT_CHARACTERS if limit is None else limit
    return text if len(text) <= limit else text[:limit].rstrip() + ELLIPSIS


def entity_text(tokens: Sequence[str], start: int, end: int) -> str:
    """The text of tokens ``start:end``, shortened: a 1 MB entity costs no more than a short one."""
    # Each token gives at least one character, so no more than the limit of tokens is ever needed.
    shown = [shorten(token) for token in tokens[start : min(end, start + caps.MAX_TEXT_CHARACTERS + 1)]]
    text = shorten(join_tokens(shown))
    return text if text.endswith(ELLIPSIS) or end - start <= len(shown) else text + ELLIPSIS


def span_text(text: str | None, start: int, end: int) -> str:
    """An entity's text cut from its document's by its character offsets, shortened; its offsets (``[start:end]``)
    when the document has no text or the entity ends beyond it."""
    if text is None or end > len(text):
        return f"[{start}:{end}]"
    return shorten(text[start : min(end, start + caps.MAX_TEXT_CHARACTERS + 1)])


def pieces_text(text: str | None, pieces: Sequence[Sequence[int]]) -> str:
    """An entity's text by its pieces (its fragments, docs/scoring.md §12), each as `span_text` gives it, joined
    by a spaced ellipsis, shortened: only the pieces that reach the shortened text are read, so an entity of
    thousands of fragments costs no more than a short one."""
    shown: list[str] = []
    length = 0
    for start, end in pieces:
        if length > caps.MAX_TEXT_CHARACTERS:  # the pieces joined so far are longer: the rest are not read
            break
        shown.append(span_text(text, start, end))
        length += len(shown[-1]) + (3 if len(shown) > 1 else 0)
    joined = f" {ELLIPSIS} ".join(shown)
    limit = caps.MAX_TEXT_CHARACTERS
    return joined if len(joined) <= limit else joined[:limit].rstrip(f" {ELLIPSIS}") + ELLIPSIS


def count(number: int, noun: str) -> str:
    """A count of things in words, the noun singular for one: 1 token, 2 tokens, 1 entity, 3 entities."""
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    return f"{number:,} {noun if number == 1 else plural}"


def format_number(value: int | float) -> str:
    """Counts as integers, scores with at most four decimals: 0.4, 0.3333, 1.0, 0.0."""
    if isinstance(value, int):
        return str(value)
    text = f"{value:.4f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def format_p_value(value: float) -> str:
    """As the command line writes it: four decimals, or 1e-06 where four decimals would read 0.0000."""
    return f"{value:.4f}" if value >= 0.0001 else f"{value:.0e}"
