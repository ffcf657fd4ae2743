"""What the statistics resample (docs/scoring.md §9): each unit's (sentence's or document's) count vectors.

Every score of every scheme is a function of the six scenario totals (§4), and totals add over sentences. So
what the statistics resample is each sentence's scenario counts, counted in the pass that scores, and a resample is
a weighted sum of them, never a new scoring (sacrebleu's lesson). Sentences share a handful of distinct count
vectors (85 to 113 among the 20,000 generated sentences of benchmarks/; 78 among WNUT-17's 1,287 for one system,
202 pairs for two), so they are kept as the distinct vectors and how many sentences have each (`SentenceCounts`),
and the draws (`nerscore.statistics.resampling`) are of how often each distinct vector is taken.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InvalidInputError, shown
from ..grouping import joined_runs, merged_runs
from ..options import Options
from ..pairing.rules import SCENARIOS
from ..result_scores import weighted_width
from ..table.slices import joined_names, laid_out

# A matrix of count vectors: a numpy array, or with slices' bucket columns (docs/scoring.md §11), which are mostly
# zeros (a sentence lies in one bucket of a sentence-level slice), a scipy.sparse CSR array, so that sentences x
# buckets are never held (a group slice of one group a sentence: 2,000 sentences took 2.2 GB held dense).
Vectors = Any


@dataclass(frozen=True)
class SentenceCounts:
    """Per-sentence count vectors, kept as the distinct vectors (sorted rows) and how many sentences have each.

    One system's vectors are its six scenario counts (I to VI); a pair of systems' are twelve, system A's six
    then system B's, for the same sentence. Sentences are exchangeable in the bootstrap and in the paired test,
    so this is all either needs, and it adds over chunks, batches and files."""

    vectors: Vectors  # (distinct vectors, width) int64 or float64, dense or sparse (`Vectors`)
    sentences: np.ndarray  # (distinct vectors,) int64: how many sentences have each
    # With slices, the buckets of each slice (`SliceCounts.names`) whose columns end the vectors: two runs of other
    # groups are laid out as the groups of both only as they are added (`slices.laid_out`).
    names: Mapping[str, list[str]] | None = None

    @classmethod
    def of(
        cls, by_sentence: Vectors, weighted: Vectors | None = None, names: Mapping[str, list[str]] | None = None
    ) -> SentenceCounts:
        """From one row of counts per sentence, and with `weighted` (docs/scoring.md §10: each sentence's overlap
        credit and value sums, `result_scores.weighted_width` floats) those after them, the vectors then of floats;
        `names`, the slices' buckets of the last columns."""
        rows = by_sentence if is_sparse(by_sentence) else _count_rows("by_sentence", by_sentence, np.int64)
        weighted = None if weighted is None else _count_rows("weighted", weighted, np.float64, rows.shape[0])
        if weighted is not None and weighted.shape[1]:
            rows = stacked((rows.astype(np.float64), weighted.astype(np.float64)), axis=1)
        return cls(*_distinct_rows(rows, np.ones(rows.shape[0], dtype=np.int64)), names)

    def __add__(self, other: SentenceCounts) -> SentenceCounts:
        first, second = self, other
        if self.names is not None and other.names is not None and self.names != other.names:
            names = joined_names(self.names, other.names)
            first, second = self.laid_out(names), other.laid_out(names)
        rows = stacked((first.vectors, second.vectors), axis=0)
        return SentenceCounts(*_distinct_rows(rows, np.concatenate((self.sentences, other.sentences))), first.names)

    def with_vectors(self, vectors: Vectors) -> SentenceCounts:
        """The same units with `vectors` for this one's (each distinct vector's row rewritten: the slices' bucket
        columns moved, `slices.moved_columns`), their distinct rows found again."""
        return SentenceCounts(*_distinct_rows(vectors, self.sentences), self.names)

    def reported(self, counted: Options, asked: Options) -> SentenceCounts:
        """These units, counted under `counted`, as the statistics under `asked` read them (`Accumulator.result`):
        without the value's weighted columns where `asked` leaves value out (docs/scoring.md §10), so that the
        slices' bucket columns after them are where the statistics look for them (they read the value's as the
        first buckets' before: precision's interval 0.0 to 1.0 around 1.0)."""
        start, stop = len(SCENARIOS) + weighted_width(asked), len(SCENARIOS) + weighted_width(counted)
        if start == stop:
            return self
        kept = self.vectors[:, np.r_[0:start, stop : self.vectors.shape[1]]]
        return self.with_vectors(kept if start > len(SCENARIOS) else kept.astype(np.int64))

    def laid_out(self, names: Mapping[str, list[str]]) -> SentenceCounts:
        """These vectors with their bucket columns moved to the layout of buckets `names` (`slices.laid_out`, which
        keeps them distinct), not sorted again."""
        assert self.names is not None  # (counted with slices)
        return SentenceCounts(laid_out(self.vectors, self.names, names), self.sentences, names)

    @property
    def size(self) -> int:
        """The number of sentences."""
        return int(self.sentences.sum())

    def totals(self) -> np.ndarray:
        """The counts summed over all sentences."""
        return np.asarray(self.sentences @ self.vectors)


