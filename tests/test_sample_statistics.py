"""nerscore.statistics.sample_statistics: the resamples' vectorised scores follow `scores`' rules (docs/scoring.md
§4, §9)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore.measures import Rule
from nerscore.statistics import sample_statistics
from nerscore.tally import OUTCOME_MATRIX

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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
    for key, value in zip(sample_statistics.measure_keys(options), measures.tolist()):
        if key.endswith(("_precision", "_recall")):
            assert value == expected[key], key
        else:
            assert value == pytest.approx(expected[key], rel=1e-12, abs=1e-15), key


@SETTINGS
@given(
    totals=st.lists(st.integers(0, 2**40), min_size=30, max_size=30),
    partial_credit=st.sampled_from([0.5, 0.3, 1 / 3, 1.0]),
)
def test_measures_terms_are_the_outcomes_summed_one_by_one(totals: list[int], partial_credit: float) -> None:
    # `_measures` reads COR, PAR, ACT and POS from one product (`_TERMS_MATRIX`): the floats of the MUC counts
    # (`tally.OUTCOME_MATRIX`) summed one by one, ACT = COR + INC + PAR + SPU and POS = COR + INC + PAR + MIS.
    options = ns.Options.of(partial_credit=partial_credit)
    block = np.array(totals, dtype=np.uint64).reshape(5, 6)
    counts = (block.astype(np.float64) @ OUTCOME_MATRIX).reshape(5, 4, 5)
    correct, incorrect, partial, missed, spurious = np.moveaxis(counts, -1, 0)
    credit = correct + partial * partial_credit
    expected = Rule.of(options).floats(
        credit, correct + incorrect + partial + spurious, credit, correct + incorrect + partial + missed
    )
    assert np.array_equal(sample_statistics._measures(block, options), expected)


# ---------------------------------------------------------------------------------------------------------
# docs/scoring.md §10: the value under extreme weights. Its resamples were clipped at ±2**1020 (issue 31, item 14,
# re-checked: with false_alarm=1e308 the interval left out the bootstrap's range and compare_semeval's p was 1);
# they are now computed divided by a power of two (`value_exponent`), which changes no digit.
# ---------------------------------------------------------------------------------------------------------

SPANS = st.lists(
    st.tuples(st.integers(0, 5), st.integers(1, 2), st.sampled_from("AB")).map(
        lambda cell: (2 * cell[0], 2 * cell[0] + cell[1], cell[2])
    ),
    max_size=3,
    unique_by=lambda span: span[0],
)
# Spans a system finds off the references' by one (odd starts where theirs are even): it overlaps them, never
# matches them.
SHIFTED = SPANS.map(lambda spans: [(start + 1, end + 1, entity_type) for start, end, entity_type in spans])
SENTENCES = st.lists(st.tuples(SPANS, SPANS, SPANS), min_size=2, max_size=8)
MISSED_SENTENCES = st.lists(st.tuples(SPANS, SHIFTED, SHIFTED), min_size=2, max_size=8)


def value_results(sentences: list, weights: dict) -> list[dict]:
    """compute_semeval's, compare_semeval's, summarize_runs' and compare_runs' dicts for the sentences' (reference,
    system A, system B) spans under `weights`, with few resamples."""
    references = [sorted(reference) for reference, _, _ in sentences]
    system_a = [sorted(a) for _, a, _ in sentences]
    system_b = [sorted(b) for _, _, b in sentences]
    common = {"references": references, "value": weights}
    return [
        ns.compute_semeval(predictions=system_a, **common, bootstrap=60, seed=3),
        ns.compare_semeval(predictions_a=system_a, predictions_b=system_b, **common, n_resamples=60, seed=3),
        ns.summarize_runs(runs=[system_a, system_b], **common, bootstrap=60, seed=3),
        ns.compare_runs(runs_a=[system_a, system_b], runs_b=[system_b], **common, n_resamples=60, seed=3),
    ]


def scaled_keys(result: dict) -> set[str]:
    """The keys that are values (or differences of values) in the value's units: the value itself, its
    interval, the two systems' values and means and their difference with its interval."""
    return {
        key
        for key in result
        if key.startswith("value")
        and not key.startswith(("value_precision", "value_recall", "value_f1"))
        and not key.endswith("p_value")
    }


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sentences=MISSED_SENTENCES,
    weight_a=st.sampled_from([0.25, 1.0, 3.0]),
    weight_b=st.sampled_from([0.5, 1.0, 7.0]),
    false_alarm=st.sampled_from([0.75, 1.0, 0.3]),
    power=st.one_of(st.sampled_from([960, 1000, 1018, 1020, 1021]), st.integers(600, 1021)),
)
# Two runs' values -1/15 and -46/15: the scaled standard deviation's squares were an ulp off (C's pow() for x ** 2).
@example(
    sentences=[
        ([], [], [(1, 2, "A")]),
        ([], [], [(1, 2, "A"), (3, 4, "A")]),
        ([], [], [(5, 6, "B"), (11, 12, "B"), (1, 2, "B")]),
        ([(0, 1, "A")], [], [(1, 2, "A"), (5, 6, "A")]),
        ([(0, 1, "A")], [(1, 2, "A")], [(1, 2, "A"), (3, 4, "A"), (5, 6, "A")]),
        ([(0, 1, "B")], [(1, 2, "A")], []),
    ],
    weight_a=0.25,
    weight_b=7.0,
    false_alarm=1.0,
    power=960,
)
def test_scaling_false_alarm_by_a_power_of_two_scales_every_value_key(
    sentences: list, weight_a: float, weight_b: float, false_alarm: float, power: int
) -> None:
    # Where no pair keeps anything (no prediction matches a reference, type_error = boundary_error = 0), the
    # value is -false_alarm · Σ w(unpaired) / W_ref: false_alarm times 2**power gives every value, interval end,
    # mean and difference times 2**power, to the bit, and the same p-values, the other value keys unchanged. At
    # 2**power the resamples' values pass the largest float where the plain ones are small, so it checks the
    # extreme weights against the plain path.
    base = {"types": {"A": weight_a, "B": weight_b}, "type_error": 0.0, "boundary_error": 0.0}
    plain = value_results(sentences, {**base, "false_alarm": false_alarm})
    try:
        scaled = value_results(sentences, {**base, "false_alarm": false_alarm * 2.0**power})
    except ValueError as error:  # an interval's end, or a value, beyond the largest float
        assert "beyond the largest float" in str(error)
        assume(False)
    for before, after in zip(plain, scaled):
        assert before.keys() == after.keys()
        for key in before:
            if key in scaled_keys(before):
                assert after[key] == before[key] * 2.0**power, (key, before[key], after[key])
            else:
                assert after[key] == before[key], key


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sentences=SENTENCES,
    false_alarm=st.sampled_from([0.75, 1e300, 1e308]),
    type_error=st.sampled_from([0.0, 0.5]),
    power=st.sampled_from([-1070, -1000, -500, 500, 1000, 1020]),
)
def test_scaling_every_type_weight_by_a_power_of_two_changes_no_key(
    sentences: list, false_alarm: float, type_error: float, power: int
) -> None:
    # The value and its sides are ratios of weights: type weights times 2**power (down to subnormals, up to near
    # the largest float) leave every key as it is, to the bit, the extreme false alarms included.
    base = {"false_alarm": false_alarm, "type_error": type_error}
    weights = {"A": 1.0, "B": 0.5}
    try:
        plain = value_results(sentences, {**base, "types": weights})
    except ValueError as error:
        assert "beyond the largest float" in str(error)
        assume(False)
    scale = 2.0**power
    scaled = value_results(sentences, {**base, "types": {key: weight * scale for key, weight in weights.items()}})
    assert scaled == plain


