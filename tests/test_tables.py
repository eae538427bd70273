"""Tables of classmates (``tutor/server/tables``, ``tutor/server/tables/seat.py``): five learners play one
hand the server holds, and each page is sent its own seat's view only.

The tables are served for real, on a free port of this machine, in the test's own event loop
(tornado), and played by the light client (:class:`~tutor.server.tables.robot.Robot`), the
pauses all 0. The server's own clock (a seat gone a minute, a table closed when nobody has it
open) is tested with an injected time, never by waiting for it to pass.

Every message the server sends a page goes through :class:`Audit` as it is sent, which knows
the true hand at that moment: a card the message mentions — in notation (``♠A``, ``BJ``), in
words in any of the three languages (``ace of spades``, ``黑桃A``, ``大王``), or drawn as a
face — that the seat cannot know by then (:func:`known`) is a leak. So is the seed before
the hand is over, a ``hand`` that is not the seat's own, the hand file before the end, or
who the friend is before the friend shows it (F2, F6). The audit proves it would see a leak:
once a hand, it reads another seat's view (and the declarer's kitty) as if it had been sent,
and must find every card there that this seat cannot know. Cards are compared by kind (the
pack holds two of each): a message naming ♠A is no leak to a seat that holds or has seen a ♠A.

A test that waits for the table gives up after a generous safety limit; none asserts how
long anything took.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import secrets
import shutil
import subprocess
import threading
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tornado import web
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets
from tornado.websocket import WebSocketClosedError

from tutor.core.errors import IllegalActionError
from tutor.core.i18n import LANGUAGES, Text, Translator
from tutor.play.strategy import LEVELS
from tutor.rules.actions import Play
from tutor.rules.cards import PACK, PLAYERS
from tutor.rules.events import (
    Buried,
    Declared,
    DeclarerChosen,
    FriendCalled,
    FriendRevealed,
    KittyTaken,
    Played,
    Redealt,
    ThrowFailed,
)
from tutor.rules.game import Game
from tutor.rules.order import Trump
from tutor.rules.phase import Phase
from tutor.server.tables import shared
from tutor.server.tables.patch import VERSION, apply, diff, receive
from tutor.server.tables.robot import Robot, choose
from tutor.server.tables.shared import ABSENT_AFTER, SYNCED, Pace, Player, SharedTable
from tutor.server.tables.web import FLOOD_CLOSE, MAX_MESSAGE, RATE, TableSocket, Tables, handlers
from tutor.teach.display import card_name, cards_html, hand_payload, trick_html

NAMES = ("Ana", "Ben", "Cai", "Dee", "Eve")
HANDS = 4
"""Hands played at each audited table."""
PATIENCE = 180.0
"""Seconds a test waits for the table before it gives up (a safety limit, not a measure)."""

# ---------------------------------------------------------------- the cards a message mentions

SUIT_WRITTEN = {"♠": "♠", "♥": "♥", "♣": "♣", "♦": "♦", "黑桃": "♠", "红桃": "♥", "紅桃": "♥", "梅花": "♣",
                "方块": "♦", "方塊": "♦", "方片": "♦"}
RANK = r"(?:10|[2-9JQKA])"
IN_NOTATION = re.compile(rf"({'|'.join(SUIT_WRITTEN)})((?:{RANK})+)")
"""A suit (sign or Chinese name) and its ranks: ``♠A``, ``黑桃10``, and a group ``♠AAK55``."""
IN_WORDS = re.compile(r"\b(ace|king|queen|jack|10|[2-9]) of (spades|hearts|clubs|diamonds)\b", re.IGNORECASE)
ON_A_FACE = re.compile(r'class="qd-rank"[^>]*>(10|[2-9JQKA])</span><span class="qd-pip"[^>]*>([♠♥♣♦])')
"""A face drawn (rank, then pip), whatever its ``data-card``, ``title`` or label say."""
JOKERS = re.compile(r"(?<![A-Za-z0-9_-])(BJ|SJ)(?![A-Za-z0-9_-])|(大王|小王)|\b(big|small) joker\b", re.IGNORECASE)
"""A joker, as a word of its own: not the ``BJ`` inside a table's code or a seat's token (``6SJ-P``)."""
WORD_RANK = {"ace": "A", "king": "K", "queen": "Q", "jack": "J"}
WORD_SUIT = {"spades": "♠", "hearts": "♥", "clubs": "♣", "diamonds": "♦"}


def strings(value: object) -> Iterator[str]:
    """Every string in a message: keys and values, at any depth."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings(key)
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def mentioned(message: object) -> set[str]:
    """The cards (their notation, ``♠A``) mentioned anywhere in ``message``, in any form."""
    found: set[str] = set()
    for text in strings(message):
        for suit, ranks in IN_NOTATION.findall(text):
            found.update(SUIT_WRITTEN[suit] + rank for rank in re.findall(RANK, ranks))
        for rank, suit in IN_WORDS.findall(text):
            found.add(WORD_SUIT[suit.lower()] + WORD_RANK.get(rank.lower(), rank))
        for rank, suit in ON_A_FACE.findall(text):
            found.add(suit + rank)
        for letters, chinese, word in JOKERS.findall(text):
            big = (letters or "").upper() == "BJ" or chinese == "大王" or (word or "").lower() == "big"
            found.add("BJ" if big else "SJ")
    return found


def notation(cards: object) -> set[str]:
    return {str(card) for card in cards}  # type: ignore[attr-defined]


def known(game: Game, seat: int) -> set[str] | None:
    """The cards ``seat`` may know of now (``None``: all of them, the hand being over): its own
    hand; every card shown to the table — declared (D1), a void deal's kitty and the card the
    kitty flip turns up (D6), the called card (F1), a failed throw and what beats it (L4),
    every card played —; and the kitty, to the declarer who takes it and buries it (K1)."""
    if game.phase is Phase.FINISHED:
        return None
    cards = notation(game.hand(seat))
    for event in game.events:
        for result in event.results:
            match result:
                case Declared() | Played():
                    cards |= notation(result.cards)
                case Redealt():
                    cards |= notation(result.kitty)
                case DeclarerChosen() if result.flipped is not None:
                    cards.add(str(result.flipped))
                case KittyTaken() | Buried() if result.seat == seat:
                    cards |= notation(result.cards)
                case FriendCalled() | FriendRevealed():
                    cards.add(str(result.card))
                case ThrowFailed():
                    cards |= notation(result.attempted)
                    for beaten in result.beaten:
                        cards |= notation(beaten.by)
    return cards


FRIEND_BADGES = {Translator(lang)(Text(badge)) for lang in LANGUAGES
                 for badge in ("Friend", "Friend (only you know)")}


# ---------------------------------------------------------------- the server, its every message audited

