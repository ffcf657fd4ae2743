"""The files annotators write, read into one batch per annotator for `nerscore.agreement` (docs/agreement.md):
a CoNLL file with one tag column per annotator (or one CoNLL file per annotator), BRAT folders (one per annotator,
the same ``.txt`` files), and JSON lines of spans with every annotator's entities on each line. The annotation
tools' JSON exports (Label Studio, doccano) are `nerscore.files.annotator_exports`. A malformed line, or
annotators whose documents or texts differ, is a `ConllError` naming the file (and the line).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from itertools import chain
from typing import Any, NamedTuple

from ..agreement import blank_name
from ..errors import is_collection, shown
from ..span import Span, listed
from .annotations import read_brat_beside, read_brat_file, same_brat_names
from .readers import ConllError, checked_path, conll_rows, first_difference, json_file_records, text_lines


class AnnotatorBatches(NamedTuple):
    """What `agreement` takes, read from files: each annotator's batch (None for a document it did not
    annotate), and the `texts` (spans) or `tokens` (tags) the annotators share; `documents` names each
    sentence or document where it came from, for messages."""

    annotations: dict[str, list[Any]]
    texts: list[str] | None
    tokens: list[list[str]] | None
    documents: list[str]
    # Where one file per annotator is read (CoNLL files, doccano's): each annotator's own place of each sentence,
    # in the annotators' order, which its errors name (its file's lines may be other than the first file's).
    places: tuple[list[str], ...] | None = None


# What a name of white space alone lacks (`agreement.blank_name`): shown in a report, it names no one.
_NOT_BLANK = " (not white space alone)"


# -- CoNLL ----------------------------------------------------------------------------------------------------------


def checked_names(names: Any, argument: str = "names") -> list[str]:
    """`read_conll_annotators`' names (or `ner-semeval agreement --names`, `argument`) as a list of distinct
    non-empty strings: annotators are a dict by name, so a name given twice would keep one of the two silently.
    A name of white space alone names no one (`blank_name`), as an empty one."""
    given = listed(argument, names, "the annotators' names, a list of strings")
    for name in given:
        if not isinstance(name, str) or blank_name(name):
            blank = _NOT_BLANK if isinstance(name, str) and name else ""  # (white space: "non-empty" is not enough)
            raise ValueError(f"{argument} holds {shown(name)}; expected each name a non-empty string{blank}")
    distinct: set[str] = set()
    for name in given:
        if name in distinct:
            raise ValueError(f"{argument} holds {shown(name)} twice; expected one distinct name per annotator")
        distinct.add(name)
    return given


def _conll_sentences(source: str) -> list[tuple[list[list[str]], list[int]]]:
    """Each sentence's rows of columns and line numbers (`conll_rows`)."""
    with open(source, "rb") as handle:
        return list(conll_rows(text_lines(handle, source), source))


def read_conll_annotators(
    paths: Sequence[str | os.PathLike[str]], names: Sequence[str] | None = None
) -> AnnotatorBatches:
    """One CoNLL file with the token first and one tag column per annotator (two or more; annotators named
    ``annotator1``, ... unless `names` are given), or several CoNLL files, one per annotator (the token first and
    the annotator's tag last, annotators named by their files unless `names` are given, one a file in order),
    whose tokens must be the same line by line."""
    paths = check_paths(paths, "[path] for one file of several columns")
    names = None if names is None else checked_names(names)
    if len(paths) == 1:
        source = os.fspath(paths[0])
        sentences = _conll_sentences(source)
        width = len(sentences[0][0][0]) if sentences else 0
        if width < 3:
            raise ConllError(
                source,
                sentences[0][1][0] if sentences else None,
                f"found {width} column{'' if width == 1 else 's'}; expected the token, then one tag column per "
                "annotator (two or more), or "
                "one file per annotator",
            )
        for rows, numbers in sentences:
            for row, number in zip(rows, numbers):
                if len(row) != width:
                    raise ConllError(
                        source,
                        number,
                        f"found {len(row)} column{'' if len(row) == 1 else 's'}; "
                        f"expected {width}, as the first line has",
                    )
        tokens, *tags = ([[row[column] for row in rows] for rows, _ in sentences] for column in range(width))
        names = names or [f"annotator{column}" for column in range(1, width)]
        if len(names) != width - 1:
            raise ValueError(f"found {len(names)} names for {width - 1} annotators' columns in {source}")
        documents = [f"{source}:{numbers[0]}" for _, numbers in sentences]
        return AnnotatorBatches(dict(zip(names, tags)), None, tokens, documents)
    annotations: dict[str, list[Any]] = {}
    first_source, first, first_tokens = "", [], []
    places = []
    for index, path in enumerate(paths):
        source = os.fspath(path)
        sentences = _conll_sentences(source)
        for rows, numbers in sentences:
            for row, number in zip(rows, numbers):
                if len(row) < 2:
                    raise ConllError(source, number, "found 1 column; expected the token first and the tag last")
        tokens = [[row[0] for row in rows] for rows, _ in sentences]
        if index == 0:
            first_source, first, first_tokens = source, sentences, tokens
        else:
            apart = first_apart(source, tokens, first_source, first_tokens, "sentences")
            if apart is not None:
                raise ConllError(source, *_differing_tokens(apart, sentences, first_source, first))
        annotations[unique_name(annotations, os.path.basename(source))] = [
            [row[-1] for row in rows] for rows, _ in sentences
        ]
        places.append([f"{source}:{numbers[0]}" for _, numbers in sentences])
    if names is not None:  # (they were left unread: the files' names stood)
        if len(names) != len(paths):
            raise ValueError(f"found {len(names)} names for {len(paths)} annotators' files")
        annotations = dict(zip(names, annotations.values()))
    return AnnotatorBatches(annotations, None, first_tokens, places[0] if places else [], tuple(places))


