"""Each option is defined once, as a field of `nerscore.Options` (issue 15): the checks of `Options.of`, the option
lines of the metric's docstring, `NerSemeval`'s load-time options and the command line's flags are all read off
that table, and these tests fail when one of them drifts from it."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from fractions import Fraction

import pytest
from conftest import REPO, WORKED_EXAMPLE, worked_example

import nerscore
from nerscore import Options, cli
from nerscore.options import OPTION_NAMES, SPECS, describe, flag_name

# Options that mean nothing for a file: rows of every entity (the command line prints tables, or --json of the
# counts), and integer ids, which files do not hold. A new option without a flag fails here until it is added.
WITHOUT_A_FLAG = {"return_entities", "label_list", "ignore_index", "slice_edges"}


def test_the_table_is_the_fields_of_options() -> None:
    fields = dataclasses.fields(Options)
    assert tuple(field.name for field in fields) == OPTION_NAMES
    for field in fields:
        spec = SPECS[field.name]
        # What Options holds by default is what the check makes of the default a caller would write.
        assert field.default == spec.check(field.name, spec.default), field.name
        assert spec.doc and spec.kind, field.name
    assert Options() == Options.of(**{name: spec.default for name, spec in SPECS.items()})


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_every_option_is_checked_by_its_own_check(name: str) -> None:
    # A value no option takes: a check that let it through would not be checking.
    with pytest.raises(ValueError, match=re.escape(name) if name not in ("scheme", "mode") else "unknown"):
        Options.of(**{name: object()})


def test_evolve_checks_what_it_changes_and_keeps_the_rest() -> None:
    options = Options.of(scheme="IOBES", beta=2)
    changed = options.evolve(per_type=True, labels=["PER"])
    assert (changed.per_type, changed.labels, changed.scheme, changed.beta) == (True, ("PER",), options.scheme, 2.0)
    with pytest.raises(ValueError, match="beta must be"):
        options.evolve(beta=-1)
    with pytest.raises(ValueError, match="unknown option"):
        options.evolve(colour="red")


def test_nobody_replaces_options_past_the_table() -> None:
    sources = [
        REPO / "ner_semeval.py",
        REPO / "app.py",
        *(REPO / "nerscore").glob("*.py"),
        *(REPO / "space").glob("*.py"),
    ]
    for path in sources:
        if path.name == "options.py":
            continue
        assert "dataclasses.replace(" not in path.read_text(encoding="utf-8"), path


def test_the_docstring_lists_every_option_as_the_table_says() -> None:
    import ner_semeval

    lines = describe()
    assert lines in ner_semeval._KWARGS_DESCRIPTION
    entries = re.findall(r"^    (\w+) \(", lines, flags=re.M)
    assert entries == list(OPTION_NAMES)
    for name, spec in SPECS.items():
        entry = re.search(rf"^    {name} \((.*?)(?=^    \w+ \(|\Z)", lines, flags=re.M | re.S)
        assert entry is not None, name
        assert " ".join(spec.doc.split()) in " ".join(entry.group(0).split()), name


def test_the_metric_takes_every_option_at_load_time(load_metric) -> None:
    # Each option given to evaluate.load is the default of every compute, and checked at once.
    given = {"scheme": "IOBES", "mode": "strict", "beta": 0.5, "per_type": True, "labels": ["PER"]}
    metric = load_metric(**given)
    results = metric.compute(predictions=[["S-PER", "S-LOC"]], references=[["S-PER", "S-LOC"]])
    assert results["strict_f0.5"] == 1.0 and results["PER_strict_f0.5"] == 1.0 and "LOC_strict_f0.5" not in results
    assert set(metric.options) == set(given) <= set(OPTION_NAMES)
    for name in OPTION_NAMES:
        with pytest.raises(ValueError):
            load_metric(**{name: object()})


def test_every_option_for_a_file_has_a_flag() -> None:
    parser = cli.build_parser()
    flags = {action.dest: action for action in parser._actions}
    assert {name for name, spec in SPECS.items() if spec.flag is None} == WITHOUT_A_FLAG
    for name in cli.flagged_options():
        action = flags[name]
        assert action.option_strings == [flag_name(name)], name
        assert action.help, name
        assert action.default is None or action.default is False, f"{name}: the table's default is Options' own"


# Each flag, a value for it as a user types it, and the option that value means.
FLAG_CASES = [
    pytest.param(["--scheme", "bio"], {"scheme": "BIO"}, id="scheme"),
    pytest.param(["--mode", "strict"], {"mode": "strict"}, id="mode"),
    pytest.param(["--labels", "MUSIC_NAME,SINGER"], {"labels": ["MUSIC_NAME", "SINGER"]}, id="labels"),
    pytest.param(["--min-overlap", "0.5"], {"min_overlap": 0.5}, id="min-overlap"),
    pytest.param(["--beta", "0.5"], {"beta": 0.5}, id="beta"),
    pytest.param(["--beta", "0"], {"beta": 0}, id="beta-zero"),
    pytest.param(["--zero-division", "1"], {"zero_division": 1}, id="zero-division"),
    pytest.param(["--per-type"], {"per_type": True}, id="per-type"),
    pytest.param(
        ["--evaluation-schemes", "strict,partial"],
        {"evaluation_schemes": ["strict", "partial"]},
        id="evaluation-schemes",
    ),
    pytest.param(["--confusion"], {"confusion": True}, id="confusion"),
    pytest.param(
        ["--slices", "entity_length,sentence_length"], {"slices": ["entity_length", "sentence_length"]}, id="slices"
    ),
    pytest.param(["--bootstrap", "50", "--seed", "3"], {"bootstrap": 50, "seed": 3}, id="bootstrap-seed"),
    pytest.param(
        ["--bootstrap", "50", "--confidence-level", "0.9"], {"bootstrap": 50, "confidence_level": 0.9}, id="level"
    ),
    # A name in any case, as the option reads it (`option_checks.named`): argparse's choices refused "STRICT".
    pytest.param(["--mode", "STRICT"], {"mode": "strict"}, id="mode-in-capitals"),
    pytest.param(["--pairing", "HIPE"], {"pairing": "hipe"}, id="pairing-in-capitals"),
    pytest.param(["--value", "ACE08"], {"value": "ace08"}, id="value-preset-in-capitals"),
    pytest.param(["--partial-credit", "Overlap"], {"partial_credit": "overlap"}, id="partial-credit-capitalised"),
    pytest.param(
        ["--evaluation-schemes", "Strict,TYPE", "--slices", "Entity_Length"],
        {"evaluation_schemes": ["strict", "type"], "slices": ["entity_length"]},
        id="lists-of-names-capitalised",
    ),
]


@pytest.mark.parametrize(("flags", "options"), FLAG_CASES)
def test_each_flag_gives_the_option_it_names(flags, options, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([str(WORKED_EXAMPLE), "--json", *flags]) == 0
    predictions, references = worked_example()
    expected = nerscore.compute_semeval(predictions=predictions, references=references, **options)
    assert json.loads(capsys.readouterr().out) == expected


@pytest.mark.parametrize(
    ("flags", "first_line", "row"),
    [
        pytest.param(["--beta", "0.5"], None, "F0.5          0.4000    0.6000    0.4000    0.2000", id="beta"),
        pytest.param(
            ["--labels", "SINGER"],
            "2 predicted entities",
            "F1            0.0000    0.0000    0.0000    0.0000",
            id="labels",
        ),
        pytest.param(
            ["--scheme", "bio"],
            "(bio, lenient)",
            "F1            0.4000    0.6000    0.4000    0.2000",
            id="scheme-as-written",
        ),
    ],
)
def test_flags_in_the_table_output(flags, first_line, row, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([str(WORKED_EXAMPLE), *flags]) == 0
    out = capsys.readouterr().out
    assert first_line is None or first_line in out.splitlines()[0]
    assert row in out.splitlines()


def test_the_suffix_flag(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "suffix.conll"
    path.write_text("Ada PER-B PER-B\nLovelace PER-I O\n", encoding="utf-8")
    assert cli.main([str(path), "--json", "--suffix"]) == 0
    expected = nerscore.compute_semeval(predictions=[["PER-B", "O"]], references=[["PER-B", "PER-I"]], suffix=True)
    assert json.loads(capsys.readouterr().out) == expected
    assert expected["partial_partial"] == 1


def test_a_bad_flag_value_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([str(WORKED_EXAMPLE), "--beta", "-1"]) == 2
    assert capsys.readouterr().err == "error: beta must be a finite number >= 0, found -1.0\n"
    assert cli.main([str(WORKED_EXAMPLE), "--labels", "B-PER"]) == 2
    assert "labels holds the tag 'B-PER'" in capsys.readouterr().err


def test_seen_without_the_seen_slice_is_refused_by_the_command_line(tmp_path, capsys) -> None:
    # --seen FILE without --slices seen was read and then ignored: the file's texts changed no number printed.
    seen = tmp_path / "seen.txt"
    seen.write_text("Ann\n", encoding="utf-8")
    assert cli.main([str(WORKED_EXAMPLE), "--seen", str(seen)]) == 2
    assert capsys.readouterr().err.startswith("error: seen given without the seen slice (slices=[])")


def test_seen_at_load_waits_for_a_compute_that_asks_for_its_slice(load_metric) -> None:
    # Checked as batches are counted, not at load: evaluate.load(seen=...) is no error until a compute leaves the
    # seen slice out.
    metric = load_metric(seen=["Ann"])
    batch = {"predictions": [["B-PER", "O"]], "references": [["B-PER", "O"]], "tokens": [["Ann", "ran"]]}
    assert metric.compute(**batch, slices=["seen"])["slices"]["seen"]["seen"]["strict_f1"] == 1.0
    with pytest.raises(ValueError, match=r"^seen given without the seen slice"):
        metric.compute(**batch)


def test_version_and_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        cli.main(["--version"])
    assert exit.value.code == 0
    assert capsys.readouterr().out == f"ner-semeval {nerscore.__version__}\n"
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert capsys.readouterr().out.startswith("usage: ner-semeval ")


def test_zero_division_and_beta_reach_the_scores() -> None:
    # The same numbers through the flags' types as through Python's.
    assert Options.of(beta=Fraction(1, 2)).beta == Options.of(beta=0.5).beta == 0.5


# ---------------------------------------------------------------------------------------------------------
# evaluation_schemes (issue 21, item 3): the schemes whose keys are returned
# ---------------------------------------------------------------------------------------------------------

SCHEME_NAMES = ("strict", "exact", "partial", "type")
# The worked example of docs/scoring.md §6 holds one type on each side, MUSIC_NAME and SINGER.
EVERY_KEY = {"per_type": True, "bootstrap": 30, "confusion": True}


def _scheme_of(key: str) -> str | None:
    """The evaluation scheme a key of the worked example's result belongs to (None: no scheme, `confusion`)."""
    match = re.match(r"^(?:MUSIC_NAME_|SINGER_)?(strict|exact|partial|type)_", key)
    return match.group(1) if match else None


