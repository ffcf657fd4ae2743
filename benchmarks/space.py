"""The Space's work per request (issue 16, items 16 and 17): `python app.py` started in a process of its own, its
endpoints called through gradio_client as a script would call them, each request timed, and the server's resident
memory sampled throughout, against what it held after start-up and one warm-up request.

Goals (PASS / MISS), judged on wall time, which the machine's other load inflates (the server's CPU seconds are
printed beside it): every request answered (scores, or a message naming the line; never Gradio's bare error)
within 10 s; a one-line `/evaluate` sent behind four heavy requests answered within 5 s; the server's memory
within 200 MB of its warm baseline, at its peak and at the end.

`--browser` measures the page as a visitor meets it instead (issue 31, item 3): benchmarks/space_browser.py.

    python benchmarks/space.py            # about a minute on 2 cores
    python benchmarks/space.py --skip-1mb # the issue's cases only: a few seconds after start-up
    python benchmarks/space.py --browser  # the page in Chromium: about a minute
    python benchmarks/space.py --browser --before DIR --rounds 3 --runs 3  # DIR's app.py and this one, in turns
    python benchmarks/space.py --caps     # requests at the caps of the value score and of agreement: about a minute

`--caps` times, in this process, the page's answer (pictures drawn) to 1 MB requests on either side of the caps that
the value control and the Agreement task add (space/caps.py; the value control reaches no endpoint), with those
caps lifted, and says which requests the caps let through: each of those must answer within 10 s; and spans of
random overlapping entities at the pair caps (costlier than the identical ones of the server's run, now folded).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from space_server import Sampler, cpu_seconds, rss_mb, start_server, timed, verdict

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the checkout's space/caps.py, for the requests at the caps
REQUEST_GOAL = 10.0  # seconds, any request
BEHIND_GOAL = 5.0  # seconds, a one-line request behind four heavy ones
MEMORY_GOAL = 200.0  # MB above the warm baseline
TINY = "Paris B-LOC B-LOC\n"
TINY_EXPECTED = "Evaluated 1 sentence"


# ---------------------------------------------------------------------------------------------------------
# The requests
# ---------------------------------------------------------------------------------------------------------


def span_line(references: list, predictions: list, text: str | None = None) -> str:
    record: dict[str, Any] = {} if text is None else {"text": text}
    return json.dumps({**record, "references": references, "predictions": predictions})


def nested(count: int) -> str:
    """One document of `count` entities nested in one another, the same on both sides."""
    entities = [{"start": i, "end": 2 * count - i, "type": "X"} for i in range(count)]
    return span_line(entities, entities, "a" * (2 * count))


def identical(count: int) -> str:
    """One document of `count` identical entities on each side, without text (10 bytes an entity)."""
    return span_line([[0, 1, "X"]] * count, [[0, 1, "X"]] * count)


def compare_conll() -> str:
    """Just under 1 MB of two systems, in sentences of 4 to 10 tokens."""
    rng = random.Random(0)
    sentences = []
    for _ in range(10_000):
        rows = []
        for _ in range(rng.randint(4, 10)):
            tags = [rng.choice(["O", "O", "B-PER", "B-LOC"]) for _ in range(3)]
            rows.append("w " + " ".join(tags))
        sentences.append("\n".join(rows))
    text = "\n\n".join(sentences) + "\n"
    return text[: text.rindex("\n\n", 0, 1_000_000) + 1]


def flat_spans() -> str:
    """Just under 1 MB of flat documents of spans with text (one entity a word, predictions shifted)."""
    rng = random.Random(0)
    lines, size = [], 0
    while True:
        words = [rng.choice(["Ada", "Lovelace", "in", "London", "met", "Babbage"]) for _ in range(12)]
        text, references, predictions, start = " ".join(words), [], [], 0
        for word in words:
            if word[0].isupper():
                references.append([start, start + len(word), "PER" if word != "London" else "LOC"])
                predictions.append([start, start + len(word) - rng.randint(0, 1), "PER"])
            start += len(word) + 1
        line = span_line(references, predictions, text)
        if size + len(line) + 1 > 1_000_000:
            return "\n".join(lines)
        lines.append(line)
        size += len(line) + 1


def spans_at_the_caps() -> str:
    """The costliest spans the caps let through (space/caps.py): documents of k identical entities a side, k*k
    within MAX_DOCUMENT_PAIRS, as many as MAX_REQUEST_PAIRS allows (four of 70 x 70: 19,600 pairs)."""
    from space import caps

    side = math.isqrt(caps.MAX_DOCUMENT_PAIRS)
    return "\n".join([identical(side)] * (caps.MAX_REQUEST_PAIRS // (side * side)))


@dataclass
class Request:
    name: str
    api: str
    arguments: tuple
    expected: str  # how the status should start: "Evaluated", "Compared" or "⚠️"
    large: bool = False  # one of the 1 MB requests (left out by --skip-1mb)


def requests(skip_large: bool) -> list[Request]:
    cases = [
        Request("1,500 nested entities in one document", "/spans", (nested(1_500),), "⚠️"),
        Request(
            "\\ud800 escaped inside a type",
            "/spans",
            ('{"text": "ab", "references": [[0, 1, "X\\ud800"]], "predictions": []}',),
            "⚠️",
        ),
        Request(
            "\\ud800 escaped inside a text",
            "/spans",
            ('{"text": "a\\ud800b", "references": [[0, 1, "X"]], "predictions": []}',),
            "⚠️",
        ),
        Request(
            "5,000-digit integer",
            "/spans",
            ('{"references": [[' + "1" * 5_000 + ', 2, "X"]], "predictions": []}',),
            "⚠️",
        ),
        Request("800 x 800 identical spans", "/spans", (identical(800),), "⚠️"),
        Request("10 KB line of 400 x 400 identical spans", "/spans", (identical(400),), "⚠️"),
        Request("13 KB of nested spans (190 a side)", "/spans", (nested(190),), "⚠️"),
        Request("spans at the caps (4 x 70 x 70 identical)", "/spans", (spans_at_the_caps(),), "Evaluated"),
    ]
    if not skip_large:
        sys.path.insert(0, str(REPO / "tests"))
        from test_app import many_types_text  # the page's test of the same 1 MB: one copy of it

        cases += [
            Request(
                "1 MB CoNLL, 101,710 types", "/evaluate", (many_types_text(), "IOB2", "lenient"), "Evaluated", True
            ),
            Request("1 MB CoNLL of two systems", "/compare", (compare_conll(), "IOB2", "lenient"), "Compared", True),
            Request("1 MB of flat spans", "/spans", (flat_spans(),), "Evaluated", True),
        ]
    return cases


# ---------------------------------------------------------------------------------------------------------
# The caps of the value score and of agreement (--caps)
# ---------------------------------------------------------------------------------------------------------


def conll_of(row: Any, columns: int = 1) -> str:
    """Just under caps.MAX_BYTES of CoNLL rows `row(number, rng)` in sentences of ten tokens."""
    from space import caps

    rng, rows, size = random.Random(0), [], 0
    while size + 100 < caps.MAX_BYTES:
        rows.append(row(len(rows), rng))
        size += len(rows[-1]) + 1 + (len(rows) % 10 == 0)
    return "\n\n".join("\n".join(rows[start : start + 10]) for start in range(0, len(rows), 10)) + "\n"


def one_system_of_types(types: int) -> str:
    """One system, each entity one token of one of `types` types, the prediction's type drawn at random."""
    return conll_of(lambda number, rng: f"t B-T{number % types} B-T{rng.randrange(types)}")


