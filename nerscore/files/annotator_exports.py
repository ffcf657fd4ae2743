"""The annotation tools' exports of several annotators, read into one batch per annotator for
`nerscore.agreement` (docs/agreement.md): a Label Studio JSON export with several annotations per task (one per
annotator, told apart by ``completed_by``), and doccano's JSONL export (one file per annotator, ``"label":
[[start, end, type], ...]`` or ``"entities"``). A malformed line, or annotators whose texts differ, is a
`ConllError` naming the file and the line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..agreement import blank_name
from ..errors import shown
from ..option_checks import is_id
from .annotations import cancelled, export_task, json_list_items, regions
from .annotator_readers import (
    AnnotatorBatches,
    by_annotator,
    check_annotators,
    check_paths,
    first_apart,
    unique_name,
)
from .readers import ConllError, checked_path, json_file_records

# -- Label Studio ----------------------------------------------------------------------------------------------------

_EXPORT = "Label Studio's JSON export: a list of tasks, each with 'data' and 'annotations' by several annotators"


def _annotator_of(annotation: dict[str, Any]) -> str | None:
    """Who completed an annotation: Label Studio writes `completed_by` as a user id, or as a dict with the
    user's email (and id)."""
    who = annotation.get("completed_by")
    if isinstance(who, dict):
        who = who.get("email") or who.get("id")
    if isinstance(who, str) and not blank_name(who):
        return who
    return str(who) if is_id(who) else None


def read_label_studio_annotators(
    path: str | os.PathLike[str], *, max_annotators: int | None = None
) -> AnnotatorBatches:
    """A Label Studio JSON export whose tasks hold several annotations, one per annotator (`completed_by`; an
    annotator is named by the user's email, or id, in the order they first appear). Cancelled annotations are
    left out; a task an annotator did not annotate is None for it. Two annotations of one annotator in one task
    are ambiguous: a `ConllError` naming the task. `max_annotators`: more is a `ConllError` at the task naming one
    more, before the batches (annotators x tasks, most of them None: 4,000 tasks of an annotator each, 134 MB)."""
    source = checked_path(path, "a Label Studio JSON export")
    tasks = json_list_items(source, _EXPORT, name_tasks=False)
    per_task: list[dict[str, Any]] = []
    texts, documents = [], []
    seen: dict[str, None] = {}  # the annotators so far
    for index, (line, task) in enumerate(tasks):
        where, text, annotations = export_task(task, index, source, line, _EXPORT)
        if text is None:
            raise ConllError(source, line, f"{where} has no data.text; expected the text the annotators labelled")
        if not isinstance(annotations, list):
            raise ConllError(source, line, f"{where}: annotations is not a list; expected {_EXPORT}")
        found: dict[str, list[tuple[int, int, str]]] = {}
        for number, annotation in enumerate(annotations):
            if not isinstance(annotation, dict) or cancelled(annotation):
                continue
            who = _annotator_of(annotation)
            if who is None:
                given = annotation.get("completed_by")
                named = "no completed_by" if given is None else f"completed_by {shown(given)}"
                raise ConllError(
                    source, line, f"{where}, annotations[{number}] has {named}; expected the annotator's id"
                )
            check_annotators(seen, who, max_annotators, source, line)
            if who in found:
                raise ConllError(
                    source,
                    line,
                    f"{where} has two annotations by {who!r}; expected one annotation per annotator and task",
                )
            spans = regions(annotation, f"{where}, annotations[{number}]", text, source, line)
            found[who] = [(span.start, span.end, span.entity_type) for span in spans]
        per_task.append(found)
        texts.append(text)
        documents.append(f"{source}:{line}")
    return AnnotatorBatches(by_annotator(per_task), texts, None, documents)


# -- doccano ----------------------------------------------------------------------------------------------------------

_DOCCANO = (
    'doccano\'s JSONL export: one JSON object a line with "text" and "label": [[start, end, type], ...] (or '
    '"entities": [{"start_offset", "end_offset", "label"}, ...])'
)


def _spans_listed(listed: Any) -> bool:
    """Whether `listed` is a list of entities as doccano's "label" lists them, each a list of three items."""
    return isinstance(listed, list) and all(isinstance(entity, list) and len(entity) == 3 for entity in listed)


