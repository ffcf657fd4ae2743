"""The public functions: `compute_semeval` (a batch's scores, docs/scoring.md §7) and `compare_semeval` (is B
better than A? §9), and `result_dict`, the one place the result dict is put together.

A batch is counted once: by the array path where it can (`tag_arrays`, `span_arrays`, each sentence's counts
included), by the readable path where the `entities` rows or the precise error for bad input are needed.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from . import reducers
from .columns import NO_COLUMNS, Columns
from .counts import OUTSIDE_TYPE, Counted, Row, Tally, entity_rows, error_rows, scores
from .errors import InvalidInputError, shown
from .inputs import (
    IDS,
    SPANS,
    STRINGS,
    Batch,
    as_list,
    as_span,
    as_string_entity,
    batch_form,
    batches,
    check_span_options,
    check_tag_options,
    first_value,
    is_string_entity,
    read_spans,
    rows_of,
    value_form,
)
from .options import Options, check_resamples, check_seed, is_id
from .pairs import SentenceFacts
from .readable import (
    pair_spans,
    pair_tags,
    sentence_facts,
    span_rows,
    tag_rows,
    value_partners,
)
from .readable import reduction as readable_reduction
from .resampling import (
    SentenceCounts,
    comparison,
    interval_keys,
    slice_comparison,
    slice_interval_keys,
    slice_layout,
    unit_rows,
)
from .schemes import OUTSIDE
from .slices import (
    SliceCounts,
    add_entity_texts,
    check_slice_inputs,
    check_tokens_cover,
    count_slices,
    kept_tokens,
    slice_scores,
)
from .span_arrays import SpanValues, count_spans
from .string_batches import StringSpans, entity_dicts, string_spans
from .tag_arrays import count_tags


def compute_semeval(
    *,
    predictions: Any,
    references: Any,
    texts: Any = None,
    tokens: Any = None,
    groups: Any = None,
    documents: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """SemEval-2013 strict / exact / partial / type scores of a batch of tag sequences or spans (docs/scoring.md §7).

    `predictions` and `references` are lists (or 2-D arrays) of tag sequences, or of integer ids with
    `label_list`, or lists of spans (entities as dicts with start, end and type, or (start, end, type) tuples;
    docs/scoring.md §1); they are keyword-only, as in evaluate's `compute`, because peers take the truth first
    and a swapped call would silently swap precision and recall. `options` are the fields of `Options`.
    `texts`, `tokens`, `groups` and `documents` are given beside them, one value per sentence
    (`nerscore.columns`). Returns a flat dict of plain numbers. Raises `ValueError` naming side, sentence and
    token (or entity) for malformed input. Inputs are never modified.
    """
    columns = {"texts": texts, "tokens": tokens, "groups": groups, "documents": documents}
    return compute_checked(predictions, references, Options.of(**options), columns)


def compute_checked(
    predictions: Any, references: Any, options: Options, columns: Columns | Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """`compute_semeval` with its options already checked (the evaluate wrapper merges load-time options with
    those of each `compute`); `columns` as given (a mapping of name to values) or as read back (`Columns`)."""
    predictions, references, form = batches(predictions, references)
    columns = scored_columns(predictions, references, form, options, checked_columns(columns, len(references)))
    entities = None
    counted: Counted
    if form == STRINGS:  # docs/scoring.md §1b: grounded, then scored as spans
        counted, rows, entities = count_strings(predictions, references, options, options.bootstrap > 0, columns)
    else:
        counted, rows = count_batch(predictions, references, form, options, options.bootstrap > 0, columns)
    if options.confusion:
        _refuse_a_type_named_outside(predictions, references, form, options, counted.tally, rows)
    tally = with_ungrounded_key(counted.tally, columns)
    # docs/scoring.md §9: the resampling unit's rows, each the sum of its sentences' (one sentence a unit without
    # documents), the weighted columns of §10 and the slices' bucket columns summed the same way.
    sentence_counts = None if counted.by_sentence is None else sentence_counts_of(counted, columns.documents)
    return result_dict(tally, options, sentence_counts, rows, counted.slices, columns, entities)


def with_ungrounded_key(tally: Tally, columns: Columns) -> Tally:
    """`tally` with `ungrounded` 0 where `texts` were given and no string was grounded: the key is there whenever
    texts are (docs/scoring.md §1b), in compute_semeval's result, compare_semeval's and the runs'."""
    if columns.texts is not None and tally.ungrounded is None:
        return tally.with_ungrounded(0)
    return tally


