"""The one accumulator every front end scores through (`Accumulator`: update, add, result), and the public
function built on it, `compute_semeval` (a batch's scores, docs/scoring.md §7); `compare_semeval` (is B better than
A? §9) counts each system through it too (`nerscore.systems`).

As torchmetrics' update/compute and sacrebleu's statistics: what a batch counts (`compute.count_batch`) is kept
as sums that add (the tally, each unit's count vector, the slices' counts, the `entities` rows), so batches,
chunks of a file, processes, map-reduce partitions and files all merge with `+`, and the result dict is built
once at the end by `compute.result_dict` (docs/architecture.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .compute import (
    check_grounded_apart,
    check_outside_type,
    checked_addition,
    checked_columns,
    count_batch,
    count_grounded,
    count_strings,
    entity_dicts_of,
    given_columns,
    per_sentence_columns,
    result_dict,
    scored_columns,
    with_ungrounded_key,
)
from .errors import numbered_after, shown
from .forms.batches import measured_batches, refuse_pair_rows
from .forms.inputs import TAGS, as_list, rows_of
from .forms.registry import FORMS
from .forms.string_batches import StringSpans, string_spans
from .grouping import joined_runs, merged_runs
from .option_checks import OVERLAP, check_flag, check_slices_read
from .options import Options, check_accumulator, differing
from .pairing.rules import SCENARIOS
from .result_scores import reported_rows
from .statistics.unit_counts import CountRuns, SentenceCounts, Vectors, per_unit, stacked
from .table.columns import NO_COLUMNS, Columns
from .table.pairs import Pairs
from .table.slices import SliceCounts, SliceRuns, joined_names, laid_out, slices_width
from .tally import Counted, Row, Tally

# Batches with documents and batches without, added up: sentences that cannot be summed by document.
_DOCUMENTS_IN_SOME = "found batches with documents and batches without; expected documents with every batch"


@dataclass(frozen=True)
class PerSentence:
    """Each sentence's count vector in the order read (`compute.per_sentence_columns`: integers, then floats or None),
    with `documents` each sentence's document id: what the statistics resample (docs/scoring.md §9) while the
    order still matters, to sum a document's sentences or to put two systems' sentences side by side."""

    ints: Vectors
    floats: Vectors | None = None
    documents: tuple[Hashable, ...] | None = None
    names: Mapping[str, list[str]] | None = None  # with slices, their buckets (as `SentenceCounts.names`)

    def __add__(self, other: PerSentence) -> PerSentence:
        self.check_joins(other)
        if not other.ints.shape[0] or not self.ints.shape[0]:  # a batch of no sentence may be narrower: nothing to join
            return self if self.ints.shape[0] else other
        if self.names is not None and other.names is not None and self.names != other.names:
            names = joined_names(self.names, other.names)  # (other groups: laid out as those of both)
            return self.laid_out(names) + other.laid_out(names)
        floats = None
        if self.floats is not None and other.floats is not None:
            floats = stacked((self.floats, other.floats), axis=0)
        documents = None if self.documents is None or other.documents is None else self.documents + other.documents
        return PerSentence(stacked((self.ints, other.ints), axis=0), floats, documents, self.names)

    def check_joins(self, other: PerSentence) -> None:
        """A `ValueError` where `other`'s rows cannot follow these (`+`): documents with one and not the other, or
        rows counted with other options."""
        if (self.documents is None) != (other.documents is None):
            raise ValueError(_DOCUMENTS_IN_SOME)
        if not other.ints.shape[0] or not self.ints.shape[0]:  # a batch of no sentence may be narrower: nothing to join
            return
        if (self.floats is None) != (other.floats is None) or self._width() != other._width():
            raise ValueError("found batches counted with other options; expected the same options for every batch")

    def _width(self) -> int:
        """The integer columns before those of the slices' buckets (which other groups widen)."""
        return self.ints.shape[1] - (slices_width(self.names or {}) if self.floats is None else 0)

    def counts(self) -> SentenceCounts:
        """The units' `SentenceCounts`: each sentence's vector, or with documents each document's sum."""
        floats = None if self.floats is None else per_unit(self.floats, self.documents)
        return SentenceCounts.of(per_unit(self.ints, self.documents), floats, self.names)

    def laid_out(self, names: Mapping[str, list[str]]) -> PerSentence:
        """These rows with their bucket columns (the last ones: of floats where there are) laid out as the buckets
        `names` (`slices.laid_out`)."""
        assert self.names is not None  # (counted with slices)
        if self.floats is None:
            return PerSentence(laid_out(self.ints, self.names, names), None, self.documents, names)
        return PerSentence(self.ints, laid_out(self.floats, self.names, names), self.documents, names)

    @staticmethod
    def side_by_side(runs: Sequence[PerSentence], documents: tuple[Hashable, ...] | None = None) -> PerSentence:
        """Several systems' (or runs') rows of the same sentences side by side, in order (docs/scoring.md §9): each
        one's counts, then its §10 weighted columns when asked for, so that its statistics are those of its own
        bootstrap. Integers where none holds floats, else all in floats."""
        if all(run.floats is None for run in runs):
            return PerSentence(stacked([run.ints for run in runs], axis=1), None, documents)
        parts = [part for run in runs for part in (run.ints, run.floats) if part is not None]
        floats = stacked(parts, axis=1).astype(np.float64)
        return PerSentence(np.zeros((floats.shape[0], 0), dtype=np.int64), floats, documents)


