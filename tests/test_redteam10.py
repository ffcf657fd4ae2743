"""A tenth hostile sweep, of what merged on its day: each case failed on the code before its fix."""

from __future__ import annotations

import math
import re
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nerscore import Accumulator, Options, Scheme, compute_semeval, occurrences_looked_at, summarize_runs
from nerscore.forms.grounding import Haystack, needle_of
from nerscore.option_checks import Weights
from nerscore.schemes import BEGIN, END, INSIDE

# occurrences_looked_at takes numpy integers as caps (692b224): at their largest, the count of what may still be
# looked at wrapped past 2**64 (uint64: to 0, so nothing was looked at, (0, 0) for (1, 1)) or 2**63 (int64: a
# RuntimeWarning of overflow).
NUMPY_CAPS = [
    pytest.param(np.uint64(2**64 - 1), "a a a", [], [("X", "a")], id="uint64-largest"),
    pytest.param(np.int64(2**63 - 1), "a a a a b a", [(0, 1, "X")], [("X", "a")] * 2, id="int64-largest"),
]


@pytest.mark.parametrize(("cap", "text", "references", "predictions"), NUMPY_CAPS)
def test_numpy_caps_at_their_largest_count_as_python_integers(cap: Any, text: str, references: list, predictions: list):
    expected = occurrences_looked_at(text, references, predictions, int(cap), int(cap))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert occurrences_looked_at(text, references, predictions, cap, cap) == expected


# Accumulator.result(options) leaving out the value counted (a key left out): with slices and bootstrap, the
# statistics read the value's columns as the first buckets' (precision's interval 0.0 to 1.0 around its 1.0).
_NO_PREDICTION = ([["O"], ["B-PER", "I-PER"]], [["B-PER"], ["B-PER", "O"]])
VALUE_LEFT_OUT = [
    pytest.param({"slices": ["entity_length"], "zero_division": 1.0}, id="entity-length"),
    pytest.param({"slices": ["sentence_length", "entity_density"]}, id="two-slices"),
    pytest.param({"slices": ["entity_length"], "partial_credit": 0.5, "per_type": True}, id="with-a-credit"),
    pytest.param({"partial_credit": "overlap"}, id="overlap-credit-kept-without-slices"),  # (a guard: its floats kept)
]


@pytest.mark.parametrize("options", VALUE_LEFT_OUT)
def test_a_result_leaving_the_value_out_has_compute_semevals_slice_intervals(options: dict) -> None:
    predictions, references = _NO_PREDICTION
    counted = Accumulator.of(value=True, bootstrap=20, **options)
    counted = counted.update(predictions=predictions[:1], references=references[:1])
    counted = counted.update(predictions=predictions[1:], references=references[1:])
    expected = compute_semeval(predictions=predictions, references=references, bootstrap=20, **options)
    assert counted.result(Options.of(bootstrap=20, **options)) == expected


# Sentences all empty beside texts give no token_accuracy (4e180b7) in compute_semeval and the accumulator:
# summarize_runs scored each run's tally itself and gave token_accuracy_mean, _std, _min and _max of 0.0.
EMPTY_RUNS_BESIDE_TEXTS = [
    pytest.param([[], []], ["Ada", "Bob"], id="texts-without-entities"),
    pytest.param([[]], [""], id="one-empty-text"),
]


@pytest.mark.parametrize(("sentences", "texts"), EMPTY_RUNS_BESIDE_TEXTS)
def test_runs_of_empty_sentences_beside_texts_summarise_compute_semevals_keys(sentences: list, texts: list) -> None:
    one = compute_semeval(predictions=sentences, references=sentences, texts=texts)
    summary = summarize_runs(runs=[sentences, sentences], references=sentences, texts=texts)
    assert {key.removesuffix("_mean") for key in summary if key.endswith("_mean")} == set(one)


# value= given a Weights built by hand (dataclasses.replace of an Options' value) was taken unchecked: an
# OverflowError, an unlocated "not enough values to unpack", scores past -1 from a type_error of -3.
HAND_BUILT_WEIGHTS = [
    pytest.param(Weights(false_alarm=math.inf), "value['false_alarm'] must be a finite number", id="infinite"),
    pytest.param(Weights(type_error=-3), "value['type_error'] must be a finite number from 0 to 1", id="negative"),
    pytest.param(Weights(types=(("PER", math.nan),)), "value['types']['PER'] must be a finite", id="nan-type"),
    pytest.param(Weights(types="xy"), "value['types'] must be a dict", id="types-a-string"),  # type: ignore[arg-type]
    pytest.param(Weights(min_overlap=7), "value['min_overlap']: min_overlap must be", id="min-overlap-past-1"),
]


