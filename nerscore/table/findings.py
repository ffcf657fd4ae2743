"""The findings of docs/scoring.md §11 beside the scores, reduced from a batch's table of pairs: the boundary
diagnostics (how the PAR pairs' boundaries differ, and, pairing aside, the references overlapped by two or more
predictions, `split`, and the predictions overlapping two or more references, `merged`) and the errors counted by
surface string. Two reducers of `nerscore.table.reducers.REDUCERS`; `placement` (sentences laid one after
another, so that a batch's overlaps are found at once) serves the value pairing there too.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..error_table import ErrorTable
from ..grouping import group_bounds, run_bounds, run_starts
from ..pairing.overlaps import kept_pairs
from ..pairing.rules import Scenario, overlap_edges
from ..span import Span, shared_units
from ..tally import Diagnostics, Row
from .columns import Columns
from .pairs import FlatSpans, Pairs, int_column, piece_units
from .row_texts import RowTexts, row_texts

# Sentences are placed one after another (`placement`) while their positions stay below this; past it (spans at
# offsets near 2**63) a reducer that needs them placed takes the sentences one by one.
_PLACEMENT_LIMIT = 1 << 62


def diagnostics(pairs: Pairs, min_overlap: float | None) -> Diagnostics:
    """The boundary diagnostics (docs/scoring.md §11): of the PAR pairs, those whose prediction contains the
    reference, lies inside it, or neither; and over all entities, pairing aside, `split` and `merged`."""
    partial, r0, r1, p0, p1 = pairs.partial_rows()
    if pairs.fragmented:  # containment of units (docs/scoring.md §12)
        shared, units_r, units_p = unit_overlaps(pairs, partial)
        too_long, too_short = shared == units_r, shared == units_p
        too_short &= ~too_long
    else:
        too_long = (p0 <= r0) & (r1 <= p1)
        too_short = ~too_long & (r0 <= p0) & (p1 <= r1)
    longer, shorter = int(np.count_nonzero(too_long)), int(np.count_nonzero(too_short))
    split, merged = overlapped_twice_in(pairs, min_overlap)
    return Diagnostics(longer, shorter, len(r0) - longer - shorter, split, merged)


def unit_overlaps(pairs: Pairs, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of rows `rows` (indices) of a table with discontinuous entities, the units both entities share and each
    one's units (docs/scoring.md §12)."""
    pieces_r, pieces_p = pairs.pieces(0, rows), pairs.pieces(1, rows)
    # As Python ints where they pass int64 (an entity's units are bounded by its offsets, which are not).
    shared = int_column(list(map(shared_units, pieces_r, pieces_p)))
    return shared, piece_units(pieces_r), piece_units(pieces_p)


def _overlapped_twice_of_units(pairs: Pairs, min_overlap: float | None) -> tuple[int, int]:
    """`overlapped_twice_in` of a table with discontinuous entities: each sentence's overlaps of units
    (docs/scoring.md §12), by the pairing's own sweep over fragments."""
    split = merged = 0
    for references, predictions in sides_by_sentence(pairs.rows()).values():
        # Copies folded, as the pairing folds them: a thousand copies are one entity, never a million edges.
        # (Each entity hashed once: a discontinuous entity's hash reads all its fragments.)
        folded_r, folded_p = Counter(references), Counter(predictions)
        distinct_r, distinct_p = list(folded_r), list(folded_p)
        copies_r, copies_p = list(folded_r.values()), list(folded_p.values())
        degree_r: Counter[int] = Counter()
        degree_p: Counter[int] = Counter()
        for i, j in overlap_edges(distinct_r, distinct_p, min_overlap):
            degree_r[i] += copies_p[j]
            degree_p[j] += copies_r[i]
        split += sum(copies_r[i] for i, degree in degree_r.items() if degree >= 2)
        merged += sum(copies_p[j] for j, degree in degree_p.items() if degree >= 2)
    return split, merged


def overlapped_twice_in(pairs: Pairs, min_overlap: float | None) -> tuple[int, int]:
    """`overlapped_twice` of every sentence of the table (each entity is in one row)."""
    if pairs.fragmented:
        return _overlapped_twice_of_units(pairs, min_overlap)
    placed = placement(pairs)
    if placed is not None:
        references, predictions, _, _ = placed_sides(pairs, placed[1])
        if min_overlap is None:
            # An entity whose row pairs it with an entity of the same extent (scenarios I and IV) overlaps no
            # other where the other side's entities overlap each other nowhere (`_overlapping_two`'s `twins`).
            twins = (pairs.reference_start == pairs.predicted_start) & (pairs.reference_end == pairs.predicted_end)
            twins_r, twins_p = twins[pairs.reference_start >= 0], twins[pairs.predicted_start >= 0]
            start_r, end_r, start_p, end_p = references.start, references.end, predictions.start, predictions.end
            return _overlapping_two(start_r, end_r, start_p, end_p, twins_r), _overlapping_two(
                start_p, end_p, start_r, end_r, twins_p
            )
        return overlapped_twice(references, predictions, min_overlap)
    references, predictions, sentence_r, sentence_p = pairs.sides()
    # Sentences one by one: each side sorted by sentence, a sentence's entities one run of it.
    order_r, order_p = np.argsort(sentence_r, kind="stable"), np.argsort(sentence_p, kind="stable")
    references, predictions = references.select(order_r), predictions.select(order_p)
    sentence_r, sentence_p = sentence_r[order_r], sentence_p[order_p]
    split = merged = 0
    for sentence in np.union1d(sentence_r, sentence_p).tolist():
        run_r = slice(*np.searchsorted(sentence_r, [sentence, sentence + 1]).tolist())
        run_p = slice(*np.searchsorted(sentence_p, [sentence, sentence + 1]).tolist())
        counted = overlapped_twice(references.select(run_r), predictions.select(run_p), min_overlap)
        split, merged = split + counted[0], merged + counted[1]
    return split, merged


