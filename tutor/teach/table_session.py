"""A hand at the table as a session of its own, apart from any page: the hand (a
:class:`~tutor.rules.game.Game`), each seat's player (a learner, or the computer at a level),
the deal's stop for a learner's declarations, what each learner's seat has been told (the
log, the failed throws, the last refusal or note, the coach's words), the coach's hint,
review and weighing, learning from one's mistakes, the kept positions that come back, and
the hand file. Lesson 10's table and the tables of classmates both hold one.

Every decision is the rules engine's (:meth:`Game.apply` refuses with the rule); every
sentence is :mod:`tutor.teach.narration`'s or :mod:`tutor.teach.coaching`'s, kept as a
:class:`~tutor.core.i18n.Text` (said in a language only when a seat's view is drawn:
:func:`tutor.teach.table_view.seat_view`). Each action returns a frozen :class:`Outcome`;
who the table waits for is a :class:`Waiting`. Nothing here knows of widgets, websockets,
clocks of the event loop or threads: a page asks for the next step when its pause is over
(:meth:`TableSession.step`), and the coach's weighing ahead is done a step at a time when
asked (:meth:`TableSession.weigh_step`).

>>> from tutor.rules.game import Game
>>> session = TableSession(Game(3), learners=frozenset({0}))
>>> session.desk(0).stop_to_declare = False
>>> session.run() is Waiting.LEARNER, session.game.phase.value in ("burying", "calling", "playing")
(True, True)
>>> refused = session.act(0, Verb.PLAY, "♠A ♠A ♠A")
>>> refused.done, refused.feedback.kind is Said.REFUSED
(False, True)
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from typing import Final

from tutor.core.arguments import MAX_SEED, seed_number
from tutor.core.errors import IllegalActionError, TutorError
from tutor.core.i18n import Text, and_list, said
from tutor.play import coach
from tutor.play.ahead import Ahead
from tutor.play.coach import Decision
from tutor.play.record import MAX_CHARS, export_hand, import_hand, read_hand
from tutor.play.strategy import MAX_THINK, ComputerPlayer, check_level, next_action
from tutor.rules.cards import PLAYERS, Card, format_cards
from tutor.rules.game import (Bury, Call, Declare, Event, Game, Phase, Play, Played, Redealt, SeatView, Solo,
                              ThrowFailed, TrickWon)
from tutor.rules.notation import CardsLike, parse_cards
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.teach import coaching, narration
from tutor.teach.mistakes import MAX_KEPT, Kept, Mistakes, MistakesError

__all__ = ["Computer", "Desk", "DueReview", "Feedback", "HandFile", "Learner", "Outcome", "Player", "RetryStatus",
           "Retrying", "Said", "TableSession", "Tried", "Verb", "Waiting", "fresh_seed"]

COMPUTER_LEVEL: Final = 1


class Waiting(Enum):
    """Who the table waits for (:meth:`TableSession.waiting`, told to one seat)."""

    DEAL = "deal"
    """A chance step: the next card (the seat may declare meanwhile)."""
    DECLARE = "declare"
    """The deal stopped for this seat's declaration."""
    BOT = "bot"
    """Another seat's move (the computer's, or a classmate's)."""
    LEARNER = "learner"
    """This seat must act."""
    DONE = "done"
    """The hand is over."""
    STORE = "store"
    """Opened to review the learner's kept positions: the browser's stored ones have not arrived."""


class Verb(Enum):
    """A learner's action with picked cards."""

    PLAY = "play"
    BURY = "bury"
    CALL = "call"


class Said(Enum):
    """What kind of words a seat was last given (:class:`Feedback`)."""

    REFUSED = "refused"
    """An action refused, with its rule."""
    NOTE = "note"
    """A note: nothing was wrong."""
    THROW = "throw"
    """The seat's own throw failed (L4)."""
    ERROR = "error"
    """Something went wrong that nobody foresaw; nothing changed."""


class RetryStatus(Enum):
    """Where the learner is with a mistake tried again."""

    TRYING = "trying"
    FOUND = "found"
    """A try within the coach's margin of its best."""
    SHOWN = "shown"
    """The coach's answer shown."""


class Tried(Enum):
    """What became of one mistake, or one kept position, tried again."""

    FOUND = "found"
    SHOWN = "shown"
    SKIPPED = "skipped"
    GONE = "gone"
    """Its hand no longer replays (a kept position only)."""


@dataclass(frozen=True, slots=True)
class Learner:
    """A seat played by a person (lesson 10's learner, or a classmate)."""


@dataclass(frozen=True, slots=True)
class Computer:
    """A seat played by the computer at ``level`` (:data:`tutor.play.strategy.LEVELS`)."""

    level: int = COMPUTER_LEVEL


Player = Learner | Computer


@dataclass(frozen=True, slots=True)
class Feedback:
    """Words for one seat: a refusal (with its ``rule``), a note, a failed throw, a failure.
    ``reason`` is a :class:`Text` (said in the seat's language when drawn), or words already
    said by the rules engine. ``serial`` tells two equal feedbacks apart (the page shows each once)."""

    kind: Said
    reason: str
    rule: str = ""
    serial: int = 0


