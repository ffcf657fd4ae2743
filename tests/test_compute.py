"""nerscore.compute: the result dict `result_dict` puts together (docs/scoring.md §7): flat, of plain numbers, its
keys for each option, the `entities` rows JSON-ready."""

from __future__ import annotations

import json

import pytest
from conftest import as_inputs, worked_example
from test_result_scores import COUNT_MEASURES, SINGER, SONG, expected_keys

from nerscore import compute_semeval

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
