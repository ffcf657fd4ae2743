"""The Space in a real browser: Debian's headless chromium driven by Playwright against the app launched in this
process. Skipped when chromium or playwright is missing, except under CI (`CI` set), where that fails.

`UPDATE_SCREENSHOT=1 .venv/bin/python -m pytest tests/test_browser.py -k "opens or switching"` refreshes the
README's docs/screenshot.png from the page opened on the worked example, docs/screenshot-compare.png from the
page comparing two systems and docs/screenshot-spans.png from the page on spans ("-k spans"); otherwise
screenshots go to tests/artifacts/."""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from urllib.parse import urlparse

import pytest
from conftest import REPO, WORKED_SUMMARY, deferred_import, free_port

from space import answers, caps, texts

app = deferred_import("app")  # gradio: imported when a test of the page runs, not when the file is collected
pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "tests" / "artifacts"
TIMEOUT_MS = 60_000  # generous: the machine is shared; nothing here measures speed

HEADER = ["measure", "type", "partial", "exact", "strict"]
# docs/scoring.md §6, second table, as the page writes it (a score as its float: 2/5 is "0.4").
WORKED_TABLE = [
    HEADER,
    *(
        [measure, *(str(float(value)) if isinstance(value, Fraction) else str(value) for value in values)]
        for measure, values in WORKED_SUMMARY.items()
    ),
]
# After the edit, sentence 5 (告白气球) predicts 告白气 instead of 告白气球: scenario I becomes V (docs/scoring.md §4),
# so type keeps COR, partial turns COR into PAR, exact and strict turn COR into INC. With ACT = POS = 5:
# partial (1 + 3/2) / 5 = 0.5, exact 1/5 = 0.2, strict 0/5 = 0.0.
EDITED_SUMMARY = [
    HEADER,
    ["correct", "2", "1", "1", "0"],
    ["incorrect", "2", "0", "3", "4"],
    ["partial", "0", "3", "0", "0"],
    ["missed", "1", "1", "1", "1"],
    ["spurious", "1", "1", "1", "1"],
    ["precision", "0.4", "0.5", "0.2", "0.0"],
    ["recall", "0.4", "0.5", "0.2", "0.0"],
    ["F1", "0.4", "0.5", "0.2", "0.0"],
]

# The rows of a Gradio 6 dataframe, header first (it is virtualised: only rows in view are in the DOM, so
# read only small tables).
ROWS_JS = """element => [...element.querySelectorAll('[role=row]')].map(
    row => [...row.querySelectorAll('[role=columnheader], [role=gridcell], th, td')].map(c => c.innerText.trim()))"""


def _require_browser() -> None:
    problem = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        problem = "playwright is not installed (pip install playwright)"
    if problem is None and not CHROMIUM.exists():
        problem = f"{CHROMIUM} is missing (apt-get install -y chromium fonts-noto-cjk)"
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"{problem}; under CI the browser tests must run")
        pytest.skip(problem)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    _require_browser()
    demo = app.build_demo()
    for attempt in range(3):
        # The port is free when chosen, not necessarily when bound (another process may take it in between).
        port = free_port()
        try:
            demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port, quiet=True, **app.LAUNCH)
            break
        except OSError:
            if attempt == 2:
                raise
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        demo.close()


@pytest.fixture(scope="module")
def browser(server) -> Iterator:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(browser, server) -> Iterator:
    """The page opened on the worked example, its summary and pictures shown; `page.outside` lists requests off
    loopback."""
    context = browser.new_context(viewport={"width": 1280, "height": 1200})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.outside = []
    page.on(
        "request",
        lambda request: (
            page.outside.append(request.url)
            if urlparse(request.url).scheme in ("http", "https", "ws", "wss")
            and urlparse(request.url).hostname not in ("127.0.0.1", "localhost")
            else None
        ),
    )
    page.goto(server)
    wait_for_summary(page, WORKED_TABLE)
    wait_for_pictures(page, drawn(texts.WORKED_EXAMPLE))
    try:
        yield page
    finally:
        context.close()


def table_rows(page, element_id: str) -> list[list[str]]:
    return page.eval_on_selector(f"#{element_id}", ROWS_JS)


# The ids of the outputs that an event is running for: Gradio 6 lays its status tracker (a `.wrap` whose progress
# is "full" or "minimal") over each of them, and hides it ("hide") once every event writing that output is complete.
RUNNING_JS = """() => [...document.querySelectorAll('.wrap.full:not(.hide), .wrap.minimal:not(.hide)')]
    .map(wrap => wrap.closest('[id]')?.id ?? '?')"""


def settle(page) -> None:
    """Wait until no event writing a shown output is running.

    Gradio runs the events of one trigger one after the other (the page's answer in two steps, the tables then the
    pictures, then the Agreement task's measurement), and the task control's chained, so the first output shown
    does not end them. Acting then races them: Gradio drops a click whose event, from the click before, still runs
    (`trigger_mode` "once"), and an event that read the editor before an edit answers after the edit's own. Both
    met in CI: a test that evaluated, switched to Agreement, edited and clicked saw the switch's measurement of the
    old text and never the click's message (replayed by holding the first click's measurement). An event whose
    outputs are hidden (the Agreement task's under another task) shows its tracker only once they are shown.
    """
    try:
        page.wait_for_function(f"() => ({RUNNING_JS})().length === 0", timeout=TIMEOUT_MS)
    except Exception:
        assert page.evaluate(RUNNING_JS) == []
        raise


def wait_until(page, script: str, arg: object = None) -> None:
    """Wait until the JavaScript predicate `script` (given `arg`) holds, then until the events that made it hold
    and those chained after them are done (`settle`)."""
    page.wait_for_function(script, arg=arg, timeout=TIMEOUT_MS)
    settle(page)


def wait_for_table(page, element_id: str, expected: list[list[str]]) -> None:
    """Wait until the table `element_id` shows `expected` and the page's events are done (`settle`); on timeout,
    compare anyway for a readable diff."""
    script = f"""([id, expected]) => {{
        const table = document.getElementById(id);
        return table !== null && JSON.stringify(({ROWS_JS})(table)) === JSON.stringify(expected);
    }}"""
    try:
        page.wait_for_function(script, arg=[element_id, expected], timeout=TIMEOUT_MS)
    except Exception:
        assert table_rows(page, element_id) == expected
        raise
    settle(page)


def wait_for_summary(page, expected: list[list[str]]) -> None:
    """Wait until the summary table shows `expected`."""
    wait_for_table(page, "summary", expected)


