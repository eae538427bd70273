"""Who is the friend? (issue 27, item 7): the coach's estimate of each seat's chance of
holding the other copy of the called card (F2), from the very layouts of the unseen cards
it deals for the position (advice, not a rule): a probability over those layouts, zero
where the rules or the table rule it out (F1, F3, W2), reproducible."""

from __future__ import annotations

import random

import pytest

from tutor.play import coach, simulation
from tutor.play.coach import LAYOUTS, friend_chances, judge
from tutor.play.simulation import shown_voids
from tutor.play.strategy import ComputerPlayer, next_action
from tutor.rules.cards import PLAYERS
from tutor.rules.friend import friend_of
from tutor.rules.game import Game, Phase
from tutor.rules.view import SeatView


def _positions(seeds: range):
    """Every position of level-1 hands while the friend is not revealed, as each seat sees it."""
    for seed in seeds:
        game = Game(seed)
        bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
        while game.phase is not Phase.FINISHED:
            if game.phase is Phase.PLAYING and not game.friend_revealed and not game.view(0).solo:
                yield seed, game
            game.apply(next_action(game, bots))


def _unknown(view: SeatView) -> bool:
    return view.friend is None and view.friend_card is not None and not view.solo


def test_the_chances_sum_to_one_over_the_seats_that_may_hold_it():
    seen = 0
    for seed, game in _positions(range(3)):
        if len(game.history) % 7:
            continue
        for seat in range(PLAYERS):
            view = game.view(seat)
            if not _unknown(view):
                continue
            chances = friend_chances(view, game.rules, seed=seed, layouts=10)
            assert len(chances) == PLAYERS and abs(sum(chances) - 1) < 1e-9
            assert chances[view.declarer] == 0  # F1: the declarer is never its own friend
            assert chances[seat] == 0  # the seat knows it does not hold the card (else it knows it is the friend)
            assert all(c * 10 == round(c * 10) for c in chances)  # a share of the layouts dealt
            seen += 1
    assert seen > 20


def test_a_seat_shown_out_of_the_called_cards_suit_has_no_chance():
    found = 0
    for seed, game in _positions(range(12)):
        for seat in range(PLAYERS):
            view = game.view(seat)
            if not _unknown(view) or view.trump is None:
                continue
            lane = view.trump.lane(view.friend_card)
            void = [s for s, out in shown_voids(view) if out == lane and s not in (seat, view.declarer)]
            if void:
                chances = friend_chances(view, game.rules, seed=seed, layouts=8)
                assert all(chances[s] == 0 for s in void), (chances, void)
                found += 1
        if found >= 3:
            return
    assert found, "no position with a seat shown out of the called card's suit in 12 hands"


def test_the_estimate_is_reproducible_and_from_the_coachs_own_layouts(monkeypatch: pytest.MonkeyPatch):
    seed, game = next((s, g) for s, g in _positions(range(5)) if g.actor is not None
                      and _unknown(g.view(g.actor)) and len(g.tricks) >= 1)
    view = game.view(game.actor)
    chances = friend_chances(view, game.rules, seed=seed)
    assert chances == friend_chances(view, game.rules, seed=seed)
    # The layouts judge() deals for this position, caught as the search deals them.
    dealt: list[simulation.Layout] = []
    deal = simulation.Simulation.deal

    def keep(self: simulation.Simulation, rng: random.Random) -> simulation.Layout:
        layout = deal(self, rng)
        dealt.append(layout)
        return layout

    monkeypatch.setattr(simulation.Simulation, "deal", keep)
    judge(view, game.rules, seed=seed)
    assert len(dealt) == LAYOUTS
    assert view.friend_card is not None and view.declarer is not None
    counts = [0] * PLAYERS
    for layout in dealt:
        friend = friend_of(view.friend_card, view.declarer, layout.hands)
        assert friend is not None
        counts[friend] += 1
    assert chances == tuple(c / LAYOUTS for c in counts)


def test_known_friend_solo_and_the_declarer_asking():
    seen = set()
    for seed in range(40):
        game = Game(seed)
        bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
        while game.phase is not Phase.FINISHED and len(seen) < 3:
            game.apply(next_action(game, bots))
            if game.phase is not Phase.PLAYING:
                continue
            declarer = game.declarer
            assert declarer is not None
            view = game.view(declarer)
            if view.solo:
                assert friend_chances(view, game.rules, seed=seed) == (0.0,) * PLAYERS
                seen.add("solo")
            elif view.friend is not None:  # revealed (F6): the friend for sure
                chances = friend_chances(view, game.rules, seed=seed)
                assert chances[view.friend] == 1 and sum(chances) == 1
                seen.add("known")
            elif "declarer" not in seen:
                chances = friend_chances(view, game.rules, seed=seed, layouts=10)
                assert chances[declarer] == 0 and abs(sum(chances) - 1) < 1e-9
                seen.add("declarer")
        if {"known", "declarer"} <= seen:
            break
    assert {"known", "declarer"} <= seen, seen
    assert friend_chances(Game(1).view(0)) == (0.0,) * PLAYERS  # before the call: nobody


def test_the_friend_knows_it_is_the_friend():
    for seed, game in _positions(range(5)):
        friend = game.friend
        if friend is not None and friend != game.declarer:
            view = game.view(friend)
            assert view.friend == friend
            chances = friend_chances(view, game.rules, seed=seed)
            assert chances[friend] == 1 and sum(chances) == 1
            return
    raise AssertionError("no hand with a friend before the reveal")


def test_bad_arguments_are_refused():
    from tutor.core.errors import TutorError

    with pytest.raises(TutorError):
        friend_chances("view")  # type: ignore[arg-type]
    with pytest.raises(TutorError):
        friend_chances(Game(1).view(0), seed=-1)
    assert coach.friend_chances is friend_chances
