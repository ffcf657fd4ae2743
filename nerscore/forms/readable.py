"""The readable path: decode (or read) and pair a batch sentence by sentence (docs/scoring.md §1-§3).

This defines what `compute_semeval` returns; the array paths (`nerscore.forms.tag_arrays`,
`nerscore.forms.span_arrays`) compute the same faster, and their test files prove them equal. It alone gives the
`entities` rows and the precise error for bad input."""

from __future__ import annotations

import operator
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..decoding import decode_tags, tag_table
from ..errors import InvalidInputError, located, shown
from ..grouping import lengths
from ..option_checks import HIPE
from ..options import Options, check_span_options
from ..pairing.greedy import pair_greedy
from ..pairing.rules import pair
from ..schemes import TagTable
from ..span import Span
from ..table import reducers
from ..table.columns import NO_COLUMNS, Columns
from ..table.pairs import Pairs, SentenceFacts
from ..table.reducers import Reduction
from ..tally import Row, Tally
from .batches import batches, ids_to_tags
from .inputs import IDS, SPANS, Batch, read_spans


def tally_semeval(predictions: Any, references: Any, options: Options | None = None) -> tuple[Tally, list[Row]]:
    """The readable path: decode (or read) and pair a batch (docs/scoring.md §1-§3); the `Tally` and the rows
    ``(sentence, reference, prediction)``. This defines what the array path computes."""
    if options is not None and not isinstance(options, Options):
        raise InvalidInputError(f"options is {shown(options)} ({type(options).__name__}); expected an Options or None")
    predictions, references, form = batches(predictions, references)
    options = Options() if options is None else options
    if form == SPANS:
        check_span_options(options)
        rows = span_rows(predictions, references, options)
        return reducers.tally(reduction(rows, len(references), options)), rows
    return pair_tags(predictions, references, form == IDS, options)


def pair_tags(predictions: Batch, references: Batch, holds_ids: bool, options: Options) -> tuple[Tally, list[Row]]:
    """The `Tally` and rows of a batch of tags or ids (the table's reducers, `nerscore.table.reducers`)."""
    rows, facts = tag_rows_and_facts(predictions, references, holds_ids, options)
    return reducers.tally(reduction(rows, len(references), options), reducers.token_counts(facts)), rows


def span_rows(predictions: list[list], references: list[list], options: Options) -> list[Row]:
    """The rows of a batch of spans: read (`labels` kept), then paired sentence by sentence."""
    predicted_spans = read_spans(predictions, "predictions", options.labels)
    reference_spans = read_spans(references, "references", options.labels)
    return pair_sentences(reference_spans, predicted_spans, options.min_overlap, options.pairing)


def reduction(rows: list[Row], sentences: int, options: Options, columns: Columns = NO_COLUMNS) -> Reduction:
    """The table of the readable path's rows, with the value pairing's own table (found sentence by sentence by
    `value.value_pair`, its definition) when `value` asks for it."""
    pairs = Pairs.of_rows(rows, sentences=sentences)
    value_pairs = None
    if options.value is not None:
        value_pairs = Pairs.of_rows(reducers.value_rows(rows, options), pairs.type_names, sentences)
    return Reduction(pairs, options, columns, value_pairs)


def tag_rows_and_facts(
    predictions: Batch, references: Batch, holds_ids: bool, options: Options
) -> tuple[list[Row], SentenceFacts]:
    """The rows of a batch of tags or ids, decoded sentence by sentence (`labels` kept: `decoding.tag_table`), then
    paired; and each sentence's length in tags as scored (after `ignore_index`) and its tokens whose two tags are
    equal: what `token_accuracy` (docs/scoring.md §7) and sentence-level slices (§11) read besides the rows."""
    table = tag_table(options)
    if holds_ids:
        predictions, references = ids_to_tags(predictions, references, options, table)
    # Every tag checked as it is decoded, before the facts compare them.
    predicted_spans = _decode_side(predictions, "predictions", options.mode, table)
    reference_spans = _decode_side(references, "references", options.mode, table)
    rows = pair_sentences(reference_spans, predicted_spans, options.min_overlap, options.pairing)
    equal = np.array([sum(map(operator.eq, p, r)) for p, r in zip(predictions, references)], dtype=np.int64)
    return rows, SentenceFacts(len(references), lengths(references), equal)


def value_partners(rows: list[Row], options: Options) -> list[Span | None]:
    """For each row, its entity's partner in the value pairing (docs/scoring.md §10): the prediction paired with
    the row's reference, or for a row without a reference the reference paired with its prediction (None:
    unpaired there)."""
    partner_of_reference: dict[tuple[int, int], Span | None] = {}
    partner_of_prediction: dict[tuple[int, int], Span | None] = {}
    for sentence, references, predictions, paired in reducers.value_paired(rows, options):
        # Entities are told apart by their place in the sentence's list (copies of one entity are alike, and may
        # be one object: `Pairs.rows` makes one `Span` per distinct entity), in list order, as `value_pair` sorts.
        spare_r: dict[int, deque[int]] = {}
        spare_p: dict[int, deque[int]] = {}
        for index, span in enumerate(references):
            spare_r.setdefault(id(span), deque()).append(index)
        for index, span in enumerate(predictions):
            spare_p.setdefault(id(span), deque()).append(index)
        for reference, prediction in paired:
            if reference is not None:
                partner_of_reference[sentence, spare_r[id(reference)].popleft()] = prediction
            if prediction is not None:
                partner_of_prediction[sentence, spare_p[id(prediction)].popleft()] = reference
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


def pair_sentences(
    reference_spans: Sequence[Sequence[Span]],
    predicted_spans: Sequence[Sequence[Span]],
    min_overlap: float | None,
    pairing: str = "optimal",
) -> list[Row]:
    """The rows of the entities of every sentence, each sentence paired by `pair` (docs/scoring.md §3), or with
    `pairing="hipe"` by `pair_greedy` in the order given (§3a; `Options` refuses min_overlap with it)."""
    return [
        (sentence, reference, prediction)
        for sentence, (sentence_references, sentence_predictions) in enumerate(zip(reference_spans, predicted_spans))
        for reference, prediction in (
            located(sentence, pair_greedy, sentence_references, sentence_predictions)
            if pairing == HIPE
            else located(sentence, pair, sentence_references, sentence_predictions, min_overlap)
        )
    ]


def _decode_side(batch: Iterable[Any], side: str, mode: str, table: TagTable) -> list[list[Span]]:
    decoded = []
    for sentence, tags in enumerate(batch):
        try:
            decoded.append(decode_tags(tags, mode, table))
        except InvalidInputError as error:
            raise error.at(side, sentence) from None
    return decoded
