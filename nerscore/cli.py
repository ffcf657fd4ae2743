"""The command line, conlleval's drop-in: ``ner-semeval [FILE ...]`` (or ``python ner_semeval.py [FILE ...]``).

Its scoring flags are the fields of `nerscore.options.Options` that make sense for a file (each field's `Flag`);
the rest are what it reads (`--spans`, `--compare`) and prints (`--json`). Files are scored a chunk at a time as
they are read, so memory stays flat however large the file.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import zip_longest
from typing import Any, NamedTuple

import numpy as np

from ._version import __version__
from .accumulator import Accumulator, SentenceRows, Units, add_units
from .annotations import read_brat_pairs, read_label_studio
from .columns import NO_COLUMNS, Columns
from .compute import count_batch, result_dict, scored_columns, sentence_vectors
from .conlleval import ConllevalError, count_conlleval, format_conlleval, lines_of
from .counts import Counted, Diagnostics, Tally, TokenCounts
from .errors import InvalidInputError
from .inputs import SPANS, STRINGS, TAGS, batch_form, check_span_options, check_tag_options
from .option_checks import check_resamples
from .options import SPECS, Options
from .pairing import SCENARIOS
from .readers import ConllError, ConllSentence, SpanDocument, read_conll, read_span_lines, text_lines
from .resampling import SentenceCounts, comparison
from .runs import comparison_of, summary_of
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
    spans = args.spans is not None or annotations is not None
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
                systems = _read_systems(
                    handles, names, options, "--runs", compare or options.bootstrap > 0, args.by_document
                )
        elif args.compare:
            resamples = check_resamples("--bootstrap", given.pop("bootstrap", _COMPARE_RESAMPLES), 1)
            options = Options.of(**given)
            check_tag_options(options)
            with open(args.compare[0], "rb") as handle_a, open(args.compare[1], "rb") as handle_b:
                systems = _read_systems(
                    (handle_a, handle_b), args.compare, options, "--compare", True, args.by_document
                )
        else:
            options = Options.of(**given)
            if spans:
                if args.files:
                    raise ValueError(f"found CoNLL files {args.files} with --spans; score tags or spans, not both")
                check_span_options(options)
            else:
                check_tag_options(options)
            total = Accumulator(options)
            if annotations:
                total = _read_annotations(args, total)
            for file, name in enumerate([] if annotations else [args.spans] if spans else args.files or ["-"]):
                source = "<stdin>" if name == "-" else name
                stdin = getattr(sys.stdin, "buffer", sys.stdin)
                with contextlib.nullcontext(stdin) if name == "-" else open(name, "rb") as handle:
                    if spans:
                        total = _read_span_file(handle, source, total)
                    else:
                        total = _read_tag_file(handle, source, total, file, args.by_document)
    except (OSError, ValueError) as error:
        print(f"{error}" if isinstance(error, ConllError) else f"error: {error}", file=sys.stderr)
        return 2

    try:
        if args.runs:
            _print_runs(systems, options, resamples, args)
        elif args.compare:
            _print_comparison(systems, options, resamples, args)
        else:
            _print_results(total, spans, args)
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


def _add_sentences(
    total: Accumulator, sentences: list[ConllSentence], source: str, ids: Sequence[Any] | None = None
) -> Accumulator:
    """`total` with one chunk of a file's sentences counted (of documents `ids` with --by-document); a bad tag is
    a `ConllError` naming the line."""
    options = total.options
    return total.add(_count_sentences(sentences, source, options, options.bootstrap > 0), len(sentences), ids)


def _add_spans(total: Accumulator, documents: list[SpanDocument], source: str) -> Accumulator:
    """`total` with one chunk of documents (lines) counted; a bad entity is a `ConllError` naming the line. A line
    without a 'document' field is a document of its own."""
    options = total.options
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
        ("line", total.sentences + index) if document.document is None else ("document", document.document)
        for index, document in enumerate(documents)
    ]
    return total.add(counted, len(documents), ids)


def _tokens(total: Accumulator) -> int:
    """The tokens read into `total`: tags' tokens are all compared (`ignore_index` is for ids)."""
    return 0 if total.tally is None or total.tally.tokens is None else total.tally.tokens.tokens


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


