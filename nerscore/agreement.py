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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, combinations
from typing import Any

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
from .options import EVALUATION_SCHEMES, Options
from .result_scores import scores
from .schemes import TagTable
from .statistics.agreement_coefficients import (
    MISSING,
    alpha_columns,
    category_counts,
    cohen_kappa,
    fleiss_columns,
    fleiss_kappa,
    krippendorff_alpha,
    sums_by_sentence,
)
from .statistics.resampling import _resampled_interval
from .statistics.sample_statistics import _statistics
from .statistics.unit_counts import SentenceCounts, per_unit
from .tally import Tally

OUTSIDE = "O"  # the label of a unit no entity covers
STACKED = "|"  # joins the distinct types of one annotator's entities that cover one unit
# Options whose keys have no place in the agreement's dict: refused, never silently ignored.
_REFUSED = ("slices", "slice_edges", "seen")
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
    if form in (TAGS, IDS):
        _check_token_counts(annotators)
    keep = checked.bootstrap > 0
    pair_results: list[dict[str, Any]] = []
    accumulators: list[Accumulator] = []
    for first, second in combinations(annotators, 2):
        accumulator, scored = _pair(first, second, checked, given, keep)
        pair_results.append(scored)
        accumulators.append(accumulator)
    result: dict[str, Any] = {"annotators": [annotator.name for annotator in annotators], "pairs": pair_results}
    schemes = checked.evaluation_schemes
    f_name = checked.f_name
    for scheme in schemes:
        values = [pair[f"{scheme}_{f_name}"] for pair in pair_results]
        result[f"{scheme}_{f_name}_mean"] = sum(values) / len(values)
    pooled = _pooled_scores(annotators, accumulators, checked, given)
    for scheme in schemes:
        result[f"{scheme}_{f_name}_pooled"] = pooled[f"{scheme}_{f_name}"]

    units = unit_labels(annotators, form, checked, given)
    categories = len(units.names)
    labelled = units.labelled
    zero = checked.zero_division
    for index, (column_a, column_b) in enumerate(combinations(range(len(annotators)), 2)):
        both = (units.codes[:, column_a] >= 0) & (units.codes[:, column_b] >= 0)
        for key, kept in (("cohen_kappa", both), ("cohen_kappa_labelled", both & labelled)):
            pair_results[index][key] = cohen_kappa(
                units.codes[kept, column_a], units.codes[kept, column_b], categories, zero
            )
    counts = category_counts(units.codes, categories)
    complete: np.ndarray = np.asarray((units.codes >= 0).all(axis=1))
    raters = len(annotators)
    for suffix, kept in (("", np.ones(len(counts), dtype=bool)), ("_labelled", labelled)):
        fleiss = fleiss_columns(counts[kept & complete]).sum(axis=0)
        result[f"fleiss_kappa{suffix}"] = float(fleiss_kappa(fleiss, raters, zero))
        alpha = alpha_columns(counts[kept]).sum(axis=0)
        result[f"krippendorff_alpha{suffix}"] = float(krippendorff_alpha(alpha, zero))
    result["units"] = len(units.codes)
    result["units_labelled"] = int(np.count_nonzero(labelled))
    if keep:
        result.update(_intervals(result, accumulators, units, counts, complete, checked, given, annotators))
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
            present = np.fromiter((row is not None for row in listed), dtype=bool, count=len(listed))
            rows = as_list([row if row is not None else [] for row in listed], side)
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
    unit's sentence (non-decreasing)."""

    codes: np.ndarray
    names: list[str]
    sentence: np.ndarray

    @property
    def labelled(self) -> np.ndarray:
        """The units some annotator labels with a type (a label other than "O")."""
        return np.asarray((self.codes > 0).any(axis=1))


