"""nerscore.files.agreement_files: the annotators' files made as the tools write them (a Label Studio export with
several annotations per task, BRAT folders, doccano JSONL, CoNLL with one column per annotator) read into the
batches `agreement` takes, the errors that name the file, and ``ner-semeval agreement``."""

from __future__ import annotations

import json

import pytest

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


CONLL = """Ann B-PER B-PER B-PER
met O O O
Bob B-PER B-ORG O

Paris B-LOC B-LOC B-LOC
"""


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
    path.write_text(CONLL.replace("met O O O", "met O O"), encoding="utf-8")
    with pytest.raises(ConllError, match=r"three\.conll:2: found 3 columns; expected 4"):
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
