"""Admission to the served course: a whole class at once, and no script filling the machine.

Every lesson page costs a kernel (~30 MB of its own, forked from the zygote) and, while
its notebook runs, CPU. Three rules keep a class of forty fast and a script harmless:

- **No kernel for a bare GET.** The first answer to a lesson's address is a tiny page
  whose script sets a one-time admission cookie and reloads; only that second request, from
  a browser that runs the page, starts a kernel. A ``curl`` loop gets the tiny page, and a
  kernel whose page never connects to it is stopped a minute after the page was sent
  (:attr:`Classroom.unclaimed_seconds`).
- **Room for the class, and a fair share each.** At most :attr:`Classroom.size` lesson
  kernels (``./dev serve --class 40``) and :attr:`Classroom.per_client` per client address;
  past either, the learner gets a friendly "the class is full, try again in a minute" page
  in their language (HTTP 503 with ``Retry-After``), which tries again by itself.
- **First come, first served.** Every admitted page gets its text at once (the course's
  template sends it before the kernel runs anything); at most :attr:`Classroom.rendering`
  pages run their notebook at once, in the order they came (each page's :class:`Turn`):
  forty pages run all at once share the CPU and all finish late; in turn, the first learners start at once and the last wait only for
  those before them. A page's work alternates between the server's one thread and its
  kernel, so two pages per core keep both busy (``benchmarks/load.py`` on 2 cores, 40
  learners: p95 ~21 s with 2 at once, ~7 s with 4, ~29 s with 6).

:func:`admitted` wraps Voila's page generator with these rules; :class:`ClassroomKernelManager`
remembers which client each kernel is for. ``configure`` in :mod:`tutor.server` installs both.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from functools import cache
from html import escape
from typing import Any, Final

from jupyter_core.utils import ensure_async
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from traitlets import Float, Int, TraitError
from traitlets.config import Configurable

from tutor.core.i18n import Text, Translator
from tutor.teach.localize import COOKIE, choose_language

TICKET_COOKIE: Final = "qd-admit"
TICKET_SECONDS: Final = 60.0
MAX_TICKETS: Final = 10_000
RETRY_SECONDS: Final = 60
UNCLAIMED_SECONDS: Final = 60.0
GONE_SECONDS: Final = 30.0
"""How long a page's kernel waits for its page to come back once its last connection is gone
(a reload or a network blip reconnects within seconds; a crashed or discarded tab never does)."""


class Classroom(Configurable):
    """How many learners the server takes at once (``--Classroom.size=40``, or
    ``./dev serve --class 40``)."""

    size = Int(40, help="Lesson kernels at once, in all: a class of this many learners "
                        "(about 30 MB of memory each).").tag(config=True)
    per_client = Int(4, help="Lesson kernels one client address may hold at once (tabs of one "
                             "learner); 0 for no limit, where a whole class reaches the server "
                             "through one address (a proxy, a NAT).").tag(config=True)
    rendering = Int(0, help="Pages whose notebook runs at once; 0 for two per CPU core.").tag(config=True)
    ticket_seconds = Float(TICKET_SECONDS, help="How long a page's admission cookie is good for.").tag(config=True)
    unclaimed_seconds = Float(UNCLAIMED_SECONDS, help="A page's kernel that no page has connected to this "
                                                      "long after the page was sent is stopped.").tag(config=True)


class Turn:
    """A page's turn to run its notebook, from the render queue (:meth:`Door.slots`): taken
    when its kernel is about to run the cells — after the page's text has been sent (the
    course's template sends it first) — and given back when the page is done."""

    def __init__(self, queue: asyncio.Semaphore) -> None:
        self._queue = queue
        self.held = False

    async def take(self) -> None:
        if not self.held:
            await self._queue.acquire()
            self.held = True

    def give_back(self) -> None:
        if self.held:
            self.held = False
            self._queue.release()


@dataclass(eq=False)  # each page its own seat, however alike
class Seat:
    """One admitted page: its client, its kernel once it has one, and its turn to run."""

    client: str
    kernel: str | None = None
    turn: Turn | None = None


@dataclass
class Door:
    """The server's admission state: tickets handed out, pages admitted, the render queue."""

    classroom: Classroom
    tickets: OrderedDict[str, float] = field(default_factory=OrderedDict)
    waiting: list[Seat] = field(default_factory=list)  # admitted, kernel not started yet
    queue: asyncio.Semaphore | None = None

    def ticket(self) -> str:
        """A new one-time ticket (expired and surplus tickets are dropped)."""
        now = time.monotonic()
        while self.tickets and (len(self.tickets) >= MAX_TICKETS or next(iter(self.tickets.values())) < now):
            self.tickets.popitem(last=False)
        value = secrets.token_urlsafe(18)
        self.tickets[value] = now + self.classroom.ticket_seconds
        return value

    def redeem(self, value: str | None) -> bool:
        """Whether ``value`` is a live ticket (it is used up)."""
        if not value or len(value) > 64:
            return False
        expiry = self.tickets.pop(value, None)
        return expiry is not None and expiry >= time.monotonic()

    def full(self, kernels: dict[str, str], client: str) -> bool:
        """Whether one more page would pass the class's size or this client's share."""
        starting = [seat for seat in self.waiting if seat.kernel is None]  # the others are in ``kernels``
        total = len(kernels) + len(starting)
        mine = sum(1 for who in kernels.values() if who == client) + sum(seat.client == client for seat in starting)
        share = self.classroom.per_client
        return total >= self.classroom.size or (share > 0 and mine >= share)

    def slots(self) -> asyncio.Semaphore:
        if self.queue is None:
            self.queue = asyncio.Semaphore(self.classroom.rendering or 2 * (os.cpu_count() or 1))
        return self.queue


