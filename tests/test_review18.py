"""A hostile review of stop 46's merges (cliperf, leftovers2, stats2, tagsperf, grounding2, newcomer7, deadcode).
Each named case failed on the code before its fix."""

from __future__ import annotations

import dataclasses
import pickle
from fractions import Fraction
from typing import Any

import pytest

from nerscore import Accumulator, Options, compute_semeval
from nerscore.compute import count_batch
from nerscore.forms.inputs import TAGS
from nerscore.options import COUNTING_OPTIONS, differing

_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG"]]
_PREDICTED = [["B-PER", "O", "O", "B-LOC"], ["O", "B-LOC"]]
_TOKENS = [["Ada", "Lovelace", "in", "Paris"], ["at", "IBM"]]

# An `Options` built by hand (the dataclass, not `Options.of`) with a value spelled as Options.of would not keep it:
# leftovers2's check of the options a batch was counted with refused every batch counted with the accumulator's
# options as Options.of reads them, naming the same value twice ("counted without scheme='IOB2' (it was counted
# with scheme='IOB2')"), and `+` of an accumulator of the read options failed; a scheme by its name failed as it
# counted (AttributeError: 'str' object has no attribute 'roles'). Each case: the hand-built fields, as read (a
# Fraction of min_overlap equal to its float was already alike: a guard).
HAND_BUILT_OPTIONS = {
    "scheme-by-name": ({"scheme": "IOB2"}, {"scheme": "IOB2"}),
    "scheme-in-lower-case": ({"scheme": "iob1"}, {"scheme": "IOB1"}),
    "mode-capitalised": ({"mode": "Strict"}, {"mode": "strict"}),
    "pairing-in-upper-case": ({"pairing": "OPTIMAL"}, {"pairing": "optimal"}),
    "labels-a-list": ({"labels": ["PER", "LOC"]}, {"labels": ("PER", "LOC")}),
    "min-overlap-a-fraction": ({"min_overlap": Fraction(1, 2)}, {"min_overlap": 0.5}),
}


@pytest.mark.parametrize(("by_hand", "read"), HAND_BUILT_OPTIONS.values(), ids=HAND_BUILT_OPTIONS)
def test_hand_built_options_count_as_options_of_reads_them(by_hand: dict[str, Any], read: dict[str, Any]) -> None:
    expected = Accumulator.of(**read).update(predictions=_PREDICTED, references=_TAGS).result()
    accumulator = Accumulator(Options(**by_hand))
    assert accumulator.options == Options.of(**read)
    assert accumulator.update(predictions=_PREDICTED, references=_TAGS).result() == expected
    counted, _ = count_batch(_PREDICTED, _TAGS, TAGS, Options.of(**read), False)
    assert accumulator.add(counted, len(_TAGS)).result() == expected
    other = Accumulator.of(**read).update(predictions=_PREDICTED, references=_TAGS)
    doubled = Accumulator.of(**read).update(predictions=_PREDICTED * 2, references=_TAGS * 2).result()
    assert (accumulator.update(predictions=_PREDICTED, references=_TAGS) + other).result() == doubled


def test_options_checked_once_per_object(monkeypatch: pytest.MonkeyPatch) -> None:
    # The accumulator is built again at every batch on its options: they are read by Options.of once, so a batch
    # costs no check of `seen`'s words; options read so stay the very object given.
    options = Options.of(slices=["seen"], seen=[f"w{index}" for index in range(1_000)])
    accumulator = Accumulator(options)
    assert accumulator.options is options
    checks: list[dict[str, Any]] = []
    read = Options.of.__func__  # type: ignore[attr-defined]
    monkeypatch.setattr(Options, "of", classmethod(lambda cls, **given: checks.append(given) or read(cls, **given)))
    for _ in range(3):
        accumulator = accumulator.update(predictions=_PREDICTED, references=_TAGS, tokens=[["Ada"] * 4, ["x"] * 2])
    assert (accumulator + Accumulator(options)).options is options
    assert checks == []
    copy = pickle.loads(pickle.dumps(accumulator))  # another process's: equal options, checked once more
    assert (accumulator + copy).options is options
    for _ in range(3):
        copy = copy.update(predictions=_PREDICTED, references=_TAGS, tokens=[["Ada"] * 4, ["x"] * 2])
    assert (accumulator + copy).result() == (accumulator + accumulator).update(
        predictions=_PREDICTED * 3, references=_TAGS * 3, tokens=[["Ada"] * 4, ["x"] * 2] * 3
    ).result()
    assert len(checks) == 1


