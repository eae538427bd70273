"""A class arriving at once, measured on this machine (a script, not a test).

    python benchmarks/load.py [--learners 10,20,40] [--over 10] [--lesson 05-following]
                              [--next 06-ruffing] [--checks 3] [--before REV] [-- SERVE ARGS]

Each learner is a light client doing over HTTP and the kernel websocket what the lesson
page does in a browser (STACK-NOTES: many headless browsers on 2 cores measure the
browsers): GET the page (Voila streams it while the kernel runs the notebook), open the
kernel's channels, ask for the widget states (``jupyter.widget.control``), hand the drill
its stored progress (``sync``, as the page does on load), then answer ``--checks`` drills
right — the answer from the rules module, ``tutor.teach.drills.generate`` of the drill the page
shows — pressing Next after each; a learner stays on the page until the whole class has
answered, then all leave together with the page's unload beacon
(``POST /voila/api/shutdown/<kernel>``). Learner *i* of *N* arrives at ``i·S/N`` s, from
its own loopback address (127.0.0.2, 127.0.0.3 …), as learners come from their own
machines. Then, if ``--next`` is given, every learner moves on to that lesson together.

Figures per phase: time to the first usable drill (arrival → the kernel has answered the
page's ``sync``: the drill is drawn and its Check works), p50 / p95 / max; feedback p95
(Check → the verdict, over every check of the phase); failures (a page that did not come,
an error page, a full class's page, a wrong verdict); kernels before / peak / after (the
server's kernel processes); memory per learner (the mean RSS and USS of the kernels when
the whole class has answered, every page still open) and the server's own RSS; CPU per page view (the server process and the kernels, counted from
``/proc`` including exited processes). ``--before REV`` runs the same against the course
as it was at git revision REV first (a worktree in a temp dir: its ``voila.py``, and its
packages first on the path), then against this checkout: before and after in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests")]

from versions import worktree  # noqa: E402
from voila_serve import free_port, ticket_of, with_ticket  # noqa: E402

from tutor import parse_cards  # noqa: E402
from tutor.teach.drills import AnswerKind, generate  # noqa: E402

PAGE_TIMEOUT = 120.0
REPLY_TIMEOUT = 60.0


# ---------------------------------------------------------------- the server


class Server:
    """``voila lessons`` started from ``root`` with that checkout's configuration."""

    def __init__(self, root: Path, extra: Sequence[str], pythonpath: str | None = None) -> None:
        self.log = Path(tempfile.mkstemp(suffix=".log", prefix="voila-load-")[1])
        env = dict(os.environ)
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        # The course's configuration: deploy/voila.py, or voila.py at the root as it was before.
        config = ["--Voila.config_file_paths=deploy"] if (root / "deploy" / "voila.py").exists() else []
        command = [str(Path(sys.executable).with_name("voila")), "lessons", "--port", str(free_port()),
                   "--no-browser", *config, *extra]
        self.process = psutil.Popen(command, cwd=root, env=env, stdout=self.log.open("wb"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 180
        while True:
            found = re.search(r"running at:\s*(http://127\.0\.0\.1:\d+)/", self.log.read_text("utf-8", "replace"))
            if found:
                self.base = found.group(1)
                break
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(self.log.read_text("utf-8", "replace"))
            time.sleep(0.2)
        self._gone_cpu = 0.0
        self._seen: dict[int, tuple[float, bool]] = {}

    def tree(self) -> list[psutil.Process]:
        try:
            return [self.process, *self.process.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def kernels(self) -> list[psutil.Process]:
        found = []
        for child in self.tree()[1:]:
            try:
                if any("ipykernel" in part for part in child.cmdline()) or child.ppid() != self.process.pid:
                    found.append(child)  # a kernel, started as usual or forked by the zygote
            except psutil.Error:
                pass
        return found

    def cpu(self) -> tuple[float, float]:
        """CPU seconds so far of the server process and of all its kernels (live and gone)."""
        server = 0.0
        live: dict[int, tuple[float, bool]] = {}
        kernel_pids = {k.pid for k in self.kernels()}
        for proc in self.tree():
            try:
                times = proc.cpu_times()
            except psutil.Error:
                continue
            own = times.user + times.system
            if proc.pid == self.process.pid:
                server = own
            else:
                live[proc.pid] = (own, proc.pid in kernel_pids)
        for pid, (own, _) in self._seen.items():
            if pid not in live:
                self._gone_cpu += own
        self._seen = live
        return server, self._gone_cpu + sum(own for own, _ in live.values())

    def wait_idle(self, most_cpu: float = 0.1, quiet: float = 3.0, limit: float = 600.0) -> float:
        """Wait until the whole server uses under ``most_cpu`` cores for ``quiet`` seconds
        (a pool of kernels made ready, say); returns the seconds waited."""
        started = time.monotonic()
        last = sum(self.cpu())
        calm_since = time.monotonic()
        while time.monotonic() - started < limit:
            time.sleep(0.5)
            now = sum(self.cpu())
            if now - last > most_cpu * 0.5:
                calm_since = time.monotonic()
            last = now
            if time.monotonic() - calm_since >= quiet:
                break
        return time.monotonic() - started

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except psutil.TimeoutExpired:
            self.process.kill()


# ---------------------------------------------------------------- one learner


@dataclass
class Visit:
    """What one learner saw of one page."""

    ready: float | None = None  # arrival → first usable drill, seconds
    feedback: list[float] = field(default_factory=list)  # Check → verdict, seconds each
    failure: str | None = None
    marks: dict[str, float] = field(default_factory=dict)  # step → seconds since arrival (QD_LOAD_TRACE)


def _message(session: str, channel: str, msg_type: str, content: dict[str, Any],
             metadata: dict[str, Any] | None = None) -> tuple[str, str]:
    msg_id = uuid.uuid4().hex
    return msg_id, json.dumps({"header": {"msg_id": msg_id, "msg_type": msg_type, "username": "learner",
                                          "session": session, "version": "5.3", "date": ""},
                               "parent_header": {}, "metadata": metadata or {}, "content": content, "buffers": [],
                               "channel": channel})


class Channel:
    """The kernel's channels websocket, as the page's widget manager uses it."""

    def __init__(self, ws: WebSocketClientConnection, session: str) -> None:
        self.ws, self.session = ws, session
        self.states: dict[str, dict[str, Any]] = {}

    async def send(self, channel: str, msg_type: str, content: dict[str, Any],
                   metadata: dict[str, Any] | None = None) -> str:
        msg_id, text = _message(self.session, channel, msg_type, content, metadata)
        await self.ws.write_message(text)
        return msg_id

    async def until(self, done: Any, timeout: float = REPLY_TIMEOUT) -> dict[str, Any]:
        """Read messages (keeping the widget states current) until ``done(msg)``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no reply from the kernel")
            raw = await asyncio.wait_for(self.ws.read_message(), left)
            if raw is None:
                raise ConnectionError("the kernel's websocket closed")
            if isinstance(raw, bytes):
                continue  # a binary message: widget buffers, which the drills do not use
            msg = json.loads(raw)
            if msg.get("msg_type") == "comm_msg":
                data = msg["content"].get("data", {})
                model = msg["content"].get("comm_id")
                if data.get("method") == "update" and model in self.states:
                    self.states[model].update(data.get("state", {}))
                elif data.get("method") == "update_states":
                    for model_id, info in data.get("states", {}).items():
                        self.states[model_id] = dict(info.get("state", {}))
            if done(msg):
                return msg

    async def custom(self, model: str, content: dict[str, Any]) -> str:
        return await self.send("shell", "comm_msg", {"comm_id": model, "data": {"method": "custom",
                                                                                 "content": content}})

    async def idle_after(self, msg_id: str) -> None:
        await self.until(lambda m: m.get("msg_type") == "status" and m.get("parent_header", {}).get("msg_id") == msg_id
                         and m["content"].get("execution_state") == "idle")


def right_answer(state: dict[str, Any]) -> Any:
    """The right answer of the drill a page shows, from the rules module."""
    drill = generate(state["kind"], state["seed"], state["level"])
    if drill.answer is AnswerKind.CHOICE:
        return next(c.key for c in drill.choices if drill.check(c.key).correct)
    answers, _ = drill.solutions()
    if drill.answer is AnswerKind.NUMBER:
        return answers[0]
    return [str(c) for c in parse_cards(answers[0])]


async def open_page(client: AsyncHTTPClient, url: str, address: str | None) -> tuple[str, str]:
    """The page at ``url`` and the cookies it set, as a browser gets it: where the server
    first answers with its opening page (tutor/server/admission.py), its ticket is taken
    and the page asked for again, as that page's script does."""
    cookies = ""
    for _ in range(2):
        chunks: list[bytes] = []
        response = await client.fetch(HTTPRequest(url, request_timeout=PAGE_TIMEOUT, streaming_callback=chunks.append,
                                                  headers={"Cookie": cookies} if cookies else {},
                                                  network_interface=address))
        page = b"".join(chunks).decode("utf-8", "replace")
        set_cookies = "; ".join(c.split(";", 1)[0] for c in response.headers.get_list("Set-Cookie"))
        ticket = ticket_of(page)
        if ticket is None:
            return page, "; ".join(filter(None, [cookies, set_cookies]))
        cookies = with_ticket({"Cookie": set_cookies} if set_cookies else {}, ticket)["Cookie"]
    return page, cookies


async def visit(base: str, lesson: str, checks: int, seed: int, address: str | None = None,
                leave: asyncio.Event | None = None, done: Any = None) -> Visit:
    """One page view by one learner (from ``address``): open, wait for the drill, answer,
    then (once ``leave`` is set, if given, calling ``done()`` first) leave."""
    seen = Visit()
    start = time.monotonic()
    client = AsyncHTTPClient()
    try:
        page, cookies = await open_page(client, f"{base}/voila/render/{lesson}.ipynb?seed={seed}", address)
        seen.marks["page"] = round(time.monotonic() - start, 2)
    except HTTPClientError as error:
        seen.failure = f"HTTP {error.code}"
        return seen
    except Exception as error:  # noqa: BLE001 - a failure to count, not to stop on
        seen.failure = f"page: {error!r}"[:200]
        return seen
    found = re.search(r'"kernelId": "([0-9a-f-]{36})"', page)
    if not found or "There was an error" in page:
        seen.failure = "no kernel in the page" if not found else "error page"
        return seen
    kernel = found.group(1)
    session = uuid.uuid4().hex
    ws_url = base.replace("http", "ws", 1) + f"/api/kernels/{kernel}/channels?session_id={session}"
    try:
        ws = await websocket_connect(HTTPRequest(ws_url, headers={"Cookie": cookies} if cookies else {},
                                                 request_timeout=REPLY_TIMEOUT, network_interface=address),
                                     max_message_size=64 << 20)
        channel = Channel(ws, session)
        control = uuid.uuid4().hex
        await channel.send("shell", "comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                                  "data": {}}, {"version": "1.0.0"})
        await channel.send("shell", "comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        await channel.until(lambda m: m.get("msg_type") == "comm_msg"
                            and m["content"].get("data", {}).get("method") == "update_states")
        seen.marks["states"] = round(time.monotonic() - start, 2)
        drills = [model for model, state in channel.states.items() if state.get("_view") == "drill"]
        if not drills:
            seen.failure = "no drill on the page"
            return seen
        drill = drills[0]
        await channel.idle_after(await channel.custom(drill, {"type": "sync", "progress": None}))
        seen.ready = time.monotonic() - start
        for number in range(1, checks + 1):
            state = channel.states[drill]["state"]
            answer = right_answer(state)
            sent = time.monotonic()
            await channel.custom(drill, {"type": "check", "check_id": number, "answer": answer})
            reply = await channel.until(lambda m: m.get("msg_type") == "comm_msg"
                                        and m["content"].get("comm_id") == drill
                                        and m["content"].get("data", {}).get("state", {}).get("feedback", {})
                                        .get("check_id") == number)
            seen.feedback.append(time.monotonic() - sent)
            verdict = reply["content"]["data"]["state"]["feedback"]
            if not verdict.get("correct"):
                seen.failure = f"judged wrong: {state['kind']} seed {state['seed']} answer {answer!r}"
                break
            token = state["token"]
            await channel.idle_after(await channel.custom(drill, {"type": "next"}))
            if channel.states[drill]["state"].get("token") == token:
                seen.failure = "Next did not give a new drill"
                break
        if leave is not None:
            seen.marks["answered"] = round(time.monotonic() - start, 2)
            done()
            await leave.wait()
        ws.close()
    except Exception as error:  # noqa: BLE001 - counted
        seen.failure = f"kernel: {error!r}"[:200]
    finally:
        try:
            await client.fetch(HTTPRequest(f"{base}/voila/api/shutdown/{kernel}", method="POST", body=b"",
                                           request_timeout=REPLY_TIMEOUT, network_interface=address),
                               raise_error=False)
        except Exception:  # noqa: BLE001 - the page is gone either way
            pass
    return seen


# ---------------------------------------------------------------- a class


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else float("nan")


async def _phase(server: Server, lesson: str, learners: int, over: float, checks: int) -> dict[str, Any]:
    AsyncHTTPClient.configure(None, max_clients=learners + 8)
    before_kernels = len(server.kernels())
    cpu_server0, cpu_kernels0 = server.cpu()
    peak = {"kernels": before_kernels, "rss": 0.0, "uss": 0.0, "weighed": 0}
    stop = asyncio.Event()

    def weigh() -> None:
        """The kernels' memory now, the whole class in."""
        rss = uss = 0.0
        kernels = server.kernels()
        for kernel in kernels:
            try:
                info = kernel.memory_full_info()
                rss, uss = rss + info.rss, uss + info.uss
            except psutil.Error:
                pass
        peak.update(rss=rss / 2**20, uss=uss / 2**20, weighed=len(kernels))

    async def sample() -> None:
        while not stop.is_set():
            peak["kernels"] = max(peak["kernels"], len(server.kernels()))
            server.cpu()
            await asyncio.sleep(0.25)

    async def learner(i: int) -> Visit:
        await asyncio.sleep(i * over / learners)
        seen = await visit(server.base, lesson, checks, seed=1 + i % 7, address=f"127.0.0.{2 + i}",
                           leave=leave, done=answered)
        if not seen.marks.get("answered"):
            answered()  # refused or failed before answering: the class does not wait for it
        if os.environ.get("QD_LOAD_TRACE"):
            print(f"  learner {i:2d} arrived {i * over / learners:5.2f} s: ready after {seen.ready or 0:5.2f} s "
                  f"{seen.marks}", flush=True)
        return seen

    # A class stays on the page until everyone has answered, then moves on together.
    leave = asyncio.Event()
    waiting = [learners]

    def answered() -> None:
        waiting[0] -= 1
        if waiting[0] == 0:
            weigh()
            asyncio.get_running_loop().call_later(1.0, leave.set)  # the sampler sees them all

    clients_cpu = time.process_time()
    sampler = asyncio.ensure_future(sample())
    visits = await asyncio.gather(*(learner(i) for i in range(learners)))
    deadline = time.monotonic() + 30
    while len(server.kernels()) > before_kernels and time.monotonic() < deadline:
        await asyncio.sleep(0.25)
    stop.set()
    await sampler
    cpu_server1, cpu_kernels1 = server.cpu()
    clients_cpu = time.process_time() - clients_cpu
    ready = [v.ready for v in visits if v.ready is not None]
    feedback = [f for v in visits for f in v.feedback]
    failures = [v.failure for v in visits if v.failure]
    return {"lesson": lesson, "learners": learners, "ready_p50": _pct(ready, 0.5), "ready_p95": _pct(ready, 0.95),
            "ready_max": max(ready, default=float("nan")), "feedback_p95_ms": 1000 * _pct(feedback, 0.95),
            "failures": failures, "kernels": (before_kernels, peak["kernels"], len(server.kernels())),
            "rss_per_learner": peak["rss"] / max(1, peak["weighed"]),
            "uss_per_learner": peak["uss"] / max(1, peak["weighed"]),
            "server_rss": server.process.memory_info().rss / 2**20,
            "cpu_server": (cpu_server1 - cpu_server0) / learners, "cpu_clients": clients_cpu, "cpu_kernels": (cpu_kernels1 - cpu_kernels0) / learners}


def _show(label: str, r: dict[str, Any]) -> None:
    k0, k1, k2 = r["kernels"]
    failures = r["failures"]
    print(f"{label:>8} {r['lesson']:<13} N={r['learners']:<3} first drill p50 {r['ready_p50']:5.1f} s  "
          f"p95 {r['ready_p95']:5.1f} s  max {r['ready_max']:5.1f} s | feedback p95 {r['feedback_p95_ms']:6.0f} ms | "
          f"failures {len(failures)} | kernels {k0}/{k1}/{k2} | memory per learner (kernel) RSS {r['rss_per_learner']:3.0f} MB, "
          f"USS {r['uss_per_learner']:3.0f} MB; server {r['server_rss']:3.0f} MB | CPU per view: server {r['cpu_server']:.2f} s, "
          f"kernels {r['cpu_kernels']:.2f} s (the light clients: {r['cpu_clients']:.1f} s in all)", flush=True)
    for failure in sorted(set(failures))[:5]:
        print(f"{'':>10}failure ×{failures.count(failure)}: {failure}", flush=True)


def run(label: str, root: Path, extra: Sequence[str], args: argparse.Namespace, pythonpath: str | None = None) -> None:
    for learners in args.learners:
        server = Server(root, extra, pythonpath)
        try:
            waited = server.wait_idle()
            print(f"{label:>8} server ready and idle after {waited:.0f} s, "
                  f"{len(server.kernels())} kernels waiting, server RSS "
                  f"{server.process.memory_info().rss / 2**20:.0f} MB", flush=True)
            lessons = [args.lesson, *([args.next] if args.next else [])]
            for lesson in lessons:
                _show(label, asyncio.run(_phase(server, lesson, learners, args.over, args.checks)))
                server.wait_idle(quiet=2.0, limit=120)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", default="10,20,40", type=lambda s: [int(x) for x in s.split(",")])
    parser.add_argument("--over", type=float, default=10.0, help="seconds over which the learners arrive")
    parser.add_argument("--lesson", default="05-following")
    parser.add_argument("--next", default="06-ruffing", help="the lesson they move to together ('' for none)")
    parser.add_argument("--checks", type=int, default=3)
    parser.add_argument("--before", help="a git revision to measure first, as it was")
    parser.add_argument("serve", nargs="*", help="options for the server (after --)")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; learners arrive over {args.over:.0f} s; {args.checks} checks each", flush=True)
    if args.before:
        with worktree(args.before) as tree:
            packages = tree.parent / "packages"  # its tutor and widgets, not its voila.py, on the path
            packages.mkdir()
            for name in ("tutor", "widgets"):
                (packages / name).symlink_to(tree / name)
            run("before", tree, args.serve, args, pythonpath=str(packages))
    run("after", REPO, args.serve, args)


if __name__ == "__main__":
    main()
