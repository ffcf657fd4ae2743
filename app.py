"""The ner_semeval Space: SemEval-2013 strict / exact / partial / type scores of the user's own sentences.

Everything shown is computed by the metric module (`ner_semeval.read_conll`, `tally_semeval`, `scores`,
`entity_rows` and `summary_rows`); this file only parses the page's input, lays the results out and explains
them. `python app.py` serves the page on 127.0.0.1:7860 (`GRADIO_SERVER_NAME` / `GRADIO_SERVER_PORT` override);
`evaluate_text` is the whole computation as a plain function and the `/evaluate` API endpoint; the page's own
events call `evaluate_page`, which draws two pictures as well (a confusion heatmap and per-type F1 bars).

A control on the page switches to comparing two systems: each line then holds the token, the reference tag, system
A's tag and system B's tag (the last three columns), and `compare_text` (the `/compare` endpoint) gives per scheme
and measure A, B, B - A with its paired bootstrap interval and the p-value of `ner_semeval.compare_semeval`; the
page adds `difference_figure`, each scheme's F1 difference with its interval against zero.

A third choice reads spans, JSON lines as the command line's `--spans` reads them (`parse_spans`,
`evaluate_spans`): the same tables and pictures, and each document's character spans highlighted (`spans_page`).

The work and the answer of one request are bounded by what the page shows: the tables, the highlighted
sentences and the pictures are capped (the page says what it left out), per-type scores are computed only for
the types shown, and a few requests run at once so that a small one is not held up behind a 1 MB one.
"""

from __future__ import annotations

import dataclasses
import html
import json
import math
import os
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

# Gradio reports usage to its servers unless told not to before it is imported; the Space makes no calls.
os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"

import gradio as gr
import matplotlib
import pandas as pd
from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from pandas.io.formats.style import Styler

import ner_semeval

MAX_BYTES = 1_000_000  # 1 MB of CoNLL text, typed or uploaded
MAX_SENTENCES = 10_000
# What one answer shows; the scores always cover every sentence. Together these keep an answer under 3 MB
# whatever the 1 MB input (tokens and types that HTML-escape to six bytes a character are the worst found; the
# tests measure two hostile inputs), where uncapped one answer was 22 MB.
MAX_TABLE_ROWS = 1_000  # scenario rows
MAX_SHOWN_TYPES = 50  # entity types in the per-type table (four rows each), the most frequent first
MAX_SHOWN_SENTENCES = 100  # sentences drawn with their entities highlighted ...
MAX_SHOWN_TOKENS = 2_000  # ... and at most this many tokens of them in all
MAX_TEXT_CHARACTERS = 30  # of one token, entity text or entity type in a table cell or a drawn sentence
MAX_MESSAGE_CHARACTERS = 500  # of an error message, which may quote a line of the input
# The pictures: types shown in the confusion heatmap (the rest folded into one "other" row and column) and in
# the per-type F1 chart, the most frequent first.
MAX_HEATMAP_TYPES = 12
MAX_CHART_TYPES = 15
# Evaluations that run at once. Gradio's default of one would queue a visitor's one-line request behind
# another's 1 MB one; the caps above bound what each of these costs in time and memory.
EVALUATIONS_AT_ONCE = 4
# Comparing two systems: the resamples of the interval and of the test, the seed and the confidence level. 2,000
# resamples compare a 1 MB input of 10,000 sentences in about 1.3 s here, against 5 s for the command line's
# 10,000; p is then never below 1 / 2,001.
COMPARE_RESAMPLES = 2_000
COMPARE_SEED = 0
COMPARE_CONFIDENCE_LEVEL = 0.95
# The control that chooses what the page does, and so how it reads the input's columns.
ONE_SYSTEM = "Evaluate one system"
TWO_SYSTEMS = "Compare two systems"
SPANS = "Spans (JSON lines)"
TASKS = [ONE_SYSTEM, TWO_SYSTEMS, SPANS]

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
ELLIPSIS = "…"

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
# Two systems on eight English sentences: system A is the English example's on its two sentences; A misses
# boundaries (scenario V) where B gets them, B confuses types (IV) where A does not. So B is ahead under strict,
# exact and partial, and the type scheme, which forgives boundaries, cannot tell them apart.
COMPARE_EXAMPLE = (EXAMPLES_DIRECTORY / "compare_example.conll").read_text(encoding="utf-8")
# Spans as JSON lines: a token-classification pipeline's grouped output (entity_group, score, word) against the
# reference, and a nested reference (Paris, a LOC inside the ORG University of Paris).
SPANS_EXAMPLE = (EXAMPLES_DIRECTORY / "spans_example.jsonl").read_text(encoding="utf-8")

