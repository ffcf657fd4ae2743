"""Speed of ner_semeval against evaluate's round trip, nervaluate, seqeval and a bare loop (issues 5, 8, 15).

    python benchmarks/run.py                      # the full run, every section: about 5 minutes on 2 cores
    python benchmarks/run.py --quick              # the table only, one run of each, no 100,000: under a minute
    python benchmarks/run.py --only ner_semeval,floor --repeats 9
    python benchmarks/run.py --quick --sections types,cli
    python benchmarks/run.py --sections startup   # the start-up rows alone: a few seconds

Every tool scores the same data in the same process, interleaved run by run (so a busy moment on a shared
machine slows all of them alike); the table shows the median of the runs. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

import goals
import hostile
import report
from measure import Cell, peak_memory, progress, take_turns, time_once
from workload import REPO, Dataset, generate, size_name, wnut17

# evaluate asks the Hub about a module unless told not to, even for a local path (NOTES: evaluate).
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")

NOOP = REPO / "benchmarks" / "noop_metric" / "noop_metric.py"  # a metric that does nothing: evaluate's own cost
HEADLINE = 20_000  # sentences of the goals' data (issue 5: 20,000 sentences x 20 tokens)
SECTIONS = ("table", "memory", "types", "startup", "cli", "resamples")

# --- Tools: each setup returns a function of one (predictions, references, types) part, its imports done ------


def setup_floor() -> Callable[..., Any]:
    def floor(predictions: list[list[str]], references: list[list[str]], types: list[str]) -> int:
        # Touch every tag of both sides once: no scorer can read its input faster in pure Python.
        entity_tags = 0
        for side in (predictions, references):
            for sentence in side:
                for tag in sentence:
                    if tag != "O":
                        entity_tags += 1
        return entity_tags

    return floor


def setup_ner_semeval(**options: Any) -> Callable[..., Any] | None:
    """nerscore's compute_semeval with `options`; None (a row of n/a) while it rejects them: issue 8 adds options."""
    from nerscore import compute_semeval

    try:
        compute_semeval(predictions=[["B-PER", "O"]], references=[["B-PER", "O"]], **options)
    except (TypeError, ValueError):
        return None

    def ner_semeval(predictions: list[list[str]], references: list[list[str]], types: list[str]) -> dict:
        return compute_semeval(predictions=predictions, references=references, **options)

    return ner_semeval


def setup_metric(path: Path) -> Callable[..., Any]:
    import datasets
    import evaluate

    datasets.disable_progress_bars()
    evaluate.logging.set_verbosity_error()
    datasets.logging.set_verbosity_error()
    # evaluate's cache file is named after the experiment id; with the default one, a metric computed at the
    # same moment by another process on this machine (a test run) holds its lock and compute() waits 1 s
    # for it before picking another file. A name of our own measures evaluate, not the neighbours.
    experiment_id = f"ner-semeval-benchmark-{os.getpid()}"
    metric = evaluate.load(str(path), experiment_id=experiment_id)
    atexit.register(remove_locks, Path(metric.data_dir), experiment_id)
    return lambda predictions, references, types: metric.compute(predictions=predictions, references=references)


def remove_locks(folder: Path, experiment_id: str) -> None:
    """evaluate deletes its cache files after compute but leaves the empty .lock files behind."""
    for lock in folder.glob(f"{experiment_id}-*.lock"):
        lock.unlink(missing_ok=True)


def setup_nervaluate() -> Callable[..., Any]:
    import logging

    from nervaluate import Evaluator

    logging.getLogger("nervaluate").setLevel(logging.ERROR)
    # Only the counts the checks read are kept (microseconds): the full result holds every entity's indices.
    return lambda predictions, references, types: nervaluate_counts(
        Evaluator(references, predictions, tags=types, loader="list").evaluate()
    )


