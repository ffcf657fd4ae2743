"""Confidence intervals and the paired test (issue 11, docs/scoring.md §9): the per-sentence counts they
resample, their agreement with scipy, and statistical properties that fail when the statistics are wrong."""

from __future__ import annotations

import json
import re
from itertools import chain
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
import strategies
from conftest import aligned
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore.files import file_counts
from nerscore.forms import inputs, readable, tag_arrays
from nerscore.statistics import resampling, sample_statistics
from nerscore.table import reducers
from nerscore.table.pairs import Pairs

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------------------------
# The per-sentence counts: both paths, one pass
# ---------------------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------------------
# The vectorised scores and the distinct vectors
# ---------------------------------------------------------------------------------------------------------


@SETTINGS
@given(
    totals=st.lists(st.integers(0, 6), min_size=6, max_size=6),
    beta=st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.7]),
    zero_division=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_vectorised_measures_are_the_scores(totals: list[int], beta: float, zero_division: float) -> None:
    # The resamples are scored by `_measures`; it must follow `scores`' rules (zero_division, F = 0 where
    # beta²P + R = 0), P and R to the last bit (one correctly rounded division each), F within rounding.
    options = ns.Options.of(beta=beta, zero_division=zero_division)
    tally = ns.Tally({(scenario, None, None): n for scenario, n in zip(ns.SCENARIOS, totals) if n})
    expected = ns.scores(tally, options)
    measures = sample_statistics._measures(np.array(totals), options).reshape(-1)
    for key, value in zip(sample_statistics._measure_keys(options), measures.tolist()):
        if key.endswith(("_precision", "_recall")):
            assert value == expected[key], key
        else:
            assert value == pytest.approx(expected[key], rel=1e-12, abs=1e-15), key


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


# ---------------------------------------------------------------------------------------------------------
# compute(bootstrap=N): the interval keys
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


def interval_keys(options: ns.Options) -> list[str]:
    return [f"{key}_{end}" for key in sample_statistics._measure_keys(options) for end in ("low", "high")]


def test_bootstrap_adds_the_interval_keys_and_nothing_else_changes() -> None:
    batch = sample_batch(np.random.default_rng(0), 200)
    plain = ns.compute_semeval(**batch)
    with_intervals = ns.compute_semeval(**batch, bootstrap=200)
    added = {key: value for key, value in with_intervals.items() if key not in plain}
    assert {key: with_intervals[key] for key in plain} == plain
    assert sorted(added) == sorted(interval_keys(ns.Options()))
    assert "strict_f1_low" in added and "strict_precision_high" in added and "type_recall_low" in added
    assert all(isinstance(value, float) for value in added.values())
    beta = ns.compute_semeval(**batch, bootstrap=50, beta=0.5)
    assert "strict_f0.5_low" in beta and "strict_f0.5_high" in beta and "strict_f1_low" not in beta


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others() -> None:
    batch = sample_batch(np.random.default_rng(1), 300)
    first = ns.compute_semeval(**batch, bootstrap=500, seed=7)
    assert ns.compute_semeval(**batch, bootstrap=500, seed=7) == first
    assert ns.compute_semeval(**batch, bootstrap=500) == ns.compute_semeval(**batch, bootstrap=500, seed=0)
    assert ns.compute_semeval(**batch, bootstrap=500, seed=8) != first


def test_intervals_narrow_with_the_confidence_level_and_with_more_sentences() -> None:
    batch = sample_batch(np.random.default_rng(2), 400)
    wide = ns.compute_semeval(**batch, bootstrap=2000, confidence_level=0.99)
    narrow = ns.compute_semeval(**batch, bootstrap=2000, confidence_level=0.8)
    assert wide["strict_f1_low"] < narrow["strict_f1_low"] < narrow["strict_f1_high"] < wide["strict_f1_high"]
    small = ns.compute_semeval(**sample_batch(np.random.default_rng(2), 100), bootstrap=2000)
    large = ns.compute_semeval(**sample_batch(np.random.default_rng(2), 1600), bootstrap=2000)
    # The width shrinks as one over the square root of the sentences: a quarter, give or take.
    ratio = (large["strict_f1_high"] - large["strict_f1_low"]) / (small["strict_f1_high"] - small["strict_f1_low"])
    assert 0.15 < ratio < 0.4


