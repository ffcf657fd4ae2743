"""The columns given beside the entities (`texts`, `tokens`, `groups`, `documents`): checked once, located, and
stored with the batches by the evaluate wrapper so that `_compute` reads back what each batch gave."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from nerscore import InvalidInputError, compute_semeval
from nerscore.schemes import DEEPEST_HASHED
from nerscore.table.columns import COLUMN_NAMES, Columns, entity_text, entity_texts

TAGS = [["B-PER", "O"], ["O", "B-LOC"], ["O", "O"]]


@pytest.mark.parametrize(
    ("given", "match"),
    [
        pytest.param({"texts": ["a", "b"]}, "texts: found 2 values for 3 sentences", id="too-few"),
        pytest.param(  # what the column is, said once (it read "(a label of each sentence (the `group` slice))")
            {"groups": ["g"]},
            r"groups: found 1 values for 3 sentences; expected one per sentence, a label of each sentence \(the "
            r"`group` slice\)$",
            id="too-few-groups",
        ),
        pytest.param({"texts": "abc"}, "texts: found 'abc'; expected the text", id="a-string-not-a-list"),
        pytest.param({"texts": ["a", 1, "c"]}, "texts, sentence 1: found 1; expected", id="a-number-as-text"),
        pytest.param({"tokens": [["a"], "b", ["c"]]}, "tokens, sentence 1: found 'b'", id="tokens-as-a-string"),
        pytest.param({"tokens": [["a"], ["b", 2], ["c"]]}, "tokens, sentence 1: token 1 is 2", id="a-number-token"),
        pytest.param({"documents": ["d", ["x"], "d"]}, "documents, sentence 1: .* not hashable", id="unhashable-id"),
        pytest.param({"groups": [{}, "g", "g"]}, "groups, sentence 0: .* not hashable", id="unhashable-group"),
    ],
)
def test_a_bad_column_is_a_located_value_error(given: dict[str, Any], match: str) -> None:
    with pytest.raises(InvalidInputError, match=match):
        Columns.of(3, **given)


def test_an_unknown_column_is_refused() -> None:
    with pytest.raises(ValueError, match="found the column 'text'; expected one of texts"):
        Columns.of(1, text=["a"])


def test_columns_are_kept_as_tuples_and_the_inputs_are_not_modified() -> None:
    tokens = [["Ann", "sang"], ["in", "Paris"], [".", "."]]
    columns = Columns.of(3, tokens=tokens, documents=["d1", "d1", ("d", 2)])
    assert columns.tokens == (("Ann", "sang"), ("in", "Paris"), (".", "."))
    assert columns.given == ("tokens", "documents")
    assert tokens == [["Ann", "sang"], ["in", "Paris"], [".", "."]]


@pytest.mark.parametrize(
    "ids",
    [
        pytest.param(["a", "b", "a"], id="strings"),
        pytest.param([1, 2.5, True], id="numbers"),
        pytest.param([None, ("a", 1), ("a", None)], id="none-and-tuples"),
    ],
)
def test_stored_columns_read_back_as_given(ids: list[Any]) -> None:
    columns = Columns.of(3, texts=["Ann", "", "\ud800 x"], documents=ids, groups=ids)
    read = Columns.from_stored(columns.stored(3))
    assert read == columns
    assert [type(value) for value in read.documents or ()] == [type(value) for value in ids]


def test_an_id_that_json_cannot_keep_is_refused_where_it_would_be_stored() -> None:
    columns = Columns.of(2, documents=["a", frozenset({1})])
    with pytest.raises(InvalidInputError, match="documents, sentence 1: found frozenset"):
        columns.stored(2)


def test_batches_concatenate_only_with_the_same_columns() -> None:
    first, second = Columns.of(2, texts=["a", "b"]), Columns.of(1, texts=["c"])
    assert (first + second).texts == ("a", "b", "c")
    with pytest.raises(InvalidInputError, match="texts, sentence 2: texts were given for some sentences"):
        first + Columns.of(1, tokens=[["c"]])


def test_the_names_are_the_keywords_of_compute_semeval() -> None:
    import inspect

    from nerscore import compare_semeval, compute_semeval

    for function in (compute_semeval, compare_semeval):
        assert set(COLUMN_NAMES) <= set(inspect.signature(function).parameters)


@pytest.fixture
def seen_columns(metric: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What the metric hands the scorer as columns, call by call (in the module evaluate loaded, a copy of
    ner_semeval.py)."""
    seen: list[Any] = []
    module = sys.modules[type(metric).__module__]
    scorer = module.Accumulator.update_checked

    def spy(self: Any, predictions: Any, references: Any, columns: Any = None) -> Any:
        seen.append(columns)
        return scorer(self, predictions, references, columns)

    monkeypatch.setattr(module.Accumulator, "update_checked", spy)
    return seen


