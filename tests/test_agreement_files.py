"""nerscore.files.agreement_files: the annotators' files made as the tools write them (a Label Studio export with
several annotations per task, BRAT folders, doccano JSONL, CoNLL with one column per annotator) read into the
batches `agreement` takes, the errors that name the file, and ``ner-semeval agreement``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nerscore
from nerscore import (
    agreement,
    read_brat_annotators,
    read_conll_annotators,
    read_doccano_annotators,
    read_jsonl_annotators,
    read_label_studio_annotators,
)
from nerscore.files.agreement_files import file_format, format_agreement
from nerscore.files.readers import ConllError

TEXTS = ["Ann met Bob in Rome.", "Paris is not Rome."]
# (start, end, type) per document, per annotator
ENTITIES = {
    "ann": [[(0, 3, "PER"), (8, 11, "PER"), (15, 19, "LOC")], [(0, 5, "LOC"), (13, 17, "LOC")]],
    "ben": [[(0, 3, "PER"), (8, 11, "ORG")], [(0, 5, "LOC"), (13, 17, "LOC"), (0, 17, "MISC")]],
}


def label_studio_task(number, text, annotations):
    """A task as Label Studio's JSON export writes it (one annotation per annotator, by completed_by)."""
    return {
        "id": number,
        "data": {"text": text},
        "annotations": [
            {
                "id": 100 * number + index,
                "completed_by": user,
                "result": [
                    {
                        "value": {"start": start, "end": end, "text": text[start:end], "labels": [kind]},
                        "id": f"r{index}{position}",
                        "from_name": "label",
                        "to_name": "text",
                        "type": "labels",
                        "origin": "manual",
                    }
                    for position, (start, end, kind) in enumerate(entities)
                ],
                "was_cancelled": False,
                "ground_truth": False,
                "lead_time": 4.2,
            }
            for index, (user, entities) in enumerate(annotations)
        ],
        "predictions": [],
    }


def test_a_label_studio_export_with_several_annotators(tmp_path):
    tasks = [
        label_studio_task(number, text, [(1, ENTITIES["ann"][number]), (2, ENTITIES["ben"][number])])
        for number, text in enumerate(TEXTS)
    ]
    tasks[1]["annotations"].append({**tasks[1]["annotations"][0], "completed_by": 3, "was_cancelled": True})
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks, indent=2), encoding="utf-8")
    read = read_label_studio_annotators(path)
    assert list(read.annotations) == ["1", "2"]
    assert read.texts == TEXTS
    assert agreement(read.annotations, texts=read.texts) == agreement(
        {"1": ENTITIES["ann"], "2": ENTITIES["ben"]}, texts=TEXTS
    )
    assert file_format([str(path)]) == "label-studio"


def test_a_label_studio_task_one_annotator_skipped_is_none_for_it(tmp_path):
    tasks = [
        label_studio_task(0, TEXTS[0], [({"id": 7, "email": "a@x.org"}, ENTITIES["ann"][0]), (8, ENTITIES["ben"][0])]),
        label_studio_task(1, TEXTS[1], [(8, ENTITIES["ben"][1])]),
    ]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    read = read_label_studio_annotators(path)
    assert read.annotations == {"a@x.org": [ENTITIES["ann"][0], None], "8": ENTITIES["ben"]}


def test_a_label_studio_task_with_two_annotations_by_one_annotator_is_an_error(tmp_path):
    tasks = [label_studio_task(0, TEXTS[0], [(1, ENTITIES["ann"][0]), (1, ENTITIES["ben"][0])])]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks, indent=1), encoding="utf-8")
    with pytest.raises(ConllError, match=r"export\.json:2: task 0 \(id 0\) has two annotations by '1'"):
        read_label_studio_annotators(path)


def test_a_label_studio_offset_of_thousands_of_digits_names_the_file_and_line(tmp_path):
    # As read_label_studio's twin reader says it: Python's bare "Exceeds the limit (4300 digits)" named no file.
    path = tmp_path / "export.json"
    path.write_text('[\n{"id": 0, "data": {"text": "ab"}, "start": ' + "1" * 5000 + "}\n]", encoding="utf-8")
    with pytest.raises(ConllError, match=r"export\.json:2: found an integer of more than 4,300 digits"):
        read_label_studio_annotators(path)


# Malformed exports, each refused at its file and line with what was expected: (reader, file name, content, message)
MALFORMED_EXPORTS = [
    pytest.param(
        read_label_studio_annotators,
        "export.json",
        '[{"id": 0, "data": {}, "annotations": []}]',
        r"export\.json:1: task 0 \(id 0\) has no data\.text; expected the text",
        id="label-studio-no-text",
    ),
    pytest.param(
        read_label_studio_annotators,
        "export.json",
        '[{"id": 0, "data": {"text": "ab"}, "annotations": {}}]',
        r"export\.json:1: task 0 \(id 0\): annotations is not a list; expected Label Studio",
        id="label-studio-annotations-not-a-list",
    ),
    pytest.param(
        read_label_studio_annotators,
        "export.json",
        '[{"id": 0, "data": {"text": "ab"}, "annotations": [{"id": 1, "result": []}]}]',
        r"export\.json:1: task 0 \(id 0\), annotations\[0\] has no completed_by; expected the annotator's id",
        id="label-studio-no-completed-by",
    ),
    pytest.param(
        lambda path: read_doccano_annotators([path]),
        "ann.jsonl",
        '{"label": []}\n',
        r'ann\.jsonl:1: found no "text"; expected doccano',
        id="doccano-no-text",
    ),
    pytest.param(
        lambda path: read_doccano_annotators([path]),
        "ann.jsonl",
        '{"text": "ab", "entities": 3}\n',
        r'ann\.jsonl:1: "entities" is 3; expected doccano',
        id="doccano-entities-not-a-list",
    ),
    pytest.param(
        lambda path: read_doccano_annotators([path]),
        "ann.jsonl",
        '{"text": "ab", "label": [[0, 1, 5]]}\n',
        r"ann\.jsonl:1: entity 0 has the label 5; expected a type",
        id="doccano-label-not-a-string",
    ),
    pytest.param(
        lambda path: read_doccano_annotators([path]),
        "ann.jsonl",
        "[1, 2]\n",
        r"ann\.jsonl:1: found a JSON list; expected doccano",
        id="doccano-record-not-an-object",
    ),
]


