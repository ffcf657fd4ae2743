"""Every option, defined once: the fields of `Options` are the table.

Each field holds its default, its check (from `nerscore.option_checks`), the line that documents it and its
command-line flag (`option(...)`). `Options.of` checks what a caller gives, field by field, once; the module's
docstring for evaluate (`describe`), `NerSemeval`'s defaults (`OPTION_NAMES`) and the command line's flags
(`nerscore.cli`) are all read off these fields, and tests/test_options.py fails when one of them drifts. A new
option is one field here (with its check in `nerscore.option_checks` unless one there fits, and its flag's reading
in `nerscore.option_flags` if its text is more than a string) plus the code that reads it.
"""

from __future__ import annotations

import dataclasses
import textwrap
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import shown
from .option_checks import (
    EVALUATION_SCHEMES,
    HIPE,
    PAIRINGS,
    Check,
    Weights,
    check_beta,
    check_confidence_level,
    check_confusion,
    check_decoding_mode,
    check_errors,
    check_evaluation_schemes,
    check_flag,
    check_ignore_index,
    check_known,
    check_label_list,
    check_labels,
    check_min_overlap,
    check_pairing,
    check_partial_credit,
    check_resamples,
    check_seed,
    check_seen,
    check_slice_edges,
    check_slices,
    check_tagging_scheme,
    check_value,
    check_zero_division,
    hashable_view,
)
from .option_flags import comma_list, labels_flag, partial_credit_flag, seen_flag, value_flag
from .schemes import LENIENT, MODES, OUTSIDE, Scheme, split_tag

# ---------------------------------------------------------------------------------------------------------
# The table's parts: an option's flag, its entry, its field
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Flag:
    """An option's command-line flag, named by `flag_name`."""

    metavar: str | None = None
    parse: Callable[[str], Any] = str  # the value from the command line's text
    switch: bool = False  # a flag without a value, which sets True
    choices: tuple[str, ...] | None = None
    help: str = ""  # what the flag does, in a file's terms


def flag_name(option: str) -> str:
    """An option's flag: ``--`` and its name with hyphens (``--min-overlap`` for ``min_overlap``)."""
    return "--" + option.replace("_", "-")


@dataclass(frozen=True)
class Spec:
    """What the table holds of one option besides its name and stored default."""

    default: Any  # as a caller writes it (the card and the command line show this)
    check: Check
    kind: str  # its type as the card writes it
    doc: str  # the line of documentation
    flag: Flag | None  # None: the option means nothing for a file (integer ids, say)
    tags: bool = False  # it describes tags: given with spans, an error (`check_span_options`)


def option(default: Any, check: Check, kind: str, doc: str, flag: Flag | None = None, *, tags: bool = False) -> Any:
    """A field of `Options`: the default as `Options` holds it (`check` applied), the rest as its metadata."""
    return dataclasses.field(
        default=check("default", default), metadata={"option": Spec(default, check, kind, doc, flag, tags)}
    )


