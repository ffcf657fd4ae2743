"""The Trainer path: `compute_metrics` from model output, batch-wise accumulation, array inputs.

The slow tests run a real `transformers.Trainer` on a tiny `BertForTokenClassification` built from a config,
with a real WordPiece tokenizer built from an in-memory vocabulary and the real
`DataCollatorForTokenClassification`: nothing is downloaded and nothing is mocked. The `compute_metrics`
functions between the "README" markers are the README's snippets, verbatim.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
import torch
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ner_semeval import InvalidInputError, compute_semeval

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
ID2LABEL = dict(enumerate(LABELS))
LABEL2ID = {tag: index for index, tag in ID2LABEL.items()}

# Keys that Trainer adds to evaluate()/predict() metrics itself; everything else comes from the metric.
TRAINER_KEYS = {"loss", "runtime", "samples_per_second", "steps_per_second", "model_preparation_time", "epoch"}


# ---------------------------------------------------------------------------------------------------------
# The README snippets ("Use with Trainer"). Each builder returns the snippet's `compute_metrics`; the code
# between the markers is what the README shows, with `labels` = the label names (a list, or
# `model.config.id2label`). The README loads the metric from a checkout, so the builders run in REPO.
# ---------------------------------------------------------------------------------------------------------


def readme_compute_metrics(labels: Any) -> Callable:
    with contextlib.chdir(REPO):
        # --- README "Use with Trainer" (label_list at load time) ---
        import evaluate

        metric = evaluate.load("ner_semeval.py", label_list=labels)

        def compute_metrics(eval_pred):
            logits, label_ids = eval_pred
            return metric.compute(predictions=logits.argmax(-1), references=label_ids)

        # --- end ---
    return compute_metrics


def readme_compute_metrics_label_list_per_call(labels: Any) -> Callable:
    with contextlib.chdir(REPO):
        # --- README "Use with Trainer" (label_list in the call) ---
        import evaluate

        metric = evaluate.load("ner_semeval.py")

        def compute_metrics(eval_pred):
            logits, label_ids = eval_pred
            return metric.compute(predictions=logits.argmax(-1), references=label_ids, label_list=labels)

        # --- end ---
    return compute_metrics


def readme_batch_compute_metrics(labels: Any) -> Callable:
    with contextlib.chdir(REPO):
        # --- README "Use with Trainer" (TrainingArguments(batch_eval_metrics=True)) ---
        import evaluate

        metric = evaluate.load("ner_semeval.py", label_list=labels)

        def compute_metrics(eval_pred, compute_result=False):
            logits, label_ids = eval_pred
            metric.add_batch(predictions=logits.argmax(-1), references=label_ids)
            if compute_result:
                return metric.compute()

        # --- end ---
    return compute_metrics


# ---------------------------------------------------------------------------------------------------------
# Arrays as Trainer hands them over (fast tests, no model)
# ---------------------------------------------------------------------------------------------------------

# Two sentences, padded to 7 positions: [CLS], [SEP], sub-word continuations and padding are -100 in the
# labels; the predictions there are whatever the model said (docs/scoring.md §1: dropped from both sides).
LABEL_IDS = [[-100, 1, 2, -100, 0, 3, -100], [-100, 3, 4, 0, -100, -100, -100]]
PREDICTED_IDS = [[0, 1, 2, 2, 0, 3, 0], [1, 3, 0, 0, 0, 1, 2]]
# With the -100 positions dropped: references B-PER I-PER O B-LOC | B-LOC I-LOC O,
# predictions B-PER I-PER O B-LOC | B-LOC O O: PER and LOC correct, the second LOC one token short (scenario V).
REFERENCE_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["B-LOC", "I-LOC", "O"]]
PREDICTED_TAGS = [["B-PER", "I-PER", "O", "B-LOC"], ["B-LOC", "O", "O"]]


def one_hot_logits(ids: list[list[int]]) -> torch.Tensor:
    """Float logits whose argmax is `ids` (a -100 position gets the all -100 row Trainer pads with)."""
    logits = torch.full((len(ids), len(ids[0]), len(LABELS)), -100.0)
    for row, sentence in enumerate(ids):
        for position, label in enumerate(sentence):
            if label != -100:
                logits[row, position] = 0.0
                logits[row, position, label] = 1.0
    return logits


@pytest.fixture
def metric(load_metric, tmp_path):
    # A cache directory of its own: a compute() that raises keeps its cache-file lock until garbage
    # collection, and the next instance on a shared cache would wait a second for it (evaluate's timeout).
    return load_metric(cache_dir=str(tmp_path))


ARRAY_FORMS = [
    pytest.param(lambda x: x, id="lists"),
    pytest.param(np.array, id="numpy-int64"),
    pytest.param(lambda x: np.array(x, dtype=np.int32), id="numpy-int32"),
    pytest.param(torch.tensor, id="torch-int64"),
    pytest.param(lambda x: torch.tensor(x, dtype=torch.int32), id="torch-int32"),
]


@pytest.mark.parametrize("form", ARRAY_FORMS)
@pytest.mark.parametrize(
    ("load_label_list", "call_label_list"),
    [
        pytest.param(LABELS, None, id="label_list-at-load"),
        pytest.param(ID2LABEL, None, id="id2label-at-load"),
        pytest.param(None, LABELS, id="label_list-in-call"),
        pytest.param(None, {str(k): v for k, v in ID2LABEL.items()}, id="id2label-from-json-in-call"),
    ],
)
def test_trainer_arrays_score_like_tags_with_ignored_positions_dropped(
    load_metric, tmp_path, form, load_label_list, call_label_list
):
    metric = load_metric(cache_dir=str(tmp_path), label_list=load_label_list)
    options = {} if call_label_list is None else {"label_list": call_label_list}
    results = metric.compute(predictions=form(PREDICTED_IDS), references=form(LABEL_IDS), **options)
    assert results == compute_semeval(predictions=PREDICTED_TAGS, references=REFERENCE_TAGS)
    assert results["strict_correct"] == 2
    assert results["strict_incorrect"] == 1
    assert results["strict_f1"] == pytest.approx(Fraction(2, 3))
    assert results["partial_f1"] == pytest.approx(Fraction(5, 6))
    assert results["type_f1"] == 1.0


@pytest.mark.parametrize("tensor", [pytest.param(False, id="numpy"), pytest.param(True, id="torch")])
def test_argmax_of_padded_logits_is_the_one_liner(metric, tensor):
    # Trainer pads logits with -100 rows across batches: their argmax (0) lands on -100 labels and is dropped.
    padded = [list(row) for row in PREDICTED_IDS]
    padded[1][4:] = [-100, -100, -100]
    logits = one_hot_logits(padded)
    logits, label_ids = (logits, torch.tensor(LABEL_IDS)) if tensor else (logits.numpy(), np.array(LABEL_IDS))
    results = metric.compute(predictions=logits.argmax(-1), references=label_ids, label_list=LABELS)
    assert results == compute_semeval(predictions=PREDICTED_TAGS, references=REFERENCE_TAGS)


@pytest.mark.parametrize("form", ARRAY_FORMS)
def test_add_batch_accepts_arrays_of_different_widths(load_metric, tmp_path, form):
    # Per-batch padding differs between Trainer batches; each add_batch is its own 2-D array.
    metric = load_metric(cache_dir=str(tmp_path), label_list=LABELS)
    metric.add_batch(predictions=form(PREDICTED_IDS[:1]), references=form(LABEL_IDS[:1]))
    narrow_predictions = [row[:4] for row in PREDICTED_IDS[1:]]
    narrow_references = [row[:4] for row in LABEL_IDS[1:]]
    metric.add_batch(predictions=form(narrow_predictions), references=form(narrow_references))
    assert metric.compute() == compute_semeval(predictions=PREDICTED_TAGS, references=REFERENCE_TAGS)


@st.composite
def padded_batches(draw) -> tuple[list[list[int]], list[list[int]], list[int], list[str]]:
    """Sentences of label ids with -100 anywhere in the references, cut into batches, each in some form."""
    sentences = draw(st.lists(st.integers(1, 9), min_size=1, max_size=12))
    references = [draw(st.lists(st.sampled_from([-100, 0, 1, 2, 3, 4]), min_size=n, max_size=n)) for n in sentences]
    predictions = [draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)) for n in sentences]
    cuts = sorted(draw(st.sets(st.integers(1, len(sentences)), max_size=4)) | {len(sentences)})
    forms = draw(st.lists(st.sampled_from(["lists", "numpy", "torch"]), min_size=len(cuts), max_size=len(cuts)))
    return predictions, references, cuts, forms


def _batch(rows: list[list[int]], form: str) -> Any:
    """A batch as `form`; arrays are padded to one width with -100, as Trainer pads them."""
    if form == "lists":
        return rows
    width = max(map(len, rows))
    padded = [[*row, *[-100] * (width - len(row))] for row in rows]
    return np.array(padded) if form == "numpy" else torch.tensor(padded)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=padded_batches())
def test_batches_in_any_form_add_up_to_the_whole_set(metric, data):
    # docs/scoring.md §1 and §7: -100 positions and padding are dropped, batches sum; how a batch arrives is moot.
    predictions, references, cuts, forms = data
    start = 0
    for cut, form in zip(cuts, forms):
        metric.add_batch(
            predictions=_batch(predictions[start:cut], form), references=_batch(references[start:cut], form)
        )
        start = cut
    assert metric.compute(label_list=LABELS) == compute_semeval(
        predictions=predictions, references=references, label_list=LABELS
    )


def _with_ignore_index_prediction() -> list[list[int]]:
    predictions = [list(row) for row in PREDICTED_IDS]
    predictions[1][2] = -100  # the reference has I-LOC here
    return predictions


ARRAY_ERRORS = [
    pytest.param(
        _with_ignore_index_prediction(),
        LABEL_IDS,
        r"^predictions, sentence 1, token 2: found ignore_index -100 where the reference has a label",
        id="ignore-index-in-predictions",
    ),
    pytest.param(
        [row[:5] for row in PREDICTED_IDS],
        LABEL_IDS,
        r"^sentence 0: predictions have 5 tags and references 7; expected token-aligned",
        id="narrower-predictions",
    ),
    pytest.param(
        [[*row, 0, 0] for row in PREDICTED_IDS],
        LABEL_IDS,
        r"^sentence 0: predictions have 9 tags and references 7; expected token-aligned",
        id="wider-predictions",
    ),
    pytest.param(
        PREDICTED_IDS[:1],
        LABEL_IDS,
        r"^predictions hold 1 sentences and references 2; expected one prediction per reference sentence",
        id="fewer-prediction-rows",
    ),
    pytest.param(
        PREDICTED_IDS,
        LABEL_IDS[:1],
        r"^predictions hold 2 sentences and references 1; expected one prediction per reference sentence",
        id="fewer-reference-rows",
    ),
    pytest.param(
        [[0, 1, 2, 2, 0, 3, 0], [1, 3, 4, 0, 0, 1, 7]],
        [[-100, 1, 2, -100, 0, 3, -100], [-100, 3, 4, 0, -100, -100, 1]],
        r"^predictions, sentence 1, token 6: found id 7; expected an id of label_list \(0 to 4\)",
        id="id-outside-label_list",
    ),
]


@pytest.mark.parametrize(("predictions", "references", "match"), ARRAY_ERRORS)
@pytest.mark.parametrize("form", [pytest.param(np.array, id="numpy"), pytest.param(torch.tensor, id="torch")])
def test_misaligned_arrays_name_sentence_and_position(metric, form, predictions, references, match):
    with pytest.raises(ValueError, match=match):
        metric.compute(predictions=form(predictions), references=form(references), label_list=LABELS)


@pytest.mark.parametrize("form", [pytest.param(np.array, id="numpy"), pytest.param(torch.tensor, id="torch")])
def test_ignore_index_prediction_error_carries_its_location(metric, form):
    # The class is the evaluate-loaded copy's InvalidInputError, not this checkout's: catch its ValueError base.
    predictions = form(_with_ignore_index_prediction())
    with pytest.raises(ValueError) as caught:
        metric.compute(predictions=predictions, references=form(LABEL_IDS), label_list=LABELS)
    assert type(caught.value).__name__ == InvalidInputError.__name__
    assert (caught.value.side, caught.value.sentence, caught.value.token) == ("predictions", 1, 2)


def test_misaligned_batch_after_add_batch_names_its_sentence_in_the_whole_set(load_metric, tmp_path):
    # The sentence index counts from the first add_batch: the third sentence overall is index 2.
    metric = load_metric(cache_dir=str(tmp_path), label_list=LABELS)
    metric.add_batch(predictions=np.array(PREDICTED_IDS), references=np.array(LABEL_IDS))
    with pytest.raises(ValueError, match=r"^sentence 2: predictions have 5 tags and references 7"):
        metric.compute(predictions=np.array(PREDICTED_IDS)[:, :5], references=np.array(LABEL_IDS))


@pytest.mark.parametrize("tensor", [pytest.param(False, id="numpy"), pytest.param(True, id="torch")])
def test_logits_without_argmax_name_the_side_the_shape_and_the_fix(metric, tensor):
    logits = one_hot_logits(PREDICTED_IDS)
    logits, label_ids = (logits, torch.tensor(LABEL_IDS)) if tensor else (logits.numpy(), np.array(LABEL_IDS))
    shape = re.escape(str(tuple(logits.shape)))
    with pytest.raises(ValueError, match=rf"^predictions: found an array of shape {shape}; .*logits\.argmax\(-1\)"):
        metric.compute(predictions=logits, references=label_ids, label_list=LABELS)


# ---------------------------------------------------------------------------------------------------------
# A real Trainer on a tiny model (slow)
# ---------------------------------------------------------------------------------------------------------

FIRST_NAMES = ["anna", "bob", "dieter", "maria", "karl", "lena"]
LAST_NAMES = ["smith", "muller", "berg"]
PLACES = [["paris"], ["berlin"], ["oslo"], ["new", "york"], ["rio"], ["lima"]]
FILLER = ["lives", "in", "and", "met", "visited", "the", "city", "near", "today", "with", "from"]
# WordPiece splits dieter, karl, muller, berlin, oslo and rio into two pieces: their second piece is -100.
VOCABULARY = [
    *["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"],
    *["die", "##ter", "kar", "##l", "mul", "##ler", "ber", "##lin", "os", "##lo", "ri", "##o"],
    *["anna", "bob", "maria", "lena", "smith", "berg", "paris", "new", "york", "lima"],
    *FILLER,
]


def synthetic_sentences(count: int, seed: int) -> list[tuple[list[str], list[str]]]:
    """Words and IOB2 tags: filler words, one- or two-word PER names and LOC places, at random."""
    rng = random.Random(seed)
    sentences = []
    for _ in range(count):
        words: list[str] = []
        tags: list[str] = []
        for _ in range(rng.randint(2, 6)):
            kind = rng.choice(["O", "O", "PER", "LOC"])
            if kind == "O":
                chunk = [rng.choice(FILLER)]
            elif kind == "PER":
                chunk = [rng.choice(FIRST_NAMES)] + ([rng.choice(LAST_NAMES)] if rng.random() < 0.5 else [])
            else:
                chunk = list(rng.choice(PLACES))
            words += chunk
            tags += ["O"] * len(chunk) if kind == "O" else [f"B-{kind}"] + [f"I-{kind}"] * (len(chunk) - 1)
        sentences.append((words, tags))
    return sentences


def tokenize_and_align_labels(tokenizer: Any, words: list[str], tags: list[str]) -> dict[str, list[int]]:
    """The usual recipe: the first piece of a word carries its label, other pieces and specials get -100."""
    encoding = tokenizer(words, is_split_into_words=True)
    labels, previous = [], None
    for word in encoding.word_ids():
        labels.append(-100 if word is None or word == previous else LABEL2ID[tags[word]])
        previous = word
    return {"input_ids": encoding["input_ids"], "attention_mask": encoding["attention_mask"], "labels": labels}


@pytest.fixture(scope="module")
def tokenizer():
    from transformers import BertTokenizer

    return BertTokenizer(vocab={piece: index for index, piece in enumerate(VOCABULARY)})


@pytest.fixture(scope="module")
def datasets_(tokenizer):
    import datasets

    def build(count: int, seed: int) -> datasets.Dataset:
        rows = [tokenize_and_align_labels(tokenizer, words, tags) for words, tags in synthetic_sentences(count, seed)]
        return datasets.Dataset.from_list(rows)

    train, evaluation = build(48, seed=1), build(22, seed=2)
    # The data exercise what the metric must drop: specials and sub-word continuations are -100.
    assert any(-100 in row[1:-1] for row in evaluation["labels"])
    return train, evaluation


def tiny_model():
    from transformers import BertConfig, BertForTokenClassification, set_seed

    set_seed(0)
    config = BertConfig(
        vocab_size=len(VOCABULARY),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
        num_labels=len(LABELS),
        id2label=ID2LABEL,
        label2id=LABEL2ID,
    )
    return BertForTokenClassification(config)


def make_trainer(tmp_path, tokenizer, datasets_, compute_metrics, model=None, **arguments):
    from transformers import DataCollatorForTokenClassification, Trainer, TrainingArguments

    train, evaluation = datasets_
    args = TrainingArguments(
        output_dir=str(tmp_path),
        report_to=[],
        use_cpu=True,
        per_device_train_batch_size=8,
        per_device_eval_batch_size=4,  # 22 sentences: six batches of different padded widths
        disable_tqdm=True,
        seed=0,
        **arguments,
    )
    return Trainer(
        model=model if model is not None else tiny_model(),
        args=args,
        train_dataset=train,
        eval_dataset=evaluation,
        data_collator=DataCollatorForTokenClassification(tokenizer),
        compute_metrics=compute_metrics,
    )


def metric_part(metrics: dict[str, Any], prefix: str) -> dict[str, Any]:
    """The keys that came from the metric, without Trainer's prefix."""
    part = {key.removeprefix(prefix): value for key, value in metrics.items()}
    return {key: value for key, value in part.items() if key not in TRAINER_KEYS}


