"""The command line, conlleval's drop-in: ``ner-semeval [FILE ...]`` (or ``python ner_semeval.py [FILE ...]``).

Its scoring flags are the fields of `nerscore.options.Options` that make sense for a file (each field's `Flag`);
the rest are what it reads (`--spans`, `--compare`) and prints (`--json`). Files are scored a chunk at a time as
they are read, so memory stays flat however large the file.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

import numpy as np

from ._version import __version__
from .annotations import read_brat_pairs, read_label_studio
from .columns import NO_COLUMNS, Columns
from .compute import count_batch, result_dict, scored_columns, sentence_vectors
from .conlleval import ConllevalError, count_conlleval, format_conlleval, lines_of
from .counts import Counted, Diagnostics, Tally, TokenCounts
from .errors import InvalidInputError
from .inputs import SPANS, STRINGS, TAGS, batch_form, check_span_options, check_tag_options
from .options import SPECS, Options, check_resamples
from .pairing import SCENARIOS
from .readers import ConllError, ConllSentence, SpanDocument, read_conll, read_span_lines, text_lines
from .resampling import SentenceCounts, comparison, unit_rows
from .runs import comparison_of, summary_of
from .slices import SliceCounts
from .tables import (
    format_comparison,
    format_confusion_table,
    format_diagnostics,
    format_errors,
    format_runs,
    format_runs_diagnostics,
    format_slice_table,
    format_table,
    format_type_table,
)

# Sentences are scored as they are read, this many tokens at a time: memory stays flat however large the file.
_CLI_CHUNK_TOKENS = 1 << 16
# JSON lines of spans likewise, this many entities (both sides) at a time.
_CLI_CHUNK_ENTITIES = 1 << 15
# --compare's resamples unless --bootstrap says otherwise: enough for a p-value of 0.0001 (Koehn 2004 used 1,000).
_COMPARE_RESAMPLES = 10_000
_SAME_SENTENCES = "needs the same tokens and reference column in both files"


def main(argv: Sequence[str] | None = None, prog: str = "ner-semeval") -> int:
    """conlleval's drop-in: ``ner-semeval [FILE ...]`` prints the summary table; returns the exit status."""
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.conlleval or any(getattr(args, name) not in (None, False) for name in _CONLLEVAL_FLAGS):
        return _conlleval(parser, args)
    if args.runs_b and not args.runs:
        parser.error("--runs-b compares with the runs of --runs: give both")
    if args.runs and (args.files or args.spans or args.compare or args.per_type or args.confusion or args.slices):
        parser.error(
            "--runs reads its own files and reports overall scores: drop FILE, --spans, --compare, --per-type, "
            "--confusion and --slices"
        )
    if args.compare and (args.files or args.spans or args.per_type or args.confusion or args.slices):
        parser.error(
            "--compare reads its own two files and reports overall scores: drop FILE, --spans, --per-type, "
            "--confusion and --slices (compare_semeval takes slices)"
        )
    if args.compare and (args.diagnostics or args.errors is not None):
        parser.error("--compare reports overall scores: drop --diagnostics and --errors")
    annotations = _annotation_flag(args)
    if annotations and (args.files or args.spans or args.compare or (args.brat and args.label_studio)):
        parser.error(f"{annotations} reads its own files: drop FILE, --spans, --compare and the other tool's flag")
    # Only what was given: the option table's defaults are Options' own.
    given = {
        name: value for name in flagged_options() if (value := getattr(args, name)) is not None and value is not False
    }
    total = FileTotals(spans=args.spans is not None or annotations is not None)
    total.units.by_document = args.by_document or total.spans
    try:
        if args.runs:
            compare = bool(args.runs_b)
            resamples = _COMPARE_RESAMPLES
            if compare:
                resamples = check_resamples("--bootstrap", given.pop("bootstrap", _COMPARE_RESAMPLES), 1)
            options = Options.of(**given)
            check_tag_options(options)
            names = [*args.runs, *(args.runs_b or [])]
            with contextlib.ExitStack() as stack:
                handles = [stack.enter_context(open(name, "rb")) for name in names]
                run_totals = _read_runs(handles, names, options, compare or options.bootstrap > 0, args.by_document)
        elif args.compare:
            resamples = check_resamples("--bootstrap", given.pop("bootstrap", _COMPARE_RESAMPLES), 1)
            options = Options.of(**given)
            check_tag_options(options)
            with open(args.compare[0], "rb") as handle_a, open(args.compare[1], "rb") as handle_b:
                paired = _read_files_in_step((handle_a, handle_b), args.compare, options, args.by_document)
        else:
            options = Options.of(**given)
            if total.spans:
                if args.files:
                    raise ValueError(f"found CoNLL files {args.files} with --spans; score tags or spans, not both")
                check_span_options(options)
            else:
                check_tag_options(options)
            if annotations:
                _read_annotations(args, options, total)
            for name in [] if annotations else [args.spans] if total.spans else args.files or ["-"]:
                source = "<stdin>" if name == "-" else name
                stdin = getattr(sys.stdin, "buffer", sys.stdin)
                with contextlib.nullcontext(stdin) if name == "-" else open(name, "rb") as handle:
                    (_read_span_file if total.spans else _read_tag_file)(handle, source, options, total)
    except (OSError, ValueError) as error:
        print(f"{error}" if isinstance(error, ConllError) else f"error: {error}", file=sys.stderr)
        return 2

    try:
        if args.runs:
            _print_runs(run_totals, options, resamples, args)
        elif args.compare:
            _print_comparison(paired, options, resamples, args)
        else:
            _print_results(total, options, args)
    except BrokenPipeError:  # `ner-semeval FILE | head`: the reader has seen enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except ValueError as error:  # what only the counts can show: --confusion with a type O, or too many types
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


