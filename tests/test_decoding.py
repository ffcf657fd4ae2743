"""`decode` and `encode` per scheme and mode (docs/scoring.md §1, §2): named tables of hand-derived cases, and
`decode` (the array decoder every path runs) against a token-by-token reading of §2 on random tag soup."""

from __future__ import annotations

import copy
import re
import subprocess
import sys
from itertools import pairwise, product

import numpy as np
import pytest
import strategies
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from nerscore import SCHEMES, Scheme, Span, compute_semeval, decode, encode
from nerscore.decoding import ROLE_FLAGS, decode_roles, decode_tags, tag_table
from nerscore.options import Options
from nerscore.schemes import BEGIN, END, INSIDE, SINGLE, TagTable, get_scheme

LENIENT, STRICT = "lenient", "strict"


def spans(*triples: tuple[int, int, str]) -> list[Span]:
    return [Span(start, end, entity_type) for start, end, entity_type in triples]


def case(tags: str, scheme: str, lenient: list, strict: list | None = None, *, id: str):
    """One sequence and its entities in lenient and strict mode (strict defaults to lenient: well formed)."""
    return pytest.param(tags.split(), scheme, spans(*lenient), spans(*(lenient if strict is None else strict)), id=id)


PER, LOC = "PER", "LOC"

DECODING_CASES = [
    # IOB2 (docs/scoring.md §2: lenient is conlleval, strict keeps `B I*`).
    case("B-PER I-PER O B-LOC", "IOB2", [(0, 2, PER), (3, 4, LOC)], id="iob2-two-entities"),
    case("O I-PER", "IOB2", [(1, 2, PER)], [], id="iob2-O-I-is-entity-only-in-lenient"),
    case("O I-PER I-PER", "IOB2", [(1, 3, PER)], [], id="iob2-stray-I-opens-entity"),
    case("I-PER I-PER O", "IOB2", [(0, 2, PER)], [], id="iob2-stray-I-at-sentence-start"),
    case("B-PER O I-PER", "IOB2", [(0, 1, PER), (2, 3, PER)], [(0, 1, PER)], id="iob2-stray-I-after-O"),
    case("B-PER I-LOC", "IOB2", [(0, 1, PER), (1, 2, LOC)], [(0, 1, PER)], id="iob2-type-change-B-I"),
    case(
        "B-PER I-PER I-LOC I-LOC",
        "IOB2",
        [(0, 2, PER), (2, 4, LOC)],
        [(0, 2, PER)],
        id="iob2-type-change-inside-run",
    ),
    case("B-PER B-PER", "IOB2", [(0, 1, PER), (1, 2, PER)], id="iob2-adjacent-same-type"),
    case("B-PER I-PER B-PER", "IOB2", [(0, 2, PER), (2, 3, PER)], id="iob2-adjacent-B-splits-run"),
    case("B-PER B-LOC", "IOB2", [(0, 1, PER), (1, 2, LOC)], id="iob2-adjacent-other-type"),
    case("O O B-PER I-PER", "IOB2", [(2, 4, PER)], id="iob2-entity-at-end"),
    case("B-PER", "IOB2", [(0, 1, PER)], id="iob2-single-token-sentence"),
    case("O O", "IOB2", [], id="iob2-all-O"),
    case("", "IOB2", [], id="iob2-empty-sentence"),
    case(
        "B-MUSIC-NAME I-MUSIC-NAME O",
        "IOB2",
        [(0, 2, "MUSIC-NAME")],
        id="type-with-hyphen",
    ),
    case(
        "B-MUSIC-NAME I-MUSIC",
        "IOB2",
        [(0, 1, "MUSIC-NAME"), (1, 2, "MUSIC")],
        [(0, 1, "MUSIC-NAME")],
        id="hyphen-type-differs",
    ),
    case("B-PER I-PER O B-LOC", "BIO", [(0, 2, PER), (3, 4, LOC)], id="bio-alias"),
    case("O I-PER", "BIO", [(1, 2, PER)], [], id="bio-alias-O-I"),
    # IOB1: B only separates two adjacent entities of one type; strict `I+` or `B I*` right after same type.
    case(
        "I-PER I-PER B-PER O I-LOC",
        "IOB1",
        [(0, 2, PER), (2, 3, PER), (4, 5, LOC)],
        id="iob1-B-separates-same-type",
    ),
    case("I-PER B-PER I-PER", "IOB1", [(0, 1, PER), (1, 3, PER)], id="iob1-B-I-after-same-type"),
    case("B-PER I-PER O", "IOB1", [(0, 2, PER)], [], id="iob1-B-at-sentence-start"),
    case("O B-PER", "IOB1", [(1, 2, PER)], [], id="iob1-B-after-O"),
    case("I-LOC B-PER", "IOB1", [(0, 1, LOC), (1, 2, PER)], [(0, 1, LOC)], id="iob1-B-after-other-type"),
    case("I-PER I-LOC", "IOB1", [(0, 1, PER), (1, 2, LOC)], id="iob1-type-change"),
    case("O I-PER I-PER", "IOB1", [(1, 3, PER)], id="iob1-I-after-O-is-well-formed"),
    # IOE1: symmetric to IOB1, E only before an adjacent entity of the same type.
    case(
        "I-PER E-PER I-PER O I-LOC",
        "IOE1",
        [(0, 2, PER), (2, 3, PER), (4, 5, LOC)],
        id="ioe1-E-separates-same-type",
    ),
    case("I-PER E-PER O", "IOE1", [(0, 2, PER)], [], id="ioe1-E-before-O"),
    case("I-PER E-PER", "IOE1", [(0, 2, PER)], [], id="ioe1-E-at-sentence-end"),
    case("E-PER I-LOC", "IOE1", [(0, 1, PER), (1, 2, LOC)], [(1, 2, LOC)], id="ioe1-E-before-other-type"),
    case("I-PER E-PER E-PER", "IOE1", [(0, 2, PER), (2, 3, PER)], [(0, 2, PER)], id="ioe1-second-E-at-end"),
    case("I-PER I-PER", "IOE1", [(0, 2, PER)], id="ioe1-I-run"),
    # IOE2: strict `I* E`.
    case("I-PER E-PER O E-LOC", "IOE2", [(0, 2, PER), (3, 4, LOC)], id="ioe2-two-entities"),
    case("E-PER E-PER", "IOE2", [(0, 1, PER), (1, 2, PER)], id="ioe2-adjacent-E"),
    case("I-PER I-PER O", "IOE2", [(0, 2, PER)], [], id="ioe2-missing-E"),
    case("I-PER E-LOC", "IOE2", [(0, 1, PER), (1, 2, LOC)], [(1, 2, LOC)], id="ioe2-type-change"),
    case("O O E-PER", "IOE2", [(2, 3, PER)], id="ioe2-entity-at-end"),
    # IOBES: strict `S | B I* E`.
    case("B-PER I-PER E-PER O S-LOC", "IOBES", [(0, 3, PER), (4, 5, LOC)], id="iobes-two-entities"),
    case("B-PER O", "IOBES", [(0, 1, PER)], [], id="iobes-B-O-only-lenient"),
    case("S-PER S-PER", "IOBES", [(0, 1, PER), (1, 2, PER)], id="iobes-S-S-two-entities"),
    case("B-PER I-PER", "IOBES", [(0, 2, PER)], [], id="iobes-missing-E-at-end"),
    case("O I-PER E-PER", "IOBES", [(1, 3, PER)], [], id="iobes-stray-I-opens-entity"),
    case("B-PER E-LOC", "IOBES", [(0, 1, PER), (1, 2, LOC)], [], id="iobes-type-change"),
    case("B-PER S-PER", "IOBES", [(0, 1, PER), (1, 2, PER)], [(1, 2, PER)], id="iobes-S-interrupts-B"),
    case("E-PER I-PER E-PER", "IOBES", [(0, 1, PER), (1, 3, PER)], [], id="iobes-after-E-new-entity"),
    case("B-PER E-PER B-PER E-PER", "IOBES", [(0, 2, PER), (2, 4, PER)], id="iobes-adjacent"),
    case("B-PER I-PER E-PER O S-LOC", "BIOES", [(0, 3, PER), (4, 5, LOC)], id="bioes-alias"),
    case("B-PER O", "BIOES", [(0, 1, PER)], [], id="bioes-alias-B-O"),
    # BILOU: L = E, U = S.
    case("B-PER I-PER L-PER O U-LOC", "BILOU", [(0, 3, PER), (4, 5, LOC)], id="bilou-two-entities"),
    case("U-PER U-PER", "BILOU", [(0, 1, PER), (1, 2, PER)], id="bilou-U-U"),
    case("B-PER L-PER B-PER", "BILOU", [(0, 2, PER), (2, 3, PER)], [(0, 2, PER)], id="bilou-B-at-end"),
    case("I-PER L-PER", "BILOU", [(0, 2, PER)], [], id="bilou-missing-B"),
    # BMES: M = I.
    case("B-PER M-PER E-PER S-LOC", "BMES", [(0, 3, PER), (3, 4, LOC)], id="bmes-two-entities"),
    case("B-PER E-PER", "BMES", [(0, 2, PER)], id="bmes-B-E"),
    case("M-PER E-PER", "BMES", [(0, 2, PER)], [], id="bmes-missing-B"),
    case("B-PER M-PER O", "BMES", [(0, 2, PER)], [], id="bmes-missing-E"),
    # IO: adjacent same-type tokens form one entity; every entity is well formed.
    case("I-PER I-PER I-LOC O I-PER", "IO", [(0, 2, PER), (2, 3, LOC), (4, 5, PER)], id="io-runs"),
    case("I-MUSIC-NAME I-MUSIC-NAME", "IO", [(0, 2, "MUSIC-NAME")], id="io-hyphen-type"),
]


