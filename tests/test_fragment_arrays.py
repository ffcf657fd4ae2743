"""nerscore.forms.fragment_arrays: the array path of discontinuous entities (docs/scoring.md §12) makes the readable
path's table of pairs (`readable.span_rows`, `Pairs.of_rows`) on random fragment sets, nested, overlapping,
touching, unsorted and repeated, on either side or both, with every pairing option; and compute_semeval's result
on every key is the readable path's. Input the arrays do not read goes the readable way."""

from __future__ import annotations

import re
import tracemalloc
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_tag_arrays import assert_same_table, assert_same_tables, in_order, readable

import nerscore as ns
from nerscore import span as span_module
from nerscore.forms import fragment_arrays, fragment_large, fragment_reading, span_arrays
from nerscore.forms import readable as readable_path

SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TYPES = ("PER", "LOC", "MUSIC-NAME")

pieces = st.lists(st.tuples(st.integers(0, 14), st.integers(1, 4)), min_size=1, max_size=4).map(
    lambda drawn: [[start, start + length] for start, length in drawn]
)


@st.composite
def entity(draw: st.DrawFn) -> dict[str, Any]:
    """A span dict: with `fragments` (any order, touching or overlapping ones merge), now and then with its
    extent beside them, or plain; its type under `type`."""
    kind = draw(st.sampled_from(TYPES))
    if draw(st.integers(0, 3)) == 0:
        start = draw(st.integers(0, 14))
        return {"start": start, "end": start + draw(st.integers(1, 5)), "type": kind}
    fragments = draw(pieces)
    form = draw(st.integers(0, 5))  # now and then tuples, which the general reading reads
    written: dict[str, Any] = {
        "fragments": [tuple(p) for p in fragments] if form == 0 else tuple(fragments) if form == 1 else fragments,
        "type": kind,
    }
    if draw(st.integers(0, 4)) == 0:
        written["start"] = min(a for a, _ in fragments)
        written["end"] = max(b for _, b in fragments)
    return written


@st.composite
def side(draw: st.DrawFn) -> list[dict[str, Any]]:
    entities = draw(st.lists(entity(), max_size=5))
    if entities and draw(st.booleans()):  # copies
        entities += draw(st.lists(st.sampled_from(entities), max_size=3))
    return entities


def contiguous(entity: dict[str, Any]) -> dict[str, Any]:
    """A span dict of the entity's first fragment."""
    if "fragments" not in entity:
        return entity
    start, end = entity["fragments"][0]
    return {"start": start, "end": end, "type": entity["type"]}


@st.composite
def batches(draw: st.DrawFn) -> tuple[list[list], list[list]]:
    """Sentences of fragments, and now and then of contiguous spans only (which the spans' arrays pair)."""
    sentences = draw(st.lists(st.tuples(side(), side(), st.booleans()), max_size=5))
    sentences = [
        (p, r) if fragmented else ([*map(contiguous, p)], [*map(contiguous, r)]) for p, r, fragmented in sentences
    ]
    return [p for p, _ in sentences], [r for _, r in sentences]


OPTIONS = st.fixed_dictionaries(
    {
        "min_overlap": st.sampled_from([None, 0.25, 0.5, 2 / 3, 1.0]),
        "labels": st.one_of(st.none(), st.lists(st.sampled_from([*TYPES, "ABSENT"]), min_size=1)),
        "value": st.sampled_from([True, "ace08", {"type_error": 0.25, "min_overlap": 0.5}]),
    }
)


def discontinuous(batch: list[list]) -> bool:
    return any(len(ns.as_span(e).fragments) > 1 for sentence in batch for e in sentence)


