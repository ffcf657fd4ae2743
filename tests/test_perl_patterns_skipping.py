"""`--conlleval -d` patterns whose search Python's `re` tried at each byte of a run, each try reading the rest
of it (a line of 8,000 spaces and no match: four times the time for twice as many): a run of another class
after an optional one (``a*b*x`` on b's, ``x?\\s+y``), an alternation (``\\s+x|,``), a lookahead or a lookbehind
first (``(?=\\s+x)``, ``(?<=\\s)\\s+x``), (?i) (``(?i)\\s+x``), and one character then a run that takes it
(``a.*b``, ``a[^b]*b``). They are now searched each run once (`backtracking.skip_guard`,
`backtracking.first_and_run`), with the fields Perl's split gives, counted by the bytes each try reads."""

from __future__ import annotations

import re
import shutil
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_conlleval import assert_split_as_the_plain_search, split_unlike_perl, spread_lines

from nerscore.files import perl_patterns
from nerscore.files.backtracking import _parser, _Walk, first_and_run, skip_guard
from nerscore.files.perl_patterns import perl_pattern, splitter

# Named shapes: (delimiter, the unit a long line without a match repeats, the bytes a try reads a run of).
SHAPES = {
    "later-run-after-an-optional-one": ("a*b*x", b"b", b"ab"),
    "optional-character-then-a-run": ("x?\\s+y", b" ", b" "),
    "run-in-an-alternation": ("\\s+x|,", b" ", b" "),
    "lookahead-holding-a-run": ("(?=\\s+x)", b" ", b" "),
    "lookbehind-then-a-run": ("(?<=\\s)\\s+x", b" ", b" "),
    "caseless-run": ("(?i)\\s+x", b" ", b" "),
    "caseless-letters-run": ("(?i)a+x", b"Aa", b"aA"),
    "character-then-any-byte-run": ("a.*b", b"ax", b"ax"),
    "character-then-a-run-of-all-but-the-last": ("a[^b]*b", b"a", b"a"),
}
LINE_SIZE = 4_000


class _Counted:
    """A compiled pattern that counts the bytes its calls read, a try at a position reading the run of `run`
    bytes from there (a guarded pattern, (?!S)(?:...), only where S does not hold; a class alone, a byte)."""

    def __init__(self, compiled: re.Pattern[bytes], run: bytes, counter: list[int]) -> None:
        self.compiled, self.counter = compiled, counter
        self.runs = re.compile(b"[" + re.escape(run) + b"]*")
        self.plain_class = re.fullmatch(rb"\[[^]]*\]\*?|\(\?!\)", compiled.pattern) is not None
        guard = re.match(rb"\(\?!(.*)\)\(\?:", compiled.pattern)  # (a guard's own text has no "(?:")
        self.skipped = re.compile(b"(?=" + guard[1] + b")") if guard else None

    def _try(self, line: bytes, position: int) -> None:
        if self.plain_class or (self.skipped is not None and self.skipped.match(line, position)):
            self.counter[0] += 1
        else:
            self.counter[0] += 1 + self.runs.match(line, position).end() - position  # type: ignore[union-attr]

    def match(self, line: bytes, position: int = 0) -> re.Match[bytes] | None:
        self._try(line, position)
        return self.compiled.match(line, position)

    def search(self, line: bytes, position: int = 0) -> re.Match[bytes] | None:
        found = self.compiled.search(line, position)
        for tried in range(position, (found.start() if found else len(line)) + 1):
            self._try(line, tried)
        return found

    def finditer(self, line: bytes, position: int = 0) -> Any:
        self._try(line, position)
        return (self.search(line, match.start()) for match in self.compiled.finditer(line, position))

    def scanner(self, line: bytes, position: int = 0) -> Any:
        self._try(line, position)
        return self.compiled.scanner(line, position)  # type: ignore[attr-defined]

    def groups(self) -> int:
        return self.compiled.groups


