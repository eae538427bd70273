"""Speed of whole hands and of the simulation: prints the figures (run: ./dev bench).

- a whole hand of computer players, deal to score (``play_computer_hand``), median
  over seeds — goal ≥ 5× faster than before the turn-API issue;
- a whole hand of random legal players (``play_random_hand``);
- random and greedy playouts from a seat's view at the first lead and mid-hand
  (:class:`tutor.play.simulation.Simulation`), per second of one core's CPU time — the fast
  engine's goals (issue 30): ≥ 25,000 random and ≥ 10,000 greedy from the first lead;
- floors, beside the figures they bound: the same hands' actions replayed through
  ``Game`` alone (no player deciding anything: what any whole hand costs); a bare playout
  loop on the same layouts as the random playouts — every trick a single, a card of the
  led suit when held, the winner and the points, nothing else (no pairs, no throws, no
  score): as little as any playout does in this interpreter; and a bare greedy loop, the
  same with the simplest greedy choice (lead the highest card of the longest suit; follow
  with the cheapest card that wins, else the cheapest; ruff with the lowest trump).

``--before REV`` times the same hands with the code of REV (a git worktree in a
temporary directory, run in a subprocess) in the same run, and prints both.
CPU time (``time.process_time``) is measured, so other work on the machine counts less.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from versions import measured_in, tutor_module, worktree

SEEDS = range(60)


def _hand_times(play: str) -> list[float]:
    """CPU ms of each whole hand, ``play`` naming the function that plays it."""
    if play == "computer":
        hand = tutor_module("play.strategy").play_computer_hand
    else:
        hand = tutor_module("play.bots").play_random_hand
    hand(0)
    times = []
    for seed in SEEDS:
        start = time.process_time()
        hand(seed)
        times.append((time.process_time() - start) * 1000)
    return times


def _replay_times() -> list[float] | None:
    """CPU ms of replaying each computer players' hand (:func:`_hand_times`' hands) through
    ``Game`` alone: the same actions, verified and carried out, with nobody deciding."""
    game_module = tutor_module("rules.game")
    hand = tutor_module("play.strategy").play_computer_hand
    hands = [(seed, list(getattr(hand(seed), "history", ()))) for seed in SEEDS]
    if not hands[0][1]:
        return None
    times = []
    for seed, actions in hands:
        start = time.process_time()
        game = game_module.Game(seed)
        for action in actions:
            game.apply(action)
        times.append((time.process_time() - start) * 1000)
    return times


def _bare_playout(hands: list[list[list[int]]], lanes: list[int], orders: list[int], points: list[int],
                  leader: int, rand: Callable[[], float]) -> list[int]:
    """A playout as bare as one can be: every trick a single, each follower a random card of
    the led suit when it holds one (else any), the winner and the points; ``hands``: each
    seat's card indices by effective suit, taken out as they are played."""
    won = [0] * 5
    sizes = [sum(map(len, hand)) for hand in hands]
    while sizes[leader]:
        at = int(rand() * sizes[leader])
        for suit in hands[leader]:
            if at < len(suit):
                break
            at -= len(suit)
        card = suit.pop(at)
        sizes[leader] -= 1
        led = win_lane = lanes[card]
        win_order, best, taken = orders[card], leader, points[card]
        for seat in _AFTER[leader]:
            hand = hands[seat]
            suit = hand[led]
            if not suit:
                at = int(rand() * sizes[seat])
                for suit in hand:
                    if at < len(suit):
                        break
                    at -= len(suit)
                card = suit.pop(at)
            else:
                card = suit.pop(int(rand() * len(suit)))
            sizes[seat] -= 1
            taken += points[card]
            lane = lanes[card]
            if (lane == win_lane and orders[card] > win_order) or (lane == 4 and win_lane != 4):
                best, win_lane, win_order = seat, lane, orders[card]
        won[best] += taken
        leader = best
    return won


