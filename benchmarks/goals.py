"""The speed goals of issue 5 and their verdicts, kept apart from the code that measures.

Every measurement has a key: "column/tool" for the table's cells ("20k/ner_semeval"). A goal bounds the ratio of
two measurements. PASS / MISS judge the medians;
the ratio of the fastest runs is shown beside it: when the two fall on different sides of the bound, the verdict
is noise, not a result.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Goal(NamedTuple):
    issue: int
    text: str
    top: str  # key of the measurement
    bottom: str  # key of the measurement it is divided by
    op: str  # "<=" or ">="
    target: float


def table_goals(h: str, small: str, large: str, document: int) -> list[Goal]:
    """Issue 5 on the table's columns (`h`: the goals' column)."""
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
    ]  # fmt: skip


def judge(goal: Goal, medians: dict[str, float | None], minimums: dict[str, float | None]) -> dict[str, Any]:
    """The goal's value from the medians and from the fastest runs, and its verdict (n/a: not measured)."""

    def value(measured: dict[str, float | None]) -> float | None:
        top, bottom = measured.get(goal.top), measured.get(goal.bottom)
        return top / bottom if top and bottom else None

    ratio = value(medians)
    met = ratio is not None and (ratio >= goal.target if goal.op == ">=" else ratio <= goal.target)
    verdict = "n/a" if ratio is None else "PASS" if met else "MISS"
    row = {"issue": goal.issue, "goal": goal.text, "ratio": ratio, "ratio_of_minimums": value(minimums)}
    return row | {"op": goal.op, "target": float(goal.target), "verdict": verdict}
