"""Printable sheets (tutor.teach.sheets): the positions are the lesson link's drills, the key
is the rules module's, the page prints the key on a page of its own, and a sheet link
is read without ever raising."""

from __future__ import annotations

import re
from html import escape

import pytest

from tutor.teach.drills import generate
from tutor.teach.drills.progress import visit_seed
from tutor.core.errors import TutorError
from tutor.core.i18n import Translator
from tutor.rules.notation import parse_cards
from tutor.teach.sheets import SHEET_CSS, SIZE, SheetLink, answer_key, make_sheet, parse_sheet_link, sheet_html, sheet_lessons


@pytest.mark.parametrize("slug", [info.slug for info in sheet_lessons()])
def test_every_lesson_with_drills_has_a_sheet(slug: str) -> None:
    sheet = make_sheet(slug, seed=11, level=2)
    kinds = sheet.lesson.drills
    assert len(sheet.drills) == SIZE
    assert [d.kind for d in sheet.drills] == [kinds[i % len(kinds)] for i in range(SIZE)]
    for i, drill in enumerate(sheet.drills[:len(kinds) * 2]):  # the drills the link ?seed=11&level=2 shows
        step = i // len(kinds)
        assert drill == generate(drill.kind, visit_seed(11, step, drill.kind, slug), 2)
    assert make_sheet(slug, seed=11, level=2) == sheet


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_the_key_is_the_rules_modules(lang: str) -> None:
    sheet = make_sheet("06-ruffing", seed=5, lang=lang)
    page = sheet_html(sheet, Translator(lang))
    for drill in sheet.drills:
        answers, count, rule, why = answer_key(drill)
        assert (answers, count) == drill.solutions() and rule and why
        assert rule in page
        first = parse_cards(answers[0]) if drill.answer.value == "cards" else None
        if first is not None:
            assert drill.check(first).correct
    assert page.count('class="qd-sheet-item"') == 2 * SIZE
    assert page.index('class="qd-sheet-positions"') < page.index('class="qd-sheet-key"')


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_the_key_says_why_not_what_the_player_says(lang: str) -> None:
    """A key line is the reason alone: the player's "Right." (对。) before it is for a learner
    who just answered, not for a printed key ("Right. ♠6 ♠6 follows …")."""
    head = Translator(lang)("Right.")
    for info in sheet_lessons():
        for drill in make_sheet(info.slug, seed=3, level=2, lang=lang).drills:
            why = answer_key(drill)[3]
            assert why and not why.startswith(head), (info.slug, why)


def test_the_page_prints_the_key_apart_and_no_control() -> None:
    page = sheet_html(make_sheet("07-throws", seed=2))
    assert "<button" not in page and "<input" not in page
    printed = SHEET_CSS[SHEET_CSS.index("@media print"):]
    assert re.search(r"\.qd-sheet-key\{break-before:page", printed)
    assert re.search(r"button,input,select,textarea,.*\{\s*display:none!important", printed, re.S)
    assert all(symbol in page for symbol in "♠♥♣♦")
    assert re.search(r"\.qd-sheet-red[^{]*\{color:#000\}", printed)  # suits print in black, told apart by symbol


def _rule(css: str, selector: str) -> str:
    """The declarations of the rule of ``css`` whose selector list ends with ``selector``."""
    found = re.search(re.escape(selector) + r"\{([^}]*)\}", css)
    assert found, selector
    return found.group(1)


def test_the_printed_sheet_undoes_what_the_page_does_to_its_outputs() -> None:
    """Around the sheet, Lumino sets the window's width inline and JupyterLab keeps each
    output whole on paper: in print, every ancestor of the sheet is as wide as the paper
    and may break across pages, and the other outputs (empty on paper) take no room."""
    printed = SHEET_CSS[SHEET_CSS.index("@media print"):]
    around = _rule(printed, ":has(.qd-sheet)")
    for declaration in ("width:auto!important", "min-width:0!important", "max-width:none!important",
                        "break-inside:auto!important", "position:static!important", "display:block!important"):
        assert declaration in around, declaration
    assert re.search(r"\.jp-OutputArea-child:not\(:has\(\.qd-sheet\)\)\{display:none!important\}", printed)
    assert "@page{size:A4" in printed


@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_every_position_is_written_out(lang: str) -> None:
    """Each position's question, the cards on the table, the cards shown and the hand are
    on the sheet, in the course's notation, as the drill player would show them."""
    tr = Translator(lang)
    sheet = make_sheet("06-ruffing", seed=4, level=2, lang=lang)
    page = sheet_html(sheet, tr)
    text = re.sub(r"<[^>]+>", "", page)
    for drill in sheet.drills:
        assert escape(drill.question) in page
        for card in (*drill.hand, *drill.shown, *(c for _, cards in drill.table.plays for c in cards)):
            assert tr.cards((card,)) in text
        if drill.table.plays:
            seat, cards = drill.table.plays[0]
            lead = tr("Seat {seat} leads: {cards}", seat=seat, cards="\x00")
            assert escape(lead.replace("\x00", tr.cards(cards))) in text.replace("\u00a0", " ")
    assert 'class="qd-card' not in page  # no card faces: each card is a few characters of a line


@pytest.mark.parametrize(("query", "link", "notes"), [
    ("lesson=05-following&seed=3", SheetLink("05-following", 3, 1), 0),
    ("lesson=05-following&seed=3&level=3&lang=zh-Hans", SheetLink("05-following", 3, 3), 0),
    ("lesson=10-play", SheetLink(), 1),
    ("lesson=99-nothing&seed=-1&level=0&x=1", SheetLink(), 4),
    ("seed=1&seed=2", SheetLink(seed=1), 1),
    (None, SheetLink(), 0),
    ("lesson=" + "x" * 5000, SheetLink(), 1),
])
def test_sheet_links(query: str | None, link: SheetLink, notes: int) -> None:
    asked, said = parse_sheet_link(query)
    assert asked == link and len(said) == notes


def test_bad_sheets_are_refused() -> None:
    for slug, seed, level in (("10-play", 0, 1), ("05-following", -1, 1), ("05-following", 0, 4),
                              ("nothing", 0, 1), ("05-following", True, 1)):
        with pytest.raises(TutorError):
            make_sheet(slug, seed, level)


def test_the_key_of_a_coachs_drill_says_advice_not_a_rule() -> None:
    sheet = make_sheet("11-playing-well", seed=3, level=1)
    page = sheet_html(sheet, Translator("en"))
    advice = [drill for drill in sheet.drills if drill.advice]
    assert advice and page.count("Advice, not a rule</span>") == len(advice)
    assert "Rule </span>" not in page
