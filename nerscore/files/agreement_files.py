"""The files annotators write, read for `nerscore.agreement` (docs/agreement.md), and ``ner-semeval agreement``.

Four layouts, each read into one batch per annotator beside the texts (or tokens) they share: a CoNLL file with
one tag column per annotator (or one CoNLL file per annotator), BRAT folders (one per annotator, the same
``.txt`` files), a Label Studio JSON export with several annotations per task (one per annotator, told apart by
``completed_by``), and doccano's JSONL export (one file per annotator, ``"label": [[start, end, type], ...]`` or
``"entities"``). A malformed line, or annotators whose documents or texts differ, is a `ConllError` naming the
file (and the line).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from ..agreement import agreement
from ..errors import InvalidInputError, shown
from ..option_checks import is_id
from ..options import SPECS
from .annotations import _decoded, _raise_different_texts, _read_bytes, _regions, brat_names, read_brat_file
from .readers import ConllError, json_line_records, text_lines

if TYPE_CHECKING:
    import argparse

# Options the agreement command takes: every flag of the option table but the slices' (agreement refuses them).
_REFUSED_FLAGS = ("slices", "slice_edges", "seen")
FORMATS = ("conll", "brat", "label-studio", "doccano", "jsonl")


class AnnotatorBatches(NamedTuple):
    """What `agreement` takes, read from files: each annotator's batch (None for a document it did not
    annotate), and the `texts` (spans) or `tokens` (tags) the annotators share; `documents` names each
    sentence or document where it came from, for messages."""

    annotations: dict[str, list[Any]]
    texts: list[str] | None
    tokens: list[list[str]] | None
    documents: list[str]


# -- CoNLL ----------------------------------------------------------------------------------------------------------


def _conll_sentences(lines: Iterable[str], source: str) -> Iterator[tuple[list[list[str]], list[int]]]:
    """Each sentence's rows of columns and line numbers; a blank line ends a sentence, ``-DOCSTART-`` is skipped."""
    rows: list[list[str]] = []
    numbers: list[int] = []
    for number, line in enumerate(lines, start=1):
        columns = line.split()
        if not columns or columns[0] == "-DOCSTART-":
            if rows:
                yield rows, numbers
                rows, numbers = [], []
            continue
        rows.append(columns)
        numbers.append(number)
    if rows:
        yield rows, numbers


def read_conll_annotators(
    paths: Sequence[str | os.PathLike[str]], names: Sequence[str] | None = None
) -> AnnotatorBatches:
    """One CoNLL file with the token first and one tag column per annotator (two or more; annotators named
    ``annotator1``, ... unless `names` are given), or several CoNLL files, one per annotator (the token first and
    the annotator's tag last, annotators named by their files), whose tokens must be the same line by line."""
    _check_paths(paths, "[path] for one file of several columns")
    if len(paths) == 1:
        source = os.fspath(paths[0])
        with open(source, "rb") as handle:
            sentences = list(_conll_sentences(text_lines(handle, source), source))
        width = len(sentences[0][0][0]) if sentences else 0
        if width < 3:
            raise ConllError(
                source,
                sentences[0][1][0] if sentences else None,
                f"found {width} columns; expected the token, then one tag column per annotator (two or more), or "
                "one file per annotator",
            )
        tags: list[list[list[str]]] = [[] for _ in range(width - 1)]
        tokens = []
        for rows, numbers in sentences:
            for row, number in zip(rows, numbers):
                if len(row) != width:
                    raise ConllError(
                        source, number, f"found {len(row)} columns; expected {width}, as the first line has"
                    )
            tokens.append([row[0] for row in rows])
            for column in range(1, width):
                tags[column - 1].append([row[column] for row in rows])
        names = list(names) if names else [f"annotator{column}" for column in range(1, width)]
        if len(names) != width - 1:
            raise ValueError(f"found {len(names)} names for {width - 1} annotators' columns in {source}")
        documents = [f"{source}:{numbers[0]}" for _, numbers in sentences]
        return AnnotatorBatches(dict(zip(names, tags)), None, tokens, documents)
    annotations: dict[str, list[Any]] = {}
    first_source, first_tokens, first_lines = "", [], []
    for index, path in enumerate(paths):
        source = os.fspath(path)
        with open(source, "rb") as handle:
            sentences = list(_conll_sentences(text_lines(handle, source), source))
        for rows, numbers in sentences:
            for row, number in zip(rows, numbers):
                if len(row) < 2:
                    raise ConllError(source, number, "found 1 column; expected the token first and the tag last")
        tokens = [[row[0] for row in rows] for rows, _ in sentences]
        lines = [numbers for _, numbers in sentences]
        if index == 0:
            first_source, first_tokens, first_lines = source, tokens, lines
        else:
            _check_same_tokens(source, tokens, lines, first_source, first_tokens, first_lines)
        annotations[_unique_name(annotations, os.path.basename(source))] = [
            [row[-1] for row in rows] for rows, _ in sentences
        ]
    documents = [f"{first_source}:{numbers[0]}" for numbers in first_lines]
    return AnnotatorBatches(annotations, None, first_tokens, documents)