@pytest.mark.parametrize("scheme", ["IOB2", "IOBES"])
@SETTINGS
@given(data=st.data())
def test_intervals_contain_the_point_estimate(scheme: str, data: st.DataObject) -> None:
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=8))
    options = {
        "scheme": scheme,
        "bootstrap": data.draw(st.sampled_from([1, 2, 19, 200])),
        "confidence_level": data.draw(st.sampled_from([0.5, 0.95, 0.999])),
        "zero_division": data.draw(st.sampled_from([0.0, 1.0])),
        "beta": data.draw(st.sampled_from([0.0, 1.0, 2.0])),
        "seed": data.draw(st.integers(0, 2**32)),
    }
    result = ns.compute_semeval(predictions=predictions, references=references, **options)
    for key in sample_statistics._measure_keys(ns.Options.of(**options)):
        assert 0 <= result[f"{key}_low"] <= result[key] <= result[f"{key}_high"] <= 1, key


def test_one_sequence_gives_a_zero_width_interval() -> None:
    # The unit is the sequence as passed: a document passed whole is one unit, and one unit has nothing to
    # resample. No sentence at all is the same.
    document = (
        [list(chain.from_iterable(r for r, _ in SENTENCES))],
        [list(chain.from_iterable(p for _, p in SENTENCES))],
    )
    for references, predictions in (document, ([], [])):
        result = ns.compute_semeval(predictions=predictions, references=references, bootstrap=100)
        for key in sample_statistics._measure_keys(ns.Options()):
            assert result[f"{key}_low"] == result[key] == result[f"{key}_high"], key
    split = ns.compute_semeval(
        predictions=[p for _, p in SENTENCES], references=[r for r, _ in SENTENCES], bootstrap=100
    )
    assert split["strict_f1_low"] < split["strict_f1"] < split["strict_f1_high"]


def test_every_path_to_the_counts_gives_the_same_intervals(monkeypatch: pytest.MonkeyPatch) -> None:
    # The readable path (return_entities), the array path in any chunk size and resampling in blocks of any
    # size all resample the same distinct vectors with the same draws.
    batch = sample_batch(np.random.default_rng(4), 300)
    expected = ns.compute_semeval(**batch, bootstrap=300)
    with_rows = ns.compute_semeval(**batch, bootstrap=300, return_entities=True)
    with_rows.pop("entities")
    assert with_rows == expected
    monkeypatch.setattr(tag_arrays, "_CHUNK_TOKENS", 7)
    monkeypatch.setattr(resampling, "_RESAMPLE_BLOCK_CELLS", 50)
    assert ns.compute_semeval(**batch, bootstrap=300) == expected


def test_integer_ids_and_padded_arrays_give_the_same_intervals() -> None:
    batch = sample_batch(np.random.default_rng(5), 100)
    label_list = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
    ids = {side: [[label_list.index(tag) for tag in row] for row in rows] for side, rows in batch.items()}
    padded = {side: np.array([row + [-100] * (3 - len(row)) for row in rows]) for side, rows in ids.items()}
    expected = ns.compute_semeval(**batch, bootstrap=200)
    assert ns.compute_semeval(**ids, label_list=label_list, bootstrap=200) == expected
    assert ns.compute_semeval(**padded, label_list=label_list, bootstrap=200) == expected


