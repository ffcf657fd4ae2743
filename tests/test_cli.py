"""`python ner_semeval.py`: the conlleval-style command line, on CoNLL files and stdin.

Every process starts Python and imports numpy, and a process that imports the evaluate module also imports
transformers and torch where they are installed: several seconds of CPU. So the real processes (a file, stdin, a
malformed file, and `python -m nerscore` and `python -m nerscore.cli`) start together once, in a module fixture, and
the other options and error paths call the same `main` in this process."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import REPO, WORKED_EXAMPLE, as_inputs, worked_example, worked_example_sentences

import nerscore
from nerscore import ConllSentence, cli, compute_semeval, main

SONG, SINGER = "MUSIC_NAME", "SINGER"


def conll(sentences: list[ConllSentence], docstart: bool = True) -> str:
    """token reference prediction, blank line between sentences; CoNLL-2003's -DOCSTART- line first."""
    blocks = ["-DOCSTART- -X- -X- O\n"] if docstart else []
    for sentence in sentences:
        rows = zip(sentence.tokens, sentence.references, sentence.predictions)
        blocks.append("".join(f"{token} {r} {p}\n" for token, r, p in rows))
    return "\n".join(blocks)


# docs/scoring.md §6 from examples/worked_example.conll: one scenario per sentence, III, II, V, IV, I, VI; and
# five sentences, II and III sharing the first.
SIX = worked_example_sentences()
FIVE = worked_example_sentences(shared=True)


# The §6 summary table: rows measure, columns type / partial / exact / strict.
COLUMNS = ["type", "partial", "exact", "strict"]
SUMMARY_ROWS = {
    "correct": [2, 2, 2, 1],
    "incorrect": [2, 0, 2, 3],
    "partial": [0, 2, 0, 0],
    "missed": [1, 1, 1, 1],
    "spurious": [1, 1, 1, 1],
    "precision": [0.4, 0.6, 0.4, 0.2],
    "recall": [0.4, 0.6, 0.4, 0.2],
    "F1": [0.4, 0.6, 0.4, 0.2],
}
# Per type (docs/scoring.md §5): MUSIC_NAME references III V IV I VI, predictions II V I; SINGER predictions IV VI.
PER_TYPE = {  # scheme: {type: (precision, recall, F1, support)}
    "strict": {SONG: (Fraction(1, 3), Fraction(1, 5), Fraction(1, 4), 5), SINGER: (0, 0, 0, 0)},
    "exact": {SONG: (Fraction(1, 3), Fraction(2, 5), Fraction(4, 11), 5), SINGER: (Fraction(1, 2), 0, 0, 0)},
    "partial": {SONG: (Fraction(1, 2), Fraction(3, 5), Fraction(6, 11), 5), SINGER: (Fraction(3, 4), 0, 0, 0)},
    "type": {SONG: (Fraction(2, 3), Fraction(2, 5), Fraction(1, 2), 5), SINGER: (0, 0, 0, 0)},
}

# IOBES data where strict and lenient differ: the predicted LOC `B` is not well formed.
IOBES_REFERENCES = [["B-PER", "E-PER", "O", "S-LOC"], ["S-ORG", "O"]]
IOBES_PREDICTIONS = [["B-PER", "E-PER", "O", "B-LOC"], ["S-ORG", "O"]]


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("conll")
    iobes = "\n".join(
        "".join(f"w {r} {p}\n" for r, p in zip(references, predictions))
        for references, predictions in zip(IOBES_REFERENCES, IOBES_PREDICTIONS)
    )
    return {
        "six": write(folder / "six.conll", conll(SIX)),
        "iobes": write(folder / "iobes.conll", iobes),
        "one-column": write(folder / "one column.conll", "a B-PER B-PER\nb I-PER I-PER\nc\n\nd O O\n"),
    }


@pytest.fixture(scope="module")
def runs(files: dict[str, Path]) -> dict[str, Run]:
    """The real processes of this module, started together (each spends most of its time importing)."""
    commands = {
        "file": (["ner_semeval.py", str(files["six"])], None),
        "stdin-per-type": (["ner_semeval.py", "--per-type"], conll(FIVE, docstart=False)),
        "one-column": (["ner_semeval.py", str(files["one-column"])], None),
        # The package's own ways in: `python -m nerscore` and `python -m nerscore.cli`.
        "module-file": (["-m", "nerscore", str(files["six"])], None),
        "cli-module-one-column": (["-m", "nerscore.cli", str(files["one-column"])], None),
    }
    processes = {
        name: (
            subprocess.Popen(
                [sys.executable, *arguments],
                cwd=REPO,
                stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
            ),
            stdin,
        )
        for name, (arguments, stdin) in commands.items()
    }
    results = {}
    for name, (process, stdin) in processes.items():
        stdout, stderr = process.communicate(stdin, timeout=300)
        results[name] = Run(process.returncode, stdout, stderr)
    return results


def tables(stdout: str) -> dict[str, dict[str, list[str]]]:
    """The blocks of the text output keyed by their header's title ("measure", "strict by type", ...); each
    maps a row's label to its cells, and "columns" to the header's column names."""
    result = {}
    for block in stdout.strip().split("\n\n"):
        header, *rows = block.splitlines()
        if header.startswith("processed"):
            continue
        words = header.split()
        title_length = 1 if words[0] == "measure" else 3
        title = " ".join(words[:title_length])
        parsed = {"columns": words[title_length:]}
        for line in rows:
            label, *cells = line.split()
            parsed[label] = cells
        result[title] = parsed
    return result


def check_summary(table: dict[str, list[str]]) -> None:
    assert table["columns"] == COLUMNS
    assert [label for label in table if label != "columns"] == list(SUMMARY_ROWS)
    for label, expected in SUMMARY_ROWS.items():
        cells = table[label]
        if label in ("precision", "recall", "F1"):
            assert [float(cell) for cell in cells] == pytest.approx(expected, abs=5e-5), label
        else:
            assert [int(cell) for cell in cells] == expected, label


