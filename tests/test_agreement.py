"""nerscore.agreement and statistics/agreement_coefficients (docs/scoring.md §13): the coefficients against the
libraries people trust (scikit-learn's Cohen's κ, statsmodels' Fleiss' κ, the krippendorff package's α) on
random labelings and on the unit labels of random, nested and partly missing annotations read independently
here; the pairs against compute_semeval; the pooled F against one compute_semeval of both directions; the errors
that name annotators; the intervals."""

from __future__ import annotations

import doctest
import re
import sys
from itertools import combinations
from pathlib import Path
from unittest import mock

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

from nerscore import InvalidInputError, agreement, compute_semeval, decode
from nerscore.agreement_intervals import distinct_units

TYPES = ("PER", "LOC", "ORG")


# -- an independent reading of §13's units ----------------------------------------------------------------------


def span_unit_labels(annotations, texts=None):
    """Each unit's label per annotator, by the words of §13, one unit at a time: rows of labels (None: missing)."""
    names = list(annotations)
    sentences = len(annotations[names[0]])
    rows = []
    for sentence in range(sentences):
        given = [annotations[name][sentence] for name in names]
        if texts is not None:
            size = len(texts[sentence])
        else:
            size = max((end for entities in given if entities for _, end, _ in entities), default=0)
        rows.extend(unit_rows(given, size))
    return rows


def unit_rows(given, size):
    """The rows of a sentence's `size` units: each annotator's label (its entities' covering types; None: missing)."""
    rows = []
    for unit in range(size):
        row = []
        for entities in given:
            if entities is None:
                row.append(None)
                continue
            covering = sorted({kind for start, end, kind in entities if start <= unit < end})
            row.append("|".join(covering) if covering else "O")
        rows.append(row)
    return rows


def tag_unit_labels(annotations):
    rows = []
    names = list(annotations)
    for sentence in range(len(annotations[names[0]])):
        decoded = []
        size = 0
        for name in names:
            tags = annotations[name][sentence]
            decoded.append(None if tags is None else [(s.start, s.end, s.entity_type) for s in decode(tags)])
            size = size if tags is None else len(tags)
        rows.extend(unit_rows(decoded, size))
    return rows


def library_values(rows, raters, zero_division=0.0):
    """Cohen's κ per pair, Fleiss' κ and α from the libraries, on rows of labels (None: missing)."""
    labels = sorted({label for row in rows for label in row if label is not None})
    code = {label: number for number, label in enumerate(labels)}
    cohen = []
    for a, b in combinations(range(raters), 2):
        kept = [(row[a], row[b]) for row in rows if row[a] is not None and row[b] is not None]
        if len({label for pair in kept for label in pair}) < 2:
            cohen.append(zero_division)
            continue
        cohen.append(cohen_kappa_score([x for x, _ in kept], [y for _, y in kept]))
    complete = [row for row in rows if None not in row]
    table = np.zeros((len(complete), len(labels)))
    for unit, row in enumerate(complete):
        for label in row:
            table[unit, code[label]] += 1
    in_complete = {label for row in complete for label in row}
    fleiss = statsmodels_fleiss(table) if len(in_complete) > 1 else zero_division
    pairable = [row for row in rows if sum(label is not None for label in row) >= 2]
    if len({label for row in pairable for label in row if label is not None}) > 1:
        data = np.array([[np.nan if row[k] is None else code[row[k]] for row in rows] for k in range(raters)])
        alpha = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    else:
        alpha = zero_division
    return cohen, fleiss, alpha


def assert_coefficients_match(result, rows):
    raters = len(result["annotators"])
    cohen, fleiss, alpha = library_values(rows, raters)
    assert [pair["cohen_kappa"] for pair in result["pairs"]] == pytest.approx(cohen, abs=1e-9)
    assert result["fleiss_kappa"] == pytest.approx(fleiss, abs=1e-9)
    assert result["krippendorff_alpha"] == pytest.approx(alpha, abs=1e-9)
    labelled = [row for row in rows if any(label not in (None, "O") for label in row)]
    cohen, fleiss, alpha = library_values(labelled, raters)
    assert [pair["cohen_kappa_labelled"] for pair in result["pairs"]] == pytest.approx(cohen, abs=1e-9)
    assert result["fleiss_kappa_labelled"] == pytest.approx(fleiss, abs=1e-9)
    assert result["krippendorff_alpha_labelled"] == pytest.approx(alpha, abs=1e-9)
    assert result["units"] == len(rows)
    assert result["units_labelled"] == len(labelled)


