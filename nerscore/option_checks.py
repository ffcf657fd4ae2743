"""What each option takes: the checks that `nerscore.options.Options` runs on a caller's values, and the values
and constants they check against (the value score's `Weights`, the slices' names and edges, the evaluation
schemes, `OVERLAP`).

Each check takes the option's name and the value given, and returns the value as `Options` holds it or raises a
`ValueError` that names the option, what was found and what it takes. The table of options that pairs each check
with its option is `nerscore.options`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import is_collection, shown
from .schemes import MODES, SCHEME_ALIASES, SCHEMES, Scheme, get_scheme

# More resamples than this add nothing an interval or a p-value can show, and would take minutes.
MAX_RESAMPLES = 1_000_000
# A comparison's resamples unless told otherwise (compare_semeval's and compare_runs' n_resamples, the command
# line's --compare and --runs-b): enough for a p-value of 0.0001 (Koehn 2004 used 1,000).
COMPARISON_RESAMPLES = 10_000
# The four evaluation schemes of docs/scoring.md §4, in the order of the result's keys (`counts` reads them here).
EVALUATION_SCHEMES = ("strict", "exact", "partial", "type")


def is_id(value: Any) -> bool:
    """An integer label id: a Python or numpy integer, not a bool."""
    # (a plain int first: the ABC check costs a microsecond, twice an offset, on every entity read)
    return type(value) is int or (isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)))


# A check: the option's name and the value given -> the value as `Options` holds it.
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
    return number + 0.0  # -0.0 is 0.0 (beta=-0.0 named the keys f-0, zero_division=-0.0 gave -0.0 scores)


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


def named(value: Any, names: tuple[str, ...]) -> str | None:
    """The one of `names` that `value` spells in any case (`"STRICT"`, `"Hipe"`), else None. One rule for every
    option that takes a name (a tagging scheme, a mode, a pairing, an evaluation scheme, a slice, a preset,
    "sparse", "overlap"): read in any case, as `scheme` always was (seqeval's users write `mode="strict"`, the card
    `"IOB2"`), held as the table writes it. Not the data's names: `labels` and `seen` are types and texts."""
    if not isinstance(value, str):  # (a string first: an array's `==` compares each item)
        return None
    return next((known for known in names if known.lower() == value.lower()), None)


def check_tagging_scheme(name: str, value: Any) -> Scheme:
    return get_scheme(value)  # (in any case, aliases too: schemes.get_scheme)


def check_decoding_mode(name: str, value: Any) -> str:
    mode = named(value, MODES)  # docs/scoring.md §2
    if mode is None:
        raise ValueError(f"unknown mode {shown(value)}; expected one of {', '.join(MODES)}")
    return mode


# The pairings of docs/scoring.md §3a: ours (the default) and the HIPE scorer's greedy one (`pairing.greedy`).
OPTIMAL, HIPE = "optimal", "hipe"
PAIRINGS = (OPTIMAL, HIPE)


def check_pairing(name: str, value: Any) -> str:
    pairing = named(value, PAIRINGS)
    if pairing is None:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, PAIRINGS))}, found {shown(value)}")
    return pairing


def refuse_a_mapping(name: str, value: Any, expected: str) -> None:
    """A mapping where a list of entity types belongs (`labels`, `result(types=...)`), whose keys were kept silently:
    refused as scikit-learn refuses what is no list."""
    if isinstance(value, Mapping):
        ids = name == "labels" and value and all(is_id(key) or str(key).isdigit() for key in value)  # an id2label
        fix = "ids to tags (model.config.id2label) go as label_list=" if ids else "pass list(...) for its keys"
        raise ValueError(f"{name} must be {expected}, found a mapping {shown(value)}; {fix}")


def check_labels(name: str, labels: Any) -> tuple[str, ...] | None:
    expected = "a list of entity types such as ['PER', 'LOC'], or None for every type"
    if labels is None:
        return None
    if not is_collection(labels):
        raise ValueError(f"labels must be {expected}, found {shown(labels)}")
    refuse_a_mapping("labels", labels, expected)
    labels = tuple(labels)
    if not labels:
        raise ValueError(f"labels=[] keeps no entity type, so every count would be zero; labels must be {expected}")
    for label in labels:
        if not isinstance(label, str) or not label:
            raise ValueError(f"labels must be {expected}, found {shown(label)} in {shown(list(labels))}")
    return tuple(map(str.__str__, labels))  # plain strings (np.str_ of an array's): the confusion matrix's keys