def _check_same_tokens(
    source: str,
    tokens: list[list[str]],
    lines: list[list[int]],
    first_source: str,
    first_tokens: list[list[str]],
    first_lines: list[list[int]],
) -> None:
    for sentence, (found, expected) in enumerate(zip(tokens, first_tokens)):
        if found != expected:
            token = next((i for i, (a, b) in enumerate(zip(found, expected)) if a != b), min(len(found), len(expected)))
            line = lines[sentence][min(token, len(found) - 1)]
            at = f"{first_source}:{first_lines[sentence][min(token, len(expected) - 1)]}"
            raise ConllError(
                source,
                line,
                f"sentence {sentence} differs from {at} ({shown(found[token : token + 3])} against "
                f"{shown(expected[token : token + 3])}); expected every annotator's file to hold the same tokens",
            )
    if len(tokens) != len(first_tokens):
        raise ConllError(
            source,
            None,
            f"holds {len(tokens)} sentences and {first_source} {len(first_tokens)}; expected every annotator's file "
            "to hold the same sentences",
        )


def _unique_name(taken: dict[str, Any], name: str) -> str:
    """`name`, or with a number after it when an annotator of that name is already read."""
    if name not in taken:
        return name
    number = 2
    while f"{name} ({number})" in taken:
        number += 1
    return f"{name} ({number})"


# -- BRAT ------------------------------------------------------------------------------------------------------------


def _check_paths(paths: Any, each: str) -> None:
    """A reader of several paths given one: its characters would be read as paths ('l': no such file)."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise ValueError(f"found the path {os.fsdecode(paths)!r} alone; expected a list of paths ({each})")


def read_brat_annotators(folders: Sequence[str | os.PathLike[str]]) -> AnnotatorBatches:
    """BRAT folders, one per annotator (named by the folder), holding the same ``.ann`` files (paired by their
    path in each folder) over the same ``.txt`` texts; an annotator's ``.txt`` may be left out, the first
    annotator's is read then. Entities are the ``T`` lines, a discontinuous one by its full extent."""
    _check_paths(folders, "one folder per annotator")
    roots = [os.fspath(folder) for folder in folders]
    listed = [brat_names(root) for root in roots]
    for root, names in zip(roots[1:], listed[1:]):
        for alone, folder, other in (
            (sorted(set(listed[0]) - set(names)), roots[0], root),
            (sorted(set(names) - set(listed[0])), root, roots[0]),
        ):
            if alone:
                more = f" (and {len(alone) - 1} more)" if len(alone) > 1 else ""
                raise ConllError(
                    os.path.join(folder, f"{alone[0]}.ann"),
                    None,
                    f"has no counterpart {os.path.join(other, alone[0] + '.ann')}{more}; expected every annotator's "
                    "folder to hold the same .ann files",
                )
    annotations: dict[str, list[Any]] = {}
    names = [_unique_name({}, os.path.basename(os.path.normpath(root)) or root) for root in roots]
    for index, name in enumerate(names):
        if name in names[:index]:
            names[index] = roots[index]
    texts = []
    for document in listed[0] if listed else []:
        first = read_brat_file(os.path.join(roots[0], f"{document}.ann"), document)
        texts.append(first.text)
        for index, (root, name) in enumerate(zip(roots, names)):
            if index == 0:
                read = first
            else:
                text_path = os.path.join(root, f"{document}.txt")
                own = os.path.exists(text_path)
                if own:
                    text = _decoded(_read_bytes(text_path), text_path)
                    if text != first.text:
                        _raise_different_texts(text_path, text, os.path.join(roots[0], f"{document}.txt"), first.text)
                ann = os.path.join(root, f"{document}.ann")
                read = read_brat_file(
                    ann, document, first.text, text_path if own else os.path.join(roots[0], f"{document}.txt")
                )
            annotations.setdefault(name, []).append([(span.start, span.end, span.entity_type) for span in read.spans])
    if not annotations:
        annotations = {name: [] for name in names}
    return AnnotatorBatches(annotations, texts, None, list(listed[0] if listed else []))


