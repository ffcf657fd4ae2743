"""nerscore.forms.tag_arrays: the array path of tags and ids makes exactly the readable path's table of pairs
(`decode`, `pair`, `Pairs.of_rows`), and so the same tally, on random soup in every scheme and mode. The value
pairing's table (docs/scoring.md §10) is the same on both paths too. Span input's array path: test_span_arrays.py."""

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
from nerscore.forms import inputs, tag_arrays
from nerscore.forms import readable as readable_path
from nerscore.table import reducers
from nerscore.table.pairs import Pairs

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


def test_tags_known_from_an_earlier_call_are_parsed_only_where_a_batch_uses_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The codes of an earlier call's tags (at most 256) start each call's table, and may be tags of another
    # scheme: only those a batch uses are parsed, beside every tag new to it (all used), chunk by chunk.
    monkeypatch.setattr(tag_arrays, "_known_codes", {})
    monkeypatch.setattr(tag_arrays, "_CHUNK_TOKENS", 3)
    earlier = [["S-PER", "O", "B-LOC", "E-LOC"]], [["S-PER", "O", "B-LOC", "E-LOC"]]
    assert fast(*earlier, scheme="IOBES").cells == readable(*earlier, scheme="IOBES").cells
    assert set(tag_arrays._known_codes) == {"S-PER", "O", "B-LOC", "E-LOC"}
    # IOB2 has no S or E: S-PER and E-LOC, unused, are never parsed; B-LOC and O are known, the rest new.
    batch = [["B-LOC", "I-LOC", "O"], ["B-MISC", "O", "B-ORG"]], [["B-LOC", "O", "B-ORG"], ["I-ORG", "B-LOC", "O"]]
    assert fast(*batch).cells == readable(*batch).cells
    # A known tag that is none of the scheme's, used beside new ones: the readable path explains it.
    assert array_path([["O", "B-NEW", "E-LOC"]], [["O", "O", "O"]]) is None


@pytest.mark.parametrize(("types", "outside", "translated"), [(255, True, True), (256, False, False), (3, True, True)])
def test_byte_codes_read_roles_and_types_by_byte_tables_while_the_types_fit(
    monkeypatch: pytest.MonkeyPatch, types: int, outside: bool, translated: bool
) -> None:
    # At most 256 distinct tags are byte codes, translated to roles and type ids by byte tables in which O's type
    # reads as 255: with 255 types and O the last type's id is 254; with 256 types (IO, no O) O's 255 would be a
    # type's id, and `take` reads them as it reads wider codes.
    monkeypatch.setattr(tag_arrays, "_known_codes", {})  # no tag of an earlier call among the 256
    names = [f"T{index}" for index in range(types)]
    references = [[f"I-{name}", f"I-{name}", *(["O"] if outside else [])] for name in names]
    predictions = [
        [f"I-{names[(i + 1) % types]}", f"I-{name}", *(["O"] if outside else [])] for i, name in enumerate(names)
    ]
    seen: list[bool] = []
    by_take = tag_arrays._CodeBook.roles_and_types

    def spy(book: tag_arrays._CodeBook, side: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        seen.append(side.dtype == np.uint8 and len(book.type_ids) <= 256)
        return by_take(book, side)

    monkeypatch.setattr(tag_arrays._CodeBook, "roles_and_types", spy)
    assert fast(predictions, references, scheme="IO").cells == readable(predictions, references, scheme="IO").cells
    assert seen and set(seen) == {translated}


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


@pytest.mark.parametrize("longest", [0, 255, 256, 300], ids=["empty", "255-tags", "256-tags", "300-tags"])
def test_sentence_lengths_the_alignment_check_measured_give_the_same_counts(longest: int) -> None:
    # The lengths the alignment check measured are read as bytes while every sentence is shorter than 256 tags,
    # else as wider ints: a sentence of 256 must not wrap around to an empty one.
    long_r = (["B-PER", "I-PER", "O", "B-LOC"] * 80)[:longest]
    long_p = (["B-PER", "O", "B-LOC", "I-LOC"] * 80)[:longest]
    references = [["B-ORG", "I-ORG"], long_r, [], ["O", "B-PER"]]
    predictions = [["B-ORG", "O"], long_p, [], ["O", "B-PER"]]
    options = ns.Options.of()
    measured = list(map(len, references))
    counted = tag_arrays.count_tags(predictions, references, False, options, False, sentence_lengths=measured)
    assert counted is not None
    assert counted.tally.cells == readable(predictions, references).cells
    assert counted.tally.tokens == readable(predictions, references).tokens


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


def in_order(table: Pairs) -> Pairs:
    """The rows in one canonical order (sentence, then every column, type ids by name): two paths that find the
    same pairing give equal tables in this order."""
    rank = table._name_rank()
    keys = (
        *table._fragment_ranks()[::-1],
        table.predicted_end,
        table.predicted_start,
        rank[table.predicted_type],
        rank[table.reference_type],
        table.reference_end,
        table.reference_start,
        table.scenario,
        table.sentence,
    )
    return table.select(np.lexsort(keys))


def assert_same_table(table: Pairs, expected: Pairs) -> None:
    """Two tables hold the same rows (type ids aside: the tag path numbers types as it meets them)."""
    ours, theirs = in_order(table), in_order(expected.renamed(table.type_names))
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
    rows = readable_path.tag_rows_and_facts(predictions, references, False, options)[0]
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
    rows = readable_path.tag_rows_and_facts(id_predictions, id_references, True, options)[0]
    assert_same_tables(made[0], rows, len(id_references), options)


def test_tally_semeval_names_options_that_are_no_options() -> None:
    # A dict where an Options goes was an AttributeError ("'dict' object has no attribute 'scheme'").
    with pytest.raises(ValueError, match=r"^options is \{'mode': 'strict'\} \(dict\); expected an Options or None"):
        ns.tally_semeval([["B-X"]], [["B-X"]], {"mode": "strict"})


# chunk_bounds: a chunk ends with the sentence crossing each multiple of the limit, but a last chunk of fewer than a
# quarter of the limit joins the one before (each chunk costs its fixed overhead whatever its size).
CHUNK_BOUNDS = {
    "one chunk under the limit": ([4, 4], 10, [0, 2]),
    "a chunk a multiple": ([4, 4, 4, 4, 4, 4], 8, [0, 2, 4, 6]),
    "a short tail joins the chunk before": ([10] * 8 + [1], 40, [0, 4, 9]),
    "a tail of a quarter stays a chunk": ([10] * 9, 40, [0, 4, 8, 9]),
    "a limit of one token: a chunk a sentence": ([1, 2, 1], 1, [0, 1, 2, 3]),
}


@pytest.mark.parametrize("lengths, limit, expected", CHUNK_BOUNDS.values(), ids=CHUNK_BOUNDS.keys())
def test_chunk_bounds_cut_at_each_multiple_of_the_limit_but_a_short_tail(
    lengths: list[int], limit: int, expected: list[int]
) -> None:
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    assert tag_arrays.chunk_bounds(offsets, limit) == expected
