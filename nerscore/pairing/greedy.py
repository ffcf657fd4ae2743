"""The HIPE scorer's pairing, `pairing="hipe"` (docs/hipe.md): greedy in file order, as the NER-Evaluation
algorithm it descends from pairs.

Each prediction, in order, takes the first reference (in order) that it matches: a reference identical to it
(scenario I); else the first reference with its boundaries and another type (IV), or the first it overlaps that
no earlier prediction took (V or VI), whichever comes first; else it is spurious (II). References no prediction
took are missed (III). Unlike `nerscore.pairing.rules.pair`, which maximises the pairs, then the same-type pairs
(docs/scoring.md §3), a prediction overlapping two references takes the first, whatever their types. As in the
scorer, an identical or same-boundary reference is taken even if an earlier prediction took it already: with
nested or overlapping entities a reference may then stand in two rows (never with tags, whose entities are
disjoint).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..span import Span


def pair_greedy(references: Sequence[Span], predictions: Sequence[Span]) -> list[tuple[Span | None, Span | None]]:
    """The HIPE scorer's pairing of one unit (a document) as rows (reference, prediction), either side None for
    an unpaired entity: the same rows as `nerscore.pairing.rules.pair` returns, in position order (the smaller
    start first, a row with a reference before one without)."""
    taken = [False] * len(references)
    rows: list[tuple[Span | None, Span | None]] = []
    by_value: dict[Span, int] = {}
    for index, reference in enumerate(references):
        by_value.setdefault(reference, index)
    for prediction in predictions:
        exact = by_value.get(prediction)
        if exact is not None:
            taken[exact] = True
            rows.append((references[exact], prediction))
            continue
        for index, reference in enumerate(references):
            same_bounds = (reference.start, reference.end) == (prediction.start, prediction.end)
            if same_bounds or (not taken[index] and reference.overlap(prediction) > 0):
                taken[index] = True
                rows.append((reference, prediction))
                break
        else:
            rows.append((None, prediction))
    rows.extend((reference, None) for index, reference in enumerate(references) if not taken[index])
    rows.sort(key=_position)
    return rows


def _position(row: tuple[Span | None, Span | None]) -> tuple[int, bool, int]:
    reference, prediction = row
    first = reference if reference is not None else prediction
    assert first is not None, "a row holds an entity"
    return min(span.start for span in row if span is not None), reference is None, first.end
