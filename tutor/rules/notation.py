"""Reading and writing card notation (N1–N3).

>>> [str(c) for c in parse_cards("♠AAK55 ♥1010 SJ 大王")]
['♠A', '♠A', '♠K', '♠5', '♠5', '♥10', '♥10', 'SJ', 'BJ']
>>> [str(c) for c in parse_cards("HT, 红桃Q SQJ ♥7♥7")]
['♥10', '♥Q', '♠Q', '♠J', '♥7', '♥7']
>>> parse_cards("♠AX")
Traceback (most recent call last):
...
tutor.core.errors.NotationError: cannot read '♠AX' at offset 0: 'X' is not a rank (ranks are 2–10, J, Q, K, A; T for 10) (N1)

Cards write themselves in canonical notation (N3), one card a word:

>>> str(parse_cards("hq s10 bj"))
'♥Q ♠10 BJ'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final, NoReturn, TypeAlias

from tutor.rules.cards import BIG_JOKER, DISTINCT_CARDS, PACK, SMALL_JOKER, Card, Cards, Suit
from tutor.rules.cards import points as card_points
from tutor.core.errors import CardCountError, NotationError, shown
from tutor.core.i18n import Text

CardsLike: TypeAlias = str | Iterable[Card]
"""Cards as notation text or as any iterable of :class:`Card`."""

MAX_TEXT: Final = 2000
"""The longest card text read (leading and trailing spaces aside): the whole pack in
notation is under 600 characters."""

SUIT_NAMES: Final[dict[str, Suit]] = {
    "♠": Suit.SPADES, "♤": Suit.SPADES, "S": Suit.SPADES, "黑桃": Suit.SPADES,
    "♥": Suit.HEARTS, "♡": Suit.HEARTS, "H": Suit.HEARTS, "红桃": Suit.HEARTS, "紅桃": Suit.HEARTS,
    "♣": Suit.CLUBS, "♧": Suit.CLUBS, "C": Suit.CLUBS, "梅花": Suit.CLUBS,
    "♦": Suit.DIAMONDS, "♢": Suit.DIAMONDS, "D": Suit.DIAMONDS,
    "方块": Suit.DIAMONDS, "方塊": Suit.DIAMONDS, "方片": Suit.DIAMONDS,
}
JOKER_NAMES: Final[dict[str, int]] = {"BJ": BIG_JOKER, "大王": BIG_JOKER, "SJ": SMALL_JOKER, "小王": SMALL_JOKER}
RANK_NAMES: Final[dict[str, int]] = {
    **{str(r): r for r in range(2, 10)}, "10": 10, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14,
}
_CARD_TYPE: Final = {Card}
_TOKEN = re.compile(r"[^\s,，、]+")
_SUIT_PREFIXES: Final = sorted(SUIT_NAMES, key=len, reverse=True)


def _parse_token(token: str, offset: int) -> list[Card]:
    upper = token.upper()
    if upper in JOKER_NAMES:
        return [Card(None, JOKER_NAMES[upper])]
    for prefix in _SUIT_PREFIXES:
        if upper.startswith(prefix):
            suit = SUIT_NAMES[prefix]
            rest = upper[len(prefix):]
            break
    else:
        for name in JOKER_NAMES:
            if upper.startswith(name):
                raise NotationError(Text(
                    "cannot read {token} at offset {offset}: write each joker as its own word, "
                    "for example 'BJ BJ' (N2)", token=shown(token), offset=offset), token=token, offset=offset)
        raise NotationError(Text(
            "cannot read {token} at offset {offset}: a card starts with a suit "
            "(♠ ♥ ♣ ♦ or S H C D) or is a joker (BJ, SJ, 大王, 小王) (N1)", token=shown(token), offset=offset),
            token=token, offset=offset)
    if not rest:
        raise _no_rank(token, offset)
    cards = []
    i, ranks_in_group = 0, 0
    while i < len(rest):
        piece = rest[i:i + 2] if rest.startswith("10", i) else rest[i]
        rank = RANK_NAMES.get(piece)
        if rank is None:
            new_suit = next((n for n in _SUIT_PREFIXES if rest.startswith(n, i)), None)
            if new_suit is not None and ranks_in_group:  # a new group in the same word: ♥7♥7
                suit, i, ranks_in_group = SUIT_NAMES[new_suit], i + len(new_suit), 0
                continue
            bad = repr(token[len(token) - len(rest) + i])
            if piece == "1":
                message = Text("cannot read {token} at offset {offset}: {char} is not a rank "
                               "(ranks are 2–10, J, Q, K, A; T for 10) (write 10 as 10 or T) (N1)",
                               token=shown(token), offset=offset, char=bad)
            else:
                message = Text("cannot read {token} at offset {offset}: {char} is not a rank "
                               "(ranks are 2–10, J, Q, K, A; T for 10) (N1)", token=shown(token), offset=offset, char=bad)
            raise NotationError(message, token=token, offset=offset)
        cards.append(Card(suit, rank))
        i += len(piece)
        ranks_in_group += 1
    if not ranks_in_group:
        raise _no_rank(token, offset)
    return cards


def _no_rank(token: str, offset: int) -> NotationError:
    return NotationError(Text("cannot read {token} at offset {offset}: the suit has no rank after it (N2)",
                              token=shown(token), offset=offset), token=token, offset=offset)


def parse_cards(text: CardsLike) -> Cards:
    """Cards from notation text (N1–N2), or the given cards as a tuple.

    Refuses unreadable text with :class:`NotationError` (quoting the token and its
    offset) and a third copy of a card with :class:`CardCountError` (C1, N3).

    >>> parse_cards("SJ SJ")[0] is parse_cards("小王")[0]
    True
    >>> parse_cards("♠AAA")
    Traceback (most recent call last):
    ...
    tutor.core.errors.CardCountError: three copies of ♠A: the pack has only two of each card (C1)
    """
    cards = to_cards(text)
    if not isinstance(text, str):
        check_copies(cards)
    return cards


def to_cards(text: CardsLike) -> Cards:
    """Like :func:`parse_cards`, but leaves the copy count (C1) of card sequences to
    the caller, who checks all the cards of a position at once."""
    if isinstance(text, str):
        if len(text) > MAX_TEXT and len(text.strip()) > MAX_TEXT:
            raise NotationError(Text("card text of {length} characters is longer than any set of cards can be "
                                     "(at most {most}): {start}", length=len(text), most=MAX_TEXT,
                                     start=shown(text)), token=text[:20], offset=0)
        return _parse_text(text)
    if type(text) is Cards:  # made of cards only, by its constructor
        return text
    if isinstance(text, tuple) and set(map(type, text)) <= _CARD_TYPE:
        return text if type(text) is Cards else Cards(text)
    try:
        items = tuple(text)
    except TypeError:
        raise NotationError(Text("expected cards as text or a sequence of cards, got {value}",
                                 value=shown(text))) from None
    if len(items) > len(PACK):
        raise CardCountError(Text("{count} cards: the pack has only {size} (C1)", count=len(items), size=len(PACK)))
    for card in items:
        if not isinstance(card, Card):
            raise NotationError(Text("expected a card, got {value}; write cards as text like '♠A ♥10'",
                                     value=shown(card)))
    return Cards(items)


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> Cards:
    cards: list[Card] = []
    for match in _TOKEN.finditer(text):
        cards.extend(_parse_token(match.group(), match.start()))
    result = Cards(cards)
    check_copies(result)
    return result


def copies(cards: Sequence[Card]) -> list[int]:
    """How many copies of each card ``cards`` hold, by :attr:`Card.index
    <tutor.rules.cards.Card.index>` (54 numbers): a hand as the rules' fast paths read it.
    Raises :class:`CardCountError` if a card appears more than twice (C1).

    >>> held = copies(parse_cards("♠A ♠A ♥3"))
    >>> held[parse_cards("♠A")[0].index], held[parse_cards("♥3")[0].index], sum(held)
    (2, 1, 3)
    """
    counts = [0] * len(DISTINCT_CARDS)
    for card in cards:
        index = card.index
        if counts[index] == 2:
            _too_many(cards)
        counts[index] += 1
    return counts


def _too_many(cards: Sequence[Card]) -> NoReturn:
    """Refuse the card of ``cards`` that appears most often, beyond two copies (C1)."""
    counts = [0] * len(DISTINCT_CARDS)
    for card in cards:
        counts[card.index] += 1
    count = max(counts)
    card = DISTINCT_CARDS[counts.index(count)]
    if count == 3:
        message = Text("three copies of {card}: the pack has only two of each card (C1)", card=card)
    elif count == 4:
        message = Text("four copies of {card}: the pack has only two of each card (C1)", card=card)
    else:
        message = Text("{count} copies of {card}: the pack has only two of each card (C1)", count=count, card=card)
    raise CardCountError(message)


def check_copies(cards: Iterable[Card]) -> None:
    """Raise :class:`CardCountError` if a card appears more than twice (C1)."""
    if not isinstance(cards, (tuple, list)):
        cards = tuple(cards)
    if len(cards) - len(set(cards)) < 2:  # at most one repeat: no third copy possible
        return
    copies(cards)


def points(cards: CardsLike) -> int:
    """Point value of cards (C3, :func:`tutor.rules.cards.points`), the cards as notation text
    or as cards: the package's ``tutor.points``.

    >>> points("♠5 ♥10 ♣K ♦A BJ"), points(parse_cards("♠5 ♠5"))
    (25, 10)
    """
    return card_points(to_cards(cards))


def point_cards(cards: CardsLike) -> Cards:
    """The cards of ``cards`` that score (C3: every 5, 10 and K), in their order; the cards
    as notation text or as cards.

    >>> point_cards("♠5 ♥10 ♣K ♦A BJ")
    parse_cards('♠5 ♥10 ♣K')
    """
    return Cards(card for card in to_cards(cards) if card.points)