def flagged_options() -> list[str]:
    """The options the command line takes, in the table's order."""
    return [name for name, spec in SPECS.items() if spec.flag is not None]


def flag_name(option: str) -> str:
    """``--min-overlap`` for ``min_overlap``."""
    return "--" + option.replace("_", "-")


def build_parser(prog: str = "ner-semeval") -> argparse.ArgumentParser:
    """The command line's arguments: files, the scoring flags of the option table, and what to read and print."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="SemEval-2013 NER scores of CoNLL columns: the last two columns of each line are the "
        "reference and the predicted tag; a blank line ends a sentence.",
    )
    parser.add_argument("files", nargs="*", help="CoNLL files (standard input when none)")
    parser.add_argument(
        "--spans",
        metavar="FILE.jsonl",
        help="score spans instead of tags: one JSON object a line with 'references' and 'predictions' lists of "
        'entities ({"start", "end", "type"} or [start, end, type], end exclusive) and an optional \'text\' '
        '(which string entities, ["type", "text"] or {"type", "text"}, need); - for standard input',
    )
    parser.add_argument(
        "--brat",
        nargs=2,
        metavar=("REFERENCE_DIR", "PREDICTION_DIR"),
        help="score the BRAT standoff .ann files of two folders (subfolders too, paired by their path) against the "
        ".txt files beside them: the T lines' entities, nested ones included",
    )
    parser.add_argument(
        "--label-studio",
        metavar="FILE.json",
        help="score a Label Studio JSON export: each task's prediction against its annotation",
    )
    for name in flagged_options():
        spec = SPECS[name]
        flag = spec.flag
        assert flag is not None
        if flag.switch:
            parser.add_argument(flag_name(name), dest=name, action="store_true", help=flag.help)
            continue
        help_text = flag.help
        if name == "bootstrap":
            help_text += (
                f"; with --compare, the resamples of the interval and of the test (default {_COMPARE_RESAMPLES})"
            )
        parser.add_argument(
            flag_name(name), dest=name, metavar=flag.metavar, type=flag.parse, choices=flag.choices, help=help_text
        )
    parser.add_argument("--json", action="store_true", help="print the compute() dict as JSON")
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="compare two systems' CoNLL files with the same tokens and reference column: A, B, the difference "
        "B - A with its interval, and the p-value of approximate randomization, per scheme and measure",
    )
    parser.add_argument(
        "--runs",
        nargs="+",
        metavar="A",
        help="several runs of one system (seeds): three-column CoNLL files with the same tokens and reference "
        "column; prints each scheme's mean ± standard deviation (with --bootstrap N, an interval of each mean)",
    )
    parser.add_argument(
        "--runs-b",
        nargs="+",
        metavar="B",
        help="with --runs: another system's runs; prints the means, B - A with its interval and the p-value "
        "(--bootstrap N sets the resamples, default 10,000)",
    )
    parser.add_argument(
        "--by-document",
        action="store_true",
        help="resample whole documents, not sentences: the documents of -DOCSTART- lines (sentences before the "
        "first form one of their own); JSON lines of spans carry theirs in a 'document' field, read when present",
    )
    parser.add_argument(
        "--conlleval",
        action="store_true",
        help="print what conlleval.pl prints for FILE (standard input when none), byte for byte: the file read as "
        "conlleval.pl reads it, its exit status where it stops (1: another number of fields, 255: one field)",
    )
    for short, name, kind, text in _CONLLEVAL_ARGUMENTS:
        if kind == "switch":
            parser.add_argument(short, dest=name, action="store_true", help=text)
        else:
            parser.add_argument(short, dest=name, metavar=kind, help=text)
    parser.add_argument("--version", action="version", version=f"ner-semeval {__version__}")
    return parser


# conlleval.pl's own flags, taken with --conlleval: (flag, destination, metavar or "switch", help).
_CONLLEVAL_ARGUMENTS = [
    (
        "-d",
        "conlleval_delimiter",
        "DELIM",
        "with --conlleval: the column delimiter, a regular expression as in conlleval.pl (default one space; "
        "-d '\\t' for tabs)",
    ),
    ("-o", "conlleval_outside", "TAG", "with --conlleval -r: the outside tag (default O)"),
    ("-r", "conlleval_raw", "switch", "with --conlleval: raw tags, without prefixes, each token a phrase"),
    ("-l", "conlleval_latex", "switch", "with --conlleval: conlleval.pl's LaTeX table"),
]
_CONLLEVAL_FLAGS = [name for _, name, _, _ in _CONLLEVAL_ARGUMENTS]


# ---------------------------------------------------------------------------------------------------------
# Reading and counting files a chunk at a time
# ---------------------------------------------------------------------------------------------------------


def _no_sentences(width: int = len(SCENARIOS)) -> SentenceCounts:
    return SentenceCounts.of(np.zeros((0, width), dtype=np.int64))


def _count_sentences(sentences: list[ConllSentence], source: str, options: Options, by_sentence: bool) -> Counted:
    """Count one chunk of a file's sentences (and each one's scenarios with `by_sentence`); a bad tag is a
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
        return count_batch(predictions, references, TAGS, options, by_sentence, columns)[0]
    except InvalidInputError as error:
        if error.sentence is None or error.token is None:
            raise
        line = sentences[error.sentence].lines[error.token]
        column = "reference (second last)" if error.side == "references" else "predicted (last)"
        raise ConllError(source, line, f"{column} column: {error.hint('use --scheme {}')}") from None


