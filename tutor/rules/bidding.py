"""Declaring, overturning and the kitty flip (D1–D6).

>>> can_overturn("♦2 ♦2", "♠2"), can_overturn("♣2", "♠2"), can_overturn("SJ SJ", "♠2 ♠2")
(True, False, True)
>>> can_overturn(Declaration("♥2 ♥2", seat=1), Declaration("♥2", seat=1))
False
>>> can_overturn("♥2 ♥2", "♥2")  # D3: only the declarer can hold the pair of the very 2 shown
False
>>> str(kitty_flip("♠3 ♠3 ♥9 ♦K ♦K ♥9 ♣10 SJ"))
'♣10'
>>> kitty_flip("♠3 ♠3 ♥9 ♥9 ♦K ♦K SJ SJ") is None
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tutor.rules.cards import BIG_JOKER, KITTY_SIZE, Card, Suit, format_cards
from tutor.core.errors import CardCountError, TutorError
from tutor.core.i18n import Text
from tutor.rules.notation import CardsLike, parse_cards
from tutor.rules.order import Trump
from tutor.rules.verdict import Verdict, illegal, legal

_PAIR_STRENGTH = {Suit.DIAMONDS: 2, Suit.CLUBS: 3, Suit.HEARTS: 4, Suit.SPADES: 5}


def showable(card: Card) -> bool:
    """True for the cards a declaration shows (D1, D4): the 2s and the jokers.

    >>> [showable(card) for card in parse_cards("♥2 BJ ♥A")]
    [True, True, False]
    """
    return card.rank == 2 or card.suit is None


def declaration_strength(cards: CardsLike) -> int | None:
    """Strength of a declaration (D2): 1 for a single 2, 2–5 for a pair of 2s
    (♦ ♣ ♥ ♠), 6 for 小王对, 7 for 大王对; ``None`` if the cards cannot declare.

    >>> [declaration_strength(c) for c in ("♥2", "♦2♦2", "♠2♠2", "SJ SJ", "BJ BJ", "BJ", "♥2 ♠2", "♥3")]
    [1, 2, 5, 6, 7, None, None, None]
    """
    cards = parse_cards(cards)
    if len(cards) == 1:
        return 1 if cards[0].rank == 2 and cards[0].suit is not None else None
    if len(cards) != 2 or cards[0] is not cards[1]:
        return None
    card = cards[0]
    if card.suit is None:
        return 7 if card.rank == BIG_JOKER else 6
    return _PAIR_STRENGTH[card.suit] if card.rank == 2 else None


@dataclass(frozen=True, slots=True, init=False)
class Declaration:
    """Cards shown to declare or overturn (D1–D4), and optionally the seat showing them.

    >>> Declaration("♠2 ♠2", seat=3).trump, Declaration("BJ BJ").trump
    (Trump('♠'), Trump(None))
    """

    cards: tuple[Card, ...]
    seat: int | None = field(default=None)

    def __init__(self, cards: CardsLike, seat: int | None = None) -> None:
        object.__setattr__(self, "cards", parse_cards(cards))
        object.__setattr__(self, "seat", seat)

    @property
    def strength(self) -> int | None:
        return declaration_strength(self.cards)

    @property
    def trump(self) -> Trump:
        """The trump this declaration makes (D4): the 2's suit, or no-trump for jokers."""
        if self.strength is None:
            if not self.cards:
                raise TutorError(Text("nothing is not a declaration: show a single 2, a pair of 2s, "
                                      "or a pair of jokers (D1, D2)"))
            raise TutorError(Text("{cards} is not a declaration: show a single 2, a pair of 2s, "
                                  "or a pair of jokers (D1, D2)", cards=self.cards))
        return Trump(self.cards[0].suit)

    def __str__(self) -> str:
        return format_cards(self.cards)


def _as_declaration(value: Declaration | CardsLike) -> Declaration:
    return value if isinstance(value, Declaration) else Declaration(value)


