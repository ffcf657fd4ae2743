"""Each row's entity texts (docs/scoring.md §11: an entity's tokens joined, or the characters of its sentence's
text; a discontinuous entity's fragments joined by one space, §12), found for a batch's table of pairs at once:
what the seen slice (`nerscore.table.slices`) and the errors (`nerscore.table.findings`) read, kept as
positions into one list of the texts found (`RowTexts`)."""

from __future__ import annotations

import itertools
import operator
from collections import deque
from dataclasses import dataclass

import numpy as np

from .columns import CJK_CHARACTER, Columns, compiled, entity_texts
from .pairs import Pairs, int_column


def fragment_texts(rows: Pairs, columns: Columns, side: int, present: np.ndarray) -> list[str]:
    """The texts of the entities of one side in rows `present` (indices) of a table with discontinuous
    entities: each fragment's text, joined by one space (docs/scoring.md §12)."""
    pieces = rows.pieces(side, present)
    flat = [piece for entity in pieces for piece in entity]
    sentence = np.repeat(rows.sentence[present], [len(entity) for entity in pieces])
    starts, ends = int_column([start for start, _ in flat]), int_column([end for _, end in flat])
    texts = iter(entity_texts(columns, sentence, starts, ends) if flat else [])
    return [" ".join(next(texts) for _ in entity) for entity in pieces]


@dataclass(frozen=True)
class RowTexts:
    """Each row's reference text and predicted text (`columns.entity_text`; None where the row has no such
    entity), as positions into one list of the texts found: what the seen slice reads, and errors too when both
    are asked for. Positions, not object arrays of the texts: the seen slice tests each text found once, and
    errors take the texts of their rows alone. Texts that the seen slice need not read (`row_texts`: of entities
    unseen whatever their text) are made when first read (`side`); until then their place in `found` holds None,
    and `pending` says so."""

    found: list[str | None]  # the texts found, then None (no entity)
    reference: np.ndarray  # each row's position of its reference's text in `found`
    predicted: np.ndarray
    # Of texts left to make: each place of `found` still to make, and the (sentence, start, end) of each place
    # from `unseen_from` on (those before it are made).
    pending: np.ndarray | None = None
    extents: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    columns: Columns | None = None
    # The first place of `found` whose entity is unseen whatever its text (those pending, made since or not).
    unseen_from: int | None = None

    def side(self, side: int, rows: np.ndarray | slice = slice(None)) -> list[str | None]:
        """The texts of one side (0: references, 1: predictions) of rows `rows` (a mask, indices or a slice)."""
        return self.at((self.reference if side == 0 else self.predicted)[rows])

    def at(self, positions: np.ndarray) -> list[str | None]:
        """The texts at `positions` of `found` (`reference`'s or `predicted`'s), those still to make made now."""
        self.make(positions)
        return list(map(self.found.__getitem__, positions.tolist()))

    def make(self, positions: np.ndarray) -> None:
        """The texts at `positions` of `found` made where still to make."""
        if self.pending is not None and self.extents is not None and self.columns is not None:
            wanted = np.zeros(len(self.pending), dtype=bool)
            wanted[positions] = True
            made = np.flatnonzero(wanted & self.pending)  # (found's last place, None, is never pending)
            if len(made):
                sentence, start, end = (column[made - (self.unseen_from or 0)] for column in self.extents)
                texts = entity_texts(self.columns, sentence, start, end)
                deque(map(self.found.__setitem__, made.tolist(), texts), maxlen=0)
                self.pending[made] = False


