"""The batches the evaluate module (ner_semeval.py's `NerSemeval`) stores with evaluate, kept across `add_batch`
calls, processes and failed computes: what a batch is checked against the ones before it (one form, the same
columns, each side's form with string entities), the sentences without any value that wait for a batch to fix the
form, and evaluate's cache mended after a compute that fails. evaluate itself is never imported here: the metric
mixes `StoredBatches` in and does the storing (`_store`, through evaluate's `add_batch`)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any

from .errors import InvalidInputError, numbered_after, shown
from .forms.grounding import Haystack, ground_references, needle_of, reference_places
from .forms.inputs import TAGS, batch_form, side_forms
from .forms.registry import FORMS, STORED_COLUMNS, same_sides, stored_batch
from .forms.string_batches import first_past_end, refuse_past_text, without_texts
from .schemes import SCHEMES, Scheme, every_reading, get_scheme, read_by_no_scheme, readings_of
from .table.columns import COLUMN_NAMES, Columns
from .table.slices import kept_tokens, past_tokens


def missing_sides(predictions: Any, references: Any, predicted: str, reference: str) -> str:
    """What an add without both sides found: `predictions=None`, or both None."""
    if predictions is None and references is None:
        return f"{predicted}=None and {reference}=None"
    return f"{predicted}=None beside {reference}" if predictions is None else f"{reference}=None beside {predicted}"


def columns_given(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The columns (`texts`, `tokens`, `groups`, `documents`) taken out of `kwargs`, those given as None left out:
    None is compute_semeval's default, "not given" (left in, evaluate refused them as "Bad inputs" and compute
    as unknown options)."""
    popped = {name: kwargs.pop(name) for name in COLUMN_NAMES if name in kwargs}
    return {name: value for name, value in popped.items() if value is not None}


def _refuse_past_texts(predictions: list[list], references: list[list], texts: Sequence[str | None]) -> None:
    """compute refuses an entity past the end of its text (docs/scoring.md §1); stored, it would fail every compute
    after it, since a failed compute keeps every batch: refused when added, as compute names it."""
    for side, batch in (("references", references), ("predictions", predictions)):
        for sentence, (entities, text) in enumerate(zip(batch, texts)):
            # a string entity is stored with start and end None: no offsets to check
            extents = (None if entity["end"] is None else (entity["start"], entity["end"]) for entity in entities)
            refuse_past_text(side, sentence, extents, text)


def _refuse_unaligned_tokens(predictions: list[list], references: list[list], form: str, columns: Columns) -> None:
    """compute refuses tokens that are not one per tag (tags, ids) and an entity past its sentence's tokens (spans;
    docs/scoring.md §11) whatever the options; stored, either would fail every compute after it, since a failed
    compute keeps every batch: refused when added, as compute names it."""
    entry = FORMS[form]
    if columns.tokens is None or entry.grounded:  # (string entities' offsets are characters, not tokens)
        return
    if not entry.entities:
        kept_tokens(columns, references, 0, entry.ids)  # one token per tag (or id): checked before any is dropped
        return
    for side, batch in (("references", references), ("predictions", predictions)):
        for sentence, (entities, tokens) in enumerate(zip(batch, columns.tokens)):
            past = first_past_end(((entity["start"], entity["end"]) for entity in entities), len(tokens))
            if past is not None:
                raise InvalidInputError(past_tokens(past[1], past[2], len(tokens)), side, sentence)


def _read_alike(
    predictions: list[list], references: list[list], before: frozenset[tuple[str, bool]], hand_built: Scheme | None
) -> Any:
    """compute reads every tag under one scheme, its prefix before the type or after it: of the readings `before`
    (`schemes.readings_of`, those of the tags stored so far; of the table's schemes and `hand_built`, the scheme
    built by hand given to evaluate.load), those that read this batch's tags too. A tag that no scheme reads, and
    tags that no one reading shares (B-PER beside PER-B, M-PER beside I-PER), would fail every compute after them,
    since a failed compute keeps every batch: refused when added, at the first tag that no reading left reads."""
    for side, batch in (("predictions", predictions), ("references", references)):
        for tag in dict.fromkeys(chain.from_iterable(batch)):
            problem = read_by_no_scheme(tag, hand_built)
            if problem is None and (readings := before & readings_of(tag, hand_built)):
                before = readings
                continue
            if problem is None:
                schemes = ", ".join(sorted(f"{name}{' (suffix)' if suffix else ''}" for name, suffix in before))
                problem = (
                    f"found tag {shown(tag)}, which no scheme reads together with the tags before it (read only "
                    f"as {schemes}); expected the tags of one scheme, prefixes all before the type or all after"
                )
            sentence, token = next((s, row.index(tag)) for s, row in enumerate(batch) if tag in row)
            raise InvalidInputError(problem, side, sentence, token)
    return before


