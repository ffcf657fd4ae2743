"""The scores of one tally or many (a slice's buckets, docs/scoring.md §11) as the lists `result_scores.scores_of`
writes into each tally's dict: every scheme's counts, its P, R and F, its macro P, R and F, and each type's P, R, F,
POS and ACT (docs/scoring.md §4, §5, §10), each float the correctly rounded value of its exact ratio.

The tallies' cells are laid out as `_Stack`s: one `CellColumns` a tally (one tally; the overlap credit, each tally's
own sums; a tally of 2**51 entities or more), or every tally's cells stacked into one `CellColumns` whose types are
(tally, type) pairs, counted with a handful of numpy operations (many tallies: read in turn, each cost 0.3 ms, 2.3 s
of the 7,500 buckets of a group slice of 5,000 groups). Either way every total of every tally is scored by
`measures.Rule.exact` in one call, every (tally, type) row in another, and the macro means by one
`Ratios.grouped_means`. The ratios are exact fractions until they are rounded once, so the worked example's 0.2 is
0.2, not 0.20000000000000004, and a tally scores the same floats, to the bit, alone or beside others
(tests/test_stacked_scores.py). The value score's sums (§10) are exact the same way: integers over one common
denominator (`ValueSums`), of which `result_scores.value_scores` takes its ratios.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .grouping import lengths, owners
from .measures import EXACT_FLOATS, Rule, possible_actual
from .option_checks import OVERLAP
from .options import EVALUATION_SCHEMES, Options
from .pairing.rules import SCENARIO_INDEX
from .tally import Cell, CellColumns, CellTable, Tally

if TYPE_CHECKING:
    from fractions import Fraction

    from .pairing.value import WeightTable
# (fractions, and decimal, 1.4 ms of `import nerscore`, are imported by the functions that make a Fraction: those of
# a partial credit other than a half)


@dataclass(frozen=True)
class StackedScores:
    """What `result_scores.scores_of` writes of each of several tallies, read by the tally's position: each scheme's
    values (`scheme_values`), each tally's scored types (`entity_types`) and, per type, their columns
    (`type_columns`)."""

    counts: list[list[list[int]]]  # tally, scheme: COR, INC, PAR, MIS, SPU
    overall: list[list[float]]  # P's, R's and F's lists of every tally's schemes, tally by tally
    means: list[list[float]]  # the macro P's, R's and F's lists of every scheme's tallies, scheme by scheme
    # per_type: each scheme's P, R, F, POS and ACT lists of every (tally, type) row; else empty
    per_type: list[list[list[Any]]]
    firsts: list[int]  # each tally's first (tally, type) row, and its number of rows
    sizes: list[int]
    places: list[tuple[_Stack, int]]  # each tally's stack and position in it

    @classmethod
    def of(
        cls,
        tallies: Sequence[Tally],
        options: Options,
        check_types: Callable[[list[str]], None] | None = None,
        totals: bool = True,
        types: Sequence[str] | None = None,
    ) -> StackedScores:
        """The scores of `tallies` under `options`; `check_types`, called with each tally's scored types before
        anything is scored, may refuse them (the confusion matrix's check, docs/scoring.md §7). Without `totals`,
        the types' columns alone (no counts, overall or macro scores: a slice's buckets scored as types are,
        `result_scores.two_sided_scores`). The scored types (the rows, and the macro's) are `types` where given,
        else `labels`, else each tally's own; the totals are always every cell's."""
        scored = options.labels if types is None else types
        labels = list(dict.fromkeys(scored)) if scored is not None else None
        stacks = _stacks(tallies, options, labels, check_types)
        if not stacks:
            return cls([], [[], [], []], [[], [], []], [], [], [], [])
        schemes = options.evaluation_schemes  # all four unless the caller asks for fewer
        rule = Rule.of(options)
        # Every (tally, type) row of every scheme in one exact computation, scheme by scheme, and every tally's
        # schemes' totals in another, tally by tally: each row's ratio is its own, whichever rows share the arrays.
        by_scheme = [[_type_terms(stack, scheme, options) for stack in stacks] for scheme in schemes]
        # (each of the four terms as one array: every scheme's stacks, one after the other)
        terms = [np.concatenate(term) for term in zip(*(part[:4] for parts in by_scheme for part in parts))]
        type_ratios = rule.exact(*terms)
        firsts, rows = stacks[0].starts, stacks[0].columns.types
        if len(stacks) > 1:  # (one a tally) the stacks' rows one after the other
            offsets = np.cumsum([0] + [stack.columns.types for stack in stacks])
            firsts, rows = np.concatenate([stack.starts + at for stack, at in zip(stacks, offsets)]), int(offsets[-1])
        counts: list[list[list[int]]] = []
        overall: list[list[float]] = [[], [], []]
        means: list[list[float]] = [[], [], []]
        if totals:
            # Every tally's every scheme's counts (tallies x schemes x 5), from its six scenario totals.
            by_stack = [stack.columns.scheme_counts(stack.tally, stack.tallies) for stack in stacks]
            summed = by_stack[0] if len(by_stack) == 1 else np.concatenate(by_stack)
            if tuple(schemes) != EVALUATION_SCHEMES:
                summed = summed[:, [EVALUATION_SCHEMES.index(scheme) for scheme in schemes]]
            overall = [value.tolist() for value in rule.exact(*_totals(summed, schemes, options, tallies)).values()]
            counts = summed.tolist()
            # Every scheme's macro means of every tally in one call: group (scheme, tally) holds the tally's rows of
            # the scheme's block (each group's means are its own).
            starts = (np.arange(len(schemes), dtype=np.int64)[:, None] * rows + firsts).reshape(-1)
            means = type_ratios.grouped_means(starts, options.zero_division)
        per_type = []
        if options.per_type:  # each scheme's P, R, F, POS and ACT of every (tally, type) row
            for index, parts in enumerate(by_scheme):
                ratios = type_ratios.rows(index * rows, (index + 1) * rows)
                sides = [parts[0][at] if len(parts) == 1 else np.concatenate([t[at] for t in parts]) for at in (4, 5)]
                per_type.append([column.tolist() for column in (*ratios.values(), *sides)])
        places = [(stack, position) for stack in stacks for position in range(stack.tallies)]
        first_rows = firsts.tolist()
        sizes = [stop - start for start, stop in zip(first_rows, [*first_rows[1:], rows])]
        return cls(counts, overall, means, per_type, first_rows, sizes, places)

    def scheme_values(self, position: int) -> list[list[Any]]:
        """Tally `position`'s values of each scheme in `scores`' order: P, R, F, the five counts, POS, ACT, the macro
        P, R, F."""
        precision, recall, f = self.overall
        macro_precision, macro_recall, macro_f = self.means
        tallies = len(self.counts)
        found = []
        for index, counts in enumerate(self.counts[position]):
            at, mean_at = position * len(self.counts[position]) + index, index * tallies + position
            found.append(
                [
                    *(precision[at], recall[at], f[at], *counts, *possible_actual(*counts)),
                    *(macro_precision[mean_at], macro_recall[mean_at], macro_f[mean_at]),
                ]
            )
        return found

    def entity_types(self, position: int) -> list[str]:
        """Tally `position`'s scored types: `labels`, or its types sorted (alone and not per type: as its cells first
        name them, `CellColumns.of`)."""
        stack, at = self.places[position]
        return stack.entity_types(at)

    def type_columns(self, position: int) -> list[list[list[Any]]]:
        """Tally `position`'s P, R, F, POS and ACT lists of each scheme, a row a type (with `per_type`)."""
        first, stop = self.firsts[position], self.firsts[position] + self.sizes[position]
        return [[_part(column, first, stop) for column in columns] for columns in self.per_type]