@functools.cache
def drawn(text: str) -> list[str]:
    """The heatmap and the chart that the page should show for `text`, as the data URLs Gradio sends (the
    drawing is deterministic, so the browser's images can be compared with what tests/test_app.py checks)."""
    from gradio import processing_utils

    return [processing_utils.encode_plot_to_base64(figure, "png") for figure in answers.evaluate_page(text)[5:]]


PICTURES_JS = """() => ['#heatmap img', '#type-chart img'].map(selector => {
    const image = document.querySelector(selector);
    return image === null ? null : image.getAttribute('src');
})"""


def wait_for_pictures(page, expected: list[str | None]) -> None:
    """Wait until the heatmap and the chart show `expected` (None: no picture) and the page's events are done
    (`settle`)."""
    script = f"expected => JSON.stringify(({PICTURES_JS})()) === JSON.stringify(expected)"
    try:
        page.wait_for_function(script, arg=expected, timeout=TIMEOUT_MS)
    except Exception:
        shown = page.evaluate(PICTURES_JS)
        assert [source and source[:80] for source in shown] == [source and source[:80] for source in expected]
        raise
    settle(page)


def replace_input(page, text: str) -> None:
    """Select everything in the CoNLL editor and type `text` over it, as a paste would."""
    page.click("#conll-input .cm-content")
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(text)


def test_page_opens_on_the_worked_example(page):
    assert table_rows(page, "summary") == WORKED_TABLE
    assert page.inner_text("#status").startswith("Evaluated 6 sentences (34 tokens)")
    scenarios = table_rows(page, "scenarios")
    assert scenarios[0][:2] == ["sentence", "scenario"]
    assert [row[1] for row in scenarios[1:]] == ["III", "II", "V", "IV", "I", "VI"]
    assert scenarios[3][2:] == ["MUSIC_NAME", "告白气球", "MUSIC_NAME", "一首告白气球", "COR", "PAR", "INC", "INC"]
    assert page.locator("#sentences mark").count() == 10  # 5 reference and 5 predicted entities
    # The table and the drawn sentences number the six sentences alike.
    assert [row[0] for row in scenarios[1:]] == ["1", "2", "3", "4", "5", "6"]
    assert page.locator("#sentences .number").all_inner_texts() == ["1", "2", "3", "4", "5", "6"]
    assert "Per entity type" in page.inner_text("#per-type")
    # Both pictures, exactly as drawn for the worked example (the fixture waited for them): the heatmap whose rows
    # and columns are MUSIC_NAME, SINGER and O with the counts of docs/scoring.md §7, and the chart of F1 per type
    # and scheme (tests/test_app.py checks both drawings' numbers).
    assert page.evaluate(PICTURES_JS) == drawn(texts.WORKED_EXAMPLE)
    for selector in ("#heatmap img", "#type-chart img"):
        image = page.locator(selector)
        assert image.is_visible()
        natural, shown = image.evaluate("image => [image.naturalWidth, image.getBoundingClientRect().width]")
        assert natural > 300 and shown >= 0.9 * natural, f"{selector}: {natural} px drawn at {shown} px"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "space-worked-example.png"), full_page=True)
    if os.environ.get("UPDATE_SCREENSHOT"):
        # The README's picture: the input, the tables and the two pictures of the worked example.
        bottom = max(
            page.locator(selector).bounding_box()["y"] + page.locator(selector).bounding_box()["height"]
            for selector in ("#heatmap", "#type-chart")
        )
        page.screenshot(
            path=str(REPO / "docs" / "screenshot.png"),
            full_page=True,
            clip={"x": 0, "y": 0, "width": 1280, "height": bottom + 16},
        )
    assert page.outside == []  # the page loads nothing from outside the app


# The lines a label's text takes, and whether its box clips it (Gradio hides the overflow, without an ellipsis).
LABEL_JS = """element => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const lineHeight = parseFloat(getComputedStyle(element).lineHeight);
    return [Math.round(range.getBoundingClientRect().height / lineHeight), element.scrollWidth > element.clientWidth];
}"""


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_example_labels_are_whole_on_one_line(page, width):
    # The old third label ("..., and B-LOC I-LOC with no E-") read as cut off: it ended on a hyphen and broke
    # over two lines on a phone. Each label now stays whole, on one line, down to a phone's width.
    page.set_viewport_size({"width": width, "height": 900})
    labels = page.locator("button.gallery-item > div")
    assert labels.all_inner_texts() == texts.EXAMPLE_LABELS
    for index, label in enumerate(texts.EXAMPLE_LABELS):
        assert not label.endswith(("-", ":", ",")), label
        lines, clipped = labels.nth(index).evaluate(LABEL_JS)
        assert (lines, clipped) == (1, False), f"{label!r}: {lines} lines, clipped: {clipped}"


# The lines and the words of each cell of the explanation's table of scenarios.
CELL_LINES_JS = """element => [...element.querySelectorAll('th, td')].map(cell => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const lines = Math.round(range.getBoundingClientRect().height / parseFloat(getComputedStyle(cell).lineHeight));
    return [cell.innerText.trim(), lines, cell.innerText.trim().split(/\\s+/).length];
})"""


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_the_explanations_table_keeps_its_words_whole(page, width):
    # On a phone Gradio broke the cells anywhere: "COR" stood letter by letter, "scenario" on four lines.
    page.set_viewport_size({"width": width, "height": 900})
    cells = page.eval_on_selector("#explanation table", CELL_LINES_JS)
    assert len(cells) == 7 * 6 and cells[0][0] == "scenario"
    broken = [text for text, lines, words in cells if lines > words]
    assert not broken


def edit_line(page, number: int, old_tag: str, new_tag: str) -> None:
    """Replace the predicted tag (the last column) of the editor's line `number` as a user would."""
    line = page.locator("#conll-input .cm-line").nth(number - 1)
    before = line.inner_text()
    assert before.endswith(f" {old_tag}"), before
    line.click()
    page.keyboard.press("End")
    for _ in old_tag:
        page.keyboard.press("Backspace")
    page.keyboard.type(new_tag)
    assert line.inner_text() == before.removesuffix(old_tag) + new_tag