@dataclass
class UnitCounts:
    """The units' counts as they are read (docs/scoring.md §9): each sentence's, kept as the distinct vectors (so
    memory follows those, not the sentences), or `by_document` each sentence's row and document id until the
    end, when each document's rows are summed (48 bytes a sentence and system: a document's sentences may be
    anywhere, as JSON lines' 'document' fields may put them)."""

    width: int = len(SCENARIOS)
    by_document: bool = False
    distinct: SentenceCounts | None = None
    rows: list[np.ndarray] = dataclasses.field(default_factory=list)
    ids: list[Any] = dataclasses.field(default_factory=list)

    weighted: list[np.ndarray] = dataclasses.field(default_factory=list)

    def add(self, by_sentence: np.ndarray, ids: Sequence[Any], weighted: np.ndarray | None = None) -> None:
        """A chunk's sentence rows, their ids, and with docs/scoring.md §10's options their weighted columns."""
        if self.by_document:
            self.rows.append(by_sentence)
            self.ids.extend(ids)
            if weighted is not None:
                self.weighted.append(weighted)
            return
        counts = SentenceCounts.of(by_sentence, weighted)
        self.distinct = counts if self.distinct is None else _added(self.distinct, counts)

    def counts(self) -> SentenceCounts:
        if not self.by_document:
            return self.distinct if self.distinct is not None else _no_sentences(self.width)
        width = self.rows[0].shape[1] if self.rows else self.width
        rows = np.vstack(self.rows) if self.rows else np.zeros((0, width), dtype=np.int64)
        weighted = unit_rows(np.vstack(self.weighted), self.ids) if self.weighted else None
        return SentenceCounts.of(unit_rows(rows, self.ids), weighted)

    @property
    def documents(self) -> int:
        """How many documents were read (by_document)."""
        return len(set(self.ids))


