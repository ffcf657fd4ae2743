"""The page as a visitor meets it (issue 31, item 3; `python benchmarks/space.py --browser`): Chromium
(/usr/bin/chromium) driven by Playwright against the same `python app.py`. The first results: from a visit's
navigation to the worked example's scores shown (status and summary), and to its pictures shown, for the first visit
after start-up and for later ones. Click to answer: an example clicked (the worked example after the English one,
and back), the Evaluate button on the worked example typed over the English one, and the Evaluate button after an
edit of one tag whose pictures were never drawn before; each from the click to the scores shown and to the pictures
shown (their images replaced). Goals: first scores within 3 s, the worked example's answer (scores and pictures)
within 1 s of the click, medians of the runs. Beside the wall times, the CPU seconds of the server and of the page's
main thread (Chromium's DevTools metric) for each: the work done, which the machine's load inflates far less.

The server is benchmarks/space_server.py's, started for each checkout in turns.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from space_server import cpu_seconds, start_server, verdict

CHROMIUM = "/usr/bin/chromium"
FIRST_RESULTS_GOAL = 3.0  # seconds from a visit's navigation to the worked example's scores shown
CLICK_GOAL = 1.0  # seconds from a click to the worked example's answer shown, pictures included

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