def result_dict(
    tally: Tally,
    options: Options,
    sentence_counts: SentenceCounts | None = None,
    rows: list[Row] | None = None,
    slices: SliceCounts | None = None,
    columns: Columns = NO_COLUMNS,
    entities: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The result of `compute_semeval` (docs/scoring.md §7): the scores of `tally`, with `bootstrap` the
    intervals from `sentence_counts`, with `return_entities` the `entities` rows (with each side's text where
    `columns` give one; or `entities` as given: string entities' rows, with texts and ungrounded predictions,
    §1b), with `slices` the scores of every bucket of `slices` (§11; with `bootstrap`, the sentence counts then
    carry the bucket columns too, `sentence_vectors`). The command line and the Space
    build theirs here too."""
    result: dict[str, Any] = scores(tally, options)
    sliced = None
    if options.slices:
        if slices is None:
            raise ValueError("slices needs the counts of each bucket; count with count_batch")
        sliced = slice_scores(slices, options)
    if options.bootstrap:
        if sentence_counts is None:
            raise ValueError("bootstrap needs each sentence's counts; count with by_sentence=True")
        if slices is not None and sliced is not None:
            layout = slice_layout(slices.names, slices.layout())
            base, by_bucket = slice_interval_keys(
                {**result, "slices": sliced}, sentence_counts, slices.names, layout, options
            )
            result.update(base)
            for name, buckets in by_bucket.items():
                for bucket, intervals in buckets.items():
                    sliced[name][bucket].update(intervals)
        else:
            result.update(interval_keys(result, sentence_counts, options))
    if options.return_entities and entities is not None:
        result["entities"] = entities  # string entities' own, value_pair included (count_strings)
    elif options.return_entities:
        if rows is None:
            raise ValueError("return_entities needs the rows of the readable path")
        result["entities"] = add_entity_texts(entity_rows(rows, options.evaluation_schemes), columns)
        if options.value is not None:  # docs/scoring.md §10: each row's partner in the value's own pairing
            for row, partner in zip(result["entities"], value_partners(rows, options)):
                row["value_pair"] = None if partner is None else partner.as_dict()
    if options.diagnostics:
        if tally.diagnostics is None:
            raise ValueError("diagnostics needs a tally counted with diagnostics=True")
        result.update(tally.diagnostics.as_dict())
    if options.errors:
        if tally.errors is None:
            raise ValueError("errors needs a tally counted with errors=True")
        result["errors"] = error_rows(tally.errors, None if options.errors is True else options.errors)
    if sliced is not None:
        result["slices"] = sliced
    return result


def sentence_vectors(counted: Counted) -> tuple[np.ndarray, np.ndarray | None]:
    """Each sentence's vector for the statistics, as `SentenceCounts.of` takes it (integers, then floats or
    None): its six scenario counts, then docs/scoring.md §10's weighted columns when asked for, then, with slices,
    its counts in every bucket (§9, §11), so that a resample of sentences resamples the buckets with them."""
    assert counted.by_sentence is not None
    buckets = None if counted.slices is None else counted.slices.by_sentence
    weighted = counted.weighted if counted.weighted is not None and counted.weighted.shape[1] else None
    if weighted is not None:
        return counted.by_sentence, weighted if buckets is None else np.hstack((weighted, buckets))
    if buckets is None:
        return counted.by_sentence, None
    return np.hstack((counted.by_sentence, buckets)), None


def sentence_counts_of(counted: Counted, documents: Sequence[Hashable] | None = None) -> SentenceCounts:
    """The `SentenceCounts` of one counted batch (`sentence_vectors`), of its units: each sentence, or with
    `documents` each document (`resampling.unit_rows`, docs/scoring.md §9)."""
    ints, floats = sentence_vectors(counted)
    return SentenceCounts.of(unit_rows(ints, documents), None if floats is None else unit_rows(floats, documents))


def paired_sentence_counts(
    counted_a: Counted, counted_b: Counted, documents: Sequence[Hashable] | None = None
) -> SentenceCounts:
    """The `SentenceCounts` of two systems on the same sentences: system A's vector (`sentence_vectors`), then
    system B's, in floats when either holds weighted columns (docs/scoring.md §10), summed by unit."""
    (ints_a, floats_a), (ints_b, floats_b) = sentence_vectors(counted_a), sentence_vectors(counted_b)
    if floats_a is None and floats_b is None:
        return SentenceCounts.of(unit_rows(np.hstack((ints_a, ints_b)), documents))
    parts = [part for part in (ints_a, floats_a, ints_b, floats_b) if part is not None]
    floats = unit_rows(np.hstack(parts).astype(np.float64), documents)
    return SentenceCounts.of(np.zeros((len(floats), 0), dtype=np.int64), floats)


