"""Playouts on small integers: the loop that plays a hand to its end for
:meth:`tutor.play.simulation.Simulation.playout`.

A card is its index among the pack's 54 distinct cards (:attr:`Card.index
<tutor.rules.cards.Card.index>`); a seat's hand is five lists of card indices, one per
effective suit (T3: the four side suits, then trumps), in no particular order; the trump's
tables — each card's effective suit, its order (T4–T6) and its points (C3) — are tuples
read by index (:class:`Tables`, made once per trump). Every trick a playout's players lead
is a single or a pair, and such a trick is played and settled here on integers, exactly
as the rules module plays and settles it (W1–W3 for the follows, B1, R1, T6, W6 for the
winner: :func:`tutor.rules.trick.winner_so_far`); the tests replay playouts through
:class:`tutor.rules.game.Game`. A trick led by a tractor or a throw (a search's candidate,
a view's trick in progress) is played on cards by the simulation before it hands over.

>>> from tutor.rules.order import Trump
>>> tables = Tables.of(Trump("♥"))
>>> from tutor.rules.notation import parse_cards
>>> spade_ace, heart_three = (card.index for card in parse_cards("♠A ♥3"))
>>> tables.lanes[spade_ace], tables.lanes[heart_three], tables.orders[spade_ace], tables.points[spade_ace]
(0, 4, 14, 0)
>>> beats(heart_three, spade_ace, tables.lanes, tables.orders), beats(spade_ace, heart_three, tables.lanes, tables.orders)
(True, False)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from tutor.rules.cards import DISTINCT_CARDS, PLAYERS, Card
from tutor.rules.order import TRUMP, Trump

LANES: Final = 5
"""The effective suits: the four side suits (0–3, in :data:`~tutor.rules.cards.SUITS`'
order) and trumps (:data:`TRUMP_LANE`)."""
TRUMP_LANE: Final = int(TRUMP)
EXPLORE: Final = 0.1
"""How often a greedy playout makes a random legal play instead."""

Hand = list[list[int]]
"""A seat's cards: one list of card indices per effective suit."""
Play = tuple[int, ...]
Move = tuple[int, Play]
"""A seat and the card indices it played."""


class Tables(NamedTuple):
    """A trump's tables by card index: effective suit (T3), order (T4–T6), points (C3),
    and what giving the card up costs a greedy player (its order; a trump's, 30 more)."""

    lanes: tuple[int, ...]
    orders: tuple[int, ...]
    points: tuple[int, ...]
    costs: tuple[int, ...]
    ranked: tuple[tuple[int, ...], ...]
    """Each effective suit's distinct cards, highest first (ties in holding order)."""

    @staticmethod
    def of(trump: Trump) -> Tables:
        """The tables of ``trump`` (made once, then found)."""
        return _TABLES[trump]


def _tables(trump: Trump) -> Tables:
    lanes = tuple(int(lane) for lane in trump.lanes)
    held = sorted(range(len(DISTINCT_CARDS)), key=lambda index: trump.places[DISTINCT_CARDS[index]])
    return Tables(lanes, trump.orders, tuple(card.points for card in DISTINCT_CARDS),
                  tuple(30 + order if lane == TRUMP_LANE else order for lane, order in zip(lanes, trump.orders)),
                  tuple(tuple(index for index in held if lanes[index] == lane) for lane in range(LANES)))


_TABLES: Final = {trump: _tables(trump) for trump in (Trump(suit) for suit in ("♠", "♥", "♣", "♦", None))}


def hand_of(cards: Iterable[Card], lanes: Sequence[int]) -> Hand:
    """``cards`` as a playout holds them: card indices by effective suit, in their order."""
    hand: Hand = [[] for _ in range(LANES)]
    for card in cards:
        index = card.index
        hand[lanes[index]].append(index)
    return hand


def cards_of(play: Sequence[int]) -> tuple[Card, ...]:
    """The cards of a play of card indices."""
    return tuple(DISTINCT_CARDS[index] for index in play)


