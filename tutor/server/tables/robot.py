"""A light client: plays one seat of a table of classmates through the websocket, as a page
does — it reads only what its own seat is sent (lesson 10's ``state`` and ``hand``, patches applied;
a version missed, it asks for the whole) and sends
that seat's actions. For the load benchmark (``benchmarks/tables.py``) and the tests; every
message it receives is kept (:attr:`Robot.received`) for the tests to read.

Its play is plain: it declares with the first declaration offered when the deal stops for
it, buries its last eight cards, calls a card it holds once (the computer's choice is not
its to ask for), leads its lowest card and follows with the first legal follow.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import zlib
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from tornado.websocket import WebSocketClientConnection, websocket_connect

from tutor.rules.cards import KITTY_SIZE
from tutor.rules.follow import legal_follows
from tutor.rules.notation import parse_cards
from tutor.rules.order import Trump
from tutor.server.tables.patch import VERSION, receive
from tutor.server.tables.web import COMPRESSION

__all__ = ["Robot", "choose"]

CALLS: Final = ("♥A", "♠A", "♣A", "♦A", "♥K", "♠K", "♣K", "♦K")


def choose(state: dict[str, Any], hand: list[dict[str, Any]], rng: random.Random,
           refused: set[str]) -> dict[str, Any] | None:
    """The page message a plain player sends for ``state`` (its own seat's), or ``None``
    when it is not this seat's to act. ``refused``: the calls already refused this hand."""
    can = state.get("can") or {}
    cards = [c["text"] for c in hand]
    base = {"version": state.get("version")}
    if state.get("waiting") == "declare":
        options = state.get("options") or []
        return {**base, "type": "declare", "option": 0} if options else {**base, "type": "pass"}
    if can.get("bury"):
        return {**base, "type": "act", "verb": "bury", "cards": cards[-KITTY_SIZE:]}
    if can.get("call"):
        held = Counter(cards)
        for card in [c for c in cards if held[c] == 1] + list(CALLS):
            if card not in refused:
                refused.add(card)
                return {**base, "type": "act", "verb": "call", "cards": [card]}
        return {**base, "type": "solo"} if can.get("solo") else None
    if not can.get("play"):
        return None
    forced = state.get("forced") or []
    if forced:
        return {**base, "type": "act", "verb": "play", "cards": forced[0].split()}
    seats = state.get("seats") or []
    played = {s["seat"]: s["played_text"] for s in seats if s.get("played_text")}
    if not played or any(s.get("winner") for s in seats):
        return {**base, "type": "act", "verb": "play", "cards": [cards[-1]]}
    leader = next(s for s in played if (s - 1) % len(seats) not in played)
    trump = Trump(state.get("trump") or None)
    follows = list(legal_follows(parse_cards(" ".join(cards)), parse_cards(played[leader]), trump))
    choice = follows[0] if rng.random() < 0.5 else rng.choice(follows[:20])
    return {**base, "type": "act", "verb": "play", "cards": [str(c) for c in choice]}


class Robot:
    """One seat's light client: ``connect`` to ``url`` (the tables' websocket), then ``open``
    a table or ``join`` one; it plays whenever its seat is to act. ``on_state(robot, state,
    at)`` is called for every state received (``at``: :func:`time.perf_counter`)."""

    def __init__(self, url: str, name: str, *, lang: str = "en", seed: int = 0, think: float = 0.0,
                 on_state: Callable[[Robot, dict[str, Any], float], None] | None = None) -> None:
        self.url, self.name, self.lang, self.think = url, name, lang, think
        self.rng = random.Random(seed)
        self.on_state = on_state
        self.received: list[dict[str, Any]] = []
        self.wire = 0
        """Bytes of the messages received as they crossed the line: compressed as the server's
        permessage-deflate compresses them (:data:`~tutor.server.tables.web.COMPRESSION`), when
        it agreed to; else as they are."""
        self._deflate: Any = None
        self.view: dict[str, Any] = {}
        """The traits its seat was sent, patches applied (:func:`~tutor.server.tables.patch.receive`)."""
        self.drop = 0
        """How many of the next patches to drop, as if they were lost (the tests: it must ask for the whole)."""
        self._asked = False
        self.state: dict[str, Any] = {}
        self.hand: list[dict[str, Any]] = []
        self.seated: dict[str, Any] = {}
        self.refusals: list[str] = []
        self.sent: list[tuple[float, dict[str, Any]]] = []
        self.acting = True
        self._ws: WebSocketClientConnection | None = None
        self._acted_version: int | None = None
        self._calls: set[str] = set()
        self._reader: asyncio.Task[None] | None = None
        self._request = 0
        self.seated_event = asyncio.Event()

    async def connect(self) -> None:
        self._ws = await websocket_connect(self.url, compression_options={})  # offered, as every browser does
        agreed = self._ws.headers.get("Sec-WebSocket-Extensions", "") if self._ws.headers is not None else ""
        if "permessage-deflate" in agreed:
            self._deflate = zlib.compressobj(COMPRESSION["compression_level"], zlib.DEFLATED, -zlib.MAX_WBITS,
                                             COMPRESSION["mem_level"])
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def send(self, message: dict[str, Any]) -> None:
        assert self._ws is not None
        self.sent.append((time.perf_counter(), message))
        await self._ws.write_message(json.dumps(message, ensure_ascii=False))

    async def open(self, level: int = 1) -> str:
        await self.send({"kind": "open", "name": self.name, "lang": self.lang, "level": level})
        await self.seated_event.wait()
        return str(self.seated["code"])

    async def join(self, code: str, token: str | None = None) -> None:
        self.seated_event.clear()
        if token is None:
            await self.send({"kind": "join", "code": code, "name": self.name, "lang": self.lang})
        else:
            await self.send({"kind": "rejoin", "code": code, "token": token, "lang": self.lang})
        await self.seated_event.wait()

    def close(self) -> None:
        if self._ws is not None:
            self._ws.close()
        if self._reader is not None:
            self._reader.cancel()

    async def _read(self) -> None:
        assert self._ws is not None
        while True:
            text = await self._ws.read_message()
            if text is None:
                return
            at = time.perf_counter()
            data = text.encode() if isinstance(text, str) else text
            # as the server's deflate sent it: one sync-flushed block, its last 4 bytes left out (RFC 7692)
            self.wire += len(data) if self._deflate is None else \
                len(self._deflate.compress(data) + self._deflate.flush(zlib.Z_SYNC_FLUSH)) - 4
            message = json.loads(text)
            self.received.append(message)
            kind = message.get("kind")
            if kind == "seated":
                self.seated = message
                self.view = {}  # the whole view follows
                self.seated_event.set()
            elif kind == "refused":
                self.refusals.append(message.get("reason", ""))
            elif kind == "traits":
                if self.drop and not message.get("full"):
                    self.drop -= 1  # as if it never came
                    continue
                if "version" not in message:  # a server from before versions (the benchmark's --before): all whole
                    message = {**message, "version": 0, "full": True}
                if not receive(self.view, message):  # a version missed: ask for the whole (once)
                    if VERSION in self.view and not self._asked:
                        self._asked = True
                        await self.send({"kind": "resync"})
                    continue
                self._asked = False
                traits = {**message["traits"], **message.get("patch", {})}  # what changed (all, when full)
                if "hand" in traits:
                    self.hand = self.view["hand"]
                if "state" in traits:
                    self.state = self.view["state"]
                    if self.state.get("phase") == "dealing":
                        self._calls.clear()  # a new hand: every card may be called again
                    if self.on_state is not None:
                        self.on_state(self, self.state, at)
                if "state" in traits or "hand" in traits or "feedback" in traits:
                    await self._maybe_act(retry="feedback" in traits and "state" not in traits)

    async def _maybe_act(self, retry: bool = False) -> None:
        state = self.state
        version = state.get("version")
        if not self.acting or not state or (version == self._acted_version and not retry):
            return
        message = choose(state, self.hand, self.rng, self._calls)
        if message is None:
            return
        self._acted_version = version
        if self.think:
            await asyncio.sleep(self.think)
        self._request += 1
        await self.send({"kind": "msg", "content": {**message, "request": self._request}})
