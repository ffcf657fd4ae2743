"""The pairing of a dense sentence (docs/scoring.md §3) without listing its pairs (issue 31, item 7).

In a sentence where most references overlap most predictions (an onion of nested entities, a staircase of two types,
any clique of the overlap graph), the pairs listed cost 45-56 bytes each (two indices, the digits of their weight,
the components' masks and labels, scipy's copies). Here a cell's weight (`rules.best_flow`'s digits) is worked out
from the entities where it is needed, a block of rows at a time (`dense_matrix.Cells`). The best matching is found
among a few candidate cells a row (`_from_candidates`): its neighbours in sorted order (`_neighbours`), then the
heaviest and the nearest in length of each type (`_first_candidates`), by `large_components.proven_matching` (scipy's
matching and an optimal dual checked in integers); every cell of the sentence is then checked against that dual, and
the cells it does not cover are added and solved again, until it covers them all: then the dual is optimal for the
whole sentence and the matching best (complementary slackness holds on the candidates), in memory of the order of the
entities. Where that does not settle in a few rounds, the whole matrix of weights is solved and proven likewise
(`dense_matrix`). Rule (d) is worked out on the cells the dual leaves tight (`large_components.tight_smallest_best`).
The whole sentence is one problem: its components' digits add up, and rule (d)'s smallest list of the whole is each
component's smallest, as every best pairing of a component has as many pairs. The value score's pairing
(docs/scoring.md §10) is solved here too, given its `dense_matrix.Worth`: a digit above the pair's, in place of
identical boundaries'.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InvalidInputError
from .dense_matrix import (
    BLOCK_CELLS,
    TIGHT_PAIR_BYTES,
    Cells,
    Solved,
    Worth,
    bounded_shortfalls,
    from_matrix,
)
from .large_components import EXACT, proven_matching, span_columns
from .overlaps import any_fragmented, check_pairs_fit, overlap_count
from .recent import Key, key_of, recall, remember
from .staircase import overlap_total
from .tight_matchings import tight_smallest_best

if TYPE_CHECKING:
    from ..span import Span

# A sentence is paired here where at least 1 / _DENSE_SHARE of its cells are pairs (each round's pass over the
# cells then costs little more than the pairs; the matrix, where needed, 8 * _DENSE_SHARE bytes a pair at most,
# against 45 or more listed), and it has at least _LEAST_CELLS cells.
_DENSE_SHARE = 4
_LEAST_CELLS = 1 << 16


def large_enough(references: int, predictions: int) -> bool:
    """Whether a sentence of so many entities a side may be worth pairing here (`worth_matrix`)."""
    return references * predictions >= _LEAST_CELLS


def worth_matrix(pairs: int, references: int, predictions: int) -> bool:
    """Whether a sentence of `pairs` overlapping pairs is better paired on its matrix than from its pairs listed."""
    return large_enough(references, predictions) and pairs * _DENSE_SHARE >= references * predictions


def dense_columns(references: Sequence[Span], predictions: Sequence[Span], copies: bool = False) -> tuple | None:
    """A sentence's entities (each side in (start, end, type) order) as `dense_pairs` takes them
    (`large_components.span_columns`), where it pairs them: many and dense enough (`worth_matrix`), no
    discontinuous entity, one copy of each (`copies`: some entity has more; two equal neighbours on a side are
    looked for here); None for any other sentence. §3's pairing and the value's ask alike (`rules`, `value`)."""
    if copies or not references or not predictions or not large_enough(len(references), len(predictions)):
        return None
    if any_fragmented(references, predictions):
        return None
    if any(a == b for side in (references, predictions) for a, b in pairwise(side)):
        return None
    if not worth_matrix(overlap_count(references, predictions), len(references), len(predictions)):
        return None
    return span_columns(references, predictions)


def dense_sentences(
    references: tuple[np.ndarray, ...],
    predictions: tuple[np.ndarray, ...],
    large: np.ndarray,
    min_overlap: float | None,
    worth: Worth | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`dense_pairs` of each sentence flagged `large` whose entities are one copy each and that is `worth_matrix`:
    each side (start, end, type id, sentence, copies) arrays of distinct entities in (start, end, type) order, as
    `forms.component_arrays` holds them. Returns which sentences were paired so, and their pairs (reference
    indices, prediction indices into the arrays given). A sentence whose matrix would not fit in memory is
    refused, located (an `InvalidInputError`). With `worth`, the value's pairing (`dense_pairs`)."""
    solved = np.zeros(len(large), bool)
    chosen_r: list[np.ndarray] = []
    chosen_p: list[np.ndarray] = []
    candidates = large.copy()
    for side in (references, predictions):
        candidates[side[3][side[4] != 1]] = False
    if candidates.any():
        order_r, order_p = np.argsort(references[3], kind="stable"), np.argsort(predictions[3], kind="stable")
        every = np.arange(len(large) + 1)
        bounds_r = np.searchsorted(references[3][order_r], every).tolist()
        bounds_p = np.searchsorted(predictions[3][order_p], every).tolist()
    for sentence in np.flatnonzero(candidates).tolist():
        at_r = order_r[bounds_r[sentence] : bounds_r[sentence + 1]]
        at_p = order_p[bounds_p[sentence] : bounds_p[sentence + 1]]
        start_r, end_r, type_r = (column[at_r] for column in references[:3])
        start_p, end_p, type_p = (column[at_p] for column in predictions[:3])
        if not worth_matrix(overlap_total(start_r, end_r, start_p, end_p), len(at_r), len(at_p)):
            continue
        try:
            found = dense_pairs((start_r, end_r, type_r), (start_p, end_p, type_p), min_overlap, worth)
        except InvalidInputError as error:
            raise error.at(sentence=sentence) from None
        if found is not None:
            chosen_r.append(at_r[found[0]])
            chosen_p.append(at_p[found[1]])
            solved[sentence] = True
    if not chosen_r:
        return solved, np.zeros(0, np.int64), np.zeros(0, np.int64)
    return solved, np.concatenate(chosen_r), np.concatenate(chosen_p)


