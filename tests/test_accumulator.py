"""nerscore.accumulator: one `Accumulator` for every front end. A corpus added batch by batch, in partitions merged
with `+` (in any grouping), pickled and unpickled, in a `datasets` map over two processes and on a local Dask
cluster, gives `compute_semeval`'s dict of the whole corpus in one pass; a failed update loses nothing."""

from __future__ import annotations

import copy
import doctest
import math
import pickle
import random
import re
from functools import reduce
from operator import add
from typing import Any

import numpy as np
import pytest
from conftest import REPO

import nerscore
from nerscore import Accumulator, Options, compute_semeval
from nerscore.files.readers import read_span_lines

TAGS = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"]
# Every option that adds to what is counted: intervals (per sentence, and per document), the rows, the slices,
# §10's weighted columns, the findings.
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"bootstrap": 200, "per_type": True, "confusion": True},
    {"return_entities": True, "value": True},
    {"slices": ["entity_length", "sentence_length"], "bootstrap": 100},
    # Each batch holds other groups: their bucket columns are moved to the groups of both as batches add.
    {"slices": ["group", "entity_length"], "bootstrap": 100, "value": True},
    {"partial_credit": "overlap", "bootstrap": 100},
    {"diagnostics": True, "errors": 5},
]


def corpus(seed: int = 0, sentences: int = 60) -> dict[str, Any]:
    """Random tag sequences (ill-formed ones included) with noisy predictions, their tokens and documents."""
    rng = random.Random(seed)
    references, predictions, tokens, documents = [], [], [], []
    for number in range(sentences):
        length = rng.randint(0, 9)
        reference = [rng.choice(TAGS) for _ in range(length)]
        references.append(reference)
        predictions.append([tag if rng.random() < 0.7 else rng.choice(TAGS) for tag in reference])
        tokens.append([f"w{rng.randint(0, 5)}" for _ in range(length)])
        documents.append(number // 7)
    groups = [f"g{number * 7 % 11}" for number in range(sentences)]
    return {
        "predictions": predictions,
        "references": references,
        "tokens": tokens,
        "documents": documents,
        "groups": groups,
    }


def part(data: dict[str, Any], start: int, stop: int) -> dict[str, Any]:
    return {name: values[start:stop] for name, values in data.items()}


def in_batches(options: dict[str, Any], data: dict[str, Any], size: int) -> Accumulator:
    accumulator = Accumulator.of(**options)
    for start in range(0, len(data["references"]), size):
        accumulator = accumulator.update(**part(data, start, start + size))
    return accumulator


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda options: ",".join(options) or "default")
@pytest.mark.parametrize("documents", [False, True], ids=["sentences", "documents"])
def test_batches_add_up_to_one_pass(options: dict[str, Any], documents: bool) -> None:
    data = corpus(1)
    if not documents:
        del data["documents"]
    expected = compute_semeval(**data, **options)
    assert in_batches(options, data, 7).result() == expected
    assert in_batches(options, data, 1000).result() == expected


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda options: ",".join(options) or "default")
def test_partitions_merge_in_any_grouping_and_pickle(options: dict[str, Any]) -> None:
    data = corpus(2)
    expected = compute_semeval(**data, **options)
    parts = [Accumulator.of(**options).update(**part(data, start, start + 9)) for start in range(0, 60, 9)]
    parts = [pickle.loads(pickle.dumps(one)) for one in parts]
    assert reduce(add, parts).result() == expected
    halves = reduce(add, parts[:3]) + reduce(add, parts[3:])  # a tree of merges, as a map-reduce engine makes
    assert halves.result() == expected
    assert (Accumulator.of(**options) + reduce(add, parts)).result() == expected  # the empty one adds nothing