@dataclass
class FileTotals:
    """What the command line accumulates while it reads: the cells and how much it read; with --bootstrap the
    units' counts too (`UnitCounts`)."""

    cells: Counter = dataclasses.field(default_factory=Counter)
    sentences: int = 0
    tokens: int = 0
    units: UnitCounts = dataclasses.field(default_factory=UnitCounts)
    spans: bool = False  # read from JSON lines of spans (`--spans`): sentences are documents, no tokens
    token_counts: TokenCounts = dataclasses.field(default_factory=TokenCounts)  # of tags, for token_accuracy
    ungrounded: int | None = None  # of string entities (docs/scoring.md §1b), with JSON lines that hold them
    slices: SliceCounts | None = None  # with --slices, the counts of every bucket
    weighted: Tally = dataclasses.field(default_factory=Tally)  # docs/scoring.md §10's credit and value cells
    # With --diagnostics and --errors (docs/scoring.md §11): what the tally adds beside its cells.
    diagnostics: Diagnostics | None = None
    errors: Counter | None = None
    files: int = 0  # files read so far: CoNLL documents are numbered within their file

    def add(self, sentences: list[ConllSentence], source: str, options: Options, ids: Sequence[Any] = ()) -> None:
        """Count one chunk of sentences (of documents `ids` with --by-document); a bad tag is a `ConllError`
        naming the line."""
        self._add(_count_sentences(sentences, source, options, by_sentence=options.bootstrap > 0), ids)
        self.sentences += len(sentences)
        self.tokens += sum(len(sentence.tokens) for sentence in sentences)

    def add_spans(self, documents: list[SpanDocument], source: str, options: Options) -> None:
        """Count one chunk of documents (lines); a bad entity is a `ConllError` naming the line. A line without
        a 'document' field is a document of its own."""
        references = [document.references for document in documents]
        predictions = [document.predictions for document in documents]
        texts = [document.text for document in documents]
        form = SPANS
        if batch_form(predictions, references) == STRINGS:  # string entities, found in each line's text (§1b)
            form = STRINGS
            if None in texts:
                line = documents[texts.index(None)].line
                raise ConllError(source, line, "found string entities and no 'text'; expected the text")
        if options.errors and None in texts:
            line = documents[texts.index(None)].line
            raise ConllError(source, line, "found no 'text'; --errors names each entity by its text")
        columns = Columns(texts=tuple(str(text) for text in texts)) if None not in texts else Columns()
        try:
            if options.slices:
                columns = scored_columns(predictions, references, SPANS, options, columns)
            counted, _ = count_batch(
                predictions, references, form, options, by_sentence=options.bootstrap > 0, columns=columns
            )
        except InvalidInputError as error:
            if error.sentence is None:
                raise
            line = documents[error.sentence].line
            raise ConllError(source, line, f"{error.side}, entity {error.entity}: {error.problem}") from None
        ids = [
            ("line", self.sentences + index) if document.document is None else ("document", document.document)
            for index, document in enumerate(documents)
        ]
        self._add(counted, ids)
        self.sentences += len(documents)

    def _add(self, counted: Counted, ids: Sequence[Any]) -> None:
        self.cells.update(counted.tally.cells)
        if counted.tally.ungrounded is not None:
            self.ungrounded = (self.ungrounded or 0) + counted.tally.ungrounded
        if counted.tally.tokens is not None:
            self.token_counts += counted.tally.tokens
        self.weighted += _weighted_part(counted.tally)
        if counted.by_sentence is not None:
            # With §10's weighted columns or slices, the vectors are wider than six columns (`sentence_vectors`).
            ints, floats = sentence_vectors(counted)
            self.units.add(ints, ids, floats)
        if counted.slices is not None:
            counted_slices = counted.slices._replace_sentences()
            self.slices = counted_slices if self.slices is None else self.slices + counted_slices
        found = counted.tally
        if found.diagnostics is not None:
            self.diagnostics = found.diagnostics + (self.diagnostics or Diagnostics())
        if found.errors is not None:
            self.errors = self.errors if self.errors is not None else Counter()
            self.errors.update(found.errors)

    @property
    def tally(self) -> Tally:
        tokens = None if self.spans else self.token_counts
        return Tally(
            dict(self.cells),
            tokens,
            credit=self.weighted.credit,
            value_cells=self.weighted.value_cells,
            diagnostics=self.diagnostics,
            errors=None if self.errors is None else dict(self.errors),
            ungrounded=self.ungrounded,
        )


def _weighted_part(tally: Tally) -> Tally:
    """What docs/scoring.md §10 adds to a tally, alone (its cells left out)."""
    return Tally({}, None, credit=tally.credit, value_cells=tally.value_cells)


def _added(total: SentenceCounts, part: SentenceCounts) -> SentenceCounts:
    """The per-sentence counts so far and a chunk's: with §10's weighted columns, the first chunk's width wins
    over the empty start's."""
    return part if not total.size and total.vectors.shape[1] != part.vectors.shape[1] else total + part


