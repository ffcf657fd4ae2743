"""The forms of input (docs/scoring.md §1, §1b): string tags, integer ids with label_list, spans or string
entities; a side read once into a list of sentences, its form judged by its first value, each entity read and
checked, and every bad value a located `InvalidInputError`. Both sides together: `forms.batches`."""

from __future__ import annotations

import numbers
import operator
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any, TypeVar

import numpy as np

from ..decoding import kept_types
from ..errors import InvalidInputError, plain_text, refuse_tensor_without_values, shown
from ..option_checks import check_labels, is_collection, is_id
from ..schemes import ONE_STRING, tags_in_one
from ..span import LOGITS_HINT, Span, all_tags, fragment_span, looks_like_entity, looks_like_scores, nested_tags

T = TypeVar("T")


def first_located(batch: Batch) -> tuple[int, Any] | None:
    """The first value of a batch with its sentence's index (that of the first sentence holding one), or None."""
    return next(((index, row[0]) for index, row in enumerate(batch) if len(row)), None)


def first_value(batch: Batch) -> Any:
    return (first_located(batch) or (0, None))[1]


# The forms of a batch (docs/scoring.md §1, §1b): string tags, integer ids with label_list, spans, or entities
# as surface strings (either side strings, the other strings or spans: STRINGS is the form of such a batch).
TAGS, IDS, SPANS, STRINGS = "tags", "ids", "spans", "strings"
# A batch as the paths read it: a list of sentences, or a 2-D numpy array of padded integer ids.
Batch = list | np.ndarray
# Where a span dict holds its type, the first present wins: ours, nervaluate's, and the key of the transformers
# token-classification pipeline's grouped output (aggregation_strategy other than "none").
TYPE_KEYS = ("type", "label", "entity_group")


# spaCy, read without importing it (issue 21): a `Doc` is the list of its `ents`, and an entity is anything with
# `start_char`, `end_char` (exclusive) and `label_`, as spaCy's `Span` has; so are objects shaped like them.
_CHAR_SPAN = ("start_char", "end_char", "label_")


def is_char_span(value: Any) -> bool:
    """Whether `value` is an entity as spaCy's `Span` is one: `start_char`, `end_char` and `label_`."""
    return not isinstance(value, (Mapping, tuple, list, str)) and all(hasattr(value, name) for name in _CHAR_SPAN)


def is_doc(value: Any) -> bool:
    """Whether `value` is a document as spaCy's `Doc` is one: it has `ents` (and is no list or dict)."""
    return not isinstance(value, (Mapping, tuple, list, str)) and hasattr(value, "ents")


def doc_entities(doc: Any, side: str, sentence: int) -> list[tuple[Any, Any, Any]]:
    """A `Doc`'s entities as (start_char, end_char, label_) tuples (`as_span` checks their values); a member of
    `ents` without these attributes is an `InvalidInputError` naming it."""
    entities = []
    for index, entity in enumerate(doc.ents):
        if not is_char_span(entity):
            missing = " and ".join(name for name in _CHAR_SPAN if not hasattr(entity, name)) or "the attributes"
            raise InvalidInputError(
                f"found {shown(entity)} ({type(entity).__name__}) in the {type(doc).__name__}'s ents, which has no "
                f"{missing}; expected entities with start_char, end_char and label_, as spaCy's Span",
                side,
                sentence,
                entity=index,
            )
        entities.append((entity.start_char, entity.end_char, entity.label_))
    return entities


def is_string_entity(value: Any) -> bool:
    """Whether `value` is an entity without offsets (docs/scoring.md §1b): a (type, text) pair of strings (a list
    of two, as JSON writes a tuple, too), or a dict with a ``text`` key and no ``start`` or ``end`` (None as the
    evaluate wrapper stores them counts as none)."""
    if isinstance(value, (tuple, list)):
        return len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], str)
    if isinstance(value, Mapping):
        return "text" in value and value.get("start") is None and value.get("end") is None
    return False


def value_form(value: Any) -> str:
    """The form of a batch whose first value is `value`: a (type, text) pair or a dict with a text and no offsets
    is a string entity; a dict, a `Span` or a tuple or list of three (start, end, type) is an entity; what is
    neither an entity nor an id reads as a (bad) tag."""
    if is_string_entity(value):
        return STRINGS
    if looks_like_entity(value) or is_char_span(value):
        return SPANS
    return IDS if is_id(value) else TAGS


