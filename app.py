"""The ner_semeval Space: SemEval-2013 strict / exact / partial / type scores of the user's own sentences.

This file is the page: its layout and its events. Everything shown is computed by the package `nerscore`, and the
rest lives in `space/` beside this file, each module one concern, each importing only those before it: `caps`
(every cap and limit), `texts` (the page's words and examples), `parsing` (the input, read by the package's
readers), `scoring` (the numbers, errors in the page's words), `writing` (tokens, texts and numbers as the page
writes them), `colours`, `frames` (the tables), `markup` (the highlighted sentences), `figures` (the pictures),
`answers` (what each task answers), `agreement` (the Agreement task) and `lanes` (which requests run at once).
`python app.py` serves the page on 127.0.0.1:7860 (`GRADIO_SERVER_NAME` / `GRADIO_SERVER_PORT` override).

A control on the page chooses what it does: evaluate one system (token, reference tag, predicted tag), compare two
(token, reference tag, system A's tag, system B's tag: the last three columns), or read spans (JSON lines, as the
command line's `--spans` reads them), or measure how far annotators agree (token, one tag per annotator; or a
Label Studio export: `space/agreement.py`, the `/agreement` endpoint). `answers.evaluate_text` is the `/evaluate`
API endpoint, `answers.compare_text` the `/compare` one and `answers.spans_text` the `/spans` one; the page's own
events answer `run_page`'s outputs, the pictures included, in two steps (`page_steps`): the tables at once, then
the pictures, which are most of a request's time (the Agreement task's own outputs: `agreement_run`). The page
opens on the worked example's answer, sent with it (`first_answer`), and an example's click sets the inputs and
answers in one event (`example_steps`).

The work and the answer of one request are bounded by what the page shows (`space/caps.py`): the tables, the
highlighted sentences and the pictures are capped (the page says what it left out), per-type scores are computed
only for the types shown, documents of spans whose pairing would cost more than the caps are refused, and every
request runs in a lane by its size (`space/lanes.py`), so that a small one never waits behind 1 MB ones.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from typing import Any

# Gradio reports usage to its servers unless told not to before it is imported; the Space makes no calls.
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"

import gradio as gr
import pandas as pd
from gradio.components.plot import PlotData

from space import agreement, answers, archives, caps, figures, frames, lanes, markup, parsing, texts


def run_page(
    text: str, scheme: str = "IOB2", mode: str = "lenient", task: str = texts.ONE_SYSTEM, value: str = texts.NO_VALUE
) -> tuple[Any, ...]:
    """Every output of the page for its five inputs: `answers.evaluate_page`'s seven, then the comparison table
    and the difference picture, then the diagnostics and errors tables, then the slices picture (one system's
    CoNLL input only); the outputs of the task not chosen are emptied, so nothing stale stays behind them.
    (`answers.page_answer(...).outputs()`; the page's events show the same in two steps, `page_steps`.) The
    Agreement task's outputs are `agreement_run`'s (its status among them): for that task, this says where they
    are and leaves the rest as it is."""
    if task == texts.AGREEMENT:
        return (texts.AGREEMENT_STATUS, *(gr.skip(),) * (len(answers.PAGE_OUTPUTS) - 1))
    return answers.page_answer(text, scheme, mode, task, value).outputs()


def plot(picture: figures.Picture | None) -> PlotData | None:
    """A picture as the plot component takes it: its PNG encoded as Gradio would encode the figure, or the one
    encoded before for the same numbers (`figures.png_url`)."""
    url = figures.png_url(picture)
    return None if url is None else PlotData(type="matplotlib", plot=url)


def answer_steps(answer: answers.PageAnswer, *before: Any) -> Iterator[tuple[Any, ...]]:
    """`answer` as the page's events show it, in two steps: every output but the pictures at once (the pictures
    left as they are, under Gradio's progress mark, for the fraction of a second their drawing takes), then the
    pictures alone. The numbers never wait for the drawing, which is most of a request's time. Outputs that the
    task hides are not sent (the browser's redrawing of the tables is most of what remains: about half the page's
    work for a click); each task's event fills every output it shows. `before`: values of outputs listed before
    the page's (the editor, for an upload), sent with the first step."""
    skip = gr.skip()
    tables = [name if name in answer.shown and name in answer.tables else None for name in answers.PAGE_OUTPUTS]
    pictures = [name if name in answer.shown and name in answer.pictures else None for name in answers.PAGE_OUTPUTS]
    yield (*before, *(skip if name is None else answer.tables[name] for name in tables))
    yield (*(skip for _ in before), *(skip if name is None else plot(answer.pictures[name]) for name in pictures))


def page_steps(
    text: str, scheme: str = "IOB2", mode: str = "lenient", task: str = texts.ONE_SYSTEM, value: str = texts.NO_VALUE
) -> Iterator[tuple[Any, ...]]:
    """`run_page`'s outputs as the page's events show them: the tables at once, then the pictures
    (`answer_steps`)."""
    yield from answer_steps(answers.page_answer(text, scheme, mode, task, value))


def busy_page(message: str, task: str) -> tuple[Any, ...]:
    """`run_page`'s outputs when the request's lane is full: the message as the status, the rest empty."""
    action = "compare" if task == texts.TWO_SYSTEMS else "evaluate"
    empty = answers.empty_page(answers.error_message(message, action))
    return tuple(empty[name] for name in answers.PAGE_OUTPUTS)


def upload_page(path: str | None, scheme: str, mode: str, task: str, value: str = texts.NO_VALUE) -> tuple[Any, ...]:
    """An uploaded file: into the text box and run as the chosen task, or a message (`parsing.read_upload`)."""
    if task == texts.AGREEMENT and archives.is_archive(path):  # not text: the task's own event reads it
        return (gr.skip(), *run_page("", scheme, mode, task, value))
    try:
        text = parsing.read_upload(path)
    except parsing.InputProblem as problem:
        _, *empty = run_page("", scheme, mode, task, value)
        return (
            gr.skip(),
            answers.error_message(str(problem), "compare" if task == texts.TWO_SYSTEMS else "evaluate"),
            *empty,
        )
    return (text, *run_page(text, scheme, mode, task, value))


def upload_steps(
    path: str | None, scheme: str, mode: str, task: str, value: str = texts.NO_VALUE
) -> Iterator[tuple[Any, ...]]:
    """`upload_page`'s outputs as the page's events show them: the editor and the tables at once, then the
    pictures (`answer_steps`)."""
    action = "compare" if task == texts.TWO_SYSTEMS else "evaluate"
    if task == texts.AGREEMENT and archives.is_archive(path):  # not text: the task's own event reads it
        yield (gr.skip(), *run_page("", scheme, mode, task, value))
        return
    try:
        text = parsing.read_upload(path)
    except parsing.InputProblem as problem:
        empty = answers.empty_page(answers.error_message(str(problem), action))
        yield (gr.skip(), *(empty[name] for name in answers.PAGE_OUTPUTS))
        return
    yield from answer_steps(answers.page_answer(text, scheme, mode, task, value), text)


def load_file(path: str | None, scheme: str = "IOB2", mode: str = "lenient") -> tuple[Any, ...]:
    """An uploaded CoNLL file of one system: into the text box and evaluated as `answers.evaluate_page` does, or a
    message when too large or not text (`upload_page` with the task chosen)."""
    try:
        text = parsing.read_upload(path)
    except parsing.InputProblem as problem:
        return (gr.skip(), *answers.empty_outputs(answers.error_message(str(problem))), None, None)
    return (text, *answers.evaluate_page(text, scheme, mode))


def show_task(task: str) -> tuple[Any, ...]:
    """The outputs of the chosen task shown and the other's hidden; the editor's label and the button say what
    the page reads and does. (The Agreement task's own outputs: `agreement_shown`.)"""
    two = task == texts.TWO_SYSTEMS
    one = not two and task != texts.AGREEMENT
    return (
        gr.update(visible=one),  # the summary table
        gr.update(visible=two),  # the comparison table
        gr.update(visible=one),  # scenarios, pictures, sentences, per type
        gr.update(visible=two),  # the comparison's explanation and picture
        gr.update(label=texts.LABELS.get(task, texts.ONE_SYSTEM_LABEL)),
        gr.update(value="Compare" if two else "Measure agreement" if task == texts.AGREEMENT else "Evaluate"),
    )


def agreement_shown(task: str) -> Any:
    """The Agreement task's tables, picture and explanation, shown for that task alone."""
    return gr.update(visible=task == texts.AGREEMENT)


def agreement_run(
    text: str, scheme: str = "IOB2", mode: str = "lenient", task: str = texts.AGREEMENT, *_: Any
) -> tuple[Any, ...]:
    """The Agreement task's outputs (space/agreement.py): the status, the pairs', coefficients' and
    disagreements' tables and the pairwise F1 heatmap; for any other task, left as they are (`run_page` answers)."""
    if task != texts.AGREEMENT:
        return (gr.skip(),) * 5
    return agreement.agreement_page(text, scheme, mode)


def agreement_example_inputs() -> tuple[str, str, str]:
    """The editor's text, scheme and mode for the Agreement task's example button."""
    return texts.AGREEMENT_EXAMPLE, "IOB2", "lenient"


def agreement_upload(path: str | None, scheme: str, mode: str, task: str, *_: Any) -> tuple[Any, ...]:
    """`agreement_run` of an uploaded file (`upload_page` puts a text file in the editor), or of a ZIP archive of
    the annotators' files (BRAT folders, doccano's export: `agreement.upload_page`), or a message."""
    if task != texts.AGREEMENT:
        return (gr.skip(),) * 5
    return agreement.upload_page(path, scheme, mode)


def slices_shown(task: str) -> Any:
    """The slices picture, which only one system's CoNLL input fills, shown for that task alone: an empty box
    under the spans' tables would look broken."""
    return gr.update(visible=task == texts.ONE_SYSTEM)


def tag_controls(task: str) -> tuple[Any, Any]:
    """The scheme and mode controls, which describe tags: disabled for spans (the metric refuses them there)."""
    tags = task != texts.SPANS
    return gr.update(interactive=tags), gr.update(interactive=tags)


def task_view(task: str) -> tuple[Any, ...]:
    """Everything the task control sets besides the answer, in one event: `show_task`'s six updates, then
    `tag_controls`' two, then `slices_shown`'s."""
    return (*show_task(task), *tag_controls(task), slices_shown(task))


@functools.cache
def first_answer() -> answers.PageAnswer:
    """What the page shows when it opens, the worked example's answer: computed once, when the page is built (the
    pictures drawn and encoded then too), and sent with the page, so that a visitor sees the scores as soon as
    the page is drawn, without a request of its own."""
    answer = answers.page_answer(texts.WORKED_EXAMPLE)
    for picture in answer.pictures.values():
        figures.png_url(picture)
    return answer


# The outputs of `task_view`, by name, in its order.
VIEW_OUTPUTS = ("summary", "comparison", "one_system", "two_systems", "text", "button", "scheme", "mode", "slices")


def _with_view(shown: Any, view: dict[str, Any]) -> dict[str, Any]:
    """An output's value (or update) and its view's update (visibility, label, interactivity) as one update."""
    if isinstance(shown, dict) and shown.get("__type__") == "update":
        return {**shown, **view}
    return {**view, "value": shown}


def example_steps(index: int, value: str = texts.NO_VALUE, shown_task: str | None = None) -> Iterator[tuple[Any, ...]]:
    """An example clicked (its index in `texts.EXAMPLES`; `shown_task`, the task the page shows): its inputs set,
    with the first step of its answer, then the pictures (`answer_steps`); `EXAMPLE_OUTPUTS` then the page's. One
    event, where gr.Examples takes two (set the inputs, then run) and resets each input's other properties to
    those it was built with, so that a spans example clicked in spans mode left "CoNLL input" over JSON lines.
    An example of another task shows that task's outputs and controls (`task_view`) in the same step as the
    values, so that a table shown by the example never receives its value while hidden (the comparison table, so
    filled, lost its headers now and then); an example of the task shown leaves them as they are (redrawing them
    costs the browser as much as the answer)."""
    text, scheme, mode, task = texts.EXAMPLES[index]
    skip = gr.skip()
    first, second = answer_steps(answers.page_answer(text, scheme, mode, task, value))
    shown = dict(zip(answers.PAGE_OUTPUTS, first))
    inputs = [text, scheme, mode]
    view = dict.fromkeys(VIEW_OUTPUTS, skip)
    if task != shown_task:
        view = dict(zip(VIEW_OUTPUTS, task_view(task)))
        for name in ("summary", "comparison", "slices"):
            shown[name] = _with_view(shown[name], view[name])
        inputs = [_with_view(text, view["text"]), _with_view(scheme, view["scheme"]), _with_view(mode, view["mode"])]
    yield (*inputs, task, view["one_system"], view["two_systems"], view["button"], *shown.values())
    yield (*(skip for _ in EXAMPLE_OUTPUTS), *second)


# What an example's event sets besides the page's outputs (example_steps).
EXAMPLE_OUTPUTS = ("text", "scheme", "mode", "task", "one_system", "two_systems", "button")


def example_size(index: int) -> int:
    """The bytes of an example's text, for its lane."""
    return lanes.request_size(texts.EXAMPLES[index][0])


def switch_task(text: str, task: str) -> tuple[Any, Any, Any]:
    """The editor's text, scheme and mode when the task changes: an example of one task, left as it was, becomes
    an example of the other (so that the switch shows a result, not a message about columns); anything else is
    kept as it is. (The editor sends its text without the examples' last line break.)"""
    text = text.rstrip() if isinstance(text, str) else text
    one_system_examples = {
        example.rstrip() for example in (texts.WORKED_EXAMPLE, texts.ENGLISH_EXAMPLE, texts.IOBES_EXAMPLE)
    }
    examples = {
        texts.ONE_SYSTEM: texts.WORKED_EXAMPLE,
        texts.TWO_SYSTEMS: texts.COMPARE_EXAMPLE,
        texts.SPANS: texts.SPANS_EXAMPLE,
    }
    example_of = dict.fromkeys(one_system_examples, texts.ONE_SYSTEM)
    example_of |= {texts.COMPARE_EXAMPLE.rstrip(): texts.TWO_SYSTEMS, texts.SPANS_EXAMPLE.rstrip(): texts.SPANS}
    example_of[texts.STRINGS_EXAMPLE.rstrip()] = texts.SPANS
    examples[texts.AGREEMENT] = texts.AGREEMENT_EXAMPLE
    example_of[texts.AGREEMENT_EXAMPLE.rstrip()] = texts.AGREEMENT
    if text in example_of and example_of[text] != task and task in examples:
        return examples[task], "IOB2", "lenient"
    return gr.skip(), gr.skip(), gr.skip()


def in_lane(
    lane_of: lanes.Lanes,
    answer: Callable[..., Any],
    busy: Callable[..., Any],
    size: Callable[[Any], int] = lanes.request_size,
) -> Callable[..., Any]:
    """`answer` run in the lane of its request (`size` of its first argument: the text, or an upload's path);
    when that lane is full, `busy(message, *arguments)` instead. The signature stays `answer`'s, which Gradio
    reads for the endpoint's parameters."""

    @functools.wraps(answer)
    def run(*arguments: Any) -> Any:
        try:
            return lane_of.run(size(arguments[0] if arguments else None), answer, *arguments)
        except lanes.Busy as full:
            return busy(str(full), *arguments)

    return run


def steps_in_lane(
    lane_of: lanes.Lanes,
    steps: Callable[..., Iterator[Any]],
    busy: Callable[..., Any],
    size: Callable[[Any], int] = lanes.request_size,
) -> Callable[..., Iterator[Any]]:
    """`in_lane` for an answer given in steps (a generator, which Gradio streams): the lane is held until the last
    step, and a full lane answers `busy(message, *arguments)` as the one step."""

    @functools.wraps(steps)
    def run(*arguments: Any) -> Iterator[Any]:
        lane = lane_of.lane_for(size(arguments[0] if arguments else None))
        try:
            lane.enter()
        except lanes.Busy as full:
            yield busy(str(full), *arguments)
            return
        try:
            yield from steps(*arguments)
        finally:
            lane.leave()

    return run


def upload_size(path: str | None) -> int:
    """The bytes of an uploaded file (0 for none: `upload_page` answers that at once)."""
    try:
        return os.path.getsize(path) if path else 0
    except OSError:
        return 0


def build_demo(lane_of: lanes.Lanes | None = None) -> gr.Blocks:
    """The page: input and summary side by side, then the scenario table, the sentences and the explanation; or,
    comparing two systems, input and comparison table side by side, then the picture of the differences. Its
    requests run in `lane_of` (new lanes when not given)."""
    lane_of = lane_of or lanes.Lanes()
    first = first_answer()
    shown = first.tables | {name: plot(picture) for name, picture in first.pictures.items()}
    with gr.Blocks(title="ner_semeval: SemEval-2013 NER scores") as demo:
        gr.Markdown(texts.INTRODUCTION)
        with gr.Row():
            with gr.Column(scale=5, min_width=320):
                # What the page does, and so how it reads the columns: chosen here, never guessed from their
                # number (CoNLL files often carry part-of-speech and chunk columns).
                task = gr.Radio(texts.TASKS, value=texts.ONE_SYSTEM, show_label=False, elem_id="task")
                # A code editor rather than a text box: monospace columns and line numbers that match the
                # line numbers of the error messages.
                text = gr.Code(
                    value=texts.WORKED_EXAMPLE,
                    language=None,
                    label=texts.ONE_SYSTEM_LABEL,
                    interactive=True,
                    lines=13,
                    max_lines=13,
                    # Long lines (a JSON line of spans) wrap rather than run off to the right; each line keeps its
                    # one number, which the error messages name.
                    wrap_lines=True,
                    elem_id="conll-input",
                )
                with gr.Row():
                    scheme = gr.Dropdown(texts.SCHEME_NAMES, value="IOB2", label="Tagging scheme", elem_id="scheme")
                    mode = gr.Radio(texts.MODES, value="lenient", label="Mode", elem_id="mode")
                    # docs/scoring.md §10: the ACE-style value score, shown with the summary when chosen.
                    value = gr.Dropdown(
                        texts.VALUE_CHOICES, value=texts.NO_VALUE, label="Value score (ACE)", elem_id="value"
                    )
                with gr.Row():
                    upload = gr.UploadButton("Upload a CoNLL file", size="md", elem_id="upload")
                    button = gr.Button("Evaluate", variant="primary", elem_id="evaluate")
            with gr.Column(scale=6, min_width=420):
                # Every output opens on the worked example's answer (first_answer): no request on page load.
                status = gr.Markdown(shown["status"], elem_id="status")
                summary = gr.Dataframe(
                    shown["summary"],
                    headers=frames.SUMMARY_HEADERS,
                    label="Summary: the four SemEval-2013 schemes",
                    interactive=False,
                    elem_id="summary",
                    max_height=420,
                )
                comparison = gr.Dataframe(
                    headers=frames.COMPARE_HEADERS,
                    label="System B against system A: B − A, its interval (low to high) and the p-value",
                    interactive=False,
                    elem_id="comparison",
                    max_height=520,
                    # Fixed shares, so that the eight columns fit the column beside the editor without scrolling.
                    column_widths=["12%", "15%", "11%", "11%", "13%", "12.5%", "12.5%", "13%"],
                    visible=False,
                )
                # The examples' buttons: one event sets the inputs and answers (example_steps), where gr.Examples
                # takes two and resets the editor's label.
                examples = gr.Dataset(
                    components=[text, scheme, mode, task],
                    samples=texts.EXAMPLES,
                    sample_labels=texts.EXAMPLE_LABELS,
                    type="index",
                    label="Examples",
                    elem_id="examples",
                )
        with gr.Column(elem_id="one-system") as one_system:
            scenarios = gr.Dataframe(
                shown["scenarios"],
                headers=frames.SCENARIO_HEADERS,
                label="Scenarios: one row per entity pair or unpaired entity, outcome under each scheme",
                interactive=False,
                wrap=True,
                elem_id="scenarios",
                max_height=480,
            )
            gr.Markdown(texts.PICTURES_TEXT)
            with gr.Row():
                with gr.Column(min_width=420):
                    heatmap = gr.Plot(
                        shown["heatmap"],
                        label="Confusion of entity types",
                        format="png",
                        show_label=False,
                        elem_id="heatmap",
                    )
                with gr.Column(min_width=420):
                    chart = gr.Plot(
                        shown["chart"], label="F1 per entity type", format="png", show_label=False, elem_id="type-chart"
                    )
            with gr.Row():
                with gr.Column(scale=2, min_width=260):
                    diagnostics = gr.Dataframe(
                        shown["diagnostics"],
                        headers=frames.DIAGNOSTICS_HEADERS,
                        label="Boundary diagnostics: pairs too long, too short or crossing; entities split or merged",
                        interactive=False,
                        elem_id="diagnostics",
                    )
                with gr.Column(scale=5, min_width=420):
                    errors = gr.Dataframe(
                        shown["errors"],
                        headers=frames.ERRORS_HEADERS,
                        label=f"The {caps.MAX_ERROR_ROWS} most frequent errors by entity text and type",
                        interactive=False,
                        wrap=True,
                        elem_id="errors",
                        max_height=480,
                    )
            # Not an output of /evaluate: only the page's own events (page_outputs) fill it, so API callers get
            # what they always got.
            slices_chart = gr.Plot(
                shown["slices"],
                label="F1 by entity length and sentence length",
                format="png",
                show_label=False,
                elem_id="slices",
            )
            gr.Markdown("### Sentences\nReference and predicted entities by type; hover an entity for its scenario.")
            sentences = gr.HTML(
                shown["sentences"], css_template=markup.SENTENCES_CSS, js_on_load=None, elem_id="sentences"
            )
            per_type = gr.Dataframe(
                shown["per_type"],
                headers=frames.TYPE_HEADERS,
                label="Per entity type, the most frequent first (support: reference entities of the type; "
                "predicted: predicted entities)",
                interactive=False,
                elem_id="per-type",
                max_height=480,
            )
        with gr.Row(elem_id="two-systems", visible=False) as two_systems:
            with gr.Column(scale=6, min_width=420):
                difference = gr.Plot(
                    label="F1 difference B − A per scheme", format="png", show_label=False, elem_id="difference"
                )
            with gr.Column(scale=5, min_width=320):
                gr.Markdown(texts.COMPARE_TEXT)
        # The Agreement task (space/agreement.py), shown for that task alone: the pairs across the page (eight
        # columns and the annotators' names), the coefficients and the explanation beside the heatmap.
        with gr.Column(elem_id="agreement", visible=False) as agreement_column:
            # The task's example, one click away (choosing the task on an untouched example loads it too).
            with gr.Row():
                with gr.Column(scale=5, min_width=320):
                    agreement_status = gr.Markdown(elem_id="agreement-status")
                with gr.Column(scale=1, min_width=200):
                    agreement_example = gr.Button(
                        texts.AGREEMENT_EXAMPLE_BUTTON, size="sm", variant="secondary", elem_id="agreement-example"
                    )
            agreement_pairs = gr.Dataframe(
                headers=agreement.PAIR_HEADERS,
                label="Pairs of annotators A and B (A as the reference): F1 per scheme, Cohen's κ on all units and "
                "on the labelled ones",
                interactive=False,
                elem_id="agreement-pairs",
                max_height=480,
                wrap=True,
            )
            with gr.Row():
                with gr.Column(scale=6, min_width=420):
                    agreement_coefficients = gr.Dataframe(
                        headers=agreement.COEFFICIENT_HEADERS,
                        label="All annotators: Fleiss' κ and Krippendorff's α, on all units and on the labelled ones",
                        interactive=False,
                        elem_id="agreement-coefficients",
                    )
                    gr.Markdown(texts.AGREEMENT_TEXT)
                with gr.Column(scale=5, min_width=420):
                    agreement_figure = gr.Plot(
                        label="Pairwise F1 per scheme", format="png", show_label=False, elem_id="agreement-heatmap"
                    )
            agreement_disagreements = gr.Dataframe(
                headers=agreement.DISAGREEMENT_HEADERS,
                label=f"The {caps.MAX_ERROR_ROWS} most frequent disagreements of all pairs, A's entity against B's",
                interactive=False,
                wrap=True,
                elem_id="agreement-disagreements",
                max_height=480,
            )
        gr.Markdown(texts.EXPLANATION)

        outputs = [status, scenarios, summary, per_type, sentences]
        # The page's outputs by name (answers.PAGE_OUTPUTS: a task that adds outputs names them there).
        named = {
            "status": status,
            "scenarios": scenarios,
            "summary": summary,
            "per_type": per_type,
            "sentences": sentences,
            "heatmap": heatmap,
            "chart": chart,
            "comparison": comparison,
            "difference": difference,
            "diagnostics": diagnostics,
            "errors": errors,
            "slices": slices_chart,
        }
        page_outputs = [named[name] for name in answers.PAGE_OUTPUTS]
        # /evaluate and /compare keep their three inputs: Gradio's HTTP API refuses a call with fewer values than
        # the event has inputs, defaults or not. The value control (docs/scoring.md §10) reaches the page's events.
        inputs = [text, scheme, mode]
        page_inputs = [*inputs, task, value]
        # Gradio starts every request that evaluates at once and the lanes decide which run (space/lanes.py):
        # an endpoint is one event, and one event has one queue, which cannot tell a small request from a large.
        pool = {"concurrency_limit": None}

        def busy_evaluation(message: str, *_: Any) -> answers.Outputs:
            return answers.empty_outputs(answers.error_message(message))

        def busy_comparison(message: str, *_: Any) -> tuple[str, Any]:
            return answers.error_message(message, "compare"), pd.DataFrame(columns=frames.COMPARE_HEADERS)

        def busy_run(
            message: str, text: str, scheme: str = "", mode: str = "", task: str = "", *_: Any
        ) -> tuple[Any, ...]:
            return busy_page(message, task)

        def busy_upload(
            message: str, path: Any, scheme: str = "", mode: str = "", task: str = "", *_: Any
        ) -> tuple[Any, ...]:
            return (gr.skip(), *busy_page(message, task))

        # The page's own events answer in two steps (page_steps): the tables at once, then the pictures.
        page = steps_in_lane(lane_of, page_steps, busy_run)

        def busy_example(message: str, index: int, *_: Any) -> tuple[Any, ...]:
            return (gr.skip(),) * len(EXAMPLE_OUTPUTS) + busy_page(message, texts.EXAMPLES[index][3])

        # The `/evaluate` API endpoint answers evaluate_text's five outputs, as it always has; it hangs on a
        # button that is never shown, so that the page's own events can add the pictures without evaluating
        # twice or changing what API callers get.
        api = gr.Button(visible=False, elem_id="evaluate-api")
        evaluate = in_lane(lane_of, answers.evaluate_text, busy_evaluation)
        api.click(evaluate, inputs=inputs, outputs=outputs, api_name="evaluate", **pool)
        # `/compare` (text, scheme, mode) answers compare_text's status and comparison table, on a hidden button too.
        compare_api = gr.Button(visible=False, elem_id="compare-api")
        compare = in_lane(lane_of, answers.compare_text, busy_comparison)
        compare_api.click(compare, inputs=inputs, outputs=[status, comparison], api_name="compare", **pool)
        # `/spans` (text) answers spans_text's five outputs, /evaluate's for JSON lines of spans.
        spans_api = gr.Button(visible=False, elem_id="spans-api")
        spans = in_lane(lane_of, answers.spans_text, busy_evaluation)
        spans_api.click(spans, inputs=[text], outputs=outputs, api_name="spans", **pool)
        # The button, examples and selectors evaluate (or compare) at once, pictures included; the page opens on
        # the worked example's answer, sent with it (first_answer).
        private = {"api_visibility": "private", **pool}
        button.click(page, inputs=page_inputs, outputs=page_outputs, **private)
        example = steps_in_lane(lane_of, example_steps, busy_example, example_size)
        example_outputs = [text, scheme, mode, task, one_system, two_systems, button, *page_outputs]
        examples.click(example, inputs=[examples, value, task], outputs=example_outputs, **private)
        scheme.input(page, inputs=page_inputs, outputs=page_outputs, **private)
        mode.input(page, inputs=page_inputs, outputs=page_outputs, **private)
        value.input(page, inputs=page_inputs, outputs=page_outputs, **private)
        upload_event = steps_in_lane(lane_of, upload_steps, busy_upload, upload_size)
        upload.upload(
            upload_event, inputs=[upload, scheme, mode, task, value], outputs=[text, *page_outputs], **private
        )
        # The task control shows its task's outputs (on a click, and when an example sets it), and a click runs
        # the task, on the other task's example when the editor holds an example of this one.
        view = [summary, comparison, one_system, two_systems, text, button, scheme, mode, slices_chart]
        task.change(task_view, inputs=task, outputs=view, api_visibility="private", queue=False)
        switched = task.input(
            switch_task, inputs=[text, task], outputs=[text, scheme, mode], api_visibility="private", queue=False
        ).then(page, inputs=page_inputs, outputs=page_outputs, **private)

        # The Agreement task answers on the page's triggers through its own event (run_page leaves its outputs),
        # and at `/agreement` (text, scheme, mode: status and the three tables), on a hidden button.
        task.change(agreement_shown, inputs=task, outputs=agreement_column, api_visibility="private", queue=False)
        # Its own status: two events writing the page's status at once leave Gradio's timer in it.
        agreement_outputs = [agreement_status, agreement_pairs, agreement_coefficients, agreement_disagreements]

        def busy_agreement(message: str, *_: Any) -> tuple[Any, ...]:
            return (*agreement.empty_text(answers.error_message(message, "measure agreement")), None)

        measure = in_lane(lane_of, agreement_run, busy_agreement)
        shown_outputs = [*agreement_outputs, agreement_figure]
        for trigger in (button.click, scheme.input, mode.input):
            trigger(measure, inputs=page_inputs, outputs=shown_outputs, **private)
        agreement_example.click(
            agreement_example_inputs, outputs=[text, scheme, mode], api_visibility="private", queue=False
        ).then(measure, inputs=page_inputs, outputs=shown_outputs, **private)
        switched.then(measure, inputs=page_inputs, outputs=shown_outputs, **private)
        measure_upload = in_lane(lane_of, agreement_upload, busy_agreement, upload_size)
        upload.upload(measure_upload, inputs=[upload, scheme, mode, task], outputs=shown_outputs, **private)
        agreement_api = gr.Button(visible=False, elem_id="agreement-api")
        agreement_endpoint = in_lane(lane_of, agreement.agreement_text, lambda message, *_: busy_agreement(message)[:4])
        agreement_api.click(agreement_endpoint, inputs=inputs, outputs=agreement_outputs, api_name="agreement", **pool)
    return demo


# The page's own style, which Gradio 6 takes at launch. Gradio sizes the editor by the height of its first line
# number, which a wrapped line makes several lines tall (a JSON line of spans made the editor 1,600 px high): the
# editor is held at the 14 lines' height Gradio gives it unwrapped (`lh`: the editor's own line height).
CSS = """
#conll-input .cm-scroller { min-height: 14lh !important; max-height: 14lh !important; }
"""
# How the page is launched, by `python app.py` and by the tests: with its style, uploads of at most 10 MB.
LAUNCH = {"max_file_size": "10mb", "css": CSS}

demo = build_demo()

if __name__ == "__main__":
    # Host and port come from GRADIO_SERVER_NAME / GRADIO_SERVER_PORT (default 127.0.0.1:7860).
    demo.launch(**LAUNCH)
