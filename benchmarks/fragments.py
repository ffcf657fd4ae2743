"""Speed of discontinuous entities (docs/scoring.md §12, issue 30), as ratios.

    python benchmarks/fragments.py             # 20,000 documents, 5 runs each: about a minute on 2 cores
    python benchmarks/fragments.py --quick     # 4,000 documents, 3 runs
    python benchmarks/fragments.py --hostile   # the hostile fragment sets only
    python benchmarks/fragments.py --before c7af47d   # each ratio also by that revision, calls in turns
    python benchmarks/fragments.py --value     # value=True / plain only: a comb, and 2-3 fragments (4,000 documents)

- one fragment: spans.py's flat documents as span dicts, against the same entities written as one-fragment dicts
  `{"fragments": [[start, end]], "type"}` (goal <= 1.1x: they take the spans' array path);
- 2-3 fragments: the documents with every entity cut into 2-3 fragments (holes of one token between them)
  against the same number of contiguous spans, the fragments' extents (goal <= 2x);
- value: `value=True` against the plain call (issue 31, item 6: within 2x), on a comb (100 entities a side of 100
  one-unit fragments at the same places and one of their own: every reference meets every prediction) and on the
  2-3 fragments documents;
- hostile: one entity of 10,000 fragments against 10,000 one-token predictions inside its extent; 1,000 entities
  of 50 fragments interleaved (entity k holds positions k, k + 1,000, ...) against the same shifted by one;
  seconds, with the growth from half the size.

Each ratio is of median CPU times over the runs (`median_times`), with the ratio of the fastest runs beside it
(with `--before`, each case's time now against before too, and the case now against the spans before);
the hostile rows are wall seconds of one run. With `--before REV`, that revision's package (loaded from git under
a name of its own, `revisions.earlier_module`) scores every case too, its calls in turns with the working tree's:
before and after in one process. Times are never asserted in tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from contextlib import ExitStack  # noqa: E402

from measure import interleaved_times  # noqa: E402
from revisions import earlier_module  # noqa: E402
from spans import flat_documents  # noqa: E402

import nerscore  # noqa: E402


def as_dicts(batch):
    return [[{"start": s, "end": e, "type": t} for s, e, t in sentence] for sentence in batch]


def as_one_fragment(batch):
    return [[{"fragments": [[s, e]], "type": t} for s, e, t in sentence] for sentence in batch]


def cut(batch, seed):
    """Each entity spread over 2-3 fragments of 1-2 tokens with holes of one token, placed apart: the
    fragmented entities, and the contiguous spans of their extents."""
    rng = random.Random(seed)
    fragmented, contiguous = [], []
    for sentence in batch:
        pieces_side, spans_side = [], []
        position = 0
        for _, _, entity_type in sentence:
            pieces = []
            for _ in range(rng.choice((2, 3))):
                length = rng.choice((1, 2))
                pieces.append([position, position + length])
                position += length + 1
            pieces_side.append({"fragments": pieces, "type": entity_type})
            spans_side.append({"start": pieces[0][0], "end": pieces[-1][1], "type": entity_type})
            position += 2
        fragmented.append(pieces_side)
        contiguous.append(spans_side)
    return fragmented, contiguous


def jittered(batch, seed):
    """The predictions: each fragmented entity with its last fragment one token longer now and then."""
    rng = random.Random(seed)
    out = []
    for sentence in batch:
        side = []
        for entity in sentence:
            pieces = [list(piece) for piece in entity["fragments"]]
            if rng.random() < 0.2:
                pieces[-1][1] += 1
            side.append({"fragments": pieces, "type": entity["type"]})
        out.append(side)
    return out


def extents(batch):
    return [
        [{"start": e["fragments"][0][0], "end": e["fragments"][-1][1], "type": e["type"]} for e in sentence]
        for sentence in batch
    ]


def median_times(calls, repeats):
    """The median and the fastest CPU time (`time.process_time`, steadier than wall time on a loaded machine) of
    each call over `repeats` runs, after a warm-up, the calls interleaved run by run; `gc.collect()` before each
    run (`measure.interleaved_times`)."""
    times = interleaved_times(calls, repeats, time.process_time)
    return {name: (statistics.median(values), min(values)) for name, values in times.items()}


def compute(module, predictions, references, **options):
    return lambda: module.compute_semeval(predictions=predictions, references=references, **options)


def compared(label, goal, cases, modules, repeats):
    """Times `cases` ({name: (predictions, references)}, the first the baseline) by every module in turns and
    prints a row per module: the ratio of the second case to the first, medians and fastest runs."""
    calls = {
        (tag, name): compute(module, predictions, references)
        for tag, module in modules.items()
        for name, (predictions, references) in cases.items()
    }
    times = median_times(calls, repeats)
    base, case = list(cases)
    for tag, _module in modules.items():
        assert calls[tag, base]() == calls[tag, case]() or case != "one fragment"
        median = times[tag, case][0] / times[tag, base][0]
        fastest = times[tag, case][1] / times[tag, base][1]
        print(f"| {label} ({tag}) | {median:.2f}x (fastest {fastest:.2f}x) | {goal} |")
    if "before" in modules:  # each case's time now against its time before, and the case now against the base before
        rows = [(name, times["now", name], times["before", name]) for name in (base, case)]
        rows.append((f"{case} now / {base} before", times["now", case], times["before", base]))
        for name, now, before in rows:
            print(f"| {name}: now / before | {now[0] / before[0]:.2f}x (fastest {now[1] / before[1]:.2f}x) | |")


def ratios(count: int, repeats: int, modules: dict) -> None:
    _, references, predictions = flat_documents(count, 1)
    cases = {
        "spans": (as_dicts(predictions), as_dicts(references)),
        "one fragment": (as_one_fragment(predictions), as_one_fragment(references)),
    }
    compared(f"one-fragment dicts / span dicts, {count:,} documents", "<= 1.1x", cases, modules, repeats)

    fragmented_r, _ = cut(references, 2)
    fragmented_p = jittered(fragmented_r, 3)
    contiguous = (extents(fragmented_p), extents(fragmented_r))
    cases = {"contiguous": contiguous, "fragments": (fragmented_p, fragmented_r)}
    compared(f"2-3 fragments / as many contiguous spans, {count:,} documents", "<= 2x", cases, modules, repeats)
    # A clinical corpus: a tenth of the documents hold a discontinuous entity.
    rng = random.Random(4)
    mixed_r, mixed_p = extents(fragmented_r), extents(fragmented_p)
    for k in rng.sample(range(len(mixed_r)), len(mixed_r) // 10):
        mixed_r[k], mixed_p[k] = fragmented_r[k], fragmented_p[k]
    cases = {"contiguous": contiguous, "a tenth": (mixed_p, mixed_r)}
    compared(
        f"a tenth of the documents with 2-3 fragments / all contiguous, {count:,} documents",
        "",
        cases,
        modules,
        repeats,
    )


def comb(entities: int, fragments: int) -> tuple[list, list]:
    """Entities of `fragments` one-unit fragments at the same places on both sides, and one of their own."""
    shared = [[2 * k, 2 * k + 1] for k in range(fragments)]
    own = 2 * fragments
    return tuple(  # type: ignore[return-value]
        [[{"fragments": [*shared, [own + 2 * n + side, own + 2 * n + side + 1]], "type": "A"} for n in range(entities)]]
        for side in (0, 1)
    )


def value_ratios(count: int, repeats: int, modules: dict) -> None:
    """`value=True` / the plain call, each module's calls in turns: a comb of 100 x 100 fragments, and `count`
    documents of 2-3 fragments an entity."""
    _, references, _ = flat_documents(count, 1)
    fragmented_r, _ = cut(references, 2)
    shapes = {"comb of 100 x 100 fragments": comb(100, 100)[::-1]}
    shapes[f"2-3 fragments, {count:,} documents"] = (jittered(fragmented_r, 3), fragmented_r)
    for label, (predictions, references) in shapes.items():
        calls = {
            (tag, value): compute(module, predictions, references, value=value)
            for tag, module in modules.items()
            for value in (None, True)
        }
        times = median_times(calls, repeats)
        for tag in modules:
            median = times[tag, True][0] / times[tag, None][0]
            fastest = times[tag, True][1] / times[tag, None][1]
            print(f"| value=True / plain, {label} ({tag}) | {median:.2f}x (fastest {fastest:.2f}x) | <= 2x |")


def hostile() -> None:
    for size in (5_000, 10_000):
        reference = [{"fragments": [[2 * k, 2 * k + 1] for k in range(size)], "type": "X"}]
        predictions = [{"start": 2 * k, "end": 2 * k + 1, "type": "X"} for k in range(size)]
        start = time.perf_counter()
        nerscore.compute_semeval(predictions=[predictions], references=[reference], diagnostics=True)
        print(
            f"| one entity of {size:,} fragments, {size:,} predictions inside | {time.perf_counter() - start:.2f} s |"
        )
    for entities in (500, 1_000):
        references = [
            {"fragments": [[k + entities * m, k + entities * m + 1] for m in range(50)], "type": "X"}
            for k in range(entities)
        ]
        predictions = [
            {"fragments": [[k + 1 + entities * m, k + 2 + entities * m] for m in range(50)], "type": "X"}
            for k in range(entities)
        ]
        start = time.perf_counter()
        nerscore.compute_semeval(predictions=[predictions], references=[references], diagnostics=True)
        print(f"| {entities:,} entities of 50 fragments interleaved, a side | {time.perf_counter() - start:.2f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--hostile", action="store_true")
    parser.add_argument("--value", action="store_true", help="the value score's rows only")
    parser.add_argument("--before", metavar="REV", help="also time this revision's package, in turns")
    args = parser.parse_args()
    with ExitStack() as stack:
        modules = {"now": nerscore}
        if args.before:
            modules = {"before": stack.enter_context(earlier_module(args.before)), **modules}
        if args.value:
            value_ratios(4_000, 5, modules)
            return
        if not args.hostile:
            ratios(4_000 if args.quick else 20_000, 3 if args.quick else 5, modules)
            value_ratios(4_000, 5, modules)
    hostile()


if __name__ == "__main__":
    main()
