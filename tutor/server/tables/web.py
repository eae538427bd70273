"""The tables served: pages, one websocket per page, and the server's clock that deals and
plays the computer's seats (:class:`Tables`).

Routes, under a prefix (``/tables/`` in the course's Voila server, ``/services/tables/`` on
JupyterHub):

- ``""`` — the lobby: open a table (name, level) or join one by its code;
  ``?code=K7QX2M`` opens the join form of that table (the link a table shows);
- ``teacher`` — open tables for a class from a list of names, and every table at a glance
  (read-only: players, the trick, the points won, who the table waits for);
- ``ws`` — the websocket of a page (:class:`TableSocket`); ``static/…`` — the pages' scripts.

The websocket speaks JSON objects with a ``kind``. The page sends ``open``, ``join``,
``rejoin`` (its seat's token, kept in the browser), ``start`` and ``again`` (the opener),
``msg`` (lesson 10's table messages for its own seat), ``select`` (picked cards), ``resync``, and a
teacher's page ``watch`` and ``open_class``. The server sends ``seated`` (the code, seat and
token), ``traits`` (what changed of the seat's table, lesson 10's widget state: a ``version``, the
small traits whole and the large ones as a ``patch`` of the last sent, :mod:`tutor.server.tables.patch`;
``"full": true`` when it is everything, as after ``seated`` and when the page sends ``resync``,
having missed a version), ``refused``
(a sentence in the learner's language), ``overview`` and ``class``. A page never receives
anything of another seat but what that seat showed everyone.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from functools import partial
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from tornado import web, websocket

from tutor.core.i18n import LANGUAGES, N_, Text, Translator
from tutor.core.text import capitalized
from tutor.play import coach
from tutor.rules.cards import PLAYERS
from tutor.server.tables.journal import RETRY_EVERY, Journal, database_url
from tutor.server.tables.shared import MAX_NAME, Pace, Player, SharedTable, TableError, new_code
from tutor.teach.course import TABLES_PATH
from tutor.teach.localize import COOKIE, choose_language
from tutor.teach.mistakes import MAX_STORED
from tutor.teach.table_view import LEVEL_NAMES, OFFERED_LEVELS
from widgets.table import ESM, TABLE_CSS

__all__ = ["CLOSE_AFTER", "MAX_MESSAGE", "MAX_TABLES", "RATE", "TableSocket", "Tables", "handlers"]

LOG: Final = logging.getLogger("tutor.tables")

STATIC: Final = Path(__file__).with_name("static")
CLOSE_AFTER: Final = 600.0
"""Seconds a table with no page open is kept (then it is closed and its code forgotten)."""
MAX_TABLES: Final = 400
"""Tables open at once on one server (a class of 40 needs 8)."""
MAX_CLASS: Final = 200
"""Names in one teacher's list."""
MAX_MESSAGE: Final = MAX_STORED + 16_384
"""The longest websocket message a page may send (bytes; longer closes the connection): room for
the positions its browser keeps to review (:data:`tutor.teach.mistakes.MAX_STORED`), which the
table's front end sends as it starts."""
COMPRESSION: Final[dict[str, Any]] = {"compression_level": 6, "mem_level": 5}
"""permessage-deflate for every page that offers it (zlib's default level; its window of 32 kB
keeps the last messages to match against: about 180 kB of memory a connection at this memory level).
Tornado limits what a page's compressed message unpacks to, as it does the message
(:data:`MAX_MESSAGE`)."""
_weighing: list[ProcessPoolExecutor] = []


