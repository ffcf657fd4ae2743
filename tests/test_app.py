"""The Space (app.py): its plain functions, and the app itself launched in this process and called through
gradio_client, as a user's script would call the Space's `/evaluate` endpoint."""

from __future__ import annotations

import functools
import inspect
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from fractions import Fraction
from typing import Any
from unittest import mock

import pytest
from conftest import REPO, WORKED_SUMMARY, crossed, deferred_import
from hypothesis import given, settings
from hypothesis import strategies as st

import ner_semeval
from space import answers, caps, colours, figures, frames, parsing, pictures, scoring, texts, writing

app = deferred_import("app")  # gradio: imported when a test of the page runs, not when the file is collected
page_events = deferred_import("space.page_events")

# The worked example of docs/scoring.md §6, first table, with the app's columns (scenario, reference type and
# text, predicted type and text, then type / partial / exact / strict).
WORKED_SCENARIOS = [
    ["III", "MUSIC_NAME", "告白气球", "—", "—", "MIS", "MIS", "MIS", "MIS"],
    ["II", "—", "—", "MUSIC_NAME", "年轮", "SPU", "SPU", "SPU", "SPU"],
    ["V", "MUSIC_NAME", "告白气球", "MUSIC_NAME", "一首告白气球", "COR", "PAR", "INC", "INC"],
    ["IV", "MUSIC_NAME", "告白气球", "SINGER", "告白气球", "INC", "COR", "COR", "INC"],
    ["I", "MUSIC_NAME", "告白气球", "MUSIC_NAME", "告白气球", "COR", "COR", "COR", "COR"],
    ["VI", "MUSIC_NAME", "告白气球", "SINGER", "一首告白气球", "INC", "PAR", "INC", "INC"],
]


def summary_values(rows: list[list[str]]) -> dict[str, tuple]:
    """The summary table's cells as numbers: counts as int, scores as exact Fractions of their decimals."""
    return {row[0]: tuple(Fraction(cell) if "." in cell else int(cell) for cell in row[1:]) for row in rows}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# ---------------------------------------------------------------------------------------------------------
# The app over HTTP, through gradio_client
# ---------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator:
    from gradio_client import Client

    demo = app.build_demo()
    port = free_port()
    demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port, quiet=True)
    try:
        yield Client(f"http://127.0.0.1:{port}/", verbose=False)
    finally:
        demo.close()


def test_client_worked_example_gives_the_documented_tables(client):
    status, scenarios, summary, per_type, sentences = client.predict(
        texts.WORKED_EXAMPLE, "IOB2", "lenient", api_name="/evaluate"
    )
    assert status.startswith("Evaluated 6 sentences")
    assert summary["headers"] == ["measure", "type", "partial", "exact", "strict"]
    assert summary_values(summary["data"]) == WORKED_SUMMARY
    assert list(WORKED_SUMMARY) == [row[0] for row in summary["data"]]  # the documented row order
    assert [row[1:] for row in scenarios["data"]] == WORKED_SCENARIOS
    assert [row[0] for row in scenarios["data"]] == ["1", "2", "3", "4", "5", "6"]
    assert {row[0] for row in per_type["data"]} == {"MUSIC_NAME", "SINGER"}
    assert "告白气球" in sentences


def test_client_evaluate_endpoint_is_unchanged_by_the_pictures(client):
    # The page's own events draw two pictures and compare two systems; API callers keep /evaluate's three inputs
    # and five outputs, the values of evaluate_text, and see three other endpoints, /compare, /spans and
    # /agreement (issue 29: added after /spans, which is why the list grew).
    api = client.view_api(print_info=False, return_format="dict")
    assert list(api["named_endpoints"]) == ["/evaluate", "/compare", "/spans", "/agreement"]
    endpoint = api["named_endpoints"]["/evaluate"]
    assert [parameter["parameter_name"] for parameter in endpoint["parameters"]] == ["text", "scheme", "mode"]
    assert len(endpoint["returns"]) == 5
    answer = client.predict(texts.WORKED_EXAMPLE, "IOB2", "lenient", api_name="/evaluate")
    assert len(answer) == 5
    status, scenarios, summary, per_type, sentences = answers.evaluate_text(texts.WORKED_EXAMPLE, "IOB2", "lenient")
    assert answer[0] == status
    assert answer[1]["data"] == scenarios.data.values.tolist()
    assert answer[2]["data"] == summary.values.tolist()
    assert answer[3]["data"] == per_type.values.tolist()
    assert answer[4] == sentences


def test_client_scenario_outcomes_are_colour_coded(client):
    _, scenarios, *_ = client.predict(texts.WORKED_EXAMPLE, "IOB2", "lenient", api_name="/evaluate")
    styling = scenarios["metadata"]["styling"]
    for row, styles in zip(scenarios["data"], styling):
        for outcome, style in zip(row[-4:], styles[-4:]):
            assert f"background-color: {colours.OUTCOME_COLOURS[outcome]}" in style
        assert not any(styles[:-4])  # only the outcome cells are coloured


def test_client_malformed_input_gives_message_and_app_stays_usable(client):
    broken = texts.WORKED_EXAMPLE.replace("年 O B-MUSIC_NAME", "年 O X-MUSIC_NAME")
    status, scenarios, summary, per_type, sentences = client.predict(broken, "IOB2", "lenient", api_name="/evaluate")
    assert status.startswith("⚠️ **Cannot evaluate.** Line 12, predicted tag (last column): found tag 'X-MUSIC\\_NAME'")
    assert "unknown prefix 'X'" in status
    assert scenarios["data"] == summary["data"] == per_type["data"] == []
    assert sentences == ""

    status, _, summary, *_ = client.predict(texts.WORKED_EXAMPLE, "IOB2", "lenient", api_name="/evaluate")
    assert status.startswith("Evaluated")
    assert summary_values(summary["data"]) == WORKED_SUMMARY


def test_client_one_column_line_names_the_line(client):
    status, *_ = client.predict("Paris B-LOC B-LOC\nBerlin\n", "IOB2", "lenient", api_name="/evaluate")
    assert "Line 2: found 1 column ('Berlin'); expected at least 3 columns" in status


def test_client_scheme_and_mode_reach_the_metric(client):
    _, scenarios, summary, *_ = client.predict(texts.IOBES_EXAMPLE, "IOBES", "lenient", api_name="/evaluate")
    _, strict_scenarios, strict_summary, *_ = client.predict(
        texts.IOBES_EXAMPLE, "IOBES", "strict", api_name="/evaluate"
    )
    # docs/scoring.md §2: IOBES `B-LOC I-LOC` with no E- is an entity in lenient mode (I) and none in strict mode (III).
    assert [row[1] for row in scenarios["data"]][-1] == "I"
    assert [row[1] for row in strict_scenarios["data"]][-1] == "III"
    assert summary_values(summary["data"])["missed"] == (0, 0, 0, 0)
    assert summary_values(strict_summary["data"])["missed"] == (1, 1, 1, 1)


def call_endpoint(client, *data) -> tuple[str, object]:
    """`/evaluate` called over plain HTTP with `data` as JSON (gradio_client cannot send every string: it refuses
    to encode a lone surrogate): the stream's last event and its data."""
    url = f"{client.src.rstrip('/')}/gradio_api/call/evaluate"
    request = urllib.request.Request(url, json.dumps({"data": data}).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        event_id = json.load(response)["event_id"]
    with urllib.request.urlopen(f"{url}/{event_id}", timeout=60) as response:
        events = response.read().decode().strip().split("\n\n")
    kind, data_line = events[-1].split("\n")
    return kind.removeprefix("event: "), json.loads(data_line.removeprefix("data: "))


def test_endpoint_answers_a_lone_surrogate_with_a_message(client):
    kind, outputs = call_endpoint(client, "a\ud800 B-PER B-PER", "IOB2", "lenient")
    assert kind == "complete"
    assert outputs[0].startswith("⚠️ **Cannot evaluate.** Line 1, character 2: U+D800 is half of a UTF-16 surrogate")
    status, *_ = client.predict("Paris B-LOC B-LOC\n", "IOB2", "lenient", api_name="/evaluate")
    assert status.startswith("Evaluated 1 sentence")


# A client can send any value for the choice controls, not only what the widgets offer. Gradio refused a value off
# their choices before the event ran, with an error of its own that quoted the whole value (2 MB for a 2 MB scheme)
# and a traceback in the server's log; the page's functions answer it in their words, the value shortened.
OFF_THE_CHOICES = {
    "a scheme of 2 MB": ("x" * 2_000_000, "lenient"),
    "a mode that is a number": ("IOB2", 1.5),
    "a scheme that is a dict": ({"x": [1]}, "lenient"),
}


@pytest.mark.parametrize("endpoint", ["/evaluate", "/compare", "/agreement"])
@pytest.mark.parametrize("choices", list(OFF_THE_CHOICES.values()), ids=list(OFF_THE_CHOICES))
def test_endpoints_answer_values_off_their_choices_with_a_short_message(client, endpoint, choices):
    status = client.predict("Paris B-LOC B-LOC B-LOC\n", *choices, api_name=endpoint)[0]
    assert status.startswith("⚠️ **Cannot"), status[:200]
    assert len(status) < 2 * caps.MAX_MESSAGE_CHARACTERS


def many_types_text() -> str:
    """Just under 1 MB in which every entity has a type of its own: 101,710 types in 50,855 lines."""
    lines = []
    for number in range(50_855):
        lines.append(f"t B-R{number} B-P{number}")
        if number % 10 == 9:
            lines.append("")
    return "\n".join(lines) + "\n"


def one_sentence_text() -> str:
    """Just under 1 MB as one sentence of 71,427 one-token entities."""
    return "a B-PER B-PER\n" * 71_427


@pytest.mark.slow
@pytest.mark.parametrize(
    ("make_text", "left_out"),
    [
        pytest.param(
            many_types_text,
            "The per-type table shows the 50 most frequent of 101,710 entity types.",
            id="100000-types",
        ),
        pytest.param(one_sentence_text, "Sentence 1 is cut after 2,000 of 71,427 tokens", id="one-1MB-sentence"),
    ],
)
def test_client_answer_to_a_1mb_input_stays_small(client, make_text, left_out):
    # Uncapped, these answers were 22 MB each (and 37 s and 7 s); what the page shows bounds the answer.
    text = make_text()
    assert caps.MAX_BYTES - 100 < len(text.encode()) <= caps.MAX_BYTES
    status, scenarios, summary, per_type, sentences = client.predict(text, "IOB2", "lenient", api_name="/evaluate")
    size = len(json.dumps([status, scenarios, summary, per_type, sentences], ensure_ascii=False).encode())
    assert size < 5_000_000
    assert status.startswith("Evaluated")
    assert left_out in status + sentences
    assert len(scenarios["data"]) == caps.MAX_TABLE_ROWS
    assert len(per_type["data"]) <= 4 * caps.MAX_SHOWN_TYPES


@pytest.mark.slow
def test_python_app_py_honours_server_name_and_port():
    port = free_port()
    environment = {**os.environ, "GRADIO_SERVER_NAME": "127.0.0.1", "GRADIO_SERVER_PORT": str(port)}
    process = subprocess.Popen(
        [sys.executable, "app.py"], cwd=REPO, env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    try:
        page = None
        for _ in range(240):  # up to two minutes on a busy machine; usually a few seconds
            if process.poll() is not None:
                pytest.fail(f"python app.py exited: {process.stdout.read().decode(errors='replace')}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/config", timeout=5) as response:
                    page = response.read().decode()
                break
            except OSError:
                time.sleep(0.5)
        assert page is not None, "python app.py did not answer"
        assert "ner_semeval: SemEval-2013 NER scores" in page
    finally:
        process.terminate()
        process.wait(timeout=30)


# ---------------------------------------------------------------------------------------------------------
# Plain functions
# ---------------------------------------------------------------------------------------------------------


def test_evaluate_text_worked_example_matches_the_documentation():
    status, scenarios, summary, per_type, _ = answers.evaluate_text(texts.WORKED_EXAMPLE, "IOB2", "lenient")
    assert status == "Evaluated 6 sentences (34 tokens): 5 reference and 5 predicted entities, IOB2, lenient mode."
    assert summary_values(summary.values.tolist()) == WORKED_SUMMARY
    assert scenarios.data.iloc[:, 1:].values.tolist() == WORKED_SCENARIOS
    # docs/scoring.md §5, two-sided: MUSIC_NAME precision counts its 3 predictions (II, V, I), recall its 5 references.
    music = {row[1]: row[2:] for row in per_type.values.tolist() if row[0] == "MUSIC_NAME"}
    assert music["strict"] == ["0.3333", "0.2", "0.25", "5", "3"]
    assert music["partial"] == ["0.5", "0.6", "0.5455", "5", "3"]


def test_english_example_shows_all_six_scenarios():
    _, scenarios, summary, *_ = answers.evaluate_text(texts.ENGLISH_EXAMPLE, "IOB2", "lenient")
    assert sorted(scenarios.data["scenario"]) == sorted(ner_semeval.SCENARIOS)
    assert summary_values(summary.values.tolist()) == WORKED_SUMMARY  # the same six scenarios, so the same table


@pytest.mark.parametrize(
    ("text", "scheme", "mode", "scenarios"),
    [
        pytest.param(texts.IOBES_EXAMPLE, "IOBES", "strict", ["V", "II", "I", "IV", "I", "III"], id="iobes-strict"),
        pytest.param(texts.IOBES_EXAMPLE, "IOBES", "lenient", ["V", "II", "I", "IV", "I", "I"], id="iobes-lenient"),
        pytest.param(texts.IOBES_EXAMPLE, "BIOES", "strict", ["V", "II", "I", "IV", "I", "III"], id="alias-bioes"),
    ],
)
def test_iobes_example(text, scheme, mode, scenarios):
    _, table, *_ = answers.evaluate_text(text, scheme, mode)
    assert list(table.data["scenario"]) == scenarios


def test_examples_cover_every_listed_scheme():
    assert [example[1] for example in texts.EXAMPLES] == ["IOB2", "IOB2", "IOBES", "IOB2", "IOB2", "IOB2"]
    assert [example[3] for example in texts.EXAMPLES] == [texts.ONE_SYSTEM] * 3 + [texts.TWO_SYSTEMS] + [
        texts.SPANS
    ] * 2
    assert list(ner_semeval.SCHEMES) == texts.SCHEME_NAMES
    assert len(texts.EXAMPLE_LABELS) == len(texts.EXAMPLES)


def test_examples_are_the_files_in_examples():
    # One copy of each example in the project: the page reads the files that the README and docs/scoring.md show.
    for text, name in [
        (texts.WORKED_EXAMPLE, "worked_example.conll"),
        (texts.ENGLISH_EXAMPLE, "english_example.conll"),
        (texts.IOBES_EXAMPLE, "iobes_example.conll"),
        (texts.COMPARE_EXAMPLE, "compare_example.conll"),
        (texts.SPANS_EXAMPLE, "spans_example.jsonl"),
        (texts.STRINGS_EXAMPLE, "worked_example_strings.jsonl"),
    ]:
        assert text == (REPO / "examples" / name).read_text(encoding="utf-8")
    source = "".join(path.read_text(encoding="utf-8") for path in [REPO / "app.py", *(REPO / "space").glob("*.py")])
    assert "B-MUSIC_NAME" not in source and "Merkel I-PER" not in source


def test_page_and_readme_count_the_worked_example_alike():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    tokens, sentences = re.search(r"processed (\d+) tokens in (\d+) sentences", readme).groups()
    status = answers.evaluate_text(texts.WORKED_EXAMPLE)[0]
    assert status.startswith(f"Evaluated {sentences} sentences ({tokens} tokens)")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "Paris B-LOC\n", r"^Line 1: found 2 columns \('Paris B-LOC'\); expected at least 3", id="two-columns"
        ),
        pytest.param("Paris B-LOC O\nBerlin\n", r"^Line 2: found 1 column \('Berlin'\)", id="one-column"),
        pytest.param("Paris B-LOC B-LOC\r\nBerlin\r\n", r"^Line 2: found 1 column \('Berlin'\)", id="crlf"),
        pytest.param("a\u2028b O O\nBerlin\n", r"^Line 2: found 1 column \('Berlin'\)", id="only-newlines-break"),
        pytest.param("", r"^The input holds no sentences", id="empty"),
        pytest.param("\n\n  \n", r"^The input holds no sentences", id="blank-lines"),
        pytest.param(
            "a O O\n\nParis X-LOC B-LOC\n",
            r"^Line 3, reference tag \(second-last column\): found tag 'X-LOC' with unknown prefix 'X'",
            id="bad-reference-prefix",
        ),
        pytest.param(
            "a O O\nParis B-LOC LOC\n",
            r"^Line 2, predicted tag \(last column\): found tag 'LOC', which has no prefix",
            id="predicted-tag-without-prefix",
        ),
        pytest.param(
            "Paris S-LOC S-LOC\n",
            r"^Line 1, predicted tag .*'S' belongs to IOBES or BMES: choose IOBES in the Tagging scheme menu\.$",
            id="iobes-tag-under-iob2",
        ),
        pytest.param("Paris o O\n", r"^Line 1, reference tag .*the outside tag is an uppercase 'O'", id="lowercase-o"),
    ],
)
def test_bad_input_names_line_and_problem(text, message):
    with pytest.raises(parsing.InputProblem, match=message):
        scoring.evaluate_corpus(parsing.parse_conll(text), "IOB2", "lenient")
    status, scenarios, summary, per_type, sentences = answers.evaluate_text(text)
    assert status.startswith("⚠️ **Cannot evaluate.**")
    assert scenarios.empty and summary.empty and per_type.empty and sentences == ""


def test_unknown_scheme_and_mode_are_messages():
    assert "unknown scheme 'BIOX'" in answers.evaluate_text("a O O\n", "BIOX", "lenient")[0]
    assert "unknown mode 'loose'" in answers.evaluate_text("a O O\n", "IOB2", "loose")[0]


@pytest.mark.parametrize(
    ("parse", "text", "says"),
    [
        pytest.param(
            "parse_conll",
            '{"text": "a", "references": [], "predictions": []}\n',
            '(JSON lines: choose "Spans (JSON lines)")',
            id="json-lines-as-tags",
        ),
        pytest.param(
            "parse_spans", "Ada B-PER B-PER\n", '(CoNLL columns: choose "Evaluate one system")', id="tags-as-spans"
        ),
        pytest.param(
            "parse_conll",
            '[\n  {"id": 1}\n]\n',
            "(a Label Studio export: python ner_semeval.py --label-studio)",
            id="export-as-tags",
        ),
        pytest.param(
            "parse_spans",
            '[\n  {"id": 1}\n]\n',
            "JSON list: python ner_semeval.py --label-studio FILE.json)",
            id="export-as-spans",
        ),
        pytest.param(
            "parse_conll",
            "TOKEN NE-COARSE-LIT MISC\n",
            "(HIPE's TSV: python ner_semeval.py --hipe GOLD SYSTEM)",
            id="hipe-as-tags",
        ),
    ],
)
def test_another_format_is_named_in_the_pages_words(parse: str, text: str, says: str):
    # The readers name the command line's flag (issue 31); the page names its own task, or the whole command.
    with pytest.raises(parsing.InputProblem) as raised:
        getattr(parsing, parse)(text)
    assert says in str(raised.value), raised.value
    assert " --spans" not in str(raised.value)


