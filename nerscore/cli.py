"""The command line, conlleval's drop-in: ``ner-semeval [FILE ...]`` (or ``python ner_semeval.py [FILE ...]``).

Its scoring flags are the fields of `nerscore.options.Options` that make sense for a file (each field's `Flag`);
the rest are what it reads (`--spans`, `--compare`) and prints (`--json`). Files are counted a chunk at a time as
they are read (`nerscore.files.file_counts`), so memory stays flat however large the file; what is printed of the counts
is `nerscore.files.reports`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from functools import partial
from typing import Any, BinaryIO

from ._version import __version__
from .accumulator import Accumulator
from .errors import InvalidInputError, shown
from .files.agreement_files import add_option_flags, agreement_main, given_options, parse_flags
from .files.conlleval import ConllevalError, count_conlleval, format_conlleval, lines_of
from .files.file_counts import count_brat, count_label_studio, count_span_file, count_systems, count_tag_file
from .files.hipe import parse_hipe_bytes
from .files.hipe_report import add_hipe_arguments, run_hipe
from .files.readers import print_error, print_output, standard_input
from .files.reports import print_comparison, print_results, print_runs
from .option_checks import COMPARISON_RESAMPLES, OVERLAP, SLICE_NAMES, check_resamples, is_collection, named
from .option_flags import STDIN, as_bytes, given_standard_input, read_standard_input
from .options import SPECS, Options, check_span_options, check_tag_options, flag_name, in_words


def main(argv: Sequence[str] | None = None, prog: str = "ner-semeval") -> int:
    """conlleval's drop-in: ``ner-semeval [FILE ...]`` prints the summary table; returns the exit status."""
    try:
        return _main(argv, prog)
    except KeyboardInterrupt:  # Ctrl-C, most often at a terminal's standard input: a user's act, not a fault
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return 130  # 128 + SIGINT, what a shell reports for a command ended by Ctrl-C


def opened(prog: str, name: str, what: str) -> contextlib.AbstractContextManager[BinaryIO]:
    """A file argument's bytes, to read in a `with`: standard input for ``-`` (left open), else the file."""
    return contextlib.nullcontext(standard_input(prog, what)) if name == "-" else open(name, "rb")


def source_name(name: str) -> str:
    """How a message names a file argument: ``<stdin>`` for ``-``, as Python names standard input."""
    return "<stdin>" if name == "-" else name


