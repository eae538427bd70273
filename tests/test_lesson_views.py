"""What the lessons show, drawn by one named function each instead of in the lesson's cell:
plays and their verdicts, the score table and a recorded trick (tutor/teach/display.py), and
the lessons' examples that ask the rules and draw the answer (widgets/views.py)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tutor import Call, Trump, check_follow, check_ruff, parse_cards, play_random_hand, score_hand
from tutor.core.i18n import Text, Translator
from tutor.play import computer_hand, unseen_points
from tutor.teach import scores_html, trick_html, verdicts_html, won_trick_html
from widgets import (Html, call_view, components_view, flip_view, follows_view, lead_view, markup,
                     overturn_view, points_left_view, row, ruff_view, score_view, shown_out_view, throw_view,
                     weighed_calls_view, who_knows_view)

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


def test_a_sentence_in_markup_keeps_its_markup_and_escapes_its_values() -> None:
    said = markup(Text("The pack: <b>{count}</b> cards, <b>{points}</b> points in all.", count=108, points=200))
    assert said == "The pack: <b>108</b> cards, <b>200</b> points in all." and isinstance(said, Html)
    assert "整副牌" in markup(Text("The pack: <b>{count}</b> cards, <b>{points}</b> points in all.", count=108,
                                   points=200), lang="zh-Hans")  # the lessons' catalog says it whole
    assert markup(Text("<code>{notation}</code>", notation="<♠A>")) == "<code>&lt;♠A&gt;</code>"
    assert '<span style="max-width:38em">The pack: <b>108</b>' in row(markup(Text("The pack: <b>{n}</b>", n=108)))
    assert "&lt;b&gt;" in row("a <b>plain</b> sentence")  # other sentences are text


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


def test_plays_and_their_verdicts_from_a_hand() -> None:
    view = follows_view("♠A ♠A ♠K ♠5 ♠3 ♥4", "♠9 ♠9", ["♠K ♠5", "♠K ♠3", "♠A ♠A"], "♥")
    assert view == verdicts_html([(parse_cards(play), check_follow("♠A ♠A ♠K ♠5 ♠3 ♥4", "♠9 ♠9", play, "♥"))
                                  for play in ("♠K ♠5", "♠K ♠3", "♠A ♠A")], trump=Trump("♥"))
    assert text(view).count("illegal (W3)") == 2 and "king of spades" in view


def test_a_kitty_flipped() -> None:
    flipped = flip_view("♦K ♥2 ♠3 ♠3 ♦K ♥9 ♣10 SJ")
    assert flipped.count('class="qd-card ') == 9 and text(flipped).endswith("♥ trumps")
    void = flip_view("♠3 ♠3 ♥9 ♥9 ♦K ♦K SJ SJ")
    assert void.count('class="qd-card ') == 8 and text(void).endswith("no card decides: the deal is void (D6)")


def test_the_points_a_seat_has_not_seen() -> None:
    game, _ = computer_hand(4, tricks=6)
    view = game.view(1)
    page = text(points_left_view(view))
    each = ", ".join(str(trick.points) for trick in view.tricks)
    assert f"trick by trick: {each} points." in page
    played, mine = sum(t.points for t in view.tricks), sum(c.points for c in view.hand)
    assert f"200 − {played} − {mine} = {unseen_points(view)} points." in page
    assert unseen_points(view) == 200 - played - mine - sum(c.points for c in view.kitty or ())


def test_who_showed_out() -> None:
    page = text(shown_out_view([(3, "♣A"), (4, "♦K"), (0, "♣4"), (1, "♥7"), (2, "♣8")], "♠"))
    assert page == "Seat 4 did not follow ♣: it has no ♣ left (W2). Seat 1 did not follow ♣: it has no ♣ left (W2)."
    assert "trumps" in shown_out_view([(0, "♠2"), (1, "♣3")], "♥")  # a trump lead: no trumps left
    assert shown_out_view([(0, "♠A"), (1, "♠3")], "♥") == "" == shown_out_view([], "♥")


def test_calling_a_card_leaves_the_game_as_it_was() -> None:
    full = play_random_hand(4)
    calling = full.before(full.first_event(Call))
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
                                                                                         ("go solo", "-2.0")]
    with pytest.raises(ValueError):
        weighed_calls_view([None], [])


def test_trumps_are_marked_in_the_lessons_views() -> None:
    assert "king of hearts, trump" in ruff_view("♠3 ♥Q ♥K ♣4", "♠A ♠K", "♠3 ♥K", Trump("♥"))
