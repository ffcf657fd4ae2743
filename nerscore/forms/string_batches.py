"""Batches of string entities grounded (docs/scoring.md §1b), for the span path that scores them.

`grounding` says where one sentence's strings go; this module grounds a whole batch, and reads the side of spans
against strings (`read_span_side`): `ground_batch` sentence by sentence (with the strings each span was given as,
for the `entities` rows), and `string_spans`, what `compute.count_strings` scores, which grounds the sentences that
have one best grounding for the whole batch at once on arrays (`string_arrays.batch_without_choice`) and hands the
span path columns (`SpanValues`), the others one by one. Ungrounded predictions are placed after their sentence's
text, where they overlap nothing (`StringSpans`).
"""

from __future__ import annotations

import sys
import warnings
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import TYPE_CHECKING, Any

import numpy as np

from ..decoding import kept_types
from ..errors import InvalidInputError, numbered, shown
from ..grouping import owners
from ..option_checks import EVALUATION_SCHEMES, HIPE
from ..options import Options
from ..result_scores import entity_rows
from ..span import Span, all_tags, nested_tags
from ..table.columns import Columns
from ..tally import OUTCOMES, Row
from .grounding import Haystack, ground_predictions, ground_references, needle_of
from .inputs import (
    STRINGS,
    as_list,
    first_located,
    is_string_entity,
    read_spans,
    read_string_columns,
    read_strings,
    side_forms,
)
from .string_arrays import (
    SpanTriple,
    batch_without_choice,
    joined_values,
    sentence_without_choice,
    triples_as_columns,
)

if TYPE_CHECKING:  # the span path's columns, which grounding to arrays makes (string_arrays)
    from .span_arrays import SpanValues


def read_span_side(batch: list[list], side: str, texts: Sequence[str] | None = None) -> list[list[Span]]:
    """The side of spans of a batch of string entities (docs/scoring.md §1b): its `Span`s; a string entity among
    them is the mix a side never holds, and with `texts` so is a span past its text's end (where the ungrounded
    predictions are placed, which nothing may overlap)."""
    for sentence, entities in enumerate(batch):
        for index, entity in enumerate(entities):
            if is_string_entity(entity):
                raise InvalidInputError(
                    f"found the string entity {shown(entity)} where this side holds spans; expected one side all "
                    "strings or all spans, never a mix",
                    side,
                    sentence,
                    entity=index,
                )
    spans = read_spans(batch, side)
    for sentence, entities in enumerate(spans):
        for index, span in enumerate(entities):
            if span.fragments:
                # Strings are found as one stretch of text (docs/scoring.md §12): their pairs would read the
                # fragments as the extent, silently.
                raise InvalidInputError(
                    f"found an entity of fragments {[list(piece) for piece in span.fragments]} against string "
                    "entities, which are contiguous; expected contiguous spans on this side, or spans on both sides",
                    side,
                    sentence,
                    entity=index,
                )
    if texts is not None:
        for sentence, (sentence_spans, text) in enumerate(zip(spans, texts)):
            refuse_past_text(side, sentence, ((span.start, span.end) for span in sentence_spans), text)
    return spans


def refuse_past_text(side: str, sentence: int, extents: Iterable[tuple[Any, Any] | None], text: str | None) -> None:
    """With `texts`, offsets are characters of the sentence's text (docs/scoring.md §1): the first of the sentence's
    entities, each as its (start, end) or None where it has no offsets (a string entity), that ends past its text
    is an `InvalidInputError` (side, sentence, entity); no text, nothing to check. The one check of every data
    shape: spans against strings (`read_span_side`), spans as given (`compute.refuse_past_texts`), the batches the
    evaluate module stores (`stored_batches`)."""
    if text is None:
        return
    past = first_past_end(extents, len(text))
    if past is not None:
        index, start, end = past
        problem = (
            f"found the span [{shown(start)}, {shown(end)}) past the end of its text ({len(text)} characters); "
            "expected character offsets into texts="
        )
        raise InvalidInputError(problem, side, sentence, entity=index)


