"""Slices (docs/scoring.md §11): `tokens=` aligned with the tags, entity texts, and the scores of each bucket of
entity length, seen or unseen, sentence length, reference entity density and group, recounted here from the
`entities` rows, the tokens and the groups without the package's bucketing; their intervals and paired test."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import as_ids, nested_spans, soup_batches

from nerscore import InvalidInputError, compare_semeval, compute_semeval
from nerscore.statistics.paired_comparison import holm

SCHEMES = ("strict", "exact", "partial", "type")
WORDS = ("w0", "w1", "w2")
LENGTH_NAMES = {1: "1", 2: "2", 3: "3", 4: "4", 5: "5-7", 6: "5-7", 7: "5-7"}


def length_bucket(length: int) -> str:
    return LENGTH_NAMES.get(length, "8+")


def sentence_bucket(length: int) -> str:
    for low, high in ((1, 10), (11, 20), (21, 40), (41, 80)):
        if low <= length <= high:
            return f"{low}-{high}"
    return "81+" if length else "<1"


def density_bucket(entities: int) -> str:
    return {0: "0", 1: "1", 2: "2", 3: "3-4", 4: "3-4"}.get(entities, "5+")


def two_sided_recount(entities: list[dict], bucket_of: Any) -> dict[str, dict[str, Any]]:
    """Per bucket and scheme, P, R, F, POS and ACT from the rows: a reference in its bucket, a prediction in its own."""
    recall: dict[tuple[str, str], Counter] = {}
    precision: dict[tuple[str, str], Counter] = {}
    for row in entities:
        for scheme in SCHEMES:
            if row["reference"] is not None:
                recall.setdefault((bucket_of(row, "reference"), scheme), Counter())[row[scheme]] += 1
            if row["prediction"] is not None:
                precision.setdefault((bucket_of(row, "prediction"), scheme), Counter())[row[scheme]] += 1
    out: dict[str, dict[str, Any]] = {}
    for bucket in {bucket for bucket, _ in [*recall, *precision]}:
        for scheme in SCHEMES:
            r, p = recall.get((bucket, scheme), Counter()), precision.get((bucket, scheme), Counter())
            possible, actual = sum(r.values()), sum(p.values())
            p_value = (p["COR"] + p["PAR"] / 2) / actual if actual else 0.0
            r_value = (r["COR"] + r["PAR"] / 2) / possible if possible else 0.0
            f = 2 * p_value * r_value / (p_value + r_value) if p_value + r_value else 0.0
            out.setdefault(bucket, {}).update(
                {
                    f"{scheme}_precision": p_value,
                    f"{scheme}_recall": r_value,
                    f"{scheme}_f1": f,
                    f"{scheme}_possible": possible,
                    f"{scheme}_actual": actual,
                }
            )
    return out


@st.composite
def tagged(draw: st.DrawFn) -> tuple[list, list, list, list, frozenset]:
    predictions, references = draw(soup_batches("IOB2", max_sentences=6, max_length=12))
    tokens = [[draw(st.sampled_from(WORDS)) for _ in sentence] for sentence in references]
    groups = [draw(st.sampled_from(("news", "web", 3))) for _ in references]
    seen = frozenset(draw(st.sets(st.sampled_from(("w0", "w1", "w0 w1", "w2 w2", "w1 w2 w0")))))
    return predictions, references, tokens, groups, seen


ALL = ["entity_length", "seen", "sentence_length", "entity_density", "group"]


@pytest.mark.slow  # (1-2 s: the quick profile stays under 3 minutes; the full suite runs it)
@settings(max_examples=150, deadline=None)
@given(tagged())
def test_slices_recounted_from_the_entities_rows_tokens_and_groups(data: tuple) -> None:
    predictions, references, tokens, groups, seen = data
    columns = {"tokens": tokens, "groups": groups}
    result = compute_semeval(predictions=predictions, references=references, slices=ALL, seen=seen, **columns)
    rows = compute_semeval(predictions=predictions, references=references, return_entities=True, **columns)
    entities = rows["entities"]
    slices = result["slices"]
    assert list(slices) == ALL

    def length_of(row: dict, side: str) -> str:
        return length_bucket(row[side]["end"] - row[side]["start"])

    def seen_of(row: dict, side: str) -> str:
        entity = row[side]
        text = " ".join(tokens[row["sentence"]][entity["start"] : entity["end"]])
        assert entity["text"] == text
        return "seen" if text in seen else "unseen"

    for name, bucket_of in (("entity_length", length_of), ("seen", seen_of)):
        expected = two_sided_recount(entities, bucket_of)
        assert set(slices[name]) == set(expected)
        for bucket, values in expected.items():
            assert slices[name][bucket] == pytest.approx(values), (name, bucket)

    references_per_sentence = Counter(row["sentence"] for row in entities if row["reference"] is not None)
    with_entities = {row["sentence"] for row in entities}
    sentence_buckets = {
        "sentence_length": [sentence_bucket(len(sentence)) for sentence in references],
        "entity_density": [density_bucket(references_per_sentence[i]) for i in range(len(references))],
        "group": [str(group) for group in groups],
    }
    for name, buckets in sentence_buckets.items():
        expected_names = {bucket for i, bucket in enumerate(buckets) if i in with_entities}
        assert set(slices[name]) == expected_names, name
        for bucket in expected_names:
            kept = [i for i, b in enumerate(buckets) if b == bucket]
            alone = compute_semeval(
                predictions=[predictions[i] for i in kept], references=[references[i] for i in kept]
            )
            assert slices[name][bucket] == alone, (name, bucket)
    # Bucket names in the order of their edges.
    order = ["<1", "1", "2", "3", "4", "5-7", "8+"]
    assert list(slices["entity_length"]) == sorted(slices["entity_length"], key=order.index)


def as_bits(value: Any) -> Any:
    """A result in a form that compares its key order, its types and its floats' bits."""
    if isinstance(value, dict):
        return [(key, as_bits(item)) for key, item in value.items()]
    return ("float", value.hex()) if isinstance(value, float) else (type(value).__name__, value)


