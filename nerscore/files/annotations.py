"""Readers of annotation tools' files, in character offsets as the tools write them: BRAT standoff (`read_brat`,
a folder of ``.ann`` files beside their ``.txt``, or one ``.ann`` file; `read_brat_pairs` pairs two folders) and
Label Studio's JSON export (`read_label_studio`). Each entity is a `Span`; a malformed line is a `ConllError`
naming the file and the line, or the file alone for a problem of a whole file (docs/spans.md).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from ..errors import shown
from ..option_checks import is_id
from ..span import Span, fragment_span
from .readers import (
    ConllError,
    checked_path,
    decoded,
    first_difference,
    json_error,
    line_and_column,
    lone_surrogate,
)

# -- BRAT standoff ---------------------------------------------------------------------------------------------------

# brat writes the text of a discontinuous annotation as its fragments' texts joined by one space (its
# annotation.py, DISCONT_SEP).
_FRAGMENT_SEPARATOR = " "
_OFFSET = re.compile(r"[0-9]+")
_T_LINE = "ID TAB TYPE START END TAB TEXT (fragments START END;START END)"


class BratDocument(NamedTuple):
    """One BRAT document: its `name` (the ``.ann`` file's path relative to the folder read, ``/``-separated,
    without ``.ann``), its `text` (the ``.txt`` beside it), its `spans` (one per ``T`` line, in the file's order;
    a discontinuous annotation by its full extent, from its first fragment's start to its last one's end, or with
    ``fragments=True`` by its fragments, docs/scoring.md §12), the ``.ann`` line of each span, and how many of the
    spans were discontinuous."""

    name: str
    text: str
    spans: list[Span]
    lines: list[int]
    discontinuous: int


def brat_names(folder: str | os.PathLike[str]) -> list[str]:
    """The names of the ``.ann`` files under `folder`, subfolders included (symbolic links to folders are not
    followed), as `BratDocument.name` writes them, sorted. A folder holding none is a `ConllError` naming it."""
    root = os.fspath(folder)
    if not os.path.isdir(root):
        raise ConllError(str(folder), None, "not a folder; expected a folder of .ann files beside their .txt files")
    names, others = [], set()
    # os.walk's order of visits, by a stack of its own: Python 3.11's os.walk recurses once a folder, and 1,000
    # nested folders raised RecursionError. As os.walk, a folder that cannot be listed is skipped.
    folders = [root]
    while folders:
        directory = folders.pop()
        try:
            with os.scandir(directory) as scanned:
                entries = list(scanned)
        except OSError:
            continue
        relative = os.path.relpath(directory, root).replace(os.sep, "/")
        prefix = "" if relative == "." else relative + "/"
        for entry in entries:
            if _is_folder(entry):
                if not entry.is_symlink():
                    folders.append(entry.path)
            elif entry.name.endswith(".ann"):
                names.append(prefix + entry.name[: -len(".ann")])
            else:
                others.add(os.path.splitext(entry.name)[1][:20] or "unsuffixed")
    if not names:  # (an empty folder, BioNLP's .a1/.a2 files: "processed 0 documents", zeros, status 0 before)
        found = f"found {', '.join(sorted(others)[:6])} files" if others else "found no file"
        bionlp = "; BioNLP's .a1 files are BRAT standoff: name them .ann" if ".a1" in others else ""
        problem = f"holds no .ann file, subfolders included ({found}); expected .ann files beside their .txt"
        raise ConllError(root, None, problem + bionlp)
    return sorted(names)


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Whether a folder's entry is a folder, or a link to one (as os.walk tells them from files)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def read_brat(path: str | os.PathLike[str], fragments: bool = False) -> Iterator[BratDocument]:
    """The documents of a BRAT folder (every ``.ann`` file under it, in the order of their names) or of one
    ``.ann`` file, each read with the ``.txt`` beside it, lazily. Only text-bound annotations (``T`` lines) are
    entities, nested or overlapping ones included; other lines (relations, events, attributes, notes) are
    ignored. Offsets count characters (Unicode code points) of the ``.txt`` as it is on disk. A malformed ``T``
    line, or one whose text is not the ``.txt``'s text at its offsets, is a `ConllError` naming the file and
    the line. A discontinuous annotation (``T3<TAB>ADR 10 16;23 30<TAB>...``) is its full extent, or with
    `fragments` its fragments, sorted and merged (docs/scoring.md §12), scored on their units."""
    path = checked_path(path, "a BRAT folder or .ann file")
    if path.endswith(".ann") and not os.path.isdir(path):
        yield read_brat_file(path, os.path.basename(path).removesuffix(".ann"), fragments=fragments)
        return
    if os.path.isfile(path):
        raise ConllError(path, None, "is neither a folder nor an .ann file; expected a BRAT folder or .ann file")
    for name in brat_names(path):
        yield read_brat_file(os.path.join(path, f"{name}.ann"), name, fragments=fragments)


def same_brat_names(folders: Sequence[str | os.PathLike[str]], expected: str) -> list[str]:
    """The names (`brat_names`) of the ``.ann`` files every one of `folders` holds: a file that a folder holds and
    the first lacks, or the reverse, is a `ConllError` naming it, ending in `expected` (before any is read)."""
    listed = [brat_names(folder) for folder in folders]
    for folder, names in zip(folders[1:], listed[1:]):
        for found, others, place, other in (
            (listed[0], names, folders[0], folder),
            (names, listed[0], folder, folders[0]),
        ):
            alone = sorted(set(found) - set(others))
            if alone:
                more = f" (and {len(alone) - 1} more)" if len(alone) > 1 else ""
                raise ConllError(
                    os.path.join(place, f"{alone[0]}.ann"),
                    None,
                    f"has no counterpart {os.path.join(other, alone[0] + '.ann')}{more}; {expected}",
                )
    return listed[0] if listed else []


def read_brat_pairs(
    references: str | os.PathLike[str], predictions: str | os.PathLike[str], fragments: bool = False
) -> Iterator[tuple[BratDocument, BratDocument]]:
    """The documents of two BRAT folders, paired by their path relative to each folder (subfolders included),
    lazily. A file on one side only is a `ConllError` naming it (before any document is read). The predictions'
    ``.txt`` files may be left out: their ``.ann`` files are then read against the references' ``.txt``; where
    present, a ``.txt`` must be the references' own. `fragments`: as `read_brat`'s."""
    expected = "the two folders must hold the same .ann files, paired by their path in each folder"
    # (None or a number raised TypeError out of os.path.join)
    references, predictions = (checked_path(folder, "a BRAT folder") for folder in (references, predictions))
    for name in same_brat_names([references, predictions], expected):
        reference = read_brat_file(os.path.join(references, f"{name}.ann"), name, fragments=fragments)
        yield reference, read_brat_beside(predictions, reference, references, fragments)


def read_brat_beside(
    folder: str | os.PathLike[str], first: BratDocument, first_folder: str | os.PathLike[str], fragments: bool
) -> BratDocument:
    """The ``.ann`` file of `folder` named as `first` (the document of `first_folder`), read against `first`'s
    text: the ``.txt`` beside it may be left out, and where present must be that text (a `ConllError` naming the
    line where it differs)."""
    text_path = os.path.join(folder, f"{first.name}.txt")
    first_text_path = os.path.join(first_folder, f"{first.name}.txt")
    if not os.path.exists(text_path):
        text_path = first_text_path
    elif (text := _read_text(text_path)) != first.text:
        index = first_difference(text, first.text)
        raise ConllError(
            text_path,
            line_and_column(text, index)[0],
            f"differs from {first_text_path} at character {index} ({shown(text[index : index + 20])} against "
            f"{shown(first.text[index : index + 20])}); expected the same text on both sides",
        )
    return read_brat_file(os.path.join(folder, f"{first.name}.ann"), first.name, first.text, text_path, fragments)


def read_brat_file(
    ann_path: str | os.PathLike[str],
    name: str,
    text: str | None = None,
    text_path: str | os.PathLike[str] | None = None,
    fragments: bool = False,
) -> BratDocument:
    """One ``.ann`` file read against `text` (read from `text_path` when not given; by default the ``.txt``
    file beside it), as `read_brat` reads it; `name` is the document's name; `fragments`: as `read_brat`'s."""
    source = os.fspath(ann_path)
    text_path = os.path.splitext(source)[0] + ".txt" if text_path is None else os.fspath(text_path)
    if text is None:
        if not os.path.isfile(text_path):
            raise ConllError(
                source, None, f"has no {os.path.basename(text_path)} beside it; expected the document's text there"
            )
        text = _read_text(text_path)
    spans: list[Span] = []
    lines: list[int] = []
    discontinuous = 0
    first_lines: dict[str, int] = {}  # each T id's line: one given twice is refused (BRAT's ids are a file's keys)
    for number, line in enumerate(_read_lines(source), start=1):
        if not line.startswith("T"):  # relations, events, attributes, normalizations, notes: not entities
            continue
        span, pieces = _text_bound(line, text, source, number, text_path)
        identifier = line.partition("\t")[0]
        if first_lines.setdefault(identifier, number) != number:
            problem = f"{identifier} is the id of line {first_lines[identifier]} too; expected each T id once in a file"
            raise ConllError(source, number, problem)
        entity = fragment_span(pieces, span.entity_type)
        spans.append(entity if fragments else span)
        lines.append(number)
        discontinuous += bool(entity.fragments)  # "0 2;2 4" touch: one span (docs/scoring.md §12), not discontinuous
    return BratDocument(name, text, spans, lines, discontinuous)


def _text_bound(line: str, text: str, source: str, number: int, text_name: str) -> tuple[Span, list[tuple[int, int]]]:
    """The `Span` of a ``T`` line (its full extent) and its fragments as the line gives them."""
    identifier, tab, rest = line.partition("\t")
    data, tab_2, annotated = rest.partition("\t")
    if not tab or not tab_2:
        raise ConllError(source, number, f"found {shown(line)}, a T line without two tabs; expected {_T_LINE}")
    entity_type, _, offsets = data.partition(" ")
    if not entity_type:
        raise ConllError(source, number, f"{identifier} has no type; expected {_T_LINE}")
    fragments = []
    for fragment in offsets.split(";"):
        numbers = fragment.split()
        if len(numbers) != 2 or not all(_OFFSET.fullmatch(value) for value in numbers):
            raise ConllError(
                source,
                number,
                f"{identifier}'s offsets are {shown(offsets)}; expected START END (or START END;START END)",
            )
        longest = max(len(value.lstrip("0")) for value in numbers)
        if longest > 18:  # past any text's end; int() would refuse one of more than 4,300 digits, naming nothing
            raise ConllError(
                source,
                number,
                f"{identifier}: an offset of {longest:,} digits is past the end of {text_name} "
                f"({len(text)} characters)",
            )
        start, end = (int(value.lstrip("0") or "0") for value in numbers)  # (leading zeros count as digits)
        if start >= end:
            raise ConllError(source, number, f"{identifier}: start {start} >= end {end}; expected start < end")
        if end > len(text):
            raise ConllError(
                source, number, f"{identifier}: end {end} is past the end of {text_name} ({len(text)} characters)"
            )
        fragments.append((start, end))
    if not _is_fragments_text(annotated, text, fragments):
        # At most what `shown` shows: the fragments of one line may cover the text many times over.
        found = _FRAGMENT_SEPARATOR.join(text[start : min(end, start + 100)] for start, end in fragments[:100])
        hint = ""
        if "\r" in annotated:  # (an old Mac's line ends: the whole file one line, read as this one's text)
            hint = f" ({source} has \\r line ends, where brat ends each line with \\n: its lines run together)"
        elif "\r" in text[: fragments[-1][1]]:
            hint = f" ({text_name} has \\r\\n line ends: a tool that counted each as one character is offset by them)"
        raise ConllError(
            source,
            number,
            f"{identifier}'s text is {shown(annotated)} but {text_name} holds {shown(found)} at {offsets.strip()}; "
            f"expected the text of the .txt at the annotation's offsets{hint}",
        )
    start, end = min(start for start, _ in fragments), max(end for _, end in fragments)
    return Span(start, end, entity_type), fragments


def _is_fragments_text(annotated: str, text: str, fragments: list[tuple[int, int]]) -> bool:
    """Whether `annotated` is the fragments' texts joined by brat's separator, compared in time and memory that
    follow the length of `annotated` (the line), not the fragments' (which may each span the whole text)."""
    length = sum(end - start for start, end in fragments) + len(_FRAGMENT_SEPARATOR) * (len(fragments) - 1)
    if length != len(annotated):
        return False
    position = 0
    for index, (start, end) in enumerate(fragments):
        if index:
            if not annotated.startswith(_FRAGMENT_SEPARATOR, position):
                return False
            position += len(_FRAGMENT_SEPARATOR)
        if not annotated.startswith(text[start:end], position):
            return False
        position += end - start
    return True


