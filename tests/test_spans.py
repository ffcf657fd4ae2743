"""Span input (docs/scoring.md §1), nested and repeated entities and `min_overlap` in the pairing (§3), and spans
through evaluate and the command line.

The pairing is checked against a literal reading of docs/scoring.md §3 that enumerates every one-to-one pairing
(`best_pairing`), on small random sentences with heavy nesting, repeats and thresholds; tags are checked to score
exactly as the spans they decode to, in every scheme and mode."""

from __future__ import annotations

import io
import json
import random
import re
from itertools import chain
from typing import Any
from unittest import mock

import numpy as np
import pytest
import strategies
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore import Span, compute_semeval, pair
from nerscore.files import file_counts
from nerscore.pairing import rules as pairing
from nerscore.pairing.tight_matchings import usable_at, usable_edges

PER, LOC, ORG = "PER", "LOC", "ORG"
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def S(start: int, end: int, entity_type: str = PER) -> Span:
    return Span(start, end, entity_type)


def key(reference: Span, prediction: Span) -> tuple:
    return (
        reference.start,
        reference.end,
        reference.entity_type,
        prediction.start,
        prediction.end,
        prediction.entity_type,
    )


# ---------------------------------------------------------------------------------------------------------
# docs/scoring.md §3 read literally, by enumeration
# ---------------------------------------------------------------------------------------------------------


def overlaps(reference: Span, prediction: Span, min_overlap: float | None) -> bool:
    """§3: a shared position, and with min_overlap a share of the reference (a float quotient) of at least it."""
    shared = min(reference.end, prediction.end) - max(reference.start, prediction.start)
    if shared <= 0:
        return False
    return min_overlap is None or shared / (reference.end - reference.start) >= min_overlap


def best_pairing(references: list[Span], predictions: list[Span], min_overlap: float | None = None) -> list[tuple]:
    """The pairs of the §3 pairing, as sorted (reference start, end, type, prediction start, end, type): of
    every one-to-one pairing of overlapping entities, the one with the most pairs of identical boundaries and
    type, then of identical boundaries (rule 1), then (a) pairs, (b) same-type pairs, (c) shared extent, and
    (d) the lexicographically smallest sorted list."""
    best: tuple | None = None

    def visit(index: int, taken: frozenset, pairs: list[tuple[Span, Span]]) -> None:
        nonlocal best
        if index == len(references):
            identical = [(r, p) for r, p in pairs if (r.start, r.end) == (p.start, p.end)]
            score = (
                sum(r.entity_type == p.entity_type for r, p in identical),
                len(identical),
                len(pairs),
                sum(r.entity_type == p.entity_type for r, p in pairs),
                sum(r.overlap(p) for r, p in pairs),
            )
            listed = sorted(key(r, p) for r, p in pairs)
            if best is None or score > best[0] or (score == best[0] and listed < best[1]):
                best = (score, listed)
            return
        visit(index + 1, taken, pairs)  # this reference stays unpaired
        for j, prediction in enumerate(predictions):
            if j not in taken and overlaps(references[index], prediction, min_overlap):
                visit(index + 1, taken | {j}, [*pairs, (references[index], prediction)])

    visit(0, frozenset(), [])
    return best[1]


def paired(rows: list[tuple[Span | None, Span | None]]) -> list[tuple]:
    return sorted(key(r, p) for r, p in rows if r is not None and p is not None)


def check_rows(rows, references: list[Span], predictions: list[Span]) -> None:
    """Every entity in exactly one row (§3: POS and ACT are the numbers of entities), rows in §7's order."""
    assert sorted(r for r, _ in rows if r is not None) == sorted(references)
    assert sorted(p for _, p in rows if p is not None) == sorted(predictions)
    firsts = [min(span.start for span in row if span is not None) for row in rows]
    assert firsts == sorted(firsts)


def spans_of(entities: list[tuple[int, int, str]]) -> list[Span]:
    return [Span(*entity) for entity in entities]


# ---------------------------------------------------------------------------------------------------------
# Pairing: named cases, then properties
# ---------------------------------------------------------------------------------------------------------