def test_editing_one_predicted_tag_changes_the_numbers(page):
    # Sentence 5's last character, line 32: 球 I-MUSIC_NAME I-MUSIC_NAME (line 22 reads the same).
    lines = page.locator("#conll-input .cm-line")
    line_texts = lines.all_inner_texts()
    assert [number for number, text in enumerate(line_texts, 1) if text == "球 I-MUSIC_NAME I-MUSIC_NAME"] == [22, 32]
    edit_line(page, 32, "I-MUSIC_NAME", "O")
    before = page.evaluate(PICTURES_JS)
    page.click("#evaluate")
    wait_for_summary(page, EDITED_SUMMARY)
    assert [row[1] for row in table_rows(page, "scenarios")[1:]] == ["III", "II", "V", "IV", "V", "VI"]
    # I became V: the pair is still MUSIC_NAME -> MUSIC_NAME, so the heatmap stays; MUSIC_NAME's exact and
    # strict F1 fall, so the chart is redrawn.
    edited = drawn(texts.WORKED_EXAMPLE.replace("球 I-MUSIC_NAME I-MUSIC_NAME\n\n一", "球 I-MUSIC_NAME O\n\n一"))
    wait_for_pictures(page, edited)
    assert edited[0] == before[0] and edited[1] != before[1]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "space-edited.png"), full_page=True)


def test_editing_a_tag_redraws_both_pictures(page):
    # Sentence 1's first character, line 4: 告 B-MUSIC_NAME O. Predicting it as SINGER turns the missed
    # MUSIC_NAME (III) into a MUSIC_NAME -> SINGER pair (VI): MUSIC_NAME -> O goes from 1 to 0 and
    # MUSIC_NAME -> SINGER from 2 to 3 in the heatmap, and the chart's bars change with the scores.
    before = page.evaluate(PICTURES_JS)
    assert before == drawn(texts.WORKED_EXAMPLE) and None not in before
    edit_line(page, 4, "O", "B-SINGER")
    page.click("#evaluate")
    edited = drawn(texts.WORKED_EXAMPLE.replace("告 B-MUSIC_NAME O\n", "告 B-MUSIC_NAME B-SINGER\n", 1))
    wait_for_pictures(page, edited)
    assert edited[0] != before[0] and edited[1] != before[1]
    assert [row[1] for row in table_rows(page, "scenarios")[1:]] == ["VI", "II", "V", "IV", "I", "VI"]


class HeldPictures:
    """The page's pictures held back (`space.page_events.plot`, which the server, run in this process, calls once
    the tables are sent, for pictures not drawn before): the first picture waits until `release`, so that the
    request that draws it stays running while the test acts; `drawing` is set once it waits."""

    def __init__(self, monkeypatch) -> None:
        import threading

        from space import caps, page_events, pictures

        # None kept, each drawn anew: pictures drawn before come with the tables, in the one step that would be held.
        monkeypatch.setattr(caps, "PICTURE_CACHE", 0)
        pictures.DRAWN.clear()
        self.drawing = threading.Event()
        self.released = threading.Event()
        plot = page_events.plot

        def held(picture):
            if not self.drawing.is_set():
                self.drawing.set()
                self.released.wait(TIMEOUT_MS / 1000)
            return plot(picture)

        monkeypatch.setattr(page_events, "plot", held)

    def release(self) -> None:
        self.released.set()


def summary_of(text: str, scheme: str = "IOB2", mode: str = "lenient") -> list[list[str]]:
    """The summary table the page should show for one system's CoNLL `text`, header first."""
    status, _, summary, *_ = answers.evaluate_page(text, scheme, mode)
    assert status.startswith("Evaluated"), status
    return [HEADER, *summary.values.tolist()]


def test_a_click_while_the_last_answer_is_drawn_shows_the_new_inputs_answer(page, monkeypatch):
    # Gradio 6 drops a click on a button whose event still runs (trigger_mode "once"): a user who edited and
    # clicked while the last answer's pictures were drawn got no answer, and the page kept the old text's numbers.
    # The first answer's pictures are held while the user edits again and clicks; the page must end on the second
    # text's numbers and pictures.
    first = texts.WORKED_EXAMPLE.replace("球 I-MUSIC_NAME I-MUSIC_NAME\n\n一", "球 I-MUSIC_NAME O\n\n一")
    second = first.replace("告 B-MUSIC_NAME O\n", "告 B-MUSIC_NAME B-SINGER\n", 1)
    assert summary_of(first) == EDITED_SUMMARY and summary_of(second) != EDITED_SUMMARY
    held = HeldPictures(monkeypatch)
    try:
        edit_line(page, 32, "I-MUSIC_NAME", "O")
        page.click("#evaluate")
        assert held.drawing.wait(TIMEOUT_MS / 1000)
        # The first answer's tables are shown, its pictures not yet drawn: the event runs on.
        page.wait_for_function(
            f"expected => JSON.stringify(({ROWS_JS})(document.getElementById('summary'))) === JSON.stringify(expected)",
            arg=EDITED_SUMMARY,
            timeout=TIMEOUT_MS,
        )
        replace_input(page, second)  # (the editor draws only the lines in view: line 4 is out of it now)
        page.click("#evaluate")
        page.wait_for_timeout(500)  # the click handled by the page before the first answer ends
    finally:
        held.release()
    wait_for_summary(page, summary_of(second))
    wait_for_pictures(page, drawn(second))
    assert [row[1] for row in table_rows(page, "scenarios")[1:]] == ["VI", "II", "V", "IV", "V", "VI"]


EXAMPLE_PAIR = ("English: all six scenarios", "IOBES, strict mode")


def test_an_example_clicked_while_the_last_is_answered_shows_its_own_answer(page, monkeypatch):
    # The same for the examples: the second example clicked while the first one's answer is drawn.
    english, iobes = (texts.EXAMPLES[texts.EXAMPLE_LABELS.index(label)] for label in EXAMPLE_PAIR)
    assert summary_of(*iobes[:3]) != summary_of(*english[:3])
    held = HeldPictures(monkeypatch)
    try:
        page.get_by_text(EXAMPLE_PAIR[0]).click()
        assert held.drawing.wait(TIMEOUT_MS / 1000)
        page.get_by_text(EXAMPLE_PAIR[1]).click()
        page.wait_for_timeout(500)  # the click handled by the page before the first answer ends
    finally:
        held.release()
    wait_for_summary(page, summary_of(*iobes[:3]))
    assert page.inner_text("#status").endswith("IOBES, strict mode.")
    assert page.locator("#conll-input .cm-line").first.inner_text() == iobes[0].splitlines()[0]


class HeldAnswer:
    """The page's first answer held back (`space.answers.page_answer`, which every event of the page calls to
    score, in the server run in this process): it waits until `release`, so that the visitor acts again while
    it is computed; `computing` is set once it waits. Later answers are not held."""

    def __init__(self, monkeypatch) -> None:
        import threading

        self.computing = threading.Event()
        self.released = threading.Event()
        page_answer = answers.page_answer

        def held(*arguments, **options):
            if not self.computing.is_set():
                self.computing.set()
                self.released.wait(TIMEOUT_MS / 1000)
            return page_answer(*arguments, **options)

        monkeypatch.setattr(answers, "page_answer", held)

    def release(self) -> None:
        self.released.set()