def _read_text(path: str) -> str:
    """A file as brat reads a ``.txt``: UTF-8, every character kept (line ends and a byte-order mark too), so
    that offsets count what is in the file."""
    with open(path, "rb") as handle:
        return decoded(handle.read(), path)


def _read_lines(path: str) -> list[str]:
    """The lines of an ``.ann`` file without their line ends (a leading byte-order mark dropped); lines end at
    ``\\n`` alone, as brat writes them, so a text field is never cut at another line separator."""
    return [line.removesuffix("\r") for line in _read_text(path).removeprefix("\ufeff").split("\n")]


# -- Label Studio's JSON export --------------------------------------------------------------------------------------


class LabelStudioTask(NamedTuple):
    """One task of a Label Studio JSON export: the export's line where it starts, its `id`, its text
    (``data.text``, None when absent), and its entities: `references` from its annotation and `predictions`
    from its prediction, each None when the task has none (see `read_label_studio`)."""

    line: int
    id: Any
    text: str | None
    references: list[Span] | None
    predictions: list[Span] | None


# JSON's white space, which json.loads skips between values (Unicode spaces such as U+00A0 are not JSON's).
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_EXPORT = "Label Studio's JSON export: a list of tasks, each with 'data' and 'annotations' (and 'predictions')"


def json_list_items(
    source: str, expected: str, name_tasks: bool = True, content: str | None = None
) -> Iterator[tuple[int, Any]]:
    """The items of the JSON list in the file `source`, one at a time, each with the line where it starts: Label
    Studio's exports (`read_label_studio`, and `annotator_exports` for several annotators). A malformed file is
    a `ConllError` naming its line and `expected`; with `name_tasks`, the messages also name the item (``task 3``)
    and what was found where the list or a separator should be. In time linear in the file: white space is
    skipped and lines are counted from where the last count stopped (slicing the rest of the file, or counting
    from its start, at every item made a 1 MB export of 3,500 tasks take 3 s). `content`: the file's text, read
    already (standard input's, `--label-studio -`)."""
    import json  # here, not at the top: what only JSON needs stays out of `import nerscore`

    content = (_read_text(source) if content is None else content).removeprefix("\ufeff")
    decoder = json.JSONDecoder()
    counted = [0, 1]  # the position up to which lines are counted, and the line there

    def after_space(position: int) -> int:
        return _WHITESPACE.match(content, position).end()  # type: ignore[union-attr]  # matches the empty string

    def line_at(position: int) -> int:
        counted[1] += content.count("\n", counted[0], position)
        counted[0] = position
        return counted[1]

    position = after_space(0)
    if content[position : position + 1] != "[":
        if not name_tasks:
            raise ConllError(source, line_at(position), f"found no JSON list; expected {expected}")
        found = "nothing" if position == len(content) else shown(content[position : position + 20])
        if content[position : position + 1] == "{":
            found = "a JSON object (one task?) where an export holds a list of tasks"
        raise ConllError(source, line_at(position), f"found {found}; expected {expected}")
    position = after_space(position + 1)
    index = 0
    while content[position : position + 1] != "]":
        line, start = line_at(position), position
        task = f"task {index}: " if name_tasks else ""
        try:
            item, position = decoder.raw_decode(content, position)
        except json.JSONDecodeError as error:  # at its own line: an item may span many
            raise json_error(error, source, error.lineno) from None
        except (ValueError, RecursionError) as error:
            raise json_error(error, source, line, f"expected {expected}", task) from None
        if (surrogate := lone_surrogate(content[start:position], item)) is not None:  # (a label printed later)
            raise ConllError(source, line, task + surrogate)
        yield line, item
        index += 1
        position = after_space(position)
        separator = content[position : position + 1]
        if separator == ",":
            position = after_space(position + 1)
        elif separator != "]":
            found = "the end of the file" if not separator else shown(separator)
            problem = f"found {found} after task {index - 1}; expected" if name_tasks else "expected"
            raise ConllError(source, line_at(position), f"{problem} ',' or ']' ({expected})")
    # What follows the list's end would be dropped unread (two exports pasted into one file lost the second).
    rest = after_space(position + 1)
    if rest < len(content):
        raise ConllError(
            source, line_at(rest), f"found {shown(content[rest : rest + 20])} after the list's end; expected {expected}"
        )


