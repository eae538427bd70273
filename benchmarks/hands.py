"""Speed of whole hands and of the simulation: prints the figures (run: ./dev bench).

- a whole hand of computer players, deal to score (``play_computer_hand``), median
  over seeds — goal ≥ 5× faster than before the turn-API issue;
- a whole hand of random legal players (``play_random_hand``);
- random and greedy playouts from a seat's view at the first lead and mid-hand
  (:class:`tutor.play.simulation.Simulation`), per second of one core's CPU time — the fast
  engine's goals (issue 30): ≥ 25,000 random and ≥ 10,000 greedy from the first lead.

``--before REV`` times the same hands with the code of REV (a git worktree in a
temporary directory, run in a subprocess) in the same run, and prints both.
CPU time (``time.process_time``) is measured, so other work on the machine counts less.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from versions import tutor_module

ROOT = Path(__file__).resolve().parent.parent
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


def _playouts(tricks: int, seconds: float = 3.0, policy: str = "random") -> float | None:
    """Playouts per CPU second from the view of the seat to act after ``tricks`` tricks,
    every seat playing by ``policy`` (the search's is ``"greedy"``)."""
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
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for simulation, layout in zip(cases, layouts):
            if policy == "random":
                simulation.playout(layout, rng)
            else:
                simulation.playout(layout, rng, policy=policy)
            count += 1
    return count / (time.process_time() - start)


def measure() -> dict[str, object]:
    """Every figure of this checkout, as JSON-ready values."""
    computer = _hand_times("computer")
    random_hands = _hand_times("random")
    return {
        "computer": statistics.median(computer), "computer_p95": sorted(computer)[int(0.95 * len(computer))],
        "random": statistics.median(random_hands),
        "playouts_first": _playouts(0), "playouts_mid": _playouts(10),
        "greedy_first": _playouts(0, policy="greedy"), "greedy_mid": _playouts(10, policy="greedy"),
    }


def _measure_at(rev: str) -> dict[str, object]:
    """The same figures for the code of ``rev``, measured in a worktree by this very script."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), rev], check=True)
        try:
            env = dict(os.environ, PYTHONPATH=str(tree))
            out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--json"], cwd=tree, env=env,
                                 check=True, capture_output=True, text=True).stdout
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)
    return json.loads(out)  # type: ignore[no-any-return]


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
            ("playouts from the first lead", "playouts_first", "/s"), ("playouts after 10 tricks", "playouts_mid", "/s"),
            ("greedy playouts, first lead", "greedy_first", "/s"), ("greedy playouts, after 10", "greedy_mid", "/s")]
    print(f"Python {sys.version.split()[0]}; {len(SEEDS)} hands each; CPU time of one core")
    head = f"{'figure':34} {'before':>14} {'after':>14} {'speed-up':>9}" if before else f"{'figure':34} {'now':>14}"
    print(head)
    for label, key, unit in rows:
        now = after[key]
        if before is None:
            print(f"{label:34} {_cell(now, unit):>14}")
            continue
        old = before.get(key)
        ratio = ""
        if isinstance(old, float) and isinstance(now, float):
            ratio = f"{(old / now if unit == 'ms' else now / old):.1f}×"
        print(f"{label:34} {_cell(old, unit):>14} {_cell(now, unit):>14} {ratio:>9}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