def beats(card: int, winning: int, lanes: Sequence[int], orders: Sequence[int]) -> bool:
    """True if ``card`` (or a pair of it) beats ``winning``, the single (pair) winning so
    far: a higher card of the same effective suit, or a trump on a side suit (B1, R1); a tie
    never beats (T6), nor a discard (W6). :func:`tutor.rules.trick.beats` on indices."""
    lane, best = lanes[card], lanes[winning]
    if lane == best:
        return orders[card] > orders[winning]
    return lane == TRUMP_LANE


def finish(tables: Tables, hands: list[Hand], sizes: list[int], leader: int, trick: list[Move], won: list[int],
           sides: Sequence[bool], greedy: bool, rng: random.Random,
           moves: list[Move] | None) -> tuple[Play, Play, int, int | None]:
    """Play the hand to its end from ``trick`` (the plays of the trick in progress, led by
    a single or a pair, or none) and ``leader`` (the seat that led it, or leads next):
    every seat plays at random within the rules, or greedily (see
    :mod:`tutor.play.simulation`). ``hands``, ``sizes`` (cards held), ``won`` (points won
    in tricks, by seat) are updated and every play is appended to ``moves`` (unless it is
    None); ``sides`` says which seats are on the declarer's side.

    Returns the last trick's lead and winning play, its winner, and the winner of the first
    trick finished here (None if none was).
    """
    lanes, orders, points, _, _ = tables
    rand = rng.random
    record = None if moves is None else moves.append
    held = [0] * len(lanes)  # the copies of each card the hands hold (a greedy lead asks)
    if greedy:
        for hand in hands:
            for cards in hand:
                for card in cards:
                    held[card] += 1
    last_lead: Play = ()
    last_win: Play = ()
    last_winner = leader
    first_winner: int | None = None
    while True:
        if trick:
            lead = trick[0][1]
        else:
            if not sizes[leader]:
                break
            hand = hands[leader]
            if greedy and rand() >= EXPLORE:
                lead = _greedy_lead(hands, leader, tables, held, rng)
            else:
                at = int(rand() * sizes[leader])
                for suit in hand:
                    if at < len(suit):
                        break
                    at -= len(suit)
                card = suit[at]
                lead = (card, card) if rand() < 0.5 and suit.count(card) == 2 else (card,)
            suit = hand[lanes[lead[0]]]
            for card in lead:
                suit.remove(card)
                held[card] -= 1
            sizes[leader] -= len(lead)
            trick = [(leader, lead)]
            if record is not None:
                record(trick[0])
        pair = len(lead) == 2
        led = lanes[lead[0]]
        # the play winning so far (B1, R1, T6, W6): its seat, cards, and its card's suit and order
        best_seat, best_play = trick[0]
        win_lane, win_order = led, orders[lead[0]]
        taken = 0
        for seat, made in trick:
            for card in made:
                taken += points[card]
            card = made[0]
            if (not pair or made[1] == card) and ((lanes[card] == win_lane and orders[card] > win_order) or
                                                  (lanes[card] == TRUMP_LANE and win_lane != TRUMP_LANE)):
                best_seat, best_play, win_lane, win_order = seat, made, lanes[card], orders[card]
        order = _ORDER[leader]
        for index in range(len(trick), PLAYERS):
            seat = order[index]
            hand = hands[seat]
            suit = hand[led]
            play: Play
            if len(suit) == len(lead):  # no choice (W1, W2)
                play = tuple(suit)
                suit.clear()
            elif greedy and rand() >= EXPLORE:
                last = index == PLAYERS - 1
                partner = sides[best_seat] == sides[seat]
                if pair:
                    play = _greedy_pair(hand, led, best_play[0], taken, last, partner, tables)
                else:
                    play = (_greedy_single(suit or [c for cards in hand for c in cards], best_play[0], taken, last,
                                           partner, tables),)
                for card in play:
                    hand[lanes[card]].remove(card)
            elif pair:
                play = _random_pair(hand, suit, sizes[seat], rand)
            elif suit:  # a random card of the led suit (W1, W2)
                play = (suit.pop(int(rand() * len(suit))),)
            else:
                play = (_take_any(hand, sizes[seat], rand),)
            sizes[seat] -= len(play)
            if greedy:
                for card in play:
                    held[card] -= 1
            if record is not None:
                record((seat, play))
            card = play[0]
            taken += points[card]
            if pair:
                taken += points[play[1]]
                if play[1] != card:
                    continue  # not a pair: it cannot win a pair's trick (B1, R3)
            lane = lanes[card]
            if (lane == win_lane and orders[card] > win_order) or (lane == TRUMP_LANE and win_lane != TRUMP_LANE):
                best_seat, best_play, win_lane, win_order = seat, play, lane, orders[card]
        won[best_seat] += taken
        last_lead, last_win, last_winner = lead, best_play, best_seat
        if first_winner is None:
            first_winner = best_seat
        leader = best_seat
        trick = []
    return last_lead, last_win, last_winner, first_winner


