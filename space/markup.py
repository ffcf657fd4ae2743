"""The page's HTML: each drawn sentence (of tags) or document (of spans) twice, reference and prediction, its
entities highlighted by type with their scenario in a tooltip, within the drawing caps of `caps` (a note says what
was left out); and the style sheet of these drawings.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence

from . import caps, writing
from .colours import type_colours
from .parsing import Corpus, SpanCorpus
from .scoring import SCHEME_COLUMNS, Evaluation

SENTENCES_CSS = """
.sentence { display: flex; gap: 0.75em; padding: 0.4em 0; border-bottom: 1px solid #e5e7eb; line-height: 2.1; }
.number { color: #6b7280; min-width: 1.5em; text-align: right; }
.side-name { display: inline-block; width: 5.5em; color: #6b7280; font-size: 0.85em; }
mark { padding: 0.1em 0.3em; border-radius: 0.3em; color: #111111; }
mark mark { border: 1px solid #6b7280; }
.doc-text { white-space: pre-wrap; }
.entity-type { font-family: var(--font-mono); font-size: 0.7em; font-weight: 600; margin-left: 0.35em; color: #374151; }
mark.piece { border: 1px dashed #111827; }
.joint { font-family: var(--font-mono); font-size: 0.65em; font-weight: 700; margin-left: 0.2em; color: #111827; }
"""


# An entity as the highlighted sentence draws it: its end (cut where the drawing stops), type and tooltip.
Mark = tuple[int, str, str]


def _title(tooltip: str) -> str:
    """A mark's tooltip as its title attribute: escaped, a visitor's bidirectional controls as escapes."""
    return html.escape(writing.escaped_controls(tooltip))


def _highlight(tokens: Sequence[str], marks: dict[int, Mark], colours: dict[str, str]) -> str:
    """Tokens as HTML with each entity ``start -> (end, type, tooltip)`` marked, spaced by `join_segments`."""
    segments = []  # (first token, last token, HTML) of each entity and each token outside entities
    position = 0
    while position < len(tokens):
        if position in marks:
            end, entity_type, tooltip = marks[position]
            piece = (
                f'<mark style="background:{colours[entity_type]}" title="{_title(tooltip)}">'
                f"{writing.html_text(writing.join_tokens(tokens[position:end]))}"
                f'<span class="entity-type">{writing.html_text(writing.shorten(entity_type))}</span></mark>'
            )
        else:
            end = position + 1
            piece = writing.html_text(tokens[position])
        segments.append((tokens[position], tokens[end - 1], piece))
        position = end
    return writing.join_segments(segments)


def _drawn_lengths(corpus: Corpus) -> list[int]:
    """How many tokens of each drawn sentence are drawn: the first `caps.MAX_SHOWN_SENTENCES` sentences, until
    `caps.MAX_SHOWN_TOKENS` tokens are drawn (so only the last drawn sentence may be cut)."""
    lengths = []
    budget = caps.MAX_SHOWN_TOKENS
    for tokens in corpus.tokens[: caps.MAX_SHOWN_SENTENCES]:
        if budget == 0:
            break
        lengths.append(min(len(tokens), budget))
        budget -= lengths[-1]
    return lengths


def sentences_html(evaluation: Evaluation, corpus: Corpus) -> str:
    """Each drawn sentence twice, reference and prediction, with the entities highlighted by type, and a note
    on what was left out."""
    drawn = _drawn_lengths(corpus)
    colours = type_colours(evaluation.entity_types)
    sides: list[tuple[dict[int, Mark], dict[int, Mark]]] = [({}, {}) for _ in drawn]
    for row in evaluation.entities:  # in sentence order
        if row["sentence"] >= len(drawn):
            break
        cut = drawn[row["sentence"]]
        tooltip = f"scenario {row['scenario']}: " + ", ".join(f"{s} {row[s]}" for s in SCHEME_COLUMNS)
        for side, marks in zip((row["reference"], row["prediction"]), sides[row["sentence"]]):
            if side is not None and side["start"] < cut:
                marks[side["start"]] = (min(side["end"], cut), side["type"], tooltip)
    parts = []
    for index, (length, (reference_marks, predicted_marks)) in enumerate(zip(drawn, sides)):
        tokens = [writing.shorten(token) for token in corpus.tokens[index][:length]]
        rest = f" {writing.ELLIPSIS}" if length < len(corpus.tokens[index]) else ""
        parts.append(
            f'<div class="sentence"><div class="number">{index + 1}</div><div>'
            f'<div class="side"><span class="side-name">reference</span> '
            f"{_highlight(tokens, reference_marks, colours)}{rest}</div>"
            f'<div class="side"><span class="side-name">predicted</span> '
            f"{_highlight(tokens, predicted_marks, colours)}{rest}</div></div></div>"
        )
    left_out = []
    if drawn[-1] < len(corpus.tokens[len(drawn) - 1]):
        left_out.append(
            f"sentence {len(drawn):,} is cut after {drawn[-1]:,} of {len(corpus.tokens[len(drawn) - 1]):,} tokens"
        )
    if len(drawn) < len(corpus.tokens):
        left_out.append(f"the first {len(drawn):,} of {len(corpus.tokens):,} sentences are shown")
    parts.extend(_left_out_note(left_out))
    return "\n".join(parts)


# A piece of an entity as a highlighted document draws it: start, end (cut to the text drawn and to the entity
# around it), type, tooltip, and its joint: the HTML that every piece of an entity of several fragments ends with
# (the same number on each, docs/scoring.md §12), none (or "") for a contiguous entity.
SpanMark = tuple[int, int, str, str] | tuple[int, int, str, str, str]


def _opening(entity_type: str, tooltip: str, joint: str, colours: dict[str, str]) -> str:
    """The <mark> that opens a piece: a piece of an entity of several fragments has a dashed outline."""
    piece = ' class="piece"' if joint else ""
    return f'<mark{piece} style="background:{colours[entity_type]}" title="{_title(tooltip)}">'


def _closing(entity_type: str, joint: str) -> str:
    """What closes a piece: its type and joint."""
    return f'<span class="entity-type">{writing.html_text(writing.shorten(entity_type))}</span>{joint}</mark>'


def _pieces(side: dict) -> list[list[int]]:
    """The pieces of an entity of the `entities` rows: its fragments (merged by the package), or its extent."""
    return side.get("fragments") or [[side["start"], side["end"]]]


def _nest(marks: list[SpanMark]) -> tuple[list[tuple[SpanMark, list]], int]:
    """The marks as a forest, each with the marks inside it: sorted by start, the longer first; a mark that
    crosses the end of the one around it is cut there (its tooltip keeps its own offsets). Marks that would lie
    inside `caps.MAX_SHOWN_DEPTH` others are left out; the second value counts them."""
    roots: list[tuple[SpanMark, list]] = []
    stack: list[tuple[SpanMark, list]] = []
    too_deep = 0
    for start, end, *rest in sorted(marks, key=lambda mark: (mark[0], -mark[1])):
        while stack and stack[-1][0][1] <= start:
            stack.pop()
        if len(stack) >= caps.MAX_SHOWN_DEPTH:
            too_deep += 1
            continue
        if stack:
            end = min(end, stack[-1][0][1])
        node: tuple[SpanMark, list] = ((start, end, *rest), [])
        (stack[-1][1] if stack else roots).append(node)
        stack.append(node)
    return roots, too_deep


def _highlight_text(
    text: str, start: int, end: int, nodes: list[tuple[SpanMark, list]], colours: dict[str, str]
) -> str:
    """``text[start:end]`` as HTML with the marks of `nodes` (and those inside them) as nested <mark>s. A loop over
    a stack of open marks, not a recursion, so that no depth of nesting exhausts Python's stack."""
    parts = []
    # Each open mark (the text drawn as the outermost): its marks not yet drawn, where its text has been drawn up
    # to, where it ends, and what closes it.
    stack: list[tuple[Iterator[tuple[SpanMark, list]], list[int], int, str]] = [(iter(nodes), [start], end, "")]
    while stack:
        inside, position, mark_end, closing = stack[-1]
        node = next(inside, None)
        if node is None:
            parts.append(writing.html_text(text[position[0] : mark_end]) + closing)
            stack.pop()
            if stack:
                stack[-1][1][0] = mark_end
            continue
        (child_start, child_end, entity_type, tooltip, *joint_given), children = node
        joint = "".join(joint_given)  # none or one
        parts.append(writing.html_text(text[position[0] : child_start]))
        parts.append(_opening(entity_type, tooltip, joint, colours))
        closing = _closing(entity_type, joint)
        stack.append((iter(children), [child_start], child_end, closing))
    return "".join(parts)


def _offsets_only(marks: list[SpanMark], colours: dict[str, str]) -> str:
    """A document without text: its entities as offsets, in order."""
    if not marks:
        return f'<span class="no-text">{writing.NONE}</span>'
    return " ".join(
        f"{_opening(entity_type, tooltip, ''.join(joint), colours)}{start}–{end}{_closing(entity_type, ''.join(joint))}"
        for start, end, entity_type, tooltip, *joint in sorted(marks, key=lambda mark: (mark[0], -mark[1]))
    )


# The fragments a tooltip lists: each piece's tooltip lists them, so an entity of thousands of fragments would
# cost the square of their number.
_TOOLTIP_FRAGMENTS = 4


def _where(fragments: list[list[int]]) -> str:
    """An entity's fragments as a tooltip gives them: ``[16:22]+[32:39]``, the first `_TOOLTIP_FRAGMENTS` and
    how many more."""
    shown = "+".join(f"[{start}:{end}]" for start, end in fragments[:_TOOLTIP_FRAGMENTS])
    more = len(fragments) - _TOOLTIP_FRAGMENTS
    return shown if more <= 0 else f"{shown}+{writing.ELLIPSIS} ({len(fragments):,} fragments)"


def spans_html(evaluation: Evaluation, corpus: SpanCorpus) -> str:
    """Each drawn document twice, reference and prediction, its character spans highlighted by type: nested
    entities as nested marks (each with its type; hover one for its offsets and scenario), an entity that
    crosses another's end cut there, an entity of several fragments as its pieces, each with the entity's type,
    colour, a dashed outline and the same number (docs/scoring.md §12). The first `caps.MAX_SHOWN_SENTENCES`
    documents, `caps.MAX_SHOWN_CHARACTERS` of text and `caps.MAX_SHOWN_ENTITIES` marks of each side in all (an
    entity is drawn whole or not), marks at most `caps.MAX_SHOWN_DEPTH` deep; a note says what was left out."""
    colours = type_colours(evaluation.entity_types)
    documents = min(len(corpus.lines), caps.MAX_SHOWN_SENTENCES)
    cuts = []  # the characters drawn of each drawn document
    budget = caps.MAX_SHOWN_CHARACTERS
    for text in corpus.texts[:documents]:
        if budget == 0:
            break
        cuts.append(min(len(text or ""), budget))
        budget -= cuts[-1]
    sides: list[tuple[list[SpanMark], list[SpanMark]]] = [([], []) for _ in cuts]
    left_out_entities = 0
    drawn_entities = [0, 0]  # the marks drawn on each side: one per piece
    # The entities of several fragments drawn on each side of each document: their pieces, row side and scenario.
    in_pieces_drawn: list[tuple[list, list]] = [([], []) for _ in cuts]
    in_pieces = False  # whether an entity in pieces was met (the note then says how pieces count)
    for row in evaluation.entities:  # in document order
        if row["sentence"] >= len(cuts):
            break
        text = corpus.texts[row["sentence"]]
        cut = cuts[row["sentence"]]
        scenario = f"scenario {row['scenario']}: " + ", ".join(f"{s} {row[s]}" for s in SCHEME_COLUMNS)
        for number, (side, marks) in enumerate(zip((row["reference"], row["prediction"]), sides[row["sentence"]])):
            if side is None or side["start"] is None:  # an ungrounded string: listed by the status, not drawn
                continue
            in_pieces = in_pieces or "fragments" in side
            if drawn_entities[number] == caps.MAX_SHOWN_ENTITIES:
                left_out_entities += 1
                continue
            # The pieces drawn: those that start in the text drawn (all of them without a text), cut there.
            pieces = [
                (start, end if text is None else min(end, cut))
                for start, end in _pieces(side)
                if text is None or start < cut
            ]
            if not pieces:
                continue
            if drawn_entities[number] + len(pieces) > caps.MAX_SHOWN_ENTITIES:  # an entity is drawn whole or not
                left_out_entities += 1
                continue
            drawn_entities[number] += len(pieces)
            if "fragments" in side:  # numbered below, in reading order
                in_pieces_drawn[row["sentence"]][number].append((pieces, side, scenario))
            else:
                tooltip = f"{side['type']} [{side['start']}:{side['end']}], {scenario}"
                marks.append((pieces[0][0], pieces[0][1], side["type"], tooltip, ""))
    for entities_in_pieces, document_marks in zip(in_pieces_drawn, sides):
        for entities, marks in zip(entities_in_pieces, document_marks):
            # Each piece of an entity of several fragments: its type, its colour and the entity's number, the
            # entities numbered as they start on the side.
            entities.sort(key=lambda entity: (entity[1]["start"], -entity[1]["end"]))
            for joint_number, (pieces, side, scenario) in enumerate(entities, start=1):
                where = f"{_where(side['fragments'])} (pieces marked {joint_number})"
                tooltip = f"{side['type']} {where}, {scenario}"
                joint = f'<sup class="joint">{joint_number}</sup>'
                marks.extend((start, end, side["type"], tooltip, joint) for start, end in pieces)
    parts = []
    too_deep = 0
    for index, (cut, (reference_marks, predicted_marks)) in enumerate(zip(cuts, sides)):
        text = corpus.texts[index]
        drawings = []
        for marks in (reference_marks, predicted_marks):
            if text is None:
                drawings.append(_offsets_only(marks, colours))
            else:
                rest = f" {writing.ELLIPSIS}" if cut < len(text) else ""
                nodes, left_out_here = _nest(marks)
                too_deep += left_out_here
                drawings.append(f'<span class="doc-text">{_highlight_text(text, 0, cut, nodes, colours)}</span>{rest}')
        parts.append(
            f'<div class="sentence"><div class="number">{index + 1}</div><div>'
            f'<div class="side"><span class="side-name">reference</span> {drawings[0]}</div>'
            f'<div class="side"><span class="side-name">predicted</span> {drawings[1]}</div></div></div>'
        )
    left_out = []
    last = len(cuts) - 1
    if cuts and corpus.texts[last] is not None and cuts[last] < len(corpus.texts[last] or ""):
        left_out.append(f"document {last + 1:,} is cut after {cuts[last]:,} of {len(corpus.texts[last]):,} characters")
    if len(cuts) < len(corpus.lines):
        left_out.append(f"the first {len(cuts):,} of {len(corpus.lines):,} documents are shown")
    if left_out_entities:
        counted = " marks (one a piece)" if in_pieces else ""
        left_out.append(
            f"{writing.count(left_out_entities, 'entity')} beyond the first {caps.MAX_SHOWN_ENTITIES:,}{counted} of a "
            f"side {_are(left_out_entities)} not drawn"
        )
    if too_deep:
        left_out.append(
            f"{writing.count(too_deep, 'entity')} nested inside {writing.count(caps.MAX_SHOWN_DEPTH, 'other')} "
            f"{_are(too_deep)} not drawn"
        )
    parts.extend(_left_out_note(left_out))
    return "\n".join(parts)


def _are(number: int) -> str:
    return "is" if number == 1 else "are"


def _left_out_note(left_out: list[str]) -> list[str]:
    """What a drawing left out (`caps`), as its closing paragraph; none when it left nothing out."""
    if not left_out:
        return []
    note = "; ".join(left_out)
    return [f'<p class="left-out">{note[0].upper()}{note[1:]}; the scores cover all.</p>']