@dataclass
class PairedTotals:
    """What --compare accumulates while it reads two files in step: each system's cells, how much it read, and
    the two systems' per-sentence counts side by side (as distinct pairs of vectors)."""

    cells_a: Counter = dataclasses.field(default_factory=Counter)
    cells_b: Counter = dataclasses.field(default_factory=Counter)
    sentences: int = 0
    tokens: int = 0
    units: UnitCounts = dataclasses.field(default_factory=lambda: UnitCounts(2 * len(SCENARIOS)))
    weighted_a: Tally = dataclasses.field(default_factory=Tally)
    weighted_b: Tally = dataclasses.field(default_factory=Tally)

    def add(
        self,
        sentences: list[tuple[ConllSentence, ConllSentence]],
        sources: Sequence[str],
        options: Options,
        ids: Sequence[Any] = (),
    ) -> None:
        counted_a, counted_b = (
            _count_sentences([pair[side] for pair in sentences], sources[side], options, by_sentence=True)
            for side in (0, 1)
        )
        self.cells_a.update(counted_a.tally.cells)
        self.cells_b.update(counted_b.tally.cells)
        assert counted_a.by_sentence is not None and counted_b.by_sentence is not None  # counted by_sentence
        self.weighted_a += _weighted_part(counted_a.tally)
        self.weighted_b += _weighted_part(counted_b.tally)
        if counted_a.weighted is None or counted_b.weighted is None:
            self.units.add(np.hstack((counted_a.by_sentence, counted_b.by_sentence)), ids)
        else:  # docs/scoring.md §10: each system's six counts, then its weighted columns
            columns = (counted_a.by_sentence, counted_a.weighted, counted_b.by_sentence, counted_b.weighted)
            self.units.add(np.zeros((len(columns[0]), 0), dtype=np.int64), ids, np.hstack(columns))
        self.sentences += len(sentences)
        self.tokens += sum(len(a.tokens) for a, _ in sentences)


@dataclass
class RunTotals:
    """What --runs accumulates while it reads every run's file in step: each run's cells, how much it read, and
    with the statistics every run's counts side by side for each unit."""

    names: list[str]
    runs_a: int
    cells: list[Counter]
    units: UnitCounts
    sentences: int = 0
    tokens: int = 0
    token_counts: list[TokenCounts] = dataclasses.field(default_factory=list)  # each run's, for token_accuracy
    diagnostics: list[Diagnostics] = dataclasses.field(default_factory=list)  # each run's, with --diagnostics


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


def _read_tag_file(handle: Iterable[bytes | str], source: str, options: Options, total: FileTotals) -> None:
    documents: list[int] = []
    sentences = read_conll(text_lines(handle, source), source, documents if total.units.by_document else None)
    file, read = total.files, 0
    total.files += 1
    for chunk in _chunks(sentences, lambda sentence: len(sentence.tokens), _CLI_CHUNK_TOKENS):
        # The reader has numbered exactly the sentences it gave: those of this chunk are the last.
        total.add(chunk, source, options, [(file, document) for document in documents[read : read + len(chunk)]])
        read += len(chunk)


def _read_span_file(handle: Iterable[bytes | str], source: str, options: Options, total: FileTotals) -> None:
    """Score a JSON lines file of span lists (`--spans`, `read_span_lines`), in chunks of about
    `_CLI_CHUNK_ENTITIES` entities as they are read."""
    documents = read_span_lines(text_lines(handle, source), source)
    for chunk in _chunks(
        documents, lambda document: len(document.references) + len(document.predictions), _CLI_CHUNK_ENTITIES
    ):
        total.add_spans(chunk, source, options)


def _annotation_flag(args: argparse.Namespace) -> str | None:
    """The annotation tool's flag given (--brat or --label-studio), if any."""
    if args.brat:
        return "--brat"
    return "--label-studio" if args.label_studio is not None else None


