"""A batch counted (`count_batch`, whatever its form), and `result_dict`, the one place the result dict is put
together: what `nerscore.accumulator` adds up batch by batch and turns into `compute_semeval`'s result.

A batch is counted once: by the array path where it can (`tag_arrays`, `span_arrays`, each sentence's counts
included), by the readable path where the `entities` rows or the precise error for bad input are needed.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from .error_table import error_rows
from .errors import InvalidInputError, refuse_other_types, shown
from .forms.inputs import SPANS, STRINGS, Batch, as_span, as_string_entity, is_string_entity, rows_of
from .forms.readable import reduction as readable_reduction
from .forms.readable import value_partners
from .forms.registry import FORMS, holds_values
from .forms.string_batches import StringSpans, entity_dicts, refuse_past_text
from .grouping import lengths, place_in_groups
from .option_checks import is_id
from .options import Options
from .result_scores import OUTSIDE_TYPE, check_tally, counted_without, entity_rows, scores_of
from .schemes import OUTSIDE
from .statistics.unit_counts import SentenceCounts, Vectors, stacked
from .table import reducers
from .table.columns import NO_COLUMNS, Columns
from .table.pairs import Pairs, SentenceFacts
from .table.reducers import Reduction
from .table.slices import (
    SliceCounts,
    add_entity_texts,
    check_slice_inputs,
    check_tokens_cover,
    first_past_text,
    kept_tokens,
    slice_scores,
)
from .tally import Counted, Row, Tally


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
    *,
    types: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The result of `compute_semeval` (docs/scoring.md §7): the scores of `tally` (with `types`, the per-type keys
    of those types alone and no macro key: `result_scores.scores_of`), with `bootstrap` the
    intervals from `sentence_counts`, with `return_entities` the `entities` rows (with each side's text where
    `columns` give one; or `entities` as given: string entities' rows, with texts and ungrounded predictions,
    §1b), with `slices` the scores of every bucket of `slices` (§11; with `bootstrap`, the sentence counts then
    carry the bucket columns too, `per_sentence_columns`). The command line and the Space
    build theirs here too."""
    check_tally(tally, options)
    names = "sentence_counts rows slices columns entities"
    kinds = (SentenceCounts, (list, tuple, Pairs), SliceCounts, Columns, list)
    refuse_other_types(names, (sentence_counts, rows, slices, columns, entities), kinds)
    if options is None:
        raise InvalidInputError("options is None; expected an Options (nerscore.Options.of(...))")
    tally = strings_beside_no_token(tally)
    result: dict[str, Any] = scores_of([tally], options, types)[0]
    sliced = None
    if options.slices:
        if slices is None:
            raise ValueError("slices needs the counts of each bucket; count with count_batch")
        sliced = slice_scores(slices, options)
    if options.bootstrap:
        # Here: the resampling's modules load with the first interval, not with `import nerscore`.
        from .statistics.resampling import interval_keys, slice_interval_keys
        from .statistics.sample_statistics import slice_layout

        if sentence_counts is None:
            raise ValueError("bootstrap needs each sentence's counts; count with keep_sentences=True")
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
        result["entities"] = entity_dicts_of(rows, options, columns)
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


def strings_beside_no_token(tally: Tally) -> Tally:
    """`tally` without its token counts where texts came beside no tag (sentences all empty): read as string
    entities, which have no token accuracy (docs/scoring.md §1b, §7), in every front end as in `Accumulator.ground`'s
    (result_dict's, summarize_runs' and --runs' runs)."""
    if tally.ungrounded is not None and tally.tokens is not None and not tally.tokens.tokens:
        return replace(tally, tokens=None)
    return tally


def entity_dicts_of(
    rows: list[Row] | Pairs, options: Options, columns: Columns = NO_COLUMNS, value_pairs: Pairs | None = None
) -> list[dict[str, Any]]:
    """The `entities` rows of a batch's `rows`, or of the table of pairs they are read from (docs/scoring.md §7),
    with each side's text where `columns` give one and, with `value`, each row's partner in the value's own
    pairing (§10), from its table `value_pairs` when the tally's reduction made it (`Counted.value_pairs`)."""
    schemes = options.evaluation_schemes
    dicts = rows.entity_dicts(schemes) if isinstance(rows, Pairs) else entity_rows(rows, schemes)
    entities = add_entity_texts(dicts, columns)
    if options.value is not None:
        partners = value_partner_dicts(rows, options, value_pairs) if isinstance(rows, Pairs) else None
        if partners is None:  # the rows' own way: every sentence paired again
            read = rows.rows() if isinstance(rows, Pairs) else rows
            partners = [None if span is None else span.as_dict() for span in value_partners(read, options)]
        for row, partner in zip(entities, partners):
            row["value_pair"] = partner
    return entities