def setup_seqeval(function_name: str) -> Callable[..., Any]:
    import warnings

    from seqeval import metrics
    from seqeval.metrics.v1 import UndefinedMetricWarning

    # A system that never predicts some type (drexel_cci on WNUT-17) makes every report warn.
    warnings.filterwarnings("ignore", category=UndefinedMetricWarning)
    function = getattr(metrics, function_name)
    return lambda predictions, references, types: function(references, predictions)


class Tool(NamedTuple):
    label: str
    setup: Callable[[], Callable[..., Any] | None]
    peer: bool = False  # a slow peer: skipped above --peer-limit sentences


TOOLS = {
    "floor": Tool("floor: bare loop over the tags", setup_floor),
    "ner_semeval": Tool("nerscore.compute_semeval", setup_ner_semeval),
    "ner_semeval_per_type": Tool("  compute_semeval(per_type=True)", partial(setup_ner_semeval, per_type=True)),
    "confusion": Tool("  compute_semeval(confusion=True)", partial(setup_ner_semeval, confusion=True)),
    "bootstrap": Tool("  compute_semeval(bootstrap=1000)", partial(setup_ner_semeval, bootstrap=1000)),
    "value": Tool("  compute_semeval(value=True)", partial(setup_ner_semeval, value=True)),
    "value_ace08": Tool("  compute_semeval(value='ace08')", partial(setup_ner_semeval, value="ace08")),
    "partial_credit": Tool("  compute_semeval(partial_credit=0.3)", partial(setup_ner_semeval, partial_credit=0.3)),
    "overlap_credit": Tool("  compute_semeval(partial_credit='overlap')", partial(setup_ner_semeval, partial_credit="overlap")),  # noqa: E501
    "compute": Tool("NerSemeval.compute (evaluate)", partial(setup_metric, REPO / "ner_semeval.py")),
    "noop": Tool("no-op Metric.compute (evaluate)", partial(setup_metric, NOOP)),
    "nervaluate": Tool("nervaluate 1.2.1 Evaluator", setup_nervaluate, peer=True),
    "seqeval_f1": Tool("seqeval f1_score", partial(setup_seqeval, "f1_score"), peer=True),
    "seqeval_report": Tool("seqeval classification_report", partial(setup_seqeval, "classification_report"), peer=True),
}  # fmt: skip


def run_parts(function: Callable[..., Any], dataset: Dataset) -> list[Any]:
    return [function(predictions, references, dataset.types) for predictions, references in dataset.parts]


# --- The table: every tool on every column ----------------------------------------------------------------------


def columns(args: argparse.Namespace, notes: list[str]) -> Iterator[Dataset]:
    """Columns one at a time, so only one size is in memory."""
    for sentences in sorted({int(size) for size in args.sizes.split(",")} | {args.headline}):
        part = generate(sentences, args.length, args.types, args.noise, args.seed)
        yield Dataset(size_name(sentences), f"{sentences:,} generated sentences x {args.length} tokens", [part])
    split = generate(args.document, args.length, args.types, args.noise, args.seed)
    yield Dataset("doc-split", f"{args.document:,} generated sentences, one sequence each", [split])
    one = tuple([[tag for sentence in side for tag in sentence]] for side in split)
    tokens = args.document * args.length
    yield Dataset("doc-one", f"the same {args.document:,} sentences as one sequence of {tokens:,} tokens", [one])
    if not args.no_wnut:
        dataset, wnut_notes = wnut17()
        notes.extend(wnut_notes)
        yield from [dataset] if dataset else []


def skip_reason(name: str, dataset: Dataset, args: argparse.Namespace) -> str | None:
    if TOOLS[name].peer and dataset.sentences > args.peer_limit:
        return f"above --peer-limit {args.peer_limit:,}"
    if name == "nervaluate" and dataset.name == "doc-one" and not args.slow_peers:
        return "its matching is quadratic in the entities of a document; --slow-peers runs it"
    return None