def test_input_over_one_megabyte_is_refused_with_a_message():
    text = "token O O\n" * (caps.MAX_BYTES // 10 + 1)
    with pytest.raises(parsing.InputProblem, match=r"holds 1,000,010 bytes; the page evaluates at most 1,000,000"):
        parsing.parse_conll(text)
    assert "1 MB" in answers.evaluate_text(text)[0]


def test_input_over_ten_thousand_sentences_is_refused_with_a_message():
    at_limit = "a O O\n\n" * caps.MAX_SENTENCES
    assert len(parsing.parse_conll(at_limit).tokens) == caps.MAX_SENTENCES
    with pytest.raises(parsing.InputProblem, match=r"more than 10,000 sentences \(line 20001 starts sentence 10,001\)"):
        parsing.parse_conll(at_limit + "b O O\n")


def test_extra_middle_columns_and_docstart_are_read_as_conlleval_does():
    corpus = parsing.parse_conll("-DOCSTART- -X- O O\n\nParis NNP B-NP B-LOC B-LOC\nis VBZ B-VP O O\n")
    assert corpus.tokens == [["Paris", "is"]]
    assert corpus.references == [["B-LOC", "O"]]
    assert corpus.predictions == [["B-LOC", "O"]]
    assert corpus.lines == [[3, 4]]


def test_tables_are_capped_but_scores_cover_everything(monkeypatch):
    monkeypatch.setattr(caps, "MAX_TABLE_ROWS", 3)
    monkeypatch.setattr(caps, "MAX_SHOWN_SENTENCES", 2)
    status, scenarios, summary, _, sentences = answers.evaluate_text("Paris B-LOC B-LOC\n\n" * 5)
    assert "The scenario table shows the first 3 of 5 rows." in status
    assert len(scenarios.data) == 3
    assert summary_values(summary.values.tolist())["correct"] == (5, 5, 5, 5)
    assert sentences.count('class="sentence"') == 2
    assert "The first 2 of 5 sentences are shown; the scores cover all." in sentences


def test_per_type_table_shows_the_most_frequent_types(monkeypatch):
    monkeypatch.setattr(caps, "MAX_SHOWN_TYPES", 2)
    text = "a B-C B-C\n\nb B-B B-B\nc B-A B-B\n\nd B-A O\ne B-A O\n"  # A: 3 entities, B: 3, C: 2
    status, _, _, per_type, _ = answers.evaluate_text(text)
    assert "The per-type table shows the 2 most frequent of 3 entity types." in status
    rows = per_type.values.tolist()
    assert [row[0] for row in rows] == ["A"] * 4 + ["B"] * 4  # ties in alphabetical order
    corpus = parsing.parse_conll(text)
    expected = ner_semeval.compute_semeval(predictions=corpus.predictions, references=corpus.references, per_type=True)
    for entity_type, scheme, *cells in rows:
        key = f"{entity_type}_{scheme}"
        assert cells[:3] == [writing.format_number(expected[f"{key}_{m}"]) for m in ("precision", "recall", "f1")]
        assert cells[3:] == [str(expected[f"{key}_possible"]), str(expected[f"{key}_actual"])]


def test_sentences_draw_at_most_max_shown_tokens(monkeypatch):
    monkeypatch.setattr(caps, "MAX_SHOWN_TOKENS", 3)
    text = "a B-PER B-PER\nb I-PER O\nc B-LOC B-LOC\nd I-LOC O\ne B-ORG B-ORG\n\nf B-PER B-PER\n"
    _, scenarios, summary, _, sentences = answers.evaluate_text(text)
    assert sentences.count('class="sentence"') == 1
    assert "Sentence 1 is cut after 3 of 5 tokens; the first 1 of 2 sentences are shown; the scores cover all." in (
        sentences
    )
    # The LOC reference c d is drawn up to the cut, the ORG entities after it not at all.
    assert ">c<span" in sentences and "ORG" not in sentences and ">f<" not in sentences
    assert scenarios.data["scenario"].tolist() == ["V", "V", "I", "I"]  # the tables are not cut
    assert summary_values(summary.values.tolist())["correct"] == (4, 2, 2, 2)


def test_long_tokens_types_and_messages_are_shortened():
    token, entity_type = "x" * 300_000, "T" * 1_000
    status, scenarios, _, per_type, sentences = answers.evaluate_text(f"{token} B-{entity_type} B-{entity_type}\n")
    shown = "x" * caps.MAX_TEXT_CHARACTERS + "…"
    assert scenarios.data["reference text"].tolist() == [shown]
    assert scenarios.data["reference type"].tolist() == ["T" * caps.MAX_TEXT_CHARACTERS + "…"]
    assert {row[0] for row in per_type.values.tolist()} == {"T" * caps.MAX_TEXT_CHARACTERS + "…"}
    assert len(sentences) < 2_000 and sentences.count(shown) == 2
    status = answers.evaluate_text(f"{token} B-PER\n")[0]
    assert status.startswith("⚠️ **Cannot evaluate.** Line 1: found 2 columns ('xxx")
    assert len(status) < caps.MAX_MESSAGE_CHARACTERS + 100


def test_entity_text_is_shortened_without_joining_every_token():
    tokens = ["ab"] * 100_000
    assert writing.entity_text(tokens, 0, 2) == "ab ab"
    assert writing.entity_text(tokens, 0, 100_000) == "ab " * 9 + "ab…"  # cut at 30 characters, the space dropped
    assert writing.entity_text(list("告白气球"), 0, 4) == "告白气球"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("a\ud800 B-PER B-PER\n", "Line 1, character 2: U+D800 is half", id="first-line"),
        pytest.param("x O O\r\n\nab\udfff O O\n", "Line 3, character 3: U+DFFF is half", id="third-line"),
    ],
)
def test_lone_surrogate_is_a_message(text, message):
    status, scenarios, summary, per_type, sentences = answers.evaluate_text(text)
    assert status.startswith(f"⚠️ **Cannot evaluate.** {message} of a UTF-16 surrogate pair, not a character")
    assert scenarios.empty and summary.empty and per_type.empty and sentences == ""


def test_a_pasted_byte_order_mark_is_read_as_an_upload_reads_it():
    # A line of spans after it was "not JSON (Unexpected UTF-8 BOM (decode using utf-8-sig))".
    assert answers.spans_text("\ufeff" + texts.SPANS_EXAMPLE)[0] == answers.spans_text(texts.SPANS_EXAMPLE)[0]
    assert answers.evaluate_text("\ufeff" + texts.WORKED_EXAMPLE)[4] == answers.evaluate_text(texts.WORKED_EXAMPLE)[4]


def test_text_that_is_not_a_string_is_a_message():
    assert answers.evaluate_text(12)[0] == "⚠️ **Cannot evaluate.** The input must be text, found int."


ANY_PIECE = st.one_of(
    st.characters(exclude_categories=()),  # every code point, though it rarely draws a surrogate ...
    st.characters(categories=["Cs"]),  # ... which this always does
    st.sampled_from([" ", "\n", "\r\n", "\n\n", "B-PER", "I-PER", "S-LOC", "O", "-DOCSTART-", "告", "\u2028"]),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(ANY_PIECE, max_size=60).map("".join), st.sampled_from(["IOB2", "IOBES", "IO"]))
def test_any_text_gets_a_status_never_an_error(text, scheme):
    outputs = answers.evaluate_text(text, scheme, "strict")
    assert outputs[0].startswith(("Evaluated", "⚠️ **Cannot evaluate.**"))
    assert len(outputs) == 5 and isinstance(outputs[4], str)


def test_error_messages_number_sentences_as_the_page_does(monkeypatch):
    # The tables and the drawn sentences count sentences from 1, the metric from 0: a problem the metric
    # places in sentence 1 but at no token is the page's sentence 2, given with its lines.
    corpus = parsing.parse_conll("a O O\n\nb O O\nc O O\n")

    def fail(*args, **kwargs):
        raise ner_semeval.InvalidInputError("something is wrong", side="predictions", sentence=1)

    monkeypatch.setattr(scoring.nerscore.Accumulator, "update", fail)
    with pytest.raises(parsing.InputProblem) as raised:
        scoring.evaluate_corpus(corpus, "IOB2", "lenient")
    assert str(raised.value) == "Sentence 2 (lines 3–4), predicted tag (last column): something is wrong."


def test_the_tables_and_sentences_space_tokens_through_one_helper(monkeypatch):
    calls = []

    def recording(segments):
        segments = list(segments)
        calls.append([text for _, _, text in segments])
        return joined(segments)

    joined = writing.join_segments
    monkeypatch.setattr(writing, "join_segments", recording)
    _, scenarios, _, _, sentences = answers.evaluate_text("听 O O\nJay B-PER B-PER\nChou I-PER I-PER\n的 O O\n")
    assert scenarios.data["reference text"].tolist() == ["Jay Chou"]
    assert ["Jay", "Chou"] in calls  # the table's entity text
    assert any(len(texts) == 3 and texts[1].startswith("<mark") for texts in calls)  # a drawn sentence
    assert "听 <mark" in sentences and "</mark> 的" in sentences


def test_load_file_fills_the_text_and_evaluates(tmp_path):
    path = tmp_path / "worked.conll"
    path.write_text(texts.WORKED_EXAMPLE, encoding="utf-8")
    text, status, _, summary, *_ = page_events.load_file(str(path), "IOB2", "lenient")
    assert text == texts.WORKED_EXAMPLE
    assert status.startswith("Evaluated 6 sentences")
    assert summary_values(summary.values.tolist()) == WORKED_SUMMARY


def test_load_file_reads_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.conll"
    path.write_bytes("\ufeffParis B-LOC B-LOC\n".encode())
    text, status, *_ = page_events.load_file(str(path))
    assert text == "Paris B-LOC B-LOC\n"
    assert status == "Evaluated 1 sentence (1 token): 1 reference and 1 predicted entity, IOB2, lenient mode."


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(b"Paris B-LOC \xff\n", r"big\.conll is not UTF-8 text \(byte 12 is 0xff\)", id="not-utf8"),
        pytest.param(b"a O O\n" * 170_000, r"big\.conll holds 1,020,000 bytes; the page evaluates at most", id="1MB"),
    ],
)
def test_load_file_refuses_with_a_message(tmp_path, content, message):
    path = tmp_path / "big.conll"
    path.write_bytes(content)
    text, status, *tables, heatmap, chart = page_events.load_file(str(path))
    assert text == app.gr.skip()  # the text box keeps what it had
    assert re.search(message, status.replace("\\", ""))
    assert all(getattr(table, "empty", table == "") for table in tables)
    assert heatmap is chart is None  # no stale pictures either


@pytest.mark.parametrize(
    ("tokens", "text"),
    [
        pytest.param(["Angela", "Merkel", "."], "Angela Merkel .", id="words"),
        pytest.param(list("告白气球"), "告白气球", id="chinese-characters"),
        pytest.param(["播放", "告白气球", "，"], "播放告白气球，", id="chinese-words-and-punctuation"),
        pytest.param(["听", "Jay", "Chou", "的", "歌"], "听 Jay Chou 的歌", id="mixed"),
        pytest.param([], "", id="empty"),
    ],
)
def test_join_tokens(tokens, text):
    assert writing.join_tokens(tokens) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        pytest.param(2, "2", id="count"),
        pytest.param(0.4, "0.4", id="spec-decimal"),
        pytest.param(float(Fraction(1, 3)), "0.3333", id="four-decimals"),
        pytest.param(float(Fraction(6, 11)), "0.5455", id="rounded"),
        pytest.param(1.0, "1.0", id="one"),
        pytest.param(0.0, "0.0", id="zero"),
    ],
)
def test_format_number(value, text):
    assert writing.format_number(value) == text


def test_adjacent_same_type_entities_stay_apart_in_the_sentences():
    # docs/scoring.md §2: IOB2 `B-PER B-PER` is two entities; each gets its own mark on both lines.
    _, _, _, _, sentences = answers.evaluate_text("Ann B-PER B-PER\nBob B-PER B-PER\n")
    assert sentences.count("<mark") == 4
    assert sentences.count(">Ann<span") == 2


def test_tokens_are_escaped_in_the_sentences():
    _, scenarios, _, _, sentences = answers.evaluate_text("<script>alert(1)</script> B-PER B-PER\n&amp; O O\n")
    assert "<script>" not in sentences
    assert "&lt;script&gt;" in sentences
    assert scenarios.data["reference text"].tolist() == ["<script>alert(1)</script>"]  # a table cell is text


def test_error_message_escapes_markdown():
    status = answers.evaluate_text("a B-MUSIC_NAME X-*bold*\n")[0]
    assert "found tag 'X-\\*bold\\*' with unknown prefix 'X'" in status


# ---------------------------------------------------------------------------------------------------------
# Property: the page shows the metric's own numbers, whatever the sentences
# ---------------------------------------------------------------------------------------------------------

SCHEMES = ("type", "partial", "exact", "strict")
MEASURES = ("correct", "incorrect", "partial", "missed", "spurious", "precision", "recall", "f1")
TAGS = st.sampled_from(["O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-MUSIC_NAME", "I-MUSIC_NAME"])
TOKENS = st.sampled_from(["Paris", "is", "告", "白", "x-y", "O", "B-PER", "<b>", "'"])


@st.composite
def sentences(draw):
    result = []
    for _ in range(draw(st.integers(1, 4))):
        length = draw(st.integers(1, 8))
        result.append(
            (
                draw(st.lists(TOKENS, min_size=length, max_size=length)),
                draw(st.lists(TAGS, min_size=length, max_size=length)),
                draw(st.lists(TAGS, min_size=length, max_size=length)),
            )
        )
    return result


@settings(max_examples=40, deadline=None)
@given(sentences(), st.sampled_from(["lenient", "strict"]))
def test_page_tables_are_the_metric_results(data, mode):
    text = "\n\n".join("\n".join(map(" ".join, zip(*sentence))) for sentence in data)
    corpus = parsing.parse_conll(text)
    assert corpus.tokens == [tokens for tokens, _, _ in data]
    references = [reference for _, reference, _ in data]
    predictions = [prediction for _, _, prediction in data]
    expected = ner_semeval.compute_semeval(
        predictions=predictions, references=references, mode=mode, per_type=True, return_entities=True
    )

    status, scenarios, summary, per_type, _ = answers.evaluate_text(text, "IOB2", mode)
    assert status.startswith(f"Evaluated {len(data)} sentence")
    assert summary_values(summary.values.tolist()) == {
        ("F1" if measure == "f1" else measure): tuple(
            expected[f"{scheme}_{measure}"]
            if isinstance(expected[f"{scheme}_{measure}"], int)
            else Fraction(writing.format_number(expected[f"{scheme}_{measure}"]))
            for scheme in SCHEMES
        )
        for measure in MEASURES
    }
    rows = expected["entities"]
    assert scenarios.data["scenario"].tolist() == [row["scenario"] for row in rows]
    assert scenarios.data["strict"].tolist() == [row["strict"] for row in rows]
    # Every type fits in the per-type table here, and each of its cells is the metric's own key.
    types = {side["type"] for row in rows for side in (row["reference"], row["prediction"]) if side}
    assert {row[0] for row in per_type.values.tolist()} == types
    for entity_type, scheme, *cells in per_type.values.tolist():
        key = f"{entity_type}_{scheme}"
        assert cells == [
            *(writing.format_number(expected[f"{key}_{m}"]) for m in ("precision", "recall", "f1")),
            str(expected[f"{key}_possible"]),
            str(expected[f"{key}_actual"]),
        ]


# ---------------------------------------------------------------------------------------------------------
# The pictures: confusion heatmap and per-type F1 chart
# ---------------------------------------------------------------------------------------------------------

# docs/scoring.md §7: the worked example's confusion matrix.
WORKED_CONFUSION = {
    "MUSIC_NAME": {"MUSIC_NAME": 2, "SINGER": 2, "O": 1},
    "SINGER": {"MUSIC_NAME": 0, "SINGER": 0, "O": 0},
    "O": {"MUSIC_NAME": 1, "SINGER": 0, "O": 0},
}


def evaluation_of(text: str, scheme: str = "IOB2", mode: str = "lenient") -> scoring.Evaluation:
    return scoring.evaluate_corpus(parsing.parse_conll(text), scheme, mode)


def png(figure) -> bytes:
    """A figure as the page sends it: Gradio's own encoding (format png), decoded."""
    import base64

    from gradio import processing_utils

    return base64.b64decode(processing_utils.encode_plot_to_base64(figure, "png").split(",", 1)[1])


def cell_texts(figure) -> list[str]:
    """The numbers written in the heatmap's cells, row by row."""
    return [text.get_text() for text in figure.axes[0].texts]


def twenty_types_text() -> str:
    """Types T00 ... T19, T00 the most frequent: 30 - k correct pairs of Tk, then one pair of each kind that
    the folding must place: shown -> folded, folded -> shown, folded -> other folded, missed, spurious folded."""
    sentences = [f"a B-T{k:02d} B-T{k:02d}" for k in range(20) for _ in range(30 - k)]
    sentences += ["a B-T00 B-T19", "a B-T19 B-T00", "a B-T15 B-T16", "a B-T05 O", "a O B-T18"]
    return "\n\n".join(sentences) + "\n"


def test_evaluate_page_is_evaluate_text_and_two_pictures():
    page = answers.evaluate_page(texts.WORKED_EXAMPLE, "IOB2", "lenient")
    text = answers.evaluate_text(texts.WORKED_EXAMPLE, "IOB2", "lenient")
    assert len(page) == 7 and len(text) == 5
    assert page[0] == text[0] and page[4] == text[4]
    assert page[1].data.equals(text[1].data) and page[2].equals(text[2]) and page[3].equals(text[3])
    heatmap, chart = page[5:]
    assert isinstance(heatmap, figures.Figure) and isinstance(chart, figures.Figure)
    assert isinstance(heatmap.canvas, pictures.FigureCanvasAgg) and isinstance(chart.canvas, pictures.FigureCanvasAgg)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Paris X-LOC B-LOC\n", id="cannot-evaluate"),
        pytest.param("Paris O O\nis O O\n", id="no-entity"),
    ],
)
def test_no_pictures_without_entities(text):
    *outputs, heatmap, chart = answers.evaluate_page(text)
    assert heatmap is chart is None
    assert outputs[0] == answers.evaluate_text(text)[0]


