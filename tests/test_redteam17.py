"""A seventeenth hostile sweep (issue 31), of the newest capabilities: HIPE's files, discontinuous entities,
agreement, BRAT and the text tables. Each named case failed on the code before its fix."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest

from nerscore import agreement, cli, compute_semeval
from nerscore.errors import InvalidInputError
from nerscore.files import tables
from nerscore.files.annotations import read_brat
from nerscore.files.hipe import HipeFileError, parse_hipe, read_hipe
from nerscore.files.hipe_table import hipe_inputs, hipe_table
from nerscore.forms import fragment_arrays
from nerscore.pairing import staircase
from nerscore.pairing.staircase import overlapping_pairs

_HEADER = "TOKEN\tNE-COARSE-LIT\tNEL-LIT"


def _hipe(*lines: str, source: str = "gold.tsv") -> list:
    return parse_hipe([_HEADER, "# document_id = d1", *lines], source)


# A link whose first is empty (`|Q42`, `|`) was an entity of the type '': refused once paired, as
# "document 1 (d1): references[1] is Span(..., entity_type='')" (hipe_table) or "predictions, sentence 0, entity 0:
# the type is ''" (hipe_inputs), naming neither the file, the line nor the column. Now the file's line and column.
EMPTY_FIRST_LINKS = [
    pytest.param("|Q42", {}, id="table"),
    pytest.param("|", {"mentions": True}, id="table-mentions"),
    pytest.param("|Q42", {"scorer": "2022"}, id="table-2022"),
    pytest.param("|Q42", None, id="inputs"),
]


@pytest.mark.parametrize(("link", "options"), EMPTY_FIRST_LINKS)
def test_a_link_whose_first_is_empty_is_refused_at_its_line(link: str, options: dict | None) -> None:
    gold = _hipe("Ada\tB-pers\tQ1", f"Lovelace\tO\t{link}")
    system = _hipe("Ada\tB-pers\tQ1", "Lovelace\tO\t_", source="run.tsv")
    with pytest.raises(HipeFileError) as raised:
        if options is None:
            compute_semeval(**hipe_inputs(gold, system, nel=True))
        else:
            hipe_table(gold, system, nel=True, **options)
    assert (raised.value.source, raised.value.line, raised.value.column) == ("gold.tsv", 4, "NEL-LIT")
    assert f"{link!r} is not a link" in str(raised.value)


# A file of a header and no token line (a run that wrote nothing, a gold cut short) read as no document, and the
# scoring then said "<gold>: the gold has no tokens" or "<system>: no tokens, where the gold (gold.tsv) has 1",
# never which file. Now the read names it.
@pytest.mark.parametrize("side", ["gold", "system"])
@pytest.mark.parametrize("content", [f"{_HEADER}\n", f"{_HEADER}\n# document_id = d1\n\n"], ids=["header", "comments"])
def test_a_hipe_file_of_no_token_line_is_refused_by_its_name(side: str, content: str, tmp_path: Path) -> None:
    full = tmp_path / "full.tsv"
    full.write_text(f"{_HEADER}\n# document_id = d1\nAda\tB-pers\tQ1\n", encoding="utf-8")
    empty = tmp_path / "empty.tsv"
    empty.write_text(content, encoding="utf-8")
    files = (empty, full) if side == "gold" else (full, empty)
    with pytest.raises(HipeFileError, match=r"empty\.tsv: has no token line after its header"):
        hipe_table(*files)
    with pytest.raises(HipeFileError, match=r"empty\.tsv: has no token line"):
        read_hipe(empty)


# The formatters the command line prints with (nerscore.files.tables) raised KeyError ('' for a slice of buckets
# without F, 'count' for an errors row), TypeError or AttributeError on what they cannot read, where format_table
# and its kin name the argument and the key.
BAD_FORMATTER_INPUTS = [
    pytest.param(tables.format_slice_table, ("length", {"1": {}}), "buckets['1'] is a dict without", id="slice-no-f"),
    pytest.param(tables.format_slice_table, ("length", None), "buckets is None", id="slice-none"),
    pytest.param(tables.format_slice_table, (5, {}), "name is 5", id="slice-name"),
    pytest.param(
        tables.format_slice_table, ("length", {"1": {"type_f1": 1.0}}), "without type_possible", id="slice-no-pos"
    ),
    pytest.param(tables.format_diagnostics, ({},), "results holds no 'boundary_", id="diagnostics-empty"),
    pytest.param(tables.format_diagnostics, (None,), "results is None", id="diagnostics-none"),
    pytest.param(tables.format_runs_diagnostics, ({},), "results holds no 'boundary_", id="runs-diagnostics"),
    pytest.param(tables.format_errors, ([{}],), "rows[0] is a row without count", id="errors-row"),
    pytest.param(tables.format_errors, ([None],), "rows[0] is None", id="errors-none-row"),
    pytest.param(tables.format_errors, (None,), "rows is None", id="errors-none"),
]


@pytest.mark.parametrize(("formatter", "arguments", "message"), BAD_FORMATTER_INPUTS)
def test_the_text_tables_name_what_they_cannot_read(formatter: Any, arguments: tuple, message: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        formatter(*arguments)
    assert message in str(raised.value)


# A header whose fields end with a tab (a spreadsheet's export: every line ends with one) named one column fewer
# than its tabs hold, and every token line was refused ("3 values where the header names 2 columns"), where the
# HIPE scorer's csv reader reads an unnamed column. A field of the header between tabs that names nothing is now a
# column without a name; the others read as before.
UNNAMED_FIELDS = {"one": "TOKEN\tNE-COARSE-LIT\t", "two": "TOKEN\tNE-COARSE-LIT\t\t", "mid": "TOKEN\t\tNE-COARSE-LIT"}


@pytest.mark.parametrize("header", list(UNNAMED_FIELDS.values()), ids=list(UNNAMED_FIELDS))
def test_a_header_field_naming_nothing_is_an_unnamed_column(header: str, tmp_path: Path) -> None:
    tabs = header.count("\t")
    lines = [header, "# document_id = d1", "Ada\tB-pers" + "\t" * (tabs - 1), "met\tO" + "\t" * (tabs - 1)]
    if header.startswith("TOKEN\t\t"):
        lines[2:] = ["Ada\t\tB-pers", "met\t\tO"]
    path = tmp_path / "trailing.tsv"
    path.write_bytes("\n".join(lines).encode())
    for documents in (read_hipe(path), parse_hipe(lines)):
        assert documents[0].columns["NE-COARSE-LIT"] == ("B-pers", "O")
        assert len(documents[0].columns) == tabs + 1
    rows = hipe_table(path, path)
    assert (rows[0]["TP"], rows[0]["FP"], rows[0]["FN"]) == (1, 0, 0)


def _comb(entities: int, fragments: int) -> tuple[list, list]:
    """Entities of `fragments` one-character fragments each, at the same places on both sides, and one of their
    own: every reference meets every prediction in each of those fragments, and no two are identical."""
    shared = [[2 * k, 2 * k + 1] for k in range(fragments)]
    own = 2 * fragments
    return tuple(  # type: ignore[return-value]
        [[{"fragments": [*shared, [own + 2 * n + side, own + 2 * n + side + 1]], "type": "A"} for n in range(entities)]]
        for side in (0, 1)
    )


# Discontinuous entities that meet in many fragments listed every pair of fragments that meet at once, ~60 bytes
# each: 400 entities a side of 100 fragments at the same places (80,000 fragments, 16 million pairs of them, 160,000
# pairs of entities) peaked at 1 GB (tracemalloc; 49 MB now). The pairs of fragments are now listed a run of
# references at a time, at most `_FRAGMENT_PAIRS_AT_ONCE` (or one reference's), and summed into the pairs of entities
# as they come: memory follows the fragments and the pairs of entities.
def test_entities_meeting_in_many_fragments_list_their_pairs_of_fragments_a_run_at_a_time(monkeypatch) -> None:
    # (not an attribute before: set all the same)
    monkeypatch.setattr(fragment_arrays, "_FRAGMENT_PAIRS_AT_ONCE", 1 << 14, raising=False)
    listed: list[int] = []

    def recorded(*sides: Any) -> Any:
        pairs = overlapping_pairs(*sides)
        listed.append(len(pairs[0]))
        return pairs

    monkeypatch.setattr(staircase, "overlapping_pairs", recorded)
    references, predictions = _comb(60, 400)
    result = compute_semeval(references=references, predictions=predictions)
    assert (result["partial_correct"], result["partial_partial"], result["partial_missed"]) == (0, 60, 0)
    assert sum(listed) >= 60 * 60 * 400 and max(listed) <= (1 << 14) + 60, listed


# A document of no token line (a `# document_id` line followed by another) gave its id, date and other metadata to
# the next document's tokens (its own were kept out by `setdefault`): the next document was read as the empty one,
# dated otherwise, so that a time period's slice counted it where it is not. The empty document is dropped and the
# comments since its `# document` line are the next document's, on either side of its id (CLEF-HIPE-2020 writes
# the date before the id, HIPE-2022 after).
EMPTY_DOCUMENTS = {
    "2020": ["# date = 1800-01-01", "# document_id = a", "# date = 1900-01-01", "# document_id = b"],
    "2022": [
        "# hipe2022:document_id = a",
        "# hipe2022:date = 1800-01-01",
        "# hipe2022:document_id = b",
        "# hipe2022:date = 1900-01-01",
    ],
}


@pytest.mark.parametrize("comments", list(EMPTY_DOCUMENTS.values()), ids=list(EMPTY_DOCUMENTS))
def test_a_document_of_no_token_line_gives_the_next_none_of_its_metadata(comments: list[str], tmp_path: Path) -> None:
    lines = ["TOKEN\tNE-COARSE-LIT", *comments, "Paris\tB-loc", "# document_id = c", "Rome\tB-loc"]
    path = tmp_path / "empty-document.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for documents in (parse_hipe(lines), read_hipe(path)):
        assert [document.id for document in documents] == ["b", "c"]
        assert str(documents[0].date) == "1900-01-01"
        assert documents[0].line == 2 + [comment.endswith("document_id = b") for comment in comments].index(True)
    period = (datetime.date(1850, 1, 1), datetime.date(1950, 1, 1))
    grouped = hipe_inputs(path, path, time_periods=[period])["groups"]
    assert grouped == ["TIME-1850-1950", "TIME-OTHER"]


# conlleval's -d is read for the time a matcher would take (nerscore.files.backtracking), one level of recursion a
# group: a delimiter of 400 nested lookaheads, or groups repeated {1}, which Python's re compiles, raised
# RecursionError out of the command (a traceback). Now refused as too deep to read, with the command's status 2.
DEEP_DELIMITERS = {
    "lookaheads": "(?=" * 450 + " " + ")" * 450 + " ",
    "repeats": "(?:" * 450 + " " + "){1}" * 450,
}


@pytest.mark.parametrize("delimiter", list(DEEP_DELIMITERS.values()), ids=list(DEEP_DELIMITERS))
def test_a_delimiter_nested_past_what_is_read_is_refused(delimiter: str, tmp_path: Path, capsys) -> None:
    path = tmp_path / "x.conll"
    path.write_text("Ada B-PER B-PER\n", encoding="utf-8")
    assert cli.main(["--conlleval", "-d", delimiter, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "groups nested" in captured.err and "Traceback" not in captured.err


# Agreement labels a span unit with the type covering it, "O" where none does and the types of one annotator's
# stacked entities joined by "|" (docs/scoring.md §13): an entity of the type 'A|B' agreed with an 'A' and a 'B'
# stacked (alpha 1.0), and one of the type 'O' with no entity at all (its units not counted as labelled). Such a
# type is now refused where it is, unless `labels` leaves it out.
AMBIGUOUS_TYPES = [
    pytest.param({"a": [[(0, 3, "A|B")]], "b": [[(0, 3, "A"), (0, 3, "B")]]}, "a", 0, "'A|B'", id="joined"),
    pytest.param({"a": [[], [(0, 1, "PER"), (4, 7, "O")]], "b": [[], []]}, "a", 1, "'O'", id="outside"),
    pytest.param({"a": [[]], "b": [[{"fragments": [[0, 1], [4, 7]], "type": "X|Y"}]]}, "b", 0, "'X|Y'", id="fragments"),
    pytest.param({"a": [[("PER", "Ada"), ("O", "Bob")]], "b": [[]]}, "a", 0, "'O'", id="strings"),
]


@pytest.mark.parametrize(("annotations", "annotator", "sentence", "type_name"), AMBIGUOUS_TYPES)
def test_a_type_that_reads_as_another_label_is_refused_in_agreement(
    annotations: dict, annotator: str, sentence: int, type_name: str
) -> None:
    texts = ["Ada Bob"] * len(annotations["a"])
    with pytest.raises(InvalidInputError) as raised:
        agreement(annotations, texts=texts)
    error = raised.value
    assert (error.side, error.sentence) == (f"annotations['{annotator}']", sentence), str(error)
    assert f"found entity type {type_name}, which agreement's units read as the label of" in str(error)
    assert agreement(annotations, texts=texts, labels=["PER"])["units"] == 7 * len(texts)


# hipe_inputs names a document without an id `document N` for `documents=` (bootstrap's units): a document whose id
# is "document 2" and the second, unnamed, were then one unit, resampled together. A name given is never another's.
def test_a_document_without_an_id_is_never_named_as_another() -> None:
    lines = ["TOKEN\tNE-COARSE-LIT", "# document_id = document 2", "Ada\tB-pers", "# document_id =", "Bob\tB-pers"]
    names = hipe_inputs(parse_hipe(lines), parse_hipe(lines))["documents"]
    assert len(set(names)) == 2 and names[0] == "document 2", names


# A number of a result that is no number (None, a string, a list: a result edited or read back from elsewhere) raised
# TypeError ("unsupported format string passed to NoneType.__format__") or a ValueError naming nothing ("Unknown
# format code 'f' for object of type 'str'") out of the formatters. Now the key is named.
@pytest.mark.parametrize("value", [None, "0.5", [1]], ids=["none", "string", "list"])
@pytest.mark.parametrize("formatter", ["table", "type-table"])
def test_a_result_number_that_is_no_number_is_named(value: Any, formatter: str) -> None:
    result = compute_semeval(references=[[(0, 1, "A")]], predictions=[[(0, 1, "A")]], per_type=True)
    with pytest.raises(InvalidInputError, match=r"^results\['(A_)?strict_precision'\] is .*; expected a number"):
        if formatter == "table":
            tables.format_table({**result, "strict_precision": value})
        else:
            tables.format_type_table({**result, "A_strict_precision": value}, ["A"])


# An .ann file of CR line ends (an old Mac's) is one line to brat's reader: its first T line's text ran to the end of
# the file and was refused as a text that differs from the .txt's, without a word of the line ends. Now said.
def test_an_ann_file_of_cr_line_ends_is_refused_naming_them(tmp_path: Path) -> None:
    (tmp_path / "doc.txt").write_text("Ada met Bob", encoding="utf-8")
    (tmp_path / "doc.ann").write_bytes(b"T1\tPER 0 3\tAda\rT2\tPER 8 11\tBob\r")
    with pytest.raises(ValueError, match=r"doc\.ann:1: .*has \\r line ends, where brat ends each line with \\n"):
        list(read_brat(tmp_path))


# A HIPE type named ALL (`B-all`) had a per-type row named as the table's total row, and both read the total: the
# type's row said TP 1, FP 1, FN 1 where its own counts are 1, 0, 0. Now refused at the tag, in the gold or (with a
# tag set that scores it) the response.
def test_a_hipe_type_named_all_is_refused_at_its_tag() -> None:
    header = "TOKEN\tNE-COARSE-LIT"
    gold = parse_hipe([header, "# document_id = a", "w\tB-all", "x\tB-loc", "y\tO"], "gold.tsv")
    system = parse_hipe([header, "# document_id = a", "w\tB-all", "x\tO", "y\tS-All"], "run.tsv")
    with pytest.raises(HipeFileError, match=r"^gold\.tsv:3: column NE-COARSE-LIT: 'B-all': its type, ALL, names"):
        hipe_table(gold, system)
    plain, late = (
        parse_hipe([header, "# document_id = a", "w\tO", "x\tB-loc", f"y\t{tag}"], "run.tsv") for tag in ("O", "S-All")
    )
    with pytest.raises(HipeFileError, match=r"^run\.tsv:5: column NE-COARSE-LIT: 'S-All'"):
        hipe_table(plain, late, tagset={"ALL", "LOC"})
    assert [row["Label"] for row in hipe_table(plain, late)][:2] == ["ALL", "LOC"]  # (dropped: not scored)