# Each example sets the text, the scheme, the mode and what the page does with them.
EXAMPLES = [
    [WORKED_EXAMPLE, "IOB2", "lenient", ONE_SYSTEM],
    [ENGLISH_EXAMPLE, "IOB2", "lenient", ONE_SYSTEM],
    [IOBES_EXAMPLE, "IOBES", "strict", ONE_SYSTEM],
    [COMPARE_EXAMPLE, "IOB2", "lenient", TWO_SYSTEMS],
    [SPANS_EXAMPLE, "IOB2", "lenient", SPANS],
]
# Short enough for Gradio's example buttons, whole on one line even on a phone (tests/test_browser.py checks).
EXAMPLE_LABELS = [
    "Worked example (Chinese, one character per token)",
    "English: all six scenarios",
    "IOBES, strict mode",
    "Two systems compared",
    "Spans, nested",
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
**{TWO_SYSTEMS}** reads **token, reference tag, system A's tag, system B's tag** instead and tells whether B's
scores differ from A's by more than the sampling noise of these sentences. **{SPANS}** reads one JSON object a
line, `{{"text": ..., "references": [...], "predictions": [...]}}`, entities as character offsets (end exclusive),
as `python ner_semeval.py --spans` does.
"""

COMPARE_TEXT = f"""
### Is B really better than A?
Each line holds the token first and **the reference tag, system A's tag and system B's tag as its last three
columns**; columns in between (a part-of-speech tag, a chunk tag) are ignored. The table gives, per scheme and
measure, A's score, B's, the difference **B − A**, its {COMPARE_CONFIDENCE_LEVEL:.0%} interval (**low** to
**high**: a paired bootstrap of the sentences, BCa) and the two-sided **p-value** of approximate randomization
(each sentence's two outputs swapped at random). The picture draws each scheme's F1 difference with its interval
against the line at zero: a **filled, coloured** point (blue: B better, orange: A better) has zero outside its
interval; a **hollow grey** one has zero inside, and these sentences cannot tell the two systems apart under that
scheme (which is no evidence that they are equal). Both use {COMPARE_RESAMPLES:,} resamples and seed
{COMPARE_SEED}, so the same input gives the same numbers; p is never below 1/{COMPARE_RESAMPLES + 1:,}, and the
command line's `python ner_semeval.py --compare A.conll B.conll` (10,000 resamples by default) may differ in the
last digits. Twelve p-values make some small ones by chance: decide beforehand which one decides (usually strict
F1). Two files `A.conll` and `B.conll` of one test set become one input with
`paste -d ' ' A.conll <(awk '{{print $NF}}' B.conll)`.
"""

PICTURES_TEXT = f"""
### Pictures
The heatmap counts reference types (rows) against predicted types (columns), **O** for no entity: the green
diagonal is right, every other cell an error. The bars give each type's F1 under the four schemes: where **type**
stands above **strict**, the type was right and the boundaries wrong; where **exact** stands above **strict**,
the boundaries were right and the type wrong. With many types, the heatmap shows the {MAX_HEATMAP_TYPES} most
frequent and folds the rest into *other*, and the bars show the {MAX_CHART_TYPES} most frequent.
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
# A code point of a UTF-16 surrogate pair: JSON can carry one alone ("\ud800"), but it is no character and
# cannot be encoded, so it is refused with a message before anything tries to.
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _check_characters(text: str) -> None:
    found = _SURROGATE.search(text)
    if found is None:
        return
    before = _LINE_BREAK.split(text[: found.start()])
    raise InputProblem(
        f"Line {len(before)}, character {len(before[-1]) + 1}: U+{ord(found.group()):04X} is half of a UTF-16 "
        "surrogate pair, not a character; send the text as valid Unicode (UTF-8)."
    )


def _input_lines(text: str, command: str) -> list[str]:
    """The lines of the page's input, once it is known to be text the page takes: valid Unicode of at most
    `MAX_BYTES` (`command` is the command line that takes more)."""
    if not isinstance(text, str):
        raise InputProblem(f"The input must be text, found {type(text).__name__}.")
    _check_characters(text)
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise InputProblem(
            f"The input holds {size:,} bytes; the page evaluates at most {MAX_BYTES:,} bytes (1 MB). "
            f"Use `{command}` for larger files."
        )
    return _LINE_BREAK.split(text)


def _sentences(read: Iterable[Any], command: str) -> list[Any]:
    """The sentences a CoNLL reader yields (each with its `lines`), at most `MAX_SENTENCES`; a malformed line is
    a message naming it."""
    sentences: list[Any] = []
    try:
        for sentence in read:
            if len(sentences) == MAX_SENTENCES:
                raise InputProblem(
                    f"The input holds more than {MAX_SENTENCES:,} sentences (line {sentence.lines[0]} starts "
                    f"sentence {MAX_SENTENCES + 1:,}); the page evaluates at most {MAX_SENTENCES:,}. "
                    f"Use `{command}` for larger files."
                )
            sentences.append(sentence)
    except ner_semeval.ConllError as error:
        raise InputProblem(f"Line {error.line}: {error.problem}.") from None
    return sentences


def parse_conll(text: str) -> Corpus:
    """The sentences of CoNLL text, read by `ner_semeval.read_conll`; the token is the first column."""
    command = "python ner_semeval.py FILE"
    sentences = _sentences(ner_semeval.read_conll(_input_lines(text, command), "input"), command)
    if not sentences:
        raise InputProblem("The input holds no sentences: write one token per line as `token reference predicted`.")
    return Corpus(
        [sentence.tokens for sentence in sentences],
        [sentence.references for sentence in sentences],
        [sentence.predictions for sentence in sentences],
        [sentence.lines for sentence in sentences],
    )


@dataclass(frozen=True)
class ComparedSentence:
    """One sentence of two systems' output: tokens, reference tags, system A's and system B's tags, and the line
    of every token."""

    tokens: list[str]
    references: list[str]
    predictions_a: list[str]
    predictions_b: list[str]
    lines: list[int]


@dataclass(frozen=True)
class ComparedCorpus:
    """The sentences of a comparison, column by column, as `ner_semeval.compare_semeval` takes them."""

    tokens: list[list[str]]
    references: list[list[str]]
    predictions_a: list[list[str]]
    predictions_b: list[list[str]]
    lines: list[list[int]]


COMPARE_COLUMNS = (
    "the token first, then the reference tag, system A's tag and system B's tag last "
    f'(for token, reference and predicted tag, choose "{ONE_SYSTEM}")'
)


def read_comparison(lines: Iterable[str], source: str = "input") -> Iterator[ComparedSentence]:
    """The sentences of CoNLL text with two systems' tags, as `ner_semeval.read_conll` reads one system's: the
    first column is the token, the last three the reference tag, system A's and system B's (columns between are
    ignored); a blank line ends a sentence and ``-DOCSTART-`` lines are skipped. A line of fewer than four
    columns is a `ner_semeval.ConllError` naming it."""
    sentence = ComparedSentence([], [], [], [], [])
    for number, line in enumerate(lines, start=1):
        columns = line.split()
        if not columns or columns[0] == "-DOCSTART-":
            if sentence.tokens:
                yield sentence
                sentence = ComparedSentence([], [], [], [], [])
            continue
        if len(columns) < 4:
            found = f"{len(columns)} column{'' if len(columns) == 1 else 's'} ({line.strip()!r})"
            raise ner_semeval.ConllError(
                source, number, f"found {found}; comparing two systems takes at least 4 columns: {COMPARE_COLUMNS}"
            )
        sentence.tokens.append(columns[0])
        sentence.references.append(columns[-3])
        sentence.predictions_a.append(columns[-2])
        sentence.predictions_b.append(columns[-1])
        sentence.lines.append(number)
    if sentence.tokens:
        yield sentence


def parse_comparison(text: str) -> ComparedCorpus:
    """The sentences of two systems' CoNLL text (`read_comparison`), with the same caps as `parse_conll`."""
    command = "python ner_semeval.py --compare A B"
    sentences = _sentences(read_comparison(_input_lines(text, command)), command)
    if not sentences:
        raise InputProblem(
            "The input holds no sentences: write one token per line as `token reference systemA systemB`."
        )
    return ComparedCorpus(
        *([getattr(sentence, field.name) for sentence in sentences] for field in dataclasses.fields(ComparedSentence))
    )


# ---------------------------------------------------------------------------------------------------------
# Evaluating: the metric's numbers, per type only for the types shown
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Evaluation:
    """What the page shows of one input: the metric's keys (overall, and per type for `shown_types`), one
    `entities` row per pair or unpaired entity, every entity type (the most frequent first) and the tally that
    the pictures count from."""

    results: dict[str, Any]
    entities: list[dict[str, Any]]
    entity_types: list[str]
    tally: ner_semeval.Tally

    @property
    def shown_types(self) -> list[str]:
        """The types of the per-type table: the `MAX_SHOWN_TYPES` most frequent."""
        return self.entity_types[:MAX_SHOWN_TYPES]


def types_by_frequency(tally: ner_semeval.Tally) -> list[str]:
    """The entity types of a tally, the most frequent first (reference and predicted entities counted), ties
    in alphabetical order."""
    frequency: Counter[str] = Counter()
    for (_, reference_type, predicted_type), number in tally.cells.items():
        for entity_type in (reference_type, predicted_type):
            if entity_type is not None:
                frequency[entity_type] += number
    return sorted(frequency, key=lambda entity_type: (-frequency[entity_type], entity_type))


# The column each side of the metric's input comes from, as the error messages name it.
ONE_SYSTEM_COLUMNS = {"references": "reference tag (second-last column)", "predictions": "predicted tag (last column)"}
TWO_SYSTEMS_COLUMNS = {
    "references": "reference tag (third-last column)",
    "predictions_a": "system A's tag (second-last column)",
    "predictions_b": "system B's tag (last column)",
}


def _where(
    error: ner_semeval.InvalidInputError,
    corpus: Corpus | ComparedCorpus,
    columns: dict[str, str] = ONE_SYSTEM_COLUMNS,
) -> str:
    """Where a tag error is, in the page's terms: the editor's line, or the sentence as the tables number it
    (from 1, where the metric counts from 0)."""
    column = columns.get(error.side or "", "")
    if error.sentence is None:
        return column.capitalize()
    lines = corpus.lines[error.sentence]
    if error.token is not None:
        place = f"Line {lines[error.token]}"
    else:
        place = f"Sentence {error.sentence + 1} (lines {lines[0]}–{lines[-1]})"
    return f"{place}, {column}" if column else place


def evaluate_corpus(corpus: Corpus, scheme: str, mode: str) -> Evaluation:
    """The corpus scored by the metric module; tag errors name the line and suggest a scheme from the menu.

    `ner_semeval.compute_semeval(per_type=True)` reports every entity type: for the 100,000 types that 1 MB can
    hold, 2 million keys and about 4 s here, for a table that shows 50. So the page tallies once and asks
    `scores` for the shown types only, passing them as `labels`, which `scores` reads as the types to report
    (the tally, made without labels, keeps every entity, so the overall keys are the full ones; the macro keys
    average over the shown types, and the page shows none)."""
    try:
        options = ner_semeval.Options.of(scheme=scheme, mode=mode)
        tally, rows = ner_semeval.tally_semeval(corpus.predictions, corpus.references, options)
    except ner_semeval.InvalidInputError as error:
        raise InputProblem(_tag_problem(error, corpus, ONE_SYSTEM_COLUMNS)) from None
    except ValueError as error:
        raise InputProblem(str(error)) from None
    entity_types = types_by_frequency(tally)
    shown = tuple(entity_types[:MAX_SHOWN_TYPES]) or None
    results = ner_semeval.scores(tally, dataclasses.replace(options, per_type=True, labels=shown))
    return Evaluation(results, ner_semeval.entity_rows(rows), entity_types, tally)


def _tag_problem(error: ner_semeval.InvalidInputError, corpus: Corpus | ComparedCorpus, columns: dict[str, str]) -> str:
    where = _where(error, corpus, columns)
    problem = error.hint("choose {} in the Tagging scheme menu")
    return f"{where}: {problem}." if where else f"{problem}."


def compare_corpus(corpus: ComparedCorpus, scheme: str, mode: str) -> dict[str, float]:
    """`ner_semeval.compare_semeval` of the two systems with `COMPARE_RESAMPLES` resamples and `COMPARE_SEED`:
    per scheme and measure A, B, B - A, its interval and the p-value; tag errors name the line and the column."""
    try:
        return ner_semeval.compare_semeval(
            predictions_a=corpus.predictions_a,
            predictions_b=corpus.predictions_b,
            references=corpus.references,
            n_resamples=COMPARE_RESAMPLES,
            seed=COMPARE_SEED,
            confidence_level=COMPARE_CONFIDENCE_LEVEL,
            scheme=scheme,
            mode=mode,
        )
    except ner_semeval.InvalidInputError as error:
        raise InputProblem(_tag_problem(error, corpus, TWO_SYSTEMS_COLUMNS)) from None
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


def shorten(text: str, limit: int = MAX_TEXT_CHARACTERS) -> str:
    """`text`, or its first `limit` characters (without a space at the end) and an ellipsis when longer."""
    return text if len(text) <= limit else text[:limit].rstrip() + ELLIPSIS


def entity_text(tokens: Sequence[str], start: int, end: int) -> str:
    """The text of tokens ``start:end``, shortened: a 1 MB entity costs no more than a short one."""
    # Each token gives at least one character, so no more than the limit of tokens is ever needed.
    shown = [shorten(token) for token in tokens[start : min(end, start + MAX_TEXT_CHARACTERS + 1)]]
    text = shorten(join_tokens(shown))
    return text if text.endswith(ELLIPSIS) or end - start <= len(shown) else text + ELLIPSIS


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


def per_type_frame(evaluation: Evaluation) -> pd.DataFrame:
    """Per-type precision / recall / F1 under each scheme, with support (reference entities of the type) and
    predicted entities, for the shown types, the most frequent first."""
    results = evaluation.results
    rows = []
    for entity_type in evaluation.shown_types:
        for scheme in SCHEME_COLUMNS:
            key = f"{entity_type}_{scheme}"
            rows.append(
                [
                    shorten(entity_type),
                    scheme,
                    *(format_number(results[f"{key}_{m}"]) for m in ("precision", "recall", "f1")),
                    str(results[f"{key}_possible"]),
                    str(results[f"{key}_actual"]),
                ]
            )
    return pd.DataFrame(rows, columns=TYPE_HEADERS)


def scenario_frame(evaluation: Evaluation, corpus: Corpus) -> pd.DataFrame:
    """The worked example's first table for the input: one row per pair or unpaired entity with its scenario
    and its outcome under each scheme (the first `MAX_TABLE_ROWS` rows)."""
    return _scenario_rows(evaluation, lambda sentence, start, end: entity_text(corpus.tokens[sentence], start, end))


def _scenario_rows(evaluation: Evaluation, text_of: Callable[[int, int, int], str]) -> pd.DataFrame:
    """The scenario table, each entity's text given by `text_of(sentence, start, end)`."""
    rows = []
    for row in evaluation.entities[:MAX_TABLE_ROWS]:
        cells = [str(row["sentence"] + 1), row["scenario"]]
        for side in (row["reference"], row["prediction"]):
            if side is None:
                cells += [NONE, NONE]
            else:
                cells += [shorten(side["type"]), text_of(row["sentence"], side["start"], side["end"])]
        cells += [row[scheme] for scheme in SCHEME_COLUMNS]
        rows.append(cells)
    return pd.DataFrame(rows, columns=SCENARIO_HEADERS)


def _outcome_style(value: str) -> str:
    colour = OUTCOME_COLOURS.get(value)
    return f"background-color: {colour}; color: #111111; font-weight: 600" if colour else ""


def style_scenarios(frame: pd.DataFrame) -> Styler:
    """The scenario table with each outcome cell coloured by COR / INC / PAR / MIS / SPU."""
    return frame.style.map(_outcome_style, subset=list(SCHEME_COLUMNS))


# An entity as the highlighted sentence draws it: its end (cut where the drawing stops), type and tooltip.
Mark = tuple[int, str, str]


def _highlight(tokens: Sequence[str], marks: dict[int, Mark], colours: dict[str, str]) -> str:
    """Tokens as HTML with each entity ``start -> (end, type, tooltip)`` marked, spaced by `join_segments`."""
    segments = []  # (first token, last token, HTML) of each entity and each token outside entities
    position = 0
    while position < len(tokens):
        if position in marks:
            end, entity_type, tooltip = marks[position]
            piece = (
                f'<mark style="background:{colours[entity_type]}" title="{html.escape(tooltip)}">'
                f"{html.escape(join_tokens(tokens[position:end]))}"
                f'<span class="entity-type">{html.escape(shorten(entity_type))}</span></mark>'
            )
        else:
            end = position + 1
            piece = html.escape(tokens[position])
        segments.append((tokens[position], tokens[end - 1], piece))
        position = end
    return join_segments(segments)


def _drawn_lengths(corpus: Corpus) -> list[int]:
    """How many tokens of each drawn sentence are drawn: the first `MAX_SHOWN_SENTENCES` sentences, until
    `MAX_SHOWN_TOKENS` tokens are drawn (so only the last drawn sentence may be cut)."""
    lengths = []
    budget = MAX_SHOWN_TOKENS
    for tokens in corpus.tokens[:MAX_SHOWN_SENTENCES]:
        if budget == 0:
            break
        lengths.append(min(len(tokens), budget))
        budget -= lengths[-1]
    return lengths


def sentences_html(evaluation: Evaluation, corpus: Corpus) -> str:
    """Each drawn sentence twice, reference and prediction, with the entities highlighted by type, and a note
    on what was left out."""
    drawn = _drawn_lengths(corpus)
    colours = {t: TYPE_COLOURS[i % len(TYPE_COLOURS)] for i, t in enumerate(evaluation.entity_types)}
    sides: list[tuple[dict[int, Mark], dict[int, Mark]]] = [({}, {}) for _ in drawn]
    for row in evaluation.entities:  # in sentence order
        if row["sentence"] >= len(drawn):
            break
        cut = drawn[row["sentence"]]
        tooltip = f"scenario {row['scenario']}: " + ", ".join(f"{s} {row[s]}" for s in SCHEME_COLUMNS)
        for side, marks in zip((row["reference"], row["prediction"]), sides[row["sentence"]]):
            if side is not None and side["start"] < cut:
                marks[side["start"]] = (min(side["end"], cut), side["type"], tooltip)
    parts = []
    for index, (length, (reference_marks, predicted_marks)) in enumerate(zip(drawn, sides)):
        tokens = [shorten(token) for token in corpus.tokens[index][:length]]
        rest = f" {ELLIPSIS}" if length < len(corpus.tokens[index]) else ""
        parts.append(
            f'<div class="sentence"><div class="number">{index + 1}</div><div>'
            f'<div class="side"><span class="side-name">reference</span> '
            f"{_highlight(tokens, reference_marks, colours)}{rest}</div>"
            f'<div class="side"><span class="side-name">predicted</span> '
            f"{_highlight(tokens, predicted_marks, colours)}{rest}</div></div></div>"
        )
    left_out = []
    if drawn[-1] < len(corpus.tokens[len(drawn) - 1]):
        left_out.append(
            f"sentence {len(drawn):,} is cut after {drawn[-1]:,} of {len(corpus.tokens[len(drawn) - 1]):,} tokens"
        )
    if len(drawn) < len(corpus.tokens):
        left_out.append(f"the first {len(drawn):,} of {len(corpus.tokens):,} sentences are shown")
    if left_out:
        note = "; ".join(left_out)
        parts.append(f'<p class="left-out">{note[0].upper()}{note[1:]}; the scores cover all.</p>')
    return "\n".join(parts)


SENTENCES_CSS = """
.sentence { display: flex; gap: 0.75em; padding: 0.4em 0; border-bottom: 1px solid #e5e7eb; line-height: 2.1; }
.number { color: #6b7280; min-width: 1.5em; text-align: right; }
.side-name { display: inline-block; width: 5.5em; color: #6b7280; font-size: 0.85em; }
mark { padding: 0.1em 0.3em; border-radius: 0.3em; color: #111111; }
mark mark { border: 1px solid #6b7280; }
.doc-text { white-space: pre-wrap; }
.entity-type { font-family: var(--font-mono); font-size: 0.7em; font-weight: 600; margin-left: 0.35em; color: #374151; }
"""


# ---------------------------------------------------------------------------------------------------------
# The pictures: matplotlib's object-oriented API on the Agg canvas
# ---------------------------------------------------------------------------------------------------------
# Events run in several threads at once and pyplot's global figure list is not thread-safe, so every figure is a
# `matplotlib.figure.Figure` of its own on an Agg canvas; nothing is kept after Gradio encodes it as a PNG. Agg is
# also the backend for anything that imports pyplot (Gradio's plot component does, to close figures).
matplotlib.use("Agg")
# A type name in a script that no installed font covers is drawn as boxes, not warned about once per glyph.
warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from font", category=UserWarning)

FIGURE_DPI = 100
MAX_LABEL_CHARACTERS = 24  # of a type name on the chart's axis ...
MAX_HEATMAP_LABEL_CHARACTERS = 16  # ... and the heatmap's, which names it twice
OTHER = "other"
OUTSIDE = "O"
# Lenient to strict, one colour each (viridis: in order of lightness, and told apart by colour-blind readers).
SCHEME_CHART_COLOURS = {"type": "#b5de2b", "partial": "#35b779", "exact": "#31688e", "strict": "#440154"}
SAME_TYPE_COLOURS = "Greens"  # the diagonal of the heatmap
ERROR_COLOURS = "OrRd"  # other type, missed, spurious
FOLDED_COLOURS = "Greys"  # "other" against "other": same-type and cross-type pairs of the folded types


def _font_family() -> list[str]:
    """Matplotlib's default sans-serif font, then a CJK font if one is installed (fonts-noto-cjk on Debian), so
    that a type such as 告白气球 is drawn, glyph by glyph falling back to it; nothing is downloaded."""
    names = {font.name for font in font_manager.fontManager.ttflist}
    preferred = [f"Noto Sans CJK {region}" for region in ("SC", "TC", "JP", "KR", "HK")]
    cjk = [name for name in preferred if name in names] or sorted(name for name in names if "CJK" in name)
    return ["DejaVu Sans", *cjk[:1]]


FONT_FAMILY = _font_family()


def _figure(width: float, height: float) -> Figure:
    figure = Figure(figsize=(width, height), dpi=FIGURE_DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _label(entity_type: str, limit: int = MAX_LABEL_CHARACTERS) -> str:
    return shorten(entity_type, limit)


@dataclass(frozen=True)
class Confusion:
    """The heatmap's numbers. Rows (reference) and columns (predicted) are alike: the `types` shown, the most
    frequent first; then `OTHER` when `folded` types did not fit; then `OUTSIDE`, no entity (docs/scoring.md §7).
    `counts[row][column]`; `folded_same_type` of the other-against-other pairs are of one type."""

    types: list[str]
    counts: list[list[int]]
    folded: int
    folded_same_type: int

    @property
    def labels(self) -> list[str]:
        # A type may be called O (tag B-O); then no entity is named otherwise.
        outside = OUTSIDE if OUTSIDE not in self.types else "no entity"
        return [*self.types, *([OTHER] if self.folded else []), outside]

    def as_dict(self) -> dict[str, dict[str, int]]:
        """``matrix[reference][predicted]`` as `ner_semeval.confusion_matrix` gives it."""
        return {row: dict(zip(self.labels, counts)) for row, counts in zip(self.labels, self.counts)}


def confusion_data(evaluation: Evaluation, limit: int | None = None) -> Confusion:
    """The confusion matrix of the evaluation's tally over its `limit` most frequent types (`MAX_HEATMAP_TYPES`),
    every other type folded into `OTHER`: with nothing folded, `ner_semeval.confusion_matrix` in the page's
    order. Counted from the tally's cells, so its cost does not grow with the square of the number of types."""
    types = evaluation.entity_types[: MAX_HEATMAP_TYPES if limit is None else limit]
    folded = len(evaluation.entity_types) - len(types)
    index: dict[str | None, int] = {entity_type: number for number, entity_type in enumerate(types)}
    other = len(types)  # the row and column of OTHER when types are folded
    index[None] = other + (1 if folded else 0)
    size = index[None] + 1
    counts = [[0] * size for _ in range(size)]
    folded_same_type = 0
    for (_, reference_type, predicted_type), number in evaluation.tally.cells.items():
        row, column = index.get(reference_type, other), index.get(predicted_type, other)
        counts[row][column] += number
        if row == column == other and folded and reference_type == predicted_type:
            folded_same_type += number
    return Confusion(list(types), counts, folded, folded_same_type)


def _shade(colours: str, value: float) -> tuple[float, float, float, float]:
    return matplotlib.colormaps[colours](value)


def heatmap_figure(confusion: Confusion) -> Figure:
    """The confusion matrix as a heatmap: each cell's count written in it, same-type cells green and outlined,
    errors (another type, missed in the O column, spurious in the O row) orange to red on a log scale, zeros
    white. At most about 6.5 inches wide, so that it sits beside the chart on a laptop's page unscaled."""
    names = [_label(entity_type, MAX_HEATMAP_LABEL_CHARACTERS) for entity_type in confusion.types]
    names += [*([f"{OTHER} ({confusion.folded:,})"] if confusion.folded else []), confusion.labels[-1]]
    size = len(names)
    named = len(confusion.types)
    cell = max(0.34, min(0.85, 4.6 / size))  # inches
    label_font = 9 if size <= 8 else 8
    figure = _figure(1, 1)  # sized below, once the labels are measured
    axes = figure.add_subplot()
    axes.set_yticks(range(size), labels=names, fontfamily=FONT_FAMILY, fontsize=label_font)
    renderer = figure.canvas.get_renderer()
    widths = [label.get_window_extent(renderer).width / FIGURE_DPI for label in axes.get_yticklabels()]
    # The column labels are turned when two neighbours would not fit side by side under their cells.
    rotate = any((left + right) / 2 + 0.1 > cell for left, right in pairwise(widths))
    below = max(widths) * 0.6 + 0.25 if rotate else 0.25
    lines = 1 + (2 if confusion.folded else 0)
    figure.set_size_inches(max(4.6, cell * size + max(widths) + 0.7), cell * size + below + 0.2 * lines + 1.25)
    largest = max(max(row) for row in confusion.counts) or 1
    colours = []
    for row, counts in enumerate(confusion.counts):
        colours.append([])
        for column, count in enumerate(counts):
            text = "—" if row == column == size - 1 else f"{count:,}"  # O against O: nothing to count
            # As large as fits the cell: 10 points in a large cell, smaller for a long count in a small one.
            font = min(10 if size <= 6 else 8.5, cell * 72 * 0.86 / (0.64 * len(text)))
            if row == column == size - 1:
                colours[-1].append((0.96, 0.96, 0.96, 1.0))
                axes.text(column, row, text, ha="center", va="center", color="#9ca3af", fontsize=font)
                continue
            same_type = row == column < named
            palette = SAME_TYPE_COLOURS if same_type else FOLDED_COLOURS if row == column else ERROR_COLOURS
            # On a log scale, so that 1 and 40 errors differ as well as 40 and 1,000.
            strength = 0.18 + (0.4 if row == column >= named else 0.67) * math.log1p(count) / math.log1p(largest)
            if count:
                colours[-1].append(_shade(palette, strength))
            else:  # a same-type cell is tinted even at zero, so that the diagonal reads as one at a glance
                colours[-1].append(_shade(palette, 0.08) if same_type else (1.0, 1.0, 1.0, 1.0))
            axes.text(
                column,
                row,
                text,
                ha="center",
                va="center",
                fontsize=font,
                fontweight="bold" if count else "normal",
                color="#9ca3af" if not count else "white" if strength > 0.55 else "#111111",
            )
    axes.imshow(colours, aspect="equal")
    for diagonal in range(named):  # same type: outlined as well as green, for readers who do not tell the colours
        inset = 0.42
        axes.add_patch(
            Rectangle(
                (diagonal - inset, diagonal - inset), 2 * inset, 2 * inset, fill=False, edgecolor="#15803d", linewidth=1
            )
        )
    axes.set_xticks(
        range(size),
        labels=names,
        rotation=35 if rotate else 0,
        ha="right" if rotate else "center",
        rotation_mode="anchor",
        fontfamily=FONT_FAMILY,
        fontsize=label_font,
    )
    axes.set_xticks([position + 0.5 for position in range(size - 1)], minor=True)
    axes.set_yticks([position + 0.5 for position in range(size - 1)], minor=True)
    axes.grid(which="minor", color="white", linewidth=1.5)
    axes.tick_params(which="both", length=0)
    for spine in axes.spines.values():
        spine.set_visible(False)
    axes.set_xlabel("predicted type", fontsize=9)
    axes.set_ylabel("reference type", fontsize=9)
    title = "Confusion of entity types"
    if confusion.folded:
        title += (
            f"\nthe {named:,} most frequent types; other folds the remaining {confusion.folded:,}\n"
            f"({confusion.folded_same_type:,} of the {confusion.counts[named][named]:,} other/other pairs are "
            "of one type)"
        )
    axes.set_title(title, loc="left", fontsize=9)
    handles = [
        Patch(facecolor=_shade(SAME_TYPE_COLOURS, 0.6), edgecolor="#15803d", label="same type"),
        Patch(facecolor=_shade(ERROR_COLOURS, 0.6), label="other type, missed (O column) or spurious (O row)"),
    ]
    if confusion.folded:
        handles.append(Patch(facecolor=_shade(FOLDED_COLOURS, 0.4), label="within other"))
    figure.legend(handles=handles, loc="outside lower left", fontsize=8, frameon=False)
    return figure


@dataclass(frozen=True)
class TypeScores:
    """The chart's numbers: F1 of each shown type under each scheme, with its reference (support) and predicted
    entities, and how many types there are in all."""

    types: list[str]
    f1: dict[str, list[float]]
    support: list[int]
    predicted: list[int]
    all_types: int


def type_scores(evaluation: Evaluation, limit: int | None = None) -> TypeScores:
    """Per-type F1 from the metric's keys, for the `limit` most frequent types (`MAX_CHART_TYPES`; the metric
    computed per-type keys for the shown types only, `MAX_SHOWN_TYPES`)."""
    types = evaluation.shown_types[: MAX_CHART_TYPES if limit is None else limit]
    results = evaluation.results
    return TypeScores(
        list(types),
        {scheme: [results[f"{t}_{scheme}_f1"] for t in types] for scheme in SCHEME_COLUMNS},
        [results[f"{t}_strict_possible"] for t in types],
        [results[f"{t}_strict_actual"] for t in types],
        len(evaluation.entity_types),
    )


def type_chart_figure(scores: TypeScores) -> Figure:
    """F1 of each type as four bars side by side, lenient (type) to strict, each with its value: type above
    strict means right type, wrong boundaries; exact above strict, right boundaries, wrong type."""
    count = len(scores.types)
    bar = 0.2
    figure = _figure(6.2, max(2.9, (0.68 if count <= 6 else 0.46) * count + 1.9))
    axes = figure.add_subplot()
    small = 7 if count <= 6 else 6
    for offset, scheme in enumerate(SCHEME_COLUMNS):
        positions = [number + (offset - 1.5) * bar for number in range(count)]
        values = scores.f1[scheme]
        axes.barh(positions, values, height=bar * 0.92, color=SCHEME_CHART_COLOURS[scheme], label=scheme)
        for position, value in zip(positions, values):
            axes.text(value + 0.01, position, f"{value:.2f}", va="center", fontsize=small, color="#374151")
    axes.set_yticks(
        range(count),
        labels=[
            f"{_label(entity_type)}\n{support:,} ref, {predicted:,} pred"
            for entity_type, support, predicted in zip(scores.types, scores.support, scores.predicted)
        ],
        fontfamily=FONT_FAMILY,
        fontsize=8.5,
    )
    axes.set_ylim(count - 0.5, -0.5)
    axes.set_xlim(0, 1.1)
    axes.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    axes.tick_params(axis="x", labelsize=8)
    axes.tick_params(axis="y", length=0)
    axes.grid(axis="x", color="#e5e7eb")
    axes.set_axisbelow(True)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    axes.set_xlabel("F1", fontsize=9.5)
    title = "F1 per entity type, lenient (type) to strict"
    if scores.all_types > count:
        title += f"\nthe {count:,} most frequent of {scores.all_types:,} types"
    axes.set_title(title, loc="left", fontsize=9.5)
    figure.legend(loc="outside lower center", ncols=4, fontsize=8, frameon=False)
    return figure


# ---------------------------------------------------------------------------------------------------------
# Two systems compared: the table and the picture
# ---------------------------------------------------------------------------------------------------------

# The rows of the table, as the command line's `format_comparison` orders them: strict to type, and in each
# scheme precision, recall and F1.
COMPARE_SCHEMES = ner_semeval.EVALUATION_SCHEMES
COMPARE_MEASURES = (("precision", "precision"), ("recall", "recall"), ("f1", "F1"))
COMPARE_HEADERS = ["scheme", "measure", "A", "B", "B − A", "low", "high", "p-value"]
# Where the interval of B - A lies: above zero (B better), below (A better), or around it (no clear difference).
B_BETTER, A_BETTER, UNDECIDED = "B better", "A better", "zero inside"
DIFFERENCE_COLOURS = {B_BETTER: "#1d4ed8", A_BETTER: "#c2410c", UNDECIDED: "#9ca3af"}
DIFFERENCE_CELL_COLOURS = {B_BETTER: "#dbeafe", A_BETTER: "#fde4d3"}


def verdict(low: float, high: float) -> str:
    """`B_BETTER` when the interval of B - A lies above zero, `A_BETTER` below, else `UNDECIDED` (zero inside,
    ends included: an interval that reaches zero does not exclude it)."""
    return B_BETTER if low > 0 else A_BETTER if high < 0 else UNDECIDED


def format_p_value(value: float) -> str:
    """As the command line writes it: four decimals, or 1e-06 where four decimals would read 0.0000."""
    return f"{value:.4f}" if value >= 0.0001 else f"{value:.0e}"


def comparison_frame(results: dict[str, float]) -> pd.DataFrame:
    """The comparison as a table, one row per scheme and measure: A, B, B - A, low, high and the p-value, the
    metric's floats unrounded (an API caller gets them as they are; `style_comparison` formats them)."""
    rows = []
    for scheme in COMPARE_SCHEMES:
        for measure, label in COMPARE_MEASURES:
            key = f"{scheme}_{measure}"
            ends = ("a", "b", "delta", "delta_low", "delta_high", "p_value")
            rows.append([scheme, label, *(results[f"{key}_{end}"] for end in ends)])
    return pd.DataFrame(rows, columns=COMPARE_HEADERS)


def _difference_style(row: pd.Series) -> list[str]:
    colour = DIFFERENCE_CELL_COLOURS.get(verdict(row["low"], row["high"]))
    style = f"background-color: {colour}; color: #111111; font-weight: 600" if colour else ""
    return [style if column in ("B − A", "low", "high") else "" for column in row.index]


def style_comparison(frame: pd.DataFrame) -> Styler:
    """The comparison table as the page shows it: numbers written as the command line writes them (four
    decimals, the differences signed), and B - A with its interval tinted where zero lies outside it (blue: B
    better, orange: A better)."""
    signed = "{:+.4f}".format
    formats = {"A": "{:.4f}".format, "B": "{:.4f}".format, "p-value": format_p_value}
    formats |= dict.fromkeys(("B − A", "low", "high"), signed)
    return frame.style.format(formats).apply(_difference_style, axis=1)


def difference_figure(results: dict[str, float]) -> Figure:
    """Each scheme's F1 difference B - A as a point with its interval, against a line at zero: zero inside the
    interval is a hollow grey point, zero outside a filled blue (B better) or orange (A better) one. The axis is
    centred on zero, A better to the left, B better to the right."""
    figure = _figure(6.4, 3.5)
    axes = figure.add_subplot()
    ends = [(results[f"{s}_f1_delta_low"], results[f"{s}_f1_delta_high"]) for s in COMPARE_SCHEMES]
    reach = max(0.02, *(abs(end) for pair in ends for end in pair)) * 1.25
    axes.set_xlim(-reach, reach)
    axes.axvspan(-reach, 0, color=DIFFERENCE_CELL_COLOURS[A_BETTER], alpha=0.35, linewidth=0)
    axes.axvspan(0, reach, color=DIFFERENCE_CELL_COLOURS[B_BETTER], alpha=0.35, linewidth=0)
    axes.axvline(0, color="#111111", linewidth=1.4, zorder=2)
    for row, scheme in enumerate(COMPARE_SCHEMES):
        delta = results[f"{scheme}_f1_delta"]
        low, high = ends[row]
        kind = verdict(low, high)
        colour = DIFFERENCE_COLOURS[kind]
        axes.plot([low, high], [row, row], color=colour, linewidth=2.6, solid_capstyle="butt", zorder=3)
        axes.plot([low, low], [row - 0.13, row + 0.13], color=colour, linewidth=1.6, zorder=3)
        axes.plot([high, high], [row - 0.13, row + 0.13], color=colour, linewidth=1.6, zorder=3)
        axes.plot(
            [delta],
            [row],
            marker="o",
            markersize=8.5,
            markeredgewidth=2,
            markeredgecolor=colour,
            markerfacecolor=colour if kind != UNDECIDED else "white",
            zorder=4,
        )
        p_value = results[f"{scheme}_f1_p_value"]
        # Above the point, kept whole inside the axes (x in axes fractions, y in rows), on white over the line at 0.
        centre = min(max((delta + reach) / (2 * reach), 0.24), 0.76)
        axes.text(
            centre,
            row - 0.2,
            f"{delta:+.4f} ({low:+.4f} to {high:+.4f}), p = {format_p_value(p_value)}",
            transform=axes.get_yaxis_transform(),
            ha="center",
            va="bottom",
            fontsize=8,
            color="#111111",
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.9, "pad": 1.5},
            zorder=5,
        )
    axes.set_yticks(range(len(COMPARE_SCHEMES)), labels=COMPARE_SCHEMES, fontsize=9.5)
    axes.set_ylim(len(COMPARE_SCHEMES) - 0.5, -0.75)
    axes.tick_params(axis="y", length=0)
    axes.tick_params(axis="x", labelsize=8)
    for side in ("top", "right", "left"):
        axes.spines[side].set_visible(False)
    axes.text(0.01, 0.985, "← A better", transform=axes.transAxes, ha="left", va="top", fontsize=8.5, color="#9a3412")
    axes.text(0.99, 0.985, "B better →", transform=axes.transAxes, ha="right", va="top", fontsize=8.5, color="#1e3a8a")
    axes.set_xlabel("F1 of B − A", fontsize=9.5)
    axes.set_title(
        f"F1 difference B − A per scheme, with its {COMPARE_CONFIDENCE_LEVEL:.0%} interval", loc="left", fontsize=9.5
    )
    handles = [
        Line2D([], [], color=DIFFERENCE_COLOURS[B_BETTER], marker="o", linewidth=2.6, label="B better: 0 outside"),
        Line2D([], [], color=DIFFERENCE_COLOURS[A_BETTER], marker="o", linewidth=2.6, label="A better: 0 outside"),
        Line2D(
            [],
            [],
            color=DIFFERENCE_COLOURS[UNDECIDED],
            marker="o",
            markerfacecolor="white",
            markeredgewidth=2,
            linewidth=2.6,
            label="0 inside: no clear difference",
        ),
    ]
    figure.legend(handles=handles, loc="outside lower center", ncols=3, fontsize=8, frameon=False)
    return figure


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


def error_message(problem: str, action: str = "evaluate") -> str:
    """The status shown for input that cannot be evaluated (or compared; a long quoted line is shortened)."""
    return f"⚠️ **Cannot {action}.** {_escape_markdown(shorten(problem, MAX_MESSAGE_CHARACTERS))}"


def status_text(evaluation: Evaluation, corpus: Corpus, scheme: str, mode: str) -> str:
    """What was evaluated, and what the tables leave out."""
    results = evaluation.results
    status = (
        f"Evaluated {_count(len(corpus.tokens), 'sentence')} ({_count(sum(map(len, corpus.tokens)), 'token')}): "
        f"{results['strict_possible']:,} reference and {_count(results['strict_actual'], 'predicted entity')}, "
        f"{scheme}, {mode} mode."
    )
    if len(evaluation.entities) > MAX_TABLE_ROWS:
        status += f" The scenario table shows the first {MAX_TABLE_ROWS:,} of {len(evaluation.entities):,} rows."
    if len(evaluation.entity_types) > MAX_SHOWN_TYPES:
        status += (
            f" The per-type table shows the {MAX_SHOWN_TYPES:,} most frequent of "
            f"{len(evaluation.entity_types):,} entity types."
        )
    return status


def _evaluate(text: str, scheme: str, mode: str) -> tuple[Outputs, Evaluation | None]:
    try:
        corpus = parse_conll("" if text is None else text)
        evaluation = evaluate_corpus(corpus, scheme, mode)
    except InputProblem as problem:
        return _empty_outputs(error_message(str(problem))), None
    outputs = (
        status_text(evaluation, corpus, scheme, mode),
        style_scenarios(scenario_frame(evaluation, corpus)),
        summary_frame(evaluation.results),
        per_type_frame(evaluation),
        sentences_html(evaluation, corpus),
    )
    return outputs, evaluation


def evaluate_text(text: str, scheme: str = "IOB2", mode: str = "lenient") -> Outputs:
    """Everything the `/evaluate` endpoint answers for CoNLL `text`: status, scenario table (styled), summary
    table, per-type table, highlighted sentences. Any text that cannot be evaluated gives a status saying why
    and empty tables, never an error."""
    return _evaluate(text, scheme, mode)[0]


PageOutputs = tuple[str, Any, pd.DataFrame, pd.DataFrame, str, Figure | None, Figure | None]


def evaluate_page(text: str, scheme: str = "IOB2", mode: str = "lenient") -> PageOutputs:
    """What the page's own events show: `evaluate_text`'s five outputs, then the confusion heatmap and the
    per-type F1 chart (none when the input cannot be evaluated or holds no entity)."""
    outputs, evaluation = _evaluate(text, scheme, mode)
    if evaluation is None or not evaluation.entity_types:
        return (*outputs, None, None)
    return (*outputs, heatmap_figure(confusion_data(evaluation)), type_chart_figure(type_scores(evaluation)))


def read_upload(path: str | None) -> str:
    """The text of an uploaded file (a byte-order mark dropped); an `InputProblem` when there is none, or it is
    too large or not UTF-8 text."""
    if not path:
        raise InputProblem("No file was uploaded.")
    name = Path(path).name
    size = os.path.getsize(path)
    if size > MAX_BYTES:
        raise InputProblem(f"{name} holds {size:,} bytes; the page evaluates at most {MAX_BYTES:,} bytes (1 MB).")
    try:
        return Path(path).read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputProblem(
            f"{name} is not UTF-8 text (byte {error.start:,} is {error.object[error.start]:#04x})."
        ) from None


def load_file(path: str | None, scheme: str = "IOB2", mode: str = "lenient") -> tuple[Any, ...]:
    """An uploaded CoNLL file: into the text box and evaluated as `evaluate_page` does, or a message when too
    large or not text."""
    try:
        text = read_upload(path)
    except InputProblem as problem:
        return (gr.skip(), *_empty_outputs(error_message(str(problem))), None, None)
    return (text, *evaluate_page(text, scheme, mode))


# ---------------------------------------------------------------------------------------------------------
# Comparing two systems
# ---------------------------------------------------------------------------------------------------------


def comparison_status(corpus: ComparedCorpus, scheme: str, mode: str) -> str:
    """What was compared, and how (the command line's `--compare` header in the page's words)."""
    return (
        f"Compared systems A and B on {_count(len(corpus.tokens), 'sentence')} "
        f"({_count(sum(map(len, corpus.tokens)), 'token')}), {scheme}, {mode} mode. B − A: "
        f"{COMPARE_CONFIDENCE_LEVEL:.0%} paired bootstrap interval (BCa) and two-sided approximate randomization "
        f"p-value, {COMPARE_RESAMPLES:,} resamples, seed {COMPARE_SEED}."
    )


def _compare(text: str, scheme: str, mode: str) -> tuple[str, Any, dict[str, float] | None]:
    try:
        corpus = parse_comparison("" if text is None else text)
        results = compare_corpus(corpus, scheme, mode)
    except InputProblem as problem:
        return error_message(str(problem), "compare"), pd.DataFrame(columns=COMPARE_HEADERS), None
    return comparison_status(corpus, scheme, mode), style_comparison(comparison_frame(results)), results


def compare_text(text: str, scheme: str = "IOB2", mode: str = "lenient") -> tuple[str, Any]:
    """What the `/compare` endpoint answers for CoNLL `text` of two systems (token, reference, A, B): the status
    and the comparison table (the metric's floats, shown formatted and tinted). Any text that cannot be compared
    gives a status saying why and an empty table, never an error."""
    status, table, _ = _compare(text, scheme, mode)
    return status, table


def compare_page(text: str, scheme: str = "IOB2", mode: str = "lenient") -> tuple[str, Any, Figure | None]:
    """`compare_text`'s two outputs and the picture of each scheme's F1 difference (none without a result)."""
    status, table, results = _compare(text, scheme, mode)
    return status, table, None if results is None else difference_figure(results)


# ---------------------------------------------------------------------------------------------------------
# Spans: JSON lines as the command line's --spans reads them
# ---------------------------------------------------------------------------------------------------------

# Of the drawn documents: at most this many characters of text in all, and this many entities of each side.
MAX_SHOWN_CHARACTERS = 20_000
MAX_SHOWN_ENTITIES = 2_000
SPANS_EXPECTED = (
    'expected one JSON object a line: {"text": ..., "references": [...], "predictions": [...]}, each entity '
    '{"start", "end" (exclusive), "type"} or [start, end, type]'
)


@dataclass(frozen=True)
class SpanCorpus:
    """The documents of span input: each one's text (None when not given), reference and predicted entities as
    given, and its line in the editor."""

    texts: list[str | None]
    references: list[list[Any]]
    predictions: list[list[Any]]
    lines: list[int]


def parse_spans(text: str) -> SpanCorpus:
    """The documents of JSON lines text (blank lines skipped), with the page's caps; a malformed line is a message
    naming it, as the command line's `--spans` reader words it."""
    command = "python ner_semeval.py --spans FILE.jsonl"
    texts: list[str | None] = []
    references: list[list[Any]] = []
    predictions: list[list[Any]] = []
    lines: list[int] = []
    for number, line in enumerate(_input_lines(text, command), start=1):
        if not line.strip():
            continue
        if len(lines) == MAX_SENTENCES:
            raise InputProblem(
                f"The input holds more than {MAX_SENTENCES:,} documents (line {number} starts document "
                f"{MAX_SENTENCES + 1:,}); the page evaluates at most {MAX_SENTENCES:,}. Use `{command}` for larger "
                "files."
            )
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputProblem(
                f"Line {number}: not JSON ({error.msg}, column {error.colno}); {SPANS_EXPECTED}."
            ) from None
        except RecursionError:
            raise InputProblem(f"Line {number}: JSON nested too deeply; {SPANS_EXPECTED}.") from None
        if not isinstance(record, dict):
            raise InputProblem(f"Line {number}: found a JSON {type(record).__name__}; {SPANS_EXPECTED}.")
        for key in ("references", "predictions"):
            if not isinstance(record.get(key), list):
                found = "no" if key not in record else f"a JSON {type(record[key]).__name__} for"
                raise InputProblem(f"Line {number}: found {found} {key!r}; {SPANS_EXPECTED}.")
        document_text = record.get("text")
        if document_text is not None and not isinstance(document_text, str):
            raise InputProblem(
                f"Line {number}: found a JSON {type(document_text).__name__} for 'text'; expected a string."
            )
        texts.append(document_text)
        references.append(record["references"])
        predictions.append(record["predictions"])
        lines.append(number)
    if not lines:
        raise InputProblem(
            'The input holds no documents: write one JSON object a line, {"text": ..., "references": [...], '
            '"predictions": [...]}.'
        )
    return SpanCorpus(texts, references, predictions, lines)


def _as_span(entity: Any, side: str, sentence: int, index: int) -> ner_semeval.Span:
    try:
        return ner_semeval.as_span(entity)
    except ner_semeval.InvalidInputError as error:
        raise error.at(side, sentence, entity=index) from None


def evaluate_spans(corpus: SpanCorpus) -> Evaluation:
    """The documents scored by the metric module with its default options (scheme and mode describe tags); an
    entity the metric refuses is a message naming the line, the side and the entity's index in its list."""
    options = ner_semeval.Options()
    try:
        # Each entity read as the metric reads it first, so that a malformed one (`[0, 2]`) is named as a bad
        # entity, not taken for a sequence of tag ids.
        spans = {
            side: [
                [_as_span(entity, side, number, index) for index, entity in enumerate(entities)]
                for number, entities in enumerate(getattr(corpus, side))
            ]
            for side in ("references", "predictions")
        }
        tally, rows = ner_semeval.tally_semeval(spans["predictions"], spans["references"], options)
    except ner_semeval.InvalidInputError as error:
        where = []
        if error.sentence is not None:
            where.append(f"Line {corpus.lines[error.sentence]}")
        if error.side is not None:
            where.append(f"{error.side}[{error.entity}]" if error.entity is not None else error.side)
        raise InputProblem(f"{', '.join(where)}: {error.problem}." if where else f"{error.problem}.") from None
    except ValueError as error:
        raise InputProblem(str(error)) from None
    entity_types = types_by_frequency(tally)
    shown = tuple(entity_types[:MAX_SHOWN_TYPES]) or None
    results = ner_semeval.scores(tally, dataclasses.replace(options, per_type=True, labels=shown))
    return Evaluation(results, ner_semeval.entity_rows(rows), entity_types, tally)


def span_text(text: str | None, start: int, end: int) -> str:
    """An entity's text cut from its document's by its character offsets, shortened; its offsets (``[start:end]``)
    when the document has no text or the entity ends beyond it."""
    if text is None or end > len(text):
        return f"[{start}:{end}]"
    return shorten(text[start : min(end, start + MAX_TEXT_CHARACTERS + 1)])


def span_scenario_frame(evaluation: Evaluation, corpus: SpanCorpus) -> pd.DataFrame:
    """`scenario_frame` for spans: the document's number, and each entity's text (or offsets)."""
    return _scenario_rows(evaluation, lambda document, start, end: span_text(corpus.texts[document], start, end))


# An entity as a highlighted document draws it: start, end (cut to the text drawn and to the entity around it),
# type and tooltip.
SpanMark = tuple[int, int, str, str]


def _nest(marks: list[SpanMark]) -> list[tuple[SpanMark, list]]:
    """The marks as a forest, each with the marks inside it: sorted by start, the longer first; a mark that
    crosses the end of the one around it is cut there (its tooltip keeps its own offsets)."""
    roots: list[tuple[SpanMark, list]] = []
    stack: list[tuple[SpanMark, list]] = []
    for start, end, entity_type, tooltip in sorted(marks, key=lambda mark: (mark[0], -mark[1])):
        while stack and stack[-1][0][1] <= start:
            stack.pop()
        if stack:
            end = min(end, stack[-1][0][1])
        node: tuple[SpanMark, list] = ((start, end, entity_type, tooltip), [])
        (stack[-1][1] if stack else roots).append(node)
        stack.append(node)
    return roots


def _highlight_text(
    text: str, start: int, end: int, nodes: list[tuple[SpanMark, list]], colours: dict[str, str]
) -> str:
    """``text[start:end]`` as HTML with the marks of `nodes` (and those inside them) as nested <mark>s."""
    parts = []
    position = start
    for (mark_start, mark_end, entity_type, tooltip), inside in nodes:
        parts.append(html.escape(text[position:mark_start]))
        parts.append(
            f'<mark style="background:{colours[entity_type]}" title="{html.escape(tooltip)}">'
            f"{_highlight_text(text, mark_start, mark_end, inside, colours)}"
            f'<span class="entity-type">{html.escape(shorten(entity_type))}</span></mark>'
        )
        position = mark_end
    parts.append(html.escape(text[position:end]))
    return "".join(parts)


def _offsets_only(marks: list[SpanMark], colours: dict[str, str]) -> str:
    """A document without text: its entities as offsets, in order."""
    if not marks:
        return f'<span class="no-text">{NONE}</span>'
    return " ".join(
        f'<mark style="background:{colours[entity_type]}" title="{html.escape(tooltip)}">{start}–{end}'
        f'<span class="entity-type">{html.escape(shorten(entity_type))}</span></mark>'
        for start, end, entity_type, tooltip in sorted(marks, key=lambda mark: (mark[0], -mark[1]))
    )


def spans_html(evaluation: Evaluation, corpus: SpanCorpus) -> str:
    """Each drawn document twice, reference and prediction, its character spans highlighted by type: nested
    entities as nested marks (each with its type; hover one for its offsets and scenario), an entity that
    crosses another's end cut there. The first `MAX_SHOWN_SENTENCES` documents, `MAX_SHOWN_CHARACTERS` of text
    and `MAX_SHOWN_ENTITIES` entities of each side in all; a note says what was left out."""
    colours = {t: TYPE_COLOURS[i % len(TYPE_COLOURS)] for i, t in enumerate(evaluation.entity_types)}
    documents = min(len(corpus.lines), MAX_SHOWN_SENTENCES)
    cuts = []  # the characters drawn of each drawn document
    budget = MAX_SHOWN_CHARACTERS
    for text in corpus.texts[:documents]:
        if budget == 0:
            break
        cuts.append(min(len(text or ""), budget))
        budget -= cuts[-1]
    sides: list[tuple[list[SpanMark], list[SpanMark]]] = [([], []) for _ in cuts]
    left_out_entities = 0
    drawn_entities = [0, 0]
    for row in evaluation.entities:  # in document order
        if row["sentence"] >= len(cuts):
            break
        text = corpus.texts[row["sentence"]]
        cut = cuts[row["sentence"]]
        scenario = f"scenario {row['scenario']}: " + ", ".join(f"{s} {row[s]}" for s in SCHEME_COLUMNS)
        for number, (side, marks) in enumerate(zip((row["reference"], row["prediction"]), sides[row["sentence"]])):
            if side is None:
                continue
            if drawn_entities[number] == MAX_SHOWN_ENTITIES:
                left_out_entities += 1
                continue
            tooltip = f"{side['type']} [{side['start']}:{side['end']}], {scenario}"
            if text is None:
                marks.append((side["start"], side["end"], side["type"], tooltip))
            elif side["start"] < cut:
                marks.append((side["start"], min(side["end"], cut), side["type"], tooltip))
            else:
                continue
            drawn_entities[number] += 1
    parts = []
    for index, (cut, (reference_marks, predicted_marks)) in enumerate(zip(cuts, sides)):
        text = corpus.texts[index]
        drawings = []
        for marks in (reference_marks, predicted_marks):
            if text is None:
                drawings.append(_offsets_only(marks, colours))
            else:
                rest = f" {ELLIPSIS}" if cut < len(text) else ""
                drawings.append(
                    f'<span class="doc-text">{_highlight_text(text, 0, cut, _nest(marks), colours)}</span>{rest}'
                )
        parts.append(
            f'<div class="sentence"><div class="number">{index + 1}</div><div>'
            f'<div class="side"><span class="side-name">reference</span> {drawings[0]}</div>'
            f'<div class="side"><span class="side-name">predicted</span> {drawings[1]}</div></div></div>'
        )
    left_out = []
    last = len(cuts) - 1
    if cuts and corpus.texts[last] is not None and cuts[last] < len(corpus.texts[last] or ""):
        left_out.append(f"document {last + 1:,} is cut after {cuts[last]:,} of {len(corpus.texts[last]):,} characters")
    if len(cuts) < len(corpus.lines):
        left_out.append(f"the first {len(cuts):,} of {len(corpus.lines):,} documents are shown")
    if left_out_entities:
        left_out.append(
            f"{left_out_entities:,} entities beyond the first {MAX_SHOWN_ENTITIES:,} of a side are not drawn"
        )
    if left_out:
        note = "; ".join(left_out)
        parts.append(f'<p class="left-out">{note[0].upper()}{note[1:]}; the scores cover all.</p>')
    return "\n".join(parts)


def spans_status(evaluation: Evaluation, corpus: SpanCorpus) -> str:
    """What was evaluated, and what the tables leave out."""
    results = evaluation.results
    without_text = sum(text is None for text in corpus.texts)
    status = (
        f"Evaluated {_count(len(corpus.lines), 'document')} of spans: {results['strict_possible']:,} reference and "
        f"{_count(results['strict_actual'], 'predicted entity')} (character offsets, end exclusive; scheme and "
        "mode describe tags and do not apply)."
    )
    if without_text:
        status += f" {_count(without_text, 'document')} without `text`: entities shown by their offsets."
    if len(evaluation.entities) > MAX_TABLE_ROWS:
        status += f" The scenario table shows the first {MAX_TABLE_ROWS:,} of {len(evaluation.entities):,} rows."
    if len(evaluation.entity_types) > MAX_SHOWN_TYPES:
        status += (
            f" The per-type table shows the {MAX_SHOWN_TYPES:,} most frequent of "
            f"{len(evaluation.entity_types):,} entity types."
        )
    return status


def spans_page(text: str) -> PageOutputs:
    """`evaluate_page`'s seven outputs for JSON lines of spans: status, scenario table, summary, per-type table,
    highlighted documents, heatmap and chart."""
    try:
        corpus = parse_spans("" if text is None else text)
        evaluation = evaluate_spans(corpus)
    except InputProblem as problem:
        return (*_empty_outputs(error_message(str(problem))), None, None)
    outputs = (
        spans_status(evaluation, corpus),
        style_scenarios(span_scenario_frame(evaluation, corpus)),
        summary_frame(evaluation.results),
        per_type_frame(evaluation),
        spans_html(evaluation, corpus),
    )
    if not evaluation.entity_types:
        return (*outputs, None, None)
    return (*outputs, heatmap_figure(confusion_data(evaluation)), type_chart_figure(type_scores(evaluation)))


# ---------------------------------------------------------------------------------------------------------
# The page: one system or two
# ---------------------------------------------------------------------------------------------------------

ONE_SYSTEM_LABEL = "CoNLL input: token, reference tag, predicted tag"
TWO_SYSTEMS_LABEL = "CoNLL input: token, reference tag, system A's tag, system B's tag (the last three columns)"
SPANS_LABEL = 'JSON lines: {"text": ..., "references": [...], "predictions": [...]}, entities {"start", "end", "type"}'
LABELS = {ONE_SYSTEM: ONE_SYSTEM_LABEL, TWO_SYSTEMS: TWO_SYSTEMS_LABEL, SPANS: SPANS_LABEL}


def run_page(text: str, scheme: str = "IOB2", mode: str = "lenient", task: str = ONE_SYSTEM) -> tuple[Any, ...]:
    """Every output of the page for its four inputs: `evaluate_page`'s seven, then the comparison table and the
    difference picture; the outputs of the task not chosen are emptied, so nothing stale stays behind them."""
    if task == TWO_SYSTEMS:
        status, table, figure = compare_page(text, scheme, mode)
        return (status, *_empty_outputs("")[1:], None, None, table, figure)
    if task == SPANS:
        return (*spans_page(text), pd.DataFrame(columns=COMPARE_HEADERS), None)
    return (*evaluate_page(text, scheme, mode), pd.DataFrame(columns=COMPARE_HEADERS), None)


def upload_page(path: str | None, scheme: str, mode: str, task: str) -> tuple[Any, ...]:
    """An uploaded file: into the text box and run as the chosen task, or a message (`read_upload`)."""
    try:
        text = read_upload(path)
    except InputProblem as problem:
        _, *empty = run_page("", scheme, mode, task)
        return (gr.skip(), error_message(str(problem), "compare" if task == TWO_SYSTEMS else "evaluate"), *empty)
    return (text, *run_page(text, scheme, mode, task))


def show_task(task: str) -> tuple[Any, ...]:
    """The outputs of the chosen task shown and the other's hidden; the editor's label and the button say what
    the page reads and does."""
    two = task == TWO_SYSTEMS
    return (
        gr.update(visible=not two),  # the summary table
        gr.update(visible=two),  # the comparison table
        gr.update(visible=not two),  # scenarios, pictures, sentences, per type
        gr.update(visible=two),  # the comparison's explanation and picture
        gr.update(label=LABELS.get(task, ONE_SYSTEM_LABEL)),
        gr.update(value="Compare" if two else "Evaluate"),
    )


def tag_controls(task: str) -> tuple[Any, Any]:
    """The scheme and mode controls, which describe tags: disabled for spans (the metric refuses them there)."""
    tags = task != SPANS
    return gr.update(interactive=tags), gr.update(interactive=tags)


def switch_task(text: str, task: str) -> tuple[Any, Any, Any]:
    """The editor's text, scheme and mode when the task changes: an example of one task, left as it was, becomes
    an example of the other (so that the switch shows a result, not a message about columns); anything else is
    kept as it is. (The editor sends its text without the examples' last line break.)"""
    text = text.rstrip() if isinstance(text, str) else text
    one_system_examples = {example.rstrip() for example in (WORKED_EXAMPLE, ENGLISH_EXAMPLE, IOBES_EXAMPLE)}
    examples = {ONE_SYSTEM: WORKED_EXAMPLE, TWO_SYSTEMS: COMPARE_EXAMPLE, SPANS: SPANS_EXAMPLE}
    example_of = dict.fromkeys(one_system_examples, ONE_SYSTEM)
    example_of |= {COMPARE_EXAMPLE.rstrip(): TWO_SYSTEMS, SPANS_EXAMPLE.rstrip(): SPANS}
    if text in example_of and example_of[text] != task and task in examples:
        return examples[task], "IOB2", "lenient"
    return gr.skip(), gr.skip(), gr.skip()


def build_demo() -> gr.Blocks:
    """The page: input and summary side by side, then the scenario table, the sentences and the explanation; or,
    comparing two systems, input and comparison table side by side, then the picture of the differences."""
    with gr.Blocks(title="ner_semeval: SemEval-2013 NER scores") as demo:
        gr.Markdown(INTRODUCTION)
        with gr.Row():
            with gr.Column(scale=5, min_width=320):
                # What the page does, and so how it reads the columns: chosen here, never guessed from their
                # number (CoNLL files often carry part-of-speech and chunk columns).
                task = gr.Radio(TASKS, value=ONE_SYSTEM, show_label=False, elem_id="task")
                # A code editor rather than a text box: monospace columns and line numbers that match the
                # line numbers of the error messages.
                text = gr.Code(
                    value=WORKED_EXAMPLE,
                    language=None,
                    label=ONE_SYSTEM_LABEL,
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
                comparison = gr.Dataframe(
                    headers=COMPARE_HEADERS,
                    label="System B against system A: B − A, its interval (low to high) and the p-value",
                    interactive=False,
                    elem_id="comparison",
                    max_height=520,
                    # Fixed shares, so that the eight columns fit the column beside the editor without scrolling.
                    column_widths=["12%", "15%", "11%", "11%", "13%", "12.5%", "12.5%", "13%"],
                    visible=False,
                )
                examples = gr.Examples(
                    EXAMPLES,
                    inputs=[text, scheme, mode, task],
                    example_labels=EXAMPLE_LABELS,
                    cache_examples=False,
                    label="Examples",
                )
        with gr.Column(elem_id="one-system") as one_system:
            scenarios = gr.Dataframe(
                headers=SCENARIO_HEADERS,
                label="Scenarios: one row per entity pair or unpaired entity, outcome under each scheme",
                interactive=False,
                wrap=True,
                elem_id="scenarios",
                max_height=480,
            )
            gr.Markdown(PICTURES_TEXT)
            with gr.Row():
                with gr.Column(min_width=420):
                    heatmap = gr.Plot(
                        label="Confusion of entity types", format="png", show_label=False, elem_id="heatmap"
                    )
                with gr.Column(min_width=420):
                    chart = gr.Plot(label="F1 per entity type", format="png", show_label=False, elem_id="type-chart")
            gr.Markdown("### Sentences\nReference and predicted entities by type; hover an entity for its scenario.")
            sentences = gr.HTML(css_template=SENTENCES_CSS, js_on_load=None, elem_id="sentences")
            per_type = gr.Dataframe(
                headers=TYPE_HEADERS,
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
                gr.Markdown(COMPARE_TEXT)
        gr.Markdown(EXPLANATION)

        outputs = [status, scenarios, summary, per_type, sentences]
        page_outputs = [*outputs, heatmap, chart, comparison, difference]
        inputs = [text, scheme, mode]
        page_inputs = [*inputs, task]
        # Every event that evaluates shares one pool of EVALUATIONS_AT_ONCE workers, so a short request runs
        # beside a long one instead of behind it.
        pool = {"concurrency_id": "evaluate", "concurrency_limit": EVALUATIONS_AT_ONCE}
        # The `/evaluate` API endpoint answers evaluate_text's five outputs, as it always has; it hangs on a
        # button that is never shown, so that the page's own events can add the pictures without evaluating
        # twice or changing what API callers get.
        api = gr.Button(visible=False, elem_id="evaluate-api")
        api.click(evaluate_text, inputs=inputs, outputs=outputs, api_name="evaluate", **pool)
        # `/compare` (text, scheme, mode) answers compare_text's status and comparison table, on a hidden button too.
        compare_api = gr.Button(visible=False, elem_id="compare-api")
        compare_api.click(compare_text, inputs=inputs, outputs=[status, comparison], api_name="compare", **pool)
        # The button, examples, selectors and the first page view evaluate (or compare) at once, pictures included.
        private = {"api_visibility": "private", **pool}
        button.click(run_page, inputs=page_inputs, outputs=page_outputs, **private)
        examples.load_input_event.then(run_page, inputs=page_inputs, outputs=page_outputs, **private)
        scheme.input(run_page, inputs=page_inputs, outputs=page_outputs, **private)
        mode.input(run_page, inputs=page_inputs, outputs=page_outputs, **private)
        upload.upload(upload_page, inputs=[upload, scheme, mode, task], outputs=[text, *page_outputs], **private)
        demo.load(run_page, inputs=page_inputs, outputs=page_outputs, **private)
        # The task control shows its task's outputs (on a click, and when an example sets it), and a click runs
        # the task, on the other task's example when the editor holds an example of this one.
        task.change(
            show_task,
            inputs=task,
            outputs=[summary, comparison, one_system, two_systems, text, button],
            api_visibility="private",
            queue=False,
        )
        task.change(tag_controls, inputs=task, outputs=[scheme, mode], api_visibility="private", queue=False)
        task.input(
            switch_task, inputs=[text, task], outputs=[text, scheme, mode], api_visibility="private", queue=False
        ).then(run_page, inputs=page_inputs, outputs=page_outputs, **private)
    return demo


demo = build_demo()

if __name__ == "__main__":
    # Host and port come from GRADIO_SERVER_NAME / GRADIO_SERVER_PORT (default 127.0.0.1:7860).
    demo.launch(max_file_size="10mb")
