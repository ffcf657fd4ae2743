"""`diagnostics=True` and `errors=True` (docs/scoring.md §11): named cases of each diagnostic, recounts from the
`entities` rows on random tags and nested spans, the array paths equal to the readable path, tags, ids and
spans in token units alike, batches that add, and errors refused without a text."""

from __future__ import annotations

import json
import re
from collections import Counter
from itertools import pairwise
from typing import Any
from unittest import mock

import pytest
import strategies
from conftest import REPO, WORKED_EXAMPLE, as_inputs, compare_semeval_refuses, worked_example, worked_example_sentences
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nerscore as ns
from nerscore import cli, main
from nerscore.forms import span_arrays, tag_arrays
from nerscore.options import flag_name, in_words
from nerscore.table.columns import Columns
from nerscore.tally import DIAGNOSTIC_KEYS, Tally

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FINDINGS = {"diagnostics": True, "errors": True}
WORDS = ("a", "b", "Rio")  # few words, so that errors of the same texts and types add up


def findings_of(result: dict[str, Any]) -> dict[str, Any]:
    return {key: result[key] for key in (*DIAGNOSTIC_KEYS, "errors")}


def spans(*entities: tuple[int, int, str]) -> list[dict[str, Any]]:
    return [{"start": start, "end": end, "type": entity_type} for start, end, entity_type in entities]


# (references, predictions) of one sentence as spans over 10 tokens, and the diagnostics expected.
DIAGNOSTIC_CASES = [
    pytest.param([(2, 4, "PER")], [(1, 4, "PER")], {"boundary_too_long": 1}, id="prediction-starts-earlier"),
    pytest.param([(2, 4, "PER")], [(2, 6, "LOC")], {"boundary_too_long": 1}, id="too-long-of-another-type"),
    pytest.param([(2, 6, "PER")], [(3, 5, "PER")], {"boundary_too_short": 1}, id="prediction-strictly-inside"),
    pytest.param([(2, 6, "PER")], [(2, 5, "PER")], {"boundary_too_short": 1}, id="same-start-ends-early"),
    pytest.param([(2, 5, "PER")], [(3, 7, "PER")], {"boundary_crossing": 1}, id="crossing-to-the-right"),
    pytest.param([(2, 5, "PER")], [(0, 3, "LOC")], {"boundary_crossing": 1}, id="crossing-to-the-left"),
    pytest.param(
        [(0, 6, "PER")],
        [(0, 2, "PER"), (3, 6, "PER")],
        {"boundary_too_short": 1, "split": 1},
        id="split-in-two-one-paired",
    ),
    pytest.param(
        [(0, 2, "PER"), (3, 6, "PER")],
        [(0, 6, "PER")],
        {"boundary_too_long": 1, "merged": 1},
        id="merged-two-one-paired",
    ),
    pytest.param(
        [(0, 3, "PER"), (3, 6, "LOC")],
        [(1, 4, "PER"), (4, 5, "LOC")],
        {"boundary_crossing": 1, "boundary_too_short": 1, "split": 1, "merged": 1},
        id="a-chain",
    ),
    pytest.param([(0, 2, "PER")], [(0, 2, "LOC")], {}, id="same-boundaries-is-no-boundary-error"),
    pytest.param([(0, 2, "PER")], [(5, 7, "PER")], {}, id="no-overlap-no-diagnostic"),
    # Pairing aside: a reference overlapped by a prediction paired elsewhere still counts as split.
    pytest.param(
        [(0, 4, "PER"), (4, 6, "PER")],
        [(0, 2, "PER"), (3, 6, "PER")],
        {"boundary_too_short": 1, "boundary_too_long": 1, "split": 1, "merged": 1},
        id="split-and-merged-across-pairs",
    ),
    # Nested and repeated spans: each copy is an entity.
    pytest.param([(0, 6, "PER")], [(0, 6, "PER"), (1, 2, "LOC")], {"split": 1}, id="nested-prediction-inside-a-pair"),
    pytest.param([(0, 3, "PER"), (0, 3, "PER")], [(1, 5, "PER")], {"boundary_crossing": 1, "merged": 1}, id="copies"),
]


