"""The HIPE scorer's pairing, `pair_greedy` (issue 28, item 4): named cases where it and our pairing
(docs/scoring.md §3) differ, and a differential test against a plain statement of the scorer's loop (the
NER-Evaluation algorithm: each prediction in file order, the references in order) on nested, overlapping and
repeated entities."""

from __future__ import annotations

import gc
import sys
from collections import Counter
from dataclasses import replace
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import nested_spans, spans

from nerscore import OUTCOMES, Options, Span, compare_semeval, compute_semeval, errors, pair, pair_greedy, scenario_of
from nerscore.pairing import greedy


def S(start: int, end: int, entity_type: str) -> Span:
    return Span(start, end, entity_type)


def scenarios(rows: list[tuple[Span | None, Span | None]]) -> list[tuple[str, Span | None, Span | None]]:
    return [(scenario_of(r, p), r, p) for r, p in rows]


@pytest.mark.parametrize(
    ("references", "predictions", "greedy", "optimal"),
    [
        # The smallest example of docs/hipe.md: a prediction overlapping two references takes the first under the
        # scorer, the same-type one under ours.
        (
            [S(0, 2, "PER"), S(2, 4, "LOC")],
            [S(1, 3, "LOC")],
            [("VI", S(0, 2, "PER"), S(1, 3, "LOC")), ("III", S(2, 4, "LOC"), None)],
            [("III", S(0, 2, "PER"), None), ("V", S(2, 4, "LOC"), S(1, 3, "LOC"))],
        ),
        # Two predictions over one reference: the first in file order takes it, the second is spurious.
        (
            [S(0, 4, "PER")],
            [S(0, 1, "LOC"), S(2, 4, "PER")],
            [("VI", S(0, 4, "PER"), S(0, 1, "LOC")), ("II", None, S(2, 4, "PER"))],
            [("V", S(0, 4, "PER"), S(2, 4, "PER")), ("II", None, S(0, 1, "LOC"))],
        ),
        # Where each overlaps one at most, both pairings agree.
        (
            [S(0, 1, "PER"), S(3, 5, "LOC")],
            [S(0, 1, "PER"), S(4, 6, "ORG"), S(7, 8, "LOC")],
            [
                ("I", S(0, 1, "PER"), S(0, 1, "PER")),
                ("VI", S(3, 5, "LOC"), S(4, 6, "ORG")),
                ("II", None, S(7, 8, "LOC")),
            ],
            None,
        ),
    ],
)
def test_named_cases(
    references: list[Span],
    predictions: list[Span],
    greedy: list[tuple[str, Span | None, Span | None]],
    optimal: list[tuple[str, Span | None, Span | None]] | None,
) -> None:
    assert scenarios(pair_greedy(references, predictions)) == greedy
    assert scenarios(pair(references, predictions)) == (greedy if optimal is None else optimal)


def test_a_reference_taken_again_by_its_identical_prediction_stands_in_two_rows() -> None:
    # Only nested predictions can do this: the first overlaps the reference, the second is identical to it.
    references = [S(0, 3, "PER")]
    predictions = [S(0, 1, "PER"), S(0, 3, "PER")]
    assert scenarios(pair_greedy(references, predictions)) == [
        ("V", S(0, 3, "PER"), S(0, 1, "PER")),
        ("I", S(0, 3, "PER"), S(0, 3, "PER")),
    ]


def scorer_counts(references: list[Span], predictions: list[Span]) -> dict[str, Counter[str]]:
    """The HIPE scorer's counts of one unit, its loop as it reads (strict and ent_type, our `type`): the
    oracle, written from the scorer's description, not from our module."""
    counts = {"strict": Counter[str](), "type": Counter[str]()}
    overlapped: list[Span] = []
    for prediction in predictions:
        if any(prediction == reference for reference in references):
            overlapped.append(prediction)
            counts["strict"]["COR"] += 1
            counts["type"]["COR"] += 1
            continue
        found = False
        for reference in references:
            if (reference.start, reference.end) == (prediction.start, prediction.end):  # the type differs
                counts["strict"]["INC"] += 1
                counts["type"]["INC"] += 1
                overlapped.append(reference)
                found = True
                break
            if reference.overlap(prediction) and reference not in overlapped:
                overlapped.append(reference)
                found = True
                counts["strict"]["INC"] += 1
                counts["type"]["COR" if reference.entity_type == prediction.entity_type else "INC"] += 1
                break
        if not found:
            counts["strict"]["SPU"] += 1
            counts["type"]["SPU"] += 1
    for reference in references:
        if reference not in overlapped:
            counts["strict"]["MIS"] += 1
            counts["type"]["MIS"] += 1
    return counts


