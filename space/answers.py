"""What the page answers for each task, as plain functions of the editor's text: a status in the page's words
(what was evaluated, what the tables leave out, or why nothing could be), then the tables, the drawings and the
pictures. Text that cannot be evaluated gets a status saying why and empty outputs, never an error.

`evaluate_text` is the `/evaluate` endpoint, `compare_text` the `/compare` endpoint and `spans_text` the `/spans`
endpoint; `evaluate_page`, `compare_page` and `spans_page` add what the page's own events show besides (the
pictures).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

import nerscore

from . import caps, figures, frames, markup, texts, writing
from .parsing import ComparedCorpus, Corpus, InputProblem, SpanCorpus, parse_comparison, parse_conll, parse_spans
from .pictures import Picture, draw
from .scoring import Evaluation, compare_corpus, evaluate_corpus, evaluate_spans, holds_strings

# `/evaluate`'s five outputs: status, scenario table (styled), summary, per-type table, highlighted sentences;
# then the page's two pictures, the confusion heatmap and the per-type F1 chart.
Outputs = tuple[str, Any, pd.DataFrame, pd.DataFrame, str]
PageOutputs = tuple[str, Any, pd.DataFrame, pd.DataFrame, str, Figure | None, Figure | None]


def empty_outputs(message: str) -> Outputs:
    """`/evaluate`'s five outputs with `message` as the status and nothing else."""
    return (
        message,
        pd.DataFrame(columns=frames.SCENARIO_HEADERS),
        pd.DataFrame(columns=frames.SUMMARY_HEADERS),
        pd.DataFrame(columns=frames.TYPE_HEADERS),
        "",
    )


def error_message(problem: str, action: str = "evaluate") -> str:
    """The status shown for input that cannot be evaluated (or compared; a long quoted line is shortened). A lone
    surrogate that a message quotes is written as its escape: the answer could not be sent with it."""
    problem = problem.encode("utf-8", "backslashreplace").decode("utf-8")
    # The package's words for its API are not the page's: a document's text is its line's "text" here.
    problem = problem.replace("offsets into texts=", 'offsets into the line\'s "text"')
    return f"⚠️ **Cannot {action}.** {writing.escape_markdown(writing.shorten(problem, caps.MAX_MESSAGE_CHARACTERS))}"


def _left_out(evaluation: Evaluation) -> str:
    """What the scenario and per-type tables leave out, if anything."""
    note = ""
    if len(evaluation.entities) > caps.MAX_TABLE_ROWS:
        note += f" The scenario table shows the first {caps.MAX_TABLE_ROWS:,} of {len(evaluation.entities):,} rows."
    if len(evaluation.entity_types) > caps.MAX_SHOWN_TYPES:
        note += (
            f" The per-type table shows the {caps.MAX_SHOWN_TYPES:,} most frequent of "
            f"{len(evaluation.entity_types):,} entity types."
        )
    return note


def _pictures_of(evaluation: Evaluation | None) -> dict[str, Picture | None]:
    """The confusion heatmap and the per-type F1 chart, not drawn yet; none without an entity."""
    if evaluation is None or not evaluation.entity_types:
        return {"heatmap": None, "chart": None}
    return {
        "heatmap": Picture(figures.heatmap_figure, figures.confusion_data(evaluation)),
        "chart": Picture(figures.type_chart_figure, figures.type_scores(evaluation)),
    }


def _slices_of(evaluation: Evaluation | None) -> Picture | None:
    """The slices picture (docs/scoring.md §11), not drawn yet; none without slices."""
    if evaluation is None or evaluation.slices is None:
        return None
    return Picture(figures.slices_figure, evaluation.slices)


def _pictures(evaluation: Evaluation) -> tuple[Figure | None, Figure | None]:
    """The confusion heatmap and the per-type F1 chart; none without an entity."""
    pictures = _pictures_of(evaluation)
    return draw(pictures["heatmap"]), draw(pictures["chart"])


# ---------------------------------------------------------------------------------------------------------
# One system
# ---------------------------------------------------------------------------------------------------------