_ORDER: Final = tuple(tuple((leader + k) % PLAYERS for k in range(PLAYERS)) for leader in range(PLAYERS))
"""The seats in playing order from each leader."""


def _take(cards: list[int], rand: object) -> int:
    """A card taken at random out of ``cards``."""
    return cards.pop(int(rand() * len(cards)))  # type: ignore[operator]


def _take_any(hand: Hand, size: int, rand: object) -> int:
    """A card taken at random out of the whole hand (of ``size`` cards)."""
    at = int(rand() * size)  # type: ignore[operator]
    for suit in hand:
        if at < len(suit):
            return suit.pop(at)
        at -= len(suit)
    raise AssertionError("the hand holds fewer cards than its size")


def _random_pair(hand: Hand, suit: list[int], size: int, rand: object) -> Play:
    """A random legal follow to a pair (W1–W3), taken out of the hand: a pair of the suit
    if one is held, else two cards of it, else all of it and any others."""
    if len(suit) >= 2:
        pairs = [card for at, card in enumerate(suit) if card in suit[at + 1:]]
        if pairs:
            card = pairs[int(rand() * len(pairs))]  # type: ignore[operator]
            suit.remove(card)
            suit.remove(card)
            return (card, card)
        return (_take(suit, rand), _take(suit, rand))
    if suit:
        first = suit.pop()
        return (first, _take_any(hand, size - 1, rand))
    return (_take_any(hand, size, rand), _take_any(hand, size - 1, rand))


def _greedy_lead(hands: list[Hand], seat: int, tables: Tables, held: list[int], rng: random.Random) -> Play:
    """A card or a pair that no other hand can beat, the best such (a side suit's, a pair,
    with points, high); else the lowest card of a side suit without points. ``held``: the
    copies of each card the five hands hold."""
    lanes, orders, points, _, ranked = tables
    hand = hands[seat]
    ruffed = [False] * LANES  # a side suit some other hand is out of while holding trumps (R1)
    for other in range(PLAYERS):
        if other != seat and hands[other][TRUMP_LANE]:
            cards_of_other = hands[other]
            for lane in range(TRUMP_LANE):
                if not cards_of_other[lane]:
                    ruffed[lane] = True
    best = -1  # the best key found: a side suit's, a pair, points, order (bits 12, 11, 6–10, 0–5)
    chosen = -1
    for lane in range(LANES):
        cards = hand[lane]
        if not cards or ruffed[lane]:
            continue
        side = 4096 if lane != TRUMP_LANE else 0
        for card in ranked[lane]:  # B1: a card nobody holds a higher one of; a tie goes first (T6)
            if held[card] > cards.count(card):
                high = orders[card]
                break
        else:
            high = -1
        for card in cards:
            if orders[card] >= high:
                key = side | points[card] << 6 | orders[card]
                if key > best:
                    best, chosen = key, card
        if len(set(cards)) < len(cards):  # a pair nobody holds a higher pair of
            high_pair = _top_pair(hands, seat, lane, tables, held)
            for at, card in enumerate(cards):
                if orders[card] >= high_pair and card in cards[at + 1:]:
                    key = side | 2048 | points[card] << 6 | orders[card]
                    if key > best:
                        best, chosen = key, card
    if best >= 0:
        lane = lanes[chosen]
        if hand[lane].count(chosen) == 2 and orders[chosen] >= _top_pair(hands, seat, lane, tables, held):
            return (chosen, chosen)
        return (chosen,)
    cheap = [card for lane in range(TRUMP_LANE) for card in hand[lane] if not points[card]] or \
        [card for cards in hand for card in cards]
    low = min(map(orders.__getitem__, cheap))
    return (rng.choice([card for card in cheap if orders[card] == low]),)