def _read_tag_file(
    handle: Iterable[bytes | str], source: str, total: Accumulator, file: int, by_document: bool
) -> Accumulator:
    """`total` with a CoNLL file counted a chunk at a time as it is read (the `file`th read: with `by_document`
    its documents are numbered within it)."""
    documents: list[int] = []
    sentences = read_conll(text_lines(handle, source), source, documents if by_document else None)
    read = 0
    for chunk in _chunks(sentences, lambda sentence: len(sentence.tokens), _CLI_CHUNK_TOKENS):
        # The reader has numbered exactly the sentences it gave: those of this chunk are the last.
        ids = [(file, document) for document in documents[read : read + len(chunk)]] if by_document else None
        total = _add_sentences(total, chunk, source, ids)
        read += len(chunk)
    return total


def _read_span_file(handle: Iterable[bytes | str], source: str, total: Accumulator) -> Accumulator:
    """`total` with a JSON lines file of span lists (`--spans`, `read_span_lines`) counted in chunks of about
    `_CLI_CHUNK_ENTITIES` entities as they are read."""
    documents = read_span_lines(text_lines(handle, source), source)
    for chunk in _chunks(
        documents, lambda document: len(document.references) + len(document.predictions), _CLI_CHUNK_ENTITIES
    ):
        total = _add_spans(total, chunk, source)
    return total


def _annotation_flag(args: argparse.Namespace) -> str | None:
    """The annotation tool's flag given (--brat or --label-studio), if any."""
    if args.brat:
        return "--brat"
    return "--label-studio" if args.label_studio is not None else None


def _read_annotations(args: argparse.Namespace, total: Accumulator) -> Accumulator:
    """`total` with an annotation tool's files (`--brat`, `--label-studio`; `nerscore.annotations`) counted as
    documents of spans, in chunks as they are read; what a user must know of how they were read (discontinuous
    annotations by their full extent, tasks left out) is a line on standard error."""

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
            total = _add_spans(total, chunk, "--brat")
        if any(discontinuous):
            count = sum(discontinuous)
            print(
                f"note: {count} discontinuous annotation{'s' * (count != 1)} ({discontinuous[0]} reference, "
                f"{discontinuous[1]} predicted) scored by their full extent, from the first fragment's start to "
                "the last one's end",
                file=sys.stderr,
            )
        return total
    tasks = list(read_label_studio(args.label_studio))
    scored = [task for task in tasks if task.references is not None and task.predictions is not None]
    documents = [SpanDocument(task.line, task.text, task.references or [], task.predictions or []) for task in scored]
    for chunk in _chunks(documents, size, _CLI_CHUNK_ENTITIES):
        total = _add_spans(total, chunk, args.label_studio)
    if len(scored) < len(tasks):
        print(
            f"note: {len(tasks) - len(scored)} of {len(tasks)} tasks left out, without an annotation or a prediction",
            file=sys.stderr,
        )
    return total


def _read_systems(
    handles: Sequence[Iterable[bytes | str]],
    sources: Sequence[str],
    options: Options,
    flag: str,
    by_sentence: bool = True,
    by_document: bool = False,
) -> Systems:
    """Read every system's file (--compare A B; --runs, then --runs-b) sentence by sentence, in step, checking
    that each holds the first file's tokens and reference tags, and count them a chunk at a time (with
    `by_document`, in the documents of the first file). Each unit's row: --compare's, each system's vector
    (`SentenceRows.beside`); --runs', every run's six scenario counts."""
    counts = [Accumulator(options) for _ in sources]
    units: Units | None = None
    documents: list[int] = []
    files = [
        read_conll(text_lines(handle, source), source, documents if index == 0 and by_document else None)
        for index, (handle, source) in enumerate(zip(handles, sources))
    ]

    def in_step() -> Iterator[tuple[ConllSentence, ...]]:
        for sentences in zip_longest(*files):
            for index in range(1, len(files)):
                _check_same_sentence(sentences[0], sentences[index], (sources[0], sources[index]), flag)
            yield sentences

    read = 0
    for chunk in _chunks(in_step(), lambda sentences: len(sentences[0].tokens), _CLI_CHUNK_TOKENS):
        counted = [
            _count_sentences([sentences[index] for sentences in chunk], source, options, by_sentence)
            for index, source in enumerate(sources)
        ]
        # Each system's totals; the units' counts of every system side by side, apart.
        counts = [
            total.add(found._replace(by_sentence=None, weighted=None), len(chunk))
            for total, found in zip(counts, counted)
        ]
        if by_sentence:
            ids = tuple(documents[read : read + len(chunk)]) if by_document else None
            if flag == "--compare":
                rows_a, rows_b = (SentenceRows(*sentence_vectors(found), ids) for found in counted)
                rows = rows_a.beside(rows_b)
            else:
                scenarios = [found.by_sentence for found in counted if found.by_sentence is not None]
                rows = SentenceRows(np.hstack(scenarios), None, ids)
            units = add_units(units, rows if by_document else rows.counts())
        read += len(chunk)
    unit_counts = units.counts() if isinstance(units, SentenceRows) else units
    if unit_counts is None:
        unit_counts = SentenceCounts.of(np.zeros((0, len(sources) * len(SCENARIOS)), dtype=np.int64))
    return Systems(counts, unit_counts, read, len(set(documents)))


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


