"""What is given beside the entities, one value per sentence: `texts`, `tokens`, `groups` and `documents`.

They are data, not options: they change with every batch, so the evaluate wrapper stores them with the batches
(one JSON string a sentence, `stored` and `from_stored`) where options are given once. Each is checked here for
its length and the form of its values, once, into one frozen `Columns` that is passed down beside `Options`;
what a column means is the business of the modules that read it (texts: string entities, docs/scoring.md §1b;
tokens and groups: slices, §11; documents: the resampling unit, §9).
"""

from __future__ import annotations

import operator
import re
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from functools import cache, cached_property
from itertools import chain
from typing import Any

import numpy as np

from ..errors import InvalidInputError, shown
from ..option_checks import is_collection
from ..schemes import LARGEST_HASHED, unhashable_size

# A stored id (a group or a document) is one of these, or a tuple of them: what survives a JSON round trip with
# its type (a tuple is written {"tuple": [...]}), so that every process of a distributed evaluation reads back
# the ids it was given. compute_semeval, which stores nothing, takes any hashable value.
_STORED_SCALARS = (str, int, float, bool, type(None))


def _text_problem(value: Any) -> str | None:
    if isinstance(value, str):
        return None
    return f"found {shown(value)}; expected the sentence's (document's) text, a string"


def _tokens_problem(value: Any) -> str | None:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        return f"found {shown(value)}; expected the sentence's tokens, a list of strings"
    if set(map(type, value)) <= {str}:  # every token a plain string, checked in C (20,000 x 20 tokens: 60 ms)
        return None
    for index, token in enumerate(value):
        if not isinstance(token, str):
            return f"token {index} is {shown(token)}; expected the sentence's tokens, a list of strings"
    return None


def _id_problem(value: Any) -> str | None:
    if (size := unhashable_size(value)) is not None:  # no id is so large: refused before it is hashed
        return f"found {shown(value)}, {size}; expected an id: a string, a number or a tuple"
    try:
        hash(value)
    except TypeError:
        return f"found {shown(value)}, which is not hashable; expected an id: a string, a number or a tuple"
    except RecursionError:  # an id whose __hash__ recurses (tuples nested too deep: unhashable_size, above)
        return f"found {shown(value)}, nested too deep to hash; expected an id: a string, a number or a tuple"
    if (nan := _nan_held(value)) is not None:  # NaN: sentences of it were one unit or several by identity
        held = "" if nan is value else f", which holds {shown(nan)}"
        return (
            f"found {shown(value)}{held}, equal to no id, itself included (a missing value?); expected an id: a "
            "string, a number or a tuple"
        )
    return None


def _nan_held(value: Any) -> Any:
    """A NaN that is `value` or is held in it at any depth of tuples (and frozensets), or None. Walked with a list
    of what is left, not by recursion, each tuple once: its work is the id's size, which `unhashable_size` bounds
    (a tuple id equals another when each item does, and a NaN within equals no other NaN, as a bare one)."""
    if type(value) is tuple and set(map(type, value)) <= {str, int}:  # a flat id of names and numbers, nearly all
        return None
    left, walked = [value], set()
    while left:
        item = left.pop()
        if isinstance(item, (tuple, frozenset)):
            if id(item) not in walked:
                walked.add(id(item))
                left.extend(item)
        elif not isinstance(item, (str, bytes, int)) and _unequal_to_itself(item):
            return item
    return None


def _unequal_to_itself(item: Any) -> bool:
    """Whether `item` is no id that equals itself: NaN, pandas' NaT, and pd.NA (whose `==` is NA, and its truth a
    TypeError), each a missing value that was a unit of its own where NaN is refused."""
    try:
        return not bool(item == item)
    except (TypeError, ValueError):  # (pd.NA's truth; an array's, which no hashable id is)
        return True


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Column:
    """One column: its name (the keyword), what it holds, the problem with one sentence's value (or None), and
    the value as it is kept (never the caller's object, which is never modified)."""

    name: str
    doc: str
    problem: Callable[[Any], str | None]
    kept: Callable[[Any], Any] = _same
    is_id: bool = False
    plain: tuple[type, ...] = ()  # values all of these exact types are fine as they are: checked with no loop
    lists_of_strings: bool = False  # values all lists or tuples of strings are fine: checked with no loop