def _differing_tokens(
    sentence: int,
    sentences: list[tuple[list[list[str]], list[int]]],
    first_source: str,
    first: list[tuple[list[list[str]], list[int]]],
) -> tuple[int, str]:
    """Where a file's `sentence` first parts from the first file's (its line) and how (`first_apart`)."""
    (rows, lines), (first_rows, first_lines) = sentences[sentence], first[sentence]
    found, expected = [row[0] for row in rows], [row[0] for row in first_rows]
    token = first_difference(found, expected)
    return (
        lines[min(token, len(found) - 1)],
        f"sentence {sentence} differs from {first_source}:{first_lines[min(token, len(expected) - 1)]} "
        f"({shown(found[token : token + 3])} against {shown(expected[token : token + 3])}); expected every "
        "annotator's file to hold the same tokens",
    )


def first_apart(source: str, found: Sequence[Any], first_source: str, first: Sequence[Any], what: str) -> int | None:
    """Where an annotator's file `source` first parts from the first file's sentences (or texts: `what`), which every
    annotator's file of a reader of one file per annotator must hold in order: the index of the first that differs
    (the caller names its line and how it differs), else None; a file of more or fewer is a `ConllError` naming
    both counts."""
    apart = first_difference(found, first)
    if apart < min(len(found), len(first)):
        return apart
    if len(found) != len(first):
        raise ConllError(
            source,
            None,
            f"holds {len(found)} {what} and {first_source} {len(first)}; expected every annotator's file to hold "
            f"the same {what}",
        )
    return None


def by_annotator(documents: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Each annotator's batch from each document's entities by annotator, annotators in the order they first
    appear: None for a document an annotator did not annotate (or annotated as null)."""
    return {name: [found.get(name) for found in documents] for name in dict.fromkeys(chain.from_iterable(documents))}


def check_annotators(seen: dict[str, None], name: str, most: int | None, source: str, line: int) -> None:
    """`name` added to the annotators `seen`; a `ConllError` at `line` where it is white space alone or one more
    than `most`. (An empty name is left to the caller: the Space names its annotator's number, `agreement` refuses
    it.)"""
    if name not in seen and name.isspace():
        raise ConllError(source, line, f"found the annotator name {shown(name)}; expected a non-empty name{_NOT_BLANK}")
    if most is not None and name not in seen and len(seen) >= most:
        raise ConllError(source, line, f"found annotator {shown(name)} after {most} others; expected at most {most}")
    seen[name] = None


def unique_name(taken: dict[str, Any], name: str) -> str:
    """`name`, or with a number after it when an annotator of that name is already read."""
    if name not in taken:
        return name
    number = 2
    while f"{name} ({number})" in taken:
        number += 1
    return f"{name} ({number})"


# -- BRAT ------------------------------------------------------------------------------------------------------------


def check_paths(paths: Any, each: str) -> list[str]:
    """A reader's several paths, as a list of `str`: one path given alone (its characters would be read as paths,
    'l': no such file), or a path that is none (None or a number raised TypeError out of os.fspath), is a
    ValueError naming it."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise ValueError(f"found the path {os.fsdecode(paths)!r} alone; expected a list of paths ({each})")
    if not is_collection(paths):
        raise ValueError(f"found {type(paths).__name__}; expected a list of paths ({each})")
    return [checked_path(path, f"paths[{index}] a path ({each})") for index, path in enumerate(paths)]