def read_label_studio(path: str | os.PathLike[str]) -> Iterator[LabelStudioTask]:
    """The tasks of a Label Studio JSON export (a list of tasks), each with its annotation's entities as
    `references` and its prediction's as `predictions`: the regions whose ``value`` holds ``start``, ``end``
    (exclusive, in characters) and ``labels`` (``type: "labels"``), one `Span` per label; other regions
    (choices, relations, text areas) are ignored.

    Which annotation: the task's annotations that are not cancelled (``was_cancelled``); of several, the one
    marked ``ground_truth``. Several without one ground truth, or several predictions, are ambiguous and a
    `ConllError` naming the task. A region whose ``value.text`` is not ``data.text`` at its offsets is one too
    (older Label Studio versions counted UTF-16 code units). Errors name the line where the task starts."""
    yield from label_studio_tasks(checked_path(path, "a Label Studio JSON export"))


def label_studio_tasks(source: str, content: str | None = None) -> Iterator[LabelStudioTask]:
    """`read_label_studio`'s tasks of the file `source`, or of its `content` read already (standard input's)."""
    for index, (line, task) in enumerate(json_list_items(source, _EXPORT, content=content)):
        yield _task(task, index, source, line)


def export_task(task: Any, index: int, source: str, line: int, expected: str) -> tuple[str, str | None, Any]:
    """A task of a Label Studio export: where it is (``task 3 (id 7)``), its ``data.text`` (None when it is not a
    string) and its annotations (``completions`` in older exports); a task that is no JSON object is a
    `ConllError` ending in `expected`."""
    if not isinstance(task, dict):
        raise ConllError(source, line, f"task {index} is a JSON {type(task).__name__}; expected {expected}")
    where = f"task {index}" + (f" (id {shown(task['id'])})" if "id" in task else "")
    data = task.get("data")
    text = data.get("text") if isinstance(data, dict) else None
    if "annotations" in task and task.get("completions"):  # older exports' name: one would be dropped unread
        raise ConllError(source, line, f"{where} holds both annotations and completions; expected one, {expected}")
    return where, text if isinstance(text, str) else None, task.get("annotations", task.get("completions", []))


