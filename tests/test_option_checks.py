"""nerscore.option_checks: each option's check names the option and what it takes."""

from __future__ import annotations

import numpy as np
import pytest

import nerscore as ns


@pytest.mark.parametrize(
    "options, message",
    [
        ({"bootstrap": -1}, "bootstrap must be a whole number of resamples from 0 to 1,000,000"),
        ({"bootstrap": 1.5}, "bootstrap must be a whole number"),
        ({"bootstrap": True}, "bootstrap must be a whole number"),
        ({"bootstrap": "1000"}, "bootstrap must be a whole number"),
        ({"bootstrap": 1_000_001}, "bootstrap must be a whole number"),
        ({"confidence_level": 0}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": 1}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": 95}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": "0.95"}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": float("nan")}, "confidence_level must be a number between 0 and 1"),
        ({"seed": -1}, "seed must be a whole number >= 0"),
        ({"seed": 1.0}, "seed must be a whole number >= 0"),
        ({"seed": None}, "seed must be a whole number >= 0"),
    ],
)
def test_bad_statistics_options_are_named(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ns.compute_semeval(predictions=[["O"]], references=[["O"]], **options)


def test_statistics_options_take_numpy_numbers() -> None:
    options = ns.Options.of(bootstrap=np.int64(10), confidence_level=np.float32(0.9), seed=np.uint8(3))
    assert (options.bootstrap, options.seed) == (10, 3)
    assert options.confidence_level == pytest.approx(0.9)
