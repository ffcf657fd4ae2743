"""Pairing reference and predicted entities into scenarios (docs/scoring.md §3, §4).

Identical boundaries pair first; the rest pair by the four priorities of §3. Sides without overlapping entities
(always so for tags) are paired by a dynamic programme linear in the entities; nested, overlapping or repeated
entities make general bipartite components, each solved exactly as an assignment problem (`nerscore.assignment`).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from itertools import pairwise

from .assignment import connected, max_weight_matching, strong_components
from .span import Span

SCENARIOS = ("I", "II", "III", "IV", "V", "VI")


def scenario_of(reference: Span | None, prediction: Span | None) -> str:
    """The docs/scoring.md §4 scenario of a pair, or of an unpaired entity (the other side None)."""
    if reference is None:
        return "II"
    if prediction is None:
        return "III"
    same_type = reference.entity_type == prediction.entity_type
    if (reference.start, reference.end) == (prediction.start, prediction.end):
        return "I" if same_type else "IV"
    return "V" if same_type else "VI"


def pair(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None = None
) -> list[tuple[Span | None, Span | None]]:
    """Pair the entities of one sentence one-to-one (docs/scoring.md §3), in position order.

    Identical boundaries always pair. The rest pair among overlapping spans to maximise, in this order, the
    number of pairs, the number of same-type pairs and the shared extent; ties go to the lexicographically
    smallest sorted list of pairs. Unlike nervaluate's greedy first-come matching, this is exact. With
    `min_overlap`, a prediction overlaps a reference only if it covers at least that share of its length.

    When neither side has two entities that overlap (always so for tags), optimal pairings never cross and a
    dynamic programme linear in the number of entities solves it (`_pair_disjoint`). Nested, overlapping or
    repeated entities on a side make general bipartite components, each solved exactly as an assignment
    problem (`_pair_nested`).
    """
    if _disjoint(references) and _disjoint(predictions):
        rows = _pair_disjoint(references, predictions, min_overlap)
    else:
        rows = _pair_nested(references, predictions, min_overlap)
    rows.sort(key=_row_position)
    return rows


def _disjoint(spans: Sequence[Span]) -> bool:
    """Whether no two of `spans` share a position (identical duplicates share all of theirs)."""
    bounds = sorted((span.start, span.end) for span in spans)
    return all(end <= start for (_, end), (start, _) in pairwise(bounds))


def _overlaps(reference: Span, prediction: Span, min_overlap: float | None) -> bool:
    """Whether the two overlap (docs/scoring.md §3): they share a position, and with `min_overlap` the shared
    extent is at least that share of the reference's length. The share is the float quotient, as nervaluate
    computes it, so 0.1 admits 1 token of 10 (whose exact ratio lies just below the float 0.1)."""
    shared = reference.overlap(prediction)
    if min_overlap is None or not shared:
        return shared > 0
    return shared / (reference.end - reference.start) >= min_overlap


def _span_key(span: Span) -> tuple[int, int, str]:
    return span.start, span.end, span.entity_type


def _row_position(row: tuple[Span | None, Span | None]) -> tuple:
    # docs/scoring.md §7: smaller start first, rows with a reference first, then by the first entity's end; the
    # rest only orders rows that nested or repeated entities would otherwise leave tied.
    reference, prediction = row
    starts = [span.start for span in row if span is not None]
    first = reference if reference is not None else prediction
    assert first is not None, "a row holds an entity"
    paired = (
        () if prediction is None or reference is None else (prediction.start, prediction.end, prediction.entity_type)
    )
    return min(starts), reference is None, first.end, first.start, first.entity_type, not paired, paired


def _pair_disjoint(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None
) -> list[tuple[Span | None, Span | None]]:
    """`pair` for sides whose entities are disjoint, in any order."""
    by_bounds = {(p.start, p.end): p for p in predictions}
    rows: list[tuple[Span | None, Span | None]] = []
    left_references = []
    for reference in references:
        match = by_bounds.pop((reference.start, reference.end), None)
        if match is None:
            left_references.append(reference)
        else:
            rows.append((reference, match))
    left_predictions = sorted(by_bounds.values())
    left_references.sort()
    paired = pair_overlapping(left_references, left_predictions, min_overlap)
    rows.extend(paired)
    taken_references = {id(r) for r, _ in paired}
    taken_predictions = {id(p) for _, p in paired}
    rows.extend((r, None) for r in left_references if id(r) not in taken_references)
    rows.extend((None, p) for p in left_predictions if id(p) not in taken_predictions)
    return rows


def pair_overlapping(
    references: list[Span], predictions: list[Span], min_overlap: float | None = None
) -> list[tuple[Span, Span]]:
    # Overlap edges (i, j), sorted by i then j; j never decreases along the list (see docs/scoring.md §3). With
    # `min_overlap` some edges are left out, which keeps both properties: a subset of non-crossing edges does
    # not cross.
    edges: list[tuple[int, int]] = []
    first_open = 0
    for i, reference in enumerate(references):
        while first_open < len(predictions) and predictions[first_open].end <= reference.start:
            first_open += 1
        j = first_open
        while j < len(predictions) and predictions[j].start < reference.end:
            if min_overlap is None or _overlaps(reference, predictions[j], min_overlap):
                edges.append((i, j))
            j += 1
    if not edges:
        return []

    # One integer per edge orders (pairs, same-type pairs, shared tokens) lexicographically: each total is
    # below `base`, the number of tokens spanned plus one.
    base = max(s.end for s in (*references, *predictions)) + 1

    def weight(edge: tuple[int, int]) -> int:
        reference, prediction = references[edge[0]], predictions[edge[1]]
        same_type = reference.entity_type == prediction.entity_type
        return base * base + base * same_type + reference.overlap(prediction)

    # After edge k, the edges compatible with it (later reference and later prediction) form a suffix of the
    # list starting at follow[k]; best[k] is the best total of a pairing whose first edge is k.
    count = len(edges)
    follow = [count] * count
    cut = count
    for k in range(count - 1, -1, -1):
        i, j = edges[k]
        while cut > k + 1 and edges[cut - 1][0] > i and edges[cut - 1][1] > j:
            cut -= 1
        follow[k] = cut
    best = [0] * count
    best_from = [0] * (count + 1)  # best_from[k] = max(best[k:]), 0 for the empty pairing
    for k in range(count - 1, -1, -1):
        best[k] = weight(edges[k]) + best_from[follow[k]]
        best_from[k] = max(best[k], best_from[k + 1])

    # Reading left to right and taking the first edge that still reaches the optimum gives the
    # lexicographically smallest pairing among the optimal ones (docs/scoring.md §3 d).
    pairs = []
    target = best_from[0]
    k = 0
    while target > 0:
        while best[k] != target:
            k += 1
        i, j = edges[k]
        pairs.append((references[i], predictions[j]))
        target -= weight(edges[k])
        k = follow[k]
    return pairs


def _pair_nested(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None
) -> list[tuple[Span | None, Span | None]]:
    """`pair` for sides with nested, overlapping or repeated entities: the overlap graph is split into its
    connected components, and each is solved exactly (docs/scoring.md §3)."""
    edges = _overlap_edges(references, predictions, min_overlap)
    # Union-find over references 0..n-1 and predictions n..n+m-1.
    parent = list(range(len(references) + len(predictions)))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for i, j in edges:
        parent[root(i)] = root(len(references) + j)
    components: dict[int, list[tuple[int, int]]] = {}
    for i, j in edges:
        components.setdefault(root(i), []).append((i, j))
    # Rule (d) compares entities by (start, end, type): rank each side once, identical entities alike.
    ranks = [_dense_ranks(side) for side in (references, predictions)]
    pairs = [
        edge for component in components.values() for edge in _best_pairs(references, predictions, component, ranks)
    ]
    taken_references = {i for i, _ in pairs}
    taken_predictions = {j for _, j in pairs}
    rows: list[tuple[Span | None, Span | None]] = [(references[i], predictions[j]) for i, j in pairs]
    rows.extend((r, None) for i, r in enumerate(references) if i not in taken_references)
    rows.extend((None, p) for j, p in enumerate(predictions) if j not in taken_predictions)
    return rows


def _dense_ranks(spans: Sequence[Span]) -> list[int]:
    """The rank of each span by (start, end, type), equal for identical spans."""
    keys = sorted(set(map(_span_key, spans)))
    rank = {key: index for index, key in enumerate(keys)}
    return [rank[_span_key(span)] for span in spans]


def _overlap_edges(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None
) -> list[tuple[int, int]]:
    """(reference index, prediction index) of every overlapping pair, found by one sweep over the starts: each
    entity meets the entities of the other side still open where it starts, so the time is O(n log n) plus the
    number of edges, however deeply the entities nest."""
    sides = (references, predictions)
    order = sorted((span.start, side, index) for side, spans in enumerate(sides) for index, span in enumerate(spans))
    open_spans: tuple[list, list] = ([], [])  # per side, a heap of (end, index) of the entities begun so far
    edges = []
    for start, side, index in order:
        other = open_spans[1 - side]
        while other and other[0][0] <= start:
            heapq.heappop(other)
        # Whatever is left on the other side began at or before `start` and ends after it.
        for _, other_index in other:
            i, j = (index, other_index) if side == 0 else (other_index, index)
            if min_overlap is None or _overlaps(references[i], predictions[j], min_overlap):
                edges.append((i, j))
        heapq.heappush(open_spans[side], (sides[side][index].end, index))
    return edges


def _best_pairs(
    references: Sequence[Span],
    predictions: Sequence[Span],
    edges: list[tuple[int, int]],
    ranks: list[list[int]] | None = None,
) -> list[tuple[int, int]]:
    """The docs/scoring.md §3 pairing of one connected component of the overlap graph, as edges (i, j).

    Each edge gets an integer weight whose digits, from the most significant, count: a pair with identical
    boundaries and type, a pair with identical boundaries, a pair, a pair of one type, the shared extent. Each
    digit's total over a pairing is below its radix, so a pairing of largest total weight is a best one by rule
    1, then (a), (b), (c). Rule (d) is `_rule_d`'s. `ranks` are `_dense_ranks` of both sides, computed here
    when not given."""
    if len(edges) == 1:
        return edges
    reference_indices = {i for i, _ in edges}
    radix = min(len(reference_indices), len({j for _, j in edges})) + 1
    extent_radix = sum(references[i].end - references[i].start for i in reference_indices) + 1
    digits: dict[tuple[int, int], int] = {}
    for i, j in edges:
        reference, prediction = references[i], predictions[j]
        same_bounds = (reference.start, reference.end) == (prediction.start, prediction.end)
        same_type = reference.entity_type == prediction.entity_type
        tiers = (((same_bounds and same_type) * radix + same_bounds) * radix + 1) * radix + same_type
        digits[i, j] = tiers * extent_radix + reference.overlap(prediction)
    reference_rank, prediction_rank = ranks or (_dense_ranks(references), _dense_ranks(predictions))
    ranked = sorted(edges, key=lambda edge: (reference_rank[edge[0]], prediction_rank[edge[1]], edge))
    if radix == 2:  # one entity on a side: one pair at most, the heaviest edge, the first of equals
        return [max(ranked, key=digits.__getitem__)]
    return _rule_d(digits, {edge: index for index, edge in enumerate(ranked)})


# Rule (d) gives this many edges a bit of their own at a time (`_rule_d`).
_BLOCK_EDGES = 64


def _rule_d(
    weights: Mapping[tuple[int, int], int], rank: Mapping[tuple[int, int], int], block_size: int = 0
) -> list[tuple[int, int]]:
    """Of the matchings of largest total `weights` (positive integers), the one rule (d) prefers: the one whose
    edges, sorted by `rank` (0 for the edge of smallest (reference start, end, type, prediction start, end,
    type)), form the smallest list.

    Below the weights each edge gets a bit of its own, the highest for the smallest rank. Matchings equal on the
    weights have as many pairs, and of two of them the larger bit sum is the one that holds the smallest edge
    not in both: the smaller list. No two matchings have the same bits, so the answer is unique.

    A bit per edge makes weights as long as the graph has edges, and a long weight costs in every step, so the
    bits go a block at a time (`block_size`, at first `_BLOCK_EDGES`), the smallest ranks first. The matchings
    best by the weights and the first block's bits all hold the same edges of the block, the ones the matching
    found holds: those are taken, the other edges of the block dropped. What remains to choose is among the
    edges whose potentials add up to their weight ("tight") that meet no taken edge, pairing every entity of
    non-zero potential (the complementary slackness of the matching linear programme): each connected group of
    those edges goes on in the same way, with a weight that counts the entities of non-zero potential it pairs
    and the next block's bits. An entity around a whole document ties all the rest into one group until a block
    holds the edge it takes; while a group keeps more than half the edges its blocks double, so that takes a
    few rounds, not one per block."""
    block_size = block_size or _BLOCK_EDGES
    ranked = sorted(weights, key=rank.__getitem__)
    block = ranked[:block_size]
    staged = _with_bits(weights, block)
    matching, row_potential, column_potential = max_weight_matching(staged)
    if len(ranked) <= block_size:
        return matching
    in_matching = set(matching)
    taken = [edge for edge in block if edge in in_matching]
    taken_rows = {i for i, _ in taken}
    taken_columns = {j for _, j in taken}
    tight = [
        (i, j)
        for i, j in ranked[block_size:]
        if i not in taken_rows
        and j not in taken_columns
        and row_potential[i] - column_potential.get(j, 0) == staged[i, j]
    ]
    must_pair = {("r", i) for i, potential in row_potential.items() if potential > 0}
    must_pair |= {("p", j) for j, potential in column_potential.items() if potential < 0}
    pairs = taken
    for group in connected(_usable(tight, in_matching, must_pair)):
        if len(group) == 1:  # a tight edge has an endpoint that must pair, and nothing else to pair with
            pairs.extend(group)
            continue
        coverage = {(i, j): (("r", i) in must_pair) + (("p", j) in must_pair) for i, j in group}
        pairs.extend(_rule_d(coverage, rank, 2 * block_size if 2 * len(group) > len(ranked) else _BLOCK_EDGES))
    return pairs


def _usable(
    edges: list[tuple[int, int]], matched: set[tuple[int, int]], must_pair: set[tuple[str, int]]
) -> list[tuple[int, int]]:
    """The edges (reference index, prediction index) that some matching among `edges` pairing every entity of
    `must_pair` holds, given one such matching (the edges of `edges` in `matched`).

    Another such matching differs from it by alternating cycles and paths, a path running from an entity the
    given matching leaves unpaired, or one that need not pair, to another. In the directed graph with an arc
    from reference to prediction for each edge outside the matching, from prediction to reference for each
    edge in it, and a node Z with arcs to where such paths may start and from where they may end, an edge lies
    on one of them exactly when its two ends are in one strongly connected component (Tarjan's algorithm, in
    time linear in the edges). Dropping the rest keeps an entity that ties with everything (an entity around a
    whole document) from holding its group together through edges no best pairing can use."""
    successors: dict[tuple[str, int], list[tuple[str, int]]] = {}
    paired: set[tuple[str, int]] = set()
    for i, j in edges:
        if (i, j) in matched:
            successors.setdefault(("p", j), []).append(("r", i))
            paired.update((("r", i), ("p", j)))
        else:
            successors.setdefault(("r", i), []).append(("p", j))
    ends = {node for i, j in edges for node in (("r", i), ("p", j))}
    z = ("z", 0)
    for node in ends:
        is_reference = node[0] == "r"
        may_leave = node in paired and node not in must_pair  # it may give its partner up
        if (is_reference and node not in paired) or (not is_reference and may_leave):
            successors.setdefault(z, []).append(node)  # a path may start here
        if (not is_reference and node not in paired) or (is_reference and may_leave):
            successors.setdefault(node, []).append(z)  # ... and end here
    component = strong_components([z, *ends], successors)
    return [(i, j) for i, j in edges if (i, j) in matched or component[("r", i)] == component[("p", j)]]


def _with_bits(weights: Mapping[tuple[int, int], int], ranked: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """`weights` shifted up by one bit per edge of `ranked`, each of those with its own bit set, the highest for
    the first."""
    count = len(ranked)
    shifted = {edge: weight << count for edge, weight in weights.items()}
    for index, edge in enumerate(ranked):
        shifted[edge] |= 1 << (count - 1 - index)
    return shifted
