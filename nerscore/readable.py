"""The readable path: decode (or read) and pair a batch sentence by sentence (docs/scoring.md §1-§3).

This defines what `compute_semeval` returns; the array paths (`nerscore.tag_arrays`, `nerscore.span_arrays`) compute
the same faster, and tests/test_fast_path.py proves them equal. It alone gives the `entities` rows and the precise
error for bad input."""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .columns import NO_COLUMNS, Columns, entity_text
from .counts import Diagnostics, ErrorKey, Row, Tally, TokenCounts, boundary_of
from .decoding import decode_tags
from .errors import InvalidInputError
from .inputs import IDS, SPANS, Batch, batches, check_span_options, ids_to_tags, read_spans
from .options import Options
from .pairing import SCENARIOS, _overlap_edges, pair, scenario_of
from .schemes import TagTable
from .span import Span


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
    found = findings(reference_spans, predicted_spans, rows, options, columns)
    return Tally(tally.cells, token_counts(predictions, references), *found), rows


def token_counts(predictions: Iterable[Any], references: Iterable[Any]) -> TokenCounts:
    """The tokens of a batch of tags and those whose two tags are equal (`token_accuracy`, docs/scoring.md §7)."""
    tokens = equal = 0
    for predicted, reference in zip(predictions, references):
        tokens += len(reference)
        equal += int(sum(map(operator.eq, predicted, reference)))
    return TokenCounts(tokens, equal)


def pair_spans(
    predictions: list[list], references: list[list], options: Options, columns: Columns = NO_COLUMNS
) -> tuple[Tally, list[Row]]:
    keep = None if options.labels is None else set(options.labels)
    predicted_spans = read_spans(predictions, "predictions", keep)
    reference_spans = read_spans(references, "references", keep)
    tally, rows = pair_sentences(reference_spans, predicted_spans, options.min_overlap)
    found = findings(reference_spans, predicted_spans, rows, options, columns)
    return Tally(tally.cells, None, *found), rows


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
