"""A sentence given as one string, where a batch holds one tag per token (`schemes.tags_in_one`): a tag holding tags
apart by white space, or a batch's row that is one string, is a located error that asks for str.split(); it was
scored as one entity of type "PER I-PER O", or as one letter a token. A type that merely holds a space is a type."""

from __future__ import annotations

import pytest

import nerscore

SPLIT = r"\(a sentence given as one string\? did you mean str\.split\(\)\?\)"

# Each case: the batch, the options, and where and what the error says.
ONE_STRING_SENTENCES = {
    "a-tag-holds-the-sentence-on-both-sides": (
        {"predictions": [["B-PER I-PER O"]], "references": [["B-PER I-PER O"]]},
        {},
        rf"^predictions, sentence 0, token 0: found tag 'B-PER I-PER O', 3 tags apart by white space; expected one "
        rf"tag per token {SPLIT}$",
    ),
    "in-a-later-sentence-and-token-apart-by-a-tab": (
        {"predictions": [["O"], ["O", "O"], ["O", "B-PER\tI-PER"]], "references": [["O"], ["O", "O"], ["O", "O"]]},
        {},
        r"^predictions, sentence 2, token 1: found tag 'B-PER\\tI-PER', 2 tags apart by white space",
    ),
    "read-sentence-by-sentence-too": (  # (the HIPE pairing: the readable path alone)
        {"predictions": [["O O B-LOC"]], "references": [["O O B-LOC"]]},
        {"pairing": "hipe"},
        rf"^predictions, sentence 0, token 0: found tag 'O O B-LOC', 3 tags apart by white space; .* {SPLIT}$",
    ),
    "tags-of-no-one-scheme-still-a-sentence": (  # split, E-PER is then refused under IOB2 in its own words
        {"predictions": [["B-PER E-PER"]], "references": [["B-PER E-PER"]]},
        {},
        r"^predictions, sentence 0, token 0: found tag 'B-PER E-PER', 2 tags apart by white space",
    ),
    "suffix-tags": (
        {"predictions": [["O"]], "references": [["PER-B PER-E"]]},
        {"suffix": True, "scheme": "IOBES"},
        r"^references, sentence 0, token 0: found tag 'PER-B PER-E', 2 tags apart",
    ),
    "one-side-misaligned-by-it": (
        {"predictions": [["B-PER I-PER O"]], "references": [["B-PER", "I-PER", "O"]]},
        {},
        rf"^sentence 0: predictions have 1 tags and references 3; expected token-aligned sequences of equal "
        rf"length; predictions, token 0: 'B-PER I-PER O' holds 3 tags apart by white space {SPLIT}$",
    ),
    "the-references-misaligned-by-it": (
        {"predictions": [["O", "O"], ["B-LOC", "O"]], "references": [["O", "O"], ["B-LOC O"]]},
        {},
        r"^sentence 1: predictions have 2 tags and references 1; .*; references, token 0: 'B-LOC O' holds 2 tags",
    ),
    "a-row-that-is-one-string": (
        {"predictions": ["B-PER I-PER O"], "references": [["B-PER", "I-PER", "O"]]},
        {},
        rf"^predictions, sentence 0: found 'B-PER I-PER O'; expected a list of tags {SPLIT}$",
    ),
    "through-label-list": (
        {"predictions": [[1]], "references": [[1]]},
        {"label_list": ["O", "B-PER I-PER"]},
        r"^references, sentence 0, token 0: id 1 is label_list's 'B-PER I-PER': found tag 'B-PER I-PER', 2 tags",
    ),
}


@pytest.mark.parametrize(("batch", "options", "message"), ONE_STRING_SENTENCES.values(), ids=ONE_STRING_SENTENCES)
def test_a_sentence_given_as_one_string_is_a_located_error(batch: dict, options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        nerscore.compute_semeval(**batch, **options)


def test_a_sentence_given_as_one_string_is_refused_when_added(metric) -> None:
    with pytest.raises(ValueError, match=r"^predictions, sentence 0, token 0: found tag 'B-PER O', 2 tags apart"):
        metric.add_batch(predictions=[["B-PER O"]], references=[["B-PER O"]])


@pytest.mark.parametrize(
    "tag",
    ["B-New York", "B-PER ", "B-cell line", "I-PER\u00a0x"],
    ids=["a-type-with-a-space", "a-trailing-space", "a-lowercase-word", "a-no-break-space"],
)
def test_a_type_that_holds_white_space_between_words_is_a_type(tag: str) -> None:
    # Only pieces that some scheme reads as tags make a sentence: "York" is none, so "New York" is the type.
    results = nerscore.compute_semeval(predictions=[[tag, "O"]], references=[[tag, "O"]], per_type=True)
    assert results["strict_f1"] == 1.0 and f"{tag[2:]}_strict_f1" in results
