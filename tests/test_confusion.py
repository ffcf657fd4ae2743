"""The entity-type confusion matrix (docs/scoring.md §7): its invariants on random data in every scheme and mode,
the worked example's matrix, `labels`, ids, batches added to the metric, and the command line's table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import strategies
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore import compute_semeval, main

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORKED_EXAMPLE = REPO / "examples" / "worked_example.conll"
SONG, SINGER = "MUSIC_NAME", "SINGER"


def read(path: Path) -> tuple[list[list[str]], list[list[str]]]:
    with open(path, encoding="utf-8") as handle:
        sentences = list(ns.read_conll(handle, path.name))
    return [s.predictions for s in sentences], [s.references for s in sentences]


def test_the_worked_example_matrix() -> None:
    predictions, references = read(WORKED_EXAMPLE)
    result = compute_semeval(predictions=predictions, references=references, confusion=True)
    assert result["confusion"] == {
        SONG: {SONG: 2, SINGER: 2, "O": 1},
        SINGER: {SONG: 0, SINGER: 0, "O": 0},
        "O": {SONG: 1, SINGER: 0, "O": 0},
    }
    assert list(result["confusion"]) == [SONG, SINGER, "O"]  # types sorted, O last
    assert "confusion" not in compute_semeval(predictions=predictions, references=references)


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@SETTINGS
@given(data=st.data())
def test_sums_diagonal_and_total_hold_by_construction(scheme: str, data: st.DataObject) -> None:
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=6))
    mode = data.draw(st.sampled_from(ns.MODES))
    labels = data.draw(st.none() | st.lists(st.sampled_from([*strategies.TYPES, "ABSENT"]), min_size=1, unique=True))
    options = {"scheme": scheme, "mode": mode, "labels": labels}
    result = compute_semeval(
        predictions=predictions, references=references, per_type=True, confusion=True, return_entities=True, **options
    )
    matrix = result["confusion"]
    types = (
        sorted(labels)
        if labels is not None
        else sorted(key.removesuffix("_strict_possible") for key in result if key.endswith("_strict_possible"))
    )
    assert list(matrix) == [*types, "O"]
    assert all(list(row) == [*types, "O"] for row in matrix.values())  # a full square, zeros included
    rows = result["entities"]
    for entity_type in types:
        assert sum(matrix[entity_type].values()) == result[f"{entity_type}_strict_possible"]
        assert sum(row[entity_type] for row in matrix.values()) == result[f"{entity_type}_strict_actual"]
        same_type_pairs = sum(
            1
            for row in rows
            if row["reference"]
            and row["prediction"]
            and row["reference"]["type"] == row["prediction"]["type"] == entity_type
        )
        assert matrix[entity_type][entity_type] == same_type_pairs
    assert sum(matrix[entity_type][entity_type] for entity_type in types) == result["type_correct"]
    assert sum(sum(row.values()) for row in matrix.values()) == len(rows)
    assert matrix["O"]["O"] == 0
    # The array path (no entity rows) gives the same matrix.
    without_rows = compute_semeval(predictions=predictions, references=references, confusion=True, **options)
    assert without_rows["confusion"] == matrix


def test_labels_keep_only_their_types() -> None:
    predictions = [["B-PER", "O", "B-ORG", "B-LOC"]]
    references = [["B-LOC", "O", "B-ORG", "O"]]
    matrix = compute_semeval(predictions=predictions, references=references, confusion=True, labels=["LOC", "PER"])[
        "confusion"
    ]
    # PER predicted for a LOC pairs (IV); the unpaired LOC prediction is spurious; ORG is not there at all.
    assert matrix == {
        "LOC": {"LOC": 0, "PER": 1, "O": 0},
        "PER": {"LOC": 0, "PER": 0, "O": 0},
        "O": {"LOC": 1, "PER": 0, "O": 0},
    }


def test_ids_and_added_batches_give_the_same_matrix(load_metric) -> None:
    label_list = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    predictions = [[1, 2, 0, 3], [0, 3, 4, -100]]
    references = [[1, 2, 0, 1], [0, 1, 2, -100]]
    expected = compute_semeval(predictions=predictions, references=references, label_list=label_list, confusion=True)
    assert expected["confusion"] == {
        "LOC": {"LOC": 0, "PER": 0, "O": 0},
        "PER": {"LOC": 2, "PER": 1, "O": 0},
        "O": {"LOC": 0, "PER": 0, "O": 0},
    }
    metric = load_metric(label_list=label_list)
    metric.add_batch(predictions=predictions[:1], references=references[:1])
    metric.add_batch(predictions=predictions[1:], references=references[1:])
    assert metric.compute(confusion=True) == expected


def test_the_command_line_prints_the_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(WORKED_EXAMPLE), "--confusion"]) == 0
    printed = capsys.readouterr().out
    assert printed.endswith(
        "\n\nreference \\ predicted    MUSIC_NAME  SINGER  O\n"
        "MUSIC_NAME                        2       2  1\n"
        "SINGER                            0       0  0\n"
        "O                                 1       0  0\n"
    )
    assert main([str(WORKED_EXAMPLE), "--confusion", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["confusion"]["O"][SONG] == 1
    assert main([str(WORKED_EXAMPLE), "--json"]) == 0
    assert "confusion" not in json.loads(capsys.readouterr().out)


# ---------------------------------------------------------------------------------------------------------
# Issue 16, item 11: a type named "O" would share the matrix's "O" for no entity, so confusion refuses it
# ---------------------------------------------------------------------------------------------------------

OUTSIDE_TYPE_CASES = [
    pytest.param(
        [["O", "B-O"]], [["B-O", "O"]], {}, r"references, sentence 0, token 0: found entity type 'O'", id="tag"
    ),
    pytest.param(
        [["PER-B"], ["O", "O-B"]],
        [["PER-B"], ["O", "O"]],
        {"suffix": True},
        r"predictions, sentence 1, token 1",
        id="suffix",
    ),
    pytest.param([[1, 0]], [[0, 1]], {"label_list": ["O", "B-O"]}, r"predictions, sentence 0, token 0", id="ids"),
    pytest.param(
        [[(0, 1, "O")]],
        [[(0, 1, "PER"), (2, 3, "O")]],
        {},
        r"predictions, sentence 0, entity 0: found entity type 'O'",
        id="span",
    ),
    # With return_entities the batch's table of pairs is at hand: the entity is found in its rows, not counted again.
    pytest.param(
        [[(0, 1, "O")]],
        [[(0, 1, "PER"), (2, 3, "O")]],
        {"return_entities": True},
        r"predictions, sentence 0, entity 0: found entity type 'O'",
        id="span-with-entities",
    ),
    pytest.param(
        [["O", "B-O"]],
        [["B-O", "O"]],
        {"return_entities": True},
        r"references, sentence 0, token 0: found entity type 'O'",
        id="tag-with-entities",
    ),
    pytest.param(
        [[("O", "Ada")]],
        [[("PER", "Ada")]],
        {"texts": ["Ada met Bob"]},
        r"predictions, sentence 0, entity 0: found entity type 'O'",
        id="string",
    ),
    pytest.param(
        [["B-PER"]], [["B-PER"]], {"labels": ["PER", "O"]}, r"labels holds 'O', which the confusion matrix", id="label"
    ),
]


@pytest.mark.parametrize(("predictions", "references", "options", "message"), OUTSIDE_TYPE_CASES)
@pytest.mark.parametrize("confusion", [True, "sparse"])
def test_a_type_named_o_is_refused_with_confusion_where_it_is(
    predictions, references, options, message, confusion
) -> None:
    with pytest.raises(ValueError, match=message + r".*cannot tell from its 'O' for no entity.*rename the type"):
        compute_semeval(predictions=predictions, references=references, confusion=confusion, **options)
    # Without the matrix nothing collides: the type scores as any other.
    result = compute_semeval(predictions=predictions, references=references, per_type=True, **options)
    assert "O_strict_possible" in result


def test_the_command_line_refuses_a_type_named_o_with_confusion(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "outside-type.conll"
    path.write_text("Ada B-O B-O\nLovelace O O\n", encoding="utf-8")
    assert main([str(path), "--confusion"]) == 2
    error = capsys.readouterr().err  # found as the file is counted: named at its line (tests/test_redteam15.py)
    assert error.startswith(f"{path}:1: reference (second last) column: found entity type 'O', which the confusion ")
    assert main([str(path)]) == 0


# ---------------------------------------------------------------------------------------------------------
# Issue 16, item 6: confusion="sparse", the non-zero cells of the same matrix at any number of types
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", ["IOB2", "IOBES"])
@SETTINGS
@given(data=st.data())
def test_the_sparse_matrix_is_the_full_one_without_its_zeros(scheme: str, data: st.DataObject) -> None:
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=6))
    labels = data.draw(st.none() | st.lists(st.sampled_from([*strategies.TYPES, "ABSENT"]), min_size=1, unique=True))
    options = {"scheme": scheme, "labels": labels, "per_type": True}
    full = compute_semeval(predictions=predictions, references=references, confusion=True, **options)
    sparse = compute_semeval(predictions=predictions, references=references, confusion="sparse", **options)
    assert {key: value for key, value in sparse.items() if key != "confusion"} == {
        key: value for key, value in full.items() if key != "confusion"
    }
    without_zeros = {
        reference: {predicted: number for predicted, number in row.items() if number}
        for reference, row in full["confusion"].items()
    }
    without_zeros = {reference: row for reference, row in without_zeros.items() if row}
    matrix = sparse["confusion"]
    assert matrix == without_zeros
    assert list(matrix) == list(without_zeros) and all(list(matrix[r]) == list(without_zeros[r]) for r in matrix)
    # The invariants, read with zeros for the cells left out.
    types = [name for name in full["confusion"] if name != "O"]
    for entity_type in types:
        assert sum(matrix.get(entity_type, {}).values()) == sparse[f"{entity_type}_strict_possible"]
        assert sum(row.get(entity_type, 0) for row in matrix.values()) == sparse[f"{entity_type}_strict_actual"]
        assert matrix.get(entity_type, {}).get(entity_type, 0) == full["confusion"][entity_type][entity_type]
    assert "O" not in matrix.get("O", {})
    assert sum(sum(row.values()) for row in matrix.values()) == sparse["strict_possible"] + sparse["strict_spurious"]


def test_the_confusion_option_takes_true_false_or_sparse() -> None:
    for value in ("spares", "full", 1, None):  # ("Sparse" is read as "sparse": names in any case, test_option_checks)
        with pytest.raises(ValueError, match=r"confusion must be True, False or 'sparse'"):
            compute_semeval(predictions=[["B-PER"]], references=[["B-PER"]], confusion=value)
