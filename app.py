"""The ner_semeval Space: SemEval-2013 strict / exact / partial / type scores of the user's own sentences.

This file is the page: its layout, which event answers what, and the Agreement task's events. Everything shown is
computed by the package `nerscore`, and the rest lives in `space/` beside this file, each module one concern, each
importing only those before it: `caps` (every cap and limit), `texts` (the page's words and examples), `parsing`
(the input, read by the package's readers), `scoring` (the numbers, errors in the page's words), `writing` (tokens,
texts and numbers as the page writes them), `colours`, `frames` (the tables), `markup` (the highlighted
sentences), `pictures` (how pictures are drawn, encoded and kept), `figures` (the pictures), `answers` (what each
task answers), `archives` (an uploaded ZIP archive), `agreement` (the Agreement task), `lanes` (which requests run
at once), `turns` (which answer the page keeps: its latest action's) and `page_events` (what the page's events
answer).
`python app.py` serves the page on 127.0.0.1:7860 (`GRADIO_SERVER_NAME` / `GRADIO_SERVER_PORT` override).

A control on the page chooses what it does: evaluate one system (token, reference tag, predicted tag), compare two
(token, reference tag, system A's tag, system B's tag: the last three columns), or read spans (JSON lines, as the
command line's `--spans` reads them), or measure how far annotators agree (token, one tag per annotator; or a
Label Studio export: `space/agreement.py`, the `/agreement` endpoint). `answers.evaluate_text` is the `/evaluate`
API endpoint, `answers.compare_text` the `/compare` one and `answers.spans_text` the `/spans` one; the page's own
events answer `page_events.run_page`'s outputs, the pictures included, in two steps (`page_events.page_steps`):
the tables at once, then the pictures, which are most of a request's time (the Agreement task's own outputs:
`agreement_run`). The page opens on the worked example's answer, sent with it (`page_events.first_answer`), and an
example's click sets the inputs and answers in one event (`page_events.example_steps`).

The work and the answer of one request are bounded by what the page shows (`space/caps.py`): the tables, the
highlighted sentences and the pictures are capped (the page says what it left out), per-type scores are computed
only for the types shown, documents of spans whose pairing would cost more than the caps are refused, and every
request runs in a lane by its size (`space/lanes.py`), so that a small one never waits behind 1 MB ones. The page
ends on the answer of the visitor's latest action: an event overtaken by a newer action that writes the same
outputs leaves them as they are (`space/turns.py`).
"""

from __future__ import annotations

import functools
import os
from typing import Any

# Gradio reports usage to its servers unless told not to before it is imported; the Space makes no calls.
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"

import gradio as gr
import pandas as pd

from space import agreement, answers, caps, frames, lanes, markup, page_events, texts, turns
from space.lanes import in_lane, steps_in_lane, upload_size

# The groups of outputs that the page's actions write (space/turns.py): the editor and the controls (examples,
# uploads and the task control set them), the page's answer, the Agreement task's.
INPUTS, ANSWER, AGREEMENT = "inputs", "answer", "agreement"


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


def any_value(control: Any) -> Any:
    """`control` (a Radio or Dropdown) passing on whatever value a request sends. A client can send any value, not
    only the widget's choices, and Gradio refused one off them before the event ran, with an error of its own that
    quoted the whole value (2 MB for a 2 MB scheme) and a traceback in the server's log; the page's functions
    answer an unknown scheme or mode in their own words, the value shortened (space/answers.py)."""
    checked = control.preprocess

    def preprocess(payload: Any) -> Any:
        try:
            return checked(payload)
        except gr.Error:
            return payload

    control.preprocess = preprocess
    return control