def first_past_end(extents: Iterable[tuple[Any, Any] | None], length: int) -> tuple[int, Any, Any] | None:
    """The first of a sentence's entities, each as its (start, end) or None where it has no offsets, that ends past
    the sentence's `length` (its text's characters, or its tokens), as (index, start, end); None when none does.
    The one walk of both checks: `refuse_past_text`, and the tokens of the batches the evaluate module stores
    (`stored_batches`, which names the sentence alone, as compute's `slices.check_tokens_cover` does)."""
    for index, extent in enumerate(extents):
        if extent is not None and extent[1] > length:
            return index, extent[0], extent[1]
    return None


@dataclass(frozen=True)
class GroundedBatch:
    """A batch of string entities grounded (§1b): each side's spans per sentence (what the span path scores),
    the ungrounded predictions per sentence as (type, text as given), and the text each grounded entity was
    given with (per sentence and side, span -> the strings of the entities grounded there, in listing order)."""

    references: list[list[Span]]
    predictions: list[list[Span]]
    ungrounded: list[list[tuple[str, str]]]
    given_texts: tuple[list[dict[Span, list[str]]], list[dict[Span, list[str]]]]  # references', predictions'


def without_texts(predictions: list[list], references: list[list]) -> InvalidInputError:
    """The error for a batch of string entities given without `texts`, in which they would be found (§1b)."""
    side = "references" if side_forms(predictions, references)[0] == STRINGS else "predictions"
    batch = as_list(references if side == "references" else predictions, side)
    sentence, value = first_located(batch) or (0, None)
    if all_tags(value):  # [[["B-PER", "O"]]]: tags, not a (type, text) pair
        return nested_tags(value, side, sentence)
    return InvalidInputError(
        "found string entities (no offsets) and no texts; expected texts=, one string per sentence (document), "
        "in which each string is found",
        side,
    )


def ground_batch(
    predictions: list[list],
    references: list[list],
    options: Options,
    texts: Sequence[str] | None,
    with_names: bool = True,
) -> GroundedBatch:
    """Both sides of a batch that holds string entities, grounded (§1b). Reference strings are grounded over all
    listed references, then `labels` drops other types on both sides, then the predictions are grounded."""
    reference_form, predicted_form = side_forms(predictions, references)
    if texts is None:
        raise without_texts(predictions, references)
    strings_r = read_strings(references, "references") if reference_form == STRINGS else None
    strings_p = read_strings(predictions, "predictions") if predicted_form == STRINGS else None
    spans_given_r = read_span_side(references, "references", texts) if strings_r is None else None
    spans_given_p = read_span_side(predictions, "predictions", texts) if strings_p is None else None
    keep = kept_types(options.labels)
    normalize = options.normalize
    grounded_r, grounded_p, ungrounded = [], [], []
    given_r: list[dict[Span, list[str]]] = []
    given_p: list[dict[Span, list[str]]] = []
    for sentence, text in enumerate(texts):
        haystack = Haystack.of(text, normalize)
        names_r: dict[Span, list[str]] = {}
        if strings_r is not None:
            spans_r = ground_references(strings_r[sentence], haystack, normalize, sentence)
            if with_names:
                for span, (_, given) in zip(spans_r, strings_r[sentence]):
                    names_r.setdefault(span, []).append(given)
        else:
            assert spans_given_r is not None
            spans_r = list(spans_given_r[sentence])
        if keep is not None:
            spans_r = [span for span in spans_r if keep(span.entity_type)]
        names_p: dict[Span, list[str]] = {}
        left: list[tuple[str, str]] = []
        if strings_p is not None:
            if normalize:  # a string that normalises to nothing, located in the list as given (before labels)
                for index, (_, given) in enumerate(strings_p[sentence]):
                    if not needle_of(given, True):
                        raise InvalidInputError(
                            f"found {shown(given)}, empty once normalised; expected text",
                            "predictions",
                            sentence,
                            entity=index,
                        )
            listed = [entity for entity in strings_p[sentence] if keep is None or keep(entity[0])]
            try:
                places = ground_predictions(listed, haystack, normalize, spans_r, options.min_overlap)
            except InvalidInputError as error:
                raise error.at("predictions", sentence) from None
            spans_p = []
            for place, entity in zip(places, listed):
                if place is None:
                    left.append(entity)
                else:
                    spans_p.append(place)
                    if with_names:
                        names_p.setdefault(place, []).append(entity[1])
        else:
            assert spans_given_p is not None
            spans_p = [span for span in spans_given_p[sentence] if keep is None or keep(span.entity_type)]
        grounded_r.append(spans_r)
        grounded_p.append(spans_p)
        ungrounded.append(left)
        given_r.append(names_r)
        given_p.append(names_p)
    return GroundedBatch(grounded_r, grounded_p, ungrounded, (given_r, given_p))


