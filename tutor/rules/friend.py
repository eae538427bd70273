"""The friend and the two sides (F1–F6, S2, S4): which cards the declarer may call (and
why not the others), who the friend is, which side each seat is on, and what a seat
knows of it.

The game, the playouts of a search, the computer players and the scoring ask these
functions; none of them says it again.

>>> from tutor.rules.notation import parse_cards
>>> [str(card) for card in nameable_cards(parse_cards("♠A ♠A ♥K ♣3 BJ"), parse_cards("♣3 ♦4"))]
['♥K', 'BJ']
>>> call_refusal(parse_cards("♠A ♠A ♥K"), parse_cards("♦4"), parse_cards("♠A")[0])
IllegalActionError('you hold both copies of ♠A; call a card of which you hold exactly one copy (F1)')
>>> side_of(2, declarer=0, friend=2), side_of(3, declarer=0, friend=2), side_of(3, declarer=0, friend=None)
('friend', 'attacker', 'attacker')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from typing import Final, Literal

from tutor.core.errors import IllegalActionError, shown
from tutor.core.i18n import Text
from tutor.rules.cards import PLAYERS, Card
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset

Side = Literal["declarer", "friend", "attacker"]
"""A seat's side in a hand: the declarer, the friend (the declarer's side, F2), or an attacker."""

SIDES: Final[tuple[Side, ...]] = ("declarer", "friend", "attacker")
"""Every :data:`Side`, in the order a score lists them (:class:`tutor.rules.scoring.HandScore`)."""


def _refusing_rule(card: Card, held: int, buried: Collection[Card], rules: Ruleset) -> str | None:
    """The rule that refuses a call of ``card``, held ``held`` times after burying
    ``buried``: F1 unless it is held exactly once; else F3 if its twin is buried (unless
    ``rules.allow_buried_friend``); None if the call is allowed. The one statement of F1
    and F3: :func:`nameable_cards` and :func:`call_refusal` ask it."""
    if held != 1:
        return "F1"
    if not rules.allow_buried_friend and card in buried:
        return "F3"
    return None


def nameable_cards(hand: Iterable[Card], buried: Collection[Card], rules: Ruleset = DEFAULT_RULES) -> tuple[Card, ...]:
    """The cards of ``hand`` (the declarer's, after burying) that the declarer may call
    as the friend's: held exactly once (F1), and, unless ``rules.allow_buried_friend``,
    not a card whose twin is among the ``buried`` cards (F3); :func:`call_refusal` says
    why any other card may not be called. In the order of ``hand``; none left means the
    hand is a solo (F4).

    >>> from tutor.rules.notation import parse_cards
    >>> hand, buried = parse_cards("♠A ♥K ♣3"), parse_cards("♥K ♦4")
    >>> [str(card) for card in nameable_cards(hand, buried)]
    ['♠A', '♣3']
    >>> [str(card) for card in nameable_cards(hand, buried, Ruleset(allow_buried_friend=True))]
    ['♠A', '♥K', '♣3']
    """
    counts = Counter(hand)
    return tuple(card for card, count in counts.items() if _refusing_rule(card, count, buried, rules) is None)


def call_refusal(hand: Iterable[Card], buried: Collection[Card], card: object,
                 rules: Ruleset = DEFAULT_RULES) -> IllegalActionError | None:
    """Why the declarer holding ``hand`` (after burying ``buried``) may not call ``card``,
    or None if it may (it is one of :func:`nameable_cards`): it is not a card of the pack;
    the declarer holds no copy of it, or both (F1); its twin is buried, unless
    ``rules.allow_buried_friend`` (F3). The game and the search refuse a call with it.

    >>> from tutor.rules.notation import parse_cards as p
    >>> hand, buried = p("♠A ♥K ♣3"), p("♥K ♦4")
    >>> call_refusal(hand, buried, p("♥K")[0]).rule, call_refusal(hand, buried, p("♦9")[0]).rule
    ('F3', 'F1')
    >>> call_refusal(hand, buried, p("♥K")[0], Ruleset(allow_buried_friend=True)) is None
    True
    >>> call_refusal(hand, buried, "♠A")
    IllegalActionError("'♠A' is not a card of the pack; call one card (F1)")
    """
    if not isinstance(card, Card):
        return IllegalActionError("F1", Text("{value} is not a card of the pack; call one card", value=shown(card)))
    held = sum(1 for mine in hand if mine == card)
    rule = _refusing_rule(card, held, buried, rules)
    if rule is None:
        return None
    if rule == "F3":
        return IllegalActionError("F3", Text("the other {card} is among the cards you buried, so nobody would be "
                                             "your friend; call another card", card=card))
    return IllegalActionError("F1", Text("you hold no {card}; call a card of which you hold exactly one copy",
                                         card=card) if held == 0 else
                              Text("you hold both copies of {card}; call a card of which you hold exactly one copy",
                                   card=card))


def friend_of(card: Card, declarer: int, holdings: Sequence[Collection[Card]]) -> int | None:
    """The friend's seat: the first seat other than the declarer whose cards
    (``holdings``, one collection a seat: what it holds, or held) include the called
    ``card`` (F2); None if no seat does: its twin is buried (``Ruleset.allow_buried_friend``, F3).

    >>> from tutor.rules.notation import parse_cards as p
    >>> friend_of(p("♠A")[0], 0, [p("♠A"), p("♥3"), p("♠A ♠4"), (), ()])
    2
    >>> friend_of(p("♠A")[0], 0, [p("♠A"), (), (), (), ()]) is None
    True
    """
    return next((seat for seat, cards in enumerate(holdings) if seat != declarer and card in cards), None)


def side_of(seat: int, declarer: int | None, friend: int | None) -> Side:
    """``seat``'s side, with ``declarer`` and ``friend`` the true seats (``friend`` None in
    a solo, F5, or when the called card's twin was buried, F3): ``"declarer"``,
    ``"friend"`` (the declarer's side, F2) or ``"attacker"``. Before a declarer is
    chosen, everyone is an attacker. (A seat always knows its own side: the friend knows
    it holds the called card, :attr:`tutor.rules.view.SeatView.side`.)

    >>> [side_of(seat, declarer=1, friend=None) for seat in range(5)]
    ['attacker', 'declarer', 'attacker', 'attacker', 'attacker']
    """
    if seat == declarer:
        return "declarer"
    return "friend" if seat == friend else "attacker"


def same_side(seat: int, other: int, declarer: int | None, friend: int | None) -> bool:
    """True if ``seat`` and ``other`` play on the same side (the declarer's, or the
    attackers'), with ``declarer`` and ``friend`` as for :func:`side_of`.

    >>> same_side(0, 2, declarer=0, friend=2), same_side(1, 3, declarer=0, friend=2), same_side(0, 1, 0, 2)
    (True, True, False)
    """
    return (side_of(seat, declarer, friend) == "attacker") == (side_of(other, declarer, friend) == "attacker")


def known_sides(seat: int, declarer: int | None, known_friend: int | None, *, solo: bool,
                friendless: bool = False) -> tuple[frozenset[int], frozenset[int]]:
    """(partners, opponents) of ``seat`` as far as it knows (F2, F6). ``known_friend`` is
    the friend's seat as far as ``seat`` knows: the friend once revealed, or ``seat``
    itself if it is the friend; else None (unlike :func:`side_of`'s ``friend``, the
    truth). ``friendless``: ``seat`` knows nobody is the friend: it is the declarer and
    buried the called card's twin (``Ruleset.allow_buried_friend``, F3).

    Nobody knows who the friend is until the called card is played, so an attacker
    knows only that the declarer is an opponent, and the declarer knows nothing, unless
    it knows it has no friend; in a solo (F5) everyone knows the sides.

    >>> known_sides(3, declarer=0, known_friend=None, solo=False)
    (frozenset(), frozenset({0}))
    >>> known_sides(3, declarer=0, known_friend=2, solo=False)
    (frozenset({1, 4}), frozenset({0, 2}))
    >>> known_sides(0, declarer=0, known_friend=None, solo=False)
    (frozenset(), frozenset())
    >>> known_sides(0, declarer=0, known_friend=None, solo=False, friendless=True)
    (frozenset(), frozenset({1, 2, 3, 4}))
    >>> known_sides(0, declarer=0, known_friend=None, solo=True)
    (frozenset(), frozenset({1, 2, 3, 4}))
    """
    if declarer is None:
        return frozenset(), frozenset()
    if known_friend is None and not solo and not friendless:
        return (frozenset(), frozenset()) if seat == declarer else (frozenset(), frozenset({declarer}))
    others = frozenset(range(PLAYERS)) - {seat}
    partners = frozenset(other for other in others if same_side(seat, other, declarer, known_friend))
    return partners, others - partners


__all__ = ["SIDES", "Side", "call_refusal", "friend_of", "known_sides", "nameable_cards", "same_side", "side_of"]
