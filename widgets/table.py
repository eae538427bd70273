"""Lesson 10's table: the learner plays a whole hand at a five-seat table with four computer
players, from the deal to the score. The hand's flow is a
:class:`~tutor.teach.table_session.TableSession` (every decision the rules engine's, every
sentence the narration's, the coach's words the coaching's), and what the learner sees of it
is :func:`tutor.teach.table_view.seat_view`: this widget draws that view and hands the page's
messages to the session. It decides nothing itself.

The kernel never waits on a clock. The front end asks for the next step (a card dealt,
a computer player's move) after its pause — ``deal_ms`` per card while dealing,
``pause_ms`` per computer move — so a learner can follow, and the kernel answers each
step at once. With both pauses 0 the table runs as fast as the messages travel.

Messages from the front end (dicts with ``type``): ``step``
(``version``: the state it was asked from; a stale step is ignored), ``act`` (``verb``:
play, bury or call; ``cards``: the picked cards' texts; ``selected``: their positions),
``declare`` (``option``: an index into the offered declarations), ``pass``, ``solo``,
``hint``, ``export`` (``actions``: whole hand or the deal only), ``import`` (``text``),
``restart``, ``new``, ``stop_to_declare`` (``value``), ``opponents`` (``level``),
``coach_review``, ``friend_odds``, ``replay`` (``trick``); after the review, *learn from
your mistakes*: ``mistakes``, then the learner's tries as ``act`` plays, ``retry_answer``,
``retry_skip``, ``retry_next`` and ``retry_leave``; ``sync`` (``mistakes``: the text the
browser stores under :attr:`Table.mistakes_key`, or null); the page sets ``selected``,
``pause_ms`` and ``deal_ms``.

The learner's own mistakes come back (:mod:`tutor.teach.mistakes`): the browser keeps the
costly plays of the learner's reviewed hands and hands them to the kernel when the table
starts (``sync``); the session keeps each costly play the coach's review finds, and the page
stores what :attr:`Table.mistakes_json` says (never before the stored positions arrived).
Opened with ``review=mistakes`` the table waits for them (``waiting``: ``"store"``) and
replays the positions due, most overdue first.

Work under way and repeats: see :class:`widgets.requests.Requests` (the page's request
protocol, shared with the drills).

Anything else or anything malformed is ignored or answered with a note in the widget (a
refusal naming the rule, a hand file that cannot be read), and changes nothing else —
never a traceback, never Python's own words (see :class:`widgets._common.PageWidget`).

>>> table = Table(seed=3, pause_ms=0, deal_ms=0, stop_to_declare=False)
>>> table.run()
'learner'
>>> table.game.phase.value in ("burying", "calling", "playing")
True
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from itertools import count
from typing import Any, Final, TypeGuard

import traitlets as t

from tutor.core import arguments
from tutor.core.arguments import MAX_EXACT, seed_number
from tutor.core.clock import counts_cpu
from tutor.core.errors import TutorError
from tutor.core.i18n import Text, and_list
from tutor.play.coach import Decision
from tutor.play.strategy import ComputerPlayer, check_level
from tutor.rules.cards import Card
from tutor.rules.game import Game
from tutor.rules.order import Trump
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.teach.course import REVIEWS, parse_link
from tutor.teach.mistakes import MISTAKES_KEY, REVIEW, Mistakes
from tutor.teach.table_session import Outcome, Said, TableSession, Verb, Waiting, fresh_seed
from tutor.teach.display import hand_payload
from tutor.teach.table_view import OFFERED_LEVELS, TABLE_LABELS, feedback_view, hint_view, seat_view
from widgets.requests import GAME_ACTIONS, MAX_PICK, Requests, cards_ok, positions_ok, request_id
from widgets._common import COMMON_JS, CSS, FAILED, STATIC, PageWidget, problem_of, translator, utc_now

ESM: Final = COMMON_JS + (STATIC / "table.js").read_text("utf-8")
TABLE_CSS: Final = CSS + (STATIC / "table.css").read_text("utf-8")

MAX_PAUSE_MS: Final = 10_000
"""The page may set a pause of 0 to this many milliseconds."""


_log: Final = logging.getLogger(__name__)
_tokens = count(1)




class Table(PageWidget):
    """A whole hand at the table, the learner in ``seat``.

    ``seed`` decides the deal and the computer players' choices (same seed, same game);
    ``None`` draws a fresh one. ``record`` is a hand file's text to start from instead.
    ``level`` is the computer players' level; the learner may choose another, which applies
    from the next hand dealt (:attr:`level`: this hand's, :attr:`next_level`: the next's).
    """

    _esm = ESM
    _css = TABLE_CSS
    _page_sets = frozenset({"selected", "pause_ms", "deal_ms"})
    weigh_ahead = not counts_cpu()
    """Weigh while the learner thinks, a layout at a time between the page's requests
    (:meth:`tutor.teach.table_session.TableSession.weigh_step`), so that "What would you play?"
    and "Review my play" answer at once: in the browser (the static site), where the work is
    the learner's own machine's; not by default on a server many learners share."""
    weigh_after_hand = True
    """Once the hand is over, weigh the learner's plays for the review the same way, while
    the learner reads the score — on a server too (about a second of CPU per hand)."""
    state = t.Dict().tag(sync=True)
    """What the front end draws (:func:`tutor.teach.table_view.seat_view`) with its ``version``."""
    hand = t.List(t.Dict()).tag(sync=True)
    """The learner's hand in held order, as the front end draws it."""
    selected = t.List(t.Int()).tag(sync=True)
    """Picked cards: positions in :attr:`hand`."""
    feedback = t.Dict().tag(sync=True)
    """The last refusal (``rule``, ``reason``) or note, with an ``id``; ``{}`` when none."""
    hint_text = t.Unicode("").tag(sync=True)
    labels = t.Dict().tag(sync=True)
    game_actions = t.List(t.Unicode(), sorted(GAME_ACTIONS)).tag(sync=True)
    """The actions that change the game (:data:`widgets.requests.GAME_ACTIONS`): the page's list is this one."""
    pause_ms = t.Int(450).tag(sync=True)
    """The deliberate pause before each computer move (0 in tests)."""
    deal_ms = t.Int(150).tag(sync=True)
    """The deliberate pause before each card dealt."""
    stop_to_declare = t.Bool(True).tag(sync=True)
    """Stop the deal when the learner can newly declare or overturn."""
    download = t.Dict().tag(sync=True)
    """A file for the browser to save: ``name``, ``text``, ``token``."""
    load_error = t.Unicode("").tag(sync=True)
    four_colour = t.Bool(False).tag(sync=True)
    lang = t.Unicode("en").tag(sync=True)
    """The language of every text."""
    handled = t.Dict().tag(sync=True)
    """The page's last request handled: ``request`` (its id), ``type``, ``ignored`` (a repeat)
    and ``work`` (the requests carried out so far by this table)."""
    mistakes_key = t.Unicode(MISTAKES_KEY).tag(sync=True)
    """Where the browser keeps the positions of the learner's own hands to review (``localStorage``)."""
    mistakes_json = t.Unicode("").tag(sync=True)
    """What the page is to store under :attr:`mistakes_key` (``""``: nothing new to store)."""
    review_weighed = t.Bool(False).tag(sync=True)
    """Every play the learner made is weighed for the coach's review (the page's ``data-review-weighed``)."""
    synced = t.Bool(False).tag(sync=True)
    """The browser's stored positions have been taken (the page's ``data-synced``)."""

    def __init__(self, seed: int | None = None, *, seat: int = 0, lang: str | None = None, pause_ms: int = 450,
                 deal_ms: int = 150, stop_to_declare: bool = True, rules: Ruleset = DEFAULT_RULES,
                 record: str | None = None, four_colour: bool = False, level: int = 1, review: str = "",
                 clock: Callable[[], datetime] | None = None, **kwargs: Any) -> None:
        """``lang``: one of :data:`tutor.core.i18n.LANGUAGES` (by default the kernel's).
        ``review``: ``"mistakes"`` to replay the learner's kept positions that are due once
        the browser's stored positions arrive. ``clock``: the time now (UTC)."""
        if review not in ("", *REVIEWS):
            raise TutorError(Text("the table reviews {reviews}, not {review}", reviews=and_list(REVIEWS),
                                  review=str(review)[:40]), parameter="review")
        game = Game(fresh_seed() if seed is None else seed_number(seed), rules)
        self.session = TableSession(game, learners={arguments.seat(seat)}, level=level, clock=clock or utc_now)
        """The hand's flow: this widget draws it."""
        self.session.desk(self.seat).stop_to_declare = stop_to_declare
        self.tr = translator(lang)
        self._version = 0
        self._order: list[Card] = []
        self.requests = Requests(GAME_ACTIONS)
        """The page's requests so far (:mod:`widgets.requests`)."""
        self._hinted: tuple[int, tuple[int, ...]] | None = None  # the hint given: (version, picked cards)
        self._step_asked: asyncio.TimerHandle | None = None
        self._stored = self.session.desk(self.seat).to_store
        super().__init__(labels={k: self.tr(v) for k, v in TABLE_LABELS.items()}, pause_ms=max(0, pause_ms),
                         deal_ms=max(0, deal_ms), stop_to_declare=stop_to_declare, four_colour=four_colour,
                         lang=self.tr.language, **kwargs)
        self.on_msg(self._on_message)
        if record is not None:
            self.load(record)
        if review == REVIEW:
            self.session.wait_for_store()
        self._draw()

    # ------------------------------------------------------------ what the session holds

    @property
    def game(self) -> Game:
        """The hand at the table (the session's)."""
        return self.session.game

    @property
    def seat(self) -> int:
        """The learner's seat (a kept position of another seat is reviewed from that seat)."""
        return self.session.learner

    @property
    def rules(self) -> Ruleset:
        return self.session.rules

    @property
    def level(self) -> int:
        """The computer players' level in this hand."""
        return self.session.level

    @property
    def bots(self) -> dict[int, ComputerPlayer]:
        """The computer players of this hand, by seat."""
        return {seat: bot for seat, bot in self.session.bots.items() if seat != self.seat}

    @property
    def next_level(self) -> int:
        """The level chosen for the next hand dealt."""
        return self.session.next_level

    @property
    def positions(self) -> Mistakes:
        """The positions of the learner's own hands kept to review."""
        return self.session.desk(self.seat).positions

    @property
    def coach_review(self) -> tuple[Decision, ...] | None:
        """The coach's review of this hand, once asked for."""
        return self.session.desk(self.seat).coach

    @property
    def waiting(self) -> str:
        """Who the table waits for (:class:`tutor.teach.table_session.Waiting`'s value)."""
        return self.session.waiting(self.seat).value

    @property
    def review_ready(self) -> bool:
        """Every play the learner made this hand is weighed for the coach's review."""
        return self.session.review_ready(self.seat)

    @property
    def order(self) -> tuple[Card, ...]:
        """The learner's cards in the order drawn (:attr:`hand`; :attr:`selected` are positions in it)."""
        return tuple(self._order)

    @property
    def weighing(self) -> bool:
        """A step of the coach's weighing is asked of the event loop (:attr:`weigh_ahead`)."""
        return self._step_asked is not None

    def positions_of(self, cards: Sequence[Card]) -> list[int]:
        """Where ``cards`` are in the hand as drawn (:attr:`hand`), each copy once."""
        want = Counter(cards)
        out = []
        for i, card in enumerate(self._order):
            if want[card]:
                want[card] -= 1
                out.append(i)
        return out

    # ------------------------------------------------------------ drawing

    def _draw(self, outcome: Outcome | None = None) -> None:
        """Draw what the learner sees now, and what ``outcome`` brought (cards to pick, a file);
        an action that changed nothing (a refusal, a note) only says so."""
        session, seat, tr = self.session, self.seat, self.tr
        if outcome is not None and not outcome.done:
            with self.hold_sync():
                if outcome.load_error is not None:
                    self.load_error = tr(outcome.load_error)
                if outcome.feedback is not None:
                    self.feedback = feedback_view(session, seat, tr.language)
                self.hint_text = hint_view(session, seat, tr.language)
                if outcome.picks is not None:
                    self.selected = self.positions_of(outcome.picks)
            return
        view = seat_view(session, seat, self.tr.language)
        trump = session.game.trump
        self._order, _ = hand_payload(session.game.hand(seat), Trump(None) if trump is None else trump, tr)
        hand, feedback = view.pop("hand"), view.pop("feedback")
        hint, weighed = view.pop("hint_text"), view.pop("review_weighed")
        self._version += 1
        with self.hold_sync():
            if hand != self.hand:
                self.hand = hand
                self.selected = []
            if outcome is not None and outcome.picks is not None:
                self.selected = self.positions_of(outcome.picks)
            if outcome is not None and outcome.download is not None:
                saved = outcome.download
                text = saved.text + "".join(f"# {tr(line)}\n" for line in saved.comments)
                self.download = {"name": saved.name, "text": text, "token": next(_tokens)}
            self.feedback, self.hint_text, self.review_weighed = feedback, hint, weighed
            self.state = {"version": self._version, **view}
            desk = session.desk(seat)
            self.synced = desk.synced
            if desk.to_store is not None and desk.to_store is not self._stored:
                self._stored = desk.to_store
                self.mistakes_json = desk.to_store.to_json()
        self._weigh_later()

    def _refused(self, outcome: Outcome) -> dict[str, Any]:
        """An action's answer as the page shows it: the refusal, or ``{}``."""
        if outcome.done:
            self.selected = []
        self._draw(outcome)
        return dict(self.feedback) if outcome.feedback is not None and outcome.feedback.kind is Said.REFUSED else {}

    # ------------------------------------------------------------ weighing between requests

    def _weighs_now(self) -> bool:
        return self.weigh_ahead or (self.weigh_after_hand and self.waiting == Waiting.DONE.value)

    def _weigh_next(self) -> None:
        """One step of the coach's weighing (:meth:`TableSession.weigh_step`), then ask the
        event loop to come back for the next: the page's requests are handled in between."""
        self._step_asked = None
        if not self._weighs_now():
            return
        if self.session.weigh_step(self.seat, before_end=self.weigh_ahead):
            self._weigh_later()
        else:
            self.review_weighed = self.review_ready

    def _weigh_later(self) -> None:
        """Have :meth:`_weigh_next` called soon by the event loop, once (nothing without one)."""
        if not self._weighs_now() or self._step_asked is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            if counts_cpu():
                return  # no event loop runs (a script, a test): the coach weighs when asked
            loop = asyncio.get_event_loop()  # the browser's (Pyodide's)
        self._step_asked = loop.call_later(0, self._weigh_next)

    # ------------------------------------------------------------ the learner's actions

    def step(self) -> bool:
        """One step that is not the learner's: a card dealt or a computer player's move."""
        if not self.session.step():
            return False
        self._draw()
        return True

    def run(self, limit: int = 10_000) -> str:
        """Step until the learner must (or, while dealing, may stop to) act; returns :attr:`waiting`."""
        self.session.run(limit)
        self._draw()
        return self.waiting

    def declare(self, option: int | Sequence[Card] | str) -> dict[str, Any]:
        return self._refused(self.session.declare(self.seat, option))

    def pass_declaration(self) -> None:
        self.session.pass_declaration(self.seat)
        self._draw()

    def bury(self, cards: Sequence[Card] | str) -> dict[str, Any]:
        return self._refused(self.session.act(self.seat, Verb.BURY, cards))

    def call(self, card: Sequence[Card] | str | Card) -> dict[str, Any]:
        return self._refused(self.session.act(self.seat, Verb.CALL, (card,) if isinstance(card, Card) else card))

    def go_solo(self) -> dict[str, Any]:
        return self._refused(self.session.go_solo(self.seat))

    def play(self, cards: Sequence[Card] | str) -> dict[str, Any]:
        """Play ``cards`` (while a mistake is tried again, the learner's new try)."""
        return self._refused(self.session.act(self.seat, Verb.PLAY, cards))

    def hint(self) -> str:
        """The coach's advice now, the picked cards weighed beside it; the advice is picked."""
        asked = tuple(self.selected)
        chosen = [self._order[i] for i in self.selected if i < len(self._order)]
        self._draw(self.session.hint(self.seat, chosen))
        self._hinted = (self._version, asked)
        return self.hint_text

    def friend_odds(self) -> str:
        self._draw(self.session.friend_odds(self.seat))
        return self.hint_text

    def review_play(self) -> tuple[Decision, ...]:
        """The coach's review of the learner's plays once the hand is over."""
        self._draw(self.session.review(self.seat))
        return self.coach_review or ()

    def learn_from_mistakes(self) -> None:
        self._draw(self.session.learn_from_mistakes(self.seat))

    def try_again(self, cards: Sequence[Card] | str) -> dict[str, Any]:
        return self._refused(self.session.try_again(self.seat, cards))

    def show_answer(self) -> None:
        self._draw(self.session.show_answer(self.seat))

    def skip_mistake(self) -> None:
        self._draw(self.session.next_mistake(self.seat, skip=True))

    def leave_mistakes(self) -> None:
        self._draw(self.session.leave_mistakes(self.seat))

    def replay_from(self, trick: int) -> None:
        self._draw(self.session.replay_from(self.seat, trick))

    def sync(self, stored: object) -> None:
        """Take the positions the browser stored (:attr:`mistakes_key`; None: nothing stored)."""
        self._draw(self.session.sync(self.seat, stored))

    def review_due(self) -> None:
        self._draw(self.session.review_due(self.seat))

    def export(self, *, actions: bool = True) -> str:
        """The hand as a small text file, with the coach's review as comment lines."""
        self._draw(self.session.export(self.seat, actions=actions))
        return str(self.download.get("text", ""))

    def load(self, text: object) -> bool:
        """Take a hand file (a broken one is refused in :attr:`load_error`; the hand goes on)."""
        outcome = self.session.load(text)
        if outcome.done:
            self.load_error = ""
        self._draw(outcome)
        return outcome.done

    def choose_level(self, level: int) -> None:
        """The computer players' level from the next hand dealt (a level that is none: TutorError)."""
        self.session.choose_level(level)
        self._draw()

    def restart(self) -> None:
        self._draw(self.session.restart())

    def new_deal(self, seed: int | None = None) -> None:
        self._draw(self.session.new_deal(seed))

    # ------------------------------------------------------------ the page's messages

    def _page_value(self, name: str, value: object) -> bool:
        if name == "selected":
            return positions_ok(value, min(len(self._order), MAX_PICK))
        return name in ("pause_ms", "deal_ms") and type(value) is int and 0 <= value <= MAX_PAUSE_MS

    def _failed(self) -> None:
        self._draw(self.session.failed(self.seat, self.tr(FAILED)))

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict) or not isinstance(kind := content.get("type"), str):
            return
        request = request_id(content)
        if self._repeated(kind, content):
            if (record := self.requests.ignored(kind, request)) is not None:
                self.handled = record
            return
        handling = None
        try:
            with self.hold_sync(), self.requests.handling(kind, request, lambda: self._version) as handling:
                try:
                    self._handle(kind, content)
                    handling.done = True
                except TutorError as error:  # a refusal the actions did not foresee; anything else: the boundary
                    problem = problem_of(error)
                    self._draw(self.session.failed(self.seat, self.tr(
                        "Something went wrong: {problem}", problem=self.tr(problem)[:300]) if problem is not None
                        else self.tr(FAILED)))
        finally:  # answered also when it failed (the boundary then says so)
            if handling is not None and handling.record is not None:
                self.handled = handling.record

    def _repeated(self, kind: str, content: dict[str, Any]) -> bool:
        """Whether ``content`` repeats an action (:class:`widgets.requests.Requests`): picked
        cards that cannot be read are refused as they are, whatever their version; a hint
        already given for this state and these picked cards is not weighed again."""
        if kind == "act" and not cards_ok(content.get("cards")):
            return kind in self.requests.under_way
        version = content.get("version")
        if kind == "hint" and type(version) is int and kind not in self.requests.under_way:
            picked = content.get("selected")
            return self._hinted is not None and version == self._version and \
                positions_ok(picked, min(len(self._order), MAX_PICK)) and (version, tuple(picked)) == self._hinted
        return self.requests.repeated(kind, version)

    def _handle(self, kind: str, content: dict[str, Any]) -> None:
        """Carry out the page's message ``content`` of type ``kind``."""
        session, seat = self.session, self.seat
        if kind == "step":
            version = content.get("version")
            if type(version) is int and version == self._version:
                self.step()
        elif kind == "act":
            verb = content.get("verb")
            if not isinstance(verb, str) or verb not in {v.value for v in Verb}:
                return
            cards = content.get("cards")
            if not cards_ok(cards):
                self._draw(session.refuse(seat, "N3", Text("those picked cards could not be read")))
                return
            self._take_selection(content.get("selected"))
            self._refused(session.act(seat, Verb(verb), " ".join(cards)))
        elif kind == "declare":
            option = content.get("option")
            if type(option) is int:
                self.declare(option)
        elif kind == "hint":
            if "selected" in content:
                self._take_selection(content.get("selected"))
            self.hint()
        elif kind in ("retry_skip", "retry_next"):
            self._draw(session.next_mistake(seat, skip=kind == "retry_skip"))
        elif kind == "replay":
            trick = content.get("trick")
            self._draw(session.replay_from(seat, trick if type(trick) is int and 0 <= trick <= MAX_EXACT else None))
        elif kind == "export":
            self.export(actions=content.get("actions") is not False)
        elif kind == "import":
            self.load(content.get("text"))
        elif kind == "sync":
            self.sync(content.get("mistakes"))
        elif kind == "stop_to_declare":
            value = content.get("value")
            if isinstance(value, bool):
                self.stop_to_declare = value
                self._draw(session.set_stop(seat, value))
        elif kind == "opponents":
            level = content.get("level")  # the page offers only LEVELS: anything else is ignored
            if type(level) is int and level in OFFERED_LEVELS and level != self.next_level:
                self.choose_level(level)
        elif kind in SIMPLE:
            SIMPLE[kind](self)

    def _take_selection(self, raw: object) -> None:
        if positions_ok(raw, min(len(self._order), MAX_PICK)):
            self.selected = sorted(raw)


SIMPLE: Final[dict[str, Callable[[Table], object]]] = {
    "pass": Table.pass_declaration, "solo": Table.go_solo, "coach_review": Table.review_play,
    "friend_odds": Table.friend_odds, "mistakes": Table.learn_from_mistakes, "retry_answer": Table.show_answer,
    "retry_leave": Table.leave_mistakes, "restart": Table.restart, "new": Table.new_deal,
}
"""The page's messages that carry nothing but their type."""


def seed_from_query(query: str | None) -> int | None:
    """The ``seed`` of a page's query string, if it is a valid one (else None).

    >>> seed_from_query("seed=42&x=1"), seed_from_query("seed=-3"), seed_from_query(None)
    (42, None, None)
    """
    return parse_link(query if isinstance(query, str) else None)[0].seed


__all__ = ["OFFERED_LEVELS", "Table", "check_level", "fresh_seed", "seed_from_query"]
