"""Computer players: legal and sensible, seeing only what their seat may see.

At level 1 they declare with strong trumps, bury weak short suits, call a side-suit
ace, lead what surely wins (throwing only what cannot be beaten), win tricks that hold
points, feed points to a known partner and keep their trumps for ruffing. Higher
levels (:data:`LEVELS`) weigh every play they may make by searching
(:func:`tutor.play.search.search`): the unseen cards dealt many times at random as the
seat's view allows, each play played out to the end of the hand and scored (S1).

>>> from tutor.rules.game import Phase
>>> game = play_computer_hand(5)
>>> game.phase is Phase.FINISHED and sum(game.results) == 0
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import Final

from tutor.core.arguments import instance, seat as check_seat, whole
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text
from tutor.play.search import Found, edge, search, weigh_buries, weigh_calls
from tutor.play.rollout import Tables
from tutor.play.simulation import unseen_cards
from tutor.rules.actions import Action, Bury, Call, CloseDeal, Deal, Declare, Play, Solo
from tutor.rules.cards import DISTINCT_CARDS, KITTY_SIZE, PLAYERS, Card
from tutor.rules.combos import pair_runs, shape_of
from tutor.rules.events import Dealt, Declared
from tutor.rules.follow import follow_position, legal_follows
from tutor.rules.friend import nameable_cards
from tutor.rules.game import Game
from tutor.rules.order import TRUMP, Trump
from tutor.rules.phase import Phase, phase_name
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.trick import beats, winner_so_far
from tutor.rules.view import SeatView


@dataclass(frozen=True, slots=True)
class Level:
    """How hard a computer player thinks: the layouts a search deals for each play
    (0: no search, the heuristics alone), its default think-time in CPU seconds, and
    how sure the search must be (in standard errors) to play other than the
    heuristics would."""

    layouts: int
    think: float
    sureness: float


LEVEL_SETTINGS: Final = {1: Level(0, 0.0, 0.0), 2: Level(12, 0.1, 1.0), 3: Level(60, 0.25, 1.0)}
LEVELS: Final = tuple(LEVEL_SETTINGS)
"""The computer players' levels, weakest first: 1 plays by heuristics, the others search."""


class NoComputerPlayerError(TutorError):
    """Nobody at a table of computer players can take the next action: the hand is over,
    or the seat to act has no computer player.

    >>> next_action(play_computer_hand(5), {})
    Traceback (most recent call last):
    ...
    tutor.play.strategy.NoComputerPlayerError: no computer player can act: nobody is to act in the finished phase
    """