# ---------------------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """Every option of `compute_semeval`, checked once by `Options.of` and passed down as one object."""

    scheme: Scheme = option(
        "IOB2",
        check_tagging_scheme,
        "`str` (any case) or `Scheme`",
        "tagging scheme: IOB2 (BIO), IOB1, IOE1, IOE2, IOBES (BIOES), BILOU, BMES, IO, or a `Scheme` (scoring.md §2).",
        Flag("NAME", help="IOB2 (default), IOB1, IOE1, IOE2, IOBES, BILOU, BMES, IO"),
        tags=True,
    )
    mode: str = option(
        LENIENT,
        check_decoding_mode,
        "`str`, any case",
        '`"lenient"` decodes like conlleval (`O I-PER` is an entity); `"strict"` keeps only entities that are well '
        "formed in `scheme` (as seqeval's strict mode).",
        Flag(
            parse=str.lower,  # (the option reads names in any case: `named`; argparse's choices, as written)
            choices=MODES,
            help="lenient (default) decodes as conlleval; strict keeps only well-formed entities",
        ),
        tags=True,
    )
    suffix: bool = option(
        False,
        check_flag,
        "`bool`",
        "tags are `TYPE-PREFIX` (`PER-B`) instead of `PREFIX-TYPE`.",
        Flag(switch=True, help="tags are TYPE-PREFIX"),
        tags=True,
    )
    labels: tuple[str, ...] | None = option(
        None,
        check_labels,
        "`list` of `str`",
        "score only entities of these types (on both sides).",
        Flag("TYPES", labels_flag, help="score only entities of these types, comma-separated (PER,LOC)"),
    )
    min_overlap: float | None = option(
        None,
        check_min_overlap,
        "`float` in (0, 1]",
        "a prediction overlaps a reference only if it covers at least this share of the reference's length "
        "(nervaluate's `min_overlap_percentage` / 100); default: any shared token or character.",
        Flag(
            "SHARE",
            float,
            help="overlap only where the prediction covers at least this share (0 to 1) of the reference",
        ),
    )
    pairing: str = option(
        "optimal",
        check_pairing,
        "`str`, any case",
        '`"optimal"` pairs the most entities, then the most of one type (docs/scoring.md §3); `"hipe"` pairs as the '
        "HIPE scorer, greedily in order: each prediction takes the first reference it matches (§3a).",
        Flag(
            parse=str.lower,
            choices=PAIRINGS,
            help="optimal (default; with --hipe-table: hipe) pairs as docs/scoring.md §3, hipe greedily as the HIPE "
            "scorer",
        ),
    )
    beta: float = option(
        1.0,
        check_beta,
        "`float`",
        "the beta of F-beta; the key is `f1` for 1, else `f{beta:g}`.",
        Flag("B", float, help="the beta of F-beta (default 1: F1)"),
    )
    zero_division: float = option(
        0.0,
        check_zero_division,
        "`float`",
        "the value of a ratio whose denominator is zero.",
        Flag("Z", float, help="precision when nothing is predicted, recall when there is nothing to find (default 0)"),
    )
    evaluation_schemes: tuple[str, ...] = option(
        list(EVALUATION_SCHEMES),
        check_evaluation_schemes,
        "`list` of `str`, any case",
        'the evaluation schemes whose keys are returned, some of `"strict"`, `"exact"`, `"partial"` and `"type"` '
        "(their macro, per-type and interval keys follow); not the tagging `scheme`.",
        Flag(
            "NAMES",
            comma_list,
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
        check_confusion,
        '`bool` or `"sparse"` (any case)',
        "add `confusion`, the entity-type confusion matrix as a dict of dicts, "
        '`confusion[reference_type][predicted_type]`, with `"O"` for no entity (docs/scoring.md §7): the full square '
        'up to 1,000 types, `"sparse"` for only its non-zero cells at any number of types.',
        Flag(switch=True, help="the entity-type confusion matrix (in --json too)"),
    )
    label_list: Mapping[int, str] | None = option(
        None,
        check_label_list,
        "`list` of `str` or `dict` of `int` to `str`",
        "maps integer ids to tags (`model.config.id2label` works as is).",
        tags=True,
    )
    ignore_index: int = option(
        -100,
        check_ignore_index,
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
        check_confidence_level,
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
        check_slices,
        "`list` of `str`, any case",
        "add `slices`, the scores of each bucket of these slices, some of `entity_length`, `seen` (with `seen`), "
        "`sentence_length`, `entity_density` and `group` (with `groups`); docs/scoring.md §11.",
        Flag("NAMES", comma_list, help="scores by bucket: entity_length,seen,sentence_length,entity_density,group"),
    )
    slice_edges: Mapping[str, tuple[int, ...]] | None = option(
        None,
        check_slice_edges,
        "`dict` of `str` (any case) to `list` of `int`",
        "the lower ends of the buckets of `entity_length`, `sentence_length` or `entity_density`, "
        'such as `{"entity_length": [1, 2, 4]}` (values below the first fall in `"<a"`); at most 10,000 of them.',
    )
    seen: frozenset[str] | None = option(
        None,
        check_seen,
        "`list` or `set` of `str`",
        "the entity texts that count as seen (a training set's) for the `seen` slice.",
        Flag(
            "FILE",
            seen_flag,
            help="entity texts that count as seen, one a line (the `seen` slice; - for standard input)",
        ),
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
        check_errors,
        "`bool` or `int`",
        "add `errors`, every outcome but a correct pair by its entities' texts and types with its count, most "
        "frequent first; an integer N keeps the N most frequent. Needs `tokens` (tags) or `texts` (spans).",
        Flag("N", int, help="the N most frequent errors by entity text and type (needs each line's token)"),
    )

    partial_credit: float | str = option(
        0.5,
        check_partial_credit,
        '`float` in [0, 1] or `"overlap"` (any case)',
        'what a PAR earns under the partial scheme: this share of a point, or with `"overlap"` its shared length over '
        "the length of the union of the two entities (docs/scoring.md §10).",
        Flag(
            "C",
            partial_credit_flag,
            help="what a partial match earns under partial: a number from 0 to 1 (default 0.5) or overlap",
        ),
    )
    value: Weights | None = option(
        None,
        check_value,
        '`bool`, `"ace08"` (any case) or `dict`',
        "add the ACE-style `value`, `value_precision`, `value_recall` and `value_f1` (weights per type and per "
        'error; `True`: the defaults, `"ace08"`: the ACE-08 scorer\'s; docs/scoring.md §10).',
        Flag(
            "WEIGHTS",
            value_flag,
            help="add the value score: ace08, true (the default weights), or a JSON file of weights (- standard input)",
        ),
    )
    # (Not a field.) The options that add to compute_semeval's result more than the overall scores: a function whose
    # dict has no place for one refuses it, never silently ignores it (compare_runs refuses them all, summarize_runs
    # and compare_semeval all but those they report). A new option of that kind joins here.
    ADDING = ("bootstrap", "return_entities", "per_type", "confusion", "slices", "diagnostics", "errors")
    # (Not a field.) The options that change only what is reported of counts already made, which
    # `Accumulator.result(options)` may change (the command line's tables report every type); any other differing
    # option is refused there. Not `labels`: it leaves entities out before they are counted (the Space's few types'
    # rows are `result(types=...)`). A new option of that kind joins here.
    REPORTED = ("beta", "confidence_level", "confusion", "evaluation_schemes", "per_type", "seed", "zero_division")

    def __hash__(self) -> int:  # frozen, but holding dicts (label_list, slice_edges, a Scheme's roles): their view
        return hash(hashable_view(self))

    def __post_init__(self) -> None:
        # The HIPE scorer counts any shared token as an overlap: min_overlap has no meaning in its pairing.
        if self.pairing == HIPE and self.min_overlap is not None:
            raise ValueError(
                f"min_overlap={self.min_overlap:g} with pairing='hipe': the HIPE scorer's pairing counts any shared "
                "token or character as an overlap; drop min_overlap, or pair with pairing='optimal'"
            )

    @classmethod
    def of(cls, **options: Any) -> Options:
        """The options checked, each by its own check; a `ValueError` names the first bad one and what it takes."""
        return _as_checked(cls(**_checked(options)))

    def evolve(self, **changes: Any) -> Options:
        """A copy with `changes`, each checked by its own check (the pattern of attrs' `evolve`)."""
        return _as_checked(dataclasses.replace(self, **_checked(changes)), self)

    def overall(self) -> Options:
        """A copy with every option of `ADDING` at its default: what counts the overall scores alone."""
        return _as_checked(dataclasses.replace(self, **{name: _DEFAULTS[name] for name in self.ADDING}), self)

    @property
    def value_min_overlap(self) -> float | None:
        """The overlap of the value's pairing: the weights' own `min_overlap`, else the call's (docs/scoring.md §10)."""
        return self.min_overlap if self.value is None or self.value.min_overlap is None else self.value.min_overlap

    @property
    def f_name(self) -> str:
        """The F measure's key: ``f1`` for beta 1, else ``f{beta:g}``."""
        return f_key(self.beta)


SPECS: dict[str, Spec] = {field.name: field.metadata["option"] for field in dataclasses.fields(Options)}
OPTION_NAMES = tuple(SPECS)
# Each option's default as `Options` holds it (its check applied): what `Options.overall` and `check_span_options`
# compare with.
_DEFAULTS: dict[str, Any] = {field.name: field.default for field in dataclasses.fields(Options)}
# The options that describe tags (`Spec.tags`), which `check_span_options` refuses with spans.
TAG_OPTIONS = tuple(name for name, spec in SPECS.items() if spec.tags)
# The options that change what a batch counts, but for those `ADDING` asks to be counted (whose counts
# `result_scores.counted_without` looks for) and the partial scheme's share of a point (applied to the counts): batches
# counted under other values of these count other things, which added together would silently mix (`Accumulator.add`).
COUNTING_OPTIONS = tuple(name for name in SPECS if name not in (*Options.REPORTED, *Options.ADDING, "partial_credit"))


def differing(first: Options, second: Options, names: Iterable[str] = OPTION_NAMES) -> tuple[str, str, str] | None:
    """The first of `names` whose values differ between two options, as the name and each one's value as a message
    writes it, or None: `labels` that hold the same types in another order are alike (the types kept are a set)."""
    for name in names:
        one, other = getattr(first, name), getattr(second, name)
        if one is other:  # (an evolved copy's: `seen`'s million words compared at each batch took 0.08 s)
            continue
        if name == "labels" and one is not None and other is not None and set(one) == set(other):
            continue
        if one != other:
            return name, _written(one), _written(other)
    return None


def _written(value: Any) -> str:
    """An option's value as a message writes it: a `Scheme` by its name."""
    return repr(value.name) if isinstance(value, Scheme) else shown(value)


def in_words(names: Iterable[str]) -> str:
    """Names as a sentence lists them: ``a``, ``a and b``, ``a, b and c``."""
    *rest, last = names
    return f"{', '.join(rest)} and {last}" if rest else last


def _checked(given: Mapping[str, Any]) -> dict[str, Any]:
    """The options `given`, each checked by its own check in the table's order."""
    check_known(given, OPTION_NAMES)
    return {name: spec.check(name, given[name]) for name, spec in SPECS.items() if name in given}


def f_key(beta: float) -> str:
    """The name of the F measure: ``f1`` for beta 1, else ``f{beta:g}`` (``f0.5``, ``f2``); a beta that is no
    number >= 0 is the option's ValueError (`check_beta`), not a format error."""
    beta = check_beta("beta", beta)
    return "f1" if beta == 1 else f"f{beta:g}"


def check_tag_options(options: Options) -> None:
    """What options must be for tag or id input (docs/scoring.md §2): `labels` are entity types, so a tag of the
    declared scheme among them (``B-PER`` for ``PER``) is a slip. Checked once the input is known to hold tags:
    span types are whatever the data holds (``B-cell``, ``I-95``)."""
    for label in options.labels or ():
        prefix, hyphen, entity_type = split_tag(label, options.suffix)
        if hyphen and entity_type and prefix in options.scheme.roles:
            every_tag = OUTSIDE in (options.labels or ())  # ["O", "B-PER", ...]: a model's tags, which map ids
            raise ValueError(
                f"labels holds the tag {label!r}; labels are entity types: pass {entity_type!r} instead of {label!r}"
                + ("; a list of every tag, which maps ids to tags, goes as label_list=" if every_tag else "")
            )


def check_span_options(options: Options) -> None:
    """Options that describe tags (`TAG_OPTIONS`) mean nothing for spans (docs/scoring.md §1): given anyway, other
    than their defaults, they are an error rather than silently ignored."""
    # (`!=`, not `is not`: an unpickled Accumulator's options hold a copy of IOB2)
    meaningless = [name for name in TAG_OPTIONS if getattr(options, name) != _DEFAULTS[name]]
    if meaningless:
        raise ValueError(
            f"{' and '.join(meaningless)} given with span input; {in_words(TAG_OPTIONS)} describe tags and mean "
            "nothing for spans: leave them out"
        )


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


def check_accumulator(options: Any, ordered: Any) -> Options:
    """What an `Accumulator` is built of, and the options of its `result`: an `Options`, `ordered` True or False.
    The options as `Options.of` reads them: one built by hand (`Options(mode="Strict")`) failed as it counted
    (AttributeError: 'str' object has no attribute 'roles'), or had every batch counted with its options refused
    (`result_scores.counted_without`: "mode='Strict' (it was counted with mode='strict')")."""
    if not isinstance(options, Options):  # (AttributeError: 'dict' object has no attribute 'bootstrap')
        raise ValueError(f"options is {shown(options)}; expected an Options (nerscore.Options.of(per_type=True))")
    if not isinstance(ordered, bool):
        raise ValueError(f"ordered is {shown(ordered)}; expected True or False")
    if _AS_CHECKED.get(id(options)) is options:
        return options
    checked = Options.of(**{name: getattr(options, name) for name in OPTION_NAMES})
    checked = options if checked == options else checked
    _AS_CHECKED[id(checked)] = checked
    return checked


def _as_checked(options: Options, made_from: Options | None = None) -> Options:
    """`options`, known as checked (`check_accumulator`) where made by `Options.of`, or from checked options."""
    if made_from is None or _AS_CHECKED.get(id(made_from)) is made_from:
        _AS_CHECKED[id(options)] = options
    return options


# Options known as `Options.of` makes them (made by it, `evolve` or `overall`, or found so by `check_accumulator`), by
# identity: an accumulator is built again at each batch, and compute_semeval builds several, on options checked once
# (their check follows their size: `seen`'s words, `labels`; 200,000 words checked again: 43 -> 193 ms a call).
_AS_CHECKED: weakref.WeakValueDictionary[int, Options] = weakref.WeakValueDictionary()
