"""Playing a hand forward from one seat's view: the engine of a search.

A seat sees its own hand and the table, not the others' cards. A :class:`Layout`
says where the unseen cards are (every hand, and the kitty); :meth:`Simulation.deal`
draws one at random, consistent with everything the seat has seen (the card
counts, the suits others have shown they are out of, the called friend card), and
:meth:`Simulation.playout` plays the hand to its end and scores it (S1–S4, X1–X2):
every seat at random within the rules, or (``policy="greedy"``) as a simple player
who sees every card would: lead a card nobody can beat, take a trick from the other
side with the cheapest card that does, give points to a partner who is winning, throw
away the least else (and a random legal play now and then). A search plays a candidate move first (``first=``) and
averages the results over many layouts.

The playouts keep the rules exactly: every play is one the rules module allows and
every trick goes to the seat :func:`tutor.rules.trick.winner_so_far` names, and the hand is
scored as the game scores it, by the same functions (:mod:`tutor.rules.scoring`,
:mod:`tutor.rules.friend`; the tests replay playouts through :class:`tutor.rules.game.Game`).

>>> import random
>>> from tutor.play.strategy import ComputerPlayer, next_action
>>> from tutor.rules.game import Game, Phase
>>> game = Game(4)
>>> bots = {seat: ComputerPlayer(seat, 4) for seat in range(5)}
>>> while game.phase is not Phase.PLAYING:
...     _ = game.apply(next_action(game, bots))
>>> simulation = Simulation(game.view(2), game.rules)
>>> rng = random.Random(1)
>>> layout = simulation.deal(rng)
>>> layout.hands[2] == game.hand(2), [len(h) for h in layout.hands], len(layout.kitty)
(True, [20, 20, 20, 20, 20], 8)
>>> outcome = simulation.playout(layout, rng)
>>> sum(len(cards) for _, cards in outcome.plays), sum(outcome.results)
(100, 0)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from tutor.core.errors import CardCountError, TutorError
from tutor.core.i18n import Text
from tutor.rules.cards import DISTINCT_CARDS, KITTY_SIZE, PACK, PLAYERS, Card, Cards, points
from tutor.rules.combos import shape_of
from tutor.rules.follow import legal_follows, shown_out
from tutor.rules.friend import friend_of, side_of
from tutor.rules.phase import Phase, phase_name
from tutor.rules.refusal import play_refusal
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.scoring import attackers_total, kitty_capture, penalty_change, score_seats
from tutor.rules.throw import check_throw
from tutor.rules.trick import winner_so_far
from tutor.rules.view import SeatView
from tutor.play.rollout import Hand, Move, Tables, cards_of, finish, hand_of

_FULL: Final = Counter(PACK)
_QUICK_TRIES: Final = 8
_KITTY: Final = PLAYERS
"""The kitty, as a sixth place a layout puts cards in."""

Policy = Literal["random", "greedy"]
POLICIES: Final = ("random", "greedy")

Plays = tuple[tuple[int, tuple[Card, ...]], ...]


def _simple(lead: Sequence[Card]) -> bool:
    """True if ``lead`` is a single or a pair: a trick the integers play (:mod:`tutor.play.rollout`)."""
    return len(lead) == 1 or (len(lead) == 2 and lead[0] is lead[1])


@dataclass(frozen=True, slots=True)
class Layout:
    """Where every card not yet played is: each seat's hand, and the buried kitty."""

    hands: tuple[Cards, ...]
    kitty: Cards


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a playout ended: the attackers' total (S4), each seat's result (S1–S3),
    every play made from the start position, in order (``moves``, card indices; ``plays``,
    cards), the seat that took the first
    trick finished (the one in progress, or the one the first play leads), and the
    declarer and friend of the layout played."""

    attackers_points: int
    results: tuple[int, ...]
    moves: tuple[Move, ...]
    trick_winner: int | None = None
    declarer: int | None = None
    friend: int | None = None

    @property
    def plays(self) -> Plays:
        """Every play made, in order: each seat and its cards."""
        return tuple((seat, cards_of(play)) for seat, play in self.moves)


def shown_voids(view: SeatView) -> frozenset[tuple[int, int]]:
    """(seat, effective suit) pairs a seat has shown it is out of: it followed a lead
    of that suit with fewer cards of it than were led (W2, :func:`tutor.rules.follow.shown_out`).

    >>> from tutor.rules.game import Game
    >>> shown_voids(Game(1).view(0))
    frozenset()
    """
    trump = view.trump
    if trump is None:
        return frozenset()
    return frozenset((seat, trump.lane(plays[0][1][0]))
                     for plays in [trick.plays for trick in view.tricks] + [view.trick] if plays
                     for seat in shown_out(plays, trump))


def unseen_cards(view: SeatView) -> Counter[Card]:
    """The cards ``view``'s seat cannot see: not in its hand, not played, not buried by it."""
    left = [2] * len(DISTINCT_CARDS)  # copies of each card not seen, by card index (C1)
    for card in view.hand:
        left[card.index] -= 1
    for trick in view.tricks:
        for _, cards in trick.plays:
            for card in cards:
                left[card.index] -= 1
    for _, cards in view.trick:
        for card in cards:
            left[card.index] -= 1
    for card in view.kitty or ():
        left[card.index] -= 1
    return Counter({DISTINCT_CARDS[index]: count for index, count in enumerate(left) if count > 0})