def _bare_greedy_playout(hands: list[list[list[int]]], lanes: list[int], orders: list[int], points: list[int],
                         leader: int, rand: Callable[[], float]) -> list[int]:
    """:func:`_bare_playout` with the simplest greedy choice: lead the highest card of the
    longest suit; follow with the cheapest card of the led suit that wins, else its cheapest;
    out of it, ruff with the lowest trump, else throw the lowest card of the first suit held.
    (The trick's settling is written out in each loop: a call a play would raise the floor.)"""
    won = [0] * 5
    sizes = [sum(map(len, hand)) for hand in hands]
    order_of = orders.__getitem__
    while sizes[leader]:
        suit = max(hands[leader], key=len)
        card = max(suit, key=order_of)
        suit.remove(card)
        sizes[leader] -= 1
        led = win_lane = lanes[card]
        win_order, best, taken = orders[card], leader, points[card]
        for seat in _AFTER[leader]:
            hand = hands[seat]
            suit = hand[led]
            if suit:
                winners = [c for c in suit if orders[c] > win_order] if win_lane == led else []
                card = min(winners or suit, key=order_of)
            else:
                suit = hand[4] if hand[4] and win_lane != 4 else next(cards for cards in hand if cards)
                card = min(suit, key=order_of)
            suit.remove(card)
            sizes[seat] -= 1
            taken += points[card]
            lane = lanes[card]
            if (lane == win_lane and orders[card] > win_order) or (lane == 4 and win_lane != 4):
                best, win_lane, win_order = seat, lane, orders[card]
        won[best] += taken
        leader = best
    return won


_AFTER = [[(leader + k) % 5 for k in range(1, 5)] for leader in range(5)]


def _playouts(tricks: int, seconds: float = 3.0, policy: str = "random") -> float | None:
    """Playouts per CPU second from the view of the seat to act after ``tricks`` tricks,
    every seat playing by ``policy`` (the search's is ``"greedy"``; ``"bare"`` and ``"bare
    greedy"``: the same layouts played by :func:`_bare_playout` and
    :func:`_bare_greedy_playout`, the floors)."""
    try:
        Simulation = tutor_module("play.simulation").Simulation
    except ImportError:
        return None
    import random

    PLAYERS = tutor_module("rules.cards").PLAYERS
    Game, Phase = tutor_module("rules.game").Game, tutor_module("rules.game").Phase
    ComputerPlayer, next_action = tutor_module("play.strategy").ComputerPlayer, tutor_module("play.strategy").next_action

    cases = []
    for seed in range(10):
        game = Game(seed)
        bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
        while game.phase is not Phase.PLAYING or (len(game.tricks) < tricks and game.phase is Phase.PLAYING):
            game.apply(next_action(game, bots))
        while game.trick:
            game.apply(next_action(game, bots))
        if game.phase is Phase.PLAYING:
            simulation = Simulation(game.view(game.actor), game.rules)
            cases.append(simulation)
    rng = random.Random(0)
    layouts = [simulation.deal(rng) for simulation in cases]
    if policy.startswith("bare"):
        return _bare_playouts(cases, layouts, seconds, rng,
                              _bare_greedy_playout if policy == "bare greedy" else _bare_playout)
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for simulation, layout in zip(cases, layouts):
            if policy == "random":
                simulation.playout(layout, rng)
            else:
                simulation.playout(layout, rng, policy=policy)
            count += 1
    return count / (time.process_time() - start)


def _bare_playouts(cases: list[Any], layouts: list[Any], seconds: float, rng: Any,
                   playout: Callable[..., list[int]]) -> float | None:
    """Bare ``playout``\ s per CPU second on ``layouts`` (the random playouts' own), each
    from the first lead of its simulation's view."""
    starts = []
    for simulation, layout in zip(cases, layouts):
        trump, view = simulation.view.trump, simulation.view
        lanes = [int(lane) for lane in getattr(trump, "lanes", ())]
        if not lanes or view.trick:
            return None
        orders = list(trump.orders)
        points = [card.points for card in tutor_module("rules.cards").DISTINCT_CARDS]
        hands = [[[card.index for card in cards if lanes[card.index] == lane] for lane in range(5)]
                 for cards in layout.hands]
        starts.append((hands, lanes, orders, points, view.declarer if not view.tricks else view.tricks[-1].seat))
    rand = rng.random
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for hands, lanes, orders, points, leader in starts:
            playout([[list(suit) for suit in hand] for hand in hands], lanes, orders, points, leader, rand)
            count += 1
    return count / (time.process_time() - start)


