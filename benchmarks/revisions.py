"""Before and after: the same workloads scored by an earlier revision's `compute_semeval` and by the working tree's,
in one process, run by run in turns (issue 15: "the benchmark shows no slowdown").

    python benchmarks/revisions.py                  # against the last commit without nerscore/: 2-3 minutes
    python benchmarks/revisions.py --quick          # 3 runs (9 for short rows), 10,000 span documents, 1,000 nested
    python benchmarks/revisions.py --against 07988d4 --repeats 15

The earlier revision is read with `git show` (nothing is checked out): its single-file `ner_semeval.py` (or its
`nerscore/` package, when it has one) is written to a temporary folder and loaded with importlib under a name of
its own (`ner_semeval_<commit>`), the working tree's package as `nerscore`. Loaded so, neither side imports
evaluate: the old module imports evaluate and datasets only when it is not the command line (its `_COMMAND_LINE`
test of `sys.argv[0]`), and `sys.argv[0]` reads `ner-semeval` while it loads; its `compute_semeval` is the same
code either way. Every workload is scored by both in turns (old run 1, new run 1, old run 2 ...) so that a busy
moment on a shared machine slows both alike; each cell is the median of `--repeats` runs (`measure.take_turns`,
`gc.collect()` before each run, collector on, input frozen out of it; three times as many runs for a row whose
warm-up call took under 0.2 s), after one warm-up call of each.

The two must return equal result dicts on every workload (NaN equal to NaN); a difference is a bug, printed with
the keys that differ, and the exit status is 1. A row PASSes when new / old (medians) is at most 1.10: on this
2-core shared machine two runs of the same code differ by several per cent, so 1.10 is the noise allowance, not
a slowdown that is allowed; when the medians miss but the fastest runs pass, the verdict says noise (rerun with
more --repeats). Times are never asserted in tests.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import math
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from measure import Cell, progress, take_turns, time_once
from run import revision
from workload import REPO, generate, wnut17

import nerscore  # after workload, which puts the checkout first on sys.path: its package, not an installed one

ALLOWANCE = 1.10  # new / old at most this: the noise of this machine, not a slowdown allowed
SHORT = 0.2  # seconds: a row whose warm-up call takes less gets three times --repeats
Batch = list[list[Any]]


@dataclass
class Workload:
    """One row: parts of (predictions, references), each scored by one call with `options`, in one timed run."""

    name: str
    parts: list[tuple[Batch, Batch]]
    options: dict[str, Any]
    part_names: list[str] | None = None


# --- The earlier revision ---------------------------------------------------------------------------------------


def git(*arguments: str, binary: bool = False) -> Any:
    done = subprocess.run(["git", "-C", str(REPO), *arguments], capture_output=True, check=True, text=not binary)
    return done.stdout


def default_revision() -> str:
    """The last commit of HEAD's history that has no nerscore/ folder: the single-file module before the move."""
    for commit in git("rev-list", "HEAD").split():
        if not git("ls-tree", commit, "nerscore"):
            return commit
    raise SystemExit("every commit of HEAD's history has a nerscore/ folder: give --against REV")


@contextmanager
def earlier_module(rev: str) -> Iterator[ModuleType]:
    """REV's scoring code as a module named after the commit: its nerscore/ package when it has one, else its
    ner_semeval.py, written to a temporary folder from git (the checkout is not touched)."""
    commit = git("rev-parse", "--short", rev).strip()
    name = f"ner_semeval_{commit}"
    with tempfile.TemporaryDirectory(prefix="ner-semeval-revision-") as folder:
        if git("ls-tree", commit, "nerscore/__init__.py"):  # a package: relative imports under the new name
            with tarfile.open(fileobj=io.BytesIO(git("archive", commit, "nerscore", binary=True))) as archive:
                archive.extractall(folder, filter="data")
            init = Path(folder) / "nerscore" / "__init__.py"
            spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(init.parent)])
        else:
            path = Path(folder) / f"{name}.py"
            path.write_text(git("show", f"{commit}:ner_semeval.py"), encoding="utf-8")
            spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # before it runs: dataclasses look their module up there
        argv0, sys.argv[0] = sys.argv[0], "ner-semeval"  # the old module's test for the command line: no evaluate
        try:
            spec.loader.exec_module(module)
        finally:
            sys.argv[0] = argv0
        yield module


