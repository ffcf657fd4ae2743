"""A metric that does nothing: the cost of evaluate's own round trip (issue 5's yardstick for `compute`).

`compute` on this module stores the batch in evaluate's Arrow cache, reads it back and calls `_compute`,
which returns ``{}``. Whatever ner_semeval's `compute` takes beyond this is ner_semeval's own cost.
The features are ner_semeval's string-tag features, so both modules store the same columns.
"""

from __future__ import annotations

from typing import Any

import datasets
import evaluate

_FEATURES = datasets.Features(
    {
        "predictions": datasets.Sequence(datasets.Value("string")),
        "references": datasets.Sequence(datasets.Value("string")),
    }
)


class NoopMetric(evaluate.Metric):
    """Stores tag sequences like ner_semeval and computes nothing."""

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            description="A metric that does nothing (benchmark baseline).",
            citation="",
            inputs_description="predictions, references: lists of string tag sequences",
            features=_FEATURES,
        )

    def _compute(self, *, predictions: list, references: list) -> dict[str, Any]:
        return {}