# Each case: references, predictions, min_overlap, the expected rows (reference, prediction, scenario) in order.
NESTED_CASES = [
    pytest.param(
        [S(0, 2), S(0, 2)], [S(0, 2)], None, [(S(0, 2), S(0, 2), "I"), (S(0, 2), None, "III")], id="repeat-counts-twice"
    ),
    pytest.param(
        [S(0, 2)], [S(0, 2), S(0, 2)], None, [(S(0, 2), S(0, 2), "I"), (None, S(0, 2), "II")], id="repeated-prediction"
    ),
    # Rule 1: identical boundaries and type before identical boundaries alone.
    pytest.param(
        [S(0, 2, PER), S(0, 2, LOC)],
        [S(0, 2, LOC)],
        None,
        [(S(0, 2, LOC), S(0, 2, LOC), "I"), (S(0, 2, PER), None, "III")],
        id="rule-1-same-type-first",
    ),
    # Rule 1, second half: one identical-boundary pair of other types; which reference takes it is left to (a)-(d):
    # PER-ORG lets LOC pair with the LOC inside it (one same-type pair), LOC-ORG would leave PER with LOC (none).
    pytest.param(
        [S(0, 2, PER), S(0, 2, LOC)],
        [S(0, 2, ORG), S(1, 2, LOC)],
        None,
        [(S(0, 2, LOC), S(1, 2, LOC), "V"), (S(0, 2, PER), S(0, 2, ORG), "IV")],
        id="rule-1-other-type-chosen-by-the-rest",
    ),
    # (a) with nesting: "University of Edinburgh" with "Edinburgh" inside (docs/scoring.md §3's example).
    pytest.param(
        [S(0, 5, ORG), S(3, 5, LOC)],
        [S(0, 3, ORG), S(2, 5, LOC)],
        None,
        [(S(0, 5, ORG), S(0, 3, ORG), "V"), (S(3, 5, LOC), S(2, 5, LOC), "V")],
        id="nested-more-pairs",
    ),
    # (a) over (b): the only way to two pairs crosses types.
    pytest.param(
        [S(0, 6, ORG), S(2, 4, PER)],
        [S(2, 5, ORG)],
        None,
        [(S(0, 6, ORG), S(2, 5, ORG), "V"), (S(2, 4, PER), None, "III")],
        id="nested-same-type-preferred",
    ),
    pytest.param(
        [S(0, 6, ORG), S(2, 4, PER)],
        [S(2, 5, ORG), S(0, 1, PER)],
        None,
        [(S(0, 6, ORG), S(0, 1, PER), "VI"), (S(2, 4, PER), S(2, 5, ORG), "VI")],
        id="nested-two-pairs-over-same-type",
    ),
    # (c): the outer reference takes the prediction that covers more of it.
    pytest.param(
        [S(0, 8, ORG)],
        [S(0, 2, ORG), S(1, 7, ORG), S(3, 4, ORG)],
        None,
        [(S(0, 8, ORG), S(1, 7, ORG), "V"), (None, S(0, 2, ORG), "II"), (None, S(3, 4, ORG), "II")],
        id="nested-predictions-most-shared",
    ),
    # (d) on overlapping references: both share 2 with the prediction; (0, 3, ...) is the smaller tuple.
    pytest.param(
        [S(1, 4), S(0, 3)],
        [S(1, 3)],
        None,
        [(S(0, 3), S(1, 3), "V"), (S(1, 4), None, "III")],
        id="tie-break-reference-start",
    ),
    # (d) on types: two references of identical boundaries, a prediction of a third type: LOC < PER.
    pytest.param(
        [S(0, 2, PER), S(0, 2, LOC)],
        [S(0, 3, ORG)],
        None,
        [(S(0, 2, LOC), S(0, 3, ORG), "VI"), (S(0, 2, PER), None, "III")],
        id="tie-break-reference-type",
    ),
    # min_overlap: a quarter of the reference is no overlap at 0.5; half is.
    pytest.param([S(0, 4)], [S(3, 4)], None, [(S(0, 4), S(3, 4), "V")], id="any-overlap-by-default"),
    pytest.param([S(0, 4)], [S(3, 4)], 0.5, [(S(0, 4), None, "III"), (None, S(3, 4), "II")], id="min-overlap-below"),
    pytest.param([S(0, 4)], [S(2, 4)], 0.5, [(S(0, 4), S(2, 4), "V")], id="min-overlap-reached"),
    # The share is of the reference: a long prediction covering a short reference always qualifies.
    pytest.param([S(3, 4)], [S(0, 10)], 1.0, [(S(3, 4), S(0, 10), "V")], id="min-overlap-share-of-the-reference"),
    # Below the threshold with one prediction, paired with another that qualifies (c would prefer neither).
    pytest.param(
        [S(0, 10)],
        [S(0, 6), S(5, 10, LOC)],
        0.6,
        [(S(0, 10), S(0, 6), "V"), (None, S(5, 10, LOC), "II")],
        id="min-overlap-another-qualifies",
    ),
    pytest.param(
        [S(0, 10)],
        [S(0, 5), S(5, 10, LOC)],
        0.6,
        [(S(0, 10), None, "III"), (None, S(0, 5), "II"), (None, S(5, 10, LOC), "II")],
        id="min-overlap-none-qualifies",
    ),
    # The float quotient: 1 of 10 is the float 0.1 (the exact 1/10 is a little below it).
    pytest.param([S(0, 10)], [S(9, 10)], 0.1, [(S(0, 10), S(9, 10), "V")], id="min-overlap-float-quotient"),
    # Identical boundaries always qualify.
    pytest.param([S(0, 3, LOC)], [S(0, 3, PER)], 1.0, [(S(0, 3, LOC), S(0, 3, PER), "IV")], id="identical-qualify"),
]


@pytest.mark.parametrize(("references", "predictions", "min_overlap", "expected"), NESTED_CASES)
def test_pair_named_cases(references, predictions, min_overlap, expected) -> None:
    rows = pair(references, predictions, min_overlap)
    assert rows == [(reference, prediction) for reference, prediction, _ in expected]
    assert [ns.scenario_of(*row) for row in rows] == [scenario for *_, scenario in expected]
    assert paired(rows) == best_pairing(references, predictions, min_overlap)


MIN_OVERLAPS = st.one_of(st.none(), st.sampled_from([0.1, 0.25, 1 / 3, 0.5, 0.6, 2 / 3, 0.75, 1.0]))


@pytest.mark.parametrize("block_edges", [1, 2, pairing._BLOCK_EDGES], ids=lambda size: f"blocks-of-{size}")
@SETTINGS
@given(
    references=strategies.nested_spans(),
    predictions=strategies.nested_spans(),
    min_overlap=MIN_OVERLAPS,
)
def test_nested_pairing_equals_every_pairing_enumerated(block_edges, references, predictions, min_overlap) -> None:
    references, predictions = spans_of(references), spans_of(predictions)
    with mock.patch.object(pairing, "_BLOCK_EDGES", block_edges):  # rule (d) a few edges at a time, or all at once
        rows = pair(references, predictions, min_overlap)
    check_rows(rows, references, predictions)
    assert paired(rows) == best_pairing(references, predictions, min_overlap)