# Found by a search of random sentences: with the clipping, compare_semeval's p was 1.0 at 1e308, 0.70 at 1e300.
REFERENCES = [
    [(2, 3, "B"), (10, 11, "A")],
    [(0, 1, "B"), (2, 3, "B"), (4, 6, "B")],
    [(4, 6, "B"), (6, 7, "A"), (10, 12, "B")],
    [(2, 3, "B"), (6, 8, "B"), (8, 10, "A")],
    [],
    [(8, 10, "B"), (10, 11, "B")],
]
SYSTEM_A = [
    [(4, 5, "A"), (8, 10, "B"), (10, 12, "B")],
    [(4, 6, "B"), (8, 10, "B"), (10, 12, "A")],
    [(2, 4, "A"), (4, 5, "A"), (10, 12, "B")],
    [(2, 4, "B"), (6, 7, "B"), (8, 9, "A")],
    [(2, 3, "A")],
    [(0, 2, "A"), (2, 3, "A"), (10, 12, "A")],
]
SYSTEM_B = [
    [],
    [(4, 5, "B"), (6, 7, "A"), (10, 11, "B")],
    [(0, 2, "B"), (4, 6, "A"), (6, 8, "A")],
    [(2, 4, "B"), (4, 6, "B")],
    [(2, 4, "B")],
    [(2, 3, "B")],
]


