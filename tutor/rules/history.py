"""A hand's record, searched and replayed: the first event of a kind (when the declarer took
the kitty, when the friend was revealed), the record itself (the kitty taken, the kitty
captured), the trick a play went to, and the hand as it stood before or after an event.
:class:`History` gives :class:`tutor.rules.game.Game` these as methods; the functions work
on any list of events.

A *record* is an event's action (:mod:`tutor.rules.actions`) or one of its results
(:mod:`tutor.rules.events`); an event matches a kind when one of its records is of it.

>>> from tutor.rules.actions import Deal, Play
>>> from tutor.rules.events import Dealt, Played
>>> from tutor.rules.notation import parse_cards
>>> card = parse_cards("♠A")[0]
>>> events = [Event(0, Deal(), (Dealt(0, card),)), Event(1, Play(0, "♠A"), (Played(0, (card,)),))]
>>> first_event(events, Played).number, first_record(events, Dealt, seat=0)
(1, Dealt(seat=0, card=Card(Suit.SPADES, 14)))
>>> first_event(events, Dealt, seat=3)
Traceback (most recent call last):
...
tutor.core.errors.TutorError: this hand's record has no Dealt
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, Self, TypeVar

from tutor.core.arguments import instance
from tutor.core.errors import TutorError
from tutor.core.i18n import Text
from tutor.rules.actions import Action
from tutor.rules.cards import Card, Cards
from tutor.rules.events import Event, Result, TrickWon
from tutor.rules.notation import CardsLike
from tutor.rules.ruleset import Ruleset

Record = Action | Result
"""What an event holds: its action, and the results that followed."""

R = TypeVar("R", bound=Record)


def records(event: Event) -> tuple[Record, ...]:
    """The action of ``event``, then its results.

    >>> from tutor.rules.actions import Deal
    >>> records(Event(0, Deal(), ()))
    (Deal(),)
    """
    return (event.action, *event.results)


def cards_of(record: Record) -> Cards:
    """The cards a record names: a card dealt, called or revealed, the cards declared,
    buried, taken or played (a failed throw: those it tried); none for the others.

    >>> from tutor.rules.events import Played
    >>> from tutor.rules.notation import parse_cards
    >>> cards_of(Played(2, parse_cards("♠A ♠A"))), cards_of(TrickWon(0, 0, (), ""))
    (parse_cards('♠A ♠A'), parse_cards(''))
    """
    card = getattr(record, "card", None)
    if isinstance(card, Card):
        return Cards((card,))
    cards = getattr(record, "cards", None) or getattr(record, "attempted", None)
    return Cards(cards or ())


def matches(record: Record, kind: type[object], seat: int | None = None, card: Card | None = None) -> bool:
    """Whether ``record`` is a ``kind``, of ``seat`` and naming ``card`` when they are given.

    >>> from tutor.rules.events import Played
    >>> from tutor.rules.notation import parse_cards
    >>> played = Played(2, parse_cards("♠A ♠K"))
    >>> matches(played, Played, seat=2, card=parse_cards("♠K")[0]), matches(played, Played, seat=1)
    (True, False)
    """
    return (isinstance(record, kind) and (seat is None or getattr(record, "seat", None) == seat)
            and (card is None or card in cards_of(record)))


def first_event(events: Iterable[Event], kind: type[Record], *, seat: int | None = None, card: Card | None = None,
                start: int = 0) -> Event:
    """The first of ``events``, from number ``start`` on, with a record that is a ``kind``
    (of ``seat``, naming ``card``, when given); refused with :class:`TutorError` if there is none."""
    for event in events:
        if event.number >= start and any(matches(record, kind, seat, card) for record in records(event)):
            return event
    raise _none(kind)


def first_record(events: Iterable[Event], kind: type[R], *, seat: int | None = None, card: Card | None = None,
                 start: int = 0) -> R:
    """The record itself that :func:`first_event` finds: the first ``kind`` (of ``seat``,
    naming ``card``, when given) from event number ``start`` on."""
    for event in events:
        if event.number >= start:
            for record in records(event):
                if matches(record, kind, seat, card):
                    assert isinstance(record, kind)
                    return record
    raise _none(kind)


def trick_of(events: Iterable[Event], event: Event) -> TrickWon:
    """The trick a play went to: the first trick won at or after ``event`` (B1).

    >>> from tutor.rules.actions import Play
    >>> from tutor.rules.events import Played
    >>> from tutor.rules.notation import parse_cards
    >>> won = TrickWon(0, 10, ((0, parse_cards("♠10")),), "♠10 wins")
    >>> played = Event(0, Play(0, "♠10"), (Played(0, parse_cards("♠10")), won))
    >>> trick_of([played], played).points
    10
    """
    return first_record(events, TrickWon, start=event.number)


class Recorded(Protocol):
    """What :class:`History` reads of a hand: its seed, rules and deck, its actions and
    events, and how it is replayed from them (:class:`tutor.rules.game.Game`)."""

    @property
    def seed(self) -> int: ...

    @property
    def rules(self) -> Ruleset: ...

    @property
    def deck(self) -> Cards | None: ...

    @property
    def history(self) -> tuple[Action, ...]: ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    @classmethod
    def replay(cls, seed: int, actions: Iterable[Action], rules: Ruleset = ..., deck: CardsLike | None = None) -> Self:
        ...


H = TypeVar("H", bound=Recorded)


class History:
    """A hand's record, searched and replayed: the methods :class:`tutor.rules.game.Game`
    has from it. The hand itself never changes here; a replay is a new hand.

    >>> from tutor.rules.events import Dealt, KittyTaken
    >>> from tutor.rules.game import Game
    >>> game = Game(5)
    >>> dealt = game.deal_all()
    >>> closed = game.close_deal()
    >>> game.first_event(KittyTaken) == closed, game.first_event(Dealt, seat=4) == dealt[4]
    (True, True)
    >>> taken = game.first_record(KittyTaken)
    >>> taken.seat == game.declarer, len(taken.cards)
    (True, 8)
    >>> game.before(closed).phase, game.after(closed).phase, game.phase
    (<Phase.DEALING: 'dealing'>, <Phase.BURYING: 'burying'>, <Phase.BURYING: 'burying'>)
    """

    __slots__ = ()

    def first_event(self: Recorded, kind: type[Record], *, seat: int | None = None, card: Card | None = None,
                    start: Event | None = None) -> Event:
        """The first event of this hand (from ``start`` on, itself included) whose action
        or one of whose results is a ``kind`` (of ``seat``, naming ``card``, when given:
        :func:`first_event`); refused if there is none yet."""
        events = self.events
        return first_event(events, kind, seat=seat, card=card, start=_number(events, start))

    def first_record(self: Recorded, kind: type[R], *, seat: int | None = None, card: Card | None = None,
                     start: Event | None = None) -> R:
        """The first ``kind`` in this hand's record, an action or a result (from ``start``
        on, of ``seat``, naming ``card``, when given: :func:`first_record`)."""
        events = self.events
        return first_record(events, kind, seat=seat, card=card, start=_number(events, start))

    def trick_of(self: Recorded, event: Event) -> TrickWon:
        """The trick the play of ``event``, one of this hand's, went to (B1): the first trick
        won at or after it (:func:`trick_of`)."""
        events = self.events
        return trick_of(events, events[_number(events, event)])

    def before(self: H, event: Event) -> H:
        """The hand as it stood just before ``event``, one of its own: a new hand replayed
        from the same seed, rules and deck (this one is left as it is)."""
        return type(self).replay(self.seed, self.history[:_number(self.events, event)], self.rules, self.deck)

    def after(self: H, event: Event) -> H:
        """The hand as it stood just after ``event``, one of its own (see :meth:`before`)."""
        return type(self).replay(self.seed, self.history[:_number(self.events, event) + 1], self.rules, self.deck)

    def copy(self: H) -> H:
        """The hand as it stands now, replayed: try an action on the copy, and this one is
        left as it is.

        >>> from tutor.rules.game import Game
        >>> game = Game(3)
        >>> trial = game.copy()
        >>> _ = trial.deal()
        >>> len(trial.history), len(game.history)
        (1, 0)
        """
        return type(self).replay(self.seed, self.history, self.rules, self.deck)


def _number(events: tuple[Event, ...], event: Event | None) -> int:
    """The number of ``event``, one of ``events`` (0 for None); refused if it is not."""
    if event is None:
        return 0
    number = instance(event, Event, "event").number
    if not 0 <= number < len(events) or events[number] != event:
        raise TutorError(Text("event {number} is not one of this hand's events", number=number))
    return number


def _none(kind: type[object]) -> TutorError:
    return TutorError(Text("this hand's record has no {kind}", kind=kind.__name__))


__all__ = ["History", "Record", "Recorded", "cards_of", "first_event", "first_record", "matches", "records",
           "trick_of"]
