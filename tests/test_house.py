"""The layout of issue 15: a numpy-only scoring package, modules in the order data flows with no cycles, a thin
evaluate module over it, and one error class whichever way the metric is reached."""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import inspect
import re
import subprocess
import sys

import pytest
from conftest import METRIC_PATH, REPO, WORKED_EXAMPLE

import nerscore
from nerscore import cli
from nerscore.options import OPTION_NAMES, SPECS, TAG_OPTIONS, Options, flag_name
from nerscore.table.reducers import REDUCERS
from nerscore.tally import Tally

PACKAGE = REPO / "nerscore"
# The modules in the order data flows, as nerscore's docstring lists them: each imports only those before it. A
# dotted name is a module of a subpackage (pairing, table, forms, statistics, files), whose modules stand together.
ORDER = [
    "_version",
    "errors",
    "grouping",
    "span",
    "schemes",
    "option_checks",
    "option_flags",
    "options",
    "decoding",
    "pairing.assignment",
    "pairing.recent",
    "pairing.staircase",
    "pairing.tight_matchings",
    "pairing.large_components",
    "pairing.overlaps",
    "pairing.dense_matrix",
    "pairing.dense",
    "pairing.rules",
    "pairing.value",
    "pairing.value_arrays",
    "pairing.greedy",
    "measures",
    "error_table",
    "tally",
    "stacked_scores",
    "result_scores",
    "table.columns",
    "table.pairs",
    "table.row_texts",
    "table.slices",
    "table.findings",
    "table.reducers",
    "forms.inputs",
    "forms.batches",
    "forms.readable",
    "forms.tag_arrays",
    "forms.component_arrays",
    "forms.fragment_reading",
    "forms.fragment_large",
    "forms.fragment_arrays",
    "forms.span_arrays",
    "forms.staged_grounding",
    "forms.joint_grounding",
    "forms.grounding",
    "forms.string_arrays",
    "forms.string_batches",
    "forms.registry",
    "statistics.unit_counts",
    "statistics.sample_statistics",
    "statistics.resampling",
    "statistics.paired_comparison",
    "statistics.run_statistics",
    "statistics.agreement_coefficients",
    "compute",
    "accumulator",
    "stored_batches",
    "systems",
    "runs",
    "agreement_inputs",
    "agreement_units",
    "agreement_intervals",
    "agreement",
    "files.readers",
    "files.annotations",
    "files.tables",
    "files.backtracking",
    "files.perl_patterns",
    "files.conlleval",
    "files.file_counts",
    "files.hipe_model",
    "files.hipe_arrays",
    "files.hipe",
    "files.hipe_tags",
    "files.hipe_table",
    "files.reports",
    "files.hipe_report",
    "files.annotator_readers",
    "files.annotator_exports",
    "files.agreement_files",
    "cli",
    "__main__",
]
# A module's tests are in tests/test_<its name>.py (`pairing.rules`: test_rules.py), except these, tested where a
# concern that spans modules is: so that a contributor who finds no file named after the module knows where to look.
TESTED_ELSEWHERE = {
    "_version": "test_house.py and test_install.py (the versions the package and the evaluate module agree on)",
    "span": "test_spans.py (span input, nested and repeated)",
    "schemes": "test_decoding.py (each scheme decoded and encoded)",
    "forms.inputs": "test_errors.py (bad input, located), test_columns.py, test_registry.py",
    "forms.batches": "test_errors.py (sides misaligned, ids without label_list or outside it), test_registry.py",
    "forms.fragment_reading": "test_fragment_arrays.py (read through span_arrays, against the readable path)",
    "forms.fragment_large": "test_fragment_arrays.py (dense sentences of fragments, against the readable path)",
    "forms.staged_grounding": "test_typesflow.py (against §1b's rows on every shape, and the exhaustive oracle)",
    "forms.readable": "test_tag_arrays.py and test_span_arrays.py (the array paths against the readable path)",
    "table.pairs": "test_reducers.py (tables made by hand), test_tag_arrays.py and test_span_arrays.py",
    "table.row_texts": "test_slices.py (the seen slice's texts against every text made), test_findings.py (errors')",
    "option_flags": "test_cli.py (each flag's text: --value's and --seen's files, --labels, --partial-credit)",
    "systems": "test_compare_inputs.py (compare_semeval's inputs), test_paired_comparison.py (its statistics)",
    "statistics.run_statistics": "test_runs.py (several runs per system)",
    "files.readers": "test_cli.py, test_spans.py, test_annotations.py (files read through the command line)",
    "files.perl_patterns": "test_conlleval.py (-d read as Perl reads it, against perl where it is installed)",
    "files.backtracking": "test_conlleval.py (the -d patterns refused as costly, those conlleval users pass read)",
    "files.tables": "test_cli.py, test_confusion.py (the command line's tables)",
    "files.file_counts": "test_cli.py, test_statistics.py, test_spans.py (files counted in chunks)",
    "files.reports": "test_cli.py (what the command line prints)",
    "agreement_inputs": "test_agreement.py (bad annotations refused, naming the annotator and where)",
    "agreement_units": "test_agreement.py (the units and their labels against an independent reading of §13)",
    "agreement_intervals": "test_agreement.py (distinct units, the intervals' coverage and their refusal)",
    "files.annotator_readers": "test_agreement_files.py (CoNLL, BRAT and JSON lines of annotators, as files)",
    "files.annotator_exports": "test_agreement_files.py (Label Studio's and doccano's exports, as files)",
    "pairing.tight_matchings": "test_large_components.py, test_dense.py (rule (d) against every pairing enumerated), "
    "test_spans.py (usable edges against every flow enumerated)",
    "pairing.dense_matrix": "test_dense.py (the 'matrix' way: every dense sentence solved on its whole matrix)",
    "__main__": "test_cli.py (python -m nerscore and python -m nerscore.cli run the command line)",
}
HEAVY = ("evaluate", "datasets", "transformers", "torch", "pandas", "pyarrow", "gradio", "matplotlib", "scipy")


