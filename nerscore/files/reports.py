"""What the command line prints of what it counted: the summary table of a file (and its per-type, confusion,
diagnostics, errors and slice tables), the comparison of two systems (`--compare`), and the runs of one or two
systems (`--runs`, `--runs-b`); with `--json`, the result dict instead.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from ..accumulator import Accumulator
from ..options import Options
from ..runs import comparison_of, summary_of
from ..statistics.paired_comparison import comparison
from ..tally import Diagnostics, Tally, TokenCounts
from .file_counts import Systems
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

if TYPE_CHECKING:
    import argparse  # the command line's arguments, which say what to print


def print_json(value: Any) -> None:
    """What --json prints: `value` as indented JSON, characters beyond ASCII as they are."""
    print(json.dumps(value, indent=2, ensure_ascii=False))


def print_results(total: Accumulator, spans: bool, args: argparse.Namespace, strings: bool = False) -> None:
    """A file's report (tags, or with `spans` JSON lines or an annotation tool's, of string entities with
    `strings`): what was read, the summary table and the tables the flags ask for; with --json, the result dict."""
    options = total.options
    token_accuracy = None if spans else True  # tags count their tokens, read or not
    if args.json:
        print_json(total.result(token_accuracy=token_accuracy))
        return
    # The tables show every type, whether or not --per-type asks for the keys.
    results = total.result(options.evolve(per_type=True), token_accuracy=token_accuracy)
    tally = total.tally or Tally()
    counts = tally.counts("strict")  # POS and ACT are the same under every scheme (docs/scoring.md §4)
    entities = f"{counts.possible} reference and {counts.actual} predicted entities"
    read = f"{total.sentences} documents" if spans else f"{_tokens(total)} tokens in {total.sentences} sentences"
    settings = ["spans"] if spans else _scheme_and_mode(args, options)
    if options.min_overlap is not None:
        settings.append(f"min overlap {options.min_overlap:g}")
    if options.pairing != "optimal":  # docs/scoring.md §3a
        settings.append(f"{options.pairing} pairing")
    if strings:  # docs/scoring.md §1b (spans with texts have `ungrounded` too, 0, and say "spans")
        settings[0] = "strings, normalized" if options.normalize else "strings"
        settings.append(f"{tally.ungrounded or 0} ungrounded")
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
    print("\n" + format_table(results, options.beta))
    entity_types = sorted(dict.fromkeys(options.labels)) if options.labels is not None else tally.entity_types
    # The strict table, or the first scheme asked for when --evaluation-schemes leaves strict out.
    for scheme in options.evaluation_schemes if args.per_type else options.evaluation_schemes[:1]:
        if entity_types:
            print("\n" + format_type_table(results, entity_types, scheme, options.beta))
    if args.confusion:
        print("\n" + format_confusion_table(results["confusion"]))
    if options.diagnostics:
        print("\n" + format_diagnostics(results))
    if options.errors:
        print("\n" + format_errors(results["errors"]))
    for name, buckets in results.get("slices", {}).items():
        print("\n" + format_slice_table(name, buckets, options.beta))
    sys.stdout.flush()  # a closed pipe shows here, inside the BrokenPipeError handler


def print_comparison(systems: Systems, options: Options, resamples: int, args: argparse.Namespace) -> None:
    """--compare: A, B and B - A with its interval and p-value per scheme and measure (`paired_comparison`)."""
    tally_a, tally_b = (system.tally or Tally() for system in systems.counts)
    results = comparison(tally_a, tally_b, systems.units, options, resamples, options.seed)
    if args.json:
        print_json(results)
        return
    name_a, name_b = args.compare
    print(f"compared {name_a} (A) and {name_b} (B): {_systems_read(systems, args, options)}")
    print(
        f"B - A: {options.confidence_level:.0%} paired bootstrap interval (BCa) and two-sided approximate "
        f"randomization p-value, {resamples} resamples, seed {options.seed}"
    )
    if args.by_document:
        print(f"resampled and swapped: whole documents, {systems.documents} (-DOCSTART- lines)")
    print("\n" + format_comparison(results, options.beta))
    sys.stdout.flush()


def print_runs(systems: Systems, options: Options, resamples: int, args: argparse.Namespace) -> None:
    """--runs: each scheme's mean ± standard deviation over the runs; with --runs-b, the comparison of the two
    systems' runs (nerscore.runs)."""
    runs_a = len(args.runs)
    # Each run's cells and tokens, with --partial-credit overlap and --value what docs/scoring.md §10 adds, and with
    # --diagnostics its diagnostics: what --runs reports of a run.
    tallies = [
        Tally(
            dict(tally.cells),
            tally.tokens or TokenCounts(),
            credit=tally.credit,
            value_cells=tally.value_cells,
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
        print_json(results)
        return
    read = _systems_read(systems, args, options)
    unit = f"{systems.documents} documents (-DOCSTART- lines)" if args.by_document else f"{systems.sentences} sentences"
    if not args.runs_b:
        print(f"{_runs(runs_a)}: {read}")
        if options.bootstrap:
            print(
                f"{options.confidence_level:.0%} intervals of the mean: BCa bootstrap of the runs, then of the "
                f"{unit}, {options.bootstrap} resamples, seed {options.seed}"
            )
        print("\n" + format_runs(results, options.beta))
        if options.diagnostics:  # summarize_runs' means of the counts (docs/scoring.md §11)
            print("\n" + format_runs_diagnostics(results))
    else:
        print(f"compared {_runs(runs_a)} of A and {_runs(len(args.runs_b))} of B: {read}")
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


def _runs(count: int) -> str:
    """How many runs, in words that agree with the number ("1 run", "3 runs")."""
    return f"{count} run{'s' * (count != 1)}"


def _systems_read(systems: Systems, args: argparse.Namespace, options: Options) -> str:
    """What --compare and --runs read: the first file's sentences, tokens and reference entities (every file's
    are the same), and the scheme and mode."""
    possible = (systems.counts[0].tally or Tally()).counts("strict").possible
    return (
        f"{systems.sentences} sentences, {_tokens(systems.counts[0])} tokens, {possible} reference entities "
        f"({', '.join(_scheme_and_mode(args, options))})"
    )


def _scheme_and_mode(args: argparse.Namespace, options: Options) -> list[str]:
    """The scheme and the mode as written on the command line, as they always were printed."""
    return [args.scheme or options.scheme.name, args.mode or options.mode]


def _tokens(total: Accumulator) -> int:
    """The tokens read into `total`: tags' tokens are all compared (`ignore_index` is for ids)."""
    return 0 if total.tally is None or total.tally.tokens is None else total.tally.tokens.tokens