@dataclass(frozen=True)
class StringSpans:
    """A batch that holds string entities grounded for the span path (§1b): each side's spans, every ungrounded
    prediction placed after its sentence's text (in `columns`' texts, which hold the text, then each such
    prediction's string as given after a line break), where it overlaps nothing and so is the spurious prediction
    §1b counts it as, by every option of the span path (value, diagnostics, errors by its text); `texts` the
    texts as given, `ungrounded` each sentence's ungrounded predictions (type, string) and `grounded` the
    `GroundedBatch` with the given strings (with `return_entities` only). The sides are lists of (start, end,
    type) per sentence for the readable path (`return_entities`, `errors`), else `SpanValues`, the columns the
    array path reads, so that no entity is built twice."""

    predictions: list[list[SpanTriple]] | SpanValues
    references: list[list[SpanTriple]] | SpanValues
    columns: Columns
    texts: Sequence[str]
    ungrounded: list[Sequence[tuple[str, str]]]
    grounded: GroundedBatch | None
    options: Options | None = None  # what it was grounded with, which its counting must share


def string_spans(predictions: list[list], references: list[list], options: Options, columns: Columns) -> StringSpans:
    """A batch that holds string entities grounded (§1b), as `StringSpans`. The strings are character offsets in
    `texts`, so `tokens`, if given, name none of them: the span path gets the texts alone."""
    texts = columns.texts
    grounded = None
    placed_p: list[list[SpanTriple]] | SpanValues
    placed_r: list[list[SpanTriple]] | SpanValues
    # The array path lays each sentence's spans out by position; the HIPE scorer's pairing reads them in listing
    # order (§3a), as the rows do: with it, return_entities changed the counts (strict_possible 7 or 8).
    if not options.return_entities and not options.errors and options.pairing != HIPE and texts is not None:
        values_p, placed_r, ungrounded = ground_batch_values(predictions, references, options, texts)
        kept = int(values_p.counts.sum())  # the predictions grounded
        placed_p = _with_placed(values_p, _placed(ungrounded, texts))
    else:
        grounded = ground_batch(predictions, references, options, texts, with_names=options.return_entities)
        ungrounded = list(grounded.ungrounded)
        placed_r, placed_p = _triples(grounded.references), _triples(grounded.predictions)
        kept = sum(map(len, placed_p))
        assert texts is not None  # ground_batch refuses strings without texts
        for sentence, spans in _placed(ungrounded, texts).items():
            placed_p[sentence] = [*placed_p[sentence], *spans]
        if not options.return_entities:
            grounded = None
    assert texts is not None
    # Only where most predictions were left ungrounded (or out, by `labels`): a system's few strings of its own
    # (§1b) cost one look at each sentence.
    if (any(ungrounded) or options.labels is not None) and 2 * kept < sum(map(len, predictions)):
        warn_swapped(predictions, references, options, texts)
    placed_texts = list(texts)
    for sentence in compress(range(len(ungrounded)), ungrounded):
        placed_texts[sentence] = "\n".join([texts[sentence], *(given for _, given in ungrounded[sentence])])
    span_columns = Columns(texts=tuple(placed_texts), groups=columns.groups, documents=columns.documents)
    return StringSpans(placed_p, placed_r, span_columns, texts, ungrounded, grounded, options)