@pytest.mark.slow  # (1-2 s: the quick profile stays under 3 minutes; the full suite runs it)
@SETTINGS
@given(
    batch=batches(),
    options=OPTIONS,
    padded=st.sampled_from([1, 2, span_module.PADDED_FRAGMENTS]),
    packed=st.booleans(),
    block=st.sampled_from([1, 2, span_arrays._BLOCK_ENTITIES]),
    chunk=st.sampled_from([1, 3, fragment_arrays._FRAGMENT_PAIRS_AT_ONCE]),
)
def test_fragment_tables_are_the_readable_tables(batch, options, padded, packed, block, chunk) -> None:
    # `padded`: entities of more fragments are ordered by Python's comparison of their tuples; without `packed`,
    # by a lexsort of their fragments' bounds rather than one integer an entity. `block`: each side read in
    # blocks of sentences of about that many entities, some of fragments, some of spans. `chunk`: the pairs of
    # fragments that meet listed that many at a time (or one reference's), summed into pairs of entities as they come.
    predictions, references = batch
    checked = ns.Options.of(**options)
    keys = {"wraps": span_module.packed_keys} if packed else {"return_value": None}
    with (
        mock.patch.object(span_module, "PADDED_FRAGMENTS", padded),
        mock.patch.object(span_module, "packed_keys", **keys),
        mock.patch.object(span_arrays, "_BLOCK_ENTITIES", block),
        mock.patch.object(fragment_arrays, "_FRAGMENT_PAIRS_AT_ONCE", chunk),
    ):
        table = span_arrays.span_pairs(predictions, references, checked)
    assert table is not None, "valid span dicts take the arrays"
    rows = readable_path.span_rows(predictions, references, checked)
    assert_same_tables(table, rows, len(references), checked)
    expected = readable_path.reduction(rows, len(references), checked).pairs
    assert table.fragmented == expected.fragmented
    # Without the fragments (for the tally alone): the same rows.
    bare = span_arrays.span_pairs(predictions, references, checked, fragments=False)
    assert bare is not None and not bare.fragmented
    assert_same_table(bare, table)
    assert [list(column) for column in in_order(table).fragment_columns()] == [
        list(column) for column in in_order(expected.renamed(table.type_names)).fragment_columns()
    ]


# The two paths that pair large sentences on arrays, each given every sentence it can take: `large_amounts`
# (scipy's matching on the listed pairs' digits) every component of two edges or more, `fragment_large` (the
# pairs never listed) every sentence of one copy of each entity with an overlap.
ROUTES = {
    "large": {"LARGE_COMPONENT_EDGES": 0},
    "dense": {"LEAST_CELLS": 1, "_DENSE_SHARE": 10**9},
}


def routed(route: str) -> Any:
    from contextlib import ExitStack

    from nerscore.forms import fragment_large
    from nerscore.pairing import rules

    stack = ExitStack()
    for name, value in ROUTES[route].items():
        stack.enter_context(mock.patch.object(rules if route == "large" else fragment_large, name, value))
    return stack


near = st.lists(st.tuples(st.integers(0, 9), st.integers(1, 4)), min_size=1, max_size=3).map(
    lambda drawn: [[start, start + length] for start, length in drawn]
)


@st.composite
def crowded(draw: st.DrawFn) -> tuple[list[list], list[list]]:
    """One sentence of many entities on few positions (most overlap most, as in an onion), of two types, some of
    a reference's fragments found on a prediction of the other type (identical boundaries), now and then copies
    (the large route takes them one by one, the dense one leaves them to the listed pairs)."""
    references, predictions = (
        [{"fragments": draw(near), "type": draw(st.sampled_from("AB"))} for _ in range(draw(st.integers(2, 7)))]
        for _ in range(2)
    )
    for entity in draw(st.lists(st.sampled_from(references), max_size=3)):
        predictions.append({"fragments": entity["fragments"], "type": "B" if entity["type"] == "A" else "A"})
    if draw(st.integers(0, 3)) == 0:
        references += draw(st.lists(st.sampled_from(references), max_size=2))
    return [predictions], [references]


@pytest.mark.slow  # (1-2 s: the quick profile stays under 3 minutes; the full suite runs it)
@settings(SETTINGS, max_examples=400)
@given(batch=st.one_of(crowded(), batches()), options=OPTIONS, route=st.sampled_from(sorted(ROUTES)))
def test_large_and_dense_sentences_on_arrays_are_the_readable_tables(batch, options, route) -> None:
    # The readable path pairs discontinuous entities by `best_flow`'s exact flow whatever their number: the
    # definition these two are proven equal to (docs/scoring.md §12, issue 31).
    predictions, references = batch
    checked = ns.Options.of(**options)
    with routed(route):
        table = span_arrays.span_pairs(predictions, references, checked)
    assert table is not None
    assert_same_tables(table, readable_path.span_rows(predictions, references, checked), len(references), checked)