def assert_pairs_match(result, annotations, **options):
    names = list(annotations)
    for pair, (a, b) in zip(result["pairs"], combinations(names, 2)):
        both = [i for i, (x, y) in enumerate(zip(annotations[a], annotations[b])) if x is not None and y is not None]
        expected = compute_semeval(
            predictions=[annotations[b][i] for i in both], references=[annotations[a][i] for i in both], **options
        )
        if "entities" in expected:  # numbered among all sentences, not those both annotated
            expected["entities"] = [{**row, "sentence": both[row["sentence"]]} for row in expected["entities"]]
        assert (pair["a"], pair["b"]) == (a, b)
        assert {key: pair[key] for key in expected} == expected
    for scheme in ("strict", "exact", "partial", "type"):
        values = [pair[f"{scheme}_f1"] for pair in result["pairs"]]
        assert result[f"{scheme}_f1_mean"] == pytest.approx(sum(values) / len(values), abs=1e-12)


def assert_pooled_match(result, annotations, **options):
    """The pooled F is the F of every pair scored both ways at once: one compute_semeval of the two directions."""
    predictions, references = [], []
    for a, b in combinations(list(annotations), 2):
        for x, y in zip(annotations[a], annotations[b]):
            if x is not None and y is not None:
                predictions += [y, x]
                references += [x, y]
    expected = compute_semeval(predictions=predictions, references=references, **options)
    for scheme in ("strict", "exact", "partial", "type"):
        assert result[f"{scheme}_f1_pooled"] == expected[f"{scheme}_f1"]


# -- strategies ---------------------------------------------------------------------------------------------------


@st.composite
def span_annotations(draw, nested=True, missing=True):
    annotators = draw(st.integers(2, 4))
    sentences = draw(st.integers(1, 5))
    annotations = {}
    for number in range(annotators):
        batch = []
        for _ in range(sentences):
            if missing and draw(st.integers(0, 5)) == 0:
                batch.append(None)
                continue
            entities = []
            for _ in range(draw(st.integers(0, 4))):
                start = draw(st.integers(0, 8))
                end = draw(st.integers(start + 1, start + (4 if nested else 1)))
                entities.append((start, end, draw(st.sampled_from(TYPES))))
            if not nested:  # one entity per unit at most
                taken, kept = set(), []
                for start, end, kind in entities:
                    if not taken & set(range(start, end)):
                        kept.append((start, end, kind))
                        taken |= set(range(start, end))
                entities = kept
            batch.append(entities)
        annotations[f"annotator{number}"] = batch
    return annotations


@st.composite
def tag_annotations(draw, missing=True):
    annotators = draw(st.integers(2, 5))
    lengths = draw(st.lists(st.integers(0, 8), min_size=1, max_size=5))
    tags = st.sampled_from(["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG"])
    annotations = {}
    for number in range(annotators):
        batch = []
        for length in lengths:
            if missing and draw(st.integers(0, 6)) == 0:
                batch.append(None)
            else:
                batch.append(draw(st.lists(tags, min_size=length, max_size=length)))
        annotations[f"annotator{number}"] = batch
    return annotations


# -- the intervals' units ----------------------------------------------------------------------------------------


@given(st.lists(st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.5, 3.0, 1e300]), min_size=3, max_size=3), max_size=40))
def test_distinct_units_are_the_distinct_rows_and_their_counts(rows):
    vectors = np.array(rows, dtype=np.float64).reshape(-1, 3)
    sample = distinct_units(vectors)
    expected = {}
    for row in vectors.tolist():
        expected[tuple(value + 0.0 for value in row)] = expected.get(tuple(value + 0.0 for value in row), 0) + 1
    found = {tuple(row): count for row, count in zip(sample.vectors.tolist(), sample.sentences.tolist())}
    assert found == expected


# -- agreement() on annotations -------------------------------------------------------------------------------------


@given(span_annotations())
@settings(deadline=None)
def test_nested_spans_with_missing_sentences_agree_with_the_libraries(annotations):
    result = agreement(annotations)
    assert result["annotators"] == list(annotations)
    assert_coefficients_match(result, span_unit_labels(annotations))
    assert_pairs_match(result, annotations)
    assert_pooled_match(result, annotations)


@given(tag_annotations())
@settings(deadline=None)
def test_tags_with_missing_sentences_agree_with_the_libraries(annotations):
    result = agreement(annotations)
    assert_coefficients_match(result, tag_unit_labels(annotations))
    assert_pairs_match(result, annotations)
    assert_pooled_match(result, annotations)


@given(span_annotations(nested=False, missing=False))
@settings(deadline=None)
def test_span_units_run_to_the_texts_end_when_texts_are_given(annotations):
    sentences = len(next(iter(annotations.values())))
    texts = ["x" * 14] * sentences  # longer than any entity's end
    result = agreement(annotations, texts=texts)
    assert_coefficients_match(result, span_unit_labels(annotations, texts))


