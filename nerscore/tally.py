"""The tally (docs/scoring.md §4, §5, §11): what is counted of a batch and adds over sentences, batches and
processes (`Tally`, with its `Counts`, `TokenCounts`, `Diagnostics` and errors), and the MUC counts read off it
overall and per type (`CellColumns`). What the result dict makes of it is `nerscore.result_scores`."""

from __future__ import annotations

import dataclasses
import operator
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property
from itertools import count, islice, repeat
from typing import TYPE_CHECKING, Any, NamedTuple, Self, TypeVar, cast

import numpy as np

from .error_table import CodedCounts, ErrorKey, added_errors
from .measures import EXACT_FLOATS, possible_actual
from .options import EVALUATION_SCHEMES, Options
from .pairing.rules import SCENARIO_INDEX, SCENARIOS, scenario_of
from .span import Span

if TYPE_CHECKING:  # only the credit's type: `import nerscore` does not load fractions and decimal (1.4 ms)
    from fractions import Fraction

K = TypeVar("K")

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
# _OUTCOME_INDEX[scheme][scenario index]: the position in Counts' fields of the scenario's outcome (§4).
_OUTCOME_INDEX = {
    scheme: np.array([_COUNT_INDEX[OUTCOMES[scenario][scheme]] for scenario in OUTCOMES])
    for scheme in EVALUATION_SCHEMES
}
# The same table as one matrix, scenarios by (schemes x counts): 1 where the scenario's outcome under the scheme is
# the count. Scenario totals times it give every scheme's counts at once (`CellColumns.scheme_counts`, the statistics').
OUTCOME_MATRIX = np.hstack([np.eye(len(COUNT_NAMES), dtype=np.int64)[_OUTCOME_INDEX[s]] for s in EVALUATION_SCHEMES])
# _OUTCOME_SCENARIOS[scheme][count]: the scenario indices whose outcome under the scheme is that count (§4).
_OUTCOME_SCENARIOS = {
    scheme: [np.flatnonzero(outcomes == count).tolist() for count in range(len(COUNT_NAMES))]
    for scheme, outcomes in _OUTCOME_INDEX.items()
}

# POS and ACT are no scheme's own (docs/scoring.md §4): every scheme counts the same scenarios spurious and missed.
((_SPURIOUS, _MISSED),) = {(tuple(places[4]), tuple(places[3])) for places in _OUTCOME_SCENARIOS.values()}


def _summed(scenarios: np.ndarray, doubled: list[int], single: list[int]) -> np.ndarray:
    """2 · the sum of the rows `doubled` + the sum of the rows `single` of (scenarios x types) int64 counts, each
    term added into one fresh row (no zeros first: freshly zeroed memory is mapped afresh, `totals_by_type`)."""
    rows = [*doubled, *single]  # never empty: every scheme counts some scenario COR, and every side some POS/ACT
    total = scenarios[rows[0]].copy()
    for row in rows[1 : len(doubled)]:
        total += scenarios[row]
    if doubled:
        total *= 2
    for row in rows[max(len(doubled), 1) :]:
        total += scenarios[row]
    return total


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
        return possible_actual(self.correct, self.incorrect, self.partial, self.missed, self.spurious)[0]

    @property
    def actual(self) -> int:
        return possible_actual(self.correct, self.incorrect, self.partial, self.missed, self.spurious)[1]


class _AddingFields:
    """Counts held in a frozen dataclass's fields, which add field by field (batches, files, ranks)."""

    def __add__(self, other: Self) -> Self:
        if not isinstance(other, type(self)):
            return NotImplemented
        keys = [field.name for field in dataclasses.fields(self)]  # type: ignore[arg-type]  # (a dataclass mixed in)
        return type(self)(*(getattr(self, key) + getattr(other, key) for key in keys))


@dataclass(frozen=True)
class TokenCounts(_AddingFields):
    """Of tag and id input: the tokens compared (after `ignore_index`) and those whose predicted tag is the same
    string as the reference tag, the numerator and denominator of `token_accuracy` (docs/scoring.md §7)."""

    tokens: int = 0
    equal: int = 0


# docs/scoring.md §11: the boundary diagnostics, in the order of the result's keys.
BOUNDARY_KEYS = ("boundary_too_long", "boundary_too_short", "boundary_crossing")
DIAGNOSTIC_KEYS = (*BOUNDARY_KEYS, "split", "merged")


