"""conlleval.pl's own reading and report, for ``ner-semeval --conlleval``: byte for byte what the CoNLL shared
tasks' Perl script (version 2004-01-26) prints for the same input and flags.

This is not the metric of docs/scoring.md (§1-§5 do not apply): the file is read as conlleval.pl reads it, any tag
accepted, its own chunk boundaries, `-X-` and empty lines ending a sentence, ``-DOCSTART-`` an ordinary token, so
that the training scripts that parse its output can switch without a change. Everything is bytes, as in Perl
without an encoding layer: a type's column width counts bytes, and a file that is not UTF-8 is read all the same.

What conlleval.pl does, rule by rule (written from its documented behaviour and checked against the script on
generated files; the tests hold the documented examples):

- A line is split on the delimiter (`-d`, a regular expression, one space by default) as Perl's ``split`` splits:
  an empty leading field stays, empty trailing fields go, a match must end past the start of its field (so a
  pattern that matches the empty string splits between characters), captured groups are fields too.
- The first line that has fields fixes their number; a later line with fields and another number ends the run
  (status 1). An empty line (no fields), or one whose first field is ``-X-``, is a sentence boundary: it counts
  as ``-X- O O`` and is no token. A line of one field ends the run (status 255).
- The last field is the guess, the one before it the truth. With `-r` each tag equal to the outside tag (`-o`)
  becomes ``O`` and every other tag ``B-`` + the tag. A tag splits at its first hyphen into a prefix and a type
  (no hyphen: the whole tag is the prefix, the type empty); a type ``0`` is empty, as Perl takes ``"0"`` for false.
- A chunk starts (ends) between two tags by conlleval's table of prefix pairs (B or I after O, B after B or I, E
  and I after E, E after O; its ends likewise), at a change of type unless the tag is ``O`` or ``.``, and always
  at a ``[`` or ``]`` prefix (one-token chunks). A chunk is correct when both sides start it together with one
  type and end it together.
- Types are reported in byte order; the empty type is listed once for each side it was found on (Perl's
  ``not($lastType)`` is true for an empty string).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

BOUNDARY = b"-X-"
OUTSIDE = b"O"
# Exit statuses: conlleval.pl's `exit(1)` for a line with another number of fields, and Perl's `die` (255).
FIELD_COUNT_STATUS = 1
DIE_STATUS = 255
# Bytes that make a delimiter a regular expression rather than a literal string.
_REGEX_SYNTAX = frozenset(b"\\.^$*+?{}[]|()")

# conlleval.pl's startOfChunk and endOfChunk tables of (previous prefix, prefix) pairs.
_STARTS = frozenset({(b"B", b"B"), (b"I", b"B"), (b"O", b"B"), (b"O", b"I"), (b"E", b"E"), (b"E", b"I"), (b"O", b"E")})
_ENDS = frozenset({(b"B", b"B"), (b"B", b"O"), (b"I", b"B"), (b"I", b"O"), (b"E", b"E"), (b"E", b"I"), (b"E", b"O")})
_NO_TYPE_CHANGE = (b"O", b".")  # prefixes at which a change of type neither starts nor ends a chunk
_ONE_TOKEN = (b"[", b"]")  # prefixes of chunks one token long


class ConllevalError(Exception):
    """What ends a conlleval.pl run early: the bytes it prints to standard error and its exit status."""

    def __init__(self, message: bytes, status: int) -> None:
        super().__init__(message.decode("utf-8", "backslashreplace").rstrip("\n"))
        self.message = message
        self.status = status


@dataclass(frozen=True)
class ConllevalCounts:
    """What conlleval.pl counts: tokens and tokens whose two tags are equal; phrases (chunks) per type in the
    truth (`found_correct`), in the guess (`found_guessed`), and those guessed right (`correct_chunks`)."""

    tokens: int = 0
    correct_tags: int = 0
    found_correct: dict[bytes, int] = field(default_factory=dict)
    found_guessed: dict[bytes, int] = field(default_factory=dict)
    correct_chunks: dict[bytes, int] = field(default_factory=dict)

    @property
    def types(self) -> list[bytes]:
        """The types in conlleval.pl's order and repetition (see the module's docstring)."""
        listed: list[bytes] = []
        last: bytes | None = None
        for entity_type in sorted([*self.found_correct, *self.found_guessed]):
            if not last or last != entity_type:  # Perl's `not($lastType)`: an empty type is listed again
                listed.append(entity_type)
            last = entity_type
        return listed


def splitter(delimiter: bytes) -> Callable[[bytes], list[bytes]]:
    """Perl's ``split(/$delimiter/, $line)`` as a function of a line.

    A delimiter without regular-expression syntax splits as `bytes.split` does (which Perl's split then equals);
    any other is translated from Perl's syntax (`perl_pattern`: the classes Python's `re` lacks) and compiled by
    Python's `re`, whose syntax equals Perl's for the delimiters people give (``\\t``, ``\\s+``, ``,``, ``\\|``)
    and which raises `ConllevalError` (status 255, as Perl's compile error) for one it cannot read. It is compiled
    when the first line is split, as Perl does: an empty file reads with any."""
    if delimiter and not _REGEX_SYNTAX.intersection(delimiter):
        return lambda line: _drop_trailing_empty(line.split(delimiter))
    translated = perl_pattern(delimiter)
    compiled: list[re.Pattern[bytes]] = []

    def split(line: bytes) -> list[bytes]:
        if not compiled:
            try:
                compiled.append(re.compile(translated))
            except re.error as error:
                message = f"conlleval: -d {delimiter!r} is not a regular expression: {error}\n"
                raise ConllevalError(message.encode(), DIE_STATUS) from None
        return perl_split(compiled[0], line)

    return split


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


def _property(name: bytes, delimiter: bytes) -> frozenset[int]:
    """The bytes of a Unicode property or general category (\\p{name}) read as Latin-1 characters."""
    import unicodedata  # here, not at the top: only a -d with \p needs it

    key = name.decode("latin-1").replace(" ", "").replace("_", "").replace("-", "").lower()
    for candidate in (key, key.removeprefix("is")):
        if candidate in _PROPERTIES:
            return _PROPERTIES[candidate]
        category = _CATEGORY_NAMES.get(candidate, candidate.capitalize())
        if category in _GENERAL_CATEGORIES:
            return frozenset(byte for byte in range(256) if unicodedata.category(chr(byte)).startswith(category))
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
    if number < 10 and not in_class:
        return b""
    groups = len(re.findall(rb"(?<!\\)\((?!\?)", delimiter[:start]))
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
        out.append(delimiter[index : index + 1])
        index += 1
    return b"".join(out)


def perl_split(pattern: re.Pattern[bytes], line: bytes) -> list[bytes]:
    """Perl's ``split /pattern/, line``: each field up to a match that ends past the field's start (a match
    of the empty string at a field's start is passed over), captured groups after their field (unmatched: empty),
    the rest after the last match, empty trailing fields dropped."""
    fields: list[bytes] = []
    start = 0
    while start < len(line):
        match = pattern.search(line, start)
        if match is not None and match.end() == start:  # empty, at the field's start: look one byte on
            match = pattern.search(line, start + 1)
        if match is None:
            break
        fields.append(line[start : match.start()])
        fields.extend(group or b"" for group in match.groups())
        start = match.end()
    if start < len(line):
        fields.append(line[start:])
    return _drop_trailing_empty(fields)


def _drop_trailing_empty(fields: list[bytes]) -> list[bytes]:
    end = len(fields)
    while end and not fields[end - 1]:
        end -= 1
    del fields[end:]
    return fields


def _split_tag(tag: bytes) -> tuple[bytes, bytes]:
    """(prefix, type) at the first hyphen; Perl's false string ``0`` as a type is no type."""
    prefix, hyphen, entity_type = tag.partition(b"-")
    if not hyphen:
        return tag, b""
    return prefix, b"" if entity_type == b"0" else entity_type


def _starts(previous: bytes, prefix: bytes, previous_type: bytes, entity_type: bytes) -> bool:
    return (
        prefix in _ONE_TOKEN
        or (prefix not in _NO_TYPE_CHANGE and previous_type != entity_type)
        or (previous, prefix) in _STARTS
    )


def _ends(previous: bytes, prefix: bytes, previous_type: bytes, entity_type: bytes) -> bool:
    return (
        previous in _ONE_TOKEN
        or (previous not in _NO_TYPE_CHANGE and previous_type != entity_type)
        or (previous, prefix) in _ENDS
    )


def count_conlleval(
    lines: Iterable[bytes], delimiter: bytes = b" ", outside: bytes = OUTSIDE, raw: bool = False
) -> ConllevalCounts:
    """conlleval.pl's counts of `lines` (each with or without its ``\\n``), with its flags `-d`, `-o` and `-r`;
    raises `ConllevalError` where conlleval.pl stops (a line with another number of fields, or of one field)."""
    split = splitter(delimiter)
    width: int | None = None
    tokens = correct_tags = 0
    found_correct: Counter[bytes] = Counter()
    found_guessed: Counter[bytes] = Counter()
    correct_chunks: Counter[bytes] = Counter()
    in_correct = False
    last_correct = last_guessed = OUTSIDE
    last_correct_type = last_guessed_type = b""
    for line in lines:
        line = line[:-1] if line.endswith(b"\n") else line  # Perl's chomp
        fields = split(line)
        if width is None:
            width = len(fields) or None  # an empty first line fixes nothing
        elif fields and len(fields) != width:
            message = f"unexpected number of features: {len(fields)} ({width})\n"
            raise ConllevalError(message.encode(), FIELD_COUNT_STATUS)
        if not fields or fields[0] == BOUNDARY:
            fields = [BOUNDARY, OUTSIDE, OUTSIDE]
        if len(fields) < 2:
            raise ConllevalError(b"conlleval: unexpected number of features in line " + line + b"\n", DIE_STATUS)
        guess, truth = fields[-1], fields[-2]
        if raw:
            guess, truth = (OUTSIDE if tag == outside else tag for tag in (guess, truth))
            guess, truth = (tag if tag == OUTSIDE else b"B-" + tag for tag in (guess, truth))
        guessed, guessed_type = _split_tag(guess)
        correct, correct_type = _split_tag(truth)
        # Of a line of two fields no first field is left: it is never the boundary.
        boundary = len(fields) > 2 and fields[0] == BOUNDARY
        if boundary:
            guessed = OUTSIDE

        if in_correct:
            correct_ends = _ends(last_correct, correct, last_correct_type, correct_type)
            guessed_ends = _ends(last_guessed, guessed, last_guessed_type, guessed_type)
            if correct_ends and guessed_ends and last_guessed_type == last_correct_type:
                in_correct = False
                correct_chunks[last_correct_type] += 1
            elif correct_ends != guessed_ends or guessed_type != correct_type:
                in_correct = False
        correct_starts = _starts(last_correct, correct, last_correct_type, correct_type)
        guessed_starts = _starts(last_guessed, guessed, last_guessed_type, guessed_type)
        if correct_starts and guessed_starts and guessed_type == correct_type:
            in_correct = True
        if correct_starts:
            found_correct[correct_type] += 1
        if guessed_starts:
            found_guessed[guessed_type] += 1
        if not boundary:
            correct_tags += correct == guessed and guessed_type == correct_type
            tokens += 1
        last_correct, last_guessed = correct, guessed
        last_correct_type, last_guessed_type = correct_type, guessed_type
    if in_correct:
        correct_chunks[last_correct_type] += 1
    return ConllevalCounts(tokens, correct_tags, dict(found_correct), dict(found_guessed), dict(correct_chunks))


def _scores(correct: int, guessed: int, truth: int) -> tuple[float, float, float]:
    """Precision, recall and FB1 in percent, as conlleval.pl computes them in floating point (0 for 0/0)."""
    precision = 100 * correct / guessed if guessed > 0 else 0.0
    recall = 100 * correct / truth if truth > 0 else 0.0
    fb1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
    return precision, recall, fb1


def format_conlleval(counts: ConllevalCounts, latex: bool = False) -> bytes:
    """conlleval.pl's report of `counts`: its summary lines and a line per type, or with `latex` (`-l`) its
    LaTeX table rows. Perl's ``%6.2f`` and Python's round alike (correctly, half to even on the binary value)."""
    correct = sum(counts.correct_chunks.values())
    guessed = sum(counts.found_guessed.values())
    truth = sum(counts.found_correct.values())
    out: list[bytes] = []
    if latex:
        out.append(b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline")
        for entity_type in counts.types:
            scores = _scores(
                counts.correct_chunks.get(entity_type, 0),
                counts.found_guessed.get(entity_type, 0),
                counts.found_correct.get(entity_type, 0),
            )
            out.append(b"\n%-7s &  %6.2f\\%% & %6.2f\\%% & %6.2f \\\\" % (entity_type, *scores))
        out.append(b"\\hline\n")
        out.append(b"Overall &  %6.2f\\%% & %6.2f\\%% & %6.2f \\\\\\hline\n" % _scores(correct, guessed, truth))
        return b"".join(out)
    out.append(
        b"processed %d tokens with %d phrases; found: %d phrases; correct: %d.\n"
        % (counts.tokens, truth, guessed, correct)
    )
    if counts.tokens > 0:
        accuracy = 100 * counts.correct_tags / counts.tokens
        out.append(
            b"accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n"
            % (accuracy, *_scores(correct, guessed, truth))
        )
    for entity_type in counts.types:
        found = counts.found_guessed.get(entity_type, 0)
        scores = _scores(counts.correct_chunks.get(entity_type, 0), found, counts.found_correct.get(entity_type, 0))
        out.append(b"%17s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n" % (entity_type, *scores, found))
    return b"".join(out)


def lines_of(handles: Iterable[Iterable[bytes]]) -> Iterator[bytes]:
    """The lines of several binary files read one after the other, as ``cat A B | conlleval.pl`` reads them: a
    last line without its ``\\n`` goes on into the next file's first line."""
    pending = b""
    for handle in handles:
        for line in handle:
            if pending:
                line, pending = pending + line, b""
            if line.endswith(b"\n"):
                yield line
            else:
                pending = line
    if pending:
        yield pending