@pytest.mark.parametrize(
    "annotations, where",
    [
        pytest.param(
            {"a": [[(0, 3, "PER")], [(0, 3, "PER")]], "b": [[(0, 3, "PER")], [(4, 12, "PER")]]},
            "annotations['b'], sentence 1, entity 0",
            id="the-second-annotator",
        ),
        pytest.param(
            {"a": [None, [(0, 3, "PER"), (4, 12, "PER")]], "b": [[(0, 3, "PER")], [(4, 7, "PER")]]},
            "annotations['a'], sentence 1, entity 1",
            id="the-first-annotator-after-a-missing-sentence",
        ),
    ],
)
def test_a_span_past_its_text_is_an_error_naming_its_annotator(annotations, where):
    # With texts a sentence's units are its characters (§13) and offsets index them (§1): an entity past its text
    # is refused as compute_semeval refuses it, rather than widening the sentence; without texts it still widens.
    texts = ["Ada", "Ada met Bob"]
    with pytest.raises(InvalidInputError, match=rf"^{re.escape(where)}: found the span \[4, 12\) past the end"):
        agreement(annotations, texts=texts)
    assert agreement(annotations)["units"] == 3 + 12  # each sentence to its largest end


def test_stacked_entities_of_one_annotator_join_their_distinct_types():
    annotations = {
        "a": [[(0, 4, "PER"), (0, 2, "PER"), (1, 3, "LOC")]],
        "b": [[(0, 4, "PER")]],
    }
    rows = span_unit_labels(annotations)
    assert rows == [["PER", "PER"], ["LOC|PER", "PER"], ["LOC|PER", "PER"], ["PER", "PER"]]
    assert_coefficients_match(agreement(annotations), rows)


def test_stacks_of_more_types_than_a_word_holds_are_labelled_alike():
    kinds = [f"T{number:02d}" for number in range(70)]
    annotations = {
        "a": [[(0, 2 + number % 3, kind) for number, kind in enumerate(kinds)], [(1, 2, "T05")]],
        "b": [[(0, 2, kind) for kind in kinds[::2]], [(0, 2, "T05"), (0, 1, "T69")]],
    }
    rows = span_unit_labels(annotations)
    assert rows[0][0] == "|".join(kinds)
    assert_coefficients_match(agreement(annotations), rows)


def test_one_label_everywhere_takes_zero_division():
    annotations = {"a": [["B-PER", "I-PER"]], "b": [["B-PER", "I-PER"]], "c": [["B-PER", "I-PER"]]}
    result = agreement(annotations, zero_division=1.0)
    assert [pair["cohen_kappa"] for pair in result["pairs"]] == [1.0, 1.0, 1.0]
    assert result["fleiss_kappa"] == result["krippendorff_alpha"] == 1.0
    assert result["strict_f1_mean"] == result["strict_f1_pooled"] == 1.0
    result = agreement({"a": [["O", "O"]], "b": [["O", "O"]]})
    assert result["units_labelled"] == 0
    assert result["fleiss_kappa_labelled"] == result["krippendorff_alpha_labelled"] == 0.0
    assert result["pairs"][0]["cohen_kappa_labelled"] == 0.0


def test_strings_with_a_sentence_missing_or_empty_agree_as_their_spans():
    texts = ["Ada met Bob", "Cy ran"]
    strings = {"a": [[("PER", "Ada")], None], "b": [[("PER", "Ada"), ("PER", "Bob")], [("PER", "Cy")]], "c": [[], []]}
    spans = {"a": [[(0, 3, "PER")], None], "b": [[(0, 3, "PER"), (8, 11, "PER")], [(0, 2, "PER")]], "c": [[], []]}
    assert agreement(strings, texts=texts) == agreement(spans, texts=texts)


def test_strings_are_labelled_by_character_once_grounded():
    texts = ["Ann met Bob in Rome"]
    annotations = {
        "a": [[("PER", "Ann"), ("PER", "Bob"), ("LOC", "Rome")]],
        "b": [[("PER", "Ann"), ("LOC", "Bob")]],
    }
    result = agreement(annotations, texts=texts)
    spans = {"a": [[(0, 3, "PER"), (8, 11, "PER"), (15, 19, "LOC")]], "b": [[(0, 3, "PER"), (8, 11, "LOC")]]}
    assert result["units"] == len(texts[0])
    assert_coefficients_match(result, span_unit_labels(spans, texts))
    assert (
        result["pairs"][0]["strict_f1"]
        == compute_semeval(predictions=annotations["b"], references=annotations["a"], texts=texts)["strict_f1"]
    )


def test_ids_with_label_list_read_as_their_tags():
    labels = {0: "O", 1: "B-PER", 2: "I-PER"}
    ids = {"a": [[1, 2, 0, -100]], "b": [[1, 0, 0, -100]]}
    tags = {"a": [["B-PER", "I-PER", "O"]], "b": [["B-PER", "O", "O"]]}
    by_ids, by_tags = agreement(ids, label_list=labels), agreement(tags)
    for key in ("fleiss_kappa", "krippendorff_alpha", "units", "strict_f1_mean", "strict_f1_pooled"):
        assert by_ids[key] == by_tags[key], key


