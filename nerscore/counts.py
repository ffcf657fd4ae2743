"""Counts, the tally and scores (docs/scoring.md §4, §5, §7): what adds over sentences, and the dict it reduces to."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from .options import EVALUATION_SCHEMES, Options
from .pairing import scenario_of
from .schemes import OUTSIDE
from .span import Span

COR, INC, PAR, MIS, SPU = "COR", "INC", "PAR", "MIS", "SPU"

# docs/scoring.md §4: the outcome of each scenario under strict, exact, partial and type.
OUTCOMES: dict[str, dict[str, str]] = {
    "I": {"strict": COR, "exact": COR, "partial": COR, "type": COR},
    "II": {"strict": SPU, "exact": SPU, "partial": SPU, "type": SPU},
    "III": {"strict": MIS, "exact": MIS, "partial": MIS, "type": MIS},
    "IV": {"strict": INC, "exact": COR, "partial": COR, "type": INC},
    "V": {"strict": INC, "exact": INC, "partial": PAR, "type": COR},
    "VI": {"strict": INC, "exact": INC, "partial": PAR, "type": INC},
}
COUNT_NAMES = {COR: "correct", INC: "incorrect", PAR: "partial", MIS: "missed", SPU: "spurious"}
_COUNT_INDEX = {outcome: index for index, outcome in enumerate(COUNT_NAMES)}  # in the order of Counts' fields


@dataclass(frozen=True)
class Counts:
    """MUC counts under one scheme, read off a `Tally` (which is what adds); POS and ACT are derived."""

    correct: int = 0
    incorrect: int = 0
    partial: int = 0
    missed: int = 0
    spurious: int = 0

    @property
    def possible(self) -> int:
        return self.correct + self.incorrect + self.partial + self.missed

    @property
    def actual(self) -> int:
        return self.correct + self.incorrect + self.partial + self.spurious


@dataclass(frozen=True)
class TokenCounts:
    """Of tag and id input: the tokens compared (after `ignore_index`) and those whose predicted tag is the same
    string as the reference tag, the numerator and denominator of `token_accuracy` (docs/scoring.md §7)."""

    tokens: int = 0
    equal: int = 0

    def __add__(self, other: TokenCounts) -> TokenCounts:
        return TokenCounts(self.tokens + other.tokens, self.equal + other.equal)


# (scenario, reference type or None, predicted type or None): what a `Tally` counts.
Cell = tuple[str, str | None, str | None]
# (sentence, reference entity or None, predicted entity or None): a row of the readable path.
Row = tuple[int, Span | None, Span | None]


@dataclass(frozen=True)
class Tally:
    """How many entity pairs and unpaired entities fell into each (scenario, reference type, predicted type).

    This is the whole additive statistic: batches, processes and sentences sum, and every score of every
    scheme, overall or per type, is derived from it at the end (sacrebleu's pattern).
    """

    cells: Mapping[Cell, int] = dataclasses.field(default_factory=dict)
    # Tag and id input only: spans have no tokens, and their results no `token_accuracy`.
    tokens: TokenCounts | None = None

    def __add__(self, other: Tally) -> Tally:
        cells = Counter(self.cells)
        cells.update(other.cells)
        if self.tokens is None and other.tokens is None:
            return Tally(dict(cells))
        return Tally(dict(cells), (self.tokens or TokenCounts()) + (other.tokens or TokenCounts()))

    @classmethod
    def of_rows(cls, rows: Iterable[tuple[Span | None, Span | None]]) -> Tally:
        cells = Counter(
            (scenario_of(r, p), None if r is None else r.entity_type, None if p is None else p.entity_type)
            for r, p in rows
        )
        return cls(dict(cells))

    @property
    def entity_types(self) -> list[str]:
        """The types seen on either side, sorted."""
        return sorted({t for _, r, p in self.cells for t in (r, p) if t is not None})

    def counts(self, scheme: str) -> Counts:
        """Counts over all types under `scheme`: POS is the number of reference entities, ACT of predicted."""
        totals = [0] * len(COUNT_NAMES)
        for (scenario, _, _), number in self.cells.items():
            totals[_COUNT_INDEX[OUTCOMES[scenario][scheme]]] += number
        return Counts(*totals)

    def counts_by_type(self, scheme: str) -> tuple[dict[str, Counts], dict[str, Counts]]:
        """Two-sided per-type counts under `scheme` (docs/scoring.md §5): the outcomes of the reference entities of each
        type (their recall side: COR/INC/PAR/MIS) and of the predicted entities of each type (their precision
        side: COR/INC/PAR/SPU). Unlike nervaluate, a PER reference predicted as LOC stays one INC on each side
        instead of becoming a PER miss and a LOC spurious, so the sides sum to the overall POS and ACT."""
        reference_side, prediction_side = self._totals_by_type(scheme)
        return (
            {entity_type: Counts(*totals) for entity_type, totals in reference_side.items()},
            {entity_type: Counts(*totals) for entity_type, totals in prediction_side.items()},
        )

    def _totals_by_type(self, scheme: str) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        # `counts_by_type` as plain integer lists in the order of Counts' fields: with thousands of types, a
        # Counts per type would cost more than all the rest of `scores`.
        reference_side: dict[str, list[int]] = {}
        prediction_side: dict[str, list[int]] = {}
        for (scenario, reference_type, predicted_type), number in self.cells.items():
            index = _COUNT_INDEX[OUTCOMES[scenario][scheme]]
            if reference_type is not None:
                reference_side.setdefault(reference_type, [0] * len(COUNT_NAMES))[index] += number
            if predicted_type is not None:
                prediction_side.setdefault(predicted_type, [0] * len(COUNT_NAMES))[index] += number
        return reference_side, prediction_side


class Counted(NamedTuple):
    """What one pass over a batch counts: the tally, and each sentence's scenario counts when asked for."""

    tally: Tally
    by_sentence: np.ndarray | None  # (sentences, 6) scenario counts I to VI, for the statistics (resampling)


# Scores are exact fractions until they leave `scores`, so the worked example's 0.2 is 0.2, not
# 0.20000000000000004, and every key is the correctly rounded value of its formula (docs/scoring.md §4).


def scores(tally: Tally, options: Options | None = None) -> dict[str, Any]:
    """The flat docs/scoring.md §7 dict of a tally, in plain `int` and `float`.

    Macro averages are unweighted means over the types seen on either side, or over `labels` when given
    (a label with no entity then scores as a type with no entity on either side)."""
    options = Options() if options is None else options
    f_name = options.f_name
    entity_types = list(dict.fromkeys(options.labels)) if options.labels is not None else tally.entity_types
    ratios = _Ratios(options)
    no_entity = [0] * len(COUNT_NAMES)
    result: dict[str, Any] = {}
    type_results: dict[str, int | float] = {}
    for scheme in options.evaluation_schemes:  # all four unless the caller asks for fewer
        counts = tally.counts(scheme)
        precision, recall, f = ratios.precision_recall_f(counts.correct, counts.partial, counts.actual, counts.possible)
        result[f"{scheme}_precision"] = precision[0] / precision[1]
        result[f"{scheme}_recall"] = recall[0] / recall[1]
        result[f"{scheme}_{f_name}"] = f[0] / f[1]
        for field in COUNT_NAMES.values():
            result[f"{scheme}_{field}"] = getattr(counts, field)
        result[f"{scheme}_possible"] = counts.possible
        result[f"{scheme}_actual"] = counts.actual

        reference_side, prediction_side = tally._totals_by_type(scheme)
        # The macro sums, exact: numerators summed per denominator, since thousands of types share a few.
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
    if tally.tokens is not None:
        # conlleval's accuracy line and seqeval's accuracy_score, over tokens rather than entities.
        tokens = tally.tokens
        result["token_accuracy"] = tokens.equal / tokens.tokens if tokens.tokens else float(options.zero_division)
    result.update(type_results)
    if options.confusion:
        result["confusion"] = confusion_matrix(tally, entity_types)
    return result


class _Ratios:
    """Precision, recall and F (docs/scoring.md §4) as exact integer ratios (numerator, denominator), reduced to
    a float once by a correctly rounded integer division: exact like `Fraction`, without building a Fraction
    per type and scheme.

    As in scikit-learn, `zero_division` enters only through P and R: F is `zero_division` when neither side
    has an entity, and 0 for a system whose entities are all wrong, whatever `zero_division` says."""

    def __init__(self, options: Options) -> None:
        zero_division = Fraction(options.zero_division)
        self.zero_division = (zero_division.numerator, zero_division.denominator)
        beta2 = Fraction(options.beta) ** 2
        self.beta2 = (beta2.numerator, beta2.denominator)

    def share(self, credit: int, total: int) -> tuple[int, int]:
        """credit / total; `zero_division` when total is 0."""
        return (credit, total) if total else self.zero_division

    def f(self, precision: tuple[int, int], recall: tuple[int, int]) -> tuple[int, int]:
        """(1 + β²)·P·R / (β²·P + R), 0 where β²·P + R = 0: with P = a/b, R = c/d and β² = n/m, that is
        (m + n)·a·c / (n·a·d + m·c·b)."""
        (a, b), (c, d), (n, m) = precision, recall, self.beta2
        denominator = n * a * d + m * c * b
        return ((m + n) * a * c, denominator) if denominator else (0, 1)

    def precision_recall_f(self, correct: int, partial: int, actual: int, possible: int) -> tuple[tuple[int, int], ...]:
        precision = self.share(2 * correct + partial, 2 * actual)
        recall = self.share(2 * correct + partial, 2 * possible)
        return precision, recall, self.f(precision, recall)


def confusion_matrix(tally: Tally, entity_types: Sequence[str]) -> dict[str, dict[str, int]]:
    """The entity-type confusion matrix of a tally (docs/scoring.md §7): ``matrix[reference][predicted]`` counts
    the pairs of the pairing by their two types, an unpaired reference at ``[type]["O"]`` and an unpaired
    prediction at ``["O"][type]``. A full square over `entity_types` (sorted) and ``"O"`` last, zeros included,
    so that ``pandas.DataFrame(matrix).T`` shows it with references as rows."""
    names = [*sorted(entity_types), OUTSIDE]
    matrix = {reference: dict.fromkeys(names, 0) for reference in names}
    for (_, reference_type, predicted_type), number in tally.cells.items():
        matrix[reference_type or OUTSIDE][predicted_type or OUTSIDE] += number
    return matrix


def entity_rows(rows: Iterable[Row], schemes: Sequence[str] = EVALUATION_SCHEMES) -> list[dict[str, Any]]:
    """The `entities` output: one JSON-ready dict per pair or unpaired entity (docs/scoring.md §7), with its
    outcome under each of `schemes` (the option `evaluation_schemes`)."""
    result = []
    for sentence, reference, prediction in rows:
        scenario = scenario_of(reference, prediction)
        outcomes = OUTCOMES[scenario]
        result.append(
            {
                "sentence": sentence,
                "reference": reference.as_dict() if reference is not None else None,
                "prediction": prediction.as_dict() if prediction is not None else None,
                "scenario": scenario,
                **{scheme: outcomes[scheme] for scheme in schemes},
            }
        )
    return result
