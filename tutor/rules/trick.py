"""Who wins the trick (B1–B3, T6, W6).

>>> trick_winner(["♦3", "♦2", "♣A", "♦3", "♥4"], "♥")
1
>>> trick_winner(["♦3", "♣A", "♦3", "♠4", "♠5"], "♥")
0
>>> explain_trick(["♠5 ♠5", "♠9 ♠8", "♥7 ♥7", "♥8 ♥8", "♠A ♠A"], "♥").reason
'♥8 ♥8 wins: it over-ruffs ♥7 ♥7 (R5)'
>>> explain_trick(["♦3", "♣A", "♦4", "♠4", "♠5"], "♥").reason
'♦4 wins: it is the highest single in the led suit (B1); ♣A is a discard and never wins (W6)'
>>> why_not(["♦3", "♣A", "♦4", "♠4", "♠5"], 1, "♥")
'♣A is neither in the led suit nor a ruff: a discard never wins (W6)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple, NoReturn

from tutor.rules.cards import Card, Cards, points
from tutor.rules.combos import Kind, Shape, shape_of, tractor_top
from tutor.core.errors import InvalidPlayError, shown
from tutor.core.i18n import Text
from tutor.rules.notation import CardsLike, check_copies, to_cards
from tutor.rules.order import TRUMP, Trump, TrumpLike, as_trump
from tutor.rules.ruff import ruff_rank


@dataclass(frozen=True, slots=True)
class TrickOutcome:
    """The winner of a trick (an index into its plays), the points it takes (B2),
    and a sentence saying why (a :class:`~tutor.core.i18n.Text`): ``reason`` names the
    winning cards (``'♠Q wins: it is the highest single in the led suit (B1)'``),
    ``cause`` is the same without them, for a sentence that has named them already
    (``'Seat 3 wins the trick with ♠Q: …'``); ``rules`` the rule IDs it cites."""

    winner: int
    points: int
    reason: str
    cause: str = ""
    rules: tuple[str, ...] = ()


class _Settled(NamedTuple):
    """Who wins a trick and how, before anything is said about it."""

    cards: list[Cards]
    shape: Shape
    winner: int
    why: int
    beaten: Sequence[Card]
    tie: bool


def _in_shape(shape: Shape, play: Sequence[Card], trump: Trump) -> int | None:
    """The rank of ``play`` if it is in the led suit and has the lead's exact shape."""
    lane, order = trump.lanes, trump.orders
    led = shape.lane
    for card in play:
        if lane[card.index] != led:
            return None
    kind = shape.kind
    if kind is Kind.SINGLE:
        return order[play[0].index]
    if kind is Kind.PAIR:
        return order[play[0].index] if play[0] is play[1] else None
    if kind is Kind.TRACTOR:  # one run of pairs that is the whole play (M2)
        top = tractor_top(play, trump)
        return None if top is None else order[top.index]
    return None


def explain_trick(plays: Sequence[CardsLike], trump: TrumpLike) -> TrickOutcome:
    """The winner of a trick and why (B1). ``plays[0]`` is the lead, which is
    taken to stand (a failed throw is settled before the trick, L4). The reason names
    each play's cards in holding order.

    >>> explain_trick(["♣K ♣7 ♣5 ♣4", "♥2 BJ ♦K ♦7"], "♦").reason
    'BJ ♥2 ♦K ♦7 wins: it ruffs: all trumps on a side-suit lead (R1–R4)'
    """
    trump = as_trump(trump)
    settled = _settle(*_said_plays(plays, trump), trump)
    cause, rules = _cause(settled, trump)
    won = settled.cards[settled.winner]
    return TrickOutcome(settled.winner, sum(points(p) for p in settled.cards),
                        Text("{cards} wins: {reason}", cards=won, reason=cause), cause, rules)