class Audit:
    """What the server sent each page (parsed, in order), and every problem found in it."""

    def __init__(self) -> None:
        self.sent: dict[int, list[dict[str, Any]]] = defaultdict(list)
        self.views: dict[int, dict[str, Any]] = defaultdict(dict)
        """What each page holds of its seat's traits (every patch it was sent applied)."""
        self.problems: list[str] = []
        self.checked = 0
        self.proved: set[tuple[str, int]] = set()  # (table, hand) where a planted leak was caught
        self.typed: dict[tuple[str, int], set[str]] = defaultdict(set)
        """The cards each seat's pages named themselves (a refusal may quote them back)."""

    def problem(self, text: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(text)

    def saw(self, socket: TableSocket, text: str) -> None:
        message = json.loads(text)
        self.sent[id(socket)].append(message)
        cards = mentioned(message)
        page = socket.page
        if message.get("kind") == "seated":
            self.views[id(socket)] = {}
        if message.get("kind") != "traits":  # seated, refused, overview, class: never a card
            if cards:
                self.problem(f"a {message.get('kind')!r} message names {sorted(cards)}: {text[:300]}")
            return
        if page is None or page.table is None or page.player is None:
            self.problem(f"traits sent to a page with no seat: {text[:200]}")
            return
        view = self.views[id(socket)]
        if receive(view, message):  # what the page now holds of each trait the message changed, patches applied
            changed = set(view) - {VERSION} if message.get("full") else {*message["traits"], *message.get("patch", {})}
            message = {**message, "traits": {name: view[name] for name in changed}}
        self.check(page.table, page.player, message, text)

    def check(self, table: SharedTable, player: Player, message: dict[str, Any], text: str) -> None:
        """``message`` (``text``, as sent) is what ``player``'s pages are sent of their seat now."""
        cards = mentioned(message)
        game, seat = table.game, player.seat
        over = game.phase is Phase.FINISHED
        traits = message["traits"]
        self.checked += 1
        knows = known(game, seat)
        if knows is not None:
            knows |= self.typed[table.code, seat]
        if knows is not None and cards - knows:
            self.problem(f"seat {seat} of {table.code} (hand {table.hands}, seed {game.seed}, {game.phase.value}) "
                         f"was sent {sorted(cards - knows)}, which it cannot know, in {sorted(traits)}")
        if "hand" in traits and Counter(c["text"] for c in traits["hand"]) != Counter(map(str, game.hand(seat))):
            self.problem(f"seat {seat}'s hand trait {[c['text'] for c in traits['hand']]} is not its hand "
                         f"{list(map(str, game.hand(seat)))}")
        state = traits.get("state")
        if state is not None and state.get("phase") != Phase.FINISHED.value and "seed" in state:
            self.problem(f"seat {seat} was sent the seed before the hand is over ({state.get('phase')})")
        if not over and str(game.seed) in text:
            self.problem(f"seat {seat} was sent the seed {game.seed} (in some form) before the hand is over")
        if not over and traits.get("download"):
            self.problem(f"seat {seat} was sent a hand file before the hand is over")
        feedback = traits.get("feedback") or {}
        if feedback.get("kind") == "error" or "Something went wrong" in str(feedback.get("reason", "")):
            self.problem(f"seat {seat}'s table failed on a message: {feedback}")
        if state is not None and not over and game.friend is not None and not game.friend_revealed \
                and seat != game.friend:
            badged = [s["seat"] for s in state.get("seats", []) if set(s.get("roles", [])) & FRIEND_BADGES]
            if badged:
                self.problem(f"seat {seat} was told who the friend is (seats {badged}) before the reveal")
        self.plant(table, player, knows)

    def plant(self, table: SharedTable, player: Player, knows: set[str] | None) -> None:
        """Once a hand, mid-play: another seat's view, and the declarer's kitty, read as if they
        had been sent to ``player``: the audit must find every card there it cannot know."""
        game = table.game
        if knows is None or (table.code, table.hands) in self.proved or game.phase is not Phase.PLAYING \
                or len(game.tricks) < 2 or not all(len(game.hand(s)) >= 5 for s in range(PLAYERS)):
            return
        for other in table.players:
            if other is player:
                continue
            view = json.loads(json.dumps({n: other.view.traits[n] for n in SYNCED}, ensure_ascii=False))
            hidden = notation(game.hand(other.seat)) - knows
            if not hidden or not hidden <= mentioned(view) - knows:
                self.problem(f"the audit misses seat {other.seat}'s hidden cards {sorted(hidden)} "
                             f"({other.lang}) as seen by seat {player.seat}")
                return
            if other.seat == game.declarer:
                kitty = notation(game.kitty) - knows
                if kitty and not kitty <= mentioned(view["state"]["kitty_html"]):
                    self.problem(f"the audit misses the kitty {sorted(kitty)} ({other.lang})")
                    return
        if len(table.players) > 1:
            self.proved.add((table.code, table.hands))


class Audited(TableSocket):
    """The tables' websocket, every message it sends read by the :class:`Audit` first."""

    def initialize(self, tables: Tables, auth: Any = None, audit: Audit | None = None) -> None:
        super().initialize(tables, auth)
        assert audit is not None
        self.audit = audit

    def on_message(self, message: str | bytes) -> None:
        page = self.page
        if page is not None and page.table is not None and page.player is not None:
            text = message.decode("utf-8", "replace") if isinstance(message, bytes) else message
            self.audit.typed[page.table.code, page.player.seat] |= mentioned(text)
        super().on_message(message)

    def send(self, text: str) -> None:
        if self.ws_connection is not None and not self.ws_connection.is_closing():
            self.audit.saw(self, text)
        super().send(text)


class Site:
    """The tables served at :attr:`url`, their :attr:`audit`, and the robots made for them."""

    def __init__(self, tables: Tables, port: int) -> None:
        self.tables = tables
        self.url = f"ws://127.0.0.1:{port}/tables/ws"
        self.audit = Audit()
        self.robots: list[Robot] = []

    def robot(self, name: str, *, lang: str = "en", seed: int = 0, page_lang: str | None = None,
              on_state: Callable[[Robot, dict[str, Any], float], None] | None = None) -> Robot:
        """A robot for seat ``name``; ``page_lang``: its page's language, in the address as the
        lobby's script puts it (without, the server's default)."""
        url = self.url + (f"?lang={page_lang}" if page_lang else "")
        robot = Robot(url, name, lang=lang, seed=seed, on_state=on_state)
        self.robots.append(robot)
        return robot

    def table(self, code: str) -> SharedTable:
        return self.tables.tables[code]

    def sent_to(self, robot: Robot) -> bool:
        """Whether some page was sent exactly what ``robot`` received (every message audited)."""
        return any(log == robot.received for log in self.audit.sent.values())


@asynccontextmanager
async def serving(tables: Tables | None = None) -> AsyncIterator[Site]:
    tables = tables if tables is not None else Tables(pace=Pace(0, 0, 0))
    sockets = bind_sockets(0, "127.0.0.1")
    site = Site(tables, sockets[0].getsockname()[1])
    routes = [(path, Audited, {**options, "audit": site.audit}) if handler is TableSocket else (path, handler, options)
              for path, handler, options in handlers("/tables/", tables)]
    server = HTTPServer(web.Application(routes))
    server.add_sockets(sockets)
    try:
        yield site
    finally:
        for robot in site.robots:
            robot.close()
        for code in list(tables.tables):
            tables.close(code)
        server.stop()
        await server.close_all_connections()


def run(scenario: Coroutine[Any, Any, None]) -> None:
    """Run ``scenario`` on a thread of its own: the browser tests' Playwright (sync API) keeps an
    event loop running on the main thread for the whole session, where ``asyncio.run`` refuses."""
    failure: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(scenario)
        except BaseException as error:  # noqa: BLE001 - raised again on the test's thread
            failure.append(error)

    thread = threading.Thread(target=main, name="tables-scenario")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


async def until(condition: Callable[[], bool], what: str, limit: float = PATIENCE) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"gave up waiting for {what} (a safety limit of {limit:.0f} s)")
        await asyncio.sleep(0.01)


async def answer(robot: Robot, message: dict[str, Any] | str, what: Callable[[dict[str, Any]], bool],
                 describe: str) -> dict[str, Any]:
    """Send ``message`` (a dict, or raw text) and wait for the first reply that is ``what``."""
    start = len(robot.received)
    if isinstance(message, str):
        assert robot._ws is not None
        await robot._ws.write_message(message)
    else:
        await robot.send(message)
    found: list[dict[str, Any]] = []

    def arrived() -> bool:
        found[:] = [m for m in robot.received[start:] if what(m)]
        return bool(found)

    await until(arrived, describe)
    return found[0]


def refusal(message: dict[str, Any]) -> bool:
    return message.get("kind") == "refused"


def feedback_of(request: int) -> Callable[[dict[str, Any]], bool]:
    """The traits message that answers the page's request ``request`` (``handled``)."""
    return lambda m: m.get("kind") == "traits" and m["traits"].get("handled", {}).get("request") == request


def said_plainly(reason: object) -> bool:
    """A sentence for a learner: no Python in it."""
    return isinstance(reason, str) and bool(reason.strip()) and not re.search(
        r"Traceback|[A-Z][a-z]+Error\b|Exception|NoneType|object at 0x|<class|File \"|line \d+, in|"
        r"'(dict|list|str|int|float|bool)'|Something went wrong", reason)


def chinese(text: str) -> bool:
    """Said in Chinese: Chinese characters, and no English word (rule IDs and cards aside)."""
    return bool(re.search(r"[\u4e00-\u9fff]", text)) and not re.search(r"[A-Za-z]{3,}", text)


