"""The table: the learner plays a whole hand at a five-seat table with four computer
players, from the deal to the score. Every decision is the rules engine's
(:class:`tutor.game.Game`); the computer players are :class:`tutor.strategy.ComputerPlayer`.

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
(``value``: true or false); the page sets ``selected``, ``pause_ms`` and ``deal_ms``.
Anything else or anything malformed is ignored or answered with a note in the widget (a
refusal naming the rule, a hand file that cannot be read), and changes nothing else —
never a traceback, never Python's own words (see :class:`widgets._common.PageWidget`).
Sizes are checked before anything is read (:data:`MAX_PICK`, :data:`MAX_RECORD`).

>>> table = Table(seed=3, pause_ms=0, deal_ms=0, stop_to_declare=False)
>>> table.run()
'learner'
>>> table.game.phase.value in ("burying", "calling", "playing")
True
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from itertools import count
from typing import Any, Final

import traitlets as t

from tutor.cards import PLAYERS, Card, format_cards, points
from tutor.course import MAX_SEED as COURSE_MAX_SEED
from tutor.display import cards_html, trick_html
from tutor.errors import IllegalActionError, TutorError
from tutor.game import (
    Action,
    Buried,
    Bury,
    Call,
    Dealt,
    Declare,
    Declared,
    DeclarerChosen,
    Event,
    FriendCalled,
    FriendRevealed,
    Game,
    HandScored,
    KittyCaptured,
    KittyTaken,
    Phase,
    Play,
    Played,
    Redealt,
    Solo,
    SoloDeclared,
    ThrowFailed,
    TrickWon,
)
from tutor.i18n import N_, Text, Translator, capitalized, or_list
from tutor.notation import parse_cards
from tutor.order import Trump
from tutor.record import export_hand, import_hand
from tutor.rules import DEFAULT_RULES, Ruleset
from tutor.scoring import SIDE_NAMES
from tutor.strategy import ComputerPlayer, next_action
from widgets._common import COMMON_JS, CSS, FAILED, STATIC, PageWidget, hand_payload, positions_ok, problem_of, \
    translator

ESM: Final = COMMON_JS + (STATIC / "table.js").read_text("utf-8")
TABLE_CSS: Final = CSS + (STATIC / "table.css").read_text("utf-8")

MAX_SEED: Final = COURSE_MAX_SEED + 1
"""Seeds are whole numbers below this (a fresh seed is drawn from it)."""
MAX_RECORD: Final = 200_000
"""A hand record larger than this (characters) is refused before it is read."""
MAX_PICK: Final = 40
"""More picked cards than this are junk, refused before any check."""
MAX_CARD_TEXT: Final = 8
"""A picked card's text is at most this long (``♠10`` is three characters)."""
MAX_PAUSE_MS: Final = 10_000
"""The page may set a pause of 0 to this many milliseconds."""

TABLE_LABELS: Final = {
    "hand": N_("Your hand"),
    "selected": N_("{card}: selected."),
    "deselected": N_("{card}: not selected."),
    "picked": N_("{count} picked."),
    "picked_of": N_("{count} of {pick} picked."),
    "play": N_("Play"),
    "bury": N_("Bury these 8"),
    "call": N_("Call this card"),
    "solo": N_("Go solo"),
    "pass": N_("Don't declare"),
    "declare": N_("Declare {cards}"),
    "hint": N_("What would you play?"),
    "pause": N_("Pause"),
    "resume": N_("Resume"),
    "speed": N_("Computer players"),
    "deal_speed": N_("Dealing"),
    "slow": N_("slow"),
    "normal": N_("normal"),
    "fast": N_("fast"),
    "instant": N_("instant"),
    "stop_to_declare": N_("Stop the deal when I can declare"),
    "cards_left": N_("{count} cards"),
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
    "log": N_("What happened"),
    "score": N_("The score"),
    "kitty": N_("The kitty"),
    "paused": N_("Paused."),
    "ms": N_("{ms} ms"),
}
"""Every fixed text of the front end, as English templates for :class:`Translator`."""

DEAL_SPEEDS: Final = {"slow": 400, "normal": 150, "fast": 40, "instant": 0}
BOT_SPEEDS: Final = {"slow": 900, "normal": 450, "fast": 200, "instant": 0}

