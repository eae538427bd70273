"""Searching a hand's record (tutor/rules/history.py and the Game methods that ask it): the
first event and record of a kind, the trick a play went to, the hand as it stood before or
after an event, and the deal driven to a holding (C2)."""

from __future__ import annotations

from collections import Counter

import pytest

from tutor import Bury, Call, CloseDeal, Deal, Game, Phase, Play, TutorError, parse_cards, play_random_hand
from tutor.rules.events import Dealt, Event, FriendRevealed, KittyCaptured, KittyTaken, Played, TrickWon
from tutor.rules.history import cards_of, first_event, first_record, matches, records, trick_of


@pytest.fixture(scope="module")
def hand() -> Game:
    return play_random_hand(4)


def by_hand(events: tuple[Event, ...], test: object) -> Event:
    """The first event ``test`` accepts, found by hand: what the search must agree with."""
    return next(event for event in events if test(event))  # type: ignore[operator]


def test_the_first_event_of_a_kind_is_the_one_found_by_hand(hand: Game) -> None:
    events = hand.events
    assert hand.first_event(CloseDeal) == by_hand(events, lambda e: isinstance(e.action, CloseDeal))
    assert hand.first_event(KittyTaken) == by_hand(events, lambda e: any(isinstance(r, KittyTaken) for r in e.results))
    assert hand.first_event(Bury) == by_hand(events, lambda e: isinstance(e.action, Bury))
    assert hand.first_event(FriendRevealed).number == by_hand(
        events, lambda e: any(isinstance(r, FriendRevealed) for r in e.results)).number


def test_a_search_by_seat_and_card(hand: Game) -> None:
    declarer, called = hand.declarer, hand.friend_card
    assert declarer is not None and called is not None
    own = hand.first_event(Play, seat=declarer, card=called)  # F6: the declarer's own copy reveals nothing
    assert own == by_hand(hand.events, lambda e: isinstance(e.action, Play) and e.action.seat == declarer
                          and called in e.action.cards)
    assert not any(isinstance(r, FriendRevealed) for r in own.results)
    revealed = hand.first_record(FriendRevealed)
    assert revealed.seat == hand.friend and revealed.card == called
    assert hand.first_event(Played, seat=hand.friend, card=called) == hand.first_event(FriendRevealed)


def test_a_search_from_an_event_on(hand: Game) -> None:
    first = hand.first_event(Played)
    second = hand.first_event(Played, start=hand.events[first.number + 1])
    assert second.number > first.number
    assert hand.first_event(Played, start=first) == first  # the event itself is included


def test_the_trick_a_play_went_to(hand: Game) -> None:
    for event in hand.events:
        if isinstance(event.action, Play) and any(isinstance(r, Played) for r in event.results):
            won = hand.trick_of(event)
            assert any(seat == event.action.seat for seat, _ in won.plays)
            assert won in hand.tricks
    last = hand.events[-1]
    assert hand.trick_of(last) == hand.tricks[-1]


def test_the_record_itself(hand: Game) -> None:
    assert hand.first_record(KittyTaken).cards == next(r.cards for e in hand.events for r in e.results
                                                      if isinstance(r, KittyTaken))
    captured = play_random_hand(158)
    capture = captured.first_record(KittyCaptured)
    assert capture.points == captured.kitty_capture == capture.kitty_points * capture.multiplier
    assert isinstance(hand.first_record(Call), Call) and hand.first_record(Call).seat == hand.declarer


def test_nothing_found_is_a_clear_refusal() -> None:
    game = Game(3)
    with pytest.raises(TutorError, match="no KittyTaken"):
        game.first_event(KittyTaken)
    with pytest.raises(TutorError, match="no TrickWon"):
        game.first_record(TrickWon)


def test_before_and_after_an_event_are_replays(hand: Game) -> None:
    called = hand.first_event(Call)
    before, after = hand.before(called), hand.after(called)
    assert before.history == hand.history[:called.number] and after.history == hand.history[:called.number + 1]
    assert before.phase is Phase.CALLING and after.phase is Phase.PLAYING and after.friend_card == hand.friend_card
    assert hand.phase is Phase.FINISHED  # the hand itself is left as it is
    assert before.declarer is not None
    before.go_solo(before.declarer)  # a replay of its own: trying on it changes nothing here
    assert hand.solo is False and hand.first_event(Call) == called


def test_an_event_of_another_hand_is_refused(hand: Game) -> None:
    other = play_random_hand(5)
    with pytest.raises(TutorError, match="not one of this hand's events"):
        hand.after(other.events[-1])
    with pytest.raises(TutorError, match="not one of this hand's events"):
        Game(4).before(hand.events[0])
    with pytest.raises(TutorError):
        hand.before("3")  # type: ignore[arg-type]


def test_a_copy_keeps_the_deck_and_the_rules() -> None:
    deck = list(play_random_hand(1).first_deal)
    game = Game(0, deck=deck)
    game.deal()
    trial = game.copy()
    assert trial.first_deal == game.first_deal and trial.history == game.history and trial.rules == game.rules
    trial.deal()
    assert len(trial.history) == len(game.history) + 1


# ------------------------------------------------------------------- C2: the deal driven


def test_deal_all_deals_every_card_then_nothing() -> None:
    game = Game(1)
    events = game.deal_all()
    assert len(events) == 100 and all(isinstance(e.action, Deal) for e in events) and game.all_dealt
    assert [len(game.hand(seat)) for seat in range(5)] == [20] * 5 and len(game.kitty) == 8
    assert game.deal_all() == [] and game.phase is Phase.DEALING  # closing the deal is the declarer's step


def test_deal_until_stops_at_the_card_that_completes_the_holding() -> None:
    game = Game(159)
    wanted = Counter(parse_cards("♣2 ♣2"))
    events = game.deal_until(2, "♣2 ♣2")
    assert not wanted - Counter(game.hand(2))
    last = events[-1].results[0]
    assert isinstance(last, Dealt) and last.seat == 2 and str(last.card) == "♣2"  # the last deal completes it
    assert game.deal_until(2, "♣2") == []  # held already: nothing dealt


def test_deal_until_refuses_what_will_not_come_and_deals_nothing() -> None:
    game = Game(159)
    never = next(text for text in ("BJ BJ", "SJ SJ", "♠A ♠A", "♥A ♥A") if _never_dealt(text))
    with pytest.raises(TutorError, match="will not be dealt"):
        game.deal_until(2, never)
    assert game.history == ()
    game.deal_all()
    game.close_deal()
    with pytest.raises(TutorError, match="will not be dealt"):
        game.deal_until(0, "BJ BJ SJ SJ")


def _never_dealt(text: str) -> bool:
    game = Game(159)
    game.deal_all()
    return bool(Counter(parse_cards(text)) - Counter(game.hand(2)))


# ------------------------------------------------------------------- the module's functions


def test_the_records_of_an_event_and_their_cards(hand: Game) -> None:
    event = hand.first_event(KittyTaken)
    assert records(event) == (event.action, *event.results)
    taken = hand.first_record(KittyTaken)
    assert cards_of(taken) == taken.cards and cards_of(hand.first_record(Call)) == (hand.friend_card,)
    assert cards_of(CloseDeal()) == ()
    assert matches(taken, KittyTaken, seat=hand.declarer) and not matches(taken, KittyTaken, seat=(taken.seat + 1) % 5)
    assert first_event(hand.events, KittyTaken) == event and first_record(hand.events, KittyTaken) == taken
    played = hand.first_event(Played)
    assert trick_of(hand.events, played) == hand.trick_of(played)