def _doccano_entities(record: dict[str, Any], source: str, line: int) -> list[tuple[int, int, str]]:
    text = record.get("text")
    if not isinstance(text, str):
        raise ConllError(source, line, f'found no "text"; expected {_DOCCANO}')
    entities: list[tuple[Any, Any, Any]] = []
    # Entities under two keys: one key's were read and the other's dropped unread (a "label" of [start, end, type]
    # lists beside "entities"; a "label" of category names, text classification's, is no entity).
    keys = [key for key in ("entities", "label", "labels") if key in record]
    keys = [key for key in keys if key == "entities" or _spans_listed(record[key])]
    if any(record[key] for key in keys[1:]):  # (the first is read)
        found = " and ".join(f'"{key}"' for key in keys)
        raise ConllError(source, line, f"found entities under both {found}; expected them under one ({_DOCCANO})")
    if "entities" in record:
        listed = record["entities"]
        if not isinstance(listed, list) or not all(isinstance(entity, dict) for entity in listed):
            raise ConllError(source, line, f'"entities" is {shown(listed)}; expected {_DOCCANO}')
        entities = [(entity.get("start_offset"), entity.get("end_offset"), entity.get("label")) for entity in listed]
    else:
        if "label" not in record and "labels" not in record:  # (a line of --spans' was read as no entity)
            raise ConllError(source, line, f'found no "label" and no "entities"; expected {_DOCCANO}')
        listed = record.get("label", record.get("labels", []))
        if not _spans_listed(listed):
            raise ConllError(source, line, f'"label" is {shown(listed)}; expected {_DOCCANO}')
        entities = [(entity[0], entity[1], entity[2]) for entity in listed]
    spans = []
    for number, (start, end, label) in enumerate(entities):
        if not (is_id(start) and is_id(end) and 0 <= start < end <= len(text)):
            raise ConllError(
                source,
                line,
                f"entity {number} has offsets {shown(start)} to {shown(end)}; expected 0 <= start < end <= "
                f"{len(text)} (the text's length)",
            )
        if not isinstance(label, str) or not label:
            raise ConllError(source, line, f"entity {number} has the label {shown(label)}; expected a type")
        spans.append((int(start), int(end), label))
    return spans


def read_doccano_annotators(paths: Sequence[str | os.PathLike[str]]) -> AnnotatorBatches:
    """doccano JSONL exports, one file per annotator (named by the file), their lines paired in order: the same
    texts in the same order, else a `ConllError` naming the file and line where they differ."""
    paths = check_paths(paths, "one file per annotator")
    annotations: dict[str, list[Any]] = {}
    texts: list[str] = []
    first, first_lines = "", []  # the first file (named where it holds a line), and its texts' lines
    places = []  # each file's lines
    for index, path in enumerate(paths):
        source = os.fspath(path)
        entities, own_texts, lines = [], [], []
        for line, _, record in json_file_records(source, f"expected {_DOCCANO}"):
            if not isinstance(record, dict):
                raise ConllError(source, line, f"found a JSON {type(record).__name__}; expected {_DOCCANO}")
            entities.append(_doccano_entities(record, source, line))
            own_texts.append(record["text"])
            lines.append(line)
        if index == 0:
            texts, first, first_lines = own_texts, source if lines else "the first file", lines
        elif (apart := first_apart(source, own_texts, first, texts, "texts")) is not None:
            text, expected = own_texts[apart], texts[apart]
            raise ConllError(
                source,
                lines[apart],
                f"text {shown(text[:40])} differs from {first}:{first_lines[apart]}'s {shown(expected[:40])}; "
                "expected every annotator's file to hold the same texts in the same order",
            )
        if not lines:  # (two empty files scored zeros: agreement on nothing, where a file was not the export)
            raise ConllError(source, None, f"holds no line; expected {_DOCCANO}")
        annotations[unique_name(annotations, os.path.basename(source))] = entities
        places.append([f"{source}:{line}" for line in lines])
    return AnnotatorBatches(annotations, texts, None, [f"{first}:{line}" for line in first_lines], tuple(places))
