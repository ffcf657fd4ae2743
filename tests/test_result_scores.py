"""nerscore.result_scores: counts and scores (docs/scoring.md §4-§7): the worked example of §6 exactly, hand cases as
fractions, per-type and macro scores, beta, zero_division, and the shape of the output."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import pytest
from conftest import as_inputs, worked_example, worked_example_sentences
from hypothesis import given, settings
from hypothesis import strategies as st

from nerscore import SCENARIOS as SCENARIO_NAMES
from nerscore import Options, Tally, compute_semeval, result_scores, scores
from nerscore import tally as tally_module

SCHEMES = ("strict", "exact", "partial", "type")
COUNT_MEASURES = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")


# docs/scoring.md §6, read from examples/worked_example.conll. The reference entity is MUSIC_NAME 告白气球 in
# every sentence but II's.
SONG, SINGER = "MUSIC_NAME", "SINGER"


# The §6 summary table, column by column.
SUMMARY = {
    "type": {"correct": 2, "incorrect": 2, "partial": 0, "missed": 1, "spurious": 1, "score": 0.4},
    "partial": {"correct": 2, "incorrect": 0, "partial": 2, "missed": 1, "spurious": 1, "score": 0.6},
    "exact": {"correct": 2, "incorrect": 2, "partial": 0, "missed": 1, "spurious": 1, "score": 0.4},
    "strict": {"correct": 1, "incorrect": 3, "partial": 0, "missed": 1, "spurious": 1, "score": 0.2},
}


def span(start: int, end: int, entity_type: str) -> dict:
    return {"start": start, "end": end, "type": entity_type}


def row(sentence: int, reference, prediction, scenario: str, strict: str, exact: str, partial: str, kind: str):
    return {
        "sentence": sentence,
        "reference": reference,
        "prediction": prediction,
        "scenario": scenario,
        "strict": strict,
        "exact": exact,
        "partial": partial,
        "type": kind,
    }


# The §6 scenario table as `entities` rows (outcome columns reordered to strict, exact, partial, type), at the
# file's character offsets: III 我想听告白气球 reference [3, 7); II 我想听年轮 prediction [3, 5); V 播放一首告白气球
# reference [4, 8), prediction 一首告白气球 [2, 8); IV and I 告白气球 [0, 4); VI 一首告白气球 reference [2, 6),
# prediction [0, 6).
WORKED_ROWS_TAIL = [
    ("V", span(4, 8, SONG), span(2, 8, SONG), "INC", "INC", "PAR", "COR"),
    ("IV", span(0, 4, SONG), span(0, 4, SINGER), "INC", "COR", "COR", "INC"),
    ("I", span(0, 4, SONG), span(0, 4, SONG), "COR", "COR", "COR", "COR"),
    ("VI", span(2, 6, SONG), span(0, 6, SINGER), "INC", "INC", "PAR", "INC"),
]
SIX_ROWS = [
    row(0, span(3, 7, SONG), None, "III", "MIS", "MIS", "MIS", "MIS"),
    row(1, None, span(3, 5, SONG), "II", "SPU", "SPU", "SPU", "SPU"),
    *(row(2 + i, ref, pred, sc, *out) for i, (sc, ref, pred, *out) in enumerate(WORKED_ROWS_TAIL)),
]
# Shared: 我想听告白气球我想听年轮, so 年轮 moves past III's seven characters to [10, 12).
FIVE_ROWS = [
    row(0, span(3, 7, SONG), None, "III", "MIS", "MIS", "MIS", "MIS"),
    row(0, None, span(10, 12, SONG), "II", "SPU", "SPU", "SPU", "SPU"),
    *(row(1 + i, ref, pred, sc, *out) for i, (sc, ref, pred, *out) in enumerate(WORKED_ROWS_TAIL)),
]

ARRANGEMENTS = [
    pytest.param(False, SIX_ROWS, id="six-sentences"),
    pytest.param(True, FIVE_ROWS, id="five-sentences-II-III-shared"),
]


def test_worked_example_tags_are_read_from_characters() -> None:
    sentences = worked_example_sentences()
    assert ["".join(sentence.tokens) for sentence in sentences] == [
        "我想听告白气球",
        "我想听年轮",
        "播放一首告白气球",
        "告白气球",
        "告白气球",
        "一首告白气球",
    ]
    predictions, references = worked_example()
    assert references[0] == ["O", "O", "O", "B-MUSIC_NAME", "I-MUSIC_NAME", "I-MUSIC_NAME", "I-MUSIC_NAME"]
    assert predictions[2][2:4] == ["B-MUSIC_NAME", "I-MUSIC_NAME"]
    assert "".join(worked_example_sentences(shared=True)[0].tokens) == "我想听告白气球我想听年轮"
    shared_predictions, shared_references = worked_example(shared=True)
    assert shared_predictions[0] == ["O"] * 10 + ["B-MUSIC_NAME", "I-MUSIC_NAME"]
    assert shared_references[0] == references[0] + ["O"] * 5


def check_summary(result: dict) -> None:
    for scheme, expected in SUMMARY.items():
        for measure in ("correct", "incorrect", "partial", "missed", "spurious"):
            assert result[f"{scheme}_{measure}"] == expected[measure], f"{scheme}_{measure}"
        assert result[f"{scheme}_possible"] == 5
        assert result[f"{scheme}_actual"] == 5
        # Exactly, not approximately: 0.2 must be 0.2 (the module computes in fractions).
        for measure in ("precision", "recall", "f1"):
            assert result[f"{scheme}_{measure}"] == expected["score"], f"{scheme}_{measure}"


@pytest.mark.parametrize(("shared", "rows"), ARRANGEMENTS)
def test_worked_example_compute_semeval(shared: bool, rows: list[dict]) -> None:
    predictions, references = worked_example(shared)
    result = compute_semeval(predictions=predictions, references=references, return_entities=True)
    check_summary(result)
    assert result["entities"] == rows


@pytest.mark.parametrize(("shared", "rows"), ARRANGEMENTS)
def test_worked_example_through_evaluate(metric, shared: bool, rows: list[dict]) -> None:
    predictions, references = worked_example(shared)
    result = metric.compute(predictions=predictions, references=references, return_entities=True)
    check_summary(result)
    assert result["entities"] == rows


# Per-type scores of the worked example (docs/scoring.md §5), derived from the scenario table:
# MUSIC_NAME references: III, V, IV, I, VI; MUSIC_NAME predictions: II, V, I; SINGER predictions: IV, VI.
WORKED_PER_TYPE = {
    # scheme: (MUSIC_NAME P, R, F), (SINGER P, R, F)
    "strict": ((Fraction(1, 3), Fraction(1, 5), Fraction(1, 4)), (0, 0, 0)),
    "exact": ((Fraction(1, 3), Fraction(2, 5), Fraction(4, 11)), (Fraction(1, 2), 0, 0)),
    "partial": ((Fraction(1, 2), Fraction(3, 5), Fraction(6, 11)), (Fraction(3, 4), 0, 0)),
    "type": ((Fraction(2, 3), Fraction(2, 5), Fraction(1, 2)), (0, 0, 0)),
}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_worked_example_per_type_and_macro(scheme: str) -> None:
    result = compute_semeval(**as_inputs(worked_example()), per_type=True)
    song, singer = WORKED_PER_TYPE[scheme]
    for entity_type, values in ((SONG, song), (SINGER, singer)):
        for measure, value in zip(("precision", "recall", "f1"), values):
            assert result[f"{entity_type}_{scheme}_{measure}"] == float(value), f"{entity_type}_{scheme}_{measure}"
    assert (result[f"{SONG}_{scheme}_possible"], result[f"{SONG}_{scheme}_actual"]) == (5, 3)
    assert (result[f"{SINGER}_{scheme}_possible"], result[f"{SINGER}_{scheme}_actual"]) == (0, 2)
    for index, measure in enumerate(("precision", "recall", "f1")):
        assert result[f"{scheme}_macro_{measure}"] == float((Fraction(song[index]) + singer[index]) / 2)


# Small hand cases: (predictions, references, {key: expected fraction or count}).
HAND_CASES = [
    pytest.param(
        [["B-PER", "I-PER", "O", "B-ORG"]],
        [["B-PER", "I-PER", "O", "B-LOC"]],
        {"strict_f1": Fraction(1, 2), "strict_incorrect": 1, "exact_f1": 1, "type_f1": Fraction(1, 2)},
        id="I-and-IV",
    ),
    pytest.param(
        [["B-PER", "I-PER", "O", "O", "B-LOC"]],
        [["B-PER", "I-PER", "I-PER", "O", "B-LOC"]],
        {
            "partial_precision": Fraction(3, 4),
            "partial_recall": Fraction(3, 4),
            "partial_partial": 1,
            "strict_precision": Fraction(1, 2),
            "exact_precision": Fraction(1, 2),
            "type_precision": 1,
        },
        id="I-and-V",
    ),
    pytest.param(
        [["B-PER", "O", "B-LOC", "O", "O"]],
        [["B-PER", "O", "B-LOC", "O", "B-ORG"]],
        {"strict_precision": 1, "strict_recall": Fraction(2, 3), "strict_f1": Fraction(4, 5), "strict_missed": 1},
        id="missed-one-of-three",
    ),
    pytest.param(
        [["B-PER", "O", "B-LOC", "B-LOC"], ["B-ORG"]],
        [["B-PER", "O", "O", "O"], ["O"]],
        {"strict_precision": Fraction(1, 4), "strict_recall": 1, "strict_f1": Fraction(2, 5), "strict_spurious": 3},
        id="spurious-across-sentences",
    ),
    pytest.param(
        [["B-LOC", "I-LOC", "I-LOC"]],
        [["B-PER", "O", "B-PER"]],
        {
            "strict_incorrect": 1,
            "strict_missed": 1,
            "partial_precision": Fraction(1, 2),
            "partial_recall": Fraction(1, 4),
            "partial_f1": Fraction(1, 3),
            "type_incorrect": 1,
        },
        id="VI-and-III",
    ),
]


@pytest.mark.parametrize(("predictions", "references", "expected"), HAND_CASES)
def test_hand_cases(predictions: list, references: list, expected: dict) -> None:
    result = compute_semeval(predictions=predictions, references=references)
    for key, value in expected.items():
        assert result[key] == float(value), key


def test_per_type_sums_to_overall() -> None:
    predictions, references = worked_example()
    result = compute_semeval(predictions=predictions, references=references, per_type=True)
    for scheme in SCHEMES:
        for side in ("possible", "actual"):
            assert result[f"{SONG}_{scheme}_{side}"] + result[f"{SINGER}_{scheme}_{side}"] == result[f"{scheme}_{side}"]


# Macro averages (docs/scoring.md §5): over the types present, or over `labels` (an absent label scores
# zero_division).
# References: PER, LOC; prediction: PER only. Strict per type: PER (1, 1, 1); LOC precision 0/0, recall 0/1.
MACRO_REFERENCES = [["B-PER", "O", "B-LOC"]]
MACRO_PREDICTIONS = [["B-PER", "O", "O"]]
MACRO_CASES = [
    pytest.param({}, (Fraction(1, 2), Fraction(1, 2), Fraction(1, 2)), id="present-types"),
    pytest.param({"labels": ["PER"]}, (1, 1, 1), id="labels-one-type"),
    pytest.param({"labels": ["PER", "LOC", "ORG"]}, (Fraction(1, 3),) * 3, id="labels-with-absent-type"),
    # zero_division=1: LOC P = 1 (0/0), R = 0, F = 0; ORG P = R = 1 (0/0), F = 1.
    pytest.param(
        {"labels": ["PER", "LOC", "ORG"], "zero_division": 1.0},
        (1, Fraction(2, 3), Fraction(2, 3)),
        id="labels-with-absent-type-zero-division-1",
    ),
]


@pytest.mark.parametrize(("options", "expected"), MACRO_CASES)
def test_macro_averages(options: dict, expected: tuple) -> None:
    result = compute_semeval(predictions=MACRO_PREDICTIONS, references=MACRO_REFERENCES, **options)
    macro = (result["strict_macro_precision"], result["strict_macro_recall"], result["strict_macro_f1"])
    assert macro == tuple(float(value) for value in expected)


def test_macro_counts_a_type_seen_only_in_predictions() -> None:
    # PER: P = R = 1; LOC (predicted only): P = 0, R = 0/0 = 0.
    result = compute_semeval(predictions=[["B-PER", "B-LOC"]], references=[["B-PER", "O"]])
    assert result["strict_macro_precision"] == 0.5
    assert result["strict_macro_recall"] == 0.5


def test_macro_with_labels_lists_those_types_per_type() -> None:
    result = compute_semeval(
        predictions=MACRO_PREDICTIONS, references=MACRO_REFERENCES, per_type=True, labels=["PER", "ORG"]
    )
    assert {key.split("_")[0] for key in result if key.startswith(("PER_", "ORG_", "LOC_"))} == {"PER", "ORG"}
    assert result["strict_possible"] == 1  # LOC filtered out on both sides (docs/scoring.md §2)


# beta (docs/scoring.md §4, §7). P = 1, R = 2/3.
BETA_CASES = [
    pytest.param(0.5, "f0.5", Fraction(10, 11), id="beta-0.5"),
    pytest.param(2, "f2", Fraction(5, 7), id="beta-2"),
    pytest.param(2.0, "f2", Fraction(5, 7), id="beta-2.0"),
    pytest.param(1, "f1", Fraction(4, 5), id="beta-1"),
    pytest.param(0, "f0", Fraction(1), id="beta-0-is-precision"),
]


@pytest.mark.parametrize(("beta", "key", "expected"), BETA_CASES)
def test_beta(beta: float, key: str, expected: Fraction) -> None:
    predictions, references = [["B-PER", "O", "B-LOC", "O", "O"]], [["B-PER", "O", "B-LOC", "O", "B-ORG"]]
    result = compute_semeval(predictions=predictions, references=references, beta=beta, per_type=True)
    assert result[f"strict_{key}"] == float(expected)
    assert f"strict_macro_{key}" in result
    assert f"PER_strict_{key}" in result
    if key != "f1":
        assert not any(k.endswith("_f1") for k in result)


ZERO_DIVISION_CASES = [
    # All O: every ratio divides by zero.
    pytest.param([["O", "O"]], [["O", "O"]], 0.0, (0.0, 0.0, 0.0), id="all-O"),
    pytest.param([["O", "O"]], [["O", "O"]], 1.0, (1.0, 1.0, 1.0), id="all-O-zero-division-1"),
    pytest.param([["O", "O"]], [["O", "O"]], 0.5, (0.5, 0.5, 0.5), id="all-O-zero-division-half"),
    # Nothing predicted: P = 0/0, R = 0/1, F from P and R.
    pytest.param([["O"]], [["B-PER"]], 0.0, (0.0, 0.0, 0.0), id="nothing-predicted"),
    pytest.param([["O"]], [["B-PER"]], 1.0, (1.0, 0.0, 0.0), id="nothing-predicted-zero-division-1"),
    # Nothing to find: P = 0/1, R = 0/0.
    pytest.param([["B-PER"]], [["O"]], 1.0, (0.0, 1.0, 0.0), id="nothing-to-find-zero-division-1"),
    # Only wrong entities: P = 0/1 and R = 0/1 leave F's own denominator at zero, and F is then 0 whatever
    # zero_division says (docs/scoring.md §4, as scikit-learn): a system whose entities are all wrong never
    # scores a perfect F.
    pytest.param([["B-PER", "O"]], [["O", "B-PER"]], 1.0, (0.0, 0.0, 0.0), id="p-and-r-zero-f-zero"),
]


@pytest.mark.parametrize(("predictions", "references", "zero_division", "expected"), ZERO_DIVISION_CASES)
def test_zero_division(predictions: list, references: list, zero_division: float, expected: tuple) -> None:
    result = compute_semeval(predictions=predictions, references=references, zero_division=zero_division)
    for scheme in SCHEMES:
        assert (result[f"{scheme}_precision"], result[f"{scheme}_recall"], result[f"{scheme}_f1"]) == expected


EMPTY_INPUTS = [
    pytest.param([], [], id="no-sentences"),
    pytest.param([[]], [[]], id="one-empty-sentence"),
    pytest.param([[], ["O"], []], [[], ["O"], []], id="empty-and-all-O-sentences"),
    pytest.param([["O"] * 5], [["O"] * 5], id="all-O"),
]


@pytest.mark.parametrize(("predictions", "references"), EMPTY_INPUTS)
def test_empty_input_counts_nothing(metric, predictions: list, references: list) -> None:
    for result in (
        compute_semeval(predictions=predictions, references=references, per_type=True, return_entities=True),
        metric.compute(predictions=predictions, references=references, per_type=True, return_entities=True),
    ):
        assert result.pop("entities") == []
        assert set(result) == expected_keys()
        assert all(result[f"{scheme}_{measure}"] == 0 for scheme in SCHEMES for measure in COUNT_MEASURES)
        # Every token of all-O input is right; no token at all is zero_division's 0.
        assert result.pop("token_accuracy") == (1.0 if any(references) else 0.0)
        assert all(value == 0.0 for value in result.values())


def expected_keys(f: str = "f1", types: tuple[str, ...] = ()) -> set[str]:
    """docs/scoring.md §7, written out; `token_accuracy` for tag (and id) input."""
    measures = ("precision", "recall", f, "correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")
    keys = {f"{scheme}_{measure}" for scheme in SCHEMES for measure in measures}
    keys |= {f"{scheme}_macro_{measure}" for scheme in SCHEMES for measure in ("precision", "recall", f)}
    keys |= {
        f"{entity_type}_{scheme}_{measure}"
        for entity_type in types
        for scheme in SCHEMES
        for measure in ("precision", "recall", f, "possible", "actual")
    }
    return keys | {"token_accuracy"}


# ---------------------------------------------------------------------------------------------------------
# Issue 16, item 8: `scores` counts every type at once with numpy. Its values must be those of the loop over
# types it replaced, to the bit: that loop is kept here, as it was at e2fb4c1, and both score random tallies.
# ---------------------------------------------------------------------------------------------------------


class ExactRatios:
    """docs/scoring.md §4's rules on Fractions, as (numerator, denominator): what `counts._Ratios` was at e2fb4c1
    (its rules now live in `nerscore.measures`, which this oracle must not share)."""

    def __init__(self, options: Options) -> None:
        self.zero_division = Fraction(options.zero_division)
        self.beta2 = Fraction(options.beta) ** 2

    def share(self, credit: int, total: int) -> tuple[int, int]:
        ratio = Fraction(credit, total) if total else self.zero_division
        return ratio.numerator, ratio.denominator

    def f(self, precision: tuple[int, int], recall: tuple[int, int]) -> tuple[int, int]:
        p, r = Fraction(*precision), Fraction(*recall)
        denominator = self.beta2 * p + r
        f = (1 + self.beta2) * p * r / denominator if denominator else Fraction(0)
        return f.numerator, f.denominator

    def precision_recall_f(self, correct: int, partial: int, actual: int, possible: int) -> tuple[tuple[int, int], ...]:
        precision = self.share(2 * correct + partial, 2 * actual)
        recall = self.share(2 * correct + partial, 2 * possible)
        return precision, recall, self.f(precision, recall)


def totals_by_type(tally: Tally, scheme: str) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Each type's two sides' counts as integer lists in the order of Counts' fields: `Tally._totals_by_type` as
    it was at e2fb4c1, a loop over the cells."""
    index = {outcome: position for position, outcome in enumerate(tally_module.COUNT_NAMES)}
    reference_side: dict[str, list[int]] = {}
    prediction_side: dict[str, list[int]] = {}
    for (scenario, reference_type, predicted_type), number in tally.cells.items():
        position = index[tally_module.OUTCOMES[scenario][scheme]]
        if reference_type is not None:
            reference_side.setdefault(reference_type, [0] * 5)[position] += number
        if predicted_type is not None:
            prediction_side.setdefault(predicted_type, [0] * 5)[position] += number
    return reference_side, prediction_side


