"""The rules module's fast paths decide exactly as its explained paths do.

Positions come from random legal hands (every trick, with the last follow replaced by
random legal alternatives), so every kind of lead, follow, ruff and discard occurs.
"""

from __future__ import annotations

import random

import pytest

from tutor.play.bots import random_action
from tutor.rules.follow import check_follow, is_legal_follow, legal_follows
from tutor.rules.game import Game, Phase
from tutor.rules.trick import explain_trick, trick_winner


def _positions(seeds: range):
    """(hand, lead, plays so far, trump, rules) at every follow of random hands."""
    for seed in seeds:
        game = Game(seed)
        rng = random.Random(seed)
        while game.phase is not Phase.FINISHED:
            if game.phase is Phase.PLAYING and game.trick:
                yield game.hand(game.actor), [cards for _, cards in game.trick], game.trump, game.rules, rng
            game.apply(random_action(game, rng))


@pytest.mark.parametrize("chunk", range(4))
def test_the_fast_trick_winner_is_the_explained_one(chunk):
    checked = 0
    for hand, plays, trump, rules, rng in _positions(range(chunk * 25, chunk * 25 + 25)):
        follows = legal_follows(hand, plays[0], trump, rules=rules)
        for _ in range(4):
            trick = plays + [follows.random(rng)]
            assert trick_winner(trick, trump) == explain_trick(trick, trump).winner, trick
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("chunk", range(4))
def test_the_fast_legality_check_is_the_verdict(chunk):
    checked = 0
    for hand, plays, trump, rules, rng in _positions(range(100 + chunk * 20, 100 + chunk * 20 + 20)):
        lead = plays[0]
        legal = legal_follows(hand, lead, trump, rules=rules)
        candidates = [legal.random(rng), tuple(rng.sample(list(hand), len(lead)))]
        for play in candidates:
            assert is_legal_follow(hand, lead, play, trump, rules=rules) == check_follow(
                hand, lead, play, trump, rules=rules).legal, (hand, lead, play)
            checked += 1
    assert checked > 500
