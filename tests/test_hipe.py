"""HIPE's TSV read (issue 28, item 1): documents, metadata, segments, columns and flags; a system response aligned
to its gold as the HIPE scorer aligns it; each column's tags decoded as the scorer decodes them; malformed files
as located `HipeFileError`s. Every file here is built by the test (never the shared task data)."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import nerscore
from nerscore import HipeFileError, Span, align_hipe, hipe_table, read_hipe
from nerscore.files.hipe import (
    column_types,
    hipe_linked_mentions,
    hipe_links,
    hipe_spans,
    parse_hipe,
    read_link_alternatives,
    scored_types,
)

HEADER = "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNEL-LIT\tMISC"


def tsv(*lines: str) -> list[str]:
    return [line + "\n" for line in lines]


# A CLEF-HIPE-2020 file: metadata before each document, `# segment` comments, LED flags.
GOLD_2020 = tsv(
    HEADER,
    "# language = en",
    "# date = 1790-01-02",
    "# document_id = doc-a",
    "# segment_iiif_link = https://example.org/1",
    "NEW\tB-loc\tO\tQ60\tNoSpaceAfter|LED0.00",
    "YORK\tI-loc\tO\tQ60\tLED0.25",
    ",\tO\tO\t_\tEndOfLine",
    "# segment_iiif_link = https://example.org/2",
    "Mr\tB-pers\tO\tNIL\t_",
    "Smith\tI-pers\tO\tNIL\tEndOfLine",
    "# language = en",
    "# date = 1850-06-30",
    "# document_id = doc-b",
    "# segment_iiif_link = _",
    "Boston\tB-loc\tB-org\tQ100\t_",
    "said\tO\tO\t_\t_",
)


def write(tmp_path: Path, name: str, lines: list[str], newline: str = "\n") -> Path:
    path = tmp_path / name
    path.write_text("".join(lines).replace("\n", newline), encoding="utf-8")
    return path


def test_documents_metadata_segments_and_flags(tmp_path: Path) -> None:
    documents = read_hipe(write(tmp_path, "gold.tsv", GOLD_2020))
    assert [d.id for d in documents] == ["doc-a", "doc-b"]
    first, second = documents
    assert first.metadata == {"language": "en", "date": "1790-01-02", "document_id": "doc-a"}
    assert first.segments == (("NEW", "YORK", ","), ("Mr", "Smith"))
    assert first.tokens == ("NEW", "YORK", ",", "Mr", "Smith")
    assert first.values("NE-COARSE-LIT") == ("B-loc", "I-loc", "O", "B-pers", "I-pers")
    assert first.values("NEL-LIT")[:2] == ("Q60", "Q60")
    assert first.flags[0] == {"NoSpaceAfter", "LED0.00"} and first.flags[3] == frozenset()
    assert first.noise == (0.0, 0.25, None, None, None)
    assert first.date == datetime.date(1790, 1, 2) and second.date == datetime.date(1850, 6, 30)
    assert first.lines == (6, 7, 8, 10, 11) and first.line == 2  # its first comment
    assert second.line == 12 and second.lines == (16, 17)
    assert second.metadata["document_id"] == "doc-b" and second.segments == (("Boston", "said"),)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r\r\n"])
def test_line_endings_and_blank_lines_read_alike(tmp_path: Path, newline: str) -> None:
    # Submitted runs of CLEF-HIPE-2020 end their lines with CR LF and even CR CR LF.
    plain = read_hipe(write(tmp_path, "a.tsv", GOLD_2020))
    other = read_hipe(write(tmp_path, "b.tsv", [*GOLD_2020[:5], "\n", "\t\t\t\t\n", *GOLD_2020[5:]], newline))
    assert [(d.id, d.segments, d.columns, d.metadata) for d in other] == [
        (d.id, d.segments, d.columns, d.metadata) for d in plain
    ]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r\r\n"])
def test_an_error_names_the_same_line_whatever_the_line_endings(tmp_path: Path, newline: str) -> None:
    # A run of token lines with blank lines inside (CR CR LF reads as a blank line after each line) keeps each
    # line's number: the 4th line (the 7th with CR CR LF, whose every line is followed by a blank one).
    lines = [HEADER, "Paris\tB-loc\tO\t_\t_", "is\tO\tO\t_\t_", "nice\tO\tO\t_\t_\textra", "!\tO\tO\t_\t_"]
    path = write(tmp_path, "bad.tsv", tsv(*lines), newline)
    with pytest.raises(HipeFileError) as raised:
        read_hipe(path)
    assert raised.value.line == (7 if newline == "\r\r\n" else 4)


def test_a_line_of_too_many_values_beside_one_of_too_few_is_named_when_a_column_is_read() -> None:
    # The document's tab count looks right (one value too many on line 4, one too few on line 5): the error names
    # line 4 when a column is first read (here, by hipe_spans), not when the file is.
    lines = [HEADER, "# segment_iiif_link = _", "Paris\tB-loc\tO\t_\t_", "is\tO\tO\t_\t_\tx", "nice\tO\tO\t_"]
    documents = parse_hipe(tsv(*lines), "x.tsv")
    with pytest.raises(HipeFileError, match=r"x\.tsv:4: 6 values where the header names 5 columns"):
        hipe_spans(documents[0], "NE-COARSE-LIT")


def test_hipe_2022_comments_and_sentences() -> None:
    documents = parse_hipe(
        tsv(
            HEADER,
            "# hipe2022:document_id = EXP-1",
            "# hipe2022:date = 1888-08-03",
            "Munich\tS-loc\tO\tQ1726\tNoSpaceAfter",
            ".\tO\tO\t_\tEndOfSentence",
            "M\tB-pers\tO\tQ65264\t_",
            "Hagenbeck\tE-pers\tO\tQ65264\tEndOfSentence",
            "# hipe2022:document_id = EXP-2",
            "Paris\tS-loc\tO\tQ90\t_",
        )
    )
    assert [d.id for d in documents] == ["EXP-1", "EXP-2"]
    assert documents[0].date == datetime.date(1888, 8, 3)
    # Without `# segment` comments, a segment ends at a token flagged EndOfSentence.
    assert documents[0].segments == (("Munich", "."), ("M", "Hagenbeck"))
    assert hipe_spans(documents[0], "NE-COARSE-LIT") == [Span(0, 1, "LOC"), Span(2, 4, "PERS")]


def test_a_short_row_has_underscores_and_a_header_typed_with_spaces_is_split() -> None:
    # As the HIPE scorer reads them: a submitted run has rows of two values, and a header whose tab is spaces.
    documents = parse_hipe(
        tsv("TOKEN\tNE-COARSE-LIT   NE-COARSE-METO\tMISC", "# document_id = d", "Paris\tB-loc", "is\tO\tO\t_")
    )
    assert documents[0].columns == {
        "TOKEN": ("Paris", "is"),
        "NE-COARSE-LIT": ("B-loc", "O"),
        "NE-COARSE-METO": ("_", "O"),
        "MISC": ("_", "_"),
    }


def test_a_file_without_documents_is_one() -> None:
    documents = parse_hipe(tsv(HEADER, "Paris\tB-loc\tO\t_\t_", "#", "is\tO\tO\t_\t_"))
    assert len(documents) == 1 and documents[0].id is None and documents[0].tokens == ("Paris", "is")


@pytest.mark.parametrize(
    ("lines", "line", "column", "words"),
    [
        ([HEADER, "Paris\tB-loc\tO\t_\t_\textra"], 2, None, "6 values where the header names 5 columns"),
        ([HEADER, "\tB-loc\tO\t_\t_"], 2, "TOKEN", "a token line without a token"),
        (["# document_id = d", HEADER], 1, None, "the first line must be the header"),
        (["TOKEN\tMISC\tMISC"], 1, None, "a column is named twice"),
        ([], None, None, "the file is empty"),
    ],
)
def test_malformed_files_name_the_file_the_line_and_the_column(
    tmp_path: Path, lines: list[str], line: int | None, column: str | None, words: str
) -> None:
    path = write(tmp_path, "bad.tsv", tsv(*lines))
    with pytest.raises(HipeFileError) as raised:
        read_hipe(path)
    error = raised.value
    assert isinstance(error, ValueError) and isinstance(error, nerscore.ConllError)
    assert (error.source, error.line, error.column) == (str(path), line, column)
    assert words in str(error) and str(path) in str(error)


def test_a_value_that_is_not_a_tag_is_located() -> None:
    documents = parse_hipe(tsv(HEADER, "# document_id = d", "Paris\tB-loc\tO\t_\t_", "is\tLOC\tO\t_\t_"), "x.tsv")
    with pytest.raises(HipeFileError, match=r"x\.tsv:4: column NE-COARSE-LIT: 'LOC' is not a tag") as raised:
        hipe_spans(documents[0], "NE-COARSE-LIT")
    assert (raised.value.line, raised.value.column) == (4, "NE-COARSE-LIT")
    with pytest.raises(HipeFileError, match=r"x\.tsv: column NE-FINE-LIT: no such column"):
        hipe_spans(documents[0], "NE-FINE-LIT")


# -- decoding as the scorer decodes ---------------------------------------------------------------------------


def spans_of(*tags: str, types: set[str] | None = None) -> list[tuple[int, int, str]]:
    lines = [HEADER, "# document_id = d"] + [f"t{i}\t{tag}\tO\t_\t_" for i, tag in enumerate(tags)]
    (document,) = parse_hipe(tsv(*lines))
    return [(s.start, s.end, s.entity_type) for s in hipe_spans(document, "NE-COARSE-LIT", types)]


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        (["B-loc", "I-loc", "O"], [(0, 2, "LOC")]),
        (["I-loc", "I-loc"], [(0, 2, "LOC")]),  # I- opens an entity after outside
        (["B-loc", "B-loc"], [(0, 1, "LOC"), (1, 2, "LOC")]),
        (["B-loc", "I-org"], [(0, 1, "LOC"), (1, 2, "ORG")]),  # a new type opens one
        (["B-loc", "_", "I-loc"], [(0, 1, "LOC"), (2, 3, "LOC")]),  # `_` is outside
        (["B-loc", "-", "", "O"], [(0, 1, "LOC")]),
        (["S-loc", "S-loc", "B-pers", "E-pers"], [(0, 1, "LOC"), (1, 2, "LOC"), (2, 4, "PERS")]),  # IOBES
        (["b-Loc", "i-LOC"], [(0, 2, "LOC")]),  # the scorer reads every tag in upper case
        (["B-loc.adm.town", "I-loc.adm.town"], [(0, 2, "LOC.ADM.TOWN")]),
    ],
)
def test_tags_decode_as_the_scorer_decodes_them(tags: list[str], expected: list[tuple[int, int, str]]) -> None:
    assert spans_of(*tags) == expected


def test_a_type_left_out_is_outside() -> None:
    assert spans_of("B-loc", "I-xyz", "I-loc", types={"LOC"}) == [(0, 1, "LOC"), (2, 3, "LOC")]


def test_the_scored_types_are_the_golds_and_the_systems_within_the_tag_set() -> None:
    gold = parse_hipe(tsv(HEADER, "a\tB-loc\tO\t_\t_", "b\tB-pers\tO\t_\t_"))
    system = parse_hipe(tsv(HEADER, "a\tB-org\tO\t_\t_", "b\tB-xyz\tO\t_\t_"))
    assert column_types(gold, "NE-COARSE-LIT") == {"LOC", "PERS"}
    assert scored_types(gold, system, "NE-COARSE-LIT", None) == {"LOC", "PERS"}
    assert scored_types(gold, system, "NE-COARSE-LIT", nerscore.HIPE_2020_TYPES) == {"LOC", "PERS", "ORG"}


# -- alignment --------------------------------------------------------------------------------------------------


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


# -- entity links -----------------------------------------------------------------------------------------------


def links_document(*rows: tuple[str, str]) -> nerscore.HipeDocument:
    """A document of (NE-COARSE-LIT tag, NEL-LIT link) rows."""
    lines = [HEADER, "# document_id = d"] + [f"t{i}\t{tag}\tO\t{link}\t_" for i, (tag, link) in enumerate(rows)]
    return parse_hipe(tsv(*lines), "links.tsv")[0]


def test_links_are_runs_of_one_value() -> None:
    document = links_document(
        ("B-loc", "Q60"), ("I-loc", "Q60"), ("O", "_"), ("B-pers", "nil"), ("B-pers", "NIL"), ("O", "-"),
        ("B-org", "Q1|Q2|Q3"), ("O", "O"),
    )  # fmt: skip
    assert hipe_links(document, "NEL-LIT") == [
        (Span(0, 2, "Q60"), ("Q60",)),
        (Span(3, 5, "NIL"), ("NIL",)),  # two mentions, one run: one entity, as the scorer of 2020 reads it
        (Span(6, 7, "Q1"), ("Q1",)),
    ]
    assert hipe_links(document, "NEL-LIT", n_best=2)[-1] == (Span(6, 7, "Q1"), ("Q1", "Q2"))


def test_links_bounded_by_mentions() -> None:
    document = links_document(
        ("B-pers", "NIL"), ("B-pers", "NIL"), ("O", "Q5"), ("B-loc", "Q60"), ("I-loc", "Q61"), ("I-loc", "_"),
    )  # fmt: skip
    # A response's mention whose link changes is split; the gold's keeps its first link.
    assert [span for span, _ in hipe_linked_mentions(document, "NEL-LIT", "NE-COARSE-LIT")] == [
        Span(0, 1, "NIL"), Span(1, 2, "NIL"), Span(2, 3, "Q5"), Span(3, 4, "Q60"), Span(4, 5, "Q61"),
    ]  # fmt: skip
    assert [span for span, _ in hipe_linked_mentions(document, "NEL-LIT", "NE-COARSE-LIT", split=False)][-1] == Span(
        3, 6, "Q60"
    )


def test_the_relaxed_settings_mapping(tmp_path: Path) -> None:
    path = tmp_path / "mapping.tsv"
    path.write_text(
        "Main\tAlternatives\t\n"
        "https://www.wikidata.org/wiki/Q183\thttps://www.wikidata.org/wiki/Q12548\tQ154741\t#N/A\n"
        "Q30\t#N/A\t#N/A\n",
        encoding="utf-8",
    )
    assert read_link_alternatives(path) == {"Q183": {"Q183", "Q12548", "Q154741"}, "Q30": {"Q30"}}
    path.write_text("Main\tAlternatives\nQ183\tGermany\n", encoding="utf-8")
    with pytest.raises(HipeFileError, match=r"mapping\.tsv:2: not Wikidata entities"):
        read_link_alternatives(path)


# -- properties -------------------------------------------------------------------------------------------------

TOKENS = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp")), min_size=1, max_size=4)
TAGS = st.sampled_from(["O", "B-loc", "I-loc", "B-pers", "I-pers", "S-org", "E-org", "_"])
SEGMENT = st.lists(st.tuples(TOKENS, TAGS), min_size=1, max_size=5)
DOCUMENTS = st.lists(st.lists(SEGMENT, min_size=1, max_size=3), min_size=1, max_size=3)


def written(documents: list[list[list[tuple[str, str]]]], comments: bool = True) -> list[str]:
    lines = [HEADER]
    for number, document in enumerate(documents):
        if comments:
            lines += [f"# date = 18{number:02d}-01-01", f"# document_id = doc-{number}"]
        for segment in document:
            if comments:
                lines.append("# segment_iiif_link = _")
            lines += [f"{token}\t{tag}\tO\t_\t_" for token, tag in segment]
    return tsv(*lines)


@given(DOCUMENTS)
def test_a_file_reads_back_as_written_and_a_flat_response_aligns_alike(documents) -> None:
    # Tokens starting with `#` are comments to the scorer, as they are here: leave them out.
    documents = [
        [[(t, g) for t, g in segment if not t.startswith("#")] for segment in document] for document in documents
    ]
    documents = [[segment for segment in document if segment] for document in documents]
    documents = [document for document in documents if document]
    if not documents:
        return
    read = parse_hipe(written(documents))
    assert [d.id for d in read] == [f"doc-{number}" for number in range(len(documents))]
    assert [d.segments for d in read] == [tuple(tuple(t for t, _ in s) for s in document) for document in documents]
    assert [d.values("NE-COARSE-LIT") for d in read] == [
        tuple(g for s in document for _, g in s) for document in documents
    ]
    flat = align_hipe(read, parse_hipe(written(documents, comments=False)))
    structured = align_hipe(read, read)
    assert [dict(d.columns) for d in flat] == [dict(d.columns) for d in structured]
    assert [hipe_spans(d, "NE-COARSE-LIT") for d in flat] == [hipe_spans(d, "NE-COARSE-LIT") for d in read]


def scorer_entities(tags: list[str], types: set[str] | None) -> list[tuple[int, int, str]]:
    """The scorer's reading of a column (its loop as it reads, `S-` as `B-`), entities of types outside `types`
    left out afterwards as it filters them: the oracle of `hipe_spans`."""
    found, open_type, start = [], None, 0
    for offset, value in enumerate(tag.upper() for tag in tags):
        if value in ("O", "_", "-", ""):
            if open_type is not None:
                found.append((start, offset, open_type))
            open_type = None
        elif open_type is None:
            open_type, start = value[2:], offset
        elif open_type != value[2:] or value[:1] in "BS":
            found.append((start, offset, open_type))
            open_type, start = value[2:], offset
    if open_type is not None:
        found.append((start, len(tags), open_type))
    return [entity for entity in found if types is None or entity[2] in types]


@given(
    st.lists(st.sampled_from(["O", "o", "_", "-", "B-loc", "I-loc", "E-loc", "S-loc", "B-pers", "I-pers", "i-xyz"])),
    st.sampled_from([None, {"LOC", "PERS"}, {"LOC"}]),
    st.data(),
)
def test_tags_decode_as_the_scorers_loop_reads_them(tags: list[str], types, data) -> None:
    # A type left out is read by the scorer as an entity it filters afterwards; with `types` we treat it as outside,
    # which splits the same entities. `keep` drops tokens before decoding, as the scorer's filters do.
    keep = data.draw(st.lists(st.booleans(), min_size=len(tags), max_size=len(tags)))
    lines = [HEADER, "# document_id = d"] + [f"t{i}\t{tag}\tO\t_\t_" for i, tag in enumerate(tags)]
    (document,) = parse_hipe(tsv(*lines)) if tags else (None,)
    if document is None:
        return
    spans = [(s.start, s.end, s.entity_type) for s in hipe_spans(document, "NE-COARSE-LIT", types)]
    assert spans == scorer_entities(tags, types)
    kept = [(s.start, s.end, s.entity_type) for s in hipe_spans(document, "NE-COARSE-LIT", types, keep)]
    assert kept == scorer_entities([tag for tag, k in zip(tags, keep) if k], types)


def test_a_date_that_is_no_date_is_located(tmp_path: Path) -> None:
    # The red team's: `# date = 1790-13-45` reached the command line as "error: month must be in 1..12", naming
    # neither file nor line.
    lines = tsv(HEADER, "# date = 1790-13-45", "# document_id = d", "Paris\tB-loc\tO\t_\t_")
    gold = write(tmp_path, "gold.tsv", lines)
    with pytest.raises(HipeFileError, match=r"gold\.tsv:\d+: .*1790-13-45.*YYYY-MM-DD") as raised:
        hipe_table(gold, gold, time_periods=[(datetime.date(1700, 1, 1), datetime.date(1800, 1, 1))])
    assert raised.value.line == 2  # where the document starts, its metadata first


def test_a_file_that_is_not_utf8_is_located(tmp_path: Path) -> None:
    # The red team's: a Latin-1 file gave "error: 'utf-8' codec can't decode byte 0xe9 in position 41", naming
    # neither file nor line.
    path = tmp_path / "latin.tsv"
    path.write_bytes(b"TOKEN\tNE-COARSE-LIT\n# document_id = d\nPar\xe9s\tB-loc\n")
    with pytest.raises(HipeFileError, match=r"latin\.tsv:3: byte 0xe9 is not utf-8-sig") as raised:
        read_hipe(path)
    assert raised.value.line == 3
    assert read_hipe(path, encoding="latin-1")[0].tokens == ("Parés",)
    mapping = tmp_path / "mapping.tsv"
    mapping.write_bytes(b"main\trelated\nQ1\tQ2\n\xff\n")
    with pytest.raises(HipeFileError, match=r"mapping\.tsv:3: byte 0xff"):
        nerscore.files.hipe.read_link_alternatives(mapping)


def test_a_response_with_the_golds_documents_in_another_order_is_an_error() -> None:
    # The red team's: documents of as many tokens in another order were aligned by position, each scored against
    # another document of the gold, silently.
    gold = parse_hipe(tsv(HEADER, "# document_id = d1", "Paris\tB-loc", "# document_id = d2", "Rome\tB-loc"), "g.tsv")
    swapped = parse_hipe(
        tsv(HEADER, "# document_id = d2", "Rome\tB-loc", "# document_id = d1", "Paris\tB-loc"), "s.tsv"
    )
    with pytest.raises(HipeFileError, match=r"s\.tsv:2: document 1 is 'd2' where the gold's \(g\.tsv:2\) is 'd1'"):
        align_hipe(gold, swapped)
    unnamed = parse_hipe(tsv(HEADER, "# document_id = ", "Paris\tO", "# document_id = ", "Rome\tO"), "s.tsv")
    assert [document.id for document in align_hipe(gold, unnamed)] == ["d1", "d2"]
