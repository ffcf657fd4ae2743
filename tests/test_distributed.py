"""evaluate's distributed mode: two real processes, one shared cache directory.

Each process runs tests/distributed_worker.py: `evaluate.load(path, num_process=2, process_id=i,
experiment_id=..., cache_dir=...)`, `add_batch` for every batch of its shard, `compute()`. Process 0 must return
the numbers of the whole set, identical to one process that adds every batch; process 1 returns None. Both
workers run every case below in order (one experiment id per case), so the processes start only once.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from conftest import METRIC_PATH, REPO

from ner_semeval import OPTION_NAMES, compute_semeval

pytestmark = pytest.mark.slow

WORKER = REPO / "tests" / "distributed_worker.py"
NUM_PROCESS = 2
BATCH_SIZE = 6
LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]

IOB2_TAGS = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
IOBES_TAGS = ["O", "O", "O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "E-LOC", "S-LOC"]


def tag_sentences(seed: int, tags: list[str], count: int = 40) -> tuple[list[list[str]], list[list[str]]]:
    """Random tag sequences (ill-formed ones included: docs/scoring.md §2 decodes them) and noisy predictions."""
    rng = random.Random(seed)
    references, predictions = [], []
    for _ in range(count):
        reference = [rng.choice(tags) for _ in range(rng.randint(0, 12))]
        references.append(reference)
        predictions.append([rng.choice(tags) if rng.random() < 0.3 else tag for tag in reference])
    return predictions, references


def id_sentences(seed: int, count: int = 40) -> tuple[list[list[int]], list[list[int]]]:
    """Label ids as a token-classification model gives them: -100 on specials and sub-word continuations."""
    rng = random.Random(seed)
    references, predictions = [], []
    for _ in range(count):
        length = rng.randint(2, 14)
        reference = [-100 if i in (0, length - 1) or rng.random() < 0.15 else rng.randrange(5) for i in range(length)]
        references.append(reference)
        predictions.append([rng.randrange(5) if rng.random() < 0.3 or ref == -100 else ref for ref in reference])
    return predictions, references


def span_documents(seed: int, count: int = 40, empty_from: int | None = None) -> tuple[list[list], list[list]]:
    """Span lists with nested, overlapping and repeated entities, in the forms JSON keeps (dicts with any type key,
    [start, end, type] lists); from `empty_from` on, documents without entities."""
    rng = random.Random(seed)
    references, predictions = [], []
    for index in range(count):
        reference, prediction = [], []
        if empty_from is None or index < empty_from:
            for start in rng.sample(range(20), 4):
                reference.append((start, start + rng.randint(1, 6), rng.choice(("PER", "LOC"))))
            for start, end, kind in reference:
                if rng.random() < 0.8:
                    moved = max(0, start + rng.randint(-1, 1))
                    prediction.append((moved, max(moved + 1, end + rng.randint(-1, 2)), rng.choice((kind, "LOC"))))
        forms = ("type", "label", "entity_group", "list")
        references.append([_entity(rng.choice(forms), *entity) for entity in reference])
        predictions.append([_entity(rng.choice(forms), *entity) for entity in prediction])
    return predictions, references


def fragment_documents(seed: int) -> tuple[list[list], list[list]]:
    """`span_documents` with every entity of 3 tokens or more as two fragments, its first and last token
    (docs/scoring.md §12), dicts with `fragments`."""

    def pieces(entity: Any) -> Any:
        start, end = (entity[0], entity[1]) if isinstance(entity, list) else (entity["start"], entity["end"])
        kind = (
            entity[2]
            if isinstance(entity, list)
            else next(entity[k] for k in ("type", "label", "entity_group") if k in entity)
        )
        if end - start < 3:
            return entity
        return {"fragments": [[start, start + 1], [end - 1, end]], "type": kind}

    predictions, references = span_documents(seed)
    return [[pieces(e) for e in sentence] for sentence in predictions], [
        [pieces(e) for e in sentence] for sentence in references
    ]


def _entity(form: str, start: int, end: int, entity_type: str) -> dict | list:
    return [start, end, entity_type] if form == "list" else {"start": start, "end": end, form: entity_type}


def string_documents(seed: int, count: int = 40) -> tuple[list[list], list[list], list[str]]:
    """String entities (docs/scoring.md §1b) with their texts: references as (type, text) pairs in JSON's lists,
    predictions as dicts, some not in the text (ungrounded), some repeated."""
    rng = random.Random(seed)
    words = ["Paris", "York", "New York", "Berlin", "and", "Rome"]
    references, predictions, texts = [], [], []
    for _ in range(count):
        chosen = [rng.choice(words) for _ in range(rng.randint(1, 6))]
        texts.append(" ".join(chosen))
        references.append(
            [[rng.choice(("LOC", "PER")), word] for word in chosen if word != "and" and rng.random() < 0.7]
        )
        guesses = [rng.choice([*chosen, "Oslo"]) for _ in range(rng.randint(0, 4))]
        predictions.append([{"type": rng.choice(("LOC", "PER")), "text": word} for word in guesses])
    return predictions, references, texts


def columns_of(case: dict[str, Any]) -> dict[str, list]:
    """The columns stored with each batch: the case's, and its documents (the data's third item, docs/scoring.md
    §9)."""
    documents = {"documents": case["data"][2]} if len(case["data"]) > 2 else {}
    given = {name: case[name] for name in ("tokens", "texts") if name in case}
    return {**case.get("columns", {}), **given, **documents}


def shards(
    predictions: list[list[Any]], references: list[list[Any]], split: str, columns: dict[str, list] | None = None
) -> list[list[dict[str, list[list[Any]]]]]:
    """Each process's batches: a contiguous block per process (split="half", "one-then-rest", or everything on
    one process and nothing on the other: "all-on-process-0", "all-on-process-1"), or every
    NUM_PROCESS-th sentence (split="interleaved", as a DistributedSampler deals them out)."""
    count = len(references)
    if split == "interleaved":
        indices = [list(range(process, count, NUM_PROCESS)) for process in range(NUM_PROCESS)]
    else:
        cut = {"one-then-rest": 1, "all-on-process-0": count, "all-on-process-1": 0}.get(split, count // 2)
        indices = [list(range(cut)), list(range(cut, count))]
    return [
        [
            {
                "predictions": [predictions[i] for i in part[start : start + BATCH_SIZE]],
                "references": [references[i] for i in part[start : start + BATCH_SIZE]],
                **{
                    name: [values[i] for i in part[start : start + BATCH_SIZE]]
                    for name, values in (columns or {}).items()
                },
            }
            for start in range(0, len(part), BATCH_SIZE)
        ]
        for part in indices
    ]


def with_documents(data: tuple[list, list]) -> tuple[list, list, list]:
    """A batch with document ids of two JSON kinds (strings and numbers), each document's sentences scattered."""
    predictions, references = data
    return predictions, references, [f"doc-{i % 7}" if i % 3 else i % 5 for i in range(len(references))]


