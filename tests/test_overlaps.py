"""nerscore.pairing.overlaps: a sentence's overlap graph (docs/scoring.md §3) found by the sweep equals the pairs
of every reference and prediction tried, counted without listing, and refused before it is listed where it
would not fit in memory (issue 31, item 7)."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from nerscore import errors
from nerscore.errors import InvalidInputError
from nerscore.pairing import overlaps
from nerscore.span import Span


def random_side(rng: random.Random, fragments: bool = False) -> list[Span]:
    spans = []
    for _ in range(rng.randint(0, 9)):
        start = rng.randint(0, 14)
        end = start + rng.randint(1, 6)
        if fragments and end - start >= 3 and rng.random() < 0.5:
            cut = rng.randint(start + 1, end - 2)
            spans.append(Span(start, end, rng.choice("AB"), ((start, cut), (cut + 1, end))))
        else:
            spans.append(Span(start, end, rng.choice("AB")))
    return spans


@pytest.mark.parametrize("min_overlap", [None, 0.1, 0.5, 1.0])
@pytest.mark.parametrize("fragments", [False, True], ids=["contiguous", "discontinuous"])
def test_the_sweep_finds_every_overlapping_pair_and_no_other(min_overlap, fragments: bool) -> None:
    rng = random.Random(f"{min_overlap} {fragments}")
    for _ in range(150):
        references, predictions = random_side(rng, fragments), random_side(rng, fragments)
        expected = sorted(
            (i, j)
            for i, r in enumerate(references)
            for j, p in enumerate(predictions)
            if r.overlap(p) and (min_overlap is None or r.overlap(p) / r.units >= min_overlap)
        )
        assert sorted(overlaps.overlap_edges(references, predictions, min_overlap)) == expected
        if not fragments and min_overlap is None:
            assert overlaps.overlap_count(references, predictions) == len(expected)


def test_a_share_is_the_float_quotient_as_nervaluate_computes_it() -> None:
    # 1 of 10 tokens is exactly 1/10, just above the float 0.1's value: admitted, as nervaluate admits it.
    assert overlaps.overlap_kept(1, 10, 0.1)
    assert not overlaps.overlap_kept(2, 10, 0.3)
    assert overlaps.overlap_kept(3, 10, 0.3)


def test_pairs_that_would_not_fit_are_refused_before_they_are_listed(monkeypatch) -> None:
    monkeypatch.setattr(errors, "free_memory", lambda: 10**9)
    overlaps.check_pairs_fit(10**6, 1_000, 1_000, 160)  # 160 MB of 1 GB
    with pytest.raises(InvalidInputError, match=r"1,000 references and 2,000 predictions overlap in 10,000,000 pairs"):
        overlaps.check_pairs_fit(10**7, 1_000, 2_000, 160)  # 1.6 GB
    monkeypatch.setattr(errors, "free_memory", lambda: None)  # a machine that does not say
    overlaps.check_pairs_fit(10**12, 10**6, 10**6, 160)


@pytest.mark.parametrize(
    ("needed", "free", "floor", "unit", "refused"),
    [
        pytest.param(2 * 10**9, 10**9, 0, "GB", "it needs about 2.0 GB to pair, more than the 1.0 GB", id="GB"),
        pytest.param(3_000_000, 10**6, 0, "MB", "it needs about 3 MB to pair, more than the 1 MB", id="MB"),
        pytest.param(
            1_234_000_000, 10**9, 0, "MB", "about 1,234 MB to pair, more than the 1,000 MB", id="MB, thousands"
        ),
        pytest.param(10**9, 10**9, 0, "GB", None, id="exactly what is free"),
        pytest.param(10**7, 10**6, 1 << 26, "GB", None, id="below the floor"),
        pytest.param(1 << 26, 10**6, 1 << 26, "GB", "about 0.1 GB", id="at the floor"),
        pytest.param(10**12, None, 0, "GB", None, id="a machine that does not say"),
    ],
)
def test_the_one_refusal_past_the_free_memory(monkeypatch, needed, free, floor, unit, refused) -> None:
    # `refuse_past_free_memory` is every refusal's (the overlaps', the string grounding's, the resamples'): its
    # message, unit, floor and comparison; the system is not asked below the floor.
    asked = []
    monkeypatch.setattr(errors, "free_memory", lambda: asked.append(1) or free)
    call = lambda: errors.refuse_past_free_memory(needed, "it needs", "less", " to pair", floor, unit)  # noqa: E731
    if refused is None:
        call()
        assert asked == ([] if needed < floor else [1])
        return
    with pytest.raises(InvalidInputError, match=re.escape(refused) + ".* free for this process; expected less$"):
        call()


def test_sides_are_disjoint_where_no_two_entities_share_a_position() -> None:
    assert overlaps.spans_disjoint([Span(0, 2, "A"), Span(2, 4, "A")])
    assert not overlaps.spans_disjoint([Span(0, 2, "A"), Span(0, 2, "A")])  # copies share all their positions
    assert not overlaps.spans_disjoint([Span(3, 6, "A"), Span(0, 4, "B")])


def test_a_side_folds_into_its_distinct_entities_in_rule_d_order_with_its_copies_as_given() -> None:
    # §3's pairing and the value's fold each side so (`rules._pair_nested`, `value.value_pair`): a thousand copies
    # one entity, each pair then taking the copies as given, in their order.
    rng = random.Random("distinct entities")
    for _ in range(100):
        side = random_side(rng, fragments=True)
        side += [Span(span.start, span.end, span.entity_type, span.fragments) for span in side if rng.random() < 0.5]
        rng.shuffle(side)
        distinct, copies = overlaps.distinct_entities(side)
        assert distinct == sorted(set(side), key=overlaps.span_key)
        assert [[id(copy) for copy in group] for group in copies] == [
            [id(span) for span in side if span == entity] for entity in distinct
        ]


@pytest.mark.parametrize("min_overlap", [None, 0.1, 0.5, 1.0])
def test_the_pairs_found_on_arrays_are_the_sweeps(min_overlap) -> None:
    # `kept_pairs`, the value pairing's overlaps on arrays (`value._components_of`, `value_arrays._listed`): each side
    # sorted by start, the pairs that share a position and, with min_overlap, enough of the reference.
    rng = random.Random(f"arrays {min_overlap}")
    for _ in range(150):
        references, predictions = (sorted(random_side(rng)) for _ in range(2))
        columns = [
            np.array([getattr(span, end) for span in side], np.int64)
            for side in (references, predictions)
            for end in ("start", "end")
        ]
        i, j = overlaps.kept_pairs(*columns, min_overlap)
        found = sorted(zip(i.tolist(), j.tolist()))
        assert found == sorted(overlaps.overlap_edges(references, predictions, min_overlap))
