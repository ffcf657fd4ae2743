"""The results as text tables: the summary (docs/scoring.md §6), per type, the confusion matrix and a comparison of
two systems. The command line prints them; the Space lays its tables out from `summary_rows` too."""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar, cast

from ..error_table import ERROR_FIELDS
from ..errors import InvalidInputError, shown
from ..options import EVALUATION_SCHEMES, f_key
from ..tally import DIAGNOSTIC_KEYS

# The summary table's columns, from the most lenient scheme to the strictest (docs/scoring.md §6), and its
# rows: the MUC counts, then the scores. The command line and the Space both lay the table out from these.
SUMMARY_COLUMNS = ("type", "partial", "exact", "strict")
SUMMARY_MEASURES = ("correct", "incorrect", "partial", "missed", "spurious", "precision", "recall")


_Format = TypeVar("_Format", bound=Callable[..., Any])


def _refusing(what: str, name: str = "results") -> Callable[[_Format], _Format]:
    """A public formatter that says what it takes: its first argument (`name`) no dict, or a dict without a key it
    reads, is an `InvalidInputError` naming the argument and the key (a KeyError, or "argument of type 'NoneType'
    is not iterable", before), `what` saying what it expects. (Its beta is checked by `f_key`.)"""

    def refusing(function: _Format) -> _Format:
        @functools.wraps(function)
        def checked(results: Any, *args: Any, **kwargs: Any) -> Any:
            if not isinstance(results, Mapping):
                raise InvalidInputError(f"{name} is {shown(results)} ({type(results).__name__}); expected {what}")
            try:
                return function(results, *args, **kwargs)
            except KeyError as error:
                raise InvalidInputError(
                    f"{name} holds no {shown(error.args[0])}; expected {what} (with the beta given here)"
                ) from None

        return cast(_Format, checked)

    return refusing


_RESULT = "the dict compute_semeval returns"


def _width(title: str, cells: Iterable[str]) -> int:
    """The width of a table's column: its widest cell, or its title, and two spaces apart from the column before."""
    return max([len(title), *map(len, cells)]) + 2


def summary_columns(results: Mapping[str, Any]) -> tuple[str, ...]:
    """The columns of `SUMMARY_COLUMNS` whose schemes `results` holds (all four unless `evaluation_schemes`
    asked for fewer)."""
    return tuple(column for column in SUMMARY_COLUMNS if f"{column}_correct" in results)


@_refusing(_RESULT)
def summary_rows(results: Mapping[str, Any], beta: float = 1.0) -> list[tuple[str, list[int | float]]]:
    """The summary table of a `compute` result: ``(row label, [type, partial, exact, strict])`` per measure,
    the F row labelled ``F1`` (``F0.5`` ...); with `evaluation_schemes`, the columns of the schemes it holds."""
    f_name = f_key(beta)
    columns = summary_columns(results)
    measures = [(measure, measure) for measure in SUMMARY_MEASURES] + [(f_name.upper(), f_name)]
    return [(label, [_number(results, f"{column}_{measure}") for column in columns]) for label, measure in measures]


@_refusing(_RESULT)
def format_table(results: Mapping[str, Any], beta: float = 1.0) -> str:
    """The summary table as text: MUC counts and scores (rows) by type / partial / exact / strict. With the
    interval keys of `bootstrap` in `results`, an interval column follows each scheme's column."""
    f_name = f_key(beta)
    columns = summary_columns(results)
    intervals = any(f"{column}_{f_name}_low" in results for column in columns)
    interval_header = f"{'interval':>17}" if intervals else ""
    lines = [f"{'measure':<10}" + "".join(f"{column:>10}{interval_header}" for column in columns)]
    for (label, cells), measure in zip(summary_rows(results, beta), [*SUMMARY_MEASURES, f_name]):
        line = f"{label:<10}"
        for column, cell in zip(columns, cells):
            line += f"{_format_number(cell):>10}"
            if intervals:
                line += f"{_format_interval(results, f'{column}_{measure}'):>17}"
        lines.append(line.rstrip())
    if "value" in results:  # docs/scoring.md §10: one score of its own pairing, not a scheme's column
        interval = f"{_format_interval(results, 'value'):>17}" if intervals else ""
        parts = [("precision", "value_precision"), ("recall", "value_recall"), (f_name.upper(), f"value_{f_name}")]
        rest = ", ".join(f"{label} {_number(results, key):.4f}" for label, key in parts)
        lines.append(f"{'value':<10}{_format_number(_number(results, 'value')):>10}{interval}  ({rest})")
    return "\n".join(lines)


