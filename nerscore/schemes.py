"""Tags and tagging schemes as data, in the manner of seqeval's `scheme.py` (docs/scoring.md §1)."""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, NamedTuple

from .errors import InvalidInputError, shown
from .span import LOGITS_HINT, looks_like_entity, looks_like_scores

OUTSIDE = "O"

# What a prefix letter does, whatever its spelling in a given scheme.
BEGIN = "begin"
INSIDE = "inside"
END = "end"
SINGLE = "single"

LENIENT = "lenient"
STRICT = "strict"
MODES = (LENIENT, STRICT)


@dataclass(frozen=True)
class Scheme:
    """A tagging scheme as data, in the manner of seqeval's ``scheme.py``.

    ``well_formed`` is the regular expression an entity's prefix letters must match in strict mode;
    ``well_formed_next_to_same_type`` is accepted too when the entity touches another entity of its type on
    ``touching_side`` (IOB1's ``B`` and IOE1's ``E`` exist only to separate two such entities).
    """

    name: str
    roles: Mapping[str, str]
    well_formed: str
    well_formed_next_to_same_type: str | None = None
    touching_side: str | None = None  # "before" or "after"

    @property
    def prefixes(self) -> tuple[str, ...]:
        return tuple(self.roles)


IOB2 = Scheme("IOB2", {"B": BEGIN, "I": INSIDE}, r"BI*")
IOB1 = Scheme("IOB1", {"B": BEGIN, "I": INSIDE}, r"I+", r"BI*", "before")
IOE2 = Scheme("IOE2", {"I": INSIDE, "E": END}, r"I*E")
IOE1 = Scheme("IOE1", {"I": INSIDE, "E": END}, r"I+", r"I*E", "after")
IOBES = Scheme("IOBES", {"B": BEGIN, "I": INSIDE, "E": END, "S": SINGLE}, r"S|BI*E")
BILOU = Scheme("BILOU", {"B": BEGIN, "I": INSIDE, "L": END, "U": SINGLE}, r"U|BI*L")
BMES = Scheme("BMES", {"B": BEGIN, "M": INSIDE, "E": END, "S": SINGLE}, r"S|BM*E")
IO = Scheme("IO", {"I": INSIDE}, r"I+")

SCHEMES: dict[str, Scheme] = {s.name: s for s in (IOB2, IOB1, IOE1, IOE2, IOBES, BILOU, BMES, IO)}
SCHEME_ALIASES = {"BIO": "IOB2", "BIOES": "IOBES"}
_ALL_PREFIXES = sorted({prefix for s in SCHEMES.values() for prefix in s.prefixes})


def get_scheme(scheme: str | Scheme) -> Scheme:
    """The `Scheme` named `scheme` (case-insensitive; BIO and BIOES are aliases)."""
    if isinstance(scheme, Scheme):
        # A copy of a scheme of the table (unpickled, deep-copied) is that scheme: encode tells IOB1, IOE1 and IO
        # by identity (a copy of IOB1 encoded as IOB2 silently).
        table = SCHEMES.get(scheme.name) if isinstance(scheme.name, str) else None
        return table if table == scheme else _checked_scheme(scheme)
    if isinstance(scheme, str):
        name = scheme.upper()
        name = SCHEME_ALIASES.get(name, name)
        if name in SCHEMES:
            return SCHEMES[name]
    known = ", ".join([*SCHEMES, *SCHEME_ALIASES])
    raise ValueError(f"unknown scheme {shown(scheme)}; expected one of {known}")