UNPICKLED_BATCHES = {
    "spans": {"predictions": [[(0, 3, "PER"), (8, 11, "LOC")]], "references": [[(0, 3, "PER"), (8, 11, "PER")]]},
    "fragments": {
        "predictions": [[{"fragments": [[0, 3], [8, 11]], "type": "PER"}]],
        "references": [[(0, 3, "PER"), (8, 11, "PER")]],
    },
    "strings": {
        "predictions": [[("PER", "Ann"), ("LOC", "Bob")]],
        "references": [[("PER", "Ann"), ("PER", "Bob")]],
        "texts": ["Ann met Bob"],
    },
    "tags": {"predictions": [["B-PER", "I-PER", "O"]], "references": [["B-PER", "O", "B-PER"]]},
}


@pytest.mark.parametrize(
    "copied", [lambda one: pickle.loads(pickle.dumps(one)), copy.deepcopy], ids=["pickled", "deep-copied"]
)
@pytest.mark.parametrize("form", list(UNPICKLED_BATCHES))
@pytest.mark.parametrize("options", [{}, {"bootstrap": 20}, {"value": True}, {"return_entities": True}], ids=str)
def test_an_unpickled_accumulator_counts_on_as_the_one_pickled(copied, form: str, options: dict[str, Any]) -> None:
    # (Red team 2: an unpickled or copied accumulator's options hold a copy of IOB2, which the span check told by
    # identity: every later update of spans, fragments or strings raised "scheme given with span input".)
    batch = UNPICKLED_BATCHES[form]
    counted = Accumulator.of(**options).update(**batch)
    assert copied(counted).update(**batch).result() == counted.update(**batch).result()
    assert copied(Accumulator.of(**options)).update(**batch).result() == counted.result()


def test_spans_and_strings_add_up_too() -> None:
    text = "Ann met Bob in Rome. "
    references = [[(0, 3, "PER"), (8, 11, "PER"), (15, 19, "LOC")]] * 4
    predictions = [[(0, 3, "PER"), (8, 11, "LOC")], [], [(15, 19, "LOC")], [(0, 11, "PER")]]
    strings = [[("PER", "Ann"), ("LOC", "Paris")], [("PER", "Bob")], [], [("LOC", "Rome")]]
    options = {"bootstrap": 50, "return_entities": True}
    for given in (predictions, strings):
        columns = {"texts": [text] * 4}
        expected = compute_semeval(predictions=given, references=references, **columns, **options)
        accumulator = Accumulator.of(**options)
        for index in range(4):
            batch = {"predictions": given[index : index + 1], "references": references[index : index + 1]}
            accumulator = accumulator.update(**batch, texts=[text])
        assert accumulator.result() == expected


def test_it_pickles_as_its_counts() -> None:
    data = corpus(3, sentences=3000)
    counted = Accumulator.of(scheme="IOB2", bootstrap=100).update(**{**data, "documents": None})
    # the tally and the distinct per-sentence vectors, not the sentences
    assert len(pickle.dumps(counted)) < 20_000


def test_a_failed_update_loses_nothing_and_names_the_sentence_in_the_corpus() -> None:
    data = corpus(4)
    accumulator = Accumulator.of().update(**part(data, 0, 30))
    bad = part(data, 30, 40)
    bad["predictions"] = [list(sentence) for sentence in bad["predictions"]]
    bad["predictions"][2] = ["B-PER"] * (len(bad["references"][2]) + 1)
    with pytest.raises(ValueError, match="sentence 32"):
        accumulator.update(**bad)
    assert accumulator.update(**part(data, 30, 60)).result() == compute_semeval(**data)


def test_batches_of_documents_copy_n_log_n_rows_not_every_row_at_every_batch(monkeypatch) -> None:
    # The red team (stop 40): each batch of documents stacked every row held so far (8,000 batches of 20 sentences
    # with bootstrap: 23 of 47 s, x2.5 a doubling; benchmarks/growth.py --document-batches). Counted, not timed.
    from nerscore import accumulator as module

    copied: list[int] = []

    def stacked(parts: Any, axis: int) -> Any:
        joined = nerscore.statistics.unit_counts.stacked(parts, axis)
        copied.append(joined.shape[0] if axis == 0 else 0)
        return joined

    monkeypatch.setattr(module, "stacked", stacked)
    data = corpus(6, sentences=512)
    options = {"bootstrap": 20, "slices": ["group"]}
    found = in_batches(options, data, 2)
    assert found.result() == compute_semeval(**data, **options) and found.documents == len(set(data["documents"]))
    assert sum(copied) <= 512 * (8 + 4)  # log2(256 batches) = 8; at every batch: 65,790 rows


