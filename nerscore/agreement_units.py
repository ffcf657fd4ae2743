"""The units of agreement and their labels (docs/scoring.md §13): every unit's label per annotator, which the
chance-corrected coefficients count, from the annotators' batches as `nerscore.agreement_inputs` read them.

Units are tokens for tags and ids, span units for spans, characters for strings; a unit's label is the type of the
entity that covers it, "O" where none does, or the distinct types of one annotator's entities that cover it,
joined by "|". Tags are coded once for every annotator (`coded_tags`, the one pass that touches every token), and
the pairs read them coded (`id_batches`); spans are read at C speed where they are plain tuples or dicts.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain, combinations, count, repeat
from typing import Any, NamedTuple

import numpy as np

from .agreement_inputs import Annotator
from .decoding import ROLE_FLAGS, decode_roles
from .errors import InvalidInputError, shown
from .forms.grounding import Haystack, ground_references
from .forms.inputs import IDS, SPANS, read_spans, read_strings, rows_of
from .forms.span_arrays import span_values
from .grouping import group_bounds, lengths, owners, place_in_groups, ranges, run_starts
from .options import Options
from .schemes import TagTable
from .span import Span
from .statistics.agreement_coefficients import MISSING

OUTSIDE = "O"  # the label of a unit no entity covers
STACKED = "|"  # joins the distinct types of one annotator's entities that cover one unit
# The token of a sentence an annotator did not annotate, where its tags are coded over every sentence.
_UNANNOTATED = object()
# Agreement counts units (span offsets, characters of texts) in int64 (§13): offsets and their sums stay below this
# (2**62, the messages' bound), and so do the keys a boundary is sorted by.
_MOST_UNITS = 1 << 62


# -- the units and their labels -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitLabels:
    """Every unit's label per annotator (docs/scoring.md §13): `codes` (units x annotators) index `names`
    (`names[0]` is "O"), `MISSING` where the annotator did not annotate the unit's sentence; `sentence` is each
    unit's sentence (non-decreasing); `weight`, where given, how many units each row stands for (spans: a stretch
    of units that every entity covers alike)."""

    codes: np.ndarray
    names: list[str]
    sentence: np.ndarray
    weight: np.ndarray | None = None

    def weighted(self, inverse: np.ndarray, rows: int) -> np.ndarray:
        """How many units each of `rows` groups holds, the row of each unit's group `inverse` (`unit_patterns`)."""
        if self.weight is None:
            return np.bincount(inverse, minlength=rows).astype(np.int64)
        counts = np.zeros(rows, dtype=np.int64)
        np.add.at(counts, inverse, self.weight)
        return counts


class _EntityColumns(NamedTuple):
    """One annotator's entities as columns: each one's sentence, start, end (in its sentence) and type."""

    sentence: np.ndarray
    start: np.ndarray
    end: np.ndarray
    type_id: np.ndarray
    type_names: list[str]


# Spans' units are labelled one by one while they are at most this many times the entities' boundaries.
_DENSE_UNITS = 4


