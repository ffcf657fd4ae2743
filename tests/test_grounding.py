"""nerscore.forms.grounding: one text's strings grounded to their occurrences (docs/scoring.md §1b): the best of
every grounding and pairing (the exhaustive oracle, tests/grounding_oracle.py), named cases, normalised matches
mapped back to the text, normalising in one pass, and few occurrences looked at where a string occurs 10,000
times. String input through the metric: test_strings.py."""

from __future__ import annotations

import grounding_oracle as oracle
import numpy as np
import pytest
from conftest import grounded_result
from grounding_counts import tracked
from hypothesis import HealthCheck, example, given, settings
from test_strings import documents

import nerscore
from nerscore import compute_semeval
from nerscore.forms.grounding import Haystack, ground_predictions, needle_of
from nerscore.span import Span


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(documents())
# A text and type with fewer predictions than twins, its text predicted with another type too: which twin it
# takes decides the tie (§1b), so _take_identical leaves it to the flow.
@example(document=("aa", [("Y", "a"), ("Y", "a")], [("X", "a"), ("Y", "a")]))
def test_the_grounding_is_the_best_of_every_grounding_and_pairing(document) -> None:
    text, references, predictions = document
    _, best, counts, ungrounded = oracle.best_grounding(text, references, predictions)
    result, mentions, scenarios = grounded_result(text, [list(r) for r in references], [list(p) for p in predictions])
    assert mentions == [tuple(mention) for mention in best]
    assert scenarios == counts
    assert result["ungrounded"] == ungrounded


CASES = [
    # (text, references, predictions, the grounded predictions, scenario counts that are not 0)
    ("Paris and Paris", [("LOC", "Paris")], [("LOC", "Paris")], [(0, 5, "LOC")], {"I": 1}),
    # The second reference Paris takes the second occurrence; the prediction pairs with the first (earliest).
    ("Paris and Paris", [("LOC", "Paris"), ("LOC", "Paris")], [("LOC", "Paris")], [(0, 5, "LOC")], {"I": 1, "III": 1}),
    # eval4ner's list order: [York, New York] against New York. Order never matters here.
    (
        "New York",
        [("LOC", "New York")],
        [("LOC", "York"), ("LOC", "New York")],
        [(0, 8, "LOC"), (4, 8, "LOC")],
        {"I": 1, "II": 1},
    ),
    # Repeated k = 3 times, occurs j = 2 times: grounded min(k, j) = 2 times, one ungrounded.
    ("a b a", [("X", "a")], [("X", "a"), ("X", "a"), ("X", "a")], [(0, 1, "X"), (4, 5, "X")], {"I": 1, "II": 2}),
    # A correct string is never counted wrong because it also occurs elsewhere: the second York pairs.
    ("York, not New York", [("LOC", "New York")], [("LOC", "New York")], [(10, 18, "LOC")], {"I": 1}),
    # "Paris" grounds at the second occurrence so that "Paris and" pairs too (rule (a) after rule 1).
    (
        "Paris and Paris",
        [("LOC", "Paris"), ("LOC", "Paris")],
        [("LOC", "Paris"), ("LOC", "Paris and")],
        [(0, 9, "LOC"), (10, 15, "LOC")],
        {"I": 1, "V": 1},
    ),
    # One occurrence, predicted with two types: both take it (two claims about one mention, §1b as amended by
    # issue 31); the one of the reference's type pairs, the other is spurious.
    (
        "Paris",
        [("LOC", "Paris")],
        [("PER", "Paris"), ("LOC", "Paris")],
        [(0, 5, "LOC"), (0, 5, "PER")],
        {"I": 1, "II": 1},
    ),
    # Occurrences overlap ("aa" in "aaa" at 0 and 1).
    ("aaa", [("X", "aa")], [("X", "aa"), ("X", "aa")], [(0, 2, "X"), (1, 3, "X")], {"I": 1, "II": 1}),
    # No reference: each type takes the earliest occurrence (types may share one, §1b as amended by issue 31).
    ("b a a", [], [("Y", "a"), ("X", "a")], [(2, 3, "X"), (2, 3, "Y")], {"II": 2}),
    # An empty document holds no entity: its predictions are ungrounded.
    ("", [], [("X", "a")], [], {"II": 1}),
]