def test_the_rows_of_many_batches_are_kept_in_log_n_runs_not_joined_at_every_batch() -> None:
    # The red team (stop 40): return_entities' rows were joined into one tuple at every batch, every row held
    # copied again (16,000 batches of 20 sentences: 168 s, x3.5 a doubling, where 7 s without rows; now 10.8 s).
    data = corpus(9, sentences=512)
    found = in_batches({"return_entities": True}, data, 2)
    assert found.result() == compute_semeval(**data, return_entities=True)
    assert found.entities is not None and len(found.entities.runs) <= 8 + 1  # log2(256 batches) + 1
    assert list(found.entities) == compute_semeval(**data, return_entities=True)["entities"]


@pytest.fixture
def laid_groups(monkeypatch) -> list[int]:
    """The groups each laying out of bucket columns handles (`slices.columns_in`: a run laid out as the groups of
    two), one number a call, for the tests of batches of new groups."""
    from nerscore.table import slices

    laid: list[int] = []
    columns_in = slices.columns_in

    def counted_columns(names: Any, joined: Any) -> Any:
        laid.append(len(joined["group"]))
        return columns_in(names, joined)

    monkeypatch.setattr(slices, "columns_in", counted_columns)
    return laid


@pytest.mark.parametrize("documents", [False, True], ids=["sentences", "documents"])
def test_batches_of_new_groups_handle_n_log_n_groups_not_every_group_at_every_batch(
    monkeypatch, laid_groups, documents
) -> None:
    from nerscore.table.slices import SliceCounts

    handled: list[int] = []
    joined_names = SliceCounts.joined_names

    def counted(self: SliceCounts, other: SliceCounts) -> dict[str, list[str]]:
        names = joined_names(self, other)
        handled.append(len(names["group"]))
        return names

    monkeypatch.setattr(SliceCounts, "joined_names", counted)
    data = {**corpus(8, sentences=512), "groups": [f"g{number}" for number in range(512)]}
    if not documents:
        del data["documents"]
    options = {"bootstrap": 10, "slices": ["group"]}
    assert in_batches(options, data, 2).result() == compute_semeval(**data, **options)
    assert sum(handled) <= 512 * (8 + 4)  # log2(256 batches) = 8; at every batch: 512 * 257
    assert sum(laid_groups) <= 2 * 512 * (8 + 4)  # the units' bucket columns (`slices.laid_out`)


def test_batches_of_sentences_of_no_entity_in_new_groups_lay_out_n_log_n_groups(laid_groups) -> None:
    # Such sentences share one count vector: runs merged by their rows alone merged at every batch, every group
    # held laid out again (`unit_counts.CountRuns` weighs a run's groups too).
    data = {"predictions": [["O", "O"]] * 512, "references": [["O", "O"]] * 512, "groups": list(range(512))}
    options = {"bootstrap": 10, "slices": ["group"]}
    assert in_batches(options, data, 2).result() == compute_semeval(**data, **options)
    assert sum(laid_groups) <= 2 * 512 * (8 + 4)  # at every batch: 512 * 257


def test_a_batch_of_documents_that_cannot_follow_is_refused_as_it_is_added() -> None:
    data = corpus(7, sentences=20)
    accumulator = in_batches({"bootstrap": 10}, part(data, 0, 10), 2)
    with pytest.raises(ValueError, match="documents with every batch"):
        accumulator.update(**{**part(data, 10, 12), "documents": None})
    with pytest.raises(ValueError, match="documents with every batch"):
        accumulator + Accumulator.of(bootstrap=10).update(**{**part(data, 10, 12), "documents": None})
    assert accumulator.update(**part(data, 10, 20)).result() == compute_semeval(**data, bootstrap=10)