def span_labels(
    annotators: Sequence[Annotator], form: str, options: Options, given: Mapping[str, list[Any]]
) -> UnitLabels:
    """Spans and strings: the units of docs/scoring.md §13 and each annotator's label of each: span units (a
    sentence's units run from 0 to the largest end among all annotators' entities in it, or to the length of
    its text or tokens when given), characters for strings (grounded as references are, §1b)."""
    read = [_entity_columns(annotator, form, options, given) for annotator in annotators]
    length = _span_units(len(annotators[0].present), read, given)
    total = sum(length.tolist())
    if total >= _MOST_UNITS:  # the units counted in int64
        raise _far_total(annotators, read, length, options)
    # Unit by unit where the units are few beside the entities' boundaries (tokens, short texts: the quicker way);
    # else the units between two consecutive boundaries of a sentence (0, its end, an entity's start or end), which
    # carry the same labels, are one row standing for them all (`weight`), so that time and memory follow the
    # entities, never their offsets.
    sentences = [np.arange(len(length)), np.arange(len(length))] + [e.sentence for e in read for _ in (0, 1)]
    positions = [np.zeros(len(length), np.int64), length] + [p for e in read for p in (e.start, e.end)]
    sentence_of, position_of = np.concatenate(sentences), np.concatenate(positions)
    if total <= _DENSE_UNITS * len(position_of):
        offsets = group_bounds(length)
        keys, width = offsets[sentence_of] + position_of, 0
        index, sentence, weight = keys, owners(length), None
        units, real = total + 1, np.r_[np.ones(total, dtype=bool), False]
    else:
        width = int(length.max(initial=0)) + 1
        if len(length) * width < _MOST_UNITS:  # each boundary one integer: a sort of int64
            keys, index = np.unique(sentence_of * width + position_of, return_inverse=True)
            boundary_sentence, boundary_position = np.divmod(keys, width)
        else:
            boundary, index = np.unique(np.column_stack((sentence_of, position_of)), axis=0, return_inverse=True)
            boundary_sentence, boundary_position = boundary[:, 0], boundary[:, 1]
        index = index.reshape(-1)
        real = np.r_[boundary_sentence[1:] == boundary_sentence[:-1], False]  # up to its sentence's next boundary
        units, sentence, weight = len(real), boundary_sentence[real], np.diff(boundary_position)[real[:-1]]
    names: dict[str, int] = {OUTSIDE: 0}
    codes = np.empty((len(sentence), len(annotators)), dtype=np.int64)
    cursor = 2 * len(length)
    for column, (entities, annotator) in enumerate(zip(read, annotators)):
        count = len(entities.start)
        start, end = index[cursor : cursor + count], index[cursor + count : cursor + 2 * count]
        cursor += 2 * count
        local, local_names = _covering_labels(start, end, entities.type_id, entities.type_names, units)
        to_global = np.array([names.setdefault(name, len(names)) for name in local_names], dtype=np.int64)
        codes[:, column] = np.where(annotator.present[sentence], to_global[local[real]], MISSING)
    return UnitLabels(codes, list(names), sentence, weight)


def _covering_labels(
    start: np.ndarray, end: np.ndarray, type_id: np.ndarray, type_names: Sequence[str], units: int
) -> tuple[np.ndarray, list[str]]:
    """Each unit's label among `units` units from entities [start, end) (flat positions) of types `type_id`
    (indexing `type_names`): "O", a type, or the distinct types of the entities covering it, sorted and joined
    by "|"; as codes into the list of labels returned."""
    used = np.unique(type_id)
    if not len(used):
        return np.zeros(units, dtype=np.int64), [OUTSIDE]
    # The types met, sorted: a label's types are joined in this order.
    kinds = sorted(type_names[number] for number in used.tolist())
    rank = np.zeros(len(type_names), dtype=np.int64)
    position = {name: index for index, name in enumerate(kinds)}
    rank[used] = [position[type_names[number]] for number in used.tolist()]
    kind = rank[type_id]
    order = np.argsort(start, kind="stable")
    if (start[order][1:] >= end[order][:-1]).all():  # no two entities share a unit: one type or "O" a unit
        return _disjoint_codes(start, end, kind + 1, units), [OUTSIDE, *kinds]
    # Overlapping entities: the units between two consecutive boundaries (an entity's start or end) share their
    # covering entities, so the labels are found per such segment (at most twice the entities, plus one). Each
    # type's entities are first merged into the runs of segments they cover, so that a segment is listed once for
    # each type that covers it, however many entities of that type nest there: time follows the entities and the
    # labels' types, never how deeply the entities nest (an onion of n entities of one type listed n**2
    # (segment, entity) pairs) nor the types times the units.
    bounds = np.unique(np.concatenate(([0, units], start, end)))
    first, last = np.searchsorted(bounds, start), np.searchsorted(bounds, end)
    step = len(bounds)  # past every segment: each type's segments numbered apart from the next type's
    order = np.lexsort((first, kind))
    low, high = kind[order] * step + first[order], kind[order] * step + last[order]
    run = np.flatnonzero(np.r_[True, low[1:] > np.maximum.accumulate(high)[:-1]])
    run_low = low[run]
    _, covered = ranges(run_low, np.maximum.reduceat(high, run) - run_low)
    held_kind, held_segment = np.divmod(covered, step)
    held = np.sort(held_segment * len(kinds) + held_kind)  # (segment, type) once each, sorted
    held_segment, held_kind = np.divmod(held, len(kinds))
    starts = run_starts(held_segment)
    names = {OUTSIDE: 0}
    code = np.zeros(len(bounds) - 1, dtype=np.int64)
    for where, group in zip(held_segment[starts].tolist(), np.split(held_kind, starts[1:])):
        label = STACKED.join(kinds[number] for number in group.tolist())
        code[where] = names.setdefault(label, len(names))
    return np.repeat(code, np.diff(bounds)), list(names)


