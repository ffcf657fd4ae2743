"""nerscore.forms.joint_grounding's collapses of issue 31, item 5 (the red team's n types of "a"): a component whose
texts and types are each predicted once, with a choice, and of types no reference of it has, is solved by a flow
of one row per occurrence (`_foreign_singletons`), not one per (occurrence, type); a component of one text whose
references each overlap one occurrence, and each occurrence at most one, of types none of them has, in one pass
over its occurrences without a flow (`_foreign_apart`), whatever the number of predictions of each type; and any
component of 4 texts and types or more (nerscore.forms.staged_grounding) in two stages: the pairing's value by a
flow of few-bit costs, then the smallest list row by row along cycles of reduced cost 0 (n types, half of them
the references', once n^2 rows of n^2 bits).

Their oracle is the flow of §1b's own rows (`_best_grounding`, the collapse switched off), on every small case of
a seeded walk and of Hypothesis: 1-4 occurrences of "a", texts that overlap ("a a" and "a", "aa"), 0-4
references of 1-2 types and 0-4 predictions of 1-3 types (and, for the pass, 1-7 tokens of "a", "aa", "aaa", a
reference inside some, 1-4 types of 1-4 predictions each); and the exhaustive oracle (tests/grounding_oracle.py)
where it is small enough; the stages also on every shape (spans of three types, several strings, `normalize`),
and past the oracle's sizes. Growth is counted by the rows and bits of the flow, never by a clock (the clock's
figures are benchmarks/hostile.py --grounding's)."""

from __future__ import annotations

import random
from contextlib import contextmanager
from itertools import pairwise

import grounding_oracle as oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_joint_grounding import assert_as_the_oracle

from nerscore.forms import joint_grounding, staged_grounding
from nerscore.forms.grounding import Haystack, ground_predictions
from nerscore.span import Span

TEXTS = ("a", "a a", "a a a", "a a a a", "aa a", "a aa", "aaa")
PIECES = ("a", "a a", "aa")
REFERENCE_TYPES = ("X", "Y")
PREDICTION_TYPES = ("X", "T", "U")


@contextmanager
def collapse(on: bool, name: str = "_foreign_singletons"):
    """The collapse `name` as written (on), or switched off so that §1b's own rows decide (the oracle); yields the
    number of components it solved."""
    solved = [0]
    original = getattr(joint_grounding, name)

    def counted(*arguments, **options):
        answer = original(*arguments, **options) if on else None
        solved[0] += answer is not None
        return answer

    setattr(joint_grounding, name, counted)
    try:
        yield solved
    finally:
        setattr(joint_grounding, name, original)


def grounding(text, references, predictions, min_overlap, on: bool, normalize=False, name="_foreign_singletons"):
    spans = [Span(*reference) for reference in references]
    with collapse(on, name) as solved:
        found = ground_predictions(predictions, Haystack.of(text, normalize), normalize, spans, min_overlap)
    return found, solved[0]


def case(rng: random.Random):
    text = rng.choice(TEXTS)
    references = []
    for _ in range(rng.randint(0, 4)):
        start = rng.randrange(len(text))
        references.append((start, rng.randint(start + 1, len(text)), rng.choice(REFERENCE_TYPES)))
    pieces = [piece for piece in PIECES if piece in text]
    predictions = [(rng.choice(PREDICTION_TYPES), rng.choice(pieces)) for _ in range(rng.randint(0, 4))]
    return text, references, predictions, rng.choice((None, None, 0.5, 1.0))


def test_the_collapse_grounds_as_the_rows_of_every_occurrence_and_type() -> None:
    # A seeded walk of 3,000 small cases; the collapse must decide a good share of them, or this proves nothing.
    rng = random.Random(31)
    decided = 0
    for _ in range(3000):
        document = case(rng)
        found, solved = grounding(*document, on=True)
        assert found == grounding(*document, on=False)[0], document
        decided += solved
    assert decided >= 300


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_the_collapse_is_the_oracle_where_it_decides(rng) -> None:
    text, references, predictions, min_overlap = document = case(rng)
    found, solved = grounding(*document, on=True)
    assert found == grounding(*document, on=False)[0]
    if solved and len(predictions) <= 3:
        assert_as_the_oracle(text, references, predictions, min_overlap)


