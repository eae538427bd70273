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
from functools import lru_cache
from itertools import chain
from typing import NamedTuple

from tutor.core.arguments import instance
from tutor.rules.cards import Card, Cards
from tutor.rules.combos import Component, Kind, Shape, pair_runs, shape_of
from tutor.core.errors import CardCountError, InvalidPlayError
from tutor.core.i18n import Text, and_list, or_list
from tutor.rules.notation import CardsLike, check_copies, parse_cards, to_cards
from tutor.rules.order import EffectiveSuit, Trump, TrumpLike, as_trump
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.scoring import throw_penalty


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
    make instead (L4: for each beaten kind, its smallest
    component, or each of those that tie for smallest), the penalty (L5) and what beat it."""

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
        return Text("{beaten}: the throw fails, and you must lead {choice} instead (L4); it costs {penalty} points "
                    "(L5)", beaten=self.beaten_by, choice=or_list(self.options), penalty=self.penalty)

    @property
    def beaten_by(self) -> Text:
        """What beat a failed throw, for the kinds the options are of: the part of
        :attr:`reason` that does not say what the thrower must lead, so a sentence told
        to every seat can say that once, in each seat's person.

        >>> check_throw("♠A ♠Q ♠Q", ["♠K ♠K ♠3", "♠9 ♥4", "♣3", "♦4"], "♥").beaten_by
        'another player holds ♠K ♠K, which beats the pair ♠Q ♠Q'
        """
        kinds = {len(option) for option in self.options}  # each option is the smallest of a beaten kind (L4)
        first: dict[int, Beaten] = {}  # the first beaten component of each kind the options are of
        for beaten in self.beaten:
            if len(beaten.component.cards) in kinds:
                first.setdefault(len(beaten.component.cards), beaten)
        said = and_list([Text("another player holds {cards}, which beats {component}", cards=b.by,
                              component=b.component.describe()) for _, b in sorted(first.items())])
        assert isinstance(said, Text), "only a failed throw was beaten"
        return said


class Holding(NamedTuple):
    """What one hand holds of one effective suit, as a throw asks it (L3): its highest
    card, its pairs as runs (see :func:`~tutor.rules.combos.pair_runs`), and its highest pair
    card. Of cards that rank alike, the first held comes first.

    >>> h = holding(parse_cards("♠K ♠K ♠Q ♠Q ♠A ♥3"), Trump("♥").lane(parse_cards("♠A")[0]), Trump("♥"))
    >>> str(h.top), [[str(c) for c in run] for run in h.runs], str(h.top_pair)
    ('♠A', [['♠K', '♠Q']], '♠K')
    """

    top: Card | None
    runs: tuple[tuple[Card, ...], ...]
    top_pair: Card | None


@lru_cache(maxsize=1024)
def holding(hand: Cards, lane: EffectiveSuit, trump: Trump) -> Holding:
    """The :class:`Holding` of ``hand`` in ``lane``, kept for the next throw asked about the same hand."""
    lanes, order = trump.lanes, trump.orders
    suited = [c for c in hand if lanes[c.index] == lane]
    top = max(suited, key=lambda c: order[c.index], default=None)
    runs = pair_runs(suited, trump)
    top_pair = max((c for run in runs for c in run), key=lambda c: order[c.index], default=None)
    return Holding(top, tuple(tuple(run) for run in runs), top_pair)


def beater(component: Component, held: Holding, trump: Trump) -> tuple[Card, ...] | None:
    """The strongest combination of ``held`` that beats ``component`` of a throw of
    the same effective suit, or None (L3): a higher single, a higher pair, or a run
    of pairs at least as long as the tractor with a higher top, the whole run.

    >>> t = Trump("♥")
    >>> throw = shape_of(parse_cards("♠A ♠Q ♠Q ♠9 ♠9 ♠8 ♠8"), t)
    >>> held = holding(parse_cards("♠K ♠K ♠J ♠J ♠10 ♠10"), throw.lane, t)
    >>> [(str(c), " ".join(map(str, beater(c, held, t) or ()))) for c in throw.components]
    [('♠9 ♠9 ♠8 ♠8', '♠J ♠J ♠10 ♠10'), ('♠Q ♠Q', '♠K ♠K'), ('♠A', '')]
    """
    order = trump.orders
    kind = component.kind
    if kind is Kind.SINGLE:
        top = held.top
        return (top,) if top is not None and order[top.index] > component.top else None
    if kind is Kind.PAIR:
        pair = held.top_pair
        return (pair, pair) if pair is not None and order[pair.index] > component.top else None
    for run in held.runs:  # longest runs first, each high to low
        if len(run) >= component.pairs and order[run[0].index] > component.top:
            return tuple(c for c in run for _ in range(2))
    return None


def _read(throw: CardsLike, other_hands: Sequence[CardsLike], trump: TrumpLike,
          rules: Ruleset) -> tuple[Trump, Cards, list[Cards], Shape]:
    """The throw, the other hands and the throw's shape, read and checked (N1–N3, C1, L1)."""
    instance(rules, Ruleset, "rules")
    trump = as_trump(trump)
    cards = parse_cards(throw)
    if isinstance(other_hands, str) or not isinstance(other_hands, (list, tuple)):
        raise InvalidPlayError(Text("other_hands is a list of the other players' hands, e.g. [\"♠K ♠K\", \"♥3\"] (L3)"))
    hands = [to_cards(h) for h in other_hands]  # their copies are counted with the throw's, below
    pooled = _pooled(tuple(hands))
    if pooled.most > 2 or any(pooled.counts.get(card, 0) + copies > 2 for card, copies in Counter(cards).items()):
        total = Counter(chain(cards, *hands))
        for hand in hands:
            check_copies(hand)  # a hand of its own with a third copy says so first
        shape_of(cards, trump)
        raise CardCountError(Text("{cards}: more than two copies between the throw and the other hands (C1)",
                                  cards=[c for c, k in total.items() if k > 2]))
    return trump, cards, hands, shape_of(cards, trump)