def dense_pairs(
    references: tuple[np.ndarray, np.ndarray, np.ndarray],
    predictions: tuple[np.ndarray, np.ndarray, np.ndarray],
    min_overlap: float | None,
    worth: Worth | None = None,
    cells: Cells | None = None,
) -> tuple[np.ndarray, np.ndarray] | None:
    """§3's pairing of one sentence's entities, each side (start, end, type id) arrays in (start, end, type) order
    of distinct entities, one copy each, none with a twin of its type on the other side (rule 1's pairs made
    before): the pairs (reference indices, prediction indices) as `rules.best_flow` makes them, component by
    component; None where the weights would not be exact in a float64 or the matching is not proven (the caller
    lists the pairs then).

    First from a few candidate pairs a row (`_neighbours`), more added where the dual found does not cover a cell
    (`_from_candidates`); where that does not settle, on the whole matrix, which is refused first where it would
    not fit in memory (`overlaps.check_pairs_fit`: an `InvalidInputError`, which the caller locates).

    With `worth`, the value score's pairing (docs/scoring.md §10) of the sentence's entities in (start, end, type
    name) order, twins included: the most worth, then rule 2 (a) to (d), as `value.value_pair` makes it. It
    starts from the cells §3's pairing of the same entities left tight where that was found a moment before
    (`recent`, issue 31, item 6): the two pairings mostly agree, and the value's then settles in a round.

    `cells`: the sentence's weights where they are not its extents' (`Cells` of discontinuous entities, §12,
    `forms.fragment_large`), the entities then indexed in rule (d)'s order; such a pairing is not remembered."""
    if not len(references[0]) or not len(predictions[0]):
        return None
    if worth is not None and _equal_sides(references, predictions):
        # Predictions equal to the references (a perfect system): each pairs with its twin, which is the value's
        # pairing (docs/scoring.md §10), unique. A pair's worth kept(r, p) + false_alarm·w(type p) is at most
        # w(type r) + false_alarm·w(type p) (f <= 1, weights >= 0), so no pairing is worth more than the twins';
        # they make the most pairs (a), all of one type (b), and share Σ len r, the most (c); a pairing doing all
        # that shares len r = len p (Σ len r = Σ len p) with each r's p of one type: its twin. Nothing left to (d).
        # (Not so of some twins among other entities: `test_dense`'s partial twins, which rule (d) may part.)
        every = np.arange(len(references[0]))
        return every, every
    remembered = cells is None
    cells = Cells(references, predictions, min_overlap, worth) if cells is None else cells
    if 4 * (cells.largest + 1) >= EXACT:
        # Every weight, and every sum of two potentials and a weight, exact in a float64. scipy's own sums may
        # round where a matching's total passes 2**53 (10,000 a side): a matching it gets wrong then is not
        # proven, and the answer stays exact (as `large_components.best_matching(exact_sums=False)`).
        return None
    rounds = min(1, _ROUNDS) if cells.shape[0] * cells.shape[1] <= _SMALL_MATRIX_CELLS else _ROUNDS
    warm = found = None
    if worth is not None:
        found = recall(_sentence_key(references, predictions))
        if found is not None:
            a, b = (found[1], found[0]) if cells.flipped else (found[0], found[1])
            paired = cells.weights(a, b) > 0  # a pair of §3's may fall short of the value's min_overlap
            if paired.any():  # (no cells to start from: no pairs for all they know)
                warm = ([a[paired]], [b[paired]])
    if warm is None and _NEIGHBOURS and rounds:
        warm, rounds = _neighbours(cells), rounds - 1  # (in place of the first round's candidates, no round more)
    solved = _from_candidates(cells, rounds, warm)
    if solved is None:
        solved = from_matrix(cells, references, predictions)
    if solved is None:
        return None
    matched_small, matched_large, x, y, tight = solved
    if not len(matched_small):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    tight_small, tight_large = cells.tight(x, y) if tight is None else tight
    if cells.flipped:
        tight_r, tight_p, u, v, matched_r, matched_p = tight_large, tight_small, y, x, matched_large, matched_small
    else:
        tight_r, tight_p, u, v, matched_r, matched_p = tight_small, tight_large, x, y, matched_small, matched_large
    rows, columns = len(references[0]), len(predictions[0])
    keys = tight_r * columns + tight_p  # (row, column) order, which the cells are found in unless flipped
    if np.any(keys[1:] < keys[:-1]):
        order = np.argsort(keys)
        tight_r, tight_p = tight_r[order], tight_p[order]
    del keys  # (8 bytes a tight cell, which rule (d)'s search holds too: every pair where weights tie)
    free = (u == 0, v == 0)
    if found is not None and len(found) == 5 and _same(found[:2] + found[3:], (tight_r, tight_p, *free)):
        # The best matchings are the matchings of the tight cells that pair every entity of non-zero potential
        # (`tight_smallest_best`): where those cells and entities are the ones §3's pairing of the same entities
        # had, so are the best matchings, and rule (d)'s choice among them is §3's (issue 31, item 6).
        chosen = found[2]
    else:
        chosen = tight_smallest_best(tight_r, tight_p, None, rows, columns, matched_r, matched_p, u, v)
    if worth is None and remembered:
        remember(_sentence_key(references, predictions), (tight_r, tight_p, chosen, *free))
    return tight_r[chosen], tight_p[chosen]


