"""CLEF-HIPE-2020's official English rankings reproduced row by row (docs/hipe.md).

    python benchmarks/hipe2020.py [--data DIR] [--pairing hipe|optimal] [--no-tagset] [--nel [--no-norm-time]]
                                  [--all] [--speed] [--gold]

Reads ../shared/data/hipe2020/ (the test gold v1.3, the submitted English runs, the official ranking tables) when
present, scores every English run with `nerscore.files.hipe_table.hipe_table` (the task's tag set, the scorer's
greedy pairing unless `--pairing optimal`) and prints, for every row of the English NERC rankings (coarse; literal
and metonymic senses; micro, strict and fuzzy), ours beside the official one, then how many rows are equal: TP, FP,
FN equal and P, R, F1 equal to the table's three decimals. `--nel`: the same for the entity-link rankings (strict
@1, relaxed @1, @3, @5; literal and metonymic), each run with NIL at its time expressions as the official pipeline
rewrote it (`--no-norm-time`: as submitted; docs/hipe.md). `--all` prints the
equal rows too (by default only the rows that differ). `--speed`: the command line's CPU time on each run against
the same tags as a CoNLL file (and against itself reading line by line, without the array path), after comparing
the two readings of every file. `--gold`: every language's official rows (German and French included, whose runs
are not here) against its gold: the gold's entities (TP + FN) as we count them. Not a test: tests never read ../shared.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
import nerscore  # noqa: E402
from nerscore.files import hipe  # noqa: E402
from nerscore.files.hipe import HIPE_2020_TYPES, HipeDocument, read_hipe  # noqa: E402
from nerscore.files.hipe_table import hipe_inputs, hipe_table  # noqa: E402
from nerscore.files.hipe_tags import read_link_alternatives  # noqa: E402

CANDIDATES = (REPO.parent / "shared" / "data" / "hipe2020", REPO.parent.parent / "shared" / "data" / "hipe2020")
RANKINGS = ("ranking-en-coarse-micro-fuzzy-all.tsv", "ranking-en-coarse-micro-strict-all.tsv")
# The entity-link rankings (--nel): strict @1 and relaxed @1, @3, @5 rows, each kept once.
NEL_RANKINGS = (
    "ranking-en-nel-micro-fuzzy.tsv",
    "ranking-en-nel-micro-fuzzy-relaxed.tsv",
    "ranking-en-nel-only-micro-fuzzy.tsv",
    "ranking-en-nel-only-micro-fuzzy-relaxed.tsv",
)
MAPPING = "historico-fuzzy-QID-mapping-ID-mapping.tsv"
FIGURES = ("P", "R", "F1", "TP", "FP", "FN")


def official_rows(data: Path, names: tuple[str, ...] = RANKINGS) -> list[dict[str, str]]:
    rows: dict[tuple[str, str], dict[str, str]] = {}
    for name in names:
        with open(data / "evaluation-results" / name, encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                rows.setdefault((row["System"], row["Evaluation"]), row)
    return list(rows.values())


def scored(
    data: Path, gold: list, system: str, nel: bool, tagset: bool, pairing: str, normalize_time: bool = True
) -> list[dict]:
    """Our rows of a run: NERC coarse (both columns), or with `nel` the links, strict and relaxed. `gold`: the
    documents, read once for every run."""
    path = data / "runs" / f"{system}.tsv"
    if not nel:
        columns = ["NE-COARSE-LIT", "NE-COARSE-METO"]
        return hipe_table(gold, path, columns, tagset=HIPE_2020_TYPES if tagset else None, pairing=pairing)
    related = read_link_alternatives(data / MAPPING)
    columns = ["NEL-LIT", "NEL-METO"]
    # The official link rankings scored each run rewritten by the scorer's normalize_linking.py --norm-time (NIL
    # at its time expressions); --no-norm-time scores the runs as submitted.
    links = {"nel": True, "pairing": pairing, "normalize_time": normalize_time}
    strict = hipe_table(gold, path, columns, **links)
    relaxed = hipe_table(gold, path, columns, n_best=(1, 3, 5), related=related, suffix="relaxed", **links)
    return strict + relaxed


def equal(ours: dict, official: dict[str, str]) -> bool:
    """TP, FP, FN equal and P, R, F1 equal to three decimals; `printed` also as the scorer prints them (0 or 0.0)."""
    counts = all(int(ours[name]) == int(official[name]) for name in ("TP", "FP", "FN"))
    return counts and all(abs(float(ours[name]) - float(official[name])) < 5e-4 for name in ("P", "R", "F1"))


def printed(ours: dict, official: dict[str, str]) -> bool:
    return all(str(ours[name]) == official[name] for name in FIGURES)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=next((path for path in CANDIDATES if path.exists()), None))
    parser.add_argument("--pairing", choices=("hipe", "optimal"), default="hipe")
    parser.add_argument("--all", action="store_true", help="print the equal rows too")
    parser.add_argument("--no-tagset", action="store_true", help="score without the task's tag set")
    parser.add_argument("--speed", action="store_true", help="time --hipe against the same tags as a CoNLL file")
    parser.add_argument("--nel", action="store_true", help="the entity-link rankings instead of NERC's")
    parser.add_argument("--gold", action="store_true", help="every language's rows against its gold alone (TP + FN)")
    parser.add_argument(
        "--no-norm-time", action="store_true", help="with --nel: the runs as submitted, without NIL at time expressions"
    )
    args = parser.parse_args()
    if args.data is None or not args.data.exists():
        print("no ../shared/data/hipe2020/ here: nothing to reproduce")
        return 0
    if args.speed:
        return speed(args.data)
    if args.gold:
        return gold_counts(args.data)
    started = time.perf_counter()
    gold = read_hipe(args.data / "gold" / "HIPE-data-v1.3-test-en.tsv")
    official = official_rows(args.data, NEL_RANKINGS if args.nel else RANKINGS)
    ours: dict[tuple[str, str], dict] = {}
    for system in sorted({row["System"] for row in official}):
        if not (args.data / "runs" / f"{system}.tsv").exists():
            continue
        for row in scored(args.data, gold, system, args.nel, not args.no_tagset, args.pairing, not args.no_norm_time):
            if row["Label"] == "ALL" and "-micro-" in row["Evaluation"]:
                ours[(system, row["Evaluation"].replace("-TIME-ALL-LED-ALL", ""))] = row
    elapsed = time.perf_counter() - started
    same = same_text = 0
    print(f"pairing={args.pairing!r}: ours beside the official rows (P R F1 TP FP FN)\n")
    print("| system | evaluation | official | ours | equal |")
    print("|---|---|---|---|---|")
    for row in official:
        mine = ours.get((row["System"], row["Evaluation"]))
        ok = mine is not None and equal(mine, row)
        same += ok
        same_text += mine is not None and printed(mine, row)
        if ok and not args.all:
            continue
        theirs = " ".join(row[name] for name in FIGURES)
        found = "no run" if mine is None else " ".join(str(mine[name]) for name in FIGURES)
        print(f"| {row['System']} | {row['Evaluation']} | {theirs} | {found} | {'yes' if ok else 'NO'} |")
    print(
        f"\n{same} of {len(official)} official rows equal ({same_text} printed alike, 0 and 0.0 included); "
        f"{len(official)} rows of {len(ours)} scored in {elapsed:.1f} s"
    )
    return 0 if same == len(official) else 1


def gold_counts(data: Path) -> int:
    """--gold: every official row of every language (NERC coarse and fine, links) against the gold alone: the row's
    TP + FN, the gold's entities as the scorer counted them, against the entities our reader and decoders find in
    the gold (its table against itself); the German and French runs are not in the shared data, their gold is."""
    rankings = sorted(path.name for path in (data / "evaluation-results").glob("ranking-*.tsv"))
    found = same = 0
    for language in ("de", "en", "fr"):
        gold = read_hipe(data / "gold" / f"HIPE-data-v1.3-test-{language}.tsv")
        names = tuple(name for name in rankings if name.startswith(f"ranking-{language}-"))
        entities: dict[str, int] = {}
        for row in official_rows(data, names):
            column = row["Evaluation"].split("-micro-")[0]
            if column not in entities:
                nel = column.startswith("NEL")
                tagset = None if nel else HIPE_2020_TYPES
                table = hipe_table(gold, gold, column, nel=nel, tagset=tagset, system_name=language)
                entities[column] = next(r["TP"] for r in table if r["Label"] == "ALL" and "-micro-" in r["Evaluation"])
                print(f"| {language} | {column} | {entities[column]} |")
            found += 1
            same += int(row["TP"]) + int(row["FN"]) == entities[column]
    print(f"\n{same} of {found} official rows count the gold's entities as we do (TP + FN)")
    return 0 if same == found else 1


def conll_of(gold: Path, run: Path, path: Path) -> None:
    """The tags the scorer scores (NE-COARSE-LIT, its entities re-encoded in IOB2), a document a sentence, as a
    CoNLL file: token, reference, prediction."""
    inputs = hipe_inputs(gold, run, tagset=HIPE_2020_TYPES)
    gold_documents = read_hipe(gold)
    lines = []
    for document, references, predictions in zip(gold_documents, inputs["references"], inputs["predictions"]):
        columns = [["O"] * len(document), ["O"] * len(document)]
        for tags, spans in zip(columns, (references, predictions)):
            for span in spans:
                tags[span.start : span.end] = [f"B-{span.entity_type}"] + [f"I-{span.entity_type}"] * (
                    span.end - span.start - 1
                )
        lines.extend(f"{token} {r} {p}" for token, r, p in zip(document.tokens, *columns))
        lines.append("")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def cpu(calls: Sequence[Callable[[], object]], repeats: int) -> list[float]:
    """The fastest of `repeats` turns of each call, in CPU seconds, the calls in turns (interleaved, so that the
    load of a shared machine falls on each alike)."""
    times: list[list[float]] = [[] for _ in calls]
    for _ in range(repeats):
        for call, taken in zip(calls, times):
            started = time.process_time()
            call()
            taken.append(time.process_time() - started)
    return [min(taken) for taken in times]


def line_by_line() -> contextlib.AbstractContextManager[None]:
    """`read_hipe` without the array path (nerscore.files.hipe_arrays): every file read line by line. The one copy
    is the tests' (tests/test_hipe_arrays.py, whose reader defines the format), imported when a reading needs it:
    the benchmark depends on a test module (pytest and Hypothesis, which requirements-dev.txt installs with the
    peers it compares against), never the tests on a script of benchmarks/."""
    sys.path.insert(0, str(REPO / "tests"))
    try:
        from test_hipe_arrays import line_by_line as without_arrays
    finally:
        sys.path.remove(str(REPO / "tests"))
    return without_arrays()


def read_alike(data: Path) -> int:
    """Every HIPE file of the shared data read by the array path and line by line: the same documents (ids,
    metadata, segments, line numbers, every column's values); the files the array path leaves to the reader."""
    files = sorted([*(data / "gold").glob("*.tsv"), *(data / "runs").glob("*.tsv")])
    same, left = 0, []
    for path in files:
        if hipe._parse_bytes(path.read_bytes(), str(path), True) is None:
            left.append(path.name)
        with line_by_line():
            expected = read_hipe(path)
        same += described(read_hipe(path)) == described(expected)
    print(f"{same} of {len(files)} files read alike by the array path and line by line")
    print(f"read line by line (not laid out): {', '.join(left) or 'none'}\n")
    return len(files) - same


def described(documents: Sequence[HipeDocument]) -> list[tuple[object, ...]]:
    return [
        (d.id, dict(d.metadata), d.segment_starts, d.lines, d.source, d.line, d.token_column, dict(d.columns))
        for d in documents
    ]


def speed(data: Path, repeats: int = 7) -> int:
    """--hipe (our summary, with and without the array path; the scorer's table of both coarse columns) against
    the same tags as a CoNLL file, each through the command line with --json, in turns, the fastest of `repeats`
    in CPU time."""
    differ = read_alike(data)
    gold = data / "gold" / "HIPE-data-v1.3-test-en.tsv"
    sink = io.StringIO()
    print("| run | CoNLL file | --hipe | ratio | --hipe line by line | ratio | --hipe-table (2 columns) | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    ratios = []
    with tempfile.TemporaryDirectory() as folder:
        for run in sorted((data / "runs").glob("*bundle[1234]_en_*.tsv")):
            conll = Path(folder) / "run.conll"
            conll_of(gold, run, conll)
            plain_arguments = [str(conll), "--json"]
            hipe_arguments = ["--hipe", str(gold), str(run), "--tagset", "hipe2020"]
            table_arguments = [
                *hipe_arguments,
                "--hipe-table",
                "--column",
                "NE-COARSE-LIT",
                "--column",
                "NE-COARSE-METO",
            ]

            def slow(arguments: list[str] = [*hipe_arguments, "--json"]) -> None:  # noqa: B006
                with line_by_line():
                    nerscore.main(arguments)

            with contextlib.redirect_stdout(sink):
                plain, fast, kept, table = cpu(
                    [
                        partial(nerscore.main, plain_arguments),
                        partial(nerscore.main, [*hipe_arguments, "--json"]),
                        slow,
                        partial(nerscore.main, table_arguments),
                    ],
                    repeats,
                )
            ratios.append(fast / plain)
            print(
                f"| {run.stem} | {plain * 1000:.0f} ms | {fast * 1000:.0f} ms | {fast / plain:.2f} "
                f"| {kept * 1000:.0f} ms | {kept / plain:.2f} | {table * 1000:.0f} ms | {table / plain:.2f} |"
            )
    print(f"\nratio of --hipe to the CoNLL file: median {statistics.median(ratios):.2f}, largest {max(ratios):.2f}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