def batch_form(predictions: list[list], references: list[list], *, listed: bool = False) -> str | None:
    """TAGS, IDS or SPANS, judged by the first value of each side (for tags against ids, the references' first);
    None when neither side holds a value. A side with no entity at all takes the other side's form; spans
    against tags or ids are an error. `listed`: both sides are as `as_list` returns them, so not read again
    (it would return them unchanged; at 20,000 sentences a side costs 1% of a plain compute_semeval)."""
    reference_form, predicted_form = _forms(predictions, references) if listed else side_forms(predictions, references)
    forms = {reference_form, predicted_form} - {None}
    if forms == {TAGS} and None in (reference_form, predicted_form):
        _check_lone_value(predictions if reference_form is None else references, reference_form is None)
    if len(forms) > 1 and forms & {STRINGS, SPANS}:
        _check_first_values(predictions, references, reference_form, predicted_form)
        if forms == {STRINGS, SPANS}:
            return STRINGS  # strings against spans into the same texts (docs/scoring.md §1b)
        entities = STRINGS if STRINGS in forms else SPANS  # against tags or ids
        entities_side, other_side = ("references", "predictions")[:: 1 if reference_form == entities else -1]
        other = "integer ids" if IDS in forms else "tags"
        if entities == STRINGS:
            raise ValueError(
                f"{entities_side} hold string entities and {other_side} hold {other}; expected the other side in "
                "strings, or in spans into the same texts"
            )
        raise ValueError(
            f"{entities_side} hold spans (lists of entities) and {other_side} hold {other}; expected both sides in "
            "one form: tag sequences, or lists of spans"
        )
    return reference_form or predicted_form


def _check_first_values(
    predictions: list[list], references: list[list], reference_form: str | None, predicted_form: str | None
) -> None:
    """Before the two sides are said to hold different forms: a side whose first value only looks like another
    form says what it is, where. A row of numbers against tags or ids is a token's scores (logits given as nested
    lists; a 3-D array gets the same advice in `as_list`); a value that is neither a tag nor an id against entities
    is a malformed entity, checked as one of the other side's form (`as_string_entity`, `as_span`)."""
    sides = (
        ("references", references, reference_form, predicted_form),
        ("predictions", predictions, predicted_form, reference_form),
    )
    for side, batch, form, other in sides:
        located = first_located(batch)
        if located is None:
            continue
        sentence, value = located
        if form in (TAGS, IDS) and other in (STRINGS, SPANS):
            refuse_entity_row(batch[sentence], side, sentence)
        if form in (STRINGS, SPANS) and other in (TAGS, IDS) and all_tags(value):
            raise nested_tags(value, side, sentence)
        if form == SPANS and other in (TAGS, IDS) and looks_like_scores(value):
            raise InvalidInputError(
                f"found {shown(value)}, a list of numbers where the other side holds "
                f"{'integer ids' if other == IDS else 'tags'}: a token's scores per label? Expected one tag or id "
                f"per token ({LOGITS_HINT})",
                side,
                sentence,
                0,
            )
        if form in (TAGS, IDS) and other in (STRINGS, SPANS) and not isinstance(value, str) and not is_id(value):
            _check_first_entity(value, other == STRINGS, side, sentence)


def refuse_entity_row(row: Any, side: str, sentence: int) -> None:
    """An error if a sentence's row of values is itself one entity, where a batch holds one list per sentence: a
    (start, end, type) tuple or list, a (type, text) pair that is not two tags (a sentence of two tokens), or (met
    only by `as_list`, which refuses no other) a dict or a `Span`."""
    spans = isinstance(row, (Mapping, Span))
    offsets = isinstance(row, (tuple, list)) and len(row) >= 3 and is_id(row[0]) and is_id(row[1])
    if spans or (offsets and isinstance(row[2], str)) or (is_string_entity(row) and not all_tags(row)):
        raise InvalidInputError(
            f"found the entity {shown(row)} where a batch holds one list per sentence; expected a list of "
            f"{'span' if spans else 'entity'} lists (for one sentence, [entities])",
            side,
            sentence,
        )


def _check_lone_value(batch: list[list], is_predictions: bool) -> None:
    """Against a side with no value at all, a tuple or list of offsets or strings (not a token's scores) can only
    be a malformed entity (tags of it would fail alignment with no entity named): checked as one, located."""
    sentence, value = first_located(batch) or (0, None)  # (the caller has found a value)
    if not isinstance(value, (tuple, list)) or not value:
        return
    if looks_like_scores(value) and not all(isinstance(item, numbers.Integral) for item in value):
        return  # a token's scores: the alignment error stands (as_list advises argmax for arrays)
    side = "predictions" if is_predictions else "references"
    _check_first_entity(value, len(value) == 2 and isinstance(value[0], str), side, sentence)  # a (type, ...) pair