@pytest.mark.parametrize(
    ("ids", "options", "message"),
    [
        pytest.param(
            {"a": [[0], [1, 0]], "b": [[0], [-100, 0]]},
            {},
            "annotations['b'], sentence 1, token 0: found ignore_index -100 where annotations['a'] gives a label id; "
            "ignore_index marks a token no annotator labels",
            id="second-ignores-what-the-first-labels",
        ),
        pytest.param(
            {"a": [[0, 0], [0]], "b": [[0, 1], [0]], "c": [[0, -100], [0]]},
            {},
            "annotations['c'], sentence 0, token 1: found ignore_index -100 where annotations['a'] gives a label id",
            id="third-of-three",
        ),
        pytest.param(
            {"a": [[-100, 0]], "b": [[1, 0]]},
            {"min_overlap": 0.5},
            "annotations['a'], sentence 0, token 0: found ignore_index -100 where annotations['b'] gives a label id",
            id="first-ignores-and-the-other-direction-is-scored",
        ),
    ],
)
def test_ignore_index_where_another_annotator_labels_is_refused_in_annotators_terms(ids, options, message):
    # Issue 31: the pair's scoring said "predictions need a label id at every position the references label".
    with pytest.raises(InvalidInputError) as raised:
        agreement(ids, label_list={0: "O", 1: "B-PER"}, **options)
    assert str(raised.value).startswith(message), raised.value
    assert "prediction" not in str(raised.value) and "reference" not in str(raised.value)


def test_ignore_index_of_the_first_annotator_alone_drops_the_token():
    # The token is dropped, as compute_semeval drops a position whose reference is ignore_index (docs/scoring.md §1).
    assert agreement({"a": [[-100, 1]], "b": [[1, 1]]}, label_list={0: "O", 1: "B-PER"})["units"] == 1


def test_options_reach_the_pairs_and_the_units():
    annotations = {"a": [["B-PER", "I-PER", "O", "B-LOC"]], "b": [["I-PER", "I-PER", "O", "B-LOC"]]}
    strict = agreement(annotations, mode="strict", labels=["PER"], per_type=True, beta=2.0)
    expected = compute_semeval(
        predictions=annotations["b"],
        references=annotations["a"],
        mode="strict",
        labels=["PER"],
        per_type=True,
        beta=2.0,
    )
    assert {key: strict["pairs"][0][key] for key in expected} == expected
    assert "strict_f2_mean" in strict and "strict_f2_pooled" in strict
    # Strict mode drops b's ill-formed PER, labels drops LOC: one PER unit pair labelled apart.
    assert strict["units_labelled"] == 2
    assert strict["pairs"][0]["cohen_kappa_labelled"] == pytest.approx(0.0)


@given(
    tag_annotations(),
    st.sampled_from(["lenient", "strict"]),
    st.booleans(),
    st.sampled_from([None, ["PER"], ["LOC", "ORG"]]),
)
@settings(deadline=None)
def test_the_pairs_are_compute_semeval_whatever_the_options(annotations, mode, flag, labels):
    # The pairs read tags coded once as ids (agreement_units.id_batches): the same dicts as the tags would give.
    options = {"mode": mode, "per_type": flag, "return_entities": flag, "confusion": not flag, "labels": labels}
    result = agreement(annotations, **options)
    assert_pairs_match(result, annotations, **options)
    assert_pooled_match(result, annotations, mode=mode, labels=labels)


def test_a_long_sentence_among_short_ones_is_scored_as_tags_not_padded():
    rng = np.random.default_rng(5)
    tags = np.array(["O", "B-PER", "I-PER", "B-LOC"])
    lengths = [3] * 50 + [2_000]
    annotations = {name: [list(tags[rng.integers(0, 4, size)]) for size in lengths] for name in "abc"}
    result = agreement(annotations, return_entities=True)
    assert_pairs_match(result, annotations, return_entities=True)
    assert_coefficients_match(result, tag_unit_labels(annotations))


def test_min_overlap_pools_both_directions_counted_each_way():
    annotations = {"a": [[(0, 10, "PER")]], "b": [[(0, 3, "PER")]]}
    result = agreement(annotations, min_overlap=0.5)
    assert_pooled_match(result, annotations, min_overlap=0.5)


def test_errors_and_entities_rows_are_numbered_among_all_sentences():
    annotations = {"a": [None, [(0, 2, "PER")]], "b": [[(0, 1, "LOC")], [(0, 2, "LOC")]]}
    tokens = [["x", "y"], ["Ann", "Lee"]]
    result = agreement(annotations, return_entities=True, errors=True, tokens=tokens)
    pair = result["pairs"][0]
    assert {row["sentence"] for row in pair["entities"]} == {1}
    assert pair["errors"]


