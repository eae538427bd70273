"""Combinations: singles, pairs and tractors (M1–M3), and the canonical split of
a lead into components (L2).

>>> from tutor.rules.notation import parse_cards
>>> spades = Trump("♠")
>>> is_tractor("♥10 ♥10 ♥9 ♥9", spades), is_tractor("♥5 ♥5 ♥3 ♥3", spades)
(True, False)
>>> [str(c) for c in split("♥AAKQQJJ5", spades)]
['♥Q ♥Q ♥J ♥J', '♥A ♥A', '♥K', '♥5']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Final

from tutor.rules.cards import DISTINCT_CARDS, Card, format_cards
from tutor.core.errors import InvalidPlayError
from tutor.core.i18n import Text, and_list
from tutor.rules.notation import CardsLike, parse_cards
from tutor.rules.order import Trump, as_trump


class Kind(Enum):
    """The kind of a component (M1–M2)."""

    SINGLE = "single"
    PAIR = "pair"
    TRACTOR = "tractor"


@dataclass(frozen=True, slots=True)
class Component:
    """One single, pair or tractor; ``cards`` high to low, ``top`` the order of its
    highest card (M3), ``pairs`` its number of pairs (0 for a single)."""

    kind: Kind
    cards: tuple[Card, ...]
    top: int
    pairs: int

    @property
    def kind_key(self) -> tuple[Kind, int]:
        """What L4 calls a *kind*: single, pair, or tractor of a given length."""
        return (self.kind, self.pairs)

    def describe(self) -> Text:
        """``'the pair ♥7 ♥7'``, ``'the tractor ♠8 ♠8 ♠7 ♠7'``, ``'the single ♣K'``
        (a :class:`~tutor.core.i18n.Text`)."""
        kind = self.kind
        if kind is Kind.SINGLE:
            return Text("the single {cards}", cards=self.cards)
        if kind is Kind.PAIR:
            return Text("the pair {cards}", cards=self.cards)
        return Text("the tractor {cards}", cards=self.cards)

    def __str__(self) -> str:
        return format_cards(self.cards)


@dataclass(frozen=True, slots=True)
class Shape:
    """What a lead asks of the other players: its effective suit, card count, the
    lengths of its tractors (longest first), its pairs (those inside tractors
    included) and its canonical components (L2)."""

    lane: int
    size: int
    tractors: tuple[int, ...]
    pairs: int
    components: tuple[Component, ...]

    @property
    def kind(self) -> Kind | None:
        """Single, pair or tractor; ``None`` for a throw (L2)."""
        return self.components[0].kind if len(self.components) == 1 else None

    @property
    def is_throw(self) -> bool:
        return len(self.components) > 1

    def describe(self) -> str:
        """How a newcomer names the lead: ``'a pair'``, ``'a 2-pair tractor'``, ``'a throw'``
        (a :class:`~tutor.core.i18n.Text`)."""
        kind = self.kind
        if kind is Kind.TRACTOR:
            return tractor_text(self.tractors[0])
        return _LEAD_TEXT[kind]


_LEAD_TEXT: Final[dict[Kind | None, Text]] = {
    Kind.SINGLE: Text("a single"), Kind.PAIR: Text("a pair"), None: Text("a throw"),
}


@lru_cache(maxsize=64)
def tractor_text(length: int) -> Text:
    """``'a 3-pair tractor'``: how a newcomer names a tractor lead of ``length`` pairs."""
    return Text("a {length}-pair tractor", length=length)


def pair_runs(cards: Iterable[Card], trump: Trump) -> list[list[Card]]:
    """Maximal runs of consecutive pairs among ``cards`` (pairs of different
    effective suits never join), the longest first; each run lists one card per pair, high to low. A run of one is a
    plain pair, a run of two or more a tractor (M2). Pairs that rank alike (the side 2s
    among the trumps) come in the order of their first card in ``cards``.

    >>> [[str(c) for c in run] for run in pair_runs(parse_cards("♠QQJJ99 ♥22 SJ SJ BJ BJ"), Trump("♠"))]
    [['BJ', 'SJ'], ['♠Q', '♠J'], ['♥2'], ['♠9']]
    """
    if not isinstance(cards, (tuple, list)):
        cards = tuple(cards)
    seen: set[Card] = set()
    twice: list[Card] = []
    for card in cards:
        if card in seen:
            twice.append(card)
        else:
            seen.add(card)
    if len(twice) < 2:
        return [twice] if twice else []
    doubled = set(twice)
    pairs = [card for card in dict.fromkeys(cards) if card in doubled]  # in the order of first copies
    pairs.sort(key=_run_keys(trump).__getitem__)
    step, lane = trump.steps, trump.lanes
    runs: list[list[Card]] = []
    previous: int | None = None
    previous_lane = -1
    for card in pairs:
        s = step[card.index]
        if s is not None and previous is not None and s == previous - 1 and lane[card.index] == previous_lane:
            runs[-1].append(card)
        else:
            runs.append([card])
        previous, previous_lane = s, lane[card.index]
    if len(runs) > 1:
        order = trump.orders
        runs.sort(key=lambda run: (-len(run), -order[run[0].index]))
    return runs


def tractor_top(cards: Sequence[Card], trump: Trump) -> Card | None:
    """The highest card of ``cards`` if they are one tractor and nothing else: two or
    more consecutive pairs of one effective suit (M2); else None. The shortest path to
    :func:`is_tractor`'s answer, for cards already read.

    >>> t = Trump("♠")
    >>> str(tractor_top(parse_cards("♥9 ♥9 ♥10 ♥10"), t)), tractor_top(parse_cards("♥5 ♥5 ♥3 ♥3"), t)
    ('♥10', None)
    >>> str(tractor_top(parse_cards("SJ SJ BJ BJ"), t)), tractor_top(parse_cards("SJ SJ ♠2 ♠2"), t)
    ('BJ', None)
    """
    pairs = len(cards) // 2
    if pairs < 2 or len(cards) % 2:
        return None
    distinct = set(cards)
    if len(distinct) != pairs:  # with at most two copies of a card (C1): each card twice
        return None
    lanes, steps = trump.lanes, trump.steps
    lane = lanes[cards[0].index]
    top: Card | None = None
    high = low = -1
    for card in distinct:
        step = steps[card.index]
        if step is None or lanes[card.index] != lane:
            return None  # a 2, or a card of another suit
        if top is None or step > high:
            top, high = card, step
        if low < 0 or step < low:
            low = step
    # distinct cards of one effective suit have distinct steps, so the pairs are consecutive exactly when
    # the steps span as many places as there are pairs (M2); within a suit, the highest step ranks highest
    return top if high - low == pairs - 1 else None


@lru_cache(maxsize=8)
def _run_keys(trump: Trump) -> dict[Card, int]:
    """The order in which :func:`pair_runs` meets the pairs: by effective suit, then
    high to low by tractor step, then by order (T4, M2), as one number per card."""
    return {card: trump.lanes[card.index] * 1_000_000 + (50 - (trump.steps[card.index] or 0)) * 1000
            + 50 - trump.orders[card.index] for card in DISTINCT_CARDS}


def split(cards: CardsLike, trump: Trump | str | None) -> tuple[Component, ...]:
    """The canonical split of a lead (L2): longest tractors first, then pairs, then
    singles; within a kind, high to low. Refuses cards of several effective suits (L1)."""
    trump = as_trump(trump)
    return shape_of(parse_cards(cards), trump).components


def _split(cards: Sequence[Card], trump: Trump) -> tuple[Component, ...]:
    order = trump.orders
    counts = Counter(cards)
    components = [
        Component(Kind.TRACTOR if len(run) > 1 else Kind.PAIR,
                  tuple(c for c in run for _ in range(2)), order[run[0].index], len(run))
        for run in pair_runs(cards, trump)
    ]
    singles = sorted((c for c, k in counts.items() if k == 1), key=lambda c: -order[c.index])
    components.extend(Component(Kind.SINGLE, (c,), order[c.index], 0) for c in singles)
    return tuple(components)


def shape_of(cards: Sequence[Card], trump: Trump) -> Shape:
    """The :class:`Shape` of a lead; refuses an empty lead or one that mixes
    effective suits (L1)."""
    return _shape_of(tuple(cards), trump)


def lead_problem(cards: Sequence[Card], trump: Trump) -> Text | None:
    """Why ``cards`` cannot be led, without the rule's ID (it is always L1), or None
    when they are of one effective suit.

    >>> from tutor.rules.notation import parse_cards
    >>> lead_problem(parse_cards("♠A ♣A ♥3"), Trump("♥"))
    'the lead ♥3 ♠A ♣A mixes trumps, ♠ and ♣: every card of a lead must be of one suit, counting all trumps as one suit'
    >>> lead_problem(parse_cards("♠A ♥2 BJ"), Trump("♠")) is None
    True
    """
    if not cards:
        return Text("a lead needs at least one card")
    lanes = trump.lanes_of(cards)
    if len(lanes) == 1:
        return None
    return Text("the lead {cards} mixes {suits}: every card of a lead must be of one suit, "
                "counting all trumps as one suit", cards=trump.sorted(cards),
                suits=and_list(sorted(Trump.suit_name(lane) for lane in lanes)))


@lru_cache(maxsize=4096)
def _shape_of(cards: tuple[Card, ...], trump: Trump) -> Shape:
    problem = lead_problem(cards, trump)
    if problem is not None:
        raise InvalidPlayError(Text("{reason} ({rule})", reason=problem, rule="L1"))
    lanes = trump.lanes_of(cards)
    components = _split(cards, trump)
    return Shape(
        lane=lanes.pop(),
        size=len(cards),
        tractors=tuple(c.pairs for c in components if c.kind is Kind.TRACTOR),
        pairs=sum(c.pairs for c in components),
        components=components,
    )


def is_pair(cards: CardsLike) -> bool:
    """Two identical cards (M1): ``♥2 ♣2`` is not a pair.

    >>> is_pair("♥2 ♥2"), is_pair("♥2 ♣2")
    (True, False)
    """
    cards = parse_cards(cards)
    return len(cards) == 2 and cards[0] is cards[1]


def is_tractor(cards: CardsLike, trump: Trump | str | None) -> bool:
    """Two or more consecutive pairs of one effective suit (M2).

    >>> is_tractor("BJ BJ SJ SJ", None), is_tractor("SJ SJ ♥2 ♥2", "♥"), is_tractor("♠A ♠A ♠3 ♠3 ♠2 ♠2", "♥")
    (True, False, False)
    """
    trump = as_trump(trump)
    cards = parse_cards(cards)
    if len(cards) < 4 or len(cards) % 2 or len(trump.lanes_of(cards)) != 1:
        return False
    runs = pair_runs(cards, trump)
    return len(runs) == 1 and 2 * len(runs[0]) == len(cards)


@lru_cache(maxsize=8192)
def max_matched(demands: tuple[int, ...], capacities: tuple[int, ...]) -> int:
    """The largest total length of the lead tractors ``demands`` that disjoint,
    equally long pieces of runs of lengths ``capacities`` can match (W5, R3).

    >>> max_matched((2,), (3,)), max_matched((2, 2), (4,)), max_matched((3,), (2, 2)), max_matched((2, 2), (3,))
    (2, 4, 0, 2)
    """
    if not demands or not capacities:
        return 0
    first, rest = demands[0], demands[1:]
    best = max_matched(rest, capacities)
    tried: set[int] = set()
    for i, capacity in enumerate(capacities):
        if capacity >= first and capacity not in tried:
            tried.add(capacity)
            left = capacities[:i] + capacities[i + 1:] + ((capacity - first,) if capacity - first >= 2 else ())
            best = max(best, first + max_matched(rest, tuple(sorted(left, reverse=True))))
    return best