def check_type_table(table: dict[str, list[str]], scheme: str) -> None:
    assert table["columns"] == ["precision", "recall", "F1", "support"]
    assert [label for label in table if label != "columns"] == [SONG, SINGER]
    for entity_type, (*ratios, support) in PER_TYPE[scheme].items():
        cells = table[entity_type]
        assert [float(cell) for cell in cells[:3]] == pytest.approx([float(r) for r in ratios], abs=5e-5)
        assert int(cells[3]) == support


@pytest.mark.slow
def test_file_prints_the_summary_table(runs: dict[str, Run]) -> None:
    run = runs["file"]
    assert run.returncode == 0, run.stderr
    # The -DOCSTART- line is no sentence (it would fail as a tag "-X-" otherwise).
    assert "6 sentences" in run.stdout.splitlines()[0]
    printed = tables(run.stdout)
    check_summary(printed["measure"])
    check_type_table(printed["strict by type"], "strict")
    assert set(printed) == {"measure", "strict by type"}


@pytest.mark.slow
def test_stdin_with_per_type_tables(runs: dict[str, Run]) -> None:
    run = runs["stdin-per-type"]
    assert run.returncode == 0, run.stderr
    assert "5 sentences" in run.stdout.splitlines()[0]
    printed = tables(run.stdout)
    check_summary(printed["measure"])  # docs/scoring.md §6: the same totals with II and III in one sentence
    for scheme in PER_TYPE:
        check_type_table(printed[f"{scheme} by type"], scheme)


# The same main() in this process, for the other options and error paths without more processes.


def test_json_equals_compute_semeval(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(files["six"]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == compute_semeval(**as_inputs(worked_example()))


def test_json_from_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(conll(FIVE)))
    assert main(["--json", "--per-type"]) == 0
    assert json.loads(capsys.readouterr().out) == compute_semeval(
        **as_inputs(worked_example(shared=True)), per_type=True
    )


def test_scheme_mode_and_per_type_options(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    arguments = [str(files["iobes"]), "--scheme", "IOBES", "--mode", "strict", "--per-type", "--json"]
    assert main(arguments) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = compute_semeval(
        predictions=IOBES_PREDICTIONS, references=IOBES_REFERENCES, scheme="IOBES", mode="strict", per_type=True
    )
    assert printed == expected
    # By hand: strict mode drops the predicted `B-LOC`; PER and ORG are correct, LOC missed.
    assert (printed["strict_correct"], printed["strict_missed"], printed["strict_spurious"]) == (2, 1, 0)
    assert (printed["LOC_strict_possible"], printed["LOC_strict_actual"]) == (1, 0)


@pytest.mark.slow
def test_python_dash_m_runs_the_command_line(runs: dict[str, Run]) -> None:
    # Both modules run the command line, as ner_semeval.py does: the same output and exit status.
    assert runs["module-file"] == runs["file"] and runs["file"].returncode == 0
    assert runs["cli-module-one-column"] == runs["one-column"] and runs["one-column"].returncode == 2


def test_line_with_one_column_fails_naming_file_and_line(runs: dict[str, Run], files: dict[str, Path]) -> None:
    run = runs["one-column"]
    assert run.returncode != 0
    assert run.stdout == ""
    assert re.search(rf"{re.escape(str(files['one-column']))}:3\b", run.stderr), run.stderr


BAD_TAG_FILE = "-DOCSTART- -X- -X- O\n\na B-PER B-PER\nb I-PER I-PER\n\nc O O\nd {reference} {prediction}\n"


@pytest.mark.parametrize(
    ("reference", "prediction", "column", "tag"),
    [
        pytest.param("O", "S-PER", "predicted", "'S-PER'", id="bad-predicted-tag"),
        pytest.param("PER", "O", "reference", "'PER'", id="bad-reference-tag"),
    ],
)
def test_bad_tag_fails_naming_file_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reference: str, prediction: str, column: str, tag: str
) -> None:
    path = write(tmp_path / "bad.conll", BAD_TAG_FILE.format(reference=reference, prediction=prediction))
    assert main([str(path)]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert re.search(rf"{re.escape(str(path))}:7\b", captured.err), captured.err
    assert column in captured.err
    assert tag in captured.err


def test_unknown_scheme_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "ok.conll", "a B-PER B-PER\n")
    assert main([str(path), "--scheme", "IOB3"]) != 0
    assert "IOB3" in capsys.readouterr().err


@pytest.mark.parametrize("labels", ["", ","])
def test_labels_naming_no_type_are_named_as_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], labels: str
) -> None:
    # It said "labels=[] keeps no entity type", the Python spelling, which the command line never wrote.
    path = write(tmp_path / "ok.conll", "a B-PER B-PER\n")
    with pytest.raises(SystemExit) as exit:
        main([str(path), "--labels", labels])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert f"argument --labels: found {labels!r}, which names no entity type" in err
    assert "labels=[]" not in err


def test_missing_file_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "absent.conll")]) != 0
    assert "absent.conll" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------------------
# Hostile files: byte-order marks, other encodings, closed pipes, short lines, large files
# ---------------------------------------------------------------------------------------------------------


def test_scoring_a_file_imports_neither_evaluate_nor_transformers(tmp_path: Path) -> None:
    # `import evaluate` imports transformers where it is installed: seconds before four tokens are scored.
    path = write(tmp_path / "four.conll", "a B-PER B-PER\nb I-PER I-PER\nc O O\nd B-LOC B-ORG\n")
    probe = (
        "import runpy, sys\n"
        f"sys.argv = [{str(REPO / 'ner_semeval.py')!r}, {str(path)!r}]\n"
        "try:\n"
        f"    runpy.run_path({str(REPO / 'ner_semeval.py')!r}, run_name='__main__')\n"
        "except SystemExit as exit:\n"
        "    assert exit.code == 0, exit.code\n"
        "print(sorted(name for name in ('evaluate', 'transformers', 'datasets', 'torch') if name in sys.modules))\n"
    )
    printed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert printed.splitlines()[-1] == "[]"
    assert "processed 4 tokens in 1 sentences" in printed