def our_counts(rows: list[tuple[Span | None, Span | None]]) -> dict[str, Counter[str]]:
    return {scheme: Counter(OUTCOMES[scenario_of(r, p)][scheme] for r, p in rows) for scheme in ("strict", "type")}


def as_spans(entities: list[tuple[int, int, str]]) -> list[Span]:
    return [Span(*entity) for entity in entities]


@given(nested_spans(), nested_spans())
def test_the_counts_are_the_scorers_on_nested_and_repeated_entities(references, predictions) -> None:
    references, predictions = as_spans(references), as_spans(predictions)
    assert our_counts(pair_greedy(references, predictions)) == scorer_counts(references, predictions)


@given(spans(), spans(), st.booleans())
def test_the_counts_are_the_scorers_on_tags_in_file_order(references, predictions, shuffled) -> None:
    # Disjoint entities in order (tags): the bisection's path; out of order, the plain scan.
    (references, _), (predictions, _) = references, predictions
    references, predictions = as_spans(references), as_spans(predictions)
    if shuffled:
        references = references[::-1]
    rows = pair_greedy(references, predictions)
    assert our_counts(rows) == scorer_counts(references, predictions)
    # Tags' entities are disjoint: every entity stands in exactly one row, as with our pairing.
    assert sorted(r for r, _ in rows if r is not None) == sorted(references)
    assert sorted(p for _, p in rows if p is not None) == sorted(predictions)


def test_a_prediction_offering_several_links_takes_the_references() -> None:
    # Entity links (docs/hipe.md): a prediction offers its n best links; matched through one, it stands in its row
    # with that link, so that the row's scenario is the scorer's.
    references = [S(0, 2, "Q60"), S(3, 4, "NIL")]
    predictions = [S(0, 2, "Q1"), S(3, 5, "Q2")]
    rows = pair_greedy(references, predictions, [{"Q1", "Q60"}, {"Q2", "NIL"}])
    assert scenarios(rows) == [("I", S(0, 2, "Q60"), S(0, 2, "Q60")), ("V", S(3, 4, "NIL"), S(3, 5, "NIL"))]
    assert scenarios(pair_greedy(references, predictions, [{"Q1"}, {"Q2"}])) == [
        ("IV", S(0, 2, "Q60"), S(0, 2, "Q1")),
        ("VI", S(3, 4, "NIL"), S(3, 5, "Q2")),
    ]


# -- the option: pairing="hipe" through compute_semeval (docs/scoring.md §3a) ------------------------------------

TYPE_COUNTS = ("type_correct", "type_incorrect", "type_partial", "type_missed", "type_spurious")


@pytest.mark.parametrize(
    ("references", "predictions", "hipe", "optimal"),
    [
        # docs/scoring.md §3a's first example: the LOC prediction takes PERS, the first reference it overlaps.
        (
            [["B-PERS", "I-PERS", "B-LOC", "I-LOC"]],
            [["O", "B-LOC", "I-LOC", "O"]],
            (0, 1, 0, 1, 0),
            (1, 0, 0, 1, 0),
        ),
        # Its second: greedy in order makes one pair where §3 (a) makes two.
        ([[(0, 2, "PER"), (2, 4, "LOC")]], [[(1, 3, "PER"), (0, 1, "PER")]], (1, 0, 0, 1, 1), (1, 1, 0, 0, 0)),
        # The same predictions in the other order: the first now takes PER[0,2), and the second LOC.
        ([[(0, 2, "PER"), (2, 4, "LOC")]], [[(0, 1, "PER"), (1, 3, "PER")]], (1, 1, 0, 0, 0), (1, 1, 0, 0, 0)),
        # A repeated prediction identical to a reference: the scorer counts it twice (POS 2 of one reference).
        ([[(0, 2, "PER")]], [[(0, 2, "PER"), (0, 2, "PER")]], (2, 0, 0, 0, 0), (1, 0, 0, 0, 1)),
    ],
)
def test_the_option_pairs_as_the_scorer(references, predictions, hipe, optimal) -> None:
    ours = compute_semeval(predictions=predictions, references=references)
    assert compute_semeval(predictions=predictions, references=references, pairing="optimal") == ours
    assert tuple(ours[key] for key in TYPE_COUNTS) == optimal
    greedy = compute_semeval(predictions=predictions, references=references, pairing="hipe")
    assert tuple(greedy[key] for key in TYPE_COUNTS) == hipe