class ComputerPlayer:
    """A computer player for one seat; its choices depend only on its seat's view
    and its own seeded random generator."""

    def __init__(self, seat: int, seed: int = 0, rules: Ruleset = DEFAULT_RULES, level: int = 1,
                 think: float | None = None) -> None:
        self.seat = check_seat(seat)
        self.rules = instance(rules, Ruleset, "rules")
        whole(seed, "seed", low=0)
        if type(level) is not int or level not in LEVEL_SETTINGS:
            raise TutorError(Text("a computer player's level is one of {levels}, not {value}",
                                  levels=", ".join(map(str, LEVELS)), value=repr(level)[:40]))
        if think is not None and (isinstance(think, bool) or not isinstance(think, (int, float))
                                  or not 0 < think <= MAX_THINK):
            raise TutorError(Text("a think-time is more than 0 and at most {most} seconds, not {value}",
                                  most=MAX_THINK, value=repr(think)[:40]))
        self.level = level
        self.think = LEVEL_SETTINGS[level].think if think is None else float(think)
        self.rng = random.Random(f"computer-{seed}-{seat}")
        self.search_rng = random.Random(f"search-{seed}-{seat}")
        self.last_search: Found | None = None

    # ---------------------------------------------------------- phases

    def declaration(self, view: SeatView) -> Declare | None:
        """Declare or overturn when the cards so far make a strong trump (D1–D3): the
        strongest of :meth:`declarations` that reaches level 1's bar. Every level declares
        so: weighing a declaration by search (:func:`tutor.play.search.weigh_declarations`)
        gained nothing measurable (``benchmarks/declaring.py``)."""
        ready = [(strength, cards) for strength, need, cards in self.declarations(view) if strength >= need]
        choice = max(ready, key=lambda option: option[0], default=None)
        return Declare(self.seat, choice[1]) if choice else None

    def declarations(self, view: SeatView) -> list[tuple[float, float, tuple[Card, ...]]]:
        """Each declaration or overturn open to the seat once it holds 5 cards (the rules'
        :meth:`tutor.rules.view.SeatView.declaration_options`, D1–D3), as (strength, need,
        cards): the share of its cards the trump would make trumps, and the share level 1
        wants before it declares (more to overturn, more for no-trump). Listed in the order
        the seat holds the cards, a pair before its single: where two tie, the first is shown."""
        hand = view.hand
        if len(hand) < DECLARES_FROM:
            return []
        first = {card: index for index, card in reversed(list(enumerate(hand)))}
        overturn = bool(view.declarations)
        options: list[tuple[float, float, tuple[Card, ...]]] = []
        for cards in sorted(view.declaration_options(), key=lambda cards: (first[cards[0]], -len(cards))):
            trump = Trump(cards[0].suit)
            strength = sum(1 for c in hand if trump.is_trump(c)) / len(hand)
            need = declaring_share(overturn=overturn, no_trump=cards[0].suit is None)
            options.append((strength, need, cards))
        return options

    def bury(self, view: SeatView) -> Bury:
        """Bury 8 cards (K1): the weakest, emptying short side suits, keeping points; above
        level 1, that bury weighed against emptying each other short side suit and against
        burying no points, each with the call it leads to, played out from the first lead
        (:func:`weigh_buries`)."""
        ranked = self._bury_ranking(view)
        choice = tuple(ranked[:KITTY_SIZE])
        settings = LEVEL_SETTINGS[self.level]
        if not settings.layouts:
            return Bury(self.seat, choice)
        trump = view.trump
        assert trump is not None
        options = [choice]
        lanes = Counter(trump.lane(c) for c in ranked)
        for lane in sorted((lane for lane in lanes if lane != TRUMP and lanes[lane] <= KITTY_SIZE),
                           key=lambda lane: lanes[lane])[:3]:  # empty this side suit, then the weakest
            options.append(tuple([c for c in ranked if trump.lane(c) == lane]
                                 + [c for c in ranked if trump.lane(c) != lane])[:KITTY_SIZE])
        pointless = [c for c in ranked if not c.points]
        if len(pointless) >= KITTY_SIZE:
            options.append(tuple(pointless[:KITTY_SIZE]))
        buries = list({tuple(sorted(option, key=lambda c: c.index)): option for option in options}.values())
        if len(buries) == 1:
            return Bury(self.seat, choice)
        calls = []
        for bury in buries:
            rest = tuple((Counter(view.hand) - Counter(bury)).elements())
            call = self._heuristic_call(replace(view, phase=Phase.CALLING, hand=rest, kitty=bury))
            calls.append(call.card if isinstance(call, Call) else None)
        results = weigh_buries(view, list(zip(buries, calls)), self.rules, rng=self.search_rng,
                               layouts=settings.layouts, think=self.think)
        best = max(range(len(buries)), key=lambda i: sum(results[i]))
        return Bury(self.seat, buries[best] if best and self._sure_enough(results[best], results[0]) else choice)

    @staticmethod
    def _bury_ranking(view: SeatView) -> list[Card]:
        """The declarer's 28 cards, the first to bury first: low side cards of short
        suits, keeping aces, pairs, points and trumps."""
        trump = view.trump
        assert trump is not None
        hand = list(view.hand)
        counts = Counter(hand)
        lengths = Counter(trump.lane(c) for c in hand)

        def keep_value(card: Card) -> float:
            lane = trump.lane(card)
            if lane == TRUMP:
                return 100 + trump.order(card)
            value = float(trump.order(card)) + (25 if counts[card] == 2 else 0) + (15 if card.rank == 14 else 0)
            value += 3 * lengths[lane] + 6 * card.points / 5
            return value

        return sorted(hand, key=keep_value)

    def call(self, view: SeatView) -> Call | Solo:
        """Call the friend or go solo (F1–F5): by the heuristics, and above level 1 by
        weighing their choice, the other aces and kings held once, the top trumps held
        once and a solo, each played out from the first lead (:func:`weigh_calls`)."""
        choice = self._heuristic_call(view)
        settings = LEVEL_SETTINGS[self.level]
        trump = view.trump
        if not settings.layouts or trump is None or view.kitty is None:
            return choice
        nameable = nameable_cards(view.hand, view.kitty, self.rules)
        if not nameable:
            return choice  # F4: the hand is a solo
        first: Card | None = choice.card if isinstance(choice, Call) else None
        others = sorted((c for c in nameable if c.rank in (13, 14) or c.suit is None),
                        key=lambda c: -trump.order(c))
        calls = list(dict.fromkeys([first, *others[:5], None]))
        results = weigh_calls(view, calls, self.rules, rng=self.search_rng, layouts=settings.layouts,
                              think=self.think)
        best = max(range(len(calls)), key=lambda i: sum(results[i]))
        if best == 0 or not self._sure_enough(results[best], results[0]):
            return choice
        card = calls[best]
        return Solo(self.seat) if card is None else Call(self.seat, card)

    def _heuristic_call(self, view: SeatView) -> Call | Solo:
        """Level 1's call among the cards the rules let it name (F1, F3:
        :func:`tutor.rules.friend.nameable_cards`): a side-suit ace held once (its twin's
        holder is a strong friend), a card whose twin it buried (no friend at all) only
        when it has no other; solo only with an overwhelming hand, or nothing to name (F4, F5)."""
        trump = view.trump
        assert trump is not None and view.kitty is not None
        buried = set(view.kitty)
        nameable = nameable_cards(view.hand, buried, self.rules)
        trumps = sum(1 for c in view.hand if trump.is_trump(c))
        if trumps >= 15 or not nameable:
            return Solo(self.seat)

        def preference(card: Card) -> tuple[bool, int, int]:
            side = not trump.is_trump(card)
            return (card not in buried, 2 if side and card.rank == 14 else 1 if side and card.rank == 13 else 0,
                    trump.order(card))

        return Call(self.seat, max(nameable, key=preference))

    def play(self, view: SeatView) -> Play:
        """Lead or follow (L1–L5, W0–W5): by the heuristics, and above level 1 by a
        search that starts from their choice (:attr:`last_search` keeps what it found)."""
        choice = self._heuristic_play(view)
        settings = LEVEL_SETTINGS[self.level]
        self.last_search = None
        if not settings.layouts:
            return choice
        found = search(view, self.rules, rng=self.search_rng, layouts=settings.layouts, think=self.think,
                       include=(choice.cards,))
        self.last_search = found
        if len(found.values) == 1:
            return choice
        mine = found.value_of(choice.cards)
        assert mine is not None
        return Play(self.seat, found.best.play) if self._sure_enough(found.best.results, mine.results) else choice

    def _sure_enough(self, better: Sequence[int], heuristic: Sequence[int]) -> bool:
        """True if the search is sure enough, at this level (:attr:`Level.sureness`), that
        the results ``better`` beat the heuristic choice's, on the same layouts, to play
        other than the heuristics would."""
        gain, error = edge(better, heuristic)
        return gain > LEVEL_SETTINGS[self.level].sureness * error

    def _heuristic_play(self, view: SeatView) -> Play:
        """Level 1's play."""
        if view.forced_options:
            return Play(self.seat, min(view.forced_options, key=lambda o: (len(o), self._cost(view, o))))
        if not view.trick:
            return Play(self.seat, self._lead(view))
        return Play(self.seat, self._follow(view))

    def act(self, view: SeatView) -> Action | None:
        """The action this seat takes now, or None if it is not this seat's turn
        (while dealing: a declaration, or None)."""
        if view.phase is Phase.DEALING:
            return self.declaration(view)
        if view.actor != self.seat:
            return None
        if view.phase is Phase.BURYING:
            return self.bury(view)
        if view.phase is Phase.CALLING:
            return self.call(view)
        return self.play(view)

    # ---------------------------------------------------------- leading

    def _lead(self, view: SeatView) -> tuple[Card, ...]:
        trump = view.trump
        assert trump is not None
        hand = view.hand
        unseen = unseen_cards(view)
        by_lane: dict[int, list[Card]] = {}
        for card in hand:
            by_lane.setdefault(trump.lane(card), []).append(card)
        winners: list[tuple[float, tuple[Card, ...]]] = []
        for lane, cards in by_lane.items():
            sure = [c.cards for c in shape_of(cards, trump).components if self._sure(c.cards, lane, unseen, trump)]
            if len(sure) > 1 and (lane != TRUMP or len(cards) == len(sure)):
                throw = tuple(c for combo in sure for c in combo)
                winners.append((2.0 + len(throw) + 0.1 * sum(c.points for c in throw), throw))
            for combo in sure:
                weight = 1.0 + len(combo) + 0.2 * sum(c.points for c in combo) - (1.5 if lane == TRUMP else 0)
                winners.append((weight, combo))
        if winners:
            return max(winners, key=lambda w: w[0])[1]
        declarer_side = view.side != "attacker"  # a seat knows its own side (F2)
        trumps = by_lane.get(TRUMP, [])
        if declarer_side and len(trumps) * 2 > len(hand) and trumps:
            runs = pair_runs(trumps, trump)
            if runs:
                low = runs[-1][-1]
                return (low, low)
        side = [(lane, cards) for lane, cards in by_lane.items() if lane != TRUMP]
        if side:
            lane, cards = min(side, key=lambda lc: (len(lc[1]), -max(trump.order(c) for c in lc[1])))
            safe = [c for c in cards if not c.points] or cards
            return (min(safe, key=trump.order),)
        return (min(hand, key=lambda c: (c.points, trump.order(c))),)

    @staticmethod
    def _sure(combo: Sequence[Card], lane: int, unseen: Counter[Card], trump: Trump) -> bool:
        """True if no unseen cards can beat ``combo`` in its own suit (L3): :func:`sure_in_suit`."""
        return sure_in_suit(combo, lane, unseen, trump)

    # ---------------------------------------------------------- following

    def _candidates(self, view: SeatView) -> list[tuple[Card, ...]]:
        trump = view.trump
        assert trump is not None
        lead = view.trick[0][1]
        if len(lead) == 1:  # a single led: the rules' own list, each card once (W1, W2)
            return [(card,) for card in follow_position(view.hand, lead, trump, self.rules).single_follows()]
        follows = legal_follows(view.hand, lead, trump, rules=self.rules)
        candidates = list(islice(follows, 120))
        if len(candidates) == 120:
            candidates += [follows.random(self.rng) for _ in range(40)]
            n = len(lead)
            lane = shape_of(lead, trump).lane
            suit = [c for c in view.hand if trump.lane(c) == lane]
            rest = sorted((c for c in view.hand if trump.lane(c) != lane), key=lambda c: (c.points, trump.order(c)))
            trumps = sorted((c for c in rest if trump.is_trump(c)), key=trump.order)
            for extra in (rest, trumps, sorted(rest, key=lambda c: -c.points)):
                play = tuple(suit[:n]) + tuple(extra[: n - len(suit[:n])])
                if len(play) == n and play in follows:
                    candidates.append(play)
        return list(dict.fromkeys(tuple(sorted(c, key=lambda card: card.index)) for c in candidates))

    def _cost(self, view: SeatView, play: Sequence[Card]) -> float:
        """What giving up ``play`` costs: its cards' orders, a trump's 30 more (:attr:`Tables.costs
        <tutor.play.rollout.Tables.costs>`, the greedy playouts' own)."""
        assert view.trump is not None
        costs = Tables.of(view.trump).costs
        return sum(costs[c.index] for c in play)

    def _follow(self, view: SeatView) -> tuple[Card, ...]:
        trump = view.trump
        assert trump is not None
        partners, _ = view.known_sides()  # as far as this seat knows (F2, F6)
        plays = [cards for _, cards in view.trick]
        current = winner_so_far(plays, trump)  # plays the rules allowed: not checked again
        winner_seat = view.trick[current][0]
        last = len(view.trick) == PLAYERS - 1
        trick_points = sum(c.points for cards in plays for c in cards)
        options = []
        # a play wins if it beats the play winning so far, measured against the lead (W5, T6)
        contest = [plays[0]] if current == 0 else [plays[0], plays[current]]
        lead, top = plays[0], plays[current][0]
        simple = len(lead) == 1 or (len(lead) == 2 and lead[0] is lead[1])  # a single or a pair led
        costs = Tables.of(trump).costs  # as self._cost
        for play in self._candidates(view):
            # a single (pair) wins if it beats the one winning so far: winner_so_far's step
            wins = (len(play) == 1 or play[0] is play[1]) and beats(play[0], top, trump) if simple else \
                winner_so_far(contest + [play], trump) == len(contest)
            options.append((play, wins, sum(c.points for c in play), sum(costs[c.index] for c in play)))
        if winner_seat in partners and (last or self._holds(view, plays[current], current)):
            return max(options, key=lambda o: (not o[1], o[2], -o[3]))[0]
        winning = [o for o in options if o[1]]
        if winning and (trick_points + max(o[2] for o in winning) > 0 or last):
            if last:
                return min(winning, key=lambda o: (o[3] - 2 * o[2]))[0]
            return max(winning, key=lambda o: (o[3] > 0, -o[3] + 3 * o[2]))[0] if trick_points >= 10 \
                else min(winning, key=lambda o: o[3] - 2 * o[2])[0]
        unknown_or_opponent = winner_seat not in partners
        return min(options, key=lambda o: (o[2] if unknown_or_opponent else -o[2], o[3]))[0]

    @staticmethod
    def _holds(view: SeatView, play: Sequence[Card], index: int) -> bool:
        """Rough guess that the current winning play will stand: it is a trump or a top card."""
        trump = view.trump
        assert trump is not None
        return all(trump.is_trump(c) or trump.order(c) >= 13 for c in play)