def _check_first_entity(value: Any, strings: bool, side: str, sentence: int) -> None:
    """A side's first value read as the entity it can only be (`strings`: a string entity), its error located."""
    try:
        as_string_entity(value) if strings else as_span(value)
    except InvalidInputError as error:
        raise error.at(side, sentence, entity=0) from None


def side_forms(predictions: list[list], references: list[list]) -> tuple[str | None, str | None]:
    """The form of each side, references first, by its first value (None for a side without a value)."""
    return _forms(as_list(predictions, "predictions"), as_list(references, "references"))


def _forms(predictions: Batch, references: Batch) -> tuple[str | None, str | None]:
    """`side_forms` of two sides as `as_list` returns them."""
    reference, predicted = first_value(references), first_value(predictions)
    return None if reference is None else value_form(reference), None if predicted is None else value_form(predicted)


def holds_ids(predictions: list[list], references: list[list]) -> bool | None:
    """Whether a batch of tags holds integer ids (True) or string tags (False); None when it holds no value."""
    return None if (form := batch_form(predictions, references)) is None else form == IDS


def as_list(values: Any, side: str) -> Batch:
    """A batch as a list of sentences, or a 2-D numpy array of integer ids; other numpy arrays and torch
    tensors become lists (cheaper than evaluate's own conversion, evaluate issue 513). The caller's objects
    are never modified; a list is not copied: every caller reads it within its call and keeps nothing of it."""
    if is_doc(values):
        raise InvalidInputError(
            f"found one {type(values).__name__} (a document); expected a batch: a list with one document per "
            "sentence or document, [doc] for one",
            side,
        )
    refuse_tensor_without_values(values, side)  # (meta, nested: NotImplementedError, RuntimeError below)
    logits: Any = getattr(values, "predictions", values[0] if isinstance(values, tuple) and values else None)
    kind = getattr(getattr(logits, "dtype", None), "kind", "f")  # (torch's dtypes have no kind: all numbers)
    if getattr(logits, "ndim", 0) > 1 and kind in "biuf" and not getattr(logits, "is_nested", False):  # (no 2-D row)
        raise InvalidInputError(  # Trainer's (logits, labels): read as two sentences, a length mismatch misled
            f"found {type(values).__name__} (predictions of shape {tuple(logits.shape)}, and labels), from Trainer; "
            "expected predictions=eval_pred.predictions.argmax(-1), references=eval_pred.label_ids",
            side,
        )
    shape = tuple(getattr(values, "shape", ()))
    if len(shape) > 2:
        raise InvalidInputError(
            f"found an array of shape {shape}; expected one tag or id per token, a 2-D array ({LOGITS_HINT})",
            side,
        )
    if len(shape) == 2 and not isinstance(values, (list, tuple)):
        try:
            array = np.asarray(values)  # no copy for numpy arrays and CPU tensors
        except (TypeError, RuntimeError):  # e.g. a tensor on a GPU: .tolist() below copies it over
            array = None
        if array is not None and array.dtype.kind in "iu":  # padded ids, as Trainer hands them over
            return array
    if isinstance(values, Mapping) or hasattr(values, "columns") or hasattr(values, "column_names"):  # no rows
        keys = (values.column_names or []) if hasattr(values, "column_names") else list(values)
        raise InvalidInputError(
            f"found a {type(values).__name__} (keys {shown(list(keys)[:5])}); expected a batch: a list with one "
            "list of tags (or entities) per sentence, such as one column of it",
            side,
        )
    if hasattr(values, "tolist") and not isinstance(values, (list, tuple)):
        values = values.tolist()
    if not is_collection(values):
        raise InvalidInputError(
            f"found {type(values).__name__}; expected a batch: a list with one list of tags per sentence", side
        )
    if type(values) is not list:  # a list is not copied: a young list of every sentence for the collector
        values = list(values)
    if set(map(type, values)) <= {list, tuple}:  # the common case, checked at C speed
        return values
    rows = []
    for index, row in enumerate(values):
        if is_doc(row):  # a spaCy Doc: its entities
            row = doc_entities(row, side, index)
        if hasattr(row, "tolist") and not isinstance(row, (list, tuple)):
            refuse_tensor_without_values(row, side, index)
            row = row.tolist()
        if isinstance(row, (Mapping, Span)):
            refuse_entity_row(row, side, index)
        if not is_collection(row):
            hint = ONE_STRING if tags_in_one(row) else "a batch holds one list per sentence"
            raise InvalidInputError(f"found {shown(row)}; expected a list of tags ({hint})", side, index)
        rows.append(list(row))
    return rows