def scores_by_a_loop_over_types(tally: Tally, options: Options) -> dict:
    """`scores` as it was before issue 16 (one Python step per type and scheme), without `confusion`."""
    f_name = options.f_name
    entity_types = list(dict.fromkeys(options.labels)) if options.labels is not None else tally.entity_types
    ratios = ExactRatios(options)
    no_entity = [0] * 5
    result: dict = {}
    type_results: dict = {}
    for scheme in SCHEMES:
        counts = tally.counts(scheme)
        precision, recall, f = ratios.precision_recall_f(counts.correct, counts.partial, counts.actual, counts.possible)
        result[f"{scheme}_precision"] = precision[0] / precision[1]
        result[f"{scheme}_recall"] = recall[0] / recall[1]
        result[f"{scheme}_{f_name}"] = f[0] / f[1]
        for field in ("correct", "incorrect", "partial", "missed", "spurious"):
            result[f"{scheme}_{field}"] = getattr(counts, field)
        result[f"{scheme}_possible"] = counts.possible
        result[f"{scheme}_actual"] = counts.actual
        reference_side, prediction_side = totals_by_type(tally, scheme)
        macro: list[dict[int, int]] = [{}, {}, {}]
        for entity_type in entity_types:
            correct, _, partial, missed, _ = references = reference_side.get(entity_type, no_entity)
            possible = correct + references[1] + partial + missed
            predictions = prediction_side.get(entity_type, no_entity)
            actual = predictions[0] + predictions[1] + predictions[2] + predictions[4]
            type_precision = ratios.share(2 * predictions[0] + predictions[2], 2 * actual)
            type_recall = ratios.share(2 * correct + partial, 2 * possible)
            type_f = ratios.f(type_precision, type_recall)
            for sums, (numerator, denominator) in zip(macro, (type_precision, type_recall, type_f)):
                sums[denominator] = sums.get(denominator, 0) + numerator
            if options.per_type:
                key = f"{entity_type}_{scheme}"
                for name, (numerator, denominator) in zip(
                    ("precision", "recall", f_name), (type_precision, type_recall, type_f)
                ):
                    type_results[f"{key}_{name}"] = numerator / denominator
                type_results[f"{key}_possible"] = possible
                type_results[f"{key}_actual"] = actual
        for name, sums in zip(("precision", "recall", f_name), macro):
            total = sum((Fraction(numerator, denominator) for denominator, numerator in sums.items()), Fraction(0))
            mean = total / len(entity_types) if entity_types else Fraction(options.zero_division)
            result[f"{scheme}_macro_{name}"] = float(mean)
    result.update(type_results)
    return result


