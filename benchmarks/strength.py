"""Strength of the computer players' levels: prints the figures (run: python benchmarks/strength.py).

Paired deals: every deal is played once with level 1 in all five seats, then once more
for each seat with that seat alone at the level measured (the same cards, the same
seeds). The gain of a seat-hand is its result (S1–S3) with the level minus its result
without; the figure is the mean over every seat of every deal, with its standard error
taken over deals: a deal's five seat-hands share its cards and are not independent, so
the error over seat-hands (printed too) understates it. Goal (issue 30): the strongest
level gains ≥ 2.0 per seat-hand over 500 deals, with a move p95 ≤ 300 ms of CPU time.

Move times are CPU time (``time.process_time``) of the searching seat's plays, so
other work on the machine counts less. ``--jobs N`` plays the deals in N processes.

``--before REV`` plays the same deals with the code of REV first (a git worktree, run in a
subprocess), then with this checkout's, and prints the paired difference of each level's
gain (this checkout's minus REV's) with its standard error over deals: the way to tell
whether a change to a level made it stronger (issue 30: ≥ +0.5 over an earlier level 3).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from versions import measured_in, tutor_module, worktree

PLAYERS = tutor_module("rules.cards").PLAYERS
Game, Phase = tutor_module("rules.game").Game, tutor_module("rules.game").Phase
_strategy = tutor_module("play.strategy")
LEVELS, ComputerPlayer, next_action = _strategy.LEVELS, _strategy.ComputerPlayer, _strategy.next_action

FIRST_DEAL = 10_000  # deals the tests do not use


class _Timed(ComputerPlayer):
    """A computer player that keeps the CPU time of each of its moves: plays, the bury
    and the call."""

    def __init__(self, seat: int, seed: int, level: int) -> None:
        super().__init__(seat, seed, level=level)
        self.times: list[float] = []

    def _timed(self, move, view):  # type: ignore[no-untyped-def]
        start = time.process_time()
        action = move(view)
        self.times.append(time.process_time() - start)
        return action

    def play(self, view):  # type: ignore[no-untyped-def]
        return self._timed(super().play, view)

    def bury(self, view):  # type: ignore[no-untyped-def]
        return self._timed(super().bury, view)

    def call(self, view):  # type: ignore[no-untyped-def]
        return self._timed(super().call, view)


def _hand(seed: int, seat: int | None, level: int) -> tuple[tuple[int, ...], list[float]]:
    game = Game(seed)
    bots = {s: ComputerPlayer(s, seed) for s in range(PLAYERS)}
    timed = None
    if seat is not None:
        timed = bots[seat] = _Timed(seat, seed, level)
    while game.phase is not Phase.FINISHED:
        game.apply(next_action(game, bots))
    return game.results, (timed.times if timed else [])


def _deal(job: tuple[int, int]) -> tuple[list[int], list[float]]:
    """Each seat's gain in one deal at ``level``, and the searching seats' move times."""
    seed, level = job
    base, _ = _hand(seed, None, 1)
    gains, times = [], []
    for seat in range(PLAYERS):
        results, moves = _hand(seed, seat, level)
        gains.append(results[seat] - base[seat])
        times += moves
    return gains, times


def measure(level: int, deals: int, jobs: int) -> dict[str, Any]:
    """The figures of ``level`` over ``deals`` paired deals, with each deal's mean gain
    (``per_deal``, for a paired comparison)."""
    work = [(FIRST_DEAL + n, level) for n in range(deals)]
    start = time.perf_counter()
    done = []
    with ProcessPoolExecutor(jobs) as pool:
        for result in pool.map(_deal, work, chunksize=4):
            done.append(result)
            if len(done) % 50 == 0:  # a running figure, to stderr
                so_far = [statistics.mean(deal_gains) for deal_gains, _ in done]
                print(f"  level {level}: {len(done)} deals, gain {statistics.mean(so_far):+.2f} ± "
                      f"{_error(so_far):.2f}", file=sys.stderr, flush=True)
    gains = [g for deal_gains, _ in done for g in deal_gains]
    per_deal = [statistics.mean(deal_gains) for deal_gains, _ in done]
    times = sorted(t for _, deal_times in done for t in deal_times)
    return {
        "gain": statistics.mean(gains),
        "error": _error(per_deal),
        "seat_error": _error(gains),
        "seat_hands": len(gains),
        "p50": 1000 * times[len(times) // 2],
        "p95": 1000 * times[int(len(times) * 0.95)],
        "worst": 1000 * times[-1],
        "wall": time.perf_counter() - start,
        "per_deal": per_deal,
    }


def _error(values: list[float]) -> float:
    """The standard error of ``values``' mean."""
    return statistics.stdev(values) / math.sqrt(len(values))


def _row(name: str, f: dict[str, Any]) -> str:
    return (f"{name:>8}  {f['gain']:>+11.2f} ± {f['error']:.2f} ({f['seat_error']:.2f})  {f['seat_hands']:>10}  "
            f"{f['p50']:>6.0f} ms  {f['p95']:>4.0f} ms  {f['worst']:>4.0f} ms   ({f['wall']:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--levels", type=int, nargs="*", default=[lv for lv in LEVELS if lv > 1])
    parser.add_argument("--before", metavar="REV", help="also play the deals with the code of this git revision")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the figures, for --before
    args = parser.parse_args()
    if args.json:
        print(json.dumps({level: measure(level, args.deals, args.jobs) for level in args.levels}))
        return
    before: dict[str, dict[str, Any]] = {}
    if args.before:
        with worktree(args.before) as tree:
            before = measured_in(tree, __file__, "--deals", str(args.deals), "--jobs", str(args.jobs),
                                 "--levels", *map(str, args.levels))
    print(f"Python {sys.version.split()[0]}; {args.deals} paired deals, every seat in turn; CPU time per move")
    print("gain per seat-hand ± its standard error over deals (over seat-hands in brackets)")
    if args.before:
        print(f"before: the code of {args.before}; now: this checkout's")
    print(f"{'level':>8}  {'gain per seat-hand':>27}  {'seat-hands':>10}  {'move p50':>9}  {'p95':>7}  {'worst':>7}")
    for level in args.levels:
        after = measure(level, args.deals, args.jobs)
        old = before.get(str(level))
        if old:
            print(_row(f"{level} before", old))
        print(_row(f"{level} now" if old else str(level), after), flush=True)
        if old:
            change = [a - b for a, b in zip(after["per_deal"], old["per_deal"], strict=True)]
            print(f"{'':>8}  now minus before, paired by deal: {statistics.mean(change):+.2f} ± {_error(change):.2f}")


if __name__ == "__main__":
    main()
