"""The Space against hostile requests, a sixth sweep (issue 31): each named case is a request of a few bytes to a
few hundred KB that an earlier page answered with a traceback, with markup of the visitor's in its status, or
after seconds of work; each fails on the code before its fix."""

from __future__ import annotations

import json
import re

import pytest

from space import agreement, answers, pictures, texts


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