def build_demo(lane_of: lanes.Lanes | None = None) -> gr.Blocks:
    """The page: input and summary side by side, then the scenario table, the sentences and the explanation; or,
    comparing two systems, input and comparison table side by side, then the picture of the differences. Its
    requests run in `lane_of` (new lanes when not given)."""
    lane_of = lane_of or lanes.Lanes()
    first = page_events.first_answer()
    shown = first.tables | {name: page_events.plot(picture) for name, picture in first.pictures.items()}
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
                    upload = gr.UploadButton(texts.UPLOAD_LABELS[texts.ONE_SYSTEM], size="md", elem_id="upload")
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
                # The examples' buttons: one event sets the inputs and answers (page_events.example_steps), where
                # gr.Examples takes two and resets the editor's label.
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
        gr.Markdown(texts.EXPLANATION, elem_id="explanation")

        # The endpoints' controls (the task and value controls feed the page's own events alone).
        for control in (scheme, mode):
            any_value(control)
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
            return page_events.busy_page(message, task)

        def busy_upload(
            message: str, path: Any, scheme: str = "", mode: str = "", task: str = "", *_: Any
        ) -> tuple[Any, ...]:
            return (gr.skip(), *page_events.busy_page(message, task))

        def busy_example(message: str, index: int, *_: Any) -> tuple[Any, ...]:
            return (gr.skip(),) * len(page_events.EXAMPLE_OUTPUTS) + page_events.busy_page(
                message, texts.EXAMPLES[index][3]
            )

        # Its own status: two events writing the page's status at once leave Gradio's timer in it.
        agreement_outputs = [agreement_status, agreement_pairs, agreement_coefficients, agreement_disagreements]

        def busy_agreement(message: str, *_: Any) -> tuple[Any, ...]:
            return (*agreement.empty_text(answers.error_message(message, "measure agreement")), None)

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
        # `/agreement` (text, scheme, mode: status and the three tables), on a hidden button.
        agreement_api = gr.Button(visible=False, elem_id="agreement-api")
        agreement_endpoint = in_lane(lane_of, agreement.agreement_text, lambda message, *_: busy_agreement(message)[:4])
        agreement_api.click(agreement_endpoint, inputs=inputs, outputs=agreement_outputs, api_name="agreement", **pool)

        # The page's own events: the button, examples and controls evaluate (or compare) at once, pictures
        # included, in two steps (page_events.page_steps: the tables, then the pictures); the page opens on the
        # worked example's answer, sent with it (page_events.first_answer).
        # A trigger of an event while its last run still runs (the pictures being drawn, the Agreement task's
        # measurement) answers once that run ends, on the inputs as they are then: Gradio's "always_last". Its
        # default, "once", dropped the trigger, and the page kept the answer of the inputs before the edit.
        # (Gradio keeps one deferred trigger per event, so a burst of clicks answers twice at most.)
        page_event = {"api_visibility": "private", "trigger_mode": "always_last"}
        queued = {**page_event, **pool}
        # Gradio marks the outputs of a running event with its progress (a status tracker over each, its timer
        # redrawn every frame) and, at each of the event's messages, copies every output it ever marked, and
        # everything inside a marked column: that was most of the browser's work for a click (the worked example's
        # button: 1.64 s of page CPU before, 0.97 s after, at load 9-10; benchmarks/README.md). The progress shows
        # where the visitor looks for the answer, the status and the pictures (drawn last, left as they are
        # meanwhile); the tables change at once, without a mark. An example and an upload keep it over the
        # controls they set, as when all their outputs were marked: a visitor cannot act on the inputs before
        # they are set (an edit or a click there would be answered on the old inputs, space/turns.py).
        marked = [status, heatmap, chart, slices_chart, difference]
        marked_answer = {**queued, "show_progress_on": marked}
        marked_example = {**queued, "show_progress_on": [text, scheme, mode, task, button, *marked]}
        marked_upload = {**queued, "show_progress_on": [text, *marked]}
        marked_measure = {**queued, "show_progress_on": [agreement_status, agreement_figure]}
        # An instant event answers before a mark could be seen: none, and none kept (on its trigger alone).
        instant = {**page_event, "queue": False, "show_progress": "hidden"}
        # "always_last" orders the runs of one event only: different events that write the same outputs (an
        # example clicked, then the mode changed before its answer came) race, and the first started could finish
        # last over the newer answer. Each of the page's actions takes a turn in the session's Turns (a gr.State,
        # the same object for every event of a session: space/turns.py); an event that a newer action writing
        # the same outputs (INPUTS, ANSWER, AGREEMENT) overtook leaves them as they are.
        session = gr.State(turns.Turns())
        skip = gr.skip()
        example_outputs = [text, scheme, mode, task, one_system, two_systems, button, *page_outputs]
        shown_outputs = [*agreement_outputs, agreement_figure]
        with_turns = [*page_inputs, session]

        def page(chain: str, takes: tuple[str, ...] = ()) -> Any:
            """The page's answer (run_page's outputs, in steps) as an event of `chain`; `takes`: the action's first."""
            steps = functools.partial(steps_in_lane, lane_of, busy=busy_run)
            return turns.answering(page_events.page_steps, chain, [ANSWER], (skip,) * len(page_outputs), takes, steps)

        def measure(chain: str, run: Any = agreement_run, size: Any = lanes.request_size) -> Any:
            """The Agreement task's measurement (agreement_run: left alone by the other tasks) after `chain`'s
            first event. It follows that event (`.then`) rather than listening to the trigger beside it: a
            deferred trigger runs again every event of its trigger, and two events of one trigger, each deferred
            while the other ran, would run each other again in turn; a `.then` runs again only itself."""
            lane = functools.partial(in_lane, lane_of, busy=busy_agreement, size=size)
            return turns.answering(run, chain, [AGREEMENT], (skip,) * len(shown_outputs), within=lane)

        everything = (INPUTS, ANSWER, AGREEMENT)
        for chain, trigger in (("evaluate", button.click), ("scheme", scheme.input), ("mode", mode.input)):
            answered = trigger(
                page(chain, (ANSWER, AGREEMENT)), inputs=with_turns, outputs=page_outputs, **marked_answer
            )
            answered.then(measure(chain), inputs=with_turns, outputs=shown_outputs, **marked_measure)
        value.input(page("value", (ANSWER,)), inputs=with_turns, outputs=page_outputs, **marked_answer)
        # An example's click sets the inputs and answers in one event (page_events.example_steps).
        example = turns.answering(
            page_events.example_steps,
            "example",
            [INPUTS, ANSWER],
            (skip,) * len(example_outputs),
            (INPUTS, ANSWER),
            functools.partial(steps_in_lane, lane_of, busy=busy_example, size=page_events.example_size),
        )
        examples.click(example, inputs=[examples, value, task, session], outputs=example_outputs, **marked_example)
        upload_event = turns.answering(
            page_events.upload_steps,
            "upload",
            [INPUTS, ANSWER],
            (skip,) * (1 + len(page_outputs)),
            everything,
            functools.partial(steps_in_lane, lane_of, busy=busy_upload, size=upload_size),
        )
        upload_inputs = [upload, scheme, mode, task, value, session]
        uploaded = upload.upload(upload_event, inputs=upload_inputs, outputs=[text, *page_outputs], **marked_upload)
        uploaded.then(
            measure("upload", agreement_upload, upload_size),
            inputs=upload_inputs,
            outputs=shown_outputs,
            **marked_measure,
        )
        # The task control shows its task's outputs (on a click, and when an example sets it), and a click runs
        # the task, on the other task's example when the editor holds an example of this one.
        view = [summary, comparison, one_system, two_systems, text, button, scheme, mode, slices_chart, upload]
        task.change(page_events.task_view, inputs=task, outputs=view, show_progress_on=task, **instant)
        task.change(page_events.value_control, inputs=task, outputs=value, show_progress_on=task, **instant)
        switch = turns.answering(page_events.switch_task, "task", [INPUTS], (skip,) * 3, everything)
        switched = task.input(
            switch, inputs=[text, task, session], outputs=[text, scheme, mode], show_progress_on=task, **instant
        )
        switched.then(page("task"), inputs=with_turns, outputs=page_outputs, **marked_answer)
        switched.then(measure("task"), inputs=with_turns, outputs=shown_outputs, **marked_measure)

        # The Agreement task answers on the page's triggers through its own event (run_page leaves its outputs),
        # and at `/agreement`; its own example is one click away.
        task.change(agreement_shown, inputs=task, outputs=agreement_column, show_progress_on=task, **instant)
        example_inputs = turns.answering(
            agreement_example_inputs, "agreement-example", [INPUTS], (skip,) * 3, (INPUTS, AGREEMENT)
        )
        agreement_example.click(
            example_inputs,
            inputs=[session],
            outputs=[text, scheme, mode],
            show_progress_on=agreement_example,
            **instant,
        ).then(measure("agreement-example"), inputs=with_turns, outputs=shown_outputs, **marked_measure)
    return demo


