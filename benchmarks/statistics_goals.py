"""Issue 27's speed goals for the statistics and the scores, as ratios measured in one run (calls in turns).

    python benchmarks/statistics_goals.py                 # every goal, 5 runs a call: a few minutes
    python benchmarks/statistics_goals.py --only runs     # one group: bootstrap, documents, runs, types

- bootstrap: `compute_semeval(bootstrap=1000)` / `compute_semeval`, 20,000 generated sentences x 20 tags (<= 1.5x)
- documents: `compare_semeval(documents=..., n_resamples=1000)` / `compare_semeval` by sentence, the same 20,000
  sentences in documents of 20 (<= 2x)
- runs: `compare_runs` of 5 against 5 runs / one `compare_semeval`, at 1,000 and at 10,000 resamples, on WNUT-17
  (five of its systems as runs, as significance.py --runs; generated data when ../shared/data is missing) (<= 5x)
- types: `compute_semeval` on 400k tokens of 100,000 equally common types / of 4 types (<= 3x)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHMARKS.parent))

import significance  # noqa: E402
from measure import median_times  # noqa: E402
from significance import WNUT_SYSTEMS, generate, wnut17  # noqa: E402
from workload import generate as generate_types  # noqa: E402

import nerscore as ns  # noqa: E402  (the checkout's package)

GROUPS = ("bootstrap", "documents", "runs", "types")


def report(name: str, times: dict[str, float], over: str, goal: float) -> None:
    for call, seconds in times.items():
        print(f"    {call:<48}{seconds:8.3f} s")
    for call, seconds in times.items():
        if call != over:
            ratio = seconds / times[over]
            print(f"    {name}: {call} / {over} = {ratio:.2f}x (goal <= {goal}x) {'PASS' if ratio <= goal else 'MISS'}")


def bootstrap(repeats: int) -> None:
    predictions, references = generate(20_000)
    calls = {
        "compute": lambda: ns.compute_semeval(predictions=predictions, references=references),
        "bootstrap=1000": lambda: ns.compute_semeval(predictions=predictions, references=references, bootstrap=1000),
    }
    print("bootstrap, 20,000 x 20 tags")
    report("bootstrap", median_times(calls, repeats), "compute", 1.5)


def documents(repeats: int) -> None:
    predictions, references = generate(20_000)
    other = generate(20_000, seed=2017)[0]

    def compare(size: int) -> None:
        ns.compare_semeval(
            predictions_a=predictions,
            predictions_b=other,
            references=references,
            documents=[index // size for index in range(len(references))] if size > 1 else None,
            n_resamples=1000,
        )

    calls = {"by sentence": lambda: compare(1), "documents of 20": lambda: compare(20)}
    calls["documents of 2"] = lambda: compare(2)
    print("compare_semeval, 1,000 resamples, 20,000 sentences")
    report("documents", median_times(calls, repeats), "by sentence", 2)


def runs(repeats: int) -> None:
    if not significance.WNUT17.exists():  # a worktree one level deeper than the repository
        significance.WNUT17 = BENCHMARKS.parents[2] / "shared" / "data" / "wnut17"
    data = wnut17()
    if data is None:
        references = generate(5_000)[1]
        systems = [generate(5_000, seed=seed)[0] for seed in range(7)]
    else:
        references, by_name = data
        systems = [by_name[name] for name in WNUT_SYSTEMS]
    runs_a, runs_b = systems[:5], systems[2:]
    for resamples in (1000, 10_000):
        calls = {
            "compare_semeval": lambda resamples=resamples: ns.compare_semeval(
                predictions_a=runs_a[0], predictions_b=runs_b[0], references=references, n_resamples=resamples
            ),
            "compare_runs 5 x 5": lambda resamples=resamples: ns.compare_runs(
                runs_a=runs_a, runs_b=runs_b, references=references, n_resamples=resamples
            ),
        }
        print(f"compare_runs against compare_semeval, {resamples:,} resamples, {len(references):,} sentences")
        report("runs", median_times(calls, repeats), "compare_semeval", 5)


def types(repeats: int) -> None:
    calls = {}
    for count in (4, 100_000):
        predictions, references = generate_types(20_000, 20, count, 0.2, 2013, skew=False)
        calls[f"{count:,} types"] = lambda p=predictions, r=references: ns.compute_semeval(predictions=p, references=r)
    print("compute_semeval, 400k tokens")
    report("types", median_times(calls, repeats), "4 types", 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", default=",".join(GROUPS), help="comma-separated groups: " + ", ".join(GROUPS))
    args = parser.parse_args()
    for group in args.only.split(","):
        globals()[group](args.repeats)


if __name__ == "__main__":
    main()
