"""Files counted into an `Accumulator` a chunk at a time as they are read, so memory stays flat however large
the file: CoNLL files of tags, JSON lines of spans, annotation tools' folders and exports, and the files of
several systems (`--compare`, `--runs`) read in step. A bad line is a `ConllError` that names the file and the line.
"""

from __future__ import annotations

import codecs
import io
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from itertools import zip_longest
from typing import Any, NamedTuple, cast

import numpy as np

from ..accumulator import Accumulator, PerSentence, SentenceRuns, add_units
from ..compute import check_outside_type, count_batch, per_sentence_columns, scored_columns
from ..errors import InvalidInputError
from ..forms.inputs import SPANS, STRINGS, TAGS, batch_form
from ..options import Options
from ..pairing.rules import SCENARIOS
from ..result_scores import weighted_width
from ..statistics.unit_counts import CountRuns, SentenceCounts
from ..table.columns import NO_COLUMNS, Columns
from ..tally import Counted
from .annotations import label_studio_tasks, read_brat_pairs, read_label_studio
from .readers import (
    CONLL_COLUMNS,
    ConllError,
    ConllSentence,
    SpanDocument,
    conll_block_rows,
    decoded,
    first_difference,
    line_blocks,
    read_span_lines,
    split_columns,
    text_lines,
)

# Sentences are scored as they are read, this many tokens at a time: memory stays flat however large the file.
_CLI_CHUNK_TOKENS = 1 << 16
# JSON lines of spans likewise, this many entities (both sides) at a time.
_CLI_CHUNK_ENTITIES = 1 << 15
# What --compare and --runs say when a system's file is not the first one's sentences.
_SAME_SENTENCES = "needs the same tokens and reference column in both files"


def _count_sentences(sentences: list[ConllSentence], source: str, options: Options, keep_sentences: bool) -> Counted:
    """Count one chunk of a file's sentences (and each one's scenarios with `keep_sentences`); a bad tag is a
    `ConllError` naming the file, the line and the column."""
    predictions = [sentence.predictions for sentence in sentences]
    references = [sentence.references for sentence in sentences]
    # The first column is each line's token: the entities' texts and sentence lengths (docs/scoring.md §11), passed
    # only where an option reads them (a tuple per sentence costs about a tenth of scoring a file).
    columns = NO_COLUMNS
    if options.errors or options.slices:
        columns = Columns(tokens=tuple(tuple(sentence.tokens) for sentence in sentences))
    try:
        if options.slices:
            columns = scored_columns(predictions, references, TAGS, options, columns)
        counted, rows = count_batch(predictions, references, TAGS, options, keep_sentences, columns)
        if options.confusion:  # (an entity type "O" found where it is, not when the matrix is built: no line then)
            check_outside_type(predictions, references, TAGS, options, counted.tally, rows)
        return counted
    except InvalidInputError as error:
        if error.sentence is None or error.token is None:
            raise
        line = sentences[error.sentence].lines[error.token]
        column = "reference (second last)" if error.side == "references" else "predicted (last)"
        raise ConllError(source, line, f"{column} column: {error.hint('use --scheme {}')}") from None


class SpanTotal(NamedTuple):
    """Documents of spans counted (`count_span_file`, `count_brat`, `count_label_studio`): the accumulator, and
    whether any entity was a string (the report's first line says "strings" and how many are ungrounded)."""

    total: Accumulator
    strings: bool


