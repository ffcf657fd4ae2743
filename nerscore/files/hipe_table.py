"""HIPE's measures and the HIPE scorer's table (docs/hipe.md), reduced from our table of pairs.

A HIPE system response is paired with its gold document by document (`pairing="hipe"`, the scorer's greedy
pairing, `nerscore.pairing.greedy`, by default; `"optimal"` for ours, docs/scoring.md §3) into one table of pairs
(`nerscore.table.pairs.Pairs`, a unit per document). The measures are the scorer's: strict (our `strict`) and
fuzzy (our `type`: the same type, overlapping boundaries), TP = COR, FP = ACT - COR, FN = POS - COR; `micro` over
the corpus, `macro_doc` the mean and standard deviation of each document's P, R and F1 (P over the documents with
a prediction, R over those with a reference, F1 over those with both), `macro_type` the mean over the types.
Per type the scorer's counts are one-sided: COR, INC and MIS go to the reference's type, SPU to the prediction's
(our own per-type keys are two-sided, docs/scoring.md §5).
"""

from __future__ import annotations

import datetime
import math
import os
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import compress
from typing import Any

import numpy as np

from ..errors import InvalidInputError, shown
from ..option_checks import check_pairing, is_collection
from ..options import in_words
from ..pairing.greedy import pair_greedy
from ..pairing.rules import SCENARIOS, pair
from ..span import Span, listed
from ..table.pairs import Pairs
from ..tally import COUNT_NAMES, MIS, OUTCOMES, SPU, Counts
from .hipe import HipeDocument, align_hipe, read_hipe
from .hipe_model import document_names
from .hipe_tags import (
    HIPE_SCORERS,
    MENTIONS,
    HipeScorer,
    check_related,
    document_entities,
    hipe_scorer,
    link_column,
    link_values,
    normalize_related_links,
    normalize_time_links,
    refuse_type,
    scored_types,
)

_ALL_TYPE = "its type, ALL, names the rows of all types; expected another"
HIPE_COLUMNS = ("System", "Evaluation", "Label", "P", "R", "F1", "F1_std", "P_std", "R_std", "TP", "FP", "FN")
# The scorer's names of our schemes: fuzzy is our `type` (docs/scoring.md §4).
REGIMES = {"fuzzy": "type", "strict": "strict"}
_OUTCOMES = tuple(COUNT_NAMES)  # COR, INC, PAR, MIS, SPU: the last axis of the counts
_SPU, _MIS = _OUTCOMES.index(SPU), _OUTCOMES.index(MIS)

Documents = str | os.PathLike[str] | Sequence[HipeDocument]


