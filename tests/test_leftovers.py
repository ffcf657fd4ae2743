"""Stop 44's open items: a type whose words read as tags, `-` for --hipe/--seen/--value, the greedy pairing's
rows on identical entities, `Tally.entity_types`."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, WORKED_EXAMPLE
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import EVERY_LETTER, SCHEME_LETTERS
from test_hipe_table import GOLD, SYSTEM

from nerscore import Scheme, Span, compute_semeval, main
from nerscore.accumulator import Accumulator
from nerscore.options import Options
from nerscore.pairing.rules import SCENARIO_INDEX, scenario_of
from nerscore.schemes import BEGIN, INSIDE, read_by_no_scheme
from nerscore.table.pairs import Pairs
from nerscore.tally import CellTable, Tally

# A tag whose type holds spaces between words that each read as a tag ("B-Vitamin B-12", type "Vitamin B-12") was
# refused as a sentence given as one string (`schemes.sentence_in_one`). Each case: the sentence (one side, both
# sides alike), the options, and the type it scores.
_XY = Scheme("XY", {"X": BEGIN, "Y": INSIDE}, r"XY*")
TYPES_OF_TAG_WORDS = {
    "a-type-whose-words-read-as-tags": (["B-Vitamin B-12", "O"], {}, "Vitamin B-12"),
    "a-sentence-of-one-token": (["B-Vitamin B-12"], {}, "Vitamin B-12"),
    "an-entity-of-two-tokens": (["B-Vitamin B-12", "I-Vitamin B-12"], {"mode": "strict"}, "Vitamin B-12"),
    "another-schemes-letters": (["S-Adenosyl L-methionine"], {"scheme": "IOBES"}, "Adenosyl L-methionine"),
    "prefix-after-the-type": (["Vitamin-B B-12-B", "Vitamin-B B-12-I"], {"suffix": True}, "Vitamin-B B-12"),
    "read-sentence-by-sentence": (["O", "B-Vitamin B-12"], {"pairing": "hipe"}, "Vitamin B-12"),
    "a-scheme-built-by-hand": (["X-Vitamin Y-12"], {"scheme": _XY}, "Vitamin Y-12"),
    "through-label-list": ([1, 0], {"label_list": ["O", "B-Vitamin B-12"]}, "Vitamin B-12"),
}


@pytest.mark.parametrize(("sentence", "options", "entity_type"), TYPES_OF_TAG_WORDS.values(), ids=TYPES_OF_TAG_WORDS)
def test_a_type_whose_words_read_as_tags_is_a_type(sentence: list, options: dict, entity_type: str) -> None:
    result = compute_semeval(predictions=[sentence], references=[sentence], per_type=True, **options)
    assert result[f"{entity_type}_strict_f1"] == 1.0 and result["strict_f1"] == 1.0


def test_a_type_whose_words_read_as_tags_is_added(metric) -> None:
    metric.add_batch(predictions=[["B-Vitamin B-12"]], references=[["B-Vitamin B-12"]])
    assert metric.compute(per_type=True)["Vitamin B-12_strict_f1"] == 1.0


# What stays refused as a sentence given as one string: each case, the tag and its options, and why (the rule).
SENTENCES_IN_ONE_TAG = {
    "an-outside-word": ("B-PER I-PER O", {}, "3 tags"),
    "the-outside-word-of-a-type-too": ("B-Type O", {}, "2 tags"),  # a sentence of two ("B-PER O") reads the same
    "a-type-twice": ("B-PER B-PER", {}, "2 tags"),
    "an-entity-that-goes-on": ("B-PER I-PER", {}, "2 tags"),
    "of-no-one-scheme": ("B-PER E-PER", {}, "2 tags"),
    "a-type-twice-prefix-after": ("PER-B PER-E", {"suffix": True, "scheme": "IOBES"}, "2 tags"),
    "no-prefix-read-whole": ("PER-B LOC-E", {}, "2 tags"),  # prefix first, "PER" is no letter: tags read after
    "no-prefix-read-whole-after": ("B-Vitamin B-12", {"suffix": True}, "2 tags"),
    "a-scheme-built-by-hand": ("X-PER Y-PER", {"scheme": _XY}, "2 tags"),
}


@pytest.mark.parametrize(("tag", "options", "several"), SENTENCES_IN_ONE_TAG.values(), ids=SENTENCES_IN_ONE_TAG)
def test_a_sentence_in_one_tag_stays_refused(tag: str, options: dict, several: str) -> None:
    message = rf"^predictions, sentence 0, token 0: found tag {re.escape(repr(tag))}, {several} apart by white space"
    with pytest.raises(ValueError, match=message):
        compute_semeval(predictions=[[tag]], references=[[tag]], **options)


# Words of a type: a stem (no hyphen, no white space, never O), alone or as a tag of any scheme's letter.
_STEMS = st.text(alphabet="abcXYZ0129", min_size=1, max_size=4)


@st.composite
def types_of_tag_words(draw: st.DrawFn, suffix: bool) -> str:
    """A type of 2-4 words, each a stem of its own, most of them read as tags: no two words of one type."""
    stems = draw(st.lists(_STEMS, min_size=2, max_size=4, unique=True))
    tagged = draw(st.lists(st.booleans(), min_size=len(stems), max_size=len(stems)))
    letters = draw(st.lists(st.sampled_from(EVERY_LETTER), min_size=len(stems), max_size=len(stems)))
    words = [
        (f"{stem}-{letter}" if suffix else f"{letter}-{stem}") if as_tag else stem
        for stem, as_tag, letter in zip(stems, tagged, letters, strict=True)
    ]
    return " ".join(words)


@st.composite
def sentences_of_spaced_types(draw: st.DrawFn) -> tuple[list[str], str, bool, list[str]]:
    """A sentence of tags of a scheme whose types hold spaces (with O between), its scheme, suffix and types."""
    scheme = draw(st.sampled_from(sorted(SCHEME_LETTERS)))
    suffix = draw(st.booleans())
    types = draw(st.lists(types_of_tag_words(suffix), min_size=1, max_size=3))
    sentence: list[str] = []
    for entity_type in types:
        letter = draw(st.sampled_from(SCHEME_LETTERS[scheme]))
        sentence += [f"{entity_type}-{letter}" if suffix else f"{letter}-{entity_type}", "O"]
    return sentence, scheme, suffix, types


@settings(max_examples=150, deadline=None)
@given(sentences_of_spaced_types())
def test_no_tag_of_a_type_whose_words_are_tags_apart_is_refused(drawn) -> None:
    sentence, scheme, suffix, types = drawn
    result = compute_semeval(predictions=[sentence], references=[sentence], scheme=scheme, suffix=suffix, per_type=True)
    assert all(f"{entity_type}_strict_f1" in result for entity_type in types), (sentence, result)
    assert all(read_by_no_scheme(tag) is None for tag in sentence)  # what add_batch asks of each tag


def test_a_type_of_a_word_that_is_no_tag_is_told_before_any_word_is_parsed(monkeypatch) -> None:
    # A word of neither O nor a hyphen ("York") is no tag: each word's parse built refusal messages (90 µs a tag,
    # 100,000 distinct tags of types holding spaces took 9 s).
    import nerscore.schemes

    def parsed(tag: str, hand_built=None) -> None:
        raise AssertionError(f"{tag!r} parsed")

    monkeypatch.setattr(nerscore.schemes, "read_by_no_scheme", parsed)
    result = compute_semeval(predictions=[["B-New York", "O"]], references=[["B-New York", "O"]], per_type=True)
    assert result["New York_strict_f1"] == 1.0


# `-` for --hipe, --seen and --value was refused (a file named "-" was opened before that): it reads standard input,
# as FILE, --spans, --label-studio, --compare and --runs do, where nothing else of the call reads it. Each case: the
# flags ("-" where standard input goes, "FILE" the file's name) and what the file holds.
_HIPE_GOLD, _HIPE_SYSTEM = "\n".join(GOLD) + "\n", "\n".join(SYSTEM) + "\n"
FLAG_FILES_FROM_STANDARD_INPUT = {
    "seen": ([str(WORKED_EXAMPLE), "--slices", "seen", "--seen", "-", "--json"], "Smith\nLa Scala\n"),
    "value": ([str(WORKED_EXAMPLE), "--value", "-", "--json"], '{"types": {"PER": 2.0}}'),
    "hipe-gold": (["--hipe", "-", "SYSTEM", "--json"], _HIPE_GOLD),
    "hipe-system": (["--hipe", "GOLD", "-", "--json"], _HIPE_SYSTEM),
    "hipe-table-system": (["--hipe", "GOLD", "-", "--hipe-table"], _HIPE_SYSTEM),
    "agreement-value": (["agreement", str(REPO / "examples" / "agreement.conll"), "--value", "-"], '{"types": {}}'),
}


def _stdin(monkeypatch: pytest.MonkeyPatch, content: bytes | str) -> None:
    stream = io.StringIO(content) if isinstance(content, str) else io.TextIOWrapper(io.BytesIO(content))
    monkeypatch.setattr(sys, "stdin", stream)


@pytest.mark.parametrize("text_stream", [False, True], ids=["bytes", "a-text-stream"])
@pytest.mark.parametrize(
    ("flags", "content"), FLAG_FILES_FROM_STANDARD_INPUT.values(), ids=FLAG_FILES_FROM_STANDARD_INPUT
)
def test_a_flags_file_from_standard_input_reads_as_the_file(
    flags: list[str], content: str, text_stream: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    named = {"GOLD": tmp_path / "gold.tsv", "SYSTEM": tmp_path / "team0_bundle4_en_1.tsv", "-": tmp_path / "stdin"}
    named["GOLD"].write_text(_HIPE_GOLD, encoding="utf-8")
    named["SYSTEM"].write_text(_HIPE_SYSTEM, encoding="utf-8")
    named["-"].write_text(content, encoding="utf-8")
    _stdin(monkeypatch, b"")
    assert main([str(named[flag]) if flag in named else flag for flag in flags]) == 0, capsys.readouterr().err
    by_name = capsys.readouterr().out  # (the table names a system by its file: standard input's as /dev/stdin's)
    _stdin(monkeypatch, content if text_stream else ("\ufeff" + content).encode("utf-8"))
    assert main([str(named[flag]) if flag in named and flag != "-" else flag for flag in flags]) == 0
    assert capsys.readouterr().out == by_name


# Two of the call's arguments read standard input, each named in the refusal (exit status 2); each case the flags,
# and the words the message starts with.
TWO_READERS = {
    "seen-and-value": ([str(WORKED_EXAMPLE), "--seen", "-", "--value", "-"], "--seen - and --value -"),
    "seen-and-no-file": (["--slices", "seen", "--seen", "-"], "--seen - and no FILE"),
    "value-and-a-file": (["-", "--value", "-"], "--value - and FILE -"),
    "value-and-spans": (["--spans", "-", "--value", "-"], "--value - and --spans -"),
    "value-and-label-studio": (["--label-studio", "-", "--value", "-"], "--value - and --label-studio -"),
    "seen-and-compare": (["--compare", "-", str(WORKED_EXAMPLE), "--seen", "-"], "--seen - and --compare -"),
    "value-and-runs-b": (["--runs", "A", "--runs-b", "-", "--value", "-"], "--value - and --runs-b -"),
    "hipe-twice": (["--hipe", "-", "-"], "--hipe GOLD - and --hipe SYSTEM -"),
    "hipe-and-value": (["--hipe", "-", "S", "--value", "-"], "--value - and --hipe GOLD -"),
}


@pytest.mark.parametrize(("flags", "named"), TWO_READERS.values(), ids=TWO_READERS)
def test_two_readers_of_standard_input_are_refused(flags: list[str], named: str, monkeypatch, capsys) -> None:
    _stdin(monkeypatch, b"Smith\n")
    assert _status(flags) == 2
    assert f"error: {named} each read standard input, one stream, read once" in capsys.readouterr().err


# What standard input holds that its flag cannot read: named <stdin>, with its line, as a file's name is.
BAD_STANDARD_INPUTS = {
    "seen-not-utf8": (["--seen", "-"], b"Smith\n\xff\n", "argument --seen: cannot read <stdin>: line 2: byte 0xff"),
    "seen-a-lone-surrogate": (["--seen", "-"], "Smith\n\udcff", "argument --seen: cannot read <stdin>: line 2: byte"),
    "value-not-json": (["--value", "-"], b"{\n1", "a JSON file of weights: <stdin>: line 2 column 1: Expecting"),
    "hipe-not-utf8": (["--hipe", "GOLD", "-"], b"TOKEN\n\xff", "<stdin>:2: byte 0xff is not utf-8-sig"),
}


@pytest.mark.parametrize(("flags", "content", "says"), BAD_STANDARD_INPUTS.values(), ids=BAD_STANDARD_INPUTS)
def test_what_standard_input_holds_is_refused_at_its_line(
    flags: list[str], content: bytes | str, says: str, tmp_path: Path, monkeypatch, capsys
) -> None:
    gold = tmp_path / "gold.tsv"
    gold.write_text(_HIPE_GOLD, encoding="utf-8")
    _stdin(monkeypatch, content)
    arguments = [str(gold) if flag == "GOLD" else flag for flag in flags]
    arguments = arguments if "--hipe" in flags else [str(WORKED_EXAMPLE), "--slices", "seen", *arguments]
    assert _status(arguments) == 2
    assert says in capsys.readouterr().err


def _status(arguments: list[str]) -> int | str | None:
    """`main`'s exit status, argparse's (SystemExit) too."""
    try:
        return main(arguments)
    except SystemExit as stopped:
        return stopped.code


# `Pairs.of_rows` builds its columns by maps over each side and its scenarios from them (`scenario_codes`), where a
# row's call of `scenario_of` and eight appends cost 0.33 s of 100,000 identical entities under pairing="hipe".
def _entities() -> st.SearchStrategy[Span]:
    contiguous = st.builds(
        lambda start, length, kind: Span(start, start + length, kind),
        st.one_of(st.integers(0, 6), st.just(2**70)),  # (an offset past int64: the columns hold Python ints)
        st.integers(1, 3),
        st.sampled_from(["A", "B"]),
    )
    two_pieces = st.builds(
        lambda start, gap, kind: Span(
            start, start + gap + 2, kind, ((start, start + 1), (start + gap + 1, start + gap + 2))
        ),
        st.integers(0, 4),
        st.integers(1, 2),
        st.sampled_from(["A", "B"]),
    )
    return st.one_of(contiguous, two_pieces)


@st.composite
def _rows(draw: st.DrawFn) -> list[tuple[int, Span | None, Span | None]]:
    sides = st.one_of(st.none(), _entities())
    drawn = draw(st.lists(st.tuples(st.integers(0, 3), sides, sides), max_size=12))
    return [(sentence, r, p) for sentence, r, p in drawn if r is not None or p is not None]


def _row_by_row(rows: list, type_names: list[str]) -> list[list]:
    """The table's columns as the readable path defined them, a row at a time (`scenario_of`)."""
    index = {name: position for position, name in enumerate(type_names)}
    return [
        [sentence, SCENARIO_INDEX[scenario_of(r, p)]]
        + [-1 if s is None else index[s.entity_type] for s in (r, p)]
        + [bound for s in (r, p) for bound in ((-1, -1) if s is None else (s.start, s.end))]
        for sentence, r, p in rows
    ]


