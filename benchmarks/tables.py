"""Tables of classmates under a class's load, measured on this machine (a script, not a test).

    python benchmarks/tables.py [--tables 8] [--hands 1] [--think 0.3] [--pace 0]
                                [--kill-at 40] [--away 1.0] [--stress-think 0 | --no-stress]
                                [--timeout 150] [--before REV]

The tables' server runs as a process of its own (``python -m tutor.server.tables --port N
--prefix /tables/``, with ``QD_TABLE_PACE=<--pace>``: 0, the default, takes out the server's
deliberate pauses — the deal, the computer's moves, a won trick shown — so they do not count
as latency; 1 is the pace a class gets; its journal in a fresh SQLite file, as every server keeps
one: ``QD_TABLES_DATABASE``). This process plays ``--tables`` tables of five light
clients (:class:`tutor.server.tables.robot.Robot`, all on one asyncio loop): each reads only
its own seat's states and acts when its seat is to act, as a page does, after ``--think``
seconds (a person's pause; the Robot's own). The opener of each table starts the hand, and
deals the next (``again``) as soon as it sees the hand over, ``--hands`` hands in all.

Figures, per round (the round with ``--think``, then unless ``--no-stress`` a stress round with
``--stress-think`` on a fresh server):

- *An action seen by all five*: from the moment a robot sends an action (``Robot.sent``) to the
  moment the last of the table's five seats has received a state that shows it (times taken
  when each robot reads the message, ``time.perf_counter``, one clock). What "shows it" means:
  a card played — the first state with ``plays`` ≥ that play's number in the same hand
  (``shared.hands``), the play's number being 1 + ``plays`` of the state the robot acted on
  (found by that state's ``version``); a burial — the first state of that hand past the
  ``burying`` phase; a called friend (or going alone) — the first state past ``calling``; a
  declaration (during the deal: no ``declarer`` yet, the seat *shows* cards) — the first state
  received after the send whose ``declaration_text`` differs from what that seat showed when the
  action was sent (another seat's declaration at the same moment would count too). Passes (a seat's own stop in the deal) change nothing another seat can tell apart and
  are counted, not timed. An action sent again for the same play (a refusal, then a retry) is
  timed from its last send. Plays are the headline (about 150 of the hand's actions, turn by
  turn); the other kinds are few. A robot that is thinking does not read its socket
  (``Robot._maybe_act`` sleeps inside its reader), so an action by another seat *while* a seat
  thinks is stamped late at that seat: that cannot happen for plays (one seat acts at a time),
  it can for declarations during the deal, whose figure is an upper bound. Printed: count,
  median, p95, max (ms), and how many actions were never seen by all five.
- *Server CPU*: the server process's CPU seconds (user + system, its children included, from
  ``/proc`` via psutil) while seating the players and while playing; per table-hand and per
  timed action. This process's own CPU (the 40 clients) and its event loop's lag are printed
  too, with the other processes that used the CPU during the round (the machine's 2 cores are
  shared), so the wall-clock figures can be judged. This process's garbage collector is off
  while the tables play: the robots keep every message they receive (``Robot.received``, tens
  of MB of states), and a full collection of them stops all 40 clients for 100 ms and more,
  which would be counted as the server's latency.
- *Server memory*: RSS when idle (started, no table), after the tables are opened and seated,
  at the end and its peak (sampled every 0.25 s); per table = (end − idle) / tables.
- *A client killed mid-hand and rejoining* (first round): at table 1, when it is the third
  seat's turn and ``plays`` ≥ ``--kill-at``, its socket is cut (the TCP stream closed, no
  websocket goodbye, as a browser that crashes); ``--away`` seconds later a new Robot joins
  with the seat's token (``rejoin``). Checked: the same seat comes back; its hand, ``plays``
  and log are what the killed page had; the hand then finishes at all five seats with every
  hand empty and the same results at each. Printed: ``rejoin: nothing lost`` or what was lost.

``--before REV`` measures the server of git revision ``REV`` first (a worktree of it; the
robots are this checkout's, which take a server's whole messages as they were before versions
and patches), then this checkout's, and prints bytes per action and CPU per table-hand before → after.

No figure is asserted: it prints numbers, then ``target p95 ≤ 200 ms: met / missed``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO)]
from versions import worktree  # noqa: E402  (benchmarks/, the script's own folder)

from tutor.server.tables.robot import Robot  # noqa: E402

NAMES = ("Ana", "Ben", "Cai", "Dee", "Eve")
TARGET_MS = 200.0
KILLED_SEAT = 2  # the third seat of the first table (not the opener's)
TIMED = ("play", "bury", "call", "declare")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ms(values: list[float]) -> str:
    if not values:
        return "n=0"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, max(0, int(round(0.95 * len(ordered))) - 1))]
    return (f"n={len(ordered)}  median {statistics.median(ordered) * 1000:.1f}  p95 {p95 * 1000:.1f}  "
            f"max {ordered[-1] * 1000:.1f} ms")


def p95_of(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(0.95 * len(ordered))) - 1))] if ordered else float("nan")


# ---------------------------------------------------------------- the server


class Server:
    """``python -m tutor.server.tables`` on a free port, its pauses scaled by ``pace``."""

    def __init__(self, pace: float, tree: Path = REPO) -> None:
        self.port = free_port()
        self.log = Path(tempfile.mkstemp(suffix=".log", prefix="tables-bench-")[1])
        self.folder = tempfile.mkdtemp(prefix="tables-bench-db-")  # its journal: never the user's data folder
        env = {**os.environ, "QD_TABLE_PACE": str(pace), "PYTHONPATH": str(tree),
               "QD_TABLES_DATABASE": f"sqlite:///{self.folder}/tables.sqlite3"}
        self.process = psutil.Popen([sys.executable, "-m", "tutor.server.tables", "--port", str(self.port),
                                     "--prefix", "/tables/"], cwd=tree, env=env,
                                    stdout=self.log.open("wb"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/tables/", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the tables' server did not start:\n" + self.log.read_text("utf-8", "replace"))
            time.sleep(0.1)
        self.url = f"ws://127.0.0.1:{self.port}/tables/ws"

    def cpu(self) -> float:
        """CPU seconds so far: the process and its children (a coach's worker, if any)."""
        total = 0.0
        try:
            times = self.process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
            for child in self.process.children(recursive=True):
                t = child.cpu_times()
                total += t.user + t.system
        except psutil.Error:
            pass
        return total

    def rss(self) -> float:
        """Resident memory of the server and its children, MB."""
        try:
            procs = [self.process, *self.process.children(recursive=True)]
            return float(sum(p.memory_info().rss for p in procs)) / 2**20
        except psutil.Error:
            return float("nan")

    def problems(self) -> list[str]:
        text = self.log.read_text("utf-8", "replace")
        return [line for line in text.splitlines() if " ERROR " in line or line.startswith("Traceback")]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except psutil.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def others_cpu() -> dict[int, tuple[str, float]]:
    """CPU seconds so far of every process this user may read: pid → (command, seconds)."""
    out = {}
    for proc in psutil.process_iter(["pid", "name", "cmdline", "cpu_times"]):
        times = proc.info.get("cpu_times")
        if times is None:
            continue
        command = " ".join(proc.info.get("cmdline") or []) or proc.info.get("name") or "?"
        out[proc.info["pid"]] = (command, times.user + times.system)
    return out


def busiest(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]],
            skip: set[int], most: int = 5) -> list[tuple[float, str]]:
    used = []
    for pid, (command, seconds) in after.items():
        if pid in skip:
            continue
        spent = seconds - before.get(pid, (command, 0.0))[1]
        if spent > 0.05:
            used.append((spent, f"{pid} {command[:90]}"))
    return sorted(used, reverse=True)[:most]