# `normalize` off and on: the readings of string entities compute may take (docs/scoring.md §1b).
_NORMALIZE_READINGS = frozenset((False, True))


def _refuse_ungroundable(
    predictions: list[list], references: list[list], texts: Sequence[str | None], before: frozenset[bool]
) -> frozenset[bool]:
    """compute refuses a reference string that its text holds fewer times than it is listed, and with `normalize` a
    string empty once normalised (docs/scoring.md §1b), and `labels` keeps it: stored, a sentence that no reading
    compute could still take grounds would fail every compute after it, since a failed compute keeps every batch.
    `before`: the readings (`normalize` off, on) under which every sentence stored before grounds; those under
    which this batch's do too, refused when none is left, as compute (without normalize, if it may) names it."""
    for sentence, (entities, predicted, text) in enumerate(zip(references, predictions, texts)):
        if text is None:
            continue
        strings = [(entity["type"], entity["text"]) for entity in entities if entity["start"] is None]
        predicted_texts = [entity["text"] for entity in predicted if entity.get("start") is None]
        given = [needle for _, needle in strings]
        found = all(given) and min(reference_places(text.find, given), default=0) >= 0
        errors = {
            normalize: _ungrounded(strings, predicted_texts, text, normalize, sentence, found) for normalize in before
        }
        left = frozenset(normalize for normalize, error in errors.items() if error is None)
        if not left:  # compute's error, without normalize if it may (its default)
            raise next(error for _, error in sorted(errors.items(), key=lambda item: item[0]) if error is not None)
        before = left
    return before


def _ungrounded(
    strings: list[tuple[str, str]], predicted: list[str], text: str, normalize: bool, sentence: int, found: bool
) -> InvalidInputError | None:
    """The error compute would raise grounding one sentence's strings under `normalize`, or None, in compute's
    order (string_batches: the references, then the predictions). Not grounded where each reference is `found`
    as given as often as it is listed (`reference_places`): compute grounds it, once; and so it is once normalised,
    since §1b folds character by character (each occurrence in the text is one in its normalised copy), unless a
    string normalises to nothing (white space alone) or two strings to one ("a" and "a " are each once in "a " as
    given, but "a" is there once for both once normalised; tests/test_stored_batches.py checks both)."""
    if normalize and found:
        distinct = {given for _, given in strings}
        normalised = {needle_of(given, True) for given in distinct}
        found = "" not in normalised and len(normalised) == len(distinct)
    if not found:
        try:
            ground_references(strings, Haystack.of(text, normalize), normalize, sentence)
        except InvalidInputError as error:
            return error
    if normalize:  # a predicted string that normalises to nothing, as compute locates it (string_batches)
        for index, given in enumerate(predicted):
            if not given or given.isspace():
                return InvalidInputError(
                    f"found {shown(given)}, empty once normalised; expected text", "predictions", sentence, entity=index
                )
    return None