def hipe_pairs(
    gold: Sequence[HipeDocument],
    system: Sequence[HipeDocument],
    column: str,
    types: Collection[str] | None,
    pairing: str = "hipe",
    keep: Sequence[Sequence[bool]] | None = None,
    *,
    n_best: int | None = None,
    related: Mapping[str, Collection[str]] | None = None,
    mentions: str | None = None,
    link_types: Collection[str] | None = None,
    scorer: HipeScorer = HIPE_SCORERS["2020"],
) -> Pairs:
    """The table of pairs of a column, a unit (sentence) per document: `system` aligned to `gold` (`align_hipe`),
    each document's entities decoded as the scorer decodes them (`hipe_spans`, types outside `types` left out)
    and paired by `pairing`. `keep` leaves tokens out, per document (the scorer's noise and date filters).

    With `n_best`, an entity-link column (`hipe_links`): an entity is a link, a prediction offers its first
    `n_best` links, and with `related` (the relaxed setting, `read_link_alternatives`) the links related to
    each; the reference is matched when its link is one offered (under `pairing="optimal"`, the first only).

    `mentions`: the tag column bounding a link column's entities (`hipe_linked_mentions`); `link_types` drops a
    predicted link none of whose offered links is among them (the scorer's tag set over links); `scorer`, the
    version whose decoding and comparison are followed (`HipeScorer`, docs/hipe.md): with `compares_text`, a
    prediction spelled otherwise than its identical reference (the tokens joined) counts as V (strict INC, fuzzy
    COR)."""
    pairing = check_pairing("pairing", pairing)
    rows: list[tuple[int, Span | None, Span | None]] = []
    respelled: list[int] = []  # the rows whose spans are identical and whose text is not
    read = partial(document_entities, column=column, scorer=scorer, types=types, mentions=mentions)
    for index, (reference, prediction) in enumerate(zip(gold, system)):
        kept = None if keep is None else keep[index]
        references, linked = read(reference, prediction, kept, n_best=n_best)
        offered: list[Collection[str]] | None = None
        if n_best is not None:
            if link_types is not None:
                linked = [(span, links) for span, links in linked if any(link in link_types for link in links)]
            offered = [_related(links, related) for _, links in linked]
        predictions = [span for span, _ in linked]
        differs = _spelling(reference, prediction, kept) if scorer.compares_text else None
        identical = None if differs is None else [not differs(span) for span in predictions]
        base = len(rows)
        try:  # (a refusal of the pairing, as of memory, named by its document as the HIPE files' errors are)
            paired = (
                pair_greedy(references, predictions, offered, identical)
                if pairing == "hipe"
                else pair(references, predictions)
            )
        except InvalidInputError as error:
            raise InvalidInputError(f"document {index + 1} ({reference.id or 'no id'}): {error}") from None
        rows.extend((index, r, p) for r, p in paired)
        if differs is not None:
            respelled += [
                base + n for n, (_, r, p) in enumerate(rows[base:]) if r is not None and r == p and differs(p)
            ]
    names = sorted({span.entity_type for _, r, p in rows for span in (r, p) if span is not None} | set(types or ()))
    pairs = Pairs.of_rows(rows, names, len(gold))
    if respelled:
        # The scorer's scenario V for an identical pair spelled otherwise (docs/hipe.md): strict INC, fuzzy COR.
        scenario = pairs.scenario.copy()
        scenario[respelled] = SCENARIOS.index("V")
        pairs = replace(pairs, scenario=scenario)
    return pairs


def _spelling(
    reference: HipeDocument, prediction: HipeDocument, keep: Sequence[bool] | None
) -> Callable[[Span], bool] | None:
    """Whether a span's text (its tokens joined, as the later scorer's entities carry it) differs between the
    response and the gold, None where every token is spelled alike (a response copies the gold's tokens)."""
    gold_tokens, tokens = reference.tokens, prediction.tokens
    if keep is not None:
        gold_tokens = tuple(compress(gold_tokens, keep))
        tokens = tuple(compress(tokens, keep))
    if gold_tokens == tokens:
        return None
    return lambda span: "".join(gold_tokens[span.start : span.end]) != "".join(tokens[span.start : span.end])


def _related(links: Sequence[str], related: Mapping[str, Collection[str]] | None) -> frozenset[str]:
    if related is None:
        return frozenset(links)
    return frozenset(links).union(*(related.get(link, ()) for link in links))


