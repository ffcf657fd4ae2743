"""The Space against hostile requests, a sixth sweep (issue 31): each named case is a request of a few bytes to a
few hundred KB that an earlier page answered with a traceback, with markup of the visitor's in its status, or
after seconds of work; each fails on the code before its fix."""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest

from nerscore.result_scores import value_sums
from space import agreement, answers, caps, page_events, pictures, texts, writing


def _png(figure) -> str:
    return pictures.encode(figure)


# Type and annotator names between two dollar signs, which matplotlib read as mathtext: one it cannot parse raised
# ValueError when the picture was encoded (the page's picture step failed after the tables were shown).
MATHTEXT_NAMES = {
    "a CoNLL type": (texts.ONE_SYSTEM, "w B-$\\foo$ B-$\\foo$\nx O B-$^$"),
    "a type of spans": (
        texts.SPANS,
        json.dumps({"text": "abc", "references": [[0, 1, "$\\foo$"]], "predictions": [[0, 1, "$^$"]]}),
    ),
}


@pytest.mark.parametrize(("task", "text"), list(MATHTEXT_NAMES.values()), ids=list(MATHTEXT_NAMES))
def test_names_between_dollar_signs_are_drawn_as_written(task: str, text: str) -> None:
    answer = answers.page_answer(text, task=task)
    drawn = [pictures.png_url(picture) for picture in answer.pictures.values() if picture is not None]
    assert drawn and all(url and url.startswith("data:image/png") for url in drawn)


def test_annotator_names_between_dollar_signs_are_drawn_as_written() -> None:
    line = json.dumps({"text": "Ada met Bob", "annotations": {"$\\foo$": [[0, 3, "PER"]], "b": [[0, 3, "LOC"]]}})
    status, *_, figure = agreement.agreement_page(line)
    assert status.startswith("Measured"), status
    assert _png(figure).startswith("data:image/png")


def _spans_line(text: str, references: list, predictions: list) -> str:
    return json.dumps({"text": text, "references": references, "predictions": predictions})


# A status is Markdown: the visitor's names and strings quoted in it were written as they came, so an image of
# another site was fetched, a link or a heading drawn, and an unfound string of 100,000 characters made a status of
# 800 KB (8 of them).
HOSTILE_STATUS_NAMES = [
    "![x](http://tracker.example/t.png)",
    "[click](http://phish.example)",
    "<img src=x onerror=alert(1)>",
    "**bold** _it_ ~~gone~~",
    "X\n# a heading",
    "T" * 60_000,
]


def _unquoted_markup(status: str) -> str:
    """The Markdown characters a status holds unescaped (a success status writes none of its own)."""
    return "".join(character for character in re.sub(r"\\.", "", status) if character in "<>[]*_~`|")


@pytest.mark.parametrize("name", HOSTILE_STATUS_NAMES, ids=range(len(HOSTILE_STATUS_NAMES)))
def test_unfound_strings_are_quoted_shortened_and_escaped_in_the_status(name: str) -> None:
    lines = [_spans_line("Ada", [["X", "Ada"]], [[name, f"{name[:100]} {index}"]]) for index in range(8)]
    status = answers.spans_text("\n".join(lines))[0]
    assert "not found in the text" in status, status[:300]
    assert not _unquoted_markup(status) and "\n" not in status and len(status) < 3_000, status[:3_000]


@pytest.mark.parametrize("name", HOSTILE_STATUS_NAMES, ids=range(len(HOSTILE_STATUS_NAMES)))
def test_annotator_names_are_shortened_and_escaped_in_the_status(name: str) -> None:
    line = json.dumps({"text": "Ada met Bob", "annotations": {name: [[0, 3, "PER"]], "b": [[0, 3, "LOC"]]}})
    status = agreement.agreement_text(line)[0]
    assert status.startswith("Measured"), status[:300]
    assert not _unquoted_markup(status) and "\n" not in status and len(status) < 1_000, status


# The value score is summed exactly, per type (and per value cell and system when two are compared): 760 KB of
# 30,000 types took 8 s to evaluate and 12 s to compare with the value control on, where the page refuses it now,
# before summing, with a message naming the value control.
VALUE_SUMS = "nerscore.result_scores.value_sums"