@settings(max_examples=200, deadline=None)
@given(_rows())
@example([(0, Span(0, 3, "A"), Span(0, 3, "A", ((0, 1), (2, 3))))])  # one extent, not one's fragments: V, not I
def test_the_table_of_rows_is_the_rows_scenarios_types_and_bounds(rows) -> None:
    table = Pairs.of_rows(rows)
    names = sorted({s.entity_type for _, r, p in rows for s in (r, p) if s is not None})
    assert list(table.type_names) == names
    assert [list(row) for row in zip(*(column.tolist() for column in table.columns()))] == _row_by_row(rows, names)
    assert table.fragmented == any(s is not None and s.fragments for _, r, p in rows for s in (r, p))
    if table.fragmented:
        assert table.pieces(0) == [() if r is None else r.pieces() for _, r, _ in rows]
        assert table.pieces(1) == [() if p is None else p.pieces() for _, _, p in rows]


def test_the_table_of_rows_calls_nothing_a_row(monkeypatch) -> None:
    # A row's Python calls (scenario_of, the appends) were most of the table's cost: now a few calls a table.
    calls = []
    rows = [(0, Span(k, k + 1, "A"), Span(k, k + 1, "A")) for k in range(1_000)] + [(1, None, Span(0, 2, "B"))]
    sys.setprofile(lambda frame, event, arg: calls.append(event) if event == "call" else None)
    try:
        table = Pairs.of_rows(rows)
    finally:
        sys.setprofile(None)
    assert len(calls) < 100, len(calls)
    assert table.scenario.tolist() == [0] * 1_000 + [1]


