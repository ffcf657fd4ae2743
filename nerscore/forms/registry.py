"""The input forms (docs/scoring.md §1, §1b) as a registry, `FORMS`: one entry per form says what its values are,
which options it takes, what its columns must give, and which path turns a batch of it into the table of pairs
(`pairs.Pairs`). `compute.count_batch` looks its form up here rather than branching on it, so that a new form (an
annotation file's, discontinuous fragments) is one entry: its reader in `nerscore.forms.inputs`, its detection in
`inputs.value_form`, its paths to the table, and its line below.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import chain
from types import ModuleType
from typing import Any

import numpy as np

from ..errors import InvalidInputError, shown
from ..option_checks import is_id
from ..options import Options, check_span_options, check_tag_options
from ..schemes import ID_AMONG_TAGS
from ..table import reducers
from ..table.columns import Columns
from ..table.pairs import SentenceFacts
from ..tally import Counted, Row, TokenCounts
from .batches import batches
from .inputs import (
    IDS,
    SPANS,
    STRINGS,
    TAGS,
    Batch,
    batch_form,
    holds_ids,
    read_spans,
    read_strings,
    rows_of,
    side_forms,
)
from .readable import span_rows, tag_rows_and_facts
from .string_batches import StringSpans, read_span_side, string_spans
from .tag_arrays import count_tags

# The array path: a batch's `Counted` (with its table of pairs when asked for: keep_sentences, columns, pairs), or
# None for input it cannot read, which the readable path then reads (and names what is wrong); the last argument
# is each sentence's number of tags where the alignment check measured it (`measured_batches`), else None.
ArrayCount = Callable[[Batch, Batch, Options, bool, Columns, bool, "list[int] | None"], "Counted | None"]
# The readable path: a batch's rows, the facts of its sentences, and its tokens' counts where it has tokens.
ReadableRows = Callable[[Batch, Batch, Options], "tuple[list[Row], SentenceFacts, TokenCounts | None]"]


@dataclass(frozen=True)
class Form:
    """One form of input, as data. `entities`: its values are entities (an error names one by its index in the
    sentence, `errors` by `texts` as well as by `tokens`, a slice needs no tags, `tokens` are checked against the
    entities' ends), not tags (named by their token). `ids`: integer ids, read through `label_list` with
    `ignore_index`. `check_options` refuses the options that mean nothing for it. `count` and `readable` make its
    table of pairs; `ground`, where given, first places its entities in the texts (§1b), and the spans they ground
    to are counted as spans. `store` turns both sides into what the evaluate wrapper stores (every value checked),
    `fits` says whether a side's numbers fit the int64 evaluate stores them in and which strings it encodes, and
    `unstorable` names what is wrong with one stored value."""

    name: str
    entities: bool
    ids: bool
    check_options: Callable[[Options], None]
    count: ArrayCount
    readable: ReadableRows
    store: Callable[[list[list], list[list]], tuple[list[list], list[list]]]
    fits: Callable[[list[list]], tuple[bool, list[str]]]
    unstorable: Callable[[Any], str | None]
    ground: Callable[[list[list], list[list], Options, Columns], StringSpans] | None = None

    @property
    def grounded(self) -> bool:
        """Whether its entities come without offsets and are placed in the texts first (§1b): then either side
        may hold spans into the same texts instead, and each side keeps its own form."""
        return self.ground is not None

    @property
    def described(self) -> str:
        """What an error calls a batch of this form."""
        return "spans" if self.entities else "tags"


def holds_values(predictions: Batch, references: Batch) -> bool:
    """Whether a batch (as `batches` returns it, or lists of rows) holds a tag, an id or an entity: a batch without
    one may be of any form, so the options and columns of tags are checked only once it is known to hold some."""
    if isinstance(references, np.ndarray):
        return bool(references.size)
    return batch_form(rows_of(predictions), rows_of(references), listed=True) is not None


# What the evaluate wrapper stores (`storable`): ids and offsets as Arrow int64 and strings as UTF-8. What scoring
# takes beyond these (compute_semeval scores a 5,000-digit offset and a type with a lone surrogate) is refused
# before it is stored, where pyarrow would raise OverflowError or an unlocated UnicodeEncodeError.
_INT64 = (-(1 << 63), (1 << 63) - 1)
_SURROGATE = re.compile("[\ud800-\udfff]")


def _stored_tags(predictions: list[list], references: list[list]) -> tuple[list[list], list[list]]:
    """Both sides as they are, after an `InvalidInputError` at the first value that is neither a string tag nor
    an integer id, or whose kind differs from the batch's first value (evaluate would store ["B-PER", 3] as two
    strings)."""
    kinds = {*map(type, chain.from_iterable(predictions)), *map(type, chain.from_iterable(references))}
    if kinds <= {str} or all(issubclass(kind, numbers.Integral) and kind is not bool for kind in kinds):
        return predictions, references
    ids = holds_ids(predictions, references)
    for side, batch in (("predictions", predictions), ("references", references)):
        for sentence, row in enumerate(batch):
            for token, value in enumerate(row):
                if not (is_id(value) if ids else isinstance(value, str)):
                    expected = "integer ids" if ids else "string tags"
                    found = f"found {shown(value)} ({type(value).__name__}) where the batch holds {expected}"
                    problem = (
                        f"{found}; {ID_AMONG_TAGS}"  # (a tokenizer's -100, as compute says: schemes.not_a_tag)
                        if not ids and is_id(value)
                        else f"{found}; expected every value a string tag, or every value an integer id "
                        "(with label_list)"
                    )
                    raise InvalidInputError(problem, side, sentence, token)
    return predictions, references


def _stored_spans(predictions: list[list], references: list[list]) -> tuple[list[list], list[list]]:
    """Spans stored in one form, ``{start, end, type}``, whatever form they came in (a discontinuous entity with
    its `fragments` too, docs/scoring.md §12; `stored_batch` gives every entity the key)."""
    return (
        [[span.as_dict() for span in sentence] for sentence in read_spans(predictions, "predictions")],
        [[span.as_dict() for span in sentence] for sentence in read_spans(references, "references")],
    )


def _stored_strings(predictions: list[list], references: list[list]) -> tuple[list[list], list[list]]:
    """Both sides of a batch of string entities, every entity a dict ``{start, end, type, text}``: a string
    entity with start and end None, a span with text None."""
    reference_form, predicted_form = side_forms(predictions, references)
    return (
        _stored_entities(predictions, "predictions", predicted_form),
        _stored_entities(references, "references", reference_form),
    )


def _stored_entities(batch: list[list], side: str, form: str | None) -> list[list[dict[str, Any]]]:
    if form == STRINGS:
        return [
            [{"start": None, "end": None, "type": entity_type, "text": text} for entity_type, text in sentence]
            for sentence in read_strings(batch, side)
        ]
    return [[{**span.as_dict(), "text": None} for span in sentence] for sentence in read_span_side(batch, side)]


def _tags_fit(batch: list[list]) -> tuple[bool, list[str]]:
    # (a tag no scheme reads is refused by stored_batches, which knows a scheme built by hand given at load)
    return True, list(chain.from_iterable(batch))


def _ids_fit(batch: list[list]) -> tuple[bool, list[str]]:
    low, high = _INT64
    return low <= min(chain.from_iterable(batch), default=0) and max(chain.from_iterable(batch), default=0) <= high, []


def _entities_fit(batch: list[list]) -> tuple[bool, list[str]]:
    # start < end: the ends bound both (a string entity has neither, a span no text)
    ends = [entity["end"] for sentence in batch for entity in sentence if entity["end"] is not None]
    strings = [entity.get(key) or "" for sentence in batch for entity in sentence for key in ("type", "text")]
    return not ends or max(ends) <= _INT64[1], strings


def _not_text(what: str, text: str) -> str | None:
    found = _SURROGATE.search(text)
    if found is None:
        return None
    return (
        f"{what}, which holds the lone surrogate {found.group()!r} (half of a UTF-16 pair): not text, so evaluate "
        "cannot store it as UTF-8; expected a string of text"
    )


def _unstorable_tag(value: Any) -> str | None:
    return _not_text(f"found tag {shown(value)}", value)


def _unstorable_id(value: Any) -> str | None:
    low, high = _INT64
    if low <= value <= high:
        return None
    return f"found id {shown(value)}, beyond the 64-bit integers evaluate stores; expected an id of label_list"


def _unstorable_entity(value: Any) -> str | None:
    if value.get("text") is not None and _SURROGATE.search(value["text"]):  # (no text: a span)
        return _not_text(f"the text is {shown(value['text'])}", value["text"])
    for name in ("start", "end"):
        if value[name] is not None and value[name] > _INT64[1]:
            return (
                f"{name} is {shown(value[name])}, beyond the 64-bit integers evaluate stores; expected an offset "
                f"below 2**63 (compute_semeval, which stores nothing, takes any)"
            )
    return _not_text(f"the type is {shown(value['type'])}", value["type"])


def _tag_rows(
    predictions: Batch, references: Batch, ids: bool, options: Options
) -> tuple[list[Row], SentenceFacts, TokenCounts | None]:
    rows, facts = tag_rows_and_facts(predictions, references, ids, options)
    return rows, facts, reducers.token_counts(facts)


def _tag_form(name: str, ids: bool) -> Form:
    return Form(
        name,
        entities=False,
        ids=ids,
        check_options=check_tag_options,
        count=lambda predictions, references, *counting: count_tags(predictions, references, ids, *counting),
        readable=lambda predictions, references, options: _tag_rows(predictions, references, ids, options),
        store=_stored_tags,
        fits=_ids_fit if ids else _tags_fit,
        unstorable=_unstorable_id if ids else _unstorable_tag,
    )


def _count_spans(
    predictions: Batch,
    references: Batch,
    options: Options,
    keep_sentences: bool,
    columns: Columns,
    pairs: bool,
    _sentence_lengths: list[int] | None,
) -> Counted | None:
    from .span_arrays import count_spans  # here: the span path's modules load with the first spans

    return count_spans(rows_of(predictions), rows_of(references), options, keep_sentences, columns, pairs)


def _span_rows(
    predictions: Batch, references: Batch, options: Options
) -> tuple[list[Row], SentenceFacts, TokenCounts | None]:
    return span_rows(rows_of(predictions), rows_of(references), options), SentenceFacts(len(references)), None


_SPANS = Form(
    SPANS,
    entities=True,
    ids=False,
    check_options=check_span_options,
    count=_count_spans,
    readable=_span_rows,
    store=_stored_spans,
    fits=_entities_fit,
    unstorable=_unstorable_entity,
)
FORMS: dict[str, Form] = {
    TAGS: _tag_form(TAGS, ids=False),
    IDS: _tag_form(IDS, ids=True),
    SPANS: _SPANS,
    # grounded, then counted as the spans they ground to
    STRINGS: replace(_SPANS, name=STRINGS, store=_stored_strings, ground=string_spans),
}


def storable(predictions: Any, references: Any) -> tuple[list[list], list[list], str]:
    """A batch as the evaluate wrapper stores it: both sides as lists of sentences, and its form. Every value is
    checked first, so that nothing is stored that scoring would refuse; spans are stored in one form,
    ``{start, end, type}``, whatever form they came in (dicts with `label` or `entity_group`, tuples)."""
    predictions, references, form = batches(predictions, references)
    entry = FORMS[form]
    predictions, references = entry.store(rows_of(predictions), rows_of(references))
    for side, batch in (("predictions", predictions), ("references", references)):
        _check_arrow_can_store(batch, side, entry)
    return predictions, references, form


def stored_batch(predictions: Any, references: Any) -> tuple[list[list], list[list], str]:
    """A batch as the evaluate wrapper hands it to evaluate: `storable`'s, every entity holding `fragments`, None
    where it is contiguous: evaluate's Arrow structs need every key in every entity (docs/scoring.md §12)."""
    predictions, references, form = storable(predictions, references)
    if FORMS[form].entities:
        predictions, references = (
            [[entity if "fragments" in entity else {**entity, "fragments": None} for entity in row] for row in side]
            for side in (predictions, references)
        )
    return predictions, references, form


