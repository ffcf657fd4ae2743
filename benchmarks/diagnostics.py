"""Cost of `diagnostics=True` and `errors=True` (issue 19, docs/scoring.md §11) against `compute_semeval` with the
same tokens.

    python benchmarks/diagnostics.py               # 20,000 x 20 tags (the goals' column), 15 runs a row
    python benchmarks/diagnostics.py --repeats 5   # quicker

Standalone. The data is run.py's goals' column (`workload.generate(20000, 20, 4, 0.2, 2013)`: IOB2 tags with
20 % of the reference entities perturbed), each token a word of a 5,000-word vocabulary, so that texts repeat as
in real text; the same entities as span dicts (token offsets) with the same tokens for the spans rows. Every
row is `compute_semeval` with the tokens and the option(s) against `compute_semeval` with the same tokens and
without them, in turns run by run, medians of `--repeats` runs (`measure.median_times`). Issue 19's budget is 2x
for slices, diagnostics and errors together; this script measures diagnostics and errors without slices, goal
<= 2x, and prints PASS / MISS. It also checks that the array path's keys equal the readable path's
(`return_entities=True`) on the data.
"""

from __future__ import annotations

import argparse
import platform
import sys
from functools import partial
from pathlib import Path

import numpy

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
from measure import median_times  # noqa: E402
from workload import generate  # noqa: E402

import nerscore  # noqa: E402
from nerscore import decode  # noqa: E402

GOAL = 2.0
KEYS = ("boundary_too_long", "boundary_too_short", "boundary_crossing", "split", "merged", "errors")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sentences", type=int, default=20_000)
    parser.add_argument("--length", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()

    predictions, references = generate(args.sentences, args.length, 4, 0.2, 2013)
    tokens = [[f"w{(7919 * index + position) % 5000}" for position in range(len(sentence))]
              for index, sentence in enumerate(references)]  # fmt: skip
    span_p = [[span.as_dict() for span in decode(sentence)] for sentence in predictions]
    span_r = [[span.as_dict() for span in decode(sentence)] for sentence in references]

    def call(p, r, **options):
        return lambda: nerscore.compute_semeval(predictions=p, references=r, tokens=tokens, **options)

    rows = [
        ("tags", "diagnostics=True", (predictions, references), {"diagnostics": True}),
        ("tags", "errors=True", (predictions, references), {"errors": True}),
        ("tags", "diagnostics=True, errors=True", (predictions, references), {"diagnostics": True, "errors": True}),
        ("spans", "diagnostics=True, errors=True", (span_p, span_r), {"diagnostics": True, "errors": True}),
    ]
    calls = {"tags": call(predictions, references), "spans": call(span_p, span_r)}
    # For scale: the same call without the tokens (whose check, one Python step per token, is not this issue's).
    calls["tags: without tokens"] = lambda: nerscore.compute_semeval(predictions=predictions, references=references)
    for form, name, data, options in rows:
        calls[f"{form}: {name}"] = call(*data, **options)
    times = median_times(calls, args.repeats)

    errors = 0
    for form, data in (("tags", (predictions, references)), ("spans", (span_p, span_r))):
        fast = nerscore.compute_semeval(predictions=data[0], references=data[1], tokens=tokens, diagnostics=True,
                                        errors=True)  # fmt: skip
        readable = nerscore.compute_semeval(predictions=data[0], references=data[1], tokens=tokens, diagnostics=True,
                                            errors=True, return_entities=True)  # fmt: skip
        if any(fast[key] != readable[key] for key in KEYS):
            print(f"MISMATCH: the {form} array path and the readable path differ")
            errors += 1
        errors_of_tags = len(fast["errors"])

    print(f"diagnostics and errors, {args.sentences:,} x {args.length} ({args.repeats} runs a row, medians), "
          f"Python {platform.python_version()}, numpy {numpy.__version__}")  # fmt: skip
    print(f"{errors_of_tags:,} distinct error rows; entities {sum(map(len, span_r)):,} reference, "
          f"{sum(map(len, span_p)):,} predicted")  # fmt: skip
    print()
    print("| | seconds | / compute with the same tokens | goal | verdict |")
    print("| --- | --- | --- | --- | --- |")
    without = times["tags: without tokens"]
    print(f"| tags: compute_semeval without tokens | {without:.4f} | {without / times['tags']:.2f}x | | |")
    for form in ("tags", "spans"):
        print(f"| {form}: compute_semeval(tokens=...) | {times[form]:.4f} | 1.00x | | |")
    for form, name, _, _ in rows:
        ratio = times[f"{form}: {name}"] / times[form]
        verdict = "PASS" if ratio <= GOAL else "MISS"
        print(f"| {form}: {name} | {times[f'{form}: {name}']:.4f} | {ratio:.2f}x | <= {GOAL:g}x | {verdict} |")
    print()
    hostile(args.repeats)
    sys.exit(1 if errors else 0)


def hostile(repeats: int) -> None:
    """Hostile spans: what `diagnostics` adds where the pairing itself is costly. `split` and `merged` look at
    every overlap, pairing aside: copies are folded into distinct extents, so 100,000 identical entities a side
    are one overlap, not 10**10; nested entities (the onion: each entity inside the one before) are found by
    binary searches, or with `min_overlap` as their overlaps, which the pairing finds too."""
    copies = [[(0, 5, "PER")] * 100_000]
    k = 300
    onion_r = [[(i, 2 * k - i, "PER") for i in range(k)]]
    onion_p = [[(i, 2 * k - i - 1, "PER") for i in range(k)]]
    cases = [
        ("100,000 identical spans a side", copies, copies, None),
        ("100,000 identical spans a side, min_overlap=0.5", copies, copies, 0.5),
        (f"onion of {k} nested spans a side", onion_p, onion_r, None),
        (f"onion of {k} nested spans a side, min_overlap=0.5", onion_p, onion_r, 0.5),
    ]
    print("| hostile spans | without s | diagnostics=True s | ratio | goal | verdict |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, predictions, references, min_overlap in cases:
        data = {"predictions": predictions, "references": references, "min_overlap": min_overlap}
        calls = {
            "without": partial(nerscore.compute_semeval, **data),
            "with": partial(nerscore.compute_semeval, **data, diagnostics=True),
        }
        times = median_times(calls, max(3, repeats // 3))
        ratio = times["with"] / times["without"]
        verdict = "PASS" if ratio <= GOAL else "MISS"
        print(f"| {name} | {times['without']:.3f} | {times['with']:.3f} | {ratio:.2f}x | <= {GOAL:g}x | {verdict} |")


if __name__ == "__main__":
    main()
