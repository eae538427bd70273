"""One home for every rule fact: the game, the playouts of a search, the computer players
and the search ask one function of :mod:`tutor.rules` for each fact, and every one of them
gives the answer of the rule book under EVERY ruleset: the product of the options of
:class:`tutor.rules.ruleset.Ruleset` (each choice of each ``Literal``, both ``bool`` values,
two values of each number), over seeded hands played by computer and random players.

The answers the callers are held to are worked out here, independently of the code under
test: tables written from RULES.md (the kitty multiplier X2, the failed-throw penalty L5,
the sides F2, F5, F6, the score S1–S4), who may be called as the game refuses it (F1, F3),
the declarations the game accepts (D1–D3, through its own check of a declaration), and a
small trick-winner of the book's for singles and pairs (B1, R1, T6, W6). Each test that
checks a caller was seen to fail when that caller was changed to get its fact wrong.
"""

from __future__ import annotations

import random
import typing
from collections import Counter
from dataclasses import fields
from functools import cache
from itertools import product
from typing import get_args

import pytest

import tutor.play.strategy as strategy
from tutor.core.arguments import MAX_SEED
from tutor.core.errors import IllegalActionError, TutorError
from tutor.play.bots import random_action
from tutor.play.record import MAX_CHARS, HandFileError, export_hand, import_hand, read_hand
from tutor.play.search import weigh_calls
from tutor.play.simulation import Layout, Simulation
from tutor.play.strategy import ComputerPlayer, NoComputerPlayerError, next_action
from tutor.rules import actions, events, phase, view
from tutor.rules.actions import Bury, Call, CloseDeal, Deal, Declare, Play, Solo
from tutor.rules.cards import DISTINCT_CARDS, PACK, PLAYERS, Card
from tutor.rules.combos import shape_of
from tutor.rules.events import DeclarerChosen, FriendCalled, KittyCaptured, SoloDeclared, ThrowFailed
from tutor.rules.friend import known_sides, nameable_cards, same_side, side_of
from tutor.rules.game import Game
from tutor.rules.notation import parse_cards
from tutor.rules.order import Trump
from tutor.rules.phase import Phase
from tutor.rules.ruleset import Ruleset
from tutor.rules.scoring import kitty_capture, kitty_multiplier, penalty_change, score_hand, throw_penalty
from tutor.rules.throw import check_throw
from tutor.rules.trick import beats, explain_trick, winner_so_far

NUMBERS = {"flip_declarations": (1, 2), "penalty_per_card": (5, 10)}
"""Two values of each number option (the default first)."""

RULESET_OPTIONS = ("flip_declarations", "allow_buried_friend", "failed_throw_lead", "penalty_per_card",
                   "penalty_to_declarers", "throw_follow_duty", "kitty_pairs_from", "declare_after_deal")
"""The options of the ruleset, one for each **[reading]** of RULES.md: a new one is added here
and to the tables below, which say what the book makes of it."""


def _choices(name: str, kind: object) -> tuple[object, ...]:
    if kind is bool:
        return (False, True)
    if kind is int:
        return NUMBERS[name]
    return get_args(kind)


HINTS = typing.get_type_hints(Ruleset)
OPTIONS = {field.name: _choices(field.name, HINTS[field.name]) for field in fields(Ruleset)}
VARIANTS = tuple(Ruleset(**dict(zip(OPTIONS, values))) for values in product(*OPTIONS.values()))  # type: ignore[arg-type]


def test_the_variants_are_every_ruleset():
    """Every option of the ruleset is varied, over every value it accepts: 8 options of two
    values each (a new option, or a new value, fails here until the tables know it)."""
    assert tuple(OPTIONS) == RULESET_OPTIONS
    assert len(set(VARIANTS)) == 2 ** 8 and Ruleset() in VARIANTS
    for name, choices in OPTIONS.items():
        assert {getattr(rules, name) for rules in VARIANTS} == set(choices), name
        if HINTS[name] not in (bool, int):  # a Literal: the ruleset takes its values and no other
            with pytest.raises(TutorError, match=name):
                Ruleset(**{name: "none of these"})  # type: ignore[arg-type]


@cache
def _hand(index: int) -> Game:
    """A whole hand under ``VARIANTS[index]`` from deal ``index``: computer players (level 1),
    with a random legal action now and then (random throws, buries and calls)."""
    rules = VARIANTS[index]
    game = Game(index, rules)
    bots = {seat: ComputerPlayer(seat, index, rules) for seat in range(PLAYERS)}
    rng = random.Random(f"one-home-{index}")
    while game.phase is not Phase.FINISHED:
        game.apply(random_action(game, rng) if rng.random() < 0.3 else next_action(game, bots))
    return game


def _hands():
    return [(_hand(index), rules) for index, rules in enumerate(VARIANTS)]


def _steps(game: Game):
    """The hand replayed action by action: (the one copy of the game, just before the action, the action)."""
    copy = Game(game.seed, game.rules, game.deck)
    for action in game.history:
        yield copy, action
        copy.apply(action)


# ---------------------------------------------------------------- the book's answers, worked out here

C3_POINTS = {5: 5, 10: 10, 13: 10}
"""C3: every 5 is worth 5, every 10 and every K 10."""


