"""Slices (docs/scoring.md §11): the scores of buckets of entities (by length, seen or unseen) and of sentences (by
length, reference entity density, group), counted from the rows of a pairing.

The slices reducer of `nerscore.table.reducers.REDUCERS`, over the batch's table of pairs (`nerscore.table.pairs.Pairs`:
each row's sentence, scenario, types and the extents of its two entities), which every path produces alike
(tests/test_tag_arrays.py), bucketed here once with a handful of numpy operations per slice. What is kept adds over
batches: for each entity-level slice a `Tally` whose "types" are the bucket names (two-sided as per-type scores
are, §5), for each sentence-level slice one `Tally` per bucket; and, for the statistics, each sentence's counts
per bucket, as columns beside its six scenario counts (sums of sentences, so that documents sum
them too, §9).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InvalidInputError
from ..grouping import joined_runs, key_counts, lengths, merged_runs
from ..option_checks import DEFAULT_SLICE_EDGES, ENTITY_SLICES, OVERLAP, is_id
from ..options import Options
from ..pairing.rules import SCENARIOS
from ..result_scores import scores_of, two_sided_scores
from ..tally import CellTable, Tally, TokenCounts
from .columns import Columns, entity_text
from .pairs import PAIR_COLUMNS, Pairs, SentenceFacts, cell_key_columns, cell_keys_of, piece_units
from .row_texts import RowTexts, row_texts

SEEN, UNSEEN = "seen", "unseen"
_WIDTH = len(SCENARIOS)
# What the slices reducer reads of the table (`reducers.REDUCERS`): every column (entity buckets read extents,
# the seen slice texts, every bucket's tally the cells).
SLICE_COLUMNS = PAIR_COLUMNS


def bucket_names(edges: Sequence[int]) -> list[str]:
    """The bucket names of numeric edges given as lower ends (docs/scoring.md §11): "<a" below the first edge,
    then "a" for a bucket of one value, "a-b" for several, and "z+" from the last edge on."""
    names = [f"<{edges[0]}"]
    for low, high in itertools.pairwise(edges):
        names.append(str(low) if high - low == 1 else f"{low}-{high - 1}")
    names.append(f"{edges[-1]}+")
    return names


# Edges up to this one give each value's bucket by a table of the bucket of every value up to the last edge.
_TABLE_EDGE = 1 << 12


def _numeric_buckets(values: np.ndarray, edges: Sequence[int]) -> np.ndarray:
    """Each value's bucket (values >= 0), an index into `bucket_names(edges)`: read from a table of each value's
    bucket up to the last edge, those past it clipped to it (a binary search a value took 0.5 ms of the 28,000
    rows of 20,000 x 20 tags, the table 0.02), or for edges past `_TABLE_EDGE` by a binary search."""
    sorted_edges = np.asarray(edges, dtype=np.int64)
    if values.dtype != object and edges[-1] < _TABLE_EDGE:
        table = np.searchsorted(sorted_edges, np.arange(edges[-1] + 1), side="right")
        return table.take(values, mode="clip")
    return np.searchsorted(sorted_edges, values, side="right")


@dataclass(frozen=True)
class SliceCounts:
    """What slices count of a batch: per slice, its bucket names (in edge order), and either one `Tally` whose
    types are bucket names (an entity-level slice, two-sided) or one `Tally` per bucket (a sentence-level
    slice); with `per_sentence`, each sentence's counts per bucket (`layout` gives each slice's columns)."""

    names: Mapping[str, list[str]]
    two_sided: Mapping[str, Tally] = field(default_factory=dict)
    by_bucket: Mapping[str, Mapping[str, Tally]] = field(default_factory=dict)
    per_sentence: Any = None  # (sentences, width) counts, laid out as `layout`, a scipy.sparse CSR array

    def __add__(self, other: SliceCounts) -> SliceCounts:
        """The counts of two chunks of one batch, one after the other (the command line reads files in chunks,
        an `Accumulator` batches): the same slices, a group slice's groups those of either. Without per-sentence
        columns: only `SliceRuns` adds, and it holds counts without them (`_replace_sentences`; the accumulator
        keeps them apart, as `SentenceCounts`)."""
        names = self.joined_names(other)
        two_sided = {name: self.two_sided[name] + other.two_sided[name] for name in self.two_sided}
        by_bucket: dict[str, dict[str, Tally]] = {}
        for name, tallies in self.by_bucket.items():
            merged = dict(tallies)
            for bucket, tally in other.by_bucket[name].items():
                merged[bucket] = merged[bucket] + tally if bucket in merged else tally
            by_bucket[name] = merged
        return SliceCounts(names, two_sided, by_bucket)

    def joined_names(self, other: SliceCounts) -> dict[str, list[str]]:
        """The buckets of each slice over two chunks: a group slice's, the groups of either, in order."""
        return joined_names(self.names, other.names)

    def _replace_sentences(self) -> SliceCounts:
        """The counts without the per-sentence columns (kept apart, as `SentenceCounts`, by whoever adds chunks)."""
        return SliceCounts(self.names, self.two_sided, self.by_bucket, None)

    def layout(self) -> list[tuple[str, int, int]]:
        """(slice, first column, columns per bucket, `bucket_width`) of each slice in `per_sentence`."""
        out, start = [], 0
        for name, names in self.names.items():
            width = bucket_width(name)
            out.append((name, start, width))
            start += width * len(names)
        return out


