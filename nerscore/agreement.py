"""Agreement between annotators (docs/scoring.md §13): `agreement(annotations, **options)`.

Two measures that NER needs side by side. The pairwise F: each pair of annotators scored as `compute_semeval`
scores a system, the first as the references, through the one accumulator (`nerscore.Accumulator`), so every
option, scheme and diagnostic means what it means there. And the chance-corrected coefficients (Cohen's and
Fleiss' κ, Krippendorff's α) on units, tokens for tags, span units for spans, characters for strings, each
labelled with the types of the entities that cover it (`nerscore.statistics.agreement_coefficients`).

With `bootstrap`, the intervals come from one resampling of the sentences (or documents) that carries every
pair's scenario counts and the coefficients' sums at once (docs/scoring.md §9), by the BCa machinery of
`nerscore.statistics.resampling`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import chain, combinations, count, repeat
from operator import is_not
from typing import Any, NamedTuple

import numpy as np

from .accumulator import Accumulator, PerSentence
from .decoding import ROLE_FLAGS, decode_roles
from .errors import InvalidInputError, shown
from .forms.grounding import Haystack, ground_references
from .forms.inputs import (
    IDS,
    SPANS,
    TAGS,
    as_list,
    first_value,
    read_spans,
    read_strings,
    rows_of,
    value_form,
)
from .forms.span_arrays import _span_values
from .options import EVALUATION_SCHEMES, Options
from .result_scores import scores
from .schemes import TagTable
from .span import Span
from .statistics.agreement_coefficients import (
    MISSING,
    alpha_totals,
    cohen_kappa,
    fleiss_kappa,
    fleiss_totals,
    krippendorff_alpha,
    pattern_counts,
    unit_patterns,
)
from .statistics.resampling import _resampled_interval
from .statistics.sample_statistics import _statistics
from .statistics.unit_counts import SentenceCounts, per_unit
from .tally import Tally

OUTSIDE = "O"  # the label of a unit no entity covers
STACKED = "|"  # joins the distinct types of one annotator's entities that cover one unit
# Options whose keys have no place in the agreement's dict: refused, never silently ignored.
_REFUSED = ("slices", "slice_edges", "seen")
# The token of a sentence an annotator did not annotate, where its tags are coded over every sentence.
_UNANNOTATED = object()
# Scenarios II (spurious) and III (missed) trade places when the two annotators of a pair trade sides.
_REVERSED_SCENARIO = {"II": "III", "III": "II"}


@dataclass(frozen=True)
class _Annotator:
    """One annotator's batch as read: its sentences (an empty one where it gave None) and which it annotated."""

    name: str
    rows: Any  # a list of sentences, or a 2-D array of ids
    present: np.ndarray  # bool, one per sentence

    @property
    def side(self) -> str:
        return f"annotations[{self.name!r}]"


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
    refused = [name for name in _REFUSED if name in options and options[name] not in (None, (), [], False)]
    if refused:
        raise ValueError(
            f"agreement takes no {', '.join(refused)}: score a pair of annotators with compute_semeval for slices"
        )
    annotators = _read_annotations(annotations)
    sentences = len(annotators[0].present)
    columns = {"texts": texts, "tokens": tokens, "documents": documents}
    given = {name: _column(values, name, sentences) for name, values in columns.items() if values is not None}
    # Without a single value, the sentences are empty lists: of spans (no entity) where a text or tokens say
    # how long they are, else of tags (no token).
    form = _common_form(annotators) or (SPANS if "texts" in given or "tokens" in given else TAGS)
    pair_options, scored_annotators = checked, annotators
    if form in (TAGS, IDS):
        _check_token_counts(annotators)
        coded = _coded_tags(annotators, form, checked)
        units = _tag_labels(coded, annotators, checked)
        if form == TAGS and "tokens" not in given and checked.label_list is None:
            batches, pair_options = _id_batches(coded, annotators, checked)
            scored_annotators = [replace(annotator, rows=rows) for annotator, rows in zip(annotators, batches)]
    else:
        units = _span_labels(annotators, form, checked, given)
    keep = checked.bootstrap > 0
    pair_results: list[dict[str, Any]] = []
    accumulators: list[Accumulator] = []
    for first, second in combinations(scored_annotators, 2):
        accumulator, scored = _pair(first, second, pair_options, given, keep)
        pair_results.append(scored)
        accumulators.append(accumulator)
    result: dict[str, Any] = {"annotators": [annotator.name for annotator in annotators], "pairs": pair_results}
    schemes = checked.evaluation_schemes
    f_name = checked.f_name
    for scheme in schemes:
        values = [Fraction(pair[f"{scheme}_{f_name}"]) for pair in pair_results]
        # The mean of the pairs' floats, correctly rounded: three pairs of 0.8 have the mean 0.8.
        result[f"{scheme}_{f_name}_mean"] = float(sum(values) / len(values))
    pooled = _pooled_scores(scored_annotators, accumulators, pair_options, given)
    for scheme in schemes:
        result[f"{scheme}_{f_name}_pooled"] = pooled[f"{scheme}_{f_name}"]

    result.update(_coefficients(units, pair_results, checked))
    if keep:
        result.update(_intervals(result, accumulators, units, checked, given, annotators))
    return result


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


