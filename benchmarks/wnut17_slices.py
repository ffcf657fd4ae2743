"""The worked reading of docs/slices.md: WNUT-17's test set by seen and unseen entities and by entity length.

    python benchmarks/wnut17_slices.py [--resamples N]

Reads ../shared/data/wnut17/ (the gold test set and seven systems' outputs) and ../shared/data/wnut17-train/
(the training and development sets) when present, and prints, as Markdown: how many test entity texts occur in
training (exactly and case-folded), each system's strict F1 on seen and unseen entities with `seen=` the
training and development sets' entity texts, and the paired test of the best two systems by entity length
(`compare_semeval(..., slices=["entity_length"])`, Holm across the buckets). Not a test: tests never read
../shared.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from workload import REPO, WNUT_GOLD, WNUT_SYSTEMS, side_by_side

sys.path.insert(0, str(REPO))
import nerscore
from nerscore.table.columns import join_tokens

SHARED = REPO.parent / "shared" / "data"
TEST, TRAIN = SHARED / "wnut17", SHARED / "wnut17-train"
TRAIN_FILES = ("wnut17train.conll", "emerging.dev.conll")


def read_sentences(path: Path) -> list[tuple[list[str], list[str]]]:
    """(tokens, tags) of each sentence of a token<TAB>tag file (a blank line, or a line of only a tab, ends one)."""
    sentences, tokens, tags = [], [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        columns = line.split()
        if not columns:
            if tokens:
                sentences.append((tokens, tags))
                tokens, tags = [], []
            continue
        tokens.append(columns[0])
        tags.append(columns[-1])
    if tokens:
        sentences.append((tokens, tags))
    return sentences


def entity_texts(sentences: list[tuple[list[str], list[str]]]) -> list[str]:
    """The text of every entity (decoded as scored: IOB2, lenient), as `entity_text` joins tokens."""
    return [join_tokens(tokens[span.start : span.end]) for tokens, tags in sentences for span in nerscore.decode(tags)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resamples", type=int, default=10_000, help="of the paired test (default 10,000)")
    args = parser.parse_args()
    if not (TEST / WNUT_GOLD).is_file() or not all((TRAIN / name).is_file() for name in TRAIN_FILES):
        print(f"{TEST} or {TRAIN} not found: nothing to read", file=sys.stderr)
        return 1
    gold = read_sentences(TEST / WNUT_GOLD)
    tokens = [sentence_tokens for sentence_tokens, _ in gold]
    references = [tags for _, tags in gold]
    training = {name: entity_texts(read_sentences(TRAIN / name)) for name in TRAIN_FILES}
    seen = frozenset(text for texts in training.values() for text in texts)
    seen_folded = frozenset(text.casefold() for text in seen)
    test_texts = entity_texts(gold)
    train_only = set(training[TRAIN_FILES[0]])
    train_folded = {text.casefold() for text in train_only}

    print("### How new are the test set's entities?\n")
    print("| | entities | distinct texts |")
    print("|---|---:|---:|")
    print(f"| test set | {len(test_texts):,} | {len(set(test_texts)):,} |")
    for label, wanted in (
        ("text in training + dev, exactly", lambda text: text in seen),
        ("text in training + dev, case-folded", lambda text: text.casefold() in seen_folded),
        ("text in training alone, exactly", lambda text: text in train_only),
        ("text in training alone, case-folded", lambda text: text.casefold() in train_folded),
    ):
        hits = [text for text in test_texts if wanted(text)]
        print(f"| {label} | {len(hits):,} | {len(set(hits)):,} |")
    print(f"\n(training: {len(training[TRAIN_FILES[0]]):,} entities; dev: {len(training[TRAIN_FILES[1]]):,}; ")
    print(f"their distinct texts: {len(seen):,}, case-folded {len(seen_folded):,})")
    common = Counter(text for text in test_texts if text in seen).most_common(8)
    print("\nThe most frequent seen texts: " + ", ".join(f"{text} ({count})" for text, count in common) + ".\n")

    systems = {}
    for system in WNUT_SYSTEMS:
        sentences = list(nerscore.read_conll(side_by_side(TEST / WNUT_GOLD, TEST / system), system))
        systems[system] = [sentence.predictions for sentence in sentences]
    print("### Seen against unseen (strict F1, `seen=` the training and development entity texts)\n")
    print(
        "| system | strict F1 | seen F1 (POS / ACT) | unseen F1 (POS / ACT) | seen F1, case-folded "
        "| unseen F1, case-folded |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    folded_tokens = [[token.casefold() for token in sentence] for sentence in tokens]
    scored = {}
    for system, predictions in systems.items():
        result = nerscore.compute_semeval(
            predictions=predictions, references=references, tokens=tokens, slices=["seen"], seen=seen
        )
        folded = nerscore.compute_semeval(
            predictions=predictions, references=references, tokens=folded_tokens, slices=["seen"], seen=seen_folded
        )
        scored[system] = result["strict_f1"]
        cells = []
        for buckets in (result["slices"]["seen"], folded["slices"]["seen"]):
            for bucket in ("seen", "unseen"):
                values = buckets.get(bucket)
                cells.append(
                    "-"
                    if values is None
                    else f"{100 * values['strict_f1']:.1f} ({values['strict_possible']} / {values['strict_actual']})"
                )
        print(f"| {system} | {100 * result['strict_f1']:.2f} | {cells[0]} | {cells[1]} | {cells[2]} | {cells[3]} |")

    best = sorted(scored, key=scored.get, reverse=True)[:2]
    first, second = best
    print(f"\n### Do the best two differ on long entities? ({second} as A, {first} as B)\n")
    result = nerscore.compare_semeval(
        predictions_a=systems[second],
        predictions_b=systems[first],
        references=references,
        tokens=tokens,
        slices=["entity_length"],
        n_resamples=args.resamples,
    )
    lengths = nerscore.compute_semeval(predictions=references, references=references, slices=["entity_length"])
    print("| entity length | references | A strict F1 | B strict F1 | B - A | 95% interval | p | p (Holm) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for bucket, values in result["slices"]["entity_length"].items():
        support = lengths["slices"]["entity_length"].get(bucket, {}).get("strict_possible", 0)
        print(
            f"| {bucket} | {support} | {100 * values['strict_f1_a']:.1f} | {100 * values['strict_f1_b']:.1f} | "
            f"{100 * values['strict_f1_delta']:+.1f} | {100 * values['strict_f1_delta_low']:+.1f} to "
            f"{100 * values['strict_f1_delta_high']:+.1f} | {values['strict_f1_p_value']:.4f} | "
            f"{values['strict_f1_p_value_holm']:.4f} |"
        )
    print(
        f"\nTotals: B - A = {100 * result['strict_f1_delta']:+.2f} points, "
        f"{100 * result['strict_f1_delta_low']:+.2f} to {100 * result['strict_f1_delta_high']:+.2f}, "
        f"p = {result['strict_f1_p_value']:.4f} ({args.resamples:,} resamples and shuffles, seed 0)."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