Sides = tuple[str | None, str | None]


def same_sides(before: Sides, now: Sides) -> Sides:
    """Each side's form (strings or spans, `side_forms`: references first) over the batches of one evaluation with
    string entities: `before`, the batches stored so far, and `now`, this batch. Each side keeps one form over
    every batch of an evaluation, as within one batch (docs/scoring.md §1b): a side that changes is a ValueError."""
    for side, old, new in zip(("references", "predictions"), before, now):
        if old is not None and new is not None and old != new:
            raise ValueError(
                f"found {side} in {new} where the batches added before hold {side} in {old}; expected each side in "
                "one form, strings or spans, in every batch of one evaluation"
            )
    return (before[0] or now[0], before[1] or now[1])


def _check_arrow_can_store(batch: list[list], side: str, entry: Form) -> None:
    """Raise `InvalidInputError` at the first id or offset outside int64, or string holding a lone surrogate."""
    numbers_fit, strings = entry.fits(batch)
    try:
        "".join(strings).encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        if numbers_fit:
            return
    for sentence, row in enumerate(batch):
        for index, value in enumerate(row):
            problem = entry.unstorable(value)
            if problem is not None:
                if entry.entities:
                    raise InvalidInputError(problem, side, sentence, entity=index)
                raise InvalidInputError(problem, side, sentence, index)