@dataclass(frozen=True)
class CountRuns:
    """`SentenceCounts` added batch after batch (an `Accumulator`'s, the command line's chunks), kept as runs of
    decreasing size, two merged only once the later is at least half the earlier (a binary counter), so that n
    batches cost n log n rows merged: merged at every batch, the distinct vectors of a growing corpus were sorted
    again each time (400 batches of 20 sentences with slices and bootstrap: 5.6 s, x3.4 a doubling). `counts`
    merges them into the corpus's own `SentenceCounts`, which one pass gives too."""

    runs: tuple[SentenceCounts, ...] = ()

    def __add__(self, other: CountRuns) -> CountRuns:
        given = (*self.runs, *other.runs)
        # A batch of no sentence may be narrower (no slices' columns read): kept only where nothing else is.
        kept = [run for run in given if run.size] or sorted(given, key=lambda run: run.vectors.shape[1])[-1:]
        return CountRuns(merged_runs(kept, _merged_size))

    def counts(self) -> SentenceCounts:
        """The counts of every batch added, merged, their distinct vectors in order."""
        if len(self.runs) == 1:  # (in order again: `laid_out` leaves them out of it)
            return self.runs[0].with_vectors(self.runs[0].vectors)
        if not self.runs:
            return SentenceCounts.of(np.zeros((0, 0)))
        return joined_runs(self.runs)  # (each row sorted, and each group laid out, about twice more)


def sides_in_order(counts: SentenceCounts, first: int) -> tuple[SentenceCounts, int]:
    """Counts of two sides side by side (the first `first` columns, then the rest) as they are or with the sides
    swapped, whichever comes first in an order of their own (the narrower first side, then their totals, then
    how many units have each row, then the rows); and 1 where they are as given, -1 where swapped, 0 where
    swapping changes nothing. The resamples and the swaps are drawn on these, so that swapping A and B draws
    the same units and gives the same p-values and mirrored intervals (docs/scoring.md §9): the distinct rows
    are sorted, and their order, hence which unit a draw picks, depends on which side comes first."""
    width = counts.vectors.shape[1]
    order = np.r_[first:width, 0:first]
    totals = counts.totals()
    swapped: SentenceCounts | None = None
    sign = int(np.sign(2 * first - width)) or _first_sign(totals, totals[order])
    if sign == 0:  # sides of one width and the same totals: compare the units
        swapped = counts.with_vectors(counts.vectors[:, order])
        sign = _first_sign(counts.sentences, swapped.sentences) or _first_sign_of_rows(counts.vectors, swapped.vectors)
    if sign <= 0:
        return counts, 1 if sign else 0
    return (swapped or counts.with_vectors(counts.vectors[:, order])), -1


def mirrored(low: np.ndarray, high: np.ndarray, orientation: int) -> tuple[np.ndarray, np.ndarray]:
    """The interval of B - A from that drawn on the sides as `sides_in_order` put them: as it is (1), of A - B
    (-1: its ends negated and exchanged), or, where swapping the sides changes nothing (0), widened to hold its
    mirror image, as B - A and A - B are then alike."""
    if orientation < 0:
        return -high + 0.0, -low + 0.0
    if orientation == 0:  # (+ 0.0: no -0.0 where an end is 0)
        return np.minimum(low, -high) + 0.0, np.maximum(high, -low) + 0.0
    return low, high


def _first_sign(given: np.ndarray, other: np.ndarray) -> int:
    """The sign of `given - other` where they first differ (0 where they never do); the longer, if longer."""
    if len(given) != len(other):
        return int(np.sign(len(given) - len(other)))
    differ = np.flatnonzero(np.asarray(given) != np.asarray(other))
    return 0 if not len(differ) else int(np.sign(given[differ[0]] - other[differ[0]]))


