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
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