def warn_swapped(predictions: list[list], references: list[list], options: Options, texts: Sequence[str]) -> None:
    """A `UserWarning` where most string predictions of a call read as (text, type): each text absent from its
    sentence's text and a type of the references (or of `labels`), each type present in it. An ungrounded
    prediction is a legitimate spurious one (docs/scoring.md §1b), so nothing is refused; but the same mistake in
    the references is refused with its fix (`grounding.ground_references`), and here every prediction would be
    left ungrounded, or left out by `labels`, with no word said."""
    reference_form, predicted_form = side_forms(predictions, references)
    if predicted_form != STRINGS:
        return
    known = set(options.labels or ())
    if reference_form == STRINGS:
        known.update(kind for sentence in read_strings(references, "references") for kind, _ in sentence)
    else:
        known.update(span.entity_type for sentence in read_spans(references, "references") for span in sentence)
    normalize = options.normalize
    swapped, listed = [], 0
    for sentence, (entities, text) in enumerate(zip(read_strings(predictions, "predictions"), texts)):
        listed += len(entities)
        haystack = None
        for index, (kind, given) in enumerate(entities):
            if given in known:
                haystack = haystack if haystack is not None else Haystack.of(text, normalize).text
                kind_needle, given_needle = needle_of(kind, normalize), needle_of(given, normalize)
                if kind_needle and kind_needle in haystack and given_needle not in haystack:
                    swapped.append((sentence, index, kind, given))
    if not swapped or 2 * len(swapped) <= listed:
        return
    sentence, index, kind, given = swapped[0]
    entity = predictions[sentence][index]
    fix = {"type": given, "text": kind} if isinstance(entity, Mapping) else (given, kind)
    problem = (
        f"found {shown(entity)}, whose text {shown(given)} does not occur in the sentence's text and is a type of "
        f"the references (or labels), and whose type {shown(kind)} occurs in it: {len(swapped)} of the {listed} "
        "predictions read so, each left ungrounded and counted spurious (or left out by labels); a string entity "
        f"is (type, text): pass {shown(fix)}"
    )
    # (its message: where, then what; the sentence numbered as the user's whole input counts it, as an error's)
    where = InvalidInputError(problem, "predictions", numbered(sentence), entity=index)
    warnings.warn(str(where), UserWarning, stacklevel=_caller_level())


def _caller_level() -> int:
    """The `stacklevel` of a warning that names the first caller outside the package (the user's line)."""
    level, frame = 1, sys._getframe(1)
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith("nerscore"):
        level, frame = level + 1, frame.f_back
    return level


def _triples(sentences: Sequence[Sequence[Span]]) -> list[list[SpanTriple]]:
    return [[(span.start, span.end, span.entity_type) for span in spans] for spans in sentences]


def _placed(ungrounded: Sequence[Sequence[tuple[str, str]]], texts: Sequence[str]) -> dict[int, list[SpanTriple]]:
    """The ungrounded predictions as spans after their sentence's text, one line each (`StringSpans`), by
    sentence, for the sentences that have some."""
    placed: dict[int, list[SpanTriple]] = {}
    for sentence in compress(range(len(ungrounded)), ungrounded):
        spans = placed[sentence] = []
        position = len(texts[sentence])
        for entity_type, given in ungrounded[sentence]:
            position += 1  # the line break: no two placed predictions touch, nor the text
            spans.append((position, position + len(given), entity_type))
            position += len(given)
    return placed


def _with_placed(values: SpanValues, placed: dict[int, list[SpanTriple]]) -> SpanValues:
    """`values` with the spans of `placed` (by sentence) added to their sentences."""
    names = {name: number for number, name in enumerate(values.type_names)}
    sentence = owners(values.counts)
    given = (sentence, values.start, values.end, values.type_id)
    return joined_values(len(values), [given, triples_as_columns(placed, names)], names)


