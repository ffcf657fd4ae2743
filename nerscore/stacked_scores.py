"""`result_scores.scores_of` of many tallies at once (a slice's buckets, docs/scoring.md §11): every tally's cells
stacked into one table whose types are (tally, type) pairs, counted with a handful of numpy operations and scored
by `measures.Rule.exact` in one call for every total and one for every type, the macro means by
`Ratios.grouped_means`, where `scores_of` reads each tally in turn (0.3 ms a tally: 2.3 s of the 7,500 buckets
of a group slice of 5,000 groups, both systems of compare_semeval).

The ratios are the same exact fractions, each rounded once, so every float is the one `scores_of` gives, to the
bit (docs/scoring.md §4; tests/test_stacked_scores.py compares the two on Hypothesis tallies).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .measures import EXACT_FLOATS, Rule
from .options import EVALUATION_SCHEMES, OVERLAP, Options
from .pairing.rules import SCENARIOS
from .result_scores import (
    SPARSE,
    check_confusion,
    confusion_matrix,
    scores_of,
    stacked_terms,
    type_credits,
    type_terms,
    value_scores,
)
from .tally import COUNT_NAMES, OUTCOMES, CellColumns, CellTable, Tally

# docs/scoring.md §4's table as a matrix: a tally's six scenario totals times it give every scheme's five counts.
_OUTCOMES = np.array(
    [
        [int(OUTCOMES[scenario][scheme] == outcome) for scheme in EVALUATION_SCHEMES for outcome in COUNT_NAMES]
        for scenario in SCENARIOS
    ],
    dtype=np.int64,
)
_SCENARIO_PLACE = {scenario: place for place, scenario in enumerate(SCENARIOS)}


def stacked_scores(tallies: Sequence[Tally], options: Options | None = None) -> list[dict[str, Any]]:
    """`scores_of(tallies, options)`: the same dicts, the same floats, computed for every tally at once. The
    overlap credit (partial_credit="overlap", each tally's own sums) and a tally of 2**51 entities or more go
    through `scores_of`."""
    options = Options() if options is None else options
    stack = None
    if len(tallies) > 1 and options.partial_credit != OVERLAP:
        labels = list(dict.fromkeys(options.labels)) if options.labels is not None else None
        stack = _Stack.of(tallies, labels)
    if stack is None:
        return scores_of(tallies, options)
    if options.confusion:  # refused before anything is scored (docs/scoring.md §7)
        for position in range(len(tallies)):
            check_confusion(stack.entity_types(position), sparse=options.confusion == SPARSE)
    schemes = options.evaluation_schemes
    counts = stack.scheme_counts()[:, [EVALUATION_SCHEMES.index(scheme) for scheme in schemes]]
    rule = Rule.of(options)
    # Every tally's schemes' totals in one exact computation, tally by tally, and every (tally, type) of every
    # scheme in another, scheme by scheme: each row's ratio is its own, whichever rows share the arrays.
    shape = (len(tallies), len(schemes))
    overall = [value.reshape(shape).tolist() for value in rule.exact(*_totals(counts, schemes, options)).values()]
    columns = stack.columns
    terms = []
    for scheme in schemes:
        sides = columns.totals_by_type(scheme)
        numeric = scheme == "partial" and options.partial_credit != 0.5  # docs/scoring.md §10
        terms.append(type_terms(*sides, type_credits(*sides, None, options, columns) if numeric else None))
    type_ratios = rule.exact(*stacked_terms(scheme_terms[:4] for scheme_terms in terms))
    size = columns.types
    scheme_ratios = [type_ratios.rows(index * size, (index + 1) * size) for index in range(len(schemes))]
    means = [ratios.grouped_means(stack.starts, options.zero_division) for ratios in scheme_ratios]
    per_type = None
    if options.per_type:  # each scheme's P, R, F, POS and ACT of every (tally, type)
        per_type = [
            [column.tolist() for column in (*ratios.values(), *scheme_terms[4:])]
            for ratios, scheme_terms in zip(scheme_ratios, terms)
        ]
    f_name = options.f_name
    names = ("precision", "recall", f_name)
    # Each scheme's keys in `scores`' order: P, R, F, the five counts, POS, ACT, the macro P, R, F.
    keys = [
        [f"{scheme}_{name}" for name in (*names, *COUNT_NAMES.values(), "possible", "actual")]
        + [f"{scheme}_macro_{name}" for name in names]
        for scheme in schemes
    ]
    type_keys = [[f"_{scheme}_{name}" for name in (*names, "possible", "actual")] for scheme in schemes]
    results = []
    for position, (tally, tally_counts) in enumerate(zip(tallies, counts.tolist())):
        result: dict[str, Any] = {}
        for index, scheme_counts in enumerate(tally_counts):
            correct, incorrect, partial, missed, spurious = scheme_counts
            values = [measure[position][index] for measure in overall]
            values += [*scheme_counts, correct + incorrect + partial + missed, correct + incorrect + partial + spurious]
            values += [measure[position] for measure in means[index]]
            result.update(zip(keys[index], values))
        _tail(result, tally, options, stack, position, per_type, type_keys)
        results.append(result)
    return results


def _tail(
    result: dict[str, Any],
    tally: Tally,
    options: Options,
    stack: _Stack,
    position: int,
    per_type: list[list[list[Any]]] | None,
    type_keys: list[list[str]],
) -> None:
    """`scores`' keys after the schemes', in its order: token accuracy, ungrounded, value, per type, confusion."""
    if tally.tokens is not None:
        tokens = tally.tokens
        result["token_accuracy"] = tokens.equal / tokens.tokens if tokens.tokens else float(options.zero_division)
    if tally.ungrounded is not None:
        result["ungrounded"] = tally.ungrounded  # docs/scoring.md §1b
    entity_types = stack.entity_types(position) if options.per_type or options.confusion else []
    if options.value is not None:
        result.update(value_scores(tally, options, entity_types if options.per_type else None))
    if per_type is not None:
        first, last = int(stack.starts[position]), int(stack.starts[position]) + len(entity_types)
        for scheme_keys, type_columns in zip(type_keys, per_type):
            # Type by type, the five keys of each in turn, as `scores` writes them.
            for entity_type, *type_values in zip(entity_types, *(column[first:last] for column in type_columns)):
                result.update(zip([entity_type + key for key in scheme_keys], type_values))
    if options.confusion:
        result["confusion"] = confusion_matrix(tally, entity_types, sparse=options.confusion == SPARSE)


def _totals(counts: np.ndarray, schemes: Sequence[str], options: Options) -> list[np.ndarray]:
    """Every tally's schemes' (precision credit, ACT, recall credit, POS) as `Rule.exact` takes them, tally by
    tally, scheme by scheme: COR + PAR / 2 over ACT and POS counted in halves, or with another partial credit
    n / d (docs/scoring.md §10) the partial scheme's in d-ths (the same ratios as `result_scores`' reduced ones)."""
    correct, incorrect, partial, missed, spurious = np.moveaxis(counts, -1, 0)
    possible = correct + incorrect + partial + missed
    actual = correct + incorrect + partial + spurious
    credit = 2 * correct + partial
    terms = [credit, 2 * actual, credit, 2 * possible]
    if options.partial_credit != 0.5 and "partial" in schemes:
        from fractions import Fraction

        place = list(schemes).index("partial")
        share = Fraction(options.partial_credit)
        n, d = share.numerator, share.denominator  # Python integers, exact whatever their size
        terms = [term.astype(object) for term in terms]
        scheme_credit = d * correct[:, place].astype(object) + n * partial[:, place].astype(object)
        terms[0][:, place] = terms[2][:, place] = scheme_credit
        terms[1][:, place] = d * actual[:, place].astype(object)
        terms[3][:, place] = d * possible[:, place].astype(object)
    return [term.reshape(-1) for term in terms]


@dataclass(frozen=True)
class _Stack:
    """The cells of several tallies as one `CellColumns` whose types are (tally, type) pairs, tally by tally, each
    tally's types sorted (or `labels`, for each): `starts`, each tally's first row of them, and `names`, each
    row's type; `tally`, each cell's tally."""

    columns: CellColumns
    starts: np.ndarray
    names: list[str]
    tally: np.ndarray
    tallies: int

    def entity_types(self, position: int) -> list[str]:
        """The scored types of tally `position`, as `CellColumns.of(tally, labels)` gives them."""
        stop = self.starts[position + 1] if position + 1 < self.tallies else len(self.names)
        return self.names[int(self.starts[position]) : int(stop)]

    def scheme_counts(self) -> np.ndarray:
        """Every tally's every scheme's counts (tallies x schemes x 5), from its six scenario totals."""
        by_scenario = np.bincount(
            self.tally * len(SCENARIOS) + self.columns.scenario, self.columns.number, self.tallies * len(SCENARIOS)
        )
        totals = by_scenario.astype(np.int64).reshape(self.tallies, len(SCENARIOS)) @ _OUTCOMES
        return totals.reshape(self.tallies, len(EVALUATION_SCHEMES), len(COUNT_NAMES))

    @classmethod
    def of(cls, tallies: Sequence[Tally], labels: list[str] | None) -> _Stack | None:
        """The stack of `tallies`, or None where a tally holds 2**51 entities or more (`scores_of` refuses it)."""
        names: dict[str, int] = {}  # every type of every tally, numbered as first met
        parts: list[tuple[np.ndarray, ...]] = []
        lookups: dict[int, tuple[Sequence[str], np.ndarray]] = {}  # a CellTable's type ids to `names`' (-1 last)
        for cells in (tally.cells for tally in tallies):
            if isinstance(cells, CellTable):
                found = lookups.get(id(cells.type_names))
                if found is None:
                    ids = [names.setdefault(name, len(names)) for name in cells.type_names]
                    found = lookups[id(cells.type_names)] = (cells.type_names, np.array([*ids, -1], dtype=np.int64))
                lookup = found[1]
                parts.append((cells.scenario, lookup[cells.reference_type], lookup[cells.predicted_type], cells.number))
                continue
            size = len(cells)
            scenarios, reference_types, predicted_types = zip(*cells) if size else ((), (), ())
            side_ids = (
                np.fromiter(
                    (-1 if name is None else names.setdefault(name, len(names)) for name in side), np.int64, size
                )
                for side in (reference_types, predicted_types)
            )
            scenario = np.fromiter(map(_SCENARIO_PLACE.__getitem__, scenarios), np.int64, size)
            parts.append((scenario, *side_ids, np.fromiter(cells.values(), np.int64, size)))
        lengths = np.fromiter((len(part[0]) for part in parts), np.int64, len(parts))
        tally = np.repeat(np.arange(len(tallies)), lengths)
        empty = np.zeros(0, dtype=np.int64)
        scenario, reference, predicted, number = (np.concatenate([empty, *column]) for column in zip(*parts))
        # CellColumns.of's bound, with room for a float sum's rounding: every count then stays exact.
        if np.bincount(tally, number, len(tallies)).max(initial=0) >= EXACT_FLOATS // 4:
            return None
        sides, type_names, starts = _positions(tally, (reference, predicted), names, labels, len(tallies))
        totals = []
        types = len(type_names)
        for side in sides:
            scored = side >= 0
            counted = np.bincount(scenario[scored] * types + side[scored], number[scored], len(SCENARIOS) * types)
            totals.append(counted.astype(np.int64).reshape(len(SCENARIOS), types))
        columns = CellColumns(scenario, sides[0], sides[1], number, type_names, totals[0], totals[1])
        return cls(columns, starts, type_names, tally, len(tallies))


def _positions(
    tally: np.ndarray,
    sides: tuple[np.ndarray, np.ndarray],
    names: dict[str, int],
    labels: list[str] | None,
    tallies: int,
) -> tuple[list[np.ndarray], list[str], np.ndarray]:
    """Each cell's reference and predicted (tally, type) row (-1 for none, or a type not in `labels`), each row's
    type, and each tally's first row."""
    if labels is not None:
        index = dict(zip(labels, range(len(labels))))
        place = np.array([*(index.get(name, -1) for name in names), -1], dtype=np.int64)
        width = len(labels)
        positions = []
        for side in sides:
            local = place[side]
            positions.append(np.where(local >= 0, tally * width + local, -1))
        return positions, labels * tallies, np.arange(tallies, dtype=np.int64) * width
    # Each tally's types sorted by name: the key of a (tally, type) pair is the tally, then the type's rank.
    ordered = sorted(names)
    rank = np.zeros(len(names) + 1, dtype=np.int64)
    rank[[names[name] for name in ordered]] = np.arange(len(ordered))
    keys = [np.where(side >= 0, tally * len(names) + rank[side], -1) for side in sides]
    distinct = np.unique(np.concatenate([key[key >= 0] for key in keys]))
    positions = [np.where(key >= 0, np.searchsorted(distinct, key), -1) for key in keys]
    starts = np.searchsorted(distinct, np.arange(tallies, dtype=np.int64) * len(names))
    type_names = [ordered[at] for at in (distinct % max(len(names), 1)).tolist()]
    return positions, type_names, starts
