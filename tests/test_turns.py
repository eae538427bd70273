"""The turn API of tutor.rules.game: ``actor``, ``verify``, ``can``, ``apply`` — the one place
that says whose turn it is and what they may do.

Random hands are played through it; at every step the actor is checked against the
phase, every candidate action's ``can`` against what ``apply`` does on a copy, and a
refused action against an unchanged game.
"""

from __future__ import annotations

import random

import pytest

from tutor.play.bots import random_action
from tutor.rules.cards import PLAYERS
from tutor.core.errors import IllegalActionError, InvalidPlayError, TutorError
from tutor.rules.follow import legal_follows
from tutor.rules.game import ACTIONS, Bury, Call, CloseDeal, Deal, Declare, Game, Phase, Play, Solo
from tutor.rules.ruleset import Ruleset
from tutor.play.strategy import ComputerPlayer, next_action


def _fingerprint(game: Game) -> tuple[object, ...]:
    return (game.events, game.phase, tuple(game.hand(s) for s in range(PLAYERS)), game.trick, repr(game))


def _expected_actor(game: Game) -> int | None:
    if game.phase is Phase.PLAYING:
        leader = game.trick[0][0] if game.trick else (game.tricks[-1].seat if game.tricks else game.declarer)
        return (leader + len(game.trick)) % PLAYERS
    if game.phase in (Phase.BURYING, Phase.CALLING):
        return game.declarer
    return None


def _candidates(game: Game, rng: random.Random) -> list[object]:
    """Actions to ask about: right and wrong seats, right and wrong phases."""
    seat = rng.randrange(PLAYERS)
    hand = game.hand(seat)
    out: list[object] = [Deal(), CloseDeal(), Solo(seat)]
    if hand:
        out += [Play(seat, hand[:1]), Play(seat, hand[:2]), Call(seat, hand[0]), Declare(seat, hand[:1])]
    if len(hand) >= 8:
        out.append(Bury(seat, hand[:8]))
    actor = game.actor
    if actor is not None and game.phase is Phase.PLAYING and game.trick:
        lead = game.trick[0][1]
        follows = legal_follows(game.hand(actor), lead, game.trump, rules=game.rules)
        out.append(Play(actor, follows.random(rng)))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_actor_can_and_verify_agree_with_apply_at_every_step(seed):
    rng = random.Random(seed)
    game = Game(seed, Ruleset(declare_after_deal=seed % 2 == 0))
    steps = 0
    while game.phase is not Phase.FINISHED:
        assert game.actor == _expected_actor(game)
        view = game.view(game.actor if game.actor is not None else 0)
        assert view.actor == game.actor
        if steps % 7 == 0:
            for action in _candidates(game, rng):
                before = _fingerprint(game)
                allowed = game.can(action)
                assert _fingerprint(game) == before, "can() changes nothing"
                if allowed:
                    game.verify(action)
                else:
                    with pytest.raises(IllegalActionError) as refused:
                        game.verify(action)
                    assert refused.value.rule and str(refused.value.reason)
                assert _fingerprint(game) == before, "verify() changes nothing"
                copy = Game.replay(game.seed, game.history, game.rules, game.deck)
                try:
                    copy.apply(action)  # type: ignore[arg-type]
                    applied = True
                except IllegalActionError:
                    applied = False
                assert applied is allowed, (action, allowed)
        action = random_action(game, rng)
        assert game.can(action), action
        game.apply(action)
        steps += 1
    assert game.actor is None and game.results is not None and sum(game.results) == 0


def test_only_the_actor_may_act_after_the_deal():
    game = Game(3)
    bots = {seat: ComputerPlayer(seat, 3) for seat in range(PLAYERS)}
    while game.phase is not Phase.PLAYING:
        game.apply(next_action(game, bots))
    actor = game.actor
    assert actor is not None
    card = game.hand(actor)[0]
    assert game.can(Play(actor, (card,)))
    for seat in set(range(PLAYERS)) - {actor}:
        other = Play(seat, game.hand(seat)[:1])
        assert not game.can(other)
        with pytest.raises(IllegalActionError, match="turn") as refused:
            game.verify(other)
        assert refused.value.rule == "C4"


@pytest.mark.parametrize("junk", [None, "Deal()", 7, Deal, object()])
def test_anything_but_an_action_is_refused_clearly(junk):
    game = Game(1)
    assert not game.can(junk)  # type: ignore[arg-type]
    with pytest.raises(InvalidPlayError, match="not a game action"):
        game.verify(junk)  # type: ignore[arg-type]
    with pytest.raises(InvalidPlayError):
        game.apply(junk)  # type: ignore[arg-type]
    assert game.events == () and game.history == ()


def test_every_action_type_is_handled():
    assert set(ACTIONS) == {Deal, Declare, CloseDeal, Bury, Call, Solo, Play}


PUBLIC_STATE = ["seed", "rules", "deck", "phase", "deal_number", "history", "events", "trump", "declarer",
                "declaration_count", "friend_card", "friend", "friend_revealed", "solo", "won_points", "tricks",
                "penalty_adjustment", "kitty_capture", "score", "results", "kitty", "actor", "to_play", "trick",
                "forced_options", "declarations", "all_dealt", "first_deal", "last_event"]


@pytest.mark.parametrize("name", PUBLIC_STATE)
def test_game_state_is_read_only_from_outside(name):
    game = Game(5)
    with pytest.raises(AttributeError):
        setattr(game, name, None)
    with pytest.raises(AttributeError):
        game.anything_new = 1  # type: ignore[attr-defined]


def test_the_state_handed_out_cannot_change_the_game():
    game = Game(5)
    for _ in range(30):
        game.apply(Deal())
    won, history = game.won_points, game.history
    assert isinstance(won, tuple) and isinstance(history, tuple) and isinstance(game.events, tuple)
    with pytest.raises(TypeError):
        won[0] = 99  # type: ignore[index]


def test_repr_is_one_short_line_in_every_phase():
    game = Game(9)
    bots = {seat: ComputerPlayer(seat, 9) for seat in range(PLAYERS)}
    seen = {}
    while True:
        text = repr(game)
        assert "\n" not in text and len(text) <= 80, text
        seen.setdefault(game.phase, text)
        if game.phase is Phase.FINISHED:
            break
        game.apply(next_action(game, bots))
    assert set(seen) == set(Phase)
    assert seen[Phase.DEALING] == "Game(seed=9, dealing, 0 of 100 cards dealt)"
    assert seen[Phase.FINISHED].startswith("Game(seed=9, finished, attackers ")


def test_refused_actions_name_their_rule_and_leave_no_trace():
    game = Game(2)
    with pytest.raises(TutorError):
        game.apply(CloseDeal())
    assert game.events == () and game.actor is None
    game.apply(Deal())
    assert len(game.events) == 1 and game.last_event is game.events[-1]
