"""A hostile review of the staged grounding (nerscore.forms.staged_grounding, docs/scoring.md §1b): its answer
against §1b's rows (`joint_grounding._best_grounding`, the stages switched off) through the public
`compute_semeval` on shapes the walks of tests/test_typesflow.py do not draw (texts that overlap each other and
nest, "ß"/"ss" and case under `normalize`, `labels`, `min_overlap`, many predictions of one text and type), and
its second stage's searches on a shape where the flow moves often: each move forgot every search, so the
searches were about (moves x references), not one a reference and 2R more as its docstring says; a move now
forgets only the searches whose tree it passes through. Work is counted (the searches and the lines run inside
them), never by a clock."""

from __future__ import annotations

import json
import random
import sys
from itertools import pairwise

import pytest
from test_typesflow import grounded_in_stages, staged

from nerscore import compute_semeval
from nerscore.forms import staged_grounding
from nerscore.forms.grounding import Haystack, ground_predictions
from nerscore.span import Span


def public_case(rng: random.Random):
    """Texts of tokens that overlap and nest ("a b", "b c", "ab"), or, with `normalize`, that fold alike ("Straße",
    "STRASSE", "ß", "ss", runs of spaces); references of 1-4 characters; 1-3 strings of 1-3 types each, 1-4 times
    (more than the text's occurrences too, or none at all); `min_overlap` and `labels` now and then."""
    options: dict = {}
    if rng.random() < 0.3:
        words, pieces = ("Straße", "STRASSE", "strasse", "a  b", "A B", "b c"), ("Straße", "strasse", "a b", "A", "ß")
        options["normalize"] = True
    else:
        words, pieces = ("a", "b", "c", "a b", "b c", "ab"), ("a", "b", "c", "a b", "b c", "ab", "abc")
    text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
    references = []
    for _ in range(rng.randint(0, 6)):
        start = rng.randrange(len(text))
        references.append([start, rng.randint(start + 1, min(len(text), start + 4)), rng.choice("XY")])
    predictions = []
    for needle in rng.sample(pieces, rng.randint(1, 3)):
        for kind in rng.sample("XYT", rng.randint(1, 3)):
            predictions += [[kind, needle]] * rng.randint(1, 4)
    if rng.random() < 0.5:
        options["min_overlap"] = rng.choice((0.5, 1.0))
    if rng.random() < 0.2:
        options["labels"] = ["X", "T"]
    return text, references, predictions, options


def scored(document, threshold: int) -> tuple[str, int]:
    text, references, predictions, options = document
    with staged(threshold) as solved:
        result = compute_semeval(
            predictions=[predictions], references=[references], texts=[text], return_entities=True, **options
        )
    return json.dumps(result, sort_keys=True, default=str), solved[0]


@pytest.mark.slow  # (1-2 s: the quick profile stays under 3 minutes; the full suite runs it)
def test_the_stages_score_as_the_rows_through_the_public_function() -> None:
    # A seeded walk of 400 documents, each scored with every component in stages and with §1b's rows: the same
    # result, entities and all (the review's larger walks, 1,500 + 7,000 cases, found no difference either).
    rng = random.Random(19)
    decided = 0
    for _ in range(400):
        document = public_case(rng)
        found, solved = scored(document, 1)
        assert found == scored(document, 10**9)[0], document
        decided += solved
    assert decided >= 40


def wide_windows(n: int):
    """n occurrences of "a"; reference i from occurrence i over the next n / 2 (types X, Y, Z in turn); five types
    of n predictions in all, three of them the references': the flow moves about n / 2 times in the second stage,
    and each occurrence overlaps up to n / 4 references."""
    text = " ".join(["a"] * n)
    references = [Span(2 * i, min(2 * n - 1, 2 * i + n), "XYZ"[i % 3]) for i in range(n)]
    predictions = [("XYZTU"[i % 5], "a") for i in range(n)]
    return text, references, predictions