# Every non-empty subset of the four schemes, in every case its keys and nothing else.
SUBSETS = [
    pytest.param(list(subset), id="+".join(subset))
    for size in range(1, 5)
    for subset in itertools.combinations(SCHEME_NAMES, size)
]


@pytest.mark.parametrize("schemes", SUBSETS)
def test_evaluation_schemes_return_their_keys_and_only_theirs(schemes: list[str]) -> None:
    inputs = dict(zip(("predictions", "references"), worked_example()))
    full = nerscore.compute_semeval(**inputs, **EVERY_KEY)
    asked = nerscore.compute_semeval(**inputs, **EVERY_KEY, evaluation_schemes=schemes)
    # The same values as the full result, restricted to the schemes asked for: macro, per-type and interval keys
    # follow their scheme, the confusion matrix (no scheme) stays.
    assert asked == {key: value for key, value in full.items() if _scheme_of(key) in (None, *schemes)}
    assert {_scheme_of(key) for key in asked} - {None} == set(schemes)
    assert "confusion" in asked


def test_evaluation_schemes_two_of_four_halve_the_keys() -> None:
    # The Trainer's log: 53 keys (13 a scheme and token_accuracy), 27 with two schemes.
    inputs = dict(zip(("predictions", "references"), worked_example()))
    assert len(nerscore.compute_semeval(**inputs)) == 53
    asked = nerscore.compute_semeval(**inputs, evaluation_schemes=["strict", "partial"])
    assert len(asked) == 27 and "token_accuracy" in asked
    assert len([key for key in asked if _scheme_of(key)]) == 26
    assert {"strict_f1", "partial_f1", "strict_macro_f1", "partial_macro_f1"} <= set(asked)
    assert "exact_f1" not in asked and "type_macro_f1" not in asked


