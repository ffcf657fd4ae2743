"""The result dict of a tally (docs/scoring.md §4, §5, §7, §10): the four schemes' scores, macro averages, per type,
the value score, the confusion matrix and the `entities` rows. What it is made of, and adds, is `nerscore.tally`."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from .errors import InvalidInputError, shown
from .measures import Ratios, Rule
from .option_checks import Weights, check_evaluation_schemes
from .options import EVALUATION_SCHEMES, OVERLAP, Options
from .pairing.rules import scenario_of
from .pairing.value import WeightTable
from .schemes import OUTSIDE
from .span import Span
from .tally import COUNT_NAMES, OUTCOMES, Cell, CellColumns, Counts, Row, Tally

if TYPE_CHECKING:
    from fractions import Fraction
# fractions (and decimal, 1.4 ms of `import nerscore`) are imported by the functions that make a Fraction: those of
# a partial credit other than a half and of the value score.

# Scores are exact fractions until they leave `scores`, so the worked example's 0.2 is 0.2, not
# 0.20000000000000004, and every key is the correctly rounded value of its formula (docs/scoring.md §4).


def scores(tally: Tally, options: Options | None = None) -> dict[str, Any]:
    """The flat docs/scoring.md §7 dict of a tally, in plain `int` and `float`.

    Macro averages are unweighted means over the types seen on either side, or over `labels` when given
    (a label with no entity then scores as a type with no entity on either side)."""
    check_tally(tally, options)
    return scores_of([tally], options)[0]


class _Terms(NamedTuple):
    """What `scores` reads of one tally before its exact ratios: its columns, each scheme's counts, and each
    scheme's per-type terms (`type_terms`)."""

    columns: CellColumns
    counts: list[Counts]
    credits: list[Fraction | None]
    type_terms: list[tuple[np.ndarray, ...]]


def scores_of(tallies: Sequence[Tally], options: Options | None = None) -> list[dict[str, Any]]:
    """`scores` of each of several tallies (a slice's buckets, docs/scoring.md §11), their exact ratios computed in
    two calls for all of them, the totals' and the types' (each row's ratio is its own, whichever rows share the
    arrays), where a call per tally cost more than its arithmetic."""
    options = Options() if options is None else options
    labels = list(dict.fromkeys(options.labels)) if options.labels is not None else None
    schemes = options.evaluation_schemes  # all four unless the caller asks for fewer
    terms = [_terms_of(tally, options, labels, schemes) for tally in tallies]
    if not terms:
        return []
    rule = Rule.of(options)
    # Every scheme's totals of every tally in one exact computation, and every scheme's types in another: the
    # schemes are rows of one array as the types are.
    totals = (row for part in terms for row in map(_credits, part.counts, part.credits))
    overall = [value.tolist() for value in rule.exact(*stacked_terms(totals)).values()]
    type_ratios = rule.exact(*stacked_terms(scheme_terms[:4] for part in terms for scheme_terms in part.type_terms))
    # Every scheme's macro means of every tally at once (each block's means are its own).
    sizes = [part.columns.types for part in terms for _ in schemes]
    grouped = type_ratios.grouped_means(np.cumsum([0, *sizes[:-1]], dtype=np.int64), options.zero_division)
    means = [list(group) for group in zip(*grouped)]
    results = []
    overall_at = types_at = 0
    for tally, part in zip(tallies, terms):
        part_overall = [values[overall_at : overall_at + len(schemes)] for values in overall]
        part_means = means[overall_at : overall_at + len(schemes)]
        results.append(_scores_dict(tally, options, schemes, part, part_overall, (type_ratios, part_means), types_at))
        overall_at += len(schemes)
        types_at += len(schemes) * part.columns.types
    return results


def _terms_of(tally: Tally, options: Options, labels: list[str] | None, schemes: Sequence[str]) -> _Terms:
    columns = CellColumns.of(tally, labels, ordered=options.per_type)  # the types' order shows only per type
    if options.confusion:  # refused before anything is scored (docs/scoring.md §7)
        check_confusion(columns.entity_types, sparse=options.confusion == SPARSE)
    counts = [columns.counts(scheme) for scheme in schemes]
    credits = [
        None if scheme != "partial" else partial_credit(tally, options, scheme_counts.partial)
        for scheme, scheme_counts in zip(schemes, counts)
    ]
    by_scheme = [
        columns.half_terms(scheme)  # (type_terms of the half point's credit, without the five counts)
        if credit is None
        else type_terms(*(sides := columns.totals_by_type(scheme)), type_credits(*sides, tally, options, columns))
        for scheme, credit in zip(schemes, credits)
    ]
    return _Terms(columns, counts, credits, by_scheme)