def test_the_option_is_checked_and_refuses_min_overlap() -> None:
    with pytest.raises(ValueError, match="pairing must be one of 'optimal', 'hipe', found 'greedy'"):
        compute_semeval(predictions=[["O"]], references=[["O"]], pairing="greedy")
    with pytest.raises(ValueError, match=r"min_overlap=0\.5 with pairing='hipe'.*drop min_overlap"):
        compute_semeval(predictions=[["O"]], references=[["O"]], pairing="hipe", min_overlap=0.5)
    with pytest.raises(ValueError, match=r"min_overlap=0\.5 with pairing='hipe'"):
        Options.of(pairing="hipe").evolve(min_overlap=0.5)


def test_the_value_score_keeps_its_own_pairing() -> None:
    # docs/scoring.md §10: the value pairs by value whatever `pairing` says; the counts follow `pairing`.
    inputs = {"references": [["B-PERS", "I-PERS", "B-LOC", "I-LOC"]], "predictions": [["O", "B-LOC", "I-LOC", "O"]]}
    ours = compute_semeval(**inputs, value=True)
    greedy = compute_semeval(**inputs, value=True, pairing="hipe")
    assert greedy["value"] == ours["value"] and greedy["type_correct"] != ours["type_correct"]


def entity_rows(result: dict) -> list[tuple[int, Span | None, Span | None]]:
    def span(entity: dict | None) -> Span | None:
        return None if entity is None else Span(entity["start"], entity["end"], entity["type"])

    return [(row["sentence"], span(row["reference"]), span(row["prediction"])) for row in result["entities"]]


@settings(deadline=None)  # a machine shared with other jobs: no time limit
@given(st.lists(st.tuples(nested_spans(), nested_spans()), max_size=4), st.booleans())
def test_compute_semeval_rows_are_pair_greedys_on_spans(sentences, as_objects) -> None:
    # Tuples take the array path (span_arrays, sentence by sentence by pair_sentences), Span objects the readable
    # path: both give pair_greedy's rows, in the order given, and the scorer's counts.
    references = [[Span(*e) if as_objects else e for e in r] for r, _ in sentences]
    predictions = [[Span(*e) if as_objects else e for e in p] for _, p in sentences]
    result = compute_semeval(predictions=predictions, references=references, pairing="hipe", return_entities=True)
    expected = [
        (number, r, p)
        for number, (r_side, p_side) in enumerate(sentences)
        for r, p in pair_greedy(as_spans(r_side), as_spans(p_side))
    ]
    assert sorted(entity_rows(result), key=repr) == sorted(expected, key=repr)
    counted = Counter[str]()
    for r_side, p_side in sentences:
        counted.update(scorer_counts(as_spans(r_side), as_spans(p_side))["type"])
    assert tuple(result[key] for key in TYPE_COUNTS) == tuple(counted[o] for o in ("COR", "INC", "PAR", "MIS", "SPU"))


@settings(deadline=None)  # a machine shared with other jobs: no time limit
@given(st.lists(st.tuples(spans(6), spans(6)), max_size=4))
def test_compute_semeval_of_tags_pairs_as_pair_greedy(sentences) -> None:
    # Tags (the readable path: tag_arrays leaves "hipe" to it): the decoded entities in position order.
    def tags(entities: list[tuple[int, int, str]]) -> list[str]:
        row = ["O"] * 6
        for start, end, entity_type in entities:
            row[start:end] = [f"B-{entity_type}"] + [f"I-{entity_type}"] * (end - start - 1)
        return row

    references = [tags(r) for (r, _), _ in sentences]
    predictions = [tags(p) for _, (p, _) in sentences]
    result = compute_semeval(predictions=predictions, references=references, pairing="hipe", return_entities=True)
    expected = [
        (number, r, p)
        for number, ((r_side, _), (p_side, _)) in enumerate(sentences)
        for r, p in pair_greedy(as_spans(r_side), as_spans(p_side))
    ]
    assert sorted(entity_rows(result), key=repr) == sorted(expected, key=repr)


