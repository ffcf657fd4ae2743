"""Every option, defined once: the fields of `Options` are the table.

Each field holds its default, its check, the line that documents it and its command-line flag
(`option(...)`). `Options.of` checks what a caller gives, field by field, once; the module's docstring for
evaluate (`describe`), `NerSemeval`'s defaults (`OPTION_NAMES`) and the command line's flags (`nerscore.cli`)
are all read off these fields, and tests/test_options.py fails when one of them drifts. A new option is one
field here plus the code that reads it.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import numbers
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import shown
from .schemes import LENIENT, MODES, SCHEME_ALIASES, SCHEMES, Scheme, check_mode, get_scheme

# More resamples than this add nothing an interval or a p-value can show, and would take minutes.
MAX_RESAMPLES = 1_000_000
# The four evaluation schemes of docs/scoring.md §4, in the order of the result's keys (`counts` reads them here).
EVALUATION_SCHEMES = ("strict", "exact", "partial", "type")


def is_id(value: Any) -> bool:
    """An integer label id: a Python or numpy integer, not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def f_key(beta: float) -> str:
    """The name of the F measure: ``f1`` for beta 1, else ``f{beta:g}`` (``f0.5``, ``f2``)."""
    return "f1" if beta == 1 else f"f{beta:g}"


# ---------------------------------------------------------------------------------------------------------
# The checks: each takes the option's name and the value given, and returns the value as `Options` holds it or
# raises a `ValueError` that names the option, what was found and what it takes.
# ---------------------------------------------------------------------------------------------------------

Check = Callable[[str, Any], Any]


def check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, found {shown(value)}")
    return bool(value)