def test_evaluation_schemes_order_and_repeats_do_not_matter() -> None:
    inputs = dict(zip(("predictions", "references"), worked_example()))
    ordered = nerscore.compute_semeval(**inputs, evaluation_schemes=["strict", "partial"])
    assert nerscore.compute_semeval(**inputs, evaluation_schemes=("partial", "strict", "partial")) == ordered
    assert list(ordered) == list(nerscore.compute_semeval(**inputs, evaluation_schemes=["strict", "partial"]))
    assert Options.of(evaluation_schemes=["type", "strict"]).evaluation_schemes == ("strict", "type")


def test_evaluation_schemes_filter_the_entity_rows_and_the_comparison() -> None:
    predictions, references = worked_example()
    rows = nerscore.compute_semeval(
        predictions=predictions, references=references, return_entities=True, evaluation_schemes=["exact"]
    )["entities"]
    assert rows and all(set(row) == {"sentence", "reference", "prediction", "scenario", "exact"} for row in rows)
    compared = nerscore.compare_semeval(
        predictions_a=predictions,
        predictions_b=references,
        references=references,
        n_resamples=20,
        evaluation_schemes=["type"],
    )
    assert compared and {key.split("_", 1)[0] for key in compared} == {"type"}
    full = nerscore.compare_semeval(
        predictions_a=predictions, predictions_b=references, references=references, n_resamples=20
    )
    assert compared["type_f1_delta"] == full["type_f1_delta"]