_SEAT: contextvars.ContextVar[Seat | None] = contextvars.ContextVar("qd_seat", default=None)
_DOORS: dict[int, Door] = {}


class ClassroomKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager, remembering which client each kernel was started for, and
    stopping a page's kernel once the page's last connection has been gone for
    :attr:`gone_seconds` (a crashed or discarded tab sends no shutdown: its kernel used to
    hold a seat of the learner's share for the culler's five idle minutes)."""

    gone_seconds = Float(GONE_SECONDS, help="A page's kernel is stopped this many seconds after its page's last "
                                            "connection closed, unless the page connected again.").tag(config=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]
        self._clients: dict[str, str] = {}
        self._claimed: set[str] = set()
        self._leaving: dict[str, asyncio.TimerHandle] = {}  # kernels whose page's connection is gone, for now

    def notify_connect(self, kernel_id: str) -> None:
        self._claimed.add(kernel_id)  # its page's websocket opened
        waiting = self._leaving.pop(kernel_id, None)
        if waiting is not None:
            waiting.cancel()  # the page came back
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)  # type: ignore[no-untyped-call]
        if kernel_id in self._claimed and self._kernel_connections.get(kernel_id, 0) <= 0:
            self._expect_return(kernel_id)

    def _expect_return(self, kernel_id: str) -> None:
        """Stop ``kernel_id`` if its page has not connected again :attr:`gone_seconds` from now."""
        async def check() -> None:
            self._leaving.pop(kernel_id, None)
            if kernel_id in self.list_kernel_ids() and self._kernel_connections.get(kernel_id, 0) <= 0:
                self.log.info("Kernel %s: its page's connection has been gone %.0f s, stopped", kernel_id,
                              self.gone_seconds)
                await self.shutdown_kernel(kernel_id)

        earlier = self._leaving.pop(kernel_id, None)
        if earlier is not None:
            earlier.cancel()
        self._leaving[kernel_id] = asyncio.get_running_loop().call_later(
            self.gone_seconds, lambda: asyncio.ensure_future(check()))

    def expect_claim(self, kernel_id: str, seconds: float) -> None:
        """Stop ``kernel_id`` if no page has connected to it ``seconds`` from now (a page
        fetched by a script that never runs it)."""
        async def check() -> None:
            if kernel_id in self.list_kernel_ids() and kernel_id not in self._claimed:
                self.log.warning("Kernel %s: its page never connected in %.0f s, stopped", kernel_id, seconds)
                await self.shutdown_kernel(kernel_id)

        asyncio.get_running_loop().call_later(seconds, lambda: asyncio.ensure_future(check()))

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        kernel_id: str = await super().start_kernel(*args, **kwargs)
        seat = _SEAT.get()
        if seat is not None:
            seat.kernel = kernel_id
            self._clients[kernel_id] = seat.client
        return kernel_id

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        self._clients.pop(kernel_id, None)  # its seat is free at once: a class moving on finds room
        self._claimed.discard(kernel_id)
        waiting = self._leaving.pop(kernel_id, None)
        if waiting is not None:
            waiting.cancel()
        await super().shutdown_kernel(kernel_id, *args, **kwargs)  # type: ignore[no-untyped-call]

    def clients(self) -> dict[str, str]:
        """The client of each running kernel started for a page (not being shut down)."""
        running = set(self.list_kernel_ids())
        for gone in [k for k in self._clients if k not in running]:
            del self._clients[gone]
        return dict(self._clients)


def _door(handler: Any) -> Door:
    manager = handler.kernel_manager
    door = _DOORS.get(id(manager))
    if door is None:
        try:
            classroom = Classroom(config=getattr(handler, "traitlet_config", None))
        except (TraitError, ValueError) as error:  # a mistyped --Classroom option: say so, serve anyway
            handler.log.error("The Classroom settings cannot be used (%s): serving with the defaults", error)
            classroom = Classroom()
        door = _DOORS[id(manager)] = Door(classroom)
    return door


async def _is_notebook(handler: Any, path: str | None) -> bool:
    """Whether ``path`` names a notebook that is there (only those are behind the door)."""
    if not path or not path.endswith(".ipynb"):
        return False
    try:
        return bool(await ensure_async(handler.contents_manager.file_exists(path)))
    except Exception:  # noqa: BLE001 - a name no file can have: Voila answers it
        return False


def _language(handler: Any) -> str:
    request = handler.request
    return choose_language(request.query, handler.get_cookie(COOKIE), request.headers.get("Accept-Language"))


def opening_page(ticket: str, language: str, seconds: float) -> str:
    """The tiny page a bare GET gets: its script takes the ticket and opens the lesson.

    >>> page = opening_page("abc", "en", 60)
    >>> "qd-admit=abc" in page and "location.replace" in page
    True
    """
    tr = Translator(language)
    title = escape(tr(Text("Opening the lesson…")))
    no_script = escape(tr(Text("This lesson needs JavaScript: please turn it on and reload the page.")))
    no_cookies = escape(tr(Text("This lesson needs cookies for this site: please allow them and reload the page.")))
    return (f'<!DOCTYPE html>\n<html lang="{language}"><head><meta charset="utf-8"><title>{title}</title>'
            '<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
            f'<body><p id="qd-opening">{title}</p><noscript><p>{no_script}</p></noscript><script>'
            f'document.cookie = "{TICKET_COOKIE}={ticket}; path=/; max-age={int(seconds)}; samesite=lax";'
            f'if (document.cookie.indexOf("{TICKET_COOKIE}={ticket}") >= 0) location.replace(location.href);'
            f'else document.getElementById("qd-opening").textContent = {_js_string(no_cookies)};'
            '</script></body></html>\n')


def full_page(language: str, retry: int) -> str:
    """The page a learner gets when the class is full: try again in a minute (it does).

    >>> "full" in full_page("en", 60)
    True
    """
    tr = Translator(language)
    title = escape(tr(Text("The class is full right now")))
    body = escape(tr(Text("Every seat of this lesson server is taken. This page tries again by itself in a "
                          "minute; you can also reload it then.")))
    return (f'<!DOCTYPE html>\n<html lang="{language}"><head><meta charset="utf-8"><title>{title}</title>'
            f'<meta http-equiv="refresh" content="{retry}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<style>body{font:1.1rem/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}'
            '</style></head>'
            f'<body><h1 data-qd="class-full">{title}</h1><p>{body}</p></body></html>\n')


def _js_string(text: str) -> str:
    return json.dumps(text).replace("<", "\\u003c")


def admitted(get_generator: Callable[..., AsyncIterator[str]]) -> Callable[..., AsyncIterator[str]]:
    """Voila's page generator behind the door: ticket, room, then the render queue."""

    async def generate(self: Any, path: str | None = None) -> AsyncIterator[str]:
        manager = self.kernel_manager
        if not isinstance(manager, ClassroomKernelManager):  # another server's manager (a hub's)
            async for chunk in get_generator(self, path):
                yield chunk
            return
        if not await _is_notebook(self, self.notebook_path or path):  # Voila's own 404 or redirect
            async for chunk in get_generator(self, path):
                yield chunk
            return
        door = _door(self)
        language = _language(self)
        if not door.redeem(self.get_cookie(TICKET_COOKIE)):
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.set_header("Cache-Control", "no-store")
            yield opening_page(door.ticket(), language, door.classroom.ticket_seconds)
            return
        self.clear_cookie(TICKET_COOKIE, path="/")
        client = str(self.request.remote_ip or "")
        if door.full(manager.clients(), client):
            self.set_status(503)
            self.set_header("Retry-After", str(RETRY_SECONDS))
            self.set_header("Content-Type", "text/html; charset=UTF-8")
            self.set_header("Cache-Control", "no-store")
            self.log.warning("The class is full: %d kernels, a page for %s refused", len(manager.clients()), client)
            yield full_page(language, RETRY_SECONDS)
            return
        turn = Turn(door.slots())
        seat = Seat(client, turn=turn)
        door.waiting.append(seat)
        _SEAT.set(seat)  # the kernel manager reads it when this page's kernel starts, the renderer for its turn
        try:
            async for chunk in get_generator(self, path):
                if seat in door.waiting and seat.kernel is not None:
                    door.waiting.remove(seat)
                yield chunk
            if seat.kernel is not None:
                manager.expect_claim(seat.kernel, door.classroom.unclaimed_seconds)
        finally:
            turn.give_back()
            _SEAT.set(None)
            if seat in door.waiting:
                door.waiting.remove(seat)

    return generate


def in_turn(kernel_start: Callable[..., Any]) -> Callable[..., Any]:
    """Voila's start of a page's notebook run (its template's ``kernel_start``), waiting for
    the page's :class:`Turn` first: what the template sent before — the page's text — is
    on the learner's screen while the page waits."""

    async def start(self: Any, *args: Any, **kwargs: Any) -> Any:
        seat = _SEAT.get()
        if seat is not None and seat.turn is not None:
            await seat.turn.take()
        return await kernel_start(self, *args, **kwargs)

    return start


@cache  # once: a second call would put the door behind itself
def install() -> None:
    """Put Voila's lesson pages behind the door (idempotent)."""
    from voila.handler import VoilaHandler
    from voila.notebook_renderer import NotebookRenderer

    VoilaHandler.get_generator = admitted(VoilaHandler.get_generator)
    NotebookRenderer._jinja_kernel_start = in_turn(NotebookRenderer._jinja_kernel_start)
