"""nerscore.forms.span_arrays: the array path of span input makes the readable path's counts and table of pairs
(`decode`, `pair`, `Pairs.of_rows`) on random nested batches, each sentence's counts included, at any offset
int64 holds; span input the arrays do not read, and invalid spans, go the readable way."""

from __future__ import annotations

from itertools import chain
from unittest import mock

import numpy as np
import pytest
import strategies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_tag_arrays import assert_same_tables, readable

import nerscore as ns
from nerscore.forms import readable as readable_path
from nerscore.forms import registry as forms
from nerscore.forms import span_arrays
from nerscore.table import findings, reducers
from nerscore.table.pairs import Pairs
from nerscore.tally import Counted


def span_array_path(predictions, references, keep_sentences=False, **options) -> Counted | None:
    return span_arrays.count_spans(predictions, references, ns.Options.of(**options), keep_sentences)


def readable_counted(predictions, references, **options) -> Counted:
    """The readable path's tally and each sentence's scenario counts (what the statistics resample)."""
    tally, rows = ns.tally_semeval(predictions, references, ns.Options.of(**options))
    return Counted(tally, reducers.scenario_counts(Pairs.of_rows(rows, sentences=len(references))))


def assert_same_counts(counted: Counted | None, expected: Counted) -> None:
    assert counted is not None, "valid span input in one form must not fall back to the readable path"
    assert counted.tally.cells == expected.tally.cells
    assert counted.per_sentence is not None and expected.per_sentence is not None
    assert counted.per_sentence.tolist() == expected.per_sentence.tolist()


@st.composite
def tuple_batches(draw: st.DrawFn) -> tuple[list[list], list[list]]:
    """Span batches as (start, end, type) tuples whose sentences are flat on both sides, or nested, overlapping and
    repeated on either: both kinds go different ways through the array path."""
    sentences = []
    for _ in range(draw(st.integers(0, 6))):
        for _side in range(2):
            if draw(st.booleans()):
                sentences.append(draw(strategies.nested_spans(max_position=12, types=strategies.TYPES)))
            else:
                sentences.append(draw(strategies.spans(max_length=14))[0])
    return sentences[0::2], sentences[1::2]


@st.composite
def nested_batches(draw: st.DrawFn) -> tuple[list[list], list[list]]:
    """`tuple_batches` in any input form."""
    predictions, references = draw(tuple_batches())
    lists = draw(strategies.span_lists([*predictions, *references]))
    return lists[: len(predictions)], lists[len(predictions) :]


SPAN_OPTIONS = st.fixed_dictionaries(
    {
        "min_overlap": st.sampled_from([None, 0.25, 0.5, 2 / 3, 1.0]),
        "labels": st.one_of(st.none(), st.lists(st.sampled_from([*strategies.TYPES, "ABSENT"]), min_size=1)),
    }
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=nested_batches(), options=SPAN_OPTIONS, data=st.data())
def test_span_array_path_equals_readable_path(batch, options, data) -> None:
    # The tally, and each sentence's scenario counts (bootstrap, compare_semeval) alike.
    predictions, references = batch
    expected = readable_counted(predictions, references, **options)
    chunk = data.draw(
        st.sampled_from([1, 3, span_arrays._CHUNK_ENTITIES])
    )  # documents are scored in chunks of entities
    limit = data.draw(st.sampled_from([1, 20, span_arrays._POSITION_LIMIT]))  # a chunk past it goes the readable way
    with (
        mock.patch.object(span_arrays, "_CHUNK_ENTITIES", chunk),
        mock.patch.object(span_arrays, "_POSITION_LIMIT", limit),
    ):
        counted = span_array_path(predictions, references, keep_sentences=True, **options)
        tally_alone = span_array_path(predictions, references, **options)
    entities = list(chain.from_iterable(chain(predictions, references)))
    forms = {next((k for k in ns.TYPE_KEYS if k in e), "") if isinstance(e, dict) else "sequence" for e in entities}
    if len(forms) > 1:  # dicts with type keys of several kinds, or dicts and tuples: read one by one
        assert counted is None or counted.tally.cells == expected.tally.cells
    else:
        assert_same_counts(counted, expected)
        assert tally_alone is not None and tally_alone.per_sentence is None
        assert tally_alone.tally.cells == expected.tally.cells


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(batch=tuple_batches(), options=SPAN_OPTIONS, data=st.data())
def test_span_tables_are_the_readable_tables(batch, options, data) -> None:
    predictions, references = batch
    checked = ns.Options.of(**options, value=True)
    chunk = data.draw(st.sampled_from([1, 3, span_arrays._CHUNK_ENTITIES]))
    limit = data.draw(st.sampled_from([1, 20, span_arrays._POSITION_LIMIT]))  # past it, a chunk goes by `pair`
    placement = data.draw(st.sampled_from([4, findings._PLACEMENT_LIMIT]))  # past it, value pairs by sentence
    with (
        mock.patch.object(span_arrays, "_CHUNK_ENTITIES", chunk),
        mock.patch.object(span_arrays, "_POSITION_LIMIT", limit),
        mock.patch.object(findings, "_PLACEMENT_LIMIT", placement),
    ):
        table = span_arrays.span_pairs(predictions, references, checked)
        assert table is not None
        rows = readable_path.span_rows(predictions, references, checked)
        assert_same_tables(table, rows, len(references), checked)
        # The diagnostics of sentences placed one after another are those of the sentences one by one.
        expected = reducers.diagnostics(readable_path.reduction(rows, len(references), checked).pairs, None)
        assert reducers.diagnostics(table, None) == expected


