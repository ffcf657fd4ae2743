"""The result dict of a tally (docs/scoring.md §4, §5, §7, §10): the four schemes' scores, macro averages, per type,
the value score, the confusion matrix and the `entities` rows; of many tallies at once (a slice's buckets), the same
dicts by the same code (`scores_of`). What it is made of, and adds, is `nerscore.tally`; the exact ratios behind
the scores, `nerscore.stacked_scores`."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from itertools import repeat
from typing import Any

import numpy as np

from .errors import InvalidInputError, is_collection, shown
from .measures import Rule
from .option_checks import OVERLAP, Weights, check_evaluation_schemes, refuse_a_mapping
from .options import COUNTING_OPTIONS, EVALUATION_SCHEMES, Options, differing
from .pairing.rules import scenario_of
from .pairing.value import WeightTable
from .schemes import OUTSIDE
from .span import Span
from .stacked_scores import StackedScores, ValueSums
from .tally import COUNT_NAMES, OUTCOMES, Cell, Counted, Row, Tally

# (fractions, and decimal, 1.4 ms of `import nerscore`, are imported by the functions that make a Fraction: those of
# the value score's cells.)


def scores(tally: Tally, options: Options | None = None) -> dict[str, Any]:
    """The flat docs/scoring.md §7 dict of a tally, in plain `int` and `float`.

    Macro averages are unweighted means over the types seen on either side, or over `labels` when given
    (a label with no entity then scores as a type with no entity on either side)."""
    check_tally(tally, options)
    return scores_of([tally], options)[0]


def scores_of(
    tallies: Sequence[Tally], options: Options | None = None, types: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """`scores` of each of several tallies (a slice's buckets, docs/scoring.md §11): the one place the result's
    score keys are written, their values those `StackedScores` computes for every tally at once.

    With `types` (and `per_type`): the per-type keys of those types alone, of a tally counted with every entity,
    and no macro key (a mean over every type's row): each key there is the one `scores` gives, with its value,
    without scoring every type's row (the Space shows 50 of up to 100,000). A type of no entity in a tally,
    which has no key in `scores`, is a `ValueError`, and so is `confusion` (its matrix is over every type)."""
    options = Options() if options is None else options
    if types is not None:
        refuse_a_mapping("types", types, "a list of entity types such as ['PER', 'LOC']")
        named = list(types) if is_collection(types) else None
        if named is None or not all(isinstance(name, str) for name in named):
            raise ValueError(f"types is {shown(types)}; expected a list of entity types such as ['PER', 'LOC']")
        if not options.per_type or options.confusion:
            raise ValueError(
                "types names the per-type keys to report; expected per_type=True and no confusion (its matrix is "
                "over every type)"
            )
        # in the order `scores` writes them: sorted, or labels' order (every label's keys, of no entity too)
        rank = dict(zip(dict.fromkeys(options.labels or ()), range(len(options.labels or ()))))
        types = sorted(dict.fromkeys(named), key=lambda name: (rank.get(name, len(rank)), name))
    sparse = options.confusion == SPARSE
    # (the confusion matrix is refused before anything is scored, docs/scoring.md §7)
    check = partial(check_confusion, sparse=sparse) if options.confusion else None
    scored = StackedScores.of(tallies, options, check, types=types)
    names, schemes = ("precision", "recall", options.f_name), options.evaluation_schemes
    # Each scheme's keys: P, R, F, the five counts, POS, ACT, the macro P, R, F (`StackedScores.scheme_values`);
    # with `types`, the macro's left out (zip stops at the shorter).
    keys = [
        [f"{scheme}_{name}" for name in (*names, *COUNT_NAMES.values(), "possible", "actual")]
        + ([f"{scheme}_macro_{name}" for name in names] if types is None else [])
        for scheme in schemes
    ]
    type_keys = _type_keys(options)
    results = []
    for position, tally in enumerate(tallies):
        result: dict[str, Any] = {}
        for scheme_keys, values in zip(keys, scored.scheme_values(position)):
            result.update(zip(scheme_keys, values))
        if tally.tokens is not None:
            # conlleval's accuracy line and seqeval's accuracy_score, over tokens rather than entities.
            tokens = tally.tokens
            result["token_accuracy"] = tokens.equal / tokens.tokens if tokens.tokens else float(options.zero_division)
        if tally.ungrounded is not None:
            result["ungrounded"] = tally.ungrounded  # docs/scoring.md §1b
        # (named only where a key or the matrix shows them: `CellColumns.entity_types`)
        entity_types = scored.entity_types(position) if options.per_type or options.confusion else []
        if options.value is not None:
            result.update(value_scores(tally, options, entity_types if options.per_type else None))
        if options.per_type:
            if types is not None:
                _check_counted(types, scored.type_columns(position), options.labels or ())
            for scheme_keys, type_columns in zip(type_keys, scored.type_columns(position)):
                # Type by type, the five keys of each in turn: the order of the keys a loop over types would write.
                for entity_type, *type_values in zip(entity_types, *type_columns):
                    result.update(zip([entity_type + key for key in scheme_keys], type_values))
        if options.confusion:
            result["confusion"] = confusion_matrix(tally, entity_types, sparse=sparse)
        results.append(result)
    return results


def _check_counted(types: Sequence[str], type_columns: list[list[list[Any]]], labels: Sequence[str]) -> None:
    """A `ValueError` naming the first of `types` that no entity of the tally has (its POS and ACT are 0 under
    every scheme: `scores` writes no key of it), unless it is one of `labels` (whose keys `scores` writes)."""
    _, _, _, possible, actual = type_columns[0]
    for entity_type, references, predictions in zip(types, possible, actual):
        if not references and not predictions and entity_type not in labels:
            raise ValueError(
                f"types holds {entity_type!r}, of which no entity was counted; expected types of the counted "
                "entities (compute_semeval reports no keys of another)"
            )


def _type_keys(options: Options) -> list[list[str]]:
    """Each scheme's keys of a type, after its name: P, R, F, POS and ACT (`_PER_strict_precision`, ...)."""
    names = ("precision", "recall", options.f_name, "possible", "actual")
    return [[f"_{scheme}_{name}" for name in names] for scheme in options.evaluation_schemes]


def two_sided_scores(tally: Tally, names: Sequence[str], options: Options) -> dict[str, dict[str, Any]]:
    """Scores of buckets counted as per-type scores are (docs/scoring.md §5, §11): `tally`'s "types" are bucket
    names, a reference counting for recall in its bucket and a prediction for precision in its own. For each of
    `names` with an entity on either side, in their order: P, R, F, POS and ACT of every scheme, the values and
    keys of `scores_of`'s per type (a bucket's tally has no overlap credit: its PARs count a half)."""
    # The buckets as the scored types (given as they are: bucket names, not types to check), the overlap credit a
    # half.
    credit = 0.5 if options.partial_credit == OVERLAP else options.partial_credit
    options = replace(options, per_type=True, partial_credit=credit)
    scored = StackedScores.of([tally], options, totals=False, types=names)
    out: dict[str, dict[str, Any]] = {}
    for scheme_keys, type_columns in zip(_type_keys(options), scored.type_columns(0)):
        keys = [key[1:] for key in scheme_keys]  # (no type name before them: the bucket holds them)
        for name, *values in zip(names, *type_columns):
            if values[3] or values[4]:  # POS or ACT: an entity on either side
                out.setdefault(name, {}).update(zip(keys, values))
    return out


def value_scores(tally: Tally, options: Options, entity_types: Sequence[str] | None = None) -> dict[str, float]:
    """`value`, `value_precision`, `value_recall` and `value_f{β}` of the tally's value cells (docs/scoring.md
    §10), and with `entity_types` the same per type (`{TYPE}_value_*`), as exact fractions rounded once: each
    ratio of two sums over one common denominator is the ratio of their integer numerators."""
    assert options.value is not None
    sums = value_sums(tally.value_cells or {}, WeightTable(options.value))
    per_type = sums.of_types(entity_types or ())
    kept, kept_p, cost, worth_r, worth_p = (
        np.concatenate((np.array([total], dtype=object), of_types)) for total, of_types in zip(sums.totals(), per_type)
    )
    rule = Rule.of(options)
    value = rule.exact_share(kept - cost, worth_r)
    precision_recall_f = rule.exact(kept_p, worth_p, kept, worth_r).values()
    try:
        values = (value[0] / value[1]).tolist()
    except OverflowError:  # docs/scoring.md §10: false alarms that cost more than a float holds
        raise ValueError(
            _overflowing_value(value, ["", *(entity_type for entity_type in entity_types or ())], options)
        ) from None
    columns = [values] + [column.tolist() for column in precision_recall_f]
    names = ("value", "value_precision", "value_recall", f"value_{options.f_name}")
    result: dict[str, float] = {}
    for prefix, values in zip(["", *(f"{entity_type}_" for entity_type in entity_types or ())], zip(*columns)):
        result.update((prefix + name, float(number)) for name, number in zip(names, values))
    return result


def _overflowing_value(value: tuple[np.ndarray, np.ndarray], prefixes: list[str], options: Options) -> str:
    """The message for a value that no float holds: which key, how large, the bound and the weights to change."""
    assert options.value is not None
    found, key = 0, "value"
    for prefix, numerator, denominator in zip(prefixes, *value):
        try:
            numerator / denominator
        except OverflowError:
            found = numerator // denominator
            key = f"{prefix}_value" if prefix else "value"
            break
    digits = str(abs(found))  # (an integer no float holds: its digits, not float formatting)
    size = f"{'-' if found < 0 else ''}{digits[0]}.{digits[1:3]}e+{len(digits) - 1}"
    return (
        f"value: with false_alarm={options.value.false_alarm!r} and these type weights, {key} is about {size}, "
        f"beyond the largest float ({sys.float_info.max:.4g}); expected weights under which the value stays within "
        "it: lower false_alarm, or bring the type weights closer (docs/scoring.md §10)"
    )


def value_sums(value_cells: Mapping[Cell, int], table: WeightTable) -> ValueSums:
    """Per type, (Σ kept over its references, Σ kept' over its predictions, the false-alarm cost of its unpaired
    predictions, the worth of its references, the worth of its predictions) (docs/scoring.md §10), exact: the
    integer numerators over one denominator of `stacked_scores.ValueSums`."""
    return ValueSums.of(value_cells, table)


# docs/scoring.md §10: what the statistics carry of each sentence besides its six scenario counts, in this order:
# the overlap credit (partial_credit="overlap"), then the value's five sums (value on).
VALUE_COLUMNS = ("kept", "kept_precision", "cost", "worth_references", "worth_predictions")


def weighted_width(options: Options) -> int:
    """How many columns of `weighted_columns` the options ask for (0: none, the integer statistics as ever)."""
    return (options.partial_credit == OVERLAP) + len(VALUE_COLUMNS) * (options.value is not None)


def counted_without(counted: Counted, options: Options, keep_sentences: bool) -> str | None:
    """The first of what the result of `options` (and with `keep_sentences`, an `Accumulator`'s units) reads of a
    batch's counts that `counted` lacks, as the option it was counted without, or None: read off the fields each
    option fills (an empty batch's too). Added, a batch counted without one would count as none of it: intervals
    of no width (no sentence's counts), a value of 0.0, no diagnostics (`Accumulator.add`). One counted (by
    `compute.count_batch`) under another value of an option that changes counts lacks that value: added, its counts
    would silently mix with those of other things (another scheme's entities, other types, another overlap)."""
    tally, slices = counted.tally, set(() if counted.slices is None else counted.slices.names)
    lacking = (
        ("keep_sentences=True", keep_sentences and counted.per_sentence is None),
        ("value", options.value is not None and tally.value_cells is None),
        (f"partial_credit={OVERLAP!r}", options.partial_credit == OVERLAP and tally.credit is None),
        ("diagnostics=True", options.diagnostics and tally.diagnostics is None),
        ("errors", bool(options.errors) and tally.errors is None),
        (f"slices={list(options.slices)}", not slices.issuperset(options.slices)),
    )
    if (found := next((name for name, lacks in lacking if lacks), None)) is not None:
        return found
    if counted.counted_with is None or counted.counted_with is options:  # (a batch made by hand: not told)
        return None
    differs = differing(counted.counted_with, options, COUNTING_OPTIONS)
    return None if differs is None else "{0}={2} (it was counted with {0}={1})".format(*differs)


def cost_scale(weights: Weights) -> float:
    """The power of two the statistics' cost column is kept divided by, beyond `WeightTable.largest`: 1 unless
    `false_alarm` passes 2**900, so that a false alarm costs at most 2**900 units there and the sums of the costs
    stay finite (a false_alarm of 1e308 made the second false alarm's sum infinite, and the intervals NaN)."""
    return 2.0 ** max(0, math.frexp(weights.false_alarm)[1] - 900)


def value_cell_columns(cells: Sequence[Cell], table: WeightTable) -> np.ndarray:
    """For each value cell (scenario, reference type, predicted type), what one of its rows adds to each of
    `VALUE_COLUMNS`, in units of the largest weight (`WeightTable.largest`: a weight of 1e308 sums to no
    infinity), the cost further divided by `cost_scale`, as the floats nearest the exact fractions (cells x 5).
    A cell's row follows from its scenario and its two types' weights: worked out once for each distinct three."""
    from fractions import Fraction

    unit = table.largest
    scale = Fraction(cost_scale(table.weights))
    units = [unit, unit, unit * scale, unit, unit]
    default, named = table.weights.default_type_weight, dict(table.weights.types)
    row_of: dict[tuple[str, float | None, float | None], int] = {}
    first: list[Cell] = []  # a cell of each distinct (scenario, reference weight, predicted weight)
    rows = np.empty(len(cells), dtype=np.int64)
    for position, cell in enumerate(cells):
        scenario, reference_type, predicted_type = cell
        key = (
            scenario,
            None if reference_type is None else named.get(reference_type, default),
            None if predicted_type is None else named.get(predicted_type, default),
        )
        row = row_of.setdefault(key, len(row_of))
        if row == len(first):
            first.append(cell)
        rows[position] = row
    values = np.zeros((len(first), len(VALUE_COLUMNS)))
    for row, cell in enumerate(first):
        one = value_sums({cell: 1}, table)
        values[row] = [float(Fraction(total, one.denominator) / by) for total, by in zip(one.totals(), units)]
    return values[rows]


def sentence_sums(sentence: np.ndarray, values: np.ndarray, sentences: int) -> np.ndarray:
    """Each sentence's sum of the rows' `values` (rows x k), added in the order of the values within a sentence,
    so that every path that finds the same rows gets the same floats, to the bit (sentences x k)."""
    columns = []
    for column in values.T:
        order = np.lexsort((column, sentence))
        # (as floats even with no row, where bincount would give integers)
        columns.append(np.bincount(sentence[order], column[order], minlength=sentences).astype(np.float64))
    return np.stack(columns, axis=1) if columns else np.zeros((sentences, 0))


# docs/scoring.md §7: the full square has (types + 1)² cells, 2 GB of dicts at 10,000 types. Up to this many
# types it is built as it always was (a million cells, about 40 MB); beyond, `confusion="sparse"` lists only the
# non-zero cells, at most one per cell of the tally, so its size follows the input.
MAX_CONFUSION_TYPES = 1_000
SPARSE = "sparse"


def check_confusion(entity_types: Sequence[str], sparse: bool = False) -> None:
    """A `ValueError` if the confusion matrix over `entity_types` cannot be built: a type named ``"O"``, which the
    matrix could not tell from its ``"O"`` for no entity, or (unless `sparse`) more than `MAX_CONFUSION_TYPES`
    types for the full square."""
    if OUTSIDE in entity_types:
        raise InvalidInputError(f"found entity type {OUTSIDE!r}, {OUTSIDE_TYPE}")
    if not sparse and len(entity_types) > MAX_CONFUSION_TYPES:
        raise ValueError(
            f"confusion=True: found {len(entity_types):,} entity types, whose full square would hold "
            f"{(len(entity_types) + 1) ** 2:,} cells; expected at most {MAX_CONFUSION_TYPES:,} types: pass labels "
            f"with the types to show, or confusion={SPARSE!r} for only the non-zero cells"
        )


# docs/scoring.md §7: a pair of two types "O" and a missed reference of type "O" would both count at ["O"]["O"].
OUTSIDE_TYPE = (
    f"which the confusion matrix cannot tell from its {OUTSIDE!r} for no entity; expected another type name with "
    "confusion: rename the type, keep it out of labels, or leave confusion off"
)


def confusion_matrix(tally: Tally, entity_types: Sequence[str], sparse: bool = False) -> dict[str, dict[str, int]]:
    """The entity-type confusion matrix of a tally (docs/scoring.md §7): ``matrix[reference][predicted]`` counts
    the pairs of the pairing by their two types, an unpaired reference at ``[type]["O"]`` and an unpaired
    prediction at ``["O"][type]``. A full square over `entity_types` (sorted) and ``"O"`` last, zeros included,
    so that ``pandas.DataFrame(matrix).T`` shows it with references as rows; with `sparse`, only its non-zero
    cells, in the same order (rows without one left out). Raises `ValueError` as `check_confusion` says."""
    check_tally(tally)
    if isinstance(entity_types, (str, bytes)) or not isinstance(entity_types, Sequence):
        raise InvalidInputError(f"entity_types is {shown(entity_types)}; expected a list of types such as ['PER']")
    if not all(isinstance(entity_type, str) for entity_type in entity_types):
        raise InvalidInputError(f"entity_types is {shown(entity_types)}; expected types that are strings")
    check_confusion(entity_types, sparse)
    names = [*sorted(entity_types), OUTSIDE]
    matrix: dict[str, dict[str, int]]
    if not sparse:
        matrix = {reference: dict.fromkeys(names, 0) for reference in names}
        for (_, reference_type, predicted_type), number in tally.cells.items():
            row, column = matrix.get(reference_type or OUTSIDE), predicted_type or OUTSIDE
            if row is not None and column in row:  # a type left out of entity_types is not shown (as when sparse)
                row[column] += number
        return matrix
    # Cells by their row and column numbers, summed over scenarios with numpy: a dict step per cell, not per square.
    position: dict[str | None, int] = dict(zip(names, range(len(names))))
    position[None] = len(names) - 1  # no entity, the last row and column
    size = len(tally.cells)
    _, reference_types, predicted_types = zip(*tally.cells) if size else ((), (), ())
    rows, columns = (
        np.fromiter(map(position.get, types, repeat(-1)), dtype=np.int64, count=size)
        for types in (reference_types, predicted_types)
    )
    numbers = np.fromiter(tally.cells.values(), dtype=np.int64, count=size)
    kept = (rows >= 0) & (columns >= 0) & (numbers > 0)  # a type left out of entity_types is not shown
    distinct, inverse = np.unique(rows[kept] * len(names) + columns[kept], return_inverse=True)
    summed = np.zeros(len(distinct), dtype=np.int64)
    np.add.at(summed, inverse.reshape(-1), numbers[kept])
    matrix = {}
    for cell, number in zip(distinct.tolist(), summed.tolist()):
        row, column = divmod(cell, len(names))
        matrix.setdefault(names[row], {})[names[column]] = number
    return matrix


def reported_rows(rows: list[dict[str, Any]], options: Options) -> list[dict[str, Any]]:
    """`entities` rows copied (the caller's, whose changes change no rows kept: an `Accumulator`'s), as `options`
    write them when they were counted under others (`Accumulator.result(options)`): each row's outcomes under its
    `evaluation_schemes`, its value pair only with `value`."""
    tails = row_tails(options.evaluation_schemes)
    value = options.value is not None
    return [
        {
            "sentence": row["sentence"],
            "reference": _copied_entity(row["reference"]),
            "prediction": _copied_entity(row["prediction"]),
            **tails[row["scenario"]],
            **({"value_pair": _copied_entity(row["value_pair"])} if value and "value_pair" in row else {}),
        }
        for row in rows
    ]


def _copied_entity(entity: dict[str, Any] | None) -> dict[str, Any] | None:
    """A row's entity (start, end, type, text; fragments, its one list of lists) copied."""
    if entity is None:
        return None
    if "fragments" in entity:
        return {**entity, "fragments": [list(piece) for piece in entity["fragments"]]}
    return {**entity}


def row_tails(schemes: Sequence[str]) -> dict[str, dict[str, str]]:
    """Each scenario's last keys of an `entities` row (docs/scoring.md §7): the scenario, then its outcome under each
    of `schemes`; made once a call, as a batch has hundreds of thousands of rows and six scenarios. The one place
    they are written: `entity_rows`, `reported_rows` and `Pairs.entity_dicts`."""
    return {
        scenario: {"scenario": scenario, **{scheme: OUTCOMES[scenario][scheme] for scheme in schemes}}
        for scenario in OUTCOMES
    }


def entity_rows(rows: Iterable[Row], schemes: Sequence[str] = EVALUATION_SCHEMES) -> list[dict[str, Any]]:
    """The `entities` output: one JSON-ready dict per pair or unpaired entity (docs/scoring.md §7), with its
    outcome under each of `schemes` (the option `evaluation_schemes`)."""
    check_evaluation_schemes("schemes", schemes)  # (kept in the order given)
    if not isinstance(rows, (list, tuple)) and not is_collection(rows):  # (list(None): TypeError)
        raise InvalidInputError(f"rows is {shown(rows)}; expected a list of rows, as tally_semeval returns them")
    rows = rows if isinstance(rows, (list, tuple)) else list(rows)
    tails = row_tails(schemes)
    try:
        return [
            {
                "sentence": sentence,
                "reference": reference.as_dict() if reference is not None else None,
                "prediction": prediction.as_dict() if prediction is not None else None,
                **tails[scenario_of(reference, prediction)],
            }
            for sentence, reference, prediction in rows
        ]
    except (AttributeError, TypeError, ValueError, KeyError):  # a row that is none: found here, not on every row
        for index, row in enumerate(rows):
            if not (isinstance(row, (tuple, list)) and len(row) == 3 and isinstance(row[0], int)) or not all(
                span is None or isinstance(span, Span) for span in row[1:]
            ):
                raise InvalidInputError(
                    f"rows[{index}] is {shown(row)}; expected (sentence, reference Span or None, prediction Span or "
                    "None), as tally_semeval returns them"
                ) from None
        raise


def check_tally(tally: Any, options: Any = None) -> None:
    """An `InvalidInputError` where `tally` is no `Tally` or `options` neither an `Options` nor None: what the
    public functions over a tally take (`scores`, `confusion_matrix`, `compute.result_dict`)."""
    if not isinstance(tally, Tally):
        raise InvalidInputError(
            f"tally is {shown(tally)} ({type(tally).__name__}); expected a Tally (nerscore.tally_semeval returns one)"
        )
    if options is not None and not isinstance(options, Options):
        raise InvalidInputError(
            f"options is {shown(options)} ({type(options).__name__}); expected an Options (nerscore.Options.of(...))"
        )