def check_min_overlap(name: str, min_overlap: Any) -> float | None:
    """None (any overlap), or a real number in (0, 1]: the share of the reference entity's length that a
    prediction must cover to overlap it (docs/scoring.md §3)."""
    if min_overlap is None:
        return None
    expected = "a number greater than 0 and at most 1 (the share of the reference entity covered), or None"
    number = check_number(name, min_overlap, expected, 1.0)
    if number == 0:
        raise ValueError(f"min_overlap must be {expected}, found {shown(min_overlap)}; None means any overlap")
    return number


def check_beta(name: str, value: Any) -> float:
    return check_number(name, value, "a finite number >= 0", math.inf)


def check_confusion(name: str, value: Any) -> bool | str:
    """True (the full square), False, or "sparse" (only the non-zero cells; docs/scoring.md §7)."""
    if named(value, ("sparse",)):
        return "sparse"
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True, False or 'sparse', found {shown(value)}")
    return bool(value)


def check_zero_division(name: str, value: Any) -> float:
    return check_number(name, value, "a number from 0 to 1", 1.0)


def _class_label_advice(value: Any) -> str:
    """What to pass for a datasets `ClassLabel` (or a column's feature holding one) given as label_list: its names.
    Told by the type's name, so that neither datasets is imported nor an unknown object's attributes are read."""
    if type(value).__name__ == "ClassLabel":
        return "; pass its names, label_list=feature.names"
    if (
        type(value).__name__ in ("Sequence", "List", "LargeList")
        and type(getattr(value, "feature", None)).__name__ == "ClassLabel"
    ):
        return "; pass its names, label_list=dataset.features[column].feature.names"
    return ""


def check_label_list(name: str, label_list: Any) -> dict[int, str] | None:
    """`label_list` as a dict id -> tag: from a list of tags, or a dict whose keys are ids (int, or the str of an
    int, as after a JSON round trip of `model.config.id2label`)."""
    expected = "a list of tags, or a dict id -> tag such as model.config.id2label"
    if label_list is None:
        return None
    if isinstance(label_list, Mapping):
        tags: dict[int, str] = {}
        keys: dict[int, Any] = {}
        for key, tag in label_list.items():
            digits = isinstance(key, str) and re.fullmatch(r"-?[0-9]+", key)
            if (not digits and not is_id(key)) or (digits and len(key) > 4_000):  # (int() refuses so many digits)
                found = f"{shown(key, 20)}, of {len(key.lstrip('-')):,} digits" if digits else shown(key)
                # {"O": 0, "B-PER": 1}: model.config.label2id, the other of the config's two maps
                flipped = not digits and isinstance(key, str) and is_id(tag)
                raise ValueError(
                    f"label_list keys must be integer ids (or their strings, as in a JSON config), found {found}"
                    + ("; this is tag -> id (label2id): pass model.config.id2label" if flipped else "")
                )
            label_id = int(key)
            if label_id in keys:
                raise ValueError(
                    f"label_list has two keys for id {shown(label_id)}: {shown(keys[label_id])} and {shown(key)}"
                )
            keys[label_id] = key
            tags[label_id] = tag
    elif not is_collection(label_list):
        raise ValueError(f"label_list must be {expected}, found {shown(label_list)}{_class_label_advice(label_list)}")
    else:
        tags = dict(enumerate(label_list))
    for label_id, tag in tags.items():
        if not isinstance(tag, str):
            raise ValueError(
                f"label_list maps id {shown(label_id)} to {shown(tag)}; expected a tag string such as 'B-PER'"
            )
    return tags


def check_ignore_index(name: str, ignore_index: Any) -> int:
    if not is_id(ignore_index):
        raise ValueError(f"ignore_index must be an integer id such as -100, found {shown(ignore_index)}")
    return int(ignore_index)