SCORING_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "per_type": st.booleans(),
        "beta": st.sampled_from([0.5, 2.0, 1e-3, 3.7]),
        "zero_division": st.sampled_from([1.0, 0.5, 1 / 3]),
        "labels": st.lists(st.sampled_from(["PER", "LOC", "MUSIC-NAME", "ORG"]), min_size=1, max_size=3),
        "evaluation_schemes": st.lists(
            st.sampled_from(["strict", "exact", "partial", "type"]), min_size=1, unique=True
        ),
        "confusion": st.sampled_from([True, "sparse"]),
        "partial_credit": st.sampled_from([0.3, 0.0, 1.0]),
    },
)


@settings(max_examples=100, deadline=None)
@given(tagged(), SCORING_OPTIONS)
def test_sentence_buckets_score_as_their_sentences_alone_to_the_bit(data: tuple, options: dict) -> None:
    # The buckets of every sentence-level slice are scored at once (`stacked_scores`): each bucket's dict is the
    # one of its sentences scored alone, key for key in the same order, every float to the bit, whatever the
    # scoring options (docs/scoring.md §4, §11).
    predictions, references, _, groups, _ = data
    result = compute_semeval(
        predictions=predictions, references=references, groups=groups, slices=["group", "sentence_length"], **options
    )
    buckets_of = {
        "group": [str(group) for group in groups],
        "sentence_length": [sentence_bucket(len(sentence)) for sentence in references],
    }
    for name, buckets in result["slices"].items():
        for bucket, values in buckets.items():
            kept = [i for i, b in enumerate(buckets_of[name]) if b == bucket]
            alone = compute_semeval(
                predictions=[predictions[i] for i in kept], references=[references[i] for i in kept], **options
            )
            assert as_bits(values) == as_bits(alone), (name, bucket)


@settings(max_examples=100, deadline=None)
@given(tagged())
def test_each_slice_adds_up_to_the_totals_and_both_paths_agree(data: tuple) -> None:
    predictions, references, tokens, groups, seen = data
    given_columns = {"tokens": tokens, "groups": groups}
    result = compute_semeval(predictions=predictions, references=references, slices=ALL, seen=seen, **given_columns)
    readable = compute_semeval(
        predictions=predictions, references=references, slices=ALL, seen=seen, return_entities=True, **given_columns
    )
    assert readable["slices"] == result["slices"]  # the readable path's rows and the array path's
    for name, buckets in result["slices"].items():
        for scheme in SCHEMES:
            for key in ("possible", "actual"):
                total = sum(values[f"{scheme}_{key}"] for values in buckets.values())
                assert total == result[f"{scheme}_{key}"], (name, scheme, key)


@settings(max_examples=100, deadline=None)
@given(tagged(), st.data())
def test_tags_ids_and_spans_in_token_units_give_the_same_slices(data: tuple, draw: st.DataObject) -> None:
    predictions, references, tokens, _, seen = data
    names = ["entity_length", "seen", "entity_density"]
    expected = compute_semeval(predictions=predictions, references=references, slices=names, seen=seen, tokens=tokens)
    id_predictions, id_references, label_list = as_ids(draw.draw, predictions, references)
    # The tokens as given with the ids: a token at every position, those whose reference is ignore_index dropped.
    id_tokens = []
    for sentence, ids in zip(tokens, id_references):
        kept = iter(sentence)
        id_tokens.append([next(kept) if value != -100 else "piece" for value in ids])
    from_ids = compute_semeval(
        predictions=id_predictions,
        references=id_references,
        label_list=label_list,
        slices=names,
        seen=seen,
        tokens=id_tokens,
    )
    assert from_ids["slices"] == expected["slices"]
    rows = compute_semeval(predictions=predictions, references=references, return_entities=True)["entities"]
    span_predictions: list[list] = [[] for _ in references]
    span_references: list[list] = [[] for _ in references]
    for row in rows:
        for side, out in (("reference", span_references), ("prediction", span_predictions)):
            if row[side] is not None:
                out[row["sentence"]].append(row[side])
    from_spans = compute_semeval(
        predictions=span_predictions,
        references=span_references,
        slices=[*names, "sentence_length"],
        seen=seen,
        tokens=tokens,
    )
    with_length = compute_semeval(
        predictions=predictions,
        references=references,
        slices=[*names, "sentence_length"],
        seen=seen,
        tokens=tokens,
    )
    for name in ("entity_length", "seen"):
        assert from_spans["slices"][name] == expected["slices"][name], name
    # Spans have no token_accuracy; every other key of a sentence bucket is the same.
    for name in ("entity_density", "sentence_length"):
        for bucket, values in with_length["slices"][name].items():
            values = {key: value for key, value in values.items() if key != "token_accuracy"}
            assert from_spans["slices"][name][bucket] == values, name


def test_ignore_index_drops_its_token_and_entities_carry_their_text() -> None:
    label_list = ["O", "B-PER", "I-PER", "B-LOC"]
    references = [[1, -100, 2, 0, 3]]
    predictions = [[1, 0, 2, 0, 3]]
    tokens = [["Ann", "##a", "Lee", "in", "Rome"]]
    result = compute_semeval(
        predictions=predictions,
        references=references,
        label_list=label_list,
        tokens=tokens,
        return_entities=True,
        slices=["entity_length"],
    )
    texts = [(row["reference"]["text"], row["prediction"]["text"]) for row in result["entities"]]
    assert texts == [("Ann Lee", "Ann Lee"), ("Rome", "Rome")]
    assert set(result["slices"]["entity_length"]) == {"1", "2"}


def test_spans_take_the_characters_of_texts() -> None:
    result = compute_semeval(
        predictions=[[(0, 3, "PER"), (7, 12, "LOC")]],
        references=[[(0, 3, "PER"), (7, 12, "LOC")]],
        texts=["Ann in Paris"],
        slices=["seen", "sentence_length"],
        seen={"Paris"},
        return_entities=True,
    )
    assert [row["reference"]["text"] for row in result["entities"]] == ["Ann", "Paris"]
    assert result["slices"]["seen"]["seen"]["strict_possible"] == 1
    assert list(result["slices"]["sentence_length"]) == ["11-20"]  # 12 characters


