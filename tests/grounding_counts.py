"""What the joint grounding of strings did, counted through `nerscore.forms.grounding.count`: the occurrences it looked
at, the components it solved by a flow and the flows it solved for them. The
tests bound these, never the clock."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from nerscore.forms import grounding


@dataclass
class Tracker:
    """How many occurrences were looked at: what the tests bound to show that nothing is quadratic."""

    occurrences: int = 0
    flows: int = 0  # components solved by the flow (the rest had one answer)
    solves: int = 0  # max-weight flows solved for them: one each, nothing branches (§1b)


@contextmanager
def tracked() -> Iterator[Tracker]:
    """The counts of what the grounding does inside the `with` block."""
    tracker = Tracker()

    def count(what: str, number: int) -> None:
        setattr(tracker, what, getattr(tracker, what) + number)

    previous, grounding.count = grounding.count, count
    try:
        yield tracker
    finally:
        grounding.count = previous
