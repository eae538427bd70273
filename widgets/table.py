"""The table: the learner plays a whole hand at a five-seat table with four computer
players, from the deal to the score. Every decision is the rules engine's
(:class:`tutor.rules.game.Game`: whose turn it is, what may be done, every refusal); every
sentence about the game is :mod:`tutor.teach.narration`'s; the computer players are
:class:`tutor.play.strategy.ComputerPlayer`. This module holds the widget only.

The kernel never waits on a clock. The front end asks for the next step (a card dealt,
a computer player's move) after its pause — ``deal_ms`` per card while dealing,
``pause_ms`` per computer move — so a learner can follow, and the kernel answers each
step at once. With both pauses 0 the table runs as fast as the messages travel.

Messages from the front end (dicts with ``type``): ``step`` (``version``: the state it
was asked from; a stale step is ignored), ``act`` (``verb``: play, bury or call;
``cards``: the picked cards' texts; ``selected``: their positions — one message, no
race), ``declare`` (``option``: an index into the offered declarations), ``pass``,
``solo``, ``hint``, ``export`` (``actions``: whole hand or the deal only), ``import``
(``text``), ``restart`` (same deal), ``new`` (a fresh deal), ``stop_to_declare``
(``value``: true or false), ``opponents`` (``level``: one of :data:`tutor.play.strategy.LEVELS`,
the computer players' level from the next hand dealt), ``coach_review``, ``friend_odds`` (who is
likely the friend: :func:`tutor.play.coach.friend_chances`), ``replay`` (``trick``: the number of
a trick played: the same deal again from it); after the review, *learn from your mistakes*
(:meth:`Table.learn_from_mistakes`): ``mistakes`` (start), then the learner's tries as ``act``
plays, ``retry_answer`` (show the coach's answer), ``retry_skip``, ``retry_next`` and
``retry_leave`` (back to the review); ``sync`` (``mistakes``: the text the browser stores under
:attr:`Table.mistakes_key`, or null); the page sets ``selected``, ``pause_ms`` and ``deal_ms``.

The learner's own mistakes come back (:mod:`tutor.teach.mistakes`): the browser keeps the costly
plays of the learner's reviewed hands (``localStorage``, :data:`tutor.teach.mistakes.MISTAKES_KEY`)
and hands them to the kernel when the table starts (``sync``); the kernel reads them
(:meth:`tutor.teach.mistakes.Mistakes.from_json`: tampered text gives a note, and whatever is
readable is kept), keeps each costly play the coach's review finds (:meth:`Table.review_play`),
and sends back what to store (:attr:`Table.mistakes_json`, never before the stored positions
arrived, and always with them: nothing stored is lost). Opened with ``review=mistakes``
(:data:`tutor.teach.mistakes.REVIEW_LINK`), the table waits for them (:attr:`Table.waiting`:
``"store"``) and replays the positions due, most overdue first, in the retry mode of *learn
from your mistakes*, each outcome reported to the store (:meth:`Table.review_due`).

Work under way: a message may carry ``request`` (the page's id of it, a whole number);
the kernel answers each such message once it is handled — done, ignored or failed — in
:attr:`Table.handled`, and the page shows the work as under way until then (the pressed
button busy; "The coach is thinking…" while a hint is searched for, which takes up to a
second). The learner's actions also carry the ``version`` of the state they were made
on: a game action made on a state no newer than the one the same action was last carried
out on is a repeat (a second click) and is ignored, as is a ``hint`` for the state and
picked cards (``selected``, sent with it) of the hint already given, and any action
arriving while the same action is under way. A message without them is taken as it is.

Anything else or anything malformed is ignored or answered with a note in the widget (a
refusal naming the rule, a hand file that cannot be read), and changes nothing else —
never a traceback, never Python's own words (see :class:`widgets._common.PageWidget`).
Sizes are checked before anything is read (:data:`MAX_PICK`, a hand file's
:data:`tutor.play.record.MAX_CHARS`).

>>> table = Table(seed=3, pause_ms=0, deal_ms=0, stop_to_declare=False)
>>> table.run()
'learner'
>>> table.game.phase.value in ("burying", "calling", "playing")
True
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import count
from typing import Any, Final, TypeGuard

import traitlets as t

from tutor.core.clock import counts_cpu
from tutor.play import coach
from tutor.play.ahead import Ahead
from tutor.teach import coaching, narration
from tutor.play.coach import Decision
from tutor.core import arguments
from tutor.core.arguments import MAX_EXACT, MAX_SEED, seed_number
from tutor.rules.cards import KITTY_SIZE, PLAYERS, Card, format_cards
from tutor.teach.course import REVIEWS, parse_link
from tutor.teach.mistakes import MAX_KEPT, MISTAKES_KEY, REVIEW, Kept, Mistakes, MistakesError
from tutor.teach.display import cards_html, trick_html
from tutor.core.errors import IllegalActionError, TutorError
from tutor.rules.game import (
    Bury,
    Call,
    Declare,
    Event,
    Game,
    HandScored,
    KittyCaptured,
    Phase,
    Play,
    Played,
    Redealt,
    SeatView,
    Solo,
    ThrowFailed,
    TrickWon,
)
from tutor.core.i18n import N_, Text, and_list, capitalized
from tutor.rules.notation import CardsLike, parse_cards
from tutor.rules.order import Trump
from tutor.play.record import MAX_CHARS, export_hand, import_hand, read_hand
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.scoring import side_name
from tutor.play.strategy import LEVELS, MAX_THINK, ComputerPlayer, check_level, next_action
from widgets._common import COMMON_JS, CSS, FAILED, STATIC, PageWidget, hand_payload, positions_ok, problem_of, \
    translator, utc_now

ESM: Final = COMMON_JS + (STATIC / "table.js").read_text("utf-8")
TABLE_CSS: Final = CSS + (STATIC / "table.css").read_text("utf-8")

MAX_PICK: Final = 40
"""More picked cards than this are junk, refused before any check."""
MAX_CARD_TEXT: Final = 8
"""A picked card's text is at most this long (``♠10`` is three characters)."""
MAX_PAUSE_MS: Final = 10_000
"""The page may set a pause of 0 to this many milliseconds."""
LOG_SHOWN: Final = 8
"""*What happened* shows the last this many lines of the hand's log, each numbered by its
place in the whole log (``log_start`` is the number of the first shown)."""

LEVEL_NAMES: Final = {
    1: N_("rules of thumb"),
    2: N_("think a little"),
    3: N_("think hard"),
}
"""Each level of the computer players (:data:`tutor.play.strategy.LEVELS`) in a few words."""
LEVEL_EXPLAINED: Final = {
    1: N_("They play at once, by simple rules of thumb. The best place to start."),
    2: N_("Before each card they imagine a few ways the hidden cards could lie and try their choices "
          "out. Harder to beat."),
    3: N_("They imagine many more ways the hidden cards could lie before each card, and take a moment "
          "to think. The strongest."),
}
"""What each level means, for a newcomer."""
OFFERED_LEVELS: Final = tuple(level for level in LEVELS if level in LEVEL_NAMES and level in LEVEL_EXPLAINED)
"""The levels the learner may choose (every one of :data:`tutor.play.strategy.LEVELS`)."""