def test_two_texts_on_one_occurrence_are_left_to_the_rows() -> None:
    # With `normalize`, "f", "fi" and "i" all ground on the whole of "ﬁ" (§1b): two texts' types then interleave
    # at one (start, end), and the collapse, which ranks occurrences, must leave such a component to §1b's rows.
    rng = random.Random(5)
    decided = 0
    for _ in range(1500):
        text = rng.choice(("ﬁ ﬁ", "ﬁ ﬁ ﬁ", "ﬁ fi"))
        references = [(start, start + 1, "A") for start in range(0, len(text), 2) if rng.random() < 0.5]
        predictions = [(rng.choice("TUV"), rng.choice(("f", "fi", "i"))) for _ in range(rng.randint(1, 4))]
        document = (text, references, predictions, None)
        found, solved = grounding(*document, on=True, normalize=True)
        assert found == grounding(*document, on=False, normalize=True)[0], document
        decided += solved
    assert decided >= 300


def apart_case(rng: random.Random):
    """Tokens of "a", "aa", "aaa" with a reference inside some or past their end (so that an occurrence of "aa"
    may overlap one, two or none, and the gains differ: same boundaries or not, characters shared), and 1-4 types
    of 1-4 predictions each of one text: fewer predictions than references (ties and places left out) and more."""
    tokens = [rng.choice(("a", "aa", "aaa")) for _ in range(rng.randint(1, 7))]
    text = " ".join(tokens)
    references, start = [], 0
    for token in tokens:
        if rng.random() < 0.7:  # inside the token, or past its end by a space (its place's boundaries not its own)
            first = start + rng.randrange(len(token))
            last = rng.randint(first + 1, min(len(text), start + len(token) + 1))
            references.append((first, last, rng.choice(REFERENCE_TYPES)))
        start += len(token) + 1
    needle = rng.choice(("a", "aa"))
    predictions = [(kind, needle) for kind in rng.sample("TUVW", rng.randint(1, 4)) for _ in range(rng.randint(1, 4))]
    return text, references, predictions, rng.choice((None, None, 0.5, 1.0))


@contextmanager
def never_refused():
    """The pass's refusals (`_in_order` returning None, which hands its shape back to §1b's rows) are counted and
    must not happen: by its argument a place always has a completable choice."""
    refused = [0]
    original = joint_grounding._in_order

    def counted(*arguments):
        answer = original(*arguments)
        refused[0] += answer is None
        return answer

    joint_grounding._in_order = counted
    try:
        yield
    finally:
        joint_grounding._in_order = original
    assert refused[0] == 0


def test_the_pass_grounds_as_the_rows_of_every_occurrence_and_type() -> None:
    # A seeded walk of 1,200 cases, 441 decided by the pass (the rest are not its shape).
    rng = random.Random(17)
    decided = 0
    with never_refused():
        for _ in range(1200):
            document = apart_case(rng)
            found, solved = grounding(*document, on=True, name="_foreign_apart")
            assert found == grounding(*document, on=False, name="_foreign_apart")[0], document
            decided += solved
    assert decided >= 400


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_the_pass_is_the_oracle_where_it_decides(rng) -> None:
    text, references, predictions, min_overlap = document = apart_case(rng)
    with never_refused():
        found, solved = grounding(*document, on=True, name="_foreign_apart")
    assert found == grounding(*document, on=False, name="_foreign_apart")[0]
    if solved and len(predictions) <= 4 and len(text) <= 9:
        assert_as_the_oracle(text, references, predictions, min_overlap)


RED_TEAM = {
    # issue 31, item 5: references A on every occurrence of "a", each prediction its own type
    "own types": lambda n: [Span(2 * i, 2 * i + 1, "A") for i in range(n)],
    # references of n types, predictions of n others
    "distinct types": lambda n: [Span(2 * i, 2 * i + 1, f"R{i}") for i in range(n)],
}


