# Copyright 2026 The ner_semeval Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""ner_semeval: SemEval-2013 Task 9 entity scores (strict, exact, partial, type) for tag sequences.

The public pure function `compute_semeval` does the work, `NerSemeval` is the thin `evaluate.Metric` around it,
`compare_semeval` tests whether one system beats another on the same sentences, and `python ner_semeval.py FILE`
(or the `ner-semeval` command) is a conlleval-style command line. The definition it implements is
docs/scoring.md; its sections are cited as §n below.

It is one file because three users import it as a plain module: `evaluate.load` (which would copy sibling
files imported as `from .x import y`, but such relative imports fail when the same file is run as a script),
the command line, and the Space's `app.py`. Sections follow the data: tags and schemes, decoding, pairing,
counts and scores, options and input checks, the public function, the array path, the statistics, the wrapper,
the CLI.
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import dataclasses
import heapq
import json
import math
import numbers
import operator
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, pairwise, repeat, zip_longest
from pathlib import Path
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np

# `python ner_semeval.py FILE` and the `ner-semeval` command score files with numpy alone: `import evaluate`
# also imports transformers where it is installed, seconds before a four-token file could be scored.
_COMMAND_LINE = __name__ == "__main__" or Path(sys.argv[0]).name == "ner-semeval"
if not _COMMAND_LINE:
    import datasets
    import evaluate

_CITATION = """\
@inproceedings{segura-bedmar-etal-2013-semeval,
    title = "{S}em{E}val-2013 Task 9 : Extraction of Drug-Drug Interactions from Biomedical Texts (DDIExtraction 2013)",
    author = "Segura-Bedmar, Isabel and Mart{\\'\\i}nez, Paloma and Herrero-Zazo, Mar{\\'\\i}a",
    booktitle = "Second Joint Conference on Lexical and Computational Semantics (*SEM), Volume 2:
                 Proceedings of the Seventh International Workshop on Semantic Evaluation (SemEval 2013)",
    year = "2013",
    pages = "341--350",
}
@inproceedings{chinchor-sundheim-1993-muc,
    title = "{MUC}-5 Evaluation Metrics",
    author = "Chinchor, Nancy and Sundheim, Beth",
    booktitle = "Fifth Message Understanding Conference ({MUC}-5)",
    year = "1993",
}
@inproceedings{tjong-kim-sang-de-meulder-2003-introduction,
    title = "Introduction to the {C}o{NLL}-2003 Shared Task: Language-Independent Named Entity Recognition",
    author = "Tjong Kim Sang, Erik F. and De Meulder, Fien",
    booktitle = "Proceedings of the Seventh Conference on Natural Language Learning at HLT-NAACL 2003",
    year = "2003",
    pages = "142--147",
}
"""

_DESCRIPTION = """\
SemEval-2013 style named-entity evaluation. Reference and predicted entities are decoded from tag sequences,
paired one-to-one per sentence, and every pair or unpaired entity falls into one of six scenarios:
I correct, II spurious, III missed, IV wrong type, V wrong boundaries, VI wrong boundaries and type.
Four schemes read the scenarios as MUC counts (correct, incorrect, partial, missed, spurious):
strict (boundaries and type), exact (boundaries), partial (overlap, half credit) and type (overlap and type).
Precision, recall and F-beta follow for each scheme, overall, per entity type and as macro averages.
"""

_KWARGS_DESCRIPTION = """
Computes SemEval-2013 strict / exact / partial / type scores for named-entity tag sequences or spans.

Args:
    predictions (`list` of `list` of `str`, `int` or entities): predicted tags, one sequence per sentence
        (`"B-PER"`, `"I-PER"`, `"O"` ...), or integer label ids together with `label_list`; or spans, one list
        of entities per sentence or document, each a dict with integer `start` and `end` (end exclusive, any
        unit) and its type under `type`, `label` or `entity_group` (a token-classification pipeline's grouped
        output as it is), or a `(start, end, type)` tuple. Entities may nest and overlap.
    references (same form as `predictions`): reference tags, token-aligned with `predictions`; or spans.
    scheme (`str`, default `"IOB2"`): tagging scheme: IOB2 (alias BIO), IOB1, IOE1, IOE2,
        IOBES (alias BIOES), BILOU, BMES or IO.
    mode (`str`, default `"lenient"`): `"lenient"` decodes like conlleval (`O I-PER` is an entity);
        `"strict"` keeps only entities that are well formed in `scheme` (as seqeval's strict mode).
    suffix (`bool`, default `False`): tags are `TYPE-PREFIX` (`PER-B`) instead of `PREFIX-TYPE`.
        `scheme`, `mode`, `suffix` and `label_list` describe tags: given with spans, they are an error.
    labels (`list` of `str`, optional): score only entities of these types (on both sides).
    min_overlap (`float` in (0, 1], optional): a prediction overlaps a reference only if it covers at least
        this share of the reference's length (nervaluate's `min_overlap_percentage` / 100); default: any
        shared token or character.
    beta (`float`, default `1.0`): the beta of F-beta; the key is `f1` for 1, else `f{beta:g}`.
    zero_division (`float`, default `0.0`): the value of a ratio whose denominator is zero.
    per_type (`bool`, default `False`): add `{TYPE}_{scheme}_{measure}` keys.
    return_entities (`bool`, default `False`): add `entities`, one row per pair or unpaired entity.
    confusion (`bool`, default `False`): add `confusion`, the entity-type confusion matrix as a dict of dicts,
        `confusion[reference_type][predicted_type]`, with `"O"` for no entity (docs/scoring.md §7).
    label_list (`list` of `str` or `dict` of `int` to `str`, optional): maps integer ids to tags
        (`model.config.id2label` works as is).
    ignore_index (`int`, default `-100`): with integer ids, positions whose reference is this id are dropped
        from both sides (sub-word pieces and padding in a `Trainer` batch).
    bootstrap (`int`, default `0`): add confidence intervals of every scheme's precision, recall and F from this
        many bootstrap resamples of the sentences (BCa; 1,000 is usual; 0: none).
    confidence_level (`float`, default `0.95`): the intervals' confidence level, between 0 and 1.
    seed (`int`, default `0`): seed of the resampling, so that the same call gives the same intervals.
    Every option can also be given once to `evaluate.load(...)` and overridden in `compute`.

Returns:
    A flat `dict` of plain `int` and `float`: for each scheme in strict, exact, partial, type the keys
    `{scheme}_precision`, `_recall`, `_f1`, `_correct`, `_incorrect`, `_partial`, `_missed`, `_spurious`,
    `_possible`, `_actual`, `_macro_precision`, `_macro_recall`, `_macro_f1`. With `bootstrap`, also
    `{scheme}_precision_low`, `_precision_high`, `_recall_low`, `_recall_high`, `_f1_low` and `_f1_high`.
    Two systems are compared with `ner_semeval.compare_semeval` (paired bootstrap and approximate randomization).

Examples:
    >>> import evaluate
    >>> ner_semeval = evaluate.load("ner_semeval.py")  # "user/ner_semeval" once on the Hub
    >>> references = [["B-PER", "I-PER", "O", "B-LOC"]]
    >>> predictions = [["B-PER", "I-PER", "O", "B-ORG"]]
    >>> results = ner_semeval.compute(predictions=predictions, references=references)
    >>> results["strict_f1"], results["exact_f1"], results["strict_incorrect"]
    (0.5, 1.0, 1)

    Integer ids, as a token-classification model produces them, with -100 on sub-word pieces:
    >>> results = ner_semeval.compute(
    ...     predictions=[[1, 2, 0, 0]], references=[[1, 2, -100, 0]], label_list=["O", "B-PER", "I-PER"]
    ... )
    >>> results["strict_correct"], results["strict_possible"], results["strict_actual"]
    (1, 1, 1)

    Spans, with character offsets; the second prediction covers half of its reference:
    >>> results = ner_semeval.compute(
    ...     predictions=[[{"start": 0, "end": 3, "label": "PER"}, (8, 10, "LOC")]],
    ...     references=[[(0, 3, "PER"), (6, 10, "LOC")]],
    ... )
    >>> results["strict_correct"], results["partial_partial"], results["type_correct"]
    (1, 1, 2)
"""


__all__ = [
    "SCHEMES",
    "ConllError",
    "ConllSentence",
    "Counts",
    "InvalidInputError",
    "NerSemeval",
    "Options",
    "Scheme",
    "SentenceCounts",
    "Span",
    "Tally",
    "as_span",
    "compare_semeval",
    "compute_semeval",
    "decode",
    "encode",
    "get_scheme",
    "main",
    "pair",
    "read_conll",
    "scores",
    "tally_semeval",
]


# ---------------------------------------------------------------------------------------------------------
# 1. Tags and schemes (docs/scoring.md §1)
# ---------------------------------------------------------------------------------------------------------

OUTSIDE = "O"

# What a prefix letter does, whatever its spelling in a given scheme.
BEGIN = "begin"
INSIDE = "inside"
END = "end"
SINGLE = "single"

LENIENT = "lenient"
STRICT = "strict"
MODES = (LENIENT, STRICT)


@dataclass(frozen=True)
class Scheme:
    """A tagging scheme as data, in the manner of seqeval's ``scheme.py``.

    ``well_formed`` is the regular expression an entity's prefix letters must match in strict mode;
    ``well_formed_next_to_same_type`` is accepted too when the entity touches another entity of its type on
    ``touching_side`` (IOB1's ``B`` and IOE1's ``E`` exist only to separate two such entities).
    """

    name: str
    roles: Mapping[str, str]
    well_formed: str
    well_formed_next_to_same_type: str | None = None
    touching_side: str | None = None  # "before" or "after"

    @property
    def prefixes(self) -> tuple[str, ...]:
        return tuple(self.roles)


IOB2 = Scheme("IOB2", {"B": BEGIN, "I": INSIDE}, r"BI*")
IOB1 = Scheme("IOB1", {"B": BEGIN, "I": INSIDE}, r"I+", r"BI*", "before")
IOE2 = Scheme("IOE2", {"I": INSIDE, "E": END}, r"I*E")
IOE1 = Scheme("IOE1", {"I": INSIDE, "E": END}, r"I+", r"I*E", "after")
IOBES = Scheme("IOBES", {"B": BEGIN, "I": INSIDE, "E": END, "S": SINGLE}, r"S|BI*E")
BILOU = Scheme("BILOU", {"B": BEGIN, "I": INSIDE, "L": END, "U": SINGLE}, r"U|BI*L")
BMES = Scheme("BMES", {"B": BEGIN, "M": INSIDE, "E": END, "S": SINGLE}, r"S|BM*E")
IO = Scheme("IO", {"I": INSIDE}, r"I+")

SCHEMES: dict[str, Scheme] = {s.name: s for s in (IOB2, IOB1, IOE1, IOE2, IOBES, BILOU, BMES, IO)}
SCHEME_ALIASES = {"BIO": "IOB2", "BIOES": "IOBES"}
_ALL_PREFIXES = sorted({prefix for s in SCHEMES.values() for prefix in s.prefixes})


def get_scheme(scheme: str | Scheme) -> Scheme:
    """The `Scheme` named `scheme` (case-insensitive; BIO and BIOES are aliases)."""
    if isinstance(scheme, Scheme):
        return scheme
    if isinstance(scheme, str):
        name = scheme.upper()
        name = SCHEME_ALIASES.get(name, name)
        if name in SCHEMES:
            return SCHEMES[name]
    known = ", ".join([*SCHEMES, *SCHEME_ALIASES])
    raise ValueError(f"unknown scheme {scheme!r}; expected one of {known}")


@dataclass(frozen=True, order=True)
class Span:
    """An entity: the half-open token interval ``[start, end)`` and its type."""

    start: int
    end: int
    entity_type: str

    def overlap(self, other: Span) -> int:
        """How many tokens the two spans share."""
        return max(0, min(self.end, other.end) - max(self.start, other.start))

    def as_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "type": self.entity_type}


class InvalidInputError(ValueError):
    """A `ValueError` that also says where: ``side``, ``sentence`` and ``token`` (each may be None), or for span
    input ``entity``, the index of the entity in its sentence's list.

    ``suggested_scheme`` names the scheme whose letters the input uses, when the declared scheme lacks one: the
    message says ``pass scheme='IOBES'``, and the command line and the Space say it in their own terms."""

    def __init__(
        self,
        problem: str,
        side: str | None = None,
        sentence: int | None = None,
        token: int | None = None,
        suggested_scheme: str | None = None,
        entity: int | None = None,
    ) -> None:
        self.problem = problem
        self.side = side
        self.sentence = sentence
        self.token = token
        self.suggested_scheme = suggested_scheme
        self.entity = entity
        super().__init__(self._message())

    def at(
        self,
        side: str | None = None,
        sentence: int | None = None,
        token: int | None = None,
        entity: int | None = None,
    ) -> InvalidInputError:
        """The same problem, located more precisely."""
        return InvalidInputError(
            self.problem,
            side=self.side if side is None else side,
            sentence=self.sentence if sentence is None else sentence,
            token=self.token if token is None else token,
            suggested_scheme=self.suggested_scheme,
            entity=self.entity if entity is None else entity,
        )

    def hint(self, form: str = "scheme={!r}") -> str:
        """The problem with the suggested scheme written in `form` (``"--scheme {}"`` on the command line)."""
        if self.suggested_scheme is None:
            return self.problem
        return f"{self.problem}: {form.format(self.suggested_scheme)}"

    def _message(self) -> str:
        where = [
            label.format(value)
            for label, value in (
                ("{}", self.side),
                ("sentence {}", self.sentence),
                ("token {}", self.token),
                ("entity {}", self.entity),
            )
            if value is not None
        ]
        problem = self.hint("pass scheme={!r}")
        return f"{', '.join(where)}: {problem}" if where else problem


# The order in which schemes are suggested for a tag the declared scheme lacks: the common ones first.
_SUGGESTION_ORDER = (IOB2, IOBES, BILOU, BMES, IOE2, IOB1, IOE1, IO)


def _suggest_scheme(prefix: str, scheme: Scheme) -> Scheme:
    """The scheme to suggest for a `prefix` that `scheme` lacks: one that keeps the letters already in use
    (an S- tag in IOB2 data points to IOBES, an M- tag to BMES)."""
    owners = [s for s in _SUGGESTION_ORDER if prefix in s.roles]
    keeps_letters = [s for s in owners if set(scheme.roles) <= set(s.roles)]
    return (keeps_letters or owners)[0]


def parse_tag(tag: Any, scheme: Scheme = IOB2, suffix: bool = False) -> tuple[str, str] | None:
    """Split a tag into ``(prefix, entity_type)``; ``None`` for the outside tag ``O``.

    The type is everything after the first hyphen (before the last one with ``suffix=True``), so
    ``B-MUSIC-NAME`` has type ``MUSIC-NAME`` (docs/scoring.md §1). Raises `InvalidInputError` (a `ValueError`).
    """
    if tag == OUTSIDE:
        return None
    form = "TYPE-PREFIX" if suffix else "PREFIX-TYPE"
    expected = f"'O' or {form} with a prefix of {scheme.name} ({', '.join(scheme.prefixes)})"
    if not isinstance(tag, str):
        raise InvalidInputError(f"{_not_a_tag(tag)}: {expected}")
    if tag == OUTSIDE.lower():
        raise InvalidInputError("found tag 'o'; the outside tag is an uppercase 'O'")
    if suffix:
        entity_type, hyphen, prefix = tag.rpartition("-")
    else:
        prefix, hyphen, entity_type = tag.partition("-")
    if not hyphen:
        if tag in _ALL_PREFIXES:
            raise InvalidInputError(f"found tag {tag!r}, a prefix with no type; expected {expected}")
        raise InvalidInputError(f"found tag {tag!r}, which has no prefix; expected {expected}")
    if not entity_type:
        raise InvalidInputError(f"found tag {tag!r}, a prefix with no type; expected {expected}")
    if prefix == OUTSIDE:
        raise InvalidInputError(f"found tag {tag!r}; the outside tag 'O' takes no type, expected {expected}")
    if prefix not in scheme.roles:
        if prefix in _ALL_PREFIXES:
            owners = " or ".join(s.name for s in SCHEMES.values() if prefix in s.roles)
            raise InvalidInputError(
                f"found tag {tag!r}, whose prefix {prefix!r} is not part of scheme {scheme.name} "
                f"(expected {expected}); {prefix!r} belongs to {owners}",
                suggested_scheme=_suggest_scheme(prefix, scheme).name,
            )
        raise InvalidInputError(f"found tag {tag!r} with unknown prefix {prefix!r}; expected {expected}")
    return prefix, entity_type


def _not_a_tag(value: Any) -> str:
    """The problem with a value that is not a string where a tag belongs; an entity of span input says so."""
    found = f"found {_shown(value)} ({type(value).__name__})"
    if _value_form(value) == SPANS:
        return f"{found}, an entity, among tags (a batch holds tags or spans, not both); expected a string tag"
    return f"{found}; expected a string tag"


class ParsedTag(NamedTuple):
    """A tag other than O, taken apart: ``B-PER`` is prefix ``B``, role `BEGIN`, entity type ``PER``."""

    prefix: str
    role: str
    entity_type: str


class TagTable(dict):
    """tag -> `ParsedTag` (None for O) for one scheme and tag style, each distinct tag parsed by `parse_tag` the
    first time it is met; a bad tag raises `InvalidInputError` every time it is looked up."""

    def __init__(self, scheme: Scheme, suffix: bool) -> None:
        super().__init__()
        self.scheme = scheme
        self.suffix = suffix

    def __missing__(self, tag: Any) -> ParsedTag | None:
        parsed = parse_tag(tag, self.scheme, self.suffix)
        value = None if parsed is None else ParsedTag(parsed[0], self.scheme.roles[parsed[0]], parsed[1])
        self[tag] = value
        return value


# ---------------------------------------------------------------------------------------------------------
# 2. Decoding tags into spans, and encoding spans as tags (docs/scoring.md §2)
# ---------------------------------------------------------------------------------------------------------


def decode(tags: Sequence[str], scheme: str | Scheme = IOB2, mode: str = LENIENT, suffix: bool = False) -> list[Span]:
    """The entities of one tag sequence, in order (docs/scoring.md §2).

    Lenient mode follows conlleval: an entity begins at a B/S/U tag, at any tag after O or after an entity
    that ended (E/L/S/U), and at a change of type. Strict mode then drops every entity whose prefix letters
    are not well formed in the scheme. Raises `InvalidInputError` naming the token of a malformed tag.
    """
    options = Options.of(scheme=scheme, mode=mode, suffix=suffix)
    return _decode_tags(tags, options.mode, TagTable(options.scheme, options.suffix))


def _decode_tags(tags: Sequence[Any], mode: str, table: TagTable) -> list[Span]:
    """`decode` with checked options, the tags parsed through `table`."""
    parsed: list[ParsedTag | None] = []
    for position, tag in enumerate(tags):
        try:
            parsed.append(table[tag])
        except InvalidInputError as error:
            raise error.at(token=position) from None
        except TypeError:  # an unhashable value: let parse_tag explain it
            raise InvalidInputError(_not_a_tag(tag), token=position) from None

    spans: list[Span] = []
    start = None
    open_type = None
    for position, item in enumerate(parsed):
        if item is None:
            if start is not None:
                spans.append(Span(start, position, open_type))
                start = None
            continue
        if item.role in (BEGIN, SINGLE) or start is None or item.entity_type != open_type:
            if start is not None:
                spans.append(Span(start, position, open_type))
            start, open_type = position, item.entity_type
        if item.role in (END, SINGLE):
            spans.append(Span(start, position + 1, open_type))
            start = None
    if start is not None:
        spans.append(Span(start, len(parsed), open_type))
    if mode == LENIENT:
        return spans
    return [span for span in spans if _well_formed(span, parsed, table.scheme)]


