"""The page's Agreement task (docs/agreement.md): how far two or more annotators agree, from the editor's text.

The text is one of the layouts the package's readers take from a single file: CoNLL with the token first and one
tag column per annotator (`nerscore.read_conll_annotators`), JSON lines of spans with every annotator's entities
on each line (`nerscore.read_jsonl_annotators`), or a Label Studio JSON export whose tasks hold one annotation per
annotator (`nerscore.read_label_studio_annotators`). The readers read files, so the text is written to a temporary
file of its own and read back by them; nothing here parses the annotations. An uploaded ZIP archive holds what the
command line reads from several paths, BRAT folders or doccano's export of one file per annotator among them
(`space/archives.py`, read by `nerscore.read_annotators` as ``ner-semeval agreement`` reads its paths). What
`nerscore.agreement` answers is shown as a table of the pairs (F1 per scheme, Cohen's κ), a table of the
coefficients over all annotators (Fleiss' κ, Krippendorff's α, on all units and on the labelled ones), the most
frequent disagreements (the pairs' `errors`, docs/scoring.md §11) and a heatmap of the pairwise F1 per scheme.

Capped like the other tasks (`space/caps.py`): the bytes and sentences of any input, at most
`caps.MAX_AGREEMENT_ANNOTATORS` annotators, at most `caps.MAX_AGREEMENT_WORK` units times pairs (the work of
scoring every pair) and `caps.MAX_AGREEMENT_LABELS` labels, and, for spans that nest, the overlapping pairs that
`scoring.check_cost` bounds. Input that cannot be read is a message naming the line, never an error.
`agreement_text` is the `/agreement` endpoint; `agreement_page` adds the picture.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

import nerscore

from . import caps, pictures, writing
from .answers import error_message
from .archives import is_archive, read_archive
from .parsing import InputProblem, input_lines, read_upload
from .scoring import COMPARE_SCHEMES, overlapping_pairs, shares_a_character

# The layouts the editor's text may take, as the status names them.
CONLL = "CoNLL columns"
LABEL_STUDIO = "Label Studio export"
SPAN_LINES = "JSON lines of spans"
BRAT = "BRAT folders"
DOCCANO = "doccano exports"
# An archive's layout (`nerscore.file_format`'s names) as the status names it.
ARCHIVE_LAYOUTS = {"brat": BRAT, "doccano": DOCCANO, "conll": CONLL, "label-studio": LABEL_STUDIO, "jsonl": SPAN_LINES}

# A and B are the pair's annotators, then F1 per scheme and Cohen's κ (the table's label says so).
PAIR_HEADERS = ["A", "B", *COMPARE_SCHEMES, "κ", "κ labelled"]
COEFFICIENT_HEADERS = ["coefficient", "all units", "labelled units"]
DISAGREEMENT_HEADERS = [
    "annotator A",
    "annotator B",
    "count",
    "scenario",
    "A's text",
    "A's type",
    "B's text",
    "B's type",
]

# JSON lines of spans without texts: the units are the texts' characters, and without them nothing bounds the work.
NO_TEXTS = (
    'The page measures JSON lines of spans with each line\'s "text" (the annotated document); use '
    "`ner-semeval agreement FILE.jsonl` for spans without texts."
)

# A Label Studio export is a JSON list of task objects: `[` first, then `{` (or `]` for none), on its line or the
# next. A CoNLL line whose token is `[` has tag columns after it instead.
_JSON_START = re.compile(r"\s*\[\s*([{\]]|$)")


@dataclass(frozen=True)
class Annotations:
    """What the readers read: the layout, each annotator's batch (None for a task it skipped), the tokens (CoNLL)
    or texts (Label Studio) the annotators share, and the editor's line each sentence or task starts on; for an
    uploaded archive, `files` names the archive's file each starts in (a BRAT document's name, whose line is 0)."""

    layout: str
    annotations: dict[str, list[Any]]
    tokens: list[list[str]] | None
    texts: list[str] | None
    lines: list[int]
    files: list[str] | None = None

    @property
    def names(self) -> list[str]:
        return list(self.annotations)

    def units(self) -> int:
        """The units the coefficients count, bounded above: tokens, or characters of the texts."""
        return sum(map(len, self.tokens if self.tokens is not None else self.texts or ()))

    def where(self, index: int, token: int | None = None) -> str:
        """Where sentence (or document) `index` is, with its `token`'s line for CoNLL: the editor's line, or an
        archive's file (and line)."""
        line = self.lines[index] + (token or 0 if self.layout == CONLL else 0)
        if self.files is None:
            return f"Line {line}"
        return f"Document {self.files[index]}" if not self.lines[index] else f"{self.files[index]}, line {line}"