@dataclass(frozen=True)
class SentenceRuns:
    """`PerSentence` rows added batch after batch, in order, kept as runs merged as `CountRuns` merges its own (a
    binary counter: two runs joined only once the later holds at least half the earlier's rows), so that n batches
    copy n log n rows: joined at every batch, an `Accumulator` of documents copied every row it held (8,000
    batches of 20 sentences: 23 of 47 s, x2.5 a doubling). Whether a batch may follow is checked as it is added."""

    runs: tuple[PerSentence, ...] = ()

    def __add__(self, other: SentenceRuns) -> SentenceRuns:
        if self.runs and other.runs:
            _widest(self.runs).check_joins(_widest(other.runs))
        return SentenceRuns(merged_runs((*self.runs, *other.runs), lambda run: run.ints.shape[0]))

    def joined(self) -> PerSentence:
        """Every sentence's row, in the order added."""
        if not self.runs:
            return PerSentence(np.zeros((0, len(SCENARIOS)), dtype=np.int64))
        return joined_runs(self.runs)  # (each group laid out about twice more too)

    def counts(self) -> SentenceCounts:
        """The units' `SentenceCounts` (`PerSentence.counts`)."""
        return self.joined().counts()

    @property
    def documents(self) -> list[Hashable] | None:
        """Each sentence's document id in order, None where none was given."""
        if not self.runs or self.runs[0].documents is None:
            return None
        return [document for run in self.runs for document in run.documents or ()]


@dataclass(frozen=True)
class EntityRows:
    """The `entities` rows (return_entities) of batches added one after the other, in order, kept as runs merged
    as `CountRuns` merges its own, so that n batches copy n log n rows: joined at every batch, an `Accumulator`
    copied every row it held (16,000 batches of 20 sentences: 168 s, x3.5 a doubling, where 7 s without rows).
    Iterated, the rows in order."""

    runs: tuple[tuple[dict[str, Any], ...], ...] = ()

    def __add__(self, other: EntityRows) -> EntityRows:
        return EntityRows(merged_runs((*self.runs, *other.runs), len))

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (row for run in self.runs for row in run)

    def __len__(self) -> int:
        return sum(map(len, self.runs))

    def after(self, offset: int) -> EntityRows:
        """These rows with their sentences numbered after `offset` sentences."""
        if not offset:
            return self
        return EntityRows(
            tuple(tuple({**row, "sentence": row["sentence"] + offset} for row in run) for run in self.runs)
        )


def _widest(runs: Sequence[PerSentence]) -> PerSentence:
    """A run that holds sentences if any does (an empty batch's rows may be narrower, `PerSentence.__add__`)."""
    return next((run for run in runs if run.ints.shape[0]), runs[0])


