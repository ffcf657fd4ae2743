"""`token_accuracy` (docs/scoring.md §7): the share of tokens, after `ignore_index`, whose two tags are equal
strings, as seqeval's `accuracy_score`, the evaluate seqeval metric's `overall_accuracy` and conlleval's accuracy
line give it; for tag and id input, not for spans; the array path and the readable path count it alike."""

from __future__ import annotations

import json
from unittest import mock

import numpy as np
import pytest
import seqeval.metrics
import strategies
from conftest import WORKED_EXAMPLE, aligned
from hypothesis import given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore import cli
from nerscore.forms import inputs, tag_arrays

TAGS = st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-LOC", "S-PER"])


@st.composite
def tag_batches(draw: st.DrawFn) -> tuple[list[list[str]], list[list[str]]]:
    references = draw(st.lists(st.lists(TAGS, min_size=1, max_size=10), min_size=1, max_size=6))
    predictions = [draw(st.lists(TAGS, min_size=len(r), max_size=len(r))) for r in references]
    return predictions, references


def evaluate_seqeval_overall_accuracy(predictions: list[list[str]], references: list[list[str]]) -> float:
    """The evaluate seqeval metric's `overall_accuracy`: its `_compute` returns
    ``accuracy_score(y_true=references, y_pred=predictions)`` (metrics/seqeval/seqeval.py in huggingface/evaluate;
    the script is fetched from the Hub, which these tests run without)."""
    return seqeval.metrics.accuracy_score(y_true=references, y_pred=predictions)


@settings(max_examples=100, deadline=None)
@given(batch=tag_batches(), mode=st.sampled_from(ns.MODES))
def test_token_accuracy_equals_seqeval(batch: tuple[list[list[str]], list[list[str]]], mode: str) -> None:
    predictions, references = batch
    result = ns.compute_semeval(predictions=predictions, references=references, scheme="IOBES", mode=mode)
    assert result["token_accuracy"] == pytest.approx(seqeval.metrics.accuracy_score(references, predictions))
    assert result["token_accuracy"] == pytest.approx(evaluate_seqeval_overall_accuracy(predictions, references))


@settings(max_examples=100, deadline=None)
@given(batch=tag_batches(), data=st.data())
def test_ids_after_ignore_index_equal_seqeval_on_the_kept_tags(batch, data: st.DataObject) -> None:
    predictions, references = batch
    label_list = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-LOC", "S-PER"]
    ids = {tag: number for number, tag in enumerate(label_list)}
    # Some reference positions are padding (-100), as a token-classification model's labels are.
    ignored = [[data.draw(st.booleans()) for _ in sentence] for sentence in references]
    id_references = [
        [-100 if skip else ids[tag] for tag, skip in zip(sentence, skips)]
        for sentence, skips in zip(references, ignored)
    ]
    id_predictions = [[ids[tag] for tag in sentence] for sentence in predictions]
    kept_references = [[t for t, skip in zip(s, k) if not skip] for s, k in zip(references, ignored)]
    kept_predictions = [[t for t, skip in zip(s, k) if not skip] for s, k in zip(predictions, ignored)]
    result = ns.compute_semeval(
        predictions=id_predictions, references=id_references, label_list=label_list, scheme="IOBES"
    )
    if not any(kept_references):  # every position padding: seqeval divides by zero, we give zero_division
        assert result["token_accuracy"] == 0.0
        return
    expected = seqeval.metrics.accuracy_score(kept_references, kept_predictions)
    assert result["token_accuracy"] == pytest.approx(expected)


def readable_tokens(predictions, references, **options) -> ns.Tally:
    return ns.tally_semeval(predictions, references, ns.Options.of(**options))[0].tokens


def array_tokens(predictions, references, **options):
    predictions, references = aligned(predictions, references)
    holds_ids = bool(inputs.holds_ids(predictions, references))
    counted = tag_arrays.count_tags(predictions, references, holds_ids, ns.Options.of(**options), keep_sentences=False)
    assert counted is not None
    return counted.tally.tokens


@settings(max_examples=60, deadline=None)
@given(data=st.data(), scheme=st.sampled_from(strategies.SCHEMES), chunk=st.sampled_from([1, 5, 1 << 16]))
def test_the_array_path_counts_tokens_as_the_readable_path(data: st.DataObject, scheme: str, chunk: int) -> None:
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=6))
    with mock.patch.object(tag_arrays, "_CHUNK_TOKENS", chunk):
        assert array_tokens(predictions, references, scheme=scheme) == readable_tokens(
            predictions, references, scheme=scheme
        )
        id_predictions, id_references, label_list = strategies.as_ids(data.draw, predictions, references)
        options = {"scheme": scheme, "label_list": label_list}
        expected = readable_tokens(id_predictions, id_references, **options)
        assert array_tokens(id_predictions, id_references, **options) == expected


CASES = [
    pytest.param([["B-PER", "I-PER", "O"]], [["B-PER", "O", "O"]], {}, 2 / 3, id="two-of-three"),
    pytest.param([["O"] * 4], [["O"] * 4], {}, 1.0, id="all-O-is-every-token-right"),
    pytest.param([[]], [[]], {}, 0.0, id="no-token-is-zero-division"),
    pytest.param([], [], {"zero_division": 1.0}, 1.0, id="no-sentence-zero-division-1"),
    # The types labels keeps do not change which tokens are compared: accuracy is over every token.
    pytest.param([["B-PER", "B-LOC"]], [["B-PER", "O"]], {"labels": ["PER"]}, 0.5, id="labels-keep-every-token"),
    pytest.param([[1, 0, 3]], [[1, 2, 0]], {"label_list": ["O", "B-PER", "I-PER", "O"]}, 2 / 3, id="ids-of-one-tag"),
    pytest.param([[1, 0, 0]], [[1, 2, -100]], {"label_list": ["O", "B-PER", "I-PER"]}, 0.5, id="ignore-index"),
    pytest.param(
        np.array([[1, 0, 0], [1, 1, 1]]),
        np.array([[1, 2, -100], [1, -100, -100]]),
        {"label_list": ["O", "B-PER", "I-PER"]},
        2 / 3,
        id="padded-arrays",
    ),
]


@pytest.mark.parametrize(("predictions", "references", "options", "expected"), CASES)
def test_token_accuracy(predictions, references, options: dict, expected: float) -> None:
    for entities in (False, True):  # the array path, and the readable path that gives the rows
        result = ns.compute_semeval(predictions=predictions, references=references, return_entities=entities, **options)
        assert result["token_accuracy"] == expected
        assert type(result["token_accuracy"]) is float


def test_spans_have_no_token_accuracy() -> None:
    result = ns.compute_semeval(predictions=[[(0, 2, "PER")]], references=[[(0, 2, "PER")]])
    assert "token_accuracy" not in result


def test_the_command_lines_json_has_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--json", str(WORKED_EXAMPLE)]) == 0
    result = json.loads(capsys.readouterr().out)
    sentences = list(ns.read_conll(WORKED_EXAMPLE.read_text(encoding="utf-8").splitlines()))
    predictions = [sentence.predictions for sentence in sentences]
    references = [sentence.references for sentence in sentences]
    assert result["token_accuracy"] == seqeval.metrics.accuracy_score(references, predictions)