def value_partner_dicts(
    pairs: Pairs, options: Options, value: Pairs | None = None
) -> list[dict[str, Any] | None] | None:
    """`readable.value_partners` of the table's rows in row order, as dicts, from the value pairing's own table
    (`value`, the tally's; else `reducers.value_pairs`, on arrays where it can; docs/scoring.md §10) joined to the
    rows at once, where value_partners pairs every sentence again with `value_pair`, one at a time. Copies of one
    entity take their partners as `value_pair` gives them: in rule (d)'s order (start, end, type name), unpaired
    ones last, to the copies in row order. None (value_partners then) for discontinuous entities or offsets past
    int64."""
    if pairs.fragmented or object in (pairs.reference_start.dtype, pairs.predicted_start.dtype):
        return None
    ordered = pairs.in_row_order()
    value = reducers.value_pairs(ordered, options) if value is None else value
    if object in (value.reference_start.dtype, value.predicted_start.dtype):
        return None
    names = ordered.type_names
    by_name = np.append(np.argsort(np.argsort(np.array(names, dtype=object))), -1)  # index -1: no entity
    found: list[dict[str, Any] | None] = [None] * len(ordered.sentence)
    for own, other in (("reference", "predicted"), ("predicted", "reference")):
        start, end, kind = (getattr(ordered, f"{own}_{column}") for column in ("start", "end", "type"))
        rows = np.flatnonzero(start >= 0)  # every row with an entity of this side: copies counted in row order
        rows = rows[np.lexsort((rows, kind[rows], end[rows], start[rows], ordered.sentence[rows]))]
        v_start, v_end, v_kind = (getattr(value, f"{own}_{column}") for column in ("start", "end", "type"))
        o_start, o_end, o_kind = (getattr(value, f"{other}_{column}") for column in ("start", "end", "type"))
        held = np.flatnonzero(v_start >= 0)
        partner_keys = (by_name[o_kind[held]], o_end[held], o_start[held], o_start[held] < 0)
        held = held[np.lexsort((*partner_keys, v_kind[held], v_end[held], v_start[held], value.sentence[held]))]
        # `held` and `rows` line up: both tables hold every entity of the side once (a row per pair or unpaired one).
        wanted = rows if own == "reference" else rows[ordered.reference_start[rows] < 0]
        partners = held if own == "reference" else held[ordered.reference_start[rows] < 0]
        columns = (o_start[partners].tolist(), o_end[partners].tolist(), o_kind[partners].tolist())
        for row, partner_start, partner_end, partner_kind in zip(wanted.tolist(), *columns):
            if partner_start >= 0:
                found[row] = {"start": partner_start, "end": partner_end, "type": names[partner_kind]}
    return found


def per_sentence_columns(counted: Counted) -> tuple[Vectors, Vectors | None]:
    """Each sentence's vector for the statistics, as `SentenceCounts.of` takes it (integers, then floats or
    None): its six scenario counts, then docs/scoring.md §10's weighted columns when asked for, then, with slices,
    its counts in every bucket (§9, §11), so that a resample of sentences resamples the buckets with them (then
    all held sparse, `unit_counts.Vectors`)."""
    assert counted.per_sentence is not None
    buckets = None if counted.slices is None else counted.slices.per_sentence
    floats = counted.per_sentence_floats
    weighted = floats if floats is not None and floats.shape[1] else None
    if weighted is not None:
        return counted.per_sentence, weighted if buckets is None else stacked((weighted, buckets), axis=1)
    if buckets is None:
        return counted.per_sentence, None
    return stacked((counted.per_sentence, buckets), axis=1), None


