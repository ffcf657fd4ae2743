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
"""


# An entity as the highlighted sentence draws it: its end (cut where the drawing stops), type and tooltip.
Mark = tuple[int, str, str]


def _highlight(tokens: Sequence[str], marks: dict[int, Mark], colours: dict[str, str]) -> str:
    """Tokens as HTML with each entity ``start -> (end, type, tooltip)`` marked, spaced by `join_segments`."""
    segments = []  # (first token, last token, HTML) of each entity and each token outside entities
    position = 0
    while position < len(tokens):
        if position in marks:
            end, entity_type, tooltip = marks[position]
            piece = (
                f'<mark style="background:{colours[entity_type]}" title="{html.escape(tooltip)}">'
                f"{html.escape(writing.join_tokens(tokens[position:end]))}"
                f'<span class="entity-type">{html.escape(writing.shorten(entity_type))}</span></mark>'
            )
        else:
            end = position + 1
            piece = html.escape(tokens[position])
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
    if left_out:
        note = "; ".join(left_out)
        parts.append(f'<p class="left-out">{note[0].upper()}{note[1:]}; the scores cover all.</p>')
    return "\n".join(parts)


# An entity as a highlighted document draws it: start, end (cut to the text drawn and to the entity around it),
# type and tooltip.
SpanMark = tuple[int, int, str, str]


def _nest(marks: list[SpanMark]) -> tuple[list[tuple[SpanMark, list]], int]:
    """The marks as a forest, each with the marks inside it: sorted by start, the longer first; a mark that
    crosses the end of the one around it is cut there (its tooltip keeps its own offsets). Marks that would lie
    inside `caps.MAX_SHOWN_DEPTH` others are left out; the second value counts them."""
    roots: list[tuple[SpanMark, list]] = []
    stack: list[tuple[SpanMark, list]] = []
    too_deep = 0
    for start, end, entity_type, tooltip in sorted(marks, key=lambda mark: (mark[0], -mark[1])):
        while stack and stack[-1][0][1] <= start:
            stack.pop()
        if len(stack) >= caps.MAX_SHOWN_DEPTH:
            too_deep += 1
            continue
        if stack:
            end = min(end, stack[-1][0][1])
        node: tuple[SpanMark, list] = ((start, end, entity_type, tooltip), [])
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
            parts.append(html.escape(text[position[0] : mark_end]) + closing)
            stack.pop()
            if stack:
                stack[-1][1][0] = mark_end
            continue
        (child_start, child_end, entity_type, tooltip), children = node
        parts.append(html.escape(text[position[0] : child_start]))
        parts.append(f'<mark style="background:{colours[entity_type]}" title="{html.escape(tooltip)}">')
        closing = f'<span class="entity-type">{html.escape(writing.shorten(entity_type))}</span></mark>'
        stack.append((iter(children), [child_start], child_end, closing))
    return "".join(parts)


def _offsets_only(marks: list[SpanMark], colours: dict[str, str]) -> str:
    """A document without text: its entities as offsets, in order."""
    if not marks:
        return f'<span class="no-text">{writing.NONE}</span>'
    return " ".join(
        f'<mark style="background:{colours[entity_type]}" title="{html.escape(tooltip)}">{start}–{end}'
        f'<span class="entity-type">{html.escape(writing.shorten(entity_type))}</span></mark>'
        for start, end, entity_type, tooltip in sorted(marks, key=lambda mark: (mark[0], -mark[1]))
    )


def spans_html(evaluation: Evaluation, corpus: SpanCorpus) -> str:
    """Each drawn document twice, reference and prediction, its character spans highlighted by type: nested
    entities as nested marks (each with its type; hover one for its offsets and scenario), an entity that
    crosses another's end cut there. The first `caps.MAX_SHOWN_SENTENCES` documents, `caps.MAX_SHOWN_CHARACTERS` of text
    and `caps.MAX_SHOWN_ENTITIES` entities of each side in all, marks at most `caps.MAX_SHOWN_DEPTH` deep; a note
    says what was left out."""
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
    drawn_entities = [0, 0]
    for row in evaluation.entities:  # in document order
        if row["sentence"] >= len(cuts):
            break
        text = corpus.texts[row["sentence"]]
        cut = cuts[row["sentence"]]
        scenario = f"scenario {row['scenario']}: " + ", ".join(f"{s} {row[s]}" for s in SCHEME_COLUMNS)
        for number, (side, marks) in enumerate(zip((row["reference"], row["prediction"]), sides[row["sentence"]])):
            if side is None or side["start"] is None:  # an ungrounded string: listed by the status, not drawn
                continue
            if drawn_entities[number] == caps.MAX_SHOWN_ENTITIES:
                left_out_entities += 1
                continue
            tooltip = f"{side['type']} [{side['start']}:{side['end']}], {scenario}"
            if text is None:
                marks.append((side["start"], side["end"], side["type"], tooltip))
            elif side["start"] < cut:
                marks.append((side["start"], min(side["end"], cut), side["type"], tooltip))
            else:
                continue
            drawn_entities[number] += 1
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
        left_out.append(
            f"{left_out_entities:,} entities beyond the first {caps.MAX_SHOWN_ENTITIES:,} of a side are not drawn"
        )
    if too_deep:
        left_out.append(f"{too_deep:,} entities nested inside {caps.MAX_SHOWN_DEPTH:,} others are not drawn")
    if left_out:
        note = "; ".join(left_out)
        parts.append(f'<p class="left-out">{note[0].upper()}{note[1:]}; the scores cover all.</p>')
    return "\n".join(parts)
