"""What the lessons show, drawn by one named function each instead of in the lesson's cell:
plays and their verdicts, the score table and a recorded trick (tutor/teach/display.py), and
the lessons' examples that ask the rules and draw the answer (widgets/views.py)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tutor import Game, Trump, check_follow, check_ruff, parse_cards, play_random_hand, score_hand
from tutor.core.i18n import Translator
from tutor.rules import Verdict
from tutor.teach import scores_html, trick_html, verdicts_html, won_trick_html
from widgets import (call_view, components_view, lead_view, overturn_view, reason_cited, row, ruff_view, score_view,
                     throw_view, weighed_calls_view, who_knows_view)

_TAG = re.compile(r"<[^>]*>")
_HIDDEN = re.compile(r"<style>.*?</style>", re.S)


def text(html: str) -> str:
    """What a reader sees of ``html``, spaces squeezed."""
    return " ".join(unescape(_TAG.sub(" ", _HIDDEN.sub(" ", html))).split())


# tutor/teach/display.py


def test_plays_and_their_verdicts_are_a_table_the_words_say() -> None:
    hand, lead = "♠A ♠A ♠K ♠5 ♠3", "♠9 ♠9"
    plays = [parse_cards(p) for p in ("♠K ♠5", "♠A ♠A")]
    page = verdicts_html([(play, check_follow(hand, lead, play, "♥")) for play in plays])
    assert page.startswith("<style>") and page.count('<th scope="col">') == 3
    assert text(page).startswith("you play verdict why")
    assert 'class="qd-illegal">illegal (W3)<' in page and 'class="qd-legal">legal<' in page
    assert "you hold the pair ♠A ♠A" in page and page.count("<tr>") == 3
    assert page.count('class="qd-card ') == 4  # the cards played, drawn as cards
    assert "<style>" not in verdicts_html([], style=False)
    chinese = verdicts_html([(plays[0], check_follow(hand, lead, plays[0], "♥"))], tr=Translator("zh-Hans"))
    assert "you play" not in text(chinese) and "illegal" not in text(chinese) and "W3" in text(chinese)


def test_a_verdict_table_takes_verdicts_only() -> None:
    with pytest.raises(ValueError):
        verdicts_html([(parse_cards("♠A"), "legal")])  # type: ignore[list-item]


def test_the_score_table_has_a_line_for_each_hand() -> None:
    page = scores_html([score_hand(75), score_hand(-10), score_hand(120, solo=True)])
    assert page.count("<tr>") == 4 and page.count('<th scope="col">') == 5
    assert text(page).startswith("attackers' total A row of the table declarer friend each attacker")
    lines = [text(line) for line in re.findall(r"<tr>(.*?)</tr>", page)[1:]]
    assert lines == ["75 60–75 +2 +1 -1", "-10 below 0, or 5–15 +8 +4 -4", "120 120–135 -24 — +6"]  # a solo: no friend
    assert 'class="qd-scores"' in page and "style=" not in _HIDDEN.sub("", page)  # styled by the sheet, not inline
    assert "row of the table" not in scores_html([score_hand(75)], tr=Translator("zh-Hant"))


def test_a_recorded_trick_marks_the_seat_that_won_it() -> None:
    game = play_random_hand(3)
    for trick in game.tricks:
        index = [seat for seat, _ in trick.plays].index(trick.seat)
        page = won_trick_html(trick, trump=game.trump)
        assert page == trick_html(trick.plays, trump=game.trump, winner=index)
        assert f'<tr class="qd-winner" data-seat="{trick.seat}">' in page and page.count('<tr class="qd-winner"') == 1


# widgets/views.py


def test_a_reason_names_its_rule_once() -> None:
    short = check_ruff("♠3 ♥Q ♥K ♣4", "♠A ♠K", "♠3 ♥K", "♥")  # the reason does not name R1
    assert reason_cited(short) == f"{short.reason} (R1)"
    ruffed = check_ruff("♥9 ♥7 ♥7 ♣3", "♠5 ♠6 ♠7", "♥9 ♥7 ♥7", "♥")  # a winning ruff names its rules
    assert ruffed.ruff and reason_cited(ruffed) == ruffed.reason
    named = Verdict(False, "W3", "a pair must follow a pair (W3)")
    assert reason_cited(named) == "a pair must follow a pair (W3)"
    chinese = Translator("zh-Hans")(reason_cited(short))  # said whole in the page's language
    assert chinese.count("R1") == 1 and "you" not in chinese


def test_a_row_says_a_verdict_whole() -> None:
    verdict = check_follow("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♥7 ♥3", "♠")
    assert row(verdict) == row(verdict.say())
    assert verdict.say(Translator("zh-Hant")) in row(verdict, lang="zh-Hant")


def test_a_ruff_shows_its_cards_then_its_reason() -> None:
    view = ruff_view("♥8 ♥8 ♥4 ♣3", "♠5 ♠6 ♠7", "♥8 ♥8 ♥4", "♥", beat="♥9 ♥7 ♥7")
    assert view.count("<div") == 2 and view.count('class="qd-card ') == 4 + 3 + 3 + 3
    assert text(view).endswith("(R5)") and text(view).count("(R5)") == 1


def test_a_throw_shows_the_throw_the_hands_and_the_answer() -> None:
    stands = throw_view("♠A ♠K ♠K", ["♠Q ♠Q ♠3", "♠9 ♥4", "♣3", "♦4"], "♥")
    fails = throw_view("♠A ♠Q ♠Q", ["♠K ♠K ♠3", "♠9 ♥4", "♣3", "♦4"], "♥")
    assert stands.count("<div") == fails.count("<div") == 3
    assert "(L3)" in stands and "(L4)" in fails and "15 points (L5)" in fails


def test_a_lead_and_its_parts() -> None:
    assert "the pair ♠A ♠A  ·  the single ♠K" in lead_view("♠A ♠K ♠A", "♥")
    mixed = lead_view("♠A ♥3", "♥")
    assert mixed.count('class="qd-card ') == 2 and "mixes" in mixed  # the cards, and why not
    parts = components_view("♠Q ♠Q ♠J ♠J ♠10 ♠10 ♠5", "♥")
    assert parts.count("<div") == 2 and "the tractor ♠Q ♠Q ♠J ♠J ♠10 ♠10" in parts
    with pytest.raises(ValueError):
        components_view("♠A ♥3", "♥")  # for Choose to show as the reason


def test_overturning_a_declaration() -> None:
    assert "Legal" in overturn_view(None, "♣2", 1)
    over = overturn_view("♥2", "♣2 ♣2", 1)
    assert over.count('class="qd-card ') == 3 and "→" in over
    assert "(D3)" in overturn_view("♥2", "♥2 ♥2", 0)  # one's own declaration, made stronger
    assert text(overturn_view("♥2", "♥2 ♥2", 0)) != text(overturn_view("♥2", "♥2 ♥2", 1))


def test_calling_a_card_leaves_the_game_as_it_was() -> None:
    full = play_random_hand(4)
    call_at = next(i for i, event in enumerate(full.history) if type(event).__name__ == "Call")
    calling = Game.replay(4, full.history[:call_at])
    declarer, before = calling.declarer, calling.history
    assert declarer is not None
    held = calling.hand(declarer)
    once = next(card for card in held if held.count(card) == 1)
    accepted = call_view(calling, declarer, once)
    assert "Accepted: the friend is seat" in accepted and calling.history == before
    refused = call_view(calling, declarer, parse_cards("BJ")[0])
    assert "(F1)" in refused and refused.count('class="qd-card ') == 1


def test_who_knows_the_friend() -> None:
    full = play_random_hand(4)
    lines = re.findall(r"Seat \d[^<]*", who_knows_view(full))
    assert len(lines) == 5
    assert all("knows the friend" in line or "is the friend" in line for line in lines)  # revealed by the end


def test_a_scored_hand_is_its_sentence_and_its_line() -> None:
    view = score_view(120, solo=True)
    assert text(view).startswith(text(row(score_hand(120, solo=True).explain())))
    assert text(scores_html([score_hand(120, solo=True)])) in text(view)


def test_weighed_calls_say_each_average() -> None:
    view = weighed_calls_view([parse_cards("♥A")[0], None], [[1.0, 2.0], [-3.0, -1.0]])
    assert re.findall(r"(call ♥A|go solo): expected (\S+) over 2 deals", text(view)) == [("call ♥A", "+1.5"),
                                                                                         ("go solo", "−2.0")]
    with pytest.raises(ValueError):
        weighed_calls_view([None], [])


def test_trumps_are_marked_in_the_lessons_views() -> None:
    assert "king of hearts, trump" in ruff_view("♠3 ♥Q ♥K ♣4", "♠A ♠K", "♠3 ♥K", Trump("♥"))