def two_systems_of_types(types: int) -> str:
    """Two systems, every tag (O, B- or I- of `types` types) drawn at random: value cells grow with the types."""
    tags = ["O", *(f"{prefix}-T{kind}" for kind in range(types) for prefix in "BI")]
    return conll_of(lambda number, rng: "t " + " ".join(rng.choice(tags) for _ in range(3)))


def annotators_of_labels(labels: int, annotators: int = 8) -> str:
    """`annotators` annotators' tags (B- of `labels` types at random), as many tokens as 1 MB and the work cap allow."""
    from space import caps

    tokens = caps.MAX_AGREEMENT_WORK // (annotators * (annotators - 1) // 2)
    text = conll_of(lambda number, rng: "w " + " ".join(f"B-{rng.randrange(labels)}" for _ in range(annotators)))
    return "\n".join(text.splitlines()[: tokens + tokens // 10]) + "\n"


def random_overlaps(types: int, seed: int) -> str:
    """One document of entities of `types` types at random places and lengths (1 to 60 characters), as many as keep
    its overlapping pairs within caps.MAX_DOCUMENT_PAIRS: costlier than identical entities, which are folded."""
    import nerscore
    from space import caps, scoring

    rng, references, predictions = random.Random(seed), [], []
    while True:
        drawn = [(start := rng.randrange(1_200), start + rng.randint(1, 60), f"T{rng.randrange(types)}") for _ in "ab"]
        pairs = scoring.overlapping_pairs(
            [nerscore.Span(*entity) for entity in [*references, drawn[0]]],
            [nerscore.Span(*entity) for entity in [*predictions, drawn[1]]],
        )
        if pairs > caps.MAX_DOCUMENT_PAIRS:
            return span_line(
                [list(entity) for entity in references], [list(entity) for entity in predictions], "a" * 1_261
            )
        references.append(drawn[0])
        predictions.append(drawn[1])


def caps_main() -> int:
    from unittest import mock

    from space import agreement, answers, caps, scoring, texts

    counted: dict[str, int] = {}
    check = scoring.check_value_cost

    def counting(tally_of: Any, command: str, compared: bool = False) -> None:
        counted.update(types=len(tally_of.tally.types_by_frequency()), cells=len(tally_of.tally.value_cells or ()))
        check(tally_of, command, compared)

    limits = {name: getattr(caps, name) for name in ("MAX_VALUE_TYPES", "MAX_VALUE_CELLS", "MAX_AGREEMENT_LABELS")}
    for name in limits:
        setattr(caps, name, 10**9)  # lifted: every request is answered, and judged against the caps below
    print(f"caps: {', '.join(f'{name} {cap:,}' for name, cap in limits.items())}\n")
    print("| request | bytes | counted | off, s | value on, s | within the caps | goal <= 10 s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    failures = 0
    cases = [(f"one system, {n:,} types", one_system_of_types(n), texts.ONE_SYSTEM) for n in (2_000, 10_000, 100_000)]
    cases += [(f"two systems, {n:,} types", two_systems_of_types(n), texts.TWO_SYSTEMS) for n in (30, 1_000, 30_000)]
    for name, text, task in cases:
        seconds = []
        for value in ("off", "ace08"):
            with mock.patch.object(scoring, "check_value_cost", counting):
                seconds.append(
                    timed(lambda t=text, k=task, v=value: answers.page_answer(t, task=k, value=v).outputs())[0]
                )
        compared = task == texts.TWO_SYSTEMS
        within = counted["types"] <= limits["MAX_VALUE_TYPES"] and (
            not compared or counted["cells"] <= limits["MAX_VALUE_CELLS"]
        )
        good = not within or max(seconds) <= REQUEST_GOAL
        failures += not good
        shown = f"{counted['types']:,} types" + (f", {counted['cells']:,} cells" if compared else "")
        print(
            f"| {name} | {len(text.encode()):,} | {shown} | {seconds[0]:.2f} | {seconds[1]:.2f} | "
            f"{'yes' if within else 'no'} | {verdict(good)} |"
        )
    for types in (3, 30):
        documents = caps.MAX_REQUEST_PAIRS // caps.MAX_DOCUMENT_PAIRS
        text = "\n".join(random_overlaps(types, seed) for seed in range(documents))
        seconds = [
            timed(lambda t=text, v=value: answers.page_answer(t, task=texts.SPANS, value=v).outputs())[0]
            for value in ("off", "ace08")
        ]
        status = str(answers.page_answer(text, task=texts.SPANS).tables["status"])
        good = status.startswith("Evaluated") and max(seconds) <= REQUEST_GOAL
        failures += not good
        print(
            f"| spans, {documents} documents of random overlaps, {types} types | {len(text.encode()):,} | "
            f"<= {caps.MAX_DOCUMENT_PAIRS:,} pairs each | {seconds[0]:.2f} | {seconds[1]:.2f} | yes | {verdict(good)} |"
        )
    # Tags of many labels are long, so 1 MB holds fewer tokens than the work cap allows; short tags reach it.
    short_tags = ["O", "O", "B-A", "I-A", "B-B"]
    agreements = {f"{labels:,} labels, 1 MB": annotators_of_labels(labels) for labels in (4, 400, 2_000, 5_000)}
    agreements["at the work cap, short tags"] = conll_of(
        lambda number, rng: "w " + " ".join(rng.choices(short_tags, k=8))
    )
    work_cap = caps.MAX_AGREEMENT_WORK // 28  # tokens of 8 annotators (28 pairs)
    agreements["at the work cap, short tags"] = "\n".join(
        agreements["at the work cap, short tags"].splitlines()[: work_cap + work_cap // 10]
    )
    for name, text in agreements.items():
        seconds, answer = timed(lambda text=text: agreement.agreement_page(text))
        used = len({tag for line in text.splitlines() for tag in line.split()[1:]})
        within = used <= limits["MAX_AGREEMENT_LABELS"]
        good = str(answer[0]).startswith("Measured") and (not within or seconds <= REQUEST_GOAL)
        failures += not good
        tokens = sum(1 for line in text.splitlines() if line)
        print(
            f"| agreement, 8 annotators, {name} | {len(text.encode()):,} | {used:,} tags, {tokens:,} tokens | | "
            f"{seconds:.2f} | {'yes' if within else 'no'} | {verdict(good)} |"
        )
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skip-1mb", action="store_true", help="leave out the three 1 MB requests")
    parser.add_argument(
        "--checkout",
        type=Path,
        default=REPO,
        help="serve app.py of another checkout (`git archive REV | tar -x -C DIR`): before and after. Without a "
        "/spans endpoint, its requests are left out (they cannot be sent)",
    )
    parser.add_argument("--browser", action="store_true", help="the page in Chromium: first results, click to answer")
    parser.add_argument("--runs", type=int, default=5, help="visits of the page a round with --browser (default 5)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds with --browser, checkouts in turns (default 1)")
    parser.add_argument(
        "--before",
        type=Path,
        help="with --browser: another checkout measured in turns with --checkout (before, then after)",
    )
    parser.add_argument("--caps", action="store_true", help="requests at the value score's and agreement's caps")
    args = parser.parse_args()
    if args.caps:
        return caps_main()
    if args.browser:
        checkouts = [*([args.before.resolve()] if args.before else []), args.checkout.resolve()]
        from space_browser import browser_main  # (it reads this module's server and goals)

        return browser_main(checkouts, args.runs, args.rounds)
    from gradio_client import Client

    cases = requests(args.skip_1mb)
    process, url = start_server(args.checkout.resolve())
    failures = 0
    try:
        client = Client(url, verbose=False)
        endpoints = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
        cases = [case for case in cases if case.api in endpoints]
        client.predict(TINY, "IOB2", "lenient", api_name="/evaluate")  # the warm-up request
        time.sleep(0.5)
        baseline = rss_mb(process.pid)
        sampler = Sampler(process.pid)
        sampler.start()
        print(f"server RSS after start-up and one warm-up request: {baseline:.0f} MB\n")
        print("| request | bytes | seconds | server CPU s | answer | RSS after, MB above baseline | goal <= 10 s |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for case in cases:
            cpu = cpu_seconds(process.pid)
            seconds, answer = timed(lambda case=case: client.predict(*case.arguments, api_name=case.api))
            status = str(answer[0])
            good = seconds <= REQUEST_GOAL and status.startswith(case.expected)
            failures += not good
            shown = status.replace("|", "\\|")[:110]
            size = len(case.arguments[0].encode("utf-8"))
            print(
                f"| {case.name} ({case.api}) | {size:,} | {seconds:.2f} | {cpu_seconds(process.pid) - cpu:.2f} | "
                f"{shown} | "
                f"{rss_mb(process.pid) - baseline:+.0f} | {verdict(good)} |"
            )

        # A one-line request sent behind four heavy ones, of each kind the issue names.
        heavy_sets = {"four 13 KB nested requests": [Request("", "/spans", (nested(190),), "⚠️")] * 4}
        heavy_sets["four requests at the caps"] = [Request("", "/spans", (spans_at_the_caps(),), "Evaluated")] * 4
        if not args.skip_1mb:
            heavy_sets["four 1 MB requests"] = [case for case in cases if case.large] + [
                Request("", "/spans", (spans_at_the_caps(),), "Evaluated")
            ]
        print("\n| a one-line /evaluate behind | its seconds | the four heavy ones, seconds | goal <= 5 s |")
        print("| --- | --- | --- | --- |")
        for name, heavy in heavy_sets.items():
            heavy = [case for case in heavy if case.api in endpoints]
            if len(heavy) < 4:
                heavy += [case for case in cases if case.large and case.api in endpoints][: 4 - len(heavy)]
            if len(heavy) < 4:
                print(f"| {name} | n/a (no {', '.join(sorted({'/spans'} - set(endpoints)))} endpoint) | | |")
                continue
            start = time.perf_counter()
            jobs = [client.submit(*case.arguments, api_name=case.api) for case in heavy]
            time.sleep(0.3)  # the heavy ones are sent, and started, first
            seconds, answer = timed(lambda: client.predict(TINY, "IOB2", "lenient", api_name="/evaluate"))
            heavy_answers = [job.result(timeout=300) for job in jobs]
            heavy_seconds = time.perf_counter() - start
            good = seconds <= BEHIND_GOAL and str(answer[0]).startswith(TINY_EXPECTED)
            good = good and all(str(a[0]).startswith(c.expected) for a, c in zip(heavy_answers, heavy))
            failures += not good
            unexpected = [
                str(a[0])[:80]
                for a, c in [(answer, TINY_EXPECTED), *zip(heavy_answers, heavy)]
                if not str(a[0]).startswith(c if isinstance(c, str) else c.expected)
            ]
            note = f" (answered: {unexpected[0]!r})" if unexpected else ""
            print(f"| {name} | {seconds:.2f} | {heavy_seconds:.2f} | {verdict(good)}{note} |")

        time.sleep(0.5)
        sampler.running = False
        end = rss_mb(process.pid)
        peak = max(sampler.peak, end)
        print(f"\nserver RSS: baseline {baseline:.0f} MB, peak {peak:.0f} MB, end {end:.0f} MB")
        good = peak - baseline <= MEMORY_GOAL
        failures += not good
        print(
            f"peak - baseline = {peak - baseline:.0f} MB, end - baseline = {end - baseline:.0f} MB: goal <= 200 MB "
            f"{verdict(good)}"
        )
    finally:
        process.terminate()
        process.wait(timeout=30)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