def test_worked_example_heatmap_numbers_are_the_documented_matrix():
    evaluation = evaluation_of(texts.WORKED_EXAMPLE)
    confusion = figures.confusion_data(evaluation)
    assert confusion.as_dict() == WORKED_CONFUSION
    assert confusion.labels == ["MUSIC_NAME", "SINGER", "O"]  # the most frequent first, O last
    assert confusion.folded == 0
    corpus = parsing.parse_conll(texts.WORKED_EXAMPLE)
    metric = ner_semeval.compute_semeval(predictions=corpus.predictions, references=corpus.references, confusion=True)
    assert confusion.as_dict() == metric["confusion"]


def test_worked_example_heatmap_writes_each_count_and_tells_the_diagonal_apart():
    figure = figures.heatmap_figure(figures.confusion_data(evaluation_of(texts.WORKED_EXAMPLE)))
    axes = figure.axes[0]
    assert [label.get_text() for label in axes.get_yticklabels()] == ["MUSIC_NAME", "SINGER", "O"]
    assert [label.get_text() for label in axes.get_xticklabels()] == ["MUSIC_NAME", "SINGER", "O"]
    assert cell_texts(figure) == ["2", "2", "1", "0", "0", "0", "1", "0", "—"]  # O against O counts nothing
    colours = axes.images[0].get_array()
    red, green, _ = colours[0][0][:3]
    assert green > red  # MUSIC_NAME -> MUSIC_NAME: same type, green
    for row, column in [(0, 1), (0, 2), (2, 0)]:  # another type, missed, spurious: orange to red
        red, green, _ = colours[row][column][:3]
        assert red > green + 0.3
    assert tuple(colours[1][0][:3]) == (1.0, 1.0, 1.0)  # zero errors are white ...
    red, green, blue = colours[1][1][:3]
    assert green > red and green > blue  # ... and a zero on the diagonal stays tinted
    # Each same-type cell is outlined too, for readers who do not tell green from red.
    outlined = [patch.get_xy() for patch in axes.patches]
    assert [(round(x + 0.42), round(y + 0.42)) for x, y in outlined] == [(0, 0), (1, 1)]


def test_heatmap_folds_the_less_frequent_types_into_other():
    text = twenty_types_text()
    evaluation = evaluation_of(text)
    confusion = figures.confusion_data(evaluation)
    top = [f"T{k:02d}" for k in range(12)]
    assert confusion.types == top and caps.MAX_HEATMAP_TYPES == 12
    assert confusion.labels == [*top, "other", "O"]
    assert confusion.folded == 8
    # The metric's full matrix, folded by hand: every cell lands in the row and column of its folded types.
    corpus = parsing.parse_conll(text)
    full = ner_semeval.compute_semeval(predictions=corpus.predictions, references=corpus.references, confusion=True)
    expected = {row: dict.fromkeys(confusion.labels, 0) for row in confusion.labels}
    fold = {name: name if name in top or name == "O" else "other" for name in full["confusion"]}
    for reference, row in full["confusion"].items():
        for prediction, count in row.items():
            expected[fold[reference]][fold[prediction]] += count
    assert confusion.as_dict() == expected
    assert expected["T00"]["other"] == expected["other"]["T00"] == 1
    assert expected["O"]["other"] == 1 and expected["T05"]["O"] == 1  # spurious T18, missed T05
    # other/other: the 116 correct pairs of T12 ... T19 and the one T15 -> T16 pair.
    assert expected["other"]["other"] == 117
    assert confusion.folded_same_type == sum(30 - k for k in range(12, 20)) == 116
    figure = figures.heatmap_figure(confusion)
    axes = figure.axes[0]
    assert [label.get_text() for label in axes.get_yticklabels()] == [*top, "other (8)", "O"]
    title = axes.get_title(loc="left")
    assert "the 12 most frequent types; other folds the remaining 8" in title
    assert "116 of the 117 other/other pairs are of one type" in title


def test_heatmap_names_no_entity_otherwise_when_a_type_is_called_o():
    confusion = figures.confusion_data(evaluation_of("a B-O B-PER\nb O B-O\n"))
    assert confusion.labels[-1] == "no entity"
    assert confusion.as_dict()["O"] == {"O": 0, "PER": 1, "no entity": 0}


def test_worked_example_chart_numbers_are_the_per_type_f1():
    evaluation = evaluation_of(texts.WORKED_EXAMPLE)
    scores = figures.type_scores(evaluation)
    assert scores.types == ["MUSIC_NAME", "SINGER"]
    # docs/scoring.md §5: MUSIC_NAME has 5 reference and 3 predicted entities; SINGER 0 and 2, so F1 0 throughout.
    assert scores.support == [5, 0] and scores.predicted == [3, 2]
    expected = {"type": 1 / 2, "partial": 6 / 11, "exact": 4 / 11, "strict": 1 / 4}
    for scheme, value in expected.items():
        assert scores.f1[scheme] == pytest.approx([value, 0.0])
        assert scores.f1[scheme][0] == evaluation.results[f"MUSIC_NAME_{scheme}_f1"]
    figure = figures.type_chart_figure(scores)
    axes = figure.axes[0]
    # Four bars a type, side by side from type (lenient) to strict, each as long as its F1.
    bars = sorted(axes.patches, key=lambda bar: bar.get_y())
    assert [bar.get_width() for bar in bars] == pytest.approx([*expected.values(), 0, 0, 0, 0])
    legend = figure.legends[0]
    assert [text.get_text() for text in legend.get_texts()] == ["type", "partial", "exact", "strict"]
    assert [label.get_text() for label in axes.get_yticklabels()] == [
        "MUSIC_NAME\n5 ref, 3 pred",
        "SINGER\n0 ref, 2 pred",
    ]


def test_chart_shows_the_most_frequent_types_and_says_so():
    evaluation = evaluation_of(twenty_types_text())
    scores = figures.type_scores(evaluation)
    assert scores.types == [f"T{k:02d}" for k in range(15)] and caps.MAX_CHART_TYPES == 15
    assert scores.all_types == 20
    for scheme in scoring.SCHEME_COLUMNS:
        assert scores.f1[scheme] == [evaluation.results[f"{t}_{scheme}_f1"] for t in scores.types]
    figure = figures.type_chart_figure(scores)
    assert "the 15 most frequent of 20 types" in figure.axes[0].get_title(loc="left")
    assert len(figure.axes[0].patches) == 4 * 15


@pytest.mark.slow
def test_pictures_of_a_1mb_input_with_100000_types_are_capped():
    *_, heatmap, chart = answers.evaluate_page(many_types_text())
    assert len(heatmap.axes[0].get_yticklabels()) == caps.MAX_HEATMAP_TYPES + 2  # and other, and O
    assert "other folds the remaining 101,698" in heatmap.axes[0].get_title(loc="left")
    assert len(chart.axes[0].patches) == 4 * caps.MAX_CHART_TYPES
    assert "the 15 most frequent of 101,710 types" in chart.axes[0].get_title(loc="left")
    for figure in (heatmap, chart):
        width, height = figure.get_size_inches()
        assert width <= 7 and height <= 10  # beside each other on a laptop's page, without scrolling far
        assert len(png(figure)) < 300_000


@pytest.mark.slow  # (the full suite: the quick profile stays under 3 minutes)
def test_figures_are_drawn_without_pyplot_and_kept_nowhere():
    import matplotlib

    source = "".join(path.read_text(encoding="utf-8") for path in [REPO / "app.py", *(REPO / "space").glob("*.py")])
    assert "import matplotlib.pyplot" not in source and "from matplotlib import pyplot" not in source
    assert matplotlib.get_backend().lower() == "agg"
    for _ in range(3):
        for figure in answers.evaluate_page(texts.WORKED_EXAMPLE)[5:]:
            png(figure)  # Gradio's encoding, which imports pyplot to close figures
    import matplotlib.pyplot as pyplot

    assert pyplot.get_fignums() == []  # no figure lives on in pyplot's global list


@pytest.mark.slow
def test_figures_drawn_at_once_in_threads_are_the_figures_drawn_one_by_one():
    # The page's events run in two lanes at once, each drawing its own Figure.
    from concurrent.futures import ThreadPoolExecutor

    samples = [texts.WORKED_EXAMPLE, texts.ENGLISH_EXAMPLE, "听 O O\n告 B-告白气球 B-歌手\n白 I-告白气球 I-歌手\n"] * 3

    def draw(text: str) -> list[bytes]:
        return [png(figure) for figure in answers.evaluate_page(text)[5:]]

    one_by_one = [draw(text) for text in samples]
    with ThreadPoolExecutor(caps.SMALL_LANE_WORKERS + caps.LARGE_LANE_WORKERS) as pool:
        assert list(pool.map(draw, samples)) == one_by_one


def test_cjk_type_names_are_drawn_with_an_installed_cjk_font():
    from matplotlib import font_manager
    from matplotlib.font_manager import FontProperties

    if not any("CJK" in font.name for font in font_manager.fontManager.ttflist):
        pytest.skip("no CJK font installed (apt-get install -y fonts-noto-cjk)")
    assert pictures.FONT_FAMILY[0] == "DejaVu Sans" and "CJK" in pictures.FONT_FAMILY[1]
    font = font_manager.get_font(font_manager.findfont(FontProperties(family=pictures.FONT_FAMILY[1])))
    assert all(font.get_char_index(ord(character)) for character in "告白气球歌手")
    figure = figures.heatmap_figure(figures.confusion_data(evaluation_of("告 B-告白气球 B-歌手\n")))
    assert [label.get_text() for label in figure.axes[0].get_yticklabels()] == ["告白气球", "歌手", "O"]
    assert png(figure)


def test_without_a_cjk_font_the_pictures_are_still_drawn(monkeypatch):
    from matplotlib import font_manager

    fonts = [font for font in font_manager.fontManager.ttflist if "CJK" not in font.name]
    monkeypatch.setattr(font_manager.fontManager, "ttflist", fonts)
    assert pictures.font_family() == ["DejaVu Sans"]
    monkeypatch.setattr(pictures, "FONT_FAMILY", pictures.font_family())
    for figure in answers.evaluate_page("告 B-告白气球 B-歌手\n")[5:]:
        assert png(figure).startswith(b"\x89PNG")  # boxes for the characters, no error


@settings(max_examples=40, deadline=None)
@given(sentences(), st.sampled_from(["lenient", "strict"]))
def test_heatmap_numbers_are_the_metric_confusion_matrix(data, mode):
    references = [reference for _, reference, _ in data]
    predictions = [prediction for _, _, prediction in data]
    text = "\n\n".join("\n".join(map(" ".join, zip(*sentence))) for sentence in data)
    evaluation = evaluation_of(text, mode=mode)
    expected = ner_semeval.compute_semeval(predictions=predictions, references=references, mode=mode, confusion=True)
    confusion = figures.confusion_data(evaluation)
    assert confusion.folded == 0  # at most three types here
    assert confusion.as_dict() == expected["confusion"]


def space_doc_section(until: str) -> str:
    """docs/space.md from its Space section up to `until`, white space folded: where the page's claims are read."""
    readme = (REPO / "docs" / "space.md").read_text(encoding="utf-8")
    return " ".join(readme.split("<!-- space-section -->", 1)[1].split(until, 1)[0].split())


# Every cap of space/caps.py with the claim of docs/space.md that states it, keyed by the caps' names: a cap added to
# caps.py without its claim here fails `test_every_cap_has_its_claim` (a list of claims alone missed the value and
# agreement-label caps when they were added).
CAP_CLAIMS = {
    ("MAX_TABLE_ROWS",): f"the scenario table shows the first {caps.MAX_TABLE_ROWS:,} rows",
    ("MAX_SHOWN_TYPES",): f"the per-type table the {caps.MAX_SHOWN_TYPES} most frequent types",
    ("MAX_SHOWN_SENTENCES", "MAX_SHOWN_TOKENS"): (
        f"the highlighted sentences the first {caps.MAX_SHOWN_SENTENCES} ({caps.MAX_SHOWN_TOKENS:,} tokens at most)"
    ),
    ("MAX_HEATMAP_TYPES",): f"the heatmap the {caps.MAX_HEATMAP_TYPES} most frequent types",
    ("MAX_CHART_TYPES",): f"the bars the {caps.MAX_CHART_TYPES} most frequent types",
    ("MAX_ERROR_ROWS",): f"the errors table the {caps.MAX_ERROR_ROWS} most frequent errors",
    ("MAX_BYTES", "MAX_SENTENCES"): (
        f"input is limited to {caps.MAX_BYTES // 1_000_000} MB or {caps.MAX_SENTENCES:,} sentences"
    ),
    ("SMALL_REQUEST_BYTES",): (
        f"one of at most {caps.SMALL_REQUEST_BYTES:,} bytes in the small lane, any other in the large one"
    ),
    ("LANE_WAITING",): f"a lane with {caps.LANE_WAITING} requests waiting answers the next one that the page is busy",
    ("SMALL_LANE_WORKERS", "LARGE_LANE_WORKERS"): "two at a time in each",
    ("MAX_DOCUMENT_PAIRS", "MAX_REQUEST_PAIRS"): (
        f"such a document may hold at most {caps.MAX_DOCUMENT_PAIRS:,} overlapping pairs, and a request at most "
        f"{caps.MAX_REQUEST_PAIRS:,} in all such documents"
    ),
    ("MAX_DOCUMENT_GROUNDING", "MAX_REQUEST_GROUNDING"): (
        f"a document may hold at most {caps.MAX_DOCUMENT_GROUNDING:,} (its predicted strings times all its "
        f"entities; 300 and 300 take about 0.2 s), a request {caps.MAX_REQUEST_GROUNDING:,}"
    ),
    ("MAX_DOCUMENT_OCCURRENCES", "MAX_REQUEST_OCCURRENCES", "MAX_REQUEST_SEARCH"): (
        f"a document may hold at most {caps.MAX_DOCUMENT_OCCURRENCES:,} (occurrences times types, plus their "
        f"overlaps), a request {caps.MAX_REQUEST_OCCURRENCES:,}, and a request's search may compare at most "
        f"{caps.MAX_REQUEST_SEARCH:,} characters"
    ),
    ("MAX_VALUE_TYPES", "MAX_VALUE_CELLS"): (
        f"a request may hold at most {caps.MAX_VALUE_TYPES:,} entity types and a comparison at most "
        f"{caps.MAX_VALUE_CELLS:,} value cells a system"
    ),
    ("MAX_TEXT_CHARACTERS", "MAX_LABEL_CHARACTERS", "MAX_HEATMAP_LABEL_CHARACTERS", "MAX_MESSAGE_CHARACTERS"): (
        f"type names are cut to {caps.MAX_TEXT_CHARACTERS} characters in the tables and the drawn sentences, type "
        f"names to {caps.MAX_LABEL_CHARACTERS} on the bars' axis and {caps.MAX_HEATMAP_LABEL_CHARACTERS} on the "
        f"heatmap's, an error message (which may quote a line) to {caps.MAX_MESSAGE_CHARACTERS}"
    ),
    ("MAX_SLICE_BUCKETS",): f"the slices picture draws at most {caps.MAX_SLICE_BUCKETS} buckets a slice",
    ("MAX_SHOWN_CHARACTERS", "MAX_SHOWN_ENTITIES"): (
        f"capped at the first {caps.MAX_SHOWN_SENTENCES}, {caps.MAX_SHOWN_CHARACTERS:,} characters and "
        f"{caps.MAX_SHOWN_ENTITIES:,} entities a side"
    ),
    ("MAX_SHOWN_DEPTH",): f"marks nested at most {caps.MAX_SHOWN_DEPTH} deep",
    ("PICTURE_CACHE",): f"keeps the last {caps.PICTURE_CACHE} pictures drawn (`caps.PICTURE_CACHE`)",
    ("COMPARE_RESAMPLES", "COMPARE_SEED"): (
        f"The page uses {caps.COMPARE_RESAMPLES:,} resamples and seed {caps.COMPARE_SEED}"
    ),
    ("COMPARE_CONFIDENCE_LEVEL",): (f"its {caps.COMPARE_CONFIDENCE_LEVEL * 100:g} % paired bootstrap interval"),
    ("MAX_AGREEMENT_ANNOTATORS", "MAX_AGREEMENT_WORK"): (
        f"the page takes at most {caps.MAX_AGREEMENT_ANNOTATORS} annotators and at most "
        f"{caps.MAX_AGREEMENT_WORK:,} units times pairs"
    ),
    ("MAX_AGREEMENT_LABELS",): f"at most {caps.MAX_AGREEMENT_LABELS:,} distinct tags or entity types of all annotators",
    ("MAX_ARCHIVE_FILES", "MAX_ARCHIVE_DEPTH"): (
        f"in at most {caps.MAX_ARCHIVE_FILES:,} files (`caps.MAX_ARCHIVE_FILES`: writing them out is most of its "
        f"cost) at most {caps.MAX_ARCHIVE_DEPTH} folders deep"
    ),
}


def test_every_cap_has_its_claim():
    names = {name for name in vars(caps) if name.isupper()}
    claimed = {name for key in CAP_CLAIMS for name in key}
    assert names == claimed, (sorted(names - claimed), sorted(claimed - names))


@pytest.mark.parametrize("names", list(CAP_CLAIMS), ids=lambda names: names[0])
def test_readme_states_the_pages_caps(names):
    assert CAP_CLAIMS[names] in space_doc_section("![The ner_semeval Space"), CAP_CLAIMS[names]


def test_the_lanes_run_two_requests_each_as_the_docs_say():
    assert caps.SMALL_LANE_WORKERS == caps.LARGE_LANE_WORKERS == 2


# ---------------------------------------------------------------------------------------------------------
# Two systems compared: token, reference, system A, system B
# ---------------------------------------------------------------------------------------------------------

COMPARE_KEYS = [
    (scheme, measure, label)
    for scheme in ("strict", "exact", "partial", "type")
    for measure, label in (("precision", "precision"), ("recall", "recall"), ("f1", "F1"))
]
COMPARE_ENDS = ("a", "b", "delta", "delta_low", "delta_high", "p_value")


def example_columns(text: str = texts.COMPARE_EXAMPLE) -> tuple[list, list, list]:
    """References, system A and system B of the compare example, read by hand (the last three columns)."""
    sentences = [[line.split() for line in block.splitlines()] for block in text.strip().split("\n\n")]
    return tuple([[columns[index] for columns in sentence] for sentence in sentences] for index in (1, 2, 3))


def example_results(text: str = texts.COMPARE_EXAMPLE, **options) -> dict[str, float]:
    references, system_a, system_b = example_columns(text)
    return ner_semeval.compare_semeval(
        predictions_a=system_a,
        predictions_b=system_b,
        references=references,
        n_resamples=caps.COMPARE_RESAMPLES,
        seed=caps.COMPARE_SEED,
        **options,
    )


def displayed(table) -> list[list[str]]:
    """A table's cells as the page writes them (Gradio's display values of a Styler)."""
    return app.gr.Dataframe(interactive=False).postprocess(table).model_dump()["metadata"]["display_value"]