def _checked_scheme(scheme: Scheme) -> Scheme:
    """A `Scheme` built by hand, once each field is of its kind: else a ValueError naming the first that is not
    (read as it was, a regular expression that does not compile raised re.error, a role of no known name KeyError,
    roles that are no mapping AttributeError; encoding without an inside letter KeyError)."""
    roles, side = scheme.roles, scheme.touching_side
    patterns = (scheme.well_formed, scheme.well_formed_next_to_same_type)
    if not isinstance(scheme.name, str):
        problem = f"its name is {shown(scheme.name)}; expected a string"
    elif not isinstance(roles, Mapping) or not all(isinstance(p, str) and p and "-" not in p for p in roles):
        problem = f"its roles are {shown(roles)}; expected a dict of prefix letters (no hyphen) to roles"
    elif not set(roles.values()) <= {BEGIN, INSIDE, END, SINGLE} or INSIDE not in roles.values():
        problem = f"its roles are {shown(roles)}; expected {INSIDE}, and others among {BEGIN}, {END}, {SINGLE}"
    elif side not in (None, "before", "after"):
        problem = f"its touching_side is {shown(side)}; expected None, 'before' or 'after'"
    elif not all(_compiles(pattern) for pattern in patterns if pattern is not None) or patterns[0] is None:
        problem = f"its patterns are {shown(patterns)}; expected regular expressions of its prefix letters"
    else:
        return scheme
    raise ValueError(f"scheme {shown(scheme.name)} built by hand: {problem}")


def _compiles(pattern: Any) -> bool:
    try:
        re.compile(pattern)
    except (re.error, TypeError, RecursionError, OverflowError):
        return False
    return True


# The order in which schemes are suggested for a tag the declared scheme lacks: the common ones first.
_SUGGESTION_ORDER = (IOB2, IOBES, BILOU, BMES, IOE2, IOB1, IOE1, IO)


def _suggest_scheme(prefix: str, scheme: Scheme) -> Scheme:
    """The scheme to suggest for a `prefix` that `scheme` lacks: one that keeps the letters already in use
    (an S- tag in IOB2 data points to IOBES, an M- tag to BMES)."""
    owners = [s for s in _SUGGESTION_ORDER if prefix in s.roles]
    keeps_letters = [s for s in owners if set(scheme.roles) <= set(s.roles)]
    return (keeps_letters or owners)[0]


def split_tag(tag: str, suffix: bool) -> tuple[str, str, str]:
    """(prefix, hyphen, entity_type) of a string tag, split at its first hyphen (its last with `suffix`): the one
    split of `parse_tag`, of the readings of a tag and of the labels' check (docs/scoring.md §1); `hyphen` is empty
    where the tag has none."""
    if suffix:
        entity_type, hyphen, prefix = tag.rpartition("-")
    else:
        prefix, hyphen, entity_type = tag.partition("-")
    return prefix, hyphen, entity_type


def parse_tag(tag: Any, scheme: Scheme = IOB2, suffix: bool = False) -> tuple[str, str] | None:
    """Split a tag into ``(prefix, entity_type)``; ``None`` for the outside tag ``O``.

    The type is everything after the first hyphen (before the last one with ``suffix=True``), so
    ``B-MUSIC-NAME`` has type ``MUSIC-NAME`` (docs/scoring.md §1). Raises `InvalidInputError` (a `ValueError`).
    """
    if tag == OUTSIDE:
        return None
    form = "TYPE-PREFIX" if suffix else "PREFIX-TYPE"
    expected = f"'O' or {form} with a prefix of {scheme.name} ({', '.join(scheme.prefixes)})"
    if not isinstance(tag, str):
        raise InvalidInputError(f"{not_a_tag(tag)}: {expected}")
    if tag == OUTSIDE.lower():
        raise InvalidInputError("found tag 'o'; the outside tag is an uppercase 'O'")
    if several := sentence_in_one(tag, scheme, suffix):
        raise InvalidInputError(
            f"found tag {shown(tag)}, {several} tags apart by white space; expected one tag per token ({ONE_STRING})"
        )
    prefix, hyphen, entity_type = split_tag(tag, suffix)
    if not hyphen:
        if tag in _ALL_PREFIXES:
            raise InvalidInputError(f"found tag {tag!r}, a prefix with no type; expected {expected}")
        raise InvalidInputError(f"found tag {tag!r}, which has no prefix; expected {expected}{_likely_fix(tag)}")
    if not entity_type:
        raise InvalidInputError(f"found tag {tag!r}, a prefix with no type; expected {expected}")
    if prefix == OUTSIDE:
        raise InvalidInputError(f"found tag {tag!r}; the outside tag 'O' takes no type, expected {expected}")
    if prefix not in scheme.roles:
        if prefix in _ALL_PREFIXES:
            owners = " or ".join(s.name for s in SCHEMES.values() if prefix in s.roles)
            raise InvalidInputError(
                f"found tag {tag!r}, whose prefix {prefix!r} is not part of scheme {scheme.name} "
                f"(expected {expected}); {prefix!r} belongs to {owners}",
                suggested_scheme=_suggest_scheme(prefix, scheme).name,
            )
        upper = f"{entity_type}-{prefix.upper()}" if suffix else f"{prefix.upper()}-{entity_type}"
        fix = f"; prefixes are upper case: {upper!r}" if prefix.upper() in _ALL_PREFIXES else _likely_fix(tag)
        raise InvalidInputError(f"found tag {tag!r} with unknown prefix {prefix!r}; expected {expected}{fix}")
    return prefix, entity_type


