"""The array path (`nerscore.forms.tag_arrays`) makes exactly the readable path's table of pairs (`decode`, `pair`,
`Pairs.of_rows`), and so the same tally, on random soup in every scheme and mode; and so does the array path of
span input (`nerscore.forms.span_arrays`) on random nested batches, each sentence's counts included, at any offset int64
holds. The value pairing's table (docs/scoring.md §10) is the same on both paths too."""

from __future__ import annotations

from itertools import chain
from unittest import mock

import numpy as np
import pytest
import strategies
from conftest import aligned
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore.forms import inputs, span_arrays, tag_arrays
from nerscore.forms import readable as readable_path
from nerscore.forms import registry as forms
from nerscore.table import reducers
from nerscore.table.pairs import Pairs
from nerscore.tally import Counted

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def readable(predictions, references, **options) -> ns.Tally:
    return ns.tally_semeval(predictions, references, ns.Options.of(**options))[0]


def array_path(predictions, references, **options) -> ns.Tally | None:
    predictions, references = aligned(predictions, references)
    holds_ids = bool(inputs.holds_ids(predictions, references))
    counted = tag_arrays.count_tags(predictions, references, holds_ids, ns.Options.of(**options), keep_sentences=False)
    return None if counted is None else counted.tally


def fast(predictions, references, **options) -> ns.Tally:
    tally = array_path(predictions, references, **options)
    assert tally is not None, "valid input must not fall back to the readable path"
    return tally


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@pytest.mark.parametrize("mode", ns.MODES)
@SETTINGS
@given(data=st.data())
def test_fast_path_equals_readable_path_on_tag_soup(scheme: str, mode: str, data: st.DataObject) -> None:
    suffix = data.draw(st.booleans())
    predictions, references = data.draw(strategies.soup_batches(scheme, suffix=suffix, max_sentences=6))
    labels = data.draw(
        st.one_of(st.none(), st.lists(st.sampled_from([*strategies.TYPES, "ABSENT"]), min_size=1, max_size=3))
    )
    min_overlap = data.draw(st.sampled_from([None, None, 0.25, 0.5, 2 / 3, 1.0]))
    options = {"scheme": scheme, "mode": mode, "suffix": suffix, "labels": labels, "min_overlap": min_overlap}
    chunk_tokens = data.draw(st.sampled_from([1, 5, tag_arrays._CHUNK_TOKENS]))  # sentences are scored in chunks
    with mock.patch.object(tag_arrays, "_CHUNK_TOKENS", chunk_tokens):
        assert fast(predictions, references, **options).cells == readable(predictions, references, **options).cells


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@SETTINGS
@given(data=st.data())
def test_fast_path_equals_readable_path_on_integer_ids(scheme: str, data: st.DataObject) -> None:
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=6))
    id_predictions, id_references, label_list = strategies.as_ids(data.draw, predictions, references)
    mode = data.draw(st.sampled_from(ns.MODES))
    options = {"scheme": scheme, "mode": mode, "label_list": label_list}
    expected = readable(id_predictions, id_references, **options)
    assert fast(id_predictions, id_references, **options).cells == expected.cells
    # numpy integers in lists and padded 2-D arrays take the same path to the same counts
    as_numpy = [list(np.array(row, dtype=np.int64)) for row in id_predictions]
    assert fast(as_numpy, id_references, **options).cells == expected.cells


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@SETTINGS
@given(data=st.data())
def test_one_long_document_equals_its_sentences_joined(scheme: str, data: st.DataObject) -> None:
    # A document is one long sentence: the array path must not pair across what were sentence boundaries
    # any differently from the readable path.
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=8, max_length=12))
    document = [list(chain.from_iterable(predictions))], [list(chain.from_iterable(references))]
    assert fast(*document, scheme=scheme).cells == readable(*document, scheme=scheme).cells


@SETTINGS
@given(data=st.data())
def test_compute_semeval_takes_the_fast_path_and_matches_entity_rows(data: st.DataObject) -> None:
    scheme = data.draw(st.sampled_from(strategies.SCHEMES))
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=6))
    with_rows = ns.compute_semeval(
        predictions=predictions, references=references, scheme=scheme, per_type=True, return_entities=True
    )
    with_rows.pop("entities")
    assert ns.compute_semeval(predictions=predictions, references=references, scheme=scheme, per_type=True) == with_rows