@dataclass(frozen=True)
class Diagnostics(_AddingFields):
    """What went wrong at the boundaries (docs/scoring.md §11): of the pairs of scenarios V and VI, those whose
    prediction contains the reference, lies inside it, or neither; and over all entities, pairing aside, the
    references overlapped by two or more predictions (`split`) and the predictions overlapping two or more
    references (`merged`). Counts, so they add over batches."""

    boundary_too_long: int = 0
    boundary_too_short: int = 0
    boundary_crossing: int = 0
    split: int = 0
    merged: int = 0

    def values(self) -> tuple[int, ...]:
        return tuple(getattr(self, key) for key in DIAGNOSTIC_KEYS)

    def as_dict(self) -> dict[str, int]:
        return {key: int(getattr(self, key)) for key in DIAGNOSTIC_KEYS}


# (scenario, reference type or None, predicted type or None): what a `Tally` counts.
Cell = tuple[str, str | None, str | None]
# (sentence, reference entity or None, predicted entity or None): a row of the readable path.
Row = tuple[int, Span | None, Span | None]


def named_cells(
    scenario: np.ndarray, reference_type: np.ndarray, predicted_type: np.ndarray, type_names: Sequence[str]
) -> list[Cell]:
    """The cells of parallel columns of scenario indices and type ids into `type_names` (-1: no entity)."""
    names: list[str | None] = [*type_names, None]  # type id -1, no entity, is the last name
    columns = (scenario.tolist(), reference_type.tolist(), predicted_type.tolist())
    return [(SCENARIOS[kind], names[r], names[p]) for kind, r, p in zip(*columns)]


class CellTable(CodedCounts[Cell]):
    """A tally's cells as the table of pairs counts them (`nerscore.table.reducers.cells`): parallel columns of
    distinct cells (scenario index, reference and predicted type ids into `type_names`, -1 for no entity, and the
    number of rows), read as the mapping `Tally.cells` is. `CellColumns.of` reads the columns as they are; the
    dict of (scenario, reference type, predicted type) is made only where a cell is looked up (the confusion
    matrix, `+`): with 100,000 types, tens of thousands of cells made into tuples and back into columns cost a
    fifth of compute_semeval (benchmarks/redesign.py)."""

    def __init__(
        self,
        scenario: np.ndarray,
        reference_type: np.ndarray,
        predicted_type: np.ndarray,
        number: np.ndarray,
        type_names: Sequence[str],
    ) -> None:
        # Distinct (scenario, reference type, predicted type) rows, `type_names` distinct names: one cell a row.
        self.scenario, self.reference_type, self.predicted_type = scenario, reference_type, predicted_type
        self.number = number
        self.type_names = type_names

    def _keys(self) -> list[Cell]:
        return named_cells(self.scenario, self.reference_type, self.predicted_type, self.type_names)

    def present_types(self) -> np.ndarray:
        """The ids of the types a cell names, on either side, in order of id."""
        seen = np.zeros(len(self.type_names) + 1, dtype=bool)
        seen[self.reference_type] = True
        seen[self.predicted_type] = True
        return np.flatnonzero(seen[:-1])


def summed(add: Callable[[Any, Any], Any], zero: Any = None, none_where: Any = None, **field: Any) -> Any:
    """A field of `Tally` (None unless `field` says otherwise) that says how it adds: two tallies' values by `add`,
    the one without it (None) standing as `zero` (with no zero, `add` takes the None); None where neither tally has
    it, or where `none_where(a, b)` of the two tallies says so. `Tally.__add__` adds every field so."""
    return dataclasses.field(**(field or {"default": None}), metadata={"sum": (add, zero, none_where)})


@cache  # read once a class
def _field_sums(tally_type: type) -> tuple[list[tuple[str, Any, Any, Any]], Callable[[Any], tuple]]:
    """Each field of `tally_type` (Tally, or a class made from it) with its `summed` declaration, and the getter of
    a tally's values of them (one `attrgetter` call, cheaper than one `getattr` a field)."""
    fields = dataclasses.fields(tally_type)
    for field in fields:
        if "sum" not in field.metadata:
            raise TypeError(f"the field {field.name!r} of {tally_type.__name__} declares no sum; expected summed()")
    names = [field.name for field in fields]
    return [(field.name, *field.metadata["sum"]) for field in fields], operator.attrgetter(*names)