def no_token(tally: Tally) -> bool:
    """Whether a tally is of tags of no token: nothing counted."""
    return tally.tokens is not None and not tally.tokens.tokens and not tally.cells


@dataclass(frozen=True)
class Accumulator:
    """The scores of a corpus read in batches: `update` counts a batch, `+` adds two accumulators (of the same
    options: batches, files, processes, map-reduce partitions, in order), `result` gives `compute_semeval`'s dict
    of everything added. Immutable: `update` and `+` return a new accumulator, so a batch that fails leaves what was
    added before as it was; it pickles as its counts (no sentence is kept, except each one's count vector where
    `bootstrap` and documents need it).

        accumulator = Accumulator.of(scheme="IOB2")
        for batch in batches:
            accumulator = accumulator.update(predictions=batch["predictions"], references=batch["references"])
        accumulator.result()  # == compute_semeval(predictions=all predictions, references=all references)

    `ordered` keeps each sentence's count vector in order (compare_semeval pairs two systems' sentences)."""

    options: Options = dataclasses.field(default_factory=Options)
    ordered: bool = False
    tally: Tally | None = None  # None until a batch is added
    sentences: int = 0
    # With bootstrap or `ordered`, each unit's count vector: in order (`SentenceRuns`), or where nothing needs the
    # order (no documents, no pairing) the distinct vectors alone (`CountRuns`), so memory follows those.
    units: CountRuns | SentenceRuns | None = None
    # With slices: every bucket's counts (`slices`; the per-sentence ones are in `units`), in runs.
    slice_runs: SliceRuns | None = None
    entities: EntityRows | None = None  # with return_entities: the rows, sentences numbered in order

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", check_accumulator(self.options, self.ordered))  # (frozen)

    @classmethod
    def of(cls, **options: Any) -> Accumulator:
        """An empty accumulator of `compute_semeval`'s options (`Options`), checked."""
        return cls(Options.of(**options))

    def update(
        self,
        *,
        predictions: Any,
        references: Any,
        texts: Any = None,
        tokens: Any = None,
        groups: Any = None,
        documents: Any = None,
    ) -> Accumulator:
        """This accumulator with a batch added, counted as `compute_semeval` counts it (the same arguments); a bad
        sentence is a `ValueError` numbered from the first sentence of the first batch."""
        return self.update_checked(predictions, references, given_columns(texts, tokens, groups, documents))

    def update_checked(
        self, predictions: Any, references: Any, columns: Columns | Mapping[str, Any] | None = None
    ) -> Accumulator:
        """`update` with `columns` as given (a mapping of name to values) or as read back (`Columns`)."""
        with numbered_after(self.sentences):
            counted, entities, checked, sentences = _counted(
                predictions, references, self.options, columns, self._keep_sentences
            )
        return self.add(counted, sentences, checked.documents, entities)

    def ground(self, *, predictions: Any, references: Any, texts: Any) -> StringSpans:
        """A batch of string entities grounded in `texts` (docs/scoring.md §1b) with this accumulator's options,
        not yet counted: for a caller that looks at the spans they ground to first (the Space caps the cost of
        their pairing). `update_grounded` counts it; `update` does both."""
        predictions = rows_of(as_list(predictions, "predictions"))
        references = rows_of(as_list(references, "references"))
        with numbered_after(self.sentences):  # as update numbers them, and refuses what it refuses as it counts
            columns = checked_columns({"texts": texts}, len(references))
            grounded = string_spans(predictions, references, self.options, columns)
            check_grounded_apart(predictions, references, self.options, columns)
        return grounded

    def update_grounded(self, grounded: StringSpans) -> Accumulator:
        """This accumulator with a batch grounded by `ground` added, counted as `update` counts string entities.
        A batch grounded under other options (by another accumulator's `ground`) is a `ValueError`: its spans,
        rows and order are those options' (normalize, labels, pairing, return_entities)."""
        if not isinstance(grounded, StringSpans):  # (AttributeError: no attribute 'options')
            raise ValueError(f"found {shown(grounded)}; expected the grounded batch Accumulator.ground returns")
        if grounded.options is not None and _differing(grounded.options, self.options) is not None:
            raise ValueError(
                "found a batch grounded under other options than this accumulator's; expected one grounded by its "
                "own ground(), which grounds as its options say"
            )
        counted, _, entities = count_grounded(grounded, self.options, self._keep_sentences)
        return self.add(counted, len(grounded.texts), None, entities)

    @property
    def _keep_sentences(self) -> bool:
        return self.options.bootstrap > 0 or self.ordered

    def add(
        self,
        counted: Counted,
        sentences: int,
        documents: Sequence[Hashable] | None = None,
        entities: list[dict[str, Any]] | None = None,
    ) -> Accumulator:
        """This accumulator with a batch of `sentences` sentences already counted (`compute.count_batch`, as the
        command line counts the chunks of a file), with each sentence's document id and its `entities` rows."""
        documents = checked_addition(counted, sentences, documents, entities, self.options, self._keep_sentences)
        check_slices_read(self.options.slices, self.options.seen, self.options.slice_edges)  # (every batch's way)
        units = None
        if counted.per_sentence is not None:
            ints, floats = per_sentence_columns(counted)
            # Each batch's bucket columns laid out as its own groups: two runs of other groups are laid out as those
            # of both only as they are merged (`SentenceCounts.names`).
            names = None if counted.slices is None or counted.slices.per_sentence is None else counted.slices.names
            rows = PerSentence(ints, floats, documents, names)
            units = SentenceRuns((rows,)) if documents is not None or self.ordered else CountRuns((rows.counts(),))
        slices = None if counted.slices is None else SliceRuns((counted.slices._replace_sentences(),))
        added = Accumulator(
            self.options,
            self.ordered,
            counted.tally,
            sentences,
            units,
            slices,
            None if entities is None else EntityRows((tuple(entities),)),
        )
        return self + added

    def __add__(self, other: Accumulator) -> Accumulator:
        if not isinstance(other, Accumulator):
            return NotImplemented  # Python's "unsupported operand type(s) for +", naming both types
        if (differs := _differing(self.options, other.options)) is not None:
            problem = "found accumulators of different options ({}={} on the left, {} on the right)".format(*differs)
            raise ValueError(f"{problem}; expected the same options on both sides")
        if other.ordered != self.ordered:  # (the sentences of one side were lost from `in_order`, or "documents")
            raise ValueError("found an accumulator with ordered=True and one without; expected the same on both sides")
        if self.tally is None:
            return replace(other, options=self.options, ordered=self.ordered)
        if other.tally is None:
            return self
        tally = self.tally + other.tally  # tags of no token (an empty batch) beside spans add none (Tally.tokens' sum)
        if tally.tokens is not None and None in (self.tally.tokens, other.tally.tokens):
            tally = without_tokens(tally)  # spans of which labels kept no entity: no cell tells them from Tally()
        return Accumulator(
            self.options,
            self.ordered,
            tally,
            self.sentences + other.sentences,
            add_units(self.units, other.units),
            add_units(self.slice_runs, other.slice_runs),
            add_units(self.entities, None if other.entities is None else other.entities.after(self.sentences)),
        )

    @property
    def slices(self) -> SliceCounts | None:
        """With slices, every bucket's counts: the runs joined, a group slice's groups those of every batch."""
        return None if self.slice_runs is None else self.slice_runs.joined()

    @property
    def in_order(self) -> PerSentence:
        """Each sentence's counts in the order read, as two systems' (or several runs') are put side by side."""
        if not isinstance(self.units, SentenceRuns):
            raise ValueError("pairing two systems' sentences needs both accumulated with ordered=True")
        return self.units.joined()

    @property
    def documents(self) -> int:
        """The units resampled: the distinct documents where documents were given, else the sentences."""
        if isinstance(self.units, SentenceRuns) and (documents := self.units.documents) is not None:
            return len(set(documents))
        return self.sentences

    def unit_counts(self) -> SentenceCounts:
        """Each unit's counts (docs/scoring.md §9), none before a batch is added."""
        if self.units is None:
            return SentenceCounts.of(np.zeros((0, len(SCENARIOS)), dtype=np.int64))
        return self.units.counts()

    def result(
        self,
        options: Options | None = None,
        *,
        token_accuracy: bool | None = None,
        types: Sequence[str] | None = None,
    ) -> dict[str, Any]:
        """`compute_semeval`'s dict of every batch added (`compute.result_dict`); with `options`, under other
        options of what is reported (`Options.REPORTED`: the command line's tables show every type): one that asks
        for what the batches were not counted with (another scheme, labels, which leaves entities out before they
        are paired, value or min_overlap; intervals, entities or slices not counted) is a `ValueError`.
        `token_accuracy` (docs/scoring.md §7) is there where tags were counted; True gives it before any batch
        too (the command line's empty file of tags), False leaves it out, of the slices' buckets too (the Space's
        picture draws the entities' scores). `types`, with `per_type`: the per-type keys of those types alone,
        no macro key, every other key compute_semeval's (the Space's table of 50 types of 100,000, `scores_of`)."""
        result = self._result(options, token_accuracy, types)  # its rows the caller's, as `options` write them
        rows = result.get("entities")
        return result if rows is None else {**result, "entities": reported_rows(rows, options or self.options)}

    def _result(  # rows not copied
        self, options: Options | None, token_accuracy: bool | None, types: Sequence[str] | None = None
    ) -> dict[str, Any]:
        checked = check_accumulator(self.options if options is None else options, self.ordered)  # (no 'diagnostics')
        options = None if options is None else checked  # (as Options.of reads them)
        token_accuracy = None if token_accuracy is None else check_flag("token_accuracy", token_accuracy)
        if options is not None and (uncounted := _uncounted(self.options, options)) is not None:
            raise ValueError(
                f"options asks for {uncounted}, which the batches were not counted with; expected options that "
                f"change only what is reported ({', '.join(Options.REPORTED)}), or that leave out a key: count "
                "the batches with it (Accumulator.of(...))"
            )
        options = self.options if options is None else options
        counted, tally, slices = self, self.tally, self.slices
        if tally is None:
            # Nothing was added: what was asked for reads as none found, as compute_semeval of no sentence
            # gives it (an empty file's --diagnostics), the counts of an empty batch, whatever the options (its
            # units' counts as wide as a batch's: §10's columns, the slices' buckets).
            counted = Accumulator(options).update(predictions=[], references=[])
            assert counted.tally is not None
            tally, slices = counted.tally if token_accuracy else without_tokens(counted.tally), counted.slices
        if token_accuracy is False:
            tally = without_tokens(tally)
            if slices is not None:
                by_bucket = {
                    name: {bucket: without_tokens(counts) for bucket, counts in tallies.items()}
                    for name, tallies in slices.by_bucket.items()
                }
                slices = SliceCounts(slices.names, slices.two_sided, by_bucket, slices.per_sentence)
        units = counted.unit_counts().reported(counted.options, options) if options.bootstrap else None
        entities = list(self.entities or ()) if options.return_entities else None
        return result_dict(tally, options, units, None, slices, NO_COLUMNS, entities, types=types)