_tokens = count(1)


class Table(PageWidget):
    """A whole hand at the table, the learner in ``seat``.

    ``seed`` decides the deal and the computer players' choices (same seed, same game);
    ``None`` draws a fresh one. ``record`` is a hand file's text (:func:`export_hand`) to
    start from instead.
    """

    _esm = ESM
    _css = TABLE_CSS
    _page_sets = frozenset({"selected", "pause_ms", "deal_ms"})
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

    def __init__(self, seed: int | None = None, *, seat: int = 0, lang: str | None = None, pause_ms: int = 450,
                 deal_ms: int = 150, stop_to_declare: bool = True, rules: Ruleset = DEFAULT_RULES,
                 record: str | None = None, four_colour: bool = False, **kwargs: Any) -> None:
        """``lang``: one of :data:`tutor.i18n.LANGUAGES`; by default the kernel's
        language (:func:`tutor.i18n.current`)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise TutorError(Text("seats are numbered 0–4, not {seat} (C4)", seat=repr(seat)[:40]))
        self.seat = seat
        self.tr = translator(lang)
        self.rules = rules
        self._version = 0
        self._order: list[Card] = []
        super().__init__(labels={k: self.tr(v) for k, v in TABLE_LABELS.items()}, pause_ms=max(0, pause_ms),
                         deal_ms=max(0, deal_ms), stop_to_declare=stop_to_declare, four_colour=four_colour,
                         lang=self.tr.language, **kwargs)
        self.on_msg(self._on_message)
        self._start(Game(fresh_seed() if seed is None else check_seed(seed), rules))
        if record is not None:
            self.load(record)

    # ------------------------------------------------------------ the flow

    def _start(self, game: Game, note: str = "") -> None:
        self.game = game
        self.bots = {s: ComputerPlayer(s, game.seed, game.rules) for s in range(PLAYERS) if s != self.seat}
        self.advisor = ComputerPlayer(self.seat, game.seed, game.rules)
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
        """Who the table waits for: ``"deal"`` (the next card; the learner may declare),
        ``"declare"`` (the deal stopped for the learner's declaration), ``"bot"`` (a
        computer player's move), ``"learner"`` (the learner must act) or ``"done"``."""
        game = self.game
        if game.phase is Phase.FINISHED:
            return "done"
        if game.phase is Phase.DEALING:
            return "declare" if self._offer else "deal"
        if game.phase in (Phase.BURYING, Phase.CALLING):
            return "learner" if game.declarer == self.seat else "bot"
        return "learner" if game.to_play == self.seat else "bot"

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
            except (TutorError, TypeError) as error:
                return self._refuse("N3", _reason(error, self.tr("those cards could not be read")))
        return self._attempt(Declare(self.seat, cards))

    def pass_declaration(self) -> None:
        """Let the deal go on without declaring now."""
        self._offered.update(self.game.declaration_options(self.seat))
        if self.game.all_dealt:
            self._end_offer_done = True
        self._offer = False
        self._publish()

    def bury(self, cards: Sequence[Card] | str) -> dict[str, Any]:
        return self._attempt_cards(cards, lambda c: Bury(self.seat, c))

    def call(self, card: Sequence[Card] | str | Card) -> dict[str, Any]:
        if isinstance(card, Card):
            card = (card,)

        def make(cards: tuple[Card, ...]) -> Action | str:
            if len(cards) != 1:
                return self.tr("name exactly one card to call the friend, not {cards}",
                               cards=cards or Text("none"))
            return Call(self.seat, cards[0])

        return self._attempt_cards(card, make, rule="F1")

    def go_solo(self) -> dict[str, Any]:
        return self._attempt(Solo(self.seat))

    def play(self, cards: Sequence[Card] | str) -> dict[str, Any]:
        return self._attempt_cards(cards, lambda c: Play(self.seat, c))

    def hint(self) -> str:
        """What the computer player would do in the learner's seat now; its cards are
        picked in the hand (the learner still decides)."""
        game, tr = self.game, self.tr
        view = game.view(self.seat)
        action: Action | None
        if game.phase is Phase.DEALING:
            action = self.advisor.declaration(view)
            text = tr("The computer would not declare with these cards.") if action is None else ""
        elif self.waiting != "learner":
            action, text = None, tr("Nothing to decide now: it is not your turn.")
        else:
            action, text = self.advisor.act(view), ""
        if isinstance(action, Declare):
            text = tr("The computer would declare with {cards}.", cards=action.cards)
        elif isinstance(action, Bury):
            text = tr("The computer would bury {cards}.", cards=action.cards)
        elif isinstance(action, Call):
            text = tr("The computer would call {card}: whoever holds the other one becomes your friend.",
                      card=action.card)
        elif isinstance(action, Solo):
            text = tr("The computer would go solo.")
        elif isinstance(action, Play):
            text = tr("The computer would play {cards}.", cards=action.cards)
        picks = action.cards if isinstance(action, (Bury, Play)) else (action.card,) \
            if isinstance(action, Call) else ()
        with self.hold_sync():
            self.hint_text = text
            if picks:
                self.selected = self._positions(picks)
        return text

    def hint_action(self) -> Action | None:
        """The computer player's action for the learner's seat (None if it would not act)."""
        view = self.game.view(self.seat)
        if self.game.phase is Phase.DEALING:
            return self.advisor.declaration(view)
        return self.advisor.act(view) if self.waiting == "learner" else None

    # ------------------------------------------------------------ records

    def export(self, *, actions: bool = True) -> str:
        """The hand as a small text file (:func:`tutor.record.export_hand`)."""
        text = export_hand(self.game, actions=actions)
        name = f"qidong-hand-{self.game.seed}{'' if actions else '-deal'}.txt"
        self.download = {"name": name, "text": text, "token": next(_tokens)}
        return text

    def load(self, text: object) -> bool:
        """Take a hand file: the hand continues from where the record stops (a finished
        hand shows its score and review). A broken or tampered file is refused with a
        message in the widget, and the current hand goes on."""
        if not isinstance(text, str):
            self.load_error = self.tr("This hand file could not be read: it is too large, or not a text file.")
            return False
        if len(text) > MAX_RECORD:
            self.load_error = self.tr("This hand file could not be read: it is far too long.")
            return False
        if not _encodable(text):
            self.load_error = self.tr("This hand file could not be read: it is too large, or not a text file.")
            return False
        try:
            game = import_hand(text)
        except Exception as error:  # noqa: BLE001 - a hand file never shows Python's own words
            problem = problem_of(error) if isinstance(error, TutorError) else None
            self.load_error = self.tr("This hand file could not be read: {problem}",
                                      problem=self.tr(problem)[:400]) if problem is not None else \
                self.tr("This hand file could not be read: it is not a hand file of this course.")
            return False
        self.load_error = ""
        self._start(_fresh_copy(game), self.tr("Opened a hand file (seed {seed}).", seed=game.seed))
        for event in game.events:  # replay the narration of what the record holds
            self.game.apply(event.action)
            self._after(event)
        self._check_offer()
        self._publish()
        return True

    def restart(self) -> None:
        """The same deal from the start (same seed, same computer players)."""
        self._start(Game(self.game.seed, self.game.rules, self.game.deck))

    def new_deal(self, seed: int | None = None) -> None:
        self._start(Game(fresh_seed() if seed is None else check_seed(seed), self.rules))

    # ------------------------------------------------------------ internals

    def _attempt_cards(self, cards: object, make: Any, rule: str = "W0") -> dict[str, Any]:
        try:
            parsed = parse_cards(cards)  # type: ignore[arg-type]
        except (TutorError, TypeError) as error:
            return self._refuse("N3", _reason(error, self.tr("those cards could not be read")))
        action = make(parsed)
        if isinstance(action, str):
            return self._refuse(rule, action)
        return self._attempt(action)

    def _attempt(self, action: Action) -> dict[str, Any]:
        try:
            event = self.game.apply(action)
        except IllegalActionError as error:
            return self._refuse(error.rule, error.reason)
        except TutorError as error:
            return self._refuse("", _reason(error, self.tr("that is not open to you now")))
        with self.hold_sync():
            self.feedback, self.hint_text, self.selected = {}, "", []
            if isinstance(action, Declare):
                self._offer = False
            self._after(event)
            self._publish()
        return {}

    def _refuse(self, rule: str, reason: str) -> dict[str, Any]:
        """Nothing changes: the hand, the table and the picked cards stay as they were.
        ``reason``: a :class:`~tutor.i18n.Text` (said here in the table's language) or a
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
        """Narrate what happened (the log) and keep what the table shows."""
        tr, me = self.tr, self.seat
        for result in event.results:
            line = ""
            if isinstance(result, Dealt):
                pass
            elif isinstance(result, Declared):
                line = (tr("{who} declares with {cards}: {trump} (declaration {count}, D1–D5).",
                           who=self._who(result.seat), cards=result.cards, trump=_trump_text(result.trump, tr),
                           count=result.count) if result.count == 1 else
                        tr("{who} overturns with {cards}: {trump} (declaration {count}, D1–D5).",
                           who=self._who(result.seat), cards=result.cards, trump=_trump_text(result.trump, tr),
                           count=result.count))
            elif isinstance(result, Redealt):
                line = tr("Nobody declared and the kitty holds four pairs ({cards}): the deal is void and the "
                          "cards are dealt again (D6).", cards=result.kitty)
                self._offered.clear()
                self._end_offer_done = False
            elif isinstance(result, DeclarerChosen):
                if result.flipped is not None:
                    line = tr("Nobody declared: the kitty is turned over. {card} decides: {trump}, and {who}, who "
                              "holds the other {card}, is the declarer (D6).", card=result.flipped,
                              trump=_trump_text(result.trump, tr), who=self._who(result.seat))
                elif result.declarations == 1:
                    line = tr("{who} is the declarer: {trump}, one declaration, so every result counts ×1 (D5).",
                              who=self._who(result.seat), trump=_trump_text(result.trump, tr))
                else:
                    line = tr("{who} is the declarer: {trump}, {count} declarations, so every result counts "
                              "×{count} (D5).", who=self._who(result.seat), trump=_trump_text(result.trump, tr),
                              count=result.declarations)
            elif isinstance(result, KittyTaken):
                line = tr("You take the kitty: {cards}. Bury any 8 cards (K1).", cards=result.cards) \
                    if result.seat == me else tr("{who} takes the kitty and buries 8 cards (K1).",
                                                 who=self._who(result.seat))
            elif isinstance(result, Buried) and result.seat == me:
                line = tr("You buried {cards}.", cards=result.cards)
            elif isinstance(result, FriendCalled):
                line = tr("{who} calls {card}: whoever holds the other {card} is the friend (F1–F2).",
                          who=self._who(result.seat), card=result.card)
                if self.game.friend == me:
                    line = tr.sentences(line, tr("You hold it: you are the friend — only you know (F2)."))
            elif isinstance(result, SoloDeclared):
                line = tr("{who} plays alone against four: every card of the hand is paired, so no card can be "
                          "called (F4).", who=self._who(result.seat)) if result.automatic else \
                    tr("{who} goes solo: alone against four (F5).", who=self._who(result.seat))
            elif isinstance(result, ThrowFailed):
                line = tr("{who} tried to throw {cards}, but the throw fails: {reason}. The cards are taken back "
                          "and {options} must be led instead; penalty {penalty} points (L4–L5).",
                          who=self._who(result.seat), cards=result.attempted,
                          reason=result.reason,
                          options=or_list(result.options), penalty=result.penalty)
                self._throws.setdefault(len(self.game.tricks), []).append(line)
                if result.seat == me:
                    self.feedback = {"kind": "throw", "rule": "L4", "reason": line, "id": next(_tokens)}
            elif isinstance(result, Played):
                self._plays += 1
            elif isinstance(result, FriendRevealed):
                line = tr("{who} plays {card}: {who2} is the friend, and their points now count for the declarer's "
                          "side (F6).", who=self._who(result.seat), who2=self._who(result.seat), card=result.card)
            elif isinstance(result, TrickWon):
                self._last_trick = result
                line = tr("Trick {n}: {who} wins {points} points. {reason}.", n=len(self.game.tricks),
                          who=self._who(result.seat), points=result.points, reason=capitalized(result.reason))
            elif isinstance(result, KittyCaptured):
                line = tr("{who}, an attacker, won the last trick: the kitty's {points} points × {multiplier} = "
                          "{total} for the attackers (X2).", who=self._who(result.seat), points=result.kitty_points,
                          multiplier=result.multiplier, total=result.points)
            elif isinstance(result, HandScored):
                line = tr("The hand is over: the attackers have {points} points.", points=result.attackers_points)
            if line:
                self._log.append(line)
        if self.game.phase is Phase.PLAYING and self.game.trick:
            self._last_trick = None
        if self.game.phase is Phase.DEALING:
            self._check_offer()

    def _who(self, seat: int) -> str:
        return self.tr("Seat {seat} (you)", seat=seat) if seat == self.seat else self.tr("Seat {seat}", seat=seat)

    def _seat_name(self, seat: int) -> str:
        return self.tr("You (seat {seat})", seat=seat) if seat == self.seat else self.tr("Seat {seat}", seat=seat)

    def _publish(self) -> None:
        game, tr, me = self.game, self.tr, self.seat
        view = game.view(me)
        trump = view.trump if view.trump is not None else Trump(None)
        order, payload = hand_payload(view.hand, trump, tr)
        self._order = order
        self._version += 1
        waiting = self.waiting
        finished = game.phase is Phase.FINISHED

        shown_trick = view.trick if view.trick else (self._last_trick.plays if self._last_trick else ())
        played = {seat: cards for seat, cards in shown_trick}
        winner = self._last_trick.seat if self._last_trick and not view.trick else None
        friend = game.friend if finished else view.friend
        seats = []
        for seat in range(PLAYERS):
            roles = []
            if seat == view.declarer:
                roles.append(tr("Declarer"))
            if friend is not None and seat == friend:
                roles.append(tr("Friend") if seat != me or finished or game.friend_revealed
                             else tr("Friend (only you know)"))
            if finished and game.side_of(seat) == "attacker":
                roles.append(tr("Attacker"))
            cards = played.get(seat)
            seats.append({
                "seat": seat, "name": self._seat_name(seat), "you": seat == me, "count": view.hand_sizes[seat],
                "points": view.points_shown[seat], "roles": roles,
                "played": cards_html(cards, trump=trump, tr=tr, style=False) if cards else "",
                "played_text": format_cards(cards) if cards else "",
                "turn": view.to_play == seat, "winner": winner == seat,
                "result": game.results[seat] if finished and game.results else None,
            })

        options = game.declaration_options(me) if game.phase is Phase.DEALING else []
        learner_turn = waiting == "learner"
        phase = game.phase
        can = {
            "declare": bool(options), "pass": waiting == "declare",
            "bury": learner_turn and phase is Phase.BURYING, "call": learner_turn and phase is Phase.CALLING,
            "solo": learner_turn and phase is Phase.CALLING, "play": learner_turn and phase is Phase.PLAYING,
            "hint": phase is Phase.DEALING or learner_turn,
        }
        delay = "deal" if waiting == "deal" else ("trick" if waiting == "bot" and not view.trick
                                                   and self._last_trick is not None else "card")
        state: dict[str, Any] = {
            "version": self._version, "seed": game.seed, "seat": me, "phase": phase.value,
            "phase_text": self._phase_text(), "waiting": waiting, "delay": delay, "prompt": self._prompt(),
            "trump_text": tr("Trump: {trump}", trump=_trump_text(view.trump, tr)),
            "declaration_text": self._declaration_text(), "declarer": view.declarer,
            "friend_card": str(view.friend_card) if view.friend_card else "",
            "friend_card_html": cards_html([view.friend_card], trump=trump, tr=tr, style=False)
            if view.friend_card else "",
            "friend_text": self._friend_text(), "seats": seats, "trick_text": self._trick_text(),
            "options": [{"index": i, "text": format_cards(o),
                         "label": tr("Declare {cards}", cards=o) if not view.declarations
                         else tr("Overturn with {cards}", cards=o)} for i, o in enumerate(options)],
            "can": can, "pick": 8 if can["bury"] else 1 if can["call"] else None,
            "kitty_html": cards_html(view.kitty, trump=trump, tr=tr, style=False) if view.kitty else "",
            "log": self._log[-8:], "plays": self._plays, "deal_number": game.deal_number,
            "forced": [format_cards(o) for o in view.forced_options],
        }
        if finished:
            state["score"] = self._score()
            state["review"] = self._review()
        with self.hold_sync():
            if payload != self.hand:
                self.hand = payload
                self.selected = []
            self.state = state

    def _phase_text(self) -> str:
        tr, game = self.tr, self.game
        return {
            Phase.DEALING: tr("Dealing: {dealt} of 100 cards", dealt=sum(len(game.hand(s)) for s in range(PLAYERS))),
            Phase.BURYING: tr("Burying the kitty"), Phase.CALLING: tr("Calling the friend"),
            Phase.PLAYING: tr("Trick {n}", n=len(game.tricks) + 1), Phase.FINISHED: tr("The hand is over"),
        }[game.phase]

    def _prompt(self) -> str:
        tr, game, waiting = self.tr, self.game, self.waiting
        if waiting == "declare":
            return tr("You can declare now: choose a declaration, or let the deal go on (D1–D3).")
        if game.phase is Phase.DEALING:
            return tr("The cards are being dealt. Declare when your cards allow it (D1–D3).")
        if waiting == "done":
            return tr("The hand is over. Read the score and the review below.")
        if waiting == "bot":
            seat = game.to_play if game.phase is Phase.PLAYING else game.declarer
            return tr("Seat {seat} is thinking…", seat=seat)
        if game.phase is Phase.BURYING:
            return tr("You are the declarer: pick 8 cards to bury as the kitty (K1).")
        if game.phase is Phase.CALLING:
            return tr("Call the friend: pick one card of which you hold exactly one copy, or go solo (F1–F5).")
        if game.forced_options:
            return tr("Your throw failed: lead {options} (L4).", options=or_list(game.forced_options))
        if not game.trick:
            return tr("Your lead: a single, a pair, a tractor or a throw (L1–L3).")
        n = len(game.trick[0][1])
        return tr("Your turn: follow with one card (W1–W6).") if n == 1 else \
            tr("Your turn: follow with {n} cards (W1–W6).", n=n)

    def _declaration_text(self) -> str:
        tr, game = self.tr, self.game
        if game.declarer is not None:
            return tr("Declarer: {who}, ×{count}", who=self._who(game.declarer), count=game.declaration_count)
        if game.declarations:
            last = game.declarations[-1]
            return tr("{who} showed {cards} (declaration {count})", who=self._who(last.seat),
                      cards=last.cards, count=last.count)
        return tr("Nobody has declared yet")

    def _friend_text(self) -> str:
        tr, game, me = self.tr, self.game, self.seat
        if game.solo:
            return tr("Solo: the declarer plays alone")
        if game.friend_card is None:
            return tr("Not called yet")
        if game.friend_revealed or game.phase is Phase.FINISHED:
            return tr("The friend is {who}", who=self._who(game.friend)) if game.friend is not None \
                else tr("Nobody is the friend")
        if game.friend == me:
            return tr("You are the friend (only you know)")
        return tr("Not revealed yet")

    def _trick_text(self) -> str:
        tr, game = self.tr, self.game
        if game.trick:
            return tr("Trick {n}: {who} led", n=len(game.tricks) + 1, who=self._who(game.trick[0][0]))
        if self._last_trick is not None:
            return tr("Trick {n}: {who} wins {points} points. {reason}.", n=len(game.tricks),
                      who=self._who(self._last_trick.seat), points=self._last_trick.points,
                      reason=capitalized(self._last_trick.reason))
        return ""

    def _score(self) -> dict[str, Any]:
        tr, game = self.tr, self.game
        assert game.score is not None and game.results is not None
        score = game.score
        won = sum(p for s, p in enumerate(game.won_points) if game.side_of(s) == "attacker")
        lines = [tr("Points the attackers won in tricks: {points} (S4: the declarer's side's points never count).",
                    points=won)]
        capture = next((r for e in game.events for r in e.results if isinstance(r, KittyCaptured)), None)
        if capture is not None:
            lines.append(tr("Kitty capture: {points} points in the kitty × {multiplier} = {total} (X2).",
                            points=capture.kitty_points, multiplier=capture.multiplier, total=capture.points))
        else:
            lines.append(tr("No kitty capture: the declarer's side won the last trick (X1); the kitty held "
                            "{points} points.", points=points(game.kitty)))
        if game.penalty_adjustment:
            lines.append(tr("Failed throws: {points:+d} points (L5).", points=game.penalty_adjustment))
        lines.append(tr("The attackers' total A = {points}: row {row} of the table (S1).",
                        points=score.points, row=score.row))
        lines.append(tr("Solo: each attacker's value counts twice, the declarer pays for all four (S2).")
                     if score.solo else tr("No solo: the table as it stands (S1)."))
        lines.append(tr("One declaration: every result ×1 (S3).") if score.declarations == 1 else
                     tr("{count} declarations: every result ×{count} (S3).", count=score.declarations))
        results = [{"seat": s, "name": self._seat_name(s), "side": tr(SIDE_NAMES[game.side_of(s)]),
                    "result": game.results[s]} for s in range(PLAYERS)]
        mine = game.results[self.seat]
        verdict = tr("You win {points}.", points=mine) if mine > 0 else tr("You lose {points}.", points=-mine)
        return {"points": score.points, "explain": tr(capitalized(score.explanation)), "lines": lines,
                "results": results, "verdict": verdict, "kitty_html": cards_html(game.kitty, tr=tr, style=False)}

    def _review(self) -> list[dict[str, Any]]:
        tr, game = self.tr, self.game
        out = []
        for n, won in enumerate(game.tricks, 1):
            index = next(i for i, (seat, _) in enumerate(won.plays) if seat == won.seat)
            out.append({"n": n, "html": trick_html(won.plays, trump=game.trump, winner=index, tr=tr, style=False),
                        "text": tr("Trick {n}: {who} wins {points} points. {reason}.", n=n, who=self._who(won.seat),
                                   points=won.points, reason=capitalized(won.reason)),
                        "notes": self._throws.get(n - 1, [])})
        return out

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
        try:
            if kind == "step":
                version = content.get("version")
                if type(version) is int and version == self._version:
                    self.step()
            elif kind == "act":
                verb = content.get("verb")
                if not isinstance(verb, str) or verb not in ("play", "bury", "call"):
                    return
                cards = content.get("cards")
                if not isinstance(cards, list) or len(cards) > MAX_PICK or not all(
                        isinstance(c, str) and len(c) <= MAX_CARD_TEXT and c.isprintable() for c in cards):
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
                self.hint()
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
        except Exception as error:  # noqa: BLE001 - shown in the widget, never a traceback
            problem = problem_of(error)
            self.feedback = {"kind": "error", "rule": "", "reason": self.tr(
                "Something went wrong: {problem}", problem=self.tr(problem)[:300]) if problem is not None
                else self.tr(FAILED), "id": next(_tokens)}

    def _take_selection(self, raw: object) -> None:
        if positions_ok(raw, min(len(self._order), MAX_PICK)):
            self.selected = sorted(raw)


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


def _trump_text(trump: Trump | None, tr: Translator) -> str:
    if trump is None:
        return tr("not decided yet")
    return tr(str(trump))


def _fresh_copy(game: Game) -> Game:
    return Game(game.seed, game.rules, game.deck)


def fresh_seed() -> int:
    """A new seed for a fresh deal."""
    return secrets.randbelow(MAX_SEED)


def check_seed(seed: object) -> int:
    """A seed given by a link or a caller: a whole number 0 ≤ seed < 2³¹ (as links allow)."""
    if isinstance(seed, str) and seed.strip().isdigit():
        seed = int(seed.strip())
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise TutorError(Text("a seed is a whole number from 0 to {max}, not {seed}", max=MAX_SEED - 1,
                              seed=repr(seed)[:40]))
    return seed


def seed_from_query(query: str | None) -> int | None:
    """The ``seed`` of a page's query string, if it is a valid one (else None).

    >>> seed_from_query("seed=42&x=1"), seed_from_query("seed=-3"), seed_from_query(None)
    (42, None, None)
    """
    from urllib.parse import parse_qs

    values = parse_qs(query or "").get("seed")
    if not values:
        return None
    try:
        return check_seed(values[-1])
    except TutorError:
        return None


__all__ = ["BOT_SPEEDS", "DEAL_SPEEDS", "Table", "check_seed", "fresh_seed", "seed_from_query"]