def why_not(plays: Sequence[CardsLike], index: int, trump: TrumpLike) -> Text:
    """Why ``plays[index]`` does not win the trick (B1, R5, T6, W6), without saying
    which play does: for a learner who chose it, before the answer is shown.

    >>> why_not(["♠5 ♠5", "♠9 ♠8", "♥7 ♥7", "♥8 ♥8", "♠A ♠A"], 4, "♥")
    '♠A ♠A is in the led suit, but a ruff beats every play of the led suit (B1)'
    >>> why_not(["♠A", "♠A", "♠3"], 1, "♥")
    '♠A ties with an earlier play, and a tie goes to the play made first (T6)'
    """
    trump = as_trump(trump)
    settled = _settle(*_said_plays(plays, trump), trump)
    cards, shape, winner = settled.cards, settled.shape, settled.winner
    if type(index) is not int or not 0 <= index < len(cards) or index == winner:
        raise InvalidPlayError(Text("play {index} is no play of this trick that loses it (B1)", index=shown(index)))
    play, won = cards[index], cards[winner]
    ruffed = settled.why in (_RUFF, _OVER_RUFF)
    tie = Text("{cards} ties with an earlier play, and a tie goes to the play made first (T6)", cards=play)
    ruff = ruff_rank(shape, play, trump)
    if ruff is not None and index:
        best = ruff_rank(shape, won, trump)
        if best is not None and best.order == ruff.order and index > winner:
            return tie
        return Text("{cards} ruffs, but a higher ruff beats it (R5)", cards=play)
    own = None if shape.is_throw else _in_shape(shape, play, trump)
    if own is None and index:
        if trump.lanes_of(play) == {shape.lane}:
            return Text("{cards} is in the led suit but not in the lead's shape, so it cannot win (B1)", cards=play)
        return Text("{cards} is neither in the led suit nor a ruff: a discard never wins (W6)", cards=play)
    if ruffed:
        return Text("{cards} is in the led suit, but a ruff beats every play of the led suit (B1)", cards=play)
    if own is not None and own == _in_shape(shape, won, trump) and index > winner:
        return tie
    return Text("a higher play in the led suit beats {cards} (B1)", cards=play)


def _said_plays(plays: Sequence[CardsLike], trump: Trump) -> tuple[list[Cards], Shape]:
    """:func:`_plays_of`, each play in holding order, as a sentence names it (a play's
    order decides nothing: B1, R2–R5 look at its cards)."""
    cards, shape = _plays_of(plays, trump)
    return [trump.sorted(play) for play in cards], shape


def _plays_of(plays: Sequence[CardsLike], trump: Trump) -> tuple[list[Cards], Shape]:
    """The trick's plays read and checked (C1, L1, W1, B3), and the lead's shape."""
    if isinstance(plays, str) or not isinstance(plays, (list, tuple)):
        raise InvalidPlayError(Text("plays is a list of the trick's plays, the lead first, e.g. [\"♠A\", \"♠3\"] (B1)"))
    cards = [p if type(p) is Cards else to_cards(p) for p in plays]
    if not cards:
        raise InvalidPlayError(Text("a trick needs at least the lead (B1)"))
    check_copies([card for play in cards for card in play])  # C1
    shape = shape_of(cards[0], trump)
    size = shape.size
    for play in cards:
        if len(play) != size:
            _wrong_size(cards, shape, trump)
    return cards, shape


def _wrong_size(cards: list[Cards], shape: Shape, trump: Trump) -> NoReturn:
    """Refuse the first play of ``cards`` that has not as many cards as the lead (W1, B3)."""
    i, play = next((i, play) for i, play in enumerate(cards) if len(play) != shape.size)
    if play:
        raise InvalidPlayError(Text("play {index} ({cards}) has {count} cards but the lead has {size}: "
                                    "everyone plays the same number of cards (W1, B3)",
                                    index=i, cards=trump.sorted(play), count=len(play), size=shape.size))
    raise InvalidPlayError(Text("play {index} (nothing) has {count} cards but the lead has {size}: "
                                "everyone plays the same number of cards (W1, B3)",
                                index=i, count=len(play), size=shape.size))


