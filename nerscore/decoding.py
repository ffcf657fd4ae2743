"""Decoding tags into spans, and encoding spans as tags (docs/scoring.md §2)."""

from __future__ import annotations

import itertools
import numbers
import re
import sys
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

import numpy as np

from .errors import FLOOR, InvalidInputError, plain_text, refuse_past_free_memory, shown
from .options import Options
from .schemes import (
    BEGIN,
    END,
    INSIDE,
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
    unhashable_size,
)
from .span import Span, check_spans, listed


def decode(tags: Sequence[str], scheme: str | Scheme = IOB2, mode: str = LENIENT, suffix: bool = False) -> list[Span]:
    """The entities of one tag sequence, in order (docs/scoring.md §2), by the one decoder of every path
    (`decode_roles`, which the array path runs on whole batches).

    Lenient mode follows conlleval: an entity begins at a B/S/U tag, at any tag after O or after an entity
    that ended (E/L/S/U), and at a change of type. Strict mode then drops every entity whose prefix letters
    are not well formed in the scheme. Raises `InvalidInputError` naming the token of a malformed tag.
    """
    options = Options.of(scheme=scheme, mode=mode, suffix=suffix)
    tags = (
        listed("tags", tags, "a list of tags such as ['B-PER', 'I-PER', 'O']") if not isinstance(tags, list) else tags
    )
    return decode_tags(tags, options.mode, TagTable(options.scheme, options.suffix))


def decode_tags(tags: Sequence[Any], mode: str, table: TagTable) -> list[Span]:
    """`decode` with checked options, the tags parsed through `table` (`decode_roles` on one sentence)."""
    parsed: list[ParsedTag | None] = []
    # Values other than strings (`str.join` refuses one without hashing it, at C speed): one too deep or too large
    # to hash (schemes.unhashable_size) is parsed, and refused, never hashed
    mixed = False
    try:
        "".join(tags)
    except TypeError:
        mixed = True
    for position, tag in enumerate(tags):
        try:
            try:
                parsed.append(table.unhashed(tag) if mixed and unhashable_size(tag) else table[tag])
            except TypeError:  # an unhashable value: parse_tag explains it; a str subclass's raising hash: its string
                if not isinstance(tag, str):
                    raise InvalidInputError(not_a_tag(tag)) from None
                parsed.append(table[plain_text(tag)])
        except InvalidInputError as error:
            raise error.at(token=position) from None
    names: dict[str, int] = {}
    role = np.fromiter((ROLE_FLAGS[None if item is None else item.role] for item in parsed), np.int8, len(parsed))
    entity_type = np.fromiter(
        (-1 if item is None else names.setdefault(item.entity_type, len(names)) for item in parsed),
        np.int64,
        len(parsed),
    )
    start, end, type_id = decode_roles(role, entity_type, np.array([0, len(parsed)]), mode, table.scheme)
    type_names = list(names)
    return [
        Span(first, last, type_names[kind]) for first, last, kind in zip(start.tolist(), end.tolist(), type_id.tolist())
    ]


def kept_types(labels: Collection[str] | None) -> Callable[[str], bool] | None:
    """Whether `labels` keeps the entities of a type (docs/scoring.md §2: only the listed types, on both sides,
    after decoding and before pairing); None when it keeps every entity. The one reading of the option: tags
    apply it as they are parsed (`tag_table`), spans as they are read, string entities between the grounding
    of the references and that of the predictions (§1b)."""
    return None if labels is None else frozenset(labels).__contains__


def tag_table(options: Options) -> TagTable:
    """The `TagTable` of `options`' scheme and tag style, in which a tag of a type `labels` leaves out reads as O."""
    return TagTable(options.scheme, options.suffix, kept_types(options.labels))


# A role as bit flags, so that one array lookup per token answers all three questions decoding asks.
ENTITY, OPENS, CLOSES = 1, 2, 4
ROLE_FLAGS = {None: 0, INSIDE: ENTITY, BEGIN: ENTITY | OPENS, END: ENTITY | CLOSES, SINGLE: ENTITY | OPENS | CLOSES}