def _read_annotations(args: argparse.Namespace, options: Options, total: FileTotals) -> None:
    """Score an annotation tool's files (`--brat`, `--label-studio`; `nerscore.annotations`) as documents of
    spans, in chunks as they are read; what a user must know of how they were read (discontinuous annotations
    by their full extent, tasks left out) is a line on standard error."""

    def size(document: SpanDocument) -> int:
        return len(document.references) + len(document.predictions)

    if args.brat:
        pairs = read_brat_pairs(*args.brat)
        discontinuous = [0, 0]

        def brat_documents() -> Iterator[SpanDocument]:
            for reference, prediction in pairs:
                discontinuous[0] += reference.discontinuous
                discontinuous[1] += prediction.discontinuous
                yield SpanDocument(1, reference.text, reference.spans, prediction.spans)

        for chunk in _chunks(brat_documents(), size, _CLI_CHUNK_ENTITIES):
            total.add_spans(chunk, "--brat", options)
        if any(discontinuous):
            count = sum(discontinuous)
            print(
                f"note: {count} discontinuous annotation{'s' * (count != 1)} ({discontinuous[0]} reference, "
                f"{discontinuous[1]} predicted) scored by their full extent, from the first fragment's start to "
                "the last one's end",
                file=sys.stderr,
            )
        return
    tasks = list(read_label_studio(args.label_studio))
    scored = [task for task in tasks if task.references is not None and task.predictions is not None]
    documents = [SpanDocument(task.line, task.text, task.references or [], task.predictions or []) for task in scored]
    for chunk in _chunks(documents, size, _CLI_CHUNK_ENTITIES):
        total.add_spans(chunk, args.label_studio, options)
    if len(scored) < len(tasks):
        print(
            f"note: {len(tasks) - len(scored)} of {len(tasks)} tasks left out, without an annotation or a prediction",
            file=sys.stderr,
        )


def _read_files_in_step(
    handles: Sequence[Iterable[bytes | str]], sources: Sequence[str], options: Options, by_document: bool = False
) -> PairedTotals:
    """Read two systems' files sentence by sentence, in step, checking that they hold the same tokens and
    reference tags, and count them a chunk at a time (with `by_document`, in the documents of A's file)."""
    total = PairedTotals()
    total.units.by_document = by_document
    documents: list[int] = []
    files = [
        read_conll(text_lines(handle, source), source, documents if index == 0 and by_document else None)
        for index, (handle, source) in enumerate(zip(handles, sources))
    ]
    read = 0
    for chunk in _chunks(_same_sentences(files, sources), lambda pair: len(pair[0].tokens), _CLI_CHUNK_TOKENS):
        total.add(chunk, sources, options, documents[read : read + len(chunk)])
        read += len(chunk)
    return total


def _read_runs(
    handles: Sequence[Iterable[bytes | str]],
    sources: list[str],
    options: Options,
    by_sentence: bool,
    by_document: bool,
) -> RunTotals:
    """Read every run's file (--runs, then --runs-b) sentence by sentence, in step, checking that each holds the
    first file's tokens and reference tags, and count them a chunk at a time."""
    runs = len(sources)
    total = RunTotals(list(sources), 0, [Counter() for _ in range(runs)], UnitCounts(runs * len(SCENARIOS)))
    total.units.by_document = by_document
    total.token_counts = [TokenCounts() for _ in range(runs)]
    total.diagnostics = [Diagnostics() for _ in range(runs)]
    documents: list[int] = []
    files = [
        read_conll(text_lines(handle, source), source, documents if index == 0 and by_document else None)
        for index, (handle, source) in enumerate(zip(handles, sources))
    ]

    def in_step() -> Iterator[tuple[ConllSentence, ...]]:
        for sentences in zip_longest(*files):
            for index in range(1, runs):
                _check_same_sentence(sentences[0], sentences[index], (sources[0], sources[index]), "--runs")
            yield sentences

    read = 0
    for chunk in _chunks(in_step(), lambda sentences: len(sentences[0].tokens), _CLI_CHUNK_TOKENS):
        rows: list[np.ndarray] = []
        for index in range(runs):
            counted = _count_sentences([sentences[index] for sentences in chunk], sources[index], options, by_sentence)
            total.cells[index].update(counted.tally.cells)
            if counted.tally.tokens is not None:
                total.token_counts[index] += counted.tally.tokens
            if counted.tally.diagnostics is not None:
                total.diagnostics[index] += counted.tally.diagnostics
            if counted.by_sentence is not None:
                rows.append(counted.by_sentence)
        if by_sentence:
            total.units.add(np.hstack(rows), documents[read : read + len(chunk)])
        read += len(chunk)
        total.sentences += len(chunk)
        total.tokens += sum(len(sentences[0].tokens) for sentences in chunk)
    return total