TABLE_LABELS: Final = {
    "hand": N_("Your hand"),
    "selected": N_("{card}: selected."),
    "deselected": N_("{card}: not selected."),
    "picked": N_("{count} picked."),
    "picked_of": N_("{count} of {pick} picked."),
    "play": N_("Play"),
    "bury": Text.plural("Bury this card", "Bury these {count}", count=KITTY_SIZE),
    "call": N_("Call this card"),
    "solo": N_("Go solo"),
    "pass": N_("Don't declare"),
    "declare": N_("Declare {cards}"),
    "hint": N_("What would you play?"),
    "busy_hint": N_("The coach is thinking…"),
    "busy_review": N_("The coach is going through your hand…"),
    "stuck": N_("This is taking longer than it should. Try again, or reload the page: your progress is kept."),
    "pause": N_("Pause"),
    "resume": N_("Resume"),
    "speed": N_("Computer players"),
    "deal_speed": N_("Dealing"),
    "slow": N_("slow"),
    "normal": N_("normal"),
    "fast": N_("fast"),
    "instant": N_("instant"),
    "stop_to_declare": N_("Stop the deal when I can declare"),
    "points": N_("{points} points"),
    "you": N_("You"),
    "seat": N_("Seat {seat}"),
    "export": N_("Download this hand"),
    "export_deal": N_("Download the deal only"),
    "import": N_("Open a hand file…"),
    "share": N_("Link to this deal:"),
    "copy": N_("Copy"),
    "copied": N_("Copied."),
    "restart": N_("Play this deal again"),
    "new": N_("New deal"),
    "refused": N_("Refused"),
    "rule": N_("Rule {rule}"),
    "review": N_("Trick by trick"),
    "coach_review": N_("Review my play (the coach)"),
    "coach_hand": N_("Your hand then"),
    "coach_trick": N_("The trick then"),
    "coach_weighed": N_("Plays the coach weighed"),
    "log": N_("What happened"),
    "score": N_("The score"),
    "kitty": N_("The kitty"),
    "paused": N_("Paused."),
    "ms": N_("{ms} ms"),
    "opponents": N_("Opponents"),
    "opponents_when": N_("A new choice applies from the next hand dealt; the hand in progress stays as it began."),
    "learn": N_("Learn from your mistakes"),
    "retry_answer": N_("Show the answer"),
    "retry_skip": N_("Skip"),
    "retry_next": N_("Next mistake"),
    "retry_end": N_("See how you did"),
    "retry_leave": N_("Back to the review"),
    "retry_stop": N_("Stop reviewing"),
    "replay_from": N_("Play again from this trick"),
    "friend_odds": N_("Who is the friend?"),
}
"""Every fixed text of the front end, as English templates for :class:`Translator`."""

_log: Final = logging.getLogger(__name__)
_tokens = count(1)

ONCE_PER_STATE: Final = frozenset({"act", "declare", "pass", "solo", "restart", "new", "replay", "mistakes",
                                   "retry_answer", "retry_skip", "retry_next", "retry_leave"})
"""The learner's actions that change the game: one per state the page showed."""


@dataclass(slots=True)
class Retrying:
    """*Learn from your mistakes* under way (:meth:`Table.learn_from_mistakes`): the reviewed
    hand (``finished``), its costly decisions in the order they were made, the one the
    learner is at (``at``), where they are with it (``status``: ``"trying"``, ``"found"``
    — a try within the coach's margin —, ``"shown"``, the answer shown), what the coach
    said of the last try (``said``), and each decision's outcome so far (``found``,
    ``shown`` or ``skipped``)."""

    finished: Game
    decisions: tuple[Decision, ...]
    at: int = 0
    status: str = "trying"
    said: list[str] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)

    @property
    def decision(self) -> Decision:
        return self.decisions[self.at]


@dataclass(slots=True)
class DueReview:
    """The review of the learner's kept positions under way (``review=mistakes``,
    :meth:`Table.review_due`): the positions due when it began, most overdue first, the one
    the learner is at (``at``), and each one's outcome so far (``found``, ``shown``,
    ``skipped``; ``gone``: its hand no longer replays)."""

    positions: tuple[Kept, ...]
    at: int = 0
    outcomes: list[str] = field(default_factory=list)

    @property
    def kept(self) -> Kept:
        return self.positions[self.at]


