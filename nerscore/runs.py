"""Several runs of one system (seeds, say) on the same references: `summarize_runs` (mean, standard deviation,
min and max of every key, and an interval of each mean) and `compare_runs` (do B's runs beat A's?), docs/scoring.md
§9. Each run is counted as `compute_semeval` counts a batch; the statistics are those of
`nerscore.statistics.run_statistics`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from .accumulator import Accumulator, given_columns, no_token, without_tokens
from .compute import strings_beside_no_token
from .errors import is_collection
from .option_checks import COMPARISON_RESAMPLES, check_resamples, check_seed
from .options import Options
from .result_scores import scores
from .statistics.paired_comparison import difference_keys
from .statistics.run_statistics import run_interval_keys, runs_comparison
from .statistics.unit_counts import SentenceCounts
from .systems import counted_in_order, given_options, shared_references, side_by_side_counts
from .table.columns import Columns
from .tally import Tally


def summarize_runs(
    *,
    runs: Any,
    references: Any,
    texts: Any = None,
    tokens: Any = None,
    groups: Any = None,
    documents: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """Several runs of one system on the same references (docs/scoring.md §9).

    `runs` is a list of predictions, each as `compute_semeval` takes them and aligned with `references`. For every
    key `compute_semeval` returns with these options (per type included), `{key}_mean`, `{key}_std` (with n - 1;
    0 for one run), `{key}_min` and `{key}_max`, and `runs`, their number (with `texts`, `ungrounded` is such a
    key, docs/scoring.md §1b). With `bootstrap=N`, `{scheme}_{measure}_mean_low` and `_mean_high` (with `value`,
    the value keys' too, §10): the BCa interval of the mean over runs from N two-level resamples (the runs with
    replacement, then the sentences, or with `documents` the documents, with replacement). A misaligned run is a
    `ValueError` naming it (`runs[2], sentence 5: ...`). The options that add more than numbers to summarise
    (`return_entities`, `confusion`, `slices`, `errors`) are a `ValueError`; `diagnostics`' counts are keys like
    the others."""
    checked = Options.of(**options)
    reported = ("bootstrap", "per_type", "diagnostics")  # the means' intervals, the per-type keys, the counts
    _refuse(checked, options, "summarize_runs", tuple(name for name in Options.ADDING if name not in reported))
    given = _runs(runs, "runs")
    references, columns = shared_references(references, checked, given_columns(texts, tokens, groups, documents))
    counted = _counted(given, references, checked, columns, "runs")
    units = side_by_side_counts(counted) if checked.bootstrap else None
    return summary_of(_tallies(counted), units, checked)


def summary_of(tallies: list[Tally], units: SentenceCounts | None, options: Options) -> dict[str, Any]:
    """`summarize_runs`' dict from each run's tally and, with `bootstrap`, each unit's counts of every run side by
    side (the command line counts files into these)."""
    summary = _summary(_run_results(tallies, options))
    if options.bootstrap:
        if units is None:
            raise ValueError("bootstrap needs each unit's counts of every run")
        summary.update(run_interval_keys(summary, units, len(tallies), options))
    summary["runs"] = len(tallies)
    return summary


def compare_runs(
    *,
    runs_a: Any,
    runs_b: Any,
    references: Any,
    n_resamples: int = COMPARISON_RESAMPLES,
    seed: int = 0,
    texts: Any = None,
    tokens: Any = None,
    groups: Any = None,
    documents: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """Do system B's runs beat system A's on the same references? (docs/scoring.md §9)

    For each scheme and each of precision, recall and F (`{key}` = `strict_precision` ... `type_f1`, and with
    `value` the four value keys, docs/scoring.md §10):
    `{key}_a_mean`, `{key}_b_mean`, `{key}_delta` (B - A), `{key}_delta_low` and `{key}_delta_high` (the
    two-level BCa interval: runs of A and of B drawn with replacement, the sentences, or `documents`, drawn once
    for both), and `{key}_p_value`; plus `runs_a` and `runs_b`, and with `texts` `ungrounded_a_mean` and
    `ungrounded_b_mean` (compare_semeval's `ungrounded_a` and `_b`, docs/scoring.md §1b). The p-value is
    compare_semeval's with one run a side, and otherwise a t test whose variance holds both the runs' and the
    units' (docs/scoring.md §9). The two systems may have different numbers of runs. `options` are
    compute_semeval's scoring options, but not those compare_semeval refuses."""
    checked = Options.of(**options)
    _refuse(checked, options, "compare_runs", Options.ADDING)
    resamples = check_resamples("n_resamples", n_resamples, 1)
    seed = check_seed("seed", seed)
    given_a, given_b = _runs(runs_a, "runs_a"), _runs(runs_b, "runs_b")
    references, columns = shared_references(references, checked, given_columns(texts, tokens, groups, documents))
    counted_a = _counted(given_a, references, checked, columns, "runs_a")
    counted_b = _counted(given_b, references, checked, columns, "runs_b")
    return comparison_of(
        _tallies(counted_a), _tallies(counted_b), side_by_side_counts(counted_a + counted_b), checked, resamples, seed
    )


def comparison_of(
    tallies_a: list[Tally], tallies_b: list[Tally], units: SentenceCounts, options: Options, resamples: int, seed: int
) -> dict[str, Any]:
    """`compare_runs`' dict from each run's tally and each unit's counts of A's runs then B's, side by side."""
    results_a, results_b = _run_results(tallies_a, options), _run_results(tallies_b, options)
    keys, low, high, p_values = runs_comparison(units, len(tallies_a), len(tallies_b), options, resamples, seed)
    result: dict[str, Any] = {}
    for key, key_low, key_high, p_value in zip(keys, low.tolist(), high.tolist(), p_values.tolist()):
        if key in results_a[0]:  # not a scheme that `evaluation_schemes` leaves out
            means = _mean([run[key] for run in results_a]), _mean([run[key] for run in results_b])
            result.update(difference_keys(key, *means, key_low, key_high, p_value, "_mean"))
    ungrounded_a = [tally.ungrounded for tally in tallies_a]
    ungrounded_b = [tally.ungrounded for tally in tallies_b]
    if None not in ungrounded_a and None not in ungrounded_b:  # with texts (docs/scoring.md §1b)
        result["ungrounded_a_mean"] = _mean(ungrounded_a)
        result["ungrounded_b_mean"] = _mean(ungrounded_b)
    result["runs_a"] = len(tallies_a)
    result["runs_b"] = len(tallies_b)
    return result


def _refuse(checked: Options, options: Mapping[str, Any], name: str, refused: tuple[str, ...]) -> None:
    """Options that add what this function's dict has no place for: refused, never silently ignored."""
    if given := given_options(checked, options, refused):
        raise ValueError(
            f"{name} takes none of {', '.join(refused)}, found {', '.join(given)}: score each run with "
            "compute_semeval for the rest"
        )


def _runs(runs: Any, name: str) -> list[Any]:
    """The runs as a list, at least one."""
    if isinstance(runs, Mapping) or not is_collection(runs):
        raise ValueError(f"{name} must be a list of runs (each a run's predictions), found {type(runs).__name__}")
    given = list(runs)
    if not given:
        raise ValueError(f"{name} must hold at least one run's predictions, found none")
    return given


def _counted(
    runs: list[Any], references: list[Any], options: Options, columns: Columns, name: str
) -> list[Accumulator]:
    """Each run counted as compute_semeval counts a batch (`Accumulator`), each sentence's counts kept in order;
    a problem is located at `name[index]`."""
    return counted_in_order({f"{name}[{index}]": run for index, run in enumerate(runs)}, references, options, columns)


def _tallies(counted: list[Accumulator]) -> list[Tally]:
    tallies = [run.tally or Tally() for run in counted]
    # A run of no value at all reads as tags of no token: beside runs of spans it is spans of none, without
    # token_accuracy (as batches add, docs/scoring.md §7), so that every run has the same keys.
    if any(tally.tokens is None for tally in tallies):
        tallies = [without_tokens(tally) if no_token(tally) else tally for tally in tallies]
    return tallies


def _run_results(tallies: list[Tally], options: Options) -> list[dict[str, Any]]:
    """Each run's compute_semeval keys. A type that some runs predict and others do not (a spurious type) has
    per-type keys in every run: a run without it scores it as a type it has no entity of (macro averages stay
    each run's own)."""
    results = [scores(strings_beside_no_token(tally), options) for tally in tallies]
    if options.diagnostics and all(tally.diagnostics is not None for tally in tallies):
        # counts, as compute_semeval gives them (docs/scoring.md §11); the command line's --runs counts none yet
        for result, tally in zip(results, tallies):
            assert tally.diagnostics is not None
            result.update(tally.diagnostics.as_dict())
    types_of = [tally.entity_types for tally in tallies]  # (each read of entity_types finds and sorts the types again)
    every = sorted(set().union(*types_of))
    if options.per_type and options.labels is None and every:  # (no type in any run: nothing to widen)
        widened = options.evolve(labels=every)
        for index, tally in enumerate(tallies):
            if types_of[index] != every:
                typed = scores(tally, widened)
                results[index].update({key: value for key, value in typed.items() if key not in results[index]})
    return results


def _summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    keys = list(dict.fromkeys(key for result in results for key in result))
    summary: dict[str, Any] = {}
    for key in keys:
        values = [result[key] for result in results]
        mean = _mean(values)
        summary[f"{key}_mean"] = mean
        summary[f"{key}_std"] = _std(values, mean)
        summary[f"{key}_min"] = min(values)
        summary[f"{key}_max"] = max(values)
    return summary


def _mean(values: list[Any]) -> float:
    """fsum / n, kept within [min, max]: it rounds twice, so three runs of 0.1 gave 0.10000000000000002, above
    their max (and a standard deviation that was not 0); the mean of equal values is now that value. Elsewhere it
    is within a rounding of the exact mean, and the same float as ever."""
    try:
        mean = math.fsum(values) / len(values)
    except OverflowError:  # a sum past the largest float (value keys of extreme weights): scaled, exactly
        shift = len(values).bit_length() + 1  # scaled by a power of two at least n: exact, and the sum fits
        mean = math.ldexp(math.fsum(math.ldexp(value, -shift) for value in values) / len(values), shift)
    if math.isnan(mean):
        return mean
    return min(max(mean, min(values)), max(values))


def _std(values: list[Any], mean: float) -> float:
    """The sample standard deviation (n - 1; 0 for one value) about `mean`. Values so large that their squares
    would overflow (the value keys of extreme weights, docs/scoring.md §10), or so small that they would underflow
    to 0, are scaled by a power of two first, which changes no digit; others are not scaled at all."""
    if len(values) < 2:
        return 0.0
    largest = max(abs(value) for value in values)
    in_range = not math.isfinite(largest) or largest == 0 or 2.0**-500 < largest < 2.0**500
    shift = 0 if in_range else math.frexp(largest)[1]  # ldexp, not a factor: 2**1074 is no float
    # d * d, not d ** 2: C's pow() is not correctly rounded here (0x1.8000000000001p-2 ** 2 is an ulp below its
    # product), and only a correctly rounded square makes the scaling change no digit.
    differences = [math.ldexp(value, -shift) - math.ldexp(mean, -shift) for value in values]
    squares = math.fsum(difference * difference for difference in differences)
    try:
        return math.ldexp(math.sqrt(squares / (len(values) - 1)), shift)
    except OverflowError:  # a deviation past the largest float (1.8e308 and -1.8e308): no float holds it
        return math.inf
