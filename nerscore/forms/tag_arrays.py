"""The array path for tags and ids: the readable path's table of pairs, made on whole chunks of sentences at once.

Why: the readable path takes a few Python steps per tag; a batch of 20,000 sentences of 20 tokens is 400,000 of
them. This path turns every tag into a small integer code in one C-level pass, then decodes and pairs whole
chunks of sentences with a handful of numpy operations, and sends only entities in a forked overlap chain (one
entity overlapping two) through the exact `pair_overlapping`.

What proves it equal: tests/test_tag_arrays.py compares its table and `Tally` with the readable path's on random
tag soup in every scheme, mode and tag style, with ids, documents and chunk sizes down to one token. On any input
it cannot read (a bad tag, an unknown id), it returns None and the readable path raises the error.
"""

from __future__ import annotations

import numbers
from collections import defaultdict
from collections.abc import Callable
from itertools import chain, count, islice, pairwise
from typing import Any

import numpy as np

from ..decoding import ROLE_FLAGS, decode_roles, tag_table
from ..errors import InvalidInputError
from ..grouping import group_bounds, lengths, owners
from ..options import Options
from ..pairing.rules import SCENARIO_INDEX, Scenario, overlap_kept, pair_overlapping, scenario_of
from ..schemes import TagTable
from ..span import Span
from ..table import reducers
from ..table.columns import NO_COLUMNS, Columns
from ..table.pairs import FlatSpans, Pairs, SentenceFacts
from ..table.reducers import Reduction
from ..tally import Counted, TokenCounts
from .inputs import Batch

# Sentences are scored in chunks of about this many tokens: the arrays of a chunk stay in the processor's
# cache, so time grows linearly with the batch and memory does not grow with it at all. Tallies add. (2**16: 0.8 ms
# more of plain compute's 24 on 20,000 x 20 tags; 2**18: 0.2-0.5 ms less, noisy, for twice the memory.)
_CHUNK_TOKENS = 1 << 17


def count_tags(
    predictions: Batch,
    references: Batch,
    holds_ids: bool,
    options: Options,
    keep_sentences: bool,
    columns: Columns = NO_COLUMNS,
    rows: bool = False,
    sentence_lengths: list[int] | None = None,
) -> Counted | None:
    """The readable path's count (`nerscore.forms.readable.pair_tags`) from the table the arrays make (`tag_pairs`),
    reduced by the same reducers (`nerscore.table.reducers`): the tally, with `keep_sentences` each sentence's counts,
    with `rows` the table and each sentence's `SentenceFacts` (for slices, docs/scoring.md §11); None if the
    input is invalid, so that the readable path raises its precise error, and for `pairing="hipe"`, which the
    readable path pairs (docs/scoring.md §3a). `sentence_lengths`: each sentence's number of tags, where the
    alignment check measured them (`nerscore.forms.batches.measured_batches`)."""
    if options.pairing != "optimal":
        return None
    made = tag_pairs(predictions, references, holds_ids, options, rows and bool(options.slices), sentence_lengths)
    if made is None:
        return None
    pairs, tokens, facts = made
    slice_input = (pairs, facts or SentenceFacts(len(references))) if rows else None
    return reducers.counted(Reduction(pairs, options, columns), tokens, keep_sentences, slice_input)


