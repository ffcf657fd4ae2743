"""The package's lines, the first rows of issue 27's goals (benchmarks/redesign.py): every physical line of
nerscore/**/*.py, its code lines (no docstring, comment or blank line), and both by the issue whose capability each
module serves (`LATER_ISSUES`; every other module: issue 27's capabilities). Read as text and counted: nothing of
the package is imported or timed here."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

# The modules added for the capabilities of the issues after 27 (named as paths under nerscore/), so that the lines
# row shows what issue 27's capabilities take and what each later issue added on top; every other module of the
# package counts for issue 27's capabilities. A module a checkout lacks counts nothing.
LATER_ISSUES = {
    "28 (HIPE files)": (
        "files/hipe.py",
        "files/hipe_arrays.py",
        "files/hipe_model.py",
        "files/hipe_report.py",
        "files/hipe_table.py",
        "files/hipe_tags.py",
        "pairing/greedy.py",
    ),
    "29 (agreement)": (
        "agreement.py",
        "agreement_inputs.py",
        "agreement_intervals.py",
        "agreement_units.py",
        "statistics/agreement_coefficients.py",
        "files/agreement_files.py",
        "files/annotator_exports.py",
        "files/annotator_readers.py",
    ),
    "30 (fragments)": ("forms/fragment_arrays.py", "forms/fragment_reading.py"),
    "31 (red team: staircases, dense sentences, the value pairing, Perl patterns, python -m, onions of fragments)": (
        "pairing/staircase.py",
        "pairing/dense.py",
        "pairing/dense_matrix.py",
        "files/perl_patterns.py",
        "files/backtracking.py",
        "pairing/value_arrays.py",
        "pairing/recent.py",
        "__main__.py",
        "forms/fragment_large.py",
    ),
}


def code_lines(source: str) -> int:
    """The lines that hold code: not blank, not only a comment, not part of a docstring (a string that is the first
    statement of a module, class or function)."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                docstrings.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    skipped = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}
    held: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skipped:
            held.update(range(token.start[0], token.end[0] + 1))
    return len(held - docstrings)


def package_lines(repo: Path) -> dict[str, int]:
    """The package's physical lines and code lines (`code_lines`), in all and by the issue whose capability each
    module serves (`LATER_ISSUES`; every other module: issue 27's capabilities)."""
    issue_of = {module: name for name, modules in LATER_ISSUES.items() for module in modules}
    counts = {f"{kind}/{name}": 0 for kind in ("lines", "code") for name in ("all", "27", *LATER_ISSUES)}
    package = repo / "nerscore"
    for path in sorted(package.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        issue = issue_of.get(path.relative_to(package).as_posix(), "27")
        for kind, number in (("lines", len(source.splitlines())), ("code", code_lines(source))):
            counts[f"{kind}/all"] += number
            counts[f"{kind}/{issue}"] += number
    return counts
