"""HIPE-2022's official per-run tables reproduced row by row with `scorer="2022"` (docs/hipe.md).

    python benchmarks/hipe2022.py --data DIR [--tagset FILE] [--task nerc_coarse,nerc_fine,nel] [--only TEXT] [--all]
                                  [--scorer 2022|2020]

DIR is laid out like a clone of hipe-eval/HIPE-2022-eval: the submitted runs in
evaluation/system-responses/submitted/<team>_bundle<N>_<dataset>_<lang>_<k>.tsv, the official tables in
evaluation/system-evaluations/<run>_<task>.tsv, and the test gold anywhere below DIR as
HIPE-2022-v<version>-<dataset>-test-<lang>.tsv (the `_histonorm` file when the plain one is missing: its NE columns
are the same). Every run with an official table of a task is scored with `nerscore.files.hipe_table.hipe_table`
(`scorer="2022"`, or `--scorer 2020` to see what the later scorer changed; the columns the table names; the tag
set HIPE-2022-eval's Makefile passes, tagset-hipe2022-all.txt from the HIPE-scorer repository, found below DIR or
given by `--tagset`) and every official row is printed beside ours when they differ (`--all`: every row), then
the rows equal per table and in all. Equal: TP, FP, FN equal, and P, R, F1 and their standard deviations equal to
three decimals, an empty cell to an empty one.

Tasks: nerc_coarse, nerc_fine and nel (the exact link table: fuzzy and strict, @1 and the table's other cut-offs)
by default; not the relaxed link table (`_nel_relaxed`: its mapping and time normalisation are not in the layout).
`--only TEXT` scores the runs whose name holds TEXT (`--only ajmc_en`). Not a test: the data stays out of the
repository (its licence), tests never read it.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from nerscore.files.hipe import read_hipe  # noqa: E402
from nerscore.files.hipe_table import hipe_table  # noqa: E402

RUNS = Path("evaluation") / "system-responses" / "submitted"
TABLES = Path("evaluation") / "system-evaluations"
RUN_NAME = re.compile(r"^(?P<team>.+?)_bundle(?P<bundle>\d+)_(?P<dataset>[a-z0-9]+)_(?P<lang>[a-z]{2})_(?P<k>\d+)$")
TASKS = ("nerc_coarse", "nerc_fine", "nel")
FIGURES = ("P", "R", "F1", "F1_std", "P_std", "R_std", "TP", "FP", "FN")
SHOWN = ("P", "R", "F1", "TP", "FP", "FN")


def gold_path(data: Path, dataset: str, lang: str) -> Path | None:
    """The test gold of a dataset and language below `data`: the plain file first, else `_histonorm`."""
    found: dict[bool, list[Path]] = {False: [], True: []}
    pattern = re.compile(rf"^HIPE-2022-v[\d.]+-{dataset}-test-{lang}(_histonorm)?\.tsv$")
    for path in data.rglob(f"HIPE-2022-*-{dataset}-test-{lang}*.tsv"):
        match = pattern.match(path.name)
        if match and "old" not in path.parts:
            found[match.group(1) is not None].append(path)
    for histonorm in (False, True):
        if found[histonorm]:
            return sorted(found[histonorm])[-1]
    return None


def official_table(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def columns_of(rows: list[dict[str, str]]) -> list[str]:
    """The columns a table scores, in its order: each Evaluation's part before `-micro-` or `-macro_doc-`."""
    columns: list[str] = []
    for row in rows:
        column = re.split(r"-(?:micro|macro_doc)-", row["Evaluation"])[0]
        if column not in columns:
            columns.append(column)
    return columns


def cut_offs(rows: list[dict[str, str]]) -> list[int]:
    found = {int(match.group(1)) for row in rows if (match := re.search(r"-@(\d+)$", row["Evaluation"]))}
    return sorted(found) or [1]


def same(value: object, official: str) -> bool:
    if official == "" or value is None or value == "":
        return official == "" and (value is None or value == "")
    return abs(float(value) - float(official)) < 5e-4  # type: ignore[arg-type]