def unseen_points(view: SeatView) -> int:
    """The points among the cards ``view``'s seat cannot see (C3, :func:`unseen_cards`):
    what is left to win in the other hands and the kitty.

    >>> from tutor.rules.game import Game
    >>> unseen_points(Game(7).view(2))
    200
    """
    return points(unseen_cards(view).elements())


def complete_deal(view: SeatView, rng: random.Random) -> Cards:
    """A whole deal, the 108 cards in dealing order, consistent with ``view`` taken while
    the cards are dealt (D1): the seat's own cards where it was dealt them, each other
    seat's declared 2s and jokers among the cards it has been dealt (D1, shown), the
    other cards at random. :class:`tutor.rules.game.Game` deals card ``i`` to seat ``i % 5``
    and leaves the last 8 as the kitty.

    >>> from tutor.rules.game import Game, Deal
    >>> game = Game(2)
    >>> for _ in range(23):
    ...     _ = game.apply(Deal())
    >>> deck = complete_deal(game.view(1), random.Random(0))
    >>> sorted(deck) == sorted(PACK), sorted(deck[1:23:5]) == sorted(game.hand(1))
    (True, True)
    """
    if not isinstance(view, SeatView):
        raise TutorError(Text("a simulation starts from a seat's view, not {value}", value=type(view).__name__))
    if view.phase is not Phase.DEALING:
        raise TutorError(Text("a deal is completed while the cards are dealt, not in the {phase} phase",
                              phase=phase_name(view.phase)))
    shown: list[Counter[Card]] = [Counter() for _ in range(PLAYERS)]
    for declared in view.declarations:
        if declared.seat != view.seat:
            shown[declared.seat] |= Counter(declared.cards)
    shown[view.seat] = Counter(view.hand)
    dealt = sum(view.hand_sizes)
    unseen = _FULL - sum(shown, Counter())
    if any(sum(known.values()) > size for known, size in zip(shown, view.hand_sizes)) or \
            sum(unseen.values()) != len(PACK) - sum(sum(known.values()) for known in shown):
        raise CardCountError(Text("no deal fits what seat {seat} has seen", seat=view.seat))
    rest = list(unseen.elements())
    rng.shuffle(rest)
    deck: list[Card | None] = [None] * len(PACK)
    for seat, known in enumerate(shown):
        places = list(range(seat, dealt, PLAYERS))
        cards = list(known.elements()) + [rest.pop() for _ in range(len(places) - sum(known.values()))]
        rng.shuffle(cards)
        for place, card in zip(places, cards):
            deck[place] = card
    for place in range(dealt, len(PACK)):
        deck[place] = rest.pop()
    return Cards(card for card in deck if card is not None)


