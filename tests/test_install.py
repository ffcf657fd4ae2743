"""`pip install .` installs the package `nerscore`, the evaluate module `ner_semeval` and the `ner-semeval` command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The project built as a wheel and installed (without its dependencies, which the test venv has) into a
    folder of its own, as `pip install .` would install it into a site-packages."""
    folder = tmp_path_factory.mktemp("install")
    wheels = folder / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels), str(REPO)], check=True, capture_output=True)
    target = folder / "site"
    (wheel,) = wheels.glob("nerscore-*.whl")
    subprocess.run([*pip, "install", "--no-deps", "--target", str(target), str(wheel)], check=True, capture_output=True)
    return target


def run(installed: Path, *command: str, cwd: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(installed), "HF_EVALUATE_OFFLINE": "1"}
    return subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=300)


def test_the_command_is_the_same_command_line(installed: Path, tmp_path: Path) -> None:
    example = REPO / "examples" / "worked_example.conll"
    expected = subprocess.run(
        [sys.executable, str(REPO / "ner_semeval.py"), str(example)], capture_output=True, text=True, check=True
    ).stdout
    command = run(installed, str(installed / "bin" / "ner-semeval"), str(example), cwd=tmp_path)
    assert command.returncode == 0, command.stderr
    assert command.stdout == expected


def test_the_module_imports_anywhere_and_loads_through_evaluate(installed: Path, tmp_path: Path) -> None:
    probe = (
        "import evaluate, ner_semeval\n"
        "print(ner_semeval.__file__)\n"
        "metric = evaluate.load(ner_semeval.__file__)\n"
        "print(metric.compute(predictions=[['B-PER']], references=[['B-PER']])['strict_f1'])\n"
    )
    result = run(installed, sys.executable, "-c", probe, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    path, score = result.stdout.split()
    assert Path(path).parent == installed
    assert score == "1.0"


def test_the_package_installs_typed_with_its_command(installed: Path, tmp_path: Path) -> None:
    import nerscore

    probe = "import pathlib, nerscore\nprint(pathlib.Path(nerscore.__file__).parent)\n"
    result = run(installed, sys.executable, "-c", probe, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    package = Path(result.stdout.strip())
    assert package == installed / "nerscore" and (package / "py.typed").exists()
    version = run(installed, str(installed / "bin" / "ner-semeval"), "--version", cwd=tmp_path)
    assert version.stdout == f"ner-semeval {nerscore.__version__}\n"


def test_the_wheel_describes_itself_for_pypi(installed: Path) -> None:
    import nerscore

    (metadata,) = installed.glob("nerscore-*.dist-info/METADATA")
    headers, _, description = metadata.read_text(encoding="utf-8").partition("\n\n")
    assert f"Version: {nerscore.__version__}" in headers.splitlines()
    assert "License-Expression: Apache-2.0" in headers.splitlines()
    assert "Description-Content-Type: text/markdown" in headers.splitlines()
    assert "Requires-Dist: numpy" in headers.splitlines()
    # PyPI's page is docs/pypi.md, not the Space's metric card with its YAML front matter.
    assert description.strip() == (REPO / "docs" / "pypi.md").read_text(encoding="utf-8").strip()
    assert not description.startswith("---")


def test_the_readme_set_up_lets_a_script_anywhere_load_the_metric(tmp_path: Path) -> None:
    # The newcomer's first step: the README's set-up, then a train.py in another folder that loads the metric by its
    # absolute path. The set-up's own pip arguments (not its requirement files, which the test venv already has, seen
    # through a .pth) are installed into a fresh venv, offline.
    import re
    import sysconfig

    readme = (REPO / "README.md").read_text(encoding="utf-8").split("---", 2)[2]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    (site,) = (venv / "lib").glob("python3*/site-packages")
    (site / "shared.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    for command in re.findall(r"```sh\n(.*?)\n```", readme, flags=re.S)[:2]:
        words = re.search(r"\.venv/bin/pip install ([^&]*)", command).group(1).split()
        pinned = {word for index, word in enumerate(words) if "-r" in (word, words[index - 1]) or "==" in word}
        own = [word for word in words if word not in pinned]
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", "--python", str(python), "install"]
        installed = subprocess.run(
            [*pip, "--no-deps", "--no-build-isolation", *own], cwd=REPO, capture_output=True, text=True
        )
        assert installed.returncode == 0, (command, installed.stderr)
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "train.py").write_text(
        "import evaluate, nerscore\n"
        f"metric = evaluate.load({str(REPO / 'ner_semeval.py')!r})\n"
        "print(metric.compute(predictions=[['B-PER']], references=[['B-PER']])['strict_f1'], nerscore.__file__)\n",
        encoding="utf-8",
    )
    environment = {**os.environ, "HF_EVALUATE_OFFLINE": "1", "PYTHONPATH": "", "HOME": str(tmp_path)}
    result = subprocess.run(
        [str(python), "train.py"], cwd=folder, env=environment, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    score, package = result.stdout.split()
    assert score == "1.0"
    assert Path(package) == REPO / "nerscore" / "__init__.py"  # editable: the clone stays the source


def test_without_the_extra_the_module_names_it(installed: Path, tmp_path: Path) -> None:
    # `pip install .` without [evaluate]: `import ner_semeval` names the extra, not a bare "No module named datasets".
    probe = "import sys\nsys.modules['datasets'] = None\nimport ner_semeval\n"
    result = run(installed, sys.executable, "-c", probe, cwd=tmp_path)
    assert result.returncode != 0
    message = result.stderr.strip().splitlines()[-1]
    assert message.startswith("ModuleNotFoundError: the evaluate module ner_semeval needs datasets"), message
    assert "[evaluate] extra: pip install" in message and "[evaluate]'" in message