def test_slice_edges_override_the_buckets() -> None:
    references = [["B-PER", "I-PER", "I-PER", "O", "B-LOC"]]
    result = compute_semeval(
        predictions=references,
        references=references,
        slices=["entity_length"],
        slice_edges={"entity_length": [2, 3]},
    )
    assert list(result["slices"]["entity_length"]) == ["<2", "3+"]


@settings(max_examples=60, deadline=None)
@given(soup_batches("IOB2", max_sentences=6, max_length=12))
def test_a_last_edge_past_the_bucket_table_gives_the_buckets_below_it(batch: tuple) -> None:
    # Edges up to 4,096 give each value's bucket from a table, larger ones by a binary search: alike.
    predictions, references = batch
    slices = ["entity_length", "sentence_length", "entity_density"]

    def sliced(last: list[int]) -> dict[str, Any]:
        edges = {"entity_length": [2, 3, *last], "sentence_length": [1, 5, *last], "entity_density": [1, *last]}
        options = {"slices": slices, "slice_edges": edges}
        return compute_semeval(predictions=predictions, references=references, **options)["slices"]

    wide = sliced([1 << 20])  # its last bucket empty, and the one before it every value from the edge before
    renamed = {"3-1048575": "3+", "5-1048575": "5+", "1-1048575": "1+"}
    assert {name: {renamed.get(b, b): s for b, s in buckets.items()} for name, buckets in wide.items()} == sliced([])


TAGS = [["B-PER", "O"], ["O", "B-LOC"]]


@pytest.mark.parametrize(
    ("options", "match"),
    [
        pytest.param({"slices": ["seen"], "tokens": [["a", "b"]] * 2}, "needs seen=, a collection", id="seen-no-seen"),
        pytest.param({"slices": ["seen"], "seen": ["a"]}, r"needs each entity's text: pass tokens=", id="seen-no-text"),
        pytest.param({"slices": ["group"]}, "needs groups=, one label per sentence", id="group-no-groups"),
        pytest.param({"slices": ["length"]}, "slices must be a list of slice names, some of", id="unknown-slice"),
        pytest.param({"slices": "seen"}, r"for one slice pass \['seen'\]", id="a-string"),
        pytest.param({"slice_edges": {"seen": [1]}}, "found the key 'seen'", id="edges-of-seen"),
        pytest.param({"slice_edges": {"entity_length": [2, 2]}}, "increasing whole numbers", id="edges-not-increasing"),
        pytest.param({"slice_edges": {"entity_length": []}}, "increasing whole numbers", id="no-edges"),
        pytest.param({"seen": "Paris"}, "seen must be a collection of entity texts", id="seen-a-string"),
        pytest.param({"seen": [1]}, "seen must be a collection of entity texts", id="seen-a-number"),
        pytest.param({"seen": [["a"]]}, "seen must be a collection of entity texts", id="seen-unhashable"),
        pytest.param(
            {"tokens": [["a", "b"], ["c"]]},
            "tokens, sentence 1: found 1 tokens for 2 tags; expected tokens aligned",
            id="misaligned-tokens",
        ),
    ],
)
def test_missing_inputs_and_bad_options_are_value_errors(options: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        compute_semeval(predictions=TAGS, references=TAGS, **options)


def test_spans_need_a_length_and_tokens_that_cover_them() -> None:
    spans = [[(0, 2, "PER")]]
    with pytest.raises(ValueError, match="sentence_length'\\] of spans needs each sentence's length"):
        compute_semeval(predictions=spans, references=spans, slices=["sentence_length"])
    with pytest.raises(
        InvalidInputError, match=r"references, sentence 0: found an entity \[0, 2\) past the .* 1 tokens"
    ):
        compute_semeval(predictions=spans, references=spans, slices=["entity_length"], tokens=[["a"]])


def test_the_inputs_are_not_modified() -> None:
    tokens = [["a", "b"], ["c", "d"]]
    seen = ["a"]
    compute_semeval(predictions=TAGS, references=TAGS, tokens=tokens, slices=ALL[:2], seen=seen, return_entities=True)
    assert tokens == [["a", "b"], ["c", "d"]] and seen == ["a"]


# ---------------------------------------------------------------------------------------------------------
# Statistics: the buckets' intervals and the paired test
# ---------------------------------------------------------------------------------------------------------


def _population(rng: np.random.Generator, sentences: int) -> tuple[list, list]:
    """Sentences with one or two entities of one or three tokens, each predicted right with some chance."""
    references, predictions = [], []
    for _ in range(sentences):
        reference, prediction = [], []
        for _ in range(int(rng.integers(1, 3))):
            length = int(rng.choice((1, 3)))
            tags = ["B-PER"] + ["I-PER"] * (length - 1)
            reference += [*tags, "O"]
            right = rng.random() < (0.8 if length == 1 else 0.5)
            prediction += [*tags, "O"] if right else ["B-PER"] + ["O"] * length
        references.append(reference)
        predictions.append(prediction)
    return predictions, references


def test_bucket_intervals_cover_the_population_value() -> None:
    rng = np.random.default_rng(1)
    population_p, population_r = _population(rng, 4_000)
    truth = compute_semeval(predictions=population_p, references=population_r, slices=["entity_length"])
    true_f = truth["slices"]["entity_length"]["3"]["strict_f1"]
    covered, draws = 0, 60
    for draw in range(draws):
        picked = rng.integers(0, len(population_r), 150)
        result = compute_semeval(
            predictions=[population_p[i] for i in picked],
            references=[population_r[i] for i in picked],
            slices=["entity_length"],
            bootstrap=300,
            seed=draw,
        )
        bucket = result["slices"]["entity_length"]["3"]
        covered += bucket["strict_f1_low"] <= true_f <= bucket["strict_f1_high"]
    # 95% intervals: with 60 draws, coverage below 80% would be far out of chance (binomial, p < 0.001).
    assert covered / draws >= 0.8


@pytest.mark.slow
def test_the_paired_test_per_bucket_is_calibrated_on_null_systems() -> None:
    rng = np.random.default_rng(2)
    rejected = Counter()
    pairs = 60
    for pair in range(pairs):
        _, references = _population(rng, 80)
        # Two systems drawn alike: each entity right with the same chance, independently.
        systems = []
        for _ in range(2):
            predictions = []
            for reference in references:
                prediction = list(reference)
                for index, tag in enumerate(reference):
                    if tag == "B-PER" and rng.random() < 0.35:
                        prediction[index] = "O"
                predictions.append(prediction)
            systems.append(predictions)
        result = compare_semeval(
            predictions_a=systems[0],
            predictions_b=systems[1],
            references=references,
            slices=["entity_length"],
            n_resamples=300,
            seed=pair,
        )
        for bucket, values in result["slices"]["entity_length"].items():
            rejected[bucket] += values["strict_f1_p_value"] < 0.05
            assert values["strict_f1_p_value_holm"] >= values["strict_f1_p_value"]
    for bucket in ("1", "3"):
        # About 5% of null pairs: at most 12 of 60 (binomial(60, 0.05) exceeds 9 with probability 0.003).
        assert rejected[bucket] <= 9, (bucket, rejected)


def test_compare_slices_keys_and_holm() -> None:
    references = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]] * 5
    a = [["B-PER", "O", "O", "B-LOC"], ["B-ORG", "O"]] * 5
    b = references
    result = compare_semeval(predictions_a=a, predictions_b=b, references=references, slices=["entity_length"])
    bucket = result["slices"]["entity_length"]["2"]
    assert bucket["strict_f1_a"] == 0.0 and bucket["strict_f1_b"] == 1.0 and bucket["strict_f1_delta"] == 1.0
    for suffix in ("delta_low", "delta_high", "p_value", "p_value_holm"):
        assert f"strict_f1_{suffix}" in bucket
    plain = compare_semeval(predictions_a=a, predictions_b=b, references=references)
    assert set(plain) == set(result) - {"slices"}


