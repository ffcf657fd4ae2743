"""Agreement between annotators (docs/scoring.md §13): `agreement(annotations, **options)`.

Two measures that NER needs side by side. The pairwise F: each pair of annotators scored as `compute_semeval`
scores a system, the first as the references, through the one accumulator (`nerscore.Accumulator`), so every
option, scheme and diagnostic means what it means there. And the chance-corrected coefficients (Cohen's and
Fleiss' κ, Krippendorff's α) on units, tokens for tags, span units for spans, characters for strings, each
labelled with the types of the entities that cover it (`nerscore.statistics.agreement_coefficients`).

With `bootstrap`, the intervals come from one resampling of the sentences (or documents) that carries every
pair's scenario counts and the coefficients' sums at once (docs/scoring.md §9), by the BCa machinery of
`nerscore.statistics.resampling` (`nerscore.agreement_intervals`). The units and their labels are
`nerscore.agreement_units`; this module scores the pairs and builds the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from typing import Any, cast

import numpy as np

from .accumulator import Accumulator
from .agreement_inputs import Annotator, check_token_counts, common_form, read_annotations
from .agreement_intervals import intervals
from .agreement_units import UnitLabels, coded_tags, id_batches, span_labels, tag_labels
from .errors import shown
from .forms.inputs import IDS, SPANS, STRINGS, TAGS
from .option_checks import HIPE
from .options import Options
from .pairing.rules import SCENARIO_INDEX, SCENARIOS
from .result_scores import scores
from .statistics.agreement_coefficients import (
    alpha_totals,
    cohen_kappa,
    fleiss_kappa,
    fleiss_totals,
    krippendorff_alpha,
    unit_patterns,
)
from .systems import counted_as, set_options
from .table.columns import Columns
from .tally import Cell, CellTable, Tally

# Options whose keys have no place in the agreement's dict: refused, never silently ignored (and no flag of
# `ner-semeval agreement`).
REFUSED_OPTIONS = ("slices", "slice_edges", "seen")
# Scenarios II (spurious) and III (missed) trade places when the two annotators of a pair trade sides: each
# scenario's index, traded.
_TRADED_SCENARIO = np.array([SCENARIO_INDEX[{"II": "III", "III": "II"}.get(name, name)] for name in SCENARIOS])


def agreement(
    annotations: Mapping[str, Any],
    *,
    texts: Any = None,
    tokens: Any = None,
    documents: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """How far annotators agree (docs/scoring.md §13).

    `annotations` maps each annotator's name to a batch of one form (tags, ids with `label_list`, spans, or
    string entities with `texts`), aligned as `compute_semeval`'s references and predictions; a sentence given
    as None was not annotated by that annotator. Returns a dict: `annotators`; `pairs`, one dict per pair (a, b)
    in order (0, 1), (0, 2), ..., (1, 2), ... with `a`, `b`, every key `compute_semeval` gives for b's entities
    scored against a's as references, `cohen_kappa` and `cohen_kappa_labelled`; `{scheme}_f1_mean` (the mean of
    the pairs' F) and `{scheme}_f1_pooled` (the F of the counts of both directions of every pair); `fleiss_kappa`,
    `krippendorff_alpha`, the same `_labelled` (over the units some annotator labels), `units`,
    `units_labelled`; with `bootstrap`, `_low` and `_high` of every `{scheme}_f1_mean`, `fleiss_kappa` and
    `krippendorff_alpha`. F follows `beta` (`f1` is `f{beta}`); κ and α take `zero_division` where they are
    undefined. `options` are `compute_semeval`'s. Raises `ValueError` naming the annotators for fewer than two
    annotators, batches of other lengths or forms, or misaligned sentences."""
    checked = Options.of(**options)
    refused = set_options(checked, REFUSED_OPTIONS)
    if refused:
        raise ValueError(
            f"agreement takes no {', '.join(refused)}: score a pair of annotators with compute_semeval for slices"
        )
    annotators = read_annotations(annotations)
    if (blank := next((one.name for one in annotators if blank_name(one.name)), None)) is not None:
        raise ValueError(f"found the annotator name {shown(blank)}; expected a non-empty name (not white space alone)")
    sentences = len(annotators[0].present)
    # The columns checked as compute_semeval checks them (one value per sentence, each value's form located), and
    # kept as checked: a document numpy gives (np.array(1)) is its int there, unhashable as given.
    read = Columns.read(sentences, texts=texts, tokens=tokens, documents=documents)
    given = {name: list(getattr(read, name)) for name in read.given}
    # Without a single value, the sentences are empty lists: of spans (no entity) where a text or tokens say
    # how long they are, else of tags (no token).
    form = common_form(annotators) or (SPANS if "texts" in given or "tokens" in given else TAGS)
    pair_options, scored_annotators = checked, annotators
    if form in (TAGS, IDS):
        check_token_counts(annotators)
        coded = coded_tags(annotators, form, checked)
        units = tag_labels(coded, annotators, checked)
        if form == TAGS and "tokens" not in given and checked.label_list is None:
            batches, pair_options = id_batches(coded, annotators, checked)
            scored_annotators = [replace(annotator, rows=rows) for annotator, rows in zip(annotators, batches)]
    else:
        units = span_labels(annotators, form, checked, given)
    keep = checked.bootstrap > 0
    pair_results: list[dict[str, Any]] = []
    accumulators: list[Accumulator] = []
    for first, second in combinations(scored_annotators, 2):
        accumulator, scored = _pair(first, second, pair_options, given, keep)
        pair_results.append(scored)
        accumulators.append(accumulator)
    result: dict[str, Any] = {"annotators": [annotator.name for annotator in annotators], "pairs": pair_results}
    keys = [f"{scheme}_{checked.f_name}" for scheme in checked.evaluation_schemes]
    for key in keys:
        # The mean of the pairs' floats, correctly rounded: three pairs of 0.8 have the mean 0.8.
        result[f"{key}_mean"] = float(sum(Fraction(pair[key]) for pair in pair_results) / len(pair_results))
    pooled = _pooled_scores(scored_annotators, accumulators, pair_options, given, mirrored=form != STRINGS)
    result.update({f"{key}_pooled": pooled[key] for key in keys})
    result.update(_coefficients(units, pair_results, checked))
    if keep:
        result.update(intervals(result, accumulators, units, checked, given, annotators))
    return result


def blank_name(name: str) -> bool:
    """Whether an annotator's name is empty or white space alone (`' '`, a tab), which names no one in a report or
    a pair's dict: refused here and by every reader of annotators' names (the Space's refused only '')."""
    return not name or name.isspace()


def _coefficients(units: UnitLabels, pair_results: list[dict[str, Any]], options: Options) -> dict[str, Any]:
    """Cohen's κ of each pair (put in its dict), Fleiss' κ, Krippendorff's α, on all units and on the labelled
    ones, and the units counted (docs/scoring.md §13): once per pattern of labels, weighted by how many units
    have it."""
    categories = len(units.names)
    patterns, _, inverse = unit_patterns(units.codes, categories)
    weights = units.weighted(inverse, len(patterns))
    labelled: np.ndarray = np.asarray((patterns > 0).any(axis=1))
    zero = options.zero_division
    raters = units.codes.shape[1]
    for index, (column_a, column_b) in enumerate(combinations(range(raters), 2)):
        both = (patterns[:, column_a] >= 0) & (patterns[:, column_b] >= 0)
        for key, kept in (("cohen_kappa", both), ("cohen_kappa_labelled", both & labelled)):
            pair_results[index][key] = cohen_kappa(
                patterns[kept, column_a], patterns[kept, column_b], categories, zero, weights[kept]
            )
    result: dict[str, Any] = {}
    for suffix, kept in (("", np.ones(len(patterns), dtype=bool)), ("_labelled", labelled)):
        fleiss = fleiss_totals(patterns[kept], weights[kept], categories)
        result[f"fleiss_kappa{suffix}"] = float(fleiss_kappa(fleiss, raters, zero))
        alpha = alpha_totals(patterns[kept], weights[kept], categories)
        result[f"krippendorff_alpha{suffix}"] = float(krippendorff_alpha(alpha, zero))
    result["units"] = int(weights.sum())
    result["units_labelled"] = int(weights[labelled].sum())
    return result


# -- the pairs ----------------------------------------------------------------------------------------------------


def _subset(rows: Any, kept: np.ndarray) -> Any:
    if kept.all():
        return rows
    if isinstance(rows, np.ndarray):
        return rows[kept]
    return [rows[index] for index in np.flatnonzero(kept).tolist()]


def _pair(
    first: Annotator, second: Annotator, options: Options, given: Mapping[str, list[Any]], keep: bool
) -> tuple[Accumulator, dict[str, Any]]:
    """b's entities scored against a's as references on the sentences both annotated (docs/scoring.md §13):
    the accumulator (each sentence's counts kept in order with `bootstrap`) and its result with `a` and `b`."""
    both = first.present & second.present
    places = np.flatnonzero(both)
    columns = {name: _subset(values, both) for name, values in given.items()}
    accumulator = counted_as(
        _subset(second.rows, both),
        _subset(first.rows, both),
        options,
        columns,
        ordered=keep,
        sides={"predictions": second.side, "references": first.side},
        name=f"annotators {first.name!r} and {second.name!r}",
        sentences=places,
    )
    scored = accumulator.result()
    if "entities" in scored and not both.all():  # rows numbered among all sentences, not those both annotated
        scored["entities"] = [{**row, "sentence": int(places[row["sentence"]])} for row in scored["entities"]]
    return accumulator, {"a": first.name, "b": second.name, **scored}


def _pooled_scores(
    annotators: list[Annotator],
    accumulators: list[Accumulator],
    options: Options,
    given: Mapping[str, list[Any]],
    mirrored: bool,
) -> dict[str, Any]:
    """The scores of the counts summed over both directions of every pair (docs/scoring.md §13). `mirrored`: the
    other direction is the mirror image of a pair's tally, as it is unless the entities are strings (references
    are found in order, predictions as a choice, §1b)."""
    counting = options.overall()
    directions: list[tuple[Tally, bool]] = []  # each tally counted, and whether it counts with its sides traded
    for (first, second), accumulator in zip(combinations(annotators, 2), accumulators):
        tally = accumulator.tally or Tally()
        directions.append((tally, False))
        if mirrored and options.min_overlap is None and options.value is None and options.pairing != HIPE:
            directions.append((tally, True))  # the other direction: a's entities against b's references
        else:  # the threshold reads the reference's length, the HIPE scorer's pairing the predictions in order
            # (§3a), strings' grounding their side (§1b): the other direction is counted for itself
            directions.append((_pair(second, first, counting, given, False)[0].tally or Tally(), False))
    return scores(pooled_tally(directions), counting.evolve(value=None))


def pooled_tally(directions: list[tuple[Tally, bool]]) -> Tally:
    """The cells and overlap credit of many tallies summed at once, each as counted or with its two sides traded
    (`True`: what b's references would count of a's entities where the pairing is symmetric, docs/scoring.md §13),
    as columns: every cell numbered once, the distinct cells' numbers summed as integers in one sort. Tallies
    added one to the next copied the growing total each time: 8 annotators with 5,000 types took seconds."""
    numbering: dict[str | None, int] = {None: -1}  # each type's id among all the tallies' (None: no entity)
    parts: list[tuple[np.ndarray, ...]] = []
    credit: dict[tuple[str, str], Fraction] | None = None
    for tally, traded in directions:
        scenario, reference_type, predicted_type, number = _cell_columns(tally.cells, numbering)
        if traded:
            scenario, reference_type, predicted_type = _TRADED_SCENARIO[scenario], predicted_type, reference_type
        parts.append((scenario, reference_type, predicted_type, number))
        if tally.credit is not None:
            credit = {} if credit is None else credit
            for (reference, prediction), value in tally.credit.items():
                key = (prediction, reference) if traded else (reference, prediction)
                credit[key] = credit.get(key, 0) + value
    names = cast(list[str], list(numbering)[1:])
    scenario, reference_type, predicted_type, number = (np.concatenate(column) for column in zip(*parts))
    # One key a cell, its ids moved up by one (-1, no entity, is 0): equal keys are one cell.
    width = len(names) + 1
    key = (scenario * width + reference_type + 1) * width + predicted_type + 1
    order = np.argsort(key, kind="stable")
    starts = np.flatnonzero(np.diff(key[order], prepend=-1))  # (keys are >= 0: the first is a start)
    first = order[starts]
    summed = np.add.reduceat(number[order], starts) if len(order) else number
    cells = CellTable(scenario[first], reference_type[first], predicted_type[first], summed, names)
    return Tally(cells, credit=credit)


def _cell_columns(cells: Mapping[Cell, int], numbering: dict[str | None, int]) -> tuple[np.ndarray, ...]:
    """A tally's cells as int64 columns (scenario index, reference and predicted type ids, number), each type
    numbered in `numbering` (new ones added): a `CellTable`'s own columns with its few names looked up, else
    one look-up a cell."""
    if isinstance(cells, CellTable):
        ids = [numbering.setdefault(name, len(numbering) - 1) for name in cells.type_names]
        lookup = np.array([*ids, -1], dtype=np.int64)  # (type id -1, no entity, is the last)
        sides = lookup[cells.reference_type], lookup[cells.predicted_type]
        return np.asarray(cells.scenario, dtype=np.int64), *sides, np.asarray(cells.number, dtype=np.int64)
    size = len(cells)
    kinds, references, predictions = zip(*cells) if size else ((), (), ())
    for name in (*references, *predictions):
        numbering.setdefault(name, len(numbering) - 1)
    scenario = np.fromiter(map(SCENARIO_INDEX.__getitem__, kinds), np.int64, size)
    columns = [np.fromiter(map(numbering.__getitem__, types), np.int64, size) for types in (references, predictions)]
    return scenario, *columns, np.fromiter(cells.values(), np.int64, size)
