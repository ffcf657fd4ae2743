"""Speed of ner_semeval against evaluate's round trip, nervaluate, seqeval and a bare loop (issue 5).

    python benchmarks/run.py                      # the full run: sizes 1,000 / 10,000 / 100,000 and more
    python benchmarks/run.py --quick              # one run of each, no 100,000: about a minute
    python benchmarks/run.py --only ner_semeval,floor --repeats 9

Every tool scores the same data in the same process, interleaved run by run (so a busy moment on a shared
machine slows all of them alike); the table shows the median of the runs. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

# evaluate asks the Hub about a module unless told not to, even for a local path (NOTES: evaluate).
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")

BENCHMARKS = Path(__file__).resolve().parent
REPO = BENCHMARKS.parent
WNUT17 = REPO.parent / "shared" / "data" / "wnut17"
NOOP_PATH = BENCHMARKS / "noop_metric" / "noop_metric.py"
sys.path.insert(0, str(REPO))

HEADLINE = 20_000  # sentences of the goals' data (issue 5: 20,000 sentences x 20 tokens)
WNUT_SYSTEMS = ("arcada", "drexel_cci", "flytxt", "mic-cis.txt", "sjtu_adapt.txt", "spinningbytes.txt", "uh_ritual")
WNUT_GOLD = "emerging.test.annotated"


# ---------------------------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------------------------

TYPE_NAMES = ("PER", "LOC", "ORG", "MISC", "DATE", "PRODUCT", "EVENT", "WORK", "GROUP", "FAC")
LENGTHS = (1, 2, 3, 4, 5)  # entity lengths in tokens and how often they occur (mean 1.8)
LENGTH_WEIGHTS = (50, 30, 12, 6, 2)
COVERAGE = 0.125  # share of tokens inside reference entities (realistic NER data: 10-15 %)
NOISE_KINDS = ("boundary", "type", "drop", "add")


@dataclass
class Dataset:
    """One column of the table: one or more (predictions, references) parts scored in one timed run."""

    name: str
    description: str
    parts: list[tuple[list[list[str]], list[list[str]]]]
    types: list[str] = field(default_factory=list)
    sentences: int = 0
    tokens: int = 0
    part_names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        seen = {
            tag[2:]
            for predictions, references in self.parts
            for side in (predictions, references)
            for sentence in side
            for tag in sentence
            if tag != "O"
        }
        self.types = sorted(seen)
        self.sentences = sum(len(references) for _, references in self.parts)
        self.tokens = sum(len(sentence) for _, references in self.parts for sentence in references)


def generate(
    sentences: int, length: int, types: int, noise: float, seed: int
) -> tuple[list[list[str]], list[list[str]]]:
    """(predictions, references) in IOB2: `sentences` x `length` tokens, about 12.5 % of them in reference
    entities of `types` types (skewed: the first type is the most common). Each reference entity is
    perturbed with probability `noise` in the predictions: boundary moved by one token (sometimes with a
    type change too), type changed, entity dropped, or a spurious entity added elsewhere in the sentence."""
    rng = random.Random(seed)
    names = [TYPE_NAMES[i] if i < len(TYPE_NAMES) else f"TYPE{i}" for i in range(types)]
    type_weights = [1 / (rank + 1) for rank in range(types)]
    # One string object per tag, shared by all sentences, as a tokenizer's id2label gives them.
    begin = {name: f"B-{name}" for name in names}
    inside = {name: f"I-{name}" for name in names}
    mean_length = sum(n * w for n, w in zip(LENGTHS, LENGTH_WEIGHTS)) / sum(LENGTH_WEIGHTS)
    # A free token starts an entity with probability p: coverage = p*mean / ((1 - p) + p*mean).
    start_probability = COVERAGE / (mean_length - COVERAGE * (mean_length - 1))

    def other_type(name: str) -> str:
        return rng.choice([n for n in names if n != name]) if types > 1 else name

    def encode(spans: list[tuple[int, int, str]]) -> list[str]:
        tags = ["O"] * length
        for start, end, name in spans:
            tags[start] = begin[name]
            for position in range(start + 1, end):
                tags[position] = inside[name]
        return tags

    predictions, references = [], []
    for _ in range(sentences):
        gold: list[tuple[int, int, str]] = []
        position = 0
        while position < length:
            if rng.random() < start_probability:
                size = min(rng.choices(LENGTHS, LENGTH_WEIGHTS)[0], length - position)
                gold.append((position, position + size, rng.choices(names, type_weights)[0]))
                position += size
            else:
                position += 1
        predicted: list[tuple[int, int, str]] = []
        for start, end, name in gold:
            if rng.random() >= noise:
                predicted.append((start, end, name))
                continue
            kind = rng.choice(NOISE_KINDS)
            if kind == "boundary":
                if rng.random() < 0.5:
                    start = min(max(0, start + rng.choice((-1, 1))), end - 1)
                else:
                    end = max(min(length, end + rng.choice((-1, 1))), start + 1)
                predicted.append((start, end, other_type(name) if rng.random() < 0.25 else name))
            elif kind == "type":
                predicted.append((start, end, other_type(name)))
            elif kind == "add":
                predicted.append((start, end, name))
                extra = rng.randrange(length)
                size = min(rng.choices(LENGTHS, LENGTH_WEIGHTS)[0], length - extra)
                predicted.append((extra, extra + size, rng.choices(names, type_weights)[0]))
            # "drop": nothing predicted
        predicted.sort()
        kept: list[tuple[int, int, str]] = []
        for span in predicted:  # predictions of one sequence never overlap: keep the first of a clash
            if not kept or span[0] >= kept[-1][1]:
                kept.append(span)
        predictions.append(encode(kept))
        references.append(encode(gold))
    return predictions, references


def read_tags(path: Path) -> list[list[str]]:
    """Sentences of a CoNLL-style file: the tag is the last column, a blank line ends a sentence, CRLF ok."""
    sentences: list[list[str]] = []
    current: list[str] = []
    with open(path, encoding="utf-8", newline=None) as handle:
        for line in handle:
            columns = line.split()
            if not columns:
                if current:
                    sentences.append(current)
                    current = []
                continue
            current.append(columns[-1])
    if current:
        sentences.append(current)
    return sentences


def wnut17_dataset() -> tuple[Dataset | None, list[str]]:
    """The seven WNUT-17 system outputs against the gold test set, or None when ../shared is absent."""
    notes: list[str] = []
    if not (WNUT17 / WNUT_GOLD).is_file():
        return None, [f"wnut17: {WNUT17} not found, column skipped"]
    gold = read_tags(WNUT17 / WNUT_GOLD)
    parts, names = [], []
    for system in WNUT_SYSTEMS:
        path = WNUT17 / system
        if not path.is_file():
            notes.append(f"wnut17: {system} missing, skipped")
            continue
        predicted = read_tags(path)
        if [len(s) for s in predicted] != [len(s) for s in gold]:
            notes.append(f"wnut17: {system} is not token-aligned with {WNUT_GOLD}, skipped")
            continue
        parts.append((predicted, gold))
        names.append(system)
    if not parts:
        return None, notes
    dataset = Dataset(
        "wnut17",
        f"WNUT-17 test set ({len(gold):,} sentences) scored against each of {len(parts)} system outputs",
        parts,
        part_names=names,
    )
    return dataset, notes


# ---------------------------------------------------------------------------------------------------------
# Tools: each setup returns a function of one (predictions, references, types) part, imported beforehand
# ---------------------------------------------------------------------------------------------------------


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


def setup_ner_semeval() -> Callable[..., Any]:
    import ner_semeval

    return lambda predictions, references, types: ner_semeval.compute_semeval(predictions, references)


def setup_ner_semeval_per_type() -> Callable[..., Any]:
    import ner_semeval

    return lambda predictions, references, types: ner_semeval.compute_semeval(predictions, references, per_type=True)


def _quiet_evaluate() -> Any:
    import datasets
    import evaluate

    datasets.disable_progress_bars()
    evaluate.logging.set_verbosity_error()
    datasets.logging.set_verbosity_error()
    return evaluate


def _experiment_id() -> str:
    # evaluate's cache file is named after the experiment id; with the default one, a metric computed at the
    # same moment by another process on this machine (a test run) holds its lock and compute() waits 1 s
    # for it before picking another file. A name of our own measures evaluate, not the neighbours.
    return f"ner-semeval-benchmark-{os.getpid()}"


def _load_metric(path: Path) -> Callable[..., Any]:
    metric = _quiet_evaluate().load(str(path), experiment_id=_experiment_id())
    # evaluate deletes its cache files after compute but leaves the empty .lock files behind.
    atexit.register(_remove_locks, Path(metric.data_dir), _experiment_id())
    return lambda predictions, references, types: metric.compute(predictions=predictions, references=references)


def _remove_locks(folder: Path, experiment_id: str) -> None:
    for lock in folder.glob(f"{experiment_id}-*.lock"):
        lock.unlink(missing_ok=True)


def setup_compute() -> Callable[..., Any]:
    return _load_metric(REPO / "ner_semeval.py")


def setup_noop() -> Callable[..., Any]:
    return _load_metric(NOOP_PATH)


def setup_nervaluate() -> Callable[..., Any]:
    import logging

    from nervaluate import Evaluator

    logging.getLogger("nervaluate").setLevel(logging.ERROR)

    def nervaluate(predictions: list[list[str]], references: list[list[str]], types: list[str]) -> dict:
        return Evaluator(references, predictions, tags=types, loader="list").evaluate()

    return nervaluate


def _quiet_seqeval() -> None:
    import warnings

    from seqeval.metrics.v1 import UndefinedMetricWarning

    # A system that never predicts some type (drexel_cci on WNUT-17) makes every report warn.
    warnings.filterwarnings("ignore", category=UndefinedMetricWarning)


def setup_seqeval_f1() -> Callable[..., Any]:
    from seqeval.metrics import f1_score

    _quiet_seqeval()

    return lambda predictions, references, types: f1_score(references, predictions)


def setup_seqeval_report() -> Callable[..., Any]:
    from seqeval.metrics import classification_report

    _quiet_seqeval()

    return lambda predictions, references, types: classification_report(references, predictions)


@dataclass(frozen=True)
class Tool:
    name: str
    label: str
    setup: Callable[[], Callable[..., Any]]
    peer: bool = False  # a slow peer: may be skipped above --peer-limit sentences


TOOLS = {
    tool.name: tool
    for tool in (
        Tool("floor", "floor: bare loop over the tags", setup_floor),
        Tool("ner_semeval", "ner_semeval.compute_semeval", setup_ner_semeval),
        Tool("ner_semeval_per_type", "  compute_semeval(per_type=True)", setup_ner_semeval_per_type),
        Tool("compute", "NerSemeval.compute (evaluate)", setup_compute),
        Tool("noop", "no-op Metric.compute (evaluate)", setup_noop),
        Tool("nervaluate", "nervaluate 1.2.1 Evaluator", setup_nervaluate, peer=True),
        Tool("seqeval_f1", "seqeval f1_score", setup_seqeval_f1, peer=True),
        Tool("seqeval_report", "seqeval classification_report", setup_seqeval_report, peer=True),
    )
}


# ---------------------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------------------


def run_parts(function: Callable[..., Any], dataset: Dataset) -> list[Any]:
    return [function(predictions, references, dataset.types) for predictions, references in dataset.parts]


def time_once(function: Callable[..., Any], dataset: Dataset, gc_off: bool) -> tuple[float, list[Any]]:
    # Start every run from a clean heap; the collector stays on during the run unless --gc-off (users
    # run with it on, and allocation-heavy code pays for it), but the input was frozen by the caller so
    # collections do not walk the benchmark's own data.
    gc.collect()
    if gc_off:
        gc.disable()
    try:
        start = time.perf_counter()
        results = run_parts(function, dataset)
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return elapsed, results


@dataclass
class Cell:
    times: list[float] = field(default_factory=list)
    skipped: str | None = None
    cut_short: bool = False  # run once only: its first run took longer than --slow

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times else None

    @property
    def minimum(self) -> float | None:
        return min(self.times) if self.times else None

    @property
    def spread(self) -> float | None:
        """Slowest run over fastest: how much the machine's load moved this cell."""
        return max(self.times) / min(self.times) if self.times and min(self.times) > 0 else None