def test_hand_built_options_out_of_range_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="min_overlap"):
        Accumulator(Options(min_overlap=5))


# leftovers2 reads a sentence of two strings beside texts= as an unwrapped (type, text) pair; one that starts with
# "O" (no entity's type, docs/scoring.md §7) is a sentence of tags with a tag's slip, which was then refused as "the
# entity ['O', 'PER'] where a batch holds one list per sentence" instead of naming the tag. Each case: the sentence,
# and the tag error it gets with texts as without (a tag that reads as one, the second, was named already: a guard).
TAG_SLIPS_BESIDE_TEXTS = {
    "a-tag-without-its-prefix": (["O", "PER"], r"token 1: found tag 'PER', which has no prefix"),
    "a-tag-of-another-scheme": (["O", "PER-I"], r"token 1: found tag 'PER-I' with unknown prefix 'PER'"),
}


@pytest.mark.parametrize(("sentence", "message"), TAG_SLIPS_BESIDE_TEXTS.values(), ids=TAG_SLIPS_BESIDE_TEXTS)
def test_a_tag_slip_after_o_beside_texts_names_the_tag(sentence: list[str], message: str) -> None:
    for texts in (None, ["Ada Lovelace"]):
        with pytest.raises(ValueError, match=rf"^predictions, sentence 0, {message}"):
            compute_semeval(predictions=[sentence], references=[["O", "B-PER"]], texts=texts)
        with pytest.raises(ValueError, match=rf"^predictions, sentence 0, {message}"):
            Accumulator.of().update(predictions=[sentence], references=[["O", "B-PER"]], texts=texts)


class _CountedComparisons(frozenset):
    """A frozenset that counts its comparisons."""

    compared = 0

    def __eq__(self, other: object) -> bool:
        type(self).compared += 1
        return frozenset.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        type(self).compared += 1
        return frozenset.__ne__(self, other)

    __hash__ = frozenset.__hash__


def test_options_sharing_a_value_are_alike_without_comparing_it() -> None:
    # Every batch a --compare or --runs file adds is counted with the options the accumulator holds an evolved copy
    # of (bootstrap=0): leftovers2's comparison of what they were counted with compared `seen`'s words each time
    # (a million: 0.08 s a batch), though both hold the one frozenset.
    seen = _CountedComparisons(f"w{index}" for index in range(100))
    options = dataclasses.replace(Options.of(slices=["seen"]), seen=seen)
    assert differing(options, options.evolve(bootstrap=0), COUNTING_OPTIONS) is None
    assert _CountedComparisons.compared == 0


def test_options_of_are_not_checked_again_by_the_accumulators_built_on_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # Options made by Options.of, evolve or overall are known as checked: compute_semeval, which builds several
    # accumulators on them, checks `seen`'s words once (checked again at each: 43 -> 193 ms with 200,000 words; a
    # guard of this review's own first fix, which checked them again).
    import nerscore.options

    read = nerscore.options._checked
    seen_checks: list[int] = []
    monkeypatch.setattr(nerscore.options, "_checked", lambda given: seen_checks.append("seen" in given) or read(given))
    Accumulator.of(slices=["seen"], seen=["Ada"]).update(predictions=_PREDICTED, references=_TAGS, tokens=_TOKENS)
    compute_semeval(predictions=_PREDICTED, references=_TAGS, tokens=_TOKENS, slices=["seen"], seen=["Ada"])
    assert sum(seen_checks) == 2
