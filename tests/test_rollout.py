"""The playouts on small integers (``tutor.play.rollout``) decide as the rules module does.

- ``beats`` on card indices is the rules' :func:`tutor.rules.trick.beats`, for every pair of
  cards under every trump (14,580 pairs);
- a trump's tables are the trump's own (effective suit, order, points; each suit's cards
  in holding order);
- playouts from positions all through the hand, random and greedy, replayed through
  :class:`~tutor.rules.game.Game`: every play is one the game allows (W0–W6, checked by
  :func:`~tutor.rules.follow.check_follow`), every trick goes to the seat the game says
  (else the next lead would come from the wrong seat and be refused), and the hand scores as
  the game scores it. The quick run replays 120 playouts (over 4,000 plays); the slow one
  3,000 (over 100,000 plays).
"""

from __future__ import annotations

import random

import pytest

from tutor.play.rollout import LANES, Tables, beats
from tutor.play.simulation import Layout, Simulation
from tutor.play.strategy import ComputerPlayer, next_action
from tutor.rules.actions import Play
from tutor.rules.cards import DISTINCT_CARDS, PLAYERS
from tutor.rules.game import Game, Phase
from tutor.rules.order import Trump
from tutor.rules.ruleset import Ruleset
from tutor.rules.trick import beats as rules_beats

TRUMPS = [Trump(suit) for suit in ("♠", "♥", "♣", "♦", None)]
VARIANTS = [Ruleset(), Ruleset(kitty_pairs_from="winning-play", penalty_to_declarers=False),
            Ruleset(allow_buried_friend=True, throw_follow_duty="pairs")]


@pytest.mark.parametrize("trump", TRUMPS, ids=str)
def test_beats_on_indices_is_the_rules_beats(trump: Trump) -> None:
    tables = Tables.of(trump)
    for card in DISTINCT_CARDS:
        for winning in DISTINCT_CARDS:
            assert beats(card.index, winning.index, tables.lanes, tables.orders) is \
                rules_beats(card, winning, trump), (str(card), str(winning))


@pytest.mark.parametrize("trump", TRUMPS, ids=str)
def test_the_tables_are_the_trumps(trump: Trump) -> None:
    tables = Tables.of(trump)
    for card in DISTINCT_CARDS:
        i = card.index
        assert tables.lanes[i] == trump.lane(card) and tables.orders[i] == trump.order(card)
        assert tables.points[i] == card.points
        assert tables.costs[i] == (30 if trump.is_trump(card) else 0) + trump.order(card)
    assert sorted(i for lane in tables.ranked for i in lane) == list(range(len(DISTINCT_CARDS)))
    for lane in range(LANES):
        assert [DISTINCT_CARDS[i] for i in tables.ranked[lane]] == \
            list(trump.sorted(c for c in DISTINCT_CARDS if trump.lane(c) == lane))


def _positions(count: int) -> list[tuple[Game, Ruleset]]:
    """Hands of computer players stopped at every stage, some mid-trick."""
    found = []
    for seed in range(count):
        rules = VARIANTS[seed % len(VARIANTS)]
        game = Game(seed, rules)
        bots = {seat: ComputerPlayer(seat, seed, rules) for seat in range(PLAYERS)}
        while game.phase is not Phase.PLAYING:
            game.apply(next_action(game, bots))
        stop = (seed * 7) % 100
        while game.phase is Phase.PLAYING and sum(len(t.plays) for t in game.tricks) + len(game.trick) < stop:
            game.apply(next_action(game, bots))
        if game.phase is Phase.PLAYING:
            found.append((game, rules))
    return found


def _replay(count: int, per_position: int) -> int:
    """Play ``per_position`` playouts from each of ``count`` positions with the cards where
    the game has them (random and greedy in turn), replay each through the game, and
    return how many plays were checked."""
    plays = 0
    for number, (game, rules) in enumerate(_positions(count)):
        simulation = Simulation(game.view(number % PLAYERS), rules)
        layout = simulation.check(Layout(tuple(game.hand(s) for s in range(PLAYERS)), game.kitty))  # type: ignore[arg-type]
        rng = random.Random(number)
        for turn in range(per_position):
            outcome = simulation.playout(layout, rng, policy="greedy" if turn % 2 else "random")
            copy = Game.replay(game.seed, game.history, rules)
            for seat, cards in outcome.plays:
                copy.apply(Play(seat, cards))  # refuses anything illegal, or out of turn
                plays += 1
            assert copy.phase is Phase.FINISHED
            assert (outcome.attackers_points, outcome.results) == (copy.attackers_points(), copy.results)
            assert outcome.trick_winner == copy.tricks[len(game.tricks)].seat
    return plays


def test_playouts_replay_through_the_game() -> None:
    assert _replay(40, 3) > 4_000


@pytest.mark.slow
def test_thousands_of_playouts_replay_through_the_game() -> None:
    assert _replay(500, 6) > 100_000