# -- reading the annotators' batches ----------------------------------------------------------------------------


def _read_annotations(annotations: Mapping[str, Any]) -> list[_Annotator]:
    """Each annotator's batch as a list of sentences (None: not annotated), checked for the number of sentences."""
    if not isinstance(annotations, Mapping):
        raise ValueError(
            f"found {type(annotations).__name__}; expected annotations as a dict of annotator name -> batch"
        )
    if len(annotations) < 2:
        names = ", ".join(map(repr, annotations)) or "none"
        raise ValueError(f"found {len(annotations)} annotator ({names}); expected at least two to compare")
    read = []
    for name, batch in annotations.items():
        if not isinstance(name, str):
            raise ValueError(f"found the annotator name {shown(name)}; expected names as strings")
        side = f"annotations[{name!r}]"
        if isinstance(batch, np.ndarray) and batch.ndim == 2:
            rows = as_list(batch, side)
            present = np.ones(len(rows), dtype=bool)
        else:
            if isinstance(batch, (str, bytes, Mapping)) or not hasattr(batch, "__iter__"):
                raise InvalidInputError(
                    f"found {type(batch).__name__}; expected a batch: a list with one list per sentence", side
                )
            listed = list(batch)
            present = np.fromiter(map(is_not, listed, repeat(None)), dtype=bool, count=len(listed))  # at C speed
            rows = as_list(listed if present.all() else [row if row is not None else [] for row in listed], side)
        read.append(_Annotator(name, rows, present))
    lengths = {annotator.name: len(annotator.present) for annotator in read}
    if len(set(lengths.values())) > 1:
        first = read[0]
        other = next(annotator for annotator in read if len(annotator.present) != len(first.present))
        raise ValueError(
            f"annotator {first.name!r} gives {len(first.present)} sentences and {other.name!r} "
            f"{len(other.present)}; expected every annotator to give one entry (None: not annotated) per sentence"
        )
    return read


def _common_form(annotators: list[_Annotator]) -> str | None:
    """The form all annotators' batches share (docs/scoring.md §1), by each one's first value (None without any)."""
    forms = {}
    for annotator in annotators:
        value = first_value(rows_of(annotator.rows))
        if value is not None:
            forms[annotator.name] = value_form(value)
    if len(set(forms.values())) > 1:
        for annotator in annotators:  # a malformed entity ([3, 5]) beside spans: located as compute_semeval does
            value = first_value(rows_of(annotator.rows))
            if SPANS in forms.values() and forms.get(annotator.name) == TAGS and isinstance(value, (list, tuple)):
                read_spans(rows_of(annotator.rows), annotator.side)
        (name_a, form_a), (name_b, form_b) = next(
            (first, second) for first, second in combinations(forms.items(), 2) if first[1] != second[1]
        )
        raise ValueError(
            f"annotator {name_a!r} gives {form_a} and {name_b!r} gives {form_b}; expected every annotator's batch "
            "in one form"
        )
    return next(iter(forms.values()), None)


def _column(values: Any, name: str, sentences: int) -> list[Any]:
    listed = list(values)
    if len(listed) != sentences:
        raise InvalidInputError(
            f"found {len(listed)} values for {sentences} sentences; expected one per sentence", name
        )
    return listed


def _lengths(annotator: _Annotator) -> np.ndarray:
    rows = annotator.rows
    if isinstance(rows, np.ndarray):
        return np.full(rows.shape[0], rows.shape[1], dtype=np.int64)
    return np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))


def _check_token_counts(annotators: list[_Annotator]) -> None:
    """Tags and ids: every sentence has as many tokens for every annotator who annotated it (docs/scoring.md §1)."""
    first = annotators[0]
    reference, known = _lengths(first), first.present.copy()
    reference_name = np.zeros(len(known), dtype=np.int64)
    for index, annotator in enumerate(annotators[1:], start=1):
        lengths = _lengths(annotator)
        differ = known & annotator.present & (lengths != reference)
        if differ.any():
            sentence = int(np.flatnonzero(differ)[0])
            other = annotators[int(reference_name[sentence])]
            raise InvalidInputError(
                f"{annotator.side} has {int(lengths[sentence])} tags and {other.side} {int(reference[sentence])}; "
                "expected every annotator's tags token-aligned, of equal length",
                annotator.side,
                sentence,
            )
        new = annotator.present & ~known
        reference[new] = lengths[new]
        reference_name[new] = index
        known |= new


# -- the pairs ----------------------------------------------------------------------------------------------------


