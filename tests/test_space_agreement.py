"""The Space's Agreement task (space/agreement.py, app.py): what it reads, the numbers it shows (those of
`nerscore.agreement` on what the package's readers read), its caps, and its messages naming the line."""

from __future__ import annotations

import inspect
import json
import tracemalloc
import zipfile

import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st
from test_agreement_files import ENTITIES as FILE_ENTITIES
from test_agreement_files import TEXTS as FILE_TEXTS
from test_agreement_files import write_brat

import nerscore
from space import agreement, caps, texts, writing
from space import archives as archive_module

EXAMPLE = texts.AGREEMENT_EXAMPLE


def _label_studio(tasks: list[tuple[str, dict[str, list[tuple[int, int, str]]]]]) -> str:
    """A Label Studio export as the tool writes it: each task's text and one annotation per annotator."""
    export = []
    for number, (text, by) in enumerate(tasks):
        annotations = [
            {
                "id": number * 10 + index,
                "completed_by": {"id": index + 1, "email": name},
                "was_cancelled": False,
                "result": [
                    {
                        "id": f"r{start}",
                        "from_name": "label",
                        "to_name": "text",
                        "type": "labels",
                        "value": {"start": start, "end": end, "text": text[start:end], "labels": [label]},
                    }
                    for start, end, label in entities
                ],
            }
            for index, (name, entities) in enumerate(by.items())
        ]
        export.append({"id": 100 + number, "data": {"text": text}, "annotations": annotations})
    return json.dumps(export, indent=2, ensure_ascii=False)


LS_EXPORT = _label_studio(
    [
        (
            "Ada Lovelace met Charles Babbage in London.",
            {
                "ann@example.org": [(0, 12, "PER"), (17, 32, "PER"), (36, 42, "LOC")],
                "ben@example.org": [(0, 12, "PER"), (17, 32, "PER"), (36, 42, "ORG")],
            },
        ),
        (
            "The Royal Society met in London.",
            {"ann@example.org": [(4, 17, "ORG"), (25, 31, "LOC")], "ben@example.org": [(0, 17, "ORG")]},
        ),
    ]
)


def test_the_example_is_the_file_of_docs_agreement():
    assert (REPO / "examples" / "agreement.conll").read_text(encoding="utf-8") == EXAMPLE
    assert texts.AGREEMENT in texts.TASKS and texts.LABELS[texts.AGREEMENT] == texts.AGREEMENT_LABEL
    assert all(example[3] != texts.AGREEMENT for example in texts.EXAMPLES)  # loaded by the task, not listed


def test_the_example_shows_the_numbers_of_docs_agreement():
    # docs/agreement.md's command-line output for examples/agreement.conll, annotators named by their columns.
    status, pairs, coefficients, disagreements = agreement.agreement_text(EXAMPLE)
    assert status.startswith("Measured the agreement of 3 annotators (annotator1, annotator2, annotator3) on 2")
    assert pairs.values.tolist() == [
        ["annotator1", "annotator2", "0.6", "0.8", "0.9", "0.8", "0.7886", "0.6727"],
        ["annotator1", "annotator3", "0.6667", "0.6667", "0.7778", "0.8889", "0.7759", "0.7"],
        ["annotator2", "annotator3", "0.4444", "0.4444", "0.6667", "0.8889", "0.675", "0.55"],
        ["mean of the pairs", "", "0.5704", "0.637", "0.7815", "0.8593", "", ""],
        ["pooled", "", "0.5714", "0.6429", "0.7857", "0.8571", "", ""],
    ]
    assert coefficients.values.tolist() == [
        ["Fleiss' κ", "0.7434", "0.6309"],
        ["Krippendorff's α", "0.75", "0.6445"],
        ["units", "13", "9"],
    ]
    # annotator2 typed London an ORG (IV), and started the ORG at "The" (V); annotator3 cut Ada Lovelace.
    rows = disagreements.values.tolist()
    assert ["annotator1", "annotator2", "1", "IV", "London", "LOC", "London", "ORG"] in rows
    assert ["annotator1", "annotator2", "1", "V", "Royal Society", "ORG", "The Royal Society", "ORG"] in rows
    assert ["annotator1", "annotator3", "1", "V", "Ada Lovelace", "PER", "Ada", "PER"] in rows
    assert ["annotator1", "annotator3", "1", "III", "London", "LOC", "—", "—"] in rows