def _read_with(reader: Callable[[str], nerscore.AnnotatorBatches], lines: list[str]) -> nerscore.AnnotatorBatches:
    """`reader` of the editor's lines, written to a temporary file (the package's readers read files), with line
    breaks as the editor counts them, so that a `ConllError`'s line is the editor's line."""
    with tempfile.TemporaryDirectory(prefix="ner-semeval-agreement-") as directory:
        path = os.path.join(directory, "input")
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write("\n".join(lines))
        try:
            return reader(path)
        except nerscore.ConllError as error:
            raise InputProblem(f"Line {error.line}: {error.problem}." if error.line else f"{error.problem}.") from None
        except ValueError as error:  # a reader's other refusals name no path of ours
            raise InputProblem(str(error).replace(path, "the input")) from None


def _first_line(document: str) -> int:
    """The line a reader's `documents` entry (``path:line``) names."""
    return int(document.rsplit(":", 1)[1])


def parse_annotations(text: str) -> Annotations:
    """The annotators' batches of the editor's text, read by the package's readers within the page's caps: a
    Label Studio JSON export when the text starts with a JSON list of objects, else CoNLL with the token first and
    one tag column per annotator. An `InputProblem` names the line of anything the page cannot read."""
    # A pasted byte-order mark (as an upload's is, parsing.read_upload) is dropped: before a JSON export's '[' it
    # made the export read as CoNLL columns, "11 annotators".
    text = "" if text is None else text.removeprefix("\ufeff") if isinstance(text, str) else text
    lines = input_lines(text, "ner-semeval agreement FILE")
    if not any(line.strip() for line in lines):
        raise InputProblem(
            "The input holds no sentences: write one token per line, then one tag per annotator (two or more), "
            "or paste a Label Studio JSON export with several annotators."
        )
    if _JSON_START.match(text):
        # Annotators beyond the cap refused as they are read: the batches are annotators x tasks (a 1 MB export of
        # a new annotator a task held 12,000 x 12,000 of them, 1.3 GB, before the cap was checked).
        most = caps.MAX_AGREEMENT_ANNOTATORS
        read = _read_with(partial(nerscore.read_label_studio_annotators, max_annotators=most), lines)
        layout = LABEL_STUDIO
    elif text.lstrip().startswith("{"):
        read = _read_with(partial(nerscore.read_jsonl_annotators, max_annotators=caps.MAX_AGREEMENT_ANNOTATORS), lines)
        layout = SPAN_LINES
        if read.texts is None:
            raise InputProblem(NO_TEXTS)
    else:
        read = _read_with(lambda path: nerscore.read_conll_annotators([path]), lines)
        layout = CONLL
    starts = [_first_line(document) for document in read.documents]
    return _within_caps(Annotations(layout, read.annotations, read.tokens, read.texts, starts))


def parse_archive(path: str) -> Annotations:
    """The annotators' batches of an uploaded ZIP archive (`space/archives.py`: BRAT folders, doccano's export, or
    any layout ``ner-semeval agreement`` reads from several paths), read as the command line reads them, within
    the page's caps. An `InputProblem` names the archive's file (and line) of anything the page cannot read."""
    read = read_archive(path)
    layout = ARCHIVE_LAYOUTS[read.form]
    if layout == SPAN_LINES and read.read.texts is None:
        raise InputProblem(NO_TEXTS)
    batches = read.read
    return _within_caps(Annotations(layout, batches.annotations, batches.tokens, batches.texts, read.lines, read.files))