@pytest.mark.parametrize(
    ("text", "references", "predictions", "grounded", "counts"),
    CASES,
    ids=[
        "first-occurrence",
        "references-in-order",
        "list-order",
        "min-k-j",
        "correct-elsewhere",
        "joint-with-pairing",
        "two-types-one-occurrence",
        "overlapping-occurrences",
        "no-reference",
        "empty-document",
    ],
)
def test_named_groundings(text, references, predictions, grounded, counts) -> None:
    result, mentions, scenarios = grounded_result(text, references, predictions)
    assert mentions == grounded
    assert {name: n for name, n in scenarios.items() if n} == counts
    assert result["ungrounded"] == len(predictions) - len(grounded)
    # the oracle agrees
    _, best, oracle_counts, _ = oracle.best_grounding(text, references, predictions)
    assert [tuple(m) for m in best] == grounded
    assert {name: n for name, n in oracle_counts.items() if n} == counts


@pytest.mark.parametrize(
    ("text", "string", "span"),
    [
        ("I love New  York", "new york", (7, 16)),  # a run of white space is one space, mapped back whole
        ("Straße", "strasse", (0, 6)),  # ß folds to ss: one character into two
        ("Strasse", "STRASSE", (0, 7)),
        ("der ﬁsch", "fisch", (4, 8)),  # ﬁ (one character) folds into fi
        ("der ﬁsch", "isch", (4, 8)),  # a match that starts inside ﬁ's folding maps back to ﬁ itself
        ("ＡＢＣ corp", "abc", (0, 3)),  # NFKC: full-width letters
        ("x\u00a0\u00a0y", " x y ", (0, 4)),  # no-break spaces collapse; the string is stripped
    ],
    ids=["white-space", "sharp-s", "upper-case", "ligature", "inside-ligature", "full-width", "stripped"],
)
def test_normalised_matches_map_back_to_the_original_text(text, string, span) -> None:
    _, mentions, _ = grounded_result(text, [], [("X", string)], normalize=True)
    assert mentions == [(*span, "X")]
    assert compute_semeval(predictions=[[("X", string)]], references=[[]], texts=[text])["ungrounded"] == 1


def test_normalising_is_one_pass_over_the_text() -> None:
    text = "Aß ﬁ  b" * 1000
    haystack = Haystack.of(text, True)
    assert haystack.first is not None and haystack.last is not None
    assert len(haystack.text) == len(haystack.first) <= 2 * len(text)
    assert haystack.text.startswith("ass fi b")
    assert needle_of("  Fi  ", True) == "fi"


def test_a_string_occurring_10000_times_looks_at_few_occurrences() -> None:
    text = "a " * 10_000
    with tracked() as tracker:
        spans = ground_predictions([("X", "a")], Haystack.of(text, False), False, [Span(0, 1, "X")], None)
    assert spans == [Span(0, 1, "X")]
    assert tracker.occurrences <= 3  # the one on the reference and the first free one, not 10,000


# Documents of span references and one predicted text: the occurrences `occurrences_looked_at` counts (what the Space's
# cost check caps) are those the grounding looks at (tests/grounding_counts.py counts them), however the references lie.
LOOKED_AT = {
    "references at the start": ("a " * 1_000, [[0, 9, "X"]], [["X", "a"], ["Y", "a"]]),
    "two predictions of a type after the references": ("a " * 1_000, [[0, 9, "X"]], [["X", "a"]] * 2),
    "references at both ends": ("a " * 1_000, [[0, 3, "X"], [1_990, 1_999, "Y"]], [["X", "a"]] * 3),
    "a periodic text under one reference": ("ab" * 500, [[10, 400, "X"]], [["X", "aba"]] * 2),
    "no reference": ("a " * 100, [], [["X", "a"], ["X", "a"]]),
    "a text that does not occur": ("a " * 100, [[0, 1, "X"]], [["X", "b"]]),
}


