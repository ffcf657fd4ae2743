"""Hypothesis strategies for ner_semeval's property and differential tests.

Sentences are short (the oracle pairs by brute force) and use few types, so that entities of one type touch
and overlap often; MUSIC-NAME checks that types keep their hyphens (docs/scoring.md §1).
"""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import strategies as st
from oracle import LETTERS

TYPES = ("PER", "LOC", "MUSIC-NAME")

# docs/scoring.md §1: the prefix letters of each scheme, as the oracle reads them (one copy).
SCHEME_LETTERS = LETTERS
SCHEMES = tuple(SCHEME_LETTERS)
EVERY_LETTER = tuple(sorted({letter for letters in SCHEME_LETTERS.values() for letter in letters}))

# Values that are not tags of any scheme: each must be a ValueError, never anything else.
JUNK_TAGS: tuple[Any, ...] = (
    None,
    0,
    3,
    -100,
    True,
    1.5,
    float("nan"),
    b"O",
    "",
    "o",
    "b-PER",
    "B",
    "I",
    "PER",
    "B-",
    "-PER",
    "-",
    "O-PER",
    "X-PER",
    "BI-PER",
    " B-PER",
    "B-PER ",
    ["O"],
    {"B": "PER"},
    ("O",),
)


def tag(letter: str, entity_type: str, suffix: bool = False) -> str:
    return f"{entity_type}-{letter}" if suffix else f"{letter}-{entity_type}"


@st.composite
def spans(
    draw: st.DrawFn,
    length: int | None = None,
    *,
    max_length: int = 10,
    types: tuple[str, ...] = TYPES,
    max_size: int = 4,
    separate_same_type: bool = False,
) -> tuple[list[tuple[int, int, str]], int]:
    """Disjoint ``(start, end, type)`` spans in token order over a sentence, and the sentence length.

    Gaps of zero are common, so same-type spans touch (IOB1's B, IOE1's E, IO's limit); with
    `separate_same_type` a span touching one of its own type is left out (IO cannot write that)."""
    n = draw(st.integers(0, max_length)) if length is None else length
    result: list[tuple[int, int, str]] = []
    position = draw(st.integers(0, 2))
    while position < n:
        size = draw(st.integers(1, min(max_size, n - position)))
        entity_type = draw(st.sampled_from(types))
        touching_same = bool(result) and result[-1][1] == position and result[-1][2] == entity_type
        if not (separate_same_type and touching_same):
            result.append((position, position + size, entity_type))
        position += size + draw(st.sampled_from((0, 0, 1, 2)))
    return result, n


def tag_soup(
    scheme: str,
    length: int,
    *,
    suffix: bool = False,
    types: tuple[str, ...] = TYPES,
    foreign_letters: bool = False,
    junk: bool = False,
) -> st.SearchStrategy[list[Any]]:
    """`length` random tags: O and the scheme's letters with random types, in any order (ill-formed entities
    included). `foreign_letters` mixes in other schemes' letters, `junk` values that are no tag at all."""
    letters = EVERY_LETTER if foreign_letters else SCHEME_LETTERS[scheme]
    one = st.one_of(
        st.just("O"),
        st.builds(tag, st.sampled_from(letters), st.sampled_from(types), st.just(suffix)),
    )
    if junk:
        one = st.one_of(one, st.sampled_from(JUNK_TAGS))
    return st.lists(one, min_size=length, max_size=length)


@st.composite
def soup_batches(
    draw: st.DrawFn,
    scheme: str,
    *,
    suffix: bool = False,
    types: tuple[str, ...] = TYPES,
    max_sentences: int = 4,
    max_length: int = 9,
    foreign_letters: bool = False,
    junk: bool = False,
) -> tuple[list[list[Any]], list[list[Any]]]:
    """Token-aligned ``(predictions, references)`` of tag soup."""
    lengths = draw(st.lists(st.integers(0, max_length), max_size=max_sentences))
    predictions, references = [], []
    for n in lengths:
        options: dict[str, Any] = {"suffix": suffix, "types": types, "foreign_letters": foreign_letters, "junk": junk}
        predictions.append(draw(tag_soup(scheme, n, **options)))
        references.append(draw(tag_soup(scheme, n, **options)))
    return predictions, references