def _uncounted(counted: Options, asked: Options) -> str | None:
    """The first option of `asked` (as `name=value`) that asks for what the batches were not counted with, or None:
    one of `Options.REPORTED` never does (never another scheme, min_overlap or value ignored, an interval of no unit
    read as certain)."""
    for field in dataclasses.fields(Options):
        name, new, old = field.name, getattr(asked, field.name), getattr(counted, field.name)
        if name in Options.REPORTED or new == old or (new == field.default and name in (*Options.ADDING, "value")):
            continue  # reported, or counted alike, or a key left out
        if name in ("bootstrap", "errors") and old:
            continue  # other resamples of the units kept, the first errors of those counted
        if name == "partial_credit" and OVERLAP not in (new, old):
            continue  # a PAR's share, applied to the counts
        if name == "labels" and new is not None and old is not None and set(new) == set(old):
            continue  # the same types kept, in another order (the per-type keys')
        return f"{name}={new!r}" if isinstance(new, (str, int, float, tuple)) else name  # (not a Scheme's fields)
    return None


def add_units(first: Any, second: Any) -> Any:
    """Two sums of the same kind (units' counts, slices' counts, entities' rows) added, None for nothing added."""
    if first is None:
        return second
    if second is None:
        return first
    if type(first) is not type(second):
        raise ValueError(_DOCUMENTS_IN_SOME)
    return first + second


