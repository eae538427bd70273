"""Nothing acknowledged is lost: the tables' server (``python -m tutor.server.tables``, a real
process with its SQLite journal in a temporary folder) is killed (``kill -9``) at a random
moment of play, or stopped cleanly, and started again, several times over while tables of five
light clients (:class:`~tutor.server.tables.robot.Robot`) play; after each start every table
reopens, every client rejoins its seat by its token, and nothing any seat had been shown is
gone; in the end every hand finishes, with the results every seat sees equal to those of the
same deal replayed from the journal's actions by the rules alone.

"Acknowledged" is what a seat was shown: a state with ``plays`` = n in hand h means the
server had sent the n-th play of hand h, so the journal read from the database after the kill
(before the server starts again) must hold hand h with at least n plays, and the seat's first
state after it rejoins must be at least as far.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tutor.rules.actions import Play
from tutor.rules.game import Game
from tutor.server.tables.entries import Acted, Dealt, Started
from tutor.server.tables.journal import Journal, Kept, sqlite_url
from tutor.server.tables.robot import Robot
from test_tables import run

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("Ana", "Ben", "Cai", "Dee", "Eve")
TABLES = 3
HANDS = 2
PATIENCE = 240.0
"""Seconds the test waits for the tables before it gives up (a safety limit, not a measure)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """The tables' server as a process of its own, its journal at ``url``."""

    def __init__(self, port: int, url: str, log: Path) -> None:
        env = {**os.environ, "QD_TABLE_PACE": "0", "PYTHONPATH": str(ROOT)}
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "tutor.server.tables",
                                             "--port", str(port), "--database", url], cwd=ROOT, env=env, stdout=out,
                                            stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/tables/", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("the tables' server did not start:\n" + log.read_text("utf-8", "replace"))
            time.sleep(0.1)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(30)

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGABRT)  # its threads' stacks, in the log (-X faulthandler)
            self.process.wait(30)
            raise AssertionError("the server did not stop on SIGINT:\n" +
                                 self.log.read_text("utf-8", "replace")[-5000:]) from None
        assert self.process.returncode == 0, self.log.read_text("utf-8", "replace")[-3000:]


@dataclass
class Seen:
    """The furthest a seat has been shown: (hand, plays), and its last state."""

    hands: int = 0
    plays: int = 0
    state: dict[str, Any] = field(default_factory=dict)

    @property
    def at(self) -> tuple[int, int]:
        return self.hands, self.plays


@dataclass
class Table:
    code: str = ""
    tokens: list[str] = field(default_factory=list)
    robots: list[Robot] = field(default_factory=list)
    seen: list[Seen] = field(default_factory=lambda: [Seen() for _ in NAMES])
    again_sent: set[int] = field(default_factory=set)


class Class:
    """``TABLES`` tables of five robots on the server at ``url``; ``moved`` is called at every state."""

    def __init__(self, url: str, moved: Callable[[], None]) -> None:
        self.url, self.moved = url, moved
        self.tables = [Table() for _ in range(TABLES)]
        self.rng = random.Random(20261208)

    def robot(self, t: int, i: int) -> Robot:
        table = self.tables[t]

        def on_state(robot: Robot, state: dict[str, Any], _at: float) -> None:
            seen = table.seen[i]
            hands = int((state.get("shared") or {}).get("hands") or 0)
            seen.state = state
            seen.hands, seen.plays = max((seen.hands, seen.plays), (hands, int(state.get("plays") or 0)))
            if i == 0 and state.get("phase") == "finished" and hands < HANDS and hands not in table.again_sent:
                table.again_sent.add(hands)
                asyncio.get_running_loop().create_task(robot.send({"kind": "again"}))
            self.moved()

        return Robot(self.url, NAMES[i], seed=self.rng.randrange(10**6), on_state=on_state)

    async def seat(self) -> None:
        for t, table in enumerate(self.tables):
            table.robots = [self.robot(t, i) for i in range(len(NAMES))]
            for robot in table.robots:
                await robot.connect()
            table.code = await table.robots[0].open()
            for robot in table.robots[1:]:
                await robot.join(table.code)
            table.tokens = [r.seated["token"] for r in table.robots]
            await table.robots[0].send({"kind": "start"})

    async def rejoin(self) -> None:
        """Every seat's page comes back (a new connection, its token), as a page's script does."""
        for t, table in enumerate(self.tables):
            for robot in table.robots:
                robot.close()
            before = [seen.at for seen in table.seen]
            table.robots = [self.robot(t, i) for i in range(len(NAMES))]
            for i, robot in enumerate(table.robots):
                await robot.connect()
                await robot.join(table.code, table.tokens[i])
                assert robot.seated["seat"] == i and robot.seated["token"] == table.tokens[i]
            await until(lambda: all(r.state for r in table.robots), "every seat's state after the rejoin")
            first = [next(m for m in r.received if m.get("kind") == "traits")["traits"]["state"] for r in table.robots]
            for i, state in enumerate(first):
                shown = (int(state["shared"]["hands"]), int(state["plays"]))
                assert shown >= before[i], f"table {t} seat {i}: shown {before[i]} before, {shown} after the restart"
            notes = [next(m for m in r.received if m.get("kind") == "traits")["traits"]["feedback"] for r in table.robots]
            assert all("started again" in note.get("reason", "") for note in notes), notes
            table.again_sent.clear()  # an "again" the killed server never read is sent again

    def total_plays(self) -> int:
        return sum(seen.plays + 1000 * seen.hands for table in self.tables for seen in table.seen)

    def done(self) -> bool:
        return all(seen.hands == HANDS and seen.state.get("phase") == "finished"
                   for table in self.tables for seen in table.seen)