def _settle(cards: list[Cards], shape: Shape, trump: Trump) -> _Settled:
    """Who wins the trick of ``cards`` led in ``shape`` (B1, R1–R5, T6, W6), with no sentence made."""
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
    return _Settled(cards, shape, winner, why, beaten, tie)


_LEAD_WINS, _HIGHEST, _RUFF, _OVER_RUFF = range(4)


def _cause(settled: _Settled, trump: Trump) -> tuple[Text, tuple[str, ...]]:
    """Why the winner of ``settled`` wins, without naming its cards, and the rule IDs
    said: ``'it over-ruffs ♥7 ♥7 (R5)'``. A discard holding a card above the winner's
    is named too (W6): it looks as if it should win, and never does."""
    why, shape = settled.why, settled.shape
    reason: Text
    rules: tuple[str, ...]
    if why == _HIGHEST:
        kind, rules = shape.kind, ("B1",)
        if kind is Kind.SINGLE:
            reason = Text("it is the highest single in the led suit (B1)")
        elif kind is Kind.PAIR:
            reason = Text("it is the highest pair in the led suit (B1)")
        else:
            reason = Text("it is the highest {length}-pair tractor in the led suit (B1)", length=shape.tractors[0])
    elif why == _OVER_RUFF:
        reason, rules = Text("it over-ruffs {cards} (R5)", cards=settled.beaten), ("R5",)
    elif why == _RUFF:
        reason, rules = Text("it ruffs: all trumps on a side-suit lead (R1–R4)"), ("R1",)
    else:
        reason, rules = Text("the lead wins unless beaten (B1)"), ("B1",)
    discard = _high_discard(settled, trump)
    if discard is not None:
        reason, rules = Text("{reason}; {cards} is a discard and never wins (W6)", reason=reason, cards=discard), \
            (*rules, "W6")
    if settled.tie:
        reason, rules = Text("{reason}; a later play ties with it, and a tie goes to the play made first (T6)",
                             reason=reason), (*rules, "T6")
    return reason, rules


def _high_discard(settled: _Settled, trump: Trump) -> Cards | None:
    """The first discard (W6: neither of the led suit nor a ruff) holding a side-suit
    card ranked above every card of the winning play, when that play is of the led
    suit (after a ruff, the ruff says why), or None."""
    shape, cards = settled.shape, settled.cards
    if settled.why in (_RUFF, _OVER_RUFF):
        return None
    lanes, order = trump.lanes, trump.orders
    top = max(order[c.index] for c in cards[settled.winner])
    for i, play in enumerate(cards[1:], 1):
        if i == settled.winner or ruff_rank(shape, play, trump) is not None:
            continue
        if any(lanes[c.index] not in (shape.lane, TRUMP) and order[c.index] > top for c in play):
            return play
    return None


def trick_winner(plays: Sequence[CardsLike], trump: TrumpLike) -> int:
    """Index into ``plays`` of the play that wins the trick (B1, T6: ties go to the
    card played first). ``plays[0]`` is the lead.

    No sentence is made (:func:`explain_trick` says why), and the trick is decided by
    the shortest path, as B1, R1–R5 say: the highest of the led suit in the lead's
    shape, unless trumps of that shape ruff a side suit; a throw is beaten only by a
    ruff; a discard never wins (W6), a tie goes to the earlier play (T6).

    >>> trick_winner(["♠5 ♠5", "♠9 ♠8", "♥7 ♥7", "♥8 ♥8", "♠A ♠A"], "♥")
    3
    """
    trump = as_trump(trump)
    cards, shape = _plays_of(plays, trump)
    kind = shape.kind
    if kind is None:
        return _throw_winner(cards, shape, trump)
    if kind is Kind.TRACTOR:
        return _tractor_winner(cards, trump)
    return winner_so_far(cards, trump)


