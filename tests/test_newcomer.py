"""What a newcomer meets first (issue 31): the pages' links land where they say, the pages' advice is whole, and
the mistakes a new user makes are answered with what to do."""

from __future__ import annotations

import io
import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import REPO

import nerscore as ns

README_TEXT = (REPO / "README.md").read_text(encoding="utf-8")
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), REPO / "benchmarks" / "README.md"]


def _anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page as GitHub and the Hub write them: each heading outside code blocks, lower
    case, punctuation dropped but hyphens and underscores, spaces as hyphens (a repeated one gets -1, -2 ...),
    and explicit `id=` / `name=` anchors."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    anchors: set[str] = set(re.findall(r"""(?:id|name)=["']([^"']+)["']""", text))
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        repeated = slug
        while repeated in anchors:
            repeated = f"{slug}-{int(repeated.rsplit('-', 1)[-1]) + 1 if repeated != slug else 1}"
        anchors.add(repeated)
    return anchors


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_every_link_between_the_pages_lands_on_its_heading(page: Path) -> None:
    # docs/slices.md sent the reader to scoring.md#11-slices-where-the-errors-are, a heading since renamed.
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", link):
            continue
        path, _, anchor = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), f"{page.name} links {link}, which does not exist"
        if anchor and target.suffix == ".md":
            assert anchor in _anchors(target), f"{page.name} links {link}: {target.name} has no such heading"


def test_the_anchors_are_the_hubs() -> None:
    # The slug rule above, on headings of the kinds the pages hold.
    page = REPO / "docs" / "scoring.md"
    assert {"1-inputs", "11-slices-diagnostics-and-errors"} <= _anchors(page)


# Where a page tells the reader to leave the nested keys out of what `Trainer` logs: the paragraph holding the
# marker must name every key whose value is not a number.
NESTED_KEYS_ADVICE = [
    pytest.param("README.md", "`Trainer.log_metrics` crashes", id="card-output-values"),
    pytest.param("docs/trainer.md", "`Trainer.log_metrics` crashes", id="trainer-compute-metrics"),
]


@pytest.mark.parametrize("page, marker", NESTED_KEYS_ADVICE)
def test_the_advice_on_nested_keys_names_every_one(page: str, marker: str) -> None:
    # docs/trainer.md said `entities` and `confusion` were "the only non-scalar keys"; `errors` and `slices` are
    # nested too, and Trainer.log_metrics crashes on them as well.
    result = ns.compute_semeval(
        predictions=[["B-PER", "O"]],
        references=[["B-LOC", "O"]],
        tokens=[["Ann", "sat"]],
        return_entities=True,
        confusion=True,
        errors=True,
        slices=["entity_length"],
    )
    nested = {key for key, value in result.items() if not isinstance(value, int | float)}
    assert nested == {"entities", "confusion", "errors", "slices"}
    paragraphs = (REPO / page).read_text(encoding="utf-8").split("\n\n")
    (advice,) = [paragraph for paragraph in paragraphs if marker in paragraph]
    assert {key for key in nested if f"`{key}`" not in advice} == set(), advice


# A misspelt flag, as a newcomer types it: the Python option's name with underscores, or a letter off.
MISSPELT_FLAGS = [
    pytest.param(["--schme", "IOB2"], "--schme: did you mean --scheme?", id="letter-missing"),
    pytest.param(["--per_type"], "--per_type: did you mean --per-type?", id="underscore"),
    pytest.param(["--zero_division=1"], "--zero_division: did you mean --zero-division?", id="underscore-value"),
    pytest.param(["--bootstraps", "10"], "--bootstraps: did you mean --bootstrap?", id="plural"),
    pytest.param(["agreement", "a.conll", "--schme", "IOB2"], "--schme: did you mean --scheme?", id="agreement"),
    pytest.param(
        ["agreement", "a.conll", "--per_type"], "--per_type: did you mean --per-type?", id="agreement-underscore"
    ),
]


@pytest.mark.parametrize("argv, hint", MISSPELT_FLAGS)
def test_a_misspelt_flag_is_answered_with_the_flag_meant(
    argv: list[str], hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        ns.main(argv)
    assert exit_.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error.startswith(f"{'ner-semeval agreement' if argv[0] == 'agreement' else 'ner-semeval'}: error: ")
    assert "unrecognized arguments: " in error  # argparse's words stay: scripts and users grep for them
    assert hint in error, error


def test_a_flag_like_no_other_is_refused_as_argparse_does(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        ns.main(["--frobnicate", "x.conll"])
    assert capsys.readouterr().err.splitlines()[-1] == "ner-semeval: error: unrecognized arguments: --frobnicate"


# label_list given a datasets feature instead of its names: the feature's own repr is not advice.
def _class_label(wrapped: bool) -> object:
    datasets = pytest.importorskip("datasets")
    feature = datasets.ClassLabel(names=["O", "B-PER", "I-PER"])
    return datasets.Sequence(feature) if wrapped else feature


@pytest.mark.parametrize(
    "wrapped, advice",
    [
        pytest.param(False, r"pass its names, label_list=feature\.names", id="ClassLabel"),
        pytest.param(True, r"pass its names, label_list=dataset\.features\[column\]\.feature\.names", id="column"),
    ],
)
def test_label_list_given_a_class_label_says_to_pass_its_names(wrapped: bool, advice: str) -> None:
    with pytest.raises(ValueError, match=rf"label_list must be .*found .*ClassLabel.*; {advice}"):
        ns.compute_semeval(predictions=[[1, 2]], references=[[1, 2]], label_list=_class_label(wrapped))


class _Terminal(io.BytesIO):
    """Standard input as a terminal: what it holds is what the user types before Ctrl-D."""

    def isatty(self) -> bool:
        return True


class _Pipe(io.BytesIO):
    def isatty(self) -> bool:
        return False


class _Interrupted(_Terminal):
    """A user who presses Ctrl-C while the command waits for standard input."""

    def read(self, *_: object) -> bytes:
        raise KeyboardInterrupt

    readline = read

    def __iter__(self):  # type: ignore[override]
        raise KeyboardInterrupt


# `ner-semeval` (or `python ner_semeval.py`) without a file reads standard input, as conlleval.pl does: from a
# terminal it waited in silence, as if it hung, and Ctrl-C then printed a Traceback.
STANDARD_INPUT = [
    pytest.param([], _Terminal, "reading CoNLL columns from standard input", id="tags-terminal"),
    pytest.param(["--spans", "-"], _Terminal, "reading JSON lines of spans from standard input", id="spans-terminal"),
    pytest.param(["--conlleval"], _Terminal, "reading CoNLL columns from standard input", id="conlleval-terminal"),
    pytest.param([], _Pipe, "", id="tags-pipe"),
    pytest.param(["--conlleval"], _Pipe, "", id="conlleval-pipe"),
]


@pytest.mark.parametrize("argv, stdin, note", STANDARD_INPUT)
def test_a_terminal_is_told_what_standard_input_is_read_for(
    argv: list[str], stdin: type[io.BytesIO], note: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin(b"")))
    assert ns.main(argv) == 0
    captured = capsys.readouterr()
    assert "processed 0 tokens" in captured.out or argv == ["--spans", "-"]  # the report as before, on stdout
    if note:
        assert captured.err.startswith(f"ner-semeval: {note} (end it with Ctrl-D"), captured.err
    else:
        assert captured.err == ""  # a pipe or a file is read as it always was


@pytest.mark.parametrize("argv", [[], ["--spans", "-"], ["--conlleval"]], ids=["tags", "spans", "conlleval"])
def test_ctrl_c_while_reading_ends_without_a_traceback(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(_Interrupted(b"")))
    assert ns.main(argv) == 130  # 128 + SIGINT, as a shell reports a command ended by Ctrl-C
    assert capsys.readouterr().err.splitlines()[-1] == "ner-semeval: interrupted"


# Tags a newcomer writes that are not tags, and what the message adds: ids kept as strings (read from a CSV or a
# JSON file), a lower-case prefix.
MISWRITTEN_TAGS = [
    pytest.param({"tags": ["1", "0"]}, r"found tag '1', which has no prefix; .*; integer ids go as int", id="id-str"),
    pytest.param(
        {"tags": ["1", "0"], "label_list": ["O", "B-PER"]},
        r"found tag '1', which has no prefix; .*; integer ids go as int, with label_list",
        id="id-str-label-list",
    ),
    pytest.param(
        {"tags": ["-100", "O"]}, r"found tag '-100' with unknown prefix ''; .*; integer ids go as int", id="neg"
    ),
    pytest.param(
        {"tags": ["b-per", "o"]},
        r"found tag 'b-per' with unknown prefix 'b'; .*; prefixes are upper case: 'B-per'",
        id="lower",
    ),
    pytest.param(
        {"tags": ["per-b"], "suffix": True},
        r"found tag 'per-b' with unknown prefix 'b'; .*; prefixes are upper case: 'per-B'",
        id="lower-suffix",
    ),
]


@pytest.mark.parametrize("given, message", MISWRITTEN_TAGS)
def test_a_miswritten_tag_is_answered_with_its_likely_fix(given: dict, message: str) -> None:
    tags = given.pop("tags")
    with pytest.raises(ValueError, match=message):
        ns.compute_semeval(predictions=[tags], references=[["O"] * len(tags)], **given)


# A tokenizer's -100 (or another id) left among string tags, as a newcomer does who turned only the labelled
# positions into tags: the message says ids and tags do not mix and what to do, through evaluate.load's compute and
# add_batch as through compute_semeval. It said "found -100 (int); expected a string tag" and no more (add_batch:
# "expected every value a string tag, or every value an integer id").
IDS_AMONG_TAGS = [
    pytest.param({"references": [["B-PER", -100, "O"]]}, "references, sentence 0, token 1: found -100", id="minus100"),
    pytest.param(
        {"references": [["B-PER", -100, "O"]], "label_list": ["O", "B-PER", "I-PER"]},
        "references, sentence 0, token 1: found -100",
        id="minus100-label-list",
    ),
    pytest.param({"predictions": [["B-PER", 2, "O"]]}, "predictions, sentence 0, token 1: found 2", id="id"),
]


@pytest.mark.parametrize("given, where", IDS_AMONG_TAGS)
@pytest.mark.parametrize("front", ["compute", "add_batch", "compute_semeval"])
def test_an_id_among_string_tags_says_how_to_give_ids(given: dict, where: str, front: str, load_metric) -> None:
    inputs = {"predictions": [["B-PER", "I-PER", "O"]], "references": [["B-PER", "I-PER", "O"]], **given}
    options = {"label_list": inputs.pop("label_list")} if "label_list" in inputs else {}
    call = ns.compute_semeval if front == "compute_semeval" else getattr(load_metric(**options), front)
    with pytest.raises(ValueError) as raised:
        call(**inputs, **(options if front == "compute_semeval" else {}))
    message = str(raised.value)
    assert message.startswith(where), message
    assert re.search(r"(an integer id among|where the batch holds) string tags; expected a string tag", message)
    assert "label_list" in message and "drop" in message  # ids on both sides with label_list, or drop the position


def test_the_help_names_the_agreement_command(capsys: pytest.CaptureFixture[str]) -> None:
    # `ner-semeval --help` is where a newcomer looks for what the command line does; `ner-semeval agreement` is a
    # command of its own that no line of it named (docs/command-line.md: Agreement between annotators).
    with pytest.raises(SystemExit):
        ns.main(["--help"])
    printed = " ".join(capsys.readouterr().out.split())
    assert "ner-semeval agreement PATH ..." in printed
    assert "ner-semeval agreement --help" in printed


def test_the_house_names_every_module_that_imports_scipy() -> None:
    # docs/architecture.md's layout says where scipy is imported (inside functions); it named three modules while
    # five import it (the slices' sparse columns in table/slices.py and statistics/unit_counts.py were left out).
    import ast

    importing = set()
    for path in (REPO / "nerscore").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            if any(name.split(".")[0] == "scipy" for name in names):
                importing.add(path.stem)
    layout = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8").split("```")[1]
    sentence = " ".join(layout.split("(scipy only inside functions of", 1)[1].split(")", 1)[0].split())
    assert importing and {name for name in importing if name not in sentence} == set(), sentence


def test_the_walk_names_the_modules_a_compute_of_tags_calls() -> None:
    # docs/architecture.md's walk opens with the modules a sentence of tags goes through (issue 27 counted them):
    # traced here, so that the count a newcomer reads is the code's.
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    opening = page.split("## A walk:", 1)[1].split("The steps:", 1)[0]
    match = re.search(r"calls into (\d+) of the package's modules, [^:]*:(.*?)\(traced", opening, re.S)
    assert match, opening
    number, listed = match.groups()
    named = re.findall(r"`([\w/]+)`", listed)
    predictions, references = [["B-PER", "I-PER", "O", "B-ORG"]], [["B-PER", "I-PER", "O", "B-LOC"]]
    ns.compute_semeval(predictions=predictions, references=references)  # what the first call imports, imported
    called: list[str] = []

    def profile(frame, event, arg) -> None:
        module = frame.f_globals.get("__name__", "")
        if event == "call" and module.startswith("nerscore.") and module not in called:
            called.append(module)

    sys.setprofile(profile)
    try:
        ns.compute_semeval(predictions=predictions, references=references)
    finally:
        sys.setprofile(None)
    assert sorted(named) == sorted(module.removeprefix("nerscore.").replace(".", "/") for module in called)
    assert int(number) == len(named)


# A batch given to `add`, which takes one sentence (or a batch nested once too deep to add_batch): the sentence's
# first value is a list of tags, which add_batch read as a string entity ("B-PER", "O") and answered "found string
# entities (no offsets) and no texts; expected texts=", where compute says what happened.
NESTED_ONCE_TOO_DEEP = [
    pytest.param("add", {"prediction": [["B-PER", "O"]], "reference": [["B-PER", "O"]]}, id="add-given-a-batch"),
    pytest.param("add_batch", {"predictions": [[["B-PER", "O"]]], "references": [[["B-PER", "O"]]]}, id="add_batch"),
    pytest.param("compute", {"predictions": [[["B-PER", "O"]]], "references": [[["B-PER", "O"]]]}, id="compute"),
]


@pytest.mark.parametrize("call, given", NESTED_ONCE_TOO_DEEP)
def test_a_batch_nested_once_too_deep_is_named_so_whichever_call_takes_it(call: str, given: dict, metric) -> None:
    with pytest.raises(ValueError, match=r"^references, sentence 0, token 0: found \['B-PER', 'O'\], a list of tags"):
        getattr(metric, call)(**given)


def test_the_command_line_page_names_every_way_to_run_it() -> None:
    # issue 31: `python -m nerscore FILE` and `python -m nerscore.cli FILE` run the command line, but the page a
    # newcomer reads for it named only `python ner_semeval.py` and `ner-semeval` (docs/architecture.md alone said
    # `python -m nerscore`). Each way the page names prints the same report.
    import subprocess

    opening = (REPO / "docs" / "command-line.md").read_text(encoding="utf-8").split("\n\n")[1]
    ways = {
        "python ner_semeval.py [FILE ...]": [sys.executable, "ner_semeval.py"],
        "python -m nerscore [FILE ...]": [sys.executable, "-m", "nerscore"],
        "python -m nerscore.cli [FILE ...]": [sys.executable, "-m", "nerscore.cli"],
        "ner-semeval [FILE ...]": None,  # installed with the package: tests/test_install.py runs it
    }
    assert {way for way in ways if f"`{way}`" not in opening} == set(), opening
    printed = {
        way: subprocess.run(
            [*command, "examples/worked_example.conll"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout
        for way, command in ways.items()
        if command
    }
    assert len(set(printed.values())) == 1 and "processed 34 tokens" in printed["python -m nerscore [FILE ...]"]


# What the command line reads a JSON line's `text` for, as the page names it, and the flags that ask for it: each,
# given a line without one, says so.
TEXT_READERS = {
    "`--errors`": ["--errors", "3"],
    "`--slices seen`": ["--slices", "seen", "--seen", "SEEN"],
    "`--slices sentence_length`": ["--slices", "sentence_length"],
}


@pytest.mark.parametrize("page", ["command-line.md", "spans.md"])
def test_the_pages_say_what_a_json_lines_text_is_read_for(
    page: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # docs/spans.md said a line's optional `text` was "read only for the entity texts of `--errors`": string
    # entities are found in it, and the slices `seen` and `sentence_length` read it too (command-line.md named
    # two of the four). The page's sentence on `text` names each flag the command line refuses without one, and
    # the page's example line scores.
    text = (REPO / "docs" / page).read_text(encoding="utf-8")
    match = re.search(r"an\s+optional\s+`text`(.*?)\)[^`\n]*:\n\n```\n(\{.*?\})\n```", text, flags=re.S)
    assert match, f"docs/{page}: no sentence on a JSON line's `text` before an example line"
    described, example = " ".join(match.group(1).split()), match.group(2)
    assert "string entities" in described, described
    (tmp_path / "SEEN").write_text("Ada\n", encoding="utf-8")
    (tmp_path / "bare.jsonl").write_text('{"references": [[0, 3, "PER"]], "predictions": []}\n', encoding="utf-8")
    for named, flags in TEXT_READERS.items():
        flags = [str(tmp_path / flag) if flag == "SEEN" else flag for flag in flags]
        assert ns.main([*flags, "--spans", str(tmp_path / "bare.jsonl")]) == 2
        assert "found no 'text'" in capsys.readouterr().err
        assert named in described, f"docs/{page} does not say that {named} reads `text`: {described}"
    (tmp_path / "example.jsonl").write_text(example + "\n", encoding="utf-8")
    assert ns.main(["--spans", str(tmp_path / "example.jsonl")]) == 0


def test_the_card_says_where_a_modules_tests_are() -> None:
    # The card's contributing line said a module's tests are "in the file named after it": 25 modules have no such
    # file (nerscore/forms/inputs.py's are in tests/test_errors.py), and tests/test_house.py's TESTED_ELSEWHERE,
    # which says where theirs are, went unnamed. Each example the line gives holds.
    from test_house import TESTED_ELSEWHERE

    line = next(line for line in README_TEXT.splitlines() if "Contributing:" in line)
    examples = re.findall(r"`nerscore/([\w/]+)\.py`: `?(?:pytest )?tests/(test_\w+\.py)", line)
    assert len(examples) == 2, line
    assert "`TESTED_ELSEWHERE` in tests/test_house.py" in line, line
    for path, test_file in examples:
        module = path.replace("/", ".")
        assert (REPO / "tests" / test_file).exists()
        if f"test_{module.rsplit('.', 1)[-1]}.py" != test_file:
            assert test_file in TESTED_ELSEWHERE[module], (module, test_file)


# Ids that are not quite what the metric takes, as a newcomer's model or dataset gives them: a float array (labels
# read into a float tensor, an argmax cast to float) and another padding id than -100. The message said
# "found 1.0; expected an id of label_list (0 to 1)", which reads as a contradiction, and "found id -1; expected
# an id of label_list", which does not say that ignore_index takes other values.
NEARLY_IDS = [
    pytest.param(
        {"predictions": [[1.0, 0.0]], "references": [[1, 0]], "label_list": ["O", "B-PER"]},
        r"^predictions, sentence 0, token 0: found 1\.0; expected an id of label_list \(0 to 1\) \(a float: ids are "
        r"integers.*cast with \.astype\(int\)\)$",
        id="float-predictions",
    ),
    pytest.param(
        {"predictions": [[1.0, 0.0]], "references": [[1.0, 0.0]]},
        r"^predictions, sentence 0, token 0: found 1\.0 \(float\); expected a string tag, or integer ids with "
        r"label_list \(cast float ids with \.astype\(int\)\)",
        id="float-both-sides",
    ),
    pytest.param(  # (float() of it raised OverflowError while the message was written)
        {"predictions": [[Fraction(10**400)]], "references": [["O"]]},
        r"^predictions, sentence 0, token 0: found Fraction\(1000.*; expected a string tag",
        id="a-fraction-past-a-floats-range",
    ),
    pytest.param(
        {"predictions": [[1, 0]], "references": [[1, -1]], "label_list": ["O", "B-PER"]},
        r"^references, sentence 0, token 1: found id -1; expected an id of label_list \(0 to 1\); if -1 marks "
        r"positions to leave out, pass ignore_index=-1$",
        id="padding-minus-1",
    ),
    pytest.param(  # a prediction's -1 is no padding: no such advice
        {"predictions": [[1, -1]], "references": [[1, 0]], "label_list": ["O", "B-PER"]},
        r"^predictions, sentence 0, token 1: found id -1; expected an id of label_list \(0 to 1\)$",
        id="prediction-minus-1",
    ),
]


@pytest.mark.parametrize("given, message", NEARLY_IDS)
@pytest.mark.parametrize("array", [False, True], ids=["lists", "arrays"])
def test_nearly_ids_are_answered_with_what_makes_them_ids(given: dict, message: str, array: bool) -> None:
    import numpy as np

    if array:
        given = {key: np.array(value) if key != "label_list" else value for key, value in given.items()}
    with pytest.raises(ValueError, match=message):
        ns.compute_semeval(**given)