def test_the_tables_are_nerscore_agreement_of_what_the_readers_read(tmp_path):
    path = tmp_path / "export.json"
    path.write_text(LS_EXPORT, encoding="utf-8")
    read = nerscore.read_label_studio_annotators(path)
    expected = nerscore.agreement(read.annotations, texts=read.texts, errors=caps.MAX_ERROR_ROWS)
    parsed = agreement.parse_annotations(LS_EXPORT)
    assert parsed.layout == agreement.LABEL_STUDIO and parsed.annotations == read.annotations
    # Where each task starts in the editor (json.dumps writes "  {" for each, from line 2).
    assert parsed.lines == [number for number, line in enumerate(LS_EXPORT.splitlines(), 1) if line == "  {"]
    assert parsed.lines[0] == 2 and len(parsed.lines) == 2
    assert agreement.measure(parsed) == expected
    status, pairs, coefficients, _ = agreement.agreement_text(LS_EXPORT, "IOBES", "strict")
    assert "2 tasks of a Label Studio export" in status and "do not apply" in status
    assert pairs.values.tolist()[0][2:] == [
        writing.format_number(expected["pairs"][0][key])
        for key in ("strict_f1", "exact_f1", "partial_f1", "type_f1", "cohen_kappa", "cohen_kappa_labelled")
    ]
    assert coefficients.values.tolist()[1][1] == writing.format_number(expected["krippendorff_alpha"])
    conll = REPO / "examples" / "agreement.conll"
    read = nerscore.read_conll_annotators([conll])
    options = {"tokens": read.tokens, "errors": caps.MAX_ERROR_ROWS, "scheme": "IOB2", "mode": "lenient"}
    assert agreement.measure(agreement.parse_annotations(EXAMPLE)) == nerscore.agreement(read.annotations, **options)


def test_a_pasted_byte_order_mark_is_read_as_an_upload_reads_it():
    # Before a Label Studio export's '[' it made the export CoNLL columns: "The input holds 11 annotators".
    for text in (LS_EXPORT, EXAMPLE):
        parsed = agreement.parse_annotations("\ufeff" + text)
        assert parsed == agreement.parse_annotations(text), text[:20]


# Issue 29 (5): JSON lines of spans, every annotator's entities on each line (nerscore.read_jsonl_annotators).
SPAN_LINES = "\n".join(
    json.dumps({"text": text, "annotations": annotations})
    for text, annotations in [
        ("Ann met Bob.", {"ann": [[0, 3, "PER"], [8, 11, "PER"]], "ben": [[0, 3, "PER"], [8, 11, "ORG"]]}),
        ("Paris is big.", {"ann": [[0, 5, "LOC"]], "ben": [[0, 5, "LOC"]], "cal": [[0, 5, "ORG"]]}),
    ]
)


def test_json_lines_of_spans_are_measured_as_the_reader_reads_them(tmp_path):
    path = tmp_path / "all.jsonl"
    path.write_text(SPAN_LINES, encoding="utf-8")
    read = nerscore.read_jsonl_annotators(path)
    parsed = agreement.parse_annotations(SPAN_LINES)
    assert parsed.layout == agreement.SPAN_LINES and parsed.annotations == read.annotations
    assert parsed.lines == [1, 2] and parsed.annotations["cal"] == [None, [[0, 5, "ORG"]]]
    expected = nerscore.agreement(read.annotations, texts=read.texts, errors=caps.MAX_ERROR_ROWS)
    assert agreement.measure(parsed) == expected
    status, pairs, _, _ = agreement.agreement_text(SPAN_LINES, "IOB2", "lenient")
    assert "2 documents of JSON lines" in status and "1 task skipped" in status, status
    assert pairs.values.tolist()[0][:3] == ["ann", "ben", writing.format_number(expected["pairs"][0]["strict_f1"])]
    # Without texts the page has no units to bound its work: the command line measures those.
    status = agreement.agreement_text(json.dumps({"annotations": {"a": [], "b": []}}), "IOB2", "lenient")[0]
    assert 'with each line\'s "text"' in status, status
    status = agreement.agreement_text(
        '{"text": "Ann", "annotations": {"a": [[0, 9, "PER"]], "b": []}}', "IOB2", "lenient"
    )[0]
    assert "Line 1" in status and "past the end of its text" in status, status


def test_scheme_and_mode_reach_the_tags():
    text = "a B-PER B-PER\nb O O\nc O I-PER\n"
    lenient = agreement.agreement_text(text, "IOB2", "lenient")[1].values.tolist()[0]
    strict = agreement.agreement_text(text, "IOB2", "strict")[1].values.tolist()[0]
    # Lenient: b's I-PER at c starts an entity of its own (one more than a's); strict drops it.
    assert lenient[2] == "0.6667" and strict[2] == "1.0"


def test_the_pairwise_figure_draws_every_scheme_with_its_f1():
    result = agreement.measure(agreement.parse_annotations(EXAMPLE))
    figure = agreement.agreement_figure(result)
    assert [axes.get_title(loc="left") for axes in figure.axes] == [
        f"{scheme} F1 (mean {result[f'{scheme}_f1_mean']:.2f})" for scheme in ("strict", "exact", "partial", "type")
    ]
    strict = sorted(text.get_text() for text in figure.axes[0].texts)
    assert strict == sorted(["—"] * 3 + ["0.60", "0.60", "0.67", "0.67", "0.44", "0.44"])
    assert agreement.pair_matrix(result, "exact")[0] == [None, 0.8, pytest.approx(2 / 3)]