def rows_of(batch: Batch) -> list:
    """A batch as a list of rows (the form evaluate stores and the readable path reads)."""
    return batch.tolist() if isinstance(batch, np.ndarray) else batch


_SPAN_FORMS = (
    "a dict with 'start', 'end' (exclusive) and 'type' ('label' and 'entity_group' work too), or a (start, end, "
    "type) tuple"
)

# A transformers pipeline has offsets with a fast tokenizer only; its 'word' is the tokenizer's, not the text's.
_NO_OFFSETS = "expected 'start' and 'end': load the pipeline with a fast tokenizer (use_fast=True)"


def _type_key(entity: Mapping, spans: bool = False) -> str:
    """The key under which a dict holds its type (`TYPE_KEYS`, the first present), else the error that says so;
    among `spans`, a dict with "entity" is a token of the pipeline's output, whose grouping it names."""
    key = next((key for key in TYPE_KEYS if key in entity), None)
    if key is None:
        grouped = spans and "entity" in entity
        hint = " (token-level pipeline output: pass aggregation_strategy='simple' to the pipeline)" if grouped else ""
        raise InvalidInputError(
            f"found {shown(entity)}, which has no type; expected the type under 'type', 'label' or 'entity_group'{hint}"
        )
    return key


def _checked_type(entity_type: Any, where: str = "") -> str:
    """An entity's type, a non-empty string, else the error that says so (and `where` the type is looked for)."""
    if not isinstance(entity_type, str) or not entity_type:
        raise InvalidInputError(f"the type is {shown(entity_type)}; expected a non-empty string such as 'PER'{where}")
    return plain_text(entity_type)


def as_span(entity: Any) -> Span:
    """One entity of span input as a `Span` (docs/scoring.md §1): a dict with integer ``start`` and ``end``
    (exclusive) and its type under ``type``, ``label`` or ``entity_group`` (the first present; other keys, such
    as a pipeline's ``score`` and ``word``, are ignored), a ``(start, end, type)`` tuple or list, or a `Span`.
    A dict with ``fragments`` is a discontinuous entity (docs/scoring.md §12, `as_fragment_span`).
    Raises `InvalidInputError` saying what is wrong."""
    if isinstance(entity, Span):
        if entity.fragments:
            return as_fragment_span({"fragments": entity.fragments, "type": entity.entity_type})
        start, end, entity_type = entity.start, entity.end, entity.entity_type
    elif isinstance(entity, (tuple, list)):  # before the ABC checks: JSON's usual form, never a Mapping
        if len(entity) != 3:
            # (start, end, type, score): a span with extra fields, say where they go (docs/scoring.md §1)
            extra = (
                " (keep the first three items, or pass a dict: its other keys, such as 'score', are ignored)"
                if len(entity) > 3 and looks_like_entity(entity)
                else ""
            )
            found = f"found {shown(entity)}, a {type(entity).__name__} of {len(entity)} items"
            raise InvalidInputError(f"{found}; expected {_SPAN_FORMS}{extra}")
        start, end, entity_type = entity
    elif isinstance(entity, Mapping) and entity.get("fragments") is not None:  # None: as evaluate stores spans
        return as_fragment_span(entity)
    elif isinstance(entity, Mapping):
        if "word" in entity and None in (entity.get("start"), entity.get("end")):  # a slow tokenizer's pipeline
            raise InvalidInputError(f"found {shown(entity)}, a pipeline's entity without offsets; {_NO_OFFSETS}")
        missing = [key for key in ("start", "end") if key not in entity]
        if missing:  # neither offset: perhaps a string entity under other keys ({"label": ..., "string": ...})
            strings = ", or with texts= a string entity {'type': ..., 'text': ...}" if len(missing) == 2 else ""
            found = f"found {shown(entity)}, which has no {' and no '.join(map(repr, missing))}"
            raise InvalidInputError(f"{found}; expected {_SPAN_FORMS}{strings}")
        start, end, entity_type = entity["start"], entity["end"], entity[_type_key(entity, spans=True)]
    elif is_char_span(entity):  # a spaCy Span: character offsets
        start, end, entity_type = entity.start_char, entity.end_char, entity.label_
    else:
        raise InvalidInputError(
            f"found {shown(entity)} ({type(entity).__name__}) in a batch of spans; expected {_SPAN_FORMS}. "
            "A batch holds either tag sequences or lists of spans, not both"
        )
    for name, value in (("start", start), ("end", end)):
        if not is_id(value):
            order = isinstance(entity, (tuple, list)) and isinstance(start, str) and is_id(end) and is_id(entity_type)
            raise InvalidInputError(  # ("PER", 0, 3): the type first, as some exports write it
                f"{name} is {shown(value)} ({type(value).__name__}); expected a non-negative integer offset"
                + (f" (a tuple is (start, end, type): pass {shown((end, entity_type, start))})" if order else "")
            )
        if value < 0:
            raise InvalidInputError(f"{name} is {shown(int(value))}; expected a non-negative integer offset")
    if start >= end:
        raise InvalidInputError(
            f"start {shown(int(start))} >= end {shown(int(end))}; expected start < end (end is exclusive)"
        )
    return Span(int(start), int(end), _checked_type(entity_type))