def _subset(rows: Any, kept: np.ndarray) -> Any:
    if kept.all():
        return rows
    if isinstance(rows, np.ndarray):
        return rows[kept]
    return [rows[index] for index in np.flatnonzero(kept).tolist()]


def _pair(
    first: _Annotator, second: _Annotator, options: Options, given: Mapping[str, list[Any]], keep: bool
) -> tuple[Accumulator, dict[str, Any]]:
    """b's entities scored against a's as references on the sentences both annotated (docs/scoring.md §13):
    the accumulator (each sentence's counts kept in order with `bootstrap`) and its result with `a` and `b`."""
    both = first.present & second.present
    places = np.flatnonzero(both)
    columns = {name: _subset(values, both) for name, values in given.items()}
    try:
        accumulator = Accumulator(options, ordered=keep).update_checked(
            _subset(second.rows, both), _subset(first.rows, both), columns
        )
    except InvalidInputError as error:
        side = {"predictions": second.side, "references": first.side}.get(error.side or "", error.side)
        sentence = None if error.sentence is None else int(places[error.sentence])
        located = InvalidInputError(error.problem, side, sentence, error.token, error.suggested_scheme, error.entity)
        raise located from None
    except ValueError as error:
        raise ValueError(f"annotators {first.name!r} and {second.name!r}: {error}") from None
    scored = accumulator.result()
    if "entities" in scored and not both.all():  # rows numbered among all sentences, not those both annotated
        scored["entities"] = [{**row, "sentence": int(places[row["sentence"]])} for row in scored["entities"]]
    return accumulator, {"a": first.name, "b": second.name, **scored}


def _reversed(tally: Tally) -> Tally:
    """The tally of a pair with its two sides traded (docs/scoring.md §13): what b's references would count of
    a's entities wherever the pairing is symmetric (no `min_overlap`, no `value`)."""
    cells = {
        (_REVERSED_SCENARIO.get(scenario, scenario), predicted, reference): count
        for (scenario, reference, predicted), count in tally.cells.items()
    }
    credit = None if tally.credit is None else {(p, r): value for (r, p), value in tally.credit.items()}
    return Tally(cells, credit=credit)


def _pooled_scores(
    annotators: list[_Annotator], accumulators: list[Accumulator], options: Options, given: Mapping[str, list[Any]]
) -> dict[str, Any]:
    """The scores of the counts summed over both directions of every pair (docs/scoring.md §13)."""
    counting = options.evolve(
        per_type=False, bootstrap=0, return_entities=False, confusion=False, diagnostics=False, errors=False
    )
    total = Tally()
    for (first, second), accumulator in zip(combinations(annotators, 2), accumulators):
        tally = accumulator.tally or Tally()
        if options.min_overlap is None and options.value is None:
            backwards = _reversed(tally)
        else:  # the threshold reads the reference's length: the other direction is counted for itself
            backwards = _pair(second, first, counting, given, False)[0].tally or Tally()
        total = total + Tally(dict(tally.cells), credit=tally.credit) + backwards
    return scores(total, counting.evolve(value=None))


# -- the units and their labels -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitLabels:
    """Every unit's label per annotator (docs/scoring.md §13): `codes` (units x annotators) index `names`
    (`names[0]` is "O"), `MISSING` where the annotator did not annotate the unit's sentence; `sentence` is each
    unit's sentence (non-decreasing); `weight`, where given, how many units each row stands for (spans: a stretch
    of units that every entity covers alike)."""

    codes: np.ndarray
    names: list[str]
    sentence: np.ndarray
    weight: np.ndarray | None = None

    def weighted(self, inverse: np.ndarray, rows: int) -> np.ndarray:
        """How many units each of `rows` groups holds, the row of each unit's group `inverse` (`unit_patterns`)."""
        if self.weight is None:
            return np.bincount(inverse, minlength=rows).astype(np.int64)
        counts = np.zeros(rows, dtype=np.int64)
        np.add.at(counts, inverse, self.weight)
        return counts

    @property
    def labelled(self) -> np.ndarray:
        """The units some annotator labels with a type (a label other than "O")."""
        return np.asarray((self.codes > 0).any(axis=1))


class _EntityColumns(NamedTuple):
    """One annotator's entities as columns: each one's sentence, start, end (in its sentence) and type."""

    sentence: np.ndarray
    start: np.ndarray
    end: np.ndarray
    type_id: np.ndarray
    type_names: list[str]


# Spans' units are labelled one by one while they are at most this many times the entities' boundaries.
_DENSE_UNITS = 4