BAD_EVALUATION_SCHEMES = [
    pytest.param(["strict", "lenient"], r"found 'lenient' in \['strict', 'lenient'\]", id="unknown-name"),
    pytest.param(["IOB2"], r"'IOB2' is a tagging scheme: pass it as scheme='IOB2'", id="a-tagging-scheme"),
    pytest.param("strict", r"found 'strict'; for one scheme pass \['strict'\]", id="a-bare-string"),
    pytest.param([], r"evaluation_schemes=\[\] keeps no key to return", id="empty"),
    pytest.param([None], r"found None in \[None\]", id="not-a-string"),
    pytest.param(3, r"evaluation_schemes must be a list of evaluation schemes", id="not-a-list"),
]


@pytest.mark.parametrize(("value", "match"), BAD_EVALUATION_SCHEMES)
def test_a_bad_evaluation_scheme_is_a_value_error_at_compute(value, match) -> None:
    with pytest.raises(ValueError, match=match):
        nerscore.compute_semeval(predictions=[["O"]], references=[["O"]], evaluation_schemes=value)


def test_evaluation_schemes_through_evaluate_load_and_compute(load_metric) -> None:
    predictions, references = worked_example()
    metric = load_metric(evaluation_schemes=["strict", "partial"])
    results = metric.compute(predictions=predictions, references=references)
    assert results == nerscore.compute_semeval(
        predictions=predictions, references=references, evaluation_schemes=["strict", "partial"]
    )
    # A compute overrides the load, as for every option; a bad name fails at load, before anything is stored.
    assert set(metric.compute(predictions=predictions, references=references, evaluation_schemes=["type"])) == {
        key for key in nerscore.compute_semeval(predictions=[["O"]], references=[["O"]]) if key.startswith("type_")
    } | {"token_accuracy"}
    with pytest.raises(ValueError, match="found 'lenient'"):
        load_metric(evaluation_schemes=["lenient"])
    with pytest.raises(ValueError, match="found 'lenient'"):
        metric.compute(predictions=predictions, references=references, evaluation_schemes=["lenient"])


