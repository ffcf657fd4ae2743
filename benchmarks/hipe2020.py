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
the same tags as a CoNLL file. `--gold`: every language's official rows (German and French included, whose runs
are not here) against its gold: the gold's entities (TP + FN) as we count them. Not a test: tests never read ../shared.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
import nerscore  # noqa: E402
from nerscore.files.hipe import HIPE_2020_TYPES, read_hipe  # noqa: E402
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


def cpu(call: Callable[[], object], repeats: int) -> float:
    """The fastest of `repeats` calls, in CPU seconds."""
    times = []
    for _ in range(repeats):
        started = time.process_time()
        call()
        times.append(time.process_time() - started)
    return min(times)


def speed(data: Path, repeats: int = 7) -> int:
    """--hipe (our summary; the scorer's table of both coarse columns) against the same tags as a CoNLL file, each
    through the command line with --json, alternating, the fastest of `repeats` in CPU time."""
    gold = data / "gold" / "HIPE-data-v1.3-test-en.tsv"
    sink = io.StringIO()
    print("| run | CoNLL file | --hipe | ratio | --hipe-table (2 columns) | ratio |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
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
            with contextlib.redirect_stdout(sink):
                plain = cpu(partial(nerscore.main, plain_arguments), repeats)
                hipe = cpu(partial(nerscore.main, [*hipe_arguments, "--json"]), repeats)
                table = cpu(partial(nerscore.main, table_arguments), repeats)
            worst = max(worst, hipe / plain)
            print(
                f"| {run.stem} | {plain * 1000:.0f} ms | {hipe * 1000:.0f} ms | {hipe / plain:.2f} "
                f"| {table * 1000:.0f} ms | {table / plain:.2f} |"
            )
    print(f"\nlargest ratio of --hipe to the CoNLL file: {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