async def until(condition: Callable[[], bool], what: str, limit: float = PATIENCE) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what} (a safety limit of {limit:.0f} s)")
        await asyncio.sleep(0.02)


def last_hand(kept: Kept) -> tuple[int, Game]:
    """The number of the table's hand its journal is at, and that hand replayed by the rules alone."""
    game, hands = Game(kept.opened.seed, kept.opened.rules), 0
    for entry in kept.entries:
        if isinstance(entry, Started):
            hands = 1
        elif isinstance(entry, Dealt):
            game, hands = Game(entry.seed, kept.opened.rules), hands + 1
        elif isinstance(entry, Acted):
            game.apply(entry.action)
    return hands, game


def journals(url: str) -> dict[str, Kept]:
    journal = Journal(url)
    try:
        return {kept.opened.code: kept for kept in journal.kept()}
    finally:
        journal.close()


def nothing_lost(url: str, lesson: Class) -> None:
    """What every seat was shown is in the journal (read as the server is down)."""
    kept = journals(url)
    for t, table in enumerate(lesson.tables):
        hands, game = last_hand(kept[table.code])
        plays = sum(isinstance(a, Play) for a in game.history)
        for i, seen in enumerate(table.seen):
            assert (hands, plays) >= seen.at, f"table {t} seat {i} was shown {seen.at}; the journal holds {(hands, plays)}"


@pytest.mark.parametrize("stops", [("kill", "stop", "kill")])
def test_killed_or_stopped_mid_play_the_server_reopens_every_table_and_nothing_is_lost(
        tmp_path: Path, stops: tuple[str, ...]) -> None:
    url, port, log = sqlite_url(tmp_path / "tables.sqlite3"), free_port(), tmp_path / "server.log"
    rng = random.Random(41)

    async def scenario() -> None:
        server = Server(port, url, log)
        moved = asyncio.Event()
        lesson = Class(f"ws://127.0.0.1:{port}/tables/ws", moved.set)
        await lesson.seat()
        for number, how in enumerate(stops):
            target = lesson.total_plays() + rng.randrange(15, 140)  # a random moment: some plays later
            await until(lambda: lesson.total_plays() >= target or lesson.done(), f"play before stop {number}")
            server.kill() if how == "kill" else server.stop()
            nothing_lost(url, lesson)
            server = Server(port, url, log)
            await lesson.rejoin()
        await until(lesson.done, "every table's hands to finish")
        server.stop()

        kept = journals(url)
        for t, table in enumerate(lesson.tables):
            hands, game = last_hand(kept[table.code])
            assert hands == HANDS and game.results is not None
            shown = [[row["result"] for row in seen.state["score"]["results"]] for seen in table.seen]
            assert all(results == list(game.results) for results in shown), (t, shown, game.results)
        text = log.read_text("utf-8", "replace")
        assert text.count(f"{TABLES} reopened") == len(stops), text[-3000:]
        assert "Traceback" not in text and " ERROR " not in text, text[-3000:]

    run(scenario())