def scored_columns(predictions: Batch, references: Batch, form: str, options: Options, columns: Columns) -> Columns:
    """The columns as scored: `tokens` checked against the tags (one token per tag) and, with ids, those at the
    positions `ignore_index` drops dropped with them, so that entities' start and end index the tokens kept
    (docs/scoring.md §11); with `slices`, a `ValueError` naming what to pass for a slice whose input is missing."""
    # Tags once the batch is known to hold some (without a value it may be spans, whose tokens need not align).
    holds_tags = form == IDS or (
        form not in (SPANS, STRINGS) and batch_form(rows_of(predictions), rows_of(references)) is not None
    )
    if columns.tokens is not None and holds_tags:
        kept = kept_tokens(columns.tokens, rows_of(references), options.ignore_index, form == IDS)
        columns = Columns(**{**{name: getattr(columns, name) for name in columns.given}, "tokens": kept})
    if options.slices:
        check_slice_inputs(options, columns, form in (SPANS, STRINGS), holds_tags)
    return columns


def check_error_texts(form: str, options: Options, columns: Columns) -> None:
    """`errors` names entities by their texts (docs/scoring.md §11): tags take theirs from `tokens`, spans from
    `tokens` or `texts`; a `ValueError` says what to pass."""
    if not options.errors:
        return
    if columns.tokens is not None or (form == SPANS and columns.texts is not None):
        return
    found = "texts but no tokens" if columns.texts is not None else "neither tokens nor texts"
    raise InvalidInputError(
        f"errors={options.errors!r} names each entity by its text and found {found} for these "
        f"{'spans' if form == SPANS else 'tags'}; pass tokens= (tags) or texts= (spans)",
        "tokens" if form != SPANS else "texts",
    )


def checked_columns(columns: Columns | Mapping[str, Any] | None, sentences: int) -> Columns:
    """The columns of a batch of `sentences` sentences, checked once (`Columns.of`)."""
    if isinstance(columns, Columns):
        if columns and columns.sentences != sentences:
            name = columns.given[0]
            raise InvalidInputError(
                f"found {columns.sentences} values for {sentences} sentences; expected one per sentence", name
            )
        return columns
    return Columns.of(sentences, **(columns or {}))


