"""An entity: a half-open interval and its type, what decoding yields and pairing pairs (docs/scoring.md §1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, order=True)
class Span:
    """An entity: the half-open token interval ``[start, end)`` and its type."""

    start: int
    end: int
    entity_type: str

    def overlap(self, other: Span) -> int:
        """How many tokens the two spans share."""
        return max(0, min(self.end, other.end) - max(self.start, other.start))

    def as_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "type": self.entity_type}


def looks_like_entity(value: Any) -> bool:
    """Whether `value` has the shape of an entity of span input (docs/scoring.md §1): a dict, a `Span`, or a tuple
    or list of three (start, end, type). A batch whose first value is one holds spans."""
    return isinstance(value, (Mapping, Span)) or (isinstance(value, (tuple, list)) and len(value) == 3)