def status_text(evaluation: Evaluation, corpus: Corpus, scheme: str, mode: str) -> str:
    """What was evaluated, and what the tables leave out."""
    results = evaluation.results
    tokens = writing.count(sum(map(len, corpus.tokens)), "token")
    status = (
        f"Evaluated {writing.count(len(corpus.tokens), 'sentence')} ({tokens}): "
        f"{results['strict_possible']:,} reference and {writing.count(results['strict_actual'], 'predicted entity')}, "
        f"{scheme}, {mode} mode."
    )
    return status + _value_note(results) + _left_out(evaluation)


def _value_note(results: dict[str, Any]) -> str:
    """The value score in words, when the value control asks for it (docs/scoring.md §10)."""
    if "value" not in results:
        return ""
    numbers = ", ".join(
        f"{name} {writing.format_number(results[key])}"
        for name, key in (("precision", "value_precision"), ("recall", "value_recall"), ("F1", "value_f1"))
    )
    return f" Value {writing.format_number(results['value'])} ({numbers}), by its own pairing."


def _evaluate(text: str, scheme: str, mode: str, value: str | None = None) -> tuple[Outputs, Evaluation | None]:
    try:
        corpus = parse_conll("" if text is None else text)
        evaluation = evaluate_corpus(corpus, scheme, mode, value)
    except InputProblem as problem:
        return empty_outputs(error_message(str(problem))), None
    outputs = (
        status_text(evaluation, corpus, scheme, mode),
        frames.style_scenarios(frames.scenario_frame(evaluation, corpus)),
        frames.summary_frame(evaluation.results),
        frames.per_type_frame(evaluation),
        markup.sentences_html(evaluation, corpus),
    )
    return outputs, evaluation


def evaluate_text(text: str, scheme: str = "IOB2", mode: str = "lenient", value: str = "off") -> Outputs:
    """Everything the `/evaluate` endpoint answers for CoNLL `text`: status, scenario table (styled), summary
    table, per-type table, highlighted sentences; with `value` ("ace08" or "default weights") the value score in
    the status and a value row in the summary. Any text that cannot be evaluated gives a status saying why and
    empty tables, never an error."""
    return _evaluate(text, scheme, mode, value)[0]


def evaluate_page(text: str, scheme: str = "IOB2", mode: str = "lenient", value: str = "off") -> PageOutputs:
    """What the page's own events show: `evaluate_text`'s five outputs, then the confusion heatmap and the
    per-type F1 chart (none when the input cannot be evaluated or holds no entity)."""
    return evaluate_page_and_slices(text, scheme, mode, value)[0]


def evaluate_page_and_slices(
    text: str, scheme: str = "IOB2", mode: str = "lenient", value: str = "off"
) -> tuple[PageOutputs, Figure | None]:
    """`evaluate_page`'s seven outputs and the slices picture, F1 per bucket of entity length and sentence
    length (docs/scoring.md §11; none without a result), from one scoring of the text."""
    outputs, evaluation = _evaluate(text, scheme, mode, value)
    if evaluation is None:
        return (*outputs, None, None), None
    return (*outputs, *_pictures(evaluation)), draw(_slices_of(evaluation))