def _within_caps(annotations: Annotations) -> Annotations:
    """`annotations`, or an `InputProblem` when they exceed the page's caps: sentences (documents, tasks),
    annotators, and units times pairs."""
    layout, read, starts = annotations.layout, annotations, annotations.lines
    noun = {CONLL: "sentence", SPAN_LINES: "document", BRAT: "document", DOCCANO: "document"}.get(layout, "task")
    if len(starts) > caps.MAX_SENTENCES:
        start = annotations.where(caps.MAX_SENTENCES)
        start = f"line {starts[caps.MAX_SENTENCES]}" if annotations.files is None else start
        raise InputProblem(
            f"The input holds more than {caps.MAX_SENTENCES:,} {noun}s ({start} starts "
            f"{noun} {caps.MAX_SENTENCES + 1:,}); the page measures at most {caps.MAX_SENTENCES:,}. Use "
            "`ner-semeval agreement FILE` for larger files."
        )
    names = list(read.annotations)
    if "" in names:  # (as the package's readers refuse it: `--names`, a Label Studio task's completed_by)
        raise InputProblem(f"Annotator {names.index('') + 1} of {len(names)} has an empty name; expected a name.")
    if len(names) < 2:
        found = f"one annotator ({names[0]!r})" if names else "no annotator"
        raise InputProblem(f"The input holds {found}; agreement needs two or more annotators.")
    if len(names) > caps.MAX_AGREEMENT_ANNOTATORS:
        raise InputProblem(
            f"The input holds {len(names)} annotators; the page measures at most {caps.MAX_AGREEMENT_ANNOTATORS} "
            f"(every pair is scored). Use `ner-semeval agreement FILE` for more."
        )
    pairs = len(names) * (len(names) - 1) // 2
    work = annotations.units() * pairs
    if work > caps.MAX_AGREEMENT_WORK:
        unit = "token" if layout == CONLL else "character"
        raise InputProblem(
            f"The input holds {writing.count(annotations.units(), unit)} and {writing.count(pairs, 'pair')} of "
            f"annotators, {work:,} {unit}s to score in all; the page scores at most {caps.MAX_AGREEMENT_WORK:,}. Send "
            "fewer sentences or annotators, or use `ner-semeval agreement FILE`."
        )
    return annotations


def _annotator_problem(error: nerscore.InvalidInputError, annotations: Annotations) -> InputProblem:
    """A tag or entity error as the page says it: the editor's line and the annotator (its column for CoNLL)."""
    names = annotations.names
    name = next((name for name in names if error.side == f"annotations[{name!r}]"), None)
    who = ""
    if name is not None:
        # Columns of one CoNLL text; an archive's CoNLL annotators may be files of their own.
        column = annotations.layout == CONLL and annotations.files is None
        who = f"column {names.index(name) + 2} ({name})" if column else f"annotator {name}"
    where = ""
    if error.sentence is not None and error.sentence < len(annotations.lines):
        # A sentence's tokens are on consecutive lines (a blank or -DOCSTART- line ends it).
        where = annotations.where(error.sentence, error.token)
        if annotations.layout != CONLL and error.entity is not None:
            where += f", entity {error.entity}"
    problem = error.hint("choose {} in the Tagging scheme menu")
    place = ", ".join(part for part in (where, who) if part)
    return InputProblem(f"{place}: {problem}." if place else f"{problem}.")


def _check_span_cost(annotations: Annotations) -> None:
    """Spans of an annotator that nest, overlap or repeat make the pairing of two annotators an assignment problem
    (space/caps.py says what that costs): the overlapping entity pairs of two annotators in such a task are at
    most `caps.MAX_DOCUMENT_PAIRS`, and of all pairs of annotators and tasks at most `caps.MAX_REQUEST_PAIRS`."""
    if annotations.layout == CONLL:
        _check_labels({tag for batch in annotations.annotations.values() for tags in batch for tag in tags or ()})
        return
    # A task an annotator skipped (None) has no entity of its; each entity's task is its sentence in an error.
    spans = {
        name: nerscore.read_spans([[] if task is None else task for task in batch], f"annotations[{name!r}]")
        for name, batch in annotations.annotations.items()
    }
    _check_labels({span.entity_type for tasks in spans.values() for task in tasks for span in task})
    nesting = {name: [shares_a_character(task) for task in tasks] for name, tasks in spans.items()}
    command = "ner-semeval agreement FILE"
    total = 0
    for first, second in combinations(annotations.names, 2):
        for task in range(len(annotations.lines)):
            if not (nesting[first][task] or nesting[second][task]):
                continue
            pairs = overlapping_pairs(spans[first][task], spans[second][task])
            if pairs > caps.MAX_DOCUMENT_PAIRS:
                raise InputProblem(
                    f"{annotations.where(task)}: the task's entities nest, overlap or repeat, and {pairs:,} pairs of "
                    f"an entity of {first} and one of {second} overlap; the page pairs such tasks of at most "
                    f"{caps.MAX_DOCUMENT_PAIRS:,} overlapping pairs. Use `{command}` for this one."
                )
            total += pairs
            if total > caps.MAX_REQUEST_PAIRS:
                raise InputProblem(
                    f"{annotations.where(task)}: the tasks up to this line whose entities nest, overlap or repeat "
                    f"hold {total:,} overlapping pairs of two annotators' entities (every pair of annotators "
                    f"counted); the page pairs at most {caps.MAX_REQUEST_PAIRS:,} in a request. Send fewer tasks or "
                    f"annotators, or use `{command}`."
                )


