"""The metric card tells the truth: its examples and its guides' examples run, its worked example is the CLI's
output, its commands are CI's, it keeps evaluate's template and its links lead somewhere."""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
DOCS = REPO / "docs"
# The pages whose examples are doctested besides the card: every docs page that holds one (docs/pypi.md, the PyPI
# long description, among them).
DOCTESTED_PAGES = sorted(page for page in DOCS.glob("*.md") if ">>>" in page.read_text(encoding="utf-8"))
# evaluate's metric card template (templates/{{ cookiecutter.module_slug }}/README.md), in its order.
TEMPLATE_SECTIONS = [
    "# Metric Card for ner_semeval",
    "## Metric Description",
    "## How to Use",
    "## Inputs",
    "## Output Values",
    "## Examples",
    "## Limitations and Bias",
    "## Citation",
    "## Further References",
]
GUIDES = ["scoring", "spans", "statistics", "trainer", "command-line", "space", "comparison", "speed", "architecture"]


def _code_block_after(marker: str, text: str = README, name: str = "README.md") -> str:
    match = re.search(re.escape(marker) + r"\s*```[a-z]*\n(.*?)```", text, flags=re.S)
    assert match, f"no code block after {marker!r} in {name}"
    return match.group(1)


def _prose(text: str) -> str:
    """The text without its fenced code blocks (whose `#` lines are comments, not headings)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def _relative_links(text: str) -> list[str]:
    """The targets of the Markdown links and images that are not absolute URLs, without their #anchors."""
    targets = re.findall(r"\]\(([^)\s]+)\)", _prose(text))
    return [target.split("#", 1)[0] for target in targets if not re.match(r"[a-z]+:", target) and target[0] != "#"]


