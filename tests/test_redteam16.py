"""The Space against hostile requests, a sixth sweep (issue 31): each named case is a request of a few bytes to a
few hundred KB that an earlier page answered with a traceback, with markup of the visitor's in its status, or
after seconds of work; each fails on the code before its fix."""

from __future__ import annotations

import json

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
