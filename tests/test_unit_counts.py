"""nerscore.statistics.unit_counts: the per-sentence counts the statistics resample, the same on both paths in one
pass, and `SentenceCounts`, which add up whatever the order and chunks."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
import strategies
from conftest import aligned
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore.forms import inputs, readable, tag_arrays
from nerscore.table import reducers
from nerscore.table.pairs import Pairs

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def readable_by_sentence(predictions, references, options: ns.Options) -> np.ndarray:
    predictions, references = aligned(predictions, references)
    holds_ids = bool(inputs.holds_ids(predictions, references))
    _, rows = readable.pair_tags(predictions, references, holds_ids, options)
    return reducers.scenario_counts(Pairs.of_rows(rows, sentences=len(references)))


def array_by_sentence(predictions, references, options: ns.Options) -> np.ndarray:
    predictions, references = aligned(predictions, references)
    holds_ids = bool(inputs.holds_ids(predictions, references))
    counted = tag_arrays.count_tags(predictions, references, holds_ids, options, keep_sentences=True)
    assert counted is not None, "valid input must not fall back to the readable path"
    return counted.per_sentence


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@SETTINGS
@given(data=st.data())
def test_both_paths_give_the_same_per_sentence_counts(scheme: str, data: st.DataObject) -> None:
    suffix = data.draw(st.booleans())
    predictions, references = data.draw(strategies.soup_batches(scheme, suffix=suffix, max_sentences=8))
    labels = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(strategies.TYPES), min_size=1, max_size=2)))
    options = ns.Options.of(scheme=scheme, mode=data.draw(st.sampled_from(ns.MODES)), suffix=suffix, labels=labels)
    chunk_tokens = data.draw(st.sampled_from([1, 5, tag_arrays._CHUNK_TOKENS]))  # sentences are counted in chunks
    with mock.patch.object(tag_arrays, "_CHUNK_TOKENS", chunk_tokens):
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


def test_sentence_counts_add_up_whatever_the_order_and_chunks() -> None:
    rng = np.random.default_rng(3)
    rows = rng.poisson(0.7, size=(500, 6))
    whole = ns.SentenceCounts.of(rows)
    assert whole.size == 500 and whole.sentences.sum() == 500
    np.testing.assert_array_equal(whole.totals(), rows.sum(axis=0))
    assert len(np.unique(whole.vectors, axis=0)) == len(whole.vectors)
    parts = ns.SentenceCounts.of(rows[::-1][:123]) + ns.SentenceCounts.of(rows[::-1][123:])
    np.testing.assert_array_equal(parts.vectors, whole.vectors)
    np.testing.assert_array_equal(parts.sentences, whole.sentences)
    # Counts too large for one integer key per row take np.unique's row sort, in the same order.
    huge = rows * (1 << 20)
    np.testing.assert_array_equal(ns.SentenceCounts.of(huge).vectors, whole.vectors * (1 << 20))
    np.testing.assert_array_equal(ns.SentenceCounts.of(huge).sentences, whole.sentences)
    empty = ns.SentenceCounts.of(np.zeros((0, 6), dtype=np.int64))
    assert empty.size == 0 and (empty + whole).size == 500


# The distinct rows of the per-sentence counts, by one integer key a row where the keys fit in int64: named
# matrices at the edges of that test, and wide ones (slices' buckets: 12 columns each), whose places were found
# by a product of every later column per column (quadratic: 12,000 columns took 9.8 s, now 0.15 s).
def _wide(columns: int) -> np.ndarray:
    return np.random.default_rng(columns).integers(0, 3, size=(40, columns))


DISTINCT_ROWS = {
    "one column": np.array([[3], [1], [3], [0]]),
    "keys just within int64": np.array([[2**31 - 2, 2**31 - 2], [0, 1], [2**31 - 2, 2**31 - 2]]),
    "keys past int64": np.array([[2**31, 2**31], [0, 1], [2**31, 2**31]]),
    "1,200 columns": _wide(1_200),
    "12,000 columns": _wide(12_000),
    "zero rows": np.zeros((0, 5), dtype=np.int64),
}


@pytest.mark.parametrize("rows", DISTINCT_ROWS.values(), ids=DISTINCT_ROWS.keys())
def test_distinct_rows_are_numpys_unique_rows(rows: np.ndarray) -> None:
    from nerscore.statistics.unit_counts import _distinct_rows

    weights = np.arange(1, len(rows) + 1, dtype=np.int64)
    distinct, summed = _distinct_rows(rows, weights)
    expected, inverse = np.unique(rows, axis=0, return_inverse=True)
    assert np.array_equal(distinct, expected)
    assert summed.tolist() == np.bincount(inverse.reshape(-1), weights=weights, minlength=len(expected)).tolist()


@pytest.mark.parametrize("rows", DISTINCT_ROWS.values(), ids=DISTINCT_ROWS.keys())
def test_sparse_rows_are_the_dense_rows_in_the_same_order(rows: np.ndarray) -> None:
    # With slices, the vectors are held sparse: the same distinct rows, in the same order, so the same draws.
    from scipy import sparse

    weights = np.arange(1, len(rows) + 1, dtype=np.int64)
    dense = ns.SentenceCounts(*_distinct(rows, weights))
    held = ns.SentenceCounts(*_distinct(sparse.csr_array(rows), weights))
    assert np.array_equal(held.vectors.toarray(), dense.vectors) and held.sentences.tolist() == dense.sentences.tolist()


def _distinct(rows, weights):
    from nerscore.statistics.unit_counts import _distinct_rows

    return _distinct_rows(rows, weights)


@SETTINGS
@given(
    st.lists(st.lists(st.sampled_from([0, 0, 0, 1, 2, -1, 0.5, -2.5]), min_size=4, max_size=4), max_size=30),
    st.booleans(),
)
def test_sparse_rows_sort_as_numpys_unique_rows(rows: list, floats: bool) -> None:
    # An entry keys by its column and its sign (a row's first entry beyond another's ends it larger only if positive).
    from scipy import sparse

    matrix = np.array(rows, dtype=np.float64 if floats else np.int64).reshape(-1, 4)
    if not floats:
        matrix = np.abs(matrix)
    weights = np.ones(len(matrix), dtype=np.int64)
    distinct, summed = _distinct(sparse.csr_array(matrix), weights)
    expected, counts = np.unique(matrix, axis=0, return_counts=True)
    assert np.array_equal(distinct.toarray(), expected) and summed.tolist() == counts.tolist()


@SETTINGS
@given(
    st.lists(st.lists(st.integers(0, 3), min_size=3, max_size=3), max_size=40),
    st.sampled_from(["radix", "reversed", "hashed", "collided", "none"]),
)
def test_distinct_rows_follow_their_keys_order(rows, keying):
    from nerscore.statistics.unit_counts import distinct_rows, radix_keys

    rows = np.array(rows, dtype=np.int64).reshape(-1, 3)
    weights = np.arange(1, len(rows) + 1)
    keys = {
        "radix": radix_keys(rows),
        "reversed": radix_keys(rows[:, ::-1]),  # the rows sorted from their last column
        "hashed": rows @ np.array([1_000_003, 1_009, 1], dtype=np.int64),
        "collided": rows.sum(axis=1),  # (1, 0, 2) and (2, 1, 0) share a key: sorted as rows instead
        "none": None,
    }[keying]
    distinct, summed, inverse = distinct_rows(rows, keys, weights, hashed=keying in ("hashed", "collided"))
    assert np.array_equal(distinct[inverse], rows) and len({tuple(row) for row in distinct.tolist()}) == len(distinct)
    assert summed.tolist() == np.bincount(inverse, weights=weights, minlength=len(distinct)).tolist()
    if keys is None or len(set(keys.tolist())) < len(distinct):  # no keys, or two rows of one key
        assert [tuple(row) for row in distinct.tolist()] == sorted({tuple(row) for row in rows.tolist()})
    else:
        first = [int(np.flatnonzero(inverse == index)[0]) for index in range(len(distinct))]
        assert keys[first].tolist() == sorted(set(keys.tolist()))  # in the order of their keys


def test_count_runs_merge_n_batches_in_n_log_n_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    # An Accumulator of n batches: merged at every batch, the distinct vectors of a growing corpus were sorted
    # again each time (n**2 / 2 rows; 400 batches of 20 sentences with slices and bootstrap took 5.6 s, x3.4 a
    # doubling). As a binary counter, each row is merged about log2(n) times, and the result is one pass's.
    from nerscore.statistics import unit_counts

    merged = []
    distinct = unit_counts._distinct_rows

    def counted(rows, weights):
        merged.append(rows.shape[0])
        return distinct(rows, weights)

    batches = [np.arange(6 * 4 * k, 6 * 4 * (k + 1)).reshape(4, 6) for k in range(256)]  # 4 new vectors a batch
    expected = ns.SentenceCounts.of(np.vstack(batches))
    monkeypatch.setattr(unit_counts, "_distinct_rows", counted)
    runs = unit_counts.CountRuns()
    for batch in batches:
        runs = runs + unit_counts.CountRuns((ns.SentenceCounts.of(batch),))
    found = runs.counts()
    assert np.array_equal(found.vectors, expected.vectors) and found.sentences.tolist() == expected.sentences.tolist()
    rows = 4 * len(batches)
    assert sum(merged) <= 2 * rows * 10  # log2(1,024) = 10; merged at every batch: 131,584 rows
