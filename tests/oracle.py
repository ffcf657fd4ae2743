"""A deliberately naive second reading of docs/scoring.md §1-§5 and §7, for differential tests against ner_semeval.

Written from docs/scoring.md alone and on purpose in a different shape from the module: tags are decoded by
marking, token by token, where entities begin (§2) and grouping tokens by their entity's first token; strict
mode checks every scheme's letters with explicit code, not regular expressions; pairing (§3) enumerates every
one-to-one matching of a sentence's overlapping leftover entities and keeps the best by (a)-(d); scores are
exact fractions. It is slow (exponential in the entities of a sentence) and meant for sentences of a few
tokens. It never imports ner_semeval.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple, TypeVar

# docs/scoring.md §1: the prefix letters of each scheme.
LETTERS: dict[str, tuple[str, ...]] = {
    "IOB2": ("B", "I"),
    "IOB1": ("B", "I"),
    "IOE1": ("I", "E"),
    "IOE2": ("I", "E"),
    "IOBES": ("B", "I", "E", "S"),
    "BILOU": ("B", "I", "L", "U"),
    "BMES": ("B", "M", "E", "S"),
    "IO": ("I",),
}
ALIASES = {"BIO": "IOB2", "BIOES": "IOBES"}
ALL_SCHEMES = tuple(LETTERS)

# docs/scoring.md §2 names letters by what they do: B starts, S/U is a one-token entity, E/L ends, I/M continues.
STARTS = {"B"}
SINGLES = {"S", "U"}
ENDS = {"E", "L"}

MEASURES = ("correct", "incorrect", "partial", "missed", "spurious")
SCHEMES4 = ("strict", "exact", "partial", "type")

# docs/scoring.md §4, row by row.
TABLE: dict[str, dict[str, str]] = {
    "I": {"strict": "COR", "exact": "COR", "partial": "COR", "type": "COR"},
    "II": {"strict": "SPU", "exact": "SPU", "partial": "SPU", "type": "SPU"},
    "III": {"strict": "MIS", "exact": "MIS", "partial": "MIS", "type": "MIS"},
    "IV": {"strict": "INC", "exact": "COR", "partial": "COR", "type": "INC"},
    "V": {"strict": "INC", "exact": "INC", "partial": "PAR", "type": "COR"},
    "VI": {"strict": "INC", "exact": "INC", "partial": "PAR", "type": "INC"},
}
OUTCOME_NAMES = {"COR": "correct", "INC": "incorrect", "PAR": "partial", "MIS": "missed", "SPU": "spurious"}


class Entity(NamedTuple):
    """A decoded entity: tokens ``start`` to ``end - 1`` and its type."""

    start: int
    end: int
    kind: str


def scheme_name(scheme: str) -> str:
    name = ALIASES.get(scheme, scheme)
    if name not in LETTERS:
        raise ValueError(f"unknown scheme {scheme!r}")
    return name


def split_tag(tag: Any, scheme: str, suffix: bool) -> tuple[str, str] | None:
    """docs/scoring.md §1: None for ``O``, else (letter, type); anything that does not fit is a ValueError."""
    if isinstance(tag, str) and tag == "O":
        return None
    if not isinstance(tag, str):
        raise ValueError(f"not a string tag: {tag!r}")
    cut = tag.rfind("-") if suffix else tag.find("-")
    if cut < 0:
        raise ValueError(f"no hyphen in {tag!r}")
    if suffix:
        kind, letter = tag[:cut], tag[cut + 1 :]
    else:
        letter, kind = tag[:cut], tag[cut + 1 :]
    if kind == "":
        raise ValueError(f"no type in {tag!r}")
    if letter not in LETTERS[scheme]:  # a tuple of one-letter strings: no substring matches
        raise ValueError(f"letter {letter!r} of {tag!r} is not one of {scheme}")
    return letter, kind


def _tag(parsed: list[tuple[str, str] | None], i: int) -> tuple[str, str]:
    """Token i's (letter, type), which the callers read of entity tokens alone (never O's None)."""
    tag = parsed[i]
    assert tag is not None
    return tag


def _begins(parsed: list[tuple[str, str] | None], i: int) -> bool:
    """docs/scoring.md §2 lenient: does the (non-O) token i begin an entity?"""
    letter, kind = _tag(parsed, i)
    if letter in STARTS or letter in SINGLES:
        return True
    previous = parsed[i - 1] if i > 0 else None  # the sentence start counts as an O before it
    if previous is None:
        return True
    previous_letter, previous_kind = previous
    return previous_letter in ENDS or previous_letter in SINGLES or previous_kind != kind


def lenient_entities(parsed: list[tuple[str, str] | None]) -> list[Entity]:
    # Every non-O token belongs to the entity begun by the nearest beginning token at or before it.
    head: list[int | None] = []
    for i, item in enumerate(parsed):
        if item is None:
            head.append(None)
        elif _begins(parsed, i):
            head.append(i)
        else:
            head.append(head[i - 1])
    groups: dict[int, list[int]] = {}
    for i, h in enumerate(head):
        if h is not None:
            groups.setdefault(h, []).append(i)
    return [Entity(h, tokens[-1] + 1, _tag(parsed, h)[1]) for h, tokens in sorted(groups.items())]


def _only(letters: list[str], allowed: str) -> bool:
    return all(letter == allowed for letter in letters)


def _well_formed(entity: Entity, letters: list[str], scheme: str, neighbours: list[Entity]) -> bool:
    """docs/scoring.md §2 strict: the letters of one lenient entity, checked scheme by scheme."""
    first, last, middle = letters[0], letters[-1], letters[1:-1]
    single = len(letters) == 1
    same_type_before = any(n.end == entity.start and n.kind == entity.kind for n in neighbours)
    same_type_after = any(n.start == entity.end and n.kind == entity.kind for n in neighbours)
    if scheme == "IOB2":
        return first == "B" and _only(letters[1:], "I")
    if scheme == "IOB1":
        if _only(letters, "I"):
            return True
        return first == "B" and _only(letters[1:], "I") and same_type_before
    if scheme == "IOE2":
        return last == "E" and _only(letters[:-1], "I")
    if scheme == "IOE1":
        if _only(letters, "I"):
            return True
        return last == "E" and _only(letters[:-1], "I") and same_type_after
    if scheme in ("IOBES", "BILOU", "BMES"):
        begin, inside, end, one = tuple({"IOBES": "BIES", "BILOU": "BILU", "BMES": "BMES"}[scheme])
        if single:
            return first == one
        return first == begin and last == end and _only(middle, inside)
    if scheme == "IO":
        return _only(letters, "I")
    raise AssertionError(scheme)


def decode(tags: Sequence[Any], scheme: str = "IOB2", mode: str = "lenient", suffix: bool = False) -> list[Entity]:
    scheme = scheme_name(scheme)
    if mode not in ("lenient", "strict"):
        raise ValueError(f"unknown mode {mode!r}")
    parsed = [split_tag(tag, scheme, suffix) for tag in tags]
    entities = lenient_entities(parsed)
    if mode == "lenient":
        return entities
    return [
        e
        for e in entities
        if _well_formed(e, [_tag(parsed, i)[0] for i in range(e.start, e.end)], scheme, [n for n in entities if n != e])
    ]


def shared(a: Entity, b: Entity) -> int:
    return len(set(range(a.start, a.end)) & set(range(b.start, b.end)))


def _matchings(edges: list[tuple[int, int]], k: int = 0, used_r=frozenset(), used_p=frozenset()):
    """Every set of pairwise disjoint edges (each a one-to-one matching), by brute force."""
    if k == len(edges):
        yield []
        return
    yield from _matchings(edges, k + 1, used_r, used_p)
    i, j = edges[k]
    if i not in used_r and j not in used_p:
        for rest in _matchings(edges, k + 1, used_r | {i}, used_p | {j}):
            yield [(i, j), *rest]


E = TypeVar("E")  # an entity of either reading (Entity, Piecewise)


def _best_rows(
    references: Sequence[E],
    predictions: Sequence[E],
    edges: list[tuple[int, int]],
    badness: Callable[[list[tuple[int, int]]], Any],
) -> list[tuple[E | None, E | None]]:
    """The rows of the matching of `edges` that `badness` ranks best (every matching tried), then each side's
    entities left unmatched."""
    best = min(_matchings(edges), key=badness)
    rows: list[tuple[E | None, E | None]] = [(references[i], predictions[j]) for i, j in best]
    rows.extend((r, None) for i, r in enumerate(references) if i not in {i for i, _ in best})
    rows.extend((None, p) for j, p in enumerate(predictions) if j not in {j for _, j in best})
    return rows


def pair(references: list[Entity], predictions: list[Entity]) -> list[tuple[Entity | None, Entity | None]]:
    """docs/scoring.md §3 for one sentence: a list of (reference or None, prediction or None)."""
    rows: list[tuple[Entity | None, Entity | None]] = []
    left_r, left_p = [], list(predictions)
    for r in references:
        twin = [p for p in left_p if (p.start, p.end) == (r.start, r.end)]
        if twin:
            rows.append((r, twin[0]))
            left_p.remove(twin[0])
        else:
            left_r.append(r)
    edges = [(i, j) for i, r in enumerate(left_r) for j, p in enumerate(left_p) if shared(r, p) > 0]

    def badness(matching: list[tuple[int, int]]):
        pairs = [(left_r[i], left_p[j]) for i, j in matching]
        return (
            -len(pairs),  # (a)
            -sum(r.kind == p.kind for r, p in pairs),  # (b)
            -sum(shared(r, p) for r, p in pairs),  # (c)
            sorted((r.start, p.start) for r, p in pairs),  # (d)
        )

    rows.extend(_best_rows(left_r, left_p, edges, badness))
    return rows


def scenario(reference: Entity | None, prediction: Entity | None) -> str:
    if reference is None:
        return "II"
    if prediction is None:
        return "III"
    same_bounds = (reference.start, reference.end) == (prediction.start, prediction.end)
    same_type = reference.kind == prediction.kind
    if same_bounds:
        return "I" if same_type else "IV"
    return "V" if same_type else "VI"


def _to_tags(batch: Any) -> list[list[Any]]:
    if isinstance(batch, (str, bytes)) or not isinstance(batch, Sequence):
        raise ValueError("a batch is a list of sentences")
    sentences = []
    for sentence in batch:
        if isinstance(sentence, (str, bytes)) or not isinstance(sentence, Sequence):
            raise ValueError("a sentence is a list of tags")
        sentences.append(list(sentence))
    return sentences


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _from_ids(predictions, references, label_list, ignore_index):
    """docs/scoring.md §1: drop the positions whose reference is ignore_index, then look ids up in label_list."""
    if label_list is None:
        raise ValueError("integer ids need a label_list")
    lookup = dict(label_list) if isinstance(label_list, Mapping) else dict(enumerate(label_list))
    out_p, out_r = [], []
    for p_row, r_row in zip(predictions, references):
        kept = [(p, r) for p, r in zip(p_row, r_row) if not (_is_id(r) and r == ignore_index)]
        for p, r in kept:
            if not (_is_id(p) and p in lookup and _is_id(r) and r in lookup):
                raise ValueError(f"ids {p!r}, {r!r} are not all in label_list")
        out_p.append([lookup[p] for p, _ in kept])
        out_r.append([lookup[r] for _, r in kept])
    return out_p, out_r


def _ratio(numerator: Fraction | int, denominator: Fraction | int, zero_division: Fraction) -> Fraction:
    return zero_division if denominator == 0 else Fraction(numerator) / denominator


def _prf(credit, act, pos, beta2, zero_division):
    precision = _ratio(credit, act, zero_division)
    recall = _ratio(credit, pos, zero_division)
    # F is 0 where its own denominator is (docs/scoring.md §4): zero_division enters only through P and R.
    f = _ratio((1 + beta2) * precision * recall, beta2 * precision + recall, Fraction(0))
    return precision, recall, f


def evaluate(
    predictions: Any,
    references: Any,
    *,
    scheme: str = "IOB2",
    mode: str = "lenient",
    suffix: bool = False,
    labels: Sequence[str] | None = None,
    beta: float = 1.0,
    zero_division: float = 0.0,
    per_type: bool = False,
    return_entities: bool = False,
    label_list: Sequence[str] | Mapping[int, str] | None = None,
    ignore_index: int = -100,
) -> dict[str, Any]:
    """The docs/scoring.md §7 dict computed the slow, obvious way; `entities` rows come in no particular order."""
    scheme = scheme_name(scheme)
    predictions, references = _to_tags(predictions), _to_tags(references)
    if len(predictions) != len(references):
        raise ValueError("different numbers of sentences")
    for p_row, r_row in zip(predictions, references):
        if len(p_row) != len(r_row):
            raise ValueError("sentence lengths differ")
    if any(_is_id(tag) for batch in (predictions, references) for row in batch for tag in row):
        predictions, references = _from_ids(predictions, references, label_list, ignore_index)

    rows = []  # (scenario, reference type or None, predicted type or None)
    entities = []
    for sentence, (p_row, r_row) in enumerate(zip(predictions, references)):
        predicted = decode(p_row, scheme, mode, suffix)
        referenced = decode(r_row, scheme, mode, suffix)
        if labels is not None:
            predicted = [e for e in predicted if e.kind in labels]
            referenced = [e for e in referenced if e.kind in labels]
        for r, p in pair(referenced, predicted):
            rows.append((scenario(r, p), r.kind if r else None, p.kind if p else None))
            entities.append(_entity_row(sentence, r, p))

    beta2 = Fraction(beta) ** 2
    zd = Fraction(zero_division)
    f_name = "f1" if beta == 1 else f"f{beta:g}"
    present = sorted({t for _, r, p in rows for t in (r, p) if t is not None})
    kinds = list(dict.fromkeys(labels)) if labels is not None else present
    result: dict[str, Any] = {}
    typed: dict[str, int | float] = {}
    for name in SCHEMES4:
        counts = dict.fromkeys(MEASURES, 0)
        for s, _, _ in rows:
            counts[OUTCOME_NAMES[TABLE[s][name]]] += 1
        pos = counts["correct"] + counts["incorrect"] + counts["partial"] + counts["missed"]
        act = counts["correct"] + counts["incorrect"] + counts["partial"] + counts["spurious"]
        credit = counts["correct"] + Fraction(counts["partial"], 2)
        precision, recall, f = _prf(credit, act, pos, beta2, zd)
        result[f"{name}_precision"] = float(precision)
        result[f"{name}_recall"] = float(recall)
        result[f"{name}_{f_name}"] = float(f)
        result.update({f"{name}_{m}": counts[m] for m in MEASURES})
        result[f"{name}_possible"] = pos
        result[f"{name}_actual"] = act

        # docs/scoring.md §5: recall side from the references of type T, precision side from the predictions of type T.
        sums = [Fraction(0)] * 3
        for kind in kinds:
            ref_outcomes = [TABLE[s][name] for s, r, _ in rows if r == kind]
            pred_outcomes = [TABLE[s][name] for s, _, p in rows if p == kind]
            ref_credit = ref_outcomes.count("COR") + Fraction(ref_outcomes.count("PAR"), 2)
            pred_credit = pred_outcomes.count("COR") + Fraction(pred_outcomes.count("PAR"), 2)
            t_precision = _ratio(pred_credit, len(pred_outcomes), zd)
            t_recall = _ratio(ref_credit, len(ref_outcomes), zd)
            t_f = _ratio((1 + beta2) * t_precision * t_recall, beta2 * t_precision + t_recall, Fraction(0))
            sums = [sums[0] + t_precision, sums[1] + t_recall, sums[2] + t_f]
            typed[f"{kind}_{name}_precision"] = float(t_precision)
            typed[f"{kind}_{name}_recall"] = float(t_recall)
            typed[f"{kind}_{name}_{f_name}"] = float(t_f)
            typed[f"{kind}_{name}_possible"] = len(ref_outcomes)
            typed[f"{kind}_{name}_actual"] = len(pred_outcomes)
        for measure, total in zip(("precision", "recall", f_name), sums):
            # The mean over no types: zero_division, as for F when neither side has an entity (docs/scoring.md §5).
            result[f"{name}_macro_{measure}"] = float(total / len(kinds)) if kinds else float(zd)
    # docs/scoring.md §7: token_accuracy, the tokens (after ignore_index) whose two tags are the same string.
    tokens = [(p, r) for p_row, r_row in zip(predictions, references) for p, r in zip(p_row, r_row)]
    result["token_accuracy"] = float(_ratio(sum(p == r for p, r in tokens), len(tokens), zd))
    if per_type:
        result.update(typed)
    if return_entities:
        result["entities"] = entities
    return result


def _entity_row(sentence: int, reference: Entity | None, prediction: Entity | None) -> dict[str, Any]:
    def side(entity: Entity | None) -> dict[str, Any] | None:
        return None if entity is None else {"start": entity.start, "end": entity.end, "type": entity.kind}

    name = scenario(reference, prediction)
    row = {"sentence": sentence, "reference": side(reference), "prediction": side(prediction), "scenario": name}
    return row | TABLE[name]


# ---------------------------------------------------------------------------------------------------------------
# docs/scoring.md §12: discontinuous entities, read on sets of units
# ---------------------------------------------------------------------------------------------------------------


class Piecewise(NamedTuple):
    """An entity of §12: its merged fragments (sorted, none touching) and its type; its units as a set."""

    fragments: tuple[tuple[int, int], ...]
    kind: str

    @property
    def units(self) -> frozenset[int]:
        return frozenset(position for start, end in self.fragments for position in range(start, end))


def piecewise(fragments: Sequence[Sequence[int]], kind: str) -> Piecewise:
    """§12: the units of the fragments, cut back into maximal runs (touching or overlapping fragments merge)."""
    units = sorted({position for start, end in fragments for position in range(start, end)})
    runs: list[list[int]] = []
    for position in units:
        if runs and runs[-1][1] == position:
            runs[-1][1] = position + 1
        else:
            runs.append([position, position + 1])
    return Piecewise(tuple((start, end) for start, end in runs), kind)


def pair_piecewise(
    references: list[Piecewise], predictions: list[Piecewise], min_overlap: float | None = None
) -> list[tuple[Piecewise | None, Piecewise | None]]:
    """§3 with §12, by trying every one-to-one matching of overlapping entities: the best by rule 1 (identical
    fragment lists of one type, then identical fragment lists), then (a) pairs, (b) same-type pairs, (c) shared
    units, (d) the smallest sorted list of (reference fragments, type, prediction fragments, type)."""

    def overlap(r: Piecewise, p: Piecewise) -> bool:
        common = len(r.units & p.units)
        if not common:
            return False
        return min_overlap is None or common / len(r.units) >= min_overlap

    edges = [
        (i, j)
        for i, r in enumerate(references)
        for j, p in enumerate(predictions)
        if overlap(r, p) or r.fragments == p.fragments
    ]

    def badness(matching: list[tuple[int, int]]):
        pairs = [(references[i], predictions[j]) for i, j in matching]
        same = [r.fragments == p.fragments for r, p in pairs]
        return (
            -sum(s and r.kind == p.kind for s, (r, p) in zip(same, pairs)),
            -sum(same),
            -len(pairs),
            -sum(r.kind == p.kind for r, p in pairs),
            -sum(len(r.units & p.units) for r, p in pairs),
            sorted((r.fragments, r.kind, p.fragments, p.kind) for r, p in pairs),
        )

    return _best_rows(references, predictions, edges, badness)


def piecewise_scenario(reference: Piecewise | None, prediction: Piecewise | None) -> str:
    """§4 with §12: identical boundaries are identical fragment lists."""
    if reference is None:
        return "II"
    if prediction is None:
        return "III"
    same_type = reference.kind == prediction.kind
    if reference.fragments == prediction.fragments:
        return "I" if same_type else "IV"
    return "V" if same_type else "VI"


def piecewise_counts(
    rows: list[tuple[Piecewise | None, Piecewise | None]],
    references: list[Piecewise],
    predictions: list[Piecewise],
    min_overlap: float | None = None,
) -> dict[str, Any]:
    """What §4, §10 and §11 count of one sentence's rows, on units: each scheme's five counts, the overlap
    credit (shared / union units), the diagnostics (containment of units; split and merged pairing aside)."""
    counts: dict[str, Any] = {f"{scheme}_{measure}": 0 for scheme in SCHEMES4 for measure in MEASURES}
    diagnostics = {"boundary_too_long": 0, "boundary_too_short": 0, "boundary_crossing": 0}
    credit = Fraction(0)
    for r, p in rows:
        kind = piecewise_scenario(r, p)
        for scheme in SCHEMES4:
            counts[f"{scheme}_{OUTCOME_NAMES[TABLE[kind][scheme]]}"] += 1
        if kind in ("V", "VI"):
            assert r is not None and p is not None
            credit += Fraction(len(r.units & p.units), len(r.units | p.units))
            if r.units <= p.units:
                diagnostics["boundary_too_long"] += 1
            elif p.units <= r.units:
                diagnostics["boundary_too_short"] += 1
            else:
                diagnostics["boundary_crossing"] += 1

    def overlap(r: Piecewise, p: Piecewise) -> bool:
        common = len(r.units & p.units)
        return bool(common) and (min_overlap is None or common / len(r.units) >= min_overlap)

    diagnostics["split"] = sum(sum(overlap(r, p) for p in predictions) >= 2 for r in references)
    diagnostics["merged"] = sum(sum(overlap(r, p) for r in references) >= 2 for p in predictions)
    return {**counts, **diagnostics, "credit": credit}