def test_options_must_agree_to_add() -> None:
    with pytest.raises(ValueError, match="different options"):
        Accumulator.of(scheme="IOB2") + Accumulator.of(scheme="IOBES")
    with pytest.raises(ValueError, match="different options"):  # other types, not the same in another order
        Accumulator.of(labels=["PER", "LOC"]) + Accumulator.of(labels=["LOC", "ORG"])


# Labels are the set of types counted: two accumulators of the same types in another order add up to one over both
# (it refused them as of different options), the per-type keys in the order of the left one's labels.
LABEL_ORDERS = {
    "per-type": {"per_type": True},
    "intervals-by-document": {"bootstrap": 50, "per_type": True},
    "rows-and-slices": {"return_entities": True, "slices": ["entity_length"], "errors": 3},
}


@pytest.mark.parametrize("options", LABEL_ORDERS.values(), ids=LABEL_ORDERS.keys())
def test_labels_in_another_order_add_up_to_one_accumulator_over_both(options: dict[str, Any]) -> None:
    data = corpus(4)
    first, second = part(data, 0, 25), part(data, 25, 60)
    one = Accumulator.of(labels=["PER", "LOC"], **options).update(**first).update(**second)
    left = Accumulator.of(labels=["PER", "LOC"], **options).update(**first)
    right = Accumulator.of(labels=["LOC", "PER"], **options).update(**second)
    assert list((left + right).result()) == list(one.result())  # (the keys' order too)
    assert (left + right).result() == one.result() == compute_semeval(**data, labels=["PER", "LOC"], **options)
    assert (Accumulator.of(labels=["LOC", "PER"], **options) + left).options.labels == ("LOC", "PER")


def test_a_batch_grounded_under_labels_in_another_order_is_counted() -> None:
    texts, references, predictions = ["Ann met Bo"], [[("PER", "Ann"), ("LOC", "Bo")]], [[("PER", "Ann")]]
    grounded = Accumulator.of(labels=["LOC", "PER"]).ground(predictions=predictions, references=references, texts=texts)
    counted = Accumulator.of(labels=["PER", "LOC"]).update_grounded(grounded).result()
    assert counted == compute_semeval(
        predictions=predictions, references=references, texts=texts, labels=["PER", "LOC"]
    )


# `seen` and `slice_edges` shape a slice and nothing else: given without it, every front end that counts refuses
# them (they were silently ignored), whatever the form; with the slice they are read.
UNREAD_SLICE_OPTIONS = {
    "seen-alone": ({"seen": ["w1"]}, r"^seen given without the seen slice \(slices=\[\]\)"),
    "seen-beside-another-slice": (
        {"seen": ["w1"], "slices": ["entity_length"]},
        r"^seen given without the seen slice \(slices=\['entity_length'\]\).*expected 'seen' in slices",
    ),
    "edges-of-a-slice-not-asked": (
        {"slices": ["sentence_length"], "slice_edges": {"entity_length": [1, 2]}},
        r"^slice_edges\['entity_length'\] given without the entity_length slice",
    ),
}


@pytest.mark.parametrize(("options", "message"), UNREAD_SLICE_OPTIONS.values(), ids=UNREAD_SLICE_OPTIONS.keys())
def test_an_option_of_a_slice_not_asked_for_is_refused_as_batches_are_counted(options: dict, message: str) -> None:
    data = part(corpus(2), 0, 5)
    spans = {"predictions": [[(0, 1, "PER")]], "references": [[(0, 1, "PER")]], "texts": ["w1"]}
    for call in (
        lambda: compute_semeval(**data, **options),
        lambda: Accumulator.of(**options).update(**data),
        lambda: compute_semeval(**spans, **options),
        lambda: Accumulator.of(**options).add(
            nerscore.compute.count_batch([["O"]], [["O"]], "tags", Options.of(**options), False)[0], 1
        ),
    ):
        with pytest.raises(ValueError, match=message):
            call()
    Options.of(**options)  # (not by Options itself: evaluate's load(seen=...) may wait for compute(slices=["seen"]))
    asked = {**options, "slices": [*options.get("slices", ()), "seen", "entity_length"], "seen": ["w1"]}
    assert "slices" in compute_semeval(**data, **asked)