def bytes_read(delimiter: str, line: bytes, run: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    counter = [0]
    shim = types.SimpleNamespace(**{name: getattr(re, name) for name in dir(re) if not name.startswith("__")})
    shim.compile = lambda pattern, *flags: _Counted(re.compile(pattern, *flags), run, counter)
    with monkeypatch.context() as patched:
        patched.setattr(perl_patterns, "re", shim)
        splitter(delimiter.encode())(line)
    return counter[0]


@pytest.mark.parametrize(("delimiter", "unit", "run"), SHAPES.values(), ids=SHAPES.keys())
def test_a_line_twice_as_long_reads_twice_as_many_bytes(
    delimiter: str, unit: bytes, run: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    short, long = (
        bytes_read(delimiter, unit * (size // len(unit)), run, monkeypatch) for size in (LINE_SIZE, 2 * LINE_SIZE)
    )
    assert long <= 2.2 * short, (short, long)
    assert short <= 4 * LINE_SIZE, short


@pytest.mark.parametrize(("delimiter", "unit", "run"), SHAPES.values(), ids=SHAPES.keys())
def test_a_shape_is_searched_each_run_once(delimiter: str, unit: bytes, run: bytes) -> None:
    translated = perl_pattern(delimiter.encode())
    assert skip_guard(translated) is not None or first_and_run(translated) is not None
    assert perl_patterns._after_failure(translated, re.compile(translated)) is not None


# Lines of the bytes the shapes read, and of the ones that end or break their runs.
ALPHABET = b" \nxyabAB,"
# Delimiters near the shapes whose runs cannot be passed over the same way (the first character not among the
# run's, a negative lookbehind, a flag on part of the run), which must split the same all the same.
NEARBY = [
    "x[^x]*y",
    "(?<!\\s)\\s+x",
    "(?<=a)b*x",
    "(?!\\s+x)\\s",
    "a+?b*x",
    "(?i:a*)b*y",
    "a?b+|A",
    "(?=a*b)a*x",
    "\\s*(?:x|y)",
]
DELIMITERS = [delimiter for delimiter, _, _ in SHAPES.values()] + NEARBY


@settings(max_examples=600, deadline=None)
@given(
    st.sampled_from(DELIMITERS),
    st.binary(max_size=24).map(lambda raw: bytes(ALPHABET[byte % len(ALPHABET)] for byte in raw)),
)
def test_a_shape_splits_as_the_plain_search(delimiter: str, line: bytes) -> None:
    assert_split_as_the_plain_search(delimiter, line)


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is not installed")
def test_a_shape_splits_as_perl_splits() -> None:
    alphabet = ALPHABET.replace(b"\n", b"\t")  # (the cases reach Perl a line each)
    lines = spread_lines(alphabet, 40)
    lines += [b"a  x", b"bbbx", b"abx", b"x  y", b" ,  x", b"aAax", b"axxb", b"a\tb", b"  \t x", b"b" * 50 + b"x"]
    wrong = split_unlike_perl(DELIMITERS, lines)
    assert not wrong, wrong[:5]


# One-character nodes under each flag: the bytes the guard's classes hold are exactly the ones Python's re takes.
NODES = ["a", "[^a]", "\\s", "[^\\W]", "[A-c]", "[^A-c_]", ".", "\\D", "[a-z]"]


@pytest.mark.parametrize("flags", ["", "i", "s", "is"])
@pytest.mark.parametrize("node", NODES)
def test_a_one_character_node_holds_the_bytes_re_takes(node: str, flags: str) -> None:
    text = (f"(?{flags}:{node})" if flags else node).encode()
    compiled = re.compile(text)
    wanted = frozenset(byte for byte in range(256) if compiled.fullmatch(bytes([byte])))
    parsed = _parser().parse(text)
    (op, argument), *_ = list(parsed)
    if str(op) == "SUBPATTERN":
        (op, argument), *_ = list(argument[-1])
    members = _Walk("i" in flags).characters(str(op), argument)
    assert members is not None
    if str(op) == "ANY" and "s" not in flags:
        members -= {0x0A}
    assert members == wanted