def test_bootstrap_and_compare_with_spans_count_on_the_array_path() -> None:
    # Each sentence's counts come from the array path: the readable path, which only rows and errors need, is
    # never called, and the intervals are those of the readable path's counts.
    predictions = [[(0, 2, "PER"), (3, 5, "LOC")], [(1, 2, "PER")], [(0, 4, "ORG"), (1, 2, "PER")]]
    references = [[(0, 2, "PER"), (3, 4, "LOC")], [], [(0, 4, "ORG"), (1, 3, "PER")]]
    with_rows = ns.compute_semeval(predictions=predictions, references=references, bootstrap=50, return_entities=True)
    with mock.patch.object(forms, "span_rows", side_effect=AssertionError("the readable path")):
        result = ns.compute_semeval(predictions=predictions, references=references, bootstrap=50)
        ns.compare_semeval(predictions_a=predictions, predictions_b=references, references=references, n_resamples=9)
    with_rows.pop("entities")
    assert result == with_rows


# Offsets near 2**63 (issue 16): each sentence is translated by its first start, so the array path scores them
# exactly as the readable path does; a chunk whose sentences span more than its positions hold goes the readable
# way; offsets past int64 are read by the readable path alone.
NEAR = 2**62


INT64_MAX = 2**63 - 1


@pytest.mark.parametrize(
    "predictions, references, options, expected",
    [
        pytest.param(
            [[(NEAR - 1, NEAR + 1, "A")], [(NEAR - 1, NEAR + 1, "A")], [(1, 2, "B")]],
            [[(NEAR - 2, NEAR + 1, "A")], [(NEAR - 2, NEAR + 1, "A")], [(0, 3, "A")]],
            {},
            {"strict_incorrect": 3, "partial_partial": 3, "type_correct": 2, "type_incorrect": 1},
            id="sentences-at-2**62-then-one-near-0",
        ),
        pytest.param(
            [[(0, INT64_MAX, "X")], [(0, 3, "X")]],
            [[(0, 5, "X")], [(0, 3, "X")]],
            {},
            {"strict_correct": 1, "strict_incorrect": 1, "partial_partial": 1, "type_correct": 2},
            id="a-sentence-as-long-as-int64",
        ),
        pytest.param(
            [[(INT64_MAX - 3, INT64_MAX, "X")], [(0, 3, "X")]],
            [[(INT64_MAX - 2, INT64_MAX, "X")], [(0, 3, "X")]],
            {},
            {"strict_correct": 1, "strict_incorrect": 1, "partial_partial": 1, "type_correct": 2},
            id="the-last-offset-int64-holds",
        ),
        pytest.param(
            [[(0, NEAR + 1, "X")], [(0, NEAR + 1, "X")], [(0, 2, "X")]],
            [[(0, NEAR + 1, "X")], [(1, NEAR + 1, "X")], [(1, 2, "X")]],
            {},
            {"strict_correct": 1, "strict_incorrect": 2, "partial_partial": 2},
            id="extents-whose-sum-wraps-int64",
        ),
        pytest.param(
            [[(NEAR, NEAR + 10, "X"), (NEAR + 20, NEAR + 24, "Y")], [(INT64_MAX - 10, INT64_MAX - 6, "X")]],
            [[(NEAR + 5, NEAR + 10, "X"), (NEAR + 20, NEAR + 30, "Y")], [(INT64_MAX - 10, INT64_MAX, "X")]],
            {"min_overlap": 0.5},
            {"partial_partial": 1, "partial_missed": 2, "partial_spurious": 2},
            id="min-overlap-near-2**63",
        ),
        pytest.param(
            [[(NEAR, NEAR + 4, "X"), (NEAR + 1, NEAR + 3, "Y")]],
            [[(NEAR, NEAR + 4, "X"), (NEAR + 1, NEAR + 2, "Y")]],
            {},
            {"strict_correct": 1, "strict_incorrect": 1, "type_correct": 2},
            id="nested-near-2**62",
        ),
        pytest.param(
            [[(2**64, 2**64 + 2, "X")], [(0, 2**70, "X")]],
            [[(2**64 + 1, 2**64 + 2, "X")], [(0, 2**70, "X")]],
            {},
            {"strict_correct": 1, "strict_incorrect": 1, "partial_partial": 1},
            id="offsets-past-int64-go-the-readable-way",
        ),
    ],
)
def test_offsets_near_2_63_are_scored_exactly_on_both_paths(predictions, references, options, expected) -> None:
    readable_result = ns.scores(readable(predictions, references, **options))
    assert {key: readable_result[key] for key in expected} == expected
    for bootstrap in (0, 20):  # the tally alone, and with each sentence's counts
        result = ns.compute_semeval(predictions=predictions, references=references, bootstrap=bootstrap, **options)
        assert {key: result[key] for key in readable_result} == readable_result
    counted = span_array_path(predictions, references, keep_sentences=True, **options)
    if all(end <= INT64_MAX for sentence in predictions + references for _, end, _ in sentence):
        assert_same_counts(counted, readable_counted(predictions, references, **options))
    else:
        assert counted is None