def test_client_compare_endpoint_answers_the_metric_numbers(client):
    api = client.view_api(print_info=False, return_format="dict")
    endpoint = api["named_endpoints"]["/compare"]
    assert [parameter["parameter_name"] for parameter in endpoint["parameters"]] == ["text", "scheme", "mode"]
    assert len(endpoint["returns"]) == 2
    status, table = client.predict(texts.COMPARE_EXAMPLE, "IOB2", "lenient", api_name="/compare")
    assert status == (
        "Compared systems A and B on 8 sentences (57 tokens), IOB2, lenient mode. B − A: 95% paired bootstrap "
        "interval (BCa) and two-sided approximate randomization p-value, 2,000 resamples, seed 0."
    )
    assert table["headers"] == ["scheme", "measure", "A", "B", "B − A", "low", "high", "p-value"]
    # The data are compare_semeval's floats as they are; the page shows them as the command line writes them.
    results = example_results()
    assert table["data"] == [
        [scheme, label, *(results[f"{scheme}_{measure}_{end}"] for end in COMPARE_ENDS)]
        for scheme, measure, label in COMPARE_KEYS
    ]
    assert table["metadata"]["display_value"][2] == [
        "strict",
        "F1",
        "0.4444",
        "0.8108",
        "+0.3664",
        "+0.1667",
        "+0.5294",
        "0.0340",
    ]
    assert table["metadata"]["display_value"] == displayed(answers.compare_text(texts.COMPARE_EXAMPLE)[1])


def test_client_compare_bad_input_is_a_message_naming_the_line(client):
    status, table = client.predict(texts.WORKED_EXAMPLE, "IOB2", "lenient", api_name="/compare")
    assert status.startswith("⚠️ **Cannot compare.** Line 1: found 3 columns ('我 O O'); comparing two systems takes")
    assert table["data"] == []
    broken = texts.COMPARE_EXAMPLE.replace("Friday O O B-MISC", "Friday O O X-MISC")
    status, table = client.predict(broken, "IOB2", "lenient", api_name="/compare")
    assert status.startswith("⚠️ **Cannot compare.** Line 63, system B's tag (last column): found tag 'X-MISC'")
    assert table["data"] == []
    status, _ = client.predict(texts.COMPARE_EXAMPLE, "IOB2", "lenient", api_name="/compare")
    assert status.startswith("Compared systems A and B on 8 sentences")


def compare_1mb_text() -> str:
    """Two systems' random IOB2 tags in 10,000 sentences of 2 to 10 tokens (978 kB): 7,197 distinct count
    vectors, near the costliest case for the resampling, whose cost grows with them."""
    import random

    draw = random.Random(0)
    tags = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
    blocks = []
    for _ in range(caps.MAX_SENTENCES):
        lines = [f"w {draw.choice(tags)} {draw.choice(tags)} {draw.choice(tags)}" for _ in range(draw.randint(2, 10))]
        blocks.append("\n".join(lines) + "\n\n")
    return "".join(blocks)


def compare_1mb_long_sentences() -> str:
    """Just under 1 MB of two systems in 7,276 sentences of 3 to 14 tokens (fewer, longer sentences)."""
    import random

    draw = random.Random(1)
    tags = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
    blocks, size = [], 0
    while True:
        lines = [f"w {draw.choice(tags)} {draw.choice(tags)} {draw.choice(tags)}" for _ in range(draw.randint(3, 14))]
        block = "\n".join(lines) + "\n\n"
        if size + len(block) > caps.MAX_BYTES:
            return "".join(blocks)
        blocks.append(block)
        size += len(block)


@pytest.mark.slow
@pytest.mark.parametrize("make_text", [compare_1mb_text, compare_1mb_long_sentences], ids=["10000", "1MB"])
def test_client_compares_a_large_input(client, make_text):
    # Measured here: 1.1-1.3 s a request at 2,000 resamples (the 10,000 sentences took 5 s at the command line's
    # 10,000); the bound only catches a hang, the machine being shared.
    text = make_text()
    start = time.monotonic()
    status, table = client.predict(text, "IOB2", "lenient", api_name="/compare")
    took = time.monotonic() - start
    assert status.startswith("Compared systems A and B on"), status
    assert len(table["data"]) == 12
    assert took < 60, f"comparing took {took:.1f} s"


@pytest.mark.slow
def test_client_small_request_is_answered_while_a_large_comparison_runs(client):
    from gradio_client.utils import Status

    big = client.submit(compare_1mb_text(), "IOB2", "lenient", api_name="/compare")
    deadline = time.monotonic() + 60
    while big.status().code != Status.PROCESSING and not big.done() and time.monotonic() < deadline:
        time.sleep(0.01)
    start = time.monotonic()
    status, *_ = client.predict("Paris B-LOC B-LOC\n", "IOB2", "lenient", api_name="/evaluate")
    waited = time.monotonic() - start
    assert status.startswith("Evaluated 1 sentence")
    assert waited < 5, f"the small request waited {waited:.1f} s"
    assert big.result(timeout=120)[0].startswith("Compared systems A and B on 10,000 sentences")


def test_compare_table_is_the_command_lines(tmp_path):
    # The page and `python ner_semeval.py --compare A B` write the same table for the same sentences and resamples.
    lines = texts.COMPARE_EXAMPLE.splitlines()
    for name, column in (("A.conll", 2), ("B.conll", 3)):
        rows = [" ".join((*line.split()[:2], line.split()[column])) if line.split() else "" for line in lines]
        (tmp_path / name).write_text("\n".join(rows) + "\n", encoding="utf-8")
    command = [sys.executable, str(REPO / "ner_semeval.py"), "--compare", "A.conll", "B.conll"]
    command += ["--bootstrap", str(caps.COMPARE_RESAMPLES), "--seed", str(caps.COMPARE_SEED)]
    printed = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    header, how, _, columns, *table = printed.splitlines()
    assert columns.split() == ["scheme", "measure", "A", "B", "B-A", "low", "high", "p-value"]
    assert header.startswith("compared A.conll (A) and B.conll (B): 8 sentences, 57 tokens")
    assert how.endswith(f"{caps.COMPARE_RESAMPLES} resamples, seed {caps.COMPARE_SEED}")
    assert displayed(answers.compare_text(texts.COMPARE_EXAMPLE)[1]) == [row.split() for row in table]


def test_the_pages_paste_command_joins_two_files_into_its_input(tmp_path):
    # COMPARE_TEXT tells how two files of one test set become the page's input; check that it does.
    import shutil

    if not all(shutil.which(tool) for tool in ("bash", "paste", "awk")):
        pytest.skip("bash, paste or awk missing")
    command = re.search(r"`(paste [^`]+)`", texts.COMPARE_TEXT).group(1)
    lines = texts.COMPARE_EXAMPLE.splitlines()
    for name, column in (("A.conll", 2), ("B.conll", 3)):
        rows = [
            " ".join((line.split()[0], "NNP", *line.split()[1:2], line.split()[column])) if line else ""
            for line in lines
        ]
        (tmp_path / name).write_text("\n".join(rows) + "\n", encoding="utf-8")
    joined = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert parsing.parse_comparison(joined) == parsing.parse_comparison(texts.COMPARE_EXAMPLE)


def test_compare_example_shows_b_ahead_except_under_type():
    results = example_results()
    # A misses boundaries where B finds them; B confuses types where A does not.
    for scheme in ("strict", "exact", "partial"):
        assert (
            scoring.verdict(results[f"{scheme}_f1_delta_low"], results[f"{scheme}_f1_delta_high"]) == scoring.B_BETTER
        )
    assert results["type_f1_delta_low"] < 0 < results["type_f1_delta_high"]
    assert (
        parsing.parse_comparison(texts.COMPARE_EXAMPLE).predictions_a[:2]
        == parsing.parse_conll(texts.ENGLISH_EXAMPLE).predictions
    )


def test_compare_text_is_compare_semeval_with_the_pages_options():
    status, table = answers.compare_text(texts.COMPARE_EXAMPLE, "IOB2", "strict")
    results = example_results(mode="strict", confidence_level=0.95)
    assert table.data.values.tolist() == [
        [scheme, label, *(results[f"{scheme}_{measure}_{end}"] for end in COMPARE_ENDS)]
        for scheme, measure, label in COMPARE_KEYS
    ]
    assert status.endswith(
        "IOB2, strict mode. B − A: 95% paired bootstrap interval (BCa) and two-sided approximate "
        "randomization p-value, 2,000 resamples, seed 0."
    )


def test_compare_table_tints_the_difference_where_zero_is_outside():
    _, table = answers.compare_text(texts.COMPARE_EXAMPLE)
    styling = app.gr.Dataframe(interactive=False).postprocess(table).model_dump()["metadata"]["styling"]
    results = example_results()
    for (scheme, measure, _), styles in zip(COMPARE_KEYS, styling):
        low, high = results[f"{scheme}_{measure}_delta_low"], results[f"{scheme}_{measure}_delta_high"]
        colour = {"B better": "#dbeafe", "A better": "#fde4d3"}.get(scoring.verdict(low, high))
        assert not any(styles[:4]) and not styles[7]
        for style in styles[4:7]:
            assert (f"background-color: {colour}" in style) if colour else style == ""
    # A against B: the same differences, signs turned, tinted orange.
    swapped = "\n".join(
        " ".join(line.split()[i] for i in (0, 1, 3, 2)) if line else "" for line in texts.COMPARE_EXAMPLE.splitlines()
    )
    cells = displayed(answers.compare_text(swapped)[1])
    assert cells[2][4] == "-0.3664"
    styling = app.gr.Dataframe(interactive=False).postprocess(answers.compare_text(swapped)[1]).model_dump()["metadata"]
    assert "background-color: #fde4d3" in styling["styling"][2][4]


@pytest.mark.parametrize(
    ("low", "high", "verdict"),
    [
        (0.1, 0.3, "B better"),
        (-0.3, -0.1, "A better"),
        (-0.1, 0.1, "zero inside"),
        (0.0, 0.2, "zero inside"),
        (-0.2, 0.0, "zero inside"),
        (0.0, 0.0, "zero inside"),
    ],
)
def test_verdict_counts_an_end_at_zero_as_inside(low, high, verdict):
    assert scoring.verdict(low, high) == verdict


@pytest.mark.parametrize(
    ("value", "text"), [(0.03398, "0.0340"), (1.0, "1.0000"), (1 / 2001, "0.0005"), (1e-6, "1e-06")]
)
def test_format_p_value_as_the_command_line(value, text):
    assert writing.format_p_value(value) == text


def test_read_comparison_takes_the_last_three_columns_and_skips_docstart():
    corpus = parsing.parse_comparison("-DOCSTART- -X- O O O\n\nParis NNP B-NP B-LOC B-LOC O\nis VBZ B-VP O O B-PER\n")
    assert corpus.tokens == [["Paris", "is"]]
    assert corpus.references == [["B-LOC", "O"]]
    assert corpus.predictions_a == [["B-LOC", "O"]]
    assert corpus.predictions_b == [["O", "B-PER"]]
    assert corpus.lines == [[3, 4]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(
            "Paris B-LOC B-LOC\n",
            r"^Line 1: found 3 columns \('Paris B-LOC B-LOC'\); comparing two systems takes at least 4 columns: the "
            r"token first, then the reference tag, system A's tag and system B's tag last \(for token, reference and "
            r'predicted tag, choose "Evaluate one system"\)\.$',
            id="three-columns",
        ),
        pytest.param("a O O O\n\nBerlin\n", r"^Line 3: found 1 column \('Berlin'\)", id="one-column"),
        pytest.param("a O O O\r\nb O O\r\n", r"^Line 2: found 3 columns", id="crlf"),
        pytest.param(
            "", r"^The input holds no sentences: write one token per line as `token reference systemA", id="empty"
        ),
        pytest.param(
            "a O O O\n\nParis X-LOC B-LOC B-LOC\n",
            r"^Line 3, reference tag \(third-last column\): found tag 'X-LOC' with unknown prefix 'X'",
            id="bad-reference",
        ),
        pytest.param(
            "a O O O\nParis B-LOC LOC B-LOC\n",
            r"^Line 2, system A's tag \(second-last column\): found tag 'LOC', which has no prefix",
            id="bad-system-a",
        ),
        pytest.param(
            "a O O O\nParis B-LOC B-LOC o\n",
            r"^Line 2, system B's tag \(last column\): .*the outside tag is an uppercase 'O'",
            id="bad-system-b",
        ),
        pytest.param(
            "Paris B-LOC B-LOC S-LOC\n",
            r"^Line 1, system B's tag .*'S' belongs to IOBES or BMES: choose IOBES in the Tagging scheme menu\.$",
            id="iobes-tag-under-iob2",
        ),
    ],
)
def test_bad_comparison_input_names_line_and_column(text, message):
    with pytest.raises(parsing.InputProblem, match=message):
        scoring.compare_corpus(parsing.parse_comparison(text), "IOB2", "lenient")
    status, table, figure = answers.compare_page(text)
    assert status.startswith("⚠️ **Cannot compare.**")
    assert table.empty and figure is None


def test_unknown_scheme_and_mode_are_messages_when_comparing():
    assert "unknown scheme 'BIOX'" in answers.compare_text("a O O O\n", "BIOX", "lenient")[0]
    assert "unknown mode 'loose'" in answers.compare_text("a O O O\n", "IOB2", "loose")[0]


