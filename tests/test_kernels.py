"""Kernels do not pile up: a hundred page views leave none behind (beyond a preheated
pool), and kernels of pages that vanished without a word are culled.

Driven by light clients, not browsers (STACK-NOTES): each view GETs the page (Voila
runs the notebook in a new kernel and names it in the HTML), optionally opens the
kernel's channels websocket as the page's widget manager would (kernel_info_request,
reply, close), then leaves as a browser does on unload — the beacon
``POST /voila/api/shutdown/<kernelId>`` (allowed without XSRF token by ``tutor.server.fixes``) — or,
in the culling test, without it. Kernels are counted as the ``ipykernel_launcher`` child
processes of the Voila server (``/proc``) and cross-checked with its log.

The server is ``voila lessons`` from the repository root, so ``deploy/voila.py`` applies; the
culling test overrides only the culler's timings on the command line. Linux only.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from voila_serve import PAGE_TIMEOUT, VoilaServer, serve, ticket_of, with_ticket

REPO = Path(__file__).resolve().parents[1]
LESSON_PAGES = sorted(p.name for p in (REPO / "lessons").glob("[0-9]*.ipynb"))
HOME = "index.ipynb"  # the lightest real page of the course: a kernel, an anywidget, its comm
VIEWS = 100
EVERY_NTH_IS_A_LESSON = 50  # the rest are the home page: a lesson takes ~5 s of server CPU
WORKERS = 2  # two learners at a time

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts kernels in /proc (Linux)")


class Server(VoilaServer):
    """The course's server, with its kernels counted."""

    def kernels_left(self) -> set[str]:
        """Kernel ids the log says were started and not shut down (or culled)."""
        log = self.log_text()
        started = set(re.findall(r"Kernel started: ([0-9a-f-]{36})", log))
        ended = set(re.findall(r"Kernel shutdown: ([0-9a-f-]{36})", log))
        return started - ended

    def wait_for_kernels(self, most: int, timeout: float) -> list[int]:
        deadline = time.monotonic() + timeout
        while True:
            left = self.kernels()
            if len(left) <= most or time.monotonic() > deadline:
                return left
            time.sleep(0.25)


def _start(tmp_path: Path, *extra: str) -> Iterator[Server]:
    with serve("lessons", tmp_path / "voila.log", *extra) as running:
        yield Server(running.base, running.log, running.pid)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _start(tmp_path_factory.mktemp("voila-kernels"))


@pytest.fixture(scope="module")
def culling_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from _start(tmp_path_factory.mktemp("voila-culling"), "--MappingKernelManager.cull_idle_timeout=5",
                      "--MappingKernelManager.cull_interval=2")


def _view(server: Server, notebook: str, *, connect: bool, beacon: bool) -> str:
    """One page view by a light client; returns the page's kernel id."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    deadline = time.monotonic() + PAGE_TIMEOUT
    headers: dict[str, str] = {}
    for _ in range(2):  # the server's opening page first, followed as its script does
        chunks = []
        request = urllib.request.Request(f"{server.base}/voila/render/{notebook}", headers=headers)
        with opener.open(request, timeout=PAGE_TIMEOUT) as response:
            # Voila streams the page, with a heartbeat every few seconds while the kernel works:
            # a page whose kernel never comes up never ends (see the log on failure).
            while chunk := response.read1(65536):
                chunks.append(chunk)
                assert time.monotonic() < deadline, f"{notebook}: page not done in {PAGE_TIMEOUT:.0f} s"
        page = b"".join(chunks).decode("utf-8")
        ticket = ticket_of(page)
        if ticket is None:
            break
        headers = with_ticket(headers, ticket)
    found = re.search(r'"kernelId": "([0-9a-f-]{36})"', page)
    assert found, f"{notebook}: no kernel id in the page"
    kernel = found.group(1)
    assert "There was an error" not in page, notebook
    if connect:
        _talk(server, kernel, "; ".join(f"{c.name}={c.value}" for c in jar))
    if beacon:
        request = urllib.request.Request(f"{server.base}/voila/api/shutdown/{kernel}", data=b"", method="POST")
        with opener.open(request, timeout=PAGE_TIMEOUT) as reply:
            assert reply.status == 204
    return kernel


def _talk(server: Server, kernel: str, cookie: str) -> None:
    """Connect to the kernel's channels as the page would, ask kernel_info, disconnect."""
    import websocket  # websocket-client, a dependency of jupyter_server

    session = uuid.uuid4().hex
    url = server.base.replace("http", "ws", 1) + f"/api/kernels/{kernel}/channels?session_id={session}"
    ws = websocket.create_connection(url, cookie=cookie, timeout=30)
    try:
        msg_id = uuid.uuid4().hex
        ws.send(json.dumps({"header": {"msg_id": msg_id, "msg_type": "kernel_info_request", "username": "",
                                       "session": session, "version": "5.3", "date": ""},
                            "parent_header": {}, "metadata": {}, "content": {}, "buffers": [], "channel": "shell"}))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            reply = json.loads(ws.recv())
            if reply.get("parent_header", {}).get("msg_id") == msg_id and reply["msg_type"] == "kernel_info_reply":
                return
        raise AssertionError("no kernel_info_reply")
    finally:
        ws.close()


