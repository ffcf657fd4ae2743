"""`ner-semeval --conlleval`: conlleval.pl's own report, byte for byte (nerscore/files/conlleval.py).

The expected outputs are written out from conlleval.pl's documented format (the CoNLL-2000 output page's lines,
`%6.2f` and `%17s`, its chunk rules) and were checked against the script itself; the properties check the counts
against this metric's strict scores, which agree with conlleval.pl on IOB1/IOB2 data in lenient mode
(docs/comparison.md). Only -d's split is compared with Perl's, where perl is installed."""

from __future__ import annotations

import io
import itertools
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import strategies
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore import cli
from nerscore.files.backtracking import backtracking
from nerscore.files.conlleval import ConllevalError, count_conlleval, format_conlleval, lines_of
from nerscore.files.perl_patterns import perl_pattern, perl_split, splitter

HEADER = "        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline"


def report(text: bytes | str, *flags: str) -> tuple[int, bytes, bytes]:
    """(exit status, standard output, standard error) of `--conlleval` with `flags` on `text` as its input."""
    data = text.encode() if isinstance(text, str) else text
    delimiter = outside = None
    raw = latex = False
    arguments = iter(flags)
    for flag in arguments:
        if flag == "-d":
            delimiter = next(arguments).encode()
        elif flag == "-o":
            outside = next(arguments).encode()
        raw |= flag == "-r"
        latex |= flag == "-l"
    try:
        counts = count_conlleval(io.BytesIO(data), delimiter or b" ", outside or b"O", raw)
    except ConllevalError as error:
        return error.status, b"", error.message
    return 0, format_conlleval(counts, latex), b""