def test_comparison_input_has_the_pages_caps():
    text = "token O O O\n" * (caps.MAX_BYTES // 12 + 1)
    with pytest.raises(
        parsing.InputProblem, match=r"holds 1,000,008 bytes; .* Use `python ner_semeval.py --compare A B`"
    ):
        parsing.parse_comparison(text)
    at_limit = "a O O O\n\n" * caps.MAX_SENTENCES
    assert len(parsing.parse_comparison(at_limit).tokens) == caps.MAX_SENTENCES
    with pytest.raises(parsing.InputProblem, match=r"more than 10,000 sentences \(line 20001 starts sentence 10,001\)"):
        parsing.parse_comparison(at_limit + "b O O O\n")
    status = answers.compare_text("a\ud800 O O O\n")[0]
    assert status.startswith("⚠️ **Cannot compare.** Line 1, character 2: U+D800 is half of a UTF-16 surrogate pair")
    assert answers.compare_text(None)[0].startswith("⚠️ **Cannot compare.** The input holds no sentences")
    assert answers.compare_text(12)[0] == "⚠️ **Cannot compare.** The input must be text, found int."


def test_one_sentence_and_identical_systems_compare_without_error():
    status, table, figure = answers.compare_page("Paris B-LOC B-LOC O\n")
    assert status.startswith("Compared systems A and B on 1 sentence (1 token)")
    assert (
        table.data["low"].tolist() == table.data["B − A"].tolist() == table.data["high"].tolist()
    )  # nothing to resample
    status, table, figure = answers.compare_page("Paris B-LOC B-LOC B-LOC\nis O O O\n")
    assert table.data["p-value"].tolist() == [1.0] * 12  # a system against itself
    assert all(
        scoring.verdict(low, high) == scoring.UNDECIDED for low, high in zip(table.data["low"], table.data["high"])
    )
    assert figure is not None


@settings(max_examples=100, deadline=None)
@given(st.lists(ANY_PIECE, max_size=60).map("".join), st.sampled_from(["IOB2", "IOBES", "IO"]))
def test_any_text_gets_a_comparison_status_never_an_error(text, scheme):
    status, table = answers.compare_text(text, scheme, "strict")
    assert status.startswith(("Compared", "⚠️ **Cannot compare.**"))
    assert len(table.data if hasattr(table, "data") else table) in (0, 12)


# The picture of the F1 differences


def difference_rows(figure) -> list[dict]:
    """Each scheme's row of the picture: its interval line's ends, its point, and the point's colours."""
    axes = figure.axes[0]
    lines = [
        line for line in axes.get_lines() if len(line.get_xdata()) == 2 and line.get_ydata()[0] == line.get_ydata()[1]
    ]
    points = [line for line in axes.get_lines() if line.get_marker() == "o"]
    return [
        {
            "low": min(interval.get_xdata()),
            "high": max(interval.get_xdata()),
            "delta": point.get_xdata()[0],
            "row": point.get_ydata()[0],
            "colour": interval.get_color(),
            "filled": point.get_markerfacecolor() != "white",
        }
        for interval, point in zip(lines, points)
    ]


def test_difference_figure_draws_each_schemes_f1_difference_and_interval():
    results = example_results()
    figure = figures.difference_figure(results)
    assert isinstance(figure, figures.Figure) and isinstance(figure.canvas, pictures.FigureCanvasAgg)
    axes = figure.axes[0]
    assert [label.get_text() for label in axes.get_yticklabels()] == ["strict", "exact", "partial", "type"]
    rows = difference_rows(figure)
    assert len(rows) == 4
    for row, scheme in zip(rows, ("strict", "exact", "partial", "type")):
        assert row["delta"] == pytest.approx(results[f"{scheme}_f1_delta"])
        assert (row["low"], row["high"]) == pytest.approx(
            (results[f"{scheme}_f1_delta_low"], results[f"{scheme}_f1_delta_high"])
        )
    # strict, exact, partial: zero outside, B better (filled blue); type: zero inside (hollow grey).
    assert [(row["colour"], row["filled"]) for row in rows] == [("#1d4ed8", True)] * 3 + [("#9ca3af", False)]
    # The line at zero, in the middle of an axis that holds every interval.
    zero = [line for line in axes.get_lines() if list(line.get_xdata()) == [0, 0]]
    assert len(zero) == 1
    left, right = axes.get_xlim()
    assert left == -right and all(left < row["low"] and row["high"] < right for row in rows)
    texts = [text.get_text() for text in axes.texts]
    assert "+0.3664 (+0.1667 to +0.5294), p = 0.0340" in texts
    assert "← A better" in texts and "B better →" in texts
    legend = [text.get_text() for text in figure.legends[0].get_texts()]
    assert legend == ["B better: 0 outside", "A better: 0 outside", "0 inside: no clear difference"]
    assert "95% interval" in axes.get_title(loc="left")
    image = png(figure)
    assert image.startswith(b"\x89PNG") and len(image) < 200_000


def test_difference_figure_colours_a_better_orange():
    swapped = "\n".join(
        " ".join(line.split()[i] for i in (0, 1, 3, 2)) if line else "" for line in texts.COMPARE_EXAMPLE.splitlines()
    )
    rows = difference_rows(answers.compare_page(swapped)[2])
    assert [(row["colour"], row["filled"]) for row in rows] == [("#c2410c", True)] * 3 + [("#9ca3af", False)]
    assert all(row["high"] < 0 for row in rows[:3])


def test_difference_figure_of_identical_systems_has_an_axis():
    figure = answers.compare_page("Paris B-LOC B-LOC B-LOC\n")[2]
    assert figure.axes[0].get_xlim() == pytest.approx((-0.025, 0.025))
    assert png(figure).startswith(b"\x89PNG")


# The page: one control chooses the task


def test_run_page_one_system_is_evaluate_page_and_an_empty_comparison():
    outputs = page_events.run_page(texts.WORKED_EXAMPLE, "IOB2", "lenient", texts.ONE_SYSTEM)
    page = answers.evaluate_page(texts.WORKED_EXAMPLE, "IOB2", "lenient")
    assert len(outputs) == 12
    assert outputs[0] == page[0] and outputs[2].equals(page[2])
    assert list(outputs[7].columns) == frames.COMPARE_HEADERS and outputs[7].empty and outputs[8] is None
    # Then the diagnostics and the errors tables (docs/scoring.md §11), the page's alone: /evaluate keeps its five.
    assert list(outputs[9].columns) == frames.DIAGNOSTICS_HEADERS and list(outputs[10].columns) == frames.ERRORS_HEADERS
    assert isinstance(outputs[11], figures.Figure)  # the slices picture of a CoNLL input


def test_run_page_two_systems_is_compare_page_and_empty_one_system_outputs():
    status, scenarios, summary, per_type, sentences, heatmap, chart, table, figure, diagnostics, errors, slices = (
        page_events.run_page(texts.COMPARE_EXAMPLE, "IOB2", "lenient", texts.TWO_SYSTEMS)
    )
    assert diagnostics.empty and errors.empty and slices is None
    assert status == answers.compare_text(texts.COMPARE_EXAMPLE)[0]
    assert scenarios.empty and summary.empty and per_type.empty and sentences == ""
    assert heatmap is chart is None
    assert table.data.equals(answers.compare_text(texts.COMPARE_EXAMPLE)[1].data)
    assert isinstance(figure, figures.Figure)
    # The columns are chosen by the control, never guessed: four columns read as one system are a token, an
    # ignored column and two tags; three read as two systems are a message.
    assert page_events.run_page(texts.COMPARE_EXAMPLE, "IOB2", "lenient", texts.ONE_SYSTEM)[0].startswith(
        "Evaluated 8 sentences"
    )
    assert page_events.run_page(texts.WORKED_EXAMPLE, "IOB2", "lenient", texts.TWO_SYSTEMS)[0].startswith(
        "⚠️ **Cannot compare.**"
    )


def test_switching_task_swaps_an_untouched_example_and_keeps_anything_else():
    for example in (texts.WORKED_EXAMPLE, texts.ENGLISH_EXAMPLE, texts.IOBES_EXAMPLE):
        assert page_events.switch_task(example, texts.TWO_SYSTEMS) == (texts.COMPARE_EXAMPLE, "IOB2", "lenient")
    assert page_events.switch_task(texts.COMPARE_EXAMPLE, texts.ONE_SYSTEM) == (texts.WORKED_EXAMPLE, "IOB2", "lenient")
    skip = app.gr.skip()
    assert page_events.switch_task("Paris B-LOC B-LOC\n", texts.TWO_SYSTEMS) == (skip, skip, skip)
    assert page_events.switch_task(texts.COMPARE_EXAMPLE + "x O O O\n", texts.ONE_SYSTEM) == (skip, skip, skip)


@pytest.mark.parametrize(
    ("task", "shown"), [(texts.ONE_SYSTEM, True), (texts.TWO_SYSTEMS, False), (texts.SPANS, False)]
)
def test_the_slices_picture_is_shown_for_the_task_that_fills_it(task, shown):
    # run_page fills the slices picture for one system's CoNLL input only; elsewhere it would be an empty box.
    assert page_events.slices_shown(task)["visible"] is shown
    text = {texts.ONE_SYSTEM: texts.WORKED_EXAMPLE, texts.TWO_SYSTEMS: texts.COMPARE_EXAMPLE}.get(
        task, texts.SPANS_EXAMPLE
    )
    assert (page_events.run_page(text, task=task)[-1] is not None) is shown


# (summary, comparison, one system's outputs, two systems' outputs) shown; the editor's label, a phrase in it; the
# button's word.
SHOWN_FOR_TASK = [
    pytest.param(
        texts.TWO_SYSTEMS,
        (False, True, False, True),
        texts.TWO_SYSTEMS_LABEL,
        "system B's tag",
        "Compare",
        id="two-systems",
    ),
    pytest.param(
        texts.ONE_SYSTEM,
        (True, False, True, False),
        texts.ONE_SYSTEM_LABEL,
        "predicted tag",
        "Evaluate",
        id="one-system",
    ),
]


@pytest.mark.parametrize(("task", "visible", "label", "phrase", "word"), SHOWN_FOR_TASK)
def test_show_task_shows_its_outputs_and_says_what_the_editor_reads(task, visible, label, phrase, word):
    summary, comparison, one_system, two_systems, text, button = page_events.show_task(task)
    assert (summary["visible"], comparison["visible"], one_system["visible"], two_systems["visible"]) == visible
    assert text["label"] == label and phrase in text["label"]
    assert button["value"] == word


@pytest.mark.parametrize(
    ("task", "label"),
    [
        (texts.ONE_SYSTEM, "Upload a CoNLL file"),
        (texts.TWO_SYSTEMS, "Upload a CoNLL file"),
        (texts.SPANS, "Upload a JSON lines file"),
        (texts.AGREEMENT, "Upload a file or a ZIP archive"),
    ],
)
def test_the_upload_button_says_what_it_reads(task, label):
    # It said "Upload a CoNLL file" in every task, where spans take JSON lines and the Agreement task an archive.
    view = page_events.task_view(task)
    assert view[-1]["label"] == label and view[:-1] == (
        *page_events.show_task(task),
        *page_events.tag_controls(task),
        page_events.slices_shown(task),
    )


def test_upload_page_compares_a_four_column_file(tmp_path):
    path = tmp_path / "two.conll"
    path.write_bytes(("\ufeff" + texts.COMPARE_EXAMPLE).encode())
    text, status, *_, table, figure, _, _, _ = page_events.upload_page(str(path), "IOB2", "lenient", texts.TWO_SYSTEMS)
    assert text == texts.COMPARE_EXAMPLE
    assert status.startswith("Compared systems A and B on 8 sentences")
    assert len(table.data) == 12 and figure is not None
    path.write_bytes(b"a O O \xff\n")
    text, status, *_, table, figure, _, _, _ = page_events.upload_page(str(path), "IOB2", "lenient", texts.TWO_SYSTEMS)
    assert text == app.gr.skip()
    assert status.startswith("⚠️ **Cannot compare.** two.conll is not UTF-8 text")
    assert table.empty and figure is None


@pytest.mark.parametrize(
    ("path", "message"),
    [
        pytest.param("missing.conll", "missing.conll cannot be read (No such file or directory)", id="missing"),
        pytest.param(".", "cannot be read (Is a directory)", id="a-folder"),
        pytest.param(5, "The upload is no file's path (found int).", id="a-number"),
        pytest.param("/dev/zero", "zero holds more than 1,000,000 bytes; the page evaluates at most", id="endless"),
    ],
)
def test_an_upload_that_cannot_be_read_is_a_message(tmp_path, monkeypatch, path, message: str) -> None:
    # Called directly (Gradio hands over a file it wrote): FileNotFoundError, IsADirectoryError or TypeError
    # escaped space.parsing.read_upload, and /dev/zero (size 0) was read until MemoryError.
    if path == "/dev/zero" and not os.path.exists(path):
        pytest.skip("no /dev/zero here")
    monkeypatch.chdir(tmp_path)
    status = page_events.upload_page(path, "IOB2", "lenient", texts.ONE_SYSTEM)[1]
    assert status.startswith("⚠️ **Cannot evaluate.**") and message in status, status


def test_readme_states_how_the_page_compares():
    section = space_doc_section("## Speed")
    for claim in [
        f"The page uses {caps.COMPARE_RESAMPLES:,} resamples and seed {caps.COMPARE_SEED}",
        f"p is then never below 1/{caps.COMPARE_RESAMPLES + 1:,}",
        (f"its {caps.COMPARE_CONFIDENCE_LEVEL * 100:g} % paired bootstrap interval"),
        re.search(r"`(paste [^`]+)`", texts.COMPARE_TEXT).group(0),  # the page's own command
        "hollow and grey when zero lies inside the interval",
        "(docs/screenshot-compare.png)",
    ]:
        assert claim in section, claim
    statistics = (REPO / "docs" / "statistics.md").read_text(encoding="utf-8")
    assert "The Space does the same on the page: choose *Compare two systems*" in statistics


# ---------------------------------------------------------------------------------------------------------
# Spans (JSON lines)
# ---------------------------------------------------------------------------------------------------------

SPANS_SCENARIOS = [
    ["1", "I", "PER", "Angela Merkel", "PER", "Angela Merkel", "COR", "COR", "COR", "COR"],
    ["1", "V", "PER", "Emmanuel Macron", "PER", "Macron", "COR", "PAR", "INC", "INC"],
    ["1", "IV", "LOC", "Berlin", "ORG", "Berlin", "INC", "COR", "COR", "INC"],
    ["2", "I", "ORG", "University of Paris", "ORG", "University of Paris", "COR", "COR", "COR", "COR"],
    ["2", "III", "LOC", "Paris", "—", "—", "MIS", "MIS", "MIS", "MIS"],
    ["2", "II", "—", "—", "DATE", "Monday", "SPU", "SPU", "SPU", "SPU"],
]


def test_spans_example_gives_the_metrics_numbers_and_tables():
    status, scenarios, summary, per_type, documents, heatmap, chart = answers.spans_page(texts.SPANS_EXAMPLE)
    assert status.startswith("Evaluated 2 documents of spans: 5 reference and 5 predicted entities")
    assert scenarios.data.values.tolist() == SPANS_SCENARIOS
    records = [json.loads(line) for line in texts.SPANS_EXAMPLE.splitlines()]
    expected = ner_semeval.compute_semeval(
        predictions=[record["predictions"] for record in records],
        references=[record["references"] for record in records],
    )
    values = summary_values(summary.values.tolist())
    assert values["F1"][3] == Fraction(expected["strict_f1"]).limit_denominator(10_000)
    assert values["correct"] == (3, 3, 3, 2)
    assert {row[0] for row in per_type.values.tolist()} == {"PER", "ORG", "LOC", "DATE"}
    assert isinstance(heatmap, figures.Figure) and isinstance(chart, figures.Figure)
    assert documents.count('<div class="sentence">') == 2
    # The pipeline-style dicts (entity_group, score, word) are read like the others.
    assert 'title="ORG [37:43]' in documents


def test_strings_example_is_the_worked_example_grounded_in_its_texts():
    # Issue 17: the worked example as surface strings scores as the worked example's tags do, and each string is
    # highlighted where it was found.
    status, scenarios, summary, *_ = answers.spans_page(texts.STRINGS_EXAMPLE)
    assert status.startswith("Evaluated 6 documents of strings: 5 reference and 5 predicted entities")
    _, tag_scenarios, tag_summary, *_ = answers.evaluate_text(texts.WORKED_EXAMPLE)
    assert summary.values.tolist() == tag_summary.values.tolist()
    assert list(scenarios.data["scenario"]) == list(tag_scenarios.data["scenario"])
    documents = answers.spans_text(texts.STRINGS_EXAMPLE)[4]
    assert 'title="MUSIC_NAME [2:8], scenario V' in documents  # 一首告白气球 in 播放一首告白气球


def test_ungrounded_strings_are_listed_not_drawn():
    line = {
        "text": "Paris and Paris",
        "references": [["LOC", "Paris"]],
        "predictions": [["LOC", "Rome"], ["LOC", "Paris"]],
    }
    text = json.dumps(line)
    status, scenarios, _, _, documents = answers.spans_text(text)
    assert "1 prediction not found in the text (ungrounded, spurious): LOC 'Rome' (line 1)." in status
    assert scenarios.data.values.tolist()[-1][:6] == ["1", "II", writing.NONE, writing.NONE, "LOC", "Rome"]
    assert documents.count("<mark") == 2  # the reference and the grounded prediction, nothing for Rome


@pytest.mark.parametrize(
    ("line", "given_as"),
    [
        (
            {"text": "Paris and Paris", "references": [["LOC", "Paris"]], "predictions": [["LOC", "Paris"]]},
            "(strings found in each document's text, not given as offsets; scheme and mode",
        ),
        (
            {"text": "Paris and Paris", "references": [[0, 5, "LOC"]], "predictions": [["LOC", "Paris"]]},
            "(references as character offsets, end exclusive, predictions as strings found in each document's text;",
        ),
        (
            {"text": "Paris and Paris", "references": [["LOC", "Paris"]], "predictions": [[0, 5, "LOC"]]},
            "(references as strings found in each document's text, predictions as character offsets, end exclusive;",
        ),
        (
            {"text": "Paris and Paris", "references": [[0, 5, "LOC"]], "predictions": [[0, 5, "LOC"]]},
            "(character offsets, end exclusive; scheme and mode describe tags and do not apply).",
        ),
    ],
    ids=["strings", "predicted-strings", "reference-strings", "offsets"],
)
def test_the_status_says_how_the_entities_were_given(line, given_as):
    # Strings are found in the text (docs/scoring.md §1b), not given as offsets; offsets keep today's words.
    status = answers.spans_text(json.dumps(line))[0]
    assert given_as in status
    strings = any(isinstance(entity[0], str) for side in ("references", "predictions") for entity in line[side])
    assert ("(character offsets, end exclusive; scheme" in status) is not strings
    assert status.startswith(f"Evaluated 1 document of {'strings' if strings else 'spans'}: 1 reference")


def test_a_request_of_strings_grounds_once(monkeypatch):
    # The cost check reads the grounded spans that are then counted: one grounding of the batch per request.
    from nerscore.forms import string_batches

    calls = []
    original = string_batches.ground_batch

    def counted(*arguments, **keywords):
        calls.append(len(arguments[0]))  # the documents of the batch grounded
        return original(*arguments, **keywords)

    monkeypatch.setattr(string_batches, "ground_batch", counted)
    monkeypatch.setattr(scoring, "ground_batch", counted, raising=False)  # where the Space once imported it
    status, scenarios, *_ = answers.spans_text(texts.STRINGS_EXAMPLE)
    assert status.startswith("Evaluated 6 documents of strings")
    assert calls == [6]  # the six documents, grounded together once
    assert len(scenarios.data) == 6


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"references": [["LOC", "Paris"]], "predictions": []}',
            'Line 1: string entities need the document\'s "text"',
        ),
        (
            '{"text": "Rome", "references": [["LOC", "Paris"]], "predictions": []}',
            "the text 'Paris' does not occur in the sentence's text",
        ),
    ],
    ids=["no-text", "reference-not-in-text"],
)
def test_bad_strings_name_the_line(text, message):
    assert message in answers.spans_text(text)[0]


def test_run_page_spans_is_spans_page_and_an_empty_comparison():
    outputs = page_events.run_page(texts.SPANS_EXAMPLE, "IOB2", "lenient", texts.SPANS)
    assert len(outputs) == 12 and outputs[0] == answers.spans_page(texts.SPANS_EXAMPLE)[0]
    assert outputs[7].empty and outputs[8] is None and outputs[11] is None
    # Scheme and mode describe tags: whatever the (disabled) controls hold, spans are scored alike.
    assert page_events.run_page(texts.SPANS_EXAMPLE, "IOBES", "strict", texts.SPANS)[0] == outputs[0]


def test_nested_spans_are_nested_marks_and_a_crossing_one_is_cut():
    text = "the University of Paris Sud"
    line = json.dumps({"text": text, "references": [[4, 23, "ORG"], [18, 23, "LOC"], [18, 27, "X"]], "predictions": []})
    html = answers.spans_page(line)[4]
    reference = html.split('side-name">predicted')[0]
    # Paris (LOC) inside the ORG; "Paris Sud" (X) crosses the ORG's end: drawn inside it, cut at its end, its
    # tooltip keeps its own offsets.
    assert reference.count("<mark") == 3
    org = reference.index('title="ORG [4:23]')
    assert org < reference.index('title="X [18:27]') < reference.index('</mark><span class="entity-type">ORG')
    assert "Paris Sud" not in reference and "</mark> Sud" in reference.replace("</mark></mark>", "</mark>")


def test_spans_text_is_escaped_in_marks_tooltips_and_tables():
    line = json.dumps({"text": "<b>&x</b> ok", "references": [[0, 9, "<i>"]], "predictions": [[0, 9, "<i>"]]})
    _, scenarios, _, _, html, *_ = answers.spans_page(line)
    assert "<b>" not in html and "<i>" not in html
    assert "&lt;b&gt;&amp;x&lt;/b&gt;" in html and 'title="&lt;i&gt; [0:9]' in html
    assert scenarios.data.values.tolist()[0][3] == "<b>&x</b>"  # the table's cells are text, escaped by Gradio


def test_spans_without_text_show_offsets():
    line = '{"references": [{"start": 0, "end": 5, "type": "PER"}], "predictions": [[0, 4, "PER"]]}'
    status, scenarios, _, _, html, *_ = answers.spans_page(line)
    assert "1 document without `text`" in status
    assert scenarios.data.values.tolist()[0][2:6] == ["PER", "[0:5]", "PER", "[0:4]"]
    assert "0–5" in html and "0–4" in html


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"references": [], "predictions": []}\n{"references": [}', "Line 2: not JSON"),
        ("\n\n[1, 2]", "Line 3: found a JSON list"),
        ('{"references": []}', "Line 1: found no 'predictions'"),
        ('{"references": {}, "predictions": []}', "Line 1: found a JSON dict for 'references'"),
        ('{"text": 3, "references": [], "predictions": []}', "Line 1: found a JSON int for 'text'"),
        (
            '{"references": [], "predictions": []}\n\n{"references": [[0, 1, "A"]], "predictions": [[0, 1, "A"], '
            '{"start": 2, "end": 1, "type": "B"}]}',
            "Line 3, predictions[1]: start 2 >= end 1",
        ),
        ('{"references": [{"start": 0, "end": 2}], "predictions": []}', "Line 1, references[0]: found"),
        ('{"references": [[0, 2]], "predictions": []}', "a list of 2 items"),
        ("", "The input holds no documents"),
        ("[" * 100_000, "Line 1"),
        # The page has no texts= (the API's word): a span past its line's text says so in the page's words.
        (
            '{"text": "Ann", "references": [[0, 9, "PER"]], "predictions": []}',
            "Line 1, references[0]: found the span [0, 9) past the end of its text (3 characters); expected "
            'character offsets into the line\'s "text".',
        ),
    ],
)
def test_bad_spans_input_names_the_line(text, message):
    status = answers.spans_page(text)[0]
    assert status.startswith("⚠️ **Cannot evaluate.**"), status
    assert message in status.replace("\\", ""), status


SPAN_PIECES = st.sampled_from(
    [
        '{"text": "ab c", ',
        '"references": ',
        '"predictions": ',
        "[",
        "]",
        "{",
        "}",
        ", ",
        '[0, 2, "A"]',
        '"start": 1',
        '"end": 3',
        '"type": "B"',
        '"label": 7',
        "\n",
        "null",
        '"\u00e9<&>"',
        "-1",
    ]
)


