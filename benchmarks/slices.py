"""Issue 19's speed goal, slices' share: `compute_semeval` with every slice (no bootstrap) against `compute_semeval`
with the same tokens, on 20,000 generated sentences of 20 tokens.

    python benchmarks/slices.py [--repeats N]

The issue's goal is all of slices, diagnostics and errors within 2x compute; slices' own share is given half of
the room, within 1.5x (the row's PASS / MISS). Times are medians of interleaved runs in one process.
"""

from __future__ import annotations

import argparse
import random
import sys

from measure import median_times
from workload import REPO, generate

sys.path.insert(0, str(REPO))
import nerscore

GOAL = 1.5
SLICES = ["entity_length", "seen", "sentence_length", "entity_density", "group"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    predictions, references = generate(20_000, 20, 4, 0.2, 2013)
    rng = random.Random(19)
    words = [f"w{index}" for index in range(5_000)]
    tokens = [[rng.choice(words) for _ in sentence] for sentence in references]
    groups = [f"source{index % 7}" for index in range(len(references))]
    seen = set(rng.sample(words, 2_500))
    columns = {"tokens": tokens, "groups": groups}
    times = median_times(
        {
            "compute(tokens)": lambda: nerscore.compute_semeval(
                predictions=predictions, references=references, **columns
            ),
            "compute(tokens, all slices)": lambda: nerscore.compute_semeval(
                predictions=predictions, references=references, slices=SLICES, seen=seen, **columns
            ),
        },
        args.repeats,
    )
    base, sliced = times["compute(tokens)"], times["compute(tokens, all slices)"]
    ratio = sliced / base
    print(f"20,000 sentences x 20 tokens, IOB2, 4 types; all five slices, no bootstrap (median of {args.repeats} runs)")
    for name, seconds in times.items():
        print(f"    {name:<32}{seconds:8.3f} s")
    print(f"    ratio {ratio:.2f} (goal: at most {GOAL}) {'PASS' if ratio <= GOAL else 'MISS'}")


if __name__ == "__main__":
    main()