def _span_labels(
    annotators: Sequence[_Annotator], form: str, options: Options, given: Mapping[str, list[Any]]
) -> UnitLabels:
    """Spans and strings: the units of docs/scoring.md §13 and each annotator's label of each: span units (a
    sentence's units run from 0 to the largest end among all annotators' entities in it, or to the length of
    its text or tokens when given), characters for strings (grounded as references are, §1b)."""
    read = [_entity_columns(annotator, form, options, given) for annotator in annotators]
    length = _span_units(len(annotators[0].present), read, given)
    total = sum(length.tolist())
    if total >= 1 << 62:  # the units counted in int64
        raise ValueError(
            f"the sentences' units add up to {total}; agreement counts at most 2**62 units (span offsets, characters "
            "of texts)"
        )
    # Unit by unit where the units are few beside the entities' boundaries (tokens, short texts: the quicker way);
    # else the units between two consecutive boundaries of a sentence (0, its end, an entity's start or end), which
    # carry the same labels, are one row standing for them all (`weight`), so that time and memory follow the
    # entities, never their offsets.
    sentences = [np.arange(len(length)), np.arange(len(length))] + [e.sentence for e in read for _ in (0, 1)]
    positions = [np.zeros(len(length), np.int64), length] + [p for e in read for p in (e.start, e.end)]
    sentence_of, position_of = np.concatenate(sentences), np.concatenate(positions)
    if total <= _DENSE_UNITS * len(position_of):
        offsets = np.r_[0, np.cumsum(length)]
        keys, width = offsets[sentence_of] + position_of, 0
        index, sentence, weight = keys, np.repeat(np.arange(len(length)), length), None
        units, real = total + 1, np.r_[np.ones(total, dtype=bool), False]
    else:
        width = int(length.max(initial=0)) + 1
        if len(length) * width < 1 << 62:  # each boundary one integer: a sort of int64
            keys, index = np.unique(sentence_of * width + position_of, return_inverse=True)
            boundary_sentence, boundary_position = np.divmod(keys, width)
        else:
            boundary, index = np.unique(np.column_stack((sentence_of, position_of)), axis=0, return_inverse=True)
            boundary_sentence, boundary_position = boundary[:, 0], boundary[:, 1]
        index = index.reshape(-1)
        real = np.r_[boundary_sentence[1:] == boundary_sentence[:-1], False]  # up to its sentence's next boundary
        units, sentence, weight = len(real), boundary_sentence[real], np.diff(boundary_position)[real[:-1]]
    names: dict[str, int] = {OUTSIDE: 0}
    codes = np.empty((len(sentence), len(annotators)), dtype=np.int64)
    cursor = 2 * len(length)
    for column, (entities, annotator) in enumerate(zip(read, annotators)):
        count = len(entities.start)
        start, end = index[cursor : cursor + count], index[cursor + count : cursor + 2 * count]
        cursor += 2 * count
        local, local_names = _covering_labels(start, end, entities.type_id, entities.type_names, units)
        to_global = np.array([names.setdefault(name, len(names)) for name in local_names], dtype=np.int64)
        codes[:, column] = np.where(annotator.present[sentence], to_global[local[real]], MISSING)
    return UnitLabels(codes, list(names), sentence, weight)


def _covering_labels(
    start: np.ndarray, end: np.ndarray, type_id: np.ndarray, type_names: Sequence[str], units: int
) -> tuple[np.ndarray, list[str]]:
    """Each unit's label among `units` units from entities [start, end) (flat positions) of types `type_id`
    (indexing `type_names`): "O", a type, or the distinct types of the entities covering it, sorted and joined
    by "|"; as codes into the list of labels returned."""
    used = np.unique(type_id)
    if not len(used):
        return np.zeros(units, dtype=np.int64), [OUTSIDE]
    # The types met, sorted: a label's types are joined in this order.
    kinds = sorted(type_names[number] for number in used.tolist())
    rank = np.zeros(len(type_names), dtype=np.int64)
    position = {name: index for index, name in enumerate(kinds)}
    rank[used] = [position[type_names[number]] for number in used.tolist()]
    kind = rank[type_id]
    order = np.argsort(start, kind="stable")
    if (start[order][1:] >= end[order][:-1]).all():  # no two entities share a unit: one type or "O" a unit
        label = kind.astype(np.float64) + 1
        edges = np.bincount(start, label, minlength=units + 1) - np.bincount(end, label, minlength=units + 1)
        return np.rint(np.cumsum(edges[:units])).astype(np.int64), [OUTSIDE, *kinds]
    # Overlapping entities: the units between two consecutive boundaries (an entity's start or end) share their
    # covering entities, so the labels are found per such segment (at most twice the entities, plus one), each
    # entity listed in the segments it covers; time follows the entities and how deeply they nest, never the
    # types times the units.
    bounds = np.unique(np.concatenate(([0, units], start, end)))
    first, last = np.searchsorted(bounds, start), np.searchsorted(bounds, end)
    spread = last - first
    segment = np.repeat(first - np.cumsum(spread) + spread, spread) + np.arange(int(spread.sum()))
    held = np.unique(segment * len(kinds) + np.repeat(kind, spread))  # (segment, type) once each, sorted
    held_segment, held_kind = np.divmod(held, len(kinds))
    cuts = np.flatnonzero(np.diff(held_segment)) + 1
    names = {OUTSIDE: 0}
    code = np.zeros(len(bounds) - 1, dtype=np.int64)
    for where, group in zip(held_segment[np.r_[0, cuts]].tolist(), np.split(held_kind, cuts)):
        label = STACKED.join(kinds[number] for number in group.tolist())
        code[where] = names.setdefault(label, len(names))
    return np.repeat(code, np.diff(bounds)), list(names)