def _equal_sides(references: tuple, predictions: tuple) -> bool:
    """Whether the two sides' (start, end, type id) arrays are equal: the same distinct entities."""
    return _same(references, predictions)


def _same(arrays: tuple, others: tuple) -> bool:
    return all(np.array_equal(a, b) for a, b in zip(arrays, others, strict=True))


def _neighbours(cells: Cells) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """The cells to start from where nothing better is at hand, found without a pass over the cells: of each row,
    the `_NEIGHBOURS` columns on either side of its place in (start, end) order and in (end, start) order, of its
    type first and of any type, those that are pairs. Nested or overlapping entities mostly pair near ones (an
    onion's lengths in order, a staircase's windows in step, twins), and the first round mostly settles from
    them, at about half the time of a pass over every cell (`_first_candidates`, which joins them where it does
    not: issue 31, item 6, `benchmarks/hostile.py --value`)."""
    rows = len(cells.small[0])
    start, end, kind = (np.concatenate(pair) for pair in zip(cells.small, cells.large))
    is_column = np.arange(len(start)) >= rows
    found_a: list[np.ndarray] = []
    found_b: list[np.ndarray] = []
    for keys in ((kind, start, end), (kind, end, start), (start, end), (end, start)):  # the first key first
        order = np.lexsort((is_column, *keys[::-1]))  # (rows before equal columns)
        columns = order[is_column[order]] - rows
        place = np.empty(len(order), np.int64)
        place[order] = np.cumsum(is_column[order]) - is_column[order]  # the columns before it
        for step in range(-_NEIGHBOURS, _NEIGHBOURS):
            found_a.append(np.arange(rows))
            found_b.append(columns[np.clip(place[:rows] + step, 0, len(columns) - 1)])
    a, b = np.concatenate(found_a), np.concatenate(found_b)
    paired = cells.weights(a, b) > 0
    return [a[paired]], [b[paired]]