def _format_interval(results: Mapping[str, Any], key: str) -> str:
    """``low-high`` of a key that has an interval, else nothing (the counts)."""
    if f"{key}_low" not in results:
        return ""
    return f"{_number(results, f'{key}_low'):.4f}-{_number(results, f'{key}_high'):.4f}"


@_refusing("the dict compare_semeval returns")
def format_comparison(results: Mapping[str, Any], beta: float = 1.0) -> str:
    """The `compare_semeval` dict as text: per scheme and measure, A, B, B - A, its interval and the p-value."""
    f_name = f_key(beta)
    lines = [f"{'scheme':<10}{'measure':<11}{'A':>9}{'B':>9}{'B-A':>9}{'low':>9}{'high':>9}{'p-value':>11}"]
    for scheme, label, key in _measure_rows(results, f_name, "_a"):
        numbers = [f"{_number(results, f'{key}_{end}'):.4f}" for end in ("a", "b")]
        numbers += [f"{_number(results, f'{key}_{end}'):+.4f}" for end in ("delta", "delta_low", "delta_high")]
        # The smallest p of a million shuffles is 1e-06, not 0.0000.
        p = _number(results, f"{key}_p_value")
        p_value = f"{p:.4f}" if p >= 0.0001 else f"{p:.0e}"
        lines.append(f"{scheme:<10}{label:<11}" + "".join(f"{number:>9}" for number in numbers) + f"{p_value:>11}")
    return "\n".join(lines)


def _measure_rows(results: Mapping[str, Any], f_name: str, end: str) -> list[tuple[str, str, str]]:
    """(scheme, measure's label, key before its `end`) of each scheme `results` holds, then of the value score
    (docs/scoring.md §10: its own pairing, a row of its own before its measures)."""
    measures = (("precision", "precision"), ("recall", "recall"), (f_name, f_name.upper()))
    rows = [
        (scheme, label, f"{scheme}_{measure}")
        for scheme in EVALUATION_SCHEMES
        if f"{scheme}_precision{end}" in results
        for measure, label in measures
    ]
    if f"value{end}" in results:
        rows += [("value", "value", "value"), *(("value", label, f"value_{measure}") for measure, label in measures)]
    return rows


@_refusing("the dict summarize_runs returns")
def format_runs(results: Mapping[str, Any], beta: float = 1.0) -> str:
    """The `summarize_runs` dict as text: per scheme and measure, the mean ± the standard deviation over the
    runs, the smallest and the largest; with the interval keys of `bootstrap`, the interval of the mean."""
    f_name = f_key(beta)
    intervals = any(key.endswith("_mean_low") for key in results)
    header = f"{'scheme':<10}{'measure':<11}{'mean':>9}{'± std':>9}{'min':>9}{'max':>9}"
    lines = [header + (f"{'low':>9}{'high':>9}" if intervals else "")]
    ends = ("mean", "std", "min", "max", *(("mean_low", "mean_high") if intervals else ()))
    for scheme, label, key in _measure_rows(results, f_name, "_mean"):
        cells = [f"{_number(results, f'{key}_{end}'):.4f}" for end in ends]
        cells[1] = f"± {cells[1]}"
        lines.append(f"{scheme:<10}{label:<11}" + "".join(f"{cell:>9}" for cell in cells))
    return "\n".join(lines)


def format_type_table(
    results: Mapping[str, Any], entity_types: Sequence[str], scheme: str = "strict", beta: float = 1.0
) -> str:
    """Per-type precision / recall / F / support (reference entities) under one scheme."""
    f_name = f_key(beta)
    _check_type_table(results, entity_types, scheme, f_name)
    title = f"{scheme} by type"
    width = _width(title, entity_types)
    lines = [f"{title:<{width}}{'precision':>10}{'recall':>10}{f_name.upper():>10}{'support':>10}"]
    for entity_type in entity_types:
        prefix = f"{entity_type}_{scheme}"
        lines.append(
            f"{entity_type:<{width}}"
            + "".join(
                f"{_format_number(_number(results, f'{prefix}_{m}')):>10}" for m in ("precision", "recall", f_name)
            )
            + f"{results[f'{prefix}_possible']:>10}"
        )
    return "\n".join(lines)