def _check_labels(labels: set[Any]) -> None:
    """An `InputProblem` beyond `caps.MAX_AGREEMENT_LABELS` labels (tags, or types of spans): pairs sum over them."""
    if len(labels) > caps.MAX_AGREEMENT_LABELS:
        raise InputProblem(
            f"The annotators use {len(labels):,} distinct tags or entity types; the page measures at most "
            f"{caps.MAX_AGREEMENT_LABELS:,}. Use `ner-semeval agreement FILE` for more."
        )


def measure(annotations: Annotations, scheme: str = "IOB2", mode: str = "lenient") -> dict[str, Any]:
    """`nerscore.agreement` of the annotators, with each pair's `caps.MAX_ERROR_ROWS` most frequent
    disagreements; scheme and mode apply to tags (CoNLL), not to a Label Studio export's spans."""
    options: dict[str, Any] = {"errors": caps.MAX_ERROR_ROWS}
    if annotations.layout == CONLL:
        options |= {"scheme": scheme, "mode": mode, "tokens": annotations.tokens}
    else:
        options["texts"] = annotations.texts
    try:
        _check_span_cost(annotations)
        return nerscore.agreement(annotations.annotations, **options)
    except nerscore.InvalidInputError as error:
        raise _annotator_problem(error, annotations) from None
    except InputProblem:
        raise
    except ValueError as error:
        raise InputProblem(str(error)) from None


# ---------------------------------------------------------------------------------------------------------
# What the page shows
# ---------------------------------------------------------------------------------------------------------


def pairs_frame(result: dict[str, Any]) -> pd.DataFrame:
    """One row per pair of annotators (A is the reference side): F1 per scheme, strict to type, and Cohen's κ on
    all units and on the labelled ones; then the mean of the pairs' F1 and the pooled F1 (κ left blank there)."""
    rows = []
    for pair in result["pairs"]:
        f1 = [writing.format_number(pair[f"{scheme}_f1"]) for scheme in COMPARE_SCHEMES]
        kappas = [writing.format_number(pair[key]) for key in ("cohen_kappa", "cohen_kappa_labelled")]
        rows.append([writing.shorten(pair["a"]), writing.shorten(pair["b"]), *f1, *kappas])
    for label, end in (("mean of the pairs", "mean"), ("pooled", "pooled")):
        f1 = [writing.format_number(result[f"{scheme}_f1_{end}"]) for scheme in COMPARE_SCHEMES]
        rows.append([label, "", *f1, "", ""])
    return pd.DataFrame(rows, columns=PAIR_HEADERS)


def coefficients_frame(result: dict[str, Any]) -> pd.DataFrame:
    """The coefficients over all annotators, on all units and on the units some annotator labels (docs/agreement.md
    says why both), and how many units each counts."""
    rows = [
        ["Fleiss' κ", *(writing.format_number(result[key]) for key in ("fleiss_kappa", "fleiss_kappa_labelled"))],
        [
            "Krippendorff's α",
            *(writing.format_number(result[key]) for key in ("krippendorff_alpha", "krippendorff_alpha_labelled")),
        ],
        ["units", str(result["units"]), str(result["units_labelled"])],
    ]
    return pd.DataFrame(rows, columns=COEFFICIENT_HEADERS)


