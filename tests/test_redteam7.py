"""The seventh red team's escapes (issue 31's kinds): each a named case that failed before its fix."""

from __future__ import annotations

import pytest

from nerscore import Accumulator, compute_semeval

# Batches of spans of which `labels` keeps no entity count no cell, like `Tally()`: beside an empty batch (tags of
# no token) the sum kept its token counts, and batches gave `token_accuracy` 0.0 that one call of them all did not.
_SPANS = [[(1, 3, "PER")], [(0, 1, "PER")]]
EMPTY_BESIDE_FILTERED_SPANS = [
    pytest.param([], {"labels": ["LOC"]}, id="empty-batch"),
    pytest.param([[]], {"labels": ["LOC"]}, id="sentence-of-nothing"),
    pytest.param([[]], {"labels": ["LOC"], "bootstrap": 10}, id="with-intervals"),
    pytest.param([[], []], {"labels": ["LOC"], "slices": ["entity_length"], "per_type": True}, id="with-slices"),
]


@pytest.mark.parametrize(("empty", "options"), EMPTY_BESIDE_FILTERED_SPANS)
def test_an_empty_batch_adds_no_token_accuracy_to_spans_labels_keep_none_of(empty: list, options: dict) -> None:
    expected = compute_semeval(predictions=empty + _SPANS, references=empty + _SPANS, **options)
    assert "token_accuracy" not in expected
    before = Accumulator.of(**options).update(predictions=empty, references=empty)
    after = Accumulator.of(**options).update(predictions=_SPANS, references=_SPANS)
    assert before.update(predictions=_SPANS, references=_SPANS).result() == expected
    assert after.update(predictions=empty, references=empty).result() == compute_semeval(
        predictions=_SPANS + empty, references=_SPANS + empty, **options
    )