def _add_spans(total: Accumulator, documents: list[SpanDocument], source: str) -> SpanTotal:
    """`total` with one chunk of documents (lines) counted; a bad entity is a `ConllError` naming the line. A line
    without a 'document' field is a document of its own."""
    options = total.options
    references = [document.references for document in documents]
    predictions = [document.predictions for document in documents]
    # The first line without 'text', named by the checks of what needs it.
    textless = next((document.line for document in documents if document.text is None), None)
    try:  # (a malformed first entity is found here, where the form is judged by it: located as the rest are)
        form = STRINGS if batch_form(predictions, references) == STRINGS else SPANS
    except InvalidInputError as error:
        raise _located_span_error(error, documents, source) from None
    if form == STRINGS and textless is not None:  # string entities, found in each line's text (§1b)
        raise _strings_without_text(source, textless, _strings_line(documents, textless))
    if options.errors and textless is not None:
        raise ConllError(source, textless, "found no 'text'; --errors names each entity by its text")
    reading = {
        "sentence_length": "counts the characters of each line's 'text'",
        "seen": "reads each entity's text in 'text'",
    }
    needs_text = [name for name in options.slices or () if name in reading]
    if needs_text and textless is not None:  # (the slices' own message names compute_semeval's texts=, no flag)
        raise ConllError(source, textless, f"found no 'text'; --slices {needs_text[0]} {reading[needs_text[0]]}")
    columns = Columns(texts=tuple(str(document.text) for document in documents)) if textless is None else Columns()
    try:
        if options.slices:
            columns = scored_columns(predictions, references, SPANS, options, columns)
        counted, rows = count_batch(
            predictions, references, form, options, keep_sentences=options.bootstrap > 0, columns=columns
        )
        if options.confusion:
            check_outside_type(predictions, references, form, options, counted.tally, rows)
    except InvalidInputError as error:
        raise _located_span_error(error, documents, source) from None
    ids = [
        ("line", total.sentences + index) if document.document is None else ("document", document.document)
        for index, document in enumerate(documents)
    ]
    return SpanTotal(total.add(counted, len(documents), ids), form == STRINGS)


def _strings_line(documents: list[SpanDocument], line: int | None = None) -> int:
    """The line of the first document whose entities are strings (§1b), in a chunk that holds some: `line` when
    its document's are."""
    return next(
        document.line
        for document in sorted(documents, key=lambda document: document.line != line)
        if (document.references or document.predictions)
        and batch_form([document.predictions], [document.references]) == STRINGS
    )


def _strings_without_text(source: str, textless: int, strings: int) -> ConllError:
    """The error of a file of string entities (the line `strings` holds some) with a line without 'text' (`textless`):
    the file is one batch, whose string entities need every line's text (§1b), however it is read in chunks."""
    if textless == strings:
        return ConllError(source, textless, "found string entities and no 'text'; expected the text")
    problem = (
        f"found no 'text', which a file of string entities (line {strings}) needs on every line; expected the text"
    )
    return ConllError(source, textless, problem)


def _located_span_error(error: InvalidInputError, documents: list[SpanDocument], source: str) -> ValueError:
    """A chunk's error as the `ConllError` of its line (its side and entity, in the file's words), or as it is
    when it names no sentence."""
    if error.sentence is None:
        return error
    problem = error.problem.replace("offsets into texts=", 'offsets into the line\'s "text"')  # a file's words
    where = ", ".join([str(error.side), *([] if error.entity is None else [f"entity {error.entity}"])])
    return ConllError(source, documents[error.sentence].line, f"{where}: {problem}")


class Systems(NamedTuple):
    """What --compare and --runs read: each system's (or run's) counts, each unit's counts of every system side by
    side (docs/scoring.md §9), and how many sentences and documents were read."""

    counts: list[Accumulator]
    units: SentenceCounts
    sentences: int
    documents: int


def _chunks(items: Iterable[Any], size: Callable[[Any], int], limit: int) -> Iterator[list[Any]]:
    """`items` in lists whose sizes add up to about `limit`: files are scored a chunk at a time as they are read."""
    chunk: list[Any] = []
    total = 0
    for item in items:
        chunk.append(item)
        total += size(item)
        if total >= limit:
            yield chunk
            chunk, total = [], 0
    if chunk:
        yield chunk


def text_blocks(handle: Iterable[bytes | str], source: str) -> Iterator[list[str]]:
    """A file's lines as text in lists (`readers.text_lines`: UTF-8, byte-order marks dropped), each line without
    its ``\\n``: a binary file read and decoded a block of lines at a time (its lines one by one took a third of
    its reading), anything else a line at a time. A byte that is not UTF-8 is a `ConllError`, once the lines
    before it are given."""
    if type(handle) in (io.BufferedReader, io.BytesIO):  # (a subclass may read its lines otherwise)
        return _byte_blocks(cast(io.BufferedIOBase, handle).read1, source)
    return line_blocks(text_lines(handle, source), source)