class StoredBatches:
    """The one place that reaches into `evaluate.EvaluationModule`'s private state, which evaluate 0.4 keeps in
    `writer` (the open cache file, None until a batch is stored), `buf_writer` (its in-memory form with
    `keep_in_memory`), `data` (what `compute` read back), `selected_feature_format` (the stored form),
    `filelocks` and `file_paths` (every process's cache file and its lock). requirements.txt pins evaluate below
    its next minor version, and tests/test_hostile.py fails loudly if a release renames or drops any of them.

    evaluate's `compute` consumes the stored batches before scoring them (it closes the writer, and forgets the
    cache file and the stored form) and cleans up only after success; after bad input it would keep the cache
    file and its lock, and the next compute would fail or wait for the lock. These methods mend both."""

    writer: Any
    buf_writer: Any
    data: Any
    selected_feature_format: Any
    filelocks: Any
    file_paths: Any
    num_process: int
    # The metric's: the options given to evaluate.load (a scheme built by hand reads the tags added), and `_store`,
    # which stores rows (and their stored columns) with evaluate's `add_batch`.
    options: dict[str, Any]
    _store: Callable[..., None]

    def _start_storing(self) -> None:
        """Nothing added yet: once evaluate's own state is set up, and after a compute, which ends the evaluation
        (every piece of this state reset in one place: a compute that kept each side's form refused the next
        evaluation's)."""
        self._sentences_added = 0
        # The form of the batches stored so far (TAGS, IDS or SPANS), and how many sentences without any value
        # (no tag, no entity) were added before a batch fixed it: they fit every form, so they wait for the first
        # batch that says which (a document without entities must not make evaluate store every later document
        # as tags).
        self._stored_form: str | None = None
        self._waiting_empty = 0
        # The columns given with the first batch (names), which every later batch must give too, and the
        # waiting sentences' columns as stored (`Columns.stored`; empty without columns).
        self._stored_columns: tuple[str, ...] | None = None
        self._waiting_columns: list[str] = []
        # The columns given with a batch of no sentence (`texts=[]`), which only the compute of nothing else reads.
        self._empty_batch_columns: tuple[str, ...] | None = None
        # With string entities: each side's form (strings or spans) in the batches stored so far.
        self._stored_sides: tuple[str | None, str | None] = (None, None)
        # The readings under which every batch stored so far reads, None before one is: with tags, (scheme, suffix)
        # (`_read_alike`); with string entities, `normalize` off or on (`_refuse_ungroundable`).
        self._readings: frozenset[Any] | None = None

    def _nothing_stored(self) -> bool:
        return self.writer is None

    def _add_checked(self, predictions: Any, references: Any, given: dict[str, Any], kwargs: dict[str, Any]) -> None:
        """`add_batch` of both sides and their columns (`given`): checked before evaluate stores anything, with
        sentence numbers counted over every batch added."""
        with numbered_after(self._sentences_added):
            # As given, for without_texts: stored, a list of tags nested too deep reads as a string entity.
            sides = (predictions, references)
            as_given = sides if all(isinstance(side, (list, tuple)) for side in sides) else None
            predictions, references, form = stored_batch(predictions, references)
            columns = Columns.of(len(predictions), **given)
            if not predictions:
                if columns and self._stored_columns is None:
                    # It counts nothing, but its columns say what the evaluation gives: `texts=[]` says string
                    # entities, and compute_semeval's result then holds `ungrounded` (docs/scoring.md §1b). They
                    # describe no sentence, so they bind no later batch (which may give texts or not): they stand
                    # only while no batch of sentences says otherwise.
                    self._empty_batch_columns = columns.given
                return
            # The batch's form first: a batch of another form than those before is refused as such, whatever else
            # would be wrong with it read in its own form (strings after tags are not asked to ground).
            has_values = batch_form(predictions, references) is not None
            if self._stored_form not in (None, form) and has_values:
                raise ValueError(
                    f"found {form} where the batches added before hold {self._stored_form}; expected every batch "
                    "of one evaluation in one form"
                )
            readings = self._readings
            if form == TAGS and has_values:
                hand_built = self._hand_built_scheme()
                read = every_reading(hand_built) if readings is None else readings
                readings = _read_alike(predictions, references, read, hand_built)
            columns.check_same_as(self._stored_columns)
            if FORMS[form].grounded and columns.texts is None:  # (compute takes texts only with a batch)
                raise without_texts(*(as_given or (predictions, references)))
            if FORMS[form].entities and columns.texts is not None:
                _refuse_past_texts(predictions, references, columns.texts)
                if FORMS[form].grounded:
                    stored = _NORMALIZE_READINGS if readings is None else readings
                    readings = _refuse_ungroundable(predictions, references, columns.texts, stored)
            scored_form = form if has_values else self._stored_form  # (without a value, tokens fit any form)
            if scored_form is not None:
                _refuse_unaligned_tokens(predictions, references, scored_form, columns)
                if has_values and self._waiting_columns:  # the sentences without a value before: no tag either
                    before = Columns.from_stored(self._waiting_columns)
                    try:
                        _refuse_unaligned_tokens([], [[]] * self._waiting_empty, form, before)
                    except InvalidInputError as error:  # numbered from the first sentence added, not this batch
                        raise error.at(sentence=(error.sentence or 0) - self._sentences_added) from None
            stored_columns = columns.stored(len(predictions)) if columns else None
            if not has_values and self._stored_form is None:
                self._waiting_empty += len(predictions)  # no value: it fits any form, see _start_storing
                self._waiting_columns += stored_columns or []
                self._sentences_added += len(predictions)
                self._stored_columns = columns.given
                return
            sides = self._stored_sides  # with string entities each side keeps its own form (strings or spans)
            if FORMS[form].grounded:
                sides = same_sides(sides, side_forms(predictions, references))
            waiting: list[list] = [[] for _ in range(self._waiting_empty)]
            first_batch = self._nothing_stored()
            try:
                self._store(
                    waiting + predictions,
                    waiting + references,
                    None if stored_columns is None else self._waiting_columns + stored_columns,
                    **kwargs,
                )
            except ValueError:
                if first_batch:  # evaluate fixed the stored form from this rejected batch: start afresh
                    self._forget_stored_batches(keep_waiting=True)
                raise
        self._waiting_empty = 0
        self._waiting_columns = []
        self._stored_form = self._stored_form or form
        self._stored_sides = sides
        self._readings = readings
        self._stored_columns = columns.given
        self._sentences_added += len(predictions)

    def _hand_built_scheme(self) -> Scheme | None:
        """The scheme built by hand (nerscore.Scheme) given to evaluate.load, whose tags a batch may hold; None for
        one of the table. A scheme given to compute alone is not known when a batch is added."""
        scheme = get_scheme(self.options.get("scheme", "IOB2"))  # (checked at load)
        return None if SCHEMES.get(scheme.name) is scheme else scheme

    def _waiting_with(self, given: dict[str, Any], sentences: int) -> Columns:
        """The waiting sentences' columns followed by this batch's (`sentences` sentences), checked as add_batch
        checks a batch after them (the same columns), its errors numbered after them (its first sentence too)."""
        with numbered_after(self._waiting_empty):
            batch = Columns.of(sentences, **given)
            if sentences or given:  # (a compute of no batch gives none: the waiting sentences' are read)
                batch.check_same_as(self._stored_columns)
        return Columns.from_stored(self._waiting_columns or [""] * self._waiting_empty) + batch

    def _store_again(self) -> None:
        """After a failed compute: store what it read back again, chunk by chunk, so that the next compute scores
        the same batches. Across processes the other processes' files are gone with their locks: there it can
        only start afresh."""
        data, form, columns, sides = self.data, self._stored_form, self._stored_columns, self._stored_sides
        readings = self._readings
        if data is None or self.num_process > 1:
            self._forget_stored_batches()
            return
        self._forget_stored_batches()  # the old file stays readable while `data` maps it
        self.selected_feature_format = None
        self._stored_form, self._stored_columns, self._stored_sides = form, columns, sides
        self._readings = readings
        for start in range(0, len(data), 10_000):
            rows = data[start : start + 10_000]
            self._store(rows["predictions"], rows["references"], rows.get(STORED_COLUMNS))
        self._sentences_added = len(data)

    def _forget_stored_batches(self, keep_waiting: bool = False) -> None:
        """Drop the stored batches, the cache file and its lock, as evaluate does after a successful compute."""
        self.data = None
        self.writer = None
        self.selected_feature_format = None
        self._stored_form = None
        self._stored_sides = (None, None)
        self._readings = None
        if not keep_waiting:
            self._waiting_empty = 0
            self._waiting_columns = []
            self._stored_columns = self._empty_batch_columns = None
        self._sentences_added = self._waiting_empty
        if self.buf_writer is not None:
            self.buf_writer = None
            return
        for filelock, file_path in reversed(list(zip(self.filelocks or [], self.file_paths or []))):
            with contextlib.suppress(OSError):
                os.remove(file_path)
            filelock.release()
