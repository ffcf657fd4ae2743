"""The page's numbers, all computed by the package (`nerscore`): the scores of one system, per entity type only for
the types the page shows; the comparison of two systems; and the metric's errors in the page's words (the editor's
line and column, the sentence as the tables number it).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import nerscore

from . import caps
from .parsing import ComparedCorpus, Corpus, InputProblem, SpanCorpus

# From the most lenient scheme to the strictest, as in the summary table.
SCHEME_COLUMNS = nerscore.SUMMARY_COLUMNS
# The comparison's schemes, as the command line's `format_comparison` orders them: strict to type.
COMPARE_SCHEMES = nerscore.EVALUATION_SCHEMES

# Where the interval of B - A lies: above zero (B better), below (A better), or around it (no clear difference).
B_BETTER, A_BETTER, UNDECIDED = "B better", "A better", "zero inside"


@dataclass(frozen=True)
class Evaluation:
    """What the page shows of one input: the metric's keys (overall, and per type for `shown_types`), one
    `entities` row per pair or unpaired entity, every entity type (the most frequent first) and the tally that
    the pictures count from."""

    results: dict[str, Any]
    entities: list[dict[str, Any]]
    entity_types: list[str]
    tally: nerscore.Tally
    # F1 per bucket of entity length and sentence length (docs/scoring.md §11), for input with tokens.
    slices: dict[str, dict[str, dict[str, Any]]] | None = None

    @property
    def shown_types(self) -> list[str]:
        """The types of the per-type table: the `caps.MAX_SHOWN_TYPES` most frequent."""
        return self.entity_types[: caps.MAX_SHOWN_TYPES]


def value_option(choice: Any) -> Any:
    """The `value` option of the page's control (docs/scoring.md §10): None (off, and anything unknown, any JSON an
    API caller sends: a list is no key of the dict), the preset's name, or True for the default weights."""
    return {"ace08": "ace08", "default weights": True}.get(choice) if isinstance(choice, str) else None


def _evaluation(counted: nerscore.Accumulator, options: nerscore.Options) -> Evaluation:
    """The result of what was counted, per type for the shown types only.

    `per_type=True` over the whole tally reports every entity type: for the 100,000 types that 1 MB can hold, 2
    million keys and about 4 s here, for a table that shows 50. So the page asks for the shown types' keys only
    (`types`): every other key is compute_semeval's, but the macro keys (a mean over every type), which the page
    does not show."""
    tally = counted.tally or nerscore.Tally()
    entity_types = tally.types_by_frequency()
    # (the rows are read from `counted` as kept: a result copies them for its caller, 0.8 s of 100,000)
    shown = entity_types[: caps.MAX_SHOWN_TYPES]
    results = counted.result(options.evolve(per_type=True, return_entities=False), types=shown)
    return Evaluation(results, list(counted.entities or ()), entity_types, tally)


# The diagnostics and the most frequent errors by entity text (docs/scoring.md §11), in their own tables.
_FINDINGS = {"diagnostics": True, "errors": caps.MAX_ERROR_ROWS}


# The column each side of the metric's input comes from, as the error messages name it.
ONE_SYSTEM_COLUMNS = {"references": "reference tag (second-last column)", "predictions": "predicted tag (last column)"}
TWO_SYSTEMS_COLUMNS = {
    "references": "reference tag (third-last column)",
    "predictions_a": "system A's tag (second-last column)",
    "predictions_b": "system B's tag (last column)",
}


def _where(error: nerscore.InvalidInputError, corpus: Corpus | ComparedCorpus, columns: dict[str, str]) -> str:
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


def _tag_problem(
    error: nerscore.InvalidInputError, corpus: Corpus | ComparedCorpus, columns: dict[str, str]
) -> InputProblem:
    """A tag error as the page says it: where, then the metric's problem with a scheme of the menu to choose."""
    where = _where(error, corpus, columns)
    problem = error.hint("choose {} in the Tagging scheme menu")
    return InputProblem(f"{where}: {problem}." if where else f"{problem}.")