COLUMNS = {
    column.name: column
    for column in (
        Column(
            "texts",
            "the text of each sentence or document (string entities, entity texts)",
            _text_problem,
            plain=(str,),
        ),
        Column(
            "tokens",
            "the tokens of each sentence, aligned with its tags",
            _tokens_problem,
            tuple,
            lists_of_strings=True,
        ),
        Column("groups", "a label of each sentence (the `group` slice)", _id_problem, is_id=True, plain=(str, int)),
        Column(
            "documents",
            "the document id of each sentence (the resampling unit)",
            _id_problem,
            is_id=True,
            plain=(str, int),
        ),
    )
}
COLUMN_NAMES = tuple(COLUMNS)


@dataclass(frozen=True)
class Columns:
    """The columns given with a batch, each a tuple of one value per sentence, or None when not given."""

    texts: tuple[str, ...] | None = None
    tokens: tuple[Sequence[str], ...] | None = None  # tuples, but as `read` keeps them, the caller's list of lists
    groups: tuple[Any, ...] | None = None
    documents: tuple[Any, ...] | None = None

    @classmethod
    def of(cls, sentences: int, **given: Any) -> Columns:
        """The columns of a batch of `sentences` sentences, checked: a `ValueError` names the column, the
        sentence and what was found. A column given as None is not given."""
        unknown = sorted(set(given) - set(COLUMNS))
        if unknown:
            raise ValueError(f"found the column {unknown[0]!r}; expected one of {', '.join(COLUMN_NAMES)}")
        kept, strings = {}, []
        for name, values in given.items():
            if values is not None:
                kept[name], only_strings = _checked(COLUMNS[name], values, sentences)
                if only_strings and COLUMNS[name].is_id:
                    strings.append(name)
        columns = cls(**kept)
        for name in strings:  # ids that are all strings are their labels (`labels`), known from the check's pass
            columns._labels[name] = kept[name]
        return columns

    @classmethod
    def read(cls, sentences: int, **given: Any) -> Columns:
        """`of` for a caller that reads the columns within one call and keeps nothing of them (compute_semeval,
        `Accumulator.update`: what they keep are counts and new strings): the same checks, but tokens that are
        all lists or tuples of strings are read where they are, not copied into tuples (7 ms of 20,000 x 20
        tokens, a fifth of a plain compute_semeval). Never modified, as any input."""
        if set(given) <= set(COLUMNS) and given.get("tokens") is not None:
            values = given["tokens"]
            if isinstance(values, (list, tuple)) and set(map(type, values)) <= {list, tuple}:
                # Each sentence's number of tokens measured now, while the pass over their types has just read the
                # lists' headers (measured after the strings' check, which reads every token, they were read from
                # memory again: 0.5 ms of 20,000 x 20 tokens); `kept_tokens` compares them with the tags'.
                lengths = list(map(len, values))
                if not _all_strings(values) or len(values) != sentences:
                    return cls.of(sentences, **given)  # its error
                others = cls.of(sentences, **{**given, "tokens": None})
                # The caller's sequence itself, not a tuple of it: a new tuple of the sentences' lists is a young
                # object that the collector's first pass of the call traverses, reading every list's header.
                columns = cls(**{**{name: getattr(others, name) for name in others.given}, "tokens": values})
                columns._labels.update(others._labels)
                columns._measured["tokens"] = lengths
                return columns
        return cls.of(sentences, **given)

    @property
    def given(self) -> tuple[str, ...]:
        """The names of the columns given, in the order of COLUMN_NAMES."""
        return tuple(field.name for field in fields(self) if getattr(self, field.name) is not None)

    def check_same_as(self, given_before: tuple[str, ...] | None) -> None:
        """Every batch of one evaluation gives the same columns as the first, whose names were `given_before`
        (their sentences would otherwise be scored without them): a `ValueError` at the batch's first sentence."""
        if given_before is None or self.given == given_before:
            return
        missing = [name for name in given_before if name not in self.given]
        added = [name for name in self.given if name not in given_before]
        name = (missing or added)[0]
        before = "were" if missing else "were not"
        raise InvalidInputError(
            f"this batch {'lacks' if missing else 'gives'} {name}, which the batches added before {before} given "
            f"with; expected {name} with every batch of one evaluation or with none",
            name,
            0,
        )

    def __bool__(self) -> bool:
        return bool(self.given)

    def __add__(self, other: Columns) -> Columns:
        """The columns of two batches, one after the other; a column given with one batch and not the other is
        an error (sentence numbers count from the first batch)."""
        if not self:
            return other
        if not other:
            return self
        for name in sorted(set(self.given) ^ set(other.given)):
            raise _given_for_some(name, self.sentences if name in self.given else 0)
        return Columns(**{name: tuple(getattr(self, name)) + tuple(getattr(other, name)) for name in self.given})

    def labels(self, name: str) -> Sequence[str]:
        """Each sentence's value of the id column `name` as the label a slice names it by (`str`, docs/scoring.md
        §11). An integer of more digits than Python writes (`sys.get_int_max_str_digits()`, 4,300 by default) is
        an `InvalidInputError` naming the column and the sentence. Read once: the slices' check reads them, then
        the slice (`nerscore.table.slices`)."""
        read = self._labels.get(name)
        if read is None:
            read = self._labels[name] = self._read_labels(name)
        return read

    @cached_property
    def _labels(self) -> dict[str, Sequence[str]]:
        return {}

    def token_lengths(self) -> list[int]:
        """Each sentence's number of tokens (`tokens` given): as `read` measured them, or measured now."""
        assert self.tokens is not None
        measured = self._measured.get("tokens")
        return list(map(len, self.tokens)) if measured is None else measured

    @cached_property
    def _measured(self) -> dict[str, list[int]]:
        return {}

    def _read_labels(self, name: str) -> Sequence[str]:
        values = getattr(self, name) or ()
        if set(map(type, values)) <= {str}:  # labels already (str of a str is itself): no call a value
            return list(values)
        try:
            return [str(value) for value in values]
        except (ValueError, RecursionError):  # located below
            pass
        for sentence, value in enumerate(values):
            problem = _unwritable_problem(value)
            if problem is None:  # (a frozenset, or another hashable, holding what Python does not write)
                try:
                    str(value)
                except (ValueError, RecursionError):
                    problem = f"found {shown(value)}, which Python cannot write as text"
            if problem is not None:
                raise InvalidInputError(
                    f"{problem}; expected a label: a string, or a number Python writes", name, sentence
                )
        return [str(value) for value in values]

    @property
    def sentences(self) -> int | None:
        """How many sentences the columns describe (None when none is given)."""
        for name in self.given:
            return len(getattr(self, name))
        return None

    def stored(self, sentences: int) -> list[str]:
        """One JSON string per sentence, as the evaluate wrapper stores the columns beside each sentence ("" for
        every sentence when no column is given). Ids that no JSON round trip keeps are refused here, located."""
        if not self:
            return [""] * sentences
        import json  # here, not at the top: only the evaluate wrapper stores columns, and json adds 2 ms to import

        given = self.given
        for name in given:
            if COLUMNS[name].is_id:
                for sentence, value in enumerate(getattr(self, name)):
                    problem = _unwritable_problem(value)
                    if problem is not None:  # JSON writes an integer as str does
                        raise InvalidInputError(f"{problem}; expected an id evaluate can store", name, sentence)
                    if _stored_id(value) is None:
                        raise InvalidInputError(
                            f"found {shown(value)}; expected an id evaluate can store: a string, a number, a "
                            "boolean, None or a tuple of them (compute_semeval, which stores nothing, takes any "
                            "hashable id)",
                            name,
                            sentence,
                        )
        rows = zip(*(getattr(self, name) for name in given))
        return [
            json.dumps(
                {name: _stored_id(value) if COLUMNS[name].is_id else value for name, value in zip(given, row)},
                ensure_ascii=True,
            )
            for row in rows
        ]

    @classmethod
    def from_stored(cls, rows: Sequence[str | None]) -> Columns:
        """The columns `stored` wrote, read back from every stored sentence."""
        if not any(rows):
            return cls()
        import json

        decoded = [json.loads(row) if row else {} for row in rows]
        names = [name for name in COLUMN_NAMES if any(name in row for row in decoded)]
        values: dict[str, list] = {name: [] for name in names}
        for sentence, row in enumerate(decoded):
            for name in names:
                if name not in row:
                    raise _given_for_some(name, sentence)
                value = row[name]
                values[name].append(_read_id(value) if COLUMNS[name].is_id else COLUMNS[name].kept(value))
        return cls(**{name: tuple(column) for name, column in values.items()})