@dataclass(frozen=True)
class SliceRuns:
    """`SliceCounts` of batches added one after the other, kept as runs merged as `unit_counts.CountRuns` merges its
    own (a binary counter: two joined only once the later holds at least half the earlier's buckets), so that n
    batches of new groups sort and index n log n groups: joined at every batch, an `Accumulator` handled every
    group it held (4,000 batches of 5 sentences, a group each: 127 s, x2.5 a doubling)."""

    runs: tuple[SliceCounts, ...] = ()

    def __add__(self, other: SliceRuns) -> SliceRuns:
        return SliceRuns(merged_runs((*self.runs, *other.runs), _buckets))

    def joined(self) -> SliceCounts:
        """The counts of every batch added (`grouping.joined_runs`: each group handled about twice more)."""
        return joined_runs(self.runs)


def _buckets(counts: SliceCounts) -> int:
    return sum(map(len, counts.names.values()))


def bucket_width(name: str) -> int:
    """The per-sentence columns a bucket of slice `name` takes: an entity-level slice's 12 (the scenario counts of
    the rows whose reference lies in it, then of those whose prediction does), a sentence-level slice's 6 (the
    scenario counts of its sentences)."""
    return 2 * _WIDTH if name in ENTITY_SLICES else _WIDTH


def joined_names(first: Mapping[str, list[str]], second: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """The buckets of each slice over two chunks: a group slice's, the groups of either, in order."""
    return {name: sorted({*first[name], *second[name]}) if name == "group" else first[name] for name in first}


def columns_in(names: Mapping[str, list[str]], joined: Mapping[str, list[str]]) -> np.ndarray:
    """Where each per-sentence column of slices of buckets `names` (`SliceCounts.layout`) lies in the layout of the
    same slices of buckets `joined` (`joined_names`): the same order, with room for the groups of other chunks."""
    moved, start = [np.zeros(0, dtype=np.int64)], 0
    for name, buckets in names.items():
        width = bucket_width(name)
        position = {bucket: index for index, bucket in enumerate(joined[name])}
        at = np.fromiter(map(position.__getitem__, buckets), np.int64, len(buckets))
        moved.append(start + (at[:, None] * width + np.arange(width)).reshape(-1))
        start += width * len(joined[name])
    return np.concatenate(moved)


def laid_out(vectors: Any, names: Mapping[str, list[str]], joined: Mapping[str, list[str]]) -> Any:
    """Count vectors (a sparse matrix) whose last columns are the bucket columns of slices of buckets `names`, with
    those moved to the layout of buckets `joined` (`joined_names`); as they were where the layouts are one, or
    where there is no row (a batch of no sentence may be narrower)."""
    if names == joined or not vectors.shape[0]:
        return vectors
    first = vectors.shape[1] - slices_width(names)
    return moved_columns(vectors, first, columns_in(names, joined), first + slices_width(joined))


def slices_width(names: Mapping[str, list[str]]) -> int:
    """How many per-sentence columns slices of buckets `names` take (`SliceCounts.layout`)."""
    return sum(len(buckets) * bucket_width(name) for name, buckets in names.items())


def moved_columns(matrix: Any, first: int, columns: np.ndarray, width: int) -> Any:
    """A sparse matrix of per-sentence vectors with its columns from `first` on moved to `first + columns[...]`
    (`SliceCounts.columns_in`), `width` columns in all: the columns before `first` (the scenario counts) stay."""
    from scipy import sparse  # type: ignore[import-untyped]

    mapping = np.concatenate((np.arange(first), first + columns))
    moved = sparse.csr_array((matrix.data, mapping[matrix.indices], matrix.indptr), shape=(matrix.shape[0], width))
    moved.sort_indices()
    return moved


def check_slice_inputs(options: Options, columns: Columns, spans: bool, holds_tags: bool | None = None) -> None:
    """A `ValueError` naming what to pass for a requested slice whose input is missing (docs/scoring.md §11).
    `holds_tags`: False for a batch with no value at all, which may be spans (its texts then count as texts)."""
    holds_tags = not spans if holds_tags is None else holds_tags
    has_text = columns.tokens is not None or (not holds_tags and columns.texts is not None)
    text_hint = "texts= (the text of each sentence, for spans) or tokens=" if spans else "tokens="
    if options.slices and options.partial_credit == OVERLAP:
        # A bucket's tally holds its cells, not the overlap shares of its pairs (docs/scoring.md §10, §11).
        raise ValueError(
            f"slices={list(options.slices)!r} scores each bucket with a PAR's credit as a number and cannot take "
            'partial_credit="overlap"; pass a number from 0 to 1 as partial_credit, or score the slices apart'
        )
    for name in options.slices:
        if name == "seen":
            if options.seen is None:
                raise ValueError(
                    "slices=['seen'] needs seen=, a collection of entity texts (a training set's, say): an entity "
                    "is seen when its text is among them"
                )
            if not has_text:
                raise ValueError(f"slices=['seen'] needs each entity's text: pass {text_hint}")
        elif name == "group" and columns.groups is None:
            raise ValueError("slices=['group'] needs groups=, one label per sentence (a domain, a source, a document)")
        elif name == "group":
            columns.labels("groups")  # each group named as its bucket is, or a located error
        elif name == "sentence_length" and spans and columns.tokens is None and columns.texts is None:
            raise ValueError(
                "slices=['sentence_length'] of spans needs each sentence's length: pass tokens= (tokens) or texts= "
                "(characters)"
            )


def check_tokens_cover(rows: Pairs, columns: Columns) -> None:
    """With spans and `tokens`, an entity's text is its tokens (docs/scoring.md §11): an entity that ends past
    its sentence's tokens is a located `ValueError`."""
    if columns.tokens is None:
        return
    tokens = lengths(columns.tokens)
    found = _first_past(rows, tokens)
    if found is not None:
        side, sentence, start, end = found
        raise InvalidInputError(past_tokens(start, end, int(tokens[sentence])), side, sentence)


def past_tokens(start: int, end: int, tokens: int) -> str:
    """The problem with an entity [start, end) past its sentence's `tokens` tokens (`check_tokens_cover`)."""
    return (
        f"found an entity [{start}, {end}) past the sentence's {tokens} tokens; expected tokens= to hold every token "
        "the entities cover"
    )


def first_past_text(rows: Pairs, columns: Columns) -> tuple[str, int] | None:
    """With spans and `texts`, offsets are characters of `texts[i]` (docs/scoring.md §1): the side and sentence of
    the first entity past its text (`_first_past`; a discontinuous one's extent, §12), which the caller locates."""
    assert columns.texts is not None  # (its one caller, compute.refuse_past_texts, returns first without texts)
    found = _first_past(rows, lengths(columns.texts))
    return None if found is None else found[:2]


def _first_past(rows: Pairs, sentence_lengths: np.ndarray) -> tuple[str, int, int, int] | None:
    """The side (references first), sentence, start and end of the first entity of the first sentence that ends
    past its length (tokens, or characters), or None: a comparison per row (-1, no entity, is never past)."""
    sides = (
        ("references", rows.reference_start, rows.reference_end),
        ("predictions", rows.predicted_start, rows.predicted_end),
    )
    for side, starts, ends in sides:
        past = np.flatnonzero(ends > sentence_lengths[rows.sentence])
        if len(past):
            row = past[np.argmin(rows.sentence[past])]
            return side, int(rows.sentence[row]), int(starts[row]), int(ends[row])
    return None


def count_slices(
    rows: Pairs,
    options: Options,
    columns: Columns,
    facts: SentenceFacts | None,
    keep_sentences: bool,
    texts: RowTexts | None = None,
) -> SliceCounts:
    """The `SliceCounts` of a batch's rows (docs/scoring.md §11): the slices reducer (`reducers.REDUCERS`);
    `texts`, each row's texts (`row_texts`) where already found."""
    facts = with_lengths(facts or SentenceFacts(rows.sentences), columns)
    names: dict[str, list[str]] = {}
    two_sided: dict[str, Tally] = {}
    by_bucket: dict[str, dict[str, Tally]] = {}
    # With bootstrap, each sentence's counts per bucket (docs/scoring.md §9, §11) as (sentence, column) entries,
    # held sparse (`unit_counts.Vectors`): a sentence lies in few buckets.
    entries: list[tuple[np.ndarray, np.ndarray]] = []
    width = 0
    sentences = facts.sentences
    sentence_slices: dict[str, np.ndarray] = {}  # each sentence-level slice's bucket of each sentence
    for name in options.slices:
        columns_of_bucket = bucket_width(name)
        if name in ENTITY_SLICES:
            bucket_r, bucket_p, bucket_list = _entity_buckets(name, rows, options, columns, texts)
            names[name] = bucket_list
            two_sided[name] = _two_sided_tally(rows.scenario, bucket_r, bucket_p, bucket_list)
            for offset, bucket in ((0, bucket_r), (_WIDTH, bucket_p)) if keep_sentences else ():
                has = bucket >= 0
                entries.append(
                    (rows.sentence[has], width + bucket[has] * columns_of_bucket + offset + rows.scenario[has])
                )
        else:
            sentence_bucket, bucket_list = _sentence_buckets(name, rows, options, columns, facts)
            names[name] = bucket_list
            sentence_slices[name] = sentence_bucket
            if keep_sentences:
                entries.append(
                    (rows.sentence, width + sentence_bucket[rows.sentence] * columns_of_bucket + rows.scenario)
                )
        width += len(names[name]) * columns_of_bucket
    by_bucket.update(_bucket_tallies(rows, {name: (at, names[name]) for name, at in sentence_slices.items()}, facts))
    matrix = None
    if keep_sentences:
        from scipy import sparse

        none = np.zeros(0, dtype=np.int64)
        sentence_at = np.concatenate([none, *(at for at, _ in entries)])
        column_at = np.concatenate([none, *(at for _, at in entries)])
        matrix = sparse.csr_array(
            (np.ones(len(sentence_at), np.int64), (sentence_at, column_at)), shape=(sentences, width)
        )
        matrix.sum_duplicates()
    return SliceCounts(names, two_sided, by_bucket, matrix)


def with_lengths(facts: SentenceFacts, columns: Columns) -> SentenceFacts:
    """`facts` with each sentence's length: as scored for tags; for spans, which have none, its tokens, or the
    characters of its text (docs/scoring.md §11)."""
    if facts.lengths is not None:
        return facts
    sentence_texts = columns.tokens if columns.tokens is not None else columns.texts
    if sentence_texts is None:
        return facts
    return SentenceFacts(facts.sentences, lengths(sentence_texts), facts.equal)


def _entity_buckets(
    name: str, rows: Pairs, options: Options, columns: Columns, texts: RowTexts | None
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Each row's reference bucket and predicted bucket (-1 for no entity) and the bucket names; `texts`, each
    row's texts (`row_texts`) where already found."""
    if name == "entity_length":
        edges = (options.slice_edges or {}).get(name, DEFAULT_SLICE_EDGES[name])
        sides = []
        for side_index, (start, end) in enumerate(
            ((rows.reference_start, rows.reference_end), (rows.predicted_start, rows.predicted_end))
        ):
            lengths = end - start if not rows.fragmented else piece_units(rows.pieces(side_index))  # units (§12)
            buckets = _numeric_buckets(lengths, edges)
            buckets[start < 0] = -1
            sides.append(buckets)
        return sides[0], sides[1], bucket_names(edges)
    seen = options.seen or frozenset()
    texts = texts if texts is not None else row_texts(rows, columns, seen)
    # Each text found tested once (a prediction with the reference's boundaries, most pairs, shares its text);
    # the last, None, is the place of every row's missing entity and of no entity's text: its bucket is -1.
    tested = len(texts.found) - 1 if texts.unseen_from is None else texts.unseen_from  # (the rest: unseen)
    unseen = np.ones(len(texts.found), dtype=bool)
    # One byte a text, written in C (np.fromiter of the tests took 1.2x as long: 15,000 texts of 20,000 x 20 tags).
    unseen[:tested] ^= np.frombuffer(bytearray(map(seen.__contains__, itertools.islice(texts.found, tested))), bool)
    unseen_bucket = unseen.astype(np.int64)  # SEEN 0, UNSEEN 1
    unseen_bucket[-1] = -1
    return unseen_bucket[texts.reference], unseen_bucket[texts.predicted], [SEEN, UNSEEN]


def _sentence_buckets(
    name: str, rows: Pairs, options: Options, columns: Columns, facts: SentenceFacts
) -> tuple[np.ndarray, list[str]]:
    """Each sentence's bucket and the bucket names."""
    if name == "group":
        assert columns.groups is not None  # check_slice_inputs
        labels = columns.labels("groups")
        distinct = sorted(set(labels))
        index = {label: position for position, label in enumerate(distinct)}
        if len(distinct) <= 256:  # one byte a sentence, written in C (np.fromiter: 1.4x as long, 20,000 sentences)
            return np.frombuffer(bytearray(map(index.__getitem__, labels)), np.uint8).astype(np.int64), distinct
        return np.fromiter(map(index.__getitem__, labels), np.int64, len(labels)), distinct
    edges = (options.slice_edges or {}).get(name, DEFAULT_SLICE_EDGES[name])
    if name == "entity_density":
        values = np.bincount(rows.sentence[rows.reference_start >= 0], minlength=facts.sentences)
    else:
        assert facts.lengths is not None  # check_slice_inputs
        values = facts.lengths
    return _numeric_buckets(values, edges).astype(np.int64), bucket_names(edges)


def _two_sided_tally(scenario: np.ndarray, bucket_r: np.ndarray, bucket_p: np.ndarray, names: list[str]) -> Tally:
    """The rows' cells as (scenario, reference bucket, predicted bucket): a `Tally` whose types are buckets."""
    width = len(names) + 1
    combined = cell_keys_of(scenario, bucket_r, bucket_p, width)
    distinct, numbers = key_counts(combined, _WIDTH * width * width)
    return Tally(CellTable(*cell_key_columns(distinct, width), numbers, tuple(names)))


def _bucket_tallies(
    rows: Pairs, sliced: Mapping[str, tuple[np.ndarray, list[str]]], facts: SentenceFacts
) -> dict[str, dict[str, Tally]]:
    """One `Tally` per bucket of each sentence-level slice (`sliced`: each sentence's bucket, the bucket names): the
    cells of its sentences' rows and, for tags, their tokens. Slices whose bucket combinations times the cells are
    few are counted in one pass, by each sentence's combination (0.20 ms of 20,000 x 20 tags, a pass a slice 0.47)."""
    types = rows.cell_radix
    keys = _WIDTH * types * types  # the table's cell keys, one a row (`Pairs.cell_keys`)
    together: list[list[str]] = []
    for name, (_, names) in sliced.items():
        held = [len(sliced[other][1]) for other in (together[-1] if together else [])]  # the last group's buckets
        if together and keys * len(names) * math.prod(held) <= 2 * max(len(rows), 1 << 12):
            together[-1].append(name)
        else:
            together.append([name])
    out: dict[str, dict[str, Tally]] = {}
    for group in together:
        sizes = [len(sliced[name][1]) for name in group]
        combination = np.zeros(facts.sentences, dtype=np.int64)
        for name, size in zip(group, sizes):  # each sentence's buckets in mixed radix, the first slice's first
            combination *= size
            combination += sliced[name][0]
        combined = combination[rows.sentence] * keys  # the bucket combination before the cell key
        combined += rows.cell_keys
        counted = np.bincount(combined, minlength=math.prod(sizes) * keys) if len(group) > 1 else None
        sides = (facts.lengths, facts.equal) if facts.equal is not None and facts.lengths is not None else ()
        totals = [np.bincount(combination, side, math.prod(sizes)).reshape(sizes) for side in sides]
        for axis, name in enumerate(group):
            others, names = tuple(other for other in range(len(group)) if other != axis), sliced[name][1]
            if counted is None:
                distinct, numbers = key_counts(combined, sizes[0] * keys)
            else:  # this slice's counts: the others' buckets summed
                per = counted.reshape(*sizes, keys).sum(axis=others).reshape(-1)
                distinct, numbers = np.flatnonzero(per), per[per > 0]
            b, cell = np.divmod(distinct, keys)
            kinds, r, p = cell_key_columns(cell, types)
            # The keys are sorted, bucket first: each bucket's cells are one run of them.
            present = np.flatnonzero(np.bincount(b, minlength=len(names))).tolist()
            bounds = np.searchsorted(b, [*present, len(names)]).tolist()
            cells = {
                bi: CellTable(kinds[i:j], r[i:j], p[i:j], numbers[i:j], rows.type_names)
                for bi, i, j in zip(present, bounds, bounds[1:])
            }
            summed = [total.sum(axis=others).astype(np.int64).tolist() for total in totals]
            tokens = {bi: TokenCounts(*counts) for bi, counts in enumerate(zip(*summed))}
            # A bucket with tokens but no entity is kept, so that batches add up to one pass (its tokens count
            # where another batch finds an entity in it); `slice_scores` leaves it out (docs/scoring.md §11).
            out[name] = {
                names[bi]: Tally(cells.get(bi, {}), tokens.get(bi)) for bi in sorted(cells.keys() | tokens.keys())
            }
    return out


def slice_scores(counts: SliceCounts, options: Options) -> dict[str, dict[str, dict[str, Any]]]:
    """The `slices` key (docs/scoring.md §11): for each slice, for each bucket with an entity on either side (in
    edge order), the scores: two-sided ones (P, R, F, POS, ACT per scheme) for entity-level slices, every key
    of the result for sentence-level ones, without the value score (a bucket's rows carry no value pairing)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    options = options if options.value is None else options.evolve(value=None)
    # The buckets of every sentence-level slice scored in one call (their exact ratios computed at once).
    present = {
        name: [bucket for bucket in names if bucket in counts.by_bucket[name] and counts.by_bucket[name][bucket].cells]
        for name, names in counts.names.items()
        if name not in counts.two_sided
    }
    scored = iter(scores_of([counts.by_bucket[name][bucket] for name in present for bucket in present[name]], options))
    for name, names in counts.names.items():
        if name in counts.two_sided:
            out[name] = two_sided_scores(counts.two_sided[name], names, options)
        else:
            out[name] = {bucket: next(scored) for bucket in present[name]}
    return out


def add_entity_texts(entities: list[dict[str, Any]], columns: Columns) -> list[dict[str, Any]]:
    """The `entities` rows with each side's `text` (docs/scoring.md §11), where a column gives one."""
    if columns.tokens is None and columns.texts is None:
        return entities
    for row in entities:
        for side in ("reference", "prediction"):
            entity = row[side]
            if entity is not None and "fragments" in entity:  # its fragments' texts joined by one space (§12)
                pieces = entity["fragments"]
                entity["text"] = " ".join(
                    str(entity_text(columns, row["sentence"], start, end)) for start, end in pieces
                )
            elif entity is not None:
                entity["text"] = entity_text(columns, row["sentence"], entity["start"], entity["end"])
    return entities


def kept_tokens(
    columns: Columns, references: Any, ignore_index: int, holds_ids: bool, tag_lengths: list[int] | None = None
) -> Any:
    """The tokens of `columns` as scored: with ids, those at positions whose reference is `ignore_index` dropped
    with them (docs/scoring.md §11). A sentence whose tokens and tags differ in number is a located `ValueError`.
    `tag_lengths`: each sentence's number of tags where the alignment check measured them."""
    tokens = columns.tokens
    assert tokens is not None
    # Tags keep every token: only the numbers are compared, at C speed (the tags' as measured, where they were:
    # measured again, after the tokens were read, they were read from memory again, 1 ms of 20,000 x 20 tags).
    if not holds_ids and columns.token_lengths() == (tag_lengths or list(map(len, references))):
        return tokens
    kept = []
    for sentence, (sentence_tokens, tags) in enumerate(zip(tokens, references)):
        if len(sentence_tokens) != len(tags):
            raise InvalidInputError(
                f"found {len(sentence_tokens)} tokens for {len(tags)} {'ids' if holds_ids else 'tags'}; expected "
                "tokens aligned with the tags, one token per tag",
                "tokens",
                sentence,
            )
        if holds_ids:
            sentence_tokens = tuple(
                token for token, value in zip(sentence_tokens, tags) if not _is_ignored(value, ignore_index)
            )
        kept.append(sentence_tokens)
    return tuple(kept)


def _is_ignored(value: Any, ignore_index: int) -> bool:
    # As `batches.ids_to_tags` drops a position: an integer id equal to ignore_index.
    return is_id(value) and value == ignore_index
