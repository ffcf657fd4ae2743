"""A fourteenth hostile sweep, of the statistics (issue 31): intervals, p-values and their inputs. Each named case
failed on the code before its fix."""

from __future__ import annotations

from typing import Any

import pytest

import nerscore as ns
from nerscore.pairing import overlaps

_REFERENCES = [["B-PER", "I-PER", "O"], ["B-LOC", "O"], ["O", "B-ORG"]] * 4
_RUN = [["B-PER", "O", "O"], ["B-LOC", "O"], ["O", "O"]] * 4
_OTHER = [["B-PER", "I-PER", "O"], ["O", "O"], ["O", "B-LOC"]] * 4

# The runs' two-level bootstrap (summarize_runs' bootstrap, compare_runs' n_resamples) held every resample's totals
# of every run, and the runs' picks, with no look at the memory free: 100 runs with `value` and 10**6 resamples
# asked 8.2 GB at once, a MemoryError (a bare one under a memory limit). Now refused before, as compute_semeval's
# bootstrap is: here with 100 kB free, 20,000 resamples of three runs (about 900 kB).
RUNS_PAST_THE_FREE_MEMORY = [
    pytest.param(
        lambda: ns.summarize_runs(runs=[_RUN, _OTHER, _RUN], references=_REFERENCES, bootstrap=20_000),
        id="summarize-runs",
    ),
    pytest.param(
        lambda: ns.compare_runs(runs_a=[_RUN], runs_b=[_OTHER, _RUN], references=_REFERENCES, n_resamples=20_000),
        id="compare-runs",
    ),
]


@pytest.mark.parametrize("call", RUNS_PAST_THE_FREE_MEMORY)
def test_runs_resamples_past_the_free_memory_are_refused_before_they_are_drawn(call: Any, monkeypatch) -> None:
    monkeypatch.setattr(overlaps, "free_memory", lambda: 100_000)
    with pytest.raises(ValueError, match=r"^bootstrap \(or n_resamples\): 20,000 resamples .* fewer runs$"):
        call()
    monkeypatch.setattr(overlaps, "free_memory", lambda: 10_000_000)  # (a guard: what fits is drawn)
    call()
