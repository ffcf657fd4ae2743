"""The overlap graph of one sentence's entities (docs/scoring.md §3): which pairs overlap, how many there are, and
whether they fit in memory, before any rule of the pairing chooses among them.

Every pairing (§3's `nerscore.pairing.rules`, the value score's `nerscore.pairing.value`) starts here: sides are
disjoint or not (`spans_disjoint`), an overlap counts under `min_overlap` (`overlap_kept`, the one place it is applied),
entities sort in rule (d)'s order (`span_key`), and the overlapping pairs are found by one sweep over the starts
(`overlap_edges`, over the fragments of discontinuous entities too, §12; on arrays, `kept_pairs`). A
sentence whose pairs would not fit in the memory left is refused before they are listed (`overlap_count`,
`check_pairs_fit`): a located ValueError, never a MemoryError (`errors.refuse_past_free_memory`, every such
refusal's).
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np

from ..errors import FLOOR, refuse_past_free_memory
from ..span import Span
from .staircase import overlap_total, overlapping_pairs


def spans_disjoint(spans: Sequence[Span]) -> bool:
    """Whether no two of `spans` share a position (identical duplicates share all of theirs): their extents, so
    that discontinuous entities (docs/scoring.md §12) are disjoint when their extents are. On sides whose extents
    are disjoint, overlaps of units never cross either: a reference before another overlapping a prediction after
    another would need a unit of the first prediction before one of the second."""
    bounds = sorted((span.start, span.end) for span in spans)
    return all(end <= start for (_, end), (start, _) in pairwise(bounds))


def overlap_kept(shared: Any, reference_length: Any, min_overlap: float) -> Any:
    """Whether `shared` positions of an overlap are enough under `min_overlap` (docs/scoring.md §3): at least
    that share of the reference's length. The share is the float quotient, as nervaluate computes it, so 0.1
    admits 1 token of 10 (whose exact ratio lies just below the float 0.1). Scalars or numpy arrays alike: the
    one place every path applies `min_overlap`."""
    return shared / reference_length >= min_overlap


def kept_pairs(
    r_start: np.ndarray, r_end: np.ndarray, p_start: np.ndarray, p_end: np.ndarray, min_overlap: float | None
) -> tuple[np.ndarray, np.ndarray]:
    """`overlap_edges` of entities as arrays, each side sorted by start: the (reference, prediction) index pairs
    that share a position (`staircase.overlapping_pairs`), with `min_overlap` those that share enough of the
    reference (`overlap_kept`), the shared extents worked out only then."""
    return kept_edges(*overlapping_pairs(r_start, r_end, p_start, p_end), r_start, r_end, p_start, p_end, min_overlap)


def kept_edges(
    i: np.ndarray,
    j: np.ndarray,
    r_start: np.ndarray,
    r_end: np.ndarray,
    p_start: np.ndarray,
    p_end: np.ndarray,
    min_overlap: float | None,
) -> tuple[np.ndarray, np.ndarray]:
    """The overlapping (reference i, prediction j) index pairs that share enough of the reference with
    `min_overlap` (`overlap_kept`; all of them without)."""
    if min_overlap is None or not len(i):
        return i, j
    keep = overlap_kept(
        np.minimum(r_end[i], p_end[j]) - np.maximum(r_start[i], p_start[j]), r_end[i] - r_start[i], min_overlap
    )
    return (i, j) if keep.all() else (i[keep], j[keep])  # (no copy of a million pairs that all overlap enough)


def spans_overlap(reference: Span, prediction: Span, min_overlap: float | None) -> bool:
    """Whether the two overlap (docs/scoring.md §3): they share a position, and with `min_overlap` the shared
    extent is at least that share of the reference's length (`overlap_kept`)."""
    shared = reference.overlap(prediction)
    if min_overlap is None or not shared:
        return shared > 0
    return bool(overlap_kept(shared, reference.units, min_overlap))


def span_key(span: Span) -> tuple:
    # Rule (d)'s order: (start, end, type), and for discontinuous entities their fragment lists in place of
    # (start, end) (docs/scoring.md §12); a contiguous entity's list is its one (start, end).
    if span.fragments:
        return span.fragments, span.entity_type
    return ((span.start, span.end),), span.entity_type


def distinct_entities(spans: Sequence[Span]) -> tuple[list[Span], list[list[Span]]]:
    """The distinct entities of `spans` in rule (d)'s order (`span_key`), and the copies of each, the objects as
    given and in their order: §3's pairing and the value's fold each side into them (`rules._pair_nested`,
    `value.value_pair`), a thousand copies one entity."""
    copies: dict[Span, list[Span]] = {}
    for span in spans:
        copies.setdefault(span, []).append(span)
    distinct = sorted(copies, key=span_key)
    return distinct, [copies[span] for span in distinct]