def placed_sides(pairs: Pairs, move: np.ndarray) -> tuple[FlatSpans, FlatSpans, np.ndarray, np.ndarray]:
    """`Pairs.sides` where `placement` puts them, each entity moved by its sentence's `move`: moved in place, each
    column here being a new selection (copies moved beside them were memory the system mapped afresh on every
    call of 20,000 x 20 tags, benchmarks/redesign.py)."""
    references, predictions, sentence_r, sentence_p = pairs.sides()
    for side, sentence in ((references, sentence_r), (predictions, sentence_p)):
        by = move[sentence]
        np.add(side.start, by, out=side.start)
        np.add(side.end, by, out=side.end)
    return references, predictions, sentence_r, sentence_p


def placement(pairs: Pairs) -> tuple[np.ndarray, np.ndarray] | None:
    """Where each sentence's positions start and how far to move them so that sentences lie one after another,
    none overlapping another (each moved by one stride past the batch's last end, or where that would not stay
    below `_PLACEMENT_LIMIT`, to right after the end of the one before); None where the positions would not stay
    below `_PLACEMENT_LIMIT`. Overlaps and lengths depend on differences of positions within a sentence alone, so
    a translation changes nothing a reducer reads."""
    sentences = pairs.sentences
    # An entity may start within int64 and end past it (docs/scoring.md §1 takes any offset): every column is read.
    positions = (pairs.reference_start, pairs.reference_end, pairs.predicted_start, pairs.predicted_end)
    if any(column.dtype == object for column in positions):
        return None
    # Most batches (tags, spans of sentences): each sentence moved by one stride, past the batch's last end (a
    # sentence without entities then takes room too: no reducer minds). Two reductions, where the runs below
    # took a millisecond of 20,000 x 20 tags.
    stride = max(int(pairs.reference_end.max(initial=0)), int(pairs.predicted_end.max(initial=0))) + 1
    if stride < _PLACEMENT_LIMIT // max(sentences, 1):
        shift = np.arange(sentences, dtype=np.int64) * stride
        return shift, shift
    # Each row's lowest start and highest end (-1, no entity, left out), then each sentence's, by one reduction
    # over each run of its rows (ufunc.at, one scattered update an entity, took three times as long).
    largest = np.iinfo(np.int64).max
    row_low = np.minimum(
        np.where(pairs.reference_start >= 0, pairs.reference_start, largest),
        np.where(pairs.predicted_start >= 0, pairs.predicted_start, largest),
    )
    row_high = np.maximum(np.maximum(pairs.reference_end, pairs.predicted_end), 0)
    sentence = pairs.sentence
    if len(sentence) and bool((sentence[1:] < sentence[:-1]).any()):  # (the paths write rows in sentence order)
        order = np.argsort(sentence, kind="stable")
        sentence, row_low, row_high = sentence[order], row_low[order], row_high[order]
    first = run_starts(sentence)
    low = np.full(sentences, largest, dtype=np.int64)
    high = np.zeros(sentences, dtype=np.int64)
    if len(first):
        low[sentence[first]] = np.minimum.reduceat(row_low, first)
        high[sentence[first]] = np.maximum.reduceat(row_high, first)
    low = np.minimum(low, high)  # a sentence without entities takes no room
    extent = high - low  # 0 <= low <= high < 2**63: never wraps
    # Checked before adding up: `sentences` extents each below _PLACEMENT_LIMIT // sentences sum below the limit,
    # so the sum can neither wrap nor reach it.
    if extent.max(initial=0) >= _PLACEMENT_LIMIT // max(sentences, 1):
        return None
    shift = group_bounds(extent)
    return shift[:-1], shift[:-1] - low