@pytest.mark.parametrize("route", sorted(ROUTES))
def test_each_route_pairs_the_fragments_it_is_given(route) -> None:
    # A test of the two routes that never takes them proves nothing: here each pairs a sentence of fragments,
    # whose weights (three pairs of one type, identical boundaries, rule (d)'s tie) only §12's units give.
    from nerscore.forms import fragment_large

    references = [[{"fragments": [[0, 2], [6, 8]], "type": "A"}, {"fragments": [[1, 3], [5, 9]], "type": "A"}]]
    references[0] += [{"fragments": [[0, 4], [7, 8]], "type": "B"}, {"start": 0, "end": 9, "type": "B"}]
    predictions = [[{"fragments": [[1, 2], [6, 8]], "type": "A"}, {"fragments": [[0, 4], [7, 8]], "type": "A"}]]
    predictions[0] += [{"fragments": [[0, 3], [6, 9]], "type": "B"}, {"start": 2, "end": 7, "type": "A"}]
    solvers = {"large": (fragment_large, "large_amounts"), "dense": (fragment_large, "dense_sentence")}
    module, name = solvers[route]
    real, answers = getattr(module, name), []

    def solver(*args: Any) -> Any:
        answers.append(real(*args))
        return answers[-1]

    checked = ns.Options.of(value=True)
    with routed(route), mock.patch.object(module, name, solver):
        table = span_arrays.span_pairs(predictions, references, checked)
    assert table is not None and answers and all(answer is not None for answer in answers)
    assert_same_tables(table, readable_path.span_rows(predictions, references, checked), 1, checked)


@SETTINGS
@given(batch=batches(), block=st.integers(1, 6), stored=st.booleans())
def test_a_side_read_in_blocks_is_the_side_read_at_once(batch, block, stored) -> None:
    # Blocks of fragments and of spans joined, types numbered in order of first appearance across the blocks;
    # `stored`: every entity with `fragments`, None where contiguous, as evaluate stores them.
    for side in batch:
        if stored:
            side = [[{"fragments": None, **entity} for entity in sentence] for sentence in side]
        whole = span_arrays._block_values(side, np.array([len(sentence) for sentence in side], np.int64), set())
        with mock.patch.object(span_arrays, "_BLOCK_ENTITIES", block):
            blocked = span_arrays._side_values(side)
        if whole is None:
            assert blocked is None
            continue
        assert blocked is not None and type(blocked) is type(whole)
        assert blocked.type_names == whole.type_names
        for name in ("start", "end", "type_id", "counts", *(("pieces",) if hasattr(whole, "pieces") else ())):
            assert getattr(blocked, name).tolist() == getattr(whole, name).tolist()


EVERY_KEY = [
    {},  # the tally alone: a table without the fragments (`span_arrays._reads_extents`)
    {"bootstrap": 20, "seed": 2, "per_type": True},
    {"return_entities": True, "per_type": True, "confusion": True},
    {"min_overlap": 0.5, "diagnostics": True, "errors": True},
    {"partial_credit": "overlap", "diagnostics": True, "return_entities": True},
    {"slices": ["entity_length", "seen", "sentence_length", "entity_density"], "seen": ["abc"], "errors": True},
    {"value": "ace08", "return_entities": True},
    {"bootstrap": 20, "seed": 1, "partial_credit": "overlap"},
    {"labels": ["PER"], "diagnostics": True, "return_entities": True},
]


@SETTINGS
@given(batch=batches(), options=st.sampled_from(EVERY_KEY))
def test_compute_semeval_on_the_arrays_equals_the_readable_path_on_every_key(batch, options) -> None:
    predictions, references = batch
    texts = ["abcdefghijklmnopqrstuvwxyz"] * len(references)
    result = ns.compute_semeval(predictions=predictions, references=references, texts=texts, **options)
    with mock.patch.object(span_arrays, "fragment_pairs", return_value=None):  # the readable path
        expected = ns.compute_semeval(predictions=predictions, references=references, texts=texts, **options)
    assert result == expected


def test_the_arrays_pair_a_batch_of_fragments_without_the_readable_path() -> None:
    references = [[{"fragments": [[0, 2], [5, 7]], "type": "ADR"}, {"start": 8, "end": 9, "type": "Drug"}]]
    predictions = [[{"fragments": [[0, 2], [5, 6]], "type": "ADR"}, {"fragments": [[8, 9]], "type": "Drug"}]]
    with mock.patch.object(readable_path, "pair", side_effect=AssertionError("the readable path")):
        result = ns.compute_semeval(predictions=predictions, references=references, diagnostics=True)
    assert (result["strict_correct"], result["strict_incorrect"], result["boundary_too_short"]) == (1, 1, 1)