def scored_columns(
    predictions: Batch,
    references: Batch,
    form: str,
    options: Options,
    columns: Columns,
    sentence_lengths: list[int] | None = None,
) -> Columns:
    """The columns as scored: `tokens` checked against the tags (one token per tag) and, with ids, those at the
    positions `ignore_index` drops dropped with them, so that entities' start and end index the tokens kept
    (docs/scoring.md §11); with `slices`, a `ValueError` naming what to pass for a slice whose input is missing.
    `sentence_lengths`: each sentence's number of tags where the alignment check measured them (`measured_batches`)."""
    entry = FORMS[form]
    # Tags once the batch is known to hold some (without a value it may be spans, whose tokens need not align).
    holds_tags = not entry.entities and holds_values(predictions, references)
    if columns.tokens is not None and holds_tags:
        kept = kept_tokens(columns, rows_of(references), options.ignore_index, entry.ids, sentence_lengths)
        if kept is not columns.tokens:  # (the same tokens keep the columns, with the labels they have read)
            columns = replace(columns, tokens=kept)
    if options.slices:
        check_slice_inputs(options, columns, entry.entities, holds_tags)
    return columns


def check_error_texts(form: str, options: Options, columns: Columns) -> None:
    """`errors` names entities by their texts (docs/scoring.md §11): tags take theirs from `tokens`, spans from
    `tokens` or `texts`; a `ValueError` says what to pass (`count_batch` asks with `errors` alone)."""
    entry = FORMS[form]
    if columns.tokens is not None or (entry.entities and columns.texts is not None):
        return
    found = "texts but no tokens" if columns.texts is not None else "neither tokens nor texts"
    raise InvalidInputError(
        f"errors={shown(options.errors)} names each entity by its text and found {found} for these "
        f"{entry.described}; pass tokens= (tags) or texts= (spans)",
        "texts" if entry.entities else "tokens",
    )


def given_columns(texts: Any, tokens: Any, groups: Any, documents: Any) -> dict[str, Any]:
    """The columns given beside a batch, by name (`nerscore.table.columns`), as the public functions take them."""
    return {"texts": texts, "tokens": tokens, "groups": groups, "documents": documents}


def checked_columns(columns: Columns | Mapping[str, Any] | None, sentences: int) -> Columns:
    """The columns of a batch of `sentences` sentences, checked once (`Columns.read`: the caller reads them
    within its call)."""
    if isinstance(columns, Columns):
        if columns and columns.sentences != sentences:
            name = columns.given[0]
            raise InvalidInputError(
                f"found {columns.sentences} values for {sentences} sentences; expected one per sentence", name
            )
        return columns
    if columns is not None and not (isinstance(columns, Mapping) and all(isinstance(name, str) for name in columns)):
        raise ValueError(f"columns is {shown(columns)}; expected a mapping of column names to values, or Columns")
    return Columns.read(sentences, **(columns or {}))


def checked_addition(
    counted: Any, sentences: Any, documents: Any, entities: Any, options: Options, keep_sentences: bool
) -> tuple[Hashable, ...] | None:
    """`Accumulator.add`'s arguments checked (`counted`: as `options` and `keep_sentences` count): its document ids."""
    if not isinstance(counted, Counted):  # (AttributeError: no attribute 'per_sentence')
        raise ValueError(f"found {shown(counted)}; expected a batch counted by nerscore.compute.count_batch")
    if (lacking := counted_without(counted, options, keep_sentences)) is not None:
        raise ValueError(
            f"found a batch counted without {lacking}, which this accumulator's result needs; expected one counted "
            "with its options: count_batch(..., accumulator.options, keep_sentences=True where it resamples)"
        )
    rows = None if counted.per_sentence is None else len(counted.per_sentence)
    if not is_id(sentences) or sentences < 0 or rows not in (None, sentences):
        expected = "a whole number >= 0" if rows is None else rows
        raise ValueError(f"sentences is {shown(sentences)}; expected the number of sentences counted ({expected})")
    rows_given = isinstance(entities, list) and all(isinstance(row, dict) and "sentence" in row for row in entities)
    if options.return_entities and entities is not None and not rows_given:
        raise ValueError(f"entities is {shown(entities)}; expected the rows of the batch (count_batch's table)")
    return None if documents is None else checked_columns({"documents": documents}, int(sentences)).documents