def overlapped_twice(references: FlatSpans, predictions: FlatSpans, min_overlap: float | None) -> tuple[int, int]:
    """Pairing aside (docs/scoring.md §11): the references that two or more predictions overlap (`split`) and
    the predictions that overlap two or more references (`merged`), overlap as §3 with `min_overlap`, of
    entities in which those of different sentences never overlap, on sides nested or not."""
    start_r, end_r, start_p, end_p = references.start, references.end, predictions.start, predictions.end
    if min_overlap is None:
        return _overlapping_two(start_r, end_r, start_p, end_p), _overlapping_two(start_p, end_p, start_r, end_r)
    # With min_overlap each overlap is tested: the edges between distinct extents (copies folded: a thousand
    # copies are one extent, never a million edges), each found once.
    (r0, r1, copies_r), (p0, p1, copies_p) = _extents(start_r, end_r), _extents(start_p, end_p)
    i, j = kept_pairs(r0, r1, p0, p1, min_overlap)
    degree_r = np.zeros(len(r0), np.int64)
    np.add.at(degree_r, i, copies_p[j])
    degree_p = np.zeros(len(p0), np.int64)
    np.add.at(degree_p, j, copies_r[i])
    return int(copies_r[degree_r >= 2].sum()), int(copies_p[degree_p >= 2].sum())


def _overlapping_two(
    start: np.ndarray,
    end: np.ndarray,
    other_start: np.ndarray,
    other_end: np.ndarray,
    twins: np.ndarray | None = None,
) -> int:
    """How many of the entities [start, end) overlap two or more of the others, whatever the nesting: of the
    others that start before an entity ends, those that end by its start are the ones that miss it, so it
    overlaps two or more where the others starting before its end outnumber the missed ones by two, that is
    where the other that is the (missed + 2)-th in start order starts before its end: one binary search and
    one look-up per entity (a second binary search took a millisecond of 20,000 x 20 tags). `twins`: whether
    each entity has an other of its very extent, which, where no two others overlap, is the only other it
    overlaps: those are not searched (most entities of tags, whose sides never overlap themselves)."""
    # (A stable sort: the table's rows come in runs already sorted, which it takes in linear time.)
    sorted_start, sorted_end = np.sort(other_start, kind="stable"), np.sort(other_end, kind="stable")
    if twins is not None and _apart(other_start, other_end, sorted_start, sorted_end):
        searched = ~twins
        start, end = start[searched], end[searched]
    second = np.searchsorted(sorted_end, start, "right") + 1
    within = second < len(sorted_start)
    return int(np.count_nonzero(sorted_start[second[within]] < end[within]))


def _apart(start: np.ndarray, end: np.ndarray, sorted_start: np.ndarray, sorted_end: np.ndarray) -> bool:
    """Whether no two of the entities [start, end) overlap (`sorted_start` and `sorted_end`, their starts and
    ends sorted): none is empty, and the (k + 1)-th start is at or after the k-th end for every k (two that
    overlapped, neither empty, would leave fewer than k ends at or before the later start, k + 1 starts there)."""
    return bool((sorted_start[1:] >= sorted_end[:-1]).all()) and bool((end > start).all())


def _extents(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct (start, end) of entities in (start, end) order, and the copies of each."""
    order = np.lexsort((end, start))
    start, end = start[order], end[order]
    bounds = run_bounds(start, end)
    return start[bounds[:-1]], end[bounds[:-1]], np.diff(bounds)


def errors(pairs: Pairs, columns: Columns, texts: RowTexts | None = None) -> ErrorTable:
    """The count of each error (every row but scenario I) by (scenario, reference text, reference type,
    predicted text, predicted type), texts from `columns` (docs/scoring.md §11), or from `texts`, each row's
    (`row_texts.row_texts`), where already found: as the integer codes of an `ErrorTable`. Each text is read
    once however many rows name it (a prediction with its reference's boundaries shares its place in
    `RowTexts.found`), and each distinct string given one code (`ErrorTable.counted`)."""
    wrong = np.flatnonzero(pairs.scenario != Scenario.I)
    size = len(wrong)
    at: np.ndarray | slice = wrong  # the wrong rows in `texts`
    if texts is None and (columns.tokens is not None or columns.texts is not None):
        # The wrong rows' texts as the seen slice finds them (fragments' texts joined, §12): one pass in row
        # order, a prediction with its reference's boundaries taking its text.
        texts, at = row_texts(pairs.select(wrong), columns), slice(None)
    found: list[str | None] = []
    text_codes = np.full(2 * size, -1, dtype=np.int64)
    if texts is not None:
        # Each row's places in `found` are its texts' codes; `ErrorTable.counted` gives each string one.
        text_codes = np.concatenate((texts.reference[at], texts.predicted[at]))
        texts.make(text_codes)
        found = texts.found
    codes = np.stack(
        (
            pairs.scenario[wrong],
            text_codes[:size],
            pairs.reference_type[wrong],
            text_codes[size:],
            pairs.predicted_type[wrong],
        ),
        axis=1,
    ).astype(np.int64, copy=False)
    return ErrorTable.counted(codes, found, pairs.type_names)


def sides_by_sentence(rows: list[Row]) -> dict[int, tuple[list[Span], list[Span]]]:
    """Each sentence's references and predictions, in the order of its rows (the value pairing's input, §10)."""
    sentence_sides: dict[int, tuple[list[Span], list[Span]]] = {}
    for sentence, reference, prediction in rows:
        sides = sentence_sides.setdefault(sentence, ([], []))
        if reference is not None:
            sides[0].append(reference)
        if prediction is not None:
            sides[1].append(prediction)
    return sentence_sides