def _spans_beside_tags_of_no_token(a: Tally, b: Tally) -> bool:
    """Whether two tallies' tokens add to None: tags of no token (an empty batch, which reads as tags, or a slice's
    bucket of it) beside spans counted (tokens None, some cells) add nothing: spans have no `token_accuracy`
    (docs/scoring.md §7) however their sentences fall into batches, and a bucket's tallies add as the totals' do.
    `Tally()`, which counts nothing, is no batch of spans: it adds as zero."""
    for spans, tags in ((a, b), (b, a)):
        if spans.tokens is None and spans.cells and tags.tokens is not None and not tags.tokens.tokens:
            return True
    return False


def _counts_added(a: Mapping[K, Any], b: Mapping[K, Any]) -> dict[K, Any]:
    """Two mappings of counts (or of exact credit) added key by key, in the order the keys first come."""
    total = Counter(a)
    total.update(b)
    return dict(total)


@dataclass(frozen=True)
class Tally:
    """How many entity pairs and unpaired entities fell into each (scenario, reference type, predicted type).

    This is the whole additive statistic: batches, processes and sentences sum, and every score of every
    scheme, overall or per type, is derived from it at the end (sacrebleu's pattern).
    """

    # Each field says how it adds (`summed`): a new one needs no line in `__add__`.
    cells: Mapping[Cell, int] = summed(_counts_added, {}, default_factory=dict)
    # Tag and id input only: spans have no tokens, and their results no `token_accuracy`.
    tokens: TokenCounts | None = summed(operator.add, TokenCounts(), none_where=_spans_beside_tags_of_no_token)
    # What the options add, each None unless asked for; keyword-only, so that a new one never shifts another.
    _: dataclasses.KW_ONLY
    # docs/scoring.md §10, only when asked for: `partial_credit="overlap"`'s credit, the exact sum of
    # |shared| / |union| over the PAR pairs of each (reference type, predicted type); and the value pairing's
    # cells, counted as `cells` counts §3's pairing.
    credit: Mapping[tuple[str, str], Fraction] | None = summed(_counts_added, {})
    value_cells: Mapping[Cell, int] | None = summed(_counts_added, {})
    # With `diagnostics` and `errors` only (docs/scoring.md §11): the boundary diagnostics, and the count of each
    # distinct error by its entities' texts and types (an `error_table.ErrorTable` as counted). Both add, as the
    # cells do.
    diagnostics: Diagnostics | None = summed(operator.add, Diagnostics())
    errors: Mapping[ErrorKey, int] | None = summed(added_errors)
    # With texts and string entities (docs/scoring.md §1b): the predictions left without an occurrence, which
    # are also counted as spurious in `cells`; None where no texts were given.
    ungrounded: int | None = summed(operator.add, 0)

    def __add__(self, other: Tally) -> Tally:
        if not isinstance(other, Tally):
            return NotImplemented  # Python's "unsupported operand type(s) for +", naming both types
        sums, values = _field_sums(type(self))  # type: ignore[arg-type]  # (a class is hashable)
        added = {}
        for (name, add, zero, none_where), a, b in zip(sums, values(self), values(other)):
            if (a is None and b is None) or (none_where is not None and none_where(self, other)):
                continue  # None, the field's default
            if zero is not None:  # (else `add` takes the None of the tally without it)
                a, b = zero if a is None else a, zero if b is None else b
            added[name] = add(a, b)
        return type(self)(**added)

    def with_ungrounded(self, ungrounded: int) -> Tally:
        """This tally with `ungrounded` set (docs/scoring.md §1b), every other field kept."""
        return replace(self, ungrounded=ungrounded)  # a Tally, not Options (tests/test_options.py)

    @classmethod
    def of_rows(cls, rows: Iterable[tuple[Span | None, Span | None]]) -> Tally:
        cells = ((scenario_of(r, p), getattr(r, "entity_type", None), getattr(p, "entity_type", None)) for r, p in rows)
        return cls(dict(Counter(cells)))  # (getattr: None for no entity)

    @property
    def entity_types(self) -> list[str]:
        """The types seen on either side, sorted (their totals unsummed: `types_by_frequency` sums them)."""
        names, present, _, _ = self._types()
        return sorted([names[i] for i in present.tolist()])

    def types_by_frequency(self) -> list[str]:
        """The types seen on either side, the most frequent first (each counted once for every reference entity and
        every predicted entity of it), ties in alphabetical order: what a table of the commonest types shows."""
        names, present, sides, number = self._types()
        # Each id moved up by one (-1, no entity, first); floats, exact: a tally holds fewer than 2**52 entities.
        totals = np.asarray(sum(np.bincount(side + 1, number, len(names) + 1) for side in sides))[present + 1]
        shown = [names[i] for i in present.tolist()]
        alphabetical = sorted(range(len(shown)), key=shown.__getitem__)
        order = np.argsort(-totals[alphabetical], kind="stable")  # (stable: ties stay in alphabetical order)
        return [shown[alphabetical[i]] for i in order.tolist()]

    def _types(self) -> tuple[Sequence[str], np.ndarray, list[np.ndarray], np.ndarray]:
        """The names the type ids index, the ids a cell holds, each side's ids, each cell's entities (a Counter: 6x)."""
        cells = self.cells
        if isinstance(cells, CellTable):
            return cells.type_names, cells.present_types(), [cells.reference_type, cells.predicted_type], cells.number
        _, sides, number, names = _mapping_positions(cells, None, ordered=False)  # (numbered as first named: each held)
        return names, np.arange(len(names)), sides, number

    def counts(self, scheme: str) -> Counts:
        """Counts over all types under `scheme`: POS is the number of reference entities, ACT of predicted."""
        return CellColumns.of(self, None, ordered=False).counts(scheme)

    def counts_by_type(self, scheme: str) -> tuple[dict[str, Counts], dict[str, Counts]]:
        """Two-sided per-type counts under `scheme` (docs/scoring.md §5): the outcomes of the reference entities of each
        type (their recall side: COR/INC/PAR/MIS) and of the predicted entities of each type (their precision
        side: COR/INC/PAR/SPU). Unlike nervaluate, a PER reference predicted as LOC stays one INC on each side
        instead of becoming a PER miss and a LOC spurious, so the sides sum to the overall POS and ACT."""
        columns = CellColumns.of(self, None, ordered=False)
        sides = []
        for side_types, totals in zip((columns.reference_type, columns.predicted_type), columns.totals_by_type(scheme)):
            present = np.flatnonzero(np.bincount(side_types[side_types >= 0], minlength=columns.types))
            sides.append({columns.entity_types[i]: Counts(*totals[i].tolist()) for i in present.tolist()})
        return sides[0], sides[1]