def check_evaluation_schemes(name: str, value: Any) -> tuple[str, ...]:
    """Some of strict, exact, partial and type, kept in the result's order (docs/scoring.md §7) whatever order
    they are given in. Named apart from `scheme`, the tagging scheme, which it must not be taken for."""
    names = ", ".join(map(repr, EVALUATION_SCHEMES))
    expected = f"a list of evaluation schemes, some of {names}"
    given = _some_of(name, value, EVALUATION_SCHEMES, expected, "scheme", _tagging_scheme_hint)
    if not given:
        raise ValueError(f"evaluation_schemes=[] keeps no key to return; evaluation_schemes must be {expected}")
    return tuple(scheme for scheme in EVALUATION_SCHEMES if scheme in given)


def _tagging_scheme_hint(item: Any) -> str:
    if isinstance(item, str) and SCHEME_ALIASES.get(item.upper(), item.upper()) in SCHEMES:
        return f"; {item!r} is a tagging scheme: pass it as scheme={item!r}"
    return ""


def _some_of(
    name: str, value: Any, allowed: tuple[str, ...], expected: str, one: str, hint: Callable[[Any], str]
) -> list[Any]:
    """`value` as a list of names, each one of `allowed` in any case (`named`) and held as `allowed` writes it;
    `hint` adds to the message of an item that is none."""
    if not is_collection(value):
        one_hint = f"; for one {one} pass [{value!r}]" if named(value, allowed) else ""
        raise ValueError(f"{name} must be {expected}, found {shown(value)}{one_hint}")
    given = list(value)
    names = [named(item, allowed) for item in given]
    if None in names:
        item = given[names.index(None)]
        raise ValueError(f"{name} must be {expected}, found {shown(item)} in {shown(given)}{hint(item)}")
    return names


def check_confidence_level(name: str, value: Any) -> float:
    expected = "a number between 0 and 1, such as 0.95"
    level = check_number(name, value, expected, 1.0)
    if not 0 < level < 1:
        raise ValueError(f"confidence_level must be {expected} (0 and 1 excluded), found {shown(value)}")
    if not 1 - (1 - level) / 2 < 1:  # the interval's upper tail: 1 - 1e-16 leaves none a float can hold
        raise ValueError(
            f"confidence_level must be {expected}, with tails (1 - level) / 2 a float can hold, found {shown(value)}"
        )
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
# Each edge is a bucket: a name, a row of scores and a dict in the result, about 1 KB (10^6 edges took 15 s and
# 1.2 GB for one sentence). No report reads more buckets than this; more is refused before they are read.
MAX_SLICE_EDGES = 10_000


def check_slices(name: str, value: Any) -> tuple[str, ...]:
    expected = f"a list of slice names, some of {', '.join(SLICE_NAMES)}"
    if value is None:
        return ()
    given = _some_of(name, value, SLICE_NAMES, expected, "slice", lambda item: "")
    return tuple(dict.fromkeys(given))


def check_slice_edges(name: str, value: Any) -> dict[str, tuple[int, ...]] | None:
    expected = (
        f"a dict from {', '.join(DEFAULT_SLICE_EDGES)} to increasing whole numbers >= 0 (the buckets' lower ends), "
        "such as {'entity_length': [1, 2, 4]}"
    )
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ValueError(f"slice_edges must be {expected}, found {shown(value)}")
    edges = {}
    for key, given in value.items():
        slice_name = named(key, tuple(DEFAULT_SLICE_EDGES))
        if slice_name is None:
            raise ValueError(f"slice_edges must be {expected}, found the key {shown(key)}")
        if slice_name in edges:  # names in any case: 'seen' and 'SEEN' are one key, whose edges cannot be both
            raise ValueError(
                f"slice_edges names {slice_name!r} twice (in another case: {shown(key)}); expected it once"
            )
        if not is_collection(given):
            raise ValueError(f"slice_edges[{slice_name!r}] must be {expected}, found {shown(given)}")
        numbers_given = list(itertools.islice(given, MAX_SLICE_EDGES + 1))
        if len(numbers_given) > MAX_SLICE_EDGES:
            raise ValueError(
                f"slice_edges[{slice_name!r}] holds more than {MAX_SLICE_EDGES:,} edges; expected at most "
                f"{MAX_SLICE_EDGES:,} edges, one bucket each"
            )
        if (
            not numbers_given
            or not all(is_id(edge) and edge >= 0 for edge in numbers_given)
            or any(low >= high for low, high in itertools.pairwise(numbers_given))
        ):
            raise ValueError(f"slice_edges[{slice_name!r}] must be {expected}, found {shown(numbers_given)}")
        if numbers_given[-1] >= 2**63:  # the buckets are found on 64-bit integers (numpy's searchsorted)
            raise ValueError(
                f"slice_edges[{slice_name!r}] holds {shown(numbers_given[-1])}; expected edges below 2**63"
            )
        edges[slice_name] = tuple(int(edge) for edge in numbers_given)
    return edges