# -- Label Studio ----------------------------------------------------------------------------------------------------

_EXPORT = "Label Studio's JSON export: a list of tasks, each with 'data' and 'annotations' by several annotators"


def _json_list(source: str) -> list[tuple[int, Any]]:
    """The items of a JSON list file with the line where each starts. In time linear in the file: white space is
    skipped and lines are counted from where the last count stopped (slicing the rest of the file, or counting
    from its start, at every item made a 1 MB export of 3,500 tasks take 3 s)."""
    import json  # here, not at the top: what only JSON needs stays out of `import nerscore`
    import re

    content = _decoded(_read_bytes(source), source).removeprefix("\ufeff")
    decoder = json.JSONDecoder()
    space = re.compile(r"\s*")  # what str.lstrip strips: Unicode white space
    counted = [0, 1]  # the position up to which lines are counted, and the line there

    def after_space(position: int) -> int:
        match = space.match(content, position)
        return position if match is None else match.end()  # never None: \s* matches the empty string

    def line_at(position: int) -> int:
        counted[1] += content.count("\n", counted[0], position)
        counted[0] = position
        return counted[1]

    position = after_space(0)
    if content[position : position + 1] != "[":
        raise ConllError(source, line_at(position), f"found no JSON list; expected {_EXPORT}")
    position += 1
    items: list[tuple[int, Any]] = []
    while True:
        position = after_space(position)
        if content[position : position + 1] == "]":
            return items
        line = line_at(position)
        try:
            item, position = decoder.raw_decode(content, position)
        except json.JSONDecodeError as error:
            raise ConllError(source, error.lineno, f"not JSON ({error.msg}, column {error.colno})") from None
        except RecursionError:
            raise ConllError(source, line, f"JSON nested too deeply; expected {_EXPORT}") from None
        items.append((line, item))
        position = after_space(position)
        if content[position : position + 1] == ",":
            position += 1
        elif content[position : position + 1] != "]":
            raise ConllError(source, line_at(position), f"expected ',' or ']' ({_EXPORT})")


def _annotator_of(annotation: dict[str, Any]) -> str | None:
    """Who completed an annotation: Label Studio writes `completed_by` as a user id, or as a dict with the
    user's email (and id)."""
    who = annotation.get("completed_by")
    if isinstance(who, dict):
        who = who.get("email") or who.get("id")
    if isinstance(who, str) and who:
        return who
    return str(who) if is_id(who) else None


def read_label_studio_annotators(path: str | os.PathLike[str]) -> AnnotatorBatches:
    """A Label Studio JSON export whose tasks hold several annotations, one per annotator (`completed_by`; an
    annotator is named by the user's email, or id, in the order they first appear). Cancelled annotations are
    left out; a task an annotator did not annotate is None for it. Two annotations of one annotator in one task
    are ambiguous: a `ConllError` naming the task."""
    source = os.fspath(path)
    tasks = _json_list(source)
    per_task: list[dict[str, list[tuple[int, int, str]]]] = []
    names: dict[str, None] = {}
    texts, documents = [], []
    for index, (line, task) in enumerate(tasks):
        if not isinstance(task, dict):
            raise ConllError(source, line, f"task {index} is a JSON {type(task).__name__}; expected {_EXPORT}")
        where = f"task {index}" + (f" (id {task['id']!r})" if "id" in task else "")
        data = task.get("data")
        text = data.get("text") if isinstance(data, dict) else None
        if not isinstance(text, str):
            raise ConllError(source, line, f"{where} has no data.text; expected the text the annotators labelled")
        annotations = task.get("annotations", task.get("completions", []))
        if not isinstance(annotations, list):
            raise ConllError(source, line, f"{where}: annotations is not a list; expected {_EXPORT}")
        found: dict[str, list[tuple[int, int, str]]] = {}
        for number, annotation in enumerate(annotations):
            if not isinstance(annotation, dict) or annotation.get("was_cancelled") is True:
                continue
            who = _annotator_of(annotation)
            if who is None:
                raise ConllError(
                    source, line, f"{where}, annotations[{number}] has no completed_by; expected the annotator's id"
                )
            if who in found:
                raise ConllError(
                    source,
                    line,
                    f"{where} has two annotations by {who!r}; expected one annotation per annotator and task",
                )
            spans = _regions(annotation, f"{where}, annotations[{number}]", text, source, line)
            found[who] = [(span.start, span.end, span.entity_type) for span in spans]
            names.setdefault(who)
        per_task.append(found)
        texts.append(text)
        documents.append(f"{source}:{line}")
    batches = {name: [found.get(name) for found in per_task] for name in names}
    return AnnotatorBatches(batches, texts, None, documents)