def bench_dataset(
    dataset: Dataset,
    functions: dict[str, Callable[..., Any]],
    args: argparse.Namespace,
    notes: list[str],
    headline: str,
) -> tuple[dict[str, Cell], dict[str, list[Any]]]:
    """Time every tool on one dataset, interleaved run by run; the last results of each tool for checks."""
    cells = {name: Cell() for name in functions}
    results: dict[str, list[Any]] = {}
    active = []
    for name in functions:
        tool = TOOLS[name]
        if tool.peer and dataset.sentences > args.peer_limit:
            cells[name].skipped = f"above --peer-limit {args.peer_limit:,}"
            notes.append(f"{dataset.name}: {name} skipped ({dataset.sentences:,} sentences > --peer-limit)")
        elif name == "nervaluate" and dataset.name == "doc-one" and not args.slow_peers:
            cells[name].skipped = "quadratic, see --slow-peers"
            notes.append(
                f"{dataset.name}: nervaluate skipped (its matching is quadratic in the entities of a document; "
                "--slow-peers runs it)"
            )
        else:
            active.append(name)
    gc.collect()
    gc.freeze()  # the input stays alive through every run: keep it out of the collector's way
    try:
        for repeat in range(args.repeats):
            for name in list(active):
                elapsed, last = time_once(functions[name], dataset, args.gc_off)
                cells[name].times.append(elapsed)
                # Keep only what the checks read: nervaluate's full result holds every entity's indices.
                results[name] = [nervaluate_counts(r) for r in last] if name == "nervaluate" else last
                del last
                # One run is enough to know a slow tool is slow, except in the goals' column.
                if repeat == 0 and elapsed > args.slow and args.repeats > 1 and dataset.name != headline:
                    active.remove(name)
                    cells[name].cut_short = True
                    notes.append(f"{dataset.name}: {name} took {elapsed:.1f} s > --slow {args.slow:g} s, run once")
            progress(
                f"  {dataset.name} run {repeat + 1}/{args.repeats}: "
                + ", ".join(f"{name} {cells[name].times[-1]:.4f}" for name in functions if cells[name].times)
            )
    finally:
        gc.unfreeze()
    return cells, results


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------
# Agreement checks (not failures: differences are printed)
# ---------------------------------------------------------------------------------------------------------