@pytest.mark.parametrize("name", RED_TEAM)
def test_the_red_team_grounds_on_one_row_per_occurrence(name) -> None:
    # Each type takes one occurrence, paired with the reference on it (identical boundaries), the types in order
    # to the occurrences in order (the smallest sorted list); the flow holds n rows of about n bits each.
    n = 40
    text = "a " * n
    predictions = [(f"T{i:02d}", "a") for i in reversed(range(n))]
    rows: list[int] = []
    original = joint_grounding.max_weight_flow

    def measured(weights, *capacities):
        rows.append(len({row for row, _ in weights}))
        rows.append(max(weight.bit_length() for weight in weights.values()))
        return original(weights, *capacities)

    joint_grounding.max_weight_flow = measured
    try:
        found = ground_predictions(predictions, Haystack.of(text, False), False, RED_TEAM[name](n), None)
    finally:
        joint_grounding.max_weight_flow = original
    assert found == [Span(2 * (n - 1 - i), 2 * (n - 1 - i) + 1, f"T{n - 1 - i:02d}") for i in range(n)]
    assert rows[0] == n and rows[1] <= 8 * n


def test_the_oracle_sees_the_red_team_small() -> None:
    references = [(0, 1, "A"), (2, 3, "A"), (4, 5, "A")]
    assert_as_the_oracle("a a a", references, [("T2", "a"), ("T0", "a"), ("T1", "a")])
    assert len(oracle.occurrences("a a a", "a")) == 3


def flow_size(references, predictions, text) -> tuple[int, int]:
    """The rows of the largest flow grounding them, and the bits of its largest weight."""
    sizes = [(0, 0)]
    original = joint_grounding.max_weight_flow

    def measured(weights, *capacities):
        sizes.append((len({row for row, _ in weights}), max(weight.bit_length() for weight in weights.values())))
        return original(weights, *capacities)

    joint_grounding.max_weight_flow = measured
    try:
        ground_predictions(predictions, Haystack.of(text, False), False, references, None)
    finally:
        joint_grounding.max_weight_flow = original
    return max(sizes)


def test_two_predictions_a_type_ground_without_a_flow() -> None:
    # n / 2 types of "a", two predictions each, references A on every occurrence: once the rows' flow (n^2 rows of
    # n^2 bits, about n^4); now the pass (`_foreign_apart`): every occurrence covered once, the types in order,
    # each on two occurrences in a row (the smallest list; the first listed of a type the first), no flow.
    for n in (8, 16, 40):
        references = [Span(2 * i, 2 * i + 1, "A") for i in range(n)]
        predictions = [(f"T{i // 2:02d}", "a") for i in reversed(range(n))]
        assert flow_size(references, predictions, "a " * n) == (0, 0)
        found = ground_predictions(predictions, Haystack.of("a " * n, False), False, references, None)
        assert found == [Span(2 * (i ^ 1), 2 * (i ^ 1) + 1, f"T{i // 2:02d}") for i in reversed(range(n))]


def test_the_oracle_sees_two_predictions_a_type_small() -> None:
    references = [(0, 1, "A"), (2, 3, "A"), (4, 5, "A"), (6, 7, "A")]
    assert_as_the_oracle("a a a a", references, [("T1", "a"), ("T0", "a"), ("T1", "a"), ("T0", "a")])
    # Fewer predictions than references, gains tied (both inside) and not (one of same boundaries)
    references = [(0, 1, "A"), (3, 4, "A"), (6, 8, "A")]
    assert_as_the_oracle("aa aa aa", references, [("T1", "aa"), ("T0", "aa")])
    # Two predictions of a type, three places of gains differing only in the characters shared: the last (2,
    # not 1) and, of the two tied, the first
    document = ("aa aa aa a", [(0, 1, "A"), (3, 4, "A"), (6, 9, "A")], [("T", "aa")] * 2, None)
    assert grounding(*document, on=True, name="_foreign_apart") == ([Span(0, 2, "T"), Span(6, 8, "T")], 1)
    assert_as_the_oracle(*document)


