"""Issue 8's hostile inputs: many entity types, and the command line on large files; the start-up (issues 8, 15);
the most resamples the statistics take (issue 16); strings grounded where one text is predicted with two types and
every occurrence is contested (issue 17, items 7-8; issue 31, item 5: `python benchmarks/hostile.py --grounding`);
the value pairing against §3's on hostile shapes (issue 31, item 6: `--value`, `--value-entities`). How the cost of
other hostile input grows with it is `benchmarks/growth.py`'s.

conlleval.pl, the goals' yardstick, is in no PyPI, Debian or npm package (none of them ships the script): the
command line is compared with PyPI's `conlleval` 0.2, a line-by-line Python port that streams its input as the
Perl script does. A copy of conlleval.pl, given with --conlleval-pl or found on the PATH, is timed too.
"""

from __future__ import annotations

import argparse
import compileall
import shutil
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from measure import Cell, progress, take_turns, time_command, time_once
from workload import REPO, generate, write_conll

TYPE_COUNTS = (1_000, 100_000)
# Issue 16: ultra-fine typing at the same tokens. 100,000 equally common types (about 27,000 of them in 400k tokens)
# against 4, with the goal that the many types cost at most 4x the few.
SAME_TOKENS = 400_000
SAME_TOKENS_TYPES = (4, 100_000)
STARTUP_REPEATS = 9  # a start-up takes a fraction of a second: nine runs cost nothing
COMMANDS = {  # the tools of the command-line section
    "ner_semeval.py": "python ner_semeval.py FILE",
    "conlleval": "python -m conlleval FILE (conlleval 0.2, PyPI's Python port of conlleval.pl)",
    "conlleval.pl": "perl conlleval.pl < FILE",
    "nerscore": "python -c 'import nerscore' (run from the repository)",
    "numpy": "python -c 'import numpy'",
}


def tokens_name(tokens: int) -> str:
    return f"{tokens // 1_000_000}M" if tokens % 1_000_000 == 0 else f"{tokens // 1000}k"


def entity_types(args: argparse.Namespace) -> tuple[dict[str, Cell], dict[str, int]]:
    """Cells "types-T/500k" and "types-T/2M" for T in TYPE_COUNTS (the smaller data set is the first quarter of
    the larger; the two are timed in turns), and how many types each data set holds."""
    from nerscore import compute_semeval

    cells: dict[str, Cell] = {}
    seen: dict[str, int] = {}
    small = args.types_tokens // args.length
    for types in TYPE_COUNTS:
        progress(f"entity types: {types:,} types, {args.types_tokens:,} and {4 * args.types_tokens:,} tokens")
        # Equally common types: as many distinct types as the data can hold, more hostile than the skewed default.
        predictions, references = generate(4 * small, args.length, types, args.noise, args.seed, skew=False)
        runs = {}
        for sentences in (small, 4 * small):
            key = f"types-{types}/{tokens_name(sentences * args.length)}"
            runs[key] = partial(compute_semeval, predictions=predictions[:sentences], references=references[:sentences])
            seen[key] = len({tag[2:] for sentence in references[:sentences] for tag in sentence if tag != "O"})
        measure = partial(time_once, gc_off=args.gc_off)
        cells |= take_turns(runs, args.repeats, args.slow, f"types-{types}", measure)[0]
    progress(f"entity types: {' and '.join(f'{n:,}' for n in SAME_TOKENS_TYPES)} types, {SAME_TOKENS:,} tokens each")
    runs = {}
    for types in SAME_TOKENS_TYPES:
        predictions, references = generate(
            SAME_TOKENS // args.length, args.length, types, args.noise, args.seed, skew=False
        )
        key = f"types-{types}/{tokens_name(SAME_TOKENS)}"
        runs[key] = partial(compute_semeval, predictions=predictions, references=references)
        seen[key] = len({tag[2:] for sentence in references for tag in sentence if tag != "O"})
    measure = partial(time_once, gc_off=args.gc_off)
    cells |= take_turns(runs, args.repeats, args.slow, "types-same-tokens", measure)[0]
    return cells, seen


