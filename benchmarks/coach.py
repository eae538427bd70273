"""Speed of the coach: prints the figures (run: python benchmarks/coach.py).

- "What would you play?" (:func:`tutor.play.coach.advise`) at every turn of the learner's
  seat in whole hands: CPU ms, median / p95 / worst (the table's browser figure, click →
  advised cards picked, is printed by tests/browser/test_play_table.py);
- the review of a whole hand (:func:`tutor.play.coach.review`): CPU seconds per hand.

CPU time (``time.process_time``), so other work on the machine counts less.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor.rules.cards import PLAYERS  # noqa: E402
from tutor.play.coach import advise, review  # noqa: E402
from tutor.rules.game import Game, Phase  # noqa: E402
from tutor.play.strategy import ComputerPlayer, next_action  # noqa: E402

HANDS = range(20_000, 20_008)
SEAT = 0


def main() -> None:
    advice_ms: list[float] = []
    review_s: list[float] = []
    for seed in HANDS:
        game = Game(seed)
        bots = {seat: ComputerPlayer(seat, seed) for seat in range(PLAYERS)}
        while game.phase is not Phase.FINISHED:
            if game.phase is Phase.PLAYING and game.actor == SEAT:
                start = time.process_time()
                advise(game.view(SEAT), game.rules, seed=seed)
                advice_ms.append(1000 * (time.process_time() - start))
            game.apply(next_action(game, bots))
        start = time.process_time()
        review(game, SEAT, seed=seed)
        review_s.append(time.process_time() - start)
    advice_ms.sort()
    print(f"Python {sys.version.split()[0]}; {len(HANDS)} hands, seat {SEAT}; CPU time")
    print(f"advice ('What would you play?'): median {statistics.median(advice_ms):.0f} ms, "
          f"p95 {advice_ms[int(0.95 * len(advice_ms))]:.0f} ms, worst {advice_ms[-1]:.0f} ms "
          f"over {len(advice_ms)} turns")
    print(f"review of a whole hand: median {statistics.median(review_s):.2f} s, worst {max(review_s):.2f} s")


if __name__ == "__main__":
    main()
