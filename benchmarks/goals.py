"""The speed goals of issues 5, 8, 15 and 16 and their verdicts, kept apart from the code that measures.

Every measurement has a key: "column/tool" for the table's cells ("20k/ner_semeval"), likewise for the other
sections. A goal bounds the ratio of two measurements, or one measurement in MB. PASS / MISS judge the medians;
the ratio of the fastest runs is shown beside it: when the two fall on different sides of the bound, the verdict
is noise, not a result.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Goal(NamedTuple):
    issue: int
    text: str
    top: str  # key of the measurement
    bottom: str | None  # key of the measurement it is divided by; None: `top` in MB is the value
    op: str  # "<=" or ">="
    target: float


def table_goals(h: str, small: str, large: str, document: int) -> list[Goal]:
    """Issue 5 on the table's columns (`h`: the goals' column), and issue 8's options of compute_semeval."""
    ours, one, split = f"{h}/ner_semeval", "doc-one/ner_semeval", "doc-split/ner_semeval"
    large_ours, small_ours = f"{large}/ner_semeval", f"{small}/ner_semeval"
    return [
        Goal(5, f"nervaluate / compute_semeval ({h})", f"{h}/nervaluate", ours, ">=", 30),
        Goal(5, f"seqeval classification_report / compute_semeval ({h})", f"{h}/seqeval_report", ours, ">=", 30),
        Goal(5, f"compute_semeval / bare loop ({h})", ours, f"{h}/floor", "<=", 3),
        Goal(5, f"NerSemeval.compute / no-op compute ({h})", f"{h}/compute", f"{h}/noop", "<=", 1.5),
        Goal(5, f"compute_semeval: one {document:,}-sentence document / the same split", one, split, "<=", 1.5),
        Goal(5, f"compute_semeval: {large} / {small} sentences", large_ours, small_ours, "<=", 11),
        Goal(5, f"stretch: NerSemeval.compute / no-op compute ({h})", f"{h}/compute", f"{h}/noop", "<=", 1),
        Goal(8, f"compute_semeval(confusion=True) / without ({h})", f"{h}/confusion", ours, "<=", 1.1),
        Goal(8, f"compute_semeval(bootstrap=1000) / without ({h})", f"{h}/bootstrap", ours, "<=", 3),
        Goal(18, f"compute_semeval(value=True) / without ({h})", f"{h}/value", ours, "<=", 1.5),
        Goal(18, f"compute_semeval(value='ace08') / without ({h})", f"{h}/value_ace08", ours, "<=", 1.5),
        Goal(18, f"compute_semeval(partial_credit=0.3) / without ({h})", f"{h}/partial_credit", ours, "<=", 1.1),
        Goal(18, f"compute_semeval(partial_credit='overlap') / without ({h})", f"{h}/overlap_credit", ours, "<=", 1.1),
    ]  # fmt: skip


def hostile_goals(
    type_counts: tuple[int, ...], small: str, large: str, files: list[str], same_tokens: str = "400k"
) -> list[Goal]:
    """Issue 8: time linear in the tokens at any number of types; the command line no costlier than conlleval.
    Issue 15: `import nerscore` costs at most 1.5x `import numpy`. Issue 16: a million resamples under 100 MB, and
    100,000 types at most 4x 4 types on the same tokens."""
    text = "compute_semeval, {:,} types: " + f"{large} / {small} tokens"
    goals = [Goal(8, text.format(n), f"types-{n}/{large}", f"types-{n}/{small}", "<=", 4.5) for n in type_counts]
    many, few = f"types-100000/{same_tokens}", f"types-4/{same_tokens}"
    goals.append(Goal(16, f"compute_semeval, {same_tokens} tokens: 100,000 types / 4 types", many, few, "<=", 4))
    for file in files:
        ours = f"{file}/ner_semeval.py"
        goals.append(Goal(8, f"ner_semeval.py / conlleval, {file} tokens", ours, f"{file}/conlleval", "<=", 1))
        goals.append(Goal(8, f"ner_semeval.py peak RSS, {file} tokens", f"{ours}/peak", None, "<=", 150))
    ours, package, numpy = "start-up/ner_semeval.py", "start-up/nerscore", "start-up/numpy"
    goals.append(Goal(8, "ner_semeval.py on 4 tokens / python -c 'import numpy'", ours, numpy, "<=", 8))
    goals.append(Goal(15, "python -c 'import nerscore' / python -c 'import numpy'", package, numpy, "<=", 1.5))
    for name, call in (
        ("bootstrap", "compute_semeval(bootstrap=10**6)"),
        ("compare", "compare_semeval(n_resamples=10**6)"),
    ):
        goals.append(Goal(16, f"{call} peak, 10 sentences", f"resamples/{name}/peak", None, "<=", 100))
    return goals


def judge(goal: Goal, medians: dict[str, float | None], minimums: dict[str, float | None]) -> dict[str, Any]:
    """The goal's value from the medians and from the fastest runs, and its verdict (n/a: not measured)."""

    def value(measured: dict[str, float | None]) -> float | None:
        top, bottom = measured.get(goal.top), measured.get(goal.bottom) if goal.bottom else 1.0
        return top / bottom if top and bottom else None

    ratio = value(medians)
    met = ratio is not None and (ratio >= goal.target if goal.op == ">=" else ratio <= goal.target)
    verdict = "n/a" if ratio is None else "PASS" if met else "MISS"
    unit = "x" if goal.bottom else "MB"
    row = {"issue": goal.issue, "goal": goal.text, "ratio": ratio, "ratio_of_minimums": value(minimums)}
    return row | {"op": goal.op, "target": float(goal.target), "unit": unit, "verdict": verdict}
