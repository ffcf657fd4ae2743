"""Confidence intervals and the paired test (issue 11, docs/scoring.md §9) as users reach them, through evaluate and
the command line, and the samples of sentences the statistics' tests share. Each statistics module's own tests are
in the file named after it: test_unit_counts, test_sample_statistics, test_resampling, test_paired_comparison."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import nerscore as ns
from nerscore.files import file_counts

# ---------------------------------------------------------------------------------------------------------
# Samples of sentences, for batches whose intervals have some width
# ---------------------------------------------------------------------------------------------------------

# Sentences of every scenario, for batches whose intervals have some width.
SENTENCES = [
    (["B-PER", "I-PER", "O"], ["B-PER", "I-PER", "O"]),  # I
    (["B-PER", "O", "B-LOC"], ["B-PER", "O", "O"]),  # I, III
    (["O", "B-LOC", "I-LOC"], ["B-LOC", "I-LOC", "O"]),  # V
    (["B-ORG", "O"], ["B-PER", "O"]),  # IV
    (["O", "O"], ["B-PER", "O"]),  # II
    (["B-PER", "I-PER", "I-PER"], ["B-LOC", "I-LOC", "O"]),  # VI
    (["O", "O", "O"], ["O", "O", "O"]),  # nothing
    (["B-PER", "O", "B-ORG"], ["B-PER", "O", "B-ORG"]),  # I, I
]
WEIGHTS = np.array([30, 10, 5, 5, 5, 3, 30, 12])


def sample_batch(rng: np.random.Generator, sentences: int) -> dict[str, list]:
    """`sentences` sentences drawn from SENTENCES with probabilities WEIGHTS, as compute's arguments."""
    drawn = rng.choice(len(SENTENCES), size=sentences, p=WEIGHTS / WEIGHTS.sum())
    return {"references": [SENTENCES[i][0] for i in drawn], "predictions": [SENTENCES[i][1] for i in drawn]}


# ---------------------------------------------------------------------------------------------------------
# Two systems, for compare_semeval's paired test
# ---------------------------------------------------------------------------------------------------------

# For each kind of reference sentence, how often it occurs and what a system predicts for it, with weights:
# two systems that draw from these alike are equally good, whatever the sample says.
SYSTEM = [
    (
        ["B-PER", "I-PER", "O"],
        35,
        [(["B-PER", "I-PER", "O"], 6), (["B-PER", "O", "O"], 2), (["B-LOC", "I-LOC", "O"], 1), (["O", "O", "O"], 1)],
    ),
    (
        ["O", "B-LOC", "O", "B-ORG"],
        25,
        [
            (["O", "B-LOC", "O", "B-ORG"], 10),
            (["O", "B-LOC", "O", "O"], 4),
            (["B-PER", "B-LOC", "O", "B-ORG"], 3),
            (["O", "O", "O", "B-LOC"], 3),
        ],
    ),
    (["O", "O", "O"], 30, [(["O", "O", "O"], 8), (["B-PER", "O", "O"], 2)]),
    (["B-MISC"], 10, [(["B-MISC"], 5), (["O"], 3), (["B-PER"], 2)]),
]


def two_systems(rng: np.random.Generator, sentences: int) -> dict[str, list]:
    """References drawn from SYSTEM, and two systems' predictions drawn independently from SYSTEM's outputs."""
    weights = np.array([weight for _, weight, _ in SYSTEM], dtype=float)
    batch: dict[str, list] = {"references": [], "predictions_a": [], "predictions_b": []}
    for kind in rng.choice(len(SYSTEM), size=sentences, p=weights / weights.sum()):
        reference, _, outputs = SYSTEM[kind]
        output_weights = np.array([weight for _, weight in outputs], dtype=float)
        batch["references"].append(reference)
        for side in ("predictions_a", "predictions_b"):
            batch[side].append(outputs[rng.choice(len(outputs), p=output_weights / output_weights.sum())][0])
    return batch


# ---------------------------------------------------------------------------------------------------------
# Strict F1 written out, and the options read at load
# ---------------------------------------------------------------------------------------------------------


def strict_f1_of_totals(totals: np.ndarray) -> np.ndarray:
    """Strict F1 of scenario totals (..., 6), written out: COR = I, POS and ACT as docs/scoring.md §4 counts them."""
    correct = totals[..., 0]
    actual = totals[..., [0, 1, 3, 4, 5]].sum(axis=-1)
    possible = totals[..., [0, 2, 3, 4, 5]].sum(axis=-1)
    return 2 * correct / (actual + possible)