@pytest.mark.parametrize(
    "predictions",
    [
        pytest.param([[{"fragments": [[0, 2], [4, 5]], "type": "X"}, (6, 7, "X")]], id="dicts-and-tuples"),
        pytest.param([[{"fragments": [[0, 2], [4, 5.0]], "type": "X"}]], id="float-bound"),
        pytest.param([[{"fragments": [[0, 2], [4, True]], "type": "X"}]], id="bool-bound"),
        pytest.param([[{"fragments": [[0, 2], [4, 2**64]], "type": "X"}]], id="past-int64"),
        pytest.param([[{"fragments": [[0, 2], [4, 4]], "type": "X"}]], id="empty-fragment"),
        pytest.param([[{"fragments": [], "type": "X"}]], id="no-fragment"),
        pytest.param([[{"fragments": [[0, 2, 3]], "type": "X"}]], id="not-a-pair"),
        pytest.param([[{"fragments": [[0, 2], [4, 5]], "type": "X", "end": 4}]], id="end-beside-not-the-extent"),
        pytest.param(
            [[{"fragments": [[0, 2], [4, 5]], "label": "X"}, {"start": 6, "end": 7, "label": "X", "type": "Y"}]],
            id="type-key-before-label-in-one-dict",
        ),
        pytest.param([[{"fragments": [[0, 2], [4, 5]], "type": ""}]], id="empty-type"),
        pytest.param([[{"fragments": [[0, 2], [4, 5]]}]], id="no-type"),
        pytest.param([[{"fragments": "0 2", "type": "X"}]], id="fragments-a-string"),
        pytest.param([[{"fragments": [0, 2], "type": "X"}]], id="fragments-one-flat-pair"),
        pytest.param([[{"fragments": [[0, 2], {4, 5}], "type": "X"}]], id="a-fragment-a-set"),
        pytest.param([[{"fragments": [[0, 2], {0: 4, 1: 5}], "type": "X"}]], id="a-fragment-a-dict"),
        pytest.param([[{"fragments": [{0: 4, 1: 5}], "type": "X"}]], id="one-fragment-a-dict"),
        pytest.param([[{"fragments": {0: [0, 2]}, "type": "X"}]], id="fragments-a-dict"),
        pytest.param([[{"fragments": [[0, 2], []], "type": "X"}]], id="an-empty-fragment-list"),
    ],
)
def test_input_the_arrays_do_not_read_goes_the_readable_way(predictions) -> None:
    references = [[{"fragments": [[0, 2], [4, 6]], "type": "X"}]]
    assert span_arrays._side_values(predictions) is None
    try:
        expected = ns.scores(readable(predictions, references))
    except ValueError as error:
        with pytest.raises(ValueError, match=re.escape(str(error))):
            ns.compute_semeval(predictions=predictions, references=references)
        return
    assert ns.compute_semeval(predictions=predictions, references=references) == expected


def test_positions_near_2_63_and_hipe_pairing_go_the_readable_way() -> None:
    near = 2**62
    references = [
        [{"fragments": [[near, near + 2], [near + 4, near + 6]], "type": "X"}],
        [{"fragments": [[0, 2], [near - 2, near]], "type": "X"}],
    ]
    predictions = [
        [{"fragments": [[near, near + 2], [near + 4, near + 5]], "type": "X"}],
        [{"start": 1, "end": 2, "type": "X"}],
    ]
    with mock.patch.object(span_arrays, "_with_discontinuous", return_value=None):
        assert span_arrays.span_pairs(predictions, references, ns.Options.of()) is None
        assert span_arrays.span_pairs(predictions[:1], references[:1], ns.Options.of()) is not None
        assert span_arrays.span_pairs(predictions[:1], references[:1], ns.Options.of(pairing="hipe")) is None
    result = ns.compute_semeval(predictions=predictions, references=references)
    assert (result["strict_incorrect"], result["partial_partial"]) == (2, 2)


