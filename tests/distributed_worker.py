"""One process of a distributed ner_semeval run; tests/test_distributed.py starts several of these at once.

    python distributed_worker.py JOBS_JSON PROCESS_ID OUTPUT_JSON

JOBS_JSON holds {"metric": path, "cache_dir": dir, "num_process": n, "jobs": [job, ...]}; each job is
{"experiment_id": str, "load": {...}, "compute": {...}, "array": "list" | "numpy" | "torch",
"shards": [[batch, ...] for each process]} with batch = {"predictions": rows, "references": rows} and, when
given, "texts", "tokens" or "documents": one value per sentence. For each job
in order, this process loads the metric in evaluate's distributed mode, adds its shard batch by batch and
calls compute(); OUTPUT_JSON receives the list of results (null where compute() returned None).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import evaluate


def as_array(rows: list[list[Any]], array: str) -> Any:
    """A batch as Trainer would hand it over: one 2-D array, rows padded to one width with -100."""
    if array == "list":
        return rows
    width = max(map(len, rows), default=0)
    padded = [[*row, *[-100] * (width - len(row))] for row in rows]
    if array == "numpy":
        import numpy

        return numpy.array(padded, dtype=numpy.int64)
    import torch

    return torch.tensor(padded, dtype=torch.int64)


def run(jobs_path: str, process_id: int) -> list[dict | None]:
    with open(jobs_path, encoding="utf-8") as handle:
        spec = json.load(handle)
    results = []
    for job in spec["jobs"]:
        metric = evaluate.load(
            spec["metric"],
            num_process=spec["num_process"],
            process_id=process_id,
            experiment_id=job["experiment_id"],
            cache_dir=spec["cache_dir"],
            **job["load"],
        )
        for batch in job["shards"][process_id]:
            metric.add_batch(
                predictions=as_array(batch["predictions"], job["array"]),
                references=as_array(batch["references"], job["array"]),
                # The columns stored with the batch (tokens, groups), as a Trainer's caller would pass them.
                **{name: batch[name] for name in ("texts", "tokens", "groups", "documents") if name in batch},
            )
        results.append(metric.compute(**job["compute"]))
    return results


if __name__ == "__main__":
    jobs_path, process_id, output_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    outcome = run(jobs_path, process_id)
    with open(output_path, "w", encoding="utf-8") as handle:
        json.dump(outcome, handle)
