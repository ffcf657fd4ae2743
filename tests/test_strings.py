"""Issue 17: entities as surface strings, grounded to the text (docs/scoring.md §1b), as an input form of the metric.

The order of the lists shuffled, strings against the spans they ground to, the worked example as strings, errors,
options, eval4ner side by side, the evaluate wrapper and the command line. The grounding itself is tested in
test_grounding.py (one text), test_joint_grounding.py (contested occurrences) and test_string_batches.py (a batch)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from math import prod

import grounding_oracle as oracle
import pytest
from conftest import REPO, WORKED_SUMMARY
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from nerscore import InvalidInputError, compute_semeval

TYPES = ("X", "Y")


@st.composite
def documents(draw, most: int = 4):
    """A tiny text over two letters (so strings recur and overlap), references that occur, predictions that may
    not; the enumeration the oracle does is kept below a few thousand groundings."""
    text = draw(st.text(alphabet="ab ", min_size=1, max_size=7))
    pieces = sorted({text[i:j] for i in range(len(text)) for j in range(i + 1, min(len(text), i + 3) + 1)})
    pieces = [piece for piece in pieces if piece.strip() == piece and piece]
    assume(pieces)
    references = []
    for _ in range(draw(st.integers(0, most))):
        needle = draw(st.sampled_from(pieces))
        if sum(n == needle for _, n in references) < len(oracle.occurrences(text, needle)):
            references.append((draw(st.sampled_from(TYPES)), needle))
    strings = st.one_of(st.sampled_from(pieces), st.text(alphabet="ab", min_size=1, max_size=2))
    predictions = draw(st.lists(st.tuples(st.sampled_from(TYPES), strings), max_size=most))
    size = prod(len(oracle.occurrences(text, needle)) + 1 for _, needle in predictions)
    assume(size <= 400)
    return text, references, predictions


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(documents(most=5), st.randoms(use_true_random=False))
def test_the_order_of_the_predictions_changes_no_count(document, shuffler) -> None:
    text, references, predictions = document
    shuffled = list(predictions)
    shuffler.shuffle(shuffled)
    first = compute_semeval(predictions=[predictions], references=[references], texts=[text], per_type=True)
    second = compute_semeval(predictions=[shuffled], references=[references], texts=[text], per_type=True)
    assert first == second


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(documents(most=5))
def test_strings_score_as_the_spans_they_ground_to(document) -> None:
    text, references, predictions = document
    result = compute_semeval(
        predictions=[predictions], references=[references], texts=[text], return_entities=True, per_type=True
    )
    rows = result.pop("entities")
    reference_spans = [(r["start"], r["end"], r["type"]) for r in (row["reference"] for row in rows) if r]
    predicted_spans = [(p["start"], p["end"], p["type"]) for p in (row["prediction"] for row in rows) if p]
    grounded = [span for span in predicted_spans if span[0] is not None]
    # Spans into the same texts: with no entity on either side, not tags of no token (tests/test_fronts.py).
    spans = compute_semeval(predictions=[grounded], references=[reference_spans], texts=[text], per_type=True)
    assert spans.pop("ungrounded") == 0
    ungrounded = result.pop("ungrounded")
    if not ungrounded:
        assert result == spans
    assert result["strict_spurious"] == spans["strict_spurious"] + ungrounded
    # References given as the spans they ground to: the same predictions grounded alike.
    assert compute_semeval(predictions=[predictions], references=[reference_spans], texts=[text], per_type=True) == {
        **result,
        "ungrounded": ungrounded,
    }


# ---------------------------------------------------------------------------------------------------------
# Rows and the worked example as strings (the grounding's named cases: test_grounding.py)
# ---------------------------------------------------------------------------------------------------------


def test_rows_give_offsets_and_the_strings_as_given() -> None:
    result = compute_semeval(
        predictions=[[{"type": "LOC", "text": "new  york"}, ["LOC", "Paris"]]],
        references=[[{"label": "LOC", "text": "New York"}]],
        texts=["I love New  York"],
        return_entities=True,
        normalize=True,
    )
    assert result["entities"] == [
        {
            "sentence": 0,
            "reference": {"start": 7, "end": 16, "type": "LOC", "text": "New York"},
            "prediction": {"start": 7, "end": 16, "type": "LOC", "text": "new  york"},
            "scenario": "I",
            "strict": "COR",
            "exact": "COR",
            "partial": "COR",
            "type": "COR",
        },
        {
            "sentence": 0,
            "reference": None,
            "prediction": {"start": None, "end": None, "type": "LOC", "text": "Paris"},
            "scenario": "II",
            "strict": "SPU",
            "exact": "SPU",
            "partial": "SPU",
            "type": "SPU",
        },
    ]
    assert result["ungrounded"] == 1


def test_the_worked_example_as_strings_reproduces_the_table() -> None:
    lines = [
        json.loads(line)
        for line in (REPO / "examples" / "worked_example_strings.jsonl").read_text("utf-8").splitlines()
    ]
    result = compute_semeval(
        predictions=[line["predictions"] for line in lines],
        references=[line["references"] for line in lines],
        texts=[line["text"] for line in lines],
    )
    for measure, values in WORKED_SUMMARY.items():  # docs/scoring.md §6, the scores as floats
        schemes = ("type", "partial", "exact", "strict")
        assert tuple(result[f"{scheme}_{measure.lower()}"] for scheme in schemes) == tuple(map(float, values))
    assert result["ungrounded"] == 0


# ---------------------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("predictions", "references", "texts", "located", "says"),
    [
        ([[("X", "a")]], [[]], None, ("predictions", None, None), "no texts"),
        ([[("X", "a")]], [[]], [3], ("texts", 0, None), "expected the sentence's"),
        ([[("X", "a")]], [[]], ["a", "b"], ("texts", None, None), "found 2 values for 1 sentences"),
        ([[("X", "a"), (1, 2)]], [[]], ["a"], ("predictions", 0, 1), "expected a (type, text) pair"),
        ([[("X", "a"), ("X", 2)]], [[]], ["a"], ("predictions", 0, 1), "type first"),
        ([[("X", "")]], [[]], ["a"], ("predictions", 0, 0), "text is empty"),
        ([[("X", "a"), (0, 1, "X")]], [[]], ["a"], ("predictions", 0, 1), "never a mix"),
        ([[(0, 1, "X"), ("X", "a")]], [[("X", "a")]], ["a"], ("predictions", 0, 1), "never a mix"),
        ([[]], [[("X", "b")]], ["a"], ("references", 0, 0), "does not occur"),
        ([[]], [[("Ada", "PER")]], ["Ada met"], ("references", 0, 0), "is (type, text): pass ('PER', 'Ada')"),
        (
            [[]],
            [[("X", "a"), ("X", "a")]],
            ["a"],
            ("references", 0, 1),
            "occurs only 1 time in the sentence's text and is listed 2 times",
        ),
        ([[{"type": "X"}]], [[("X", "a")]], ["a"], ("predictions", 0, 0), "no 'start'"),
        (
            [[{"label": "X", "string": "a"}]],
            [[("X", "a")]],
            ["a"],
            ("predictions", 0, 0),
            "tuple, or with texts= a string entity {'type': ..., 'text': ...}",
        ),
        ([[("Y", "b"), ("X", "   ")]], [[]], ["a"], ("predictions", 0, 1), "empty once normalised"),
        ([[("X", "a")]], [["B-X"]], ["a"], (None, None, None), "hold tags"),
    ],
    ids=[
        "no-texts",
        "text-not-a-string",
        "texts-of-wrong-length",
        "two-non-strings",
        "text-not-a-string-in-entity",
        "empty-text",
        "side-mixes-strings-and-spans",
        "spans-side-mixes",
        "reference-not-in-text",
        "reference-as-text-then-type",
        "reference-listed-too-often",
        "dict-without-text-or-offsets",
        "string-entity-under-other-keys",
        "blank-once-normalised",
        "strings-against-tags",
    ],
)
def test_bad_input_is_a_located_error(predictions, references, texts, located, says) -> None:
    options = {"normalize": True, "labels": ["X"]} if says == "empty once normalised" else {}
    with pytest.raises(ValueError, match=re.escape(says)) as raised:
        compute_semeval(predictions=predictions, references=references, texts=texts, **options)
    if isinstance(raised.value, InvalidInputError):
        side, sentence, entity = located
        assert (raised.value.side, raised.value.sentence, raised.value.entity) == (side, sentence, entity)


def test_tag_options_are_refused_as_for_spans() -> None:
    with pytest.raises(ValueError, match="scheme"):
        compute_semeval(predictions=[[("X", "a")]], references=[[]], texts=["a"], scheme="IOBES")


def test_a_json_list_of_two_strings_is_a_string_entity() -> None:
    given = json.loads('[[["LOC", "York"]]]')
    assert compute_semeval(predictions=given, references=given, texts=["New York"])["strict_correct"] == 1


# ---------------------------------------------------------------------------------------------------------
# Everything else, as with spans
# ---------------------------------------------------------------------------------------------------------


def test_labels_ground_references_over_all_then_drop_other_types() -> None:
    # The PER reference takes the first Paris before labels drop it; the LOC one the second.
    text = "Paris and Paris"
    references = [[("PER", "Paris"), ("LOC", "Paris")]]
    result = compute_semeval(
        predictions=[[("LOC", "Paris")]], references=references, texts=[text], labels=["LOC"], return_entities=True
    )
    assert result["strict_correct"] == 1
    assert result["entities"][0]["reference"]["start"] == 10


def test_options_work_with_strings_as_with_spans() -> None:
    text = "Angela Merkel met Emmanuel Macron in Berlin."
    references = [[("PER", "Angela Merkel"), ("PER", "Emmanuel Macron"), ("LOC", "Berlin")]]
    predictions = [[("PER", "Angela Merkel"), ("PER", "Macron"), ("ORG", "Berlin"), ("LOC", "Paris")]]
    spans_r = [[(0, 13, "PER"), (18, 33, "PER"), (37, 43, "LOC")]]
    spans_p = [[(0, 13, "PER"), (27, 33, "PER"), (37, 43, "ORG")]]
    for options in (
        {"per_type": True},
        {"confusion": True},
        {"min_overlap": 0.5},
        {"bootstrap": 50},
        {"labels": ["PER"]},
    ):
        strings = compute_semeval(predictions=predictions, references=references, texts=[text], **options)
        spans = compute_semeval(predictions=[[*spans_p[0]]], references=spans_r, **options)
        ungrounded = strings.pop("ungrounded")
        assert ungrounded == (0 if "labels" in options else 1)
        if "labels" in options:
            assert strings == spans
        else:
            assert strings["strict_spurious"] == spans["strict_spurious"] + 1
            assert strings["strict_correct"] == spans["strict_correct"]


def test_compare_semeval_takes_strings() -> None:
    from nerscore import compare_semeval

    text = ["Angela Merkel met Emmanuel Macron in Berlin."]
    references = [[("PER", "Angela Merkel"), ("LOC", "Berlin")]]
    result = compare_semeval(
        predictions_a=[[("PER", "Merkel")]],
        predictions_b=[[("PER", "Angela Merkel"), ("LOC", "Berlin")]],
        references=references,
        texts=text,
        n_resamples=50,
    )
    assert result["strict_f1_b"] == 1.0 and result["strict_f1_a"] == 0.0
    normalized = compare_semeval(
        predictions_a=[[("PER", "merkel")]],
        predictions_b=[[("PER", "angela  MERKEL"), ("LOC", "berlin")]],
        references=references,
        texts=text,
        n_resamples=50,
        normalize=True,
    )
    assert normalized["strict_f1_b"] == 1.0


def test_ungrounded_is_there_whenever_texts_are() -> None:
    assert compute_semeval(predictions=[[(0, 1, "X")]], references=[[(0, 1, "X")]], texts=["a"])["ungrounded"] == 0
    assert "ungrounded" not in compute_semeval(predictions=[[(0, 1, "X")]], references=[[(0, 1, "X")]])


# ---------------------------------------------------------------------------------------------------------
# Linear: a text in which the string occurs 10,000 times
# ---------------------------------------------------------------------------------------------------------


def test_shuffled_batches_of_many_sentences() -> None:
    rng = random.Random(0)
    texts, references, predictions = [], [], []
    for _ in range(200):
        words = [rng.choice(["Paris", "York", "New York", "Berlin", "and"]) for _ in range(6)]
        text = " ".join(words)
        texts.append(text)
        listed = [("LOC", w) for w in words if w != "and"]
        references.append(listed[: rng.randint(0, len(listed))])
        guessed = [(rng.choice(["LOC", "PER"]), rng.choice(words)) for _ in range(rng.randint(0, 4))]
        predictions.append(guessed)
    first = compute_semeval(predictions=predictions, references=references, texts=texts, per_type=True)
    shuffled = [rng.sample(sentence, len(sentence)) for sentence in predictions]
    assert compute_semeval(predictions=shuffled, references=references, texts=texts, per_type=True) == first


# ---------------------------------------------------------------------------------------------------------
# eval4ner 0.1.0, side by side (docs/scoring.md §8, "eval4ner and strings")
# ---------------------------------------------------------------------------------------------------------

eval4ner = pytest.importorskip("eval4ner.muc")
FIELDS = {
    "correct": "correct",
    "incorrect": "incorrect",
    "partial": "partial",
    "missed": "missed",
    "spurius": "spurious",
}
WORDS = ("Paris", "Berlin", "New York", "York", "Rome", "Oslo", "Lima", "Nice", "Bern")


def eval4ner_counts(predictions, references, texts) -> dict[str, int]:
    totals: Counter = Counter()
    for prediction, reference, text in zip(predictions, references, texts):
        result = eval4ner.evaluate_one(prediction=prediction, ground_truth=reference, text=text)
        for scheme in ("strict", "exact", "partial", "type"):
            for theirs, ours in FIELDS.items():
                totals[f"{scheme}_{ours}"] += result[scheme][theirs]
    return dict(totals)


def our_counts(predictions, references, texts, **options) -> dict[str, int]:
    result = compute_semeval(predictions=predictions, references=references, texts=texts, **options)
    return {
        f"{scheme}_{ours}": result[f"{scheme}_{ours}"]
        for scheme in ("strict", "exact", "partial", "type")
        for ours in FIELDS.values()
    }


@st.composite
def eval4ner_sentences(draw):
    """A sentence where eval4ner reads strings right: non-empty, each string occurring once, no overlap within a
    side, every entity overlapping at most one entity of the other side."""
    words = draw(
        st.lists(st.sampled_from(["Paris", "Berlin", "Rome", "Oslo", "Lima"]), min_size=1, max_size=5, unique=True)
    )
    text = " ".join(f"{word} x" for word in words)  # "Paris x Berlin x": each word and "word x" occurs once
    references, predictions = [], []
    for word in words:
        kind = draw(st.sampled_from(["none", "ref", "pred", "both"]))
        if kind in ("ref", "both"):
            references.append((draw(st.sampled_from(TYPES)), word))
        if kind in ("pred", "both"):
            predictions.append((draw(st.sampled_from(TYPES)), draw(st.sampled_from([word, f"{word} x", word[1:]]))))
    assume(references or predictions)
    return text, references, predictions


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(eval4ner_sentences(), min_size=1, max_size=6))
def test_counts_agree_with_eval4ner_where_it_reads_strings_right(sentences) -> None:
    texts = [text for text, _, _ in sentences]
    references = [list(references) for _, references, _ in sentences]
    predictions = [list(predictions) for _, _, predictions in sentences]
    assert our_counts(predictions, references, texts) == eval4ner_counts(predictions, references, texts)


EVAL4NER_FAILURES = [
    # (text, references, predictions, eval4ner's strict counts, ours)
    ("abc", [], [], {"correct": 1, "incorrect": 1, "partial": 1, "missed": 1, "spurius": 1}, {}),
    (
        "New York",
        [("LOC", "New York")],
        [("LOC", "York"), ("LOC", "New York")],
        {"incorrect": 1, "spurius": 1},
        {"correct": 1, "spurious": 1},
    ),
    ("York is not New York", [("LOC", "New York")], [("LOC", "York")], {"missed": 1, "spurius": 1}, {"incorrect": 1}),
    (
        "Paris and Paris",
        [("LOC", "Paris"), ("LOC", "Paris")],
        [("LOC", "and Paris")],
        {"missed": 2, "spurius": 1},
        {"incorrect": 1, "missed": 1},
    ),
]


@pytest.mark.parametrize(
    ("text", "references", "predictions", "theirs", "ours"),
    EVAL4NER_FAILURES,
    ids=["empty-sentence-counts-one-everywhere", "list-order", "first-occurrence-only", "position-ignored"],
)
def test_where_eval4ner_reads_strings_wrong(text, references, predictions, theirs, ours) -> None:
    result = eval4ner.evaluate_one(prediction=predictions, ground_truth=references, text=text)
    assert {key: value for key, value in result["strict"].items() if key in FIELDS and value} == theirs
    counted = our_counts([predictions], [references], [text])
    assert {key.removeprefix("strict_"): n for key, n in counted.items() if key.startswith("strict_") and n} == ours
    # The other order of the list: eval4ner changes its answer, this metric does not.
    if len(predictions) > 1:
        other = eval4ner.evaluate_one(prediction=predictions[::-1], ground_truth=references, text=text)
        assert {key: value for key, value in other["strict"].items() if key in FIELDS and value} != theirs
        assert our_counts([predictions[::-1]], [references], [text]) == counted


def test_eval4ner_averages_over_sentences_where_counts_add_here() -> None:
    texts = ["a", "a b c d"]
    references = [[("X", "a")], [("X", "a")]]
    predictions = [[("X", "a")], [("X", "a"), ("X", "b"), ("X", "c"), ("X", "d")]]
    assert eval4ner.evaluate_all(predictions, references, texts)["strict"]["f1_score"] == pytest.approx(0.7)
    result = compute_semeval(predictions=predictions, references=references, texts=texts)
    assert (result["strict_precision"], result["strict_recall"], result["strict_f1"]) == (0.4, 1.0, 4 / 7)


def test_eval4ner_crashes_on_json_lists_where_they_are_pairs_here() -> None:
    given = json.loads('[["LOC", "York"]]')
    with pytest.raises(ValueError, match="not in list"):
        eval4ner.evaluate_one(prediction=given, ground_truth=given, text="York")
    assert our_counts([given], [given], ["York"])["strict_correct"] == 1


def test_the_worked_example_as_strings_agrees_with_eval4ner() -> None:
    lines = [
        json.loads(line)
        for line in (REPO / "examples" / "worked_example_strings.jsonl").read_text("utf-8").splitlines()
    ]
    texts = [line["text"] for line in lines]
    references = [[tuple(e) for e in line["references"]] for line in lines]
    predictions = [[tuple(e) for e in line["predictions"]] for line in lines]
    assert our_counts(predictions, references, texts) == eval4ner_counts(predictions, references, texts)


# ---------------------------------------------------------------------------------------------------------
# The evaluate wrapper: string entities stored with each batch, texts beside them
# ---------------------------------------------------------------------------------------------------------


def test_add_batch_stores_strings_and_spans_and_scores_as_one_call(load_metric, tmp_path) -> None:
    metric = load_metric(cache_dir=str(tmp_path))
    batches = [
        ([[("LOC", "York")]], [[["LOC", "New York"]]], ["I love New York"]),
        ([[{"label": "PER", "text": "Ann"}, ("LOC", "Rome")]], [[{"type": "PER", "text": "Ann"}]], ["Ann"]),
    ]
    for predictions, references, texts in batches:
        metric.add_batch(predictions=predictions, references=references, texts=texts)
    stored = metric.compute(return_entities=True, per_type=True)
    whole = compute_semeval(
        predictions=[p for batch in batches for p in batch[0]],
        references=[r for batch in batches for r in batch[1]],
        texts=[t for batch in batches for t in batch[2]],
        return_entities=True,
        per_type=True,
    )
    assert stored == whole
    assert stored["ungrounded"] == 1


def test_a_side_keeps_its_form_over_the_batches(load_metric, tmp_path) -> None:
    metric = load_metric(cache_dir=str(tmp_path))
    metric.add_batch(predictions=[[("LOC", "York")]], references=[[("LOC", "York")]], texts=["York"])
    with pytest.raises(
        ValueError, match="references in spans where the batches added before hold references in strings"
    ):
        metric.add_batch(predictions=[[("LOC", "York")]], references=[[(0, 4, "LOC")]], texts=["York"])
    assert metric.compute()["strict_correct"] == 1
    # A compute ends the evaluation: the next one may give that side in spans.
    metric.add_batch(predictions=[[("LOC", "York")]], references=[[(0, 4, "LOC")]], texts=["York"])
    assert metric.compute()["strict_correct"] == 1


# ---------------------------------------------------------------------------------------------------------
# The command line: --spans reads JSON lines whose entities are strings, with --normalize
# ---------------------------------------------------------------------------------------------------------


def test_the_command_line_scores_the_worked_example_as_strings(capsys) -> None:
    from nerscore import main

    assert main(["--spans", str(REPO / "examples" / "worked_example_strings.jsonl"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["strict_correct"], result["partial_partial"], result["type_correct"], result["ungrounded"]) == (
        1,
        2,
        2,
        0,
    )


def test_the_command_line_normalizes_and_counts_ungrounded(tmp_path, capsys) -> None:
    from nerscore import main

    path = tmp_path / "strings.jsonl"
    line = {
        "text": "I love New  York",
        "references": [["LOC", "New York"]],
        "predictions": [{"type": "LOC", "text": "new york"}, ["LOC", "Rome"]],
    }
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert main(["--spans", str(path), "--normalize"]) == 0
    out = capsys.readouterr().out
    assert (
        out.splitlines()[0]
        == "processed 1 documents with 1 reference and 2 predicted entities (strings, normalized, 1 ungrounded)"
    )
    # Without it, the reference's one space does not match the text's two.
    assert main(["--spans", str(path)]) != 0
    assert "references, entity 0: the text 'New York' does not occur" in capsys.readouterr().err


def test_the_command_line_names_the_line_without_text(tmp_path, capsys) -> None:
    from nerscore import main

    path = tmp_path / "strings.jsonl"
    path.write_text('{"references": [["LOC", "York"]], "predictions": []}\n', encoding="utf-8")
    assert main(["--spans", str(path)]) != 0
    assert "strings.jsonl:1: found string entities and no 'text'" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------------------------
# The options of spans, on string entities (the quick way of grounding: test_string_batches.py)
# ---------------------------------------------------------------------------------------------------------


# The options of issues 18-20 on string entities: grounded spans are spans, and an ungrounded prediction is a
# spurious one that overlaps nothing, so each equals the same spans with the ungrounded placed apart.
MERGED_TEXTS = ["Ada met Bob in Paris", "Bob and Ada", "Rome"]
MERGED_REFERENCES = [[("PER", "Ada"), ("PER", "Bob"), ("LOC", "Paris")], [("PER", "Bob"), ("PER", "Ada")], []]
MERGED_PREDICTIONS = [
    [("PER", "Ada met"), ("LOC", "Bob"), ("LOC", "Oslo")],
    [("PER", "Bob and Ada"), ("PER", "Ada")],
    [("LOC", "Rome"), ("ORG", "Acme")],
]
# The same as spans: each ungrounded prediction placed after its text, where it overlaps nothing.
MERGED_SPAN_REFERENCES = [[(0, 3, "PER"), (8, 11, "PER"), (15, 20, "LOC")], [(0, 3, "PER"), (8, 11, "PER")], []]
MERGED_SPAN_PREDICTIONS = [
    [(0, 7, "PER"), (8, 11, "LOC"), (100, 104, "LOC")],
    [(0, 11, "PER"), (8, 11, "PER")],
    [(0, 4, "LOC"), (100, 104, "ORG")],
]


@pytest.mark.parametrize(
    "options",
    [
        {"value": True, "partial_credit": "overlap", "per_type": True},
        {"value": "ace08", "bootstrap": 50, "documents": ["d1", "d1", "d2"]},
        {"partial_credit": 0.25, "diagnostics": True},
        {"value": True, "return_entities": True, "diagnostics": True},
        {"labels": ["PER"], "value": True, "partial_credit": "overlap"},
    ],
    ids=["value-overlap-per-type", "value-bootstrap-documents", "credit-diagnostics", "entities-value", "labels"],
)
def test_string_entities_take_the_options_of_spans(options) -> None:
    strings = compute_semeval(
        predictions=MERGED_PREDICTIONS, references=MERGED_REFERENCES, texts=MERGED_TEXTS, **options
    )
    spans = compute_semeval(predictions=MERGED_SPAN_PREDICTIONS, references=MERGED_SPAN_REFERENCES, **options)
    assert strings.pop("ungrounded") == (0 if options.get("labels") else 2)  # Oslo and Acme
    if "entities" in strings:
        rows, span_rows = strings.pop("entities"), spans.pop("entities")
        placed = [row for row in span_rows if row["prediction"] and row["prediction"]["start"] >= 100]
        kept = [row for row in span_rows if row not in placed]
        assert [
            row["value_pair"] for row in rows if row["prediction"] is None or row["prediction"]["start"] is not None
        ] == [row["value_pair"] for row in kept]
        assert [row["value_pair"] for row in rows if row["prediction"] and row["prediction"]["start"] is None] == [
            None
        ] * len(placed)
    assert strings == spans


def test_string_entities_errors_name_the_ungrounded_by_their_strings() -> None:
    result = compute_semeval(
        predictions=MERGED_PREDICTIONS, references=MERGED_REFERENCES, texts=MERGED_TEXTS, errors=True, diagnostics=True
    )
    named = {(row["predicted_text"], row["predicted_type"]) for row in result["errors"]}
    assert ("Oslo", "LOC") in named and ("Acme", "ORG") in named and ("Ada met", "PER") in named
    assert result["boundary_too_long"] >= 1


def test_string_entities_normalized_errors_name_the_strings_as_given() -> None:
    result = compute_semeval(
        predictions=[[("LOC", "  OSLO "), ("PER", "ada")]],
        references=[[("PER", "Ada")]],
        texts=["Ada"],
        normalize=True,
        errors=True,
    )
    named = {(row["predicted_text"], row["predicted_type"]) for row in result["errors"]}
    assert ("  OSLO ", "LOC") in named and result["ungrounded"] == 1


def test_runs_of_string_predictions() -> None:
    import nerscore

    runs = [MERGED_PREDICTIONS, [[("PER", "Ada"), ("PER", "Bob"), ("LOC", "Paris")], [], [("LOC", "Rome")]]]
    summary = nerscore.summarize_runs(runs=runs, references=MERGED_REFERENCES, texts=MERGED_TEXTS)
    one = compute_semeval(predictions=runs[1], references=MERGED_REFERENCES, texts=MERGED_TEXTS)
    assert summary["strict_f1_max"] == pytest.approx(max(one["strict_f1"], summary["strict_f1_min"]))


def test_the_command_line_reads_documents_and_errors_of_strings(tmp_path, capsys) -> None:
    from nerscore import main

    lines = [
        {"text": text, "document": document, "references": references, "predictions": predictions}
        for text, document, references, predictions in zip(
            MERGED_TEXTS, ["d1", "d1", "d2"], MERGED_REFERENCES, MERGED_PREDICTIONS
        )
    ]
    path = tmp_path / "strings.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert main(["--spans", str(path), "--json", "--errors", "5", "--bootstrap", "50", "--value", "true"]) == 0
    result = json.loads(capsys.readouterr().out)
    expected = compute_semeval(
        predictions=MERGED_PREDICTIONS,
        references=MERGED_REFERENCES,
        texts=MERGED_TEXTS,
        documents=["d1", "d1", "d2"],
        errors=5,
        bootstrap=50,
        value=True,
    )
    assert {key: result[key] for key in expected} == expected
    assert main(["--spans", str(path), "--bootstrap", "50"]) == 0
    assert "of the 2 documents ('document' fields) of 3 lines" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------------------
# ungrounded in the comparisons and the runs; the sentence_length slice of strings (issue 17's leftovers)
# ---------------------------------------------------------------------------------------------------------

# A second system on MERGED_TEXTS: Paris grounded, Lyon and Nice ungrounded.
OTHER_PREDICTIONS = [[("PER", "Ada"), ("LOC", "Paris"), ("LOC", "Lyon")], [("PER", "Bob")], [("LOC", "Nice")]]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, (2, 2)),
        ({"slices": ["sentence_length"]}, (2, 2)),
        ({"labels": ["PER"]}, (0, 0)),  # grounding applies labels first: no LOC or ORG is left to ground
        ({"documents": ["d1", "d1", "d2"], "value": True}, (2, 2)),
    ],
    ids=["plain", "slices", "labels", "documents-value"],
)
def test_compare_semeval_counts_each_systems_ungrounded(options, expected) -> None:
    from nerscore import compare_semeval

    result = compare_semeval(
        predictions_a=MERGED_PREDICTIONS,
        predictions_b=OTHER_PREDICTIONS,
        references=MERGED_REFERENCES,
        texts=MERGED_TEXTS,
        n_resamples=20,
        **options,
    )
    each = [
        compute_semeval(predictions=predictions, references=MERGED_REFERENCES, texts=MERGED_TEXTS, **options)
        for predictions in (MERGED_PREDICTIONS, OTHER_PREDICTIONS)
    ]
    assert (result["ungrounded_a"], result["ungrounded_b"]) == expected == tuple(one["ungrounded"] for one in each)
    assert type(result["ungrounded_a"]) is int and type(result["ungrounded_b"]) is int
    if "slices" in options:
        assert "ungrounded_a" not in result["slices"]["sentence_length"]["11-20"]  # a key of the totals


@pytest.mark.parametrize(
    ("texts", "expected"),
    [(["abc"], {"ungrounded_a": 0, "ungrounded_b": 0}), (None, {})],
    ids=["spans-with-texts", "spans-without-texts"],
)
def test_compare_semeval_has_ungrounded_whenever_texts_are(texts, expected) -> None:
    from nerscore import compare_semeval

    result = compare_semeval(
        predictions_a=[[(0, 1, "X")]], predictions_b=[[]], references=[[(0, 1, "X")]], texts=texts, n_resamples=20
    )
    assert {key: value for key, value in result.items() if key.startswith("ungrounded")} == expected


def test_runs_summarize_and_compare_the_ungrounded() -> None:
    import nerscore

    runs = [MERGED_PREDICTIONS, OTHER_PREDICTIONS, [*MERGED_PREDICTIONS[:2], []]]
    summary = nerscore.summarize_runs(runs=runs, references=MERGED_REFERENCES, texts=MERGED_TEXTS)
    assert (summary["ungrounded_min"], summary["ungrounded_max"], summary["ungrounded_mean"]) == (1, 2, 5 / 3)
    spans = nerscore.summarize_runs(runs=[[[(0, 1, "X")]]], references=[[(0, 1, "X")]], texts=["abc"])
    assert (spans["ungrounded_mean"], spans["ungrounded_std"]) == (0.0, 0.0)  # there whenever texts are
    assert not any(key.startswith("ungrounded") for key in nerscore.summarize_runs(runs=[[[]]], references=[[]]))
    compared = nerscore.compare_runs(
        runs_a=runs[:2], runs_b=runs[2:], references=MERGED_REFERENCES, texts=MERGED_TEXTS, n_resamples=20
    )
    assert (compared["ungrounded_a_mean"], compared["ungrounded_b_mean"]) == (2.0, 1.0)
    # One run a side is compare_semeval, `_a_mean` for `_a`, ungrounded included.
    one = nerscore.compare_runs(
        runs_a=runs[:1], runs_b=runs[1:2], references=MERGED_REFERENCES, texts=MERGED_TEXTS, n_resamples=20
    )
    pair = nerscore.compare_semeval(
        predictions_a=runs[0], predictions_b=runs[1], references=MERGED_REFERENCES, texts=MERGED_TEXTS, n_resamples=20
    )
    renamed = {
        key[:-2] + "_a_mean" if key.endswith("_a") else key[:-2] + "_b_mean" if key.endswith("_b") else key: value
        for key, value in pair.items()
    }
    assert one == {**renamed, "runs_a": 1, "runs_b": 1}


# The same within the texts, which a span past its text's end may not leave (docs/scoring.md §1): Oslo where it
# overlaps nothing, Acme on "Rome", where no reference is.
MERGED_SPAN_PREDICTIONS_IN_TEXTS = [
    [(0, 7, "PER"), (8, 11, "LOC"), (11, 15, "LOC")],
    [(0, 11, "PER"), (8, 11, "PER")],
    [(0, 4, "LOC"), (0, 4, "ORG")],
]


@pytest.mark.parametrize(
    "options",
    [{}, {"return_entities": True}, {"bootstrap": 30}, {"errors": True, "slice_edges": {"sentence_length": [21]}}],
    ids=["array-path", "readable-path", "bootstrap", "errors-other-edges"],
)
def test_sentence_length_of_strings_is_the_texts_length(options) -> None:
    # "Ada met Bob in Paris" is 20 characters, 25 with its ungrounded Oslo placed after it: its bucket is its own
    # length's, as for the same entities given as spans into the same texts.
    sliced = {"slices": ["sentence_length"], **options}
    strings = compute_semeval(
        predictions=MERGED_PREDICTIONS, references=MERGED_REFERENCES, texts=MERGED_TEXTS, **sliced
    )
    spans = compute_semeval(
        predictions=MERGED_SPAN_PREDICTIONS_IN_TEXTS, references=MERGED_SPAN_REFERENCES, texts=MERGED_TEXTS, **sliced
    )
    buckets = strings["slices"]["sentence_length"]
    if "slice_edges" in options:
        assert list(buckets) == ["<21"]
    else:
        assert list(buckets) == ["1-10", "11-20"]
        assert buckets["11-20"]["strict_spurious"] == 1  # Oslo, in the bucket of its sentence's 20 characters
    assert strings.pop("ungrounded") == 2 and spans.pop("ungrounded") == 0
    strings.pop("entities", None), spans.pop("entities", None)
    if "errors" in options:  # the errors name the ungrounded by their strings, the spans by the texts' characters
        strings.pop("errors"), spans.pop("errors")
    assert strings == spans