# (input, flags, what conlleval.pl prints): the documented behaviour, one corner each.
DOCUMENTED = [
    pytest.param(
        "EU B-ORG B-ORG\nrejects O O\nGerman B-MISC I-MISC\n\nPeter B-PER B-PER\nBlack I-PER O\n",
        [],
        "processed 5 tokens with 3 phrases; found: 3 phrases; correct: 2.\n"
        "accuracy:  60.00%; precision:  66.67%; recall:  66.67%; FB1:  66.67\n"
        "             MISC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        "              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        "              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n",
        id="summary-accuracy-and-types-in-order",
    ),
    pytest.param(
        "EU B-ORG B-ORG\nrejects O O\nGerman B-MISC I-MISC\n\nPeter B-PER B-PER\nBlack I-PER O\n",
        ["-l"],
        f"{HEADER}\n"
        "MISC    &  100.00\\% & 100.00\\% & 100.00 \\\\\n"
        "ORG     &  100.00\\% & 100.00\\% & 100.00 \\\\\n"
        "PER     &    0.00\\% &   0.00\\% &   0.00 \\\\\\hline\n"
        "Overall &   66.67\\% &  66.67\\% &  66.67 \\\\\\hline\n",
        id="latex-table",
    ),
    pytest.param(
        "",
        ["-l"],
        f"{HEADER}\\hline\nOverall &    0.00\\% &   0.00\\% &   0.00 \\\\\\hline\n",
        id="latex-table-of-nothing",
    ),
    pytest.param("", [], "processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n", id="empty-no-accuracy"),
    pytest.param(
        "\n-X- O O\n\n",
        [],
        "processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n",
        id="boundaries-are-no-tokens",
    ),
    pytest.param(
        "a B-PER B-PER\n-X- O O\nb I-PER I-PER\n",
        [],
        "processed 2 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
        "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
        "              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n",
        id="x-line-ends-a-sentence",
    ),
    pytest.param(
        "-DOCSTART- -X- O O\n\nEU NNP B-ORG B-ORG\n",
        [],
        "processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
        "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
        "              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n",
        id="docstart-is-a-token",
    ),
    pytest.param(
        "-DOCSTART- -X- -X- O\n\nEU NNP B-ORG B-ORG\n",
        [],
        "processed 2 tokens with 2 phrases; found: 1 phrases; correct: 1.\n"
        "accuracy:  50.00%; precision: 100.00%; recall:  50.00%; FB1:  66.67\n"
        "              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        "               X-: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n",
        id="docstart-tag-minus-x-minus-is-a-phrase-of-type-x-minus",
    ),
    pytest.param(
        "a [-NP [-NP\nb ]-NP ]-NP\nc [-NP I-NP\n",
        [],
        "processed 3 tokens with 3 phrases; found: 2 phrases; correct: 2.\n"
        "accuracy:  66.67%; precision: 100.00%; recall:  66.67%; FB1:  80.00\n"
        "               NP: precision: 100.00%; recall:  66.67%; FB1:  80.00  2\n",
        id="brackets-are-one-token-chunks",
    ),
    pytest.param(
        "a B B\nb I I\nc O B\n",
        [],
        "processed 3 tokens with 1 phrases; found: 2 phrases; correct: 1.\n"
        "accuracy:  66.67%; precision:  50.00%; recall: 100.00%; FB1:  66.67\n"
        "                 : precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n"
        "                 : precision:  50.00%; recall: 100.00%; FB1:  66.67  2\n",
        id="no-type-listed-once-per-side",
    ),
    pytest.param(
        "a B-0 B-0\n",
        [],
        "processed 1 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
        "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
        "                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        "                 : precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n",
        id="type-0-is-perl-false-so-no-type",
    ),
    pytest.param(
        "a B-PER B-PER\r\nb I-PER I-PER\r\n",
        [],
        "processed 2 tokens with 1 phrases; found: 1 phrases; correct: 0.\n"
        "accuracy:   0.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n"
        "              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
        "             PER\r: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n",
        id="crlf-the-carriage-return-is-part-of-the-guess",
    ),
    pytest.param(
        "a B-\u00e9t\u00e9 B-\u00e9t\u00e9\nb B-a_very_long_type_name O\n",
        [],
        "processed 2 tokens with 2 phrases; found: 1 phrases; correct: 1.\n"
        "accuracy:  50.00%; precision: 100.00%; recall:  50.00%; FB1:  66.67\n"
        "a_very_long_type_name: precision:   0.00%; recall:   0.00%; FB1:   0.00  0\n"
        "            \u00e9t\u00e9: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n",
        id="widths-count-bytes-and-never-cut",
    ),
    pytest.param(
        "w B-PER B-PER\n" * 97 + "w B-PER O\n" * 703,
        [],
        "processed 800 tokens with 800 phrases; found: 97 phrases; correct: 97.\n"
        "accuracy:  12.12%; precision: 100.00%; recall:  12.12%; FB1:  21.63\n"
        "              PER: precision: 100.00%; recall:  12.12%; FB1:  21.63  97\n",
        id="rounding-12.125-half-to-even",
    ),
    pytest.param(
        "a PER PER\nb PER LOC\nc NONE NONE\nd NONE PER\n",
        ["-r", "-o", "NONE"],
        "processed 4 tokens with 2 phrases; found: 3 phrases; correct: 1.\n"
        "accuracy:  50.00%; precision:  33.33%; recall:  50.00%; FB1:  40.00\n"
        "              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n"
        "              PER: precision:  50.00%; recall:  50.00%; FB1:  50.00  2\n",
        id="raw-tags-with-an-outside-tag",
    ),
    pytest.param(
        "a B-PER B-PER\nb I-PER I-PER\n",
        ["-r"],
        "processed 2 tokens with 2 phrases; found: 2 phrases; correct: 2.\n"
        "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
        "            B-PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n"
        "            I-PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n",
        id="raw-prefixes-are-part-of-the-type",
    ),
    pytest.param(
        "a NONE NONE\n",
        ["-o", "NONE"],
        "processed 1 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"
        "accuracy: 100.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n",
        id="outside-tag-without-raw-does-nothing",
    ),
    pytest.param(
        "EU\tB-ORG\tB-ORG\n",
        ["-d", "\\t"],
        "processed 1 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
        "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
        "              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n",
        id="tab-delimiter",
    ),
    pytest.param(
        "New York B-LOC B-LOC\n",
        ["-d", "\\s+"],
        "processed 1 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
        "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
        "              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n",
        id="regular-expression-delimiter",
    ),
    pytest.param(
        "EU B-ORG B-ORG\nrejects O O",
        [],
        "processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.\n"
        "accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n"
        "              ORG: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n",
        id="last-line-without-newline",
    ),
]


@pytest.mark.parametrize(("text", "flags", "expected"), DOCUMENTED)
def test_documented_output(text: str, flags: list[str], expected: str) -> None:
    assert report(text, *flags) == (0, expected.encode(), b"")


# (input, flags, exit status, standard error): where conlleval.pl stops, printing nothing on standard output.
STOPS = [
    pytest.param(
        "a B-PER O\nb  B-PER O\n", [], 1, "unexpected number of features: 4 (3)\n", id="double-space-is-a-field"
    ),
    pytest.param("a x B-PER O\n-X- O O\n", [], 1, "unexpected number of features: 3 (4)\n", id="boundary-line-counts"),
    pytest.param("\n\na B O\nb B O x\n", [], 1, "unexpected number of features: 4 (3)\n", id="empty-lines-fix-nothing"),
    pytest.param(
        "EU\tB-ORG\tB-ORG\n",
        [],
        255,
        "conlleval: unexpected number of features in line EU\tB-ORG\tB-ORG\n",
        id="tabs-without-d-are-one-field",
    ),
    pytest.param("a B O\n", ["-d", "("], 255, None, id="delimiter-that-is-no-regular-expression"),
]


