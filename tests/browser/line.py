"""A network line between the browser and a plain file server: it counts every request and
every byte that crosses it, whichever of the browser's parts asked (the page, its workers, a
service worker), and can be slowed to a phone's or a school's line (one shared downlink of so
many Mbit/s, and a round trip added to every request).

Chromium's own network emulation (``Network.emulateNetworkConditions``) throttles one target
at a time: the kernel's worker, which downloads most of a lesson's bytes, would get a line of
its own beside the page's. Here there is one line, as on a phone.

>>> Line.SPEEDS["4g"]
(9.0, 0.15)
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from dataclasses import dataclass, field
from typing import ClassVar

_REQUEST = re.compile(rb"(?:^|\r\n)(GET|HEAD|POST|PUT|OPTIONS) (\S+) HTTP/1\.[01]\r\n")


@dataclass
class Traffic:
    """What crossed the line since it was last read: requests (method and path, in order) and
    bytes sent to the browser (headers and bodies, as on the wire)."""

    requests: list[str] = field(default_factory=list)
    down: int = 0

    @property
    def megabytes(self) -> float:
        return self.down / 1e6


class Line:
    """``127.0.0.1:<port>`` forwarding to ``upstream`` (host, port), counting, and slowed to
    ``mbit`` Mbit/s down (shared by every connection) and ``rtt`` seconds of round trip (on
    each connection's opening and on each request) when given."""

    SPEEDS: ClassVar[dict[str, tuple[float, float]]] = {"4g": (9.0, 0.15), "50mbit": (50.0, 0.02)}
    """Lines the benchmark measures: (Mbit/s down, round trip in seconds)."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.mbit = 0.0
        self.rtt = 0.0
        self._traffic = Traffic()
        self._lock = threading.Lock()
        self._next_free = 0.0  # when the shared downlink is next free (loop time)
        self._open: set[asyncio.StreamWriter] = set()  # both ends of every open connection
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait(10)
        self.base = f"http://127.0.0.1:{self.port}"

    def slow(self, speed: str | None) -> None:
        """Slow the line to one of :attr:`SPEEDS` (``None``: as fast as the machine)."""
        self.mbit, self.rtt = self.SPEEDS[speed] if speed else (0.0, 0.0)

    def read(self) -> Traffic:
        """What crossed the line since the last read."""
        with self._lock:
            found, self._traffic = self._traffic, Traffic()
        return found

    def cut(self) -> None:
        """The line goes down: every open connection is closed and new ones are refused."""
        done = threading.Event()

        def cut() -> None:
            self._server.close()
            for writer in list(self._open):
                writer.transport.abort()
            done.set()

        self._loop.call_soon_threadsafe(cut)
        done.wait(10)

    def stop(self) -> None:
        if self._loop.is_closed() or not self._thread.is_alive():
            return
        self.cut()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    # ------------------------------------------------------------ in the line's thread

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._connection, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.close()
            return
        self._open.update((writer, up_writer))
        if self.rtt:
            await asyncio.sleep(self.rtt)  # TCP's handshake
        await asyncio.gather(self._up(reader, up_writer), self._down(up_reader, writer), return_exceptions=True)
        for end in (writer, up_writer):
            self._open.discard(end)
            end.close()

    async def _up(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            found = [m.group(1).decode() + " " + m.group(2).decode("latin-1") for m in _REQUEST.finditer(data)]
            if found:
                with self._lock:
                    self._traffic.requests.extend(found)
                if self.rtt:
                    await asyncio.sleep(self.rtt)  # the request there and the answer's first byte back
            writer.write(data)
            await writer.drain()
        writer.write_eof()

    async def _down(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(16384):
            with self._lock:
                self._traffic.down += len(data)
            if self.mbit:
                now = self._loop.time()
                self._next_free = max(self._next_free, now) + len(data) * 8 / (self.mbit * 1e6)
                await asyncio.sleep(self._next_free - now)
            writer.write(data)
            await writer.drain()
        writer.close()


def wait_quiet(line: Line, seconds: float = 1.0, *, limit: float = 60.0) -> None:
    """Wait until nothing has crossed ``line`` for ``seconds`` (at most ``limit`` seconds): the
    page's downloads that follow what the learner sees (a cache being filled) are counted too."""
    deadline = time.monotonic() + limit
    seen = (-1, -1)
    quiet_since = time.monotonic()
    while time.monotonic() < deadline:
        with line._lock:
            now = (len(line._traffic.requests), line._traffic.down)
        if now != seen:
            seen, quiet_since = now, time.monotonic()
        elif time.monotonic() - quiet_since >= seconds:
            return
        time.sleep(0.1)