@pytest.mark.parametrize("references, predictions, expected", DIAGNOSTIC_CASES)
@pytest.mark.parametrize("path", ["array", "readable"])
def test_each_diagnostic(references, predictions, expected, path) -> None:
    result = ns.compute_semeval(
        predictions=[spans(*predictions)],
        references=[spans(*references)],
        diagnostics=True,
        return_entities=path == "readable",
    )
    assert {key: result[key] for key in DIAGNOSTIC_KEYS} == {key: expected.get(key, 0) for key in DIAGNOSTIC_KEYS}


@pytest.mark.parametrize(
    "min_overlap, expected",
    [
        pytest.param(None, {"split": 1, "boundary_too_short": 1}, id="any-overlap"),
        # The second prediction covers 1 of the reference's 4 tokens: below a half it overlaps nothing.
        pytest.param(0.5, {"boundary_too_short": 1}, id="min-overlap-drops-the-small-one"),
        pytest.param(0.25, {"split": 1, "boundary_too_short": 1}, id="min-overlap-at-the-share"),
    ],
)
@pytest.mark.parametrize("path", ["array", "readable"])
def test_min_overlap_decides_what_overlaps(min_overlap, expected, path) -> None:
    result = ns.compute_semeval(
        predictions=[["B-PER", "I-PER", "O", "B-PER"]],
        references=[["B-PER", "I-PER", "I-PER", "I-PER"]],
        diagnostics=True,
        min_overlap=min_overlap,
        return_entities=path == "readable",
    )
    assert {key: result[key] for key in DIAGNOSTIC_KEYS} == {key: expected.get(key, 0) for key in DIAGNOSTIC_KEYS}


def test_errors_rows_worked_example() -> None:
    tokens = [["John", "Smith", "saw", "New", "York", "Inc", "."]]
    result = ns.compute_semeval(
        predictions=[["B-PER", "I-PER", "O", "B-LOC", "I-LOC", "O", "B-ORG"]],
        references=[["B-PER", "O", "O", "B-LOC", "B-LOC", "B-ORG", "O"]],
        tokens=tokens,
        errors=True,
    )
    assert result["errors"] == [
        {"scenario": "II", "reference_text": None, "reference_type": None, "predicted_text": ".",
         "predicted_type": "ORG", "count": 1},
        {"scenario": "III", "reference_text": "Inc", "reference_type": "ORG", "predicted_text": None,
         "predicted_type": None, "count": 1},
        {"scenario": "III", "reference_text": "York", "reference_type": "LOC", "predicted_text": None,
         "predicted_type": None, "count": 1},
        {"scenario": "V", "reference_text": "John", "reference_type": "PER", "predicted_text": "John Smith",
         "predicted_type": "PER", "count": 1},
        {"scenario": "V", "reference_text": "New", "reference_type": "LOC", "predicted_text": "New York",
         "predicted_type": "LOC", "count": 1},
    ]  # fmt: skip


# ---------------------------------------------------------------------------------------------------------
# Recounted from the entities rows: an oracle that knows nothing of the arrays or of `reducers.diagnostics`
# ---------------------------------------------------------------------------------------------------------


def covers(reference: dict, prediction: dict, min_overlap: float | None) -> bool:
    shared = min(reference["end"], prediction["end"]) - max(reference["start"], prediction["start"])
    if shared <= 0:
        return False
    return min_overlap is None or shared / (reference["end"] - reference["start"]) >= min_overlap


def recounted(rows: list[dict], text, min_overlap: float | None) -> dict[str, Any]:
    """Diagnostics and errors recounted from the `entities` rows alone, by brute force."""
    counts = dict.fromkeys(DIAGNOSTIC_KEYS, 0)
    by_sentence: dict[int, tuple[list, list]] = {}
    errors: Counter = Counter()
    for row in rows:
        reference, prediction = row["reference"], row["prediction"]
        sides = by_sentence.setdefault(row["sentence"], ([], []))
        if reference is not None:
            sides[0].append(reference)
        if prediction is not None:
            sides[1].append(prediction)
        if row["scenario"] in ("V", "VI"):
            if prediction["start"] <= reference["start"] and reference["end"] <= prediction["end"]:
                counts["boundary_too_long"] += 1
            elif reference["start"] <= prediction["start"] and prediction["end"] <= reference["end"]:
                counts["boundary_too_short"] += 1
            else:
                counts["boundary_crossing"] += 1
        if row["scenario"] != "I":
            errors[
                (
                    row["scenario"],
                    None if reference is None else text(row["sentence"], reference),
                    None if reference is None else reference["type"],
                    None if prediction is None else text(row["sentence"], prediction),
                    None if prediction is None else prediction["type"],
                )
            ] += 1
    for references, predictions in by_sentence.values():
        counts["split"] += sum(sum(covers(r, p, min_overlap) for p in predictions) >= 2 for r in references)
        counts["merged"] += sum(sum(covers(r, p, min_overlap) for r in references) >= 2 for p in predictions)
    ranked = sorted(errors.items(), key=lambda item: (-item[1], *((v is not None, v or "") for v in item[0])))
    names = ("scenario", "reference_text", "reference_type", "predicted_text", "predicted_type")
    return {**counts, "errors": [{**dict(zip(names, key)), "count": number} for key, number in ranked]}


