"""Issue 29's speed goals: `agreement` of 5 annotators on 20,000 generated sentences of 20 tags (ten pairs and the
coefficients) within 12x one `compute_semeval` of the same size; 2 annotators on WNUT-17's test set (its gold
tags and one system's, as two annotators) well under a second.

    python benchmarks/agreement.py [--repeats N]

The five annotators: the generator's references and predictions (4 types, noise 0.2), and three who take each
sentence from one or the other at random. Times are medians of interleaved runs in one process.
"""

from __future__ import annotations

import argparse
import random
import sys

from measure import median_times
from workload import REPO, WNUT17, generate, wnut17

sys.path.insert(0, str(REPO))
import nerscore

GOAL = 12.0
WNUT_GOAL = 1.0  # seconds


def annotators(count: int = 5) -> tuple[dict[str, list[list[str]]], list[list[str]], list[list[str]]]:
    predictions, references = generate(20_000, 20, 4, 0.2, 2013)
    annotations = {"a0": references, "a1": predictions}
    for number in range(2, count):
        rng = random.Random(number)
        annotations[f"a{number}"] = [p if rng.random() < 0.5 else r for p, r in zip(predictions, references)]
    return annotations, predictions, references


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    annotations, predictions, references = annotators()
    # The same entities as (start, end, type) spans: the span path's own ratio, for comparison.
    spans = {
        name: [[(span.start, span.end, span.entity_type) for span in nerscore.decode(tags)] for tags in batch]
        for name, batch in annotations.items()
    }
    calls = {
        "compute_semeval": lambda: nerscore.compute_semeval(predictions=predictions, references=references),
        "agreement(5 annotators)": lambda: nerscore.agreement(annotations),
        "agreement(5, bootstrap=1000)": lambda: nerscore.agreement(annotations, bootstrap=1000),
        "compute_semeval(spans)": lambda: nerscore.compute_semeval(predictions=spans["a1"], references=spans["a0"]),
        "agreement(5 annotators, spans)": lambda: nerscore.agreement(spans),
    }
    # ../shared from a checkout; from a worktree (/work/wt/NAME) it is one level further up.
    folder = WNUT17 if WNUT17.is_dir() else REPO.parent.parent / "shared" / "data" / "wnut17"
    dataset, notes = wnut17(folder)
    if dataset is not None:
        system, gold = dataset.parts[0]
        calls["agreement(WNUT-17, 2 annotators)"] = lambda: nerscore.agreement({"gold": gold, "system": system})
    times = median_times(calls, args.repeats)
    base = times["compute_semeval"]
    print(f"20,000 sentences x 20 tags, IOB2, 4 types; 5 annotators (median of {args.repeats} interleaved runs)")
    for name, seconds in times.items():
        print(f"    {name:<36}{seconds:8.3f} s   {seconds / base:6.2f}x")
    spans_ratio = times["agreement(5 annotators, spans)"] / times["compute_semeval(spans)"]
    print(f"    spans: agreement / compute_semeval(spans) {spans_ratio:.2f}")
    ratio = times["agreement(5 annotators)"] / base
    print(f"    ratio {ratio:.2f} (goal: at most {GOAL:g}) {'PASS' if ratio <= GOAL else 'MISS'}")
    if "agreement(WNUT-17, 2 annotators)" in times:
        seconds = times["agreement(WNUT-17, 2 annotators)"]
        print(f"    WNUT-17 {seconds:.3f} s (goal: under {WNUT_GOAL:g} s) {'PASS' if seconds < WNUT_GOAL else 'MISS'}")
    for note in notes:
        print(f"    {note}")


if __name__ == "__main__":
    main()