def _print_results(total: Accumulator, spans: bool, args: argparse.Namespace) -> None:
    options = total.options
    # Tags count their tokens (token_accuracy), read or not.
    tally = total.tally or Tally({}, None if spans else TokenCounts())
    units = total.unit_counts()
    if args.json:
        result = result_dict(tally, options, units, slices=total.slices)
        print(json.dumps(result, indent=2, ensure_ascii=False))
        return
    # The tables show every type, whether or not --per-type asks for the keys.
    results = result_dict(tally, options.evolve(per_type=True), units, slices=total.slices)
    counts = tally.counts("strict")  # POS and ACT are the same under every scheme (docs/scoring.md §4)
    entities = f"{counts.possible} reference and {counts.actual} predicted entities"
    read = f"{total.sentences} documents" if spans else f"{_tokens(total)} tokens in {total.sentences} sentences"
    # The scheme and mode as written on the command line, as they always were printed.
    settings = ["spans"] if spans else [args.scheme or options.scheme.name, args.mode or options.mode]
    if options.min_overlap is not None:
        settings.append(f"min overlap {options.min_overlap:g}")
    if tally.ungrounded is not None:  # string entities (docs/scoring.md §1b)
        settings[0] = "strings, normalized" if options.normalize else "strings"
        settings.append(f"{tally.ungrounded} ungrounded")
    print(f"processed {read} with {entities} ({', '.join(settings)})")
    if options.bootstrap:
        resampled = f"{total.sentences} {'documents' if spans else 'sentences'}"
        if args.by_document and not spans:
            resampled = f"{total.documents} documents (-DOCSTART- lines) of {total.sentences} sentences"
        elif spans and total.documents < total.sentences:
            resampled = f"{total.documents} documents ('document' fields) of {total.sentences} lines"
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


def _print_comparison(systems: Systems, options: Options, resamples: int, args: argparse.Namespace) -> None:
    tally_a, tally_b = (system.tally or Tally() for system in systems.counts)
    results = comparison(tally_a, tally_b, systems.units, options, resamples, options.seed)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
        return
    name_a, name_b = args.compare
    scheme, mode = args.scheme or options.scheme.name, args.mode or options.mode
    print(
        f"compared {name_a} (A) and {name_b} (B): {systems.sentences} sentences, {_tokens(systems.counts[0])} tokens, "
        f"{tally_a.counts('strict').possible} reference entities ({scheme}, {mode})"
    )
    print(
        f"B - A: {options.confidence_level:.0%} paired bootstrap interval (BCa) and two-sided approximate "
        f"randomization p-value, {resamples} resamples, seed {options.seed}"
    )
    if args.by_document:
        print(f"resampled and swapped: whole documents, {systems.documents} (-DOCSTART- lines)")
    print()
    print(format_comparison(results, options.beta))
    sys.stdout.flush()


def _print_runs(systems: Systems, options: Options, resamples: int, args: argparse.Namespace) -> None:
    """--runs: each scheme's mean ± standard deviation over the runs; with --runs-b, the comparison of the two
    systems' runs (nerscore.runs)."""
    runs_a = len(args.runs)
    # Each run's cells and tokens, and with --diagnostics its diagnostics: what --runs reports of a run.
    tallies = [
        Tally(
            dict(tally.cells),
            tally.tokens or TokenCounts(),
            diagnostics=(tally.diagnostics or Diagnostics()) if options.diagnostics else None,
        )
        for tally in (run.tally or Tally() for run in systems.counts)
    ]
    statistics = bool(args.runs_b) or options.bootstrap > 0
    units = systems.units if statistics else None
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
        f"{systems.sentences} sentences, {_tokens(systems.counts[0])} tokens, {tallies[0].counts('strict').possible} "
        "reference "
        f"entities ({scheme}, {mode})"
    )
    unit = f"{systems.documents} documents (-DOCSTART- lines)" if args.by_document else f"{systems.sentences} sentences"
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