SCORED_TYPES = ("PER", "LOC", "ORG", "MUSIC-NAME", "A", "B", "C", "D")


@st.composite
def tallies(draw: st.DrawFn) -> Tally:
    """Random cells: pairs of two types (I, IV, V, VI), misses and spurious entities, counts small or huge."""
    types = draw(st.lists(st.sampled_from(SCORED_TYPES), min_size=1, max_size=len(SCORED_TYPES), unique=True))
    kind = st.sampled_from(types)
    count = st.integers(1, 12) | st.integers(1, 1 << 40)
    cells: dict = {}
    for scenario in draw(st.lists(st.sampled_from(SCENARIO_NAMES), max_size=30)):
        reference = None if scenario == "II" else draw(kind)
        predicted = None if scenario == "III" else draw(kind)
        if scenario in ("I", "V"):
            predicted = reference
        cells[scenario, reference, predicted] = cells.get((scenario, reference, predicted), 0) + draw(count)
    return Tally(cells)


# β and zero_division whose fractions are small (1, 0.5, 2) and large (0.3 is a 53-bit fraction; 1e200 and
# 5e-324 are far beyond int64): the large ones take the object-array path.
BETAS = (1.0, 0.5, 2.0, 0.0, 0.3, 3.0, 1e-5, 1e200, 5e-324)
ZERO_DIVISIONS = (0.0, 1.0, 0.5, 0.3, 5e-324)