def pictures_of(text: str, scheme: str, mode: str) -> list[str | None]:
    """`drawn` for any scheme and mode."""
    from gradio import processing_utils

    figures = answers.evaluate_page(text, scheme, mode)[5:]
    return [None if figure is None else processing_utils.encode_plot_to_base64(figure, "png") for figure in figures]


def overtake_an_example(page, monkeypatch, act, shown) -> None:
    """Click the IOBES example and, while its answer is computed, `act`; wait until `shown` (the page shows the
    answer of that action), then let the example's answer finish and every event after it."""
    held = HeldAnswer(monkeypatch)
    try:
        page.get_by_text("IOBES, strict mode").click()
        assert held.computing.wait(TIMEOUT_MS / 1000)
        act()
        shown()
    finally:
        held.release()
    page.wait_for_timeout(1000)  # the example's event ends ...
    settle(page)  # ... and every event after it


def test_an_example_overtaken_by_an_upload_leaves_the_uploads_answer(page, monkeypatch, tmp_path):
    # Two events that write the same outputs: the visitor clicks an example, then, before its answer comes,
    # uploads a file. The example's event, started first, finished last and wrote its answer, and its text into
    # the editor, over the answer of the visitor's latest action. The page must end on that action's answer, on
    # the inputs the visitor left (space/turns.py). (The editor and the controls that the example sets cannot be
    # reached meanwhile: outputs of its event, they lie under its progress mark.)
    edited = texts.WORKED_EXAMPLE.replace("球 I-MUSIC_NAME I-MUSIC_NAME\n\n一", "球 I-MUSIC_NAME O\n\n一")
    path = tmp_path / "edited.conll"
    path.write_text(edited, encoding="utf-8")

    def upload() -> None:
        with page.expect_file_chooser() as chooser:
            page.click("#upload")
        chooser.value.set_files(str(path))

    def shown() -> None:  # (not settled: the example's event still runs)
        page.wait_for_function(
            f"expected => JSON.stringify(({ROWS_JS})(document.getElementById('summary'))) === JSON.stringify(expected)",
            arg=EDITED_SUMMARY,
            timeout=TIMEOUT_MS,
        )

    overtake_an_example(page, monkeypatch, upload, shown)
    assert table_rows(page, "summary") == EDITED_SUMMARY
    assert page.inner_text("#status").startswith("Evaluated 6 sentences (34 tokens)")
    assert page.inner_text("#status").endswith("IOB2, lenient mode.")
    assert page.locator("#conll-input .cm-line").first.inner_text() == texts.WORKED_EXAMPLE.splitlines()[0]
    wait_for_pictures(page, drawn(edited))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "space-overtaken-example.png"), full_page=True)


def test_a_change_of_mode_overtaken_by_an_example_leaves_the_examples_answer(page, monkeypatch):
    # The other way round: the mode changed, then an example clicked while the mode's answer is computed. In about
    # one run in five the summary also kept the older numbers under the example's status while the mode's answer
    # was held: Gradio's page wrote the value back (space/turns.py, where each later step repeats the values).
    held = HeldAnswer(monkeypatch)
    iobes = texts.EXAMPLES[texts.EXAMPLE_LABELS.index("IOBES, strict mode")]
    try:
        page.locator("#mode").get_by_text("strict", exact=True).click()
        assert held.computing.wait(TIMEOUT_MS / 1000)
        page.get_by_text("IOBES, strict mode").click()
        wait_for_summary(page, summary_of(*iobes[:3]))
    finally:
        held.release()
    page.wait_for_timeout(1000)
    settle(page)
    assert table_rows(page, "summary") == summary_of(*iobes[:3])
    assert page.inner_text("#status").endswith("IOBES, strict mode.")
    assert page.locator("#conll-input .cm-line").first.inner_text() == iobes[0].splitlines()[0]
    wait_for_pictures(page, pictures_of(*iobes[:3]))


PICTURE_BOXES = ["#heatmap", "#type-chart", "#slices"]


def test_a_picture_with_nothing_to_draw_is_left_out(page):
    # Sentences without an entity draw no picture: the page showed three empty frames with Gradio's placeholder.
    assert all(page.is_visible(box) for box in PICTURE_BOXES)
    replace_input(page, "Paris O O\nis O O\n")
    page.click("#evaluate")
    wait_for_pictures(page, [None, None])
    wait_until(page, "() => document.querySelector('#slices img') === null")
    assert [page.is_visible(box) for box in PICTURE_BOXES] == [False, False, False]
    assert page.is_visible("#errors")  # the tables stay
    choose_task(page, texts.AGREEMENT)
    # The switch measures the editor's text as it is (two annotators who agree): waited for, and with it the first
    # click's own measurement (its outputs, hidden until the switch, now show its tracker), so that neither answers
    # after the click's message nor has Gradio drop the click.
    wait_until(
        page, "() => document.querySelector('#agreement-status')?.innerText.startsWith('Measured the agreement of 2')"
    )
    replace_input(page, "Ada B-PER B-PER\nLovelace I-PER X-1\n")
    page.click("#evaluate")
    wait_until(page, "() => document.querySelector('#agreement-status').innerText.includes('Cannot measure')")
    wait_until(page, "() => document.querySelector('#agreement-heatmap img') === null")
    assert page.is_visible("#agreement") and not page.is_visible("#agreement-heatmap")
    page.click("#agreement-example")
    wait_until(page, "() => document.querySelector('#agreement-heatmap img')")
    assert page.is_visible("#agreement-heatmap")


def test_malformed_input_shows_a_message_and_the_page_stays_usable(page):
    replace_input(page, "Paris B-LOC B-LOC\nBerlin X-LOC O\n")
    page.click("#evaluate")
    message = "Line 2, reference tag (second-last column): found tag 'X-LOC' with unknown prefix 'X'"
    wait_until(page, "message => document.querySelector('#status').innerText.includes(message)", arg=message)
    assert page.inner_text("#status").startswith("⚠️ Cannot evaluate.")
    assert table_rows(page, "summary") == [HEADER]  # no stale numbers next to the message ...
    wait_for_pictures(page, [None, None])  # ... nor stale pictures
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "space-malformed.png"))

    # The English example holds the same six scenarios, hence the worked example's numbers again.
    page.get_by_text("English: all six scenarios").click()
    wait_for_summary(page, WORKED_TABLE)
    assert page.inner_text("#status").startswith("Evaluated 2 sentences (18 tokens)")