def _well_formed(span: Span, parsed: Sequence[ParsedTag | None], scheme: Scheme) -> bool:
    letters = "".join(parsed[position].prefix for position in range(span.start, span.end))
    if re.fullmatch(scheme.well_formed, letters):
        return True
    if scheme.well_formed_next_to_same_type is None:
        return False
    neighbour = span.start - 1 if scheme.touching_side == "before" else span.end
    touching = 0 <= neighbour < len(parsed) and parsed[neighbour] is not None
    return (
        touching
        and parsed[neighbour].entity_type == span.entity_type
        and re.fullmatch(scheme.well_formed_next_to_same_type, letters) is not None
    )


def encode(spans: Iterable[Span], length: int, scheme: str | Scheme = IOB2, suffix: bool = False) -> list[str]:
    """The tags of `length` tokens holding `spans` (disjoint), written the canonical way in `scheme`.

    The inverse of `decode` in both modes: ``decode(encode(spans, n, s), s, mode) == sorted(spans)``.
    """
    scheme = get_scheme(scheme)
    letter = {role: prefix for prefix, role in scheme.roles.items()}
    tags = [OUTSIDE] * length
    ordered = sorted(spans)
    for index, span in enumerate(ordered):
        before = ordered[index - 1] if index else None
        after = ordered[index + 1] if index + 1 < len(ordered) else None
        touches_before = before is not None and before.end == span.start and before.entity_type == span.entity_type
        touches_after = after is not None and after.start == span.end and after.entity_type == span.entity_type
        size = span.end - span.start
        if scheme is IOB1:
            letters = ("B" if touches_before else "I") + "I" * (size - 1)
        elif scheme is IOE1:
            letters = "I" * (size - 1) + ("E" if touches_after else "I")
        elif scheme is IO:
            if touches_before:
                raise ValueError(f"IO cannot separate the touching {before} and {span}")
            letters = "I" * size
        elif SINGLE in letter and size == 1:
            letters = letter[SINGLE]
        else:
            first = letter.get(BEGIN, letter[INSIDE])
            last = letter.get(END, letter[INSIDE])
            letters = first + letter[INSIDE] * (size - 2) + last if size > 1 else first if BEGIN in letter else last
        for position, prefix in zip(range(span.start, span.end), letters):
            tags[position] = f"{span.entity_type}-{prefix}" if suffix else f"{prefix}-{span.entity_type}"
    return tags


# ---------------------------------------------------------------------------------------------------------
# 3. Pairing reference and predicted entities into scenarios (docs/scoring.md §3, §4)
# ---------------------------------------------------------------------------------------------------------

SCENARIOS = ("I", "II", "III", "IV", "V", "VI")


def scenario_of(reference: Span | None, prediction: Span | None) -> str:
    """The docs/scoring.md §4 scenario of a pair, or of an unpaired entity (the other side None)."""
    if reference is None:
        return "II"
    if prediction is None:
        return "III"
    same_type = reference.entity_type == prediction.entity_type
    if (reference.start, reference.end) == (prediction.start, prediction.end):
        return "I" if same_type else "IV"
    return "V" if same_type else "VI"


def pair(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None = None
) -> list[tuple[Span | None, Span | None]]:
    """Pair the entities of one sentence one-to-one (docs/scoring.md §3), in position order.

    Identical boundaries always pair. The rest pair among overlapping spans to maximise, in this order, the
    number of pairs, the number of same-type pairs and the shared extent; ties go to the lexicographically
    smallest sorted list of pairs. Unlike nervaluate's greedy first-come matching, this is exact. With
    `min_overlap`, a prediction overlaps a reference only if it covers at least that share of its length.

    When neither side has two entities that overlap (always so for tags), optimal pairings never cross and a
    dynamic programme linear in the number of entities solves it (`_pair_disjoint`). Nested, overlapping or
    repeated entities on a side make general bipartite components, each solved exactly as an assignment
    problem (`_pair_nested`).
    """
    if _disjoint(references) and _disjoint(predictions):
        rows = _pair_disjoint(references, predictions, min_overlap)
    else:
        rows = _pair_nested(references, predictions, min_overlap)
    rows.sort(key=_row_position)
    return rows


def _disjoint(spans: Sequence[Span]) -> bool:
    """Whether no two of `spans` share a position (identical duplicates share all of theirs)."""
    bounds = sorted((span.start, span.end) for span in spans)
    return all(end <= start for (_, end), (start, _) in pairwise(bounds))


def _overlaps(reference: Span, prediction: Span, min_overlap: float | None) -> bool:
    """Whether the two overlap (docs/scoring.md §3): they share a position, and with `min_overlap` the shared
    extent is at least that share of the reference's length. The share is the float quotient, as nervaluate
    computes it, so 0.1 admits 1 token of 10 (whose exact ratio lies just below the float 0.1)."""
    shared = reference.overlap(prediction)
    if min_overlap is None or not shared:
        return shared > 0
    return shared / (reference.end - reference.start) >= min_overlap


def _span_key(span: Span) -> tuple[int, int, str]:
    return span.start, span.end, span.entity_type


def _row_position(row: tuple[Span | None, Span | None]) -> tuple:
    # docs/scoring.md §7: smaller start first, rows with a reference first, then by the first entity's end; the
    # rest only orders rows that nested or repeated entities would otherwise leave tied.
    reference, prediction = row
    starts = [span.start for span in row if span is not None]
    first = reference if reference is not None else prediction
    paired = (
        () if prediction is None or reference is None else (prediction.start, prediction.end, prediction.entity_type)
    )
    return min(starts), reference is None, first.end, first.start, first.entity_type, not paired, paired


def _pair_disjoint(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None
) -> list[tuple[Span | None, Span | None]]:
    """`pair` for sides whose entities are disjoint, in any order."""
    by_bounds = {(p.start, p.end): p for p in predictions}
    rows: list[tuple[Span | None, Span | None]] = []
    left_references = []
    for reference in references:
        match = by_bounds.pop((reference.start, reference.end), None)
        if match is None:
            left_references.append(reference)
        else:
            rows.append((reference, match))
    left_predictions = sorted(by_bounds.values())
    left_references.sort()
    paired = _pair_overlapping(left_references, left_predictions, min_overlap)
    rows.extend(paired)
    taken_references = {id(r) for r, _ in paired}
    taken_predictions = {id(p) for _, p in paired}
    rows.extend((r, None) for r in left_references if id(r) not in taken_references)
    rows.extend((None, p) for p in left_predictions if id(p) not in taken_predictions)
    return rows


def _pair_overlapping(
    references: list[Span], predictions: list[Span], min_overlap: float | None = None
) -> list[tuple[Span, Span]]:
    # Overlap edges (i, j), sorted by i then j; j never decreases along the list (see docs/scoring.md §3). With
    # `min_overlap` some edges are left out, which keeps both properties: a subset of non-crossing edges does
    # not cross.
    edges: list[tuple[int, int]] = []
    first_open = 0
    for i, reference in enumerate(references):
        while first_open < len(predictions) and predictions[first_open].end <= reference.start:
            first_open += 1
        j = first_open
        while j < len(predictions) and predictions[j].start < reference.end:
            if min_overlap is None or _overlaps(reference, predictions[j], min_overlap):
                edges.append((i, j))
            j += 1
    if not edges:
        return []

    # One integer per edge orders (pairs, same-type pairs, shared tokens) lexicographically: each total is
    # below `base`, the number of tokens spanned plus one.
    base = max(s.end for s in (*references, *predictions)) + 1

    def weight(edge: tuple[int, int]) -> int:
        reference, prediction = references[edge[0]], predictions[edge[1]]
        same_type = reference.entity_type == prediction.entity_type
        return base * base + base * same_type + reference.overlap(prediction)

    # After edge k, the edges compatible with it (later reference and later prediction) form a suffix of the
    # list starting at follow[k]; best[k] is the best total of a pairing whose first edge is k.
    count = len(edges)
    follow = [count] * count
    cut = count
    for k in range(count - 1, -1, -1):
        i, j = edges[k]
        while cut > k + 1 and edges[cut - 1][0] > i and edges[cut - 1][1] > j:
            cut -= 1
        follow[k] = cut
    best = [0] * count
    best_from = [0] * (count + 1)  # best_from[k] = max(best[k:]), 0 for the empty pairing
    for k in range(count - 1, -1, -1):
        best[k] = weight(edges[k]) + best_from[follow[k]]
        best_from[k] = max(best[k], best_from[k + 1])

    # Reading left to right and taking the first edge that still reaches the optimum gives the
    # lexicographically smallest pairing among the optimal ones (docs/scoring.md §3 d).
    pairs = []
    target = best_from[0]
    k = 0
    while target > 0:
        while best[k] != target:
            k += 1
        i, j = edges[k]
        pairs.append((references[i], predictions[j]))
        target -= weight(edges[k])
        k = follow[k]
    return pairs


def _pair_nested(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None
) -> list[tuple[Span | None, Span | None]]:
    """`pair` for sides with nested, overlapping or repeated entities: the overlap graph is split into its
    connected components, and each is solved exactly (docs/scoring.md §3)."""
    edges = _overlap_edges(references, predictions, min_overlap)
    # Union-find over references 0..n-1 and predictions n..n+m-1.
    parent = list(range(len(references) + len(predictions)))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for i, j in edges:
        parent[root(i)] = root(len(references) + j)
    components: dict[int, list[tuple[int, int]]] = {}
    for i, j in edges:
        components.setdefault(root(i), []).append((i, j))
    # Rule (d) compares entities by (start, end, type): rank each side once, identical entities alike.
    ranks = [_dense_ranks(side) for side in (references, predictions)]
    pairs = [
        edge for component in components.values() for edge in _best_pairs(references, predictions, component, ranks)
    ]
    taken_references = {i for i, _ in pairs}
    taken_predictions = {j for _, j in pairs}
    rows: list[tuple[Span | None, Span | None]] = [(references[i], predictions[j]) for i, j in pairs]
    rows.extend((r, None) for i, r in enumerate(references) if i not in taken_references)
    rows.extend((None, p) for j, p in enumerate(predictions) if j not in taken_predictions)
    return rows


def _dense_ranks(spans: Sequence[Span]) -> list[int]:
    """The rank of each span by (start, end, type), equal for identical spans."""
    keys = sorted(set(map(_span_key, spans)))
    rank = {key: index for index, key in enumerate(keys)}
    return [rank[_span_key(span)] for span in spans]


def _overlap_edges(
    references: Sequence[Span], predictions: Sequence[Span], min_overlap: float | None
) -> list[tuple[int, int]]:
    """(reference index, prediction index) of every overlapping pair, found by one sweep over the starts: each
    entity meets the entities of the other side still open where it starts, so the time is O(n log n) plus the
    number of edges, however deeply the entities nest."""
    sides = (references, predictions)
    order = sorted((span.start, side, index) for side, spans in enumerate(sides) for index, span in enumerate(spans))
    open_spans: tuple[list, list] = ([], [])  # per side, a heap of (end, index) of the entities begun so far
    edges = []
    for start, side, index in order:
        other = open_spans[1 - side]
        while other and other[0][0] <= start:
            heapq.heappop(other)
        # Whatever is left on the other side began at or before `start` and ends after it.
        for _, other_index in other:
            i, j = (index, other_index) if side == 0 else (other_index, index)
            if min_overlap is None or _overlaps(references[i], predictions[j], min_overlap):
                edges.append((i, j))
        heapq.heappush(open_spans[side], (sides[side][index].end, index))
    return edges


def _best_pairs(
    references: Sequence[Span],
    predictions: Sequence[Span],
    edges: list[tuple[int, int]],
    ranks: list[list[int]] | None = None,
) -> list[tuple[int, int]]:
    """The docs/scoring.md §3 pairing of one connected component of the overlap graph, as edges (i, j).

    Each edge gets an integer weight whose digits, from the most significant, count: a pair with identical
    boundaries and type, a pair with identical boundaries, a pair, a pair of one type, the shared extent. Each
    digit's total over a pairing is below its radix, so a pairing of largest total weight is a best one by rule
    1, then (a), (b), (c). Rule (d) is `_rule_d`'s. `ranks` are `_dense_ranks` of both sides, computed here
    when not given."""
    if len(edges) == 1:
        return edges
    reference_indices = {i for i, _ in edges}
    radix = min(len(reference_indices), len({j for _, j in edges})) + 1
    extent_radix = sum(references[i].end - references[i].start for i in reference_indices) + 1
    digits: dict[tuple[int, int], int] = {}
    for i, j in edges:
        reference, prediction = references[i], predictions[j]
        same_bounds = (reference.start, reference.end) == (prediction.start, prediction.end)
        same_type = reference.entity_type == prediction.entity_type
        tiers = (((same_bounds and same_type) * radix + same_bounds) * radix + 1) * radix + same_type
        digits[i, j] = tiers * extent_radix + reference.overlap(prediction)
    reference_rank, prediction_rank = ranks or (_dense_ranks(references), _dense_ranks(predictions))
    ranked = sorted(edges, key=lambda edge: (reference_rank[edge[0]], prediction_rank[edge[1]], edge))
    if radix == 2:  # one entity on a side: one pair at most, the heaviest edge, the first of equals
        return [max(ranked, key=digits.__getitem__)]
    return _rule_d(digits, {edge: index for index, edge in enumerate(ranked)})


# Rule (d) gives this many edges a bit of their own at a time (`_rule_d`).
_BLOCK_EDGES = 64


def _rule_d(
    weights: Mapping[tuple[int, int], int], rank: Mapping[tuple[int, int], int], block_size: int = 0
) -> list[tuple[int, int]]:
    """Of the matchings of largest total `weights` (positive integers), the one rule (d) prefers: the one whose
    edges, sorted by `rank` (0 for the edge of smallest (reference start, end, type, prediction start, end,
    type)), form the smallest list.

    Below the weights each edge gets a bit of its own, the highest for the smallest rank. Matchings equal on the
    weights have as many pairs, and of two of them the larger bit sum is the one that holds the smallest edge
    not in both: the smaller list. No two matchings have the same bits, so the answer is unique.

    A bit per edge makes weights as long as the graph has edges, and a long weight costs in every step, so the
    bits go a block at a time (`block_size`, at first `_BLOCK_EDGES`), the smallest ranks first. The matchings
    best by the weights and the first block's bits all hold the same edges of the block, the ones the matching
    found holds: those are taken, the other edges of the block dropped. What remains to choose is among the
    edges whose potentials add up to their weight ("tight") that meet no taken edge, pairing every entity of
    non-zero potential (the complementary slackness of the matching linear programme): each connected group of
    those edges goes on in the same way, with a weight that counts the entities of non-zero potential it pairs
    and the next block's bits. An entity around a whole document ties all the rest into one group until a block
    holds the edge it takes; while a group keeps more than half the edges its blocks double, so that takes a
    few rounds, not one per block."""
    block_size = block_size or _BLOCK_EDGES
    ranked = sorted(weights, key=rank.__getitem__)
    block = ranked[:block_size]
    staged = _with_bits(weights, block)
    matching, row_potential, column_potential = _max_weight_matching(staged)
    if len(ranked) <= block_size:
        return matching
    in_matching = set(matching)
    taken = [edge for edge in block if edge in in_matching]
    taken_rows = {i for i, _ in taken}
    taken_columns = {j for _, j in taken}
    tight = [
        (i, j)
        for i, j in ranked[block_size:]
        if i not in taken_rows
        and j not in taken_columns
        and row_potential[i] - column_potential.get(j, 0) == staged[i, j]
    ]
    must_pair = {("r", i) for i, potential in row_potential.items() if potential > 0}
    must_pair |= {("p", j) for j, potential in column_potential.items() if potential < 0}
    pairs = taken
    for group in _connected(_usable(tight, in_matching, must_pair)):
        if len(group) == 1:  # a tight edge has an endpoint that must pair, and nothing else to pair with
            pairs.extend(group)
            continue
        coverage = {(i, j): (("r", i) in must_pair) + (("p", j) in must_pair) for i, j in group}
        pairs.extend(_rule_d(coverage, rank, 2 * block_size if 2 * len(group) > len(ranked) else _BLOCK_EDGES))
    return pairs


def _usable(
    edges: list[tuple[int, int]], matched: set[tuple[int, int]], must_pair: set[tuple[str, int]]
) -> list[tuple[int, int]]:
    """The edges (reference index, prediction index) that some matching among `edges` pairing every entity of
    `must_pair` holds, given one such matching (the edges of `edges` in `matched`).

    Another such matching differs from it by alternating cycles and paths, a path running from an entity the
    given matching leaves unpaired, or one that need not pair, to another. In the directed graph with an arc
    from reference to prediction for each edge outside the matching, from prediction to reference for each
    edge in it, and a node Z with arcs to where such paths may start and from where they may end, an edge lies
    on one of them exactly when its two ends are in one strongly connected component (Tarjan's algorithm, in
    time linear in the edges). Dropping the rest keeps an entity that ties with everything (an entity around a
    whole document) from holding its group together through edges no best pairing can use."""
    successors: dict[tuple[str, int], list[tuple[str, int]]] = {}
    paired: set[tuple[str, int]] = set()
    for i, j in edges:
        if (i, j) in matched:
            successors.setdefault(("p", j), []).append(("r", i))
            paired.update((("r", i), ("p", j)))
        else:
            successors.setdefault(("r", i), []).append(("p", j))
    ends = {node for i, j in edges for node in (("r", i), ("p", j))}
    z = ("z", 0)
    for node in ends:
        is_reference = node[0] == "r"
        may_leave = node in paired and node not in must_pair  # it may give its partner up
        if (is_reference and node not in paired) or (not is_reference and may_leave):
            successors.setdefault(z, []).append(node)  # a path may start here
        if (not is_reference and node not in paired) or (is_reference and may_leave):
            successors.setdefault(node, []).append(z)  # ... and end here
    component = _strong_components([z, *ends], successors)
    return [(i, j) for i, j in edges if (i, j) in matched or component[("r", i)] == component[("p", j)]]


def _strong_components(nodes: list, successors: Mapping[Any, list]) -> dict[Any, int]:
    """The strongly connected component of each node, named by a number (Tarjan's algorithm, without recursion,
    which a long alternating path would exceed)."""
    index: dict[Any, int] = {}
    low: dict[Any, int] = {}
    component: dict[Any, int] = {}
    stack: list = []
    on_stack: set = set()
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(successors.get(start, ())))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, arcs = work[-1]
            advanced = False
            for successor in arcs:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(successors.get(successor, ()))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:  # the root of a component: pop it off
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component[member] = index[node]
                    if member == node:
                        break
    return component


