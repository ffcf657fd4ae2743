"""The readable path: decode (or read) and pair a batch sentence by sentence (docs/scoring.md §1-§3).

This defines what `compute_semeval` returns; the array paths (`nerscore.tag_arrays`, `nerscore.span_arrays`) compute
the same faster, and tests/test_fast_path.py proves them equal. It alone gives the `entities` rows and the precise
error for bad input."""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from .columns import NO_COLUMNS, Columns, entity_text
from .counts import (
    Cell,
    Diagnostics,
    ErrorKey,
    Row,
    Tally,
    TokenCounts,
    boundary_of,
    sentence_sums,
    value_cell_columns,
    weighted_width,
)
from .decoding import decode_tags
from .errors import InvalidInputError
from .inputs import IDS, SPANS, Batch, batches, check_span_options, ids_to_tags, read_spans
from .options import OVERLAP, Options
from .pairing import SCENARIOS, _overlap_edges, pair, scenario_of
from .schemes import TagTable
from .slices import SentenceFacts
from .span import Span
from .value import WeightTable, value_pair


def tally_semeval(predictions: Any, references: Any, options: Options | None = None) -> tuple[Tally, list[Row]]:
    """The readable path: decode (or read) and pair a batch (docs/scoring.md §1-§3); the `Tally` and the rows
    ``(sentence, reference, prediction)``. This defines what the array path computes."""
    predictions, references, form = batches(predictions, references)
    options = Options() if options is None else options
    if form == SPANS:
        check_span_options(options)
        return pair_spans(predictions, references, options)
    return pair_tags(predictions, references, form == IDS, options)


def pair_tags(
    predictions: Batch, references: Batch, holds_ids: bool, options: Options, columns: Columns = NO_COLUMNS
) -> tuple[Tally, list[Row]]:
    table = TagTable(options.scheme, options.suffix)
    if holds_ids:
        predictions, references = ids_to_tags(predictions, references, options, table)
    keep = None if options.labels is None else set(options.labels)
    predicted_spans = _decode_side(predictions, "predictions", options.mode, table, keep)
    reference_spans = _decode_side(references, "references", options.mode, table, keep)
    tally, rows = pair_sentences(reference_spans, predicted_spans, options.min_overlap)
    diagnostics, errors = findings(reference_spans, predicted_spans, rows, options, columns)
    tally = Tally(tally.cells, token_counts(predictions, references), diagnostics=diagnostics, errors=errors)
    return weighed(tally, rows, len(references), options)[0], rows


def token_counts(predictions: Iterable[Any], references: Iterable[Any]) -> TokenCounts:
    """The tokens of a batch of tags and those whose two tags are equal (`token_accuracy`, docs/scoring.md §7)."""
    tokens = equal = 0
    for predicted, reference in zip(predictions, references):
        tokens += len(reference)
        equal += int(sum(map(operator.eq, predicted, reference)))
    return TokenCounts(tokens, equal)


def sentence_facts(predictions: Batch, references: Batch, holds_ids: bool, options: Options) -> SentenceFacts:
    """Each sentence's length in tags as scored (after `ignore_index`) and its tokens whose two tags are equal:
    what sentence-level slices read besides the rows (docs/scoring.md §11)."""
    if holds_ids:
        predictions, references = ids_to_tags(
            predictions, references, options, TagTable(options.scheme, options.suffix)
        )
    lengths = np.array([len(tags) for tags in references], dtype=np.int64)
    equal = np.array([sum(map(operator.eq, p, r)) for p, r in zip(predictions, references)], dtype=np.int64)
    return SentenceFacts(len(lengths), lengths, equal)


def pair_spans(
    predictions: list[list], references: list[list], options: Options, columns: Columns = NO_COLUMNS
) -> tuple[Tally, list[Row]]:
    keep = None if options.labels is None else set(options.labels)
    predicted_spans = read_spans(predictions, "predictions", keep)
    reference_spans = read_spans(references, "references", keep)
    tally, rows = pair_sentences(reference_spans, predicted_spans, options.min_overlap)
    diagnostics, errors = findings(reference_spans, predicted_spans, rows, options, columns)
    tally = Tally(tally.cells, None, diagnostics=diagnostics, errors=errors)
    return weighed(tally, rows, len(references), options)[0], rows