def as_fragment_span(entity: Mapping) -> Span:
    """A dict with ``fragments`` as its `Span` (docs/scoring.md §12): a non-empty list of ``[start, end]`` pairs of
    non-negative integers with start < end, sorted and merged where they touch or overlap; its type as `as_span`
    reads it; ``start`` and ``end``, where given, must be its extent. One fragment is the ordinary span."""
    fragments = entity["fragments"]
    if type(fragments) is not list and type(fragments) is not tuple:  # (the usual lists: no ABC check)
        # (A 0-d array is no collection: list() of it raised TypeError "iteration over a 0-d array".)
        if isinstance(fragments, Mapping) or not is_collection(fragments):
            raise InvalidInputError(
                f"fragments is {shown(fragments)} ({type(fragments).__name__}); expected a list of [start, end] pairs"
            )
        fragments = list(fragments)
    if not fragments:
        raise InvalidInputError("fragments is empty; expected a list of one or more [start, end] pairs")
    checked = []
    for number, piece in enumerate(fragments):
        if type(piece) in (list, tuple) and len(piece) == 2 and type(piece[0]) is int and type(piece[1]) is int:
            start, end = piece  # the usual case, checked without a call per bound (10,000 fragments, §12)
            if 0 <= start < end:
                checked.append((start, end))
                continue
        where = f"fragment {number} {shown(piece)}"
        # A row of a 2-D array of fragments is a pair as a list is (its integers are numpy's).
        pair = isinstance(piece, (tuple, list)) or (isinstance(piece, np.ndarray) and piece.ndim == 1)
        bounds = list(piece) if pair else None
        if bounds is None or len(bounds) != 2:
            raise InvalidInputError(f"{where} is not a pair; expected [start, end] (end exclusive)")
        for name, value in zip(("start", "end"), bounds):
            if not is_id(value) or value < 0:
                raise InvalidInputError(f"{where}: {name} is {shown(value)}; expected a non-negative integer offset")
        start, end = int(bounds[0]), int(bounds[1])
        if start > end:
            raise InvalidInputError(
                f"{where}: start {shown(start)} > end {shown(end)}; expected start < end (end is exclusive)"
            )
        if start == end:
            raise InvalidInputError(f"{where} is empty; expected start < end (end is exclusive)")
        checked.append((start, end))
    key = next((key for key in TYPE_KEYS if key in entity), None)
    entity_type = _checked_type(None if key is None else entity[key], " under 'type', 'label' or 'entity_group'")
    span = fragment_span(checked, entity_type)
    if "start" not in entity and "end" not in entity:
        return span
    for name, extent in (("start", span.start), ("end", span.end)):
        if name in entity and not (is_id(entity[name]) and entity[name] == extent):
            raise InvalidInputError(
                f"{name} is {shown(entity[name])} but the fragments {shown(fragments)} give {extent}; expected "
                f"{name} to be the fragments' extent, or left out"
            )
    return span