def test_a_byte_order_mark_is_not_part_of_the_first_tag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = WORKED_EXAMPLE
    marked = tmp_path / "marked.conll"
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    assert main([str(plain), "--json"]) == 0
    expected = capsys.readouterr().out
    assert main([str(marked), "--json"]) == 0
    assert capsys.readouterr().out == expected
    # A first token that is a tag column: the BOM would have made it "\ufeffB-PER".
    first_tag = tmp_path / "first-tag.conll"
    first_tag.write_bytes(b"\xef\xbb\xbfa B-PER B-PER\n")
    assert main([str(first_tag), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["strict_correct"] == 1


def test_a_byte_that_is_not_utf8_is_named_by_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.conll"
    path.write_bytes("a O O\n\nCaf\xe9 B-LOC B-LOC\n".encode("latin-1"))
    assert main([str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"{path}:3: byte 0xe9 at column 4 is not UTF-8"), captured.err


def test_two_columns_ask_for_three(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "two.conll", "a O O\nB-PER B-PER\n")
    assert main([str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}:2: found 2 columns ('B-PER B-PER'); expected at least 3 columns")


@pytest.mark.parametrize(
    "line",
    [
        '{"text":"Ann","references":[[0,3,"PER"]],"predictions":[[0,3,"PER"]]}',  # one column: "found 1 column"
        '{"text": "Ann", "references": [[0, 3, "PER"]], "predictions": [[0, 3, "PER"]]}',  # last: "found tag 'PER']]}'"
    ],
    ids=["compact", "spaced"],
)
def test_a_json_lines_file_without_spans_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str) -> None:
    path = write(tmp_path / "spans.jsonl", f"\n{line}\n")
    assert main([str(path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"{path}:2: found a JSON object, not CoNLL columns (JSON lines: --spans); expected"), error
    # A token that only starts with a brace is a token.
    assert main([str(write(tmp_path / "brace.conll", "{ B-PER B-PER\n"))]) == 0


# Another format given where the command line reads CoNLL, or CoNLL given to --spans (issue 31, a newcomer's slips):
# the message names the flag that reads it.
SPANS_EXPECTED = "expected one JSON object a line with 'references' and 'predictions' lists of entities"
EXPORT = "(a Label Studio export, a JSON list: --label-studio FILE.json)"
OTHER_FORMATS = [
    pytest.param(
        [],
        "export.json",
        '[\n  {"id": 1}\n]\n',
        ":1: found a JSON list, not CoNLL columns (a Label Studio export: --label-studio); expected at least 3",
        id="label-studio-export-as-conll",
    ),
    pytest.param(
        [],
        "one-line.json",
        '[{"id": 1, "data": {"text": "a b"}}]\n',
        ":1: found a JSON list, not CoNLL columns (a Label Studio export: --label-studio)",
        id="one-line-export-as-conll",
    ),
    pytest.param(
        [],
        "gold.tsv",
        "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tMISC\nMr\tB-pers\tO\t_\n",
        ":1: found HIPE's header line, not CoNLL columns (HIPE's TSV: --hipe GOLD SYSTEM)",
        id="hipe-tsv-as-conll",
    ),
    pytest.param(
        ["--spans"],
        "tags.conll",
        "Ada B-PER B-PER\n",
        f":1: not JSON (Expecting value, column 1); {SPANS_EXPECTED} (CoNLL columns: leave out --spans)",
        id="conll-to-spans",
    ),
    pytest.param(
        ["--spans"],
        "export.json",
        '[\n  {"id": 1}\n]\n',
        f":1: not JSON (Expecting value, column 1); {SPANS_EXPECTED} {EXPORT}",
        id="export-to-spans",
    ),
    pytest.param(
        ["--spans"],
        "export.json",
        '[{"id": 1}]\n',
        f":1: found a JSON list; {SPANS_EXPECTED} {EXPORT}",
        id="one-line-export-to-spans",
    ),
]


@pytest.mark.parametrize(("flags", "name", "text", "says"), OTHER_FORMATS)
def test_a_file_of_another_format_names_the_flag_that_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], name: str, text: str, says: str
) -> None:
    path = write(tmp_path / name, text)
    assert main([*flags, str(path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"{path}{says}"), error


# The format each file of OTHER_FORMATS is, as its reader names it (issue 27: the reader says which format it found,
# each front end how it reads it: the command line by its flag, the Space by its task).
FOUND_FORMATS = {
    "export.json": "label-studio",
    "one-line.json": "label-studio",
    "gold.tsv": "hipe",
    "tags.conll": "conll",
}


@pytest.mark.parametrize(("flags", "name", "text", "says"), OTHER_FORMATS)
def test_a_reader_names_the_format_it_found_and_a_front_end_words_how_to_read_it(
    flags: list[str], name: str, text: str, says: str
) -> None:
    read = nerscore.read_span_lines if flags else nerscore.read_conll
    with pytest.raises(nerscore.ConllError) as raised:
        list(read(text.splitlines(), "input"))
    error, other = raised.value, raised.value.other_format
    assert other is not None and other.name == FOUND_FORMATS[name], other
    assert f"({other.found}: {other.command_line()})" in says
    # Another front end's words replace the command line's, and only them: no flag is left.
    worded = error.worded(lambda found: f"read it as {found.name}")
    assert worded == error.problem.replace(other.command_line(), f"read it as {other.name}") and "--" not in worded


def test_a_folder_given_as_a_file_names_brat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: [Errno 21] Is a directory") and error.rstrip().endswith(
        "(a folder: --brat REFERENCE_DIR PREDICTION_DIR reads two folders of BRAT files)"
    ), error
    # A token line that starts like those formats is a token line.
    assert main([str(write(tmp_path / "tokens.conll", "[ B-PER B-PER\nTOKEN O O\n"))]) == 0


def test_the_scheme_hint_speaks_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "iobes.conll", "a S-PER S-PER\n")
    assert main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith("'S' belongs to IOBES or BMES: use --scheme IOBES"), err
    assert "scheme=" not in err


@pytest.mark.slow
def test_a_closed_pipe_ends_quietly() -> None:
    command = f"{sys.executable} {REPO / 'ner_semeval.py'} --per-type {WORKED_EXAMPLE} | head -c 10"
    run = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert run.stdout == "processed "
    assert run.stderr == ""


def closed_pipe_commands(folder: Path) -> dict[str, list[str]]:
    """Each command that prints a report, with files written in `folder`."""
    from test_agreement_files import ENTITIES, span_lines
    from test_hipe_table import GOLD, SYSTEM

    annotators = write(
        folder / "annotators.jsonl",
        span_lines(lambda index: {name: [list(entity) for entity in ENTITIES[name][index]] for name in ENTITIES}),
    )
    gold, system = (
        write(folder / "gold.tsv", "\n".join(GOLD) + "\n"),
        write(folder / "team0_bundle4_en_1.tsv", "\n".join(SYSTEM) + "\n"),
    )
    return {
        "tags": ["--per-type", str(WORKED_EXAMPLE)],
        "conlleval": ["--conlleval", str(WORKED_EXAMPLE)],
        "agreement": ["agreement", str(annotators), "--json"],
        "hipe": ["--hipe", str(gold), str(system)],
        "hipe-table": ["--hipe", str(gold), str(system), "--hipe-table"],
    }


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("tags"),
        *(pytest.param(name, marks=pytest.mark.slow) for name in ("conlleval", "agreement", "hipe", "hipe-table")),
    ],
)
def test_a_report_to_a_pipe_closed_before_it_is_written_ends_quietly(tmp_path: Path, command: str) -> None:
    # The reader went away before a byte was written (`... | head -c 0`, made certain: the pipe's read end is
    # closed before the command starts). `agreement` and `--hipe` printed "Exception ignored ... BrokenPipeError"
    # and exited 120 (or 2, "error: [Errno 32] Broken pipe"), where the tags' report ended quietly.
    import os

    read, written = os.pipe()
    os.close(read)
    try:
        run = subprocess.run(
            [sys.executable, "-m", "nerscore", *closed_pipe_commands(tmp_path)[command]],
            stdout=written,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            cwd=REPO,
        )
    finally:
        os.close(written)
    assert (run.returncode, run.stderr) == (0, "")


def test_sentences_are_scored_a_chunk_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from nerscore.files import file_counts

    path = write(tmp_path / "six.conll", conll(SIX) * 3)
    assert main([str(path), "--json", "--per-type"]) == 0
    whole = capsys.readouterr().out
    monkeypatch.setattr(file_counts, "_CLI_CHUNK_TOKENS", 5)  # a chunk ends after each sentence or two
    assert main([str(path), "--json", "--per-type"]) == 0
    assert capsys.readouterr().out == whole
    # An error in a later chunk still names its own line.
    lines = (conll(SIX) * 3).splitlines()
    bad_line = len(lines) - 1
    lines[bad_line - 1] = lines[bad_line - 1].rsplit(" ", 1)[0] + " S-PER"
    write(path, "\n".join(lines) + "\n")
    assert main([str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"{path}:{bad_line}: predicted (last) column: found tag 'S-PER'")


def test_the_flag_table_of_docs_command_line_is_the_help() -> None:
    page = (REPO / "docs" / "command-line.md").read_text(encoding="utf-8")
    table = page.split("\n## Flags\n", 1)[1].split("\n## ", 1)[0]
    documented = re.findall(r"^\| `(-[-\w]*)", table, flags=re.M)
    actions = cli.build_parser()._actions
    flags = [action.option_strings[-1] for action in actions if action.option_strings and action.dest != "help"]
    assert sorted(documented) == sorted(flags)


@pytest.mark.parametrize(
    ("flags", "table"),
    [
        (["--diagnostics"], "merged                      0"),
        (["--errors", "5"], "count  scenario  reference"),
        (["--slices", "entity_length"], "entity_length       POS     ACT"),
        (["--spans", "--diagnostics"], "merged                      0"),
    ],
    ids=["diagnostics", "errors", "slices", "spans"],
)
def test_an_empty_file_with_findings_flags_prints_nothing_found(tmp_path, capsys, flags, table):
    # It exited 2: "diagnostics needs a tally counted with diagnostics=True".
    empty = tmp_path / ("empty.jsonl" if "--spans" in flags else "empty.conll")
    empty.write_text("", encoding="utf-8")
    arguments = ["--spans", str(empty), *flags[1:]] if "--spans" in flags else [str(empty), *flags]
    assert main(arguments) == 0, capsys.readouterr().err
    printed = capsys.readouterr().out
    assert "correct            0" in printed and table in printed, printed


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--slices", "group"], "error: --slices group needs a group per sentence, which the command line does not"),
        (["--slices", "entity_length,group"], "in Python: compute_semeval(groups=...)"),
        (["--spans", "--slices", "group"], "error: --slices group needs a group per sentence"),
        (["--slices", "seen"], "error: --slices seen needs --seen FILE, the entity texts that count as seen"),
        (["--slices", "entity_length,seen"], "error: --slices seen needs --seen FILE"),
        (["--spans", "--slices", "seen"], "error: --slices seen needs --seen FILE"),
        # Where the option's checks name something else first, their message stands.
        (["--slices", "sentence,seen"], "error: slices must be a list of slice names"),
        (["--slices", "seen", "--partial-credit", "overlap"], 'cannot take partial_credit="overlap"'),
        # Names are read in any case (option_checks.named): so are these checks, which compared the text (clifix).
        (["--slices", "SEEN"], "error: --slices seen needs --seen FILE"),
        (["--slices", "entity_length,Group"], "error: --slices group needs a group per sentence"),
        (["--slices", "seen", "--partial-credit", "OVERLAP"], 'cannot take partial_credit="overlap"'),
    ],
    ids=[
        *("group", "group-among-others", "spans-group", "seen", "seen-among-others", "spans-seen", "bad-name", "pc"),
        *("seen-in-capitals", "group-capitalized", "pc-in-capitals"),
    ],
)
def test_a_slice_without_its_data_names_the_flag_not_the_python_keyword(tmp_path, capsys, flags, message):
    # It said "slices=['group'] needs groups=" and "slices=['seen'] needs seen=", Python keywords (redteam2).
    spans = flags[0] == "--spans"
    file = tmp_path / ("one.jsonl" if spans else "one.conll")
    file.write_text('{"references": [], "predictions": []}\n' if spans else "a B-PER B-PER\n\n", encoding="utf-8")
    arguments = ["--spans", str(file), *flags[1:]] if spans else [str(file), *flags]
    assert main(arguments) == 2
    error = capsys.readouterr().err
    assert message in error and "needs groups=" not in error and "needs seen=" not in error, error