def _pool_size(server: Server) -> int:
    """Kernels a preheating server keeps ready (0 when the server does not preheat)."""
    return len(set(re.findall(r"Pre-heated kernel[^:]*: ([0-9a-f-]{36})", server.log_text())))


def test_a_hundred_views_leave_no_kernels(server: Server) -> None:
    started = time.monotonic()
    pool = server.wait_for_kernels(0, 3)  # a preheated pool, if configured, is there from the start
    plan = [(LESSON_PAGES[(i // EVERY_NTH_IS_A_LESSON) % len(LESSON_PAGES)] if i % EVERY_NTH_IS_A_LESSON == 0
             else HOME, i % 2 == 0) for i in range(VIEWS)]
    with ThreadPoolExecutor(WORKERS) as pool_of_learners:
        try:
            kernels = list(pool_of_learners.map(lambda p: _view(server, p[0], connect=p[1], beacon=True), plan))
        except AssertionError as failure:  # a page that never ended: what the server said meanwhile
            tail = "\n".join(server.log_text().splitlines()[-60:])
            raise AssertionError(f"{failure}\n--- the server's log, last 60 lines ---\n{tail}") from failure
    assert len(set(kernels)) == VIEWS  # each view had a kernel of its own
    assert server.zygote(), "the kernels were not forked from the zygote (tutor/server/forking.py)"
    assert "Starting a kernel the usual way" not in server.log_text()
    left = server.wait_for_kernels(len(pool), 15)
    assert len(left) <= len(pool), f"{len(left)} kernels left after {VIEWS} views (pool {len(pool)})"
    assert not (server.kernels_left() & set(kernels)), "the log shows kernels of closed pages still running"
    assert not re.search(r"\b403 (GET|POST)", server.log_text()), "a shutdown beacon was refused"
    died = re.findall(r"Kernel died before replying to kernel_info", server.log_text())
    assert not died, "a kernel died while starting (TCP port race of concurrent kernel starts?)"
    assert time.monotonic() - started < 90


def test_vanished_pages_are_culled(culling_server: Server) -> None:
    server = culling_server
    kernels = [_view(server, HOME, connect=i % 2 == 0, beacon=False) for i in range(4)]
    assert len(server.kernels()) >= 4  # no beacon: the kernels stay, for now
    left = server.wait_for_kernels(0, 30)  # idle 5 s, culled within the next 2 s interval
    assert left == [], f"{len(left)} kernels not culled"
    log = server.log_text()
    assert "Culling kernels with idle durations > 5 seconds at 2 second intervals" in log
    for kernel in kernels:
        assert re.search(rf"Culling '\w+' kernel '\w+' \({kernel}\)", log), kernel