def test_compare_semeval_pairs_both_systems_as_the_option_says() -> None:
    # System a's LOC over the end of PERS takes PERS under the scorer's pairing: its type F1 is 0, not 2/3.
    references = [["B-PERS", "I-PERS", "B-LOC", "I-LOC"]] * 3
    systems: dict[str, Any] = {"predictions_a": [["O", "B-LOC", "I-LOC", "O"]] * 3, "predictions_b": references}
    ours = compare_semeval(**systems, references=references, n_resamples=50)
    greedy = compare_semeval(**systems, references=references, n_resamples=50, pairing="hipe")
    assert (ours["type_f1_a"], greedy["type_f1_a"]) == (pytest.approx(2 / 3), 0.0)
    assert ours["type_f1_b"] == greedy["type_f1_b"] == 1.0


@pytest.mark.parametrize(
    ("prediction", "reference"),
    [
        ({"fragments": [[0, 2], [4, 6]], "type": "A"}, (0, 6, "A")),
        ((0, 6, "A"), {"fragments": [[0, 2], [4, 6]], "type": "A"}),
        ({"fragments": [[0, 2], [4, 6]], "type": "A"}, {"fragments": [[0, 2], [3, 6]], "type": "A"}),
    ],
)
def test_a_discontinuous_entity_is_never_identical_to_another_of_its_extent(prediction, reference) -> None:
    # docs/scoring.md §12: identical boundaries are the same fragments, so both pairings make the pair scenario V
    # (the red team's: pairing="hipe" matched the extent alone, scored the pair COR and dropped its fragments).
    batches = {"predictions": [[prediction]], "references": [[reference]]}
    optimal = compute_semeval(**batches, return_entities=True)
    hipe = compute_semeval(**batches, return_entities=True, pairing="hipe")
    assert hipe["entities"] == optimal["entities"]
    assert [row["scenario"] for row in hipe["entities"]] == ["V"]
    assert hipe["strict_f1"] == hipe["exact_f1"] == 0.0


def steps_of_each_search(
    references: list[Span], predictions: list[Span]
) -> tuple[list[tuple[Span | None, Span | None]], list[int]]:
    """`pair_greedy`'s rows and, for each prediction that searched for its reference (`first_match`, of `_InOrder`
    or `_Untaken`), the Python lines that search ran, whatever module they are in: the work it cost, whichever way
    the reference is found (a scan past the references runs lines for each)."""
    steps: list[int] = []

    def tracer(frame: Any, event: str, arg: Any) -> Any:  # (sys.settrace's)
        if event == "line":
            steps[-1] += 1
        return tracer

    def counted(search: Any) -> Any:
        def first_match(self: Any, prediction: Span, same_text: bool) -> tuple[int | None, bool]:
            steps.append(0)
            previous = sys.gettrace()  # (a coverage tool's, put back)
            # A collection during the search would run other objects' finalizers under the tracer and count
            # their lines (the quick profile under load saw one search of the 2,000-deep onion differ).
            collecting = gc.isenabled()
            gc.disable()
            sys.settrace(tracer)
            try:
                return search(self, prediction, same_text)
            finally:
                sys.settrace(previous)
                if collecting:
                    gc.enable()

        return first_match

    with (
        mock.patch.object(greedy._InOrder, "first_match", counted(greedy._InOrder.first_match)),
        mock.patch.object(greedy._Untaken, "first_match", counted(greedy._Untaken.first_match)),
    ):
        rows = pair_greedy(references, predictions)
    return rows, steps


def test_a_prediction_far_from_nested_references_looks_at_none_of_them() -> None:
    # The red team's: each prediction scanned every reference that nests, so that an onion of 4,000 references
    # against 4,000 predictions elsewhere took 9 s (quadratic in the nesting); the references a prediction looks
    # at are now those whose extents may meet its own. So its search runs the same lines whatever the onion's size:
    # a scan past the references (or past the tree's nodes, one a reference) would run ten times as many for an
    # onion ten times as deep.
    elsewhere = [S(10_000 + i, 10_001 + i, "A") for i in range(200)]
    steps = {}
    for depth in (200, 2_000):
        onion = [S(i, 2 * depth - i, "A") for i in range(depth)]
        rows, steps[depth] = steps_of_each_search(onion, elsewhere)
        assert Counter(scenario_of(r, p) for r, p in rows) == {"II": 200, "III": depth}
    assert len(steps[200]) == len(elsewhere) and max(steps[200]) < 50, steps[200]
    assert steps[2_000] == steps[200]
    # Inside the onion, each prediction takes the first reference it meets that is not taken, as the scorer does.
    onion = [S(i, 400 - i, "A") for i in range(200)]
    inside = [S(199, 201, "A"), S(0, 1, "B"), S(199, 201, "A")]
    assert our_counts(pair_greedy(onion, inside)) == scorer_counts(onion, inside)


