"""The pipeline snippet of docs/spans.md runs as it is: a transformers token-classification pipeline with
aggregation_strategy="simple", on a tiny untrained model built from a config (no download), its output fed to
`compute` unchanged. Slow: it imports torch and transformers."""

from __future__ import annotations

import contextlib
import re

import pytest
from conftest import REPO

from ner_semeval import compute_semeval

pytestmark = pytest.mark.slow

SPANS_PAGE = (REPO / "docs" / "spans.md").read_text(encoding="utf-8")


def pipeline_snippet() -> str:
    match = re.search(r"<!-- pipeline-snippet -->\s*```python\n(.*?)```", SPANS_PAGE, flags=re.S)
    assert match, "no pipeline snippet in docs/spans.md"
    return match.group(1)


def test_readme_pipeline_snippet_runs_and_scores_the_pipeline_output_as_it_is(capsys) -> None:
    namespace: dict = {}
    with contextlib.chdir(REPO):  # it loads "ner_semeval.py" by relative path, as a user in a clone does
        exec(compile(pipeline_snippet(), "docs/spans.md (pipeline snippet)", "exec"), namespace)
    predictions, references, results = namespace["predictions"], namespace["references"], namespace["results"]
    # The pipeline's grouped output, as it is: entity_group, score and word besides character offsets.
    assert len(predictions) == len(namespace["texts"]) == 2
    entities = [entity for document in predictions for entity in document]
    assert entities and all({"entity_group", "score", "word", "start", "end"} <= set(entity) for entity in entities)
    for text, document in zip(namespace["texts"], predictions):
        assert all(0 <= entity["start"] < entity["end"] <= len(text) for entity in document)
    assert results == compute_semeval(predictions=predictions, references=references)
    assert results["strict_possible"] == 3
    assert results["strict_actual"] == len(entities)
    assert capsys.readouterr().out == f"{results['strict_f1']} {results['partial_f1']}\n"
