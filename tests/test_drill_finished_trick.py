"""Lesson 09's quick checks (the score drills): the last trick, which is over, shows its lead
and no seat "not played yet"; the kitty is labelled — in the drill player and on the sheet."""

from __future__ import annotations

from tutor.teach.drills import generate
from tutor.teach.drills.drawing import shown_html, table_html
from tutor.teach.sheets import make_sheet, sheet_html
from widgets.check import quick_check


def test_a_score_drill_shows_the_last_trick_over_and_the_kitty_named() -> None:
    capture = generate("score", 7, 2)  # lesson 09's first quick check: the kitty shown
    assert capture.table.finished and capture.shown_label == "The kitty"
    table, kitty = table_html(capture), shown_html(capture)
    assert table.count("<tr") == 1 and "not played yet" not in table
    assert 'aria-label="The kitty"' in kitty and ">The kitty</span>" in kitty
    state = quick_check("score", level=2, seed=7).state
    assert state["table_html"] == table and state["shown_html"] == kitty


def test_a_follow_drill_still_shows_who_is_to_play() -> None:
    drill = generate("follow", 3, 1)
    assert not drill.table.finished and table_html(drill).count("not played yet") == 5 - len(drill.table.plays)


def test_the_sheet_names_the_kitty_and_lists_no_seat_of_a_finished_trick() -> None:
    page = sheet_html(make_sheet("09-scoring", seed=1, level=1))
    assert "The kitty</span>" in page and "Seat 1: —" not in page