def _sentence_key(references: tuple, predictions: tuple) -> Key | None:
    """`recent`'s key of a sentence's entities (each side's start, end, type id), its positions from its first
    start: a sentence placed elsewhere (the value pairing places its sentences anew) is the same."""
    base = min(int(references[0][0]), int(predictions[0][0]))
    r_start, r_end, r_type = references
    p_start, p_end, p_type = predictions
    return key_of("dense", r_start - base, r_end - base, r_type, p_start - base, p_end - base, p_type)


# Candidates a row to start from (of each criterion and group, `_from_candidates`), cells added a row and a column
# a round where the dual falls short, and the rounds tried before the whole matrix is.
_CANDIDATES = 4
_ADDED = 2
_NEIGHBOURS = 2
_ROUNDS = 12
# A matrix of at most this many cells (128 MB) is solved at once where the first round's candidates do not settle:
# a round costs more than scipy's assignment of such a matrix (the onion of 200 types, 1,500 a side: 0.9 s on the
# matrix, 4.2 s in seven rounds).
_SMALL_MATRIX_CELLS = 1 << 24
# Tight cells gathered at most during a round's check (16 MB), where more go to `Cells.tight`'s count first.
_GATHERED = 1 << 20


def _from_candidates(
    cells: Cells, rounds: int, warm: tuple[list[np.ndarray], list[np.ndarray]] | None = None
) -> Solved | None:
    """The best matching of the sentence and its optimal dual (x on the rows, y on the columns), found among a few
    candidate cells a row (of the row's type and of the others, the heaviest and the nearest in length) by
    `large_components.proven_matching`,
    with each round the cells the dual does not cover (x_a + y_b < w_ab: the most short of each row and column)
    added, until it covers every cell: then it is an optimal dual of the whole sentence, and the matching best
    (complementary slackness holds on the candidates). None where that does not settle in `rounds` rounds.
    `warm` (rows, columns): cells to start from instead (a round more); where they do not settle in their
    round, the usual candidates join the cells found short."""
    small, large = cells.shape
    found_a, found_b = _first_candidates(cells) if warm is None else warm
    keys = np.zeros(0, np.int64)
    total = rounds + (warm is not None)
    for round_number in range(total):
        if found_a:
            keys = np.union1d(keys, np.concatenate(found_a) * large + np.concatenate(found_b))
        if not len(keys):
            nothing = np.zeros(0, np.int64)
            return nothing, nothing, np.zeros(small, np.int64), np.zeros(large, np.int64), None
        a, b = keys // large, keys % large
        solved = proven_matching(a, b, cells.weights(a, b), small, large)
        if solved is None:
            return None
        x, y = solved[2], solved[3]
        found_a, found_b = [], []
        most_short = np.zeros(large, np.int64)  # per column, the cell most short of its weight, and its row
        most_short_row = np.full(large, -1, np.int64)
        # The tight cells, gathered while every block so far has none short (the round may settle: then they are
        # `Cells.tight`'s, found without another two passes over the cells), up to `_GATHERED` of them.
        tight_a: list[np.ndarray] | None = []
        tight_b: list[np.ndarray] = []
        gathered = 0
        for rows, columns, short in _shortfalls(cells, x, y):
            paired = None
            if columns is None:  # a block of every column's weights (0: no pair), worked out in place
                paired = short > 0 if tight_a is not None else None
                short -= x[rows, None]
                short -= y
            if short.max() <= 0:
                if tight_a is not None:
                    a_at, b_at = np.nonzero(short == 0 if paired is None else paired & (short == 0))
                    gathered += len(a_at)
                    tight_a.append(rows[a_at])
                    tight_b.append(b_at if columns is None else columns[b_at])
                    if gathered > _GATHERED:
                        tight_a, tight_b = None, []
                continue  # no cell of the block short: none to add of its rows, none more short of a column
            tight_a, tight_b = None, []
            column_worst = short.argmax(axis=0)
            column_short = short[column_worst, np.arange(short.shape[1])]
            better = column_short > (most_short if columns is None else most_short[columns])
            at = np.flatnonzero(better) if columns is None else columns[better]
            most_short[at], most_short_row[at] = column_short[better], rows[column_worst[better]]
            worst, how_short = _largest(short, min(_ADDED, short.shape[1]))
            keep = how_short > 0
            found_a.append(np.broadcast_to(rows[:, None], worst.shape)[keep])
            found_b.append(worst[keep] if columns is None else columns[worst[keep]])
        if not sum(len(part) for part in found_a):
            if tight_a is None:
                return (*solved, None)
            tight = (np.concatenate(tight_a).astype(np.int64), np.concatenate(tight_b).astype(np.int64))
            check_pairs_fit(len(tight[0]), small, large, TIGHT_PAIR_BYTES)
            return (*solved, tight)
        found_a.append(most_short_row[most_short > 0])
        found_b.append(np.flatnonzero(most_short > 0))
        if warm is not None and round_number == 0 and total > 1:
            first_a, first_b = _first_candidates(cells)
            found_a += first_a
            found_b += first_b
    return None


