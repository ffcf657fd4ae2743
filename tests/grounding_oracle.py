"""A deliberately naive reading of docs/scoring.md §1b (strings grounded to the text) with §3's pairing, for
tests: every grounding of the predictions and every pairing of each is tried. Exponential: keep inputs tiny (the
callers bound the entities and occurrences). It never imports ner_semeval or nerscore.
"""

from __future__ import annotations

from itertools import product
from typing import NamedTuple

from oracle import _matchings  # every one-to-one pairing of the overlapping entities, by brute force


class Mention(NamedTuple):
    start: int
    end: int
    kind: str


def occurrences(text: str, needle: str) -> list[tuple[int, int]]:
    """Every place of `needle` in `text`, overlapping ones included, by trying every position."""
    return [(i, i + len(needle)) for i in range(len(text) - len(needle) + 1) if text[i : i + len(needle)] == needle]


def ground_references(text: str, references: list[tuple[str, str]]) -> list[Mention]:
    """The k-th listed reference of a text takes the text's k-th occurrence (§1b); None when there is none."""
    seen: dict[str, int] = {}
    mentions = []
    for kind, needle in references:
        places = occurrences(text, needle)
        k = seen.get(needle, 0)
        if k >= len(places):
            raise ValueError("a reference string does not occur often enough")
        seen[needle] = k + 1
        mentions.append(Mention(*places[k], kind))
    return mentions


def shared(a: Mention, b: Mention) -> int:
    return max(0, min(a.end, b.end) - max(a.start, b.start))


def overlaps(r: Mention, p: Mention, min_overlap: float | None = None) -> bool:
    """§3's overlap: a shared character, and with `min_overlap` m at least m of the reference's length (the
    float quotient), identical boundaries always."""
    if (r.start, r.end) == (p.start, p.end):
        return True
    if shared(r, p) <= 0:
        return False
    return min_overlap is None or shared(r, p) / (r.end - r.start) >= min_overlap


def best_pairing_key(
    references: list[Mention], predictions: list[Mention], min_overlap: float | None = None
) -> tuple[int, ...]:
    """§3's priorities of the best pairing, as numbers to maximise: pairs of identical boundaries and type, of
    identical boundaries, pairs, same-type pairs, shared characters (rule 1 is the first two)."""
    edges = [(i, j) for i, r in enumerate(references) for j, p in enumerate(predictions) if overlaps(r, p, min_overlap)]
    best = None
    for matching in _matchings(edges):
        pairs = [(references[i], predictions[j]) for i, j in matching]
        key = (
            sum((r.start, r.end, r.kind) == (p.start, p.end, p.kind) for r, p in pairs),
            sum((r.start, r.end) == (p.start, p.end) for r, p in pairs),
            len(pairs),
            sum(r.kind == p.kind for r, p in pairs),
            sum(shared(r, p) for r, p in pairs),
        )
        if best is None or key > best:
            best = key
    assert best is not None
    return best


def scenario_counts(key: tuple[int, ...], references: int, predictions: int) -> dict[str, int]:
    """The scenario counts a pairing of priorities `key` gives (they follow from the key alone)."""
    identical_and_type, identical, pairs, same_type, _ = key
    return {
        "I": identical_and_type,
        "IV": identical - identical_and_type,
        "V": same_type - identical_and_type,
        "VI": pairs - identical - (same_type - identical_and_type),
        "III": references - pairs,
        "II": predictions - pairs,
    }


def groundings(text: str, predictions: list[tuple[str, str]]):
    """Every grounding (§1b): each prediction an occurrence of its text or None, no occurrence taken twice by
    predictions of one text and type (predictions of one text with different types may share one), and as many
    of each text and type grounded as it has occurrences (or predictions)."""
    choices = []
    for _, needle in predictions:
        choices.append([None, *occurrences(text, needle)])
    wanted = {}
    for kind, needle in predictions:
        wanted[kind, needle] = min(predictions.count((kind, needle)), len(occurrences(text, needle)))
    for chosen in product(*choices):
        taken = [(kind, needle, place) for (kind, needle), place in zip(predictions, chosen) if place is not None]
        if len(set(taken)) != len(taken):
            continue
        if any(sum((k, n) == key for k, n, _ in taken) != number for key, number in wanted.items()):
            continue
        yield chosen


def best_grounding(
    text: str,
    references: list[tuple[str, str]] | list[Mention],
    predictions: list[tuple[str, str]],
    min_overlap: float | None = None,
) -> tuple[list[Mention], list[Mention], dict[str, int], int]:
    """The references' mentions, the best grounding's sorted mentions, its scenario counts and how many
    predictions stay ungrounded."""
    if references and not isinstance(references[0], Mention):
        grounded_r = ground_references(text, references)  # type: ignore[arg-type]
    else:
        grounded_r = list(references)  # type: ignore[arg-type]
    best = None
    for chosen in groundings(text, predictions):
        mentions = sorted(Mention(*place, kind) for (kind, _), place in zip(predictions, chosen) if place is not None)
        key = best_pairing_key(grounded_r, mentions, min_overlap)
        # better pairing first; then the smaller sorted list (compared as negated for the max)
        if best is None or key > best[0] or (key == best[0] and mentions < best[1]):
            best = (key, mentions)
    assert best is not None
    key, mentions = best
    ungrounded = len(predictions) - len(mentions)
    counts = scenario_counts(key, len(grounded_r), len(mentions))
    counts["II"] += ungrounded
    return grounded_r, mentions, counts, ungrounded