def token_text(tokens: list[list[str]]):
    return lambda sentence, entity: " ".join(tokens[sentence][entity["start"] : entity["end"]])


@pytest.mark.parametrize("scheme", ["IOB2", "IOBES", "IO"])
@SETTINGS
@given(data=st.data())
def test_tags_agree_with_the_entities_rows_and_the_readable_path(scheme: str, data: st.DataObject) -> None:
    predictions, references = data.draw(strategies.soup_batches(scheme, max_sentences=6))
    tokens = [data.draw(st.lists(st.sampled_from(WORDS), min_size=len(r), max_size=len(r))) for r in references]
    min_overlap = data.draw(st.sampled_from([None, None, 0.25, 0.5, 1.0]))
    mode = data.draw(st.sampled_from(ns.MODES))
    labels = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(strategies.TYPES), min_size=1, max_size=2)))
    options = {"scheme": scheme, "mode": mode, "min_overlap": min_overlap, "labels": labels, **FINDINGS}
    chunk_tokens = data.draw(st.sampled_from([1, 5, tag_arrays._CHUNK_TOKENS]))
    with mock.patch.object(tag_arrays, "_CHUNK_TOKENS", chunk_tokens):
        fast = ns.compute_semeval(predictions=predictions, references=references, tokens=tokens, **options)
        fast_by_sentence = ns.compute_semeval(
            predictions=predictions, references=references, tokens=tokens, bootstrap=3, **options
        )
    readable = ns.compute_semeval(
        predictions=predictions, references=references, tokens=tokens, return_entities=True, **options
    )
    expected = recounted(readable["entities"], token_text(tokens), min_overlap)
    assert findings_of(readable) == expected
    assert findings_of(fast) == expected
    assert findings_of(fast_by_sentence) == expected


@SETTINGS
@given(data=st.data())
def test_nested_spans_agree_with_the_entities_rows_and_the_readable_path(data: st.DataObject) -> None:
    size = data.draw(st.integers(0, 5))
    references = [data.draw(strategies.nested_spans()) for _ in range(size)]
    predictions = [data.draw(strategies.nested_spans()) for _ in range(size)]
    texts = [data.draw(st.text("ab ", min_size=12, max_size=12)) for _ in range(size)]
    min_overlap = data.draw(st.sampled_from([None, None, 0.25, 0.5, 1.0]))
    options = {"min_overlap": min_overlap, **FINDINGS}
    chunk = data.draw(st.sampled_from([1, 3, span_arrays._CHUNK_ENTITIES]))
    keep_sentences = data.draw(st.booleans())  # nested sentences go another way with each sentence's counts
    limit = data.draw(st.sampled_from([span_arrays._POSITION_LIMIT, 4]))  # past it, a chunk goes the readable way
    with (
        mock.patch.object(span_arrays, "_CHUNK_ENTITIES", chunk),
        mock.patch.object(span_arrays, "_POSITION_LIMIT", limit),
    ):
        counted = span_arrays.count_spans(
            predictions, references, ns.Options.of(**options), keep_sentences, Columns.of(size, texts=texts)
        )
    assert counted is not None
    readable = ns.compute_semeval(
        predictions=predictions, references=references, texts=texts, return_entities=True, **options
    )
    expected = recounted(
        readable["entities"], lambda sentence, entity: texts[sentence][entity["start"] : entity["end"]], min_overlap
    )
    assert findings_of(readable) == expected
    fast = ns.compute.result_dict(counted.tally, ns.Options.of(**options))
    assert findings_of(fast) == expected


