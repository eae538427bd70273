"""tutor.teach.reasons: the idea behind a play in words a newcomer reads, before the numbers
(advice, not rules) — positions written in notation, one row each, and the coach's hint, review
and declaring hint built from them; then every advice line of a few computer-played hands."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from tutor.core.i18n import Text, Translator
from tutor.play.coach import Advice, Decision, judge
from tutor.play.search import Found, PlayValue
from tutor.play.strategy import ComputerPlayer, next_action, play_computer_hand, trumps_to_declare
from tutor.rules.cards import PLAYERS
from tutor.rules.events import Declared, TrickWon
from tutor.rules.game import Game, Phase, Play, SeatView
from tutor.rules.notation import parse_cards as p
from tutor.rules.order import Trump
from tutor.teach import coaching
from tutor.teach.reasons import compared, declare_reason, no_declare_reason, play_reason, share_said, standing

CHINESE = (Translator("zh-Hans"), Translator("zh-Hant"))


Plays = tuple[tuple[int, str], ...]


def position(seat: int, hand: str, *, trick: Plays = (), tricks: tuple[Plays, ...] = (), trump: str = "♥",
             declarer: int = 0, friend: int | None = None, called: str = "♣A") -> SeatView:
    """``seat``'s view in the playing phase: its hand, the trick on the table and the tricks
    before it (as (seat, cards) plays in notation), the trump, the declarer and the friend as
    the seat knows it (None: not revealed yet)."""
    won = tuple(TrickWon(plays[0][0], 0, tuple((s, tuple(p(cards))) for s, cards in plays), "") for plays in tricks)
    return replace(Game(7).view(seat), phase=Phase.PLAYING, trump=Trump(trump), declarer=declarer, friend=friend,
                   friend_card=p(called)[0], actor=seat, to_play=seat, hand=tuple(p(hand)),
                   trick=tuple((s, tuple(p(cards))) for s, cards in trick), tricks=won,
                   friend_revealed=friend is not None and friend != seat)


def value(cards: str, expected: float = 0.0, error: float = 0.2, share: float = 0.5, attackers: float = 60.0,
          results: tuple[int, ...] = ()) -> PlayValue:
    return PlayValue(p(cards), expected, error, share, attackers, results)


# ---------------------------------------------------------------- the idea behind a play

ALL_ACES = ((1, "♠A"), (2, "♠A"), (3, "♠3"), (4, "♠4"), (0, "♠5"))
LAST = ((0, "♠K"), (1, "♠5"), (2, "♠6"), (3, "♠7"))
OUT_OF_SPADES = ((1, "♠Q"), (2, "♣3"), (3, "♠6"), (4, "♠7"), (0, "♠8"))

REASONS = [
    # id, view, play, what the reason must say
    ("lead-sure-side-suit", position(0, "♠A ♠3 ♥5"), "♠A",
     ["nobody can beat it in ♠", "it keeps your trumps"]),
    ("lead-sure-once-the-aces-are-played", position(0, "♠K ♠3 ♥5", tricks=(ALL_ACES,)), "♠K",
     ["nobody can beat it in ♠"]),
    ("lead-beatable-with-points", position(0, "♠K ♠3 ♥5"), "♠K",
     ["higher ♠ cards still out can beat it", "it puts 10 points at risk"]),
    ("lead-beatable-no-points", position(0, "♠K ♠3 ♥5"), "♠3",
     ["higher ♠ cards still out can beat it", "it risks no points"]),
    ("lead-sure-trump", position(0, "BJ ♠3 ♥5"), "BJ",
     ["nobody can beat it", "it draws trumps from the other hands"]),
    ("lead-low-trump", position(0, "BJ ♠3 ♥5"), "♥5",
     ["it draws trumps from the other hands", "higher trumps still out can beat it"]),
    ("lead-into-a-known-void", position(1, "♠A ♠3 ♥5", tricks=(OUT_OF_SPADES,)), "♠A",
     ["nobody can beat it in ♠", "but Seat 2 has shown no ♠ and may ruff it"]),
    ("lead-empties-a-suit", position(0, "♠A ♠3 ♣4 ♥5"), "♣4",
     ["after it you hold no ♣, so you may ruff ♣ later (R1)"]),
    ("lead-throw-that-stands", position(0, "♠A ♠A ♠K ♥5"), "♠A ♠A ♠K",
     ["no hand can beat any part of this throw, so it stands (L3)"]),
    ("lead-throw-that-may-fail", position(0, "♠A ♠Q ♥5"), "♠A ♠Q",
     ["higher ♠ cards still out can make this throw fail, costing 10 points (L4, L5)"]),
    ("follow-feed-the-partner", position(3, "♥K ♥3 ♠4", trick=((0, "♥A"),), friend=3), "♥K",
     ["feed your partner Seat 0's winning trick ♥K: 10 points"]),
    ("follow-ruff", position(1, "♥5 ♣3", trick=((0, "♠A"),)), "♥5",
     ["you have no ♠: ruffing beats ♠A, spending 1 of your trumps (R1)", "3 more seats play after you"]),
    ("follow-over-ruff", position(2, "♥9 ♣3", trick=((0, "♠A"), (1, "♥3"))), "♥9",
     ["it over-ruffs ♥3, spending 1 of your trumps (R5)"]),
    ("follow-cannot-beat", position(2, "♠K ♠3 ♥5", trick=((0, "♠A"),)), "♠K",
     ["Seat 0, on the other side, is winning the trick with ♠A", "nothing you may play beats it",
      "it adds 10 points to the trick"]),
    ("follow-low-to-an-opponent", position(2, "♠K ♠3 ♥5", trick=((0, "♠A"),)), "♠3",
     ["nothing you may play beats it", "it adds no points to the trick"]),
    ("follow-last-and-win", position(4, "♠A ♠3", trick=LAST), "♠A",
     ["it beats ♠K", "you play last, so your side takes the trick and its 15 points"]),
    ("follow-over-a-partner", position(3, "♠A ♠3", trick=((0, "♠Q"),), friend=3), "♠A",
     ["it takes the trick from your partner Seat 0"]),
    ("follow-side-not-known", position(0, "♠3 ♠4", trick=((2, "♠Q"),)), "♠3",
     ["Seat 2, whose side you do not know yet (F6), is winning the trick with ♠Q"]),
    ("follow-short-spends-a-trump", position(2, "♠3 ♥4 ♥6 ♣5", trick=((0, "♠A ♠A"),)), "♠3 ♥4",
     ["it spends 1 trump without winning"]),
    ("follow-shows-the-friend", position(3, "♣A ♣3", trick=((1, "♣K"),), friend=3), "♣A",
     ["it beats ♣K", "it shows everyone you are the friend (F6)"]),
]


@pytest.mark.parametrize(("view", "play", "said"), [row[1:] for row in REASONS], ids=[row[0] for row in REASONS])
def test_the_reason_names_the_idea(view: SeatView, play: str, said: list[str]) -> None:
    reason = play_reason(view, value(play))
    assert isinstance(reason, Text)
    for words in said:
        assert words in reason, reason
    for tr in CHINESE:
        assert "{" not in tr(reason)


def test_a_partner_s_trick_is_not_beaten_in_words_nor_an_opponent_s_fed() -> None:
    feed = play_reason(position(3, "♥K ♥3", trick=((0, "♥A"),), friend=3), value("♥K"))
    give = play_reason(position(2, "♥K ♥3", trick=((0, "♥A"),)), value("♥K"))
    assert "feed" in feed and "feed" not in give and "on the other side" in give


def test_the_sides_are_as_the_seat_knows_them() -> None:
    attacker = position(1, "♠3")
    assert [standing(attacker, seat) for seat in (0, 2)] == ["opponent", "unknown"]
    declarer = position(0, "♠3")
    assert standing(declarer, 2) == "unknown"
    assert standing(replace(declarer, friend=2), 2) == "partner"
    assert standing(replace(declarer, solo=True), 2) == "opponent"


def test_the_cards_are_said_in_the_hand_s_order() -> None:
    view = position(0, "♠3 ♥4 ♥6 ♣5", trick=((2, "♠A ♠A"),))
    found = Found(0, (value("♠3 ♥4", 1.0, 0.1), value("♣5 ♠3", 0.0, 0.1)), 10, 0.0)
    lines = coaching.advice(Advice(view, found, None, Play(0, p("♠3 ♥4"))))
    assert lines[1].startswith("Best: ♥4 ♠3 — "), lines
    assert any(line.startswith("Or ♠3 ♣5 — ") for line in lines), lines


# ---------------------------------------------------------------- two plays compared, the trick's share


def test_two_plays_compared_in_points_of_the_score_table() -> None:
    assert compared(value("♠A", 2.0, 0.2), value("♠3", 0.0, 0.2)) == "better by about 2 points of the score table"
    assert compared(value("♠A", 1.0, 0.2), value("♠3", 0.0, 0.2)) == "better by about 1 point of the score table"
    tie = compared(value("♠A", 0.3, 0.5), value("♠3", 0.0, 0.5))
    assert tie == "about as good: within the coach's margin of error"
    assert compared(value("♠A", 0.0, 0.1), value("♠3", 1.5, 0.1)) == "worse by about 1.5 points of the score table"
    # on the same layouts the paired difference is what counts: here it never varies, so it is sure
    paired = compared(value("♠A", 0.5, 2.0, results=(5, -3, 1)), value("♠3", 0.0, 2.0, results=(4.5, -3.5, 0.5)))
    assert paired == "better by about 0.5 points of the score table"
    for tr in CHINESE:
        assert "{" not in tr(paired)


def test_the_share_of_the_trick_is_said_in_words_at_its_ends() -> None:
    assert share_said(value("♠A", share=1.0)) == "your side takes this trick in every deal tried"
    assert share_said(value("♠A", share=0.0)) == "your side takes this trick in none of the deals tried"
    assert share_said(value("♠A", share=0.4)) == "your side takes this trick in 40% of the deals tried"


def test_advice_words_first_then_numbers_and_ties_said() -> None:
    view = position(2, "♠K ♠3 ♥5", trick=((0, "♠A"),))
    found = Found(2, (value("♠3", 1.0, 0.3, 0.0, 70.0), value("♠K", 0.8, 0.3, 0.0, 80.0)), 20, 0.0)
    lines = coaching.advice(Advice(view, found, None, Play(2, p("♠3"))))
    assert lines[0].startswith("Advice, not a rule")
    best, other = lines[1], lines[2]
    assert best.startswith("Best: ♠3 — Seat 0, on the other side, is winning the trick with ♠A")
    assert best.index("nothing you may play beats it") < best.index("+1.0 on the score table")
    assert "the attackers ending the hand with about 70 points" in best
    assert other.startswith("Or ♠K — ") and "♠3 is about as good: within the coach's margin of error" in other
    assert "Whatever you play, your side takes this trick in none of the deals tried." in lines
    assert not any("%" in line for line in lines), lines  # the same 0% is not said beside every play


def test_advice_says_each_share_where_they_differ_and_how_much_better() -> None:
    view = position(4, "♠A ♠3", trick=((0, "♠K"), (1, "♠5"), (2, "♠6"), (3, "♠7")))
    found = Found(4, (value("♠A", 2.0, 0.2, 1.0, 40.0), value("♠3", -1.0, 0.2, 0.0, 55.0)), 20, 0.0)
    lines = coaching.advice(Advice(view, found, None, Play(4, p("♠A"))))
    assert "your side takes this trick in every deal tried" in lines[1]
    assert lines[2].startswith("Or ♠3 — ") and "your side takes this trick in none of the deals tried" in lines[2]
    assert "♠A is better by about 3 points of the score table." in lines[2]
    assert not any(line.startswith("Whatever you play") for line in lines)


def test_the_voids_are_grouped() -> None:
    tricks = (OUT_OF_SPADES, ((1, "♣A"), (2, "♣4"), (3, "♦3"), (4, "♣6"), (0, "♣5")))
    view = position(0, "♠3", tricks=tricks, trick=((1, "♦A"), (2, "♥3")))
    said = [line for line in coaching.situation(view) if line.startswith("Known to be out")]
    assert said == ["Known to be out of a suit: Seat 2 has no ♠ or ♦ and Seat 3 has no ♣."], said
    again = ((1, "♠J"), (2, "♥4"), (3, "♠10"), (4, "♣4"), (0, "♠9"))
    view = position(0, "♠3", tricks=(OUT_OF_SPADES, again))
    said = [line for line in coaching.situation(view) if line.startswith("Known to be out")]
    assert said == ["Known to be out of a suit: Seat 2 and Seat 4 have no ♠."], said


# ---------------------------------------------------------------- the review speaks as the hint does


def test_the_review_says_the_reasons_and_the_difference_in_game_terms() -> None:
    view = position(4, "♠A ♠3", trick=((0, "♠K"), (1, "♠5"), (2, "♠6"), (3, "♠7")))
    best, mine = value("♠A", 2.0, 0.2, 1.0, 40.0, (3, 1, 2)), value("♠3", -1.0, 0.2, 0.0, 55.0, (0, -2, -1))
    found = Found(4, (best, mine), 3, 0.0)
    costly = Decision(0, 5, view, p("♠3"), found, 3.0, 0.0)
    line = coaching.decision_line(costly)
    assert line.startswith("Trick 5: you played ♠3 (Seat 0, on the other side, is winning the trick with ♠K; "
                           "it adds no points to the trick); ")
    assert "♠A was better by about 3 points of the score table — the coach is sure of it (its margin of error is " \
           "±0.2): it beats ♠K" in line  # sure: 3 is over twice the margin
    assert "your side takes the trick 100% of the time instead of 0%" in line
    same = coaching.decision_line(Decision(0, 5, view, p("♠A"), found, 0.0, 0.0))
    assert same.startswith("Trick 5: you played ♠A (it beats ♠K") and same.endswith("the coach's choice too.")


def test_the_review_does_not_say_the_same_idea_twice() -> None:
    view = position(2, "♠4 ♠3 ♥5", trick=((0, "♠A"),))
    best, mine = value("♠4", 1.0, 0.1, 0.0, 60.0, (2, 0)), value("♠3", 0.0, 0.1, 0.0, 40.0, (1, -1))
    line = coaching.decision_line(Decision(0, 2, view, p("♠3"), Found(2, (best, mine), 2, 0.0), 1.0, 0.0))
    assert line.count("nothing you may play beats it") == 1, line
    assert line.endswith("♠4 was better by about 1 point of the score table — the coach is sure of it (its margin "
                         "of error is ±0.2): the attackers end the hand with about 20 points more."), line


# ---------------------------------------------------------------- declaring


def _dealing(hand: str, declarations: tuple[Declared, ...] = ()) -> SeatView:
    return replace(Game(7).view(0), hand=tuple(p(hand)), declarations=declarations)


def test_the_declaring_hint_says_why_not() -> None:
    weak = coaching.hint(None, _dealing("♥2 ♥A ♠3 ♠9 ♣4 ♦6 ♦7 ♦9"))
    assert weak.startswith("The computer would not declare with these cards: ")
    assert weak.endswith("♥ trumps would make only 2 of your 8 cards trumps (♥2 ♥A); "
                         "the computer declares with at least 3.")
    assert "no 2 and no pair of jokers" in no_declare_reason(_dealing("SJ ♥A ♠3 ♠9 ♣4"))
    beaten = no_declare_reason(_dealing("♥2 ♥A ♠3 ♠9 ♣4", (Declared(3, p("♠2 ♠2"), Trump("♠"), 1),)))
    assert beaten == "your ♥2 cannot overturn Seat 3's ♠2 ♠2 (D2, D3)"
    own = no_declare_reason(_dealing("♥2 ♥A ♠3 ♠9 ♣4", (Declared(0, p("♥2"), Trump("♥"), 1),)))
    assert "nobody may overturn their own (D3)" in own
    standing_single = (Declared(3, p("♦2"), Trump("♦"), 1),)
    overturn = no_declare_reason(_dealing("♥2 ♥2 ♥A ♠3 ♠9 ♣4 ♦6 ♦7", standing_single))
    assert "the computer overturns with at least 4" in overturn, overturn
    early = no_declare_reason(_dealing("♥2 ♥A ♠3"))
    assert early == "it weighs a declaration once it holds 5 cards, and you hold 3 so far"
    strong = _dealing("BJ ♥2 ♥A ♥9 ♥5 ♠3")
    said = coaching.hint(ComputerPlayer(0).declaration(strong), strong)
    assert said == "The computer would declare with ♥2: ♥ trumps would make 5 of your 6 cards trumps (BJ ♥2 ♥A ♥9 ♥5)."
    for tr in CHINESE:
        assert "{" not in tr(weak) and "{" not in tr(said)


def test_the_declaring_bar_is_the_computer_players() -> None:
    """Where the computer player declines, the strongest trump it could make falls short of
    the bar the hint names; where it declares, the trump it makes reaches it."""
    checked = 0
    for seed in range(6):
        game = Game(seed)
        bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
        while game.phase is Phase.DEALING:
            for seat in range(PLAYERS):
                view = game.view(seat)
                options = bots[seat].declarations(view)
                if not options:
                    continue
                reaches = []
                for _, _, cards in options:
                    count = len(Trump(cards[0].suit).trumps(view.hand))
                    least = trumps_to_declare(len(view.hand), overturn=bool(view.declarations),
                                              no_trump=cards[0].suit is None)
                    reaches.append(count >= least)
                declared = bots[seat].declaration(view)
                assert (declared is not None) == any(reaches), (seed, seat, options)
                if declared is None:
                    _, _, cards = max(options, key=lambda option: option[0])
                    least = trumps_to_declare(len(view.hand), overturn=bool(view.declarations),
                                              no_trump=cards[0].suit is None)
                    assert no_declare_reason(view).endswith(f"at least {least}")
                else:
                    count = len(Trump(declared.cards[0].suit).trumps(view.hand))
                    assert f"{count} of your {len(view.hand)} cards" in declare_reason(view, declared.cards)
                checked += 1
            game.apply(next_action(game, bots))
    assert checked > 50


# ---------------------------------------------------------------- whole hands


@pytest.mark.parametrize("seed", [2, 5, 11])
def test_every_advice_and_review_line_of_a_hand_reads_whole(seed: int) -> None:
    """Every position of seat ``seed % 5`` in a computer-played hand: the advice and a review
    line render, in English and in Chinese, with no placeholder left in braces."""
    seat = seed % PLAYERS
    game = play_computer_hand(seed)
    replay = Game(game.seed, game.rules, game.deck)
    said = 0
    for action in game.history:
        if isinstance(action, Play) and action.seat == seat and replay.phase is Phase.PLAYING:
            view = replay.view(seat)
            found = judge(view, game.rules, seed=seed, include=(action.cards,), layouts=3)
            mine = found.value_of(action.cards)
            assert mine is not None
            lines = list(coaching.advice(Advice(view, found, mine, Play(seat, found.best.play))))
            cost, error = found.edge(found.best, mine)
            lines.append(coaching.decision_line(Decision(0, len(view.tricks) + 1, view, action.cards, found,
                                                         max(cost, 0.0), error)))
            lines += [coaching.weighed_play(v, view.trump) for v in found.values]
            for line in lines:
                for text in (str(line), *(tr(line) for tr in CHINESE)):
                    assert text and not re.search(r"[{}]", text), text
            assert lines[1].startswith("Best: ")
            said += 1
        replay.apply(action)
    assert said > 5
