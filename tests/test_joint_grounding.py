"""nerscore.forms.joint_grounding (issue 17, items 7-8; issue 31, item 5): the joint grounding of predicted strings
(docs/scoring.md §1b, as amended: predictions of one text and type take distinct occurrences, of different types
they may share one) is exact and is one flow per overlap component, never a branch.

The exhaustive oracle (tests/grounding_oracle.py) on tiny documents whose references are spans (so that they
nest, repeat and lie on one occurrence with several types), named cases, and the structural bound: flows
solved (`grounding_counts.Tracker.solves`), never wall-clock."""

from __future__ import annotations

import random
from math import prod

import grounding_oracle as oracle
import pytest
from conftest import grounded_result
from grounding_counts import tracked
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from nerscore.forms import joint_grounding
from nerscore.forms.grounding import Haystack, ground_predictions
from nerscore.span import Span

TYPES = ("X", "Y", "Z")


def grounded(text, references, predictions, min_overlap=None):
    """The grounded predictions (sorted (start, end, type)), the scenario counts and the result."""
    options = {} if min_overlap is None else {"min_overlap": min_overlap}
    result, mentions, scenarios = grounded_result(text, references, predictions, **options)
    return mentions, scenarios, result


def assert_as_the_oracle(text, references, predictions, min_overlap=None) -> None:
    mentions = [oracle.Mention(start, end, kind) for start, end, kind in references]
    _, best, counts, ungrounded = oracle.best_grounding(text, mentions, predictions, min_overlap)
    found, scenarios, result = grounded(
        text, [list(r) for r in references], [list(p) for p in predictions], min_overlap
    )
    assert found == [tuple(mention) for mention in best]
    assert scenarios == counts
    assert result["ungrounded"] == ungrounded


@st.composite
def contested(draw):
    """A tiny text over two letters; references as spans, drawn so that they repeat (one span with two types),
    nest and cross; predictions of few strings, each with one to three types, so that one occurrence is wanted
    by several types. The oracle's enumeration stays below a few thousand groundings."""
    text = draw(st.text(alphabet="ab ", min_size=2, max_size=7))
    pieces = sorted({text[i:j] for i in range(len(text)) for j in range(i + 1, min(len(text), i + 3) + 1)})
    pieces = [piece for piece in pieces if piece.strip() == piece and piece]
    assume(pieces)
    spans = st.tuples(st.integers(0, len(text) - 1), st.integers(1, 3)).map(
        lambda start_length: (start_length[0], min(len(text), start_length[0] + start_length[1]))
    )
    references = []
    for _ in range(draw(st.integers(0, 5))):
        start, end = draw(spans)
        kinds = draw(st.lists(st.sampled_from(TYPES), min_size=1, max_size=2, unique=True))  # duplicates
        references.extend((start, end, kind) for kind in kinds)
    assume(len(references) <= 6)
    strings = draw(st.lists(st.sampled_from(pieces), min_size=1, max_size=2, unique=True))
    predictions = []
    for needle in strings:
        for kind in draw(st.lists(st.sampled_from(TYPES), min_size=1, max_size=3, unique=True)):
            predictions.extend([(kind, needle)] * draw(st.integers(1, 2)))
    assume(len(predictions) <= 5)
    size = prod(len(oracle.occurrences(text, needle)) + 1 for _, needle in predictions)
    assume(size <= 600)
    min_overlap = draw(st.one_of(st.none(), st.sampled_from((0.5, 0.75, 1.0))))
    return text, references, predictions, min_overlap


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(contested())
# Two types at each occurrence of "a", a reference of each type on it, more predictions than occurrences.
@example(
    document=("a a", [(0, 1, "X"), (0, 1, "Y"), (2, 3, "X"), (2, 3, "Y")], [("X", "a")] * 2 + [("Y", "a")] * 2, None)
)
# The occurrence inside a reference of another type, which lies on a second occurrence too (shared).
@example(document=("aa a", [(0, 2, "Y"), (0, 1, "X"), (3, 4, "X")], [("X", "a"), ("Y", "a")], None))
# Rule 1 above (a): X on the second "a" pairs (2, 3, X) exactly (I), a Y on the first (0, 3) (VI); X on the first
# and a Y on the second pair as many, one of them with the same boundaries, and as many of one type: rule 1 alone
# (identical boundaries and type) tells them apart.
@example(document=("a a", [(2, 3, "X"), (0, 3, "X")], [("X", "a"), ("Y", "a"), ("Y", "a")], None))
def test_the_joint_grounding_is_the_best_of_every_grounding_and_pairing(document) -> None:
    assert_as_the_oracle(*document)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(contested())