# ---------------------------------------------------------------- the clients


@dataclass
class Record:
    """A state as one seat received it."""

    at: float
    version: Any
    hands: int
    plays: int
    phase: str
    declarer: Any
    declaration: str


@dataclass
class Seat:
    table: int
    seat_index: int
    robots: list[Robot] = field(default_factory=list)  # the page, and the page that rejoined
    records: list[Record] = field(default_factory=list)
    by_version: dict[tuple[int, Any], Record] = field(default_factory=dict)  # (robot #, version) → state


@dataclass
class Kill:
    """The client killed mid-hand, and what its seat showed then."""

    table: int = 0
    seat: int = KILLED_SEAT
    at_plays: int = 0
    hand: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    state_plays: int | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    back: Robot | None = None
    lost: list[str] = field(default_factory=list)
    away_seconds: float = 0.0


class Round:
    def __init__(self, url: str, tables: int, hands: int, think: float, kill_at: int | None,
                 away: float = 1.0) -> None:
        self.url, self.n_tables, self.hands, self.think, self.away = url, tables, hands, think, away
        self.seats: list[list[Seat]] = [[Seat(t, i) for i in range(len(NAMES))] for t in range(tables)]
        self.codes: list[str] = [""] * tables
        self.done = [asyncio.Event() for _ in range(tables)]
        self.again_sent: list[set[int]] = [set() for _ in range(tables)]
        self.kill = Kill(at_plays=kill_at) if kill_at is not None else None
        self.lag: list[float] = []

    def robot(self, t: int, i: int, seed: int) -> Robot:
        seat = self.seats[t][i]
        number = len(seat.robots)

        def on_state(robot: Robot, state: dict[str, Any], at: float) -> None:
            shared = state.get("shared") or {}
            record = Record(at, state.get("version"), int(shared.get("hands") or 0), int(state.get("plays") or 0),
                            str(state.get("phase")), state.get("declarer"), str(state.get("declaration_text") or ""))
            seat.records.append(record)
            seat.by_version[(number, record.version)] = record
            self.watch(t, i, robot, state)

        robot = Robot(self.url, NAMES[i], seed=seed, think=self.think, on_state=on_state)
        seat.robots.append(robot)
        return robot

    def current(self, t: int) -> list[Robot]:
        return [seat.robots[-1] for seat in self.seats[t]]

    def watch(self, t: int, i: int, robot: Robot, state: dict[str, Any]) -> None:
        kill = self.kill
        if (kill is not None and t == kill.table and i == kill.seat and not kill.ready.is_set()
                and len(self.seats[t][i].robots) == 1 and state.get("phase") == "playing"
                and int(state.get("plays") or 0) >= kill.at_plays and (state.get("can") or {}).get("play")):
            robot.acting = False  # its turn, and it will not play it: its page dies now
            kill.hand = [c["text"] for c in robot.hand]
            kill.log = list(state.get("log") or [])
            kill.state_plays = int(state.get("plays") or 0)
            kill.ready.set()
        robots = self.current(t)
        states = [r.state for r in robots]
        finished = [s.get("phase") == "finished" for s in states]
        hands = [(s.get("shared") or {}).get("hands") for s in states]
        if i == 0 and state.get("phase") == "finished":
            number = (state.get("shared") or {}).get("hands") or 0
            if number < self.hands and number not in self.again_sent[t]:
                self.again_sent[t].add(number)
                asyncio.get_running_loop().create_task(robot.send({"kind": "again"}))
        if all(finished) and all(h == self.hands for h in hands):
            self.done[t].set()

    async def seat_table(self, t: int) -> None:
        robots = [self.robot(t, i, seed=t * 10 + i) for i in range(len(NAMES))]
        for r in robots:
            await r.connect()
        self.codes[t] = await robots[0].open()
        for r in robots[1:]:
            await r.join(self.codes[t])

    async def killer(self) -> None:
        kill = self.kill
        assert kill is not None
        await kill.ready.wait()
        seat = self.seats[kill.table][kill.seat]
        old = seat.robots[0]
        token, code = old.seated["token"], self.codes[kill.table]
        assert old._ws is not None and old._ws.protocol is not None
        killed = time.perf_counter()
        stream = old._ws.protocol.stream
        assert stream is not None
        stream.close()  # the TCP connection cut: no websocket close frame
        if old._reader is not None:
            old._reader.cancel()
        await asyncio.sleep(self.away)
        back = self.robot(kill.table, kill.seat, seed=99)
        await back.connect()
        await back.join(code, token)
        kill.back = back
        kill.away_seconds = time.perf_counter() - killed
        lost = kill.lost
        deadline = time.monotonic() + 10
        while not any(m.get("kind") == "traits" for m in back.received) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        if back.seated.get("seat") != old.seated.get("seat") or back.seated.get("token") != token:
            lost.append(f"the seat: came back to {back.seated.get('seat')}, was {old.seated.get('seat')}")
        first = next((m["traits"] for m in back.received if m.get("kind") == "traits"), None)
        if first is None:
            lost.append("nothing was sent to the page that came back")
            return
        hand = [c["text"] for c in first.get("hand") or []]
        if Counter(hand) != Counter(kill.hand):
            lost.append(f"the hand: {len(kill.hand)} cards before, {len(hand)} after; "
                        f"missing {sorted((Counter(kill.hand) - Counter(hand)).elements())}, "
                        f"extra {sorted((Counter(hand) - Counter(kill.hand)).elements())}")
        state = first.get("state") or {}
        if state.get("plays") != kill.state_plays:
            lost.append(f"plays: {kill.state_plays} when killed, {state.get('plays')} on coming back "
                        "(the table moved while the seat was away)")
        if list(state.get("log") or []) != kill.log:
            lost.append("the log shown differs from the killed page's")

    async def ticker(self, stop: asyncio.Event) -> None:
        """The client loop's lag: how late a 50 ms sleep wakes up."""
        while not stop.is_set():
            start = time.perf_counter()
            await asyncio.sleep(0.05)
            self.lag.append(time.perf_counter() - start - 0.05)

    def check_ends(self) -> list[str]:
        """Every table's end: each hand empty, the same results at all five seats."""
        problems = []
        for t in range(self.n_tables):
            robots = self.current(t)
            if any(r.hand for r in robots):
                problems.append(f"table {t + 1}: cards left in hands {[len(r.hand) for r in robots]}")
            results = [[x.get("result") for x in (r.state.get("score") or {}).get("results", [])] for r in robots]
            if any(r != results[0] for r in results) or not results[0]:
                problems.append(f"table {t + 1}: the seats disagree on the results {results}")
        return problems

    # ------------------------------------------------------------ latency
    def latencies(self) -> tuple[dict[str, list[float]], Counter[str], Counter[str], int]:
        """Per kind: seconds from the (last) send to the moment all five seats had seen it;
        the actions never seen by all five; the actions not timed (passes …); retries."""
        seen: dict[str, list[float]] = {k: [] for k in TIMED}
        unseen: Counter[str] = Counter()
        untimed: Counter[str] = Counter()
        retries = 0
        for t in range(self.n_tables):
            seats = self.seats[t]
            # (kind, key) → last send time, with the test for a state that shows it
            actions: dict[tuple[str, Any], tuple[float, Any]] = {}
            for i, seat in enumerate(seats):
                for number, robot in enumerate(seat.robots):
                    for sent_at, message in robot.sent:
                        if message.get("kind") != "msg":
                            continue
                        content = message.get("content") or {}
                        kind = content.get("type")
                        verb = content.get("verb") if kind == "act" else None
                        name = verb if verb in ("play", "bury", "call") else "call" if kind == "solo" else kind
                        base = seat.by_version.get((number, content.get("version")))
                        if name not in TIMED or base is None:
                            untimed[str(name)] += 1
                            continue
                        if name == "play":
                            key: Any = (base.hands, base.plays + 1)
                            test: Any = ("play", base.hands, base.plays + 1)
                        elif name == "bury":
                            key, test = (base.hands, "bury"), ("past", base.hands, ("dealing", "burying"))
                        elif name == "call":
                            key, test = (base.hands, "call"), ("past", base.hands, ("dealing", "burying", "calling"))
                        else:
                            before = {j: self.shown_at(s, sent_at) for j, s in enumerate(seats)}
                            key = (i, sent_at)
                            test = ("declare", i, before)
                        if (name, key) in actions:
                            retries += 1
                        if (name, key) not in actions or actions[(name, key)][0] < sent_at:
                            actions[(name, key)] = (sent_at, test)
            for (name, _key), (sent_at, test) in actions.items():
                times = [self.first_showing(seat, j, sent_at, test) for j, seat in enumerate(seats)]
                known = [x for x in times if x is not None]
                if len(known) < len(times):
                    unseen[name] += 1
                else:
                    seen[name].append(max(known) - sent_at)
        return seen, unseen, untimed, retries

    @staticmethod
    def shown_at(seat: Seat, at: float) -> str | None:
        """The declaration text ``seat`` showed at time ``at``."""
        shown = None
        for record in seat.records:
            if record.at > at:
                break
            shown = record.declaration
        return shown

    @staticmethod
    def first_showing(seat: Seat, j: int, sent_at: float, test: Any) -> float | None:
        for record in seat.records:
            if record.at < sent_at:
                continue
            if test[0] == "play":
                if record.hands == test[1] and record.plays >= test[2]:
                    return record.at
                if record.hands > test[1]:
                    return None
            elif test[0] == "past":
                if record.hands == test[1] and record.phase not in test[2]:
                    return record.at
                if record.hands > test[1]:
                    return None
            elif record.declaration != test[2].get(j):
                return record.at
        return None