@pytest.mark.parametrize(
    "options, message",
    [
        ({"bootstrap": -1}, "bootstrap must be a whole number of resamples from 0 to 1,000,000"),
        ({"bootstrap": 1.5}, "bootstrap must be a whole number"),
        ({"bootstrap": True}, "bootstrap must be a whole number"),
        ({"bootstrap": "1000"}, "bootstrap must be a whole number"),
        ({"bootstrap": 1_000_001}, "bootstrap must be a whole number"),
        ({"confidence_level": 0}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": 1}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": 95}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": "0.95"}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": float("nan")}, "confidence_level must be a number between 0 and 1"),
        ({"seed": -1}, "seed must be a whole number >= 0"),
        ({"seed": 1.0}, "seed must be a whole number >= 0"),
        ({"seed": None}, "seed must be a whole number >= 0"),
    ],
)
def test_bad_statistics_options_are_named(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ns.compute_semeval(predictions=[["O"]], references=[["O"]], **options)


def test_statistics_options_take_numpy_numbers() -> None:
    options = ns.Options.of(bootstrap=np.int64(10), confidence_level=np.float32(0.9), seed=np.uint8(3))
    assert (options.bootstrap, options.seed) == (10, 3)
    assert options.confidence_level == pytest.approx(0.9)


# ---------------------------------------------------------------------------------------------------------
# compare_semeval: the paired test
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


def comparison_keys(options: ns.Options) -> list[str]:
    ends = ("a", "b", "delta", "delta_low", "delta_high", "p_value")
    return [f"{key}_{end}" for key in sample_statistics._measure_keys(options) for end in ends]


def test_compare_returns_both_scores_the_difference_its_interval_and_p() -> None:
    batch = two_systems(np.random.default_rng(0), 300)
    result = ns.compare_semeval(**batch, n_resamples=500)
    assert list(result) == comparison_keys(ns.Options())
    assert all(isinstance(value, float) for value in result.values())
    score_a = ns.compute_semeval(predictions=batch["predictions_a"], references=batch["references"])
    score_b = ns.compute_semeval(predictions=batch["predictions_b"], references=batch["references"])
    for key in sample_statistics._measure_keys(ns.Options()):
        assert (result[f"{key}_a"], result[f"{key}_b"]) == (score_a[key], score_b[key])
        assert result[f"{key}_delta"] == score_b[key] - score_a[key]
        assert result[f"{key}_delta_low"] <= result[f"{key}_delta"] <= result[f"{key}_delta_high"]
        assert 1 / 501 <= result[f"{key}_p_value"] <= 1
    # Options reach both systems; the seed makes the numbers repeat.
    strict_mode = ns.compare_semeval(**batch, n_resamples=500, mode="strict", beta=2.0, seed=5)
    assert "strict_f2_p_value" in strict_mode
    assert ns.compare_semeval(**batch, n_resamples=500, mode="strict", beta=2.0, seed=5) == strict_mode


def test_a_system_against_itself_differs_by_zero_with_p_one() -> None:
    batch = two_systems(np.random.default_rng(1), 200)
    result = ns.compare_semeval(
        predictions_a=batch["predictions_a"], predictions_b=batch["predictions_a"], references=batch["references"]
    )
    for key in sample_statistics._measure_keys(ns.Options()):
        assert result[f"{key}_delta"] == result[f"{key}_delta_low"] == result[f"{key}_delta_high"] == 0
        assert result[f"{key}_p_value"] == 1.0


def test_a_clearly_better_system_is_significant() -> None:
    batch = two_systems(np.random.default_rng(2), 200)
    batch["predictions_b"] = batch["references"]  # system B makes no mistake
    result = ns.compare_semeval(**batch)
    for key in sample_statistics._measure_keys(ns.Options()):
        assert result[f"{key}_p_value"] < 0.01, key
        assert result[f"{key}_delta_low"] > 0, key
    swapped = ns.compare_semeval(
        predictions_a=batch["predictions_b"], predictions_b=batch["predictions_a"], references=batch["references"]
    )
    assert swapped["strict_f1_delta"] == -result["strict_f1_delta"]
    assert swapped["strict_f1_delta_high"] < 0


def test_swapped_systems_mirror_the_interval_and_keep_the_p_value() -> None:
    batch = two_systems(np.random.default_rng(3), 300)
    forward = ns.compare_semeval(**batch, n_resamples=2000)
    backward = ns.compare_semeval(
        predictions_a=batch["predictions_b"],
        predictions_b=batch["predictions_a"],
        references=batch["references"],
        n_resamples=2000,
    )
    for key in sample_statistics._measure_keys(ns.Options()):
        assert backward[f"{key}_delta"] == pytest.approx(-forward[f"{key}_delta"], abs=1e-15)
        assert backward[f"{key}_p_value"] == pytest.approx(forward[f"{key}_p_value"], abs=0.05)


def test_comparisons_do_not_depend_on_chunks_or_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    batch = two_systems(np.random.default_rng(10), 150)
    expected = ns.compare_semeval(**batch, n_resamples=300)
    monkeypatch.setattr(tag_arrays, "_CHUNK_TOKENS", 7)
    monkeypatch.setattr(resampling, "_RESAMPLE_BLOCK_CELLS", 50)
    assert ns.compare_semeval(**batch, n_resamples=300) == expected


def test_both_systems_must_be_scored_on_the_same_references() -> None:
    batch = two_systems(np.random.default_rng(4), 20)
    other = [list(row) for row in batch["references"]]
    other[13] = ["B-ZZZ"] * len(other[13])
    with pytest.raises(ValueError, match=r"references_b, sentence 13: references_b differs from references"):
        ns.compare_semeval(**batch, references_b=other)
    with pytest.raises(ValueError, match=r"references hold 20 sentences and references_b 19"):
        ns.compare_semeval(**batch, references_b=batch["references"][:19])
    assert ns.compare_semeval(**batch, references_b=batch["references"], n_resamples=10)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"predictions_b": "drop a sentence"}, r"predictions_b: predictions hold 19 sentences and references 20"),
        ({"predictions_a": "shorten sentence 3"}, r"predictions_a, sentence 3: predictions have"),
        ({"predictions_b": "bad tag in sentence 5"}, r"predictions_b, sentence 5, token 0: found tag 'S-PER'"),
        ({"n_resamples": 0}, r"n_resamples must be a whole number of resamples from 1 to 1,000,000"),
        ({"seed": -3}, r"seed must be a whole number >= 0"),
        ({"bootstrap": 100}, r"compare_semeval takes neither bootstrap"),
        ({"per_type": True}, r"compare_semeval takes neither bootstrap"),
        ({"scheme": "IOB3"}, r"unknown scheme 'IOB3'"),
    ],
)
def test_compare_checks_everything_before_it_resamples(change: dict, message: str) -> None:
    batch = two_systems(np.random.default_rng(5), 20)
    arguments: dict = {**batch}
    for name, value in change.items():
        if value == "drop a sentence":
            arguments[name] = batch[name][:-1]
        elif value == "shorten sentence 3":
            arguments[name] = [row[:-1] if index == 3 else row for index, row in enumerate(batch[name])]
        elif value == "bad tag in sentence 5":
            arguments[name] = [["S-PER", *row[1:]] if index == 5 else row for index, row in enumerate(batch[name])]
        else:
            arguments[name] = value
    with (
        mock.patch.object(resampling, "_bootstrap_totals", side_effect=AssertionError("resampled")),
        pytest.raises(ValueError, match=message),
    ):
        ns.compare_semeval(**arguments)