def evaluate_corpus(corpus: Corpus, scheme: str, mode: str, value: str | None = None) -> Evaluation:
    """The corpus scored by the package: counted once (`nerscore.Accumulator`), then its result with per-type
    keys for the shown types (and the value keys with the value control on); tag errors name the line and
    suggest a scheme from the menu."""
    try:
        options = nerscore.Options.of(scheme=scheme, mode=mode, value=value_option(value), **_FINDINGS)
        # Counted once, with the rows and the slices of the page's picture.
        counting = options.evolve(return_entities=True, slices=list(PAGE_SLICES))
        counted = nerscore.Accumulator(counting).update(
            predictions=corpus.predictions, references=corpus.references, tokens=corpus.tokens
        )
    except nerscore.InvalidInputError as error:
        raise _tag_problem(error, corpus, ONE_SYSTEM_COLUMNS) from None
    except ValueError as error:
        raise InputProblem(str(error)) from None
    check_value_cost(counted, "python ner_semeval.py FILE --value WEIGHTS")
    scored = _evaluation(counted, options)
    return Evaluation(scored.results, scored.entities, scored.entity_types, scored.tally, length_slices(counted))


# The slices of the page's picture: where a CoNLL input's errors are, by entity and by sentence length.
PAGE_SLICES = ("entity_length", "sentence_length")


def length_slices(counted: nerscore.Accumulator) -> dict[str, dict[str, Any]]:
    """The `slices` of `PAGE_SLICES` (docs/scoring.md §11) of the corpus as counted, each sentence's length in
    tokens: F1 and the counts of each bucket (the picture draws F1), without `token_accuracy`."""
    # (without the value score, which the picture does not draw: its exact sums were half of a request's time)
    options = counted.options.evolve(return_entities=False, slices=list(PAGE_SLICES), value=None)
    return counted.result(options, token_accuracy=False)["slices"]


def compare_corpus(corpus: ComparedCorpus, scheme: str, mode: str, value: str | None = None) -> dict[str, float]:
    """`nerscore.compare_semeval` of the two systems with `caps.COMPARE_RESAMPLES` resamples and `caps.COMPARE_SEED`:
    per scheme and measure A, B, B - A, its interval and the p-value, resampling documents where -DOCSTART-
    lines mark them; tag errors name the line and the column."""
    try:
        if value_option(value) is not None:  # the value cells of each system, counted before the statistics
            for predictions in (corpus.predictions_a, corpus.predictions_b):
                counting = nerscore.Options.of(scheme=scheme, mode=mode, value=value_option(value))
                counted = nerscore.Accumulator(counting).update(predictions=predictions, references=corpus.references)
                check_value_cost(counted, "python ner_semeval.py --compare A B --value WEIGHTS", compared=True)
        return nerscore.compare_semeval(
            predictions_a=corpus.predictions_a,
            predictions_b=corpus.predictions_b,
            references=corpus.references,
            n_resamples=caps.COMPARE_RESAMPLES,
            seed=caps.COMPARE_SEED,
            confidence_level=caps.COMPARE_CONFIDENCE_LEVEL,
            scheme=scheme,
            mode=mode,
            value=value_option(value),
            documents=corpus.documents,
        )
    except nerscore.InvalidInputError as error:
        raise _tag_problem(error, corpus, TWO_SYSTEMS_COLUMNS) from None
    except ValueError as error:
        raise InputProblem(str(error)) from None


def check_value_cost(counted: nerscore.Accumulator, command: str, compared: bool = False) -> None:
    """An `InputProblem` when the value score of what was counted would cost more than the page weighs
    (`caps.MAX_VALUE_TYPES` types; a comparison, `caps.MAX_VALUE_CELLS` value cells a system); nothing without it."""
    tally = counted.tally
    if counted.options.value is None or tally is None:
        return
    types, cells = len(tally.types_by_frequency()), len(tally.value_cells or ())
    if types > caps.MAX_VALUE_TYPES or (compared and cells > caps.MAX_VALUE_CELLS):
        found = f"{cells:,} value cells (scenario, reference type, predicted type)" if compared else f"{types:,} types"
        cap = f"{caps.MAX_VALUE_CELLS:,} cells" if compared else f"{caps.MAX_VALUE_TYPES:,} types"
        raise InputProblem(
            f"The input holds {found}; the page sums the value score exactly (docs/scoring.md §10) for at most "
            f"{cap}. Turn the value score off, or use `{command}`."
        )


def verdict(low: float, high: float) -> str:
    """`B_BETTER` when the interval of B - A lies above zero, `A_BETTER` below, else `UNDECIDED` (zero inside,
    ends included: an interval that reaches zero does not exclude it)."""
    return B_BETTER if low > 0 else A_BETTER if high < 0 else UNDECIDED


def shares_a_character(spans: Sequence[nerscore.Span]) -> bool:
    """Whether two entities of one side share a character: nested, overlapping or repeated entities, which the
    package pairs as an assignment problem rather than in one pass (docs/scoring.md §3)."""
    bounds = sorted((span.start, span.end) for span in spans)
    return any(start < end for (_, end), (start, _) in pairwise(bounds))