# ---------------------------------------------------------------- one round


async def play_round(server: Server, args: argparse.Namespace, think: float, with_kill: bool) -> dict[str, Any]:
    me = psutil.Process()
    figures: dict[str, Any] = {"think": think}
    rnd = Round(server.url, args.tables, args.hands, think, args.kill_at if with_kill else None, args.away)
    stop = asyncio.Event()
    peak = [server.rss()]

    async def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], server.rss())
            await asyncio.sleep(0.25)

    figures["rss_idle"] = server.rss()
    sampler = asyncio.get_running_loop().create_task(sample())
    before_all = others_cpu()
    cpu0, own0, wall0 = server.cpu(), me.cpu_times(), time.perf_counter()
    await asyncio.gather(*(rnd.seat_table(t) for t in range(args.tables)))
    await asyncio.sleep(0.5)  # the last traits sent
    cpu1, wall1 = server.cpu(), time.perf_counter()
    figures["rss_seated"] = server.rss()
    figures["seat_cpu"], figures["seat_wall"] = cpu1 - cpu0, wall1 - wall0

    ticker = asyncio.get_running_loop().create_task(rnd.ticker(stop))
    killer = asyncio.get_running_loop().create_task(rnd.killer()) if rnd.kill is not None else None
    own1 = me.cpu_times()
    gc.disable()  # see the docstring: the clients' full collections would be counted as latency
    for t in range(args.tables):
        await rnd.current(t)[0].send({"kind": "start"})
    stalled = []
    try:
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in rnd.done)), args.timeout)
    except TimeoutError:
        for t in range(args.tables):
            if not rnd.done[t].is_set():
                states = [r.state for r in rnd.current(t)]
                stalled.append(f"table {t + 1}: phases {[s.get('phase') for s in states]}, "
                               f"plays {[s.get('plays') for s in states]}, "
                               f"hands {[(s.get('shared') or {}).get('hands') for s in states]}")
    cpu2, own2, wall2 = server.cpu(), me.cpu_times(), time.perf_counter()
    gc.enable()
    after_all = others_cpu()
    stop.set()
    await asyncio.sleep(0.3)
    figures["rss_end"] = server.rss()
    figures["rss_peak"] = max(peak[0], figures["rss_end"])
    figures["play_cpu"], figures["play_wall"] = cpu2 - cpu1, wall2 - wall1
    figures["client_cpu"] = (own2.user + own2.system) - (own1.user + own1.system)
    figures["client_cpu_all"] = (own2.user + own2.system) - (own0.user + own0.system)
    figures["others"] = busiest(before_all, after_all, {server.process.pid, me.pid})
    figures["lag"] = rnd.lag
    figures["stalled"] = stalled
    figures["ends"] = rnd.check_ends() if not stalled else []
    if killer is not None:
        if not killer.done():
            killer.cancel()
        kill = rnd.kill
        assert kill is not None
        if not kill.ready.is_set():
            kill.lost.append(f"the kill never happened (no turn of seat {kill.seat} at plays ≥ {kill.at_plays})")
        elif stalled and any(s.startswith(f"table {kill.table + 1}:") for s in stalled):
            kill.lost.append("table 1 did not finish its hands after the rejoin")
        else:
            back = kill.back
            if back is not None and back.hand:
                kill.lost.append(f"the rejoined seat ended with {len(back.hand)} cards in hand")
        figures["kill"] = kill
    seen, unseen, untimed, retries = rnd.latencies()
    figures.update(seen=seen, unseen=unseen, untimed=untimed, retries=retries)
    actions = sum(len(r.sent) for t in range(args.tables) for s in rnd.seats[t] for r in s.robots)
    received = [m for t in range(args.tables) for s in rnd.seats[t] for r in s.robots for m in r.received]
    figures["sent"] = actions
    figures["received"] = len(received)
    figures["received_mb"] = sum(len(json.dumps(m, ensure_ascii=False).encode()) for m in received) / 2**20
    figures["wire_mb"] = sum(r.wire for t in range(args.tables) for s in rnd.seats[t] for r in s.robots) / 2**20
    figures["refusals"] = sum(len(r.refusals) for t in range(args.tables) for s in rnd.seats[t] for r in s.robots)
    for t in range(args.tables):
        for r in rnd.current(t):
            r.close()
    sampler.cancel()
    ticker.cancel()
    return figures