# -- what is refused, and where ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotations", "found"),
    [
        ({"a": [["O"]]}, "at least two"),
        ({"a": [["O"]], "b": [["O"], ["O"]]}, "'a' gives 1 sentences and 'b' 2"),
        ({"a": [["O", "O"]], "b": [[(0, 1, "PER")]]}, "'a' gives tags and 'b' gives spans"),
        ({"a": [["O", "O"]], "b": [["O"]]}, "annotations['b'], sentence 0: annotations['b'] has 1 tags"),
        ({"a": [["O"]], "b": [["B-PER"]], "c": [["X-PER"]]}, "annotations['c'], sentence 0, token 0"),
        ({"a": [[(0, 1, "PER")]], "b": [[(2, 1, "PER")]]}, "annotations['b'], sentence 0, entity 0"),
        ({"a": [None, ["O"]], "b": [None, ["B-PER"]], "c": [["Q"], None]}, "annotations['c'], sentence 0, token 0"),
        ({"a": [["O", None]], "b": [None]}, "annotations['a'], sentence 0, token 1: found None"),
        ({"a": [["O", "O"]], "b": [["O", None]]}, "annotations['b'], sentence 0, token 1: found None"),
        ({"a": [None, [(0, 1, "PER")]], "b": [None, [("PER", "x")]]}, "'a' gives spans and 'b' gives strings"),
        ([("a", [["O"]]), ("b", [["O"]])], "expected annotations as a dict"),
        ({1: [["O"]], "b": [["O"]]}, "found the annotator name 1; expected names as strings"),
        ({"a": [["O", "B-PER"]], "b": [["O", ["B-PER"]]]}, "annotations['b'], sentence 0, token 1: found ['B-PER']"),
        ({"a": [[0, 1]], "b": [[0, 0]]}, "annotations['a'], sentence 0, token 0: found id 0; expected an id of"),
        ({"a": [[("PER", "Ada")]], "b": [[("PER", "Ada")]]}, "string entities need texts="),
    ],
)
def test_bad_annotations_are_errors_naming_the_annotator(annotations, found):
    if found == "expected annotations as a dict":
        with pytest.raises(ValueError, match=found):
            agreement(annotations)
        return
    with pytest.raises(ValueError, match=None) as raised:
        agreement(annotations)
    assert found in str(raised.value)


def test_an_id_past_label_list_is_refused_naming_the_annotator():
    with pytest.raises(ValueError, match=r"^annotations\['b'\], sentence 0, token 1: found id 7; expected an id of"):
        agreement({"a": [[0, 1]], "b": [[0, 7]]}, label_list=["O", "B-PER"])


def test_annotators_as_two_dimensional_arrays_agree_as_their_lists():
    a, b = np.array([["O", "B-PER"], ["B-PER", "O"]]), np.array([["O", "B-PER"], ["O", "O"]])
    assert agreement({"a": a, "b": b}) == agreement({"a": a.tolist(), "b": b.tolist()})


def test_slices_are_refused():
    with pytest.raises(ValueError, match="slices"):
        agreement({"a": [["O"]], "b": [["O"]]}, slices=["length"])


@pytest.mark.parametrize(
    "options",
    [
        # (Red team 2: an array was compared elementwise, numpy's bare "The truth value of an array ... is
        # ambiguous" naming no option.)
        pytest.param({"slices": np.array(["entity_length"])}, id="slices-an-array-of-one"),
        pytest.param({"slices": np.array(["entity_length", "seen"])}, id="slices-an-array-of-two"),
        pytest.param({"seen": np.array(["Ada"])}, id="seen-an-array"),
    ],
)
def test_slices_given_as_an_array_are_refused_by_name(options):
    (name,) = options
    with pytest.raises(ValueError, match=f"^agreement takes no {name}: "):
        agreement({"a": [["O"]], "b": [["O"]]}, **options)


def test_invalid_input_errors_are_value_errors():
    with pytest.raises(InvalidInputError):
        agreement({"a": [["O"]], "b": [["B-PER", "O"]]})


# -- intervals --------------------------------------------------------------------------------------------------------