def test_uploading_a_file_fills_the_editor_and_evaluates(page, tmp_path):
    path = tmp_path / "iobes.conll"
    path.write_text(texts.IOBES_EXAMPLE, encoding="utf-8")
    # Each control answers for the worked example first: waited for, so that neither answers after the upload's.
    page.locator("#mode").get_by_text("strict", exact=True).click()
    wait_until(page, "() => document.querySelector('#status').innerText.endsWith('IOB2, strict mode.')")
    page.locator("#scheme input").fill("IOBES")
    page.keyboard.press("Enter")
    wait_until(page, "() => document.querySelector('#status').innerText.endsWith('IOBES, strict mode.')")
    with page.expect_file_chooser() as chooser:
        page.click("#upload")
    chooser.value.set_files(str(path))
    wait_until(page, "() => document.querySelector('#status').innerText.includes('2 sentences (16 tokens)')")
    assert page.inner_text("#status").endswith("IOBES, strict mode.")
    assert "Marie" in page.inner_text("#conll-input")
    assert [row[1] for row in table_rows(page, "scenarios")[1:]] == ["V", "II", "I", "IV", "I", "III"]


def test_uploading_a_1mb_sentence_shows_a_capped_page(page, tmp_path):
    # One sentence of 71,427 entities: uncapped, the answer was 22 MB of HTML and tables for the browser to draw.
    path = tmp_path / "one-sentence.conll"
    path.write_text("a B-PER B-PER\n" * 71_427, encoding="utf-8")
    with page.expect_file_chooser() as chooser:
        page.click("#upload")
    chooser.value.set_files(str(path))
    wait_until(page, "() => document.querySelector('#status').innerText.includes('71,427 tokens')")
    assert f"The scenario table shows the first {caps.MAX_TABLE_ROWS:,} of 71,427 rows." in page.inner_text("#status")
    assert page.locator("#sentences mark").count() == 2 * caps.MAX_SHOWN_TOKENS
    wait_for_pictures(page, drawn(path.read_text(encoding="utf-8")))  # the upload draws the pictures too
    assert f"Sentence 1 is cut after {caps.MAX_SHOWN_TOKENS:,} of 71,427 tokens" in page.inner_text("#sentences")


# ---------------------------------------------------------------------------------------------------------
# Two systems compared
# ---------------------------------------------------------------------------------------------------------

COMPARE_HEADER = ["scheme", "measure", "A", "B", "B − A", "low", "high", "p-value"]
# The compare example's last sentence: system B predicts a MISC entity on Friday that is not in the reference.
SPURIOUS_LINE = 63
DIFFERENCE_JS = """() => {
    const image = document.querySelector('#difference img');
    return image === null ? null : image.getAttribute('src');
}"""


@functools.cache
def compared(text: str) -> tuple[list[list[str]], str]:
    """The comparison table the page should show for `text` (header first, cells as the page writes them) and the
    difference picture as the data URL Gradio sends."""
    from gradio import processing_utils

    status, table, figure = answers.compare_page(text)
    assert status.startswith("Compared"), status
    cells = app.gr.Dataframe(interactive=False).postprocess(table).model_dump()["metadata"]["display_value"]
    return [COMPARE_HEADER, *cells], processing_utils.encode_plot_to_base64(figure, "png")


def wait_for_comparison(page, text: str) -> None:
    """Wait until the page shows the comparison table and the difference picture of `text`."""
    rows, picture = compared(text)
    wait_for_table(page, "comparison", rows)
    try:
        page.wait_for_function(f"expected => ({DIFFERENCE_JS})() === expected", arg=picture, timeout=TIMEOUT_MS)
    except Exception:
        assert (page.evaluate(DIFFERENCE_JS) or "")[:80] == picture[:80]
        raise


def choose_task(page, task: str) -> None:
    page.locator("#task").get_by_text(task, exact=True).click()


# Cells whose text their box cuts off (Gradio hides the overflow of a fixed-width column).
CLIPPED_JS = """element => [...element.querySelectorAll('[role=columnheader], [role=gridcell], th, td')]
    .filter(cell => cell.scrollWidth > cell.clientWidth + 1).map(cell => cell.innerText.trim())"""


def test_switching_to_compare_mode_shows_the_comparison(page):
    # The page opened on the worked example (one system). The control switches to two systems; the untouched
    # example becomes the compare example, and the comparison table and picture replace the one-system outputs.
    choose_task(page, "Compare two systems")
    wait_for_comparison(page, texts.COMPARE_EXAMPLE)
    assert page.locator("#task input:checked").get_attribute("value") == texts.TWO_SYSTEMS
    assert page.inner_text("#status").startswith("Compared systems A and B on 8 sentences (57 tokens)")
    assert "2,000 resamples, seed 0" in page.inner_text("#status")
    assert page.locator("#conll-input .cm-line").first.inner_text() == "Angela B-PER B-PER B-PER"
    assert "system B's tag" in page.inner_text("#conll-input")  # the editor's label says what it reads
    assert page.inner_text("#evaluate") == "Compare"
    assert not page.locator("#summary").is_visible() and not page.locator("#one-system").is_visible()
    assert page.locator("#difference img").is_visible()
    rows = table_rows(page, "comparison")
    assert rows[3] == ["strict", "F1", "0.4444", "0.8108", "+0.3664", "+0.1667", "+0.5294", "0.0340"]
    assert page.eval_on_selector("#comparison", CLIPPED_JS) == []  # all eight columns readable beside the editor
    # The differences whose interval leaves out zero are tinted blue (B better); type's straddles zero.
    tinted = page.eval_on_selector_all(
        "#comparison [role=gridcell], #comparison td",
        "cells => cells.map(cell => getComputedStyle(cell).backgroundColor)",
    )
    assert "rgb(219, 234, 254)" in tinted  # #dbeafe
    image = page.locator("#difference img")
    natural, shown = image.evaluate("image => [image.naturalWidth, image.getBoundingClientRect().width]")
    assert natural > 500 and shown >= 0.9 * natural, f"the picture, {natural} px, is drawn at {shown} px"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "space-compare.png"), full_page=True)
    if os.environ.get("UPDATE_SCREENSHOT"):
        # The README's picture of compare mode: the input, the comparison table and the difference picture.
        box = page.locator("#two-systems").bounding_box()
        page.screenshot(
            path=str(REPO / "docs" / "screenshot-compare.png"),
            full_page=True,
            clip={"x": 0, "y": 0, "width": 1280, "height": box["y"] + box["height"] + 16},
        )

    # Back to one system: the compare example, untouched, becomes the worked example again.
    choose_task(page, "Evaluate one system")
    wait_for_summary(page, WORKED_TABLE)
    wait_for_pictures(page, drawn(texts.WORKED_EXAMPLE))
    assert page.inner_text("#evaluate") == "Evaluate"
    assert not page.locator("#comparison").is_visible() and not page.locator("#two-systems").is_visible()
    assert page.outside == []