class Simulation:
    """Random playouts of the rest of the hand from ``view`` (its seat's knowledge only).

    ``view`` must be in the playing phase; ``rules`` are the hand's rules.
    """

    def __init__(self, view: SeatView, rules: Ruleset = DEFAULT_RULES) -> None:
        if not isinstance(view, SeatView):
            raise TutorError(Text("a simulation starts from a seat's view, not {value}", value=type(view).__name__))
        if view.phase is not Phase.PLAYING or view.trump is None or view.declarer is None:
            raise TutorError(Text("a simulation starts while the tricks are played, not in the {phase} phase",
                                  phase=phase_name(view.phase)))
        self.view = view
        self.rules = rules
        trump = view.trump
        self._lane = {card: trump.lane(card) for card in _FULL}
        self._unseen = unseen_cards(view)
        self._voids = shown_voids(view)
        self._won = [0] * PLAYERS
        for trick in view.tricks:
            self._won[trick.seat] += trick.points
        self._allowed: set[tuple[Card, ...]] = set()  # the view's seat's plays the rules allow here
        self._kept: tuple[Layout, list[Hand]] | None = None
        self._leader = view.trick[0][0] if view.trick else (view.tricks[-1].seat if view.tricks else view.declarer)
        known = view.solo or view.friend is not None or view.friend_card is None
        # F1: the declarer held exactly one copy of the called card; until it plays it,
        # it still holds it, and never the other copy.
        self._friend_constrained = not known and view.seat != view.declarer
        self._declarer_copies = 0
        if self._friend_constrained:
            played = [seat for trick in view.tricks for seat, cards in trick.plays if view.friend_card in cards]
            played += [seat for seat, cards in view.trick if view.friend_card in cards]
            self._declarer_copies = 0 if view.declarer in played else 1
        self._places = self._where()

    # ------------------------------------------------------------ layouts

    def deal(self, rng: random.Random) -> Layout:
        """A random layout of the unseen cards consistent with the view: every seat gets
        as many cards as it holds, the kitty 8 (unless this seat buried it), no seat a
        card of a suit it has shown it is out of, and the declarer its copy of the
        called card until it plays it.

        The cards some place is closed to are placed first, each at random among the
        places still open to it; the others, shuffled, fill the room left — every layout
        that fits is possible. Where the first cards leave no room for one, they are placed
        one at a time, each only where the rest still fit (:func:`_assign`)."""
        need, bound, free, allowed = self._places
        places = self._empty()
        left = dict(need)
        order = list(bound)
        rng.shuffle(order)
        order.sort(key=lambda card: len(allowed[card]))
        for card in order:
            open_slots = [slot for slot in allowed[card] if left[slot]]
            if not open_slots:
                break
            slot = rng.choice(open_slots)
            places[slot].append(card)
            left[slot] -= 1
        else:
            rest = list(free)
            rng.shuffle(rest)
            at = 0
            for slot, room in left.items():
                places[slot] += rest[at:at + room]
                at += room
            return self._layout(places)
        chosen = _assign(bound + free, need, allowed, rng, quick=0)
        if chosen is None:
            raise TutorError(Text("no layout of the unseen cards fits what seat {seat} has seen", seat=self.view.seat))
        places = self._empty()
        for card, slot in chosen:
            places[slot].append(card)
        return self._layout(places)

    def _empty(self) -> dict[int, list[Card]]:
        """The places of a layout before the unseen cards are dealt: the declarer holding its
        copy of the called card, where it must (F1)."""
        view = self.view
        places: dict[int, list[Card]] = {slot: [] for slot in self._places[0]}
        if self._declarer_copies and view.friend_card is not None:
            assert view.declarer is not None
            places[view.declarer].append(view.friend_card)
        return places

    def _layout(self, places: dict[int, list[Card]]) -> Layout:
        view = self.view
        hands = tuple(Cards(view.hand) if s == view.seat else Cards(places[s]) for s in range(PLAYERS))
        return Layout(hands, Cards(view.kitty) if view.kitty is not None else Cards(places[_KITTY]))

    def _where(self) -> tuple[dict[int, int], list[Card], list[Card], dict[Card, tuple[int, ...]]]:
        """Where the unseen cards may go, worked out once: the room of each place (the other
        seats, and the kitty as a sixth place unless this seat buried it) once the
        declarer's copy of the called card is placed, the cards some place is closed to, the
        others, and the places open to each card."""
        view = self.view
        need = {s: view.hand_sizes[s] for s in range(PLAYERS) if s != view.seat}
        if view.kitty is None:
            need[_KITTY] = KITTY_SIZE
        cards = list(self._unseen.elements())
        if len(cards) != sum(need.values()):
            raise CardCountError(Text("the unseen cards ({count}) do not fill the hands and the kitty ({need})",
                                      count=len(cards), need=sum(need.values())))
        friend = view.friend_card
        buried_friend = self.rules.allow_buried_friend  # F3: else the twin of the called card is not buried
        if self._declarer_copies and friend is not None:
            assert view.declarer is not None
            cards.remove(friend)
            need[view.declarer] -= 1
        every = tuple(need)
        allowed = {card: tuple(s for s in need if s == _KITTY or (s, self._lane[card]) not in self._voids
                               if not (card is friend and self._friend_constrained
                                       and (s == view.declarer or (s == _KITTY and not buried_friend))))
                   for card in dict.fromkeys(cards)}
        bound = [card for card in cards if allowed[card] != every]
        free = [card for card in cards if allowed[card] == every]
        return need, bound, free, allowed

    def check(self, layout: Layout) -> Layout:
        """``layout`` if it fits the view (the seat's own hand and kitty, the card counts,
        exactly the unseen cards); else a clear error."""
        view = self.view
        if not isinstance(layout, Layout) or len(layout.hands) != PLAYERS:
            raise TutorError(Text("a layout gives five hands and the kitty"))
        if Counter(layout.hands[view.seat]) != Counter(view.hand):
            raise CardCountError(Text("the layout gives seat {seat} other cards than it holds", seat=view.seat))
        for seat, hand in enumerate(layout.hands):
            if len(hand) != view.hand_sizes[seat]:
                raise CardCountError(Text("seat {seat} holds {size} cards, not {count}", seat=seat,
                                          size=view.hand_sizes[seat], count=len(hand)))
        if view.kitty is not None and Counter(layout.kitty) != Counter(view.kitty):
            raise CardCountError(Text("the layout's kitty is not the one seat {seat} buried", seat=view.seat))
        placed = Counter(layout.kitty) if view.kitty is None else Counter()
        for seat, hand in enumerate(layout.hands):
            if seat != view.seat:
                placed.update(hand)
        if placed != self._unseen:
            raise CardCountError(Text("the layout's hands and kitty are not the cards seat {seat} cannot see",
                                      seat=view.seat))
        return layout

    # ------------------------------------------------------------ playouts

    def playout(self, layout: Layout, rng: random.Random, first: Sequence[Card] | None = None,
                policy: Policy = "random") -> Outcome:
        """Play the hand out from the view with ``layout`` (see :meth:`check`), every seat
        playing by ``policy`` (``"random"`` or ``"greedy"``, see the module) within the rules;
        ``first``: the next play of the seat to act (a search's candidate), checked by the
        rules module.

        The plays the rules module makes on cards — the candidate, a failed throw's forced
        play, the follows to a trick led by a tractor or a throw — come first; every trick
        led by a single or a pair (all the others) is played on small integers
        (:func:`tutor.play.rollout.finish`)."""
        if policy not in POLICIES:
            raise TutorError(Text("a playout's policy is one of {names}, not {value}",
                                  names=", ".join(POLICIES), value=repr(policy)[:40]))
        view, rules = self.view, self.rules
        trump = view.trump
        assert trump is not None and view.declarer is not None
        won = list(self._won)
        penalty = view.penalty_adjustment
        declarer = view.declarer
        friend = self._friend_of(layout)
        sides = [side_of(s, declarer, friend) != "attacker" for s in range(PLAYERS)]  # the declarer's side?
        trick = list(view.trick)
        leader = self._leader
        moves: list[Move] = []
        forced = view.forced_options
        last: tuple[tuple[Card, ...], tuple[Card, ...], int] | None = None
        first_winner: int | None = None
        tables = Tables.of(trump)
        seat = (leader + len(trick)) % PLAYERS
        if first is not None:
            first = self._first(layout.hands[seat], seat, tuple(first), trick, forced)
        if first is not None and (_simple(trick[0][1]) if trick else _simple(first)):
            # a candidate single or pair, or a follow to one: played on integers at once
            hands = self._hands(layout, tables)
            for card in first:
                hands[seat][tables.lanes[card.index]].remove(card.index)
            trick.append((seat, tuple(first)))
            moves.append((seat, tuple(card.index for card in first)))
            sizes = [len(cards) for cards in layout.hands]
            sizes[seat] -= len(first)
        elif first is None and not forced and (not trick or _simple(trick[0][1])):
            hands = self._hands(layout, tables)
            sizes = [len(cards) for cards in layout.hands]
        else:  # the rules module plays on cards until the trick led otherwise is over
            held = [list(hand) for hand in layout.hands]
            while first is not None or (forced and not trick) or (trick and not _simple(trick[0][1])):
                seat = (leader + len(trick)) % PLAYERS
                play: tuple[Card, ...]
                if first is not None:
                    play, first = first, None
                    if not trick and len(play) > 1 and not forced and shape_of(play, trump).is_throw:
                        others = [held[s] for s in range(PLAYERS) if s != seat]
                        result = check_throw(play, others, trump, rules=rules)
                        if not result.ok:
                            penalty += penalty_change(result.penalty, side_of(seat, declarer, friend), rules)
                            play = rng.choice(result.options)
                elif not trick:
                    play = rng.choice(forced)
                else:
                    play = tuple(legal_follows(held[seat], trick[0][1], trump, rules=rules).random(rng))
                forced = ()
                for card in play:
                    held[seat].remove(card)
                trick.append((seat, play))
                moves.append((seat, tuple(card.index for card in play)))
                if len(trick) == PLAYERS:
                    winner = winner_so_far([cards for _, cards in trick], trump)  # B1, T6, W6
                    won[trick[winner][0]] += sum(card.points for _, cards in trick for card in cards)
                    last = (trick[0][1], trick[winner][1], trick[winner][0])
                    if first_winner is None:
                        first_winner = last[2]
                    leader = last[2]
                    trick = []
            hands = [hand_of(cards, tables.lanes) for cards in held]
            sizes = [len(cards) for cards in held]
        lead, win, winner, first_done = finish(
            tables, hands, sizes, leader, [(seat, tuple(c.index for c in cards)) for seat, cards in trick], won,
            sides, policy == "greedy", rng, moves)
        if lead:
            last = (cards_of(lead), cards_of(win), winner)
        if first_winner is None:
            first_winner = first_done
        capture = kitty_capture(layout.kitty, last[0], last[1], trump, won_by=side_of(last[2], declarer, friend),
                                rules=rules) if last else None  # X1–X2
        attackers = attackers_total(won, declarer, friend, capture=capture.points if capture else 0, penalties=penalty)
        _, results = score_seats(attackers, declarer=declarer, friend=friend, solo=view.solo,
                                 declarations=view.declaration_count)
        return Outcome(attackers, results, tuple(moves), first_winner, declarer, friend)

    def _friend_of(self, layout: Layout) -> int | None:
        """The friend in ``layout``: the seat other than the declarer that holds the called
        card (F2, :func:`tutor.rules.friend.friend_of`); None in a solo, or if the card's
        twin is buried (F3 variant). Had another seat played it, the view would know the
        friend (F6)."""
        view = self.view
        if view.solo or view.friend_card is None or view.declarer is None:
            return None
        if view.friend is not None:
            return view.friend
        return friend_of(view.friend_card, view.declarer, layout.hands)

    def _first(self, hand: Sequence[Card], seat: int, play: tuple[Card, ...],
               trick: list[tuple[int, tuple[Card, ...]]], forced: tuple[tuple[Card, ...], ...]) -> tuple[Card, ...]:
        """The candidate ``play`` if the rules allow it (:func:`tutor.rules.refusal.play_refusal`),
        else a clear error. The view's own seat's plays, asked again and again by a search,
        are checked once."""
        own = seat == self.view.seat
        if own and play in self._allowed:
            return play
        trump = self.view.trump
        assert trump is not None
        refusal = play_refusal(list(hand), trick, forced, play, trump, self.rules)
        if refusal is not None:
            raise TutorError(refusal.reason)
        if own:
            self._allowed.add(play)
        return play

    def _hands(self, layout: Layout, tables: Tables) -> list[Hand]:
        """The hands of ``layout`` on integers (:func:`tutor.play.rollout.hand_of`): made once
        for the layout a search plays each candidate in, then copied."""
        kept = self._kept
        if kept is None or kept[0] is not layout:
            kept = self._kept = (layout, [hand_of(cards, tables.lanes) for cards in layout.hands])
        return [[list(cards) for cards in hand] for hand in kept[1]]


