"""Speed of the confidence intervals and the paired test, and WNUT-17's systems compared pairwise.

    python benchmarks/significance.py              # (a) and (b): about half a minute
    python benchmarks/significance.py --pairs      # also the 21 pairs of WNUT-17 systems: strict F1, p-values
    python benchmarks/significance.py --scipy      # also scipy.stats on the same statistics: a few minutes
    python benchmarks/significance.py --coverage   # also BCa against percentile intervals: a few minutes
    python benchmarks/significance.py --runs       # also (e) several runs and (f) documents (issue 20)

(a) `compute_semeval` with and without `bootstrap=1000` on generated IOB2 data, 20,000 sentences x 20 tokens
(issue 11's goal: at most 3 times the time without); (b) `compare_semeval` with 10,000 resamples on the
WNUT-17 test set, spinningbytes against uh_ritual (goal: within 2 s), when ../shared/data/wnut17 exists next
to the repository; (e) `summarize_runs` and `compare_runs` with 1,000 resamples of five runs on WNUT-17 (five of
its systems as runs; goal: each within 2 s) and (f) documents as the unit against sentences (goal: within 1.5
times), with --runs. Each time is the median of --repeats runs, the variants interleaved run by run so that a
busy moment on a shared machine slows them alike; gc.collect() before each. Standalone: benchmarks/run.py is
the main benchmark, this script only borrows its conventions. Nothing here is asserted in tests. (Not named
statistics.py: run from this folder, that name would hide the standard library's `statistics` from run.py.)
"""

from __future__ import annotations

import argparse
import functools
import itertools
import random
import sys
import time
from pathlib import Path

import numpy as np

BENCHMARKS = Path(__file__).resolve().parent
REPO = BENCHMARKS.parent
WNUT17 = REPO.parent / "shared" / "data" / "wnut17"
WNUT_GOLD = "emerging.test.annotated"
WNUT_SYSTEMS = ("arcada", "drexel_cci", "flytxt", "mic-cis.txt", "sjtu_adapt.txt", "spinningbytes.txt", "uh_ritual")
sys.path.insert(0, str(REPO))

from measure import median_times  # noqa: E402

import nerscore as ns  # noqa: E402  (the checkout's package, not an installed copy)
from nerscore.forms.tag_arrays import count_tags  # noqa: E402
from nerscore.statistics.resampling import bca_interval, bootstrap_totals  # noqa: E402
from nerscore.statistics.sample_statistics import _measures, measure_keys  # noqa: E402


def generate(sentences: int, length: int = 20, seed: int = 2013) -> tuple[list[list[str]], list[list[str]]]:
    """(predictions, references) in IOB2: reference entities of 1-3 tokens over about 12 % of the tokens, four
    types; each entity perturbed with probability 0.2 in the predictions (boundary, type, dropped, or a
    spurious entity added), as benchmarks/run.py's generator does."""
    rng = random.Random(seed)
    types = ("PER", "LOC", "ORG", "MISC")
    predictions, references = [], []
    for _ in range(sentences):
        gold, position = [], 0
        while position < length:
            if rng.random() < 0.08:
                size = min(rng.choice((1, 1, 2, 2, 3)), length - position)
                gold.append((position, position + size, rng.choices(types, (4, 3, 2, 1))[0]))
                position += size + 1
            else:
                position += 1
        predicted = []
        for start, end, entity_type in gold:
            kind = rng.choice(("boundary", "type", "drop", "add")) if rng.random() < 0.2 else "keep"
            if kind == "boundary":
                end = max(start + 1, min(length, end + rng.choice((-1, 1))))
            elif kind == "type":
                entity_type = rng.choice([t for t in types if t != entity_type])
            elif kind == "add":
                extra = rng.randrange(length)
                predicted.append((extra, extra + 1, rng.choice(types)))
            if kind != "drop":
                predicted.append((start, end, entity_type))
        kept = []
        for span in sorted(predicted):  # predictions never overlap: keep the first of a clash
            if not kept or span[0] >= kept[-1][1]:
                kept.append(span)
        predictions.append(ns.encode([ns.Span(*span) for span in kept], length))
        references.append(ns.encode([ns.Span(*span) for span in gold], length))
    return predictions, references