@pytest.mark.slow  # (the full suite: the quick profile stays under 3 minutes)
def test_the_figure_is_capped_in_names_and_size(monkeypatch):
    names = [f"annotator.with.a.very.long.address{number}@example.org" for number in range(8)]
    text = "".join(
        f"t{token} " + " ".join(["B-PER", "O"][(token + n) % 2] for n in range(8)) + "\n" for token in range(5)
    )
    status, *_, figure = agreement.agreement_page(text)
    assert status.startswith("Measured the agreement of 8 annotators")
    result = agreement.measure(agreement.parse_annotations(text))
    result["annotators"] = names
    for pair in result["pairs"]:
        pair["a"], pair["b"] = names[int(pair["a"][-1]) - 1], names[int(pair["b"][-1]) - 1]
    figure = agreement.agreement_figure(result)
    labels = [label.get_text() for label in figure.axes[0].get_yticklabels()]
    assert len(labels) == 8 and all(len(label) <= caps.MAX_HEATMAP_LABEL_CHARACTERS + 1 for label in labels)
    # Alike up to the cut, the names are told apart by their number.
    assert labels[0].startswith("1: annotator") and labels[7].startswith("8: annotator")
    width, height = figure.get_size_inches()
    assert width <= 9 and height <= 9


def _status(text: str) -> str:
    return agreement.agreement_text(text)[0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ada B-PER\n", "Line 1: found 2 columns; expected the token, then one tag column per annotator"),
        ("Ada B-PER O\n\nBabbage O\n", "Line 3: found 2 columns; expected 3, as the first line has"),
        ("Ada B-PER B-PER\nLovelace I-PER X-1\n", "Line 2, column 3 (annotator2): found tag 'X-1' with unknown prefix"),
        (
            "-DOCSTART- O O\n\nAda B-PER B-PER\n\nThe O O\nRoyal B-ORG S-ORG\n",
            "Line 6, column 3 (annotator2): found tag 'S-ORG', whose prefix 'S' is not part of scheme IOB2",
        ),
        ("Ada B-PER B-PER\r\nLovelace I-PER X-1\r\n", "Line 2, column 3 (annotator2)"),
        ("", "The input holds no sentences"),
        ("\n  \n", "The input holds no sentences"),
        ('[\n  {"data": {"text": "abc"}, "annotations": []},\n  {"data": 3}\n]', "Line 3: task 1 has no data.text"),
        ('[\n  {"data": {"text": "abc"},\n  "annotations": [}\n]', "Line 3: not JSON"),
        (_label_studio([("abc", {"ann": [(0, 2, "X")]})]), "The input holds one annotator ('ann')"),
        (_label_studio([("abc", {"ann": [(0, 2, "X")], "ben": []})]).replace('"end": 2', '"end": 9'), "Line 2"),
        ("Ada B-PER B-PER\ud800\n", "Line 1, character 16: U+D800 is half of a UTF-16 surrogate pair"),
    ],
    ids=[
        "two-columns",
        "fewer-columns",
        "bad-prefix",
        "scheme-hint-after-docstart",
        "crlf",
        "empty",
        "blank",
        "task-without-text",
        "not-json",
        "one-annotator",
        "offsets-beyond-text",
        "surrogate",
    ],
)
def test_bad_input_is_a_message_naming_the_line(text, message):
    status = _status(text)
    assert status.startswith("⚠️ **Cannot measure agreement.**")
    assert writing.shorten(message, 200).replace("'", "'") in status.replace("\\", ""), status


def test_a_bracket_token_is_conll_not_json():
    assert agreement.parse_annotations("[ O O\nx B-PER B-PER\n").layout == agreement.CONLL
    assert _status("[\n{").startswith("⚠️ **Cannot measure agreement.** Line 2: not JSON")


def test_caps_on_annotators_sentences_and_work(monkeypatch):
    three = "a B-PER B-PER B-PER\nb O O O\n\nc B-LOC B-LOC O\n"
    monkeypatch.setattr(caps, "MAX_AGREEMENT_ANNOTATORS", 2)
    assert "holds 3 annotators; the page measures at most 2" in _status(three)
    monkeypatch.setattr(caps, "MAX_AGREEMENT_ANNOTATORS", 8)
    monkeypatch.setattr(caps, "MAX_SENTENCES", 1)
    assert "more than 1 sentences (line 4 starts sentence 2)" in _status(three)
    monkeypatch.setattr(caps, "MAX_SENTENCES", 10)
    monkeypatch.setattr(caps, "MAX_AGREEMENT_WORK", 8)
    assert "holds 3 tokens and 3 pairs of annotators, 9 tokens to score in all; the page scores at most 8" in (
        _status(three)
    )
    monkeypatch.setattr(caps, "MAX_AGREEMENT_WORK", 9)
    assert _status(three).startswith("Measured the agreement of 3 annotators")
    monkeypatch.setattr(caps, "MAX_BYTES", 10)
    assert "the page evaluates at most 10 bytes" in _status(three)