# Bytes read at a time (`read1`: no more than a terminal or a pipe holds now).
_BLOCK_BYTES = 1 << 17


def _byte_blocks(read: Callable[[int], bytes], source: str) -> Iterator[list[str]]:
    """`text_blocks` of a binary file, whose `read` returns up to so many bytes: each block's whole lines decoded
    at once, the rest kept for the next."""
    pieces: list[bytes] = []  # the start of a line the blocks so far have not ended (a long line: many pieces)
    number = 1  # the first line of the next block
    while data := read(_BLOCK_BYTES):
        end = data.rfind(b"\n") + 1
        if not end:
            pieces.append(data)
            continue
        raw = b"".join([*pieces, data[:end]])
        pieces = [data[end:]]
        yield from _decoded_lines(raw, source, number)
        number += raw.count(b"\n")
    if raw := b"".join(pieces):
        yield from _decoded_lines(raw + b"\n", source, number)


def _decoded_lines(raw: bytes, source: str, number: int) -> Iterator[list[str]]:
    """The lines of `raw` (whole lines, from line `number` on) without their byte-order marks, decoded; a byte
    that is not UTF-8 a `ConllError`, after the lines before its own."""
    raw = raw.removeprefix(codecs.BOM_UTF8)
    if codecs.BOM_UTF8 in raw:
        raw = raw.replace(b"\n" + codecs.BOM_UTF8, b"\n")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        good = raw.rfind(b"\n", 0, error.start) + 1
        yield raw[:good].decode("utf-8").split("\n")[:-1]
        text = decoded(raw[good:], source, number + raw.count(b"\n", 0, good))  # raises, naming the line and column
    lines = text.split("\n")
    lines.pop()  # (after the last line's \n)
    yield lines


def _sentences(handle: Iterable[bytes | str], source: str, documents: list[int] | None) -> Iterator[ConllSentence]:
    """`read_conll` of a file (`text_blocks`), each column a tuple and the lines a range: a chunk's sentences
    cost the garbage collector nothing (it stops tracking tuples of strings; lists it traverses at every
    collection, a fifth of a large file's count)."""
    for rows, numbers in conll_block_rows(text_blocks(handle, source), source, 2, CONLL_COLUMNS, documents):
        tokens, references, predictions = split_columns(rows, 2, tuple)
        yield ConllSentence(tokens, references, predictions, numbers)


def count_tag_file(
    handle: Iterable[bytes | str], source: str, total: Accumulator, file: int, by_document: bool
) -> Accumulator:
    """`total` with a CoNLL file counted a chunk at a time as it is read (the `file`th read: with `by_document`
    its documents are numbered within it)."""
    documents: list[int] = []
    sentences = _sentences(handle, source, documents if by_document else None)
    for chunk in _chunks(sentences, lambda sentence: len(sentence.tokens), _CLI_CHUNK_TOKENS):
        # The reader has numbered exactly the sentences it gave: those of this chunk are the last.
        ids = [(file, document) for document in documents[-len(chunk) :]] if by_document else None
        total = total.add(_count_sentences(chunk, source, total.options, total.options.bootstrap > 0), len(chunk), ids)
    return total