@settings(max_examples=300, deadline=None)
@given(
    tally=tallies(),
    beta=st.sampled_from(BETAS),
    zero_division=st.sampled_from(ZERO_DIVISIONS),
    labels=st.none() | st.lists(st.sampled_from([*SCORED_TYPES, "ABSENT"]), min_size=1, max_size=4),
)
def test_scores_are_those_of_the_loop_over_types_to_the_bit(tally, beta, zero_division, labels) -> None:
    options = Options.of(per_type=True, beta=beta, zero_division=zero_division, labels=labels)
    expected = scores_by_a_loop_over_types(tally, options)
    result = scores(tally, options)
    assert list(result) == list(expected)  # the same keys in the same order
    for key, value in expected.items():
        assert type(result[key]) is type(value), key
        assert math.copysign(1, result[key]) == math.copysign(1, value) and result[key] == value, key


@settings(max_examples=150, deadline=None)
@given(
    several=st.lists(tallies(), max_size=5),
    beta=st.sampled_from(BETAS),
    zero_division=st.sampled_from(ZERO_DIVISIONS),
    partial_credit=st.sampled_from([0.5, 0.25, 1.0]),
    per_type=st.booleans(),
    labels=st.none() | st.lists(st.sampled_from([*SCORED_TYPES, "ABSENT"]), min_size=1, max_size=4),
)
def test_scores_of_several_tallies_are_each_ones_scores_to_the_bit(
    several, beta, zero_division, partial_credit, per_type, labels
) -> None:
    # A slice's buckets are scored in one call (their exact ratios computed at once, docs/scoring.md §11): a
    # tally of huge counts beside small ones (the object-array path for all) scores each as alone.
    options = Options.of(
        per_type=per_type, beta=beta, zero_division=zero_division, partial_credit=partial_credit, labels=labels
    )
    together = result_scores.scores_of(several, options)
    assert len(together) == len(several)
    for tally, result in zip(several, together):
        alone = scores(tally, options)
        assert list(result) == list(alone)
        for key, value in alone.items():
            assert type(result[key]) is type(value), key
            assert math.copysign(1, result[key]) == math.copysign(1, value) and result[key] == value, key