@pytest.mark.parametrize(("reader", "name", "content", "message"), MALFORMED_EXPORTS)
def test_a_malformed_export_is_refused_at_its_file_and_line(tmp_path, reader, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConllError, match=message):
        reader(path)


def write_brat(folder, names_entities, texts=TEXTS):
    folder.mkdir()
    for number, (text, entities) in enumerate(zip(texts, names_entities)):
        (folder / f"doc{number}.txt").write_text(text, encoding="utf-8")
        lines = [
            f"T{index + 1}\t{kind} {start} {end}\t{text[start:end]}"
            for index, (start, end, kind) in enumerate(entities)
        ]
        (folder / f"doc{number}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_brat_folders_one_per_annotator(tmp_path):
    write_brat(tmp_path / "ann", ENTITIES["ann"])
    write_brat(tmp_path / "ben", ENTITIES["ben"])
    (tmp_path / "ben" / "doc1.txt").unlink()  # an annotator's copy of the text may be left out
    read = read_brat_annotators([tmp_path / "ann", tmp_path / "ben"])
    assert read.annotations == ENTITIES and read.texts == TEXTS
    assert file_format([str(tmp_path / "ann"), str(tmp_path / "ben")]) == "brat"
    # nerscore.read_annotators reads the paths as the command does, the layout told by them (or given).
    assert nerscore.read_annotators([tmp_path / "ann", tmp_path / "ben"]) == read
    assert nerscore.read_annotators([str(tmp_path / "ann"), str(tmp_path / "ben")], "brat") == read
    assert nerscore.file_format is file_format


def test_brat_folders_whose_texts_differ_name_the_file(tmp_path):
    write_brat(tmp_path / "ann", ENTITIES["ann"])
    write_brat(tmp_path / "ben", ENTITIES["ben"], [TEXTS[0], "Paris is not Roma."])
    with pytest.raises(ConllError, match=r"ben/doc1\.txt:1: differs from .*ann/doc1\.txt at character 16"):
        read_brat_annotators([tmp_path / "ann", tmp_path / "ben"])
    # A text that is the other's start differs where it ends.
    write_brat(tmp_path / "cal", ENTITIES["ben"], [TEXTS[0], "Paris is not Rome"])
    with pytest.raises(ConllError, match=r"cal/doc1\.txt:1: differs from .*ann/doc1\.txt at character 17 \(''"):
        read_brat_annotators([tmp_path / "ann", tmp_path / "cal"])


def test_brat_folders_of_other_documents_name_the_file(tmp_path):
    write_brat(tmp_path / "ann", ENTITIES["ann"])
    write_brat(tmp_path / "ben", ENTITIES["ben"][:1], TEXTS[:1])
    with pytest.raises(ConllError, match=r"ann/doc1\.ann: has no counterpart .*ben/doc1\.ann"):
        read_brat_annotators([tmp_path / "ann", tmp_path / "ben"])


def test_doccano_jsonl_in_both_of_its_layouts(tmp_path):
    ann = tmp_path / "ann.jsonl"
    ann.write_text(
        "".join(
            json.dumps({"id": number, "text": text, "label": [list(entity) for entity in entities], "Comments": []})
            + "\n"
            for number, (text, entities) in enumerate(zip(TEXTS, ENTITIES["ann"]))
        ),
        encoding="utf-8",
    )
    ben = tmp_path / "ben.jsonl"
    ben.write_text(
        "".join(
            json.dumps(
                {
                    "id": number,
                    "text": text,
                    "entities": [
                        {"id": index, "label": kind, "start_offset": start, "end_offset": end}
                        for index, (start, end, kind) in enumerate(entities)
                    ],
                    "relations": [],
                }
            )
            + "\n"
            for number, (text, entities) in enumerate(zip(TEXTS, ENTITIES["ben"]))
        ),
        encoding="utf-8",
    )
    read = read_doccano_annotators([ann, ben])
    assert read.annotations == {"ann.jsonl": ENTITIES["ann"], "ben.jsonl": ENTITIES["ben"]}
    assert read.texts == TEXTS
    assert file_format([str(ann), str(ben)]) == "doccano"
    assert nerscore.read_annotators([ann, ben]) == read
    other = tmp_path / "cal.jsonl"
    other.write_text(json.dumps({"text": TEXTS[0], "label": []}) + "\n" + json.dumps({"text": "x", "label": []}) + "\n")
    with pytest.raises(ConllError, match=r"cal\.jsonl:2: text 'x' differs from .*ann\.jsonl:2"):
        read_doccano_annotators([ann, other])
    # doccano's lines are read as --spans' are: an integer Python does not read is located, never its bare error.
    huge = tmp_path / "huge.jsonl"
    huge.write_text('{"text": "a", "label": [[0, 1' + "9" * 5000 + ', "X"]]}\n')
    with pytest.raises(ConllError, match=r"huge\.jsonl:1: found an integer of more than 4,300 digits"):
        read_doccano_annotators([huge])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"text": TEXTS[0], "label": [[3, 99, "PER"]]}) + "\n")
    with pytest.raises(ConllError, match=r"bad\.jsonl:1: entity 0 has offsets 3 to 99"):
        read_doccano_annotators([bad])
    # Entities under two keys: the "label" ones were dropped unread (redteam4); category names are no entities.
    both = tmp_path / "both.jsonl"
    for record, where in [
        ({"label": [[0, 3, "PER"]], "entities": []}, '"entities" and "label"'),
        ({"label": [[0, 3, "PER"]], "labels": [[4, 6, "PER"]]}, '"label" and "labels"'),
    ]:
        both.write_text(json.dumps({"text": TEXTS[0], **record}) + "\n")
        with pytest.raises(
            ConllError, match=f"both.jsonl:1: found entities under both {where}; expected them under one"
        ):
            read_doccano_annotators([both])
    both.write_text(json.dumps({"text": TEXTS[0], "label": ["positive"], "entities": [], "cats": []}) + "\n")
    assert read_doccano_annotators([both]).annotations == {"both.jsonl": [[]]}
    # A "label" that lists no [start, end, type] entities (category names, a list of two) read alone is refused.
    for listed in (["positive"], ["ORG"], [[0, 3]], [[0, 3, "PER"], (4, 6)], {"0": [0, 3, "PER"]}):
        both.write_text(json.dumps({"text": TEXTS[0], "label": listed}) + "\n")
        with pytest.raises(ConllError, match=r'both\.jsonl:1: "label" is .*; expected doccano'):
            read_doccano_annotators([both])


