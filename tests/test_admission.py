"""Admission to the served course (``tutor/server/admission.py``) against a real server.

A bare GET of a lesson starts no kernel (it gets the opening page, whose one-time ticket
only a page's script hands back); a class has room for ``Classroom.size`` kernels and each
client address for ``Classroom.per_client``; past either, a friendly page in the learner's
language says the class is full (503 with ``Retry-After``, trying again by itself); a page
that closes frees its seat. Clients are told apart by their address: the requests go out
from 127.0.0.2, 127.0.0.3 … (all loopback). The server is ``voila lessons`` from the
repository root, so the course's configuration applies, with a small class for the test.
"""

from __future__ import annotations

import http.client
import re
import time
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest
from voila_serve import VoilaServer, serve, ticket_of, with_ticket

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="counts kernels in /proc (Linux)")

LESSON = "/voila/render/00-welcome.ipynb"
SIZE, SHARE = 3, 2
_KERNEL = re.compile(r'"kernelId": "([0-9a-f-]{36})"')


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    log = tmp_path_factory.mktemp("voila-admission") / "voila.log"
    with serve("lessons", log, f"--Classroom.size={SIZE}", f"--Classroom.per_client={SHARE}") as running:
        yield running


@pytest.fixture(scope="module")
def impatient_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    log = tmp_path_factory.mktemp("voila-unclaimed") / "voila.log"
    with serve("lessons", log, "--Classroom.unclaimed_seconds=3") as running:
        yield running