# The comparison's cells and the frame that scrolls them sideways (overflow-x auto, wider inside than shown),
# scrolled to its end: whether the last column then lies within the page, and whether the page itself scrolls.
PHONE_TABLE_JS = """element => {
    const cells = [...element.querySelectorAll('[role=columnheader], [role=gridcell], th, td')];
    const frame = [...element.querySelectorAll('*')].find(node => node.scrollWidth > node.clientWidth + 1
        && ['auto', 'scroll'].includes(getComputedStyle(node).overflowX));
    if (frame) frame.scrollLeft = frame.scrollWidth;
    const right = Math.max(...cells.map(cell => cell.getBoundingClientRect().right));
    const width = document.documentElement.clientWidth;
    return {cells: cells.length, scrolls: Boolean(frame), last_column_shown: right <= width + 1,
            page_scrolls: document.documentElement.scrollWidth > width + 1};
}"""


def test_the_comparison_table_is_whole_on_a_phone(page):
    # At a phone's width the eight columns' fixed shares cut every cell ("+0.3664" read "+…"): each cell now
    # keeps its text whole and the table scrolls sideways in its own frame, the page not.
    page.set_viewport_size({"width": 390, "height": 900})
    choose_task(page, "Compare two systems")
    wait_for_comparison(page, texts.COMPARE_EXAMPLE)
    assert page.eval_on_selector("#comparison", CLIPPED_JS) == []
    layout = page.eval_on_selector("#comparison", PHONE_TABLE_JS)
    assert layout == {"cells": layout["cells"], "scrolls": True, "last_column_shown": True, "page_scrolls": False}
    assert layout["cells"] >= 8 * 13, layout  # the header and twelve rows, none left out
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#comparison").screenshot(path=str(ARTIFACTS / "space-compare-phone.png"))


def test_compare_example_loads_with_one_click_and_an_edit_in_system_b_changes_the_numbers(page):
    page.get_by_text("Two systems compared").click()  # from one-system mode: the example sets the task too
    wait_for_comparison(page, texts.COMPARE_EXAMPLE)
    assert page.locator("#task input:checked").get_attribute("value") == texts.TWO_SYSTEMS
    before = table_rows(page, "comparison")
    edit_line(page, SPURIOUS_LINE, "B-MISC", "O")
    page.click("#evaluate")
    edited = texts.COMPARE_EXAMPLE.replace("Friday O O B-MISC\n", "Friday O O O\n")
    assert edited != texts.COMPARE_EXAMPLE
    wait_for_comparison(page, edited)
    after = table_rows(page, "comparison")
    # Without its spurious entity, B's precision rises under every scheme; A's numbers stay.
    assert [row[2] for row in after] == [row[2] for row in before]
    assert [float(row[3]) > float(old[3]) for row, old in zip(after[1:], before[1:]) if row[1] == "precision"] == [
        True
    ] * 4
    assert compared(edited)[1] != compared(texts.COMPARE_EXAMPLE)[1]  # the picture was redrawn
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "space-compare-edited.png"), full_page=True)


def test_malformed_comparison_shows_a_message_naming_the_line(page):
    choose_task(page, "Compare two systems")
    wait_for_comparison(page, texts.COMPARE_EXAMPLE)
    replace_input(page, "Paris B-LOC B-LOC B-LOC\nBerlin B-LOC O\n")
    page.click("#evaluate")
    message = "Line 2: found 3 columns ('Berlin B-LOC O'); comparing two systems takes at least 4 columns"
    wait_until(page, "message => document.querySelector('#status').innerText.includes(message)", arg=message)
    assert page.inner_text("#status").startswith("⚠️ Cannot compare.")
    wait_for_table(page, "comparison", [COMPARE_HEADER])  # no stale numbers next to the message ...
    wait_until(page, f"() => ({DIFFERENCE_JS})() === null")  # ... nor a stale picture
    # The user's own text is kept when the task changes: read as one system, its four columns are fine.
    choose_task(page, "Evaluate one system")
    wait_until(page, "() => document.querySelector('#status').innerText.startsWith('Evaluated 1 sentence (2 tokens)')")
    assert page.locator("#conll-input .cm-line").first.inner_text() == "Paris B-LOC B-LOC B-LOC"


def spans_summary(text: str) -> list[list[str]]:
    """The summary table the page should show for JSON lines `text`, header first."""
    status, _, summary, *_ = answers.spans_page(text)
    assert status.startswith("Evaluated"), status
    return [HEADER, *summary.values.tolist()]


def test_switching_to_spans_mode_highlights_the_spans_and_an_edit_changes_the_numbers(page):
    # From the worked example, the control switches to spans: the untouched example becomes the spans example.
    choose_task(page, "Spans (JSON lines)")
    wait_for_summary(page, spans_summary(texts.SPANS_EXAMPLE))
    assert page.locator("#task input:checked").get_attribute("value") == texts.SPANS
    assert page.inner_text("#status").startswith("Evaluated 2 documents of spans: 5 reference and 5 predicted")
    assert page.locator("#conll-input .cm-line").first.inner_text().startswith('{"text": "Angela Merkel met')
    # Scheme and mode describe tags: disabled here.
    assert page.locator("#scheme input").is_disabled()
    assert page.locator("#mode input").first.is_disabled()
    # The documents, their character spans highlighted: 5 reference and 5 predicted entities, Paris (LOC)
    # nested inside University of Paris (ORG) in the reference.
    assert page.locator("#sentences mark").count() == 10
    nested = page.locator("#sentences mark mark")
    assert nested.count() == 1 and nested.inner_text().startswith("Paris")
    assert page.locator("#sentences .number").all_inner_texts() == ["1", "2"]
    assert "University of Paris" in page.inner_text("#sentences")
    scenarios = table_rows(page, "scenarios")
    assert [row[1] for row in scenarios[1:]] == ["I", "V", "IV", "I", "III", "II"]
    assert scenarios[2][3:6] == ["Emmanuel Macron", "PER", "Macron"]
    wait_until(page, "() => document.querySelector('#heatmap img') && document.querySelector('#type-chart img')")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "space-spans.png"), full_page=True)
    if os.environ.get("UPDATE_SCREENSHOT"):
        # The README's picture of spans mode: the input and summary, the scenarios, the pictures and the
        # highlighted documents.
        box = page.locator("#sentences").bounding_box()
        page.screenshot(
            path=str(REPO / "docs" / "screenshot-spans.png"),
            full_page=True,
            clip={"x": 0, "y": 0, "width": 1280, "height": box["y"] + box["height"] + 16},
        )

    # The predicted ORG now ends before "Paris": scenario I becomes V, and the numbers change.
    edited = texts.SPANS_EXAMPLE.replace('"predictions": [[19, 38, "ORG"]', '"predictions": [[19, 32, "ORG"]')
    assert edited != texts.SPANS_EXAMPLE
    replace_input(page, edited)
    page.click("#evaluate")
    wait_for_summary(page, spans_summary(edited))
    assert spans_summary(edited) != spans_summary(texts.SPANS_EXAMPLE)
    assert [row[1] for row in table_rows(page, "scenarios")[1:]] == ["I", "V", "IV", "V", "III", "II"]

    # A bad entity names its line; back to one system, the tag controls work again.
    replace_input(page, '{"references": [], "predictions": []}\n{"references": [[3, 1, "X"]], "predictions": []}')
    page.click("#evaluate")
    message = "Line 2, references[0]: start 3 >= end 1"
    wait_until(page, "message => document.querySelector('#status').innerText.includes(message)", arg=message)
    choose_task(page, "Evaluate one system")
    wait_until(page, "() => !document.querySelector('#scheme input').disabled")
    assert page.outside == []