# ---------------------------------------------------------------------------------------------------------
# The statistics are right: against scipy, and on simulated systems whose truth is known
# ---------------------------------------------------------------------------------------------------------


def strict_f1_of_totals(totals: np.ndarray) -> np.ndarray:
    """Strict F1 of scenario totals (..., 6), written out: COR = I, POS and ACT as docs/scoring.md §4 counts them."""
    correct = totals[..., 0]
    actual = totals[..., [0, 1, 3, 4, 5]].sum(axis=-1)
    possible = totals[..., [0, 2, 3, 4, 5]].sum(axis=-1)
    return 2 * correct / (actual + possible)


def test_bca_interval_agrees_with_scipy() -> None:
    # scipy.stats.bootstrap resamples sentence indices and scores each resample: the same BCa method, the slow
    # way. With 20,000 resamples each, the ends agree within Monte Carlo error (about 1 % of the width).
    stats = pytest.importorskip("scipy.stats")
    batch = sample_batch(np.random.default_rng(6), 300)
    options = ns.Options.of(bootstrap=20_000, seed=1)
    result = ns.compute_semeval(**batch, bootstrap=options.bootstrap, seed=options.seed)
    by_sentence = readable_by_sentence(batch["predictions"], batch["references"], options)
    scipy_interval = stats.bootstrap(
        (np.arange(len(by_sentence)),),
        lambda index, axis=-1: strict_f1_of_totals(by_sentence[index].sum(axis=-2)),
        n_resamples=20_000,
        method="BCa",
        vectorized=True,
        batch=1000,
        rng=np.random.default_rng(2),
    ).confidence_interval
    width = result["strict_f1_high"] - result["strict_f1_low"]
    assert result["strict_f1_low"] == pytest.approx(scipy_interval.low, abs=0.05 * width)
    assert result["strict_f1_high"] == pytest.approx(scipy_interval.high, abs=0.05 * width)