def _main(argv: Sequence[str] | None, prog: str) -> int:
    argv = sys.argv[1:] if argv is None else list(argv) if is_collection(argv) else argv
    if not isinstance(argv, list) or not all(isinstance(argument, str) for argument in argv):
        raise InvalidInputError(f"argv is {shown(argv)}; expected a list of strings, as sys.argv[1:] (or None)")
    if argv[:1] == ["agreement"]:  # a command of its own: annotators' files (docs/agreement.md)
        return agreement_main(argv[1:], f"{prog} agreement")
    parser = build_parser(prog)
    args = parse_flags(parser, argv)
    systems_read = args.compare or [*(args.runs or []), *(args.runs_b or [])]
    if refused := _standard_input_read_twice(args, systems_read):
        parser.error(refused)
    if args.conlleval or any(getattr(args, name) not in (None, False) for name in _CONLLEVAL_FLAGS):
        return _conlleval(parser, args)
    if args.runs_b and not args.runs:
        parser.error("--runs-b compares with the runs of --runs: give both")
    tables = any(getattr(args, name) for name in _TABLES)
    if args.runs and (args.files or args.spans or args.compare or tables):
        parser.error(
            "--runs reads its own files and reports overall scores: drop FILE, --spans, --compare, --per-type, "
            "--confusion and --slices"
        )
    if args.compare and (args.files or args.spans or tables):
        parser.error(
            "--compare reads its own two files and reports overall scores: drop FILE, --spans, --per-type, "
            "--confusion and --slices (compare_semeval takes slices)"
        )
    comparison = "--compare" if args.compare else "--runs-b" if args.runs_b else "--runs" if args.runs else None
    if comparison and (unprinted := refused_by(comparison)) and given_options(args, unprinted):
        parser.error(f"{comparison} reports overall scores: drop {in_words(map(flag_name, unprinted))}")
    annotations = "--brat" if args.brat else "--label-studio" if args.label_studio is not None else None
    if annotations and (args.files or args.spans or args.compare or (args.brat and args.label_studio)):
        parser.error(f"{annotations} reads its own files: drop FILE, --spans, --compare and the other tool's flag")
    if args.fragments and not args.brat:
        parser.error("--fragments reads BRAT's discontinuous annotations: give it with --brat")
    read_standard_input(parser, args, partial(standard_input, prog))
    given = given_options(args, flagged_options())
    if refused := _slices_without_their_data(given):
        return print_error(ValueError(refused))
    if args.hipe:  # docs/hipe.md
        if args.files or args.spans or args.compare or args.runs or annotations:
            parser.error("--hipe reads its own two files: drop FILE, --spans, --compare, --runs and the tools' flags")
        if "-" in (args.tagset, args.relaxed):  # (never a file named "-")
            parser.error("--tagset and --relaxed read files by name, not - (standard input); give each file's name")
        try:  # (- is standard input, read whole: a response's documents are aligned to the gold's)
            args.hipe = [
                parse_hipe_bytes(as_bytes(standard_input(prog, "a HIPE TSV file").read()), STDIN)
                if name == "-"
                else name
                for name in args.hipe
            ]
        except (OSError, ValueError) as error:
            return print_error(error)
        return run_hipe(args, given)
    if args.column or args.hipe_table or args.tagset or args.nel or args.n_best or args.relaxed or args.norm_time:
        parser.error("--column, --hipe-table, --tagset, --nel, --n-best, --relaxed and --norm-time go with --hipe")
    if args.hipe_scorer:
        parser.error("--hipe-scorer goes with --hipe")
    spans = args.spans is not None or annotations is not None
    try:
        if args.runs or args.compare:  # several systems' files, read in step
            compare = bool(args.compare or args.runs_b)
            resamples = COMPARISON_RESAMPLES
            if compare:  # (--bootstrap is the resamples of the comparison, else the runs' intervals)
                resamples = check_resamples("--bootstrap", given.pop("bootstrap", COMPARISON_RESAMPLES), 1)
            options = Options.of(**given)
            check_tag_options(options)
            flag = "--compare" if args.compare else "--runs"
            with contextlib.ExitStack() as stack:
                # (- is standard input, as a FILE or --spans - is)
                handles = [stack.enter_context(opened(prog, name, "CoNLL columns")) for name in systems_read]
                sources = [source_name(name) for name in systems_read]
                systems = count_systems(
                    handles, sources, options, flag, compare or options.bootstrap > 0, args.by_document
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
            strings = False  # whether any entity was a string (the report's first line)
            if args.brat:
                total, strings = count_brat(total, args.brat[0], args.brat[1], args.fragments)
            elif annotations:  # (- is standard input, read whole: an export is one JSON list)
                export = standard_input(prog, "a Label Studio JSON export").read() if args.label_studio == "-" else None
                total, strings = count_label_studio(total, source_name(args.label_studio), export)
            for file, name in enumerate([] if annotations else [args.spans] if spans else args.files or ["-"]):
                with opened(prog, name, "JSON lines of spans" if spans else "CoNLL columns") as handle:
                    if spans:
                        total, strings = count_span_file(handle, source_name(name), total)
                    else:
                        total = count_tag_file(handle, source_name(name), total, file, args.by_document)
    except (OSError, ValueError) as error:  # (a folder read as one system's file: the user may mean --brat)
        return print_error(error, folder="" if systems_read else _FOLDER)

    def report() -> None:
        if args.runs:
            print_runs(systems, options, resamples, args)
        elif args.compare:
            print_comparison(systems, options, resamples, args)
        else:
            print_results(total, spans, args, strings)

    try:
        return print_output(report)
    except ValueError as error:  # what only the counts can show: --confusion with a type O, or too many types
        return print_error(error)


def _standard_input_read_twice(args: argparse.Namespace, systems_read: list[str]) -> str | None:
    """Why a call that reads standard input, one stream, more than once is refused, in words; None for one that
    reads it once at most (`ner-semeval - -` scored the first's sentences alone). The systems' files, read in step,
    are counted by their flag (`--compare - -`); any other readers named each (`_standard_input_readers`)."""
    if (dashes := systems_read.count("-")) > 1:
        flags = "--compare names" if args.compare else "--runs and --runs-b name" if args.runs_b else "--runs names"
        return (
            f"{flags} - (standard input) {dashes} times; standard input is one stream, read once: give - for one "
            "file at most and the others by name"
        )
    if len(readers := _standard_input_readers(args)) > 1:
        return f"{in_words(readers)} each read standard input, one stream, read once: give all but one by name"
    return None


def _standard_input_readers(args: argparse.Namespace) -> list[str]:
    """What of the call reads standard input: each file flag given -, and FILE (- or, when none, the scored files)."""
    readers = [f"{flag} -" for flag in given_standard_input(args)]
    readers += [f"--hipe {part} -" for part, name in zip(("GOLD", "SYSTEM"), args.hipe or ()) if name == "-"]
    dashes = [number for number, name in enumerate(args.files, 1) if name == "-"]
    readers += ["FILE -"] if len(dashes) == 1 else [f"FILE {number} -" for number in dashes]
    files = [("--spans", [args.spans]), ("--label-studio", [args.label_studio])]
    files += [("--compare", args.compare), ("--runs", args.runs), ("--runs-b", args.runs_b)]
    readers += [f"{flag} -" for flag, names in files if "-" in (names or ())]
    others = (args.spans, args.label_studio, args.brat, args.compare, args.runs, args.hipe)
    if not args.files and all(other is None for other in others):
        readers.append("no FILE")
    return readers


# A folder where one system's file was expected (FILE, --spans, --label-studio): the folders read are BRAT's, two.
_FOLDER = " (a folder: --brat REFERENCE_DIR PREDICTION_DIR reads two folders of BRAT files)"


def _slices_without_their_data(given: dict) -> str | None:
    """What a slice needs that the command line gives by a flag or not at all, in its words (the option's own
    messages name the Python keywords `seen=` and `groups=`); None otherwise."""
    # The names as the option reads them, in any case (`option_checks.named`: --slices SEEN is the seen slice).
    slices = [named(name, SLICE_NAMES) for name in given.get("slices") or ()]
    # Where the option's own checks would name something else first (a slice's name, partial_credit's overlap),
    # their message stands, as it did.
    seen_first = None not in slices and named(given.get("partial_credit"), (OVERLAP,)) is None
    if "seen" in slices and given.get("seen") is None and seen_first:
        return (
            "--slices seen needs --seen FILE, the entity texts that count as seen (a training set's, say), one a "
            "line: an entity is seen when its text is among them"
        )
    if "group" in slices:
        return (
            "--slices group needs a group per sentence, which the command line does not read (in Python: "
            "compute_semeval(groups=...); HIPE's time periods and noise levels are hipe_inputs(time_periods=, "
            "noise_levels=), docs/hipe.md); use entity_length, seen, sentence_length or entity_density"
        )
    return None


# The options that add to compute_semeval's result (`Options.ADDING`) which a comparison of systems or runs prints:
# --bootstrap (the comparison's resamples, the runs' intervals) and, for --runs alone, the diagnostics' means
# (`reports.print_runs`). Every other one is refused by its flag, never silently ignored, so that a new adding option
# needs nothing here until a report prints it. The tables of one file's results are refused first, in words of
# their own.
_PRINTED_BY = {"--compare": ("bootstrap",), "--runs": ("bootstrap", "diagnostics"), "--runs-b": ("bootstrap",)}
_TABLES = ("per_type", "confusion", "slices")


def refused_by(comparison: str) -> list[str]:
    """The adding options a comparison (`--compare`, `--runs`, `--runs-b`) refuses besides the tables, in the
    table's order of `Options.ADDING`."""
    printed = (*_PRINTED_BY[comparison], *_TABLES)
    return [name for name in Options.ADDING if SPECS[name].flag is not None and name not in printed]


def flagged_options() -> list[str]:
    """The options the command line takes, in the table's order."""
    return [name for name, spec in SPECS.items() if spec.flag is not None]


def build_parser(prog: str = "ner-semeval") -> argparse.ArgumentParser:
    """The command line's arguments: files, the scoring flags of the option table, and what to read and print."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="SemEval-2013 NER scores of CoNLL columns: the last two columns of each line are the "
        "reference and the predicted tag; a blank line ends a sentence.",
        epilog=f"{prog} agreement PATH ... is a command of its own: how far annotators agree (pairwise F, kappa, "
        f"alpha); {prog} agreement --help lists its flags. docs/command-line.md shows examples.",
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
        "--fragments",
        action="store_true",
        help="with --brat, score a discontinuous annotation (START END;START END) by its fragments, on the units "
        "they cover, rather than by its full extent",
    )
    parser.add_argument(
        "--label-studio",
        metavar="FILE.json",
        help="score a Label Studio JSON export: each task's prediction against its annotation; - for standard input",
    )
    add_hipe_arguments(parser)
    compare = f"; with --compare, the resamples of the interval and of the test (default {COMPARISON_RESAMPLES})"
    add_option_flags(parser, flagged_options(), {"bootstrap": compare})
    parser.add_argument("--json", action="store_true", help="print the compute() dict as JSON")
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="compare two systems' CoNLL files with the same tokens and reference column: A, B, the difference "
        "B - A with its interval, and the p-value of approximate randomization, per scheme and measure; - for "
        "standard input (one of the two)",
    )
    parser.add_argument(
        "--runs",
        nargs="+",
        metavar="A",
        help="several runs of one system (seeds): three-column CoNLL files with the same tokens and reference "
        "column; prints each scheme's mean ± standard deviation (with --bootstrap N, an interval of each mean); - "
        "for standard input (one file of --runs and --runs-b at most)",
    )
    parser.add_argument(
        "--runs-b",
        nargs="+",
        metavar="B",
        help="with --runs: another system's runs; prints the means, B - A with its interval and the p-value "
        f"(--bootstrap N sets the resamples, default {COMPARISON_RESAMPLES:,})",
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


def _conlleval(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``--conlleval``: conlleval.pl's report of the files (standard input when none), read as
    ``cat FILE ... | conlleval.pl`` would read them (`nerscore.files.conlleval`); its exit status where it stops."""
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
            with opened(parser.prog, name, "CoNLL columns") as handle:
                yield handle

    delimiter = b" " if args.conlleval_delimiter is None else os.fsencode(args.conlleval_delimiter)
    outside = b"O" if args.conlleval_outside is None else os.fsencode(args.conlleval_outside)
    try:
        counts = count_conlleval(lines_of(handles()), delimiter, outside, args.conlleval_raw)
    except ConllevalError as error:
        write_bytes(sys.stderr, error.message)
        sys.stderr.flush()
        return error.status
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    return print_output(lambda: write_bytes(sys.stdout, format_conlleval(counts, args.conlleval_latex)))


def write_bytes(stream: Any, data: bytes) -> None:
    """conlleval.pl's bytes on a standard stream: on its `buffer` (what the text layer holds first), or, for a
    text stream without one (an embedder's io.StringIO, a notebook's), as text read back as standard input's text
    is (`lines_of`: UTF-8, a byte that is not UTF-8 kept by ``surrogateescape``)."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(data.decode("utf-8", "surrogateescape"))
        return
    stream.flush()
    buffer.write(data)


if __name__ == "__main__":  # python -m nerscore.cli, as python -m nerscore (nerscore/__main__.py)
    sys.exit(main(prog="python -m nerscore.cli"))
