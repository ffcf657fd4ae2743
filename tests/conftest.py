"""Shared fixtures: the repository on sys.path and the metric loaded the way users load it, offline."""

from __future__ import annotations

import os
import socket
import sys
import uuid
from pathlib import Path

# evaluate asks the Hub about a module unless told not to, even for a local path (NOTES: evaluate).
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import pytest

REPO = Path(__file__).resolve().parent.parent
METRIC_PATH = REPO / "ner_semeval.py"
sys.path.insert(0, str(REPO))


def iob2(text: str, *entities: tuple[str, str]) -> list[str]:
    """IOB2 tags of `text`, one character per token, for entities given as (surface string, type)."""
    tags = ["O"] * len(text)
    for surface, entity_type in entities:
        start = text.index(surface)
        tags[start : start + len(surface)] = [f"B-{entity_type}"] + [f"I-{entity_type}"] * (len(surface) - 1)
    return tags


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
