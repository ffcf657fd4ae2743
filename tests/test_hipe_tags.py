"""A HIPE column's tags and links decoded as the HIPE scorer decodes them (issue 28, items 1 and 4): IOB and IOBES
in any case, types left out, the types scored, links as runs of one value or bounded by mentions, the relaxed
setting's mapping, the official runs' time links. Every file here is built by the test (never the shared task
data)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_hipe import HEADER, tsv

import nerscore
from nerscore import HipeFileError, Span
from nerscore.files.hipe import parse_hipe
from nerscore.files.hipe_tags import (
    HIPE_SCORERS,
    column_entities,
    column_types,
    document_entities,
    hipe_linked_mentions,
    hipe_links,
    hipe_spans,
    link_values,
    normalize_time_links,
    read_link_alternatives,
    scored_types,
)


def spans_of(*tags: str, types: set[str] | None = None) -> list[tuple[int, int, str]]:
    lines = [HEADER, "# document_id = d"] + [f"t{i}\t{tag}\tO\t_\t_" for i, tag in enumerate(tags)]
    (document,) = parse_hipe(tsv(*lines))
    return [(s.start, s.end, s.entity_type) for s in hipe_spans(document, "NE-COARSE-LIT", types)]


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        (["B-loc", "I-loc", "O"], [(0, 2, "LOC")]),
        (["I-loc", "I-loc"], [(0, 2, "LOC")]),  # I- opens an entity after outside
        (["B-loc", "B-loc"], [(0, 1, "LOC"), (1, 2, "LOC")]),
        (["B-loc", "I-org"], [(0, 1, "LOC"), (1, 2, "ORG")]),  # a new type opens one
        (["B-loc", "_", "I-loc"], [(0, 1, "LOC"), (2, 3, "LOC")]),  # `_` is outside
        (["B-loc", "-", "", "O"], [(0, 1, "LOC")]),
        (["S-loc", "S-loc", "B-pers", "E-pers"], [(0, 1, "LOC"), (1, 2, "LOC"), (2, 4, "PERS")]),  # IOBES
        (["b-Loc", "i-LOC"], [(0, 2, "LOC")]),  # the scorer reads every tag in upper case
        (["B-loc.adm.town", "I-loc.adm.town"], [(0, 2, "LOC.ADM.TOWN")]),
    ],
)
def test_tags_decode_as_the_scorer_decodes_them(tags: list[str], expected: list[tuple[int, int, str]]) -> None:
    assert spans_of(*tags) == expected


def test_a_type_left_out_is_outside() -> None:
    assert spans_of("B-loc", "I-xyz", "I-loc", types={"LOC"}) == [(0, 1, "LOC"), (2, 3, "LOC")]


def test_the_scored_types_are_the_golds_and_the_systems_within_the_tag_set() -> None:
    gold = parse_hipe(tsv(HEADER, "a\tB-loc\tO\t_\t_", "b\tB-pers\tO\t_\t_"))
    system = parse_hipe(tsv(HEADER, "a\tB-org\tO\t_\t_", "b\tB-xyz\tO\t_\t_"))
    assert column_types(gold, "NE-COARSE-LIT") == {"LOC", "PERS"}
    assert scored_types(gold, system, "NE-COARSE-LIT", None) == {"LOC", "PERS"}
    assert scored_types(gold, system, "NE-COARSE-LIT", nerscore.HIPE_2020_TYPES) == {"LOC", "PERS", "ORG"}


# -- entity links -----------------------------------------------------------------------------------------------


def links_document(*rows: tuple[str, str]) -> nerscore.HipeDocument:
    """A document of (NE-COARSE-LIT tag, NEL-LIT link) rows."""
    lines = [HEADER, "# document_id = d"] + [f"t{i}\t{tag}\tO\t{link}\t_" for i, (tag, link) in enumerate(rows)]
    return parse_hipe(tsv(*lines), "links.tsv")[0]


def test_the_scored_links_are_the_golds_and_the_systems_within_the_tag_set() -> None:
    # A version of the scorer whose tag set filters links (`HipeScorer.link_tagset`) reads them as it reads types.
    gold = [links_document(("B-loc", "Q60"), ("O", "_"))]
    system = [links_document(("B-loc", "q2|Q60"), ("B-org", "Q3"))]
    assert scored_types(gold, system, "NEL-LIT", None, link_values) == {"Q60"}
    assert scored_types(gold, system, "NEL-LIT", ["q2", "Q4"], link_values) == {"Q60", "Q2"}


def test_a_columns_types_and_links_are_read_over_every_document() -> None:
    documents = [
        links_document(("B-loc", "Q60"), ("I-loc", "Q60|Q61")),
        links_document(("O", "_"), ("B-pers", "nil"), ("B-", "NIL-q7"), ("B-org", "-")),
    ]
    assert column_types(documents, "NE-COARSE-LIT") == {"LOC", "PERS", "ORG"}
    assert link_values(documents, "NEL-LIT") == {"Q60", "NIL", "Q7"}


def test_links_are_runs_of_one_value() -> None:
    document = links_document(
        ("B-loc", "Q60"), ("I-loc", "Q60"), ("O", "_"), ("B-pers", "nil"), ("B-pers", "NIL"), ("O", "-"),
        ("B-org", "Q1|Q2|Q3"), ("O", "O"),
    )  # fmt: skip
    assert hipe_links(document, "NEL-LIT") == [
        (Span(0, 2, "Q60"), ("Q60",)),
        (Span(3, 5, "NIL"), ("NIL",)),  # two mentions, one run: one entity, as the scorer of 2020 reads it
        (Span(6, 7, "Q1"), ("Q1",)),
    ]
    assert hipe_links(document, "NEL-LIT", n_best=2)[-1] == (Span(6, 7, "Q1"), ("Q1", "Q2"))


def test_links_bounded_by_mentions() -> None:
    document = links_document(
        ("B-pers", "NIL"), ("B-pers", "NIL"), ("O", "Q5"), ("B-loc", "Q60"), ("I-loc", "Q61"), ("I-loc", "_"),
    )  # fmt: skip
    # A response's mention whose link changes is split; the gold's keeps its first link.
    assert [span for span, _ in hipe_linked_mentions(document, "NEL-LIT", "NE-COARSE-LIT")] == [
        Span(0, 1, "NIL"), Span(1, 2, "NIL"), Span(2, 3, "Q5"), Span(3, 4, "Q60"), Span(4, 5, "Q61"),
    ]  # fmt: skip
    assert [span for span, _ in hipe_linked_mentions(document, "NEL-LIT", "NE-COARSE-LIT", split=False)][-1] == Span(
        3, 6, "Q60"
    )
    # A document of the gold and the same of the response, read together: the gold's mention is one, with its
    # first link alone; the response's is split, each part offering its links.
    references, predictions = document_entities(
        document, document, None, column="NEL-LIT", scorer=HIPE_SCORERS["2022"], n_best=2, mentions="NE-COARSE-LIT"
    )
    assert references[-1] == Span(3, 6, "Q60")
    assert predictions[-2:] == [(Span(3, 4, "Q60"), ("Q60",)), (Span(4, 5, "Q61"), ("Q61",))]


@pytest.mark.parametrize("scorer", sorted(HIPE_SCORERS))
def test_a_columns_entities_are_read_by_the_reading_each_names(scorer: str) -> None:
    document = links_document(("S-pers", "NIL"), ("S-pers", "NIL"), ("O", "Q5"), ("B-loc", "Q60"), ("I-loc", "Q61"))
    profile, keep = HIPE_SCORERS[scorer], [True, True, True, False, True]
    tags = column_entities(document, "NE-COARSE-LIT", keep, profile, {"PERS", "LOC"})
    assert tags == [(span, ()) for span in hipe_spans(document, "NE-COARSE-LIT", None, keep, s_starts=profile.s_starts)]
    assert len(tags) == (2 if profile.s_starts else 1) + 1
    assert column_entities(document, "NEL-LIT", keep, profile, n_best=2) == hipe_links(document, "NEL-LIT", 2, keep)
    for response in (True, False):
        bounded = column_entities(
            document, "NEL-LIT", None, profile, n_best=1, mentions="NE-COARSE-LIT", response=response
        )
        expected = hipe_linked_mentions(document, "NEL-LIT", "NE-COARSE-LIT", 1, None, response, profile.link_s_starts)
        assert bounded == expected
    bounded = column_entities(document, "NEL-LIT", None, profile, n_best=1, mentions="NE-COARSE-LIT")
    assert len(bounded) == 4 + profile.link_s_starts  # S-PERS S-PERS: one mention in 2020's reading, two in 2022's


def test_the_relaxed_settings_mapping(tmp_path: Path) -> None:
    path = tmp_path / "mapping.tsv"
    path.write_text(
        "Main\tAlternatives\t\n"
        "https://www.wikidata.org/wiki/Q183\thttps://www.wikidata.org/wiki/Q12548\tQ154741\t#N/A\n"
        "Q30\t#N/A\t#N/A\n",
        encoding="utf-8",
    )
    assert read_link_alternatives(path) == {"Q183": {"Q183", "Q12548", "Q154741"}, "Q30": {"Q30"}}
    path.write_text("Main\tAlternatives\nQ183\tGermany\n", encoding="utf-8")
    with pytest.raises(HipeFileError, match=r"mapping\.tsv:2: not Wikidata entities: found 'GERMANY'; expected QIDs"):
        read_link_alternatives(path)
    # The bad cell named, not the line's every cell (200,000 of them wrote a message of 1.2 MB; redteam5).
    path.write_text("Main\tAlternatives\n" + "Q1\t" * 200_000 + "Germany\n", encoding="utf-8")
    with pytest.raises(
        HipeFileError, match=r"^\S*mapping\.tsv:2: not Wikidata entities: found 'GERMANY'; expected"
    ) as raised:
        read_link_alternatives(path)
    assert len(str(raised.value)) < 500


def scorer_entities(tags: list[str], types: set[str] | None) -> list[tuple[int, int, str]]:
    """The scorer's reading of a column (its loop as it reads, `S-` as `B-`), entities of types outside `types`
    left out afterwards as it filters them: the oracle of `hipe_spans`."""
    found, open_type, start = [], None, 0
    for offset, value in enumerate(tag.upper() for tag in tags):
        if value in ("O", "_", "-", ""):
            if open_type is not None:
                found.append((start, offset, open_type))
            open_type = None
        elif open_type is None:
            open_type, start = value[2:], offset
        elif open_type != value[2:] or value[:1] in "BS":
            found.append((start, offset, open_type))
            open_type, start = value[2:], offset
    if open_type is not None:
        found.append((start, len(tags), open_type))
    return [entity for entity in found if types is None or entity[2] in types]


@given(
    st.lists(st.sampled_from(["O", "o", "_", "-", "B-loc", "I-loc", "E-loc", "S-loc", "B-pers", "I-pers", "i-xyz"])),
    st.sampled_from([None, {"LOC", "PERS"}, {"LOC"}]),
    st.data(),
)
def test_tags_decode_as_the_scorers_loop_reads_them(tags: list[str], types, data) -> None:
    # A type left out is read by the scorer as an entity it filters afterwards; with `types` we treat it as outside,
    # which splits the same entities. `keep` drops tokens before decoding, as the scorer's filters do.
    keep = data.draw(st.lists(st.booleans(), min_size=len(tags), max_size=len(tags)))
    lines = [HEADER, "# document_id = d"] + [f"t{i}\t{tag}\tO\t_\t_" for i, tag in enumerate(tags)]
    (document,) = parse_hipe(tsv(*lines)) if tags else (None,)
    if document is None:
        return
    spans = [(s.start, s.end, s.entity_type) for s in hipe_spans(document, "NE-COARSE-LIT", types)]
    assert spans == scorer_entities(tags, types)
    kept = [(s.start, s.end, s.entity_type) for s in hipe_spans(document, "NE-COARSE-LIT", types, keep)]
    assert kept == scorer_entities([tag for tag, k in zip(tags, keep) if k], types)


# -- the official runs' time links ------------------------------------------------------------------------------


def test_time_expressions_link_to_nil_as_the_official_runs_were_normalized() -> None:
    # normalize_linking.py --norm-time: NEL-LIT and NEL-METO are NIL wherever NE-COARSE-LIT holds "time" (in lower
    # case, as HIPE writes its tags; an upper-case TIME is left, as the scorer's pandas match leaves it).
    header = "TOKEN\tNE-COARSE-LIT\tNEL-LIT\tNEL-METO"
    lines = [header, "# document_id = d", "In\tO\t_\t_", "May\tB-time\t_\t_", "1850\tI-time\tQ1\t_",
             "Paris\tB-loc\tQ90\tQ142", "June\tB-TIME\t_\t_"]  # fmt: skip
    (document,) = parse_hipe(tsv(*lines))
    (normalized,) = normalize_time_links([document])
    assert normalized.values("NEL-LIT") == ("_", "NIL", "NIL", "Q90", "_")
    assert normalized.values("NEL-METO") == ("_", "NIL", "NIL", "Q142", "_")
    assert document.values("NEL-LIT") == ("_", "_", "Q1", "Q90", "_")  # the documents given are kept
    assert normalized.id == "d" and normalized.lines == document.lines
    # One link run of NIL over the time expression: a metonymic NIL entity where the response had none.
    assert hipe_links(normalized, "NEL-METO") == [(Span(1, 3, "NIL"), ("NIL",)), (Span(3, 4, "Q142"), ("Q142",))]
    # Without the columns, or without a time expression, a document is kept as it is.
    (plain,) = parse_hipe(tsv("TOKEN\tNE-COARSE-LIT", "May\tB-time"))
    assert normalize_time_links([plain]) == [plain]
    (no_time,) = parse_hipe(tsv(*lines[:3]))
    assert normalize_time_links([no_time])[0] is no_time