def _tags(types: int, columns: int, sentences: int = 40) -> str:
    # the reference's type changes every sentence, the first system's every `types` sentences, and so on
    rows = (" ".join(f"B-T{row // types**column % types}" for column in range(columns)) for row in range(sentences))
    return "\n\n".join(f"w {tags}" for tags in rows)


VALUE_REQUESTS = {
    "one system, more types than summed": (answers.evaluate_text, _tags(40, 2)),
    "two systems, more value cells than summed": (answers.compare_text, _tags(8, 3, 64)),
    "spans, more types than summed": (
        lambda text, value: answers.spans_page(text, value),
        _spans_line("a" * 40, [[i, i + 1, f"T{i}"] for i in range(40)], [[i, i + 1, f"P{i}"] for i in range(40)]),
    ),
}


@pytest.mark.parametrize(("answer", "text"), list(VALUE_REQUESTS.values()), ids=list(VALUE_REQUESTS))
def test_a_value_score_beyond_the_caps_is_refused_before_it_is_summed(monkeypatch, answer, text: str) -> None:
    monkeypatch.setattr(caps, "MAX_VALUE_TYPES", 30)
    monkeypatch.setattr(caps, "MAX_VALUE_CELLS", 20)
    assert not answer(text, value="off")[0].startswith("⚠️")
    with mock.patch(VALUE_SUMS, side_effect=AssertionError("summed")):
        status = answer(text, value="ace08")[0]
    assert "Turn the value score off" in status, status


def test_the_value_score_is_summed_once_for_one_systems_page() -> None:
    # (the slices picture draws F1 only: its result summed the value score a second time, half the request)
    with mock.patch(VALUE_SUMS, wraps=value_sums) as summed:
        answer = answers.one_system_answer(_tags(5, 2), value="ace08")
    assert "Value" in answer.tables["status"] and answer.pictures["slices"] is not None
    assert summed.call_count == 1


@pytest.mark.slow
@pytest.mark.parametrize("answer", [answers.evaluate_page, answers.compare_text], ids=["evaluate", "compare"])
def test_a_value_score_of_30000_types_is_refused_before_it_is_summed(answer) -> None:
    text = "\n\n".join(f"w B-T{row} B-T{2 * row % 30_000} B-T{3 * row % 30_000}" for row in range(9_000))
    with mock.patch(VALUE_SUMS, side_effect=AssertionError("summed")):
        status = answer(text, value="ace08")[0]
    assert "Turn the value score off" in status, status


# Every pair's counts are summed over the annotators' labels: 8 annotators of 25,000 tokens (under the work cap) took
# 12.6 s with 5,000 types, 3 s with 4. Refused now beyond caps.MAX_AGREEMENT_LABELS, before anything is measured.
MEASURED = "space.agreement.nerscore.agreement"
MANY_LABELS = {
    "CoNLL columns": "\n".join(f"w B-T{row} I-T{row} B-U{row}" for row in range(4)),
    "JSON lines of spans": "\n".join(
        json.dumps({"text": "Ada", "annotations": {"a": [[0, 3, f"T{row}"]], "b": [[0, 1, f"U{row}"]]}})
        for row in range(4)
    ),
}


@pytest.mark.parametrize("text", list(MANY_LABELS.values()), ids=list(MANY_LABELS))
def test_annotators_of_more_labels_than_measured_are_refused_before_measuring(monkeypatch, text: str) -> None:
    assert agreement.agreement_text(text)[0].startswith("Measured")
    monkeypatch.setattr(caps, "MAX_AGREEMENT_LABELS", 7)
    with mock.patch(MEASURED, side_effect=AssertionError("measured")):
        status = agreement.agreement_text(text)[0]
    assert "distinct tags or entity types" in status and "at most 7" in status, status


@pytest.mark.slow
def test_eight_annotators_of_5000_types_are_refused_before_measuring() -> None:
    rows = ("w " + " ".join(f"B-{(row * 7 + column * 13) % 5_000}" for column in range(8)) for row in range(14_000))
    text = "\n\n".join("\n".join(sentence) for sentence in zip(*[rows] * 10))
    with mock.patch(MEASURED, side_effect=AssertionError("measured")):
        status = agreement.agreement_text(text)[0]
    assert "distinct tags or entity types" in status, status