def _top_pair(hands: list[Hand], seat: int, lane: int, tables: Tables, held: list[int]) -> int:
    """The order of the highest pair of ``lane`` another hand than ``seat``'s holds, or -1."""
    for card in tables.ranked[lane]:
        if held[card] == 2 and card not in hands[seat][lane]:
            for other in range(PLAYERS):
                if other != seat and hands[other][lane].count(card) == 2:
                    return tables.orders[card]
    return -1


def _greedy_single(options: list[int], top: int, taken: int, last: bool, partner: bool, tables: Tables) -> int:
    """A follow to a single lead from ``options`` (the legal cards, W1): points to a
    winning partner; the cheapest card that takes the trick from the other side when the
    trick holds points (``taken``), or the card does, or this is the ``last`` play; else the
    cheapest card. ``top``: the card winning so far; ``partner``: whether its seat is on
    this seat's side. Ties go to the card first in ``options``."""
    lanes, orders, points, costs, _ = tables
    if partner:  # the most points, then the cheapest
        chosen, most = -1, None
        for card in options:
            mine = (points[card], -costs[card])
            if most is None or mine > most:
                chosen, most = card, mine
        return chosen
    top_lane, top_order = lanes[top], orders[top]
    best, best_key, any_points = -1, 0, False
    for card in options:  # B1, R1: the cheapest that beats the winning card, points weighing for it
        lane = lanes[card]
        if (lane == top_lane and orders[card] > top_order) or (lane == TRUMP_LANE and top_lane != TRUMP_LANE):
            price = costs[card] - 2 * points[card]
            any_points = any_points or points[card] > 0
            if best < 0 or price < best_key:
                best, best_key = card, price
    if best >= 0 and (taken or last or any_points):
        return best
    chosen, least = -1, None
    for card in options:  # the fewest points, then the cheapest
        cheap = (points[card], costs[card])
        if least is None or cheap < least:
            chosen, least = card, cheap
    return chosen


def _greedy_pair(hand: Hand, led: int, top: int, taken: int, last: bool, partner: bool, tables: Tables) -> Play:
    """A legal follow to a pair lead (W1–W3) chosen as :func:`_greedy_single` chooses:
    points to a winning partner; the cheapest pair that takes the trick from the other side
    (of the suit, or of trumps when out of it, R1) when it is worth it; else the cheapest
    cards. Not taken out of the hand."""
    lanes, orders, points, costs, _ = tables
    cost = costs.__getitem__
    suit = hand[led]
    pairs = sorted(dict.fromkeys(c for at, c in enumerate(suit) if c in suit[at + 1:]), key=cost)
    if not suit and led != TRUMP_LANE:
        trumps = hand[TRUMP_LANE]
        pairs = sorted(dict.fromkeys(c for at, c in enumerate(trumps) if c in trumps[at + 1:]), key=cost)
    if pairs:
        card: int | None
        if partner:
            card = max(pairs, key=lambda c: (points[c], -costs[c])) if suit else None
        else:
            winning = [c for c in pairs if beats(c, top, lanes, orders)]  # B1, R1
            take = winning and (taken or last or any(points[c] for c in winning))
            card = min(winning, key=lambda c: costs[c] - 2 * points[c]) if take else \
                (min(pairs, key=lambda c: (points[c], costs[c])) if suit else None)
        if card is not None:
            return (card, card)
    # no pair to play (or a ruff not worth it): two of the suit, else all of it and the rest
    sign = -1 if partner else 1
    chosen = sorted(suit, key=lambda c: (sign * points[c], costs[c]))[:2]
    if len(chosen) < 2:
        rest = sorted((c for lane in range(LANES) if lane != led for c in hand[lane]),
                      key=lambda c: (sign * points[c], costs[c]))
        chosen += rest[:2 - len(chosen)]
    return tuple(chosen)


__all__ = ["EXPLORE", "LANES", "TRUMP_LANE", "Hand", "Move", "Play", "Tables", "beats", "cards_of", "finish",
           "hand_of"]