def _task(task: Any, index: int, source: str, line: int) -> LabelStudioTask:
    where, text, annotations = export_task(task, index, source, line, _EXPORT)
    predictions = task.get("predictions", [])
    for key, value in (("annotations", annotations), ("predictions", predictions)):
        if not isinstance(value, list):
            raise ConllError(source, line, f"{where}: {key} is not a list; expected {_EXPORT}")
    kept = [(number, annotation) for number, annotation in enumerate(annotations) if not cancelled(annotation)]
    if len(kept) > 1:
        truths = [item for item in kept if isinstance(item[1], dict) and item[1].get("ground_truth") is True]
        if len(truths) != 1:
            ids = [annotation.get("id") if isinstance(annotation, dict) else None for _, annotation in kept]
            raise ConllError(
                source,
                line,
                f"{where} has {len(kept)} annotations (ids {ids}) and {len(truths) or 'none'} marked ground_truth; "
                "expected one annotation per task, or one marked ground_truth: mark it, or export one annotator's",
            )
        kept = truths
    if len(predictions) > 1:
        versions = [
            prediction.get("model_version") if isinstance(prediction, dict) else None for prediction in predictions
        ]
        raise ConllError(
            source,
            line,
            f"{where} has {len(predictions)} predictions (model versions {versions}); expected one prediction per "
            "task: export one model version's",
        )
    references = None
    if kept:
        number, annotation = kept[0]
        references = regions(annotation, f"{where}, annotations[{number}]", text, source, line)
    predicted = regions(predictions[0], f"{where}, predictions[0]", text, source, line) if predictions else None
    return LabelStudioTask(line, task.get("id"), text, references, predicted)