@SETTINGS
@given(data=st.data())
def test_tags_ids_and_spans_in_token_units_agree(data: st.DataObject) -> None:
    sentences = data.draw(strategies.span_batches(max_sentences=5))
    tokens = [data.draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n)) for n, _, _ in sentences]
    tags_r = [ns.encode([ns.Span(*span) for span in reference], n) for n, reference, _ in sentences]
    tags_p = [ns.encode([ns.Span(*span) for span in prediction], n) for n, _, prediction in sentences]
    label_list = sorted({tag for side in (tags_r, tags_p) for sentence in side for tag in sentence} | {"O"})
    ids = {tag: index for index, tag in enumerate(label_list)}
    options = {"min_overlap": data.draw(st.sampled_from([None, 0.5])), **FINDINGS}
    as_tags = ns.compute_semeval(predictions=tags_p, references=tags_r, tokens=tokens, **options)
    as_ids = ns.compute_semeval(
        predictions=[[ids[t] for t in s] for s in tags_p],
        references=[[ids[t] for t in s] for s in tags_r],
        tokens=tokens,
        label_list=label_list,
        **options,
    )
    as_spans = ns.compute_semeval(
        predictions=[spans(*prediction) for _, _, prediction in sentences],
        references=[spans(*reference) for _, reference, _ in sentences],
        tokens=tokens,
        **options,
    )
    assert findings_of(as_tags) == findings_of(as_ids) == findings_of(as_spans)


@SETTINGS
@given(data=st.data())
def test_batches_add(data: st.DataObject) -> None:
    predictions, references = data.draw(strategies.soup_batches("IOB2", max_sentences=6))
    tokens = [data.draw(st.lists(st.sampled_from(WORDS), min_size=len(r), max_size=len(r))) for r in references]
    whole = ns.compute_semeval(predictions=predictions, references=references, tokens=tokens, **FINDINGS)
    tally = Tally()
    for first, last in data.draw(strategies.splits(len(references))):
        counted, _ = ns.compute.count_batch(
            predictions[first:last],
            references[first:last],
            "tags",
            ns.Options.of(**FINDINGS),
            False,
            Columns.of(last - first, tokens=tokens[first:last]),
        )
        tally = tally + counted.tally
    assert findings_of(ns.compute.result_dict(tally, ns.Options.of(**FINDINGS))) == findings_of(whole)


def test_metric_add_batch_keeps_the_tokens(metric) -> None:
    predictions = [["B-PER", "I-PER", "O"], ["O", "B-LOC", "I-LOC"], ["B-ORG", "O", "O"]]
    references = [["B-PER", "O", "O"], ["B-LOC", "I-LOC", "I-LOC"], ["O", "O", "B-ORG"]]
    tokens = [["Ann", "Lee", "sang"], ["in", "Rio", "Grande"], ["Acme", "sold", "Acme"]]
    for first, last in pairwise([0, 1, 3]):
        metric.add_batch(
            predictions=predictions[first:last], references=references[first:last], tokens=tokens[first:last]
        )
    result = metric.compute(**FINDINGS)
    expected = ns.compute_semeval(predictions=predictions, references=references, tokens=tokens, **FINDINGS)
    assert findings_of(result) == findings_of(expected)
    assert result["boundary_too_long"] == 1 and result["boundary_too_short"] == 1
    assert {"scenario": "II", "reference_text": None, "reference_type": None, "predicted_text": "Acme",
            "predicted_type": "ORG", "count": 1} in result["errors"]  # fmt: skip


@pytest.mark.parametrize(
    "given, columns, message",
    [
        pytest.param(
            [["B-PER"]], {}, r"tokens: errors=True .* found neither tokens nor texts .*pass tokens=", id="tags"
        ),
        pytest.param([["B-PER"]], {"texts": ["Ann"]}, r"found texts but no tokens for these tags", id="tags-texts"),
        pytest.param([[(0, 3, "PER")]], {}, r"texts: errors=True .*spans; pass tokens= \(tags\) or texts=", id="spans"),
    ],
)
def test_errors_without_a_text_are_refused(given, columns, message) -> None:
    with pytest.raises(ValueError, match=message):
        ns.compute_semeval(predictions=given, references=given, errors=True, **columns)
    ns.compute_semeval(predictions=given, references=given, diagnostics=True, **columns)  # needs no text