def _check_type_table(results: Any, entity_types: Any, scheme: Any, f_name: str) -> None:
    """An `InvalidInputError` saying which argument of `format_type_table` is not what it takes, and how."""
    if not isinstance(results, Mapping):
        raise InvalidInputError(
            f"results is {shown(results)} ({type(results).__name__}); expected the dict compute_semeval returns"
        )
    if isinstance(entity_types, (str, bytes)) or not isinstance(entity_types, Sequence):
        raise InvalidInputError(f"entity_types is {shown(entity_types)}; expected a list of types such as ['PER']")
    if scheme not in EVALUATION_SCHEMES:
        raise InvalidInputError(f"scheme is {shown(scheme)}; expected one of {', '.join(EVALUATION_SCHEMES)}")
    for index, entity_type in enumerate(entity_types):
        if not isinstance(entity_type, str):
            raise InvalidInputError(f"entity_types[{index}] is {shown(entity_type)}; expected a type such as 'PER'")
        for measure in ("precision", "recall", f_name, "possible"):
            if f"{entity_type}_{scheme}_{measure}" not in results:
                raise InvalidInputError(
                    f"results holds no {entity_type}_{scheme}_{measure}; expected a result of compute_semeval "
                    f"with per_type=True (and beta as given here) in which {entity_type!r} is a type"
                )


@_refusing("the matrix confusion_matrix returns (or a result's confusion)", "matrix")
def format_confusion_table(matrix: Mapping[str, Mapping[str, int]]) -> str:
    """The confusion matrix as text: reference types as rows, predicted types as columns, O last in both."""
    names = list(matrix)
    for row in names:
        if not isinstance(matrix[row], Mapping):
            raise InvalidInputError(f"matrix[{row!r}] is {shown(matrix[row])}; expected a dict of counts by type")
    title = "reference \\ predicted"
    first = _width(title, names)
    widths = [_width(name, (str(matrix[row][name]) for row in names)) for name in names]
    lines = [f"{title:<{first}}" + "".join(f"{name:>{width}}" for name, width in zip(names, widths))]
    for row in names:
        cells = "".join(f"{matrix[row][name]:>{width}}" for name, width in zip(names, widths))
        lines.append(f"{row:<{first}}{cells}")
    return "\n".join(lines)


_DIAGNOSTICS = "boundary diagnostics"
_DIAGNOSTICS_WIDTH = _width(_DIAGNOSTICS, DIAGNOSTIC_KEYS)


@_refusing("a result of compute_semeval with diagnostics=True")
def format_diagnostics(results: Mapping[str, Any]) -> str:
    """The boundary diagnostics of a result (`diagnostics=True`, docs/scoring.md §11), one count a line."""
    width = _DIAGNOSTICS_WIDTH
    numbers = [str(results[key]) for key in DIAGNOSTIC_KEYS]
    count_width = _width("count", numbers)
    lines = [f"{_DIAGNOSTICS:<{width}}{'count':>{count_width}}"]
    lines += [f"{key:<{width}}{number:>{count_width}}" for key, number in zip(DIAGNOSTIC_KEYS, numbers)]
    return "\n".join(lines)


@_refusing("a result of summarize_runs with diagnostics=True")
def format_runs_diagnostics(results: Mapping[str, Any]) -> str:
    """The boundary diagnostics of a `summarize_runs` dict (`diagnostics=True`): each count's mean ± the standard
    deviation over the runs, the smallest and the largest."""
    width = _DIAGNOSTICS_WIDTH
    lines = [f"{_DIAGNOSTICS:<{width}}{'mean':>9}{'± std':>9}{'min':>9}{'max':>9}"]
    for key in DIAGNOSTIC_KEYS:
        mean, std, low, high = (_number(results, f"{key}_{end}") for end in ("mean", "std", "min", "max"))
        cells = [f"{mean:.2f}", f"± {std:.2f}", str(low), str(high)]
        lines.append(f"{key:<{width}}" + "".join(f"{cell:>9}" for cell in cells))
    return "\n".join(lines)


# The errors table's columns: its header and the field of the `errors` rows it shows.
_ERROR_COLUMNS = (
    ("count", "count"),
    ("scenario", "scenario"),
    ("reference", "reference_text"),
    ("type", "reference_type"),
    ("predicted", "predicted_text"),
    ("type", "predicted_type"),
)