def score(
    gold: list, run: Path, task: str, rows: list[dict[str, str]], tagset: frozenset[str] | None, scorer: str
) -> list[dict]:
    columns = columns_of(rows)
    if task == "nel":
        return hipe_table(gold, run, columns, nel=True, n_best=cut_offs(rows), tagset=tagset, scorer=scorer)
    return hipe_table(gold, run, columns, tagset=tagset, scorer=scorer)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="a clone of hipe-eval/HIPE-2022-eval")
    parser.add_argument("--tagset", type=Path, help="tagset-hipe2022-all.txt (default: found below --data)")
    parser.add_argument("--task", default="nerc_coarse,nerc_fine,nel", help="of nerc_coarse, nerc_fine, nel")
    parser.add_argument("--only", default="", help="the runs whose name holds this text")
    parser.add_argument("--all", action="store_true", help="print the equal rows too")
    parser.add_argument("--scorer", choices=("2020", "2022"), default="2022", help="hipe_table's scorer reading")
    args = parser.parse_args()
    tasks = [task for task in args.task.split(",") if task]
    if not set(tasks) <= set(TASKS):
        parser.error(f"--task takes {', '.join(TASKS)}, not {args.task!r}")
    if not (args.data / RUNS).is_dir() or not (args.data / TABLES).is_dir():
        print(f"no {RUNS} and {TABLES} below {args.data}: nothing to reproduce")
        return 0
    tagset_file = args.tagset or next(iter(sorted(args.data.rglob("tagset-hipe2022-all.txt"))), None)
    tagset = None
    if tagset_file is not None:
        tagset = frozenset(line.strip().upper() for line in tagset_file.read_text("utf-8").splitlines() if line.strip())
    print(f"tag set: {tagset_file or 'none (not found: every type outside the gold is dropped)'}\n")
    started = time.perf_counter()
    golds: dict[Path, list] = {}
    equal_rows = total_rows = tables = 0
    skipped: list[str] = []
    print("| run | task | evaluation | label | official (P R F1 TP FP FN) | ours | equal |")
    print("|---|---|---|---|---|---|---|")
    for run in sorted((args.data / RUNS).glob("*.tsv")):
        name = RUN_NAME.match(run.stem)
        if name is None or args.only not in run.stem:
            continue
        for task in tasks:
            table = args.data / TABLES / f"{run.stem}_{task}.tsv"
            if not table.exists():
                continue
            gold = gold_path(args.data, name["dataset"], name["lang"])
            if gold is None:
                skipped.append(f"{run.stem} {task}: no gold")
                continue
            if gold not in golds:
                golds[gold] = read_hipe(gold)
            official = official_table(table)
            ours = {
                (row["Evaluation"], row["Label"]): row
                for row in score(golds[gold], run, task, official, tagset, args.scorer)
            }
            equal = 0
            for row in official:
                mine = ours.get((row["Evaluation"], row["Label"]))
                ok = mine is not None and all(same(mine[figure], row[figure]) for figure in FIGURES)
                equal += ok
                if ok and not args.all:
                    continue
                theirs = " ".join(row[figure] or "-" for figure in SHOWN)
                found = "missing" if mine is None else " ".join("-" if mine[f] is None else str(mine[f]) for f in SHOWN)
                print(
                    f"| {run.stem} | {task} | {row['Evaluation']} | {row['Label']} | {theirs} | {found} | "
                    f"{'yes' if ok else 'NO'} |"
                )
            print(f"| {run.stem} | {task} | **{equal} of {len(official)} rows equal** | | | | |")
            equal_rows += equal
            total_rows += len(official)
            tables += 1
    for line in skipped:
        print(f"skipped: {line}")
    elapsed = time.perf_counter() - started
    print(f"\n{equal_rows} of {total_rows} official rows equal, {tables} tables, in {elapsed:.1f} s")
    return 0 if equal_rows == total_rows else 1


if __name__ == "__main__":
    sys.exit(main())