@pytest.fixture(autouse=True)
def no_errors_logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """No error logged (a traceback) by the server, tornado or a seat's widget during the test."""
    widgets_log = logging.getLogger("widgets")  # it does not pass its records on to the root logger
    widgets_log.addHandler(caplog.handler)
    try:
        yield
    finally:
        widgets_log.removeHandler(caplog.handler)
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors


@pytest.fixture()
def seeds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every fresh deal of the tables (a table's first hand, ``again``) from a fixed sequence of
    long seeds (so that a seed sent before the end would be seen in any message), listed."""
    rng, dealt = random.Random(20261204), []

    def fresh_seed() -> int:
        dealt.append(rng.randrange(10**8, 2**31 - 1))
        return dealt[-1]

    monkeypatch.setattr(shared, "fresh_seed", fresh_seed)
    yield dealt


# ---------------------------------------------------------------- tables played by robots

async def seat_robots(site: Site, robots: list[Robot]) -> str:
    """``robots[0]`` opens a table, the others join it: its code."""
    for robot in robots:
        await robot.connect()
    code = await robots[0].open()
    for robot in robots[1:]:
        await robot.join(code)
    return code


def finished(robots: list[Robot], hand: int) -> bool:
    return all(r.state.get("phase") == "finished" and r.state.get("shared", {}).get("hands") == hand for r in robots)


def stop_when_playing(robot: Robot, state: dict[str, Any], _at: float) -> None:
    """A robot that stops acting once the tricks begin (the test acts for it)."""
    if state.get("phase") == Phase.PLAYING.value:
        robot.acting = False


async def stalled(site: Site, names: list[str], langs: list[str] | None = None) -> tuple[str, list[Robot]]:
    """A table of robots ``names`` (the other seats the computer's), played to the tricks, then
    left waiting for the robot whose turn it is."""
    langs = langs or ["en"] * len(names)
    robots = [site.robot(n, lang=lang, seed=i, page_lang=lang, on_state=stop_when_playing)
              for i, (n, lang) in enumerate(zip(names, langs, strict=True))]
    code = await seat_robots(site, robots)
    table = site.table(code)
    await robots[0].send({"kind": "start"})
    humans = {p.seat for p in table.players}

    def waiting() -> bool:
        game = table.game
        return (game.phase is Phase.PLAYING and game.actor in humans and table.due(site.tables.clock()) is None
                and all(r.acting is False for r in robots))

    await until(waiting, "the table to wait for a robot's play")
    return code, robots


def robot_at(robots: list[Robot], seat: int) -> Robot:
    return next(r for r in robots if r.seated.get("seat") == seat)


def not_held(game: Game, seat: int) -> str:
    """A card ``seat`` does not hold (another seat's)."""
    mine = notation(game.hand(seat))
    return next(str(c) for s in range(PLAYERS) if s != seat for c in game.hand(s) if str(c) not in mine)


# ---------------------------------------------------------------- 1. no hidden card leaks

def test_the_audit_reads_every_card_in_every_form_and_language() -> None:
    trump = Trump("♥")
    for card in sorted(set(PACK), key=str):
        for lang in LANGUAGES:
            tr = Translator(lang)
            drawn = cards_html([card], trump=trump, tr=tr, style=False)
            forms = [str(card), tr.cards([card]), card_name(card, tr, trump=trump), card_name(card, tr), drawn,
                     re.sub(r' (data-card|title|aria-label)="[^"]*"', "", drawn),
                     hand_payload([card], trump, tr)[1][0]["face"],
                     trick_html([(1, (card,))], trump=trump, winner=0, tr=tr, style=False),
                     f"…{tr.cards([card])}。", json.dumps({"said": tr.cards([card])}, ensure_ascii=False)]
            for form in forms:
                assert mentioned({"text": form}) == {str(card)}, (lang, form)
    assert mentioned({"x": "Seat 2 (2号位) wins 10 points, ×2: ♥ trumps, 主牌：♠为主, trick 20"}) == set()
    assert mentioned("♠AAK55 and 红桃10") == {"♠A", "♠K", "♠5", "♥10"}
    assert mentioned({"token": "ZTLw6SJ-PVIv0Dnb8K_fCyF1", "code": "BJ2QX5", "link": "?code=K7SJQ2&seat=x_BJ"}) == set()
    assert mentioned("BJ, SJ。叫BJ为朋友") == {"BJ", "SJ"}


@pytest.mark.slow
@pytest.mark.parametrize("names", [NAMES, NAMES[:2]], ids=["five-robots", "two-robots-three-computers"])
def test_no_page_is_sent_a_card_its_seat_cannot_know(seeds: list[int], names: tuple[str, ...]) -> None:
    hands = HANDS

    async def scenario() -> None:
        async with serving() as site:
            robots = [site.robot(n, seed=i, lang=LANGUAGES[i % 3]) for i, n in enumerate(names)]
            code = await seat_robots(site, robots)
            table = site.table(code)
            await robots[0].send({"kind": "start"})
            for hand in range(1, hands + 1):
                await until(partial(finished, robots, hand), f"hand {hand} to end for every robot")
                assert table.game.results is not None and table.game.seed == seeds[hand - 1]
                if hand < hands:
                    await robots[0].send({"kind": "again"})
            await until(lambda: all(site.sent_to(r) for r in robots), "every robot to have read what it was sent")
            assert site.audit.problems == [], f"seeds {seeds}"
            assert {h for c, h in site.audit.proved if c == code} == set(range(1, hands + 1)), \
                "the audit did not prove, in every hand, that it would see a leak"
            assert site.audit.checked > 100 * hands
            assert all(r.refusals == [] for r in robots)

    run(scenario())


# ---------------------------------------------------------------- 2. no one acts for another seat

@pytest.mark.slow
def test_a_page_acts_for_its_own_seat_only(seeds: list[int]) -> None:
    async def scenario() -> None:
        async with serving() as site:
            code, robots = await stalled(site, ["Ana", "Ben"])
            table = site.table(code)
            game = table.game
            actor = game.actor
            assert actor is not None
            mover, other = robot_at(robots, actor), next(r for r in robots if r.seated["seat"] != actor)
            seat = other.seated["seat"]
            history = len(game.history)
            theirs = str(game.hand(actor)[0])
            tries: list[tuple[Robot, dict[str, Any], dict[str, Any]]] = [
                (other, {"type": "act", "verb": "play", "cards": [str(game.hand(seat)[0])], "seat": actor}, {}),
                (other, {"type": "act", "verb": "play", "cards": [theirs], "seat": actor}, {"seat": actor}),
                (other, {"type": "act", "verb": "play", "cards": [theirs]}, {"player": mover.seated["token"]}),
                (mover, {"type": "act", "verb": "play", "cards": [not_held(game, actor)]}, {}),
                (mover, {"type": "act", "verb": "play", "cards": []}, {}),
                (mover, {"type": "act", "verb": "bury", "cards": [theirs]}, {}),
                (mover, {"type": "act", "verb": "call", "cards": [theirs]}, {}),
            ]
            for request, (robot, content, extra) in enumerate(tries, 1):
                reply = await answer(robot, {"kind": "msg", "content": {**content, "request": request}, **extra},
                                     feedback_of(request), f"the answer to try {request}")
                feedback = reply["traits"].get("feedback") or robot_view(table, robot).feedback
                assert feedback.get("kind") == "refused" and feedback.get("rule"), (content, feedback)
                assert said_plainly(feedback["reason"]), feedback
                assert len(game.history) == history and game.actor == actor, content
            # the same page, its own card in its turn: carried out (the tries above could have been)
            play = choose(mover.state, mover.hand, random.Random(1), set())
            assert play is not None and play["verb"] == "play"
            await answer(mover, {"kind": "msg", "content": {**play, "request": 99}}, feedback_of(99), "the play")
            done = game.history[history]
            assert isinstance(done, Play) and done.seat == actor  # (the computer's seats may play on)
            assert sorted(map(str, done.cards)) == sorted(play["cards"])
            # only the one who opened the table starts it; the next hand once this one is over
            reply = await answer(robots[1], {"kind": "start"}, refusal, "a start by another")
            assert "Only the one who opened" in reply["reason"] and said_plainly(reply["reason"])
            reply = await answer(robots[0], {"kind": "again"}, refusal, "the next hand too soon")
            assert "once this one is over" in reply["reason"] and said_plainly(reply["reason"])
            assert table.game is game and table.hands == 1
            assert site.audit.problems == []

    run(scenario())


def robot_view(table: SharedTable, robot: Robot) -> Any:
    return next(p.view for p in table.players if p.seat == robot.seated["seat"])


# ---------------------------------------------------------------- 3. joining and coming back

@pytest.mark.slow
def test_a_full_or_started_table_and_a_forged_token_are_refused(seeds: list[int]) -> None:
    async def scenario() -> None:
        async with serving() as site:
            robots = [site.robot(n, seed=i) for i, n in enumerate(NAMES)]
            for robot in robots:
                robot.acting = False
            code = await seat_robots(site, robots)
            table = site.table(code)
            assert [p.seat for p in table.players] == [0, 1, 2, 3, 4]
            late = site.robot("Fay")
            await late.connect()
            reply = await answer(late, {"kind": "join", "code": code, "name": "Fay"}, refusal, "the sixth")
            assert "full" in reply["reason"] and said_plainly(reply["reason"])
            assert len(table.players) == 5 and not late.seated and len(site.tables.pages[code]) == 5

            other = site.robot("Oz")
            await other.connect()
            elsewhere = await other.open()
            foreign = other.seated["token"]
            cai = table.players[2]
            tokens: list[object] = [secrets.token_urlsafe(18), foreign, cai.token + "A" * 60, cai.token * 4,
                                    cai.token[:-1], cai.token.upper() if cai.token != cai.token.upper() else "x",
                                    "", "é" * 24, 12345, None, True, [cai.token], {"token": cai.token}, 1.5]
            for token in tokens:
                reply = await answer(late, {"kind": "rejoin", "code": code, "token": token}, refusal, f"{token!r}")
                assert "no seat" in reply["reason"] and said_plainly(reply["reason"]), (token, reply)
            reply = await answer(late, {"kind": "rejoin", "code": elsewhere, "token": cai.token}, refusal, "crossed")
            assert said_plainly(reply["reason"])
            assert not late.seated and len(table.players) == 5 and cai.pages == 1
            assert all(page.player is not None for page in site.tables.pages[code]) and len(site.tables.pages[code]) == 5

            await robots[0].send({"kind": "start"})
            await until(lambda: table.started, "the start")
            reply = await answer(late, {"kind": "join", "code": code, "name": "Gus"}, refusal, "a late joiner")
            assert "started" in reply["reason"] and said_plainly(reply["reason"]) and len(table.players) == 5

            # the right token: the same seat, and everything sent again
            robots[2].close()
            await until(lambda: cai.pages == 0, "Cai's page to close")
            back = site.robot("someone")
            back.acting = False
            await back.connect()
            await back.join(code, cai.token)
            assert back.seated["seat"] == 2 and back.seated["name"] == "Cai" and cai.pages == 1
            await until(lambda: any(m.get("kind") == "traits" for m in back.received), "the seat's state")
            first = next(m for m in back.received if m.get("kind") == "traits")["traits"]
            assert set(SYNCED) <= set(first), set(SYNCED) - set(first)
            assert first["state"]["seat"] == 2 and [c["text"] for c in first["hand"]] == \
                [c["text"] for c in cai.view.hand]
            assert site.audit.problems == []

    run(scenario())


# ---------------------------------------------------------------- 4. a flood

@pytest.mark.slow
def test_a_flood_is_refused_then_cut_off_and_changes_nothing(seeds: list[int]) -> None:
    async def scenario() -> None:
        async with serving() as site:
            code, robots = await stalled(site, ["Ana", "Ben"])
            table = site.table(code)
            game = table.game
            actor = game.actor
            assert actor is not None
            flooder = robot_at(robots, actor)
            calm = next(r for r in robots if r is not flooder)
            history, calm_received = len(game.history), len(calm.received)
            card = not_held(game, actor)
            await asyncio.sleep(RATE[1] / RATE[0])  # the page's allowance full again (its own plays used some)
            sent = 0
            try:  # as fast as it can, until the server cuts it off (a cap, should it never)
                for sent in range(1, 20_001):
                    await flooder.send({"kind": "msg", "content": {"type": "act", "verb": "play", "cards": [card],
                                                                   "request": sent}})
            except WebSocketClosedError:
                pass
            await until(lambda: flooder._ws is not None and flooder._ws.close_code is not None, "the cut-off")
            assert flooder._ws is not None and flooder._ws.close_code == 1008
            handled = {m["traits"]["handled"].get("request") for m in flooder.received
                       if m.get("kind") == "traits" and m["traits"].get("handled")}
            assert RATE[1] <= len(handled) < sent / 2, (len(handled), sent)  # the burst taken, most refused
            assert sent >= RATE[1] + FLOOD_CLOSE
            too_many = [r for r in flooder.refusals if "Too many" in r]
            assert too_many and too_many == flooder.refusals
            assert len(game.history) == history and game.actor == actor and table.game is game
            # the other seat heard nothing of it, and plays on with the one who comes back
            assert calm.refusals == [] and all(m.get("kind") == "traits" for m in calm.received[calm_received:])
            back = site.robot("Ben again", seed=7)
            await back.connect()
            await back.join(code, flooder.seated["token"])
            assert back.seated["seat"] == actor
            await until(lambda: len(game.history) > history, "the seat's play after the flood")
            assert site.audit.problems == []

    run(scenario())


# ---------------------------------------------------------------- 5. malformed messages

def page_refusal(words: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: refusal(m) and words in m["reason"]


READ = "could not be read"
TOP_LEVEL = [  # (what the page sends, the refusal's words)
    ("not json", READ), ("[1, 2]", READ), ("{}", READ), ('{"kind": 5}', READ), ('{"kind": null}', READ),
    ('{"kind": ["msg"]}', READ), ('"msg"', READ), ("null", READ), ("5", READ), ('{"kind": "MSG"}', READ),
    ('{"kind": "' + "x" * 2000 + '"}', READ), ('{"kind": "msg", "version": ' + "9" * 5000 + "}", READ),
    ('{"kind": "msg", "content": {"type": "act", "verb": "play", "cards": ["\\ud800"]}}', None),
    ('{"kind": "join", "code": 123456}', "code first"), ('{"kind": "join", "code": ["K7QX2M"]}', "code first"),
    ('{"kind": "join", "code": NaN}', "code first"), ('{"kind": "join"}', "code first"),
    ('{"kind": "join", "code": "' + "K" * 5000 + '"}', "no open table"),
    ('{"kind": "rejoin", "code": 5, "token": 5}', "no open table"),
    ('{"kind": "open_class", "names": "Ana Ben"}', "A class is"), ('{"kind": "open_class", "names": []}', "A class is"),
    ('{"kind": "open_class", "names": [5]}', "A class is"), ('{"kind": "open_class", "names": ["  "]}', "A class is"),
    ('{"kind": "open_class", "names": ' + json.dumps(["Ana"] * 201) + "}", "A class is"),
    ('{"kind": "again"}', "next hand"), ('{"kind": "start", "seat": 0}', None),
]
"""Refused by the server in words (``None``: by the seat's table instead, or ignored)."""
SEAT_LEVEL = [  # content of a ``msg``: refused by the seat's table with its rule ("": none), or ignored (None)
    ({"type": "act", "verb": "play", "cards": "{card}"}, "N3"), ({"type": "act", "verb": "play", "cards": [5]}, "N3"),
    ({"type": "act", "verb": "play", "cards": ["{card}"] * 41}, "N3"),
    ({"type": "act", "verb": "play", "cards": ["{card}\u0000"]}, "N3"),
    ({"type": "act", "verb": "play", "cards": [["{card}"]]}, "N3"), ({"type": "act", "verb": "play"}, "N3"),
    ({"type": "act", "verb": "PLAY", "cards": ["{card}"]}, None), ({"type": "act", "verb": 5, "cards": ["{card}"]}, None),
    ({"type": ["act"], "verb": "play", "cards": ["{card}"]}, None), ({"type": "declare", "option": "0"}, None),
    ({"type": "declare", "option": 10**30}, "D1"), ({"type": "x" * 5000}, None),
    ({"type": "step"}, None), ({"type": "hint"}, None), ({"type": "friend_odds"}, None), ({"type": "new"}, None),
    ({"type": "restart"}, None), ({"type": "replay", "trick": 1}, None), ({"type": "opponents", "level": 3}, None),
    ({"type": "import", "text": "seed 1\n"}, None), ({"type": "mistakes"}, None), ({"type": "export"}, ""),
]
CONTENTS_NOT_A_DICT: list[object] = [5, "act", None, ["act"], [{"type": "act", "verb": "play", "cards": ["{card}"]}],
                                     json.dumps({"type": "act", "verb": "play", "cards": ["{card}"]})]
SELECTIONS: list[object] = ["junk", [99], [-1], [0, 0], [True], [0.5], {"a": 1}, None, list(range(41)), [[0]]]


@pytest.mark.slow
def test_a_malformed_message_is_refused_in_words_and_changes_nothing(seeds: list[int]) -> None:
    async def scenario() -> None:
        async with serving() as site:
            code, robots = await stalled(site, ["Ana", "Ben"])
            table = site.table(code)
            game = table.game
            actor = game.actor
            assert actor is not None
            sender = robot_at(robots, actor)  # the one whose turn it is: a message misread could play
            player = next(p for p in table.players if p.seat == actor)
            card = choose(sender.state, sender.hand, random.Random(3), set())["cards"][0]  # type: ignore[index]
            before = (len(game.history), [(p.seat, p.name, p.token) for p in table.players], table.started,
                      sorted(site.tables.tables), player.view.selected)

            def unchanged() -> None:
                now = (len(game.history), [(p.seat, p.name, p.token) for p in table.players], table.started,
                       sorted(site.tables.tables), player.view.selected)
                assert now == before and table.game is game

            fences = iter(range(1, 10_000))

            async def settle(start: int) -> list[dict[str, Any]]:
                """What came back since message ``start``, once the server has read everything sent
                before: a fence is a join to a table that is none, answered in order."""
                fence = f"FENCE{next(fences)}"
                await asyncio.sleep(1.5 / RATE[0])  # within the page's allowance (RATE)
                await answer(sender, {"kind": "join", "code": fence}, page_refusal(f"code {fence}."), fence)
                got = sender.received[start:]
                return got[:next(i for i, m in enumerate(got) if refusal(m) and f"code {fence}." in m["reason"])]

            async def polite(message: str | bytes | dict[str, Any]) -> list[dict[str, Any]]:
                """Send ``message`` (within the page's allowance): what came back for it."""
                await asyncio.sleep(1.5 / RATE[0])
                start = len(sender.received)
                if isinstance(message, dict):
                    await sender.send(message)
                else:
                    await sender._ws.write_message(message, binary=isinstance(message, bytes))  # type: ignore[union-attr]
                return await settle(start)

            await settle(len(sender.received))
            for raw, words in TOP_LEVEL:
                replies = await polite(raw)
                refused = [m for m in replies if refusal(m)]
                if words is not None:
                    assert len(refused) == 1 and words in refused[0]["reason"], (raw[:80], replies)
                assert all(said_plainly(m["reason"]) for m in refused), (raw[:80], refused)
                unchanged()
            replies = await polite(b"\xff\xfe{")  # not UTF-8
            assert [m["reason"] for m in replies if refusal(m)] == ["That message could not be read."]

            for request, (content, rule) in enumerate(SEAT_LEVEL, 1):
                filled = json.loads(json.dumps(content).replace("{card}", card))
                replies = await polite({"kind": "msg", "content": {**filled, "request": request}})
                feedback = [m["traits"]["feedback"] for m in replies if m.get("kind") == "traits"
                            and m["traits"].get("feedback")]
                assert not [m for m in replies if refusal(m)], (content, replies)
                if rule is not None:
                    assert feedback and feedback[-1]["kind"] == "refused" and feedback[-1]["rule"] == rule, content
                    assert said_plainly(feedback[-1]["reason"]), feedback
                else:  # lesson 10's messages a seat may not send, and junk: ignored
                    assert not feedback and not any("hint_text" in m.get("traits", {}) for m in replies), content
                unchanged()
            for content in CONTENTS_NOT_A_DICT:
                filled = json.loads(json.dumps(content).replace("{card}", card))
                assert not [m for m in await polite({"kind": "msg", "content": filled}) if refusal(m)]
                unchanged()
            for value in SELECTIONS:
                replies = await polite({"kind": "select", "value": value})
                assert all(m["traits"]["selected"] == [] for m in replies if "selected" in m.get("traits", {})), value
                unchanged()
            assert site.audit.problems == []

            # the server works on, for the sender and for everyone
            await sender.send({"kind": "select", "value": [0]})
            await until(lambda: player.view.selected == [0], "a selection")
            for robot in robots:
                robot.on_state, robot.acting = None, True
            play = choose(sender.state, sender.hand, random.Random(4), set())
            assert play is not None
            await sender.send({"kind": "msg", "content": play})
            await until(lambda: finished(robots, 1), "the hand to end")

            # a message over the bound: the connection is closed, the seat kept for its token
            await sender._ws.write_message(  # type: ignore[union-attr]
                json.dumps({"kind": "msg", "content": {"type": "sync", "mistakes": "x" * MAX_MESSAGE}}))
            await until(lambda: sender._ws is not None and sender._ws.close_code is not None, "the cut-off")
            assert sender._ws is not None and sender._ws.close_code == 1009
            await until(lambda: player.pages == 0, "the page to close")
            assert [(p.seat, p.name, p.token) for p in table.players] == before[1]
            back = site.robot("back")
            await back.connect()
            await back.join(code, player.token)
            assert back.seated["seat"] == actor
            assert site.audit.problems == []

    run(scenario())


@pytest.mark.slow
def test_deeply_nested_json_is_refused_in_words_not_a_traceback(seeds: list[int]) -> None:
    """``json.loads`` raises ``RecursionError`` (no ``ValueError``) on a deeply nested message."""
    async def scenario() -> None:
        async with serving() as site:
            ana = site.robot("Ana")
            await ana.connect()
            await ana.open()
            await ana._ws.write_message("[" * 100_000)  # type: ignore[union-attr]
            reader = ana._reader
            assert reader is not None
            await until(lambda: any(refusal(m) for m in ana.received) or reader.done(), "a refusal or the cut-off")
            assert not reader.done(), "the server dropped the connection instead of refusing the message"
            assert [m["reason"] for m in ana.received if refusal(m)] == ["That message could not be read."]
            reply = await answer(ana, '{"kind": "nope"}', refusal, "a refusal after it")
            assert READ in reply["reason"] and ana._ws is not None and ana._ws.close_code is None

    run(scenario())


# ---------------------------------------------------------------- 6. real life: gone, back, away, closed

@pytest.mark.slow
def test_a_page_that_reconnects_mid_hand_gets_its_seat_back_and_the_hand_ends(seeds: list[int]) -> None:
    async def scenario() -> None:
        async with serving() as site:
            gone = asyncio.Event()

            def leave_mid_hand(robot: Robot, state: dict[str, Any], _at: float) -> None:
                if state.get("plays", 0) >= 12 and state.get("can", {}).get("play"):
                    robot.acting = False  # its turn: it will not play it
                    gone.set()

            robots = [site.robot(n, seed=i, lang=LANGUAGES[i % 3]) for i, n in enumerate(NAMES[:3])]
            robots[1].on_state = leave_mid_hand
            code = await seat_robots(site, robots)
            table = site.table(code)
            await robots[0].send({"kind": "start"})
            await gone.wait()
            ben = table.players[1]
            robots[1].close()
            await until(lambda: ben.pages == 0, "Ben's page to close")
            history = len(table.game.history)
            game_at_rejoin_hand = table.game.hand(ben.seat)
            assert table.game.actor == ben.seat and 1 not in table.computer_seats(site.tables.clock())
            await asyncio.sleep(0.2)  # nothing moves while the seat's learner may come back
            assert len(table.game.history) == history

            assert ben.lang == "zh-Hans"
            back = site.robot("Ben", seed=9, lang="zh-Hant")  # and this time the page is in 繁體
            await back.connect()
            await back.join(code, ben.token)
            assert back.seated["seat"] == 1 and back.seated["token"] == ben.token and ben.pages == 1
            await until(lambda: finished([robots[0], robots[2], back], 1), "the hand to end")
            first = next(m for m in back.received if m.get("kind") == "traits")["traits"]
            assert set(SYNCED) <= set(first) and first["state"]["plays"] >= 12
            assert Counter(c["text"] for c in first["hand"]) == Counter(map(str, game_at_rejoin_hand))
            log = first["state"]["log"]
            named = [re.sub("|".join(n for n in table.names() if n), "", line) for line in log]  # classmates' names
            assert len(log) == 8 and all(chinese(line) for line in named), log  # what happened, told again in 繁體
            assert first["lang"] == "zh-Hant" and ben.lang == "zh-Hant"
            plays = [a for a in table.game.history[history:] if isinstance(a, Play) and a.seat == 1]
            assert plays, "the seat's learner played on"
            assert site.audit.problems == []

    run(scenario())


def drive(table: SharedTable, now: float, done: Callable[[], bool], rng: random.Random) -> None:
    """The table's steps, and its present learners' plays (as :func:`choose` would), until ``done()``."""
    calls: dict[int, set[str]] = defaultdict(set)
    for _ in range(5_000):
        if done():
            return
        if table.step(now):
            continue
        for p in table.players:
            if p.pages == 0:
                continue
            message = choose(p.view.state, p.view.hand, rng, calls[p.seat])
            if message is not None:
                table.message(p, message, now)
                break
        else:
            raise AssertionError(f"the table is stuck: {table.overview(now)}")
    raise AssertionError("the table went on and on")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [123456789, 987654321, 1357913579])  # long: never a number by chance
def test_a_hand_nobody_declares_shows_no_more_than_the_kitty_flip(seed: int) -> None:
    """Five learners who never declare: the kitty is turned over (D6), the declarer buries,
    calls, and the hand is played; every seat's every update audited as it would be sent."""
    table = SharedTable("FLIPPD", level=1, seed=seed, pace=Pace(0, 0, 0))
    players = [table.join(name, LANGUAGES[i % 3]) for i, name in enumerate(NAMES)]
    for player in players:
        table.opened(player, 0.0)
    table.start(players[0], 0.0)
    for player in players:
        table.message(player, {"type": "stop_to_declare", "value": False}, 0.0)
    audit = Audit()

    def sent() -> bool:
        for player in players:
            message = {"kind": "traits", "traits": table.drain(player)}
            audit.check(table, player, json.loads(text := json.dumps(message, ensure_ascii=False)), text)
        return table.game.phase is Phase.FINISHED

    drive(table, 0.0, sent, random.Random(seed))
    chosen = [r for e in table.game.events for r in e.results if isinstance(r, DeclarerChosen)]
    assert chosen and chosen[-1].flipped is not None and not table.game.declarations
    assert audit.problems == [] and audit.proved == {("FLIPPD", 1)} and audit.checked > 500


def test_a_seat_gone_a_minute_is_the_computers_until_its_learner_comes_back() -> None:
    table = SharedTable("ABSENT", level=1, seed=424242, pace=Pace(0, 0, 0))
    ana, ben = table.join("Ana", "en"), table.join("Ben", "zh-Hans")
    table.opened(ana, 0.0)
    table.opened(ben, 0.0)
    table.start(ana, 0.0)
    game, rng = table.game, random.Random(6)
    drive(table, 0.0, lambda: game.phase is Phase.PLAYING and game.actor == ben.seat, rng)
    history = len(game.history)

    table.closed(ben, 100.0)
    assert table.due(100.0) == ABSENT_AFTER
    assert table.due(159.5) == pytest.approx(0.5)
    assert not table.step(100.0) and not table.step(159.9)
    assert len(game.history) == history and ben.seat not in table.computer_seats(159.9)
    assert table.overview(159.9)["waiting"] == f"seat {ben.seat}"
    assert table.due(160.0) == 0.0 and table.step(160.0)
    taken = game.history[history]
    assert isinstance(taken, Play) and taken.seat == ben.seat
    assert ben.seat in table.computer_seats(160.0) and table.overview(160.0)["players"][ben.seat]["computer"]
    assert table.info(160.0)["computer"] == [ben.seat, *[s for s in range(2, PLAYERS)]]
    plays = sum(1 for a in game.history if isinstance(a, Play) and a.seat == ben.seat)
    drive(table, 160.0, lambda: game.actor == ben.seat and
          sum(1 for a in game.history if isinstance(a, Play) and a.seat == ben.seat) > plays, rng)

    table.drain(ben)
    table.opened(ben, 170.0)  # back: the seat is theirs again, and everything is sent again
    assert ben.seat not in table.computer_seats(170.0) and table.due(170.0) is None
    history = len(game.history)
    assert not table.step(170.0) and not table.step(10_000.0) and len(game.history) == history
    sent = table.drain(ben)
    assert set(sent) == set(SYNCED) and Counter(c["text"] for c in sent["hand"]) == Counter(map(str, game.hand(1)))
    drive(table, 170.0, lambda: game.phase is Phase.FINISHED, rng)
    assert game.results is not None


def test_a_seat_whose_learner_never_came_is_the_computers_a_minute_after_the_start() -> None:
    table = SharedTable("NEVERC", level=1, seed=77, pace=Pace(0, 0, 0))
    ana, ben = table.join("Ana", "en"), table.join("Ben", "en")  # Ben's personal link never opened
    table.opened(ana, 0.0)
    assert ben.seat not in table.computer_seats(0.0)
    table.start(ana, 10.0)
    assert ben.seat not in table.computer_seats(69.9) and ben.seat in table.computer_seats(70.0)
    assert table.info(70.0)["away"] == [ben.seat]


def test_the_opener_starts_the_hand_or_anyone_while_the_opener_is_away() -> None:
    table = SharedTable("LEADER", level=1, seed=5, pace=Pace(0, 0, 0))
    ana, ben = table.join("Ana", "en"), table.join("Ben", "en")
    table.opened(ana, 0.0)
    table.opened(ben, 0.0)
    with pytest.raises(shared.TableError, match="only the one who opened"):
        table.start(ben, 1.0)
    assert not table.started and table.drain(ben)["state"]["shared"]["you_open"] is False
    table.closed(ana, 2.0)  # a teacher's table whose first learner is away
    assert table.drain(ben)["state"]["shared"]["you_open"] is True
    table.start(ben, 3.0)
    assert table.started


def test_a_table_nobody_has_open_is_closed_after_close_after() -> None:
    async def scenario() -> None:
        clock = [1000.0]
        tables = Tables(pace=Pace(0, 0, 0), clock=lambda: clock[0], close_after=300.0)
        try:
            idle, busy, empty = tables.open(1), tables.open(1), tables.open(1)
            ana, ben = idle.join("Ana", "en"), busy.join("Ben", "en")
            idle.opened(ana, 1000.0)
            busy.opened(ben, 1000.0)
            clock[0] = 1100.0
            idle.closed(ana, 1100.0)
            clock[0] = 1299.0
            tables.sweep()
            assert {idle.code, busy.code, empty.code} <= set(tables.tables)
            clock[0] = 1300.0  # the table nobody ever joined: 300 s after it was opened
            tables.sweep()
            assert empty.code not in tables.tables and tables.get(empty.code) is None
            clock[0] = 1399.9
            tables.sweep()
            assert idle.code in tables.tables
            clock[0] = 1400.0
            tables.sweep()
            assert idle.code not in tables.tables and tables.get(idle.code) is None and idle.code not in tables.pages
            clock[0] = 10.0**9
            tables.sweep()
            assert busy.code in tables.tables, "a table with a page open is never closed"
        finally:
            for code in list(tables.tables):
                tables.close(code)

    run(scenario())


# ---------------------------------------------------------------- 7. the teacher

@pytest.mark.slow
def test_a_class_of_twelve_gets_three_tables_and_links_to_its_seats(seeds: list[int]) -> None:
    names = [f"Pupil {n}" for n in range(1, 13)]

    async def scenario() -> None:
        async with serving() as site:
            teacher = site.robot("Teacher")
            teacher.acting = False
            await teacher.connect()
            made = await answer(teacher, {"kind": "open_class", "names": names, "level": 1, "lang": "en",
                                          "base": "https://course.example/tables/"},
                                lambda m: m.get("kind") == "class", "the class's tables")
            tables = made["tables"]
            assert [len(t["players"]) for t in tables] == [5, 5, 2]
            assert [p["name"] for t in tables for p in t["players"]] == names
            assert [[p["seat"] for p in t["players"]] for t in tables] == [[0, 1, 2, 3, 4]] * 2 + [[0, 1]]
            links = {}
            for entry in tables:
                table = site.table(entry["code"])
                for person in entry["players"]:
                    url = urlsplit(person["link"])
                    query = parse_qs(url.query)
                    assert url.netloc == "course.example" and query["code"] == [entry["code"]]
                    assert table.claim(query["seat"][0]).seat == person["seat"]  # type: ignore[union-attr]
                    links[person["name"]] = (entry["code"], query["seat"][0])
            assert len({token for _, token in links.values()}) == 12

            await answer(teacher, {"kind": "watch"}, lambda m: m.get("kind") == "overview", "the overview")
            dan = site.robot("not Dan")
            dan.acting = False
            await dan.connect()
            await dan.join(*links["Pupil 4"])
            assert (dan.seated["seat"], dan.seated["name"], dan.seated["code"]) == (3, "Pupil 4", tables[0]["code"])
            pair = [site.robot(f"robot {n}", seed=n) for n in (11, 12)]
            for robot, name in zip(pair, ("Pupil 11", "Pupil 12"), strict=True):
                await robot.connect()
                await robot.join(*links[name])
                assert robot.seated["name"] == name
            await pair[0].send({"kind": "start"})
            await until(lambda: finished(pair, 1), "the small table's hand")

            def last_overview() -> list[dict[str, Any]]:
                listed: list[dict[str, Any]] = [m for m in teacher.received if m.get("kind") == "overview"][-1]["tables"]
                return listed

            await until(lambda: any(t["waiting"] == "done" for t in last_overview()), "the overview of the end")
            overviews = [m for m in teacher.received if m.get("kind") == "overview"]
            assert len(overviews) > 20 and not any(mentioned(m) for m in overviews)
            seen = {t["code"]: t for t in last_overview()}
            small = seen[tables[2]["code"]]
            assert [p["computer"] for p in small["players"]] == [False, False, True, True, True]
            assert [p["name"] for p in small["players"]][:2] == ["Pupil 11", "Pupil 12"]
            big = seen[tables[0]["code"]]
            assert big["waiting"] == "start" and [p["here"] for p in big["players"]] == [False, False, False, True, False]
            assert site.audit.problems == []

    run(scenario())


# ---------------------------------------------------------------- 8. each player's language

@pytest.mark.slow
def test_each_seat_is_refused_in_its_own_language(seeds: list[int]) -> None:
    async def scenario() -> None:
        async with serving() as site:
            code, robots = await stalled(site, ["Ana", "Bo", "Chen"], ["en", "zh-Hans", "zh-Hant"])
            game = site.table(code).game
            actor = game.actor
            history = len(game.history)
            for request, robot in enumerate(robots, 1):
                seat = robot.seated["seat"]
                cards = [not_held(game, seat)] if seat == actor else [str(game.hand(seat)[0])]
                reply = await answer(robot, {"kind": "msg", "content": {"type": "act", "verb": "play", "cards": cards,
                                                                        "request": request}},
                                     feedback_of(request), f"{robot.lang}'s refusal")
                reason = reply["traits"]["feedback"]["reason"]
                assert reply["traits"]["feedback"]["rule"] and said_plainly(reason)
                assert chinese(reason) if robot.lang != "en" else not re.search(r"[\u4e00-\u9fff]", reason), reason
            assert len(game.history) == history
            # the server's own refusals, to a page in Chinese
            reply = await answer(robots[1], {"kind": "again"}, refusal, "a refusal from the server")
            assert chinese(reply["reason"]), reply["reason"]
            reply = await answer(robots[2], '{"kind": 5}', refusal, "a refusal from the server")
            assert chinese(reply["reason"]), reply["reason"]

    run(scenario())


def failing_throw(game: Game, seat: int) -> list[str] | None:
    """At ``seat``'s lead: a throw the rules reject (asked of a copy of the game), or None."""
    assert game.trump is not None
    lanes: dict[int, list[Any]] = defaultdict(list)
    for card in game.hand(seat):
        lanes[game.trump.lane(card)].append(card)
    for cards in lanes.values():
        distinct = list(dict.fromkeys(cards))
        if len(distinct) < 2:
            continue
        throw = (distinct[0], distinct[-1])
        copy = Game.replay(game.seed, game.history, game.rules, game.deck)
        try:
            event = copy.apply(Play(seat, throw))
        except IllegalActionError:
            continue
        if any(isinstance(r, ThrowFailed) for r in event.results):
            return [str(c) for c in throw]
    return None


THROWER_TOLD = {"en": "you must lead", "zh-Hans": "你必须改出", "zh-Hant": "你必須改出"}
"""What only the thrower is told of a failed throw, in each language (L4)."""


@pytest.mark.slow
def test_a_failed_throw_is_told_to_each_seat_once_in_its_own_person(seeds: list[int]) -> None:
    """#43 item 10: the thrower reads "you must lead … instead", the others "<name>'s throw of …
    fails … <name> must lead …"; each says it once. Every message each page is sent is read."""
    names, langs = ["Ana", "Bo", "Chen", "Dee", "Eve"], ["en", "zh-Hans", "zh-Hant", "zh-Hans", "en"]

    async def scenario() -> None:
        async with serving() as site:
            code, robots = await stalled(site, names, langs)
            table = site.table(code)
            game = table.game
            rng = random.Random(7)
            throw: list[str] | None = None
            for request in range(1, 120):  # every seat a robot: play until one leads a throw that fails
                actor = game.actor
                assert actor is not None and game.phase is Phase.PLAYING, "no failing throw in this hand"
                robot = robot_at(robots, actor)
                throw = failing_throw(game, actor) if not game.trick else None
                play = {"type": "act", "verb": "play", "cards": throw} if throw else \
                    choose(robot.state, robot.hand, rng, set())
                assert play is not None
                await answer(robot, {"kind": "msg", "content": {**play, "request": request}},
                             feedback_of(request), f"play {request}")
                if throw:
                    break
            assert throw is not None
            failed = next(r for e in reversed(game.events) for r in e.results if isinstance(r, ThrowFailed))
            thrower = robot_at(robots, failed.seat)
            await until(lambda: all(site.sent_to(r) for r in robots), "every robot to have read what it was sent")
            for robot in robots:
                told = {text for m in robot.received for text in strings(m)
                        if "L5" in text and set(throw) <= mentioned(text)}
                assert told, (robot.name, robot.lang)
                for text in told:
                    assert text.count("L4") == 1 and text.count("L5") == 1, text  # said once
                    assert "the throw fails, and you must lead" not in text, text
                    if robot is thrower:
                        assert THROWER_TOLD[robot.lang] in text, text
                    else:
                        assert THROWER_TOLD[robot.lang] not in text and thrower.name in text, (robot.name, text)
                        assert text.count(thrower.name) == 2, text  # whose throw, and who must lead
                    if robot.lang != "en":
                        assert chinese(re.sub(r"\b(Ana|Bo|Chen|Dee|Eve)\b", "", text)), text
            assert site.audit.problems == []

    run(scenario())


# ---------------------------------------------------------------- 9. only what changed goes over the wire

JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["", "a", "♠A"]),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("abcd"), inner,
                                                                                  max_size=4), max_leaves=12)