def test_the_pictures_kept_are_keyed_by_a_digest_of_bounded_length() -> None:
    # Seven types of 60,000 characters (840 KB): the heatmap's and the chart's keys held every name whole, 420 KB
    # each, and `pictures.DRAWN` keeps 64 of them.
    text = "\n\n".join(f"w B-{'T' * 60_000}{index} B-{'T' * 60_000}{index}" for index in range(7))
    drawn = answers.page_answer(text).pictures
    assert drawn["heatmap"] is not None and drawn["chart"] is not None
    assert all(len(picture.key()) <= 100 for picture in drawn.values() if picture is not None)
    assert drawn["heatmap"].key() != answers.page_answer(text.replace("T0 ", "T7 ", 1)).pictures["heatmap"].key()


# The examples' event takes the index the request sends (Gradio's Dataset passes any JSON on): the page's buttons
# send 0 to 4, and anything else raised IndexError or TypeError in the event (and in its lane's size) before.
NO_EXAMPLES = {"past the last": 99, "negative": -1, "none": None, "a string": "0", "a list": [0], "huge": 10**30}


@pytest.mark.parametrize("index", list(NO_EXAMPLES.values()), ids=list(NO_EXAMPLES))
def test_an_index_naming_no_example_is_a_status(index) -> None:
    assert page_events.example_size(index) == 0
    steps = list(page_events.example_steps(index))
    assert len(steps) == 1 and len(steps[0]) == len(page_events.EXAMPLE_OUTPUTS) + len(answers.PAGE_OUTPUTS)
    status = steps[0][len(page_events.EXAMPLE_OUTPUTS)]
    assert status.startswith("⚠️") and "no example" in status, status


@pytest.mark.parametrize("text", [[1], {"a": 1}], ids=["a list", "a dict"])
def test_switching_task_keeps_an_editor_text_that_is_no_string(text) -> None:
    # (the editor passes any JSON a request sends: an unhashable one raised TypeError looking it up among examples)
    assert page_events.switch_task(text, texts.TWO_SYSTEMS) == page_events.switch_task("w O O", texts.TWO_SYSTEMS)


# Spans were read twice on the page's path (space/scoring.py reads them to weigh their cost, then the accumulator
# reads the `Span`s again), and each reading made four ABC checks an entity: `isinstance(_, Mapping)` twice for a
# list, `isinstance(_, numbers.Integral)` for each offset (`is_id`): about half of the 850 KB page's time. A list
# of int offsets and a `Span` are now read without one.
class _Watched(type):
    """A stand-in for an ABC that records each `isinstance` asked of it and answers as the ABC does."""

    def __instancecheck__(cls, instance) -> bool:
        cls.asked.append(type(instance).__name__)
        return isinstance(instance, cls.abc)


def _watched(abc: type) -> type:
    return _Watched(abc.__name__, (), {"abc": abc, "asked": []})


def test_spans_of_int_offsets_are_read_without_abc_checks(monkeypatch) -> None:
    import collections.abc
    import numbers
    import types

    import numpy as np

    from nerscore import option_checks, read_spans
    from nerscore.forms import inputs

    integral, mapping = _watched(numbers.Integral), _watched(collections.abc.Mapping)
    monkeypatch.setattr(option_checks, "numbers", types.SimpleNamespace(Integral=integral))
    monkeypatch.setattr(inputs, "Mapping", mapping)

    def checks(batch: list) -> int:  # the checks asked of an ABC in reading the batch, then its Spans again
        integral.asked.clear()
        mapping.asked.clear()
        read = read_spans(batch, "references")
        assert read_spans(read, "references") == read
        return len(integral.asked) + len(mapping.asked)

    # (the batch itself is looked at: a check or two a batch, never one an entity)
    assert checks([[[0, 3, "PER"], (4, 9, "LOC")] * 50, []]) == checks([[[0, 3, "PER"]]])
    assert integral.asked == []  # (an offset's `is_id`)
    # (the other forms still are checked so: a dict, a numpy offset)
    assert checks([[{"start": 0, "end": 3, "type": "PER"}, [0, np.int64(3), "PER"]]]) > checks([[[0, 3, "PER"]]])