@dataclass(frozen=True)
class _CodedTags:
    """Tags or ids of every annotator coded once (the one pass that touches every token): each token's index
    into `values` (the distinct values met; `_UNANNOTATED` fills a sentence an annotator left out), over every
    sentence; each value's role flags and type (`type_names` index, -1 for none); and the tokens kept (ids:
    those no annotator gives `ignore_index`)."""

    values: list[Any]
    codes: list[np.ndarray]
    length: np.ndarray
    kept: np.ndarray
    role: np.ndarray
    kind: np.ndarray
    type_names: list[str]


def _coded_tags(annotators: Sequence[_Annotator], form: str, options: Options) -> _CodedTags:
    """Every annotator's tags (or ids, through `label_list`) coded and checked: a bad one is an
    `InvalidInputError` naming the annotator, sentence and token."""
    sentences = len(annotators[0].present)
    length = np.zeros(sentences, dtype=np.int64)
    for annotator in annotators:
        length = np.where(annotator.present, _lengths(annotator), length)
    sizes = length.tolist()

    def tokens(annotator: _Annotator) -> Iterator[Any]:
        rows = rows_of(annotator.rows)
        if annotator.present.all():
            return chain.from_iterable(rows)
        filled = zip(rows, annotator.present.tolist(), sizes)
        return chain.from_iterable(row if present else repeat(_UNANNOTATED, size) for row, present, size in filled)

    # One pass per annotator: each token's code, numbering values as they are met (tag_arrays' way: one byte a
    # token while there are at most 256 distinct values).
    numbering: defaultdict[Any, int] = defaultdict(count().__next__)
    codes = []
    for annotator in annotators:
        try:
            try:
                code = np.frombuffer(bytearray(map(numbering.__getitem__, tokens(annotator))), dtype=np.uint8)
            except ValueError:  # more than 256 values
                code = np.fromiter(map(numbering.__getitem__, tokens(annotator)), dtype=np.int64)
        except TypeError:  # an unhashable value
            flat = list(tokens(annotator))
            for value in flat:
                try:
                    hash(value)
                except TypeError:
                    raise _located(annotator, flat, length, value, f"found {shown(value)}; expected a tag") from None
        codes.append(code.astype(np.int64))
    values = list(numbering)

    def owner_of(value: Any) -> tuple[_Annotator, list[Any]]:
        number = numbering[value]
        column = next(column for column, code in enumerate(codes) if (code == number).any())
        return annotators[column], list(tokens(annotators[column]))

    table = TagTable(options.scheme, options.suffix)
    roles: list[int] = []
    kinds: list[str | None] = []
    skipped: list[bool] = []
    for value in values:
        # A sentence the annotator left out reads as O (its units are marked missing); ids at ignore_index are
        # dropped (docs/scoring.md §1).
        skip = form == IDS and value is not _UNANNOTATED and value == options.ignore_index
        if value is _UNANNOTATED or skip:
            roles.append(0)
            kinds.append(None)
            skipped.append(skip)
            continue
        tag = value
        if form == IDS:
            labels = options.label_list
            if labels is None or value not in labels:
                problem = f"found id {shown(value)}; expected an id of label_list"
                raise _located(*owner_of(value), length, value, problem)
            tag = labels[value]
        try:
            parsed = table[tag]
        except InvalidInputError as error:
            raise _located(*owner_of(value), length, value, error.problem) from None
        roles.append(ROLE_FLAGS[None if parsed is None else parsed.role])
        kinds.append(None if parsed is None else parsed.entity_type)
        skipped.append(False)
    type_names = sorted({name for name in kinds if name is not None})
    position = {name: number for number, name in enumerate(type_names)}
    kind = np.array([-1 if name is None else position[name] for name in kinds], dtype=np.int64)
    kept = np.ones(int(length.sum()), dtype=bool)
    if any(skipped):
        skip_value = np.array(skipped, dtype=bool)
        for column in codes:
            kept &= ~skip_value[column]
    return _CodedTags(values, codes, length, kept, np.array(roles, dtype=np.int8), kind, type_names)