# What a tag that holds several is told (`tags_in_one`): the parse's error, a batch's misaligned sentence, its row.
ONE_STRING = "a sentence given as one string? did you mean str.split()?"


def tags_in_one(value: Any, scheme: Scheme | None = None) -> int:
    """How many tags a string holds apart by white space, each read by some scheme (or `scheme`, one built by hand),
    prefix before or after the type (`"B-PER I-PER O"`: 3, a sentence given as one string, which would read as one
    tag of type "PER I-PER O" or one letter a token); 0 for anything else (`"B-New York"`: "York" is no tag)."""
    pieces = value.split() if isinstance(value, str) else ()
    # A word of neither O nor a hyphen is no tag: said before each word is parsed (90 µs a tag of a type that holds
    # a space, "B-New York", most in the messages of its refused parses: 100,000 distinct such tags took 9 s).
    if len(pieces) < 2 or not all(piece == OUTSIDE or "-" in piece for piece in pieces):
        return 0
    own = () if scheme is None else [f"{prefix}-" for prefix in scheme.roles] + [f"-{p}" for p in scheme.roles]
    readable = all(
        read_by_no_scheme(piece) is None
        or any(len(piece) > len(p) and p in (piece[: len(p)], piece[-len(p) :]) for p in own)
        for piece in set(pieces)
    )
    return len(pieces) if readable else 0


# When a string tag is certainly a sentence, refused where it is parsed: its words are tags (`tags_in_one`) and one
# of them is O, or two of them share a type (read as the scheme reads them, prefix first or after), or read whole it
# has no prefix letter (refused anyway: its words are tags). Else it is one tag whose type holds spaces: "B-Vitamin
# B-12" (type "Vitamin B-12") and "S-Adenosyl L-methionine" were refused as sentences of two tags (stop 44's note).
# What that costs: a sentence whose every token is a one-token entity of a type of its own, no O ("B-PER B-LOC"),
# reads as one tag, as seqeval reads any string; "B-Type O" stays refused, as "B-PER O", a sentence of two, is.
# A batch's misaligned sentence and a row that is one string keep `tags_in_one`: there it is a hint, not a refusal.
def sentence_in_one(tag: str, scheme: Scheme, suffix: bool) -> int:
    """How many tags `tag` holds where it is certainly a sentence given as one string (the rule above), else 0."""
    if not (several := tags_in_one(tag, scheme)):
        return 0
    pieces = tag.split()
    types = [split_tag(piece, suffix)[2] for piece in pieces]
    prefix = split_tag(tag, suffix)[0]
    whole = prefix in scheme.roles or prefix in _ALL_PREFIXES
    return several if OUTSIDE in pieces or len(set(types)) < len(types) or not whole else 0


def _whole(value: numbers.Real) -> bool:
    """Whether a real number is whole, never raising (a Fraction past a float's range raised OverflowError)."""
    try:
        return float(value).is_integer()
    except (OverflowError, ValueError, TypeError):
        return False