@st.composite
def edited_lists(draw: st.DrawFn) -> tuple[list[Any], list[Any]]:
    """A list and the same list edited as a seat's view is: items taken out or put in
    anywhere, items added at the end, the first few gone (a log that scrolls), an item changed."""
    old = draw(st.lists(JSON, max_size=8))
    new = list(old)
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["out", "in", "scroll", "change"]))
        at = draw(st.integers(0, len(new)))
        if how == "out" and new:
            del new[min(at, len(new) - 1)]
        elif how == "in":
            new.insert(at, draw(JSON))
        elif how == "scroll" and new:
            by = draw(st.integers(1, len(new)))
            new = [*new[by:], *draw(st.lists(JSON, min_size=by, max_size=by))]
        elif how == "change" and new:
            new[min(at, len(new) - 1)] = draw(JSON)
    return old, new


PAIRS = st.tuples(JSON, JSON) | edited_lists()


@settings(max_examples=300, deadline=None)
@given(PAIRS)
def test_a_patch_turns_the_old_value_into_the_new_exactly(pair: tuple[Any, Any]) -> None:
    old, new = pair
    patch = diff(old, new)
    back = old if patch is None else apply(old, patch)
    assert json.dumps(back, sort_keys=True) == json.dumps(new, sort_keys=True)
    assert json.loads(json.dumps(patch)) == patch  # a patch is JSON


