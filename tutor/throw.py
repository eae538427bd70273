"""Throws (甩牌): whether a throw stands, and what a failed throw forces (L2–L5).

>>> check_throw("♠A ♠K ♠K", ["♠Q ♠Q ♠3", "♠9 ♥4", "♣3", "♦4"], "♥").ok
True
>>> result = check_throw("♠A ♠Q ♠Q", ["♠K ♠K ♠3", "♠9 ♥4", "♣3", "♦4"], "♥")
>>> result.ok, [" ".join(map(str, o)) for o in result.options], result.penalty
(False, ['♠Q ♠Q'], 15)
>>> result.reason
'another player holds ♠K ♠K, which beats the pair ♠Q ♠Q: the throw fails, and you must lead ♠Q ♠Q instead (L4); it costs 15 points (L5)'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tutor.arguments import instance
from tutor.cards import Card
from tutor.combos import Component, Kind, pair_runs, shape_of
from tutor.errors import CardCountError, InvalidPlayError
from tutor.i18n import Text, or_list
from tutor.notation import CardsLike, parse_cards
from tutor.order import Trump, TrumpLike, as_trump
from tutor.rules import DEFAULT_RULES, Ruleset


@dataclass(frozen=True, slots=True)
class Beaten:
    """A component of a throw, the hand (index into ``other_hands``) that beats it,
    and the cards it beats it with (L3)."""

    component: Component
    hand: int
    by: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ThrowResult:
    """Whether a throw stands (L3); if not, the leads the thrower may be forced to
    make instead (one per beaten kind, L4), the penalty (L5) and what beat it."""

    ok: bool
    options: tuple[tuple[Card, ...], ...]
    penalty: int
    beaten: tuple[Beaten, ...]
    components: tuple[Component, ...]

    def __bool__(self) -> bool:
        return self.ok

    @property
    def reason(self) -> Text:
        """A sentence a newcomer understands (translatable)."""
        if self.ok:
            if len(self.components) == 1:
                return Text("{lead} is not a throw; it always stands (L2)", lead=self.components[0].describe())
            return Text("nobody can beat any part of the throw alone, so it stands (L3)")
        first = self.beaten[0]
        return Text("another player holds {cards}, which beats {component}: the throw fails, and you must lead "
                    "{choice} instead (L4); it costs {penalty} points (L5)", cards=first.by,
                    component=first.component.describe(), choice=or_list(self.options), penalty=self.penalty)


def _beater(component: Component, cards: Sequence[Card], trump: Trump) -> tuple[Card, ...] | None:
    """The strongest combination among ``cards`` (of the throw's suit) that beats
    ``component``, or None (L3)."""
    order = trump.orders
    if component.kind is Kind.SINGLE:
        best = max(cards, key=lambda c: order[c.index], default=None)
        return (best,) if best is not None and order[best.index] > component.top else None
    for run in pair_runs(cards, trump):  # longest runs first, each high to low
        if len(run) >= component.pairs and order[run[0].index] > component.top:
            if component.kind is Kind.PAIR:
                best_pair = max((c for r in pair_runs(cards, trump) for c in r), key=lambda c: order[c.index])
                return (best_pair, best_pair)
            return tuple(c for c in run for _ in range(2))
    return None


def check_throw(throw: CardsLike, other_hands: Sequence[CardsLike], trump: TrumpLike, *,
                rules: Ruleset = DEFAULT_RULES) -> ThrowResult:
    """Does ``throw`` stand against ``other_hands`` (the other players' hands)?

    Each component of the canonical split (L2) is tested against each other hand
    alone (L3). When the throw fails, ``options`` holds the smallest component of
    every kind that was beaten, each of them where two tie for smallest (L4), and
    ``penalty`` the points it costs (L5).
    """
    instance(rules, Ruleset, "rules")
    trump = as_trump(trump)
    cards = parse_cards(throw)
    if isinstance(other_hands, str) or not isinstance(other_hands, (list, tuple)):
        raise InvalidPlayError(Text("other_hands is a list of the other players' hands, e.g. [\"♠K ♠K\", \"♥3\"] (L3)"))
    hands = [parse_cards(h) for h in other_hands]
    shape = shape_of(cards, trump)
    total = Counter(cards)
    for hand in hands:
        total.update(hand)
    over = [c for c, k in total.items() if k > 2]
    if over:
        raise CardCountError(Text("{cards}: more than two copies between the throw and the other hands (C1)",
                                  cards=over))
    if len(shape.components) == 1:
        return ThrowResult(True, (), 0, (), shape.components)
    lane = trump.lanes
    beaten: list[Beaten] = []
    for j, hand in enumerate(hands):
        suited = [c for c in hand if lane[c.index] == shape.lane]
        for component in shape.components:
            by = _beater(component, suited, trump)
            if by is not None:
                beaten.append(Beaten(component, j, by))
    if not beaten:
        return ThrowResult(True, (), 0, (), shape.components)
    kinds = {b.component.kind_key for b in beaten}
    smallest: dict[tuple[Kind, int], list[Component]] = {}
    for component in shape.components:  # high to low within a kind: the last ones are the smallest
        if component.kind_key in kinds:
            tied = smallest.setdefault(component.kind_key, [])
            if tied and tied[-1].top != component.top:
                tied.clear()
            tied.append(component)  # components that tie for smallest are each an option (L4)
    ordered = sorted((c for tied in smallest.values() for c in tied), key=lambda c: (c.pairs, c.kind is Kind.TRACTOR))
    if rules.failed_throw_lead == "lowest-card":
        ordered = [min(ordered, key=lambda c: (c.top, c.pairs))]
    return ThrowResult(False, tuple(c.cards for c in ordered), rules.penalty_per_card * len(cards),
                       tuple(beaten), shape.components)