# id -> label as it comes back from JSON (config.json): string keys.
ID2LABEL_FROM_JSON = {str(index): tag for index, tag in enumerate(LABELS)}

CASES = {
    "string-tags-with-entities": dict(
        data=tag_sentences(1, IOB2_TAGS), load={"per_type": True}, compute={"return_entities": True}, array="list"
    ),
    "ids-numpy-label_list-at-load": dict(data=id_sentences(2), load={"label_list": LABELS}, compute={}, array="numpy"),
    "ids-torch-id2label-in-compute": dict(
        data=id_sentences(3), load={}, compute={"label_list": ID2LABEL_FROM_JSON}, array="torch", split="interleaved"
    ),
    "iobes-strict-options-at-load": dict(
        data=tag_sentences(4, IOBES_TAGS),
        load={"scheme": "IOBES", "mode": "strict"},
        compute={"per_type": True},
        array="list",
        split="interleaved",
    ),
    "ids-lists-one-sentence-on-process-0": dict(
        data=id_sentences(5), load={"label_list": LABELS}, compute={}, array="list", split="one-then-rest"
    ),
    # Uneven shards: a process with no data of its own still takes part, so process 0 answers at once rather
    # than after evaluate's timeout (shortened here, so that a regression fails in seconds, not minutes).
    "tags-process-1-adds-nothing": dict(
        data=tag_sentences(6, IOB2_TAGS),
        load={"timeout": 30},
        compute={"confusion": True},
        array="list",
        split="all-on-process-0",
    ),
    "ids-id2label-in-compute-process-1-adds-nothing": dict(
        data=id_sentences(8),
        load={"timeout": 30},
        compute={"label_list": ID2LABEL_FROM_JSON},
        array="list",
        split="all-on-process-0",
    ),
    # Spans: nested entities in every form, options at load and in compute; and a process whose documents have
    # no entity at all, which stores them in a form that merges with process 0's.
    "spans-nested-options": dict(
        data=span_documents(9),
        load={"min_overlap": 0.5},
        compute={"return_entities": True, "per_type": True},
        array="list",
    ),
    "spans-process-1-documents-without-entities": dict(
        data=span_documents(10, empty_from=20), load={"timeout": 30}, compute={"return_entities": True}, array="list"
    ),
    # Discontinuous entities (issue 30): their fragments stored beside start and end.
    "spans-with-fragments": dict(
        data=fragment_documents(13), load={}, compute={"return_entities": True, "diagnostics": True}, array="list"
    ),
    # String entities grounded to their texts, stored with each batch (issue 17).
    "strings-with-texts": dict(
        data=string_documents(11)[:2],
        texts=string_documents(11)[2],
        load={"per_type": True},
        compute={"return_entities": True},
        array="list",
    ),
    "strings-normalized-interleaved": dict(
        data=string_documents(12)[:2],
        texts=string_documents(12)[2],
        load={"normalize": True},
        compute={},
        array="list",
        split="interleaved",
    ),
    # Slices from the tokens and groups stored with each batch (docs/scoring.md §11).
    "tags-slices-with-tokens-and-groups": dict(
        data=tag_sentences(11, IOB2_TAGS),
        columns={
            "tokens": [[f"w{i % 3}" for i in range(12)][:n] for n in map(len, tag_sentences(11, IOB2_TAGS)[1])],
            "groups": [f"g{i % 3}" for i in range(40)],
        },
        load={"slices": ["entity_length", "seen", "sentence_length", "group"]},
        compute={"seen": ["w0", "w1 w2"]},
        array="list",
        split="interleaved",
    ),
    # docs/scoring.md §11: the tokens stored with each batch name the errors; diagnostics and errors add up.
    "tags-with-tokens-diagnostics-errors": dict(
        data=tag_sentences(11, IOB2_TAGS),
        columns={"tokens": [[f"w{i % 3}" for i in range(n)] for n in map(len, tag_sentences(11, IOB2_TAGS)[1])]},
        load={"diagnostics": True},
        compute={"errors": True},
        array="list",
        split="interleaved",
    ),
    # Documents as the resampling unit: the ids stored with each batch, through every shard; and a process with
    # no data of its own beside one whose batches carry documents (its stored schema has no column for them).
    "tags-documents-bootstrap": dict(
        data=with_documents(tag_sentences(11, IOB2_TAGS)), load={}, compute={"bootstrap": 200}, array="list"
    ),
    "documents-interleaved": dict(
        data=with_documents(tag_sentences(12, IOB2_TAGS)),
        load={"bootstrap": 200},
        compute={},
        array="list",
        split="interleaved",
    ),
    "documents-process-1-adds-nothing": dict(
        data=with_documents(tag_sentences(13, IOB2_TAGS)),
        load={"timeout": 30},
        compute={"bootstrap": 200},
        array="list",
        split="all-on-process-0",
    ),
    "documents-process-0-adds-nothing": dict(
        data=with_documents(tag_sentences(14, IOB2_TAGS)),
        load={"timeout": 30},
        compute={"bootstrap": 200},
        array="list",
        split="all-on-process-1",
    ),
    "ids-process-0-adds-nothing": dict(
        data=id_sentences(7),
        load={"label_list": LABELS, "timeout": 30},
        compute={},
        array="numpy",
        split="all-on-process-1",
    ),
}