@SETTINGS
@given(batch=batches(), tuples=st.booleans(), block=st.sampled_from([1, span_arrays._BLOCK_ENTITIES]))
def test_entity_ends_are_the_extents_ends(batch, tuples, block) -> None:
    # `labels` with `texts` check every entity's end against its text from these (compute.refuse_past_texts).
    side = batch[1]
    if tuples:  # (start, end, type) tuples of the extents
        side = [[(s.start, s.end, s.entity_type) for s in map(ns.as_span, sentence)] for sentence in side]
    with mock.patch.object(span_arrays, "_BLOCK_ENTITIES", block):
        read = span_arrays.entity_ends(side)
    assert read is not None
    ends, counts = read
    assert counts.tolist() == [len(sentence) for sentence in side]
    assert ends.tolist() == [ns.as_span(entity).end for sentence in side for entity in sentence]


def test_shared_units_are_exact_past_2_53() -> None:
    # 2**60 + 255 shared units, which a float sum would round to 2**60 + 256, both entities' units: then "identical
    # boundaries" (scenario IV) where the fragments differ (V).
    big = 2**60
    references = [[{"fragments": [[0, big], [big + 300, big + 556]], "type": "X"}]]
    predictions = [[{"fragments": [[0, big], [big + 300, big + 555], [big + 600, big + 601]], "type": "X"}]]
    options = ns.Options.of(value=True)
    table = span_arrays.span_pairs(predictions, references, options)
    assert table is not None and table.scenario.tolist() == [4]  # V
    assert_same_tables(table, readable_path.span_rows(predictions, references, options), 1, options)


class _Fragments(list):
    """A list subclass, which marshal does not write (the passes read it as a list)."""


# Objects a fragment list, a fragment or a bound may be that the marshalled reading must leave to the passes.
ODD_BOUNDS = [True, False, 1.0, -1, 2**31, 2**31 - 1, 2**63, np.int64(3), "3", "", b"", None]
ODD_FRAGMENTS = [(), [1], [1, 2, 3], {1, 2}, {0: 1, 1: 2}, range(1, 3), "ab", np.array([1, 2]), _Fragments([1, 2])]

bound = st.one_of(st.integers(0, 40), st.sampled_from(ODD_BOUNDS))
fragment = st.one_of(
    st.tuples(bound, bound).flatmap(lambda pair: st.sampled_from([list(pair), pair])),
    st.tuples(st.integers(0, 20), st.integers(1, 3)).map(lambda drawn: [drawn[0], drawn[0] + drawn[1]]),
    st.sampled_from(ODD_FRAGMENTS),
)
fragment_list = st.one_of(
    st.lists(fragment, max_size=4).flatmap(lambda drawn: st.sampled_from([drawn, tuple(drawn), _Fragments(drawn)])),
    st.none(),
    st.sampled_from([[0, 2], "0 2", {0: [0, 2]}]),
)


def passes(entities: list[dict]) -> Any:
    """`fragment_columns` without the marshalled reading: the passes alone."""
    with mock.patch.object(fragment_reading, "marshalled_fragments", return_value=None):
        return fragment_reading.fragment_columns(entities)


def same_columns(read: Any, expected: Any) -> bool:
    """The same starts, ends and numbers of fragments; a number None is one fragment each (`fragment_columns`:
    the passes' general reading, which tuples take, counts ones where the marshalled reading says None)."""
    if read is None or expected is None:
        return read is expected
    (start, end, each), (start_e, end_e, each_e) = read, expected
    ones = np.ones(len(read[0] if each is None else each), np.int64)
    each, each_e = (ones if column is None else column for column in (each, each_e))
    return all(a.tolist() == b.tolist() for a, b in zip((start, end, each), (start_e, end_e, each_e)))


@SETTINGS
@given(held=st.lists(fragment_list, min_size=1, max_size=6), beside=st.booleans())
@example(held=[([0, 1],)], beside=False)  # CI's find: a tuple of one fragment, one each (None) against ones
def test_the_marshalled_reading_reads_what_the_passes_read(held, beside) -> None:
    # Lists and tuples of pairs of ints below 2**31 are read as marshal writes them; bools, floats, numpy
    # integers, larger offsets, subclasses, sets, dicts, strings, None (spans beside) are left to the passes, which
    # read them or refuse them as before: the columns are the passes' in every case.
    entities = [
        {"fragments": fragments, "type": "X", **({"start": 0, "end": 1} if fragments is None or beside else {})}
        for fragments in held
    ]
    marshalled = fragment_reading.marshalled_fragments(held)
    assert same_columns(fragment_reading.fragment_columns(entities), passes(entities))
    if marshalled is not None:
        start, end, pieces = marshalled
        given = [tuple(piece) for fragments in held for piece in fragments]
        assert list(zip(start.tolist(), end.tolist())) == given
        assert (pieces.tolist() if pieces is not None else [1] * len(held)) == [len(f) for f in held]
        assert all(type(b) is int and 0 <= b < 2**31 for piece in given for b in piece)