def _assign(cards: list[Card], room: dict[int, int], allowed: dict[Card, tuple[int, ...]],
            rng: random.Random, quick: int = _QUICK_TRIES) -> list[tuple[Card, int]] | None:
    """Each card given a place among its ``allowed`` ones, filling every place's ``room``
    exactly, at random; None if no such assignment exists.

    A quick random fill (the most constrained cards first) usually succeeds; when the
    places are tight it falls back to placing one card at a time, each only where the
    rest can still be placed (:func:`_fits`), which succeeds whenever any layout does
    (``quick=0`` goes there at once).

    >>> from tutor.rules.notation import parse_cards
    >>> a, b = parse_cards("♠A ♥3")
    >>> sorted(slot for _, slot in _assign([a, b], {0: 1, 1: 1}, {a: (0,), b: (0, 1)}, random.Random(0)))
    [0, 1]
    >>> _assign([a, b], {0: 2, 1: 0}, {a: (1,), b: (0, 1)}, random.Random(0)) is None
    True

    A ring of four places, each card allowed in two neighbours: a random fill rarely
    fits, the careful one always does.

    >>> ring = parse_cards("♠3 ♠4 ♠5 ♠6 ♥3 ♥4 ♥5 ♥6 ♣3 ♣4 ♣5 ♣6 ♦3 ♦4 ♦5 ♦6")
    >>> allowed = {card: (i // 4, (i // 4 + 1) % 4) for i, card in enumerate(ring)}
    >>> for seed in range(50):
    ...     placed = _assign(list(ring), {0: 4, 1: 4, 2: 4, 3: 4}, allowed, random.Random(seed), quick=0)
    ...     assert Counter(slot for _, slot in placed) == {0: 4, 1: 4, 2: 4, 3: 4}
    ...     assert all(slot in allowed[card] for card, slot in placed)
    """
    order = list(cards)
    for _ in range(quick):
        rng.shuffle(order)
        order.sort(key=lambda card: len(allowed[card]))
        left = dict(room)
        placed = []
        for card in order:
            open_slots = [s for s in allowed[card] if left[s]]
            if not open_slots:
                break
            slot = rng.choice(open_slots)
            placed.append((card, slot))
            left[slot] -= 1
        else:
            return placed
    left = dict(room)
    kinds = Counter(allowed[card] for card in cards)
    if not _fits(kinds, left):
        return None
    rng.shuffle(order)
    placed = []
    for card in order:
        kind = allowed[card]
        kinds[kind] -= 1
        slots = [s for s in kind if left[s]]
        rng.shuffle(slots)
        for slot in slots:
            left[slot] -= 1
            if _fits(kinds, left):
                break
            left[slot] += 1
        else:  # cannot happen: the cards fitted before this one was placed
            return None
        placed.append((card, slot))
    return placed


def _fits(kinds: Counter[tuple[int, ...]], left: dict[int, int]) -> bool:
    """True if cards of these kinds (each kind a tuple of the places it may go) can fill
    places with ``left`` room: for every set of places, the cards that may go nowhere
    else fit in its room (Hall's condition, with room)."""
    slots = list(left)
    for mask in range(1, 1 << len(slots)):
        inside = {slots[i] for i in range(len(slots)) if mask >> i & 1}
        must = sum(count for kind, count in kinds.items() if count and inside.issuperset(kind))
        if must > sum(left[s] for s in inside):
            return False
    return True