def row_texts(rows: Pairs, columns: Columns, seen: frozenset[str] | None = None) -> RowTexts:
    """Each row's two texts (`RowTexts`), found for the batch at once; with `seen` (the seen slice) holding no text
    of several tokens, those of several tokens made only when first read (`_texts_for_seen`)."""
    none = np.full(len(rows), -1, dtype=np.int64)
    if rows.fragmented:
        found: list[str | None] = []
        positions = []
        for side, start in enumerate((rows.reference_start, rows.predicted_start)):
            present = np.flatnonzero(start >= 0)
            position = none.copy()
            position[present] = np.arange(len(found), len(found) + len(present))
            found.extend(fragment_texts(rows, columns, side, present))
            positions.append(position)
        positions = [np.where(position < 0, len(found), position) for position in positions]
        return RowTexts([*found, None], positions[0], positions[1])
    same = same_extents(rows)
    # The entities whose text is looked up: every reference, and the predictions without the reference's
    # boundaries (a prediction with them, most pairs, has its text). Looked up in one pass in row order, so in
    # sentence order where the rows are (a pass per side read the tokens from memory twice): two slots a row,
    # its reference's and its prediction's, those taken found in order by one flatnonzero (no sort).
    take = np.empty((len(rows), 2), dtype=bool)
    np.greater_equal(rows.reference_start, 0, out=take[:, 0])
    np.greater_equal(rows.predicted_start, 0, out=take[:, 1])
    take[:, 1] &= ~same
    slot = np.flatnonzero(take)
    # Each slot's extent read from the two sides laid side by side (one gather a column, where choosing a side
    # a slot took three), and each slot's place laid back the same way.
    starts = np.stack((rows.reference_start, rows.predicted_start), axis=1).reshape(-1)[slot]
    ends = np.stack((rows.reference_end, rows.predicted_end), axis=1).reshape(-1)[slot]
    found, place, lazy = _texts_for_seen(columns, rows.sentence[slot >> 1], starts, ends, seen)
    places = np.full((len(rows), 2), len(found), dtype=np.int64)  # len(found): None, appended below
    places.reshape(-1)[slot] = place
    reference = places[:, 0].copy()
    predicted = np.where(same, reference, places[:, 1])
    found.append(None)
    if lazy is None:
        return RowTexts(found, reference, predicted)
    return RowTexts(found, reference, predicted, *lazy[:2], columns, lazy[2])


# Of texts left unmade: `RowTexts.pending`, `extents` and `unseen_from`.
_Unmade = tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray], int]


def _texts_for_seen(
    columns: Columns, sentence: np.ndarray, start: np.ndarray, end: np.ndarray, seen: frozenset[str] | None
) -> tuple[list[str | None], np.ndarray, _Unmade | None]:
    """The texts of the entities [start, end) of `sentence`, and each entity's place among them: all of them
    (`entity_texts`, in order), or, with tokens and a `seen` that holds no text of several tokens (`_all_single`),
    the texts of one token, each its token read by one look-up (no slice, list or join), then None in place of
    the others, which are unseen whatever their text and cost nothing until read (errors read those of their
    rows), with what makes them then (`RowTexts.pending`, `extents` and `unseen_from`)."""
    tokens = columns.tokens
    if seen is None or tokens is None or not len(start) or int((end - start).min()) < 1 or not _all_single(seen):
        return list(entity_texts(columns, sentence, start, end)), np.arange(len(start)), None
    width = end - start
    one, several = np.flatnonzero(width == 1), np.flatnonzero(width > 1)
    try:
        # The sentences' lists first, then their tokens: two passes, each with less to do an entity, overlap
        # more of their reads from memory (cold by now) than one (0.4 ms of 20,000 x 20 tags).
        lists = list(map(tokens.__getitem__, sentence[one].tolist()))
        found: list[str | None] = list(map(operator.getitem, lists, start[one].tolist()))
    except IndexError:  # (an entity past its sentence's tokens, refused by compute.check_tokens_cover)
        return list(entity_texts(columns, sentence, start, end)), np.arange(len(start)), None
    found.extend(itertools.repeat(None, len(several)))
    laid = np.concatenate((one, several))  # the entity at each place of `found`
    place = np.empty(len(start), dtype=np.int64)
    place[laid] = np.arange(len(start))
    pending = np.zeros(len(start) + 1, dtype=bool)  # (the last place, no entity, is never pending)
    pending[len(one) : len(start)] = True
    return found, place, (pending, (sentence[several], start[several], end[several]), len(one))


def _all_single(seen: frozenset[str]) -> bool:
    """Whether no text of several tokens can be in `seen`: none of its texts holds a space or a CJK character.
    Tokens are joined by one space, but CJK tokens by none (docs/scoring.md §11): a text of several tokens holds a
    space, or is CJK throughout. (A vocabulary is such a `seen`; a training set's entity texts are not.)"""
    joined = "\n".join(seen)
    return " " not in joined and compiled(CJK_CHARACTER).search(joined) is None


def same_extents(rows: Pairs) -> np.ndarray:
    """Whether each row's prediction has the reference's boundaries (True too where the row has neither)."""
    return (rows.predicted_start == rows.reference_start) & (rows.predicted_end == rows.reference_end)
