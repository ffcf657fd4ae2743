"""`ner-semeval --hipe GOLD SYSTEM` (issue 28, item 3): our summary of a HIPE column, the scorer's TSV with
`--hipe-table`, and the flags' checks. Files built here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_hipe import GERMAN
from test_hipe_table import GOLD, LINK_GOLD, LINK_SYSTEM, SYSTEM, written_pair

from nerscore import HIPE_2020_TYPES, compute_semeval, format_hipe_table, hipe_table, main
from nerscore.files.hipe_table import hipe_inputs


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    gold, system = written_pair(tmp_path, GOLD, SYSTEM, 4)
    return str(gold), str(system)


def test_the_table_is_hipe_tables_tsv(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hipe", *files, "--hipe-table"]) == 0
    assert capsys.readouterr().out == format_hipe_table(hipe_table(*files))
    arguments = ["--hipe", *files, "--hipe-table", "--column", "NE-COARSE-LIT", "--column", "NE-COARSE-METO"]
    assert main([*arguments, "--tagset", "hipe2020", "--pairing", "optimal"]) == 0
    expected = hipe_table(*files, ["NE-COARSE-LIT", "NE-COARSE-METO"], tagset={"LOC", "ORG", "PERS"}, pairing="optimal")
    assert capsys.readouterr().out == format_hipe_table(expected)


def test_a_tag_set_file(files: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tagset = tmp_path / "tagset.txt"
    tagset.write_text("loc\norg\npers\n", encoding="utf-8")
    assert main(["--hipe", *files, "--hipe-table", "--tagset", str(tagset)]) == 0
    # ORG "Boston" is scored: an INC on LOC (tests/test_hipe_table.py).
    assert "\tALL\t0.25\t0.333\t0.286\t\t\t\t1\t3\t2\n" in capsys.readouterr().out


def test_the_summary_is_compute_semeval_of_the_documents(
    files: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--hipe", *files, "--json", "--per-type"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == compute_semeval(**hipe_inputs(*files), per_type=True)
    # Ours pairs "Smith" (PERS) with PERS "Mr Smith": type COR 2 (the scorer's greedy pairing has 1).
    assert (printed["type_correct"], printed["type_possible"], printed["type_actual"]) == (2, 3, 3)
    assert main(["--hipe", *files]) == 0
    assert capsys.readouterr().out.startswith("processed 2 documents with 3 reference and 3 predicted entities")


def test_the_summary_follows_the_pairing_flag(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    # --pairing is the option table's flag: the summary pairs as the scorer with hipe, its type COR then the
    # table's fuzzy TP (1: the LOC prediction over "Smith" takes PERS "Mr Smith", the first it overlaps).
    assert main(["--hipe", *files, "--json", "--pairing", "hipe"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == compute_semeval(**hipe_inputs(*files), pairing="hipe")
    fuzzy = next(row for row in hipe_table(*files) if row["Evaluation"].startswith("NE-COARSE-LIT-micro-fuzzy"))
    assert (printed["type_correct"], fuzzy["TP"]) == (1, 1)
    assert main(["--hipe", *files, "--pairing", "hipe"]) == 0
    assert capsys.readouterr().out.startswith(
        "processed 2 documents with 3 reference and 3 predicted entities (spans, hipe pairing)"
    )
    # --hipe-table pairs as the scorer without the flag, as ours with --pairing optimal.
    assert main(["--hipe", *files, "--hipe-table", "--pairing", "hipe"]) == 0
    assert capsys.readouterr().out == format_hipe_table(hipe_table(*files))


def test_hipe_inputs_carry_the_documents_and_their_periods(files: tuple[str, str]) -> None:
    import datetime

    inputs = hipe_inputs(*files, time_periods=[(datetime.date(1700, 1, 1), datetime.date(1800, 1, 1))])
    assert inputs["documents"] == ["a", "b"] and inputs["groups"] == ["TIME-1700-1800", "TIME-OTHER"]
    assert [[(s.start, s.end, s.entity_type) for s in spans] for spans in inputs["predictions"]] == [
        [(0, 1, "LOC"), (3, 4, "LOC"), (4, 5, "PERS")],
        [],
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--pairing", "hipe", "--min-overlap", "0.5"], "min_overlap=0.5 with pairing='hipe'"),
        (["--column", "NE-COARSE-LIT", "--column", "NE-COARSE-METO"], "one --column at a time"),
        (["--column", "NE-FINE-LIT"], "column NE-FINE-LIT: no such column"),
        (["--tagset", "missing.txt"], "missing.txt"),
        # It said "needs groups=", a Python keyword no flag sets (redteam2).
        (["--slices", "group"], "--slices group needs a group per sentence, which the command line does not read"),
    ],
)
def test_bad_requests_exit_2_saying_why(
    files: tuple[str, str], arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--hipe", *files, *arguments]) == 2
    assert message in capsys.readouterr().err


def test_a_malformed_system_file_names_its_line(
    files: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("\n".join([*SYSTEM[:3], "Mr\tPERS\tO\t_", *SYSTEM[4:]]) + "\n", encoding="utf-8")
    assert main(["--hipe", files[0], str(bad), "--hipe-table"]) == 2
    assert (
        capsys.readouterr().err
        == f"{bad}:4: column NE-COARSE-LIT: 'PERS' is not a tag (B-, I-, E- or S- and a type; O or _ outside)\n"
    )


@pytest.mark.parametrize(
    "arguments",
    [["--hipe-table"], ["--column", "NE-COARSE-LIT"], ["--tagset", "hipe2020"]],
)
def test_the_hipe_flags_go_with_hipe(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(arguments)
    assert "go with --hipe" in capsys.readouterr().err


def test_hipe_reads_its_own_files(files: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--hipe", *files, files[0]])
    assert "--hipe reads its own two files" in capsys.readouterr().err


@pytest.fixture
def link_files(tmp_path: Path) -> tuple[str, str]:
    gold, system = written_pair(tmp_path, LINK_GOLD, LINK_SYSTEM, 5)
    return str(gold), str(system)


def test_links_on_the_command_line(
    link_files: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mapping = tmp_path / "mapping.tsv"
    mapping.write_text("Main\tAlternatives\nQ7\tQ90\n", encoding="utf-8")
    assert main(["--hipe", *link_files, "--nel", "--hipe-table", "--n-best", "1,3", "--relaxed", str(mapping)]) == 0
    related = {"Q7": frozenset({"Q7", "Q90"})}
    expected = hipe_table(*link_files, nel=True, n_best=(1, 3), related=related, suffix="relaxed")
    assert capsys.readouterr().out == format_hipe_table(expected)
    assert main(["--hipe", *link_files, "--nel", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == compute_semeval(**hipe_inputs(*link_files, nel=True))
    # Our pairing of the first links: New York's Q1 (exact's COR, a type INC), Paris's Q7 (the same), Mr's NIL over
    # Mr X (a type COR), Q5 spurious.
    assert (printed["type_correct"], printed["type_incorrect"], printed["type_spurious"]) == (1, 2, 1)


def test_time_links_normalized_on_the_command_line(
    link_files: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--hipe", *link_files, "--nel", "--hipe-table", "--norm-time"]) == 0
    expected = hipe_table(*link_files, nel=True, normalize_time=True)
    assert capsys.readouterr().out == format_hipe_table(expected)
    assert main(["--hipe", *link_files, "--nel", "--json", "--norm-time"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == compute_semeval(**hipe_inputs(*link_files, nel=True, normalize_time=True))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--n-best", "3"], "--n-best and --relaxed go with --nel --hipe-table"),
        (["--norm-time"], "--norm-time goes with --nel"),
        (["--nel", "--hipe-table", "--n-best", "0"], "--n-best takes cut-offs of 1 or more"),
        (["--nel", "--hipe-table", "--n-best", "one"], "--n-best takes cut-offs of 1 or more"),
    ],
)
def test_bad_link_requests(
    link_files: tuple[str, str], arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--hipe", *link_files, *arguments]) == 2
    assert message in capsys.readouterr().err


def test_a_german_files_fine_columns_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gold, system = tmp_path / "gold.tsv", tmp_path / "team0_bundle3_de_1.tsv"
    gold.write_text("".join(GERMAN), encoding="utf-8")
    # Zürich typed as a nation: a fuzzy INC in NE-FINE-LIT, on the reference's LOC.ADM.TOWN.
    system.write_text(
        "".join(GERMAN).replace("B-loc.adm.town\tB-org.adm", "B-loc.adm.nat\tB-org.adm"), encoding="utf-8"
    )
    columns = ["--column", "NE-FINE-LIT", "--column", "NE-FINE-COMP", "--column", "NE-NESTED"]
    assert main(["--hipe", str(gold), str(system), "--hipe-table", "--tagset", "hipe2020", *columns]) == 0
    printed = capsys.readouterr().out
    expected = hipe_table(gold, system, ["NE-FINE-LIT", "NE-FINE-COMP", "NE-NESTED"], tagset=HIPE_2020_TYPES)
    assert printed == format_hipe_table(expected)
    assert (
        "team0_bundle3_de_1\tNE-FINE-LIT-micro-fuzzy-TIME-ALL-LED-ALL\tALL\t0.667\t0.667\t0.667\t\t\t\t2\t1\t1\n"
        in printed
    )
    assert (
        "team0_bundle3_de_1\tNE-FINE-COMP-micro-strict-TIME-ALL-LED-ALL\tALL\t1.0\t1.0\t1.0\t\t\t\t2\t0\t0\n" in printed
    )
    assert "\tNE-FINE-LIT-micro-fuzzy-TIME-ALL-LED-ALL\tLOC.ADM.TOWN\t0.0\t0.0\t0\t\t\t\t0\t1\t1\n" in printed


@pytest.mark.parametrize(
    "flags", [["--min-overlap", "0.5"], ["--labels", "LOC"], ["--scheme", "IOBES", "--bootstrap", "9"]]
)
def test_the_table_refuses_our_options_rather_than_dropping_them(
    files: tuple[str, str], flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    # The red team's: `--hipe-table --pairing optimal --min-overlap 0.5` printed the table without min_overlap.
    assert main(["--hipe", *files, "--hipe-table", *flags]) == 2
    assert "takes none of --" in (err := capsys.readouterr().err) and flags[0] in err


def test_a_tag_set_that_is_not_utf8_is_located(
    files: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tagset = tmp_path / "tags.txt"
    tagset.write_bytes(b"LOC\nPER\xe9\n")
    assert main(["--hipe", *files, "--tagset", str(tagset)]) == 2
    assert "tags.txt:2: byte 0xe9 is not utf-8" in capsys.readouterr().err


@pytest.mark.parametrize("mark", [b"", b"\xef\xbb\xbf"], ids=["plain", "a-byte-order-mark"])
def test_a_tagset_file_keeps_its_first_type_after_a_byte_order_mark(tmp_path: Path, capsys, mark: bytes) -> None:
    # (Red team 2: the mark was read as part of the first type, so a response's entities of that type, which the
    # gold lacks, were dropped as outside the tag set, silently.)
    header = "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNEL-LIT\tMISC\n# document_id = d\n"
    gold, system = tmp_path / "gold.tsv", tmp_path / "system.tsv"
    gold.write_text(header + "New\tB-loc\tO\t_\t_\nYork\tO\tO\t_\t_\n", encoding="utf-8")
    system.write_text(header + "New\tB-loc\tO\t_\t_\nYork\tB-org\tO\t_\t_\n", encoding="utf-8")
    tagset = tmp_path / "tagset.txt"
    tagset.write_bytes(mark + b"org\nloc\n")
    assert main(["--hipe", str(gold), str(system), "--tagset", str(tagset), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["strict_actual"] == 2


@pytest.mark.parametrize(
    ("flags", "printed"),
    [
        pytest.param(["--errors", "3"], "New York", id="errors"),
        pytest.param(["--slices", "seen", "--seen", "SEEN"], "seen ", id="seen"),
        pytest.param(["--slices", "sentence_length"], "sentence_length ", id="sentence-length"),
    ],
)
def test_our_summary_reads_the_documents_tokens(tmp_path: Path, capsys, flags: list[str], printed: str) -> None:
    # (Red team 2: each said "pass tokens= (tags) or texts= (spans)", Python's keywords, and exited 2: the
    # documents' tokens were not passed on.)
    header = "TOKEN\tNE-COARSE-LIT\tNE-COARSE-METO\tNEL-LIT\tMISC\n# document_id = d\n"
    gold, system = tmp_path / "gold.tsv", tmp_path / "system.tsv"
    gold.write_text(header + "New\tB-loc\tO\t_\t_\nYork\tI-loc\tO\t_\t_\n", encoding="utf-8")
    system.write_text(header + "New\tB-loc\tO\t_\t_\nYork\tO\tO\t_\t_\n", encoding="utf-8")
    seen = tmp_path / "seen.txt"
    seen.write_text("New York\n", encoding="utf-8")
    arguments = [str(seen) if flag == "SEEN" else flag for flag in flags]
    assert main(["--hipe", str(gold), str(system), *arguments]) == 0
    assert printed in capsys.readouterr().out
