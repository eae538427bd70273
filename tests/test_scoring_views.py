"""Lesson 09's examples, drawn by the views (``widgets.views``, ``tutor.teach.display``):

- the attackers' total (S4) says every number it adds — the attackers' tricks, the kitty
  capture (X2), the failed throws' penalties (L5) — and that the declarer's side's points do
  not count; each number is the game's, and the sum is A (:meth:`Game.attackers_points`);
- a trick that is over shows only its plays, none "not played yet", under a caption;
- cards can be labelled with what they are ("The kitty").
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

from tutor import play_random_hand
from tutor.core.i18n import Translator
from tutor.rules import KittyCaptured
from tutor.rules.notation import parse_cards
from tutor.teach.display import cards_html, trick_html
from widgets.views import attackers_total_view

def _said(html: str) -> list[str]:
    """The sentences of a view, in order (its style sheet left out)."""
    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S)
    return [unescape(s) for s in re.findall(r'<span style="max-width:38em">(.*?)</span>', html, re.S)]


@pytest.mark.parametrize("seed", [158, 3, 0])  # lesson 09's kitty capture, its defended hand, a failed throw
def test_the_attackers_total_says_what_it_adds(seed: int) -> None:
    game = play_random_hand(seed)
    said = _said(attackers_total_view(game))
    attackers = [seat for seat in range(5) if game.side_of(seat) == "attacker"]
    total = next(s for s in said if s.startswith("The attackers' total A = "))
    formula = re.fullmatch(r"The attackers' total A = (.*) = (-?\d+) points:", total)
    assert formula, total
    addends = [int(n) for n in re.findall(r"[-+]?\d+", formula.group(1).replace(" + ", " "))]
    assert sum(addends) == int(formula.group(2)) == game.attackers_points()
    tricks = " + ".join(str(game.won_points[seat]) for seat in attackers)
    assert f"{tricks}: the points the attackers won in tricks (seats " in " ".join(said)
    if game.kitty_capture:
        capture = game.first_record(KittyCaptured)
        assert (f"{game.kitty_capture} from the kitty capture: {capture.capture.kitty_points} points × "
                f"{capture.capture.multiplier} (X2)") in said
    else:
        assert not any("kitty" in s for s in said)
    assert any("(L5)" in s for s in said) == bool(game.penalty_adjustment)
    theirs = sum(game.won_points[seat] for seat in range(5) if seat not in attackers)
    assert said[-1] == f"the {theirs} points the declarer's side won do not count (S4)"
    assert [s for s in said if s.startswith("Seat ")] == [
        f"Seat {seat}: {game.side_of(seat)}, {game.won_points[seat]} points won" for seat in range(5)]


def test_lesson_09_says_the_kitty_capture_is_in_the_total() -> None:
    """The S4 example of lesson 09: 15 + 45 + 55 from the attackers' tricks and 80 from the
    kitty capture make 195 — every addend named."""
    said = _said(attackers_total_view(play_random_hand(158)))
    assert "The attackers' total A = 15 + 45 + 55 + 80 = 195 points:" in said
    assert "80 from the kitty capture: 20 points × 4 (X2)" in said


def test_a_finished_trick_shows_no_seat_still_to_play() -> None:
    """The last trick of a hand, of which only the lead matters: no "— not played yet" rows."""
    lead = parse_cards("♣9 ♣9")
    done = trick_html([(0, lead)], finished=True, style=False)
    assert done.count("<tr") == 1 and "not played yet" not in done and "qd-wait" not in done
    assert '<caption class="qd-trick-caption"' in done and ">The trick</caption>" in done
    going = trick_html([(0, lead)], style=False)  # a trick still being played: who is still to play
    assert going.count("<tr") == 5 and going.count("not played yet") == 4 and 'class="qd-sr">The trick' in going


def test_cards_can_say_what_they_are() -> None:
    kitty = parse_cards("♦5 ♠J ♦7 ♦7 ♠5 ♣6 ♠7 ♥9")
    page = cards_html(kitty, label="底牌", style=False, tr=Translator("zh-Hans"))
    assert page.startswith('<span class="qd-group qd-labelled" role="group" aria-label="底牌">')
    assert '<span class="qd-group-label" aria-hidden="true">底牌</span>' in page
    assert page.count('class="qd-card ') == len(kitty)
    plain = cards_html(kitty, style=False, tr=Translator("zh-Hans"))
    assert plain == page[page.index('<span class="qd-cards'):-len("</span>")]  # the same cards, with a label


LESSON = Path(__file__).resolve().parent.parent / "lessons" / "09-scoring.ipynb"


def test_lesson_09_draws_the_total_with_the_view() -> None:
    cells = json.loads(LESSON.read_text("utf-8"))["cells"]
    sources = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
    assert any("attackers_total_view(captured)" in source for source in sources)
    assert not any("attackers_points()" in source for source in sources)  # the view says A, and how
