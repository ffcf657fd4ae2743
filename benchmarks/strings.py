"""Speed of string entities (issue 17, docs/scoring.md §1b): the same entities as strings with texts and as spans.

    python benchmarks/strings.py            # 20,000 documents, 5 runs each
    python benchmarks/strings.py --quick    # 5,000 documents, 3 runs

Standalone; the report goes to standard output, one row per case with its goal and PASS / MISS:

- strings vs spans: `compute_semeval` on generated documents of about five reference and five predicted
  entities (words and two-word names of a small vocabulary, so that some strings occur more than once and some
  predictions overlap a reference without matching it), given as span dicts and as `(type, text)` strings with
  `texts`; the strings' time divided by the spans'. Goal: at most 3x. Both must give the same counts (checked).
  With `normalize=True` too (reported, no goal).
- a text in which the string occurs 10,000 times: 10,000 references and predictions of it, and 3 predictions
  among 10,000 references that contain it, each against the same entities as spans; at two sizes, so that the
  ratio of the times shows the growth (goal: at most 2.5x the time for 2x the size, i.e. about linear).

Each cell is the median of `--repeats` runs, calls interleaved run by run (benchmarks/measure.py).
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

WORDS = ("Paris", "Berlin", "Rome", "Oslo", "Lima", "Ada", "Bob", "Acme", "Nice", "Bern", "the", "met", "in", "and")
NAMES = ("New York", "Acme Corp", "Ada Lovelace", "Bob Dylan")
TYPES = ("PER", "LOC", "ORG")
GOAL = 3.0
GROWTH_GOAL = 2.5


Batch = tuple[list[str], list[list], list[list], list[list], list[list]]


def documents(count: int, seed: int, repeated: bool = False) -> Batch:
    """Texts, reference and predicted strings, and the same entities as spans (the strings' groundings). Names
    are drawn from a large vocabulary (a name seldom occurs twice in a text), or with `repeated` from a dozen
    (most strings occur several times, so most documents have a grounding to choose)."""
    rng = random.Random(seed)
    vocabulary = WORDS[:10] + NAMES if repeated else tuple(f"Name{i} Surname{i % 97}" for i in range(2_000))
    filler = ("the", "met", "in", "and", "of", "with", "on", "at")
    texts, string_r, string_p = [], [], []
    for _ in range(count):
        parts, references = [], []
        for _ in range(rng.randint(3, 7)):
            name = rng.choice(vocabulary)
            parts.append(name)
            parts.extend(rng.choice(filler) for _ in range(rng.randint(1, 3)))
            references.append((rng.choice(TYPES), name))
        text = " ".join(parts)
        predictions = []
        for entity_type, part in references:
            roll = rng.random()
            if roll < 0.04:
                continue
            if roll < 0.12 and " " in part:
                part = part.split(" ")[0]  # a boundary error
            if 0.12 <= roll < 0.17:
                entity_type = rng.choice(TYPES)
            predictions.append((entity_type, part))
        if rng.random() < 0.1:
            predictions.append((rng.choice(TYPES), rng.choice(vocabulary)))  # may not occur: ungrounded
        texts.append(text)
        string_r.append(references)
        string_p.append(predictions)
    result = nerscore.compute_semeval(predictions=string_p, references=string_r, texts=texts, return_entities=True)
    span_r: list[list] = [[] for _ in texts]
    span_p: list[list] = [[] for _ in texts]
    for row in result["entities"]:
        for side, key in ((span_r, "reference"), (span_p, "prediction")):
            entity = row[key]
            if entity is not None and entity["start"] is not None:
                side[row["sentence"]].append({"start": entity["start"], "end": entity["end"], "type": entity["type"]})
    return texts, string_r, string_p, span_r, span_p


def calls(batch: Batch, normalize: bool = False) -> dict:
    """The timed calls: the batch as spans, as strings with texts (and with normalize)."""
    texts, string_r, string_p, span_r, span_p = batch
    timed = {
        "spans": lambda: nerscore.compute_semeval(predictions=span_p, references=span_r),
        "strings": lambda: nerscore.compute_semeval(predictions=string_p, references=string_r, texts=texts),
    }
    if normalize:
        timed["strings, normalize"] = lambda: nerscore.compute_semeval(
            predictions=string_p, references=string_r, texts=texts, normalize=True
        )
    return timed


def counts(result: dict) -> dict:
    return {key: value for key, value in result.items() if isinstance(value, int) and key != "ungrounded"}


def strings_against_spans(count: int, repeats: int) -> None:
    for repeated in (False, True):
        texts, string_r, string_p, span_r, span_p = documents(count, 17, repeated)
        ungrounded = nerscore.compute_semeval(predictions=string_p, references=string_r, texts=texts)["ungrounded"]
        spans = nerscore.compute_semeval(predictions=span_p, references=span_r)
        strings = nerscore.compute_semeval(predictions=string_p, references=string_r, texts=texts)
        assert counts(strings)["strict_spurious"] == spans["strict_spurious"] + ungrounded
        assert counts(strings)["strict_correct"] == spans["strict_correct"]
        times = median_times(calls((texts, string_r, string_p, span_r, span_p), normalize=True), repeats)
        entities = sum(map(len, string_r)) + sum(map(len, string_p))
        kind = "a dozen names, most occurring several times" if repeated else "names seldom repeated in a text"
        print(f"## strings against spans: {count:,} documents, {kind}, {entities:,} entities", end="")
        print(f" ({ungrounded} ungrounded)\n")
        print("| form | seconds | / spans | goal | |")
        print("| --- | --- | --- | --- | --- |")
        for name, seconds in times.items():
            ratio = seconds / times["spans"]
            scored = name == "strings" and not repeated
            goal = f"<= {GOAL:g}" if scored else ""
            verdict = ("PASS" if ratio <= GOAL else "MISS") if scored else ""
            print(f"| {name} | {seconds:.3f} | {ratio:.2f} | {goal} | {verdict} |")
        print()


def repeated(n: int, inside: bool) -> Batch:
    """One text in which the string occurs n times: n references and predictions of it ("a"), or 3 predictions
    "York" among n references "New York"."""
    if not inside:
        text = "a " * n
        strings = [("X", "a")] * n
        spans = [(2 * i, 2 * i + 1, "X") for i in range(n)]
        return [text], [strings], [list(strings)], [spans], [list(spans)]
    text = "New York " * n
    return (
        [text],
        [[("LOC", "New York")] * n],
        [[("LOC", "York")] * 3],
        [[(9 * i, 9 * i + 8, "LOC") for i in range(n)]],
        [[(9 * i + 4, 9 * i + 8, "LOC") for i in range(3)]],
    )


def occurring_often(repeats: int, sizes: list[int]) -> None:
    print("## a text in which the string occurs n times\n")
    print("| case | n | strings s | spans s | / spans | growth for 2x n | goal | |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for inside in (False, True):
        name = "3 York among n New York" if inside else "n 'a' against n 'a'"
        previous = None
        for n in sizes:
            texts, string_r, string_p, span_r, span_p = repeated(n, inside)
            times = median_times(calls((texts, string_r, string_p, span_r, span_p)), repeats)
            growth = "" if previous is None else f"{times['strings'] / previous:.2f}"
            verdict = "" if previous is None else ("PASS" if times["strings"] / previous <= GROWTH_GOAL else "MISS")
            goal = "" if previous is None else f"<= {GROWTH_GOAL:g}"
            ratio = times["strings"] / times["spans"]
            cells = [name, f"{n:,}", f"{times['strings']:.4f}", f"{times['spans']:.4f}", f"{ratio:.2f}", growth, goal]
            print(f"| {' | '.join(cells)} | {verdict} |")
            previous = times["strings"]
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int)
    args = parser.parse_args()
    repeats = args.repeats or (3 if args.quick else 5)
    print(f"# String entities ({platform.python_implementation()} {platform.python_version()})\n")
    strings_against_spans(5_000 if args.quick else 20_000, repeats)
    occurring_often(repeats, [10_000, 20_000])


if __name__ == "__main__":
    main()