DECLARES_FROM: Final = 5
"""A computer player weighs a declaration once it holds this many cards (:meth:`ComputerPlayer.declarations`)."""


def declaring_share(*, overturn: bool, no_trump: bool) -> float:
    """The share of its cards a computer player wants the trump to make trumps before it
    declares (D1): a third, more to overturn a declaration (D3), more for no-trump (D4)
    (:meth:`ComputerPlayer.declarations`' ``need``).

    >>> declaring_share(overturn=False, no_trump=False), declaring_share(overturn=True, no_trump=True)
    (0.34, 0.47)
    """
    return (0.42 if overturn else 0.34) + (0.05 if no_trump else 0.0)


def trumps_to_declare(held: int, *, overturn: bool, no_trump: bool) -> int:
    """The fewest trumps among ``held`` cards with which a computer player declares
    (:func:`declaring_share`): the same comparison :meth:`ComputerPlayer.declaration` makes.

    >>> trumps_to_declare(12, overturn=False, no_trump=False), trumps_to_declare(12, overturn=True, no_trump=False)
    (5, 6)
    """
    need = declaring_share(overturn=overturn, no_trump=no_trump)
    return next(count for count in range(held + 1) if count / held >= need) if held else 0


def sure_in_suit(combo: Sequence[Card], lane: int, unseen: Counter[Card], trump: Trump) -> bool:
    """True if no ``unseen`` cards can beat ``combo`` (a single, a pair or a tractor of the
    effective suit ``lane``) in its own suit (L3): for a single, no higher card of the suit
    is unseen; for a pair or a tractor, no higher card of the suit is unseen in both copies.
    (A side suit can still be ruffed, R1.)

    >>> from tutor.rules.notation import parse_cards as p
    >>> unseen = Counter(p("♠K ♠K ♠Q"))
    >>> sure_in_suit(p("♠A"), 0, unseen, Trump("♥")), sure_in_suit(p("♠Q"), 0, unseen, Trump("♥"))
    (True, False)
    """
    orders = trump.orders
    top = max(orders[c.index] for c in combo)
    need = 1 if len(combo) == 1 else 2  # a higher single; a higher pair (both copies unseen)
    for index in Tables.of(trump).ranked[lane]:  # the suit's cards, highest first
        if orders[index] <= top:
            return True
        if unseen.get(DISTINCT_CARDS[index], 0) >= need:
            return False
    return True


