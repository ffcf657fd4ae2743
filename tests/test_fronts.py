"""Escapes between the front ends (a red team's findings): each a named case that failed before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from nerscore import Accumulator, Options, compute_semeval, main, read_brat


def _compute(predictions: list, references: list, texts: list[str], options: dict) -> dict[str, Any]:
    return compute_semeval(predictions=predictions, references=references, texts=texts, **options)


def _update(predictions: list, references: list, texts: list[str], options: dict) -> dict[str, Any]:
    return Accumulator.of(**options).update(predictions=predictions, references=references, texts=texts).result()


def _ground(predictions: list, references: list, texts: list[str], options: dict) -> dict[str, Any]:
    accumulator = Accumulator.of(**options)
    grounded = accumulator.ground(predictions=predictions, references=references, texts=texts)
    return accumulator.update_grounded(grounded).result()


FRONTS = [
    pytest.param(_compute, id="compute_semeval"),
    pytest.param(_update, id="update"),
    pytest.param(_ground, id="ground-then-update_grounded"),
]

# A batch of strings with texts has no `token_accuracy` (of tags only, docs/scoring.md §7) and `ungrounded` (§1b)
# in every front end; a batch whose sentences are all empty, beside texts, read as tags of no token in
# compute_semeval and update (`token_accuracy` 0.0) and as strings in ground: it now reads as strings do.
_STRINGS = ([[("PER", "Ann")]], [[("PER", "Ann")]], ["Ann"])
EMPTY_BESIDE_TEXTS = [
    pytest.param(([[]], [[]], [""]), {}, id="one-empty-text"),
    pytest.param(([[], []], [[], []], ["x y", ""]), {}, id="texts-without-entities"),
    pytest.param(([], [], []), {}, id="no-sentence"),
    pytest.param(([[]], [[]], ["x"]), {"slices": ["sentence_length"], "per_type": True}, id="with-slices"),
    pytest.param(([[]], [[]], ["x"]), {"bootstrap": 10}, id="with-intervals"),
]


@pytest.mark.parametrize("front", FRONTS)
@pytest.mark.parametrize(("batch", "options"), EMPTY_BESIDE_TEXTS)
def test_empty_sentences_beside_texts_give_the_keys_strings_give(front: Any, batch: tuple, options: dict) -> None:
    assert "token_accuracy" not in front(*_STRINGS, options)
    assert front(*_STRINGS, options)["ungrounded"] == 0
    result = front(*batch, options)
    assert "token_accuracy" not in result
    assert result["ungrounded"] == 0
    assert result == _ground(*batch, options)


def test_the_command_line_gives_empty_lines_with_text_no_token_accuracy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text('{"references": [], "predictions": [], "text": "x y"}\n', encoding="utf-8")
    assert main(["--spans", str(path), "--json"]) == 0
    assert "token_accuracy" not in json.loads(capsys.readouterr().out)


def test_an_empty_batch_beside_texts_adds_no_token_counts_to_tags_beside_texts() -> None:
    tags = [["B-PER", "O"]]
    expected = compute_semeval(predictions=tags, references=tags, texts=["Ann x"])
    accumulator = Accumulator.of().update(predictions=[[]], references=[[]], texts=[""])
    assert accumulator.update(predictions=tags, references=tags, texts=["Ann x"]).result() == expected


# `ground` takes texts alone: the group slice's message said "needs groups=", which ground cannot be given; it says
# what to do instead (update counts strings and takes groups=).
GROUND_WITHOUT_GROUPS = [
    pytest.param({"slices": ["group"]}, id="group"),
    pytest.param({"slices": ["entity_length", "group"], "per_type": True}, id="group-among-others"),
]


@pytest.mark.parametrize("options", GROUND_WITHOUT_GROUPS)
def test_ground_with_the_group_slice_says_to_count_with_update(options: dict) -> None:
    accumulator = Accumulator.of(**options)
    with pytest.raises(ValueError, match=r"^slices=\['group'\] needs groups="):  # (moved from test_redteam7.py)
        accumulator.update(predictions=_STRINGS[0], references=_STRINGS[1], texts=_STRINGS[2])
    with pytest.raises(ValueError, match=r"^Accumulator\.ground takes no groups=.*; count the batch with update\("):
        accumulator.ground(predictions=_STRINGS[0], references=_STRINGS[1], texts=_STRINGS[2])
    counted = accumulator.update(predictions=_STRINGS[0], references=_STRINGS[1], texts=_STRINGS[2], groups=["a"])
    assert counted.result()["strict_correct"] == 1


def _in_reverse(value: Any) -> Any:
    return {key: _in_reverse(item) for key, item in reversed(value.items())} if isinstance(value, dict) else value


# Options is public and frozen, yet hashing one raised TypeError: it holds dicts (label_list, slice_edges, a
# Scheme's roles, value's weights). Equal options hash equal, and what users read back is as it was.
HASHED_OPTIONS = [
    pytest.param({}, id="defaults"),
    pytest.param({"slice_edges": {"entity_length": [1, 2], "sentence_length": [5, 9]}}, id="slice_edges"),
    pytest.param({"label_list": ["O", "B-PER", "I-PER"]}, id="label_list"),
    pytest.param({"labels": ["PER"], "seen": ["Ann"], "scheme": "IOBES"}, id="labels-seen-scheme"),
    pytest.param({"value": {"types": {"PER": 2.0, "LOC": 0.5}, "false_alarm": 0.5}}, id="value-weights"),
]


@pytest.mark.parametrize("given", HASHED_OPTIONS)
def test_options_hash_and_equal_options_hash_equal(given: dict) -> None:
    options, again = Options.of(**given), Options.of(**_in_reverse(given))  # dicts equal in another order
    assert options == again
    assert hash(options) == hash(again)
    assert {options: 1}[again] == 1
    assert options != Options.of(**given, beta=2.0)


# `labels` as a dict was read by its keys, silently (a mapping of type to weight or to anything else is no list of
# types: scikit-learn's checks refuse what is not list-like). Refused as the option's other bad values are.
LABELS_NOT_A_LIST = [
    pytest.param({"PER": 1, "LOC": 2}, id="dict"),
    pytest.param({}, id="empty-dict"),
    pytest.param({"PER": "person"}.keys().mapping, id="mapping-proxy"),
]


@pytest.mark.parametrize("labels", LABELS_NOT_A_LIST)
def test_labels_as_a_mapping_are_refused(labels: Any) -> None:
    with pytest.raises(ValueError, match=r"^labels must be a list of entity types .*, found a mapping"):
        Options.of(labels=labels)
    with pytest.raises(ValueError, match=r"^labels must be a list of entity types"):
        compute_semeval(predictions=[["B-PER"]], references=[["B-PER"]], labels=labels)
    assert Options.of(labels=list({"PER": 1})).labels == ("PER",)  # its keys, given as a list


# A BRAT .ann file that gives one T id twice was read silently, both entities kept (a file two tools' outputs were
# pasted together into, or a hand edit): refused, located at the second line, as the other malformed lines are.
DUPLICATE_T_IDS = [
    pytest.param("T1\tPER 0 3\tAda\nT1\tPER 0 3\tAda\n", 2, id="the-same-entity-twice"),
    pytest.param("T1\tPER 0 3\tAda\nT2\tLOC 4 7\tBob\nT1\tLOC 4 7\tBob\n", 3, id="after-others"),
    pytest.param("T1\tPER 0 3\tAda\nT1\tLOC 0 3;4 7\tAda Bob\n", 2, id="a-discontinuous-one"),
]


@pytest.mark.parametrize(("annotations", "line"), DUPLICATE_T_IDS)
def test_a_brat_file_with_a_duplicate_t_id_is_refused_at_its_line(tmp_path: Path, annotations: str, line: int) -> None:
    (tmp_path / "doc.txt").write_text("Ada Bob", encoding="utf-8")
    (tmp_path / "doc.ann").write_text(annotations, encoding="utf-8")
    expected = f"{tmp_path / 'doc.ann'}:{line}: T1 is the id of line 1 too; expected each T id once in a file"
    with pytest.raises(ValueError, match=f"^{re.escape(expected)}$"):
        list(read_brat(tmp_path))
    (tmp_path / "doc.ann").write_text("T1\tPER 0 3\tAda\nT2\tPER 0 3\tAda\n", encoding="utf-8")  # two ids: read
    assert len(next(iter(read_brat(tmp_path))).spans) == 2