@dataclass(frozen=True, slots=True)
class HandFile:
    """A hand file for the learner to save (:func:`tutor.play.record.export_hand`): its name,
    its text, and the coach's review said as comment lines (``comments``, said when drawn)."""

    name: str
    text: str
    comments: tuple[Text, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one action did: ``done`` (carried out: the table changed) or not (refused, or only
    words for the seat: its :class:`Desk` holds them), the words for the seat (``feedback``),
    the cards to pick in its hand (``picks``: the coach's advice or answer), a hand file to
    save, a hand file that could not be read (``load_error``)."""

    done: bool
    feedback: Feedback | None = None
    picks: tuple[Card, ...] | None = None
    download: HandFile | None = None
    load_error: Text | None = None


NOTHING: Final = Outcome(False)
DONE: Final = Outcome(True)


@dataclass(slots=True)
class Retrying:
    """*Learn from your mistakes* under way: the reviewed hand (``finished``), its costly
    decisions in the order they were made, the one the learner is at (``at``), where they are
    with it, what the coach said of the last try, and each decision's outcome so far."""

    finished: Game
    decisions: tuple[Decision, ...]
    at: int = 0
    status: RetryStatus = RetryStatus.TRYING
    said: tuple[Text, ...] = ()
    outcomes: list[Tried] = field(default_factory=list)

    @property
    def decision(self) -> Decision:
        return self.decisions[self.at]


@dataclass(slots=True)
class DueReview:
    """The review of the learner's kept positions under way: those due when it began, most
    overdue first, the one the learner is at, and each one's outcome so far."""

    positions: tuple[Kept, ...]
    at: int = 0
    outcomes: list[Tried] = field(default_factory=list)

    @property
    def kept(self) -> Kept:
        return self.positions[self.at]


@dataclass(slots=True)
class Desk:
    """What one learner's seat holds at the table: whether the deal stops for its
    declarations (and what it was offered), what it has been told (the log, the failed
    throws by trick, the last feedback, the coach's words), the coach's review of its plays
    and what was weighed ahead, and the positions of its own hands kept to review."""

    stop_to_declare: bool = True
    offered: set[tuple[Card, ...]] = field(default_factory=set)
    offer: bool = False
    end_offer_done: bool = False
    log: list[Text] = field(default_factory=list)
    throws: dict[int, list[Text]] = field(default_factory=dict)
    feedback: Feedback | None = None
    hint: tuple[Text, ...] | None = None
    """The coach's words, sentence by sentence (a hint, who the friend may be)."""
    coach: tuple[Decision, ...] | None = None
    weighed: tuple[Decision, ...] | None = None
    """The coach's review of this seat's plays, weighed elsewhere beforehand (a shared table's server)."""
    ahead: Ahead | None = None
    ahead_failed: Game | None = None
    positions: Mistakes = field(default_factory=Mistakes)
    kept_here: set[str] = field(default_factory=set)
    synced: bool = False
    to_store: Mistakes | None = None
    """What the page is to store (the stored positions with this seat's kept ones), once they arrived."""
    summary: Text | None = None
    """The summary of the last round of mistakes tried again."""


class TableSession:
    """One hand at a table of five. ``learners``: the seats played by people; the others
    are the computer's at ``level`` (the learner may choose another for the next hand:
    :meth:`choose_level`). ``clock``: the time now (UTC), for scheduling kept positions."""

    def __init__(self, game: Game, *, learners: Iterable[int], level: int = COMPUTER_LEVEL,
                 clock: Callable[[], datetime] | None = None) -> None:
        seats = frozenset(learners)
        if any(type(s) is not int or not 0 <= s < PLAYERS for s in seats):
            raise TutorError(Text("a table has learners at seats 0 to 4, not {seats}", seats=str(sorted(seats))[:40]))
        self.learners: frozenset[int] = seats
        self.home: int = min(seats, default=0)
        """The seat of lesson 10's learner (a kept position of another seat is reviewed from that seat)."""
        self.rules: Ruleset = game.rules
        self.next_level: int = check_level(level)
        self.clock: Callable[[], datetime] = clock or utc_now
        self.desks: dict[int, Desk] = {seat: Desk() for seat in seats}
        self.retrying: Retrying | None = None
        self.due: DueReview | None = None
        self.store_waiting = False
        self._serial = 0
        self.start(game)

    # ------------------------------------------------------------ the flow

    def start(self, game: Game, note: Text | None = None, level: int | None = None) -> None:
        """Begin a hand: its computer players at ``level`` (a hand file's), else the level
        chosen last, thinking through all their layouts so a deal plays the same on any machine."""
        if len(self.learners) == 1:
            self._move_learner(self.home)
        self.game = game
        self.level = self.next_level if level is None else check_level(level)
        self.bots = {s: ComputerPlayer(s, game.seed, game.rules, level=self.level, think=MAX_THINK)
                     for s in range(PLAYERS)}
        self.plays = 0
        self.last_trick: TrickWon | None = None
        self.retrying = None
        self.due = None
        self.store_waiting = False
        for seat, desk in self.desks.items():
            self.desks[seat] = Desk(stop_to_declare=desk.stop_to_declare, positions=desk.positions,
                                    kept_here=desk.kept_here, synced=desk.synced, to_store=desk.to_store,
                                    log=[note] if note is not None else [])
            self._check_offer(seat)

    def sit(self, seat: int) -> None:
        """A learner takes seat ``seat`` (a classmate joins the table): from now on it is told
        what happens, and the computer plays it only when asked (:meth:`step`)."""
        if seat in self.learners:
            return
        if not self.learners:
            self.home = seat
        self.learners |= {seat}
        self.desks[seat] = Desk()
        for event in self.game.events:  # told the hand so far, as if there from the start
            self._tell(seat, event)
        self._check_offer(seat)

    @property
    def players(self) -> tuple[Player, ...]:
        """Each seat's player: a learner, or the computer at this hand's level."""
        return tuple(Learner() if s in self.learners else Computer(self.level) for s in range(PLAYERS))

    @property
    def learner(self) -> int:
        """The seat of a table's one learner (lesson 10's): :attr:`home`, or the seat of the kept
        position under review."""
        if len(self.learners) != 1:
            raise TutorError(Text("this table has {count} learners, not one", count=len(self.learners)))
        return next(iter(self.learners))

    def _move_learner(self, to: int) -> int:
        """The one learner's desk moves to seat ``to`` (a kept position of that seat is reviewed)."""
        seat = self.learner
        if seat != to:
            self.desks = {to: self.desks[seat]}
            self.learners = frozenset({to})
        return to

    def desk(self, seat: int) -> Desk:
        """What learner seat ``seat`` holds (:class:`Desk`)."""
        return self.desks[seat]

    def waiting(self, seat: int) -> Waiting:
        """Who the table waits for, as ``seat`` sees it (from :attr:`Game.actor`)."""
        if self.store_waiting:
            return Waiting.STORE
        actor = self.game.actor
        if actor is not None:
            return Waiting.LEARNER if actor == seat else Waiting.BOT
        if self.game.phase is Phase.FINISHED:
            return Waiting.DONE
        desk = self.desks.get(seat)
        return Waiting.DECLARE if desk is not None and desk.offer else Waiting.DEAL

    def stopped(self) -> bool:
        """True if the deal waits for some learner's declaration."""
        return self.game.phase is Phase.DEALING and any(desk.offer for desk in self.desks.values())

    def step(self, for_seats: frozenset[int] = frozenset()) -> bool:
        """One step that is no learner's: a card dealt, or the move of the computer (or of the
        computer for a learner's seat in ``for_seats``: a classmate who left). False, and
        nothing done, when the table waits for a learner, is stopped for a declaration, or is done."""
        actor = self.game.actor
        if self.store_waiting or self.game.phase is Phase.FINISHED or self.stopped():
            return False
        if actor is not None and actor in self.learners and actor not in for_seats:
            return False
        bots = {s: bot for s, bot in self.bots.items() if s not in self.learners or s in for_seats}
        self.witness(self.game.apply(next_action(self.game, bots)))
        return True

    def run(self, limit: int = 10_000) -> Waiting:
        """Step until a learner must (or, while dealing, may stop to) act; returns what
        :attr:`home`'s seat waits for. For tests and for a pause-free table."""
        for _ in range(limit):
            if not self.step():
                break
        return self.waiting(self.home)

    def witness(self, event: Event) -> None:
        """Tell each learner's seat of ``event`` (each result as :func:`narration.happened` says
        it to that seat), and keep what the table shows between events."""
        game = self.game
        for result in event.results:
            if isinstance(result, Played):
                self.plays += 1
            elif isinstance(result, TrickWon):
                self.last_trick = result
        for seat in self.desks:
            self._tell(seat, event)
            if game.phase is Phase.DEALING:
                self._check_offer(seat)
        if game.trick:
            self.last_trick = None

    def _tell(self, seat: int, event: Event) -> None:
        """Tell ``seat`` what ``event`` did (its view now: the event is the last one it is told)."""
        desk, view = self.desks[seat], self.game.view(seat)
        for result in event.results:
            line = narration.happened(result, view)
            if isinstance(result, Redealt):
                desk.offered.clear()
                desk.end_offer_done = False
            elif isinstance(result, ThrowFailed) and line is not None:
                desk.throws.setdefault(len(view.tricks), []).append(line)
                if result.seat == seat:
                    desk.feedback = self._feedback(Said.THROW, line, "L4")
            if line is not None:
                desk.log.append(line)

    def _check_offer(self, seat: int) -> None:
        """Stop the deal when ``seat`` can newly declare (or, once every card is dealt, can
        still declare at all), so the learner has time to react."""
        game, desk = self.game, self.desks[seat]
        if game.phase is not Phase.DEALING or not desk.stop_to_declare:
            desk.offer = False
            return
        options = game.declaration_options(seat)
        fresh = [o for o in options if o not in desk.offered]
        if fresh or (game.all_dealt and options and not desk.end_offer_done):
            desk.offered.update(options)
            desk.offer = True

    # ------------------------------------------------------------ a learner's actions

    def _feedback(self, kind: Said, reason: str, rule: str = "") -> Feedback:
        self._serial += 1
        return Feedback(kind, reason, rule, self._serial)

    def refuse(self, seat: int, rule: str, reason: str) -> Outcome:
        """Nothing changes; ``seat`` is told why."""
        feedback = self._feedback(Said.REFUSED, reason, rule)
        self.desks[seat].feedback = feedback
        return Outcome(False, feedback)

    def note(self, seat: int, reason: Text) -> Outcome:
        feedback = self._feedback(Said.NOTE, reason)
        self.desks[seat].feedback = feedback
        return Outcome(False, feedback)

    def failed(self, seat: int, reason: str) -> Outcome:
        """Something nobody foresaw went wrong (the boundary's words); nothing changed."""
        feedback = self._feedback(Said.ERROR, reason)
        self.desks[seat].feedback = feedback
        return Outcome(False, feedback)

    def _attempt(self, seat: int, act: Callable[[], Event]) -> Outcome:
        try:
            event = act()
        except IllegalActionError as error:
            return self.refuse(seat, error.rule, error.reason)
        except TutorError as error:
            return self.refuse(seat, "", _reason(error, Text("that is not open to you now")))
        desk = self.desks[seat]
        desk.feedback, desk.hint = None, None
        if isinstance(event.action, Declare):
            desk.offer = False
        self.witness(event)
        return DONE

    def _parsed(self, seat: int, cards: CardsLike) -> tuple[Card, ...] | Outcome:
        try:
            return parse_cards(cards)
        except TutorError as error:
            return self.refuse(seat, "N3", _reason(error, Text("those cards could not be read")))

    def act(self, seat: int, verb: Verb, cards: CardsLike) -> Outcome:
        """``seat`` plays, buries or calls ``cards``; while a mistake is tried again, a play is
        the learner's new try (:meth:`try_again`) and the hand does not go on."""
        if verb is Verb.PLAY and self.retrying is not None:
            return self.try_again(seat, cards)
        parsed = self._parsed(seat, cards)
        if isinstance(parsed, Outcome):
            return parsed
        game = self.game
        if verb is Verb.PLAY:
            return self._attempt(seat, lambda: game.apply(Play(seat, parsed)))
        if verb is Verb.BURY:
            return self._attempt(seat, lambda: game.apply(Bury(seat, parsed)))
        return self._attempt(seat, lambda: game.call(seat, parsed))

    def declare(self, seat: int, option: int | CardsLike) -> Outcome:
        """Declare or overturn with one of :meth:`Game.declaration_options` (an index) or any cards."""
        if isinstance(option, bool):
            return self.refuse(seat, "D1", Text("that declaration is no longer open to you"))
        if isinstance(option, int):
            options = self.game.declaration_options(seat)
            if not 0 <= option < len(options):
                return self.refuse(seat, "D1", Text("that declaration is no longer open to you"))
            cards: tuple[Card, ...] = options[option]
        else:
            parsed = self._parsed(seat, option)
            if isinstance(parsed, Outcome):
                return parsed
            cards = parsed
        return self._attempt(seat, lambda: self.game.apply(Declare(seat, cards)))

    def pass_declaration(self, seat: int) -> Outcome:
        """Let the deal go on without ``seat`` declaring now."""
        desk = self.desks[seat]
        desk.offered.update(self.game.declaration_options(seat))
        if self.game.all_dealt:
            desk.end_offer_done = True
        changed = desk.offer
        desk.offer = False
        return Outcome(changed)

    def set_stop(self, seat: int, value: bool) -> Outcome:
        """Whether the deal stops when ``seat`` can newly declare."""
        desk = self.desks[seat]
        desk.stop_to_declare = value
        if not value and desk.offer:
            self.pass_declaration(seat)
        return DONE

    def go_solo(self, seat: int) -> Outcome:
        return self._attempt(seat, lambda: self.game.apply(Solo(seat)))

    def hint(self, seat: int, chosen: Sequence[Card] | None = None) -> Outcome:
        """The coach's advice for ``seat`` now (:func:`tutor.play.coach.advise`, said by
        :func:`tutor.teach.coaching.advice`), the learner's ``chosen`` cards weighed beside it;
        the advised cards come back to be picked (the learner still decides)."""
        if self.retrying is not None:  # the answer is the learner's to find, or to ask for
            return NOTHING
        desk, game = self.desks[seat], self.game
        view = game.view(seat)
        ahead = self._ahead(seat)
        if ahead is None and view.phase is Phase.PLAYING:
            ahead = desk.ahead = Ahead(game, seat, seed=game.seed)
        advice = coach.advise(view, self.rules, seed=game.seed, chosen=chosen or None,
                              judged=ahead.judged() if ahead is not None else None)
        if ahead is not None and not chosen and advice.found is not None:
            ahead.keep(advice.found)
        action = advice.action
        picks = action.cards if isinstance(action, (Bury, Play)) else (action.card,) \
            if isinstance(action, Call) else ()
        desk.hint = tuple(coaching.advice(advice))
        return Outcome(False, picks=picks or None)  # words for the seat: the table is as it was

    def friend_odds(self, seat: int) -> Outcome:
        """The coach's estimate of each other seat's chance of being the friend (advice, not a rule)."""
        view = self.game.view(seat)
        if view.phase is not Phase.PLAYING or view.friend_card is None or view.solo or view.friend is not None:
            text: tuple[Text, ...] | None = (coaching.situation(view)[-1],) if view.phase is Phase.PLAYING else None
        else:
            chances = coach.friend_chances(view, self.rules, seed=self.game.seed)
            text = friend_lines(view, chances, coach.LAYOUTS)
        self.desks[seat].hint = text
        return NOTHING

    # ------------------------------------------------------------ the coach's review

    def _ahead(self, seat: int) -> Ahead | None:
        ahead = self.desks[seat].ahead
        return ahead if ahead is not None and ahead.game is self.game and ahead.seat == seat else None

    def review_ready(self, seat: int) -> bool:
        """Every play ``seat`` made this hand is weighed for the review (and it made one)."""
        desk = self.desks[seat]
        if desk.coach is not None or desk.weighed is not None:
            return True
        ahead = self._ahead(seat)
        return ahead is not None and ahead.reviewed and any(
            isinstance(a, Play) and a.seat == seat for a in self.game.history)

    def weigh_step(self, seat: int, *, before_end: bool) -> bool:
        """One step of the coach's weighing for ``seat`` (:class:`tutor.play.ahead.Ahead`): the
        position it is to play in, else one of its plays for the review — while the hand is
        played only if ``before_end``, else once it is over. True if there is more to weigh."""
        game, desk = self.game, self.desks[seat]
        if desk.coach is not None or desk.weighed is not None or self.retrying is not None or \
                desk.ahead_failed is game or game.phase not in (Phase.PLAYING, Phase.FINISHED) or \
                (game.phase is Phase.PLAYING and not before_end):
            return False
        ahead = self._ahead(seat)
        if ahead is None:
            ahead = desk.ahead = Ahead(game, seat, seed=game.seed)
        try:
            return ahead.step(to_play=game.actor == seat and game.phase is Phase.PLAYING)
        except TutorError:  # weighed again when asked for
            desk.ahead, desk.ahead_failed = None, game
            return False

    def review(self, seat: int) -> Outcome:
        """The coach's review of ``seat``'s plays once the hand is over: each costly play is
        kept to come back (:meth:`Mistakes.keep`) and the page is to store the positions."""
        desk = self.desks[seat]
        if self.game.phase is not Phase.FINISHED:
            return self.note(seat, coaching.review_waits())
        if desk.coach is not None:
            return NOTHING
        ahead = self._ahead(seat)
        desk.coach = desk.weighed if desk.weighed is not None else ahead.review() if ahead is not None else \
            coach.review(self.game, seat, seed=self.game.seed)
        costly = [(d.index, format_cards(d.played)) for d in sorted(desk.coach, key=lambda d: d.index) if d.costly]
        if costly:
            try:
                kept = desk.positions.keep(export_hand(self.game), seat, costly, self.clock())
            except MistakesError:  # a hand too long to keep (none the table plays): not kept
                pass
            else:
                before = {item.key for item in desk.positions.kept}
                desk.kept_here |= {item.key for item in kept.kept} - before
                self._store(seat, kept)
        return DONE

    def _store(self, seat: int, positions: Mistakes) -> None:
        desk = self.desks[seat]
        desk.positions = positions
        if desk.synced:
            desk.to_store = positions

    def sync(self, seat: int, stored: object) -> Outcome:
        """Take the positions ``seat``'s browser stored (None: nothing). The stored ones are
        the base, with those kept here since that are not among them yet; what could not be
        read is left out, with a note. A table opened to review them begins (:meth:`review_due`)."""
        desk = self.desks[seat]
        read, problem = Mistakes.from_json(stored)
        known = {item.key for item in read.kept}
        mine = tuple(item for item in desk.positions.kept
                     if item.key not in known and (problem is not None or item.key in desk.kept_here))
        desk.kept_here -= known
        merged = Mistakes((*read.kept, *mine)[-MAX_KEPT:]) if mine else read
        desk.positions, desk.synced = merged, True
        if merged != read:
            desk.to_store = merged
        if self.store_waiting:
            self.review_due(seat)
        if problem is not None:
            return Outcome(True, self.note(seat, Text("Some positions kept in this browser to review could not be "
                                                      "read and were left out: {problem}", problem=problem)).feedback)
        return DONE

    def wait_for_store(self) -> None:
        """Opened to review the kept positions: wait for the browser's stored ones (:meth:`sync`)."""
        self.store_waiting = True

    # ------------------------------------------------------------ learn from your mistakes (one learner)

    def _alone(self, seat: int) -> bool:
        return self.learners == {seat}

    def learn_from_mistakes(self, seat: int) -> Outcome:
        """After the review, the same deal replayed to each costly decision of the learner in
        turn: they try again, may ask for the answer or skip; then the next, then a summary."""
        if self.retrying is not None or not self._alone(seat):
            return NOTHING
        if self.game.phase is not Phase.FINISHED:
            return self.note(seat, coaching.review_waits())
        reviewed = self.review(seat).done
        decisions = self.desks[seat].coach or ()
        costly = tuple(sorted((d for d in decisions if d.costly), key=lambda d: d.index))
        if not costly:
            return Outcome(reviewed, self.note(seat, Text("The coach found no costly play to try again: none of your "
                                                          "plays cost more than its margin of error.")).feedback)
        self.retrying = Retrying(self.game, costly)
        self.desks[seat].summary = None
        self._goto_mistake(seat)
        return DONE

    def try_again(self, seat: int, cards: CardsLike) -> Outcome:
        """The learner's new try at the mistake under way: refused as the rules refuse it,
        else weighed by the coach (:func:`tutor.play.coach.retry`)."""
        lesson = self.retrying
        if lesson is None or lesson.status is not RetryStatus.TRYING or not self._alone(seat):
            return NOTHING
        parsed = self._parsed(seat, cards)
        if isinstance(parsed, Outcome):
            return parsed
        try:
            tried = coach.retry(self.game.view(seat), parsed, self.rules, seed=self.game.seed,
                                found=lesson.decision.found)
        except IllegalActionError as error:
            return self.refuse(seat, error.rule, error.reason)
        best = tried.best
        error_margin = format(coach.margin(tried.error), ".1f")
        if tried.accepted:
            lesson.status = RetryStatus.FOUND
            lesson.outcomes.append(Tried.FOUND)
            self._answered(seat, accepted=True, helped=False)
            words = Text("Advice, not a rule: well found. {cards} is the coach's choice too.", cards=tried.tried) \
                if tried.value == best else Text(
                "Advice, not a rule: well found. {cards} is within the coach's margin of its best play, {best} "
                "(about {cost} less, within ±{error}).", cards=tried.tried, best=best.play,
                cost=format(tried.cost, ".1f"), error=error_margin)
        else:
            self._answered(seat, accepted=False, helped=False)  # the first try counts, as a drill's first answer
            words = Text("Advice, not a rule: {cards} still costs about {cost} points of the score table against the "
                         "coach's best (more than its margin of error, ±{error}). Try another play, or show the "
                         "answer.", cards=tried.tried, cost=format(tried.cost, ".1f"), error=error_margin)
        lesson.said = (words, coaching.weighed_play(tried.value, lesson.decision.view.trump))
        self.desks[seat].feedback = None
        return DONE

    def show_answer(self, seat: int) -> Outcome:
        """The coach's best play at the mistake under way, with its words (the learner was helped)."""
        lesson = self.retrying
        if lesson is None or lesson.status is not RetryStatus.TRYING or not self._alone(seat):
            return NOTHING
        decision = lesson.decision
        best, played = decision.found.best, decision.found.value_of(decision.played)
        assert played is not None  # the review weighed the play made
        lesson.status = RetryStatus.SHOWN
        lesson.outcomes.append(Tried.SHOWN)
        self._answered(seat, accepted=False, helped=True)
        lesson.said = (Text("Advice, not a rule: the coach's answer is {cards} — expected {value} against {mine} for "
                            "{played}, the play you made: {why}.", cards=best.play,
                            value=coaching.signed(best.expected), mine=coaching.signed(played.expected),
                            played=decision.played, why=coaching.why_better(decision)),
                       coaching.weighed_play(best, decision.view.trump))
        self.desks[seat].feedback = None
        return Outcome(True, picks=tuple(best.play))

    def next_mistake(self, seat: int, *, skip: bool) -> Outcome:
        """Leave the mistake under way untried (``skip``), or go on once it is found or shown."""
        lesson = self.retrying
        if lesson is None or skip != (lesson.status is RetryStatus.TRYING) or not self._alone(seat):
            return NOTHING
        if lesson.status is RetryStatus.TRYING:
            lesson.outcomes.append(Tried.SKIPPED)
        lesson.at += 1
        self._goto_mistake(seat)
        return DONE

    def leave_mistakes(self, seat: int) -> Outcome:
        """Back to the reviewed hand (reviewing the kept positions: the review ends, a new hand is dealt)."""
        if not self._alone(seat):
            return NOTHING
        if self.due is not None:
            self._end_review(seat)
            return DONE
        if self.retrying is not None:
            self.retrying.at = len(self.retrying.decisions)
            self._goto_mistake(seat)
            return DONE
        return NOTHING

    def _replay(self, source: Game, upto: int, seat: int) -> None:
        """The same deal as ``source`` replayed to ``upto`` actions, told to the learner's seat."""
        self.game = Game(source.seed, source.rules, source.deck)
        self.plays, self.last_trick = 0, None
        desk = self.desks[seat]
        desk.log, desk.throws = [], {}
        for action in source.history[:upto]:
            self.witness(self.game.apply(action))
        desk.offer = False

    def _goto_mistake(self, seat: int) -> None:
        lesson = self.retrying
        assert lesson is not None
        done = lesson.at >= len(lesson.decisions)
        if done and self.due is not None:  # reviewing the kept positions: on to the next
            self.due.outcomes.append(lesson.outcomes[-1] if lesson.outcomes else Tried.SKIPPED)
            self.due.at += 1
            self._goto_due(seat)
            return
        lesson.status, lesson.said = RetryStatus.TRYING, ()
        desk = self.desks[seat]
        coach_kept = desk.coach
        self._replay(lesson.finished, len(lesson.finished.history) if done else lesson.decision.index, seat)
        desk.coach = coach_kept
        desk.feedback, desk.hint = None, None
        if done:
            self.retrying = None
            outcomes = Counter(lesson.outcomes)
            desk.summary = Text.plural(
                "Learn from your mistakes (advice, not rules): you found a good play yourself in {found} of "
                "{count} position; the answer was shown in {shown}, and {skipped} skipped.",
                "Learn from your mistakes (advice, not rules): you found a good play yourself in {found} of "
                "{count} positions; the answer was shown in {shown}, and {skipped} skipped.",
                count=len(lesson.decisions), found=outcomes[Tried.FOUND], shown=outcomes[Tried.SHOWN],
                skipped=len(lesson.decisions) - outcomes[Tried.FOUND] - outcomes[Tried.SHOWN])

    def review_due(self, seat: int) -> Outcome:
        """Replay the kept positions due now, most overdue first, one by one, in the retry mode
        of :meth:`learn_from_mistakes`; each outcome is reported to the store."""
        self.store_waiting = False
        due = self.desks[seat].positions.due(self.clock())
        if not due:
            return Outcome(True, self.note(seat, Text(
                "No positions from your own hands are due for review now. Play a new hand instead: your costly plays "
                "come back here when they are due.")).feedback)
        self.due = DueReview(tuple(due))
        self._goto_due(seat)
        return DONE

    def _goto_due(self, seat: int) -> None:
        review = self.due
        assert review is not None
        desk = self.desks[seat]
        while review.at < len(review.positions):
            kept = review.kept
            try:
                before = kept.position()
            except MistakesError as error:
                self._store(seat, desk.positions.forget(kept.key))
                review.outcomes.append(Tried.GONE)
                review.at += 1
                self.note(seat, Text("A kept position could not be replayed and is no longer kept: {problem}",
                                     problem=said(error)))
                continue
            whole = import_hand(kept.hand)  # it replays: position() has just replayed it
            action = whole.history[kept.index]
            assert isinstance(action, Play)  # Kept.position() checked it
            made = coach.decision(before.view(kept.seat), action.cards, kept.index, before.rules, seed=before.seed)
            if made is None:  # the rules left one play there (a tampered store)
                self._store(seat, desk.positions.forget(kept.key))
                review.outcomes.append(Tried.GONE)
                review.at += 1
                continue
            note = desk.feedback
            seat = self._move_learner(kept.seat)
            self.retrying = Retrying(whole, (made,))
            self._goto_mistake(seat)
            if note is not None and note.kind is Said.NOTE:
                desk.feedback = note  # a position left out is still said
            return
        self._end_review(seat)

    def _end_review(self, seat: int) -> None:
        review = self.due
        assert review is not None
        lesson = self.retrying
        if lesson is not None and lesson.outcomes and len(review.outcomes) == review.at < len(review.positions):
            review.outcomes.append(lesson.outcomes[-1])  # left after finding or seeing the answer
        outcomes = Counter(review.outcomes)
        count = len(review.positions) - outcomes[Tried.GONE]
        words = Text.plural(
            "Your positions to review (advice, not rules): you found a good play yourself in {found} of {count} "
            "position; the answer was shown in {shown}, and {skipped} skipped. A new hand is dealt.",
            "Your positions to review (advice, not rules): you found a good play yourself in {found} of {count} "
            "positions; the answer was shown in {shown}, and {skipped} skipped. A new hand is dealt.",
            count=count, found=outcomes[Tried.FOUND], shown=outcomes[Tried.SHOWN],
            skipped=count - outcomes[Tried.FOUND] - outcomes[Tried.SHOWN])
        self.start(Game(fresh_seed(), self.rules))
        self.note(self.home, words)

    def _answered(self, seat: int, *, accepted: bool, helped: bool) -> None:
        if self.due is not None:
            desk = self.desks[seat]
            self._store(seat, desk.positions.answered(self.due.kept.key, accepted, helped, self.clock()))

    # ------------------------------------------------------------ deals and hand files

    def restart(self) -> Outcome:
        """The same deal from the start (the computer players at the level chosen last)."""
        self.start(Game(self.game.seed, self.game.rules, self.game.deck))
        return DONE

    def new_deal(self, seed: int | None = None) -> Outcome:
        self.start(Game(fresh_seed() if seed is None else seed_number(seed), self.rules))
        return DONE

    def choose_level(self, level: int) -> Outcome:
        """The computer players' level from the next hand dealt (refused with TutorError if none)."""
        self.next_level = check_level(level)
        return DONE

    def replay_from(self, seat: int, trick: object) -> Outcome:
        """The same deal again from trick ``trick`` (1 is the first) of this hand (or of the
        reviewed hand, while its mistakes are tried again)."""
        source = self.retrying.finished if self.retrying is not None else self.game
        played = len(source.view(seat).tricks)
        if type(trick) is not int:
            return self.refuse(seat, "", Text("there is no such trick in this hand to play again from"))
        if not 1 <= trick <= played:
            return self.refuse(seat, "", Text("there is no trick {trick} in this hand to play again from",
                                              trick=str(trick)[:12]))
        replay, index = Game(source.seed, source.rules, source.deck), len(source.history)
        for at, action in enumerate(source.history):
            if replay.phase is Phase.PLAYING and not replay.trick and len(replay.tricks) == trick - 1:
                index = at
                break
            replay.apply(action)
        self.start(Game(source.seed, source.rules, source.deck), Text("Playing the deal again from trick {n}.",
                                                                     n=trick))
        for action in source.history[:index]:
            self.witness(self.game.apply(action))
        for desk in self.desks.values():
            desk.offer = False
        return DONE

    def export(self, seat: int, *, actions: bool = True) -> Outcome:
        """The hand as a small text file, with ``seat``'s coach's review as comment lines when asked for."""
        game = self.retrying.finished if self.retrying is not None else self.game
        text = export_hand(game, actions=actions, opponents=self.level)
        review = self.desks[seat].coach
        comments = (coaching.review_heading(review), *map(coaching.decision_line, review)) \
            if actions and review is not None else ()
        name = f"qidong-hand-{game.seed}{'' if actions else '-deal'}.txt"
        return Outcome(True, download=HandFile(name, text, tuple(comments)))

    def load(self, text: object) -> Outcome:
        """Take a hand file: the hand continues where the record stops, the computer players at
        the level it names. A broken or tampered file is refused (``load_error``); the hand goes on."""
        if not isinstance(text, str) or not _encodable(text):
            return Outcome(False, load_error=Text("This hand file could not be read: it is too large, or not a "
                                                  "text file."))
        if len(text) > MAX_CHARS:  # the hand file's own bound, checked before anything is read
            return Outcome(False, load_error=Text("This hand file could not be read: it is far too long."))
        try:
            record = read_hand(text)
        except TutorError as error:  # a HandFileError: its reason names the line
            problem = said(error)
            return Outcome(False, load_error=Text("This hand file could not be read: {problem}", problem=problem)
                           if isinstance(problem, Text) else
                           Text("This hand file could not be read: it is not a hand file of this course."))
        game = record.game
        self.start(Game(game.seed, game.rules, game.deck), Text("Opened a hand file (seed {seed}).", seed=game.seed),
                   record.opponents)
        for event in game.events:
            self.witness(self.game.apply(event.action))
        for seat in self.desks:
            self._check_offer(seat)
        return DONE


def friend_lines(view: SeatView, chances: Sequence[float], layouts: int) -> tuple[Text, ...]:
    """Who is likely the friend, as the table says it (advice, not a rule): in words first,
    then each seat's chance."""
    me, card = view.seat, view.friend_card
    seats = [seat for seat in range(len(chances)) if seat != view.declarer and seat != me]
    top = max(chances[seat] for seat in seats)
    likeliest = [seat for seat in seats if chances[seat] == top]
    share = round(100 * top)
    if top >= 1.0:
        first = Text("Advice, not a rule: in every one of the {count} deals of the hidden cards the coach tries, "
                     "{who} holds {card}: the friend (F2).", count=layouts, who=narration.who(likeliest[0], me),
                     card=card)
    else:
        first = Text.plural("Advice, not a rule: the friend is most likely {who} (about {share}%), from the {deals} "
                            "deals of the hidden cards the coach tries (F2).",
                            "Advice, not a rule: the friend is {who}, equally likely (about {share}% each), from the "
                            "{deals} deals of the hidden cards the coach tries (F2).", count=len(likeliest),
                            who=and_list([narration.who(seat, me) for seat in likeliest]), share=share, deals=layouts)
    each = and_list([Text("{who} about {share}%", who=narration.who(seat, me), share=round(100 * chances[seat]))
                     for seat in seats])
    return first, Text("Each seat's chance of holding the other {card}: {chances}.", card=card, chances=each)


def _reason(error: TutorError, plain: Text) -> str:
    """A refusal's reason: the tutor's own words, else ``plain`` (Python's words never reach the page)."""
    words = said(error)
    return words if isinstance(words, Text) else plain


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeError:
        return False
    return True


def utc_now() -> datetime:
    """The time now in UTC (a session's clock when none is given)."""
    return datetime.now(timezone.utc)


def fresh_seed() -> int:
    """A new seed for a fresh deal: any seed from 0 to :data:`tutor.core.arguments.MAX_SEED`."""
    return secrets.randbelow(MAX_SEED + 1)