def _scores_dict(
    tally: Tally,
    options: Options,
    schemes: Sequence[str],
    part: _Terms,
    overall: list[list[float]],
    type_scores: tuple[Ratios, list[list[float]]],
    types_at: int,
) -> dict[str, Any]:
    """`scores`' dict of one tally: `overall`, its schemes' P, R and F, and its types' ratios, the rows of
    `type_scores`' ratios from `types_at`, with their macro means by scheme (`scores_of`)."""
    type_ratios, means = type_scores
    f_name = options.f_name
    columns = part.columns
    # (named only where a key or the matrix shows them: `CellColumns.entity_types`)
    entity_types = columns.entity_types if options.per_type or options.confusion else []
    result: dict[str, Any] = {}
    by_type: list[tuple[str, list[list[int | float]]]] = []
    for index, (scheme, scheme_counts, terms) in enumerate(zip(schemes, part.counts, part.type_terms)):
        for name, values in zip(("precision", "recall", f_name), overall):
            result[f"{scheme}_{name}"] = values[index]
        for field in COUNT_NAMES.values():
            result[f"{scheme}_{field}"] = getattr(scheme_counts, field)
        result[f"{scheme}_possible"] = scheme_counts.possible
        result[f"{scheme}_actual"] = scheme_counts.actual
        for name, mean in zip(("precision", "recall", f_name), means[index]):
            result[f"{scheme}_macro_{name}"] = mean
        if options.per_type:
            first = types_at + index * columns.types
            ratios = type_ratios.rows(first, first + columns.types)
            by_type.append((scheme, [column.tolist() for column in (*ratios.values(), *terms[4:])]))  # P R F POS ACT
    if tally.tokens is not None:
        # conlleval's accuracy line and seqeval's accuracy_score, over tokens rather than entities.
        tokens = tally.tokens
        result["token_accuracy"] = tokens.equal / tokens.tokens if tokens.tokens else float(options.zero_division)
    if tally.ungrounded is not None:
        result["ungrounded"] = tally.ungrounded  # docs/scoring.md §1b
    if options.value is not None:
        result.update(value_scores(tally, options, entity_types if options.per_type else None))
    for scheme, type_columns in by_type:
        names = [f"_{scheme}_{name}" for name in ("precision", "recall", f_name, "possible", "actual")]
        # Type by type, the five keys of each in turn: the order of the keys a loop over types would write.
        for entity_type, *type_values in zip(entity_types, *type_columns):
            result.update(zip([entity_type + name for name in names], type_values))
    if options.confusion:
        result["confusion"] = confusion_matrix(tally, entity_types, sparse=options.confusion == SPARSE)
    return result


def two_sided_scores(tally: Tally, names: Sequence[str], options: Options) -> dict[str, dict[str, Any]]:
    """Scores of buckets counted as per-type scores are (docs/scoring.md §5, §11): `tally`'s "types" are bucket
    names, a reference counting for recall in its bucket and a prediction for precision in its own. For each of
    `names` with an entity on either side, in their order: P, R, F, POS and ACT of every scheme."""
    columns = CellColumns.of(tally, list(names))
    f_name = options.f_name
    schemes = options.evaluation_schemes
    scheme_terms = []
    for sides, scheme in zip(map(columns.totals_by_type, schemes), schemes):
        # docs/scoring.md §10: a PAR's credit other than a half, as per-type scores take it
        numeric = scheme == "partial" and options.partial_credit not in (0.5, OVERLAP)
        scheme_terms.append(type_terms(*sides, type_credits(*sides, tally, options, columns) if numeric else None))
    # Every scheme's buckets in one exact computation (each row's ratio is its own).
    ratios = Rule.of(options).exact(*stacked_terms(terms[:4] for terms in scheme_terms))
    values = [value.tolist() for value in ratios.values()]
    out: dict[str, dict[str, Any]] = {}
    keys = ("precision", "recall", f_name, "possible", "actual")
    for index, (scheme, terms) in enumerate(zip(schemes, scheme_terms)):
        rows = slice(index * columns.types, (index + 1) * columns.types)
        measures = zip(names, *(value[rows] for value in values), terms[4].tolist(), terms[5].tolist())
        for name, precision, recall, f, possible, actual in measures:
            if possible or actual:
                scheme_measures = (precision, recall, f, possible, actual)
                out.setdefault(name, {}).update((f"{scheme}_{key}", value) for key, value in zip(keys, scheme_measures))
    return {name: out[name] for name in names if name in out}


def stacked_terms(rows: Iterable[Sequence[np.ndarray]]) -> list[np.ndarray]:
    """Terms of several row groups (schemes) as one array per term, the groups one after the other."""
    return [np.concatenate(term) for term in zip(*rows)]


