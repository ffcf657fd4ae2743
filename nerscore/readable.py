"""The readable path: decode (or read) and pair a batch sentence by sentence (docs/scoring.md §1-§3).

This defines what `compute_semeval` returns; the array paths (`nerscore.tag_arrays`, `nerscore.span_arrays`) compute
the same faster, and tests/test_fast_path.py proves them equal. It alone gives the `entities` rows and the precise
error for bad input."""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Any

import numpy as np

from .counts import Row, Tally, TokenCounts
from .decoding import decode_tags
from .errors import InvalidInputError
from .inputs import IDS, SPANS, Batch, batches, check_span_options, ids_to_tags, read_spans
from .options import Options
from .pairing import SCENARIOS, pair, scenario_of
from .schemes import TagTable
from .slices import SentenceFacts
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


def pair_tags(predictions: Batch, references: Batch, holds_ids: bool, options: Options) -> tuple[Tally, list[Row]]:
    table = TagTable(options.scheme, options.suffix)
    if holds_ids:
        predictions, references = ids_to_tags(predictions, references, options, table)
    keep = None if options.labels is None else set(options.labels)
    predicted_spans = _decode_side(predictions, "predictions", options.mode, table, keep)
    reference_spans = _decode_side(references, "references", options.mode, table, keep)
    tally, rows = pair_sentences(reference_spans, predicted_spans, options.min_overlap)
    return Tally(tally.cells, token_counts(predictions, references)), rows


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


def pair_spans(predictions: list[list], references: list[list], options: Options) -> tuple[Tally, list[Row]]:
    keep = None if options.labels is None else set(options.labels)
    predicted_spans = read_spans(predictions, "predictions", keep)
    reference_spans = read_spans(references, "references", keep)
    return pair_sentences(reference_spans, predicted_spans, options.min_overlap)


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