def plain_greedy(
    references: list[Span],
    predictions: list[Span],
    alternatives: list[list[str]] | None = None,
    identical: list[bool] | None = None,
) -> list[tuple[Span | None, Span | None]]:
    """The greedy rule as the module's docstring states it, each prediction scanning every reference in order (the
    oracle of `pair_greedy`'s rows, which finds the same reference without the scan: nerscore.pairing.greedy)."""
    taken: set[Span] = set()
    rows: list[tuple[Span | None, Span | None]] = []
    for number, prediction in enumerate(predictions):
        offered = [prediction.entity_type] if alternatives is None else alternatives[number]
        same_text = identical is None or identical[number]
        typed = [Span(prediction.start, prediction.end, t, prediction.fragments) for t in offered]
        exact = next((span for span in typed if span in references), None) if same_text else None
        if exact is not None:
            taken.add(exact)
            rows.append((exact, exact))
            continue
        match, by_bounds = None, False
        for reference in references:
            by_bounds = reference.same_bounds(prediction) and (
                same_text or reference.entity_type != prediction.entity_type
            )
            if by_bounds or (reference not in taken and reference.overlap(prediction) > 0):
                match = reference
                break
        if match is not None:
            taken.add(match)
            renamed = (same_text or not by_bounds) and match.entity_type != prediction.entity_type
            if renamed and match.entity_type in offered:
                prediction = replace(prediction, entity_type=match.entity_type)
        rows.append((match, prediction))
    rows += [(reference, None) for reference in references if reference not in taken]

    def position(row: tuple[Span | None, Span | None]) -> tuple[int, bool, int]:
        first = row[0] if row[0] is not None else row[1]
        assert first is not None
        return min(span.start for span in row if span is not None), row[0] is None, first.end

    return sorted(rows, key=position)


@st.composite
def greedy_side(draw: st.DrawFn, in_order: bool) -> list[Span]:
    """Entities of one side: contiguous or of two or three fragments (docs/scoring.md §12), of three types; nested,
    overlapping and repeated in any order, or laid out in order and disjoint (tags' shape, with fragments too)."""
    entities, position = [], 0
    for _ in range(draw(st.integers(0, 7))):
        start = position + draw(st.integers(0, 2)) if in_order else draw(st.integers(0, 10))
        lengths = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
        pieces, at = [], start
        for length in lengths:
            pieces.append((at, at + length))
            at += length + draw(st.integers(1, 2))
        entity_type = draw(st.sampled_from("ABC"))
        fragments = tuple(pieces) if len(pieces) > 1 else ()
        entities.append(Span(pieces[0][0], pieces[-1][1], entity_type, fragments))
        position = pieces[-1][1]
    if not in_order and entities:
        entities += draw(st.lists(st.sampled_from(entities), max_size=2))  # copies
        entities = draw(st.permutations(entities))
    return entities


@st.composite
def greedy_inputs(draw: st.DrawFn) -> tuple:
    references = draw(greedy_side(draw(st.booleans())))
    predictions = draw(greedy_side(draw(st.booleans())))
    count = len(predictions)
    alternatives = draw(
        st.none() | st.lists(st.lists(st.sampled_from("ABC"), min_size=1), min_size=count, max_size=count)
    )
    identical = draw(st.none() | st.lists(st.booleans(), min_size=count, max_size=count))
    return references, predictions, alternatives, identical


@settings(max_examples=500, deadline=None)
@given(greedy_inputs())
def test_the_rows_are_the_plain_scans_of_the_greedy_rule(inputs) -> None:
    # The references a prediction may take are found without scanning the taken ones (in order: pointers past
    # them; else segment trees over positions and starts), so that an onion costs its entities, not its pairs; the
    # rows stay the plain scan's, row for row, with fragments, copies, links offered and text that differs.
    assert pair_greedy(*inputs) == plain_greedy(*inputs)