@pytest.mark.parametrize("document", list(LOOKED_AT.values()), ids=list(LOOKED_AT))
def test_the_occurrences_counted_are_those_the_grounding_looks_at(document):
    text, references, predictions = document
    needle = predictions[0][1]
    work, characters = nerscore.occurrences_looked_at(text, references, predictions, 10**9, 10**9)
    with tracked() as tracker:
        nerscore.Accumulator().ground(predictions=[predictions], references=[references], texts=[text])
    if text.count(needle) > len(predictions):  # with more occurrences than predictions, a choice to make
        assert characters == tracker.occurrences * len(needle)
    assert work >= characters // len(needle)


def test_the_count_stops_at_its_caps():
    text, references, predictions = "a" * 200_000, [[0, 200_000, "X"]], [["X", "a" * 1_000]]
    assert nerscore.occurrences_looked_at(text, references, predictions, 100, 10**9)[0] <= 102
    assert nerscore.occurrences_looked_at(text, references, predictions, 10**9, 5_000)[1] <= 6_000


# What the cost of grounding one document is, as (work, characters): each occurrence looked at once, and once more
# for each reference it overlaps, for each type its text is predicted with; the characters searched to find them.
WORK = {
    # the five occurrences under the reference (two each), then one free past it: enough, the walk stops
    "one prediction under a span reference": ("a " * 1_000, [[0, 9, "X"]], [["X", "a"]], (11, 6)),
    "two types of one text weigh the occurrences twice": (
        "a " * 1_000,
        [[0, 9, "X"]],
        [["X", "a"], ["Y", "a"]],
        (22, 6),
    ),
    # string references take the earliest occurrences in listing order; one that does not occur is left out
    "string references": ("a b a b a c", [["X", "a"], ["X", "a"], ["X", "d"], ["X", "b"]], [["X", "a"]], (5, 3)),
    "nothing to choose": ("Ada met Bob", [["P", "Ada"]], [["P", "Ada"]], (0, 3)),
    # a span with a text key is a span, as grounding reads it (the Space's copy read it as the string "zzz")
    "a span reference with a text key": (
        "zzz a a a",
        [{"start": 4, "end": 9, "type": "X", "text": "zzz"}],
        [["X", "a"]],
        (6, 3),
    ),
    "refused predictions are left out": ("a a a", [[0, 1, "X"]], [["X", "a"], {"type": "X"}, ["X", ""]], (3, 2)),
}


@pytest.mark.parametrize("document", list(WORK.values()), ids=list(WORK))
def test_the_cost_of_grounding_a_document(document):
    text, references, predictions, cost = document
    assert nerscore.occurrences_looked_at(text, references, predictions, 10**9, 10**9) == cost


# The public estimate's arguments, each refused as what it is (it read None's `find` or `len`: AttributeError,
# TypeError).
ESTIMATE_REFUSALS = [
    pytest.param((None, [], [], 10, 10), r"^text is None; expected the document's text", id="text-none"),
    pytest.param(("a", None, [], 10, 10), r"^references is None; expected a list", id="references-none"),
    pytest.param(("a", [], "a", 10, 10), r"^predictions is 'a'; expected a list", id="predictions-string"),
    pytest.param(("a", [], [], -1, 10), r"^most_work is -1; expected a whole number", id="work-negative"),
    pytest.param(("a", [], [], 10, 1.5), r"^most_characters is 1.5; expected a whole number", id="characters-float"),
    pytest.param(("a", [], [], True, 10), r"^most_work is True; expected a whole number", id="work-bool"),
]


@pytest.mark.parametrize(("arguments", "message"), ESTIMATE_REFUSALS)
def test_the_estimates_arguments_are_refused_as_what_they_are(arguments: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        nerscore.occurrences_looked_at(*arguments)


def test_the_estimate_reads_references_given_as_a_generator_as_a_list() -> None:
    # Span references are read twice (as strings first): a generator was empty the second time, nothing covered.
    text, predictions = "a b a b a", [("X", "a")]
    references = [{"start": 2, "end": 3, "type": "X"}, {"start": 4, "end": 5, "type": "X"}]
    expected = nerscore.occurrences_looked_at(text, references, predictions, 10**9, 10**9)
    assert nerscore.occurrences_looked_at(text, iter(references), predictions, 10**9, 10**9) == expected
    assert nerscore.occurrences_looked_at(text, references, predictions, np.int64(10**9), 10**9) == expected
