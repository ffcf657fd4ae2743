"""nerscore.compute: the result dict `result_dict` puts together (docs/scoring.md §7): flat, of plain numbers, its
keys for each option, the `entities` rows JSON-ready."""

from __future__ import annotations

import json
import re

import pytest
from conftest import as_inputs, trials, worked_example
from test_result_scores import COUNT_MEASURES, SINGER, SONG, expected_keys

from nerscore import compute_semeval
from nerscore.errors import InvalidInputError

OUTPUT_SHAPES = [
    pytest.param({}, expected_keys(), id="default"),
    pytest.param({"per_type": True}, expected_keys(types=(SONG, SINGER)), id="per-type"),
    pytest.param({"beta": 0.5}, expected_keys("f0.5"), id="beta-0.5"),
    pytest.param({"per_type": True, "labels": [SINGER]}, expected_keys(types=(SINGER,)), id="per-type-labels"),
]


@pytest.mark.parametrize(("options", "keys"), OUTPUT_SHAPES)
def test_output_is_a_flat_dict_of_plain_numbers(metric, options: dict, keys: set[str]) -> None:
    predictions, references = worked_example()
    for result in (
        compute_semeval(predictions=predictions, references=references, **options),
        metric.compute(predictions=predictions, references=references, **options),
    ):
        assert set(result) == keys
        for key, value in result.items():
            is_count = key.endswith(COUNT_MEASURES)
            assert type(value) is (int if is_count else float), key
        assert json.loads(json.dumps(result)) == result


def test_entities_rows_are_json_ready() -> None:
    result = compute_semeval(**as_inputs(worked_example(shared=True)), return_entities=True)
    assert json.loads(json.dumps(result)) == result
    assert set(result) == expected_keys() | {"entities"}


# A span past its text's end, with texts given (docs/scoring.md §1): located, on every path spans with texts take.
PAST_TEXTS = ["Ada", "Bob met Ada"]
PAST_MESSAGE = (
    "found the span [{}, {}) past the end of its text ({} characters); expected character offsets into texts="
)


@pytest.mark.parametrize(
    "predictions, references, options, where, bounds",
    [
        pytest.param(
            [[(0, 3, "PER")], [(8, 12, "PER")]],
            [[(0, 3, "PER")], [(8, 11, "PER")]],
            {},
            "predictions, sentence 1, entity 0",
            (8, 12, 11),
            id="a-prediction-one-past",
        ),
        pytest.param(
            [[], []],
            [[(0, 3, "PER")], [(0, 3, "PER"), (4, 30, "PER"), (4, 40, "PER")]],
            {},
            "references, sentence 1, entity 1",
            (4, 30, 11),
            id="the-first-past-of-its-sentence",
        ),
        pytest.param(
            [[(0, 9, "PER")], []],
            [[(0, 3, "PER")], [(4, 30, "PER")]],
            {},
            "references, sentence 1, entity 0",
            (4, 30, 11),
            id="references-before-predictions",
        ),
        pytest.param(
            [[{"start": 0, "end": 4, "label": "PER"}], []],
            [[{"start": 0, "end": 3, "label": "PER"}], []],
            {},
            "predictions, sentence 0, entity 0",
            (0, 4, 3),
            id="dicts",
        ),
        pytest.param(
            [[], [{"fragments": [(0, 3), (8, 13)], "type": "PER"}]],
            [[], [(0, 3, "PER")]],
            {},
            "predictions, sentence 1, entity 0",
            (0, 13, 11),
            id="a-discontinuous-extent",
        ),
        pytest.param(
            [[(0, 3, "PER")], [(8, 12, "PER")]],
            [[(0, 3, "PER")], [(8, 11, "PER")]],
            {"return_entities": True},
            "predictions, sentence 1, entity 0",
            (8, 12, 11),
            id="readable-path",
        ),
        pytest.param(
            [[(0, 3, "PER")], [(8, 12, "PER")]],
            [[(0, 3, "PER")], [(8, 11, "PER")]],
            {"slices": ["entity_length"], "bootstrap": 20},
            "predictions, sentence 1, entity 0",
            (8, 12, 11),
            id="slices-and-bootstrap",
        ),
        pytest.param(
            [[(0, 3, "PER")], [(8, 12, "PER")]],
            [[(0, 3, "PER")], [(8, 11, "PER")]],
            {"min_overlap": 0.5, "value": True, "diagnostics": True},
            "predictions, sentence 1, entity 0",
            (8, 12, 11),
            id="weighted",
        ),
        pytest.param(
            [[(0, 3, "PER")], [(8, 12, "LOC")]],
            [[(0, 3, "PER")], [(8, 11, "PER")]],
            {"labels": ["PER"]},
            "predictions, sentence 1, entity 0",
            (8, 12, 11),
            id="of-a-type-labels-leave-out",
        ),
    ],
)
def test_a_span_past_its_text_is_located(predictions, references, options, where, bounds) -> None:
    message = f"{where}: {PAST_MESSAGE.format(*bounds)}"
    with pytest.raises(InvalidInputError) as raised:
        compute_semeval(predictions=predictions, references=references, texts=PAST_TEXTS, **options)
    assert str(raised.value) == message
    # Without texts the offsets are any unit (docs/scoring.md §1): the same batch is scored.
    assert "strict_f1" in compute_semeval(predictions=predictions, references=references, **options)


