"""The benchmark's data: generated IOB2 sentences with controlled noise, CoNLL files of them, and WNUT-17.

Tags are written by nerscore's own `encode` and files are read by its `read_conll`, so the benchmark has no
encoder or reader of its own to get wrong.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import accumulate, islice, zip_longest
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the checkout's nerscore/ and ner_semeval.py, not installed copies
from nerscore import Span, encode, read_conll  # noqa: E402

TYPE_NAMES = ("PER", "LOC", "ORG", "MISC", "DATE", "PRODUCT", "EVENT", "WORK", "GROUP", "FAC")
LENGTHS = (1, 2, 3, 4, 5)  # entity lengths in tokens and how often they occur (mean 1.8)
LENGTH_WEIGHTS = (50, 30, 12, 6, 2)
COVERAGE = 0.125  # share of tokens inside reference entities (realistic NER data: 10-15 %)
NOISE_KINDS = ("boundary", "type", "drop", "add")

WNUT17 = REPO.parent / "shared" / "data" / "wnut17"
WNUT_GOLD = "emerging.test.annotated"
WNUT_SYSTEMS = ("arcada", "drexel_cci", "flytxt", "mic-cis.txt", "sjtu_adapt.txt", "spinningbytes.txt", "uh_ritual")

Batch = list[list[str]]


@dataclass
class Dataset:
    """One column of the table: one or more (predictions, references) parts scored in one timed run."""

    name: str
    description: str
    parts: list[tuple[Batch, Batch]]
    part_names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        tags = {tag for part in self.parts for side in part for sentence in side for tag in sentence}
        self.types = sorted({tag[2:] for tag in tags if tag != "O"})  # nervaluate must be told the types
        self.sentences = sum(len(references) for _, references in self.parts)
        self.tokens = sum(len(sentence) for _, references in self.parts for sentence in references)


def size_name(sentences: int) -> str:
    """A column's name: 20000 sentences -> "20k"."""
    return f"{sentences // 1000}k" if sentences % 1000 == 0 else str(sentences)


def sentences(length: int, types: int, noise: float, seed: int, skew: bool = True) -> Iterator[tuple[list, list]]:
    """Endless (prediction, reference) IOB2 tag sequences of `length` tokens, about 12.5 % of them in reference
    entities of `types` types (the first the most common; equally common unless `skew`). Each reference entity
    is perturbed with probability `noise` in the predictions: boundary moved by one token (a quarter of these
    also change type), type changed, entity dropped, or a spurious entity added elsewhere in the sentence. The
    same seed gives the same sentences, so a smaller data set is a prefix of a larger one."""
    rng = random.Random(seed)
    names = [TYPE_NAMES[i] if i < len(TYPE_NAMES) else f"TYPE{i}" for i in range(types)]
    index = {name: i for i, name in enumerate(names)}
    # Cumulative weights: a draw is a bisection, not a pass over 100,000 weights.
    cumulative = list(accumulate(1 / (rank + 1) if skew else 1 for rank in range(types)))
    mean = sum(n * w for n, w in zip(LENGTHS, LENGTH_WEIGHTS)) / sum(LENGTH_WEIGHTS)
    # A free token starts an entity with probability p: coverage = p*mean / ((1 - p) + p*mean).
    start_probability = COVERAGE / (mean - COVERAGE * (mean - 1))

    def entity(start: int) -> Span:
        size = min(rng.choices(LENGTHS, LENGTH_WEIGHTS)[0], length - start)
        return Span(start, start + size, rng.choices(names, cum_weights=cumulative)[0])

    def other_type(name: str) -> str:
        if types == 1:
            return name
        other = rng.randrange(types - 1)  # any type but `name`, drawn without a list of all the others
        return names[other + (other >= index[name])]

    def tags(spans: list[Span]) -> list[str]:
        # One string object per tag, shared by all sentences, as a tokenizer's id2label gives them.
        return list(map(sys.intern, encode(spans, length)))

    while True:
        gold, position = [], 0
        while position < length:
            if rng.random() < start_probability:
                gold.append(entity(position))
                position = gold[-1].end
            else:
                position += 1
        predicted = []
        for start, end, name in ((span.start, span.end, span.entity_type) for span in gold):
            kind = rng.choice(NOISE_KINDS) if rng.random() < noise else "keep"
            if kind == "boundary":
                if rng.random() < 0.5:
                    start = min(max(0, start + rng.choice((-1, 1))), end - 1)
                else:
                    end = max(min(length, end + rng.choice((-1, 1))), start + 1)
                predicted.append(Span(start, end, other_type(name) if rng.random() < 0.25 else name))
            elif kind == "type":
                predicted.append(Span(start, end, other_type(name)))
            elif kind != "drop":
                predicted.append(Span(start, end, name))
                if kind == "add":
                    predicted.append(entity(rng.randrange(length)))
        kept: list[Span] = []
        for span in sorted(predicted):  # predictions of one sequence never overlap: keep the first of a clash
            if not kept or span.start >= kept[-1].end:
                kept.append(span)
        yield tags(kept), tags(gold)


def generate(count: int, length: int, types: int, noise: float, seed: int, skew: bool = True) -> tuple[Batch, Batch]:
    """(predictions, references): the first `count` of `sentences(...)`."""
    pairs = list(islice(sentences(length, types, noise, seed, skew), count))
    return [predicted for predicted, _ in pairs], [reference for _, reference in pairs]


def write_conll(path: Path, count: int, length: int, types: int, noise: float, seed: int) -> None:
    """A CoNLL file of generated sentences, written as they come: token, reference tag, predicted tag."""
    with open(path, "w", encoding="utf-8") as handle:
        for predicted, reference in islice(sentences(length, types, noise, seed), count):
            handle.write("".join(f"w{i} {r} {p}\n" for i, (r, p) in enumerate(zip(reference, predicted))) + "\n")


def side_by_side(gold: Path, system: Path) -> Iterator[str]:
    """conlleval's input from two token-aligned two-column files: token, reference tag, predicted tag."""
    with open(gold, encoding="utf-8") as references, open(system, encoding="utf-8") as predictions:
        for reference, prediction in zip_longest(references, predictions, fillvalue=""):
            reference, prediction = reference.split(), prediction.split()
            if bool(reference) != bool(prediction):
                raise ValueError(f"not token-aligned with {gold.name}")
            yield f"{reference[0]} {reference[-1]} {prediction[-1]}" if reference else ""


def wnut17(folder: Path = WNUT17) -> tuple[Dataset | None, list[str]]:
    """The seven WNUT-17 system outputs against the gold test set (None when ../shared is absent), and notes."""
    if not (folder / WNUT_GOLD).is_file():
        return None, [f"wnut17: {folder} not found, column skipped"]
    parts, names, notes = [], [], []
    for system in WNUT_SYSTEMS:
        try:
            scored = list(read_conll(side_by_side(folder / WNUT_GOLD, folder / system), system))
        except (OSError, ValueError) as error:
            notes.append(f"wnut17: {system} skipped: {error}")
            continue
        parts.append(([sentence.predictions for sentence in scored], [sentence.references for sentence in scored]))
        names.append(system)
    if not parts:
        return None, notes
    description = (
        f"WNUT-17 test set ({len(parts[0][1]):,} sentences) scored against each of {len(parts)} system outputs"
    )
    return Dataset("wnut17", description, parts, part_names=names), notes