@pytest.fixture(scope="module")
def distributed_results(tmp_path_factory) -> dict[str, list[dict | None]]:
    """Every case run by NUM_PROCESS worker processes at once: case -> [result of process 0, of process 1]."""
    folder = tmp_path_factory.mktemp("distributed")
    jobs = [
        {
            "experiment_id": f"{name}-{uuid.uuid4().hex}",
            "load": case["load"],
            "compute": case["compute"],
            "array": case["array"],
            "shards": shards(*case["data"][:2], case.get("split", "half"), columns_of(case)),
        }
        for name, case in CASES.items()
    ]
    spec = {"metric": str(METRIC_PATH), "cache_dir": str(folder / "cache"), "num_process": NUM_PROCESS, "jobs": jobs}
    jobs_path = folder / "jobs.json"
    jobs_path.write_text(json.dumps(spec), encoding="utf-8")
    # No Hub calls from the children either (NOTES: only HF_EVALUATE_OFFLINE stops them).
    # The checkout's package on their path, as an installed one would be: the worker runs from tests/.
    environment = {**os.environ, "HF_EVALUATE_OFFLINE": "1", "PYTHONPATH": str(REPO)}
    outputs = [folder / f"process-{process}.json" for process in range(NUM_PROCESS)]
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(jobs_path), str(process), str(output)],
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for process, output in enumerate(outputs)
    ]
    failures = []
    for process, worker in enumerate(workers):
        try:
            _, stderr = worker.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            for started in workers:
                started.kill()
            _, stderr = worker.communicate()
        if worker.returncode != 0:
            failures.append(f"process {process} exited with {worker.returncode}:\n{stderr[-3000:]}")
    if failures:
        pytest.fail("\n".join(failures))
    per_process = [json.loads(Path(output).read_text(encoding="utf-8")) for output in outputs]
    return {name: [results[index] for results in per_process] for index, name in enumerate(CASES)}