@dataclass(frozen=True)
class HipeCounts:
    """One table of pairs counted the scorer's way under one scheme: `counts[k]`, the outcomes (COR, INC, PAR, MIS,
    SPU) of type `type_of[k]` in `document_of[k]`, a row per (type, document) with any (a dense table, documents x
    types, cost a file of a type a document its square), sorted; a row on the reference's type (COR, INC, MIS) or
    the prediction's (SPU), so that each pair counts in one row; `total`, the corpus's counts, the rows summed;
    `type_index`, `type_names`' indexes."""

    counts: np.ndarray
    type_of: np.ndarray
    document_of: np.ndarray
    type_names: tuple[str, ...]
    total: tuple[int, int, int, int, int]
    documents: int
    type_index: Mapping[str, int] = field(repr=False, compare=False)

    @classmethod
    def of(cls, pairs: Pairs, scheme: str) -> HipeCounts:
        outcome_of = np.array([_OUTCOMES.index(OUTCOMES[scenario][scheme]) for scenario in OUTCOMES])
        outcome = outcome_of[pairs.scenario]
        side = np.where(outcome == _SPU, pairs.predicted_type, pairs.reference_type).astype(np.int64)
        documents = max(pairs.sentences, 1)
        keys, inverse = np.unique(side * documents + pairs.sentence, return_inverse=True)
        flat = inverse.ravel() * len(_OUTCOMES) + outcome
        counts = np.bincount(flat, minlength=len(keys) * len(_OUTCOMES)).reshape(len(keys), len(_OUTCOMES))
        correct, incorrect, partial, missed, spurious = counts.sum(axis=0).tolist()
        total = (correct, incorrect, partial, missed, spurious)
        index = {name: number for number, name in enumerate(pairs.type_names)}
        return cls(counts, keys // documents, keys % documents, pairs.type_names, total, documents, index)

    def labels(self) -> list[str]:
        """The types with a count (the scorer's per-type rows), sorted, and ALL."""
        return sorted([self.type_names[index] for index in np.unique(self.type_of).tolist()] + ["ALL"])

    def of_label(self, label: str) -> tuple[np.ndarray, np.ndarray]:
        """(the label's corpus counts, each document's counts) for a type (the documents with any) or ALL."""
        if label == "ALL":
            per_document = np.zeros((self.documents, len(_OUTCOMES)), dtype=np.int64)
            np.add.at(per_document, self.document_of, self.counts)
            return np.array(self.total), per_document
        low, high = np.searchsorted(self.type_of, [self.type_index[label], self.type_index[label] + 1]).tolist()
        return self.counts[low:high].sum(axis=0), self.counts[low:high]


def _counts(counts: Sequence[int] | np.ndarray) -> Counts:
    """The five counts (COR, INC, PAR, MIS, SPU) as `Counts`, whose POS and ACT are the scorer's; its TP is COR,
    FP = ACT - COR and FN = POS - COR."""
    return Counts(*(int(value) for value in counts))


def micro(counts: Sequence[int] | np.ndarray) -> tuple[float, float, float]:
    """The scorer's P, R and F1 of counts (COR, INC, PAR, MIS, SPU): 0 (an int, as it prints) for no
    prediction, no reference, or P + R = 0."""
    read = _counts(counts)
    precision = read.correct / read.actual if read.actual > 0 else 0
    recall = read.correct / read.possible if read.possible > 0 else 0
    f1 = 2 * (precision * recall) / (precision + recall) if (precision + recall) > 0 else 0
    return precision, recall, f1


def macro_doc(per_document: np.ndarray) -> dict[str, float | None]:
    """The scorer's document average: each document's P over the documents with a prediction, R over those with
    a reference, F1 over those with both; their mean and standard deviation (numpy's, over the documents), None
    with no document."""
    lists: dict[str, list[float]] = {"P": [], "R": [], "F1": []}
    for counts in per_document:
        read = _counts(counts)
        precision, recall, f1 = micro(counts)
        lists["P"] += [precision] * bool(read.actual)
        lists["R"] += [recall] * bool(read.possible)
        lists["F1"] += [f1] * bool(read.actual and read.possible)
    result: dict[str, float | None] = {}
    for name, values in lists.items():
        result[name] = float(np.mean(values)) if values else None
        result[f"{name}_std"] = float(np.std(values)) if values else None
    return result


def macro_type(counts: HipeCounts) -> tuple[float, float, float]:
    """The scorer's type average: the mean of each type's micro P, R and F1 (0 with no type)."""
    labels = [label for label in counts.labels() if label != "ALL"]
    if not labels:
        return 0, 0, 0
    values = np.array([micro(counts.of_label(label)[0]) for label in labels], dtype=np.float64)
    precision, recall, f1 = (float(value) for value in values.mean(axis=0))
    return precision, recall, f1


def _documents(documents: Documents, side: str = "gold") -> list[HipeDocument]:
    if isinstance(documents, (str, os.PathLike)):
        return read_hipe(documents)
    listed = list(documents) if is_collection(documents) else None
    if listed is None or not all(isinstance(document, HipeDocument) for document in listed):
        raise ValueError(f"{side} is {type(documents).__name__}; expected a HIPE file's path or read_hipe's documents")
    return listed


def _aligned(gold: Documents, system: Documents, normalize_time: bool) -> tuple[list[HipeDocument], ...]:
    """The gold's documents and the system's aligned to them (`align_hipe`), with `normalize_time` its links at
    time expressions NIL (`normalize_time_links`)."""
    gold_documents = _documents(gold)
    system_documents = align_hipe(gold_documents, _documents(system, "system"))
    return gold_documents, normalize_time_links(system_documents) if normalize_time else system_documents


def _listed(values: Any, name: str) -> list[Any]:
    if not is_collection(values):
        raise ValueError(f"{name} is {shown(values)}; expected a list of (lower, upper) pairs")
    return list(values)


def _check_arguments(column: Any, tagset: Any, noise_levels: list[Any], time_periods: list[Any], n_best: Any) -> None:
    """`hipe_table`'s arguments that are not files, checked before any is used (a cut-off of 0 took no link and
    raised IndexError)."""
    columns = [column] if isinstance(column, str) else column
    if is_collection(columns) and not list(columns):
        raise ValueError("column is empty; expected a column's name (NE-COARSE-LIT) or a list of them")
    if not is_collection(columns) or not all(isinstance(name, str) for name in columns):
        raise ValueError(f"column is {shown(column)}; expected a column's name (NE-COARSE-LIT) or a list of them")
    if isinstance(tagset, str):
        raise ValueError(f"tagset is the string {tagset!r}; expected a collection of types ({{'LOC', 'PERS'}})")
    if tagset is not None and not is_collection(tagset):
        raise ValueError(f"tagset is {shown(tagset)}; expected a collection of types ({{'LOC', 'PERS'}})")
    if isinstance(tagset, Collection) and not all(isinstance(name, str) for name in tagset):
        raise ValueError(f"tagset holds {shown(tagset)}; expected a collection of types ({{'LOC', 'PERS'}})")
    for name, values, kinds in (
        ("noise_levels", noise_levels, (int, float)),
        ("time_periods", time_periods, (datetime.date,)),
    ):
        for value in values:
            if not (isinstance(value, tuple | list) and len(value) == 2 and all(isinstance(v, kinds) for v in value)):
                raise ValueError(f"{name} holds {shown(value)}; expected (lower, upper) pairs of {kinds[-1].__name__}")
            # (a level no float holds, 10**400, raised OverflowError)
            if name == "noise_levels" and not all(abs(bound) < 2**1024 and math.isfinite(bound) for bound in value):
                raise ValueError(f"{name} holds {shown(value)}; expected (lower, upper) pairs of finite numbers")
    cuts = list(n_best) if is_collection(n_best) else None
    if not cuts or not all(isinstance(cut, int) and not isinstance(cut, bool) and cut >= 1 for cut in cuts):
        raise ValueError(f"n_best is {shown(n_best)}; expected cut-offs of 1 or more, such as (1, 3, 5)")
    check_cut_offs_once(cuts, "n_best", shown(n_best))


def check_cut_offs_once(cuts: list[int], name: str, given: str) -> None:
    """The HIPE scorer writes a cut-off's rows again each time it is given (clef_evaluation.py adds a table per n):
    rows twice are never what is asked, and dropping them would part from the scorer's table without a word."""
    if repeated := [str(cut) for cut, count in Counter(cuts).items() if count > 1]:
        cuts_named = f"cut-off{'s' * (len(repeated) > 1)} {in_words(repeated)}"
        raise ValueError(f"{name} gives the {cuts_named} more than once ({given}); expected each cut-off once (1,3,5)")


def _check_switches(switches: dict[str, Any], suffix: Any, name: Any) -> None:
    """`hipe_table`'s switches (read by their truth before) and names (a `suffix` of 5 raised TypeError)."""
    checks = [(key, value, isinstance(value, (bool, np.bool_)), "True or False") for key, value in switches.items()]
    checks += [("suffix", suffix, isinstance(suffix, str), "a string (relaxed, say) or ''")]
    checks += [("system_name", name, name is None or isinstance(name, str), "a string or None")]
    for given, value, fits, expected in checks:
        if not fits:
            raise ValueError(f"{given} is {shown(value)}; expected {expected}")


def hipe_table(
    gold: Documents,
    system: Documents,
    column: str | Sequence[str] = "NE-COARSE-LIT",
    nel: bool = False,
    *,
    pairing: str = "hipe",
    tagset: Collection[str] | None = None,
    noise_levels: Iterable[tuple[float, float]] = (),
    time_periods: Iterable[tuple[datetime.date, datetime.date]] = (),
    n_best: Sequence[int] = (1,),
    related: Mapping[str, Collection[str]] | None = None,
    mentions: bool = False,
    normalize_time: bool = False,
    suffix: str = "",
    system_name: str | None = None,
    scorer: str = "2020",
) -> list[dict[str, Any]]:
    """The HIPE scorer's table of a system response against its gold (files or `read_hipe`'s documents), as a
    list of rows with the keys `HIPE_COLUMNS`, in the scorer's order and rounding (docs/hipe.md).

    For each column (the scorer's nerc_coarse scores NE-COARSE-LIT and NE-COARSE-METO), each time period and
    noise level (all, then each given: tokens dated in [start, end), and tokens whose LED is in [lower, upper)
    or none), micro and macro_doc, fuzzy and strict, a row per type and ALL, named as the scorer names them
    (`NE-COARSE-LIT-micro-fuzzy-TIME-ALL-LED-ALL`, `suffix` after the regime). `tagset`: the task's types
    (`HIPE_2020_TYPES` for CLEF-HIPE-2020's official runs); a predicted type outside it and the gold is dropped,
    and without it every type outside the gold is. `pairing="optimal"` pairs as docs/scoring.md §3 does instead
    of as the scorer.

    With `nel`, entity links (NEL-LIT by default, or NEL-METO): each link an entity's type (`hipe_links`), fuzzy
    and ALL only, for each cut-off of `n_best` (`-@1`); `related` (`read_link_alternatives`) for the relaxed
    setting, with `suffix="relaxed"` as the scorer names its rows. An entity is a run of one link
    (`hipe_links`, the reading of CLEF-HIPE-2020's official link rows, docs/hipe.md), or
    with `mentions` a mention of the tag column beside it (`hipe_linked_mentions`, the later scorer's).
    `normalize_time` gives the response the link NIL at each token of a time expression (`normalize_time_links`),
    as CLEF-HIPE-2020's official link rankings scored the runs: with it, they are reproduced row for row.

    `scorer` is the HIPE scorer's version read and counted as (`HIPE_SCORERS`, docs/hipe.md): `"2020"`, the
    default, CLEF-HIPE-2020's official tables; `"2022"` the later scorer's, which HIPE-2022 was scored with (`S-X
    S-X` one entity, entities compared with their text, links bounded by the mentions and scored fuzzy and strict,
    the tag set filtering predicted links).

    To score many responses against one gold, read it once (`read_hipe`) and give its documents: their columns
    are split once, when first read, for all the responses."""
    profile = hipe_scorer(scorer)
    noise_levels, time_periods = _listed(noise_levels, "noise_levels"), _listed(time_periods, "time_periods")
    column = list(column) if is_collection(column) else column
    _check_arguments(column, tagset, noise_levels, time_periods, n_best)
    _check_switches({"nel": nel, "mentions": mentions, "normalize_time": normalize_time}, suffix, system_name)
    check_related(related)
    gold_documents, system_documents = _aligned(gold, system, normalize_time)
    if nel and related is not None and profile.relaxed_normalizes:
        gold_documents = normalize_related_links(gold_documents, related)
        system_documents, related = normalize_related_links(system_documents, related), None
    columns = [column] if isinstance(column, str) else list(column)
    if nel:
        columns = [link_column(name) for name in columns]
        if any(not name.startswith("NEL") for name in columns):
            raise ValueError(f"nel=True scores a link column (NEL-LIT, NEL-METO), not {columns}")
    if system_name is None:
        system_name = "system"
        if isinstance(system, (str, os.PathLike)):
            system_name = os.path.splitext(os.path.basename(os.fspath(system)))[0]
    periods: list[tuple[datetime.date, datetime.date] | None] = [None, *time_periods]
    levels: list[tuple[float, float] | None] = [None, *noise_levels]
    regimes = {regime: REGIMES[regime] for regime in profile.link_regimes} if nel else REGIMES
    rows: list[dict[str, Any]] = []
    pair_up = partial(hipe_pairs, gold_documents, system_documents, related=related, scorer=profile)
    for cut in n_best if nel else [None]:
        for name in sorted(columns):
            types = None if nel else scored_types(gold_documents, system_documents, name, tagset)
            if types is not None and "ALL" in types:  # (its row was the total's, silently: both named ALL)
                refuse_type([*gold_documents, *system_documents], name, "ALL", _ALL_TYPE)
            link_types = None
            if nel and profile.link_tagset and tagset is not None:
                link_types = scored_types(gold_documents, system_documents, name, tagset, link_values)
            for period in periods:
                for level in levels:
                    keep = _kept(gold_documents, period, level)
                    bounds = MENTIONS.get(name) if mentions or profile.link_mentions else None
                    pairs = pair_up(name, types, pairing, keep, n_best=cut, mentions=bounds, link_types=link_types)
                    counted = {regime: HipeCounts.of(pairs, scheme) for regime, scheme in regimes.items()}
                    slice_name = f"{suffix + '-' if suffix else ''}{_time_label(period)}-{_noise_label(level)}"
                    slice_name += f"-@{cut}" if cut is not None else ""
                    for aggregation in ("micro", "macro_doc"):
                        for regime, counts in counted.items():
                            evaluation = f"{name}-{aggregation}-{regime}-{slice_name}"
                            for label in ["ALL"] if nel else counts.labels():
                                rows.append(_row(system_name, evaluation, label, aggregation, counts))
    return rows


def _row(system: str, evaluation: str, label: str, aggregation: str, counts: HipeCounts) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(HIPE_COLUMNS)
    row.update(System=system, Evaluation=evaluation, Label=label)
    total, per_document = counts.of_label(label)
    if aggregation == "micro":
        row.update(zip(("P", "R", "F1"), micro(total)))
        read = _counts(total)
        row.update(TP=read.correct, FP=read.actual - read.correct, FN=read.possible - read.correct)
    else:
        row.update(macro_doc(per_document))
    # The scorer rounds every number to three decimals as it writes the table.
    return {key: round(value, 3) if isinstance(value, float) else value for key, value in row.items()}


def _kept(
    documents: Sequence[HipeDocument],
    period: tuple[datetime.date, datetime.date] | None,
    level: tuple[float, float] | None,
) -> list[list[bool]] | None:
    """Which tokens the scorer keeps for a slice, by the gold's dates and noise: a document dated within the
    period; a token with no LED, or one within [lower, upper) (or equal to both)."""
    if period is None and level is None:
        return None
    kept = []
    for document in documents:
        dated = document.period(() if period is None else (period,))  # (its date read, and checked, either way)
        in_period = period is None or dated is not None
        if level is None:
            kept.append([in_period] * len(document))
            continue
        lower, upper = level
        within = (noise is None or lower <= noise < upper or lower == noise == upper for noise in document.noise)
        kept.append([in_period and inside for inside in within])
    return kept


def _time_label(period: tuple[datetime.date, datetime.date] | None) -> str:
    return "TIME-ALL" if period is None else f"TIME-{period[0].year}-{period[1].year}"


def _noise_label(level: tuple[float, float] | None) -> str:
    return "LED-ALL" if level is None else f"LED-{float(level[0])}-{float(level[1])}"


def format_hipe_table(rows: Iterable[dict[str, Any]]) -> str:
    """The rows as the scorer's TSV: a header of `HIPE_COLUMNS`, values as Python prints them, empty for none."""
    lines = ["\t".join(HIPE_COLUMNS)]
    for index, row in enumerate(listed("rows", rows, "the rows hipe_table returns")):
        if not isinstance(row, Mapping):
            raise InvalidInputError(f"rows[{index}] is {shown(row)}; expected a dict, as hipe_table returns rows")
        lines.append("\t".join("" if row.get(name) is None else str(row[name]) for name in HIPE_COLUMNS))
    return "\n".join(lines) + "\n"


def hipe_inputs(
    gold: Documents,
    system: Documents,
    column: str = "NE-COARSE-LIT",
    *,
    nel: bool = False,
    tagset: Collection[str] | None = None,
    time_periods: Sequence[tuple[datetime.date, datetime.date]] = (),
    noise_levels: Sequence[tuple[float, float]] = (),
    normalize_time: bool = False,
    scorer: str = "2020",
) -> dict[str, list[Any]]:
    """`compute_semeval`'s keyword arguments for a HIPE column, a unit (a "sentence") per document: the entities
    as the scorer decodes and keeps them (`references`, `predictions`: lists of `Span`s; with `nel`, a link
    column's runs of one link, NEL-LIT for the default column, each typed by its first link), each document's id
    (`documents`, which `bootstrap` resamples) and, with `time_periods`, its period as a group (`groups`:
    `TIME-1790-1810`, `TIME-OTHER` for a date in none or no date), for our own scores beside the scorer's
    table (docs/hipe.md): `compute_semeval(**hipe_inputs(gold, system), per_type=True)`.

    With `noise_levels`, the scorer's noise slices as groups: each document is a unit per level, holding the
    entities of its tokens whose LED is in [lower, upper) or none (as `hipe_table` keeps them), grouped by the
    scorer's name of the level (`LED-0.0-0.1`, after the period with `time_periods`: `TIME-1790-1810-LED-0.0-0.1`).
    The `group` slice's buckets are then the scorer's LED rows; the overall keys add the levels up (a token
    without LED counts in every level), so read the buckets, not the totals. `normalize_time`: as `hipe_table`'s;
    `scorer`: its decoding of tags and links (`S-`, links bounded by mentions; the text is the table's alone)."""
    profile = hipe_scorer(scorer)
    noise_levels, time_periods = _listed(noise_levels, "noise_levels"), _listed(time_periods, "time_periods")
    if is_collection(column):  # (hipe_table takes several)
        raise ValueError(
            f"column is {shown(column)}; expected a column's name (NE-COARSE-LIT): hipe_inputs scores one column"
        )
    _check_arguments(column, tagset, noise_levels, time_periods, (1,))
    gold_documents, system_documents = _aligned(gold, system, normalize_time)
    levels: list[tuple[float, float] | None] = list(noise_levels) or [None]
    kept = [_kept(gold_documents, None, level) for level in levels]
    types = cut = mentions = None
    if nel:
        column = link_column(column)
        cut, mentions = 1, MENTIONS.get(column) if profile.link_mentions else None
    else:
        types = scored_types(gold_documents, system_documents, column, tagset)
    read = partial(document_entities, column=column, scorer=profile, types=types, n_best=cut, mentions=mentions)
    inputs: dict[str, list[Any]] = {"references": [], "predictions": [], "documents": []}
    groups: list[str] = []
    names = document_names(gold_documents)
    for index, (reference, prediction) in enumerate(zip(gold_documents, system_documents)):
        period = reference.period(time_periods)
        time = _time_label(period) if period is not None else "TIME-OTHER"
        for level, keep in zip(levels, kept):
            references, linked = read(reference, prediction, None if keep is None else keep[index])
            inputs["references"].append(references)
            inputs["predictions"].append([span for span, _ in linked])
            inputs["documents"].append(names[index])
            labels = ([time] if time_periods else []) + ([_noise_label(level)] if level is not None else [])
            groups.append("-".join(labels))
    if time_periods or noise_levels:
        inputs["groups"] = groups
    return inputs