def any_fragmented(*sides: Sequence[Span]) -> bool:
    """Whether an entity of `sides` is discontinuous (docs/scoring.md §12)."""
    return any(span.fragments for side in sides for span in side)


# What a sentence's overlapping pair costs at the peak of its pairing, measured (benchmarks/growth.py --memory):
# on the array path (`forms.component_arrays`, scipy's solvers: 45-56 bytes of peak RSS since issue 31's item 7,
# 100-117 before; here with room to spare) and on the pure-Python one (the value pairing and `pair`: tuples, dicts
# of digits and Fractions). `check_pairs_fit` refuses a sentence whose pairs would not fit.
ARRAY_PAIR_BYTES = 96
PYTHON_PAIR_BYTES = 600


def check_pairs_fit(
    pairs: int, references: int, predictions: int, bytes_per_pair: int, need: int | None = None
) -> None:
    """`refuse_past_free_memory` before anything is allocated, when `pairs` overlapping pairs of one sentence (of
    `references` and `predictions` entities) would take more memory than the machine has free (docs/scoring.md
    §3): `bytes_per_pair` each, or `need` bytes in all (a matrix of every reference against every prediction,
    `pairing.dense`). The caller adds the sentence."""
    refuse_past_free_memory(
        pairs * bytes_per_pair if need is None else need,
        f"its {references:,} references and {predictions:,} predictions overlap in {pairs:,} pairs, which need",
        "fewer overlapping entities in one sentence (split the document, or pass min_overlap)",
        " to pair",
        FLOOR,
    )


def overlap_count(references: Sequence[Span], predictions: Sequence[Span]) -> int:
    """How many (reference, prediction) pairs share a position, counted from the sorted starts without listing
    them (O(n log n), `staircase.overlap_total`'s count, the array paths' own)."""
    sides = [
        np.array(sorted((span.start, span.end) for span in spans), np.int64).reshape(-1, 2)
        for spans in (references, predictions)
    ]
    return overlap_total(sides[0][:, 0], sides[0][:, 1], sides[1][:, 0], sides[1][:, 1])


def overlap_edges(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None
) -> list[tuple[int, int]]:
    """(reference index, prediction index) of every overlapping pair, found by one sweep over the starts of their
    fragments (a contiguous entity's one, `Span.pieces`): each meets the fragments of the other side still open
    where it starts, so the time is O(n log n) plus the pairs of fragments that meet, however deeply the entities
    nest, never the pairs of discontinuous entities whose extents alone overlap (a thousand interleaved entities of
    fifty fragments each overlap every other one's extent; docs/scoring.md §12: the units two of them share add up
    from their fragments that meet, their pairs sorted then). Pairs of contiguous entities that would not fit in
    memory are refused first (`check_pairs_fit`)."""
    fragmented = any_fragmented(references, predictions)
    if not fragmented and len(references) * len(predictions) * PYTHON_PAIR_BYTES >= FLOOR:
        check_pairs_fit(overlap_count(references, predictions), len(references), len(predictions), PYTHON_PAIR_BYTES)
    sides = (references, predictions)
    order = sorted(
        (start, side, index, end)
        for side, spans in enumerate(sides)
        for index, span in enumerate(spans)
        for start, end in span.pieces()
    )
    open_pieces: tuple[list, list] = ([], [])  # per side, a heap of (end, index) of the fragments begun so far
    edges = []
    shared: dict[tuple[int, int], int] = {}  # of discontinuous entities, the units each pair shares
    for start, side, index, end in order:
        other = open_pieces[1 - side]
        while other and other[0][0] <= start:
            heapq.heappop(other)
        # Whatever is left on the other side began at or before `start` and ends after it.
        for other_end, other_index in other:
            edge = (index, other_index) if side == 0 else (other_index, index)
            if fragmented:
                shared[edge] = shared.get(edge, 0) + min(end, other_end) - start
            elif min_overlap is None or spans_overlap(references[edge[0]], predictions[edge[1]], min_overlap):
                edges.append(edge)
        heapq.heappush(open_pieces[side], (end, index))
    if not fragmented:
        return edges
    if min_overlap is None:
        return sorted(shared)
    return sorted(edge for edge, units in shared.items() if overlap_kept(units, references[edge[0]].units, min_overlap))
