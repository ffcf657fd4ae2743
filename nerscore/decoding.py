"""Decoding tags into spans, and encoding spans as tags (docs/scoring.md §2)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from .errors import InvalidInputError
from .options import Options
from .schemes import (
    BEGIN,
    END,
    INSIDE,
    IO,
    IOB1,
    IOB2,
    IOE1,
    LENIENT,
    OUTSIDE,
    SINGLE,
    ParsedTag,
    Scheme,
    TagTable,
    get_scheme,
    not_a_tag,
)
from .span import Span


def decode(tags: Sequence[str], scheme: str | Scheme = IOB2, mode: str = LENIENT, suffix: bool = False) -> list[Span]:
    """The entities of one tag sequence, in order (docs/scoring.md §2).

    Lenient mode follows conlleval: an entity begins at a B/S/U tag, at any tag after O or after an entity
    that ended (E/L/S/U), and at a change of type. Strict mode then drops every entity whose prefix letters
    are not well formed in the scheme. Raises `InvalidInputError` naming the token of a malformed tag.
    """
    options = Options.of(scheme=scheme, mode=mode, suffix=suffix)
    return decode_tags(tags, options.mode, TagTable(options.scheme, options.suffix))


def decode_tags(tags: Sequence[Any], mode: str, table: TagTable) -> list[Span]:
    """`decode` with checked options, the tags parsed through `table`."""
    parsed: list[ParsedTag | None] = []
    for position, tag in enumerate(tags):
        try:
            parsed.append(table[tag])
        except InvalidInputError as error:
            raise error.at(token=position) from None
        except TypeError:  # an unhashable value: let parse_tag explain it
            raise InvalidInputError(not_a_tag(tag), token=position) from None

    spans: list[Span] = []
    start: int | None = None
    open_type = ""  # the type of the entity open at `start`
    for position, item in enumerate(parsed):
        if item is None:
            if start is not None:
                spans.append(Span(start, position, open_type))
                start = None
            continue
        if item.role in (BEGIN, SINGLE) or start is None or item.entity_type != open_type:
            if start is not None:
                spans.append(Span(start, position, open_type))
            start, open_type = position, item.entity_type
        if item.role in (END, SINGLE):
            spans.append(Span(start, position + 1, open_type))
            start = None
    if start is not None:
        spans.append(Span(start, len(parsed), open_type))
    if mode == LENIENT:
        return spans
    return [span for span in spans if _well_formed(span, parsed, table.scheme)]


def _well_formed(span: Span, parsed: Sequence[ParsedTag | None], scheme: Scheme) -> bool:
    letters = "".join(item.prefix for item in parsed[span.start : span.end] if item is not None)
    if re.fullmatch(scheme.well_formed, letters):
        return True
    if scheme.well_formed_next_to_same_type is None:
        return False
    neighbour = span.start - 1 if scheme.touching_side == "before" else span.end
    touching = parsed[neighbour] if 0 <= neighbour < len(parsed) else None
    return (
        touching is not None
        and touching.entity_type == span.entity_type
        and re.fullmatch(scheme.well_formed_next_to_same_type, letters) is not None
    )


def encode(spans: Iterable[Span], length: int, scheme: str | Scheme = IOB2, suffix: bool = False) -> list[str]:
    """The tags of `length` tokens holding `spans` (disjoint), written the canonical way in `scheme`.

    The inverse of `decode` in both modes: ``decode(encode(spans, n, s), s, mode) == sorted(spans)``.
    """
    scheme = get_scheme(scheme)
    letter = {role: prefix for prefix, role in scheme.roles.items()}
    tags = [OUTSIDE] * length
    ordered = sorted(spans)
    for index, span in enumerate(ordered):
        before = ordered[index - 1] if index else None
        after = ordered[index + 1] if index + 1 < len(ordered) else None
        touches_before = before is not None and before.end == span.start and before.entity_type == span.entity_type
        touches_after = after is not None and after.start == span.end and after.entity_type == span.entity_type
        size = span.end - span.start
        if scheme is IOB1:
            letters = ("B" if touches_before else "I") + "I" * (size - 1)
        elif scheme is IOE1:
            letters = "I" * (size - 1) + ("E" if touches_after else "I")
        elif scheme is IO:
            if touches_before:
                raise ValueError(f"IO cannot separate the touching {before} and {span}")
            letters = "I" * size
        elif SINGLE in letter and size == 1:
            letters = letter[SINGLE]
        else:
            first = letter.get(BEGIN, letter[INSIDE])
            last = letter.get(END, letter[INSIDE])
            letters = first + letter[INSIDE] * (size - 2) + last if size > 1 else first if BEGIN in letter else last
        for position, prefix in zip(range(span.start, span.end), letters):
            tags[position] = f"{span.entity_type}-{prefix}" if suffix else f"{prefix}-{span.entity_type}"
    return tags
