"""How the cost of hostile input grows with it, each size in turn (issue 31 and its red teams): the dense overlaps'
memory a pair (`--memory`), bootstrap with a group slice of a group a sentence (`--group-bootstrap`), HIPE token
lines that start with a space (`--hipe-spaces`), an onion of discontinuous entities against the same onion without
fragments (`--fragments`), the group slice's scores (`--group-scores`), and an Accumulator fed batches of documents
(`--document-batches`), with rows (`--entity-batches`) or of new groups (`--group-batches`), and an onion of
copies (`--copies`). Each goal is a cost that follows the input's size.

    python benchmarks/growth.py --memory [--against PATH] [--no-value | --only-value]   # about 5 minutes
    python benchmarks/growth.py --group-bootstrap [--against PATH]                       # about 2 minutes
    python benchmarks/growth.py --hipe-spaces                                            # seconds
    python benchmarks/growth.py --fragments [--against PATH]                             # a minute (main's: 2)
    python benchmarks/growth.py --group-scores [--against PATH] [--resamples N]         # about 3 minutes (1,000)
    python benchmarks/growth.py --document-batches [--against PATH]                      # about 3 minutes
    python benchmarks/growth.py --entity-batches [--against PATH]                        # about 5 minutes
    python benchmarks/growth.py --group-batches [--against PATH]                         # about 3 minutes
    python benchmarks/growth.py --copies [--against PATH]                                # about 10 minutes
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from measure import progress
from workload import REPO

# Issue 31, item 7: dense overlaps. At 4808eb7 each overlapping pair cost about 115 bytes at the peak (the onion
# of 2,000 a side: 623 MB) and the dense staircase of 10,000 a side (10**8 pairs) asked numpy for 763 MiB and
# failed with MemoryError. Goal: a few bytes a pair, and a located ValueError, never a MemoryError, where the
# pairs would not fit. Each size runs in a subprocess of its own: its peak under tracemalloc (what numpy and
# Python allocate; not scipy's own C++ buffers) and its peak RSS less the RSS after the imports.
# Each case: predictions, references, the sizes with value=False, the sizes with value=True (the value pairing's
# own, `pairing/value*.py`: dense sentences on `pairing/dense.py` too, given the value's worths).
MEMORY_CASES = {
    "onion": (
        "[(i, 2 * n - i - 1, 'B' if i % 3 == 0 else 'A') for i in range(n)]",
        "[(i, 2 * n - i, 'A' if i % 2 else 'B') for i in range(n)]",
        (1_000, 2_000, 4_000),
        (1_000, 2_000),
    ),
    "onion, 200 types": (
        "[(i, 2 * n - i - 1, f'T{i * 7919 % 200}') for i in range(n)]",
        "[(i, 2 * n - i, f'T{i * 104729 % 211 % 200}') for i in range(n)]",
        (1_500,),
        (1_500,),
    ),
    "dense staircase": (
        "[(i + 1, i + n + 2, 'A') for i in range(n)]",
        "[(i, i + n, 'A') for i in range(n)]",
        (1_000, 3_000, 10_000),
        (1_000, 3_000, 10_000),
    ),
    "dense staircase, two types": (
        "[(i + 1, i + n + 2, 'AB'[i % 3 % 2]) for i in range(n)]",
        "[(i, i + n, 'AB'[i % 2]) for i in range(n)]",
        (1_000, 3_000),  # and 10,000 under the 2 GB limit (listed, before issue 31: 4.6 GB and minutes)
        (1_000, 3_000),
    ),
}
_MEMORY_RUN = """
import resource, sys, time, tracemalloc
sys.path.insert(0, {repo!r})
from nerscore import compute_semeval
from nerscore.pairing.rules import overlap_count
from nerscore.span import Span
import scipy.optimize, scipy.sparse.csgraph
n = {n}
predictions, references = {predictions}, {references}
pairs = overlap_count([Span(*r) for r in references], [Span(*p) for p in predictions])
if {limit}:
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
tracemalloc.start()
started = time.process_time()
try:
    compute_semeval(predictions=[predictions], references=[references], value={value})
    outcome = "scored"
