"""The input forms (docs/scoring.md §1, §1b) as a registry, `FORMS`: one entry per form says what its values are,
which options it takes, what its columns must give, and which path turns a batch of it into the table of pairs
(`pairs.Pairs`). `compute.count_batch` looks its form up here rather than branching on it, so that a new form (an
annotation file's, discontinuous fragments) is one entry: its reader in `nerscore.inputs`, its detection in
`inputs.value_form`, its paths to the table, and its line below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import reducers
from .columns import Columns
from .counts import Counted, Row, TokenCounts
from .inputs import IDS, SPANS, STRINGS, TAGS, Batch, batch_form, check_span_options, check_tag_options, rows_of
from .options import Options
from .pairs import SentenceFacts
from .readable import sentence_facts, span_rows, tag_rows
from .span_arrays import count_spans
from .string_batches import StringSpans, string_spans
from .tag_arrays import count_tags

# The array path: a batch's `Counted` (with its table of pairs when asked for: by_sentence, columns, pairs), or
# None for input it cannot read, which the readable path then reads (and names what is wrong).
ArrayCount = Callable[[Batch, Batch, Options, bool, Columns, bool], "Counted | None"]
# The readable path: a batch's rows, the facts of its sentences, and its tokens' counts where it has tokens.
ReadableRows = Callable[[Batch, Batch, Options], "tuple[list[Row], SentenceFacts, TokenCounts | None]"]


@dataclass(frozen=True)
class Form:
    """One form of input, as data. `entities`: its values are entities (an error names one by its index in the
    sentence, a slice needs no tags, `tokens` are checked against the entities' ends), not tags (named by their
    token). `ids`: integer ids, read through `label_list` with `ignore_index`. `texts_name_entities`: `errors`
    can name its entities by `texts` as well as by `tokens`. `check_options` refuses the options that mean nothing
    for it. `count` and `readable` make its table of pairs; `ground`, where given, first places its entities in
    the texts (§1b), and the spans they ground to are counted as spans."""

    name: str
    entities: bool
    ids: bool
    texts_name_entities: bool
    check_options: Callable[[Options], None]
    count: ArrayCount
    readable: ReadableRows
    ground: Callable[[list[list], list[list], Options, Columns], StringSpans] | None = None

    @property
    def described(self) -> str:
        """What an error calls a batch of this form."""
        return "spans" if self.entities else "tags"


def holds_values(predictions: Batch, references: Batch) -> bool:
    """Whether a batch holds a tag, an id or an entity: a batch without one may be of any form, so the options
    and columns of tags are checked only once it is known to hold some."""
    if isinstance(references, np.ndarray):
        return bool(references.size)
    return batch_form(rows_of(predictions), rows_of(references)) is not None


def _tag_form(name: str, ids: bool) -> Form:
    def count(
        predictions: Batch, references: Batch, options: Options, by_sentence: bool, columns: Columns, pairs: bool
    ) -> Counted | None:
        return count_tags(predictions, references, ids, options, by_sentence, columns, pairs)

    def readable(
        predictions: Batch, references: Batch, options: Options
    ) -> tuple[list[Row], SentenceFacts, TokenCounts | None]:
        facts = sentence_facts(predictions, references, ids, options)
        return tag_rows(predictions, references, ids, options), facts, reducers.token_counts(facts)

    return Form(name, False, ids, False, check_tag_options, count, readable)


def _count_spans(
    predictions: Batch, references: Batch, options: Options, by_sentence: bool, columns: Columns, pairs: bool
) -> Counted | None:
    return count_spans(rows_of(predictions), rows_of(references), options, by_sentence, columns, pairs)


def _span_rows(
    predictions: Batch, references: Batch, options: Options
) -> tuple[list[Row], SentenceFacts, TokenCounts | None]:
    return span_rows(rows_of(predictions), rows_of(references), options), SentenceFacts(len(references)), None


FORMS: dict[str, Form] = {
    TAGS: _tag_form(TAGS, False),
    IDS: _tag_form(IDS, True),
    SPANS: Form(SPANS, True, False, True, check_span_options, _count_spans, _span_rows),
    STRINGS: Form(STRINGS, True, False, True, check_span_options, _count_spans, _span_rows, string_spans),
}