def _disjoint_codes(start: np.ndarray, end: np.ndarray, label: np.ndarray, units: int) -> np.ndarray:
    """Each of `units` units' label among entities [start, end) (flat positions) that share no unit, 0 outside
    them: each entity's `label` added at its start and taken off at its end, summed along."""
    label = label.astype(np.float64)
    edges = np.bincount(start, label, minlength=units + 1) - np.bincount(end, label, minlength=units + 1)
    return np.rint(np.cumsum(edges[:units])).astype(np.int64)


@dataclass(frozen=True)
class CodedTags:
    """Tags or ids of every annotator coded once (the one pass that touches every token): each token's index
    into `values` (the distinct values met; `_UNANNOTATED` fills a sentence an annotator left out), over every
    sentence; each value's role flags and type (`type_names` index, -1 for none); and the tokens kept (ids:
    those no annotator gives `ignore_index`)."""

    values: list[Any]
    codes: list[np.ndarray]
    length: np.ndarray
    kept: np.ndarray
    role: np.ndarray
    kind: np.ndarray
    type_names: list[str]


def coded_tags(annotators: Sequence[Annotator], form: str, options: Options) -> CodedTags:
    """Every annotator's tags (or ids, through `label_list`) coded and checked: a bad one is an
    `InvalidInputError` naming the annotator, sentence and token."""
    sentences = len(annotators[0].present)
    length = np.zeros(sentences, dtype=np.int64)
    for annotator in annotators:
        length = np.where(annotator.present, lengths(annotator.rows), length)
    sizes = length.tolist()

    def tokens(annotator: Annotator) -> Iterator[Any]:
        rows = rows_of(annotator.rows)
        if annotator.present.all():
            return chain.from_iterable(rows)
        filled = zip(rows, annotator.present.tolist(), sizes)
        return chain.from_iterable(row if present else repeat(_UNANNOTATED, size) for row, present, size in filled)

    # One pass per annotator: each token's code, numbering values as they are met (tag_arrays' way: one byte a
    # token while there are at most 256 distinct values).
    numbering: defaultdict[Any, int] = defaultdict(count().__next__)
    codes = []
    for annotator in annotators:
        try:
            try:
                code = np.frombuffer(bytearray(map(numbering.__getitem__, tokens(annotator))), dtype=np.uint8)
            except ValueError:  # more than 256 values
                code = np.fromiter(map(numbering.__getitem__, tokens(annotator)), dtype=np.int64)
        except TypeError:  # an unhashable value
            flat = list(tokens(annotator))
            for value in flat:
                try:
                    hash(value)
                except TypeError:
                    raise _located(annotator, flat, length, value, f"found {shown(value)}; expected a tag") from None
        codes.append(code.astype(np.int64))
    values = list(numbering)

    def owner_of(value: Any) -> tuple[Annotator, list[Any]]:
        number = numbering[value]
        column = next(column for column, code in enumerate(codes) if (code == number).any())
        return annotators[column], list(tokens(annotators[column]))

    table = TagTable(options.scheme, options.suffix)
    roles: list[int] = []
    kinds: list[str | None] = []
    skipped: list[bool] = []
    for value in values:
        # A sentence the annotator left out reads as O (its units are marked missing); ids at ignore_index are
        # dropped (docs/scoring.md §1).
        skip = form == IDS and value is not _UNANNOTATED and value == options.ignore_index
        if value is _UNANNOTATED or skip:
            roles.append(0)
            kinds.append(None)
            skipped.append(skip)
            continue
        tag = value
        if form == IDS:
            labels = options.label_list
            if labels is None or value not in labels:
                problem = f"found id {shown(value)}; expected an id of label_list"
                raise _located(*owner_of(value), length, value, problem)
            tag = labels[value]
        try:
            parsed = table[tag]
        except InvalidInputError as error:
            raise _located(*owner_of(value), length, value, error.problem) from None
        roles.append(ROLE_FLAGS[None if parsed is None else parsed.role])
        kinds.append(None if parsed is None else parsed.entity_type)
        skipped.append(False)
    type_names = sorted({name for name in kinds if name is not None})
    position = {name: number for number, name in enumerate(type_names)}
    kind = np.array([-1 if name is None else position[name] for name in kinds], dtype=np.int64)
    kept = np.ones(int(length.sum()), dtype=bool)
    if any(skipped):
        skip_value = np.array(skipped, dtype=bool)
        labelled = np.array([value is not _UNANNOTATED and not skip for value, skip in zip(values, skipped)])
        both_ways = options.min_overlap is not None or options.value is not None
        _check_ignored_alike(annotators, codes, skip_value, labelled, length, both_ways, options.ignore_index)
        for column in codes:
            kept &= ~skip_value[column]
    return CodedTags(values, codes, length, kept, np.array(roles, dtype=np.int8), kind, type_names)