def test_a_card_played_or_dealt_and_a_scrolled_log_are_sent_as_what_changed() -> None:
    hand = [f"♠{r}" for r in "AKQJ"] + [f"♥{r}" for r in "AKQJ"]
    assert diff(hand, hand[:3] + hand[4:]) == {"k": 3, "a": [], "t": 4}  # ♠J played: nothing resent
    assert diff(hand, hand[:5] + ["♥A"] + hand[5:]) == {"k": 5, "a": ["♥A"], "t": 3}  # a second ♥A dealt
    log = [f"line {n}" for n in range(10)]
    assert diff(log, log[2:] + ["line 10", "line 11"]) == {"o": 2, "a": ["line 10", "line 11"]}


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_page_applies_every_patch_as_the_server_does(tmp_path: Path) -> None:
    """``static/client.js``'s applyPatch, run by Node on many patches, gives what
    :func:`~tutor.server.tables.patch.apply` gives."""
    script = (Path(shared.__file__).parent / "static" / "client.js").read_text("utf-8")
    found = re.search(r"^function applyPatch\(.*?^}$", script, re.S | re.M)
    assert found, "client.js has no applyPatch"
    cases: list[list[Any]] = []

    @settings(max_examples=400, deadline=None, database=None)
    @given(PAIRS)
    def collect(pair: tuple[Any, Any]) -> None:
        old, new = pair
        if (patch := diff(old, new)) is not None:
            cases.append([old, patch, apply(old, patch)])

    collect()
    (tmp_path / "cases.json").write_text(json.dumps(cases), "utf-8")
    (tmp_path / "apply.js").write_text(found.group(0) + """
const cases = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
console.log(JSON.stringify(cases.map(([old, patch]) => applyPatch(old, patch))));
""", "utf-8")
    node = subprocess.run(["node", str(tmp_path / "apply.js"), str(tmp_path / "cases.json")],
                          capture_output=True, text=True, timeout=120)
    assert node.returncode == 0, node.stderr
    applied = json.loads(node.stdout)
    assert len(cases) > 200 and len(applied) == len(cases)
    for (old, patch, want), got in zip(cases, applied, strict=True):
        assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True), (old, patch)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(10**8, 2**31 - 1), learners=st.integers(1, PLAYERS), level=st.sampled_from(sorted(LEVELS)))