def ground_batch_values(
    predictions: list[list], references: list[list], options: Options, texts: Sequence[str]
) -> tuple[SpanValues, SpanValues, list[Sequence[tuple[str, str]]]]:
    """`ground_batch`'s spans as `SpanValues`, for the array path of spans, and the ungrounded predictions. The
    sentences with nothing to choose are grounded by `batch_without_choice`, for the whole batch at C speed; the
    others (`sentence_without_choice`'s, then `ground_batch`'s) one at a time."""
    reference_form, predicted_form = side_forms(predictions, references)
    columns_r = read_string_columns(references, "references") if reference_form == STRINGS else None
    columns_p = read_string_columns(predictions, "predictions") if predicted_form == STRINGS else None
    strings_r = None if columns_r is None else columns_r.sentences
    strings_p = None if columns_p is None else columns_p.sentences
    if strings_r is None:
        read_span_side(references, "references", texts)  # checked, located
    if strings_p is None:
        read_span_side(predictions, "predictions", texts)
    keep = kept_types(options.labels)
    size = len(texts)
    names: dict[str, int] = {}
    if columns_r is not None and columns_p is not None:
        separate, batch_r, batch_p, left, names = batch_without_choice(
            columns_r, columns_p, texts, keep, options.normalize
        )
    else:
        separate, left = np.ones(size, dtype=bool), [[] for _ in range(size)]
        batch_r = batch_p = triples_as_columns({}, names)
    separate_r: dict[int, list[SpanTriple]] = {}
    separate_p: dict[int, list[SpanTriple]] = {}
    for sentence in np.flatnonzero(separate).tolist():
        text = texts[sentence]
        grounded = None
        if strings_r is not None and strings_p is not None:
            if not options.normalize:
                grounded = sentence_without_choice(strings_r[sentence], strings_p[sentence], text, keep)
            else:
                haystack = Haystack.of(text, True)
                if haystack.first is None:  # positions unchanged by normalising: strings normalised the same way
                    listed_r = [(kind, needle_of(given, True)) for kind, given in strings_r[sentence]]
                    listed_p = [(kind, needle_of(given, True)) for kind, given in strings_p[sentence]]
                    if all(needle for _, needle in listed_r) and all(needle for _, needle in listed_p):
                        grounded = sentence_without_choice(listed_r, listed_p, haystack.text, keep)
                        if grounded is not None and grounded[2]:
                            # Its ungrounded come back normalised, where an entity's text (slices by `seen` and
                            # `entity_length`) is its string as given (docs/scoring.md §11): the general way.
                            grounded = None
        if grounded is None:
            try:
                one = ground_batch([predictions[sentence]], [references[sentence]], options, [text], with_names=False)
            except InvalidInputError as error:
                raise error.at(sentence=sentence) from None
            spans_r, spans_p = _triples([one.references[0], one.predictions[0]])
            grounded = (spans_r, spans_p, one.ungrounded[0])
        separate_r[sentence], separate_p[sentence], left[sentence] = grounded
    parts_p, parts_r = (
        [batch_p, triples_as_columns(separate_p, names)],
        [batch_r, triples_as_columns(separate_r, names)],
    )
    return joined_values(size, parts_p, names), joined_values(size, parts_r, names), left


def entity_dicts(
    rows: list[Row],
    grounded: GroundedBatch,
    texts: Sequence[str],
    schemes: Sequence[str] = EVALUATION_SCHEMES,
    partners: Sequence[Span | None] | None = None,
) -> list[dict[str, Any]]:
    """The `entities` rows (docs/scoring.md §7) of a grounded batch: each entity with its `text`, and after each
    sentence's rows its ungrounded predictions (start and end None), in listing order. Rows of predictions placed
    after the text (`StringSpans`) are those ungrounded ones and are left out; `partners`, one per row, the value
    pairing's (docs/scoring.md §10), adds each row's `value_pair` (None for an ungrounded prediction)."""
    given = tuple(
        [{span: deque(names) for span, names in sentence.items()} for sentence in side] for side in grounded.given_texts
    )
    sentence_rows: dict[int, list[dict[str, Any]]] = {}
    for number, (row, (sentence, reference, prediction)) in enumerate(zip(entity_rows(rows, schemes), rows)):
        if reference is None and prediction is not None and prediction.start >= len(texts[sentence]):
            continue  # an ungrounded prediction, listed below as given
        if partners is not None:
            partner = partners[number]
            row["value_pair"] = None if partner is None else partner.as_dict()
        for key, span, side in (("reference", reference, 0), ("prediction", prediction, 1)):
            if span is not None:
                names = given[side][sentence].get(span)
                row[key]["text"] = names.popleft() if names else texts[sentence][span.start : span.end]
        sentence_rows.setdefault(sentence, []).append(row)
    spurious = OUTCOMES["II"]
    for sentence, left in enumerate(grounded.ungrounded):
        for entity_type, text in left:
            sentence_rows.setdefault(sentence, []).append(
                {
                    "sentence": sentence,
                    "reference": None,
                    "prediction": {"start": None, "end": None, "type": entity_type, "text": text},
                    "scenario": "II",
                    **{scheme: spurious[scheme] for scheme in schemes},
                    **({} if partners is None else {"value_pair": None}),
                }
            )
    return [row for sentence in sorted(sentence_rows) for row in sentence_rows[sentence]]