def measure() -> dict[str, object]:
    """Every figure of this checkout, as JSON-ready values."""
    computer = _hand_times("computer")
    random_hands = _hand_times("random")
    replay = _replay_times()
    return {
        "computer": statistics.median(computer), "computer_p95": sorted(computer)[int(0.95 * len(computer))],
        "random": statistics.median(random_hands),
        "replay": None if replay is None else statistics.median(replay),
        "playouts_first": _playouts(0), "playouts_mid": _playouts(10),
        "greedy_first": _playouts(0, policy="greedy"), "greedy_mid": _playouts(10, policy="greedy"),
        "bare_first": _playouts(0, policy="bare"), "bare_greedy_first": _playouts(0, policy="bare greedy"),
    }


def _measure_at(rev: str) -> dict[str, object]:
    """The same figures for the code of ``rev``, measured in a worktree by this very script."""
    with worktree(rev) as tree:
        figures: dict[str, object] = measured_in(tree, __file__)
    return figures


def _cell(value: object, unit: str) -> str:
    return "—" if value is None else f"{value:,.1f} {unit}" if isinstance(value, float) else str(value)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="REV", help="also measure the code of this git revision")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure()))
        return 0
    before = _measure_at(args.before) if args.before else None
    after = measure()
    rows = [("computer players' hand, median", "computer", "ms"), ("computer players' hand, p95", "computer_p95", "ms"),
            ("random players' hand, median", "random", "ms"),
            ("floor: the hand's actions, Game alone", "replay", "ms"),
            ("playouts from the first lead", "playouts_first", "/s"), ("playouts after 10 tricks", "playouts_mid", "/s"),
            ("greedy playouts, first lead", "greedy_first", "/s"), ("greedy playouts, after 10", "greedy_mid", "/s"),
            ("floor: bare playouts, first lead", "bare_first", "/s"),
            ("floor: bare greedy, first lead", "bare_greedy_first", "/s")]
    print(f"Python {sys.version.split()[0]}; {len(SEEDS)} hands each; CPU time of one core")
    head = f"{'figure':38} {'before':>14} {'after':>14} {'speed-up':>9}" if before else f"{'figure':38} {'now':>14}"
    print(head)
    for label, key, unit in rows:
        now = after[key]
        if before is None:
            print(f"{label:38} {_cell(now, unit):>14}")
            continue
        old = before.get(key)
        ratio = ""
        if isinstance(old, float) and isinstance(now, float):
            ratio = f"{(old / now if unit == 'ms' else now / old):.1f}×"
        print(f"{label:38} {_cell(old, unit):>14} {_cell(now, unit):>14} {ratio:>9}")
    _print_goals(before, after)
    return 0


def _print_goals(before: dict[str, object] | None, after: dict[str, object]) -> None:
    """Issue 30's goals beside the floors that bound them, measured in this run: a whole
    hand 5× faster than before (with ``--before``) against ``Game`` alone, and the playouts
    a second against the bare loop."""
    print("\nIssue 30's goals beside their floors (this run):")
    old, replay = (before or {}).get("computer"), after.get("replay")
    if isinstance(old, float) and isinstance(replay, float):
        goal = old / 5
        print(f"  a whole hand 5× faster: goal {goal:.1f} ms, now {after['computer']:.1f} ms; its actions through Game "
              f"alone {replay:.1f} ms, leaving {goal - replay:.1f} ms for the players' ~100 plays")
    for label, key, goal_per_second, floor_key in (("random", "playouts_first", 25_000, "bare_first"),
                                                   ("greedy", "greedy_first", 10_000, "bare_greedy_first")):
        now, bare = after.get(key), after.get(floor_key)
        if isinstance(now, float) and isinstance(bare, float):
            print(f"  {label} playouts: goal {goal_per_second:,}/s, now {now:,.0f}/s; the bare {label} loop "
                  f"{bare:,.0f}/s (the goal is {goal_per_second / bare:.0%} of it)")


if __name__ == "__main__":
    raise SystemExit(main())