SCHEME_NAMES = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
FIELDS = ("correct", "incorrect", "partial", "missed", "spurious")


def nervaluate_counts(result: dict[str, Any]) -> dict[str, int]:
    """nervaluate's overall counts under ner_semeval's key names (its `ent_type` is our `type`)."""
    return {
        f"{scheme}_{measure}": getattr(result["overall"][their_scheme], measure)
        for scheme, their_scheme in SCHEME_NAMES.items()
        for measure in FIELDS
    }


def nervaluate_differences(ours: dict[str, Any], theirs: dict[str, int]) -> list[str]:
    """The count keys (of 20: four schemes x five MUC counts) where nervaluate disagrees with ner_semeval."""
    return [f"{key}: {ours[key]} vs {value}" for key, value in theirs.items() if ours[key] != value]


def agreement(dataset: Dataset, results: dict[str, list[Any]]) -> list[str]:
    lines = []
    ours = results.get("ner_semeval")
    if ours is None:
        return lines
    labels = dataset.part_names or [dataset.name]
    if "nervaluate" in results:
        for label, mine, theirs in zip(labels, ours, results["nervaluate"]):
            differing = nervaluate_differences(mine, theirs)
            detail = f" ({'; '.join(differing[:4])}{'; ...' if len(differing) > 4 else ''})" if differing else ""
            lines.append(f"{label}: nervaluate four-scheme counts, {len(differing)} of 20 keys differ{detail}")
    if "seqeval_f1" in results:
        gaps = [abs(mine["strict_f1"] - theirs) for mine, theirs in zip(ours, results["seqeval_f1"])]
        lines.append(f"{dataset.name}: |strict_f1 - seqeval f1_score| max {max(gaps):.2e} over {len(gaps)} part(s)")
    if "compute" in results:
        same = all(mine == theirs for mine, theirs in zip(ours, results["compute"]))
        lines.append(f"{dataset.name}: NerSemeval.compute returns compute_semeval's dict: {'yes' if same else 'NO'}")
    return lines


