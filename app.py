"""The ner_semeval Space: SemEval-2013 strict / exact / partial / type scores of the user's own sentences.

Everything shown is computed by the metric module (`ner_semeval.read_conll`, `compute_semeval` and
`summary_rows`); this file only parses the page's input, lays the results out and explains them. `python app.py`
serves the page on 127.0.0.1:7860 (`GRADIO_SERVER_NAME` / `GRADIO_SERVER_PORT` override); `evaluate_text` is the
whole computation as a plain function, and the Evaluate button is the `/evaluate` API endpoint.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Gradio reports usage to its servers unless told not to before it is imported; the Space makes no calls.
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"

import gradio as gr
import pandas as pd
from pandas.io.formats.style import Styler

import ner_semeval

MAX_BYTES = 1_000_000  # 1 MB of CoNLL text, typed or uploaded
MAX_SENTENCES = 10_000
MAX_TABLE_ROWS = 2_000  # scenario rows sent to the page; the scores always cover every sentence
MAX_SHOWN_SENTENCES = 100  # sentences drawn with their entities highlighted

SCHEME_NAMES = list(ner_semeval.SCHEMES)
MODES = list(ner_semeval.MODES)
# From the most lenient scheme to the strictest, as in the summary table.
SCHEME_COLUMNS = ner_semeval.SUMMARY_COLUMNS
SUMMARY_HEADERS = ["measure", *SCHEME_COLUMNS]
SCENARIO_HEADERS = [
    "sentence",
    "scenario",
    "reference type",
    "reference text",
    "predicted type",
    "predicted text",
    *SCHEME_COLUMNS,
]
TYPE_HEADERS = ["entity type", "scheme", "precision", "recall", "F1", "support", "predicted"]
NONE = "—"

OUTCOME_COLOURS = {
    "COR": "#c8ecd0",
    "INC": "#f8c9cc",
    "PAR": "#ffe7a3",
    "MIS": "#dcdde1",
    "SPU": "#d9d4f7",
}
TYPE_COLOURS = ("#bfe0ff", "#ffd8a8", "#c9f0c4", "#f4c6e6", "#fff0a0", "#d5ccff", "#b8ece6", "#f9cfc0")


# ---------------------------------------------------------------------------------------------------------
# Examples: one copy of each in examples/, shared with the README and docs/scoring.md
# ---------------------------------------------------------------------------------------------------------

EXAMPLES_DIRECTORY = Path(__file__).resolve().parent / "examples"
# The worked example of docs/scoring.md §6 (characters are tokens): its scenario rows come out in the order of
# that section's first table, III and II in sentences of their own.
WORKED_EXAMPLE = (EXAMPLES_DIRECTORY / "worked_example.conll").read_text(encoding="utf-8")
# The six scenarios in English: I Merkel, V Macron, IV Berlin; VI New York Times, III Apple, II Monday.
ENGLISH_EXAMPLE = (EXAMPLES_DIRECTORY / "english_example.conll").read_text(encoding="utf-8")
# IOBES: S-PER S-PER is two entities (V and II); in strict mode B-LOC I-LOC without E- is no entity (III).
IOBES_EXAMPLE = (EXAMPLES_DIRECTORY / "iobes_example.conll").read_text(encoding="utf-8")

EXAMPLES = [
    [WORKED_EXAMPLE, "IOB2", "lenient"],
    [ENGLISH_EXAMPLE, "IOB2", "lenient"],
    [IOBES_EXAMPLE, "IOBES", "strict"],
]
EXAMPLE_LABELS = [
    "Worked example (Chinese, one character per token)",
    "English: all six scenarios",
    "IOBES, strict mode: S-PER S-PER, and B-LOC I-LOC with no E-",
]

EXPLANATION = """
### How to read the results

Reference and predicted entities are decoded from the tags and paired one-to-one within each sentence
(identical boundaries first, then overlapping entities). Every pair or unpaired entity is one **scenario**:

| scenario | what happened | type | partial | exact | strict |
| --- | --- | --- | --- | --- | --- |
| I | same boundaries, same type | COR | COR | COR | COR |
| II | predicted entity with no reference (spurious) | SPU | SPU | SPU | SPU |
| III | reference entity not predicted (missed) | MIS | MIS | MIS | MIS |
| IV | same boundaries, other type | INC | COR | COR | INC |
| V | overlapping, other boundaries, same type | COR | PAR | INC | INC |
| VI | overlapping, other boundaries, other type | INC | PAR | INC | INC |