def _shortfalls(cells: Cells, x: np.ndarray, y: np.ndarray) -> Any:
    """A round's blocks (rows, columns, short) of `_from_candidates`: the value's cells where their weights do not
    look at identical boundaries, as far short of x + y as `dense_matrix.bounded_shortfalls` works them out (issue
    31, item 6); any other, each block of rows over every column (columns None) with its weights, to be made so."""
    if cells.worth is not None and not cells.same_bounds:
        yield from bounded_shortfalls(cells, x, y)
        return
    for first, block in cells.blocks():
        yield np.arange(first, first + len(block)), None, block


def _first_candidates(cells: Cells) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """`_from_candidates`' first candidates: of each row, among the columns of its type and among the others, the
    heaviest pairs and the nearest in length (of equally heavy cells, in nested entities, the one a best pairing
    takes: shared extents min(length, length') favour pairing lengths in order), as (rows, columns) parts. The rows
    are taken a type at a time, so that each group is a set of columns worked out and searched on its own (half
    the cells of searching every column for each group)."""
    found_a: list[np.ndarray] = []
    found_b: list[np.ndarray] = []
    row_types, column_types = cells.small[2], cells.large[2]
    row_length, large_length = cells.small[1] - cells.small[0], cells.large[1] - cells.large[0]
    for kind in np.unique(row_types).tolist():
        of_kind = np.flatnonzero(row_types == kind)
        same = column_types == kind
        groups = [columns for columns in (np.flatnonzero(same), np.flatnonzero(~same)) if len(columns)]
        for columns in groups:
            count = min(_CANDIDATES, len(columns))
            step = max(1, BLOCK_CELLS // len(columns))
            for first in range(0, len(of_kind), step):
                rows = of_kind[first : first + step]
                part = cells.weights(rows[:, None], columns)
                nearness = np.abs(large_length[columns] - row_length[rows, None])
                np.negative(nearness, out=nearness)
                nearest = np.where(part > 0, nearness, np.iinfo(np.int64).min)
                at = np.broadcast_to(rows[:, None], (len(rows), count))
                nearest_at, nearness = _largest(nearest, count)
                heaviest_at, weight = _largest(part, count)
                for best, keep in ((heaviest_at, weight > 0), (nearest_at, nearness > np.iinfo(np.int64).min)):
                    found_a.append(at[keep])
                    found_b.append(columns[best[keep]])
    return found_a, found_b


def _largest(values: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The columns of the `count` largest values of each row of `values` (of the equal ones, the first) and
    those values, each (rows, count); `values` is overwritten (each one taken set to the least int64). An argmax
    a time: for a few of each row a fraction of numpy's argpartition's time (a block of 32 rows of 500, four
    each: 22 us against 163 us), which was most of a solve's (issue 31, item 6)."""
    rows = np.arange(len(values))
    at = np.empty((len(values), count), np.int64)
    found = np.empty((len(values), count), np.int64)
    for k in range(count):
        column = values.argmax(axis=1)
        at[:, k] = column
        found[:, k] = values[rows, column]
        values[rows, column] = np.iinfo(np.int64).min
    return at, found