def _refuse_a_type_named_outside(
    predictions: Batch, references: Batch, form: str, options: Options, tally: Tally, rows: list[Row] | None
) -> None:
    """With `confusion`, an entity type ``"O"`` would share the matrix's ``"O"`` for no entity (docs/scoring.md
    §7): a `ValueError` at its first entity (by the readable path's rows, counted again only for this error)."""
    if OUTSIDE in (options.labels or ()) and OUTSIDE not in tally.entity_types:
        raise InvalidInputError(f"labels holds {OUTSIDE!r}, {OUTSIDE_TYPE}")
    if OUTSIDE not in tally.entity_types:
        return
    if form == STRINGS:
        _refuse_outside_strings(predictions, references)
    if rows is None:
        rows = (
            pair_spans(rows_of(predictions), rows_of(references), options)
            if form == SPANS
            else pair_tags(predictions, references, form == IDS, options)
        )[1]
    problem = f"found entity type {OUTSIDE!r}, {OUTSIDE_TYPE}"
    for sentence, reference, prediction in rows:
        for side, batch, entity in (("references", references, reference), ("predictions", predictions, prediction)):
            if entity is None or entity.entity_type != OUTSIDE:
                continue
            if form != SPANS:
                raise InvalidInputError(problem, side, sentence, token=entity.start)
            index = next(number for number, given in enumerate(rows_of(batch)[sentence]) if as_span(given) == entity)
            raise InvalidInputError(problem, side, sentence, entity=index)


def _refuse_outside_strings(predictions: Batch, references: Batch) -> None:
    """`_refuse_a_type_named_outside` for a batch of string entities: the first entity of type "O", either form."""
    for side, batch in (("references", references), ("predictions", predictions)):
        for sentence, entities in enumerate(rows_of(batch)):
            for index, entity in enumerate(entities):
                read = as_string_entity(entity) if is_string_entity(entity) else None
                entity_type = read[0] if read is not None else as_span(entity).entity_type
                if entity_type == OUTSIDE:
                    raise InvalidInputError(
                        f"found entity type {OUTSIDE!r}, {OUTSIDE_TYPE}", side, sentence, entity=index
                    )


def count_batch(
    predictions: Batch,
    references: Batch,
    form: str,
    options: Options,
    by_sentence: bool,
    columns: Columns = NO_COLUMNS,
    *,
    lengths: Sequence[int] | None = None,
) -> tuple[Counted, list[Row] | None]:
    """One pass over a batch of any form (with its `columns`, as `scored_columns` makes them): its tally, each
    sentence's scenario counts with `by_sentence`, the rows with `return_entities`, and with `slices` the counts
    of every bucket (`Counted.slices`). The array paths make the batch's table of pairs (`pairs.Pairs`), which
    `nerscore.reducers` reduces to all of these; the readable path makes the same table where the array paths
    cannot read the input, and raises the precise error for bad input (tests/test_fast_path.py). `lengths`, for
    spans: each sentence's length for the sentence_length slice where `columns`' texts are longer than the
    sentence (`count_grounded`'s placed predictions, §1b)."""
    if form == STRINGS:
        return count_strings(predictions, references, options, by_sentence, columns)[:2]
    if options.errors and (form == IDS or batch_form(rows_of(predictions), rows_of(references)) is not None):
        check_error_texts(form, options, columns)  # a batch without a tag or an entity names none
    sliced = bool(options.slices)
    # The array paths' table gives the `entities` rows too; with spans, `tokens` are checked against it.
    wanted_pairs = sliced or options.return_entities or (form == SPANS and columns.tokens is not None)
    counted: Counted | None
    if form == SPANS:
        check_span_options(options)
        span_predictions, span_references = rows_of(predictions), rows_of(references)
        counted = count_spans(span_predictions, span_references, options, by_sentence, columns, wanted_pairs)
    else:
        # labels are checked as types of tags once the batch is known to hold tags: without a value it may be spans
        if form == IDS or batch_form(rows_of(predictions), rows_of(references)) is not None:
            check_tag_options(options)
        counted = count_tags(predictions, references, form == IDS, options, by_sentence, columns, wanted_pairs)
    if counted is None:  # input the array paths cannot read: the readable path reads it, or says what is wrong
        counted = _readable_count(predictions, references, form, options, by_sentence, columns, wanted_pairs)
    rows = counted.rows[0].rows() if options.return_entities else None
    return _with_slices(counted, form, options, columns, by_sentence, lengths), rows