# ---------------------------------------------------------------------------------------------------------
# Memory: one subprocess per tool, so one tool's peak does not hide another's
# ---------------------------------------------------------------------------------------------------------


def _proc_status_kib(field_name: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def _reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark (Linux: VmHWM) to the current RSS."""
    try:
        with open("/proc/self/clear_refs", "w") as handle:
            handle.write("5")
    except OSError:
        return False
    return _proc_status_kib("VmHWM") is not None


def child_memory(args: argparse.Namespace) -> None:
    """In a fresh process: peak RSS growth over one run, then the tracemalloc peak of another."""
    function = TOOLS[args.child_memory].setup()
    predictions, references = generate(args.child_sentences, args.length, args.types, args.noise, args.seed)
    dataset = Dataset("memory", "", [(predictions, references)])
    run_parts(function, Dataset("warm-up", "", [(predictions[:200], references[:200])]))  # lazy imports, caches
    gc.collect()
    # getrusage's maxrss is no good here: Linux carries the parent's peak over fork and exec, and it never
    # goes down. VmHWM can be reset to the current RSS, so the growth is this run's alone.
    if _reset_peak_rss():
        method, before = "VmHWM", _proc_status_kib("VmRSS")
        result = run_parts(function, dataset)
        after = _proc_status_kib("VmHWM")
    else:
        scale = 1 if sys.platform.startswith("linux") else 1 / 1024  # macOS reports bytes
        method, before = "maxrss", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
        result = run_parts(function, dataset)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
    del result
    gc.collect()
    tracemalloc.start()
    run_parts(function, dataset)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(json.dumps({"rss_growth_kib": after - before, "rss_kib": after, "tracemalloc_peak": peak, "rss": method}))


def measure_memory(names: list[str], args: argparse.Namespace, sentences: int) -> dict[str, dict[str, Any]]:
    memory = {}
    for name in names:
        progress(f"  memory: {name}")
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--child-memory",
            name,
            "--child-sentences",
            str(sentences),
            "--length",
            str(args.length),
            "--types",
            str(args.types),
            "--noise",
            str(args.noise),
            "--seed",
            str(args.seed),
        ]
        completed = subprocess.run(command, capture_output=True, text=True, check=False)
        if completed.returncode != 0:
            memory[name] = {"error": completed.stderr.strip().splitlines()[-1:]}
            continue
        memory[name] = json.loads(completed.stdout.strip().splitlines()[-1])
    return memory


# ---------------------------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------------------------


def revision() -> str:
    """The checkout measured: commit, and whether ner_semeval.py has uncommitted changes."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "--", "ner_semeval.py"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return f"{commit}{' + uncommitted changes to ner_semeval.py' if changed else ''}"


def machine() -> dict[str, Any]:
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for package in ("numpy", "evaluate", "datasets", "pyarrow", "nervaluate", "seqeval"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = "not installed"
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        **versions,
    }


def format_seconds(value: float | None) -> str:
    if value is None:
        return "-"
    if value < 0.01:
        return f"{value:.5f}"
    if value < 10:
        return f"{value:.4f}"
    return f"{value:.1f}"


def print_table(
    columns: list[Dataset], table: dict[str, dict[str, Cell]], names: list[str], headline: str, single: str
) -> None:
    width = max(len(TOOLS[name].label) for name in names) + 2
    cell_width = 12
    header = f"{'median seconds':<{width}}" + "".join(
        f"{column.name + ('*' if column.name == headline else ''):>{cell_width}}" for column in columns
    )
    print(header)
    print("-" * len(header))
    for name in names:
        cells = []
        for column in columns:
            cell = table[column.name][name]
            text = "skip" if cell.skipped else format_seconds(cell.median)
            if cell.cut_short and single:
                text += single
            cells.append(f"{text:>{cell_width}}")
        print(f"{TOOLS[name].label:<{width}}" + "".join(cells))


def print_ratio_table(columns: list[Dataset], table: dict[str, dict[str, Cell]], names: list[str]) -> None:
    width = max(len(TOOLS[name].label) for name in names) + 2
    cell_width = 12
    print(f"{'time / compute_semeval':<{width}}" + "".join(f"{column.name:>{cell_width}}" for column in columns))
    for name in names:
        cells = []
        for column in columns:
            ours = table[column.name]["ner_semeval"].median
            theirs = table[column.name][name].median
            cells.append(f"{f'{theirs / ours:.2f}x' if ours and theirs else '-':>{cell_width}}")
        print(f"{TOOLS[name].label:<{width}}" + "".join(cells))


def ratio(
    table: dict[str, dict[str, Cell]], top: tuple[str, str], bottom: tuple[str, str], statistic: str = "median"
) -> float | None:
    """The `statistic` ("median" or "minimum") of cell `top` over that of cell `bottom`, each (column, tool)."""
    numerator = table.get(top[0], {}).get(top[1])
    denominator = table.get(bottom[0], {}).get(bottom[1])
    if numerator is None or denominator is None:
        return None
    above, below = getattr(numerator, statistic), getattr(denominator, statistic)
    return above / below if above and below else None


def goals(
    table: dict[str, dict[str, Cell]], headline: str, small: str, large: str, sentences: int
) -> list[dict[str, Any]]:
    """Issue 5's goals: the ratio of medians (what PASS / MISS judge) and, to gauge noise, of minimums."""
    h = headline
    document = ("doc-one", "ner_semeval"), ("doc-split", "ner_semeval")
    rows = [
        (f"nervaluate / compute_semeval ({h})", (h, "nervaluate"), (h, "ner_semeval"), ">=", 30.0),
        (f"seqeval classification_report / compute_semeval ({h})", (h, "seqeval_report"), (h, "ner_semeval"), ">=", 30),
        (f"compute_semeval / bare loop ({h})", (h, "ner_semeval"), (h, "floor"), "<=", 3.0),
        (f"NerSemeval.compute / no-op compute ({h})", (h, "compute"), (h, "noop"), "<=", 1.5),
        (f"compute_semeval: one {sentences:,}-sentence document / the same split", *document, "<=", 1.5),
        (f"compute_semeval: {large} / {small} sentences", (large, "ner_semeval"), (small, "ner_semeval"), "<=", 11.0),
        (f"stretch: NerSemeval.compute / no-op compute ({h})", (h, "compute"), (h, "noop"), "<=", 1.0),
    ]  # fmt: skip
    return [
        {
            "goal": goal,
            "ratio": ratio(table, top, bottom),
            "ratio_of_minimums": ratio(table, top, bottom, "minimum"),
            "op": op,
            "target": float(target),
        }
        for goal, top, bottom, op, target in rows
    ]


def verdict(goal: dict[str, Any]) -> str:
    if goal["ratio"] is None:
        return "n/a"
    met = goal["ratio"] >= goal["target"] if goal["op"] == ">=" else goal["ratio"] <= goal["target"]
    return "PASS" if met else "MISS"


# ---------------------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------------------


def size_name(sentences: int) -> str:
    return f"{sentences // 1000}k" if sentences % 1000 == 0 else str(sentences)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", help="sentences per synthetic column, comma list (default 1000,10000,100000)")
    parser.add_argument("--headline", type=int, default=HEADLINE, help="sentences of the goals' column")
    parser.add_argument("--document", type=int, default=2000, help="sentences of the one-document comparison")
    parser.add_argument("--length", type=int, default=20, help="tokens per generated sentence")
    parser.add_argument("--types", type=int, default=4, help="entity types in generated data")
    parser.add_argument("--noise", type=float, default=0.2, help="share of reference entities perturbed")
    parser.add_argument("--seed", type=int, default=2013)
    parser.add_argument("--repeats", type=int, help="timed runs per tool and column, median shown (default 5)")
    parser.add_argument("--only", default=",".join(TOOLS), help=f"tools to run, of {','.join(TOOLS)}")
    parser.add_argument("--peer-limit", type=int, default=20_000, help="skip peers on columns with more sentences")
    parser.add_argument("--slow", type=float, default=8.0, help="a tool whose first run takes longer runs once")
    parser.add_argument("--slow-peers", action="store_true", help="run nervaluate on the one-document column too")
    parser.add_argument("--gc-off", action="store_true", help="disable the collector during timed runs (timeit)")
    parser.add_argument("--no-memory", action="store_true", default=None, help="skip the peak-memory subprocesses")
    parser.add_argument("--no-wnut", action="store_true", help="skip the WNUT-17 column even when present")
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: sizes 1000,10000 (and 20,000), 1 run each, no memory"
    )
    parser.add_argument("--json", default=str(BENCHMARKS / "results" / "latest.json"), help="raw results file")
    parser.add_argument("--child-memory", help=argparse.SUPPRESS)
    parser.add_argument("--child-sentences", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    # --quick changes defaults only: explicit options still win.
    defaults = {"sizes": "1000,10000,100000", "repeats": 5, "no_memory": False}
    if args.quick:
        defaults = {"sizes": "1000,10000", "repeats": 1, "no_memory": True}
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    unknown = set(args.only.split(",")) - set(TOOLS)
    if unknown:
        parser.error(f"unknown tool(s) {sorted(unknown)}; choose from {', '.join(TOOLS)}")
    return args


def datasets_to_run(args: argparse.Namespace, notes: list[str]) -> Iterator[Dataset]:
    """Columns one at a time, so only one size is in memory."""
    sizes = sorted({int(size) for size in args.sizes.split(",")} | {args.headline})
    for sentences in sizes:
        predictions, references = generate(sentences, args.length, args.types, args.noise, args.seed)
        yield Dataset(
            size_name(sentences),
            f"{sentences:,} generated sentences x {args.length} tokens",
            [(predictions, references)],
        )
    predictions, references = generate(args.document, args.length, args.types, args.noise, args.seed)
    yield Dataset("doc-split", f"{args.document:,} generated sentences, one sequence each", [(predictions, references)])
    yield Dataset(
        "doc-one",
        f"the same {args.document:,} sentences as one sequence of {args.document * args.length:,} tokens",
        [
            (
                [[tag for sentence in predictions for tag in sentence]],
                [[tag for sentence in references for tag in sentence]],
            )
        ],
    )
    if not args.no_wnut:
        dataset, wnut_notes = wnut17_dataset()
        notes.extend(wnut_notes)
        if dataset is not None:
            yield dataset


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child_memory:
        child_memory(args)
        return 0
    names = [name for name in TOOLS if name in args.only.split(",")]
    started = time.time()
    info = machine()
    info["ner_semeval"] = revision()  # before the run: the lead may commit while it runs
    load_start = os.getloadavg()
    progress("setting up " + ", ".join(names))
    functions = {name: TOOLS[name].setup() for name in names}
    # Warm up every tool once (first-call imports, evaluate's cache folders) before anything is timed.
    warm = generate(200, args.length, args.types, args.noise, args.seed + 1)
    warm_dataset = Dataset("warm-up", "", [warm])
    for function in functions.values():
        run_parts(function, warm_dataset)

    notes: list[str] = []
    checks: list[str] = []
    columns: list[Dataset] = []
    table: dict[str, dict[str, Cell]] = {}
    coverage = []
    split_result = None
    for dataset in datasets_to_run(args, notes):
        progress(f"{dataset.name}: {dataset.description}")
        cells, results = bench_dataset(dataset, functions, args, notes, size_name(args.headline))
        table[dataset.name] = cells
        checks.extend(agreement(dataset, results))
        if dataset.name == "doc-split":
            split_result = results.get("ner_semeval")
        if dataset.name == "doc-one" and split_result is not None and "ner_semeval" in results:
            same = results["ner_semeval"] == split_result
            checks.append(f"doc-one: compute_semeval gives {'the same' if same else 'a DIFFERENT'} dict as doc-split")
        if dataset.name == size_name(args.headline):
            entity_tokens = sum(tag != "O" for sentence in dataset.parts[0][1] for tag in sentence)
            coverage.insert(0, f"{entity_tokens / dataset.tokens:.1%} of reference tokens inside entities")
            if "ner_semeval" in results:
                ours = results["ner_semeval"][0]
                coverage.insert(
                    1,
                    f"{ours['strict_possible']:,} reference / {ours['strict_actual']:,} predicted "
                    f"entities, strict F1 {ours['strict_f1']:.3f}, partial F1 {ours['partial_f1']:.3f}",
                )
        columns.append(dataset)
        del dataset, results
        gc.collect()

    memory = {}
    if not args.no_memory:
        progress(f"peak memory at {args.headline:,} sentences, one subprocess per tool")
        memory = measure_memory(names, args, args.headline)

    headline = size_name(args.headline)
    sizes = sorted(int(size) for size in args.sizes.split(","))
    small = size_name(10_000) if 10_000 in sizes else None
    large = size_name(100_000) if 100_000 in sizes else None
    goal_rows = goals(table, headline, small or "10k", large or "100k", args.document)
    load_end = os.getloadavg()

    print()
    print("ner_semeval benchmark (issue 5)")
    print(
        f"machine: {info['platform']}; {info['cpu']}; {info['cores']} cores ({info['usable_cores']} usable); "
        f"{info['implementation']} {info['python']}; numpy {info['numpy']}"
    )
    print(
        f"packages: evaluate {info['evaluate']}, datasets {info['datasets']}, pyarrow {info['pyarrow']}, "
        f"nervaluate {info['nervaluate']}, seqeval {info['seqeval']}"
    )
    print(f"ner_semeval: {REPO / 'ner_semeval.py'} at {info['ner_semeval']}")
    print(
        f"load average 1/5/15 min: {' '.join(f'{x:.2f}' for x in load_start)} at start, "
        f"{' '.join(f'{x:.2f}' for x in load_end)} at end; {time.time() - started:.0f} s in all"
    )
    print(
        f"runs: median of {args.repeats} (time.perf_counter, tools interleaved run by run, gc.collect() before "
        f"each run, collector {'off' if args.gc_off else 'on'} during it, input frozen out of it)"
    )
    print(f"data: IOB2, {args.types} types, noise {args.noise:g}, seed {args.seed}; " + "; ".join(coverage))
    print()
    for column in columns:
        print(f"  {column.name + ('*' if column.name == headline else ''):<10} {column.description}")
    print()
    print_table(columns, table, names, headline, single="¹")
    print("* the goals' column. ¹ one run only (first run above --slow). skip: see notes.")
    if headline in table and args.repeats > 1:
        spreads = [f"{name} {table[headline][name].spread:.2f}x" for name in names if table[headline][name].spread]
        print(f"spread in {headline} (slowest run / fastest): " + ", ".join(spreads))
    if "ner_semeval" in names:
        print()
        print_ratio_table(columns, table, names)
    print()
    print("goals (issue 5)")
    for goal in goal_rows:
        value = "not run" if goal["ratio"] is None else f"{goal['ratio']:.2f}x"
        minimums = "" if goal["ratio_of_minimums"] is None else f"{goal['ratio_of_minimums']:.2f}x"
        print(
            f"  {verdict(goal):<5} {goal['goal']:<62} {value:>9}  (goal {goal['op']} {goal['target']:g}x; "
            f"ratio of fastest runs {minimums or '-'})"
        )
    if memory:
        print()
        print(f"peak memory at {args.headline:,} sentences (one fresh process per tool, after a warm-up)")
        print(f"  {'tool':<36}{'tracemalloc peak':>18}{'RSS growth':>14}{'process peak':>14}")
        for name, values in memory.items():
            if "error" in values:
                print(f"  {TOOLS[name].label:<36} failed: {values['error']}")
                continue
            print(
                f"  {TOOLS[name].label:<36}{values['tracemalloc_peak'] / 2**20:>14.1f} MiB"
                f"{values['rss_growth_kib'] / 1024:>10.1f} MiB{values['rss_kib'] / 1024:>10.0f} MiB"
                + ("" if values.get("rss") == "VmHWM" else " (maxrss: growth may be hidden)")
            )
    if checks:
        print()
        print("agreement checks")
        for line in checks:
            print(f"  {line}")
    if notes:
        print()
        print("notes")
        for line in notes:
            print(f"  {line}")

    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        raw = {
            "machine": info,
            "arguments": {k: v for k, v in vars(args).items() if not k.startswith("child")},
            "load_average": {"start": load_start, "end": load_end},
            "columns": {column.name: column.description for column in columns},
            "times": {
                column: {
                    name: {"times": cell.times, "median": cell.median, "spread": cell.spread, "skipped": cell.skipped}
                    for name, cell in cells.items()
                }
                for column, cells in table.items()
            },
            "goals": [{**goal, "verdict": verdict(goal)} for goal in goal_rows],
            "memory": memory,
            "checks": checks,
            "notes": notes,
        }
        path.write_text(json.dumps(raw, indent=2) + "\n")
        print()
        print(f"raw results: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
