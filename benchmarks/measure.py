"""How the benchmark measures: runs timed in turns, peak memory of a run, and commands in a fresh process each."""

from __future__ import annotations

import gc
import json
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAXRSS_KIB = 1 if sys.platform.startswith("linux") else 1 / 1024  # getrusage's unit: KiB on Linux, bytes on macOS


@dataclass
class Cell:
    """The timed runs of one tool on one data set."""

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


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def time_once(run: Callable[[], Any], gc_off: bool = False) -> tuple[float, Any]:
    # Start every run from a clean heap. The collector stays on during the run unless --gc-off: users run with
    # it on, and allocation-heavy code pays for it.
    gc.collect()
    if gc_off:
        gc.disable()
    try:
        start = time.perf_counter()
        result = run()
        return time.perf_counter() - start, result
    finally:
        gc.enable()


def take_turns(
    runs: dict[str, Callable[[], Any]], repeats: int, slow: float | None, label: str, measure: Callable = time_once
) -> tuple[dict[str, Cell], dict[str, Any]]:
    """Each run `repeats` times, `measure(run)` giving (seconds, result), in turns (run 1 of each, then run 2 ...)
    so that a busy moment on a shared machine slows all of them rather than one. A run whose first time exceeds
    `slow` runs only once. Returns the cells and each run's last result."""
    cells = {name: Cell() for name in runs}
    results: dict[str, Any] = {}
    gc.collect()
    gc.freeze()  # the input stays alive through every run: keep it out of the collector's way
    try:
        for repeat in range(repeats):
            active = [name for name, cell in cells.items() if not cell.cut_short]
            for name in active:
                results.pop(name, None)  # not alive during the next run, where the collector would walk it
                elapsed, results[name] = measure(runs[name])
                cells[name].times.append(elapsed)
                cells[name].cut_short = repeat == 0 and repeats > 1 and slow is not None and elapsed > slow
            timed = ", ".join(f"{name} {cells[name].times[-1]:.4f}" for name in active)
            progress(f"  {label} run {repeat + 1}/{repeats}: {timed}")
    finally:
        gc.unfreeze()
    return cells, results


def interleaved_times(
    calls: dict[str, Callable[[], object]], repeats: int, clock: Callable[[], float] = time.perf_counter
) -> dict[str, list[float]]:
    """Each call's `repeats` times by `clock`, after one warm-up run each (imports, caches), the calls interleaved
    run by run (run 1 of every call, then run 2 ...), `gc.collect()` before each run."""
    for call in calls.values():
        call()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            gc.collect()
            start = clock()
            call()
            times[name].append(clock() - start)
    return times


def median_times(calls: dict[str, Callable[[], object]], repeats: int) -> dict[str, float]:
    """The median time of each call over `repeats` interleaved runs (`interleaved_times`): for the standalone
    scripts."""
    return {name: statistics.median(values) for name, values in interleaved_times(calls, repeats).items()}


def peak_memory(run: Callable[[], Any]) -> dict[str, Any]:
    """How far one call of `run` raises the peak RSS above the RSS before it, the peak (KiB), and the tracemalloc
    peak (bytes) of a second call. Linux only: getrusage's maxrss cannot be reset (Linux even carries a parent's
    peak over fork and exec), but the VmHWM mark can, to the current RSS, so the growth is this run's alone."""

    def status_kib(name: str) -> int:
        lines = Path("/proc/self/status").read_text().splitlines()
        return next(int(line.split()[1]) for line in lines if line.startswith(name + ":"))

    Path("/proc/self/clear_refs").write_text("5")
    before = status_kib("VmRSS")
    run()
    after = status_kib("VmHWM")
    tracemalloc.start()
    run()
    traced = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"rss_growth_kib": after - before, "rss_kib": after, "tracemalloc_peak": traced, "rss": "VmHWM"}


# Run in a small fresh Python process: RUSAGE_CHILDREN's peak is then the measured command's alone. In the
# benchmark's own process it would be the largest child so far, and Linux carries a parent's peak over fork and
# exec: it could not be smaller than this big process's. The wrapper's own ~10 MB is the floor.
_WRAPPER = """
import json, resource, subprocess, sys, time
stdin = open(sys.argv[1], "rb") if sys.argv[1] else subprocess.DEVNULL
start = time.perf_counter()
done = subprocess.run(sys.argv[2:], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"seconds": seconds, "peak": peak, "status": done.returncode, "stderr": done.stderr[-500:]}))
"""


def time_command(command: list[str], stdin: str = "", cwd: Path | None = None) -> tuple[float, float]:
    """Wall time in seconds and peak RSS in MB of one run of `command` (standard input: the file `stdin`; working
    folder: `cwd`, default this process's)."""
    wrapper = subprocess.run([sys.executable, "-c", _WRAPPER, stdin, *command], capture_output=True, text=True, cwd=cwd)
    measured = json.loads(wrapper.stdout) if wrapper.returncode == 0 else {"status": "?", "stderr": wrapper.stderr}
    if measured["status"] != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({measured['status']}): {measured['stderr'].strip()}")
    return measured["seconds"], measured["peak"] * MAXRSS_KIB * 1024 / 1e6
