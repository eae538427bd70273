"""The drill player: a question, an answer, Check, feedback, Retry, Next, staged hints,
streak and stars. The player draws a :class:`tutor.teach.drill_state.DrillState` and hands
the page's messages to it: every verdict is :meth:`tutor.teach.drills.base.Drill.check`'s;
when the answer is shown, what counts, what the feedback shows and which drill comes next
are the state machine's. Progress is kept in the browser (``localStorage``) and handed to
the kernel when the page loads.

Messages from the front end (all dicts with ``type``): ``check`` (``check_id``,
``answer``, ``selected`` — the selection travels with the check), ``hint``, ``reveal``
(show the correct answers after a wrong one), ``retry``, ``next``, ``level`` (``level``:
the learner's choice, 1–3), ``reset`` (after the widget's own confirm step), ``sync``
(``progress``: the stored JSON or null), ``dismiss_note``; the page sets one trait,
``selected``.

Work under way (:mod:`widgets.requests`, the protocol of every page): a message may carry
``request`` (the page's id of it, a whole number);
the kernel answers each such message once it is handled — done, ignored or failed — in
:attr:`DrillPlayer.handled`, and the page shows the work as under way until then (the
pressed button busy; the old drill greyed while the next is made, which for the coach's
drills takes seconds). ``check``, ``hint``, ``next`` and ``level`` also carry the
``token`` of the drill the learner saw (``hint`` also ``shown``: the hints seen): one for
a drill no longer shown, or a hint already given, is a repeat (a second click, a second
tab) and is ignored, as is any action arriving while the same action is under way. A
message without them is taken as it is (a script, the tests). The first ``sync`` that
makes a new drill from the stored progress first tells the page so (a custom message
``{"type": "busy", "request": …}``).

Anything else, or anything malformed, is ignored or answered with a note
in the drill (a refused answer, an impossible level, unreadable saved progress), and
changes nothing else — never a traceback, never Python's own words (see
:class:`widgets._common.PageWidget`). Sizes are checked before anything is read: answers
(:data:`tutor.teach.drills.answers.MAX_ANSWER`), saved progress
(:data:`tutor.teach.drills.progress.MAX_STORED`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from itertools import count
from typing import Any, Final

import traitlets as t

from tutor.core.errors import TutorError
from tutor.core.i18n import N_, Text, said
from tutor.rules.cards import Card
from tutor.teach.course import lesson as course_lesson
from tutor.teach.drill_state import DrillState
from tutor.teach.drills import KINDS, AnswerKind, Drill, Mark
from tutor.teach.drills import drawing
from tutor.teach.drills.progress import MAX_STARS, Progress
from tutor.teach.display import hand_payload
from widgets._common import (CSS, ESM, FAILED, PageWidget, labels, positions_ok, translator,
                             utc_now)
from widgets.requests import Requests, request_id

STORAGE_KEY: Final = "qidong-tutor/progress/v1"
"""Where the browser keeps progress (one store for every drill kind)."""

DRILL_LABELS: Final = {
    "reveal": N_("Show answer"),
    "try_again": N_("Not yet. Try again (Retry), ask for a hint, or show the answer."),
    "helped": N_("The answer was shown before you answered, so this one does not add to your streak."),
    "hint_answer": N_("{hint} ({shown}/{total}): the answer"),
    "level": N_("Level"),
    "level_n": N_("Level {level}"),
    "busy_next": N_("Getting the next drill…"),
    "stuck": N_("This is taking longer than it should. Try again, or reload the page: your progress is kept."),
}
"""The drill player's own texts, beside the shared :data:`widgets._common.LABELS`."""

_tokens = count(1)


