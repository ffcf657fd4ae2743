"""The Space's drawings of entities in pieces (space/markup.py, and the tables' texts of space/frames.py and
space/writing.py): an entity of several fragments (docs/scoring.md §12) in the spans mode, each piece drawn with
the entity's type and colour, a dashed outline and the entity's number, and its fragments' texts in the tables."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from space import answers, caps, markup, parsing, scoring, texts, writing

NOTE = "Patient reports muscle pain and fatigue after the statin."
# docs/spans.md's clinical example: "muscle ... fatigue" in pieces, found by the reference and by the prediction,
# and "muscle pain" (reference) against "muscle" (prediction).
CLINICAL = {
    "text": NOTE,
    "references": [{"fragments": [[16, 22], [32, 39]], "type": "ADR"}, [16, 27, "ADR"]],
    "predictions": [{"fragments": [[16, 22], [32, 39]], "type": "ADR"}, [16, 22, "ADR"]],
}


def drawn(line: dict) -> str:
    """The highlighted documents the page draws for one JSON line."""
    corpus = parsing.parse_spans(json.dumps(line))
    return markup.spans_html(scoring.evaluate_spans(corpus), corpus)


class _Covered(HTMLParser):
    """For each side of each drawn document, the characters of its text inside marks of each joint number (the
    entity's number on its pieces), and the types and joints of the marks in order."""

    def __init__(self) -> None:
        super().__init__()
        self.position = 0
        self.stack: list[tuple[str, str]] = []  # open tags: (tag, class)
        self.joints: list[str | None] = []  # the joint of each open mark (None until its <sup> is read)
        self.marks: list[int] = []  # where each open mark starts in the text
        self.sides: list[dict[str, set[int]]] = []
        self.in_text = False
        self.reading: str | None = None  # "type" or "joint" inside a mark's label

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        kind = dict(attrs).get("class") or ""
        self.stack.append((tag, kind))
        if kind == "doc-text":
            self.in_text, self.position = True, 0
            self.sides.append({})
        elif tag == "mark":
            self.marks.append(self.position)
            self.joints.append(None)
        elif kind in ("entity-type", "joint"):
            self.reading = kind

    def handle_endtag(self, tag: str) -> None:
        _, kind = self.stack.pop()
        if kind == "doc-text":
            self.in_text = False
        elif tag == "mark":
            start, joint = self.marks.pop(), self.joints.pop()
            if joint is not None:
                self.sides[-1].setdefault(joint, set()).update(range(start, self.position))
        elif kind in ("entity-type", "joint"):
            self.reading = None

    def handle_data(self, data: str) -> None:
        if self.reading == "joint":
            self.joints[-1] = data
        elif self.reading is None and self.in_text:
            self.position += len(data)


def covered(documents: str) -> list[dict[str, set[int]]]:
    parser = _Covered()
    parser.feed(documents)
    return parser.sides


def test_each_piece_is_drawn_with_the_type_colour_outline_and_number_of_its_entity():
    documents = drawn(CLINICAL)
    pieces = re.findall(r'<mark class="piece" style="background:([^"]+)" title="([^"]+)">([^<]*)<', documents)
    # Two pieces on each side, the same colour as the contiguous ADR marks, both saying where the other is.
    assert [text for _, _, text in pieces] == ["muscle", "fatigue", "muscle", "fatigue"]
    colour = re.search(r'<mark style="background:([^"]+)" title="ADR \[16:27\]', documents).group(1)
    assert {background for background, _, _ in pieces} == {colour}
    assert all(title.startswith("ADR [16:22]+[32:39] (pieces marked 1), scenario I:") for _, title, _ in pieces)
    assert documents.count('<span class="entity-type">ADR</span><sup class="joint">1</sup></mark>') == 4
    # Each side's pieces cover the entity's units, and "pain and " between them is not in the entity.
    sides = covered(documents)
    units = set(range(16, 22)) | set(range(32, 39))
    assert sides == [{"1": units}, {"1": units}]
    assert "mark.piece" in markup.SENTENCES_CSS and ".joint" in markup.SENTENCES_CSS


def test_entities_in_pieces_are_numbered_on_each_side_and_contiguous_ones_are_not():
    line = {
        "text": "left and right ventricle, upper and lower lobe",
        "references": [
            {"fragments": [[0, 4], [15, 24]], "type": "ANAT"},
            {"fragments": [[9, 24]], "type": "ANAT"},  # one fragment: a contiguous entity
            {"fragments": [[26, 31], [42, 46]], "type": "ANAT"},
        ],
        "predictions": [{"fragments": [[26, 31], [42, 46]], "type": "ANAT"}],
    }
    sides = covered(drawn(line))
    assert sides == [
        {"1": set(range(0, 4)) | set(range(15, 24)), "2": set(range(26, 31)) | set(range(42, 46))},
        {"1": set(range(26, 31)) | set(range(42, 46))},
    ]


def test_an_entity_of_one_fragment_is_drawn_and_listed_as_its_span():
    as_fragments = {
        "text": NOTE,
        "references": [{"fragments": [[16, 27]], "type": "ADR"}, {"fragments": [[16, 20], [18, 22]], "type": "ADR"}],
        "predictions": [{"fragments": [[16, 22], [22, 27]], "type": "ADR"}],
    }
    as_spans = {"text": NOTE, "references": [[16, 27, "ADR"], [16, 22, "ADR"]], "predictions": [[16, 27, "ADR"]]}
    # Touching and overlapping fragments merge into one (docs/scoring.md §12): the same page, mark for mark.
    pages = [answers.spans_text(json.dumps(line)) for line in (as_fragments, as_spans)]
    status, scenarios, summary, per_type, documents = pages[0]
    assert status == pages[1][0] and documents == pages[1][4]
    assert scenarios.data.values.tolist() == pages[1][1].data.values.tolist()
    assert summary.values.tolist() == pages[1][2].values.tolist()
    assert per_type.values.tolist() == pages[1][3].values.tolist()
    assert drawn(as_fragments) == drawn(as_spans)
    assert 'class="piece"' not in drawn(as_spans)


def test_contiguous_documents_have_no_pieces_or_joints():
    documents = answers.spans_text(texts.SPANS_EXAMPLE)[4]
    assert 'class="piece"' not in documents and "joint" not in documents and "<mark" in documents


def test_the_tables_give_an_entity_s_fragments_texts():
    status, scenarios, *_ = answers.spans_text(json.dumps(CLINICAL))
    assert status.startswith("Evaluated 1 document of spans: 2 reference and 2 predicted entities"), status
    rows = scenarios.data.values.tolist()
    assert ["1", "I", "ADR", "muscle … fatigue", "ADR", "muscle … fatigue", "COR", "COR", "COR", "COR"] in rows
    assert ["1", "V", "ADR", "muscle pain", "ADR", "muscle", "COR", "PAR", "INC", "INC"] in rows


def test_without_a_text_each_piece_is_drawn_as_its_offsets():
    line = {key: value for key, value in CLINICAL.items() if key != "text"}
    documents = drawn(line)
    joint = '<span class="entity-type">ADR</span><sup class="joint">1</sup></mark>'
    assert documents.count(f">16–22{joint}") == 2 and documents.count(f">32–39{joint}") == 2
    _, scenarios, *_ = answers.spans_text(json.dumps(line))
    assert scenarios.data.values.tolist()[-1][3] == "[16:22] … [32:39]"


def test_pieces_beyond_the_drawn_text_are_cut_like_entities(monkeypatch):
    monkeypatch.setattr(caps, "MAX_SHOWN_CHARACTERS", 35)  # the text drawn ends inside "fatigue" (32-39)
    line = {
        "text": NOTE,
        "references": [{"fragments": [[16, 22], [32, 39], [50, 56]], "type": "ADR"}],
        "predictions": [],
    }
    assert covered(drawn(line))[0] == {"1": set(range(16, 22)) | set(range(32, 35))}


def test_an_entity_of_thousands_of_fragments_costs_what_its_drawing_shows():
    # 10,000 fragments: more pieces than a side draws (the entity is left out whole, and the note says so), a
    # table cell as short as any, and tooltips that do not list every fragment on every piece.
    text = "ab " * 10_000
    many = {"fragments": [[3 * i, 3 * i + 2] for i in range(10_000)], "type": "X"}
    documents = drawn({"text": text, "references": [many], "predictions": [[0, 2, "X"]]})
    assert 'class="piece"' not in documents
    assert "1 entity beyond the first 2,000 marks (one a piece) of a side is not drawn" in documents
    assert len(writing.pieces_text(text, many["fragments"])) <= caps.MAX_TEXT_CHARACTERS + 1
    few = {"fragments": many["fragments"][:1_000], "type": "X"}
    documents = drawn({"text": text, "references": [few], "predictions": []})
    assert documents.count('class="piece"') == 1_000
    assert len(documents) < 1_000 * 400
    assert "(1,000 fragments)" in documents


def test_a_piece_text_is_shortened_after_the_pieces_that_show():
    text = "abcdefghij" * 10
    assert writing.pieces_text(text, [[0, 10], [20, 30]]) == "abcdefghij … abcdefghij"
    assert writing.pieces_text(text, [[0, 10], [20, 30], [40, 49], [50, 51]]) == "abcdefghij … abcdefghij … abcd…"
    assert writing.pieces_text(None, [[1, 2], [4, 5]]) == "[1:2] … [4:5]"


@st.composite
def interleaved(draw: st.DrawFn) -> tuple[str, list[dict]]:
    """A text and entities in pieces whose units are disjoint but whose extents interleave."""
    length = draw(st.integers(4, 60))
    owners = draw(st.lists(st.integers(-1, 4), min_size=length, max_size=length))
    entities = []
    for owner in sorted(set(owners) - {-1}):
        units = [position for position, who in enumerate(owners) if who == owner]
        fragments = [[position, position + 1] for position in units]
        entities.append({"fragments": fragments, "type": draw(st.sampled_from(["A", "B"]))})
    return "x" * length, entities


@settings(max_examples=60, deadline=None)
@given(interleaved())
def test_the_pieces_of_each_entity_cover_its_units(document):
    # Whatever their interleaving, the marks of each entity in pieces cover its units and nothing else; the
    # entities are numbered as they start.
    text, entities = document
    sides = covered(drawn({"text": text, "references": entities, "predictions": []}))
    in_pieces = []
    for entity in entities:
        units = {start for start, _ in entity["fragments"]}
        if sum(1 for unit in units if unit - 1 not in units) > 1:  # more than one piece once merged
            in_pieces.append(units)
    in_pieces.sort(key=min)
    assert sides[0] == {str(number): units for number, units in enumerate(in_pieces, start=1)}