@pytest.mark.parametrize("bootstrap", [0, 10])
@pytest.mark.parametrize("ordered_first", [True, False])
def test_ordered_must_agree_to_add(bootstrap: int, ordered_first: bool) -> None:
    # redteam5: without bootstrap the sum said ordered=True and held one side's sentences alone in `in_order`;
    # with it, the refusal spoke of documents that neither side had.
    options, batch = Options.of(bootstrap=bootstrap), {"predictions": [["B-PER"]], "references": [["B-PER"]]}
    ordered = Accumulator(options, ordered=True).update(**batch)
    unordered = Accumulator(options).update(**batch)
    with pytest.raises(ValueError, match=r"^found an accumulator with ordered=True and one without"):
        (ordered + unordered) if ordered_first else (unordered + ordered)


@pytest.mark.parametrize("other", [None, 0, {"strict_f1": 1.0}])
def test_only_an_accumulator_adds_to_an_accumulator(other: Any) -> None:
    # Python's own "unsupported operand" (the red team's: AttributeError "'NoneType' object has no attribute
    # 'options'", which named no operand).
    with pytest.raises(TypeError, match="unsupported operand type"):
        Accumulator.of() + other


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"diagnostics": True}, id="diagnostics"),
        pytest.param({"errors": 3}, id="errors"),
        pytest.param({"slices": ["entity_length", "sentence_length"]}, id="slices"),
        pytest.param({"diagnostics": True, "errors": True, "slices": ["entity_length"]}, id="all"),
        # Intervals of no unit were IndexError (overlap) or a reshape's ValueError (slices): no unit is a batch's
        # width, §10's columns and the buckets included.
        pytest.param({"bootstrap": 5, "partial_credit": "overlap"}, id="bootstrap-overlap"),
        pytest.param({"bootstrap": 5, "value": True, "slices": ["entity_length"]}, id="bootstrap-value-slices"),
    ],
)
def test_nothing_added_reads_as_nothing_found(options: dict[str, Any]) -> None:
    # An empty file's --diagnostics (or --errors, --slices) exited 2 with "diagnostics needs a tally counted with
    # diagnostics=True": with no batch, what was asked for is compute_semeval's of no sentence.
    empty = nerscore.compute_semeval(predictions=[], references=[], **options)
    result = nerscore.Accumulator.of(**options).result()
    assert result == {key: value for key, value in empty.items() if key != "token_accuracy"}
    assert nerscore.Accumulator.of(**options).result(token_accuracy=True) == empty


def test_token_accuracy_is_asked_for_or_left_out() -> None:
    # By default where tags were counted; True before any batch too (the command line's empty file of tags);
    # False nowhere, the slices' buckets included (the Space's picture), every other key as it was.
    data = corpus(5)
    options = {"slices": ["entity_length", "sentence_length"], "bootstrap": 50}
    counted = Accumulator.of(**options).update(**data)
    full = counted.result()
    assert counted.result(token_accuracy=True) == full and "token_accuracy" in full
    without = counted.result(token_accuracy=False)
    assert without == {key: value for key, value in full.items() if key not in ("token_accuracy", "slices")} | {
        "slices": {
            name: {
                bucket: {key: value for key, value in values.items() if key != "token_accuracy"}
                for bucket, values in buckets.items()
            }
            for name, buckets in full["slices"].items()
        }
    }
    assert any("token_accuracy" in values for values in full["slices"]["sentence_length"].values())
    empty = Accumulator.of()
    assert "token_accuracy" not in empty.result() and "token_accuracy" not in empty.result(token_accuracy=False)
    assert empty.result(token_accuracy=True) == compute_semeval(predictions=[[]], references=[[]])
    spans = Accumulator.of().update(predictions=[[(0, 1, "PER")]], references=[[(0, 1, "PER")]])
    assert spans.result(token_accuracy=False) == spans.result() and "token_accuracy" not in spans.result()