@pytest.mark.parametrize(
    "predictions, references, options",
    [
        pytest.param([["B-PER", None]], [["O", "O"]], {}, id="none-tag"),
        pytest.param([[["B-PER"]]], [["O"]], {}, id="unhashable-tag"),
        pytest.param([["S-PER"]], [["O"]], {}, id="letter-the-scheme-lacks"),
        pytest.param([[1, 2]], [[1, 2]], {}, id="ids-without-label-list"),
        pytest.param([[1, 9]], [[1, 2]], {"label_list": ["O", "B-PER", "I-PER"]}, id="id-out-of-range"),
        pytest.param([[1, -100]], [[1, 2]], {"label_list": ["O", "B-PER", "I-PER"]}, id="ignored-prediction"),
        pytest.param([[1.0]], [[1]], {"label_list": ["O", "B-PER"]}, id="float-id"),
        pytest.param([[1]], [[1]], {"label_list": ["O", "X-PER"]}, id="label-list-tag-invalid"),
    ],
)
def test_invalid_input_falls_back_to_the_readable_path_for_its_error(predictions, references, options) -> None:
    assert array_path(predictions, references, **options) is None
    with pytest.raises(ValueError, match=r"(predictions|references), sentence 0, token \d|label_list"):
        ns.compute_semeval(predictions=predictions, references=references, **options)


def test_more_than_256_distinct_tags_and_a_changing_tag_set() -> None:
    # Codes are bytes while there are at most 256 distinct tags, and the table of known tags is kept across
    # calls: past 256 the array path switches to wider codes and the table starts afresh.
    types = [f"T{index}" for index in range(200)]
    references = [[f"B-{t}", f"I-{t}", "O"] for t in types]
    predictions = [[f"B-{t}", "O", f"B-{types[(i + 1) % len(types)]}"] for i, t in enumerate(types)]
    for batch in ((predictions, references), (predictions[:5], references[:5]), (predictions, references)):
        assert fast(*batch).cells == readable(*batch).cells
    small = [["B-PER", "I-PER"]], [["B-PER", "O"]]
    assert fast(*small).cells == readable(*small).cells


def test_chunks_of_sentences_add_up_to_the_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # The array path scores a batch in chunks of about _CHUNK_TOKENS tokens; with tiny chunks every kind of
    # cut (inside a run of short sentences, at a sentence longer than a chunk) must give the same counts.
    predictions, references = [], []
    for index in range(40):
        length = 1 + (index * 7) % 13
        references.append((["B-PER", "I-PER", "O", "B-LOC"] * 4)[:length])
        predictions.append((["B-PER", "O", "B-LOC", "I-LOC"] * 4)[:length])
    expected = readable(predictions, references)
    for chunk_tokens in (1, 3, 8, 1000):
        monkeypatch.setattr(tag_arrays, "_CHUNK_TOKENS", chunk_tokens)
        assert fast(predictions, references).cells == expected.cells


@pytest.mark.parametrize("scheme", ["IOB2", "IOBES"])
@SETTINGS
@given(data=st.data())
def test_padded_2d_id_arrays_equal_the_unpadded_lists(scheme: str, data: st.DataObject) -> None:
    # Trainer's form: one 2-D array per side, -100 in the references wherever there is no label (padding
    # included), anything in the predictions there. The array is read as it is, never turned into lists.
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=6))
    id_predictions, id_references, label_list = strategies.as_ids(data.draw, predictions, references)
    width = max(map(len, id_references), default=0)
    fill = data.draw(st.sampled_from([0, -100]))
    padded_p = np.array([row + [fill] * (width - len(row)) for row in id_predictions], dtype=np.int64)
    padded_r = np.array([row + [-100] * (width - len(row)) for row in id_references], dtype=np.int64)
    padded_p, padded_r = padded_p.reshape(len(id_references), width), padded_r.reshape(len(id_references), width)
    options = {"scheme": scheme, "label_list": label_list}
    expected = readable(id_predictions, id_references, **options)
    assert fast(padded_p, padded_r, **options).cells == expected.cells
    assert readable(padded_p, padded_r, **options).cells == expected.cells


