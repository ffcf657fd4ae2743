"""The Space's work per request (issue 16, items 16 and 17): `python app.py` started in a process of its own, its
endpoints called through gradio_client as a script would call them, each request timed, and the server's resident
memory sampled throughout, against what it held after start-up and one warm-up request.

Goals (PASS / MISS), judged on wall time, which the machine's other load inflates (the server's CPU seconds are
printed beside it): every request answered (scores, or a message naming the line; never Gradio's bare error)
within 10 s; a one-line `/evaluate` sent behind four heavy requests answered within 5 s; the server's memory
within 200 MB of its warm baseline, at its peak and at the end.

`--browser` measures the page as a visitor meets it instead (issue 31, item 3): Chromium (/usr/bin/chromium)
driven by Playwright against the same `python app.py`. The first results: from a visit's navigation to the
worked example's scores shown (status and summary), and to its pictures shown, for the first visit after
start-up and for later ones. Click to answer: an example clicked (the worked example after the English one, and
back), the Evaluate button on the worked example typed over the English one, and the Evaluate button after an
edit of one tag whose pictures were never drawn before; each from the click to the scores shown and to the
pictures shown (their images replaced). Goals: first scores within 3 s, the worked example's answer (scores and
pictures) within 1 s of the click, medians of the runs. Beside the wall times, the CPU seconds of the server and
of the page's main thread (Chromium's DevTools metric) for each: the work done, which the machine's load inflates
far less.

    python benchmarks/space.py            # about a minute on 2 cores
    python benchmarks/space.py --skip-1mb # the issue's cases only: a few seconds after start-up
    python benchmarks/space.py --browser  # the page in Chromium: about a minute
    python benchmarks/space.py --browser --before DIR --rounds 3 --runs 3  # DIR's app.py and this one, in turns
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the checkout's space/caps.py, for the requests at the caps
CHROMIUM = "/usr/bin/chromium"
FIRST_RESULTS_GOAL = 3.0  # seconds from a visit's navigation to the worked example's scores shown
CLICK_GOAL = 1.0  # seconds from a click to the worked example's answer shown, pictures included
REQUEST_GOAL = 10.0  # seconds, any request
BEHIND_GOAL = 5.0  # seconds, a one-line request behind four heavy ones
MEMORY_GOAL = 200.0  # MB above the warm baseline
TINY = "Paris B-LOC B-LOC\n"


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


def many_types_conll() -> str:
    """Just under 1 MB in which every entity has a type of its own (101,710 types)."""
    lines = []
    for number in range(50_855):
        lines.append(f"t B-R{number} B-P{number}")
        if number % 10 == 9:
            lines.append("")
    return "\n".join(lines) + "\n"


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
        cases += [
            Request(
                "1 MB CoNLL, 101,710 types", "/evaluate", (many_types_conll(), "IOB2", "lenient"), "Evaluated", True
            ),
            Request("1 MB CoNLL of two systems", "/compare", (compare_conll(), "IOB2", "lenient"), "Compared", True),
            Request("1 MB of flat spans", "/spans", (flat_spans(),), "Evaluated", True),
        ]
    return cases


# ---------------------------------------------------------------------------------------------------------
# The server
# ---------------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """The server's CPU time so far (user and system): unlike a request's wall time, the machine's other load
    does not inflate it."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Sampler(threading.Thread):
    """The server's largest RSS since the last `reset`, sampled every 20 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0.0, True

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.02)

    def reset(self) -> None:
        self.peak = rss_mb(self.pid)


def start_server(checkout: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    environment = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port)}
    process = subprocess.Popen(
        [sys.executable, "app.py"], cwd=checkout, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}/"
    for _ in range(600):
        if process.poll() is not None:
            raise RuntimeError("python app.py exited")
        try:
            with urllib.request.urlopen(url + "config", timeout=5):
                return process, url
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("python app.py did not answer within two minutes")


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    try:
        answer = call()
    except Exception as error:  # Gradio's bare error, which is what the issue measured
        answer = (f"ERROR {type(error).__name__}: {error}",)
    return time.perf_counter() - start, answer


def verdict(good: bool) -> str:
    return "PASS" if good else "MISS"


# ---------------------------------------------------------------------------------------------------------
# The page in Chromium (--browser)
# ---------------------------------------------------------------------------------------------------------

# Installed before the page's own scripts: the moments (performance.now(), milliseconds since the navigation
# began) when the worked example's scores and its two pictures are first shown, and, for a click, when the status
# starts with the expected words and when every watched picture has been replaced. It reads the elements' text
# (textContent), never their rendered text (innerText), and each only until its moment is known: innerText lays
# out the page, and the observer runs at every change of the page, Gradio's progress timers included; it made
# about a fifth of a click's page CPU (benchmarks/README.md, "The page's progress marks").
MARKS_JS = """
window.marks = {};
window.watch = null;
const text = selector => {
    const element = document.querySelector(selector);
    return element === null ? '' : element.textContent.trimStart();
};
// The status's words once no progress tracker writes over them (as innerText read them: the tracker's text first).
const status = () => {
    const tracker = document.querySelector('#status [data-testid="status-tracker"]');
    const covered = tracker !== null && !tracker.classList.contains('hide') && tracker.textContent.trim() !== '';
    return covered ? '' : text('#status [data-testid="markdown"]');
};
const sources = selectors => selectors.map(selector => document.querySelector(selector))
    .map(image => image === null ? null : image.getAttribute('src'));