def tags_without_ignored(logits: np.ndarray, label_ids: np.ndarray) -> tuple[list[list[str]], list[list[str]]]:
    predictions, references = [], []
    for sentence_logits, sentence_labels in zip(logits, label_ids):
        keep = sentence_labels != -100
        predictions.append([ID2LABEL[int(i)] for i in sentence_logits.argmax(-1)[keep]])
        references.append([ID2LABEL[int(i)] for i in sentence_labels[keep]])
    return predictions, references


@pytest.mark.slow
def test_evaluate_returns_flat_scalar_keys_that_log_metrics_prints(tmp_path, tokenizer, datasets_, capsys):
    trainer = make_trainer(tmp_path, tokenizer, datasets_, readme_compute_metrics(ID2LABEL))
    metrics = trainer.evaluate()
    scores = metric_part(metrics, "eval_")
    expected_keys = {
        f"{scheme}_{measure}"
        for scheme in ("strict", "exact", "partial", "type")
        for measure in (
            *("precision", "recall", "f1", "correct", "incorrect", "partial", "missed", "spurious"),
            *("possible", "actual", "macro_precision", "macro_recall", "macro_f1"),
        )
    } | {"token_accuracy"}
    assert set(scores) == expected_keys
    assert "eval_strict_f1" in metrics
    # docs/scoring.md §7: flat plain numbers, so loggers and metric_for_best_model take them as they are.
    assert all(type(value) in (int, float) for value in metrics.values())
    json.dumps(metrics)
    trainer.log_metrics("eval", metrics)
    assert "eval_strict_f1" in capsys.readouterr().out
    trainer.save_metrics("eval", metrics)
    assert json.loads((tmp_path / "eval_results.json").read_text())["eval_strict_f1"] == metrics["eval_strict_f1"]