except Exception as error:
    outcome = type(error).__name__ + ": " + str(error)[:160]
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(pairs, before, peak, traced, time.process_time() - started, outcome, sep="\t")
"""


def dense_memory(value: bool = False, against: Path | None = None) -> list[str]:
    """Rows "| case | n | pairs | checkout | CPU s | traced MB | bytes a pair (traced) | RSS MB | bytes a pair (RSS) |
    outcome |" of `compute_semeval` on one sentence, each in a subprocess, and the dense staircases of 10,000 a side
    (10**8 pairs) under a 2 GB address-space limit, which must be scored or refused with a ValueError before
    anything is allocated. With `against` (another checkout, e.g. main's), each size runs there as well, in turns
    with this one, in the same run."""
    import subprocess

    rows = [
        "| case | n | pairs | checkout | CPU s | traced MB | bytes a pair (traced) | RSS MB | bytes a pair (RSS) | "
        "outcome |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    checkouts = _checkouts(against)

    def run(repo: Path, predictions: str, references: str, n: int, limit: int = 0) -> list[str]:
        code = _MEMORY_RUN.format(
            repo=str(repo), n=n, predictions=predictions, references=references, limit=limit, value=value
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        return done.stdout.strip().split("\t")

    def row(name: str, n: int, checkout: str, found: list[str]) -> str:
        pairs, before, peak, traced, seconds, outcome = found
        grown, count = (int(peak) - int(before)) * 1024, max(int(pairs), 1)
        progress(f"memory: {name} {n} ({checkout}): {outcome}")
        return (
            f"| {name} | {n:,} | {int(pairs):,} | {checkout} | {float(seconds):.2f} | {int(traced) / 1e6:.0f} | "
            f"{int(traced) / count:.1f} | {grown / 1e6:.0f} | {grown / count:.1f} | {outcome[:60]} |"
        )

    for name, (predictions, references, sizes, valued_sizes) in MEMORY_CASES.items():
        for n in valued_sizes if value else sizes:
            for checkout, repo in checkouts:
                rows.append(row(name, n, checkout, run(repo, predictions, references, n)))
    for name in ("dense staircase", "dense staircase, two types"):
        predictions, references, _, _ = MEMORY_CASES[name]
        for checkout, repo in checkouts:
            found = run(repo, predictions, references, 10_000, 2_000_000_000)
            rows.append(row(f"{name}, 2 GB limit", 10_000, checkout, found))
    return rows


# Issue 31 (the red team, stop 38): bootstrap with the group slice, one group a sentence, so that the buckets grow
# with the sentences. Each sentence's bucket columns were held dense (sentences x 6 x groups), and so was the
# jackknife (units x 12 x groups): 2,000 sentences took 16 s and 2.2 GB.
_GROUP_RUN = """
import sys, time, tracemalloc
sys.path.insert(0, {repo!r})
import nerscore
references = [[(0, 1, "T")] for _ in range({n})]
arguments = dict(predictions=references, references=references, groups=list(range({n})), slices=["group"])
nerscore.compute_semeval(**arguments, bootstrap=10)  # (imports and first calls)
tracemalloc.start()
start = time.process_time()
nerscore.compute_semeval(**arguments, bootstrap=10)
print(time.process_time() - start, tracemalloc.get_traced_memory()[1], sep="\t")
"""


def group_bootstrap(against: Path | None = None, sizes: Sequence[int] = (500, 1_000, 2_000, 4_000)) -> list[str]:
    """Rows "| sentences (one group each) | checkout | CPU s | traced MB |" of compute_semeval(slices=["group"],
    bootstrap=10), each in a subprocess; with `against` (another checkout), in turns with this one."""
    import subprocess

    rows = ["| sentences (one group each) | checkout | CPU s | traced MB |", "| --- | --- | --- | --- |"]
    for n in sizes:
        for checkout, repo in _checkouts(against):
            code = _GROUP_RUN.format(repo=str(repo), n=n)
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
            if done.returncode:  # (refused, as main refused past 33,554,432 cells)
                rows.append(f"| {n:,} | {checkout} | {done.stderr.strip().splitlines()[-1][:80]} | |")
                continue
            seconds, peak = done.stdout.split()
            rows.append(f"| {n:,} | {checkout} | {float(seconds):.2f} | {int(peak) / 1e6:.0f} |")
            progress(rows[-1])
    return rows


# The group slice, one group a sentence (so the buckets grow with the sentences): each bucket's scores, four schemes
# of P, R, F and the MUC counts, were computed bucket by bucket (0.3 ms a bucket: compare_semeval scores both
# systems' buckets), and are now computed for every bucket at once (`nerscore.stacked_scores`).
_GROUP_SCORES_RUN = """
import random, sys, time
sys.path.insert(0, {repo!r})
import nerscore
rng = random.Random(0)
def sentence():
    entities, at = [], 0
    for _ in range(rng.randint(0, 3)):
        start = at + rng.randint(0, 2)
        at = start + rng.randint(1, 3)
        entities.append((start, at, rng.choice(["PER", "LOC", "ORG"])))
    return entities
references = [sentence() for _ in range({n})]
a = [[(s, e + (rng.random() < 0.2), t) for s, e, t in r] for r in references]
b = [[(s, e, rng.choice(["PER", "LOC"]) if rng.random() < 0.2 else t) for s, e, t in r] for r in references]
shared = dict(references=references, groups=list(range({n})), slices=["group"])
nerscore.compare_semeval(predictions_a=a[:50], predictions_b=b[:50], references=references[:50],
                         groups=list(range(50)), slices=["group"], n_resamples=10)  # (imports and first calls)
start = time.process_time()
nerscore.compute_semeval(predictions=a, **shared)
middle = time.process_time()
nerscore.compare_semeval(predictions_a=a, predictions_b=b, n_resamples={resamples}, **shared)
seconds = [middle - start, time.process_time() - middle]
if {trace}:  # compare_semeval's peak under tracemalloc, a call of its own (tracing slows it)
    import tracemalloc
    tracemalloc.start()
    nerscore.compare_semeval(predictions_a=a, predictions_b=b, n_resamples={resamples}, **shared)
    seconds.append(tracemalloc.get_traced_memory()[1])
print(*seconds, sep="\t")
"""


def group_scores(
    against: Path | None = None, sizes: Sequence[int] = (1_000, 2_000, 5_000), repeats: int = 3, resamples: int = 1_000
) -> list[str]:
    """Rows "| groups (one a sentence) | call | checkout | CPU s median | fastest | median / against's | fastest /
    against's | traced MB |" of compute_semeval(slices=["group"]) and compare_semeval(slices=["group"],
    n_resamples=`resamples`), each run in a subprocess of its own; with `against` (another checkout, e.g. main's),
    in turns with this one. compare_semeval's peak is traced once, in the first round, in a call of its own."""
    import statistics
    import subprocess

    checkouts = _checkouts(against)
    times: dict[tuple[int, str, str], list[float]] = {}
    peaks: dict[tuple[int, str], float] = {}
    for repeat in range(repeats):
        for n in sizes:
            for checkout, repo in checkouts:
                code = _GROUP_SCORES_RUN.format(repo=str(repo), n=n, resamples=resamples, trace=repeat == 0)
                done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
                found = done.stdout.split()
                for call, seconds in zip(("compute", "compare"), found):
                    times.setdefault((n, call, checkout), []).append(float(seconds))
                if len(found) > 2:
                    peaks[n, checkout] = float(found[2])
                progress(f"group scores: {n:,} groups ({checkout}): {done.stdout.strip()}")
    rows = [
        "| groups (one a sentence) | call | checkout | CPU s median | fastest | median / against's | fastest / "
        "against's | traced MB |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for n in sizes:
        for call in ("compute", "compare"):
            base = times.get((n, call, checkouts[-1][0]), [])
            for checkout, _ in checkouts:
                found = times[n, call, checkout]
                ratios = (
                    f"{statistics.median(found) / statistics.median(base):.2f} | {min(found) / min(base):.2f}"
                    if against is not None
                    else " | "
                )
                peak = f"{peaks[n, checkout] / 1e6:,.0f}" if call == "compare" and (n, checkout) in peaks else ""
                rows.append(
                    f"| {n:,} | {call} | {checkout} | {statistics.median(found):.2f} | {min(found):.2f} | {ratios} | "
                    f"{peak} |"
                )
    return rows


def hipe_spaces(sizes: Sequence[int] = (8_000, 16_000, 32_000), repeats: int = 3) -> list[str]:
    """Rows "| lines | CPU s | x the size before |" of read_hipe on one document of token lines that start with a
    space (red team 2, stop 39: each was looked up by tuple.index when its document closed, quadratic; 16,000 such
    lines took 1.9 s, x3.5 a doubling). Least of `repeats` reads."""
    import tempfile
    import time

    import nerscore

    rows, before = ["| lines | CPU s | x the size before |", "| --- | --- | --- |"], None
    with tempfile.TemporaryDirectory() as folder:
        for lines in sizes:
            path = Path(folder) / f"spaced-{lines}.tsv"
            header = "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNEL-LIT\tMISC\n"
            path.write_text(header + "# document_id = d\n" + " x\tB-loc\tO\t_\t_\n" * lines, encoding="utf-8")
            best = float("inf")
            for _ in range(repeats):
                started = time.process_time()
                nerscore.read_hipe(path)
                best = min(best, time.process_time() - started)
            rows.append(f"| {lines:,} | {best:.3f} | {'' if before is None else f'{best / before:.2f}'} |")
            before = best
    return rows


# Issue 31 (red team 2): an onion of discontinuous entities, n a side of four fragments each (in each block of 10n,
# the i-th reference [0, i + 1), the i-th prediction [i, 2n): n(n + 1)/2 pairs, all of one type), was paired by the
# exact flow over every pair listed as Python objects: 400 a side took 12.5 s and 53 MB (x4.5 and x4 a doubling),
# where the same onion without fragments (its first block's spans) took 0.02 s. Goal: the cost of its entities.
_FRAGMENT_RUN = """
import sys, time, tracemalloc
sys.path.insert(0, {repo!r})
import nerscore

def onion(n, fragments):
    block = 10 * n
    if not fragments:
        return [(0, i + 1, "A") for i in range(n)], [(i, 2 * n, "A") for i in range(n)]
    pieces = range(4)
    return (
        [{{"fragments": [[j * block, j * block + i + 1] for j in pieces], "type": "A"}} for i in range(n)],
        [{{"fragments": [[j * block + i, j * block + 2 * n] for j in pieces], "type": "A"}} for i in range(n)],
    )

references, predictions = onion(100, {fragments})
nerscore.compute_semeval(predictions=[predictions], references=[references])  # (imports and first calls)
references, predictions = onion({n}, {fragments})
tracemalloc.start()
start = time.process_time()
nerscore.compute_semeval(predictions=[predictions], references=[references])
print(time.process_time() - start, tracemalloc.get_traced_memory()[1], sep="\t")
"""


def fragmented_onion(against: Path | None = None, sizes: Sequence[int] = (100, 200, 400, 800)) -> list[str]:
    """Rows "| n | pairs | entities | checkout | CPU s | traced MB | bytes a pair |" of compute_semeval on the onion
    of `_FRAGMENT_RUN`, of four fragments an entity and without fragments, each in a subprocess; with `against`
    (another checkout), in turns with this one."""
    import subprocess

    rows = [
        "| n | pairs | entities | checkout | CPU s | traced MB | bytes a pair |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for n in sizes:
        for fragments in (True, False):
            for checkout, repo in _checkouts(against):
                code = _FRAGMENT_RUN.format(repo=str(repo), n=n, fragments=fragments)
                done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
                seconds, peak = done.stdout.split()
                kind = "four fragments" if fragments else "spans"
                pairs = n * (n + 1) // 2
                rows.append(
                    f"| {n:,} | {pairs:,} | {kind} | {checkout} | {float(seconds):.3f} | {int(peak) / 1e6:.2f} | "
                    f"{int(peak) / pairs:.0f} |"
                )
                progress(rows[-1])
    return rows


# Red team 3 (stop 40): an Accumulator fed batches with documents (bootstrap needs each document's rows in order)
# stacked every row it held at every batch: 8,000 batches of 20 sentences took 47 s under cProfile, 23 s of it
# copying, x2.5 a doubling.
_DOCUMENT_BATCHES_RUN = """
import sys, time
sys.path.insert(0, {repo!r})
import nerscore
references = [["B-PER", "O", "B-LOC"]] * 20
predictions = [["B-PER", "O", "O"]] * 20
def run(batches):
    accumulator = nerscore.Accumulator.of(**{options})
    for batch in range(batches):
        documents = [batch] * 20 if "bootstrap" in {options} else None
        accumulator = accumulator.update(predictions=predictions, references=references, documents=documents)
    return accumulator.result()
run(10)  # (imports and first calls)
start = time.process_time()
run({n})
print(time.process_time() - start)
"""


def document_batches(
    against: Path | None = None, sizes: Sequence[int] = (2_000, 4_000, 8_000, 16_000), entities: bool = False
) -> list[str]:
    """Rows "| batches of 20 sentences | checkout | CPU s | x the size before |" of an Accumulator(bootstrap=10)
    fed batches with documents (with `entities`, an Accumulator(return_entities=True) fed batches: its rows were
    joined at every batch too), each size in a subprocess; with `against` (another checkout), in turns."""
    options = {"return_entities": True} if entities else {"bootstrap": 10}
    return _doubling_rows(_DOCUMENT_BATCHES_RUN, sizes, against, "batches of 20 sentences", options=options)


def _checkouts(against: Path | None) -> list[tuple[str, Path]]:
    """This checkout, then `against` where given (each size is run in both, in turns)."""
    return [("this", REPO)] + ([] if against is None else [(against.name, against)])


def _doubling_rows(
    template: str, sizes: Sequence[int], against: Path | None, unit: str, extra: str = "", **fields: Any
) -> list[str]:
    """Rows "| {unit} | checkout | CPU s | x the size before |" (and `extra`'s column) of `template` formatted with
    each size `n`, the checkout's `repo` and `fields`, run in a subprocess of its own that prints its CPU seconds
    (and `extra`'s figure after them)."""
    import subprocess

    rows = [f"| {unit} | checkout | CPU s | x the size before |{f' {extra} |' if extra else ''}"]
    rows.append("| --- " * (4 + bool(extra)) + "|")
    before: dict[str, float] = {}
    for n in sizes:
        for checkout, repo in _checkouts(against):
            code = template.format(repo=str(repo), n=n, **fields)
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            seconds, *more = map(float, done.stdout.split())
            grown = f"{seconds / before[checkout]:.2f}" if checkout in before else ""
            before[checkout] = seconds
            rows.append(f"| {n:,} | {checkout} | {seconds:.2f} | {grown} |" + "".join(f" {m:.2f} |" for m in more))
            progress(rows[-1])
    return rows


# Red team 3 (stop 40): an Accumulator(slices=["group"], bootstrap=10) fed batches of new groups moved every unit's
# bucket columns to the groups of both and sorted every group held at every batch: 4,000 batches of 5 sentences,
# a group each, 46 s (x3.3 a doubling), where one call on the 20,000 sentences takes 6 s.
_GROUP_BATCHES_RUN = """
import sys, time
sys.path.insert(0, {repo!r})
import nerscore
references, predictions = [["B-PER", "O", "B-LOC"]] * 5, [["B-PER", "O", "O"]] * 5
options = dict(slices=["group"], bootstrap=10)
def run(batches):
    accumulator = nerscore.Accumulator.of(**options)
    for batch in range(batches):
        groups = [f"g{{batch * 5 + index}}" for index in range(5)]
        accumulator = accumulator.update(predictions=predictions, references=references, groups=groups)
    return accumulator.result()
run(10)  # (imports and first calls)
start = time.process_time()
run({n})
batches = time.process_time() - start
start = time.process_time()
groups = [f"g{{index}}" for index in range(5 * {n})]
nerscore.compute_semeval(predictions=predictions * {n}, references=references * {n}, groups=groups, **options)
print(batches, time.process_time() - start)
"""


def group_batches(against: Path | None = None, sizes: Sequence[int] = (1_000, 2_000, 4_000)) -> list[str]:
    """Rows "| batches of 5 sentences (a group each) | checkout | CPU s | x the size before | one call, CPU s |" of
    an Accumulator(slices=["group"], bootstrap=10) fed batches of new groups, and of one compute_semeval on the same
    sentences, each size in a subprocess; with `against` (another checkout), in turns with this one."""
    return _doubling_rows(
        _GROUP_BATCHES_RUN, sizes, against, "batches of 5 sentences (a group each)", extra="one call, CPU s"
    )


# Red team 3 (stop 40): an onion of n references in 3 copies and n predictions in 2 (6 copy pairs an edge) went to
# the pure-Python exact flow past `value_arrays.unfolded`'s 4 copy pairs an edge: 800 references 98.8 s, x11 a
# doubling. The CPU seconds untraced, then the peak under tracemalloc where the untraced run took under 20 s.
_COPIES_RUN = """
import sys, time, tracemalloc
sys.path.insert(0, {repo!r})
from nerscore import compute_semeval
import scipy.optimize, scipy.sparse.csgraph
n = {n}
references = [[(s, 2 * n - s, "AB"[s % 2]) for s in range(n) for _ in range(3)]]
predictions = [[(s, 2 * n - s - 1, "AB"[s % 3 % 2]) for s in range(n) for _ in range(2)]]
compute_semeval(predictions=[[(0, 1, "A")] * 2], references=[[(0, 2, "A")] * 3], value={value})  # (imports)
started = time.process_time()
compute_semeval(predictions=predictions, references=references, value={value})
seconds = time.process_time() - started
peak = 0
if seconds < 20:
    tracemalloc.start()
    compute_semeval(predictions=predictions, references=references, value={value})
    peak = tracemalloc.get_traced_memory()[1]
print(seconds, peak)
"""


def onion_copies(against: Path | None = None, sizes: Sequence[int] = (100, 200, 400, 800)) -> list[str]:
    """Rows "| n | value | checkout | CPU s | x the size before | traced MB |" of compute_semeval on an onion of n
    references in 3 copies and n predictions in 2, §3 and value=True, each in a subprocess; with `against`
    (another checkout, e.g. main's), in turns with this one."""
    import subprocess

    rows = ["| n | value | checkout | CPU s | x the size before | traced MB |", "| --- | --- | --- | --- | --- | --- |"]
    before: dict[tuple[bool, str], float] = {}
    for n in sizes:
        for value in (False, True):
            for checkout, repo in _checkouts(against):
                code = _COPIES_RUN.format(repo=str(repo), n=n, value=value)
                done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
                seconds, peak = float(done.stdout.split()[0]), int(done.stdout.split()[1])
                grown = f"{seconds / before[value, checkout]:.1f}" if (value, checkout) in before else ""
                before[value, checkout] = seconds
                traced = f"{peak / 1e6:.0f}" if peak else "(not traced)"
                rows.append(f"| {n:,} | {value} | {checkout} | {seconds:.2f} | {grown} | {traced} |")
                progress(rows[-1])
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="how the cost of hostile input grows with it")
    parser.add_argument("--memory", action="store_true", help="issue 31's dense overlaps (peak memory a pair)")
    parser.add_argument(
        "--group-bootstrap", action="store_true", help="bootstrap with a group slice, a group a sentence"
    )
    parser.add_argument("--hipe-spaces", action="store_true", help="read_hipe on lines that start with a space")
    parser.add_argument("--fragments", action="store_true", help="an onion of discontinuous entities, and of spans")
    parser.add_argument("--group-scores", action="store_true", help="the group slice's buckets scored, 5,000 groups")
    parser.add_argument(
        "--document-batches", action="store_true", help="an Accumulator fed batches with documents and bootstrap"
    )
    parser.add_argument("--entity-batches", action="store_true", help="an Accumulator fed batches with return_entities")
    parser.add_argument("--group-batches", action="store_true", help="an Accumulator fed batches of new groups")
    parser.add_argument(
        "--copies", action="store_true", help="an onion of 3 copies of each reference, 2 of each prediction"
    )
    parser.add_argument(
        "--against",
        type=Path,
        help="--memory, --group-bootstrap, --fragments, --group-scores, --document-batches, --entity-batches, "
        "--group-batches, --copies: another checkout measured in turns",
    )
    parser.add_argument(
        "--resamples",
        type=int,
        help="--group-scores: compare_semeval's n_resamples (1,000 unless told), 2,000 and 5,000 groups",
    )
    parser.add_argument("--no-value", action="store_true", help="--memory: value=False only")
    parser.add_argument("--only-value", action="store_true", help="--memory: value=True only")
    arguments = parser.parse_args()
    if arguments.memory:
        if not arguments.only_value:
            print("value=False\n" + "\n".join(dense_memory(against=arguments.against)))
        if not arguments.no_value:
            print("\nvalue=True\n" + "\n".join(dense_memory(value=True, against=arguments.against)))
    if arguments.group_bootstrap:
        print("\n".join(group_bootstrap(arguments.against)))
    if arguments.document_batches:
        print("\n".join(document_batches(arguments.against)))
    if arguments.entity_batches:
        print("\n".join(document_batches(arguments.against, entities=True)))
    if arguments.group_batches:
        print("\n".join(group_batches(arguments.against)))
    if arguments.copies:
        print("\n".join(onion_copies(arguments.against)))
    if arguments.hipe_spaces:
        print("\n".join(hipe_spaces()))
    if arguments.fragments:
        print("\n".join(fragmented_onion(arguments.against)))
    if arguments.group_scores:
        sizes = (2_000, 5_000) if arguments.resamples else (1_000, 2_000, 5_000)
        print("\n".join(group_scores(arguments.against, sizes, resamples=arguments.resamples or 1_000)))
