"""One home for every rule fact: the game, the playouts of a search, the computer players
and the search ask one function of :mod:`tutor.rules` for each fact, and every one of them
agrees with it under EVERY ruleset: the product of the options of
:class:`tutor.rules.ruleset.Ruleset` (each choice of each ``Literal``, both ``bool`` values,
two values of each number), over seeded hands played by computer and random players.

The facts: the kitty capture (X1–X2), the failed-throw penalty (L5), the sides (F2, F5,
F6, S2–S4), the cards the declarer may call (F1, F3, F4), the declarations open to a seat
(D1–D3), who is winning the trick so far (B1, T6), and the seed bound of a hand file.
"""

from __future__ import annotations

import math
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
from tutor.core.errors import TutorError
from tutor.play.bots import random_action
from tutor.play.record import MAX_CHARS, HandFileError, export_hand, import_hand, read_hand
from tutor.play.search import weigh_calls
from tutor.play.simulation import Layout, Simulation
from tutor.play.strategy import ComputerPlayer, NoComputerPlayerError, next_action
from tutor.rules import actions, events, phase, view
from tutor.rules.cards import PACK, PLAYERS, Card
from tutor.rules.combos import shape_of
from tutor.rules.friend import known_sides, nameable_cards, same_side, side_of
from tutor.rules.game import Bury, Call, CloseDeal, Deal, Declare, Game, KittyCaptured, Phase, Play, Solo, ThrowFailed
from tutor.rules.notation import parse_cards
from tutor.rules.order import Trump
from tutor.rules.ruleset import Ruleset
from tutor.rules.scoring import (attackers_total, kitty_capture, kitty_multiplier, penalty_change, score_seats,
                                 throw_penalty)
from tutor.rules.throw import check_throw
from tutor.rules.trick import explain_trick, trick_winner, winner_so_far

NUMBERS = {"flip_declarations": (1, 2), "penalty_per_card": (5, 10)}
"""Two values of each number option (the default first)."""


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
    """Every option of the ruleset is varied (a new option is varied here as soon as it is added)."""
    assert all(len(choices) >= 2 for choices in OPTIONS.values()), OPTIONS
    assert len(set(VARIANTS)) == len(VARIANTS) == math.prod(len(choices) for choices in OPTIONS.values())
    assert Ruleset() in VARIANTS


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


# ---------------------------------------------------------------- X1–X2: the kitty capture


def test_X2_the_game_captures_the_kitty_as_the_rules_say():
    captures = 0
    for game, rules in _hands():
        last = game.tricks[-1]
        lead, winning = last.plays[0][1], next(cards for seat, cards in last.plays if seat == last.seat)
        capture = kitty_capture(game.kitty, lead, winning, game.trump, won_by=side_of(last.seat, game.declarer,
                                                                                       game.friend), rules=rules)
        captured = [r for e in game.events for r in e.results if isinstance(r, KittyCaptured)]
        if capture is None:
            assert not captured and game.kitty_capture == 0
        else:
            captures += 1
            assert [(c.kitty_points, c.multiplier, c.points) for c in captured] == \
                [(capture.kitty_points, capture.multiplier, capture.points)]
            assert game.kitty_capture == capture.points
    assert captures > 10


def test_X2_the_multiplier_counts_the_pairs_where_the_ruleset_says():
    """A lead of two singles, ruffed by a trump pair: the lead holds no pair, the winning play one."""
    lead, ruff, kitty, trump = parse_cards("♠A ♠K"), parse_cards("♥3 ♥3"), parse_cards("♣K ♣5"), Trump("♥")
    for rules in VARIANTS:
        expected = 4 if rules.kitty_pairs_from == "winning-play" else 2
        assert kitty_multiplier(lead, trump, winning_play=ruff, rules=rules) == expected
        capture = kitty_capture(kitty, lead, ruff, trump, won_by="attacker", rules=rules)
        assert capture is not None and (capture.multiplier, capture.points) == (expected, 15 * expected)
        assert kitty_capture(kitty, lead, ruff, trump, won_by="friend", rules=rules) is None  # X1


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