# -- doccano ----------------------------------------------------------------------------------------------------------

_DOCCANO = (
    'doccano\'s JSONL export: one JSON object a line with "text" and "label": [[start, end, type], ...] (or '
    '"entities": [{"start_offset", "end_offset", "label"}, ...])'
)


def _doccano_entities(record: dict[str, Any], source: str, line: int) -> list[tuple[int, int, str]]:
    text = record.get("text")
    if not isinstance(text, str):
        raise ConllError(source, line, f'found no "text"; expected {_DOCCANO}')
    entities: list[tuple[Any, Any, Any]] = []
    if "entities" in record:
        listed = record["entities"]
        if not isinstance(listed, list) or not all(isinstance(entity, dict) for entity in listed):
            raise ConllError(source, line, f'"entities" is {shown(listed)}; expected {_DOCCANO}')
        entities = [(entity.get("start_offset"), entity.get("end_offset"), entity.get("label")) for entity in listed]
    else:
        listed = record.get("label", record.get("labels", []))
        if not isinstance(listed, list) or not all(isinstance(entity, list) and len(entity) == 3 for entity in listed):
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
    _check_paths(paths, "one file per annotator")
    annotations: dict[str, list[Any]] = {}
    texts: list[str] = []
    places: list[str] = []
    for index, path in enumerate(paths):
        source = os.fspath(path)
        entities, own_texts, own_places = [], [], []
        with open(source, "rb") as handle:
            for line, _, record in json_line_records(text_lines(handle, source), source, f"expected {_DOCCANO}"):
                if not isinstance(record, dict):
                    raise ConllError(source, line, f"found a JSON {type(record).__name__}; expected {_DOCCANO}")
                entities.append(_doccano_entities(record, source, line))
                own_texts.append(record["text"])
                own_places.append(f"{source}:{line}")
        if index == 0:
            texts, places = own_texts, own_places
        else:
            for number, (text, expected) in enumerate(zip(own_texts, texts)):
                if text != expected:
                    raise ConllError(
                        source,
                        int(own_places[number].rsplit(":", 1)[1]),
                        f"text {shown(text[:40])} differs from {places[number]}'s {shown(expected[:40])}; expected "
                        "every annotator's file to hold the same texts in the same order",
                    )
            if len(own_texts) != len(texts):
                raise ConllError(
                    source,
                    None,
                    f"holds {len(own_texts)} texts and {places[0].rsplit(':', 1)[0] if places else 'the first file'} "
                    f"{len(texts)}; expected every annotator's file to hold the same texts",
                )
        annotations[_unique_name(annotations, os.path.basename(source))] = entities
    return AnnotatorBatches(annotations, texts, None, places)


# -- the command line ------------------------------------------------------------------------------------------------


# -- JSON lines of spans, every annotator on one line -----------------------------------------------------------

_SPAN_LINE = (
    'one JSON object a line, {"text": "...", "annotations": {"annotator": [[start, end, "TYPE"], ...], ...}} '
    '("text" optional, on every line or on none; an annotator\'s null: the document not annotated)'
)