def check_declaration(new: Declaration | CardsLike, current: Declaration | CardsLike | None) -> Verdict:
    """May ``new`` declare (``current`` is None) or overturn ``current``? D1–D3.

    >>> check_declaration("♣2", "♠2").reason
    'a single 2 cannot overturn another single 2; you need a pair of 2s or of jokers'
    """
    new, old = _as_declaration(new), None if current is None else _as_declaration(current)
    strength = new.strength
    if strength is None:
        return illegal("D1", Text("{cards} cannot declare: show a single 2, a pair of 2s, or a pair of jokers "
                                  "(D1, D2)", cards=new.cards or ""))
    if old is None:
        return legal(Text("{cards} declares {trump} (D1)", cards=new.cards, trump=str(new.trump)), "D1")
    if new.seat is not None and new.seat == old.seat:
        return illegal("D3", Text("you made the current declaration ({cards}) yourself, and nobody may overturn "
                                  "their own declaration", cards=old.cards))
    old_strength = old.strength
    if old_strength is None:
        raise TutorError(Text("{cards} is not a declaration (D1, D2)", cards=old.cards or ""))
    if _reinforces(new, old):
        return illegal("D3", Text("{new} would turn the single {old} into a pair; the pack has only two {old}, "
                                  "so the pair can only be the declarer's own, and nobody may overturn their "
                                  "own declaration", new=new.cards, old=old.cards[0]))
    if strength <= old_strength:
        if strength == old_strength == 1:
            return illegal("D2", Text("a single 2 cannot overturn another single 2; you need a pair of 2s or "
                                      "of jokers"))
        return illegal("D3", Text("{new} is not stronger than {old}; an overturn must be strictly stronger "
                                  "(single 2 < ♦2 pair < ♣2 pair < ♥2 pair < ♠2 pair < 小王 pair < 大王 pair)",
                                  new=new.cards, old=old.cards))
    return legal(Text("{new} overturns {old} and makes it {trump} (D3)", new=new.cards, old=old.cards,
                      trump=str(new.trump)), "D3")


def _reinforces(new: Declaration, old: Declaration) -> bool:
    """True if ``new`` is the pair of the very 2 that stands as a single in ``old`` (D3)."""
    return len(old.cards) == 1 and len(new.cards) == 2 and new.cards[0] is old.cards[0]


def declaration_options(hand: CardsLike, current: Declaration | CardsLike | None = None, *,
                        seat: int | None = None) -> list[tuple[Card, ...]]:
    """Every declaration or overturn ``hand`` allows now (D1–D3): single 2s, pairs of
    2s and pairs of jokers stronger than ``current``, unless ``seat`` made it.

    >>> [" ".join(map(str, o)) for o in declaration_options("♥2 ♥2 ♠2 SJ ♣5", "♦2 ♦2", seat=1)]
    ['♥2 ♥2']
    >>> [" ".join(map(str, o)) for o in declaration_options("♥2 ♥2 ♠2 ♠2", "♥2")]
    ['♠2 ♠2']
    """
    cards = parse_cards(hand)
    old = None if current is None else _as_declaration(current)
    if old is not None and seat is not None and old.seat == seat:
        return []
    floor = 0 if old is None else (old.strength or 0)
    counts = Counter(cards)
    options: list[tuple[Card, ...]] = []
    for card in sorted(counts, key=lambda c: c.index):
        if not showable(card):
            continue
        shows = ((card,), (card, card)) if counts[card] == 2 else ((card,),)
        for shown in shows:
            strength = declaration_strength(shown)
            if strength is not None and strength > floor and not (old is not None and
                                                                   _reinforces(Declaration(shown), old)):
                options.append(shown)
    return options


def can_overturn(new: Declaration | CardsLike, current: Declaration | CardsLike | None) -> bool:
    """True if ``new`` may declare (``current`` None) or overturn ``current`` (D1–D3)."""
    return check_declaration(new, current).legal


def kitty_flip(kitty: CardsLike) -> Card | None:
    """The card that decides trump when nobody declared (D6): the first kitty card
    whose twin is not also in the kitty; ``None`` if the kitty is four pairs (redeal)."""
    cards = parse_cards(kitty)
    if len(cards) != KITTY_SIZE:
        raise CardCountError(Text("the kitty has {size} cards, not {count} (C2)", size=KITTY_SIZE, count=len(cards)))
    counts = Counter(cards)
    return next((c for c in cards if counts[c] == 1), None)


def flip_trump(card: Card | CardsLike) -> Trump:
    """The trump a flipped card makes (D6): its suit, no-trump for a joker.

    >>> flip_trump("♣10"), flip_trump("SJ")
    (Trump('♣'), Trump(None))
    """
    cards = (card,) if isinstance(card, Card) else parse_cards(card)
    if len(cards) != 1:
        raise CardCountError(Text("the kitty flip turns over one card, not {count} (D6)", count=len(cards)))
    return Trump(cards[0].suit)