def unit_labels(
    annotators: Sequence[_Annotator], form: str, options: Options, given: Mapping[str, list[Any]]
) -> UnitLabels:
    """The units of docs/scoring.md §13 and each annotator's label of each: tokens for tags and ids, span units
    for spans (a sentence's units run from 0 to the largest end among all annotators' entities in it, or to the
    length of its text or tokens when given), characters for strings (grounded as references are, §1b)."""
    if form in (TAGS, IDS):
        length, spans = _tag_spans(annotators, form, options)
    else:
        read = [_entity_spans(annotator, form, options, given) for annotator in annotators]
        length = _span_units(annotators, read, given)
        offsets = np.r_[0, np.cumsum(length)]
        spans = []
        for sentences in read:
            sentence = np.fromiter(
                chain.from_iterable([index] * len(found) for index, found in enumerate(sentences)), dtype=np.int64
            )
            flat = list(chain.from_iterable(sentences))
            start = np.fromiter((span.start for span in flat), dtype=np.int64, count=len(flat))
            end = np.fromiter((span.end for span in flat), dtype=np.int64, count=len(flat))
            spans.append((offsets[sentence] + start, offsets[sentence] + end, [span.entity_type for span in flat]))
    sentence = np.repeat(np.arange(len(length)), length)
    names: dict[str, int] = {OUTSIDE: 0}
    codes = np.empty((len(sentence), len(annotators)), dtype=np.int64)
    for column, ((start, end, types), annotator) in enumerate(zip(spans, annotators)):
        local, local_names = _covering_labels(start, end, types, len(sentence))
        to_global = np.array([names.setdefault(name, len(names)) for name in local_names], dtype=np.int64)
        codes[:, column] = np.where(annotator.present[sentence], to_global[local], MISSING)
    return UnitLabels(codes, list(names), sentence)


def _covering_labels(
    start: np.ndarray, end: np.ndarray, types: Sequence[str], units: int
) -> tuple[np.ndarray, list[str]]:
    """Each unit's label among `units` units from entities [start, end) of `types` (flat positions): "O", a
    type, or the distinct types of the entities covering it, sorted and joined by "|"; as codes into the list of
    labels returned."""
    kinds = sorted(set(types))
    if not kinds:
        return np.zeros(units, dtype=np.int64), [OUTSIDE]
    kind = (
        np.array([kinds.index(name) for name in types], dtype=np.int64)
        if len(kinds) < 2
        else np.searchsorted(np.array(kinds, dtype=object), np.array(types, dtype=object))
    )
    words = (len(kinds) + 62) // 63
    masks = np.zeros((units, words), dtype=np.int64)
    for index in range(len(kinds)):
        chosen = kind == index
        edges = np.bincount(start[chosen], minlength=units + 1) - np.bincount(end[chosen], minlength=units + 1)
        covered = np.cumsum(edges[: units + 1])[:units] > 0
        masks[:, index // 63] |= covered.astype(np.int64) << (index % 63)
    if words == 1:
        distinct, local = np.unique(masks[:, 0], return_inverse=True)
        rows = distinct[:, None]
    else:
        rows, local = np.unique(masks, axis=0, return_inverse=True)
    labels = []
    for row in rows.tolist():
        found = [kinds[word * 63 + bit] for word, mask in enumerate(row) for bit in range(63) if mask >> bit & 1]
        labels.append(STACKED.join(found) if found else OUTSIDE)
    return local.reshape(-1).astype(np.int64), labels


def _tag_spans(
    annotators: Sequence[_Annotator], form: str, options: Options
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, list[str]]]]:
    """Tags and ids: each sentence's tokens (positions every annotator's `ignore_index` leaves) and each
    annotator's entities decoded (docs/scoring.md §2) as flat [start, end) positions and types."""
    sentences = len(annotators[0].present)
    length = np.zeros(sentences, dtype=np.int64)
    for annotator in annotators:
        length = np.where(annotator.present, _lengths(annotator), length)
    table = TagTable(options.scheme, options.suffix)
    flats = []
    ignored = np.zeros(int(length.sum()), dtype=bool)
    for annotator in annotators:
        rows = rows_of(annotator.rows)
        values = list(
            chain.from_iterable(
                row if present else [None] * size
                for row, present, size in zip(rows, annotator.present.tolist(), length.tolist())
            )
        )
        distinct = list(dict.fromkeys(values))
        index = {value: number for number, value in enumerate(distinct)}
        position = np.fromiter(map(index.__getitem__, values), dtype=np.int64, count=len(values))
        roles: list[int] = []
        kinds: list[str | None] = []
        skip: list[bool] = []
        for value in distinct:
            tag = value
            if value is not None and form == IDS:
                if value == options.ignore_index:
                    roles.append(0)
                    kinds.append(None)
                    skip.append(True)
                    continue
                tag = (
                    None if options.label_list is None or value not in options.label_list else options.label_list[value]
                )
                if tag is None:
                    raise _located(
                        annotator, values, length, value, f"found id {shown(value)}; expected an id of label_list"
                    )
            try:
                parsed = None if tag is None else table[tag]
            except InvalidInputError as error:
                raise _located(annotator, values, length, value, error.problem) from None
            roles.append(ROLE_FLAGS[None if parsed is None else parsed.role])
            kinds.append(None if parsed is None else parsed.entity_type)
            skip.append(False)
        ignored |= np.array(skip, dtype=bool)[position]
        flats.append((np.array(roles, dtype=np.int8)[position], kinds, position))
    kept = ~ignored
    sentence = np.repeat(np.arange(sentences), length)[kept]
    length = np.bincount(sentence, minlength=sentences).astype(np.int64)
    offsets = np.r_[0, np.cumsum(length)]
    spans = []
    for role, kinds, position in flats:
        type_names = sorted({name for name in kinds if name is not None})
        type_of = np.array([-1 if name is None else type_names.index(name) for name in kinds], dtype=np.int64)
        start, end, type_id = decode_roles(role[kept], type_of[position][kept], offsets, options.mode, options.scheme)
        types = [type_names[number] for number in type_id.tolist()]
        if options.labels is not None:
            wanted = np.array([name in options.labels for name in types], dtype=bool)
            start, end, types = start[wanted], end[wanted], [name for name, keep in zip(types, wanted) if keep]
        spans.append((start, end, types))
    return length, spans