@pytest.mark.parametrize(
    ("slices", "message"),
    [
        (["--slices", "sentence_length"], ":2: found no 'text'; --slices sentence_length counts the characters of"),
        (["--slices", "entity_length,seen", "--seen", "SEEN"], ":2: found no 'text'; --slices seen reads each entity"),
    ],
    ids=["sentence-length", "seen"],
)
def test_a_span_line_without_the_text_a_slice_reads_is_named(tmp_path, capsys, slices, message):
    # It said "pass tokens= (tokens) or texts= (characters)", compute_semeval's keywords, naming no line (redteam2).
    spans = tmp_path / "spans.jsonl"
    spans.write_text(
        '{"text": "a b", "references": [[0, 1, "PER"]], "predictions": []}\n'
        '{"references": [[0, 1, "PER"]], "predictions": []}\n',
        encoding="utf-8",
    )
    seen = tmp_path / "seen.txt"
    seen.write_text("a\n", encoding="utf-8")
    assert main(["--spans", str(spans), *[str(seen) if flag == "SEEN" else flag for flag in slices]]) == 2
    error = capsys.readouterr().err
    assert error.startswith(str(spans)) and message in error and "texts=" not in error, error


@pytest.mark.parametrize(
    ("seen", "counts"),
    [
        pytest.param(b"Jo\n", {"seen": 1, "unseen": 1}, id="plain"),
        # (Red team 2: the mark was read as part of the first text, which then matched no entity, silently.)
        pytest.param(b"\xef\xbb\xbfJo\n", {"seen": 1, "unseen": 1}, id="a-byte-order-mark"),
        pytest.param(b"Jo\r\nAl\r\n", {"seen": 1, "unseen": 1}, id="crlf"),
        pytest.param(b"J\x0co\n", {"unseen": 2}, id="a-form-feed-inside-a-text"),
    ],
)
def test_a_seen_file_is_read_as_the_texts_its_lines_hold(tmp_path, capsys, seen, counts):
    tags = tmp_path / "tags.conll"
    tags.write_text("Jo B-PER B-PER\n\nDo B-PER B-PER\n", encoding="utf-8")
    path = tmp_path / "seen.txt"
    path.write_bytes(seen)
    assert main([str(tags), "--slices", "seen", "--seen", str(path), "--json"]) == 0
    buckets = json.loads(capsys.readouterr().out)["slices"]["seen"]
    assert {bucket: scores["strict_possible"] for bucket, scores in buckets.items()} == counts