@pytest.mark.parametrize(
    ("p_values", "adjusted"),
    [
        pytest.param([0.01, 0.04, 0.03], [0.03, 0.06, 0.06], id="three"),
        pytest.param([0.5, 0.2], [0.5, 0.4], id="monotone"),
        pytest.param([0.9, 0.8], [1.0, 1.0], id="capped"),
        pytest.param([], [], id="none"),
    ],
)
def test_holm(p_values: list[float], adjusted: list[float]) -> None:
    assert holm(p_values) == pytest.approx(adjusted)


def test_bootstrap_keys_of_every_bucket_and_the_totals() -> None:
    predictions, references = _population(np.random.default_rng(3), 50)
    result = compute_semeval(
        predictions=predictions, references=references, slices=["entity_length", "sentence_length"], bootstrap=200
    )
    for buckets in result["slices"].values():
        for values in buckets.values():
            for scheme in SCHEMES:
                for measure in ("precision", "recall", "f1"):
                    key = f"{scheme}_{measure}"
                    assert values[f"{key}_low"] <= values[key] <= values[f"{key}_high"]
    assert result["strict_f1_low"] <= result["strict_f1"] <= result["strict_f1_high"]
    # Without slices, the totals' intervals are what they always were.
    plain = compute_semeval(predictions=predictions, references=references, bootstrap=200)
    assert "slices" not in plain


@settings(max_examples=150, deadline=None)
@given(
    # Ends up to 9, within the shortest text (an entity past its text is an error, docs/scoring.md §1).
    st.lists(st.tuples(nested_spans(max_position=5), nested_spans(max_position=5)), max_size=5),
    st.sets(st.sampled_from(("ab", "abc", "b", "cdefg"))),
    st.sampled_from([None, 0.5]),
)
def test_nested_spans_give_the_same_slices_on_both_paths(sentences: list, seen: set, min_overlap: float | None) -> None:
    references = [reference for reference, _ in sentences]
    predictions = [prediction for _, prediction in sentences]
    texts = ["abcdefghijklm"[: 9 + i] for i in range(len(sentences))]
    names = ["entity_length", "seen", "sentence_length", "entity_density"]
    options = {"slices": names, "seen": seen, "texts": texts, "min_overlap": min_overlap}
    fast = compute_semeval(predictions=predictions, references=references, **options)
    readable = compute_semeval(predictions=predictions, references=references, return_entities=True, **options)
    assert fast["slices"] == readable["slices"]
    for name, buckets in fast["slices"].items():
        assert sum(values["strict_possible"] for values in buckets.values()) == fast["strict_possible"], name
        assert sum(values["strict_actual"] for values in buckets.values()) == fast["strict_actual"], name


CONLL = (
    "John B-PER B-PER\nSmith I-PER O\nin O O\nParis B-LOC B-LOC\n\n"
    "the O O\nBank B-ORG B-ORG\nof I-ORG I-ORG\nEngland I-ORG I-ORG\n"
)


