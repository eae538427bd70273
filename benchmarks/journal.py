"""What keeping the tables' journal costs, measured on this machine (a script, not a test).

    python benchmarks/journal.py [--hands 8] [--database URL]

Plays ``--hands`` whole hands at tables of the classmates' server, in this process, every seat
the computer's (:class:`tutor.server.tables.shared.SharedTable`, no pauses), each change written
to the journal (:class:`tutor.server.tables.journal.Journal`) as the server writes it: one
transaction per entry, before anything is sent. The database is a fresh SQLite file in a temporary
folder (WAL, ``synchronous=NORMAL``) unless ``--database`` names another (a PostgreSQL URL).

Printed: per entry written, the wall time (p50, p95, max, ms: what a table waits before it tells
its pages) and the CPU time of this process (mean, ms); and the table's own CPU per action
without the journal, the same hands played again in the same run, so the share of the journal
in a table's work can be judged. The goal is ≤ 1 ms per action at p95 (issue 41). Other work on
the machine (the load average is printed) shows in the wall times, not in CPU.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO)]

from tutor.rules.phase import Phase  # noqa: E402
from tutor.server.tables.entries import Entry  # noqa: E402
from tutor.server.tables.journal import Journal, sqlite_url  # noqa: E402
from tutor.server.tables.shared import ABSENT_AFTER, Pace, SharedTable  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(share * len(ordered))) - 1))]


def play(seed: int, journal: Journal | None, walls: list[float], cpus: list[float]) -> tuple[int, float]:
    """One hand, every seat the computer's: (actions, the table's CPU seconds without the writes)."""
    table = SharedTable(f"B{seed:05d}", level=1, seed=seed, pace=Pace(0, 0, 0))
    if journal is not None:
        journal.open_table(table.opening)

        def keep(entry: Entry) -> None:
            wall, cpu = time.perf_counter(), time.thread_time()
            journal.write(table.code, entry)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.thread_time() - cpu)

        table.keep = keep
    player = table.join("Ana", "en")  # who never opens a page: the computer plays her seat too
    table.start(player, 0.0)
    now = ABSENT_AFTER + 1
    start, written = time.thread_time(), len(cpus)
    while table.game.phase is not Phase.FINISHED:
        if not table.step(now):
            raise RuntimeError(f"the table stopped: {table.overview(now)}")
    spent = time.thread_time() - start - sum(cpus[written:])
    if journal is not None:
        journal.forget(table.code)
    return len(table.game.history), spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--database", help="a database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores; load average at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or sqlite_url(Path(folder) / "tables.sqlite3")
        journal = Journal(url)
        walls: list[float] = []
        cpus: list[float] = []
        with_journal, table_cpu = 0, 0.0
        for hand in range(args.hands):
            actions, spent = play(1000 + hand, journal, walls, cpus)
            with_journal, table_cpu = with_journal + actions, table_cpu + spent
        journal.close()
        bare_actions, bare_cpu = 0, 0.0
        for hand in range(args.hands):
            actions, spent = play(1000 + hand, None, [], [])
            bare_actions, bare_cpu = bare_actions + actions, bare_cpu + spent
    print(f"database: {journal.where}")
    print(f"{args.hands} hands, {with_journal} actions, {len(walls)} entries written (one transaction each)")
    ms = [w * 1000 for w in walls]
    print(f"journal write per entry, wall: p50 {statistics.median(ms):.3f} ms, p95 {percentile(ms, 0.95):.3f} ms, "
          f"max {max(ms):.3f} ms  (goal: p95 ≤ 1 ms: {'met' if percentile(ms, 0.95) <= 1.0 else 'missed'})")
    print(f"journal write per entry, CPU of this process: mean {statistics.fmean(cpus) * 1000:.3f} ms")
    print(f"the table's own CPU per action: {table_cpu / with_journal * 1000:.3f} ms with the journal (writes left "
          f"out), {bare_cpu / bare_actions * 1000:.3f} ms without it (the same hands)")
    print(f"load average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
