"""The actions of a hand (D1–L5): what a seat, or the shuffled pack, may do. Each is a
frozen value; :meth:`tutor.rules.game.Game.apply` verifies one and carries it out, and a
hand replays exactly from its seed and its actions.

>>> Play(2, "♠A ♠A")
Play(seat=2, cards=parse_cards('♠A ♠A'))
>>> Call(5, Play(0, "♠A").cards[0])
Traceback (most recent call last):
...
tutor.core.errors.IllegalActionError: seats are numbered 0–4, not 5 (C4)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tutor.core.arguments import instance
from tutor.core.errors import IllegalActionError, shown
from tutor.core.i18n import Text
from tutor.rules.cards import PLAYERS, Card, Cards
from tutor.rules.notation import to_cards


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the next card (a chance step: the shuffled pack decides which)."""


@dataclass(frozen=True, slots=True)
class Declare:
    """Show cards to declare or overturn (D1–D3)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _read_seat_and_cards(self)


@dataclass(frozen=True, slots=True)
class CloseDeal:
    """End the deal once every card is dealt: the declaration stands, or the kitty is flipped (D5–D6)."""


@dataclass(frozen=True, slots=True)
class Bury:
    """The declarer buries 8 cards as the kitty (K1)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _read_seat_and_cards(self)


@dataclass(frozen=True, slots=True)
class Call:
    """The declarer names the friend card (F1–F3)."""

    seat: int
    card: Card

    def __post_init__(self) -> None:
        check_seat(self.seat)
        instance(self.card, Card, "card")


@dataclass(frozen=True, slots=True)
class Solo:
    """The declarer plays alone against four (F5)."""

    seat: int

    def __post_init__(self) -> None:
        check_seat(self.seat)


@dataclass(frozen=True, slots=True)
class Play:
    """Lead or follow with cards (L1–L5, W0–W6)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _read_seat_and_cards(self)


Action = Deal | Declare | CloseDeal | Bury | Call | Solo | Play
ACTIONS: Final = (Deal, Declare, CloseDeal, Bury, Call, Solo, Play)
"""Every action type, for ``isinstance``."""


def check_seat(seat: object) -> int:
    """``seat`` if it is a seat number (C4: 0–4), else the refusal of an action that names it.

    >>> check_seat(4)
    4
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
        raise IllegalActionError("C4", Text("seats are numbered 0–4, not {seat}", seat=shown(seat)))
    return seat


def _read_seat_and_cards(action: Declare | Bury | Play) -> None:
    """An action's seat is a seat number and its cards are cards (notation text is read)."""
    check_seat(action.seat)
    if type(action.cards) is not Cards:
        object.__setattr__(action, "cards", to_cards(action.cards))


__all__ = ["ACTIONS", "Action", "Bury", "Call", "CloseDeal", "Deal", "Declare", "Play", "Solo", "check_seat"]
