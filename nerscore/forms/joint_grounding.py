"""The joint grounding of string predictions (docs/scoring.md §1b): of the ways to give the predictions of each
text and type distinct occurrences of the text, the one whose §3 pairing is best, ties to the earliest
occurrences, exactly, as one max-weight flow per overlap component, never a search.

`grounding` decides every text and type with one answer (and finds each text's candidate occurrences); the rest
comes here (`ground_jointly`). Each (occurrence, type) holds at most one prediction (predictions of one text and
type take distinct occurrences; of different types they may share one), so a grounding with its pairing is a
bipartite flow of the same family as §3's pairing (`assignment.max_weight_flow`): a row per (candidate occurrence,
type), of capacity 1, against the references (capacity 1) and, for each text and type with more candidates than
predictions, an "ungrounded" column holding as many rows as stay without a prediction. A row on a reference is a
grounded prediction paired with it, a row on its "ungrounded" column an occurrence left for that type, a row on
neither a grounded prediction left unpaired. Where every text and type of a component is predicted once, of a
type none of its references has, the types of a text are interchangeable and the flow has a row per occurrence
instead (`_foreign_singletons`). A component of `STAGED_FROM` texts and types or more is solved in two stages
(`staged_grounding`): the pairing's value by a flow of the grounded predictions with costs of a few bits, then the
smallest list row by row among the flows as good.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..errors import FLOOR, refuse_past_free_memory
from ..pairing.assignment import max_weight_flow, union_find
from ..pairing.rules import overlap_edges, rank_shares
from ..span import Span
from .staged_grounding import Count, TextAndType, ground_in_stages, pair_weight

# Components of this many texts and types or more are solved in stages (`staged_grounding`): §1b's rows are then
# about (types x occurrences), each weight as many bits (issue 31, item 5); fewer go to the rows' one flow, faster
# there (two types over 2n occurrences: 0.04 s against 0.4 s at n = 400). Both are exact (tests/test_typesflow.py).
STAGED_FROM = 4


def ground_jointly(
    wanted: dict[TextAndType, int],
    candidates: dict[str, list[tuple[int, int]]],
    undecided: set[TextAndType],
    references: Sequence[Span],
    min_overlap: float | None,
    count: Count | None = None,
) -> dict[TextAndType, list[tuple[int, int]]]:
    """The occurrences each text and type of `undecided` takes (`wanted`: how many predictions each text and type
    of the sentence grounds, at most its candidates; `candidates`: each text's candidate occurrences, in order of
    position). Every text and type of `wanted` competes for the references; those not `undecided` take all of
    their candidates. Each overlap component (rows linked by a reference they overlap or by their text and type's
    "ungrounded" column) is one flow, solved only when it holds an undecided text and type."""
    rows: list[tuple[TextAndType, tuple[int, int]]] = []  # (text and type, occurrence)
    for key in wanted:
        rows.extend((key, place) for place in candidates[key[0]])
    edges = overlap_edges(references, [Span(*place, "") for _, place in rows], min_overlap)
    # Columns: reference r is r; the "ungrounded" column of a text and type is len(references) + its number.
    spare = {key: len(candidates[key[0]]) - number for key, number in wanted.items() if key in undecided}
    spare = {key: room for key, room in spare.items() if room > 0}
    column_of = {key: len(references) + number for number, key in enumerate(spare)}
    links = [(row, reference) for reference, row in edges]
    links += [(row, column_of[key]) for row, (key, _) in enumerate(rows) if key in column_of]
    components: dict[int, list[tuple[int, int]]] = {}
    for link, label in zip(links, union_find(links)):
        components.setdefault(label, []).append(link)
    chosen: dict[TextAndType, list[tuple[int, int]]] = {key: [] for key in undecided}
    placed: set[int] = set()
    for component in components.values():
        if not any(column >= len(references) for _, column in component):
            continue  # no text and type of it has a choice: each takes all of its candidates
        left_out = _foreign_singletons(component, rows, references, wanted, spare, count)
        if left_out is None:
            left_out = _foreign_apart(component, rows, references, wanted)
        if left_out is None and len({rows[row][0] for row, _ in component}) >= STAGED_FROM:
            left_out = ground_in_stages(component, rows, references, spare, count)
        if left_out is None:
            left_out = _best_grounding(component, rows, references, spare, column_of, count)
        for row in {row for row, _ in component}:
            placed.add(row)
            if row not in left_out:
                key, place = rows[row]
                if key in chosen:
                    chosen[key].append(place)
    for row, (key, place) in enumerate(rows):  # rows of no solved component: their text and type takes them all
        if key in chosen and row not in placed:
            chosen[key].append(place)
    return chosen


def _best_grounding(
    component: list[tuple[int, int]],
    rows: list[tuple[TextAndType, tuple[int, int]]],
    references: Sequence[Span],
    spare: dict[TextAndType, int],
    column_of: dict[TextAndType, int],
    count: Count | None = None,
) -> set[int]:
    """The rows of one component that stay ungrounded in its best grounding (§1b), by one max-weight flow.

    A pair's weight has the digits of §3's priorities (rule 1's identical boundaries and type, identical
    boundaries, then (a) pairs, (b) same-type pairs, (c) shared characters), each digit's total below its radix;
    below them the tie, the `rank_shares` of the rows' ranked (start, end, type): of two groundings as good by
    the pairing, the larger sum of the grounded rows' shares is the smaller sorted list. A row on its "ungrounded"
    column weighs more than any pair and share, less its own share (leaving it out loses its share), so every
    best flow fills each such column (as many rows of the text and type stay ungrounded as it has candidates
    beyond its predictions, §1b) and is, above that constant, the best pairing and then the smallest list. The
    pairing that scores the grounding is §3's own, afterwards, which settles rule (d)."""
    members = sorted({row for row, _ in component})
    involved = sorted({column for _, column in component if column < len(references)})
    radix = min(len(involved), len(members)) + 1
    extent_radix = sum(references[r].end - references[r].start for r in involved) + 1
    room = Counter((start, end, entity_type) for (_, entity_type), (start, end) in map(rows.__getitem__, members))
    share, scale = rank_shares(sorted(room), room)
    ungrounded_weight = (radix**4 * extent_radix + 1) * scale
    _check_fits(len(members), len(involved), len(component), ungrounded_weight)
    weights: dict[tuple[int, int], int] = {}
    for row, column in component:
        (_, entity_type), (start, end) = rows[row]
        if column >= len(references):
            weights[row, column] = ungrounded_weight - share[start, end, entity_type]
            continue
        reference = references[column]
        same_type = entity_type == reference.entity_type
        weights[row, column] = pair_weight((start, end), reference, same_type, radix, extent_radix) * scale
    columns = {column_of[key]: room_left for key, room_left in spare.items()}
    capacity = {column: columns.get(column, 1) for _, column in component}
    apart = _apart(component, weights, capacity, len(references))
    if apart is not None:
        return apart
    if count is not None:
        count("flows", 1)
        count("solves", 1)
    # Rows join the flow in order of their edges, then of their number: numbered latest (start, end, type) first,
    # the rows least worth grounding fill the "ungrounded" columns first, and a later row seldom displaces one.
    order = sorted(members, key=lambda row: (rows[row][1], rows[row][0][1]), reverse=True)
    number = {row: rank for rank, row in enumerate(order)}
    flow, _, _ = max_weight_flow({(number[row], column): w for (row, column), w in weights.items()}, None, capacity)
    return {order[row] for (row, column), amount in flow.items() if amount and column >= len(references)}


