"""Shared fixtures: the repository on sys.path, the worked example read from examples/, and the metric loaded the
way users load it, offline."""

from __future__ import annotations

import os
import socket
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

# evaluate asks the Hub about a module unless told not to, even for a local path (NOTES: evaluate).
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import pytest

if TYPE_CHECKING:
    from nerscore import ConllSentence

REPO = Path(__file__).resolve().parent.parent
METRIC_PATH = REPO / "ner_semeval.py"
sys.path.insert(0, str(REPO))


WORKED_EXAMPLE = REPO / "examples" / "worked_example.conll"


def grounded_result(text, references, predictions, **options):
    """One document of string entities scored with its rows: the result, the grounded predictions as sorted
    (start, end, type), and the count of each scenario I to VI (tests of docs/scoring.md §1b)."""
    from collections import Counter

    from nerscore import compute_semeval

    result = compute_semeval(
        predictions=[predictions], references=[references], texts=[text], return_entities=True, **options
    )
    rows = result["entities"]
    mentions = sorted(
        (row["prediction"]["start"], row["prediction"]["end"], row["prediction"]["type"])
        for row in rows
        if row["prediction"] is not None and row["prediction"]["start"] is not None
    )
    scenarios = Counter(row["scenario"] for row in rows)
    return result, mentions, {name: scenarios.get(name, 0) for name in ("I", "II", "III", "IV", "V", "VI")}


def worked_example_sentences(shared: bool = False) -> list[ConllSentence]:
    """The worked example of docs/scoring.md §6 as `ner_semeval.ConllSentence` rows, read from
    examples/worked_example.conll: six sentences, characters as tokens, scenarios III, II, V, IV, I, VI.

    With `shared`, the first two sentences (III, then II) are joined into one, the reference entity before the
    prediction: five sentences whose totals are the same (§6)."""
    from nerscore import ConllSentence, read_conll

    with WORKED_EXAMPLE.open(encoding="utf-8") as handle:
        sentences = list(read_conll(handle, str(WORKED_EXAMPLE)))
    if shared:
        first, second, *rest = sentences
        sentences = [ConllSentence(*(a + b for a, b in zip(first, second))), *rest]
    return sentences


def worked_example(shared: bool = False) -> tuple[list[list[str]], list[list[str]]]:
    """``(predictions, references)`` of the worked example (see `worked_example_sentences`)."""
    sentences = worked_example_sentences(shared)
    return [s.predictions for s in sentences], [s.references for s in sentences]


def as_inputs(batches: tuple[list, list]) -> dict[str, list]:
    """``(predictions, references)`` as the keyword arguments `compute_semeval` takes."""
    predictions, references = batches
    return {"predictions": predictions, "references": references}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def load_metric():
    """`evaluate.load` of this checkout's ner_semeval.py, with load-time options.

    Each load gets an experiment_id of its own unless one is given: a metric whose compute raised holds its
    cache-file lock while it lives (pytest keeps it until teardown), and a later load with the same id would
    wait 1 s for that lock (filelock's timeout) before picking another file."""
    import evaluate

    def load(**options):
        options.setdefault("experiment_id", uuid.uuid4().hex)
        return evaluate.load(str(METRIC_PATH), **options)

    return load


@pytest.fixture
def metric(load_metric):
    return load_metric()


def aligned(predictions, references) -> tuple[list, list]:
    """Both sides (tags or ids) as lists of sentences, checked for alignment, as `compute_semeval` reads them."""
    from nerscore.inputs import as_list, check_aligned

    return check_aligned(as_list(predictions, "predictions"), as_list(references, "references"))
