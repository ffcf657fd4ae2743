"""Speed of span input: spans against the same entities as tags, and the scaling of heavy nesting.

    python benchmarks/spans.py                    # 100,000 documents, 5 runs each: a few minutes on 2 cores
    python benchmarks/spans.py --quick            # 10,000 documents, 3 runs, smaller scaling steps
    python benchmarks/spans.py --pairing          # issue 16's hostile pairings only: a few minutes

Standalone (benchmarks/run.py times the tag path against the peers). The report goes to standard output:

- spans vs tags: `compute_semeval` on generated documents of about five reference and five predicted entities,
  flat (so that the same entities can be written as IOB2 tags), as tags, as span dicts `{"start", "end",
  "type"}`, as the transformers pipeline's grouped output (`entity_group`, `score`, `word`) and as
  `(start, end, type)` tuples; each time is divided by the time of the tags. Every form must give the same
  scores, which is checked.
- bootstrap with spans: `compute_semeval(bootstrap=1)` on 20,000 of the flat documents as span dicts (and on
  400 of the nested ones below) divided by `compute_semeval` without it: each sentence's counts come from the
  same pass, so the goal (issue 16) is at most 2x.
- heavy nesting: documents whose entities nest three levels deep on both sides (every document goes through the
  exact solver), at 1/100, 1/10 and all of the documents, and one document holding ever more nested entities
  with an entity around all of it (one connected component); seconds per entity should stay about flat.

- hostile pairings (issue 16): identical entities (100,000 copies a side, of one type and across types), the
  "staircase" of equal windows and the "onion" of nested entities at two sizes each (the ratio shows how the time
  grows) and against the issue's absolute goals (the onion at 2,000 a side, the staircase at 100,000), 12-entity
  nested documents against nervaluate, the one-component document at 1,000 and 10,000 entities, and 300
  sentences of one small group each (onions of 12, also with value=True, staircases of 14: a rule-(d) search per
  group); each row with its goal and PASS / MISS.

Each cell is the median of `--repeats` runs of `time.perf_counter()` around one call, forms interleaved run by
run; `gc.collect()` before each run. Times are never asserted in tests.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from measure import median_times  # noqa: E402

import nerscore  # noqa: E402  (the checkout's package, not an installed one)

TYPES = ("PER", "LOC", "ORG", "MISC")
Entity = tuple[int, int, str]


def flat_documents(count: int, seed: int) -> tuple[list[int], list[list[Entity]], list[list[Entity]]]:
    """`count` documents of about five reference entities (3-7) of 1-3 tokens with gaps of 1-6 tokens, and
    predictions that keep most of them: a boundary moved (8 %), the type changed (5 %), dropped (4 %), and a
    spurious entity added in a gap (3 % per entity). Predicted entities stay disjoint, so tags can hold them.
    Returns each document's length in tokens, the references and the predictions."""
    rng = random.Random(seed)
    lengths, references, predictions = [], [], []
    for _ in range(count):
        position, reference, prediction = rng.randint(0, 3), [], []
        for _ in range(rng.randint(3, 7)):
            start, end = position, position + rng.choice((1, 1, 2, 2, 3))
            entity_type = rng.choice(TYPES)
            reference.append((start, end, entity_type))
            gap = rng.randint(1, 6)
            roll = rng.random()
            if roll < 0.08:  # a boundary moved by one token, inside the gaps
                start, end = (start + 1, end) if end - start > 1 and rng.random() < 0.5 else (start, end + 1)
                prediction.append((start, end, entity_type))
            elif roll < 0.13:
                prediction.append((start, end, rng.choice([t for t in TYPES if t != entity_type])))
            elif roll >= 0.17:
                prediction.append((start, end, entity_type))
            if rng.random() < 0.03 and gap >= 4:  # a spurious entity in the gap
                prediction.append((end + 2, end + 3, rng.choice(TYPES)))
            position = end + gap
        lengths.append(position + 2)
        references.append(reference)
        predictions.append(prediction)
    return lengths, references, predictions


def nested_documents(count: int, seed: int) -> tuple[list[list[Entity]], list[list[Entity]]]:
    """`count` documents of two or three entities, each holding one or two entities that hold one more (three
    levels, about seven entities a side), predictions perturbed as in `flat_documents` plus missing levels."""
    rng = random.Random(seed)
    references, predictions = [], []
    for _ in range(count):
        reference, position = [], 0
        for _ in range(rng.randint(2, 3)):
            outer = (position, position + rng.randint(6, 10))
            reference.append((*outer, rng.choice(TYPES)))
            for inner_start in sorted(rng.sample(range(outer[0], outer[1] - 2), rng.randint(1, 2))):
                inner = (inner_start, inner_start + rng.randint(2, 3))
                reference.append((*inner, rng.choice(TYPES)))
                reference.append((inner[0], inner[0] + 1, rng.choice(TYPES)))
            position = outer[1] + rng.randint(1, 4)
        prediction = []
        for start, end, entity_type in reference:
            roll = rng.random()
            if roll < 0.15:
                start = max(0, start + rng.choice((-1, 1)))
                prediction.append((start, max(start + 1, end + rng.choice((-1, 0, 1))), entity_type))
            elif roll < 0.22:
                prediction.append((start, end, rng.choice(TYPES)))
            elif roll >= 0.3:
                prediction.append((start, end, entity_type))
        references.append(reference)
        predictions.append(prediction)
    return references, predictions