def read_spans(batch: list[list], side: str, labels: Collection[str] | None = None) -> list[list[Span]]:
    """Every sentence's entities as `Span`s, in the given order, each checked by `as_span`; with `labels`, the
    entities of other types are left out (`decoding.kept_types`)."""
    kept = kept_types(check_labels("labels", labels))
    spans = _read_each(as_list(batch, side), side, as_span)
    return spans if kept is None else [[span for span in found if kept(span.entity_type)] for found in spans]


def _read_each(batch: Iterable[Iterable[Any]], side: str, read: Callable[[Any], T]) -> list[list[T]]:
    """Each sentence's entities read by `read`, an `InvalidInputError` it raises located at the entity."""
    result = []
    for sentence, entities in enumerate(batch):
        found = []
        for index, entity in enumerate(entities):
            try:
                found.append(read(entity))
            except InvalidInputError as error:
                raise error.at(side, sentence, entity=index) from None
        result.append(found)
    return result


_STRING_FORMS = (
    "a (type, text) pair of strings, or a dict with the type under 'type' ('label' and 'entity_group' work too) "
    "and a 'text' key"
)


def _starts_with_text(entity: Any) -> bool:
    return isinstance(entity, (tuple, list)) and bool(entity) and isinstance(entity[0], str)


def as_string_entity(entity: Any) -> tuple[str, str]:
    """One entity without offsets as (type, text) (docs/scoring.md §1b); raises `InvalidInputError` saying what
    is wrong. A span (an entity with offsets) among string entities is the mix one side never holds."""
    if isinstance(entity, (tuple, list)) and len(entity) == 2:
        entity_type, text = entity
    elif isinstance(entity, Mapping) and not ({"start", "end"} & {key for key in entity if entity[key] is not None}):
        key = _type_key(entity)
        if "text" not in entity:
            raise InvalidInputError(
                f"found {shown(entity)}, which has no 'text' (and no offsets); expected {_STRING_FORMS}"
            )
        entity_type, text = entity[key], entity["text"]
    elif is_char_span(entity) or (looks_like_entity(entity) and not _starts_with_text(entity)):
        raise InvalidInputError(
            f"found the span {shown(entity)} where this side holds string entities; expected one side all strings "
            "or all spans, never a mix"
        )
    else:  # a tuple starting with a string is a string entity of the wrong length, not a span: (type, text, x)
        # (its length only then: True, 5 or None has none, and raised TypeError here)
        values = f"{len(entity)} value" + "s" * (len(entity) != 1) if _starts_with_text(entity) else ""
        what = f"a string entity of {values}" if values else type(entity).__name__
        raise InvalidInputError(f"found {shown(entity)} ({what}); expected {_STRING_FORMS}")
    if not isinstance(entity_type, str) or not isinstance(text, str):
        raise InvalidInputError(
            f"found {shown(entity)}, whose type and text are {type(entity_type).__name__} and "
            f"{type(text).__name__}; expected {_STRING_FORMS} (type first, as eval4ner)"
        )
    entity_type = _checked_type(entity_type)
    if not text:
        raise InvalidInputError(f"found {shown(entity)}, whose text is empty; expected the entity's non-empty text")
    return entity_type, plain_text(text)


def read_strings(batch: list[list], side: str) -> list[list[tuple[str, str]]]:
    """Every sentence's string entities as (type, text), in the given order, each checked by `as_string_entity`."""
    return read_string_columns(batch, side).sentences


@dataclass(frozen=True)
class StringColumns:
    """A side of string entities read: each sentence's (type, text) entities (`read_strings`), and every entity's
    type and text in order, as the batch-wide grounding reads them."""

    sentences: list[list[tuple[str, str]]]
    types: list[str]
    texts: list[str]


def read_string_columns(batch: list[list], side: str) -> StringColumns:
    """`read_strings` with the columns of types and texts it reads on the way."""
    entities = list(chain.from_iterable(batch))
    # The usual batch, pairs of two non-empty strings throughout, is checked at C speed and kept as it is (pairs
    # as tuples or lists, never modified).
    if set(map(type, entities)) <= {tuple, list} and set(map(len, entities)) <= {2}:
        firsts = list(map(operator.itemgetter(0), entities))
        seconds = list(map(operator.itemgetter(1), entities))
        if {*map(type, firsts), *map(type, seconds)} <= {str} and "" not in firsts and "" not in seconds:
            return StringColumns(batch, firsts, seconds)
    result = _read_each(batch, side, as_string_entity)
    flat = list(chain.from_iterable(result))
    return StringColumns(result, list(map(operator.itemgetter(0), flat)), list(map(operator.itemgetter(1), flat)))
