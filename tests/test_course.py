"""The course's links (tutor.teach.course): one parser for every page's query — a lesson's,
the table's ``seed=``, a sheet's — one bound for a query's length, one list of levels and
one seed bound, read by all."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from tutor.core.arguments import MAX_SEED
from tutor.core.errors import TutorError
from tutor.core.i18n import Translator
from tutor.teach import course, positions, sheets
from tutor.teach.course import (LEVELS, MAX_PARAMS, MAX_QUERY, LinkParams, level_number, link_level, link_seed,
                                parse_link, query_pairs)
from tutor.teach.drills import KINDS
from tutor.teach.drills import common as drills_common


@pytest.mark.parametrize(("query", "params", "notes"), [
    ("seed=42&level=2&kind=follow&lang=zh-Hans", LinkParams(42, "follow", 2, "zh-Hans"), 0),
    ("seed=0042", LinkParams(seed=42), 0),
    (f"seed={MAX_SEED}", LinkParams(seed=MAX_SEED), 0),
    (f"seed={MAX_SEED + 1}", LinkParams(), 1),
    ("seed=-1&seed=3", LinkParams(seed=3), 1),  # the first refused, the second taken
    ("seed=3&seed=4", LinkParams(seed=3), 1),
    ("seed=²&level=٣&lang=xx&kind=chess&x=1", LinkParams(), 5),
    ("seed=" + "9" * 5000, LinkParams(), 1),
    ("level=" + "1" * 300, LinkParams(), 1),
    ("", LinkParams(), 0),
    (None, LinkParams(), 0),
])
def test_a_link_is_read_with_a_note_for_each_parameter_ignored(query: str | None, params: LinkParams,
                                                              notes: int) -> None:
    found, said = parse_link(query)
    assert found == params and len(said) == notes
    assert all(note.startswith("Ignored ") and len(note) < 200 for note in said)


def test_the_notes_are_said_in_the_pages_language() -> None:
    _, notes = parse_link("x=7", tr=Translator("zh-Hans"))
    assert notes and "Ignored" not in notes[0]


def test_a_lessons_link_offers_its_own_drills() -> None:
    assert parse_link("kind=ruff", lesson="06-ruffing")[0].kind == "ruff"
    params, notes = parse_link("kind=ruff", lesson="05-following")
    assert params.kind is None and "follow" in notes[0]
    assert parse_link("kind=ruff", lesson="10-play")[1] == ("Ignored kind=ruff: this page does not use it.",)
    with pytest.raises(TutorError, match="no lesson"):
        parse_link("", lesson="99-nothing")
    with pytest.raises(TutorError, match="text"):
        parse_link(b"seed=1")  # type: ignore[arg-type]


def test_a_query_is_read_up_to_its_bounds() -> None:
    assert len(query_pairs("a=1&" * 1000)) == MAX_PARAMS
    cut = "x=" + "y" * MAX_QUERY + "&seed=5"
    assert parse_link(cut)[0].seed is None  # beyond the bound: not read
    assert query_pairs(42) == [] and query_pairs(None) == []


def test_the_query_bound_fits_a_teachers_position() -> None:
    """The longest links are a teacher's positions: a full throw position (a hand, the throw
    and the four other hands, every card with its suit symbol) fits the one bound."""
    text = ("kind: throw; form: cost; trump: ♥; hand: ♠A ♠A ♠K ♠K ♠Q ♠J ♠10 ♠9 ♠8 ♠7 ♣A ♣K ♣Q ♣J ♣10 ♣9 ♣8 ♣7 ♦A ♦K;"
            " throw: ♠A ♠A ♠K ♠K ♠Q ♠J; others: ♠Q ♠J ♠10 ♠10 / ♠9 ♠8 ♠7 ♠6 / ♠6 ♠5 ♠5 ♠4 / ♠4 ♠3 ♠3 ♠2")
    made = positions.make_link(text)
    query = made.href.partition("?")[2] if made.href else "position=" + quote(text)
    assert len(query) < MAX_QUERY // 4
    assert not hasattr(positions, "MAX_QUERY") or positions.MAX_QUERY is MAX_QUERY  # one home: the course's


def test_the_table_reads_its_seed_with_the_course_parser() -> None:
    from widgets.table import seed_from_query

    for query in ("seed=17", "a=1&seed=0042", "seed=-1", "seed=1e3", "seed=" + "9" * 12, "seed=²", "", None,
                  f"seed={MAX_SEED}", f"seed={MAX_SEED + 1}", "seed=5&seed=6"):
        assert seed_from_query(query) == parse_link(query)[0].seed


@pytest.mark.parametrize(("raw", "seed"), [("0", 0), ("42", 42), (str(MAX_SEED), MAX_SEED), (str(MAX_SEED + 1), None),
                                           ("-1", None), ("٣", None), (" 1", None), ("1" * 11, None), ("", None)])
def test_a_links_seed(raw: str, seed: int | None) -> None:
    assert link_seed(raw) == seed


@pytest.mark.parametrize(("raw", "level"), [("1", 1), ("3", 3), ("0", None), ("4", None), ("²", None), ("01", 1),
                                            ("", None)])
def test_a_links_level(raw: str, level: int | None) -> None:
    assert link_level(raw) == level


def test_one_list_of_levels_read_by_all() -> None:
    assert LEVELS == (1, 2, 3)
    assert all(info.levels is LEVELS for info in KINDS.values())
    assert not hasattr(drills_common, "LEVELS") and not hasattr(sheets, "LEVELS")
    assert [level_number(level) for level in LEVELS] == list(LEVELS)
    for junk in (0, 4, True, "1", 1.0, None):
        with pytest.raises(TutorError, match="the levels are 1, 2 and 3") as refused:
            level_number(junk)
        assert refused.value.parameter == "level"


def test_one_seed_bound_read_by_all() -> None:
    import widgets.table

    assert not hasattr(course, "MAX_SEED") or course.MAX_SEED is MAX_SEED
    assert not hasattr(widgets.table, "MAX_SEED") or widgets.table.MAX_SEED is MAX_SEED
    assert drills_common.SEEDS == range(MAX_SEED + 1)
    with pytest.raises(TutorError, match="2147483647"):
        sheets.make_sheet("05-following", seed=MAX_SEED + 1)