def test_bootstrap_gives_intervals_around_the_estimates_and_repeats():
    rng = np.random.default_rng(3)
    tags = np.array(["O", "B-PER", "I-PER", "B-LOC"])
    annotations = {name: [list(tags[rng.integers(0, 4, 6)]) for _ in range(40)] for name in "abc"}
    result = agreement(annotations, bootstrap=300, seed=1)
    for key in ("strict_f1_mean", "type_f1_mean", "fleiss_kappa", "krippendorff_alpha"):
        assert result[f"{key}_low"] <= result[key] <= result[f"{key}_high"]
        assert result[f"{key}_low"] < result[f"{key}_high"]
    assert agreement(annotations, bootstrap=300, seed=1) == result
    documents = [sentence // 4 for sentence in range(40)]
    by_document = agreement(annotations, bootstrap=300, seed=1, documents=documents)
    assert by_document["fleiss_kappa"] == result["fleiss_kappa"]
    assert by_document["fleiss_kappa_low"] != result["fleiss_kappa_low"]


def test_the_worked_example_of_docs_agreement_holds(monkeypatch):
    repository = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(repository)  # the page reads examples/ as a user in a clone does
    page = repository / "docs" / "agreement.md"
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


@pytest.mark.parametrize("documents", [None, [0, 0, 0]])
def test_one_unit_to_resample_gives_intervals_of_zero_width_at_the_estimates(documents):
    # Every resample of one sentence (or of one document) is that sentence: the resampled statistic must be the
    # estimate itself, which a statistic written apart from the estimate would miss.
    annotations = {
        "a": [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG"], ["B-PER"]],
        "b": [["B-PER", "O", "O", "B-LOC"], ["B-ORG", "I-ORG"], None],
        "c": [["B-ORG", "I-ORG", "O", "O"], ["O", "B-ORG"], ["O"]],
    }
    if documents is None:
        annotations = {name: batch[:1] for name, batch in annotations.items()}
    result = agreement(annotations, bootstrap=50, documents=documents, min_overlap=0.5)
    keys = [f"{scheme}_f1_mean" for scheme in ("strict", "exact", "partial", "type")]
    for key in [*keys, "fleiss_kappa", "krippendorff_alpha"]:
        assert result[f"{key}_low"] == pytest.approx(result[key], abs=1e-12), key
        assert result[f"{key}_high"] == pytest.approx(result[key], abs=1e-12), key


@pytest.mark.slow
def test_the_intervals_cover_the_population_value_about_as_often_as_they_say():
    # Three annotators who copy a true label (O, PER or LOC by token) with probability 0.8, else draw one: the
    # population's Fleiss κ and α are those of a very large sample; 95% intervals of 60-sentence samples should
    # hold them about 95% of the time (BCa on a few dozen units: 85% to 99% is accepted).
    def sample(rng, sentences):
        truth = rng.choice(["O", "O", "O", "PER", "LOC"], size=(sentences, 8))
        annotations = {}
        for name in "abc":
            copied = rng.random(truth.shape) < 0.8
            drawn = rng.choice(["O", "PER", "LOC"], size=truth.shape)
            labels = np.where(copied, truth, drawn)
            annotations[name] = [[("O" if label == "O" else f"B-{label}") for label in row] for row in labels]
        return annotations

    rng = np.random.default_rng(2029)
    population = agreement(sample(rng, 20_000))
    covered = {"fleiss_kappa": 0, "krippendorff_alpha": 0}
    trials = 120
    for trial in range(trials):
        result = agreement(sample(rng, 60), bootstrap=400, seed=trial)
        for key in covered:
            covered[key] += result[f"{key}_low"] <= population[key] <= result[f"{key}_high"]
    for key, count in covered.items():
        assert 0.85 <= count / trials <= 0.99, (key, count)


def test_a_bootstrap_whose_sums_would_not_fit_is_refused_with_a_way_out(monkeypatch):
    agreement_module = sys.modules["nerscore.agreement_intervals"]
    monkeypatch.setattr(agreement_module, "_MOST_SUM_CELLS", 25)  # 3 sentences x (2 x 4 labels + 3) cells: 33
    annotations = {"a": [["B-PER"], ["B-LOC"], ["B-ORG"]], "b": [["B-PER"], ["O"], ["B-ORG"]]}
    with pytest.raises(ValueError, match=r"pass documents= \(fewer units\), labels= \(fewer types\)"):
        agreement(annotations, bootstrap=10)
    assert "fleiss_kappa_low" in agreement(annotations, bootstrap=10, documents=["d", "d", "e"])


def test_units_of_spans_cost_what_their_entities_cost_never_their_offsets() -> None:
    # The red team's: the units of spans were materialised one by one, so that one entity [0, 10**13) asked for
    # 73 TiB (MemoryError) and [0, 10**7) took 1.6 s. A stretch that every entity covers alike is one row that
    # stands for its units: the counts are exact, and Cohen's and Fleiss' κ, ratios of them, do not change when
    # every offset is multiplied.
    def spans(scale: int) -> dict[str, list]:
        return {"a": [[(0, 3 * scale, "A")], []], "b": [[(scale, 3 * scale, "A"), (4 * scale, 5 * scale, "B")], []]}

    near, far = agreement(spans(1)), agreement(spans(10**13))
    assert (far["units"], far["units_labelled"]) == (5 * 10**13, 4 * 10**13)
    assert (near["units"], near["units_labelled"]) == (5, 4)
    for key in ("fleiss_kappa", "fleiss_kappa_labelled"):
        assert far[key] == pytest.approx(near[key])
    assert far["pairs"][0]["cohen_kappa"] == pytest.approx(near["pairs"][0]["cohen_kappa"])


def test_an_entity_past_what_agreement_counts_is_located() -> None:
    with pytest.raises(InvalidInputError, match=r"annotations\['b'\], sentence 1, entity 0: .* ends past 2\*\*62"):
        agreement({"a": [[], []], "b": [[], [{"fragments": [[0, 1], [5, 10**30]], "type": "A"}]]})


FAR = 2**62


@pytest.mark.parametrize(
    ("annotations", "options", "message"),
    [
        # Plain tuples, lists and dicts are read on arrays: an end past 2**62 that int64 still holds was refused
        # as "the sentences' units add up to ...", naming no annotator, sentence or entity.
        pytest.param(
            {"a": [[], []], "b": [[], [(0, 1, "A"), (0, FAR, "A")]]},
            {},
            r"annotations\['b'\], sentence 1, entity 1: the entity \{'start': 0, 'end': 4611686018427387904, "
            r"'type': 'A'\} ends past 2\*\*62",
            id="tuple-at-2**62",
        ),
        pytest.param(
            {"a": [[[3, FAR + 5, "A"]]], "b": [[]]},
            {},
            r"annotations\['a'\], sentence 0, entity 0: .* ends past 2\*\*62",
            id="list-past-2**62",
        ),
        pytest.param(
            {"a": [[]], "b": [[{"start": 0, "end": 2**63 - 1, "type": "A"}]]},
            {},
            r"annotations\['b'\], sentence 0, entity 0: .* ends past 2\*\*62",
            id="dict-at-int64-max",
        ),
        pytest.param(
            {"a": [[(0, FAR // 2, "A")], [(0, 1, "B"), (0, FAR // 2, "A")]], "b": [[], []]},
            {},
            r"annotations\['a'\], sentence 1, entity 1: the entity \{'start': 0, 'end': 2305843009213693952, "
            r"'type': 'A'\} makes the sentences' units add up to 4611686018427387904 by this sentence; expected at "
            r"most 2\*\*62 units",
            id="sum-reaches-2**62",
        ),
        pytest.param(
            {"a": [[]] * 3, "b": [[(0, FAR - 1, "A")]] * 3},
            {},
            r"annotations\['b'\], sentence 1, entity 0: .* add up to 9223372036854775806 by this sentence",
            id="sum-past-int64",
        ),
        pytest.param(
            {"a": [[(0, FAR, "X"), (0, FAR, "Y")]], "b": [[]]},
            {"labels": ["Y"]},
            r"annotations\['a'\], sentence 0, entity 1: .*'type': 'Y'\} ends past 2\*\*62",
            id="labels-name-the-kept-entity",
        ),
    ],
)
def test_an_entity_past_what_agreement_counts_is_located_on_arrays(annotations, options, message) -> None:
    with pytest.raises(InvalidInputError, match=message):
        agreement(annotations, **options)


@given(span_annotations())
@settings(deadline=None, max_examples=40)
def test_units_taken_as_stretches_give_what_units_taken_one_by_one_give(annotations):
    # Every batch taken as stretches of units (`_DENSE_UNITS` 0): the libraries' coefficients on the units one by
    # one, and the same intervals.
    agreement_module = sys.modules["nerscore.agreement_units"]
    one_by_one = agreement(annotations, bootstrap=20)
    with mock.patch.object(agreement_module, "_DENSE_UNITS", 0):
        stretched = agreement(annotations, bootstrap=20)
    assert_coefficients_match(stretched, span_unit_labels(annotations))
    assert stretched == one_by_one
    texts = ["x" * 40] * len(next(iter(annotations.values())))  # units past every entity, to the text's end
    with mock.patch.object(agreement_module, "_DENSE_UNITS", 0):
        stretched = agreement(annotations, texts=texts)
    assert_coefficients_match(stretched, span_unit_labels(annotations, texts))
    assert stretched == agreement(annotations, texts=texts)


def test_a_malformed_first_entity_is_located_not_read_as_another_form() -> None:
    # The red team's: [3, 5] (no type) as an annotator's first entity gave "annotator 'a' gives spans and 'b' gives
    # tags", naming no sentence; compute_semeval names the entity.
    with pytest.raises(InvalidInputError, match=r"annotations\['b'\], sentence 0, entity 0: found \[3, 5\], a list"):
        agreement({"a": [[(0, 1, "A")]], "b": [[[3, 5]]]})
    with pytest.raises(ValueError, match="annotator 'a' gives spans and 'b' gives tags"):
        agreement({"a": [[(0, 1, "A")]], "b": [["B-A", "O"]]})


@pytest.mark.parametrize(
    "columns, message",
    [
        pytest.param({"texts": ["Ada", None]}, r"^texts, sentence 1: found None; expected", id="a-text-that-is-none"),
        pytest.param({"texts": ["Ada", 5]}, r"^texts, sentence 1: found 5; expected", id="a-text-that-is-a-number"),
        pytest.param({"tokens": [["Ada"], "Bob"]}, r"^tokens, sentence 1: found 'Bob'; expected", id="tokens-a-string"),
    ],
)
def test_a_column_value_of_the_wrong_form_is_located(columns, message) -> None:
    # A text that is no string once reached len() as a TypeError; it is refused as compute_semeval refuses it.
    annotations = {"a": [[(0, 3, "PER")], []], "b": [[(0, 3, "PER")], []]}
    with pytest.raises(InvalidInputError, match=message):
        agreement(annotations, **columns)


@pytest.mark.parametrize(
    "columns, message",
    [
        pytest.param({"texts": 5}, r"^texts: found 5; expected", id="texts-a-number"),
        pytest.param({"tokens": True}, r"^tokens: found True; expected", id="tokens-a-bool"),
        pytest.param({"documents": np.array(1), "bootstrap": 20}, r"^documents: found", id="documents-a-0-d-array"),
        pytest.param(
            {"documents": [np.array([1, 2])], "bootstrap": 20},
            r"^documents, sentence 0: found \[1, 2\], which is not hashable",
            id="a-document-an-array",
        ),
    ],
)
def test_a_column_of_the_wrong_form_is_located(columns, message) -> None:
    # A column that is no list (texts=5) once escaped as TypeError "'int' object is not iterable"; a document id
    # that numpy turns hashable (np.array(1).tolist()) was checked so but used as given: "unhashable type".
    with pytest.raises(InvalidInputError, match=message):
        agreement({"a": [["B-PER"]], "b": [["O"]]}, **columns)


@pytest.mark.parametrize(
    "columns",
    [
        pytest.param({"texts": 5}, id="texts-a-number"),
        pytest.param({"texts": ["Ada", "Bob"]}, id="texts-too-many"),
        pytest.param({"tokens": [["Ada", 3]]}, id="a-token-no-string"),
        pytest.param({"documents": []}, id="documents-too-few"),
        pytest.param({"documents": [{"d": 1}]}, id="a-document-unhashable"),
    ],
)
def test_a_column_is_refused_as_compute_semeval_refuses_it(columns) -> None:
    # One check of the columns (Columns.read) for both: the same words, the same place.
    with pytest.raises(InvalidInputError) as expected:
        compute_semeval(predictions=[["O"]], references=[["B-PER"]], **columns)
    with pytest.raises(InvalidInputError) as found:
        agreement({"a": [["B-PER"]], "b": [["O"]]}, **columns)
    assert str(found.value) == str(expected.value)


def test_documents_are_read_as_compute_semeval_reads_them() -> None:
    # A document numpy gives (np.array(1)) is the id 1, as compute_semeval reads it: it raised "unhashable type".
    annotations = {"a": [["B-PER"], ["O"]], "b": [["O"], ["B-LOC"]]}
    as_arrays = agreement(annotations, documents=[np.array(1), np.array(1)], bootstrap=50)
    assert as_arrays == agreement(annotations, documents=[1, 1], bootstrap=50)


@pytest.mark.parametrize("batch", [np.array(1), np.array("B-PER")], ids=["ids", "tags"])
def test_an_annotator_s_batch_that_is_a_0_d_array_names_the_annotator(batch) -> None:
    # "iteration over a 0-d array" escaped as a TypeError.
    with pytest.raises(InvalidInputError, match=r"^annotations\['b'\]: found ndarray; expected a batch"):
        agreement({"a": [["O"]], "b": batch})


def _onion_peak(entities: int) -> int:
    import tracemalloc

    annotations = {
        "a": [[(index, 2 * entities - index, "T") for index in range(entities)]],
        "b": [[(index, 2 * entities - index - 1, "T") for index in range(entities)]],
    }
    tracemalloc.start()
    try:
        agreement(annotations)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_units_of_nested_spans_cost_what_their_entities_cost_not_their_depth() -> None:
    # (Red team, issue 31: agreement_units listed every entity in every segment it covers, n**2 (segment, entity)
    # pairs for an onion of n, memory x4 as n doubled; each type's entities are now merged into runs first.)
    _onion_peak(50)  # (the first call's imports)
    assert _onion_peak(800) < 3 * _onion_peak(400)


def _covering_labels_by_hand(start, end, type_id, type_names, units) -> list[str]:
    """Each unit's label as docs/scoring.md §13 words it: "O", or the distinct types covering it, sorted, joined."""
    labels = []
    for unit in range(units):
        kinds = sorted({type_names[kind] for first, last, kind in zip(start, end, type_id) if first <= unit < last})
        labels.append("|".join(kinds) if kinds else "O")
    return labels


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 25).flatmap(
        lambda units: st.lists(
            st.tuples(st.integers(0, units - 1), st.integers(0, units), st.integers(0, 3)), min_size=1, max_size=12
        ).map(lambda entities: (units, entities))
    )
)
def test_each_unit_is_labelled_by_the_types_covering_it(case) -> None:
    # Nested, crossing, touching and empty entities of up to four types: the runs each type's entities are merged
    # into label every unit as the types covering it, one by one, would.
    from nerscore.agreement_units import _covering_labels

    units, entities = case
    start, end, kind = (np.array(column, dtype=np.int64) for column in zip(*entities))
    end = np.maximum(np.minimum(end, units), start)
    names = ["PER", "LOC", "ORG", "MISC"]
    codes, labels = _covering_labels(start, end, kind, names, units)
    assert [labels[code] for code in codes.tolist()] == _covering_labels_by_hand(start, end, kind, names, units)