def test_a_seen_file_that_is_not_utf8_is_named_with_its_line(tmp_path, capsys):
    # (Red team 2: the decoder's "can't decode byte 0xff in position 5", a byte position alone.)
    tags = tmp_path / "tags.conll"
    tags.write_text("Jo B-PER B-PER\n", encoding="utf-8")
    path = tmp_path / "seen.txt"
    path.write_bytes(b"Jo\nAl\xff\n")
    with pytest.raises(SystemExit):
        main([str(tags), "--slices", "seen", "--seen", str(path)])
    assert f"cannot read {path}: line 2: byte 0xff is not UTF-8" in capsys.readouterr().err


# format_type_table takes a compute_semeval result with per_type=True and its types (its signature): anything else
# was a KeyError ('X_strict_precision', also for a result without per_type), a TypeError or a format error; now a
# ValueError naming the argument, the value and what it expects. (arguments, fragments of the message)
PER_TYPE_RESULT = compute_semeval(predictions=[["B-X", "O"]], references=[["B-X", "O"]], per_type=True)
BAD_TYPE_TABLE_ARGUMENTS = [
    pytest.param(({}, ["X"]), ["results holds no X_strict_precision", "per_type=True"], id="empty-result"),
    pytest.param(
        (compute_semeval(predictions=[["B-X"]], references=[["B-X"]]), ["X"]),
        ["results holds no X_strict_precision", "per_type=True"],
        id="a-result-without-per-type",
    ),
    pytest.param(([], ["X"]), ["results is [] (list)", "the dict compute_semeval returns"], id="a-list"),
    pytest.param((PER_TYPE_RESULT, "X"), ["entity_types is 'X'", "a list of types"], id="one-type-as-a-string"),
    pytest.param((PER_TYPE_RESULT, [1]), ["entity_types[0] is 1"], id="an-int-type"),
    pytest.param((PER_TYPE_RESULT, ["X"], "foo"), ["scheme is 'foo'", "strict, exact, partial, type"], id="a-scheme"),
    pytest.param((PER_TYPE_RESULT, ["X"], "strict", "x"), ["beta must be a finite number"], id="beta-a-string"),
    pytest.param((PER_TYPE_RESULT, ["Y"]), ["results holds no Y_strict_precision"], id="a-type-not-in-the-result"),
    pytest.param((PER_TYPE_RESULT, ["X"], "strict", 2), ["results holds no X_strict_f2"], id="another-beta"),
]


@pytest.mark.parametrize(("arguments", "fragments"), BAD_TYPE_TABLE_ARGUMENTS)
def test_format_type_table_refuses_what_it_does_not_take_with_a_located_message(arguments, fragments) -> None:
    from nerscore import format_type_table

    with pytest.raises(ValueError) as caught:
        format_type_table(*arguments)
    for fragment in fragments:
        assert fragment in str(caught.value), str(caught.value)


def test_format_type_table_of_a_per_type_result() -> None:
    from nerscore import format_type_table

    assert format_type_table(PER_TYPE_RESULT, ["X"]).splitlines()[1].split() == ["X", "1.0000", "1.0000", "1.0000", "1"]