def module_name(path) -> str:
    """The dotted name of a module of the package: `pairing.rules` for nerscore/pairing/rules.py."""
    return ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def imported_modules(path) -> set[str]:
    """Every nerscore module `path` imports, at the top or inside a function (relative of any level, or absolute),
    as dotted module names: `from ..table import reducers` in forms/readable.py is `table.reducers`."""
    package = list(path.relative_to(PACKAGE).parent.parts)
    modules = {module_name(module) for module in PACKAGE.rglob("*.py")}

    def resolved(parts: list[str], names: list[str]) -> set[str]:
        found = set()
        dotted = ".".join(parts)
        for name in names:  # from package import module, or names of a module
            if f"{dotted}.{name}".lstrip(".") in modules:
                found.add(f"{dotted}.{name}".lstrip("."))
            else:  # a module's names (or a module unknown, which the order then refuses)
                found.add(dotted)
        return found

    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            module = (node.module or "").split(".") if node.module else []
            if node.level:
                base = package[: len(package) - node.level + 1]
            elif module[:1] == ["nerscore"]:
                base, module = [], module[1:]
            else:
                continue
            names |= resolved(base + module, [alias.name for alias in node.names])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("nerscore."):
                    names.add(alias.name.removeprefix("nerscore."))
    return names - {""}


# "About 500 lines at most" a module (docs/architecture.md): a little slack for a docstring, none for a second
# responsibility.
MODULE_LINES = 510


def test_modules_are_about_500_lines_at_most() -> None:
    lines = {module_name(path): len(path.read_text(encoding="utf-8").splitlines()) for path in PACKAGE.rglob("*.py")}
    assert {name: number for name, number in lines.items() if number > MODULE_LINES} == {}


# Issue 27: the evaluate module is thin over the package, as evaluate's seqeval metric over seqeval (what it stores
# across batches, processes and failed computes is nerscore/stored_batches.py).
METRIC_LINES = 450


def test_the_evaluate_module_is_450_lines_at_most() -> None:
    assert len(METRIC_PATH.read_text(encoding="utf-8").splitlines()) <= METRIC_LINES