NO_COLUMNS = Columns()


def _given_for_some(name: str, sentence: int | None) -> InvalidInputError:
    """The error for a column given with some sentences (or batches) and not with others, at `sentence`."""
    return InvalidInputError(
        f"{name} were given for some sentences and not for others; expected {name} with every batch", name, sentence
    )


# Tokens of these scripts are written without a space between them (告 白 气 球 reads 告白气球), as the Space
# writes them (space/writing.py).
_CJK = r"^[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+$"
# A character of those scripts anywhere in a text.
CJK_CHARACTER = r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"


@cache
def compiled(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled when first used: the CJK ranges take 2-3 ms to compile, which `import nerscore` need not
    pay (and a look-up here costs less than one in `re`'s own cache)."""
    return re.compile(pattern)


def join_tokens(tokens: Sequence[str]) -> str:
    """Tokens as one text (docs/scoring.md §11): one space between two tokens, none between two CJK tokens."""
    parts: list[str] = []
    cjk = compiled(_CJK).match
    for index, token in enumerate(tokens):
        if index and not (cjk(tokens[index - 1]) and cjk(token)):
            parts.append(" ")
        parts.append(token)
    return "".join(parts)


def entity_text(columns: Columns, sentence: int, start: int, end: int) -> str | None:
    """The text of the entity [start, end) of `sentence` (docs/scoring.md §11): its tokens joined, for tags with
    `tokens` (the tokens as scored: those at positions `ignore_index` drops are dropped with them), or the
    characters of `texts` for spans; None without either."""
    if columns.tokens is not None:
        return join_tokens(columns.tokens[sentence][start:end])
    if columns.texts is not None:
        return columns.texts[sentence][start:end]
    return None


def _checked(column: Column, values: Any, sentences: int) -> tuple[tuple, bool]:
    """The values of a column as kept, checked, and whether they are all strings (exactly `str`: ids that are
    their own labels, seen by the check's one pass over their types)."""
    if hasattr(values, "tolist") and not isinstance(values, (list, tuple)):
        values = values.tolist()  # a numpy array of texts, ids or labels
    if not is_collection(values):
        raise InvalidInputError(
            f"found {shown(values)}; expected {column.doc}: a list with one value per sentence", column.name
        )
    values = list(values)
    if len(values) != sentences:
        raise InvalidInputError(
            f"found {len(values)} values for {sentences} sentences; expected one per sentence, {column.doc}",
            column.name,
        )
    types = set(map(type, values)) if column.plain else set()
    if column.plain and types <= set(column.plain):
        # The usual values (texts; ids that are strings or ints, hashable) kept as they are.
        return tuple(values), types == {str}
    flat = column.is_id and types == {tuple} and set(map(type, chain.from_iterable(values))) <= {str, int}
    if flat and max(map(len, values)) <= LARGEST_HASHED:
        # Flat tuples of strings and ints (the command line's (file, document)), hashable and no NaN: kept in C too.
        return tuple(values), False
    if column.lists_of_strings and set(map(type, values)) <= {list, tuple} and _all_strings(values):
        # Checked and kept in C: the loop below took 25 ms of 20,000 x 20 tokens, 70% of a plain compute_semeval.
        return tuple(map(tuple, values)), False
    kept = []
    for sentence, value in enumerate(values):
        if hasattr(value, "tolist") and not isinstance(value, (list, tuple, str)):
            value = value.tolist()
        problem = column.problem(value)
        if problem is not None:
            raise InvalidInputError(problem, column.name, sentence)
        kept.append(column.kept(value))
    return tuple(kept), False


def _all_strings(values: Sequence[Sequence[Any]]) -> bool:
    """Whether every item of every value is a string (what `_tokens_problem` asks of each): joining each value is
    the test, in C (a set of their types takes twice as long), each join dropped as soon as made, so that one
    buffer is used over and over (one join of the batch's chained tokens wrote them all out again: 70% slower)."""
    try:
        deque(map("".join, values), maxlen=0)
    except TypeError:
        return False
    return True


def _unwritable_problem(value: Any) -> str | None:
    """What is wrong with an id (or a tuple of them) that Python cannot write as text, or None: an integer of more
    digits than `sys.get_int_max_str_digits()` (3.11+; at least 640), whose bare "Exceeds the limit" ValueError
    would name neither column nor sentence; a tuple nested too deep to write (RecursionError)."""
    for item in value if isinstance(value, tuple) else (value,):
        if isinstance(item, int) and item.bit_length() > 2_000:  # (shorter ones, under 640 digits, are written)
            try:
                str(item)
            except ValueError:
                limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
                return f"found {shown(item)}, more digits than Python writes as text ({limit:,})"
    if isinstance(value, tuple):
        try:
            str(value)
        except RecursionError:
            return f"found {shown(value)}, a tuple nested deeper than Python writes as text"
        except ValueError:  # a tuple within holds an integer of too many digits
            return f"found {shown(value)}, which holds an integer of more digits than Python writes as text"
    return None


def _stored_id(value: Any) -> Any:
    """An id in the JSON form that reads back as itself, or None when there is none (None itself is [None])."""
    if value is None:
        return [None]
    if isinstance(value, _STORED_SCALARS):
        return value
    if isinstance(value, tuple) and all(isinstance(item, _STORED_SCALARS) for item in value):
        return {"tuple": list(value)}
    return None


def _read_id(value: Any) -> Any:
    if isinstance(value, list):
        return None
    if isinstance(value, dict):
        return tuple(value["tuple"])
    return value


def entity_texts(columns: Columns, sentence: np.ndarray, start: np.ndarray, end: np.ndarray) -> list[str]:
    """`entity_text` of each entity [start, end) of `sentence` of a batch (the seen slice, errors), by one chain of
    `map` that runs in C: each entity's tokens joined by one space (a one-token entity is its token, the very
    string), joined again by `join_tokens` only where a text of several tokens holds a CJK character (which no
    space may separate). One pass in the order given: a caller that gives the entities in sentence order reads
    each sentence's tokens once, where a pass per kind of entity read them from memory again (most of the time
    here is those reads, not the joining)."""
    at = sentence.tolist()
    bounds = _slices_of(start, end)
    if columns.tokens is None:
        assert columns.texts is not None  # slices.check_slice_inputs, compute.check_error_texts
        return list(map(operator.getitem, map(columns.texts.__getitem__, at), bounds))
    tokens = columns.tokens
    # (An entity past its sentence's tokens, spans refused by compute.check_tokens_cover, reads the tokens it has.)
    joined = list(map(" ".join, map(operator.getitem, map(tokens.__getitem__, at), bounds)))
    # One test for the batch: most texts are ASCII (a flag of the joined string, no scan), and most others hold no
    # CJK at all (one search).
    everything = "".join(joined)
    search = compiled(CJK_CHARACTER).search
    if everything.isascii() or search(everything) is None:
        return joined
    return [
        text if high - low < 2 or search(text) is None else join_tokens(tokens[sentence_at][low:high])
        for text, sentence_at, low, high in zip(joined, at, start.tolist(), end.tolist())
    ]


# Entities of tokens end within a sentence's first positions: their slices are taken from one table of slices,
# made once, where making a slice object an entity took a tenth of the texts' time (20,000 x 20 tags).
_SLICE_WIDTH = 64


@cache
def _slice_table() -> list[slice]:
    return [slice(first, last) for first in range(_SLICE_WIDTH) for last in range(_SLICE_WIDTH)]


def _slices_of(start: np.ndarray, end: np.ndarray) -> Iterator[slice]:
    """slice(start, end) of each entity, from `_slice_table` where every entity ends below `_SLICE_WIDTH`."""
    if len(end) and end.dtype != object and int(end.max()) < _SLICE_WIDTH and int(start.min()) >= 0:
        return map(_slice_table().__getitem__, (start * _SLICE_WIDTH + end).tolist())
    return map(slice, start.tolist(), end.tolist())