def tag_labels(coded: CodedTags, annotators: Sequence[Annotator], options: Options) -> UnitLabels:
    """Tags and ids: every kept token's label per annotator, the type of the entity decoded over it
    (docs/scoring.md §2; entities of one annotator's tags never overlap, so a label is one type or "O")."""
    sentences = len(coded.length)
    sentence = owners(coded.length)[coded.kept]
    length = np.bincount(sentence, minlength=sentences).astype(np.int64)
    offsets = group_bounds(length)
    units = len(sentence)
    wanted = np.ones(len(coded.type_names), dtype=bool)
    if options.labels is not None:
        wanted = np.array([name in options.labels for name in coded.type_names], dtype=bool)
    labels = np.empty((units, len(annotators)), dtype=np.int64)
    for column, (codes, annotator) in enumerate(zip(coded.codes, annotators)):
        kept = codes[coded.kept]
        start, end, type_id = decode_roles(coded.role[kept], coded.kind[kept], offsets, options.mode, options.scheme)
        chosen = wanted[type_id]
        code = _disjoint_codes(start[chosen], end[chosen], type_id[chosen] + 1, units)
        labels[:, column] = np.where(annotator.present[sentence], code, MISSING)
    return UnitLabels(labels, [OUTSIDE, *coded.type_names], sentence)


def id_batches(coded: CodedTags, annotators: Sequence[Annotator], options: Options) -> tuple[list[Any], Options]:
    """Tags coded once, as the pairs read them: padded 2-D arrays of ids with their `label_list` (the array path
    of ids reads them without a Python step per tag; tests/test_tag_arrays.py proves it the tags' count), the
    padding `ignore_index`, which the count drops. Where padding would take more than twice the tokens (a few
    long sentences), the tags as given."""
    sentences, longest = len(coded.length), int(coded.length.max(initial=0))
    if sentences * longest > 2 * int(coded.length.sum()) + 1024:
        return [annotator.rows for annotator in annotators], options
    shift = options.ignore_index + 1 if options.ignore_index >= 0 else 0
    label_list = {number + shift: value for number, value in enumerate(coded.values) if value is not _UNANNOTATED}
    filled = np.arange(longest)[None, :] < coded.length[:, None]
    batches = []
    for codes in coded.codes:
        padded = np.full((sentences, longest), options.ignore_index, dtype=np.int64)
        padded[filled] = codes + shift
        batches.append(padded)
    return batches, options.evolve(label_list=label_list)


def _located(
    annotator: Annotator, values: list[Any], length: np.ndarray, value: Any, problem: str
) -> InvalidInputError:
    """A bad tag or id, located at its first place in the annotator's tokens (`values`)."""
    return InvalidInputError(problem, annotator.side, *place_in_groups(length, values.index(value)))


