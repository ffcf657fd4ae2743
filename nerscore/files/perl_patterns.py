"""Perl's regular expressions as conlleval.pl's `-d` gives them, read by Python's `re` (the classes, escapes and
modifiers it lacks or reads otherwise translated, the rest refused with a message that names them), and Perl's
``split`` on them: what `nerscore.files.conlleval` splits each line with.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .backtracking import backtracking, byte_class, first_and_run, skip_guard

# Exit status of Perl's `die` (a pattern it cannot compile, and conlleval.pl's other stops).
DIE_STATUS = 255
# Bytes that make a delimiter a regular expression rather than a literal string.
_REGEX_SYNTAX = frozenset(b"\\.^$*+?{}[]|()")


class ConllevalError(Exception):
    """What ends a conlleval.pl run early: the bytes it prints to standard error and its exit status."""

    def __init__(self, message: bytes, status: int) -> None:
        super().__init__(message.decode("utf-8", "backslashreplace").rstrip("\n"))
        self.message = message
        self.status = status


def splitter(delimiter: bytes) -> Callable[[bytes], list[bytes]]:
    """Perl's ``split(/$delimiter/, $line)`` as a function of a line.

    A delimiter without regular-expression syntax splits as `bytes.split` does (which Perl's split then equals);
    any other is translated from Perl's syntax (`perl_pattern`: the classes Python's `re` lacks) and compiled by
    Python's `re`, whose syntax equals Perl's for the delimiters people give (``\\t``, ``\\s+``, ``,``, ``\\|``)
    and which raises `ConllevalError` (status 255, as Perl's compile error) for one it cannot read. It is compiled
    when the first line is split, as Perl does: an empty file reads with any."""
    if delimiter and not _REGEX_SYNTAX.intersection(delimiter):
        return lambda line: _drop_trailing_empty(line.split(delimiter))
    # A comment is nothing to Perl: gone first; a quantifier after one (which Perl applies to what stands before
    # the comment, `\\h(?#c){2}` being `\\h{2}`) is refused, not guessed.
    if re.search(_COMMENT.pattern + rb"[*+?{]", delimiter):
        raise _refused(delimiter, "a quantifier after a (?#...) comment")
    translated = perl_pattern(_COMMENT.sub(b"", delimiter))
    compiled: list[re.Pattern[bytes]] = []
    after_failure: list[_Search | None] = []

    def split(line: bytes) -> list[bytes]:
        if not compiled:
            try:
                compiled.append(re.compile(translated))
            except (re.error, OverflowError) as error:  # (a count past re's limit: Perl dies too, past 65534)
                message = f"conlleval: -d {delimiter!r} is not a regular expression: {error}\n"
                raise ConllevalError(message.encode(), DIE_STATUS) from None
            except RecursionError:  # groups nested deeper than re's parser recurses, which Perl may read
                raise _refused(delimiter, "groups nested this deep") from None
            if (costly := backtracking(translated)) is not None:  # (Perl would take that time: refused)
                message = (
                    f"error: -d '{delimiter.decode('latin-1')}': {costly}; expected a delimiter without it, "
                    "as ' ', '\\t', '\\s+' or '[ \\t]+'\n"
                )
                raise ConllevalError(message.encode(), USAGE_STATUS)
            after_failure.append(_after_failure(translated, compiled[0]))
        return perl_split(compiled[0], line, after_failure[0])

    return split


_COMMENT = re.compile(rb"(?<!\\)\(\?#[^)]*\)")
# The leftmost match of a pattern at or after a position, given none at the position before (`_after_failure`).
_Search = Callable[[bytes, int], "re.Match[bytes] | None"]


def _after_failure(translated: bytes, pattern: re.Pattern[bytes]) -> _Search | None:
    """A search of `pattern` that tries each run of bytes once where its shape allows (`backtracking.skip_guard`,
    `backtracking.first_and_run`), rather than at each byte of it as Python's `re` does (time a square of the
    run's length); None for any other pattern."""
    if (classes := first_and_run(translated)) is not None:
        first, run = re.compile(byte_class(classes[0])), re.compile(byte_class(classes[1]) + b"*")

        def search(line: bytes, position: int) -> re.Match[bytes] | None:
            while (found := first.search(line, position)) is not None:
                if (match := pattern.match(line, found.start())) is not None:
                    return match
                ended = run.match(line, found.start() + 1)  # none of its bytes can begin a match after a failure
                position = (ended.end() if ended is not None else found.start() + 1) + 1
            return None

        return search
    if (guard := skip_guard(translated)) is None:
        return None
    try:
        return re.compile(b"(?!" + guard + b")(?:" + translated + b")").search
    except (re.error, RecursionError):  # (a guard Python's re cannot read: the plain search)
        return None


# Exit status of a -d that Perl reads and this reading does not: the command line's bad-input status.
USAGE_STATUS = 2


def _ranges(*spans: tuple[int, int]) -> frozenset[int]:
    return frozenset(byte for first, last in spans for byte in range(first, last + 1))


# Perl's POSIX bracket classes ([[:space:]]) on conlleval.pl's strings (bytes, no `unicode_strings` feature nor
# locale): ASCII rules, so no byte above 0x7F is in any of them (perlrecharclass, "POSIX Character Classes").
_POSIX = {
    b"alpha": _ranges((0x41, 0x5A), (0x61, 0x7A)),
    b"digit": _ranges((0x30, 0x39)),
    b"alnum": _ranges((0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)),
    b"upper": _ranges((0x41, 0x5A)),
    b"lower": _ranges((0x61, 0x7A)),
    b"space": _ranges((0x09, 0x0D), (0x20, 0x20)),
    b"blank": _ranges((0x09, 0x09), (0x20, 0x20)),
    b"punct": _ranges((0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)),
    b"print": _ranges((0x20, 0x7E)),
    b"graph": _ranges((0x21, 0x7E)),
    b"cntrl": _ranges((0x00, 0x1F), (0x7F, 0x7F)),
    b"xdigit": _ranges((0x30, 0x39), (0x41, 0x46), (0x61, 0x66)),
    b"word": _ranges((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)),
    b"ascii": _ranges((0x00, 0x7F)),
}
# \h and \v, and Unicode properties (\p{...}), follow Unicode rules whatever the string: a byte is the Latin-1
# character of its value (so \h and \p{Zs} match the no-break space 0xA0, \v the next line 0x85).
_WHITE_SPACE = _ranges((0x09, 0x0D), (0x20, 0x20), (0x85, 0x85), (0xA0, 0xA0))
_HORIZONTAL = _ranges((0x09, 0x09), (0x20, 0x20), (0xA0, 0xA0))
_VERTICAL = _ranges((0x0A, 0x0D), (0x85, 0x85))
_PROPERTIES = {
    **{name: _WHITE_SPACE for name in ("space", "xposixspace", "spaceperl", "xperlspace", "whitespace", "wspace")},
    **{name: _HORIZONTAL for name in ("blank", "xposixblank", "horizspace")},
    "vertspace": _VERTICAL,
    "posixspace": _POSIX[b"space"],
    "perlspace": _POSIX[b"space"],
    "posixblank": _POSIX[b"blank"],
    "posixdigit": _POSIX[b"digit"],
    "any": _ranges((0x00, 0xFF)),
    "ascii": _POSIX[b"ascii"],
}
# General categories by their long names (the short ones, Zs or Z, are looked up in `unicodedata`).
_CATEGORY_NAMES = {
    "spaceseparator": "Zs",
    "separator": "Z",
    "letter": "L",
    "uppercaseletter": "Lu",
    "lowercaseletter": "Ll",
    "number": "N",
    "decimalnumber": "Nd",
    "digit": "Nd",
    "punctuation": "P",
    "symbol": "S",
    "control": "Cc",
    "cntrl": "Cc",
    "other": "C",
}
# Perl escapes Python's `re` lacks or reads otherwise, which a delimiter has no use for: refused, not misread.
_PERL_ONLY = frozenset(b"zZGKRXNogkQEluLUc")


def _refused(delimiter: bytes, what: str) -> ConllevalError:
    message = (
        f"error: -d '{delimiter.decode('latin-1')}': {what}, which this reading of conlleval.pl does not translate; "
        "expected Python's regular expressions, with Perl's [[:space:]] (and the other POSIX classes), \\h, \\v, "
        "\\p{Zs} (and the other Unicode properties and general categories) and \\x{HH}\n"
    )
    return ConllevalError(message.encode(), USAGE_STATUS)


def _unicode_class(escape: bytes) -> frozenset[int]:
    """The bytes \\s, \\d or \\w match by Unicode rules, as Latin-1 characters: White_Space; Nd; letters, marks,
    Nd and connector punctuation."""
    if escape == b"s":
        return _WHITE_SPACE
    return _in_categories("Nd") if escape == b"d" else _in_categories("L", "M", "Nd", "Pc")


def _in_categories(*categories: str) -> frozenset[int]:
    """The bytes whose Latin-1 characters are of Unicode's general `categories` (one letter: its group)."""
    import unicodedata  # here, not at the top: only a -d with \p needs it

    return frozenset(byte for byte in range(256) if unicodedata.category(chr(byte)).startswith(categories))


def _property(name: bytes, delimiter: bytes) -> frozenset[int]:
    """The bytes of a Unicode property or general category (\\p{name}) read as Latin-1 characters."""
    key = name.decode("latin-1").replace(" ", "").replace("_", "").replace("-", "").lower()
    for candidate in (key, key.removeprefix("is")):
        if candidate in _PROPERTIES:
            return _PROPERTIES[candidate]
        category = _CATEGORY_NAMES.get(candidate, candidate.capitalize())
        if category in _GENERAL_CATEGORIES:
            return _in_categories(category)
    raise _refused(delimiter, f"Perl's property \\p{{{name.decode('latin-1')}}}")


# Unicode's general categories (one letter: the group of two-letter ones).
_GENERAL_CATEGORIES = frozenset(
    {"L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps", "Pe"}
    | {"Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Cs", "Co", "Cn"}
)


def _members(members: frozenset[int], negated: bool, in_class: bool) -> bytes:
    """A set of bytes as regular-expression text: escapes inside a bracket class, else a class of its own."""
    if negated and in_class:
        members, negated = frozenset(range(256)) - members, False
    body = b"".join(b"\\x%02x" % byte for byte in sorted(members))
    if in_class:
        return body
    if not body:
        return b"[^\\x00-\\xff]" if not negated else b"[\\x00-\\xff]"
    return b"[" + (b"^" if negated else b"") + body + b"]"


def _octal_escape(delimiter: bytes, start: int, in_class: bool) -> bytes:
    """The octal digits Perl reads at `start` (after a backslash) as a character, else b"" (a backreference,
    which Python's `re` reads as Perl does): ``\\10`` and above with fewer groups before, up to three octal
    digits (perlop, "Octal escapes"); Python's `re` would read ``\\11`` or ``\\40`` (a tab, a space) as a
    backreference to a group that does not exist."""
    digits = re.match(rb"[0-9]+", delimiter[start:])
    assert digits is not None
    number = int(digits[0]) if len(digits[0]) < 19 else 1 << 62  # (more digits than any count of groups)
    groups = len(re.findall(rb"(?<!\\)\((?!\?)", delimiter[:start]))
    if number < 10 and not in_class:
        if groups < number <= len(re.findall(rb"(?<!\\)\((?!\?)", delimiter)):  # Perl's never matches there
            raise _refused(delimiter, f"the backreference \\{number} before its group")
        return b""
    if not in_class and number <= groups:
        return b""
    octal = re.match(rb"[0-7]{1,3}", delimiter[start:])
    if octal is None:  # \\8 or \\9: Perl's error, and Python's
        return b""
    if int(octal[0], 8) > 0xFF:
        raise _refused(delimiter, f"the character \\{octal[0].decode()}, beyond a byte")
    return octal[0]


def perl_pattern(delimiter: bytes) -> bytes:
    """A Perl regular expression (conlleval.pl's `-d`) as Python's `re` reads it the same on bytes: POSIX bracket
    classes (``[[:space:]]``, ``[[:^digit:]]``), ``\\h``, ``\\v`` (and ``\\H``, ``\\V``), Unicode properties
    (``\\p{Zs}``, ``\\pZ``, ``\\p{Space}``, ``\\P{...}``) and ``\\x{HH}`` become the bytes they match in Perl on
    conlleval.pl's byte strings; ``\\e`` the escape byte. The Perl escapes Python lacks that have no such
    translation (``\\z``, ``\\K``, ``\\R``, ``\\N``...), a character beyond a byte, and a property it does not
    know are a `ConllevalError` with the command line's bad-input status (2) that says so. The rest is as given:
    Python's syntax equals Perl's there."""
    out: list[bytes] = []
    scopes: list[list[bytes]] = [[]]  # per open group, the modifiers in force (`_outside_class`)
    # A \\p anywhere makes Perl read the whole pattern by Unicode rules (perlre, "Which character set modifier is
    # in effect?"): \\s and \\w then match Latin-1's no-break space and letters.
    unicode_rules = re.search(rb"(?<!\\)(?:\\\\)*\\[pP]", delimiter) is not None
    in_class = False
    class_start = 0  # where the class's members begin: a `]` there is a member
    index, size = 0, len(delimiter)
    while index < size:
        byte = delimiter[index]
        if byte == 0x5C and index + 1 < size:  # backslash
            escape = delimiter[index + 1 : index + 2]
            end = index + 2
            if escape in b"hHvV" and escape:
                members = _HORIZONTAL if escape in b"hH" else _VERTICAL
                out.append(_members(members, escape.isupper(), in_class))
            elif escape in (b"p", b"P"):
                if delimiter[end : end + 1] == b"{":
                    close = delimiter.find(b"}", end)
                    if close < 0:
                        raise _refused(delimiter, "an unclosed \\p{")
                    name, end = delimiter[end + 1 : close].strip(), close + 1
                else:
                    name, end = delimiter[end : end + 1], end + 1
                negated = escape == b"P"
                if name.startswith(b"^"):
                    name, negated = name[1:], not negated
                out.append(_members(_property(name, delimiter), negated, in_class))
            elif escape == b"x" and delimiter[end : end + 1] == b"{":
                close = delimiter.find(b"}", end)
                digits = delimiter[end + 1 : close].strip() if close >= 0 else b""
                if close < 0 or not digits or any(d not in b"0123456789abcdefABCDEF" for d in digits):
                    raise _refused(delimiter, "a \\x{...} that is no hexadecimal number")
                if int(digits, 16) > 0xFF:
                    raise _refused(delimiter, f"the character \\x{{{digits.decode()}}}, beyond a byte")
                out.append(b"\\x%02x" % int(digits, 16))
                end = close + 1
            elif escape == b"e":
                out.append(b"\\x1b")
            elif escape.isdigit() and escape != b"0" and (octal := _octal_escape(delimiter, index + 1, in_class)):
                out.append(b"\\x%02x" % int(octal, 8))
                end = index + 1 + len(octal)
            elif escape and escape[0] in _PERL_ONLY:
                raise _refused(delimiter, f"Perl's \\{escape.decode('latin-1')}")
            elif escape and escape in b"sSdDwWbB" and unicode_rules:
                if escape in b"bB":
                    raise _refused(delimiter, f"\\{escape.decode()} under the Unicode rules \\p brings in Perl")
                out.append(_members(_unicode_class(escape.lower()), escape.isupper(), in_class))
            elif escape and escape in b"iIjJmMOqTyY":  # no escape in Perl: the letter itself (Python's re refuses)
                out.append(escape)
            elif escape and escape in b"bBA" and not in_class:
                out.append(_assertion(delimiter[index:end], delimiter, end))
            else:
                out.append(delimiter[index:end])
            index = end
            continue
        if in_class:
            if byte == 0x5B and delimiter[index + 1 : index + 2] == b":":  # [:name:] or [:^name:]
                close = delimiter.find(b":]", index + 2)
                if close >= 0:
                    name = delimiter[index + 2 : close]
                    negated = name.startswith(b"^")
                    name = name.removeprefix(b"^")
                    if unicode_rules and name in _POSIX:
                        raise _refused(delimiter, "a POSIX class under the Unicode rules \\p brings in Perl")
                    if name not in _POSIX:
                        unknown = name.decode("latin-1")
                        message = f"conlleval: -d {delimiter.decode('latin-1')!r}: POSIX class [:{unknown}:] unknown\n"
                        raise ConllevalError(message.encode(), DIE_STATUS)
                    out.append(_members(_POSIX[name], negated, True))
                    index = close + 2
                    continue
            if byte == 0x5D and index != class_start:
                in_class = False
            elif byte in b"[&~|":  # members Python would warn of as a future set operation: escaped
                out.append(b"\\")
        elif byte == 0x5B:
            in_class = True
            class_start = index + 1 + (delimiter[index + 1 : index + 2] == b"^")
            out.append(delimiter[index:class_start])
            index = class_start
            continue
        elif byte in b"()|^${":
            text, index = _outside_class(delimiter, index, scopes, unicode_rules)
            out.append(text)
            continue
        out.append(delimiter[index : index + 1])
        index += 1
    if len(scopes) == 1:  # a modifier's scope ends with the pattern (unless a group is left open: Python's error)
        out.append(b")" * len(scopes[0]))
    return b"".join(out)


_QUANTIFIER = re.compile(rb"[*+?]|\{[0-9]*,?[0-9]*\}")


def _assertion(text: bytes, delimiter: bytes, end: int) -> bytes:
    """An assertion (^, $, \\b, \\B, \\A) as given, or in a group where a quantifier follows it: Perl repeats an
    assertion (``\\b*``, ``^{2}``, which match as the assertion or nothing), Python's `re` has "nothing to repeat"."""
    quantifier = _QUANTIFIER.match(delimiter, end)
    if quantifier is None or quantifier[0] in (b"{}", b"{,}") or (text[-1:] in b"bB" and quantifier[0][:1] == b"{"):
        return text  # (\\b{...} is Perl's boundary type, not a quantifier)
    return b"(?:" + text + b")"


# Where a pattern or an alternative begins: nothing there for a quantifier to repeat.
_NOTHING_BEFORE = re.compile(rb"(?:\A|(?<!\\)[(|]|\(\?[\^a-zA-Z-]*[:)])\Z")
_MODIFIERS = re.compile(rb"\(\?([\^a-zA-Z]*(?:-[a-zA-Z]*)?)\)")


def _outside_class(
    delimiter: bytes, index: int, scopes: list[list[bytes]], unicode_rules: bool = False
) -> tuple[bytes, int]:
    """A group's bounds, an alternation, ^, $ or { outside a class, as Python's `re` reads them as Perl does:
    `scopes` holds, per open group, the modifiers (``(?i)``) in force from where they stand to its end. Perl
    reads them anywhere, Python's `re` only at the start: each becomes a scoped group (``(?i:``) closed before
    each ``|`` and reopened after it, and closed at the group's end. A ``{n}`` with nothing before it to repeat
    is a literal brace in Perl."""
    byte = delimiter[index : index + 1]
    if byte == b"(":
        modifiers = _MODIFIERS.match(delimiter, index)
        if modifiers is None:
            scopes.append([])
            return byte, index + 1
        flags = modifiers[1]
        if not re.fullmatch(rb"[imsxa]*(?:-[imsx]*)?", flags) or flags in (b"", b"-"):
            raise _refused(delimiter, f"Perl's modifiers (?{flags.decode('latin-1')})")
        if unicode_rules and b"i" in flags.partition(b"-")[0]:
            raise _refused(delimiter, "(?i) under the Unicode rules \\p brings in Perl")
        if b"x" in flags.partition(b"-")[0] and b"#" in delimiter[index:]:  # (Python's would run past the scope)
            raise _refused(delimiter, "a # comment under (?x)")
        scopes[-1].append(flags)
        return b"(?" + flags + b":", modifiers.end()
    if byte in b")|":
        closed = b")" * len(scopes[-1])
        if byte == b")":
            if len(scopes) > 1:
                scopes.pop()
            return closed + byte, index + 1
        return closed + byte + b"".join(b"(?" + flags + b":" for flags in scopes[-1]), index + 1
    if byte == b"{":
        quantifier = _QUANTIFIER.match(delimiter, index)
        literal = (
            _NOTHING_BEFORE.search(delimiter, 0, index) is not None
            and quantifier is not None
            and quantifier[0] not in (b"{}", b"{,}")
        )
        return (b"\\{" if literal else byte), index + 1
    return _assertion(byte, delimiter, index + 1), index + 1


def perl_split(pattern: re.Pattern[bytes], line: bytes, after_failure: _Search | None = None) -> list[bytes]:
    """Perl's ``split /pattern/, line``: each field up to a match that ends past the field's start (a match
    of the empty string at a field's start is passed over), captured groups after their field (unmatched: empty),
    the rest after the last match, empty trailing fields dropped. `after_failure`: the leftmost match of `pattern`
    at or after a position where it did not match at the one before (`_after_failure`), which finds the same
    matches, each run tried once."""
    fields: list[bytes] = []
    start = 0
    while start < len(line):
        if after_failure is None:
            match = pattern.search(line, start)
        else:
            match = pattern.match(line, start) or after_failure(line, start + 1)
        if match is not None and match.end() == start:
            # Empty, at the field's start: Perl backtracks into a longer match there first ('|\\h' takes a
            # space), then looks on; `finditer`'s next match after an empty one is exactly that, and a scanner's
            # second `match` the first half of it (no empty match there).
            if after_failure is None:
                matches = pattern.finditer(line, start)
                next(matches)
                match = next(matches, None)
            else:
                scanner = pattern.scanner(line, start)  # type: ignore[attr-defined]
                scanner.match()
                match = scanner.match() or pattern.match(line, start + 1) or after_failure(line, start + 2)
        if match is None:
            break
        fields.append(line[start : match.start()])
        fields.extend(group or b"" for group in match.groups())
        start = match.end()
    if start < len(line):
        fields.append(line[start:])
    return _drop_trailing_empty(fields)


def _drop_trailing_empty(fields: list[bytes]) -> list[bytes]:
    while fields and not fields[-1]:
        fields.pop()
    return fields