@pytest.mark.parametrize(
    ("name", "references", "predictions"),
    [
        # Issue 16's onion: every prediction overlaps every reference, each takes the first not taken.
        ("onion", [S(i, 40 - i, "AB"[i % 2]) for i in range(20)], [S(i, 39 - i, "BA"[i % 3 > 0]) for i in range(20)]),
        # Two runs of references out of order, the predictions between them: none overlaps any.
        (
            "two-runs",
            [S(k // 2 + (100 if k % 2 else 0), k // 2 + 1 + (100 if k % 2 else 0), "A") for k in range(20)],
            [S(50, 51, "A")] * 20,
        ),
        # References in order, each prediction over all of them.
        ("over-all", [S(2 * i, 2 * i + 1, "A") for i in range(20)], [S(0, 40, "B")] * 20),
        # Copies of one reference, predictions inside it: the first takes it (all its copies, by value).
        ("copies", [S(0, 5, "A")] * 20, [S(1, 3, "A")] * 20),
    ],
)
def test_hostile_shapes_pair_as_the_plain_scan(name: str, references: list[Span], predictions: list[Span]) -> None:
    assert pair_greedy(references, predictions) == plain_greedy(references, predictions)


def test_a_respelled_prediction_takes_the_first_reference_of_its_boundaries_and_another_type() -> None:
    # The later scorer (docs/hipe.md): spelled otherwise, the third A takes B, taken already, as scenario IV.
    references = [S(0, 2, "A"), S(0, 2, "B")]
    predictions, identical = [S(0, 2, "A"), S(0, 2, "B"), S(0, 2, "A")], [True, True, False]
    rows = pair_greedy(references, predictions, identical=identical)
    assert rows == plain_greedy(references, predictions, identical=identical)
    assert scenarios(rows)[-1] == ("IV", S(0, 2, "B"), S(0, 2, "A"))


def test_references_past_the_free_memory_are_refused_before_they_are_filed(monkeypatch) -> None:
    # Nested references out of order take a tree of about (fragments x log) entries: past the memory left, a
    # located ValueError before it is built, never a MemoryError (errors.refuse_past_free_memory's).
    monkeypatch.setattr(errors, "free_memory", lambda: 1_000)
    monkeypatch.setattr(greedy, "FLOOR", 0)
    references = [(i, 100 - i, "A") for i in range(40)]
    with pytest.raises(ValueError, match=r"sentence 1: its 40 references \(40 fragments\) need about .* to pair"):
        compute_semeval(predictions=[[], [(3, 5, "B")]], references=[[], references], pairing="hipe")
    # Identical predictions need no tree; references in order need none either.
    assert pair_greedy([S(0, 5, "A")] * 3, [S(0, 5, "A")])
    assert pair_greedy([S(0, 1, "A"), S(2, 3, "A")], [S(0, 3, "B")])


# pair_greedy and scenario_of take Spans (their signatures): a tuple or None was an AttributeError ("'tuple' object
# has no attribute 'end'") or a TypeError, alternatives of another length an IndexError; now a ValueError naming
# the argument, the value and what it expects. (call, fragments of the message)
X, Y = Span(0, 1, "X"), Span(0, 1, "Y")
# Values of the kinds the signatures refuse, typed Any: each call passes one on purpose.
A_TUPLE: Any = (0, 1, "X")
NOTHING: Any = None
THREE: Any = 3
A_STRING: Any = "Y"
BAD_GREEDY_ARGUMENTS = [
    pytest.param(lambda: pair_greedy([A_TUPLE], [X]), ["references[0] is (0, 1, 'X') (tuple)"], id="a-tuple"),
    pytest.param(lambda: pair_greedy([X], NOTHING), ["predictions is None (NoneType)"], id="no-predictions"),
    pytest.param(lambda: pair_greedy([X], [Y], alternatives=[]), ["alternatives is []", "one value per"], id="few"),
    pytest.param(lambda: pair_greedy([X], [Y], alternatives=[NOTHING]), ["alternatives is [None]"], id="alt-none"),
    pytest.param(lambda: pair_greedy([X], [Y], identical=THREE), ["identical is 3"], id="identical-a-number"),
    pytest.param(lambda: scenario_of(A_TUPLE, None), ["reference is (0, 1, 'X') (tuple)"], id="scenario-tuple"),
    pytest.param(
        lambda: scenario_of(X, A_STRING), ["prediction is 'Y' (str); expected a Span or None"], id="scenario-str"
    ),
]


@pytest.mark.parametrize(("call", "fragments"), BAD_GREEDY_ARGUMENTS)
def test_what_is_no_span_is_refused_with_a_located_message(call, fragments: list) -> None:
    with pytest.raises(ValueError) as caught:
        call()
    for fragment in fragments:
        assert fragment in str(caught.value), str(caught.value)
