"""Sums done once rather than step by step: agreement's pooled tally (docs/scoring.md §13) against the pairs' tallies
added one to the next as they were, and the value score's sums (§10) against the per-type Fraction sums they
replaced, kept here as the oracles."""

from __future__ import annotations

import importlib
from itertools import combinations
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st
from test_agreement import span_annotations, tag_annotations
from test_redteam7 import POOLED_OF_BOTH_DIRECTIONS

from nerscore import agreement
from nerscore.option_checks import HIPE
from nerscore.result_scores import scores
from nerscore.tally import Tally

agreement_module = importlib.import_module("nerscore.agreement")  # (the package's name is the function)

# -- agreement's pooled tally -------------------------------------------------------------------------------------

_REVERSED_SCENARIO = {"II": "III", "III": "II"}


def reversed_tally(tally):
    """The oracle's mirror image of a pair's tally: each cell's sides traded, II and III trading places."""
    cells = {
        (_REVERSED_SCENARIO.get(scenario, scenario), predicted, reference): count
        for (scenario, reference, predicted), count in tally.cells.items()
    }
    credit = None if tally.credit is None else {(p, r): value for (r, p), value in tally.credit.items()}
    return Tally(cells, credit=credit)


def naive_pooled_scores(annotators, accumulators, options, given, mirrored):
    """agreement's pooled scores as they were: the tallies added one to the next (the total copied each time)."""
    counting = options.overall()
    total = Tally()
    for (first, second), accumulator in zip(combinations(annotators, 2), accumulators):
        tally = accumulator.tally or Tally()
        if mirrored and options.min_overlap is None and options.value is None and options.pairing != HIPE:
            backwards = reversed_tally(tally)
        else:
            backwards = agreement_module._pair(second, first, counting, given, False)[0].tally or Tally()
        total = total + Tally(dict(tally.cells), credit=tally.credit) + backwards
    return scores(total, counting.evolve(value=None)), total


def assert_pooled_as_naive(annotations, **options):
    """agreement's pooled scores are, key for key and to the bit, those of the tallies added one by one, and its
    pooled cells and credit theirs."""
    calls = []
    pooled = agreement_module._pooled_scores

    def recorded(*arguments, **keywords):
        calls.append((arguments, keywords, pooled(*arguments, **keywords)))
        return calls[-1][2]

    with mock.patch.object(agreement_module, "_pooled_scores", recorded):
        agreement(annotations, **options)
    ((arguments, keywords, found),) = calls
    expected, total = naive_pooled_scores(*arguments, **keywords)
    # (the old total kept the tokens and ungrounded entities of a direction counted for itself, not of the other:
    # keys agreement never read; the pooled tally sums cells and credit alone)
    expected = {key: value for key, value in expected.items() if key not in ("token_accuracy", "ungrounded")}
    assert found == expected
    assert {key: str(value) for key, value in found.items()} == {key: str(value) for key, value in expected.items()}
    directions = _directions(*arguments, **keywords)
    summed = agreement_module.pooled_tally(directions)
    assert dict(summed.cells.items()) == dict(total.cells.items())
    assert summed.credit == total.credit


def _directions(annotators, accumulators, options, given, mirrored):
    """What `_pooled_scores` hands `pooled_tally`, as the oracle counts it."""
    counting = options.overall()
    directions = []
    for (first, second), accumulator in zip(combinations(annotators, 2), accumulators):
        tally = accumulator.tally or Tally()
        symmetric = mirrored and options.min_overlap is None and options.value is None and options.pairing != HIPE
        other = None if symmetric else agreement_module._pair(second, first, counting, given, False)[0].tally
        directions += [(tally, False), (tally, True) if symmetric else (other or Tally(), False)]
    return directions


POOLED_OPTIONS = st.sampled_from(
    [
        {},
        {"per_type": True},
        {"partial_credit": "overlap", "per_type": True},
        {"min_overlap": 0.5},
        {"pairing": "hipe"},
        {"value": True, "per_type": True},
        {"labels": ["LOC", "PER"], "per_type": True},
    ]
)


@given(span_annotations(), POOLED_OPTIONS)
@settings(max_examples=60, deadline=None)
def test_pooled_spans_are_the_pairs_added_one_by_one(annotations, options):
    assert_pooled_as_naive(annotations, **options)


@given(tag_annotations(), POOLED_OPTIONS)
@settings(max_examples=60, deadline=None)
def test_pooled_tags_are_the_pairs_added_one_by_one(annotations, options):
    assert_pooled_as_naive(annotations, **options)


def test_pooled_strings_are_the_pairs_added_one_by_one():
    for case in POOLED_OF_BOTH_DIRECTIONS:
        annotations, options = case.values
        assert_pooled_as_naive(annotations, **options)


def test_pooled_tally_of_mappings_and_tables_alike():
    """A tally's cells as a dict and as the same cells' columns pool alike, the traded side's II and III swapped."""
    mapping = Tally({("I", "PER", "PER"): 2, ("II", None, "LOC"): 1, ("VI", "PER", "LOC"): 3})
    found = agreement_module.pooled_tally([(mapping, False), (mapping, True), (Tally(), False)])
    expected = {
        ("I", "PER", "PER"): 4,
        ("II", None, "LOC"): 1,
        ("III", "LOC", None): 1,
        ("VI", "PER", "LOC"): 3,
        ("VI", "LOC", "PER"): 3,
    }
    assert dict(found.cells.items()) == expected
    assert found.credit is None
    assert dict(agreement_module.pooled_tally([(Tally(), False)]).cells.items()) == {}