def test_one_flow_per_component_never_a_branch(document) -> None:
    # §1b as amended by issue 31: grounding and pairing are one flow per overlap component, each solved once; a
    # component holds a text and type with a choice, so there are at most as many flows as texts and types.
    text, references, predictions, min_overlap = document
    spans = [Span(*reference) for reference in references]
    with tracked() as tracker:
        ground_predictions(predictions, Haystack.of(text, False), False, spans, min_overlap)
    assert tracker.solves == tracker.flows <= len(set(predictions))


# ---------------------------------------------------------------------------------------------------------
# Named cases (each checked against the oracle too)
# ---------------------------------------------------------------------------------------------------------

SOLVER_CASES = {
    # One occurrence, a reference of each type on it, a prediction of each type: both take the occurrence (types
    # may share one, §1b as amended by issue 31) and each pairs as I with the reference of its type.
    "duplicate-references": ("a", [(0, 1, "X"), (0, 1, "Y")], [("X", "a"), ("Y", "a")], [(0, 1, "X"), (0, 1, "Y")]),
    # Two occurrences, a reference of each type on each, two predictions of each type: all four pair as I.
    "duplicates-on-every-occurrence": (
        "a a",
        [(0, 1, "X"), (0, 1, "Y"), (2, 3, "X"), (2, 3, "Y")],
        [("X", "a"), ("X", "a"), ("Y", "a"), ("Y", "a")],
        [(0, 1, "X"), (0, 1, "Y"), (2, 3, "X"), (2, 3, "Y")],
    ),
    # Both occurrences are sites of an X reference: each prediction pairs with one (rule 1's identical boundaries
    # come before the Y reference around it), X as an I, Y as a IV on the later one (the smaller sorted list).
    "nested-references": (
        "ab ab",
        [(0, 1, "X"), (0, 2, "Y"), (3, 4, "X"), (3, 5, "Y")],
        [("X", "a"), ("Y", "a")],
        [(0, 1, "X"), (3, 4, "Y")],
    ),
    # A Y reference over both occurrences (shared) and an X reference on the second: X takes its twin, Y the
    # first occurrence inside the Y reference.
    "shared-reference": ("a a", [(0, 3, "Y"), (2, 3, "X")], [("X", "a"), ("Y", "a")], [(0, 1, "Y"), (2, 3, "X")]),
    # Overlapping occurrences ("aa" at 0 and 1), each a site whose reference the other overlaps: each keeps its own.
    "overlapping-sites": ("aaa", [(0, 2, "X"), (1, 3, "Y")], [("X", "aa"), ("Y", "aa")], [(0, 2, "X"), (1, 3, "Y")]),
    # More sites (3) than predictions (2): only sites are grounded, the earliest of the best.
    "more-sites-than-predictions": (
        "a a a b",
        [(0, 1, "Y"), (2, 3, "X"), (4, 5, "Y"), (0, 7, "X")],
        [("X", "a"), ("Y", "a")],
        [(0, 1, "Y"), (2, 3, "X")],
    ),
    # Two strings share a reference: "ab" is a site of the Y reference, "b" could pair with it too; "b" as Y
    # pairs with nothing wherever it goes, and takes the earlier occurrence (the smaller sorted list).
    "two-strings-one-reference": (
        "ab b",
        [(0, 2, "Y"), (1, 2, "X")],
        [("X", "b"), ("Y", "b"), ("Y", "ab")],
        [(0, 2, "Y"), (1, 2, "X"), (1, 2, "Y")],
    ),
    # References that cross the occurrence from both sides, one of each type: both types take it, each pairs.
    "crossing-references": ("aba", [(0, 2, "X"), (1, 3, "Y")], [("X", "b"), ("Y", "b")], [(1, 2, "X"), (1, 2, "Y")]),
}