@pytest.mark.parametrize(("weights", "message"), HAND_BUILT_WEIGHTS)
def test_value_weights_built_by_hand_are_checked_as_a_dict_of_them(weights: Weights, message: str) -> None:
    spans, references = [[(0, 2, "PER"), (3, 4, "LOC")]], [[(0, 1, "PER"), (3, 4, "ORG")]]
    with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
        compute_semeval(predictions=spans, references=references, value=weights)


def test_value_weights_read_back_from_options_are_the_same_options() -> None:  # (a guard of the check above)
    options = Options.of(value={"types": {"PER": 2.0}, "false_alarm": 0.5})
    assert Options.of(value=options.value) == options


# A Scheme built by hand (nerscore.Scheme) was taken unchecked: re.error, KeyError, AttributeError.
_PARTS = {"B": BEGIN, "I": INSIDE}
HAND_BUILT_SCHEMES = [
    pytest.param(Scheme("Z", _PARTS, "("), "its patterns are ('(', None)", id="pattern-not-compiling"),
    pytest.param(Scheme("Z", {"B": "first", "I": INSIDE}, "BI*"), "its roles are {'B': 'first'", id="unknown-role"),
    pytest.param(Scheme("Z", 5, "BI*"), "its roles are 5", id="roles-not-a-dict"),  # type: ignore[arg-type]
    pytest.param(Scheme("Z", _PARTS, "BI*", touching_side="aside"), "its touching_side is 'aside'", id="side"),
    pytest.param(Scheme(["Z"], _PARTS, "BI*"), "its name is ['Z']", id="name-a-list"),  # type: ignore[arg-type]
    pytest.param(Scheme("Z", {"B": BEGIN}, "B"), "its roles are {'B': 'begin'}", id="no-inside-letter"),
]


@pytest.mark.parametrize(("scheme", "message"), HAND_BUILT_SCHEMES)
@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_schemes_built_by_hand_are_checked(scheme: Scheme, message: str, mode: str) -> None:
    with pytest.raises(ValueError, match=r"^scheme .* built by hand: " + re.escape(message)):
        compute_semeval(predictions=[["B-PER", "I-PER"]], references=[["B-PER", "O"]], scheme=scheme, mode=mode)


def test_a_scheme_built_by_hand_is_decoded_by_its_own_letters_whatever_was_decoded_before() -> None:
    # Strict mode's table of well-formed entities was kept per (scheme name, pattern): a scheme of the same name and
    # pattern with another letter read the first one's table, and B-PER E-PER was no entity (strict_f1 0.0).
    first = Scheme("MINE", _PARTS, "BI*E?")
    second = Scheme("MINE", {**_PARTS, "E": END}, "BI*E?")
    compute_semeval(predictions=[["B-PER"]], references=[["B-PER"]], scheme=first, mode="strict")
    tags = [["B-PER", "E-PER", "O"]]
    assert compute_semeval(predictions=tags, references=tags, scheme=second, mode="strict")["strict_f1"] == 1.0


# The evaluate module took reference strings found as given to ground once normalised too (dfab245): two strings of
# one needle once normalised ("aa" and "aa ", stripped) share an occurrence as given but need one each normalised.
# Stored as grounding under both readings, a later batch grounding with normalize only was stored too, and every
# compute failed.
ONE_NEEDLE_ONCE_NORMALISED = [
    pytest.param("aa ", ["aa", "aa "], id="a-trailing-space"),
    pytest.param("a b", ["b", " b"], id="a-leading-space"),
    pytest.param("a \u00a8", ["\u00a8", " \u00a8"], id="a-mark-folding-to-a-space-and-itself"),
]


@pytest.mark.parametrize(("text", "strings"), ONE_NEEDLE_ONCE_NORMALISED)
def test_strings_of_one_needle_once_normalised_leave_the_reading_without_normalize(
    text: str, strings: list[str], metric
) -> None:
    metric.add_batch(predictions=[[]], references=[[("PER", string) for string in strings]], texts=[text])
    with pytest.raises(ValueError, match=r"^references, sentence 1, entity 0: the text 'Bob' does not occur"):
        metric.add_batch(predictions=[[]], references=[[("PER", "Bob")]], texts=["bob"])  # normalize only
    assert metric.compute()["strict_recall"] == 0.0


# The check above normalises each sentence's distinct strings: `needle_of` does it without Haystack's positions.
@settings(max_examples=300)
@given(st.text(max_size=12) | st.text(st.sampled_from(" \t\n\u00a0\u2002\u3000Aaß¨\u0308ﬁİ\x85"), max_size=10))
def test_a_needle_is_its_text_normalised_as_a_haystack_and_stripped(text: str) -> None:
    assert needle_of(text, True) == Haystack.of(text, True).text.strip(" ")
