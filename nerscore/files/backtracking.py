"""Which regular expressions a backtracking matcher (Perl's, Python's `re`) takes time on that grows with what a
line holds rather than with its length: what `nerscore.files.perl_patterns` refuses of conlleval.pl's `-d`.
"""

from __future__ import annotations

import re
from typing import Any

# What makes a backtracking matcher (Perl's, Python's `re`) take time that grows with what a line holds rather
# than with its length: a quantifier over something that can itself match in more than one way ((a+)+, (a|aa)*,
# (,)\1*) tries every way of cutting a run (exponential: 'aaa...c' with (a+)+b), and a quantifier whose run a
# later one, not at the end of the pattern, can take over (\s*\s*x) tries every pair of cuts (polynomial). Perl
# has both; a -d with either is refused (house rule: time follows the input's size), and one without them costs
# each try at a position at most the length of the run it looks at. Read on Python's parse of the translated
# pattern (the module is re._parser from Python 3.11 on, sre_parse before).
_ALL_BYTES = frozenset(range(256))
_DIGITS = frozenset(range(0x30, 0x3A))
_CATEGORIES = {  # Python's \d, \s, \w on bytes: ASCII
    "CATEGORY_DIGIT": _DIGITS,
    "CATEGORY_SPACE": frozenset(b" \t\n\r\x0b\x0c"),
    "CATEGORY_WORD": _DIGITS | frozenset(range(0x41, 0x5B)) | frozenset(range(0x61, 0x7B)) | {0x5F},
}
_NESTED = (
    "a quantifier over something that itself matches in more than one way (another quantifier, an alternation "
    "or a backreference, as (a+)+ or (a|aa)*), which a matcher tries every way of (time exponential in a line's "
    "length); one quantifier over a class ([ab]+) matches the same"
)
_OVERLAPPING = (
    "two quantifiers one after the other that can take the same characters (as \\s*\\s*x; an optional part and "
    "an alternation are choices too, as a?a?aa or (a|aa)(a|aa)x), which a matcher tries every split of between them "
    "(time a power of a run's length, or exponential in their number); one quantifier matches the same"
)

_DEEP = (
    "groups nested deeper than this reading of a pattern goes (hundreds of levels, which Python's re compiles), "
    "whose cost it cannot tell"
)


def backtracking(pattern: bytes) -> str | None:
    """Why matching `pattern` (Python's `re` syntax, compiled already) can take time beyond a line's length, in
    words for a refusal (`_NESTED`, `_OVERLAPPING`, `_DEEP`); None when each try costs at most the run it reads."""
    try:
        return _backtracking(pattern)
    except RecursionError:  # (the walk recurses a level a group: 400 nested lookaheads raised it, a traceback)
        return _DEEP


def _backtracking(pattern: bytes) -> str | None:
    parsed = _parser().parse(pattern)
    caseless = bool(parsed.state.flags & re.IGNORECASE) or re.search(rb"\(\?[a-zA-Z]*i", pattern) is not None
    walk = _Walk(caseless)
    if walk.nested(list(parsed)):
        return _NESTED
    try:
        walk.live_after(list(parsed), frozenset(), True)
    except _Overlap:
        return _OVERLAPPING
    return None


def leading_run(pattern: bytes) -> frozenset[int] | None:
    """The bytes of the unbounded quantifier over one character that begins `pattern` (``\\s+x``, ``\\s*\\|``,
    ``.*x``; in a group, ``(\\s+)x``, or a group of one character under it, ``(\\s)+x``), exactly; None for any other
    pattern, or one with a backreference or (?i). A try of such a pattern that fails at a run of those bytes fails
    at every later position of the run too (the quantifier can end there at a subset of the places it could from
    the run's start, and what follows sees the same text; a group's capture changes no try), which
    `perl_patterns.perl_split` then passes over rather than trying each (time a square of the run's length)."""
    parser = _parser()
    parsed = parser.parse(pattern)
    dotall = bool(parsed.state.flags & re.DOTALL)
    items, dotall = _ungrouped(list(parsed), dotall)
    if not items or re.search(rb"\\[1-9]|\(\?P=|\(\?\(|\(\?[a-zA-Z]*i", pattern):
        return None
    op, argument = items[0]
    body: list[Any] = []
    if _choice(str(op), argument) and argument[1] == parser.MAXREPEAT:
        body, dotall = _ungrouped(list(argument[2]), dotall)
    if len(body) != 1:
        return None
    (body_op, body_argument), *_ = body
    if str(body_op) == "ANY":  # every byte but a newline, unless (?s) is in force
        return _ALL_BYTES if dotall else _ALL_BYTES - {0x0A}
    if str(body_op) not in ("LITERAL", "NOT_LITERAL", "IN"):
        return None
    return _Walk(False).characters(str(body_op), body_argument)


def _ungrouped(items: list[Any], dotall: bool) -> tuple[list[Any], bool]:
    """`items` with the groups they begin with opened (``((a)b)c``: ``abc``), but for a group that sets flags
    other than (?s), and whether (?s) is in force then."""
    while items and str(items[0][0]) == "SUBPATTERN" and not (items[0][1][1] | items[0][1][2]) & ~re.DOTALL:
        _, added, removed, group = items[0][1]
        if group:  # (the flags of an empty group reach nothing that follows it)
            dotall = (dotall or bool(added & re.DOTALL)) and not removed & re.DOTALL
        items = [*group, *items[1:]]
    return items, dotall


def _parser() -> Any:
    """Python's parser of regular expressions: re._parser from Python 3.11 on, sre_parse before."""
    try:
        from re import _parser as parser  # type: ignore[attr-defined]
    except ImportError:  # Python 3.10
        import sre_parse as parser
    return parser


