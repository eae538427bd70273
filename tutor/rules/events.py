"""What happened: the frozen records a hand's accepted actions produce (:data:`Result`),
and the :class:`Event` that holds them. A learner's narration, a replay and the tests read
these; the game (:class:`tutor.rules.game.Game`) is the only one that makes them.

>>> from tutor.rules.actions import Deal
>>> from tutor.rules.notation import parse_cards
>>> Event(0, Deal(), (Dealt(0, parse_cards("♠A")[0]),)).results[0]
Dealt(seat=0, card=Card(Suit.SPADES, 14))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tutor.core.i18n import Text
from tutor.rules.actions import Action
from tutor.rules.bidding import Declaration
from tutor.rules.cards import Card
from tutor.rules.order import Trump
from tutor.rules.reasoned import Reasoned
from tutor.rules.scoring import HandScore, KittyCapture
from tutor.rules.throw import Beaten


@dataclass(frozen=True, slots=True)
class Dealt:
    """A card was dealt to ``seat`` (C2)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Declared:
    """``seat`` showed ``cards`` to declare or overturn (D1–D4); ``count``: the
    declarations so far, this one included (D5)."""

    seat: int
    cards: tuple[Card, ...]
    trump: Trump
    count: int


@dataclass(frozen=True, slots=True)
class Redealt:
    """The kitty was four pairs and nobody declared: the deal is void (D6)."""

    kitty: tuple[Card, ...]
    deal_number: int


@dataclass(frozen=True, slots=True)
class DeclarerChosen:
    """Who declares, the trump, the declaration count, and the flipped card if the kitty decided (D5–D6)."""

    seat: int
    trump: Trump
    declarations: int
    flipped: Card | None


@dataclass(frozen=True, slots=True)
class KittyTaken:
    """The declarer took the kitty into hand (K1)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Buried:
    """The declarer buried these cards (K1)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class FriendCalled:
    """The declarer called ``card`` (F1)."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SoloDeclared:
    """The declarer plays alone (F5); ``automatic``: every card of its hand is paired (F4)."""

    seat: int
    automatic: bool


@dataclass(frozen=True, slots=True)
class ThrowFailed:
    """A failed throw (L4–L5): taken back; the options the thrower must choose from;
    ``reason``: what beat it (:attr:`tutor.rules.throw.ThrowResult.beaten_by`)."""

    seat: int
    attempted: tuple[Card, ...]
    options: tuple[tuple[Card, ...], ...]
    penalty: int
    beaten: tuple[Beaten, ...]
    reason: Text


@dataclass(frozen=True, slots=True)
class Played:
    """``seat`` played ``cards`` to the trick (L1, W1)."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class FriendRevealed:
    """The friend played the called card (F6)."""

    seat: int
    card: Card


class TrickWon(Reasoned):
    """``seat`` won the trick and its ``points`` (B1–B2); ``plays``: (seat, cards) in
    playing order; ``reason``: why that play wins (:func:`tutor.rules.trick.explain_trick`).

    Immutable, compared and hashed by its four fields like a frozen dataclass. The game
    gives the reason as a function that makes it (:meth:`lazy`): it is made the first time
    someone reads it, so a hand nobody reads (a computer players' hand, a replay) makes no
    sentences.

    >>> won = TrickWon.lazy(2, 10, (), lambda: "♠10 wins")
    >>> won.reason, won == TrickWon(2, 10, (), "♠10 wins")
    ('♠10 wins', True)
    """

    __slots__ = ("seat", "points", "plays")
    __match_args__ = ("seat", "points", "plays", "reason")

    seat: int
    points: int
    plays: tuple[tuple[int, tuple[Card, ...]], ...]

    def __init__(self, seat: int, points: int, plays: tuple[tuple[int, tuple[Card, ...]], ...], reason: str) -> None:
        _set = object.__setattr__
        _set(self, "seat", seat)
        _set(self, "points", points)
        _set(self, "plays", plays)
        self._reasoned(reason)

    @classmethod
    def lazy(cls, seat: int, points: int, plays: tuple[tuple[int, tuple[Card, ...]], ...],
             make: Callable[[], str]) -> TrickWon:
        """A trick won whose reason ``make()`` makes when it is first read."""
        won = cls(seat, points, plays, "")
        won._reasoned(None, make)
        return won

    def _fields(self) -> tuple[object, ...]:
        return (self.seat, self.points, self.plays, self.reason)

    def __repr__(self) -> str:
        return f"TrickWon(seat={self.seat!r}, points={self.points!r}, plays={self.plays!r}, reason={self.reason!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (TrickWon, self._fields())


@dataclass(frozen=True, slots=True)
class KittyCaptured:
    """``seat``, an attacker, won the last trick: the attackers add the kitty's points ×
    the multiplier (X2, the ``capture`` :func:`tutor.rules.scoring.kitty_capture` makes).

    >>> captured = KittyCaptured(3, KittyCapture(kitty_points=25, multiplier=4))
    >>> captured.kitty_points, captured.multiplier, captured.points
    (25, 4, 100)
    """

    seat: int
    capture: KittyCapture

    @property
    def kitty_points(self) -> int:
        """The points in the kitty."""
        return self.capture.kitty_points

    @property
    def multiplier(self) -> int:
        """The multiplier of X2, ``2 ** (1 + p)``."""
        return self.capture.multiplier

    @property
    def points(self) -> int:
        """The points the attackers add."""
        return self.capture.points


@dataclass(frozen=True, slots=True)
class HandScored:
    """The hand is over: the attackers' total (S4), the score (S1–S3) and each seat's result."""

    attackers_points: int
    score: HandScore
    results: tuple[int, ...]  # per seat


Result = (Dealt | Declared | Redealt | DeclarerChosen | KittyTaken | Buried | FriendCalled | SoloDeclared
          | ThrowFailed | Played | FriendRevealed | TrickWon | KittyCaptured | HandScored)


@dataclass(frozen=True, slots=True)
class Event:
    """The record of one accepted action: its number, the action, what followed."""

    number: int
    action: Action
    results: tuple[Result, ...]


def standing_declaration(declarations: Sequence[Declared]) -> Declaration | None:
    """The declaration that stands now, with its seat: the last one made (D1, D3, D5),
    or None before anyone declares.

    >>> from tutor.rules.notation import parse_cards
    >>> standing_declaration([Declared(1, parse_cards("♠2"), Trump("♠"), 1), Declared(3, parse_cards("♥2 ♥2"), Trump("♥"), 2)])
    Declaration(cards=parse_cards('♥2 ♥2'), seat=3)
    >>> standing_declaration([]) is None
    True
    """
    last = declarations[-1] if declarations else None
    return Declaration(last.cards, last.seat) if last else None


__all__ = ["Buried", "Dealt", "Declared", "DeclarerChosen", "Event", "FriendCalled", "FriendRevealed",
           "HandScored", "KittyCaptured", "KittyTaken", "Played", "Redealt", "Result", "SoloDeclared",
           "ThrowFailed", "TrickWon", "standing_declaration"]