def cancelled(annotation: Any) -> bool:
    """Whether an annotation of a task was cancelled (``was_cancelled``): Label Studio keeps it in the export, and
    it is no annotation to score."""
    return isinstance(annotation, dict) and annotation.get("was_cancelled") is True


def regions(item: Any, where: str, text: str | None, source: str, line: int) -> list[Span]:
    """The entities of one annotation or prediction: each labelled text region, one `Span` per label."""
    result = item.get("result", []) if isinstance(item, dict) else None
    if not isinstance(result, list):
        raise ConllError(source, line, f"{where} has no 'result' list; expected {_EXPORT}")
    spans = []
    for number, region in enumerate(result):
        value = region.get("value") if isinstance(region, dict) else None
        if not isinstance(value, dict) or "labels" not in value:
            continue  # choices, relations, text areas: not entities
        at = f"{where}.result[{number}]"
        offsets = []
        for name in ("start", "end"):
            offset: Any = value.get(name)
            if not is_id(offset) or offset < 0:
                raise ConllError(
                    source,
                    line,
                    f"{at}: value.{name} is {shown(offset)}; expected a character offset (an integer >= 0)",
                )
            offsets.append(int(offset))
        (start, end), labels = offsets, value["labels"]
        if start >= end:
            raise ConllError(
                source, line, f"{at}: start {shown(start)} >= end {shown(end)}; expected start < end (end exclusive)"
            )
        if not isinstance(labels, list) or not labels or not all(isinstance(label, str) and label for label in labels):
            raise ConllError(source, line, f"{at}: value.labels is {shown(labels)}; expected a list of labels")
        if text is not None:
            _check_region_text(value, start, end, text, at, source, line)
        spans += [Span(start, end, label) for label in labels]
    return spans


def _check_region_text(
    value: Mapping[str, Any], start: int, end: int, text: str, at: str, source: str, line: int
) -> None:
    if end > len(text):
        raise ConllError(source, line, f"{at}: end {shown(end)} is past the end of data.text ({len(text)} characters)")
    given = value.get("text")
    # The lengths first: a slice as long as the text given costs what reading that text cost.
    if "text" in value and (not isinstance(given, str) or len(given) != end - start or given != text[start:end]):
        hint = ""
        if any(ord(character) > 0xFFFF for character in text[:end]):
            hint = (
                " (the text holds characters beyond U+FFFF, such as emoji: older Label Studio versions counted "
                "each as two)"
            )
        raise ConllError(
            source,
            line,
            f"{at}: value.text is {shown(given)} but data.text holds {shown(text[start : min(end, start + 100)])} at "
            f"{start}-{end}; expected the text at the region's offsets{hint}",
        )