@SETTINGS
@given(data=st.data(), min_overlap=MIN_OVERLAPS)
def test_pairing_of_tags_with_min_overlap_equals_every_pairing_enumerated(data, min_overlap) -> None:
    # Disjoint entities on each side, as tags decode (the linear programme with thresholded edges).
    references, predictions = (spans_of(data.draw(strategies.spans(max_length=12))[0]) for _ in range(2))
    rows = pair(references, predictions, min_overlap)
    check_rows(rows, references, predictions)
    assert paired(rows) == best_pairing(references, predictions, min_overlap)


@SETTINGS
@given(references=strategies.nested_spans(), predictions=strategies.nested_spans(), seed=st.integers(0, 99))
def test_pairing_ignores_the_order_of_the_lists(references, predictions, seed) -> None:
    references, predictions = spans_of(references), spans_of(predictions)
    shuffled_r, shuffled_p = references[:], predictions[:]
    random.Random(seed).shuffle(shuffled_r)
    random.Random(seed + 1).shuffle(shuffled_p)
    assert pair(references, predictions) == pair(shuffled_r, shuffled_p)


@pytest.mark.parametrize("seed", range(4))
def test_large_components_pair_alike_block_by_block_and_at_once(seed) -> None:
    # Entities around the whole document overlap all the others: one component of hundreds of edges, with many
    # ties (repeats, equal overlaps), where rule (d) goes block by block (some of them doubled); at once, with a
    # bit for every edge, it must give the same pairing, which is unique.
    rng = random.Random(seed)
    references, predictions = [S(0, 200, "DOC"), S(0, 100, "DOC")], [S(0, 201, "DOC"), S(50, 200, "DOC")]
    for start in range(0, 200, 4):
        for side in (references, predictions):
            for _ in range(rng.randint(0, 3)):
                side.append(S(start + rng.randint(0, 2), start + rng.randint(3, 5), rng.choice((PER, LOC))))
    min_overlap = rng.choice((None, 0.5))
    assert len(pairing.overlap_edges(references, predictions, min_overlap)) > 2 * pairing._BLOCK_EDGES
    by_blocks = pair(references, predictions, min_overlap)
    with mock.patch.object(pairing, "_BLOCK_EDGES", 8):  # many blocks
        assert pair(references, predictions, min_overlap) == by_blocks
    with mock.patch.object(pairing, "_BLOCK_EDGES", 10**9):
        at_once = pair(references, predictions, min_overlap)
    assert by_blocks == at_once
    check_rows(by_blocks, references, predictions)