def test_tables_columns_are_as_wide_as_their_widest_cell_two_spaces_apart() -> None:
    from nerscore.files import tables

    matrix = {"LOC": {"LOC": 12, "O": 3}, "O": {"LOC": 1, "O": 0}}
    assert nerscore.format_confusion_table(matrix).splitlines() == [
        "reference \\ predicted    LOC  O",
        "LOC                       12  3",
        "O                          1  0",
    ]
    by_type = {
        f"{entity_type}_strict_{measure}": 0.0
        for entity_type in ("PERSON", "X")
        for measure in ("precision", "recall", "f1")
    }
    by_type |= {"PERSON_strict_possible": 2, "X_strict_possible": 10}
    assert nerscore.format_type_table(by_type, ["PERSON", "X"]).splitlines()[:2] == [
        "strict by type   precision    recall        F1   support",
        "PERSON              0.0000    0.0000    0.0000         2",
    ]
    buckets = {
        "1-10": {"strict_possible": 3, "strict_actual": 4, "strict_f1": 0.5},
        "a-long-bucket": {"strict_possible": 1, "strict_actual": 0, "strict_f1": 0.0},
    }
    assert tables.format_slice_table("sentence_length", buckets).splitlines() == [
        "sentence_length       POS     ACT     strict F1",
        "1-10                    3       4        0.5000",
        "a-long-bucket           1       0        0.0000",
    ]
    diagnostics = dict.fromkeys(tables.DIAGNOSTIC_KEYS, 0) | {"split": 12345}
    lines = tables.format_diagnostics(diagnostics).splitlines()
    assert lines[0] == "boundary diagnostics    count" and lines[-2] == "split                   12345"


# The other formatters of results say what they take too: a list, None or a result of another function or beta
# was a KeyError ('type_f0'), a TypeError ("argument of type 'NoneType' is not iterable") or a format error.
def _formatter(name: str):
    from nerscore.files import tables

    return getattr(tables, name)


BAD_FORMATTER_ARGUMENTS = [
    pytest.param("format_table", (None,), ["results is None (NoneType)", "compute_semeval returns"], id="table-none"),
    pytest.param("format_table", (PER_TYPE_RESULT, 0), ["results holds no 'type_f0'"], id="table-another-beta"),
    pytest.param("format_table", (PER_TYPE_RESULT, "x"), ["beta must be a finite number"], id="table-beta-a-string"),
    pytest.param("summary_rows", ([],), ["results is [] (list)"], id="summary-rows-a-list"),
    pytest.param("format_comparison", (3,), ["results is 3 (int)", "compare_semeval returns"], id="comparison-int"),
    pytest.param("format_comparison", ({"strict_precision_a": 1.0},), ["holds no 'strict_precision_b'"], id="part"),
    pytest.param("format_runs", ({"strict_precision_mean": 1.0},), ["holds no 'strict_precision_std'"], id="runs"),
    pytest.param("format_confusion_table", ("X",), ["matrix is 'X' (str)"], id="confusion-a-string"),
    pytest.param("format_confusion_table", ({"a": 1},), ["matrix['a'] is 1; expected a dict"], id="confusion-flat"),
    pytest.param("format_confusion_table", ({"a": {"b": 1}},), ["matrix holds no 'a'"], id="confusion-not-square"),
]


@pytest.mark.parametrize(("name", "arguments", "fragments"), BAD_FORMATTER_ARGUMENTS)
def test_formatters_refuse_what_they_do_not_take_with_a_located_message(name, arguments, fragments) -> None:
    with pytest.raises(ValueError) as caught:
        _formatter(name)(*arguments)
    for fragment in fragments:
        assert fragment in str(caught.value), str(caught.value)


