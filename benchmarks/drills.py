"""Speed of drill generation: a new drill, median and worst of 1,000 per kind and
overall (targets: median ≤ 20 ms, worst ≤ 100 ms). The coach's drills come from a bank
prepared when the package is built (benchmarks/advice_drills.py compares them with the
search they once took). Run: python benchmarks/drills.py"""

from __future__ import annotations

import statistics
import sys
import time

from tutor.teach.drills import KINDS, generate

COUNT = 1000
MEDIAN_MS, WORST_MS = 20.0, 100.0


def main() -> int:
    overall: list[float] = []
    failed = False
    print(f"{'kind':8} {'median ms':>10} {'worst ms':>9}  (new drills, {COUNT} per kind, levels 1-3)")
    for kind in KINDS:
        samples = []
        generate(kind, 0, 1)  # what a kind reads once (the coach's bank) is read as a page opens
        for i in range(COUNT):
            seed, level = 10_000 + i, 1 + i % 3  # seeds the tests do not use
            start = time.perf_counter()
            generate(kind, seed, level)
            samples.append((time.perf_counter() - start) * 1000)
        median, worst = statistics.median(samples), max(samples)
        overall.extend(samples)
        ok = median <= MEDIAN_MS and worst <= WORST_MS
        failed |= not ok
        print(f"{kind:8} {median:10.2f} {worst:9.1f}  {'ok' if ok else 'SLOW'}")
    print(f"{'overall':8} {statistics.median(overall):10.2f} {max(overall):9.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