def bench_column(
    dataset: Dataset, functions: dict[str, Any], args: argparse.Namespace, notes: list[str]
) -> tuple[dict[str, Cell], dict[str, list[Any]]]:
    """Every tool's cell on one column, timed in turns, and each tool's last results for the checks."""
    cells = {name: Cell(skipped="n/a") for name, function in functions.items() if function is None}
    runs = {}
    for name, function in functions.items():
        reason = function and skip_reason(name, dataset, args)
        if reason:
            cells[name] = Cell(skipped=reason)
            notes.append(f"{dataset.name}: {name} skipped ({reason})")
        elif function:
            runs[name] = partial(run_parts, function, dataset)
    # One run is enough to know a slow tool is slow, except in the goals' column.
    slow = None if dataset.name == size_name(args.headline) else args.slow
    timed, results = take_turns(runs, args.repeats, slow, dataset.name, partial(time_once, gc_off=args.gc_off))
    for name, cell in timed.items():
        if cell.cut_short:
            notes.append(f"{dataset.name}: {name} took {cell.times[0]:.1f} s > --slow {args.slow:g} s, run once")
    return {name: timed.get(name) or cells[name] for name in functions}, results


def run_table(args: argparse.Namespace, functions: dict[str, Any], results: report.Results) -> None:
    split = None
    for dataset in columns(args, results.notes):
        progress(f"{dataset.name}: {dataset.description}")
        results.table[dataset.name], outputs = bench_column(dataset, functions, args, results.notes)
        results.columns[dataset.name] = dataset.description
        results.checks += agreement(dataset, outputs)
        ours = outputs.get("ner_semeval")
        split = ours if dataset.name == "doc-split" else split
        if dataset.name == "doc-one" and split is not None and ours is not None:
            same = "the same" if ours == split else "a DIFFERENT"
            results.checks.append(f"doc-one: compute_semeval gives {same} dict as doc-split")
        if dataset.name == size_name(args.headline):
            entity_tokens = sum(tag != "O" for sentence in dataset.parts[0][1] for tag in sentence)
            results.data = [f"{entity_tokens / dataset.tokens:.1%} of reference tokens inside entities"]
            if ours:
                counts = f"{ours[0]['strict_possible']:,} reference / {ours[0]['strict_actual']:,} predicted entities"
                f1 = f"strict F1 {ours[0]['strict_f1']:.3f}, partial F1 {ours[0]['partial_f1']:.3f}"
                results.data.append(f"{counts}, {f1}")


# --- Agreement checks (not failures: differences are printed) ---------------------------------------------------

SCHEME_NAMES = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
FIELDS = ("correct", "incorrect", "partial", "missed", "spurious")


def nervaluate_counts(result: dict[str, Any]) -> dict[str, int]:
    """nervaluate's overall counts under ner_semeval's key names (its `ent_type` is our `type`)."""
    overall = result["overall"]
    return {
        f"{ours}_{name}": getattr(overall[theirs], name) for ours, theirs in SCHEME_NAMES.items() for name in FIELDS
    }


def agreement(dataset: Dataset, results: dict[str, list[Any]]) -> list[str]:
    ours = results.get("ner_semeval")
    if ours is None:
        return []
    lines = []
    for label, mine, theirs in zip(dataset.part_names or [dataset.name], ours, results.get("nervaluate", [])):
        # The count keys (of 20: four schemes x five MUC counts) where nervaluate disagrees with ner_semeval.
        differing = [f"{key}: {mine[key]} vs {value}" for key, value in theirs.items() if mine[key] != value]
        detail = f" ({'; '.join(differing[:4])}{'; ...' if len(differing) > 4 else ''})" if differing else ""
        lines.append(f"{label}: nervaluate four-scheme counts, {len(differing)} of 20 keys differ{detail}")
    if "seqeval_f1" in results:
        gaps = [abs(mine["strict_f1"] - theirs) for mine, theirs in zip(ours, results["seqeval_f1"])]
        lines.append(f"{dataset.name}: |strict_f1 - seqeval f1_score| max {max(gaps):.2e} over {len(gaps)} part(s)")
    if "compute" in results:
        same = "yes" if results["compute"] == ours else "NO"
        lines.append(f"{dataset.name}: NerSemeval.compute returns compute_semeval's dict: {same}")
    return lines


