"""Speed of the computer players: prints the figures (run: python benchmarks/bots.py).

Targets (the whole-hand lesson's issue): one computer player's move — ``act(view)``,
the seat's view included — median ≤ 20 ms and worst ≤ 200 ms; a complete bots-only
hand (``play_computer_hand``, deal to score) ≤ 0.5 s. The slowest moves are profiled,
so a missed target says where the time goes.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import statistics
import sys
import time
from collections import defaultdict

from tutor.rules.cards import PLAYERS
from tutor.rules.game import Game, Phase
from tutor.play.strategy import ComputerPlayer, next_action, play_computer_hand

HANDS = 200


def _moves(hands: int) -> tuple[dict[str, list[float]], list[tuple[float, int, int, str]]]:
    """Time every computer move (view + act) of ``hands`` bots-only hands, by kind."""
    by_kind: dict[str, list[float]] = defaultdict(list)
    slowest: list[tuple[float, int, int, str]] = []
    for seed in range(hands):
        game = Game(seed)
        bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
        while game.phase is not Phase.FINISHED:
            phase = game.phase
            if phase is Phase.DEALING:
                game.apply(next_action(game, bots))  # chance steps and declarations: timed below
                continue
            seat = game.declarer if phase in (Phase.BURYING, Phase.CALLING) else game.to_play
            assert seat is not None
            start = time.perf_counter_ns()
            action = bots[seat].act(game.view(seat))
            ms = (time.perf_counter_ns() - start) / 1e6
            assert action is not None
            kind = phase.value if phase is not Phase.PLAYING else ("lead" if not game.trick else "follow")
            by_kind[kind].append(ms)
            slowest.append((ms, seed, len(game.history), kind))
            game.apply(action)
    slowest.sort(reverse=True)
    return by_kind, slowest[:5]


def _declarations(hands: int) -> list[float]:
    """Time each computer player's declaration decision as the cards arrive."""
    times = []
    for seed in range(hands):
        game = Game(seed)
        bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
        while game.phase is Phase.DEALING:
            seat = (len(game.history)) % PLAYERS
            start = time.perf_counter_ns()
            bots[seat].declaration(game.view(seat))
            times.append((time.perf_counter_ns() - start) / 1e6)
            game.apply(next_action(game, bots))
    return times


def _profile(seed: int, at: int) -> str:
    """Where the time of one slow move goes (cumulative, top functions)."""
    game = Game(seed)
    bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
    for _ in range(at):
        game.apply(next_action(game, bots))
    seat = game.declarer if game.phase in (Phase.BURYING, Phase.CALLING) else game.to_play
    assert seat is not None
    view = game.view(seat)
    profile = cProfile.Profile()
    profile.enable()
    bots[seat].act(view)
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(8)
    return "\n".join(line for line in out.getvalue().splitlines() if "tutor" in line)


def main() -> int:
    print(f"Python {sys.version.split()[0]}; {HANDS} bots-only hands")
    by_kind, slowest = _moves(HANDS)
    every = [ms for times in by_kind.values() for ms in times]
    print(f"{'move':10} {'count':>7} {'median ms':>10} {'p99 ms':>8} {'worst ms':>9}")
    for kind in ("burying", "calling", "lead", "follow"):
        times = sorted(by_kind[kind])
        print(f"{kind:10} {len(times):7d} {statistics.median(times):10.2f} {times[int(0.99 * (len(times) - 1))]:8.2f} "
              f"{times[-1]:9.2f}")
    every.sort()
    declare = sorted(_declarations(40))
    print(f"{'declare?':10} {len(declare):7d} {statistics.median(declare):10.2f} "
          f"{declare[int(0.99 * (len(declare) - 1))]:8.2f} {declare[-1]:9.2f}")
    median, worst = statistics.median(every), every[-1]
    print(f"every move: median {median:.2f} ms (target ≤ 20), worst {worst:.2f} ms (target ≤ 200)")
    hands = []
    for seed in range(HANDS):
        start = time.perf_counter_ns()
        play_computer_hand(seed)
        hands.append((time.perf_counter_ns() - start) / 1e6)
    hands.sort()
    print(f"complete bots-only hand: median {statistics.median(hands):.1f} ms, p95 "
          f"{hands[int(0.95 * (len(hands) - 1))]:.1f} ms, worst {hands[-1]:.1f} ms (target ≤ 500)")
    print("slowest moves (ms, seed, action number, kind):", [(round(m, 1), s, n, k) for m, s, n, k in slowest])
    if worst > 200 or median > 20 or hands[-1] > 500:
        _ms, seed, at, kind = slowest[0]
        print(f"profile of the slowest move ({kind}, seed {seed}, action {at}):")
        print(_profile(seed, at))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