@pytest.mark.slow
@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda: readme_compute_metrics(ID2LABEL), id="id2label-at-load"),
        pytest.param(lambda: readme_compute_metrics(LABELS), id="label-names-at-load"),
        pytest.param(lambda: readme_compute_metrics_label_list_per_call(LABELS), id="label_list-in-call"),
    ],
)
def test_trainer_numbers_equal_direct_scoring_of_the_tags(tmp_path, tokenizer, datasets_, build):
    trainer = make_trainer(tmp_path, tokenizer, datasets_, build())
    output = trainer.predict(datasets_[1])
    # Trainer padded the batches to one width with -100 (logits too): those positions must be dropped.
    assert np.any(np.all(output.predictions == -100, axis=-1))
    predictions, references = tags_without_ignored(output.predictions, output.label_ids)
    expected = compute_semeval(predictions=predictions, references=references)
    assert expected["strict_possible"] > 0
    assert expected["strict_actual"] > 0
    assert metric_part(output.metrics, "test_") == expected
    assert metric_part(trainer.evaluate(), "eval_") == expected


@pytest.mark.slow
def test_batch_eval_metrics_equal_whole_set_evaluation(tmp_path, tokenizer, datasets_):
    whole = make_trainer(tmp_path / "whole", tokenizer, datasets_, readme_compute_metrics(ID2LABEL))
    batched = make_trainer(
        tmp_path / "batched",
        tokenizer,
        datasets_,
        readme_batch_compute_metrics(ID2LABEL),
        batch_eval_metrics=True,
    )
    assert len(batched.get_eval_dataloader()) > 2
    expected = metric_part(whole.evaluate(), "eval_")
    assert expected["strict_actual"] > 0
    assert metric_part(batched.evaluate(), "eval_") == expected
    # A second evaluation starts from an empty accumulator (compute() resets the metric).
    assert metric_part(batched.evaluate(), "eval_") == expected


