"""`--conlleval -d` patterns that begin with a run in a group (``(\\s+)x``), a group of one character under the
quantifier (``(\\s)+x``, ``(a|b)+c``, which Python reads as a class) or a run of any byte (``.*x``): Python's `re`
tried each byte of a run again (a line of 8,000 spaces: 0.2-0.7 s, four times that for twice as many), and now
passes over a run once (`backtracking.skip_guard`'s first rule), with the fields the plain search gives, and
Perl's."""

from __future__ import annotations

import re
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_conlleval import assert_split_as_the_plain_search, split_unlike_perl, spread_lines

from nerscore.files import backtracking, perl_patterns
from nerscore.files.perl_patterns import perl_pattern, splitter


def leading_run(pattern: bytes) -> frozenset[int] | None:
    """The bytes of the unbounded quantifier over one character that begins `pattern` (``\\s+x``, ``.*x``; in a
    group, ``(\\s+)x``, or a group of one character under it, ``(\\s)+x``), exactly, as `backtracking` reads it;
    None for any other pattern, or one with a backreference or (?i) there: the run `skip_guard`'s first rule
    passes over."""
    if backtracking._BACKREFERENCE.search(pattern):
        return None
    parsed = backtracking._parser().parse(pattern)
    items = backtracking._flat(list(parsed), parsed.state.flags)
    single = backtracking._single(*items[0]) if items and not items[0][2] & re.IGNORECASE else None
    return single[0] if single is not None and single[2] == backtracking._parser().MAXREPEAT else None


# Named shapes: (delimiter, the byte its run takes, a byte it does not, if any).
RUNS_IN_GROUPS = {
    "run-in-a-group": ("(\\s+)x", b" ", b"x"),
    "run-in-two-groups": ("((\\s*))x", b" ", b"x"),
    "group-of-one-class-under-the-quantifier": ("(\\s)+x", b" ", b"x"),
    "alternation-of-characters-under-the-quantifier": ("(a|b)+c", b"a", b"c"),
    "any-byte-run": (".*x", b"a", b"\n"),
    "any-byte-run-at-least-one": (".+x", b"a", b"\n"),
    "any-byte-lazy-run": (".*?x", b"a", b"\n"),
    "any-byte-run-under-s": ("(?s).*x", b"\n", None),  # (every byte)
    "any-byte-run-in-an-s-group": ("(?s:.*)x", b"\n", None),
}


@pytest.mark.parametrize(("delimiter", "taken", "other"), RUNS_IN_GROUPS.values(), ids=RUNS_IN_GROUPS.keys())
def test_a_run_in_a_group_is_tried_once_a_run(
    delimiter: str, taken: bytes, other: bytes | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = leading_run(perl_pattern(delimiter.encode()))
    assert run is not None and taken[0] in run and (other is None or other[0] not in run)
    guards: list[object] = []
    split = perl_patterns.perl_split
    monkeypatch.setattr(perl_patterns, "perl_split", lambda *given: guards.append(given[2]) or split(*given))
    splitter(delimiter.encode())(taken * 20_000)
    assert guards and guards[0] is not None


# Patterns whose leading group is not a run alone, or sets a flag the run's bytes would depend on: no run.
NO_RUN = {
    "group-of-two-under-the-quantifier": "(\\s\\s)+x",
    "flags-group": "(?i:\\s+)x",
    "empty-s-group-before-the-run": "(?s:).*x",
    "caseless": "(?i)a+x",
    "backreference": "(\\s)+\\1",
}


@pytest.mark.parametrize("delimiter", NO_RUN.values(), ids=NO_RUN.keys())
def test_a_group_that_is_not_a_run_alone_is_no_run(delimiter: str) -> None:
    run = leading_run(perl_pattern(delimiter.encode()))
    assert run is None or 0x0A not in run  # (?s:) empty: `.` after it takes no newline


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([delimiter for delimiter, _, _ in RUNS_IN_GROUPS.values()]),
    st.binary(max_size=30).map(lambda raw: bytes(b" \nxabc"[byte % 6] for byte in raw)),
)
def test_a_run_in_a_group_splits_as_the_plain_search(delimiter: str, line: bytes) -> None:
    assert_split_as_the_plain_search(delimiter, line)


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is not installed")
def test_a_run_in_a_group_splits_as_perl_splits() -> None:
    lines = spread_lines(b" xabc", 30)
    lines += [b"a  x", b"aaac", b"  x  x", b"abab"]
    wrong = split_unlike_perl([delimiter for delimiter, _, _ in RUNS_IN_GROUPS.values()], lines)
    assert not wrong, wrong[:5]
