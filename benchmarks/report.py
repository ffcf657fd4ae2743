"""The benchmark's results: printed as a report on standard output, and written in full as JSON."""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hostile import COMMANDS
from measure import Cell
from workload import size_name


@dataclass
class Results:
    args: argparse.Namespace
    info: dict[str, Any]  # machine, package versions, ner_semeval's commit, start time and load
    labels: dict[str, str]  # the table's rows: tool name -> label
    columns: dict[str, str] = field(default_factory=dict)  # the table's columns: name -> description
    table: dict[str, dict[str, Cell]] = field(default_factory=dict)  # column -> tool -> cell
    data: list[str] = field(default_factory=list)  # what the goals' column holds
    memory: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool -> peaks
    types: dict[str, Cell] = field(default_factory=dict)  # "types-1000/500k" -> cell
    types_seen: dict[str, int] = field(default_factory=dict)  # "types-1000/500k" -> types in the data
    commands: dict[str, Cell] = field(default_factory=dict)  # "1M/ner_semeval.py" -> cell
    peaks: dict[str, float] = field(default_factory=dict)  # "1M/ner_semeval.py/peak" -> MB
    goals: list[dict[str, Any]] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    load_end: tuple[float, ...] = ()


def seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.5f}" if value < 0.01 else f"{value:.4f}" if value < 10 else f"{value:.1f}"


def value(number: float | None, unit: str) -> str:
    return "-" if number is None else f"{number:.2f}x" if unit == "x" else f"{number:.0f} {unit}"


def print_report(results: Results) -> None:
    for section in (header, table, ratios, goals, memory, entity_types, command_line, checks, notes):
        lines = section(results)
        if lines:
            print("\n".join(["", *lines]))


def header(results: Results) -> list[str]:
    info, args = results.info, results.args
    load = [" ".join(f"{x:.2f}" for x in averages) for averages in (info["load_start"], results.load_end)]
    return [
        "ner_semeval benchmark (issues 5, 8 and 15)",
        f"machine: {info['platform']}; {info['cpu']}; {info['cores']} cores ({info['usable_cores']} usable); "
        f"{info['implementation']} {info['python']}; numpy {info['numpy']}",
        f"packages: evaluate {info['evaluate']}, datasets {info['datasets']}, pyarrow {info['pyarrow']}, "
        f"nervaluate {info['nervaluate']}, seqeval {info['seqeval']}, conlleval {info['conlleval']}",
        f"nerscore/ and ner_semeval.py: {info['path']} at {info['ner_semeval']}",
        f"load average 1/5/15 min: {load[0]} at start, {load[1]} at end; {time.time() - info['started']:.0f} s in all",
        f"runs: median of {args.repeats} (time.perf_counter, tools interleaved run by run, gc.collect() before "
        f"each run, collector {'off' if args.gc_off else 'on'} during it, input frozen out of it)",
        f"data: IOB2, {args.types} types, noise {args.noise:g}, seed {args.seed}; " + "; ".join(results.data),
    ]


def grid(results: Results, corner: str, text: Any, marked: str = "") -> list[str]:
    """One row per tool, one column per data set (`marked` with a star); `text(cell, ours)` gives a cell's text,
    `ours` being ner_semeval's cell in the same column."""
    width = max(map(len, results.labels.values())) + 2
    lines = [f"{corner:<{width}}" + "".join(f"{name + '*' * (name == marked):>12}" for name in results.columns)]
    for tool, label in results.labels.items():
        row = [text(cells[tool], cells.get("ner_semeval")) for cells in results.table.values()]
        lines.append(f"{label:<{width}}" + "".join(f"{cell:>12}" for cell in row))
    return lines


def table(results: Results) -> list[str]:
    if not results.table:
        return []
    headline = size_name(results.args.headline)
    lines = [f"  {name + '*' * (name == headline):<10} {text}" for name, text in results.columns.items()]

    def text(cell: Cell, ours: Cell | None) -> str:
        if cell.skipped:
            return "n/a" if cell.skipped == "n/a" else "skip"
        return seconds(cell.median) + ("¹" if cell.cut_short else "")

    rows = grid(results, "median seconds", text, marked=headline)
    lines += ["", rows[0], "-" * len(rows[0]), *rows[1:]]
    lines.append("* the goals' column. ¹ one run only (first run above --slow). skip, n/a: see notes.")
    spreads = [f"{tool} {cell.spread:.2f}x" for tool, cell in results.table.get(headline, {}).items() if cell.spread]
    if spreads and results.args.repeats > 1:
        lines.append(f"spread in {headline} (slowest run / fastest): " + ", ".join(spreads))
    return lines


