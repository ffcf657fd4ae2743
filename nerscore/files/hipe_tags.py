"""A HIPE column's tags decoded into entities as the HIPE scorer decodes them (docs/hipe.md): a tag column's
entities (`hipe_spans`, IOB or IOBES, the scorer's reading), the types it scores (`scored_types`), an entity-link
column's entities (`hipe_links`, runs of one link; `hipe_linked_mentions`, bounded by a tag column's mentions),
either as a version of the scorer reads it (`column_entities`), the relaxed setting's mapping of related links
(`read_link_alternatives`) and the time links of CLEF-HIPE-2020's official runs (`normalize_time_links`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import compress, groupby
from typing import Any

from ..errors import is_collection, shown
from ..span import Span
from .hipe import read_lines
from .hipe_model import NEL_COLUMNS, OUTSIDE, HipeDocument, HipeFileError


@dataclass(frozen=True)
class HipeScorer:
    """What a version of the HIPE scorer reads and counts otherwise (docs/hipe.md, "The later scorer"): each field
    one switch, named after what it changes. `HIPE_SCORERS["2020"]` reproduces CLEF-HIPE-2020's official tables;
    `HIPE_SCORERS["2022"]` follows the scorer HIPE-2022 was scored with (hipe-eval/HIPE-scorer at 6605770)."""

    name: str
    # `S-` starts an entity even after one of its type (2020's official reading); the later scorer's
    # `collect_named_entities` starts one only at `B-` or a change of type, so `S-X S-X` is one entity.
    s_starts: bool
    # The later scorer's entities carry their text (the tokens joined) and an identical match compares it too: a
    # response token spelled otherwise inside an entity makes a strict COR an INC (a fuzzy COR stays).
    compares_text: bool
    # Entity links bounded by the NE-COARSE-LIT mentions (`hipe_linked_mentions`, the later scorer's default)
    # instead of runs of one link (`hipe_links`, its `--original_nel`, CLEF-HIPE-2020's official reading).
    link_mentions: bool
    # The link rows' regimes: fuzzy alone (2020), fuzzy and strict (the later `assemble_tsv_output`).
    link_regimes: tuple[str, ...]
    # The tag set filters a response's links as it filters types: a predicted link none of whose n best is a link
    # of the gold is dropped, not spurious. Neither version: `clef_evaluation.get_results` does not pass the tag
    # set with `--task nel`, and HIPE-2022's official link rows count such links as spurious (docs/hipe.md).
    link_tagset: bool
    # The relaxed setting rewrites gold and response, each related link to its main one (`normalize_linking.py
    # --norm-histo`, `normalize_related_links`), where 2020's reproduction lets a predicted main link offer its
    # related ones (`related=` of `hipe_pairs`).
    relaxed_normalizes: bool
    # `S-` starts a link's mention even after a mention of its type (`hipe_linked_mentions(s_starts=True)`), as
    # HIPE-2022's official link rows count (docs/hipe.md), though its NERC rows do not (`s_starts`).
    link_s_starts: bool = False


HIPE_SCORERS = {
    "2020": HipeScorer("2020", True, False, False, ("fuzzy",), False, False),
    "2022": HipeScorer("2022", False, True, True, ("fuzzy", "strict"), False, True, True),
}


def hipe_scorer(name: object) -> HipeScorer:
    """The scorer's version by its name (`"2020"`, `"2022"`; an int is read as its digits)."""
    found = HIPE_SCORERS.get(str(name)) if isinstance(name, (str, int)) and not isinstance(name, bool) else None
    if found is None:
        raise ValueError(f"scorer is {name!r}; expected one of {sorted(HIPE_SCORERS)} (the HIPE scorer's version)")
    return found


def entity_type_of(value: str) -> str | None:
    """The entity type of a tag as the HIPE scorer reads it (upper case, after the prefix), None outside."""
    tag = value.upper()
    return None if tag in OUTSIDE else tag[2:]