# An entity of type "O" with `confusion`, wherever it is found (tags, spans, string entities), or kept by `labels`.
_OUTSIDE_FOUND = f"found entity type {OUTSIDE!r}, {OUTSIDE_TYPE}"
_OUTSIDE_LABEL = f"labels holds {OUTSIDE!r}, {OUTSIDE_TYPE}"


def check_outside_type(
    predictions: Batch, references: Batch, form: str, options: Options, tally: Tally, rows: list[Row] | Pairs | None
) -> None:
    """With `confusion`, an entity type ``"O"`` would share the matrix's ``"O"`` for no entity (docs/scoring.md
    §7): a `ValueError` at its first entity (by the readable path's rows, counted again only for this error)."""
    counted_outside = OUTSIDE in tally.entity_types  # (each read of entity_types finds and sorts the types again)
    if OUTSIDE in (options.labels or ()) and not counted_outside:
        raise InvalidInputError(_OUTSIDE_LABEL)
    if not counted_outside:
        return
    entry = FORMS[form]
    if entry.grounded:
        _refuse_outside_strings(predictions, references)
    if isinstance(rows, Pairs):
        rows = rows.rows()
    if rows is None:
        rows = entry.readable(predictions, references, options)[0]
    for sentence, reference, prediction in rows:
        for side, batch, entity in (("references", references, reference), ("predictions", predictions, prediction)):
            if entity is None or entity.entity_type != OUTSIDE:
                continue
            if not entry.entities:
                raise InvalidInputError(_OUTSIDE_FOUND, side, sentence, token=entity.start)
            index = next(number for number, given in enumerate(rows_of(batch)[sentence]) if as_span(given) == entity)
            raise InvalidInputError(_OUTSIDE_FOUND, side, sentence, entity=index)


def check_grounded_apart(predictions: Batch, references: Batch, options: Options, columns: Columns) -> None:
    """What counting refuses of a batch of string entities grounded to be counted apart (`Accumulator.ground`,
    then `update_grounded`, which has neither the strings nor the columns left): the slices' inputs (the group
    slice's groups, which ground does not take, refused first), and with `confusion` an entity type "O" that
    `labels` keeps (`check_outside_type`, from the batch alone)."""
    if "group" in options.slices:  # (the slices' check asks for groups=, which `ground` does not take)
        raise ValueError(
            "Accumulator.ground takes no groups=, which slices=['group'] needs (one label per sentence); count "
            "the batch with update(predictions=..., references=..., texts=..., groups=...)"
        )
    check_slice_inputs(options, columns, spans=True, holds_tags=False)
    if options.confusion and (not options.labels or OUTSIDE in options.labels):
        _refuse_outside_strings(predictions, references)
        if options.labels:
            raise InvalidInputError(_OUTSIDE_LABEL)


def _refuse_outside_strings(predictions: Batch, references: Batch) -> None:
    """`check_outside_type` for a batch of string entities: the first entity of type "O", either form."""
    for side, batch in (("references", references), ("predictions", predictions)):
        for sentence, entities in enumerate(rows_of(batch)):
            for index, entity in enumerate(entities):
                read = as_string_entity(entity) if is_string_entity(entity) else None
                entity_type = read[0] if read is not None else as_span(entity).entity_type
                if entity_type == OUTSIDE:
                    raise InvalidInputError(_OUTSIDE_FOUND, side, sentence, entity=index)