def ratios(results: Results) -> list[str]:
    if not results.table or "ner_semeval" not in results.labels:
        return []

    def text(cell: Cell, ours: Cell | None) -> str:
        return f"{cell.median / ours.median:.2f}x" if ours and ours.median and cell.median else "-"

    return grid(results, "time / compute_semeval", text)


def goals(results: Results) -> list[str]:
    lines = ["goals (issues 5, 8, 15 and 16)"]
    for goal in results.goals:
        measured = "not run" if goal["ratio"] is None else value(goal["ratio"], goal["unit"])
        bound = f"goal {goal['op']} {goal['target']:g}{'x' if goal['unit'] == 'x' else ' MB'}"
        if goal["unit"] == "x":  # a ratio: that of the fastest runs tells whether the verdict is noise
            bound += f"; ratio of fastest runs {value(goal['ratio_of_minimums'], 'x')}"
        lines.append(f"  {goal['verdict']:<5} {goal['issue']}: {goal['goal']:<62} {measured:>9}  ({bound})")
    return lines


def memory(results: Results) -> list[str]:
    if not results.memory:
        return []
    lines = [f"peak memory at {results.args.headline:,} sentences (one fresh process per tool, after a warm-up)"]
    lines.append(f"  {'tool':<36}{'tracemalloc peak':>18}{'RSS growth':>14}{'process peak':>14}")
    for tool, peaks in results.memory.items():
        label = results.labels[tool]
        if "error" in peaks:
            lines.append(f"  {label:<36} {peaks['error']}")
            continue
        mib = peaks["tracemalloc_peak"] / 2**20, peaks["rss_growth_kib"] / 1024, peaks["rss_kib"] / 1024
        lines.append(f"  {label:<36}{mib[0]:>14.1f} MiB{mib[1]:>10.1f} MiB{mib[2]:>10.0f} MiB")
    return lines


def entity_types(results: Results) -> list[str]:
    if not results.types:
        return []
    lines = ["entity types (issue 8): compute_semeval on generated data of equally common types"]
    lines.append(f"  {'data':<28}{'types in data':>14}{'median s':>10}{'runs':>6}")
    for key, cell in results.types.items():
        types, tokens = key.removeprefix("types-").split("/")
        data = f"{int(types):,} types, {tokens} tokens"
        lines.append(f"  {data:<28}{results.types_seen[key]:>14,}{seconds(cell.median):>10}{len(cell.times):>6}")
    return lines


def command_line(results: Results) -> list[str]:
    if not results.commands:
        return []
    lines = [
        "command line (issues 8, 15): a fresh process per run; wall time, and the peak RSS that",
        "getrusage(RUSAGE_CHILDREN) gives in a small wrapper process (whose own ~10 MB is the floor)",
        f"  {'file':<10}{'command':<80}{'median s':>10}{'peak MB':>9}{'runs':>6}",
    ]
    for key, cell in results.commands.items():
        file, tool = key.split("/")
        peak = results.peaks[f"{key}/peak"]
        lines.append(f"  {file:<10}{COMMANDS[tool]:<80}{seconds(cell.median):>10}{peak:>9.0f}{len(cell.times):>6}")
    if not any(key.endswith("/conlleval.pl") for key in results.commands):
        lines.append("no conlleval.pl here (--conlleval-pl, PATH) nor in PyPI, Debian or npm: compared with the port")
    return lines


def checks(results: Results) -> list[str]:
    return ["agreement checks", *(f"  {line}" for line in results.checks)] if results.checks else []


def notes(results: Results) -> list[str]:
    return ["notes", *(f"  {line}" for line in results.notes)] if results.notes else []


def write_json(results: Results, path: Path) -> None:
    def cells(row: dict[str, Cell]) -> dict[str, Any]:
        return {name: cell.__dict__ | {"median": cell.median, "spread": cell.spread} for name, cell in row.items()}

    raw = {
        "machine": results.info,
        "arguments": {key: value for key, value in vars(results.args).items() if not key.startswith("child")},
        "load_average": {"start": results.info["load_start"], "end": results.load_end},
        "columns": results.columns,
        "times": {column: cells(row) for column, row in results.table.items()},
        "goals": results.goals,
        "memory": results.memory,
        "entity_types": {"times": cells(results.types), "types_in_data": results.types_seen},
        "command_line": {"times": cells(results.commands), "peak_mb": results.peaks},
        "checks": results.checks,
        "notes": results.notes,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(raw, indent=2) + "\n")
    print(f"\nraw results: {path}")