def train_two_epochs_for_the_best_strict_f1(tmp_path, tokenizer, datasets_, compute_metrics):
    """A Trainer after two epochs, evaluated after each and keeping the best strict F1, and its two evaluations."""
    trainer = make_trainer(
        tmp_path,
        tokenizer,
        datasets_,
        compute_metrics,
        num_train_epochs=2,
        learning_rate=5e-3,
        eval_strategy="epoch",
        save_strategy="epoch",
        logging_strategy="epoch",
        metric_for_best_model="strict_f1",
        load_best_model_at_end=True,
    )
    trainer.train()
    evaluations = [entry for entry in trainer.state.log_history if "eval_strict_f1" in entry]
    assert [entry["epoch"] for entry in evaluations] == [1.0, 2.0]
    return trainer, evaluations


@pytest.mark.slow
def test_two_epoch_training_keeps_the_best_strict_f1_model(tmp_path, tokenizer, datasets_):
    trainer, evaluations = train_two_epochs_for_the_best_strict_f1(
        tmp_path, tokenizer, datasets_, readme_compute_metrics(ID2LABEL)
    )
    best = max(entry["eval_strict_f1"] for entry in evaluations)
    assert trainer.state.best_metric == best
    best_step = next(entry["step"] for entry in evaluations if entry["eval_strict_f1"] == best)
    assert trainer.state.best_model_checkpoint.endswith(f"checkpoint-{best_step}")
    # The model loaded at the end is the best one: evaluating it again gives the best score.
    assert trainer.evaluate()["eval_strict_f1"] == best