MAX_THINK: Final = 10.0
"""The longest think-time a caller may give a computer player, in seconds."""


def check_level(level: object) -> int:
    """The computer players' level a caller gives for the opponents at the table or in a
    hand file: one of :data:`LEVELS`, else a clear error.

    >>> check_level(3)
    3
    """
    if type(level) is not int or level not in LEVELS:
        raise TutorError(Text("the opponents' level is one of {levels}, not {value}",
                              levels=", ".join(map(str, LEVELS)), value=shown(level)))
    return level


def computer_hand(seed: int, until: Phase = Phase.PLAYING, tricks: int = 0, *, turn: int | None = None,
                  rules: Ruleset = DEFAULT_RULES,
                  players: dict[int, ComputerPlayer] | None = None) -> tuple[Game, dict[int, ComputerPlayer]]:
    """A hand from deal ``seed`` played by computer players (``players``, else level 1 in
    every seat) to the ``until`` phase and ``tricks`` tricks into it — with ``turn``, on
    until that seat is to act — (or to its end), and those players, to go on.

    >>> game, bots = computer_hand(4, tricks=6)
    >>> game.phase is Phase.PLAYING, len(game.tricks), sorted(bots)
    (True, 6, [0, 1, 2, 3, 4])
    >>> computer_hand(4, tricks=8, turn=1)[0].actor
    1
    """
    game = Game(seed, rules)
    bots = players or {seat: ComputerPlayer(seat, seed, rules) for seat in range(PLAYERS)}
    while game.phase is not Phase.FINISHED and (game.phase is not until or len(game.tricks) < tricks):
        game.apply(next_action(game, bots))
    if turn is not None:
        check_seat(turn)
        while game.phase is not Phase.FINISHED and game.actor != turn:
            game.apply(next_action(game, bots))
    return game, bots


