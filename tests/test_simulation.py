"""tutor.play.simulation: playouts keep the rules exactly, layouts fit what the seat has seen.

Every playout from a real position is replayed through tutor.rules.game.Game, which refuses
any illegal play, scores the hand itself, and must agree with the playout's score.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tutor.play.bots import random_action
from tutor.rules.cards import PACK, PLAYERS
from tutor.core.errors import TutorError
from tutor.rules.game import Game, Phase, Play
from tutor.rules.order import TRUMP
from tutor.rules.ruleset import Ruleset
from tutor.play.simulation import Layout, Simulation, shown_voids, unseen_cards
from tutor.play.strategy import ComputerPlayer, next_action

VARIANTS = [Ruleset(), Ruleset(kitty_pairs_from="winning-play", penalty_to_declarers=False),
            Ruleset(allow_buried_friend=True, throw_follow_duty="pairs")]


def _position(seed: int, tricks: int, rules: Ruleset = Ruleset()) -> Game:
    """A hand of computer players stopped after ``tricks`` tricks (and a part of the next)."""
    game = Game(seed, rules)
    bots = {seat: ComputerPlayer(seat, seed, rules) for seat in range(PLAYERS)}
    rng = random.Random(seed)
    while game.phase is not Phase.PLAYING:
        game.apply(next_action(game, bots))
    stop = tricks * PLAYERS + rng.randrange(PLAYERS)
    while game.phase is Phase.PLAYING and sum(len(t.plays) for t in game.tricks) + len(game.trick) < stop:
        game.apply(next_action(game, bots) if rng.random() < 0.7 else random_action(game, rng))
    return game


def _true_layout(game: Game) -> Layout:
    return Layout(tuple(game.hand(s) for s in range(PLAYERS)), game.kitty)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(40))
def test_a_playout_is_a_legal_hand_scored_as_the_game_scores_it(seed):
    rules = VARIANTS[seed % len(VARIANTS)]
    game = _position(seed, seed % 18, rules)
    if game.phase is not Phase.PLAYING:
        pytest.skip("the hand ended before the position")
    viewer = seed % PLAYERS
    simulation = Simulation(game.view(viewer), rules)
    rng = random.Random(seed)
    for policy in ("random", "greedy", "random", "greedy"):
        outcome = simulation.playout(simulation.check(_true_layout(game)), rng, policy=policy)
        copy = Game.replay(game.seed, game.history, rules)
        for seat, cards in outcome.plays:
            copy.apply(Play(seat, cards))  # refuses anything illegal
        assert copy.phase is Phase.FINISHED
        assert outcome.attackers_points == copy.attackers_points()
        assert outcome.results == copy.results
        assert outcome.declarer == copy.declarer and outcome.friend == copy.friend
        first_trick = copy.tricks[len(game.tricks)]
        assert outcome.trick_winner == first_trick.seat


@pytest.mark.parametrize("seed", range(30))
def test_random_layouts_fit_the_view(seed):
    game = _position(seed, 3 + seed % 12)
    if game.phase is not Phase.PLAYING:
        pytest.skip("the hand ended before the position")
    viewer = (seed * 3) % PLAYERS
    view = game.view(viewer)
    simulation = Simulation(view, game.rules)
    voids = shown_voids(view)
    truth = {(s, game.trump.lane(c)) for s in range(PLAYERS) for c in game.hand(s)}
    assert not voids & truth, "a shown void is a real void"
    rng = random.Random(seed)
    for _ in range(5):
        layout = simulation.check(simulation.deal(rng))
        assert layout.hands[viewer] == view.hand
        for seat, hand in enumerate(layout.hands):
            assert len(hand) == view.hand_sizes[seat]
            assert not {(seat, game.trump.lane(c)) for c in hand} & voids
        if view.kitty is not None:
            assert layout.kitty == view.kitty
        if view.friend is None and not view.solo and view.declarer != viewer and view.friend_card is not None:
            played_by_declarer = any(view.friend_card in cards and s == view.declarer
                                     for t in view.tricks for s, cards in t.plays)
            holds = layout.hands[view.declarer].count(view.friend_card)
            assert holds == (0 if played_by_declarer else 1) or view.friend_card in \
                [c for _, cards in view.trick for c in cards]
        outcome = simulation.playout(layout, rng)
        assert sum(outcome.results) == 0


@pytest.mark.parametrize(("seed", "actions"), [(197, 157), (240, 158)])
def test_a_tight_position_still_gets_its_layouts(seed, actions):
    """Late in these hands the shown voids leave few layouts: a random fill almost never
    finds one (the simulation used to give up), the careful fill always does."""
    game = Game(seed)
    bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
    while len(game.history) < actions:
        game.apply(next_action(game, bots))
    view = game.view(game.actor)
    simulation = Simulation(view, game.rules)
    voids = shown_voids(view)
    rng = random.Random(0)
    for _ in range(20):
        layout = simulation.check(simulation.deal(rng))
        for seat, hand in enumerate(layout.hands):
            assert not {(seat, game.trump.lane(c)) for c in hand} & voids


def test_a_layout_never_shows_another_seats_cards_it_cannot_know():
    game = _position(2, 5)
    view = game.view(1)
    simulation = Simulation(view, game.rules)
    rng = random.Random(0)
    layouts = [simulation.deal(rng) for _ in range(30)]
    others = [s for s in range(PLAYERS) if s != 1]
    assert any(layout.hands[s] != game.hand(s) for layout in layouts for s in others), "the layouts vary"
    pool = Counter(unseen_cards(view))
    for layout in layouts:
        placed = Counter(layout.kitty)
        for s in others:
            placed.update(layout.hands[s])
        assert placed == pool


def test_a_first_play_is_checked_by_the_rules_and_played_first():
    game = _position(6, 4)
    while game.trick:
        game.apply(next_action(game, {s: ComputerPlayer(s, 6) for s in range(PLAYERS)}))
    seat = game.actor
    simulation = Simulation(game.view(seat), game.rules)
    rng = random.Random(3)
    layout = simulation.check(_true_layout(game))
    card = game.hand(seat)[-1]
    outcome = simulation.playout(layout, rng, first=(card,))
    assert outcome.plays[0] == (seat, (card,))
    foreign = next(c for c in game.hand((seat + 1) % PLAYERS) if c not in game.hand(seat))
    with pytest.raises(TutorError, match="not in your hand"):
        simulation.playout(layout, rng, first=(foreign,))
    with pytest.raises(TutorError):
        simulation.playout(layout, rng, first=())


@pytest.mark.parametrize("bad", [
    lambda game: Layout(tuple(game.hand(s) for s in range(4)), game.kitty),
    lambda game: Layout(tuple(game.hand((s + 1) % PLAYERS) for s in range(PLAYERS)), game.kitty),
    lambda game: Layout(tuple(game.hand(s)[1:] if s == 3 else game.hand(s) for s in range(PLAYERS)), game.kitty),
    lambda game: "not a layout",
])
def test_a_layout_that_does_not_fit_is_refused_clearly(bad):
    game = _position(8, 2)
    simulation = Simulation(game.view(0), game.rules)
    with pytest.raises(TutorError):
        simulation.check(bad(game))


def test_a_simulation_starts_only_while_the_tricks_are_played():
    with pytest.raises(TutorError, match="tricks are played"):
        Simulation(Game(1).view(0))
    with pytest.raises(TutorError):
        Simulation("seat 0")  # type: ignore[arg-type]


def _unbeatable(lead, seat, layout, trump):
    """True if no other hand of ``layout`` can beat ``lead`` (a single, or a pair) (B1, R1):
    nobody holds a higher card of its suit (a higher pair, for a pair), and nobody who is
    out of its side suit holds a trump."""
    card = lead[0]
    lane, order = trump.lane(card), trump.order(card)
    for other, hand in enumerate(layout.hands):
        if other == seat:
            continue
        suit = [c for c in hand if trump.lane(c) == lane]
        higher = [c for c in suit if trump.order(c) > order]
        if any(suit.count(c) == 2 for c in higher) if len(lead) == 2 else higher:
            return False
        if not suit and trump.lane(card) != TRUMP and any(trump.is_trump(c) for c in hand):
            return False
    return True


@pytest.mark.parametrize("seed", range(6))
def test_a_greedy_playout_leads_what_nobody_can_beat(seed):
    """Seeing every card, a greedy seat leads a card nobody can beat when it has one
    (all but the one play in ten that is random); a random seat rarely does."""
    game = Game(seed)
    bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
    while game.phase is not Phase.PLAYING:
        game.apply(next_action(game, bots))
    view = game.view(game.actor)
    simulation = Simulation(view, game.rules)
    layout = simulation.check(_true_layout(game))
    if not any(_unbeatable((c,), view.seat, layout, game.trump) for c in view.hand):
        pytest.skip("the leader holds no card that nobody can beat")

    def share(policy):
        leads = [simulation.playout(layout, random.Random(n), policy=policy).plays[0][1] for n in range(100)]
        return sum(_unbeatable(lead, view.seat, layout, game.trump) for lead in leads) / len(leads)

    assert share("greedy") >= 0.85 > share("random")


def test_a_playout_policy_is_checked():
    game = _position(3, 0)
    simulation = Simulation(game.view(game.actor), game.rules)
    with pytest.raises(TutorError, match="policy"):
        simulation.playout(simulation.deal(random.Random(0)), random.Random(0), policy="clever")


def _dealing(seed: int, cards: int) -> Game:
    """A deal of level-1 players (their declarations too) stopped after ``cards`` cards."""
    game = Game(seed)
    bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
    while game.phase is Phase.DEALING and sum(len(game.hand(s)) for s in range(PLAYERS)) < cards:
        game.apply(next_action(game, bots))
    return game


@pytest.mark.parametrize("seed", range(12))
def test_a_completed_deal_fits_what_the_seat_has_seen(seed):
    """While dealing (D1) a seat sees its own cards and the 2s and jokers others declared:
    a completed deal deals it exactly its own cards, each declarer its declared cards,
    and the rest of the pack at random; replayed, it gives the seat the same view."""
    from tutor.rules.game import Deal, Declare
    from tutor.play.simulation import complete_deal

    game = _dealing(seed, 20 + 7 * seed)
    if game.phase is not Phase.DEALING:
        pytest.skip("the deal closed before the position")
    viewer = seed % PLAYERS
    view = game.view(viewer)
    dealt = sum(view.hand_sizes)
    rng = random.Random(seed)
    decks = [complete_deal(view, rng) for _ in range(20)]
    for deck in decks:
        assert Counter(deck) == Counter(PACK)
        assert Counter(deck[viewer:dealt:PLAYERS]) == Counter(view.hand)
        for declared in view.declarations:
            assert not Counter(declared.cards) - Counter(deck[declared.seat:dealt:PLAYERS])
        copy = Game(0, game.rules, deck=deck)
        for _ in range(dealt):
            copy.apply(Deal())
        for declared in view.declarations:
            copy.apply(Declare(declared.seat, declared.cards))
        assert copy.view(viewer) == view
    others = [s for s in range(PLAYERS) if s != viewer]
    assert len({tuple(deck[s] for s in others) for deck in decks}) > 1, "the hidden cards are random"


def test_a_deal_is_completed_only_while_dealing():
    from tutor.play.simulation import complete_deal

    with pytest.raises(TutorError, match="while the cards are dealt"):
        complete_deal(_position(1, 0).view(0), random.Random(0))
    for bad in ("view", None, 3):
        with pytest.raises(TutorError, match="a seat's view"):
            complete_deal(bad, random.Random(0))  # type: ignore[arg-type]