def test_paired_interval_and_p_value_agree_with_scipy() -> None:
    # The paired bootstrap of the difference (scipy.stats.bootstrap with paired=True) and approximate
    # randomization (scipy.stats.permutation_test swapping within pairs, on the absolute difference).
    stats = pytest.importorskip("scipy.stats")
    batch = two_systems(np.random.default_rng(7), 250)
    result = ns.compare_semeval(**batch, n_resamples=9999, seed=3)
    options = ns.Options()
    system_a = readable_by_sentence(batch["predictions_a"], batch["references"], options)
    system_b = readable_by_sentence(batch["predictions_b"], batch["references"], options)
    both = np.concatenate((system_a, system_b))  # sentence i of A is row i, of B row n + i
    sentences = np.arange(len(system_a))

    def difference(index_a: np.ndarray, index_b: np.ndarray, axis: int = -1) -> np.ndarray:
        return strict_f1_of_totals(both[index_b].sum(axis=-2)) - strict_f1_of_totals(both[index_a].sum(axis=-2))

    interval = stats.bootstrap(
        (sentences, sentences + len(sentences)),
        difference,
        paired=True,
        n_resamples=9999,
        method="BCa",
        vectorized=True,
        batch=1000,
        rng=np.random.default_rng(4),
    ).confidence_interval
    width = result["strict_f1_delta_high"] - result["strict_f1_delta_low"]
    assert result["strict_f1_delta_low"] == pytest.approx(interval.low, abs=0.05 * width)
    assert result["strict_f1_delta_high"] == pytest.approx(interval.high, abs=0.05 * width)
    test = stats.permutation_test(
        (sentences, sentences + len(sentences)),
        lambda index_a, index_b, axis=-1: np.abs(difference(index_a, index_b)),
        permutation_type="samples",
        n_resamples=9999,
        alternative="greater",
        vectorized=True,
        batch=1000,
        rng=np.random.default_rng(5),
    )
    assert 0.02 < test.pvalue < 0.9, "the data should make a p-value that Monte Carlo error can be judged on"
    assert result["strict_f1_p_value"] == pytest.approx(test.pvalue, abs=0.02)


def population_score(key: str) -> float:
    """The score of the population SENTENCES x WEIGHTS: every score is a ratio of totals, so the batch holding
    each sentence as many times as its weight scores exactly what an infinite sample would."""
    references = [SENTENCES[i][0] for i, weight in enumerate(WEIGHTS) for _ in range(weight)]
    predictions = [SENTENCES[i][1] for i, weight in enumerate(WEIGHTS) for _ in range(weight)]
    return ns.compute_semeval(predictions=predictions, references=references)[key]


@pytest.mark.slow
def test_intervals_cover_the_population_score_about_95_percent_of_the_time() -> None:
    # 300 samples of 60 sentences from a population whose scores are known; each gets a 95 % interval from 999
    # resamples. A correct interval covers the truth about 95 % of the time (here 93.7-95.3 % for these keys;
    # 95-97 % in a run of 1,000 samples); at a true 93-97 % the band 88-99.5 % fails by chance in under 0.1 %
    # of seeds (binomial tails of 300 draws). Intervals too wide by a factor 1.4 (resamples of half the
    # sentences) cover 99.3-99.7 % and fail it; too narrow by 1.4 (twice the sentences), 82-86 %, and fail.
    keys = ["strict_f1", "strict_precision", "strict_recall", "partial_f1", "type_f1"]
    truth = {key: population_score(key) for key in keys}
    rng = np.random.default_rng(2013)
    covered = dict.fromkeys(keys, 0)
    replications = 300
    for replication in range(replications):
        result = ns.compute_semeval(**sample_batch(rng, 60), bootstrap=999, seed=replication)
        for key in keys:
            covered[key] += result[f"{key}_low"] <= truth[key] <= result[f"{key}_high"]
    rates = {key: count / replications for key, count in covered.items()}
    assert all(0.88 <= rate <= 0.995 for rate in rates.values()), rates


@pytest.mark.slow
def test_two_equally_good_systems_are_significant_at_5_percent_about_5_percent_of_the_time() -> None:
    # 400 samples of 80 sentences; both systems draw their outputs from the same distribution, so any
    # difference is chance. A valid test says p < 0.05 in about 5 % of samples (here 4.3-6 % for these keys;
    # 3-5 % in a run of 1,000 samples); at a true 5 % the band 1-10 % fails by chance in under 0.1 % of seeds.
    # Swapping with probability 0.2 instead of one half gives 0 % and fails.
    keys = ["strict_f1", "strict_precision", "strict_recall", "partial_f1"]
    rng = np.random.default_rng(2017)
    significant = dict.fromkeys(keys, 0)
    replications = 400
    for replication in range(replications):
        result = ns.compare_semeval(**two_systems(rng, 80), n_resamples=499, seed=replication)
        for key in keys:
            significant[key] += result[f"{key}_p_value"] < 0.05
    rates = {key: count / replications for key, count in significant.items()}
    assert all(0.01 <= rate <= 0.10 for rate in rates.values()), rates


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