def test_a_row_of_no_span_is_refused_saying_which_side() -> None:
    class Entity(Span):  # (a subclass of Span is a Span)
        pass

    assert Pairs.of_rows([(0, Entity(0, 1, "A"), Span(0, 1, "A"))]).scenario.tolist() == [0]
    with pytest.raises(ValueError, match=r"^prediction is \(0, 1, 'A'\) \(tuple\); expected a Span or None$"):
        Pairs.of_rows([(0, Span(0, 1, "A"), None), (0, Span(0, 1, "A"), (0, 1, "A"))])


@pytest.mark.parametrize("as_table", [False, True], ids=["cells-as-a-dict", "a-cell-table"])
def test_a_tallys_types_are_found_without_their_totals(as_table: bool, monkeypatch) -> None:
    # Tally.entity_types summed every type's entities, which only types_by_frequency reads (3 ms of 100,000 types).
    tally = Accumulator(Options()).update(predictions=[["B-A", "O", "B-B"]], references=[["B-B", "B-A", "O"]]).tally
    if not as_table:
        tally = Tally(dict(tally.cells))
    assert isinstance(tally.cells, CellTable) == as_table

    def summed(*args, **kwargs):
        raise AssertionError("a type's entities summed")

    with monkeypatch.context() as patched:
        patched.setattr(np, "bincount", summed)
        assert tally.entity_types == ["A", "B"]
    assert tally.types_by_frequency() == ["A", "B"]


@pytest.mark.slow
def test_mypy_reads_test_greedy_without_an_error() -> None:
    # Tests are not in mypy's files (pyproject.toml): test_greedy.py showed 8 errors, its deliberate bad arguments
    # and a dict unpacked into keywords, and strategies.py 10 more (stop 44's note).
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "tests/test_greedy.py"], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert checked.returncode == 0, checked.stdout