def _same_sentences(
    files: Sequence[Iterator[ConllSentence]], sources: Sequence[str]
) -> Iterator[tuple[ConllSentence, ConllSentence]]:
    for sentence_a, sentence_b in zip_longest(*files):
        _check_same_sentence(sentence_a, sentence_b, sources)
        yield sentence_a, sentence_b


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
        if index < len(sentence.tokens):
            return sentence.lines[
                index
            ], f"token {sentence.tokens[index]!r} with reference {sentence.references[index]!r}"
        return sentence.lines[-1] + 1, "the end of the sentence"

    index = next(
        index
        for index in range(max(len(sentence_a.tokens), len(sentence_b.tokens)))
        if line(sentence_a, index)[1] != line(sentence_b, index)[1]
    )
    (line_a, found_a), (line_b, found_b) = line(sentence_a, index), line(sentence_b, index)
    raise ConllError(
        source_b, line_b, f"found {found_b} where {source_a}:{line_a} has {found_a}; {flag} {_SAME_SENTENCES}"
    )


# ---------------------------------------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------------------------------------


def _print_results(total: FileTotals, options: Options, args: argparse.Namespace) -> None:
    tally = total.tally
    units = total.units.counts()
    if args.json:
        result = result_dict(tally, options, units, slices=total.slices)
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    # The tables show every type, whether or not --per-type asks for the keys.
    results = result_dict(tally, options.evolve(per_type=True), units, slices=total.slices)
    counts = tally.counts("strict")  # POS and ACT are the same under every scheme (docs/scoring.md §4)
    entities = f"{counts.possible} reference and {counts.actual} predicted entities"
    read = f"{total.sentences} documents" if total.spans else f"{total.tokens} tokens in {total.sentences} sentences"
    # The scheme and mode as written on the command line, as they always were printed.
    settings = ["spans"] if total.spans else [args.scheme or options.scheme.name, args.mode or options.mode]
    if options.min_overlap is not None:
        settings.append(f"min overlap {options.min_overlap:g}")
    if tally.ungrounded is not None:  # string entities (docs/scoring.md §1b)
        settings[0] = "strings, normalized" if options.normalize else "strings"
        settings.append(f"{tally.ungrounded} ungrounded")
    print(f"processed {read} with {entities} ({', '.join(settings)})")
    if options.bootstrap:
        resampled = f"{total.sentences} {'documents' if total.spans else 'sentences'}"
        if args.by_document and not total.spans:
            resampled = f"{total.units.documents} documents (-DOCSTART- lines) of {total.sentences} sentences"
        elif total.spans and total.units.documents < total.sentences:
            resampled = f"{total.units.documents} documents ('document' fields) of {total.sentences} lines"
        print(
            f"{options.confidence_level:.0%} intervals: BCa bootstrap of the {resampled}, "
            f"{options.bootstrap} resamples, seed {options.seed}"
        )
    print()
    print(format_table(results, options.beta))
    entity_types = sorted(dict.fromkeys(options.labels)) if options.labels is not None else tally.entity_types
    # The strict table, or the first scheme asked for when --evaluation-schemes leaves strict out.
    for scheme in options.evaluation_schemes if args.per_type else options.evaluation_schemes[:1]:
        if entity_types:
            print()
            print(format_type_table(results, entity_types, scheme, options.beta))
    if args.confusion:
        print()
        print(format_confusion_table(results["confusion"]))
    if options.diagnostics:
        print()
        print(format_diagnostics(results))
    if options.errors:
        print()
        print(format_errors(results["errors"]))
    for name, buckets in results.get("slices", {}).items():
        print()
        print(format_slice_table(name, buckets, options.beta))
    sys.stdout.flush()  # a closed pipe shows here, inside the BrokenPipeError handler