@pytest.mark.parametrize(("tags", "scheme", "lenient", "strict"), DECODING_CASES)
def test_decode(tags: list[str], scheme: str, lenient: list[Span], strict: list[Span]) -> None:
    assert decode(tags, scheme, LENIENT) == lenient
    assert decode(tags, scheme, STRICT) == strict


def test_decode_defaults_are_iob2_lenient() -> None:
    assert decode(["O", "I-PER"]) == [Span(1, 2, "PER")]


def test_scheme_names_are_case_insensitive() -> None:
    assert decode(["S-PER"], "iobes") == [Span(0, 1, "PER")]


SUFFIX_CASES = [
    pytest.param("PER-B PER-I O LOC-B", "IOB2", LENIENT, spans((0, 2, PER), (3, 4, LOC)), id="iob2-suffix"),
    pytest.param(
        "MUSIC-NAME-B MUSIC-NAME-I O", "IOB2", LENIENT, spans((0, 2, "MUSIC-NAME")), id="suffix-type-with-hyphen"
    ),
    pytest.param("O PER-I", "IOB2", LENIENT, spans((1, 2, PER)), id="suffix-stray-I-lenient"),
    pytest.param("O PER-I", "IOB2", STRICT, [], id="suffix-stray-I-strict"),
    pytest.param("PER-S PER-B PER-E", "IOBES", STRICT, spans((0, 1, PER), (1, 3, PER)), id="iobes-suffix"),
    pytest.param("PER-U LOC-B LOC-L", "BILOU", STRICT, spans((0, 1, PER), (1, 3, LOC)), id="bilou-suffix"),
]