def test_spans_example_loads_with_one_click(page):
    page.get_by_text("Spans, nested").click()
    wait_for_summary(page, spans_summary(texts.SPANS_EXAMPLE))
    assert page.locator("#task input:checked").get_attribute("value") == texts.SPANS
    assert page.locator("#sentences mark mark").count() == 1


def test_the_value_control_adds_the_value_row(page):
    # docs/scoring.md §10: the worked example's value under ace08 is 0.45, in the status and the summary's last row.
    page.locator("#value input").fill("ace08")
    page.keyboard.press("Enter")
    wait_for_summary(page, [*WORKED_TABLE, ["value", "0.45", "0.45", "0.45", "0.45"]])
    assert "Value 0.45 (precision 0.6, recall 0.6, F1 0.6)" in page.inner_text("#status")


def test_a_spans_example_clicked_in_spans_mode_keeps_the_editors_label(page):
    # Gradio's examples reset the editor's label to the one it was built with: clicked in spans mode, a spans
    # example showed "CoNLL input" over JSON lines, and the tag controls came back enabled.
    choose_task(page, texts.SPANS)
    wait_for_summary(page, spans_summary(texts.SPANS_EXAMPLE))
    page.get_by_text("Worked example as strings").click()
    wait_until(page, "() => document.querySelector('#status').innerText.startsWith('Evaluated 6 documents of strings')")
    page.get_by_text("Spans, nested").click()
    wait_for_summary(page, spans_summary(texts.SPANS_EXAMPLE))
    label = page.locator("#conll-input").inner_text()
    assert "JSON lines" in label and "CoNLL input" not in label
    assert page.locator("#scheme input").is_disabled()
    # Back to an example of one system: its label again.
    page.get_by_text("English: all six scenarios").click()
    wait_for_summary(page, WORKED_TABLE)
    label = page.locator("#conll-input").inner_text()
    assert texts.ONE_SYSTEM_LABEL in label and "JSON lines" not in label
    assert not page.locator("#scheme input").is_disabled()


# The lines a CodeMirror line takes on screen, and whether the editor scrolls sideways.
WRAPPED_JS = """element => {
    const line = element.querySelector('.cm-line');
    const scroller = element.querySelector('.cm-scroller');
    const lineHeight = parseFloat(getComputedStyle(line).lineHeight);
    const lines = Math.round(line.getBoundingClientRect().height / lineHeight);
    return [lines, scroller.scrollWidth > scroller.clientWidth + 1];
}"""


def test_a_long_json_line_wraps_in_the_editor(page):
    choose_task(page, texts.SPANS)
    wait_for_summary(page, spans_summary(texts.SPANS_EXAMPLE))
    words = " ".join(["Ada Lovelace met Charles Babbage in London"] * 6)
    line = json.dumps({"text": words, "references": [[0, 12, "PER"]], "predictions": [[0, 3, "PER"]]})
    assert len(line) > 250
    replace_input(page, line)
    page.click("#evaluate")
    wait_until(page, "() => document.querySelector('#status').innerText.startsWith('Evaluated 1 document')")
    lines, scrolls = page.eval_on_selector("#conll-input", WRAPPED_JS)
    assert lines >= 2 and not scrolls, (lines, scrolls)
    assert page.locator("#conll-input .cm-line").count() == 1  # still one line, numbered 1
    # The editor keeps its height (Gradio measured a wrapped first line as one and grew it many times over).
    height = page.eval_on_selector("#conll-input .cm-scroller", "element => element.getBoundingClientRect().height")
    line_height = page.eval_on_selector("#conll-input .cm-scroller", "e => parseFloat(getComputedStyle(e).lineHeight)")
    assert 12 * line_height <= height <= 15 * line_height, (height, line_height)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "space-long-line.png"), full_page=True)


# The editor's label and its download and copy buttons, which sit over its top right corner.
EDITOR_LABEL_JS = """element => {
    const label = element.querySelector('[data-testid=block-label]').getBoundingClientRect();
    const buttons = element.querySelector('.icon-button-wrapper').getBoundingClientRect();
    return [label.right, buttons.left, label.top < buttons.bottom && buttons.top < label.bottom];
}"""


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_the_editors_label_and_upload_button_say_what_each_task_reads(page, width):
    # The spans' and the Agreement task's labels ran under the editor's buttons, which hid some of their words; the
    # upload button said "Upload a CoNLL file" in every task.
    page.set_viewport_size({"width": width, "height": 900})
    for task in texts.TASKS:
        choose_task(page, task)
        # Both are set by one event; the upload button's label is the same for one system and two.
        page.wait_for_function(
            """([upload, editor]) => document.querySelector('#upload').innerText.trim() === upload
                && document.querySelector('#conll-input [data-testid=block-label]').innerText.trim() === editor""",
            arg=[texts.UPLOAD_LABELS[task], texts.LABELS[task]],
            timeout=TIMEOUT_MS,
        )
        right, buttons, beside = page.eval_on_selector("#conll-input", EDITOR_LABEL_JS)
        assert not beside or right <= buttons, (task, right, buttons)