def hipe_spans(
    document: HipeDocument,
    column: str,
    types: Collection[str] | None = None,
    keep: Sequence[bool] | None = None,
    *,
    s_starts: bool = True,
) -> list[Span]:
    """A column's entities over the whole document (the scorer merges a document's segments, so an entity may
    cross one), decoded as the HIPE scorer decodes them: tags in upper case; `O`, `_`, `-` and empty outside;
    an entity continues while the type stays and the prefix is `I` or `E` (IOBES's `E-` read as `I-`, `S-` as
    `B-`), so `I-` after another type or outside starts one; a type outside `types` is outside. `keep` leaves out
    tokens (the scorer's noise and date filters drop tokens before decoding). `s_starts=False` is the later
    scorer's reading (HIPE-2022, `HipeScorer.s_starts`): only `B-` starts an entity of the type already open, so
    `S-X S-X` is one entity."""
    values = document.values(column)
    # Only the tokens inside some entity are read one by one (a few in a hundred): the rest, outside, end an entity
    # by the gap they leave between two positions.
    inside: Iterable[tuple[int, int]]
    if keep is None:
        # The indices of the values inside, picked in C (`compress`) by the few distinct values inside.
        entity_values = set(values) - _OUTSIDE_ANY_CASE
        indices = compress(range(len(values)), map(entity_values.__contains__, values))
        inside = ((index, index) for index in indices)
    else:
        positions = [index for index, kept in enumerate(keep) if kept]
        inside = [(p, index) for p, index in enumerate(positions) if values[index] not in _OUTSIDE_ANY_CASE]
    spans: list[Span] = []
    open_type: str | None = None
    start = last = -2
    starters = "BS" if s_starts else "B"
    for position, index in inside:
        value = values[index]
        tag = value.upper()
        if tag in OUTSIDE or len(tag) < 3 or tag[1] != "-" or tag[0] not in "BIES":
            if tag not in OUTSIDE:
                raise HipeFileError(
                    document.source,
                    document.lines[index],
                    f"{value!r} is not a tag (B-, I-, E- or S- and a type; O or _ outside)",
                    column,
                )
            entity_type = None
        else:
            entity_type = tag[2:]
            if types is not None and entity_type not in types:
                entity_type = None
        if open_type is not None and (position != last + 1 or entity_type != open_type or tag[0] in starters):
            spans.append(Span(start, last + 1, open_type))
            open_type = None
        if entity_type is not None and open_type is None:
            open_type, start = entity_type, position
        last = position
    if open_type is not None:
        spans.append(Span(start, last + 1, open_type))
    return spans


_OUTSIDE_ANY_CASE = OUTSIDE | {"o"}


def column_types(documents: Iterable[HipeDocument], column: str) -> set[str]:
    """Every entity type a column holds (the scorer's tags of a column)."""
    return _read_values(documents, column, lambda value: entity_type_of(value) or "") - {""}


def _read_values(documents: Iterable[HipeDocument], column: str, read: Callable[[str], str]) -> set[str]:
    """Every distinct value a column holds in `documents`, as `read` reads it."""
    found: set[str] = set()
    for document in documents:
        found.update(map(read, set(document.values(column))))
    return found


def scored_types(
    gold: Sequence[HipeDocument],
    system: Sequence[HipeDocument],
    column: str,
    tagset: Collection[str] | None,
    values: Callable[[Iterable[HipeDocument], str], set[str]] = column_types,
) -> set[str]:
    """The types the HIPE scorer scores in a column: the gold's, and with a tag set the system's within it too
    (a predicted type outside both is dropped: neither spurious nor paired); with `values=link_values`, the links
    of a link column, filtered alike (`HipeScorer.link_tagset`). The tag set is read in upper case, as every tag."""
    types = values(gold, column)
    if tagset is not None:
        allowed = {name.upper() for name in tagset}
        types |= values(system, column) & allowed
    return types


def refuse_type(documents: Iterable[HipeDocument], column: str, name: str, problem: str) -> None:
    """A `HipeFileError` at the first tag of the type `name` in `documents`' `column`, saying `problem`; nothing
    where none is."""
    for document in documents:
        values = document.values(column)
        found = next((index for index, value in enumerate(values) if entity_type_of(value) == name), None)
        if found is not None:
            raise HipeFileError(document.source, document.lines[found], f"{values[found]!r}: {problem}", column)


def link_values(documents: Iterable[HipeDocument], column: str) -> set[str]:
    """Every link a link column holds, as the HIPE scorer's `get_all_tags` lists a column's tags (the scorer's tag
    set then filters them): each value's first link, in upper case; `_`, `-` and `O` none."""
    return _read_values(documents, column, lambda value: value.upper().split("|")[0].split("-")[-1]) - OUTSIDE


def hipe_links(
    document: HipeDocument, column: str, n_best: int = 1, keep: Sequence[bool] | None = None
) -> list[tuple[Span, tuple[str, ...]]]:
    """A link column's entities as the HIPE scorer of CLEF-HIPE-2020 reads them: each run of tokens with the same
    value (a Wikidata QID, `NIL`, or several `|`-separated, best first), `_` and `-` outside, values in upper case;
    each as a `Span` of its first link and the links it offers (its first `n_best`). A run of `O` (a tag where a
    link belongs) is no entity. `keep` leaves out tokens, as in `hipe_spans`."""
    values = link_column_values(document, column)
    links: list[tuple[Span, tuple[str, ...]]] = []
    start = 0
    for link, run in groupby(value.upper() for value in (values if keep is None else compress(values, keep))):
        length = sum(1 for _ in run)
        if link not in OUTSIDE:
            links.append(_link_entity(start, start + length, link, n_best))
        start += length
    return links