@dataclass(frozen=True)
class CellColumns:
    """A tally's cells as parallel arrays, with each type as its position in the scored types (-1 for no entity
    and for a type that is not scored): `scores` then counts every type at once, where a loop per cell and type
    would cost more than the counting itself with thousands of types (benchmarks/hostile.py)."""

    scenario: np.ndarray
    reference_type: np.ndarray
    predicted_type: np.ndarray
    number: np.ndarray
    names: Sequence[str]  # the scored types (`entity_types`), or with `ids` the names they are read from
    # (6 x types) each scored type's scenario totals (I to VI) on the reference side and on the prediction side:
    # every scheme's per-type counts are these read through §4's table (`totals_by_type`).
    reference_scenarios: np.ndarray
    prediction_scenarios: np.ndarray
    # The scored types' positions in `names`, named only where a key or a check reads them (`entity_types`): most
    # calls with 100,000 types never do, and naming 26,000 of them was 2 ms of `scores`.
    ids: np.ndarray | None = None

    @property
    def types(self) -> int:
        return len(self.names) if self.ids is None else len(self.ids)

    @cached_property
    def entity_types(self) -> list[str]:
        """The scored types: `labels`, or those of the tally sorted (Tally.entity_types) or in order of first place."""
        names = self.names
        if self.ids is None:
            return names if isinstance(names, list) else list(names)
        return [names[i] for i in self.ids.tolist()]  # (a comprehension: map over a tuple's item is 6x slower)

    @classmethod
    def of(cls, tally: Tally, labels: list[str] | None, ordered: bool = True) -> CellColumns:
        """The columns of `tally`'s cells over `labels`, or over the tally's types: sorted, or unless `ordered` in
        the order the cells first name them (the macro means are exact sums, which no order changes; sorting
        100,000 names costs more than the rest of `scores`)."""
        cells = tally.cells
        entities = int(cells.number.sum()) if isinstance(cells, CellTable) else sum(cells.values())
        if entities >= EXACT_FLOATS // 2:
            # Every count and 2 * POS then stays an exact float64 (by_type); no batch comes near.
            raise ValueError(f"a tally of {entities:,} entities; expected fewer than 2**52")
        ids = None
        if isinstance(cells, CellTable):
            scenario, positions, entity_types, ids = _table_positions(cells, labels, ordered)
            number = cells.number
        else:
            scenario, positions, number, entity_types = _mapping_positions(cells, labels, ordered)
        return cls.summed(scenario, positions[0], positions[1], number, entity_types, ids)

    @classmethod
    def summed(
        cls,
        scenario: np.ndarray,
        reference_type: np.ndarray,
        predicted_type: np.ndarray,
        number: np.ndarray,
        names: Sequence[str],
        ids: np.ndarray | None = None,
    ) -> CellColumns:
        """The columns of cells (each one's scenario index, its two types' positions and its number) with each side's
        scenario totals per type summed: as floats, exact, for every total is below 2**52 (`of` refuses larger
        tallies, `stacked_scores` stacks none as large)."""
        types = len(names) if ids is None else len(ids)
        totals = []
        for side in (reference_type, predicted_type):
            scored = side >= 0
            summed = np.bincount(scenario[scored] * types + side[scored], number[scored], len(SCENARIOS) * types)
            totals.append(summed.astype(np.int64).reshape(len(SCENARIOS), types))
        return cls(scenario, reference_type, predicted_type, number, names, totals[0], totals[1], ids)

    def counts(self, scheme: str) -> Counts:
        """Counts over all types under `scheme` (`Tally.counts`), whichever types are scored."""
        return Counts(*self.scheme_counts()[0, EVALUATION_SCHEMES.index(scheme)].tolist())

    def totals_by_type(self, scheme: str) -> tuple[np.ndarray, np.ndarray]:
        """`Tally.counts_by_type` as two (types x 5) arrays, the reference side's and the prediction side's, in
        the order of Counts' fields."""
        sides = []
        for scenarios in (self.reference_scenarios, self.prediction_scenarios):
            # Each count the sum of its scenarios' rows: a few additions of one row each, no matrix product
            # (numpy hands a float one to BLAS, whose threads cost the CPU time of a hundred such additions, and
            # its integer one loops over each type's six terms). One scheme at a time, as asked: every scheme's
            # totals of 100,000 types held at once were memory mapped afresh, 5 ms of `scores`. Each row written
            # whole by its first term (zeros first were written twice, and freshly zeroed memory is mapped afresh:
            # 2 ms of the four schemes' totals of 26,000 types, now 0.3).
            totals = np.empty((len(COUNT_NAMES), self.types), dtype=np.int64)
            for total, terms in zip(totals, _OUTCOME_SCENARIOS[scheme]):
                if not terms:
                    total.fill(0)
                    continue
                np.copyto(total, scenarios[terms[0]])
                for scenario in terms[1:]:
                    total += scenarios[scenario]
            sides.append(totals.T)
        return sides[0], sides[1]

    def half_terms(self, scheme: str) -> tuple[np.ndarray, ...]:
        """`stacked_scores.type_terms` of `totals_by_type(scheme)` (precision credit, 2·ACT, recall credit, 2·POS, POS,
        ACT: the credits in halves, 2·COR + PAR), summed from the scenario rows without the five counts of each
        side: POS and ACT, which no scheme changes, are summed once for every scheme (4 ms of `scores` with
        100,000 types)."""
        outcomes = _OUTCOME_SCENARIOS[scheme]
        credits = [_summed(scenarios, outcomes[0], outcomes[2]) for scenarios in self._sides]
        possible, actual, double_possible, double_actual = self._totals
        return credits[1], double_actual, credits[0], double_possible, possible, actual

    @property
    def _sides(self) -> tuple[np.ndarray, np.ndarray]:
        return self.reference_scenarios, self.prediction_scenarios

    @cached_property
    def _totals(self) -> tuple[np.ndarray, ...]:
        """POS and ACT of each type (each side's scenario rows but those counted spurious, missed), and twice them."""
        possible, actual = (
            _summed(scenarios, [], [at for at in range(len(scenarios)) if at not in left_out])
            for scenarios, left_out in zip(self._sides, (_SPURIOUS, _MISSED))
        )
        return possible, actual, 2 * possible, 2 * actual

    def scheme_counts(self, tally: np.ndarray | None = None, tallies: int = 1) -> np.ndarray:
        """Every scheme's counts over all types of each of `tallies` tallies (tallies x schemes x 5) whose cells these
        are (`tally`: each cell's; None: one tally's), from their scenario totals by §4's table (`OUTCOME_MATRIX`)."""
        keys = self.scenario if tally is None else tally * len(SCENARIOS) + self.scenario
        by_scenario = np.bincount(keys, self.number, tallies * len(SCENARIOS)).astype(np.int64)
        counts = by_scenario.reshape(tallies, len(SCENARIOS)) @ OUTCOME_MATRIX
        return counts.reshape(tallies, len(EVALUATION_SCHEMES), len(COUNT_NAMES))