def partial_credit(tally: Tally, options: Options, partial: int) -> Fraction | None:
    """The credit of the partial scheme's PARs (docs/scoring.md §10): None for the half point of §4 (the
    integer credits of `_credits`), else partial_credit · PAR, or with "overlap" the tally's
    summed shares."""
    if options.partial_credit == 0.5:
        return None
    from fractions import Fraction

    if options.partial_credit == OVERLAP:
        return sum((tally.credit or {}).values(), Fraction(0))
    return Fraction(options.partial_credit) * partial


def _credits(counts: Counts, credit: Fraction | None) -> tuple[np.ndarray, ...]:
    """The totals' (precision credit, ACT, recall credit, POS) as `Rule.exact` takes them, one row each: COR + PAR / 2
    over ACT and POS, counted in halves, or with another credit n / d (docs/scoring.md §10) in d-ths."""
    # COR + PAR / 2 counted in halves is COR + n / d counted in d-ths with n / d = PAR / 2.
    n, d = (counts.partial, 2) if credit is None else (credit.numerator, credit.denominator)
    terms = (d * counts.correct + n, d * counts.actual, d * counts.correct + n, d * counts.possible)
    return tuple(np.array([term], dtype=object) for term in terms)


def type_terms(
    reference_side: np.ndarray,
    prediction_side: np.ndarray,
    credits: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, ...]:
    """What `Rule.exact` takes of every type from `CellColumns.totals_by_type`: (precision credit, ACT, recall
    credit, POS) in halves (COR + PAR / 2), then POS and ACT. `credits`: another partial credit's (recall credit,
    recall total, precision credit, precision total) (`type_credits`)."""
    correct, incorrect, partial, missed = reference_side[:, :4].T
    possible = correct + incorrect + partial + missed
    actual = prediction_side[:, 0] + prediction_side[:, 1] + prediction_side[:, 2] + prediction_side[:, 4]
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

    correct_r, partial_r = reference_side[:, 0].astype(object), reference_side[:, 2].astype(object)
    possible = reference_side[:, :4].sum(axis=1).astype(object)
    correct_p, partial_p = prediction_side[:, 0].astype(object), prediction_side[:, 2].astype(object)
    actual = (prediction_side.sum(axis=1) - prediction_side[:, 3]).astype(object)
    if options.partial_credit != OVERLAP:
        c = Fraction(options.partial_credit)
        n, d = c.numerator, c.denominator
        return d * correct_r + n * partial_r, d * possible, d * correct_p + n * partial_p, d * actual
    assert tally is not None  # (the overlap credit is a tally's own)
    index = {entity_type: position for position, entity_type in enumerate(columns.entity_types)}
    shares: list[list[Fraction]] = [[Fraction(0)] * columns.types, [Fraction(0)] * columns.types]
    for (reference_type, predicted_type), share in (tally.credit or {}).items():
        for side, entity_type in ((0, reference_type), (1, predicted_type)):
            if entity_type in index:
                shares[side][index[entity_type]] += share
    arrays = []
    for (correct, total), side_shares in zip(((correct_r, possible), (correct_p, actual)), shares):
        numerators = np.array([share.numerator for share in side_shares] or [0], dtype=object)[: columns.types]
        denominators = np.array([share.denominator for share in side_shares] or [1], dtype=object)[: columns.types]
        arrays += [denominators * correct + numerators, denominators * total]
    return arrays[0], arrays[1], arrays[2], arrays[3]


def value_scores(tally: Tally, options: Options, entity_types: Sequence[str] | None = None) -> dict[str, float]:
    """`value`, `value_precision`, `value_recall` and `value_f{β}` of the tally's value cells (docs/scoring.md
    §10), and with `entity_types` the same per type (`{TYPE}_value_*`), as exact fractions rounded once."""
    from fractions import Fraction

    assert options.value is not None
    table = WeightTable(options.value)
    sums = value_sums(tally.value_cells or {}, table)
    nothing = (Fraction(0),) * 5
    rows = [tuple(sum(column, Fraction(0)) for column in zip(*sums.values())) if sums else nothing]
    rows += [sums.get(entity_type, nothing) for entity_type in entity_types or ()]
    kept, kept_p, cost, worth_r, worth_p = zip(*rows)
    rule = Rule.of(options)
    value = rule.exact_share(*_integer_ratios([k - c for k, c in zip(kept, cost)], worth_r))
    precision_recall_f = rule.exact(*_integer_ratios(kept_p, worth_p), *_integer_ratios(kept, worth_r)).values()
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


def _integer_ratios(credits: Sequence[Fraction], totals: Sequence[Fraction]) -> tuple[np.ndarray, np.ndarray]:
    """credit / total of exact fractions as integers (numerator, denominator) in object arrays, a total of 0 kept 0."""
    numerators = [c.numerator * t.denominator for c, t in zip(credits, totals)]
    denominators = [t.numerator * c.denominator for c, t in zip(credits, totals)]
    return np.array(numerators, dtype=object), np.array(denominators, dtype=object)