def _points(cards) -> int:
    return sum(C3_POINTS.get(card.rank, 0) for card in cards if card.suit is not None)


def _pairs(cards) -> int:
    """X2's ``p``: the pairs of identical cards among ``cards`` (pairs inside tractors count)."""
    return sum(count // 2 for count in Counter(cards).values())


X2_TABLE = [  # lead of the last trick, play that won it, multiplier counting the lead's pairs, the winning play's
    ("♠A", "♠A", 2, 2),
    ("♠A ♠K", "♥3 ♥3", 2, 4),  # two singles ruffed by a trump pair
    ("♠5 ♠5", "♠9 ♠9", 4, 4),
    ("♠9 ♠9 ♠8 ♠8", "♥4 ♥4 ♥3 ♥3", 8, 8),  # a 2-pair tractor
    ("♠A ♠K ♠Q ♠J ♠9", "♥A ♥K ♥Q ♥J ♥9", 2, 2),  # five singles
    ("♠K ♠K ♠5 ♠3 ♠4", "♥6 ♥6 ♥5 ♥5 ♥3", 4, 8),  # one pair and three singles, ruffed by two pairs
]
"""X2, as RULES.md gives it, and under ``kitty_pairs_from="winning-play"``."""


@pytest.mark.parametrize("lead, winning, by_lead, by_winning", X2_TABLE)
def test_X2_the_multiplier_is_the_books(lead, winning, by_lead, by_winning):
    trump = Trump("♥")
    for rules in VARIANTS:
        expected = by_winning if rules.kitty_pairs_from == "winning-play" else by_lead
        assert kitty_multiplier(lead, trump, winning_play=winning, rules=rules) == expected
        kitty = parse_cards("♣K ♣5 ♦3")
        capture = kitty_capture(kitty, parse_cards(lead), parse_cards(winning), trump, won_by="attacker", rules=rules)
        assert capture is not None and (capture.multiplier, capture.points) == (expected, 15 * expected)
        for side in ("declarer", "friend"):  # X1
            assert kitty_capture(kitty, parse_cards(lead), parse_cards(winning), trump, won_by=side, rules=rules) \
                is None


L5_SIGN = {("attacker", True): -1, ("attacker", False): -1, ("declarer", True): 1, ("declarer", False): 0,
           ("friend", True): 1, ("friend", False): 0}
"""L5: (the thrower's side, ``penalty_to_declarers``) → how the penalty moves the attackers'
total: down for an attacker's failed throw, up for the declarer's side's (unless the table
penalises only attackers)."""


def test_L5_the_penalty_is_the_books():
    assert throw_penalty(6) == 30  # "甩错 6 cards → 30 points"
    for (side, to_declarers), sign in L5_SIGN.items():
        for per_card in NUMBERS["penalty_per_card"]:
            rules = Ruleset(penalty_per_card=per_card, penalty_to_declarers=to_declarers)
            assert throw_penalty(3, rules) == 3 * per_card
            assert penalty_change(3 * per_card, side, rules) == sign * 3 * per_card


def _true_sides(game: Game) -> dict[int, str]:
    """Each seat's side, from the hand's record (F2, F5): the declarer; the friend, the other
    seat that held the called card when it was called (none if its twin was buried); the
    others attackers."""
    declarer = called = None
    solo = False
    copy = Game(game.seed, game.rules, game.deck)
    friend = None
    for action in game.history:
        event = copy.apply(action)
        for result in event.results:
            if isinstance(result, DeclarerChosen):
                declarer = result.seat
            elif isinstance(result, SoloDeclared):
                solo = True
            elif isinstance(result, FriendCalled):
                called = result.card
                holders = [seat for seat in range(PLAYERS) if seat != declarer and called in copy.hand(seat)]
                assert len(holders) <= 1 and (holders or game.rules.allow_buried_friend)
                friend = holders[0] if holders else None
    assert declarer is not None and (solo or called is not None)
    return {seat: "declarer" if seat == declarer else "friend" if seat == friend else "attacker"
            for seat in range(PLAYERS)}


def _attacker_value(points: int) -> int:
    """S1, the formula of RULES.md: each attacker's table value ``k``."""
    if points == 0:
        return -20
    if points < 0:
        return -4
    if points < 80:
        return -(4 - points // 20)
    return 1 + (points - 80) // 20


S1_ROWS = [(0, 40, 20, -20), (-15, 8, 4, -4), (5, 8, 4, -4), (15, 8, 4, -4), (20, 6, 3, -3), (35, 6, 3, -3),
           (40, 4, 2, -2), (60, 2, 1, -1), (75, 2, 1, -1), (80, -2, -1, 1), (95, -2, -1, 1), (100, -4, -2, 2),
           (115, -4, -2, 2), (200, -14, -7, 7), (240, -18, -9, 9), (255, -18, -9, 9)]
"""S1's table as printed (A, declarer, friend, each attacker)."""


@pytest.mark.parametrize("points, declarer, friend, attacker", S1_ROWS)
def test_S1_the_table_is_the_books(points, declarer, friend, attacker):
    assert _attacker_value(points) == attacker and (-2 * attacker, -attacker) == (declarer, friend)
    assert dict(score_hand(points)) == {"declarer": declarer, "friend": friend, "attacker": attacker}


def _books_results(points: int, sides: dict[int, str], *, solo: bool, declarations: int) -> tuple[int, ...]:
    """Each seat's result (S1–S3): the friend −k, the declarer −2k; in a solo (S2) each
    attacker 2k and the declarer −8k; with no friend (its twin buried, the F3 variant) the
    declarer alone pays what the four attackers win; all × the declarations (S3)."""
    k = _attacker_value(points)
    friendless = not solo and "friend" not in sides.values()
    each = {"attacker": 2 * k if solo else k, "friend": -k,
            "declarer": -8 * k if solo else -4 * k if friendless else -2 * k}
    return tuple(each[sides[seat]] * declarations for seat in range(PLAYERS))


# ---------------------------------------------------------------- X1–X2: the kitty capture


def test_X2_the_game_captures_the_kitty_as_the_book_says():
    captures = Counter()
    for game, rules in _hands():
        last = game.tricks[-1]
        lead = last.plays[0][1]
        winning = next(cards for seat, cards in last.plays if seat == last.seat)
        captured = [r for e in game.events for r in e.results if isinstance(r, KittyCaptured)]
        if _true_sides(game)[last.seat] != "attacker":  # X1
            assert not captured and game.kitty_capture == 0
            continue
        pairs = _pairs(winning if rules.kitty_pairs_from == "winning-play" else lead)
        expected = _points(game.kitty) * 2 ** (1 + pairs)
        assert [(c.seat, c.kitty_points, c.multiplier, c.points) for c in captured] == \
            [(last.seat, _points(game.kitty), 2 ** (1 + pairs), expected)]
        assert game.kitty_capture == expected
        captures[_pairs(lead) != _pairs(winning)] += 1
    assert captures[False] > 10


def _book_follow(game: Game, seat: int, keep: set[Card]) -> Play:
    """A legal single follow that keeps ``keep`` and does not ruff when it can help it."""
    trump = game.trump
    assert trump is not None
    led_trump = trump.is_trump(game.trick[0][1][0])
    legal = [card for card in dict.fromkeys(game.hand(seat)) if game.can(Play(seat, (card,)))]
    card = min(legal, key=lambda c: (c in keep, trump.is_trump(c) and not led_trump, trump.order(c)))
    return Play(seat, (card,))


def _ruffed_last_trick(rules: Ruleset) -> tuple[Game, Game]:
    """A hand whose last trick is a lead of two singles (♠A ♠K, seat 0, the declarer)
    ruffed by a trump pair (♥3 ♥3, seat 1, an attacker), the kitty holding points:
    the lead holds no pair, the winning play one (X2). The hand just before that trick,
    and at its end.

    Seat 0 declares ♥2 ♥2, buries ♠A ♠K (so the throw stands, L3) with 4 trumps and 2 others,
    and leads its 6 top trumps, then its 12 top clubs and diamonds: every other seat follows
    (the others' trumps go to the trump leads), keeping what the last trick needs."""
    p = parse_cards
    leads = p("BJ BJ SJ SJ ♥2 ♥2 ♣A ♣A ♣K ♣K ♣Q ♣Q ♦A ♦A ♦K ♦K ♦Q ♦Q")
    last = p("♠A ♠K")
    kitty = p("♠A ♠K ♥A ♥A ♥K ♥K ♣J ♦J")
    keep = [(), p("♥3 ♥3"), p("♠3 ♠4"), p("♠5 ♠6"), p("♠7 ♠8")]
    trumps = [c for c in (Counter(p("♠2 ♠2 ♣2 ♣2 ♦2 ♦2")) + Counter(c for c in PACK if c.suit == p("♥3")[0].suit
                                                                        and c.rank > 2)
                          - Counter(kitty) - Counter(p("♥3 ♥3"))).elements()]
    others = list((Counter(PACK) - Counter(leads) - Counter(last) - Counter(kitty) - Counter(trumps)
                   - sum((Counter(k) for k in keep), Counter())).elements())
    assert len(trumps) == 24 and len(others) == 48
    hands = [[*leads, *last]] + [[*trumps[6 * i:6 * i + 6], *others[12 * i:12 * i + 12], *keep[i + 1]]
                                 for i in range(4)]
    deck = [hands[place % PLAYERS][place // PLAYERS] for place in range(100)] + list(kitty)
    game = Game(0, rules, deck=deck)
    declaration = Declare(0, p("♥2 ♥2"))
    while game.phase is Phase.DEALING:
        game.apply(declaration if not game.declarations and game.can(declaration)
                   else CloseDeal() if game.all_dealt else Deal())
    assert game.declarer == 0 and game.trump == Trump("♥")
    game.apply(Bury(0, kitty))
    if game.phase is Phase.CALLING:  # F3 allowed: calling ♠A, whose twin is buried, gives no friend
        assert rules.allow_buried_friend
        game.apply(Call(0, p("♠A")[0]))
    keeps = [set(k) for k in keep]
    for lead in leads:
        game.apply(Play(0, (lead,)))
        while game.trick:
            seat = game.to_play
            assert seat is not None
            game.apply(_book_follow(game, seat, keeps[seat]))
        assert game.tricks[-1].seat == 0
    before = Game.replay(game.seed, game.history, rules, game.deck)
    assert [sorted(game.hand(seat)) for seat in range(PLAYERS)] == [sorted(last), *map(sorted, keep[1:])]
    game.apply(Play(0, last))
    for seat in range(1, PLAYERS):
        game.apply(Play(seat, game.hand(seat)))
    assert game.phase is Phase.FINISHED and game.tricks[-1].seat == 1 and game.side_of(1) == "attacker"
    return before, game


def test_X2_the_variant_changes_the_capture_alike_in_the_game_and_the_playouts():
    """The last trick: ♠A ♠K led, ruffed by ♥3 ♥3 (an attacker). The lead holds no pair,
    the winning play one: the kitty counts ×2 by the book, ×4 under
    ``kitty_pairs_from="winning-play"``; the game and a playout of the same cards agree."""
    totals: dict[tuple[bool, str], set[int]] = {}
    for rules in VARIANTS[::7]:
        before, game = _ruffed_last_trick(rules)
        kitty_points = _points(game.kitty)
        assert kitty_points == 30
        multiplier = 4 if rules.kitty_pairs_from == "winning-play" else 2
        assert game.kitty_capture == kitty_points * multiplier
        captured = game.last_event.results if game.last_event else ()
        assert [(r.multiplier, r.points) for r in captured if isinstance(r, KittyCaptured)] == \
            [(multiplier, kitty_points * multiplier)]
        simulation = Simulation(before.view(0), rules)
        layout = simulation.check(Layout(tuple(before.hand(s) for s in range(PLAYERS)), before.kitty))  # type: ignore[arg-type]
        for policy in ("random", "greedy"):
            outcome = simulation.playout(layout, random.Random(0), first=parse_cards("♠A ♠K"), policy=policy)
            assert [(seat, sorted(cards)) for seat, cards in outcome.plays] == \
                [(seat, sorted(cards)) for seat, cards in game.tricks[-1].plays]
            assert (outcome.attackers_points, outcome.results) == (game.attackers_points(), game.results)
        totals.setdefault((rules.allow_buried_friend, rules.kitty_pairs_from), set()).add(game.attackers_points())
    for friendless in (False, True):
        by_lead, = totals[friendless, "lead"]
        by_winning, = totals[friendless, "winning-play"]
        assert by_winning - by_lead == 30 * (4 - 2)


# ---------------------------------------------------------------- the playouts agree with the game


def _position(game: Game, rng: random.Random) -> Game:
    """``game`` replayed to a random moment of its tricks."""
    start = next(i for i, action in enumerate(game.history) if isinstance(action, Play))
    stop = rng.randrange(start, len(game.history))
    return Game.replay(game.seed, game.history[:stop], game.rules, game.deck)


def _failing_throw(game: Game) -> tuple[Card, ...] | None:
    """A lead of two singles of one suit that fails against the other hands (L3), if the actor has one."""
    seat, trump = game.actor, game.trump
    assert seat is not None and trump is not None
    if game.trick or game.forced_options:
        return None
    hand = game.hand(seat)
    others = [game.hand(s) for s in range(PLAYERS) if s != seat]
    for lane in {trump.lane(c) for c in hand}:
        suit = sorted({c for c in hand if trump.lane(c) == lane}, key=trump.order)
        if len(suit) >= 2:
            throw = (suit[-1], suit[0])
            if shape_of(throw, trump).is_throw and not check_throw(throw, others, trump, rules=game.rules).ok:
                return throw
    return None


def test_X2_L5_S1_a_playout_scores_the_hand_as_the_game_does_under_every_ruleset():
    """From a moment of each hand, the true layout played out (random and greedy, now and then
    a failing throw first), then replayed through the game: the same attackers' total (kitty
    capture, penalties), the same results, the same declarer and friend."""
    throws = 0
    for index, (game, rules) in enumerate(_hands()):
        rng = random.Random(index)
        position = _position(game, rng)
        seat = position.actor
        assert seat is not None
        layout = Layout(tuple(position.hand(s) for s in range(PLAYERS)), position.kitty)  # type: ignore[arg-type]
        simulation = Simulation(position.view(seat), rules)
        first = _failing_throw(position)
        throws += first is not None
        for policy in ("random", "greedy"):
            outcome = simulation.playout(simulation.check(layout), rng, first=first, policy=policy)
            copy = Game.replay(game.seed, position.history, rules, game.deck)
            plays = outcome.plays
            if first is not None:
                event = copy.apply(Play(seat, first))
                assert isinstance(event.results[0], ThrowFailed)
                if len(event.results) > 1:  # one option: the game led it at once
                    plays = plays[1:]
            for player, cards in plays:
                copy.apply(Play(player, cards))
            assert copy.phase is Phase.FINISHED
            assert (outcome.attackers_points, outcome.results) == (copy.attackers_points(), copy.results), index
            assert (outcome.declarer, outcome.friend) == (copy.declarer, copy.friend)
    assert throws > 20


# ---------------------------------------------------------------- L5: the failed-throw penalty


def test_L5_the_game_changes_the_attackers_total_as_the_book_says():
    failed = Counter()
    for game, rules in _hands():
        sides = _true_sides(game)
        copy = Game(game.seed, rules, game.deck)
        for action in game.history:
            before = copy.penalty_adjustment
            event = copy.apply(action)
            throw = next((r for r in event.results if isinstance(r, ThrowFailed)), None)
            if throw is None:
                assert copy.penalty_adjustment == before
                continue
            side = sides[throw.seat]
            failed[side] += 1
            assert throw.penalty == rules.penalty_per_card * len(throw.attempted)
            assert copy.penalty_adjustment - before == L5_SIGN[side, rules.penalty_to_declarers] * throw.penalty
    assert failed["attacker"] > 30 and failed["declarer"] > 10 and failed["friend"] > 3, failed


# ---------------------------------------------------------------- F2, F5, F6, S1–S4: the sides and the score

SIDES_TABLE = [  # declarer, friend (the truth), each seat's side (F2; F5 or F3 variant: no friend)
    (0, 2, ("declarer", "attacker", "friend", "attacker", "attacker")),
    (4, 1, ("attacker", "friend", "attacker", "attacker", "declarer")),
    (3, None, ("attacker", "attacker", "attacker", "declarer", "attacker")),
    (None, None, ("attacker",) * 5),  # before a declarer is chosen
]


@pytest.mark.parametrize("declarer, friend, sides", SIDES_TABLE)
def test_F2_each_seats_side_is_the_books(declarer, friend, sides):
    assert tuple(side_of(seat, declarer, friend) for seat in range(PLAYERS)) == sides
    for seat, other in product(range(PLAYERS), repeat=2):
        assert same_side(seat, other, declarer, friend) == ((sides[seat] == "attacker") == (sides[other] == "attacker"))


KNOWN_TABLE = [  # seat, declarer, the friend as the seat knows it, solo, friendless → partners, opponents (F2, F6)
    (3, 0, None, False, False, set(), {0}),  # an attacker before the reveal: only the declarer is known
    (0, 0, None, False, False, set(), set()),  # the declarer before the reveal knows nothing
    (2, 0, 2, False, False, {0}, {1, 3, 4}),  # the friend knows itself
    (3, 0, 2, False, False, {1, 4}, {0, 2}),  # after the reveal
    (0, 0, 2, False, False, {2}, {1, 3, 4}),
    (0, 0, None, True, False, set(), {1, 2, 3, 4}),  # a solo (F5)
    (1, 0, None, True, False, {2, 3, 4}, {0}),
    (0, 0, None, False, True, set(), {1, 2, 3, 4}),  # the declarer who buried the called card's twin (F3 variant)
    (2, None, None, False, False, set(), set()),  # before a declarer is chosen
]


@pytest.mark.parametrize("seat, declarer, friend, solo, friendless, partners, opponents", KNOWN_TABLE)
def test_F6_what_a_seat_knows_of_the_sides_is_the_books(seat, declarer, friend, solo, friendless, partners,
                                                          opponents):
    assert known_sides(seat, declarer, friend, solo=solo, friendless=friendless) == (partners, opponents)


def test_S4_the_sides_the_total_and_the_results_are_the_books_under_every_ruleset():
    """Each seat's side as the record says (F2, F5); the attackers' total A, the trick
    points the attackers won (never the declarer's side's, S4) plus the kitty capture
    (X2) plus the failed-throw penalties (L5); each seat's result from A (S1–S3)."""
    kinds = Counter()
    scripted = [_ruffed_last_trick(Ruleset(allow_buried_friend=buried, kitty_pairs_from=where))[1]
                for buried, where in product((False, True), ("lead", "winning-play"))]  # a solo (F4), friendless
    for game in [game for game, _ in _hands()] + scripted:
        sides = _true_sides(game)
        assert [game.side_of(seat) for seat in range(PLAYERS)] == [sides[seat] for seat in range(PLAYERS)]
        won = sum(_points(card for _, cards in trick.plays for card in cards) for trick in game.tricks
                  if sides[trick.seat] == "attacker")
        penalties = sum(L5_SIGN[sides[r.seat], game.rules.penalty_to_declarers] * r.penalty
                        for e in game.events for r in e.results if isinstance(r, ThrowFailed))
        capture = sum(r.points for e in game.events for r in e.results if isinstance(r, KittyCaptured))
        total = won + capture + penalties
        assert game.attackers_points() == total
        assert game.results == _books_results(total, sides, solo=game.solo, declarations=game.declaration_count)
        kinds["solo" if game.solo else "friend" if "friend" in sides.values() else "friendless"] += 1
    assert kinds["solo"] >= 5 and kinds["friend"] > 100 and kinds["friendless"] >= 3, kinds


def test_F6_what_a_seat_knows_of_the_sides_is_true_and_complete_once_it_can_know():
    """Every seat's view, often through each hand: the partners and opponents it knows are
    true; it knows them all once the friend is revealed to it, in a solo, and, for the
    declarer, once it has called a card whose twin it buried (F3 variant)."""
    for index, (game, rules) in enumerate(_hands()[::2]):
        sides = _true_sides(game)
        for step, (copy, _) in enumerate(_steps(game)):
            if copy.phase is not Phase.PLAYING or step % 3:
                continue
            for seat in range(PLAYERS):
                seen = copy.view(seat)
                partners, opponents = seen.known_sides()
                truth = [(sides[other] == "attacker") == (sides[seat] == "attacker") for other in range(PLAYERS)]
                assert all(truth[p] for p in partners) and not any(truth[o] for o in opponents), (index, seat)
                assert seat not in partners | opponents
                alone = seat == copy.declarer and not copy.solo and "friend" not in sides.values()
                if seen.solo or seen.friend is not None or alone:
                    assert len(partners | opponents) == PLAYERS - 1, (index, seat)
                assert seen.side == sides[seat]  # a seat always knows its own side
    before, game = _ruffed_last_trick(Ruleset(allow_buried_friend=True))  # ♠A called, its twin buried
    for moment in (before, game):
        assert (moment.friend, moment.solo, moment.friend_card) == (None, False, parse_cards("♠A")[0])
        assert moment.view(0).known_sides() == (frozenset(), frozenset({1, 2, 3, 4}))
        assert all(moment.view(seat).known_sides() == (frozenset(), frozenset({0})) for seat in range(1, PLAYERS))


# ---------------------------------------------------------------- F1, F3, F4: the cards the declarer may call


def _books_calls(hand, buried, rules: Ruleset) -> dict[Card, str | None]:
    """Every card of the pack, and the rule that refuses its call (None: it may be called):
    held exactly once (F1), its twin not buried unless the table allows it (F3)."""
    held = Counter(hand)
    return {card: "F1" if held[card] != 1 else "F3" if card in buried and not rules.allow_buried_friend else None
            for card in DISTINCT_CARDS}


def _calling(index: int, rules: Ruleset, random_bury: bool) -> Game:
    """A hand of deal ``index`` at the call (a solo if the rules leave nothing to call, F4)."""
    game = Game(index, rules)
    bots = {seat: ComputerPlayer(seat, index, rules) for seat in range(PLAYERS)}
    rng = random.Random(index)
    while game.phase not in (Phase.CALLING, Phase.PLAYING):
        game.apply(random_action(game, rng) if random_bury and game.phase is Phase.BURYING
                   else next_action(game, bots))
    return game


def _spied_calls(monkeypatch: pytest.MonkeyPatch) -> list[list[Card | None]]:
    """The calls each searching player weighs (the search itself is not run)."""
    weighed: list[list[Card | None]] = []

    def spy(view, calls, rules, **_):
        weighed.append(list(calls))
        return tuple((0, 0) for _ in calls)

    monkeypatch.setattr(strategy, "weigh_calls", spy)
    return weighed


def _check_calls(game: Game, rules: Ruleset, weighed: list[list[Card | None]]) -> None:
    """The game, the rules, the level-1 player and the searching player call what the book allows."""
    declarer = game.declarer
    assert declarer is not None
    seen = game.view(declarer)
    assert seen.kitty is not None
    book = _books_calls(seen.hand, seen.kitty, rules)
    allowed = [card for card, rule in book.items() if rule is None]
    assert game.nameable_cards() == allowed
    assert Counter(nameable_cards(seen.hand, seen.kitty, rules)) == Counter(allowed)
    if game.phase is Phase.PLAYING:  # nothing to call: an automatic solo (F4)
        assert game.solo and not allowed
        return
    assert allowed
    for card, rule in book.items():  # the game refuses every other card, with the book's rule
        try:
            game.verify(Call(declarer, card))
        except IllegalActionError as refusal:
            assert (refusal.rule, str(card) in str(refusal)) == (rule, True), (card, rule, str(refusal))
        else:
            assert rule is None, (card, rule)
    trump = game.trump
    assert trump is not None
    for level in (1, 2):
        weighed.clear()
        action = ComputerPlayer(declarer, game.seed, rules, level=level).call(seen)
        overwhelming = sum(1 for c in seen.hand if trump.is_trump(c)) >= 15
        assert isinstance(action, Solo if overwhelming else Call)  # a card to call is never passed over
        assert isinstance(action, Solo) or action.card in allowed
        if level == 2:
            assert len(weighed) == 1
            considered = {card for card in weighed[0] if card is not None}
            assert considered <= set(allowed)
            high = sorted((trump.order(c), c) for c in allowed if c.rank in (13, 14) or c.suit is None)[::-1]
            weighed_high = [c for order, c in high if c in considered]
            assert len(weighed_high) >= min(5, len(high)), "the searching player weighs the top calls the book allows"
            if len(high) > 5:  # ties for fifth place may go either way
                assert all(c in considered for order, c in high if order > high[4][0])
    results = weigh_calls(seen, [*allowed, None], rules, rng=random.Random(0), layouts=1)  # the search takes them all
    assert len(results) == len(allowed) + 1
    for card, rule in book.items():
        if rule is not None:
            with pytest.raises(IllegalActionError) as refused:
                weigh_calls(seen, [card], rules, rng=random.Random(0), layouts=1)
            assert refused.value.rule == rule, card


def _every_card_paired(rules: Ruleset) -> Game:
    """Seat 0 declares with ♠2 ♠2; its 28 cards are 14 pairs, and it buries one card of
    eight of them: every card it keeps is paired, or its twin is buried (F3, F4)."""
    mine = parse_cards("♠2 ♠2 ♥A ♥A ♥K ♥K ♣A ♣A ♣K ♣K ♦A ♦A ♦K ♦K ♥Q ♥Q ♣Q ♣Q ♦Q ♦Q "
                       "♥J ♥J ♣J ♣J ♦J ♦J ♥10 ♥10")
    rest = list((Counter(PACK) - Counter(mine)).elements())
    random.Random(0).shuffle(rest)
    deck: list[Card] = []
    for place in range(100):
        deck.append(mine[place // 5] if place % 5 == 0 else rest.pop())
    deck.extend(mine[20:])
    game = Game(0, rules, deck=deck)
    while game.phase is Phase.DEALING:
        if game.can(Declare(0, mine[:2])) and not game.declarations:
            game.apply(Declare(0, mine[:2]))
        else:
            game.apply(Deal() if not game.all_dealt else CloseDeal())
    assert game.declarer == 0
    game.apply(Bury(0, parse_cards("♥A ♥K ♣A ♣K ♦A ♦K ♥Q ♣Q")))
    return game


def test_F3_the_game_the_players_and_the_search_call_what_the_book_allows(monkeypatch):
    """Under every ruleset: the declarer may call what the book allows (F1, F3), for the
    game, the level-1 player and the searching player (which weighs the best of them); in
    a hand whose every kept card is paired or has its twin buried, a table that allows a
    buried friend (F3) lets the declarer call, and the players call rather than go solo."""
    weighed = _spied_calls(monkeypatch)
    calls = 0
    for index, rules in enumerate(VARIANTS):
        game = _every_card_paired(rules)
        assert (game.phase is Phase.CALLING) == rules.allow_buried_friend
        if index % 4 == 0:
            _check_calls(game, rules, weighed)
            _check_calls(_calling(index, rules, random_bury=bool(index % 8)), rules, weighed)
        calls += game.phase is Phase.CALLING
    assert calls == len(VARIANTS) // 2


def test_F1_F3_a_search_refuses_a_call_with_the_rule_that_refuses_it():
    game = _every_card_paired(Ruleset())
    assert game.solo  # F4: nothing to call
    game = _every_card_paired(Ruleset(allow_buried_friend=True))
    seen = game.view(0)
    with pytest.raises(IllegalActionError, match=r"you hold both copies of ♠2; .* \(F1\)"):
        weigh_calls(seen, [parse_cards("♠2")[0]], Ruleset(allow_buried_friend=True), rng=random.Random(0))
    with pytest.raises(IllegalActionError, match=r"you hold no ♠3; .* \(F1\)"):
        weigh_calls(seen, [parse_cards("♠3")[0]], Ruleset(allow_buried_friend=True), rng=random.Random(0))
    with pytest.raises(IllegalActionError, match=r"the other ♥A is among the cards you buried, .* \(F3\)"):
        weigh_calls(seen, [parse_cards("♥A")[0]], Ruleset(), rng=random.Random(0))
    with pytest.raises(IllegalActionError, match=r"'♥A' is not a card of the pack; call one card \(F1\)"):
        weigh_calls(seen, ["♥A"], Ruleset(), rng=random.Random(0))  # type: ignore[list-item]


# ---------------------------------------------------------------- D1–D3: the declarations open to a seat


def _declarations_to_try(hand) -> list[tuple[Card, ...]]:
    """Every single and every pair of one card ``hand`` holds, a pair of two different 2s,
    and a joker it does not hold: what a seat might try to declare with."""
    held = Counter(hand)
    tries: list[tuple[Card, ...]] = [(card,) for card in held] + [(card, card) for card, k in held.items() if k == 2]
    twos = [card for card in held if card.rank == 2 and card.suit is not None]
    if len(twos) >= 2:
        tries.append((twos[0], twos[1]))
    tries += [(joker,) for joker in parse_cards("SJ BJ") if not held[joker]]
    return tries


def test_D1_a_seats_declaration_options_are_what_the_game_accepts():
    """While the cards are dealt, each seat's options (the game's, its view's, a player's)
    are exactly the declarations the game accepts from it (:func:`tutor.rules.bidding.check_declaration`,
    D1–D3); none once the deal is closed."""
    checked = Counter()
    for index, (game, rules) in enumerate(_hands()[::3]):
        player_seat = index % PLAYERS
        player = ComputerPlayer(player_seat, index, rules)
        for copy, action in _steps(game):
            for seat in range(PLAYERS):
                hand = copy.hand(seat)
                if seat != player_seat and not isinstance(action, Declare):
                    continue  # every seat when a declaration is made, else one
                options = copy.declaration_options(seat)
                seen = copy.view(seat)
                assert seen.declaration_options() == options
                accepted = [cards for cards in _declarations_to_try(hand) if copy.can(Declare(seat, cards))]
                assert Counter(accepted) == Counter(options), (index, seat, hand)
                if seat == player_seat:
                    shown = [cards for _, _, cards in player.declarations(seen)]
                    assert Counter(shown) == (Counter(options) if len(hand) >= 5 else Counter())
                checked["single" if any(len(o) == 1 for o in options) else "pair" if options else "none"] += 1
                checked[copy.phase] += 1
            if copy.phase is not Phase.DEALING:
                break
    assert checked["single"] > 100 and checked["pair"] > 20 and checked[Phase.BURYING] > 50, checked


# ---------------------------------------------------------------- B1, T6: who is winning the trick so far


def _books_winner(plays, trump: Trump) -> int:
    """The play winning a trick led by a single or a pair so far, by the book (B1, R1,
    T6, W6): of the lead's shape, a play of the led suit ranks by its card; on a side-suit
    lead a trump play ruffs and ranks above every play of the suit; anything else is a
    discard; a tie goes to the earlier play."""
    lead = plays[0]
    led_trump = trump.is_trump(lead[0])

    def rank(play) -> tuple[int, int] | None:
        if len(lead) == 2 and play[0] != play[1]:
            return None
        if trump.lane(play[0]) == trump.lane(lead[0]):
            return (0, trump.order(play[0]))
        if trump.is_trump(play[0]) and not led_trump:
            return (1, trump.order(play[0]))
        return None

    ranks = [rank(play) for play in plays]
    return max((i for i, r in enumerate(ranks) if r is not None), key=lambda i: (ranks[i], -i))


def test_B1_who_is_winning_so_far_is_the_books():
    checked = 0
    for game, _ in _hands()[::2]:
        trump = game.trump
        assert trump is not None
        for trick in game.tricks:
            plays = [cards for _, cards in trick.plays]
            assert trick.plays[winner_so_far(plays, trump)][0] == trick.seat
            if len(plays[0]) > 2 or (len(plays[0]) == 2 and plays[0][0] != plays[0][1]):
                assert winner_so_far(plays, trump) == explain_trick(plays, trump).winner
                continue
            for size in range(2, PLAYERS + 1):
                so_far = plays[:size]
                winner = _books_winner(so_far, trump)
                assert winner_so_far(so_far, trump) == winner == explain_trick(so_far, trump).winner
                before = _books_winner(so_far[:-1], trump)
                play = so_far[-1]
                if len(play) == 1 or play[0] == play[1]:
                    assert beats(play[0], so_far[before][0], trump) == (winner == size - 1)
                checked += 1
    assert checked > 5000


# ---------------------------------------------------------------- errors, seeds, modules


def test_a_table_without_a_player_to_act_says_so_as_a_tutor_error():
    game = _hand(0)
    with pytest.raises(NoComputerPlayerError, match="nobody is to act in the finished phase"):
        next_action(game, {})
    game = Game(3)
    bots = {seat: ComputerPlayer(seat, 3) for seat in range(PLAYERS)}
    while game.actor is None:
        game.apply(next_action(game, bots))
    del bots[game.actor]
    with pytest.raises(TutorError, match=f"seat {game.actor} is to act in the burying phase"):
        next_action(game, bots)
    assert issubclass(NoComputerPlayerError, TutorError)


@pytest.mark.parametrize("seed, fits", [(0, True), (MAX_SEED, True), (MAX_SEED + 1, False), (10**19, False),
                                        (10**25, False)])
def test_a_hand_files_seed_is_held_to_the_one_seed_bound(seed, fits):
    text = export_hand(Game(7), actions=False).replace("seed: 7", f"seed: {seed}")
    if fits:
        assert import_hand(text).seed == seed
        assert read_hand(export_hand(Game(seed))).game.seed == seed
    else:
        with pytest.raises(HandFileError, match="line 2: .*seed must be a whole number"):
            import_hand(text)
        with pytest.raises(TutorError):
            Game(seed)


def test_a_hand_files_size_bound_is_the_one_the_reader_holds():
    """A hand file of exactly :data:`MAX_CHARS` characters is read, one more is refused."""
    import tutor.play.record as record

    assert "MAX_CHARS" in record.__all__
    whole = export_hand(_hand(1))
    assert len(whole) < MAX_CHARS / 10
    padded = whole + "#" * (MAX_CHARS - len(whole))
    assert len(padded) == MAX_CHARS and import_hand(padded).seed == 1
    with pytest.raises(HandFileError, match=f"at most {MAX_CHARS} characters"):
        import_hand(padded + "#")


GAME_MODULE_NAMES = {
    actions: ("ACTIONS", "Action", "Bury", "Call", "CloseDeal", "Deal", "Declare", "Play", "Solo"),
    events: ("Buried", "Dealt", "Declared", "DeclarerChosen", "Event", "FriendCalled", "FriendRevealed",
             "HandScored", "KittyCaptured", "KittyTaken", "Played", "Redealt", "Result", "SoloDeclared",
             "ThrowFailed", "TrickWon"),
    view: ("SeatView",), phase: ("Phase",),
}
"""The names other modules, the lessons and the tests import from :mod:`tutor.rules.game`
that have their home elsewhere: re-exported there, and nothing else is."""


def test_every_name_of_the_game_module_is_where_it_was_and_has_one_home():
    import tutor.rules as rules
    import tutor.rules.game as game_module

    reexported = {name for names in GAME_MODULE_NAMES.values() for name in names}
    assert set(game_module.__all__) == reexported | {"Game"}
    for home, names in GAME_MODULE_NAMES.items():
        for name in names:
            assert getattr(game_module, name) is getattr(home, name) and name in home.__all__, name
    for name in rules.__all__:
        assert hasattr(rules, name), name
    assert len(open(game_module.__file__, encoding="utf-8").read().splitlines()) < 700