def _first_sign_of_rows(given: Vectors, other: Vectors) -> int:
    """`_first_sign` of two matrices of one shape, row by row, dense or sparse."""
    if not is_sparse(given):
        return _first_sign(given.ravel(), other.ravel())
    from scipy import sparse  # type: ignore[import-untyped]

    difference = sparse.coo_array(sparse.csr_array(given) - sparse.csr_array(other))
    difference.eliminate_zeros()
    if not difference.nnz:
        return 0
    first = np.lexsort((difference.col, difference.row))[0]
    return int(np.sign(difference.data[first]))


def _merged_size(run: SentenceCounts) -> int:
    """What merging a run costs: its rows, and its groups laid out (sentences of no entity in groups of their own
    are one row of many groups)."""
    return run.vectors.shape[0] + len((run.names or {}).get("group", ()))


def _count_rows(name: str, given: Any, dtype: type, sentences: int | None = None) -> np.ndarray:
    """`SentenceCounts.of`'s `given` as a 2-D array of `dtype`, a row per sentence (`sentences` of them where known),
    else an `InvalidInputError` in words (IndexError of an integer, TypeError of None)."""
    try:
        rows = given if is_sparse(given) else np.asarray(given, dtype=dtype)
    except (TypeError, ValueError, OverflowError):
        rows = None
    if rows is None or rows.ndim != 2 or sentences not in (None, rows.shape[0]):
        expected = "a row per sentence" if sentences is None else f"{sentences} rows, one per sentence"
        raise InvalidInputError(f"{name} is {shown(given)}; expected a 2-D array of counts, {expected}")
    return rows


def is_sparse(vectors: Vectors) -> bool:
    """Whether count vectors are held as a scipy.sparse array (`Vectors`)."""
    return not isinstance(vectors, np.ndarray) and hasattr(vectors, "tocsr")


def stacked(parts: Sequence[Vectors], axis: int) -> Vectors:
    """Matrices of count vectors one after the other (`axis` 0: more sentences) or side by side (1: more columns),
    sparse (CSR) where any is (`Vectors`)."""
    if not any(map(is_sparse, parts)):
        return np.concatenate(parts, axis=axis)
    from scipy import sparse

    return (sparse.vstack if axis == 0 else sparse.hstack)(parts, format="csr")


def dense_columns(vectors: Vectors, columns: Any) -> np.ndarray:
    """Some columns of count vectors (`columns`: a slice or indices), as a numpy array."""
    picked = vectors[:, columns]
    return picked.toarray() if is_sparse(picked) else np.asarray(picked)


def per_unit(per_sentence: np.ndarray, documents: Sequence[Hashable] | None = None) -> np.ndarray:
    """The rows the statistics resample (docs/scoring.md §9): each sentence's, or with `documents` (one id per
    sentence) each document's, the sum of its sentences' rows, in the order documents first appear. A document's
    sentences need not be adjacent; ids equal in Python (1 and 1.0) are one document. The one place sentences
    become units, whatever the rows' width (a pair of systems, several runs, wider vectors)."""
    rows = per_sentence if is_sparse(per_sentence) else np.asarray(per_sentence)
    if documents is None:
        return rows
    if len(documents) != rows.shape[0]:
        raise ValueError(
            f"found {len(documents)} document ids for {rows.shape[0]} sentences; expected one per sentence"
        )
    if not rows.shape[0]:
        return rows.reshape(0, *rows.shape[1:])
    inverse = unit_of(rows.shape[0], documents)
    if is_sparse(rows):
        from scipy import sparse

        indicator = sparse.csr_array((np.ones(len(inverse), rows.dtype), (inverse, np.arange(len(inverse)))))
        return (indicator @ rows).tocsr()
    # Sentences sorted by document, then one reduction per run of a document: np.add.at would be 10 times slower.
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(int(inverse.max()) + 1))
    return np.add.reduceat(rows[order], starts, axis=0)


def unit_of(sentences: int, documents: Sequence[Hashable] | None = None) -> np.ndarray:
    """Each sentence's unit (docs/scoring.md §9): itself, or its document, numbered in the order documents first
    appear (ids equal in Python are one document)."""
    if documents is None:
        return np.arange(sentences)
    index: dict[Hashable, int] = {}
    return np.fromiter((index.setdefault(document, len(index)) for document in documents), np.int64, sentences)


