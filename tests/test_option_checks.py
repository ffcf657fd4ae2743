"""nerscore.option_checks: each option's check names the option and what it takes."""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import nested

import nerscore as ns


@pytest.mark.parametrize(
    "options, message",
    [
        ({"bootstrap": -1}, "bootstrap must be a whole number of resamples from 0 to 1,000,000"),
        ({"bootstrap": 1.5}, "bootstrap must be a whole number"),
        ({"bootstrap": True}, "bootstrap must be a whole number"),
        ({"bootstrap": "1000"}, "bootstrap must be a whole number"),
        ({"bootstrap": 1_000_001}, "bootstrap must be a whole number"),
        ({"confidence_level": 0}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": 1}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": 95}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": "0.95"}, "confidence_level must be a number between 0 and 1"),
        ({"confidence_level": float("nan")}, "confidence_level must be a number between 0 and 1"),
        ({"seed": -1}, "seed must be a whole number >= 0"),
        ({"seed": 1.0}, "seed must be a whole number >= 0"),
        ({"seed": None}, "seed must be a whole number >= 0"),
    ],
)
def test_bad_statistics_options_are_named(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ns.compute_semeval(predictions=[["O"]], references=[["O"]], **options)


def test_statistics_options_take_numpy_numbers() -> None:
    options = ns.Options.of(bootstrap=np.int64(10), confidence_level=np.float32(0.9), seed=np.uint8(3))
    assert (options.bootstrap, options.seed) == (10, 3)
    assert options.confidence_level == pytest.approx(0.9)


def test_slice_edges_are_capped_before_they_are_read() -> None:
    # 10^6 edges took 14.6 s and 1.17 GB for one sentence (a string name, a score row and dict per bucket): more
    # than MAX_SLICE_EDGES is refused, and the check reads no more of an iterable than the limit and one more.
    from nerscore.option_checks import MAX_SLICE_EDGES, check_slice_edges

    pulled = 0

    def edges():
        nonlocal pulled
        for edge in range(1, 10**6 + 1):
            pulled += 1
            assert pulled <= MAX_SLICE_EDGES + 1, "the check read past the limit"
            yield edge

    limit = f"at most {MAX_SLICE_EDGES:,} edges"
    with pytest.raises(
        ValueError, match=rf"slice_edges\['sentence_length'\] holds more than {MAX_SLICE_EDGES:,}.*{limit}"
    ):
        check_slice_edges("slice_edges", {"sentence_length": edges()})
    with pytest.raises(ValueError, match=limit):
        ns.compute_semeval(
            predictions=[["B-PER"]],
            references=[["B-PER"]],
            slices=["entity_length"],
            slice_edges={"entity_length": list(range(1, 10**6 + 1))},
        )
    exactly = tuple(range(MAX_SLICE_EDGES))
    assert check_slice_edges("slice_edges", {"entity_length": exactly}) == {"entity_length": exactly}


# Edges past the 64-bit integers the buckets are found on (numpy's searchsorted): refused by the check, naming the
# edge (raised OverflowError "Python int too large to convert to C long" while counting, naming nothing).
HUGE_EDGES = {
    "2**63": ("entity_length", [1, 2**63], r"slice_edges\['entity_length'\] holds 9223372036854775808; expected"),
    "5,001 digits": ("sentence_length", [10**5000], r"holds <int of about 5,001 digits>; expected edges below 2\*\*63"),
}


@pytest.mark.parametrize(("slice_name", "edges", "message"), HUGE_EDGES.values(), ids=HUGE_EDGES.keys())
def test_slice_edges_past_64_bits_are_refused(slice_name: str, edges: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ns.compute_semeval(
            predictions=[["B-X"]], references=[["B-X"]], slices=[slice_name], slice_edges={slice_name: edges}
        )
    largest = {"entity_length": [1, 2**63 - 1]}
    assert ns.compute_semeval(
        predictions=[["B-X"]], references=[["B-X"]], slices=["entity_length"], slice_edges=largest
    )


# confusion given anything but True, False or "sparse" says what it found, of any size or depth (an integer of
# 5,001 digits raised "Exceeds the limit (4300 digits)", a list 100,000 deep RecursionError, an array numpy's
# "truth value of an array is ambiguous", each while the message was written).
BAD_CONFUSION = {
    "5,001 digits": (10**5000, r"found <int of about 5,001 digits>"),
    "100,000 deep": (nested(100_000), r"found \[\[\[\["),
    "an array": (np.array(["sparse", "sparse"]), r"found array\("),
    "a number": (1, r"found 1$"),
}


@pytest.mark.parametrize(("value", "found"), BAD_CONFUSION.values(), ids=BAD_CONFUSION.keys())
def test_a_bad_confusion_says_what_it_found(value, found: str) -> None:
    with pytest.raises(ValueError, match=r"^confusion must be True, False or 'sparse', " + found):
        ns.compute_semeval(predictions=[["O"]], references=[["O"]], confusion=value)


# A 0-d numpy array (np.array("PER"), or a scalar that came back from np.asarray) is iterable by its type but
# raises TypeError "iteration over a 0-d array" when iterated: a list option given one is refused by its check.
ZERO_D_OPTIONS = {
    "labels": "labels must be a list of entity types",
    "evaluation_schemes": "evaluation_schemes must be a list of evaluation schemes",
    "slices": "slices must be a list of slice names",
    "seen": "seen must be a collection of entity texts",
    "label_list": "label_list must be a list of tags",
}


@pytest.mark.parametrize(("name", "message"), ZERO_D_OPTIONS.items(), ids=ZERO_D_OPTIONS.keys())
def test_a_0_d_array_given_for_a_list_option_is_refused_by_its_check(name: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ns.compute_semeval(predictions=[["O"]], references=[["O"]], **{name: np.array("PER")})


def test_a_0_d_array_of_slice_edges_is_refused_by_its_check() -> None:
    with pytest.raises(ValueError, match=r"slice_edges\['entity_length'\] must be"):
        ns.compute_semeval(predictions=[["O"]], references=[["O"]], slice_edges={"entity_length": np.array(3)})


def test_a_confidence_level_whose_tail_rounds_away_is_refused_by_name() -> None:
    # 1 - 1e-16 is below 1, but 1 - its tail (5.5e-17) is 1.0 in a float: statistics' bare "p must be in the range
    # 0.0 < p < 1.0" came out of the interval, naming no option.
    with pytest.raises(ValueError, match=r"^confidence_level must be a number between 0 and 1, .*found 0\.99999999"):
        ns.compute_semeval(predictions=[["O"]], references=[["O"]], bootstrap=10, confidence_level=1 - 1e-16)


def test_a_label_list_key_of_more_digits_than_python_reads_is_refused_by_name() -> None:
    # int('9' * 5000) raised Python's bare "Exceeds the limit (4300 digits)", naming neither option nor key.
    with pytest.raises(ValueError, match=r"^label_list keys must be integer ids .*found .9999.*, of 5,000 digits"):
        ns.compute_semeval(predictions=[[0]], references=[[0]], label_list={"9" * 5000: "O"})


@pytest.mark.parametrize(
    "options, key, absent",
    [
        pytest.param({"beta": -0.0}, "strict_f0", "strict_f-0", id="beta-names-f0"),
        pytest.param({"zero_division": -0.0, "per_type": True}, "strict_macro_f1", None, id="zero-division"),
        pytest.param({"partial_credit": -0.0}, "partial_f1", None, id="partial-credit"),
    ],
)
def test_negative_zero_is_zero(options: dict, key: str, absent: str | None) -> None:
    # beta=-0.0 named every F key f-0; zero_division=-0.0 gave the macro scores of no type as -0.0.
    result = ns.compute_semeval(predictions=[["O"]], references=[["O"]], **options)
    assert absent not in result and str(result[key]) == "0.0"
    assert (
        ns.compute_semeval(
            predictions=[["O"]], references=[["O"]], **{**options, **{k: 0.0 for k in options if k != "per_type"}}
        )
        == result
    )


# An input given as an option (evaluate.load's keywords, compute_semeval's **options) is named as the input it is.
@pytest.mark.parametrize(
    ("given", "meant"),
    [
        pytest.param("text", "texts= (an input: one text per sentence)", id="text"),
        pytest.param("token", "tokens= (an input: one token list per sentence)", id="token"),
        pytest.param("group", "groups= (an input: one group per sentence)", id="group"),
        pytest.param("document", "documents= (an input: one document id per sentence)", id="document"),
        pytest.param("predictions", "compute(predictions=...) (inputs go to compute or add_batch", id="predictions"),
        pytest.param("references", "compute(references=...) (inputs go to compute or add_batch", id="references"),
    ],
)
def test_an_input_given_as_an_option_is_named_as_an_input(given: str, meant: str) -> None:
    from nerscore.option_checks import check_known

    with pytest.raises(ValueError, match=rf"'{given}': did you mean {re.escape(meant)}"):
        check_known({given: None}, ("scheme",))


def test_the_inputs_named_are_the_columns() -> None:
    # option_checks stands above table.columns and names its columns itself: the same names.
    from nerscore.option_checks import _COLUMNS_OF_A_SENTENCE
    from nerscore.table.columns import COLUMN_NAMES

    assert tuple(_COLUMNS_OF_A_SENTENCE) == COLUMN_NAMES


def test_a_comparisons_resamples_by_default_are_one_number() -> None:
    # compare_semeval, compare_runs and the command line's --compare and --runs-b read COMPARISON_RESAMPLES.
    import inspect

    from nerscore.cli import build_parser
    from nerscore.option_checks import COMPARISON_RESAMPLES

    assert COMPARISON_RESAMPLES == 10_000  # enough for a p-value of 0.0001
    for function in (ns.compare_semeval, ns.compare_runs):
        assert inspect.signature(function).parameters["n_resamples"].default == COMPARISON_RESAMPLES
    helped = " ".join(build_parser().format_help().split())
    assert "the resamples of the interval and of the test (default 10000)" in helped  # --bootstrap, with --compare
    assert "(--bootstrap N sets the resamples, default 10,000)" in helped  # --runs-b


# Every option whose value is a name among a closed set (`option_checks.named`), spelt in another case: read in any
# case and held as the table writes it, as `scheme` always was (mode="STRICT" was refused while scheme="iobes" was
# taken). Each case: the option as given, and the value Options holds.
NAMES_IN_ANY_CASE = {
    "scheme": ({"scheme": "iobes"}, ns.get_scheme("IOBES")),
    "mode": ({"mode": "STRICT"}, "strict"),
    "pairing": ({"pairing": "Hipe"}, "hipe"),
    "evaluation_schemes": ({"evaluation_schemes": ["TYPE", "Strict"]}, ("strict", "type")),
    "confusion": ({"confusion": "Sparse"}, "sparse"),
    "slices": ({"slices": ["Entity_Length", "SEEN"]}, ("entity_length", "seen")),
    "slice_edges": ({"slice_edges": {"ENTITY_LENGTH": [1, 3]}}, {"entity_length": (1, 3)}),
    "partial_credit": ({"partial_credit": "OVERLAP"}, "overlap"),
    "value": ({"value": "ACE08"}, ns.Options.of(value="ace08").value),
}


@pytest.mark.parametrize(("given", "held"), NAMES_IN_ANY_CASE.values(), ids=NAMES_IN_ANY_CASE.keys())
def test_an_options_names_are_read_in_any_case(given: dict, held) -> None:
    (name,) = given
    assert getattr(ns.Options.of(**given), name) == held
    assert ns.Options.of(**given) == ns.Options.of(**{name: held})  # one accumulator adds the other's batches


def test_the_table_documents_which_options_read_names_in_any_case() -> None:
    from nerscore.options import SPECS

    documented = {name for name, spec in SPECS.items() if "any case" in spec.kind}
    assert documented == set(NAMES_IN_ANY_CASE)
    assert ns.Options.of(labels=["per"], seen=["Ann"]).labels == ("per",)  # the data's types and texts: as given


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"mode": "loose"}, r"^unknown mode 'loose'; expected one of lenient, strict$"),
        ({"mode": "STRICT "}, r"^unknown mode 'STRICT '"),
        ({"pairing": "greedy"}, r"^pairing must be one of 'optimal', 'hipe', found 'greedy'$"),
        ({"slices": ["Seen", "lenght"]}, r"found 'lenght' in \['Seen', 'lenght'\]"),
        ({"evaluation_schemes": "Strict"}, r"for one scheme pass \['Strict'\]"),
    ],
)
def test_a_name_in_no_case_is_still_refused_by_its_check(given: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ns.Options.of(**given)