def tag_pairs(
    predictions: Batch,
    references: Batch,
    holds_ids: bool,
    options: Options,
    facts: bool = False,
    sentence_lengths: list[int] | None = None,
) -> tuple[Pairs, TokenCounts, SentenceFacts | None] | None:
    """The table of pairs of a batch of tags or ids, decoded and paired on arrays chunk by chunk of sentences,
    its token counts (`token_accuracy`) and with `facts` each sentence's length and tokens whose tags are equal;
    None if the input is invalid. `sentence_lengths`, each sentence's number of tags if known (measuring them
    again took 0.6 ms of a 30 ms call on 20,000 sentences)."""
    measured = lengths(references) if sentence_lengths is None else _length_array(sentence_lengths)
    offsets = group_bounds(measured)
    bounds = chunk_bounds(offsets, _CHUNK_TOKENS)
    table = tag_table(options)  # `labels` applied: a tag of a type left out reads as O
    labels = options.label_list
    codes = _CodeBook(table, list(labels.values()) if holds_ids and labels is not None else None)
    tokens = TokenCounts()
    parts: list[Pairs] = []
    lengths_parts: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    equal_parts: list[np.ndarray] = [np.zeros(0, dtype=np.int64)]
    for first, last in pairwise(bounds):
        if first == last:
            continue
        chunk = (predictions[first:last], references[first:last], offsets[first : last + 1] - offsets[first])
        made = _chunk_pairs(*chunk, holds_ids, options, codes, facts, sentence_lengths is not None)
        if made is None:
            return None
        chunk_pairs, chunk_tokens, chunk_facts = made
        parts.append(chunk_pairs.renumbered(chunk_pairs.sentence + first))
        tokens += chunk_tokens
        if chunk_facts is not None:
            lengths_parts.append(chunk_facts[0])
            equal_parts.append(chunk_facts[1])
    pairs = Pairs.joined(parts, list(filter(None, codes.type_ids)), len(references))
    sentence_facts = None
    if facts:
        sentence_facts = SentenceFacts(len(references), np.concatenate(lengths_parts), np.concatenate(equal_parts))
    return pairs, tokens, sentence_facts


def _length_array(sentence_lengths: list[int]) -> np.ndarray:
    """The lengths as bytes while every sentence is under 256 tags (20,000: 0.03 ms; `np.fromiter`, 0.2)."""
    try:
        return np.frombuffer(bytearray(sentence_lengths), dtype=np.uint8)
    except ValueError:  # a sentence of 256 tags or more
        return np.fromiter(sentence_lengths, dtype=np.int64, count=len(sentence_lengths))


def chunk_bounds(offsets: np.ndarray, limit: int) -> list[int]:
    """The first sentence of each chunk, then the number of sentences, for sentences whose items (tokens, entities)
    start at `offsets` (0 first, their total last): a chunk ends with the sentence crossing each multiple of `limit`,
    but for the last multiple when fewer than a quarter of `limit` follow it (those join the chunk before: a chunk
    costs about 0.15 ms whatever its size, 20,000 x 20 tags' fourth chunk held 6,800 tokens)."""
    multiples = np.arange(limit, offsets[-1], limit)
    if len(multiples) and offsets[-1] - multiples[-1] < limit // 4:
        multiples = multiples[:-1]
    cuts = np.searchsorted(offsets[1:], multiples) + 1
    # sorted(set()), not np.unique: numpy 2's unique imports numpy.ma when first called (8 ms of the command line)
    return [0, *sorted(set(cuts.tolist())), len(offsets) - 1]