@pytest.mark.parametrize(("text", "flags", "status", "stderr"), STOPS)
def test_where_conlleval_stops(text: str, flags: list[str], status: int, stderr: str | None) -> None:
    code, out, err = report(text, *flags)
    assert (code, out) == (status, b"")
    if stderr is not None:
        assert err == stderr.encode()
    else:
        assert err.startswith(b"conlleval: -d ")


def test_a_bad_delimiter_is_read_only_with_a_line() -> None:
    # Perl compiles the pattern when it first splits a line: an empty input reads with any -d.
    assert report("", "-d", "(")[0] == 0


# Perl's split as perlfunc documents it (`split /PATTERN/, EXPR` without LIMIT).
SPLITS = [
    pytest.param(" ", b"a b c", [b"a", b"b", b"c"], id="one-space"),
    pytest.param(" ", b" a  b ", [b"", b"a", b"", b"b"], id="leading-field-kept-trailing-dropped"),
    pytest.param(",", b"a,b,c,,,", [b"a", b"b", b"c"], id="trailing-empty-fields-dropped"),
    pytest.param(",", b",a", [b"", b"a"], id="positive-width-match-at-start-leaves-a-field"),
    pytest.param(" *", b"hi there", [b"h", b"i", b"t", b"h", b"e", b"r", b"e"], id="perlfunc-hi-there"),
    pytest.param("", b"abc", [b"a", b"b", b"c"], id="empty-pattern-splits-characters"),
    pytest.param("|", b"ab", [b"a", b"b"], id="empty-alternatives-split-characters"),
    pytest.param("(-)|(,)", b"1-10,20", [b"1", b"-", b"", b"10", b"", b",", b"20"], id="perlfunc-captures"),
    pytest.param("\\t", b"a\tb", [b"a", b"b"], id="escaped-tab"),
    pytest.param(" ", b"", [], id="empty-line-no-fields"),
    pytest.param(" ", b"   ", [], id="spaces-only-no-fields"),
]


@pytest.mark.parametrize(("delimiter", "line", "fields"), SPLITS)
def test_perl_split(delimiter: str, line: bytes, fields: list[bytes]) -> None:
    assert splitter(delimiter.encode())(line) == fields
    assert perl_split(re.compile(delimiter.encode()), line) == fields  # the literal fast path's equal


@pytest.mark.parametrize(
    ("files", "lines"),
    [
        pytest.param([b"a\nb\n", b"c\n"], [b"a\n", b"b\n", b"c\n"], id="whole-lines"),
        pytest.param([b"a\nb", b"c\n", b"d"], [b"a\n", b"bc\n", b"d"], id="as-cat-joins-them"),
        pytest.param([b"", b"a"], [b"a"], id="an-empty-file"),
    ],
)
def test_several_files_read_as_cat_reads_them(files: list[bytes], lines: list[bytes]) -> None:
    assert list(lines_of(io.BytesIO(data) for data in files)) == lines


# ---------------------------------------------------------------------------------------------------------
# The counts against this metric's strict scores (IOB1/IOB2 in lenient mode: docs/comparison.md)
# ---------------------------------------------------------------------------------------------------------


def expected_report(predictions: list[list[str]], references: list[list[str]], scheme: str) -> bytes:
    """conlleval.pl's documented report, filled in from `compute_semeval`'s strict counts."""
    result = ns.compute_semeval(predictions=predictions, references=references, scheme=scheme, per_type=True)
    tokens = sum(map(len, references))
    lines = [
        f"processed {tokens} tokens with {result['strict_possible']} phrases; found: {result['strict_actual']} "
        f"phrases; correct: {result['strict_correct']}.\n"
    ]

    def percent(correct: int, guessed: int, truth: int) -> str:
        precision = 100 * correct / guessed if guessed else 0.0
        recall = 100 * correct / truth if truth else 0.0
        fb1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return f"precision: {precision:6.2f}%; recall: {recall:6.2f}%; FB1: {fb1:6.2f}"

    if tokens:
        accuracy = 100 * round(result["token_accuracy"] * tokens) / tokens
        overall = percent(result["strict_correct"], result["strict_actual"], result["strict_possible"])
        lines.append(f"accuracy: {accuracy:6.2f}%; {overall}\n")
    types = sorted(key.removesuffix("_strict_possible") for key in result if key.endswith("_strict_possible"))
    for entity_type in sorted(types, key=str.encode):
        actual, possible = result[f"{entity_type}_strict_actual"], result[f"{entity_type}_strict_possible"]
        correct = round(result[f"{entity_type}_strict_precision"] * actual)
        lines.append(f"{entity_type:>17}: {percent(correct, actual, possible)}  {actual}\n")
    return "".join(lines).encode()