def findings_frames(evaluation: Evaluation | None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The page's tables of the boundary diagnostics and of the most frequent errors (docs/scoring.md §11),
    empty without an evaluation."""
    results = {} if evaluation is None else evaluation.results
    return frames.diagnostics_frame(results), frames.errors_frame(results)


# ---------------------------------------------------------------------------------------------------------
# Two systems compared
# ---------------------------------------------------------------------------------------------------------


def comparison_status(corpus: ComparedCorpus, scheme: str, mode: str) -> str:
    """What was compared, and how (the command line's `--compare` header in the page's words), and what was
    resampled: sentences, or the documents that -DOCSTART- lines mark."""
    status = (
        f"Compared systems A and B on {writing.count(len(corpus.tokens), 'sentence')} "
        f"({writing.count(sum(map(len, corpus.tokens)), 'token')}), {scheme}, {mode} mode. B − A: "
        f"{caps.COMPARE_CONFIDENCE_LEVEL:.0%} paired bootstrap interval (BCa) and two-sided approximate "
        f"randomization p-value, {caps.COMPARE_RESAMPLES:,} resamples, seed {caps.COMPARE_SEED}."
    )
    if corpus.documents is not None:
        documents = writing.count(len(set(corpus.documents)), "document")
        status += f" Resampled and swapped: whole documents, {documents} (`-DOCSTART-` lines)."
    return status


def _compare(text: str, scheme: str, mode: str, value: str | None = None) -> tuple[str, Any, dict[str, float] | None]:
    try:
        corpus = parse_comparison("" if text is None else text)
        results = compare_corpus(corpus, scheme, mode, value)
    except InputProblem as problem:
        return error_message(str(problem), "compare"), pd.DataFrame(columns=frames.COMPARE_HEADERS), None
    return comparison_status(corpus, scheme, mode), frames.style_comparison(frames.comparison_frame(results)), results


def compare_text(text: str, scheme: str = "IOB2", mode: str = "lenient", value: str = "off") -> tuple[str, Any]:
    """What the `/compare` endpoint answers for CoNLL `text` of two systems (token, reference, A, B): the status
    and the comparison table (the metric's floats, shown formatted and tinted), with `value` its value rows too.
    Any text that cannot be compared gives a status saying why and an empty table, never an error."""
    status, table, _ = _compare(text, scheme, mode, value)
    return status, table


def compare_page(
    text: str, scheme: str = "IOB2", mode: str = "lenient", value: str = "off"
) -> tuple[str, Any, Figure | None]:
    """`compare_text`'s two outputs and the picture of each scheme's F1 difference (none without a result)."""
    status, table, results = _compare(text, scheme, mode, value)
    return status, table, draw(_difference_of(results))


def _difference_of(results: dict[str, float] | None) -> Picture | None:
    """The picture of each scheme's F1 difference, not drawn yet, from the keys it reads; none without a result."""
    if results is None:
        return None
    return Picture(figures.difference_figure, figures.difference_data(results))


# ---------------------------------------------------------------------------------------------------------
# Spans: JSON lines as the command line's --spans reads them
# ---------------------------------------------------------------------------------------------------------


# A side's form of entities with offsets, as `nerscore.side_forms` names it.
SPAN_FORM = "spans"
# How the status says the entities were given: as offsets, or as strings found in the text (docs/scoring.md §1b).
OFFSETS = "character offsets, end exclusive"
FOUND_STRINGS = "strings found in each document's text, not given as offsets"


def _given_as(corpus: SpanCorpus) -> str:
    """How the entities were given, for the status: offsets, or strings found in the text (grounded), side by side
    when one side is strings and the other offsets."""
    if not holds_strings(corpus):
        return OFFSETS
    forms = nerscore.side_forms(corpus.predictions, corpus.references)
    if SPAN_FORM not in forms:
        return FOUND_STRINGS
    reference_form, _ = forms
    if reference_form == SPAN_FORM:
        return f"references as {OFFSETS}, predictions as strings found in each document's text"
    return f"references as strings found in each document's text, predictions as {OFFSETS}"


def spans_status(evaluation: Evaluation, corpus: SpanCorpus) -> str:
    """What was evaluated, and what the tables leave out."""
    results = evaluation.results
    without_text = sum(text is None for text in corpus.texts)
    strings = holds_strings(corpus)
    status = (
        f"Evaluated {writing.count(len(corpus.lines), 'document')} of {'strings' if strings else 'spans'}: "
        f"{results['strict_possible']:,} reference and {writing.count(results['strict_actual'], 'predicted entity')} "
        f"({_given_as(corpus)}; scheme and mode describe tags and do not apply)."
    )
    if without_text:
        status += f" {writing.count(without_text, 'document')} without `text`: entities shown by their offsets."
    if strings:
        status += " Strings are highlighted where they were found."
        left = [
            # the visitor's type and string, shortened and escaped: the status is Markdown
            f"{writing.quoted(row['prediction']['type'])} "
            f"{writing.escape_markdown(repr(writing.shorten(row['prediction']['text'])))} "
            f"(line {corpus.lines[row['sentence']]})"
            for row in evaluation.entities
            if row["prediction"] is not None and row["prediction"]["start"] is None
        ]
        if left:
            listed = ", ".join(left[:10]) + (f" and {len(left) - 10:,} more" if len(left) > 10 else "")
            status += (
                f" {writing.count(len(left), 'prediction')} not found in the text (ungrounded, spurious): {listed}."
            )
    return status + _value_note(results) + _left_out(evaluation)


def _spans(text: str, value: str | None = None) -> tuple[Outputs, Evaluation | None]:
    try:
        corpus = parse_spans("" if text is None else text)
        evaluation = evaluate_spans(corpus, value)
    except InputProblem as problem:
        return empty_outputs(error_message(str(problem))), None
    outputs = (
        spans_status(evaluation, corpus),
        frames.style_scenarios(frames.span_scenario_frame(evaluation, corpus)),
        frames.summary_frame(evaluation.results),
        frames.per_type_frame(evaluation),
        markup.spans_html(evaluation, corpus),
    )
    return outputs, evaluation


def spans_text(text: str) -> Outputs:
    """Everything the `/spans` endpoint answers for JSON lines of spans: status, scenario table (styled), summary
    table, per-type table, highlighted documents, as `/evaluate` answers for tags. Any text that cannot be
    evaluated gives a status saying why (naming the line) and empty tables, never an error."""
    return _spans(text)[0]


def spans_page(text: str, value: str = "off") -> PageOutputs:
    """`evaluate_page`'s seven outputs for JSON lines of spans: `spans_text`'s five, then the heatmap and the
    chart."""
    outputs, evaluation = _spans(text, value)
    if evaluation is None:
        return (*outputs, None, None)
    return (*outputs, *_pictures(evaluation))


# ---------------------------------------------------------------------------------------------------------
# The page: every output by name, the tables at once and the pictures after
# ---------------------------------------------------------------------------------------------------------

# The page's outputs, in the order of its events' outputs (app.py): `/evaluate`'s five, the one-system pictures,
# the comparison's table and picture, the findings' tables, the slices picture.
PAGE_OUTPUTS = (
    "status",
    "scenarios",
    "summary",
    "per_type",
    "sentences",
    "heatmap",
    "chart",
    "comparison",
    "difference",
    "diagnostics",
    "errors",
    "slices",
)
# The outputs that are pictures: drawn after the others are shown.
PICTURE_OUTPUTS = ("heatmap", "chart", "difference", "slices")


def empty_page(status: str = "") -> dict[str, Any]:
    """Every output of the page empty, `status` as the status: what a task leaves of the outputs it does not fill,
    so that nothing stale stays behind them."""
    scenarios, summary, per_type, sentences = empty_outputs(status)[1:]
    diagnostics, errors = findings_frames(None)
    tables = {
        "status": status,
        "scenarios": scenarios,
        "summary": summary,
        "per_type": per_type,
        "sentences": sentences,
        "comparison": pd.DataFrame(columns=frames.COMPARE_HEADERS),
        "diagnostics": diagnostics,
        "errors": errors,
    }
    return tables | dict.fromkeys(PICTURE_OUTPUTS)


@dataclass(frozen=True)
class PageAnswer:
    """What the page shows for one request: `tables`, every output that is not a picture (status, tables,
    sentences), ready at once; `pictures`, every picture output as a `pictures.Picture` not drawn yet (None: no
    picture), so that the page shows the numbers without waiting for the drawing."""

    tables: dict[str, Any]
    pictures: dict[str, Picture | None]
    # The outputs the task shows (TASK_OUTPUTS): the page hides the others, which need not be sent.
    shown: tuple[str, ...] = PAGE_OUTPUTS

    def outputs(self) -> tuple[Any, ...]:
        """Every output in `PAGE_OUTPUTS`' order, the pictures drawn as figures."""
        drawn = {name: draw(picture) for name, picture in self.pictures.items()}
        return tuple((self.tables | drawn)[name] for name in PAGE_OUTPUTS)


def _page(tables: dict[str, Any], pictures: dict[str, Picture | None]) -> PageAnswer:
    """A task's outputs, the page's other outputs emptied."""
    empty = empty_page()
    return PageAnswer(
        {name: tables.get(name, empty[name]) for name in PAGE_OUTPUTS if name not in PICTURE_OUTPUTS},
        {name: pictures.get(name) for name in PICTURE_OUTPUTS},
    )


def one_system_answer(text: str, scheme: str = "IOB2", mode: str = "lenient", value: str = "off") -> PageAnswer:
    """One system's CoNLL text: `evaluate_page`'s seven outputs, the diagnostics and the errors tables and the
    slices picture, from one evaluation, as a `PageAnswer`."""
    outputs, evaluation = _evaluate(text, scheme, mode, value)
    diagnostics, errors = findings_frames(evaluation)
    tables = dict(zip(PAGE_OUTPUTS, outputs)) | {"diagnostics": diagnostics, "errors": errors}
    return _page(tables, _pictures_of(evaluation) | {"slices": _slices_of(evaluation)})


def comparison_answer(text: str, scheme: str = "IOB2", mode: str = "lenient", value: str = "off") -> PageAnswer:
    """Two systems' CoNLL text: `compare_page` as a `PageAnswer`."""
    status, table, results = _compare(text, scheme, mode, value)
    return _page({"status": status, "comparison": table}, {"difference": _difference_of(results)})


def spans_answer(text: str, scheme: str = "IOB2", mode: str = "lenient", value: str = "off") -> PageAnswer:
    """JSON lines of spans: `spans_page`'s seven outputs, then the diagnostics and the errors tables (the errors
    only when every document has its `text`), from one evaluation, as a `PageAnswer` (scheme and mode describe
    tags: unused)."""
    outputs, evaluation = _spans(text, value)
    diagnostics, errors = findings_frames(evaluation)
    tables = dict(zip(PAGE_OUTPUTS, outputs)) | {"diagnostics": diagnostics, "errors": errors}
    return _page(tables, _pictures_of(evaluation))


def agreement_pointer(text: str, scheme: str = "IOB2", mode: str = "lenient", value: str = "off") -> PageAnswer:
    """The Agreement task's answer among the page's outputs: its status says that the task's own outputs hold it
    (space/agreement.py answers there)."""
    return _page({"status": texts.AGREEMENT_STATUS}, {})


# The outputs each task shows; the page hides the others (app.show_task). A task added to the page adds its entry
# here and in PAGE_ANSWERS, and its outputs to PAGE_OUTPUTS.
TASK_OUTPUTS = {
    texts.ONE_SYSTEM: tuple(name for name in PAGE_OUTPUTS if name not in ("comparison", "difference")),
    texts.TWO_SYSTEMS: ("status", "comparison", "difference"),
    texts.SPANS: tuple(name for name in PAGE_OUTPUTS if name not in ("comparison", "difference", "slices")),
    # The Agreement task shows outputs of its own (space/agreement.py, app.agreement_run); the page's status
    # says where they are.
    texts.AGREEMENT: ("status",),
}

# What each task of the page answers (texts.TASKS).
PAGE_ANSWERS: dict[str, Callable[[str, str, str, str], PageAnswer]] = {
    texts.ONE_SYSTEM: one_system_answer,
    texts.TWO_SYSTEMS: comparison_answer,
    texts.SPANS: spans_answer,
    texts.AGREEMENT: agreement_pointer,
}


def page_answer(
    text: str, scheme: str = "IOB2", mode: str = "lenient", task: str = texts.ONE_SYSTEM, value: str = "off"
) -> PageAnswer:
    """What the page shows for its five inputs: the chosen task's outputs (one system's for an unknown task), the
    other tasks' emptied."""
    answer = PAGE_ANSWERS.get(task, one_system_answer)(text, scheme, mode, value)
    return replace(answer, shown=TASK_OUTPUTS.get(task, TASK_OUTPUTS[texts.ONE_SYSTEM]))