class _CodeBook:
    """One call's tag -> code table, and each code's role flags and type id, kept across its chunks, so that each
    distinct tag is numbered and parsed once per call whatever the number of chunks (issue 16). It starts from
    the codes of earlier calls (`_known_codes`, kept while they are at most 256); its dict numbers the new tags
    of a chunk as `_tag_codes`' look-up meets them."""

    def __init__(self, table: TagTable, label_list_tags: list[Any] | None = None) -> None:
        self.table = table
        # With ids, a code is the id's position in label_list: the same in every chunk, and no tag is looked up.
        # A dict that numbers a tag as it is first looked up looks the others up as fast as a plain dict (this
        # replaced a plain dict copied from it after each chunk of new tags: 40,000 new tags, 5 ms a call).
        self.codes: dict[Any, int] = (
            defaultdict(count(len(_known_codes)).__next__, _known_codes) if label_list_tags is None else {}
        )
        self.tags: list[Any] = list(_known_codes) if label_list_tags is None else label_list_tags
        # Codes numbered before this call's look-ups (the earlier calls' or label_list's), which a call may not use;
        # every later code was numbered by a look-up of this call, in the chunk that first used it.
        self.known = len(self.tags)
        # type -> id, numbered in the order first met (B-X and I-X share one) by one C-level look-up; O's is -1.
        self.type_ids: dict[str | None, int] = defaultdict(count().__next__, {None: -1})
        self.role_of = np.zeros(len(self.tags) + 1, dtype=np.int8)
        self.type_of = np.full(len(self.tags) + 1, -1, dtype=np.int32)
        self.parsed = np.zeros(len(self.tags) + 1, dtype=bool)
        self.byte_tables: tuple[bytes, bytes] | None = None  # role_of and type_of for `bytes.translate`

    def sync(self) -> None:
        """Take in the tags the look-ups numbered, in the order of their codes (the dict's own order)."""
        global _known_codes
        grow = len(self.codes) - len(self.tags)
        if not grow:
            return
        added = list(islice(reversed(self.codes), grow))  # the last `grow` numbered, without walking the others
        added.reverse()
        self.tags.extend(added)
        if len(self.codes) <= 256:
            _known_codes = dict(self.codes)  # a few tags: the next call finds them numbered
        self.role_of = np.concatenate((self.role_of, np.zeros(grow, dtype=np.int8)))
        self.type_of = np.concatenate((self.type_of, np.full(grow, -1, dtype=np.int32)))
        self.parsed = np.concatenate((self.parsed, np.zeros(grow, dtype=bool)))
        self.byte_tables = None

    def roles_and_types(self, side: np.ndarray) -> tuple[np.ndarray, Callable[[np.ndarray], np.ndarray]]:
        """Each token's `ROLE_FLAGS`, and the type ids at given positions (only entity tokens' are read), from the
        codes. Byte codes are translated by byte tables (`bytes.translate`: `take` widens every code to an index,
        and decoding compares bytes faster) while every type id fits in a byte beside O's 255; other codes by `take`
        (1.8x as fast as indexing), O's type -1. Both give the same ids to every type."""
        if side.dtype != np.uint8 or len(self.type_ids) > 256:  # (type_ids holds None too)
            return self.role_of.take(side), lambda at: self.type_of.take(side[at])
        if self.byte_tables is None:  # made again after `sync` or `parse` changed the flags or types
            self.byte_tables = (_byte_table(self.role_of), _byte_table(self.type_of))
        role_table, type_table = self.byte_tables
        return np.frombuffer(side.tobytes().translate(role_table), np.int8), lambda at: np.frombuffer(
            side[at].tobytes().translate(type_table), np.uint8
        )

    def parse_used(self, sides: tuple[np.ndarray, ...]) -> bool:
        """Parse the tags of the unparsed codes `sides` (a chunk's codes) use; False if one is not the scheme's. The
        codes this chunk's look-ups numbered are all used: only those numbered before the call are looked for."""
        used = ~self.parsed
        used[-1] = False
        known = self.known
        if not self.parsed[:known].all():
            used[:known] = False
            if all(side.dtype == np.uint8 for side in sides):
                # Byte codes: each of the few codes waiting looked for in the bytes (a C-level search that stops
                # at the first), not every token's code marked (0.4 ms of plain compute on 20,000 x 20 tags).
                coded = [side.tobytes() for side in sides]
                for code in np.flatnonzero(~self.parsed[:known]).tolist():
                    used[code] = any(bytes((code,)) in side for side in coded)
            else:  # only the waiting codes' range gathered, not O's tokens (most): 1 ms of 100,000 types
                low, high = np.flatnonzero(~self.parsed[:known])[[0, -1]]
                for side in sides:
                    used[side[(side >= low) & (side <= high)]] = True
        return self.parse(used)

    def parse(self, used: np.ndarray) -> bool:
        """Parse the tags of the `used` codes not parsed yet; False if one is not a tag of the scheme."""
        new = np.flatnonzero(used & ~self.parsed[: len(used)])  # an array: numpy indexes with a list slowly
        if not len(new):
            return True
        first, last = int(new[0]), int(new[-1]) + 1
        # The tags of a chunk's new codes are one run of the list: a slice, not a look-up each.
        tags = self.tags[first:last] if last - first == len(new) else list(map(self.tags.__getitem__, new.tolist()))
        try:
            flags, entity_types = self.table.roles_and_types(tags, ROLE_FLAGS)
        except (InvalidInputError, TypeError):
            return False
        self.role_of[new] = np.frombuffer(bytes(flags), dtype=np.int8)  # (every flag below 8)
        self.type_of[new] = np.fromiter(map(self.type_ids.__getitem__, entity_types), dtype=np.int32, count=len(new))
        self.parsed[new] = True
        self.byte_tables = None
        return True