def format_errors(rows: Sequence[Mapping[str, Any]]) -> str:
    """The `errors` rows (docs/scoring.md §11) as a table, most frequent first; "-" on an unpaired side."""
    assert {field for _, field in _ERROR_COLUMNS} == {*ERROR_FIELDS, "count"}
    _check_rows(rows)
    cells = [[header for header, _ in _ERROR_COLUMNS]]
    cells += [["-" if row[field] is None else str(row[field]) for _, field in _ERROR_COLUMNS] for row in rows]
    widths = [max(map(_display_width, column)) for column in zip(*cells)]
    lines = []
    for line in cells:
        # The count right-aligned, the rest left-aligned, two spaces apart; padded by display width, so that
        # texts in CJK characters (two columns each in a terminal) stay aligned.
        padding = [" " * (width - _display_width(cell)) for cell, width in zip(line, widths)]
        parts = [padding[0] + line[0], *(cell + pad for cell, pad in zip(line[1:], padding[1:]))]
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def _check_rows(rows: Any) -> None:
    """An `InvalidInputError` naming the row or field of `errors` rows that `format_errors` cannot read (a KeyError
    or a TypeError before)."""
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Sequence):
        raise InvalidInputError(f"rows is {shown(rows)}; expected the list of a result's errors rows")
    for index, row in enumerate(rows):
        missing = [field for _, field in _ERROR_COLUMNS if field not in row] if isinstance(row, Mapping) else None
        if missing is None or missing:
            found = shown(row) if missing is None else f"a row without {', '.join(missing)}"
            raise InvalidInputError(f"rows[{index}] is {found}; expected a dict with the keys of a result's errors")


def _display_width(text: str) -> int:
    """The columns `text` takes in a terminal: two for a wide (East Asian) character, one for any other."""
    import unicodedata  # here: only the errors table needs it

    return sum(2 if unicodedata.east_asian_width(character) in "WF" else 1 for character in text)


def _number(results: Mapping[str, Any], key: str, name: str = "results") -> int | float:
    """`results[key]`, a number to format; an `InvalidInputError` naming the key where it is none (None, a string
    or a list raised TypeError or "Unknown format code" out of the formatting)."""
    value = results[key]
    if not isinstance(value, numbers.Real):  # (numpy's numbers too)
        raise InvalidInputError(f"{name}[{key!r}] is {shown(value)}; expected a number, as the result holds")
    return cast(int | float, value)


def _format_number(value: int | float) -> str:
    return str(value) if isinstance(value, int) else f"{value:.4f}"


def format_slice_table(name: str, buckets: Mapping[str, Mapping[str, Any]], beta: float = 1.0) -> str:
    """One slice of `slices` (docs/scoring.md §11) as text: a row per bucket, its reference (POS) and predicted
    (ACT) entities, and F under each scheme it holds, from the most lenient to the strictest; with intervals, each
    F followed by its interval."""
    f_name = f_key(beta)
    columns = _slice_columns(name, buckets, f_name)
    first = next(iter(buckets.values()), {})
    intervals = any(f"{column}_{f_name}_low" in first for column in columns)
    title = f"{name}"
    width = _width(title, buckets)
    pos_key, act_key = (f"{columns[0]}_possible", f"{columns[0]}_actual") if columns else ("", "")
    header = f"{title:<{width}}{'POS':>8}{'ACT':>8}" + "".join(
        f"{column + ' ' + f_name.upper():>14}" + (f"{'interval':>17}" if intervals else "") for column in columns
    )
    lines = [header]
    for bucket, values in buckets.items():
        line = f"{bucket:<{width}}{values[pos_key]:>8}{values[act_key]:>8}"
        for column in columns:
            line += f"{_format_number(_number(values, f'{column}_{f_name}', f'buckets[{bucket!r}]')):>14}"
            if intervals:
                line += f"{_format_interval(values, f'{column}_{f_name}'):>17}"
        lines.append(line)
    return "\n".join(lines)


def _slice_columns(name: Any, buckets: Any, f_name: str) -> list[str]:
    """The schemes of `SUMMARY_COLUMNS` a slice's buckets hold (its first bucket's); an `InvalidInputError` naming
    the argument, bucket or key that `format_slice_table` cannot read (a KeyError '' or an AttributeError before)."""
    expected = "a slice's name and its buckets, as a result's slices hold them (each bucket a dict of its scores)"
    if not isinstance(name, str) or not isinstance(buckets, Mapping):
        found = f"name is {shown(name)}" if not isinstance(name, str) else f"buckets is {shown(buckets)}"
        raise InvalidInputError(f"{found}; expected {expected}")
    first: Any = next(iter(buckets.values()), {})
    columns = [column for column in SUMMARY_COLUMNS if isinstance(first, Mapping) and f"{column}_{f_name}" in first]
    keys = [f"{column}_{end}" for column in columns[:1] for end in ("possible", "actual")]
    keys += [f"{column}_{f_name}" for column in columns] or [f"type_{f_name}"]
    for bucket, values in buckets.items():
        missing = [key for key in keys if key not in values] if isinstance(values, Mapping) else None
        if not isinstance(bucket, str) or missing is None or missing:
            found = shown(values) if missing is None else f"a dict without {', '.join(missing)}"
            raise InvalidInputError(f"buckets[{shown(bucket)}] is {found}; expected {expected}")
    return columns