HALF_SHARED = {
    # references of T0..T(n-1), predictions of T(n/2)..: half the types are the references'
    "half the types shared": lambda n: (
        [Span(2 * i, 2 * i + 1, f"T{i}") for i in range(n)],
        [(f"T{i + n // 2}", "a") for i in range(n)],
    ),
}


@contextmanager
def staged(threshold: int):
    """`ground_in_stages` from components of `threshold` texts and types (1: every one; a number past any
    component's: never, so that §1b's rows decide, the oracle), with the other collapses switched off; yields
    the number of components it solved and the (arcs, bits of the largest cost) of each of its flows."""
    solved: list = [0, []]
    originals = {name: getattr(joint_grounding, name) for name in ("_foreign_singletons", "_foreign_apart")}
    original_flow, original_staged = staged_grounding._paths_at_cost_zero, joint_grounding.ground_in_stages
    threshold_before = joint_grounding.STAGED_FROM

    def counted(*arguments):
        answer = original_staged(*arguments)
        solved[0] += answer is not None
        return answer

    def measured(head, room, cost, *rest):
        solved[1].append((len(head), max(abs(price) for price in cost).bit_length()))
        return original_flow(head, room, cost, *rest)

    for name in originals:
        setattr(joint_grounding, name, lambda *arguments: None)
    joint_grounding.STAGED_FROM, joint_grounding.ground_in_stages = threshold, counted
    staged_grounding._paths_at_cost_zero = measured
    try:
        yield solved
    finally:
        for name, original in originals.items():
            setattr(joint_grounding, name, original)
        joint_grounding.STAGED_FROM, joint_grounding.ground_in_stages = threshold_before, original_staged
        staged_grounding._paths_at_cost_zero = original_flow


def grounded_in_stages(text, references, predictions, min_overlap, normalize, threshold):
    with staged(threshold) as solved:
        spans = [Span(*reference) for reference in references]
        found = ground_predictions(predictions, Haystack.of(text, normalize), normalize, spans, min_overlap)
    return found, solved[0]


def general_case(rng: random.Random):
    """Any component: a text over "a", "b" and spaces (or, with `normalize`, of "ﬁ", on which "f", "fi" and "i"
    all ground), references as spans of 1-4 characters and types X, Y, Z (nested, crossing, repeated), 1-3
    strings of 1-3 characters predicted with 1-3 types each (X, Y, Z: the references'; T: none's), 1-3 times."""
    normalize = rng.random() < 0.15
    if normalize:
        text, pieces = rng.choice(("ﬁ ﬁ", "ﬁ ﬁ ﬁ", "ﬁ fi", "fi ﬁ i")), ["f", "fi", "i"]
    else:
        text = "".join(rng.choice("ab ") for _ in range(rng.randint(2, 10))).strip() or "a"
        pieces = sorted({text[i:j] for i in range(len(text)) for j in range(i + 1, min(len(text), i + 3) + 1)})
        pieces = [piece for piece in pieces if piece.strip() == piece]
    references = []
    for _ in range(rng.randint(0, 6)):
        start = rng.randrange(len(text))
        references.append((start, rng.randint(start + 1, min(len(text), start + 4)), rng.choice("XYZ")))
    predictions = []
    for needle in rng.sample(pieces, min(len(pieces), rng.randint(1, 3))):
        for kind in rng.sample("XYZT", rng.randint(1, 3)):
            predictions += [(kind, needle)] * rng.randint(1, 3)
    return text, references, predictions, rng.choice((None, None, 0.5, 1.0)), normalize


