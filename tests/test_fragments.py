"""Discontinuous entities (docs/scoring.md §12): fragments read, checked and scored on units.

An entity of one fragment is checked to be today's span on every key (random span batches written as fragment
dicts, many option sets); random fragment sets are checked against tests/oracle.py's independent reading of §3
with §12 (every one-to-one pairing tried); hostile fragment sets stay bounded."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import numpy as np
import oracle
import pytest
import strategies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_tag_arrays import assert_same_tables, in_order

import nerscore
from nerscore import Span, cli, compute_semeval, pair
from nerscore.forms import readable as readable_path
from nerscore.forms import span_arrays
from nerscore.options import Options
from nerscore.span import fragment_span, shared_units

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ADR, DRUG = "ADR", "Drug"


def F(*fragments: tuple[int, int], entity_type: str = ADR) -> dict[str, Any]:
    return {"fragments": [list(piece) for piece in fragments], "type": entity_type}


def scored(predictions: list, references: list, **options: Any) -> dict[str, Any]:
    return compute_semeval(predictions=predictions, references=references, **options)


# ---------------------------------------------------------------------------------------------------------------
# Named cases of docs/scoring.md §12
# ---------------------------------------------------------------------------------------------------------------

NAMED = [
    # (name, references, predictions, expected scenarios in row order)
    ("one fragment is the span", [F((0, 2))], [(0, 2, ADR)], ["I"]),
    ("touching fragments merge into one", [F((2, 4), (0, 2))], [(0, 4, ADR)], ["I"]),
    ("overlapping fragments merge", [F((0, 3), (1, 4))], [(0, 4, ADR)], ["I"]),
    ("same fragments in another order are identical", [F((5, 7), (0, 2))], [F((0, 2), (5, 7))], ["I"]),
    ("same fragments, other type", [F((0, 2), (5, 7))], [F((0, 2), (5, 7), entity_type=DRUG)], ["IV"]),
    ("same extent, a hole: not identical", [(0, 4, ADR)], [F((0, 2), (3, 4))], ["V"]),
    ("extents overlap, units do not", [F((0, 2), (6, 8))], [(3, 5, ADR)], ["III", "II"]),
    ("a shared unit in the second fragment", [F((0, 2), (6, 8))], [(7, 9, ADR)], ["V"]),
]


@pytest.mark.parametrize(
    ("references", "predictions", "expected"), [case[1:] for case in NAMED], ids=[c[0] for c in NAMED]
)
def test_named_scenarios(references, predictions, expected) -> None:
    rows = scored([predictions], [references], return_entities=True)["entities"]
    assert [row["scenario"] for row in rows] == expected


def test_min_overlap_counts_units_of_the_reference() -> None:
    reference = [F((0, 2), (10, 12))]  # 4 units, extent 12
    prediction = [(0, 2, ADR)]  # shares 2 units: a half of the units, a sixth of the extent
    assert scored([prediction], [reference], min_overlap=0.5)["partial_partial"] == 1
    assert scored([prediction], [reference], min_overlap=0.6)["partial_partial"] == 0


def test_rule_c_counts_shared_units_not_extents() -> None:
    # The prediction's extent covers both references; its units share 1 with the first and 2 with the second.
    references = [(0, 3, ADR), (5, 8, ADR)]
    predictions = [F((2, 3), (5, 7))]
    rows = scored([predictions], [references], return_entities=True)["entities"]
    paired = [row for row in rows if row["reference"] and row["prediction"]]
    assert [(row["reference"]["start"], row["reference"]["end"]) for row in paired] == [(5, 8)]


def test_rule_d_compares_fragment_lists() -> None:
    # Two predictions share 2 units each with the reference: [(0, 1), (4, 5)] < [(0, 2)], so the first pairs.
    references = [F((0, 2), (4, 6))]
    predictions = [(0, 2, ADR), F((0, 1), (4, 5))]
    rows = scored([predictions], [references], return_entities=True)["entities"]
    paired = next(row for row in rows if row["reference"] and row["prediction"])
    assert paired["prediction"]["fragments"] == [[0, 1], [4, 5]]
    rows = pair([fragment_span([(0, 2), (4, 6)], ADR)], [Span(0, 2, ADR), fragment_span([(0, 1), (4, 5)], ADR)])
    assert rows[0] == (fragment_span([(0, 2), (4, 6)], ADR), fragment_span([(0, 1), (4, 5)], ADR))


def test_overlap_credit_diagnostics_length_and_texts_read_units() -> None:
    text = "muscle pain and fatigue"
    references = [F((0, 6), (16, 23)), (7, 11, ADR)]  # "muscle fatigue", "pain"
    predictions = [F((0, 11)), (16, 23, ADR)]  # "muscle pain", "fatigue"
    result = scored(
        [predictions],
        [references],
        texts=[text],
        partial_credit="overlap",
        diagnostics=True,
        errors=True,
        return_entities=True,
    )
    rows = result["entities"]
    # Two pairs: "pain" ~ "muscle pain" (4 shared of 11 units), "muscle fatigue" ~ "fatigue" (7 of 13).
    assert [row["reference"]["text"] for row in rows] == ["pain", "muscle fatigue"]
    assert rows[1]["reference"] == {
        "start": 0,
        "end": 23,
        "type": ADR,
        "fragments": [[0, 6], [16, 23]],
        "text": "muscle fatigue",
    }
    assert rows[1]["prediction"] == {"start": 16, "end": 23, "type": ADR, "text": "fatigue"}
    assert rows[0]["prediction"] == {"start": 0, "end": 11, "type": ADR, "text": "muscle pain"}
    assert result["partial_partial"] == 2
    assert result["partial_precision"] == float((Fraction(4, 11) + Fraction(7, 13)) / 2)
    assert result["boundary_too_long"] == 1 and result["boundary_too_short"] == 1
    assert result["merged"] == 1 and result["split"] == 1
    errors = {(e["reference_text"], e["predicted_text"]) for e in result["errors"]}
    assert ("muscle fatigue", "fatigue") in errors and ("pain", "muscle pain") in errors
    lengths = scored([predictions], [references], slices=["entity_length"])["slices"]["entity_length"]
    # references: 13 units ("8+"), 4 units; predictions: 11 units ("8+"), 7 units ("5-7")
    assert lengths["8+"]["strict_possible"] == 1 and lengths["4"]["strict_possible"] == 1
    assert lengths["5-7"]["strict_actual"] == 1 and lengths["8+"]["strict_actual"] == 1


BAD = [
    ({"fragments": [], "type": ADR}, "fragments is empty"),
    ({"fragments": [[3, 3]], "type": ADR}, r"fragment 0 \[3, 3\] is empty"),
    ({"fragments": [[0, 2], [5, 4]], "type": ADR}, r"fragment 1 \[5, 4\]: start 5 > end 4"),
    ({"fragments": [[0, 2.5]], "type": ADR}, r"fragment 0 \[0, 2.5\]: end is 2.5"),
    ({"fragments": [[0, True]], "type": ADR}, r"fragment 0 \[0, True\]: end is True"),
    ({"fragments": [[-1, 2]], "type": ADR}, r"start is -1"),
    ({"fragments": [[0, 1, 2]], "type": ADR}, "is not a pair"),
    ({"fragments": "0 2", "type": ADR}, "expected a list of"),
    # (Red team 2: a 0-d array raised TypeError "iteration over a 0-d array"; a numpy integer likewise.)
    ({"fragments": np.array(3), "type": ADR}, r"fragments is array\(3\) \(ndarray\); expected a list of"),
    ({"fragments": np.int64(3), "type": ADR}, r"fragments is np.int64\(3\) \(int64\); expected a list of"),
    ({"fragments": [[0, 2], [4, 6]]}, "the type is None"),
    ({"fragments": [[0, 2], [4, 6]], "type": ADR, "start": 0, "end": 5}, "end is 5 but the fragments"),
    ({"fragments": [[0, 2], [4, 6]], "type": ADR, "start": 1}, "start is 1 but the fragments"),
]


@pytest.mark.parametrize(("entity", "match"), BAD)
@pytest.mark.parametrize("side", ["predictions", "references"])
def test_bad_fragments_are_a_value_error_naming_side_sentence_and_entity(entity, match, side) -> None:
    batch = [[], [(0, 1, ADR), entity]]
    other = [[], []]
    arguments = (
        {"predictions": batch, "references": other}
        if side == "predictions"
        else {"predictions": other, "references": batch}
    )
    with pytest.raises(ValueError, match=rf"^{side}, sentence 1, entity 1: .*{match}"):
        compute_semeval(**arguments)


def test_start_and_end_equal_to_the_extent_are_accepted_and_inputs_not_modified() -> None:
    entity = {"fragments": [[4, 6], [0, 2]], "type": ADR, "start": 0, "end": 6}
    before = repr(entity)
    assert scored([[F((0, 2), (4, 6))]], [[entity]])["strict_correct"] == 1
    assert repr(entity) == before


def test_shared_units_by_binary_search_equals_sets() -> None:
    generator = random.Random(3)
    for _ in range(300):
        sides = []
        for _ in range(2):
            pieces = [(a, a + generator.randint(1, 4)) for a in generator.sample(range(40), generator.randint(1, 6))]
            sides.append(fragment_span(pieces, ADR))
        units = [{u for a, b in span.pieces() for u in range(a, b)} for span in sides]
        assert shared_units(sides[0].pieces(), sides[1].pieces()) == len(units[0] & units[1])
        assert sides[0].overlap(sides[1]) == len(units[0] & units[1])
        assert sides[0].units == len(units[0])


# ---------------------------------------------------------------------------------------------------------------
# One fragment is today's span, on every key
# ---------------------------------------------------------------------------------------------------------------

OPTION_SETS = [
    {},
    {"return_entities": True, "per_type": True, "confusion": True},
    {"min_overlap": 0.5, "diagnostics": True},
    {"partial_credit": "overlap", "diagnostics": True, "return_entities": True},
    {"errors": True, "slices": ["entity_length", "seen", "sentence_length", "entity_density"], "seen": ["ab"]},
    {"value": "ace08", "return_entities": True},
    {"bootstrap": 20, "seed": 1, "slices": ["entity_length"]},
    {"labels": ["PER"], "diagnostics": True},
]


def one_fragment(entity: tuple[int, int, str], style: int) -> dict[str, Any]:
    start, end, entity_type = entity
    written: dict[str, Any] = {"fragments": [[start, end]], "type": entity_type}
    if style == 1:
        written.update(start=start, end=end)
    elif style == 2:  # the same span cut in touching pieces merges back into it
        cut = (start + end) // 2
        written["fragments"] = [[cut, end], [start, cut]] if cut > start else [[start, end]]
    return written


@SETTINGS
@given(
    st.lists(st.tuples(strategies.nested_spans(), strategies.nested_spans()), max_size=4),
    st.sampled_from(range(len(OPTION_SETS))),
    st.integers(0, 2),
    st.booleans(),
)
def test_one_fragment_entities_score_as_todays_spans_on_every_key(sentences, options, style, one_side) -> None:
    references = [r for r, _ in sentences]
    predictions = [p for _, p in sentences]
    option_set = dict(OPTION_SETS[options])
    texts = ["abcdefghijklmn" for _ in sentences]
    as_fragments = [[one_fragment(entity, style) for entity in sentence] for sentence in predictions]
    reference_fragments = references if one_side else [[one_fragment(e, style) for e in s] for s in references]
    expected = scored(predictions, references, texts=texts, **option_set)
    assert scored(as_fragments, reference_fragments, texts=texts, **option_set) == expected


# ---------------------------------------------------------------------------------------------------------------
# Every one-to-one pairing tried: tests/oracle.py's reading of §3 with §12
# ---------------------------------------------------------------------------------------------------------------

fragment_lists = st.lists(st.tuples(st.integers(0, 9), st.integers(1, 3)), min_size=1, max_size=3).map(
    lambda pieces: [(start, start + length) for start, length in pieces]
)
sides = st.lists(st.tuples(fragment_lists, st.sampled_from(["PER", "LOC"])), max_size=4)


def entity_key(entity: dict[str, Any] | None) -> Any:
    if entity is None:
        return None
    pieces = entity.get("fragments", [[entity["start"], entity["end"]]])
    return tuple(map(tuple, pieces)), entity["type"]


@SETTINGS
@given(sides, sides, st.sampled_from([None, 0.3, 0.5, 1.0]), st.data())
def test_pairing_and_every_count_equal_every_pairing_enumerated(references, predictions, min_overlap, data) -> None:
    # Copies: an entity repeated now and then, on either side.
    for side in (references, predictions):
        if side and data.draw(st.booleans()):
            side.append(data.draw(st.sampled_from(side)))
    oracle_r = [oracle.piecewise(pieces, kind) for pieces, kind in references]
    oracle_p = [oracle.piecewise(pieces, kind) for pieces, kind in predictions]
    expected_rows = oracle.pair_piecewise(oracle_r, oracle_p, min_overlap)
    expected = oracle.piecewise_counts(expected_rows, oracle_r, oracle_p, min_overlap)

    written_r = [{"fragments": pieces, "type": kind} for pieces, kind in references]
    written_p = [{"fragments": pieces, "type": kind} for pieces, kind in predictions]
    result = scored(
        [written_p],
        [written_r],
        min_overlap=min_overlap,
        return_entities=True,
        diagnostics=True,
        partial_credit="overlap",
    )
    rows = sorted(
        (repr(entity_key(row["reference"])), repr(entity_key(row["prediction"]))) for row in result["entities"]
    )
    want = sorted(
        (
            repr(None if r is None else (r.fragments, r.kind)),
            repr(None if p is None else (p.fragments, p.kind)),
        )
        for r, p in expected_rows
    )
    assert rows == want
    for name, value in expected.items():
        if name == "credit":
            actual = result["partial_actual"]
            correct = result["partial_correct"]
            precision = Fraction(correct) + value
            assert result["partial_precision"] == (float(precision / actual) if actual else 0.0)
        else:
            assert result[name] == value, name


@SETTINGS
@given(sides, sides)
def test_pair_of_spans_equals_the_enumeration(references, predictions) -> None:
    spans_r = [fragment_span(pieces, kind) for pieces, kind in references]
    spans_p = [fragment_span(pieces, kind) for pieces, kind in predictions]
    got = sorted(
        (
            repr(None if r is None else (r.pieces(), r.entity_type)),
            repr(None if p is None else (p.pieces(), p.entity_type)),
        )
        for r, p in pair(spans_r, spans_p)
    )
    expected_rows = oracle.pair_piecewise(
        [oracle.piecewise(pieces, kind) for pieces, kind in references],
        [oracle.piecewise(pieces, kind) for pieces, kind in predictions],
    )
    want = sorted(
        (repr(None if r is None else (r.fragments, r.kind)), repr(None if p is None else (p.fragments, p.kind)))
        for r, p in expected_rows
    )
    assert got == want


# ---------------------------------------------------------------------------------------------------------------
# BRAT files with fragments, the command line, the evaluate module
# ---------------------------------------------------------------------------------------------------------------

CLINICAL_TEXT = "Patient reports muscle pain and fatigue after statins."
CLINICAL_GOLD = "T1\tADR 16 27\tmuscle pain\nT2\tADR 16 22;32 39\tmuscle fatigue\nT3\tDrug 46 53\tstatins\n"
CLINICAL_SYSTEM = "T1\tADR 16 27\tmuscle pain\nT2\tADR 16 39\tmuscle pain and fatigue\nT3\tDrug 46 53\tstatins\n"


@pytest.fixture
def clinical(tmp_path):
    folders = []
    for name, ann in (("gold", CLINICAL_GOLD), ("system", CLINICAL_SYSTEM)):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "note1.ann").write_text(ann, encoding="utf-8")
        (folder / "note1.txt").write_text(CLINICAL_TEXT, encoding="utf-8")
        folders.append(folder)
    return folders


def test_read_brat_keeps_fragments_when_asked(clinical) -> None:
    gold, _ = clinical
    (extent,) = nerscore.read_brat(gold)
    (pieces,) = nerscore.read_brat(gold, fragments=True)
    assert extent.spans[1] == Span(16, 39, ADR) and extent.discontinuous == 1
    assert pieces.spans[1] == Span(16, 39, ADR, ((16, 22), (32, 39))) and pieces.discontinuous == 1
    assert pieces.spans[0] == extent.spans[0] == Span(16, 27, ADR)


def test_brat_fragments_in_any_order_or_touching_are_sorted_and_merged(tmp_path) -> None:
    (tmp_path / "a.txt").write_text("abcdefghij", encoding="utf-8")
    # brat's text is the fragments' texts joined by one space, in the line's order.
    (tmp_path / "a.ann").write_text("T1\tX 6 8;0 2\tgh ab\nT2\tX 0 2;2 4\tab cd\n", encoding="utf-8")
    (document,) = nerscore.read_brat(tmp_path / "a.ann", fragments=True)
    assert document.spans == [Span(0, 8, "X", ((0, 2), (6, 8))), Span(0, 4, "X")]
    (tmp_path / "a.ann").write_text("T1\tX 6 8;0 2\tghab\n", encoding="utf-8")
    with pytest.raises(nerscore.ConllError, match=r"a\.ann:1: T1's text is 'ghab'"):
        list(nerscore.read_brat(tmp_path / "a.ann", fragments=True))


def test_the_fragments_flag_scores_brat_fragments_and_says_so(clinical, capsys) -> None:
    gold, system = clinical
    assert cli.main(["--brat", str(gold), str(system), "--json", "--diagnostics"]) == 0
    captured = capsys.readouterr()
    extent = json.loads(captured.out)
    assert extent["strict_correct"] == 3  # the over-long prediction has the full extent: called correct
    assert "(--fragments scores them as discontinuous entities)" in captured.err
    assert cli.main(["--brat", str(gold), str(system), "--json", "--diagnostics", "--fragments"]) == 0
    captured = capsys.readouterr()
    pieces = json.loads(captured.out)
    assert (pieces["strict_correct"], pieces["strict_incorrect"], pieces["boundary_too_long"]) == (2, 1, 1)
    assert captured.err == (
        "note: 1 discontinuous annotation (1 reference, 0 predicted) scored by their fragments (units shared, "
        "docs/scoring.md §12)\n"
    )
    (document,) = nerscore.read_brat(gold, fragments=True)
    (predicted,) = nerscore.read_brat(system, fragments=True)
    assert pieces == scored([predicted.spans], [document.spans], diagnostics=True, texts=[document.text])  # (§1b)


def test_the_fragments_flag_needs_brat(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--fragments", "x.conll"])
    assert exit_info.value.code == 2
    assert "--fragments reads BRAT's discontinuous annotations" in capsys.readouterr().err


def test_span_lines_with_fragments_score_as_compute(tmp_path, capsys) -> None:
    lines = [
        {"text": CLINICAL_TEXT, "references": [F((16, 22), (32, 39))], "predictions": [(16, 39, ADR)]},
        {"references": [(0, 3, ADR)], "predictions": [F((0, 1), (2, 3))]},
    ]
    path = tmp_path / "spans.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert cli.main(["--spans", str(path), "--json", "--diagnostics"]) == 0
    expected = scored([line["predictions"] for line in lines], [line["references"] for line in lines], diagnostics=True)
    assert json.loads(capsys.readouterr().out) == expected
    path.write_text(json.dumps({"references": [{"fragments": [[2, 1]], "type": ADR}], "predictions": []}) + "\n")
    assert cli.main(["--spans", str(path)]) == 2
    assert "spans.jsonl:1: " in capsys.readouterr().err


def test_the_evaluate_module_stores_fragments(load_metric) -> None:
    metric = load_metric()
    references = [[F((0, 2), (5, 7)), (9, 12, DRUG)], [(0, 3, ADR)], []]
    predictions = [[(0, 2, ADR), F((9, 10), (11, 12), entity_type=DRUG)], [F((0, 1), (2, 3))], [(1, 2, ADR)]]
    metric.add_batch(predictions=predictions[:1], references=references[:1])
    metric.add_batch(predictions=predictions[1:], references=references[1:])
    expected = scored(predictions, references, return_entities=True, diagnostics=True, partial_credit="overlap")
    assert metric.compute(return_entities=True, diagnostics=True, partial_credit="overlap") == expected
    # Plain spans first, then fragments: one stored form.
    metric.add_batch(predictions=predictions[2:], references=references[2:])
    metric.add_batch(predictions=predictions[:2], references=references[:2])
    order = [2, 0, 1]
    assert metric.compute(return_entities=True) == scored(
        [predictions[k] for k in order], [references[k] for k in order], return_entities=True
    )
    with pytest.raises(ValueError, match=r"^references, sentence 1, entity 0: fragment 0 \[3, 3\] is empty"):
        metric.add_batch(predictions=[[], []], references=[[], [F((3, 3))]])


# ---------------------------------------------------------------------------------------------------------------
# Hostile fragment sets stay bounded (benchmarks/fragments.py times them: 0.6 s and 0.9 s at full size)
# ---------------------------------------------------------------------------------------------------------------


def many_fragments(size: int) -> tuple[list, list]:
    reference = [{"fragments": [[2 * k, 2 * k + 1] for k in range(size)], "type": "X"}]
    predictions = [{"start": 2 * k, "end": 2 * k + 1, "type": "X"} for k in range(size)]
    return [predictions], [reference]


def interleaved(entities: int, fragments: int = 50) -> tuple[list, list]:
    def side(shift: int) -> list:
        return [
            {
                "fragments": [[k + shift + entities * m, k + shift + entities * m + 1] for m in range(fragments)],
                "type": "X",
            }
            for k in range(entities)
        ]

    return [side(1)], [side(0)]


@pytest.mark.parametrize("size", [1_000, pytest.param(10_000, marks=pytest.mark.slow)])
def test_one_entity_of_many_fragments(size) -> None:
    predictions, references = many_fragments(size)
    result = scored(predictions, references, diagnostics=True, partial_credit="overlap")
    # One prediction pairs (the first, rule (d)); each shares 1 unit of `size`.
    assert (result["partial_partial"], result["partial_spurious"], result["split"]) == (1, size - 1, 1)
    assert result["boundary_too_short"] == 1


@pytest.mark.parametrize("entities", [100, pytest.param(1_000, marks=pytest.mark.slow)])
def test_interleaved_entities_of_fifty_fragments(entities) -> None:
    predictions, references = interleaved(entities)
    result = scored(predictions, references, diagnostics=True)
    # Prediction k holds reference (k + 1)'s units; the last one holds 49 of reference 0's 50 (shifted by a row).
    assert (result["strict_correct"], result["strict_incorrect"], result["strict_missed"]) == (entities - 1, 1, 0)
    assert result["boundary_crossing"] == 1 and result["split"] == 0


# ---------------------------------------------------------------------------------------------------------------
# The array path: sentences with fragments the readable way, the others on arrays, one table
# ---------------------------------------------------------------------------------------------------------------


@SETTINGS
@given(
    st.lists(st.tuples(sides, sides, st.booleans()), max_size=5),
    st.sampled_from([None, 0.5]),
    st.sampled_from([None, ("PER",)]),
)
def test_a_batch_with_some_discontinuous_sentences_makes_the_readable_table(sentences, min_overlap, labels) -> None:
    def written(side: list, fragments: bool) -> list:
        if fragments:
            return [{"fragments": pieces, "type": kind} for pieces, kind in side]
        return [(pieces[0][0], pieces[0][1], kind) for pieces, kind in side]  # contiguous: the first fragment

    references = [written(r, held) for r, _, held in sentences]
    predictions = [written(p, held) for _, p, held in sentences]
    options = Options.of(min_overlap=min_overlap, labels=labels, value="ace08")
    table = span_arrays.span_pairs(predictions, references, options)
    rows = readable_path.span_rows(predictions, references, options)
    if any(held and (r or p) for r, p, held in sentences) and not all(held for r, p, held in sentences if r or p):
        assert table is not None, "sentences without fragments take the arrays"
    if table is not None:
        assert_same_tables(table, rows, len(references), options)
        expected = readable_path.reduction(rows, len(references), options).pairs
        assert [list(column) for column in in_order(table).fragment_columns()] == [
            list(column) for column in in_order(expected.renamed(table.type_names)).fragment_columns()
        ]


def test_compare_semeval_reads_fragments() -> None:
    references = [[F((0, 2), (5, 7))], [(0, 3, DRUG)]] * 5
    predictions_a = [[F((0, 2), (5, 6))], [(0, 3, DRUG)]] * 5
    predictions_b = [[F((0, 2), (5, 7))], [(0, 2, DRUG)]] * 5
    result = nerscore.compare_semeval(
        predictions_a=predictions_a, predictions_b=predictions_b, references=references, n_resamples=50, seed=1
    )
    assert result["strict_f1_a"] == scored(predictions_a, references)["strict_f1"] == 0.5
    assert result["partial_f1_a"] == scored(predictions_a, references)["partial_f1"]


def test_fragments_against_string_entities_are_refused() -> None:
    # Strings are one stretch of text each (§1b, §12): fragments on the other side would be read as the extent.
    with pytest.raises(ValueError, match=r"^predictions, sentence 0, entity 0: found an entity of fragments"):
        scored([[F((0, 6), (16, 23))]], [[(ADR, "muscle pain")]], texts=["muscle pain and fatigue"])
    one = scored([[F((0, 11))]], [[(ADR, "muscle pain")]], texts=["muscle pain and fatigue"])
    assert one["strict_correct"] == 1  # one fragment is the span


@SETTINGS
@given(st.lists(st.tuples(sides, sides), max_size=4), st.sampled_from(range(len(OPTION_SETS))))
def test_every_option_set_reads_fragment_batches(sentences, options) -> None:
    # Every key reads units: POS and ACT are the entities, the rows give each entity once, with its fragments.
    references = [[{"fragments": pieces, "type": kind} for pieces, kind in r] for r, _ in sentences]
    predictions = [[{"fragments": pieces, "type": kind} for pieces, kind in p] for _, p in sentences]
    option_set = {**OPTION_SETS[options], "return_entities": True}
    result = scored(predictions, references, texts=["abcdefghijklmn"] * len(sentences), **option_set)
    kept = set(option_set.get("labels") or ("PER", "LOC"))
    count_r = sum(kind in kept for r, _ in sentences for _, kind in r)
    count_p = sum(kind in kept for _, p in sentences for _, kind in p)
    assert (result["strict_possible"], result["strict_actual"]) == (count_r, count_p)
    written = sorted(
        repr(oracle.piecewise(pieces, kind).fragments) for r, _ in sentences for pieces, kind in r if kind in kept
    )
    rows = sorted(repr(entity_key(row["reference"])[0]) for row in result["entities"] if row["reference"] is not None)
    assert rows == written
