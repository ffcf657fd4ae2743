"""What two red teams of the front ends and of the pairing noticed and left: each named case failed on the code
before its fix."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from conftest import WORKED_EXAMPLE

from nerscore import (
    Accumulator,
    Options,
    SentenceCounts,
    Span,
    compute_semeval,
    decode,
    encode,
    entity_rows,
    errors,
    pair,
    pair_greedy,
)
from nerscore.cli import main
from nerscore.compute import count_batch
from nerscore.forms.inputs import TAGS
from nerscore.table.columns import Columns

# `Accumulator.add` (a batch count_batch counted, as the command line's chunks) trusted that the batch was counted
# with the accumulator's options: with bootstrap, a batch counted without each sentence's counts gave intervals of
# no width; with value, a batch counted without it a value of 0.0; diagnostics, errors, the overlap credit and the
# slices' buckets counted none of it.
_REFERENCES = [["B-PER", "I-PER", "O"], ["B-LOC", "O", "B-PER"]]
_PREDICTIONS = [["B-PER", "O", "O"], ["B-LOC", "O", "B-LOC"]]
_TOKENS = [["Ada", "Lovelace", "wrote"], ["Paris", "saw", "Bob"]]


def _added(accumulated: dict, counted: dict, keep_sentences: bool = True, ordered: bool = False) -> Accumulator:
    batch = count_batch(
        _PREDICTIONS,
        _REFERENCES,
        TAGS,
        Options.of(**counted),
        keep_sentences,
        Columns.read(len(_REFERENCES), tokens=_TOKENS),
    )[0]
    return Accumulator(Options.of(**accumulated), ordered).add(batch, len(_REFERENCES))


_VALUE = {"value": True}
BATCHES_COUNTED_WITHOUT = [
    pytest.param({"bootstrap": 50}, {}, False, False, "keep_sentences=True", id="bootstrap-without-sentences"),
    pytest.param({}, {}, False, True, "keep_sentences=True", id="ordered-without-sentences"),
    pytest.param(_VALUE, {}, True, False, "value", id="value-without-value"),
    pytest.param({"bootstrap": 50, **_VALUE}, {"bootstrap": 50}, True, False, "value", id="value-resampled"),
    pytest.param({"partial_credit": "overlap"}, {}, True, False, "partial_credit='overlap'", id="overlap-credit"),
    pytest.param({"diagnostics": True}, {}, True, False, r"diagnostics=True", id="diagnostics"),
    pytest.param({"errors": True}, {}, True, False, "errors", id="errors"),
    pytest.param({"slices": ["entity_length"]}, {}, True, False, r"slices=\['entity_length'\]", id="slices"),
    pytest.param(
        {"slices": ["entity_length", "sentence_length"]},
        {"slices": ["entity_length"]},
        True,
        False,
        r"slices=\['entity_length', 'sentence_length'\]",
        id="fewer-slices",
    ),
]


@pytest.mark.parametrize(("accumulated", "counted", "keep", "ordered", "lacking"), BATCHES_COUNTED_WITHOUT)
def test_add_refuses_a_batch_counted_without_what_the_result_needs(
    accumulated: dict, counted: dict, keep: bool, ordered: bool, lacking: str
) -> None:
    with pytest.raises(ValueError, match=f"^found a batch counted without {lacking}, which this accumulator's"):
        _added(accumulated, counted, keep, ordered)
    # (a guard: counted with the accumulator's own options, the batch adds as update counts it)
    added = _added(accumulated, accumulated, True, ordered).result()
    assert (
        added
        == Accumulator(Options.of(**accumulated), ordered)
        .update(predictions=_PREDICTIONS, references=_REFERENCES, tokens=_TOKENS)
        .result()
    )


def test_the_command_lines_runs_with_bootstrap_count_each_runs_totals_apart(capsys: pytest.CaptureFixture) -> None:
    # (its runs' totals are added without each sentence's counts, which it keeps apart, side by side)
    assert main(["--runs", str(WORKED_EXAMPLE), str(WORKED_EXAMPLE), "--bootstrap", "20", "--json"]) == 0
    assert '"strict_f1_mean_low"' in capsys.readouterr().out


# encode(spans, length) made its list of `length` tags at once: past the memory free, a MemoryError (10**12 tokens),
# and each token of an entity its own string (60 bytes a token beyond the list's 8).
ENCODE_PAST_FREE_MEMORY = [
    pytest.param([Span(0, 3, "A")], 10**12, None, r"about 8000\.0 GB", id="a-trillion-tokens"),
    pytest.param([Span(0, 10**7, "A")], 10**7, 10**8, r"about 0\.2 GB", id="the-longest-entity-counted"),
]


@pytest.mark.parametrize(("spans", "length", "free", "needed"), ENCODE_PAST_FREE_MEMORY)
def test_encode_refuses_a_length_past_the_free_memory_before_it_allocates(
    spans: list, length: int, free: int | None, needed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if free is not None:
        monkeypatch.setattr(errors, "free_memory", lambda: free)
    with pytest.raises(ValueError, match=rf"^length is {length:,}: its tags need {needed}, more than the .* free"):
        encode(spans, length)


# torch tensors whose values cannot be listed: on the meta device (NotImplementedError "Cannot copy out of meta
# tensor") or nested (RuntimeError "NestedTensorImpl doesn't support sizes"), as a batch or as a sentence.
def _meta(torch: Any, *shape: int) -> Any:
    return torch.zeros(shape, dtype=torch.long, device="meta")


def _nested(torch: Any) -> Any:
    with warnings.catch_warnings():  # (torch: "nested tensors are in prototype stage")
        warnings.simplefilter("ignore")
        return torch.nested.nested_tensor([torch.tensor([1, 0, 0]), torch.tensor([0])])


_META = r"found a Tensor on the meta device, which holds no values; expected a tensor on a real device \(\.cpu\(\)\)"
_NESTED = r"found a nested Tensor, which torch cannot list; expected a list of its tensors \(tensor\.unbind\(\)\)"
TENSORS_WITHOUT_VALUES = [
    pytest.param(lambda torch: _meta(torch, 2, 3), rf"predictions: {_META}", id="meta-batch"),
    pytest.param(
        lambda torch: [torch.zeros(3, dtype=torch.long), _meta(torch, 3)],
        rf"predictions, sentence 1: {_META}",
        id="meta-sentence",
    ),
    pytest.param(_nested, rf"predictions: {_NESTED}", id="nested-batch"),
    pytest.param(lambda torch: (_nested(torch),), rf"predictions, sentence 0: {_NESTED}", id="nested-sentence"),
]


@pytest.mark.parametrize(("predictions", "message"), TENSORS_WITHOUT_VALUES)
def test_a_tensor_whose_values_cannot_be_listed_is_refused_in_words(predictions: Any, message: str) -> None:
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError, match=f"^{message}$"):
        compute_semeval(predictions=predictions(torch), references=[[1, 0, 0], [0, 0, 0]], label_list=["O", "B-PER"])


# pandas' missing values as document or group ids: NaN was refused, but pd.NA (whose == is NA) and pd.NaT (a NaN of
# times) were each a unit of its own, by identity.
_MISSING = r"found {}, equal to no id, itself included \(a missing value\?\); expected an id"
MISSING_IDS = [
    pytest.param("documents", lambda pd: [pd.NA, pd.NA], _MISSING.format("<NA>"), id="na-document"),
    pytest.param("documents", lambda pd: ["a", pd.NaT], _MISSING.format("NaT"), id="nat"),
    pytest.param("groups", lambda pd: [pd.NA, "b"], _MISSING.format("<NA>"), id="na-group"),
    pytest.param(
        "documents", lambda pd: [("a", pd.NA), "b"], r"found \('a', <NA>\), which holds <NA>, equal to no id", id="held"
    ),
]


@pytest.mark.parametrize(("column", "ids", "message"), MISSING_IDS)
def test_pandas_missing_values_are_refused_as_ids_as_nan_is(column: str, ids: Any, message: str) -> None:
    pd = pytest.importorskip("pandas")
    given = {"predictions": [["B-PER"], ["O"]], "references": [["B-PER"], ["O"]], column: ids(pd)}
    options = {"bootstrap": 10} if column == "documents" else {"slices": ["group"]}
    with pytest.raises(ValueError, match=rf"^{column}, sentence \d: {message}"):
        compute_semeval(**given, **options)
    assert compute_semeval(**{**given, column: ["a", "a"]}, **options)  # (a guard: ids of one unit are taken)


# Two public names given what they do not take: entity_rows(None) raised TypeError ("'NoneType' object is not
# iterable"), SentenceCounts.of(5) IndexError ("tuple index out of range"), of None TypeError.
PUBLIC_MISUSES = [
    pytest.param(lambda: entity_rows(None), r"rows is None; expected a list of rows", id="entity-rows-none"),
    pytest.param(lambda: SentenceCounts.of(5), r"by_sentence is 5; expected a 2-D array of counts", id="counts-5"),
    pytest.param(lambda: SentenceCounts.of(None), r"by_sentence is None; expected a 2-D array", id="counts-none"),
    pytest.param(
        lambda: SentenceCounts.of([[1] * 6] * 2, [[0.5]]),
        r"weighted is \[\[0\.5\]\]; expected a 2-D array of counts, 2 rows, one per sentence",
        id="weighted-rows",
    ),
]


@pytest.mark.parametrize(("call", "message"), PUBLIC_MISUSES)
def test_public_names_refuse_what_they_do_not_take_in_words(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}"):
        call()
    assert entity_rows([]) == [] and SentenceCounts.of([[1] * 6] * 2, [[0.5], [0.5]])  # (a guard: taken)


# A str subclass whose own hash raises (a lazily translated string, a proxy): span types were read as their plain
# strings by as_span (redteam13), but `pair` of nested spans and `pair_greedy` (Spans built by hand) raised its
# TypeError, and a tag of one was refused as "expected a string tag" although it is one.
class UnhashableText(str):
    def __hash__(self) -> int:
        raise TypeError("this string cannot be hashed")


def _plain(value: Any) -> Any:
    """`value` with every UnhashableText a plain string, in lists and Spans."""
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, Span):
        return Span(value.start, value.end, str.__str__(value.entity_type))
    return str.__str__(value) if isinstance(value, str) else value


_H = UnhashableText
_NESTED_SPANS = [[Span(0, 3, _H("A")), Span(1, 2, "B")], [Span(0, 3, "A"), Span(0, 2, "B")]]
_TAG_BATCH = {"predictions": [[_H("B-A"), "I-A", "O"]], "references": [["B-A", "O", _H("B-B")]]}
STR_SUBCLASS_VALUES = [
    pytest.param(lambda given: pair(*given), _NESTED_SPANS, id="pair-nested"),
    pytest.param(lambda given: pair_greedy(*given), _NESTED_SPANS, id="pair-greedy"),
    pytest.param(lambda given: decode(given), [_H("B-A"), "I-A", "O"], id="decode-a-tag"),
    pytest.param(lambda given: compute_semeval(**given), _TAG_BATCH, id="tags"),
    pytest.param(lambda given: compute_semeval(**given, return_entities=True, value=True), _TAG_BATCH, id="tag-rows"),
    # (a guard: encode's table of tags, which hashes each type, reads them plain too)
    pytest.param(lambda given: encode(given, 4), [Span(0, 3, _H("A"))], id="encode"),
]


@pytest.mark.parametrize(("call", "given"), STR_SUBCLASS_VALUES)
def test_a_str_subclass_is_read_as_its_plain_string(call: Any, given: Any) -> None:
    plain = {key: _plain(value) for key, value in given.items()} if isinstance(given, dict) else _plain(given)
    assert call(given) == call(plain)
