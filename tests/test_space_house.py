"""The Space's layout (space/__init__.py): its modules in the order its docstring lists them, each importing only
those above it, none reaching into another's private names or the package's internals, each about 500 lines at
most, and gradio imported by `page_events` alone."""

from __future__ import annotations

import ast
import re

import pytest
from conftest import REPO

import nerscore
import space

SPACE = REPO / "space"
# The modules as space/__init__.py lists them, bottom to top: "- `caps`: ...".
ORDER = re.findall(r"^- `(\w+)`:", space.__doc__ or "", re.M)
FILES = [REPO / "app.py", *sorted(SPACE.glob("*.py"))]


def space_imports(tree: ast.Module) -> dict[str, list[str]]:
    """The Space's modules a file imports, each with the names it takes from it (`from .figures import Confusion`:
    figures -> [Confusion]; `from . import figures`: figures -> [])."""
    found: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = node.module or ""
        if node.level == 1 or module == "space" or module.startswith("space."):
            module = module.removeprefix("space").lstrip(".")
            if module:
                found.setdefault(module, []).extend(alias.name for alias in node.names)
            else:
                for alias in node.names:
                    found.setdefault(alias.name, [])
    return found


def test_the_documented_order_is_every_module():
    assert sorted(ORDER) == sorted(path.stem for path in SPACE.glob("*.py") if path.stem != "__init__")


@pytest.mark.parametrize("module", ORDER)
def test_a_module_imports_only_those_above_it(module):
    imported = set(space_imports(ast.parse((SPACE / f"{module}.py").read_text(encoding="utf-8"))))
    above = set(ORDER[: ORDER.index(module)])
    assert imported <= above, f"{module} imports {sorted(imported - above)}, which stand below it"


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_no_module_uses_another_modules_private_names(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imports = space_imports(tree)
    taken = [f"{module}.{name}" for module, names in imports.items() for name in names if name.startswith("_")]
    # `figures._label` through `from . import figures`, and the package's own: `nerscore._x`, `nerscore.x._y`.
    modules = {name for name, names in imports.items() if not names} | {"nerscore"}
    taken += [
        f"{node.value.id}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in modules
        and node.attr.startswith("_")
    ]
    assert not taken


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_the_package_is_reached_by_its_public_names_only(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    internal = [
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("nerscore")
    ]
    internal += [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name.startswith("nerscore.")
    ]
    used = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "nerscore"
    }
    assert not internal and used <= set(nerscore.__all__), (internal, sorted(used - set(nerscore.__all__)))


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_a_module_is_about_500_lines_at_most(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 500


def test_gradio_is_imported_by_page_events_alone():
    # The other modules are tested without gradio.
    importing = []
    for path in SPACE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        roots = {
            alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
        }
        roots |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        if "gradio" in roots:
            importing.append(path.stem)
    assert importing == ["page_events"]