# --- Memory: one fresh process per tool, so one tool's peak does not hide another's ----------------------------


def child_memory(args: argparse.Namespace) -> None:
    function = TOOLS[args.child_memory].setup()
    if function is None:
        print(json.dumps({"error": "n/a: compute_semeval has no such option yet"}))
        return
    dataset = Dataset("memory", "", [generate(args.headline, args.length, args.types, args.noise, args.seed)])
    predictions, references = dataset.parts[0]
    run_parts(function, Dataset("warm-up", "", [(predictions[:200], references[:200])]))  # lazy imports, caches
    print(json.dumps(peak_memory(partial(run_parts, function, dataset))))


def measure_memory(names: list[str], args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    memory = {}
    options = [f"--{option}={getattr(args, option)}" for option in ("headline", "length", "types", "noise", "seed")]
    for name in names:
        progress(f"  memory: {name}")
        command = [sys.executable, __file__, "--child-memory", name, *options]
        child = subprocess.run(command, capture_output=True, text=True)
        failed = {"error": "failed: " + " ".join(child.stderr.strip().splitlines()[-1:])}
        memory[name] = json.loads(child.stdout.strip().splitlines()[-1]) if child.returncode == 0 else failed
    return memory


# --- Main: run, then report and write ---------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--sections", help=f"comma list of {','.join(SECTIONS)} (default all; --quick: table)")
    add("--sizes", help="sentences per synthetic column, comma list (default 1000,10000,100000)")
    add("--headline", type=int, default=HEADLINE, help="sentences of the goals' column")
    add("--document", type=int, default=2000, help="sentences of the one-document comparison")
    add("--length", type=int, default=20, help="tokens per generated sentence")
    add("--types", type=int, default=4, help="entity types in generated data")
    add("--noise", type=float, default=0.2, help="share of reference entities perturbed")
    add("--seed", type=int, default=2013)
    add("--repeats", type=int, help="timed runs per tool and column, median shown (default 5)")
    add("--only", default=",".join(TOOLS), help=f"tools to run, of {','.join(TOOLS)}")
    add("--peer-limit", type=int, default=20_000, help="skip peers on columns with more sentences")
    add("--slow", type=float, default=8.0, help="a tool whose first run takes longer runs once")
    add("--slow-peers", action="store_true", help="run nervaluate on the one-document column too")
    add("--gc-off", action="store_true", help="disable the collector during timed runs (timeit)")
    add("--no-wnut", action="store_true", help="skip the WNUT-17 column even when present")
    add("--types-tokens", type=int, help="types section: tokens of the smaller data (default 500000), and 4x")
    add("--cli-tokens", help="cli section: tokens per generated file, comma list (default 1000000,5000000)")
    add("--conlleval-pl", help="cli section: a copy of conlleval.pl to time too (default: one on the PATH)")
    add("--quick", action="store_true", help="smoke run: the table on 1000,10000 (and 20,000), 1 run each")
    add("--json", default=str(REPO / "benchmarks" / "results" / "latest.json"), help="raw results file")
    add("--child-memory", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    # --quick changes defaults only: explicit options still win.
    full = {"sections": ",".join(SECTIONS), "sizes": "1000,10000,100000", "repeats": 5}
    quick = {"sections": "table", "sizes": "1000,10000", "repeats": 1}
    if args.quick:
        full |= quick | {"types_tokens": 100_000, "cli_tokens": "1000000"}
    for name, value in ({"types_tokens": 500_000, "cli_tokens": "1000000,5000000"} | full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.sections, args.cli_tokens = args.sections.split(","), [int(n) for n in args.cli_tokens.split(",")]
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    for given, known in ((args.only.split(","), TOOLS), (args.sections, SECTIONS)):
        if set(given) - set(known):
            parser.error(f"unknown {sorted(set(given) - set(known))}; choose from {', '.join(known)}")
    return args


def run(args: argparse.Namespace) -> report.Results:
    names = [name for name in TOOLS if name in args.only.split(",")]
    results = report.Results(args, machine(), {name: TOOLS[name].label for name in names})
    if "table" in args.sections:
        progress("setting up " + ", ".join(names))
        functions = {name: TOOLS[name].setup() for name in names}
        unavailable = [name for name in names if functions[name] is None]
        results.notes += [f"{name}: compute_semeval has no such option yet: n/a" for name in unavailable]
        # Warm up every tool once (first-call imports, evaluate's cache folders) before anything is timed.
        warm = Dataset("warm-up", "", [generate(200, args.length, args.types, args.noise, args.seed + 1)])
        for function in filter(None, functions.values()):
            run_parts(function, warm)
        run_table(args, functions, results)
    if "memory" in args.sections:
        progress(f"peak memory at {args.headline:,} sentences, one subprocess per tool")
        results.memory = measure_memory(names, args)
    if "types" in args.sections:
        results.types, results.types_seen = hostile.entity_types(args)
    if "startup" in args.sections:
        results.commands, results.peaks = hostile.start_up(args)
    if "cli" in args.sections:
        commands, peaks = hostile.command_line(args)
        results.commands |= commands
        results.peaks |= peaks
    if "resamples" in args.sections:
        results.peaks |= hostile.resampling_memory(args)
    results.goals, results.load_end = judge_goals(args, results), os.getloadavg()
    return results


def judge_goals(args: argparse.Namespace, results: report.Results) -> list[dict[str, Any]]:
    cells = {f"{column}/{tool}": cell for column, row in results.table.items() for tool, cell in row.items()}
    cells |= results.types | results.commands
    medians = {key: cell.median for key, cell in cells.items()} | results.peaks
    minimums = {key: cell.minimum for key, cell in cells.items()} | results.peaks
    small, large = hostile.tokens_name(args.types_tokens), hostile.tokens_name(4 * args.types_tokens)
    rows = goals.table_goals(size_name(args.headline), "10k", "100k", args.document)
    files = list(map(hostile.tokens_name, args.cli_tokens))
    rows += goals.hostile_goals(hostile.TYPE_COUNTS, small, large, files, hostile.tokens_name(hostile.SAME_TOKENS))
    return [goals.judge(goal, medians, minimums) for goal in rows]


def machine() -> dict[str, Any]:
    cpuinfo = Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []
    models = [line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")]
    installed = {package.metadata["Name"].lower(): package.version for package in metadata.distributions()}
    packages = ("numpy", "evaluate", "datasets", "pyarrow", "nervaluate", "seqeval", "conlleval")
    versions = {package: installed.get(package, "not installed") for package in packages}
    return {
        "platform": platform.platform(),
        "cpu": models[0] if models else platform.processor() or "unknown",
        "cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        **versions,
        "path": str(REPO),  # nerscore/ and ner_semeval.py of this checkout
        "ner_semeval": revision(),  # before the run: the lead may commit while it runs
        "started": time.time(),
        "load_start": os.getloadavg(),
    }


def revision() -> str:
    """The checkout measured: commit, and whether the scoring code (nerscore/, ner_semeval.py) has uncommitted
    changes."""
    git = ["git", "-C", str(REPO)]
    try:
        commit = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True)
        status = [*git, "status", "--porcelain", "--", "nerscore", "ner_semeval.py"]
        changed = subprocess.run(status, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return commit.stdout.strip() + (" + uncommitted changes to nerscore/ or ner_semeval.py" if changed else "")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child_memory:
        child_memory(args)
        return 0
    results = run(args)
    report.print_report(results)
    if args.json:
        report.write_json(results, Path(args.json))
    return 0


if __name__ == "__main__":
    sys.exit(main())