def _likely_fix(tag: str) -> str:
    """What a tag of digits most likely is: an id kept as a string (read from a CSV or JSON file)."""
    return "; integer ids go as int, with label_list" if tag.lstrip("-").isdecimal() and len(tag) < 100 else ""


# Every prefix letter of every scheme: what some scheme, with its prefixes before or after the type, could read.
_ANY_SCHEME = Scheme("any scheme", dict.fromkeys(_ALL_PREFIXES, INSIDE), "")
# What the evaluate module's refusal adds where a scheme built by hand would read the tag: it knows the schemes of
# the table and the one given to evaluate.load, not one given to a later compute alone.
HAND_BUILT_HINT = "a scheme built by hand, nerscore.Scheme, reads its own letters when given to evaluate.load"


def read_by_no_scheme(tag: str, hand_built: Scheme | None = None) -> str | None:
    """The problem with a string tag that no scheme reads (those of the table, and `hand_built`, the scheme built by
    hand given to evaluate.load), prefix before or after the type, else None: no option given to a later `compute`
    could score it, so the evaluate module refuses it when it is added, rather than storing a batch that would fail
    every compute after it."""
    letters = _ANY_SCHEME if hand_built is None else _any_scheme_and(hand_built)
    try:
        parse_tag(tag, letters)
        return None
    except InvalidInputError as error:
        problem = error.problem
    try:
        parse_tag(tag, letters, suffix=True)
        return None
    except InvalidInputError:
        pass
    problem = f"{problem}; no scheme reads it, with its prefix before the type or after it"
    if hand_built is None and any(read_by_no_scheme(tag, _one_letter(tag, suffix)) is None for suffix in (False, True)):
        return f"{problem}; {HAND_BUILT_HINT}"
    return problem


def _any_scheme_and(hand_built: Scheme) -> Scheme:
    return Scheme("any scheme", {**_ANY_SCHEME.roles, **dict.fromkeys(hand_built.roles, INSIDE)}, "")


def _one_letter(tag: str, suffix: bool) -> Scheme:
    """A scheme built by hand of the one prefix `tag` has, split as `parse_tag` splits it (a letter of no scheme)."""
    prefix = split_tag(tag, suffix)[0]
    return Scheme("one letter", {prefix or "-": INSIDE}, "")


# Every reading of a tag: a scheme's name, and whether its prefix comes after the type (`suffix`).
EVERY_READING = frozenset((name, suffix) for name in SCHEMES for suffix in (False, True))


def every_reading(hand_built: Scheme | None = None) -> frozenset[tuple[str, bool]]:
    """`EVERY_READING`, and with `hand_built` (the evaluate module's scheme built by hand) its two readings too."""
    if hand_built is None:
        return EVERY_READING
    return EVERY_READING | {(_reading_name(hand_built), suffix) for suffix in (False, True)}


def _reading_name(hand_built: Scheme) -> str:
    return f"{hand_built.name} (built by hand)"  # (its name may be one of the table's)


def readings_of(tag: str, hand_built: Scheme | None = None) -> frozenset[tuple[str, bool]]:
    """The (scheme name, suffix) under which `parse_tag` reads the string tag `tag`, split as it splits it, of the
    table's schemes and `hand_built`: a batch's tags that no one reading shares fail every compute, whatever its
    options."""
    if tag == OUTSIDE:
        return every_reading(hand_built)
    schemes = SCHEMES if hand_built is None else {**SCHEMES, _reading_name(hand_built): hand_built}
    found: set[tuple[str, bool]] = set()
    for suffix in (False, True):
        prefix, hyphen, entity_type = split_tag(tag, suffix)
        if hyphen and entity_type and prefix != OUTSIDE:
            found.update((name, suffix) for name, scheme in schemes.items() if prefix in scheme.roles)
    return frozenset(found)


