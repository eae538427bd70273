"""Every page that reads its link says what it does not use (the README's promise: "a
parameter that cannot be used is ignored, and the page says so in a note").

One table for the three parsers of a page's link — a lesson's (``course.parse_link``, which
the table's ``seed=`` reads too), a teacher's position (``positions.position_from_query``)
and a lesson sheet's (``sheets.parse_sheet_link``): an unknown parameter, each parameter the
page reads with a bad value (superscript and Arabic-Indic digits, -1, huge, empty), one given
twice, and whatever lies beyond a link's bounds — each gets its own note, and what the page
can use is still used.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

import pytest

from tutor.teach.course import MAX_PARAMS, MAX_QUERY, parse_link
from tutor.teach.positions import position_from_query
from tutor.teach.sheets import parse_sheet_link

POSITION = quote("kind: trick; trump: ♥; lead: ♠A; played: ♠3")

Read = Callable[[str], tuple[dict[str, object], tuple[str, ...]]]


def _lesson(query: str) -> tuple[dict[str, object], tuple[str, ...]]:
    params, notes = parse_link(query, lesson="06-ruffing")
    found = {key: getattr(params, key) for key in ("seed", "kind", "level", "lang")}
    return {key: value for key, value in found.items() if value is not None}, notes


def _position(query: str) -> tuple[dict[str, object], tuple[str, ...]]:
    drill, notes = position_from_query(query)
    return ({"position": drill.kind} if drill is not None else {}), notes


def _sheet(query: str) -> tuple[dict[str, object], tuple[str, ...]]:
    link, notes = parse_sheet_link(query)
    found = {"lesson": link.lesson, "seed": link.seed, "level": link.level}
    return {k: v for k, v in found.items() if v not in (None, 0, 1)}, notes  # the defaults: nothing asked


PAGES: dict[str, tuple[Read, dict[str, tuple[str, object]]]] = {
    # page: (its parser, each parameter it reads -> (a good raw value, what the page makes of it))
    "lesson": (_lesson, {"seed": ("7", 7), "level": ("2", 2), "kind": ("ruff", "ruff"),
                         "lang": ("zh-Hans", "zh-Hans")}),
    "positions": (_position, {"position": (POSITION, "trick"), "lang": ("zh-Hant", None)}),
    "sheet": (_sheet, {"lesson": ("05-following", "05-following"), "seed": ("7", 7), "level": ("2", 2),
                       "lang": ("zh-Hans", None)}),
}
"""``None``: the page takes the parameter without keeping it (``lang=`` chose the page's language)."""

BAD = {"superscript": "²", "arabic-indic": "٣", "negative": "-1", "huge": "9" * 3000, "empty": "", "junk": "%FF%00x"}
UNKNOWN = {"lesson": ("position", "x", "SEED", "", "lesson"), "positions": ("seed", "level", "kind", "x", ""),
           "sheet": ("kind", "position", "x", "Seed", "")}


def _good(page: str) -> str:
    return "&".join(f"{key}={raw}" for key, (raw, _) in PAGES[page][1].items())


def _kept(page: str) -> dict[str, object]:
    return {key: value for key, (_, value) in PAGES[page][1].items() if value is not None}


def _cases() -> list[tuple[str, str, int]]:
    cases = []
    for page, (_, params) in PAGES.items():
        for key in params:
            cases += [(page, f"{key}={bad}", 1) for bad in BAD.values()]
            cases.append((page, f"{key}=-1&{key}=²", 2))
        cases += [(page, f"{key}=1", 1) for key in UNKNOWN[page]]
        cases.append((page, "&".join(f"{key}=1" for key in UNKNOWN[page]), len(UNKNOWN[page])))
    return cases


@pytest.mark.parametrize(("page", "query", "count"), _cases(), ids=lambda value: str(value)[:30])
def test_each_parameter_the_page_cannot_use_gets_a_note(page: str, query: str, count: int) -> None:
    """Bad values and unknown parameters, after a good link: each one is a note, and the
    good parameters are still used."""
    read = PAGES[page][0]
    used, notes = read(f"{_good(page)}&{query}")
    assert used == _kept(page), (page, query)
    assert len(notes) == count, (page, query, notes)
    assert all(len(note) < 300 and "Traceback" not in note for note in notes)
    used, notes = read(query)  # alone, too
    assert len(notes) == count, (page, query, notes)


@pytest.mark.parametrize("page", list(PAGES))
def test_a_parameter_given_twice_gets_a_note(page: str) -> None:
    read, params = PAGES[page]
    for key, (raw, _) in params.items():
        used, notes = read(f"{_good(page)}&{key}={raw}")
        assert used == _kept(page) and len(notes) == 1 and "given twice" in notes[0], (page, key, notes)
        used, notes = read(f"{key}=²&{_good(page)}")  # a bad value first: the good one is still taken
        assert used == _kept(page) and len(notes) == 1, (page, key, notes)


@pytest.mark.parametrize("page", list(PAGES))
def test_a_good_link_gets_no_note(page: str) -> None:
    read = PAGES[page][0]
    assert read(_good(page)) == (_kept(page), ())
    assert read("") == ({}, ())


@pytest.mark.parametrize("page", list(PAGES))
def test_what_lies_beyond_a_links_bounds_gets_a_note(page: str) -> None:
    """Parameters after the first MAX_PARAMS, and the rest of a query longer than
    MAX_QUERY, are not read — and the page says so."""
    read = PAGES[page][0]
    extra = "&".join(f"x{i}=1" for i in range(MAX_PARAMS))
    used, notes = read(f"{_good(page)}&{extra}")
    read_extra = MAX_PARAMS - len(PAGES[page][1])
    assert used == _kept(page) and len(notes) == read_extra + 1, notes
    assert notes[-1].startswith(f"Ignored x{read_extra}=1 and every parameter after it")
    used, notes = read(f"{_good(page)}&x=" + "y" * MAX_QUERY + "&seed=5")
    assert used == _kept(page) and len(notes) == 1 and "the rest of the link" in notes[0], notes