def as_file(predictions: list[list[str]], references: list[list[str]], separators: list[str]) -> bytes:
    """token, reference and predicted tag a line, each sentence ended by an empty line or a `-X-` line."""
    blocks = []
    for sentence, (predicted, reference) in enumerate(zip(predictions, references)):
        rows = "".join(f"w{token} {r} {p}\n" for token, (r, p) in enumerate(zip(reference, predicted)))
        blocks.append(rows + separators[sentence % len(separators)])
    return "".join(blocks).encode()


@settings(max_examples=150, deadline=None)
@given(data=st.data(), scheme=st.sampled_from(["IOB1", "IOB2"]))
def test_report_equals_the_metrics_strict_scores(data: st.DataObject, scheme: str) -> None:
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=6))
    separators = data.draw(st.lists(st.sampled_from(["\n", "-X- -X- O\n", "-X- O O\n"]), min_size=1, max_size=3))
    status, out, _ = report(as_file(predictions, references, separators))
    assert status == 0
    # Perl's FB1 and ours: the same float operations, so the same bytes
    assert out == expected_report(predictions, references, scheme)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_accuracy_line_is_token_accuracy(data: st.DataObject) -> None:
    tags = st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "E-LOC", "S-PER", "X"])
    references = data.draw(st.lists(st.lists(tags, min_size=1, max_size=8), min_size=1, max_size=5))
    predictions = [data.draw(st.lists(tags, min_size=len(r), max_size=len(r))) for r in references]
    counts = count_conlleval(io.BytesIO(as_file(predictions, references, ["\n"])))
    equal = sum(p == r for ps, rs in zip(predictions, references) for p, r in zip(ps, rs))
    assert (counts.tokens, counts.correct_tags) == (sum(map(len, references)), equal)


# ---------------------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------------------

SIX_LINES = "EU B-ORG B-ORG\nrejects O O\nGerman B-MISC I-MISC\n\nPeter B-PER B-PER\nBlack I-PER O\n"