def _readable_count(
    predictions: Batch,
    references: Batch,
    form: str,
    options: Options,
    by_sentence: bool,
    columns: Columns,
    wanted_pairs: bool,
) -> Counted:
    """`count_batch` by the readable path (`nerscore.readable`), which raises the precise error for bad input."""
    tokens = None
    if form == SPANS:
        rows = span_rows(rows_of(predictions), rows_of(references), options)
        facts = SentenceFacts(len(references))
    else:
        rows = tag_rows(predictions, references, form == IDS, options)
        facts = sentence_facts(predictions, references, form == IDS, options)
        tokens = reducers.token_counts(facts)
    reduction = readable_reduction(rows, len(references), options, columns)
    return reducers.counted(reduction, tokens, by_sentence, (reduction.pairs, facts) if wanted_pairs else None)


def _with_slices(
    counted: Counted,
    form: str,
    options: Options,
    columns: Columns,
    by_sentence: bool,
    lengths: Sequence[int] | None = None,
) -> Counted:
    """`counted` with the counts of every bucket of `slices` made of its rows (docs/scoring.md §11)."""
    if counted.rows is None:
        return counted
    rows, facts = counted.rows
    if form == SPANS:
        check_tokens_cover(rows, columns)
        # A sentence's length: `lengths` as given, or its tokens, or the characters of its text.
        if lengths is None:
            sentence_texts = columns.tokens if columns.tokens is not None else columns.texts
            lengths = None if sentence_texts is None else [len(text) for text in sentence_texts]
        if lengths is not None:
            facts = SentenceFacts(facts.sentences, np.fromiter(lengths, np.int64, len(lengths)))
    if not options.slices:
        return counted._replace(rows=None)
    return counted._replace(rows=None, slices=count_slices(rows, options, columns, facts, by_sentence))


def count_strings(
    predictions: Batch, references: Batch, options: Options, by_sentence: bool, columns: Columns
) -> tuple[Counted, list[Row] | None, list[dict[str, Any]] | None]:
    """A batch that holds string entities counted (docs/scoring.md §1b): grounded (`string_batches.string_spans`),
    then counted by `count_grounded` as the spans it grounds to."""
    check_span_options(options)
    grounded = string_spans(rows_of(predictions), rows_of(references), options, columns)
    return count_grounded(grounded, options, by_sentence)


def count_grounded(
    grounded: StringSpans, options: Options, by_sentence: bool
) -> tuple[Counted, list[Row] | None, list[dict[str, Any]] | None]:
    """`count_strings` of a batch already grounded by `string_batches.string_spans` with the same `options` (the
    Space checks the grounded spans' cost in between, and grounds once): counted by `count_batch` as the spans
    it grounds to, so that every option of spans applies; the ungrounded predictions, placed where they overlap
    nothing, count as spurious and in `ungrounded`. A sentence's length (the sentence_length slice, §11) is its
    text's as given, without the placed predictions. With `return_entities`, the rows and the `entities` dicts,
    each entity with its text as given."""
    counting = options.evolve(labels=None) if options.labels else options  # grounding applied labels
    lengths = [len(text) for text in grounded.texts] if options.slices else None
    if isinstance(grounded.predictions, SpanValues) and isinstance(grounded.references, SpanValues):
        # count_batch's way for spans without return_entities, on the columns the grounding made
        sliced = bool(options.slices)
        spans = count_spans(grounded.predictions, grounded.references, counting, by_sentence, grounded.columns, sliced)
        assert spans is not None  # SpanValues are read as they are
        counted, rows = _with_slices(spans, SPANS, counting, grounded.columns, by_sentence, lengths), None
    else:
        assert isinstance(grounded.predictions, list) and isinstance(grounded.references, list)
        counted, rows = count_batch(
            grounded.predictions, grounded.references, SPANS, counting, by_sentence, grounded.columns, lengths=lengths
        )
    tally = counted.tally.with_ungrounded(sum(map(len, grounded.ungrounded)))
    entities = None
    if options.return_entities:
        assert rows is not None and grounded.grounded is not None  # return_entities: the readable path's rows
        partners = value_partners(rows, options) if options.value is not None else None
        entities = entity_dicts(rows, grounded.grounded, grounded.texts, options.evaluation_schemes, partners)
    return counted._replace(tally=tally), rows, entities


