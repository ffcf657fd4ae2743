"""The metric card tells the truth: its examples run, its worked example is the CLI's output, its commands are CI's."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys

import pytest
from conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")


def _code_block_after(marker: str) -> str:
    match = re.search(re.escape(marker) + r"\s*```[a-z]*\n(.*?)```", README, flags=re.S)
    assert match, f"no code block after {marker!r} in README.md"
    return match.group(1)


def test_readme_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)  # the examples load "ner_semeval.py" by relative path, as a user in a clone does
    result = doctest.testfile(str(REPO / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0


def test_readme_opens_with_the_demo_and_test_commands() -> None:
    body = README.split("---", 2)[2]
    commands = re.findall(r"```sh\n(.*?)\n```", body, flags=re.S)
    assert commands[0] == (
        "python3 -m venv .venv && .venv/bin/pip install -r requirements.txt gradio==6.31.0 && .venv/bin/python app.py"
    )
    assert commands[1].endswith(".venv/bin/pip install -r requirements-dev.txt && .venv/bin/python -m pytest")
    ci_lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert commands[1] in ci_lines, ".ci/run must run the README's test command verbatim"
    assert body.index(commands[1]) < body.index("## Metric description")


def test_front_matter_declares_the_space() -> None:
    front_matter = README.split("---", 2)[1]
    for line in ("sdk: gradio", "app_file: app.py", 'python_version: "3.11"', "- evaluate", "- metric"):
        assert line in front_matter.splitlines()
    import gradio

    assert f"sdk_version: {gradio.__version__}" in front_matter.splitlines()


def test_worked_example_output_is_what_the_cli_prints() -> None:
    # As the README says: `python ner_semeval.py examples/worked_example.conll`, from the repository folder.
    printed = subprocess.run(
        [sys.executable, "ner_semeval.py", "examples/worked_example.conll"],
        cwd=REPO,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    ).stdout
    assert printed == _code_block_after("<!-- worked-example-output -->")


def test_every_output_key_is_documented() -> None:
    import ner_semeval

    results = ner_semeval.compute_semeval(predictions=[["B-PER"]], references=[["B-PER"]], per_type=True)
    for key in results:
        generic = re.sub(r"^(strict|exact|partial|type)_", "{scheme}_", key.removeprefix("PER_"))
        assert generic.split("_", 1)[1] in README or generic in README, key


def _marked_regions(path) -> list[str]:
    """The code between `# --- README ... ---` and `# --- end ---` markers, dedented."""
    import textwrap

    text = path.read_text(encoding="utf-8")
    return [
        textwrap.dedent(block) for block in re.findall(r"# --- README[^\n]*---\n(.*?)\n\s*# --- end ---", text, re.S)
    ]


def test_trainer_snippets_are_what_the_trainer_test_runs() -> None:
    snippets = re.findall(r"<!-- trainer-snippet -->\s*```python\n(.*?)```", README, flags=re.S)
    assert len(snippets) == 3

    def code_lines(code: str) -> list[str]:  # blank lines differ: the test's copy sits inside a function
        return [line for line in code.splitlines() if line.strip()]

    regions = [code_lines(region) for region in _marked_regions(REPO / "tests" / "test_trainer.py")]
    for snippet in snippets:
        assert code_lines(snippet) in regions, snippet