@settings(max_examples=100, deadline=None)
@given(st.lists(SPAN_PIECES, max_size=40).map("".join))
def test_any_text_gets_a_spans_status_never_an_error(text):
    status, *_ = page_events.run_page(text, "IOB2", "lenient", texts.SPANS)
    assert status.startswith(("Evaluated", "⚠️ **Cannot evaluate.**")), status


def test_spans_input_has_the_pages_caps(monkeypatch):
    big = "x" * (caps.MAX_BYTES + 1)
    assert "at most 1,000,000 bytes" in answers.spans_page(big)[0]
    monkeypatch.setattr(caps, "MAX_SENTENCES", 3)
    lines = "\n".join(['{"references": [], "predictions": []}'] * 4)
    assert "more than 3 documents (line 4 starts document 4)" in answers.spans_page(lines)[0]


def test_spans_drawing_is_capped(monkeypatch):
    monkeypatch.setattr(caps, "MAX_SHOWN_SENTENCES", 2)
    monkeypatch.setattr(caps, "MAX_SHOWN_CHARACTERS", 15)
    record = {"text": "Paris and Rome.", "references": [[0, 5, "LOC"], [10, 14, "LOC"]], "predictions": []}
    html = answers.spans_page("\n".join([json.dumps(record)] * 3))[4]
    assert html.count('<div class="sentence">') == 1
    assert "The first 1 of 3 documents are shown; the scores cover all" in html
    monkeypatch.setattr(caps, "MAX_SHOWN_CHARACTERS", 12)
    html = answers.spans_page(json.dumps(record))[4]
    assert "Document 1 is cut after 12 of 15 characters" in html and "Ro<span" in html


@pytest.mark.parametrize("task", [texts.ONE_SYSTEM, texts.TWO_SYSTEMS, texts.SPANS, texts.AGREEMENT])
def test_the_value_control_is_enabled_where_the_task_reads_it(task):
    # The Agreement task has no value score: its control stayed enabled there and changed nothing (newcomer3).
    demo = app.build_demo()
    views = [fn for fn in demo.fns.values() if fn.name == "value_control"]
    assert [[block.elem_id for block in fn.outputs] for fn in views] == [["value"]]
    assert page_events.value_control(task)["interactive"] is (task != texts.AGREEMENT)


def test_switching_to_spans_swaps_an_untouched_example_and_disables_the_tag_controls():
    assert page_events.switch_task(texts.WORKED_EXAMPLE, texts.SPANS) == (texts.SPANS_EXAMPLE, "IOB2", "lenient")
    assert page_events.switch_task(texts.COMPARE_EXAMPLE, texts.SPANS) == (texts.SPANS_EXAMPLE, "IOB2", "lenient")
    assert page_events.switch_task(texts.SPANS_EXAMPLE, texts.ONE_SYSTEM) == (texts.WORKED_EXAMPLE, "IOB2", "lenient")
    skip = app.gr.skip()
    assert page_events.switch_task('{"references": [], "predictions": []}', texts.ONE_SYSTEM) == (skip, skip, skip)
    scheme, mode = page_events.tag_controls(texts.SPANS)
    assert scheme["interactive"] is False and mode["interactive"] is False
    scheme, mode = page_events.tag_controls(texts.ONE_SYSTEM)
    assert scheme["interactive"] is True and mode["interactive"] is True
    *_, text, button = page_events.show_task(texts.SPANS)
    assert text["label"] == texts.SPANS_LABEL and button["value"] == "Evaluate"


def test_client_evaluate_is_unchanged_beside_the_spans_mode(client):
    api = client.view_api(print_info=False, return_format="dict")
    # /agreement (issue 29) came after /spans.
    assert list(api["named_endpoints"]) == ["/evaluate", "/compare", "/spans", "/agreement"]
    answer = client.predict(texts.WORKED_EXAMPLE, "IOB2", "lenient", api_name="/evaluate")
    assert len(answer) == 5
    assert summary_values(answer[2]["data"]) == WORKED_SUMMARY
    assert [row[1:] for row in answer[1]["data"]] == WORKED_SCENARIOS


# ---------------------------------------------------------------------------------------------------------
# What a request may cost (issue 16, items 16 and 17): the /spans endpoint, the caps on pairing, the lanes
# ---------------------------------------------------------------------------------------------------------

SPANS_FINE = '{"text": "Ada", "references": [[0, 3, "PER"]], "predictions": [[0, 3, "PER"]]}'


def nested_spans(count: int, predictions: list | None = None) -> str:
    """A document of `count` entities nested in one another; the predictions the same, unless given."""
    entities = [[i, 2 * count - i, "X"] for i in range(count)]
    return json.dumps({"text": "a" * (2 * count), "references": entities, "predictions": predictions or entities})


def identical_spans(count: int) -> str:
    """A document of `count` identical entities on each side, without text."""
    return json.dumps({"references": [[0, 1, "X"]] * count, "predictions": [[0, 1, "X"]] * count})


# Each hostile document on line 3, behind a good one and a blank line, so that the message must name its line.
HOSTILE_SPANS = [
    pytest.param(
        nested_spans(1_500), "Line 3: the document's entities nest, overlap or repeat, and 2,250,000", id="nested-1500"
    ),
    pytest.param(
        '{"text": "ab", "references": [[0, 1, "X\\ud800"]], "predictions": []}',
        "Line 3: found the lone surrogate 'ud800' in references[0][2] (half of a UTF-16 pair",
        id="surrogate-in-a-type",
    ),
    pytest.param(
        '{"text": "ab", "references": [], "predictions": [{"start": 0, "end": 1, "label": "\\udfff"}]}',
        "Line 3: found the lone surrogate 'udfff' in predictions[0].label",
        id="surrogate-in-a-label",
    ),
    pytest.param(
        '{"text": "a\\ud800b", "references": [[0, 1, "X"]], "predictions": []}',
        "Line 3: found the lone surrogate 'ud800' in text",
        id="surrogate-in-a-text",
    ),
    pytest.param(
        '{"references": [[' + "1" * 5_000 + ', 2, "X"]], "predictions": []}',
        "Line 3: found an integer of more than 4,300 digits, which Python does not read",
        id="5000-digit-integer",
    ),
    pytest.param(
        identical_spans(800), "Line 3: the document's entities nest, overlap or repeat, and 640,000", id="800x800"
    ),
    pytest.param(identical_spans(400), "and 160,000 pairs of a reference and a prediction overlap", id="400x400-10KB"),
]


@pytest.mark.parametrize(("document", "message"), HOSTILE_SPANS)
def test_client_spans_endpoint_names_the_line_of_a_hostile_document(client, document, message):
    # Before, each of these was Gradio's bare "Error": RecursionError, pyarrow's UnicodeEncodeError, json's
    # ValueError, MemoryError after 64 s; 400 x 400 took 29 s and left the server 2 GB larger.
    status, scenarios, summary, per_type, documents = client.predict(f"{SPANS_FINE}\n\n{document}", api_name="/spans")
    assert status.startswith("⚠️ **Cannot evaluate.**"), status
    assert message in status.replace("\\", ""), status
    assert scenarios["data"] == summary["data"] == per_type["data"] == [] and documents == ""
    status, *_ = client.predict(SPANS_FINE, api_name="/spans")
    assert status.startswith("Evaluated 1 document of spans")


def test_client_spans_endpoint_answers_spans_text(client):
    api = client.view_api(print_info=False, return_format="dict")["named_endpoints"]["/spans"]
    assert [parameter["parameter_name"] for parameter in api["parameters"]] == ["text"]
    assert len(api["returns"]) == 5
    answer = client.predict(texts.SPANS_EXAMPLE, api_name="/spans")
    status, scenarios, summary, per_type, documents = answers.spans_text(texts.SPANS_EXAMPLE)
    assert answer[0] == status and status.startswith("Evaluated 2 documents of spans")
    assert answer[1]["data"] == scenarios.data.values.tolist() == SPANS_SCENARIOS
    assert answer[2]["data"] == summary.values.tolist()
    assert answer[3]["data"] == per_type.values.tolist()
    assert answer[4] == documents


def test_client_1500_nested_entities_on_one_side_are_scored_and_drawn_20_deep(client):
    # Nested on the references' side only, the document pairs cheaply (1,500 overlapping pairs): it is scored,
    # and drawn with marks at most MAX_SHOWN_DEPTH deep (the recursive drawing exhausted Python's stack).
    status, _, _, _, documents = client.predict(nested_spans(1_500, [[0, 3000, "X"]]), api_name="/spans")
    assert status.startswith("Evaluated 1 document of spans: 1,500 reference and 1 predicted entity"), status
    reference = documents.split('side-name">predicted')[0]
    assert reference.count("<mark") == caps.MAX_SHOWN_DEPTH
    assert "1,480 entities nested inside 20 others are not drawn; the scores cover all" in documents


def test_highlighting_does_not_recurse():
    # 5,000 marks each inside the last: a recursion would exhaust Python's stack (its limit is 1,000 frames).
    from space import markup

    count = 5_000
    nodes: list = []
    inner = nodes
    for start in range(count):
        node = ((start, 2 * count - start, "X", "tip"), [])
        inner.append(node)
        inner = node[1]
    drawn = markup._highlight_text("ab" * count, 0, 2 * count, nodes, {"X": "#fff"})
    assert drawn.count("<mark") == drawn.count("</mark>") == count
    assert re.sub(r"<[^>]*>", "", drawn.replace('<span class="entity-type">X</span>', "")) == "ab" * count


def test_nesting_is_cut_at_the_depth_cap(monkeypatch):
    from space import markup

    monkeypatch.setattr(caps, "MAX_SHOWN_DEPTH", 2)
    marks = [(0, 9, "X", "a"), (1, 8, "X", "b"), (2, 7, "X", "c"), (3, 4, "X", "d"), (8, 9, "X", "e")]
    nodes, too_deep = markup._nest(marks)
    assert too_deep == 2  # c and d lie inside a and b; e, inside a alone, is drawn
    assert [node[0][3] for node in nodes] == ["a"] and [node[0][3] for node in nodes[0][1]] == ["b", "e"]
    assert nodes[0][1][0][1] == []


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 8), st.integers(1, 4)), max_size=8),
    st.lists(st.tuples(st.integers(0, 8), st.integers(1, 4)), max_size=8),
)
def test_overlapping_pairs_counts_what_the_package_pairs_among(references, predictions):
    from nerscore import Span
    from nerscore.pairing.rules import overlap_edges

    reference_spans = [Span(start, start + length, "X") for start, length in references]
    predicted_spans = [Span(start, start + length, "Y") for start, length in predictions]
    listed = overlap_edges(reference_spans, predicted_spans, None)
    assert scoring.overlapping_pairs(reference_spans, predicted_spans) == len(listed)
    brute = sum(r.overlap(p) > 0 for r in reference_spans for p in predicted_spans)
    assert len(listed) == brute


def test_the_pairs_are_counted_without_listing_them():
    # 800 x 800 identical entities: 640,000 overlapping pairs, which as a list of tuples would take about 60 MB;
    # counted by two sorted lists and bisection, well under 1 MB.
    import tracemalloc

    from nerscore import Span

    spans = [Span(0, 1, "X")] * 800
    tracemalloc.start()
    try:
        assert scoring.overlapping_pairs(spans, spans) == 640_000
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


def test_a_document_beyond_the_pairs_cap_is_refused_before_anything_is_paired(monkeypatch):
    def no_pairing(*arguments, **keywords):
        raise AssertionError("paired a document the caps refuse")

    monkeypatch.setattr(scoring.nerscore.Accumulator, "update", no_pairing)
    document = identical_spans(caps.MAX_DOCUMENT_PAIRS // 70 + 1)  # 72 x 72: 5,184 pairs
    status = answers.spans_text(f"{SPANS_FINE}\n{document}")[0]
    assert "Line 2: the document's entities nest, overlap or repeat, and 5,184 pairs" in status
    assert f"at most {caps.MAX_DOCUMENT_PAIRS:,} overlapping pairs" in status


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        pytest.param([identical_spans(3)] * 3, "Line 3: the documents up to this line", id="request-total"),
        pytest.param(
            [identical_spans(4)], "Line 1: the document's entities nest, overlap or repeat, and 16 pairs", id="document"
        ),
        # Flat sides (as with tags) pair in linear time: their overlapping pairs are not counted.
        pytest.param(
            [
                json.dumps(
                    {
                        "references": [[i, i + 2, "X"] for i in range(0, 40, 2)],
                        "predictions": [[i, i + 2, "X"] for i in range(1, 40, 2)],
                    }
                )
            ],
            "Evaluated 1 document",
            id="flat",
        ),
        pytest.param(
            [identical_spans(3), identical_spans(1), identical_spans(3)], "Evaluated 3 documents", id="within"
        ),
    ],
)
def test_pairs_caps(monkeypatch, lines, expected):
    monkeypatch.setattr(caps, "MAX_DOCUMENT_PAIRS", 10)
    monkeypatch.setattr(caps, "MAX_REQUEST_PAIRS", 20)
    status = answers.spans_text("\n".join(lines))[0]
    assert expected in status, status