def overlapping_pairs(references: Sequence[nerscore.Span], predictions: Sequence[nerscore.Span]) -> int:
    """How many (reference, prediction) pairs of one document overlap, counted without listing them, in
    O(n log n): a prediction overlaps a reference when it starts before the reference ends and does not end
    before the reference starts (those that end before it also start before it, entities being non-empty)."""
    starts = sorted(prediction.start for prediction in predictions)
    ends = sorted(prediction.end for prediction in predictions)
    return sum(bisect_left(starts, reference.end) - bisect_right(ends, reference.start) for reference in references)


def check_cost(references: list[list[nerscore.Span]], predictions: list[list[nerscore.Span]], lines: list[int]) -> int:
    """The overlapping pairs of the documents whose entities nest, overlap or repeat on a side, in all; an
    `InputProblem` naming the line of the first document beyond `caps.MAX_DOCUMENT_PAIRS`, or the line where the
    request's total passes `caps.MAX_REQUEST_PAIRS` (caps.py says why these, and not flat documents, are capped)."""
    command = "python ner_semeval.py --spans FILE.jsonl"
    total = 0
    for document, (reference_spans, predicted_spans) in enumerate(zip(references, predictions)):
        if not (shares_a_character(reference_spans) or shares_a_character(predicted_spans)):
            continue
        pairs = overlapping_pairs(reference_spans, predicted_spans)
        if pairs > caps.MAX_DOCUMENT_PAIRS:
            raise InputProblem(
                f"Line {lines[document]}: the document's entities nest, overlap or repeat, and {pairs:,} pairs of a "
                f"reference and a prediction overlap; the page pairs such documents of at most "
                f"{caps.MAX_DOCUMENT_PAIRS:,} overlapping pairs (their pairing costs more than the pairs grow). "
                f"Use `{command}` for this one."
            )
        total += pairs
        if total > caps.MAX_REQUEST_PAIRS:
            raise InputProblem(
                f"Line {lines[document]}: the documents up to this line whose entities nest, overlap or repeat hold "
                f"{total:,} overlapping pairs of a reference and a prediction; the page pairs at most "
                f"{caps.MAX_REQUEST_PAIRS:,} in a request. Send fewer documents, or use `{command}`."
            )
    return total


def check_grounding_cost(corpus: SpanCorpus) -> int:
    """What grounding the documents' string entities would cost, P x (R + P) for a document of P string
    predictions and R references, in all; an `InputProblem` naming the line of the first document beyond
    `caps.MAX_DOCUMENT_GROUNDING`, or where the request's total passes `caps.MAX_REQUEST_GROUNDING`: checked before
    anything is grounded, so that no request holds a lane for long (caps.py says why these)."""
    command = "python ner_semeval.py --spans FILE.jsonl"
    # A side is all strings or all spans (§1b); references are grounded in order, without a choice.
    if nerscore.side_forms(corpus.predictions, corpus.references)[1] != "strings":
        return 0
    total = occurrences = searched = 0
    for document, (references, predictions) in enumerate(zip(corpus.references, corpus.predictions)):
        strings = len(predictions)
        cost = strings * (len(references) + strings)
        if cost > caps.MAX_DOCUMENT_GROUNDING:
            raise InputProblem(
                f"Line {corpus.lines[document]}: {strings:,} predicted strings to find in the text beside "
                f"{len(references):,} references; the page grounds documents of at most "
                f"{caps.MAX_DOCUMENT_GROUNDING:,} (predicted strings x all entities). Use `{command}` for this one."
            )
        total += cost
        if total > caps.MAX_REQUEST_GROUNDING:
            raise InputProblem(
                f"Line {corpus.lines[document]}: the documents up to this line hold {total:,} (predicted strings x "
                f"all entities) to ground; the page grounds at most {caps.MAX_REQUEST_GROUNDING:,} in a request. "
                f"Send fewer documents, or use `{command}`."
            )
        text = corpus.texts[document]
        # what the package's grounding would look at (its walk), counted up to the caps
        work, characters = nerscore.occurrences_looked_at(
            "" if text is None else str(text),
            references,
            predictions,
            caps.MAX_DOCUMENT_OCCURRENCES,
            caps.MAX_REQUEST_SEARCH - searched,
        )
        occurrences += work
        searched += characters
        if work > caps.MAX_DOCUMENT_OCCURRENCES:
            raise InputProblem(
                f"Line {corpus.lines[document]}: the predicted strings have more than "
                f"{caps.MAX_DOCUMENT_OCCURRENCES:,} occurrences to weigh against the references they overlap; the "
                f"page grounds documents of at most {caps.MAX_DOCUMENT_OCCURRENCES:,}. Use `{command}` for this one."
            )
        if occurrences > caps.MAX_REQUEST_OCCURRENCES or searched > caps.MAX_REQUEST_SEARCH:
            raise InputProblem(
                f"Line {corpus.lines[document]}: the documents up to this line hold more occurrences of the "
                f"predicted strings to weigh against the references (or characters to search for them) than the page "
                f"grounds in a request ({caps.MAX_REQUEST_OCCURRENCES:,} occurrences and overlaps, "
                f"{caps.MAX_REQUEST_SEARCH:,} characters). Send fewer documents, or use `{command}`."
            )
    return total