def link_column_values(document: HipeDocument, column: str) -> tuple[str, ...]:
    """A link column's values, a `HipeFileError` at the first whose first link is empty (`|Q42`: an entity of no
    link, which was refused unlocated, as a `Span` of type '', once paired)."""
    values = document.values(column)
    bad = {value for value in set(values) if value[:1] == "|"}  # (the distinct values: a column holds few)
    if bad:
        index = next(index for index, value in enumerate(values) if value in bad)
        problem = f"{values[index]!r} is not a link (its first is empty); expected a QID, NIL or several, |-separated"
        raise HipeFileError(document.source, document.lines[index], problem, column)
    return values


def _link_entity(start: int, end: int, value: str, n_best: int) -> tuple[Span, tuple[str, ...]]:
    """A run of a link value as an entity: a `Span` typed by its first link, and the links it offers (its first
    `n_best`)."""
    offered = tuple(value.split("|")[:n_best])
    return Span(start, end, offered[0]), offered


def hipe_linked_mentions(
    document: HipeDocument,
    column: str,
    mentions: str,
    n_best: int = 1,
    keep: Sequence[bool] | None = None,
    split: bool = True,
    s_starts: bool = False,
) -> list[tuple[Span, tuple[str, ...]]]:
    """A link column's entities bounded by a tag column's mentions (NEL-LIT by NE-COARSE-LIT), as the HIPE scorer
    reads them when given both: a mention's link is its first token's; a token outside every mention (`O`) with a
    link is an entity of its own; a link changing inside a mention splits it when `split` (a response), and
    is kept first otherwise (the gold). Values in upper case; a tag other than `O` with an unknown prefix (`_`)
    opens a mention as the scorer's reading does; the link `_` or `-` is no entity. `s_starts`: `S-` starts a
    mention even after one of its type (HIPE-2022's official link rows)."""
    links_of = link_column_values(document, column)
    tags = document.values(mentions)
    found: list[tuple[int, int, str]] = []
    link: str | None = None
    mention: str | None = None
    start = position = 0
    for index, (value, tag_value) in enumerate(zip(links_of, tags)):
        if keep is not None and not keep[index]:
            continue
        value, tag = value.upper(), tag_value.upper()
        if tag == "O":
            if link is not None:
                found.append((start, position, link))
                link = mention = None
            if value not in ("_", "-"):
                found.append((position, position + 1, value))
        elif mention is None:
            link, mention, start = value, tag[2:], position
        elif mention == tag[2:] and tag[:1] == "I" and link != value:
            if split:
                found.append((start, position, link or ""))
                link, start = value, position
        elif mention != tag[2:] or tag[:1] == "B" or (s_starts and tag[:1] == "S"):
            found.append((start, position, link or ""))
            link, mention, start = value, tag[2:], position
        position += 1
    if link:
        found.append((start, position, link))
    return [_link_entity(begin, end, value, n_best) for begin, end, value in found if value not in OUTSIDE]


def column_entities(
    document: HipeDocument,
    column: str,
    keep: Sequence[bool] | None,
    scorer: HipeScorer,
    types: Collection[str] | None = None,
    n_best: int | None = None,
    mentions: str | None = None,
    response: bool = True,
) -> list[tuple[Span, tuple[str, ...]]]:
    """A document's entities in `column` as `scorer` decodes them, each with the links it offers: a tag column's
    of `types` (`hipe_spans`, no link) or, with `n_best`, a link column's (`hipe_links`; bounded by the tag column
    `mentions`, `hipe_linked_mentions`, which splits a `response`'s mention where its link changes)."""
    if n_best is None:
        assert types is not None, "a tag column's types"
        return [(span, ()) for span in hipe_spans(document, column, types, keep, s_starts=scorer.s_starts)]
    if mentions is None:
        return hipe_links(document, column, n_best, keep)
    return hipe_linked_mentions(document, column, mentions, n_best, keep, response, scorer.link_s_starts)


# The tag column whose mentions bound each link column's entities (the HIPE scorer's NEL evaluation).
MENTIONS = {"NEL-LIT": "NE-COARSE-LIT", "NEL-METO": "NE-COARSE-METO"}


def link_column(column: str) -> str:
    """The column scored for entity links: the link column NEL-LIT for the default NE-COARSE-LIT, else as named."""
    return "NEL-LIT" if column == "NE-COARSE-LIT" else column