def test_the_pairs_caps_bound_the_pairing_a_request_may_cost():
    # k x k identical entities were the costliest shape at a given number of overlapping pairs (cost ~ k^3) until
    # the package folded copies: the caps let through at most MAX_REQUEST_PAIRS / MAX_DOCUMENT_PAIRS documents of
    # sqrt(MAX_DOCUMENT_PAIRS) such entities a side. Measured here: 70 x 70 in about 0.2-0.5 s and 8 MB, against
    # 43 s and 1.4 GB for the 400 x 400 that the Space used to accept (the costliest shape now: space/caps.py).
    side = int(caps.MAX_DOCUMENT_PAIRS**0.5)
    assert side * side <= caps.MAX_DOCUMENT_PAIRS < (side + 1) ** 2 and side == 70
    assert caps.MAX_REQUEST_PAIRS // caps.MAX_DOCUMENT_PAIRS == 4
    text = "\n".join([identical_spans(side)] * (caps.MAX_REQUEST_PAIRS // (side * side)))
    assert answers.spans_text(text)[0].startswith("Evaluated 4 documents of spans: 280 reference")
    assert "Line 5: the documents up to this line" in answers.spans_text(text + "\n" + identical_spans(side))[0]


def strings_document(references: int, predictions: int, occurrences: int = 40) -> str:
    """One JSON line: "a" on `occurrences` places, references X and Y on the first ones, predictions of "a"."""
    text = " ".join(["a"] * occurrences)
    spans = [[2 * i, 2 * i + 1, "XY"[i % 2]] for i in range(references)]
    strings = [["XY"[i % 2], "a"] for i in range(predictions)]
    return json.dumps({"text": text, "references": spans, "predictions": strings})


def test_grounding_is_refused_by_its_cost_before_it_runs(monkeypatch):
    # Issue 31 (5): the page grounds before its pair caps; two red-team requests under 4 KB stalled every visitor.
    # The red team's block (13 occurrences, 11 references, 14 predictions) is answered; a document past the cap is
    # refused naming its line, and the request's total likewise, without grounding anything.
    red_team = strings_document(11, 14, occurrences=13)
    assert answers.spans_text(red_team)[0].startswith("Evaluated 1 document")
    monkeypatch.setattr(caps, "MAX_DOCUMENT_GROUNDING", 14 * (11 + 14))
    monkeypatch.setattr(caps, "MAX_REQUEST_GROUNDING", 2 * 14 * (11 + 14))
    assert scoring.check_grounding_cost(parsing.parse_spans(red_team)) == 14 * 25
    grounding = mock.patch.object(scoring.nerscore.Accumulator, "ground", side_effect=AssertionError("grounded"))
    with grounding:
        status = answers.spans_text("\n".join([red_team, strings_document(11, 15, occurrences=13)]))[0]
        assert "Line 2: 15 predicted strings to find in the text beside 11 references" in status, status
        status = answers.spans_text("\n".join([red_team] * 3))[0]
        assert "Line 3: the documents up to this line hold 1,050" in status, status
    # Spans predicted against string references choose nothing: no cost.
    spans_only = json.dumps({"text": "a a", "references": [["X", "a"]], "predictions": [[0, 1, "X"]]})
    assert scoring.check_grounding_cost(parsing.parse_spans(spans_only)) == 0


def test_a_reader_error_without_a_line_names_the_line_it_was_reading():
    text = "\n".join([SPANS_FINE, "", SPANS_FINE, '{"references": [[1, ' + "9" * 4_400 + ', "X"]], "predictions": []}'])
    with pytest.raises(parsing.InputProblem, match=r"^Line 4: found an integer of more than 4,300 digits"):
        parsing.parse_spans(text)

    # A ValueError the reader raises without a line is named by the line it was reading.
    def unreadable(lines, source):  # a generator, as the reader is: it fails once it has read a line
        yield from ()
        next(iter(lines))
        raise ValueError(
            "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits"
        )

    reading = mock.patch.object(parsing.nerscore, "read_span_lines", unreadable)
    with reading, pytest.raises(parsing.InputProblem, match=r"^Line 1: cannot be read \(Exceeds the limit"):
        parsing.parse_spans(text)


def test_a_quoted_lone_surrogate_is_escaped_in_a_message():
    message = answers.error_message("found 'X\ud800'")
    assert "\ud800" not in message and "\\\\ud800" in message
    json.dumps(message, ensure_ascii=False).encode("utf-8")  # what Gradio sends: no lone surrogate left


# The lanes


def test_requests_go_to_a_lane_by_their_size(monkeypatch):
    from space import lanes

    lane_of = lanes.Lanes()
    assert lane_of.lane_for(lanes.request_size(TINY_LINE)) is lane_of.small
    assert lane_of.lane_for(caps.SMALL_REQUEST_BYTES) is lane_of.small
    assert lane_of.lane_for(caps.SMALL_REQUEST_BYTES + 1) is lane_of.large
    assert lanes.request_size("é\ud800") == 5 and lanes.request_size(None) == 0
    monkeypatch.setattr(caps, "SMALL_REQUEST_BYTES", 3)  # read on every request
    assert lane_of.lane_for(lanes.request_size(TINY_LINE)) is lane_of.large
    assert lanes.upload_size(None) == 0 and lanes.upload_size("/no/such/file") == 0


TINY_LINE = "Paris B-LOC B-LOC\n"


def test_a_lane_runs_its_workers_at_a_time_and_turns_away_beyond_its_waiting_room(monkeypatch):
    import threading

    from space import lanes

    monkeypatch.setattr(caps, "LARGE_LANE_WORKERS", 2)
    monkeypatch.setattr(caps, "LANE_WAITING", 2)
    lane = lanes.Lanes().large
    release = threading.Event()
    at_once = []

    def work(number: int) -> int:
        at_once.append(lane.running)
        release.wait(60)
        return number

    threads = [threading.Thread(target=lane.run, args=(work, number)) for number in range(4)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while (lane.running, lane.waiting) != (2, 2) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert (lane.running, lane.waiting) == (2, 2)
    with pytest.raises(lanes.Busy, match="The page is busy: 2 large requests are waiting already"):
        lane.run(work, 5)
    release.set()
    for thread in threads:
        thread.join(60)
    assert max(at_once) <= 2 and (lane.running, lane.waiting) == (0, 0)
    assert lane.run(lambda: "free again") == "free again"


@pytest.mark.parametrize(
    ("answer", "arguments", "outputs"),
    [
        pytest.param(answers.evaluate_text, (TINY_LINE, "IOB2", "lenient"), 5, id="evaluate"),
        pytest.param(answers.compare_text, ("a O O O\n", "IOB2", "lenient"), 2, id="compare"),
        pytest.param(answers.spans_text, (SPANS_FINE,), 5, id="spans"),
    ],
)
def test_a_full_lane_answers_busy_in_the_endpoints_own_shape(monkeypatch, answer, arguments, outputs):
    import inspect

    from space import lanes

    demo = app.build_demo(lanes.Lanes())
    endpoint = {fn.api_name: fn.fn for fn in demo.fns.values() if fn.api_name}[answer.__name__.removesuffix("_text")]
    # Gradio reads the endpoint's parameters from its function: the lane keeps answer's signature.
    assert inspect.signature(endpoint) == inspect.signature(answer)
    assert endpoint(*arguments)[0] == answer(*arguments)[0]
    monkeypatch.setattr(caps, "SMALL_LANE_WORKERS", 0)  # every small request finds its lane full ...
    monkeypatch.setattr(caps, "LANE_WAITING", 0)  # ... and no room to wait
    busy = endpoint(*arguments)
    assert len(busy) == outputs and busy[0].startswith("⚠️ **Cannot") and "The page is busy" in busy[0]


def test_a_full_lane_answers_busy_on_the_page(monkeypatch, tmp_path):
    from space import lanes

    demo = app.build_demo(lanes.Lanes())
    # The page's events answer in steps (generators): a full lane answers in one step.
    page = next(fn.fn for fn in demo.fns.values() if fn.name == "page_steps")
    upload = next(fn.fn for fn in demo.fns.values() if fn.name == "upload_steps")
    example = next(fn.fn for fn in demo.fns.values() if fn.name == "example_steps")
    path = tmp_path / "tiny.conll"
    path.write_text(TINY_LINE, encoding="utf-8")
    monkeypatch.setattr(caps, "SMALL_LANE_WORKERS", 0)
    monkeypatch.setattr(caps, "LANE_WAITING", 0)
    [busy] = page(TINY_LINE, "IOB2", "lenient", texts.TWO_SYSTEMS)
    assert len(busy) == 12 and busy[0].startswith("⚠️ **Cannot compare.** The page is busy")
    [busy] = upload(str(path), "IOB2", "lenient", texts.ONE_SYSTEM)
    assert len(busy) == 13 and busy[0] == app.gr.skip() and "The page is busy" in busy[1]
    [busy] = example(3, texts.NO_VALUE)  # the compare example
    assert len(busy) == 19 and busy[:7] == (app.gr.skip(),) * 7
    assert busy[7].startswith("⚠️ **Cannot compare.** The page is busy")


@pytest.mark.slow
def test_client_tiny_request_is_answered_while_four_large_ones_hold_their_lane(monkeypatch):
    # Four large requests whose work is held until the test releases it: the one-line /evaluate sent behind
    # them is answered while they still hold their lane (before, all shared one pool of four workers, so the
    # tiny one waited behind them; four 13 KB nested requests held it for 31 s).
    import threading

    from gradio_client import Client

    from space import lanes

    release = threading.Event()
    spans_text = answers.spans_text

    def held_spans(text: str) -> answers.Outputs:
        release.wait(120)
        return spans_text(text)

    monkeypatch.setattr(answers, "spans_text", held_spans)
    lane_of = lanes.Lanes()
    demo = app.build_demo(lane_of)
    port = free_port()
    demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port, quiet=True)
    try:
        client = Client(f"http://127.0.0.1:{port}/", verbose=False)
        large = SPANS_FINE + "\n" * caps.SMALL_REQUEST_BYTES  # blank lines: skipped, but they make it large
        jobs = [client.submit(large, api_name="/spans") for _ in range(4)]
        deadline = time.monotonic() + 120
        while (lane_of.large.running, lane_of.large.waiting) != (2, 2) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert (lane_of.large.running, lane_of.large.waiting) == (caps.LARGE_LANE_WORKERS, 2)
        status, *_ = client.predict(TINY_LINE, "IOB2", "lenient", api_name="/evaluate")
        assert status.startswith("Evaluated 1 sentence")
        assert not any(job.done() for job in jobs)  # answered while all four large ones were still held
        release.set()
        assert all(job.result(timeout=120)[0].startswith("Evaluated 1 document") for job in jobs)
    finally:
        release.set()
        demo.close()


def test_the_slices_picture_draws_f1_by_entity_and_sentence_length():
    # Docs/scoring.md §11 from the rows the page paired: the package's slices of the same text, drawn as two panels.
    import nerscore

    text = "Ann B-PER B-PER\nLee I-PER O\nin O O\nNew B-LOC B-LOC\nYork I-LOC I-LOC\nCity I-LOC I-LOC\n"
    corpus = parsing.parse_conll(text)
    evaluation = scoring.evaluate_corpus(corpus, "IOB2", "lenient")
    expected = nerscore.compute_semeval(
        predictions=corpus.predictions,
        references=corpus.references,
        slices=["entity_length", "sentence_length"],
    )["slices"]
    assert evaluation.slices == {
        name: {
            bucket: {key: value for key, value in values.items() if key != "token_accuracy"}
            for bucket, values in buckets.items()
        }
        for name, buckets in expected.items()
    }
    page, picture = answers.evaluate_page_and_slices(text)
    assert page[0] == answers.evaluate_page(text)[0] and isinstance(picture, figures.Figure)
    assert [axes.get_title(loc="left").split(",")[0] for axes in picture.axes] == [
        "F1 by entity length (tokens)",
        "F1 by sentence length (tokens)",
    ]
    # Four bars (the schemes) per bucket: entity lengths 1, 2 and 3; one sentence of 6 tokens.
    assert [len(axes.patches) for axes in picture.axes] == [12, 4]
    assert answers.evaluate_page_and_slices("not conll")[1] is None


def test_the_slices_picture_is_capped(monkeypatch):
    monkeypatch.setattr(caps, "MAX_SLICE_BUCKETS", 2)
    text = "".join(f"w{i} B-PER B-PER\n" + "x I-PER I-PER\n" * i + "\n" for i in range(4))
    _, picture = answers.evaluate_page_and_slices(text)
    assert len(picture.axes[0].patches) == 8
    assert "the first 2 of 4 buckets" in picture.axes[0].get_title(loc="left")


def test_value_control_adds_the_value_row() -> None:
    # docs/scoring.md §10: the worked example's value under ace08 is 0.45, shown in the status and the summary
    # by the page's own events; /evaluate and /compare keep their three inputs and answer without it.
    status, _, summary, *_ = page_events.run_page(texts.WORKED_EXAMPLE, "IOB2", "lenient", texts.ONE_SYSTEM, "ace08")
    assert "Value 0.45 (precision 0.6, recall 0.6, F1 0.6)" in status
    assert summary.values.tolist()[-1] == ["value", "0.45", "0.45", "0.45", "0.45"]
    _, _, without, *_ = answers.evaluate_text(texts.WORKED_EXAMPLE, "IOB2", "lenient")
    assert all(row[0] != "value" for row in without.values.tolist())
    outputs = page_events.run_page(texts.COMPARE_EXAMPLE, "IOB2", "lenient", texts.TWO_SYSTEMS, "default weights")
    assert [row[:2] for row in outputs[7].data.values.tolist()[-4:]] == [
        ["value", "value"],
        ["value", "precision"],
        ["value", "recall"],
        ["value", "F1"],
    ]
    spans = page_events.run_page(texts.SPANS_EXAMPLE, "IOB2", "lenient", texts.SPANS, "ace08")
    assert "Value " in spans[0]


@pytest.mark.parametrize("value", [["ace08"], {"a": 1}, 5, "xyz"], ids=["a-list", "a-dict", "a-number", "unknown"])
def test_a_value_control_of_any_other_json_reads_as_off(value) -> None:
    # An API caller sends any JSON: a list raised TypeError "unhashable type: 'list'" where an unknown name reads
    # as off (space.scoring.value_option); the endpoints answer, never an error.
    status, _, summary, *_ = answers.evaluate_text(texts.WORKED_EXAMPLE, "IOB2", "lenient", value)
    assert status.startswith("Evaluated 6 sentences") and "Value" not in status
    assert all(row[0] != "value" for row in summary.values.tolist())
    status, _ = answers.compare_text(texts.COMPARE_EXAMPLE, "IOB2", "lenient", value)
    assert status.startswith("Compared systems A and B")


# The diagnostics and the most frequent errors (docs/scoring.md §11), on the page only


def test_the_page_shows_the_diagnostics_and_the_most_frequent_errors_capped(monkeypatch):
    *_, diagnostics, errors, _ = page_events.run_page(texts.WORKED_EXAMPLE, "IOB2", "lenient", texts.ONE_SYSTEM)
    assert dict(diagnostics.values.tolist())["boundary_too_long"] == "2"
    assert errors.values.tolist()[3] == ["1", "V", "告白气球", "MUSIC_NAME", "一首告白气球", "MUSIC_NAME"]
    monkeypatch.setattr(caps, "MAX_ERROR_ROWS", 2)
    monkeypatch.setattr(caps, "MAX_TEXT_CHARACTERS", 3)
    *_, errors, _ = page_events.run_page(texts.WORKED_EXAMPLE, "IOB2", "lenient", texts.ONE_SYSTEM)
    assert errors.values.tolist() == [["1", "II", "—", "—", "年轮", "MUS…"], ["1", "III", "告白气…", "MUS…", "—", "—"]]


def test_spans_without_a_text_show_the_diagnostics_alone():
    line = '{"references": [[0, 3, "PER"]], "predictions": [[0, 5, "PER"]]}\n'
    *_, diagnostics, errors, _ = page_events.run_page(line, "IOB2", "lenient", texts.SPANS)
    assert dict(diagnostics.values.tolist())["boundary_too_long"] == "1" and errors.empty
    *_, errors, _ = page_events.run_page(
        line.replace("{", '{"text": "Ada Lovelace", ', 1), "IOB2", "lenient", texts.SPANS
    )
    assert errors.values.tolist() == [["1", "V", "Ada", "PER", "Ada L", "PER"]]


# The page answers at once (issue 31): the tables in a first step, the pictures in a second, the first view sent
# with the page, pictures reused by their numbers.


def gradio_png(figure) -> str:
    """A figure as Gradio's plot component encodes it (a PNG data URL)."""
    from gradio import processing_utils

    return processing_utils.encode_plot_to_base64(figure, "png")


def plot_sources(outputs) -> list:
    """The picture outputs of a step as the page shows them: a PNG data URL, None, or skip."""
    return [output.plot if isinstance(output, page_events.PlotData) else output for output in outputs]


@pytest.mark.parametrize(
    "text, task",
    [
        (texts.WORKED_EXAMPLE, texts.ONE_SYSTEM),
        (texts.COMPARE_EXAMPLE, texts.TWO_SYSTEMS),
        (texts.SPANS_EXAMPLE, texts.SPANS),
        ("Paris X-LOC O\n", texts.ONE_SYSTEM),
    ],
    ids=["one-system", "two-systems", "spans", "malformed"],
)
def test_page_steps_show_run_page_tables_first_and_its_pictures_second(text, task):
    expected = page_events.run_page(text, "IOB2", "lenient", task)
    pictures.DRAWN.clear()  # pictures never drawn (drawn before, they come with the tables: the test after this)
    steps = list(page_events.page_steps(text, "IOB2", "lenient", task))
    skip = app.gr.skip()
    if len(steps) == 1:  # no picture to draw (None empties it): with the tables, each checked below as if second
        assert all(expected[answers.PAGE_OUTPUTS.index(name)] is None for name in answers.PICTURE_OUTPUTS)
        steps = [
            [skip if name in answers.PICTURE_OUTPUTS else value for name, value in zip(answers.PAGE_OUTPUTS, *steps)],
            [value if name in answers.PICTURE_OUTPUTS else skip for name, value in zip(answers.PAGE_OUTPUTS, *steps)],
        ]
    tables, drawn = steps
    hidden = {
        texts.ONE_SYSTEM: {"comparison", "difference"},
        texts.TWO_SYSTEMS: set(answers.PAGE_OUTPUTS) - {"status", "comparison", "difference"},
        texts.SPANS: {"comparison", "difference", "slices"},
    }[task]
    for name, first, second, whole in zip(answers.PAGE_OUTPUTS, tables, drawn, expected):
        if name in hidden:  # what the task's page hides is not sent: it is filled when shown
            assert first == second == skip, name
        elif name in answers.PICTURE_OUTPUTS:
            # The pictures wait for the second step: the same figures, encoded as Gradio encodes a figure.
            assert first == skip
            url = None if whole is None else gradio_png(whole)
            assert plot_sources([second]) == [url], name
        else:
            assert second == skip
            if hasattr(whole, "data") or isinstance(whole, app.pd.DataFrame):  # a table, styled or not
                table = app.gr.Dataframe(interactive=False)
                assert table.postprocess(first).model_dump() == table.postprocess(whole).model_dump(), name
            else:
                assert first == whole, name


@pytest.mark.parametrize("text", [texts.WORKED_EXAMPLE, texts.SPANS_EXAMPLE], ids=["one-system", "spans"])
def test_pictures_drawn_before_come_with_the_tables_in_one_step(text):
    # A step costs the browser a round of Gradio's progress updates and the pictures would wait for it: pictures
    # already drawn for the same numbers (an example clicked again, the worked example) come in the first step.
    task = texts.ONE_SYSTEM if text == texts.WORKED_EXAMPLE else texts.SPANS
    drawn_at = [answers.PAGE_OUTPUTS.index(name) for name in answers.PICTURE_OUTPUTS]

    def same(one: Any, other: Any) -> bool:
        if isinstance(one, page_events.PlotData) or isinstance(other, page_events.PlotData):
            return plot_sources([one]) == plot_sources([other])
        one, other = getattr(one, "data", one), getattr(other, "data", other)  # a styled table's frame
        return one.equals(other) if isinstance(one, app.pd.DataFrame) else one == other

    pictures.DRAWN.clear()
    tables, drawn = page_events.page_steps(text, "IOB2", "lenient", task)
    assert any(isinstance(drawn[position], page_events.PlotData) for position in drawn_at)
    (once,) = page_events.page_steps(text, "IOB2", "lenient", task)
    for position, value in enumerate(once):
        assert same(value, drawn[position] if position in drawn_at else tables[position]), position
    # An example clicked again: its inputs, its answer and its pictures in one step.
    index = [example[0] for example in texts.EXAMPLES].index(text)
    pictures.DRAWN.clear()
    first, second = page_events.example_steps(index, texts.NO_VALUE, task)
    (alone,) = page_events.example_steps(index, texts.NO_VALUE, task)
    inputs = len(page_events.EXAMPLE_OUTPUTS)
    assert alone[:inputs] == first[:inputs]
    for position, value in enumerate(alone[inputs:]):
        expected = (second if position in drawn_at else first)[inputs + position]
        assert same(value, expected), position


def test_the_pages_events_mark_their_progress_on_the_status_the_pictures_and_the_inputs_they_set():
    # Gradio lays a status tracker (its timer redrawn every frame) over each output an event marks with its
    # progress, and at each of the event's messages copies every output it ever marked, a column with all it
    # holds: marking every output was most of the browser's work for a click (benchmarks/README.md, "The page's
    # progress marks"). The page's queued events mark the status (the Agreement task's, for its measurement) and
    # the pictures, never a table or a column; an example and an upload mark besides the controls they set, which
    # a visitor cannot act on before they are set (as when every output was marked); the instant events show
    # none, and keep their trigger alone. The endpoints, which no page calls, are left as Gradio makes them.
    demo = app.build_demo()
    pictures = {"heatmap", "type-chart", "slices", "difference"}
    marks = {
        "page_steps": {"status", *pictures},
        "agreement_run": {"agreement-status", "agreement-heatmap"},
        "agreement_upload": {"agreement-status", "agreement-heatmap"},
        "example_steps": {"conll-input", "scheme", "mode", "task", "evaluate", "status", *pictures},
        "upload_steps": {"conll-input", "status", *pictures},
        "task_view": {"task"},
        "value_control": {"task"},
        "switch_task": {"task"},
        "agreement_shown": {"task"},
        "agreement_example_inputs": {"agreement-example"},
    }
    for fn in demo.fns.values():
        if fn.api_visibility != "private":
            assert not fn.show_progress_on, fn.name
            continue
        marked = list(fn.show_progress_on or [])
        assert {block.elem_id for block in marked} == marks[fn.name], fn.name
        assert not any(isinstance(block, (app.gr.Dataframe, app.gr.Column, app.gr.Row)) for block in marked)
        assert fn.show_progress == ("full" if fn.queue else "hidden"), fn.name


def test_the_page_opens_on_the_worked_example_answer_without_a_request():
    # The first view is sent with the page (first_answer): no load event, and every output's initial value is
    # what run_page answers for the worked example.
    demo = app.build_demo()
    assert not any(fn.name == "run_page" or "load" in [t[1] for t in fn.targets] for fn in demo.fns.values())
    by_id = {block.elem_id: block for block in demo.blocks.values() if getattr(block, "elem_id", None)}
    status, scenarios, summary, per_type, sentences, heatmap, chart, *_, slices = page_events.run_page(
        texts.WORKED_EXAMPLE
    )
    assert by_id["status"].value == status and status.startswith("Evaluated 6 sentences")
    assert by_id["summary"].value["data"] == summary.values.tolist()
    assert by_id["scenarios"].value["data"] == scenarios.data.values.tolist()
    assert by_id["per-type"].value["data"] == per_type.values.tolist()
    assert by_id["sentences"].value == sentences
    for element_id, figure in [("heatmap", heatmap), ("type-chart", chart), ("slices", slices)]:
        assert by_id[element_id].value["plot"] == gradio_png(figure)


@pytest.mark.parametrize("index", range(len(texts.EXAMPLES)), ids=texts.EXAMPLE_LABELS)
def test_an_example_sets_the_inputs_and_the_editor_label_of_its_task(index):
    # Gradio's examples reset the editor's label to the one it was built with ("CoNLL input"), so a spans example
    # clicked in spans mode said "CoNLL input" over JSON lines; the page's one event sets the label it needs.
    text, scheme, mode, task = texts.EXAMPLES[index]
    pictures.DRAWN.clear()  # never drawn: the pictures come second
    first, second = page_events.example_steps(index, texts.NO_VALUE)
    editor, scheme_control, mode_control, task_control, one_system, two_systems, button = first[:7]
    assert editor["value"] == text and editor["label"] == texts.LABELS[task]
    assert (scheme_control["value"], mode_control["value"], task_control) == (scheme, mode, task)
    # The controls and outputs of the example's task are shown in the same step as its answer.
    assert scheme_control["interactive"] is mode_control["interactive"] is (task != texts.SPANS)
    assert (one_system["visible"], two_systems["visible"]) == (task != texts.TWO_SYSTEMS, task == texts.TWO_SYSTEMS)
    assert button["value"] == ("Compare" if task == texts.TWO_SYSTEMS else "Evaluate")
    page = dict(zip(answers.PAGE_OUTPUTS, first[7:]))
    whole = dict(zip(answers.PAGE_OUTPUTS, page_events.run_page(text, scheme, mode, task)))
    assert page["status"] == whole["status"]  # at once
    assert page["comparison"]["visible"] is (task == texts.TWO_SYSTEMS)
    assert page["summary"]["visible"] is (task != texts.TWO_SYSTEMS)
    assert page["slices"] == app.gr.update(visible=task == texts.ONE_SYSTEM)  # its picture comes second
    assert second[:7] == (app.gr.skip(),) * 7
    shown_pictures = dict(zip(answers.PAGE_OUTPUTS, second[7:]))
    slices = app.gr.skip() if task != texts.ONE_SYSTEM else gradio_png(whole["slices"])  # hidden: not sent
    assert plot_sources([shown_pictures["slices"]]) == [slices]
    # Clicked while the page shows its task: the inputs and the answer, the view left as it is (the editor's label
    # too: only gr.Examples reset it).
    first, *_ = page_events.example_steps(index, texts.NO_VALUE, task)  # (one step: its pictures are drawn)
    assert first[:7] == (text, scheme, mode, task, *(app.gr.skip(),) * 3)
    assert first[7] == whole["status"]
    assert texts.LABELS[texts.SPANS].startswith("JSON lines") and "CoNLL" not in texts.LABELS[texts.SPANS]


def test_a_picture_is_drawn_once_for_its_numbers(monkeypatch):
    evaluation = evaluation_of(texts.WORKED_EXAMPLE)
    calls = []

    def counted(confusion):
        calls.append(confusion)
        return figures.heatmap_figure(confusion)

    pictures.DRAWN.clear()
    picture = pictures.Picture(counted, figures.confusion_data(evaluation))
    url = pictures.png_url(picture)
    assert url == gradio_png(figures.heatmap_figure(picture.data))
    same = pictures.Picture(counted, figures.confusion_data(evaluation_of(texts.WORKED_EXAMPLE)))
    assert pictures.png_url(same) == url and len(calls) == 1  # the same numbers: not drawn again
    monkeypatch.setattr(caps, "MAX_HEATMAP_LABEL_CHARACTERS", 3)  # a cap the drawing reads: drawn again
    assert pictures.png_url(same) != url and len(calls) == 2
    other = pictures.Picture(counted, figures.confusion_data(evaluation_of("Paris B-LOC B-PER\n")))
    assert pictures.png_url(other) not in (url, None) and len(calls) == 3
    monkeypatch.setattr(caps, "PICTURE_CACHE", 2)  # at most this many kept, the least recently used dropped
    assert pictures.png_url(other) is not None and len(calls) == 3  # kept, and now the most recently used
    third = pictures.Picture(counted, figures.confusion_data(evaluation_of("Rome B-LOC B-LOC\n")))
    pictures.png_url(third)
    assert len(calls) == 4 and len(pictures.DRAWN._urls) == 2  # other and third kept; both of same's dropped
    assert pictures.png_url(third) is not None and pictures.png_url(other) is not None and len(calls) == 4
    monkeypatch.setattr(caps, "MAX_HEATMAP_LABEL_CHARACTERS", 16)
    assert pictures.png_url(same) == url and len(calls) == 5  # dropped, so drawn again: the same bytes
    assert pictures.png_url(None) is None


def test_steps_hold_their_lane_until_the_last_step():
    from space import lanes

    lane_of = lanes.Lanes()
    seen = []

    def steps(text: str):
        seen.append(lane_of.small.running)
        yield 1
        seen.append(lane_of.small.running)
        yield 2

    run = lanes.steps_in_lane(lane_of, steps, lambda message, *_: ("busy", message))
    assert list(run("tiny")) == [1, 2] and seen == [1, 1] and lane_of.small.running == 0
    stopped = run("tiny")
    next(stopped)
    stopped.close()  # a visitor gone between the steps: the lane is given back
    assert lane_of.small.running == 0


def test_slices_picture_draws_and_labels_a_bucket_of_f1_zero():
    # Entities of one token all found, of two tokens all missed: the two-token bucket scores 0 under every
    # scheme. Its bars are drawn (outlined, a line on the axis) and labelled 0.00, as the per-type chart's are.
    text = "Ann B-PER B-PER\n\nBob B-PER O\nLee I-PER O\n"
    _, picture = answers.evaluate_page_and_slices(text)
    axes = picture.axes[0]
    labels = [label.get_text() for label in axes.get_xticklabels()]
    zero = next(number for number, label in enumerate(labels) if label.startswith("2\n"))
    bars = [patch for patch in axes.patches if abs(patch.get_x() + patch.get_width() / 2 - zero) < 0.5]
    assert len(bars) == 4 and all(bar.get_height() == 0 for bar in bars)
    assert all(bar.get_linewidth() > 0 and bar.get_edgecolor()[3] > 0 for bar in bars)
    written = [text.get_text() for text in axes.texts if abs(text.get_position()[0] - zero) < 0.5]
    assert written == ["0.00"] * 4
    assert len(axes.texts) == len(axes.patches)  # every bar labelled with its value


# ---------------------------------------------------------------------------------------------------------
# Different events that write the same outputs: the answer shown is the visitor's latest action's
# ---------------------------------------------------------------------------------------------------------

# The page's actions, by their trigger (the component's elem_id and the event): each is a chain of events, the
# trigger's own and those `.then` after it. The task control's `.change` events (task_view, agreement_shown,
# value_control) only show what the task's value says, and the API's events (/evaluate, /compare, /spans,
# /agreement) hang on buttons that are never shown: neither is an action of the page's visitor.
PAGE_ACTIONS = [
    "evaluate.click",
    "examples.click",
    "scheme.input",
    "mode.input",
    "value.input",
    "upload.upload",
    "task.input",
    "agreement-example.click",
]


def page_actions(demo) -> dict[str, list]:
    """Each action of the page (PAGE_ACTIONS) and its chain of events, the trigger's own first."""
    by_id = {block._id: block for block in demo.blocks.values()}
    fns = list(demo.fns.items())
    actions = {}
    for index, fn in fns:
        block, event = fn.targets[0]
        if (
            event == "then"
            or fn.api_visibility != "private"
            or fn.name in ("task_view", "agreement_shown", "value_control")
        ):
            continue
        chain, frontier = [fn], [index]
        while frontier:
            after = frontier.pop(0)
            for other_index, other in fns:
                if other.trigger_after == after:
                    chain.append(other)
                    frontier.append(other_index)
        actions[f"{by_id[block].elem_id}.{event}"] = chain
    return actions


def output_ids(fns) -> set[int]:
    """The components the events write (gr.State left out: a visitor never sees it)."""
    return {block._id for fn in fns for block in fn.outputs if not isinstance(block, app.gr.State)}


def test_the_events_that_write_the_same_outputs_are_the_page_actions():
    # Every event of the page that writes an output another writes is an action listed here (or one of the
    # exempt: the task control's views, the API's); a new one must be listed, and then the race test covers it.
    demo = app.build_demo()
    actions = page_actions(demo)
    assert sorted(actions) == sorted(PAGE_ACTIONS)
    shared = set()
    fns = list(demo.fns.values())
    for fn in fns:
        for other in fns:
            if fn is not other and output_ids([fn]) & output_ids([other]):
                shared.add(fn.name)
    listed = {fn.name for chain in actions.values() for fn in chain}
    assert shared - listed == {"task_view", "evaluate_text", "compare_text", "spans_text", "agreement_text"}


class Session:
    """One visitor's page, as Gradio keeps it: the inputs as the visitor left them, and the session's gr.State
    values (each its initial value deep-copied once, as gradio.state_holder.SessionState does)."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values
        self.states: dict[int, Any] = {}

    def arguments(self, fn) -> list:
        import copy

        found = []
        for block in fn.inputs:
            if isinstance(block, app.gr.State):
                if block._id not in self.states:
                    value = block.value() if callable(block.value) else block.value
                    self.states[block._id] = copy.deepcopy(value)
                found.append(self.states[block._id])
            else:
                found.append(self.values[block.elem_id])
        return found

    def run(self, fn) -> list[tuple]:
        """The steps an event shows, each a tuple of its outputs."""
        answer = fn.fn(*self.arguments(fn))
        steps = list(answer) if inspect.isgenerator(answer) else [answer]
        return [step if isinstance(step, tuple) else (step,) for step in steps]

    def run_chain(self, chain) -> list[list[tuple]]:
        return [self.run(fn) for fn in chain]


def skipped(steps: list[tuple]) -> list[tuple[bool, ...]]:
    """Which outputs of each step are left as they are."""
    skip = app.gr.skip()
    return [tuple(isinstance(output, dict) and output == skip for output in step) for step in steps]


def shown_as_alone(seen: list, alone: list) -> bool:
    """Whether each event of an action showed the steps it shows `alone`, or (an older event writing the same
    outputs still running: space/turns.py) each step with the values of the steps before it."""

    def repeated(steps: list[tuple[bool, ...]]) -> list[tuple[bool, ...]]:
        return [tuple(map(all, zip(*steps[: count + 1]))) for count in range(len(steps))]

    return len(seen) == len(alone) and all(
        len(steps) == len(expected)
        and all(step in pair for step, pair in zip(steps, zip(expected, repeated(expected))))
        for steps, expected in zip(seen, alone)
    )


class Overtake:
    """The newer action (its chain of events) run to its end in `session` when a wrapped function is first
    called: while the older event computes, as a faster request would on the server."""

    def __init__(self, session: Session, chain: list) -> None:
        self.session = session
        self.chain = chain
        self.seen: list | None = None  # what the newer action showed: which outputs each step left alone

    def before(self, original):
        def run(*arguments, **options):
            if self.seen is None:
                self.seen = []  # (the newer action's own calls go through)
                self.seen.extend(skipped(steps) for steps in self.session.run_chain(self.chain))
            return original(*arguments, **options)

        return run


class RaceCourse:
    """The page built once for the race tests: its actions, the inputs a session starts with for each task (for
    the Agreement task its example, and an upload of it; else the worked example), and what each action's chain
    shows run alone, which outputs each step leaves as they are."""

    def __init__(self, folder) -> None:
        self.actions = page_actions(app.build_demo())
        self.folder = folder
        self._alone: dict[tuple[str, str], list] = {}

    def values(self, task: str) -> dict[str, Any]:
        text = texts.AGREEMENT_EXAMPLE if task == texts.AGREEMENT else texts.WORKED_EXAMPLE
        path = self.folder / f"upload-{texts.TASKS.index(task)}.conll"
        path.write_text(text, encoding="utf-8")
        return {
            "conll-input": text,
            "scheme": "IOB2",
            "mode": "lenient",
            "task": task,
            "value": texts.NO_VALUE,
            "examples": 1,  # the English example
            "upload": str(path),
        }

    def alone(self, action: str, task: str) -> list[list[tuple[bool, ...]]]:
        if (action, task) not in self._alone:
            steps = Session(self.values(task)).run_chain(self.actions[action])
            self._alone[action, task] = [skipped(each) for each in steps]
        return self._alone[action, task]


@pytest.fixture(scope="module")
def race_course(tmp_path_factory) -> RaceCourse:
    return RaceCourse(tmp_path_factory.mktemp("race"))


# (The quick profile: each action overtaken by the next one listed.)
@pytest.mark.parametrize(("older", "newer"), crossed(PAGE_ACTIONS, PAGE_ACTIONS[1:] + PAGE_ACTIONS[:1]))
def test_an_answer_overtaken_by_a_newer_action_leaves_what_that_action_writes(monkeypatch, race_course, older, newer):
    # The visitor acts (`older`), then acts again (`newer`) before the first answer is in: clicks an example, then
    # changes the mode. Each event of `older` is overtaken while it computes (the newer action runs to its end
    # inside the older one's scoring, as a faster request would on the server): the page must end on the newer
    # action's answer. An overtaken event therefore leaves every output alone when the newer action's chain
    # writes any of its outputs (half an old answer beside a new one is no better), and answers as it would
    # have otherwise; the newer action answers as it would alone. Before, the older event wrote its stale
    # answer over the newer one.
    from space import agreement

    # No picture kept (each drawn anew): every answer in the same steps, overtaken or alone (page_events.answer_steps
    # sends pictures drawn before with the tables).
    monkeypatch.setattr(caps, "PICTURE_CACHE", 0)
    pictures.DRAWN.clear()
    actions = race_course.actions
    newer_writes = output_ids(actions[newer])
    for position, event in enumerate(actions[older]):
        if event.name in ("switch_task", "agreement_example_inputs"):
            continue  # they answer at once (queue=False), with nothing to compute: nothing can overtake them
        task = texts.AGREEMENT if "agreement" in event.name else texts.ONE_SYSTEM
        session = Session(race_course.values(task))
        session.run_chain(actions[older][:position])
        overtake = Overtake(session, actions[newer])
        with monkeypatch.context() as patch:
            for module, name in [(answers, "page_answer"), (agreement, "agreement_page"), (agreement, "upload_page")]:
                patch.setattr(module, name, overtake.before(getattr(module, name)))
            shown = skipped(session.run(event))
        assert overtake.seen is not None, f"{event.name} computed nothing that the newer action could overtake"
        assert shown_as_alone(overtake.seen, race_course.alone(newer, task)), f"{newer} did not answer as alone"
        if output_ids([event]) & newer_writes:
            assert all(all(step) for step in shown), f"{event.name} of {older} wrote over {newer}'s answer"
        else:
            expected = race_course.alone(older, task)[position]
            assert shown == expected, f"{event.name} of {older} left out an answer {newer} does not give"


def test_turns_number_the_actions_and_an_action_overtakes_those_writing_what_it_writes():
    import copy

    from space import turns

    session = copy.deepcopy(turns.Turns())  # what Gradio gives each session: its own, with no action yet
    assert session.latest("answer") == 0 and session.follow("mode").number == 0
    example = session.take("example", ["inputs", "answer"])
    measured = session.take("evaluate", ["answer", "agreement"])
    assert (example.number, measured.number) == (1, 2)
    assert not example.current(["inputs", "answer"]) and not example.current(["answer"])
    assert example.current(["inputs"])  # nothing newer writes the editor
    assert session.follow("evaluate") == measured and measured.current(["agreement"])
    value = session.take("value", ["answer"])
    assert not measured.current(["answer"]) and measured.current(["agreement"])  # the value control: no measure
    assert session.follow("evaluate") == measured and value.current(["answer"])
    assert copy.deepcopy(session).latest("answer") == 0  # a new session's copy starts afresh


def test_an_answer_in_turns_keeps_its_signature_and_answers_as_before_without_turns():
    import inspect

    from space import turns

    def steps(text: str, mode: str = "lenient"):
        yield text
        yield mode

    def plain(text: str, *_: object) -> str:
        return text.upper()

    stepped = turns.answering(steps, "evaluate", ["answer"], ("left",), takes=["answer"])
    called = turns.answering(plain, "evaluate", ["agreement"], ("left",))
    assert stepped.__name__ == "steps" and list(stepped("a", "strict")) == ["a", "strict"]
    assert called("a", "b") == "A"
    # Gradio passes the session's Turns after the inputs: a parameter for it (none where *arguments takes it).
    assert list(inspect.signature(stepped).parameters) == ["text", "mode", "turns"]
    assert inspect.signature(called) == inspect.signature(plain)
    session = turns.Turns()
    assert list(stepped("a", "strict", session)) == ["a", "strict"] and called("a", session) == "A"


def test_while_an_older_event_writing_the_same_outputs_runs_each_step_repeats_the_steps_before_it():
    # Gradio 6's page wrote a value arriving while another event's progress marked the same output back to the
    # old one (space/turns.py): the newer action's later steps send its earlier values again meanwhile.
    from space import turns

    def steps(text: str):
        yield (text, "left")
        yield ("left", "picture of " + text)

    answer = turns.answering(steps, "evaluate", ["answer"], ("left", "left"), takes=["answer"])
    measure = turns.answering(steps, "measure", ["agreement"], ("left", "left"), takes=["agreement"])
    session = turns.Turns()
    older, other = answer("older", session), measure("other", session)
    assert next(older) == ("older", "left") and next(other) == ("other", "left")  # both still running
    assert list(answer("newer", session)) == [("newer", "left"), ("newer", "picture of newer")]
    assert list(older) == [("left", "left")] and list(other) == [("left", "picture of other")]
    # Once no older event of those outputs runs, each step is sent as it comes.
    assert list(answer("alone", session)) == [("alone", "left"), ("left", "picture of alone")]
    assert list(measure("alone", session)) == [("alone", "left"), ("left", "picture of alone")]


def test_an_action_overtaken_while_it_waits_for_its_lane_starts_no_work(monkeypatch):
    # One worker in the small lane, held by a first request: the second request waits, a third overtakes it. The
    # second, once it has the lane, answers `left` without scoring; the third scores.
    import threading

    from space import lanes, turns

    monkeypatch.setattr(caps, "SMALL_LANE_WORKERS", 1)
    lane_of = lanes.Lanes()
    release = threading.Event()
    scored = []

    def steps(text: str):
        if text == "first":
            release.wait(60)
        scored.append(text)
        yield (text,)
        yield ("picture of " + text,)

    within = functools.partial(lanes.steps_in_lane, lane_of, busy=lambda message, *_: (message,))
    answer = turns.answering(steps, "evaluate", ["answer"], ("left",), takes=["answer"], within=within)
    session, other = turns.Turns(), turns.Turns()
    shown: dict[str, list] = {}

    def request(text: str, turns_of: turns.Turns) -> None:
        shown[text] = list(answer(text, turns_of))

    first = threading.Thread(target=request, args=("first", other))  # another visitor's
    first.start()
    while lane_of.small.running == 0:
        time.sleep(0.01)
    second = threading.Thread(target=request, args=("second", session))
    second.start()
    while lane_of.small.waiting == 0:
        time.sleep(0.01)
    session.take("evaluate", ["answer"])  # the visitor's newer action (its event not yet started)
    release.set()
    first.join(60)
    second.join(60)
    assert shown == {"first": [("first",), ("picture of first",)], "second": [("left",)]}
    assert scored == ["first"] and lane_of.small.running == 0