def test_every_patch_a_seat_is_sent_over_a_hand_rebuilds_its_whole_view(seed: int, learners: int, level: int) -> None:
    """A table whose learners are all away (the computer plays their seats): after each step of
    a whole hand, every seat's page, having applied each message sent to it, holds exactly what
    the seat sees, and no message names a card its seat cannot know."""
    table = SharedTable("K7QX2M", level=level, seed=seed, pace=Pace(0, 0, 0))
    players = [table.join(NAMES[i], LANGUAGES[i % 3]) for i in range(learners)]
    pages: dict[int, dict[str, Any]] = {p.seat: {} for p in players}
    for p in players:  # a page starts from the whole view (as after "seated")
        table.update(p)
        assert receive(pages[p.seat], table.whole(p))
    table.start(players[0], now=0.0)
    now, patched = ABSENT_AFTER + 1, 0

    def send_each_seat() -> None:
        nonlocal patched
        for p in players:
            message = table.update(p)
            if message is None:
                continue
            assert message["kind"] == "traits" and set(message["traits"]).isdisjoint(message.get("patch", {}))
            assert receive(pages[p.seat], message), "a patch on a version the page does not hold"
            patched += "patch" in message
            knows = known(table.game, p.seat)
            assert knows is None or mentioned(message) <= knows, (p.seat, mentioned(message) - knows)
            held = {k: v for k, v in pages[p.seat].items() if k != VERSION}
            assert json.dumps(held, sort_keys=True) == json.dumps(
                {n: p.view.traits[n] for n in SYNCED}, sort_keys=True)

    send_each_seat()
    while table.step(now):
        send_each_seat()
    assert table.game.phase is Phase.FINISHED and patched > 100


