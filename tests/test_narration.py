"""tutor.teach.narration: every sentence the table says about a hand, from the game's results
and a seat's view — each result type said (or deliberately silent), in every language
from the game's catalog, the trick's sentence written once, the score's breakdown adding
up to the engine's total."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import get_args

import pytest
from babel.messages.extract import extract_from_dir

from tutor.teach import coaching, narration
from tutor.play.bots import play_random_hand
from tools.catalogs import KEYWORDS, catalog_of, code_messages
from tutor.rules.game import (
    Buried,
    Bury,
    Call,
    Dealt,
    Declare,
    Game,
    HandScored,
    KittyCaptured,
    Phase,
    Play,
    Played,
    Redealt,
    Result,
    SeatView,
    Solo,
)
from tutor.core.i18n import Text, Translator
from tutor.rules.notation import parse_cards

ROOT = Path(__file__).resolve().parent.parent
SEEDS = range(30)
CHINESE = (Translator("zh-Hans"), Translator("zh-Hant"))


def narrated(seed: int, seat: int) -> Iterator[tuple[Result, SeatView, Text | None]]:
    """Every result of a random hand, the seat's view just after it, and what the table says."""
    game = Game(seed)
    for action in play_random_hand(seed).history:
        event = game.apply(action)
        view = game.view(seat)
        for result in event.results:
            yield result, view, narration.happened(result, view)


def _is_silent(result: Result, seat: int) -> bool:
    """What the table shows without words: a card dealt or played, another seat's buried cards."""
    return isinstance(result, (Dealt, Played)) or (isinstance(result, Buried) and result.seat != seat)


def test_every_result_type_is_said_or_deliberately_silent_in_every_language() -> None:
    seen: set[type] = set()
    for seed in SEEDS:
        seat = seed % 5
        for result, _view, said in narrated(seed, seat):
            seen.add(type(result))
            if _is_silent(result, seat):
                assert said is None, (result, said)
                continue
            assert isinstance(said, Text) and said, result
            for tr in CHINESE:
                assert tr(said) != str(said), said.template  # found in the catalog, not English
    redealt = narration.happened(Redealt(parse_cards("♠3 ♠3 ♥4 ♥4 ♣5 ♣5 ♦6 ♦6"), 1), Game(1).view(0))
    assert redealt is not None and "(D6)" in redealt
    seen.add(Redealt)
    assert seen == set(get_args(Result))


@pytest.mark.parametrize("seed", SEEDS[:8])
def test_the_sentences_name_the_learner_and_the_rule(seed: int) -> None:
    for result, _view, said in narrated(seed, 2):
        if said is None:
            continue
        seat = getattr(result, "seat", None)
        if seat == 2:
            assert "(you)" in said or said.startswith(("You ", "Your ")), said
        elif seat is not None:
            assert f"Seat {seat}" in said, said


def test_the_trick_sentence_is_written_once_and_said_the_same_everywhere() -> None:
    where = [(name, line) for folder in ("tutor", "widgets")
             for name, line, text, _c, _x in extract_from_dir(ROOT / folder, keywords=KEYWORDS)
             if isinstance(text, str) and text.startswith("Trick {n}: {who} wins")]
    assert len(where) == 1 and where[0][0] == "teach/narration.py", where
    game = play_random_hand(4)
    view = game.view(0)
    review = narration.review(view)
    assert review[-1] == narration.trick(view, game.tricks[-1]) == narration.trick_won(len(game.tricks),
                                                                                         game.tricks[-1], 0)
    logged = [said for result, _v, said in narrated(4, 0) if said is not None and said.startswith("Trick ")]
    assert logged == list(review)


def test_the_narration_is_in_the_games_catalog() -> None:
    assert catalog_of("tutor/teach/narration.py") == "game"
    game = code_messages()["game"]
    for template in ("Trick {n}: {who} wins {points} points. {reason}.", "Seat {seat} (you)",
                     "The computer would play {cards}.", "You are the friend (only you know)"):
        assert template in game


@pytest.mark.parametrize("seed", SEEDS)
def test_the_score_breakdown_adds_up_to_the_engines_total(seed: int) -> None:
    game = play_random_hand(seed)
    results = game.events[-1].results
    scored = next(r for r in results if isinstance(r, HandScored))
    capture = next((r for r in results if isinstance(r, KittyCaptured)), None)
    lines = narration.score_lines(scored, game.view(0), game.kitty, capture)
    attackers = [s for s in range(5) if game.side_of(s) == "attacker"]
    in_tricks = sum(game.won_points[s] for s in attackers)  # counted here, independently of the engine
    assert lines[0].params["points"] == in_tricks
    assert in_tricks + game.kitty_capture + game.penalty_adjustment == scored.attackers_points
    assert (capture is not None) == any("(X2)" in line for line in lines)
    assert any("(L5)" in line for line in lines) == bool(game.penalty_adjustment)
    assert narration.verdict(scored, 0).params["points"] == abs(scored.results[0])


def test_whose_turn_is_the_views_actor() -> None:
    view = replace(Game(7).view(1), phase=Phase.PLAYING, actor=3, trick=((2, parse_cards("♠A ♠A")),))
    assert narration.turn(view) == "Seat 3 is thinking…"
    assert narration.turn(replace(view, actor=1)) == "Your turn: follow with 2 cards (W1–W6)."
    assert narration.turn(replace(view, actor=1, trick=(), forced_options=(parse_cards("♠3"),))) \
        == "Your throw failed: lead ♠3 (L4)."
    assert narration.turn(replace(view, phase=Phase.CALLING, actor=1)).endswith("(F1–F5).")
    assert narration.turn(replace(view, phase=Phase.FINISHED, actor=None)).startswith("The hand is over")


def test_the_friend_as_each_seat_knows_it() -> None:
    view = replace(Game(7).view(3), phase=Phase.PLAYING, declarer=0, friend=3, friend_card=parse_cards("♠A")[0])
    assert narration.friend(view, revealed=False) == "You are the friend (only you know)"
    assert narration.friend(replace(view, seat=1, friend=None), revealed=False) == "Not revealed yet"
    assert narration.friend(view, revealed=True) == "The friend is Seat 3 (you)"
    assert narration.friend(replace(view, solo=True), revealed=False) == "Solo: the declarer plays alone"


def test_the_hint_says_every_action() -> None:
    view = Game(7).view(0)
    playing = replace(view, phase=Phase.PLAYING)
    said = {
        coaching.hint(None, view), coaching.hint(None, playing),
        coaching.hint(Declare(0, parse_cards("♥2")), view), coaching.hint(Bury(0, parse_cards("♠3") * 8), view),
        coaching.hint(Call(0, parse_cards("♠A")[0]), view), coaching.hint(Solo(0), view),
        coaching.hint(Play(0, parse_cards("♠A")), view),
    }
    assert len(said) == 7 and all(s.startswith(("The computer", "Nothing")) for s in said)
    for tr in CHINESE:
        assert all(tr(s) != s for s in said)


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_the_trump_line_names_the_trump_once(lang: str) -> None:
    """The table's status said "Trump: ♦ trumps" (主牌：♦为主): once decided, the trump's own
    name is the whole line; before, the line says it is not decided yet."""
    from tutor.rules.game import Game
    from tutor.rules.order import Trump

    tr = Translator(lang)
    view = Game(7).view(0)
    for suit in ("♦", None):
        decided = replace(view, trump=Trump(suit))
        assert tr(narration.trump_line(decided)) == tr(narration.trump_name(Trump(suit)))
    assert tr(narration.trump_line(view)) == tr(Text("Trump: {trump}", trump=Text("not decided yet")))
