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
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.rules.cards import PLAYERS  # noqa: E402
from tutor.rules.game import Game, Phase  # noqa: E402
from tutor.play.strategy import LEVELS, ComputerPlayer, next_action  # noqa: E402

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


def measure(level: int, deals: int, jobs: int) -> dict[str, float]:
    """The figures of ``level`` over ``deals`` paired deals."""
    work = [(FIRST_DEAL + n, level) for n in range(deals)]
    start = time.perf_counter()
    done = []
    with ProcessPoolExecutor(jobs) as pool:
        for result in pool.map(_deal, work, chunksize=4):
            done.append(result)
            if len(done) % 50 == 0:  # a running figure, to stderr
                so_far = [statistics.mean(deal_gains) for deal_gains, _ in done]
                print(f"  level {level}: {len(done)} deals, gain {statistics.mean(so_far):+.2f} ± "
                      f"{statistics.stdev(so_far) / math.sqrt(len(so_far)):.2f}", file=sys.stderr, flush=True)
    gains = [g for deal_gains, _ in done for g in deal_gains]
    per_deal = [statistics.mean(deal_gains) for deal_gains, _ in done]
    times = sorted(t for _, deal_times in done for t in deal_times)
    return {
        "gain": statistics.mean(gains),
        "error": statistics.stdev(per_deal) / math.sqrt(len(per_deal)),
        "seat_error": statistics.stdev(gains) / math.sqrt(len(gains)),
        "seat_hands": len(gains),
        "p50": 1000 * times[len(times) // 2],
        "p95": 1000 * times[int(len(times) * 0.95)],
        "worst": 1000 * times[-1],
        "wall": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--levels", type=int, nargs="*", default=[lv for lv in LEVELS if lv > 1])
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; {args.deals} paired deals, every seat in turn; CPU time per move")
    print("gain per seat-hand ± its standard error over deals (over seat-hands in brackets)")
    print(f"{'level':>5}  {'gain per seat-hand':>27}  {'seat-hands':>10}  {'move p50':>9}  {'p95':>7}  {'worst':>7}")
    for level in args.levels:
        f = measure(level, args.deals, args.jobs)
        print(f"{level:>5}  {f['gain']:>+11.2f} ± {f['error']:.2f} ({f['seat_error']:.2f})  {f['seat_hands']:>10}  "
              f"{f['p50']:>6.0f} ms  {f['p95']:>4.0f} ms  {f['worst']:>4.0f} ms   ({f['wall']:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