class _Pool(NamedTuple):
    """The other hands' cards counted together, and the most copies of one among them."""

    counts: Counter[Card]
    most: int


@lru_cache(maxsize=256)
def _pooled(hands: tuple[Cards, ...]) -> _Pool:
    """The other hands' cards counted, kept for the next throw asked about against them."""
    counts = Counter(chain.from_iterable(hands))
    return _Pool(counts, max(counts.values(), default=0))


def _kinds(components: tuple[Component, ...]) -> dict[int, Component]:
    """The smallest component of each kind (L4), by its number of pairs (which names the
    kind: 0 a single, 1 a pair, more a tractor of that length): the others of a kind are
    beaten only if it is."""
    smallest: dict[int, Component] = {}
    for component in components:  # high to low within a kind
        smallest[component.pairs] = component
    return smallest


def throw_stands(throw: CardsLike, other_hands: Sequence[CardsLike], trump: TrumpLike, *,
                 rules: Ruleset = DEFAULT_RULES) -> bool:
    """:func:`check_throw`'s ``ok`` without the rest of its answer (L2–L3): the fast path.

    >>> throw_stands("♠A ♠K ♠K", ["♠Q ♠Q ♠3", "♠9 ♥4"], "♥"), throw_stands("♠A ♠Q ♠Q", ["♠K ♠K ♠3"], "♥")
    (True, False)
    """
    trump, _, hands, shape = _read(throw, other_hands, trump, rules)
    if len(shape.components) == 1:
        return True
    smallest = _kinds(shape.components).values()
    for hand in hands:
        held = holding(hand, shape.lane, trump)
        for component in smallest:
            if beater(component, held, trump) is not None:
                return False
    return True


def check_throw(throw: CardsLike, other_hands: Sequence[CardsLike], trump: TrumpLike, *,
                rules: Ruleset = DEFAULT_RULES) -> ThrowResult:
    """Does ``throw`` stand against ``other_hands`` (the other players' hands)?

    Each component of the canonical split (L2) is tested against each other hand
    alone (L3). When the throw fails, ``options`` holds the smallest component of
    every kind that was beaten, each of them where two tie for smallest (L4), and
    ``penalty`` the points it costs (L5).
    """
    trump, cards, hands, shape = _read(throw, other_hands, trump, rules)
    components = shape.components
    if len(components) == 1:
        return ThrowResult(True, (), 0, (), components)
    smallest = _kinds(components)
    single, pair = smallest.get(0), smallest.get(1)
    lowest_single = 99 if single is None else single.top  # a higher card than a throw's lowest single beats it
    lowest_pair = 99 if pair is None else pair.top
    tractors = [component for pairs, component in smallest.items() if pairs > 1]
    order = trump.orders
    beaten: list[Beaten] = []
    for j, hand in enumerate(hands):
        held = holding(hand, shape.lane, trump)
        top_card, pair_card = held.top, held.top_pair
        top = -1 if top_card is None else order[top_card.index]
        top_pair = -1 if pair_card is None else order[pair_card.index]
        if top <= lowest_single and top_pair <= lowest_pair and all(
                beater(component, held, trump) is None for component in tractors):
            continue  # beats no component of the throw: not even the smallest of each kind
        for component in components:  # a single or a pair is beaten by the hand's highest (see beater)
            pairs = component.pairs
            if pairs == 0:
                if top_card is not None and top > component.top:
                    beaten.append(Beaten(component, j, (top_card,)))
            elif pairs == 1:
                if pair_card is not None and top_pair > component.top:
                    beaten.append(Beaten(component, j, (pair_card, pair_card)))
            else:
                by = beater(component, held, trump)
                if by is not None:
                    beaten.append(Beaten(component, j, by))
    if not beaten:
        return ThrowResult(True, (), 0, (), components)
    kinds = list({b.component.pairs: None for b in beaten})
    tied_smallest: dict[int, list[Component]] = {}
    for component in components:  # high to low within a kind: the last ones are the smallest
        if component.pairs in kinds:
            tied = tied_smallest.setdefault(component.pairs, [])
            if tied and tied[-1].top != component.top:
                tied.clear()
            tied.append(component)  # components that tie for smallest are each an option (L4)
    ordered = sorted((c for tied in tied_smallest.values() for c in tied), key=lambda c: (c.pairs, c.kind is Kind.TRACTOR))
    if rules.failed_throw_lead == "lowest-card":
        ordered = [min(ordered, key=lambda c: (c.top, c.pairs))]
    return ThrowResult(False, tuple(c.cards for c in ordered), throw_penalty(len(cards), rules),
                       tuple(beaten), components)
