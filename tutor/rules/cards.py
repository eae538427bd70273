"""Cards, the two-deck pack and point values (C1–C4).

A :class:`Card` is an interned immutable value: there are 54 of them, and every
card of the 108-card pack is one of those values appearing twice.

>>> from tutor.rules.cards import Card, Suit, PACK
>>> str(Card(Suit.HEARTS, 10)), str(Card(None, BIG_JOKER))
('♥10', 'BJ')
>>> Card(Suit.SPADES, 14) is Card(Suit.SPADES, 14)
True
>>> len(PACK), sum(card.points for card in PACK)
(108, 200)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any, Final

from tutor.core.errors import TutorError, shown
from tutor.core.faces import face, row, style_sheet
from tutor.core.text import Notated, Text


class Suit(Enum):
    """The four printed suits. The order of members is the display order."""

    SPADES = "♠"
    HEARTS = "♥"
    CLUBS = "♣"
    DIAMONDS = "♦"

    def __str__(self) -> str:
        return self.value


SUITS: Final = tuple(Suit)
SMALL_JOKER: Final = 15
BIG_JOKER: Final = 16
RANK_TEXT: Final = {**{r: str(r) for r in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
PLAYERS: Final = 5  # C2
HAND_SIZE: Final = 20  # C2
KITTY_SIZE: Final = 8  # C2


class Card(Notated):
    """One of the 54 distinct cards. ``rank`` is 2–14 (J=11 … A=14) for suited cards,
    15 (small joker 小王) or 16 (big joker 大王) with ``suit`` None.

    Equality is identity (cards are interned), which makes counting cards cheap.

    >>> Card(Suit.SPADES, 12).points, Card(Suit.CLUBS, 13).points, Card(Suit.DIAMONDS, 5).points
    (0, 10, 5)
    """

    __slots__ = ("suit", "rank", "index", "points", "_text")
    suit: Suit | None
    rank: int
    index: int
    points: int
    _text: str

    def __new__(cls, suit: Suit | None, rank: int) -> Card:
        if suit is None:
            if rank not in (SMALL_JOKER, BIG_JOKER):
                raise TutorError(Text("a joker has rank {small} or {big}, not {rank}",
                                      small=SMALL_JOKER, big=BIG_JOKER, rank=shown(rank)))
            return _CARDS[52 + rank - SMALL_JOKER]
        if not isinstance(suit, Suit) or not isinstance(rank, int) or not 2 <= rank <= 14:
            raise TutorError(Text("no such card: suit {suit}, rank {rank}", suit=shown(suit), rank=shown(rank)))
        return _CARDS[SUITS.index(suit) * 13 + rank - 2]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        suit = None if index >= 52 else SUITS[index // 13]
        rank = SMALL_JOKER + index - 52 if index >= 52 else index % 13 + 2
        text = ("SJ" if rank == SMALL_JOKER else "BJ") if suit is None else suit.value + RANK_TEXT[rank]
        points = 5 if rank == 5 else 10 if rank in (10, 13) and suit is not None else 0
        for name, value in (("suit", suit), ("rank", rank), ("index", index), ("points", points), ("_text", text)):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.suit, self.rank))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    @property
    def is_joker(self) -> bool:
        """True for 大王 and 小王."""
        return self.suit is None

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        suit = "None" if self.suit is None else f"Suit.{self.suit.name}"
        return f"Card({suit}, {self.rank})"

    def _repr_html_(self) -> str:
        """The card drawn in a notebook (its screen-reader name in the kernel's language);
        :mod:`tutor.teach.display` draws cards with a trump, hands and tricks."""
        return style_sheet() + row((face(self._text, self.points),))


class Cards(tuple[Card, ...]):
    """A tuple of cards that shows itself as cards in a notebook and as notation text.

    >>> from tutor.rules.notation import parse_cards
    >>> hand = parse_cards("♠AAK")
    >>> str(hand), hand == (Card(Suit.SPADES, 14),) * 2 + (Card(Suit.SPADES, 13),)
    ('♠A ♠A ♠K', True)
    """

    __slots__ = ()

    def __new__(cls, cards: Iterable[Card] = ()) -> Cards:
        try:
            self = super().__new__(cls, cards)
        except TypeError:
            raise _not_cards(cards) from None
        for card in self:
            if type(card) is not Card:
                raise _not_cards(card)
        return self

    def __str__(self) -> str:
        return format_cards(self)

    def __repr__(self) -> str:
        return f"parse_cards({format_cards(self)!r})"

    def _repr_html_(self) -> str:
        """The cards drawn side by side in a notebook, in their order."""
        return style_sheet() + row(face(card._text, card.points) for card in self)


_CARDS: Final[tuple[Card, ...]] = tuple(Card._make(i) for i in range(54))
DISTINCT_CARDS: Final = _CARDS
PACK: Final[tuple[Card, ...]] = tuple(card for card in _CARDS for _ in range(2))  # C1


def points(cards: Iterable[Card]) -> int:
    """Point value of cards (C3): 5s are 5, 10s and Ks are 10 (cards as notation text:
    :func:`tutor.rules.notation.points`, the package's ``tutor.points``).

    >>> from tutor.rules.notation import parse_cards
    >>> points(parse_cards("♠5 ♥10 ♣K ♦A BJ"))
    25
    """
    if isinstance(cards, str):
        raise TutorError(Text("the cards module counts the points of cards, not of text like {value}; "
                              "tutor.points reads text too", value=shown(cards)))
    try:
        return sum(card.points for card in cards)
    except (AttributeError, TypeError):
        raise _not_cards(cards) from None


def _not_cards(value: object) -> TutorError:
    return TutorError(Text("expected cards as text or a sequence of cards, got {value}", value=shown(value)))


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in canonical text, space separated: ``♠A ♠A ♥10``."""
    return " ".join(card._text for card in cards)