def _tag_labels(coded: _CodedTags, annotators: Sequence[_Annotator], options: Options) -> UnitLabels:
    """Tags and ids: every kept token's label per annotator, the type of the entity decoded over it
    (docs/scoring.md §2; entities of one annotator's tags never overlap, so a label is one type or "O")."""
    sentences = len(coded.length)
    sentence = np.repeat(np.arange(sentences), coded.length)[coded.kept]
    length = np.bincount(sentence, minlength=sentences).astype(np.int64)
    offsets = np.r_[0, np.cumsum(length)]
    units = len(sentence)
    wanted = np.ones(len(coded.type_names), dtype=bool)
    if options.labels is not None:
        wanted = np.array([name in options.labels for name in coded.type_names], dtype=bool)
    labels = np.empty((units, len(annotators)), dtype=np.int64)
    for column, (codes, annotator) in enumerate(zip(coded.codes, annotators)):
        kept = codes[coded.kept]
        start, end, type_id = decode_roles(coded.role[kept], coded.kind[kept], offsets, options.mode, options.scheme)
        chosen = wanted[type_id]
        start, end, label = start[chosen], end[chosen], (type_id[chosen] + 1).astype(np.float64)
        # Disjoint entities: each one's label added at its start and taken off at its end, summed along.
        edges = np.bincount(start, label, minlength=units + 1) - np.bincount(end, label, minlength=units + 1)
        code = np.rint(np.cumsum(edges[:units])).astype(np.int64)
        labels[:, column] = np.where(annotator.present[sentence], code, MISSING)
    return UnitLabels(labels, [OUTSIDE, *coded.type_names], sentence)


def _id_batches(coded: _CodedTags, annotators: Sequence[_Annotator], options: Options) -> tuple[list[Any], Options]:
    """Tags coded once, as the pairs read them: padded 2-D arrays of ids with their `label_list` (the array path
    of ids reads them without a Python step per tag; tests/test_fast_path.py proves it the tags' count), the
    padding `ignore_index`, which the count drops. Where padding would take more than twice the tokens (a few
    long sentences), the tags as given."""
    sentences, longest = len(coded.length), int(coded.length.max(initial=0))
    if sentences * longest > 2 * int(coded.length.sum()) + 1024:
        return [annotator.rows for annotator in annotators], options
    shift = options.ignore_index + 1 if options.ignore_index >= 0 else 0
    label_list = {number + shift: value for number, value in enumerate(coded.values) if value is not _UNANNOTATED}
    filled = np.arange(longest)[None, :] < coded.length[:, None]
    batches = []
    for codes in coded.codes:
        padded = np.full((sentences, longest), options.ignore_index, dtype=np.int64)
        padded[filled] = codes + shift
        batches.append(padded)
    return batches, options.evolve(label_list=label_list)


def _located(
    annotator: _Annotator, values: list[Any], length: np.ndarray, value: Any, problem: str
) -> InvalidInputError:
    """A bad tag or id, located at its first place in the annotator's tokens (`values`)."""
    position = values.index(value)
    offsets = np.cumsum(length)
    sentence = int(np.searchsorted(offsets, position, side="right"))
    token = position - (int(offsets[sentence - 1]) if sentence else 0)
    return InvalidInputError(problem, annotator.side, sentence, token)


def _entity_columns(
    annotator: _Annotator, form: str, options: Options, given: Mapping[str, list[Any]]
) -> _EntityColumns:
    """Spans and strings: an annotator's entities as columns (strings grounded as references are, §1b), those of
    other types than `labels` left out; plain tuples and dicts read at C speed (`span_arrays`), anything else (and
    any error, located) by `read_spans`."""
    rows = rows_of(annotator.rows)
    labels = None if options.labels is None else set(options.labels)
    values = _span_values(rows) if form == SPANS else None
    if values is not None:
        sentence = np.repeat(np.arange(len(values.counts)), values.counts)
        columns = _EntityColumns(sentence, values.start, values.end, values.type_id, values.type_names)
    else:
        if form == SPANS:
            spans = read_spans(rows, annotator.side)
        else:
            spans = _grounded_strings(annotator, rows, options, given)
        flat = list(chain.from_iterable(spans))
        if flat and max(span.end for span in flat) >= 1 << 62:  # agreement counts units in int64 (§13)
            _refuse_far(spans, annotator.side)
        type_names = list(dict.fromkeys(span.entity_type for span in flat))
        number = {name: index for index, name in enumerate(type_names)}
        columns = _EntityColumns(
            np.repeat(np.arange(len(spans)), [len(found) for found in spans]).astype(np.int64),
            np.fromiter((span.start for span in flat), dtype=np.int64, count=len(flat)),
            np.fromiter((span.end for span in flat), dtype=np.int64, count=len(flat)),
            np.fromiter((number[span.entity_type] for span in flat), dtype=np.int64, count=len(flat)),
            type_names,
        )
    kept = annotator.present[columns.sentence]
    if labels is not None:
        kept &= np.isin(columns.type_id, [index for index, name in enumerate(columns.type_names) if name in labels])
    if kept.all():
        return columns
    return columns._replace(
        sentence=columns.sentence[kept], start=columns.start[kept], end=columns.end[kept], type_id=columns.type_id[kept]
    )