def read_jsonl_annotators(path: str | os.PathLike[str]) -> AnnotatorBatches:
    """JSON lines of spans with every annotator's entities on one line (`_SPAN_LINE`), as the command line's
    `--spans` reads one system's: each line a document, `annotations` mapping each annotator's name to its
    entities (dicts or `[start, end, type]` lists, checked by `agreement` as any spans are), in the order the
    names first appear. An annotator a line does not name (or names with null) did not annotate that document."""

    source = os.fspath(path)
    records: list[dict[str, Any]] = []
    texts: list[Any] = []
    places: list[str] = []
    names: dict[str, None] = {}
    with open(source, "rb") as handle:
        for line, _, record in json_line_records(text_lines(handle, source), source, f"expected {_SPAN_LINE}"):
            annotations = record.get("annotations") if isinstance(record, dict) else None
            if not isinstance(annotations, dict) or not all(isinstance(name, str) for name in annotations):
                raise ConllError(source, line, f"found no annotations object; expected {_SPAN_LINE}")
            text = record.get("text")
            if text is not None and not isinstance(text, str):
                raise ConllError(source, line, f"text is a JSON {type(text).__name__}; expected {_SPAN_LINE}")
            if texts and (text is None) != (texts[0] is None):
                raise ConllError(source, line, f"a text on some lines and not on others; expected {_SPAN_LINE}")
            for name, entities in annotations.items():
                if entities is not None and not isinstance(entities, list):
                    raise ConllError(
                        source, line, f"{name!r}'s entities are a JSON {type(entities).__name__}; expected {_SPAN_LINE}"
                    )
                names.setdefault(name, None)
            records.append(annotations)
            texts.append(text)
            places.append(f"{source}:{line}")
    batches = {name: [record.get(name) for record in records] for name in names}
    return AnnotatorBatches(batches, None if not texts or texts[0] is None else texts, None, places)


def _holds_annotations(path: str) -> bool:
    """Whether the file's first non-blank line is a JSON object with an ``annotations`` key (doccano's have none)."""
    import json

    try:
        with open(path, "rb") as handle:
            for content in text_lines(handle, path):
                if content.strip():
                    record = json.loads(content)
                    return isinstance(record, dict) and "annotations" in record
    except (OSError, ValueError, RecursionError, ConllError):
        return False
    return False


def file_format(paths: Sequence[str]) -> str:
    """The layout of `paths`: folders are BRAT, one ``.json`` file Label Studio, ``.jsonl`` files doccano (one
    ``.jsonl`` file whose first line holds ``"annotations"``: every annotator's spans on each line), the rest
    CoNLL."""
    if all(os.path.isdir(path) for path in paths):
        return "brat"
    if len(paths) == 1 and paths[0].lower().endswith(".json"):
        return "label-studio"
    if all(path.lower().endswith(".jsonl") for path in paths):
        return "jsonl" if len(paths) == 1 and _holds_annotations(paths[0]) else "doccano"
    return "conll"


def read_annotators(paths: Sequence[str], form: str) -> AnnotatorBatches:
    """The annotators' files of one of `FORMATS`."""
    if form == "brat":
        return read_brat_annotators(paths)
    if form == "label-studio":
        if len(paths) != 1:
            raise ValueError("a Label Studio export is one file holding every annotator's annotations: give one")
        return read_label_studio_annotators(paths[0])
    if form == "doccano":
        return read_doccano_annotators(paths)
    if form == "jsonl":
        if len(paths) != 1:
            raise ValueError("JSON lines of every annotator's spans are one file holding every annotator: give one")
        return read_jsonl_annotators(paths[0])
    return read_conll_annotators(paths)


def build_parser(prog: str) -> argparse.ArgumentParser:
    """The agreement command's arguments: the paths, the layout, --json and the option table's scoring flags."""
    import argparse

    parser = argparse.ArgumentParser(
        prog=prog,
        description="How far annotators agree (docs/agreement.md): pairwise F, Cohen's and Fleiss' kappa, "
        "Krippendorff's alpha.",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        help="BRAT folders (one per annotator), a Label Studio JSON export, doccano JSONL files (one per "
        "annotator), one JSONL file of every annotator's spans, a CoNLL file with one tag column per annotator, "
        "or CoNLL files (one per annotator)",
    )
    parser.add_argument("--format", choices=FORMATS, help="the files' layout (default: told by the paths)")
    parser.add_argument(
        "--names", metavar="A,B,...", help="the annotators' names, comma-separated, in the order they are read"
    )
    parser.add_argument("--json", action="store_true", help="print agreement()'s dict as JSON")
    for name, spec in SPECS.items():
        flag = spec.flag
        if flag is None or name in _REFUSED_FLAGS:
            continue
        option = "--" + name.replace("_", "-")
        if flag.switch:
            parser.add_argument(option, dest=name, action="store_true", help=flag.help)
        else:
            parser.add_argument(
                option, dest=name, metavar=flag.metavar, type=flag.parse, choices=flag.choices, help=flag.help
            )
    return parser