@pytest.mark.parametrize(
    "value, message",
    [
        pytest.param(0, "errors must be True, False or a whole number >= 1", id="zero"),
        pytest.param(2.5, "errors must be True, False or a whole number >= 1", id="float"),
        pytest.param("all", "errors must be True, False or a whole number >= 1", id="string"),
    ],
)
def test_errors_option_is_checked(value, message) -> None:
    with pytest.raises(ValueError, match=message):
        ns.Options.of(errors=value)


@pytest.mark.parametrize("option", [{"diagnostics": True}, {"errors": 3}])
def test_compare_semeval_refuses_them(option) -> None:
    tags = [["B-PER", "O"]]
    refused = compare_semeval_refuses()
    assert re.search(r"\bdiagnostics\b.*\berrors\b", refused), refused  # both refused, as the table says
    with pytest.raises(ValueError, match=rf"^compare_semeval takes neither {re.escape(refused)}, found"):
        ns.compare_semeval(predictions_a=tags, predictions_b=tags, references=tags, tokens=[["a", "b"]], **option)


# ---------------------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------------------


def test_command_line_page_shows_the_worked_example_tables(capsys) -> None:
    page = (REPO / "docs" / "command-line.md").read_text(encoding="utf-8")
    shown = re.search(r"<!-- worked-example-diagnostics -->\s*```\n(.*?)```", page, flags=re.S)
    assert shown is not None
    assert main(["--diagnostics", "--errors", "10", str(WORKED_EXAMPLE)]) == 0
    assert capsys.readouterr().out.endswith("\n" + shown.group(1))


def test_command_line_json_is_compute_with_the_file_tokens(capsys) -> None:
    assert main(["--diagnostics", "--errors", "2", "--json", str(WORKED_EXAMPLE)]) == 0
    printed = json.loads(capsys.readouterr().out)
    sentences = worked_example_sentences()
    expected = ns.compute_semeval(
        **as_inputs(worked_example()), tokens=[s.tokens for s in sentences], diagnostics=True, errors=2
    )
    assert printed == expected
    assert len(printed["errors"]) == 2


def test_command_line_spans_take_each_line_text(tmp_path, capsys) -> None:
    lines = [
        {"text": "Ada met Bob", "references": [[0, 3, "PER"], [8, 11, "PER"]], "predictions": [[0, 7, "PER"]]},
        {"text": "Bob", "references": [], "predictions": [[0, 3, "LOC"]]},
    ]
    path = tmp_path / "spans.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert main(["--spans", str(path), "--errors", "5", "--diagnostics", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["boundary_too_long"] == 1
    assert [(row["scenario"], row["reference_text"], row["predicted_text"]) for row in printed["errors"]] == [
        ("II", None, "Bob"),
        ("III", "Bob", None),
        ("V", "Ada", "Ada met"),
    ]
    del lines[1]["text"]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert main(["--spans", str(path), "--errors", "5"]) == 2
    assert capsys.readouterr().err == f"{path}:2: found no 'text'; --errors names each entity by its text\n"
    assert main(["--spans", str(path), "--diagnostics"]) == 0  # needs no text


def test_command_line_compare_takes_neither(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--compare", str(WORKED_EXAMPLE), str(WORKED_EXAMPLE), "--diagnostics"])
    # The flags refused are named off Options.ADDING (cli.refused_by), --diagnostics and --errors among them.
    refused = cli.refused_by("--compare")
    assert {"diagnostics", "errors"} <= set(refused)
    dropped = in_words(map(flag_name, refused))
    assert f"--compare reports overall scores: drop {dropped}" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("path", ["array", "readable"])
@pytest.mark.parametrize("min_overlap", [None, 0.5])
def test_copies_are_one_overlap_not_the_product(path, min_overlap) -> None:
    # 20,000 identical entities a side overlap in 4 * 10**8 pairs, gigabytes as edges: they are folded into one
    # extent a side, so memory follows the entities (tracemalloc's peak, not a clock).
    import tracemalloc

    copies = [[(0, 5, "PER")] * 20_000]
    tracemalloc.start()
    try:
        result = ns.compute_semeval(
            predictions=copies,
            references=copies,
            diagnostics=True,
            min_overlap=min_overlap,
            return_entities=path == "readable",
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result["split"] == result["merged"] == 20_000
    assert peak < 100_000_000