def weighing() -> ProcessPoolExecutor:
    """Where the coach weighs a finished hand's plays (about a second of CPU each): one worker
    process, forked from this one at the first review, beside the server's own process — a
    class's reviews at the end of a hand wait their turn there instead of stopping every table
    (a thread would share the server's interpreter lock)."""
    if not _weighing:
        _weighing.append(ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")))
    return _weighing[0]
RATE: Final = (20.0, 40.0)
"""Messages a page may send: 20 a second on average, 40 at once; the rest is refused."""
FLOOD_CLOSE: Final = 200
"""A page that has this many messages refused for going over :data:`RATE` within
:data:`FLOOD_WINDOW` seconds is disconnected (a steady flood as well as a burst)."""
FLOOD_WINDOW: Final = 10.0
MAX_OPENED: Final = 2 * MAX_CLASS // 5
"""Tables one page may open (a teacher's two lists of a whole class): a script cannot fill the server."""

TEXTS: Final = {
    "title": N_("Play with classmates"),
    "intro": N_("Five players, one hand: the tutor referees every seat. Open a table and share its code, "
                "or join a classmate's table. Seats nobody takes are played by the computer."),
    "name": N_("Your name"),
    "level": N_("Computer players for empty seats"),
    "open": N_("Open a table"),
    "code": N_("Table code"),
    "join": N_("Join"),
    "share": N_("Share this code or link with your classmates:"),
    "copy": N_("Copy"),
    "copied": N_("Copied."),
    "start": N_("Start the hand"),
    "again": N_("Deal the next hand"),
    "waiting_start": N_("Waiting for the one who opened the table to start the hand."),
    "seats": N_("At this table"),
    "computer": N_("computer"),
    "seat_of": N_("Seat {seat}: {name}"),
    "away": N_("away"),
    "lost": N_("The connection to the table was lost; trying again…"),
    "teacher": N_("Tables of the class"),
    "names": N_("Names, one per line (five to a table)"),
    "open_class": N_("Open the tables"),
    "none_yet": N_("No table is open."),
    "trick": N_("Trick {n}"),
    "waits_for": N_("waits for {name}"),
    "not_started": N_("not started"),
    "finished": N_("hand over"),
    "lesson": N_("Back to the course"),
}
"""The pages' own texts (the table itself says lesson 10's)."""

REFUSALS: Final = {
    "unreadable": N_("That message could not be read."),
    "no_table": N_("There is no open table with the code {code}."),
    "no_code": N_("Type the table's code first: the six letters and digits its opener shares."),
    "no_seat": N_("This browser has no seat at table {code} any more: join it again."),
    "not_seated": N_("Open or join a table first."),
    "too_many": N_("Too many messages at once: slow down."),
    "full_server": N_("The server has as many tables open as it can hold; try again later."),
}


def code_text(raw: object) -> str:
    """A table code a page sent, as a refusal quotes it (what is no code, as ``?``).

    >>> code_text("k7qx2m"), code_text(["K7QX2M"]), code_text("<b>")
    ('K7QX2M', '?', '?')
    """
    return raw.strip().upper()[:12] if isinstance(raw, str) and raw.strip().isalnum() else "?"


def level_number(raw: object) -> int:
    """The level a page asks for, if it is one the table offers (else level 1)."""
    return raw if type(raw) is int and raw in OFFERED_LEVELS else 1


@dataclass(eq=False)
class Page:
    """One open websocket: the seat it plays (once seated) and its message budget."""

    socket: TableSocket
    tr: Translator
    table: SharedTable | None = None
    player: Player | None = None
    watching: bool = False
    allowance: float = RATE[1]
    checked: float = field(default_factory=time.monotonic)
    refused: int = 0
    """Messages refused for going over the budget within the current :data:`FLOOD_WINDOW`."""
    window: float = 0.0
    opened: int = 0
    """Tables this page opened (at most :data:`MAX_OPENED`)."""

    def allowed(self, now: float) -> bool:
        """Whether this message is within the page's budget (a token bucket)."""
        self.allowance = min(RATE[1], self.allowance + (now - self.checked) * RATE[0])
        self.checked = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True


REOPENED: Final = N_("The server was started again: this table is back where it was, and nothing played was lost.")


class Tables:
    """Every open table of this server, their pages, and the clock that plays them; each table
    kept as its journal in ``journal`` when there is one (:meth:`resume`)."""

    def __init__(self, *, pace: Pace = Pace(), clock: Callable[[], float] = time.monotonic,
                 close_after: float = CLOSE_AFTER, journal: Journal | None = None) -> None:
        self.pace, self.clock, self.close_after = pace, clock, close_after
        self.journal = journal
        self._writer: asyncio.Task[None] | None = None
        self.tables: dict[str, SharedTable] = {}
        self.pages: dict[str, set[Page]] = {}
        self._wake: dict[str, asyncio.Event] = {}
        self._runners: dict[str, asyncio.Task[None]] = {}
        self.watchers: set[Page] = set()
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ tables
    def open(self, level: int) -> SharedTable:
        self.sweep()
        if len(self.tables) >= MAX_TABLES:
            raise TableError(Text(REFUSALS["full_server"]))
        code = new_code()
        while code in self.tables or (self.journal is not None and code in self.journal.codes):
            code = new_code()
        table = SharedTable(code, level=level, pace=self.pace)
        table.last_activity = self.clock()
        if self.journal is not None:
            self.journal.open_table(table.opening)
            table.keep = partial(self.journal.write, code)
        self._add(table)
        return table

    def _add(self, table: SharedTable) -> None:
        code = table.code
        self.tables[code] = table
        self.pages[code] = set()
        self._wake[code] = asyncio.Event()
        self._runners[code] = asyncio.get_running_loop().create_task(self._run(table))
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())

    def resume(self, journal: Journal) -> int:
        """Keep every table in ``journal`` from now on, and reopen those it holds, each where it
        was (its journal replayed through its session: :meth:`SharedTable.reopen`), its learners
        away until their pages come back by their tokens. A table whose journal cannot be read
        or is refused by the rules is left closed, marked in the database to inspect, and said
        in the log. Returns how many tables were reopened (call it in the server's event loop)."""
        self.journal = journal
        reopened = 0
        for kept in journal.kept():
            code = kept.opened.code
            if code in self.tables:
                continue
            try:
                table = SharedTable.reopen(kept.opened, kept.entries, pace=self.pace, now=self.clock(),
                                           note=Text(REOPENED))
            except Exception as error:  # noqa: BLE001 - a journal from anywhere: refused, kept, and said
                LOG.warning("table %s cannot be reopened; it is closed and kept in the database to inspect: %s",
                            code, error)
                journal.refuse(code, str(error) or type(error).__name__)
                continue
            table.keep = partial(journal.write, code)
            self._add(table)
            reopened += 1
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_now_and_then())
        LOG.info("tables kept in %s: %d reopened", journal.where, reopened)
        return reopened

    async def _write_now_and_then(self) -> None:
        """What the database refused, written again as soon as it takes it."""
        tries = 0
        while self.journal is not None:
            await asyncio.sleep(min(60.0, RETRY_EVERY * 2 ** min(tries, 5)))
            tries = 0 if not self.journal.behind or self.journal.retry() else tries + 1

    def get(self, code: object) -> SharedTable | None:
        return self.tables.get(code.strip().upper()) if isinstance(code, str) and len(code) < 20 else None

    def close(self, code: str) -> None:
        if self.tables.pop(code, None) is not None and self.journal is not None:
            self.journal.forget(code)
        for page in self.pages.pop(code, set()):
            page.socket.close(1000, "closed")
        self._wake.pop(code, None)
        runner = self._runners.pop(code, None)
        if runner is not None:
            runner.cancel()

    def sweep(self) -> None:
        """Close the tables nobody has had open for :attr:`close_after` seconds."""
        now = self.clock()
        for code, table in list(self.tables.items()):
            since = table.idle_since()
            if since is not None and now - max(since, table.last_activity) >= self.close_after:
                LOG.info("table %s closed: nobody has had it open for %d s", code, now - since)
                self.close(code)

    async def _sweep_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(min(60.0, self.close_after / 4))
            self.sweep()

    def changed(self, table: SharedTable) -> None:
        """Something happened at ``table``: send each page what changed, wake its clock."""
        self.flush(table)
        wake = self._wake.get(table.code)
        if wake is not None:
            wake.set()
        if self.watchers:
            self.send_overview()

    def flush(self, table: SharedTable) -> None:
        pages = self.pages.get(table.code, set())
        for player in table.players:
            mine = [p for p in pages if p.player is player]
            message = table.update(player) if player.dirty else None
            if message is not None and mine:
                text = json.dumps(message, ensure_ascii=False)
                for page in mine:
                    page.socket.send(text)

    async def _run(self, table: SharedTable) -> None:
        """The table's clock: the deal and the computer's moves, each after its pause."""
        wake = self._wake[table.code]
        while table.code in self.tables:
            try:
                now = self.clock()
                if table.step(now):
                    self.changed(table)
                    await asyncio.sleep(0)
                    continue
                wait = table.due(now)
                wake.clear()
                try:  # not asyncio.wait_for: in Python 3.11 it may swallow a cancellation (the server's stop)
                    async with asyncio.timeout(5.0 if wait is None else min(wait, 5.0)):
                        await wake.wait()
                except TimeoutError:
                    pass
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - a table's clock must not die silently; the table stays as it was
                LOG.exception("table %s: a step failed", table.code)
                await asyncio.sleep(1.0)

    # ------------------------------------------------------------ a teacher's view
    def overview(self) -> list[dict[str, Any]]:
        now = self.clock()
        return [table.overview(now) for table in sorted(self.tables.values(), key=lambda t: t.code)]

    def send_overview(self) -> None:
        text = json.dumps({"kind": "overview", "tables": self.overview()}, ensure_ascii=False)
        for page in list(self.watchers):
            page.socket.send(text)

    def open_class(self, names: list[str], level: int, lang: str, base: str) -> list[dict[str, Any]]:
        """Tables of five for ``names`` (in order; the last table may be smaller, its empty
        seats the computer's), each learner with a personal link to their seat."""
        out = []
        for start in range(0, len(names), PLAYERS):
            table = self.open(level)
            seats = []
            for name in names[start:start + PLAYERS]:
                player = table.join(name, lang)
                seats.append({"name": player.name, "seat": player.seat,
                              "link": f"{base}?code={table.code}&seat={quote(player.token)}"})
            out.append({"code": table.code, "players": seats})
        return out