def check_seen(name: str, value: Any) -> frozenset[str] | None:
    expected = "a collection of entity texts (strings), such as a training set's"
    if value is None:
        return None
    if not is_collection(value):
        raise ValueError(f"seen must be {expected}, found {shown(value)}")
    texts = list(value.keys() if isinstance(value, Mapping) else value)
    for text in texts:
        if not isinstance(text, str):
            raise ValueError(f"seen must be {expected}, found {shown(text)}")
    return frozenset(texts)


def check_slices_read(
    slices: tuple[str, ...], seen: frozenset[str] | None, slice_edges: Mapping[str, tuple[int, ...]] | None
) -> None:
    """`seen` and `slice_edges` shape slices (docs/scoring.md §11) and change nothing else: given for a slice that
    `slices` does not ask for, an error rather than silently ignored (as scikit-learn refuses an argument that would
    have no effect). Checked as batches are counted (`Accumulator.add`), not by `Options.of`: evaluate's
    `load(seen=...)` may wait for a `compute(slices=["seen"])`."""
    shaping = {"seen": "seen"} if seen is not None else {}
    shaping.update({f"slice_edges[{name!r}]": name for name in slice_edges or {}})
    for given, slice_name in shaping.items():
        if slice_name not in slices:
            raise ValueError(
                f"{given} given without the {slice_name} slice (slices={list(slices)!r}): it shapes that slice "
                f"alone, so nothing would read it; expected {slice_name!r} in slices, or {given} left out"
            )


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


# The ACE-08 scorer's weights for entities of one name mention (ace08-eval-v08.pl, docs/scoring.md §10).
VALUE_PRESETS: dict[str, Weights] = {"ace08": Weights(min_overlap=0.3)}
WEIGHT_KEYS = tuple(field.name for field in dataclasses.fields(Weights))
# Each number weight and its highest value: an error keeps a share of the entity's worth (docs/scoring.md §10).
_WEIGHT_HIGHS = {"default_type_weight": math.inf, "false_alarm": math.inf, "type_error": 1.0, "boundary_error": 1.0}


def _check_weight(name: str, value: Any, high: float = math.inf) -> float:
    expected = "a finite number from 0 to 1" if high == 1 else "a finite number >= 0"
    return check_number(name, value, expected, high)


def check_value(name: str, value: Any) -> Weights | None:
    """False or None (no value score), True (the default weights), a preset's name, or a mapping of weights
    (docs/scoring.md §10): every key known, every weight finite and >= 0, type_error and boundary_error at most
    1, min_overlap as the option's."""
    presets = ", ".join(map(repr, VALUE_PRESETS))
    expected = f"True, a preset ({presets}), or a dict of weights with keys among {list(WEIGHT_KEYS)}"
    if value is None or isinstance(value, (bool, np.bool_)):
        return Weights() if value else None
    if isinstance(value, Weights):  # one built by hand (a Weights' replace): checked as its dict, not taken as it is
        types: Any = value.types
        with contextlib.suppress(TypeError, ValueError):
            types = dict(types) if len(dict(types)) == len(types) else types  # (a type twice: refused as no dict)
        value = {**vars(value), "types": types}
    if isinstance(value, str):
        preset = named(value, tuple(VALUE_PRESETS))
        if preset is None:
            raise ValueError(f"value must be {expected}, found the unknown preset {value!r}")
        return VALUE_PRESETS[preset]
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
    for key, high in _WEIGHT_HIGHS.items():
        if key in value:
            given[key] = _check_weight(f"value[{key!r}]", value[key], high)
    if "min_overlap" in value:
        try:
            given["min_overlap"] = check_min_overlap("min_overlap", value["min_overlap"])
        except ValueError as error:
            raise ValueError(f"value['min_overlap']: {error}") from None
    return Weights(**given)