@pytest.mark.parametrize(
    ("held", "pieces"),
    [
        pytest.param([[[0, 2]], [[5, 7]]], None, id="one-fragment-lists"),
        pytest.param([((0, 2),), [(5, 7)]], None, id="one-fragment-tuples"),
        pytest.param([[[0, 2], [4, 5]], [[5, 7]], [[1, 2], [3, 4], [8, 9]]], [2, 1, 3], id="several"),
        pytest.param([[[0, 2**31 - 1]], [[2**31 - 2, 2**31 - 1]]], None, id="the-largest-offset"),
        pytest.param([[[5, 7], [0, 2]]], [2], id="unsorted-as-given"),
    ],
)
def test_the_marshalled_reading_reads_lists_and_tuples_of_int_pairs(held, pieces) -> None:
    read = fragment_reading.marshalled_fragments(held)
    assert read is not None, "read without the passes"
    assert [list(piece) for fragments in held for piece in fragments] == [
        [a, b] for a, b in zip(read[0].tolist(), read[1].tolist())
    ]
    assert (None if read[2] is None else read[2].tolist()) == pieces


@pytest.mark.parametrize(
    "held",
    [
        pytest.param([[[0, 2]], [[True, 3]]], id="a-bool"),
        pytest.param([[[0, 2]], [[1.0, 3]]], id="a-float"),
        pytest.param([[[0, 2]], [[np.int64(1), 3]]], id="a-numpy-integer"),
        pytest.param([[[0, 2]], [[1, 2**31]]], id="past-2-31"),
        pytest.param([[[0, 2]], [[-1, 3]]], id="negative"),
        pytest.param([[[0, 2]], [[3, 3]]], id="empty-fragment"),
        pytest.param([[[0, 2]], []], id="no-fragment"),
        pytest.param([[[0, 2]], None], id="a-span-beside"),
        pytest.param([[[0, 2]], [[1, 2, 3]]], id="not-a-pair"),
        pytest.param([[[0, 2]], [[[1, 2]]]], id="nested-deeper"),
        pytest.param([[[0, 2]], [{1, 2}]], id="a-set"),
        pytest.param([[[0, 2]], [_Fragments([1, 2])]], id="a-list-subclass"),
        pytest.param([[[0, 2]], [[0, 2], [4]], [[1, 2]]], id="sizes-that-add-up-to-pairs"),
        pytest.param([[[0, 2]], [], [[0, 2], [3, 4]]], id="sizes-that-add-up-to-one-each"),
        pytest.param([[[0, 2]], [[0, ""]]], id="an-empty-string-as-long-as-an-int"),
        pytest.param([[[0, 2]], [[b"", 2]]], id="empty-bytes-as-long-as-an-int"),
        pytest.param([[[0, 2]], {(0, 2)}], id="a-set-of-fragments"),
    ],
)
def test_the_marshalled_reading_leaves_anything_else_to_the_passes(held) -> None:
    assert fragment_reading.marshalled_fragments(held) is None


def test_the_marshalled_reading_never_iterates_what_it_is_given() -> None:
    pairs = iter([[0, 2]])
    assert fragment_reading.marshalled_fragments([[[0, 2]], pairs]) is None
    assert list(pairs) == [[0, 2]]