def weighed(tally: Tally, rows: list[Row], sentences: int, options: Options) -> tuple[Tally, np.ndarray | None]:
    """The tally with what docs/scoring.md §10 adds when asked for (the overlap credit of the PAR pairs, the value
    pairing's cells), and each sentence's `counts.weighted_width` columns for the statistics (None when none is
    asked for). The value pairing is found sentence by sentence on the rows' entities, every entity of both
    sides being in some row."""
    width = weighted_width(options)
    if not width:
        return tally, None
    columns: list[np.ndarray] = []
    credit: dict[tuple[str, str], Fraction] | None = None
    value_cells = None
    if options.partial_credit == OVERLAP:
        credit = {}
        shares: list[tuple[int, float]] = []
        for sentence, reference, prediction in rows:
            if reference is None or prediction is None or scenario_of(reference, prediction) not in ("V", "VI"):
                continue
            share = overlap_share(reference, prediction)
            types = (reference.entity_type, prediction.entity_type)
            credit[types] = credit.get(types, Fraction(0)) + share
            shares.append((sentence, float(share)))
        sentence_of = np.array([sentence for sentence, _ in shares], dtype=np.int64)
        values = np.array([[share] for _, share in shares], dtype=np.float64).reshape(-1, 1)
        columns.append(sentence_sums(sentence_of, values, sentences))
    if options.value is not None:
        table = WeightTable(options.value)
        by_sentence = _sides_by_sentence(rows)
        cells: list[Cell] = []
        sentence_list: list[int] = []
        for sentence, (references, predictions) in by_sentence.items():
            for reference, prediction in value_pair(references, predictions, table, options.value_min_overlap):
                cells.append(
                    (
                        scenario_of(reference, prediction),
                        None if reference is None else reference.entity_type,
                        None if prediction is None else prediction.entity_type,
                    )
                )
                sentence_list.append(sentence)
        value_cells = dict(Counter(cells))
        distinct = list(value_cells)
        position = {cell: index for index, cell in enumerate(distinct)}
        per_cell = value_cell_columns(distinct, table)
        inverse = np.array([position[cell] for cell in cells], dtype=np.int64)
        columns.append(sentence_sums(np.array(sentence_list, dtype=np.int64), per_cell[inverse], sentences))
    weighted = Tally(
        tally.cells,
        tally.tokens,
        credit=credit,
        value_cells=value_cells,
        diagnostics=tally.diagnostics,
        errors=tally.errors,
    )
    return weighted, np.hstack(columns)


def _sides_by_sentence(rows: list[Row]) -> dict[int, tuple[list[Span], list[Span]]]:
    """Each sentence's references and predictions, in the order of its rows (the value pairing's input, §10)."""
    by_sentence: dict[int, tuple[list[Span], list[Span]]] = {}
    for sentence, reference, prediction in rows:
        sides = by_sentence.setdefault(sentence, ([], []))
        if reference is not None:
            sides[0].append(reference)
        if prediction is not None:
            sides[1].append(prediction)
    return by_sentence


def value_partners(rows: list[Row], options: Options) -> list[Span | None]:
    """For each row, its entity's partner in the value pairing (docs/scoring.md §10): the prediction paired with
    the row's reference, or for a row without a reference the reference paired with its prediction (None:
    unpaired there)."""
    assert options.value is not None
    table = WeightTable(options.value)
    by_sentence = _sides_by_sentence(rows)
    partner_of_reference: dict[tuple[int, int], Span | None] = {}
    partner_of_prediction: dict[tuple[int, int], Span | None] = {}
    for sentence, (references, predictions) in by_sentence.items():
        # Entities are told apart by their place in the sentence's list (copies of one entity are alike).
        spare_r: dict[int, list[int]] = {}
        spare_p: dict[int, list[int]] = {}
        for index, span in enumerate(references):
            spare_r.setdefault(id(span), []).append(index)
        for index, span in enumerate(predictions):
            spare_p.setdefault(id(span), []).append(index)
        for reference, prediction in value_pair(references, predictions, table, options.value_min_overlap):
            if reference is not None:
                partner_of_reference[sentence, spare_r[id(reference)].pop()] = prediction
            if prediction is not None:
                partner_of_prediction[sentence, spare_p[id(prediction)].pop()] = reference
    partners: list[Span | None] = []
    seen_r: dict[int, int] = {}
    seen_p: dict[int, int] = {}
    for sentence, reference, prediction in rows:
        if reference is not None:
            index = seen_r[sentence] = seen_r.get(sentence, -1) + 1
            partners.append(partner_of_reference.get((sentence, index)))
        else:
            index = seen_p.get(sentence, -1) + 1
            partners.append(partner_of_prediction.get((sentence, index)))
        if prediction is not None:
            seen_p[sentence] = seen_p.get(sentence, -1) + 1
    return partners


def overlap_share(reference: Span, prediction: Span) -> Fraction:
    """|shared| / |union| of two overlapping entities (docs/scoring.md §10, partial_credit="overlap")."""
    shared = reference.overlap(prediction)
    union = max(reference.end, prediction.end) - min(reference.start, prediction.start)
    return Fraction(shared, union)