OVERLAP = "overlap"


def check_partial_credit(name: str, value: Any) -> float | str:
    """A finite number from 0 to 1, or "overlap" (docs/scoring.md §10)."""
    if isinstance(value, str):
        if named(value, (OVERLAP,)) is None:
            raise ValueError(f"partial_credit must be a number from 0 to 1 or {OVERLAP!r}, found {value!r}")
        return OVERLAP
    return check_number(name, value, f"a number from 0 to 1 or {OVERLAP!r}", 1.0)


def check_errors(name: str, value: Any) -> bool | int:
    """False (none), True (every distinct error) or a whole number N >= 1 (the N most frequent)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if not is_id(value) or value < 1:
        raise ValueError(
            f"{name} must be True, False or a whole number >= 1 (the most frequent errors to keep), "
            f"found {shown(value)}"
        )
    return int(value)


# The columns given beside the entities (`nerscore.table.columns`, which stands below this module and cannot be
# imported here: tests/test_option_checks.py checks that these are its names), each with what one sentence holds.
_COLUMNS_OF_A_SENTENCE = {"texts": "text", "tokens": "token list", "groups": "group", "documents": "document id"}
# What a newcomer, or a peer's habit, writes for an option or an input, and what it is here: difflib alone would
# answer `labels` for `id2label` and nothing for `text` (the inputs beside predictions and references are no options).
_MEANT = {
    "id2label": "label_list (it takes model.config.id2label as it is)",
    "label2id": "label_list (ids to tags: model.config.id2label)",
    **{name[:-1]: f"{name}= (an input: one {each} per sentence)" for name, each in _COLUMNS_OF_A_SENTENCE.items()},
    **{
        side: f"compute({side}=...) (inputs go to compute or add_batch, not to evaluate.load)"
        for side in ("predictions", "references")
    },
    "prediction": "predictions= (a batch: one list per sentence; add(prediction=...) takes one sentence)",
    "reference": "references= (a batch: one list per sentence; add(reference=...) takes one sentence)",
    "y_pred": "predictions= (seqeval's y_pred; keywords only, predictions first)",
    "y_true": "references= (seqeval's y_true)",
}


def check_known(given: Mapping[str, Any], names: tuple[str, ...]) -> None:
    """A `ValueError` naming the options `given` that are none of `names`, each with what it may have meant."""
    unknown = sorted(set(given) - set(names))
    if not unknown:
        return
    import difflib  # here: only a refused call pays for it (the import row, docs/architecture.md)

    # The first few, each cut short: the message of 20,000 unknown names, or of one a million characters long, was
    # as long as they are (1.2 MB), and each was matched against every option.
    hints, named = [], unknown[:_NAMED]
    for name in named:
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.7) if len(name) <= 100 else []
        meant = _MEANT.get(name) or (close[0] if close else None)
        hints.append(f"; {shown(name, 60)}: did you mean {meant}?" if meant else "")
    found = f"[{', '.join(shown(name, 60) for name in named)}{', ...' if len(unknown) > _NAMED else ''}]"
    more = f" ({len(unknown):,} of them)" if len(unknown) > _NAMED else ""
    raise ValueError(f"unknown option(s) {found}{more}{''.join(hints)}; expected some of {sorted(names)}")


_NAMED = 10


def hashable_view(value: Any) -> Any:
    """`value` as a hashable that is equal where `value` is (so hashes equal): a mapping as the frozenset of its
    items, a list as a tuple, a dataclass as its class and fields, each held value in turn (`Options.__hash__`)."""
    if isinstance(value, Mapping):
        return frozenset((key, hashable_view(item)) for key, item in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(map(hashable_view, value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value), *(hashable_view(getattr(value, field.name)) for field in dataclasses.fields(value)))
    return value
