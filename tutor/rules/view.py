"""What one seat may see of a hand (F2: nobody knows who the friend is until F6), like
shengji's ``for_player``: :meth:`tutor.rules.game.Game.view` makes a :class:`SeatView`,
and everything that plays for a seat (the computer players, the search, the coach, a
learner's table) reads the hand through it.

>>> from tutor.rules.game import Game
>>> view = Game(7).view(2)
>>> view.seat, view.phase.value, len(view.hand), view.declaration_options()
(2, 'dealing', 0, [])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tutor.rules.bidding import declaration_options, showable
from tutor.rules.cards import Card
from tutor.rules.events import Declared, TrickWon, standing_declaration
from tutor.rules.friend import Side, known_sides, side_of
from tutor.rules.order import Trump
from tutor.rules.phase import Phase


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see (F2: nobody knows who the friend is until F6)."""

    seat: int
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    trump: Trump | None
    declarations: tuple[Declared, ...]
    declarer: int | None
    friend_card: Card | None
    friend: int | None  # only once revealed (or to the friend themself)
    solo: bool
    trick: tuple[tuple[int, tuple[Card, ...]], ...]
    to_play: int | None
    forced_options: tuple[tuple[Card, ...], ...]
    points_shown: tuple[int, ...]  # F6: per seat; the declarer's side pooled once the friend is revealed
    kitty: tuple[Card, ...] | None  # the buried cards, for the declarer only
    tricks: tuple[TrickWon, ...]  # the tricks played so far (public)
    all_dealt: bool
    actor: int | None = None  # the seat that must act now (Game.actor)
    declaration_count: int = 0  # the score's multiplier so far (D5)
    penalty_adjustment: int = 0  # failed-throw penalties on the attackers' total so far (L5, public)
    friend_revealed: bool = False  # the friend has played the called card (F6, public)

    def declaration_options(self) -> list[tuple[Card, ...]]:
        """The declarations or overturns this seat may make now (D1–D3), as
        :meth:`tutor.rules.game.Game.declaration_options` says: none once the deal is closed
        (:func:`declaration_choices`).

        >>> from tutor.rules.game import Game
        >>> game = Game(159)
        >>> _ = game.deal_until(2, "♣2")
        >>> game.view(2).declaration_options()
        [(Card(Suit.CLUBS, 2),)]
        """
        return declaration_choices(self.phase, self.hand, self.declarations, self.seat)

    @property
    def side(self) -> Side:
        """This seat's own side (:func:`tutor.rules.friend.side_of`), which it always knows:
        the friend knows it holds the called card (F2), before anyone else does (F6).

        >>> from tutor.rules.game import Game
        >>> game = Game(3)
        >>> _ = game.deal_until(4, "♣2"), game.declare(4, "♣2"), game.deal_all(), game.close_deal()
        >>> game.view(4).side, game.view(0).side
        ('declarer', 'attacker')
        """
        return side_of(self.seat, self.declarer, self.friend)

    def known_sides(self) -> tuple[frozenset[int], frozenset[int]]:
        """(partners, opponents) of this seat as far as it knows (F2, F5, F6:
        :func:`tutor.rules.friend.known_sides`): the friend once revealed (or to the friend
        itself), everyone in a solo, and to the declarer who buried the called card's twin
        (``Ruleset.allow_buried_friend``, F3), that nobody is its friend.

        >>> from tutor.rules.game import Game
        >>> game = Game(3)
        >>> _ = game.deal_until(4, "♣2"), game.declare(4, "♣2"), game.deal_all(), game.close_deal()
        >>> _ = game.bury(4, game.hand(4)[:8]), game.go_solo(4)
        >>> game.view(4).known_sides()
        (frozenset(), frozenset({0, 1, 2, 3}))
        >>> game.view(1).known_sides()
        (frozenset({0, 2, 3}), frozenset({4}))
        """
        friendless = self.kitty is not None and self.friend_card is not None and self.friend_card in self.kitty
        return known_sides(self.seat, self.declarer, self.friend, solo=self.solo, friendless=friendless)


def declaration_choices(phase: Phase, hand: Iterable[Card], declarations: Sequence[Declared],
                        seat: int) -> list[tuple[Card, ...]]:
    """The declarations or overturns ``seat`` may make with ``hand`` after ``declarations``
    in ``phase`` (D1–D3): none once the deal is closed (only while the cards are dealt,
    D1); else :func:`tutor.rules.bidding.declaration_options` against the standing one,
    asked with the 2s and jokers of the hand only (the cards a declaration shows), in the
    order of the cards.

    >>> from tutor.rules.notation import parse_cards as p
    >>> standing = [Declared(1, p("♠2"), Trump("♠"), 1)]
    >>> [" ".join(map(str, o)) for o in declaration_choices(Phase.DEALING, p("♥2 ♥2 ♠5"), standing, 0)]
    ['♥2 ♥2']
    >>> declaration_choices(Phase.BURYING, p("♥2 ♥2 ♠5"), standing, 0)
    []
    """
    if phase is not Phase.DEALING:
        return []
    shown = [card for card in hand if showable(card)]
    return declaration_options(shown, standing_declaration(declarations), seat=seat) if shown else []


__all__ = ["SeatView", "declaration_choices"]