def report(label: str, f: dict[str, Any], args: argparse.Namespace, server: Server) -> None:
    tables, hands = args.tables, args.hands
    table_hands = tables * hands
    seen: dict[str, list[float]] = f["seen"]
    timed = sum(len(v) for v in seen.values())
    print(f"\n== {label}: {tables} tables × 5 robots, {hands} hand(s) each, think {f['think']:g} s, "
          f"server pace {args.pace:g}")
    if f["stalled"]:
        print("  STALLED (timeout %.0f s):" % args.timeout)
        for line in f["stalled"]:
            print("   ", line)
    print(f"  wall: seating {f['seat_wall']:.2f} s, playing {f['play_wall']:.1f} s")
    print("  an action seen by all five (send → the last of the five seats has it):")
    for kind in TIMED:
        note = "  (upper bound: see the docstring)" if kind == "declare" else ""
        print(f"    {kind:8s} {ms(seen[kind])}{note}")
    everything = [x for v in seen.values() for x in v]
    print(f"    all      {ms(everything)}")
    unseen = dict(f["unseen"])
    print(f"    never seen by all five: {unseen or 0}; not timed: {dict(f['untimed']) or 0}; "
          f"sent again: {f['retries']}; refusals: {f['refusals']}")
    p95 = p95_of(seen["play"])
    print(f"    target p95 ≤ {TARGET_MS:.0f} ms (plays): {'met' if p95 * 1000 <= TARGET_MS else 'missed'}"
          f" ({p95 * 1000:.1f} ms)")
    print(f"  server CPU: seating {f['seat_cpu']:.2f} s; playing {f['play_cpu']:.2f} s "
          f"= {f['play_cpu'] / max(1, table_hands):.2f} s per table-hand, "
          f"{f['play_cpu'] / max(1, timed) * 1000:.1f} ms per timed action ({timed}), "
          f"{f['play_cpu'] / max(1e-9, f['play_wall']) * 100:.0f}% of one core while playing")
    print(f"  server memory (RSS): idle {f['rss_idle']:.1f} MB, seated {f['rss_seated']:.1f} MB, "
          f"end {f['rss_end']:.1f} MB, peak {f['rss_peak']:.1f} MB → "
          f"{(f['rss_end'] - f['rss_idle']) / tables:.2f} MB per table "
          f"(seated: {(f['rss_seated'] - f['rss_idle']) / tables:.2f} MB per table)")
    print(f"  traffic: {f['sent']} messages from the pages, {f['received']} to them "
          f"({f['received_mb']:.1f} MB of JSON, {f['received_mb'] * 1024 / max(1, timed):.0f} kB per timed action; "
          f"on the wire {f['wire_mb']:.1f} MB, {f['wire_mb'] * 1024 / max(1, timed):.1f} kB per timed action)")
    lag = f["lag"]
    print(f"  clients (this process, 40 robots on one loop): CPU {f['client_cpu']:.2f} s while playing "
          f"({f['client_cpu'] / max(1e-9, f['play_wall']) * 100:.0f}% of one core); "
          f"loop lag p95 {p95_of(lag) * 1000:.1f} ms, max {max(lag, default=0) * 1000:.1f} ms")
    if f["others"]:
        print("  other processes' CPU during the round (s):")
        for spent, what in f["others"]:
            print(f"    {spent:6.1f}  {what}")
    for line in f["ends"]:
        print("  END PROBLEM:", line)
    kill = f.get("kill")
    if kill is not None:
        where = f"table {kill.table + 1}, seat {kill.seat}, at plays {kill.state_plays}, away {kill.away_seconds:.2f} s"
        print(f"  rejoin ({where}): " + ("nothing lost" if not kill.lost else "LOST: " + "; ".join(kill.lost)))
    problems = server.problems()
    if problems:
        print(f"  server log: {len(problems)} error line(s), e.g. {problems[0][:160]} (log: {server.log})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--hands", type=int, default=1, help="hands per table (the opener deals the next)")
    parser.add_argument("--think", type=float, default=0.3, help="a robot's pause before it acts, seconds")
    parser.add_argument("--pace", type=float, default=0.0, help="QD_TABLE_PACE of the server (0: no pauses)")
    parser.add_argument("--kill-at", type=int, default=40, help="kill the client when plays reach this")
    parser.add_argument("--away", type=float, default=1.0, help="seconds the killed client stays away")
    parser.add_argument("--stress-think", type=float, default=0.0, help="think time of the stress round")
    parser.add_argument("--no-stress", action="store_true", help="skip the stress round")
    parser.add_argument("--timeout", type=float, default=150.0, help="seconds a round may play")
    parser.add_argument("--before", help="a git revision whose server to measure first, as it was")
    args = parser.parse_args()

    print(f"machine: {os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.2f} "
          f"{os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    rounds = [("page-like", args.think, True)]
    if not args.no_stress:
        rounds.append(("stress", args.stress_think, False))
    versions = [("after", REPO)]
    measured: dict[tuple[str, str], dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        if args.before:
            versions.insert(0, (f"before ({args.before})", stack.enter_context(worktree(args.before))))
        for version, tree in versions:
            for label, think, kill in rounds:
                server = Server(args.pace, tree)
                try:
                    time.sleep(0.5)
                    figures = asyncio.run(play_round(server, args, think, kill))
                    report(f"{version}, {label}" if args.before else label, figures, args, server)
                    measured[version, label] = figures
                finally:
                    server.stop()
    if args.before:
        print("\n== before → after (one run; other work on the machine: see each round)")
        for label, _, _ in rounds:
            (_, b), (_, a) = [(v, measured[v, label]) for v, _ in versions]
            kb = [f["received_mb"] * 1024 / max(1, sum(len(x) for x in f["seen"].values())) for f in (b, a)]
            wire = [f["wire_mb"] * 1024 / max(1, sum(len(x) for x in f["seen"].values())) for f in (b, a)]
            cpu = [f["play_cpu"] / max(1, args.tables * args.hands) for f in (b, a)]
            print(f"  {label}: {kb[0]:.1f} → {kb[1]:.1f} kB of JSON per timed action (×{kb[1] / max(1e-9, kb[0]):.2f}); "
                  f"on the wire {wire[0]:.1f} → {wire[1]:.1f} kB (×{wire[1] / max(1e-9, wire[0]):.2f}); "
                  f"server CPU {cpu[0]:.2f} → {cpu[1]:.2f} s per table-hand (×{cpu[1] / max(1e-9, cpu[0]):.2f})")
    print(f"\nload average at end {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