class Table(PageWidget):
    """A whole hand at the table, the learner in ``seat``.

    ``seed`` decides the deal and the computer players' choices (same seed, same game);
    ``None`` draws a fresh one. ``record`` is a hand file's text (:func:`export_hand`) to
    start from instead. ``level`` is the computer players' level
    (:data:`tutor.play.strategy.LEVELS`); the learner may choose another, which applies from
    the next hand dealt (:meth:`choose_level`). :attr:`level` is the level of the hand
    in progress, :attr:`next_level` the one chosen for the next.
    """

    _esm = ESM
    _css = TABLE_CSS
    _page_sets = frozenset({"selected", "pause_ms", "deal_ms"})
    weigh_ahead = not counts_cpu()
    """Weigh while the learner thinks, a layout at a time between the page's requests: first
    the position the learner is to play in, as the hint weighs it (:func:`tutor.play.coach.judge_steps`),
    then the learner's plays for the coach's review (:class:`tutor.play.coach.Reviewing`), so
    that "What would you play?" and "Review my play" answer at once. In the browser (the
    static site), where the work is done by the learner's own machine; not by default on a
    server that many learners share, which weighs a hint when asked, and the review once the
    hand is over (:attr:`weigh_after_hand`)."""
    weigh_after_hand = True
    """Once the hand is over, weigh the learner's plays for the review the same way, while
    the learner reads the score, so that "Review my play" answers at once — on a server too:
    one review's CPU (about a second) for each hand a learner finishes, spent as the hand
    ends rather than while it is played. Asked for sooner, the review finishes the rest."""
    state = t.Dict().tag(sync=True)
    """What the front end draws: seats, trick, prompts, score, review …"""
    hand = t.List(t.Dict()).tag(sync=True)
    """The learner's hand in held order, as the front end draws it."""
    selected = t.List(t.Int()).tag(sync=True)
    """Picked cards: positions in :attr:`hand`."""
    feedback = t.Dict().tag(sync=True)
    """The last refusal (``rule``, ``reason``) or note, with an ``id``; ``{}`` when none."""
    hint_text = t.Unicode("").tag(sync=True)
    labels = t.Dict().tag(sync=True)
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
    """The language of every text (the front end marks the widget's own element with it;
    the page's ``<html lang>`` is the server's)."""
    handled = t.Dict().tag(sync=True)
    """The page's last request handled (see the module): ``request`` (its id), ``type``,
    ``ignored`` (a repeat) and ``work`` (the requests carried out so far by this table).
    It is sent with what the request changed, and ends the page's busy state."""
    mistakes_key = t.Unicode(MISTAKES_KEY).tag(sync=True)
    """Where the browser keeps the positions of the learner's own hands to review
    (``localStorage``): the page sends what is stored there (``sync``) when the table starts."""
    mistakes_json = t.Unicode("").tag(sync=True)
    """What the page is to store under :attr:`mistakes_key` (``""``: nothing new to store):
    the stored positions with this table's kept or answered ones, sent only once the stored
    ones have arrived."""
    review_weighed = t.Bool(False).tag(sync=True)
    """:attr:`review_ready`, for the page (its ``data-review-weighed``): every play the learner
    made is weighed for the coach's review."""
    synced = t.Bool(False).tag(sync=True)
    """The browser's stored positions have been taken: the front end marks the table
    ``data-synced`` (what scripts and tests wait for)."""

    def __init__(self, seed: int | None = None, *, seat: int = 0, lang: str | None = None, pause_ms: int = 450,
                 deal_ms: int = 150, stop_to_declare: bool = True, rules: Ruleset = DEFAULT_RULES,
                 record: str | None = None, four_colour: bool = False, level: int = 1, review: str = "",
                 clock: Callable[[], datetime] | None = None, **kwargs: Any) -> None:
        """``lang``: one of :data:`tutor.core.i18n.LANGUAGES`; by default the kernel's
        language (:func:`tutor.core.i18n.current`). ``review``: ``"mistakes"``
        (:data:`tutor.teach.mistakes.REVIEW`) to replay the learner's kept positions that are
        due once the browser's stored positions arrive, ``""`` (the default) for a hand as
        usual — lesson 10 passes its link's ``review=``. ``clock``: the time now (UTC), for
        scheduling the kept positions (by default the system's)."""
        if review not in ("", *REVIEWS):
            raise TutorError(Text("the table reviews {reviews}, not {review}", reviews=and_list(REVIEWS),
                                  review=str(review)[:40]), parameter="review")
        self.seat = self._home_seat = arguments.seat(seat)
        self._clock = clock or utc_now
        self.positions = Mistakes()
        self._kept_here: set[str] = set()  # the keys this table kept that the browser may not hold yet
        """The positions of the learner's own hands kept to review, as this table holds them."""
        self._due: DueReview | None = None
        self._review_waiting = False
        self.next_level = check_level(level)
        self.tr = translator(lang)
        self._levels = [{"level": n, "label": self.tr("Level {level}: {name}", level=n, name=self.tr(LEVEL_NAMES[n])),
                         "explain": self.tr(LEVEL_EXPLAINED[n])} for n in OFFERED_LEVELS]
        self.rules = rules
        self._version = 0
        self._order: list[Card] = []
        self._acted: dict[str, int] = {}  # action type -> the version it was last carried out on
        self._hinted: tuple[int, tuple[int, ...]] | None = None  # the hint given: (version, picked cards)
        self._under_way: set[str] = set()  # the page's actions being handled now
        self._work = 0  # the page's requests carried out (not ignored)
        self._step_asked: asyncio.TimerHandle | None = None  # the next step of _weigh_next, asked of the event loop
        self._ahead_failed: Game | None = None  # the game whose plays could not be weighed ahead
        super().__init__(labels={k: self.tr(v) for k, v in TABLE_LABELS.items()}, pause_ms=max(0, pause_ms),
                         deal_ms=max(0, deal_ms), stop_to_declare=stop_to_declare, four_colour=four_colour,
                         lang=self.tr.language, **kwargs)
        self.on_msg(self._on_message)
        self._start(Game(fresh_seed() if seed is None else seed_number(seed), rules))
        if record is not None:
            self.load(record)
        if review == REVIEW:
            self._review_waiting = True  # for the browser's stored positions (sync)
            self._publish()

    # ------------------------------------------------------------ the flow

    def _start(self, game: Game, note: str = "", level: int | None = None) -> None:
        """Begin a hand: its computer players at ``level`` (a hand file's), else the level
        chosen last (:attr:`next_level`), thinking through all their layouts (the longest
        think-time), so that a deal's link plays the same on a busy or a slow machine."""
        self.seat = self._home_seat  # a kept position of another seat may have been reviewed
        self.game = game
        self.level = self.next_level if level is None else level
        self.bots = {s: ComputerPlayer(s, game.seed, game.rules, level=self.level, think=MAX_THINK)
                     for s in range(PLAYERS) if s != self.seat}
        self._coach: tuple[Decision, ...] | None = None
        self._ahead: Ahead | None = None  # what the coach weighed while the learner thought (weigh_ahead)
        self._mistakes: Retrying | None = None
        self._mistakes_said = ""  # the summary of the last round of mistakes tried again
        self._due = None
        self._review_waiting = False
        self._offered: set[tuple[Card, ...]] = set()
        self._offer = False
        self._end_offer_done = False
        self._log: list[str] = [note] if note else []
        self._throws: dict[int, list[str]] = {}
        self._last_trick: TrickWon | None = None
        self._plays = 0
        self._check_offer()
        with self.hold_sync():
            self.feedback, self.hint_text, self.selected = {}, "", []
            self._publish()

    @property
    def waiting(self) -> str:
        """Who the table waits for, from :attr:`Game.actor`: ``"deal"`` (a chance step:
        the next card; the learner may declare), ``"declare"`` (the deal stopped for the
        learner's declaration), ``"bot"`` (a computer player's move), ``"learner"`` (the
        learner must act), ``"done"``, or ``"store"`` (opened to review the learner's kept
        positions: the browser's stored positions have not arrived yet)."""
        if self._review_waiting:
            return "store"
        game = self.game
        actor = game.actor
        if actor is not None:
            return "learner" if actor == self.seat else "bot"
        if game.phase is Phase.FINISHED:
            return "done"
        return "declare" if self._offer else "deal"

    def step(self) -> bool:
        """One step that is not the learner's: a card dealt or a computer player's move.
        False (and nothing done) when the table waits for the learner or is done."""
        if self.waiting not in ("deal", "bot"):
            return False
        event = self.game.apply(next_action(self.game, self.bots))
        self._after(event)
        self._publish()
        return True

    def run(self, limit: int = 10_000) -> str:
        """Step until the learner must (or, while dealing, may stop to) act; returns
        :attr:`waiting`. For tests and for the pause-free table."""
        for _ in range(limit):
            if not self.step():
                break
        return self.waiting

    # ------------------------------------------------------------ the learner's actions

    def declare(self, option: int | Sequence[Card] | str) -> dict[str, Any]:
        """Declare or overturn with one of :meth:`Game.declaration_options` (an index)
        or with any cards (refused with the rule if they do not declare)."""
        if isinstance(option, bool):
            return self._refuse("D1", self.tr("that declaration is no longer open to you"))
        if isinstance(option, int):
            options = self.game.declaration_options(self.seat)
            if not 0 <= option < len(options):
                return self._refuse("D1", self.tr("that declaration is no longer open to you"))
            cards: tuple[Card, ...] = options[option]
        else:
            try:
                cards = parse_cards(option)
            except TutorError as error:
                return self._refuse("N3", _reason(error, self.tr("those cards could not be read")))
        return self._attempt(lambda: self.game.apply(Declare(self.seat, cards)))

    def pass_declaration(self) -> None:
        """Let the deal go on without declaring now."""
        self._offered.update(self.game.declaration_options(self.seat))
        if self.game.all_dealt:
            self._end_offer_done = True
        self._offer = False
        self._publish()

    def bury(self, cards: Sequence[Card] | str) -> dict[str, Any]:
        return self._attempt_cards(cards, lambda c: self.game.apply(Bury(self.seat, c)))

    def call(self, card: Sequence[Card] | str | Card) -> dict[str, Any]:
        """Call the friend with one card (:meth:`Game.call` refuses any other number)."""
        return self._attempt_cards((card,) if isinstance(card, Card) else card,
                                   lambda c: self.game.call(self.seat, c))

    def go_solo(self) -> dict[str, Any]:
        return self._attempt(lambda: self.game.apply(Solo(self.seat)))

    def play(self, cards: Sequence[Card] | str) -> dict[str, Any]:
        """Play ``cards``; while a mistake is tried again (:meth:`learn_from_mistakes`), they are
        the learner's new try (:meth:`try_again`) and the hand does not go on."""
        if self._mistakes is not None:
            return self.try_again(cards)
        return self._attempt_cards(cards, lambda c: self.game.apply(Play(self.seat, c)))

    def hint(self) -> str:
        """The coach's advice for the learner's seat now (:func:`tutor.play.coach.advise`, said
        by :func:`tutor.teach.coaching.advice`): while the tricks are played, the best plays
        found by search with their expected results, the learner's picked cards weighed
        beside them; before, what the computer player would do. The advised cards are
        picked in the hand (the learner still decides)."""
        if self._mistakes is not None:  # the answer is the learner's to find, or to ask for
            return ""
        view = self.game.view(self.seat)
        asked = tuple(self.selected)
        chosen = [self._order[i] for i in self.selected if i < len(self._order)] or None
        ahead = self._ahead_now()
        if ahead is None and view.phase is Phase.PLAYING:  # kept for the review (weigh_after_hand)
            ahead = self._ahead = Ahead(self.game, self.seat, seed=self.game.seed)
        advice = coach.advise(view, self.rules, seed=self.game.seed, chosen=chosen,
                              judged=ahead.judged() if ahead is not None else None)
        if ahead is not None and chosen is None and advice.found is not None:
            ahead.keep(advice.found)
        action = advice.action
        picks = action.cards if isinstance(action, (Bury, Play)) else (action.card,) \
            if isinstance(action, Call) else ()
        text = " ".join(self.tr(line) for line in coaching.advice(advice))
        with self.hold_sync():
            self.hint_text = text
            if picks:
                self.selected = self._positions(picks)
        self._hinted = (self._version, asked)
        return text

    def review_play(self) -> tuple[Decision, ...]:
        """The coach's review of the learner's plays once the hand is over
        (:func:`tutor.play.coach.review`): shown in the table, kept with the hand file. Each
        costly play is kept to come back (:meth:`tutor.teach.mistakes.Mistakes.keep`: a play
        already kept stays as it is) and the page stores the positions (:attr:`mistakes_json`)."""
        if self.game.phase is not Phase.FINISHED:
            self.feedback = {"kind": "note", "rule": "", "reason": self.tr(coaching.review_waits()),
                             "id": next(_tokens)}
            return ()
        if self._coach is None:
            self._coach = self._weigh_plays()
            costly = [(d.index, format_cards(d.played)) for d in sorted(self._coach, key=lambda d: d.index)
                      if d.costly]
            if costly:
                try:
                    kept = self.positions.keep(export_hand(self.game), self.seat, costly, self._clock())
                except MistakesError:  # a hand too long to keep (none the table plays): not kept
                    pass
                else:
                    before = {item.key for item in self.positions.kept}
                    self._kept_here |= {item.key for item in kept.kept} - before
                    self._store(kept)
            self._publish()
        return self._coach

    def _weigh_plays(self) -> tuple[Decision, ...]:
        """The coach's review of this seat's plays in the finished hand (a seat of a table of
        classmates has it weighed beforehand, away from the server's other tables): what was
        weighed ahead (:attr:`weigh_ahead`, :attr:`weigh_after_hand`), and the rest."""
        ahead = self._ahead_now()
        return ahead.review() if ahead is not None else coach.review(self.game, self.seat, seed=self.game.seed)

    @property
    def review_ready(self) -> bool:
        """True if every play the learner made in this hand is weighed for the coach's review
        (the review itself, or the plays weighed ahead: :attr:`weigh_ahead`, :attr:`weigh_after_hand`) — and the
        learner has made at least one."""
        if self._coach is not None:
            return True
        ahead = self._ahead_now()
        return ahead is not None and ahead.reviewed and any(
            isinstance(action, Play) and action.seat == self.seat for action in self.game.history)

    def _ahead_now(self) -> Ahead | None:
        """What was weighed ahead for this hand and seat, if anything."""
        ahead = self._ahead
        return ahead if ahead is not None and ahead.game is self.game and ahead.seat == self.seat else None

    @property
    def _weighs_now(self) -> bool:
        """True if the table weighs between the page's requests now: :attr:`weigh_ahead`, or
        :attr:`weigh_after_hand` once the hand is over."""
        return self.weigh_ahead or (self.weigh_after_hand and self.game.phase is Phase.FINISHED)

    def _weigh_next(self) -> None:
        """If the table weighs now (:attr:`weigh_ahead`, :attr:`weigh_after_hand`): one step of
        :class:`tutor.play.ahead.Ahead` (the position the learner is to play in, else a play of
        theirs for the review), then ask the event loop to come back for the next; the page's
        requests are handled in between, each waiting at most one step (a few ms)."""
        self._step_asked = None
        game = self.game
        if not self._weighs_now or self._coach is not None or self._mistakes is not None or \
                self._ahead_failed is game or game.phase not in (Phase.PLAYING, Phase.FINISHED):
            return  # (a mistake tried again is weighed as it is tried)
        ahead = self._ahead_now()
        if ahead is None:
            ahead = self._ahead = Ahead(game, self.seat, seed=game.seed)
        to_play = self.waiting == "learner" and game.phase is Phase.PLAYING
        try:
            more = ahead.step(to_play=to_play)
        except TutorError as error:  # weighed again when asked for, which says so
            _log.warning("the coach could not weigh ahead: %s", error)
            self._ahead, self._ahead_failed = None, game
            return
        if more:
            self._weigh_later()
        else:
            self.review_weighed = self.review_ready

    def _weigh_later(self) -> None:
        """Have :meth:`_weigh_next` called soon by the event loop, once (nothing without one)."""
        if not self._weighs_now or self._step_asked is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            if counts_cpu():
                return  # no event loop runs (a script, a test): the coach weighs when asked
            loop = asyncio.get_event_loop()  # the browser's (Pyodide's), running whether asked from it or not
        self._step_asked = loop.call_later(0, self._weigh_next)

    def sync(self, stored: object) -> None:
        """Take the positions the browser stored (:attr:`mistakes_key`; None: nothing stored).
        The stored ones are the base, with those this table kept since they last arrived and
        that are not among them yet (the page stores the two together); a position another page
        removed (cleared, or given way) stays removed. What could not be read is left out, with
        a note. On the first, a table opened to review (``review=mistakes``) begins
        (:meth:`review_due`)."""
        read, problem = Mistakes.from_json(stored)
        known = {item.key for item in read.kept}
        mine = tuple(item for item in self.positions.kept  # all of them, when the store could not be read
                     if item.key not in known and (problem is not None or item.key in self._kept_here))
        self._kept_here -= known
        merged = Mistakes((*read.kept, *mine)[-MAX_KEPT:]) if mine else read
        with self.hold_sync():
            self.positions = merged
            self.synced = True
            if merged != read:
                self.mistakes_json = merged.to_json()
            if self._review_waiting:
                self.review_due()
            if problem is not None:
                self._note(self.tr("Some positions kept in this browser to review could not be read and were left "
                                   "out: {problem}", problem=self.tr(problem)[:300]))

    def review_due(self) -> None:
        """Replay the kept positions due now (:meth:`tutor.teach.mistakes.Mistakes.due`, most
        overdue first), one by one, in the retry mode of :meth:`learn_from_mistakes`: the same
        deal replayed to the costly play, the learner tries again, may ask for the answer or
        skip. Each outcome is reported to the store (:meth:`tutor.teach.mistakes.Mistakes.answered`:
        accepted on one's own, or the answer shown; a skip changes nothing). When none is due,
        the table says so and the hand dealt is played as usual."""
        self._review_waiting = False
        due = self.positions.due(self._clock())
        if not due:
            with self.hold_sync():
                self._publish()
                self._note(self.tr("No positions from your own hands are due for review now. Play a new hand "
                                   "instead: your costly plays come back here when they are due."))
            return
        self._due = DueReview(due)
        self._goto_due()

    def friend_odds(self) -> str:
        """The coach's estimate, on request, of each other seat's chance of being the friend
        (:func:`tutor.play.coach.friend_chances`: the share of the layouts of the hidden cards
        the coach deals for this position), said in words first, then seat by seat. Advice,
        not a rule. Once the friend is known (or in a solo), what the table knows instead."""
        view = self.game.view(self.seat)
        if view.phase is not Phase.PLAYING or view.friend_card is None or view.solo or view.friend is not None:
            text = self.tr(coaching.situation(view)[-1]) if view.phase is Phase.PLAYING else ""
        else:
            chances = coach.friend_chances(view, self.rules, seed=self.game.seed)
            text = " ".join(self.tr(line) for line in _friend_lines(view, chances, coach.LAYOUTS))
        self.hint_text = text
        return text

    def learn_from_mistakes(self) -> None:
        """After the review, replay the same deal (the same hidden cards) to each costly
        decision of the learner in turn, in the order they were made: the learner tries
        again (:meth:`try_again`), may ask for the answer (:meth:`show_answer`) or skip
        (:meth:`skip_mistake`); then the next, and at the end a summary."""
        if self._mistakes is not None:
            return
        if self.game.phase is not Phase.FINISHED:
            self.feedback = {"kind": "note", "rule": "", "reason": self.tr(coaching.review_waits()),
                             "id": next(_tokens)}
            return
        decisions = self.review_play()
        costly = tuple(sorted((d for d in decisions if d.costly), key=lambda d: d.index))
        if not costly:
            self.feedback = {"kind": "note", "rule": "", "id": next(_tokens), "reason": self.tr(
                "The coach found no costly play to try again: none of your plays cost more than its margin of "
                "error.")}
            return
        self._mistakes = Retrying(self.game, costly)
        self._mistakes_said = ""
        self._goto_mistake()

    def try_again(self, cards: Sequence[Card] | str) -> dict[str, Any]:
        """The learner's new try at the mistake under way: refused as the rules refuse it
        (rule ID and reason), else weighed by the coach (:func:`tutor.play.coach.retry`) —
        accepted within its margin of the best, else the learner may try again."""
        lesson = self._mistakes
        if lesson is None or lesson.status != "trying":
            return {}
        try:
            parsed = parse_cards(cards)
        except TutorError as error:
            return self._refuse("N3", _reason(error, self.tr("those cards could not be read")))
        decision = lesson.decision
        try:
            tried = coach.retry(self.game.view(self.seat), parsed, self.rules, seed=self.game.seed,
                                found=decision.found)
        except IllegalActionError as error:
            return self._refuse(error.rule, error.reason)
        tr, best = self.tr, tried.best
        if tried.accepted:
            lesson.status = "found"
            lesson.outcomes.append("found")
            self._answered(accepted=True, helped=False)
            said = tr("Advice, not a rule: well found. {cards} is the coach's choice too.", cards=tried.tried) \
                if tried.value == best else tr(
                "Advice, not a rule: well found. {cards} is within the coach's margin of its best play, {best} "
                "(about {cost} less, within ±{error}).", cards=tried.tried, best=best.play,
                cost=format(tried.cost, ".1f"), error=format(coach.margin(tried.error), ".1f"))
        else:
            self._answered(accepted=False, helped=False)  # the first try counts, as a drill's first answer
            said = tr("Advice, not a rule: {cards} still costs about {cost} points of the score table against the "
                      "coach's best (more than its margin of error, ±{error}). Try another play, or show the answer.",
                      cards=tried.tried, cost=format(tried.cost, ".1f"), error=format(coach.margin(tried.error), ".1f"))
        lesson.said = [said, tr(coaching.weighed_play(tried.value, lesson.decision.view.trump))]
        with self.hold_sync():
            self.feedback = {}
            self._publish()
        return {}

    def show_answer(self) -> None:
        """The coach's best play at the mistake under way, with its words and numbers (the
        learner was helped); its cards picked in the hand."""
        lesson = self._mistakes
        if lesson is None or lesson.status != "trying":
            return
        decision = lesson.decision
        best, played = decision.found.best, decision.found.value_of(decision.played)
        assert played is not None  # the review weighed the play made
        lesson.status = "shown"
        lesson.outcomes.append("shown")
        self._answered(accepted=False, helped=True)
        tr = self.tr
        lesson.said = [tr("Advice, not a rule: the coach's answer is {cards} — expected {value} against {mine} for "
                          "{played}, the play you made: {why}.", cards=best.play, value=coaching.signed(best.expected),
                          mine=coaching.signed(played.expected), played=decision.played,
                          why=coaching.why_better(decision)),
                       tr(coaching.weighed_play(best, decision.view.trump))]
        with self.hold_sync():
            self.feedback = {}
            self.selected = self._positions(best.play)
            self._publish()

    def skip_mistake(self) -> None:
        """Leave the mistake under way untried (or go on once it is found or shown)."""
        lesson = self._mistakes
        if lesson is None:
            return
        if lesson.status == "trying":
            lesson.outcomes.append("skipped")
        lesson.at += 1
        self._goto_mistake()

    def leave_mistakes(self) -> None:
        """Back to the reviewed hand, the mistakes left as they are (reviewing the kept
        positions: the review ends, and a new hand is dealt)."""
        if self._due is not None:
            self._end_review()
        elif self._mistakes is not None:
            self._mistakes.at = len(self._mistakes.decisions)
            self._goto_mistake()

    def replay_from(self, trick: int) -> None:
        """The same deal again from trick ``trick`` (1 is the first) of this hand (or of the
        reviewed hand, while its mistakes are tried again): the learner in the same seat,
        everything before it as it was played, the computer players as chosen last."""
        source = self._mistakes.finished if self._mistakes is not None else self.game
        played = len(source.view(self.seat).tricks)
        if isinstance(trick, bool) or not isinstance(trick, int) or not 1 <= trick <= played:
            self._refuse("", self.tr("there is no trick {trick} in this hand to play again from",
                                     trick=str(trick)[:12]))
            return
        replay, index = _fresh_copy(source), len(source.history)
        for at, action in enumerate(source.history):
            if replay.phase is Phase.PLAYING and not replay.trick and len(replay.tricks) == trick - 1:
                index = at
                break
            replay.apply(action)
        self._start(_fresh_copy(source), self.tr("Playing the deal again from trick {n}.", n=trick))
        for action in source.history[:index]:
            self._after(self.game.apply(action))
        self._offer = False
        with self.hold_sync():
            self.feedback = {}
            self._publish()

    def _goto_mistake(self) -> None:
        """Set the table at the mistake under way: the same deal replayed to that decision;
        after the last, back to the reviewed hand with a summary."""
        lesson = self._mistakes
        assert lesson is not None
        done = lesson.at >= len(lesson.decisions)
        if done and self._due is not None:  # reviewing the kept positions: on to the next
            self._due.outcomes.append(lesson.outcomes[-1] if lesson.outcomes else "skipped")
            self._due.at += 1
            self._goto_due()
            return
        lesson.status, lesson.said = "trying", []
        index = len(lesson.finished.history) if done else lesson.decision.index
        coach_kept, level = self._coach, self.level
        source = lesson.finished
        self.game = _fresh_copy(source)
        self._log, self._throws, self._last_trick, self._plays = [], {}, None, 0
        for action in source.history[:index]:
            self._after(self.game.apply(action))
        self._offer = False
        self._coach, self.level = coach_kept, level
        if done:
            self._mistakes = None
            outcomes = Counter(lesson.outcomes)
            self._mistakes_said = self.tr(Text.plural(
                "Learn from your mistakes (advice, not rules): you found a good play yourself in {found} of "
                "{count} position; the answer was shown in {shown}, and {skipped} skipped.",
                "Learn from your mistakes (advice, not rules): you found a good play yourself in {found} of "
                "{count} positions; the answer was shown in {shown}, and {skipped} skipped.",
                count=len(lesson.decisions), found=outcomes["found"], shown=outcomes["shown"],
                skipped=len(lesson.decisions) - outcomes["found"] - outcomes["shown"]))
        with self.hold_sync():
            self.feedback, self.hint_text, self.selected = {}, "", []
            self._publish()

    def _goto_due(self) -> None:
        """Set the table at the kept position under way (:class:`DueReview`): its hand replayed
        to the costly play, which the coach weighs again as its review did. A position whose
        hand no longer replays is no longer kept (with a note); after the last, :meth:`_end_review`."""
        review = self._due
        assert review is not None
        while review.at < len(review.positions):
            kept = review.kept
            try:
                before = kept.position()
            except MistakesError as error:
                self._store(self.positions.forget(kept.key))
                review.outcomes.append("gone")
                review.at += 1
                problem = problem_of(error)
                self._note(self.tr("A kept position could not be replayed and is no longer kept: {problem}",
                                   problem=self.tr(problem)[:300] if problem is not None else ""))
                continue
            whole = import_hand(kept.hand)  # it replays: position() has just replayed it
            made = _decision(before, whole, kept)
            if made is None:  # the rules left one play there (a tampered store): nothing to review
                self._store(self.positions.forget(kept.key))
                review.outcomes.append("gone")
                review.at += 1
                continue
            self.seat = kept.seat
            self._mistakes = Retrying(whole, (made,))
            note = self.feedback
            self._goto_mistake()
            if note.get("kind") == "note":
                self.feedback = note  # a position left out is still said
            return
        self._end_review()

    def _end_review(self) -> None:
        """The review of the kept positions is over: what the learner did, and a new hand."""
        review = self._due
        assert review is not None
        lesson = self._mistakes
        if lesson is not None and lesson.outcomes and len(review.outcomes) == review.at < len(review.positions):
            review.outcomes.append(lesson.outcomes[-1])  # left after finding or seeing the answer
        outcomes = Counter(review.outcomes)
        count = len(review.positions) - outcomes["gone"]
        said = self.tr(Text.plural(
            "Your positions to review (advice, not rules): you found a good play yourself in {found} of {count} "
            "position; the answer was shown in {shown}, and {skipped} skipped. A new hand is dealt.",
            "Your positions to review (advice, not rules): you found a good play yourself in {found} of {count} "
            "positions; the answer was shown in {shown}, and {skipped} skipped. A new hand is dealt.",
            count=count, found=outcomes["found"], shown=outcomes["shown"],
            skipped=count - outcomes["found"] - outcomes["shown"]))
        with self.hold_sync():
            self._start(Game(fresh_seed(), self.rules))
            self._note(said)

    def _answered(self, *, accepted: bool, helped: bool) -> None:
        """Report the outcome of the kept position under way, if one is (:meth:`review_due`)."""
        if self._due is not None:
            self._store(self.positions.answered(self._due.kept.key, accepted, helped, self._clock()))

    def _store(self, positions: Mistakes) -> None:
        """Hold ``positions`` as the learner's, and have the page store them once the stored
        ones have arrived (before, :meth:`sync` stores them together)."""
        self.positions = positions
        if self.synced:
            self.mistakes_json = positions.to_json()

    def _note(self, text: str) -> None:
        self.feedback = {"kind": "note", "rule": "", "reason": text, "id": next(_tokens)}

    def _mistakes_state(self) -> dict[str, Any]:
        """The mistake under way as the front end draws it (``review``: one of the learner's
        kept positions, :meth:`review_due`)."""
        lesson = self._mistakes
        assert lesson is not None
        decision = lesson.decision
        review = self._due
        if review is not None:
            number, count = review.at + 1, len(review.positions)
            text = self.tr("Your positions to review (advice, not rules): position {number} of {count}, from a hand "
                           "you played. In trick {trick} you played {cards}; the coach found a better play. Pick your "
                           "cards and press Play to try again.", number=number, count=count, trick=decision.trick,
                           cards=decision.played)
        else:
            number, count = lesson.at + 1, len(lesson.decisions)
            text = self.tr("Learn from your mistakes (advice, not rules): mistake {number} of {count}. In trick "
                           "{trick} you played {cards}; the coach found a better play. Pick your cards and press "
                           "Play to try again.", number=number, count=count, trick=decision.trick,
                           cards=decision.played)
        return {
            "number": number, "count": count, "trick": decision.trick, "status": lesson.status,
            "last": number == count, "text": text, "said": list(lesson.said), "review": review is not None,
        }

    # ------------------------------------------------------------ records

    def export(self, *, actions: bool = True) -> str:
        """The hand as a small text file (:func:`tutor.play.record.export_hand`), with the
        coach's review as comment lines when it was asked for."""
        game = self._mistakes.finished if self._mistakes is not None else self.game
        text = export_hand(game, actions=actions, opponents=self.level)
        if actions and self._coach is not None:
            lines = [coaching.review_heading(self._coach), *map(coaching.decision_line, self._coach)]
            text += "".join(f"# {self.tr(line)}\n" for line in lines)
        name = f"qidong-hand-{game.seed}{'' if actions else '-deal'}.txt"
        self.download = {"name": name, "text": text, "token": next(_tokens)}
        return text

    def load(self, text: object) -> bool:
        """Take a hand file: the hand continues from where the record stops (a finished
        hand shows its score and review), the computer players at the level the file
        names (else the level chosen last). A broken or tampered file is refused with a
        message in the widget, and the current hand goes on."""
        if not isinstance(text, str):
            self.load_error = self.tr("This hand file could not be read: it is too large, or not a text file.")
            return False
        if len(text) > MAX_CHARS:  # the hand file's own bound, checked before anything is read
            self.load_error = self.tr("This hand file could not be read: it is far too long.")
            return False
        if not _encodable(text):
            self.load_error = self.tr("This hand file could not be read: it is too large, or not a text file.")
            return False
        try:
            record = read_hand(text)
        except TutorError as error:  # a HandFileError: its reason names the line
            problem = problem_of(error)
            self.load_error = self.tr("This hand file could not be read: {problem}",
                                      problem=self.tr(problem)[:400]) if problem is not None else \
                self.tr("This hand file could not be read: it is not a hand file of this course.")
            return False
        self.load_error = ""
        game = record.game  # the hand goes on at the level it began with, if the file names it
        self._start(_fresh_copy(game), self.tr("Opened a hand file (seed {seed}).", seed=game.seed), record.opponents)
        for event in game.events:  # replay the narration of what the record holds
            self.game.apply(event.action)
            self._after(event)
        self._check_offer()
        self._publish()
        return True

    def choose_level(self, level: int) -> None:
        """The computer players' level (:data:`tutor.play.strategy.LEVELS`) from the next hand
        dealt (a new deal, the same deal again or a hand file opened): the hand in
        progress is played to the end as it began. A level that is none is refused with
        :class:`TutorError`, and nothing changes."""
        self.next_level = check_level(level)
        self._publish()

    def restart(self) -> None:
        """The same deal from the start (same seed; the computer players at the level
        chosen last: with the same level, the same game)."""
        self._start(Game(self.game.seed, self.game.rules, self.game.deck))

    def new_deal(self, seed: int | None = None) -> None:
        self._start(Game(fresh_seed() if seed is None else seed_number(seed), self.rules))

    # ------------------------------------------------------------ internals

    def _attempt_cards(self, cards: CardsLike, act: Callable[[tuple[Card, ...]], Event]) -> dict[str, Any]:
        try:
            parsed = parse_cards(cards)
        except TutorError as error:
            return self._refuse("N3", _reason(error, self.tr("those cards could not be read")))
        return self._attempt(lambda: act(parsed))

    def _attempt(self, act: Callable[[], Event]) -> dict[str, Any]:
        """Ask the game to carry out the learner's action (``act``); its refusal is shown."""
        try:
            event = act()
        except IllegalActionError as error:
            return self._refuse(error.rule, error.reason)
        except TutorError as error:
            return self._refuse("", _reason(error, self.tr("that is not open to you now")))
        with self.hold_sync():
            self.feedback, self.hint_text, self.selected = {}, "", []
            if isinstance(event.action, Declare):
                self._offer = False
            self._after(event)
            self._publish()
        return {}

    def _refuse(self, rule: str, reason: str) -> dict[str, Any]:
        """Nothing changes: the hand, the table and the picked cards stay as they were.
        ``reason``: a :class:`~tutor.core.i18n.Text` (said here in the table's language) or a
        sentence already said in it."""
        record = {"kind": "refused", "rule": rule, "reason": self.tr(capitalized(reason)), "id": next(_tokens)}
        self.feedback = record
        return record

    def _positions(self, cards: Sequence[Card]) -> list[int]:
        want = Counter(cards)
        out = []
        for i, card in enumerate(self._order):
            if want[card]:
                want[card] -= 1
                out.append(i)
        return out

    def _check_offer(self) -> None:
        """Stop the deal when the learner can newly declare (or, once every card is dealt,
        can still declare at all) — so they have time to react."""
        game = self.game
        if game.phase is not Phase.DEALING or not self.stop_to_declare:
            self._offer = False
            return
        options = game.declaration_options(self.seat)
        fresh = [o for o in options if o not in self._offered]
        at_end = game.all_dealt and options and not self._end_offer_done
        if fresh or at_end:
            self._offered.update(options)
            self._offer = True

    def _after(self, event: Event) -> None:
        """Keep the log (each result as :func:`tutor.teach.narration.happened` says it, told
        to the learner's seat) and what the table shows between events."""
        view = self.game.view(self.seat)
        for result in event.results:
            line = narration.happened(result, view)
            said = self.tr(line) if line is not None else ""
            if isinstance(result, Redealt):
                self._offered.clear()
                self._end_offer_done = False
            elif isinstance(result, ThrowFailed):
                self._throws.setdefault(len(view.tricks), []).append(said)
                if result.seat == self.seat:
                    self.feedback = {"kind": "throw", "rule": "L4", "reason": said, "id": next(_tokens)}
            elif isinstance(result, Played):
                self._plays += 1
            elif isinstance(result, TrickWon):
                self._last_trick = result
            if said:
                self._log.append(said)
        if view.trick:
            self._last_trick = None
        if view.phase is Phase.DEALING:
            self._check_offer()

    def _publish(self) -> None:
        game, tr, me = self.game, self.tr, self.seat
        view = game.view(me)
        trump = view.trump if view.trump is not None else Trump(None)
        order, payload = hand_payload(view.hand, trump, tr)
        self._order = order
        self._version += 1
        waiting = self.waiting
        finished = view.phase is Phase.FINISHED
        revealed = game.friend_revealed
        last = self._last_trick

        shown_trick = view.trick if view.trick else (last.plays if last else ())
        played = dict(shown_trick)
        winner = last.seat if last and not view.trick else None
        seats = []
        for seat in range(PLAYERS):
            roles = narration.roles(seat, view, revealed=revealed, side=game.side_of(seat) if finished else None)
            cards = played.get(seat)
            seats.append({
                "seat": seat, "name": tr(narration.seat_name(seat, me)), "you": seat == me,
                "count": view.hand_sizes[seat], "count_text": tr(narration.cards_held(view.hand_sizes[seat])),
                "points": view.points_shown[seat], "roles": [tr(r) for r in roles],
                "played": cards_html(cards, trump=trump, tr=tr, style=False) if cards else "",
                "played_text": format_cards(cards) if cards else "",
                "turn": view.actor == seat, "winner": winner == seat,
                "result": game.results[seat] if finished and game.results else None,
            })

        options = game.declaration_options(me)
        mine = view.actor == me  # the turn is the game's (Game.actor); each phase has its one kind of action
        can = {
            "declare": bool(options), "pass": waiting == "declare",
            "bury": mine and view.phase is Phase.BURYING, "call": mine and view.phase is Phase.CALLING,
            "solo": game.can(Solo(me)), "play": mine and view.phase is Phase.PLAYING,
            "hint": (mine or view.phase is Phase.DEALING) and self._mistakes is None and waiting != "store",
            "friend_odds": view.phase is Phase.PLAYING and view.friend_card is not None and not view.solo
            and view.friend is None,
        }
        if self._mistakes is not None and self._mistakes.status != "trying":
            can["play"] = False
        delay = "deal" if waiting == "deal" else ("trick" if waiting == "bot" and not view.trick
                                                   and last is not None else "card")
        trick = narration.trick(view, last)
        state: dict[str, Any] = {
            "version": self._version, "seed": game.seed, "seat": me, "phase": view.phase.value,
            "phase_text": tr(narration.phase(view)), "waiting": waiting, "delay": delay,
            "prompt": tr(narration.turn(view, stopped=waiting == "declare")) if waiting != "store" else
            tr("Finding the positions from your own hands to review…"),
            "trump_text": tr(narration.trump_line(view)), "declaration_text": tr(narration.declaration(view)),
            "declarer": view.declarer, "friend_card": str(view.friend_card) if view.friend_card else "",
            "friend_card_html": cards_html([view.friend_card], trump=trump, tr=tr, style=False)
            if view.friend_card else "",
            "friend_text": tr(narration.friend(view, revealed=revealed)), "seats": seats,
            "trick_text": tr(trick) if trick is not None else "",
            "options": [{"index": i, "text": format_cards(o), "label": tr(narration.declare_option(o, view))}
                        for i, o in enumerate(options)],
            "can": can, "pick": KITTY_SIZE if can["bury"] else 1 if can["call"] else None,
            "kitty_html": cards_html(view.kitty, trump=trump, tr=tr, style=False) if view.kitty else "",
            "log": self._log[-LOG_SHOWN:], "log_start": max(1, len(self._log) - LOG_SHOWN + 1),
            "plays": self._plays, "deal_number": game.deal_number,
            "forced": [format_cards(o) for o in view.forced_options],
            "opponents": self._opponents_state(),
        }
        if finished:
            state["score"] = self._score(view)
            state["review"] = self._review(view)
            if self._coach is not None:
                state["coach"] = self._coach_state()
        if self._mistakes is not None:
            state["mistakes"] = self._mistakes_state()
        with self.hold_sync():
            if payload != self.hand:
                self.hand = payload
                self.selected = []
            self.state = state
            self.review_weighed = self.review_ready
        self._weigh_later()

    def _opponents_state(self) -> dict[str, Any]:
        """The computer players' level: this hand's, the one chosen for the next hand, the
        choices (each explained) and a line for the table's header."""
        tr, level, chosen = self.tr, self.level, self.next_level
        state: dict[str, Any] = {
            "level": level, "next": chosen, "choices": self._levels,
            "text": tr("Opponents: level {level} ({name})", level=level, name=tr(LEVEL_NAMES[level])),
            "note": "",
        }
        if chosen != level:
            state["note"] = tr("Level {level} ({name}) from the next hand; this hand goes on at level {current}.",
                               level=chosen, name=tr(LEVEL_NAMES[chosen]), current=level)
        return state

    def _score(self, view: SeatView) -> dict[str, Any]:
        """The score box: the breakdown and the results (:func:`tutor.teach.narration.score_lines`)."""
        tr, game, me = self.tr, self.game, self.seat
        last = game.last_event.results if game.last_event is not None else ()
        scored = next(r for r in last if isinstance(r, HandScored))
        capture = next((r for r in last if isinstance(r, KittyCaptured)), None)
        results = [{"seat": s, "name": tr(narration.seat_name(s, me)), "side": tr(side_name(game.side_of(s))),
                    "result": scored.results[s]} for s in range(PLAYERS)]
        return {"points": scored.score.points, "explain": tr(capitalized(scored.score.explanation)),
                "lines": [tr(line) for line in narration.score_lines(scored, view, game.kitty, capture)],
                "results": results, "verdict": tr(narration.verdict(scored, me)),
                "kitty_html": cards_html(game.kitty, tr=tr, style=False)}

    def _review(self, view: SeatView) -> list[dict[str, Any]]:
        """Trick by trick: each trick drawn, its sentence, the failed throws before it."""
        tr, trump = self.tr, view.trump
        out = []
        for n, (won, said) in enumerate(zip(view.tricks, narration.review(view), strict=True), 1):
            index = next(i for i, (seat, _) in enumerate(won.plays) if seat == won.seat)
            out.append({"n": n, "html": trick_html(won.plays, trump=trump, winner=index, tr=tr, style=False),
                        "text": tr(said), "notes": self._throws.get(n - 1, [])})
        return out

    def _coach_state(self) -> dict[str, Any]:
        """The coach's review as the front end draws it: a heading, then each play with
        the position it was made in (the trick so far, the hand, the plays weighed)."""
        tr = self.tr
        assert self._coach is not None
        items = []
        for decision in self._coach:
            view, trump = decision.view, decision.view.trump
            weighed = [f"{tr(coaching.weighed_play(value, trump))}" for value in decision.found.values[:coach.SHOWN]]
            items.append({
                "text": tr(coaching.decision_line(decision)), "costly": decision.costly, "trick": decision.trick,
                "trick_html": trick_html(list(view.trick), trump=trump, tr=tr, style=False) if view.trick else "",
                "hand_html": cards_html(view.hand, trump=trump, tr=tr, style=False), "weighed": weighed,
            })
        return {"heading": tr(coaching.review_heading(self._coach)), "items": items,
                "costly": sum(1 for d in self._coach if d.costly), "summary": self._mistakes_said}

    def _page_value(self, name: str, value: object) -> bool:
        if name == "selected":
            return positions_ok(value, min(len(self._order), MAX_PICK))
        return name in ("pause_ms", "deal_ms") and type(value) is int and 0 <= value <= MAX_PAUSE_MS

    def _failed(self) -> None:
        self.feedback = {"kind": "error", "rule": "", "reason": self.tr(FAILED), "id": next(_tokens)}

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if not isinstance(kind, str):
            return
        raw = content.get("request")
        request = raw if type(raw) is int and 0 <= raw <= MAX_EXACT else None
        if self._repeated(kind, content):
            if request is not None:
                self.handled = {"request": request, "type": kind, "ignored": True, "work": self._work}
            return
        version = self._version
        self._under_way.add(kind)
        done = False
        try:
            with self.hold_sync():
                try:
                    self._handle(kind, content)
                    done = True
                except TutorError as error:  # a refusal the actions did not foresee; anything else: the boundary
                    problem = problem_of(error)
                    self.feedback = {"kind": "error", "rule": error.rule, "reason": self.tr(
                        "Something went wrong: {problem}", problem=self.tr(problem)[:300]) if problem is not None
                        else self.tr(FAILED), "id": next(_tokens)}
                finally:
                    if kind in ONCE_PER_STATE and self._version != version:  # carried out, not refused
                        self._acted[kind] = version
                    if request is not None:
                        self._work += 1 if done else 0
                        self.handled = {"request": request, "type": kind, "ignored": False, "work": self._work}
        finally:
            self._under_way.discard(kind)

    def _repeated(self, kind: str, content: dict[str, Any]) -> bool:
        """Whether ``content`` repeats an action (see the module): the same action under
        way, a game action made on a state no newer than the one that action was last
        carried out on, or a hint already given for this state and these picked cards."""
        if kind in self._under_way:
            return True
        version = content.get("version")
        if type(version) is not int:
            return False
        if kind in ONCE_PER_STATE:
            if kind == "act" and not _cards_ok(content.get("cards")):
                return False  # refused as it is, whatever its version
            return kind in self._acted and version <= self._acted[kind]
        if kind == "hint":
            picked = content.get("selected")
            return self._hinted is not None and version == self._version and \
                positions_ok(picked, min(len(self._order), MAX_PICK)) and (version, tuple(picked)) == self._hinted
        return False

    def _handle(self, kind: str, content: dict[str, Any]) -> None:
        """Carry out the page's message ``content`` of type ``kind`` (:meth:`_on_message`
        shows a refusal in the widget; a failure nobody foresaw goes on to the one boundary,
        :func:`widgets._common.boundary`)."""
        if kind == "step":
            version = content.get("version")
            if type(version) is int and version == self._version:
                self.step()
        elif kind == "act":
            verb = content.get("verb")
            if not isinstance(verb, str) or verb not in ("play", "bury", "call"):
                return
            cards = content.get("cards")
            if not _cards_ok(cards):
                self._refuse("N3", self.tr("those picked cards could not be read"))
                return
            self._take_selection(content.get("selected"))
            text = " ".join(cards)
            if verb == "play":
                self.play(text)
            elif verb == "bury":
                self.bury(text)
            else:
                self.call(text)
        elif kind == "declare":
            option = content.get("option")
            if type(option) is int:
                self.declare(option)
        elif kind == "pass":
            self.pass_declaration()
        elif kind == "solo":
            self.go_solo()
        elif kind == "hint":
            if "selected" in content:
                self._take_selection(content.get("selected"))
            self.hint()
        elif kind == "coach_review":
            self.review_play()
        elif kind == "friend_odds":
            self.friend_odds()
        elif kind == "mistakes":
            self.learn_from_mistakes()
        elif kind == "sync":
            self.sync(content.get("mistakes"))
        elif kind == "retry_answer":
            self.show_answer()
        elif kind in ("retry_skip", "retry_next"):
            if self._mistakes is not None and (kind == "retry_skip") == (self._mistakes.status == "trying"):
                self.skip_mistake()
        elif kind == "retry_leave":
            self.leave_mistakes()
        elif kind == "replay":
            trick = content.get("trick")
            if type(trick) is int and 0 <= trick <= MAX_EXACT:
                self.replay_from(trick)
            else:
                self._refuse("", self.tr("there is no such trick in this hand to play again from"))
        elif kind == "export":
            self.export(actions=content.get("actions") is not False)
        elif kind == "import":
            self.load(content.get("text"))
        elif kind == "restart":
            self.restart()
        elif kind == "new":
            self.new_deal()
        elif kind == "stop_to_declare":
            value = content.get("value")
            if isinstance(value, bool):
                self.stop_to_declare = value
                if not value and self._offer:
                    self.pass_declaration()
        elif kind == "opponents":
            level = content.get("level")  # the page offers only LEVELS: anything else is ignored
            if type(level) is int and level in OFFERED_LEVELS and level != self.next_level:
                self.choose_level(level)

    def _take_selection(self, raw: object) -> None:
        if positions_ok(raw, min(len(self._order), MAX_PICK)):
            self.selected = sorted(raw)