# Where the evaluate wrapper stores each sentence's columns (texts, tokens, groups or documents, `Columns`) beside it,
# as one JSON string (`Columns.stored`): the stored form is chosen by the first batch, with the columns or without.
STORED_COLUMNS = "columns"


def stored_features(datasets: ModuleType, form: str | None, with_columns: bool = False) -> Any:
    """The `datasets.Features` the evaluate wrapper stores a batch of `form` in (the wrapper passes the module
    `datasets`, which the package never imports: tests/test_house.py). One form per evaluation, chosen by the first
    batch: string tags, integer ids, or entities in one form whatever form they came in (`storable`), a list of
    {start, end, type} per sentence; a discontinuous entity also stores its fragments, [[start, end], ...], null
    for the others (docs/scoring.md §12); string entities (§1b), on either side, against strings or spans, store
    {start, end, type, text}, a string entity with start and end null, a span with text null. `[...]` is a list of
    structs in every datasets version (`Sequence` of a dict would store a dict of lists). `form` None: sentences
    without any value, as a process other than 0 stores them when it has nothing else (Arrow merges lists of nulls
    into process 0's lists of strings, ids or structs alike). `with_columns`: with `STORED_COLUMNS`."""
    value = datasets.Value
    sides: dict[str, Any]
    if form is None or not FORMS[form].entities:  # one value (a tag string, an id, or null) per token
        dtype = {None: "null", TAGS: "string", IDS: "int64"}[form]
        sides = {side: datasets.Sequence(value(dtype)) for side in ("predictions", "references")}
    else:
        entity = {
            "start": value("int64"),
            "end": value("int64"),
            "type": value("string"),
            "fragments": [[value("int64")]],
        }
        if form == STRINGS:
            entity["text"] = value("string")
        sides = {"predictions": [entity], "references": [entity]}
    return datasets.Features({**sides, STORED_COLUMNS: value("string")} if with_columns else sides)