def test_the_documented_order_is_every_module() -> None:
    assert sorted(ORDER) == sorted(module_name(path) for path in PACKAGE.rglob("*.py") if path.stem != "__init__")
    documented = re.search(r"Modules, in the order data flows.*?: (.*?)\.\n", nerscore.__doc__ or "", re.S)
    assert documented is not None
    assert [name.strip() for name in documented.group(1).replace("\n", " ").split(",")] == ORDER[1:]


def drawn_house() -> list[str]:
    """The modules docs/architecture.md draws, in its order: its second code block, a subpackage's modules indented
    under its `name/` line."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = re.findall(r"```\n(.*?)```", text, re.S)[1]
    names, package = [], None
    for line in block.splitlines():
        if found := re.match(r"  (\w+)/\s", line):
            package = found.group(1)
        elif (found := re.match(r"    (\w+)\s", line + " ")) and package:
            names.append(f"{package}.{found.group(1)}")
        elif found := re.match(r"  (\w+)\s", line + " "):
            package = None
            names.append(found.group(1))
    return names


def test_the_drawn_house_is_the_order() -> None:
    # A newcomer reads the house in docs/architecture.md: every module, none that is gone, in the order of ORDER.
    assert drawn_house() == ORDER


def test_each_subpackage_stands_together_in_the_order() -> None:
    subpackages = [name.split(".")[0] for name in ORDER if "." in name]
    for subpackage in set(subpackages):
        places = [index for index, name in enumerate(ORDER) if name.startswith(f"{subpackage}.")]
        assert places == list(range(places[0], places[-1] + 1)), f"{subpackage}'s modules are not together"
    packages = {path.parent.name for path in PACKAGE.rglob("__init__.py") if path.parent != PACKAGE}
    assert packages == set(subpackages)
    for package in packages:  # a layer's docstring says what it is, and it re-exports nothing
        tree = ast.parse((PACKAGE / package / "__init__.py").read_text(encoding="utf-8"))
        assert ast.get_docstring(tree) and len(tree.body) == 1, package


def test_each_module_has_a_test_file_named_after_it() -> None:
    tests = REPO / "tests"
    named = {module: tests / f"test_{module.split('.')[-1]}.py" for module in ORDER}
    missing = [module for module, path in named.items() if not path.exists() and module not in TESTED_ELSEWHERE]
    assert not missing, f"no tests/test_<module>.py for {missing}: add one, or say in TESTED_ELSEWHERE where they are"
    # An exception that has its own file now is no longer one; an exception is a module of the package.
    assert not [module for module in TESTED_ELSEWHERE if named.get(module, tests / "-").exists()]
    assert set(TESTED_ELSEWHERE) <= set(ORDER)


def marked_slow(node: ast.AST) -> bool:
    """Whether a decorator or a `pytestmark` value marks slow (`pytest.mark.slow`, conftest's `slow`)."""
    return bool(re.search(r"(^|\W)(mark\.)?slow\b", ast.unparse(node)))


def every_case_slow(decorator: ast.expr) -> bool:
    """Whether a `parametrize` decorator's values are a written-out list of `pytest.param`s each marked slow."""
    if not (isinstance(decorator, ast.Call) and "parametrize" in ast.unparse(decorator.func)):
        return False
    values = decorator.args[1] if len(decorator.args) > 1 else None
    return isinstance(values, ast.List | ast.Tuple) and all(
        isinstance(value, ast.Call)
        and ast.unparse(value.func).endswith("param")
        and any(keyword.arg == "marks" and marked_slow(keyword.value) for keyword in value.keywords)
        for value in values.elts
    )


def quick_tests(path) -> list[str]:
    """The test functions of a test file that the quick profile (`-m "not slow"`, tests/conftest.py) runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if any(
        isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "pytestmark" and marked_slow(node.value)
        for node in tree.body
    ):
        return []

    def slow(decorator: ast.expr) -> bool:  # the test marked slow, or each of its cases
        if "parametrize" in ast.unparse(decorator):
            return every_case_slow(decorator)
        return marked_slow(decorator)

    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and node.name.startswith("test_")
        and not any(slow(decorator) for decorator in node.decorator_list)
    ]


def test_each_module_keeps_a_quick_test() -> None:
    # The quick profile covers every module (README: Contributing): a test file named after a module is not all
    # slow; a module tested elsewhere is named with the files that test it, which hold quick tests too.
    tests = REPO / "tests"
    files = {module: tests / f"test_{module.split('.')[-1]}.py" for module in ORDER}
    files |= {
        module: tests / name
        for module, where in TESTED_ELSEWHERE.items()
        for name in re.findall(r"test_\w+\.py", where)[:1]
    }
    assert not [module for module, path in files.items() if not quick_tests(path)]
    assert quick_tests(tests / "test_install.py") == []  # (a file whose every test is slow)


@pytest.mark.parametrize("module", ORDER)
def test_a_module_imports_only_what_stands_below_it(module: str) -> None:
    imported = imported_modules(PACKAGE / (module.replace(".", "/") + ".py"))
    below = set(ORDER[: ORDER.index(module)])
    assert imported <= below, f"{module} imports {sorted(imported - below)}, which stand above it"


def test_the_package_imports_numpy_and_the_standard_library_only() -> None:
    # The command line's modules (and argparse) load only when `nerscore.main` is called.
    command_line = (
        "argparse",
        "nerscore.cli",
        "nerscore.files.file_counts",
        "nerscore.files.reports",
        "nerscore.files.hipe_report",
    )
    probe = f"import sys, nerscore\nprint(sorted(name for name in {HEAVY + command_line!r} if name in sys.modules))\n"
    printed = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True)
    assert printed.stdout.strip() == "[]"
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        roots = {
            alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
        }
        roots |= {
            node.module.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
        }
        # scipy only inside the functions that need it (the probe above): where very large components are solved,
        # Student's t of the runs' comparison (run_statistics), and the slices' bucket columns of each sentence,
        # held sparse for bootstrap (table.slices, statistics.unit_counts).
        with_scipy = (
            "pairing.tight_matchings",
            "pairing.large_components",
            "statistics.run_statistics",
            "statistics.unit_counts",
            "table.slices",
        )
        allowed = {"numpy", "nerscore"} | ({"scipy"} if module_name(path) in with_scipy else set())
        third_party = roots - set(sys.stdlib_module_names) - allowed
        assert not third_party, f"{path.name} imports {sorted(third_party)}"


# What `import nerscore` leaves for the first use of a name of theirs (nerscore/__init__.py's `__getattr__`):
# agreement (and fractions, which only it needs at import), the files' readers and tables, HIPE, systems and runs;
# the resampling's modules, which the first `bootstrap` loads (compute.result_dict); the span path's arrays, which the
# first spans load.
LOADED_ON_FIRST_USE = (
    "fractions",
    "nerscore.agreement",
    "nerscore.agreement_units",
    "nerscore.files.agreement_files",
    "nerscore.files.annotations",
    "nerscore.files.annotator_exports",
    "nerscore.files.annotator_readers",
    "nerscore.files.hipe",
    "nerscore.files.hipe_model",
    "nerscore.files.hipe_table",
    "nerscore.files.readers",
    "nerscore.files.tables",
    "nerscore.forms.component_arrays",
    "nerscore.forms.fragment_arrays",
    "nerscore.forms.fragment_reading",
    "nerscore.forms.span_arrays",
    "nerscore.runs",
    "nerscore.statistics.paired_comparison",
    "nerscore.statistics.resampling",
    "nerscore.statistics.sample_statistics",
    "nerscore.systems",
)


def test_the_package_loads_files_agreement_and_comparisons_on_first_use() -> None:
    probe = (
        "import sys, nerscore\n"
        f"print(sorted(name for name in {LOADED_ON_FIRST_USE!r} if name in sys.modules))\n"
        "import nerscore.files.agreement_files\n"  # loads the module nerscore.agreement, not through the package
        "print(callable(nerscore.agreement))\n"
        "from nerscore import *\n"
        "print(all(name in dir(nerscore) for name in nerscore.__all__))\n"
        f"print(sorted(name for name in {LOADED_ON_FIRST_USE!r} if name not in sys.modules))\n"
    )
    printed = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, check=True)
    assert printed.stdout.split("\n")[:4] == ["[]", "True", "True", "[]"]
    # Each name is its module's, whichever way it is reached (this process has imported every module by now).
    for name in nerscore.__all__:
        value = getattr(nerscore, name)
        defined = getattr(value, "__module__", None)
        if defined and defined.startswith("nerscore."):  # a function or a class (not a constant)
            assert getattr(sys.modules[defined], name) is value, name
    with pytest.raises(AttributeError, match="no attribute 'agreemnt'"):
        nerscore.agreemnt  # noqa: B018


def test_the_package_is_typed_and_licensed() -> None:
    assert (PACKAGE / "py.typed").exists()
    assert "Apache License" in (REPO / "LICENSE").read_text(encoding="utf-8")
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    floor = re.search(r'"setuptools>=(\d+)"', pyproject)
    assert 'license = "Apache-2.0"' in pyproject and floor is not None and int(floor.group(1)) >= 77


def test_every_public_name_is_in_both_the_package_and_the_module() -> None:
    import ner_semeval

    for name in nerscore.__all__:
        assert getattr(ner_semeval, name) is getattr(nerscore, name), name
    assert "NerSemeval" in ner_semeval.__all__


def test_the_module_runs_the_command_line_before_importing_evaluate() -> None:
    tree = ast.parse(METRIC_PATH.read_text(encoding="utf-8"))
    statements = list(tree.body)

    def position(predicate) -> int:
        return next(index for index, node in enumerate(statements) if predicate(node))

    main_block = position(lambda node: isinstance(node, ast.If) and "__main__" in ast.unparse(node.test))
    evaluate_import = position(lambda node: isinstance(node, ast.Import) and node.names[0].name == "evaluate")
    assert main_block < evaluate_import
    # evaluate's template order: the citation, the description, the arguments, then the metric.
    names = [
        node.targets[0].id
        for node in statements
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id.startswith("_")
    ]
    assert [name for name in names if name in ("_CITATION", "_DESCRIPTION", "_KWARGS_DESCRIPTION")] == [
        "_CITATION",
        "_DESCRIPTION",
        "_KWARGS_DESCRIPTION",
    ]
    assert position(lambda node: isinstance(node, ast.ClassDef) and node.name == "NerSemeval") > evaluate_import
    # evaluate reads a comment after an import as part of the pip name it asks for (NOTES: evaluate).
    for line in METRIC_PATH.read_text(encoding="utf-8").splitlines():
        if re.match(r"(import|from) ", line):
            assert "#" not in line, line


def test_the_module_refuses_a_package_of_another_version(monkeypatch: pytest.MonkeyPatch) -> None:
    import ner_semeval

    assert nerscore.__version__ == ner_semeval.NERSCORE_VERSION
    monkeypatch.setattr(nerscore, "__version__", "0.0.1")
    spec = importlib.util.spec_from_file_location("ner_semeval_copy", METRIC_PATH)
    module = importlib.util.module_from_spec(spec)
    # nerscore is not on PyPI: the command installs this clone's (README: Loading).
    with pytest.raises(ImportError, match=r"written for nerscore .*, found nerscore 0\.0\.1.*pip install -e "):
        spec.loader.exec_module(module)


def test_an_error_through_evaluate_load_is_the_package_class(metric) -> None:
    # evaluate.load imports its own copy of ner_semeval.py; the error class is the package's all the same.
    with pytest.raises(nerscore.InvalidInputError) as raised:
        metric.compute(predictions=[["B-PER", "X-PER"]], references=[["B-PER", "O"]])
    assert isinstance(raised.value, ValueError)
    assert (raised.value.side, raised.value.sentence, raised.value.token) == ("predictions", 0, 1)
    assert type(metric).__module__ != "ner_semeval"  # it really is evaluate's copy
    with pytest.raises(nerscore.InvalidInputError):
        metric.add_batch(predictions=[["B-PER"]], references=[["B-PER", "O"]])


@pytest.mark.slow
def test_without_the_package_evaluate_names_the_pip_command(tmp_path) -> None:
    # From a folder where nerscore cannot be imported (not a clone's; an installed one is hidden), as on the Hub
    # before `pip install`: the message names the command that installs this clone, not `pip install nerscore`,
    # which no index has (README: Loading).
    probe = (
        "import sys, evaluate\n"
        "sys.modules['nerscore'] = None\n"
        "try:\n"
        f"    evaluate.load({str(METRIC_PATH)!r})\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    environment = {"HF_EVALUATE_OFFLINE": "1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    printed = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300
    ).stdout
    assert f"needs the package nerscore, which is not importable here; install it: pip install -e {REPO}" in printed


@pytest.mark.slow
def test_without_the_package_the_command_names_the_clone_loaded_not_the_first_one(tmp_path) -> None:
    # evaluate writes the path a file was first loaded from beside its cached copy, once per content: after another
    # clone's identical ner_semeval.py was loaded, the message still names the clone evaluate.load was given now.
    other = tmp_path / "other clone"
    (other / "nerscore").mkdir(parents=True)
    (other / "pyproject.toml").write_text("", encoding="utf-8")
    (other / "ner_semeval.py").write_bytes(METRIC_PATH.read_bytes())
    probe = (
        "import sys, evaluate\n"
        "sys.modules['nerscore'] = None\n"
        f"for path in ({str(other / 'ner_semeval.py')!r}, {str(METRIC_PATH)!r}):\n"
        "    try:\n"
        "        evaluate.load(path)\n"
        "    except ImportError as error:\n"
        "        print(error)\n"
    )
    environment = {"HF_EVALUATE_OFFLINE": "1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    printed = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=300
    ).stdout.splitlines()
    assert len(printed) == 2, printed
    assert printed[0].endswith(f"install it: pip install -e '{other}'")
    assert printed[1].endswith(f"install it: pip install -e {REPO}")


# A value of each option other than its default, as a Python caller gives it and as the command line's flag takes it
# (None: the option has no flag, `Spec.flag`). A new option fails the tests below until it has its line here, and
# then they check that it reaches `Options` through every front end without a list of names to extend anywhere.
OPTION_EXAMPLES: dict[str, tuple[object, list[str] | None]] = {
    "scheme": ("IOBES", ["--scheme", "IOBES"]),
    "mode": ("strict", ["--mode", "strict"]),
    "suffix": (True, ["--suffix"]),
    "labels": (["PER"], ["--labels", "PER"]),
    "min_overlap": (0.5, ["--min-overlap", "0.5"]),
    "pairing": ("hipe", ["--pairing", "hipe"]),
    "beta": (2.0, ["--beta", "2"]),
    "zero_division": (1.0, ["--zero-division", "1"]),
    "evaluation_schemes": (["strict"], ["--evaluation-schemes", "strict"]),
    "per_type": (True, ["--per-type"]),
    "return_entities": (True, None),
    "confusion": (True, ["--confusion"]),
    "label_list": (["O", "B-PER", "I-PER"], None),
    "ignore_index": (-1, None),
    "bootstrap": (20, ["--bootstrap", "20"]),
    "confidence_level": (0.9, ["--confidence-level", "0.9"]),
    "seed": (3, ["--seed", "3"]),
    "normalize": (True, ["--normalize"]),
    "slices": (["entity_length"], ["--slices", "entity_length"]),
    "slice_edges": ({"entity_length": [1, 3]}, None),
    "seen": (["John"], ["--seen", "{seen_file}"]),
    "diagnostics": (True, ["--diagnostics"]),
    "errors": (3, ["--errors", "3"]),
    "partial_credit": ("overlap", ["--partial-credit", "overlap"]),
    "value": ("ace08", ["--value", "ace08"]),
}


def test_every_option_has_an_example_other_than_its_default() -> None:
    assert list(OPTION_EXAMPLES) == list(OPTION_NAMES)
    for name, (value, flag) in OPTION_EXAMPLES.items():
        assert getattr(Options.of(**{name: value}), name) != getattr(Options(), name), name
        assert (flag is None) == (SPECS[name].flag is None) and (flag is None or flag[0] == flag_name(name)), name


@pytest.mark.parametrize("name", [name for name, (_, flag) in OPTION_EXAMPLES.items() if flag is not None])
def test_every_flagged_option_reaches_the_command_lines_options(
    name: str, tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Through `main`, as a user types the flag: the options the file is counted with hold the example's value.
    seen_file = tmp_path / "seen.txt"
    seen_file.write_text("John\n", encoding="utf-8")
    value, flag = OPTION_EXAMPLES[name]
    assert flag is not None
    counted_with = []

    def count_tag_file(handle, source, total, *rest):
        counted_with.append(total.options)
        raise ValueError("counted")

    monkeypatch.setattr(cli, "count_tag_file", count_tag_file)
    argv = [part.format(seen_file=seen_file) for part in flag]
    assert cli.main([str(WORKED_EXAMPLE), *argv]) == 2 and "counted" in capsys.readouterr().err
    assert getattr(counted_with[0], name) == getattr(Options.of(**{name: value}), name)


def test_every_option_reaches_the_evaluate_modules_options(metric, monkeypatch: pytest.MonkeyPatch) -> None:
    # evaluate's copy of ner_semeval.py takes every option by the table's names (OPTION_NAMES), at load time and in
    # `compute`: each example reaches the options it scores with.
    module = sys.modules[type(metric).__module__]
    scored_with = []
    monkeypatch.setattr(module, "compute_checked", lambda *given: scored_with.append(given[2]) or {})
    for name, (value, _) in OPTION_EXAMPLES.items():
        metric.compute(predictions=[["O"]], references=[["O"]], **{name: value})
        assert getattr(scored_with[-1], name) == getattr(Options.of(**{name: value}), name), name
    assert module.OPTION_NAMES == OPTION_NAMES


def test_the_overall_options_leave_out_every_adding_option_and_keep_the_rest() -> None:
    # What agreement's pooled scores are counted with (`Options.overall`), read off Options.ADDING.
    for name, (value, _) in OPTION_EXAMPLES.items():
        given = Options.of(**{name: value})
        assert given.overall() == (Options() if name in Options.ADDING else given), name


def test_an_accumulators_result_takes_the_reported_options_and_refuses_the_rest() -> None:
    # `Accumulator.result(options)` reads Options.REPORTED: each of its options changes the result of batches
    # counted without it; every other option's example is refused there, never answered from other counts.
    from nerscore import Accumulator

    counted = Accumulator(Options()).update(predictions=[["B-PER", "O"]], references=[["B-PER", "B-LOC"]])
    assert set(Options.REPORTED) <= {field.name for field in dataclasses.fields(Options)}
    for name, (value, _) in OPTION_EXAMPLES.items():
        asked = Options.of(**{name: value})
        if name in Options.REPORTED:
            counted.result(asked)
        elif asked != Options() and name not in (*Options.ADDING, "value"):
            with pytest.raises(ValueError, match=f"options asks for {name}"):
                counted.result(asked)


def test_the_options_that_describe_tags_are_refused_with_spans_by_their_row() -> None:
    # `Spec.tags` in an option's row is all it takes: check_span_options and the metric's docstring read the table.
    import ner_semeval

    assert TAG_OPTIONS == ("scheme", "mode", "suffix", "label_list")
    for name in TAG_OPTIONS:
        with pytest.raises(ValueError, match=rf"^{name} given with span input; scheme, mode, suffix and label_list "):
            nerscore.compute_semeval(
                predictions=[[(0, 1, "A")]], references=[[(0, 1, "A")]], **{name: OPTION_EXAMPLES[name][0]}
            )
    assert "`scheme`, `mode`, `suffix` and `label_list` describe tags" in ner_semeval._KWARGS_DESCRIPTION


# A sentence with a partial match whose overlap is not half (partial_credit="overlap" changes the partial scores),
# and a wrong type: every reducer an option asks for has something to count.
REDUCED = {
    "predictions": [["B-PER", "I-PER", "O", "B-LOC"]],
    "references": [["B-PER", "I-PER", "I-PER", "O"]],
    "tokens": [["John", "Smith", "Jr", "said"]],
}


def test_every_reducer_reaches_the_result_through_its_option() -> None:
    # docs/architecture.md, "Adding a reducer": a reducer of the registry is asked for by an option of the table, and
    # what it reduces is in the result (`compute.result_dict`), through compute_semeval and the accumulator alike.
    plain = nerscore.compute_semeval(**REDUCED)
    for reducer in REDUCERS:
        if reducer.wanted(Options()):  # the cells: the scores themselves
            continue
        asking = [name for name, (value, _) in OPTION_EXAMPLES.items() if reducer.wanted(Options.of(**{name: value}))]
        assert asking, f"no option of the table asks for the reducer {reducer.field}"
        for name in asking:
            options = {name: OPTION_EXAMPLES[name][0]}
            result = nerscore.compute_semeval(**REDUCED, **options)
            assert result != plain, (reducer.field, name)
            accumulated = nerscore.Accumulator.of(**options).update(**REDUCED).result()
            assert accumulated == result, (reducer.field, name)
            # An accumulator of nothing gives the same keys (compute_semeval of no sentence).
            empty = nerscore.Accumulator.of(**options).result(token_accuracy=True)
            assert set(empty) - {"token_accuracy"} <= set(result), (reducer.field, name)
            # What the result builder adds beyond the scores (`result_scores.scores`, which the runs and the
            # comparisons report) is asked for by an option of Options.ADDING, which they refuse, never drop.
            tally = nerscore.Accumulator.of(**options).update(**REDUCED).tally
            if result != nerscore.scores(tally, Options.of(**options)):
                assert name in Options.ADDING, (reducer.field, name)


def test_the_tally_adds_each_field_as_the_field_declares() -> None:
    # docs/architecture.md, "Adding a reducer": a reducer's field on Tally says how it adds (`tally.summed`), and
    # `Tally.__add__` names no field, so that a new field needs no line there.
    fields = dataclasses.fields(Tally)
    assert [field.name for field in fields if "sum" not in field.metadata] == []
    source = inspect.getsource(Tally.__add__)
    assert [field.name for field in fields if re.search(rf"\b{field.name}\b", source)] == []


COMPARISONS = {
    "--compare": ["--compare", str(WORKED_EXAMPLE), str(WORKED_EXAMPLE), "--bootstrap", "200"],
    "--runs": ["--runs", str(WORKED_EXAMPLE), str(WORKED_EXAMPLE)],
    "--runs-b": ["--runs", str(WORKED_EXAMPLE), "--runs-b", str(WORKED_EXAMPLE), "--bootstrap", "200"],
}


@pytest.mark.parametrize("comparison", COMPARISONS)
def test_the_comparisons_print_or_refuse_every_adding_option(
    comparison: str, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An option that adds to the result (Options.ADDING) given to a comparison of systems or runs is printed or
    # refused, never silently ignored (--runs dropped --errors, --runs-b --diagnostics and --errors): cli.py
    # refuses every one its reports do not print, without a list of them to extend.
    seen_file = tmp_path / "seen.txt"
    seen_file.write_text("John\n", encoding="utf-8")
    argv = COMPARISONS[comparison]

    def status_of(argv: list[str]) -> int:  # (argparse's errors exit)
        try:
            return cli.main(argv)
        except SystemExit as exit:
            return int(exit.code or 0)

    assert status_of(argv) == 0
    plain = capsys.readouterr().out
    for name in Options.ADDING:
        flag = OPTION_EXAMPLES[name][1]
        if flag is None or (name == "bootstrap" and "--bootstrap" in argv):
            continue
        status = status_of([*argv, *(part.format(seen_file=seen_file) for part in flag)])
        printed = capsys.readouterr()
        if status == 0:
            assert printed.out != plain, f"{comparison} ignores {flag[0]}"
        else:
            assert status == 2 and flag[0] in printed.err and "drop" in printed.err, (comparison, name)
