"""Ruffing and over-ruffing (R1–R5).

>>> v = check_ruff("♥9 ♥7 ♥7 ♣3", "♠5 ♠6 ♠7", "♥9 ♥7 ♥7", "♥")
>>> v.ruff, v.legal
(True, True)
>>> v = check_ruff("♥8 ♥8 ♥4 ♣3", "♠5 ♠6 ♠7", "♥8 ♥8 ♥4", "♥", beat="♥9 ♥7 ♥7")
>>> v.ruff, v.legal, v.rule, v.reason
(False, True, 'R5', 'your ruff ranks by ♥8, which is not higher than the ruff already played (♥9 ♥7 ♥7, ranked by ♥9)')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from tutor.rules.cards import Card
from tutor.rules.combos import Kind, Shape, max_matched, pair_runs, tractor_top
from tutor.core.errors import InvalidPlayError
from tutor.rules.follow import follow_position
from tutor.core.i18n import Text, and_list
from tutor.rules.notation import CardsLike, check_copies, parse_cards
from tutor.rules.order import TRUMP, Trump, TrumpLike
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.verdict import RuffVerdict


@dataclass(frozen=True, slots=True)
class RuffRank:
    """How a ruff ranks (R2, R4): the order of its ranking card, and that card."""

    order: int
    card: Card


def ruff_rank(shape: Shape, play: Sequence[Card], trump: Trump) -> RuffRank | None:
    """The rank of ``play`` as a ruff of a lead of ``shape``, or ``None`` if it is
    not one (R1–R4). Assumes the follower has no card of the led suit (R1), which a
    legal all-trump follow to a side-suit lead implies.

    >>> from tutor.rules.combos import shape_of
    >>> t = Trump("♥")
    >>> lead = shape_of(parse_cards("♠A ♠K ♠5 ♠5 ♠4 ♠4"), t)
    >>> str(ruff_rank(lead, parse_cards("♥9 ♥9 ♥8 ♥8 ♥7 ♥2"), t).card)
    '♥9'
    >>> ruff_rank(shape_of(parse_cards("♠A ♠A ♠5 ♠5 ♠4 ♠4"), t), parse_cards("♥9 ♥9 ♥8 ♥8 ♥7 ♥2"), t) is None
    True
    """
    lane, order = trump.lanes, trump.orders
    if shape.lane == TRUMP or len(play) != shape.size:
        return None
    for card in play:
        if lane[card.index] != TRUMP:
            return None
    if not shape.pairs:
        top = max(play, key=lambda c: order[c.index])
        return RuffRank(order[top.index], top)  # R2
    kind = shape.kind
    if kind is Kind.PAIR:  # a pair of trumps (R3, R4)
        return RuffRank(order[play[0].index], play[0]) if play[0] is play[1] else None
    if kind is Kind.TRACTOR:  # as many cards as the tractor: one tractor, all of them (R3, R4)
        piece = tractor_top(play, trump)
        return None if piece is None else RuffRank(order[piece.index], piece)
    runs = pair_runs(play, trump)
    if sum(len(run) for run in runs) < shape.pairs:
        return None  # R3: not enough pairs
    if not shape.tractors:
        top = runs_top(runs, order)
        return RuffRank(order[top.index], top)  # R4: the highest pair
    lengths = [len(run) for run in runs]
    if max_matched(shape.tractors, tuple(sorted((x for x in lengths if x > 1), reverse=True))) < sum(shape.tractors):
        return None  # R3: not every lead tractor is matched
    longest, rest = shape.tractors[0], shape.tractors[1:]
    best: Card | None = None
    for i, run in enumerate(runs):
        for offset in range(len(run) - longest + 1):
            candidate = run[offset]
            if best is not None and order[candidate.index] <= order[best.index]:
                continue
            others = lengths[:i] + lengths[i + 1:] + [offset, len(run) - offset - longest]
            capacities = tuple(sorted((x for x in others if x > 1), reverse=True))
            if max_matched(rest, capacities) == sum(rest):
                best = candidate
    assert best is not None
    return RuffRank(order[best.index], best)  # R4: the highest matching tractor piece


def runs_top(runs: list[list[Card]], order: tuple[int, ...]) -> Card:
    """The highest pair card among ``runs``."""
    return max((run[0] for run in runs), key=lambda c: order[c.index])


_NOT_A_RUFF: Final = Text("Not a ruff")
_NOT_HIGHER: Final = Text("Does not beat the ruff")


def _not_a_ruff(rule: str, make: Callable[[], str]) -> RuffVerdict:
    """A legal play that is not a ruff, and the rule that says so."""
    return RuffVerdict.lazy_ruff(False, True, rule, make, headline=_NOT_A_RUFF)


def check_ruff(hand: CardsLike, lead: CardsLike, play: CardsLike, trump: TrumpLike, *,
               beat: CardsLike | None = None, rules: Ruleset = DEFAULT_RULES) -> RuffVerdict:
    """Is ``play`` a ruff that can win (R1–R3)? With ``beat``, a ruff already on the
    table, it must also rank strictly higher (R4–R5). The answer's ``ruff`` says so;
    its ``legal`` says whether the play may be made at all (W0–W5), as for any follow.
    An illegal follow gets its W-rule; a legal play that is not a ruff gets the rule
    that makes it a discard or a plain follow (R1, R3), one that ranks too low R5; a
    winning ruff the rule that ranks it (R2, R4; R5 for an over-ruff). Every card list
    of the reason is in holding order.

    >>> v = check_ruff("♥9 ♥9 ♥8 ♥8 ♥7 ♥2", "♠A ♠A ♠5 ♠5 ♠4 ♠4", "♥9 ♥9 ♥8 ♥8 ♥7 ♥2", "♥")
    >>> v.ruff, v.legal, v.rule, v.headline
    (False, True, 'R3', 'Not a ruff')
    """
    position = follow_position(hand, lead, trump, rules)
    trump = position.trump
    played = parse_cards(play)
    verdict = position.check(played)
    if not verdict.legal:
        return RuffVerdict.of(verdict)
    played = trump.sorted(played)  # as the reasons name them
    shape, name = position.shape, position.suit_name
    if shape.lane == TRUMP:
        return _not_a_ruff("R1", lambda: Text("trumps were led, so trumps played to it follow suit; only a "
                                              "side-suit lead can be ruffed"))
    if position.suit:
        return _not_a_ruff("R1", lambda: Text("you still hold {held} in {suit}, so you must follow suit; trumps "
                                              "that make up a short follow never win", held=trump.sorted(position.suit),
                                              suit=name))
    not_trumps = tuple(c for c in played if not trump.is_trump(c))
    if not_trumps:
        return _not_a_ruff("R1", lambda: Text.plural("a ruff is all trumps, and {cards} is not a trump: this play "
                                                     "is a discard and cannot win (R1, W6)",
                                                     "a ruff is all trumps, and {cards} are not trumps: this play is "
                                                     "a discard and cannot win (R1, W6)",
                                                     count=len(not_trumps), cards=not_trumps))
    rank = ruff_rank(shape, played, trump)
    if rank is None:
        return _not_a_ruff("R3", lambda: _short_ruff_reason(shape, trump.sorted(position.lead), played))
    if beat is not None:
        other = trump.sorted(parse_cards(beat))
        check_copies(position.hand + position.lead + other)
        if len(other) != shape.size:
            raise InvalidPlayError(Text("the ruff on the table ({cards}) has {count} cards but the lead has {size} "
                                        "(W1)", cards=other or "", count=len(other), size=shape.size))
        their = ruff_rank(shape, other, trump)
        if their is not None and rank.order <= their.order:
            return RuffVerdict.lazy_ruff(False, True, "R5", lambda: Text(
                "your ruff ranks by {card}, which is not higher than the ruff already played ({other}, ranked by "
                "{their})", card=rank.card, other=other, their=their.card), headline=_NOT_HIGHER)
        if their is not None:
            return RuffVerdict.lazy_ruff(True, True, "R5", lambda: Text(
                "you over-ruff: your trumps rank by {card}, above {their} (R5)", card=rank.card, their=their.card))
    if shape.pairs:
        return RuffVerdict.lazy_ruff(True, True, "R4", lambda: Text(
            "you have no {suit} and ruff with {cards}, ranked by {card} (R4)", suit=name, cards=played, card=rank.card))
    return RuffVerdict.lazy_ruff(True, True, "R2", lambda: Text(
        "you have no {suit} and ruff with {cards}, ranked by {card} (R2)", suit=name, cards=played, card=rank.card))


def _short_ruff_reason(shape: Shape, lead: Sequence[Card], played: Sequence[Card]) -> Text:
    """R3: all trumps, but without the lead's pairs and tractors as separate combinations."""
    wants: list[Text] = []
    tractors = len(shape.tractors)
    if tractors:
        wants.append(Text.plural("a tractor", "{count} tractors", count=tractors))
    extra = shape.pairs - sum(shape.tractors)
    if extra > 0:
        if shape.tractors:
            wants.append(Text.plural("1 more pair", "{count} more pairs", count=extra))
        else:
            wants.append(Text.plural("1 pair", "{count} pairs", count=extra))
    return Text.plural("the lead {lead} has {wants}; your trumps {cards} do not hold it as separate combinations, "
                       "so this play is a discard (R3, W6)",
                       "the lead {lead} has {wants}; your trumps {cards} do not hold them as separate combinations, "
                       "so this play is a discard (R3, W6)", count=shape.pairs, lead=lead, wants=and_list(wants),
                       cards=played)