def test_a_span_past_its_text_is_located_by_every_front_end(load_metric, tmp_path) -> None:
    from nerscore import Accumulator, compare_semeval

    fits, past = [[(0, 3, "PER")], [(8, 11, "PER")]], [[(0, 3, "PER")], [(8, 12, "PER")]]
    message = PAST_MESSAGE.format(8, 12, 11)
    with pytest.raises(InvalidInputError, match=rf"^predictions_b, sentence 1, entity 0: {re.escape(message)}$"):
        compare_semeval(predictions_a=fits, predictions_b=past, references=fits, texts=PAST_TEXTS, n_resamples=20)
    with pytest.raises(InvalidInputError, match=rf"^references, sentence 1, entity 0: {re.escape(message)}$"):
        Accumulator().update(predictions=fits, references=past, texts=PAST_TEXTS)
    metric = load_metric(cache_dir=str(tmp_path))
    with pytest.raises(ValueError, match=re.escape(message)):
        metric.compute(predictions=past, references=fits, texts=PAST_TEXTS)
    # Ending at the text's end is within it; so is any span with string entities on the other side.
    assert compute_semeval(predictions=fits, references=fits, texts=PAST_TEXTS)["strict_f1"] == 1.0
    strings = [[("PER", "Ada")], [("PER", "Ada")]]
    with pytest.raises(InvalidInputError, match=rf"^references, sentence 1, entity 0: {re.escape(message)}$"):
        compute_semeval(predictions=strings, references=past, texts=PAST_TEXTS)


# ---------------------------------------------------------------------------------------------------------
# `entities` with `value`: each row's value partner from the value pairing's own table (docs/scoring.md §10)
# ---------------------------------------------------------------------------------------------------------

VALUE_TYPES = ("C", "A", "B")  # not in the names' order: rule (d) compares names


def _nested_side(rng, size: int, width: int) -> list[tuple[int, int, str]]:
    """Entities that nest and cross, some in copies, in any order."""
    spans = []
    for _ in range(rng.randint(0, size)):
        start = rng.randint(0, width)
        spans += [(start, start + rng.randint(1, 6), rng.choice(VALUE_TYPES))] * rng.choice((1, 1, 1, 2, 4))
    rng.shuffle(spans)
    return spans


@pytest.mark.parametrize(
    "options",
    [
        {"value": True},
        {"value": "ace08"},
        {"value": {"types": {"A": 2.0, "B": 0.5}, "type_error": 0.25, "boundary_error": 0.5}},
        {"value": {"min_overlap": 0.5, "false_alarm": 0.1}, "min_overlap": 0.3},
        {"value": True, "labels": ["A", "B"]},
    ],
    ids=["default", "ace08", "typed", "own-min-overlap", "labels"],
)
def test_value_partners_from_the_value_table_are_value_pairs_sentence_by_sentence(options) -> None:
    # `value_partner_dicts` joins the rows to `reducers.value_pairs`' table at once; `readable.value_partners`
    # pairs each sentence again with `value_pair` (it made return_entities=True with value=True slow on nested
    # sentences). The same partner for every row, copies included, on random nested batches.
    import random

    from nerscore import compute
    from nerscore.forms.readable import value_partners
    from nerscore.options import Options

    checked = Options.of(return_entities=True, **options)
    rng = random.Random(f"value partners {options}")
    for _ in range(trials(60)):
        sentences = rng.randint(1, 5)
        references = [_nested_side(rng, 8, 10) for _ in range(sentences)]
        predictions = [_nested_side(rng, 8, 10) for _ in range(sentences)]
        counted, table = compute.count_batch(predictions, references, "spans", checked, False)
        expected = [None if span is None else span.as_dict() for span in value_partners(table.rows(), checked)]
        assert compute.value_partner_dicts(table, checked) == expected, (references, predictions)
        # The tally's own table (Counted.value_pairs), made from the rows in another order, gives the same.
        assert counted.value_pairs is not None
        assert compute.value_partner_dicts(table, checked, counted.value_pairs) == expected, (references, predictions)


def test_entities_with_value_do_not_pair_nested_sentences_one_at_a_time(monkeypatch) -> None:
    # The rows' partners come from the value table the tally was reduced from, made on arrays: `value_pair`,
    # sentence by sentence, is not called (it was, once per sentence), and no second table is made.
    from nerscore.table import reducers
    from nerscore.table.reducers import value_pairs

    def refused(*_: object) -> None:
        raise AssertionError("value_pair called sentence by sentence")

    monkeypatch.setattr(reducers, "value_pair", refused)
    references = [[(0, 9, "A"), (1, 4, "B"), (5, 8, "A")]] * 50
    predictions = [[(0, 8, "A"), (1, 4, "A"), (5, 9, "B")]] * 50
    made = []
    monkeypatch.setattr(reducers, "value_pairs", lambda *given: made.append(1) or value_pairs(*given))
    result = compute_semeval(predictions=predictions, references=references, value=True, return_entities=True)
    assert len(result["entities"]) == 50 * 3
    assert result["entities"][0]["value_pair"] is not None
    assert made == [1]  # one value table, the tally's, for the rows too (it was made twice)


# errors=N without the entities' texts names N in its message: N of any size is described, never Python's bare
# "Exceeds the limit (4300 digits)" raised while the message was written.
ERRORS_WITHOUT_TEXTS = {
    "tags, N past int64": ([["B-X"]], {"errors": 2**64}, r"^tokens: errors=18446744073709551616 names each entity"),
    "tags, N of 5,001 digits": ([["B-X"]], {"errors": 10**5000}, r"^tokens: errors=<int of about 5,001 digits> names"),
    "spans, N of 5,001 digits": ([[(0, 1, "X")]], {"errors": 10**5000}, r"^texts: errors=<int of about 5,001 digits>"),
}


@pytest.mark.parametrize(
    ("batch", "options", "message"), ERRORS_WITHOUT_TEXTS.values(), ids=ERRORS_WITHOUT_TEXTS.keys()
)
def test_errors_without_texts_names_any_n(batch, options, message) -> None:
    with pytest.raises(InvalidInputError, match=message):
        compute_semeval(predictions=batch, references=batch, **options)
