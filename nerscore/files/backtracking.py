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
        """The bytes a one-character node matches (when caseless, as Python's `re` reads bytes: a byte or its
        other ASCII case among the members, before a negation); None for any other node."""
        members: frozenset[int] = frozenset()
        negated = op == "NOT_LITERAL"
        if op in ("LITERAL", "NOT_LITERAL"):
            members = frozenset({argument})
        elif op == "ANY":
            members = _ALL_BYTES
        elif op == "IN":
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
        else:
            return None
        if self.caseless:  # ([^a] under (?i) takes neither a nor A)
            members |= {byte ^ 0x20 for byte in members if 0x41 <= byte & ~0x20 <= 0x5A}
        return frozenset(_ALL_BYTES - members if negated else members)

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


# A rule of `skip_guard`: the classes of the bytes just before a position (the nearest last) and the bytes the
# byte at it is not (or the line ends there).
_Rule = tuple[tuple[frozenset[int], ...], frozenset[int]]
_ONE_CHARACTER = ("LITERAL", "NOT_LITERAL", "IN", "ANY")
_BACKREFERENCE = re.compile(rb"\\[1-9]|\(\?P=|\(\?\(")


def skip_guard(pattern: bytes) -> bytes | None:
    """Zero-width text S such that, at a position i > 0, S and a match of `pattern` at i mean a match at i - 1:
    a search that passes over the positions S holds at (after a failed try at the one before) finds the same
    leftmost match, and tries a run once rather than at each byte of it (time a square of the run's length:
    ``\\s+x``, ``a*b*x`` on b's, ``x?\\s+y``, ``\\s+x|,``, ``(?=\\s+x)``, ``(?<=\\s)\\s+x``, ``(?i)\\s+x``). None
    where it cannot tell (a backreference: a group's capture would change the try), b"" where S always holds.

    Why, per rule (`_rules`): a pattern beginning with optional one-character runs r1*...r(j-1)* then a run
    rj{n,} (greedy or lazy) matches at i - 1 wherever it matches at i, the byte before i is rj's and the byte at i
    none of the earlier runs' (they take nothing at i, nothing at i - 1 either, rj one byte more, and what follows
    sees the same text from the same place); a required one-character node whose byte is not at i fails there
    (any S then). A lookbehind of one character first must hold at i - 1 too: its class before. An alternation
    needs each alternative's S, a lookahead first its own and the rest's (`_clauses`)."""
    if _BACKREFERENCE.search(pattern):
        return None
    parsed = _parser().parse(pattern)
    try:
        clauses = _clauses(_flat(list(parsed), parsed.state.flags))
    except RecursionError:
        return None
    texts = [[_rule_text(rule) for rule in clause if all(rule[0])] for clause in clauses]
    if any(not clause for clause in texts):
        return None
    return b"".join(b"(?=" + b"|".join(clause) + b")" for clause in texts)


def first_and_run(pattern: bytes) -> tuple[frozenset[int], frozenset[int]] | None:
    """The classes of a pattern c r{n,}... that begins with one character then a run taking c's bytes too
    (``a.*b``, ``a[^b]*b``); None for any other, or one with a backreference. Where such a pattern fails at i, it
    fails at each later position up to the first byte r does not take (a match at j would be one at i: c there,
    r over the bytes between and what it took at j), which `perl_patterns` passes over, each byte read once."""
    if _BACKREFERENCE.search(pattern):
        return None
    parsed = _parser().parse(pattern)
    items = _flat(list(parsed), parsed.state.flags)
    if len(items) < 2:
        return None
    first, run = _single(*items[0]), _single(*items[1])
    if first is None or run is None or first[1:] != (1, 1) or run[2] != _parser().MAXREPEAT:
        return None
    return (first[0], run[0]) if first[0] <= run[0] else None


def _flat(items: list[Any], flags: int) -> list[tuple[Any, Any, int]]:
    """`items` with their groups opened, each with the flags in force at it (a group's add to or take from
    those around it; no capture changes a try where no backreference reads it)."""
    flat: list[tuple[Any, Any, int]] = []
    for op, argument in items:
        if str(op) == "SUBPATTERN":
            _, added, removed, group = argument
            flat.extend(_flat(list(group), (flags | added) & ~removed))
        else:
            flat.append((op, argument, flags))
    return flat


def _clauses(items: list[tuple[Any, Any, int]]) -> list[list[_Rule]]:
    """The rules of `skip_guard` for a sequence: S holds where one rule of each clause holds."""
    if not items:
        return []  # (nothing matches everywhere)
    (op, argument, flags), rest = items[0], items[1:]
    if str(op) == "BRANCH":
        return [clause for part in argument[1] for clause in _clauses(_flat(list(part), flags) + rest)]
    if str(op) == "ASSERT" and argument[0] == 1:  # a lookahead and what follows it both hold at i - 1
        return _clauses(_flat(list(argument[1]), flags)) + _clauses(rest)
    return [_rules(items)]


def _rules(items: list[tuple[Any, Any, int]]) -> list[_Rule]:
    """The rules of a sequence of one-character runs (`skip_guard`), up to its first other node."""
    rules: list[_Rule] = []
    excluded: frozenset[int] = frozenset()
    behind: tuple[frozenset[int], ...] = ()
    for index, (op, argument, flags) in enumerate(items):
        if str(op) == "ASSERT" and argument[0] == -1 and index == 0:
            body = _flat(list(argument[1]), flags)
            looked = _single(*body[0]) if len(body) == 1 else None
            if looked is None or looked[1:] != (1, 1):
                break
            behind = (looked[0],)
            continue
        single = _single(op, argument, flags)
        if single is None:
            break
        members, least, most = single
        if most == _parser().MAXREPEAT:
            rules.append(((*behind, members), excluded))
        if least:
            rules.append(((), excluded | members))
            break
        excluded |= members
    return rules


def _single(op: Any, argument: Any, flags: int) -> tuple[frozenset[int], int, int] | None:
    """The bytes, and least and most counts, of a one-character node or a greedy or lazy quantifier over one
    (in groups); None for any other node."""
    name = str(op)
    if name in ("MAX_REPEAT", "MIN_REPEAT"):
        least, most, body = argument
        inner = _flat(list(body), flags)
        if len(inner) != 1 or str(inner[0][0]) not in _ONE_CHARACTER:
            return None
        one = _single(*inner[0])
        return None if one is None else (one[0], least, most)
    if name not in _ONE_CHARACTER or (name == "IN" and any(str(item) not in _CLASS_ITEMS for item, _ in argument)):
        return None
    members = _Walk(bool(flags & re.IGNORECASE)).characters(name, argument)
    if members is None:
        return None
    if name == "ANY" and not flags & re.DOTALL:
        members -= {0x0A}
    return members, 1, 1


_CLASS_ITEMS = ("NEGATE", "LITERAL", "RANGE", "CATEGORY")


def _rule_text(rule: _Rule) -> bytes:
    """A rule as zero-width regular-expression text."""
    behind, excluded = rule
    text = b"(?<=" + b"".join(byte_class(members) for members in behind) + b")" if behind else b""
    return text + (b"(?!" + byte_class(excluded) + b")" if excluded else b"")


def byte_class(members: frozenset[int]) -> bytes:
    """A regular expression of one byte of `members`, which no byte matches where there is none."""
    return b"[" + b"".join(b"\\x%02x" % byte for byte in sorted(members)) + b"]" if members else b"(?!)"