@st.composite
def span_batches(
    draw: st.DrawFn,
    *,
    max_sentences: int = 4,
    max_length: int = 10,
    types: tuple[str, ...] = TYPES,
    separate_same_type: bool = False,
) -> list[tuple[int, list[tuple[int, int, str]], list[tuple[int, int, str]]]]:
    """Sentences as ``(length, reference spans, predicted spans)``: well-formed once encoded."""
    sentences = []
    for _ in range(draw(st.integers(0, max_sentences))):
        n = draw(st.integers(0, max_length))
        options: dict[str, Any] = {"types": types, "separate_same_type": separate_same_type}
        reference, _ = draw(spans(n, **options))
        prediction, _ = draw(spans(n, **options))
        sentences.append((n, reference, prediction))
    return sentences


@st.composite
def splits(draw: st.DrawFn, size: int) -> list[tuple[int, int]]:
    """A split of ``range(size)`` into consecutive chunks ``[a, b)``, empty chunks allowed."""
    cuts = sorted(draw(st.lists(st.integers(0, size), max_size=4)))
    bounds = [0, *cuts, size]
    return list(itertools.pairwise(bounds))


def as_ids(
    draw: st.DrawFn, predictions: list[list[str]], references: list[list[str]]
) -> tuple[list[list[int]], list[list[int]], list[str] | dict[int, str]]:
    """The batch as integer ids with a label list (a list, or a dict with scattered ids like id2label) and
    ignored positions (-100 in the reference; the prediction there is anything, even -100) mixed in."""
    vocabulary = sorted({t for batch in (predictions, references) for row in batch for t in row} | {"O"})
    vocabulary = draw(st.permutations(vocabulary))
    if draw(st.booleans()):
        label_list: list[str] | dict[int, str] = list(vocabulary)
        id_of = {t: i for i, t in enumerate(vocabulary)}
    else:
        ids = draw(st.lists(st.integers(0, 60), min_size=len(vocabulary), max_size=len(vocabulary), unique=True))
        label_list = dict(zip(ids, vocabulary))
        id_of = {t: i for i, t in label_list.items()}
    id_predictions, id_references = [], []
    for p_row, r_row in zip(predictions, references):
        p_ids, r_ids = [], []
        for p, r in zip(p_row, r_row):
            if draw(st.integers(0, 5)) == 0:  # a sub-word piece: dropped from both sides (docs/scoring.md §1)
                p_ids.append(draw(st.sampled_from((-100, id_of[p]))))
                r_ids.append(-100)
            p_ids.append(id_of[p])
            r_ids.append(id_of[r])
        id_predictions.append(p_ids)
        id_references.append(r_ids)
    return id_predictions, id_references, label_list


@st.composite
def nested_spans(
    draw: st.DrawFn,
    *,
    max_position: int = 8,
    max_length: int = 4,
    max_size: int = 5,
    types: tuple[str, ...] = ("PER", "LOC"),
) -> list[tuple[int, int, str]]:
    """``(start, end, type)`` entities of one side of a sentence in any order: over few positions and types, so
    that nested, overlapping and repeated (identical) entities are common."""
    entity = st.builds(
        lambda start, length, entity_type: (start, start + length, entity_type),
        st.integers(0, max_position),
        st.integers(1, max_length),
        st.sampled_from(types),
    )
    entities = draw(st.lists(entity, max_size=max_size))
    if entities:
        entities += draw(st.lists(st.sampled_from(entities), max_size=2))  # repeats
    return draw(st.permutations(entities))


# The forms an entity of span input takes (docs/scoring.md §1): our dicts, nervaluate's key, a pipeline's grouped output
# (extra keys ignored), tuples and JSON lists.
ENTITY_FORMS = ("type", "label", "entity_group", "tuple", "list")


def entity_as(form: str, start: int, end: int, entity_type: str) -> Any:
    if form == "tuple":
        return (start, end, entity_type)
    if form == "list":
        return [start, end, entity_type]
    entity: dict[str, Any] = {form: entity_type, "start": start, "end": end}
    if form == "entity_group":
        entity.update(score=0.5, word="w")
    return entity


@st.composite
def span_lists(draw: st.DrawFn, sentences: list[list[tuple[int, int, str]]], *, mixed: bool = True) -> list[list[Any]]:
    """`sentences` of ``(start, end, type)`` as span lists in input forms: one form for the whole batch, or
    (with `mixed`) any form for each entity."""
    batch_form = draw(st.sampled_from(ENTITY_FORMS))
    forms = st.sampled_from(ENTITY_FORMS) if mixed and draw(st.booleans()) else st.just(batch_form)
    return [[entity_as(draw(forms), *entity) for entity in sentence] for sentence in sentences]