def winner_so_far(plays: Sequence[Sequence[Card]], trump: Trump) -> int:
    """Index into ``plays`` of the play winning the trick so far (B1, R1, T6, W6): the
    lead and the plays after it, as many as have been made. This is :func:`trick_winner`
    for plays the rules have already allowed (a game's, a playout's), not checked again:
    the one answer the playouts of a search ask, after every play. A single or a pair
    lead is settled here, by the shortest path: the highest single (pair) of the led
    suit, unless a trump single (pair) ruffs a side suit; a tractor or a throw by
    :func:`trick_winner`'s own steps, without its check of the plays.

    >>> from tutor.rules.notation import parse_cards as p
    >>> winner_so_far([p("♦3"), p("♦9"), p("♥4")], Trump("♥")), winner_so_far([p("♦3 ♦3"), p("♦9 ♦8")], Trump("♥"))
    (2, 0)
    """
    lead = plays[0]
    size = len(lead)
    if size > 2 or (size == 2 and lead[0] is not lead[1]):  # a tractor or a throw led
        shape = shape_of(lead, trump)
        return _tractor_winner(plays, trump) if shape.kind is Kind.TRACTOR else _throw_winner(plays, shape, trump)
    pair = size == 2
    best, winning = 0, lead[0]
    for index in range(1, len(plays)):
        play = plays[index]
        card = play[0]
        if pair and play[1] is not card:
            continue  # not a pair: it cannot win a pair's trick (B1, R3)
        if beats(card, winning, trump):
            best, winning = index, card
    return best


def beats(card: Card, winning: Card, trump: Trump) -> bool:
    """True if a single ``card`` (or a pair of it) beats ``winning``, the single (the pair)
    winning a trick led by a single (a pair) so far (B1, R1, T6): a higher card of the
    same effective suit, or a trump on a side suit (the first ruff); a tie never beats
    (T6), nor a discard (W6). The step of :func:`winner_so_far`, asked alone by a player
    weighing a follow.

    >>> from tutor.rules.notation import parse_cards as p
    >>> [beats(p(c)[0], p("♦9")[0], Trump("♥")) for c in ("♦10", "♦9", "♥3", "♣A")]
    [True, False, True, False]
    >>> beats(p("♦A")[0], p("♥3")[0], Trump("♥")), beats(p("♥4")[0], p("♥3")[0], Trump("♥"))
    (False, True)
    """
    lanes, top, best = trump.lanes, card.index, winning.index
    lane, best_lane = lanes[top], lanes[best]
    if lane == best_lane:
        return trump.orders[top] > trump.orders[best]
    return lane == TRUMP  # the first ruff of a side-suit lead (R1)


def _tractor_winner(cards: Sequence[Sequence[Card]], trump: Trump) -> int:
    """The index of the play winning a trick led by a tractor: the highest tractor of the
    led suit as long, unless a trump tractor ruffs a side suit (B1, R1, R3); a tie goes
    to the earlier play (T6)."""
    lanes, orders = trump.lanes, trump.orders
    lead = tractor_top(cards[0], trump)
    assert lead is not None  # the lead has its own shape
    best, best_lane, best_order = 0, lanes[lead.index], orders[lead.index]
    for index in range(1, len(cards)):
        top = tractor_top(cards[index], trump)  # one tractor, all of one suit (M2), or it cannot win (B1, R3)
        if top is None:
            continue
        lane = lanes[top.index]
        if lane == best_lane:
            if orders[top.index] > best_order:
                best, best_order = index, orders[top.index]
        elif lane == TRUMP:  # the first ruff of a side-suit lead (R1)
            best, best_lane, best_order = index, TRUMP, orders[top.index]
    return best


def _throw_winner(plays: Sequence[Sequence[Card]], shape: Shape, trump: Trump) -> int:
    """The winner of a trick led by a throw that stood: the lead, unless ruffed (B1, R1–R5)."""
    if shape.lane == TRUMP:
        return 0  # nothing follows a throw in its shape, and a trump lead is never ruffed
    best, best_order = 0, -1
    lanes = trump.lanes
    for index in range(1, len(plays)):
        if lanes[plays[index][0].index] != TRUMP:
            continue  # a ruff is all trumps (R1)
        rank = ruff_rank(shape, plays[index], trump)
        if rank is not None and rank.order > best_order:
            best, best_order = index, rank.order
    return best