def test_readme_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the examples load "ner_semeval.py" by relative path, as a user in a clone does
    result = doctest.testfile(str(REPO / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0


def test_the_guides_hold_examples() -> None:
    names = {page.name for page in DOCTESTED_PAGES}
    assert {"spans.md", "statistics.md", "pypi.md", "scoring.md"} <= names  # scoring.md: a Scheme built by hand


@pytest.mark.parametrize("page", DOCTESTED_PAGES, ids=lambda page: f"docs/{page.name}")
def test_docs_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # as the card's: from the repository folder, loading "ner_semeval.py" by relative path
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3
    assert result.failed == 0


# Each Python block of the card and the guides runs somewhere: a doctest (`>>>`), a block behind one of these
# markers (the test that runs it is named), or a fragment of a larger program listed here, which at least parses.
RUN_ELSEWHERE = {
    "trainer-snippet": "test_trainer_snippets_are_what_the_trainer_test_runs",
    "pipeline-snippet": "tests/test_pipeline.py",
    "corpus-script": "test_the_large_corpora_scripts_run_as_they_are",
    "client-snippet": "test_the_space_client_snippet_prints_what_its_comments_say",
}
FRAGMENTS = {
    ("trainer.md", "trainer = Trainer("),  # needs a model, data and a tokenizer: tests/test_trainer.py trains one
    ("trainer.md", 'metric = evaluate.load(\n    "ner_semeval.py",\n    num_process='),  # tests/test_distributed.py
    ("spans.md", '{"fragments": [[16, 22], [32, 39]], "type": "ADR"}'),  # one entity, its form
}


def _python_blocks() -> list[tuple[str, str, str]]:
    """(page, the line before the block, the block) of every Python block of the card and the docs pages."""
    pages = [REPO / "README.md", *sorted(DOCS.glob("*.md"))]
    return [
        (page.name, match.group(1), match.group(2))
        for page in pages
        for match in re.finditer(r"([^\n]*)\n```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)
    ]


def test_every_python_block_of_the_docs_runs_somewhere() -> None:
    blocks = _python_blocks()
    assert len(blocks) >= 30
    unrun = []
    for page, before, block in blocks:
        if ">>>" in block or any(f"<!-- {marker} -->" in before for marker in RUN_ELSEWHERE):
            continue
        compile(block, f"{page}: {block[:40]!r}", "exec")  # a fragment at least parses
        if not any(page == fragment_page and block.startswith(start) for fragment_page, start in FRAGMENTS):
            unrun.append((page, block[:60]))
    assert unrun == [], "a Python block no test runs: make it a doctest, or mark it (RUN_ELSEWHERE)"


def test_readme_opens_with_the_demo_and_test_commands() -> None:
    body = README.split("---", 2)[2]
    commands = re.findall(r"```sh\n(.*?)\n```", body, flags=re.S)
    assert commands[0] == (
        "python3 -m venv .venv && .venv/bin/pip install -r requirements.txt -e . gradio==6.31.0"
        " && .venv/bin/python app.py"
    )
    assert commands[1].endswith(".venv/bin/pip install -r requirements-dev.txt -e . && .venv/bin/python -m pytest")
    ci_lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands[1] in ci_lines, ".ci/run must run the README's test command verbatim"
    assert body.index(commands[1]) < body.index("## Metric Description")


def test_readme_is_evaluates_metric_card() -> None:
    assert len(README.splitlines()) <= 300
    headings = [line for line in _prose(README.split("---", 2)[2]).splitlines() if re.match(r"#{1,2} ", line)]
    assert headings == TEMPLATE_SECTIONS


def test_every_page_the_card_links_exists() -> None:
    linked = _relative_links(README)
    for guide in GUIDES:
        assert f"docs/{guide}.md" in linked, guide
    for target in linked:
        assert (REPO / target).exists(), target
    for page in DOCS.glob("*.md"):
        for target in _relative_links(page.read_text(encoding="utf-8")):
            assert (page.parent / target).exists(), f"docs/{page.name}: {target}"


def test_pypi_description_renders_on_pypi() -> None:
    # PyPI renders plain Markdown: no YAML front matter, and links only by absolute URL (no repository beside it).
    text = (DOCS / "pypi.md").read_text(encoding="utf-8")
    assert not text.startswith("---")
    assert _relative_links(text) == []
    definitions = re.findall(r"^\[[^\]]+\]:[ \t]*(\S+)", text, flags=re.M)  # reference-style links
    assert definitions and all(re.match(r"https://", target) for target in definitions), definitions
    assert "import nerscore" in text


def test_front_matter_declares_the_space() -> None:
    front_matter = README.split("---", 2)[1]
    for line in ("sdk: gradio", "app_file: app.py", 'python_version: "3.11"', "- evaluate", "- metric"):
        assert line in front_matter.splitlines()
    import gradio

    assert f"sdk_version: {gradio.__version__}" in front_matter.splitlines()


def _cli(*arguments: str) -> str:
    return subprocess.run(
        [sys.executable, "ner_semeval.py", *arguments],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    ).stdout


def test_worked_example_output_is_what_the_cli_prints() -> None:
    # As the README says: `python ner_semeval.py examples/worked_example.conll`, from the repository folder.
    assert _cli("examples/worked_example.conll") == _code_block_after("<!-- worked-example-output -->")


def test_command_line_page_shows_what_confusion_adds() -> None:
    page = (DOCS / "command-line.md").read_text(encoding="utf-8")
    shown = _code_block_after("<!-- worked-example-confusion -->", page, "docs/command-line.md")
    printed = _cli("--confusion", "examples/worked_example.conll")
    assert printed.startswith(_cli("examples/worked_example.conll"))
    assert printed.endswith("\n" + shown)


def test_every_output_key_is_documented() -> None:
    import ner_semeval

    results = ner_semeval.compute_semeval(predictions=[["B-PER"]], references=[["B-PER"]], per_type=True)
    for key in results:
        generic = re.sub(r"^(strict|exact|partial|type)_", "{scheme}_", key.removeprefix("PER_"))
        assert generic.split("_", 1)[1] in README or generic in README, key


def test_inputs_list_every_option() -> None:
    import ner_semeval

    inputs = README.split("\n## Inputs\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^- \*\*(\w+)\*\* \(", inputs, flags=re.M)
    assert listed[:2] == ["predictions", "references"]
    assert sorted(listed[2:]) == sorted(ner_semeval.OPTION_NAMES)


def _marked_regions(path) -> list[str]:
    """The code between `# --- README ... ---` and `# --- end ---` markers, dedented."""
    import textwrap

    text = path.read_text(encoding="utf-8")
    return [
        textwrap.dedent(block) for block in re.findall(r"# --- README[^\n]*---\n(.*?)\n\s*# --- end ---", text, re.S)
    ]


def test_trainer_snippets_are_what_the_trainer_test_runs() -> None:
    trainer_page = (DOCS / "trainer.md").read_text(encoding="utf-8")
    snippets = re.findall(r"<!-- trainer-snippet -->\s*```python\n(.*?)```", trainer_page, flags=re.S)
    assert len(snippets) == 3

    def code_lines(code: str) -> list[str]:  # blank lines differ: the test's copy sits inside a function
        return [line for line in code.splitlines() if line.strip()]

    regions = [code_lines(region) for region in _marked_regions(REPO / "tests" / "test_trainer.py")]
    for snippet in snippets:
        assert code_lines(snippet) in regions, snippet


CORPUS_REFERENCES = [["B-PER", "I-PER", "O"], ["B-LOC", "O", "O"], ["O", "B-ORG", "I-ORG"]] * 40
CORPUS_PREDICTIONS = [["B-PER", "I-PER", "O"], ["B-ORG", "O", "O"], ["O", "B-ORG", "O"]] * 40


@pytest.mark.slow  # each starts processes: datasets' map, a local Dask cluster
@pytest.mark.parametrize("engine", ["datasets", "dask.distributed"])
def test_the_large_corpora_scripts_run_as_they_are(engine: str, tmp_path: Path) -> None:
    # docs/large-corpora.md says its two scripts run as they are from a folder holding outputs/*.jsonl: run each,
    # copied from the page, in such a folder, and compare its result with one compute_semeval of the same corpus.
    import json

    pytest.importorskip(engine)
    from nerscore import compute_semeval

    page = (DOCS / "large-corpora.md").read_text(encoding="utf-8")
    scripts = re.findall(r"<!-- corpus-script -->\s*```python\n(.*?)```", page, flags=re.S)
    assert len(scripts) == 2
    script = next(script for script in scripts if f"from {engine} import" in script or f"import {engine}\n" in script)
    (tmp_path / "outputs").mkdir()
    pairs = list(zip(CORPUS_PREDICTIONS, CORPUS_REFERENCES))
    for part in range(3):  # three files, as a sharded output is
        lines = [json.dumps({"predictions": p, "references": r}) for p, r in pairs[part * 40 : (part + 1) * 40]]
        (tmp_path / "outputs" / f"part{part}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    # The script's last line is in its `if __name__ == "__main__":` block (or a `with` inside it): print there.
    indent = re.match(r"\s*", script.rstrip().splitlines()[-1]).group(0)
    printed = f"{script}{indent}print(__import__('json').dumps(result))\n"
    (tmp_path / "script.py").write_text(printed, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_DATASETS_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")}
    done = subprocess.run(
        [sys.executable, "script.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    options = {"scheme": "IOB2", "bootstrap": 1000, "per_type": True}
    expected = compute_semeval(predictions=CORPUS_PREDICTIONS, references=CORPUS_REFERENCES, **options)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == json.loads(json.dumps(expected))


def test_the_conlleval_example_prints_what_the_page_shows() -> None:
    # docs/command-line.md shows a file and what `ner-semeval --conlleval < output.txt` prints for it.
    page = (DOCS / "command-line.md").read_text(encoding="utf-8")
    shown = _code_block_after("<!-- conlleval-example -->", page, "docs/command-line.md")
    head, printed = shown.split("$ ner-semeval --conlleval < output.txt\n")
    assert head.startswith("$ cat output.txt\n")
    file_text = head.removeprefix("$ cat output.txt\n")
    done = subprocess.run(
        [sys.executable, "ner_semeval.py", "--conlleval"], cwd=REPO, input=file_text, capture_output=True, text=True
    )
    assert (done.returncode, done.stdout) == (0, printed)


@pytest.mark.slow  # starts the Space's server (gradio's import alone takes seconds)
def test_the_space_client_snippet_prints_what_its_comments_say(tmp_path: Path) -> None:
    # docs/space.md shows how to call /evaluate and /compare with gradio_client: run it against `python app.py`
    # started as the page says (on another port), from the clone's folder, and hold each print to its comment.
    import socket
    import time

    pytest.importorskip("gradio_client")
    page = (DOCS / "space.md").read_text(encoding="utf-8")
    snippet = _code_block_after("<!-- client-snippet -->", page, "docs/space.md")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    assert snippet.count('"http://127.0.0.1:7860/"') == 1
    env = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False"}
    server = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env, stdout=subprocess.DEVNULL)
    try:
        for _ in range(600):
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert server.poll() is None, "app.py ended before it served"
            time.sleep(0.2)
        (tmp_path / "snippet.py").write_text(snippet.replace("http://127.0.0.1:7860/", url), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, str(tmp_path / "snippet.py")], cwd=REPO, capture_output=True, text=True, timeout=300
        )
    finally:
        server.terminate()
        server.wait(timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    comments = [line.split("  # ", 1)[1] for line in snippet.splitlines() if line.startswith("print(")]
    printed = [line for line in done.stdout.splitlines() if not line.startswith("Loaded as API: ")]  # the client's
    assert printed == comments


# The shell examples of the card and the guides (`$ ` lines and what they print), run as a user runs them from a
# clone's folder: each prints what the page shows, `...` standing for what the page leaves out (doctest's
# ELLIPSIS). `ner-semeval` and `python ner_semeval.py` are one command line (`cli.main`).
SHELL_EXAMPLES_TESTED_ELSEWHERE = {
    "$ cat output.txt": "test_the_conlleval_example_prints_what_the_page_shows",
    "$ ner-semeval --conlleval < output.txt": "test_the_conlleval_example_prints_what_the_page_shows",
    "$ python ner_semeval.py --brat examples/brat/gold examples/brat/system": "tests/test_annotations.py",
}
# Files an example names that the repository does not ship, made here as the page describes them.
SHELL_EXAMPLE_FILES = {
    "$ python ner_semeval.py predictions.conll": {  # line 12 holds an IOBES tag under the default IOB2
        "predictions.conll": "EU B-ORG B-ORG\nrejects O O\nGerman B-MISC B-MISC\ncall O O\n\nPeter B-PER B-PER\n"
        "Blackburn I-PER I-PER\n\nBRUSSELS B-LOC B-LOC\n1996-08-22 O O\n\nAda B-PER S-PER\n"
    },
    "$ python ner_semeval.py --brat gold system": {  # the system's T2 is one letter longer than its .txt has
        "gold/doc7.txt": "Ada was born in Bern.\n",
        "gold/doc7.ann": "T1\tPER 0 3\tAda\nT2\tLOC 16 20\tBern\n",
        "system/doc7.txt": "Ada was born in Bern.\n",
        "system/doc7.ann": "T1\tPER 0 3\tAda\n#1\tAnnotatorNotes T1\tthe author\nT2\tLOC 16 20\tBerne\n",
    },
    # docs/slices.md: the card's English example, and two of its entity texts as a training set's
    "$ ner-semeval test.conll --slices entity_length,sentence_length,seen --seen train_entities.txt": {
        "test.conll": (REPO / "examples" / "english_example.conll").read_text(encoding="utf-8"),
        "train_entities.txt": "Angela Merkel\nApple\n",
    },
}
# The WNUT-17 systems' outputs, which the pages say the repository does not hold.
SHELL_EXAMPLES_NOT_SHIPPED = {
    "$ python ner_semeval.py --compare spinningbytes.conll uh_ritual.conll",
    "$ python ner_semeval.py --runs arcada.conll drexel_cci.conll flytxt.conll mic-cis.conll sjtu_adapt.conll "
    "spinningbytes.conll uh_ritual.conll --bootstrap 1000",
}


def _shell_examples() -> list[tuple[str, str, str]]:
    """(page, command, what the page shows it print) of every `$ ` line of the card's and the guides' blocks."""
    examples = []
    for page in [REPO / "README.md", *sorted(DOCS.glob("*.md"))]:
        for block in re.findall(r"^```[a-z]*\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.S | re.M):
            for command, shown in re.findall(r"^(\$ [^\n]*)\n((?:(?!\$ )[^\n]*\n)*)", block, flags=re.M):
                examples.append((page.name, command, shown))
    return examples


def test_every_shell_example_is_run_or_said_to_need_files_not_shipped() -> None:
    commands = {command for _, command, _ in _shell_examples()}
    assert len(commands) >= 8
    assert set(SHELL_EXAMPLES_TESTED_ELSEWHERE) | set(SHELL_EXAMPLE_FILES) | SHELL_EXAMPLES_NOT_SHIPPED <= commands


@pytest.mark.parametrize(
    "page, command, shown",
    [
        pytest.param(page, command, shown, id=f"{page}: {command[2:60]}")
        for page, command, shown in _shell_examples()
        if command not in SHELL_EXAMPLES_TESTED_ELSEWHERE and command not in SHELL_EXAMPLES_NOT_SHIPPED
    ],
)
def test_a_shell_example_prints_what_its_page_shows(
    page: str, command: str, shown: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    import shlex

    from nerscore import cli

    for name, text in SHELL_EXAMPLE_FILES.get(command, {}).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "examples").symlink_to(REPO / "examples")
    monkeypatch.chdir(tmp_path)
    words = shlex.split(command[2:])
    program = ["ner-semeval"] if words[0] == "ner-semeval" else ["python", "ner_semeval.py"]
    assert words[: len(program)] == program, f"{page}: {command} runs no command line of the clone"
    cli.main(words[len(program) :])
    captured = capsys.readouterr()
    printed = captured.err + captured.out
    assert doctest.OutputChecker().check_output(shown, printed, doctest.ELLIPSIS), f"{command}\nprinted:\n{printed}"
