"""Who wins the trick (B1–B3, T6, W6).

>>> trick_winner(["♦3", "♦2", "♣A", "♦3", "♥4"], "♥")
1
>>> trick_winner(["♦3", "♣A", "♦3", "♠4", "♠5"], "♥")
0
>>> explain_trick(["♠5 ♠5", "♠9 ♠8", "♥7 ♥7", "♥8 ♥8", "♠A ♠A"], "♥").reason
'♥8 ♥8 wins: it over-ruffs ♥7 ♥7 (R5)'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import FrozenInstanceError
from functools import partial
from typing import Any

from tutor.cards import Card, points
from tutor.combos import Kind, Shape, is_tractor, shape_of
from tutor.errors import InvalidPlayError
from tutor.i18n import Text
from tutor.notation import CardsLike, check_copies, parse_cards
from tutor.order import Trump, TrumpLike, as_trump
from tutor.ruff import ruff_rank


class TrickOutcome:
    """The winner of a trick (an index into its plays), the points it takes (B2),
    and a sentence saying why (a :class:`~tutor.i18n.Text`, made when first read).

    Immutable, compared and hashed by its three fields like a frozen dataclass.
    """

    __slots__ = ("winner", "points", "_reason", "_make")
    __match_args__ = ("winner", "points", "reason")

    winner: int
    points: int
    _reason: str | None
    _make: Callable[[], str] | None

    def __init__(self, winner: int, points: int, reason: str | Callable[[], str]) -> None:
        _set = object.__setattr__
        _set(self, "winner", winner)
        _set(self, "points", points)
        lazy = not isinstance(reason, str)
        _set(self, "_reason", None if lazy else reason)
        _set(self, "_make", reason if lazy else None)

    @property
    def reason(self) -> str:
        """Why the winner wins: ``'♥8 ♥8 wins: it over-ruffs ♥7 ♥7 (R5)'``."""
        reason = self._reason
        if reason is None:
            assert self._make is not None
            reason = self._make()
            object.__setattr__(self, "_reason", reason)
            object.__setattr__(self, "_make", None)
        return reason

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, TrickOutcome)
        return (self.winner, self.points, self.reason) == (other.winner, other.points, other.reason)

    def __hash__(self) -> int:
        return hash((self.winner, self.points, self.reason))

    def __repr__(self) -> str:
        return f"TrickOutcome(winner={self.winner!r}, points={self.points!r}, reason={self.reason!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (TrickOutcome, (self.winner, self.points, self.reason))


def _in_shape(shape: Shape, play: Sequence[Card], trump: Trump) -> int | None:
    """The rank of ``play`` if it is in the led suit and has the lead's exact shape."""
    lane, order = trump._lane, trump._order
    if any(lane[c.index] != shape.lane for c in play):
        return None
    kind = shape.kind
    if kind is Kind.SINGLE:
        return order[play[0].index]
    if kind is Kind.PAIR:
        return order[play[0].index] if play[0] is play[1] else None
    if kind is Kind.TRACTOR and is_tractor(play, trump):
        return max(order[c.index] for c in play)
    return None


def explain_trick(plays: Sequence[CardsLike], trump: TrumpLike) -> TrickOutcome:
    """The winner of a trick and why (B1). ``plays[0]`` is the lead, which is
    taken to stand (a failed throw is settled before the trick, L4)."""
    trump = as_trump(trump)
    if isinstance(plays, str) or not isinstance(plays, (list, tuple)):
        raise InvalidPlayError(Text("plays is a list of the trick's plays, the lead first, e.g. [\"♠A\", \"♠3\"] (B1)"))
    cards = [parse_cards(p) for p in plays]
    if not cards:
        raise InvalidPlayError(Text("a trick needs at least the lead (B1)"))
    check_copies([card for play in cards for card in play])
    shape = shape_of(cards[0], trump)
    for i, play in enumerate(cards[1:], 1):
        if len(play) != shape.size:
            if play:
                raise InvalidPlayError(Text("play {index} ({cards}) has {count} cards but the lead has {size}: "
                                            "everyone plays the same number of cards (W1, B3)",
                                            index=i, cards=play, count=len(play), size=shape.size))
            raise InvalidPlayError(Text("play {index} (nothing) has {count} cards but the lead has {size}: "
                                        "everyone plays the same number of cards (W1, B3)",
                                        index=i, count=len(play), size=shape.size))
    winner, rank, ruffed = 0, _in_shape(shape, cards[0], trump), False
    why = _LEAD_WINS
    beaten: Sequence[Card] = ()
    tie = False
    for i, play in enumerate(cards[1:], 1):
        if not ruffed and not shape.is_throw:
            own = _in_shape(shape, play, trump)
            if own is not None and rank is not None and own >= rank:
                if own == rank:
                    tie = True
                    continue
                winner, rank, tie = i, own, False
                why = _HIGHEST
                continue
        ruff = ruff_rank(shape, play, trump)
        if ruff is not None and ruffed and rank is not None and ruff.order == rank:
            tie = True
        elif ruff is not None and (not ruffed or (rank is not None and ruff.order > rank)):
            why, beaten = (_OVER_RUFF, cards[winner]) if ruffed else (_RUFF, ())
            winner, rank, ruffed, tie = i, ruff.order, True, False
    taken = sum(points(p) for p in cards)
    return TrickOutcome(winner, taken, partial(_why, cards[winner], why, shape, beaten, tie))


_LEAD_WINS, _HIGHEST, _RUFF, _OVER_RUFF = range(4)


def _why(won: Sequence[Card], why: int, shape: Shape, beaten: Sequence[Card], tie: bool) -> Text:
    """The sentence of :class:`TrickOutcome`: ``'♥8 ♥8 wins: it over-ruffs ♥7 ♥7 (R5)'``."""
    reason: Text
    if why == _HIGHEST:
        kind = shape.kind
        if kind is Kind.SINGLE:
            reason = Text("it is the highest single in the led suit (B1)")
        elif kind is Kind.PAIR:
            reason = Text("it is the highest pair in the led suit (B1)")
        else:
            reason = Text("it is the highest {length}-pair tractor in the led suit (B1)", length=shape.tractors[0])
    elif why == _OVER_RUFF:
        reason = Text("it over-ruffs {cards} (R5)", cards=beaten)
    elif why == _RUFF:
        reason = Text("it ruffs: all trumps on a side-suit lead (R1–R4)")
    else:
        reason = Text("the lead wins unless beaten (B1)")
    if tie:
        return Text("{cards} wins: {reason}; a later play ties with it, and a tie goes to the play made first (T6)",
                    cards=won, reason=reason)
    return Text("{cards} wins: {reason}", cards=won, reason=reason)


def trick_winner(plays: Sequence[CardsLike], trump: TrumpLike) -> int:
    """Index into ``plays`` of the play that wins the trick (B1, T6: ties go to the
    card played first). ``plays[0]`` is the lead."""
    return explain_trick(plays, trump).winner