def searches(n: int) -> tuple[int, int, int]:
    """The second stage's searches on `wide_windows(n)` (calls of its `reach` that searched, not the kept ones),
    the lines run inside them, and the predictions grounded."""
    text, references, predictions = wide_windows(n)
    calls: list[int] = []

    def tracer(frame, event, argument):
        if frame.f_code.co_name != "reach" or frame.f_code.co_filename != staged_grounding.__file__:
            return None
        calls.append(0)

        def lines(frame, event, argument):
            calls[-1] += event == "line"
            return lines

        return lines

    with staged(1) as solved:
        previous = sys.gettrace()
        sys.settrace(tracer)
        try:
            found = ground_predictions(predictions, Haystack.of(text, False), False, references, None)
        finally:
            sys.settrace(previous)
    assert solved[0] == 1
    searched = [number for number in calls if number > 2]  # a kept search runs two lines: the test and the return
    return len(searched), sum(searched), len(found)


def test_the_searches_are_one_a_reference_and_two_a_grounded_prediction_more() -> None:
    # The docstring's bound: one search a start (a reference or "unpaired") and at most 2R more. At n = 64: 380
    # searches against 64 + 1 + 128 while each move of the flow forgot every search; 83 once a move forgets only
    # the searches whose tree it passes through.
    n = 64
    number, _, grounded = searches(n)
    assert number <= n + 1 + 2 * grounded, (number, grounded)


def test_the_searches_grow_as_the_references_and_predictions() -> None:
    # Doubling n doubles the references and the predictions (the arcs grow 4x). Forgetting every search at each
    # move: 28 -> 101 -> 380 searches (3.6x, 3.8x), the lines run in them 16K -> 174K -> 1.9M (10.8x, 11.1x: past
    # n^3); by the clock, one run each on a loaded machine, 0.34 s at n = 128, 4.8 s at n = 256 (14x), past §1b's
    # rows' 0.60 s and 5.5 s (9x). Forgetting only the trees a move passes through: 16 -> 38 -> 83 searches
    # (2.4x, 2.2x), lines 13K -> 126K -> 1.1M (9.6x, 8.7x: n searches over the n^2 arcs, the bound the docstring
    # names).
    counts = [searches(n) for n in (16, 32, 64)]
    assert all(later[0] <= 2.5 * earlier[0] for earlier, later in pairwise(counts)), counts
    assert all(later[1] <= 10 * earlier[1] for earlier, later in pairwise(counts)), counts


def moving_case(rng: random.Random):
    """Components where the second stage's flow moves often and keeps searches across moves: 6-30 tokens of "a",
    "b", "ab", as many references of windows up to the text's length, 2-6 types (some the references'), more
    predictions than references."""
    n, width = rng.randint(6, 30), rng.randint(1, 30)
    text = " ".join(rng.choice(("a", "a", "b", "ab")) for _ in range(n))
    references = []
    for _ in range(rng.randint(n // 2, n)):
        start = rng.randrange(len(text))
        references.append((start, min(len(text), start + rng.randint(1, width)), rng.choice("XYZ")))
    kinds = rng.sample("XYZTUV", rng.randint(2, 6))
    predictions = [(rng.choice(kinds), rng.choice(("a", "a", "b", "ab"))) for _ in range(rng.randint(n // 2, 2 * n))]
    return text, references, [p for p in predictions if p[1] in text], rng.choice((None, 0.5)), False


def test_the_stages_keep_searches_across_moves_as_the_rows_ground() -> None:
    # A seeded walk of 100 such components in stages and by §1b's rows: the same grounding (with every search
    # kept across moves, the walk fails; the review's walk of 700 found no difference with the trees a move
    # misses kept).
    rng = random.Random(7)
    for _ in range(100):
        document = moving_case(rng)
        assert grounded_in_stages(*document, threshold=1)[0] == grounded_in_stages(*document, threshold=10**9)[0]