def test_what_a_seat_is_sent_crosses_the_line_compressed(seeds: list[int]) -> None:
    """A page offers permessage-deflate (every browser does, and so does the robot): the server
    takes it, and a hand's messages cross the line at a fraction of their size."""
    async def scenario() -> None:
        async with serving() as site:
            robots = [site.robot(n, seed=i) for i, n in enumerate(NAMES[:2])]
            await seat_robots(site, robots)
            await robots[0].send({"kind": "start"})
            await until(lambda: finished(robots, 1), "the hand to end for every robot")
            for robot in robots:
                assert robot._ws is not None and robot._ws.headers is not None
                assert "permessage-deflate" in robot._ws.headers.get("Sec-WebSocket-Extensions", "")
                sent = sum(len(json.dumps(m, ensure_ascii=False).encode()) for m in robot.received)
                assert 0 < robot.wire < sent / 3, (robot.wire, sent)

    run(scenario())


def test_a_page_that_missed_a_patch_asks_for_the_whole_view_and_plays_on(seeds: list[int]) -> None:
    async def scenario() -> None:
        async with serving() as site:
            robots = [site.robot(n, seed=i) for i, n in enumerate(NAMES[:2])]
            code = await seat_robots(site, robots)
            table = site.table(code)
            ben = robots[1]
            ben.drop = 1  # the first patch of the deal is lost: the next one shows a version missed
            await robots[0].send({"kind": "start"})
            await until(lambda: finished(robots, 1), "the hand to end for every robot")
            assert ben.drop == 0 and len([m for _, m in ben.sent if m.get("kind") == "resync"]) == 1
            fulls = [m for m in ben.received if m.get("kind") == "traits" and m.get("full")]
            assert len(fulls) == 2  # after "seated", and the one asked for
            player = next(p for p in table.players if p.seat == ben.seated["seat"])
            await until(lambda: ben.view.get(VERSION) == player.version, "ben to have read all it was sent")
            assert {k: v for k, v in ben.view.items() if k != VERSION} == player.sent == \
                {n: player.view.traits[n] for n in SYNCED}
            assert site.audit.problems == [] and all(r.refusals == [] for r in robots)

    run(scenario())