def _request(server: VoilaServer, path: str, client: str, headers: dict[str, str] | None = None,
             method: str = "GET") -> tuple[int, http.client.HTTPMessage, str]:
    port = int(server.base.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(client, 0))
    try:
        connection.request(method, path, body=b"" if method == "POST" else None, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.headers, response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def _open(server: VoilaServer, client: str, headers: dict[str, str] | None = None) -> tuple[int, http.client.HTTPMessage, str]:
    """A lesson opened as a browser does: the opening page, then the page with its ticket."""
    status, head, page = _request(server, LESSON, client, headers)
    ticket = ticket_of(page)
    assert status == 200 and ticket, page[:300]
    return _request(server, LESSON, client, with_ticket(dict(headers or {}), ticket))


def _close(server: VoilaServer, page: str, client: str) -> None:
    found = _KERNEL.search(page)
    assert found, page[:300]
    status, _, _ = _request(server, f"/voila/api/shutdown/{found.group(1)}", client, method="POST")
    assert status == 204


def _wait_for_kernels(server: VoilaServer, count: int, timeout: float = 20) -> int:
    deadline = time.monotonic() + timeout
    while len(server.kernels()) != count and time.monotonic() < deadline:
        time.sleep(0.2)
    return len(server.kernels())


def test_a_bare_get_starts_no_kernel(server: VoilaServer) -> None:
    before = len(server.kernels())
    for i in range(10):
        status, head, page = _request(server, LESSON, "127.0.0.9")
        assert status == 200, page[:300]
        assert ticket_of(page) and "kernelId" not in page and len(page) < 3000
        assert "no-store" in head.get("Cache-Control", "")
    time.sleep(1)
    assert len(server.kernels()) == before, "a GET that never ran the page's script started a kernel"


def test_a_ticket_opens_the_lesson_once(server: VoilaServer) -> None:
    status, _, opening = _request(server, LESSON, "127.0.0.10")
    ticket = ticket_of(opening)
    assert ticket
    status, head, page = _request(server, LESSON, "127.0.0.10", {"Cookie": f"qd-admit={ticket}"})
    assert status == 200 and "kernelId" in page and "welcome" in page.lower()
    assert any(re.match(r'qd-admit=(""|);', c) for c in head.get_all("Set-Cookie") or []), "ticket not cleared"
    again_status, _, again = _request(server, LESSON, "127.0.0.10", {"Cookie": f"qd-admit={ticket}"})
    assert again_status == 200 and "kernelId" not in again and ticket_of(again) != ticket  # used up: a new one
    _close(server, page, "127.0.0.10")


@pytest.mark.parametrize("cookie", ["qd-admit=" + "x" * 4000, "qd-admit=", "qd-admit=\x7f\x01", "qd-admit=../..",
                                    'qd-admit="><script>'])
def test_a_forged_ticket_gets_the_opening_page(server: VoilaServer, cookie: str) -> None:
    before = len(server.kernels())
    status, _, page = _request(server, LESSON, "127.0.0.11", {"Cookie": cookie})
    assert status in (200, 400), page[:300]
    assert "kernelId" not in page and "Traceback" not in page
    assert len(server.kernels()) == before
    assert "Traceback" not in server.log_text()


def test_the_class_has_room_for_its_size_and_each_client_for_its_share(server: VoilaServer) -> None:
    assert _wait_for_kernels(server, 0) == 0
    first, second = _open(server, "127.0.0.2"), _open(server, "127.0.0.2")
    assert first[0] == second[0] == 200 and "kernelId" in first[2] and "kernelId" in second[2]
    # This client's share is used: a third tab is refused, kindly, in the learner's language.
    status, head, page = _open(server, "127.0.0.2", {"Accept-Language": "zh-CN,zh;q=0.9"})
    assert status == 503 and head["Retry-After"] == "60"
    assert '<html lang="zh-Hans"' in page and "kernelId" not in page and 'http-equiv="refresh"' in page
    assert re.search(r"[\u4e00-\u9fff]", page.split('data-qd="class-full">', 1)[1]), page
    # Another learner still gets in, up to the class's size.
    third = _open(server, "127.0.0.3")
    assert third[0] == 200 and "kernelId" in third[2]
    status, _, page = _open(server, "127.0.0.4")
    assert status == 503 and "The class is full" in page
    assert _wait_for_kernels(server, SIZE) == SIZE
    # A learner who leaves frees a seat.
    _close(server, first[2], "127.0.0.2")
    assert _wait_for_kernels(server, SIZE - 1) == SIZE - 1
    fourth = _open(server, "127.0.0.4")
    assert fourth[0] == 200 and "kernelId" in fourth[2]
    for _, _, page in (second, third, fourth):
        _close(server, page, "127.0.0.5")
    assert _wait_for_kernels(server, 0) == 0
    assert "The class is full: 3 kernels" in server.log_text()


def test_a_kernel_whose_page_never_connects_is_stopped(impatient_server: VoilaServer) -> None:
    server = impatient_server
    status, _, unclaimed = _open(server, "127.0.0.12")
    status, _, claimed = _open(server, "127.0.0.13")
    assert status == 200 and _wait_for_kernels(server, 2, timeout=2) == 2
    kernel = _KERNEL.search(claimed)
    assert kernel
    import websocket  # websocket-client, a dependency of jupyter_server

    ws = websocket.create_connection(server.base.replace("http", "ws", 1)
                                     + f"/api/kernels/{kernel.group(1)}/channels?session_id=test", timeout=30)
    try:
        assert _wait_for_kernels(server, 1, timeout=15) == 1  # the unclaimed one is stopped
        unclaimed_kernel = _KERNEL.search(unclaimed)
        assert unclaimed_kernel and f"Kernel {unclaimed_kernel.group(1)}: its page never connected" in server.log_text()
        time.sleep(4)
        assert len(server.kernels()) == 1  # the one its page connected to stays
    finally:
        ws.close()
        _close(server, claimed, "127.0.0.13")


@pytest.fixture(scope="module")
def forgetful_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    log = tmp_path_factory.mktemp("voila-gone") / "voila.log"
    with serve("lessons", log, "--ClassroomKernelManager.gone_seconds=3") as running:
        yield running


def _channels(server: VoilaServer, page: str) -> Any:
    import websocket  # websocket-client, a dependency of jupyter_server

    kernel = _KERNEL.search(page)
    assert kernel
    return websocket.create_connection(server.base.replace("http", "ws", 1)
                                       + f"/api/kernels/{kernel.group(1)}/channels?session_id=test", timeout=30)


def test_a_crashed_pages_kernel_is_freed_at_once(forgetful_server: VoilaServer) -> None:
    """A tab that crashed (its connection dropped, no shutdown sent) frees its kernel within
    the grace time, not the culler's five minutes, so a learner with a few crashed tabs is not
    told "the class is full"; a page whose connection drops and comes back keeps its kernel."""
    server = forgetful_server
    assert _wait_for_kernels(server, 0) == 0
    _, _, crashed = _open(server, "127.0.0.14")
    _, _, blinked = _open(server, "127.0.0.14")
    first, second = _channels(server, crashed), _channels(server, blinked)
    assert _wait_for_kernels(server, 2, timeout=5) == 2
    first.shutdown()  # the socket is gone, as with a crashed tab: no close frame, no shutdown beacon
    second.shutdown()
    again = _channels(server, blinked)  # this page reconnects at once (a network blip)
    try:
        assert _wait_for_kernels(server, 1, timeout=30) == 1
        kernel = _KERNEL.search(crashed)
        assert kernel and f"Kernel {kernel.group(1)}: its page's connection has been gone" in server.log_text()
        time.sleep(5)
        assert len(server.kernels()) == 1  # the page that came back keeps its kernel
    finally:
        again.close()
        _close(server, blinked, "127.0.0.14")
    assert _wait_for_kernels(server, 0) == 0


def test_a_page_whose_kernel_has_started_takes_one_seat() -> None:
    from tutor.server.admission import Classroom, Door, Seat

    door = Door(Classroom(size=2, per_client=2))
    door.waiting.append(Seat("127.0.0.2", kernel="k1"))  # still rendering, its kernel running
    door.waiting.append(Seat("127.0.0.3"))  # admitted, kernel not started yet
    assert door.full({"k1": "127.0.0.2"}, "127.0.0.4")  # k1 and the starting page: 2 of 2
    door.waiting.pop()
    assert not door.full({"k1": "127.0.0.2"}, "127.0.0.4")  # k1 counted once: room for one more
    assert not door.full({"k1": "127.0.0.2"}, "127.0.0.2")  # its client has 1 of its 2
    assert door.full({"k1": "127.0.0.2", "k2": "127.0.0.2"}, "127.0.0.2")