def without_tokens(tally: Tally) -> Tally:
    """`tally` without its token counts (so without `token_accuracy`), every other field kept."""
    return replace(tally, tokens=None)  # a Tally, not Options (tests/test_options.py)


def _differing(first: Options, second: Options) -> tuple[str, str, str] | None:
    """The first option that differs between two options, as its name and both values, or None (`labels` of the
    same types in another order add up: the types kept are a set, the per-type keys' order the first's)."""
    return None if first is second else differing(first, second)


def _counted(
    predictions: Any,
    references: Any,
    options: Options,
    columns: Columns | Mapping[str, Any] | None,
    keep_sentences: bool,
) -> tuple[Counted, list[dict[str, Any]] | None, Columns, int]:
    """A batch counted as `compute_semeval` counts it: its `Counted` (with texts, `ungrounded` set), its `entities`
    rows with `return_entities`, its columns as scored and its number of sentences."""
    predictions, references, form, sentence_lengths = measured_batches(predictions, references)
    checked = checked_columns(columns, len(references))
    if form == TAGS and checked.texts is not None:  # (texts, which strings need: a list of two is their pair)
        refuse_pair_rows(predictions, references, texts=True)
    scored = scored_columns(predictions, references, form, options, checked, sentence_lengths)
    entities = None
    rows: list[Row] | Pairs | None  # with return_entities: the table of pairs, or for strings its rows
    if FORMS[form].grounded:  # docs/scoring.md §1b: grounded, then scored as spans
        counted, rows, entities = count_strings(predictions, references, options, keep_sentences, scored)
    else:
        counted, rows = count_batch(
            predictions, references, form, options, keep_sentences, scored, sentence_lengths=sentence_lengths
        )
        if options.return_entities:
            assert rows is not None  # return_entities: the table of pairs
            entities = entity_dicts_of(rows, options, scored, counted.value_pairs)
            counted = counted._replace(value_pairs=None)  # read: the accumulator keeps none of it
    if options.confusion:
        check_outside_type(predictions, references, form, options, counted.tally, rows)
    return counted._replace(tally=with_ungrounded_key(counted.tally, scored)), entities, scored, len(references)