def decode_roles(
    role: np.ndarray,
    entity_type: np.ndarray | Callable[[np.ndarray], np.ndarray],
    offsets: np.ndarray,
    mode: str,
    scheme: Scheme,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`decode` of every sentence of a batch at once, as the (start, end, type id) of its entities in order,
    positions counted from the batch's start: `role` and `entity_type` give each token's `ROLE_FLAGS` and type
    id (for O, -1 or any value no type has), sentence i being tokens `offsets[i]` to `offsets[i + 1]`.
    `entity_type` may be a function giving the type ids at an array of positions: only entity tokens' are read."""
    size = len(role)
    type_at = entity_type.__getitem__ if isinstance(entity_type, np.ndarray) else entity_type
    # goes_on: an entity token continues the entity of the token before it (docs/scoring.md §2 lenient): it is
    # an entity's I/E/L (not B/S/U), the token before it an entity's B/I (not closed by E/L/S/U), of one type, in
    # one sentence. An entity then begins at every entity token that does not go on, and ends before every token
    # that does not. Worked out on the entity tokens alone (their positions `at`, about a tenth of the tokens):
    # a token that goes on and the one before it are both entity tokens, next to each other.
    at = np.flatnonzero(role != 0)  # every role of an entity has the ENTITY flag; O's is 0
    at_role, at_type = role[at], type_at(at)
    sentence_first = np.zeros(size + 1, dtype=bool)
    sentence_first[offsets] = True  # a sentence's first token (and `size`, past the last one)
    goes_on = np.empty(len(at) + 1, dtype=bool)  # (the last, past every entity token: False)
    goes_on[0] = goes_on[-1] = False
    inner = goes_on[1:-1]
    np.equal(at[1:] - at[:-1], 1, out=inner)
    inner &= (at_role[1:] & (ENTITY | OPENS)) == ENTITY
    inner &= (at_role[:-1] & (ENTITY | CLOSES)) == ENTITY
    inner &= at_type[1:] == at_type[:-1]
    inner &= ~sentence_first[at[1:]]
    # The entity tokens that begin an entity, then len(at): found once, as positions, and indexed with them (three
    # selections by the scattered mask cost 1 ms of plain compute on 20,000 x 20 tags; this, a third of it).
    begins = np.flatnonzero(~goes_on)
    first = begins[:-1]
    start = at[first]
    end = at[begins[1:] - 1] + 1
    type_id = at_type[first]
    if mode == LENIENT:
        return start, end, type_id
    # Strict: the entities whose prefix letters are well formed in the scheme.
    first_role = role[start]
    last_role = role[end - 1]
    length = np.minimum(end - start, 3)
    valid = _strict_table(scheme, scheme.well_formed)[first_role, last_role, length]
    if scheme.well_formed_next_to_same_type is not None:
        # IOB1 / IOE1: the neighbouring token, in the same sentence, has an entity of the same type.
        if scheme.touching_side == "before":
            neighbour, inside_sentence = start - 1, ~sentence_first[start]
        else:  # (`sentence_first` marks `size` too, the end of the last sentence)
            neighbour, inside_sentence = end, ~sentence_first[end]
        neighbour = np.minimum(neighbour, size - 1).clip(0)
        touching = inside_sentence & (type_at(neighbour) == type_id) & (role[neighbour] != 0)
        table = _strict_table(scheme, scheme.well_formed_next_to_same_type)
        valid |= touching & table[first_role, last_role, length]
    kept = np.flatnonzero(valid)  # (positions once, not three selections by the mask)
    return start[kept], end[kept], type_id[kept]


_STRICT_TABLES: dict[tuple[str, tuple[tuple[str, str], ...]], np.ndarray] = {}


def _strict_table(scheme: Scheme, pattern: str) -> np.ndarray:
    """valid[first role, last role, min(length, 3)] for entities of the lenient decoder (made once per scheme).

    Inside an entity every token but the first and the last is INSIDE (a B/S would open a new entity, an
    E/L would close it), so an entity's prefix letters are fixed by its first and last role and whether it
    is longer than two tokens: the scheme's regular expression is evaluated once per combination."""
    key = (pattern, tuple(scheme.roles.items()))  # not its name: schemes built by hand may share one
    if key in _STRICT_TABLES:
        return _STRICT_TABLES[key]
    letter = {ROLE_FLAGS[role]: prefix for prefix, role in scheme.roles.items()}
    middle = letter.get(ROLE_FLAGS[INSIDE], "")
    valid = np.zeros((8, 8, 4), dtype=bool)
    for first, first_letter in letter.items():
        for last, last_letter in letter.items():
            valid[first, last, 1] = first == last and re.fullmatch(pattern, first_letter) is not None
            valid[first, last, 2] = re.fullmatch(pattern, first_letter + last_letter) is not None
            valid[first, last, 3] = re.fullmatch(pattern, first_letter + middle + last_letter) is not None
    _STRICT_TABLES[key] = valid
    return valid


def _checked_spans(spans: Iterable[Span], length: int) -> list[Span]:
    """`encode`'s spans sorted, each a `Span` within the `length` tokens and none overlapping another: a
    `ValueError` saying which otherwise (a negative start wrote from the end, one past `length` raised IndexError,
    overlapping ones overwrote each other's tags)."""
    if isinstance(length, (bool, np.bool_)) or not isinstance(length, (int, np.integer)) or length < 0:
        raise InvalidInputError(f"length is {shown(length)}; expected a whole number of tokens >= 0")
    if length > sys.maxsize:  # (OverflowError: "cannot fit 'int' into an index-sized integer")
        raise InvalidInputError(
            f"length is {shown(length)}; expected a number of tokens a list holds ({sys.maxsize:,})"
        )
    given = listed("spans", spans, "an iterable of Span")
    for index, span in enumerate(given):
        if not isinstance(span, Span):
            raise InvalidInputError(f"spans[{index}]: found {shown(span)}; expected a Span (as_span reads others)")
        integers = isinstance(span.start, numbers.Integral) and isinstance(span.end, numbers.Integral)
        if integers and not 0 <= span.start < span.end <= length:
            raise InvalidInputError(f"spans[{index}]: found {shown(span)}; expected 0 <= start < end <= {length}")
    # Built by hand: offsets of no integer raised TypeError, a type None or "" wrote 'B-None' or 'B-', which no
    # decoding reads back (tests/test_redteam13.py).
    ordered = sorted(check_spans("spans", given))
    for before, span in itertools.pairwise(ordered):
        if span.start < before.end:
            raise InvalidInputError(f"found {shown(before)} and {shown(span)}, which overlap; expected disjoint spans")
    return ordered


def encode(spans: Iterable[Span], length: int, scheme: str | Scheme = IOB2, suffix: bool = False) -> list[str]:
    """The tags of `length` tokens holding `spans` (disjoint), written the canonical way in `scheme`.

    The inverse of `decode` in both modes: ``decode(encode(spans, n, s), s, mode) == sorted(spans)``. Two touching
    entities of one type that no letter of `scheme` separates (IO's, or a scheme built by hand without a begin, end
    or single letter) are a `ValueError`, never written as one.
    """
    scheme = get_scheme(scheme)
    letter = {role: prefix for prefix, role in scheme.roles.items()}
    ordered = _checked_spans(spans, length)
    # Before the tags are made, a length past the memory free (MemoryError): a pointer a tag, and two more for each
    # token of the longest entity (its letters, then its tags, each letter's tag written once).
    largest = max((span.end - span.start for span in ordered), default=0)
    refuse_past_free_memory(
        8 * length + 16 * largest, f"length is {length:,}: its tags need", "fewer tokens", "", FLOOR
    )
    tags = [OUTSIDE] * length
    # border[k]: spans k - 1 and k touch and are of one type (IOB1's B and IOE1's E mark it, IO cannot)
    border = [False, *(a.end == b.start and a.entity_type == b.entity_type for a, b in itertools.pairwise(ordered))]
    border.append(False)
    # What separates two such entities in decoding (docs/scoring.md §2): the second's first letter begins one, or
    # the first's last letter ends one. IO has neither, nor a scheme built by hand of inside letters alone (or of a
    # single letter, for entities of several tokens): their tags would decode as one entity, silently.
    separates = {BEGIN, SINGLE}, {END, SINGLE}
    last_role = None
    written: dict[tuple[str, str], str] = {}  # each tag's text, made once (a string a token took 60 bytes)
    for index, span in enumerate(ordered):
        touches_before, touches_after = border[index], border[index + 1]
        size = span.end - span.start
        if scheme is IOB1:
            letters = ["B" if touches_before else "I"] + ["I"] * (size - 1)
        elif scheme is IOE1:
            letters = ["I"] * (size - 1) + ["E" if touches_after else "I"]
        elif SINGLE in letter and size == 1:
            letters = [letter[SINGLE]]
        else:
            first = letter.get(BEGIN, letter[INSIDE])
            last = letter.get(END, letter[INSIDE])
            # (a list: a scheme built by hand may have prefixes of several letters)
            inside = [letter[INSIDE]] * (size - 2)
            letters = [first, *inside, last] if size > 1 else [first if BEGIN in letter else last]
        if touches_before and scheme.roles[letters[0]] not in separates[0] and last_role not in separates[1]:
            raise ValueError(
                f"{scheme.name} cannot separate the touching {ordered[index - 1]} and {span}, of one type: its letters "
                "mark neither where the first ends nor where the second begins; expected a gap between them, or a "
                "scheme that marks one (IOB2, IOE2, IOBES ...)"
            )
        last_role = scheme.roles[letters[-1]]
        kind = span.entity_type
        tags[span.start : span.end] = [
            written.get((prefix, kind))
            or written.setdefault((prefix, kind), f"{kind}-{prefix}" if suffix else f"{prefix}-{kind}")
            for prefix in letters
        ]
    return tags