# CPython hashes a nested tuple on the C stack without a recursion check: one nested 1,000,000 deep crashed the
# process (a segmentation fault) where 100,000 hashed. Nor does a tuple's hash (or its text) remember a tuple it
# holds twice: 60 tuples, each holding the one below twice, are read 2**60 times (the call never ended). No tag or
# id nests so deep or holds so many items: such a value is refused before it is hashed (a frozenset keeps its hash,
# made as it was built, but may hold tuples that are not yet hashed). Two equal tuples are compared (a dict's
# lookup of the second) with a recursion check, one level a frame: 990 deep raised RecursionError where they met
# (documents under bootstrap, a tag twice), so the depth stays well within Python's recursion limit.
DEEPEST_HASHED = 100
LARGEST_HASHED = 10_000_000


def unhashable_size(value: Any) -> str | None:
    """Why hashing `value` would crash or not end (tuples or frozensets nested in it more than `DEEPEST_HASHED`
    deep, or more than `LARGEST_HASHED` items held, each counted as often as it is held), or None. Level by
    level, without recursion, each tuple of a level read once with how often it is held: its work is bounded by
    `LARGEST_HASHED`."""
    if not isinstance(value, (tuple, frozenset)):
        return None
    if len(value) <= LARGEST_HASHED and not [item for item in value if isinstance(item, (tuple, frozenset))]:
        return None  # a flat id, nearly all: no level to walk
    level: dict[int, tuple[Any, int]] = {id(value): (value, 1)}
    held = 0
    for _ in range(DEEPEST_HASHED):
        below: dict[int, tuple[Any, int]] = {}
        for outer, times in level.values():
            held += times * len(outer)
            if held > LARGEST_HASHED:
                return (
                    f"holding more than {LARGEST_HASHED:,} items (counted as often as they are held), too many to hash"
                )
            for item in outer:
                if isinstance(item, (tuple, frozenset)):
                    before = below.get(id(item))
                    below[id(item)] = (item, times + (before[1] if before else 0))
        if not below:
            return None
        level = below
    return "nested too deep to hash"


def not_a_tag(value: Any) -> str:
    """The problem with a value that is not a string where a tag belongs; an entity of span input says so."""
    found = f"found {shown(value)} ({type(value).__name__})"
    if looks_like_entity(value):
        return f"{found}, an entity, among tags (a batch holds tags or spans, not both); expected a string tag"
    if looks_like_scores(value):
        return f"{found}, a list of numbers (a token's scores per label?); expected a string tag ({LOGITS_HINT})"
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):  # a tokenizer's -100 left among tags
        return f"{found}, an integer id among string tags; {ID_AMONG_TAGS}"
    if isinstance(value, numbers.Real) and not isinstance(value, bool) and _whole(value):  # float ids
        return f"{found}; expected a string tag, or integer ids with label_list (cast float ids with .astype(int))"
    return f"{found}; expected a string tag"


# An integer where the batch holds string tags, most often a tokenizer's -100 left in: what to do instead.
ID_AMONG_TAGS = (
    "expected a string tag (or ids on both sides, with label_list, which drops the positions whose reference is "
    "ignore_index, -100; with tags, drop a tokenizer's -100 positions from both sides)"
)


class ParsedTag(NamedTuple):
    """A tag other than O, taken apart: ``B-PER`` is prefix ``B``, role `BEGIN`, entity type ``PER``."""

    prefix: str
    role: str
    entity_type: str


# A tag's two characters of prefix letter and hyphen, and the rest, each sliced by a C-level call.
_FIRST_TWO, _AFTER_FIRST_TWO = itemgetter(slice(None, 2)), itemgetter(slice(2, None))
_LAST_TWO, _BEFORE_LAST_TWO = itemgetter(slice(-2, None)), itemgetter(slice(None, -2))