def test_the_metric_stores_columns_with_each_batch_and_reads_them_back(metric: Any, seen_columns: list) -> None:
    metric.add_batch(predictions=TAGS[:2], references=TAGS[:2], texts=["a", "b"], documents=["d1", 7])
    metric.add(prediction=TAGS[2], reference=TAGS[2], texts="c", documents=("d", 2))
    metric.compute()
    assert seen_columns == [Columns(texts=("a", "b", "c"), documents=("d1", 7, ("d", 2)))]


def test_empty_sentences_added_first_keep_their_columns(metric: Any, seen_columns: list) -> None:
    metric.add_batch(predictions=[[]], references=[[]], texts=["empty"])
    metric.add_batch(predictions=TAGS[:1], references=TAGS[:1], texts=["a"])
    metric.compute()
    metric.add_batch(predictions=[[]], references=[[]], texts=["empty"])
    metric.compute(predictions=TAGS[:1], references=TAGS[:1], texts=["a"])
    assert seen_columns == [Columns(texts=("empty", "a"))] * 2


def test_a_batch_without_the_columns_of_the_first_is_refused_and_loses_nothing(metric: Any, seen_columns: list) -> None:
    metric.add_batch(predictions=TAGS[:2], references=TAGS[:2], texts=["a", "b"])
    with pytest.raises(InvalidInputError, match="texts, sentence 2: this batch lacks texts"):
        metric.add_batch(predictions=TAGS[2:], references=TAGS[2:])
    with pytest.raises(InvalidInputError, match="tokens, sentence 2: this batch gives tokens"):
        metric.add_batch(predictions=TAGS[2:], references=TAGS[2:], texts=["c"], tokens=[["x", "y"]])
    result = metric.compute()
    assert seen_columns == [Columns(texts=("a", "b"))]
    assert result["strict_possible"] == 2


def test_columns_without_predictions_are_refused(metric: Any) -> None:
    with pytest.raises(ValueError, match="found texts without predictions"):
        metric.compute(texts=["a"])


def test_compute_with_nothing_stored_passes_the_columns_on(metric: Any, seen_columns: list) -> None:
    metric.compute(predictions=TAGS, references=TAGS, groups=["g", "g", "h"])
    assert seen_columns == [{"groups": ["g", "g", "h"]}]


@pytest.mark.parametrize(
    ("columns", "span", "text"),
    [
        pytest.param(Columns(tokens=(("New", "York", "is"),)), (0, 2), "New York", id="tokens-with-a-space"),
        pytest.param(Columns(tokens=(("一首", "告白", "气球"),)), (1, 3), "告白气球", id="cjk-tokens-without"),
        pytest.param(Columns(tokens=(("东京", "Tower"),)), (0, 2), "东京 Tower", id="cjk-then-latin"),
        pytest.param(Columns(texts=("in New York",)), (3, 11), "New York", id="characters-of-texts"),
        pytest.param(Columns(), (0, 1), None, id="no-text"),
    ],
)
def test_an_entity_text(columns: Columns, span: tuple[int, int], text: str | None) -> None:
    from nerscore.table.columns import entity_text

    assert entity_text(columns, 0, *span) == text


def test_entity_texts_of_a_batch_are_each_entitys_entity_text() -> None:
    tokens = [["New", "York", "告", "白", "气", "球"], ["Ann"]]
    sentence, start, end = np.array([0, 0, 0, 0, 1, 1]), np.array([0, 1, 2, 1, 0, 0]), np.array([2, 2, 6, 4, 1, 3])
    for columns in (Columns.of(2, tokens=tokens), Columns.of(2, texts=["New York", "Ann"])):
        expected = [entity_text(columns, *entity) for entity in zip(*(a.tolist() for a in (sentence, start, end)))]
        assert entity_texts(columns, sentence, start, end) == expected
    single = np.array([1, 0]), np.array([0, 5]), np.array([1, 6])  # one-token entities only, one past the end
    assert entity_texts(Columns.of(2, tokens=tokens), *single) == ["Ann", "球"]
    assert entity_texts(Columns.of(2, tokens=tokens), np.array([1]), np.array([3]), np.array([4])) == [""]


def test_tokens_checked_at_once_keep_the_located_error_and_string_subclasses() -> None:
    class Word(str):
        pass

    assert Columns.of(1, tokens=[[Word("a"), "b"]]).tokens == (("a", "b"),)
    with pytest.raises(ValueError, match="token 1 is"):
        Columns.of(2, tokens=[["a"], ("b", 3)])


# An id of more digits than Python writes as text (4,300): a located error, never the bare "Exceeds the limit"
# ValueError (issue 31). (what is called, the located message)
_LONG = 10**5000
_DEEP: tuple = ()
for _ in range(100_000):
    _DEEP = (_DEEP,)
