"""An eighth hostile sweep, of what merged on its day: each case failed on the code before its fix."""

from __future__ import annotations

import io
import sys
import types

import pytest

from nerscore import Accumulator, compute_semeval
from nerscore.cli import main

_TAGS = b"Ada B-PER B-PER\nsaid O O\n"


def _report(argv: list[str], capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, tmp_path) -> tuple:
    """The command line's status and printed text reading `_TAGS` from a file."""
    path = tmp_path / "tags.txt"
    path.write_bytes(_TAGS)
    status = main([*argv, str(path)])
    return status, capsys.readouterr().out


# The prompt on a terminal's standard input (newcomer4) asked standard input for `closed` and `isatty()`: a
# standard input replaced by an embedder with an object that has only the bytes' `buffer` (which the command line
# read before) failed with AttributeError; both the summary and --conlleval read it as they read a file.
@pytest.mark.parametrize("argv", [pytest.param([], id="summary"), pytest.param(["--conlleval"], id="conlleval")])
def test_a_standard_input_with_only_its_buffer_is_read_as_a_file(
    argv: list[str], capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    expected = _report(argv, capsys, monkeypatch, tmp_path)
    monkeypatch.setattr(sys, "stdin", types.SimpleNamespace(buffer=io.BytesIO(_TAGS)))
    assert (main(argv), capsys.readouterr().out) == expected


# Without standard input (sys.stdin is None: pythonw, a service) and without FILE, the command line opened a file
# named "-" in the working directory and scored it as if it were standard input (or said "No such file: '-'");
# --conlleval failed with a TypeError. It says there is no standard input, status 2.
@pytest.mark.parametrize("argv", [pytest.param([], id="summary"), pytest.param(["--conlleval"], id="conlleval")])
def test_no_standard_input_is_said_not_a_file_named_dash(
    argv: list[str], capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    (tmp_path / "-").write_bytes(_TAGS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", None)
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no standard input" in captured.err


# add_batch checked each sentence's reference strings under either reading (normalize or not) on its own, so
# sentences that only one reading each grounds (one only with normalize, another only without: a string empty once
# normalised) were stored, and then every compute failed, whatever normalize. The readings every stored sentence
# grounds under are kept (stored_batches._refuse_ungroundable): the batch that leaves none is refused when added,
# as compute under the reading left names it, and what was stored before it still computes.
STORED_UNDER_NO_ONE_READING = [
    pytest.param(
        [([[("PER", "ada")]], [[("PER", "ada")]], ["ADA"])],  # grounds with normalize only
        ([[("PER", " ")]], [[("PER", " ")]], ["a b"]),  # without normalize only
        r"^references, sentence 1, entity 0: found ' ', empty once normalised",
        id="two-batches",
    ),
    pytest.param(
        [],
        ([[("PER", " ")]], [[("PER", "ada")]], ["ADA"]),
        r"^references, sentence 0, entity 0: the text 'ada' does not occur",
        id="prediction-empty-once-normalised",
    ),
]


@pytest.mark.parametrize(("stored", "refused", "message"), STORED_UNDER_NO_ONE_READING)
def test_string_batches_no_one_reading_grounds_are_refused_when_added(
    stored: list, refused: tuple, message: str, metric
) -> None:
    for predictions, references, texts in stored:
        metric.add_batch(predictions=predictions, references=references, texts=texts)
    predictions, references, texts = refused
    with pytest.raises(ValueError, match=message):
        metric.add_batch(predictions=predictions, references=references, texts=texts)
    if stored:  # what was added before it is kept, and computes under the reading it grounds in
        assert metric.compute(normalize=True)["strict_f1"] == 1.0


# result(types=...) under labels (labels branch): compute_semeval writes every label's per-type keys, a label of no
# entity's too, in labels' order; types of such a label was refused ("no entity was counted ... compute_semeval
# reports no keys of another"), and the types' keys came sorted, not in compute_semeval's order.
_BOTH_TYPES = [[{"start": 0, "end": 1, "type": "PER"}], [{"start": 0, "end": 2, "type": "LOC"}]]
TYPES_UNDER_LABELS = [
    pytest.param(["PER", "MISC"], ["MISC"], id="a-label-of-no-entity"),
    pytest.param(["PER", "LOC"], ["LOC", "PER"], id="labels-unsorted"),
    pytest.param(["PER", "MISC", "LOC"], ["LOC", "MISC", "PER"], id="both"),
]


@pytest.mark.parametrize(("labels", "types"), TYPES_UNDER_LABELS)
def test_a_result_of_types_under_labels_is_compute_semevals(labels: list, types: list) -> None:
    predictions, references = _BOTH_TYPES, [[{"start": 0, "end": 1, "type": "PER"}], []]
    expected = compute_semeval(predictions=predictions, references=references, per_type=True, labels=labels)
    counted = Accumulator.of(per_type=True, labels=labels).update(predictions=predictions, references=references)
    others = tuple(f"{name}_" for name in labels if name not in types)
    kept = {key: value for key, value in expected.items() if "_macro_" not in key and not key.startswith(others)}
    assert list(counted.result(types=types).items()) == list(kept.items())  # in compute_semeval's order


def test_a_result_of_a_type_labels_leave_out_is_refused() -> None:
    counted = Accumulator.of(per_type=True, labels=["PER"]).update(predictions=_BOTH_TYPES, references=_BOTH_TYPES)
    with pytest.raises(ValueError, match=r"^types holds 'LOC', of which no entity was counted"):
        counted.result(types=["LOC"])