def disagreements_frame(result: dict[str, Any]) -> pd.DataFrame:
    """The most frequent disagreements of all pairs (each pair's `errors`, docs/scoring.md §11: A's entity as the
    reference, B's as the prediction), the most frequent first, at most `caps.MAX_ERROR_ROWS`."""
    found = [(pair["a"], pair["b"], row) for pair in result["pairs"] for row in pair.get("errors", [])]
    # Stable: among equal counts, the pairs' order and each pair's own order.
    found.sort(key=lambda item: -item[2]["count"])
    fields = ("scenario", "reference_text", "reference_type", "predicted_text", "predicted_type")
    rows = [
        [
            writing.shorten(a),
            writing.shorten(b),
            str(row["count"]),
            *(writing.NONE if row[field] is None else writing.shorten(row[field]) for field in fields),
        ]
        for a, b, row in found[: caps.MAX_ERROR_ROWS]
    ]
    return pd.DataFrame(rows, columns=DISAGREEMENT_HEADERS)


def pair_matrix(result: dict[str, Any], scheme: str) -> list[list[float | None]]:
    """The pairwise F1 of `scheme` as a symmetric matrix over the annotators (F1 does not depend on which of two
    annotators is the reference), None on the diagonal."""
    names = result["annotators"]
    index = {name: number for number, name in enumerate(names)}
    matrix: list[list[float | None]] = [[None] * len(names) for _ in names]
    for pair in result["pairs"]:
        a, b = index[pair["a"]], index[pair["b"]]
        matrix[a][b] = matrix[b][a] = pair[f"{scheme}_f1"]
    return matrix


def agreement_figure(result: dict[str, Any]) -> Figure:
    """The pairwise F1 as one heatmap per scheme (strict, exact, partial, type; 2 x 2 panels), each cell's F1
    written in it, darker green for higher agreement, the diagonal grey; annotator names shortened to
    `caps.MAX_HEATMAP_LABEL_CHARACTERS` (there are at most `caps.MAX_AGREEMENT_ANNOTATORS`)."""
    names = [writing.shorten(name, caps.MAX_HEATMAP_LABEL_CHARACTERS) for name in result["annotators"]]
    if len(set(names)) < len(names):  # names alike up to the cut (e-mail addresses) are told apart by number
        limit = caps.MAX_HEATMAP_LABEL_CHARACTERS - 3
        names = [f"{number}: {writing.shorten(name, limit)}" for number, name in enumerate(result["annotators"], 1)]
    size = len(names)
    cell = max(0.36, min(0.62, 2.4 / size))  # inches
    longest = max(len(name) for name in names)
    # The names are written once a row of panels (left) and once a column (below), in inches.
    margin = 0.075 * longest + 0.3
    turned = size > 3 or longest > 8
    figure = pictures.new_figure(
        max(5.2, 2 * cell * size + margin + 1.0), 2 * cell * size + margin * (0.7 if turned else 0.3) + 1.4
    )
    font = 9 if size <= 4 else 7.5
    for panel, scheme in enumerate(COMPARE_SCHEMES):
        axes = figure.add_subplot(2, 2, panel + 1)
        matrix = pair_matrix(result, scheme)
        colours = [
            [
                (0.94, 0.94, 0.94, 1.0) if value is None else pictures.shade("Greens", 0.12 + 0.78 * value)
                for value in row
            ]
            for row in matrix
        ]
        axes.imshow(colours, aspect="equal")
        for row, values in enumerate(matrix):
            for column, value in enumerate(values):
                text = "—" if value is None else f"{value:.2f}"
                dark = value is not None and value > 0.6
                colour = "#9ca3af" if value is None else "white" if dark else "#111111"
                axes.text(column, row, text, ha="center", va="center", fontsize=font, color=colour)
        axes.set_xticks(
            range(size),
            labels=names if panel >= 2 else [],
            rotation=35 if turned else 0,
            ha="right" if turned else "center",
            rotation_mode="anchor",
            fontfamily=pictures.FONT_FAMILY,
            fontsize=font,
        )
        axes.set_yticks(
            range(size), labels=names if panel % 2 == 0 else [], fontfamily=pictures.FONT_FAMILY, fontsize=font
        )
        axes.tick_params(length=0)
        for spine in axes.spines.values():
            spine.set_visible(False)
        mean = result[f"{scheme}_f1_mean"]
        axes.set_title(f"{scheme} F1 (mean {mean:.2f})", loc="left", fontsize=9.5)
    figure.suptitle("Pairwise F1 between annotators, per scheme", x=0.02, ha="left", fontsize=10)
    return figure