def span_lines(annotations_of, texts=TEXTS) -> str:
    """JSON lines of spans with every annotator on each line (`read_jsonl_annotators`' layout)."""
    return "".join(
        json.dumps({"text": text, "annotations": annotations_of(index)}) + "\n" for index, text in enumerate(texts)
    )


def test_json_lines_with_every_annotator_on_each_line(tmp_path):
    path = tmp_path / "all.jsonl"
    path.write_text(
        span_lines(lambda index: {name: [list(entity) for entity in ENTITIES[name][index]] for name in ENTITIES}),
        encoding="utf-8",
    )
    read = read_jsonl_annotators(path)
    assert read.annotations == {name: [[list(e) for e in doc] for doc in docs] for name, docs in ENTITIES.items()}
    assert read.texts == TEXTS and read.tokens is None
    assert read.documents == [f"{path}:1", f"{path}:2"]
    assert file_format([str(path)]) == "jsonl"
    assert agreement(read.annotations, texts=read.texts) == agreement(ENTITIES, texts=TEXTS)
    # An annotator a line leaves out (or gives null) did not annotate that document.
    path.write_text(span_lines(lambda index: {"ann": [], "ben": []} if index == 0 else {"ann": None}))
    assert read_jsonl_annotators(path).annotations == {"ann": [[], None], "ben": [[], None]}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param('{"text": "a"}\n', r"all\.jsonl:1: found no annotations object", id="no-annotations"),
        pytest.param(
            '{"annotations": {"a": []}}\n{"text": "x", "annotations": {}}\n', r":2: a text on some", id="text"
        ),
        pytest.param('{"annotations": {"a": {}}}\n', r":1: 'a'\'s entities are a JSON dict", id="entities"),
        pytest.param('{"annotations": {"a": [}\n', r":1: not JSON", id="not-json"),
        pytest.param('{"text": 3, "annotations": {}}\n', r":1: text is a JSON int", id="text-type"),
        pytest.param(
            '{"annotations": {"a": [[0, 1' + "9" * 5000 + ', "X"]]}}\n',
            r":1: found an integer of more than 4,300 digits, which Python does not read",
            id="digits",
        ),
    ],
)
def test_json_lines_of_annotators_that_cannot_be_read_name_the_line(tmp_path, content, message):
    path = tmp_path / "all.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConllError, match=message):
        read_jsonl_annotators(path)