def _fragmented_onion_peak(entities: int, fragments: int = 4) -> int:
    """The peak memory of scoring an onion of discontinuous entities: `entities` a side, each of `fragments`
    fragments, the i-th reference's fragments [0, i + 1) and the predictions' [i, 2n) in each block of 10n."""
    block = 10 * entities
    references = [
        {"fragments": [[j * block, j * block + i + 1] for j in range(fragments)], "type": "A"} for i in range(entities)
    ]
    predictions = [
        {"fragments": [[j * block + i, j * block + 2 * entities] for j in range(fragments)], "type": "A"}
        for i in range(entities)
    ]
    tracemalloc.start()
    try:
        ns.compute_semeval(predictions=[predictions], references=[references])
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_an_onion_of_discontinuous_entities_costs_what_its_entities_cost() -> None:
    # Red team 2 (issue 31): 400 a side of four fragments each took 12.5 s and 53 MB on the exact flow over every
    # pair listed (memory x4 a doubling); a dense sentence of fragments is now paired without listing its pairs
    # (`fragment_large`), about 0.1 s and 4 MB (benchmarks/growth.py --fragments).
    _fragmented_onion_peak(100)  # (the first call's imports: scipy's solvers, which a smaller onion does not reach)
    assert _fragmented_onion_peak(200) < 3 * _fragmented_onion_peak(100)


def test_shared_types_number_both_sides_in_the_order_of_their_names() -> None:
    # Ids follow the names' order, as rule (d) compares types; `labels` keep the types they list.
    sides = [(["PER", "LOC"], np.array([0, 1, 0])), (["ORG", "PER"], np.array([1, 0]))]
    names, ids, listed = fragment_reading.shared_types(sides, None)
    assert names == ["LOC", "ORG", "PER"] and listed is None
    assert [side.tolist() for side in ids] == [[2, 0, 2], [2, 1]]
    names, ids, listed = fragment_reading.shared_types(sides, ["PER", "MISC"])
    assert listed is not None and listed.tolist() == [False, False, True]
    names, ids, listed = fragment_reading.shared_types([([], np.zeros(0, np.int64))] * 2, ["PER"])
    assert names == [] and [side.tolist() for side in ids] == [[], []]
    assert listed is not None and listed.tolist() == []


def test_units_of_an_entity_are_its_fragments_lengths_added_up() -> None:
    # Entity 0: [0, 2) and [5, 8); entity 1: [10, 13); entity 2 (listed from the middle): [5, 8) and [10, 13).
    start, end = np.array([0, 5, 10]), np.array([2, 8, 13])
    units = fragment_large.units_of(np.array([0, 2, 1]), np.array([2, 1, 2]), start, end)
    assert units.tolist() == [5, 3, 6]
    side = fragment_large.side_of(np.array([0, 0, 1]), np.array([0, 2, 1]), np.array([2, 1, 2]), start, end)
    assert [column.tolist() for column in side[:4]] == [[0, 10, 5], [8, 13, 13], [0, 0, 1], [5, 3, 6]]


def test_item_bounds_read_starts_and_ends_under_their_keys_checked() -> None:
    starts, ends = fragment_reading.item_bounds([{"start": 0, "end": 3}, {"end": 9, "start": 4}], ("start", "end"))
    assert starts.tolist() == [0, 4] and ends.tolist() == [3, 9]
    starts, ends = fragment_reading.item_bounds([(5, 6, "X"), [1, 2]], (0, 1))
    assert starts.tolist() == [5, 1] and ends.tolist() == [6, 2]
    for bad in ([(3, 3)], [(-1, 2)], [(True, 2)], [(0, 2**63)], [(0.0, 1)]):  # empty, negative, a bool, past int64
        assert fragment_reading.item_bounds(bad, (0, 1)) is None
    with pytest.raises(KeyError):
        fragment_reading.item_bounds([{"start": 0}], ("start", "end"))


def test_copies_of_fragments_unfolded_past_the_free_memory_are_refused_at_their_sentence() -> None:
    # As test_component_arrays' contiguous copies: a large component's copies unfolded for scipy's solver
    # (`fragment_large.large_amounts`) past the free memory are refused naming the sentence; the fragments' route
    # raised the same words without it. 340 references in 3 copies and predictions in 2, every pair sharing unit 0.
    from nerscore import errors

    n = 340
    references = [[], [{"fragments": [[0, 1], [s + 3, 2 * n - s + 3]], "type": "AB"[s % 2]} for s in range(n)] * 3]
    predictions = [[], [{"fragments": [[0, 1], [s + 3, 2 * n - s + 2]], "type": "AB"[s % 3 % 2]} for s in range(n)] * 2]
    refused = r"^sentence 1: its 1,020 references and 680 predictions overlap in 693,600 pairs"
    with mock.patch.object(errors, "free_memory", return_value=10**8), pytest.raises(ValueError, match=refused):
        ns.compute_semeval(predictions=predictions, references=references)
