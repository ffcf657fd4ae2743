"""The annotators' batches for agreement (docs/scoring.md §13), read and checked before any unit is labelled:
each annotator's batch as a list of sentences (None: a sentence it did not annotate), the form they share, the
columns beside them, and for tags the token counts every annotator must agree on (`nerscore.agreement_units`
labels the units of what is read here)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations, repeat
from operator import is_not
from typing import Any

import numpy as np

from .errors import InvalidInputError, is_collection, shown
from .forms.inputs import SPANS, TAGS, as_list, first_value, read_spans, rows_of, value_form
from .grouping import lengths


@dataclass(frozen=True)
class Annotator:
    """One annotator's batch as read: its sentences (an empty one where it gave None) and which it annotated."""

    name: str
    rows: Any  # a list of sentences, or a 2-D array of ids
    present: np.ndarray  # bool, one per sentence

    @property
    def side(self) -> str:
        return f"annotations[{self.name!r}]"


def read_annotations(annotations: Mapping[str, Any]) -> list[Annotator]:
    """Each annotator's batch as a list of sentences (None: not annotated), checked for the number of sentences."""
    if not isinstance(annotations, Mapping):
        raise ValueError(
            f"found {type(annotations).__name__}; expected annotations as a dict of annotator name -> batch"
        )
    if len(annotations) < 2:
        names = ", ".join(map(repr, annotations)) or "none"
        noun = "annotator" if len(annotations) == 1 else "annotators"
        raise ValueError(f"found {len(annotations)} {noun} ({names}); expected at least two to compare")
    read = []
    for name, batch in annotations.items():
        if not isinstance(name, str):
            raise ValueError(f"found the annotator name {shown(name)}; expected names as strings")
        name = str.__str__(name)  # a plain string (np.str_ of an array's): the result's names
        side = f"annotations[{name!r}]"
        if isinstance(batch, np.ndarray) and batch.ndim == 2:
            rows = as_list(batch, side)
            present = np.ones(len(rows), dtype=bool)
        else:
            if isinstance(batch, Mapping) or not is_collection(batch):
                raise InvalidInputError(
                    f"found {type(batch).__name__}; expected a batch: a list with one list per sentence", side
                )
            listed = list(batch)
            present = np.fromiter(map(is_not, listed, repeat(None)), dtype=bool, count=len(listed))  # at C speed
            rows = as_list(listed if present.all() else [row if row is not None else [] for row in listed], side)
        read.append(Annotator(name, rows, present))
    if len({len(annotator.present) for annotator in read}) > 1:
        first = read[0]
        other = next(annotator for annotator in read if len(annotator.present) != len(first.present))
        raise ValueError(
            f"annotator {first.name!r} gives {len(first.present)} sentences and {other.name!r} "
            f"{len(other.present)}; expected every annotator to give one entry (None: not annotated) per sentence"
        )
    return read


def common_form(annotators: list[Annotator]) -> str | None:
    """The form all annotators' batches share (docs/scoring.md §1), by each one's first value (None without any)."""
    forms = {}
    for annotator in annotators:
        value = first_value(rows_of(annotator.rows))
        if value is not None:
            forms[annotator.name] = value_form(value)
    if len(set(forms.values())) > 1:
        for annotator in annotators:  # a malformed entity ([3, 5]) beside spans: located as compute_semeval does
            value = first_value(rows_of(annotator.rows))
            if SPANS in forms.values() and forms.get(annotator.name) == TAGS and isinstance(value, (list, tuple)):
                read_spans(rows_of(annotator.rows), annotator.side)
        (name_a, form_a), (name_b, form_b) = next(
            (first, second) for first, second in combinations(forms.items(), 2) if first[1] != second[1]
        )
        raise ValueError(
            f"annotator {name_a!r} gives {form_a} and {name_b!r} gives {form_b}; expected every annotator's batch "
            "in one form"
        )
    return next(iter(forms.values()), None)


def check_token_counts(annotators: list[Annotator]) -> None:
    """Tags and ids: every sentence has as many tokens for every annotator who annotated it (docs/scoring.md §1)."""
    first = annotators[0]
    reference, known = lengths(first.rows), first.present.copy()
    reference_name = np.zeros(len(known), dtype=np.int64)
    for index, annotator in enumerate(annotators[1:], start=1):
        found = lengths(annotator.rows)  # (0 where it annotated none)
        differ = known & annotator.present & (found != reference)
        if differ.any():
            sentence = int(np.flatnonzero(differ)[0])
            other = annotators[int(reference_name[sentence])]
            raise InvalidInputError(
                f"{annotator.side} has {int(found[sentence])} tags and {other.side} {int(reference[sentence])}; "
                "expected every annotator's tags token-aligned, of equal length",
                annotator.side,
                sentence,
            )
        new = annotator.present & ~known
        reference[new] = found[new]
        reference_name[new] = index
        known |= new
