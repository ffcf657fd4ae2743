"""The page's tables as pandas frames: the summary, the per-type table, the scenario table (of tags or of spans)
with its outcomes coloured, and the comparison of two systems with its differences tinted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd
from pandas.io.formats.style import Styler

import nerscore

from . import caps, colours, writing
from .parsing import Corpus, SpanCorpus
from .scoring import COMPARE_SCHEMES, SCHEME_COLUMNS, Evaluation, verdict

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
# The comparison's rows, as the command line's `format_comparison` orders them: strict to type, and in each
# scheme precision, recall and F1.
COMPARE_MEASURES = (("precision", "precision"), ("recall", "recall"), ("f1", "F1"))
COMPARE_HEADERS = ["scheme", "measure", "A", "B", "B − A", "low", "high", "p-value"]
# With the value control on, the comparison's value rows (docs/scoring.md §10).
VALUE_MEASURES = (("value", "value"), ("value_precision", "precision"), ("value_recall", "recall"), ("value_f1", "F1"))


DIAGNOSTICS_HEADERS = ["diagnostic", "count"]
ERRORS_HEADERS = ["count", "scenario", "reference text", "reference type", "predicted text", "predicted type"]


def diagnostics_frame(results: dict[str, Any]) -> pd.DataFrame:
    """The boundary diagnostics of a result (docs/scoring.md §11), one a row; empty without them."""
    rows = [[key, str(results[key])] for key in nerscore.DIAGNOSTIC_KEYS if key in results]
    return pd.DataFrame(rows, columns=DIAGNOSTICS_HEADERS)


def errors_frame(results: dict[str, Any]) -> pd.DataFrame:
    """The most frequent errors by entity text and type (the result's `errors`, at most `caps.MAX_ERROR_ROWS`),
    texts and types shortened as in the other tables; "—" on the side an unpaired entity lacks."""
    fields = ("scenario", "reference_text", "reference_type", "predicted_text", "predicted_type")
    rows = [
        [str(row["count"]), *("—" if row[field] is None else writing.shorten(row[field]) for field in fields)]
        for row in results.get("errors", [])[: caps.MAX_ERROR_ROWS]
    ]
    return pd.DataFrame(rows, columns=ERRORS_HEADERS)


def summary_frame(results: dict[str, Any]) -> pd.DataFrame:
    """The summary table of `nerscore.summary_rows`: MUC counts and scores (rows) by type / partial / exact
    / strict (columns), in the page's number format."""
    rows = [[label, *map(writing.format_number, values)] for label, values in nerscore.summary_rows(results)]
    if "value" in results:  # docs/scoring.md §10: one number of its own pairing, the same under every scheme
        rows.append(["value", *[writing.format_number(results["value"])] * len(SCHEME_COLUMNS)])
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
                    writing.shorten(entity_type),
                    scheme,
                    *(writing.format_number(results[f"{key}_{m}"]) for m in ("precision", "recall", "f1")),
                    str(results[f"{key}_possible"]),
                    str(results[f"{key}_actual"]),
                ]
            )
    return pd.DataFrame(rows, columns=TYPE_HEADERS)


def scenario_frame(evaluation: Evaluation, corpus: Corpus) -> pd.DataFrame:
    """The worked example's first table for the input: one row per pair or unpaired entity with its scenario
    and its outcome under each scheme (the first `caps.MAX_TABLE_ROWS` rows)."""
    return _scenario_rows(
        evaluation, lambda sentence, start, end: writing.entity_text(corpus.tokens[sentence], start, end)
    )


def span_scenario_frame(evaluation: Evaluation, corpus: SpanCorpus) -> pd.DataFrame:
    """`scenario_frame` for spans: the document's number, and each entity's text (or offsets)."""
    return _scenario_rows(
        evaluation,
        lambda document, start, end: writing.span_text(corpus.texts[document], start, end),
        lambda document, fragments: writing.pieces_text(corpus.texts[document], fragments),
    )


def _scenario_rows(
    evaluation: Evaluation,
    text_of: Callable[[int, int, int], str],
    pieces_of: Callable[[int, list[list[int]]], str] | None = None,
) -> pd.DataFrame:
    """The scenario table, each entity's text given by `text_of(sentence, start, end)`, or for an entity of
    several fragments by `pieces_of(document, fragments)` (docs/scoring.md §12)."""
    rows = []
    for row in evaluation.entities[: caps.MAX_TABLE_ROWS]:
        cells = [str(row["sentence"] + 1), row["scenario"]]
        for side in (row["reference"], row["prediction"]):
            if side is None:
                cells += [writing.NONE, writing.NONE]
            else:
                shown = (
                    writing.shorten(side["text"])  # an ungrounded string: its text as given, no offsets
                    if side["start"] is None
                    else pieces_of(row["sentence"], side["fragments"])
                    if pieces_of is not None and "fragments" in side
                    else text_of(row["sentence"], side["start"], side["end"])
                )
                cells += [writing.shorten(side["type"]), shown]
        cells += [row[scheme] for scheme in SCHEME_COLUMNS]
        rows.append(cells)
    return pd.DataFrame(rows, columns=SCENARIO_HEADERS)


def _outcome_style(value: str) -> str:
    colour = colours.OUTCOME_COLOURS.get(value)
    return f"background-color: {colour}; color: #111111; font-weight: 600" if colour else ""


def style_scenarios(frame: pd.DataFrame) -> Styler:
    """The scenario table with each outcome cell coloured by COR / INC / PAR / MIS / SPU."""
    return frame.style.map(_outcome_style, subset=list(SCHEME_COLUMNS))


def comparison_frame(results: dict[str, float]) -> pd.DataFrame:
    """The comparison as a table, one row per scheme and measure: A, B, B - A, low, high and the p-value, the
    metric's floats unrounded (an API caller gets them as they are; `style_comparison` formats them)."""
    rows = []
    for scheme in COMPARE_SCHEMES:
        for measure, label in COMPARE_MEASURES:
            key = f"{scheme}_{measure}"
            ends = ("a", "b", "delta", "delta_low", "delta_high", "p_value")
            rows.append([scheme, label, *(results[f"{key}_{end}"] for end in ends)])
    if "value_a" in results:  # docs/scoring.md §10
        for key, label in VALUE_MEASURES:
            rows.append(["value", label, *(results[f"{key}_{end}"] for end in ends)])
    return pd.DataFrame(rows, columns=COMPARE_HEADERS)


def _difference_style(row: pd.Series) -> list[str]:
    colour = colours.DIFFERENCE_CELL_COLOURS.get(verdict(row["low"], row["high"]))
    style = f"background-color: {colour}; color: #111111; font-weight: 600" if colour else ""
    return [style if column in ("B − A", "low", "high") else "" for column in row.index]


def style_comparison(frame: pd.DataFrame) -> Styler:
    """The comparison table as the page shows it: numbers written as the command line writes them (four
    decimals, the differences signed), and B - A with its interval tinted where zero lies outside it (blue: B
    better, orange: A better)."""
    signed = "{:+.4f}".format
    formats = {"A": "{:.4f}".format, "B": "{:.4f}".format, "p-value": writing.format_p_value}
    formats |= dict.fromkeys(("B − A", "low", "high"), signed)
    return frame.style.format(formats).apply(_difference_style, axis=1)