def test_the_command_line_slices_a_conll_file_by_its_tokens(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from nerscore import cli, read_conll

    conll, seen = tmp_path / "s.conll", tmp_path / "seen.txt"
    conll.write_text(CONLL, encoding="utf-8")
    seen.write_text("Paris\n\nBank of England\n", encoding="utf-8")
    flags = ["--slices", "entity_length,sentence_length,seen", "--seen", str(seen)]
    assert cli.main([str(conll), "--json", *flags]) == 0
    sentences = list(read_conll(CONLL.splitlines()))
    expected = compute_semeval(
        predictions=[sentence.predictions for sentence in sentences],
        references=[sentence.references for sentence in sentences],
        tokens=[sentence.tokens for sentence in sentences],
        slices=["entity_length", "sentence_length", "seen"],
        seen=["Paris", "Bank of England"],
    )
    assert json.loads(capsys.readouterr().out) == expected
    assert expected["slices"]["seen"]["seen"]["strict_possible"] == 2
    assert cli.main([str(conll), *flags]) == 0
    printed = capsys.readouterr().out
    table = printed.split("\n\nseen", 1)[1].splitlines()
    assert table[0].split() == ["POS", "ACT", "type", "F1", "partial", "F1", "exact", "F1", "strict", "F1"]
    assert table[1].split() == ["seen", "2", "2", "1.0000", "1.0000", "1.0000", "1.0000"]
    assert table[2].split() == ["unseen", "1", "1", "1.0000", "0.5000", "0.0000", "0.0000"]
    assert "\nentity_length " in printed and "\nsentence_length " in printed


def test_the_command_line_names_a_missing_seen_file(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    from nerscore import cli

    conll = tmp_path / "s.conll"
    conll.write_text(CONLL, encoding="utf-8")
    with pytest.raises(SystemExit):
        cli.main([str(conll), "--slices", "seen", "--seen", str(tmp_path / "missing.txt")])
    assert "argument --seen: cannot read" in capsys.readouterr().err
    assert cli.main([str(conll), "--slices", "seen"]) == 2
    assert "--slices seen needs --seen FILE" in capsys.readouterr().err  # the flag, not Python's seen=


def test_seen_reads_texts_as_entity_text_joins_them() -> None:
    # CJK tokens join without a space (告白气球), others with one; the array path's texts are entity_text's.
    references = [["B-SONG", "I-SONG", "O", "B-PER", "I-PER"], ["B-X", "I-X"]]
    tokens = [["告白", "气球", "by", "Jay", "Chou"], ["东京", "Tower"]]
    seen = {"告白气球", "东京 Tower"}
    result = compute_semeval(predictions=references, references=references, tokens=tokens, slices=["seen"], seen=seen)
    assert result["slices"]["seen"]["seen"]["strict_possible"] == 2
    assert result["slices"]["seen"]["unseen"]["strict_possible"] == 1
    rows = compute_semeval(predictions=references, references=references, tokens=tokens, return_entities=True)
    assert [row["reference"]["text"] for row in rows["entities"]] == ["告白气球", "Jay Chou", "东京 Tower"]


def test_sentence_slices_counted_together_and_apart_score_their_sentences_alone() -> None:
    # Sentence length and density are counted together, by each sentence's pair of buckets, and 150 groups apart
    # (too many combinations: `slices._bucket_tallies`): every bucket of each is its sentences scored alone.
    references = [["B-PER", "I-PER", "O", "B-LOC"][: 1 + index % 4] + ["O"] * (index % 13) for index in range(300)]
    predictions = [
        [("B-LOC" if tag == "B-PER" and index % 5 == 0 else tag) for tag in sentence]
        for index, sentence in enumerate(references)
    ]
    groups = [f"g{index % 150}" for index in range(300)]
    slices = ["sentence_length", "entity_density", "group"]
    result = compute_semeval(predictions=predictions, references=references, groups=groups, slices=slices)
    references_per_sentence = [sum(tag.startswith("B-") for tag in sentence) for sentence in references]
    buckets_of = {
        "sentence_length": [sentence_bucket(len(sentence)) for sentence in references],
        "entity_density": [density_bucket(number) for number in references_per_sentence],
        "group": groups,
    }
    assert list(result["slices"]) == slices and len(result["slices"]["group"]) == 150
    for name, buckets in result["slices"].items():
        assert len(set(buckets_of[name])) == len(buckets), name
        for bucket, values in buckets.items():
            kept = [i for i, b in enumerate(buckets_of[name]) if b == bucket]
            alone = compute_semeval(
                predictions=[predictions[i] for i in kept], references=[references[i] for i in kept]
            )
            assert as_bits(values) == as_bits(alone), (name, bucket)


def test_sentence_slices_are_counted_together_only_where_their_combinations_are_few() -> None:
    # 1,000 groups, 10 types: the buckets of the three slices combined with every cell would be 36 x 1,000 x 726
    # counts (209 MB); the groups are counted apart, in memory that follows the rows.
    import tracemalloc

    types = [f"T{index}" for index in range(10)]
    references = [[f"B-{types[index % 10]}", "O", f"B-{types[index // 10 % 10]}"] for index in range(1_000)]
    predictions = [[f"B-{types[index * 7 % 10]}", "O", "O"] for index in range(1_000)]
    tracemalloc.start()
    result = compute_semeval(
        predictions=predictions,
        references=references,
        groups=list(range(1_000)),
        slices=["sentence_length", "entity_density", "group"],
    )
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 50_000_000
    assert len(result["slices"]["group"]) == 1_000 and list(result["slices"]["entity_density"]) == ["2"]


@pytest.mark.parametrize("number", [255, 256, 257])
def test_groups_around_a_byte_each_score_their_own_sentence(number: int) -> None:
    # Up to 256 groups, each sentence's group is found as one byte (`slices._sentence_buckets`), past it as an
    # integer: either way each group, named in string order, scores its own sentence alone.
    references = [["B-PER", "O", "B-LOC"]] * number
    predictions = [["B-PER", "O", "B-LOC" if index % 3 else "B-ORG"] for index in range(number)]
    groups = [f"g{number - index:03d}" for index in range(number)]  # string order is not sentence order
    result = compute_semeval(predictions=predictions, references=references, groups=groups, slices=["group"])
    buckets = result["slices"]["group"]
    assert list(buckets) == sorted(groups)
    for index, group in enumerate(groups):
        assert buckets[group]["strict_correct"] == (2 if index % 3 else 1), group
        assert buckets[group]["strict_incorrect"] == (0 if index % 3 else 1), group


@pytest.mark.slow  # (the full suite: the quick profile stays under 3 minutes)
def test_bootstrap_with_thousands_of_groups_holds_no_sentences_by_groups_array() -> None:
    import tracemalloc

    references = [["B-PER"]] * 3_000
    tracemalloc.start()
    result = compute_semeval(
        predictions=references, references=references, groups=list(range(3_000)), slices=["group"], bootstrap=10
    )
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 100_000_000  # held dense, sentences x bucket columns took 3,000 x 18,000 x 8 bytes = 432 MB
    assert len(result["slices"]["group"]) == 3_000
    bucket = result["slices"]["group"]["2999"]
    assert bucket["strict_f1_low"] <= bucket["strict_f1"] == 1.0 == bucket["strict_f1_high"]


def test_bootstrap_past_the_free_memory_is_refused_before_its_resamples(monkeypatch: pytest.MonkeyPatch) -> None:
    from nerscore import errors

    monkeypatch.setattr(errors, "free_memory", lambda: 10_000_000)
    references = [["B-PER"]] * 300
    with pytest.raises(ValueError, match="bootstrap \\(or n_resamples\\): 1,000 resamples of 3,612 statistics"):
        compute_semeval(
            predictions=references, references=references, groups=list(range(300)), slices=["group"], bootstrap=1000
        )


def test_the_command_line_slices_spans_by_the_characters_of_their_text(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from nerscore import cli

    lines = [
        {"text": "Ann in Paris", "references": [[0, 3, "PER"], [7, 12, "LOC"]], "predictions": [[0, 3, "PER"]]},
        {"text": "Rome", "references": [[0, 4, "LOC"]], "predictions": [[0, 4, "LOC"]]},
    ]
    path = tmp_path / "spans.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    seen = tmp_path / "seen.txt"
    seen.write_text("Paris\nRome\n", encoding="utf-8")
    assert cli.main(["--spans", str(path), "--json", "--slices", "seen,sentence_length", "--seen", str(seen)]) == 0
    result = json.loads(capsys.readouterr().out)
    expected = compute_semeval(
        predictions=[line["predictions"] for line in lines],
        references=[line["references"] for line in lines],
        texts=[line["text"] for line in lines],
        slices=["seen", "sentence_length"],
        seen={"Paris", "Rome"},
    )
    # `ungrounded` is there whenever texts are (docs/scoring.md §1b): 0 for these lines of spans, in both.
    assert expected["ungrounded"] == 0
    assert result == expected
    assert list(result["slices"]["sentence_length"]) == ["1-10", "11-20"]


def test_the_command_line_slices_strings_by_the_length_of_their_text(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from nerscore import cli

    # "Ann met Bob in Paris" is 20 characters; its ungrounded "Oslo", placed after it to be scored, adds none (§1b).
    lines = [
        {
            "text": "Ann met Bob in Paris",
            "references": [["PER", "Ann"]],
            "predictions": [["PER", "Ann"], ["LOC", "Oslo"]],
        },
        {"text": "Rome", "references": [["LOC", "Rome"]], "predictions": [["LOC", "Rome"]]},
    ]
    path = tmp_path / "strings.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert cli.main(["--spans", str(path), "--json", "--slices", "sentence_length"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result["slices"]["sentence_length"]) == ["1-10", "11-20"]  # not "21-40", with Oslo's 5
    assert result["slices"]["sentence_length"]["11-20"]["strict_spurious"] == 1 and result["ungrounded"] == 1
    # Oslo as a span that overlaps nothing, within the text (past it is an error, docs/scoring.md §1).
    spans = compute_semeval(
        predictions=[[(0, 3, "PER"), (11, 15, "LOC")], [(0, 4, "LOC")]],
        references=[[(0, 3, "PER")], [(0, 4, "LOC")]],
        texts=[line["text"] for line in lines],
        slices=["sentence_length"],
    )
    assert result["slices"] == spans["slices"]


@pytest.mark.parametrize("bootstrap", [0, 50])
def test_the_command_line_adds_slices_chunk_by_chunk(
    tmp_path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bootstrap: int
) -> None:
    import json

    from nerscore import cli, read_conll
    from nerscore.files import file_counts

    monkeypatch.setattr(file_counts, "_CLI_CHUNK_TOKENS", 4)  # a chunk a sentence or two: the counts must add
    conll = tmp_path / "s.conll"
    conll.write_text(CONLL * 3, encoding="utf-8")
    names = "entity_length,sentence_length,entity_density"
    assert cli.main([str(conll), "--json", "--slices", names, "--bootstrap", str(bootstrap)]) == 0
    sentences = list(read_conll((CONLL * 3).splitlines()))
    expected = compute_semeval(
        predictions=[sentence.predictions for sentence in sentences],
        references=[sentence.references for sentence in sentences],
        slices=names.split(","),
        bootstrap=bootstrap,
    )
    assert json.loads(capsys.readouterr().out) == expected


# Slices with the weighted scores of docs/scoring.md §10 (one statistics vector: counts, weighted sums, buckets)


def test_bootstrap_with_value_and_slices_gives_both_their_intervals_on_both_paths() -> None:
    predictions, references = _population(np.random.default_rng(5), 60)
    options = {"slices": ["entity_length", "sentence_length"], "value": "ace08", "bootstrap": 200}
    fast = compute_semeval(predictions=predictions, references=references, **options)
    readable = compute_semeval(predictions=predictions, references=references, return_entities=True, **options)
    assert fast["slices"] == readable["slices"]
    for key in ("value", "value_precision", "value_recall", "value_f1", "strict_f1", "partial_f1"):
        assert fast[f"{key}_low"] == readable[f"{key}_low"] and fast[f"{key}_high"] == readable[f"{key}_high"]
        assert fast[f"{key}_low"] <= fast[key] <= fast[f"{key}_high"], key
    alone = compute_semeval(predictions=predictions, references=references, value="ace08", bootstrap=200)
    assert fast["value"] == alone["value"] and fast["strict_f1"] == alone["strict_f1"]
    plain = compute_semeval(predictions=predictions, references=references, slices=options["slices"])
    for name, buckets in fast["slices"].items():
        for bucket, values in buckets.items():
            assert not any(key.startswith("value") for key in values), (name, bucket)  # a bucket has no value
            assert values["strict_f1_low"] <= values["strict_f1"] <= values["strict_f1_high"]
            assert values["strict_f1"] == plain["slices"][name][bucket]["strict_f1"]


def test_compare_with_value_and_slices_tests_the_value_and_every_bucket() -> None:
    rng = np.random.default_rng(6)
    predictions_a, references = _population(rng, 40)
    predictions_b = [list(tags) for tags in references[:20]] + predictions_a[20:]
    result = compare_semeval(
        predictions_a=predictions_a,
        predictions_b=predictions_b,
        references=references,
        slices=["entity_length"],
        value=True,
        n_resamples=300,
    )
    assert result["value_delta"] == pytest.approx(result["value_b"] - result["value_a"])
    assert result["value_delta_low"] <= result["value_delta"] <= result["value_delta_high"]
    for values in result["slices"]["entity_length"].values():
        assert 0 <= values["strict_f1_p_value"] <= values["strict_f1_p_value_holm"] <= 1
        assert not any(key.startswith("value") for key in values)


def test_a_numeric_partial_credit_scores_the_buckets_as_the_totals() -> None:
    references = [["B-PER", "I-PER", "I-PER", "O"], ["B-LOC", "O"]]
    predictions = [["O", "B-PER", "I-PER", "O"], ["B-LOC", "O"]]
    tokens = [["a", "b", "c", "d"], ["e", "f"]]
    result = compute_semeval(
        predictions=predictions, references=references, tokens=tokens, slices=["seen"], seen=[], partial_credit=0.25
    )
    unseen = result["slices"]["seen"]["unseen"]  # every entity: the bucket is the totals
    assert result["partial_precision"] == (1 + 0.25) / 2
    for key in ("partial_precision", "partial_recall", "partial_f1", "strict_f1"):
        assert unseen[key] == result[key], key


def test_slices_refuse_the_overlap_credit() -> None:
    with pytest.raises(ValueError, match='cannot take partial_credit="overlap"'):
        compute_semeval(predictions=TAGS, references=TAGS, slices=["entity_length"], partial_credit="overlap")


@pytest.mark.parametrize("function", ["summarize_runs", "compare_runs"])
def test_runs_refuse_slices(function: str) -> None:
    import nerscore

    given = {"runs": [TAGS]} if function == "summarize_runs" else {"runs_a": [TAGS], "runs_b": [TAGS]}
    with pytest.raises(ValueError, match="slices=\\['entity_length'\\]"):
        getattr(nerscore, function)(**given, references=TAGS, slices=["entity_length"])


def test_bootstrap_of_documents_resamples_the_buckets_with_them() -> None:
    # docs/scoring.md §9: with documents, the units are documents, and each one's bucket counts are its sentences'.
    predictions, references = _population(np.random.default_rng(7), 40)
    documents = [f"d{i % 8}" for i in range(40)]
    options = {"slices": ["entity_length"], "bootstrap": 200, "value": True}
    by_document = compute_semeval(predictions=predictions, references=references, documents=documents, **options)
    by_sentence = compute_semeval(predictions=predictions, references=references, **options)
    buckets_d, buckets_s = by_document["slices"]["entity_length"], by_sentence["slices"]["entity_length"]
    assert {bucket: values["strict_f1"] for bucket, values in buckets_d.items()} == {
        bucket: values["strict_f1"] for bucket, values in buckets_s.items()
    }
    assert buckets_d["3"]["strict_f1_low"] != buckets_s["3"]["strict_f1_low"]  # other units, other intervals
    for values in buckets_d.values():
        assert values["strict_f1_low"] <= values["strict_f1"] <= values["strict_f1_high"]
    compared = compare_semeval(
        predictions_a=predictions,
        predictions_b=references,
        references=references,
        documents=documents,
        slices=["entity_length"],
        value=True,
        n_resamples=200,
    )
    assert compared["value_delta_low"] <= compared["value_delta"] <= compared["value_delta_high"]


FAR = 10**30  # past int64: docs/scoring.md §1 takes any non-negative offset


def test_the_length_slice_of_a_discontinuous_entity_of_units_past_int64() -> None:
    # The red team's: entity_length of an entity whose units pass int64 raised OverflowError.
    reference = {"fragments": [[0, 2], [4, FAR]], "type": "X"}
    result = compute_semeval(predictions=[[(0, 2, "X")]], references=[[reference]], slices=["entity_length"])
    buckets = result["slices"]["entity_length"]
    assert {name: (scores["strict_possible"], scores["strict_actual"]) for name, scores in buckets.items()} == {
        "2": (0, 1),
        "8+": (1, 0),
    }


def test_a_fragment_past_its_text_is_located_with_errors_asked() -> None:
    # The red team's: errors=True read the texts of an entity of fragments past int64 before the entity was
    # refused, and raised OverflowError; the contiguous entity gets the located error, the fragments do too.
    for far_entity in ((0, FAR, "X"), {"fragments": [[0, 2], [4, FAR]], "type": "X"}):
        with pytest.raises(InvalidInputError, match=r"predictions, sentence 0, entity 0: .* past the end of its text"):
            compute_semeval(predictions=[[far_entity]], references=[[(0, 2, "X")]], texts=["abcdef"], errors=True)


# Tokens holding a space or none at all, CJK tokens (joined with no space) and plain words; seen texts of one word,
# of several, opening with a space, of CJK.
ODD_TOKENS = ("w0", "w1", "", "a b", "東", "京")
ODD_SEEN = ("w0", "w0 w1", "w1 w0", "a b w0", " w1", "a", "a b", "東京", "京 w0", "w1 w1", "")


@settings(max_examples=150, deadline=None)
@given(soup_batches("IOB2", max_sentences=5, max_length=10), st.data())
def test_the_seen_slice_makes_texts_of_several_tokens_only_where_seen_may_hold_them(
    batches: tuple, draw: st.DataObject
) -> None:
    # Against every text made (no `seen`): the same seen and unseen entities, and the same texts once read (errors).
    from nerscore.forms import readable
    from nerscore.options import Options
    from nerscore.table import findings, slices
    from nerscore.table.columns import Columns

    predictions, references = batches
    words = draw.draw(st.lists(st.sampled_from(ODD_TOKENS), min_size=1, max_size=3, unique=True))
    tokens = [[draw.draw(st.sampled_from(words)) for _ in sentence] for sentence in references]
    seen = frozenset(draw.draw(st.sets(st.sampled_from(ODD_SEEN))))
    options = Options.of(slices=["seen"], seen=seen)
    columns = Columns.of(len(references), tokens=tokens)
    rows = readable.tag_rows_and_facts(predictions, references, False, options)[0]
    pairs = readable.reduction(rows, len(references), options, columns).pairs
    every, lazy = slices.row_texts(pairs, columns), slices.row_texts(pairs, columns, seen)
    made = slices.count_slices(pairs, options, columns, None, False, every)
    assert slices.count_slices(pairs, options, columns, None, False, lazy) == made
    assert findings.errors(pairs, columns, lazy) == findings.errors(pairs, columns, every)
    assert [lazy.side(side) for side in (0, 1)] == [every.side(side) for side in (0, 1)]


def test_a_seen_of_single_texts_holds_no_space_and_no_cjk() -> None:
    from nerscore.table.row_texts import _all_single

    assert _all_single(frozenset({"Paris", "w0", ""}))
    assert not _all_single(frozenset({"Paris", "New York"}))
    assert not _all_single(frozenset({"東京"}))  # CJK tokens join with no space: 東 and 京 make 東京


SEEN_CASES = {
    "several tokens, seen": (["w0", "w1"], {"w0 w1"}, "seen"),
    "several tokens, their first seen alone": (["w0", "w1"], {"w0", "w1 w0"}, "unseen"),
    "several tokens, no seen text of several": (["w0", "w1"], {"w0", "w1"}, "unseen"),
    "a first token holding a space": (["a b", "w0"], {"a b w0"}, "seen"),
    "an empty first token": (["", "w1"], {" w1"}, "seen"),
    "CJK tokens, joined with no space": (["東", "京"], {"東京"}, "seen"),
    "CJK tokens, seen with a space": (["東", "京"], {"東 京"}, "unseen"),
    "one token": (["w0"], {"w0"}, "seen"),
}


@pytest.mark.parametrize(("tokens", "seen", "bucket"), SEEN_CASES.values(), ids=SEEN_CASES.keys())
def test_an_entity_is_seen_by_its_whole_text_and_errors_name_it(tokens: list, seen: set, bucket: str) -> None:
    # The reference is missed (an error, whose row names its text) and in `bucket` of the seen slice, with errors
    # (which read the texts first) and without.
    references = [["B-X"] + ["I-X"] * (len(tokens) - 1)]
    predictions = [["O"] * len(tokens)]
    given = {"predictions": predictions, "references": references, "tokens": [tokens], "slices": ["seen"]}
    assert list(compute_semeval(**given, seen=seen)["slices"]["seen"]) == [bucket]
    result = compute_semeval(**given, seen=seen, errors=True)
    assert list(result["slices"]["seen"]) == [bucket]
    text = compute_semeval(predictions=references, references=references, tokens=[tokens], return_entities=True)
    assert [row["reference_text"] for row in result["errors"]] == [text["entities"][0]["reference"]["text"]]


def _group_slices_peak(sentences: int) -> int:
    import tracemalloc

    references = [[(0, 1, "T")] for _ in range(sentences)]
    tracemalloc.start()
    try:
        compute_semeval(
            predictions=references, references=references, groups=list(range(sentences)), slices=["group"], bootstrap=10
        )
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_bootstrap_with_the_group_slice_costs_what_its_sentences_cost() -> None:
    # Doubling the sentences (one group each) doubles the memory, never quadruples it (it was x3.8 when each
    # sentence's bucket columns and the jackknife were held dense: 2,000 sentences took 16 s and 2.2 GB).
    assert _group_slices_peak(400) < 3 * _group_slices_peak(200)


def test_bucket_columns_laid_out_as_the_groups_of_two_batches_are_those_of_both_counted_at_once() -> None:
    # An Accumulator's runs keep their own groups until they merge (`SliceRuns`, `SentenceCounts.names`): each
    # run's bucket columns laid out as the groups of both are the columns of one pass over both.
    from scipy import sparse

    from nerscore import Accumulator, Options
    from nerscore.table.slices import joined_names, laid_out

    references = [["B-PER", "I-PER", "O"], ["B-LOC", "O", "B-PER"], ["O", "B-ORG", "O"]]
    predictions = [["B-PER", "O", "O"], ["B-LOC", "O", "B-LOC"], ["O", "B-ORG", "O"]]
    options = Options.of(slices=["entity_length", "group"], bootstrap=10)

    def rows(start: int, stop: int, groups: list[str]) -> Any:
        found = Accumulator(options, ordered=True)
        found = found.update(predictions=predictions[start:stop], references=references[start:stop], groups=groups)
        return found.in_order

    first, second, both = rows(0, 2, ["d", "b"]), rows(2, 3, ["c"]), rows(0, 3, ["d", "b", "c"])
    assert first.names is not None and second.names is not None
    names = joined_names(first.names, second.names)
    assert names == both.names and names["group"] == ["b", "c", "d"]
    moved = sparse.vstack([laid_out(run.ints, run.names, names) for run in (first, second)]).toarray()
    assert np.array_equal(moved, both.ints.toarray())
    assert laid_out(first.ints, first.names, first.names) is first.ints  # one layout: nothing moved
    assert np.array_equal((first + second).ints.toarray(), both.ints.toarray())


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.sampled_from("abcdefgh"), max_size=4), min_size=1, max_size=12))
def test_slice_runs_join_to_the_counts_added_in_order_and_stay_few(groups: list[list[str]]) -> None:
    from functools import reduce
    from operator import add

    from nerscore import Accumulator, Options
    from nerscore.table.slices import SliceRuns, slice_scores

    options = Options.of(slices=["group", "sentence_length"])
    counts = []
    for labels in groups:
        references = [["B-PER", "O"] if label < "e" else ["O", "B-LOC"] for label in labels]
        found = Accumulator(options).update(predictions=references, references=references, groups=labels)
        assert found.slice_runs is not None
        counts.extend(found.slice_runs.runs)
    runs = reduce(add, [SliceRuns((one,)) for one in counts])
    assert len(runs.runs) <= max(1, len(counts)).bit_length() + 1
    joined, added = runs.joined(), reduce(add, counts)
    assert joined.names == added.names
    assert slice_scores(joined, options) == slice_scores(added, options)


def test_the_first_entity_past_its_tokens_is_named() -> None:
    # Of the entities past their sentence's tokens, the first sentence's first one (references before predictions).
    references = [[(0, 1, "PER")], [(0, 5, "PER"), (1, 6, "LOC")], [(0, 9, "PER")]]
    predictions = [[], [(0, 7, "PER")], []]
    tokens = [["a", "b"]] * 3
    with pytest.raises(ValueError, match=r"^references, sentence 1: found an entity \[0, 5\) past the sentence's 2 "):
        compute_semeval(predictions=predictions, references=references, tokens=tokens)