def _distinct_rows(rows: Vectors, weights: np.ndarray) -> tuple[Vectors, np.ndarray]:
    """The distinct rows of a non-negative matrix, sorted, and the summed weights of each."""
    if is_sparse(rows):
        return _distinct_sparse_rows(rows, weights)
    return distinct_rows(rows, radix_keys(rows), weights)[:2]


def _distinct_sparse_rows(rows: Vectors, weights: np.ndarray) -> tuple[Vectors, np.ndarray]:
    """`_distinct_rows` of a sparse matrix, in the order np.unique(axis=0) gives the same rows held dense (so that
    a bootstrap's draws are the same either way), never holding them dense: a row is compared by its nonzero
    entries in column order. At two rows' first difference, the one with the larger entry there is the larger;
    where one has an entry in a column the other skips, it is the larger if that entry is positive, so an entry
    keys as (+-(width - column), value), the sign its value's, and a row ends with (0,), which every entry passes
    or not by its sign."""
    from scipy import sparse

    rows = sparse.csr_array(rows)
    rows.sum_duplicates()
    rows.eliminate_zeros()
    width = rows.shape[1]
    leading = np.where(rows.data > 0, width - rows.indices, rows.indices - width).tolist()
    values, bounds = rows.data.tolist(), rows.indptr.tolist()
    keys = [(*zip(leading[start:end], values[start:end]), (0,)) for start, end in itertools.pairwise(bounds)]
    index: dict[tuple[Any, ...], int] = {}
    first = np.fromiter((index.setdefault(key, len(index)) for key in keys), np.int64, len(keys))
    order = sorted(range(len(index)), key=list(index).__getitem__)
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    inverse = rank[first]
    representatives = np.empty(len(order), dtype=np.int64)
    representatives[inverse] = np.arange(len(inverse))
    summed = np.bincount(inverse, weights=weights, minlength=len(order)).astype(np.int64)
    return rows[representatives], summed


def radix_keys(rows: np.ndarray) -> np.ndarray | None:
    """One integer a row of a non-negative integer matrix, its values in mixed radix (the first column the most
    significant), so that the keys sort as the rows; None for floats (docs/scoring.md §10's weighted columns) or
    past int64 (millions of entities in a document). Sorting keys takes a millisecond where np.unique(axis=0)
    takes 20 ms for 20,000 sentences."""
    if rows.dtype == np.float64:
        return None
    if not len(rows):
        return np.zeros(0, dtype=np.int64)
    # The places from the last column, stopped once they pass int64: a product of every later column's radix
    # per column was quadratic in the columns (slices of 1,000 edges: 12,000 columns, 2 s a call).
    places, place = [], 1
    for size in reversed((rows.max(axis=0).astype(object) + 1).tolist()):
        places.append(place)
        place *= size
        if place >= 1 << 62:
            return None
    return rows @ np.array(places[::-1], dtype=np.int64)


def distinct_rows(
    rows: np.ndarray, keys: np.ndarray | None, weights: np.ndarray | None = None, *, hashed: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct rows of `rows` in the order of their `keys` (one integer a row; None: the rows sorted, as
    np.unique(axis=0)), the summed `weights` of each (1 a row by default) and each row's index among them. Keys
    are equal only for equal rows unless `hashed`: then two rows of one key are found and the rows sorted. The
    order is what a bootstrap's draws follow, so each caller keeps its own."""
    distinct = inverse = None
    if keys is not None and not hashed and len(keys) and keys.max() < min(16 * len(keys), 1 << 22):
        # Counted, not sorted (ten times faster), where the keys are few enough for a count of each.
        present = np.flatnonzero(np.bincount(keys))
        lookup = np.zeros(int(present[-1]) + 1, dtype=np.int64)
        lookup[present] = np.arange(len(present))
        inverse = lookup[keys]
        distinct = np.empty((len(present), *rows.shape[1:]), dtype=rows.dtype)
        distinct[inverse] = rows  # (equal keys, equal rows)
    elif keys is not None:
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        distinct = rows[first]
        if hashed and not np.array_equal(distinct[inverse.reshape(-1)], rows):  # two rows of one key
            distinct = None
    if distinct is None:
        distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1).astype(np.int64)
    summed = np.bincount(inverse, weights=weights, minlength=len(distinct))
    return distinct, summed.astype(np.int64), inverse
