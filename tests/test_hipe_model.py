"""A HIPE system response aligned to its gold as the HIPE scorer aligns it (issue 28, item 1): the gold's documents
kept, a flat response split as the gold is, tokens matched by position, a different number of tokens a located
`HipeFileError`. Every file here is built by the test (never the shared task data)."""

from __future__ import annotations

import datetime

import pytest
from test_hipe import GOLD_2020, HEADER, tsv

from nerscore import HipeFileError, Span, align_hipe
from nerscore.files.hipe import parse_hipe
from nerscore.files.hipe_tags import hipe_spans


def system_lines(*tags: str, documents: bool = True, tokens: tuple[str, ...] | None = None) -> list[str]:
    """A response to GOLD_2020 with these NE-COARSE-LIT tags, with or without the gold's comments."""
    words = tokens or ("NEW", "YORK", ",", "Mr", "Smith", "Boston", "said")
    rows = [f"{word}\t{tag}\tO\t_\t_" for word, tag in zip(words, tags)]
    if not documents:
        return tsv(HEADER, *rows)
    return tsv(HEADER, "# document_id = doc-a", *rows[:5], "# document_id = doc-b", *rows[5:])


def test_a_response_with_the_golds_documents_keeps_them() -> None:
    gold = parse_hipe(GOLD_2020, "gold.tsv")
    aligned = align_hipe(gold, parse_hipe(system_lines("B-loc", "O", "O", "O", "O", "B-loc", "O"), "run.tsv"))
    assert [d.id for d in aligned] == ["doc-a", "doc-b"]
    assert aligned[0].segments == gold[0].segments and aligned[0].metadata == gold[0].metadata
    assert aligned[1].values("NE-COARSE-LIT") == ("B-loc", "O") and aligned[1].source == "run.tsv"
    assert aligned[1].lines == (9, 10)  # the system file's lines, for its errors


def test_a_flat_response_is_split_as_the_gold_is_and_tokens_align_by_position() -> None:
    gold = parse_hipe(GOLD_2020, "gold.tsv")
    # One run of CLEF-HIPE-2020 spells `"` as `""""`: the scorer aligns by position, not by text.
    words = ("NEW", "YORK", '""""', "Mr", "Smith", "Boston", "said")
    flat = parse_hipe(system_lines("B-loc", "I-loc", "O", "B-pers", "I-pers", "O", "O", documents=False, tokens=words))
    aligned = align_hipe(gold, flat)
    assert [d.id for d in aligned] == ["doc-a", "doc-b"]
    assert [d.tokens for d in aligned] == [words[:5], words[5:]]
    # The gold's segments, holding the response's tokens.
    assert aligned[0].segment_starts == gold[0].segment_starts == (0, 3)
    assert aligned[0].segments == (("NEW", "YORK", '""""'), ("Mr", "Smith"))
    assert hipe_spans(aligned[0], "NE-COARSE-LIT") == [Span(0, 2, "LOC"), Span(3, 5, "PERS")]


def test_a_document_with_a_token_missing_is_a_located_error() -> None:
    gold = parse_hipe(GOLD_2020, "gold.tsv")
    lines = system_lines("O", "O", "O", "O", "O", "O", "O")
    del lines[3]  # YORK
    with pytest.raises(HipeFileError, match=r"run\.tsv:2: document 1 \(doc-a\) has 4 tokens where the gold's"):
        align_hipe(gold, parse_hipe(lines, "run.tsv"))


def test_a_flat_response_of_another_length_names_its_first_token_that_differs() -> None:
    gold = parse_hipe(GOLD_2020, "gold.tsv")
    words = ("NEW", "YORK", "Mr", "Smith", "Boston", "said")  # the comma is missing
    flat = parse_hipe(system_lines(*["O"] * 6, documents=False, tokens=words), "run.tsv")
    with pytest.raises(HipeFileError) as raised:
        align_hipe(gold, flat)
    assert raised.value.line == 4 and raised.value.column == "TOKEN"
    assert "6 tokens where the gold (gold.tsv) has 7; token 3, 'Mr', differs from the gold's ','" in str(raised.value)


def test_a_response_with_other_documents_is_an_error() -> None:
    gold = parse_hipe(GOLD_2020, "gold.tsv")
    three = parse_hipe(tsv(HEADER, *(line for n in "123" for line in (f"# document_id = {n}", f"{n}\tO"))))
    with pytest.raises(HipeFileError, match="document 1"):
        align_hipe(gold, three)
    with pytest.raises(HipeFileError, match="no tokens"):
        align_hipe(gold, [])
    with pytest.raises(HipeFileError, match="the gold has no tokens"):
        align_hipe([], gold)


# align_hipe takes read_hipe's documents: a number or a list of something else was a TypeError ("'int' object is
# not subscriptable") or an AttributeError ("'str' object has no attribute 'source'"); now a ValueError naming it.
@pytest.mark.parametrize(
    ("gold", "system", "message"),
    [
        pytest.param(-1, [], r"^gold is -1 \(int\); expected a list of HipeDocument", id="a-number"),
        pytest.param(None, None, r"^gold is None", id="none"),
        pytest.param("GOLD", "X", r"^gold is 'GOLD' \(str\)", id="a-string"),
    ],
)
def test_align_hipe_names_what_is_no_document(gold, system, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        align_hipe(gold, system)


def test_align_hipe_names_a_system_that_is_no_document() -> None:
    gold = parse_hipe(GOLD_2020, "gold.tsv")
    with pytest.raises(ValueError, match=r"^system is \['X'\] \(list\); expected a list of HipeDocument"):
        align_hipe(gold, ["X"])


PERIODS = (
    (datetime.date(1700, 1, 1), datetime.date(1790, 1, 2)),
    (datetime.date(1790, 1, 2), datetime.date(1800, 1, 1)),
)


@pytest.mark.parametrize(
    ("date", "expected"),
    [
        pytest.param("1790-01-02", PERIODS[1], id="a-period-starts-at-its-start"),
        pytest.param("1790-01-01", PERIODS[0], id="a-period-ends-before-its-end"),
        pytest.param("1800-01-01", None, id="after-every-period"),
        pytest.param(None, None, id="no-date"),
    ],
)
def test_a_documents_period_is_the_first_that_holds_its_date(date: str | None, expected) -> None:
    metadata = (f"# date = {date}",) if date else ()
    (document,) = parse_hipe(tsv(HEADER, *metadata, "# document_id = d", "Paris\tB-loc\tO\t_\t_"), "gold.tsv")
    assert document.period(PERIODS) == expected


def test_a_date_that_is_no_date_is_refused_with_or_without_periods() -> None:
    (document,) = parse_hipe(tsv(HEADER, "# date = 1790-13-45", "# document_id = d", "Paris\tB-loc\tO\t_\t_"), "g.tsv")
    for periods in ((), PERIODS):
        with pytest.raises(HipeFileError, match=r"^g\.tsv:2: # date = 1790-13-45: .*expected a date as YYYY-MM-DD$"):
            document.period(periods)
