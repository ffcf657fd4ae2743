"""A batch's two sides read together (docs/scoring.md §1): both as lists of sentences (or 2-D arrays of ids) with
their form, tags and ids checked for alignment, spans for the number of sentences, and ids turned into tags; every
bad value a located `InvalidInputError`. One side's values and the forms are read by `forms.inputs`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..errors import InvalidInputError, shown
from ..grouping import lengths
from ..option_checks import is_id
from ..options import Options
from ..schemes import ONE_STRING, OUTSIDE, TagTable, tags_in_one
from ..span import LOGITS_HINT, all_tags, looks_like_scores
from .inputs import SPANS, STRINGS, TAGS, Batch, as_list, batch_form, first_located, refuse_entity_row, rows_of


def batches(predictions: Any, references: Any) -> tuple[Batch, Batch, str]:
    """Both sides as lists of sentences (or 2-D arrays of ids) and their form, TAGS, IDS or SPANS; tags and ids
    checked for alignment, spans for the number of sentences (docs/scoring.md §1)."""
    return measured_batches(predictions, references)[:3]


def measured_batches(predictions: Any, references: Any) -> tuple[Batch, Batch, str, list[int] | None]:
    """`batches`, with each sentence's number of tokens where the alignment check measured it (lists of tags or
    ids; None for arrays and entities), so that the array path does not measure the sentences again."""
    predictions = as_list(predictions, "predictions")
    references = as_list(references, "references")
    form = batch_form(predictions, references, listed=True) or TAGS
    if form == TAGS:
        refuse_float_ids(predictions, references)
        refuse_pair_rows(predictions, references)
    if form not in (SPANS, STRINGS):
        predictions, references, sentence_lengths = measured_aligned(predictions, references)
        return predictions, references, form, sentence_lengths
    predictions, references = rows_of(predictions), rows_of(references)
    check_sentence_count(predictions, references)
    return predictions, references, form, None


def refuse_float_ids(predictions: Batch, references: Batch) -> None:
    """Of a batch read as tags (`batch_form` judges tags against ids by the references' first value), references
    whose first value is a float holding a whole number by predictions whose first is an integer id: ids in a
    float array (`labels.astype(float)`, a float tensor), said of the references, where each prediction would read
    as "an integer id among string tags". (Float predictions by integer references read as ids: `ids_to_tags`.)"""
    located, predicted = first_located(references), first_located(predictions)
    if located and predicted and is_id(predicted[1]) and (hint := _whole_float_hint(located[1])):
        problem = f"found {shown(located[1])} where predictions hold integer ids; expected integer ids{hint}"
        raise InvalidInputError(problem, "references", located[0], 0)


def refuse_pair_rows(predictions: Batch, references: Batch, texts: bool = False) -> None:
    """Of a batch read as tags, a side whose first row is a (type, text) tuple that is no two tags: one sentence's
    string entities not wrapped in a list (`[("PER", "Ada")]` for `[[("PER", "Ada")]]`), which read as a
    sentence of the tags "PER" and "Ada" and failed as a tag without a prefix. Without `texts` (given beside the
    batch), tuples alone: a list of two strings is as likely a sentence of two tags without their prefixes
    (["PER", "LOC"]), said as such; with them, which string entities need and tags do not, it is the JSON pair
    (docs/scoring.md §1b: `[["PER", "Ada"]]` was refused as the tag "PER" without a prefix); but for a list that
    starts with "O", no entity's type (§7): tags, one without its prefix (["O", "PER"]), said as such."""
    for side, batch in (("predictions", predictions), ("references", references)):
        located = first_located(batch)
        kinds = (tuple, list) if texts and (located is None or located[1] != OUTSIDE) else tuple
        if located is not None and isinstance(row := batch[located[0]], kinds) and not all_tags(row[1:]):
            refuse_entity_row(row, side, located[0])


def check_sentence_count(predictions: Batch, references: Batch) -> None:
    if len(predictions) != len(references):
        raise ValueError(
            f"predictions hold {len(predictions)} sentences and references {len(references)}; "
            "expected one prediction per reference sentence"
        )


def measured_aligned(predictions: Batch, references: Batch) -> tuple[Batch, Batch, list[int] | None]:
    """Both sides with as many sentences, each as many tags or ids on both sides, and the sentences' lengths
    when they were measured one by one (lists of rows; None for arrays, whose shape gives them)."""
    if isinstance(predictions, np.ndarray) != isinstance(references, np.ndarray):
        predictions, references = rows_of(predictions), rows_of(references)
    check_sentence_count(predictions, references)
    if isinstance(predictions, np.ndarray):
        predicted_lengths, reference_lengths = lengths(predictions).tolist(), lengths(references).tolist()
        measured = None
    else:  # lists of rows: their lengths as lists at once (through arrays, twice as long)
        predicted_lengths, reference_lengths = list(map(len, predictions)), list(map(len, references))
        measured = reference_lengths
    if predicted_lengths != reference_lengths:
        sentence = next(i for i, (p, r) in enumerate(zip(predicted_lengths, reference_lengths)) if p != r)
        predicted, reference = predictions[sentence], references[sentence]
        raise InvalidInputError(
            f"predictions have {len(predicted)} tags and references {len(reference)}; expected "
            f"token-aligned sequences of equal length{_tags_in_one(predicted, reference)}",
            sentence=sentence,
        )
    return predictions, references, measured


def _tags_in_one(predicted: Any, reference: Any) -> str:
    """Of a misaligned sentence, its first tag that holds several (`schemes.tags_in_one`), said where: one side's
    sentence given as one string (`[["B-PER I-PER O"]]`) is misaligned before any tag is read."""
    for side, row in (("predictions", predicted), ("references", reference)):
        for token, tag in enumerate(row):
            if several := tags_in_one(tag):
                return f"; {side}, token {token}: {shown(tag)} holds {several} tags apart by white space ({ONE_STRING})"
    return ""


def ids_to_tags(
    predictions: Batch, references: Batch, options: Options, table: TagTable
) -> tuple[list[list[str]], list[list[str]]]:
    """Tags for ids, dropping the positions whose reference is `ignore_index`; errors name the position in
    the padded input, not in what is left after dropping."""
    labels = options.label_list
    for side, batch in (("references", references), ("predictions", predictions)):
        located = first_located(batch)
        sentence, value = located or (0, None)
        if located:  # (0, 5, "PER") for [(0, 5, "PER")]: its offsets read as ids
            refuse_entity_row(batch[sentence], side, sentence)
        if isinstance(value, str):  # label_list would not help; with it, "expected an id" hid the other side's tags
            raise InvalidInputError(
                f"found the tag {shown(value)} where the other side holds integer ids; expected both sides in one "
                "form: tags, or integer ids with label_list",
                side,
                sentence,
                0,
            )
    if labels is None:
        raise _ids_without_label_list(predictions, references)
    expected = f"an id of label_list ({_describe_ids(labels)})"
    ignore_index = options.ignore_index
    tag_predictions, tag_references = [], []
    for sentence, (predicted_ids, reference_ids) in enumerate(zip(predictions, references)):
        predicted_tags, reference_tags = [], []
        for token, (predicted, reference) in enumerate(zip(predicted_ids, reference_ids)):
            if reference == ignore_index and is_id(reference):
                continue
            for side, value in (("references", reference), ("predictions", predicted)):
                if not is_id(value):
                    hint = f" ({LOGITS_HINT})" if looks_like_scores(value) else _whole_float_hint(value)
                    raise InvalidInputError(f"found {shown(value)}; expected {expected}{hint}", side, sentence, token)
                if value not in labels:
                    problem = (
                        f"found ignore_index {shown(int(value))} where the reference has a label; predictions need a "
                        "label id at every position the references label"
                        if value == ignore_index
                        else f"found id {shown(int(value))}; expected {expected}{_padding_hint(side, value)}"
                    )
                    raise InvalidInputError(problem, side, sentence, token)
                try:
                    table[labels[value]]
                except InvalidInputError as error:
                    problem = f"id {shown(int(value))} is label_list's {labels[value]!r}: {error.problem}"
                    raise InvalidInputError(problem, side, sentence, token, error.suggested_scheme) from None
            predicted_tags.append(labels[predicted])
            reference_tags.append(labels[reference])
        tag_predictions.append(predicted_tags)
        tag_references.append(reference_tags)
    return tag_predictions, tag_references


def _whole_float_hint(value: Any) -> str:
    """Of a float holding a whole number (ids in a float array): "found 1.0; expected an id (0 to 1)" reads as a
    contradiction, so say that ids are integers and how to make them so."""
    if isinstance(value, float | np.floating) and np.isfinite(value) and float(value).is_integer():
        return f" (a {type(value).__name__}: ids are integers, as argmax gives them; cast with .astype(int))"
    return ""


def _padding_hint(side: str, value: Any) -> str:
    """Of a negative reference id that is not ignore_index: most likely another padding value than -100."""
    return (
        f"; if {int(value)} marks positions to leave out, pass ignore_index={int(value)}"
        if side == "references" and value < 0
        else ""
    )


def _ids_without_label_list(predictions: Batch, references: Batch) -> InvalidInputError:
    """The error for ids given without label_list, at the first value: a token's scores (logits as nested
    lists, which want argmax, not label_list) on either side first, else the first id."""
    firsts: list[tuple[str, int, Any]] = [
        (side, *(first_located(batch) or (0, None)))
        for side, batch in (("predictions", predictions), ("references", references))
    ]
    for side, sentence, value in firsts:
        if looks_like_scores(value):
            problem = f"found {shown(value)}; expected a tag or an id per token ({LOGITS_HINT})"
            return InvalidInputError(problem, side, sentence, 0)
    side, sentence, value = next((first for first in firsts if first[2] is not None), firsts[0])
    found = f"the integer id {shown(int(value))} where a tag belongs" if is_id(value) else shown(value)
    return InvalidInputError(
        f"found {found}; expected tags, or integer ids with label_list: "
        "pass label_list (a list of tags, or a dict id -> tag such as model.config.id2label; for a datasets "
        "column of ClassLabel ids, dataset.features[column].feature.names) to turn them into tags",
        side,
        sentence,
        0,
    )


def _describe_ids(ids: Iterable[int]) -> str:
    ordered = sorted(ids)
    if ordered and ordered[-1] - ordered[0] == len(ordered) - 1:
        return f"{shown(int(ordered[0]))} to {shown(int(ordered[-1]))}"
    listed = ", ".join(shown(int(label_id)) for label_id in ordered[:20])
    return (listed + f", ... ({len(ordered)} ids)" if len(ordered) > 20 else listed) or "none"
