"""Confidence intervals and the paired test (issue 11, docs/scoring.md §9): the per-sentence counts they
resample, their agreement with scipy, and statistical properties that fail when the statistics are wrong."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
import strategies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ner_semeval as ns

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------------------------
# The per-sentence counts: both paths, one pass
# ---------------------------------------------------------------------------------------------------------


def readable_by_sentence(predictions, references, options: ns.Options) -> np.ndarray:
    predictions, references = ns._aligned(predictions, references)
    holds_ids = bool(ns._holds_ids(predictions, references))
    _, rows = ns._readable_tally(predictions, references, holds_ids, options)
    return ns._scenarios_by_sentence(rows, len(references))


def array_by_sentence(predictions, references, options: ns.Options) -> np.ndarray:
    predictions, references = ns._aligned(predictions, references)
    holds_ids = bool(ns._holds_ids(predictions, references))
    counted = ns._fast_count(predictions, references, holds_ids, options, by_sentence=True)
    assert counted is not None, "valid input must not fall back to the readable path"
    return counted.by_sentence


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@SETTINGS
@given(data=st.data())
def test_both_paths_give_the_same_per_sentence_counts(scheme: str, data: st.DataObject) -> None:
    suffix = data.draw(st.booleans())
    predictions, references = data.draw(strategies.soup_batches(scheme, suffix=suffix, max_sentences=8))
    labels = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(strategies.TYPES), min_size=1, max_size=2)))
    options = ns.Options.of(scheme=scheme, mode=data.draw(st.sampled_from(ns.MODES)), suffix=suffix, labels=labels)
    chunk_tokens = data.draw(st.sampled_from([1, 5, ns._CHUNK_TOKENS]))  # sentences are counted in chunks
    with mock.patch.object(ns, "_CHUNK_TOKENS", chunk_tokens):
        by_sentence = array_by_sentence(predictions, references, options)
    assert by_sentence.shape == (len(references), len(ns.SCENARIOS))
    np.testing.assert_array_equal(by_sentence, readable_by_sentence(predictions, references, options))
    # Summed over sentences they are the tally's scenario totals.
    tally = ns.tally_semeval(predictions, references, options)[0]
    totals = [sum(n for (scenario, _, _), n in tally.cells.items() if scenario == name) for name in ns.SCENARIOS]
    assert by_sentence.sum(axis=0).tolist() == totals


@SETTINGS
@given(data=st.data())
def test_per_sentence_counts_of_integer_ids_with_dropped_positions(data: st.DataObject) -> None:
    # ignore_index positions move the sentence offsets: rows must still land in their own sentence.
    predictions, references = data.draw(strategies.soup_batches("IOB2", max_sentences=8))
    id_predictions, id_references, label_list = strategies.as_ids(data.draw, predictions, references)
    options = ns.Options.of(label_list=label_list)
    expected = readable_by_sentence(id_predictions, id_references, options)
    np.testing.assert_array_equal(array_by_sentence(id_predictions, id_references, options), expected)


def test_empty_sentences_keep_their_place() -> None:
    references = [[], ["B-PER", "I-PER"], [], [], ["O", "B-LOC"], []]
    predictions = [[], ["B-PER", "O"], [], [], ["O", "B-LOC"], []]
    expected = np.zeros((6, 6), dtype=np.int64)
    expected[1, ns.SCENARIOS.index("V")] = 1
    expected[4, ns.SCENARIOS.index("I")] = 1
    options = ns.Options()
    np.testing.assert_array_equal(array_by_sentence(predictions, references, options), expected)
    np.testing.assert_array_equal(readable_by_sentence(predictions, references, options), expected)