def check_number(name: str, value: Any, expected: str, high: float) -> float:
    """Any real number (int, float, Fraction, numpy scalar) from 0 to `high`, as the float the F key and the
    scores use."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be {expected}, found {shown(value)} ({type(value).__name__})")
    try:
        number = float(value)
    except OverflowError:  # an integer no float can hold
        number = math.inf
    if not 0 <= number <= high or math.isinf(number):
        raise ValueError(f"{name} must be {expected}, found {shown(value)}")
    return number


def check_resamples(name: str, value: Any, low: int = 0) -> int:
    if not is_id(value) or not low <= value <= MAX_RESAMPLES:
        raise ValueError(
            f"{name} must be a whole number of resamples from {low} to {MAX_RESAMPLES:,}, found {shown(value)}"
        )
    return int(value)


def check_seed(name: str, value: Any) -> int:
    if not is_id(value) or value < 0:
        raise ValueError(
            f"{name} must be a whole number >= 0 (numpy's random generator takes no other), found {shown(value)}"
        )
    return int(value)


def _check_scheme(name: str, value: Any) -> Scheme:
    return get_scheme(value)


def _check_mode(name: str, value: Any) -> str:
    return check_mode(value)


def _check_labels(name: str, labels: Any) -> tuple[str, ...] | None:
    expected = "a list of entity types such as ['PER', 'LOC'], or None for every type"
    if labels is None:
        return None
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
        raise ValueError(f"labels must be {expected}, found {shown(labels)}")
    labels = tuple(labels)
    if not labels:
        raise ValueError(f"labels=[] keeps no entity type, so every count would be zero; labels must be {expected}")
    for label in labels:
        if not isinstance(label, str) or not label:
            raise ValueError(f"labels must be {expected}, found {shown(label)} in {shown(list(labels))}")
    return labels


def check_labels_are_types(options: Options) -> None:
    """labels are entity types: with tag input, a tag of the declared scheme among them (``B-PER`` for ``PER``)
    is a slip. Span types are whatever the data holds (``B-cell``, ``I-95``), so only the reader of tags applies
    this rule, once it knows the input holds tags (`nerscore.inputs.check_tag_options`)."""
    for label in options.labels or ():
        if options.suffix:
            prefix, hyphen, entity_type = label.rpartition("-")[::-1]
        else:
            prefix, hyphen, entity_type = label.partition("-")
        if hyphen and entity_type and prefix in options.scheme.roles:
            raise ValueError(
                f"labels holds the tag {label!r}; labels are entity types: pass {entity_type!r} instead of {label!r}"
            )


def _check_min_overlap(name: str, min_overlap: Any) -> float | None:
    """None (any overlap), or a real number in (0, 1]: the share of the reference entity's length that a
    prediction must cover to overlap it (docs/scoring.md §3)."""
    if min_overlap is None:
        return None
    expected = "a number greater than 0 and at most 1 (the share of the reference entity covered), or None"
    number = check_number(name, min_overlap, expected, 1.0)
    if number == 0:
        raise ValueError(f"min_overlap must be {expected}, found {shown(min_overlap)}; None means any overlap")
    return number


def _check_beta(name: str, value: Any) -> float:
    return check_number(name, value, "a finite number >= 0", math.inf)


def _check_confusion(name: str, value: Any) -> bool | str:
    """True (the full square), False, or "sparse" (only the non-zero cells; docs/scoring.md §7)."""
    if value == "sparse" and isinstance(value, str):
        return "sparse"
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True, False or 'sparse', found {value!r}")
    return bool(value)


def _check_zero_division(name: str, value: Any) -> float:
    return check_number(name, value, "a number from 0 to 1", 1.0)


def _check_label_list(name: str, label_list: Any) -> dict[int, str] | None:
    """`label_list` as a dict id -> tag: from a list of tags, or a dict whose keys are ids (int, or the str of an
    int, as after a JSON round trip of `model.config.id2label`)."""
    expected = "a list of tags, or a dict id -> tag such as model.config.id2label"
    if label_list is None:
        return None
    if isinstance(label_list, Mapping):
        tags: dict[int, str] = {}
        keys: dict[int, Any] = {}
        for key, tag in label_list.items():
            if is_id(key) or (isinstance(key, str) and re.fullmatch(r"-?[0-9]+", key)):
                label_id = int(key)
            else:
                raise ValueError(
                    f"label_list keys must be integer ids (or their strings, as in a JSON config), found {shown(key)}"
                )
            if label_id in keys:
                raise ValueError(
                    f"label_list has two keys for id {shown(label_id)}: {shown(keys[label_id])} and {shown(key)}"
                )
            keys[label_id] = key
            tags[label_id] = tag
    elif isinstance(label_list, (str, bytes)) or not isinstance(label_list, Iterable):
        raise ValueError(f"label_list must be {expected}, found {shown(label_list)}")
    else:
        tags = dict(enumerate(label_list))
    for label_id, tag in tags.items():
        if not isinstance(tag, str):
            raise ValueError(
                f"label_list maps id {shown(label_id)} to {shown(tag)}; expected a tag string such as 'B-PER'"
            )
    return tags


def _check_ignore_index(name: str, ignore_index: Any) -> int:
    if not is_id(ignore_index):
        raise ValueError(f"ignore_index must be an integer id such as -100, found {shown(ignore_index)}")
    return int(ignore_index)


def _check_evaluation_schemes(name: str, value: Any) -> tuple[str, ...]:
    """Some of strict, exact, partial and type, kept in the result's order (docs/scoring.md §7) whatever order
    they are given in. Named apart from `scheme`, the tagging scheme, which it must not be taken for."""
    names = ", ".join(map(repr, EVALUATION_SCHEMES))
    expected = f"a list of evaluation schemes, some of {names}"
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        hint = f"; for one scheme pass [{value!r}]" if value in EVALUATION_SCHEMES else ""
        raise ValueError(f"evaluation_schemes must be {expected}, found {shown(value)}{hint}")
    given = list(value)
    for item in given:
        if item not in EVALUATION_SCHEMES:
            hint = ""
            if _is_tagging_scheme(item):
                hint = f"; {item!r} is a tagging scheme: pass it as scheme={item!r}"
            raise ValueError(f"evaluation_schemes must be {expected}, found {shown(item)} in {given!r}{hint}")
    if not given:
        raise ValueError(f"evaluation_schemes=[] keeps no key to return; evaluation_schemes must be {expected}")
    return tuple(scheme for scheme in EVALUATION_SCHEMES if scheme in given)


def _is_tagging_scheme(value: Any) -> bool:
    return isinstance(value, str) and SCHEME_ALIASES.get(value.upper(), value.upper()) in SCHEMES


def _check_confidence_level(name: str, value: Any) -> float:
    expected = "a number between 0 and 1, such as 0.95"
    level = check_number(name, value, expected, 1.0)
    if not 0 < level < 1:
        raise ValueError(f"confidence_level must be {expected} (0 and 1 excluded), found {shown(value)}")
    return level


# docs/scoring.md §11: the slices, the two-sided ones (by each entity's own attribute), and the numeric
# slices' edges, as lower ends of their buckets.
SLICE_NAMES = ("entity_length", "seen", "sentence_length", "entity_density", "group")
ENTITY_SLICES = ("entity_length", "seen")
DEFAULT_SLICE_EDGES = {
    "entity_length": (1, 2, 3, 4, 5, 8),
    "sentence_length": (1, 11, 21, 41, 81),
    "entity_density": (0, 1, 2, 3, 5),
}


def _check_slices(name: str, value: Any) -> tuple[str, ...]:
    expected = f"a list of slice names, some of {', '.join(SLICE_NAMES)}"
    if value is None:
        return ()
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        hint = f"; for one slice pass [{value!r}]" if value in SLICE_NAMES else ""
        raise ValueError(f"slices must be {expected}, found {shown(value)}{hint}")
    given = list(value)
    for item in given:
        if item not in SLICE_NAMES:
            raise ValueError(f"slices must be {expected}, found {shown(item)} in {shown(given)}")
    return tuple(dict.fromkeys(given))


def _check_slice_edges(name: str, value: Any) -> dict[str, tuple[int, ...]] | None:
    expected = (
        f"a dict from {', '.join(DEFAULT_SLICE_EDGES)} to increasing whole numbers >= 0 (the buckets' lower ends), "
        "such as {'entity_length': [1, 2, 4]}"
    )
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ValueError(f"slice_edges must be {expected}, found {shown(value)}")
    edges = {}
    for slice_name, given in value.items():
        if slice_name not in DEFAULT_SLICE_EDGES:
            raise ValueError(f"slice_edges must be {expected}, found the key {shown(slice_name)}")
        if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
            raise ValueError(f"slice_edges[{slice_name!r}] must be {expected}, found {shown(given)}")
        numbers_given = list(given)
        if (
            not numbers_given
            or not all(is_id(edge) and edge >= 0 for edge in numbers_given)
            or any(low >= high for low, high in itertools.pairwise(numbers_given))
        ):
            raise ValueError(f"slice_edges[{slice_name!r}] must be {expected}, found {shown(numbers_given)}")
        edges[slice_name] = tuple(int(edge) for edge in numbers_given)
    return edges


def _check_seen(name: str, value: Any) -> frozenset[str] | None:
    expected = "a collection of entity texts (strings), such as a training set's"
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ValueError(f"seen must be {expected}, found {shown(value)}")
    texts = list(value.keys() if isinstance(value, Mapping) else value)
    for text in texts:
        if not isinstance(text, str):
            raise ValueError(f"seen must be {expected}, found {shown(text)}")
    return frozenset(texts)


def _read_seen(path: str) -> list[str]:
    """--seen FILE: one entity text a line (blank lines skipped, the line's ends stripped)."""
    try:
        with open(path, encoding="utf-8") as file:
            return [line.strip() for line in file if line.strip()]
    except (OSError, UnicodeDecodeError) as error:
        from argparse import ArgumentTypeError  # the command line's message, not "invalid value"

        raise ArgumentTypeError(f"cannot read {path}: {error}") from None


# docs/scoring.md §10: the weights of the value score, and the presets that name a set of them.
@dataclass(frozen=True)
class Weights:
    """The value score's weights (docs/scoring.md §10), as `Options.value` holds them: every weight a float, the
    types as sorted (type, weight) pairs so that the options stay hashable; `min_overlap` None means the call's."""

    types: tuple[tuple[str, float], ...] = ()
    default_type_weight: float = 1.0
    type_error: float = 0.5
    boundary_error: float = 1.0
    false_alarm: float = 0.75
    min_overlap: float | None = None

    def weight(self, entity_type: str) -> float:
        """w(type): the type's own weight, else the default."""
        return dict(self.types).get(entity_type, self.default_type_weight)


# The ACE-08 scorer's weights for entities of one name mention (ace08-eval-v08.pl, docs/scoring.md §10).
VALUE_PRESETS: dict[str, Weights] = {"ace08": Weights(min_overlap=0.3)}
WEIGHT_KEYS = tuple(field.name for field in dataclasses.fields(Weights))


def _check_weight(name: str, value: Any, high: float = math.inf) -> float:
    expected = "a finite number from 0 to 1" if high == 1 else "a finite number >= 0"
    return check_number(name, value, expected, high)


def _check_value(name: str, value: Any) -> Weights | None:
    """False or None (no value score), True (the default weights), a preset's name, or a mapping of weights
    (docs/scoring.md §10): every key known, every weight finite and >= 0, type_error and boundary_error at most
    1, min_overlap as the option's."""
    presets = ", ".join(map(repr, VALUE_PRESETS))
    expected = f"True, a preset ({presets}), or a dict of weights with keys among {list(WEIGHT_KEYS)}"
    if value is None or (isinstance(value, (bool, np.bool_)) and not value):
        return None
    if isinstance(value, (bool, np.bool_)):
        return Weights()
    if isinstance(value, Weights):
        return value
    if isinstance(value, str):
        if value not in VALUE_PRESETS:
            raise ValueError(f"value must be {expected}, found the unknown preset {value!r}")
        return VALUE_PRESETS[value]
    if not isinstance(value, Mapping):
        raise ValueError(f"value must be {expected}, found {shown(value)}")
    unknown = [key for key in value if key not in WEIGHT_KEYS]
    if unknown:
        raise ValueError(f"value has the unknown key(s) {shown(unknown)}; expected keys among {list(WEIGHT_KEYS)}")
    given: dict[str, Any] = {}
    types = value.get("types", {})
    if not isinstance(types, Mapping):
        raise ValueError(f"value['types'] must be a dict of entity type -> weight, found {shown(types)}")
    checked_types = []
    for entity_type, weight in types.items():
        if not isinstance(entity_type, str):
            raise ValueError(f"value['types'] keys must be entity types (strings), found {shown(entity_type)}")
        checked_types.append((entity_type, _check_weight(f"value['types'][{entity_type!r}]", weight)))
    given["types"] = tuple(sorted(checked_types))
    for key in ("default_type_weight", "false_alarm"):
        if key in value:
            given[key] = _check_weight(f"value[{key!r}]", value[key])
    for key in ("type_error", "boundary_error"):
        if key in value:
            given[key] = _check_weight(f"value[{key!r}]", value[key], 1.0)
    if "min_overlap" in value:
        try:
            given["min_overlap"] = _check_min_overlap("min_overlap", value["min_overlap"])
        except ValueError as error:
            raise ValueError(f"value['min_overlap']: {error}") from None
    return Weights(**given)


OVERLAP = "overlap"


def _check_partial_credit(name: str, value: Any) -> float | str:
    """A finite number from 0 to 1, or "overlap" (docs/scoring.md §10)."""
    if isinstance(value, str):
        if value != OVERLAP:
            raise ValueError(f"partial_credit must be a number from 0 to 1 or {OVERLAP!r}, found {value!r}")
        return OVERLAP
    return check_number(name, value, f"a number from 0 to 1 or {OVERLAP!r}", 1.0)


def _check_errors(name: str, value: Any) -> bool | int:
    """False (none), True (every distinct error) or a whole number N >= 1 (the N most frequent)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if not is_id(value) or value < 1:
        raise ValueError(
            f"{name} must be True, False or a whole number >= 1 (the most frequent errors to keep), "
            f"found {shown(value)}"
        )
    return int(value)


# ---------------------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Flag:
    """An option's command-line flag, ``--`` and its name with hyphens (``--min-overlap``)."""

    metavar: str | None = None
    parse: Callable[[str], Any] = str  # the value from the command line's text
    switch: bool = False  # a flag without a value, which sets True
    choices: tuple[str, ...] | None = None
    help: str = ""  # what the flag does, in a file's terms


@dataclass(frozen=True)
class Spec:
    """What the table holds of one option besides its name and stored default."""

    default: Any  # as a caller writes it (the card and the command line show this)
    check: Check
    kind: str  # its type as the card writes it
    doc: str  # the line of documentation
    flag: Flag | None  # None: the option means nothing for a file (integer ids, say)


def option(default: Any, check: Check, kind: str, doc: str, flag: Flag | None = None) -> Any:
    """A field of `Options`: the default as `Options` holds it (`check` applied), the rest as its metadata."""
    return dataclasses.field(
        default=check("default", default), metadata={"option": Spec(default, check, kind, doc, flag)}
    )


def _partial_credit_flag(text: str) -> float | str:
    """`--partial-credit`: ``overlap``, or a number (the option's check then says whether it is from 0 to 1)."""
    if text == OVERLAP:
        return text
    try:
        return float(text)
    except ValueError:
        from argparse import ArgumentTypeError

        raise ArgumentTypeError(f"takes a number from 0 to 1 or {OVERLAP}, found {text!r}") from None


def _value_flag(text: str) -> Any:
    """`--value`: a preset's name, ``true`` for the default weights, else a JSON file of weights."""
    import json

    if text in VALUE_PRESETS:
        return text
    if text.lower() == "true":
        return True
    try:
        with open(text, encoding="utf-8") as file:
            return json.load(file)
    except (OSError, ValueError) as error:
        from argparse import ArgumentTypeError  # the command line shows its message as it is

        raise ArgumentTypeError(
            f"--value takes a preset ({', '.join(VALUE_PRESETS)}), true or a JSON file of weights: {error}"
        ) from None


def _comma_list(text: str) -> list[str]:
    return [item for item in text.split(",") if item]


@dataclass(frozen=True)
class Options:
    """Every option of `compute_semeval`, checked once by `Options.of` and passed down as one object."""

    scheme: Scheme = option(
        "IOB2",
        _check_scheme,
        "`str`",
        "tagging scheme: IOB2 (alias BIO), IOB1, IOE1, IOE2, IOBES (alias BIOES), BILOU, BMES or IO.",
        Flag("NAME", help="IOB2 (default), IOB1, IOE1, IOE2, IOBES, BILOU, BMES, IO"),
    )
    mode: str = option(
        LENIENT,
        _check_mode,
        "`str`",
        '`"lenient"` decodes like conlleval (`O I-PER` is an entity); `"strict"` keeps only entities that are well '
        "formed in `scheme` (as seqeval's strict mode).",
        Flag(choices=MODES, help="lenient (default) decodes as conlleval; strict keeps only well-formed entities"),
    )
    suffix: bool = option(
        False,
        check_flag,
        "`bool`",
        "tags are `TYPE-PREFIX` (`PER-B`) instead of `PREFIX-TYPE`.",
        Flag(switch=True, help="tags are TYPE-PREFIX"),
    )
    labels: tuple[str, ...] | None = option(
        None,
        _check_labels,
        "`list` of `str`",
        "score only entities of these types (on both sides).",
        Flag("TYPES", _comma_list, help="score only entities of these types, comma-separated (PER,LOC)"),
    )
    min_overlap: float | None = option(
        None,
        _check_min_overlap,
        "`float` in (0, 1]",
        "a prediction overlaps a reference only if it covers at least this share of the reference's length "
        "(nervaluate's `min_overlap_percentage` / 100); default: any shared token or character.",
        Flag(
            "SHARE",
            float,
            help="overlap only where the prediction covers at least this share (0 to 1) of the reference",
        ),
    )
    beta: float = option(
        1.0,
        _check_beta,
        "`float`",
        "the beta of F-beta; the key is `f1` for 1, else `f{beta:g}`.",
        Flag("B", float, help="the beta of F-beta (default 1: F1)"),
    )
    zero_division: float = option(
        0.0,
        _check_zero_division,
        "`float`",
        "the value of a ratio whose denominator is zero.",
        Flag("Z", float, help="precision when nothing is predicted, recall when there is nothing to find (default 0)"),
    )
    evaluation_schemes: tuple[str, ...] = option(
        list(EVALUATION_SCHEMES),
        _check_evaluation_schemes,
        "`list` of `str`",
        'the evaluation schemes whose keys are returned, some of `"strict"`, `"exact"`, `"partial"` and `"type"` '
        "(their macro, per-type and interval keys follow); not the tagging `scheme`.",
        Flag(
            "NAMES",
            _comma_list,
            help="the evaluation schemes to report, comma-separated: strict,partial (default all four)",
        ),
    )
    per_type: bool = option(
        False,
        check_flag,
        "`bool`",
        "add `{TYPE}_{scheme}_{measure}` keys.",
        Flag(switch=True, help="per-type keys in --json, all schemes in tables"),
    )
    return_entities: bool = option(
        False,
        check_flag,
        "`bool`",
        "add `entities`, one row per pair or unpaired entity.",
    )
    confusion: bool | str = option(
        False,
        _check_confusion,
        '`bool` or `"sparse"`',
        "add `confusion`, the entity-type confusion matrix as a dict of dicts, "
        '`confusion[reference_type][predicted_type]`, with `"O"` for no entity (docs/scoring.md §7): the full square '
        'up to 1,000 types, `"sparse"` for only its non-zero cells at any number of types.',
        Flag(switch=True, help="the entity-type confusion matrix (in --json too)"),
    )
    label_list: Mapping[int, str] | None = option(
        None,
        _check_label_list,
        "`list` of `str` or `dict` of `int` to `str`",
        "maps integer ids to tags (`model.config.id2label` works as is).",
    )
    ignore_index: int = option(
        -100,
        _check_ignore_index,
        "`int`",
        "with integer ids, positions whose reference is this id are dropped from both sides (sub-word pieces and "
        "padding in a `Trainer` batch).",
    )
    bootstrap: int = option(
        0,
        check_resamples,
        "`int`",
        "add confidence intervals of every scheme's precision, recall and F from this many bootstrap resamples of "
        "the sentences (BCa; 1,000 is usual; 0: none).",
        Flag("N", int, help="add confidence intervals from N resamples of the sentences (BCa) to the table"),
    )
    confidence_level: float = option(
        0.95,
        _check_confidence_level,
        "`float`",
        "the intervals' confidence level, between 0 and 1.",
        Flag("LEVEL", float, help="of the intervals (default 0.95)"),
    )
    seed: int = option(
        0,
        check_seed,
        "`int`",
        "seed of the resampling, so that the same call gives the same intervals.",
        Flag("SEED", int, help="of the resampling (default 0: every run the same)"),
    )
    normalize: bool = option(
        False,
        check_flag,
        "`bool`",
        "string entities (with `texts`) are found in the text after Unicode NFKC, case folding and collapsing runs "
        "of white space, character by character; offsets stay the original text's (docs/scoring.md §1b).",
        Flag(switch=True, help="string entities match the text after NFKC, case folding and white space collapsing"),
    )
    slices: tuple[str, ...] = option(
        None,
        _check_slices,
        "`list` of `str`",
        "add `slices`, the scores of each bucket of these slices, some of `entity_length`, `seen` (with `seen`), "
        "`sentence_length`, `entity_density` and `group` (with `groups`); docs/scoring.md §11.",
        Flag("NAMES", _comma_list, help="scores by bucket: entity_length,seen,sentence_length,entity_density,group"),
    )
    slice_edges: Mapping[str, tuple[int, ...]] | None = option(
        None,
        _check_slice_edges,
        "`dict` of `str` to `list` of `int`",
        "the lower ends of the buckets of `entity_length`, `sentence_length` or `entity_density`, "
        'such as `{"entity_length": [1, 2, 4]}` (values below the first fall in `"<a"`).',
    )
    seen: frozenset[str] | None = option(
        None,
        _check_seen,
        "`list` or `set` of `str`",
        "the entity texts that count as seen (a training set's) for the `seen` slice.",
        Flag("FILE", _read_seen, help="entity texts that count as seen, one a line (the `seen` slice)"),
    )
    diagnostics: bool = option(
        False,
        check_flag,
        "`bool`",
        "add `boundary_too_long`, `boundary_too_short`, `boundary_crossing` (pairs of overlapping entities with "
        "other boundaries), `split` and `merged` (references overlapped by several predictions, predictions "
        "overlapping several references), as integers (docs/scoring.md §11).",
        Flag(switch=True, help="count boundary errors: too long, too short, crossing, split, merged (in --json too)"),
    )
    errors: bool | int = option(
        False,
        _check_errors,
        "`bool` or `int`",
        "add `errors`, every outcome but a correct pair by its entities' texts and types with its count, most "
        "frequent first; an integer N keeps the N most frequent. Needs `tokens` (tags) or `texts` (spans).",
        Flag("N", int, help="the N most frequent errors by entity text and type (needs each line's token)"),
    )

    partial_credit: float | str = option(
        0.5,
        _check_partial_credit,
        '`float` in [0, 1] or `"overlap"`',
        'what a PAR earns under the partial scheme: this share of a point, or with `"overlap"` its shared length over '
        "the length of the union of the two entities (docs/scoring.md §10).",
        Flag(
            "C",
            _partial_credit_flag,
            help="what a partial match earns under partial: a number from 0 to 1 (default 0.5) or overlap",
        ),
    )
    value: Weights | None = option(
        None,
        _check_value,
        '`bool`, `"ace08"` or `dict`',
        "add the ACE-style `value`, `value_precision`, `value_recall` and `value_f1` (weights per type and per "
        'error; `True`: the defaults, `"ace08"`: the ACE-08 scorer\'s; docs/scoring.md §10).',
        Flag(
            "WEIGHTS",
            _value_flag,
            help="add the value score: ace08, true (the default weights), or a JSON file of weights",
        ),
    )

    @classmethod
    def of(cls, **options: Any) -> Options:
        """The options checked, each by its own check; a `ValueError` names the first bad one and what it takes."""
        return cls(**_checked(options))

    def evolve(self, **changes: Any) -> Options:
        """A copy with `changes`, each checked by its own check (the pattern of attrs' `evolve`)."""
        return dataclasses.replace(self, **_checked(changes))

    @property
    def value_min_overlap(self) -> float | None:
        """The overlap of the value's pairing: the weights' own `min_overlap`, else the call's (docs/scoring.md §10)."""
        if self.value is None or self.value.min_overlap is None:
            return self.min_overlap
        return self.value.min_overlap

    @property
    def f_name(self) -> str:
        """The F measure's key: ``f1`` for beta 1, else ``f{beta:g}``."""
        return f_key(self.beta)


SPECS: dict[str, Spec] = {field.name: field.metadata["option"] for field in dataclasses.fields(Options)}
OPTION_NAMES = tuple(SPECS)
DEFAULTS: dict[str, Any] = {name: spec.default for name, spec in SPECS.items()}


def _checked(given: Mapping[str, Any]) -> dict[str, Any]:
    """The options `given`, each checked by its own check in the table's order."""
    unknown = sorted(set(given) - set(OPTION_NAMES))
    if unknown:
        raise ValueError(f"unknown option(s) {unknown}; expected some of {sorted(OPTION_NAMES)}")
    return {name: spec.check(name, given[name]) for name, spec in SPECS.items() if name in given}


def describe(indent: int = 4, width: int = 116) -> str:
    """The option lines of the metric's docstring (evaluate's ``_KWARGS_DESCRIPTION``), one entry per option:
    ``name (kind, default ...): doc``, wrapped under `indent`."""
    entries = []
    for name, spec in SPECS.items():
        default = "optional" if spec.default is None else f"default `{spec.default!r}`".replace("'", '"')
        entries.append(
            textwrap.fill(
                f"{name} ({spec.kind}, {default}): {spec.doc}",
                width=width,
                initial_indent=" " * indent,
                subsequent_indent=" " * (indent + 4),
                break_on_hyphens=False,
                break_long_words=False,
            )
        )
    return "\n".join(entries)