def test_the_evaluation_schemes_flag_in_the_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([str(WORKED_EXAMPLE), "--evaluation-schemes", "partial"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("processed 34 tokens in 6 sentences with 5 reference and 5 predicted entities")
    assert lines[2].split() == ["measure", "partial"]
    assert "F1            0.6000" in lines
    assert any(line.startswith("partial by type") for line in lines)
    assert cli.main([str(WORKED_EXAMPLE), "--evaluation-schemes", "strict,lenient"]) == 2
    assert "found 'lenient'" in capsys.readouterr().err


# labels are entity types; a tag among them (B-PER) is a slip only where the input holds tags: a span's type is
# whatever the data holds, and B-cell or I-95 are such types (issue 16, item 13; on e2fb4c1 every row of SPAN_LABELS
# was refused as a tag, by Options.of and so at evaluate.load).
SPAN_LABELS = [
    pytest.param(["B-cell"], id="B-cell"),
    pytest.param(["I-95"], id="I-95"),
    pytest.param(["B-PER", "PER"], id="what-would-be-a-tag"),
    pytest.param(["PER-B"], id="what-would-be-a-suffix-tag"),
]


def typed_spans(labels: list[str]) -> dict:
    spans = [[(index, index + 1, label) for index, label in enumerate([*labels, "OTHER"])]]
    return {"predictions": spans, "references": spans}


@pytest.mark.parametrize("labels", SPAN_LABELS)
def test_labels_that_look_like_tags_select_span_types(load_metric, tmp_path, capsys, labels: list[str]) -> None:
    expected = nerscore.compute_semeval(**typed_spans(labels), labels=labels, per_type=True)
    assert expected["strict_possible"] == len(labels)  # OTHER left out
    assert all(expected[f"{label}_strict_f1"] == 1.0 for label in labels)
    metric = load_metric(labels=labels, per_type=True)  # at load time
    assert metric.compute(**typed_spans(labels)) == expected
    metric.add_batch(**typed_spans(labels))  # through evaluate's store
    assert metric.compute() == expected
    assert load_metric().compute(**typed_spans(labels), labels=labels, per_type=True) == expected  # at compute
    path = tmp_path / "spans.jsonl"
    spans = typed_spans(labels)["references"][0]
    path.write_text(json.dumps({"references": spans, "predictions": spans}) + "\n", encoding="utf-8")
    assert cli.main(["--spans", str(path), "--labels", ",".join(labels), "--json", "--per-type"]) == 0
    assert json.loads(capsys.readouterr().out) == expected


TAG_REFUSAL = r"^labels holds the tag 'B-PER'; labels are entity types: pass 'PER' instead of 'B-PER'$"


@pytest.mark.parametrize(
    "inputs",
    [
        pytest.param({"predictions": [["B-PER"]], "references": [["B-PER"]]}, id="tags"),
        pytest.param(
            {"predictions": [[1]], "references": [[1]], "label_list": ["O", "B-PER", "I-PER"]}, id="ids-with-label-list"
        ),
    ],
)
def test_labels_holding_a_tag_are_refused_with_tag_input(load_metric, inputs: dict) -> None:
    with pytest.raises(ValueError, match=TAG_REFUSAL):
        nerscore.compute_semeval(**inputs, labels=["B-PER"])
    with pytest.raises(ValueError, match=TAG_REFUSAL):
        nerscore.compare_semeval(
            predictions_a=inputs["predictions"],
            predictions_b=inputs["predictions"],
            references=inputs["references"],
            labels=["B-PER"],
            **{key: value for key, value in inputs.items() if key == "label_list"},
        )
    metric = load_metric(labels=["B-PER"])  # the form is known at compute time
    with pytest.raises(ValueError, match=TAG_REFUSAL):
        metric.compute(**inputs)
    assert load_metric(labels=["B-PER"]).compute(**typed_spans(["B-PER"]))["strict_possible"] == 1