@pytest.mark.parametrize(("text", "references", "predictions", "expected"), SOLVER_CASES.values(), ids=SOLVER_CASES)
def test_named_joint_groundings(text, references, predictions, expected) -> None:
    found, _, _ = grounded(text, [list(r) for r in references], [list(p) for p in predictions])
    assert found == expected
    assert_as_the_oracle(text, references, predictions)


# ---------------------------------------------------------------------------------------------------------
# The structural bound: flows solved, not seconds
# ---------------------------------------------------------------------------------------------------------


def duplicates(n: int) -> tuple[str, list[Span], list[tuple[str, str]]]:
    """ "a a ... a" (n occurrences), a reference X and a reference Y on each, n predictions of "a" as X and n as
    Y: every occurrence contested by the two types, twice as many predictions as occurrences. The grounding
    before issue 17's items 7-8 branched on each contested occurrence: 2**(n+1) - 1 flows."""
    text = " ".join(["a"] * n)
    references = [Span(2 * i, 2 * i + 1, kind) for i in range(n) for kind in ("X", "Y")]
    return text, references, [("X", "a")] * n + [("Y", "a")] * n


def nested(n: int) -> tuple[str, list[Span], list[tuple[str, str]]]:
    """ "ab ab ... ab": on each "a" a reference X, around it a reference Y "ab"; n // 2 predictions of "a" as X
    and n as Y (before: 5,019 flows for n = 12)."""
    text = " ".join(["ab"] * n)
    references = [Span(3 * i, 3 * i + end, kind) for i in range(n) for end, kind in ((1, "X"), (2, "Y"))]
    return text, references, [("X", "a")] * (n // 2) + [("Y", "a")] * n


def crossing(n: int) -> tuple[str, list[Span], list[tuple[str, str]]]:
    """ "ab ab ... ab": each "b" inside a reference X "ab" and a reference Y "b a" that crosses it (and reaches
    the next "ab", or the text's last space: a span ends within its text, issue 31); n predictions of "b" as X and n
    as Y (before: 8,191 flows for n = 12)."""
    text = " ".join(["ab"] * n) + " "
    references = [Span(3 * i, 3 * i + 2, "X") for i in range(n)] + [Span(3 * i + 1, 3 * i + 3, "Y") for i in range(n)]
    return text, references, [("X", "b")] * n + [("Y", "b")] * n


def shared(n: int) -> tuple[str, list[Span], list[tuple[str, str]]]:
    """ "a a ... a", a reference Y over the whole text (shared by every occurrence) and a reference X on each
    occurrence; n // 2 predictions as X and n as Y (before: 5,019 flows for n = 12)."""
    text = " ".join(["a"] * n)
    references = [Span(0, 2 * n - 1, "Y")] + [Span(2 * i, 2 * i + 1, "X") for i in range(n)]
    return text, references, [("X", "a")] * (n // 2) + [("Y", "a")] * n


def shared_by_two(n: int) -> tuple[str, list[Span], list[tuple[str, str]]]:
    """ "a a ... a", references X and Y on each occurrence and a reference Y over each two neighbouring ones; n
    predictions as X and n as Y (before: 8,191 flows for n = 12)."""
    text = " ".join(["a"] * n)
    references = [Span(2 * i, 2 * i + 3, "Y") for i in range(0, n - 1, 2)]
    references += [Span(2 * i, 2 * i + 1, kind) for i in range(n) for kind in ("X", "Y")]
    return text, references, [("X", "a")] * n + [("Y", "a")] * n


def spare_sites(n: int) -> tuple[str, list[Span], list[tuple[str, str]]]:
    """ "a a ... a" (n + n // 2 occurrences): a reference X on each of the first n, a reference Y over each two of
    them; n - 3 predictions as X (three sites to spare) and n // 2 as Y. Every best grounding pairs each site
    with its own reference (`joint_grounding._twins_first`); before, the flow tried the Y references with the
    sites, in branches whose number grew as n**(spares + 1) (4,759 flows for n = 16)."""
    text = " ".join(["a"] * (n + n // 2))
    references = [Span(2 * i, 2 * i + 3, "Y") for i in range(0, n - 1, 2)] + [
        Span(2 * i, 2 * i + 1, "X") for i in range(n)
    ]
    return text, references, [("X", "a")] * (n - 3) + [("Y", "a")] * (n // 2)


ADVERSARIAL = {
    "duplicates": duplicates,
    "nested": nested,
    "crossing": crossing,
    "shared": shared,
    "shared-by-two": shared_by_two,
    "spare-sites": spare_sites,
}


def competing(n: int) -> tuple[str, list[Span], list[tuple[str, str]]]:
    """ "a a ... a" (n + n // 2 occurrences), references X and Y over each two neighbouring occurrences of the
    first n, overlapping from one pair to the next (none on an occurrence's bounds), n // 2 + 2 predictions as X
    and as many as Y. An occurrence may take an X and a Y reference at once in the flow, at the cost of a free
    occurrence worth nothing; before, the branches grew as n**4 (59 flows for n = 4, 839 for 8, 12,011 for 12).
    The bonus on the units the free occurrences must hold leaves about one branch per occurrence (n + 5)."""
    text = " ".join(["a"] * (n + n // 2))
    references = [Span(4 * j, 4 * j + 3, kind) for j in range(n // 2) for kind in ("X", "Y")]
    references += [Span(4 * j + 2, 4 * j + 5, kind) for j in range(n // 2) for kind in ("X", "Y")]
    return text, references, [("X", "a")] * (n // 2 + 2) + [("Y", "a")] * (n // 2 + 2)


REMAINING = {"competing": competing}


def flows_counted(monkeypatch: pytest.MonkeyPatch, most: int, beyond: str) -> list[int]:
    """The flows the grounding solves, one item each, counted at the flow itself so that the count stops a search
    that would not end (an AssertionError saying `beyond` past `most` flows); clear it to count afresh."""
    solved: list[int] = []
    solve = joint_grounding.max_weight_flow

    def counted(*arguments):
        solved.append(1)
        if len(solved) > most:
            raise AssertionError(beyond)
        return solve(*arguments)

    monkeypatch.setattr(joint_grounding, "max_weight_flow", counted)
    return solved


@pytest.mark.parametrize("build", [*ADVERSARIAL.values(), competing], ids=[*ADVERSARIAL, "competing"])
def test_40_contested_occurrences_cost_one_flow_per_text_and_type(build, monkeypatch) -> None:
    # Counted at the flow itself, so that the count stops a search that would not end (before issue 17: 2**41
    # flows; before issue 31, n + 5 for "competing").
    solved = flows_counted(monkeypatch, 2, "more than one flow for each of two texts and types")
    text, references, predictions = build(40)
    with tracked() as tracker:
        spans = ground_predictions(predictions, Haystack.of(text, False), False, references, None)
    assert tracker.solves == len(solved)
    # as many of each type grounded as there are occurrences or predictions, each on an occurrence of its own
    (needle,) = {needle for _, needle in predictions}
    occurrences = len(oracle.occurrences(text, needle))
    for kind in ("X", "Y"):
        placed = [(span.start, span.end) for span in spans if span is not None and span.entity_type == kind]
        assert len(placed) == len(set(placed)) == min(predictions.count((kind, needle)), occurrences)


def test_contested_occurrences_as_the_oracle_at_a_size_it_can_enumerate() -> None:
    for build in [*ADVERSARIAL.values(), *REMAINING.values()]:
        text, references, predictions = build(4 if build is spare_sites else 2)
        assert_as_the_oracle(text, [(r.start, r.end, r.entity_type) for r in references], predictions)


def red_team_block(offset: int = 0, seed: int = 1) -> tuple[list[Span], list[tuple[str, str]]]:
    """Issue 31's shape: 13 occurrences of "a", 11 span references of three types (on one occurrence or over two
    or three), 14 predictions of "a" of the three types. Before issue 31: 66,778 flows, 35-45 s."""
    rng = random.Random(seed)
    references = []
    for _ in range(11):
        first = rng.randrange(13)
        last = min(12, first + rng.choice((0, 0, 1, 2)))
        references.append(Span(offset + 2 * first, offset + 2 * last + 1, rng.choice(TYPES)))
    return references, [(TYPES[i % 3], "a") for i in range(14)]


def test_the_red_team_blocks_cost_one_flow_per_text_and_type(monkeypatch) -> None:
    # One block, then two joined by one reference (before: more than 200,000 flows): each a flow per type at most.
    solved = flows_counted(monkeypatch, 3, "more than one flow for each of three texts and types")
    first, predictions = red_team_block()
    second, more = red_team_block(26, seed=2)
    for text, references, listed in [
        (" ".join(["a"] * 13), first, predictions),
        (" ".join(["a"] * 26), [*first, *second, Span(24, 27, "X")], predictions + more),
    ]:
        solved.clear()
        spans = ground_predictions(listed, Haystack.of(text, False), False, references, None)
        for kind in TYPES:
            placed = [(span.start, span.end) for span in spans if span is not None and span.entity_type == kind]
            assert len(placed) == len(set(placed)) == min(listed.count((kind, "a")), len(text.split()))


def test_a_grounding_whose_weights_would_not_fit_is_refused_before_the_flow(monkeypatch) -> None:
    # Each weight holds a share of every row (§1b's tie), so memory grows with rows x edges: 4 types of "a" under one
    # reference over 2,500 occurrences took 122 MB, 20 types 10 GB (redspace). Refused, located, before the flow.
    from nerscore import compute_semeval

    monkeypatch.setattr("nerscore.errors.free_memory", lambda: 10**8)
    monkeypatch.setattr(joint_grounding, "max_weight_flow", None)  # never reached
    monkeypatch.setattr(joint_grounding, "STAGED_FROM", 5)  # 4 types: §1b's rows (the stages: below)
    # each type twice: types predicted once, of no reference's type, rank occurrences, not rows (test_typesflow)
    predictions = [[], [[f"T{i}", "a"] for i in range(4)] * 2]
    refused = (
        r"^predictions, sentence 1: its string predictions have 10,000 candidate occurrences \(one a type\) competing "
        r"for 1 reference, whose exact grounding \(docs/scoring.md §1b\) needs about 0\.1 GB, more than the 0\.1 GB"
    )
    with pytest.raises(ValueError, match=refused):
        compute_semeval(predictions=predictions, references=[[], [[0, 4999, "X"]]], texts=["", "a " * 2500])
    monkeypatch.setattr("nerscore.errors.free_memory", lambda: None)  # where none can be read, nothing is refused
    with pytest.raises(TypeError):  # the flow is reached (and is None here)
        compute_semeval(predictions=predictions, references=[[], [[0, 4999, "X"]]], texts=["", "a " * 2500])
    # In stages (`staged_grounding`) the same sentence needs no share: a flow of costs of a few bits, not refused
    monkeypatch.setattr(joint_grounding, "STAGED_FROM", 4)
    monkeypatch.setattr("nerscore.errors.free_memory", lambda: 10**8)
    result = compute_semeval(predictions=predictions, references=[[], [[0, 4999, "X"]]], texts=["", "a " * 2500])
    assert (result["ungrounded"], result["strict_spurious"]) == (0, 7)