# --- The workloads ----------------------------------------------------------------------------------------------


def workloads(args: argparse.Namespace) -> Iterator[Workload]:
    """One at a time, so that only one row's data is in memory."""
    tags = generate(args.sentences, 20, 4, 0.2, 2013)  # run.py's goals' column: 20,000 x 20, 4 types
    shape = f"{args.sentences:,} x 20 tags"
    yield Workload(shape, [tags], {})
    yield Workload(f"{shape}, per_type=True", [tags], {"per_type": True})
    yield Workload(f"{shape}, confusion=True", [tags], {"confusion": True})
    yield Workload(f"{shape}, bootstrap=1000", [tags], {"bootstrap": 1000})
    types = sorted({tag[2:] for side in tags for sentence in side for tag in sentence if tag != "O"})
    label_list = ["O", *(f"{prefix}-{kind}" for kind in types for prefix in "BI")]
    index = {tag: number for number, tag in enumerate(label_list)}
    predicted, referenced = ([[index[tag] for tag in sentence] for sentence in side] for side in tags)
    yield Workload(f"{shape} as integer ids, label_list", [(predicted, referenced)], {"label_list": label_list})
    del tags, predicted, referenced
    from spans import as_dicts, flat_documents, nested_documents

    _, references, predictions = flat_documents(args.documents, seed=2013)  # spans.py's spans against tags
    yield Workload(f"spans, {args.documents:,} documents", [(as_dicts(predictions), as_dicts(references))], {})
    references, predictions = nested_documents(args.nested, seed=7)  # spans.py's heavy nesting
    nested = [(as_dicts(predictions), as_dicts(references))]
    yield Workload(f"nested spans, {args.nested:,} documents", nested, {})
    dataset, notes = (None, ["--no-wnut"]) if args.no_wnut else wnut17()
    if dataset is None:
        progress(f"WNUT-17 row skipped: {'; '.join(notes)}")
        return
    yield Workload(f"WNUT-17, {len(dataset.parts)} systems", dataset.parts, {}, dataset.part_names)


def scorer(compute_semeval: Callable[..., dict], workload: Workload) -> Callable[[], list[dict]]:
    def score() -> list[dict]:
        return [compute_semeval(predictions=p, references=r, **workload.options) for p, r in workload.parts]

    return score


# --- Same results -----------------------------------------------------------------------------------------------


def differences(old: Any, new: Any, where: str = "") -> list[str]:
    """Where `old` and `new` differ (NaN equal to NaN), as "key: old != new" lines."""
    if isinstance(old, dict) and isinstance(new, dict):
        lines = [f"{where}{key}: only in {'old' if key in old else 'new'}" for key in old.keys() ^ new.keys()]
        for key in old.keys() & new.keys():
            lines += differences(old[key], new[key], f"{where}{key}.")
        return lines
    if isinstance(old, (list, tuple)) and isinstance(new, (list, tuple)) and len(old) == len(new):
        at = where.rstrip(".")
        return [line for i, (a, b) in enumerate(zip(old, new)) for line in differences(a, b, f"{at}[{i}].")]
    both_nan = isinstance(old, float) and isinstance(new, float) and math.isnan(old) and math.isnan(new)
    return [] if both_nan or old == new else [f"{where.rstrip('.')}: {old!r} (old) != {new!r} (new)"]


def mismatches(workload: Workload, old: list[dict], new: list[dict]) -> list[str]:
    lines = []
    for index, (a, b) in enumerate(zip(old, new)):
        part = f" [{workload.part_names[index]}]" if workload.part_names else ""
        lines += [f"{workload.name}{part}: {line}" for line in differences(a, b)]
    return lines