def test_the_command_line_prints_the_bytes(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    path = tmp_path / "run.conll"
    path.write_text(SIX_LINES, encoding="utf-8")
    assert cli.main(["--conlleval", str(path)]) == 0
    assert capsysbinary.readouterr().out == report(SIX_LINES)[1]
    assert cli.main(["--conlleval", "-l", str(path)]) == 0
    assert capsysbinary.readouterr().out == report(SIX_LINES, "-l")[1]


def test_the_command_line_reads_standard_input_and_exits_as_conlleval() -> None:
    # Real processes: standard input, the exit status of a stop, and Perl's bytes on both streams.
    commands = {
        "read": (["--conlleval", "-d", "\\t"], SIX_LINES.replace(" ", "\t")),
        "fields": (["--conlleval"], "a B-PER O\nb x B-PER O\n"),
        "one-field": (["--conlleval"], "EU\tB-ORG\tB-ORG\n"),
    }
    processes = {
        name: subprocess.Popen(
            [sys.executable, "ner_semeval.py", *arguments],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name, (arguments, _) in commands.items()
    }
    done = {
        name: (process, *process.communicate(commands[name][1].encode(), timeout=300))
        for name, process in processes.items()
    }
    process, out, err = done["read"]
    assert (process.returncode, out, err) == (0, report(SIX_LINES)[1], b"")
    process, out, err = done["fields"]
    assert (process.returncode, out, err) == (1, b"", b"unexpected number of features: 4 (3)\n")
    process, out, err = done["one-field"]
    assert (process.returncode, out) == (255, b"")
    assert err == b"conlleval: unexpected number of features in line EU\tB-ORG\tB-ORG\n"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        pytest.param(["-r", "x.conll"], "-r: conlleval.pl's flags, taken with --conlleval", id="flag-alone"),
        pytest.param(["--conlleval", "--json"], "drop --json", id="with-json"),
        pytest.param(["--conlleval", "--scheme", "IOB1"], "drop --scheme", id="with-a-scoring-flag"),
        pytest.param(["--conlleval", "--spans", "x.jsonl"], "drop --spans", id="with-spans"),
    ],
)
def test_conlleval_flags_stand_apart(arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(arguments)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_a_missing_file_is_the_command_lines_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--conlleval", str(tmp_path / "missing.conll")]) == 2
    assert "missing.conll" in capsys.readouterr().err


@pytest.mark.slow
def test_memory_stays_flat_however_long_the_input() -> None:
    # conlleval.pl keeps counts, not lines: 200,000 lines streamed through keep a few counters per type.
    import tracemalloc

    def lines():
        for number in range(200_000):
            yield b"w B-PER B-PER\n" if number % 3 else b"\n"

    tracemalloc.start()
    counts = count_conlleval(lines())
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert counts.tokens == 133_333
    assert peak < 100_000  # the lines alone are 2.6 MB


# conlleval.pl's -d is Perl's: the classes Python's re lacks are translated to the bytes Perl matches on its byte
# strings (issue 31). (delimiter, line, fields)
PERL_CLASSES = [
    pytest.param("[[:space:]]+", b"EU \t B-ORG\x0bO\xa0x", [b"EU", b"B-ORG", b"O\xa0x"], id="posix-space-ascii-only"),
    pytest.param("[[:blank:]]", b"a\tb c\nd", [b"a", b"b", b"c\nd"], id="posix-blank"),
    pytest.param("[[:^alnum:]]+", b"a-b_c\xa0d", [b"a", b"b", b"c", b"d"], id="posix-negated"),
    pytest.param("[,[:digit:]]", b"a1b,c", [b"a", b"b", b"c"], id="posix-among-members"),
    pytest.param("\\h+", b"a \t\xa0b\nc", [b"a", b"b\nc"], id="h-with-no-break-space"),
    pytest.param("\\v", b"a\nb\x85c d", [b"a", b"b", b"c d"], id="v-with-next-line"),
    pytest.param("\\H", b"a b", [b"", b" "], id="H-negated"),
    pytest.param("\\p{Zs}", b"a b\xa0c\td", [b"a", b"b", b"c\td"], id="p-Zs-latin-1"),
    pytest.param("\\pZ", b"a b\xa0c", [b"a", b"b", b"c"], id="p-one-letter"),
    pytest.param("\\p{IsSpace}+", b"a\t\x85b", [b"a", b"b"], id="p-IsSpace"),
    pytest.param("\\P{Zs}+", b"ab cd", [b"", b" "], id="P-negated"),
    pytest.param("\\p{^Zs}+", b"ab cd", [b"", b" "], id="p-caret-negated"),
    pytest.param("[\\h,]", b"a,b c", [b"a", b"b", b"c"], id="h-in-a-class"),
    pytest.param("\\x{A0}", b"a\xa0b", [b"a", b"b"], id="x-braces"),
    pytest.param("[a[]", b"x[yaz", [b"x", b"y", b"z"], id="a-bracket-member-as-given"),
    pytest.param("[]a]", b"x]yaz", [b"x", b"y", b"z"], id="a-leading-bracket-member"),
    # Perl's octal escapes from \\10 on, without as many groups before: \\11 a tab, \\40 a space (Python's re
    # read them as backreferences: "invalid group reference 11", status 255), as perl -e 'split /\\11/' splits.
    pytest.param("\\11", b"a\tb c", [b"a", b"b c"], id="octal-11-a-tab"),
    pytest.param("\\40", b"a\tb c", [b"a\tb", b"c"], id="octal-40-a-space"),
    pytest.param("\\101", b"xAyBz", [b"x", b"yBz"], id="octal-101-three-digits"),
    pytest.param("\\1011", b"xA1yAz", [b"x", b"yAz"], id="octal-then-a-digit"),
    pytest.param("\\18", b"a\x018b", [b"a", b"b"], id="octal-1-then-8"),
    pytest.param("[\\11 ]", b"a\tb c", [b"a", b"b", b"c"], id="octal-in-a-class"),
    pytest.param("(,)\\1", b"a,,b", [b"a", b",", b"b"], id="a-backreference-stays-one"),
    pytest.param("\\" + "1" * 5000, b"aI" + b"1" * 4997 + b"b", [b"a", b"b"], id="octal-then-4997-digits"),
    # An empty match at a field's start makes Perl backtrack into the next alternative there (a space is one
    # empty field), where looking on one byte took the space into the field.
    pytest.param("|\\h", b"a b", [b"a", b"", b"b"], id="empty-alternative-first"),
    pytest.param("x*|,", b"a,b", [b"a", b"", b"b"], id="empty-star-then-a-comma"),
    # Perl's modifiers anywhere, to the end of their group, every alternative after them (Python's re: "global
    # flags not at the start", status 255 "is not a regular expression"), as perl -e 'split /$d/' splits.
    pytest.param("a(?i)b", b"xaBy", [b"x", b"y"], id="modifier-in-the-middle"),
    pytest.param("a|(?i)b", b"xAyBz", [b"xAy", b"z"], id="modifier-in-the-second-alternative"),
    pytest.param("(?i)a|b", b"xAyBz", [b"x", b"y", b"z"], id="modifier-over-every-alternative"),
    pytest.param("(a(?i)b|c)d", b"1aBd2Cd3cd", [b"1", b"aB", b"2", b"C", b"3", b"c"], id="modifier-to-the-group-end"),
    pytest.param("(?-i)a", b"xAyaz", [b"xAy", b"z"], id="modifier-turned-off"),
    # What Python's re calls "nothing to repeat" and Perl reads: a leading brace, a repeated assertion.
    pytest.param("{2}", b"a{2}b", [b"a", b"b"], id="leading-brace-literal"),
    pytest.param("a|{2}", b"x{2}ay", [b"x", b"", b"y"], id="brace-after-a-bar-literal"),
    pytest.param("\\b*", b"ab c", [b"a", b"b", b" ", b"c"], id="repeated-word-boundary"),
    pytest.param("^{2}", b"ab", [b"ab"], id="repeated-start"),
    pytest.param("\\y", b"xyz", [b"x", b"z"], id="unknown-escape-is-the-letter"),
    pytest.param("a(?#c)b", b"xaby", [b"x", b"y"], id="a-comment-is-nothing"),
    # A \\p anywhere brings Perl's Unicode rules: \\s then matches the no-break space.
    pytest.param("\\s+\\P{L}\\s+", b"|1\t \xa0 \xa0|", [b"|1", b"|"], id="s-under-unicode-rules"),
    pytest.param("\\w\\pZ", b"a \xe9 b", [b"", b"", b"b"], id="w-under-unicode-rules"),
]


@pytest.mark.parametrize(("delimiter", "line", "fields"), PERL_CLASSES)
def test_perl_classes_in_the_delimiter_split_as_perl_splits(delimiter: str, line: bytes, fields: list[bytes]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "possible nested set" from Python's re
        assert splitter(delimiter.encode())(line) == fields


@pytest.mark.parametrize(
    ("delimiter", "status", "message"),
    [
        pytest.param("\\z", 2, "error: -d '\\z': Perl's \\z, which this reading", id="z"),
        pytest.param("\\K", 2, "Perl's \\K", id="K"),
        pytest.param("\\R", 2, "Perl's \\R", id="R"),
        pytest.param("\\N{U+A0}", 2, "Perl's \\N", id="named-character"),
        pytest.param("\\x{3000}", 2, "the character \\x{3000}, beyond a byte", id="beyond-a-byte"),
        pytest.param("\\400", 2, "the character \\400, beyond a byte", id="octal-beyond-a-byte"),
        pytest.param("\\" + "9" * 5000, 255, "is not a regular expression", id="backreference-of-5000-digits"),
        pytest.param("\\p{Foo}", 2, "Perl's property \\p{Foo}", id="unknown-property"),
        pytest.param("[[:foo:]]", 255, "conlleval: -d '[[:foo:]]': POSIX class [:foo:] unknown", id="unknown-posix"),
        pytest.param("(?^i)a", 2, "Perl's modifiers (?^i)", id="caret-modifiers"),
        pytest.param("\\h(?#c){2}", 2, "a quantifier after a (?#...) comment", id="quantified-comment"),
        pytest.param("(?x)a#c", 2, "a # comment under (?x)", id="verbose-comment"),
        pytest.param("(?u)a", 2, "Perl's modifiers (?u)", id="unicode-modifier"),
        pytest.param("\\pZ\\b", 2, "\\b under the Unicode rules \\p brings", id="boundary-under-unicode-rules"),
        pytest.param("\\pZ(?i)a", 2, "(?i) under the Unicode rules", id="caseless-under-unicode-rules"),
        pytest.param("\\pZ[[:space:]]", 2, "a POSIX class under the Unicode rules", id="posix-under-unicode-rules"),
        pytest.param("\\1(a)", 2, "the backreference \\1 before its group", id="backreference-before-its-group"),
        # What Python's re cannot compile for another reason than a syntax error (each was a traceback and exit
        # status 1, redteam6): a count past re's limit is Perl's compile error too ("Quantifier in {,} bigger than
        # 65534", 255); groups nested past re's parser's recursion, which Perl may read, are refused.
        pytest.param("x{99999999999}", 255, "the repetition number is too large", id="count-too-large"),
        pytest.param(" {1," + "9" * 30 + "}", 255, "the repetition number", id="upper-count-too-large"),
        pytest.param("(" * 500 + " " + ")" * 500, 2, "groups nested this deep", id="groups-nested-deep"),
        pytest.param("(?:" * 5000 + " " + ")" * 5000, 2, "groups nested this deep", id="noncapturing-deep"),
        # What a backtracking matcher (Perl's too) takes time for that grows with what a line holds, not its
        # length: (a+)+b on 'aaa...c' tries every cut of the a's (2**29 for 30 of them), \\s*\\s*x every split of
        # a run of spaces between the two.
        pytest.param("(a+)+b", 2, "a quantifier over something that itself matches", id="nested-quantifiers"),
        pytest.param("(a|aa)*b", 2, "a quantifier over something that itself", id="quantified-alternation"),
        pytest.param("(\\s*,)*", 2, "a quantifier over something that itself", id="quantified-group-with-star"),
        pytest.param("(a+){30}", 2, "a quantifier over something that itself", id="counted-group-with-plus"),
        pytest.param("(,)\\1*", 2, "a quantifier over something that itself", id="quantified-backreference"),
        pytest.param("\\s*\\s*x", 2, "two quantifiers one after the other", id="overlapping-quantifiers"),
        pytest.param("\\s+ \\s+x", 2, "two quantifiers one after the other", id="overlapping-across-a-space"),
        pytest.param("(?i)a*A*x", 2, "two quantifiers one after the other", id="overlapping-caseless"),
    ],
)
def test_a_perl_delimiter_it_cannot_translate_is_refused(
    delimiter: str, status: int, message: str, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    conll = tmp_path / "x.conll"
    conll.write_bytes(b"EU B-ORG B-ORG\n")
    assert cli.main(["--conlleval", "-d", delimiter, str(conll)]) == status
    captured = capsysbinary.readouterr()
    assert captured.out == b""
    assert message in captured.err.decode() and b"Traceback" not in captured.err, captured.err[-300:]
    assert captured.err.startswith(b"error: -d " if status == 2 else b"conlleval: -d "), captured.err[-300:]


# Delimiters conlleval users pass, and others whose quantifiers cannot take each other's characters or end the
# pattern: read, not refused as costly. (delimiter, line, fields)
USERS_DELIMITERS = [
    pytest.param(" ", b"EU  B-ORG O", [b"EU", b"", b"B-ORG", b"O"], id="space"),
    pytest.param("\\t", b"EU\tB-ORG\tO", [b"EU", b"B-ORG", b"O"], id="tab"),
    pytest.param("[[:space:]]+", b"EU \t B-ORG O", [b"EU", b"B-ORG", b"O"], id="posix-space-run"),
    pytest.param("\\s+", b"EU \t B-ORG O", [b"EU", b"B-ORG", b"O"], id="s-run"),
    pytest.param("\\|", b"EU|B-ORG|O", [b"EU", b"B-ORG", b"O"], id="bar"),
    pytest.param("[ \\t]+", b"EU \t B-ORG O", [b"EU", b"B-ORG", b"O"], id="space-or-tab-run"),
    pytest.param("\\s*\\|\\s*", b"EU | B-ORG|O", [b"EU", b"B-ORG", b"O"], id="bar-between-spaces"),
    pytest.param("\\s*\\s*", b"EU  B-ORG", [b"E", b"U", b"B", b"-", b"O", b"R", b"G"], id="overlap-at-the-end"),
    pytest.param("a*b*x", b"1aax2bx3", [b"1", b"2", b"3"], id="disjoint-quantifiers"),
    pytest.param("(ab)+", b"1abab2", [b"1", b"ab", b"2"], id="quantified-group-without-choice"),
    pytest.param("(a{2})+", b"1aaaa2", [b"1", b"aa", b"2"], id="quantified-fixed-count"),
]


@pytest.mark.parametrize(("delimiter", "line", "fields"), USERS_DELIMITERS)
def test_delimiters_users_pass_are_not_refused_as_costly(delimiter: str, line: bytes, fields: list[bytes]) -> None:
    assert backtracking(perl_pattern(delimiter.encode())) is None
    assert splitter(delimiter.encode())(line) == fields


def test_a_costly_delimiter_is_refused_before_it_reads_a_line_it_would_take_exponential_time_on(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    # 'a' * 24 + 'c' takes (a+)+b 2**23 tries (seconds; each a more doubles them): refused at its first line.
    conll = tmp_path / "x.conll"
    conll.write_bytes(b"a" * 24 + b"c\n")
    assert cli.main(["--conlleval", "-d", "(a+)+b", str(conll)]) == 2
    assert capsysbinary.readouterr().err.startswith(b"error: -d '(a+)+b': a quantifier over something")


PERL_SPLIT = r"""binmode STDIN; binmode STDOUT;
while (my $case = <STDIN>) { chomp $case; my ($d, $l) = split(/\x02/, $case, 2);
  my @f = eval { no warnings; split(/$d/, $l) };
  print $@ ? "DIE\n" : join("\x01", @f) . "\n"; }"""


def perl_splits(cases: list[tuple[bytes, bytes]]) -> list[bytes]:
    """What Perl's split gives for each (delimiter, line): the fields joined by \x01, or DIE where Perl dies."""
    given = b"".join(delimiter + b"\x02" + line + b"\n" for delimiter, line in cases)
    return subprocess.run(["perl", "-e", PERL_SPLIT], input=given, capture_output=True, check=True).stdout.split(b"\n")


def spread_lines(alphabet: bytes, count: int) -> list[bytes]:
    """`count` lines of 0 to count - 1 bytes of `alphabet`, each spread over it by another step."""
    return [bytes(alphabet[(index * 7 + size * 3) % len(alphabet)] for index in range(size)) for size in range(count)]


def split_unlike_perl(delimiters: list[str], lines: list[bytes]) -> list[tuple[bytes, bytes, bytes]]:
    """The (delimiter, line, Perl's fields) where `splitter` splits a line of `lines` by a delimiter of
    `delimiters` otherwise than Perl does."""
    cases = [(delimiter.encode(), line) for delimiter in delimiters for line in lines]
    perl = perl_splits(cases)
    return [(d, line, want) for (d, line), want in zip(cases, perl) if b"\x01".join(splitter(d)(line)) != want]


def assert_split_as_the_plain_search(delimiter: str, line: bytes) -> None:
    """`splitter`'s skipping searches split as the plain search of the translated pattern does."""
    plain = re.compile(perl_pattern(delimiter.encode()))
    assert splitter(delimiter.encode())(line) == perl_split(plain, line)


# Pieces of -d that conlleval users pass or that Perl and Python's re read differently.
PIECES = [
    "|",
    "\\h",
    "\\s",
    "(?i)",
    "a",
    "{2}",
    "\\b",
    "*",
    "^",
    "\\pZ",
    "[[:space:]]",
    "(",
    ")",
    "x",
    ",",
    "\\y",
    "(?#c)",
]


@pytest.mark.slow  # (1-2 s: the quick profile stays under 3 minutes; the full suite runs it)
@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is not installed")
def test_delimiters_split_as_perl_splits_or_are_refused() -> None:
    # Every delimiter of two or three pieces on a few lines: the fields Perl's split gives, a refusal that says
    # what is not translated (status 2), or Perl's own compile error (255) where Perl dies too.
    delimiters = ["".join(pieces) for size in (2, 3) for pieces in itertools.product(PIECES, repeat=size)]
    lines = [b"a b", b"xA,\t\xa0{2}B", b"", b"ab  c"]
    cases = [(delimiter.encode(), line) for delimiter in delimiters for line in lines]
    perl = perl_splits(cases)
    wrong = []
    for (delimiter, line), expected in zip(cases, perl):
        try:
            got = b"\x01".join(splitter(delimiter)(line))
        except ConllevalError as error:
            got = b"DIE" if error.status == 255 else expected  # a refusal that names the construct
        if got != expected:
            wrong.append((delimiter, line, expected, got))
    assert not wrong, wrong[:5]


@pytest.mark.parametrize(
    ("text", "status", "out", "err"),
    [
        pytest.param("EU B-ORG B-ORG\n", 0, b"processed 1 tokens with 1 phrases;", b"", id="text"),
        pytest.param("\ufeffEU B-ORG B-ORG\n", 0, b"processed 1 tokens with 1 phrases;", b"", id="bom-is-bytes"),
        pytest.param(
            "EU B-ORG B-ORG\nx\ud800 O O\n", 2, b"", b"error: <stdin>:2: character 0xd800 at column 2", id="surrogate"
        ),
    ],
)
def test_a_text_stream_for_standard_input_is_read_as_its_utf8_bytes(
    text: str, status: int, out: bytes, err: bytes, monkeypatch: pytest.MonkeyPatch, capsysbinary
) -> None:
    # An embedder's sys.stdin without bytes beneath (io.StringIO): its lines were str, and a TypeError traceback.
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert cli.main(["--conlleval"]) == status
    captured = capsysbinary.readouterr()
    assert captured.out.startswith(out) and captured.err.startswith(err), captured


# A delimiter that begins with an unbounded quantifier over one character (\\s+x, \\s*\\|\\s*): a try that fails at a
# run of its bytes fails at each later byte of the run, which the search passes over (on 20,000 spaces, \\s+x tried
# each: 2 * 10**8 steps). The fields are the plain search's, and Perl's.
LEADING_RUNS = ["\\s+x", "\\s*\\|\\s*", " +,", "[ \\t]*\\|", "\\s+?x", "\\s{2,}x", "\\s*", " *(,) *"]


@pytest.mark.parametrize("delimiter", LEADING_RUNS)
def test_a_leading_run_is_tried_once_a_run(delimiter: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from nerscore.files import perl_patterns

    guards: list[object] = []
    split = perl_patterns.perl_split
    monkeypatch.setattr(perl_patterns, "perl_split", lambda *given: guards.append(given[2]) or split(*given))
    splitter(delimiter.encode())(b" " * 20_000 + b"a")
    assert guards and guards[0] is not None


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(LEADING_RUNS), st.binary(max_size=30).map(lambda raw: bytes(b" \t|x,a"[b % 6] for b in raw)))
def test_a_leading_run_splits_as_the_plain_search(delimiter: str, line: bytes) -> None:
    assert_split_as_the_plain_search(delimiter, line)


@pytest.mark.skipif(shutil.which("perl") is None, reason="perl is not installed")
def test_a_leading_run_splits_as_perl_splits() -> None:
    lines = spread_lines(b" \t|x,a", 40)
    lines += [b"a  x", b"  ,  ,", b"x \t| a", b"   "]
    wrong = split_unlike_perl(LEADING_RUNS, lines)
    assert not wrong, wrong[:5]