def play_computer_hand(seed: int, *, rules: Ruleset = DEFAULT_RULES,
                       players: dict[int, ComputerPlayer] | None = None) -> Game:
    """A complete hand with computer players in every seat (or those given)."""
    return computer_hand(seed, Phase.FINISHED, rules=rules, players=players)[0]


def next_action(game: Game, bots: dict[int, ComputerPlayer]) -> Action:
    """The next action of a table of computer players (and the deal's chance steps):
    while dealing, the seat just dealt a card (every seat, after a declaration) may
    declare; after that, the actor acts."""
    seat = game.actor
    if seat is None and game.phase is Phase.DEALING:
        last = game.last_event
        recent = last.results[-1] if last is not None else None
        asked = range(PLAYERS) if isinstance(recent, Declared) else [recent.seat] if isinstance(recent, Dealt) else []
        for asked_seat in asked:
            if asked_seat in bots and game.declaration_options(asked_seat):  # else it cannot declare at all
                declared = bots[asked_seat].declaration(game.view(asked_seat))
                if declared is not None:
                    return declared
        return CloseDeal() if game.all_dealt else Deal()
    if seat is None:
        raise NoComputerPlayerError(Text("no computer player can act: nobody is to act in the {phase} phase",
                                         phase=phase_name(game.phase)))
    bot = bots.get(seat)
    if bot is None:
        raise NoComputerPlayerError(Text("no computer player can act: seat {seat} is to act in the {phase} phase, "
                                         "and it has no computer player", seat=seat, phase=phase_name(game.phase)))
    action = bot.act(game.view(bot.seat))
    if action is None:  # pragma: no cover - a computer player acts whenever its seat is the actor
        raise NoComputerPlayerError(Text("no computer player can act: seat {seat}'s computer player took no "
                                         "action in the {phase} phase", seat=seat, phase=phase_name(game.phase)))
    return action