def compare_semeval(
    *,
    predictions_a: Any,
    predictions_b: Any,
    references: Any,
    references_b: Any = None,
    n_resamples: int = 10_000,
    seed: int = 0,
    texts: Any = None,
    tokens: Any = None,
    groups: Any = None,
    documents: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """Is system B better than system A on the same sentences? (docs/scoring.md §9)

    For each scheme and each of precision, recall and F (`{key}` = `strict_precision` ... `type_f1`), a flat
    dict of floats: `{key}_a`, `{key}_b`, `{key}_delta` (B - A), `{key}_delta_low` and `{key}_delta_high` (the
    paired bootstrap BCa interval of the difference at `confidence_level`, resampling sentences, or with
    `documents` whole documents), and `{key}_p_value` (two-sided approximate randomization: each sentence's, or
    document's, two outputs swapped at random, in `n_resamples` shuffles). `seed` makes the numbers repeat.
    `options` are `compute_semeval`'s scoring options (scheme, mode, labels, beta ...), applied to both systems,
    and `texts`, `tokens`, `groups` and `documents` its columns, shared by both.

    `references_b`, when given (a second file's copy of the references), must equal `references`. Everything is
    checked before any resampling: a `ValueError` names the system and the first sentence that differs.

    With `texts`, `ungrounded_a` and `ungrounded_b`: each system's predicted strings left without an occurrence
    (`compute_semeval`'s `ungrounded`, docs/scoring.md §1b; 0 for spans). With `slices` (docs/scoring.md §11),
    the key `slices` holds, for each slice and bucket, the same keys for the bucket's scores, and
    `{key}_p_value_holm`, Holm's correction over every bucket of every requested slice; the buckets' resamples
    and shuffles are those of the totals."""
    checked = Options.of(**options)
    # Options of compute_semeval that add to its result, which compare_semeval's flat dict of overall scores
    # has no place for: refused, never silently ignored.
    ignored = {
        "bootstrap": checked.bootstrap,
        "return_entities": checked.return_entities,
        "per_type": checked.per_type,
        "confusion": checked.confusion,
        "diagnostics": checked.diagnostics,
        "errors": checked.errors,
    }
    given = [f"{name}={options[name]!r}" for name, value in ignored.items() if value]
    if given:
        raise ValueError(
            "compare_semeval takes neither bootstrap (n_resamples sets its resamples), return_entities, per_type, "
            f"confusion, diagnostics nor errors, found {', '.join(given)}: it reports overall scores; score each "
            "system with compute_semeval for the rest"
        )
    resamples = check_resamples("n_resamples", n_resamples, 1)
    seed = check_seed("seed", seed)
    references = as_list(references, "references")
    columns = checked_columns(
        {"texts": texts, "tokens": tokens, "groups": groups, "documents": documents}, len(references)
    )
    if batch_form(references, references) not in (None, SPANS):  # an option's error, not one system's
        check_tag_options(checked)
    if references_b is not None:
        _check_same_references(references, as_list(references_b, "references_b"))
    counted = []
    for side, predictions in (("predictions_a", predictions_a), ("predictions_b", predictions_b)):
        try:
            predictions, aligned_references, form = batches(predictions, references)
            side_columns = scored_columns(predictions, aligned_references, form, checked, columns)
            counted.append(count_batch(predictions, aligned_references, form, checked, True, side_columns)[0])
        except InvalidInputError as error:
            raise error.at(side=side if error.side in (None, "predictions") else error.side) from None
        except ValueError as error:
            raise ValueError(f"{side}: {error}") from None
    counted_a, counted_b = counted
    assert counted_a.by_sentence is not None and counted_b.by_sentence is not None  # counted by_sentence
    ungrounded = _ungrounded_keys(counted_a.tally, counted_b.tally, columns)
    if checked.slices:
        # docs/scoring.md §11: the buckets' differences from the same resamples and shuffles as the totals'.
        slices_a, slices_b = counted_a.slices, counted_b.slices
        pairs = paired_sentence_counts(counted_a, counted_b, columns.documents)
        layout = slice_layout(slices_a.names, slices_a.layout())
        scored = (slice_scores(slices_a, checked), slice_scores(slices_b, checked))
        base, by_bucket = slice_comparison(
            counted_a.tally, counted_b.tally, pairs, slices_a.names, layout, scored, checked, resamples, seed
        )
        return {**base, **ungrounded, "slices": by_bucket}
    pairs = paired_sentence_counts(counted_a, counted_b, columns.documents)
    return {**comparison(counted_a.tally, counted_b.tally, pairs, checked, resamples, seed), **ungrounded}


def _ungrounded_keys(tally_a: Tally, tally_b: Tally, columns: Columns) -> dict[str, int]:
    """`ungrounded_a` and `ungrounded_b` where `texts` were given (`with_ungrounded_key`), else nothing."""
    if columns.texts is None:
        return {}
    found = {
        f"ungrounded_{system}": with_ungrounded_key(tally, columns).ungrounded
        for system, tally in (("a", tally_a), ("b", tally_b))
    }
    return {key: int(value or 0) for key, value in found.items()}


def _check_same_references(references: Batch, references_b: Batch) -> None:
    """Both systems must be scored on the same references: a `ValueError` names the first sentence that differs.
    The same means the same entities or tags, however written (docs/scoring.md §1): tuples or lists (as after a
    JSON round trip), dicts or tuples, entities in any order; tags in lists, tuples or arrays."""
    rows, rows_b = rows_of(references), rows_of(references_b)
    spans = value_form(first_value(rows)) == SPANS, value_form(first_value(rows_b)) == SPANS
    for sentence, (reference, reference_b) in enumerate(zip(rows, rows_b)):
        if _spelled_alike(reference, reference_b):
            continue
        expected = _canonical(reference, spans[0], "references", sentence)
        found = _canonical(reference_b, spans[1], "references_b", sentence)
        if found != expected:
            raise InvalidInputError(
                "references_b differs from references; expected both systems scored on the same references "
                f"(found {shown(found)} where references hold {shown(expected)})",
                "references_b",
                sentence,
            )
    if len(references) != len(references_b):
        raise ValueError(
            f"references hold {len(references)} sentences and references_b {len(references_b)}; expected both "
            "systems scored on the same references"
        )


def _spelled_alike(reference: Any, reference_b: Any) -> bool:
    """Whether two sentences are written alike, which is all most copies of the references need (at C speed)."""
    try:
        return bool(list(reference) == list(reference_b))
    except ValueError:  # an array among the values has no single truth: spell them out
        return False


def _canonical(sentence: Any, spans: bool, side: str, index: int) -> list[Any]:
    """A sentence in one spelling: for spans, its entities as sorted (start, end, type) tuples, read as the
    scorer reads them (a malformed one is located on `side`); for tags or ids, the values in order, ids as Python
    ints, and anything else (which scoring refuses, at its place) as its type and repr, so that no odd value makes
    the comparison itself fail."""
    if spans:
        try:
            (entities,) = read_spans([sentence], side)
        except InvalidInputError as error:
            raise error.at(sentence=index) from None
        return sorted((span.start, span.end, span.entity_type) for span in entities)
    return [
        str(value) if isinstance(value, str) else int(value) if is_id(value) else (type(value).__name__, repr(value))
        for value in sentence
    ]