def test_the_red_teams_false_alarms_of_1e308_and_1e300_agree() -> None:
    # The re-check of issue 31 (14): with false_alarm=1e308, value_low was the value itself and value_high
    # -2**1020 (every resample clipped), and compare_semeval's p was 1.0 where 1e300 gave 0.66. The false alarms
    # dwarf what the pairs keep, so 1e308's value keys are those of 1e308 / 2**27 (7.5e299) times 2**27 (within
    # rounding: what the pairs keep is below the last digit), and its p-values those of 1e300.
    results = {}
    for false_alarm in (1e300, 1e308 / 2**27, 1e308):
        common = {"references": REFERENCES, "value": {"false_alarm": false_alarm}}
        results[false_alarm] = (
            ns.compute_semeval(predictions=SYSTEM_B, **common, bootstrap=200),
            ns.compare_semeval(predictions_a=SYSTEM_A, predictions_b=SYSTEM_B, **common, n_resamples=200),
        )
    for small, large in zip(results[1e308 / 2**27], results[1e308]):
        for key in scaled_keys(small):
            assert large[key] == pytest.approx(small[key] * 2**27, rel=1e-12), key
    for small, large in zip(results[1e300], results[1e308]):
        assert [large[key] for key in large if key.endswith("p_value")] == [
            small[key] for key in small if key.endswith("p_value")
        ]
        for key in {"value", "value_a", "value_b", "value_delta"} & small.keys():
            assert large[key] == pytest.approx(small[key] * 1e8, rel=1e-12), key
    single, compared = results[1e308]
    assert single["value_low"] < single["value"] < single["value_high"]  # the resamples' range, not the value
    assert compared["value_p_value"] < 0.8
    assert compared["value_delta_low"] < compared["value_delta"] < compared["value_delta_high"]


def test_an_interval_end_no_float_holds_is_a_located_error() -> None:
    # A value within floats whose resamples are not: one sentence of one reference and three false alarms
    # drawn four times gives -3e308.
    references = [[(0, 1, "PER")], [(0, 1, "PER"), (2, 3, "PER"), (4, 5, "PER")]]
    predictions = [[(2, 3, "LOC"), (4, 5, "LOC"), (6, 7, "LOC")], [(6, 7, "LOC")]]
    weights = {"false_alarm": 1e308, "type_error": 0.0}
    assert ns.compute_semeval(predictions=predictions, references=references, value=weights)["value"] == -1e308
    with pytest.raises(ValueError, match=r"false_alarm=1e\+308 .* value_low is about -3.00e\+308, beyond the larg"):
        ns.compute_semeval(predictions=predictions, references=references, value=weights, bootstrap=200)
    with pytest.raises(ValueError, match=r" value_delta_(low|high) is about .*, beyond the largest float"):
        ns.compare_semeval(
            predictions_a=predictions, predictions_b=references, references=references, value=weights, n_resamples=200
        )