def test_L5_the_game_changes_the_attackers_total_as_the_rules_say():
    failed = 0
    for game, rules in _hands():
        copy = Game(game.seed, rules, game.deck)
        for action in game.history:
            before = copy.penalty_adjustment
            event = copy.apply(action)
            throw = next((r for r in event.results if isinstance(r, ThrowFailed)), None)
            if throw is None:
                assert copy.penalty_adjustment == before
                continue
            failed += 1
            assert throw.penalty == throw_penalty(len(throw.attempted), rules) == \
                rules.penalty_per_card * len(throw.attempted)
            change = penalty_change(throw.penalty, side_of(throw.seat, copy.declarer, copy.friend), rules)
            assert copy.penalty_adjustment - before == change
            assert change == (-throw.penalty if copy.side_of(throw.seat) == "attacker"
                              else throw.penalty if rules.penalty_to_declarers else 0)
        assert game.attackers_points() == attackers_total(game.won_points, game.declarer, game.friend,
                                                          capture=game.kitty_capture,
                                                          penalties=game.penalty_adjustment)
    assert failed > 50


# ---------------------------------------------------------------- F2, F5, F6, S2–S4: the sides


def test_S4_the_sides_and_the_results_are_the_rules_under_every_ruleset():
    kinds = Counter()
    for game, rules in _hands():
        assert game.declarer is not None and game.results is not None and game.score is not None
        for seat in range(PLAYERS):
            assert game.side_of(seat) == side_of(seat, game.declarer, game.friend)
        score, results = score_seats(game.attackers_points(), declarer=game.declarer, friend=game.friend,
                                     solo=game.solo, declarations=game.declaration_count)
        assert (game.score, game.results) == (score, results) and sum(results) == 0
        kinds["solo" if game.solo else "friend" if game.friend is not None else "friendless"] += 1
    assert kinds["solo"] and kinds["friend"] and kinds["friendless"], kinds


def test_F6_what_a_seat_knows_of_the_sides_is_true_and_complete_once_the_friend_is_known():
    for index, (game, rules) in enumerate(_hands()[::4]):
        for step, (copy, _) in enumerate(_steps(game)):
            if copy.phase is not Phase.PLAYING or step % 3:
                continue
            for seat in range(PLAYERS):
                seen = copy.view(seat)
                partners, opponents = known_sides(seat, seen.declarer, seen.friend, solo=seen.solo)
                truth = [same_side(seat, other, copy.declarer, copy.friend) for other in range(PLAYERS)]
                assert all(truth[p] for p in partners) and not any(truth[o] for o in opponents), (index, seat)
                assert seat not in partners | opponents
                if seen.solo or seen.friend is not None:
                    assert len(partners | opponents) == PLAYERS - 1


# ---------------------------------------------------------------- F1, F3, F4: the cards the declarer may call


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
    """The game, the rules, the level-1 player and the searching player agree on the calls."""
    declarer = game.declarer
    assert declarer is not None
    seen = game.view(declarer)
    assert seen.kitty is not None
    allowed = game.nameable_cards()
    assert Counter(nameable_cards(seen.hand, seen.kitty, rules)) == Counter(allowed)
    if game.phase is Phase.PLAYING:  # nothing to call: an automatic solo (F4)
        assert game.solo and not allowed
        return
    assert allowed
    trump = game.trump
    assert trump is not None
    for level in (1, 2):
        weighed.clear()
        action = ComputerPlayer(declarer, game.seed, rules, level=level).call(seen)
        assert game.can(action)
        overwhelming = sum(1 for c in seen.hand if trump.is_trump(c)) >= 15
        assert isinstance(action, Solo if overwhelming else Call)  # a card to call is never passed over
        if level == 2:
            assert len(weighed) == 1
            considered = {card for card in weighed[0] if card is not None}
            assert considered <= set(allowed)
            high = sorted((trump.order(c), c) for c in allowed if c.rank in (13, 14) or c.suit is None)[::-1]
            weighed_high = [c for order, c in high if c in considered]
            assert len(weighed_high) >= min(5, len(high)), "the searching player weighs the top calls the game allows"
            if len(high) > 5:  # ties for fifth place may go either way
                assert all(c in considered for order, c in high if order > high[4][0])
    for card in allowed:
        assert game.can(Call(declarer, card))
    results = weigh_calls(seen, [*allowed, None], rules, rng=random.Random(0), layouts=1)  # the search takes them all
    assert len(results) == len(allowed) + 1


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