# The public functions over a tally take a Tally, an Options (or None), rows as tally_semeval returns them and
# lists of types: anything else was an AttributeError ("'NoneType' object has no attribute 'cells'"), a
# TypeError or a KeyError; now a ValueError naming the argument. A type of the tally left out of entity_types
# is not shown in the full square (a KeyError before), as in the sparse one. (call, message)
def _tally_and_rows():
    import nerscore

    return nerscore.tally_semeval([["B-X", "O"]], [["B-X", "I-X"]])


BAD_TALLY_CALLS = [
    pytest.param(lambda ns, t, r: ns.scores(None), r"^tally is None \(NoneType\); expected a Tally", id="scores"),
    pytest.param(lambda ns, t, r: ns.scores(t, {}), r"^options is \{\} \(dict\); expected an Options", id="options"),
    pytest.param(lambda ns, t, r: ns.confusion_matrix([], ["X"]), r"^tally is \[\] \(list\)", id="confusion"),
    pytest.param(lambda ns, t, r: ns.confusion_matrix(t, "X"), r"^entity_types is 'X'; expected a list", id="types"),
    pytest.param(lambda ns, t, r: ns.confusion_matrix(t, [None]), r"^entity_types is \[None\]", id="type-none"),
    pytest.param(lambda ns, t, r: ns.entity_rows([(0, (0, 1, "X"), None)]), r"^rows\[0\] is \(0, \(0, 1", id="rows"),
    pytest.param(lambda ns, t, r: ns.entity_rows([None]), r"^rows\[0\] is None; expected \(sentence", id="row"),
    pytest.param(lambda ns, t, r: ns.entity_rows(r, "strict"), r"schemes", id="schemes-a-string"),
    pytest.param(lambda ns, t, r: ns.result_dict(t, None), r"^options is None; expected", id="result-dict"),
    # result_dict given a tally without what an option asks for: each option's own refusal, naming what it needs.
    pytest.param(
        lambda ns, t, r: ns.result_dict(t, ns.Options.of(slices=["seen"])), r"^slices needs the counts", id="slices"
    ),
    pytest.param(
        lambda ns, t, r: ns.result_dict(t, ns.Options.of(bootstrap=10)), r"^bootstrap needs each", id="bootstrap"
    ),
    pytest.param(
        lambda ns, t, r: ns.result_dict(t, ns.Options.of(return_entities=True)),
        r"^return_entities needs the rows",
        id="return-entities",
    ),
    pytest.param(
        lambda ns, t, r: ns.result_dict(t, ns.Options.of(diagnostics=True)), r"^diagnostics needs", id="diagnostics"
    ),
    pytest.param(lambda ns, t, r: ns.result_dict(t, ns.Options.of(errors=True)), r"^errors needs", id="errors"),
]


