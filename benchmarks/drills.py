"""Speed of drill generation: a new drill, median and worst of 1,000 per kind and
overall (targets: median ≤ 20 ms, worst ≤ 100 ms). The coach's drills search (they play
each choice out dozens of times): 60 of them, CPU time, with their own targets (median
≤ 1 s, worst ≤ 3 s), kept out of the overall figure. Run: python benchmarks/drills.py"""

from __future__ import annotations

import statistics
import sys
import time

from tutor.teach.drills import KINDS, generate

COUNT = 1000
MEDIAN_MS, WORST_MS = 20.0, 100.0
ADVICE_COUNT = 60
ADVICE_MEDIAN_MS, ADVICE_WORST_MS = 1000.0, 3000.0


def main() -> int:
    overall: list[float] = []
    failed = False
    print(f"{'kind':8} {'median ms':>10} {'worst ms':>9}  (new drills, {COUNT} per kind, levels 1-3)")
    for kind, info in KINDS.items():
        samples = []
        clock = time.process_time if info.advice else time.perf_counter
        for i in range(ADVICE_COUNT if info.advice else COUNT):
            seed, level = 10_000 + i, 1 + i % 3  # seeds the tests do not use
            start = clock()
            generate(kind, seed, level)
            samples.append((clock() - start) * 1000)
        median, worst = statistics.median(samples), max(samples)
        if info.advice:
            ok = median <= ADVICE_MEDIAN_MS and worst <= ADVICE_WORST_MS
        else:
            overall.extend(samples)
            ok = median <= MEDIAN_MS and worst <= WORST_MS
        failed |= not ok
        print(f"{kind:8} {median:10.2f} {worst:9.1f}  {'ok' if ok else 'SLOW'}")
    print(f"{'overall':8} {statistics.median(overall):10.2f} {max(overall):9.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