def _check_ignored_alike(
    annotators: Sequence[Annotator],
    codes: list[np.ndarray],
    ignored: np.ndarray,
    labelled: np.ndarray,
    length: np.ndarray,
    both_ways: bool,
    ignore_index: int,
) -> None:
    """Ids: a token the second annotator of a pair gives `ignore_index` where the first gives a label id is an
    `InvalidInputError` at the second, in the agreement's terms (docs/scoring.md §13: b is scored against a,
    whose label would have nothing to meet; `compute_semeval`'s message speaks of predictions and the
    reference). Both orders of each pair with `both_ways` (`min_overlap` or `value`: the pooled F scores the
    other direction for itself). A token the first gives `ignore_index` is dropped, as §1 drops it."""
    pairs = list(combinations(range(len(annotators)), 2))
    if both_ways:
        pairs += [(second, first) for first, second in pairs]
    for first, second in pairs:
        wrong = np.flatnonzero(ignored[codes[second]] & labelled[codes[first]])
        if len(wrong):
            problem = (
                f"found ignore_index {ignore_index} where {annotators[first].side} gives a label id; ignore_index "
                "marks a token no annotator labels (padding, a special token): give it at the same tokens in every "
                "annotator's ids"
            )
            raise InvalidInputError(problem, annotators[second].side, *place_in_groups(length, int(wrong[0])))


def _entity_columns(
    annotator: Annotator, form: str, options: Options, given: Mapping[str, list[Any]]
) -> _EntityColumns:
    """Spans and strings: an annotator's entities as columns (strings grounded as references are, §1b), those of
    other types than `labels` left out; plain tuples and dicts read at C speed (`span_arrays`), anything else (and
    any error, located) by `read_spans`."""
    rows = rows_of(annotator.rows)
    labels = None if options.labels is None else set(options.labels)
    values = span_values(rows) if form == SPANS else None
    if values is not None:
        sentence = owners(values.counts)
        columns = _EntityColumns(sentence, values.start, values.end, values.type_id, values.type_names)
    else:
        if form == SPANS:
            spans = read_spans(rows, annotator.side)
        else:
            spans = _grounded_strings(annotator, rows, options, given)
        flat = list(chain.from_iterable(spans))
        if flat and max(span.end for span in flat) >= _MOST_UNITS:  # agreement counts units in int64 (§13)
            _refuse_far(spans, annotator.side)
        type_names = list(dict.fromkeys(span.entity_type for span in flat))
        number = {name: index for index, name in enumerate(type_names)}
        counts = [len(found) for found in spans]
        if any(span.fragments for span in flat):  # a discontinuous entity covers its fragments' units (§12): a row each
            counts = [sum(len(span.pieces()) for span in found) for found in spans]
            flat = [Span(start, end, span.entity_type) for span in flat for start, end in span.pieces()]
        columns = _EntityColumns(
            owners(counts),
            np.fromiter((span.start for span in flat), dtype=np.int64, count=len(flat)),
            np.fromiter((span.end for span in flat), dtype=np.int64, count=len(flat)),
            np.fromiter((number[span.entity_type] for span in flat), dtype=np.int64, count=len(flat)),
            type_names,
        )
    kept = annotator.present[columns.sentence]
    if labels is not None:
        kept &= np.isin(columns.type_id, [index for index, name in enumerate(columns.type_names) if name in labels])
    _refuse_label_names(columns, kept, annotator, rows, form)
    if kept.all():
        return columns
    return columns._replace(
        sentence=columns.sentence[kept], start=columns.start[kept], end=columns.end[kept], type_id=columns.type_id[kept]
    )


