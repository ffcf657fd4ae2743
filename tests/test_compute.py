"""nerscore.compute: the result dict `result_dict` puts together (docs/scoring.md §7): flat, of plain numbers, its
keys for each option, the `entities` rows JSON-ready."""

from __future__ import annotations

import json
import re

import pytest
from conftest import as_inputs, worked_example
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
