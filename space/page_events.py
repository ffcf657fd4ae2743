"""What the page's events answer (app.py wires them to its components): every output of the page for its inputs
(`run_page`), in two steps (`page_steps`: the tables at once, then the pictures, which are most of a request's
time), for an upload (`upload_steps`), an example clicked (`example_steps`: its inputs set and answered in one
event) and the task control (`task_view`: which outputs and controls each task shows; `switch_task`: an example of
one task becomes the other's). The page opens on the worked example's answer, sent with it (`first_answer`). The
Agreement task's own events are app.py's (`agreement_run`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from typing import Any

# Gradio reports usage to its servers unless told not to before it is imported; the Space makes no calls.
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"

import gradio as gr
from gradio.components.plot import PlotData

from . import answers, archives, lanes, parsing, pictures, texts


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


def plot(picture: pictures.Picture | None) -> PlotData | None:
    """A picture as the plot component takes it: its PNG encoded as Gradio would encode the figure, or the one
    encoded before for the same numbers (`pictures.png_url`)."""
    url = pictures.png_url(picture)
    return None if url is None else PlotData(type="matplotlib", plot=url)


def answer_steps(answer: answers.PageAnswer, *before: Any) -> Iterator[tuple[Any, ...]]:
    """`answer` as the page's events show it, in two steps: every output but the pictures at once (the pictures
    left as they are, under Gradio's progress mark, for the fraction of a second their drawing takes), then the
    pictures alone. The numbers never wait for the drawing, which is most of a request's time. Pictures drawn
    before for the same numbers (an example clicked again, the worked example) come in the first step, which is
    then the only one: a step costs the browser a round of Gradio's progress updates, and the pictures would wait
    for it. Outputs that the task hides are not sent (the browser's redrawing of the tables is most of what
    remains: about half the page's work for a click); each task's event fills every output it shows. `before`:
    values of outputs listed before the page's (the editor, for an upload), sent with the first step."""
    skip = gr.skip()
    tables = [name if name in answer.shown and name in answer.tables else None for name in answers.PAGE_OUTPUTS]
    drawn = [name if name in answer.shown and name in answer.pictures else None for name in answers.PAGE_OUTPUTS]
    first = [skip if name is None else answer.tables[name] for name in tables]
    if all(pictures.is_drawn(answer.pictures[name]) for name in drawn if name is not None):
        yield (*before, *(value if name is None else plot(answer.pictures[name]) for name, value in zip(drawn, first)))
        return
    yield (*before, *first)
    yield (*(skip for _ in before), *(skip if name is None else plot(answer.pictures[name]) for name in drawn))


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


def slices_shown(task: str) -> Any:
    """The slices picture, which only one system's CoNLL input fills, shown for that task alone: an empty box
    under the spans' tables would look broken."""
    return gr.update(visible=task == texts.ONE_SYSTEM)


def tag_controls(task: str) -> tuple[Any, Any]:
    """The scheme and mode controls, which describe tags: disabled for spans (the metric refuses them there)."""
    tags = task != texts.SPANS
    return gr.update(interactive=tags), gr.update(interactive=tags)


def value_control(task: str) -> Any:
    """The value score's control, disabled in the Agreement task, which has none (docs/scoring.md §10 scores a
    system against references): enabled there, it changed nothing."""
    return gr.update(interactive=task != texts.AGREEMENT)


def upload_shown(task: str) -> Any:
    """The upload button's label, what it reads for the task: a visitor of the Agreement task learns there that it
    takes a ZIP archive of the annotators' files."""
    return gr.update(label=texts.UPLOAD_LABELS.get(task, texts.UPLOAD_LABELS[texts.ONE_SYSTEM]))


def task_view(task: str) -> tuple[Any, ...]:
    """Everything the task control sets besides the answer, in one event: `show_task`'s six updates, then
    `tag_controls`' two, then `slices_shown`'s, then `upload_shown`'s."""
    return (*show_task(task), *tag_controls(task), slices_shown(task), upload_shown(task))


@functools.cache
def first_answer() -> answers.PageAnswer:
    """What the page shows when it opens, the worked example's answer: computed once, when the page is built (the
    pictures drawn and encoded then too), and sent with the page, so that a visitor sees the scores as soon as
    the page is drawn, without a request of its own."""
    answer = answers.page_answer(texts.WORKED_EXAMPLE)
    for picture in answer.pictures.values():
        pictures.png_url(picture)
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
    skip = gr.skip()
    if _example(index) is None:  # (a request may send any JSON as the index: the page's buttons send 0 to 4)
        status = answers.error_message("The request names no example of the page; choose one of its buttons.")
        yield (*(skip for _ in EXAMPLE_OUTPUTS), status, *(skip for _ in answers.PAGE_OUTPUTS[1:]))
        return
    text, scheme, mode, task = texts.EXAMPLES[index]
    steps = answer_steps(answers.page_answer(text, scheme, mode, task, value))
    shown = dict(zip(answers.PAGE_OUTPUTS, next(steps)))
    inputs = [text, scheme, mode]
    view = dict.fromkeys(VIEW_OUTPUTS, skip)
    if task != shown_task:
        view = dict(zip(VIEW_OUTPUTS, task_view(task)))
        for name in ("summary", "comparison", "slices"):
            shown[name] = _with_view(shown[name], view[name])
        inputs = [_with_view(text, view["text"]), _with_view(scheme, view["scheme"]), _with_view(mode, view["mode"])]
    yield (*inputs, task, view["one_system"], view["two_systems"], view["button"], *shown.values())
    for step in steps:  # the pictures, drawn once the first step is shown (none when drawn before)
        yield (*(skip for _ in EXAMPLE_OUTPUTS), *step)


# What an example's event sets besides the page's outputs (example_steps).
EXAMPLE_OUTPUTS = ("text", "scheme", "mode", "task", "one_system", "two_systems", "button")


def _example(index: Any) -> tuple[str, str, str, str] | None:
    """The example of the examples' buttons numbered `index` (from 0), or None for anything else."""
    is_index = isinstance(index, int) and not isinstance(index, bool)
    return texts.EXAMPLES[index] if is_index and 0 <= index < len(texts.EXAMPLES) else None


def example_size(index: int) -> int:
    """The bytes of an example's text, for its lane (0 for no example)."""
    example = _example(index)
    return 0 if example is None else lanes.request_size(example[0])


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
    # (a request may send any JSON as the text, a list or a dict among it: only text is an example)
    if isinstance(text, str) and text in example_of and example_of[text] != task and task in examples:
        return examples[task], "IOB2", "lenient"
    return gr.skip(), gr.skip(), gr.skip()