new MutationObserver(() => {
    const now = performance.now();
    const marks = window.marks;
    if (marks.scores === undefined && status().startsWith('Evaluated 6 sentences')
        && text('#summary').includes('precision'))
        marks.scores = now;
    if (marks.pictures === undefined && sources(['#heatmap img', '#type-chart img']).every(source => source))
        marks.pictures = now;
    const watch = window.watch;
    if (watch === null) return;
    if (watch.scores === undefined && status().startsWith(watch.status)) watch.scores = now;
    if (watch.drawn === undefined && sources(watch.pictures).every((source, i) => source !== null
        && source !== watch.before[i]))
        watch.drawn = now;
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""

# Starts watching for a click's answer, then clicks: returns the moment of the click.
CLICK_JS = """([selector, index, status, pictures]) => {
    const before = pictures.map(picture => {
        const image = document.querySelector(picture);
        return image && image.getAttribute('src');
    });
    window.watch = {status, pictures, before};
    const start = performance.now();
    window.watch.start = start;
    document.querySelectorAll(selector)[index].click();
    return start;
}"""

PICTURES = ["#heatmap img", "#type-chart img"]


def launch_chromium(playwright: Any) -> Any:
    return playwright.chromium.launch(
        executable_path=CHROMIUM,
        args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    )


class Work:
    """CPU seconds spent since `start`: the server's (its process) and the page's (Chromium's main thread, the
    DevTools `TaskDuration` metric), which the machine's other load inflates far less than wall time."""

    def __init__(self, pid: int, page: Any) -> None:
        self.pid = pid
        self.session = page.context.new_cdp_session(page)
        self.session.send("Performance.enable")
        self.start()

    def browser_seconds(self) -> float:
        metrics = self.session.send("Performance.getMetrics")["metrics"]
        return next(metric["value"] for metric in metrics if metric["name"] == "TaskDuration")

    def start(self) -> None:
        self.server, self.browser = cpu_seconds(self.pid), self.browser_seconds()

    def spent(self) -> tuple[float, float]:
        return cpu_seconds(self.pid) - self.server, self.browser_seconds() - self.browser


def open_page(browser: Any, url: str, pid: int) -> tuple[Any, Any, dict[str, float], Work]:
    """A new visit: the page opened in a fresh context, its first results' moments in seconds, and the work
    watcher (started before the visit: its server seconds are the visit's)."""
    context = browser.new_context(viewport={"width": 1280, "height": 1200})
    context.add_init_script(MARKS_JS)
    page = context.new_page()
    page.set_default_timeout(60_000)
    work = Work(pid, page)
    page.goto(url)
    page.wait_for_function("() => window.marks.scores !== undefined && window.marks.pictures !== undefined")
    marks = page.evaluate("() => window.marks")
    return context, page, {name: marks[name] / 1000 for name in ("scores", "pictures")}, work


def click_answer(
    page: Any, work: Work, selector: str, index: int, status: str, pictures: list[str]
) -> tuple[float, float, float, float]:
    """Click the `index`th element of `selector`; the seconds until the status starts with `status` and until
    every one of `pictures` shows another image than before, then the CPU seconds of the server and of the page
    until then (and a quiet half second after, for what the page still draws)."""
    work.start()
    page.evaluate(CLICK_JS, [selector, index, status, pictures])
    page.wait_for_function("() => window.watch.scores !== undefined && window.watch.drawn !== undefined")
    page.wait_for_timeout(500)
    watch = page.evaluate("() => window.watch")
    return ((watch["scores"] - watch["start"]) / 1000, (watch["drawn"] - watch["start"]) / 1000, *work.spent())


def type_over(page: Any, text: str) -> None:
    """The editor's text replaced by `text`, as a paste would, and the editor left (so the page has its value)."""
    page.click("#conll-input .cm-content")
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(text)
    page.wait_for_timeout(300)


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def spread(values: list[float]) -> str:
    return f"{median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def browser_run(checkout: Path, runs: int) -> dict[str, list[tuple[float, ...]]]:
    """The page's first results and click to answer in Chromium, against `python app.py` of `checkout`: for each
    measure, each run's (scores shown, pictures shown, server CPU, page CPU) in seconds."""
    from playwright.sync_api import sync_playwright

    from space import texts

    started = time.perf_counter()
    process, url = start_server(checkout)
    print(f"{checkout}: python app.py answered after {time.perf_counter() - started:.1f} s")
    rows: dict[str, list[tuple[float, ...]]] = {}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for run in range(runs):
                context, page, first, work = open_page(browser, url, process.pid)
                page.wait_for_timeout(500)
                visit = "first results, first visit after start-up" if run == 0 else "first results, later visits"
                rows.setdefault(visit, []).append((first["scores"], first["pictures"], *work.spent()))
                examples = "button.gallery-item"
                # An example clicked: the English one, then the worked example (the page opened on it).
                click_answer(page, work, examples, 1, "Evaluated 2 sentences", PICTURES)
                answer = click_answer(page, work, examples, 0, "Evaluated 6 sentences", PICTURES)
                rows.setdefault("the worked example's button in Examples", []).append(answer)
                # The Evaluate button on the worked example typed over the English one.
                click_answer(page, work, examples, 1, "Evaluated 2 sentences", PICTURES)
                type_over(page, texts.WORKED_EXAMPLE)
                answer = click_answer(page, work, "#evaluate", 0, "Evaluated 6 sentences", PICTURES)
                rows.setdefault("Evaluate on the worked example", []).append(answer)
                # One tag edited (never seen before: its pictures are drawn anew), then Evaluate.
                edited = texts.WORKED_EXAMPLE.replace("告 B-MUSIC_NAME O\n", f"告 B-MUSIC_NAME B-RUN{run}\n", 1)
                type_over(page, edited)
                answer = click_answer(page, work, "#evaluate", 0, "Evaluated 6 sentences", PICTURES)
                rows.setdefault("Evaluate after a new edit (pictures drawn anew)", []).append(answer)
                context.close()
            browser.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
    return rows


def browser_main(checkouts: list[Path], runs: int, rounds: int) -> int:
    """`browser_run` of each checkout, in turns (`rounds` times `runs` visits each, so that the machine's load
    falls on all alike), then one table per checkout: medians, with the range of wall times. The goals are
    judged on the last checkout's medians."""
    results: dict[Path, dict[str, list[tuple[float, ...]]]] = {checkout: {} for checkout in checkouts}
    for _ in range(rounds):
        for checkout in checkouts:
            for name, values in browser_run(checkout, runs).items():
                results[checkout].setdefault(name, []).extend(values)
    failures = 0
    for checkout, rows in results.items():
        count = max(len(values) for values in rows.values())
        print(f"\n{checkout} ({count} runs a row, first visits {rounds}); median (min-max) seconds")
        print("| measure | scores shown | pictures shown | server CPU s | page CPU s | goal |")
        print("| --- | --- | --- | --- | --- | --- |")
        for name, values in rows.items():
            scores, pictures, server, page = ([value[column] for value in values] for column in range(4))
            goal = ""
            if name.startswith("first results"):
                good = median(scores) <= FIRST_RESULTS_GOAL
                goal = f"scores <= {FIRST_RESULTS_GOAL:.0f} s {verdict(good)}"
            elif "worked example" in name:
                good = median(pictures) <= CLICK_GOAL
                goal = f"all <= {CLICK_GOAL:.0f} s {verdict(good)}"
            else:
                good = True
            failures += checkout == checkouts[-1] and not good
            print(
                f"| {name} | {spread(scores)} | {spread(pictures)} | {median(server):.2f} | {median(page):.2f} | "
                f"{goal} |"
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
    args = parser.parse_args()
    if args.browser:
        checkouts = [*([args.before.resolve()] if args.before else []), args.checkout.resolve()]
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
            good = seconds <= BEHIND_GOAL and str(answer[0]).startswith("Evaluated 1 sentence")
            good = good and all(str(a[0]).startswith(c.expected) for a, c in zip(heavy_answers, heavy))
            failures += not good
            print(f"| {name} | {seconds:.2f} | {heavy_seconds:.2f} | {verdict(good)} |")

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