# main takes argv as sys.argv[1:]: a number was a TypeError ("'int' object is not iterable"), a string read a
# character at a time by argparse; an iterator of strings still works.
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(3, r"^argv is 3; expected a list of strings", id="a-number"),
        pytest.param([3], r"^argv is \[3\]; expected a list of strings", id="a-number-in-a-list"),
        pytest.param("--help", r"^argv is '--help'; expected a list of strings", id="one-string"),
    ],
)
def test_main_names_an_argv_that_is_no_list_of_strings(argv, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        main(argv)


def test_main_takes_an_iterator_of_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(iter(["--version"]))
    assert capsys.readouterr().out.startswith("ner-semeval ")


def test_a_span_past_its_lines_text_is_told_in_the_files_words(tmp_path, capsys):
    # It said "expected character offsets into texts=", compute_semeval's keyword, which a file has not (newcomer3).
    spans = tmp_path / "spans.jsonl"
    spans.write_text('{"text": "Ann", "references": [[0, 9, "PER"]], "predictions": []}\n', encoding="utf-8")
    assert main(["--spans", str(spans)]) == 2
    error = capsys.readouterr().err
    assert f"{spans}:1: references, entity 0: found the span [0, 9) past the end of its text (3 characters)" in error
    assert 'offsets into the line\'s "text"' in error and "texts=" not in error, error


# ---------------------------------------------------------------------------------------------------------
# The command line's --json against compute_semeval for the same options, of every kind of input it reads
# ---------------------------------------------------------------------------------------------------------


def json_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


SPANS_EXAMPLE = REPO / "examples" / "spans_example.jsonl"
STRINGS_EXAMPLE = REPO / "examples" / "worked_example_strings.jsonl"
# What the command line reads: the worked example's tags, the spans example with and without its texts (a span file
# with texts gives `ungrounded` 0, as compute_semeval with texts: docs/scoring.md §1b), the strings example.
FRONT_INPUTS = ["tags", "spans-with-text", "spans-without-text", "strings"]
# (flags, compute_semeval's keywords): each scoring flag, with the values the others do not take.
FRONT_FLAGS = {
    "none": ([], {}),
    "per-type": (["--per-type"], {"per_type": True}),
    "evaluation-schemes": (["--evaluation-schemes", "strict,partial"], {"evaluation_schemes": ["strict", "partial"]}),
    "beta": (["--beta", "2"], {"beta": 2.0}),
    "zero-division": (["--zero-division", "1"], {"zero_division": 1.0}),
    "labels": (["--labels", "PER,LOC"], {"labels": ["PER", "LOC"]}),
    "min-overlap": (["--min-overlap", "0.5"], {"min_overlap": 0.5}),
    "pairing": (["--pairing", "hipe"], {"pairing": "hipe"}),
    "confusion": (["--confusion"], {"confusion": True}),
    "diagnostics": (["--diagnostics"], {"diagnostics": True}),
    "errors": (["--errors", "3"], {"errors": 3}),
    "partial-credit": (["--partial-credit", "overlap"], {"partial_credit": "overlap"}),
    "value": (["--value", "true"], {"value": True}),
    "slices": (["--slices", "entity_length"], {"slices": ["entity_length"]}),
    "bootstrap": (
        ["--bootstrap", "20", "--seed", "3", "--confidence-level", "0.9"],
        {"bootstrap": 20, "seed": 3, "confidence_level": 0.9},
    ),
    "normalize": (["--normalize"], {"normalize": True}),
    "scheme": (["--scheme", "IOB1"], {"scheme": "IOB1"}),
    "mode": (["--mode", "strict"], {"mode": "strict"}),
}


def front_input(kind: str, folder: Path) -> tuple[list[str], dict]:
    """The command line's arguments that read `kind`, and compute_semeval's keywords of the same input."""
    if kind == "tags":
        sentences = worked_example_sentences()
        tokens = {"tokens": [sentence.tokens for sentence in sentences]}  # (what --errors and --slices read)
        return [str(WORKED_EXAMPLE)], {**as_inputs(worked_example()), **tokens}
    lines = json_lines(STRINGS_EXAMPLE if kind == "strings" else SPANS_EXAMPLE)
    path = STRINGS_EXAMPLE if kind == "strings" else SPANS_EXAMPLE
    if kind == "spans-without-text":
        lines = [{key: value for key, value in line.items() if key != "text"} for line in lines]
        path = write(folder / "spans.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
    inputs = {side: [line[side] for line in lines] for side in ("predictions", "references")}
    texts = {"texts": [line["text"] for line in lines]} if all("text" in line for line in lines) else {}
    return ["--spans", str(path)], {**inputs, **texts}


@pytest.mark.parametrize("flags", FRONT_FLAGS)
@pytest.mark.parametrize("kind", FRONT_INPUTS)
def test_json_is_compute_semevals_dict_for_every_input_and_flag(
    kind: str, flags: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments, inputs = front_input(kind, tmp_path)
    given, options = FRONT_FLAGS[flags]
    if kind == "tags" and flags not in ("errors", "slices"):
        inputs.pop("tokens")
    try:
        expected: dict | None = json.loads(json.dumps(compute_semeval(**inputs, **options)))
    except ValueError:
        expected = None  # (an option this input refuses: the command line refuses it too)
    status = main([*arguments, "--json", *given])
    printed = capsys.readouterr()
    if expected is None:
        assert status == 2 and "Traceback" not in printed.err, printed.err
        return
    assert status == 0, printed.err
    result = json.loads(printed.out)
    assert list(result) == list(expected)  # the same keys in the same order
    assert result == expected


# docs/scoring.md §7: token_accuracy is zero_division where no token is counted (every id ignore_index), and no key
# at all with texts (sentences of no token beside texts read as string entities, §1b), in every front end.
IGNORED = [[-100, -100], [-100]]
IGNORED_LABELS = ["O", "B-PER", "I-PER"]


@pytest.mark.parametrize(
    ("texts", "zero_division", "expected"),
    [
        pytest.param(None, 0.0, 0.0, id="no-texts"),
        pytest.param(None, 1.0, 1.0, id="no-texts-zero-division-1"),
        pytest.param(["Al Bo", "Cy"], 0.0, None, id="texts"),
        pytest.param(["Al Bo", "Cy"], 1.0, None, id="texts-zero-division-1"),
    ],
)
def test_token_accuracy_of_ids_all_ignored_is_the_documents_in_every_front_end(
    texts: list[str] | None, zero_division: float, expected: float | None
) -> None:
    given = {} if texts is None else {"texts": texts}
    options = {"label_list": IGNORED_LABELS, "zero_division": zero_division}
    whole = compute_semeval(predictions=IGNORED, references=IGNORED, **given, **options)
    total = nerscore.Accumulator.of(**options)
    for index, sentence in enumerate(IGNORED):  # a batch a sentence
        texts_of_batch = {} if texts is None else {"texts": texts[index : index + 1]}
        total = total.update(predictions=[sentence], references=[sentence], **texts_of_batch)
    for result in (whole, total.result()):
        assert result.get("token_accuracy") == expected
        assert ("token_accuracy" in result) == (expected is not None)
        assert ("ungrounded" in result) == (texts is not None)


@pytest.mark.parametrize(
    ("name", "text", "key"),
    [
        pytest.param("empty.conll", "", 0.0, id="tags-of-no-token"),  # (no texts: zero_division)
        pytest.param("empty.jsonl", '{"text": "", "references": [], "predictions": []}\n', None, id="spans-text"),
    ],
)
def test_the_command_lines_token_accuracy_of_no_token_is_the_documents(
    name: str, text: str, key: float | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / name, text)
    assert main([*(["--spans"] if name.endswith("jsonl") else []), str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result.get("token_accuracy") == key and ("token_accuracy" in result) == (key is not None)


@pytest.mark.parametrize(
    ("path", "first_line"),
    [
        pytest.param(SPANS_EXAMPLE, "(spans)", id="spans-with-text"),  # (`ungrounded` 0 in --json: still spans)
        pytest.param(STRINGS_EXAMPLE, "(strings, 0 ungrounded)", id="strings"),
    ],
)
def test_the_first_line_says_strings_only_of_strings(path: Path, first_line: str, capsys) -> None:
    assert main(["--spans", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(first_line)


@pytest.mark.parametrize("chunk", [1, 1 << 15])
@pytest.mark.parametrize(
    ("texts", "key"),
    [
        pytest.param(["Ann", "Bo"], True, id="every-line-with-text"),
        pytest.param(["Ann", None], False, id="a-line-without"),  # (not compute_semeval's texts=: no key)
        pytest.param([None, "Bo"], False, id="the-first-line-without"),
        pytest.param([], True, id="no-line"),  # (as compute_semeval(texts=[]); it had no key, clifix)
    ],
)
def test_ungrounded_is_there_when_every_span_line_has_text_however_the_file_is_chunked(
    texts: list[str | None], key: bool, chunk: int, tmp_path: Path, monkeypatch, capsys
) -> None:
    from nerscore.files import file_counts

    monkeypatch.setattr(file_counts, "_CLI_CHUNK_ENTITIES", chunk)
    lines = [{"references": [[0, 2, "PER"]], "predictions": [[0, 2, "PER"]]} for _ in texts]
    for line, text in zip(lines, texts):
        if text is not None:
            line["text"] = text
    path = write(tmp_path / "spans.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
    assert main(["--spans", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert ("ungrounded" in result) == key and result.get("ungrounded", 0) == 0


# --compare A - and --runs A B - opened a file named "-" ("No such file or directory: '-'") where FILE and --spans
# read standard input; now - is standard input there too, read once, so at most one file can be - (clifix).
@pytest.mark.parametrize(
    "flags",
    [
        pytest.param(["--compare", "SIX", "-", "--bootstrap", "50"], id="compare"),
        pytest.param(["--runs", "SIX", "-", "SIX"], id="runs"),
        pytest.param(["--runs", "SIX", "--runs-b", "-", "--bootstrap", "50"], id="runs-b"),
    ],
)
def test_a_dash_among_the_systems_files_is_standard_input(files, monkeypatch, capsys, flags: list[str]) -> None:
    by_name = [str(files["six"]) if flag in ("SIX", "-") else flag for flag in flags]
    assert main([*by_name, "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    monkeypatch.setattr(sys, "stdin", io.StringIO(conll(SIX)))
    assert main([str(files["six"]) if flag == "SIX" else flag for flag in flags] + ["--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected


def test_a_systems_standard_input_is_named_as_the_single_files_is(files, monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(conll(FIVE)))
    assert main(["--compare", str(files["six"]), "-"]) == 2
    assert capsys.readouterr().err.startswith("<stdin>:")


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        pytest.param(["--compare", "-", "-"], "--compare names - (standard input) 2", id="compare"),
        pytest.param(["--runs", "-", "SIX", "-"], "--runs names - (standard input) 2", id="runs"),
        pytest.param(["--runs", "-", "--runs-b", "-"], "--runs and --runs-b name - (standard input) 2", id="runs-b"),
    ],
)
def test_two_dashes_among_the_systems_files_are_refused(files, monkeypatch, capsys, flags, named) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(conll(SIX)))
    with pytest.raises(SystemExit) as stopped:
        main([str(files["six"]) if flag == "SIX" else flag for flag in flags])
    assert stopped.value.code == 2
    assert f"{named} times; standard input is one stream, read once" in capsys.readouterr().err


# --tagset and --relaxed opened a file named "-"; standard input is not read there: refused in words, never "No
# such file or directory: '-'" (polish). --hipe, --seen and --value read it now (tests/test_leftovers.py).
@pytest.mark.parametrize(
    ("flags", "says"),
    [
        pytest.param(["--hipe", "G", "S", "--tagset", "-"], "read files by name, not - (standard input)", id="tagset"),
        pytest.param(["--hipe", "G", "S", "--nel", "--relaxed", "-"], "read files by name, not -", id="relaxed"),
    ],
)
def test_a_dash_where_standard_input_is_not_read_is_refused(files, capsys, flags: list[str], says: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([str(files["six"]) if flag == "SIX" else flag for flag in flags])
    assert stopped.value.code == 2
    assert says in capsys.readouterr().err


def test_n_best_refuses_a_cut_off_given_twice(tmp_path: Path, capsys) -> None:
    # --n-best 1,1 printed each row of @1 twice, as the HIPE scorer writes them once per cut-off given: refused,
    # since a repeated row is never asked for and dropping it would part from the scorer silently (clifix).
    gold, system = tmp_path / "gold.tsv", tmp_path / "team0_bundle5_en_1.tsv"
    assert main(["--hipe", str(gold), str(system), "--nel", "--hipe-table", "--n-best", "3,1,3,1"]) == 2
    assert "--n-best gives the cut-offs 3 and 1 more than once ('3,1,3,1')" in capsys.readouterr().err


def test_one_run_is_one_run_in_words(files, capsys) -> None:
    # "1 runs: ..." and "compared 1 runs of A and 1 runs of B" (clifix); 2 and more as they were (test_runs).
    assert main(["--runs", str(files["six"])]) == 0
    assert capsys.readouterr().out.startswith("1 run: 6 sentences, ")
    assert main(["--runs", str(files["six"]), "--runs-b", str(files["six"]), "--bootstrap", "20"]) == 0
    assert capsys.readouterr().out.startswith("compared 1 run of A and 1 run of B: 6 sentences, ")


VALUE_FLAG = "--value takes a preset (ace08), true or a JSON file of weights: "


@pytest.mark.parametrize(
    ("content", "message"),
    [
        # It refused a file saved with a byte-order mark: "Unexpected UTF-8 BOM (decode using utf-8-sig)".
        pytest.param(b'\xef\xbb\xbf{"types": {"SINGER": 0.5}}', None, id="a-byte-order-mark"),
        # It said "'utf-8' codec can't decode byte 0xe9 in position 24", naming neither the file nor a line.
        pytest.param(
            b'{\n "types": {"SINGER": 0.5,\n "P\xe9R": 1}}', "cannot read {path}: line 3: byte 0xe9", id="latin-1"
        ),
        # It named the line and column but not the file.
        pytest.param(
            b'{\n "types": {"SINGER": 0.5},\n}', "{path}: line 3 column 1: Expecting property name", id="json"
        ),
    ],
)
def test_a_value_file_is_read_as_utf8_and_its_errors_name_the_file(files, tmp_path, capsys, content, message) -> None:
    path = tmp_path / "weights.json"
    path.write_bytes(content)
    if message is None:
        assert main([str(files["six"]), "--value", str(path), "--json"]) == 0
        expected = compute_semeval(**as_inputs(worked_example()), value={"types": {SINGER: 0.5}})
        assert json.loads(capsys.readouterr().out) == expected
        return
    with pytest.raises(SystemExit) as stopped:
        main([str(files["six"]), "--value", str(path)])
    assert stopped.value.code == 2
    assert VALUE_FLAG + message.format(path=path) in capsys.readouterr().err
