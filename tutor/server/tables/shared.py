"""A table of classmates: one hand the server holds (a
:class:`~tutor.teach.table_session.TableSession`, as lesson 10's table holds one), each
learner's page seeing only its own seat (:class:`~tutor.server.tables.seat.SeatPage`).

The server is the one authority: :attr:`SharedTable.game` is the course's
:class:`~tutor.rules.game.Game`; a page sends its seat's actions and receives its seat's
view (:func:`tutor.teach.table_view.seat_view`, said in its learner's language). Seats without a learner, and
the seat of a learner whose page has been gone for :data:`ABSENT_AFTER` seconds, are
played by the computer at the level the opener chose, until the learner comes back.

Nothing here touches the network or the clock: the server (:mod:`tutor.server.tables.web`)
passes the time (``now``, in seconds) and sends what :meth:`SharedTable.drain` gives.

>>> table = SharedTable("K7QX2M", level=1, seed=7, pace=Pace(0, 0, 0))
>>> ana = table.join("Ana", "en")
>>> ben = table.join("Ben", "zh-Hans")
>>> (ana.seat, ben.seat, table.opener is ana)
(0, 1, True)
>>> table.start(ana, now=0.0)
>>> while table.due(0.0) == 0.0:  # the deal, and the computer players' moves
...     _ = table.step(0.0)
>>> table.game.actor in (ana.seat, ben.seat) or table.declaration_wait(0.0) is not None
True
>>> {"hand", "state"} <= set(table.drain(ana))
True
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from tutor.core.errors import TutorError
from tutor.core.i18n import LANGUAGES, N_, Text, Translator
from tutor.play.strategy import LEVELS
from tutor.rules.cards import PLAYERS
from tutor.rules.game import Game
from tutor.rules.phase import Phase
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.server.tables.entries import (Acted, Dealt, Entry, JournalError, Opened, Seated, Spoke, Started, Stopped,
                                         token_hash)
from tutor.server.tables.patch import diff
from tutor.server.tables.seat import TRAITS, SeatPage
from tutor.teach.table_session import TableSession, fresh_seed

__all__ = ["ABSENT_AFTER", "CODE_LETTERS", "DECLARE_WAIT", "MAX_NAME", "Pace", "Player", "SharedTable",
           "TableError", "new_code"]

ABSENT_AFTER: Final = 60.0
"""Seconds a learner's page may be gone before the computer plays their seat (until they come back)."""
DECLARE_WAIT: Final = 15.0
"""Seconds the deal waits for a learner who stopped it to declare (then it goes on without)."""
MAX_NAME: Final = 24
"""The longest player name kept (characters)."""
CODE_LETTERS: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""A table's code is made of these (no 0/O, 1/I: read aloud and typed by a class)."""
CODE_LENGTH: Final = 6

SYNCED: Final = TRAITS
"""The traits a seat's page draws (what :meth:`SharedTable.drain` sends)."""
PATCHED: Final = frozenset({"hand", "state"})
"""The traits sent as patches of the last sent (the large ones; the others are sent whole)."""


class TableError(TutorError):
    """A refused request about the table itself (full, closed, a code or token that is none)."""


@dataclass(frozen=True, slots=True)
class Pace:
    """The deliberate pauses of the table, in seconds: before each card dealt, each computer
    player's move, and after a trick is won (so everyone sees it)."""

    deal: float = 0.15
    move: float = 0.45
    trick: float = 0.9


@dataclass(eq=False)
class Player:
    """A learner at the table: their seat, name, language and secret token (kept by their
    browser to come back to the seat), and whether a page of theirs is open."""

    seat: int
    name: str
    lang: str
    token: str
    """The seat's token as its browser keeps it (``""`` in a table reopened from its journal,
    until the page comes back with it)."""
    view: SeatPage
    pages: int = 0
    gone_since: float | None = None
    """When their last page closed (``None`` while one is open, or before one ever was)."""
    sent: dict[str, Any] = field(default_factory=dict)
    """The traits their pages were last sent (what :meth:`SharedTable.update` patches)."""
    version: int = 0
    """The version of :attr:`sent` (one more each message)."""
    token_hash: str = ""
    """What the journal keeps of :attr:`token` (:func:`~tutor.server.tables.entries.token_hash`)."""

    @property
    def dirty(self) -> set[str]:
        """What their page has not been sent yet (:attr:`SeatPage.dirty`)."""
        return self.view.dirty

    def absent(self, now: float) -> bool:
        """Their seat is played by the computer now: no page open for :data:`ABSENT_AFTER` seconds."""
        return self.pages == 0 and self.gone_since is not None and now - self.gone_since >= ABSENT_AFTER