def _located(
    annotator: _Annotator, values: list[Any], length: np.ndarray, value: Any, problem: str
) -> InvalidInputError:
    """A bad tag or id of a sentence no other annotator annotated (the pairs check all others), located."""
    position = values.index(value)
    offsets = np.cumsum(length)
    sentence = int(np.searchsorted(offsets, position, side="right"))
    token = position - (int(offsets[sentence - 1]) if sentence else 0)
    return InvalidInputError(problem, annotator.side, sentence, token)


def _entity_spans(
    annotator: _Annotator, form: str, options: Options, given: Mapping[str, list[Any]]
) -> list[list[Any]]:
    """Spans and strings: each sentence's entities as `Span`s (strings grounded as references are, §1b), those of
    other types than `labels` left out."""
    rows = rows_of(annotator.rows)
    labels = None if options.labels is None else set(options.labels)
    if form == SPANS:
        return read_spans(rows, annotator.side, labels)
    texts = given.get("texts")
    if texts is None:
        raise ValueError("string entities need texts=: one string per sentence")
    found: list[list[Any]] = []
    for sentence, (entities, text, present) in enumerate(
        zip(read_strings(rows, annotator.side), texts, annotator.present)
    ):
        if not present or not entities:
            found.append([])
            continue
        haystack = Haystack.of(text, options.normalize)
        spans = ground_references(entities, haystack, options.normalize, sentence, annotator.side)
        found.append([span for span in spans if labels is None or span.entity_type in labels])
    return found


def _span_units(
    annotators: Sequence[_Annotator], read: list[list[list[Any]]], given: Mapping[str, list[Any]]
) -> np.ndarray:
    """Each sentence's number of units: its text's characters or its tokens when given, else the largest end of
    an entity in it (an entity beyond the text widens it rather than being cut)."""
    sentences = len(annotators[0].present)
    length = np.zeros(sentences, dtype=np.int64)
    for name in ("texts", "tokens"):
        if given.get(name) is not None:
            length = np.fromiter(map(len, given[name]), dtype=np.int64, count=sentences)
            break
    for sentences_read in read:
        ends = np.fromiter((max((span.end for span in found), default=0) for found in sentences_read), np.int64)
        length = np.maximum(length, ends)
    return length


# -- the intervals ------------------------------------------------------------------------------------------------


def _intervals(
    result: Mapping[str, Any],
    accumulators: list[Accumulator],
    units: UnitLabels,
    counts: np.ndarray,
    complete: np.ndarray,
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
    fleiss = fleiss_columns(counts) * complete[:, None]
    alpha = alpha_columns(counts)
    blocks.append(sums_by_sentence(fleiss, units.sentence, sentences))
    blocks.append(sums_by_sentence(alpha, units.sentence, sentences))
    documents = given.get("documents")
    vectors = per_unit(np.hstack(blocks), None if documents is None else list(documents))
    sample = SentenceCounts.of(np.zeros((len(vectors), 0), dtype=np.int64), vectors)
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
