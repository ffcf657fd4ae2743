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
from nerscore.files.hipe import parse_hipe
from nerscore.files.hipe_tags import hipe_links, hipe_spans

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


# -- the three languages of CLEF-HIPE-2020, and HIPE-2022 -----------------------------------------------------

FULL_HEADER = (
    "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNE-FINE-LIT\tNE-FINE-METO\tNE-FINE-COMP\tNE-NESTED\tNEL-LIT\tNEL-METO\tMISC"
)
# German (NZZ) and French (Le Temps) as CLEF-HIPE-2020 writes them: every column, the fine types, components and
# nested entities, umlauts and accents, a BOM at the start of the French file.
GERMAN = tsv(
    FULL_HEADER,
    "# language = de",
    "# newspaper = NZZ",
    "# date = 1798-01-20",
    "# document_id = NZZ-1798-01-20-a-p0002",
    "# segment_iiif_link = https://example.org/nzz/1",
    "General\tB-pers\tO\tB-pers.ind\tO\tB-comp.title\tO\tQ321765\t_\t_",
    "Hutchinson\tI-pers\tO\tI-pers.ind\tO\tB-comp.name\tO\tQ321765\t_\tEndOfLine",
    "in\tO\tO\tO\tO\tO\tO\t_\t_\t_",
    "# segment_iiif_link = https://example.org/nzz/2",
    "Zürich\tB-loc\tB-org\tB-loc.adm.town\tB-org.adm\tO\tO\tQ72\tQ1000\tLED0.10",
    "# language = de",
    "# newspaper = NZZ",
    "# date = 1798-01-21",
    "# document_id = NZZ-1798-01-21-a-p0001",
    "# segment_iiif_link = _",
    "Bürger\tB-pers\tO\tB-pers.coll\tO\tO\tO\tNIL\t_\t_",
    "von\tI-pers\tO\tI-pers.coll\tO\tO\tO\tNIL\t_\t_",
    "Bern\tI-pers\tO\tI-pers.coll\tO\tO\tB-loc.adm.town\tNIL\t_\tNoSpaceAfter",
)
FRENCH = tsv(
    FULL_HEADER,
    "# language = fr",
    "# newspaper = EXP",
    "# date = 1798-01-04",
    "# document_id = EXP-1798-01-04-a-i0005",
    "# segment_iiif_link = _",
    "Le\tO\tO\tO\tO\tO\tO\t_\t_\t_",
    "citoyen\tB-pers\tO\tB-pers.ind\tO\tB-comp.title\tO\tQ3\t_\t_",
    "Ochs\tI-pers\tO\tI-pers.ind\tO\tB-comp.name\tO\tQ3\t_\tEndOfLine",
    "# segment_iiif_link = _",
    "à\tO\tO\tO\tO\tO\tO\t_\t_\t_",
    "Genève\tB-loc\tO\tB-loc.adm.town\tO\tO\tO\tQ71\t_\tLED0.0",
)


@pytest.mark.parametrize(("lines", "encoding"), [(GERMAN, "utf-8"), (FRENCH, "utf-8-sig")])
def test_german_and_french_files_read_and_score_against_themselves(
    tmp_path: Path, lines: list[str], encoding: str
) -> None:
    path = tmp_path / "gold.tsv"
    path.write_text("".join(lines), encoding=encoding)
    documents = read_hipe(path)
    assert documents[0].columns == parse_hipe(lines)[0].columns  # the BOM is not the header's
    assert documents[0].tokens[-1] in ("Zürich", "Genève") and documents[0].segment_starts == (0, 3)
    assert documents[0].metadata["language"] in ("de", "fr")
    expected = {"NE-FINE-LIT": 3, "NE-FINE-COMP": 2, "NE-NESTED": 1} if lines is GERMAN else {"NE-FINE-COMP": 2}
    for column in ("NE-COARSE-LIT", "NE-COARSE-METO", "NE-FINE-LIT", "NE-FINE-METO", "NE-FINE-COMP", "NE-NESTED"):
        rows = nerscore.hipe_table(documents, documents, column, tagset=nerscore.HIPE_2020_TYPES)
        total = [row for row in rows if row["Label"] == "ALL" and "-micro-" in row["Evaluation"]]
        entities = len([span for d in documents for span in hipe_spans(d, column)])
        assert [(row["TP"], row["FP"], row["FN"]) for row in total] == [(entities, 0, 0)] * 2
        assert all(row["F1"] == 1 for row in total) or entities == 0
        if column in expected:
            assert entities == expected[column]
    links = nerscore.hipe_table(documents, documents, ["NEL-LIT", "NEL-METO"], nel=True)
    micro = [row for row in links if "-micro-" in row["Evaluation"]]
    assert [(row["FP"], row["FN"]) for row in micro] == [(0, 0), (0, 0)]
    assert micro[0]["TP"] == (3 if lines is GERMAN else 2)