def _conlleval(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``--conlleval``: conlleval.pl's report of the files (standard input when none), read as
    ``cat FILE ... | conlleval.pl`` would read them (`nerscore.conlleval`); its exit status where it stops."""
    flags = {action.dest: action.option_strings[0] for action in parser._actions if action.option_strings}
    if not args.conlleval:
        given = [flags[name] for name in _CONLLEVAL_FLAGS if getattr(args, name) not in (None, False)]
        parser.error(f"{', '.join(given)}: conlleval.pl's flags, taken with --conlleval")
    defaults = vars(parser.parse_args([]))
    kept = {"files", "conlleval", *_CONLLEVAL_FLAGS}
    others = [
        flags.get(name, name) for name, value in vars(args).items() if name not in kept and value != defaults[name]
    ]
    if others:
        parser.error(
            f"--conlleval prints conlleval.pl's report and takes -d, -o, -r, -l and FILE: drop {', '.join(others)}"
        )

    def handles() -> Iterator[Iterable[bytes]]:
        for name in args.files or ["-"]:
            if name == "-":
                yield sys.stdin.buffer
            else:
                with open(name, "rb") as handle:
                    yield handle

    delimiter = b" " if args.conlleval_delimiter is None else os.fsencode(args.conlleval_delimiter)
    outside = b"O" if args.conlleval_outside is None else os.fsencode(args.conlleval_outside)
    try:
        counts = count_conlleval(lines_of(handles()), delimiter, outside, args.conlleval_raw)
    except ConllevalError as error:
        sys.stderr.flush()
        sys.stderr.buffer.write(error.message)
        sys.stderr.flush()
        return error.status
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        sys.stdout.flush()
        sys.stdout.buffer.write(format_conlleval(counts, args.conlleval_latex))
        sys.stdout.flush()
    except BrokenPipeError:  # `ner-semeval --conlleval FILE | head -1`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _print_comparison(paired: PairedTotals, options: Options, resamples: int, args: argparse.Namespace) -> None:
    tally_a = Tally(
        dict(paired.cells_a), None, credit=paired.weighted_a.credit, value_cells=paired.weighted_a.value_cells
    )
    tally_b = Tally(
        dict(paired.cells_b), None, credit=paired.weighted_b.credit, value_cells=paired.weighted_b.value_cells
    )
    results = comparison(tally_a, tally_b, paired.units.counts(), options, resamples, options.seed)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
        return
    name_a, name_b = args.compare
    scheme, mode = args.scheme or options.scheme.name, args.mode or options.mode
    print(
        f"compared {name_a} (A) and {name_b} (B): {paired.sentences} sentences, {paired.tokens} tokens, "
        f"{tally_a.counts('strict').possible} reference entities ({scheme}, {mode})"
    )
    print(
        f"B - A: {options.confidence_level:.0%} paired bootstrap interval (BCa) and two-sided approximate "
        f"randomization p-value, {resamples} resamples, seed {options.seed}"
    )
    if args.by_document:
        print(f"resampled and swapped: whole documents, {paired.units.documents} (-DOCSTART- lines)")
    print()
    print(format_comparison(results, options.beta))
    sys.stdout.flush()


def _print_runs(total: RunTotals, options: Options, resamples: int, args: argparse.Namespace) -> None:
    """--runs: each scheme's mean ± standard deviation over the runs; with --runs-b, the comparison of the two
    systems' runs (nerscore.runs)."""
    runs_a = len(args.runs)
    found = total.diagnostics if options.diagnostics else [None] * len(total.cells)
    tallies = [
        Tally(dict(cells), tokens, diagnostics=diagnostics)
        for cells, tokens, diagnostics in zip(total.cells, total.token_counts, found)
    ]
    statistics = bool(args.runs_b) or options.bootstrap > 0
    units = total.units.counts() if statistics else None
    if args.runs_b:
        assert units is not None
        results = comparison_of(tallies[:runs_a], tallies[runs_a:], units, options, resamples, options.seed)
    else:
        results = summary_of(tallies, units, options)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
        return
    scheme, mode = args.scheme or options.scheme.name, args.mode or options.mode
    read = (
        f"{total.sentences} sentences, {total.tokens} tokens, {tallies[0].counts('strict').possible} reference "
        f"entities ({scheme}, {mode})"
    )
    unit = (
        f"{total.units.documents} documents (-DOCSTART- lines)" if args.by_document else f"{total.sentences} sentences"
    )
    if not args.runs_b:
        print(f"{runs_a} runs: {read}")
        if options.bootstrap:
            print(
                f"{options.confidence_level:.0%} intervals of the mean: BCa bootstrap of the runs, then of the "
                f"{unit}, {options.bootstrap} resamples, seed {options.seed}"
            )
        print()
        print(format_runs(results, options.beta))
        if options.diagnostics:  # summarize_runs' means of the counts (docs/scoring.md §11)
            print()
            print(format_runs_diagnostics(results))
    else:
        print(f"compared {runs_a} runs of A and {len(args.runs_b)} runs of B: {read}")
        test = (
            "approximate randomization (one run a side)"
            if runs_a == len(args.runs_b) == 1
            else "t test of the runs and the units"
        )
        print(
            f"B - A: difference of the means, {options.confidence_level:.0%} bootstrap interval (BCa) of the runs, "
            f"then of the {unit}, and two-sided p-value ({test}), {resamples} resamples, seed {options.seed}"
        )
        print()
        renamed = {
            key.removesuffix("_mean"): value for key, value in results.items() if key.endswith(("_a_mean", "_b_mean"))
        }
        print(format_comparison({**results, **renamed}, options.beta))
    sys.stdout.flush()