def _refuse_far(spans: list[list[Span]], side: str) -> None:
    """The first entity that ends past 2**62 as a located `InvalidInputError`: agreement counts units in int64."""
    for sentence, found in enumerate(spans):
        for index, span in enumerate(found):
            if span.end >= 1 << 62:
                raise InvalidInputError(
                    f"the entity {shown(span.as_dict())} ends past 2**62; expected offsets of units that agreement "
                    "counts in 64-bit integers",
                    side,
                    sentence,
                    entity=index,
                )


def _grounded_strings(
    annotator: _Annotator, rows: list[list[Any]], options: Options, given: Mapping[str, list[Any]]
) -> list[list[Span]]:
    """String entities placed in their texts as references are (§1b: in order of position, in the order
    listed); one that does not occur is an `InvalidInputError` naming the annotator, sentence and entity."""
    texts = given.get("texts")
    if texts is None:
        raise ValueError("string entities need texts=: one string per sentence")
    found: list[list[Span]] = []
    for sentence, (entities, text, present) in enumerate(
        zip(read_strings(rows, annotator.side), texts, annotator.present)
    ):
        if not present or not entities:
            found.append([])
            continue
        haystack = Haystack.of(text, options.normalize)
        found.append(ground_references(entities, haystack, options.normalize, sentence, annotator.side))
    return found


def _span_units(sentences: int, read: list[_EntityColumns], given: Mapping[str, list[Any]]) -> np.ndarray:
    """Each sentence's number of units: its text's characters or its tokens when given, else the largest end of
    an entity in it (an entity beyond the text widens it rather than being cut)."""
    length = np.zeros(sentences, dtype=np.int64)
    for name in ("texts", "tokens"):
        if given.get(name) is not None:
            length = np.fromiter(map(len, given[name]), dtype=np.int64, count=sentences)
            break
    for entities in read:
        np.maximum.at(length, entities.sentence, entities.end)
    return length


# -- the intervals ------------------------------------------------------------------------------------------------


def _distinct_units(vectors: np.ndarray) -> SentenceCounts:
    """The units' vectors as `SentenceCounts`, distinct rows found by one 64-bit key per row, checked exactly:
    the rows of ten pairs and the coefficients are some 80 wide, where np.unique(axis=0) takes a second for
    20,000 sentences and this a few milliseconds."""
    rows = np.ascontiguousarray(vectors, dtype=np.float64) + 0.0  # -0.0 as 0.0: one key per value
    if not len(rows):
        return SentenceCounts(rows, np.zeros(0, dtype=np.int64))
    multipliers = (np.random.default_rng(0).integers(1, 1 << 62, size=rows.shape[1]) | 1).astype(np.uint64)
    bits = rows.view(np.uint64)
    bits = bits ^ (bits >> np.uint64(32))  # a float's high bits into its low ones, which the products keep
    keys = bits @ multipliers  # wraps around: a hash
    _, first, inverse, counts = np.unique(keys, return_index=True, return_inverse=True, return_counts=True)
    distinct = rows[first]
    if not np.array_equal(distinct[inverse.reshape(-1)], rows):  # two rows of one key: sorted as rows
        distinct, inverse, counts = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    return SentenceCounts(distinct, counts.astype(np.int64))


def _resampled_unit(sentences: int, documents: Sequence[Hashable] | None) -> np.ndarray:
    """Each sentence's unit of resampling (docs/scoring.md §9): itself, or its document, numbered in the order
    documents first appear (`unit_counts.per_unit`'s order)."""
    if documents is None:
        return np.arange(sentences)
    index: dict[Hashable, int] = {}
    return np.fromiter((index.setdefault(document, len(index)) for document in documents), np.int64, sentences)


# The coefficients' sums of every unit of resampling are held densely, one column per label: beyond this many
# cells (512 MB of floats; thousands of distinct stacked labels over tens of thousands of sentences) the
# bootstrap is refused with a way out rather than run out of memory.
_MOST_SUM_CELLS = 1 << 26