def read_tags(path: Path) -> list[list[str]]:
    """The tag (last column) of each line, a blank line ending a sentence. WNUT-17's system files hold the token
    and the predicted tag only, so the references come from the gold file."""
    sentences: list[list[str]] = [[]]
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            columns = line.split()
            if columns:
                sentences[-1].append(columns[-1])
            elif sentences[-1]:
                sentences.append([])
    return [sentence for sentence in sentences if sentence]


def bootstrap_on_generated_data(repeats: int) -> None:
    predictions, references = generate(20_000)
    per_sentence = count_tags(predictions, references, False, ns.Options(), keep_sentences=True).per_sentence
    distinct = len(ns.SentenceCounts.of(per_sentence).vectors)
    times = median_times(
        {
            "compute_semeval": lambda: ns.compute_semeval(predictions=predictions, references=references),
            "compute_semeval(bootstrap=1000)": lambda: ns.compute_semeval(
                predictions=predictions, references=references, bootstrap=1000
            ),
        },
        repeats,
    )
    print(f"(a) generated IOB2, 20,000 sentences x 20 tokens ({distinct} distinct per-sentence count vectors)")
    for name, seconds in times.items():
        print(f"    {name:<34}{seconds:8.3f} s")
    ratio = times["compute_semeval(bootstrap=1000)"] / times["compute_semeval"]
    print(f"    ratio {ratio:.2f} (goal: at most 3)")
    draw = median_times({"draw": lambda: np.random.default_rng(0).integers(0, 20_000, size=(1000, 20_000))}, 3)
    print(f"    for scale: drawing 1,000 x 20,000 sentence indices alone takes {draw['draw']:.3f} s")


def wnut17() -> tuple[list[list[str]], dict[str, list[list[str]]]] | None:
    if not (WNUT17 / WNUT_GOLD).exists():
        return None
    return read_tags(WNUT17 / WNUT_GOLD), {name: read_tags(WNUT17 / name) for name in WNUT_SYSTEMS}


def compare_on_wnut17(data: tuple, repeats: int) -> None:
    references, systems = data
    a, b = systems["spinningbytes.txt"], systems["uh_ritual"]
    times = median_times(
        {"compare": lambda: ns.compare_semeval(predictions_a=a, predictions_b=b, references=references)}, repeats
    )
    print(f"(b) WNUT-17 test set ({len(references)} sentences): spinningbytes (A) against uh_ritual (B)")
    print(f"    compare_semeval(n_resamples=10_000)   {times['compare']:8.3f} s (goal: within 2 s)")
    result = ns.compare_semeval(predictions_a=a, predictions_b=b, references=references)
    print(
        f"    strict F1 {result['strict_f1_a']:.4f} -> {result['strict_f1_b']:.4f}: B - A "
        f"{result['strict_f1_delta']:+.4f} [{result['strict_f1_delta_low']:+.4f}, "
        f"{result['strict_f1_delta_high']:+.4f}], p = {result['strict_f1_p_value']:.4f}"
    )


def pairs_on_wnut17(data: tuple) -> None:
    references, systems = data
    f1 = {
        name: ns.compute_semeval(predictions=tags, references=references)["strict_f1"] for name, tags in systems.items()
    }
    ranked = sorted(systems, key=f1.__getitem__)
    print("(c) WNUT-17, every pair of systems: strict F1, B - A with its 95 % interval, p (10,000 resamples)")
    for name in ranked:
        print(f"    {name:<20}{f1[name]:.4f}")
    print(f"    {'A':<20}{'B':<20}{'B - A':>8}{'low':>9}{'high':>9}{'p':>9}")
    start = time.perf_counter()
    for name_a, name_b in itertools.combinations(ranked, 2):
        result = ns.compare_semeval(predictions_a=systems[name_a], predictions_b=systems[name_b], references=references)
        print(
            f"    {name_a:<20}{name_b:<20}{result['strict_f1_delta']:+8.4f}{result['strict_f1_delta_low']:+9.4f}"
            f"{result['strict_f1_delta_high']:+9.4f}{result['strict_f1_p_value']:9.4f}"
        )
    print(f"    21 comparisons in {time.perf_counter() - start:.1f} s")