def test_the_metric_takes_the_statistics_options_at_load_and_in_compute(load_metric) -> None:
    # evaluate's own `seed` argument seeds numpy's global generator around compute; here it is the metric's
    # option, and the intervals never touch the global generator.
    batch = sample_batch(np.random.default_rng(8), 100)
    expected = ns.compute_semeval(**batch, bootstrap=300, seed=4)
    metric = load_metric(bootstrap=300, seed=4)
    assert metric.compute(**batch) == expected
    assert metric.compute(**batch, seed=5) == ns.compute_semeval(**batch, bootstrap=300, seed=5)
    metric.add_batch(**batch)
    assert metric.compute() == expected  # through evaluate's cache: the same sentences, the same numbers
    assert "strict_f1_low" not in load_metric().compute(**batch)


# ---------------------------------------------------------------------------------------------------------
# The command line: --bootstrap N and --compare A B
# ---------------------------------------------------------------------------------------------------------


def write_conll(path, references: list[list[str]], predictions: list[list[str]]) -> str:
    """token reference prediction, a blank line between sentences; tokens are w0, w1 ... per sentence."""
    blocks = [
        "".join(f"w{index} {r} {p}\n" for index, (r, p) in enumerate(zip(reference, prediction)))
        for reference, prediction in zip(references, predictions)
    ]
    path.write_text("\n".join(blocks), encoding="utf-8")
    return str(path)


@pytest.fixture
def system_files(tmp_path) -> tuple[dict[str, list], str, str]:
    batch = two_systems(np.random.default_rng(9), 120)
    file_a = write_conll(tmp_path / "a.conll", batch["references"], batch["predictions_a"])
    file_b = write_conll(tmp_path / "b.conll", batch["references"], batch["predictions_b"])
    return batch, file_a, file_b