def status_text(annotations: Annotations, result: dict[str, Any], scheme: str, mode: str) -> str:
    """What was measured: the annotators, the sentences (or tasks) and the layout read."""
    names = ", ".join(writing.quoted(name) for name in annotations.names)  # (the status is Markdown)
    count = partial(writing.count, len(annotations.lines))
    if annotations.layout == CONLL:
        what = f"{count('sentence')} ({writing.count(annotations.units(), 'token')}), {scheme}, {mode} mode"
    elif annotations.layout == SPAN_LINES:
        what = f"{count('document')} of JSON lines (spans: scheme and mode do not apply)"
    elif annotations.layout in (BRAT, DOCCANO):
        what = f"{count('document')} of {annotations.layout} (spans: scheme and mode do not apply)"
    else:
        what = f"{count('task')} of a Label Studio export (spans: scheme and mode do not apply)"
    skipped = sum(task is None for batch in annotations.annotations.values() for task in batch)
    status = f"Measured the agreement of {len(annotations.names)} annotators ({names}) on {what}."
    if skipped:
        # Only spans leave tasks out (a CoNLL column has a tag on every line).
        status += (
            f" {writing.count(skipped, 'task')} skipped by an annotator: left out of that annotator's pairs "
            "and of Fleiss' κ, missing values for Krippendorff's α."
        )
    errors = sum(len(pair.get("errors", [])) for pair in result["pairs"])
    if errors > caps.MAX_ERROR_ROWS:
        status += (
            f" The disagreements table shows the {caps.MAX_ERROR_ROWS} most frequent of all pairs' disagreements "
            "by entity text and type."
        )
    return status


def empty_text(message: str) -> tuple[str, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """`agreement_text`'s outputs with `message` as the status and empty tables."""
    return (
        message,
        pd.DataFrame(columns=PAIR_HEADERS),
        pd.DataFrame(columns=COEFFICIENT_HEADERS),
        pd.DataFrame(columns=DISAGREEMENT_HEADERS),
    )


def _agreement(text: str, scheme: str, mode: str) -> tuple[tuple[str, Any, Any, Any], dict[str, Any] | None]:
    return _measured(lambda: parse_annotations(text), scheme, mode)


def _measured(
    read: Callable[[], Annotations], scheme: str, mode: str
) -> tuple[tuple[str, Any, Any, Any], dict[str, Any] | None]:
    """The four outputs of the annotations `read` gives, and `nerscore.agreement`'s result (None, and a status
    saying why, when they cannot be measured)."""
    try:
        annotations = read()
        result = measure(annotations, scheme, mode)
    except InputProblem as problem:
        return empty_text(error_message(str(problem), "measure agreement")), None
    outputs = (
        status_text(annotations, result, scheme, mode),
        pairs_frame(result),
        coefficients_frame(result),
        disagreements_frame(result),
    )
    return outputs, result


def agreement_text(
    text: str, scheme: str = "IOB2", mode: str = "lenient"
) -> tuple[str, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """What the `/agreement` endpoint answers for annotators' `text` (CoNLL with one tag column per annotator,
    or a Label Studio export): the status, the pairs' table, the coefficients' table and the most frequent
    disagreements. Any text that cannot be measured gives a status saying why (naming the line) and empty
    tables, never an error."""
    return _agreement(text, scheme, mode)[0]


def agreement_page(text: str, scheme: str = "IOB2", mode: str = "lenient") -> tuple[Any, ...]:
    """`agreement_text`'s four outputs and the heatmap of the pairwise F1 (none without a result)."""
    outputs, result = _agreement(text, scheme, mode)
    return (*outputs, None if result is None else agreement_figure(result))


def upload_page(path: str | None, scheme: str = "IOB2", mode: str = "lenient") -> tuple[Any, ...]:
    """`agreement_page` of an uploaded file: a ZIP archive of the annotators' files (`parse_archive`), or a text
    file of one of the editor's layouts (`parsing.read_upload`); any file that cannot be measured gives a status
    saying why and empty outputs."""
    if path and is_archive(path):
        outputs, result = _measured(lambda: parse_archive(path), scheme, mode)
        return (*outputs, None if result is None else agreement_figure(result))
    try:
        text = read_upload(path)
    except InputProblem as problem:
        return (*empty_text(error_message(str(problem), "measure agreement")), None)
    return agreement_page(text, scheme, mode)