class _Overlap(Exception):
    """Raised inside `_Walk.live_after` at a quantifier that can take what an earlier one gives back."""


class _Walk:
    """Python's parse of a pattern read for its backtracking (`backtracking`)."""

    def __init__(self, caseless: bool) -> None:
        self.caseless = caseless

    def characters(self, op: str, argument: Any) -> frozenset[int] | None:
        """The bytes a one-character node matches (both cases when caseless); None for any other node."""
        if op == "LITERAL":
            members = frozenset({argument})
        elif op == "NOT_LITERAL":
            members = _ALL_BYTES - {argument}
        elif op == "ANY":
            members = _ALL_BYTES
        elif op == "IN":
            members, negated = frozenset(), False
            for item, value in argument:
                if str(item) == "NEGATE":
                    negated = True
                elif str(item) == "LITERAL":
                    members |= {value}
                elif str(item) == "RANGE":
                    members |= frozenset(range(value[0], value[1] + 1))
                else:  # a category (\\s, \\D) or anything else: its bytes, else every byte
                    name = str(value)
                    plain = _CATEGORIES.get(name.replace("NOT_", ""), _ALL_BYTES)
                    members |= _ALL_BYTES - plain if "NOT_" in name else plain
            members = _ALL_BYTES - members if negated else members
        else:
            return None
        if self.caseless:
            members |= {byte ^ 0x20 for byte in members if 0x41 <= byte & ~0x20 <= 0x5A}
        return frozenset(members)

    def first(self, items: list[Any]) -> frozenset[int]:
        """The bytes a match of the sequence `items` can begin with (every byte where it cannot tell)."""
        found: frozenset[int] = frozenset()
        for op, argument in items:
            members = self.characters(str(op), argument)
            if members is not None:
                return found | members
            if str(op) in ("AT", "ASSERT", "ASSERT_NOT"):
                continue  # zero width: what follows begins the match
            body = _body(str(op), argument)
            if body is None:
                return _ALL_BYTES
            found |= frozenset().union(*(self.first(part) for part in body))
            if str(op).endswith("REPEAT") and argument[0] == 0:
                continue
            if str(op) in ("SUBPATTERN", "ATOMIC_GROUP", "REPEAT") or str(op).endswith("REPEAT"):
                return found
            return _ALL_BYTES  # (an alternation that may be empty: conservative)
        return found

    def nested(self, items: list[Any], in_loop: bool = False) -> bool:
        """Whether a quantifier of more than one repeat holds another quantifier with a choice of counts, an
        alternation or a backreference (at any depth, lookarounds included)."""
        for op, argument in items:
            name = str(op)
            if in_loop and (name in ("BRANCH", "GROUPREF", "GROUPREF_EXISTS") or _choice(name, argument)):
                return True
            body = _body(name, argument)
            looping = in_loop or (name.endswith("REPEAT") and argument[1] > 1)
            if body is not None and any(self.nested(part, looping) for part in body):
                return True
        return False

    def live_after(self, items: list[Any], live: frozenset[int], tail: bool) -> frozenset[int]:
        """The bytes a quantifier earlier in the pattern can still give back after the sequence `items`, entered
        with `live`; raises `_Overlap` at a quantifier with a choice of counts, not at the pattern's end, whose
        first bytes are among them. `tail`: the sequence ends the pattern."""
        for index, (op, argument) in enumerate(items):
            name, last = str(op), tail and index == len(items) - 1
            members = self.characters(name, argument)
            if members is not None:
                live = live if members & live else frozenset()  # a byte it cannot take ends the giving back
            elif name in ("GROUPREF", "GROUPREF_EXISTS"):
                if live and not last:
                    raise _Overlap
                live = _ALL_BYTES
            elif _choice(name, argument) or name == "BRANCH":
                # An optional part and an alternation are choices too: a?a?a?aaa or (?:a|aa)(?:a|aa)... take
                # time exponential in their number on a's ('a?' * 20 + 'a' * 20 on 20 a's: 0.3 s, each two more 4x).
                parts = [list(part) for part in argument[1]] if name == "BRANCH" else [list(argument[2])]
                starts = frozenset().union(*(self.first(part) for part in parts))
                if starts & live and not last:
                    raise _Overlap
                if name == "BRANCH" or argument[1] <= 1:  # either way on, what it took given back
                    live = live | starts | frozenset().union(*(self.live_after(part, live, last) for part in parts))
                else:
                    live = starts | (live if argument[0] == 0 else frozenset())
            elif name in ("SUBPATTERN", "ATOMIC_GROUP") or name.endswith("REPEAT"):
                parts = _body(name, argument) or []
                if name.endswith("REPEAT") and argument[1] == 0:
                    continue
                live = frozenset().union(*(self.live_after(list(part), live, last) for part in parts))
            elif name in ("ASSERT", "ASSERT_NOT"):
                self.live_after(list(argument[1]), frozenset(), True)
        return live


def _choice(name: str, argument: Any) -> bool:
    """Whether a node is a quantifier with a choice of counts (a*, a{1,3}; not a{3})."""
    return name.endswith("REPEAT") and argument[0] != argument[1]


def _body(name: str, argument: Any) -> list[list[Any]] | None:
    """The sequences a node holds (a group's, each alternative, a quantifier's, a lookaround's); None for one
    that holds none."""
    if name == "SUBPATTERN":
        return [list(argument[-1])]
    if name == "ATOMIC_GROUP":
        return [list(argument)]
    if name == "BRANCH":
        return [list(part) for part in argument[1]]
    if name.endswith("REPEAT") or name in ("ASSERT", "ASSERT_NOT"):
        return [list(argument[-1])]
    if name == "GROUPREF_EXISTS":
        return [list(part) for part in argument[1:] if part is not None]
    return None