def test_cli_bootstrap_adds_interval_columns(system_files, capsys: pytest.CaptureFixture[str]) -> None:
    batch, file_a, _ = system_files
    assert ns.main([file_a, "--bootstrap", "300", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "95% intervals: BCa bootstrap of the 120 sentences, 300 resamples, seed 2"
    table = lines[lines.index("") + 1 :]
    assert table[0].split() == [
        "measure",
        "type",
        "interval",
        "partial",
        "interval",
        "exact",
        "interval",
        "strict",
        "interval",
    ]
    expected = ns.compute_semeval(
        predictions=batch["predictions_a"], references=batch["references"], bootstrap=300, seed=2
    )
    rows = {line.split()[0]: line.split()[1:] for line in table[1:9]}
    assert rows["correct"] == [str(expected[f"{scheme}_correct"]) for scheme in ns.SUMMARY_COLUMNS]
    for measure, label in (("precision", "precision"), ("recall", "recall"), ("f1", "F1")):
        for column, scheme in enumerate(ns.SUMMARY_COLUMNS):
            key = f"{scheme}_{measure}"
            assert rows[label][2 * column + 1] == f"{expected[f'{key}_low']:.4f}-{expected[f'{key}_high']:.4f}"


def test_cli_bootstrap_json_is_compute_semeval_in_any_chunk_size(
    system_files, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    batch, file_a, _ = system_files
    expected = ns.compute_semeval(
        predictions=batch["predictions_a"], references=batch["references"], bootstrap=400, confidence_level=0.9
    )
    arguments = [file_a, "--json", "--bootstrap", "400", "--confidence-level", "0.9"]
    assert ns.main(arguments) == 0
    assert json.loads(capsys.readouterr().out) == expected
    monkeypatch.setattr(file_counts, "_CLI_CHUNK_TOKENS", 5)  # a chunk every sentence or two
    assert ns.main(arguments) == 0
    assert json.loads(capsys.readouterr().out) == expected


def test_cli_compare_is_compare_semeval(system_files, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    batch, file_a, file_b = system_files
    expected = ns.compare_semeval(**batch, n_resamples=500, seed=3)
    assert ns.main(["--compare", file_a, file_b, "--bootstrap", "500", "--seed", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    monkeypatch.setattr(file_counts, "_CLI_CHUNK_TOKENS", 5)
    assert ns.main(["--compare", file_a, file_b, "--bootstrap", "500", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    score_a = ns.compute_semeval(predictions=batch["predictions_a"], references=batch["references"])
    tokens = sum(map(len, batch["references"]))
    assert lines[0] == (
        f"compared {file_a} (A) and {file_b} (B): 120 sentences, {tokens} tokens, "
        f"{score_a['strict_possible']} reference entities (IOB2, lenient)"
    )
    assert lines[1] == (
        "B - A: 95% paired bootstrap interval (BCa) and two-sided approximate randomization p-value, "
        "500 resamples, seed 3"
    )
    assert lines[3].split() == ["scheme", "measure", "A", "B", "B-A", "low", "high", "p-value"]
    rows = [line.split() for line in lines[4:]]
    assert [row[:2] for row in rows] == [[s, m] for s in ns.EVALUATION_SCHEMES for m in ("precision", "recall", "F1")]
    strict_f1 = rows[2]
    key = "strict_f1"
    assert strict_f1[2:] == [
        f"{expected[f'{key}_a']:.4f}",
        f"{expected[f'{key}_b']:.4f}",
        f"{expected[f'{key}_delta']:+.4f}",
        f"{expected[f'{key}_delta_low']:+.4f}",
        f"{expected[f'{key}_delta_high']:+.4f}",
        f"{expected[f'{key}_p_value']:.4f}",
    ]


@pytest.mark.parametrize(
    "edit, where, message",
    [
        ("token", ("b", 7), r"found token 'x' with reference '[^']+' where {a}:7 has token 'w\d' with reference"),
        ("reference", ("b", 7), r"found token 'w\d' with reference 'B-ZZZ' where {a}:7 has token 'w\d'"),
        ("extra sentence", ("b", None), r"this sentence has no counterpart: {a} ends before it"),
        ("blank line", ("b", None), r"found the end of the sentence where {a}:\d+ has token .w\d. with reference"),
    ],
)
def test_cli_compare_needs_the_same_tokens_and_references(
    system_files, edit: str, where: tuple, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _, file_a, file_b = system_files
    lines = Path(file_b).read_text(encoding="utf-8").splitlines()
    if edit == "token":
        lines[6] = "x " + lines[6].split(" ", 1)[1]
    elif edit == "reference":
        token, _, predicted = lines[6].split()
        lines[6] = f"{token} B-ZZZ {predicted}"
    elif edit == "extra sentence":
        lines += ["", "w0 O O"]
    else:  # a sentence of A split in two in B
        first = next(index for index in range(1, len(lines)) if lines[index] and lines[index - 1] and lines[index + 1])
        lines.insert(first + 1, "")
    Path(file_b).write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert ns.main(["--compare", file_a, file_b]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{file_b}:"), err
    if where[1] is not None:
        assert err.startswith(f"{file_b}:{where[1]}: "), err
    assert re.search(message.format(a=re.escape(file_a)), err), err
    assert err.rstrip().endswith("--compare needs the same tokens and reference column in both files")


def test_cli_compare_names_a_bad_tag_by_file_and_line(system_files, capsys: pytest.CaptureFixture[str]) -> None:
    _, file_a, file_b = system_files
    lines = Path(file_b).read_text(encoding="utf-8").splitlines()
    bad = next(index for index in range(3, len(lines)) if lines[index])
    lines[bad] = lines[bad].rsplit(" ", 1)[0] + " S-PER"
    Path(file_b).write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert ns.main(["--compare", file_a, file_b]) == 2
    assert capsys.readouterr().err.startswith(f"{file_b}:{bad + 1}: predicted (last) column: found tag 'S-PER'")


def test_cli_statistics_options_are_checked(system_files, capsys: pytest.CaptureFixture[str]) -> None:
    _, file_a, file_b = system_files
    assert ns.main([file_a, "--bootstrap", "-1"]) == 2
    assert "bootstrap must be a whole number of resamples from 0" in capsys.readouterr().err
    assert ns.main([file_a, "--bootstrap", "10", "--confidence-level", "1.5"]) == 2
    assert "confidence_level must be a number between 0 and 1" in capsys.readouterr().err
    assert ns.main(["--compare", file_a, file_b, "--bootstrap", "0"]) == 2
    assert "--bootstrap must be a whole number of resamples from 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_status:
        ns.main(["--compare", file_a, file_b, file_a])
    assert exit_status.value.code == 2
    assert "--compare reads its own two files" in capsys.readouterr().err