def assert_same_table(table: Pairs, expected: Pairs) -> None:
    """Two tables hold the same rows (type ids aside: the tag path numbers types as it meets them)."""
    ours, theirs = table.in_order(), expected.renamed(table.type_names).in_order()
    assert ours.sentences == theirs.sentences
    assert [column.tolist() for column in ours.columns()] == [column.tolist() for column in theirs.columns()]


def assert_same_tables(table: Pairs, rows: list, sentences: int, options: ns.Options) -> None:
    """`table` is the readable path's `rows` as a table, gives them back in the readable order (the `entities`
    rows), and the value pairing made from it on arrays is the readable path's too."""
    expected = readable_path.reduction(rows, sentences, options)
    assert_same_table(table, expected.pairs)
    assert table.rows() == rows
    # The `entities` dicts made from the columns are entity_rows' of the rows, keys in the same order.
    made, expected_dicts = (
        table.entity_dicts(options.evaluation_schemes),
        ns.entity_rows(rows, options.evaluation_schemes),
    )
    assert [list(row.items()) for row in made] == [list(row.items()) for row in expected_dicts]
    # Each row's partner in the value pairing (`entities`' value_pair), copies of one entity being one object there.
    assert readable_path.value_partners(table.rows(), options) == readable_path.value_partners(rows, options)
    assert expected.value_pairs is not None
    assert_same_table(reducers.value_pairs(table, options), expected.value_pairs)


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@SETTINGS
@given(data=st.data())
def test_tag_tables_are_the_readable_tables(scheme: str, data: st.DataObject) -> None:
    suffix = data.draw(st.booleans())
    predictions, references = data.draw(strategies.soup_batches(scheme, suffix=suffix, max_sentences=6))
    mode = data.draw(st.sampled_from(ns.MODES))
    labels = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(strategies.TYPES), min_size=1, max_size=3)))
    min_overlap = data.draw(st.sampled_from([None, 0.25, 0.5, 1.0]))
    value = data.draw(st.sampled_from([True, "ace08", {"type_error": 0.25, "min_overlap": 0.5}]))
    options = ns.Options.of(
        scheme=scheme, mode=mode, suffix=suffix, labels=labels, min_overlap=min_overlap, value=value
    )  # fmt: skip
    chunk_tokens = data.draw(st.sampled_from([1, 5, tag_arrays._CHUNK_TOKENS]))
    with mock.patch.object(tag_arrays, "_CHUNK_TOKENS", chunk_tokens):
        made = tag_arrays.tag_pairs(predictions, references, False, options)
    assert made is not None
    rows = readable_path.tag_rows(predictions, references, False, options)
    assert_same_tables(made[0], rows, len(references), options)


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@SETTINGS
@given(data=st.data())
def test_id_tables_are_the_readable_tables(scheme: str, data: st.DataObject) -> None:
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=6))
    id_predictions, id_references, label_list = strategies.as_ids(data.draw, predictions, references)
    options = ns.Options.of(scheme=scheme, mode=data.draw(st.sampled_from(ns.MODES)), label_list=label_list, value=True)
    made = tag_arrays.tag_pairs(id_predictions, id_references, True, options)
    assert made is not None
    rows = readable_path.tag_rows(id_predictions, id_references, True, options)
    assert_same_tables(made[0], rows, len(id_references), options)


# ---------------------------------------------------------------------------------------------------------
# Span input: `span_arrays.count_spans` against the readable path
# ---------------------------------------------------------------------------------------------------------


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
    placement = data.draw(st.sampled_from([4, reducers._PLACEMENT_LIMIT]))  # past it, value pairs by sentence
    with (
        mock.patch.object(span_arrays, "_CHUNK_ENTITIES", chunk),
        mock.patch.object(span_arrays, "_POSITION_LIMIT", limit),
        mock.patch.object(reducers, "_PLACEMENT_LIMIT", placement),
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