def _add_span_documents(total: Accumulator, documents: Iterable[SpanDocument], source: str) -> SpanTotal:
    """`total` with `documents` counted in chunks of about `_CLI_CHUNK_ENTITIES` entities as they are read. Where
    every document has its text (BRAT's always; a --spans line or a Label Studio task may have none), `ungrounded`
    is there (0 of spans), as in compute_semeval's result with texts (docs/scoring.md §1b); documents of which some
    have none are not compute_semeval's texts=, which are each document's."""
    strings: int | None = None  # the first line of string entities
    textless: int | None = None  # the first line without 'text'

    def noted(documents: Iterable[SpanDocument]) -> Iterator[SpanDocument]:
        nonlocal textless
        for document in documents:
            if textless is None and document.text is None:
                textless = document.line
            yield document

    for chunk in _chunks(
        noted(documents), lambda document: len(document.references) + len(document.predictions), _CLI_CHUNK_ENTITIES
    ):
        total, chunk_strings = _add_spans(total, chunk, source)
        if chunk_strings and strings is None:
            strings = _strings_line(chunk)
        if strings is not None and textless is not None:  # (in two chunks: the chunk's own check saw one)
            raise _strings_without_text(source, textless, strings)
    if total.tally is None:  # no document: counted as an empty batch, as compute_semeval counts one
        total, _ = _add_spans(total, [], source)
    if textless is None and total.tally is not None and total.tally.ungrounded is None:
        # (compute.with_ungrounded_key's rule, on all the documents: the chunks cannot tell alone)
        total = replace(total, tally=total.tally.with_ungrounded(0))
    return SpanTotal(total, strings is not None)


def count_span_file(handle: Iterable[bytes | str], source: str, total: Accumulator) -> SpanTotal:
    """`total` with a JSON lines file of span lists (`--spans`, `read_span_lines`) counted as it is read (with
    `ungrounded` where every line has a 'text': `_add_span_documents`)."""
    return _add_span_documents(total, read_span_lines(text_lines(handle, source), source), source)


def count_brat(total: Accumulator, reference_dir: str, prediction_dir: str, fragments: bool = False) -> SpanTotal:
    """`total` with two folders of BRAT standoff files (`--brat`, `nerscore.files.annotations`) counted as documents of
    spans, in chunks as they are read; discontinuous annotations, scored by their full extent (or with `fragments`,
    `--fragments`, by their fragments: docs/scoring.md §12), are a note on standard error."""
    pairs = read_brat_pairs(reference_dir, prediction_dir, fragments)
    discontinuous = [0, 0]

    def brat_documents() -> Iterator[SpanDocument]:
        for reference, prediction in pairs:
            discontinuous[0] += reference.discontinuous
            discontinuous[1] += prediction.discontinuous
            yield SpanDocument(1, reference.text, reference.spans, prediction.spans)

    counted = _add_span_documents(total, brat_documents(), "--brat")
    if any(discontinuous):
        note_discontinuous({"reference": discontinuous[0], "predicted": discontinuous[1]}, fragments)
    return counted


def note_discontinuous(counts: dict[str, int], fragments: bool) -> None:
    """The note on standard error of `--brat` and `agreement --brat` where annotations are discontinuous: how many
    (`counts`: by side or by annotator) and how they are scored (by their fragments, or their full extent)."""
    count = sum(counts.values())
    how = (
        "scored by their fragments (units shared, docs/scoring.md §12)"
        if fragments
        else "scored by their full extent, from the first fragment's start to the last one's end "
        "(--fragments scores them as discontinuous entities)"
    )
    each = ", ".join(f"{number} {name}" for name, number in counts.items())
    print(f"note: {count} discontinuous annotation{'s' * (count != 1)} ({each}) {how}", file=sys.stderr)


def count_label_studio(total: Accumulator, path: str, content: bytes | str | None = None) -> SpanTotal:
    """`total` with a Label Studio JSON export (`--label-studio`, `nerscore.files.annotations`) counted as documents of
    spans, each task's prediction against its annotation; tasks without either are left out, with a note on
    standard error. `content`: the export read already (standard input's, `path` then its name: <stdin>)."""
    text = decoded(content, path) if isinstance(content, bytes) else content
    tasks = list(read_label_studio(path) if text is None else label_studio_tasks(path, text))
    scored = [task for task in tasks if task.references is not None and task.predictions is not None]
    documents = [SpanDocument(task.line, task.text, task.references or [], task.predictions or []) for task in scored]
    counted = _add_span_documents(total, documents, path)
    if len(scored) < len(tasks):
        print(
            f"note: {len(tasks) - len(scored)} of {len(tasks)} tasks left out, without an annotation or a prediction",
            file=sys.stderr,
        )
    return counted