def compute_semeval(
    *,
    predictions: Any,
    references: Any,
    texts: Any = None,
    tokens: Any = None,
    groups: Any = None,
    documents: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """SemEval-2013 strict / exact / partial / type scores of a batch of tag sequences or spans (docs/scoring.md §7).

    `predictions` and `references` are lists (or 2-D arrays) of tag sequences, or of integer ids with
    `label_list`, or lists of spans (entities as dicts with start, end and type, or (start, end, type) tuples;
    docs/scoring.md §1); they are keyword-only, as in evaluate's `compute`, because peers take the truth first
    and a swapped call would silently swap precision and recall. `options` are the fields of `Options`.
    `texts`, `tokens`, `groups` and `documents` are given beside them, one value per sentence
    (`nerscore.table.columns`). Returns a flat dict of plain numbers. Raises `ValueError` naming side, sentence and
    token (or entity) for malformed input. Inputs are never modified. A corpus read in batches is scored the same
    by `Accumulator`."""
    return compute_checked(
        predictions, references, Options.of(**options), given_columns(texts, tokens, groups, documents)
    )


def compute_checked(
    predictions: Any, references: Any, options: Options, columns: Columns | Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """`compute_semeval` with its options already checked (the evaluate wrapper merges load-time options with
    those of each `compute`); `columns` as given (a mapping of name to values) or as read back (`Columns`)."""
    return Accumulator(options).update_checked(predictions, references, columns)._result(None, None)