def findings(
    reference_spans: Sequence[Sequence[Span]],
    predicted_spans: Sequence[Sequence[Span]],
    rows: Iterable[Row],
    options: Options,
    columns: Columns = NO_COLUMNS,
) -> tuple[Diagnostics | None, dict[ErrorKey, int] | None]:
    """With `diagnostics`, the boundary diagnostics of a batch's rows and entities; with `errors`, the count of
    each error by its entities' texts and types (docs/scoring.md §11). None for what is not asked."""
    rows = list(rows)
    diagnostics = None
    if options.diagnostics:
        boundaries = Counter(
            boundary_of(r, p)
            for _, r, p in rows
            if r is not None and p is not None and scenario_of(r, p) in ("V", "VI")
        )
        split = merged = 0
        for sentence_references, sentence_predictions in zip(reference_spans, predicted_spans):
            counted = overlapped_twice(sentence_references, sentence_predictions, options.min_overlap)
            split, merged = split + counted[0], merged + counted[1]
        diagnostics = Diagnostics(
            boundaries["boundary_too_long"], boundaries["boundary_too_short"], boundaries["boundary_crossing"],
            split, merged,
        )  # fmt: skip
    errors = None
    if options.errors:
        counted_errors: Counter = Counter()
        for sentence, r, p in rows:
            scenario = scenario_of(r, p)
            if scenario == "I":
                continue
            counted_errors[
                (
                    scenario,
                    None if r is None else entity_text(columns, sentence, r.start, r.end),
                    None if r is None else r.entity_type,
                    None if p is None else entity_text(columns, sentence, p.start, p.end),
                    None if p is None else p.entity_type,
                )
            ] += 1
        errors = dict(counted_errors)
    return diagnostics, errors


def overlapped_twice(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None
) -> tuple[int, int]:
    """Of one sentence, pairing aside (docs/scoring.md §11): the references that two or more predictions overlap
    (`split`) and the predictions that overlap two or more references (`merged`), overlap as §3 with
    `min_overlap`. Overlap depends on extents alone, so each side is folded into its distinct extents with
    their numbers of copies: a thousand copies are one extent, never a million edges."""
    copies_r = Counter((span.start, span.end) for span in references)
    copies_p = Counter((span.start, span.end) for span in predictions)
    extents_r, extents_p = list(copies_r), list(copies_p)
    edges = _overlap_edges(
        [Span(start, end, "") for start, end in extents_r],
        [Span(start, end, "") for start, end in extents_p],
        min_overlap,
    )
    degree_r: Counter[int] = Counter()
    degree_p: Counter[int] = Counter()
    for i, j in edges:
        degree_r[i] += copies_p[extents_p[j]]
        degree_p[j] += copies_r[extents_r[i]]
    split = sum(copies_r[extents_r[i]] for i, degree in degree_r.items() if degree >= 2)
    merged = sum(copies_p[extents_p[j]] for j, degree in degree_p.items() if degree >= 2)
    return split, merged


def pair_sentences(
    reference_spans: list[list[Span]], predicted_spans: list[list[Span]], min_overlap: float | None
) -> tuple[Tally, list[Row]]:
    """The tally and rows of the entities of every sentence, pair_sentences (docs/scoring.md §3)."""
    rows = [
        (sentence, reference, prediction)
        for sentence, (sentence_references, sentence_predictions) in enumerate(zip(reference_spans, predicted_spans))
        for reference, prediction in pair(sentence_references, sentence_predictions, min_overlap)
    ]
    return Tally.of_rows((r, p) for _, r, p in rows), rows


def scenarios_by_sentence(rows: Iterable[Row], sentences: int) -> np.ndarray:
    """Each sentence's scenario counts (sentences x 6, scenarios I to VI) from the readable path's rows: the
    statistics' per-sentence unit (`nerscore.resampling`), which the array path counts in the same pass that scores."""
    index = {name: position for position, name in enumerate(SCENARIOS)}
    cells = [sentence * len(SCENARIOS) + index[scenario_of(r, p)] for sentence, r, p in rows]
    counts = np.bincount(np.array(cells, dtype=np.int64), minlength=sentences * len(SCENARIOS))
    return counts.reshape(sentences, len(SCENARIOS))


def _decode_side(
    batch: Iterable[Any], side: str, mode: str, table: TagTable, labels: set[str] | None
) -> list[list[Span]]:
    decoded = []
    for sentence, tags in enumerate(batch):
        try:
            spans = decode_tags(tags, mode, table)
        except InvalidInputError as error:
            raise error.at(side, sentence) from None
        if labels is not None:
            spans = [span for span in spans if span.entity_type in labels]
        decoded.append(spans)
    return decoded