def _coefficient_sums(units: UnitLabels, unit_of: np.ndarray, resampled: int) -> tuple[np.ndarray, np.ndarray]:
    """Each unit of resampling's sums for Fleiss' κ (units all annotated, Σ n_uc², each label's count) and
    Krippendorff's α (the diagonal coincidences, each label's pairable values), from the labels' patterns."""
    categories = len(units.names)
    if resampled * (2 * categories + 3) > _MOST_SUM_CELLS:
        raise ValueError(
            f"bootstrap resamples {resampled} sentences (or documents) whose units hold {categories} distinct "
            "labels (stacked types count apart): too many to hold their sums; pass documents= (fewer units), "
            "labels= (fewer types), or score without bootstrap"
        )
    patterns, _, inverse = unit_patterns(units.codes, categories)
    # How many units of each pattern each unit of resampling holds.
    keys, grouped = np.unique(unit_of[units.sentence] * len(patterns) + inverse, return_inverse=True)
    many = units.weighted(grouped.reshape(-1), len(keys))
    owner, pattern = np.divmod(keys, len(patterns))
    row, category, count = pattern_counts(patterns, categories)
    values = (patterns >= 0).sum(axis=1)
    complete, pairable = values == patterns.shape[1], values >= 2
    squares = np.bincount(row, count * count, minlength=len(patterns))
    diagonal = np.bincount(row, count * (count - 1) / np.maximum(values[row] - 1, 1), minlength=len(patterns))
    # Each (unit of resampling, pattern) with each label of the pattern: the patterns' entries, repeated.
    starts = np.searchsorted(row, np.arange(len(patterns) + 1))
    spread = starts[pattern + 1] - starts[pattern]
    entry = np.repeat(starts[pattern] - np.cumsum(spread) + spread, spread) + np.arange(int(spread.sum()))
    entry_owner, entry_many = np.repeat(owner, spread), np.repeat(many, spread)
    entry_pattern = row[entry]
    fleiss = np.zeros((resampled, 2 + categories))
    fleiss[:, 0] = np.bincount(owner, many * complete[pattern], minlength=resampled)
    fleiss[:, 1] = np.bincount(owner, many * complete[pattern] * squares[pattern], minlength=resampled)
    alpha = np.zeros((resampled, 1 + categories))
    alpha[:, 0] = np.bincount(owner, many * pairable[pattern] * diagonal[pattern], minlength=resampled)
    for table, kept in ((fleiss, complete), (alpha, pairable)):
        weight = entry_many * count[entry] * kept[entry_pattern]
        cells = np.bincount(entry_owner * categories + category[entry], weight, minlength=resampled * categories)
        table[:, -categories:] = cells.reshape(resampled, categories)
    return fleiss, alpha


def _intervals(
    result: Mapping[str, Any],
    accumulators: list[Accumulator],
    units: UnitLabels,
    options: Options,
    given: Mapping[str, list[Any]],
    annotators: Sequence[_Annotator],
) -> dict[str, float]:
    """BCa intervals (docs/scoring.md §9) of each scheme's mean pairwise F, Fleiss' κ and α: one resampling of
    the sentences (or documents) whose vectors hold every pair's scenario counts and the coefficients' sums."""
    sentences = len(annotators[0].present)
    blocks, widths = [], []
    for (first, second), accumulator in zip(combinations(annotators, 2), accumulators):
        kept = accumulator.units
        assert isinstance(kept, PerSentence)  # accumulated ordered
        rows = kept.ints.astype(np.float64) if kept.floats is None else np.hstack((kept.ints, kept.floats))
        block = np.zeros((sentences, rows.shape[1]))
        block[first.present & second.present] = rows
        blocks.append(block)
        widths.append(rows.shape[1])
    documents = given.get("documents")
    pair_rows = per_unit(np.hstack(blocks), None if documents is None else list(documents))
    fleiss, alpha = _coefficient_sums(units, _resampled_unit(sentences, documents), len(pair_rows))
    sample = _distinct_units(np.hstack((pair_rows, fleiss, alpha)))
    schemes = [EVALUATION_SCHEMES.index(scheme) for scheme in options.evaluation_schemes]
    raters, zero = len(annotators), options.zero_division
    fleiss_width = fleiss.shape[1]

    def statistic(totals: np.ndarray) -> np.ndarray:
        start, means = 0, np.zeros((*totals.shape[:-1], len(schemes)))
        for width in widths:
            measured = _statistics(totals[..., start : start + width], options)
            means += measured[..., [3 * scheme + 2 for scheme in schemes]]
            start += width
        kappa = fleiss_kappa(totals[..., start : start + fleiss_width], raters, zero)
        alpha_value = krippendorff_alpha(totals[..., start + fleiss_width :], zero)
        return np.concatenate((means / len(widths), kappa[..., None], alpha_value[..., None]), axis=-1)

    f_name = options.f_name
    keys = [f"{scheme}_{f_name}_mean" for scheme in options.evaluation_schemes]
    keys += ["fleiss_kappa", "krippendorff_alpha"]
    estimates = np.array([result[key] for key in keys])
    if sample.size:
        rng = np.random.default_rng(options.seed)
        low, high = _resampled_interval(sample, statistic, options.bootstrap, rng, options.confidence_level)
    else:
        low = high = estimates
    intervals = {}
    for key, estimate, key_low, key_high in zip(keys, estimates.tolist(), low.tolist(), high.tolist()):
        intervals[f"{key}_low"] = min(key_low, estimate)
        intervals[f"{key}_high"] = max(key_high, estimate)
    return intervals