@pytest.mark.parametrize(("call", "message"), BAD_TALLY_CALLS)
def test_functions_over_a_tally_name_what_is_not_one(call, message: str) -> None:
    import nerscore

    tally, rows = _tally_and_rows()
    with pytest.raises(ValueError, match=message):
        call(nerscore, tally, rows)


def test_result_dict_of_tally_semeval_s_rows_is_compute_semeval_s_entities() -> None:
    import nerscore

    tally, rows = _tally_and_rows()
    options = nerscore.Options.of(return_entities=True)
    found = nerscore.result_dict(tally, options, rows=rows)
    assert found == nerscore.compute_semeval(
        predictions=[["B-X", "O"]], references=[["B-X", "I-X"]], return_entities=True
    )
    assert found["entities"][0]["scenario"] == "V"


def test_a_type_left_out_of_entity_types_is_not_shown_full_or_sparse() -> None:
    import nerscore

    tally, _ = _tally_and_rows()
    assert nerscore.confusion_matrix(tally, []) == {"O": {"O": 0}}
    assert nerscore.confusion_matrix(tally, [], sparse=True) == {}


@settings(max_examples=150, deadline=None)
@given(
    tally=tallies(),
    names=st.lists(st.sampled_from([*SCORED_TYPES, "ABSENT"]), max_size=5, unique=True),
    beta=st.sampled_from(BETAS),
    zero_division=st.sampled_from(ZERO_DIVISIONS),
    partial_credit=st.sampled_from([0.5, 0.25, 1.0, 0.0, "overlap"]),
    schemes=st.lists(st.sampled_from(["strict", "exact", "partial", "type"]), min_size=1, unique=True),
)
def test_two_sided_scores_are_the_per_type_scores_of_the_buckets(
    tally, names, beta, zero_division, partial_credit, schemes
) -> None:
    # docs/scoring.md §11: an entity-level slice scores its buckets as per-type scores are (§5), its tally's types
    # the buckets: each bucket with an entity on either side, in the order of `names`, has the keys and values of
    # `scores`' per type (`{bucket}_{scheme}_{P, R, F, possible, actual}`) without the bucket's name before them.
    # A bucket's tally counts no overlap credit: its PARs count a half, whatever credit the tally holds.
    options = Options.of(
        beta=beta, zero_division=zero_division, partial_credit=partial_credit, evaluation_schemes=schemes
    )
    schemes = options.evaluation_schemes  # (in the table's order)
    if partial_credit == "overlap":
        tally = dataclasses.replace(tally, credit={("PER", "PER"): Fraction(1, 3), ("A", "B"): Fraction(5, 7)})
    found = result_scores.two_sided_scores(tally, names, options)
    credit = 0.5 if partial_credit == "overlap" else partial_credit
    per_type = scores(tally, options.evolve(per_type=True, labels=names or None, partial_credit=credit))
    keys = ("precision", "recall", options.f_name, "possible", "actual")
    expected = {
        name: {f"{scheme}_{key}": per_type[f"{name}_{scheme}_{key}"] for scheme in schemes for key in keys}
        for name in names
        if per_type[f"{name}_{schemes[0]}_possible"] or per_type[f"{name}_{schemes[0]}_actual"]
    }
    assert list(found) == list(expected)
    for name, values in expected.items():
        assert list(found[name]) == list(values)
        for key, value in values.items():
            assert type(found[name][key]) is type(value), key
            assert math.copysign(1, found[name][key]) == math.copysign(1, value) and found[name][key] == value, key