def evaluate_spans(corpus: SpanCorpus, value: str | None = None) -> Evaluation:
    """The documents scored by the package with its default options (scheme and mode describe tags); an entity
    the metric refuses, a type that is no text, or a document that would cost more than the page pairs
    (`check_cost`) is a message naming the line, and for an entity the side and the entity's index in its list."""
    texts = corpus.texts
    # The errors name entities by their text: without every document's text, the page shows the diagnostics alone.
    options = nerscore.Options.of(
        value=value_option(value), diagnostics=True, errors=_FINDINGS["errors"] if None not in texts else False
    )
    if holds_strings(corpus):
        return _evaluate_strings(corpus, options)
    listing = options.evolve(return_entities=True)
    try:
        # Each entity read as the metric reads it first, so that a malformed one (`[0, 2]`) is named as a bad
        # entity, not taken for a sequence of tag ids.
        spans = {side: nerscore.read_spans(getattr(corpus, side), side) for side in ("references", "predictions")}
        check_cost(spans["references"], spans["predictions"], corpus.lines)
        counted = nerscore.Accumulator(listing).update(
            predictions=spans["predictions"],
            references=spans["references"],
            texts=texts if None not in texts else None,
        )
    except nerscore.InvalidInputError as error:
        raise _located(error, corpus) from None
    except InputProblem:
        raise
    except ValueError as error:
        raise InputProblem(str(error)) from None
    check_value_cost(counted, "python ner_semeval.py --spans FILE.jsonl --value WEIGHTS")
    return _evaluation(counted, options)


def holds_strings(corpus: SpanCorpus) -> bool:
    """Whether a side's entities are surface strings, found in each document's text (docs/scoring.md §1b), as the
    package reads the input (`nerscore.side_forms`)."""
    return "strings" in nerscore.side_forms(corpus.predictions, corpus.references)


def _located(error: nerscore.InvalidInputError, corpus: SpanCorpus) -> InputProblem:
    where = []
    if error.sentence is not None:
        where.append(f"Line {corpus.lines[error.sentence]}")
    if error.side is not None:
        where.append(f"{error.side}[{error.entity}]" if error.entity is not None else error.side)
    return InputProblem(f"{', '.join(where)}: {error.problem}." if where else f"{error.problem}.")


def _evaluate_strings(corpus: SpanCorpus, options: nerscore.Options) -> Evaluation:
    """Documents whose entities are surface strings (docs/scoring.md §1b), found in each line's `text`: grounded by
    the package, then scored as the spans they ground to (with the page's value, diagnostics and errors); the
    ungrounded predictions are rows without offsets. Grounded once: the cost is checked on the grounded spans, which
    are then counted."""
    for document, text in enumerate(corpus.texts):
        if text is None:
            raise InputProblem(
                f'Line {corpus.lines[document]}: string entities need the document\'s "text", in which they are found.'
            )
    texts = [str(text) for text in corpus.texts]
    check_grounding_cost(corpus)
    accumulator = nerscore.Accumulator(options.evolve(return_entities=True))
    try:
        grounded = accumulator.ground(predictions=corpus.predictions, references=corpus.references, texts=texts)
        assert grounded.grounded is not None  # return_entities keeps the grounded batch
        check_cost(grounded.grounded.references, grounded.grounded.predictions, corpus.lines)
        # counted by the package as spans, with the diagnostics and errors of spans (the ungrounded predictions
        # named by their strings as given)
        counted = accumulator.update_grounded(grounded)
    except nerscore.InvalidInputError as error:
        raise _located(error, corpus) from None
    except ValueError as error:
        raise InputProblem(str(error)) from None
    check_value_cost(counted, "python ner_semeval.py --spans FILE.jsonl --value WEIGHTS")
    return _evaluation(counted, options)