def _with_bits(weights: Mapping[tuple[int, int], int], ranked: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """`weights` shifted up by one bit per edge of `ranked`, each of those with its own bit set, the highest for
    the first."""
    count = len(ranked)
    shifted = {edge: weight << count for edge, weight in weights.items()}
    for index, edge in enumerate(ranked):
        shifted[edge] |= 1 << (count - 1 - index)
    return shifted


def _connected(edges: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The edges of a bipartite graph (reference index, prediction index) grouped by connected component."""
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def root(node: tuple[str, int]) -> tuple[str, int]:
        parent.setdefault(node, node)
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for i, j in edges:
        parent[root(("r", i))] = root(("p", j))
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for i, j in edges:
        groups.setdefault(root(("r", i)), []).append((i, j))
    return list(groups.values())


# Node kinds of `_max_weight_matching`'s search.
_ROW, _COLUMN, _UNPAIRED = 0, 1, 2


def _max_weight_matching(
    weights: Mapping[tuple[int, int], int],
) -> tuple[list[tuple[int, int]], dict[int, int], dict[int, int]]:
    """The matching of largest total weight of a bipartite graph given as {(row, column): weight > 0}, and the
    potentials that prove it best: every row's is >= 0, every column's <= 0 (0 where not given), and
    row - column >= weight for every edge, with equality on the matching's edges (an optimal dual).

    The Hungarian method in its sparse form (successive shortest augmenting paths, Dijkstra on costs made
    non-negative by potentials, exact on integers of any size): rows join one at a time, and each row may
    also stay unpaired, which costs 0 (its own "unpaired" node). After each row the matching is the best of
    the rows so far. Each search explores only what alternating paths reach from the new row within the
    length of the shortest augmenting path, so rows with few edges go first and a row overlapping everything
    (a nested entity around a whole sentence) comes last: components of entities nested a few levels deep
    cost close to their size, not its cube."""
    adjacency: dict[int, list[tuple[int, int]]] = {}
    for (row, column), weight in weights.items():
        adjacency.setdefault(row, []).append((column, -weight))  # costs, to be minimised
    # Potentials make every cost non-negative. A node that ends a path (a free column, or a row's "unpaired")
    # keeps potential 0 until it is taken, so that the distances to all of them compare.
    row_potential: dict[int, int] = {}
    column_potential: dict[int, int] = {}
    column_of: dict[int, int | None] = {}
    row_of: dict[int, int] = {}
    for root in sorted(adjacency, key=lambda row: (len(adjacency[row]), row)):
        # A potential for the new row that keeps every cost from it non-negative, "unpaired" (0) included.
        row_potential[root] = max(0, *(column_potential.get(column, 0) - cost for column, cost in adjacency[root]))
        column_of[root] = None
        settled_rows: dict[int, int] = {}
        settled_columns: dict[int, int] = {}
        tentative: dict[int, int] = {}
        reached_from: dict[int, int] = {}
        heap = [(0, 0, _ROW, root)]
        pushed = 1
        while True:
            distance, _, kind, node = heapq.heappop(heap)
            if kind == _UNPAIRED:
                break  # the cheapest way on is that `node` gives up its column and stays unpaired
            if kind == _COLUMN:
                if node in settled_columns:
                    continue
                settled_columns[node] = distance
                owner = row_of.get(node)
                if owner is None:
                    break  # a free column: the augmenting path ends here
                # Along the pair owner-node backwards; its reduced cost is 0.
                cost = next(c for column, c in adjacency[owner] if column == node)
                reduced = -cost + column_potential.get(node, 0) - row_potential[owner]
                heapq.heappush(heap, (distance + reduced, pushed, _ROW, owner))
                pushed += 1
                continue
            if node in settled_rows:
                continue
            settled_rows[node] = distance
            potential = row_potential[node]
            heapq.heappush(heap, (distance + potential, pushed, _UNPAIRED, node))
            pushed += 1
            for column, cost in adjacency[node]:
                if column in settled_columns or column_of[node] == column:
                    continue
                candidate = distance + cost + potential - column_potential.get(column, 0)
                if candidate < tentative.get(column, candidate + 1):
                    tentative[column] = candidate
                    reached_from[column] = node
                    heapq.heappush(heap, (candidate, pushed, _COLUMN, column))
                    pushed += 1
        # Potentials: settled nodes move by their distance less the path's length, which keeps every reduced
        # cost non-negative (the others stay: a common shift of all potentials changes no reduced cost).
        for row, settled in settled_rows.items():
            row_potential[row] += settled - distance
        for column, settled in settled_columns.items():
            column_potential[column] = column_potential.get(column, 0) + settled - distance
        # Flip the path: the end takes its column (or stays unpaired), each row before it takes the column that
        # the next one gave up, back to the root.
        if kind == _UNPAIRED:
            column, column_of[node] = column_of[node], None
        else:
            column = node
        while column is not None:
            row = reached_from[column]
            column_of[row], column = column, column_of[row]
            row_of[column_of[row]] = row
    pairs = sorted((row, column) for row, column in column_of.items() if column is not None)
    return pairs, row_potential, column_potential


# ---------------------------------------------------------------------------------------------------------
# 4. Counts, the tally and scores (docs/scoring.md §4, §5, §7)
# ---------------------------------------------------------------------------------------------------------

COR, INC, PAR, MIS, SPU = "COR", "INC", "PAR", "MIS", "SPU"
EVALUATION_SCHEMES = ("strict", "exact", "partial", "type")

# docs/scoring.md §4: the outcome of each scenario under strict, exact, partial and type.
OUTCOMES: dict[str, dict[str, str]] = {
    "I": {"strict": COR, "exact": COR, "partial": COR, "type": COR},
    "II": {"strict": SPU, "exact": SPU, "partial": SPU, "type": SPU},
    "III": {"strict": MIS, "exact": MIS, "partial": MIS, "type": MIS},
    "IV": {"strict": INC, "exact": COR, "partial": COR, "type": INC},
    "V": {"strict": INC, "exact": INC, "partial": PAR, "type": COR},
    "VI": {"strict": INC, "exact": INC, "partial": PAR, "type": INC},
}
_FIELD = {COR: "correct", INC: "incorrect", PAR: "partial", MIS: "missed", SPU: "spurious"}
_FIELD_INDEX = {outcome: index for index, outcome in enumerate(_FIELD)}  # in the order of Counts' fields


@dataclass(frozen=True)
class Counts:
    """MUC counts under one scheme, read off a `Tally` (which is what adds); POS and ACT are derived."""

    correct: int = 0
    incorrect: int = 0
    partial: int = 0
    missed: int = 0
    spurious: int = 0

    @property
    def possible(self) -> int:
        return self.correct + self.incorrect + self.partial + self.missed

    @property
    def actual(self) -> int:
        return self.correct + self.incorrect + self.partial + self.spurious


# (scenario, reference type or None, predicted type or None): what a `Tally` counts.
Cell = tuple[str, str | None, str | None]
# (sentence, reference entity or None, predicted entity or None): a row of the readable path.
Row = tuple[int, Span | None, Span | None]


@dataclass(frozen=True)
class Tally:
    """How many entity pairs and unpaired entities fell into each (scenario, reference type, predicted type).

    This is the whole additive statistic: batches, processes and sentences sum, and every score of every
    scheme, overall or per type, is derived from it at the end (sacrebleu's pattern).
    """

    cells: Mapping[Cell, int] = dataclasses.field(default_factory=dict)

    def __add__(self, other: Tally) -> Tally:
        cells = Counter(self.cells)
        cells.update(other.cells)
        return Tally(dict(cells))

    @classmethod
    def of_rows(cls, rows: Iterable[tuple[Span | None, Span | None]]) -> Tally:
        cells = Counter((scenario_of(r, p), r and r.entity_type, p and p.entity_type) for r, p in rows)
        return cls(dict(cells))

    @property
    def entity_types(self) -> list[str]:
        """The types seen on either side, sorted."""
        return sorted({t for _, r, p in self.cells for t in (r, p) if t is not None})

    def counts(self, scheme: str) -> Counts:
        """Counts over all types under `scheme`: POS is the number of reference entities, ACT of predicted."""
        totals = [0] * len(_FIELD)
        for (scenario, _, _), number in self.cells.items():
            totals[_FIELD_INDEX[OUTCOMES[scenario][scheme]]] += number
        return Counts(*totals)

    def counts_by_type(self, scheme: str) -> tuple[dict[str, Counts], dict[str, Counts]]:
        """Two-sided per-type counts under `scheme` (docs/scoring.md §5): the outcomes of the reference entities of each
        type (their recall side: COR/INC/PAR/MIS) and of the predicted entities of each type (their precision
        side: COR/INC/PAR/SPU). Unlike nervaluate, a PER reference predicted as LOC stays one INC on each side
        instead of becoming a PER miss and a LOC spurious, so the sides sum to the overall POS and ACT."""
        reference_side, prediction_side = self._totals_by_type(scheme)
        return (
            {entity_type: Counts(*totals) for entity_type, totals in reference_side.items()},
            {entity_type: Counts(*totals) for entity_type, totals in prediction_side.items()},
        )

    def _totals_by_type(self, scheme: str) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        # `counts_by_type` as plain integer lists in the order of Counts' fields: with thousands of types, a
        # Counts per type would cost more than all the rest of `scores`.
        reference_side: dict[str, list[int]] = {}
        prediction_side: dict[str, list[int]] = {}
        for (scenario, reference_type, predicted_type), number in self.cells.items():
            index = _FIELD_INDEX[OUTCOMES[scenario][scheme]]
            if reference_type is not None:
                reference_side.setdefault(reference_type, [0] * len(_FIELD))[index] += number
            if predicted_type is not None:
                prediction_side.setdefault(predicted_type, [0] * len(_FIELD))[index] += number
        return reference_side, prediction_side


def f_key(beta: float) -> str:
    """The name of the F measure: ``f1`` for beta 1, else ``f{beta:g}`` (``f0.5``, ``f2``)."""
    return "f1" if beta == 1 else f"f{beta:g}"


# Scores are exact fractions until they leave `scores`, so the worked example's 0.2 is 0.2, not
# 0.20000000000000004, and every key is the correctly rounded value of its formula (docs/scoring.md §4).


def scores(tally: Tally, options: Options | None = None) -> dict[str, int | float]:
    """The flat docs/scoring.md §7 dict of a tally, in plain `int` and `float`.

    Macro averages are unweighted means over the types seen on either side, or over `labels` when given
    (a label with no entity then scores as a type with no entity on either side)."""
    options = Options() if options is None else options
    f_name = options.f_name
    entity_types = list(dict.fromkeys(options.labels)) if options.labels is not None else tally.entity_types
    ratios = _Ratios(options)
    no_entity = [0] * len(_FIELD)
    result: dict[str, int | float] = {}
    type_results: dict[str, int | float] = {}
    for scheme in EVALUATION_SCHEMES:
        counts = tally.counts(scheme)
        precision, recall, f = ratios.scores(counts.correct, counts.partial, counts.actual, counts.possible)
        result[f"{scheme}_precision"] = precision[0] / precision[1]
        result[f"{scheme}_recall"] = recall[0] / recall[1]
        result[f"{scheme}_{f_name}"] = f[0] / f[1]
        for field in _FIELD.values():
            result[f"{scheme}_{field}"] = getattr(counts, field)
        result[f"{scheme}_possible"] = counts.possible
        result[f"{scheme}_actual"] = counts.actual

        reference_side, prediction_side = tally._totals_by_type(scheme)
        # The macro sums, exact: numerators summed per denominator, since thousands of types share a few.
        macro: list[dict[int, int]] = [{}, {}, {}]
        for entity_type in entity_types:
            correct, _, partial, missed, _ = references = reference_side.get(entity_type, no_entity)
            possible = correct + references[1] + partial + missed
            predictions = prediction_side.get(entity_type, no_entity)
            actual = predictions[0] + predictions[1] + predictions[2] + predictions[4]
            type_precision = ratios.share(2 * predictions[0] + predictions[2], 2 * actual)
            type_recall = ratios.share(2 * correct + partial, 2 * possible)
            type_f = ratios.f(type_precision, type_recall)
            for sums, (numerator, denominator) in zip(macro, (type_precision, type_recall, type_f)):
                sums[denominator] = sums.get(denominator, 0) + numerator
            if options.per_type:
                key = f"{entity_type}_{scheme}"
                for name, (numerator, denominator) in zip(
                    ("precision", "recall", f_name), (type_precision, type_recall, type_f)
                ):
                    type_results[f"{key}_{name}"] = numerator / denominator
                type_results[f"{key}_possible"] = possible
                type_results[f"{key}_actual"] = actual
        for name, sums in zip(("precision", "recall", f_name), macro):
            total = sum((Fraction(numerator, denominator) for denominator, numerator in sums.items()), Fraction(0))
            mean = total / len(entity_types) if entity_types else Fraction(options.zero_division)
            result[f"{scheme}_macro_{name}"] = float(mean)
    result.update(type_results)
    if options.confusion:
        result["confusion"] = confusion_matrix(tally, entity_types)
    return result


class _Ratios:
    """Precision, recall and F (docs/scoring.md §4) as exact integer ratios (numerator, denominator), reduced to
    a float once by a correctly rounded integer division: exact like `Fraction`, without building a Fraction
    per type and scheme.

    As in scikit-learn, `zero_division` enters only through P and R: F is `zero_division` when neither side
    has an entity, and 0 for a system whose entities are all wrong, whatever `zero_division` says."""

    def __init__(self, options: Options) -> None:
        zero_division = Fraction(options.zero_division)
        self.zero_division = (zero_division.numerator, zero_division.denominator)
        beta2 = Fraction(options.beta) ** 2
        self.beta2 = (beta2.numerator, beta2.denominator)

    def share(self, credit: int, total: int) -> tuple[int, int]:
        """credit / total; `zero_division` when total is 0."""
        return (credit, total) if total else self.zero_division

    def f(self, precision: tuple[int, int], recall: tuple[int, int]) -> tuple[int, int]:
        """(1 + β²)·P·R / (β²·P + R), 0 where β²·P + R = 0: with P = a/b, R = c/d and β² = n/m, that is
        (m + n)·a·c / (n·a·d + m·c·b)."""
        (a, b), (c, d), (n, m) = precision, recall, self.beta2
        denominator = n * a * d + m * c * b
        return ((m + n) * a * c, denominator) if denominator else (0, 1)

    def scores(self, correct: int, partial: int, actual: int, possible: int) -> tuple[tuple[int, int], ...]:
        precision = self.share(2 * correct + partial, 2 * actual)
        recall = self.share(2 * correct + partial, 2 * possible)
        return precision, recall, self.f(precision, recall)


def confusion_matrix(tally: Tally, entity_types: Sequence[str]) -> dict[str, dict[str, int]]:
    """The entity-type confusion matrix of a tally (docs/scoring.md §7): ``matrix[reference][predicted]`` counts
    the pairs of the pairing by their two types, an unpaired reference at ``[type]["O"]`` and an unpaired
    prediction at ``["O"][type]``. A full square over `entity_types` (sorted) and ``"O"`` last, zeros included,
    so that ``pandas.DataFrame(matrix).T`` shows it with references as rows."""
    names = [*sorted(entity_types), OUTSIDE]
    matrix = {reference: dict.fromkeys(names, 0) for reference in names}
    for (_, reference_type, predicted_type), number in tally.cells.items():
        matrix[reference_type or OUTSIDE][predicted_type or OUTSIDE] += number
    return matrix


def entity_rows(rows: Iterable[Row]) -> list[dict[str, Any]]:
    """The `entities` output: one JSON-ready dict per pair or unpaired entity (docs/scoring.md §7)."""
    result = []
    for sentence, reference, prediction in rows:
        scenario = scenario_of(reference, prediction)
        result.append(
            {
                "sentence": sentence,
                "reference": reference.as_dict() if reference is not None else None,
                "prediction": prediction.as_dict() if prediction is not None else None,
                "scenario": scenario,
                **OUTCOMES[scenario],
            }
        )
    return result


# ---------------------------------------------------------------------------------------------------------
# 5. Options and input checks
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """Every option of `compute_semeval`, checked once by `Options.of` and passed down as one object.

    A new option is a field here, its check in `of`, its line in `_KWARGS_DESCRIPTION` and the README, and the
    code that reads it. `NerSemeval` takes its defaults from here too."""

    scheme: Scheme = IOB2
    mode: str = LENIENT
    suffix: bool = False
    labels: tuple[str, ...] | None = None
    min_overlap: float | None = None  # None: any shared token or character counts as overlap
    beta: float = 1.0
    zero_division: float = 0.0
    per_type: bool = False
    return_entities: bool = False
    confusion: bool = False
    label_list: Mapping[int, str] | None = None  # id -> tag, whatever form it was given in
    ignore_index: int = -100
    bootstrap: int = 0  # resamples for the confidence intervals (docs/scoring.md §9); 0: none
    confidence_level: float = 0.95
    seed: int = 0  # of the resampling, so that the same call gives the same intervals

    @classmethod
    def of(cls, **options: Any) -> Options:
        """The options checked, each in one place; a `ValueError` names the first bad one and what it takes."""
        unknown = sorted(set(options) - set(OPTION_NAMES))
        if unknown:
            raise ValueError(f"unknown option(s) {unknown}; expected some of {sorted(OPTION_NAMES)}")
        given = {field.name: field.default for field in dataclasses.fields(cls)} | options
        scheme = get_scheme(given["scheme"])
        suffix = _check_flag("suffix", given["suffix"])
        return cls(
            scheme=scheme,
            mode=_check_mode(given["mode"]),
            suffix=suffix,
            labels=_check_labels(given["labels"], scheme, suffix),
            min_overlap=_check_min_overlap(given["min_overlap"]),
            beta=_check_number("beta", given["beta"], "a finite number >= 0", math.inf),
            zero_division=_check_number("zero_division", given["zero_division"], "a number from 0 to 1", 1.0),
            per_type=_check_flag("per_type", given["per_type"]),
            return_entities=_check_flag("return_entities", given["return_entities"]),
            confusion=_check_flag("confusion", given["confusion"]),
            label_list=_check_label_list(given["label_list"]),
            ignore_index=_check_ignore_index(given["ignore_index"]),
            bootstrap=_check_resamples("bootstrap", given["bootstrap"], 0),
            confidence_level=_check_confidence_level(given["confidence_level"]),
            seed=_check_seed(given["seed"]),
        )

    @property
    def f_name(self) -> str:
        """The F measure's key: ``f1`` for beta 1, else ``f{beta:g}``."""
        return f_key(self.beta)


OPTION_NAMES = tuple(field.name for field in dataclasses.fields(Options))


def _check_mode(mode: Any) -> str:
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(MODES)}")
    return mode


def _check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, found {value!r}")
    return bool(value)


def _check_number(name: str, value: Any, expected: str, high: float) -> float:
    """Any real number (int, float, Fraction, numpy scalar), as the float the F key and the scores use."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be {expected}, found {value!r} ({type(value).__name__})")
    try:
        number = float(value)
    except OverflowError:  # an integer no float can hold
        number = math.inf
    if not 0 <= number <= high or math.isinf(number):
        raise ValueError(f"{name} must be {expected}, found {value!r}")
    return number


def _check_labels(labels: Any, scheme: Scheme, suffix: bool) -> tuple[str, ...] | None:
    expected = "a list of entity types such as ['PER', 'LOC'], or None for every type"
    if labels is None:
        return None
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
        raise ValueError(f"labels must be {expected}, found {labels!r}")
    labels = tuple(labels)
    if not labels:
        raise ValueError(f"labels=[] keeps no entity type, so every count would be zero; labels must be {expected}")
    for label in labels:
        if not isinstance(label, str) or not label:
            raise ValueError(f"labels must be {expected}, found {label!r} in {list(labels)!r}")
        prefix, hyphen, entity_type = label.rpartition("-")[::-1] if suffix else label.partition("-")
        if hyphen and entity_type and prefix in scheme.roles:
            raise ValueError(
                f"labels holds the tag {label!r}; labels are entity types: pass {entity_type!r} instead of {label!r}"
            )
    return labels


def _check_min_overlap(min_overlap: Any) -> float | None:
    """None (any overlap), or a real number in (0, 1]: the share of the reference entity's length that a
    prediction must cover to overlap it (docs/scoring.md §3)."""
    if min_overlap is None:
        return None
    expected = "a number greater than 0 and at most 1 (the share of the reference entity covered), or None"
    number = _check_number("min_overlap", min_overlap, expected, 1.0)
    if number == 0:
        raise ValueError(f"min_overlap must be {expected}, found {min_overlap!r}; None means any overlap")
    return number


def _check_label_list(label_list: Any) -> dict[int, str] | None:
    """`label_list` as a dict id -> tag: from a list of tags, or a dict whose keys are ids (int, or the str of an
    int, as after a JSON round trip of `model.config.id2label`)."""
    expected = "a list of tags, or a dict id -> tag such as model.config.id2label"
    if label_list is None:
        return None
    if isinstance(label_list, Mapping):
        tags: dict[int, str] = {}
        keys: dict[int, Any] = {}
        for key, tag in label_list.items():
            if _is_id(key) or (isinstance(key, str) and re.fullmatch(r"-?[0-9]+", key)):
                label_id = int(key)
            else:
                raise ValueError(
                    f"label_list keys must be integer ids (or their strings, as in a JSON config), found {key!r}"
                )
            if label_id in keys:
                raise ValueError(f"label_list has two keys for id {label_id}: {keys[label_id]!r} and {key!r}")
            keys[label_id] = key
            tags[label_id] = tag
    elif isinstance(label_list, (str, bytes)) or not isinstance(label_list, Iterable):
        raise ValueError(f"label_list must be {expected}, found {label_list!r}")
    else:
        tags = dict(enumerate(label_list))
    for label_id, tag in tags.items():
        if not isinstance(tag, str):
            raise ValueError(f"label_list maps id {label_id} to {tag!r}; expected a tag string such as 'B-PER'")
    return tags


def _check_ignore_index(ignore_index: Any) -> int:
    if not _is_id(ignore_index):
        raise ValueError(f"ignore_index must be an integer id such as -100, found {ignore_index!r}")
    return int(ignore_index)


# More resamples than this add nothing an interval or a p-value can show, and would take minutes.
MAX_RESAMPLES = 1_000_000


def _check_resamples(name: str, value: Any, low: int) -> int:
    if not _is_id(value) or not low <= value <= MAX_RESAMPLES:
        raise ValueError(f"{name} must be a whole number of resamples from {low} to {MAX_RESAMPLES:,}, found {value!r}")
    return int(value)


def _check_confidence_level(value: Any) -> float:
    expected = "a number between 0 and 1, such as 0.95"
    level = _check_number("confidence_level", value, expected, 1.0)
    if not 0 < level < 1:
        raise ValueError(f"confidence_level must be {expected} (0 and 1 excluded), found {value!r}")
    return level


def _check_seed(value: Any) -> int:
    if not _is_id(value) or value < 0:
        raise ValueError(f"seed must be a whole number >= 0 (numpy's random generator takes no other), found {value!r}")
    return int(value)


def _is_id(value: Any) -> bool:
    """An integer label id: a Python or numpy integer, not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _first_value(batch: list[list]) -> Any:
    return next((row[0] for row in batch if len(row)), None)


# The three forms of a batch (docs/scoring.md §1): string tags, integer ids with label_list, or spans.
TAGS, IDS, SPANS = "tags", "ids", "spans"
# Where a span dict holds its type, the first present wins: ours, nervaluate's, and the key of the transformers
# token-classification pipeline's grouped output (aggregation_strategy other than "none").
TYPE_KEYS = ("type", "label", "entity_group")


def _value_form(value: Any) -> str:
    """The form of a batch whose first value is `value`: a dict, a `Span` or a tuple or list of three (start,
    end, type) is an entity; what is neither an entity nor an id reads as a (bad) tag."""
    if isinstance(value, (Mapping, Span)) or (isinstance(value, (tuple, list)) and len(value) == 3):
        return SPANS
    return IDS if _is_id(value) else TAGS


def _batch_form(predictions: list[list], references: list[list]) -> str | None:
    """TAGS, IDS or SPANS, judged by the first value of each side (for tags against ids, the references' first);
    None when neither side holds a value. A side with no entity at all takes the other side's form; spans
    against tags or ids are an error."""
    value = _first_value(references)
    reference_form = None if value is None else _value_form(value)
    value = _first_value(predictions)
    predicted_form = None if value is None else _value_form(value)
    forms = {reference_form, predicted_form} - {None}
    if SPANS in forms and len(forms) > 1:
        spans_side, other_side = ("references", "predictions")[:: 1 if reference_form == SPANS else -1]
        other = "integer ids" if IDS in forms else "tags"
        raise ValueError(
            f"{spans_side} hold spans (lists of entities) and {other_side} hold {other}; expected both sides in "
            "one form: tag sequences, or lists of spans"
        )
    return reference_form or predicted_form


def _holds_ids(predictions: list[list], references: list[list]) -> bool | None:
    """Whether a batch of tags holds integer ids (True) or string tags (False); None when it holds no value."""
    form = _batch_form(predictions, references)
    return None if form is None else form == IDS


def _as_list(values: Any, side: str) -> list | np.ndarray:
    """A batch as a list of sentences, or a 2-D numpy array of integer ids; other numpy arrays and torch
    tensors become lists (cheaper than evaluate's own conversion, evaluate issue 513). The caller's objects
    are never modified."""
    shape = tuple(getattr(values, "shape", ()))
    if len(shape) > 2:
        raise InvalidInputError(
            f"found an array of shape {shape}; expected one tag or id per token, a 2-D array "
            "(for model logits pass logits.argmax(-1))",
            side,
        )
    if len(shape) == 2 and not isinstance(values, (list, tuple)):
        try:
            array = np.asarray(values)  # no copy for numpy arrays and CPU tensors
        except (TypeError, RuntimeError):  # e.g. a tensor on a GPU: .tolist() below copies it over
            array = None
        if array is not None and array.dtype.kind in "iu":  # padded ids, as Trainer hands them over
            return array
    if hasattr(values, "tolist") and not isinstance(values, (list, tuple)):
        values = values.tolist()
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidInputError(
            f"found {type(values).__name__}; expected a batch: a list with one list of tags per sentence", side
        )
    values = list(values)
    if set(map(type, values)) <= {list, tuple}:  # the common case, checked at C speed
        return values
    rows = []
    for index, row in enumerate(values):
        if hasattr(row, "tolist") and not isinstance(row, (list, tuple)):
            row = row.tolist()
        if isinstance(row, (Mapping, Span)):
            raise InvalidInputError(
                f"found the entity {_shown(row)} where a batch holds one list per sentence; expected a list of "
                "span lists (for one sentence, [entities])",
                side,
                index,
            )
        if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
            raise InvalidInputError(
                f"found {row!r}; expected a list of tags (a batch holds one list per sentence)", side, index
            )
        rows.append(list(row))
    return rows


def _batches(predictions: Any, references: Any) -> tuple[list | np.ndarray, list | np.ndarray, str]:
    """Both sides as lists of sentences (or 2-D arrays of ids) and their form, TAGS, IDS or SPANS; tags and ids
    checked for alignment, spans for the number of sentences (docs/scoring.md §1)."""
    predictions = _as_list(predictions, "predictions")
    references = _as_list(references, "references")
    form = _batch_form(predictions, references) or TAGS
    if form != SPANS:
        return (*_check_aligned(predictions, references), form)
    predictions, references = _rows(predictions), _rows(references)
    _check_sentence_count(predictions, references)
    return predictions, references, form


def _aligned(predictions: Any, references: Any) -> tuple[list[list], list[list]]:
    """Both sides (tags or ids) as lists of sentences, checked for alignment (docs/scoring.md §1)."""
    return _check_aligned(_as_list(predictions, "predictions"), _as_list(references, "references"))


def _check_sentence_count(predictions: list | np.ndarray, references: list | np.ndarray) -> None:
    if len(predictions) != len(references):
        raise ValueError(
            f"predictions hold {len(predictions)} sentences and references {len(references)}; "
            "expected one prediction per reference sentence"
        )


def _check_aligned(predictions: list | np.ndarray, references: list | np.ndarray) -> tuple[list, list]:
    if isinstance(predictions, np.ndarray) != isinstance(references, np.ndarray):
        predictions, references = _rows(predictions), _rows(references)
    _check_sentence_count(predictions, references)
    predicted_lengths, reference_lengths = _lengths(predictions).tolist(), _lengths(references).tolist()
    if predicted_lengths != reference_lengths:
        sentence = next(i for i, (p, r) in enumerate(zip(predicted_lengths, reference_lengths)) if p != r)
        predicted, reference = predictions[sentence], references[sentence]
        raise InvalidInputError(
            f"predictions have {len(predicted)} tags and references {len(reference)}; expected "
            "token-aligned sequences of equal length",
            sentence=sentence,
        )
    return predictions, references


def _rows(batch: list | np.ndarray) -> list:
    """A batch as a list of rows (the form evaluate stores and the readable path reads)."""
    return batch.tolist() if isinstance(batch, np.ndarray) else batch


def _lengths(batch: list | np.ndarray) -> np.ndarray:
    """The length of each sentence of a batch."""
    if isinstance(batch, np.ndarray):
        return np.full(batch.shape[0], batch.shape[1], dtype=np.int64)
    return np.fromiter(map(len, batch), dtype=np.int64, count=len(batch))


def _check_one_kind(predictions: list[list], references: list[list]) -> None:
    """Raise `InvalidInputError` at the first value that is neither a string tag nor an integer id, or whose
    kind differs from the batch's first value (evaluate would store ["B-PER", 3] as two strings)."""
    kinds = {*map(type, chain.from_iterable(predictions)), *map(type, chain.from_iterable(references))}
    if kinds <= {str} or all(issubclass(kind, numbers.Integral) and kind is not bool for kind in kinds):
        return
    holds_ids = _holds_ids(predictions, references)
    for side, batch in (("predictions", predictions), ("references", references)):
        for sentence, row in enumerate(batch):
            for token, value in enumerate(row):
                if not (_is_id(value) if holds_ids else isinstance(value, str)):
                    expected = "integer ids" if holds_ids else "string tags"
                    raise InvalidInputError(
                        f"found {value!r} ({type(value).__name__}) where the batch holds {expected}; expected "
                        "every value a string tag, or every value an integer id (with label_list)",
                        side,
                        sentence,
                        token,
                    )


def _ids_to_tags(
    predictions: list[list[int]], references: list[list[int]], options: Options, table: TagTable
) -> tuple[list[list[str]], list[list[str]]]:
    """Tags for ids, dropping the positions whose reference is `ignore_index`; errors name the position in
    the padded input, not in what is left after dropping."""
    labels = options.label_list
    if labels is None:
        raise ValueError(
            "found integer ids; pass label_list (a list of tags, or a dict id -> tag such as "
            "model.config.id2label) to turn them into tags"
        )
    expected = f"an id of label_list ({_describe_ids(labels)})"
    ignore_index = options.ignore_index
    tag_predictions, tag_references = [], []
    for sentence, (predicted_ids, reference_ids) in enumerate(zip(predictions, references)):
        predicted_tags, reference_tags = [], []
        for token, (predicted, reference) in enumerate(zip(predicted_ids, reference_ids)):
            if reference == ignore_index and _is_id(reference):
                continue
            for side, value in (("references", reference), ("predictions", predicted)):
                if not _is_id(value):
                    raise InvalidInputError(f"found {value!r}; expected {expected}", side, sentence, token)
                if value not in labels:
                    problem = (
                        f"found ignore_index {value} where the reference has a label; predictions need a label "
                        f"id at every position the references label"
                        if value == ignore_index
                        else f"found id {value}; expected {expected}"
                    )
                    raise InvalidInputError(problem, side, sentence, token)
                try:
                    table[labels[value]]
                except InvalidInputError as error:
                    problem = f"id {value} is label_list's {labels[value]!r}: {error.problem}"
                    raise InvalidInputError(problem, side, sentence, token, error.suggested_scheme) from None
            predicted_tags.append(labels[predicted])
            reference_tags.append(labels[reference])
        tag_predictions.append(predicted_tags)
        tag_references.append(reference_tags)
    return tag_predictions, tag_references


def _describe_ids(ids: Iterable[int]) -> str:
    ordered = sorted(ids)
    if ordered and ordered[-1] - ordered[0] == len(ordered) - 1:
        return f"{ordered[0]} to {ordered[-1]}"
    shown = ", ".join(map(str, ordered[:20]))
    return (shown + f", ... ({len(ordered)} ids)" if len(ordered) > 20 else shown) or "none"


def _shown(value: Any, limit: int = 100) -> str:
    """`repr(value)`, cut short for an error message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_SPAN_FORMS = (
    "a dict with 'start', 'end' (exclusive) and 'type' ('label' and 'entity_group' work too), or a (start, end, "
    "type) tuple"
)


def as_span(entity: Any) -> Span:
    """One entity of span input as a `Span` (docs/scoring.md §1): a dict with integer ``start`` and ``end``
    (exclusive) and its type under ``type``, ``label`` or ``entity_group`` (the first present; other keys, such
    as a pipeline's ``score`` and ``word``, are ignored), a ``(start, end, type)`` tuple or list, or a `Span`.
    Raises `InvalidInputError` saying what is wrong."""
    if isinstance(entity, Span):
        start, end, entity_type = entity.start, entity.end, entity.entity_type
    elif isinstance(entity, Mapping):
        missing = [key for key in ("start", "end") if key not in entity]
        if missing:
            raise InvalidInputError(
                f"found {_shown(entity)}, which has no {' and no '.join(map(repr, missing))}; expected {_SPAN_FORMS}"
            )
        key = next((key for key in TYPE_KEYS if key in entity), None)
        if key is None:
            hint = ""
            if "entity" in entity:
                hint = " (token-level pipeline output: pass aggregation_strategy='simple' to the pipeline)"
            raise InvalidInputError(
                f"found {_shown(entity)}, which has no type; expected the type under 'type', 'label' or "
                f"'entity_group'{hint}"
            )
        start, end, entity_type = entity["start"], entity["end"], entity[key]
    elif isinstance(entity, (tuple, list)):
        if len(entity) != 3:
            raise InvalidInputError(
                f"found {_shown(entity)}, a {type(entity).__name__} of {len(entity)} items; expected {_SPAN_FORMS}"
            )
        start, end, entity_type = entity
    else:
        raise InvalidInputError(
            f"found {_shown(entity)} ({type(entity).__name__}) in a batch of spans; expected {_SPAN_FORMS}. "
            "A batch holds either tag sequences or lists of spans, not both"
        )
    for name, value in (("start", start), ("end", end)):
        if not _is_id(value):
            raise InvalidInputError(
                f"{name} is {_shown(value)} ({type(value).__name__}); expected a non-negative integer offset"
            )
        if value < 0:
            raise InvalidInputError(f"{name} is {value}; expected a non-negative integer offset")
    if start >= end:
        raise InvalidInputError(f"start {start} >= end {end}; expected start < end (end is exclusive)")
    if not isinstance(entity_type, str) or not entity_type:
        raise InvalidInputError(f"the type is {_shown(entity_type)}; expected a non-empty string such as 'PER'")
    return Span(int(start), int(end), entity_type)


def _read_spans(batch: list[list], side: str, labels: set[str] | None = None) -> list[list[Span]]:
    """Every sentence's entities as `Span`s, in the given order, each checked by `as_span`; with `labels`, the
    entities of other types are left out."""
    result = []
    for sentence, entities in enumerate(batch):
        spans = []
        for index, entity in enumerate(entities):
            try:
                span = as_span(entity)
            except InvalidInputError as error:
                raise error.at(side, sentence, entity=index) from None
            if labels is None or span.entity_type in labels:
                spans.append(span)
        result.append(spans)
    return result


def _check_span_options(options: Options) -> None:
    """Options that describe tags mean nothing for spans (docs/scoring.md §1): given anyway, they are an error
    rather than silently ignored."""
    given = {
        "scheme": options.scheme is not IOB2,
        "mode": options.mode != LENIENT,
        "suffix": options.suffix,
        "label_list": options.label_list is not None,
    }
    meaningless = [name for name, is_given in given.items() if is_given]
    if meaningless:
        raise ValueError(
            f"{' and '.join(meaningless)} given with span input; scheme, mode, suffix and label_list describe tags "
            "and mean nothing for spans: leave them out"
        )


# ---------------------------------------------------------------------------------------------------------
# 6. The public function
# ---------------------------------------------------------------------------------------------------------


def compute_semeval(*, predictions: Any, references: Any, **options: Any) -> dict[str, Any]:
    """SemEval-2013 strict / exact / partial / type scores of a batch of tag sequences or spans (docs/scoring.md §7).

    `predictions` and `references` are lists (or 2-D arrays) of tag sequences, or of integer ids with
    `label_list`, or lists of spans (entities as dicts with start, end and type, or (start, end, type) tuples;
    docs/scoring.md §1); they are keyword-only, as in evaluate's `compute`, because peers take the truth first
    and a swapped call would silently swap precision and recall. `options` are those of `Options` (see
    `_KWARGS_DESCRIPTION`). Returns a flat dict of plain numbers. Raises `ValueError` naming side, sentence and
    token (or entity) for malformed input. Inputs are never modified.
    """
    return score(predictions, references, Options.of(**options))


def score(predictions: Any, references: Any, options: Options) -> dict[str, Any]:
    """`compute_semeval` with its options already checked."""
    predictions, references, form = _batches(predictions, references)
    counted, rows = _count_any(predictions, references, form, options, by_sentence=options.bootstrap > 0)
    result: dict[str, Any] = scores(counted.tally, options)
    if options.bootstrap:
        result.update(_interval_keys(result, SentenceCounts.of(counted.by_sentence), options))
    if options.return_entities:
        result["entities"] = entity_rows(rows)
    return result


def _count_any(
    predictions: list[list], references: list[list], form: str, options: Options, by_sentence: bool
) -> tuple[_Counted, list[Row] | None]:
    """`_count_batch` for a batch of any form. Spans are counted on arrays unless the rows or each sentence's
    counts are wanted: then the readable path gives both."""
    if form != SPANS:
        return _count_batch(predictions, references, form == IDS, options, by_sentence)
    _check_span_options(options)
    if not options.return_entities and not by_sentence:
        tally = _fast_span_tally(predictions, references, options)
        if tally is not None:
            return _Counted(tally, None), None
    tally, rows = _readable_span_tally(predictions, references, options)
    return _Counted(tally, _scenarios_by_sentence(rows, len(references)) if by_sentence else None), rows


def _count_batch(
    predictions: list[list], references: list[list], holds_ids: bool, options: Options, by_sentence: bool
) -> tuple[_Counted, list[Row] | None]:
    """One pass over an aligned batch: its tally, each sentence's scenario counts with `by_sentence`, and the
    rows with `return_entities`. The array path counts; rows, and the precise error for bad input, come from
    the readable path, which the array path always agrees with (tests/test_fast_path.py)."""
    if not options.return_entities:
        counted = _fast_count(predictions, references, holds_ids, options, by_sentence)
        if counted is not None:
            return counted, None
    tally, rows = _readable_tally(predictions, references, holds_ids, options)
    return _Counted(tally, _scenarios_by_sentence(rows, len(references)) if by_sentence else None), rows


def tally_semeval(predictions: Any, references: Any, options: Options | None = None) -> tuple[Tally, list[Row]]:
    """The readable path: decode (or read) and pair a batch (docs/scoring.md §1-§3); the `Tally` and the rows
    ``(sentence, reference, prediction)``. This defines what the array path computes."""
    predictions, references, form = _batches(predictions, references)
    options = Options() if options is None else options
    if form == SPANS:
        _check_span_options(options)
        return _readable_span_tally(predictions, references, options)
    return _readable_tally(predictions, references, form == IDS, options)


def _readable_tally(
    predictions: list[list], references: list[list], holds_ids: bool, options: Options
) -> tuple[Tally, list[Row]]:
    table = TagTable(options.scheme, options.suffix)
    if holds_ids:
        predictions, references = _ids_to_tags(predictions, references, options, table)
    keep = None if options.labels is None else set(options.labels)
    predicted_spans = _decode_side(predictions, "predictions", options.mode, table, keep)
    reference_spans = _decode_side(references, "references", options.mode, table, keep)
    return _paired(reference_spans, predicted_spans, options.min_overlap)


def _readable_span_tally(predictions: list[list], references: list[list], options: Options) -> tuple[Tally, list[Row]]:
    keep = None if options.labels is None else set(options.labels)
    predicted_spans = _read_spans(predictions, "predictions", keep)
    reference_spans = _read_spans(references, "references", keep)
    return _paired(reference_spans, predicted_spans, options.min_overlap)


def _paired(
    reference_spans: list[list[Span]], predicted_spans: list[list[Span]], min_overlap: float | None
) -> tuple[Tally, list[Row]]:
    """The tally and rows of the entities of every sentence, paired (docs/scoring.md §3)."""
    rows = [
        (sentence, reference, prediction)
        for sentence, (sentence_references, sentence_predictions) in enumerate(zip(reference_spans, predicted_spans))
        for reference, prediction in pair(sentence_references, sentence_predictions, min_overlap)
    ]
    return Tally.of_rows((r, p) for _, r, p in rows), rows


def _scenarios_by_sentence(rows: Iterable[Row], sentences: int) -> np.ndarray:
    """Each sentence's scenario counts (sentences x 6, scenarios I to VI) from the readable path's rows: the
    statistics' per-sentence unit (section 8), which the array path counts in the same pass that scores."""
    index = {name: position for position, name in enumerate(SCENARIOS)}
    cells = [sentence * len(SCENARIOS) + index[scenario_of(r, p)] for sentence, r, p in rows]
    counts = np.bincount(np.array(cells, dtype=np.int64), minlength=sentences * len(SCENARIOS))
    return counts.reshape(sentences, len(SCENARIOS))


def _decode_side(batch: list[list], side: str, mode: str, table: TagTable, labels: set[str] | None) -> list[list[Span]]:
    decoded = []
    for sentence, tags in enumerate(batch):
        try:
            spans = _decode_tags(tags, mode, table)
        except InvalidInputError as error:
            raise error.at(side, sentence) from None
        if labels is not None:
            spans = [span for span in spans if span.entity_type in labels]
        decoded.append(spans)
    return decoded


# ---------------------------------------------------------------------------------------------------------
# 7. The array path
# ---------------------------------------------------------------------------------------------------------
# Why: the readable path above takes a few Python steps per tag; a batch of 20,000 sentences of 20 tokens is
# 400,000 of them. The array path turns every tag into a small integer code in one C-level pass, then decodes
# and pairs whole chunks of sentences with a handful of numpy operations, and sends only entities in a forked
# overlap chain (one entity overlapping two) through the exact `_pair_overlapping`.
# What proves it equal: tests/test_fast_path.py compares its `Tally` with the readable path's on random tag
# soup in every scheme, mode and tag style, with ids, documents and chunk sizes down to one token. On any
# input it cannot read (a bad tag, an unknown id), it returns None and the readable path raises the error.

# A role as bit flags, so that one array lookup per token answers all three questions decoding asks.
_ENTITY, _OPENS, _CLOSES = 1, 2, 4
_ROLE_FLAGS = {None: 0, INSIDE: _ENTITY, BEGIN: _ENTITY | _OPENS, END: _ENTITY | _CLOSES}
_ROLE_FLAGS[SINGLE] = _ENTITY | _OPENS | _CLOSES

# Sentences are scored in chunks of about this many tokens: the arrays of a chunk stay in the processor's
# cache, so time grows linearly with the batch and memory does not grow with it at all. Tallies add.
_CHUNK_TOKENS = 1 << 16


def _fast_tally(predictions: list[list], references: list[list], holds_ids: bool, options: Options) -> Tally | None:
    """`_readable_tally`'s `Tally`, computed on arrays chunk by chunk of sentences; None if the input is
    invalid, so that the readable path raises its precise error."""
    counted = _fast_count(predictions, references, holds_ids, options, by_sentence=False)
    return None if counted is None else counted.tally


class _Counted(NamedTuple):
    """What one pass over a batch counts: the tally, and each sentence's scenario counts when asked for."""

    tally: Tally
    by_sentence: np.ndarray | None  # (sentences, 6) scenario counts I to VI, for the statistics (section 8)


def _fast_count(
    predictions: list[list], references: list[list], holds_ids: bool, options: Options, by_sentence: bool
) -> _Counted | None:
    """`_fast_tally`, and with `by_sentence` each sentence's scenario counts too (the readable path's
    `_scenarios_by_sentence`); None if the input is invalid."""
    offsets = np.concatenate(([0], np.cumsum(_lengths(references))))
    # A chunk ends with the sentence that crosses each multiple of _CHUNK_TOKENS.
    cuts = np.searchsorted(offsets[1:], np.arange(_CHUNK_TOKENS, offsets[-1], _CHUNK_TOKENS)) + 1
    bounds = [0, *np.unique(cuts).tolist(), len(references)]
    table = TagTable(options.scheme, options.suffix)
    cells: Counter = Counter()
    sentence_counts = [np.zeros((0, len(SCENARIOS)), dtype=np.int64)]
    for first, last in pairwise(bounds):
        if first == last:
            continue
        chunk = (predictions[first:last], references[first:last], offsets[first : last + 1] - offsets[first])
        counted = _tally_arrays(*chunk, holds_ids, options, table, by_sentence)
        if counted is None:
            return None
        # Added in place: the cost of a chunk is its own cells, not every cell counted so far.
        cells.update(counted[0])
        sentence_counts.append(counted[1])
    return _Counted(Tally(dict(cells)), np.concatenate(sentence_counts) if by_sentence else None)


def _tally_arrays(
    predictions: list[list],
    references: list[list],
    offsets: np.ndarray,
    holds_ids: bool,
    options: Options,
    table: TagTable,
    by_sentence: bool = False,
) -> tuple[dict[Cell, int], np.ndarray | None] | None:
    """The cells of one chunk, all its sentences decoded and paired with a handful of array operations, and
    with `by_sentence` each sentence's scenario counts (sentences x 6)."""
    if holds_ids:
        flat = _id_codes(predictions, references, offsets, options)
    else:
        flat = _tag_codes(predictions, references, offsets)
    if flat is None:
        return None
    codes_p, codes_r, offsets, tags = flat
    type_names: dict[str, int] = {}
    role_of = np.zeros(len(tags) + 1, dtype=np.int8)
    type_of = np.full(len(tags) + 1, -1, dtype=np.int32)
    used = np.zeros(len(tags) + 1, dtype=bool)
    used[codes_p] = True
    used[codes_r] = True
    for code in np.flatnonzero(used[:-1]).tolist():
        try:
            parsed = table[tags[code]]
        except (InvalidInputError, TypeError):
            return None
        if parsed is not None:
            role_of[code] = _ROLE_FLAGS[parsed.role]
            type_of[code] = type_names.setdefault(parsed.entity_type, len(type_names))
    spans = [_decode_flat(codes, offsets, role_of, type_of, options) for codes in (codes_r, codes_p)]
    if options.labels is not None:
        wanted = np.array([type_names[label] for label in options.labels if label in type_names], dtype=np.int64)
        spans = [side.select(np.isin(side.type_id, wanted)) for side in spans]
    groups = _pair_flat(*spans, options.min_overlap)
    cells = _cells(groups, list(type_names))
    if not by_sentence:
        return cells, None
    kinds, positions = (np.concatenate([group[column] for group in groups]) for column in (0, 3))
    # A row's sentence is the last one starting at or before the row's first token (empty sentences share
    # their offset with the next one, which is the one holding that token).
    sentence = np.searchsorted(offsets, positions, side="right") - 1
    sentences = len(offsets) - 1
    counts = np.bincount(sentence * len(SCENARIOS) + kinds, minlength=sentences * len(SCENARIOS))
    return cells, counts.reshape(sentences, len(SCENARIOS))


def _cells(groups: list[tuple[np.ndarray, ...]], type_names: list[str]) -> dict[Cell, int]:
    """The `Tally` cells of rows given as (scenario index, reference type id, predicted type id, ...) columns,
    -1 for no entity, type ids indexing `type_names`."""
    kinds, reference_types, predicted_types = (
        np.concatenate([group[column] for group in groups]) for column in range(3)
    )
    # One integer per cell, in mixed radix: scenario, then reference type + 1, then predicted type + 1 (0 for
    # "no entity" on that side), each digit below `width`; np.unique then counts every cell at once.
    width = len(type_names) + 1
    combined = (kinds * width + reference_types + 1) * width + predicted_types + 1
    names = [None, *type_names]
    cells = {}
    for cell, number in zip(*np.unique(combined, return_counts=True)):
        kind, rest = divmod(int(cell), width * width)
        reference_type, predicted_type = divmod(rest, width)
        cells[(SCENARIOS[kind], names[reference_type], names[predicted_type])] = int(number)
    return cells


# tag -> code for the tags met so far, kept across calls: an evaluation loop scores the same few tags again
# and again, and a plain dict filled once looks them up faster than one that numbers tags as it meets them.
_known_codes: dict[Any, int] = {}


def _tag_codes(predictions: list[list], references: list[list], offsets: np.ndarray) -> tuple | None:
    """The code of every tag of each side, in order, the sentence offsets and `tags`, the tag of each code;
    None for an unhashable value.

    This is the one step that touches every tag, so it stays in C: `map` over the dict's own look-up, into
    one byte per tag while there are at most 256 distinct tags, which numpy takes as it is (turning Python
    ints into an array costs more than the look-ups; benchmarks/run.py)."""
    global _known_codes
    codes = _known_codes
    batches = (predictions, references)
    try:
        arrays = [_code_array(codes, batch) for batch in batches]
    except KeyError:  # tags not met before: number them, then look everything up again
        try:
            seen = set().union(*(chain.from_iterable(batch) for batch in batches))
        except TypeError:  # an unhashable value
            return None
        new = seen.difference(codes)
        if len(codes) + len(new) > 256:
            codes, new = {}, seen
        codes = {**codes, **dict(zip(new, range(len(codes), len(codes) + len(new))))}
        _known_codes = codes
        arrays = [_code_array(codes, batch) for batch in batches]
    except TypeError:
        return None
    return (*arrays, offsets, list(codes))


def _code_array(codes: dict[Any, int], batch: list[list]) -> np.ndarray:
    try:
        return np.frombuffer(bytearray(map(codes.__getitem__, chain.from_iterable(batch))), dtype=np.uint8)
    except ValueError:  # a code above 255: more than 256 distinct tags in this call
        return np.fromiter(map(codes.__getitem__, chain.from_iterable(batch)), dtype=np.int64)


def _id_codes(
    predictions: list[list] | np.ndarray, references: list[list] | np.ndarray, offsets: np.ndarray, options: Options
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list] | None:
    """Integer ids as codes (their position in `label_list`), with the `ignore_index` positions dropped, which
    moves the sentence offsets; None for anything the readable path must explain (an unknown id)."""
    labels = options.label_list
    if labels is None:
        return None
    try:
        ids = np.fromiter(labels, dtype=np.int64, count=len(labels))
    except OverflowError:  # an id no int64 holds
        return None
    ids_p, ids_r = (_flat_ids(batch, int(offsets[-1])) for batch in (predictions, references))
    if ids_p is None or ids_r is None:
        return None
    kept = ids_r != options.ignore_index
    ids_p, ids_r = ids_p[kept], ids_r[kept]
    offsets = np.concatenate(([0], np.cumsum(kept)))[offsets]
    # Ids to codes by binary search in the sorted ids: time and memory follow the input and label_list, not
    # the size of the id values (a table indexed by id would take gigabytes for an id of 10**9).
    order = np.argsort(ids, kind="stable")
    sorted_ids = ids[order]
    codes = []
    for side in (ids_p, ids_r):
        where = np.searchsorted(sorted_ids, side).clip(0, max(len(ids) - 1, 0))
        if side.size and (not ids.size or not np.array_equal(sorted_ids[where], side)):
            return None
        codes.append(order[where] if ids.size else where)
    return codes[0], codes[1], offsets, list(labels.values())


def _flat_ids(batch: list[list] | np.ndarray, size: int) -> np.ndarray | None:
    """All ids of a batch in one int64 array; None if any value is not an integer id that int64 holds."""
    if isinstance(batch, np.ndarray):
        if batch.dtype == np.uint64 and batch.size and batch.max() > np.iinfo(np.int64).max:
            return None  # it would wrap around to a negative id, even to ignore_index
        return batch.reshape(-1).astype(np.int64, copy=False)
    kinds = set(map(type, chain.from_iterable(batch)))
    if not all(issubclass(kind, numbers.Integral) and kind is not bool for kind in kinds):
        return None  # np.fromiter would truncate 1.5 to 1: floats, strings and bools go the readable way
    try:
        return np.fromiter(chain.from_iterable(batch), dtype=np.int64, count=size)
    except (OverflowError, ValueError):
        return None


@dataclass(frozen=True)
class _FlatSpans:
    """Spans of a whole batch as parallel arrays; `start` and `end` count tokens from the batch's start."""

    start: np.ndarray
    end: np.ndarray
    type_id: np.ndarray

    def select(self, keep: np.ndarray) -> _FlatSpans:
        return _FlatSpans(self.start[keep], self.end[keep], self.type_id[keep])


def _strict_table(scheme: Scheme, pattern: str) -> np.ndarray:
    """valid[first role, last role, min(length, 3)] for entities of the lenient decoder.

    Inside an entity every token but the first and the last is INSIDE (a B/S would open a new entity, an
    E/L would close it), so an entity's prefix letters are fixed by its first and last role and whether it
    is longer than two tokens: the scheme's regular expression is evaluated once per combination."""
    letter = {_ROLE_FLAGS[role]: prefix for prefix, role in scheme.roles.items()}
    middle = letter.get(_ROLE_FLAGS[INSIDE], "")
    valid = np.zeros((8, 8, 4), dtype=bool)
    for first, first_letter in letter.items():
        for last, last_letter in letter.items():
            valid[first, last, 1] = first == last and re.fullmatch(pattern, first_letter) is not None
            valid[first, last, 2] = re.fullmatch(pattern, first_letter + last_letter) is not None
            valid[first, last, 3] = re.fullmatch(pattern, first_letter + middle + last_letter) is not None
    return valid


def _decode_flat(
    codes: np.ndarray, offsets: np.ndarray, role_of: np.ndarray, type_of: np.ndarray, options: Options
) -> _FlatSpans:
    """`decode` of every sentence of a batch: `codes[offsets[i]:offsets[i + 1]]` is sentence i; `role_of`
    and `type_of` give each code's role flags and type id."""
    size = len(codes)
    role = role_of[codes]
    entity_type = type_of[codes]
    entity = (role & _ENTITY).astype(bool)
    first = np.zeros(size + 1, dtype=bool)
    first[offsets] = True  # also marks `size`, the end of the last sentence
    # An entity can go on into the next token unless this token is O or closes it (E/L/S/U).
    open_after = np.concatenate(([False], (role & (_ENTITY | _CLOSES)) == _ENTITY))[:-1]
    same_type_before = np.concatenate(([False], entity_type[1:] == entity_type[:-1]))
    # docs/scoring.md §2 lenient: an entity begins at B/S/U, after O or a closed entity, at a new type, or a sentence.
    begins = entity & (first[:-1] | (role & _OPENS).astype(bool) | ~open_after | ~same_type_before)
    continues = entity & ~begins
    ends = entity & ~np.concatenate((continues, [False]))[1:]
    start = np.flatnonzero(begins)
    end = np.flatnonzero(ends) + 1
    spans = _FlatSpans(start, end, entity_type[start])
    if options.mode == LENIENT:
        return spans
    scheme = options.scheme
    first_role = role[start]
    last_role = role[end - 1]
    length = np.minimum(end - start, 3)
    valid = _strict_table(scheme, scheme.well_formed)[first_role, last_role, length]
    if scheme.well_formed_next_to_same_type is not None:
        # IOB1 / IOE1: the neighbouring token, in the same sentence, has an entity of the same type.
        if scheme.touching_side == "before":
            neighbour, inside_sentence = start - 1, ~first[start]
        else:
            neighbour, inside_sentence = end, ~first[end]
        neighbour = np.minimum(neighbour, size - 1).clip(0)
        touching = inside_sentence & (entity_type[neighbour] == spans.type_id)
        touching &= entity[neighbour]
        table = _strict_table(scheme, scheme.well_formed_next_to_same_type)
        valid |= touching & table[first_role, last_role, length]
    return spans.select(valid)


def _pair_flat(
    references: _FlatSpans, predictions: _FlatSpans, min_overlap: float | None = None
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """`pair` for a whole batch of sorted, disjoint spans: the (scenario index, reference type id, predicted type
    id, first token) of every row; the first token (the reference's start, else the prediction's) places the
    row in its sentence.

    Identical boundaries, entities that overlap nothing and one-to-one overlaps are resolved with array
    operations; only entities in a chain with a fork (one entity overlapping two) go through the exact
    `_pair_overlapping`, which is linear and never crosses a sentence (spans do not). With `min_overlap`, a
    one-to-one overlap below it is a miss and a spurious entity; a fork is left to `_pair_overlapping`, which
    drops the edges below it (docs/scoring.md §3: a subset of the overlaps still never crosses)."""
    none = np.int64(-1)
    scenario = {name: index for index, name in enumerate(SCENARIOS)}
    width = int(max(references.end.max(initial=0), predictions.end.max(initial=0))) + 1
    _, exact_r, exact_p = np.intersect1d(
        references.start * width + references.end,
        predictions.start * width + predictions.end,
        assume_unique=True,
        return_indices=True,
    )
    reference_types = references.type_id[exact_r]
    predicted_types = predictions.type_id[exact_p]
    same = reference_types == predicted_types
    groups = [
        (np.where(same, scenario["I"], scenario["IV"]), reference_types, predicted_types, references.start[exact_r])
    ]

    left_r = np.ones(len(references.start), dtype=bool)
    left_r[exact_r] = False
    left_p = np.ones(len(predictions.start), dtype=bool)
    left_p[exact_p] = False
    rest_r, rest_p = references.select(left_r), predictions.select(left_p)
    # Spans on one side are sorted and disjoint: the overlapping ones on the other side form one run.
    r_first = np.searchsorted(rest_p.end, rest_r.start, side="right")
    r_degree = np.searchsorted(rest_p.start, rest_r.end, side="left") - r_first
    p_first = np.searchsorted(rest_r.end, rest_p.start, side="right")
    p_degree = np.searchsorted(rest_r.start, rest_p.end, side="left") - p_first

    missed = r_degree == 0
    spurious = p_degree == 0
    groups.append(
        (
            np.full(missed.sum(), scenario["III"]),
            rest_r.type_id[missed],
            np.full(missed.sum(), none),
            rest_r.start[missed],
        )
    )
    groups.append(
        (
            np.full(spurious.sum(), scenario["II"]),
            np.full(spurious.sum(), none),
            rest_p.type_id[spurious],
            rest_p.start[spurious],
        )
    )
    partner = np.minimum(r_first, max(len(rest_p.start) - 1, 0))
    simple = (r_degree == 1) & (p_degree[partner] == 1) if len(rest_p.start) else np.zeros_like(missed)
    below = np.zeros_like(simple)
    if min_overlap is not None and simple.any():
        # One-to-one overlaps whose shared extent is below min_overlap of the reference's length: no pair. The
        # share is the float quotient, as in `_overlaps`.
        starts_r, ends_r = rest_r.start[simple], rest_r.end[simple]
        starts_p, ends_p = rest_p.start[partner[simple]], rest_p.end[partner[simple]]
        shared = np.minimum(ends_r, ends_p) - np.maximum(starts_r, starts_p)
        below[simple] = shared / (ends_r - starts_r) < min_overlap
        simple &= ~below
        unpaired_p = partner[below]
        missed_below = (np.full(below.sum(), scenario["III"]), rest_r.type_id[below], np.full(below.sum(), none))
        groups.append((*missed_below, rest_r.start[below]))
        spurious_below = (np.full(below.sum(), scenario["II"]), np.full(below.sum(), none), rest_p.type_id[unpaired_p])
        groups.append((*spurious_below, rest_p.start[unpaired_p]))
        spurious[unpaired_p] = True  # settled: not part of a fork
    simple_r = rest_r.type_id[simple]
    simple_p = rest_p.type_id[partner[simple]]
    simple_kind = np.where(simple_r == simple_p, scenario["V"], scenario["VI"])
    groups.append((simple_kind, simple_r, simple_p, rest_r.start[simple]))

    forked_r = ~missed & ~simple & ~below
    forked_p = ~spurious
    forked_p[partner[simple]] = False
    if forked_r.any() or forked_p.any():
        # Spans whose types are type ids: `_pair_overlapping` only compares them.
        chain_r = [Span(*span) for span in zip(*_columns(rest_r.select(forked_r)))]
        chain_p = [Span(*span) for span in zip(*_columns(rest_p.select(forked_p)))]
        paired = _pair_overlapping(chain_r, chain_p, min_overlap)
        taken_r = {r.start for r, _ in paired}
        taken_p = {p.start for _, p in paired}
        rows = [(scenario[scenario_of(r, p)], r.entity_type, p.entity_type, r.start) for r, p in paired]
        rows += [(scenario["III"], r.entity_type, none, r.start) for r in chain_r if r.start not in taken_r]
        rows += [(scenario["II"], none, p.entity_type, p.start) for p in chain_p if p.start not in taken_p]
        groups.append(tuple(np.array(column, dtype=np.int64) for column in zip(*rows)))
    return groups


def _columns(spans: _FlatSpans) -> tuple[list[int], list[int], list[int]]:
    return spans.start.tolist(), spans.end.tolist(), spans.type_id.tolist()


# Span input. Every entity of a chunk of sentences becomes a row of parallel arrays, and each sentence is
# moved to positions of its own (after the previous sentence's last end), so that `_pair_flat`, the tag path's
# pairing, pairs in one go every sentence whose entities are disjoint on both sides; the sentences with
# nested, overlapping or repeated entities go through `pair` one by one. Reading the three keys of every
# dict is the one step that touches every entity, so it stays in C (`operator.itemgetter` mapped over them).

# Sentences are scored in chunks of about this many entities (both sides), as tags are in chunks of tokens.
_CHUNK_ENTITIES = 1 << 15
# Positions of a chunk stay below this, so that `_pair_flat`'s start * width + end fits in 64 bits; a chunk
# of longer documents goes the readable way.
_POSITION_LIMIT = 1 << 31


@dataclass(frozen=True)
class _SpanColumns:
    """The entities of one side of a batch, in order: `start`, `end` and `type_id` per entity (`type_id`
    indexing the sorted type names), and `counts`, the number of entities of each sentence."""

    start: np.ndarray
    end: np.ndarray
    type_id: np.ndarray
    counts: np.ndarray


def _fast_span_tally(predictions: list[list], references: list[list], options: Options) -> Tally | None:
    """`_readable_span_tally`'s `Tally`, computed on arrays chunk by chunk of sentences; None for anything the
    readable path must check or explain (a bad entity, a mix of forms, a type key out of the usual order)."""
    read = [_span_values(batch) for batch in (references, predictions)]
    if read[0] is None or read[1] is None:
        return None
    # Type ids in the order of the type names, so that the tie-break of docs/scoring.md §3 (d), which compares
    # types, reads the same on ids as on names.
    type_names = sorted(set(read[0][2]).union(read[1][2]))
    type_ids = {name: index for index, name in enumerate(type_names)}
    columns_r, columns_p = (
        _SpanColumns(start, end, np.fromiter(map(type_ids.__getitem__, types), np.int64, len(types)), counts)
        for start, end, types, counts in read
    )
    if options.labels is not None:
        wanted = np.array([type_ids[label] for label in options.labels if label in type_ids], dtype=np.int64)
        columns_r, columns_p = (_keep_types(columns, wanted) for columns in (columns_r, columns_p))

    offsets_r = np.concatenate(([0], np.cumsum(columns_r.counts)))
    offsets_p = np.concatenate(([0], np.cumsum(columns_p.counts)))
    entities = offsets_r + offsets_p
    cuts = np.searchsorted(entities[1:], np.arange(_CHUNK_ENTITIES, entities[-1], _CHUNK_ENTITIES)) + 1
    bounds = [0, *np.unique(cuts).tolist(), len(references)]
    cells: Counter = Counter()
    for first, last in pairwise(bounds):
        if first == last:
            continue
        chunk_r = _chunk(columns_r, offsets_r, first, last)
        chunk_p = _chunk(columns_p, offsets_p, first, last)
        cells.update(_tally_span_chunk(chunk_r, chunk_p, type_names, options.min_overlap))
    return Tally(dict(cells))


def _span_values(batch: list[list]) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray] | None:
    """The start and end arrays, the type names and each sentence's number of entities of one side; None if
    any entity is not a plain, valid dict or tuple (the readable path then explains or reads it). Each column
    is read in one pass of `operator.itemgetter` mapped over the entities, at C speed."""
    counts = np.fromiter(map(len, batch), dtype=np.int64, count=len(batch))
    entities = list(chain.from_iterable(batch))
    if not entities:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), [], counts
    kinds = set(map(type, entities))
    if kinds == {dict}:
        columns = _dict_columns(entities)
    elif kinds <= {tuple, list} and set(map(len, entities)) == {3}:
        # One pass per column: zip(*entities) would pass every entity as an argument, far slower.
        columns = [list(map(operator.itemgetter(index), entities)) for index in range(3)]
    else:
        return None
    if columns is None:
        return None
    starts, ends, types = columns
    if not {*map(type, starts), *map(type, ends)} <= {int} or set(map(type, types)) != {str} or "" in types:
        return None
    try:
        start = np.array(starts, dtype=np.int64)
        end = np.array(ends, dtype=np.int64)
    except OverflowError:
        return None
    if not (start >= 0).all() or not (start < end).all():
        return None
    return start, end, list(types), counts


def _dict_columns(entities: list[dict]) -> list[list] | None:
    """The start, end and type columns of entity dicts, the type from the first of TYPE_KEYS that every dict
    has; None if some dict lacks it, or has an earlier one (`as_span` takes the first present)."""
    for position, key in enumerate(TYPE_KEYS):
        try:
            types = list(map(operator.itemgetter(key), entities))
        except KeyError:
            continue
        for earlier in TYPE_KEYS[:position]:
            if any(map(operator.contains, entities, repeat(earlier))):
                return None
        try:
            return [
                list(map(operator.itemgetter("start"), entities)),
                list(map(operator.itemgetter("end"), entities)),
                types,
            ]
        except KeyError:
            return None
    return None


def _keep_types(columns: _SpanColumns, wanted: np.ndarray) -> _SpanColumns:
    keep = np.isin(columns.type_id, wanted)
    sentence = np.repeat(np.arange(len(columns.counts)), columns.counts)
    counts = np.bincount(sentence[keep], minlength=len(columns.counts))
    return _SpanColumns(columns.start[keep], columns.end[keep], columns.type_id[keep], counts)


def _chunk(columns: _SpanColumns, offsets: np.ndarray, first: int, last: int) -> _SpanColumns:
    """Sentences first to last (excluded) of one side."""
    rows = slice(offsets[first], offsets[last])
    return _SpanColumns(columns.start[rows], columns.end[rows], columns.type_id[rows], columns.counts[first:last])


def _tally_span_chunk(
    references: _SpanColumns, predictions: _SpanColumns, type_names: list[str], min_overlap: float | None
) -> dict[Cell, int]:
    """The cells of one chunk of sentences of span input."""
    size = len(references.counts)
    sentence_r = np.repeat(np.arange(size), references.counts)
    sentence_p = np.repeat(np.arange(size), predictions.counts)
    # Each sentence moves to positions of its own, after the end of the sentence before.
    extent = np.zeros(size, dtype=np.int64)
    np.maximum.at(extent, sentence_r, references.end)
    np.maximum.at(extent, sentence_p, predictions.end)
    shift = np.concatenate(([0], np.cumsum(extent)))
    if shift[-1] >= _POSITION_LIMIT:
        return _readable_span_chunk(references, predictions, type_names, min_overlap)
    nested = np.zeros(size, dtype=bool)
    sides = []
    for columns, sentence in ((references, sentence_r), (predictions, sentence_p)):
        start, end = columns.start + shift[sentence], columns.end + shift[sentence]
        order = np.lexsort((end, start))
        start, end, sentence = start[order], end[order], sentence[order]
        # A sentence is nested where an entity starts before an earlier one (in start order) of its side ends.
        overlapping = start[1:] < np.maximum.accumulate(end)[:-1]
        nested[sentence[1:][overlapping]] = True
        sides.append((_FlatSpans(start, end, columns.type_id[order]), sentence))
    (flat_r, sentence_r), (flat_p, sentence_p) = sides
    groups = _pair_flat(flat_r.select(~nested[sentence_r]), flat_p.select(~nested[sentence_p]), min_overlap)
    if nested.any():
        groups.append(_nested_rows(flat_r, flat_p, sentence_r, sentence_p, nested, min_overlap))
    return _cells(groups, type_names)


def _nested_rows(
    references: _FlatSpans,
    predictions: _FlatSpans,
    sentence_r: np.ndarray,
    sentence_p: np.ndarray,
    nested: np.ndarray,
    min_overlap: float | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows of the nested sentences, each paired by `pair` (on spans whose types are type ids, which sort
    as their names do)."""
    scenario = {name: index for index, name in enumerate(SCENARIOS)}
    spans_r, spans_p = (
        [Span(*span) for span in zip(*_columns(side.select(nested[sentence])))]
        for side, sentence in ((references, sentence_r), (predictions, sentence_p))
    )
    # Entities are sorted by position, so each nested sentence is one run on each side.
    bounds_r = np.searchsorted(sentence_r[nested[sentence_r]], np.flatnonzero(nested), side="right").tolist()
    bounds_p = np.searchsorted(sentence_p[nested[sentence_p]], np.flatnonzero(nested), side="right").tolist()
    rows = []
    for (start_r, end_r), (start_p, end_p) in zip(pairwise([0, *bounds_r]), pairwise([0, *bounds_p])):
        for reference, prediction in pair(spans_r[start_r:end_r], spans_p[start_p:end_p], min_overlap):
            rows.append(
                (
                    scenario[scenario_of(reference, prediction)],
                    -1 if reference is None else reference.entity_type,
                    -1 if prediction is None else prediction.entity_type,
                )
            )
    return tuple(np.array(column, dtype=np.int64).reshape(-1) for column in zip(*rows)) if rows else _no_rows()


def _no_rows() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)


def _readable_span_chunk(
    references: _SpanColumns, predictions: _SpanColumns, type_names: list[str], min_overlap: float | None
) -> dict[Cell, int]:
    """The cells of a chunk whose positions are too large for the arrays, sentence by sentence."""
    sides = []
    for columns in (references, predictions):
        values = zip(columns.start.tolist(), columns.end.tolist(), columns.type_id.tolist())
        spans = [Span(start, end, type_names[type_id]) for start, end, type_id in values]
        bounds = np.concatenate(([0], np.cumsum(columns.counts))).tolist()
        sides.append([spans[a:b] for a, b in pairwise(bounds)])
    return dict(_paired(*sides, min_overlap)[0].cells)


# ---------------------------------------------------------------------------------------------------------
# 8. Statistics: confidence intervals and the paired test (docs/scoring.md §9)
# ---------------------------------------------------------------------------------------------------------
# Why this shape: every score of every scheme is a function of the six scenario totals (§4), and totals add
# over sentences. So what the statistics resample is each sentence's scenario counts, counted in the pass that
# scores, and a resample is a weighted sum of them, never a new scoring (sacrebleu's lesson). Sentences share a
# handful of distinct count vectors (85 to 113 among the 20,000 generated sentences of benchmarks/; 78 among
# WNUT-17's 1,287 for one system, 202 pairs for two), so a resample draws how often each distinct vector is
# taken (a multinomial draw: the same law as drawing the sentences one by one with replacement), and one matrix
# product gives the totals of every resample.
# Why by hand: scipy.stats.bootstrap and permutation_test take such a statistic, but draw and sum one index per
# sentence per resample. Measured (benchmarks/significance.py --scipy), for strict F1 alone: 1.2 s for 1,000
# percentile resamples of 20,000 sentences (33 times the scoring; here 0.01 s for all twelve P/R/F keys), 21 s
# for BCa, whose jackknife scores all 20,000 leave-one-out samples (here one per distinct vector), and 1.7 s for
# 10,000 shuffles of WNUT-17 (here 0.26 s for the twelve keys' tests and intervals together). The methods are
# scipy's (BCa, and the paired swap); tests/test_statistics.py checks the numbers against it.


@dataclass(frozen=True)
class SentenceCounts:
    """Per-sentence count vectors, kept as the distinct vectors (sorted rows) and how many sentences have each.

    One system's vectors are its six scenario counts (I to VI); a pair of systems' are twelve, system A's six
    then system B's, for the same sentence. Sentences are exchangeable in the bootstrap and in the paired test,
    so this is all either needs, and it adds over chunks, batches and files."""

    vectors: np.ndarray  # (distinct vectors, width) int64
    sentences: np.ndarray  # (distinct vectors,) int64: how many sentences have each

    @classmethod
    def of(cls, by_sentence: np.ndarray) -> SentenceCounts:
        """From one row of counts per sentence."""
        rows = np.asarray(by_sentence, dtype=np.int64)
        return cls(*_distinct_rows(rows, np.ones(len(rows), dtype=np.int64)))

    def __add__(self, other: SentenceCounts) -> SentenceCounts:
        rows = np.concatenate((self.vectors, other.vectors))
        return SentenceCounts(*_distinct_rows(rows, np.concatenate((self.sentences, other.sentences))))

    @property
    def size(self) -> int:
        """The number of sentences."""
        return int(self.sentences.sum())

    def totals(self) -> np.ndarray:
        """The counts summed over all sentences."""
        return self.sentences @ self.vectors


def _distinct_rows(rows: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a non-negative integer matrix, sorted, and the summed weights of each."""
    if not len(rows):
        return rows.reshape(0, rows.shape[1]), np.zeros(0, dtype=np.int64)
    # One integer key per row, in mixed radix, sorts in a millisecond where np.unique(axis=0) takes 20 ms
    # for 20,000 sentences; the keys fit in int64 unless a document holds millions of entities.
    radix = rows.max(axis=0).astype(object) + 1
    places = [math.prod(radix[column + 1 :]) for column in range(len(radix))]
    if math.prod(radix) < 1 << 62:
        keys = rows @ np.array(places, dtype=np.int64)
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        distinct = rows[first]
    else:
        distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
    summed = np.bincount(inverse.reshape(-1), weights=weights, minlength=len(distinct))
    return distinct, summed.astype(np.int64)


# Resamples are drawn in blocks of about this many cells (resamples x distinct vectors), so that memory stays
# flat up to MAX_RESAMPLES; the draws are the same whatever the block size.
_RESAMPLE_BLOCK_CELLS = 1 << 21


def _blocks(resamples: int, width: int) -> list[int]:
    block = max(1, _RESAMPLE_BLOCK_CELLS // max(width, 1))
    return [min(block, resamples - start) for start in range(0, resamples, block)]


def _bootstrap_totals(sample: SentenceCounts, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The totals (resamples x width) of bootstrap samples: each takes as many sentences as `sample` holds,
    drawn with replacement, as how many times each distinct vector is drawn."""
    size = sample.size
    if not size:
        return np.zeros((resamples, sample.vectors.shape[1]), dtype=np.int64)
    share = sample.sentences / size
    return np.concatenate(
        [rng.multinomial(size, share, size=block) @ sample.vectors for block in _blocks(resamples, len(share))]
    )


def _swapped_totals(pairs: SentenceCounts, shuffles: int, rng: np.random.Generator) -> np.ndarray:
    """The totals (shuffles x 12) of the two systems with each sentence's two outputs swapped with probability
    one half (approximate randomization). A swap moves the difference of the sentence's two vectors from one
    system to the other, so sentences where both systems agree are left out and the rest are drawn as how many
    of the sentences sharing a pair of vectors are swapped (a binomial draw)."""
    width = len(SCENARIOS)
    system_a, system_b = pairs.vectors[:, :width], pairs.vectors[:, width:]
    differ = (system_a != system_b).any(axis=1)
    moved, sentences = system_b[differ] - system_a[differ], pairs.sentences[differ]
    totals = pairs.totals()
    blocks = []
    for block in _blocks(shuffles, len(sentences)):
        shift = rng.binomial(sentences, 0.5, size=(block, len(sentences))) @ moved
        blocks.append(np.hstack((totals[:width] + shift, totals[width:] - shift)))
    return np.concatenate(blocks) if blocks else np.zeros((0, 2 * width), dtype=np.int64)


# _OUTCOMES_MATRIX[scenario, scheme * 5 + outcome] is 1 where docs/scoring.md §4 gives the scenario that outcome
# under the scheme: the table `Tally.counts` reads, as a matrix that turns scenario totals into MUC counts.
_OUTCOMES_MATRIX = np.array(
    [
        [float(OUTCOMES[scenario][scheme] == outcome) for scheme in EVALUATION_SCHEMES for outcome in _FIELD]
        for scenario in SCENARIOS
    ]
)
# The measures the statistics cover, in the order of `_measures`' last axis; F's key depends on beta.
_MEASURES = ("precision", "recall", "f")


def _measures(totals: np.ndarray, options: Options) -> np.ndarray:
    """Precision, recall and F of every scheme, in floats, for scenario totals of shape (..., 6): shape
    (..., 4 schemes, 3 measures). The rules are those of `Counts.precision`, `Counts.recall` and `f_score`
    (docs/scoring.md §4: `zero_division` for P when ACT = 0 and for R when POS = 0, F = 0 where β²P + R = 0);
    P and R are the correctly rounded floats `scores` gives, F within rounding (tests/test_statistics.py)."""
    counts = np.asarray(totals, dtype=np.float64) @ _OUTCOMES_MATRIX
    counts = counts.reshape(*counts.shape[:-1], len(EVALUATION_SCHEMES), len(_FIELD))
    correct, incorrect, partial, missed, spurious = np.moveaxis(counts, -1, 0)
    credit = correct + partial / 2
    actual = correct + incorrect + partial + spurious
    possible = correct + incorrect + partial + missed
    beta2 = options.beta**2
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(actual > 0, credit / actual, options.zero_division)
        recall = np.where(possible > 0, credit / possible, options.zero_division)
        denominator = beta2 * precision + recall
        f = np.where(denominator > 0, (1 + beta2) * precision * recall / denominator, 0.0)
    return np.stack((precision, recall, f), axis=-1)


def _measure_keys(options: Options) -> list[str]:
    """The keys of the statistics, in the order of `_measures` flattened: strict_precision ... type_f1."""
    names = [options.f_name if measure == "f" else measure for measure in _MEASURES]
    return [f"{scheme}_{name}" for scheme in EVALUATION_SCHEMES for name in names]


def _bca_interval(
    estimate: np.ndarray, resampled: np.ndarray, jackknife: np.ndarray, weights: np.ndarray, level: float
) -> tuple[np.ndarray, np.ndarray]:
    """The bias-corrected and accelerated (BCa) bootstrap interval of each statistic (Efron 1987; Efron and
    Tibshirani 1993, ch. 14; scipy's default): `estimate` (k,), its values on the resamples (resamples x k), and
    its leave-one-sentence-out values (distinct vectors x k), each standing for `weights` sentences."""
    normal = NormalDist()
    resamples = len(resampled)
    # Bias correction: where the estimate falls among the resamples. Ties count half, as F takes few values on
    # a few sentences (one sentence: every resample ties, and the interval has zero width); an estimate outside
    # every resample counts as if half a resample lay beyond it.
    below = ((resampled < estimate).sum(axis=0) + 0.5 * (resampled == estimate).sum(axis=0)) / resamples
    below = np.clip(below, 0.5 / resamples, 1 - 0.5 / resamples)
    # Acceleration: the skewness of the jackknife values.
    centred = (weights @ jackknife) / weights.sum() - jackknife
    second, third = weights @ centred**2, weights @ centred**3
    low, high = np.empty(len(estimate)), np.empty(len(estimate))
    alpha = (1 - level) / 2
    for column in range(len(estimate)):
        bias = normal.inv_cdf(float(below[column]))
        acceleration = float(third[column]) / (6 * float(second[column]) ** 1.5) if second[column] > 0 else 0.0
        levels = []
        for z in (normal.inv_cdf(alpha), normal.inv_cdf(1 - alpha)):
            shifted = bias + z
            denominator = 1 - acceleration * shifted
            # Where the correction runs past infinity, the level is the end it runs to.
            levels.append(normal.cdf(bias + shifted / denominator) if denominator > 0 else float(shifted > 0))
        low[column], high[column] = np.quantile(resampled[:, column], levels)
    return low, high


def _randomization_p_values(observed: np.ndarray, shuffled: np.ndarray) -> np.ndarray:
    """Two-sided p-values of approximate randomization (Yeh 2000; Riezler and Maxwell 2005): the share of
    shuffles whose difference is at least as far from zero as the observed one, counted as (c + 1) / (n + 1)
    (as scipy's permutation_test counts a randomized test), so never 0, and 1 for a system against itself.
    Differences that are equal but rounded differently count as equal (scipy's relative tolerance)."""
    tolerance = 100 * np.finfo(np.float64).eps * np.abs(observed)
    extreme = (np.abs(shuffled) >= np.abs(observed) - tolerance).sum(axis=0)
    return (extreme + 1) / (len(shuffled) + 1)


def _interval_keys(result: Mapping[str, Any], sample: SentenceCounts, options: Options) -> dict[str, float]:
    """`{key}_low` and `{key}_high` for every scheme's precision, recall and F: the BCa interval from
    `options.bootstrap` resamples of the sentences (docs/scoring.md §9), always holding the point estimate."""

    def statistic(totals: np.ndarray) -> np.ndarray:
        measures = _measures(totals, options)
        return measures.reshape(*measures.shape[:-2], -1)

    keys = _measure_keys(options)
    if sample.size:
        rng = np.random.default_rng(options.seed)
        totals = sample.totals()
        resampled = statistic(_bootstrap_totals(sample, options.bootstrap, rng))
        jackknife = statistic(totals - sample.vectors)
        low, high = _bca_interval(statistic(totals), resampled, jackknife, sample.sentences, options.confidence_level)
    else:  # no sentence: nothing to resample
        low = high = np.array([result[key] for key in keys])
    intervals = {}
    for key, key_low, key_high in zip(keys, low.tolist(), high.tolist()):
        # The estimate is `scores`' exact value; the resamples' floats may round it a hair differently.
        intervals[f"{key}_low"] = min(key_low, result[key])
        intervals[f"{key}_high"] = max(key_high, result[key])
    return intervals


def _comparison(
    tally_a: Tally, tally_b: Tally, pairs: SentenceCounts, options: Options, resamples: int, seed: int
) -> dict[str, float]:
    """`compare_semeval`'s dict from the two systems' tallies and their per-sentence counts, side by side."""
    width = len(SCENARIOS)

    def difference(totals: np.ndarray) -> np.ndarray:
        delta = _measures(totals[..., width:], options) - _measures(totals[..., :width], options)
        return delta.reshape(*delta.shape[:-2], -1)

    result_a, result_b = scores(tally_a, options), scores(tally_b, options)
    keys = _measure_keys(options)
    rng = np.random.default_rng(seed)
    totals = pairs.totals()
    observed = difference(totals)
    if pairs.size:
        resampled = difference(_bootstrap_totals(pairs, resamples, rng))
        jackknife = difference(totals - pairs.vectors)
        low, high = _bca_interval(observed, resampled, jackknife, pairs.sentences, options.confidence_level)
    else:
        low = high = observed
    p_values = _randomization_p_values(observed, difference(_swapped_totals(pairs, resamples, rng)))
    result: dict[str, float] = {}
    for key, key_low, key_high, p_value in zip(keys, low.tolist(), high.tolist(), p_values.tolist()):
        delta = result_b[key] - result_a[key]
        result[f"{key}_a"] = result_a[key]
        result[f"{key}_b"] = result_b[key]
        result[f"{key}_delta"] = delta
        result[f"{key}_delta_low"] = min(key_low, delta)
        result[f"{key}_delta_high"] = max(key_high, delta)
        result[f"{key}_p_value"] = p_value
    return result


def compare_semeval(
    *,
    predictions_a: Any,
    predictions_b: Any,
    references: Any,
    references_b: Any = None,
    n_resamples: int = 10_000,
    seed: int = 0,
    **options: Any,
) -> dict[str, float]:
    """Is system B better than system A on the same sentences? (docs/scoring.md §9)

    For each scheme and each of precision, recall and F (`{key}` = `strict_precision` ... `type_f1`), a flat
    dict of floats: `{key}_a`, `{key}_b`, `{key}_delta` (B - A), `{key}_delta_low` and `{key}_delta_high` (the
    paired bootstrap BCa interval of the difference at `confidence_level`, resampling sentences), and
    `{key}_p_value` (two-sided approximate randomization: each sentence's two outputs swapped at random, in
    `n_resamples` shuffles). `seed` makes the numbers repeat. `options` are `compute_semeval`'s scoring options
    (scheme, mode, labels, beta ...), applied to both systems.

    `references_b`, when given (a second file's copy of the references), must equal `references`. Everything is
    checked before any resampling: a `ValueError` names the system and the first sentence that differs."""
    checked = Options.of(**options)
    if checked.bootstrap or checked.return_entities or checked.per_type:
        raise ValueError(
            "compare_semeval takes neither bootstrap (n_resamples sets its resamples), return_entities nor "
            "per_type: it reports overall scores; score each system with compute_semeval for the rest"
        )
    resamples = _check_resamples("n_resamples", n_resamples, 1)
    seed = _check_seed(seed)
    references = _as_list(references, "references")
    if references_b is not None:
        _check_same_references(references, _as_list(references_b, "references_b"))
    counted = []
    for side, predictions in (("predictions_a", predictions_a), ("predictions_b", predictions_b)):
        try:
            predictions, aligned_references, form = _batches(predictions, references)
            counted.append(_count_any(predictions, aligned_references, form, checked, by_sentence=True)[0])
        except InvalidInputError as error:
            raise error.at(side=side if error.side in (None, "predictions") else error.side) from None
        except ValueError as error:
            raise ValueError(f"{side}: {error}") from None
    counted_a, counted_b = counted
    pairs = SentenceCounts.of(np.hstack((counted_a.by_sentence, counted_b.by_sentence)))
    return _comparison(counted_a.tally, counted_b.tally, pairs, checked, resamples, seed)


def _check_same_references(references: list | np.ndarray, references_b: list | np.ndarray) -> None:
    """Both systems must be scored on the same references: a `ValueError` names the first sentence that differs."""
    for sentence, (reference, reference_b) in enumerate(zip(_rows(references), _rows(references_b))):
        if list(reference) != list(reference_b):
            raise InvalidInputError(
                "references_b differs from references; expected both systems scored on the same references",
                "references_b",
                sentence,
            )
    if len(references) != len(references_b):
        raise ValueError(
            f"references hold {len(references)} sentences and references_b {len(references_b)}; expected both "
            "systems scored on the same references"
        )


# ---------------------------------------------------------------------------------------------------------
# 9. The evaluate wrapper
# ---------------------------------------------------------------------------------------------------------
# Defined only when the module is imported as a library: the command line scores files with numpy alone.

if not _COMMAND_LINE:
    _STRING_TAGS = datasets.Features(
        {
            "predictions": datasets.Sequence(datasets.Value("string")),
            "references": datasets.Sequence(datasets.Value("string")),
        }
    )
    _INTEGER_IDS = datasets.Features(
        {
            "predictions": datasets.Sequence(datasets.Value("int64")),
            "references": datasets.Sequence(datasets.Value("int64")),
        }
    )
    # Spans are stored in one form whatever form they came in (dicts with `label` or `entity_group`, tuples):
    # a list of {start, end, type} per sentence. `[...]` is a list of structs in every datasets version
    # (`Sequence` of a dict would store a dict of lists).
    _SPAN_FEATURES = {
        "start": datasets.Value("int64"),
        "end": datasets.Value("int64"),
        "type": datasets.Value("string"),
    }
    _SPAN_LISTS = datasets.Features({"predictions": [_SPAN_FEATURES], "references": [_SPAN_FEATURES]})
    _FEATURES = {TAGS: _STRING_TAGS, IDS: _INTEGER_IDS, SPANS: _SPAN_LISTS}
    # Sentences without any value, as a process other than 0 stores them when it has nothing else: Arrow
    # merges lists of nulls into process 0's lists of strings, ids or structs alike.
    _NO_VALUES = datasets.Features(
        {
            "predictions": datasets.Sequence(datasets.Value("null")),
            "references": datasets.Sequence(datasets.Value("null")),
        }
    )

    @evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
    class NerSemeval(evaluate.Metric):
        """SemEval-2013 named-entity scores; options given here are the defaults of every `compute`."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            options = {name: kwargs.pop(name) for name in list(kwargs) if name in OPTION_NAMES}
            Options.of(**options)  # a bad option fails at load time, not at the first compute
            super().__init__(*args, **kwargs)
            self.options = options
            self._sentences_added = 0
            # The form of the batches stored so far (TAGS, IDS or SPANS), and how many sentences without any
            # value (no tag, no entity) were added before a batch fixed it: they fit every form, so they wait
            # for the first batch that says which (a document without entities must not make evaluate store
            # every later document as tags).
            self._stored_form: str | None = None
            self._waiting_empty = 0

        def _info(self) -> evaluate.MetricInfo:
            return evaluate.MetricInfo(
                description=_DESCRIPTION,
                citation=_CITATION,
                inputs_description=_KWARGS_DESCRIPTION,
                features=[_STRING_TAGS, _INTEGER_IDS, _SPAN_LISTS],
                reference_urls=[
                    "https://aclanthology.org/S13-2056/",
                    "https://www.clips.uantwerpen.be/conll2003/ner/",
                    "https://github.com/MantisAI/nervaluate",
                ],
            )

        def _infer_feature_from_batch(self, batch: dict[str, list]) -> datasets.Features:
            # evaluate looks at the first sentence only, and an empty one fits any form: look at a value. A
            # batch without any (a process with no data of its own) takes the form stored before; else, on a
            # process other than 0, the form that merges with any, and on process 0 (whose form is the one
            # every file is read in) the one label_list implies.
            form = _batch_form(batch["predictions"], batch["references"]) or self._stored_form
            if form is None and self.process_id > 0:
                return _NO_VALUES
            if form is None:
                form = IDS if self.options.get("label_list") is not None else TAGS
            return _FEATURES[form]

        def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
            """Add one sentence, checked as `add_batch` checks a batch."""
            if prediction is None or reference is None or kwargs:
                return super().add(prediction=prediction, reference=reference, **kwargs)
            return self.add_batch(predictions=[prediction], references=[reference])

        def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
            """Add a batch of tag (or id) sequences; numpy arrays and torch tensors are turned into lists."""
            if predictions is None or references is None:
                return super().add_batch(predictions=predictions, references=references, **kwargs)
            # Checked before evaluate stores anything, with sentence numbers counted over every batch added.
            try:
                predictions, references, form = _batches(predictions, references)
                predictions, references = _rows(predictions), _rows(references)
                if not predictions:
                    return None  # an empty batch counts nothing
                if _batch_form(predictions, references) is None and self._stored_form is None:
                    self._waiting_empty += len(predictions)  # no value: it fits any form, see __init__
                    self._sentences_added += len(predictions)
                    return None
                if form == SPANS:  # one stored form for dicts and tuples, checked here
                    predictions, references = (
                        [[span.as_dict() for span in sentence] for sentence in _read_spans(batch, side)]
                        for batch, side in ((predictions, "predictions"), (references, "references"))
                    )
                else:
                    _check_one_kind(predictions, references)
                if self._stored_form not in (None, form) and _batch_form(predictions, references) is not None:
                    raise ValueError(
                        f"found {form} where the batches added before hold {self._stored_form}; expected every "
                        "batch of one evaluation in one form"
                    )
                waiting = [[] for _ in range(self._waiting_empty)]
                first_batch = self.writer is None
                try:
                    super().add_batch(predictions=waiting + predictions, references=waiting + references, **kwargs)
                except ValueError:
                    if first_batch:  # evaluate fixed the stored form from this rejected batch: start afresh
                        self._forget_stored_batches(keep_waiting=True)
                    raise
            except InvalidInputError as error:
                if error.sentence is None:
                    raise
                raise error.at(sentence=self._sentences_added + error.sentence) from None
            self._waiting_empty = 0
            self._stored_form = self._stored_form or form
            self._sentences_added += len(predictions)
            return None

        def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> dict | None:
            """Score everything added so far plus this batch; `None` on processes other than process 0.

            The options are checked before anything stored is consumed, and a compute that fails leaves the
            stored batches in place for the next one."""
            if (predictions is None) != (references is None):
                given, missing = ("predictions", "references") if references is None else ("references", "predictions")
                raise ValueError(
                    f"found {given} without {missing}; expected both, or neither to score the added batches"
                )
            options = Options.of(**{**self.options, **kwargs})
            if self.writer is None and self.num_process == 1:
                # Nothing stored and nobody to share with: evaluate's cache would write this batch to disk and
                # read it back unchanged, a round trip that costs more than the scoring (benchmarks/README.md).
                if predictions is None:
                    predictions = references = []
                if self._waiting_empty:  # they count nothing, but number the sentences of `entities`
                    waiting = [[] for _ in range(self._waiting_empty)]
                    predictions = waiting + _rows(_as_list(predictions, "predictions"))
                    references = waiting + _rows(_as_list(references, "references"))
                result = score(predictions, references, options)
                self._waiting_empty = self._sentences_added = 0
                return result
            if predictions is not None:
                self.add_batch(predictions=predictions, references=references)
            if self.writer is None:
                # A process with no data of its own (or only sentences without values) still writes its cache
                # file: process 0 waits for every process's file, and would otherwise wait evaluate's whole
                # `timeout` and fail.
                waiting = [[] for _ in range(self._waiting_empty)]
                super().add_batch(predictions=waiting, references=waiting)
                self._waiting_empty = 0
            try:
                result = super().compute(**kwargs)
            except Exception:
                self._store_again()
                raise
            self._sentences_added = 0
            self._stored_form = None
            return result

        def _compute(self, *, predictions: list, references: list, **kwargs: Any) -> dict[str, Any]:
            return score(predictions, references, Options.of(**{**self.options, **kwargs}))

        def _store_again(self) -> None:
            # evaluate's compute consumes the stored batches before scoring them (it closes the writer, and
            # forgets the cache file and the stored form) and cleans up only after success. Store what it read
            # back again, chunk by chunk, so that the next compute scores the same batches. Across processes
            # the other processes' files are gone with their locks: there it can only start afresh.
            data, form = self.data, self._stored_form
            if data is None or self.num_process > 1:
                self._forget_stored_batches()
                return
            self._forget_stored_batches()  # the old file stays readable while `data` maps it
            self.selected_feature_format = None
            self._stored_form = form
            for start in range(0, len(data), 10_000):
                rows = data[start : start + 10_000]
                super().add_batch(predictions=rows["predictions"], references=rows["references"])
            self._sentences_added = len(data)

        def _forget_stored_batches(self, keep_waiting: bool = False) -> None:
            # evaluate cleans up only after a successful _compute; after bad input it would keep the stored
            # batches, the cache file and its lock, and the next compute would fail or wait for the lock.
            self.data = None
            self.writer = None
            self.selected_feature_format = None
            self._stored_form = None
            if not keep_waiting:
                self._waiting_empty = 0
            self._sentences_added = self._waiting_empty
            if self.buf_writer is not None:
                self.buf_writer = None
                return
            for filelock, file_path in reversed(list(zip(self.filelocks or [], self.file_paths or []))):
                with contextlib.suppress(OSError):
                    os.remove(file_path)
                filelock.release()
            self.filelocks = self.file_paths = None

# ---------------------------------------------------------------------------------------------------------
# 10. The command line
# ---------------------------------------------------------------------------------------------------------


class ConllError(ValueError):
    """A malformed line of a CoNLL (or JSON lines) file: `source` (file name), `line` (1-based) and `problem` as
    attributes."""

    def __init__(self, source: str, line: int, problem: str) -> None:
        self.source = source
        self.line = line
        self.problem = problem
        super().__init__(f"{source}:{line}: {problem}")


class ConllSentence(NamedTuple):
    """One sentence of a CoNLL file: the first column, the second-last and the last, and each token's line."""

    tokens: list[str]
    references: list[str]
    predictions: list[str]
    lines: list[int]


def read_conll(lines: Iterable[str], source: str = "<stdin>") -> Iterator[ConllSentence]:
    """The sentences of a CoNLL file, read lazily: the first column is the token, the last two the reference
    and the predicted tag; a blank line ends a sentence and ``-DOCSTART-`` lines are skipped. Raises
    `ConllError` (a `ValueError`) naming `source` and the line of a malformed line."""
    sentence = ConllSentence([], [], [], [])
    for number, line in enumerate(lines, start=1):
        columns = line.split()
        if not columns or columns[0] == "-DOCSTART-":
            if sentence.tokens:
                yield sentence
                sentence = ConllSentence([], [], [], [])
            continue
        if len(columns) < 3:
            found = f"{len(columns)} column{'' if len(columns) == 1 else 's'} ({line.strip()!r})"
            raise ConllError(
                source,
                number,
                f"found {found}; expected at least 3 columns, separated by spaces: "
                "the token, the reference tag and the predicted tag last",
            )
        sentence.tokens.append(columns[0])
        sentence.references.append(columns[-2])
        sentence.predictions.append(columns[-1])
        sentence.lines.append(number)
    if sentence.tokens:
        yield sentence


# The summary table's columns, from the most lenient scheme to the strictest (docs/scoring.md §6), and its
# rows: the MUC counts, then the scores. The command line and the Space both lay the table out from these.
SUMMARY_COLUMNS = ("type", "partial", "exact", "strict")
SUMMARY_MEASURES = ("correct", "incorrect", "partial", "missed", "spurious", "precision", "recall")


def summary_rows(results: Mapping[str, Any], beta: float = 1.0) -> list[tuple[str, list[int | float]]]:
    """The summary table of a `compute` result: ``(row label, [type, partial, exact, strict])`` per measure,
    the F row labelled ``F1`` (``F0.5`` ...)."""
    f_name = f_key(beta)
    measures = [(measure, measure) for measure in SUMMARY_MEASURES] + [(f_name.upper(), f_name)]
    return [(label, [results[f"{column}_{measure}"] for column in SUMMARY_COLUMNS]) for label, measure in measures]


def format_table(results: Mapping[str, Any], beta: float = 1.0) -> str:
    """The summary table as text: MUC counts and scores (rows) by type / partial / exact / strict. With the
    interval keys of `bootstrap` in `results`, an interval column follows each scheme's column."""
    f_name = f_key(beta)
    intervals = f"strict_{f_name}_low" in results
    interval_header = f"{'interval':>17}" if intervals else ""
    lines = [f"{'measure':<10}" + "".join(f"{column:>10}{interval_header}" for column in SUMMARY_COLUMNS)]
    for (label, cells), measure in zip(summary_rows(results, beta), [*SUMMARY_MEASURES, f_name]):
        line = f"{label:<10}"
        for column, cell in zip(SUMMARY_COLUMNS, cells):
            line += f"{_format_number(cell):>10}"
            if intervals:
                line += f"{_format_interval(results, f'{column}_{measure}'):>17}"
        lines.append(line.rstrip())
    return "\n".join(lines)


def _format_interval(results: Mapping[str, Any], key: str) -> str:
    """``low-high`` of a key that has an interval, else nothing (the counts)."""
    if f"{key}_low" not in results:
        return ""
    return f"{results[f'{key}_low']:.4f}-{results[f'{key}_high']:.4f}"


def format_comparison(results: Mapping[str, Any], beta: float = 1.0) -> str:
    """The `compare_semeval` dict as text: per scheme and measure, A, B, B - A, its interval and the p-value."""
    f_name = f_key(beta)
    lines = [f"{'scheme':<10}{'measure':<11}{'A':>9}{'B':>9}{'B-A':>9}{'low':>9}{'high':>9}{'p-value':>11}"]
    for scheme in EVALUATION_SCHEMES:
        for measure, label in (("precision", "precision"), ("recall", "recall"), (f_name, f_name.upper())):
            key = f"{scheme}_{measure}"
            numbers = [f"{results[f'{key}_{end}']:.4f}" for end in ("a", "b")]
            numbers += [f"{results[f'{key}_{end}']:+.4f}" for end in ("delta", "delta_low", "delta_high")]
            # The smallest p of a million shuffles is 1e-06, not 0.0000.
            p_value = results[f"{key}_p_value"]
            p_value = f"{p_value:.4f}" if p_value >= 0.0001 else f"{p_value:.0e}"
            lines.append(f"{scheme:<10}{label:<11}" + "".join(f"{number:>9}" for number in numbers) + f"{p_value:>11}")
    return "\n".join(lines)


def format_type_table(
    results: Mapping[str, Any], entity_types: Sequence[str], scheme: str = "strict", beta: float = 1.0
) -> str:
    """Per-type precision / recall / F / support (reference entities) under one scheme."""
    f_name = f_key(beta)
    title = f"{scheme} by type"
    width = max([len(title), *map(len, entity_types)]) + 2
    lines = [f"{title:<{width}}{'precision':>10}{'recall':>10}{f_name.upper():>10}{'support':>10}"]
    for entity_type in entity_types:
        prefix = f"{entity_type}_{scheme}"
        lines.append(
            f"{entity_type:<{width}}"
            + "".join(f"{_format_number(results[f'{prefix}_{m}']):>10}" for m in ("precision", "recall", f_name))
            + f"{results[f'{prefix}_possible']:>10}"
        )
    return "\n".join(lines)


def format_confusion_table(matrix: Mapping[str, Mapping[str, int]]) -> str:
    """The confusion matrix as text: reference types as rows, predicted types as columns, O last in both."""
    names = list(matrix)
    title = "reference \\ predicted"
    first = max([len(title), *map(len, names)]) + 2
    widths = [max(len(name), *(len(str(matrix[row][name])) for row in names)) + 2 for name in names]
    lines = [f"{title:<{first}}" + "".join(f"{name:>{width}}" for name, width in zip(names, widths))]
    for row in names:
        cells = "".join(f"{matrix[row][name]:>{width}}" for name, width in zip(names, widths))
        lines.append(f"{row:<{first}}{cells}")
    return "\n".join(lines)


def _format_number(value: int | float) -> str:
    return str(value) if isinstance(value, int) else f"{value:.4f}"


def _text_lines(handle: Iterable[bytes | str], source: str) -> Iterator[str]:
    """The lines of a file as text: UTF-8 bytes decoded (a text stream passes as it is), a byte-order mark at
    the start dropped (as the Space does); a byte that is not UTF-8 is a `ConllError` naming the line."""
    for number, raw in enumerate(handle, start=1):
        if isinstance(raw, str):
            yield raw.removeprefix("\ufeff") if number == 1 else raw
            continue
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ConllError(
                source,
                number,
                f"byte {raw[error.start]:#04x} at column {error.start + 1} is not UTF-8; expected UTF-8 text",
            ) from None


def _count_conll(sentences: list[ConllSentence], source: str, options: Options, by_sentence: bool) -> _Counted:
    """Count one chunk of a file's sentences (and each one's scenarios with `by_sentence`); a bad tag is a
    `ConllError` naming the file, the line and the column."""
    predictions = [sentence.predictions for sentence in sentences]
    references = [sentence.references for sentence in sentences]
    try:
        return _count_batch(predictions, references, False, options, by_sentence)[0]
    except InvalidInputError as error:
        if error.sentence is None or error.token is None:
            raise
        line = sentences[error.sentence].lines[error.token]
        column = "reference (second last)" if error.side == "references" else "predicted (last)"
        raise ConllError(source, line, f"{column} column: {error.hint('use --scheme {}')}") from None


def _no_sentences(width: int = len(SCENARIOS)) -> SentenceCounts:
    return SentenceCounts.of(np.zeros((0, width), dtype=np.int64))


@dataclass
class _FileTally:
    """What the command line accumulates while it reads: the cells and how much it read; with --bootstrap the
    per-sentence counts too, kept as their distinct vectors (so memory follows those, not the sentences)."""

    cells: Counter = dataclasses.field(default_factory=Counter)
    sentences: int = 0
    tokens: int = 0
    by_sentence: SentenceCounts = dataclasses.field(default_factory=_no_sentences)
    spans: bool = False  # read from JSON lines of spans (`--spans`): sentences are documents, no tokens

    def add(self, sentences: list[ConllSentence], source: str, options: Options) -> None:
        """Count one chunk of sentences; a bad tag is a `ConllError` naming the line."""
        counted = _count_conll(sentences, source, options, by_sentence=options.bootstrap > 0)
        self.cells.update(counted.tally.cells)
        if counted.by_sentence is not None:
            self.by_sentence += SentenceCounts.of(counted.by_sentence)
        self.sentences += len(sentences)
        self.tokens += sum(len(sentence.tokens) for sentence in sentences)

    def add_spans(self, documents: list[tuple[int, list, list]], source: str, options: Options) -> None:
        """Count one chunk of (line, references, predictions) documents; a bad entity is a `ConllError` naming
        the line."""
        references = [document[1] for document in documents]
        predictions = [document[2] for document in documents]
        try:
            counted, _ = _count_any(predictions, references, SPANS, options, by_sentence=options.bootstrap > 0)
        except InvalidInputError as error:
            if error.sentence is None:
                raise
            line = documents[error.sentence][0]
            raise ConllError(source, line, f"{error.side}, entity {error.entity}: {error.problem}") from None
        self.cells.update(counted.tally.cells)
        if counted.by_sentence is not None:
            self.by_sentence += SentenceCounts.of(counted.by_sentence)
        self.sentences += len(documents)


@dataclass
class _PairedTally:
    """What --compare accumulates while it reads two files in step: each system's cells, how much it read, and
    the two systems' per-sentence counts side by side (as distinct pairs of vectors)."""

    cells_a: Counter = dataclasses.field(default_factory=Counter)
    cells_b: Counter = dataclasses.field(default_factory=Counter)
    sentences: int = 0
    tokens: int = 0
    pairs: SentenceCounts = dataclasses.field(default_factory=lambda: _no_sentences(2 * len(SCENARIOS)))

    def add(
        self, sentences: list[tuple[ConllSentence, ConllSentence]], sources: Sequence[str], options: Options
    ) -> None:
        counted_a, counted_b = (
            _count_conll([pair[side] for pair in sentences], sources[side], options, by_sentence=True)
            for side in (0, 1)
        )
        self.cells_a.update(counted_a.tally.cells)
        self.cells_b.update(counted_b.tally.cells)
        self.pairs += SentenceCounts.of(np.hstack((counted_a.by_sentence, counted_b.by_sentence)))
        self.sentences += len(sentences)
        self.tokens += sum(len(a.tokens) for a, _ in sentences)


# Sentences are scored as they are read, this many tokens at a time: memory stays flat however large the file.
_CLI_CHUNK_TOKENS = 1 << 16


def _chunks(items: Iterable[Any], size: Callable[[Any], int], limit: int) -> Iterator[list[Any]]:
    """`items` in lists whose sizes add up to about `limit`: files are scored a chunk at a time as they are read."""
    chunk: list[Any] = []
    total = 0
    for item in items:
        chunk.append(item)
        total += size(item)
        if total >= limit:
            yield chunk
            chunk, total = [], 0
    if chunk:
        yield chunk


def _tally_file(handle: Iterable[bytes], source: str, options: Options, total: _FileTally) -> None:
    sentences = read_conll(_text_lines(handle, source), source)
    for chunk in _chunks(sentences, lambda sentence: len(sentence.tokens), _CLI_CHUNK_TOKENS):
        total.add(chunk, source, options)


def _tally_files_in_step(handles: Sequence[Iterable[bytes]], sources: Sequence[str], options: Options) -> _PairedTally:
    """Read two systems' files sentence by sentence, in step, checking that they hold the same tokens and
    reference tags, and count them a chunk at a time."""
    total = _PairedTally()
    files = [read_conll(_text_lines(handle, source), source) for handle, source in zip(handles, sources)]
    for chunk in _chunks(_same_sentences(files, sources), lambda pair: len(pair[0].tokens), _CLI_CHUNK_TOKENS):
        total.add(chunk, sources, options)
    return total


def _same_sentences(
    files: Sequence[Iterator[ConllSentence]], sources: Sequence[str]
) -> Iterator[tuple[ConllSentence, ConllSentence]]:
    for sentence_a, sentence_b in zip_longest(*files):
        _check_same_sentence(sentence_a, sentence_b, sources)
        yield sentence_a, sentence_b


def _check_same_sentence(
    sentence_a: ConllSentence | None, sentence_b: ConllSentence | None, sources: Sequence[str]
) -> None:
    """Both systems must be scored on the same sentences: a `ConllError` names B's first line that differs from
    A's (token or reference tag), and A's line it differs from."""
    source_a, source_b = sources
    if sentence_a is None or sentence_b is None:
        present, source, other = (
            (sentence_a, source_a, source_b) if sentence_b is None else (sentence_b, source_b, source_a)
        )
        problem = f"this sentence has no counterpart: {other} ends before it; --compare {_SAME_SENTENCES}"
        raise ConllError(source, present.lines[0], problem)
    if sentence_a.tokens == sentence_b.tokens and sentence_a.references == sentence_b.references:
        return

    def line(sentence: ConllSentence, index: int) -> tuple[int, str]:
        if index < len(sentence.tokens):
            return sentence.lines[
                index
            ], f"token {sentence.tokens[index]!r} with reference {sentence.references[index]!r}"
        return sentence.lines[-1] + 1, "the end of the sentence"

    index = next(
        index
        for index in range(max(len(sentence_a.tokens), len(sentence_b.tokens)))
        if line(sentence_a, index)[1] != line(sentence_b, index)[1]
    )
    (line_a, found_a), (line_b, found_b) = line(sentence_a, index), line(sentence_b, index)
    raise ConllError(
        source_b, line_b, f"found {found_b} where {source_a}:{line_a} has {found_a}; --compare {_SAME_SENTENCES}"
    )


_SAME_SENTENCES = "needs the same tokens and reference column in both files"


# --compare's resamples unless --bootstrap says otherwise: enough for a p-value of 0.0001 (Koehn 2004 used 1,000).
_COMPARE_RESAMPLES = 10_000


def _tally_spans_file(handle: Iterable[bytes], source: str, options: Options, total: _FileTally) -> None:
    """Score a JSON lines file of span lists (`--spans`): one JSON object a line with `references` and
    `predictions` (each a list of entities, docs/scoring.md §1) and optionally `text`; blank lines are skipped.
    Documents are scored as they are read, in chunks of about _CHUNK_ENTITIES entities."""
    documents = _span_documents(handle, source)
    for chunk in _chunks(documents, lambda document: len(document[1]) + len(document[2]), _CHUNK_ENTITIES):
        total.add_spans(chunk, source, options)


def _span_documents(handle: Iterable[bytes], source: str) -> Iterator[tuple[int, list, list]]:
    """(line, references, predictions) of each JSON line of a `--spans` file; a malformed line is a
    `ConllError`."""
    expected = "expected one JSON object a line with 'references' and 'predictions' lists of entities"
    for number, line in enumerate(_text_lines(handle, source), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ConllError(source, number, f"not JSON ({error.msg}, column {error.colno}); {expected}") from None
        if not isinstance(record, dict):
            raise ConllError(source, number, f"found a JSON {type(record).__name__}; {expected}")
        for key in ("references", "predictions"):
            if not isinstance(record.get(key), list):
                found = "no" if key not in record else f"a JSON {type(record[key]).__name__} for"
                raise ConllError(source, number, f"found {found} {key!r}; {expected}")
        if not isinstance(record.get("text", ""), str):
            raise ConllError(
                source, number, f"found a JSON {type(record['text']).__name__} for 'text'; expected a string"
            )
        yield number, record["references"], record["predictions"]


def main(argv: Sequence[str] | None = None) -> int:
    """conlleval's drop-in: ``python ner_semeval.py [FILE ...]`` prints the summary table; the exit status."""
    parser = argparse.ArgumentParser(
        prog="ner_semeval.py",
        description="SemEval-2013 NER scores of CoNLL columns: the last two columns of each line are the "
        "reference and the predicted tag; a blank line ends a sentence.",
    )
    parser.add_argument("files", nargs="*", help="CoNLL files (standard input when none)")
    parser.add_argument(
        "--spans",
        metavar="FILE.jsonl",
        help="score spans instead of tags: one JSON object a line with 'references' and 'predictions' lists of "
        'entities ({"start", "end", "type"} or [start, end, type], end exclusive) and an optional \'text\'; '
        "- for standard input",
    )
    parser.add_argument("--scheme", default="IOB2", help="IOB2 (default), IOB1, IOE1, IOE2, IOBES, BILOU, BMES, IO")
    parser.add_argument("--mode", default=LENIENT, choices=MODES)
    parser.add_argument("--suffix", action="store_true", help="tags are TYPE-PREFIX")
    parser.add_argument(
        "--min-overlap",
        type=float,
        metavar="SHARE",
        help="overlap only where the prediction covers at least this share (0 to 1) of the reference",
    )
    parser.add_argument("--per-type", action="store_true", help="per-type keys in --json, all schemes in tables")
    parser.add_argument("--json", action="store_true", help="print the compute() dict as JSON")
    parser.add_argument("--confusion", action="store_true", help="the entity-type confusion matrix (in --json too)")
    parser.add_argument(
        "--bootstrap",
        type=int,
        metavar="N",
        help="add confidence intervals from N resamples of the sentences (BCa) to the table; with --compare, "
        f"the resamples of the interval and of the test (default {_COMPARE_RESAMPLES})",
    )
    parser.add_argument("--confidence-level", type=float, default=0.95, help="of the intervals (default 0.95)")
    parser.add_argument("--seed", type=int, default=0, help="of the resampling (default 0: every run the same)")
    parser.add_argument(
        "--compare",
        nargs=2,
        metavar=("A", "B"),
        help="compare two systems' CoNLL files with the same tokens and reference column: A, B, the difference "
        "B - A with its interval, and the p-value of approximate randomization, per scheme and measure",
    )
    args = parser.parse_args(argv)
    if args.compare and (args.files or args.spans or args.per_type or args.confusion):
        parser.error(
            "--compare reads its own two files and reports overall scores: drop FILE, --spans, --per-type and "
            "--confusion"
        )

    total = _FileTally(spans=args.spans is not None)
    try:
        common = {
            "scheme": args.scheme,
            "mode": args.mode,
            "suffix": args.suffix,
            "min_overlap": args.min_overlap,
            "confidence_level": args.confidence_level,
            "seed": args.seed,
        }
        if args.compare:
            default = _COMPARE_RESAMPLES if args.bootstrap is None else args.bootstrap
            resamples = _check_resamples("--bootstrap", default, 1)
            options = Options.of(**common)
            with open(args.compare[0], "rb") as handle_a, open(args.compare[1], "rb") as handle_b:
                paired = _tally_files_in_step((handle_a, handle_b), args.compare, options)
        else:
            options = Options.of(
                **common, per_type=args.per_type, confusion=args.confusion, bootstrap=args.bootstrap or 0
            )
            if total.spans:
                if args.files:
                    raise ValueError(f"found CoNLL files {args.files} with --spans; score tags or spans, not both")
                _check_span_options(options)
            for name in [args.spans] if total.spans else args.files or ["-"]:
                source = "<stdin>" if name == "-" else name
                stdin = getattr(sys.stdin, "buffer", sys.stdin)
                with contextlib.nullcontext(stdin) if name == "-" else open(name, "rb") as handle:
                    (_tally_spans_file if total.spans else _tally_file)(handle, source, options, total)
    except (OSError, ValueError) as error:
        print(f"{error}" if isinstance(error, ConllError) else f"error: {error}", file=sys.stderr)
        return 2

    try:
        if args.compare:
            _print_comparison(paired, options, resamples, args)
        else:
            _print_results(Tally(dict(total.cells)), total, options, args)
    except BrokenPipeError:  # `ner_semeval.py FILE | head`: the reader has seen enough
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _print_results(tally: Tally, total: _FileTally, options: Options, args: argparse.Namespace) -> None:
    if args.json:
        results = scores(tally, options)
        if options.bootstrap:
            results.update(_interval_keys(results, total.by_sentence, options))
        print(json.dumps(results, indent=2, ensure_ascii=False))
        return
    results = scores(tally, dataclasses.replace(options, per_type=True))
    entities = f"{results['strict_possible']} reference and {results['strict_actual']} predicted entities"
    read = f"{total.sentences} documents" if total.spans else f"{total.tokens} tokens in {total.sentences} sentences"
    settings = ["spans"] if total.spans else [args.scheme, args.mode]
    if options.min_overlap is not None:
        settings.append(f"min overlap {options.min_overlap:g}")
    print(f"processed {read} with {entities} ({', '.join(settings)})")
    if options.bootstrap:
        results.update(_interval_keys(results, total.by_sentence, options))
        units = "documents" if total.spans else "sentences"
        print(
            f"{options.confidence_level:.0%} intervals: BCa bootstrap of the {total.sentences} {units}, "
            f"{options.bootstrap} resamples, seed {options.seed}"
        )
    print()
    print(format_table(results))
    for scheme in EVALUATION_SCHEMES if args.per_type else ("strict",):
        if tally.entity_types:
            print()
            print(format_type_table(results, tally.entity_types, scheme))
    if args.confusion:
        print()
        print(format_confusion_table(results["confusion"]))
    sys.stdout.flush()  # a closed pipe shows here, inside the BrokenPipeError handler


def _print_comparison(paired: _PairedTally, options: Options, resamples: int, args: argparse.Namespace) -> None:
    tally_a, tally_b = Tally(dict(paired.cells_a)), Tally(dict(paired.cells_b))
    results = _comparison(tally_a, tally_b, paired.pairs, options, resamples, options.seed)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
        return
    name_a, name_b = args.compare
    print(
        f"compared {name_a} (A) and {name_b} (B): {paired.sentences} sentences, {paired.tokens} tokens, "
        f"{tally_a.counts('strict').possible} reference entities ({args.scheme}, {args.mode})"
    )
    print(
        f"B - A: {options.confidence_level:.0%} paired bootstrap interval (BCa) and two-sided approximate "
        f"randomization p-value, {resamples} resamples, seed {options.seed}"
    )
    print()
    print(format_comparison(results, options.beta))
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