def _mapping_positions(
    cells: Mapping[Cell, int], labels: list[str] | None, ordered: bool
) -> tuple[np.ndarray, list[np.ndarray], np.ndarray, list[str]]:
    """`CellColumns.of`'s columns of cells given as a mapping: each cell's scenario index, each side's type
    position, each cell's number, and the scored types."""
    size = len(cells)
    scenarios, reference_types, predicted_types = zip(*cells) if size else ((), (), ())
    sides_types = (reference_types, predicted_types)
    if labels is None and not ordered:
        # Each type numbered by the look-up that places its cells, as they first name it: one dict step a cell
        # and side, where naming the types first and looking them up after took three.
        numbering: defaultdict[str | None, int] = defaultdict(count().__next__, {None: -1})
        positions = [np.fromiter(map(numbering.__getitem__, types), np.int64, size) for types in sides_types]
        entity_types = cast(list[str], list(islice(numbering, 1, None)))  # None, first, left out
    else:
        entity_types = labels if labels is not None else sorted({*reference_types, *predicted_types} - {None})
        index: dict[str | None, int] = dict(zip(entity_types, range(len(entity_types))))
        positions = [np.fromiter(map(index.get, types, repeat(-1)), np.int64, size) for types in sides_types]
    scenario = np.fromiter(map(SCENARIO_INDEX.__getitem__, scenarios), dtype=np.int64, count=size)
    number = np.fromiter(cells.values(), dtype=np.int64, count=size)
    return scenario, positions, number, entity_types


