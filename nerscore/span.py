"""An entity: a half-open interval and its type, what decoding yields and pairing pairs (docs/scoring.md §1)."""

from __future__ import annotations

import numbers
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
    """Whether `value` has the shape of an entity of span input (docs/scoring.md §1): a dict, a `Span`, a tuple
    or list of three (start, end, type), or a longer one that starts as one does, (start, end, type, score): a
    span with extra fields, which reading it as a tag would report as "predictions hold tags" with no entity
    named. A batch whose first value is one holds spans."""
    if isinstance(value, (Mapping, Span)):
        return True
    if not isinstance(value, (tuple, list)) or len(value) < 3:
        return False
    return len(value) == 3 or (_is_offset(value[0]) and _is_offset(value[1]) and isinstance(value[2], str))


def looks_like_scores(value: Any) -> bool:
    """Whether `value` is a tuple or list of numbers only: where a tag or id belongs, a token's scores per label
    (model logits given as nested lists, which want `argmax(-1)`); never an entity, whose type is a string."""
    return (
        isinstance(value, (tuple, list))
        and len(value) > 0
        and all(isinstance(item, numbers.Real) and not isinstance(item, bool) for item in value)
    )


LOGITS_HINT = "for model logits pass logits.argmax(-1)"


def _is_offset(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)