# --- Main -------------------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--against", help="the earlier revision (default: the last commit of HEAD's history without nerscore/)")
    add("--repeats", type=int, help="timed runs of each side per row, median shown (default 9; --quick 3)")
    add("--sentences", type=int, default=20_000, help="generated sentences of 20 tokens (default 20000)")
    add("--documents", type=int, help="span documents, spans.py's flat ones (default 100000; --quick 10000)")
    add("--nested", type=int, help="documents nested three levels, spans.py's (default 10000; --quick 1000)")
    add("--no-wnut", action="store_true", help="skip WNUT-17 even when ../shared/data/wnut17 exists")
    add("--quick", action="store_true", help="3 runs, 10,000 span documents, 1,000 nested ones")
    args = parser.parse_args(argv)
    defaults = {"repeats": 3, "documents": 10_000, "nested": 1_000} if args.quick else {}
    defaults = {"repeats": 9, "documents": 100_000, "nested": 10_000} | defaults
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rev = args.against or default_revision()
    started, load_start = time.time(), os.getloadavg()
    rows: list[tuple[str, Cell, Cell]] = []
    wrong: list[str] = []
    with earlier_module(rev) as old_module:
        old_name = old_module.__name__.removeprefix("ner_semeval_")
        for workload in workloads(args):
            progress(f"{workload.name}: warm-up")
            runs = {
                "old": scorer(old_module.compute_semeval, workload),
                "new": scorer(nerscore.compute_semeval, workload),
            }
            first = {side: time_once(run) for side, run in runs.items()}  # first-call imports and caches
            wrong += mismatches(workload, first["old"][1], first["new"][1])
            # A row of a fraction of a second is at the mercy of one busy moment: three times the runs.
            repeats = args.repeats * (3 if max(seconds for seconds, _ in first.values()) < SHORT else 1)
            del first
            cells, last = take_turns(runs, repeats, None, workload.name, time_once)
            wrong += mismatches(workload, last["old"], last["new"])
            rows.append((f"{workload.name} ({repeats} runs)", cells["old"], cells["new"]))
            del workload, runs, last
    load_end = os.getloadavg()
    load = [" ".join(f"{x:.2f}" for x in averages) for averages in (load_start, load_end)]
    print("# compute_semeval before and after (issue 15), one process, runs in turns")
    print()
    print(f"old: {old_name}'s compute_semeval, loaded as {old_module.__name__}")
    print(f"new: the working tree's nerscore.compute_semeval ({REPO} at {revision()})")
    print(f"Python {platform.python_version()} on {platform.machine()}, numpy {_numpy()}, {os.cpu_count()} cores")
    print(f"load average 1/5/15 min: {load[0]} at start, {load[1]} at end; {time.time() - started:.0f} s in all")
    print(f"median of {args.repeats} runs each ({3 * args.repeats} for rows under {SHORT} s), old and new in turns")
    print(f"PASS when new / old of the medians <= {ALLOWANCE:.2f} (the noise allowance of a shared machine)")
    print()
    print("| workload | old s | new s | new / old | fastest runs new / old | verdict |")
    print("| --- | --- | --- | --- | --- | --- |")
    verdicts = []
    for name, old, new in rows:
        assert old.median and new.median and old.minimum and new.minimum
        ratio, fastest = new.median / old.median, new.minimum / old.minimum
        verdicts.append(ratio <= ALLOWANCE)
        # As in goals.py: medians and fastest runs on different sides of the bound is noise, not a result.
        verdict = "PASS" if verdicts[-1] else "MISS" if fastest > ALLOWANCE else "MISS (noise: fastest runs pass)"
        print(f"| {name} | {old.median:.4f} | {new.median:.4f} | {ratio:.2f}x | {fastest:.2f}x | {verdict} |")
    print()
    if wrong:
        print(f"RESULT MISMATCH: old and new differ on {len(wrong)} value(s) - a bug in one of them:")
        print("\n".join(f"  {line}" for line in wrong[:50]) + ("\n  ..." if len(wrong) > 50 else ""))
        print(f"RESULT MISMATCH ({len(wrong)})", file=sys.stderr)
        return 1
    print(f"results: old and new return equal result dicts on all {len(rows)} workloads")
    print(f"speed: {sum(verdicts)} of {len(rows)} rows within {ALLOWANCE:.2f}x")
    return 0


def _numpy() -> str:
    import numpy

    return numpy.__version__


if __name__ == "__main__":
    sys.exit(main())