def scipy_for_the_record(data: tuple | None) -> None:
    """The same statistics through scipy.stats, which resamples sentence indices and scores every resample:
    why nerscore draws per distinct count vector instead."""
    from scipy import stats

    predictions, references = generate(20_000)
    per_sentence = count_tags(predictions, references, False, ns.Options(), keep_sentences=True).per_sentence

    def strict_f1(totals: np.ndarray) -> np.ndarray:
        correct, actual = totals[..., 0], totals[..., [0, 1, 3, 4, 5]].sum(axis=-1)
        return 2 * correct / (actual + totals[..., [0, 2, 3, 4, 5]].sum(axis=-1))

    print("(d) scipy.stats on the same per-sentence counts (one statistic, strict F1)")
    for method, sentences in (("percentile", 20_000), ("BCa", 2_000), ("BCa", 20_000)):
        counts = per_sentence[:sentences]
        start = time.perf_counter()
        stats.bootstrap(
            (np.arange(sentences),),
            lambda index, axis=-1, counts=counts: strict_f1(counts[index].sum(axis=-2)),
            n_resamples=1000,
            method=method,
            vectorized=True,
            batch=50,
            rng=np.random.default_rng(0),
        )
        print(
            f"    bootstrap(method={method!r}), 1,000 resamples of {sentences:,} sentences: "
            f"{time.perf_counter() - start:.2f} s"
        )
    if data is None:
        return
    references, systems = data
    options = ns.Options()
    a = count_tags(systems["spinningbytes.txt"], references, False, options, keep_sentences=True).per_sentence
    b = count_tags(systems["uh_ritual"], references, False, options, keep_sentences=True).per_sentence
    both, sentences = np.concatenate((a, b)), np.arange(len(a))
    start = time.perf_counter()
    stats.permutation_test(
        (sentences, sentences + len(sentences)),
        lambda x, y, axis=-1: np.abs(strict_f1(both[y].sum(axis=-2)) - strict_f1(both[x].sum(axis=-2))),
        permutation_type="samples",
        n_resamples=10_000,
        alternative="greater",
        vectorized=True,
        batch=500,
        rng=np.random.default_rng(0),
    )
    print(f"    permutation_test, 10,000 shuffles of WNUT-17 (one statistic): {time.perf_counter() - start:.2f} s")


def coverage_of_methods(data: tuple | None, replications: int = 1000) -> None:
    """How often 95 % intervals cover the population's score, BCa (what nerscore uses) against plain
    percentile intervals, on samples of a few sizes drawn from two populations of sentences: the generated data
    (strict F1 0.86) and WNUT-17 scored against arcada's output (0.40). A population's score is its totals'
    score, so it is known exactly; each sample gets 1,000 resamples."""
    options = ns.Options()
    populations = {"generated": count_tags(*generate(20_000), False, options, keep_sentences=True).per_sentence}
    if data is not None:
        references, systems = data
        counted = count_tags(systems["arcada"], references, False, options, keep_sentences=True)
        populations["WNUT-17 arcada"] = counted.per_sentence
    keys = measure_keys(options)
    shown = [keys.index(key) for key in ("strict_precision", "strict_recall", "strict_f1")]

    def statistic(totals: np.ndarray) -> np.ndarray:
        measures = _measures(totals, options)
        return measures.reshape(*measures.shape[:-2], -1)[..., shown]

    print(f"(e) coverage of 95 % intervals, {replications} samples each: strict precision / recall / F1")
    for name, per_sentence in populations.items():
        truth = statistic(per_sentence.sum(axis=0))
        for sentences in (20, 50, 200):
            rng = np.random.default_rng(sentences)
            covered = {"BCa": np.zeros(3), "percentile": np.zeros(3)}
            for _ in range(replications):
                sample = ns.SentenceCounts.of(per_sentence[rng.integers(0, len(per_sentence), sentences)])
                totals = sample.totals()
                resampled = statistic(bootstrap_totals(sample, 1000, rng))
                jackknife = statistic(totals - sample.vectors)
                blocks = functools.partial(list, [resampled])  # one block, read twice
                low, high = bca_interval(statistic(totals), blocks, jackknife, sample.sentences, 0.95)
                covered["BCa"] += (low <= truth) & (truth <= high)
                low, high = np.quantile(resampled, [0.025, 0.975], axis=0)
                covered["percentile"] += (low <= truth) & (truth <= high)
            rates = "   ".join(
                f"{method} " + " / ".join(f"{rate:.1%}" for rate in counts / replications)
                for method, counts in covered.items()
            )
            print(f"    {name:<16}{sentences:>4} sentences   {rates}")