def test_the_disagreements_table_is_capped_and_most_frequent_first(monkeypatch):
    monkeypatch.setattr(caps, "MAX_ERROR_ROWS", 2)
    text = "London B-LOC B-ORG B-LOC\n\nLondon B-LOC B-ORG B-LOC\n\nParis B-LOC O B-LOC\n\nRome O O B-LOC\n"
    status, _, _, disagreements = agreement.agreement_text(text)
    rows = disagreements.values.tolist()
    assert len(rows) == 2 and [row[2] for row in rows] == ["2", "2"]
    assert rows[0][:5] == ["annotator1", "annotator2", "2", "IV", "London"]
    assert "The disagreements table shows the 2 most frequent" in status


def test_nested_spans_beyond_the_cost_caps_are_refused_naming_the_line(monkeypatch):
    nested = [(0, 4, "A"), (0, 4, "B"), (0, 4, "C")]
    export = _label_studio(
        [("abcd", {"ann": [(0, 4, "A")], "ben": [(0, 4, "A")]}), ("abcd", {"ann": nested, "ben": nested})]
    )
    assert _status(export).startswith("Measured")
    monkeypatch.setattr(caps, "MAX_DOCUMENT_PAIRS", 8)
    status = _status(export)
    second = [number for number, line in enumerate(export.splitlines(), 1) if line == "  {"][1]
    assert "9 pairs of an entity of ann and one of ben overlap" in status and f"Line {second}:" in status
    monkeypatch.setattr(caps, "MAX_DOCUMENT_PAIRS", 100)
    monkeypatch.setattr(caps, "MAX_REQUEST_PAIRS", 8)
    assert "hold 9 overlapping pairs of two annotators' entities" in _status(export)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet='ab BIO-[]{}":,\n\t0123', max_size=60))
def test_any_text_gets_a_status_never_an_error(text):
    status, *_, figure = agreement.agreement_page(text)
    assert isinstance(status, str) and status
    assert (figure is None) == status.startswith("⚠️")


# An uploaded ZIP archive (space/archives.py): what `ner-semeval agreement` reads from several paths, BRAT folders
# and doccano's export of one JSONL file per annotator among them, read by the same reader.