@pytest.mark.slow
def test_evaluation_schemes_at_load_log_only_their_keys_and_keep_the_best_strict_f1_model(
    tmp_path, tokenizer, datasets_
):
    # Issue 21, item 3: evaluate.load(..., evaluation_schemes=[...]) in compute_metrics logs only those schemes'
    # keys on every evaluation, and metric_for_best_model="strict_f1" still picks the checkpoint.
    with contextlib.chdir(REPO):
        import evaluate

        metric = evaluate.load("ner_semeval.py", label_list=ID2LABEL, evaluation_schemes=["strict", "partial"])

    def compute_metrics(eval_pred):
        logits, label_ids = eval_pred
        return metric.compute(predictions=logits.argmax(-1), references=label_ids)

    trainer, evaluations = train_two_epochs_for_the_best_strict_f1(tmp_path, tokenizer, datasets_, compute_metrics)
    all_keys = set(compute_semeval(predictions=[["O"]], references=[["O"]]))
    for entry in evaluations:
        scores = metric_part({key: value for key, value in entry.items() if key != "step"}, "eval_")
        # The metric's keys of the two schemes and token_accuracy, 27 of 53, and none of exact's or type's.
        assert set(scores) == {key for key in all_keys if key.startswith(("strict_", "partial_"))} | {"token_accuracy"}
        assert len(scores) == 27
    best = max(entry["eval_strict_f1"] for entry in evaluations)
    assert trainer.state.best_metric == best
    best_step = next(entry["step"] for entry in evaluations if entry["eval_strict_f1"] == best)
    assert trainer.state.best_model_checkpoint.endswith(f"checkpoint-{best_step}")
    final = metric_part(trainer.evaluate(), "eval_")
    assert final["strict_f1"] == best and "exact_f1" not in final