def format_agreement(result: dict[str, Any]) -> str:
    """The text the command prints: each pair's F per scheme and Cohen's κ, the means, the pooled F and the
    coefficients."""
    schemes = [key.removesuffix("_mean").split("_")[0] for key in result if key.endswith("_mean")]
    f_name = next(key for key in result if key.endswith("_mean")).split("_")[1]
    width = max([len(f"{pair['a']} - {pair['b']}") for pair in result["pairs"]] + [12])
    header = f"{'pair':<{width}}" + "".join(f"{scheme:>9}" for scheme in schemes) + f"{'kappa':>9}{'labelled':>10}"
    lines = [header]
    for pair in result["pairs"]:
        row = f"{pair['a'] + ' - ' + pair['b']:<{width}}"
        row += "".join(f"{pair[f'{scheme}_{f_name}']:>9.4f}" for scheme in schemes)
        row += f"{pair['cohen_kappa']:>9.4f}{pair['cohen_kappa_labelled']:>10.4f}"
        lines.append(row)
    for kind in ("mean", "pooled"):
        lines.append(
            f"{kind + ' ' + f_name:<{width}}" + "".join(f"{result[f'{s}_{f_name}_{kind}']:>9.4f}" for s in schemes)
        )
    lines.append("")
    for scheme in schemes:  # with --bootstrap: each mean F's interval
        key = f"{scheme}_{f_name}_mean"
        if f"{key}_low" in result:
            lines.append(f"{key + ':':<22}{result[key]:.4f} [{result[f'{key}_low']:.4f}, {result[f'{key}_high']:.4f}]")
    for name, key in (("Fleiss' kappa", "fleiss_kappa"), ("Krippendorff's alpha", "krippendorff_alpha")):
        line = f"{name + ':':<22}{result[key]:.4f}"
        if f"{key}_low" in result:
            line += f" [{result[f'{key}_low']:.4f}, {result[f'{key}_high']:.4f}]"
        lines.append(line + f"   labelled units only: {result[f'{key}_labelled']:.4f}")
    lines.append(f"{'units:':<22}{result['units']}   labelled (not O by some annotator): {result['units_labelled']}")
    for pair in result["pairs"]:
        if not pair.get("errors"):
            continue
        # With --errors: where the pair disagrees, most frequent first (docs/scoring.md §11), a's side first.
        lines += ["", f"{pair['a']} - {pair['b']}: disagreements (count, scenario, {pair['a']}, {pair['b']})"]
        for row in pair["errors"]:
            sides = [
                "-" if text is None else f"{text} ({kind})"
                for text, kind in (
                    (row["reference_text"], row["reference_type"]),
                    (row["predicted_text"], row["predicted_type"]),
                )
            ]
            lines.append(f"{row['count']:>6}  {row['scenario']:<4}{sides[0]}  |  {sides[1]}")
    return "\n".join(lines) + "\n"


def agreement_main(argv: Sequence[str], prog: str = "ner-semeval agreement") -> int:
    """``ner-semeval agreement PATH ...``: reads the annotators' files, prints the pairwise table and the
    coefficients (or, with ``--json``, the dict); returns the exit status (2 for bad files or options)."""
    import json

    parser = build_parser(prog)
    args = parser.parse_args(argv)
    read = None
    options = {
        name: value
        for name, spec in SPECS.items()
        if spec.flag is not None and name not in _REFUSED_FLAGS
        if (value := getattr(args, name)) is not None and value is not False
    }
    try:
        read = read_annotators(args.paths, args.format or file_format(args.paths))
        if args.names is not None:
            names = [name.strip() for name in args.names.split(",")]
            if len(names) != len(read.annotations) or len(set(names)) != len(names):
                parser.error(f"--names gives {len(names)} distinct names for {len(read.annotations)} annotators")
            read = read._replace(annotations=dict(zip(names, read.annotations.values())))
        result = agreement(read.annotations, texts=read.texts, tokens=read.tokens, **options)
    except InvalidInputError as error:
        where = ""
        if read is not None and error.sentence is not None and error.sentence < len(read.documents):
            where = f" ({read.documents[error.sentence]})"
        print(f"error: {error}{where}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as error:
        print(f"{error}" if isinstance(error, ConllError) else f"error: {error}", file=sys.stderr)
        return 2
    try:
        if args.json:
            print(json.dumps(result, indent=2, ensure_ascii=False))
        else:
            sys.stdout.write(format_agreement(result))
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    return 0
