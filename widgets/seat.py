"""One learner's seat at a table of classmates (:mod:`tutor.server.tables`): lesson 10's
table as that seat sees a hand the server holds.

A :class:`TableSeat` is a :class:`~widgets.table.Table` whose :attr:`~widgets.table.Table.game`
is the shared hand: the learner's own actions go through it (refused with the rule and
their own cards, in their own language), and the narration, the score, the friend's
reveal, the trick-by-trick review, the coach's review of their own plays and the hand
file are the table's own. What differs, because four classmates play the same hand:

- the page sends only the messages of :data:`SEAT_MESSAGES` (its own seat's actions, the
  review, the hand file); the rest of lesson 10 (the next step, a hint, a new deal, a
  hand file opened, the level, learning from one's mistakes) is not the page's to ask for
  at a shared table, and is ignored;
- the seed, from which anyone could deal every hand again, is sent only once the hand
  is over, and so is the hand file;
- each seat is named by its player (:attr:`players`), and the state says which seats are
  played by the computer and which table this is (``state["shared"]``).

>>> from tutor.rules.game import Game
>>> game = Game(5)
>>> seat = TableSeat(game, seat=2, lang="en", players=("Ana", "", "Ben", "", ""), info={"code": "K7QX2M"})
>>> seat.state["seat"], "seed" in seat.state, seat.state["shared"]["code"]
(2, False, 'K7QX2M')
>>> [s["name"] for s in seat.state["seats"]][:3]
['Ana (Seat 0)', 'Seat 1 (computer)', 'You (seat 2)']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

from tutor.core.i18n import N_, Text
from tutor.play.coach import Decision
from tutor.rules.events import Event
from tutor.rules.game import Game
from tutor.rules.phase import Phase
from tutor.teach import narration
from widgets.table import Table

__all__ = ["SEAT_MESSAGES", "TableSeat"]

SEAT_MESSAGES: Final = frozenset({"act", "declare", "pass", "solo", "coach_review", "export", "sync",
                                  "stop_to_declare"})
"""What a page may ask of its seat at a shared table: its own actions, whether the deal
stops for its declarations, the coach's review and the hand file once the hand is over,
and the positions its browser keeps to review (the course's own store)."""

COMPUTER: Final = N_("{seat} (computer)")
START_OPENER: Final = N_("Start the hand when your classmates are here; seats nobody takes are played by the computer.")
START_WAIT: Final = N_("The hand starts when the one who opened the table says so.")
NAMED: Final = N_("{name} ({seat})")


class TableSeat(Table):
    """Seat ``seat`` of the shared hand ``game``, said in ``lang``, its computer players'
    level ``level`` (shown, not used: the server plays the empty seats). ``players``: each
    seat's player name (``""``: a computer player); ``info``: what the page shows of the
    table (its code, link, opener …), under ``state["shared"]``."""

    _page_sets: ClassVar[frozenset[str]] = frozenset({"selected"})
    weigh_after_hand = False
    """The server weighs a shared hand's reviews itself, away from its tables (:attr:`to_weigh`)."""

    def __init__(self, game: Game, *, seat: int, lang: str, players: Sequence[str],
                 info: Mapping[str, Any] | None = None, level: int = 1) -> None:
        self.players = tuple(players)
        self.info: dict[str, Any] = dict(info or {})
        self._shared = game
        self.weighed: tuple[Decision, ...] | None = None
        """The coach's review of this seat's plays, weighed beforehand (:func:`tutor.play.coach.review`)."""
        super().__init__(game.seed, seat=seat, lang=lang, pause_ms=0, deal_ms=0, level=level, rules=game.rules)

    def _start(self, game: Game, note: str = "", level: int | None = None) -> None:
        """Every hand this seat sees is the shared one (:meth:`Table.__init__` deals its own first)."""
        shared = getattr(self, "_shared", None)
        super()._start(shared if shared is not None else game, note, level)

    def follow(self, game: Game) -> None:
        """The server dealt a new hand: this seat sees it from its start."""
        self._shared, self.weighed = game, None
        self._start(game)

    def show_players(self, players: Sequence[str], info: Mapping[str, Any]) -> None:
        """Who sits where changed (a classmate joined, left, or a computer took a seat)."""
        self.players, self.info = tuple(players), dict(info)
        self._publish()

    def witness(self, before: int) -> None:
        """Someone else acted (a classmate, a computer player, the pack): narrate every event
        since the game's history had ``before`` actions, as told to this seat."""
        for event in self.game.events[before:]:
            self._after(event)
        self._check_offer()
        self._publish()

    @property
    def to_weigh(self) -> bool:
        """The hand is over and the coach has not reviewed this seat's plays yet."""
        return self.game.phase is Phase.FINISHED and self._coach is None and self.weighed is None

    def _weigh_plays(self) -> tuple[Decision, ...]:
        return self.weighed if self.weighed is not None else super()._weigh_plays()

    def _on_message(self, widget: object, content: object, buffers: object) -> None:
        if isinstance(content, dict) and content.get("type") in SEAT_MESSAGES:
            super()._on_message(widget, content, buffers)

    def export(self, *, actions: bool = True) -> str:
        """The hand file, once the hand is over (before, it would show every hand)."""
        if self.game.phase is not Phase.FINISHED:
            self._refuse("", self.tr("The hand file is yours once the hand is over."))
            return ""
        return super().export(actions=actions)

    def _player(self, seat: int) -> str:
        return self.players[seat] if seat < len(self.players) else ""

    def _classmates(self) -> dict[int, Text]:
        """The other seats a classmate plays, as every sentence names them ("Ana (Seat 2)")."""
        return {seat: Text(NAMED, name=name, seat=Text("Seat {seat}", seat=seat))
                for seat in range(len(self.players)) if seat != self.seat and (name := self._player(seat))}

    def _after(self, event: Event) -> None:
        with narration.players(self._classmates()):
            super()._after(event)

    def _named(self, seat: int, said: str) -> str:
        """Seat ``seat`` (``said``: as lesson 10 names it) as its classmate is named in every
        sentence (:meth:`_classmates`), or as the computer's."""
        if seat == self.seat:
            return said
        classmate = self._classmates().get(seat)
        return self.tr(classmate) if classmate is not None else self.tr(COMPUTER, seat=said)

    def _publish(self) -> None:
        with narration.players(self._classmates()):
            super()._publish()
        state = dict(self.state)
        finished = state.get("phase") == Phase.FINISHED.value
        if not finished:
            state.pop("seed", None)
        tr = self.tr
        seats = [{**entry, "name": self._named(entry["seat"], entry["name"]), "player": self._player(entry["seat"])}
                 for entry in state.get("seats", [])]
        if "score" in state:  # the results, each seat named as above
            score = state["score"]
            state["score"] = {**score, "results": [{**r, "name": self._named(r["seat"], r["name"])}
                                                   for r in score["results"]]}
        can = dict(state.get("can", {}))
        can.update(hint=False, friend_odds=False)
        if not self.info.get("started", True):
            state["prompt"] = tr(START_OPENER if self.info.get("you_open") else START_WAIT)
            state["phase_text"] = ""
        if not self.info.get("computer", True):  # five classmates: no computer player to speak of
            state["opponents"] = {**state.get("opponents", {}), "text": ""}
        trump = self.game.trump
        state.update(seats=seats, can=can, shared={**self.info, "players": list(self.players)},
                     trump=None if trump is None else "" if trump.suit is None else str(trump.suit))
        self.state = state
