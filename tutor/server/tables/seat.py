"""One learner's page at a table of classmates: what the server sends it and what it may
ask. The table's :class:`~tutor.teach.table_session.TableSession` is the hand; a
:class:`SeatPage` draws that seat's view (:func:`tutor.teach.table_view.seat_view`, in the
learner's language, each classmate named) as the traits lesson 10's front end draws, and
hands the page's messages to the session. What differs from lesson 10, because classmates
play the same hand:

- the page sends only the messages of :data:`SEAT_MESSAGES` (its own seat's actions, the
  review, the hand file, its stored positions); the rest of lesson 10 is not the page's to ask
  for at a shared table, and is ignored;
- the seed, from which anyone could deal every hand again, is sent only once the hand is
  over, and so is the hand file;
- each seat is named by its player, and the state says which seats the computer plays and
  which table this is (``state["shared"]``).

>>> from tutor.rules.game import Game
>>> from tutor.teach.table_session import TableSession
>>> session = TableSession(Game(5), learners={0, 2})
>>> page = SeatPage(session, 2, "en", players=("Ana", "", "Ben", "", ""), info={"code": "K7QX2M"})
>>> state = page.traits["state"]
>>> state["seat"], "seed" in state, state["shared"]["code"]
(2, False, 'K7QX2M')
>>> [s["name"] for s in state["seats"]][:3]
['Ana (Seat 0)', 'Seat 1 (computer)', 'You (seat 2)']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from tutor.core.errors import TutorError
from tutor.core.i18n import N_, Text, Translator
from tutor.rules.cards import Card
from tutor.rules.phase import Phase
from tutor.rules.order import Trump
from tutor.teach.mistakes import MISTAKES_KEY
from tutor.teach.table_session import Outcome, Said, TableSession, Verb
from tutor.teach.display import hand_payload
from tutor.teach.table_view import TABLE_LABELS, feedback_view, hint_view, seat_view
from widgets.requests import FAILED, GAME_ACTIONS, MAX_PICK, Requests, cards_ok, positions_ok, request_id

__all__ = ["SEAT_MESSAGES", "TRAITS", "SeatPage"]

SEAT_MESSAGES: Final = frozenset({"act", "declare", "pass", "solo", "coach_review", "export", "sync",
                                  "stop_to_declare"})
"""What a page may ask of its seat at a shared table: its own actions, whether the deal
stops for its declarations, the coach's review and the hand file once the hand is over,
and the positions its browser keeps to review (the course's own store)."""
TRAITS: Final = ("deal_ms", "download", "feedback", "four_colour", "game_actions", "hand", "handled", "hint_text",
                 "labels", "lang",
                 "load_error", "mistakes_json", "mistakes_key", "pause_ms", "review_weighed", "selected", "state",
                 "stop_to_declare", "synced")
"""What a seat's page draws (lesson 10's front end's traits), sent as they change."""
START_OPENER: Final = N_("Start the hand when your classmates are here; seats nobody takes are played by the computer.")
START_WAIT: Final = N_("The hand starts when the one who opened the table says so.")


class SeatPage:
    """Seat ``seat`` of ``session`` as its learner's page sees it, said in ``lang``.
    ``players``: each seat's player's name (``""``: the computer's); ``info``: what the page
    shows of the table (its code, who opened it …), under ``state["shared"]``. :attr:`traits`
    holds what the page draws; :attr:`dirty` names those changed since the page was last sent them."""

    def __init__(self, session: TableSession, seat: int, lang: str, *, players: Sequence[str] = (),
                 info: Mapping[str, Any] | None = None) -> None:
        self.session, self.seat = session, seat
        self.tr = Translator(lang)
        self.players: tuple[str, ...] = tuple(players)
        self.info: dict[str, Any] = dict(info or {})
        self.requests = Requests(GAME_ACTIONS & SEAT_MESSAGES)
        self.version = 0
        self.order: tuple[Card, ...] = ()
        self.traits: dict[str, Any] = {
            "deal_ms": 0, "download": {}, "feedback": {}, "four_colour": False, "game_actions": sorted(GAME_ACTIONS),
            "hand": [], "handled": {},
            "hint_text": "", "labels": {k: self.tr(v) for k, v in TABLE_LABELS.items()}, "lang": lang,
            "load_error": "", "mistakes_json": "", "mistakes_key": MISTAKES_KEY, "pause_ms": 0,
            "review_weighed": False, "selected": [], "state": {}, "stop_to_declare": True, "synced": False}
        self.dirty: set[str] = set(TRAITS)
        self._stored = session.desk(seat).to_store
        self._downloads = 0
        self.draw()

    @property
    def state(self) -> dict[str, Any]:
        """What the page draws of the table (the ``state`` trait)."""
        return dict(self.traits["state"])

    @property
    def hand(self) -> list[dict[str, Any]]:
        """The seat's hand as the page draws it."""
        return list(self.traits["hand"])

    @property
    def selected(self) -> list[int]:
        """The picked cards: positions in :attr:`hand`."""
        return list(self.traits["selected"])

    @property
    def waiting(self) -> str:
        return self.session.waiting(self.seat).value

    def _set(self, name: str, value: Any) -> None:
        if self.traits.get(name) != value:
            self.traits[name] = value
            self.dirty.add(name)

    def draw(self, outcome: Outcome | None = None) -> None:
        """Draw what the seat sees now (an outcome that changed nothing only says so)."""
        session, seat, tr = self.session, self.seat, self.tr
        if outcome is not None and not outcome.done:
            if outcome.feedback is not None:
                self._set("feedback", feedback_view(session, seat, tr.language, self.players))
            self._set("hint_text", hint_view(session, seat, tr.language, self.players))
            return
        trump = session.game.trump
        order, _ = hand_payload(session.game.hand(seat), Trump(None) if trump is None else trump, tr)
        state = seat_view(session, seat, tr.language, self.players)
        hand, feedback = state.pop("hand"), state.pop("feedback")
        hint, weighed = state.pop("hint_text"), state.pop("review_weighed")
        if state["phase"] != Phase.FINISHED.value:
            state.pop("seed", None)
        state["can"].update(hint=False, friend_odds=False)
        if not self.info.get("started", True):
            state["prompt"] = tr(START_OPENER if self.info.get("you_open") else START_WAIT)
            state["phase_text"] = ""
        if not self.info.get("computer", True):  # five classmates: no computer player to speak of
            state["opponents"] = {**state["opponents"], "text": ""}
        state.update(shared={**self.info, "players": list(self.players)},
                     trump=None if trump is None else "" if trump.suit is None else str(trump.suit))
        self.version += 1
        state["version"] = self.version
        if tuple(order) != self.order:
            self.order = tuple(order)
            self._set("selected", [])
        self._set("hand", hand)
        self._set("state", state)
        self._set("feedback", feedback)
        self._set("hint_text", hint)
        self._set("review_weighed", weighed)
        desk = session.desk(seat)
        self._set("synced", desk.synced)
        if desk.to_store is not None and desk.to_store is not self._stored:
            self._stored = desk.to_store
            self._set("mistakes_json", desk.to_store.to_json())
        if outcome is not None and outcome.download is not None:
            saved, self._downloads = outcome.download, self._downloads + 1
            text = saved.text + "".join(f"# {tr(line)}\n" for line in saved.comments)
            self._set("download", {"name": saved.name, "text": text, "token": self._downloads})

    def show_players(self, players: Sequence[str], info: Mapping[str, Any]) -> None:
        """Who sits where changed (a classmate joined, left, or a computer took a seat)."""
        self.players, self.info = tuple(players), dict(info)
        self.draw()

    def select(self, value: object) -> bool:
        """The page picked cards (positions in its hand): taken if they are positions in it."""
        if not positions_ok(value, min(len(self.order), MAX_PICK)):
            return False
        self.traits["selected"] = sorted(value)
        return True

    @property
    def to_weigh(self) -> bool:
        """The hand is over and the coach has not reviewed this seat's plays yet."""
        desk = self.session.desk(self.seat)
        return self.session.game.phase is Phase.FINISHED and desk.coach is None and desk.weighed is None

    def message(self, content: object) -> None:
        """A page's message to its own seat (:data:`SEAT_MESSAGES`; any other is ignored)."""
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if not isinstance(kind, str) or kind not in SEAT_MESSAGES:
            return
        request = request_id(content)
        if self.requests.repeated(kind, content.get("version")) and \
                (kind != "act" or cards_ok(content.get("cards")) or kind in self.requests.under_way):
            if (record := self.requests.ignored(kind, request)) is not None:
                self._set("handled", record)
            return
        handling = None
        try:
            with self.requests.handling(kind, request, lambda: self.version) as handling:
                try:
                    self._handle(kind, content)
                    handling.done = True
                except TutorError:  # a refusal the actions did not foresee; anything else: the server's boundary
                    self.draw(self.session.failed(self.seat, self.tr(FAILED)))
        finally:  # answered also when it failed (the page's busy state ends)
            if handling is not None and handling.record is not None:
                self._set("handled", handling.record)

    def _acted(self, outcome: Outcome) -> None:
        """A game action's outcome: carried out, the picked cards are put down (as lesson 10's)."""
        if outcome.done:
            self._set("selected", [])
        self.draw(outcome)

    def _handle(self, kind: str, content: dict[str, Any]) -> None:
        session, seat = self.session, self.seat
        if kind == "act":
            verb, cards = content.get("verb"), content.get("cards")
            if not isinstance(verb, str) or verb not in {v.value for v in Verb}:
                return
            if not cards_ok(cards):
                self.draw(session.refuse(seat, "N3", Text("those picked cards could not be read")))
                return
            if positions_ok(content.get("selected"), min(len(self.order), MAX_PICK)):
                self.traits["selected"] = sorted(content["selected"])
            self._acted(session.act(seat, Verb(verb), " ".join(cards)))
        elif kind == "declare":
            option = content.get("option")
            if type(option) is int:
                self._acted(session.declare(seat, option))
        elif kind == "pass":
            self.draw(session.pass_declaration(seat))
        elif kind == "solo":
            self._acted(session.go_solo(seat))
        elif kind == "coach_review":
            self.draw(session.review(seat))
        elif kind == "export":
            if session.game.phase is not Phase.FINISHED:
                self.draw(session.refuse(seat, "", Text("The hand file is yours once the hand is over.")))
            else:
                self.draw(session.export(seat, actions=content.get("actions") is not False))
        elif kind == "sync":
            self.draw(session.sync(seat, content.get("mistakes")))
        elif kind == "stop_to_declare":
            value = content.get("value")
            if isinstance(value, bool):
                self._set("stop_to_declare", value)
                self.draw(session.set_stop(seat, value))