def count_batch(
    predictions: Batch,
    references: Batch,
    form: str,
    options: Options,
    keep_sentences: bool,
    columns: Columns = NO_COLUMNS,
    *,
    lengths: Sequence[int] | None = None,
    sentence_lengths: list[int] | None = None,
) -> tuple[Counted, list[Row] | Pairs | None]:
    """One pass over a batch of any form (with its `columns`, as `scored_columns` makes them): its tally, each
    sentence's scenario counts with `keep_sentences`, with `return_entities` the table of pairs (for strings, its
    rows), and with `slices` the counts of every bucket (`Counted.slices`), all reduced from the one table the
    form's array path, else its readable path, makes (docs/architecture.md). `lengths`, for spans: each sentence's
    length for the sentence_length slice where `columns`' texts are longer than the sentence (`count_grounded`'s
    placed predictions, §1b). `sentence_lengths`: for tags and ids, each sentence's number of tags as the
    alignment check measured it (`forms.batches.measured_batches`)."""
    entry = FORMS[form]
    if entry.grounded:
        return count_strings(predictions, references, options, keep_sentences, columns)[:2]
    holds = holds_values(predictions, references)
    if options.errors and holds:
        check_error_texts(form, options, columns)  # a batch without a tag or an entity names none
    # Entities' options are checked on any batch; labels are checked as types of tags once the batch is known to
    # hold tags: without a value it may be spans.
    if entry.entities or holds:
        entry.check_options(options)
    # The array paths' table gives the `entities` rows too; `tokens` and `texts` are checked against entities'
    # ends on it (made either way: keeping it costs nothing).
    covered = columns.tokens is not None or columns.texts is not None
    wanted_pairs = bool(options.slices) or options.return_entities or (entry.entities and covered)
    counting = options if lengths is None or not options.slices else options.evolve(slices=())
    counted = entry.count(predictions, references, counting, keep_sentences, columns, wanted_pairs, sentence_lengths)
    if counted is None:  # input the array paths cannot read: the readable path reads it, or says what is wrong
        readable_rows, facts, tokens = entry.readable(predictions, references, counting)
        reduction = readable_reduction(readable_rows, len(references), counting, columns)
        pairs = (reduction.pairs, facts) if wanted_pairs else None
        counted = reducers.counted(reduction, tokens, keep_sentences, pairs)
    if counting is not options:
        assert lengths is not None  # only grounded strings give them
        counted = _sliced_by_lengths(counted, options, columns, keep_sentences, lengths)
    # The table, not its rows: `entity_dicts_of` makes the `entities` dicts from its columns.
    table = counted.rows[0] if options.return_entities else None
    counted = counted._replace(counted_with=options)  # what `Accumulator.add` compares with its own
    return _checked_counted(counted, form, columns, (references, predictions), bool(options.labels)), table


def _checked_counted(
    counted: Counted, form: str, columns: Columns, batches: tuple[Batch, Batch] | None = None, labels: bool = False
) -> Counted:
    """`counted` without the table it kept for the caller: with spans and `tokens`, the entities checked to lie
    within their sentence's tokens on it (`check_tokens_cover`); with `texts` and the `batches` as given
    (references, predictions), within their texts (`refuse_past_texts`). Grounded strings give no batches: their
    spans as given were checked against the texts as given (`string_batches.read_span_side`), and their placed
    predictions lie in the placed texts (§1b). With `labels`, the table lacks the entities of other types: the
    batch is read for them."""
    if counted.rows is None:
        return counted
    if FORMS[form].entities:
        check_tokens_cover(counted.rows[0], columns)
        if batches is not None:
            refuse_past_texts(counted.rows[0], columns, *batches, labels=labels)
    return counted._replace(rows=None)


def refuse_past_texts(
    rows: Pairs, columns: Columns, references: Batch, predictions: Batch, *, labels: bool = False
) -> None:
    """With spans and `texts`, offsets are characters of `texts[i]` (docs/scoring.md §1): an entity that ends
    past its text is a located `InvalidInputError` (side, sentence, entity), by `string_batches.refuse_past_text`
    as against strings. Found on the table's columns (`first_past_text`), the batch read only to name the entity;
    with `labels` (the table holds only the kept types' entities) found by reading the batch."""
    if columns.texts is None:
        return
    found = first_past_text(rows, columns)
    sides = [found] if found is not None else []
    if labels:  # every entity, as the grounded path's read_span_side reads them whatever the labels
        sides = [
            (side, sentence)
            for side, batch in (("references", references), ("predictions", predictions))
            for sentence in _past_sentences(rows_of(batch), columns.texts)
        ]
    for side, sentence in sides:
        spans = map(as_span, rows_of(references if side == "references" else predictions)[sentence])
        # Raises at `found`'s sentence at the latest: the table's entity past the text is the batch's (as_span's
        # end is the table's, a discontinuous entity's extent too), and with `labels` its sentence is listed.
        refuse_past_text(side, sentence, ((span.start, span.end) for span in spans), columns.texts[sentence])


