"""nerscore.statistics.sample_statistics: the resamples' vectorised scores follow `scores`' rules (docs/scoring.md
§4, §9)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore.statistics import sample_statistics

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    totals=st.lists(st.integers(0, 6), min_size=6, max_size=6),
    beta=st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.7]),
    zero_division=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_vectorised_measures_are_the_scores(totals: list[int], beta: float, zero_division: float) -> None:
    # The resamples are scored by `_measures`; it must follow `scores`' rules (zero_division, F = 0 where
    # beta²P + R = 0), P and R to the last bit (one correctly rounded division each), F within rounding.
    options = ns.Options.of(beta=beta, zero_division=zero_division)
    tally = ns.Tally({(scenario, None, None): n for scenario, n in zip(ns.SCENARIOS, totals) if n})
    expected = ns.scores(tally, options)
    measures = sample_statistics._measures(np.array(totals), options).reshape(-1)
    for key, value in zip(sample_statistics.measure_keys(options), measures.tolist()):
        if key.endswith(("_precision", "_recall")):
            assert value == expected[key], key
        else:
            assert value == pytest.approx(expected[key], rel=1e-12, abs=1e-15), key