def _refuse_label_names(
    columns: _EntityColumns, kept: np.ndarray, annotator: Annotator, rows: list[list[Any]], form: str
) -> None:
    """A located `InvalidInputError` at the first entity kept whose type is a unit's label of another meaning
    (docs/scoring.md §13): "O", a unit no entity covers, or one holding "|", which joins the types of an
    annotator's entities that cover one unit (a type 'A|B' agreed with an 'A' and a 'B' stacked, and a type 'O' with
    no entity, silently)."""
    bad = [index for index, name in enumerate(columns.type_names) if name == OUTSIDE or STACKED in name]
    if not bad:
        return
    found = np.flatnonzero(np.isin(columns.type_id, bad) & kept)
    if not len(found):
        return
    sentence, name = int(columns.sentence[found[0]]), columns.type_names[int(columns.type_id[found[0]])]
    if form == SPANS:
        types = [span.entity_type for span in read_spans([rows[sentence]], annotator.side)[0]]
    else:
        types = [entity_type for entity_type, _ in read_strings([rows[sentence]], annotator.side)[0]]
    meaning = "the label of no entity" if name == OUTSIDE else f"the label of stacked types (joined by {STACKED})"
    problem = f"found entity type {shown(name)}, which agreement's units read as {meaning}; expected another type"
    raise InvalidInputError(problem, annotator.side, sentence, entity=types.index(name))


_PAST = "ends past 2**62; expected offsets of units that agreement counts in 64-bit integers"


def _refuse_far(spans: list[list[Span]], side: str) -> None:
    """The first entity that ends past 2**62 as a located `InvalidInputError`: agreement counts units in int64."""
    for sentence, found in enumerate(spans):
        for index, span in enumerate(found):
            if span.end >= _MOST_UNITS:
                raise InvalidInputError(f"the entity {shown(span.as_dict())} {_PAST}", side, sentence, entity=index)


def _far_total(
    annotators: Sequence[Annotator], read: list[_EntityColumns], length: np.ndarray, options: Options
) -> InvalidInputError:
    """Where the units pass 2**62 (agreement counts them in int64, §13): an entity that ends past it, else the
    sentence at which their sum does, each with the annotator and the entity that end it. Texts and tokens are
    far shorter, so an entity's end made the sentence this long."""
    if int(length.max()) >= _MOST_UNITS:
        sentence = int(np.argmax(length >= _MOST_UNITS))
        problem = _PAST
    else:
        sentence = next(index for index, total in enumerate(accumulate(length.tolist())) if total >= _MOST_UNITS)
        problem = (
            f"makes the sentences' units add up to {sum(length[: sentence + 1].tolist())} by this sentence; expected "
            "at most 2**62 units (span offsets, characters of texts), which agreement counts in 64-bit integers"
        )
    end = int(length[sentence])
    column = next(index for index, entities in enumerate(read) if end in entities.end[entities.sentence == sentence])
    annotator = annotators[column]
    spans = read_spans([rows_of(annotator.rows)[sentence]], annotator.side)[0]
    kept = set(options.labels or (span.entity_type for span in spans))
    entity = next(index for index, span in enumerate(spans) if span.end == end and span.entity_type in kept)
    return InvalidInputError(
        f"the entity {shown(spans[entity].as_dict())} {problem}", annotator.side, sentence, entity=entity
    )


def _grounded_strings(
    annotator: Annotator, rows: list[list[Any]], options: Options, given: Mapping[str, list[Any]]
) -> list[list[Span]]:
    """String entities placed in their texts as references are (§1b: in order of position, in the order
    listed); one that does not occur is an `InvalidInputError` naming the annotator, sentence and entity."""
    texts = given.get("texts")
    if texts is None:
        raise ValueError("string entities need texts=: one string per sentence")
    found: list[list[Span]] = []
    for sentence, (entities, text, present) in enumerate(
        zip(read_strings(rows, annotator.side), texts, annotator.present)
    ):
        if not present or not entities:
            found.append([])
            continue
        haystack = Haystack.of(text, options.normalize)
        found.append(ground_references(entities, haystack, options.normalize, sentence, annotator.side))
    return found


def _span_units(sentences: int, read: list[_EntityColumns], given: Mapping[str, list[Any]]) -> np.ndarray:
    """Each sentence's number of units: its text's characters or its tokens when given, else the largest end of
    an entity in it (an entity beyond the text widens it rather than being cut)."""
    length = np.zeros(sentences, dtype=np.int64)
    for name in ("texts", "tokens"):
        if given.get(name) is not None:
            length = lengths(given[name])  # (one per sentence: checked by Columns.read)
            break
    for entities in read:
        np.maximum.at(length, entities.sentence, entities.end)
    return length