GUESTS: Final = (N_("Guest A"), N_("Guest B"), N_("Guest C"), N_("Guest D"), N_("Guest E"))
"""The names of learners who gave none, in the order they sit: letters (甲乙丙丁戊 in Chinese),
never a number a seat's could be taken for ("Player 1" beside "Seat 1: computer")."""


def new_code() -> str:
    """A fresh table code, e.g. ``"K7QX2M"``."""
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


def clean_name(raw: object) -> str:
    """A player's name as shown: printable, one line, at most :data:`MAX_NAME` characters.

    >>> clean_name("  Ana\\n<b>  "), clean_name(3)
    ('Ana <b>', '')
    """
    if not isinstance(raw, str):
        return ""
    return " ".join("".join(c if c.isprintable() else " " for c in raw[:200]).split())[:MAX_NAME]


class SharedTable:
    """The table with code ``code``: five seats, the hand, its computer players at ``level``.

    The first to :meth:`join` opened it (:attr:`opener`) and says when the hand starts
    (:meth:`start`); seats left empty are played by the computer."""

    def __init__(self, code: str, *, level: int = 1, seed: int | None = None, pace: Pace = Pace(),
                 rules: Ruleset = DEFAULT_RULES) -> None:
        if level not in LEVELS:
            raise TableError(Text("the computer players' level is one of {levels}, not {level}",
                                  levels=", ".join(map(str, LEVELS)), level=str(level)[:20]), parameter="level")
        self.code = code
        self.level = level
        self.pace = pace
        self.players: list[Player] = []
        self.started = False
        self.hands = 0
        self.session = TableSession(Game(fresh_seed() if seed is None else seed, rules), learners=(), level=level)
        """The hand and what each learner's seat has been told."""
        self._next_at: float | None = None  # when the next automatic step is due
        self._offer_since: dict[int, float] = {}  # seat -> when its learner's declaration stop began
        self.last_activity = 0.0
        self.opening = Opened(code, level, self.game.seed, rules)
        """The table as it was opened (the first row of its journal)."""
        self.keep: Callable[[Entry], None] | None = None
        """Where each change of the table is written (its journal) before anyone is told of it."""

    @classmethod
    def reopen(cls, opened: Opened, entries: Iterable[Entry], *, pace: Pace = Pace(), now: float = 0.0,
               note: Text | None = None) -> SharedTable:
        """The table ``opened`` was, its ``entries`` replayed through its session, every seat's
        learner away until their page comes back with its token; each seat is told ``note``.
        A journal the rules refuse (or that does not follow from the table) raises :class:`JournalError`."""
        table = cls(opened.code, level=opened.level, seed=opened.seed, pace=pace, rules=opened.rules)
        for number, entry in enumerate(entries):
            try:
                table._redo(entry)
            except TutorError as error:
                raise JournalError(f"table {opened.code}: entry {number} ({str(entry)[:80]}) is refused: "
                                   f"{error.args[0] if error.args else type(error).__name__}") from None
        table.last_activity = now
        for player in table.players:
            player.gone_since = now
            if note is not None:
                table.session.note(player.seat, note)
        if table.started:
            table._next_at = now
        table._show_players(now)
        return table

    def _redo(self, entry: Entry) -> None:
        session = self.session
        if isinstance(entry, Acted):
            session.witness(session.game.apply(entry.action))
        elif isinstance(entry, Seated):
            if entry.seat != len(self.players) or self.started:
                raise JournalError("a learner is seated out of turn")
            self._seat(entry.name, entry.lang, "", entry.token)
        elif isinstance(entry, Started):
            self.started, self.hands = True, 1
        elif isinstance(entry, Dealt):
            self.session.start(Game(entry.seed, self.game.rules))
            self.hands += 1
        elif isinstance(entry, Spoke | Stopped):
            player = self.seat_of(entry.seat)
            if player is None:
                raise JournalError(f"seat {entry.seat} has no learner")
            if isinstance(entry, Spoke):
                player.lang, player.view = entry.lang, SeatPage(session, player.seat, entry.lang)
            else:
                session.set_stop(player.seat, entry.value)
                player.view.traits["stop_to_declare"] = entry.value

    def _write(self, *entries: Entry) -> None:
        if self.keep is not None:
            for entry in entries:
                self.keep(entry)

    @property
    def game(self) -> Game:
        return self.session.game

    # ------------------------------------------------------------ seats
    @property
    def opener(self) -> Player | None:
        return self.players[0] if self.players else None

    def seat_of(self, seat: int) -> Player | None:
        return next((p for p in self.players if p.seat == seat), None)

    def names(self) -> tuple[str, ...]:
        """Each seat's player name, ``""`` for a computer player's seat."""
        return tuple((p.name if (p := self.seat_of(s)) is not None else "") for s in range(PLAYERS))

    def join(self, name: object, lang: object) -> Player:
        """A learner takes the first free seat; refused once the hand has started or all five are taken."""
        if self.started:
            raise TableError(Text("this table's hand has started: ask its players to open a new table"))
        if len(self.players) >= PLAYERS:
            raise TableError(Text("this table is full: five players sit at it already"))
        language = lang if isinstance(lang, str) and lang in LANGUAGES else "en"
        taken = {p.name for p in self.players}
        free = next(guest for guest in GUESTS if not {Translator(lang)(Text(guest)) for lang in LANGUAGES} & taken)
        said = clean_name(name) or Translator(language)(Text(free))
        token = secrets.token_urlsafe(18)
        player = self._seat(said, language, token, token_hash(token))
        self._write(Seated(player.seat, said, language, player.token_hash))
        return player

    def _seat(self, name: str, lang: str, token: str, hashed: str) -> Player:
        seat = next(s for s in range(PLAYERS) if self.seat_of(s) is None)
        self.session.sit(seat)
        player = Player(seat, name, lang, token, SeatPage(self.session, seat, lang), token_hash=hashed)
        self.players.append(player)
        self._show_players()
        return player

    def speak(self, player: Player, lang: object) -> None:
        """``player``'s page is in another language (a teacher's link opened in Chinese): their
        seat is told everything again in ``lang``, the hand so far included."""
        if not isinstance(lang, str) or lang not in LANGUAGES or lang == player.lang:
            return
        player.lang, player.view = lang, SeatPage(self.session, player.seat, lang)
        self._write(Spoke(player.seat, lang))
        self._show_players()

    def claim(self, token: object) -> Player | None:
        """The player whose seat ``token`` is (its hash compared in constant time), else ``None``."""
        if not isinstance(token, str) or not token.isascii() or len(token) > 64:
            return None
        hashed = token_hash(token)
        found = None
        for player in self.players:
            if hmac.compare_digest(player.token_hash, hashed):
                found = player
        if found is not None:
            found.token = token  # a table reopened from its journal knew only the hash
        return found

    def opened(self, player: Player, now: float) -> None:
        """A page of ``player`` opened (or came back): it is sent everything."""
        player.pages += 1
        player.gone_since = None
        player.dirty.update(SYNCED)
        self.last_activity = now
        self._show_players()

    def closed(self, player: Player, now: float) -> None:
        """A page of ``player`` closed; after :data:`ABSENT_AFTER` seconds the computer plays their seat."""
        player.pages = max(0, player.pages - 1)
        if player.pages == 0:
            player.gone_since = now
        self.last_activity = now
        self._show_players()

    def leads(self, player: Player) -> bool:
        """Whether ``player`` says when the hand starts and the next is dealt: the opener, or
        anyone while the opener has no page open (a teacher's table whose first learner is away)."""
        opener = self.opener
        return player is opener or (opener is not None and opener.pages == 0)

    def start(self, player: Player, now: float) -> None:
        """The opener starts the hand: the deal begins; empty seats are the computer's."""
        if not self.leads(player):
            raise TableError(Text("only the one who opened the table starts the hand"))
        if self.started:
            return
        self._write(Started())
        self.started = True
        self.hands = 1
        for p in self.players:  # a seat whose learner never came (a teacher's list) is the computer's in a minute
            if p.pages == 0 and p.gone_since is None:
                p.gone_since = now
        self._next_at = now
        self._show_players()

    def again(self, player: Player, now: float) -> None:
        """The opener deals the next hand once this one is over (a new deal, the same seats)."""
        if not self.leads(player):
            raise TableError(Text("only the one who opened the table deals the next hand"))
        if self.game.phase is not Phase.FINISHED:
            raise TableError(Text("the next hand is dealt once this one is over"))
        seed = fresh_seed()
        self._write(Dealt(seed))
        self.session.start(Game(seed, self.game.rules))
        self.hands += 1
        self._offer_since.clear()
        self._show_players()
        self._next_at = now

    def computer_seats(self, now: float) -> frozenset[int]:
        """The seats the computer plays now: no learner, or a learner gone :data:`ABSENT_AFTER` seconds."""
        return frozenset(s for s in range(PLAYERS) if (p := self.seat_of(s)) is None or p.absent(now))

    def info(self, now: float) -> dict[str, Any]:
        """What every page shows of the table (no hidden card in it)."""
        return {"code": self.code, "started": self.started, "level": self.level, "hands": self.hands,
                "computer": sorted(self.computer_seats(now)) if self.started else
                [s for s in range(PLAYERS) if self.seat_of(s) is None],
                "away": [p.seat for p in self.players if p.pages == 0],
                "opener": self.opener.seat if self.opener else None}

    def _show_players(self, now: float | None = None) -> None:
        info = self.info(self.last_activity if now is None else now)
        names = self.names()
        for p in self.players:
            p.view.show_players(names, {**info, "you_open": self.leads(p)})

    # ------------------------------------------------------------ the page's messages
    def message(self, player: Player, content: object, now: float) -> None:
        """A page's message to its own seat (lesson 10's table messages, :data:`tutor.server.tables.seat.SEAT_MESSAGES`):
        carried out by that seat's table, which refuses what the rules refuse; every other
        seat then sees what happened."""
        self.last_activity = now
        if not self.started and isinstance(content, dict) and content.get("type") != "sync":
            return
        before, game = len(self.game.history), self.game
        stop = self.session.desk(player.seat).stop_to_declare
        player.view.message(content)
        if self.session.desk(player.seat).stop_to_declare != stop:
            self._write(Stopped(player.seat, not stop))
        self._witness(before, player, game)

    def select(self, player: Player, value: object) -> None:
        """The page picked cards (positions in its hand). Taken, it is not sent back (the page
        has it, and a learner clicking faster than the round trip would see older picks come
        back); refused, the page is sent what the server holds."""
        if player.view.select(value):
            player.dirty.discard("selected")
        else:
            player.dirty.add("selected")

    # ------------------------------------------------------------ the server's own steps
    def declaration_wait(self, now: float) -> float | None:
        """Seconds the deal stays stopped for learners (with a page open) who can newly declare,
        each for at most :data:`DECLARE_WAIT` seconds (then their stop is passed), or ``None``
        when it is stopped for nobody."""
        left: float | None = None
        for p in self.players:
            if p.view.waiting == "declare" and p.pages > 0:
                since = self._offer_since.setdefault(p.seat, now)
                if now - since < DECLARE_WAIT:
                    left = max(left or 0.0, since + DECLARE_WAIT - now)
                    continue
            if p.view.waiting == "declare":
                self.session.pass_declaration(p.seat)
                p.view.draw()
            self._offer_since.pop(p.seat, None)
        return left

    def due(self, now: float) -> float | None:
        """Seconds until the server's next step (``0.0``: now; while the deal is stopped for a
        learner's declaration, the end of that stop), or ``None`` while the table waits for a
        learner (the hand not started or over, a learner's turn)."""
        game = self.game
        if not self.started or game.phase is Phase.FINISHED:
            return None
        actor = game.actor
        if actor is None:
            left = self.declaration_wait(now)
            if left is not None:
                return left
        elif actor not in self.computer_seats(now):
            p = self.seat_of(actor)
            if p is not None and p.pages == 0 and p.gone_since is not None:
                return max(0.0, p.gone_since + ABSENT_AFTER - now)
            return None
        if self._next_at is None:
            self._next_at = now + self._pause()
        return max(0.0, self._next_at - now)

    def step(self, now: float) -> bool:
        """One step that is no learner's (a card dealt, a computer player's move), if one is due."""
        wait = self.due(now)
        if wait is None or wait > 0:
            return False
        before, game = len(self.game.history), self.game
        if not self.session.step(for_seats=self.computer_seats(now)):
            return False
        self._next_at = None
        self._witness(before, None, game)
        return True

    def _pause(self) -> float:
        game = self.game
        if game.phase is Phase.DEALING and game.actor is None:
            return self.pace.deal
        if game.phase is Phase.PLAYING and not game.trick and game.tricks:
            return self.pace.trick
        return self.pace.move

    def _witness(self, before: int, actor: Player | None, game: Game) -> None:
        assert self.game is game, "at a shared table only the next deal (again) starts a new hand"
        if len(self.game.history) == before:
            return
        self._write(*(Acted(action) for action in self.game.history[before:]))
        self._next_at = None
        if self.game.phase is Phase.FINISHED or before == 0:
            self._show_players()
        else:
            for p in self.players:
                if p is not actor:
                    p.view.draw()

    # ------------------------------------------------------------ what the pages are sent
    def drain(self, player: Player) -> dict[str, Any]:
        """The traits of ``player``'s seat that changed since the last drain, with their values."""
        view = player.view
        names = sorted(view.dirty)
        view.dirty.clear()
        return {name: view.traits[name] for name in names}

    def update(self, player: Player) -> dict[str, Any] | None:
        """The ``traits`` message that brings ``player``'s pages from the last one up to now
        (``None``: nothing changed): :data:`PATCHED` traits as patches
        (:func:`~tutor.server.tables.patch.diff`), the others whole."""
        changed = self.drain(player)
        if not changed:
            return None
        whole: dict[str, Any] = {}
        patches: dict[str, Any] = {}
        for name, value in changed.items():
            if name in PATCHED and name in player.sent:
                if (part := diff(player.sent[name], value)) is not None:
                    patches[name] = part
            else:
                whole[name] = value
            player.sent[name] = value
        player.version += 1
        message = {"kind": "traits", "version": player.version, "traits": whole}
        if patches:
            message["patch"] = patches
        return message

    def whole(self, player: Player) -> dict[str, Any]:
        """The ``traits`` message of everything ``player``'s pages were sent (a page that came,
        or missed a message, starts again from it): call :meth:`update` first."""
        return {"kind": "traits", "version": player.version, "full": True, "traits": dict(player.sent)}

    def overview(self, now: float) -> dict[str, Any]:
        """The table as the teacher's page lists it: players, the trick, the score so far,
        who the table waits for — only what every player at it may see."""
        game = self.game
        actor = game.actor
        waiting = ""
        if not self.started:
            waiting = "start"
        elif game.phase is Phase.FINISHED:
            waiting = "done"
        elif actor is not None and actor not in self.computer_seats(now):
            waiting = f"seat {actor}"
        return {"code": self.code, "level": self.level, "started": self.started, "hands": self.hands,
                "phase": game.phase.value, "trick": len(game.tricks) + (1 if game.trick else 0),
                "players": [{"seat": s, "name": n, "here": (p := self.seat_of(s)) is not None and p.pages > 0,
                             "computer": s in self.computer_seats(now)} for s, n in enumerate(self.names())],
                "waiting": waiting, "waiting_seat": actor if waiting.startswith("seat") else None,
                "declarer": game.declarer, "points": list(game.view(0).points_shown),
                "results": list(game.results) if game.results else None}

    def idle_since(self) -> float | None:
        """When the last learner's page closed, if none is open now (``None`` while one is)."""
        if any(p.pages > 0 for p in self.players):
            return None
        return max((p.gone_since or 0.0 for p in self.players), default=0.0)