def test_the_page_opens_with_its_answer_and_a_click_answers_in_one_request(browser, server):
    # The worked example's answer is sent with the page: nothing is requested from the queue on opening. An
    # example's click is one request (its inputs and its answer together), where it was two and a third for the
    # task's controls.
    context = browser.new_context(viewport={"width": 1280, "height": 1200})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(urlparse(request.url).path))
    try:
        page.goto(server)
        wait_for_summary(page, WORKED_TABLE)
        wait_for_pictures(page, drawn(texts.WORKED_EXAMPLE))
        page.wait_for_timeout(500)
        assert not [path for path in requests if "/queue/" in path or "/run/" in path]
        page.get_by_text("English: all six scenarios").click()
        wait_until(page, "() => document.querySelector('#status').innerText.startsWith('Evaluated 2 sentences')")
        wait_for_pictures(page, drawn(texts.ENGLISH_EXAMPLE))
        assert [path for path in requests if "/queue/join" in path or "/run/" in path] == ["/gradio_api/queue/join"]
    finally:
        context.close()


def test_spans_mode_draws_an_entity_in_pieces_as_joined_pieces(page):
    # Issue 30: "muscle ... fatigue" in pieces on both sides (docs/spans.md), each piece outlined and numbered 1.
    line = (
        '{"text": "Patient reports muscle pain and fatigue after the statin.", "references": [{"fragments": '
        '[[16, 22], [32, 39]], "type": "ADR"}, [16, 27, "ADR"]], "predictions": [{"fragments": [[16, 22], '
        '[32, 39]], "type": "ADR"}, [16, 22, "ADR"]]}'
    )
    choose_task(page, "Spans (JSON lines)")
    wait_for_summary(page, spans_summary(texts.SPANS_EXAMPLE))
    replace_input(page, line)
    page.click("#evaluate")
    wait_for_summary(page, spans_summary(line))
    pieces = page.locator("#sentences mark.piece")
    assert pieces.count() == 4
    assert page.locator("#sentences mark.piece .joint").all_inner_texts() == ["1"] * 4
    assert pieces.first.evaluate("mark => getComputedStyle(mark).borderTopStyle") == "dashed"
    assert [row[1] for row in table_rows(page, "scenarios")[1:]] == ["V", "I"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#sentences").screenshot(path=str(ARTIFACTS / "space-fragments.png"))


def test_the_agreement_task_shows_the_pairs_the_coefficients_and_the_heatmap(page):
    # From the worked example, the control switches to Agreement: the untouched example becomes docs/agreement.md's
    # three annotators (examples/agreement.conll), and the page shows agreement_text's tables and the heatmap.
    from space import agreement

    choose_task(page, texts.AGREEMENT)
    _, pairs, coefficients, _ = agreement.agreement_text(texts.AGREEMENT_EXAMPLE)
    wait_for_table(page, "agreement-coefficients", [list(coefficients.columns), *coefficients.values.tolist()])
    wait_for_table(page, "agreement-pairs", [list(pairs.columns), *pairs.values.tolist()])
    wait_until(
        page, "() => document.querySelector('#agreement-status').innerText.startsWith('Measured the agreement of 3')"
    )
    assert page.inner_text("#status") == texts.AGREEMENT_STATUS.replace("**", "")
    assert page.inner_text("#agreement-example") == texts.AGREEMENT_EXAMPLE_BUTTON
    assert page.locator("#conll-input .cm-line").first.inner_text() == "Ada B-PER B-PER B-PER"
    assert page.is_hidden("#summary") and page.is_hidden("#one-system") and page.is_visible("#agreement")
    assert page.inner_text("#evaluate") == "Measure agreement"
    wait_until(page, "() => document.querySelector('#agreement-heatmap img')")
    rows = table_rows(page, "agreement-disagreements")
    assert ["annotator1", "annotator2", "1", "IV", "London", "LOC", "London", "ORG"] in rows
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "space-agreement.png"), full_page=True)

    # annotator3 now types the second sentence's London an ORG too: the pairs' numbers change.
    edited = texts.AGREEMENT_EXAMPLE.replace("London B-LOC B-LOC B-LOC", "London B-LOC B-LOC B-ORG")
    assert edited != texts.AGREEMENT_EXAMPLE
    replace_input(page, edited)
    page.click("#evaluate")
    _, pairs, _, _ = agreement.agreement_text(edited)
    wait_for_table(page, "agreement-pairs", [list(pairs.columns), *pairs.values.tolist()])

    # A bad tag names its line and column; the task's own example brings the numbers back with one click.
    replace_input(page, "Ada B-PER B-PER\nLovelace I-PER X-1\n")
    page.click("#evaluate")
    message = "Line 2, column 3 (annotator2)"
    wait_until(page, "message => document.querySelector('#agreement-status').innerText.includes(message)", arg=message)
    page.click("#agreement-example")
    wait_for_table(page, "agreement-coefficients", [list(coefficients.columns), *coefficients.values.tolist()])
    assert page.outside == []


def test_the_agreement_task_measures_an_uploaded_archive_of_doccanos_export(page, tmp_path):
    # doccano's export of one JSONL file per annotator, the ZIP as doccano writes it (space/archives.py): measured
    # by the task's own event, the page's status left as the task's, the editor left as it was.
    import zipfile

    from space import agreement

    texts_ = ["Ann met Bob in Rome.", "Paris is not Rome."]
    entities = {
        "ann": [[[0, 3, "PER"], [8, 11, "PER"], [15, 19, "LOC"]], [[0, 5, "LOC"], [13, 17, "LOC"]]],
        "ben": [[[0, 3, "PER"], [8, 11, "ORG"]], [[0, 5, "LOC"], [13, 17, "LOC"]]],
    }
    path = tmp_path / "export.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, found in entities.items():
            lines = [
                json.dumps({"id": n, "text": text, "label": labels})
                for n, (text, labels) in enumerate(zip(texts_, found))
            ]
            archive.writestr(f"{name}.jsonl", "\n".join(lines) + "\n")
    status, pairs, _, _, _ = agreement.upload_page(str(path))
    assert status.startswith("Measured the agreement of 2 annotators (ann.jsonl, ben.jsonl) on 2 documents")
    choose_task(page, texts.AGREEMENT)
    wait_for_table(
        page,
        "agreement-pairs",
        [list(pairs.columns), *agreement.agreement_text(texts.AGREEMENT_EXAMPLE)[1].values.tolist()],
    )
    with page.expect_file_chooser() as chooser:
        page.click("#upload")
    chooser.value.set_files(str(path))
    wait_for_table(page, "agreement-pairs", [list(pairs.columns), *pairs.values.tolist()])
    wait_until(page, "() => document.querySelector('#agreement-status').innerText.includes('of doccano exports')")
    assert page.inner_text("#status") == texts.AGREEMENT_STATUS.replace("**", "")
    assert page.locator("#conll-input .cm-line").first.inner_text() == "Ada B-PER B-PER B-PER"
    wait_until(page, "() => document.querySelector('#agreement-heatmap img')")
    assert page.outside == []