def _part(values: list[Any], start: int, stop: int) -> list[Any]:
    """values[start:stop], without a copy where that is all of them (one tally's 100,000 types)."""
    return values if start == 0 and stop == len(values) else values[start:stop]


@dataclass(frozen=True)
class _Stack:
    """The cells of one or more tallies as one `CellColumns` whose types are (tally, type) pairs, tally by tally, each
    tally's types sorted (or `labels`, for each; one tally alone: as `CellColumns.of` orders them): `starts`, each
    tally's first row of them; `tally`, each cell's tally, or None for one tally, `alone`."""

    columns: CellColumns
    starts: np.ndarray
    tally: np.ndarray | None
    alone: Tally | None = None

    @property
    def tallies(self) -> int:
        return len(self.starts)

    def entity_types(self, position: int) -> list[str]:
        """The scored types of tally `position`, as `CellColumns.of(tally, labels)` gives them."""
        names = self.columns.entity_types
        if self.tally is None:
            return names
        stop = self.starts[position + 1] if position + 1 < self.tallies else len(names)
        return names[int(self.starts[position]) : int(stop)]

    @classmethod
    def one(cls, tally: Tally, labels: list[str] | None, ordered: bool) -> _Stack:
        """One tally's stack: its own `CellColumns` (`ordered`: its types sorted, where their order shows)."""
        return cls(CellColumns.of(tally, labels, ordered), np.zeros(1, dtype=np.int64), None, tally)

    @classmethod
    def of(cls, tallies: Sequence[Tally], labels: list[str] | None) -> _Stack | None:
        """The stack of `tallies`, or None where a tally holds 2**51 entities or more (`CellColumns.of` refuses
        2**52: such a tally is scored alone)."""
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
            scenario = np.fromiter(map(SCENARIO_INDEX.__getitem__, scenarios), np.int64, size)
            parts.append((scenario, *side_ids, np.fromiter(cells.values(), np.int64, size)))
        tally = owners(lengths([part[0] for part in parts]))
        empty = np.zeros(0, dtype=np.int64)
        scenario, reference, predicted, number = (np.concatenate([empty, *column]) for column in zip(*parts))
        # CellColumns.of's bound, with room for a float sum's rounding: every count then stays exact.
        if np.bincount(tally, number, len(tallies)).max(initial=0) >= EXACT_FLOATS // 4:
            return None
        sides, type_names, starts = _positions(tally, (reference, predicted), names, labels, len(tallies))
        return cls(CellColumns.summed(scenario, sides[0], sides[1], number, type_names), starts, tally)