@pytest.mark.parametrize(("tags", "scheme", "mode", "expected"), SUFFIX_CASES)
def test_decode_suffix(tags: str, scheme: str, mode: str, expected: list[Span]) -> None:
    assert decode(tags.split(), scheme, mode, suffix=True) == expected


LABELS_CASES = [
    pytest.param(["PER"], 1, 1, 1, 0, id="PER-only"),
    pytest.param(["LOC"], 1, 0, 0, 1, id="LOC-only"),
    pytest.param(["PER", "LOC"], 2, 1, 1, 1, id="both"),
    pytest.param(None, 3, 1, 1, 2, id="no-filter"),
    pytest.param(["ORG"], 0, 0, 0, 0, id="absent-type"),
]


@pytest.mark.parametrize(("labels", "possible", "actual", "correct", "missed"), LABELS_CASES)
def test_labels_filter_both_sides_before_matching(
    labels: list[str] | None, possible: int, actual: int, correct: int, missed: int
) -> None:
    # docs/scoring.md §2: `labels` keeps only entities of those types, on both sides, before matching.
    references = [["B-PER", "O", "B-LOC", "O", "B-MISC"]]
    predictions = [["B-PER", "O", "O", "O", "O"]]
    result = compute_semeval(predictions=predictions, references=references, labels=labels)
    assert (result["strict_possible"], result["strict_actual"]) == (possible, actual)
    assert (result["strict_correct"], result["strict_missed"]) == (correct, missed)