def one_long_document(entities: int, seed: int) -> tuple[list[list[Entity]], list[list[Entity]]]:
    """One document of about `entities` nested entities a side, and one entity around all of it on each side:
    the whole document is one connected component of the overlap graph."""
    references, predictions = nested_documents(max(1, entities // 7), seed)
    reference, prediction, shift = [], [], 0
    for document_references, document_predictions in zip(references, predictions):
        reference += [(start + shift, end + shift, kind) for start, end, kind in document_references]
        prediction += [(start + shift, end + shift, kind) for start, end, kind in document_predictions]
        shift = max(end for _, end, _ in reference + prediction) + 2
    reference.append((0, shift, "DOC"))
    prediction.append((1, shift, "DOC"))
    return [reference], [prediction]


def as_tags(lengths: list[int], documents: list[list[Entity]]) -> list[list[str]]:
    return [nerscore.encode([nerscore.Span(*e) for e in d], n, "IOB2") for n, d in zip(lengths, documents)]


def as_dicts(documents: list[list[Entity]]) -> list[list[dict]]:
    return [[{"start": start, "end": end, "type": kind} for start, end, kind in document] for document in documents]


def as_pipeline_output(documents: list[list[Entity]]) -> list[list[dict]]:
    return [
        [{"entity_group": kind, "score": 0.9, "word": "w", "start": start, "end": end} for start, end, kind in document]
        for document in documents
    ]


def spans_against_tags(documents: int, repeats: int) -> None:
    lengths, references, predictions = flat_documents(documents, seed=2013)
    inputs = {
        "tags (IOB2)": (as_tags(lengths, predictions), as_tags(lengths, references)),
        "span dicts {start, end, type}": (as_dicts(predictions), as_dicts(references)),
        "pipeline output (entity_group, score, word)": (as_pipeline_output(predictions), as_dicts(references)),
        "(start, end, type) tuples": (predictions, references),
    }
    results = {name: nerscore.compute_semeval(predictions=p, references=r) for name, (p, r) in inputs.items()}
    # Tags give token_accuracy too (docs/scoring.md: a key of tags alone); every other key is the same.
    tags_keys = {key: value for key, value in results["tags (IOB2)"].items() if key != "token_accuracy"}
    assert all(result == tags_keys for name, result in results.items() if name != "tags (IOB2)"), "every form alike"
    calls = {
        name: (lambda p=p, r=r: nerscore.compute_semeval(predictions=p, references=r))
        for name, (p, r) in inputs.items()
    }
    entities = sum(map(len, references)) / documents, sum(map(len, predictions)) / documents
    tokens = sum(lengths)
    print(f"## Spans against tags: {documents:,} documents, {tokens:,} tokens a side as tags, ")
    print(f"{entities[0]:.2f} reference and {entities[1]:.2f} predicted entities a document (median of {repeats})")
    print()
    print("| input | seconds | / tags |")
    print("| --- | --- | --- |")
    medians = median_times(calls, repeats)
    for name, seconds in medians.items():
        print(f"| {name} | {seconds:.3f} | {seconds / medians['tags (IOB2)']:.2f}x |")
    print()


# Issue 16: bootstrap with spans counts each sentence on the array path, at most this many times compute alone.
BOOTSTRAP_GOAL = 2.0


def bootstrap_with_spans(documents: int, repeats: int) -> None:
    _, references, predictions = flat_documents(documents, seed=2013)
    nested_references, nested_predictions = nested_documents(max(1, documents // 50), seed=7)
    batches = {
        f"{documents:,} flat documents": (as_dicts(predictions), as_dicts(references)),
        f"{max(1, documents // 50):,} nested documents": (as_dicts(nested_predictions), as_dicts(nested_references)),
    }
    print("## Bootstrap with spans: each sentence's counts from the same pass (issue 16)")
    print()
    print("| span dicts | compute_semeval | bootstrap=1 | ratio | goal |")
    print("| --- | --- | --- | --- | --- |")
    for name, (p, r) in batches.items():
        calls = {
            "alone": lambda p=p, r=r: nerscore.compute_semeval(predictions=p, references=r),
            "bootstrap": lambda p=p, r=r: nerscore.compute_semeval(predictions=p, references=r, bootstrap=1),
        }
        medians = median_times(calls, repeats)
        ratio = medians["bootstrap"] / medians["alone"]
        verdict = "PASS" if ratio <= BOOTSTRAP_GOAL else "MISS"
        print(
            f"| {name} | {medians['alone']:.3f} s | {medians['bootstrap']:.3f} s | {ratio:.2f}x | "
            f"<= {BOOTSTRAP_GOAL:g}x {verdict} |"
        )
    print()


def nesting_scaling(documents: int, repeats: int, long_sizes: list[int]) -> None:
    # private: here, so that redesign.py can import the data of any revision
    from nerscore.pairing.rules import spans_disjoint

    references, predictions = nested_documents(documents, seed=7)
    nested_share = sum(not spans_disjoint([nerscore.Span(*e) for e in d]) for d in references) / documents
    print(f"## Heavy nesting: documents of about 7 entities a side, three levels ({nested_share:.0%} nested)")
    print()
    print("| documents | entities a side | seconds | microseconds per entity |")
    print("| --- | --- | --- | --- |")
    for count in (documents // 100, documents // 10, documents):
        batch = as_dicts(predictions[:count]), as_dicts(references[:count])
        entities = sum(map(len, references[:count]))
        seconds = median_times(
            {"n": lambda b=batch: nerscore.compute_semeval(predictions=b[0], references=b[1])}, repeats
        )["n"]
        print(f"| {count:,} | {entities:,} | {seconds:.3f} | {seconds / entities * 1e6:.1f} |")
    print()
    print("One document, one entity around all of it on each side (a single connected component):")
    print()
    print("| entities a side | seconds | microseconds per entity |")
    print("| --- | --- | --- |")
    for size in long_sizes:
        long_references, long_predictions = one_long_document(size, seed=11)
        entities = len(long_references[0])
        seconds = median_times(
            {"n": lambda p=long_predictions, r=long_references: nerscore.compute_semeval(predictions=p, references=r)},
            max(1, repeats // 2),
        )["n"]
        print(f"| {entities:,} | {seconds:.3f} | {seconds / entities * 1e6:.1f} |")
    print()


def onion(n: int) -> tuple[list[list[Entity]], list[list[Entity]]]:
    """Issue 16's onion: references (i, 2n - i), A for odd i and B for even; predictions (i, 2n - i - 1), A unless
    i is a multiple of 3. Every reference overlaps every prediction."""
    references = [(i, 2 * n - i, "A" if i % 2 else "B") for i in range(n)]
    predictions = [(i, 2 * n - i - 1, "B" if i % 3 == 0 else "A") for i in range(n)]
    return [predictions], [references]


def staircase(n: int) -> tuple[list[list[Entity]], list[list[Entity]]]:
    """Issue 16's staircase of equal windows: references (i, i + 10), predictions (i + 1, i + 12)."""
    return [[(i + 1, i + 12, "A") for i in range(n)]], [[(i, i + 10, "A") for i in range(n)]]


def nervaluate_call(predictions: list[list[Entity]], references: list[list[Entity]]):
    import logging

    from nervaluate import Evaluator

    logging.getLogger("nervaluate").setLevel(logging.ERROR)

    def inclusive(documents: list[list[Entity]]) -> list[list[dict]]:  # nervaluate's end is inclusive
        return [[{"label": kind, "start": start, "end": end - 1} for start, end, kind in d] for d in documents]

    truth, guess = inclusive(references), inclusive(predictions)
    return lambda: Evaluator(truth, guess, tags=list(TYPES)).evaluate()


def hostile_pairings(repeats: int, documents: int) -> None:
    """Issue 16's rows: seconds, or a ratio of two sizes, against the issue's goal."""

    def seconds(predictions, references, runs: int = repeats) -> float:
        call = {"n": lambda: nerscore.compute_semeval(predictions=predictions, references=references)}
        return median_times(call, max(1, runs))["n"]

    rows = []
    copies = [(0, 5, "A")] * 100_000
    rows.append(("100,000 identical entities a side: seconds", seconds([copies], [copies]), "<=", 1.0))
    across = [[(0, 5, "A")] * 50_000 + [(0, 5, "B")] * 50_000], [[(0, 5, "B")] * 30_000 + [(0, 5, "C")] * 70_000]
    rows.append(("100,000 a side, identical boundaries, three types: seconds", seconds(*across), "<=", 1.0))
    for name, build, sizes, goal in (
        ("staircase", staircase, (200, 400), 2.5),
        ("onion", onion, (50, 100), 2.5),
    ):
        small, large = (seconds(*build(size), 1) for size in sizes)
        rows.append((f"{name} {sizes[1]:,} / {sizes[0]:,} a side (linear: about 2x)", large / small, "<=", goal))

    # pairing="hipe", the HIPE scorer's greedy pairing (docs/scoring.md §3a), on the same shapes: its time follows
    # the entities too (a scan past the taken references made the onion quadratic: 2,000 / 1,000 took 3.9x).
    def hipe(predictions, references) -> float:
        call = {"n": lambda: nerscore.compute_semeval(predictions=predictions, references=references, pairing="hipe")}
        return median_times(call, max(1, repeats))["n"]

    def identical(n: int) -> tuple[list[list[Entity]], list[list[Entity]]]:
        return [[(0, 5, "A")] * n], [[(0, 5, "A")] * n]

    for name, build, sizes in (
        ("identical entities", identical, (50_000, 100_000)),
        ("staircase", staircase, (2_000, 4_000)),
        ("onion", onion, (2_000, 4_000)),
    ):
        small, large = (hipe(*build(size)) for size in sizes)
        rows.append(
            (f"pairing='hipe', {name} {sizes[1]:,} / {sizes[0]:,} a side (linear: about 2x)", large / small, "<=", 2.5)
        )
    # Issue 16's absolute goals: the onion of 2,000 a side (4 million overlapping pairs) and the staircase of
    # 100,000 a side, each within 10 s.
    rows.append(("onion 2,000 a side: seconds", seconds(*onion(2_000), 1), "<=", 10.0))
    rows.append(
        ("staircase 3,200 a side: seconds (its linear share of 10 s)", seconds(*staircase(3_200), 1), "<=", 0.32)
    )
    rows.append(("staircase 100,000 a side: seconds", seconds(*staircase(100_000), 1), "<=", 10.0))
    # Many sentences of one small connected group (65-200 overlapping pairs): a rule-(d) search of usable edges per
    # group (`pairing.tight_matchings.usable_edges`), where a fixed cost a call shows (2658b3f: 1.2-1.3x e2c1a33's).
    # Goals: e2c1a33's times (its hand-written Tarjan), measured idle, plus a quarter.
    for text, (predictions, references), options, goal in (
        ("300 onions of 12 a side", onion(12), {}, 0.26),
        ("300 onions of 12 a side, value=True", onion(12), {"value": True}, 0.53),
        ("300 staircases of 14 a side", staircase(14), {}, 0.36),
    ):
        documents_p, documents_r = predictions * 300, references * 300
        call = {
            "n": lambda p=documents_p, r=documents_r, o=options: nerscore.compute_semeval(
                predictions=p, references=r, **o
            )
        }
        rows.append((f"{text}: seconds", median_times(call, max(1, repeats))["n"], "<=", goal))
    references, predictions = nested_documents(documents, seed=7)
    ours = seconds(predictions, references)
    theirs = median_times({"n": nervaluate_call(predictions, references)}, 1)["n"]
    rows.append((f"nervaluate / compute_semeval, {documents:,} nested documents", theirs / ours, ">=", 5.0))
    small, large = (seconds(*one_long_document(size, seed=11)[::-1], 1) for size in (1_000, 10_000))
    rows.append(("one component, 10,000 / 1,000 entities (linear: about 10x)", large / small, "<=", 12.0))
    print("## Hostile pairings (issue 16)")
    print()
    print("| row | measured | goal | verdict |")
    print("| --- | --- | --- | --- |")
    for text, value, op, target in rows:
        met = value <= target if op == "<=" else value >= target
        print(f"| {text} | {value:.3g} | {op} {target:g} | {'PASS' if met else 'MISS'} |")
    print()
    print("Issue 16 asks for the staircase at 100,000 a side within 10 s and the onion at 2,000 a side within 10 s;")
    print("the ratios above say whether the time grows linearly at sizes that finish in seconds, the rows of")
    print("seconds whether the goals are met (one run each: the machine's load moves them).")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="10,000 documents, 3 runs, smaller long documents")
    parser.add_argument("--pairing", action="store_true", help="issue 16's hostile pairings only")
    args = parser.parse_args()
    documents, repeats = (10_000, 3) if args.quick or args.pairing else (args.documents, args.repeats)
    if args.pairing:
        hostile_pairings(repeats, documents)
        return
    long_sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    print(f"# nerscore span benchmark ({platform.python_version()}, {platform.machine()}, numpy {_numpy()})")
    print()
    spans_against_tags(documents, repeats)
    bootstrap_with_spans(20_000, repeats)
    nesting_scaling(documents, repeats, long_sizes)
    hostile_pairings(repeats, documents)


def _numpy() -> str:
    import numpy

    return numpy.__version__


if __name__ == "__main__":
    main()