def _stacks(
    tallies: Sequence[Tally],
    options: Options,
    labels: list[str] | None,
    check_types: Callable[[list[str]], None] | None,
) -> list[_Stack]:
    """The stacks of `tallies`: one for all of them where that holds, else one a tally; each tally's types
    checked by `check_types` in turn, before anything is scored."""
    if len(tallies) > 1 and options.partial_credit != OVERLAP:
        stack = _Stack.of(tallies, labels)
        if stack is not None:
            if check_types is not None:
                for position in range(len(tallies)):
                    check_types(stack.entity_types(position))
            return [stack]
    stacks = []
    for tally in tallies:
        stack = _Stack.one(tally, labels, ordered=options.per_type)  # the types' order shows only per type
        if check_types is not None:
            check_types(stack.entity_types(0))
        stacks.append(stack)
    return stacks


def _type_terms(stack: _Stack, scheme: str, options: Options) -> tuple[np.ndarray, ...]:
    """`type_terms` of every (tally, type) row of `stack` under `scheme`."""
    columns = stack.columns
    if scheme != "partial" or options.partial_credit == 0.5:
        return columns.half_terms(scheme)  # (type_terms of the half point's credit, without the five counts)
    sides = columns.totals_by_type(scheme)  # docs/scoring.md §10: a PAR's credit other than a half
    return type_terms(*sides, type_credits(*sides, stack.alone, options, columns))


def _totals(counts: np.ndarray, schemes: Sequence[str], options: Options, tallies: Sequence[Tally]) -> list[np.ndarray]:
    """Every tally's schemes' (precision credit, ACT, recall credit, POS) as `Rule.exact` takes them, tally by
    tally, scheme by scheme: COR + PAR / 2 over ACT and POS counted in halves, or with another credit n / d of the
    partial scheme's PARs (docs/scoring.md §10: partial_credit · PAR, or with "overlap" the tally's summed shares) in
    d-ths."""
    terms = list(np.moveaxis(counts @ _HALF_TOTALS, -1, 0))  # (the credits in halves, as the totals)
    if options.partial_credit != 0.5 and "partial" in schemes:
        from fractions import Fraction

        place = list(schemes).index("partial")
        # The partial scheme's counts of each tally, as Python integers in object arrays: exact whatever their size.
        scheme_counts = counts[:, place].T.astype(object)
        possible, actual = possible_actual(*scheme_counts)
        shares = None
        if options.partial_credit == OVERLAP:
            shares = [sum((tally.credit or {}).values(), Fraction(0)) for tally in tallies]
        correct, partial = scheme_counts[0], scheme_counts[2]
        terms = [term.astype(object) for term in terms]
        terms[0][:, place], terms[1][:, place] = _exact_credit(correct, partial, actual, options, shares)
        terms[2][:, place], terms[3][:, place] = _exact_credit(correct, partial, possible, options, shares)
    return [term.reshape(-1) for term in terms]


