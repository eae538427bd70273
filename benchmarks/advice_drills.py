"""Speed of the coach's drills (lesson 11): the CPU time to open one — a new position at
each level, made as a page makes it (:func:`tutor.teach.drills.generate`). Prints the
median, p95 and worst; with ``--before REV`` the same for the code of REV first (a git
worktree), in the same run (before the prepared bank, each drill was a search).

    python benchmarks/advice_drills.py [--before REV] [--count N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from versions import ROOT, measured_in, worktree


def measure(count: int) -> list[float]:
    """CPU milliseconds to open each of ``count`` advice drills (seeds the tests do not use,
    levels 1–3 in turn)."""
    from tutor.teach.drills import generate

    generate("advice", 0, 1)  # the first drill reads the bank: a page does it once, as it opens
    times = []
    for i in range(count):
        start = time.process_time()
        generate("advice", 10_000 + i, 1 + i % 3)
        times.append(1000 * (time.process_time() - start))
    return times


def _measure_at(rev: str, count: int) -> list[float]:
    with worktree(rev) as tree:
        times: list[float] = measured_in(tree, __file__, "--count", str(count))
    return times


def _line(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"{name:10} {len(times):6} {statistics.median(times):10.1f} {p95:9.1f} {max(times):9.1f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", metavar="REV", help="also measure the code of this git revision")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        sys.path.insert(0, str(Path.cwd()))
        print(json.dumps(measure(args.count)))
        return 0
    sys.path.insert(0, str(ROOT))
    print(f"{'code':10} {'drills':>6} {'median ms':>10} {'p95 ms':>9} {'worst ms':>9}  (CPU, opening an advice drill)")
    if args.before:
        print(_line(args.before[:10], _measure_at(args.before, min(args.count, 30))), flush=True)
    print(_line("now", measure(args.count)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