class DrillPlayer(PageWidget):
    """Play drills of one kind, in a lesson (``lesson``: its slug; progress is kept per
    lesson) or on its own.

    What happens is :class:`~tutor.teach.drill_state.DrillState`'s (:attr:`machine`): a wrong
    answer is judged with its rule, but the correct answers are shown only when the learner
    asks ("Show answer", or the last hint), however many wrong tries there were; an
    answer given after the answer was shown (the last hint, which is the answer, or "Show
    answer") does not add to the streak. ``seed`` and ``level`` (a shared link's) win for
    this player only: its drills follow the link's seed, at the link's level, and neither
    is stored as the learner's; a level the learner chooses in the player is.

    >>> player = DrillPlayer("follow", seed=1)
    >>> player.drill.kind, player.feedback
    ('follow', {})
    """

    _esm = ESM
    _css = CSS
    _page_sets = frozenset({"selected"})
    _view = t.Unicode("drill").tag(sync=True)
    state = t.Dict().tag(sync=True)
    """What the front end draws for the current drill (question, hand, table …)."""
    feedback = t.Dict().tag(sync=True)
    """The last check's feedback (:meth:`DrillState.feedback_view`) as a dict, or ``{}``."""
    selected = t.List(t.Int()).tag(sync=True)
    """Picked cards: positions in the held hand (``state["hand"]``)."""
    hints = t.List(t.Unicode()).tag(sync=True)
    """The hints shown so far (staged: one more per request)."""
    stats = t.Dict().tag(sync=True)
    """``streak``, ``stars`` and ``max_stars`` of this kind in this lesson."""
    level = t.Int(1).tag(sync=True)
    """The level of fresh drills: the link's on this visit, else the learner's own."""
    synced = t.Bool(False).tag(sync=True)
    """The browser's stored progress has been taken (and the drill chosen from it): the
    front end marks the player ``data-synced`` (what scripts and tests wait for)."""
    labels = t.Dict().tag(sync=True)
    progress_json = t.Unicode("").tag(sync=True)
    progress_note = t.Unicode("").tag(sync=True)
    storage_key = t.Unicode(STORAGE_KEY).tag(sync=True)
    auto_advance = t.Bool(False).tag(sync=True)
    four_colour = t.Bool(False).tag(sync=True)
    lang = t.Unicode("en").tag(sync=True)
    """The language of every text (the front end marks the widget's own element with it;
    the page's ``<html lang>`` is the server's)."""
    handled = t.Dict().tag(sync=True)
    """The page's last request handled (see the module): ``request`` (its id), ``type``,
    ``ignored`` (a repeat) and ``work`` (the requests carried out so far by this player).
    It is sent with what the request changed, and ends the page's busy state."""

    def __init__(self, kind: str, *, seed: int | None = None, level: int | None = None, lang: str | None = None,
                 lesson: str | None = None, progress: Progress | None = None,
                 clock: Callable[[], datetime] | None = None, position: Drill | None = None,
                 exact_seed: bool = False, **kwargs: Any) -> None:
        """``lang``: one of :data:`tutor.core.i18n.LANGUAGES`; by default the kernel's
        language (:func:`tutor.core.i18n.current`). ``lesson``: the slug of the lesson the
        player is part of (refused with :class:`~tutor.core.errors.TutorError` when there
        is no such lesson). ``position``: a teacher's position (a drill of ``kind`` made
        by :mod:`tutor.teach.positions`), shown first; answers to it are judged as any
        drill's but never stored as progress (it is no seeded drill that could come
        back), and Next goes on with the learner's own drills of its kind. ``exact_seed``:
        ``seed`` is the lesson's own choice (a quick check's): the first drill is that very
        seed, in a lesson too (see :class:`~tutor.teach.drill_state.DrillState`)."""
        self.kind = kind
        self.lesson = None if lesson is None else course_lesson(lesson).slug
        self.tr = translator(lang)
        self._clock = clock or utc_now
        first = DrillState(kind, lang=self.tr.language, lesson=self.lesson,
                           progress=progress if progress is not None else Progress(), link_seed=seed, link_level=level,
                           exact_seed=exact_seed)
        first = first.showing(position) if position is not None else first.next(self._clock)
        self.machine = DrillState(kind)
        """The drill's state machine: every action of the player is one of its transitions."""
        self._order: list[Card] = []
        self.requests = Requests(frozenset())  # the page's request protocol (repeats: :meth:`_repeated`)
        self._request: int | None = None  # the id of the page's request being handled
        mine = {key: self.tr(text) for key, text in DRILL_LABELS.items()}
        super().__init__(labels={**labels(self.tr), **mine}, lang=self.tr.language, **kwargs)
        self.on_msg(self._on_message)
        self._show(first)
        self._publish_progress()

    @property
    def drill(self) -> Drill | None:
        """The drill shown (None when it could not be made)."""
        return self.machine.drill

    @property
    def progress(self) -> Progress:
        """The learner's progress, as this page holds it."""
        return self.machine.progress

    # ------------------------------------------------------------ actions

    def check(self, answer: object = None) -> dict[str, Any]:
        """Check ``answer`` — by default the picked cards (``selected``) — and show the
        feedback. Every judged answer goes to :meth:`Progress.record`, which decides
        what counts (a retry of the drill just answered does not)."""
        if self.drill is None:
            return {}
        if answer is None and self.drill.answer is AnswerKind.CARDS:
            answer = tuple(self._order[i] for i in self.selected if 0 <= i < len(self._order))
        return self._check(answer, check_id=None)

    def hint(self) -> str | None:
        """Show the next hint; None when every hint is shown. The last hint is the
        answer (see :class:`tutor.teach.drills.base.Drill`): once it is shown, the answer is."""
        state = self.machine.hint()
        if state.hints == self.machine.hints:
            return None
        self._show(state)
        return state.hint_texts[-1]

    def reveal(self) -> None:
        """Show the correct answers after a wrong answer ("Show answer")."""
        self._show(self.machine.reveal())

    def retry(self) -> None:
        """The same drill again: feedback and selection cleared, nothing re-dealt."""
        with self.hold_sync():
            self._show(self.machine.retry())
            self.selected = []

    def next(self) -> None:
        """The next drill: the link's next one on a visit by a seeded link, else the one
        :meth:`Progress.next_drill` chooses (mistakes come back later)."""
        self._show(self.machine.next(self._clock))

    def choose_level(self, level: int) -> None:
        """The learner chose ``level`` (one of :data:`tutor.teach.course.LEVELS`): it is stored
        as theirs (a link's level no longer applies to this player), and a fresh drill at
        that level is shown. Any other value is refused with
        :class:`~tutor.core.errors.TutorError`."""
        self._show(self.machine.choose_level(level))

    def reset(self) -> None:
        """Forget all progress (the front end asks the learner first)."""
        with self.hold_sync():
            self.progress_note = ""
            self._show(self.machine.reset())

    def sync(self, stored: object) -> None:
        """Take the progress the browser stored. A tampered store keeps what is valid
        and shows a note; a store that cannot be read at all (not text, far too long,
        not JSON …) changes nothing here but the note (this page's progress is kept and
        stored back). When nothing was answered yet (and the link gave no seed), the next
        drill is chosen from the restored progress, at the learner's stored level unless
        the link gave one."""
        try:
            self._take(stored, first=not self.synced)
        finally:
            self.synced = True

    # ------------------------------------------------------------ internals

    def _take(self, stored: object, *, first: bool) -> None:
        """:meth:`sync`'s work (``first``: the page's first sync)."""
        state, taken, problem = self.machine.restore(stored)
        with self.hold_sync():
            if not taken:
                if problem is not None:
                    self.progress_note = self.tr("Saved progress in this browser could not be read, so this page "
                                                 "keeps its own: {problem}", problem=self.tr(problem)[:300])
                self._publish_progress()
                return
            if problem is not None:
                self.progress_note = self.tr("Some saved progress could not be read and was left out: {problem}",
                                             problem=self.tr(problem)[:300])
            if first and state.fresh_on_sync:
                self._announce_work()  # a new drill
                state = state.next(self._clock)
            self._show(state)

    def _show(self, state: DrillState) -> None:
        """Take ``state`` as the machine's and draw what changed: the drill (when a new one is
        shown), the hints, the feedback, the level and the progress."""
        before, self.machine = self.machine, state
        with self.hold_sync():
            if state.shown != before.shown:
                self._draw(state)
            self.hints = list(state.hint_texts)
            view = state.feedback_view()
            self.feedback = view.as_dict() if view is not None else {}
            self.level = state.level
            if state.progress is not before.progress:
                self._publish_progress()

    def _draw(self, state: DrillState) -> None:
        """The drill ``state`` shows, as the front end draws it (with a new ``token``): the
        drill, or why it could not be made."""
        drill = state.drill
        self.selected = []
        if drill is None:
            self._order = []
            known = KINDS.get(self.kind) if isinstance(self.kind, str) else None
            problem = state.failure
            self.state = {"token": next(_tokens), "title": self.tr(known.title if known else N_("Drill")),
                          "error": self.tr("This drill could not be made: {problem}", problem=problem)
                          if isinstance(problem, Text) else self.tr("This drill could not be made.")}
            return
        # Drawn without the marks that would give the answer away (the drill's ``unmarked``).
        order, payload = hand_payload(drill.hand, drawing.drawn_trump(drill), self.tr,
                                      points=Mark.POINTS not in drill.unmarked)
        self._order = order if drill.answer is AnswerKind.CARDS else []  # only a CARDS drill picks cards
        info = KINDS.get(drill.kind)
        name = self.tr(info.title) if info else drill.kind
        shown: dict[str, Any] = {
            "token": next(_tokens),
            "kind": drill.kind,
            "seed": drill.seed,
            "level": drill.level,
            "title": self.tr("{title} · a teacher's position", title=name) if state.position
            else self.tr("{title} · level {level}", title=name, level=drill.level),
            "question": drill.question,
            "rules": list(drill.rules),
            "advice": drill.advice,
            "answer": drill.answer.value,
            "pick": drill.pick,
            "choices": [{"key": c.key, "label": c.label} for c in drill.choices],
            "hint_total": len(drill.hints),
            "table_html": drawing.table_html(drill, self.tr),
            "shown_html": drawing.shown_html(drill, self.tr),
        }
        if drill.answer is AnswerKind.CARDS:
            shown["hand"] = payload
        elif drill.hand:
            shown["hand_html"] = drawing.hand_html(drill, self.tr)
        self.state = shown

    def _check(self, answer: object, check_id: object) -> dict[str, Any]:
        """Check ``answer`` (the page's ``check_id`` echoed in the feedback); the feedback shown."""
        self._show(self.machine.check(answer, check_id=check_id, clock=self._clock))
        return dict(self.feedback)

    def _publish_progress(self) -> None:
        with self.hold_sync():
            mine = self.machine.counts
            self.stats = {"streak": mine.streak, "stars": mine.stars, "max_stars": MAX_STARS}
            self.progress_json = self.progress.to_json()

    def _page_value(self, name: str, value: object) -> bool:
        return name == "selected" and positions_ok(value, len(self._order))

    def _failed(self) -> None:
        self.progress_note = self.tr(FAILED)

    def _choose_level(self, level: object) -> None:
        """A level the page asked for; one that is no level gets a note, nothing else."""
        try:
            self.choose_level(level)  # type: ignore[arg-type] # checked there
        except TutorError as error:
            self.progress_note = self.tr("That level cannot be chosen: {problem}.", problem=self.tr(said(error)))

    def _announce_work(self) -> None:
        """Tell the page, before slow work it could not foresee, that the request being
        handled makes a new drill (the page shows its drill busy until the answer)."""
        if self._request is not None:
            self.send({"type": "busy", "request": self._request})

    @contextmanager
    def _answering(self, kind: str, request: int | None) -> Iterator[None]:
        """Handle one message of the page: what it changes is sent in one update, with
        :attr:`handled` when it carries a ``request`` — also when handling it failed (the
        page never waits for ever: the failure goes on to the one boundary of
        :class:`~widgets._common.PageWidget`, which says so in the widget's note; the
        state machine is changed only by a transition that succeeded, and progress is kept)."""
        self._request = request
        handling = None
        try:
            with self.hold_sync():
                try:
                    with self.requests.handling(kind, request, lambda: 0) as handling:
                        yield
                        handling.done = True
                finally:
                    if handling is not None and handling.record is not None:
                        self.handled = handling.record
        finally:
            self._request = None

    def _ignore(self, kind: str, request: int | None) -> None:
        """A repeated action (see the module): nothing changes; the page is answered."""
        if (record := self.requests.ignored(kind, request)) is not None:
            self.handled = record

    def _repeated(self, kind: str, content: dict[str, Any]) -> bool:
        """Whether ``content`` repeats an action: the same action still under way, or an
        action on a drill no longer shown (its ``token``), or a hint already given (its
        ``shown``)."""
        if kind in self.requests.under_way:
            return True
        if kind in ("check", "hint", "next", "level") and "token" in content \
                and content["token"] != self.state.get("token"):
            return True
        return kind == "hint" and "shown" in content and content["shown"] != len(self.hints)

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if not isinstance(kind, str):
            return
        request = request_id(content)
        if kind not in _ACTIONS:
            return
        if self._repeated(kind, content):
            self._ignore(kind, request)
            return
        with self._answering(kind, request):
            self._act(kind, content)

    def _act(self, kind: str, content: dict[str, Any]) -> None:
        """Carry out the page's message ``content`` of type ``kind``."""
        if kind == "check":
            selected = content.get("selected")
            if positions_ok(selected, len(self._order)):
                self.selected = list(selected)
            if self.drill is not None:
                self._check(content.get("answer"), content.get("check_id"))
        elif kind == "hint":
            self.hint()
        elif kind == "reveal":
            self.reveal()
        elif kind == "retry":
            self.retry()
        elif kind == "next":
            self.next()
        elif kind == "level":
            self._choose_level(content.get("level"))
        elif kind == "reset":
            self.reset()
        elif kind == "sync":
            self.sync(content.get("progress"))
        elif kind == "dismiss_note":
            self.progress_note = ""


_ACTIONS: Final = frozenset({"check", "hint", "reveal", "retry", "next", "level", "reset", "sync", "dismiss_note"})
"""The types of the page's messages."""



__all__ = ["STORAGE_KEY", "DrillPlayer"]