def _byte_table(values: np.ndarray) -> bytes:
    """The first 256 values as bytes (-1 as 255), zeros after them: a table for `bytes.translate`."""
    table = np.zeros(256, dtype=np.uint8)
    kept = values[:256]
    table[: len(kept)] = kept.astype(np.uint8)
    return table.tobytes()


def _chunk_pairs(
    predictions: Batch,
    references: Batch,
    offsets: np.ndarray,
    holds_ids: bool,
    options: Options,
    codes: _CodeBook,
    facts: bool = False,
    aligned: bool = False,
) -> tuple[Pairs, TokenCounts, tuple[np.ndarray, np.ndarray] | None] | None:
    """The table of one chunk (chunk-local sentences), all its sentences decoded and paired with a handful of
    array operations, its token counts (`token_accuracy`), and with `facts` each sentence's length and tokens
    whose tags are equal. `aligned`: both sides are known to hold `offsets[-1]` tags (measured by the alignment
    check)."""
    if holds_ids:
        by_id = _id_codes(predictions, references, offsets, options)
        if by_id is None:
            return None
        codes_p, codes_r, offsets, _ = by_id
    else:
        by_tag = _tag_codes(predictions, references, codes, int(offsets[-1]) if aligned else -1)
        if by_tag is None:
            return None
        codes_p, codes_r = by_tag
    equal = _equal_tags(codes_p, codes_r, codes.tags if holds_ids else None)
    tokens = TokenCounts(len(codes_r), int(np.count_nonzero(equal)))
    # Marking the codes a chunk uses touches every tag (5 % of plain compute): once every code is parsed (a later
    # chunk that met no new tag), `parse` would have nothing to do.
    if not codes.parsed[:-1].all() and not codes.parse_used((codes_p, codes_r)):
        return None
    spans = []
    for side in (codes_r, codes_p):
        start, end, type_id = decode_roles(*codes.roles_and_types(side), offsets, options.mode, options.scheme)
        spans.append(FlatSpans(start, end, type_id.astype(np.int32, copy=False)))
    groups = pair_flat(spans[0], spans[1], options.min_overlap, int(offsets[-1]))  # (no span past the chunk's end)
    (kinds, r_types, p_types, *extents), first_position = joined_rows(groups)
    # A row's sentence is that of its first token (empty sentences hold none): looked up in a token -> sentence
    # table, 2x as fast as a binary search in the offsets per row; int32 halves the table's memory.
    token_sentence = owners(np.diff(offsets), np.int32)
    sentence = token_sentence[first_position].astype(np.int64)
    base = offsets[sentence]
    # Extents within their sentence, -1 kept for no entity: in place, as the columns are this chunk's own.
    for column in extents:
        np.subtract(column, base, out=column, where=column >= 0)
    pairs = Pairs.of_columns([sentence, kinds, r_types, p_types, *extents], (), len(offsets) - 1)
    if not facts:
        return pairs, tokens, None
    # Each sentence's tokens with equal tags summed over its run of tokens (`reduceat`: a selection of the tokens
    # whose tags differ, scattered, cost 2-3x as much), past one 0 that the offsets may point at; an empty
    # sentence, whose run `reduceat` reads as the token at its offset, has none.
    counted = np.zeros(len(equal) + 1, dtype=np.uint8)
    counted[:-1] = equal
    lengths = np.diff(offsets).astype(np.int64)
    same = np.add.reduceat(counted, offsets[:-1], dtype=np.int64)
    same[lengths == 0] = 0
    return pairs, tokens, (lengths, same)