def _zip(path, files: dict[str, bytes | str]):
    """A ZIP archive of `files` (name -> content), as `zip -r` or doccano's export writes one."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return str(path)


def _folder_files(root) -> dict[str, bytes]:
    return {
        file.relative_to(root.parent).as_posix(): file.read_bytes()
        for file in sorted(root.rglob("*"))
        if file.is_file()
    }


def _doccano_lines(entities) -> str:
    """An annotator's file of doccano's export (its "label" layout), one JSON object a line."""
    return "".join(
        json.dumps({"id": number, "text": text, "label": [list(entity) for entity in found], "Comments": []}) + "\n"
        for number, (text, found) in enumerate(zip(FILE_TEXTS, entities))
    )


def _expected(paths) -> dict:
    """What the command line computes of the same files: nerscore.read_annotators, then nerscore.agreement."""
    read = nerscore.read_annotators([str(path) for path in paths])
    return nerscore.agreement(read.annotations, texts=read.texts, errors=caps.MAX_ERROR_ROWS)


def test_an_archive_of_brat_folders_is_measured_as_the_command_line_reads_them(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    write_brat(project / "ann", FILE_ENTITIES["ann"])
    write_brat(project / "ben", FILE_ENTITIES["ben"])
    # As a zip of the project's folder: one folder at the top, macOS's copies and BRAT's configuration beside.
    files = {**_folder_files(project / "ann"), **_folder_files(project / "ben")}
    files = {f"project/{name}": content for name, content in files.items()}
    files |= {
        "project/annotation.conf": "[entities]\nPER\n",
        "__MACOSX/project/._ann": b"\0\1",
        "project/.DS_Store": "",
    }
    archive = _zip(tmp_path / "brat.zip", files)
    assert archive_module.is_archive(archive) and not archive_module.is_archive(
        str(REPO / "examples" / "agreement.conll")
    )
    parsed = agreement.parse_archive(archive)
    assert parsed.layout == agreement.BRAT and parsed.names == ["ann", "ben"] and parsed.files == ["doc0", "doc1"]
    assert agreement.measure(parsed) == _expected([project / "ann", project / "ben"])
    status, pairs, coefficients, disagreements, figure = agreement.upload_page(archive)
    assert status.startswith("Measured the agreement of 2 annotators (ann, ben) on 2 documents of BRAT folders")
    expected = _expected([project / "ann", project / "ben"])
    assert pairs.values.tolist()[0][2] == writing.format_number(expected["pairs"][0]["strict_f1"])
    assert coefficients.values.tolist()[0][1] == writing.format_number(expected["fleiss_kappa"])
    assert len(disagreements) and figure is not None
    # Annotators' folders at the archive's top read the same.
    top = _zip(tmp_path / "top.zip", {name.removeprefix("project/"): content for name, content in files.items()})
    assert agreement.measure(agreement.parse_archive(top)) == expected


def test_doccanos_export_of_one_file_per_annotator_is_measured_as_the_command_line_reads_it(tmp_path):
    for name, entities in FILE_ENTITIES.items():
        (tmp_path / f"{name}.jsonl").write_text(_doccano_lines(entities), encoding="utf-8")
    # doccano zips each member's file under its user name (data_export's create_individual_dataset).
    archive = _zip(tmp_path / "export.zip", {f"{name}.jsonl": _doccano_lines(e) for name, e in FILE_ENTITIES.items()})
    parsed = agreement.parse_archive(archive)
    assert parsed.layout == agreement.DOCCANO and parsed.names == ["ann.jsonl", "ben.jsonl"]
    assert parsed.files == ["ann.jsonl", "ann.jsonl"] and parsed.lines == [1, 2]
    assert agreement.measure(parsed) == _expected([tmp_path / "ann.jsonl", tmp_path / "ben.jsonl"])
    status = agreement.upload_page(archive, "IOBES", "strict")[0]
    assert "on 2 documents of doccano exports (spans: scheme and mode do not apply)" in status
    # The other layouts the command line reads from paths come through an archive too: CoNLL files, one each.
    conll = _zip(tmp_path / "conll.zip", {"a.conll": "Ada B-PER\nLondon B-LOC\n", "b.conll": "Ada B-PER\nLondon O\n"})
    parsed = agreement.parse_archive(conll)
    assert parsed.layout == agreement.CONLL and parsed.names == ["a.conll", "b.conll"]
    assert agreement.measure(parsed)["pairs"][0]["strict_f1"] == 2 / 3


def _archive_status(tmp_path, files: dict[str, bytes | str]) -> str:
    return agreement.upload_page(_zip(tmp_path / "upload.zip", files))[0]


@pytest.mark.parametrize("path", [5, 10**5000, ["a.zip"]], ids=["a-number", "a-number-of-5001-digits", "a-list"])
def test_an_upload_that_is_no_path_is_a_message(path) -> None:
    # Called directly: TypeError from os.path.getsize, or str() of the long int's "Exceeds the limit" ValueError.
    status = agreement.upload_page(path)[0]
    assert status.startswith("⚠️ **Cannot measure agreement.** The upload is no file's path (found ")


def test_an_archive_of_folders_deeper_than_python_recurses_is_a_message(tmp_path):
    # 2,000 nested folders (4 KB of names) raised RecursionError out of the endpoint (pathlib's mkdir creates
    # each missing parent by recursion); a folder as deep as an annotation tool writes one is read as before.
    deep = "/".join(["d"] * 2_000)
    status = _archive_status(tmp_path, {f"{deep}/a.conll": "a O\n", f"{deep}/b.conll": "a O\n"})
    assert status.startswith("⚠️ **Cannot measure agreement.**")
    assert "lies 2,000 folders deep; the page reads files at most 32 folders deep" in status
    shallow = "/".join(["d"] * 30)
    status = _archive_status(tmp_path, {f"{shallow}/a.conll": "a O\n", f"{shallow}/b.conll": "a O\n"})
    assert status.startswith("Measured the agreement of 2 annotators (a.conll, b.conll)")


def test_an_archive_the_page_cannot_read_is_a_message_naming_its_file(tmp_path):
    lines = {name: _doccano_lines(entities) for name, entities in FILE_ENTITIES.items()}
    other = lines["ben"].replace("Paris", "Rome!")
    cases = [
        (
            {"ann.jsonl": lines["ann"], "ben.jsonl": other},
            "ben.jsonl, line 2: text 'Rome! is not Rome.' differs from ann.jsonl:2's",
        ),
        (
            {"ann.jsonl": lines["ann"], "ben.jsonl": lines["ben"].replace("[0, 5,", "[0, 50,")},
            "ben.jsonl, line 2: entity 0 has offsets 0 to 50",
        ),
        (
            {"a/doc.ann": "T1\tPER 0 3\tAnn\n", "a/doc.txt": "Ann", "b/doc.ann": "", "b/doc.txt": "Bob"},
            "b/doc.txt, line 1: differs from a/doc.txt at character 0",
        ),
        (
            {"a/doc.ann": "", "a/doc.txt": "Ann", "b/other.ann": "", "b/other.txt": "Ann"},
            "a/doc.ann: has no counterpart b/doc.ann",
        ),
        (
            {"brat/doc.ann": "", "brat/doc.txt": "Ann"},
            "The archive holds BRAT files in one folder (brat); the page reads one folder per annotator",
        ),
        ({"a/doc.ann": "", "notes.txt": "x"}, "The archive holds folders (a) beside files (notes.txt)"),
        ({"../evil.jsonl": "{}"}, "The archive's file '../evil.jsonl' would be unpacked outside its folder"),
        ({"/etc/evil.jsonl": "{}"}, "The archive's file '/etc/evil.jsonl' would be unpacked outside its folder"),
        ({"__MACOSX/._a": "x"}, "The archive holds no files to read"),
        ({".": "x", "./": "y"}, "The archive holds no files to read"),
        (
            {"a": "x", "a/b.jsonl": "y"},
            "not an archive the page can unpack (\\[Errno 17\\] File exists: 'a')",
        ),
        ({"ann.jsonl": lines["ann"]}, "The input holds one annotator ('ann.jsonl'); agreement needs two or more"),
        # One file under two names: the later overwrote the earlier when unpacked, which was then read as neither.
        ({"ann.jsonl": lines["ann"], "./ann.jsonl": lines["ben"]}, "The archive holds ann.jsonl twice"),
        ({"a/doc.ann": "", "a\\doc.ann": "", "a/doc.txt": "A"}, "The archive holds a/doc.ann twice"),
    ]
    for files, message in cases:
        status = _archive_status(tmp_path, files)
        assert status.startswith("⚠️ **Cannot measure agreement.**") and message in status, (message, status)
        assert str(tmp_path) not in status and "ner-semeval-archive-" not in status
    broken = tmp_path / "broken.zip"
    _zip(broken, {"ann.jsonl": lines["ann"] * 20, "ben.jsonl": lines["ben"]})
    content = bytearray(broken.read_bytes())
    content[60:70] = b"0123456789"  # inside the first file's compressed data: its CRC no longer matches
    broken.write_bytes(bytes(content))
    assert "broken.zip is not an archive the page can unpack" in agreement.upload_page(str(broken))[0]


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(
        st.text(alphabet="ab./\\:_M", min_size=1, max_size=8),
        st.sampled_from(["", "x", '{"text": "ab", "label": [[0, 1, "A"]]}\n', "T1\tA 0 1\ta\n", "a B-A\n"]),
        max_size=5,
    )
)
def test_any_archive_gets_a_status_never_an_error(files):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as directory:
        try:
            archive = _zip(Path(directory) / "any.zip", files)
        except (ValueError, IndexError):  # a name zipfile itself will not write
            return
        status, *_, figure = agreement.upload_page(archive)
    assert isinstance(status, str) and status and (figure is None) == status.startswith("⚠️")
    assert directory not in status


def test_an_archive_is_capped_in_files_and_bytes_counted_as_unpacked(tmp_path, monkeypatch):
    lines = {f"{name}.jsonl": _doccano_lines(entities) for name, entities in FILE_ENTITIES.items()}
    assert _archive_status(tmp_path, lines).startswith("Measured the agreement of 2 annotators")
    monkeypatch.setattr(caps, "MAX_ARCHIVE_FILES", 1)
    assert "upload.zip holds 2 files; the page reads at most 1." in _archive_status(tmp_path, lines)
    monkeypatch.setattr(caps, "MAX_ARCHIVE_FILES", 2_000)
    # A file that compresses a thousandfold is counted by what it unpacks to, whatever the archive says.
    bomb = {"ann.jsonl": lines["ann.jsonl"] + " " * 2 * caps.MAX_BYTES, "ben.jsonl": lines["ben.jsonl"]}
    archive = _zip(tmp_path / "bomb.zip", bomb)
    assert (tmp_path / "bomb.zip").stat().st_size < caps.MAX_BYTES // 100
    status = agreement.upload_page(archive)[0]
    assert f"bomb.zip unpacks to more than {caps.MAX_BYTES:,} bytes (at ann.jsonl)" in status
    monkeypatch.setattr(caps, "MAX_BYTES", 100)
    assert "upload.zip holds" in _archive_status(tmp_path, lines) and "at most 100 bytes" in _archive_status(
        tmp_path, lines
    )
    monkeypatch.setattr(caps, "MAX_BYTES", 1_000_000)
    # The caps of every input hold: annotators, documents, work, and the pairing of nested spans, naming the document.
    monkeypatch.setattr(caps, "MAX_AGREEMENT_WORK", 10)
    assert "to score in all; the page scores at most 10" in _archive_status(tmp_path, lines)
    monkeypatch.setattr(caps, "MAX_AGREEMENT_WORK", 1_000_000)
    monkeypatch.setattr(caps, "MAX_SENTENCES", 1)
    assert "more than 1 documents (ann.jsonl, line 2 starts document 2)" in _archive_status(tmp_path, lines)
    monkeypatch.setattr(caps, "MAX_SENTENCES", 10_000)
    nested = "T1\tPER 0 3\tAnn\nT2\tLOC 0 3\tAnn\nT3\tORG 0 3\tAnn\n"
    brat = {f"{who}/doc.{end}": content for who in "ab" for end, content in (("ann", nested), ("txt", "Ann"))}
    assert _archive_status(tmp_path, brat).startswith("Measured")
    monkeypatch.setattr(caps, "MAX_DOCUMENT_PAIRS", 8)
    assert "Document doc: the task's entities nest, overlap or repeat, and 9 pairs" in _archive_status(tmp_path, brat)


# The page: app.py's task control, events and endpoint


@pytest.fixture(scope="module")
def app():
    import app as page

    return page


def test_the_task_shows_its_outputs_and_only_its_event_fills_them(app):
    from space import page_events

    summary, comparison, one_system, two_systems, text, button = page_events.show_task(texts.AGREEMENT)
    assert not any(update["visible"] for update in (summary, comparison, one_system, two_systems))
    assert text["label"] == texts.AGREEMENT_LABEL and button["value"] == "Measure agreement"
    assert app.agreement_shown(texts.AGREEMENT)["visible"] and not app.agreement_shown(texts.ONE_SYSTEM)["visible"]
    skip = app.gr.skip()
    assert page_events.run_page(EXAMPLE, "IOB2", "lenient", texts.AGREEMENT) == (texts.AGREEMENT_STATUS, *(skip,) * 11)
    assert app.agreement_run(EXAMPLE, "IOB2", "lenient", texts.ONE_SYSTEM) == (skip,) * 5
    status, *_, figure = app.agreement_run(EXAMPLE, "IOB2", "lenient", texts.AGREEMENT)
    assert status == agreement.agreement_text(EXAMPLE)[0] and figure is not None


def test_switching_to_the_task_loads_its_example(app):
    from space import page_events

    assert page_events.switch_task(texts.WORKED_EXAMPLE, texts.AGREEMENT) == (EXAMPLE, "IOB2", "lenient")
    assert page_events.switch_task(EXAMPLE, texts.TWO_SYSTEMS) == (texts.COMPARE_EXAMPLE, "IOB2", "lenient")
    skip = app.gr.skip()
    assert page_events.switch_task("a B-PER B-PER\n", texts.AGREEMENT) == (skip, skip, skip)
    assert app.agreement_example_inputs() == (EXAMPLE, "IOB2", "lenient")


def test_an_uploaded_file_is_measured(app, tmp_path):
    from space import page_events

    path = tmp_path / "annotators.conll"
    path.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.encode("utf-8"))
    assert app.agreement_upload(str(path), "IOB2", "lenient", texts.AGREEMENT)[0] == _status(EXAMPLE)
    path.write_bytes(b"\xff\xfe")
    assert "is not UTF-8 text" in app.agreement_upload(str(path), "IOB2", "lenient", texts.AGREEMENT)[0]
    # A ZIP archive (doccano's export) is the task's own event's: the editor and the page's status stay the task's,
    # where they said the archive was not UTF-8 text; another task still says so.
    files = {f"{name}.jsonl": _doccano_lines(entities) for name, entities in FILE_ENTITIES.items()}
    archive = _zip(tmp_path / "export.zip", files)
    status, *_, figure = app.agreement_upload(archive, "IOB2", "lenient", texts.AGREEMENT)
    assert status == agreement.upload_page(archive)[0] and "of doccano exports" in status and figure is not None
    skip = app.gr.skip()
    assert page_events.upload_page(archive, "IOB2", "lenient", texts.AGREEMENT) == (
        skip,
        texts.AGREEMENT_STATUS,
        *(skip,) * 11,
    )
    assert list(page_events.upload_steps(archive, "IOB2", "lenient", texts.AGREEMENT)) == [
        (skip, texts.AGREEMENT_STATUS, *(skip,) * 11)
    ]
    assert "is not UTF-8 text" in page_events.upload_page(archive, "IOB2", "lenient", texts.ONE_SYSTEM)[1]


def test_the_agreement_endpoint_answers_in_its_lane(app, monkeypatch):
    from space import lanes

    demo = app.build_demo(lanes.Lanes())
    endpoint = {fn.api_name: fn.fn for fn in demo.fns.values() if fn.api_name}["agreement"]
    assert inspect.signature(endpoint) == inspect.signature(agreement.agreement_text)
    answer = endpoint(EXAMPLE, "IOB2", "lenient")
    assert len(answer) == 4 and answer[0] == _status(EXAMPLE)
    assert answer[1].equals(agreement.agreement_text(EXAMPLE)[1])
    monkeypatch.setattr(caps, "SMALL_LANE_WORKERS", 0)
    monkeypatch.setattr(caps, "LANE_WAITING", 0)
    busy = endpoint(EXAMPLE, "IOB2", "lenient")
    assert len(busy) == 4 and busy[0].startswith("⚠️ **Cannot measure agreement.** The page is busy")


def test_the_docs_state_the_tasks_caps_and_numbers():
    space = " ".join((REPO / "docs" / "space.md").read_text(encoding="utf-8").split())
    for claim in [
        f"the page takes at most {caps.MAX_AGREEMENT_ANNOTATORS} annotators and at most "
        f"{caps.MAX_AGREEMENT_WORK:,} units times pairs",
        f"names cut to {caps.MAX_HEATMAP_LABEL_CHARACTERS} characters",
        f"the {caps.MAX_ERROR_ROWS} most frequent disagreements of all pairs",
        "`Line 2, column 3 (annotator2): found tag 'X-1' ...`",
        "The `/agreement` endpoint takes text, scheme and mode",
        f"in at most {caps.MAX_ARCHIVE_FILES:,} files (`caps.MAX_ARCHIVE_FILES`",
        "`ben.jsonl, line 2: ...`, `b/doc.txt, line 1: differs from a/doc.txt ...`",
    ]:
        assert claim in space, claim
    assert "Line 2, column 3 (annotator2): found tag 'X-1'" in _status("Ada B-PER B-PER\nLovelace I-PER X-1\n")
    # docs/agreement.md: the page's numbers are those the command line prints for examples/agreement.conll.
    docs = " ".join((REPO / "docs" / "agreement.md").read_text(encoding="utf-8").split())
    assert f"The page takes at most {caps.MAX_AGREEMENT_ANNOTATORS} annotators" in docs
    assert "Fleiss' kappa: 0.7434 labelled units only: 0.6309" in docs
    assert agreement.agreement_text(EXAMPLE)[2].values.tolist()[0][1:] == ["0.7434", "0.6309"]


def test_a_task_an_annotator_skipped_is_left_out_of_its_pairs():
    export = _label_studio(
        [
            ("Ada met Babbage", {"ann": [(0, 3, "PER")], "ben": [(0, 3, "PER")], "cal": [(0, 3, "PER")]}),
            ("in London", {"ann": [(3, 9, "LOC")], "ben": [(3, 9, "ORG")]}),
        ]
    )
    parsed = agreement.parse_annotations(export)
    assert parsed.annotations["cal"][1] is None
    status, pairs, _, _ = agreement.agreement_text(export)
    assert "3 annotators (ann, ben, cal) on 2 tasks" in status
    assert "1 task skipped by an annotator: left out of that annotator's pairs and of Fleiss' κ" in status
    # ann and cal agree on the one task both annotated; ann and ben differ on London's type.
    rows = {(row[0], row[1]): row[2:6] for row in pairs.values.tolist()}
    assert rows["ann", "cal"] == ["1.0"] * 4 and rows["ann", "ben"] == ["0.5", "1.0", "1.0", "0.5"]


def _many_annotators_export(annotators: int, layout: str) -> str:
    """A task (or line) a new annotator: the batches are annotators x tasks."""
    if layout == "label-studio":
        tasks = [{"data": {"text": "x"}, "annotations": [{"completed_by": n, "result": []}]} for n in range(annotators)]
        return json.dumps(tasks)
    return "\n".join(json.dumps({"text": "x", "annotations": {f"a{n}": []}}) for n in range(annotators))


@pytest.mark.parametrize(("layout", "line"), [("label-studio", 1), ("jsonl", caps.MAX_AGREEMENT_ANNOTATORS + 1)])
def test_annotators_past_the_cap_are_refused_as_they_are_read(layout, line):
    # (Red team 2: the readers made every annotator's batch, annotators x tasks, before the page's cap was
    # checked: 4,000 tasks of an annotator each took 134 MB, x4 a doubling; a 1 MB export about 1.3 GB.)
    tracemalloc.start()
    try:
        status = agreement.agreement_text(_many_annotators_export(3_000, layout), "IOB2", "lenient")[0]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    most = caps.MAX_AGREEMENT_ANNOTATORS
    assert f"Line {line}: found annotator " in status and f"after {most} others; expected at most {most}" in status
    assert peak < 20_000_000


@pytest.mark.parametrize(
    "reader", [nerscore.read_label_studio_annotators, nerscore.read_jsonl_annotators], ids=["label-studio", "jsonl"]
)
def test_the_readers_read_every_annotator_without_a_cap(tmp_path, reader):
    layout = "label-studio" if reader is nerscore.read_label_studio_annotators else "jsonl"
    path = tmp_path / "export"
    path.write_text(_many_annotators_export(12, layout), encoding="utf-8")
    assert len(reader(path).annotations) == 12
    assert len(reader(path, max_annotators=12).annotations) == 12
    with pytest.raises(nerscore.ConllError, match="after 11 others; expected at most 11"):
        reader(path, max_annotators=11)


@pytest.mark.parametrize(("layout", "name"), [("label-studio", "export.json"), ("jsonl", "spans.jsonl")])
def test_an_archive_of_annotators_past_the_cap_is_refused_as_it_is_read(tmp_path, layout, name):
    # (Red team 2: an archive holding the export was read whole by read_annotators, annotators x tasks, first.)
    archive = _zip(tmp_path / "annotators.zip", {name: _many_annotators_export(3_000, layout)})
    tracemalloc.start()
    try:
        status = agreement.upload_page(archive)[0]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f"after {caps.MAX_AGREEMENT_ANNOTATORS} others; expected at most" in status, status
    assert peak < 20_000_000