def start_up(args: argparse.Namespace) -> tuple[dict[str, Cell], dict[str, float]]:
    """Cells "start-up/T" (T: ner_semeval.py on four tokens, nerscore: `python -c "import nerscore"`, numpy:
    `python -c "import numpy"`), every command run from the repository (so that `import nerscore` finds the
    checkout's package), and the peak RSS in MB of each one's last run ("start-up/nerscore/peak")."""
    # Byte-compiled first, as a user's second run finds it: with PYTHONDONTWRITEBYTECODE set (as on some
    # machines) every start would compile the package again, 65 ms that no installed copy pays.
    compileall.compile_dir(REPO / "nerscore", quiet=1)
    with tempfile.TemporaryDirectory(prefix="ner-semeval-benchmark-") as folder:
        tiny = Path(folder) / "start-up.conll"
        tiny.write_text("Ada B-PER B-PER\nLovelace I-PER I-PER\n\nin O O\nLondon B-LOC O\n", encoding="utf-8")
        commands = {
            "ner_semeval.py": [sys.executable, str(REPO / "ner_semeval.py"), str(tiny)],
            "nerscore": [sys.executable, "-c", "import nerscore"],
            "numpy": [sys.executable, "-c", "import numpy"],
        }
        runs = {tool: partial(time_command, command, "", REPO) for tool, command in commands.items()}
        timed, last_peaks = take_turns(runs, STARTUP_REPEATS, None, "start-up", measure=lambda run: run())
    cells = {f"start-up/{tool}": cell for tool, cell in timed.items()}
    return cells, {f"start-up/{tool}/peak": peak for tool, peak in last_peaks.items()}