def document_entities(
    reference: HipeDocument,
    prediction: HipeDocument,
    keep: Sequence[bool] | None,
    *,
    column: str,
    scorer: HipeScorer,
    types: Collection[str] | None = None,
    n_best: int | None = None,
    mentions: str | None = None,
) -> tuple[list[Span], list[tuple[Span, tuple[str, ...]]]]:
    """A gold document's entities in `column` and its response's, each with the links it offers, as `scorer`
    decodes them (`column_entities`): the gold's link is its first (a reference has one), and a mention of the gold
    is never split where its link changes. What `hipe_table` pairs and `hipe_inputs` gives `compute_semeval`."""
    read = partial(column_entities, column=column, keep=keep, scorer=scorer, types=types, mentions=mentions)
    references = [span for span, _ in read(reference, n_best=None if n_best is None else 1, response=False)]
    return references, read(prediction, n_best=n_best)


def check_related(related: Any) -> None:
    """A relaxed setting's mapping given by a caller (`read_link_alternatives` reads one), or None: a `ValueError`
    where it is no dict of a link to a collection of links (a list raised AttributeError: no attribute 'get')."""
    if related is not None and not isinstance(related, Mapping):
        raise ValueError(f"related is {shown(related)}; expected a dict of a link to its related links")
    for link, links in (related or {}).items():
        if not isinstance(link, str) or not is_collection(links) or not all(isinstance(one, str) for one in links):
            raise ValueError(f"related[{shown(link)}] is {shown(links)}; expected a collection of links, strings")


def read_link_alternatives(path: str | os.PathLike[str]) -> dict[str, frozenset[str]]:
    """The relaxed setting's mapping (the HIPE scorer's historico-fuzzy-QID-mapping file): a header line, then a
    main Wikidata entity and its historically related ones, tab-separated, as QIDs or Wikidata addresses (`#N/A`
    empty); each main QID's set holds itself and its related ones."""
    mapping: dict[str, set[str]] = {}
    for number, line in enumerate(read_lines(path), 1):
        cells = [cell.strip() for cell in line.split("\t")]
        cells = [cell.rsplit("/", 1)[-1].upper() for cell in cells if cell and cell != "#N/A"]
        if number == 1 or not cells:
            continue
        # The first bad cell named (a line of 200,000 cells wrote them all, 1.2 MB, the bad one among them).
        found = next((cell for cell in cells if not (cell.startswith("Q") and cell[1:].isdigit())), None)
        if found is not None:
            problem = f"not Wikidata entities: found {shown(found)}; expected QIDs (Q42) or their addresses"
            raise HipeFileError(os.fspath(path), number, problem)
        mapping.setdefault(cells[0], {cells[0]}).update(cells[1:])
    return {main: frozenset(related) for main, related in mapping.items()}


def normalize_time_links(documents: Iterable[HipeDocument]) -> list[HipeDocument]:
    """The documents with the link `NIL` in NEL-LIT and NEL-METO at every token whose NE-COARSE-LIT tag holds
    `time` (written in lower case, as HIPE's tags are), as the HIPE scorer's `normalize_linking.py --norm-time`
    rewrites a response: CLEF-HIPE-2020's official link rankings scored the responses so rewritten (the gold left
    as it is), which gives a run NIL links, literal and metonymic, for every time expression it tagged
    (docs/hipe.md). A document without those columns is kept as it is; the documents given are not modified."""

    def nil_at(time: list[int], values: tuple[str, ...]) -> tuple[str, ...]:
        links = list(values)
        for index in time:
            links[index] = "NIL"
        return tuple(links)

    normalized = []
    for document in documents:
        tags = document.columns.get("NE-COARSE-LIT", ())
        time = [index for index, tag in enumerate(tags) if "time" in tag]
        normalized.append(_relinked(document, partial(nil_at, time)) if time else document)
    return normalized


def normalize_related_links(
    documents: Iterable[HipeDocument], related: Mapping[str, Collection[str]]
) -> list[HipeDocument]:
    """The documents with each link of NEL-LIT and NEL-METO that is related to a main one (`read_link_alternatives`:
    main -> main and its related) replaced by that main one, every link of a `|`-separated list, as the HIPE
    scorer's `normalize_linking.py --norm-histo` rewrites the gold and the response for the relaxed setting of the
    later scorer (`HipeScorer.relaxed_normalizes`). A main link stays; the documents given are not modified."""
    main_of = {link: main for main, links in related.items() for link in links if link != main}

    def to_main(values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(
            "|".join(main_of.get(link, link) for link in value.split("|")) if value not in OUTSIDE else value
            for value in values
        )

    return [_relinked(document, to_main) for document in documents]


def _relinked(document: HipeDocument, rewrite: Callable[[tuple[str, ...]], tuple[str, ...]]) -> HipeDocument:
    """`document` with its link columns rewritten, a copy (the document given is not modified), or itself where
    nothing changes."""
    columns = document.columns
    replaced = {name: rewrite(columns[name]) for name in NEL_COLUMNS if name in columns}
    if all(replaced[name] == columns[name] for name in replaced):
        return document
    return dataclasses.replace(document, columns={**{name: columns[name] for name in columns}, **replaced})