LONG_IDS = [
    pytest.param(
        lambda: Columns.of(2, groups=[1, _LONG]).labels("groups"),
        "groups, sentence 1: found <int of about 5,001 digits>, more digits than Python writes as text (4,300)",
        id="a-group-named",
    ),
    pytest.param(
        lambda: compute_semeval(
            predictions=TAGS[:2], references=TAGS[:2], groups=[_LONG, "a"], slices=["group"], bootstrap=5
        ),
        "groups, sentence 0: found <int of about 5,001 digits>",
        id="the-group-slice",
    ),
    pytest.param(
        lambda: Columns.of(2, documents=[1, ("a", _LONG)]).stored(2),
        "documents, sentence 1: found <int of about 5,001 digits>, more digits than Python writes as text",
        id="a-document-stored",
    ),
    # A tuple nested 100,000 deep hashes (in C) but is no text: str() raised RecursionError (redteam5).
    pytest.param(
        lambda: Columns.of(2, groups=["a", _DEEP]).labels("groups"),
        "groups, sentence 1: found ((((",
        id="a-deep-tuple-group-named",
    ),
    pytest.param(
        lambda: Columns.of(1, documents=[_DEEP]).stored(1),
        "documents, sentence 0: found ((((",
        id="a-deep-tuple-document-stored",
    ),
    pytest.param(
        lambda: Columns.of(2, groups=["a", (1, (2, _LONG))]).labels("groups"),
        "groups, sentence 1: found (1, (2, <int of about 5,001 digits>)), which holds an integer of more digits",
        id="a-long-integer-within-a-tuple-within",
    ),
]


@pytest.mark.parametrize(("call", "message"), LONG_IDS)
def test_an_id_of_more_digits_than_python_writes_is_a_located_error(call, message: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        call()
    assert str(raised.value).startswith(message), str(raised.value)


def test_read_checks_as_of_and_reads_lists_of_strings_where_they_are() -> None:
    # Columns.read (compute_semeval's): the same columns and errors as Columns.of, lists of strings not copied.
    tokens = [["Ann", "sang"], ("in", "Paris")]
    read, checked = Columns.read(2, tokens=tokens, groups=["a", "b"]), Columns.of(2, tokens=tokens, groups=["a", "b"])
    assert [tuple(sentence) for sentence in read.tokens or ()] == list(checked.tokens or ())
    assert read.groups == checked.groups and read.given == checked.given
    assert read.tokens is not None and read.tokens[0] is tokens[0]
    assert tokens == [["Ann", "sang"], ("in", "Paris")]
    for given in ({"tokens": [["a"]]}, {"tokens": [["a"], [1]]}, {"tokens": [["a"], ["b"]], "groups": [[], "x"]}):
        with pytest.raises(InvalidInputError) as from_of:
            Columns.of(2, **given)
        with pytest.raises(InvalidInputError) as from_read:
            Columns.read(2, **given)
        assert str(from_read.value) == str(from_of.value)


@pytest.mark.parametrize("make", [Columns.read, Columns.of], ids=["read", "of"])
def test_each_sentences_number_of_tokens(make: Any) -> None:
    # `read` measures them with its check (kept_tokens compares them with the tags'); `of`, when asked.
    columns = make(3, tokens=[["Ann", "sang"], ("in",), []], groups=["a", "b", "c"])
    assert columns.token_lengths() == [2, 1, 0]


class _Label(str):
    """A str subclass: not exactly `str`, so its label is `str` of it, a plain string."""


@pytest.mark.parametrize(
    "groups",
    [
        pytest.param(["a", "b", "a"], id="strings: their own labels, known from the check"),
        pytest.param([1, "b", 1], id="ints and strings"),
        pytest.param([_Label("a"), "b", "a"], id="a str subclass"),
        pytest.param(np.array(["a", "b", "a"]), id="a numpy array"),
        pytest.param([], id="no sentence"),
    ],
)
@pytest.mark.parametrize("read", [False, True])
def test_labels_are_each_value_as_a_string(groups: Any, read: bool) -> None:
    # Ids that are all exactly str are their labels as the check found them (`Columns.of`, `Columns.read` with
    # tokens read where they are); any others are `str` of each, read when first asked for.
    sentences = len(groups)
    tokens = [["x"]] * sentences
    columns = (Columns.read if read else Columns.of)(sentences, groups=groups, tokens=tokens)
    labels = columns.labels("groups")
    assert list(labels) == [str(group) for group in groups]
    assert all(type(label) is str for label in labels)
    assert columns.labels("groups") is labels  # read once


def _nested(depth: int) -> tuple:
    value: tuple = ("a",)
    for _ in range(depth - 1):
        value = (value,)
    return value


@pytest.mark.slow  # (the full suite: the quick profile stays under 3 minutes)
@pytest.mark.parametrize("column", ["groups", "documents"])
def test_an_id_nested_deeper_than_any_id_is_refused_before_it_is_hashed(column: str) -> None:
    # CPython hashes nested tuples on the C stack: 1,000,000 deep crashed the process (a segmentation fault).
    assert Columns.of(1, **{column: [_nested(DEEPEST_HASHED)]}).given == (column,)
    for depth in (DEEPEST_HASHED + 1, 1_000, 1_000_000):
        with pytest.raises(InvalidInputError, match=rf"^{column}, sentence 0: found \(\(\(.*, nested too deep to hash"):
            Columns.of(1, **{column: [_nested(depth)]})
