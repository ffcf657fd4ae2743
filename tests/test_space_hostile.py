"""The Space against hostile requests (issue 31: every request's cost is checked before it runs): each named case
is a request under the page's byte and sentence caps that an earlier page answered only after seconds of work, now
refused by the cost check, naming its line, before anything is grounded or paired."""

from __future__ import annotations

import json
from unittest import mock

import pytest

from space import answers, caps

GROUNDING = "space.scoring.nerscore.Accumulator.ground"


def strings_line(text: str, references: list, predictions: list) -> str:
    return json.dumps({"text": text, "references": references, "predictions": predictions})


# Requests of one document, each a few KB to 300 KB, whose grounding the page used to run: the search for a
# periodic string's occurrences costs their number times its length, and every occurrence that touches a reference
# is a candidate of the grounding's flow, once for each type its text is predicted with (measured before the
# check: 37 s, 2.6 s, 2.2 s, 13 s and 96 s of CPU).
HOSTILE_GROUNDING = {
    "a periodic string of 100,000 characters in a text of 200,000": strings_line(
        "a" * 200_000, [["X", "a" * 100_000]], [["X", "a" * 100_000]]
    ),
    "one letter predicted under a span reference of 40,000 characters": strings_line(
        "a" * 40_000, [[0, 40_000, "X"]], [["X", "a"]]
    ),
    "one letter predicted under a string reference of 40,000 characters": strings_line(
        "a" * 40_000, [["X", "a" * 40_000]], [["X", "a"]]
    ),
    # each type of a text chooses among its occurrences on its own: 20 types, 20 times the candidates (13 s, 10 GB)
    "one letter predicted with 20 types under a reference of 5,000 occurrences": strings_line(
        "a " * 5_000, [[0, 9_999, "X"]], [[f"T{index}", "a"] for index in range(20)]
    ),
    "150 references and 150 predictions of one letter in 150 types": strings_line(
        "a " * 400_000, [["X", "a"]] * 150, [[f"T{index}", "a"] for index in range(150)]
    ),
    "one letter predicted under 300 nested span references": strings_line(
        "a" * 20_000, [[0, 20_000 - index, "X"] for index in range(300)], [["X", "a"]]
    ),
}


@pytest.mark.parametrize("line", list(HOSTILE_GROUNDING.values()), ids=list(HOSTILE_GROUNDING))
def test_costly_grounding_is_refused_before_it_runs(line):
    with mock.patch(GROUNDING, side_effect=AssertionError("grounded")):
        status = answers.spans_text("\n".join(['{"text": "", "references": [], "predictions": []}', line]))[0]
    assert "Line 2:" in status and "occurrences" in status, status


def test_a_request_of_documents_each_under_the_caps_is_bounded():
    # Each document under the cap, about 0.6 s of grounding (the flow grows faster than the occurrences it
    # weighs): three of them are more than a request may cost.
    line = strings_line("a " * 300, [["X", "a"]] * 150, [[f"T{index % 12}", "a"] for index in range(150)])
    assert answers.spans_text(line)[0].startswith("Evaluated 1 document")
    with mock.patch(GROUNDING, side_effect=AssertionError("grounded")):
        status = answers.spans_text("\n".join([line] * 3))[0]
    assert "the documents up to this line" in status, status


def test_the_occurrence_caps_bound_a_request_of_several_documents(monkeypatch):
    # Each document under the document cap, the request past its own.
    line = strings_line("a" * 3_000, [[0, 3_000, "X"]], [["X", "a"]])
    monkeypatch.setattr(caps, "MAX_DOCUMENT_OCCURRENCES", 7_000)
    monkeypatch.setattr(caps, "MAX_REQUEST_OCCURRENCES", 10_000)
    with mock.patch(GROUNDING, side_effect=AssertionError("grounded")):
        status = answers.spans_text("\n".join([line] * 3))[0]
    assert "Line 2: the documents up to this line" in status, status


# Requests the caps leave alone: what a page of ordinary documents grounds, many occurrences far from the
# references included (the package stops looking once enough free ones are found past them).
ANSWERED = {
    "the red team's block": strings_line(
        " ".join(["a"] * 13),
        [[2 * i, 2 * i + 1, "XY"[i % 2]] for i in range(11)],
        [["XY"[i % 2], "a"] for i in range(14)],
    ),
    "150 strings on 400,000 occurrences": strings_line("a " * 400_000, [["X", "a"]] * 150, [["X", "a"]] * 150),
    "a long text with a few entities": strings_line(
        "Ada met Bob. " * 20_000, [["PER", "Ada"], ["PER", "Bob"]], [["PER", "Ada"], ["PER", "Bob"], ["LOC", "met"]]
    ),
    # no choice to make (each text occurs no more often than it is predicted): no flow, whatever the documents
    "10,000 documents of one string each": "\n".join(
        [strings_line("Ada met Bob", [["P", "Ada"]], [["P", "Ada"]])] * 10_000
    ),
}


@pytest.mark.parametrize("line", list(ANSWERED.values()), ids=list(ANSWERED))
def test_ordinary_grounding_is_answered(line):
    status = answers.spans_text(line)[0]
    assert status.startswith("Evaluated 1"), status
