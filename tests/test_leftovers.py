"""Stop 44's open items: a type whose words read as tags, `-` for --hipe/--seen/--value, the greedy pairing's
rows on identical entities, `Tally.entity_types`."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import EVERY_LETTER, SCHEME_LETTERS

from nerscore import Scheme, compute_semeval
from nerscore.schemes import BEGIN, INSIDE, read_by_no_scheme

# A tag whose type holds spaces between words that each read as a tag ("B-Vitamin B-12", type "Vitamin B-12") was
# refused as a sentence given as one string (`schemes.sentence_in_one`). Each case: the sentence (one side, both
# sides alike), the options, and the type it scores.
_XY = Scheme("XY", {"X": BEGIN, "Y": INSIDE}, r"XY*")
TYPES_OF_TAG_WORDS = {
    "a-type-whose-words-read-as-tags": (["B-Vitamin B-12", "O"], {}, "Vitamin B-12"),
    "a-sentence-of-one-token": (["B-Vitamin B-12"], {}, "Vitamin B-12"),
    "an-entity-of-two-tokens": (["B-Vitamin B-12", "I-Vitamin B-12"], {"mode": "strict"}, "Vitamin B-12"),
    "another-schemes-letters": (["S-Adenosyl L-methionine"], {"scheme": "IOBES"}, "Adenosyl L-methionine"),
    "prefix-after-the-type": (["Vitamin-B B-12-B", "Vitamin-B B-12-I"], {"suffix": True}, "Vitamin-B B-12"),
    "read-sentence-by-sentence": (["O", "B-Vitamin B-12"], {"pairing": "hipe"}, "Vitamin B-12"),
    "a-scheme-built-by-hand": (["X-Vitamin Y-12"], {"scheme": _XY}, "Vitamin Y-12"),
    "through-label-list": ([1, 0], {"label_list": ["O", "B-Vitamin B-12"]}, "Vitamin B-12"),
}


@pytest.mark.parametrize(("sentence", "options", "entity_type"), TYPES_OF_TAG_WORDS.values(), ids=TYPES_OF_TAG_WORDS)
def test_a_type_whose_words_read_as_tags_is_a_type(sentence: list, options: dict, entity_type: str) -> None:
    result = compute_semeval(predictions=[sentence], references=[sentence], per_type=True, **options)
    assert result[f"{entity_type}_strict_f1"] == 1.0 and result["strict_f1"] == 1.0


def test_a_type_whose_words_read_as_tags_is_added(metric) -> None:
    metric.add_batch(predictions=[["B-Vitamin B-12"]], references=[["B-Vitamin B-12"]])
    assert metric.compute(per_type=True)["Vitamin B-12_strict_f1"] == 1.0


# What stays refused as a sentence given as one string: each case, the tag and its options, and why (the rule).
SENTENCES_IN_ONE_TAG = {
    "an-outside-word": ("B-PER I-PER O", {}, "3 tags"),
    "the-outside-word-of-a-type-too": ("B-Type O", {}, "2 tags"),  # a sentence of two ("B-PER O") reads the same
    "a-type-twice": ("B-PER B-PER", {}, "2 tags"),
    "an-entity-that-goes-on": ("B-PER I-PER", {}, "2 tags"),
    "of-no-one-scheme": ("B-PER E-PER", {}, "2 tags"),
    "a-type-twice-prefix-after": ("PER-B PER-E", {"suffix": True, "scheme": "IOBES"}, "2 tags"),
    "no-prefix-read-whole": ("PER-B LOC-E", {}, "2 tags"),  # prefix first, "PER" is no letter: tags read after
    "no-prefix-read-whole-after": ("B-Vitamin B-12", {"suffix": True}, "2 tags"),
    "a-scheme-built-by-hand": ("X-PER Y-PER", {"scheme": _XY}, "2 tags"),
}


@pytest.mark.parametrize(("tag", "options", "several"), SENTENCES_IN_ONE_TAG.values(), ids=SENTENCES_IN_ONE_TAG)
def test_a_sentence_in_one_tag_stays_refused(tag: str, options: dict, several: str) -> None:
    message = rf"^predictions, sentence 0, token 0: found tag {re.escape(repr(tag))}, {several} apart by white space"
    with pytest.raises(ValueError, match=message):
        compute_semeval(predictions=[[tag]], references=[[tag]], **options)


# Words of a type: a stem (no hyphen, no white space, never O), alone or as a tag of any scheme's letter.
_STEMS = st.text(alphabet="abcXYZ0129", min_size=1, max_size=4)


@st.composite
def types_of_tag_words(draw: st.DrawFn, suffix: bool) -> str:
    """A type of 2-4 words, each a stem of its own, most of them read as tags: no two words of one type."""
    stems = draw(st.lists(_STEMS, min_size=2, max_size=4, unique=True))
    tagged = draw(st.lists(st.booleans(), min_size=len(stems), max_size=len(stems)))
    letters = draw(st.lists(st.sampled_from(EVERY_LETTER), min_size=len(stems), max_size=len(stems)))
    words = [
        (f"{stem}-{letter}" if suffix else f"{letter}-{stem}") if as_tag else stem
        for stem, as_tag, letter in zip(stems, tagged, letters, strict=True)
    ]
    return " ".join(words)


@st.composite
def sentences_of_spaced_types(draw: st.DrawFn) -> tuple[list[str], str, bool, list[str]]:
    """A sentence of tags of a scheme whose types hold spaces (with O between), its scheme, suffix and types."""
    scheme = draw(st.sampled_from(sorted(SCHEME_LETTERS)))
    suffix = draw(st.booleans())
    types = draw(st.lists(types_of_tag_words(suffix), min_size=1, max_size=3))
    sentence: list[str] = []
    for entity_type in types:
        letter = draw(st.sampled_from(SCHEME_LETTERS[scheme]))
        sentence += [f"{entity_type}-{letter}" if suffix else f"{letter}-{entity_type}", "O"]
    return sentence, scheme, suffix, types


@settings(max_examples=150, deadline=None)
@given(sentences_of_spaced_types())
def test_no_tag_of_a_type_whose_words_are_tags_apart_is_refused(drawn) -> None:
    sentence, scheme, suffix, types = drawn
    result = compute_semeval(predictions=[sentence], references=[sentence], scheme=scheme, suffix=suffix, per_type=True)
    assert all(f"{entity_type}_strict_f1" in result for entity_type in types), (sentence, result)
    assert all(read_by_no_scheme(tag) is None for tag in sentence)  # what add_batch asks of each tag


def test_a_type_of_a_word_that_is_no_tag_is_told_before_any_word_is_parsed(monkeypatch) -> None:
    # A word of neither O nor a hyphen ("York") is no tag: each word's parse built refusal messages (90 µs a tag,
    # 100,000 distinct tags of types holding spaces took 9 s).
    import nerscore.schemes

    def parsed(tag: str, hand_built=None) -> None:
        raise AssertionError(f"{tag!r} parsed")

    monkeypatch.setattr(nerscore.schemes, "read_by_no_scheme", parsed)
    result = compute_semeval(predictions=[["B-New York", "O"]], references=[["B-New York", "O"]], per_type=True)
    assert result["New York_strict_f1"] == 1.0