def single_process_result(load_metric, cache_dir: Path, case: dict[str, Any]) -> dict[str, Any]:
    """What one process gets when it adds the same batches, in process order."""
    sys.path.insert(0, str(WORKER.parent))
    try:
        from distributed_worker import as_array
    finally:
        sys.path.remove(str(WORKER.parent))
    metric = load_metric(cache_dir=str(cache_dir), **case["load"])
    for shard in shards(*case["data"][:2], case.get("split", "half"), columns_of(case)):
        for batch in shard:
            metric.add_batch(
                predictions=as_array(batch["predictions"], case["array"]),
                references=as_array(batch["references"], case["array"]),
                **{name: batch[name] for name in columns_of(case)},
            )
    return metric.compute(**case["compute"])


@pytest.mark.parametrize("name", list(CASES))
def test_process_0_returns_the_single_process_numbers(distributed_results, load_metric, tmp_path, name):
    case = CASES[name]
    first, second = distributed_results[name]
    assert second is None
    expected = single_process_result(load_metric, tmp_path, case)
    assert first == expected
    assert first["strict_possible"] > 0
    assert first["strict_actual"] > 0


@pytest.mark.parametrize("name", list(CASES))
def test_process_0_totals_equal_compute_semeval_on_the_whole_set(distributed_results, name):
    # Sharding only reorders sentences, and the tally is a sum (docs/scoring.md §7): every score equals the
    # whole set's in its original order; the entity rows too when the shards are contiguous blocks.
    case = CASES[name]
    first, _ = distributed_results[name]
    predictions, references = case["data"][:2]
    options = {name: value for name, value in case["load"].items() if name in OPTION_NAMES}  # not `timeout`
    expected = compute_semeval(
        predictions=predictions, references=references, **options, **case["compute"], **columns_of(case)
    )
    if case.get("split", "half") == "interleaved":
        first = {key: value for key, value in first.items() if key != "entities"}
        expected.pop("entities", None)
    assert first == expected


@pytest.mark.parametrize("name", [name for name, case in CASES.items() if len(case["data"]) == 3])
def test_process_0_resamples_the_documents_it_was_given(distributed_results, name):
    # Equal to compute_semeval with the documents (above), and not to it without them: the ids came through.
    case = CASES[name]
    first, _ = distributed_results[name]
    predictions, references, _ = case["data"]
    options = {name: value for name, value in case["load"].items() if name in OPTION_NAMES}
    by_sentence = compute_semeval(predictions=predictions, references=references, **options, **case["compute"])
    assert first is not None and first != by_sentence
    assert {key: value for key, value in first.items() if not key.endswith(("_low", "_high"))} == {
        key: value for key, value in by_sentence.items() if not key.endswith(("_low", "_high"))
    }