def _equal_tags(codes_p: np.ndarray, codes_r: np.ndarray, label_tags: list | None) -> np.ndarray:
    """Which tokens' two tags are equal (`token_accuracy`, docs/scoring.md §7). A tag's code is the tag's own,
    but ids are coded by their place in `label_list` (`label_tags`), where two ids may name one tag: those are
    equal."""
    if label_tags is not None and len(set(label_tags)) < len(label_tags):
        first: dict[Any, int] = {}
        same = np.array([first.setdefault(tag, code) for code, tag in enumerate(label_tags)], dtype=np.int64)
        codes_p, codes_r = same[codes_p], same[codes_r]
    return codes_p == codes_r


# tag -> code for the tags met so far, kept across calls: an evaluation loop scores the same few tags again
# and again, and one byte per tag holds their codes from the first chunk on.
_known_codes: dict[Any, int] = {}


def _tag_codes(
    predictions: Batch, references: Batch, book: _CodeBook, size: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """The code of every tag of each side (`size` tags a side; -1: not known), in order; None for an unhashable
    value. Tags not in `book` yet get their codes there.

    This is the one step that touches every tag, so it stays in C: `map` over the dict's own look-up, into
    one byte per tag while there are at most 256 distinct tags, which numpy takes as it is (turning Python
    ints into an array costs more than the look-ups; benchmarks/run.py)."""
    try:
        arrays = [_code_array(book.codes, batch, size) for batch in (predictions, references)]
    except (TypeError, RecursionError):  # unhashable, or equal tuples too deep to compare: the readable path says
        return None
    book.sync()
    return arrays[0], arrays[1]


def _code_array(codes: dict[Any, int], batch: Batch, size: int) -> np.ndarray:
    if len(codes) <= 256:
        try:
            return np.frombuffer(bytearray(map(codes.__getitem__, chain.from_iterable(batch))), dtype=np.uint8)
        except ValueError:  # a code above 255: more than 256 distinct tags in this call; those met keep theirs
            pass
    # Its size given, the array is allocated once, not grown as the codes come (1.5 ms a side of 400,000 tags).
    # In numpy's index type, which `take` reads as it is: int32 codes were widened by every `take` (the role's
    # and the type's of each side), fresh memory mapped for each chunk, 1 to 2 ms of a call with 100,000 types.
    return np.fromiter(map(codes.__getitem__, chain.from_iterable(batch)), dtype=np.intp, count=size)


def _id_codes(
    predictions: Batch, references: Batch, offsets: np.ndarray, options: Options
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list] | None:
    """Integer ids as codes (their position in `label_list`), with the `ignore_index` positions dropped, which
    moves the sentence offsets; None for anything the readable path must explain (an unknown id)."""
    labels = options.label_list
    if labels is None:
        return None
    try:
        ids = np.fromiter(labels, dtype=np.int64, count=len(labels))
    except OverflowError:  # an id no int64 holds
        return None
    ids_p, ids_r = (_flat_ids(batch, int(offsets[-1])) for batch in (predictions, references))
    if ids_p is None or ids_r is None:
        return None
    kept = ids_r != options.ignore_index
    ids_p, ids_r = ids_p[kept], ids_r[kept]
    offsets = group_bounds(kept)[offsets]
    # Ids to codes by binary search in the sorted ids: time and memory follow the input and label_list, not
    # the size of the id values (a table indexed by id would take gigabytes for an id of 10**9).
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    codes = []
    for side in (ids_p, ids_r):
        where = np.searchsorted(sorted_ids, side).clip(0, max(len(ids) - 1, 0))
        if side.size and (not ids.size or not np.array_equal(sorted_ids[where], side)):
            return None
        codes.append(order[where] if ids.size else where)
    return codes[0], codes[1], offsets, list(labels.values())


def _flat_ids(batch: list[list] | np.ndarray, size: int) -> np.ndarray | None:
    """All ids of a batch in one int64 array; None if any value is not an integer id that int64 holds."""
    if isinstance(batch, np.ndarray):
        if batch.dtype == np.uint64 and batch.size and batch.max() > np.iinfo(np.int64).max:
            return None  # it would wrap around to a negative id, even to ignore_index
        return batch.reshape(-1).astype(np.int64, copy=False)
    kinds = set(map(type, chain.from_iterable(batch)))
    if not all(issubclass(kind, numbers.Integral) and kind is not bool for kind in kinds):
        return None  # np.fromiter would truncate 1.5 to 1: floats, strings and bools go the readable way
    try:
        return np.fromiter(chain.from_iterable(batch), dtype=np.int64, count=size)
    except (OverflowError, ValueError):
        return None


# Rows of a pairing as parallel columns, as `Pairs` holds them but for the sentence: scenario index, reference
# type id, predicted type id (-1 for no entity), reference start and end, prediction start and end (-1 on an
# unpaired side), positions counted from the batch's start.
PairColumns = tuple[np.ndarray, ...]


def pair_flat(
    references: FlatSpans, predictions: FlatSpans, min_overlap: float | None = None, tokens: int | None = None
) -> list[PairColumns]:
    """`pair` for a whole batch of sorted, disjoint spans: every sentence's rows (`PairColumns`), in groups; a row's
    first position (the reference's start, else the prediction's) places it in its sentence.

    Identical boundaries, entities that overlap nothing and one-to-one overlaps are resolved with array
    operations; only entities in a chain with a fork (one entity overlapping two) go through the exact
    `pair_overlapping`, which is linear and never crosses a sentence (spans do not). With `min_overlap`, a
    one-to-one overlap below it is a miss and a spurious entity; a fork is left to `pair_overlapping`, which
    drops the edges below it (docs/scoring.md §3: a subset of the overlaps never crosses). `tokens`: no end past it."""
    none = np.int64(-1)
    groups: list[PairColumns] = []

    def add(kind: Any, reference: FlatSpans | None, prediction: FlatSpans | None) -> None:
        """Rows of scenario `kind` (one, or one a row) pairing `reference`'s spans with `prediction`'s, a side
        None for unpaired entities."""
        count = len(reference.start if reference is not None else prediction.start)  # type: ignore[union-attr]
        absent = (np.full(count, none),) * 3
        r_type, r_start, r_end = absent if reference is None else (reference.type_id, reference.start, reference.end)
        p_type, p_start, p_end = (
            absent if prediction is None else (prediction.type_id, prediction.start, prediction.end)
        )
        kinds = np.asarray(kind) if np.ndim(kind) else np.full(count, kind)
        groups.append((kinds, r_type, p_type, r_start, r_end, p_start, p_end))

    # Identical boundaries: each side's start * width + end rises strictly (sorted, disjoint spans), so a binary
    # search of the references' in the predictions' finds them, in order on both sides, as `np.intersect1d` does
    # (which sorts both sides together first: 0.3 ms more a call on 20,000 x 20 tags).
    if tokens is not None:
        # A chunk's tags: a prediction looked up by its first token (no two start at one), 0.2 ms less a call.
        by_start = np.full(tokens + 1, len(predictions.start), dtype=np.intp)
        by_start[predictions.start] = np.arange(len(predictions.start))
        found = by_start[references.start]
        exact_r = np.flatnonzero(np.append(predictions.end, -1)[found] == references.end)
    else:
        width = int(max(references.end.max(initial=0), predictions.end.max(initial=0))) + 1
        key_r = references.start * width + references.end
        key_p = predictions.start * width + predictions.end
        found = np.searchsorted(key_p, key_r).clip(max=max(len(key_p) - 1, 0))
        exact_r = np.flatnonzero(key_p[found] == key_r) if len(key_p) else np.zeros(0, dtype=np.intp)
    exact_p = found[exact_r]
    same_r, same_p = references.select(exact_r), predictions.select(exact_p)
    add(np.where(same_r.type_id == same_p.type_id, Scenario.I, Scenario.IV), same_r, same_p)

    left_r = np.ones(len(references.start), dtype=bool)
    left_r[exact_r] = False
    left_p = np.ones(len(predictions.start), dtype=bool)
    left_p[exact_p] = False
    # Masks as positions, found once for three columns (a selection by a scattered mask scans it: 0.3 ms a call).
    rest_r, rest_p = references.select(np.flatnonzero(left_r)), predictions.select(np.flatnonzero(left_p))
    # Spans on one side are sorted and disjoint: the overlapping ones on the other side form one run.
    r_first = np.searchsorted(rest_p.end, rest_r.start, side="right")
    r_degree = np.searchsorted(rest_p.start, rest_r.end, side="left") - r_first
    p_first = np.searchsorted(rest_r.end, rest_p.start, side="right")
    p_degree = np.searchsorted(rest_r.start, rest_p.end, side="left") - p_first

    missed = r_degree == 0
    spurious = p_degree == 0
    add(Scenario.III, rest_r.select(np.flatnonzero(missed)), None)
    add(Scenario.II, None, rest_p.select(np.flatnonzero(spurious)))
    partner = np.minimum(r_first, max(len(rest_p.start) - 1, 0))
    simple = (r_degree == 1) & (p_degree[partner] == 1) if len(rest_p.start) else np.zeros_like(missed)
    below = np.zeros_like(simple)
    if min_overlap is not None and simple.any():
        # One-to-one overlaps whose shared extent is below min_overlap of the reference's length: no pair.
        starts_r, ends_r = rest_r.start[simple], rest_r.end[simple]
        starts_p, ends_p = rest_p.start[partner[simple]], rest_p.end[partner[simple]]
        shared = np.minimum(ends_r, ends_p) - np.maximum(starts_r, starts_p)
        below[simple] = ~overlap_kept(shared, ends_r - starts_r, min_overlap)
        simple &= ~below
        unpaired_p = partner[below]
        add(Scenario.III, rest_r.select(below), None)
        add(Scenario.II, None, rest_p.select(unpaired_p))
        spurious[unpaired_p] = True  # settled: not part of a fork
    simple_at = np.flatnonzero(simple)
    simple_r, simple_p = rest_r.select(simple_at), rest_p.select(partner[simple_at])
    add(np.where(simple_r.type_id == simple_p.type_id, Scenario.V, Scenario.VI), simple_r, simple_p)

    forked_r = ~missed & ~simple & ~below
    forked_p = ~spurious
    forked_p[partner[simple_at]] = False
    if forked_r.any() or forked_p.any():
        chain_r, chain_p = id_spans(rest_r.select(forked_r)), id_spans(rest_p.select(forked_p))
        paired = pair_overlapping(chain_r, chain_p, min_overlap)
        taken_r = {r.start for r, _ in paired}
        taken_p = {p.start for _, p in paired}
        rows: list[tuple[Any, ...]] = [
            (SCENARIO_INDEX[scenario_of(r, p)], r.entity_type, p.entity_type, r.start, r.end, p.start, p.end)
            for r, p in paired
        ]
        rows += [
            (Scenario.III, r.entity_type, none, r.start, r.end, none, none) for r in chain_r if r.start not in taken_r
        ]
        rows += [
            (Scenario.II, none, p.entity_type, none, none, p.start, p.end) for p in chain_p if p.start not in taken_p
        ]
        groups.append(tuple(np.array(column, dtype=np.int64) for column in zip(*rows)))
    return groups


def joined_rows(groups: list[PairColumns]) -> tuple[list[np.ndarray], np.ndarray]:
    """The rows of `pair_flat`'s groups joined, column by column (int64, new arrays), and each row's first position
    (its reference's start, else its prediction's), which places it in its sentence."""
    columns = [
        np.concatenate([np.zeros(0, np.int64), *(np.asarray(group[column], np.int64) for group in groups)])
        for column in range(7)
    ]
    return columns, np.where(columns[3] >= 0, columns[3], columns[5])


def id_spans(spans: FlatSpans) -> list[Span]:
    """The spans as `Span`s whose types are their type ids: the exact pairing only compares types, and the ids
    sort as the names do (docs/scoring.md §3 d), so it pairs them as it would pair the names."""
    columns = spans.start.tolist(), spans.end.tolist(), spans.type_id.tolist()
    return [Span(*span) for span in zip(*columns)]