def command_line(args: argparse.Namespace) -> tuple[dict[str, Cell], dict[str, float]]:
    """For each file, cells "1M/T" (T: ner_semeval.py, conlleval, conlleval.pl if there is one), and the peak RSS
    in MB of each one's last run ("1M/ner_semeval.py/peak")."""
    ner_semeval = [sys.executable, str(REPO / "ner_semeval.py")]
    perl_script = args.conlleval_pl or shutil.which("conlleval.pl") or shutil.which("conlleval")
    cells: dict[str, Cell] = {}
    peaks: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="ner-semeval-benchmark-") as folder:
        for tokens in args.cli_tokens:
            path = Path(folder) / f"{tokens_name(tokens)}.conll"  # written when needed: one large file at a time
            write_conll(path, tokens // args.length, args.length, args.types, args.noise, args.seed)
            progress(f"command line: {tokens:,} tokens, {path.stat().st_size / 1e6:.1f} MB in {path}")
            commands = {"ner_semeval.py": ([*ner_semeval, str(path)], "")}
            commands["conlleval"] = ([sys.executable, "-m", "conlleval", str(path)], "")
            if perl_script:
                commands["conlleval.pl"] = (["perl", perl_script], str(path))  # it reads standard input
            runs = {tool: partial(time_command, command, stdin) for tool, (command, stdin) in commands.items()}
            label = tokens_name(tokens)
            timed, last_peaks = take_turns(runs, args.repeats, args.slow, label, measure=lambda run: run())
            cells.update({f"{label}/{tool}": cell for tool, cell in timed.items()})
            peaks.update({f"{label}/{tool}/peak": peak for tool, peak in last_peaks.items()})
            path.unlink()
    return cells, peaks


# Ten sentences of every scenario, two systems (issue 16): the memory of the statistics is that of their
# resamples, whatever the sentences.
RESAMPLED_REFERENCES = [
    ["B-PER", "I-PER", "O"], ["B-PER", "O", "B-LOC"], ["O", "B-LOC", "I-LOC"], ["B-ORG", "O"], ["O", "O"],
    ["B-PER", "I-PER", "I-PER"], ["O", "O", "O"], ["B-PER", "O", "B-ORG"], ["B-PER", "O"], ["O", "B-LOC"],
]  # fmt: skip
RESAMPLED_SYSTEMS = (
    [
        ["B-PER", "I-PER", "O"], ["B-PER", "O", "O"], ["B-LOC", "I-LOC", "O"], ["B-PER", "O"], ["B-PER", "O"],
        ["B-LOC", "I-LOC", "O"], ["O", "O", "O"], ["B-PER", "O", "B-ORG"], ["B-PER", "O"], ["B-LOC", "O"],
    ],
    [*RESAMPLED_REFERENCES[:5], ["O", "O", "O"], ["O", "B-PER", "O"], ["B-PER", "O", "O"], ["O", "O"], ["O", "O"]],
)  # fmt: skip


def resampling_memory(args: argparse.Namespace) -> dict[str, float]:
    """The peak memory in MB (tracemalloc: what numpy and Python allocate) of `compute_semeval(bootstrap=N)` and
    `compare_semeval(n_resamples=N)` on ten sentences, N = MAX_RESAMPLES: "resamples/bootstrap/peak" and
    "resamples/compare/peak". Holding every resample took 530 MB and 768 MB (e2fb4c1)."""
    from nerscore import compare_semeval, compute_semeval
    from nerscore.option_checks import MAX_RESAMPLES

    runs = {
        "bootstrap": partial(
            compute_semeval,
            predictions=RESAMPLED_SYSTEMS[0],
            references=RESAMPLED_REFERENCES,
            bootstrap=MAX_RESAMPLES,
        ),
        "compare": partial(
            compare_semeval,
            predictions_a=RESAMPLED_SYSTEMS[0],
            predictions_b=RESAMPLED_SYSTEMS[1],
            references=RESAMPLED_REFERENCES,
            n_resamples=MAX_RESAMPLES,
        ),
    }
    peaks = {}
    for name, run in runs.items():
        tracemalloc.start()
        started = time.perf_counter()
        try:
            run()
            peaks[f"resamples/{name}/peak"] = tracemalloc.get_traced_memory()[1] / 1e6
        finally:
            tracemalloc.stop()
        progress(f"resamples: {name}, {MAX_RESAMPLES:,} resamples: {time.perf_counter() - started:.1f} s")
    return peaks


# Issue 17, items 7-8: a text predicted with two types, every occurrence of it contested by a reference of each
# type (on it, around it, across it, or one over all of them), as tests/test_joint_grounding.py builds them. At
# 56fe0a4 the joint grounding branched on each contested occurrence: 2**(n+1) - 1 flows for the duplicates
# (n = 12: 8,191 flows, 5.2 s; n = 14: 32,767 flows, 28.3 s), 5,019 flows for n = 12 nested, 78,405 for n = 16
# shared (33 s), 12,011 flows for n = 12 competing (22 s). Issue 31, item 5: §1b amended (predictions of one text
# and different types may share an occurrence), one flow per overlap component; the red team's shapes: 13
# occurrences of "a", 11 references of three types, 14 predictions (66,778 flows, 35-45 s at 4808eb7), two such
# blocks joined by one reference (> 200,000 flows, > 9 minutes), references X and Y on every occurrence with n
# predictions of each (over 6x the time for 2x n). Goal: at most 4x the time for 2x the occurrences (quadratic at
# worst), at most one flow per text and type.
CONTESTED_SIZES = (40, 80, 160)
RED_TEAM_SIZES = (100, 200, 400, 800)
CONTESTED_GROWTH = 4.0


def x_and_y(n: int, occurrences: int):
    """References X and Y on every one of `occurrences` occurrences of "a", n predictions of "a" as X and n as Y."""
    from nerscore.span import Span

    text = " ".join(["a"] * occurrences)
    references = [Span(2 * i, 2 * i + 1, kind) for i in range(occurrences) for kind in ("X", "Y")]
    return text, references, [("X", "a")] * n + [("Y", "a")] * n


def own_types(n: int, each: int = 1, shared: bool = False):
    """Issue 31, item 5's n types: n occurrences of "a", a reference on each, n predictions of "a" of n // each
    types (each type `each` times). The references are all A, or (`shared`) of the types T0..T(n-1) while the
    predictions are of T(n/2)..., half of them types no reference has."""
    from nerscore.span import Span

    text = "a " * n
    references = [Span(2 * i, 2 * i + 1, f"T{i}" if shared else "A") for i in range(n)]
    offset = n // 2 if shared else 0
    return text, references, [(f"T{i // each + offset}", "a") for i in range(n)]


def late_sites(n: int):
    """2n occurrences of "a": references X and Y on each of the last n, a reference Z over each two occurrences;
    n predictions as X, n as Y, n // 2 as Z: the free occurrences come first, the sites last."""
    from nerscore.span import Span

    text = " ".join(["a"] * (2 * n))
    references = [Span(2 * i, 2 * i + 1, kind) for i in range(n, 2 * n) for kind in ("X", "Y")]
    references += [Span(2 * i, 2 * i + 3, "Z") for i in range(0, 2 * n - 1, 2)]
    return text, references, [("X", "a")] * n + [("Y", "a")] * n + [("Z", "a")] * (n // 2)


def contested_groundings(repeats: int, sizes: Sequence[int] = CONTESTED_SIZES) -> list[str]:
    """Rows "| case | n | seconds | flows | growth for 2x n | goal | verdict |" of `ground_predictions` on the
    adversarial inputs, the median of `repeats` runs, with the flows solved (`grounding_counts.Tracker.solves`),
    and the red team's blocks (issue 31)."""
    sys.path.insert(0, str(REPO / "tests"))
    from grounding_counts import tracked
    from test_joint_grounding import ADVERSARIAL, REMAINING, red_team_block

    from nerscore.forms.grounding import Haystack, ground_predictions
    from nerscore.span import Span

    rows = [
        "| case | n | seconds | flows | growth for 2x n | goal | verdict |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]

    def timed(text, references, predictions):
        haystack = Haystack.of(text, False)
        times = []
        for _ in range(repeats):
            with tracked() as tracker:
                started = time.perf_counter()
                ground_predictions(predictions, haystack, False, references, None)
                times.append(time.perf_counter() - started)
        return sorted(times)[len(times) // 2], tracker.solves

    first, predictions = red_team_block()
    second, more = red_team_block(26, seed=2)
    blocks = {
        "red team: 13 occurrences, 11 references, 14 predictions": (" ".join(["a"] * 13), first, predictions),
        "red team: two blocks joined by one reference": (
            " ".join(["a"] * 26),
            [*first, *second, Span(24, 27, "X")],
            predictions + more,
        ),
    }
    for name, case in blocks.items():
        seconds, solves = timed(*case)
        verdict = "PASS" if solves <= 3 else "MISS"
        rows.append(f"| {name} | 14 | {seconds:.4f} | {solves} | | <= 1 flow per type | {verdict} |")
    cases = [(name, build, sizes) for name, build in ADVERSARIAL.items()]
    cases += [(name, build, sizes) for name, build in REMAINING.items()]
    cases += [
        ("red team: X and Y on n occurrences", lambda n: x_and_y(n, n), RED_TEAM_SIZES),
        ("red team: X and Y on 2n occurrences", lambda n: x_and_y(n, 2 * n), RED_TEAM_SIZES),
        ("late sites, Z over two", late_sites, (40, 80, 160, 320)),
        # At 5c78f54 n^2 (type, occurrence) rows of n^2-bit shares, about n^4.5 (compute_semeval: n = 50 1.5 s,
        # n = 100 27.6 s, n = 500 refused as past free memory); since, one row per occurrence: quadratic (n^2 rows
        # found before the flow), n = 100 0.4 s, n = 500 8 s.
        ("red team: n types of one prediction each", own_types, (50, 100, 200, 400)),
        # At 439a403 §1b's (type, occurrence) rows, n^2 of n^2 bits: about n^4 (n = 12 0.002 s, 25 0.03 s, 50
        # 0.33 s); since, one pass over the occurrences, no flow (`_foreign_apart`): quadratic, the n^2 / 2 rows
        # listed before it, the pass a sixth of the time (n = 50 0.012-0.017 s, 400 1.2-1.5 s, 800 4.2 s, under a
        # load of 5: 3.6-5.1x for 2x n, as noisy as the quadratic rows above it).
        ("n/2 types of two predictions each", lambda n: own_types(n, each=2), (50, 100, 200, 400)),
        # At 2af1353 §1b's (type, occurrence) rows, n^2 of n^2 bits: about n^4 (n = 12 0.002 s, 25 0.01 s, 50
        # 0.09-0.11 s); since, in stages (`staged_grounding`): a flow of the n grounded predictions over n^2 arcs
        # of few-bit costs (two rounds of paths), then n / 2 searches over the arcs of reduced cost 0: n = 50
        # 0.024 s, 100 0.13 s, 200 0.72 s, 400 4.5 s (5.3-6.2x for 2x n under a load of 3.5, the n^2 rows listed
        # before it included; the rows' flow 2.3-2.9 s at n = 100 in the same process).
        ("n types, half of them the references'", lambda n: own_types(n, shared=True), (25, 50, 100, 200)),
    ]
    for name, build, case_sizes in cases:
        previous = None
        for n in case_sizes:
            seconds, solves = timed(*build(n))
            growth = "" if previous is None else f"{seconds / previous:.2f}"
            met = previous is None or seconds / previous <= CONTESTED_GROWTH
            verdict = ("PASS" if met and solves <= 3 else "MISS") if previous is not None else ""
            goal = "" if previous is None else f"<= {CONTESTED_GROWTH:g}x, 1 flow per type"
            rows.append(f"| {name} | {n} | {seconds:.4f} | {solves} | {growth} | {goal} | {verdict} |")
            previous = seconds
    return rows


# Issue 31, item 6: the value pairing on hostile shapes against §3's pairing alone (goal: value=True within 2x of
# value=False). At 4808eb7 the onion of 300 a side took ~25 s with value=True against ~0.2 s without; at c27d730
# the two pairings ran the same solvers on the same entities, 1.9-2.05x; the value's now reads what §3's found
# (`pairing/recent.py`). Each call solves afresh: a call with value=True reads only what its own §3 pairing kept.
VALUE_GOAL = 2.0


def value_cases() -> dict[str, tuple[list, list]]:
    """The hostile shapes of issue 31, item 6: (predictions, references) of one sentence each."""
    n = 300
    return {
        "onion 300 a side": (
            [(i, 2 * n - i - 1, "B" if i % 3 == 0 else "A") for i in range(n)],
            [(i, 2 * n - i, "A" if i % 2 else "B") for i in range(n)],
        ),
        "onion 1,000 a side": (
            [(i, 2_000 - i - 1, "B" if i % 3 == 0 else "A") for i in range(1_000)],
            [(i, 2_000 - i, "A" if i % 2 else "B") for i in range(1_000)],
        ),
        "staircase 2,000 a side": (
            [(i + 1, i + 12, "A") for i in range(2_000)],
            [(i, i + 10, "A") for i in range(2_000)],
        ),
        "100,000 copies a side": ([(0, 5, "A")] * 100_000, [(0, 5, "A")] * 100_000),
        "100,000 copies a side, two types": ([(0, 5, "A")] * 100_000, [(0, 5, "B")] * 100_000),
        "dense staircase 2,000 a side": (
            [(i + 1, i + 2_002, "A") for i in range(2_000)],
            [(i, i + 2_000, "A") for i in range(2_000)],
        ),
        "dense staircase 1,000 a side, two types": (
            [(i + 1, i + 1_002, "AB"[i % 3 % 2]) for i in range(1_000)],
            [(i, i + 1_000, "AB"[i % 2]) for i in range(1_000)],
        ),
        # §3 pairs identical entities by rule 1 and solves nothing (or only the rest); the value does not force
        # them together (docs/scoring.md §10): equal sides are its twins, proven without a solve
        # (`dense.dense_pairs`), and half of them leave it the whole sentence to solve (1.44 times §3's cells).
        "identical onion 1,000 a side": (
            [(i, 2_000 - i, "AB"[i % 2]) for i in range(1_000)],
            [(i, 2_000 - i, "AB"[i % 2]) for i in range(1_000)],
        ),
        "half-identical onion 1,000 a side": (
            [(i, 2_000 - i - (i % 2), "B" if i % 3 == 0 else "A") for i in range(1_000)],
            [(i, 2_000 - i, "A" if i % 2 else "B") for i in range(1_000)],
        ),
        # Copies are entities of their own on scipy's solvers (`value_arrays.unfolded`); both pairings ran the
        # pure-Python flow before, 32 s at 400 by 2 x 400, x13 a doubling.
        "onion of two copies, 800 by 2 x 800": (
            [(i, 1_600 - i - 1, "B") for i in range(800)],
            [(i, 1_600 - i, "A") for i in range(800)] * 2,
        ),
    }


def _nerscore_modules() -> dict:
    return {name: module for name, module in sys.modules.items() if name == "nerscore" or name.startswith("nerscore.")}


def _compute_of(root: str):
    """`compute_semeval` of the checkout at `root` (its modules loaded afresh), which runs on that checkout's
    modules alone: the package imports some of its modules inside functions, which would otherwise find those of
    whichever checkout was loaded last in `sys.modules` (and time it in place of this one's)."""
    import importlib

    for name in _nerscore_modules():
        del sys.modules[name]
    sys.path.insert(0, root)
    try:
        package = importlib.import_module("nerscore")
    finally:
        sys.path.remove(root)
    modules = _nerscore_modules()

    def compute_semeval(**arguments):
        for name in _nerscore_modules():
            del sys.modules[name]
        sys.modules.update(modules)  # (microseconds: a hundred names)
        try:
            return package.compute_semeval(**arguments)
        finally:
            modules.update(_nerscore_modules())  # those first imported in the call, from `root`'s package

    return compute_semeval


def value_ratios(repeats: int, main: str | None = None) -> list[str]:
    """Rows "| case | value=False s | value=True s | ratio best | ratio median | goal | verdict |": CPU seconds, the
    two calls taking turns `repeats` times (scipy imported first); the best ratio is that of the best times, the
    median ratio the median of each turn's ratio. The verdict reads the median. With `main` (a checkout of another
    commit), its two calls take turns too, in the same process ("main's F s, T s": value=False and value=True, and
    this checkout's over main's of each, best and median: a ratio that falls because this value=False got slower
    shows there)."""
    other = None if main is None else _compute_of(main)
    compute_semeval = _compute_of(str(REPO))
    for call in (compute_semeval, other):
        if call is not None:
            call(predictions=[[(0, 20, "A"), (1, 3, "B")]], references=[[(1, 3, "B"), (0, 9, "A")]], value=True)
    header = "| case | value=False s | value=True s | ratio best | ratio median | goal | verdict |"
    header += " main's F s, T s | this / main F best, median | this / main T best, median |" if other else ""
    rows = [header, "|" + " --- |" * (header.count("|") - 1)]
    for name, (predictions, references) in value_cases().items():
        plain, valued, before, before_plain = [], [], [], []
        for _ in range(repeats):
            calls = [(compute_semeval, {}, plain), (compute_semeval, {"value": True}, valued)]
            if other is not None:
                calls += [(other, {}, before_plain), (other, {"value": True}, before)]
            for call, extra, times in calls:
                started = time.process_time()
                call(predictions=[predictions], references=[references], **extra)
                times.append(time.process_time() - started)
        turns = sorted(v / p for p, v in zip(plain, valued))
        best, median = min(valued) / min(plain), turns[len(turns) // 2]
        verdict = "PASS" if median <= VALUE_GOAL else "MISS"
        row = (
            f"| {name} | {min(plain):.3f} | {min(valued):.3f} | {best:.2f} | {median:.2f} | <= {VALUE_GOAL:g}x "
            f"| {verdict} |"
        )
        if other is not None:
            row += f" {min(before_plain):.3f}, {min(before):.3f} |"
            for mine, theirs in ((plain, before_plain), (valued, before)):
                against = sorted(m / t for m, t in zip(mine, theirs))
                row += f" {min(mine) / min(theirs):.2f}, {against[len(against) // 2]:.2f} |"
        rows.append(row)
    return rows


def value_entities_ratios(repeats: int, main: str | None = None) -> list[str]:
    """Rows "| case | value s | value + entities s | ratio best | ratio median |": what return_entities=True adds
    to value=True (each row's value partner, docs/scoring.md §10), CPU seconds, the two calls in turns `repeats`
    times, the hostile shapes of `value_cases` and 20,000 small nested sentences. With `main` (a checkout of
    another commit, `git worktree add`), its value + entities call takes a turn too, in the same process."""
    other = None if main is None else _compute_of(main)
    compute_semeval = _compute_of(str(REPO))
    for call in (compute_semeval, other):
        if call is not None:
            call(predictions=[[(0, 20, "A"), (1, 3, "B")]], references=[[(1, 3, "B"), (0, 9, "A")]], value=True)
    cases = {name: ([p], [r]) for name, (p, r) in value_cases().items() if "100,000" not in name}
    cases["20,000 sentences of 3 nested"] = (
        [[(0, 9, "A"), (1, 4, "B"), (5, 8, "A")]] * 20_000,
        [[(0, 8, "A"), (1, 4, "A"), (5, 9, "B")]] * 20_000,
    )
    header = "| case | value s | value + entities s | ratio best | ratio median |" + (" main's s |" if other else "")
    rows = [header, "|" + " --- |" * (header.count("|") - 1)]
    for name, (predictions, references) in cases.items():
        plain, rowed, before = [], [], []
        for _ in range(repeats):
            calls = [(compute_semeval, {}, plain), (compute_semeval, {"return_entities": True}, rowed)]
            if other is not None:
                calls.append((other, {"return_entities": True}, before))
            for call, extra, times in calls:
                started = time.process_time()
                call(predictions=predictions, references=references, value=True, **extra)
                times.append(time.process_time() - started)
        turns = sorted(r / p for p, r in zip(plain, rowed))
        best, median = min(rowed) / min(plain), turns[len(turns) // 2]
        row = f"| {name} | {min(plain):.3f} | {min(rowed):.3f} | {best:.2f} | {median:.2f} |"
        rows.append(row + (f" {min(before):.3f} |" if other else ""))
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="hostile inputs run on their own")
    parser.add_argument("--grounding", action="store_true", help="issue 17's contested groundings (seconds)")
    parser.add_argument("--value", action="store_true", help="issue 31's value pairing against §3's (seconds)")
    parser.add_argument("--value-entities", action="store_true", help="return_entities=True with value=True")
    parser.add_argument("--main", help="--value, --value-entities: a checkout of another commit to time beside")
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    if arguments.grounding:
        print("\n".join(contested_groundings(arguments.repeats)))
    if arguments.value:
        print("\n".join(value_ratios(arguments.repeats, arguments.main)))
    if arguments.value_entities:
        print("\n".join(value_entities_ratios(arguments.repeats, arguments.main)))