def test_labels_filter_removes_prediction_before_pairing() -> None:
    # A filtered-out LOC prediction overlapping the PER reference must not be paired with it (no VI row):
    # the PER reference is missed and nothing is spurious.
    result = compute_semeval(
        predictions=[["B-LOC", "I-LOC"]], references=[["B-PER", "I-PER"]], labels=["PER"], return_entities=True
    )
    assert [row["scenario"] for row in result["entities"]] == ["III"]
    assert (result["strict_missed"], result["strict_incorrect"], result["strict_spurious"]) == (1, 0, 0)


# encode: the canonical tags of each scheme. Two touching PER entities, then a three-token LOC.
TOUCHING = spans((0, 2, PER), (2, 3, PER), (4, 7, LOC))

ENCODING_CASES = [
    pytest.param("IOB2", TOUCHING, "B-PER I-PER B-PER O B-LOC I-LOC I-LOC O", id="iob2"),
    pytest.param("BIO", TOUCHING, "B-PER I-PER B-PER O B-LOC I-LOC I-LOC O", id="bio-alias"),
    pytest.param("IOB1", TOUCHING, "I-PER I-PER B-PER O I-LOC I-LOC I-LOC O", id="iob1"),
    pytest.param("IOE1", TOUCHING, "I-PER E-PER I-PER O I-LOC I-LOC I-LOC O", id="ioe1"),
    pytest.param("IOE2", TOUCHING, "I-PER E-PER E-PER O I-LOC I-LOC E-LOC O", id="ioe2"),
    pytest.param("IOBES", TOUCHING, "B-PER E-PER S-PER O B-LOC I-LOC E-LOC O", id="iobes"),
    pytest.param("BIOES", TOUCHING, "B-PER E-PER S-PER O B-LOC I-LOC E-LOC O", id="bioes-alias"),
    pytest.param("BILOU", TOUCHING, "B-PER L-PER U-PER O B-LOC I-LOC L-LOC O", id="bilou"),
    pytest.param("BMES", TOUCHING, "B-PER E-PER S-PER O B-LOC M-LOC E-LOC O", id="bmes"),
    pytest.param(
        "IO", spans((0, 2, PER), (2, 3, LOC), (4, 7, LOC)), "I-PER I-PER I-LOC O I-LOC I-LOC I-LOC O", id="io"
    ),
    pytest.param("IOB1", spans((0, 1, PER), (1, 2, LOC)), "I-PER I-LOC", id="iob1-touching-other-type"),
    pytest.param("IOE1", spans((0, 1, PER), (1, 2, LOC)), "I-PER I-LOC", id="ioe1-touching-other-type"),
    pytest.param("IOB2", [], "O O", id="no-entities"),
    pytest.param("IOB2", list(reversed(TOUCHING)), "B-PER I-PER B-PER O B-LOC I-LOC I-LOC O", id="unsorted-spans"),
]


@pytest.mark.parametrize(("scheme", "entities", "expected"), ENCODING_CASES)
def test_encode(scheme: str, entities: list[Span], expected: str) -> None:
    length = len(expected.split())
    assert encode(entities, length, scheme) == expected.split()
    # encode is the inverse of decode in both modes: canonical tags are well formed.
    assert decode(expected.split(), scheme, LENIENT) == sorted(entities)
    assert decode(expected.split(), scheme, STRICT) == sorted(entities)


@pytest.mark.parametrize(("scheme", "entities", "expected"), ENCODING_CASES)
def test_encode_with_a_copy_of_the_scheme_encodes_as_the_scheme(scheme: str, entities: list, expected: str) -> None:
    # (Red team 2: encode told IOB1, IOE1 and IO by identity, so a copy of one (an unpickled Accumulator's
    # options hold copies) was encoded as IOB2 or IOE2 silently, and IO's touching spans were not refused.)
    copied = copy.deepcopy(get_scheme(scheme))
    assert encode(entities, len(expected.split()), copied) == expected.split()