class TagTable(dict):
    """tag -> `ParsedTag` (None for O) for one scheme and tag style, each distinct tag parsed by `parse_tag` the
    first time it is met; a bad tag raises `InvalidInputError` every time it is looked up. With `kept` (whether
    `labels` keeps a type, `decoding.kept_types`), a tag of a type it leaves out reads as O: the decoder gives the
    same entities of the kept types either way (a type's entities begin, end and are well formed by its own tags
    and O, docs/scoring.md §2), so every tag path applies `labels` here, once per distinct tag."""

    def __init__(self, scheme: Scheme, suffix: bool, kept: Callable[[str], bool] | None = None) -> None:
        super().__init__()
        self.scheme = scheme
        self.suffix = suffix
        self.kept = kept

    def roles_and_types(
        self, tags: list[Any], role_values: Mapping[str | None, Any] | None = None
    ) -> tuple[list[Any], list[str | None]]:
        """The role and the entity type of each of `tags` (None and None for O), raising as `parse_tag` does at a
        bad one; with `role_values`, each role as role_values[role] (O's as role_values[None]): the array path's
        role flags, read off in the pass that finds the roles (mapping every role afterwards was 1 ms of 40,000
        tags). Tags of a one-letter prefix (every scheme's) are split here in a few list-wide steps instead of
        one `parse_tag` each (which builds its error messages' parts first): ultra-fine typing has tens of
        thousands of distinct tags, and this runs once per call for each of them (issue 16)."""
        value: Callable[[str | None], Any] = (lambda role: role) if role_values is None else role_values.__getitem__
        if not set(map(type, tags)) <= {str}:  # not all strings: each tag by parse_tag
            found: list[Any] = [None] * len(tags)
            types: list[str | None] = [None] * len(tags)
        else:  # what parse_tag splits at the hyphen when it is the second (TYPE-P: the last but one) character
            hyphened = "-{}" if self.suffix else "{}-"
            roles = self.scheme.roles.items()
            marks = {hyphened.format(prefix): value(role) for prefix, role in roles if len(prefix) == 1}
            mark, rest = (_LAST_TWO, _BEFORE_LAST_TWO) if self.suffix else (_FIRST_TWO, _AFTER_FIRST_TWO)
            found = list(map(marks.get, map(mark, tags)))
            types = list(map(rest, tags))
            # A tag holding white space, as a sentence given as one string ("B-PER I-PER O" would be of type "PER
            # I-PER O"), is parse_tag's to judge. One C-level split of them all first (3.7 ms of 100,000 tags' 58).
            if len("".join(tags).split(maxsplit=1)) > 1:
                for position in [at for at, tag in enumerate(tags) if len(tag.split(maxsplit=1)) > 1]:
                    found[position] = None
        # O, a tag parse_tag refuses with its message, an empty type, or a prefix of several letters: parse_tag.
        # Most calls have none after their first chunk (O is parsed once), so two C-level scans come first.
        # Their positions by C-level searches (a Python pass over every tag was 1.5 ms of 100,000 types), in order:
        # the first bad tag raises.
        if None in found or "" in types:
            for position in sorted({*_positions(found, None), *_positions(types, "")}):
                parsed = self[tags[position]]
                found[position], types[position] = (
                    (value(None), None) if parsed is None else (value(parsed.role), parsed.entity_type)
                )
        if self.kept is not None:
            left_out = [position for position, name in enumerate(types) if name is not None and not self.kept(name)]
            for position in left_out:
                found[position], types[position] = value(None), None
        return found, types

    def __missing__(self, tag: Any) -> ParsedTag | None:
        value = self.unhashed(tag)
        self[tag] = value
        return value

    def unhashed(self, tag: Any) -> ParsedTag | None:
        """`self[tag]`, parsed without hashing the tag and not kept: for a value too deep to hash (`unhashable_size`),
        which `parse_tag` refuses as it refuses any value that is not a string."""
        parsed = parse_tag(tag, self.scheme, self.suffix)
        if parsed is None or (self.kept is not None and not self.kept(parsed[1])):
            return None
        return ParsedTag(parsed[0], self.scheme.roles[parsed[0]], parsed[1])


def _positions(values: list[Any], value: Any) -> list[int]:
    """Where `value` is in `values`, each found by `list.index` (C-level), in order."""
    found: list[int] = []
    at = -1
    try:
        while True:
            at = values.index(value, at + 1)
            found.append(at)
    except ValueError:
        return found