def test_F3_the_players_and_the_search_may_call_every_card_the_game_allows(monkeypatch):
    """Under every ruleset: the declarer's calls are :func:`nameable_cards`, for the game,
    the level-1 player and the searching player (which weighs the best of them); in a hand
    whose every kept card is paired or has its twin buried, a table that allows a buried
    friend (F3) lets the declarer call, and the players call rather than go solo."""
    weighed = _spied_calls(monkeypatch)
    calls = 0
    for index, rules in enumerate(VARIANTS):
        game = _every_card_paired(rules)
        assert (game.phase is Phase.CALLING) == rules.allow_buried_friend
        _check_calls(game, rules, weighed)
        calls += game.phase is Phase.CALLING
        if index % 4 == 0:
            _check_calls(_calling(index, rules, random_bury=bool(index % 8)), rules, weighed)
    assert calls == len(VARIANTS) // 2


def test_F3_a_search_weighs_only_calls_the_rules_allow():
    game = _every_card_paired(Ruleset())
    assert game.solo  # F4: nothing to call
    game = _every_card_paired(Ruleset(allow_buried_friend=True))
    seen = game.view(0)
    with pytest.raises(TutorError, match="F3"):
        weigh_calls(seen, [parse_cards("♠2")[0]], Ruleset(allow_buried_friend=True), rng=random.Random(0))
    with pytest.raises(TutorError, match="F3"):
        weigh_calls(seen, [parse_cards("♥A")[0]], Ruleset(), rng=random.Random(0))


# ---------------------------------------------------------------- D1–D3: the declarations open to a seat


def test_D1_the_game_the_view_and_the_players_see_the_same_declarations():
    checked = 0
    for index, (game, rules) in enumerate(_hands()):
        player_seat = index % PLAYERS
        player = ComputerPlayer(player_seat, index, rules)
        for copy, _ in _steps(game):
            if copy.phase is not Phase.DEALING:
                break
            for seat in (player_seat,):
                seen = copy.view(seat)
                options = copy.declaration_options(seat)
                assert seen.declaration_options() == options
                shown = [cards for _, _, cards in player.declarations(seen)]
                assert Counter(shown) == (Counter(map(tuple, options)) if len(seen.hand) >= 5 else Counter())
                checked += bool(options)
    assert checked > 200


# ---------------------------------------------------------------- B1, T6: who is winning the trick so far


def test_B1_who_is_winning_so_far_is_one_answer():
    for game, _ in _hands()[::2]:
        trump = game.trump
        for trick in game.tricks:
            plays = [cards for _, cards in trick.plays]
            assert trick.plays[winner_so_far(plays, trump)][0] == trick.seat
            for size in range(1, PLAYERS + 1):
                so_far = plays[:size]
                assert winner_so_far(so_far, trump) == trick_winner(so_far, trump) == \
                    explain_trick(so_far, trump).winner


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


def test_a_hand_files_size_bound_is_public():
    import tutor.play.record as record

    assert "MAX_CHARS" in record.__all__ and MAX_CHARS == record.MAX_CHARS
    whole = export_hand(_hand(1))
    assert len(whole) < MAX_CHARS / 10
    with pytest.raises(HandFileError, match=f"at most {MAX_CHARS} characters"):
        import_hand(whole + "#" * MAX_CHARS)


def test_every_name_of_the_game_module_is_where_it_was_and_has_one_home():
    import tutor.rules as rules
    import tutor.rules.game as game_module

    homes = {actions: ("ACTIONS", "Action", "Bury", "Call", "CloseDeal", "Deal", "Declare", "Play", "Solo"),
             events: ("Buried", "Dealt", "Declared", "DeclarerChosen", "Event", "FriendCalled", "FriendRevealed",
                      "HandScored", "KittyCaptured", "KittyTaken", "Played", "Redealt", "Result", "SoloDeclared",
                      "ThrowFailed", "TrickWon"),
             view: ("SeatView",), phase: ("PHASE_NAMES", "Phase")}
    for home, names in homes.items():
        for name in names:
            assert name in game_module.__all__ and getattr(game_module, name) is getattr(home, name), name
    for name in game_module.__all__:
        assert hasattr(game_module, name), name
    for name in rules.__all__:
        assert hasattr(rules, name), name
    assert len(open(game_module.__file__, encoding="utf-8").read().splitlines()) < 700