def value_sums(value_cells: Mapping[Cell, int], table: WeightTable) -> dict[str, tuple[Fraction, ...]]:
    """Per type, (Σ kept over its references, Σ kept' over its predictions, the false-alarm cost of its unpaired
    predictions, the worth of its references, the worth of its predictions) (docs/scoring.md §10)."""
    from fractions import Fraction

    # The cells' numbers summed as integers first, by type (and by scenario where the factor depends on it), and
    # each sum weighed once: the same exact sums with a few Fraction products, not several for every cell.
    worth: dict[tuple[str, int], int] = {}  # (type, 3: as a reference; 4: as a prediction) -> entities
    kept: dict[tuple[str, int, str], int] = {}  # (type, 0: its reference's; 1: its prediction's, scenario) -> pairs
    unpaired: dict[str, int] = {}  # predicted type -> unpaired predictions
    for (scenario, reference_type, predicted_type), number in value_cells.items():
        if reference_type is not None:
            worth[reference_type, 3] = worth.get((reference_type, 3), 0) + number
        if predicted_type is not None:
            worth[predicted_type, 4] = worth.get((predicted_type, 4), 0) + number
        if reference_type is not None and predicted_type is not None:
            kept[reference_type, 0, scenario] = kept.get((reference_type, 0, scenario), 0) + number
            kept[predicted_type, 1, scenario] = kept.get((predicted_type, 1, scenario), 0) + number
        elif predicted_type is not None:
            unpaired[predicted_type] = unpaired.get(predicted_type, 0) + number
    sums: dict[str, list[Fraction]] = {entity_type: [Fraction(0)] * 5 for entity_type, _ in worth}
    for (entity_type, column), number in worth.items():
        sums[entity_type][column] += number * table.weight(entity_type)
    for (entity_type, column, scenario), number in kept.items():
        sums[entity_type][column] += number * table.weight(entity_type) * table.factor(scenario)
    for entity_type, number in unpaired.items():
        sums[entity_type][2] += number * table.false_alarm * table.weight(entity_type)
    return {entity_type: tuple(totals) for entity_type, totals in sums.items()}


# docs/scoring.md §10: what the statistics carry of each sentence besides its six scenario counts, in this order:
# the overlap credit (partial_credit="overlap"), then the value's five sums (value on).
VALUE_COLUMNS = ("kept", "kept_precision", "cost", "worth_references", "worth_predictions")


def weighted_width(options: Options) -> int:
    """How many columns of `weighted_columns` the options ask for (0: none, the integer statistics as ever)."""
    return (options.partial_credit == OVERLAP) + len(VALUE_COLUMNS) * (options.value is not None)


def cost_scale(weights: Weights) -> float:
    """The power of two the statistics' cost column is kept divided by, beyond `WeightTable.largest`: 1 unless
    `false_alarm` passes 2**900, so that a false alarm costs at most 2**900 units there and the sums of the costs
    stay finite (a false_alarm of 1e308 made the second false alarm's sum infinite, and the intervals NaN)."""
    return 2.0 ** max(0, math.frexp(weights.false_alarm)[1] - 900)


def value_cell_columns(cells: Sequence[Cell], table: WeightTable) -> np.ndarray:
    """For each value cell (scenario, reference type, predicted type), what one of its rows adds to each of
    `VALUE_COLUMNS`, in units of the largest weight (`WeightTable.largest`: a weight of 1e308 sums to no
    infinity), the cost further divided by `cost_scale`, as the floats nearest the exact fractions (cells x 5)."""
    from fractions import Fraction

    values = np.zeros((len(cells), len(VALUE_COLUMNS)))
    unit = table.largest
    scale = Fraction(cost_scale(table.weights))
    units = [unit, unit, unit * scale, unit, unit]
    for position, (scenario, reference_type, predicted_type) in enumerate(cells):
        one = value_sums({(scenario, reference_type, predicted_type): 1}, table)
        values[position] = [float(sum(column, Fraction(0)) / by) for column, by in zip(zip(*one.values()), units)]
    return values


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


def entity_rows(rows: Iterable[Row], schemes: Sequence[str] = EVALUATION_SCHEMES) -> list[dict[str, Any]]:
    """The `entities` output: one JSON-ready dict per pair or unpaired entity (docs/scoring.md §7), with its
    outcome under each of `schemes` (the option `evaluation_schemes`)."""
    check_evaluation_schemes("schemes", schemes)  # (kept in the order given)
    rows = rows if isinstance(rows, (list, tuple)) else list(rows)
    # Each scenario's last keys (the scenario and its outcomes) made once: a batch has hundreds of thousands of rows
    # and six scenarios.
    tails = {
        scenario: {"scenario": scenario, **{scheme: OUTCOMES[scenario][scheme] for scheme in schemes}}
        for scenario in OUTCOMES
    }
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
