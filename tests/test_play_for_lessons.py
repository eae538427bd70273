"""What lesson 11 asks of tutor.play: the calls worth weighing (search.calls_to_weigh), a hand
played on until a seat's turn (strategy.computer_hand's ``turn``), and the points a seat has
not seen (simulation.unseen_points)."""

from __future__ import annotations

import pytest

from tutor import Phase, TutorError, points
from tutor.play import calls_to_weigh, computer_hand, next_action, unseen_cards, unseen_points


@pytest.mark.parametrize("seed", [4, 7, 11])
def test_the_calls_to_weigh_span_the_declarers_choice(seed: int) -> None:
    game, _ = computer_hand(seed, Phase.CALLING)
    if game.phase is not Phase.CALLING:
        pytest.skip("an automatic solo (F4): nothing to call")
    assert game.declarer is not None and game.trump is not None
    view = game.view(game.declarer)
    calls = calls_to_weigh(view, game.rules)
    nameable = game.nameable_cards()
    order = game.trump.order
    aces = sorted((c for c in nameable if c.rank == 14 and c.suit is not None), key=order)[-2:]
    assert calls == list(dict.fromkeys([*aces, max(nameable, key=order), min(nameable, key=order), None]))
    assert calls[-1] is None and len(set(calls)) == len(calls)
    assert all(card in nameable for card in calls if card is not None)  # F1, F3


def test_the_calls_are_weighed_from_the_declarers_view_only() -> None:
    game, _ = computer_hand(4, Phase.BURYING)
    assert game.declarer is not None
    with pytest.raises(TutorError, match="once the kitty is buried"):
        calls_to_weigh(game.view((game.declarer + 1) % 5))


def test_a_hand_played_on_until_a_seats_turn() -> None:
    game, _ = computer_hand(4, tricks=8, turn=1)
    assert game.actor == 1 and len(game.tricks) >= 8
    by_hand, bots = computer_hand(4, tricks=8)
    while by_hand.actor != 1:
        by_hand.apply(next_action(by_hand, bots))
    assert by_hand.history == game.history
    with pytest.raises(TutorError):
        computer_hand(4, turn=5)


def test_the_points_a_seat_has_not_seen() -> None:
    game, _ = computer_hand(4, tricks=6)
    for seat in range(5):
        view = game.view(seat)
        assert unseen_points(view) == points(list(unseen_cards(view).elements()))
        seen = sum(t.points for t in view.tricks) + points(view.hand) + points(view.kitty or ())
        assert unseen_points(view) == 200 - seen