def test_a_learner_who_gives_no_name_is_a_guest_by_a_letter_in_their_language() -> None:
    """#43 item 11: never "Player 1", which reads as a seat's number beside "Seat 1: computer"."""
    table = SharedTable("K7QX2M", pace=Pace(0, 0, 0))
    names = [table.join(name, lang).name for name, lang in
             [("", "en"), ("  ", "zh-Hans"), ("Ana", "en"), ("", "zh-Hant"), ("Guest A", "en")]]
    assert names == ["Guest A", "客人乙", "Ana", "客人丙", "Guest A"]
    assert not any(re.search(r"\d", n) for n in names)


def test_joining_with_no_code_says_to_type_it(seeds: list[int]) -> None:
    async def scenario() -> None:
        async with serving() as site:
            for lang, words in [("en", "Type the table's code first"), ("zh-Hans", "请先输入牌桌代码"),
                                ("zh-Hant", "請先輸入牌桌代碼")]:
                robot = site.robot("Ana", page_lang=lang)
                robot.acting = False
                await robot.connect()
                for code in ["", "   ", "<b>", ["K7QX2M"], None]:
                    reply = await answer(robot, {"kind": "join", "code": code, "name": "Ana", "lang": lang},
                                         refusal, f"a join with the code {code!r}")
                    assert words in reply["reason"] and "?" not in reply["reason"], reply
                    robot.received.clear()
                reply = await answer(robot, {"kind": "join", "code": "ZZZZZZ", "name": "Ana", "lang": lang},
                                     refusal, "a join with a code no table has")
                assert "ZZZZZZ" in reply["reason"]
            assert site.tables.tables == {}

    run(scenario())
