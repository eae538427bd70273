"""The friend and the two sides (F1–F6, S2, S4): which cards the declarer may call, who
the friend is, which side each seat is on, and what a seat knows of it.

The game, the playouts of a search, the computer players and the scoring ask these
functions; none of them says it again.

>>> from tutor.rules.notation import parse_cards
>>> [str(card) for card in nameable_cards(parse_cards("♠A ♠A ♥K ♣3 BJ"), parse_cards("♣3 ♦4"))]
['♥K', 'BJ']
>>> side_of(2, declarer=0, friend=2), side_of(3, declarer=0, friend=2), side_of(3, declarer=0, friend=None)
('friend', 'attacker', 'attacker')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from typing import Final, Literal

from tutor.rules.cards import PLAYERS, Card
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset

Side = Literal["declarer", "friend", "attacker"]
"""A seat's side in a hand: the declarer, the friend (the declarer's side, F2), or an attacker."""

SIDES: Final[tuple[Side, ...]] = ("declarer", "friend", "attacker")
"""Every :data:`Side`, in the order a score lists them (:class:`tutor.rules.scoring.HandScore`)."""


def nameable_cards(hand: Iterable[Card], buried: Collection[Card], rules: Ruleset = DEFAULT_RULES) -> tuple[Card, ...]:
    """The cards of ``hand`` (the declarer's, after burying) that the declarer may call
    as the friend's: held exactly once (F1), and, unless ``rules.allow_buried_friend``,
    not a card whose twin is among the ``buried`` cards (F3). In the order of ``hand``;
    none left means the hand is a solo (F4).

    >>> from tutor.rules.notation import parse_cards
    >>> hand, buried = parse_cards("♠A ♥K ♣3"), parse_cards("♥K ♦4")
    >>> [str(card) for card in nameable_cards(hand, buried)]
    ['♠A', '♣3']
    >>> [str(card) for card in nameable_cards(hand, buried, Ruleset(allow_buried_friend=True))]
    ['♠A', '♥K', '♣3']
    """
    counts = Counter(hand)
    refused = frozenset(()) if rules.allow_buried_friend else frozenset(buried)
    return tuple(card for card, count in counts.items() if count == 1 and card not in refused)


def friend_of(card: Card, declarer: int, holdings: Sequence[Iterable[Card]]) -> int | None:
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
    chosen, everyone is an attacker.

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


def known_sides(seat: int, declarer: int | None, friend: int | None, *, solo: bool) -> tuple[frozenset[int],
                                                                                            frozenset[int]]:
    """(partners, opponents) of ``seat`` as far as it knows (F2, F6): ``friend`` is the
    friend's seat if ``seat`` knows it (it has been revealed, or ``seat`` is the friend),
    else None. Nobody knows who the friend is until the called card is played, so an
    attacker knows only that the declarer is an opponent, and the declarer knows nothing;
    in a solo (F5) everyone knows the sides.

    >>> known_sides(3, declarer=0, friend=None, solo=False)
    (frozenset(), frozenset({0}))
    >>> known_sides(3, declarer=0, friend=2, solo=False)
    (frozenset({1, 4}), frozenset({0, 2}))
    >>> known_sides(0, declarer=0, friend=None, solo=True)
    (frozenset(), frozenset({1, 2, 3, 4}))
    """
    if declarer is None or (friend is None and not solo and seat == declarer):
        return frozenset(), frozenset()
    others = frozenset(range(PLAYERS)) - {seat}
    if friend is None and not solo:
        return frozenset(), frozenset({declarer})
    partners = frozenset(other for other in others if same_side(seat, other, declarer, friend))
    return partners, others - partners


__all__ = ["SIDES", "Side", "friend_of", "known_sides", "nameable_cards", "same_side", "side_of"]