def test_encode_suffix() -> None:
    entities = spans((0, 2, "MUSIC-NAME"), (3, 4, PER))
    expected = ["MUSIC-NAME-B", "MUSIC-NAME-I", "O", "PER-B"]
    assert encode(entities, 4, "IOB2", suffix=True) == expected
    assert decode(expected, "IOB2", STRICT, suffix=True) == entities


# encode with a scheme built by hand wrote two touching entities of one type as one (IO refused them): whatever the
# scheme, they are refused where no letter marks where the first ends or the second begins (docs/scoring.md §2).
HAND_ENCODINGS = [
    pytest.param(Scheme("MYIO", {"I": INSIDE}, "I+"), spans((0, 1, PER), (1, 2, PER)), None, id="inside-alone"),
    pytest.param(Scheme("IS", {"I": INSIDE, "S": SINGLE}, "S|I+"), spans((0, 2, PER), (2, 4, PER)), None, id="i-s"),
    pytest.param(
        Scheme("IS", {"I": INSIDE, "S": SINGLE}, "S|I+"),
        spans((0, 1, PER), (1, 2, PER)),
        "S-PER S-PER O O",
        id="singles",
    ),
    pytest.param(
        Scheme("IE", {"I": INSIDE, "E": END}, "I*E"), spans((0, 1, PER), (1, 3, PER)), "E-PER I-PER E-PER O", id="ends"
    ),
    # A prefix of several letters is written whole (each token took one of its characters).
    pytest.param(
        Scheme("LONG", {"BB": BEGIN, "II": INSIDE}, "(BB)(II)*"),
        spans((0, 2, PER), (2, 3, PER)),
        "BB-PER II-PER BB-PER O",
        id="prefixes-of-two-letters",
    ),
]


@pytest.mark.parametrize(("scheme", "entities", "expected"), HAND_ENCODINGS)
def test_encode_with_a_scheme_built_by_hand(scheme: Scheme, entities: list[Span], expected: str | None) -> None:
    if expected is None:
        message = f"{scheme.name} cannot separate the touching {entities[0]} and {entities[1]}, of one type"
        with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
            encode(entities, 4, scheme)
        return
    assert encode(entities, 4, scheme) == expected.split()
    assert decode(expected.split(), scheme, LENIENT) == decode(expected.split(), scheme, STRICT) == entities


# encode's spans and length checked (before, a span past `length` raised IndexError, a negative start wrote from
# the end, overlapping spans overwrote each other's tags silently, a tuple raised AttributeError).
BAD_ENCODINGS = {
    "past the length": (
        [Span(2, 5, PER)],
        4,
        r"spans\[0\]: found Span\(start=2, end=5.*expected 0 <= start < end <= 4",
    ),
    "negative start": ([Span(-1, 1, PER)], 4, r"spans\[0\]: found Span\(start=-1.*expected 0 <= start"),
    "empty span": ([Span(0, 2, PER), Span(3, 3, LOC)], 4, r"spans\[1\]: found Span\(start=3, end=3"),
    "overlapping": ([Span(1, 3, LOC), Span(0, 2, PER)], 4, r"found Span\(start=0, end=2.*and Span\(start=1.*overlap"),
    "a tuple": ([(0, 1, PER)], 4, r"spans\[0\]: found \(0, 1, 'PER'\); expected a Span"),
    "negative length": ([], -1, r"length is -1; expected a whole number of tokens >= 0"),
    "length of a float": ([], 2.0, r"length is 2.0; expected a whole number"),
    # No collection of spans at all: a TypeError ("'NoneType' object is not iterable") before.
    "no spans": (None, 4, r"spans is None \(NoneType\); expected an iterable of Span"),
    "one span alone": (Span(0, 1, PER), 4, r"spans is Span\(start=0.*\(Span\); expected an iterable of Span"),
    "a 0-d array": (np.array(1), 4, r"spans is array\(1\) \(ndarray\); expected an iterable of Span"),
    # No list holds so many tags: OverflowError "cannot fit 'int' into an index-sized integer" before.
    "a length no list holds": ([], 10**5000, r"length is <int of about 5,001 digits>; expected a number of tokens"),
    "a length past 64 bits": ([], 2**64, r"length is 18446744073709551616; expected a number of tokens a list holds"),
}