def count_systems(
    handles: Sequence[Iterable[bytes | str]],
    sources: Sequence[str],
    options: Options,
    flag: str,
    keep_sentences: bool = True,
    by_document: bool = False,
) -> Systems:
    """Read every system's file (--compare A B; --runs, then --runs-b) sentence by sentence, in step, checking
    that each holds the first file's tokens and reference tags, and count them a chunk at a time (with
    `by_document`, in the documents of the first file). Each unit's row: every system's (or run's) vector side by
    side (`PerSentence.side_by_side`)."""
    counts = [Accumulator(options.evolve(bootstrap=0)) for _ in sources]  # (totals: the units are kept apart)
    units: CountRuns | SentenceRuns | None = None
    documents: list[int] = []
    files = [
        _sentences(handle, source, documents if index == 0 and by_document else None)
        for index, (handle, source) in enumerate(zip(handles, sources))
    ]

    def in_step() -> Iterator[tuple[ConllSentence, ...]]:
        for sentences in zip_longest(*files):
            for index in range(1, len(files)):
                _check_same_sentence(sentences[0], sentences[index], (sources[0], sources[index]), flag)
            yield sentences

    for chunk in _chunks(in_step(), lambda sentences: len(sentences[0].tokens), _CLI_CHUNK_TOKENS):
        counted = [
            _count_sentences([sentences[index] for sentences in chunk], source, options, keep_sentences)
            for index, source in enumerate(sources)
        ]
        # Each system's totals; the units' counts of every system side by side, apart.
        counts = [
            total.add(found._replace(per_sentence=None, per_sentence_floats=None), len(chunk))
            for total, found in zip(counts, counted)
        ]
        if keep_sentences:
            ids = tuple(documents[-len(chunk) :]) if by_document else None  # the first file's, numbered last
            rows = PerSentence.side_by_side([PerSentence(*per_sentence_columns(found)) for found in counted], ids)
            units = add_units(units, SentenceRuns((rows,)) if by_document else CountRuns((rows.counts(),)))
    unit_counts = None if units is None else units.counts()
    if unit_counts is None:
        # (no sentence: each system's six counts, and docs/scoring.md §10's weighted columns when asked for)
        width = len(sources) * (len(SCENARIOS) + weighted_width(options))
        unit_counts = SentenceCounts.of(np.zeros((0, width), dtype=np.int64))
    return Systems(counts, unit_counts, counts[0].sentences, len(set(documents)))


def _check_same_sentence(
    sentence_a: ConllSentence | None, sentence_b: ConllSentence | None, sources: Sequence[str], flag: str = "--compare"
) -> None:
    """Both systems must be scored on the same sentences: a `ConllError` names B's first line that differs from
    A's (token or reference tag), and A's line it differs from."""
    source_a, source_b = sources
    if sentence_a is None or sentence_b is None:
        present, source, other = (
            (sentence_a, source_a, source_b) if sentence_b is None else (sentence_b, source_b, source_a)
        )
        assert present is not None
        problem = f"this sentence has no counterpart: {other} ends before it; {flag} {_SAME_SENTENCES}"
        raise ConllError(source, present.lines[0], problem)
    if sentence_a.tokens == sentence_b.tokens and sentence_a.references == sentence_b.references:
        return

    def line(sentence: ConllSentence, index: int) -> tuple[int, str]:
        if index >= len(sentence.tokens):
            return sentence.lines[-1] + 1, "the end of the sentence"
        return sentence.lines[index], f"token {sentence.tokens[index]!r} with reference {sentence.references[index]!r}"

    index = first_difference(
        *(list(zip(sentence.tokens, sentence.references)) for sentence in (sentence_a, sentence_b))
    )
    (line_a, found_a), (line_b, found_b) = line(sentence_a, index), line(sentence_b, index)
    raise ConllError(
        source_b, line_b, f"found {found_b} where {source_a}:{line_a} has {found_a}; {flag} {_SAME_SENTENCES}"
    )