def _past_sentences(batch: list[list], texts: Sequence[str]) -> list[int]:
    """The sentences of one side of spans to read for an entity past its text: the first such, on arrays
    (`entity_ends`), none, or every sentence where the arrays cannot read the side."""
    # Here and in count_grounded: the span path's modules load with the first spans, not with `import nerscore`.
    from .forms.span_arrays import entity_ends

    read = entity_ends(batch)
    if read is None:
        return list(range(len(texts)))
    ends, counts = read
    past = np.flatnonzero(ends > np.repeat(lengths(texts), counts))
    return [place_in_groups(counts, int(past[0]))[0]] if len(past) else []


def _sliced_by_lengths(
    counted: Counted, options: Options, columns: Columns, keep_sentences: bool, lengths: Sequence[int]
) -> Counted:
    """Grounded strings' slices (docs/scoring.md §1b, §11), by the reducers of `Counted`'s fields on the table,
    each sentence's length its text's as given (`columns`' texts also hold the ungrounded predictions placed after
    it)."""
    assert counted.rows is not None  # slices: the table
    pairs, facts = counted.rows
    given = SentenceFacts(facts.sentences, np.fromiter(lengths, np.int64, len(lengths)), facts.equal)
    return counted._replace(**reducers.batch_fields(Reduction(pairs, options, columns, None, given, keep_sentences)))


def count_strings(
    predictions: Batch, references: Batch, options: Options, keep_sentences: bool, columns: Columns
) -> tuple[Counted, list[Row] | None, list[dict[str, Any]] | None]:
    """A batch that holds string entities counted (docs/scoring.md §1b): grounded (`string_batches.string_spans`),
    then counted by `count_grounded` as the spans it grounds to."""
    entry = FORMS[STRINGS]
    entry.check_options(options)
    assert entry.ground is not None
    grounded = entry.ground(rows_of(predictions), rows_of(references), options, columns)
    return count_grounded(grounded, options, keep_sentences)


def count_grounded(
    grounded: StringSpans, options: Options, keep_sentences: bool
) -> tuple[Counted, list[Row] | None, list[dict[str, Any]] | None]:
    """`count_strings` of a batch already grounded by `string_batches.string_spans` with the same `options` (the
    Space checks the grounded spans' cost in between): counted as the spans it grounds to, the ungrounded
    predictions, placed where they overlap nothing, as spurious and in `ungrounded`; a sentence's length (§11) is
    its text's as given. With `return_entities`, the rows and the `entities` dicts, each entity's text as given."""
    from .forms.span_arrays import SpanValues, count_spans

    counting = options.evolve(labels=None) if options.labels else options  # grounding applied labels
    lengths = [len(text) for text in grounded.texts] if options.slices else None
    if isinstance(grounded.predictions, SpanValues) and isinstance(grounded.references, SpanValues):
        # count_batch's way for spans without return_entities, on the columns the grounding made
        sliced = bool(options.slices)
        unsliced = counting.evolve(slices=()) if sliced else counting  # sliced below, by the texts as given
        spans = count_spans(
            grounded.predictions, grounded.references, unsliced, keep_sentences, grounded.columns, sliced
        )
        assert spans is not None  # SpanValues are read as they are
        if lengths is not None:
            spans = _sliced_by_lengths(spans, counting, grounded.columns, keep_sentences, lengths)
        counted, rows = _checked_counted(spans, SPANS, grounded.columns), None
    else:
        assert isinstance(grounded.predictions, list) and isinstance(grounded.references, list)
        counted, table = count_batch(
            grounded.predictions,
            grounded.references,
            SPANS,
            counting,
            keep_sentences,
            grounded.columns,
            lengths=lengths,
        )
        rows = table.rows() if isinstance(table, Pairs) else table
    tally = counted.tally.with_ungrounded(sum(map(len, grounded.ungrounded)))
    entities = None
    if options.return_entities:
        assert rows is not None and grounded.grounded is not None  # return_entities: the table's rows
        partners = value_partners(rows, options) if options.value is not None else None
        entities = entity_dicts(rows, grounded.grounded, grounded.texts, options.evaluation_schemes, partners)
    return counted._replace(tally=tally, counted_with=options), rows, entities  # (its spans: labels=None, above)