def verdict(seconds: float, goal: float) -> str:
    return "PASS" if seconds <= goal else "MISS"


def runs_on_wnut17(data: tuple, repeats: int) -> None:
    """(e) Five WNUT-17 systems as five runs of one system (and five, three of them shared, as another's)."""
    references, systems = data
    runs = [systems[name] for name in WNUT_SYSTEMS[:5]]
    runs_b = [systems[name] for name in WNUT_SYSTEMS[2:]]
    calls = {
        "summarize": lambda: ns.summarize_runs(runs=runs, references=references, bootstrap=1000),
        "compare": lambda: ns.compare_runs(runs_a=runs, runs_b=runs_b, references=references, n_resamples=1000),
        "one run": lambda: ns.compute_semeval(predictions=runs[0], references=references, bootstrap=1000),
    }
    times = median_times(calls, repeats)
    print(f"(e) WNUT-17 ({len(references)} sentences), five systems as five runs, 1,000 resamples")
    print(f"    compute_semeval(bootstrap=1000), one run    {times['one run']:8.3f} s")
    for call, label in (
        ("summarize", "summarize_runs(bootstrap=1000), 5 runs"),
        ("compare", "compare_runs, 5 against 5"),
    ):
        print(f"    {label:<44}{times[call]:8.3f} s   goal 2 s   {verdict(times[call], 2)}")


def documents_against_sentences(data: tuple | None, repeats: int) -> None:
    """(f) The same calls with `documents` (the resampling unit, docs/scoring.md §9) and without: 20,000
    generated sentences in documents of 20, and WNUT-17's tweets in documents of 10 consecutive ones."""
    print("(f) documents as the unit against sentences (goal: within 1.5 times)")
    predictions, references = generate(20_000)
    batches = {"generated 20,000": (predictions, generate(20_000, seed=2017)[0], references, 20)}
    if data is not None:
        wnut_references, systems = data
        batches["WNUT-17"] = (systems["spinningbytes.txt"], systems["uh_ritual"], wnut_references, 10)
    for name, (system_a, system_b, gold, size) in batches.items():
        documents = [index // size for index in range(len(gold))]

        def bootstrap(by_document: bool, system: list = system_a, gold: list = gold, ids: list = documents) -> None:
            ns.compute_semeval(
                predictions=system, references=gold, bootstrap=1000, documents=ids if by_document else None
            )

        def compare(
            by_document: bool,
            system_a: list = system_a,
            system_b: list = system_b,
            gold: list = gold,
            ids: list = documents,
        ) -> None:
            ns.compare_semeval(
                predictions_a=system_a, predictions_b=system_b, references=gold, documents=ids if by_document else None
            )

        calls = {
            "bootstrap": functools.partial(bootstrap, False),
            "bootstrap by document": functools.partial(bootstrap, True),
            "compare": functools.partial(compare, False),
            "compare by document": functools.partial(compare, True),
        }
        times = median_times(calls, repeats)
        for call in ("bootstrap", "compare"):
            ratio = times[f"{call} by document"] / times[call]
            print(
                f"    {name:<17} {call:<10} sentences {times[call]:7.3f} s   documents of {size} "
                f"{times[f'{call} by document']:7.3f} s   {ratio:5.2f}x   goal 1.5x   {verdict(ratio, 1.5)}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="runs per timing; the median is shown (default 7)")
    parser.add_argument("--pairs", action="store_true", help="compare every pair of WNUT-17 systems")
    parser.add_argument("--scipy", action="store_true", help="time scipy.stats on the same statistics")
    parser.add_argument("--coverage", action="store_true", help="coverage of BCa against percentile intervals")
    parser.add_argument("--runs", action="store_true", help="several runs and documents (issue 20)")
    args = parser.parse_args()
    if args.runs:
        data = wnut17()
        if data is not None:
            runs_on_wnut17(data, args.repeats)
        documents_against_sentences(data, args.repeats)
        return
    bootstrap_on_generated_data(args.repeats)
    data = wnut17()
    if data is None:
        print(f"(b) skipped: no {WNUT17}")
    else:
        compare_on_wnut17(data, args.repeats)
        if args.pairs:
            pairs_on_wnut17(data)
    if args.scipy:
        scipy_for_the_record(data)
    if args.coverage:
        coverage_of_methods(data)


if __name__ == "__main__":
    main()