def _exact_credit(
    correct: np.ndarray, partial: np.ndarray, total: np.ndarray, options: Options, shares: list[Fraction] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """COR + c·PAR over `total` in d-ths, exact (Python integers in object arrays): (d·COR + n, d·total) with n / d
    the partial credit c times PAR (docs/scoring.md §10: a credit other than a half), or with "overlap" each row's
    summed shares `shares` (`_totals`' of each tally, `type_credits`' of each type on one side)."""
    from fractions import Fraction

    n: Any
    d: Any
    if shares is None:
        credit = Fraction(options.partial_credit)
        n, d = credit.numerator * partial, credit.denominator
    else:
        n = np.array([share.numerator for share in shares] or [0], dtype=object)[: len(shares)]
        d = np.array([share.denominator for share in shares] or [1], dtype=object)[: len(shares)]
    return d * correct + n, d * total


# `_totals`' (2·COR + PAR, 2·ACT, 2·COR + PAR, 2·POS) of each (COR, INC, PAR, MIS, SPU) row, as one product.
_POSSIBLE, _ACTUAL = possible_actual(*np.eye(5, dtype=np.int64))
_HALF_CREDIT = np.array([2, 0, 1, 0, 0], dtype=np.int64)
_HALF_TOTALS = np.column_stack([_HALF_CREDIT, 2 * _ACTUAL, _HALF_CREDIT, 2 * _POSSIBLE])


def type_terms(
    reference_side: np.ndarray,
    prediction_side: np.ndarray,
    credits: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, ...]:
    """What `Rule.exact` takes of every type from `CellColumns.totals_by_type`: (precision credit, ACT, recall
    credit, POS) in halves (COR + PAR / 2), then POS and ACT. `credits`: another partial credit's (recall credit,
    recall total, precision credit, precision total) (`type_credits`)."""
    correct, _, partial, _, _ = reference_side.T
    possible, actual = possible_actual(*reference_side.T)[0], possible_actual(*prediction_side.T)[1]
    if credits is None:
        recall_credit, recall_total = 2 * correct + partial, 2 * possible
        precision_credit, precision_total = 2 * prediction_side[:, 0] + prediction_side[:, 2], 2 * actual
    else:
        recall_credit, recall_total, precision_credit, precision_total = credits
    return precision_credit, precision_total, recall_credit, recall_total, possible, actual


def type_credits(
    reference_side: np.ndarray,
    prediction_side: np.ndarray,
    tally: Tally | None,
    options: Options,
    columns: CellColumns,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The partial scheme's credit of each type, as `type_terms` takes it: (recall credit, recall total,
    precision credit, precision total), the credit of a pair going to the reference's type on the recall side
    and to the prediction's type on the precision side (docs/scoring.md §10). Python integers in object arrays,
    exact whatever their size."""
    from fractions import Fraction

    # Each side's COR, PAR and total (POS of the references, ACT of the predictions) as Python integers.
    sides = [
        (side[:, 0].astype(object), side[:, 2].astype(object), possible_actual(*side.T)[at].astype(object))
        for at, side in enumerate((reference_side, prediction_side))
    ]
    if options.partial_credit != OVERLAP:
        return (*_exact_credit(*sides[0], options), *_exact_credit(*sides[1], options))
    assert tally is not None  # (the overlap credit is a tally's own)
    index = {entity_type: position for position, entity_type in enumerate(columns.entity_types)}
    shares: list[list[Fraction]] = [[Fraction(0)] * columns.types, [Fraction(0)] * columns.types]
    for (reference_type, predicted_type), share in (tally.credit or {}).items():
        for side, entity_type in ((0, reference_type), (1, predicted_type)):
            if entity_type in index:
                shares[side][index[entity_type]] += share
    return (*_exact_credit(*sides[0], options, shares[0]), *_exact_credit(*sides[1], options, shares[1]))


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


# -- the value score's sums (docs/scoring.md §10) ------------------------------------------------------------------

# The rows of `ValueSums.counts`: each scenario's paired cells by the reference's type, the same by the prediction's
# type, the unpaired predictions, the references and the predictions; and which rows each of the five sums
# (`result_scores.VALUE_COLUMNS`) adds.
_KEPT, _KEPT_PRECISION, _UNPAIRED, _REFERENCES, _PREDICTIONS = 0, 6, 12, 13, 14
_VALUE_ROWS = (range(0, 6), range(6, 12), range(12, 13), range(13, 14), range(14, 15))


@dataclass(frozen=True)
class ValueSums:
    """The value score's five sums of each type of a tally's value cells (docs/scoring.md §10: Σ kept over its
    references, Σ kept' over its predictions, the false-alarm cost of its unpaired predictions, the worth of its
    references and of its predictions), exact, as integers over one common `denominator`: each sum of a type is
    its weight times integer counts times the factors, and every weight and factor is a float, an exact fraction.
    The counts are summed per type with numpy and the fractions worked out once per distinct weight: 30,000 types
    weighed one Fraction product a type and scenario took six times the rest of compute_semeval."""

    names: Sequence[str]  # the types, in the order of the counts' columns
    counts: np.ndarray  # (15 x types + 1) int64, the rows above by type, a last column of zeros (no such type)
    multipliers: tuple[int, ...]  # each row's factor (or false_alarm, or 1) times the factors' common denominator
    weight_of: np.ndarray  # each type's weight, as an index into `weights` (types + 1)
    weights: tuple[int, ...]  # each distinct weight times the weights' common denominator
    denominator: int  # the two common denominators' product: every sum's

    @classmethod
    def of(cls, value_cells: Mapping[Cell, int], table: WeightTable) -> ValueSums:
        """The sums of `value_cells` (a mapping of cells to numbers, or a `CellTable`) under `table`'s weights."""
        import math
        from fractions import Fraction

        from .pairing.rules import SCENARIOS

        columns = CellColumns.of(Tally(value_cells), None, ordered=False)
        types, scenario, number = columns.types, columns.scenario, columns.number
        reference, prediction = columns.reference_type, columns.predicted_type
        paired, unpaired = (reference >= 0) & (prediction >= 0), (reference < 0) & (prediction >= 0)
        counts = np.zeros((15, types + 1), dtype=np.int64)
        for first, side in ((_KEPT, reference), (_KEPT_PRECISION, prediction)):
            keys = scenario[paired] * types + side[paired]  # (floats, exact: a tally holds fewer than 2**52 entities)
            counts[first : first + 6, :types] = np.bincount(keys, number[paired], 6 * types).reshape(6, types)
        counts[_UNPAIRED, :types] = np.bincount(prediction[unpaired], number[unpaired], types)
        counts[_REFERENCES, :types] = columns.reference_scenarios.sum(axis=0)
        counts[_PREDICTIONS, :types] = columns.prediction_scenarios.sum(axis=0)
        # Each type's weight: the default unless the weights name it; the distinct ones as fractions (as the
        # WeightTable makes them, exact), each once.
        default, named = table.weights.default_type_weight, dict(table.weights.types)
        distinct: dict[float, int] = {default: 0}
        weight_of = np.zeros(types + 1, dtype=np.int64)
        if named:
            floats = (named.get(name, default) for name in columns.entity_types)
            weight_of[:types] = np.fromiter((distinct.setdefault(w, len(distinct)) for w in floats), np.int64, types)
        fractions = [Fraction(weight) for weight in distinct]
        factors = [table.factor(name) for name in SCENARIOS]
        by_weights = math.lcm(*(weight.denominator for weight in fractions))
        by_factors = math.lcm(*(factor.denominator for factor in (*factors, table.false_alarm)))
        kept = [int(factor * by_factors) for factor in factors]
        multipliers = (*kept, *kept, int(table.false_alarm * by_factors), by_factors, by_factors)
        weights = tuple(int(weight * by_weights) for weight in fractions)
        return cls(columns.entity_types, counts, multipliers, weight_of, weights, by_weights * by_factors)

    def totals(self) -> list[int]:
        """The five sums over all types, as numerators over `denominator`: the counts summed by weight (a float
        sum of integers, exact: fewer than 2**52 entities), each distinct weight multiplied once."""
        weights = len(self.weights)
        keys = np.arange(len(self.counts))[:, None] * weights + self.weight_of[None, :]
        by_weight = np.bincount(keys.ravel(), self.counts.ravel(), len(self.counts) * weights)
        by_weight = by_weight.astype(np.int64).reshape(len(self.counts), weights)
        rows = [sum(w * n for w, n in zip(self.weights, row)) for row in by_weight.tolist()]
        return [sum(self.multipliers[row] * rows[row] for row in column) for column in _VALUE_ROWS]

    def of_types(self, entity_types: Sequence[str]) -> list[np.ndarray]:
        """The five sums of each of `entity_types` (0 for a type of no value cell), as numerators over
        `denominator`: five object arrays of Python integers."""
        index = dict(zip(self.names, range(len(self.names))))
        at = np.fromiter((index.get(name, -1) for name in entity_types), np.int64, len(entity_types))
        weight = np.array(self.weights, dtype=object)[self.weight_of[at]]
        counts = self.counts[:, at].astype(object)
        return [weight * sum(self.multipliers[row] * counts[row] for row in column) for column in _VALUE_ROWS]

    def by_type(self) -> dict[str, tuple[Fraction, ...]]:
        """Each type's five sums as fractions (what was summed a type at a time)."""
        from fractions import Fraction

        columns = self.of_types(self.names)
        return {name: tuple(Fraction(c[i], self.denominator) for c in columns) for i, name in enumerate(self.names)}