def matchings(edges: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Every matching of a bipartite graph, by enumeration."""
    if not edges:
        return [[]]
    (i, j), rest = edges[0], edges[1:]
    without = matchings(rest)
    with_first = [[(i, j), *m] for m in matchings([(a, b) for a, b in rest if a != i and b != j])]
    return without + with_first


@SETTINGS
@given(
    edges=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), unique=True, max_size=9),
    must=st.sets(st.tuples(st.sampled_from("rp"), st.integers(0, 4))),
    choice=st.integers(0, 10**6),
)
def test_usable_edges_are_those_some_matching_pairing_every_must_entity_holds(edges, must, choice) -> None:
    # `_rule_d` keeps, of the tight edges, those that some best pairing can use; here by enumeration. Both layouts
    # of the graph: `usable_edges`' lists (rule (d)'s groups) and `usable_at`'s arrays (`tight_smallest_best`).
    ends = {("r", i) for i, _ in edges} | {("p", j) for _, j in edges}
    must &= ends
    feasible = [m for m in matchings(edges) if must <= {("r", i) for i, _ in m} | {("p", j) for _, j in m}]
    assume(feasible)
    matched = set(feasible[choice % len(feasible)])
    expected = {edge for m in feasible for edge in m}
    assert set(usable_edges(edges, matched, must)) == expected
    rows, columns = np.array([i for i, _ in edges], np.int64), np.array([j for _, j in edges], np.int64)
    inside = np.array([edge in matched for edge in edges], bool)
    held = [{edge[side] for edge in matched} for side in (0, 1)]
    entities = range(5)
    open_r, open_c = (np.array([index not in held[side] for index in entities]) for side in (0, 1))
    leaves_r, leaves_c = (
        np.array([index in held[side] and (name, index) not in must for index in entities])
        for side, name in enumerate("rp")
    )
    usable = usable_at(rows, columns, ~inside, inside, open_r, open_c, leaves_r, leaves_c)
    assert {edges[k] for k in usable.tolist()} == expected


@SETTINGS
@given(
    edges=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), unique=True, max_size=6),
    rooms=st.lists(st.integers(1, 3), min_size=8, max_size=8),
    must=st.sets(st.tuples(st.sampled_from("rp"), st.integers(0, 3))),
    choice=st.integers(0, 10**6),
)
def test_usable_edges_with_copies_are_those_some_flow_filling_every_must_entity_carries(
    edges, rooms, must, choice
) -> None:
    # `_rule_d` with copies: entities of room > 1 carry several pairs, and an edge may carry more than one.
    room_r, room_p = dict(enumerate(rooms[:4])), dict(enumerate(rooms[4:]))
    ends = {("r", i) for i, _ in edges} | {("p", j) for _, j in edges}
    must &= ends
    flows = [{}]
    for i, j in edges:
        flows = [{**flow, (i, j): amount} for flow in flows for amount in range(min(room_r[i], room_p[j]) + 1)]

    def carried(flow: dict, node: tuple[str, int]) -> int:
        return sum(amount for (i, j), amount in flow.items() if node in (("r", i), ("p", j)))

    def room(node: tuple[str, int]) -> int:
        return (room_r if node[0] == "r" else room_p)[node[1]]

    feasible = [
        flow
        for flow in flows
        if all(carried(flow, node) <= room(node) for node in ends) and all(carried(flow, n) == room(n) for n in must)
    ]
    assume(feasible)
    matched = {edge: amount for edge, amount in feasible[choice % len(feasible)].items() if amount}
    expected = {edge for flow in feasible for edge, amount in flow.items() if amount}
    assert set(usable_edges(edges, matched, must, room_r, room_p)) == expected


# ---------------------------------------------------------------------------------------------------------
# Input forms and errors (docs/scoring.md §1)
# ---------------------------------------------------------------------------------------------------------

REFERENCES = [[(0, 3, PER), (8, 11, LOC)], [(2, 4, ORG)]]
PREDICTIONS = [[(0, 3, PER), (9, 11, LOC)], []]
EXPECTED_COUNTS = {"strict_correct": 1, "strict_incorrect": 1, "strict_missed": 1, "partial_partial": 1}


@pytest.mark.parametrize("form", strategies.ENTITY_FORMS)
def test_every_entity_form_scores_alike(form) -> None:
    as_form = [[strategies.entity_as(form, *entity) for entity in sentence] for sentence in PREDICTIONS]
    results = compute_semeval(predictions=as_form, references=REFERENCES)
    assert {name: results[name] for name in EXPECTED_COUNTS} == EXPECTED_COUNTS


def test_forms_mix_within_a_batch_and_spans_are_accepted() -> None:
    mixed = [[{"start": 0, "end": 3, "label": PER}, Span(9, 11, LOC)], []]
    references = [[[0, 3, PER], {"start": 8, "end": 11, "type": LOC}], [{"start": 2, "end": 4, "entity_group": ORG}]]
    results = compute_semeval(predictions=mixed, references=references)
    assert {name: results[name] for name in EXPECTED_COUNTS} == EXPECTED_COUNTS


def test_the_first_type_key_present_wins_and_other_keys_are_ignored() -> None:
    entity = {"start": 0, "end": 2, "entity_group": "LOC", "label": "ORG", "type": PER, "score": 0.3, "word": "x"}
    assert ns.as_span(entity) == S(0, 2, PER)
    assert ns.as_span({"start": 0, "end": 2, "entity_group": "LOC", "label": "ORG"}) == S(0, 2, "ORG")
    rows = compute_semeval(predictions=[[entity]], references=[[(0, 2, PER)]], return_entities=True)["entities"]
    assert rows[0]["scenario"] == "I"


def test_a_side_without_entities_takes_the_other_sides_form() -> None:
    results = compute_semeval(predictions=[[], []], references=[[(0, 1, PER)], []])
    assert (results["strict_missed"], results["strict_spurious"]) == (1, 0)
    results = compute_semeval(predictions=[[{"start": 4, "end": 9, "type": PER}]], references=[[]])
    assert (results["strict_missed"], results["strict_spurious"]) == (0, 1)
    assert compute_semeval(predictions=[[]], references=[[]]) == compute_semeval(predictions=[], references=[])


def test_rows_keep_the_given_offsets_and_inputs_are_not_modified() -> None:
    predictions = [[{"start": 120, "end": 133, "entity_group": PER, "score": 0.99, "word": "Ada Lovelace"}]]
    references = [[(120, 132, PER), (120, 132, PER)]]
    before = json.dumps([predictions, references])
    rows = compute_semeval(predictions=predictions, references=references, return_entities=True)["entities"]
    assert json.dumps([predictions, references]) == before
    assert rows == [
        {
            "sentence": 0,
            "reference": {"start": 120, "end": 132, "type": PER},
            "prediction": {"start": 120, "end": 133, "type": PER},
            "scenario": "V",
            **ns.OUTCOMES["V"],
        },
        {
            "sentence": 0,
            "reference": {"start": 120, "end": 132, "type": PER},
            "prediction": None,
            "scenario": "III",
            **ns.OUTCOMES["III"],
        },
    ]


def test_labels_per_type_beta_and_zero_division_work_on_spans() -> None:
    options = {"labels": [PER, "ABSENT"], "per_type": True, "beta": 2.0, "zero_division": 1.0}
    results = compute_semeval(predictions=PREDICTIONS, references=REFERENCES, **options)
    assert (results["strict_possible"], results["strict_actual"], results["strict_correct"]) == (1, 1, 1)
    assert results["PER_strict_f2"] == 1.0
    assert results["ABSENT_strict_precision"] == 1.0  # no entity on either side: zero_division
    assert "LOC_strict_f2" not in results


SPAN_ERRORS = [
    pytest.param([[(3, 3, PER)]], [[]], {}, r"^predictions, sentence 0, entity 0: start 3 >= end 3", id="empty-span"),
    pytest.param(
        [[]],
        [[(0, 2, PER), (5, 4, PER)]],
        {},
        r"^references, sentence 0, entity 1: start 5 >= end 4",
        id="start-after-end",
    ),
    pytest.param(
        [[], [(-1, 2, PER)]],
        [[], []],
        {},
        r"^predictions, sentence 1, entity 0: start is -1; expected a "
        "non-negative integer",
        id="negative-start",
    ),
    pytest.param(
        [[(0, 2.0, PER)]],
        [[]],
        {},
        r"entity 0: end is 2\.0 \(float\); expected a non-negative integer",
        id="float-offset",
    ),
    pytest.param([[(True, 2, PER)]], [[]], {}, r"entity 0: start is True \(bool\)", id="bool-offset"),
    pytest.param([[("0", 2, PER)]], [[]], {}, r"entity 0: start is '0' \(str\)", id="string-offset"),
    pytest.param(
        [[{"end": 2, "type": PER}]], [[]], {}, r"entity 0: found .*, which has no 'start'", id="missing-start"
    ),
    pytest.param(
        [[{"type": PER}]], [[]], {}, r"entity 0: found .*, which has no 'start' and no 'end'", id="missing-both"
    ),
    pytest.param(
        [[{"start": 0, "end": 2}]],
        [[]],
        {},
        r"entity 0: found .*, which has no type; expected the type "
        "under 'type', 'label' or 'entity_group'$",
        id="missing-type",
    ),
    pytest.param(
        [[{"start": 0, "end": 2, "entity": "B-PER", "index": 1}]],
        [[]],
        {},
        r"no type; .*aggregation_strategy='simple'",
        id="token-level-pipeline-output",
    ),
    pytest.param([[(0, 2, "")]], [[]], {}, r"entity 0: the type is ''; expected a non-empty string", id="empty-type"),
    pytest.param([[(0, 2, None)]], [[]], {}, r"entity 0: the type is None", id="type-none"),
    pytest.param(
        [[(0, 2, PER), (0, 2)]], [[]], {}, r"entity 1: found \(0, 2\), a tuple of 2 items; expected", id="tuple-of-two"
    ),
    pytest.param(
        [[(0, 2, PER), "B-PER"]],
        [[]],
        {},
        r"entity 1: found 'B-PER' \(str\) in a batch of spans; .*"
        "tag sequences or lists of spans, not both",
        id="tag-among-spans",
    ),
    pytest.param(
        [["B-PER"], [(0, 1, PER)]],
        [["O"], ["O"]],
        {},
        r"^predictions, sentence 1, token 0: found \(0, 1, 'PER'\) \(tuple\), an entity, among tags",
        id="span-among-tags",
    ),
    pytest.param(
        [[(0, 1, PER)]],
        [["B-PER"]],
        {},
        r"^predictions hold spans \(lists of entities\) and references "
        "hold tags; expected both sides in one form",
        id="spans-against-tags",
    ),
    pytest.param(
        [[1]],
        [[(0, 1, PER)]],
        {},
        r"^references hold spans .* and predictions hold integer ids",
        id="spans-against-ids",
    ),
    pytest.param(
        [{"start": 0, "end": 1, "type": PER}],
        [[]],
        {},
        r"^predictions, sentence 0: found the entity .* "
        "where a batch holds one list per sentence",
        id="entities-not-in-a-sentence-list",
    ),
    pytest.param(
        [[(0, 1, PER)]], [[], []], {}, r"^predictions hold 1 sentences and references 2", id="sentence-counts-differ"
    ),
    pytest.param(
        [[(PER, 0, 3)]],
        [[]],
        {},
        r"^predictions, sentence 0, entity 0: start is 'PER' \(str\); .* \(a tuple is \(start, end, type\): "
        r"pass \(0, 3, 'PER'\)\)$",
        id="type-first-tuple",
    ),
    pytest.param([[(0, 1, PER)]], [[]], {"scheme": "IOBES"}, r"^scheme given with span input", id="scheme"),
    pytest.param([[(0, 1, PER)]], [[]], {"mode": "strict"}, r"^mode given with span input", id="mode"),
    pytest.param(
        [[(0, 1, PER)]],
        [[]],
        {"suffix": True, "label_list": ["O"]},
        r"^suffix and label_list given with span input",
        id="suffix-and-label-list",
    ),
]


@pytest.mark.parametrize(("predictions", "references", "options", "match"), SPAN_ERRORS)
@pytest.mark.parametrize("return_entities", [False, True])
def test_bad_span_input_is_a_value_error_that_says_where_and_what(
    predictions, references, options, match, return_entities
) -> None:
    with pytest.raises(ValueError, match=match):
        compute_semeval(predictions=predictions, references=references, return_entities=return_entities, **options)


# A span with fields after its type, (start, end, type, score), is span input with a bad entity, named by side,
# sentence and entity (issue 16, item 12); on e2fb4c1 it read as a tag: "predictions hold tags", or "token 0".
EXTRA_FIELDS = " (keep the first three items, or pass a dict: its other keys, such as 'score', are ignored)"
LONGER_TUPLES = [
    pytest.param(
        [[(0, 2, PER, 0.9)]],
        [[(0, 2, PER)]],
        r"^predictions, sentence 0, entity 0: found \(0, 2, 'PER', 0\.9\), a tuple of 4 items; expected a dict",
        id="a-score-after-a-predicted-type",
    ),
    pytest.param(
        [[(0, 2, PER, 0.9)]],
        [[(0, 2, PER, 0.9)]],
        r"^predictions, sentence 0, entity 0: found \(0, 2, 'PER', 0\.9\), a tuple of 4 items",
        id="scores-on-both-sides",
    ),
    pytest.param(
        [[], []],
        [[], [[0, 2, PER, 0.9, "Ada"]]],
        r"^references, sentence 1, entity 0: found \[0, 2, 'PER', 0\.9, 'Ada'\], a list of 5 items",
        id="a-list-of-five-in-a-later-sentence",
    ),
    pytest.param(
        [["O", (0, 2, PER, 0.9)]],
        [["O", "O"]],
        r"^predictions, sentence 0, token 1: found \(0, 2, 'PER', 0\.9\) \(tuple\), an entity, among tags",
        id="among-tags",
    ),
]


@pytest.mark.parametrize(("predictions", "references", "match"), LONGER_TUPLES)
def test_a_span_with_extra_fields_is_named_by_side_sentence_and_entity(metric, predictions, references, match) -> None:
    spans = "entity 0" in match
    # add_batch checks a batch of tags value by value before reading tags (its message for a non-tag says so)
    for compute in (compute_semeval, metric.compute, *([metric.add_batch] if spans else [])):
        with pytest.raises(ValueError, match=match) as caught:
            compute(predictions=predictions, references=references)
        assert str(caught.value).endswith(EXTRA_FIELDS) or not spans


@pytest.mark.parametrize(
    "value", [0, -0.5, 1.5, float("nan"), "0.5", True], ids=["zero", "negative", "above-one", "nan", "string", "bool"]
)
def test_min_overlap_outside_0_1_is_a_value_error(value) -> None:
    with pytest.raises(ValueError, match=r"^min_overlap must be a number greater than 0 and at most 1"):
        compute_semeval(predictions=[], references=[], min_overlap=value)


# ---------------------------------------------------------------------------------------------------------
# Tags and spans agree (issue 12: "tags converted to spans score exactly as the tags do")
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@pytest.mark.parametrize("mode", ns.MODES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_tags_score_exactly_as_the_spans_they_decode_to(scheme, mode, data) -> None:
    suffix = data.draw(st.booleans())
    predictions, references = data.draw(strategies.soup_batches(scheme, suffix=suffix, max_sentences=5))
    options = {
        "min_overlap": data.draw(MIN_OVERLAPS),
        "labels": data.draw(st.one_of(st.none(), st.just(["PER", "ABSENT"]))),
        "per_type": True,
        "return_entities": data.draw(st.booleans()),
    }
    decoded = [
        [(span.start, span.end, span.entity_type) for span in ns.decode(sentence, scheme, mode, suffix)]
        for sentence in chain(predictions, references)
    ]
    spans = data.draw(strategies.span_lists(decoded))
    span_predictions, span_references = spans[: len(predictions)], spans[len(predictions) :]
    from_tags = compute_semeval(
        predictions=predictions, references=references, scheme=scheme, mode=mode, suffix=suffix, **options
    )
    from_spans = compute_semeval(predictions=span_predictions, references=span_references, **options)
    # token_accuracy is the tags' own; a batch of empty lists alone reads as tags of no token (its accuracy is then
    # zero_division), so it is left out of the comparison.
    assert "token_accuracy" not in from_spans or not any(chain(*spans))
    from_spans.pop("token_accuracy", None)
    assert from_spans == {key: value for key, value in from_tags.items() if key != "token_accuracy"}


# ---------------------------------------------------------------------------------------------------------
# Through evaluate
# ---------------------------------------------------------------------------------------------------------


@pytest.fixture
def span_metric(load_metric, tmp_path):
    return load_metric(cache_dir=str(tmp_path))


NESTED_REFERENCES = [[(0, 23, ORG), (18, 23, LOC)], [], [(4, 9, PER), (4, 9, PER)], []]
NESTED_PREDICTIONS = [
    [{"start": 0, "end": 14, "entity_group": ORG, "score": 0.8, "word": "University of"}, [18, 23, LOC]],
    [],
    [{"start": 4, "end": 9, "label": PER}],
    [(0, 3, "MISC")],
]


def test_add_batch_and_compute_equal_one_call_whatever_the_forms(span_metric) -> None:
    expected = compute_semeval(
        predictions=NESTED_PREDICTIONS, references=NESTED_REFERENCES, return_entities=True, per_type=True
    )
    span_metric.add_batch(predictions=NESTED_PREDICTIONS[:1], references=NESTED_REFERENCES[:1])
    span_metric.add(prediction=NESTED_PREDICTIONS[1], reference=NESTED_REFERENCES[1])
    span_metric.add_batch(predictions=NESTED_PREDICTIONS[2:], references=NESTED_REFERENCES[2:])
    assert span_metric.compute(return_entities=True, per_type=True) == expected
    direct = span_metric.compute(predictions=NESTED_PREDICTIONS, references=NESTED_REFERENCES, per_type=True)
    expected.pop("entities")
    assert direct == expected


def test_documents_without_entities_first_do_not_fix_the_stored_form(span_metric) -> None:
    # An empty document fits every form: it waits for the first batch that has a value, and keeps its number.
    span_metric.add_batch(predictions=[[]], references=[[]])
    span_metric.add(prediction=[], reference=[])
    span_metric.add_batch(predictions=NESTED_PREDICTIONS, references=NESTED_REFERENCES)
    rows = span_metric.compute(return_entities=True)["entities"]
    expected = compute_semeval(
        predictions=[[], [], *NESTED_PREDICTIONS], references=[[], [], *NESTED_REFERENCES], return_entities=True
    )
    assert rows == expected["entities"]
    assert rows[0]["sentence"] == 2
    # ... and so do they before a last batch given to compute itself.
    span_metric.add_batch(predictions=[[]], references=[[]])
    results = span_metric.compute(predictions=[[(0, 1, PER)]], references=[[(0, 1, PER)]], return_entities=True)
    assert [row["sentence"] for row in results["entities"]] == [1]


def test_a_batch_in_another_form_than_the_stored_ones_is_an_error(span_metric) -> None:
    span_metric.add_batch(predictions=NESTED_PREDICTIONS, references=NESTED_REFERENCES)
    with pytest.raises(ValueError, match=r"^found tags where the batches added before hold spans"):
        span_metric.add_batch(predictions=[["B-PER"]], references=[["B-PER"]])
    span_metric.add_batch(predictions=[[]], references=[[]])  # no value: fits
    assert span_metric.compute()["strict_possible"] == 4


def test_bad_spans_in_a_later_batch_are_named_by_their_place_in_the_whole_set(span_metric) -> None:
    span_metric.add_batch(predictions=NESTED_PREDICTIONS, references=NESTED_REFERENCES)
    with pytest.raises(ValueError, match=r"^references, sentence 5, entity 0: start 4 >= end 2"):
        span_metric.add_batch(predictions=[[], []], references=[[], [(4, 2, PER)]])
    with pytest.raises(ValueError, match=r"^scheme given with span input"):
        span_metric.compute(scheme="BIOES")
    assert span_metric.compute()["strict_possible"] == 4  # nothing lost


def test_options_given_at_load_apply_to_spans(load_metric, tmp_path) -> None:
    metric = load_metric(cache_dir=str(tmp_path), min_overlap=0.5, labels=[ORG, LOC])
    results = metric.compute(predictions=NESTED_PREDICTIONS, references=NESTED_REFERENCES)
    expected = compute_semeval(
        predictions=NESTED_PREDICTIONS, references=NESTED_REFERENCES, min_overlap=0.5, labels=[ORG, LOC]
    )
    assert results == expected
    assert (results["strict_possible"], results["partial_partial"], results["strict_missed"]) == (2, 1, 0)


# ---------------------------------------------------------------------------------------------------------
# The command line: --spans FILE.jsonl
# ---------------------------------------------------------------------------------------------------------


def jsonl(documents: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(document) + "\n" for document in documents)


DOCUMENTS = [
    {
        "text": "University of Edinburgh",
        "references": [[0, 23, ORG], [14, 23, LOC]],
        "predictions": [{"start": 0, "end": 23, "label": ORG}],
    },
    {"references": [], "predictions": [{"start": 0, "end": 3, "entity_group": PER, "score": 0.4}]},
]


def test_spans_file_scores_as_compute_does(tmp_path, capsys) -> None:
    path = tmp_path / "spans.jsonl"
    path.write_text(jsonl(DOCUMENTS[:1]) + "\n" + jsonl(DOCUMENTS[1:]), encoding="utf-8")  # a blank line between
    assert ns.main(["--spans", str(path), "--json", "--per-type", "--min-overlap", "0.5"]) == 0
    expected = compute_semeval(
        predictions=[document["predictions"] for document in DOCUMENTS],
        references=[document["references"] for document in DOCUMENTS],
        per_type=True,
        min_overlap=0.5,
    )
    assert json.loads(capsys.readouterr().out) == expected


def test_spans_table_says_documents(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(file_counts, "_CLI_CHUNK_ENTITIES", 1)  # scored as read, one document at a time
    path = tmp_path / "spans.jsonl"
    path.write_text(jsonl(DOCUMENTS), encoding="utf-8")
    assert ns.main(["--spans", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("processed 2 documents with 2 reference and 2 predicted entities (spans)\n")
    assert "\nstrict by type" in out


BAD_SPAN_FILES = [
    pytest.param('{"references": [], "predictions": []}\nnot json\n', r"spans\.jsonl:2: not JSON", id="not-json"),
    pytest.param("[1, 2]\n", r":1: found a JSON list; expected one JSON object a line", id="not-an-object"),
    pytest.param('{"references": []}\n', r":1: found no 'predictions'; expected", id="no-predictions"),
    pytest.param(
        '{"references": {}, "predictions": []}\n', r":1: found a JSON dict for 'references'", id="references-not-a-list"
    ),
    pytest.param(
        '{"references": [], "predictions": [], "text": 3}\n', r":1: found a JSON int for 'text'", id="text-not-a-string"
    ),
    pytest.param(
        '\n\n{"references": [[0, 2, "PER"]], "predictions": [[1, 0, "PER"]]}\n',
        r"spans\.jsonl:3: predictions, entity 0: start 1 >= end 0",
        id="bad-entity-names-its-line",
    ),
    pytest.param(
        '{"references": [[0, 2, "PER"]], "predictions": [{"start": 0, "end": 1}]}\n',
        r":1: predictions, entity 0: found .*, which has no type",
        id="no-type",
    ),
    # The first line's first entity malformed: the form of the chunk is judged by that entity, outside the reading
    # that names each line, so the message named no file and no line ("error: references, sentence 0, ..."), where
    # the same entity on the second line is named at its line (redteam9).
    pytest.param(
        '{"text": "Ada met Bob", "references": [[[0], "Ada"]], "predictions": [["PER", "Ada"]]}\n',
        r"^spans\.jsonl:1: references, entity 0: found \[\[0\], 'Ada'\], whose type and text are list and str",
        id="first-entity-type-a-list",
    ),
    pytest.param(
        '{"text": "Ada met Bob", "references": ["PER", "Ada"], "predictions": [["PER", "Ada"]]}\n',
        r"^spans\.jsonl:1: references: found the entity \['PER', 'Ada'\] where a batch holds one list per sentence",
        id="first-entity-not-in-a-list",
    ),
]


@pytest.mark.parametrize(("content", "match"), BAD_SPAN_FILES)
def test_malformed_spans_file_exits_2_naming_the_line(tmp_path, capsys, content, match) -> None:
    path = tmp_path / "spans.jsonl"
    path.write_text(content, encoding="utf-8")
    assert ns.main(["--spans", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"{path.parent}/"), captured.err  # the file named, and the line (the match)
    assert re.search(match, captured.err.removeprefix(f"{path.parent}/")), captured.err


@pytest.mark.parametrize(
    ("arguments", "match"),
    [
        pytest.param(["--scheme", "IOBES"], r"^error: scheme given with span input", id="scheme"),
        pytest.param(["--mode", "strict"], r"^error: mode given with span input", id="mode"),
        pytest.param(["--suffix"], r"^error: suffix given with span input", id="suffix"),
        pytest.param(["tags.conll"], r"^error: found CoNLL files \['tags.conll'\] with --spans", id="conll-files-too"),
        pytest.param(["--min-overlap", "1.5"], r"^error: min_overlap must be", id="min-overlap-above-one"),
    ],
)
def test_spans_with_options_for_tags_exit_2(tmp_path, capsys, arguments, match) -> None:
    path = tmp_path / "spans.jsonl"
    path.write_text(jsonl(DOCUMENTS), encoding="utf-8")
    assert ns.main(["--spans", str(path), *arguments]) == 2
    assert re.search(match, capsys.readouterr().err)


def test_spans_from_standard_input(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(jsonl(DOCUMENTS).encode("utf-8"))))
    assert ns.main(["--spans", "-", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["strict_correct"] == 1


def test_min_overlap_on_tags_from_the_command_line(tmp_path, capsys) -> None:
    path = tmp_path / "tags.conll"
    path.write_text("a B-PER B-PER\nb I-PER O\nc I-PER O\nd I-PER O\n", encoding="utf-8")
    assert ns.main([str(path), "--json", "--min-overlap", "0.5"]) == 0
    assert json.loads(capsys.readouterr().out)["partial_missed"] == 1
    assert ns.main([str(path)]) == 0
    assert capsys.readouterr().out.startswith(
        "processed 4 tokens in 1 sentences with 1 reference and 1 predicted entities (IOB2, lenient)\n"
    )
    assert ns.main([str(path), "--min-overlap", "0.25"]) == 0
    assert "(IOB2, lenient, min overlap 0.25)" in capsys.readouterr().out


# What JSON can write and Python cannot hold as text or read as a number (issue 16, item 15): each line is refused
# where it is read, status 2 and FILE:LINE (on e2fb4c1: a UnicodeEncodeError traceback once the table or the JSON
# printed a type with a lone surrogate, and a 5,000-digit offset's error without its line). (content, arguments,
# standard error's start after FILE:)
GOOD_LINE = '{"references": [[0, 2, "PER"]], "predictions": [[0, 2, "PER"]]}\n'
UNREADABLE_SPAN_FILES = [
    pytest.param(
        '{"references": [[0, 1, "\\ud800"]], "predictions": [[0, 1, "\\ud800"]]}\n',
        [],
        "1: found the lone surrogate '\\ud800' in references[0][2] (half of a UTF-16 pair, written as a "
        "JSON escape), which is not text; expected UTF-8 text\n",
        id="surrogate-type-in-the-table",
    ),
    pytest.param(
        GOOD_LINE + '{"references": [], "predictions": [{"start": 0, "end": 1, "label": "P\\uDC00"}]}\n',
        ["--json", "--per-type"],
        "2: found the lone surrogate '\\udc00' in predictions[0].label",
        id="surrogate-label-in-json",
    ),
    pytest.param(
        '{"references": [], "predictions": [], "text": "Ada \\ud83d"}\n',
        [],
        "1: found the lone surrogate '\\ud83d' in text",
        id="surrogate-in-the-text",
    ),
    pytest.param(
        GOOD_LINE + '{"references": [[0, ' + "9" * 5000 + ', "PER"]], "predictions": []}\n',
        [],
        "2: found an integer of more than 4,300 digits, which Python does not read; expected shorter offsets\n",
        id="offset-of-5000-digits",
    ),
    pytest.param(
        '{"references": [[0, 1, ' + "[" * 100_000 + "]" * 100_000 + ']], "predictions": []}\n',
        [],
        "1: JSON nested too deeply; expected one JSON object a line",
        id="100000-nested-brackets",
    ),
]


@pytest.mark.parametrize(("content", "arguments", "error"), UNREADABLE_SPAN_FILES)
def test_what_python_cannot_hold_exits_2_naming_the_line(tmp_path, capsys, content, arguments, error) -> None:
    path = tmp_path / "spans.jsonl"
    path.write_text(content, encoding="utf-8")
    assert ns.main(["--spans", str(path), *arguments]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"{path}:".removesuffix("") + error), captured.err[:300]


def test_a_surrogate_pair_is_one_character_and_scores(tmp_path, capsys) -> None:
    # An escaped pair (json.dumps writes an emoji so) is text; only half a pair is refused.
    path = tmp_path / "spans.jsonl"
    path.write_text(jsonl([{"references": [[0, 2, "P\U0001f600"]], "predictions": [[0, 2, "P\\ud800"]]}]))
    assert "\\ud83d\\ude00" in path.read_text() and "\\\\ud800" in path.read_text()  # and a backslash, as text
    assert ns.main(["--spans", str(path)]) == 0
    out = capsys.readouterr().out
    assert "P\U0001f600" in out and "P\\ud800" in out


def test_python_takes_a_surrogate_type_and_an_offset_of_any_size() -> None:
    # In Python these are a string and an int, and score; only files (and evaluate's store) hold text and int64.
    spans = [[(0, 10**5000, "\ud800")]]
    result = compute_semeval(predictions=spans, references=spans, per_type=True, return_entities=True)
    assert result["strict_correct"] == 1 and result["\ud800_strict_f1"] == 1.0
    assert result["entities"][0]["reference"]["end"] == 10**5000