# HIPE-2022 (v2.1): `hipe2022:` keys, some before the document's id, a blank line between documents, no segment
# comments (EndOfSentence ends a sentence), its ten columns.
HIPE_2022 = tsv(
    FULL_HEADER,
    "# hipe2022:dataset = newseye",
    "# hipe2022:document_id = NE-1-1",
    "# hipe2022:date = 1870-05-01",
    "# hipe2022:language = fr",
    "# hipe2022:applicable_columns = NE-COARSE-LIT, NE-NESTED, NEL-LIT",
    "Paris\tB-loc\t_\tB-loc\t_\t_\tO\tQ90\t_\tNoSpaceAfter",
    ".\tO\t_\tO\t_\t_\tO\t_\t_\tEndOfSentence",
    "Victor\tB-pers\t_\tB-pers\t_\t_\tO\tQ535\t_\t_",
    "Hugo\tI-pers\t_\tI-pers\t_\t_\tO\tQ535\t_\tEndOfSentence",
    "",
    "# hipe2022:dataset = newseye",
    "# hipe2022:document_id = NE-1-2",
    "# hipe2022:date = 1871-01-01",
    "Lyon\tB-loc\t_\tB-loc\t_\t_\tO\tQ456\t_\tEndOfSentence",
)


def test_hipe_2022_documents_are_split_at_their_ids() -> None:
    documents = parse_hipe(HIPE_2022)
    assert [d.id for d in documents] == ["NE-1-1", "NE-1-2"]
    # The keys before a document's id are its own (the dataset), as those after it.
    assert documents[1].metadata == {
        "hipe2022:dataset": "newseye",
        "hipe2022:document_id": "NE-1-2",
        "hipe2022:date": "1871-01-01",
    }
    assert documents[0].metadata["hipe2022:language"] == "fr" and documents[0].date == datetime.date(1870, 5, 1)
    assert [d.segments for d in documents] == [(("Paris", "."), ("Victor", "Hugo")), (("Lyon",),)]
    assert [d.lines for d in documents] == [(7, 8, 9, 10), (15,)]
    # A response without the comments is split as the gold is; the gold against itself is perfect, a document each.
    flat = parse_hipe([line for line in HIPE_2022 if not line.startswith("#") and line.strip()])
    aligned = align_hipe(documents, flat)
    assert [d.tokens for d in aligned] == [d.tokens for d in documents]
    rows = nerscore.hipe_table(documents, aligned, system_name="run")
    macro = next(
        row for row in rows if row["Evaluation"].startswith("NE-COARSE-LIT-macro_doc-fuzzy") and row["Label"] == "ALL"
    )
    assert (macro["F1"], macro["F1_std"]) == (1.0, 0.0)
    assert [span for span, _ in hipe_links(documents[0], "NEL-LIT")] == [Span(0, 1, "Q90"), Span(2, 4, "Q535")]


def test_a_date_that_is_no_date_is_located(tmp_path: Path) -> None:
    # The red team's: `# date = 1790-13-45` reached the command line as "error: month must be in 1..12", naming
    # neither file nor line.
    lines = tsv(HEADER, "# date = 1790-13-45", "# document_id = d", "Paris\tB-loc\tO\t_\t_")
    gold = write(tmp_path, "gold.tsv", lines)
    with pytest.raises(HipeFileError, match=r"gold\.tsv:\d+: .*1790-13-45.*YYYY-MM-DD") as raised:
        hipe_table(gold, gold, time_periods=[(datetime.date(1700, 1, 1), datetime.date(1800, 1, 1))])
    assert raised.value.line == 2  # where the document starts, its metadata first


@pytest.mark.parametrize(
    ("encoding", "message"),
    [
        pytest.param("klingon", r"^encoding is 'klingon', which Python does not know; expected a codec", id="unknown"),
        pytest.param(None, r"^encoding is None, which Python does not know; expected a codec", id="none"),
        pytest.param(["utf-8"], r"^encoding is \['utf-8'\], which Python does not know", id="a-list"),
    ],
)
def test_an_encoding_python_does_not_know_is_refused(tmp_path: Path, encoding, message: str) -> None:
    # codecs.lookup's LookupError (no ValueError) or TypeError ("lookup() argument must be str") escaped.
    path = tmp_path / "gold.tsv"
    path.write_text("TOKEN\tNE-COARSE-LIT\nParis\tB-loc\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        read_hipe(path, encoding=encoding)


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
        nerscore.files.hipe_tags.read_link_alternatives(mapping)


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


def test_lines_that_start_with_a_space_are_each_found_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (Red team 2: each such line was looked up in the document's line numbers by tuple.index when the document
    # closed, quadratic: 16,000 lines took 1.9 s, x3.5 a doubling. Each is found by one bisection now;
    # `benchmarks/growth.py --hipe-spaces` measures the doubling.)
    import bisect

    from nerscore.files import hipe

    searches = []
    original = bisect.bisect_left
    monkeypatch.setattr(hipe.bisect, "bisect_left", lambda *found: searches.append(found) or original(*found))
    lines = 2_000
    spaced = [HEADER + "\n", "# document_id = d\n", " x\tB-loc\tO\t_\t_\n" * lines]
    document = read_hipe(write(tmp_path, "spaced.tsv", spaced))[0]
    assert len(searches) == lines and len(document.tokens) == lines
    blank = [HEADER + "\n", "# document_id = d\n", "x\tO\tO\t_\t_\n", " \tB-loc\tO\t_\t_\n"]
    with pytest.raises(HipeFileError, match="a token line without a token"):
        read_hipe(write(tmp_path, "blank.tsv", blank))