# The page's own style, which Gradio 6 takes at launch. Gradio sizes the editor by the height of its first line
# number, which a wrapped line makes several lines tall (a JSON line of spans made the editor 1,600 px high): the
# editor is held at the 14 lines' height Gradio gives it unwrapped (`lh`: the editor's own line height).
# The editor's label, as long as a JSON line's keys for spans, wraps before the download and copy buttons in its
# top right corner (about 50 px), which hid its words under them. The explanation's table of scenarios keeps its
# words whole on a phone and scrolls if it must (Gradio breaks a cell's text anywhere: "COR" stood letter by letter),
# its own frame left to its cells.
# A picture with nothing to draw (no entity, input that cannot be read) is left out, not shown as an empty frame
# with Gradio's placeholder icon.
# The comparison's eight columns take fixed shares of the table's width, which on a phone (390 px) cut every cell
# ("+0.3664" read "+…"): the table is never narrower than its cells' text needs (640 px; the column beside the
# editor is wider on a desktop), and scrolls sideways in its own frame where the page is narrower, under its label.
CSS = """
#comparison .table-wrap { overflow-x: auto; }
#comparison .upload-container { min-width: 640px; }
#conll-input .cm-scroller { min-height: 14lh !important; max-height: 14lh !important; }
#conll-input [data-testid="block-label"] { max-width: calc(100% - 60px); }
#explanation table { display: block; overflow-x: auto; width: max-content; max-width: 100%; border: none; padding: 0; }
#explanation th, #explanation td { overflow-wrap: normal; word-break: normal; }
#heatmap:has(> .empty), #type-chart:has(> .empty), #slices:has(> .empty), #difference:has(> .empty),
#agreement-heatmap:has(> .empty) { display: none; }
"""
# How the page is launched, by `python app.py` and by the tests: with its style, uploads of at most 10 MB.
LAUNCH = {"max_file_size": "10mb", "css": CSS}

demo = build_demo()

if __name__ == "__main__":
    # Host and port come from GRADIO_SERVER_NAME / GRADIO_SERVER_PORT (default 127.0.0.1:7860).
    demo.launch(**LAUNCH)