def _friend_lines(view: SeatView, chances: Sequence[float], layouts: int) -> tuple[Text, ...]:
    """Who is likely the friend, as the table says it (advice, not a rule): in words first —
    the likeliest seat (or seats), or the seat that must be —, then each seat's chance."""
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


def _cards_ok(cards: object) -> TypeGuard[list[str]]:
    """``cards`` is a list of picked cards' texts as a page sends them (not yet parsed)."""
    return isinstance(cards, list) and len(cards) <= MAX_PICK and all(
        isinstance(c, str) and len(c) <= MAX_CARD_TEXT and c.isprintable() for c in cards)


def _reason(error: BaseException, plain: str) -> str:
    """A refusal's reason: the tutor's own (a Text), else ``plain`` (a sentence already
    said in the learner's language): Python's words never reach the page."""
    problem = problem_of(error)
    return problem if problem is not None else plain


def _encodable(text: str) -> bool:
    """``text`` can be sent to the page (no lone surrogates: a file that is not text)."""
    try:
        text.encode("utf-8")
    except UnicodeError:
        return False
    return True


def _fresh_copy(game: Game) -> Game:
    return Game(game.seed, game.rules, game.deck)


def _decision(before: Game, whole: Game, kept: Kept) -> Decision | None:
    """The kept position as the coach's review weighed it (:func:`tutor.play.coach.decision`):
    the hand ``before`` the play, the play the hand ``whole`` records there; None where the
    rules left one play (no table keeps such a play; a tampered store may)."""
    action = whole.history[kept.index]
    assert isinstance(action, Play)  # Kept.position() checked it
    return coach.decision(before.view(kept.seat), action.cards, kept.index, before.rules, seed=before.seed)



def fresh_seed() -> int:
    """A new seed for a fresh deal: any seed from 0 to :data:`tutor.core.arguments.MAX_SEED`."""
    return secrets.randbelow(MAX_SEED + 1)


def seed_from_query(query: str | None) -> int | None:
    """The ``seed`` of a page's query string, read as every page's link is read
    (:func:`tutor.teach.course.parse_link`), if it is a valid one (else None).

    >>> seed_from_query("seed=42&x=1"), seed_from_query("seed=-3"), seed_from_query(None)
    (42, None, None)
    """
    return parse_link(query if isinstance(query, str) else None)[0].seed


__all__ = ["Table", "check_level", "fresh_seed", "seed_from_query"]
