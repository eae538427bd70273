"""The computer players over thousands of seeded hands: every action they take is
accepted by the game, every hand scores to zero, the same seed plays the same hand, and
they beat random legal players by a clear margin at mixed tables."""

from __future__ import annotations

import random
import statistics
import time

import pytest

from tutor.play.bots import random_action
from tutor.rules.cards import PLAYERS
from tutor.core.errors import IllegalActionError
from tutor.rules.game import Action, Declare, Game, Phase
from tutor.play.strategy import ComputerPlayer, next_action, play_computer_hand

BOT_HANDS = 1500
"""Bots-only hands (≈20 ms each)."""
MIXED_HANDS = 200
"""Mixed tables: computer players and random legal players (≈45 ms each)."""
MARGIN = 2.0
"""Mean result per seat-hand, computer seat minus random seat; measured ≈5.5."""


def _bots_only(seed: int) -> Game:
    """A bots-only hand where every action must be accepted (an illegal one fails the test)."""
    game = Game(seed)
    bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
    while game.phase is not Phase.FINISHED:
        action = next_action(game, bots)
        try:
            game.apply(action)
        except IllegalActionError as error:  # pragma: no cover - the failure message
            pytest.fail(f"seed {seed}: the computer player's {action!r} was refused: {error}")
        assert len(game.history) < 2000, f"seed {seed}: the hand does not end"
    return game


def test_thousands_of_bot_hands_are_legal_zero_sum_and_deterministic() -> None:
    started = time.perf_counter()
    redeals = solos = captures = 0
    histories = {}
    for seed in range(BOT_HANDS):
        game = _bots_only(seed)
        assert game.results is not None and sum(game.results) == 0, seed
        assert game.score is not None and game.score.points == game.attackers_points()
        redeals += game.deal_number > 0
        solos += game.solo
        captures += game.kitty_capture > 0
        if seed % 20 == 0:
            histories[seed] = (tuple(game.history), game.results)
    for seed, (history, results) in histories.items():  # same seed, same hand
        again = play_computer_hand(seed)
        assert (tuple(again.history), again.results) == (history, results), seed
        assert Game.replay(seed, history).events == again.events
    elapsed = time.perf_counter() - started
    print(f"\n{BOT_HANDS} bot hands in {elapsed:.1f} s ({1000 * elapsed / BOT_HANDS:.1f} ms each): "
          f"{redeals} redeals, {solos} solos, {captures} kitty captures")


def _mixed_hand(seed: int, bot_seats: set[int]) -> Game:
    """Computer players in ``bot_seats``, random legal players (tutor.play.bots) elsewhere."""
    game = Game(seed)
    bots = {seat: ComputerPlayer(seat, seed) for seat in bot_seats}
    rng = random.Random(f"mixed-{seed}")
    while game.phase is not Phase.FINISHED:
        action: Action | None = None
        if game.phase is Phase.DEALING:
            last = game.events[-1].results[-1] if game.events else None
            seat = getattr(last, "seat", None)
            if seat is not None and seat not in bots and rng.random() < 0.3:
                options = game.declaration_options(seat)
                if options:
                    action = Declare(seat, rng.choice(options))
            if action is None:
                action = next_action(game, bots)
        else:
            actor = game.declarer if game.phase in (Phase.BURYING, Phase.CALLING) else game.to_play
            assert actor is not None
            action = bots[actor].act(game.view(actor)) if actor in bots else random_action(game, rng)
        assert action is not None
        game.apply(action)
    return game


def test_computer_players_beat_random_players() -> None:
    bot_results: list[int] = []
    random_results: list[int] = []
    for i in range(MIXED_HANDS):
        # Two or three computer seats, rotating, so every seat and role is played by both.
        seats = {i % 5, (i + 2) % 5} if i % 2 else {i % 5, (i + 1) % 5, (i + 3) % 5}
        game = _mixed_hand(100_000 + i, seats)
        assert game.results is not None and sum(game.results) == 0
        for seat in range(PLAYERS):
            (bot_results if seat in seats else random_results).append(game.results[seat])
    bots, randoms = statistics.mean(bot_results), statistics.mean(random_results)
    spread = statistics.stdev(bot_results + random_results)
    print(f"\nmixed tables, {MIXED_HANDS} hands: computer seat {bots:+.2f} vs random seat {randoms:+.2f} "
          f"per seat-hand (difference {bots - randoms:.2f}, result spread {spread:.1f})")
    assert bots - randoms > MARGIN


def _digest(games) -> str:
    import hashlib

    h = hashlib.sha256()
    for game in games:
        h.update(repr([(type(a).__name__, getattr(a, "seat", None), str(getattr(a, "cards", getattr(a, "card", ""))))
                       for a in game.history]).encode())
        h.update(repr(game.results).encode())
    return h.hexdigest()[:16]


def test_the_players_play_exactly_as_before_the_turn_api():
    """Pinned from the code before the turn API and the faster engine (8848c79): the same
    seeds give the very same hands, action for action, so the computer player (level 1)
    and the random player are unchanged by being made faster."""
    from tutor.play.bots import play_random_hand
    from tutor.rules.ruleset import Ruleset

    assert _digest(play_computer_hand(s) for s in range(25)) == "5095b6f8e8d4b1f2"
    variant = Ruleset(declare_after_deal=False, kitty_pairs_from="winning-play")
    assert _digest(play_computer_hand(s, rules=variant) for s in range(10)) == "e29706530aa5c5d2"
    assert _digest(play_random_hand(s) for s in range(25)) == "ed37dde475bfa130"


def test_beating_the_winner_so_far_is_winning_the_trick():
    """The computer player asks whether a follow beats the play winning so far (with the
    lead); that is the same as winning the whole trick so far (W5, T6): checked on every
    legal follow of many positions of random hands."""
    from itertools import islice

    from tutor.rules.follow import legal_follows
    from tutor.rules.trick import trick_winner

    checked = 0
    for seed in range(40):
        game = Game(seed)
        rng = random.Random(seed)
        while game.phase is not Phase.FINISHED:
            if game.phase is Phase.PLAYING and len(game.trick) >= 2:
                plays = [cards for _, cards in game.trick]
                current = trick_winner(plays, game.trump)
                contest = [plays[0]] if current == 0 else [plays[0], plays[current]]
                hand = game.hand(game.actor)
                for play in islice(legal_follows(hand, plays[0], game.trump), 60):
                    whole = trick_winner(plays + [play], game.trump) == len(plays)
                    assert whole == (trick_winner(contest + [play], game.trump) == len(contest)), (plays, play)
                    checked += 1
            game.apply(random_action(game, rng))
    assert checked > 5000