def _table_positions(
    table: CellTable, labels: list[str] | None, ordered: bool
) -> tuple[np.ndarray, list[np.ndarray], Sequence[str], np.ndarray | None]:
    """`_mapping_positions` of a `CellTable`, on its columns: each type id to its position by one look-up
    array, the types in the order the mapping would give them (unless `ordered`, as its cells first name them:
    the reference side's, then the prediction side's): the scored types, or their names and ids in them."""
    names = table.type_names
    if labels is not None:
        index = dict(zip(labels, range(len(labels))))
        position = np.fromiter(map(index.get, names, repeat(-1)), np.int64, len(names))
        entity_types: Sequence[str] = labels
        ids: np.ndarray | None = None
    else:
        if ordered:
            ids = np.array(sorted(table.present_types().tolist(), key=names.__getitem__), dtype=np.int64)
        else:
            # Each type's first place in the reference column followed by the predicted one, in one pass (no sort
            # of the cells, as np.unique's return_index takes); the types then read off those places in order
            # (sorting the places was 1 ms of a call with 100,000 types).
            both = np.concatenate((table.reference_type, table.predicted_type))
            first = np.full(len(names) + 1, len(both))
            np.minimum.at(first, both, np.arange(len(both)))
            is_first = np.zeros(len(both) + 1, dtype=bool)
            is_first[first[:-1]] = True  # (types absent from the cells mark the spare last place)
            ids = both[is_first[:-1]]
        position = np.full(len(names), -1, dtype=np.int64)
        position[ids] = np.arange(len(ids))
        entity_types = names  # named where they are read (`CellColumns.entity_types`)
    lookup = np.append(position, -1)  # id -1, no entity, is the last
    return table.scenario, [lookup[table.reference_type], lookup[table.predicted_type]], entity_types, ids


class Counted(NamedTuple):
    """What one pass over a batch counts: the tally, and each sentence's scenario counts when asked for."""

    tally: Tally
    per_sentence: np.ndarray | None  # (sentences, 6) scenario counts I to VI, for the statistics (resampling)
    # For slices and `entities` (docs/scoring.md §7, §11): the batch's table of pairs and each sentence's facts
    # (`pairs.Pairs`, `pairs.SentenceFacts`), and what `slices.count_slices` made of them (`slices.SliceCounts`).
    rows: Any = None
    slices: Any = None
    # (sentences, result_scores.weighted_width) floats: what docs/scoring.md §10 adds to each sentence, when asked for
    per_sentence_floats: np.ndarray | None = None
    # With `value` and `return_entities`: the value pairing's own table (`pairs.Pairs`, §10) that the tally was
    # reduced from, from which the `entities` rows take their partners (`compute.value_partner_dicts`).
    value_pairs: Any = None
    counted_with: Options | None = None  # the options it was counted with (count_batch), which Accumulator.add compares
