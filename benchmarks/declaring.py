"""What declaring by search would add to level 3: prints the figures (run: python benchmarks/declaring.py).

Every level declares by level 1's rule of thumb (:meth:`ComputerPlayer.declaration`).
This measures the alternative, a level-3 player that weighs each declaration near or
above that bar (within ``--margin`` of the share of trumps it asks) against not declaring
yet, by :func:`tutor.play.search.weigh_declarations` on ``--layouts`` completed deals, and
declares otherwise when the search is ``--sureness`` standard errors sure.

For every seat of every deal, the deal is dealt with that seat declaring by search and the
others at level 1. Where the seat declares as level 1 would (the same declarations, in the
same order), the hand is the same with or without the search — the search draws from a
generator of its own — so its gain there is exactly 0. Where it declares otherwise, the
hand is played out twice, by this player and by level 3, and the difference of the seat's
result (S1–S3) is its gain. The figure is the mean gain per seat-hand over all of them,
with its standard error, and the CPU time of the searched declarations (``--jobs N``: N
processes). Every search deals all its layouts (no think-time cut-off), so that the figures
do not depend on the machine's load.
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

import random  # noqa: E402

from tutor.rules.cards import PLAYERS, Card  # noqa: E402
from tutor.rules.game import Action, Declare, Game, Phase, SeatView  # noqa: E402
from tutor.play.search import edge, weigh_declarations  # noqa: E402
from tutor.play.strategy import MAX_THINK, ComputerPlayer, next_action  # noqa: E402

FIRST_DEAL = 10_000  # the deals benchmarks/strength.py plays
SETTINGS = {"layouts": 48, "sureness": 1.0, "margin": 0.1}


class SearchingDeclarer(ComputerPlayer):
    """A level-3 player that declares by search (see the module), keeping the CPU time
    of each declaration it searched."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed, level=3, think=MAX_THINK)
        self.declare_rng = random.Random(f"declare-{seed}-{seat}")
        self.table = {s: ComputerPlayer(s, 0, self.rules) for s in range(PLAYERS)}
        self.times: list[float] = []

    def declaration(self, view: SeatView) -> Declare | None:
        heuristic = super().declaration(view)
        near = sorted((o for o in self.declarations(view) if o[0] >= o[1] - SETTINGS["margin"]), key=lambda o: -o[0])
        if not near:
            return heuristic
        start = time.process_time()
        weighed: list[tuple[Card, ...] | None] = [heuristic.cards if heuristic else None]
        weighed += [shown for _, _, shown in near if shown not in weighed][:2]
        if None not in weighed:
            weighed.append(None)
        results = weigh_declarations(view, weighed, self._table_action, self.rules, rng=self.declare_rng,
                                     layouts=int(SETTINGS["layouts"]), think=self.think)
        best = max(range(len(weighed)), key=lambda i: sum(results[i]))
        self.times.append(time.process_time() - start)
        gain, error = edge(results[best], results[0]) if best else (0.0, 0.0)
        if best == 0 or gain <= SETTINGS["sureness"] * error:
            return heuristic
        cards = weighed[best]
        return None if cards is None else Declare(self.seat, cards)

    def _table_action(self, game: Game) -> Action:
        """What the search expects of every seat once its own choice is made: level 1's play."""
        return next_action(game, self.table)


def _play(seed: int, seat: int, *, searching: bool, until: Phase) -> tuple[Game, list[float]]:
    """The deal ``seed`` played to ``until`` with ``seat`` declaring by search (else at
    level 3), the others at level 1; the CPU time of each searched declaration."""
    game = Game(seed)
    bots = {s: ComputerPlayer(s, seed) for s in range(PLAYERS)}
    player = bots[seat] = SearchingDeclarer(seat, seed) if searching else \
        ComputerPlayer(seat, seed, level=3, think=MAX_THINK)
    while game.phase is not until and game.phase is not Phase.FINISHED:
        game.apply(next_action(game, bots))
    return game, player.times if isinstance(player, SearchingDeclarer) else []


def _declared(game: Game) -> list[Declare]:
    return [action for action in game.history if isinstance(action, Declare)]


def _deal(job: tuple[int, dict[str, float]]) -> tuple[list[int], list[float], int]:
    """Each seat's gain in deal ``seed``, the searched declarations' times, how many seats declared otherwise."""
    seed, settings = job
    SETTINGS.update(settings)
    plain = _declared(_play(seed, 0, searching=False, until=Phase.BURYING)[0])  # level 3 declares as level 1
    gains, times, changed = [], [], 0
    for seat in range(PLAYERS):
        dealt, searched = _play(seed, seat, searching=True, until=Phase.BURYING)
        times += searched
        if _declared(dealt) == plain:
            gains.append(0)
            continue
        changed += 1
        with_search = _play(seed, seat, searching=True, until=Phase.FINISHED)[0]
        without = _play(seed, seat, searching=False, until=Phase.FINISHED)[0]
        assert with_search.results is not None and without.results is not None
        gains.append(with_search.results[seat] - without.results[seat])
    return gains, times, changed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    for name, value in SETTINGS.items():
        parser.add_argument(f"--{name}", type=type(value), default=value)
    args = parser.parse_args()
    settings = {name: getattr(args, name) for name in SETTINGS}
    start = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        done = list(pool.map(_deal, [(seed, settings) for seed in range(FIRST_DEAL, FIRST_DEAL + args.deals)],
                             chunksize=4))
    gains = [g for deal_gains, _, _ in done for g in deal_gains]
    times = sorted(t for _, deal_times, _ in done for t in deal_times) or [0.0]
    changed = sum(c for _, _, c in done)
    nonzero = [g for g in gains if g]
    print(f"Python {sys.version.split()[0]}; {args.deals} deals, every seat in turn, the others level 1; {settings}")
    print(f"declaring by search: {statistics.mean(gains):+.3f} ± {statistics.stdev(gains) / math.sqrt(len(gains)):.3f} "
          f"per seat-hand over {len(gains)}; declared otherwise in {changed} "
          f"({sum(g > 0 for g in nonzero)} better, {sum(g < 0 for g in nonzero)} worse)")
    print(f"searched declarations: {sum(len(t) for _, t, _ in done)}, CPU p50 {1000 * times[len(times) // 2]:.0f} ms, "
          f"p95 {1000 * times[int(len(times) * 0.95)]:.0f} ms, worst {1000 * times[-1]:.0f} ms "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