@st.composite
def translated(draw: st.DrawFn, batch: tuple[list[list], list[list]]) -> tuple[list[list], list[list]]:
    """`batch` with each sentence (both sides alike) moved by a random translation, up to the last offset int64
    holds."""
    predictions, references = batch
    moved_p, moved_r = [], []
    for prediction, reference in zip(predictions, references):
        room = INT64_MAX - max((end for _, end, _ in prediction + reference), default=0)
        by = draw(
            st.one_of(st.integers(0, room), st.integers(max(0, room - 64), room), st.sampled_from([0, NEAR, room]))
        )
        moved_p.append([(start + by, end + by, kind) for start, end, kind in prediction])
        moved_r.append([(start + by, end + by, kind) for start, end, kind in reference])
    return moved_p, moved_r


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), options=SPAN_OPTIONS)
def test_a_translation_of_each_sentence_changes_no_count_on_either_path(data, options) -> None:
    batch = data.draw(tuple_batches())
    moved = data.draw(translated(batch))
    lists = data.draw(strategies.span_lists([*moved[0], *moved[1]], mixed=False))
    moved = lists[: len(batch[0])], lists[len(batch[0]) :]
    expected = readable_counted(*batch, **options)
    assert_same_counts(readable_counted(*moved, **options), expected)
    assert_same_counts(span_array_path(*moved, keep_sentences=True, **options), expected)


@pytest.mark.parametrize(
    "predictions",
    [
        pytest.param([[(0, 2, "PER"), (np.int64(3), 4, "LOC")]], id="numpy-offset"),
        pytest.param([[ns.Span(0, 2, "PER")]], id="span-objects"),
        pytest.param(
            [[{"start": 0, "end": 2, "label": "PER"}, {"start": 3, "end": 4, "type": "LOC", "label": "X"}]],
            id="type-key-before-label-in-one-dict",
        ),
        pytest.param([[{"start": 0, "end": 2, "type": "PER"}, (3, 4, "LOC")]], id="dicts-and-tuples"),
        pytest.param([[(0, 2**70, "PER")]], id="offset-past-int64"),
    ],
)
def test_span_input_the_arrays_do_not_read_goes_the_readable_way(predictions) -> None:
    references = [[(0, 2, "PER"), (3, 5, "LOC")]]
    assert span_array_path(predictions, references) is None
    assert ns.compute_semeval(predictions=predictions, references=references) == ns.scores(
        readable(predictions, references)
    )


@pytest.mark.parametrize(
    "predictions",
    [
        pytest.param([[(2, 2, "PER")]], id="empty-span"),
        pytest.param([[(-1, 2, "PER")]], id="negative"),
        pytest.param([[(0, 2.5, "PER")]], id="float"),
        pytest.param([[(0, 2, "")]], id="empty-type"),
        pytest.param([[(0, 2, 3)]], id="type-not-a-string"),
        pytest.param([[{"start": 0, "end": 2}]], id="no-type"),
    ],
)
def test_invalid_spans_fall_back_to_the_readable_path_for_its_error(predictions) -> None:
    assert span_array_path(predictions, [[]]) is None
    with pytest.raises(ValueError, match=r"^predictions, sentence 0, entity 0: "):
        ns.compute_semeval(predictions=predictions, references=[[]])