@pytest.mark.parametrize(("entities", "length", "message"), BAD_ENCODINGS.values(), ids=BAD_ENCODINGS.keys())
def test_encode_refuses_spans_it_cannot_write(entities: list, length, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        encode(entities, length)


# Properties over arbitrary sequences (modest sizes: the tables above carry the meaning).
TYPES = ("PER", "LOC")


@st.composite
def tag_sequences(draw: st.DrawFn) -> tuple[str, list[str]]:
    scheme = draw(st.sampled_from(sorted(SCHEMES)))
    letters = SCHEMES[scheme].prefixes
    tag = st.one_of(st.just("O"), st.builds(lambda p, t: f"{p}-{t}", st.sampled_from(letters), st.sampled_from(TYPES)))
    return scheme, draw(st.lists(tag, max_size=12))


@settings(max_examples=150, deadline=None)
@given(tag_sequences())
def test_decoded_spans_are_disjoint_ordered_and_strict_is_a_subset(data: tuple[str, list[str]]) -> None:
    scheme, tags = data
    lenient = decode(tags, scheme, LENIENT)
    strict = decode(tags, scheme, STRICT)
    # docs/scoring.md §2: within one sequence spans never overlap; strict only drops entities of the lenient decoding.
    for span in lenient:
        assert 0 <= span.start < span.end <= len(tags)
        assert all(tags[i] != "O" for i in range(span.start, span.end))
    assert all(a.end <= b.start for a, b in pairwise(lenient))
    assert set(strict) <= set(lenient)
    # Every non-O token belongs to a lenient entity.
    covered = {i for span in lenient for i in range(span.start, span.end)}
    assert covered == {i for i, tag in enumerate(tags) if tag != "O"}


@st.composite
def span_layouts(draw: st.DrawFn) -> tuple[str, int, list[Span]]:
    scheme = draw(st.sampled_from(sorted(SCHEMES)))
    sizes = draw(st.lists(st.tuples(st.integers(0, 2), st.integers(1, 3), st.sampled_from(TYPES)), max_size=5))
    result, position, previous = [], 0, None
    for gap, size, entity_type in sizes:
        if scheme == "IO" and gap == 0 and previous == entity_type:
            gap = 1  # IO cannot write two touching entities of one type (docs/scoring.md §1)
        position += gap
        result.append(Span(position, position + size, entity_type))
        position += size
        previous = entity_type
    return scheme, position + draw(st.integers(0, 2)), result


@settings(max_examples=150, deadline=None)
@given(span_layouts())
def test_encode_then_decode_round_trips(data: tuple[str, int, list[Span]]) -> None:
    scheme, length, entities = data
    tags = encode(entities, length, scheme)
    assert len(tags) == length
    assert decode(tags, scheme, LENIENT) == entities
    assert decode(tags, scheme, STRICT) == entities


def decoded_token_by_token(tags: list[str], scheme: str, mode: str, suffix: bool) -> list[Span]:
    """docs/scoring.md §2 read token by token: an entity begins at B/S/U, after O or a closed entity (E/L/S/U), at
    a change of type; strict keeps those whose prefix letters are well formed (or, in IOB1/IOE1, well formed next
    to an entity of the same type)."""
    table = TagTable(get_scheme(scheme), suffix)
    parsed = [table[tag] for tag in tags]
    spans: list[Span] = []
    start: int | None = None
    open_type = ""
    for position, item in enumerate(parsed):
        if item is None:
            if start is not None:
                spans.append(Span(start, position, open_type))
                start = None
            continue
        if item.role in (BEGIN, SINGLE) or start is None or item.entity_type != open_type:
            if start is not None:
                spans.append(Span(start, position, open_type))
            start, open_type = position, item.entity_type
        if item.role in (END, SINGLE):
            spans.append(Span(start, position + 1, open_type))
            start = None
    if start is not None:
        spans.append(Span(start, len(parsed), open_type))
    if mode == LENIENT:
        return spans
    rules = table.scheme

    def well_formed(span: Span) -> bool:
        letters = "".join(item.prefix for item in parsed[span.start : span.end] if item is not None)
        if re.fullmatch(rules.well_formed, letters):
            return True
        if rules.well_formed_next_to_same_type is None:
            return False
        neighbour = span.start - 1 if rules.touching_side == "before" else span.end
        touching = parsed[neighbour] if 0 <= neighbour < len(parsed) else None
        return (
            touching is not None
            and touching.entity_type == span.entity_type
            and re.fullmatch(rules.well_formed_next_to_same_type, letters) is not None
        )

    return [span for span in spans if well_formed(span)]


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_decode_equals_the_token_by_token_reading(scheme: str, data: st.DataObject) -> None:
    suffix = data.draw(st.booleans())
    predictions, references = data.draw(strategies.soup_batches(scheme, suffix=suffix, max_sentences=4))
    for tags in [*predictions, *references]:
        for mode in (LENIENT, STRICT):
            assert decode(tags, scheme, mode, suffix) == decoded_token_by_token(tags, scheme, mode, suffix)


def every_sequence(scheme: str, longest: int) -> list[tuple[str, ...]]:
    """Every sequence of at most `longest` tags over O and each prefix of `scheme` with two types, the empty one
    included."""
    tags = ["O", *(f"{prefix}-{entity_type}" for entity_type in TYPES for prefix in SCHEMES[scheme].prefixes)]
    return [sequence for length in range(longest + 1) for sequence in product(tags, repeat=length)]


@pytest.mark.parametrize("longest", [4, pytest.param(5, marks=pytest.mark.slow)])
@pytest.mark.parametrize("mode", [LENIENT, STRICT])
@pytest.mark.parametrize("scheme", strategies.SCHEMES)
def test_decode_roles_of_every_short_sequence_at_once_equals_the_token_by_token_reading(
    scheme: str, mode: str, longest: int
) -> None:
    # Exhaustive: all the sequences as the sentences of one batch, coded as the array path codes them (int8
    # roles, int32 type ids), so that every sentence boundary meets every pair of tags around it too.
    sequences = every_sequence(scheme, longest)
    table = TagTable(get_scheme(scheme), False)
    parsed = [table[tag] for sequence in sequences for tag in sequence]
    role = np.array([ROLE_FLAGS[None if item is None else item.role] for item in parsed], dtype=np.int8)
    type_id = np.array([-1 if item is None else TYPES.index(item.entity_type) for item in parsed], dtype=np.int32)
    offsets = np.concatenate(([0], np.cumsum([len(sequence) for sequence in sequences])))
    start, end, kind = decode_roles(role, type_id, offsets, mode, table.scheme)
    decoded: list[list[Span]] = [[] for _ in sequences]
    for first, last, entity_type in zip(start.tolist(), end.tolist(), kind.tolist()):
        sentence = int(np.searchsorted(offsets, first, side="right")) - 1
        base = int(offsets[sentence])
        decoded[sentence].append(Span(first - base, last - base, TYPES[entity_type]))
    expected = [decoded_token_by_token(list(sequence), scheme, mode, False) for sequence in sequences]
    assert sum(map(len, expected)) > len(sequences) // 2  # (the test reads entities, not empty sentences)
    assert decoded == expected


@pytest.mark.parametrize("scheme", strategies.SCHEMES)
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_a_tag_table_with_labels_decodes_the_kept_entities_of_the_whole_decoding(
    scheme: str, data: st.DataObject
) -> None:
    # docs/scoring.md §2: labels drops entities after decoding; tag_table applies it as tags are parsed (a tag of a
    # type left out reads as O), which must keep exactly the entities of the listed types, in both modes.
    suffix = data.draw(st.booleans())
    labels = data.draw(st.lists(st.sampled_from([*strategies.TYPES, "ABSENT"]), min_size=1, max_size=3))
    predictions, references = data.draw(strategies.soup_batches(scheme, suffix=suffix, max_sentences=4))
    for tags in [*predictions, *references]:
        for mode in (LENIENT, STRICT):
            options = Options.of(scheme=scheme, mode=mode, suffix=suffix, labels=labels)
            table = tag_table(options)
            expected = [span for span in decode(tags, scheme, mode, suffix) if span.entity_type in labels]
            assert decode_tags(tags, options.mode, table) == expected
            roles, types = table.roles_and_types(list(tags))
            assert [name for name in types if name is not None] == [name for name in types if name in labels]
            assert all((role is None) == (name is None) for role, name in zip(roles, types))
            # the array path's role flags, read off in the same pass: each role's, O's for None
            assert table.roles_and_types(list(tags), ROLE_FLAGS) == ([ROLE_FLAGS[role] for role in roles], types)


# decode takes a list of tags and a mode of MODES: None or a number was a TypeError ("'int' object is not
# iterable"), one string was read a character at a time, an array as the mode "The truth value of an array".
BAD_DECODINGS = {
    "no tags": ({"tags": None}, r"tags is None \(NoneType\); expected a list of tags"),
    "a number": ({"tags": 3}, r"tags is 3 \(int\); expected a list of tags"),
    "one tag as a string": ({"tags": "B-PER"}, r"tags is 'B-PER' \(str\); expected a list of tags"),
    "an array as the mode": ({"tags": ["B-PER"], "mode": np.array([1, 2])}, r"unknown mode array\(\[1, 2\]\)"),
    # A 0-d array is iterable by its type: TypeError "iteration over a 0-d array" before.
    "a 0-d array": ({"tags": np.array("B-PER")}, r"tags is array\('B-PER'.*\(ndarray\); expected a list of tags"),
}


@pytest.mark.parametrize(("arguments", "message"), BAD_DECODINGS.values(), ids=BAD_DECODINGS.keys())
def test_decode_refuses_what_is_no_list_of_tags_with_a_located_message(arguments: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        decode(**arguments)


def test_decode_reads_a_tuple_or_an_array_of_tags_as_a_list() -> None:
    assert decode(("B-PER", "I-PER")) == decode(np.array(["B-PER", "I-PER"])) == [Span(0, 2, PER)]


# Each call in a fresh process: CPython hashes a nested tuple on the C stack, and a tag nested 1,000,000 deep that
# reached a dict crashed the process (a segmentation fault) instead of raising.
DEEP_TAG_CALLS = {
    "decode": "decode(['O', deep])",
    "the readable path (pairing='hipe')": (
        "compute_semeval(predictions=[['O'], ['O', deep]], references=[['O'], ['O', 'O']], pairing='hipe')"
    ),
}


@pytest.mark.parametrize("call", DEEP_TAG_CALLS.values(), ids=DEEP_TAG_CALLS.keys())
def test_a_tag_nested_too_deep_to_hash_is_refused_at_its_token_not_hashed(call: str) -> None:
    code = (
        "from nerscore import compute_semeval, decode\n"
        "deep = 'O'\n"
        "for _ in range(1_000_000):\n"
        "    deep = (deep,)\n"
        "try:\n"
        f"    {call}\n"
        "except ValueError as error:\n"
        "    print(error)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=REPO)
    assert run.returncode == 0, run.stderr[-2000:]
    where = "token 1" if call.startswith("decode") else "predictions, sentence 1, token 1"
    assert re.fullmatch(rf"{where}: found \({{97}}\.\.\. \(tuple\); expected a string tag: 'O' or .*\n", run.stdout)


def test_a_tag_of_tuples_holding_one_tuple_twice_is_refused_not_hashed_for_ever() -> None:
    # A tuple's hash does not remember a tuple it holds twice: 60 tuples, each holding the one below twice, are read
    # 2**60 times (the call never ended); refused at its token as ids are (schemes.unhashable_size).
    tag = "O"
    for _ in range(60):
        tag = (tag, tag)
    from nerscore.schemes import unhashable_size

    assert (
        unhashable_size(tag)
        == "holding more than 10,000,000 items (counted as often as they are held), too many to hash"
    )
    with pytest.raises(ValueError, match=r"^token 1: found \(+'O', 'O'\), .* \(tuple\); expected a string tag"):
        decode(["O", tag])
