"""Two systems on the same references: `compare_semeval` (is B better than A? docs/scoring.md §9), and what it
shares with several runs of each (`nerscore.runs`): the references read once (`shared_references`) and each system
counted through the accumulator in order (`counted_in_order`), so that their sentences pair up
(`side_by_side_counts`); and a batch counted for any caller that scores several on the same sentences, its
problems in the caller's terms (`counted_as`: systems, runs, annotators' pairs)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .accumulator import Accumulator, PerSentence, given_columns
from .compute import checked_columns
from .errors import InvalidInputError, shown
from .forms.inputs import (
    IDS,
    SPANS,
    STRINGS,
    TAGS,
    Batch,
    as_list,
    batch_form,
    first_located,
    first_value,
    read_spans,
    rows_of,
    value_form,
)
from .option_checks import COMPARISON_RESAMPLES, check_resamples, check_seed, is_id
from .options import Options, check_tag_options
from .statistics.paired_comparison import comparison, slice_comparison
from .statistics.sample_statistics import slice_layout
from .statistics.unit_counts import SentenceCounts
from .table.columns import Columns
from .table.slices import slice_scores
from .tally import Tally


def counted_as(
    predictions: Any,
    references: Any,
    options: Options,
    columns: Columns | Mapping[str, Any],
    *,
    ordered: bool,
    sides: Mapping[str | None, str],
    name: str,
    sentences: np.ndarray | None = None,
) -> Accumulator:
    """A batch counted into an accumulator of its own (`ordered` as asked) for a caller that scores several on the
    same sentences (systems, runs, annotators' pairs), a problem located in the caller's terms: `sides` renames
    the side an `InvalidInputError` names (the key None: where it names none), `sentences` renumbers its sentence
    (the batch's sentences among the caller's), and any other `ValueError` starts with `name`."""
    try:
        return Accumulator(options, ordered=ordered).update_checked(predictions, references, columns)
    except InvalidInputError as error:
        sentence = error.sentence if sentences is None or error.sentence is None else int(sentences[error.sentence])
        raise error.at(sides.get(error.side), sentence) from None  # (None: the side it names)
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None


def compare_semeval(
    *,
    predictions_a: Any,
    predictions_b: Any,
    references: Any,
    references_b: Any = None,
    n_resamples: int = COMPARISON_RESAMPLES,
    seed: int = 0,
    texts: Any = None,
    tokens: Any = None,
    groups: Any = None,
    documents: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """Is system B better than system A on the same sentences? (docs/scoring.md §9)

    For each scheme and each of precision, recall and F (`{key}` = `strict_precision` ... `type_f1`), a flat
    dict of floats: `{key}_a`, `{key}_b`, `{key}_delta` (B - A), `{key}_delta_low` and `{key}_delta_high` (the
    paired bootstrap BCa interval of the difference at `confidence_level`, resampling sentences, or with
    `documents` whole documents), and `{key}_p_value` (two-sided approximate randomization: each sentence's, or
    document's, two outputs swapped at random, in `n_resamples` shuffles). `seed` makes the numbers repeat.
    `options` are `compute_semeval`'s scoring options (scheme, mode, labels, beta ...), applied to both systems,
    and `texts`, `tokens`, `groups` and `documents` its columns, shared by both.

    `references_b`, when given (a second file's copy of the references), must equal `references`. Everything is
    checked before any resampling: a `ValueError` names the system and the first sentence that differs.

    With `texts`, `ungrounded_a` and `ungrounded_b`: each system's predicted strings left without an occurrence
    (`compute_semeval`'s `ungrounded`, docs/scoring.md §1b; 0 for spans). With `slices` (docs/scoring.md §11),
    the key `slices` holds, for each slice and bucket, the same keys for the bucket's scores, and
    `{key}_p_value_holm`, Holm's correction over every bucket of every requested slice; the buckets' resamples
    and shuffles are those of the totals."""
    checked = Options.of(**options)
    # Options of compute_semeval that add to its result, which compare_semeval's flat dict of overall scores
    # has no place for (its slices it compares bucket by bucket): refused, never silently ignored.
    refused = tuple(name for name in Options.ADDING if name != "slices")
    if given := given_options(checked, options, refused):
        # Named off Options.ADDING, so that an option added there is refused by name.
        named = [_REFUSED_NOTES.get(name, name) for name in refused]
        raise ValueError(
            f"compare_semeval takes neither {', '.join(named[:-1])} nor {named[-1]}, found {', '.join(given)}: it "
            "reports overall scores; score each system with compute_semeval for the rest"
        )
    resamples = check_resamples("n_resamples", n_resamples, 1)
    seed = check_seed("seed", seed)
    references, columns = shared_references(references, checked, given_columns(texts, tokens, groups, documents))
    if references_b is not None:
        _check_same_references(references, as_list(references_b, "references_b"))
    system_a, system_b = counted_in_order(
        {"predictions_a": predictions_a, "predictions_b": predictions_b}, references, checked, columns
    )
    assert system_a.tally is not None and system_b.tally is not None  # both updated
    ungrounded = _ungrounded_keys(system_a.tally, system_b.tally, columns)
    pairs = side_by_side_counts([system_a, system_b])
    if checked.slices:
        # docs/scoring.md §11: the buckets' differences from the same resamples and shuffles as the totals'.
        slices_a, slices_b = system_a.slices, system_b.slices
        assert slices_a is not None and slices_b is not None  # counted with slices
        layout = slice_layout(slices_a.names, slices_a.layout())
        scored = (slice_scores(slices_a, checked), slice_scores(slices_b, checked))
        base, by_bucket = slice_comparison(
            system_a.tally, system_b.tally, pairs, slices_a.names, layout, scored, checked, resamples, seed
        )
        return {**base, **ungrounded, "slices": by_bucket}
    return {**comparison(system_a.tally, system_b.tally, pairs, checked, resamples, seed), **ungrounded}


# What compare_semeval's refusal says of an option beyond its name.
_REFUSED_NOTES = {"bootstrap": "bootstrap (n_resamples sets its resamples)"}


def set_options(checked: Options, names: Iterable[str]) -> list[str]:
    """Those of `names` that a call sets: not left at their default nor empty. Read off the options as checked,
    where an array (numpy's, a tensor) of slices is a tuple: `in` or `bool` on the array as given compares it
    elementwise, numpy's bare "The truth value of an array ... is ambiguous" naming no option."""
    return [name for name in names if getattr(checked, name)]


def given_options(checked: Options, options: Mapping[str, Any], names: tuple[str, ...]) -> list[str]:
    """Those of `names` that a call sets (`set_options`), as ``name=value``, for its refusal."""
    return [f"{name}={shown(options[name])}" for name in set_options(checked, names)]


def shared_references(references: Any, options: Options, columns: Mapping[str, Any]) -> tuple[Batch, Columns]:
    """The references that several systems (or runs) are scored on, as a list, and their `columns` checked; with
    tags, the options checked for tags first (an option's error, not one system's)."""
    references = as_list(references, "references")
    checked = checked_columns(columns, len(references))
    if batch_form(references, references) not in (None, SPANS):
        check_tag_options(options)
    return references, checked


def counted_in_order(
    systems: Mapping[str, Any], references: Batch, options: Options, columns: Columns
) -> list[Accumulator]:
    """Each system's (or run's) predictions on the same references counted `ordered`, so that their sentences
    pair up; a problem is located at the system's name (`predictions_b`, `runs_a[2]`)."""
    return [
        counted_as(
            predictions, references, options, columns, ordered=True, sides={None: side, "predictions": side}, name=side
        )
        for side, predictions in systems.items()
    ]


def side_by_side_counts(counted: list[Accumulator]) -> SentenceCounts:
    """The units' counts of systems (or runs) on the same sentences, each accumulated `ordered`: each one's vector
    side by side, in order (`PerSentence.side_by_side`), summed by unit (docs/scoring.md §9)."""
    rows = [system.in_order for system in counted]
    return PerSentence.side_by_side(rows, rows[0].documents).counts()


def _ungrounded_keys(tally_a: Tally, tally_b: Tally, columns: Columns) -> dict[str, int]:
    """`ungrounded_a` and `ungrounded_b` where `texts` were given (docs/scoring.md §1b), else nothing."""
    if columns.texts is None:
        return {}
    return {f"ungrounded_{system}": int(tally.ungrounded or 0) for system, tally in (("a", tally_a), ("b", tally_b))}


def _check_same_references(references: Batch, references_b: Batch) -> None:
    """Both systems must be scored on the same references: a `ValueError` names the first sentence that differs.
    The same means the same entities or tags, however written (docs/scoring.md §1): tuples or lists (as after a
    JSON round trip), dicts or tuples, entities in any order; tags in lists, tuples or arrays."""
    rows, rows_b = rows_of(references), rows_of(references_b)
    _check_same_form(rows, rows_b)
    spans = value_form(first_value(rows)) == SPANS, value_form(first_value(rows_b)) == SPANS
    for sentence, (reference, reference_b) in enumerate(zip(rows, rows_b)):
        if _spelled_alike(reference, reference_b):
            continue
        expected = _canonical(reference, spans[0], "references", sentence)
        found = _canonical(reference_b, spans[1], "references_b", sentence)
        if found != expected:
            raise InvalidInputError(
                "references_b differs from references; expected both systems scored on the same references "
                f"(found {shown(found)} where references hold {shown(expected)})",
                "references_b",
                sentence,
            )
    if len(references) != len(references_b):
        raise ValueError(
            f"references hold {len(references)} sentences and references_b {len(references_b)}; expected both "
            "systems scored on the same references"
        )


# Each form as batch_form's messages name it (docs/scoring.md §1, §1b).
_FORM_NAMES = {TAGS: "tags", IDS: "integer ids", SPANS: "spans (lists of entities)", STRINGS: "string entities"}


def _check_same_form(rows: list, rows_b: list) -> None:
    """Copies of the references in two forms (string entities against spans, spans against tags...) say so, at
    the first sentence holding a value, rather than show the first value of one read as the other's form. A
    first value that is no string and reads as a tag is a malformed value: the sentence comparison locates it."""
    first = first_located(rows)
    first_b = first_located(rows_b)
    if first is None or first_b is None:
        return
    form, form_b = value_form(first[1]), value_form(first_b[1])
    if form == form_b or (form == TAGS and not isinstance(first[1], str)):
        return
    if form_b == TAGS and not isinstance(first_b[1], str):
        return
    raise InvalidInputError(
        f"references_b differs from references: references_b hold {_FORM_NAMES[form_b]} and references hold "
        f"{_FORM_NAMES[form]}; expected both systems scored on the same references, in one form",
        "references_b",
        min(first[0], first_b[0]),
    )


def _spelled_alike(reference: Any, reference_b: Any) -> bool:
    """Whether two sentences are written alike, which is all most copies of the references need (at C speed)."""
    try:
        return bool(list(reference) == list(reference_b))
    except (ValueError, RecursionError):  # an array among the values (no single truth), a list nested too deep to
        return False  # compare: spelled out instead


def _canonical(sentence: Any, spans: bool, side: str, index: int) -> list[Any]:
    """A sentence in one spelling: for spans, its entities as sorted (start, end, type) tuples, read as the
    scorer reads them (a malformed one is located on `side`); for tags or ids, the values in order, ids as Python
    ints, and anything else (which scoring refuses, at its place) as its type and text (`shown`: a list nested
    5,000 deep raised RecursionError in repr), so that no odd value makes the comparison itself fail."""
    if spans:
        try:
            (entities,) = read_spans([sentence], side)
        except InvalidInputError as error:
            raise error.at(sentence=index) from None
        return sorted((span.start, span.end, span.entity_type) for span in entities)
    return [
        str(value) if isinstance(value, str) else int(value) if is_id(value) else (type(value).__name__, shown(value))
        for value in sentence
    ]
