"""Words on the page, as a reader meets them: a count in the form its number needs ("1 card",
never "1 cards"), a title's own punctuation never doubled by a label's colon ("Who wins the
trick?:"), the trumps named as a reader says them ("trump cards", never "trumps cards"), and
the table's log numbered by each line's place in the whole hand, not in the lines shown."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")

from test_table import play_out

from tutor.core.i18n import LANGUAGES, Translator
from tutor.rules.follow import check_follow
from tutor.rules.notation import parse_cards
from tutor.rules.order import Trump
from tutor.teach import narration
from tutor.teach.course import LESSONS
from tutor.teach.drills import KINDS, generate
from widgets.course import CourseMap
from tutor.teach.table_view import LOG_SHOWN
from widgets.table import Table

ROOT = Path(__file__).resolve().parent.parent

DOUBLED = re.compile(r"[?？!！.。:：][ \u00a0]*[:：]")
"""A label's colon after a sentence's own end ("Who wins the trick?:", "谁大？：")."""

PLURAL_AFTER_ONE = re.compile(r"(?<![\d.,])\b1 (?:cards|points|tricks|plays|times|pairs|tractors|trumps)\b")
"""An English plural after the number one."""


# ----------------------------------------------------------------- counts


def _first_card_dealt(lang: str) -> Table:
    table = Table(3, lang=lang, pause_ms=0, deal_ms=0, stop_to_declare=False)
    assert table.step()  # one card dealt: its seat holds 1 card
    return table


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_seat_holding_one_card_says_so_in_the_form_one_needs(lang: str) -> None:
    table = _first_card_dealt(lang)
    seats = table.state["seats"]
    holding = [seat for seat in seats if seat["count"] == 1]
    assert len(holding) == 1, [seat["count"] for seat in seats]
    tr = Translator(lang)
    for seat in seats:  # the words are the kernel's, in the language's own form for the count
        assert seat["count_text"] == tr(narration.cards_held(seat["count"]))
    if lang == "en":
        assert holding[0]["count_text"] == "1 card"
        assert {seat["count_text"] for seat in seats if seat["count"] == 0} == {"0 cards"}


def test_no_label_the_page_fills_with_a_number_says_one_in_the_plural() -> None:
    """The front end fills a label's ``{count}`` with any number: such a label must read
    right for one (a count the plural changes is said by the kernel, as a plural message)."""
    table = Table(3, pause_ms=0, deal_ms=0, stop_to_declare=False)
    filled = {key: label.replace("{count}", "1").replace("{pick}", "8")
              for key, label in table.labels.items() if "{count}" in label}
    wrong = {key: text for key, text in filled.items() if PLURAL_AFTER_ONE.search(text)}
    assert not wrong, wrong


@pytest.fixture(scope="module")
def hand() -> tuple[Table, list[dict[str, Any]]]:
    """A whole hand played by the scripted learner, and what the table showed at each of the
    learner's turns and at the end."""
    table = Table(5, pause_ms=0, deal_ms=0, stop_to_declare=False)
    shown: list[dict[str, Any]] = []
    play_out(table, on_turn=lambda t: shown.append({**t.state, "whole_log": [t.tr(line) for line in t.session.desk(t.seat).log]}))
    shown.append({**table.state, "whole_log": [table.tr(line) for line in table.session.desk(table.seat).log]})
    return table, shown


def test_every_count_the_table_shows_over_a_whole_hand_reads_right(hand: tuple[Table, list[dict[str, Any]]]) -> None:
    seen = {seat["count_text"] for state in hand[1] for seat in state["seats"]}
    assert "0 cards" in seen
    assert not [text for text in seen if PLURAL_AFTER_ONE.search(text)], sorted(seen)


# ----------------------------------------------------------------- labels and titles


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_course_map_never_puts_a_colon_after_a_title_s_own_punctuation(lang: str) -> None:
    html = CourseMap(lang=lang, query="").html
    assert not DOUBLED.findall(re.sub(r"<[^>]+>", " ", html)), DOUBLED.findall(re.sub(r"<[^>]+>", " ", html))
    title = Translator(lang)(KINDS["trick"].title)
    assert title in html  # the title as the drill names it, with its own punctuation


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_static_home_page_never_puts_a_colon_after_a_title_s_own_punctuation(lang: str) -> None:
    pytest.importorskip("nbconvert")
    from tools.static_site.home import home_html, read_notebook

    page = home_html(read_notebook(ROOT / "lessons" / "index.ipynb"), lang, [info.slug for info in LESSONS])
    text = re.sub(r"<script>.*?</script>|<style>.*?</style>", " ", page, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    assert not DOUBLED.findall(text), DOUBLED.findall(text)


# ----------------------------------------------------------------- trumps


def test_a_refusal_about_trumps_says_trump_cards() -> None:
    trump = Trump("♥")
    hand, lead, play = parse_cards("♥3 ♥5 ♠5 ♠6"), parse_cards("♥K ♥K"), parse_cards("♥3 ♠5")
    verdict = check_follow(hand, lead, play, trump)
    assert not verdict.legal
    assert "trump card" in verdict.reason and "trumps card" not in verdict.reason, verdict.reason


@pytest.mark.parametrize("kind", ["follow", "throw"])
def test_no_drill_says_trumps_cards(kind: str) -> None:
    said = []
    for level in KINDS[kind].levels:
        for seed in range(12):
            drill = generate(kind, seed, level)
            said += [drill.question, *drill.hints, str(drill.explain)]
    wrong = [text for text in said if "trumps card" in text]
    assert not wrong, wrong[:3]


# ----------------------------------------------------------------- the log


def test_what_happened_is_numbered_by_each_line_s_place_in_the_hand(hand: tuple[Table, list[dict[str, Any]]]) -> None:
    starts = []
    for state in hand[1]:
        log, start = state["whole_log"], state["log_start"]
        assert start == max(1, len(log) - LOG_SHOWN + 1)
        assert state["log"] == log[start - 1:] and len(state["log"]) <= LOG_SHOWN
        starts.append(start)
    assert starts[0] == 1 and starts[-1] > 1  # later lines keep their own numbers