# Counts in words: the agreement's status said "1 sentence (1 tokens)", its work cap "1 pairs of annotators", the drawn
# documents' note "1 entities ... are not drawn".
def _one_of_each(monkeypatch) -> dict[str, str]:
    spans = _spans_line("Ada Bob", [[0, 7, "ORG"], [0, 3, "PER"]], [[0, 3, "PER"]])
    found = {"agreement": agreement.agreement_text("Ada B-PER B-PER")[0]}
    monkeypatch.setattr(caps, "MAX_AGREEMENT_WORK", 0)
    found["agreement's work"] = agreement.agreement_text("Ada B-PER B-PER")[0]
    monkeypatch.setattr(caps, "MAX_SHOWN_ENTITIES", 1)
    found["entities not drawn"] = answers.spans_text(spans)[4]
    monkeypatch.setattr(caps, "MAX_SHOWN_ENTITIES", 10)
    monkeypatch.setattr(caps, "MAX_SHOWN_DEPTH", 1)
    found["entities nested too deep"] = answers.spans_text(spans)[4]
    return found


ONE_OF_EACH = {
    "agreement": "on 1 sentence (1 token),",
    "agreement's work": "holds 1 token and 1 pair of annotators, 1 token",
    "entities not drawn": "1 entity beyond the first 1 of a side is not drawn",
    "entities nested too deep": "1 entity nested inside 1 other is not drawn",
}


def test_one_thing_is_counted_in_the_singular(monkeypatch) -> None:
    found = _one_of_each(monkeypatch)
    for case, words in ONE_OF_EACH.items():
        assert words in found[case], (case, found[case][-400:])


def test_an_empty_annotator_name_is_refused_naming_its_place() -> None:
    # (measured as annotator '' before, shown as a blank; the package's readers refuse an empty name in `--names` and
    # a Label Studio task's completed_by)
    line = json.dumps({"text": "Ada met Bob", "annotations": {"a": [[0, 3, "PER"]], "": [], "c": [[0, 3, "LOC"]]}})
    for status in (agreement.agreement_text(line)[0], agreement.agreement_page(line)[0]):
        assert status.startswith("⚠️") and "Annotator 2 of 3 has an empty name" in status, status


# Bidirectional controls (UAX #9) in a visitor's token, type or name reordered the rest of its line: U+202E in a
# token wrote the rest of the drawn sentence backwards, in an annotator's name the rest of the status. A drawing
# isolates the text that holds one in a <bdi>, a status writes it as an escape; text without one is as it was.
BIDI_CONTROLS = "\u202e\u202d\u2066\u2067\u2068\u2069\u200e\u200f"


def _outside_bdi(markup: str) -> str:
    return re.sub(r"<bdi>.*?</bdi>", "", markup, flags=re.S)


def _drawn(text: str, task: str = texts.ONE_SYSTEM) -> str:
    return answers.page_answer(text, task=task).tables["sentences"]


@pytest.mark.parametrize("control", BIDI_CONTROLS, ids=lambda control: f"U+{ord(control):04X}")
def test_bidi_controls_are_isolated_in_drawings_and_escaped_in_statuses(control: str) -> None:
    token, entity_type = f"Ada{control}x", f"PER{control}"
    conll = f"{token} B-{entity_type} B-{entity_type}\nmet O O\n{token} O B-X"
    spans = _spans_line(f"Ada{control} met Bob", [[0, 4, entity_type]], [[9, 12, entity_type]])
    for drawn in (_drawn(conll), _drawn(spans, texts.SPANS)):
        assert control in drawn and control not in _outside_bdi(drawn), drawn
    line = json.dumps({"text": "Ada met Bob", "annotations": {f"ann{control}": [[0, 3, "PER"]], "b": []}})
    status = agreement.agreement_text(line)[0]
    assert status.startswith("Measured") and control not in status and f"ann\\\\u{ord(control):04x}" in status
    strings = _spans_line("Ada", [["X", "Ada"]], [[f"T{control}", f"Bob{control}"]])
    status = answers.spans_text(strings)[0]
    assert "not found in the text" in status and control not in status, status


def test_text_without_bidi_controls_is_drawn_and_quoted_as_before() -> None:
    assert "<bdi>" not in _drawn(texts.ENGLISH_EXAMPLE) and "<bdi>" not in _drawn(texts.SPANS_EXAMPLE, texts.SPANS)
    assert writing.quoted("Ada (mathématicienne) עברית") == "Ada (mathématicienne) עברית"
