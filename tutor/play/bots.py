"""A random legal player, and complete hands played by it from a seed.

>>> game = play_random_hand(11)
>>> game.phase.value, sum(game.results)
('finished', 0)
"""

from __future__ import annotations

import random

from tutor.rules.actions import Action, Bury, Call, CloseDeal, Deal, Declare, Play, Solo
from tutor.rules.cards import KITTY_SIZE, Card
from tutor.rules.combos import pair_runs
from tutor.rules.events import Dealt, Declared
from tutor.rules.follow import legal_follows
from tutor.rules.game import Game
from tutor.rules.phase import Phase
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset


def random_lead(hand: list[Card] | tuple[Card, ...], game: Game, rng: random.Random) -> tuple[Card, ...]:
    """A random lead (L1): a single, a pair, a tractor, or now and then a throw."""
    trump = game.trump
    assert trump is not None
    card = rng.choice(hand)
    lane = trump.lane(card)
    suit = [c for c in hand if trump.lane(c) == lane]
    roll = rng.random()
    if roll < 0.12 and len(suit) > 2:
        return tuple(rng.sample(suit, rng.randint(2, min(6, len(suit)))))
    runs = [run for run in pair_runs(suit, trump) if card in run]
    if runs and roll < 0.7:
        run = runs[0]
        if len(run) > 1 and rng.random() < 0.6:
            return tuple(c for c in run for _ in range(2))
        return (card, card)
    return (card,)


def random_action(game: Game, rng: random.Random) -> Action:
    """A random legal action: a declaration now and then, else the pack's step while
    dealing; the actor's move after.

    >>> game = Game(4)
    >>> random_action(game, random.Random(0))
    Deal()
    """
    seat = game.actor
    if seat is None:
        last = game.last_event
        if last is not None and rng.random() < 0.3:
            recent = last.results[-1]  # the seat just dealt to, or the last to declare
            if isinstance(recent, (Dealt, Declared)):
                options = game.declaration_options(recent.seat)
                if options:
                    return Declare(recent.seat, rng.choice(options))
        return CloseDeal() if game.all_dealt else Deal()
    if game.phase is Phase.BURYING:
        return Bury(seat, tuple(rng.sample(list(game.hand(seat)), KITTY_SIZE)))
    if game.phase is Phase.CALLING:
        if rng.random() < 0.05:
            return Solo(seat)
        return Call(seat, rng.choice(game.nameable_cards()))
    trump = game.trump
    assert trump is not None
    hand = game.hand(seat)
    if game.forced_options:
        return Play(seat, rng.choice(game.forced_options))
    if not game.trick:
        return Play(seat, random_lead(hand, game, rng))
    return Play(seat, legal_follows(hand, game.trick[0][1], trump, rules=game.rules).random(rng))


def play_random_hand(seed: int, *, rules: Ruleset = DEFAULT_RULES) -> Game:
    """A complete hand from deal to score, every action chosen by the random legal
    player; the same seed gives the same hand."""
    game = Game(seed, rules)
    rng = random.Random(f"player-{seed}")
    while game.phase is not Phase.FINISHED:
        game.apply(random_action(game, rng))
    return game