The four **schemes** read the scenarios differently:
- **strict**: boundaries and type must both match (conlleval's and seqeval's score);
- **exact**: boundaries must match, the type is ignored;
- **partial**: boundaries must overlap; an overlap with other boundaries earns half a point (PAR);
- **type**: the type must match and the entities overlap.

Counts are COR correct, INC incorrect, PAR partial, MIS missed, SPU spurious.
Precision = (COR + ½·PAR) / (COR + INC + PAR + SPU); recall = (COR + ½·PAR) / (COR + INC + PAR + MIS).
Per entity type, recall counts the reference entities of that type (their number is the *support*) and
precision the predicted ones, so a PER predicted as LOC is INC for PER's recall and for LOC's precision.

**Mode**: *lenient* decodes like conlleval (`O I-PER` still starts an entity); *strict* keeps only entities
whose tags are well formed in the scheme (IOB2 `B I*`, IOBES `S` or `B I* E`, ...), like seqeval's strict mode.
"""

INTRODUCTION = f"""
# ner_semeval: SemEval-2013 named-entity scores
Every reference and predicted entity falls into one of six scenarios, and four schemes (**strict, exact, partial,
type**) count them. Edit the sentences below, one token per line as **token, reference tag, predicted tag** with a
blank line between sentences, or upload a CoNLL file (at most {MAX_BYTES // 1_000_000} MB or {MAX_SENTENCES:,}
sentences). The page opens on the worked example of the metric's documentation (docs/scoring.md, §6).
"""


# ---------------------------------------------------------------------------------------------------------
# Parsing the page's input
# ---------------------------------------------------------------------------------------------------------


class InputProblem(ValueError):
    """Input the page cannot evaluate; the message says which line and what is wrong."""


@dataclass(frozen=True)
class Corpus:
    """The sentences of the input: tokens, reference tags, predicted tags and the line of every token."""

    tokens: list[list[str]]
    references: list[list[str]]
    predictions: list[list[str]]
    lines: list[list[int]]


# Line breaks as the page's editor counts them (str.splitlines also breaks at \f, \x1c, \u2028 ...), so the line
# numbers of messages match the editor's.
_LINE_BREAK = re.compile(r"\r\n?|\n")


def parse_conll(text: str) -> Corpus:
    """The sentences of CoNLL text, read by `ner_semeval.read_conll`; the token is the first column."""
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise InputProblem(
            f"The input holds {size:,} bytes; the page evaluates at most {MAX_BYTES:,} bytes (1 MB). "
            "Use `python ner_semeval.py FILE` for larger files."
        )
    corpus = Corpus([], [], [], [])
    try:
        for sentence in ner_semeval.read_conll(_LINE_BREAK.split(text), "input"):
            if len(corpus.tokens) == MAX_SENTENCES:
                raise InputProblem(
                    f"The input holds more than {MAX_SENTENCES:,} sentences (line {sentence.lines[0]} starts "
                    f"sentence {MAX_SENTENCES + 1:,}); the page evaluates at most {MAX_SENTENCES:,}. "
                    "Use `python ner_semeval.py FILE` for larger files."
                )
            corpus.tokens.append(sentence.tokens)
            corpus.references.append(sentence.references)
            corpus.predictions.append(sentence.predictions)
            corpus.lines.append(sentence.lines)
    except ner_semeval.ConllError as error:
        raise InputProblem(f"Line {error.line}: {error.problem}.") from None
    if not corpus.tokens:
        raise InputProblem("The input holds no sentences: write one token per line as `token reference predicted`.")
    return corpus


def _where(error: ner_semeval.InvalidInputError, corpus: Corpus) -> str:
    """Where a tag error is, in the page's terms: the editor's line, or the sentence as the tables number it
    (from 1, where the metric counts from 0)."""
    side = {"references": "reference tag (second-last column)", "predictions": "predicted tag (last column)"}
    column = side.get(error.side or "", "")
    if error.sentence is None:
        return column.capitalize()
    lines = corpus.lines[error.sentence]
    if error.token is not None:
        place = f"Line {lines[error.token]}"
    else:
        place = f"Sentence {error.sentence + 1} (lines {lines[0]}–{lines[-1]})"
    return f"{place}, {column}" if column else place


def evaluate_corpus(corpus: Corpus, scheme: str, mode: str) -> dict[str, Any]:
    """`ner_semeval.compute_semeval` of the corpus with entities and per-type keys; tag errors name the line and
    suggest a scheme from the page's menu."""
    try:
        return ner_semeval.compute_semeval(
            predictions=corpus.predictions,
            references=corpus.references,
            scheme=scheme,
            mode=mode,
            per_type=True,
            return_entities=True,
        )
    except ner_semeval.InvalidInputError as error:
        where = _where(error, corpus)
        problem = error.hint("choose {} in the Tagging scheme menu")
        raise InputProblem(f"{where}: {problem}." if where else f"{problem}.") from None
    except ValueError as error:
        raise InputProblem(str(error)) from None


# ---------------------------------------------------------------------------------------------------------
# Laying the results out
# ---------------------------------------------------------------------------------------------------------

_CJK = re.compile(r"^[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+$")


def join_segments(segments: Iterable[tuple[str, str, str]]) -> str:
    """Pieces of a sentence as text, each ``(first token, last token, text written)``: a space between two
    pieces unless the tokens on both sides of the gap are CJK (告 白 气 球 reads 告白气球). The one place that
    spaces tokens, for the tables' entity texts and the highlighted sentences alike."""
    parts: list[str] = []
    previous = None
    for first, last, text in segments:
        if previous is not None and not (_CJK.match(previous) and _CJK.match(first)):
            parts.append(" ")
        parts.append(text)
        previous = last
    return "".join(parts)


def join_tokens(tokens: Sequence[str]) -> str:
    """Tokens as text: spaces between words, none between two CJK tokens."""
    return join_segments((token, token, token) for token in tokens)


def format_number(value: int | float) -> str:
    """Counts as integers, scores with at most four decimals: 0.4, 0.3333, 1.0, 0.0."""
    if isinstance(value, int):
        return str(value)
    text = f"{value:.4f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def summary_frame(results: dict[str, Any]) -> pd.DataFrame:
    """The summary table of `ner_semeval.summary_rows`: MUC counts and scores (rows) by type / partial / exact
    / strict (columns), in the page's number format."""
    rows = [[label, *map(format_number, values)] for label, values in ner_semeval.summary_rows(results)]
    return pd.DataFrame(rows, columns=SUMMARY_HEADERS)


def entity_types(results: dict[str, Any]) -> list[str]:
    """The entity types on either side, sorted (the types `scores` reports)."""
    return sorted(
        {side["type"] for row in results["entities"] for side in (row["reference"], row["prediction"]) if side}
    )


def per_type_frame(results: dict[str, Any]) -> pd.DataFrame:
    """Per-type precision / recall / F1 under each scheme, with support (reference entities of the type)."""
    rows = []
    for entity_type in entity_types(results):
        for scheme in SCHEME_COLUMNS:
            key = f"{entity_type}_{scheme}"
            rows.append(
                [
                    entity_type,
                    scheme,
                    *(format_number(results[f"{key}_{m}"]) for m in ("precision", "recall", "f1")),
                    str(results[f"{key}_possible"]),
                    str(results[f"{key}_actual"]),
                ]
            )
    return pd.DataFrame(rows, columns=TYPE_HEADERS)


def scenario_frame(results: dict[str, Any], corpus: Corpus, limit: int | None = None) -> pd.DataFrame:
    """The worked example's first table for the input: one row per pair or unpaired entity with its scenario and
    four outcomes (the first `limit` rows, `MAX_TABLE_ROWS` by default)."""
    rows = []
    for row in results["entities"][: MAX_TABLE_ROWS if limit is None else limit]:
        tokens = corpus.tokens[row["sentence"]]
        cells = [str(row["sentence"] + 1), row["scenario"]]
        for side in (row["reference"], row["prediction"]):
            if side is None:
                cells += [NONE, NONE]
            else:
                cells += [side["type"], join_tokens(tokens[side["start"] : side["end"]])]
        cells += [row[scheme] for scheme in SCHEME_COLUMNS]
        rows.append(cells)
    return pd.DataFrame(rows, columns=SCENARIO_HEADERS)


def _outcome_style(value: str) -> str:
    colour = OUTCOME_COLOURS.get(value)
    return f"background-color: {colour}; color: #111111; font-weight: 600" if colour else ""


def style_scenarios(frame: pd.DataFrame) -> Styler:
    """The scenario table with each outcome cell coloured by COR / INC / PAR / MIS / SPU."""
    return frame.style.map(_outcome_style, subset=list(SCHEME_COLUMNS))


def _type_colours(results: dict[str, Any]) -> dict[str, str]:
    return {t: TYPE_COLOURS[i % len(TYPE_COLOURS)] for i, t in enumerate(entity_types(results))}


def _highlight(tokens: Sequence[str], spans: dict[int, tuple[int, str, str]], colours: dict[str, str]) -> str:
    """One sentence as HTML with each entity ``start -> (end, type, tooltip)`` marked, spaced by `join_segments`."""
    segments = []  # (first token, last token, HTML) of each entity and each token outside entities
    position = 0
    while position < len(tokens):
        if position in spans:
            end, entity_type, tooltip = spans[position]
            piece = (
                f'<mark style="background:{colours[entity_type]}" title="{html.escape(tooltip)}">'
                f"{html.escape(join_tokens(tokens[position:end]))}"
                f'<span class="entity-type">{html.escape(entity_type)}</span></mark>'
            )
        else:
            end = position + 1
            piece = html.escape(tokens[position])
        segments.append((tokens[position], tokens[end - 1], piece))
        position = end
    return join_segments(segments)


def sentences_html(results: dict[str, Any], corpus: Corpus, limit: int | None = None) -> str:
    """Each sentence twice, reference and prediction, with the entities highlighted by type (the first
    `limit` sentences, `MAX_SHOWN_SENTENCES` by default)."""
    limit = MAX_SHOWN_SENTENCES if limit is None else limit
    colours = _type_colours(results)
    sides: list[tuple[dict, dict]] = [({}, {}) for _ in corpus.tokens[:limit]]
    for row in results["entities"]:
        if row["sentence"] >= limit:
            break
        outcomes = ", ".join(f"{s} {row[s]}" for s in SCHEME_COLUMNS)
        tooltip = f"scenario {row['scenario']}: {outcomes}"
        for side, spans in zip((row["reference"], row["prediction"]), sides[row["sentence"]]):
            if side is not None:
                spans[side["start"]] = (side["end"], side["type"], tooltip)
    parts = []
    for index, (reference_spans, predicted_spans) in enumerate(sides):
        tokens = corpus.tokens[index]
        parts.append(
            f'<div class="sentence"><div class="number">{index + 1}</div><div>'
            f'<div class="side"><span class="side-name">reference</span> '
            f"{_highlight(tokens, reference_spans, colours)}</div>"
            f'<div class="side"><span class="side-name">predicted</span> '
            f"{_highlight(tokens, predicted_spans, colours)}</div></div></div>"
        )
    if len(corpus.tokens) > limit:
        parts.append(f"<p>The first {limit} of {len(corpus.tokens):,} sentences are shown; the scores cover all.</p>")
    return "\n".join(parts)


SENTENCES_CSS = """
.sentence { display: flex; gap: 0.75em; padding: 0.4em 0; border-bottom: 1px solid #e5e7eb; line-height: 2.1; }
.number { color: #6b7280; min-width: 1.5em; text-align: right; }
.side-name { display: inline-block; width: 5.5em; color: #6b7280; font-size: 0.85em; }
mark { padding: 0.1em 0.3em; border-radius: 0.3em; color: #111111; }
.entity-type { font-family: var(--font-mono); font-size: 0.7em; font-weight: 600; margin-left: 0.35em; color: #374151; }
"""


# ---------------------------------------------------------------------------------------------------------
# The page's functions
# ---------------------------------------------------------------------------------------------------------

Outputs = tuple[str, Any, pd.DataFrame, pd.DataFrame, str]


def _escape_markdown(text: str) -> str:
    return re.sub(r"([\\`*_<>\[\]|~])", r"\\\1", text)


def _empty_outputs(message: str) -> Outputs:
    return (
        message,
        pd.DataFrame(columns=SCENARIO_HEADERS),
        pd.DataFrame(columns=SUMMARY_HEADERS),
        pd.DataFrame(columns=TYPE_HEADERS),
        "",
    )


def _count(number: int, noun: str) -> str:
    plural = noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
    return f"{number:,} {noun if number == 1 else plural}"


def error_message(problem: str) -> str:
    """The status shown for input that cannot be evaluated."""
    return f"⚠️ **Cannot evaluate.** {_escape_markdown(problem)}"


def evaluate_text(text: str, scheme: str = "IOB2", mode: str = "lenient") -> Outputs:
    """Everything the page shows for CoNLL `text`: status, scenario table (styled), summary table, per-type
    table, highlighted sentences. Bad input gives a status naming the line and empty tables, never an error."""
    try:
        corpus = parse_conll(text or "")
        results = evaluate_corpus(corpus, scheme, mode)
    except InputProblem as problem:
        return _empty_outputs(error_message(str(problem)))
    entities = results["entities"]
    status = (
        f"Evaluated {_count(len(corpus.tokens), 'sentence')} ({_count(sum(map(len, corpus.tokens)), 'token')}): "
        f"{results['strict_possible']:,} reference and {_count(results['strict_actual'], 'predicted entity')}, "
        f"{scheme}, {mode} mode."
    )
    if len(entities) > MAX_TABLE_ROWS:
        status += f" The scenario table shows the first {MAX_TABLE_ROWS:,} of {len(entities):,} rows."
    return (
        status,
        style_scenarios(scenario_frame(results, corpus)),
        summary_frame(results),
        per_type_frame(results),
        sentences_html(results, corpus),
    )


def load_file(path: str | None, scheme: str = "IOB2", mode: str = "lenient") -> tuple[Any, ...]:
    """An uploaded CoNLL file: into the text box and evaluated, or a message when too large or not text."""
    if not path:
        return (gr.skip(), *_empty_outputs(error_message("No file was uploaded.")))
    name = Path(path).name
    size = os.path.getsize(path)
    if size > MAX_BYTES:
        problem = f"{name} holds {size:,} bytes; the page evaluates at most {MAX_BYTES:,} bytes (1 MB)."
        return (gr.skip(), *_empty_outputs(error_message(problem)))
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        problem = f"{name} is not UTF-8 text (byte {error.start:,} is {error.object[error.start]:#04x})."
        return (gr.skip(), *_empty_outputs(error_message(problem)))
    return (text, *evaluate_text(text, scheme, mode))


def build_demo() -> gr.Blocks:
    """The page: input and summary side by side, then the scenario table, the sentences and the explanation."""
    with gr.Blocks(title="ner_semeval: SemEval-2013 NER scores") as demo:
        gr.Markdown(INTRODUCTION)
        with gr.Row():
            with gr.Column(scale=5, min_width=320):
                # A code editor rather than a text box: monospace columns and line numbers that match the
                # line numbers of the error messages.
                text = gr.Code(
                    value=WORKED_EXAMPLE,
                    language=None,
                    label="CoNLL input: token, reference tag, predicted tag",
                    interactive=True,
                    lines=13,
                    max_lines=13,
                    elem_id="conll-input",
                )
                with gr.Row():
                    scheme = gr.Dropdown(SCHEME_NAMES, value="IOB2", label="Tagging scheme", elem_id="scheme")
                    mode = gr.Radio(MODES, value="lenient", label="Mode", elem_id="mode")
                with gr.Row():
                    upload = gr.UploadButton("Upload a CoNLL file", size="md", elem_id="upload")
                    button = gr.Button("Evaluate", variant="primary", elem_id="evaluate")
            with gr.Column(scale=6, min_width=420):
                status = gr.Markdown(elem_id="status")
                summary = gr.Dataframe(
                    headers=SUMMARY_HEADERS,
                    label="Summary: the four SemEval-2013 schemes",
                    interactive=False,
                    elem_id="summary",
                    max_height=420,
                )
                examples = gr.Examples(
                    EXAMPLES,
                    inputs=[text, scheme, mode],
                    example_labels=EXAMPLE_LABELS,
                    cache_examples=False,
                    label="Examples",
                )
        scenarios = gr.Dataframe(
            headers=SCENARIO_HEADERS,
            label="Scenarios: one row per entity pair or unpaired entity, outcome under each scheme",
            interactive=False,
            wrap=True,
            elem_id="scenarios",
            max_height=480,
        )
        gr.Markdown("### Sentences\nReference and predicted entities by type; hover an entity for its scenario.")
        sentences = gr.HTML(css_template=SENTENCES_CSS, js_on_load=None, elem_id="sentences")
        per_type = gr.Dataframe(
            headers=TYPE_HEADERS,
            label="Per entity type (support: reference entities of the type; predicted: predicted entities)",
            interactive=False,
            elem_id="per-type",
            max_height=480,
        )
        gr.Markdown(EXPLANATION)

        outputs = [status, scenarios, summary, per_type, sentences]
        inputs = [text, scheme, mode]
        button.click(evaluate_text, inputs=inputs, outputs=outputs, api_name="evaluate")
        # Examples, selectors and the first page view evaluate at once; only the button is an API endpoint.
        examples.load_input_event.then(evaluate_text, inputs=inputs, outputs=outputs, api_visibility="private")
        scheme.input(evaluate_text, inputs=inputs, outputs=outputs, api_visibility="private")
        mode.input(evaluate_text, inputs=inputs, outputs=outputs, api_visibility="private")
        upload.upload(load_file, inputs=[upload, scheme, mode], outputs=[text, *outputs], api_visibility="private")
        demo.load(evaluate_text, inputs=inputs, outputs=outputs, api_visibility="private")
    return demo


demo = build_demo()

if __name__ == "__main__":
    # Host and port come from GRADIO_SERVER_NAME / GRADIO_SERVER_PORT (default 127.0.0.1:7860).
    demo.launch(max_file_size="10mb")