def test_the_stages_ground_as_the_rows_of_every_occurrence_and_type() -> None:
    # A seeded walk of 1,500 components of every shape (the two other collapses off), each solved in stages and
    # by §1b's rows with their n^2-bit shares: the same grounding (most have nothing to decide).
    rng = random.Random(41)
    decided = 0
    for _ in range(1500):
        document = general_case(rng)
        found, solved = grounded_in_stages(*document, threshold=1)
        assert found == grounded_in_stages(*document, threshold=10**9)[0], document
        decided += solved
    assert decided >= 300


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_the_stages_are_the_oracle_where_they_decide(rng) -> None:
    text, references, predictions, min_overlap, normalize = document = general_case(rng)
    found, solved = grounded_in_stages(*document, threshold=1)
    assert found == grounded_in_stages(*document, threshold=10**9)[0]
    if solved and not normalize and len(predictions) <= 4 and len(text) <= 7:
        assert_as_the_oracle(text, references, predictions, min_overlap)


@pytest.mark.parametrize(
    "document",
    [
        # An own type kept on its own occurrence, the foreign one on the first (not the smallest type first)
        ("a a", [(0, 1, "X"), (2, 3, "Y")], [("Y", "a"), ("Z", "a")], None),
        # Types of a reference that compete for its occurrence with types of none
        ("a a a", [(0, 1, "X"), (2, 3, "Y"), (4, 5, "Z")], [("Y", "a"), ("Z", "a"), ("T", "a"), ("U", "a")], None),
        # Two predictions of a reference's type, two of others', overlapping texts
        ("aa a", [(0, 2, "X"), (3, 4, "Y")], [("X", "a"), ("X", "a"), ("T", "aa"), ("Y", "a"), ("U", "a")], None),
    ],
)
def test_the_stages_on_the_oracle(document) -> None:
    with staged(1) as solved:
        assert_as_the_oracle(*document)
    assert solved[0] >= 1


@pytest.mark.parametrize("name", HALF_SHARED)
def test_half_the_types_shared_grow_with_the_input(name) -> None:
    # issue 31, item 5's last shape: once §1b's rows, n^2 of n^2-bit weights (about n^4: 4x rows and 4x bits for
    # 2x n); now the stages: n^2 arcs (the rows, as many as the input's types x occurrences) of costs of
    # O(log n) bits. The types a reference has stay on their own occurrences, the others take the
    # first ones in order (the smallest list).
    sizes = []
    for n in (16, 32, 64):  # the foreign types' names of one length, so that they sort as their numbers
        references, predictions = HALF_SHARED[name](n)
        with staged(joint_grounding.STAGED_FROM) as solved:
            found = ground_predictions(predictions, Haystack.of("a " * n, False), False, references, None)
        sizes.append(max(solved[1]))
        expected = [Span(2 * i, 2 * i + 1, f"T{i + n}") for i in range(n // 2)]
        expected += [Span(2 * i, 2 * i + 1, f"T{i}") for i in range(n // 2, n)]
        assert sorted(found) == expected
    assert all(later[0] <= 4.5 * earlier[0] for earlier, later in pairwise(sizes)), sizes
    # §3's four digits of radix n + 1 and the shared characters': a few bits more for 2x n, not 4x
    assert all(later[1] <= earlier[1] + 5 for earlier, later in pairwise(sizes)), sizes


def test_the_stages_ground_as_the_rows_past_the_oracle() -> None:
    # Larger components than the oracle can walk (up to 25 tokens, 15 references of five types, three strings of
    # up to five types, up to six predictions each): the stages and §1b's rows, 120 seeded cases.
    rng = random.Random(99)
    for _ in range(120):
        text = " ".join(rng.choice(("a", "aa", "b", "ab")) for _ in range(rng.randint(5, 25)))
        references = []
        for _ in range(rng.randint(1, 15)):
            start = rng.randrange(len(text))
            references.append((start, rng.randint(start + 1, min(len(text), start + 5)), rng.choice("XYZTU")))
        predictions = []
        for needle in rng.sample(["a", "aa", "a a", "b", "ab"], rng.randint(1, 3)):
            for kind in rng.sample("XYZTUVW", rng.randint(1, 5)) if needle in text else ():
                predictions += [(kind, needle)] * rng.randint(1, 6)
        document = (text, references, predictions, rng.choice((None, 0.5, 1.0)), False)
        assert grounded_in_stages(*document, threshold=1)[0] == grounded_in_stages(*document, threshold=10**9)[0]