def _foreign_singletons(
    component: list[tuple[int, int]],
    rows: list[tuple[TextAndType, tuple[int, int]]],
    references: Sequence[Span],
    wanted: dict[TextAndType, int],
    spare: dict[TextAndType, int],
    count: Count | None = None,
) -> set[int] | None:
    """`_best_grounding`'s answer, by a flow of one row per occurrence, where every text and type of the component
    is predicted once, has more candidates than that, and is a type no reference of the component has; None for
    any other component (and where two texts share an occurrence's (start, end)).

    Such types are interchangeable in the pairing (every pair of theirs is of different types, its weight that of
    the occurrence alone), and one prediction has no occurrence to keep apart from another: any numbers c of
    predictions per occurrence, each at most the text's F types and adding up to F, is a grounding. Of groundings
    with the same numbers the smallest sorted list gives the text's types, in order, to its occurrences in order;
    so of two, the smaller list is the one with more predictions on the first occurrence whose numbers differ
    (the lists agree before it, and there one holds the other's types and the next). The shares rank occurrences,
    each taken up to F times, not (occurrence, type) rows: the weights have a few bits per occurrence, not one per
    row, and the flow has one row of capacity F per occurrence where §1b's own has F rows (issue 31, item 5: n
    types of "a" each predicted once over n references had n x n rows of n x n bits). Equal to `_best_grounding`
    on every small case tried (tests/test_typesflow.py)."""
    keys = {rows[row][0] for row, _ in component}
    involved = sorted({column for _, column in component if column < len(references)})
    if any(wanted[key] != 1 or key not in spare for key in keys) or {key[1] for key in keys} & {
        references[column].entity_type for column in involved
    }:
        return None
    text_of: dict[tuple[int, int], str] = {}
    for row in {row for row, _ in component}:
        (text, _), place = rows[row]
        if text_of.setdefault(place, text) != text:
            return None  # two texts on one (start, end): their types interleave in the sorted list
    types: dict[str, list[str]] = {}
    for text, entity_type in sorted(keys):
        types.setdefault(text, []).append(entity_type)
    places = sorted(text_of)
    number = {place: index for index, place in enumerate(places)}
    share, scale = rank_shares(places, {place: len(types[text_of[place]]) for place in places})
    radix = len(involved) + 1
    extent_radix = sum(references[r].end - references[r].start for r in involved) + 1
    ungrounded_weight = (radix**4 * extent_radix + 1) * scale
    _check_fits(len(places), len(involved), len(places) + len(component) // len(keys), ungrounded_weight)
    texts = sorted(types)
    column_of = {text: len(references) + index for index, text in enumerate(texts)}
    weights = {(number[place], column_of[text_of[place]]): ungrounded_weight - share[place] for place in places}
    for row, column in component:
        if column < len(references):
            place = rows[row][1]
            # (never of one type: no reference of the component has a predicted type)
            weights[number[place], column] = pair_weight(place, references[column], False, radix, extent_radix) * scale
    row_capacity = {number[place]: len(types[text_of[place]]) for place in places}
    capacity = {column: 1 for column in involved}
    capacity.update({column_of[text]: sum(spare[text, kind] for kind in types[text]) for text in texts})
    if count is not None:
        count("flows", 1)
        count("solves", 1)
    flow, _, _ = max_weight_flow(weights, row_capacity, capacity)
    left = Counter({row: amount for (row, column), amount in flow.items() if column >= len(references)})
    taken: set[tuple[TextAndType, tuple[int, int]]] = set()
    for text in texts:  # its types in order to its occurrences in order (the smallest sorted list)
        order = iter(types[text])
        for place in (place for place in places if text_of[place] == text):
            taken.update(((text, next(order)), place) for _ in range(row_capacity[number[place]] - left[number[place]]))
    return {row for row, _ in component if (rows[row][0], rows[row][1]) not in taken}


def _foreign_apart(
    component: list[tuple[int, int]],
    rows: list[tuple[TextAndType, tuple[int, int]]],
    references: Sequence[Span],
    wanted: dict[TextAndType, int],
) -> set[int] | None:
    """`_best_grounding`'s answer, without a flow, where the component is one text's, each of its references
    overlaps one occurrence (`place`) and each place at most one reference, and no type of it is a reference's
    type; None for any other component. One pass over the places, each costing the number of types.

    Pairing: a reference pairs only with a prediction on its own place, any of them alike (never of its type),
    so a grounding's pairing is worth the sum of the `gain`s ((same boundaries, shared characters): §3's digits
    of a pair of two types) of the places it covers, and a set C of places is covered by some grounding iff at
    most P (all predictions) of them overlap a reference (each type takes its w <= places consecutive ones, in
    turn, from a list of the places starting with C). The best pairings cover the places of the P largest gains:
    every place of a gain above the P-th largest (`REQUIRED`), q of those equal to it (`TIED`), none below it
    (`EXCLUDED`); places overlapping no reference are free. Completion: of what is left after a place, the
    remaining numbers r of the types complete a best grounding iff some q' tied places can be chosen with
    sum(r) >= required + q' and every r <= allowed = free + required + q' places (necessary: a type takes distinct
    allowed places; enough: the same turns over the allowed places, the required and chosen tied first).
    Smallest list: its items are ordered by place, then type; so of two groundings the smaller is the one whose
    first place of different types holds the smaller first type of the difference: at each place, the types the
    smallest completable set holds, which is the greedy one: every type that must be there (r = allowed + 1),
    then the smallest others while sum(r) stays >= required + q' (one type beats none: cover when it can)."""
    keys = {rows[row][0] for row, _ in component}
    if len({text for text, _ in keys}) != 1:
        return None
    reference_of: dict[tuple[int, int], int] = {}
    place_of: dict[int, tuple[int, int]] = {}
    for row, column in component:
        if column < len(references):
            place = rows[row][1]
            if reference_of.setdefault(place, column) != column or place_of.setdefault(column, place) != place:
                return None
    if {entity_type for _, entity_type in keys} & {references[column].entity_type for column in place_of}:
        return None
    places = sorted({rows[row][1] for row, _ in component})
    remaining = {entity_type: wanted[text, entity_type] for text, entity_type in keys}
    gain: dict[tuple[int, int], tuple[int, int]] = {}
    for place, column in reference_of.items():
        reference = references[column]
        same_bounds = place == (reference.start, reference.end)
        gain[place] = (same_bounds, min(place[1], reference.end) - max(place[0], reference.start))
    taken = _in_order(places, gain, remaining)
    if taken is None:
        return None  # never, by the argument above (tests/test_typesflow.py counts it): §1b's rows would decide
    return {row for row, _ in component if (rows[row][0][1], rows[row][1]) not in taken}


def _in_order(
    places: list[tuple[int, int]], gain: dict[tuple[int, int], tuple[int, int]], remaining: dict[str, int]
) -> set[tuple[str, tuple[int, int]]] | None:
    """`_foreign_apart`'s pass: the (type, place) of the best grounding with the smallest list, of `remaining`
    predictions of each type over `places` (in order) of which those in `gain` overlap a reference of their own;
    None if a place finds no completable choice."""
    ranked = sorted(gain.values(), reverse=True)
    covered = min(sum(remaining.values()), len(ranked))
    least = ranked[covered - 1] if covered < len(ranked) else (-1, -1)  # below every gain: all required
    kind = {place: _FREE if place not in gain else (gain[place] > least) - (gain[place] < least) for place in places}
    to_tie = covered - sum(1 for value in kind.values() if value == _REQUIRED)
    after = Counter(kind.values())  # the places after the current one, by kind
    order = sorted(remaining)
    total = sum(remaining.values())
    taken: set[tuple[str, tuple[int, int]]] = set()
    for place in places:
        here = kind[place]
        after[here] -= 1
        left = to_tie - (here == _TIED)
        chosen: list[str] = []
        if here != _EXCLUDED and left >= 0:
            allowed = after[_FREE] + after[_REQUIRED] + left
            budget = total - after[_REQUIRED] - left
            forced = [entity_type for entity_type in order if remaining[entity_type] > allowed]
            if (
                left <= after[_TIED]
                and max(1, len(forced)) <= budget
                and all(remaining[t] == allowed + 1 for t in forced)
            ):
                others = [t for t in order if 0 < remaining[t] <= allowed][: budget - len(forced)]
                chosen = sorted({*forced, *others})
        if chosen:
            to_tie = left
        else:  # nothing here; a best grounding must then complete without this place
            allowed = after[_FREE] + after[_REQUIRED] + to_tie
            if here == _REQUIRED or to_tie > after[_TIED] or total < after[_REQUIRED] + to_tie:
                return None
            if any(number > allowed for number in remaining.values()):
                return None
        for entity_type in chosen:
            remaining[entity_type] -= 1
            taken.add((entity_type, place))
        total -= len(chosen)
    return None if total or to_tie else taken


# `_foreign_apart`'s kinds of place: covered by no best pairing, by some (q of them), by every one; free.
_EXCLUDED, _TIED, _REQUIRED, _FREE = -1, 0, 1, 2


def _check_fits(rows: int, references: int, edges: int, largest: int) -> None:
    """An `InvalidInputError` before the flow where its weights would not fit in memory: each holds a share of every
    row (`rank_shares`, §1b's tie), an integer of as many bits as the component has rows, and every edge, potential
    and search step holds one, so memory grows with rows x edges (4 types of "a" under one reference over 2,500
    occurrences of it took 122 MB, 20 types 10 GB; about five weights an edge, measured). The caller adds the
    sentence and side."""
    refuse_past_free_memory(
        5 * edges * (largest.bit_length() // 8 + 32),
        f"its string predictions have {rows:,} candidate occurrences (one a type) competing for {references:,} "
        f"{'reference' if references == 1 else 'references'}, whose exact grounding (docs/scoring.md §1b) needs",
        "fewer occurrences of a predicted string in one text (split the document, or give the predictions as spans)",
        floor=FLOOR,
    )


def _apart(
    component: list[tuple[int, int]], weights: dict[tuple[int, int], int], capacity: dict[int, int], references: int
) -> set[int] | None:
    """The flow's answer without the flow where it is a ranking: one "ungrounded" column, and each row overlapping
    at most one reference that no other row overlaps (a text and type whose occurrences each lie in a reference
    of their own). Each row is then worth its own pair and share alone, and the rows left out are the
    `capacity` of the column worth least. None for any other component."""
    (column, *others) = [column for column in capacity if column >= references]
    if others:
        return None
    gains: dict[int, int] = {}
    seen: set[int] = set()
    for row, here in component:
        if here == column:
            continue
        if row in gains or here in seen:
            return None
        seen.add(here)
        gains[row] = weights[row, here]
    rows = sorted({row for row, _ in component}, key=lambda row: gains.get(row, 0) - weights[row, column])
    return set(rows[: capacity[column]])
