"""Issue 27's goals ("Every capability written once"), every ratio in one run, for one checkout or two.

    python benchmarks/redesign.py                              # this checkout: 1-2 minutes on 2 cores
    python benchmarks/redesign.py --quick                      # 3 runs a row, smaller span and run data: 40 s
    python benchmarks/redesign.py --repo /tmp/before           # another checkout's nerscore/ and ner_semeval.py
    python benchmarks/redesign.py --before /tmp/before         # before and after: the same rows, side by side
    python benchmarks/redesign.py --only tags --repeats 15     # the tag rows alone (costs over plain compute)

A checkout for `--repo` / `--before` is any folder holding `nerscore/` and `ner_semeval.py`, e.g.
`git worktree add /tmp/before e71d3c5` (main before the issue). With `--before`, each checkout is measured in a
fresh process of its own (`--repo`), one after the other, and the two tables are printed as one: ratios are
taken within one process, so the load on the machine moves both sides of a ratio alike, but not both checkouts
alike (run it twice, or on a quiet machine, before reading a small difference between before and after).

Every row is a ratio of two timings of the same data taken in turns (run 1 of each call, then run 2 ...), after
one warm-up call each, in CPU seconds of this process (`--wall`: wall seconds; the command-line and start-up rows
run fresh processes and are always wall seconds). The figure is the ratio of the fastest runs (on a shared machine
the minimum is the timing least moved by other work); the medians' ratio is printed beside it. Only the public
API is used (`compute_semeval`, `compare_semeval`, `compare_runs`, `encode`), so that the same script measures the
code before and after the redesign. The data are the other scripts': run.py's 20,000 x 20 IOB2 tags
(workload.py), hostile.py's equally common types, command line and start-up, spans.py's flat documents and
strings.py's string documents. Times are never asserted in tests.

The first row counts the physical lines of every nerscore/**/*.py, the figure issue 27 states (about 8,000 for its
capabilities, more than 9,000: duplication survived); the rows under it break that figure down, without a target:
the code lines (no docstring, comment or blank line), and the lines (code lines) of the modules of issue 27's
capabilities apart from those each later issue added (`LATER_ISSUES` names them).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any, NamedTuple

from lines import LATER_ISSUES, package_lines

BENCHMARKS = Path(__file__).resolve().parent
ALL_SLICES = ["entity_length", "seen", "sentence_length", "entity_density", "group"]


class Goal(NamedTuple):
    text: str
    top: str  # key of the measurement
    bottom: str | None  # key it is divided by; None: `top` is the figure (a count of the package's lines)
    op: str  # "<=" or ">="; "" for a row that only breaks a figure down (no target, no verdict)
    target: float | None


def line_rows() -> list[Goal]:
    """The package's lines: all physical lines against issue 27's 9,000, then the same figure broken down (code
    lines apart, and by the issue whose capability a module serves; code lines in brackets)."""
    rows = [
        Goal("package lines (about 8,000 expected; > 9,000: duplication survived)", "lines/all", None, "<=", 9_000),
        Goal("  of which code: no docstring, comment or blank line", "code/all", None, "", None),
        Goal("  modules of issue 27's capabilities: lines (code lines)", "lines/27", "code/27", "", None),
    ]
    rows += [
        Goal(f"  modules added for issue {name}: lines (code lines)", f"lines/{name}", f"code/{name}", "", None)
        for name in LATER_ISSUES
    ]
    return rows


def goals(sizes: argparse.Namespace) -> list[Goal]:
    """The "Goals" section of issue 27, in its order: the package's lines, the costs over plain compute, then the
    goals that stay as they were."""
    tags = f"{sizes.sentences:,} x 20 tags"
    plain = "tags/plain"
    return [
        *line_rows(),
        Goal(f"value=True / compute ({tags})", "tags/value", plain, "<=", 1.3),
        Goal(f"partial_credit='overlap' / compute ({tags})", "tags/overlap", plain, "<=", 1.1),
        Goal(f"five slices + diagnostics + errors / compute ({tags})", "tags/everything", plain, "<=", 1.8),
        Goal("  the same / compute with the same tokens and groups", "tags/everything", "tags/same_inputs", "<=", 1.8),
        Goal(f"bootstrap=1000 / compute ({tags})", "tags/bootstrap", plain, "<=", 1.5),
        Goal(f"return_entities=True / compute ({tags})", "tags/entities", plain, "<=", 3),
        Goal(f"100,000 types / 4 types ({sizes.types_tokens:,} tokens)", "types/100000", "types/4", "<=", 3),
        Goal(
            f"compare_semeval(documents=), 1,000 resamples / by sentence ({tags})",
            "compare/documents",
            "compare/sentences",
            "<=",
            2,
        ),
        *(
            Goal(
                f"compare_runs 5 vs 5 / compare_semeval, {n:,} resamples ({sizes.runs_sentences:,} sentences)",
                f"runs-{n}/compare_runs",
                f"runs-{n}/compare_semeval",
                "<=",
                5,
            )
            for n in sizes.resamples
        ),
        Goal(f"nervaluate / compute ({tags})", "tags/nervaluate", plain, ">=", 40),
        Goal(f"compute / C-level floor, one dict look-up a tag ({tags})", plain, "tags/floor", "<=", 2),
        Goal(
            f"span dicts / the same entities as tags ({sizes.span_documents:,} documents)",
            "spans/dicts",
            "spans/tags",
            "<=",
            2,
        ),
        Goal(
            f"strings with texts / the same entities as spans ({sizes.string_documents:,} documents)",
            "strings/strings",
            "strings/spans",
            "<=",
            3,
        ),
        Goal(
            f"python ner_semeval.py FILE / conlleval 0.2 ({sizes.cli_tokens:,} tokens)",
            f"{sizes.cli_name}/ner_semeval.py",
            f"{sizes.cli_name}/conlleval",
            "<=",
            0.5,
        ),
        Goal(
            "python -c 'import nerscore' / python -c 'import numpy'", "start-up/nerscore", "start-up/numpy", "<=", 1.5
        ),
    ]


# --- Measuring one checkout (in this process, its nerscore imported before anything else) -----------------------


def cpu_once(run: Callable[[], Any]) -> tuple[float, Any]:
    """measure.time_once in CPU seconds of this process: the other work on a shared machine moves them less than
    it moves wall time (the package computes in this one thread)."""
    gc.collect()
    start = time.process_time()
    result = run()
    return time.process_time() - start, result


def in_turns(calls: dict[str, Callable[[], Any]], repeats: int, label: str, wall: bool) -> dict[str, list[float]]:
    """The times of each call, `repeats` runs in turns after one warm-up call each (measure.take_turns), in CPU
    seconds or with `wall` in wall seconds."""
    from measure import take_turns, time_once

    for call in calls.values():
        call()
    cells, _ = take_turns(calls, repeats, None, label, time_once if wall else cpu_once)
    return {name: cell.times for name, cell in cells.items()}


def tag_rows(args: argparse.Namespace) -> dict[str, list[float]]:
    """20,000 x 20 generated IOB2 tags (run.py's goals' column): plain compute and each option, nervaluate, the
    floor. The slices' tokens, groups and `seen` are slices.py's."""
    from run import setup_nervaluate
    from workload import generate

    import nerscore

    predictions, references = generate(args.sentences, 20, 4, 0.2, 2013)
    rng = random.Random(19)
    words = [f"w{index}" for index in range(5_000)]
    tokens = [[rng.choice(words) for _ in sentence] for sentence in references]
    groups = [f"source{index % 7}" for index in range(len(references))]
    seen = set(rng.sample(words, 2_500))
    types = sorted({tag[2:] for sentence in references for tag in sentence if tag != "O"})
    nervaluate = setup_nervaluate()

    def compute(**options: Any) -> Callable[[], Any]:
        return partial(nerscore.compute_semeval, predictions=predictions, references=references, **options)

    def floor() -> None:
        # The least any scorer of tags can do in C: each tag of both sides looked up in a dict once.
        for side in (predictions, references):
            dict.fromkeys(chain.from_iterable(side))

    calls = {
        "plain": compute(),
        "floor": floor,
        "value": compute(value=True),
        "overlap": compute(partial_credit="overlap"),
        "bootstrap": compute(bootstrap=1000),
        "entities": compute(return_entities=True),
        "same_inputs": compute(tokens=tokens, groups=groups),
        "everything": compute(
            tokens=tokens, groups=groups, slices=ALL_SLICES, seen=seen, diagnostics=True, errors=True
        ),
        "nervaluate": lambda: nervaluate(predictions, references, types),
    }
    return {f"tags/{name}": times for name, times in in_turns(calls, args.repeats, "tags", args.wall).items()}


def type_rows(args: argparse.Namespace) -> dict[str, list[float]]:
    """hostile.py's ultra-fine typing: equally common types, 4 against 100,000, on the same number of tokens."""
    from workload import generate

    import nerscore

    calls = {}
    for types in (4, 100_000):
        predictions, references = generate(args.types_tokens // 20, 20, types, 0.2, 2013, skew=False)
        calls[f"types/{types}"] = partial(nerscore.compute_semeval, predictions=predictions, references=references)
    return in_turns(calls, args.repeats, "types", args.wall)


def comparison_rows(args: argparse.Namespace) -> dict[str, list[float]]:
    """compare_semeval by documents of 20 sentences against by sentence (significance.py --runs, item f), 1,000
    resamples, on the goals' column and a second system's tags."""
    from workload import generate

    import nerscore

    system_a, references = generate(args.sentences, 20, 4, 0.2, 2013)
    system_b = generate(args.sentences, 20, 4, 0.2, 2017)[0]
    documents = [index // 20 for index in range(len(references))]
    compare = partial(
        nerscore.compare_semeval,
        predictions_a=system_a,
        predictions_b=system_b,
        references=references,
        n_resamples=1000,
    )
    calls = {"compare/sentences": compare, "compare/documents": partial(compare, documents=documents)}
    return in_turns(calls, args.repeats, "compare", args.wall)


def run_rows(args: argparse.Namespace) -> dict[str, list[float]]:
    """compare_runs of five runs against five, and compare_semeval of one run of each, at each number of resamples.
    A run keeps system A's (or B's) tagging of a sentence or, at random, the reference's own (10 % of the sentences
    for A's runs, 30 % for B's): runs that differ from each other by sentences, as seeds of one model do."""
    from workload import generate

    import nerscore

    predictions, references = generate(args.runs_sentences, 20, 4, 0.2, 2013)

    def runs(seed: int, perfect: float) -> list[list[list[str]]]:
        rng = random.Random(seed)
        return [
            [
                reference if rng.random() < perfect else prediction
                for prediction, reference in zip(predictions, references)
            ]
            for _ in range(5)
        ]

    runs_a, runs_b = runs(1, 0.1), runs(2, 0.3)
    rows: dict[str, list[float]] = {}
    for resamples in args.resamples:
        calls = {
            f"runs-{resamples}/compare_runs": partial(
                nerscore.compare_runs, runs_a=runs_a, runs_b=runs_b, references=references, n_resamples=resamples
            ),
            f"runs-{resamples}/compare_semeval": partial(
                nerscore.compare_semeval,
                predictions_a=runs_a[0],
                predictions_b=runs_b[0],
                references=references,
                n_resamples=resamples,
            ),
        }
        rows |= in_turns(calls, args.runs_repeats, f"runs-{resamples}", args.wall)
    return rows


def form_rows(args: argparse.Namespace) -> dict[str, list[float]]:
    """spans.py's flat documents as tags and as span dicts; strings.py's documents as spans and as strings."""
    import spans
    import strings

    import nerscore

    lengths, references, predictions = spans.flat_documents(args.span_documents, seed=2013)
    as_tags = spans.as_tags(lengths, predictions), spans.as_tags(lengths, references)
    as_dicts = spans.as_dicts(predictions), spans.as_dicts(references)
    calls = {
        "spans/tags": partial(nerscore.compute_semeval, predictions=as_tags[0], references=as_tags[1]),
        "spans/dicts": partial(nerscore.compute_semeval, predictions=as_dicts[0], references=as_dicts[1]),
    }
    rows = in_turns(calls, args.repeats, "spans", args.wall)
    string_calls = strings.calls(strings.documents(args.string_documents, 17))
    return rows | {
        f"strings/{name}": times for name, times in in_turns(string_calls, args.repeats, "strings", args.wall).items()
    }


def command_rows(args: argparse.Namespace, repo: Path) -> dict[str, list[float]]:
    """hostile.py's command line (ner_semeval.py FILE against conlleval 0.2) and start-up rows, run from `repo`."""
    import hostile

    hostile.REPO = repo  # its commands run the checkout measured, not this script's
    options = argparse.Namespace(
        cli_tokens=[args.cli_tokens],
        length=20,
        types=4,
        noise=0.2,
        seed=2013,
        repeats=args.cli_repeats,
        slow=None,
        conlleval_pl=None,
    )
    cells, _ = hostile.command_line(options)
    start_up, _ = hostile.start_up(options)
    return {key: cell.times for key, cell in (cells | start_up).items() if cell.times}


def measure(args: argparse.Namespace, repo: Path) -> dict[str, Any]:
    """Every row's times for the checkout `repo`, whose nerscore is the one this process has imported."""
    from measure import progress

    times: dict[str, list[float]] = {}
    for name, section in SECTIONS.items():
        if args.only in (None, name):
            progress(f"{section.__name__}")
            times |= section(args)
    if not args.no_commands and args.only in (None, "commands"):
        times |= command_rows(args, repo)
    return {"repo": str(repo), "revision": revision(repo), "lines": package_lines(repo), "times": times}


# The sections of rows, as `--only` names them (and "commands": the command line and start-up rows).
SECTIONS = {"tags": tag_rows, "types": type_rows, "compare": comparison_rows, "runs": run_rows, "forms": form_rows}


def revision(repo: Path) -> str:
    done = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    status = subprocess.run(
        ["git", "-C", str(repo), "status", "--porcelain", "--", "nerscore", "ner_semeval.py"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return (done.stdout.strip() or "not a git checkout") + (" + uncommitted changes" if status else "")


# --- The table --------------------------------------------------------------------------------------------------


def figures(goal: Goal, measured: dict[str, Any]) -> tuple[float | None, float | None]:
    """The goal's figure from the fastest runs, and from the medians; for a row of lines, its lines and (where
    the row names them) its code lines."""
    if goal.top.startswith(("lines/", "code/")):
        lines = measured["lines"]
        if not isinstance(lines, dict):  # the JSON of a run before lines were broken down: all physical lines
            lines = {"lines/all": lines}
        return lines.get(goal.top), lines.get(goal.bottom) if goal.bottom else None
    times = measured["times"]
    if goal.top not in times or goal.bottom not in times:
        return None, None
    top, bottom = sorted(times[goal.top]), sorted(times[goal.bottom])
    return top[0] / bottom[0], top[len(top) // 2] / bottom[len(bottom) // 2]


def verdict(goal: Goal, figure: float | None) -> str:
    if goal.target is None:
        return ""
    if figure is None:
        return "n/a"
    return "PASS" if (figure >= goal.target if goal.op == ">=" else figure <= goal.target) else "MISS"


def shown(goal: Goal, figure: float | None) -> str:
    if figure is None:
        return "n/a"
    return f"{figure:,.0f}" if is_lines(goal) else f"{figure:.2f}x"


def is_lines(goal: Goal) -> bool:
    return goal.top.startswith(("lines/", "code/"))


def print_table(args: argparse.Namespace, runs: list[tuple[str, dict[str, Any]]]) -> None:
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print("# Issue 27's goals in one run (benchmarks/redesign.py)")
    print()
    for name, measured in runs:
        print(f"{name}: {measured['repo']} at {measured['revision']}")
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load average at the end {load}")
    print(
        f"figure: ratio of the fastest of {args.repeats} runs ({args.runs_repeats} for compare_runs), "
        f"{'wall' if args.wall else 'CPU'} seconds, calls in turns; commands: fastest of {args.cli_repeats} "
        "(start-up: 9) in wall seconds; the medians' ratio in brackets"
    )
    print(
        "lines: the physical lines of nerscore/**/*.py (issue 27's figure), then broken down: code lines (no "
        "docstring, comment or blank line) in brackets, by the issue each module serves (lines.LATER_ISSUES)"
    )
    print()
    header = " | ".join(f"{name}" for name, _ in runs)
    print(f"| goal | {header} | target | verdict |")
    print("| --- | " + "--- | " * len(runs) + "--- | --- |")
    for goal in goals(args):
        cells, last = [], None
        for _, measured in runs:
            fastest, median = figures(goal, measured)
            cells.append(shown(goal, fastest) + ("" if goal.bottom is None else f" ({shown(goal, median)})"))
            last = fastest
        target = "" if goal.target is None else f"{goal.op} {goal.target:,g}" + ("" if is_lines(goal) else "x")
        print(f"| {goal.text} | {' | '.join(cells)} | {target} | {verdict(goal, last)} |")
    print()
    print(f"verdict: of the {runs[-1][0]} column, by the fastest runs")


# --- Main -------------------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--repo", type=Path, default=BENCHMARKS.parent, help="the checkout measured (default: this one)")
    add("--before", type=Path, help="a second checkout, measured first in a process of its own, shown beside")
    add("--quick", action="store_true", help="fewer runs, smaller span, string and run data: about 40 s")
    add("--repeats", type=int, help="timed runs of each call (default 7; --quick 3)")
    add("--no-commands", action="store_true", help="skip the command line and start-up rows (fresh processes)")
    add("--wall", action="store_true", help="wall time for the calls (default: CPU time; commands: always wall)")
    add("--only", choices=[*SECTIONS, "commands"], help="one section of rows (the others' goals show n/a)")
    add("--json", type=Path, help="write the measured times there as JSON")
    args = parser.parse_args(argv)
    if args.json is not None and args.json.is_dir():  # `--json ''` is Path("."): refused before minutes of runs
        parser.error(f"--json takes a file to write, found the folder {str(args.json)!r}")
    full = {
        "repeats": 7,
        "runs_repeats": 3,
        "cli_repeats": 5,
        "sentences": 20_000,
        "types_tokens": 400_000,
        "runs_sentences": 2_000,
        "resamples": [1_000, 10_000],
        "span_documents": 100_000,
        "string_documents": 20_000,
        "cli_tokens": 1_000_000,
    }
    quick = {
        "repeats": 3,
        "runs_repeats": 2,
        "cli_repeats": 2,
        "sentences": 20_000,
        "types_tokens": 400_000,
        "runs_sentences": 500,
        "resamples": [1_000, 10_000],
        "span_documents": 20_000,
        "string_documents": 5_000,
        "cli_tokens": 1_000_000,
    }
    for name, value in (quick if args.quick else full).items():
        if getattr(args, name, None) is None:
            setattr(args, name, value)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    args.cli_name = f"{args.cli_tokens // 1000}k" if args.cli_tokens % 1_000_000 else f"{args.cli_tokens // 10**6}M"
    for path in filter(None, (args.repo, args.before)):
        if not (path / "nerscore" / "__init__.py").is_file() or not (path / "ner_semeval.py").is_file():
            parser.error(f"{path} holds no nerscore/ and ner_semeval.py")
    return args


def child(args: argparse.Namespace, repo: Path) -> dict[str, Any]:
    """One checkout measured in a fresh process (`--repo`), its times read back as JSON."""
    with tempfile.TemporaryDirectory(prefix="redesign-") as folder:
        output = Path(folder) / "times.json"
        command = [
            sys.executable,
            __file__,
            "--repo",
            str(repo.resolve()),
            "--json",
            str(output),
            "--repeats",
            str(args.repeats),
        ]
        command += ["--quick"] * args.quick + ["--no-commands"] * args.no_commands + ["--wall"] * args.wall
        command += ["--only", args.only] if args.only else []
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        return json.loads(output.read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.before:
        runs = [("before", child(args, args.before)), ("after", child(args, args.repo))]
    else:
        repo = args.repo.resolve()
        sys.path.insert(0, str(repo))
        import nerscore  # first: the benchmark modules' own `import nerscore` then finds this checkout's

        if Path(nerscore.__file__).resolve().parent != repo / "nerscore":
            raise SystemExit(f"imported {nerscore.__file__}, not {repo}'s nerscore")
        sys.path.insert(1, str(BENCHMARKS))
        runs = [(repo.name, measure(args, repo))]
    if args.json:
        args.json.write_text(json.dumps(runs[-1][1], indent=1), encoding="utf-8")
    print_table(args, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