def _entity(span: Span) -> tuple[int, int, str] | dict[str, Any]:
    """A BRAT entity as `agreement` takes it: ``(start, end, type)``, or a discontinuous one as the span dict of
    docs/scoring.md §12, ``{"fragments": [[start, end], ...], "type": ...}``."""
    if not span.fragments:
        return (span.start, span.end, span.entity_type)
    return {"fragments": [[start, end] for start, end in span.fragments], "type": span.entity_type}


def read_brat_annotators(folders: Sequence[str | os.PathLike[str]], fragments: bool = False) -> AnnotatorBatches:
    """BRAT folders, one per annotator (named by the folder), holding the same ``.ann`` files (paired by their
    path in each folder) over the same ``.txt`` texts; an annotator's ``.txt`` may be left out, the first
    annotator's is read then. Entities are the ``T`` lines, ``(start, end, type)``; a discontinuous one
    (``T3<TAB>ADR 10 16;23 30<TAB>...``) by its full extent, or with `fragments` (as `read_brat`'s) by its fragments,
    sorted and merged: ``{"fragments": [[10, 16], [23, 30]], "type": "ADR"}`` (docs/scoring.md §12)."""
    return brat_annotators(folders, fragments)[0]


def brat_annotators(
    folders: Sequence[str | os.PathLike[str]], fragments: bool
) -> tuple[AnnotatorBatches, dict[str, int]]:
    """`read_brat_annotators`' batches, and how many of each annotator's annotations are discontinuous
    (`BratDocument.discontinuous`), which ``ner-semeval agreement`` notes."""
    roots = check_paths(folders, "one folder per annotator")
    documents = same_brat_names(roots, "expected every annotator's folder to hold the same .ann files")
    names = [os.path.basename(os.path.normpath(root)) or root for root in roots]
    for index, name in enumerate(names):
        if name in names[:index]:
            names[index] = roots[index]
    annotations: dict[str, list[Any]] = {name: [] for name in names}
    discontinuous = dict.fromkeys(names, 0)
    texts = []
    for document in documents:
        first = read_brat_file(os.path.join(roots[0], f"{document}.ann"), document, fragments=fragments)
        texts.append(first.text)
        for index, (root, name) in enumerate(zip(roots, names)):
            read = read_brat_beside(root, first, roots[0], fragments) if index else first
            annotations[name].append([_entity(span) for span in read.spans])
            discontinuous[name] += read.discontinuous
    return AnnotatorBatches(annotations, texts, None, documents), discontinuous


# -- JSON lines of spans, every annotator on one line -----------------------------------------------------------

_SPAN_LINE = (
    'one JSON object a line, {"text": "...", "annotations": {"annotator": [[start, end, "TYPE"], ...], ...}} '
    '("text" optional, on every line or on none; an annotator\'s null: the document not annotated)'
)


def read_jsonl_annotators(path: str | os.PathLike[str], *, max_annotators: int | None = None) -> AnnotatorBatches:
    """JSON lines of spans with every annotator's entities on one line (`_SPAN_LINE`), as the command line's
    `--spans` reads one system's: each line a document, `annotations` mapping each annotator's name to its
    entities (dicts or `[start, end, type]` lists, checked by `agreement` as any spans are), in the order the
    names first appear. An annotator a line does not name (or names with null) did not annotate that document.
    `max_annotators`: more is a `ConllError` at the line naming one more, before the batches (annotators x lines)."""

    source = checked_path(path, "a JSON lines file of every annotator's spans")
    records: list[dict[str, Any]] = []
    texts: list[Any] = []
    places: list[str] = []
    seen: dict[str, None] = {}  # the annotators so far
    for line, _, record in json_file_records(source, f"expected {_SPAN_LINE}"):
        annotations = record.get("annotations") if isinstance(record, dict) else None
        if not isinstance(annotations, dict) or not all(isinstance(name, str) for name in annotations):
            raise ConllError(source, line, f"found no annotations object; expected {_SPAN_LINE}")
        text = record.get("text")
        if text is not None and not isinstance(text, str):
            raise ConllError(source, line, f"text is a JSON {type(text).__name__}; expected {_SPAN_LINE}")
        if texts and (text is None) != (texts[0] is None):
            raise ConllError(source, line, f"a text on some lines and not on others; expected {_SPAN_LINE}")
        for name, entities in annotations.items():
            check_annotators(seen, name, max_annotators, source, line)
            if entities is not None and not isinstance(entities, list):
                raise ConllError(
                    source, line, f"{name!r}'s entities are a JSON {type(entities).__name__}; expected {_SPAN_LINE}"
                )
        records.append(annotations)
        texts.append(text)
        places.append(f"{source}:{line}")
    return AnnotatorBatches(by_annotator(records), None if not texts or texts[0] is None else texts, None, places)