def test_the_command_reads_json_lines_of_every_annotator(tmp_path, capsys):
    path = tmp_path / "all.jsonl"
    path.write_text(
        span_lines(lambda index: {name: [list(entity) for entity in ENTITIES[name][index]] for name in ENTITIES}),
        encoding="utf-8",
    )
    assert nerscore.main(["agreement", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == agreement(ENTITIES, texts=TEXTS)
    # An entity that is wrong: its sentence named, and after it where that sentence is in the file.
    path.write_text(
        json.dumps({"text": "Paris", "annotations": {"a": [[0, 5, "LOC"]], "b": []}})
        + "\n"
        + json.dumps({"text": "Rome", "annotations": {"a": [], "b": [[0, 9, "LOC"]]}})
        + "\n",
        encoding="utf-8",
    )
    assert nerscore.main(["agreement", str(path)]) == 2
    assert capsys.readouterr().err == (
        "error: annotations['b'], sentence 1, entity 0: found the span [0, 9) past the end of its text (4 "
        f"characters); expected character offsets into texts= ({path}:2)\n"
    )


CONLL = """Ann B-PER B-PER B-PER
met O O O
Bob B-PER B-ORG O

Paris B-LOC B-LOC B-LOC
"""


# Annotators' files, one per annotator, that do not hold the first file's sentences (or texts): the first that
# differs, or the counts, named as each reader names them.
ANNOTATORS_APART = [
    pytest.param(
        read_conll_annotators,
        ("Ann B-PER\nmet O\n\nParis B-LOC\n", "Ann B-PER\nmet O\n\nRome B-LOC\n"),
        "b:4: sentence 1 differs from a:4 (['Rome'] against ['Paris']); expected every annotator's file to hold the "
        "same tokens",
        id="conll-a-token",
    ),
    pytest.param(
        read_conll_annotators,
        ("Ann B-PER\nmet O\nBob O\n", "Ann B-PER\nmet O\n"),
        "b:2: sentence 0 differs from a:3 ([] against ['Bob']); expected every annotator's file to hold the same "
        "tokens",
        id="conll-a-token-fewer",
    ),
    pytest.param(
        read_conll_annotators,
        ("Ann B-PER\nmet O\n\nParis B-LOC\n", "Ann B-PER\nmet O\n"),
        "b: holds 1 sentences and a 2; expected every annotator's file to hold the same sentences",
        id="conll-a-sentence-fewer",
    ),
    pytest.param(
        read_conll_annotators,
        ("Ann B-PER\n", "Ann B-PER\n\nRome O\n"),
        "b: holds 2 sentences and a 1; expected every annotator's file to hold the same sentences",
        id="conll-a-sentence-more",
    ),
    pytest.param(
        read_doccano_annotators,
        ('{"text": "Ann met", "label": []}\n{"text": "Paris", "label": []}\n', '{"text": "Ann met", "label": []}\n'),
        "b: holds 1 texts and a 2; expected every annotator's file to hold the same texts",
        id="doccano-a-text-fewer",
    ),
    pytest.param(
        read_doccano_annotators,
        ('{"text": "Ann met", "label": []}\n', '{"text": "Ann", "label": []}\n{"text": "Paris", "label": []}\n'),
        "b:1: text 'Ann' differs from a:1's 'Ann met'; expected every annotator's file to hold the same texts in the "
        "same order",
        id="doccano-a-text",
    ),
]


@pytest.mark.parametrize(("reader", "contents", "message"), ANNOTATORS_APART)
def test_annotators_files_apart_are_named_where_they_part(tmp_path, monkeypatch, reader, contents, message):
    monkeypatch.chdir(tmp_path)
    for name, content in zip("ab", contents):
        Path(name).write_text(content, encoding="utf-8")
    with pytest.raises(ConllError) as raised:
        reader(["a", "b"])
    assert str(raised.value) == message


def test_conll_with_one_column_per_annotator_and_one_file_per_annotator(tmp_path):
    path = tmp_path / "three.conll"
    path.write_text(CONLL, encoding="utf-8")
    read = read_conll_annotators([path])
    expected = {
        "annotator1": [["B-PER", "O", "B-PER"], ["B-LOC"]],
        "annotator2": [["B-PER", "O", "B-ORG"], ["B-LOC"]],
        "annotator3": [["B-PER", "O", "O"], ["B-LOC"]],
    }
    assert read.annotations == expected
    assert read.tokens == [["Ann", "met", "Bob"], ["Paris"]]
    files = []
    rows = [line.split() for line in CONLL.split("\n")]
    for column in (1, 2):  # one file per annotator: the token and that annotator's tag
        single = tmp_path / f"a{column}.conll"
        single.write_text("\n".join(f"{row[0]} {row[column]}" if row else "" for row in rows), encoding="utf-8")
        files.append(single)
    by_files = read_conll_annotators(files)
    assert list(by_files.annotations.values()) == [expected["annotator1"], expected["annotator2"]]
    # Names given with one file per annotator name them in the files' order (they were ignored, the files' names
    # kept), as many as the files.
    named = read_conll_annotators(files, names=["ann", "ben"])
    assert named.annotations == {"ann": expected["annotator1"], "ben": expected["annotator2"]}
    with pytest.raises(ValueError, match=r"^found 3 names for 2 annotators' files$"):
        read_conll_annotators(files, names=["ann", "ben", "cal"])
    with pytest.raises(ValueError, match=r"^names holds 'ann' twice; expected one distinct name per annotator$"):
        read_conll_annotators(files, names=["ann", "ann"])
    path.write_text(CONLL.replace("met O O O", "met O O"), encoding="utf-8")
    with pytest.raises(ConllError, match=r"three\.conll:2: found 3 columns; expected 4"):
        read_conll_annotators([path])
    path.write_text("Ada\n", encoding="utf-8")  # one column, in the singular
    with pytest.raises(ConllError, match=r"three\.conll:1: found 1 column; expected the token, then one tag"):
        read_conll_annotators([path])


def test_the_command_prints_the_table_and_the_dict(tmp_path, capsys):
    write_brat(tmp_path / "ann", ENTITIES["ann"])
    write_brat(tmp_path / "ben", ENTITIES["ben"])
    folders = [str(tmp_path / "ann"), str(tmp_path / "ben")]
    assert nerscore.main(["agreement", *folders]) == 0
    printed = capsys.readouterr().out
    result = agreement(ENTITIES, texts=TEXTS)
    assert printed == format_agreement(result)
    assert printed.splitlines()[1].startswith("ann - ben")
    assert "Fleiss' kappa:" in printed and "Krippendorff's alpha:" in printed
    assert nerscore.main(["agreement", *folders, "--json", "--per-type"]) == 0
    assert json.loads(capsys.readouterr().out) == agreement(ENTITIES, texts=TEXTS, per_type=True)
    assert nerscore.main(["agreement", *folders, "--bootstrap", "200"]) == 0
    printed = capsys.readouterr().out
    result = agreement(ENTITIES, texts=TEXTS, bootstrap=200)
    assert printed == format_agreement(result)
    low, high = result["strict_f1_mean_low"], result["strict_f1_mean_high"]
    assert f"strict_f1_mean:       {result['strict_f1_mean']:.4f} [{low:.4f}, {high:.4f}]" in printed
    low, high = result["fleiss_kappa_low"], result["fleiss_kappa_high"]
    assert (
        f"Fleiss' kappa:        {result['fleiss_kappa']:.4f} [{low:.4f}, {high:.4f}]   labelled units only: " in printed
    )


@pytest.mark.parametrize(
    ("names", "message"),
    [
        # (Red team 2: 'ann,ann,ben' said "3 distinct names for 3 annotators"; 'ann,,ben' named an annotator ''.)
        pytest.param(
            "ann,ann,ben", "error: --names holds 'ann' twice; expected one distinct name per annotator", id="twice"
        ),
        pytest.param("ann,,ben", "error: --names holds ''; expected each name a non-empty string", id="an-empty-name"),
        pytest.param(",", "error: --names holds ''; expected each name a non-empty string", id="only-a-comma"),
        pytest.param("ann,ben", "error: --names gives 2 names for 3 annotators", id="too-few"),
    ],
)
def test_the_command_names_what_is_wrong_with_names(tmp_path, capsys, names, message):
    path = tmp_path / "three.conll"
    path.write_text(CONLL, encoding="utf-8")
    try:
        status = nerscore.main(["agreement", str(path), "--names", names])
    except SystemExit as exit:  # (argparse's error)
        status = exit.code
    assert status == 2
    assert capsys.readouterr().err.strip().endswith(message)


def test_the_command_lists_where_each_pair_disagrees(tmp_path, capsys):
    path = tmp_path / "three.conll"
    path.write_text(CONLL, encoding="utf-8")
    assert nerscore.main(["agreement", str(path), "--names", "ann,ben,cal", "--errors", "3"]) == 0
    printed = capsys.readouterr().out
    assert "ann - ben: disagreements (count, scenario, ann, ben)\n     1  IV  Bob (PER)  |  Bob (ORG)\n" in printed
    assert "     1  III Bob (PER)  |  -\n" in printed


def test_the_command_names_the_file_when_texts_differ(tmp_path, capsys):
    write_brat(tmp_path / "ann", ENTITIES["ann"])
    write_brat(tmp_path / "ben", ENTITIES["ben"], [TEXTS[0], "Paris is not Roma."])
    assert nerscore.main(["agreement", str(tmp_path / "ann"), str(tmp_path / "ben")]) == 2
    assert "ben/doc1.txt:1: differs from" in capsys.readouterr().err


def test_the_command_refuses_slices(tmp_path, capsys):
    path = tmp_path / "three.conll"
    path.write_text(CONLL, encoding="utf-8")
    with pytest.raises(SystemExit):
        nerscore.main(["agreement", str(path), "--slices", "length"])
    assert "unrecognized arguments" in capsys.readouterr().err


@pytest.mark.parametrize(
    "reader",
    [nerscore.read_conll_annotators, nerscore.read_doccano_annotators, nerscore.read_brat_annotators],
)
def test_a_reader_of_several_paths_given_one_says_so(tmp_path, reader) -> None:
    # The red team's: read_conll_annotators("ann.conll") read each character as a path ("No such file: 'a'").
    with pytest.raises(ValueError, match=r"found the path '.*ann' alone; expected a list of paths"):
        reader(str(tmp_path / "ann"))


def test_read_annotators_given_one_path_says_so(tmp_path) -> None:
    # As its readers do (above): read_annotators("ann.conll") read each character as a path ("No such file: 'a'").
    with pytest.raises(ValueError, match=r"found the path '.*ann\.conll' alone; expected a list of paths"):
        nerscore.read_annotators(str(tmp_path / "ann.conll"))


@pytest.mark.parametrize("reader", [nerscore.read_jsonl_annotators, nerscore.read_label_studio_annotators])
@pytest.mark.parametrize("path", [None, 5])
def test_a_reader_of_one_path_given_none_says_so(reader, path) -> None:
    # Were os.fspath's TypeError ("expected str, bytes or os.PathLike object, not NoneType"), as read_label_studio's
    # was before it said what it found.
    with pytest.raises(ValueError, match=rf"found {type(path).__name__} {path}; expected"):
        reader(path)


# -- Discontinuous entities (docs/scoring.md §12) in BRAT folders ---------------------------------------------------

CLINICAL = ["Patient reports muscle pain and fatigue after statins.", "Left and right ventricle dilated."]
# Each annotator's T lines per document, as brat writes them: a discontinuous entity's text is its fragments' texts
# joined by one space; cal writes its fragments out of order; ben's "15 20;20 24" touch: one contiguous entity.
CLINICAL_LINES = {
    "ann": [
        ["T1\tADR 16 27\tmuscle pain", "T2\tADR 16 22;32 39\tmuscle fatigue", "T3\tDrug 46 53\tstatins"],
        ["T1\tAnat 0 4;15 24\tLeft ventricle", "T2\tAnat 9 24\tright ventricle"],
    ],
    "ben": [
        ["T1\tADR 16 27\tmuscle pain", "T2\tADR 16 39\tmuscle pain and fatigue", "T3\tDrug 46 53\tstatins"],
        ["T1\tAnat 0 24\tLeft and right ventricle", "T2\tAnat 15 20;20 24\tventr icle"],
    ],
    "cal": [
        ["T1\tADR 16 22\tmuscle", "R1\tCause Arg1:T1 Arg2:T1"],
        ["#1\tAnnotatorNotes T1\tboth sides", "T1\tAnat 15 24;0 4\tventricle Left"],
    ],
}
# The same entities written by hand: the span dicts of §12 (fragments sorted and merged) ...
CLINICAL_FRAGMENTS = {
    "ann": [
        [(16, 27, "ADR"), {"fragments": [[16, 22], [32, 39]], "type": "ADR"}, (46, 53, "Drug")],
        [{"fragments": [[0, 4], [15, 24]], "type": "Anat"}, (9, 24, "Anat")],
    ],
    "ben": [[(16, 27, "ADR"), (16, 39, "ADR"), (46, 53, "Drug")], [(0, 24, "Anat"), (15, 24, "Anat")]],
    "cal": [[(16, 22, "ADR")], [{"fragments": [[0, 4], [15, 24]], "type": "Anat"}]],
}
# ... and by their full extent, as the readers have always read them.
CLINICAL_EXTENTS = {
    "ann": [[(16, 27, "ADR"), (16, 39, "ADR"), (46, 53, "Drug")], [(0, 24, "Anat"), (9, 24, "Anat")]],
    "ben": CLINICAL_FRAGMENTS["ben"],
    "cal": [[(16, 22, "ADR")], [(0, 24, "Anat")]],
}


def write_brat_lines(tmp_path, lines=CLINICAL_LINES):
    folders = []
    for name, documents in lines.items():
        folder = tmp_path / name
        folder.mkdir()
        for number, (text, document) in enumerate(zip(CLINICAL, documents)):
            (folder / f"doc{number}.txt").write_text(text, encoding="utf-8")
            (folder / f"doc{number}.ann").write_text("\n".join(document) + "\n", encoding="utf-8")
        folders.append(str(folder))
    return folders


def test_brat_fragments_kept_are_the_span_dicts_written_by_hand(tmp_path):
    folders = write_brat_lines(tmp_path)
    read = read_brat_annotators(folders, fragments=True)
    assert read.annotations == CLINICAL_FRAGMENTS and read.texts == CLINICAL
    assert nerscore.read_annotators(folders, fragments=True) == read
    assert nerscore.read_annotators(folders, "brat", fragments=True) == read
    options = {"per_type": True, "errors": True, "return_entities": True, "diagnostics": True}
    result = agreement(read.annotations, texts=read.texts, **options)
    assert result == agreement(CLINICAL_FRAGMENTS, texts=CLINICAL, **options)
    # Read by fragments, ann's "muscle fatigue" is not ben's "muscle pain and fatigue" (scenario V, §12).
    assert result["pairs"][0]["strict_f1"] < agreement(CLINICAL_EXTENTS, texts=CLINICAL)["pairs"][0]["strict_f1"]


def test_brat_read_by_default_is_the_full_extent_as_before(tmp_path):
    folders = write_brat_lines(tmp_path)
    read = read_brat_annotators(folders)
    assert read.annotations == CLINICAL_EXTENTS and read.texts == CLINICAL
    assert nerscore.read_annotators(folders) == read == read_brat_annotators(folders, fragments=False)


def as_pieces(batches: dict) -> dict:
    """Each annotator's entities with every fragment dict written as its fragments, each a contiguous entity of its
    type (what §13 says a discontinuous entity labels); contiguous entities as they are."""
    return {
        name: [
            [
                piece
                for entity in document
                for piece in (
                    [(start, end, entity["type"]) for start, end in entity["fragments"]]
                    if isinstance(entity, dict)
                    else [entity]
                )
            ]
            for document in batch
        ]
        for name, batch in batches.items()
    }


def test_a_discontinuous_entity_labels_only_its_fragments_units(tmp_path):
    # §13 on §12's units: an entity of fragments labels what its fragments cover, as the fragments written as
    # contiguous entities of its type would (they are disjoint: a unit gets the type once); not its extent.
    pieces = as_pieces(CLINICAL_FRAGMENTS)
    read = read_brat_annotators(write_brat_lines(tmp_path), fragments=True)
    result = agreement(read.annotations, texts=read.texts)
    by_units = agreement(pieces, texts=CLINICAL)
    extents = agreement(CLINICAL_EXTENTS, texts=CLINICAL)
    keys = ["fleiss_kappa", "krippendorff_alpha", "fleiss_kappa_labelled", "krippendorff_alpha_labelled", "units"]
    keys.append("units_labelled")
    assert {key: result[key] for key in keys} == {key: by_units[key] for key in keys}
    assert [p["cohen_kappa"] for p in result["pairs"]] == [p["cohen_kappa"] for p in by_units["pairs"]]
    assert result["krippendorff_alpha"] != extents["krippendorff_alpha"]


def test_the_command_notes_discontinuous_annotations_and_reads_them_with_fragments(tmp_path, capsys):
    folders = write_brat_lines(tmp_path)
    assert nerscore.main(["agreement", *folders]) == 0
    captured = capsys.readouterr()
    assert captured.out == format_agreement(agreement(CLINICAL_EXTENTS, texts=CLINICAL))
    assert captured.err == (
        "note: 3 discontinuous annotations (2 ann, 0 ben, 1 cal) scored by their full extent, from the first "
        "fragment's start to the last one's end (--fragments scores them as discontinuous entities)\n"
    )
    assert nerscore.main(["agreement", *folders, "--fragments", "--names", "a,b,c"]) == 0
    captured = capsys.readouterr()
    named = dict(zip("abc", CLINICAL_FRAGMENTS.values()))
    assert captured.out == format_agreement(agreement(named, texts=CLINICAL))
    assert captured.err == (
        "note: 3 discontinuous annotations (2 a, 0 b, 1 c) scored by their fragments (units shared, "
        "docs/scoring.md §12)\n"
    )
    assert nerscore.main(["agreement", *folders, "--fragments", "--json", "--errors", "5"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(
        json.dumps(agreement(CLINICAL_FRAGMENTS, texts=CLINICAL, errors=5))
    )
    # Folders without a discontinuous annotation: no note, with or without the flag.
    (tmp_path / "plain").mkdir()
    write_brat(tmp_path / "plain" / "ann", ENTITIES["ann"])
    write_brat(tmp_path / "plain" / "ben", ENTITIES["ben"])
    for flags in ([], ["--fragments"]):
        assert (
            nerscore.main(["agreement", str(tmp_path / "plain" / "ann"), str(tmp_path / "plain" / "ben"), *flags]) == 0
        )
        captured = capsys.readouterr()
        assert captured.err == "" and captured.out == format_agreement(agreement(ENTITIES, texts=TEXTS))


def test_fragments_are_for_brat_folders(tmp_path, capsys):
    path = tmp_path / "three.conll"
    path.write_text(CONLL, encoding="utf-8")
    with pytest.raises(SystemExit):
        nerscore.main(["agreement", str(path), "--fragments"])
    assert "--fragments reads BRAT folders' discontinuous annotations; the paths are conll" in capsys.readouterr().err
    with pytest.raises(ValueError, match="fragments=True reads BRAT's discontinuous annotations"):
        nerscore.read_annotators([str(path)], fragments=True)


def test_json_lines_of_annotators_carry_fragments_as_they_are(tmp_path):
    path = tmp_path / "every.jsonl"
    lines = [
        {"text": text, "annotations": {name: batch[number] for name, batch in CLINICAL_FRAGMENTS.items()}}
        for number, text in enumerate(CLINICAL)
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    read = read_jsonl_annotators(path)
    assert agreement(read.annotations, texts=read.texts) == agreement(CLINICAL_FRAGMENTS, texts=CLINICAL)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("T2\tAnat 9 14;15\tright ventricle", r"T2's offsets are '9 14;15'; expected START END"),
        ("T2\tAnat 14 9;15 24\tright ventricle", r"T2: start 14 >= end 9; expected start < end"),
        ("T2\tAnat 9 14;15 99\tright ventricle", r"T2: end 99 is past the end of .*doc1\.txt \(33 characters\)"),
        ("T2\tAnat 9 14;15 24\tright ventricles", r"T2's text is 'right ventricles' but .*holds 'right ventricle'"),
        ("T2\tAnat 9 14;;15 24\tright ventricle", r"T2's offsets are '9 14;;15 24'"),
    ],
    ids=["one-number", "reversed", "past-the-end", "text", "empty-fragment"],
)
def test_bad_fragment_offsets_name_the_file_and_line(tmp_path, capsys, line, message):
    lines = {name: [list(document) for document in documents] for name, documents in CLINICAL_LINES.items()}
    lines["ann"][1][1] = line
    folders = write_brat_lines(tmp_path, lines)
    for fragments in (True, False):
        with pytest.raises(ConllError, match=r"ann/doc1\.ann:2: " + message):
            read_brat_annotators(folders, fragments=fragments)
    for flags in ([], ["--fragments"]):
        assert nerscore.main(["agreement", *folders, *flags]) == 2
        error = capsys.readouterr().err
        assert error.startswith(f"{tmp_path / 'ann' / 'doc1.ann'}:2: ") and re.search(message, error), error


@st.composite
def _fragment_batches(draw):
    """Two or three annotators' entities over sentences of up to 12 units: contiguous tuples and fragment dicts."""

    def entity():
        bounds = sorted(draw(st.sets(st.integers(0, 12), min_size=2, max_size=6)))
        pieces = [[bounds[i], bounds[i + 1]] for i in range(0, len(bounds) - 1, 2)]
        kind = draw(st.sampled_from(["A", "B"]))
        return (pieces[0][0], pieces[0][1], kind) if len(pieces) == 1 else {"fragments": pieces, "type": kind}

    sentences = draw(st.integers(1, 3))
    names = ["a", "b", "c"][: draw(st.integers(2, 3))]
    return {name: [[entity() for _ in range(draw(st.integers(0, 3)))] for _ in range(sentences)] for name in names}


@settings(deadline=None, max_examples=60)
@given(_fragment_batches())
def test_fragment_dicts_label_the_units_their_fragments_cover(batches):
    # The coefficients of §13 on §12's units: the same as each fragment written as a contiguous entity of its type.
    pieces = as_pieces(batches)
    texts = ["x" * 12] * len(batches["a"])
    result, expected = agreement(batches, texts=texts), agreement(pieces, texts=texts)
    for key in ("fleiss_kappa", "krippendorff_alpha", "krippendorff_alpha_labelled", "units", "units_labelled"):
        assert result[key] == pytest.approx(expected[key], nan_ok=True), key
    assert [p["cohen_kappa"] for p in result["pairs"]] == pytest.approx([p["cohen_kappa"] for p in expected["pairs"]])


@pytest.mark.parametrize(
    "reader",
    [
        nerscore.read_annotators,
        nerscore.read_conll_annotators,
        nerscore.read_brat_annotators,
        nerscore.read_doccano_annotators,
    ],
)
def test_a_reader_of_several_paths_given_none_says_so(reader) -> None:
    with pytest.raises(ValueError, match="found NoneType; expected a list of paths"):
        reader(None)


SEVERAL_PATHS_READERS = [
    nerscore.read_annotators,
    nerscore.read_conll_annotators,
    nerscore.read_brat_annotators,
    nerscore.read_doccano_annotators,
]


# (Red team 2: a path among them that is no path raised TypeError out of os.fspath or os.path.join, naming
# neither the argument nor the path; a generator of paths, TypeError "object of type 'generator' has no len()".)
@pytest.mark.parametrize("reader", SEVERAL_PATHS_READERS)
@pytest.mark.parametrize(
    ("paths", "message"),
    [
        pytest.param(["a", 5], r"^found int 5; expected paths\[1\] a path", id="a-number-second"),
        pytest.param([None, "b"], r"^found NoneType None; expected paths\[0\] a path", id="none-first"),
        pytest.param([["a"], "b"], r"^found list \['a'\]; expected paths\[0\] a path", id="a-list-first"),
    ],
)
def test_a_path_among_several_that_is_no_path_is_named(reader, paths, message) -> None:
    with pytest.raises(ValueError, match=message):
        reader(paths)


def test_paths_given_by_a_generator_are_read_as_a_list(tmp_path) -> None:
    path = tmp_path / "three.conll"
    path.write_text(CONLL, encoding="utf-8")
    assert nerscore.read_conll_annotators(iter([path])) == nerscore.read_conll_annotators([path])


@pytest.mark.parametrize(
    "form",
    [
        pytest.param("xml", id="an-unknown-layout"),
        pytest.param("BRAT", id="a-layout-in-capitals"),
        pytest.param(5, id="a-number"),
        pytest.param(["brat"], id="a-list"),
    ],
)
def test_read_annotators_refuses_a_layout_it_does_not_know(tmp_path, form) -> None:
    # (Red team 2: any other form was read as CoNLL, so BRAT folders raised IsADirectoryError.)
    path = tmp_path / "three.conll"
    path.write_text(CONLL, encoding="utf-8")
    with pytest.raises(ValueError, match=r"^form is .*; expected None \(told by the paths\) or one of conll, brat"):
        nerscore.read_annotators([path], form=form)


# file_format takes a list of paths: None, one path as a string or a path that is None was a TypeError ("'NoneType'
# object is not iterable", "stat: path should be string") or a string read a character at a time.
@pytest.mark.parametrize(
    ("paths", "message"),
    [
        pytest.param(None, r"^paths is None; expected a list of files or folders", id="none"),
        pytest.param(
            "a.json", r"^paths is 'a.json'; expected a list of files or folders \(\[path\] for one\)", id="one"
        ),
        pytest.param([None], r"found NoneType None; expected each of paths a file or folder", id="a-path-that-is-none"),
    ],
)
def test_file_format_names_what_is_no_list_of_paths(paths, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        file_format(paths)


@pytest.mark.parametrize(
    ("names", "message"),
    [
        # A number raised TypeError "'int' object is not iterable"; a name given twice kept one annotator of the
        # two silently (a dict of names); a string was read a letter a name.
        pytest.param(5, r"^names is 5 \(int\); expected the annotators' names, a list of strings", id="a-number"),
        pytest.param("abc", r"^names is 'abc' \(str\); expected the annotators' names", id="a-string"),
        pytest.param(["a", "a", "b"], r"^names holds 'a' twice; expected one distinct name per annotator", id="twice"),
        pytest.param([None, "b", "c"], r"^names holds None; expected each name a non-empty string", id="a-none"),
        pytest.param(["a", "", "c"], r"^names holds ''; expected each name a non-empty string", id="empty"),
    ],
)
def test_bad_names_of_a_conll_file_s_columns_are_refused(names, message: str) -> None:
    path = Path(__file__).parent.parent / "examples" / "agreement.conll"
    with pytest.raises(ValueError, match=message):
        read_conll_annotators([path], names=names)


def test_annotators_of_one_file_or_folder_name_are_told_apart(tmp_path):
    # Files of one name in several folders: the name, then numbered; BRAT folders of one name: by their paths.
    paths = []
    for folder in ("x", "y", "z"):
        (tmp_path / folder).mkdir()
        paths.append(tmp_path / folder / "ann.jsonl")
        paths[-1].write_text(json.dumps({"text": TEXTS[0], "label": [[0, 3, "PER"]]}) + "\n", encoding="utf-8")
    assert list(read_doccano_annotators(paths).annotations) == ["ann.jsonl", "ann.jsonl (2)", "ann.jsonl (3)"]
    for folder in ("x", "y"):
        write_brat(tmp_path / folder / "brat", ENTITIES["ann"])
    read = read_brat_annotators([tmp_path / "x" / "brat", tmp_path / "y" / "brat"])
    assert list(read.annotations) == ["brat", str(tmp_path / "y" / "brat")]