def test_it_is_a_public_name_of_the_package_and_the_module() -> None:
    import ner_semeval

    assert "Accumulator" in nerscore.__all__
    assert ner_semeval.Accumulator is Accumulator


def test_the_example_of_docs_large_corpora_runs_as_written() -> None:
    # Its first block is a doctest: batches add up to one compute_semeval, and two halves' strict F1.
    text = (REPO / "docs" / "large-corpora.md").read_text(encoding="utf-8")
    block = text.split("```python", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "docs/large-corpora.md", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert test.examples and runner.summarize(verbose=False) == (0, len(test.examples))


# The map-reduce of docs/large-corpora.md, as written there.
OPTIONS = {"scheme": "IOB2", "bootstrap": 200, "per_type": True}


def count(batch: dict[str, list]) -> dict[str, list]:
    """One accumulator per batch of the map: its counts, pickled, are the batch's one row."""
    accumulator = Accumulator.of(**OPTIONS).update(predictions=batch["predictions"], references=batch["references"])
    return {"counts": [pickle.dumps(accumulator)]}


def count_partition(sentences: Any) -> Accumulator:
    """One accumulator per partition of a Dask bag of (prediction, reference) pairs."""
    pairs = list(sentences)
    predictions = [prediction for prediction, _ in pairs]
    references = [reference for _, reference in pairs]
    return Accumulator.of(**OPTIONS).update(predictions=predictions, references=references)


def merge(parts: Any) -> Accumulator:
    return reduce(add, parts)


@pytest.mark.slow
def test_a_datasets_map_over_two_processes_equals_one_pass() -> None:
    datasets = pytest.importorskip("datasets")
    data = corpus(5, sentences=400)
    table = datasets.Dataset.from_dict({"predictions": data["predictions"], "references": data["references"]})
    counted = table.map(count, batched=True, batch_size=50, num_proc=2, remove_columns=table.column_names)
    assert len(counted) == 8  # one row per batch
    result = reduce(add, (pickle.loads(row) for row in counted["counts"])).result()
    assert result == compute_semeval(predictions=data["predictions"], references=data["references"], **OPTIONS)


@pytest.mark.slow
def test_a_local_dask_cluster_of_two_processes_equals_one_pass() -> None:
    bag = pytest.importorskip("dask.bag")
    distributed = pytest.importorskip("dask.distributed")
    data = corpus(6, sentences=400)
    expected = compute_semeval(predictions=data["predictions"], references=data["references"], **OPTIONS)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        sentences = bag.from_sequence(list(zip(data["predictions"], data["references"])), npartitions=6)
        accumulator = sentences.reduction(count_partition, merge).compute(scheduler=client)
        assert accumulator.result() == expected
        assert len(client.scheduler_info()["workers"]) == 2


@pytest.mark.parametrize("empty", [[], [[]], [[], []]])
def test_an_empty_batch_adds_no_token_accuracy_to_spans(empty: list) -> None:
    # A batch without a token (a data loader's last, empty batch) reads as tags of no token; added to batches of
    # spans, the result is compute_semeval's of them all: spans, without `token_accuracy` (the red team's: 0.0).
    spans = [[(0, 2, "PER")], [(1, 3, "LOC")]]
    expected = compute_semeval(predictions=spans, references=spans)
    before = Accumulator().update(predictions=empty, references=empty).update(predictions=spans, references=spans)
    after = Accumulator().update(predictions=spans, references=spans).update(predictions=empty, references=empty)
    assert before.result() == after.result() == expected
    assert Accumulator().update(predictions=empty, references=empty).result()["token_accuracy"] == 0.0


@pytest.mark.parametrize("slices", [["group"], ["sentence_length"]])
def test_an_empty_batch_adds_no_token_accuracy_to_the_buckets_of_spans(slices: list[str]) -> None:
    # The red team's (redteam5): the totals dropped an empty batch's tokens beside spans, the buckets kept them, so
    # batches gave each bucket a `token_accuracy` of 1.0 that one call did not.
    spans, columns = [[], [(0, 1, "PER")]], {"groups": ["a", "a"], "tokens": [[], ["w"]]}
    expected = compute_semeval(predictions=spans, references=spans, slices=slices, **columns)
    batches = Accumulator.of(slices=slices)
    for sentence in (0, 1):
        one = {name: values[sentence : sentence + 1] for name, values in columns.items()}
        batches = batches.update(
            predictions=spans[sentence : sentence + 1], references=spans[sentence : sentence + 1], **one
        )
    assert batches.result() == expected
    assert all("token_accuracy" not in bucket for buckets in expected["slices"].values() for bucket in buckets.values())


@pytest.mark.parametrize("options", [{"per_type": True}, "IOB2", 5], ids=["a-dict", "a-string", "a-number"])
def test_result_under_options_that_are_no_options_is_refused(options) -> None:
    # AttributeError ("'dict' object has no attribute 'diagnostics'") before.
    counted = Accumulator.of().update(predictions=[["B-PER"]], references=[["B-PER"]])
    with pytest.raises(ValueError, match=r"^options is .*; expected an Options \(nerscore.Options.of\(per_type=True"):
        counted.result(options)


# counted_as: a batch counted for a caller that scores several (systems, runs, annotators' pairs), its problem
# located in the caller's terms: (predictions, references, sides, sentences, the error's start).
COUNTED_AS_CASES = [
    pytest.param(
        [["O"], ["B-PER", "X"]],
        [["O"], ["B-PER", "O"]],
        {"predictions": "predictions_b"},
        None,
        "predictions_b, sentence 1, token 1: ",
        id="side-renamed",
    ),
    pytest.param(
        [["O"], ["B-PER", "X"]],
        [["O"], ["B-PER", "O"]],
        {"predictions": "annotations['b']"},
        [3, 7],
        "annotations['b'], sentence 7, token 1: ",
        id="sentence-renumbered",
    ),
    pytest.param(
        [["O"], ["B-PER"]],
        [["O"], ["X"]],
        {"predictions": "annotations['b']", "references": "annotations['a']"},
        None,
        "annotations['a'], sentence 1, token 0: ",
        id="references-renamed",
    ),
    pytest.param(
        [["O"], ["B-PER"]],
        [["O"], ["X"]],
        {"predictions": "runs[2]"},
        None,
        "references, sentence 1, token 0: ",
        id="a-side-not-renamed-stays",
    ),
    pytest.param([["O"]], [["O"], ["O"]], {None: "runs[2]"}, None, "runs[2]: predictions hold 1", id="no-side"),
]


@pytest.mark.parametrize(("predictions", "references", "sides", "sentences", "start"), COUNTED_AS_CASES)
def test_counted_as_locates_a_problem_in_the_callers_terms(predictions, references, sides, sentences, start) -> None:
    import numpy as np

    from nerscore.systems import counted_as

    renumbered = None if sentences is None else np.array(sentences)
    with pytest.raises(ValueError) as raised:
        counted_as(
            predictions, references, Options(), {}, ordered=True, sides=sides, name="runs[2]", sentences=renumbered
        )
    assert str(raised.value).startswith(start), str(raised.value)
    outside = [["O"] * len(sentence) for sentence in references]
    for ordered in (True, False):
        counted = counted_as(outside, outside, Options(), {}, ordered=ordered, sides=sides, name="runs[2]")
        assert counted.ordered is ordered and counted.sentences == len(references)


@pytest.mark.parametrize(
    ("before", "sentence", "expected"),
    [
        pytest.param(0, 3, 3, id="the-first-batch"),
        pytest.param(5, 3, 8, id="after-five-sentences"),
        pytest.param(5, 0, 5, id="its-first-sentence"),
        pytest.param(5, None, None, id="no-sentence-named"),
    ],
)
def test_numbered_after_names_a_sentence_among_every_batch_added(before, sentence, expected) -> None:
    from nerscore import InvalidInputError
    from nerscore.errors import numbered_after

    with pytest.raises(InvalidInputError) as raised, numbered_after(before):
        raise InvalidInputError("found X", "predictions", sentence, 2)
    assert (raised.value.side, raised.value.sentence, raised.value.token) == ("predictions", expected, 2)
    assert raised.value.problem == "found X"
    with numbered_after(before):  # nothing raised: nothing to number
        pass


@pytest.mark.parametrize("ordered", [False, True], ids=["distinct-vectors", "in-order"])
@pytest.mark.parametrize("documents_first", [True, False], ids=["documents-first", "documents-second"])
def test_batches_with_documents_and_batches_without_are_refused(ordered, documents_first) -> None:
    # Their sentences could not be summed by document (docs/scoring.md §9): refused, whichever way they are kept.
    batch = {"predictions": [["B-PER"]], "references": [["B-PER"]]}
    accumulator = Accumulator(Options.of(bootstrap=10), ordered=ordered)
    batches = [{**batch, "documents": ["d1"]}, batch]
    first, second = batches if documents_first else batches[::-1]
    with pytest.raises(ValueError, match=r"^found batches with documents and batches without; expected documents "):
        accumulator.update(**first).update(**second)


# result(types=) took a dict's keys silently where labels= refuses a mapping: both refuse it by one check.
A_MAPPING_OF_TYPES = [
    pytest.param(lambda mapping: Accumulator.of(labels=mapping), "labels", id="labels"),
    pytest.param(
        lambda mapping: (
            Accumulator.of(per_type=True).update(predictions=[["B-PER"]], references=[["B-PER"]]).result(types=mapping)
        ),
        "types",
        id="result-types",
    ),
]


@pytest.mark.parametrize(("call", "name"), A_MAPPING_OF_TYPES)
def test_a_mapping_of_types_is_refused_as_labels_refuse_it(call, name: str) -> None:
    message = f"{name} must be a list of entity types such as ['PER', 'LOC']"
    with pytest.raises(
        ValueError, match=rf"^{re.escape(message)}.*, found a mapping \{{'PER': 1\}}; pass list\(\.\.\.\)"
    ):
        call({"PER": 1})


# A NaN document id (pandas' missing value, JSON's NaN) is equal to no id, itself included: its sentences were one
# unit or several by the objects' identity (one NaN object twice: one document; two: two). Refused where it is read.
def _lines_of(document: str) -> list:
    line = '{"document": %s, "references": [], "predictions": []}'
    return list(read_span_lines([line % "1", line % document], "a.jsonl"))


NAN_IDS = [
    pytest.param(
        lambda: compute_semeval(predictions=[[], []], references=[[], []], documents=["a", math.nan], bootstrap=10),
        r"^documents, sentence 1: found nan, equal to no id, itself included \(a missing value\?\)",
        id="documents",
    ),
    pytest.param(
        lambda: Accumulator.of(slices=["group"]).update(predictions=[[]], references=[[]], groups=[np.float32("nan")]),
        r"^groups, sentence 0: found nan, equal to no id",
        id="groups-of-numpy",
    ),
    pytest.param(lambda: _lines_of("NaN"), r"^a.jsonl:2: found NaN for 'document'; expected a string", id="json-lines"),
    # Within a tuple id, at any depth, as a bare one (a tuple holding NaN objects was compared by identity: polish).
    pytest.param(
        lambda: compute_semeval(predictions=[[], []], references=[[], []], documents=[(1, 2), (1, math.nan)]),
        r"^documents, sentence 1: found \(1, nan\), which holds nan, equal to no id, itself included",
        id="documents-tuple",
    ),
    pytest.param(
        lambda: Accumulator.of(slices=["group"]).update(
            predictions=[[]], references=[[]], groups=[("a", (("b", np.float64("nan")),))]
        ),
        r"^groups, sentence 0: found \('a', \(\('b', (np\.float64\()?nan\)?\),\)\), which holds",
        id="groups-nested-tuple",
    ),
]


@pytest.mark.parametrize(("call", "message"), NAN_IDS)
def test_a_nan_id_is_refused_where_it_is_read(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