class TableSocket(websocket.WebSocketHandler):
    """A page's connection: every message checked before anything is done (a malformed one
    is refused in words and changes nothing), at most :data:`RATE` messages a second."""

    tables: Tables
    page: Page | None = None

    def initialize(self, tables: Tables, auth: Callable[[web.RequestHandler], str | None] | None = None) -> None:
        self.tables = tables
        self.auth = auth

    @property
    def max_message_size(self) -> int:
        return MAX_MESSAGE

    def get_compression_options(self) -> dict[str, Any]:
        """Messages are compressed (permessage-deflate, which every browser offers): a seat's
        view is HTML and words that repeat from one message to the next, about a tenth of its
        size on the wire (``benchmarks/tables.py``)."""
        return COMPRESSION

    def open(self, *args: str, **kwargs: str) -> None:
        # Each message at once (no Nagle's algorithm): a seat that only listens acknowledges late,
        # and the next message to it would wait ~40 ms for that (the kernel's websockets: fixes.py).
        self.set_nodelay(True)
        lang = choose_language(self.request.query, self.get_cookie(COOKIE), self.request.headers.get("Accept-Language"))
        self.page = Page(self, Translator(lang))
        self.user = self.auth(self) if self.auth is not None else None

    def send(self, text: str) -> None:
        if self.ws_connection is not None and not self.ws_connection.is_closing():
            self.write_message(text)

    def refuse(self, reason: str | Text, **values: Any) -> None:
        assert self.page is not None
        text = reason if isinstance(reason, Text) else Text(reason, **values)
        said = capitalized(self.page.tr(text))
        if said and said[-1] not in ".!?…。！？":
            said += "。" if self.page.tr.language.startswith("zh") else "."
        self.send(json.dumps({"kind": "refused", "reason": said}, ensure_ascii=False))

    def on_message(self, message: str | bytes) -> None:
        page, tables = self.page, self.tables
        if page is None:
            return
        now = tables.clock()
        moment = time.monotonic()
        if moment - page.window >= FLOOD_WINDOW:
            page.window, page.refused = moment, 0
        if not page.allowed(moment):
            page.refused += 1
            if page.refused == 1 or page.refused % 20 == 0:
                self.refuse(REFUSALS["too_many"])
            if page.refused >= FLOOD_CLOSE:
                self.close(1008, "too many messages")
            return
        try:
            data = json.loads(message)
        except (ValueError, UnicodeDecodeError, RecursionError):  # not JSON, or nested past Python's depth
            data = None
        kind = data.get("kind") if isinstance(data, dict) else None
        if not isinstance(kind, str):
            self.refuse(REFUSALS["unreadable"])
            return
        try:
            self._handle(kind, data, now)
        except TableError as error:
            self.refuse(error.args[0] if error.args else REFUSALS["unreadable"])
        except Exception:  # noqa: BLE001 - the one boundary: logged for the server, said in the learner's words
            LOG.exception("a table page's %r message could not be handled", kind[:40])
            self.refuse(N_("Something went wrong; nothing was changed. Try again."))

    def _seat(self, table: SharedTable, player: Player, now: float) -> None:
        page = self.page
        assert page is not None
        if page.table is not None and page.player is not None:
            self._leave(now)
        page.table, page.player = table, player
        table.opened(player, now)
        self.tables.flush(table)  # the other pages first: this one starts from the whole view, as it is now
        self.tables.pages[table.code].add(page)
        self.send(json.dumps({"kind": "seated", "code": table.code, "seat": player.seat, "token": player.token,
                              "name": player.name, "lang": player.lang}, ensure_ascii=False))
        self.send(json.dumps(table.whole(player), ensure_ascii=False))
        self.tables.changed(table)

    def _leave(self, now: float) -> None:
        page = self.page
        if page is None or page.table is None or page.player is None:
            return
        self.tables.pages.get(page.table.code, set()).discard(page)
        page.table.closed(page.player, now)
        self.tables.changed(page.table)
        page.table = page.player = None

    def _name(self, data: dict[str, Any]) -> object:
        return self.user if self.user else data.get("name")

    def _lang(self, data: dict[str, Any]) -> str:
        lang = data.get("lang")
        assert self.page is not None
        return lang if isinstance(lang, str) and lang in LANGUAGES else self.page.tr.language

    def _handle(self, kind: str, data: dict[str, Any], now: float) -> None:
        page, tables = self.page, self.tables
        assert page is not None
        if kind in ("open", "open_class") and page.opened >= MAX_OPENED:
            self.refuse(REFUSALS["full_server"])
            return
        if kind == "open":
            page.opened += 1
            table = tables.open(level_number(data.get("level")))
            self._seat(table, table.join(self._name(data), self._lang(data)), now)
        elif kind == "join":
            if code_text(data.get("code")) == "?":  # nothing typed, or no code's letters
                self.refuse(REFUSALS["no_code"])
                return
            found = tables.get(data.get("code"))
            if found is None:
                self.refuse(REFUSALS["no_table"], code=code_text(data.get("code")))
                return
            self._seat(found, found.join(self._name(data), self._lang(data)), now)
        elif kind == "rejoin":
            found = tables.get(data.get("code"))
            player = found.claim(data.get("token")) if found is not None else None
            if found is None or player is None:
                self.refuse(REFUSALS["no_seat"] if found is not None else REFUSALS["no_table"],
                            code=code_text(data.get("code")))
                return
            found.speak(player, data.get("lang"))
            self._seat(found, player, now)
        elif kind == "resync":  # the page missed a message: it is sent everything again
            if page.table is not None and page.player is not None:
                self.tables.flush(page.table)
                self.send(json.dumps(page.table.whole(page.player), ensure_ascii=False))
        elif kind == "watch":
            tables.watchers.add(page)
            page.watching = True
            self.send(json.dumps({"kind": "overview", "tables": tables.overview()}, ensure_ascii=False))
        elif kind == "open_class":
            names = data.get("names")
            if not isinstance(names, list) or not names or len(names) > MAX_CLASS or \
                    not all(isinstance(n, str) and n.strip() and len(n) <= 4 * MAX_NAME for n in names):
                self.refuse(N_("A class is a list of 1 to {most} names."), most=MAX_CLASS)
                return
            raw_base = data.get("base")
            base = raw_base if isinstance(raw_base, str) and len(raw_base) < 500 else ""
            page.opened += -(-len(names) // PLAYERS)
            made = tables.open_class(names, level_number(data.get("level")), self._lang(data), base)
            self.send(json.dumps({"kind": "class", "tables": made}, ensure_ascii=False))
            tables.send_overview()
        elif page.table is None or page.player is None:
            self.refuse(REFUSALS["not_seated"])
        elif kind == "start":
            page.table.start(page.player, now)
            tables.changed(page.table)
        elif kind == "again":
            page.table.again(page.player, now)
            tables.changed(page.table)
        elif kind == "msg":
            content = data.get("content")
            if isinstance(content, dict) and content.get("type") == "coach_review" and page.player.view.to_weigh:
                asyncio.get_running_loop().create_task(self._weigh_then(page.table, page.player, content))
                return
            page.table.message(page.player, content, now)
            tables.changed(page.table)
        elif kind == "select":
            page.table.select(page.player, data.get("value"))
            tables.flush(page.table)
        else:
            self.refuse(REFUSALS["unreadable"])

    async def _weigh_then(self, table: SharedTable, player: Player, content: dict[str, Any]) -> None:
        """The coach's review of a seat's hand, weighed apart (:func:`weighing`) while the server
        goes on serving every table, then shown."""
        game = table.game
        weighed = await asyncio.get_running_loop().run_in_executor(
            weighing(), partial(coach.review, game, player.seat, seed=game.seed))
        if table.game is game and player.view.to_weigh:
            table.session.desk(player.seat).weighed = weighed
            table.message(player, content, self.tables.clock())
            self.tables.changed(table)

    def on_close(self) -> None:
        page = self.page
        if page is None:
            return
        self.tables.watchers.discard(page)
        self._leave(self.tables.clock())


class PageHandler(web.RequestHandler):
    """The lobby or the teacher's page, in the learner's language."""

    def initialize(self, tables: Tables, page: str, prefix: str) -> None:
        self.tables, self.page_name, self.prefix = tables, page, prefix

    def get(self) -> None:
        lang = choose_language(self.request.query, self.get_cookie(COOKIE), self.request.headers.get("Accept-Language"))
        tr = Translator(lang)
        config = {"page": self.page_name, "lang": lang, "prefix": self.prefix,
                  "texts": {key: tr(text) for key, text in TEXTS.items()},
                  "levels": [{"level": n, "label": tr("Level {level}: {name}", level=n, name=tr(LEVEL_NAMES[n]))}
                             for n in OFFERED_LEVELS]}
        html = (STATIC / "page.html").read_text("utf-8")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.write(html.replace("{{lang}}", lang).replace("{{title}}", tr(TEXTS["title"] if self.page_name == "lobby"
                                                                          else TEXTS["teacher"]))
                   .replace("{{prefix}}", self.prefix)
                   .replace("{{config}}", json.dumps(config, ensure_ascii=False).replace("</", "<\\/")))


class AssetHandler(web.RequestHandler):
    """The pages' scripts and style: the client, and lesson 10's table (the same front end)."""

    ASSETS: Final[dict[str, tuple[str, Callable[[], str]]]] = {
        "table.mjs": ("text/javascript", lambda: ESM),
        "table.css": ("text/css", lambda: TABLE_CSS),
        "client.js": ("text/javascript", lambda: (STATIC / "client.js").read_text("utf-8")),
        "page.css": ("text/css", lambda: (STATIC / "page.css").read_text("utf-8")),
    }

    def get(self, name: str) -> None:
        asset = self.ASSETS.get(name)
        if asset is None:
            raise web.HTTPError(404)
        self.set_header("Content-Type", f"{asset[0]}; charset=utf-8")
        self.write(asset[1]())


def handlers(prefix: str, tables: Tables,
             auth: Callable[[web.RequestHandler], str | None] | None = None) -> list[tuple[str, Any, dict[str, Any]]]:
    """The routes of the tables under ``prefix`` (ending in ``/``)."""
    return [
        (prefix, PageHandler, {"tables": tables, "page": "lobby", "prefix": prefix}),
        (prefix + "teacher", PageHandler, {"tables": tables, "page": "teacher", "prefix": prefix}),
        (prefix + "ws", TableSocket, {"tables": tables, "auth": auth}),
        (prefix + r"static/([a-z.]+)", AssetHandler, {}),
    ]


PACE_VARIABLE: Final = "QD_TABLE_PACE"
"""An environment variable that scales the tables' pauses (:class:`Pace`): ``0`` for none (tests,
benchmarks), ``2`` for twice as slow; unset, 1."""


def pace_from_environment() -> Pace:
    """The pace the environment asks for (:data:`PACE_VARIABLE`); a value that is no
    number from 0 to 10 is ignored."""
    try:
        scale = float(os.environ.get(PACE_VARIABLE, "1"))
    except ValueError:
        scale = 1.0
    scale = scale if 0.0 <= scale <= 10.0 else 1.0
    base = Pace()
    return Pace(base.deal * scale, base.move * scale, base.trick * scale)


TABLES: Final = Tables(pace=pace_from_environment())
"""The tables of this server process (the course's Voila server, or the hub's service)."""


def install() -> None:
    """Serve the tables in the course's Voila server, under ``/tables/`` (idempotent)."""
    from jupyter_server.utils import url_path_join
    from tornado.ioloop import IOLoop
    from voila.app import Voila

    original = Voila.init_handlers
    if getattr(original, "_qd_tables", False):
        return

    def init_handlers(self: Voila) -> list[Any]:
        IOLoop.current().add_callback(resume_from, TABLES, database_url(None, self.port))
        return [*handlers(url_path_join(self.server_url, TABLES_PATH), TABLES), *original(self)]

    init_handlers._qd_tables = True  # type: ignore[attr-defined]
    Voila.init_handlers = init_handlers


def resume_from(tables: Tables, url: str) -> None:
    """Open the tables' database at ``url`` (its schema migrated) and :meth:`Tables.resume` from it;
    a database that cannot be opened is said in the log, and the tables are kept in memory only."""
    try:
        journal = Journal(url)
    except Exception as error:  # noqa: BLE001 - any database, any state: the tables still play
        LOG.warning("the tables' database %s cannot be opened (%s): the tables are kept in memory only, and a "
                    "restart ends them", url.split("@")[-1], str(error).splitlines()[0][:200] if str(error) else
                    type(error).__name__)
        return
    tables.resume(journal)
