"""Trumps and the order of cards (T1–T6).

Every card has an *effective suit* (T3), an :class:`EffectiveSuit`: one of the four
printed suits, or :data:`TRUMP`. Within an effective suit, cards have an *order*
(T4, T5) used to compare them, and a *step* used to decide which pairs are
consecutive (M2). A :class:`Trump` holds all three for every card as tuples indexed
by :attr:`Card.index <tutor.rules.cards.Card.index>` (:attr:`Trump.lanes`,
:attr:`Trump.orders`, :attr:`Trump.steps`): the rules module's fast paths read them.

>>> from tutor.rules.notation import parse_cards
>>> hearts = Trump("♥")
>>> [hearts.suit_name(hearts.lane(c)) for c in parse_cards("♥3 ♠2 ♠3 SJ")]
['trumps', 'trumps', '♠', 'trumps']
>>> sorted(parse_cards("♥A ♣2 ♥2 BJ ♦2"), key=hearts.order, reverse=True) == list(parse_cards("BJ ♥2 ♣2 ♦2 ♥A"))
True
>>> Trump(None).is_trump(parse_cards("♠A")[0]), Trump("h") == hearts
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import IntEnum
from types import MappingProxyType
from typing import Final

from tutor.rules.cards import BIG_JOKER, DISTINCT_CARDS, SUITS, Card, Cards, Suit
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text
from tutor.rules.notation import SUIT_NAMES

class EffectiveSuit(IntEnum):
    """The suit a card counts as in play (T3): a side suit, or the trumps. A number, so
    it indexes tables; the side suits are numbered in the order of :data:`tutor.rules.cards.SUITS`.

    >>> from tutor.rules.notation import parse_cards
    >>> Trump("♥").lane(parse_cards("♠2")[0]), EffectiveSuit.SPADES == 0
    (<EffectiveSuit.TRUMP: 4>, True)
    """

    SPADES = 0
    HEARTS = 1
    CLUBS = 2
    DIAMONDS = 3
    TRUMP = 4


TRUMP: Final = EffectiveSuit.TRUMP
"""The effective suit of trumps; 0–3 are the side suits ♠ ♥ ♣ ♦ (T3)."""

_SIDE_2: Final = 15  # order of a 2 not of the trump suit (T4)
_TRUMP_2: Final = 16
_ORDER_SMALL_JOKER: Final = 17
_ORDER_BIG_JOKER: Final = 18
_TRUMPS_NAME: Final = Text("trumps")


def _not_a_suit(suit: object) -> TutorError:
    return TutorError(Text("{suit} is not a suit: use ♠ ♥ ♣ ♦, S H C D, or None for no-trump (T2)", suit=shown(suit)))


class Trump:
    """The trump of a hand: a suit, or ``None`` for no-trump 无主 (T2).

    Accepts a :class:`Suit`, a suit symbol, letter or Chinese name. There are five
    trumps, each an interned immutable value.

    >>> Trump("S"), Trump("黑桃") is Trump("♠"), Trump(None)
    (Trump('♠'), True, Trump(None))
    """

    __slots__ = ("suit", "lanes", "orders", "steps", "places", "_text")
    suit: Suit | None
    _text: Text
    lanes: tuple[EffectiveSuit, ...]
    """Each card's effective suit, by :attr:`Card.index <tutor.rules.cards.Card.index>` (T3)."""
    orders: tuple[int, ...]
    """Each card's order within its effective suit, by card index; equal numbers tie (T4–T6)."""
    steps: tuple[int | None, ...]
    """Each card's tractor step, by card index (M2): ``None`` for the 2s."""
    places: Mapping[Card, int]
    """Each card's place in holding order (see :meth:`sort_key`): ``sorted(cards,
    key=trump.places.__getitem__)`` is :meth:`sorted`'s order, found faster."""

    def __new__(cls, suit: Suit | str | None) -> Trump:
        if type(suit) is str:
            named = _NAMED.get(suit)
            if named is not None:
                return named
        if isinstance(suit, str):
            key = suit.strip().upper()
            if key not in SUIT_NAMES:
                raise _not_a_suit(suit)
            suit = SUIT_NAMES[key]
        if suit is not None and not isinstance(suit, Suit):
            raise _not_a_suit(suit)
        return _TRUMPS[suit]

    @classmethod
    def _make(cls, suit: Suit | None) -> Trump:
        lanes: list[EffectiveSuit] = []
        orders: list[int] = []
        steps: list[int | None] = []
        for card in DISTINCT_CARDS:
            if card.suit is None:
                lanes.append(TRUMP)
                orders.append(_ORDER_BIG_JOKER if card.rank == BIG_JOKER else _ORDER_SMALL_JOKER)
                steps.append(21 if card.rank == BIG_JOKER else 20)  # 大王对 小王对 is a tractor (M2)
            elif card.rank == 2:
                lanes.append(TRUMP)
                orders.append(_TRUMP_2 if card.suit is suit else _SIDE_2)
                steps.append(None)  # 2s never belong to a tractor (M2)
            else:
                lanes.append(TRUMP if card.suit is suit else EffectiveSuit(SUITS.index(card.suit)))
                orders.append(card.rank)
                steps.append(card.rank)
        trump = object.__new__(cls)
        text = Text("{suit} trumps", suit=suit.value) if suit else Text("no-trump")
        for name, value in (("suit", suit), ("lanes", tuple(lanes)), ("orders", tuple(orders)),
                            ("steps", tuple(steps)), ("_text", text)):
            object.__setattr__(trump, name, value)
        held = sorted(DISTINCT_CARDS, key=trump.sort_key)
        object.__setattr__(trump, "places", MappingProxyType({card: place for place, card in enumerate(held)}))
        return trump

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a trump is immutable")

    def __repr__(self) -> str:
        return f"Trump({self.suit.value!r})" if self.suit else "Trump(None)"

    def __str__(self) -> str:
        """``'♥ trumps'`` or ``'no-trump'``: a :class:`~tutor.core.i18n.Text`, so ``str(trump)``
        passed to a translator is said in its language."""
        return self._text

    def __reduce__(self) -> tuple[type[Trump], tuple[Suit | None]]:
        return (Trump, (self.suit,))

    def lane(self, card: Card) -> EffectiveSuit:
        """The effective suit of ``card`` (T3)."""
        return self.lanes[card.index]

    def is_trump(self, card: Card) -> bool:
        """True if ``card`` is a trump (T2)."""
        return self.lanes[card.index] == TRUMP

    def order(self, card: Card) -> int:
        """How high ``card`` ranks within its effective suit; equal numbers tie (T4–T6)."""
        return self.orders[card.index]

    def step(self, card: Card) -> int | None:
        """Position of ``card`` for tractors: pairs whose steps differ by one are
        consecutive (M2). ``None`` for the 2s, which never join a tractor."""
        return self.steps[card.index]

    def lanes_of(self, cards: Iterable[Card]) -> set[EffectiveSuit]:
        """The effective suits present among ``cards``."""
        lane = self.lanes
        return {lane[c.index] for c in cards}

    @staticmethod
    def suit_name(lane: int) -> str:
        """How a newcomer reads an effective suit: ``'♠'`` … or ``'trumps'`` (a
        :class:`~tutor.core.i18n.Text`, 主牌 in Chinese)."""
        return _TRUMPS_NAME if lane == TRUMP else SUITS[lane].value

    @staticmethod
    def cards_name(lane: int) -> Text:
        """The cards of an effective suit as a newcomer reads them: ``'♠ cards'`` … or
        ``'trump cards'`` (never "trumps cards").

        >>> str(Trump.cards_name(0)), str(Trump.cards_name(TRUMP))
        ('♠ cards', 'trump cards')
        """
        return Text("trump cards") if lane == TRUMP else Text("{suit} cards", suit=SUITS[lane].value)

    def sort_key(self, card: Card) -> tuple[int, int, int]:
        """Key that sorts a hand the way players hold it: trumps first, high to low,
        then each side suit high to low (T4–T5)."""
        lane = self.lanes[card.index]
        return (-1 if lane == TRUMP else lane, -self.orders[card.index], card.index)

    def sorted(self, cards: Iterable[Card]) -> Cards:
        """``cards`` in holding order (see :meth:`sort_key`).

        >>> from tutor.rules.notation import parse_cards
        >>> str(Trump("♥").sorted(parse_cards("♠3 ♥4 ♠A ♣2 BJ ♥2")))
        'BJ ♥2 ♣2 ♥4 ♠A ♠3'
        """
        return Cards(sorted(cards, key=self.places.__getitem__))

    def trumps(self, cards: Iterable[Card] = DISTINCT_CARDS) -> Cards:
        """The trumps among ``cards`` (T2), high to low (T4): by default one copy of each
        trump of the pack.

        >>> str(Trump(None).trumps())
        'BJ SJ ♠2 ♥2 ♣2 ♦2'
        >>> len(Trump("♥").trumps()), str(Trump("♥").trumps(DISTINCT_CARDS[:13]))
        (18, '♠2')
        """
        return self.sorted(card for card in cards if self.lanes[card.index] == TRUMP)


_TRUMPS: Final[dict[Suit | None, Trump]] = {suit: Trump._make(suit) for suit in (*SUITS, None)}
_NAMED: Final[dict[str, Trump]] = {name: _TRUMPS[suit] for key, suit in SUIT_NAMES.items()
                                   for name in (key, key.lower())}
"""Each suit's names as :class:`Trump` reads them, found at once."""


TrumpLike = Trump | Suit | str | None
"""A trump, or anything :class:`Trump` accepts."""


def as_trump(trump: Trump | Suit | str | None) -> Trump:
    """Accept a :class:`Trump` or anything :class:`Trump` accepts."""
    return trump if isinstance(trump, Trump) else Trump(trump)

