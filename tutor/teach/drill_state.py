"""The drill player's state machine, apart from any page: which drill is shown, what the
learner's answers to it did, when its correct answers are shown, whether an answer counts,
and what the feedback shows. A :class:`DrillState` is an immutable value; every action is
a method that returns the next state and changes nothing else. The widget
(:class:`widgets.drill.DrillPlayer`) keeps one, hands each of the page's messages to it,
and draws what it holds; it decides nothing itself.

The rules of the machine:

- **Drills in turn.** On a visit by a link with a seed, seeds made from it and the lesson
  (:func:`~tutor.teach.drills.progress.visit_seed`: two lessons given one seed start on drills
  of their own; a player outside the lessons starts on the link's seed itself); else a mistake that has
  come due, or a fresh seed (:meth:`Progress.next_drill`). Choosing a level stores it as
  the learner's (a link's level no longer applies) and shows a fresh drill at it.
- **Answers.** An answer is judged by the drill (:meth:`Drill.check`). One that cannot
  be read (refused before the drill looks at it, :func:`~tutor.teach.drills.answers.refusal`,
  or by the drill itself) is no try and is not recorded. Every other answer is recorded
  (:meth:`Progress.record`, which decides what counts: a retry of the drill just answered
  does not, and is marked ``practice``), except to a teacher's position, which is never stored.
- **Reveal.** A wrong answer is judged with its rule, but the correct answers, and why
  the right one is right, are shown only when the learner asks: "Show answer"
  (:meth:`DrillState.reveal`), or the last hint, which is the answer. However many wrong
  tries there were, the answer never appears unasked: the feedback offers "Show answer".
- **Helped.** An answer given after the answer was shown is *helped*: recorded as an
  attempt, but a right one does not add to the streak (``helped`` in the feedback).

>>> from datetime import datetime, timezone
>>> now = lambda: datetime(2026, 1, 1, tzinfo=timezone.utc)
>>> state = DrillState("tractor", link_seed=4).next(now)
>>> state.drill.answer.value, sorted(state.drill.correct)
('choice', ['yes'])
>>> wrong = state.check("no", clock=now)
>>> view = wrong.feedback_view()
>>> view.correct, view.answers, view.can_reveal, wrong.counts.attempts
(False, (), True, 1)
>>> wrong.reveal().feedback_view().answers
('Yes',)
>>> for _ in state.drill.hints:  # the last hint is the answer
...     state = state.hint()
>>> helped = state.check("yes", clock=now)
>>> helped.feedback_view().helped, helped.counts
(True, KindProgress(attempts=1, correct=0, streak=0, stars=0))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from tutor.core.arguments import MAX_EXACT
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text, Translator, said
from tutor.teach.course import level_number
from tutor.teach.drills import Drill, Feedback, generate
from tutor.teach.drills.answers import refusal
from tutor.teach.drills.progress import KindProgress, Progress, read_stored, visit_seed

Clock = Callable[[], datetime]
"""Where a transition reads the time: only when it needs it (an answer recorded, a
mistake that may have come due), so a state that needs no time never reads it."""


@dataclass(frozen=True, slots=True)
class Answered:
    """The last answer to the drill shown: the drill's :class:`Feedback`, the page's id of
    the check (``-1``: none), and what recording it did: ``counted`` (progress changed),
    ``practice`` (judged, but not counted: a retry of the drill just answered) and
    ``helped`` (a right answer given after the answer was shown)."""

    feedback: Feedback
    check_id: int = -1
    counted: bool = False
    practice: bool = False
    helped: bool = False


@dataclass(frozen=True, slots=True)
class FeedbackView:
    """The last answer's feedback as the learner sees it: its correct answers, and why the
    right answer is right (``explanation``), only when the answer is right or has been
    shown (``revealed``); before that only why the learner's answer is wrong, and
    ``can_reveal`` (a wrong answer that was read: "Show answer" is offered).

    >>> FeedbackView(False, "W3", "Not quite.", (), 0, "", None, 7, False, True).as_dict()["check_id"]
    7
    """

    correct: bool
    rule: str
    message: str
    answers: tuple[str, ...]
    answer_count: int
    explanation: str
    error: str | None
    check_id: int
    revealed: bool
    can_reveal: bool
    practice: bool = False
    helped: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The view as the page reads it (JSON): ``error``, ``practice`` and ``helped`` only
        when there is one."""
        record: dict[str, Any] = {
            "correct": self.correct, "rule": self.rule, "message": self.message, "answers": list(self.answers),
            "answer_count": self.answer_count, "explanation": self.explanation, "check_id": self.check_id,
            "revealed": self.revealed, "can_reveal": self.can_reveal,
        }
        if self.error is not None:
            record["error"] = self.error
        if self.practice:
            record["practice"] = True
        if self.helped:
            record["helped"] = True
        return record


@dataclass(frozen=True, slots=True)
class DrillState:
    """Where a learner is with the drills of one ``kind`` (see the module).

    What it is for: ``kind``, ``lang`` (every text's language), ``lesson`` (the slug
    progress is kept under, or None), ``progress``, and a link's ``link_seed`` and
    ``link_level`` (this visit's only; ``visit`` counts the drills made from the seed;
    ``exact_seed``: the seed is the lesson's own choice, a quick check's, so the first drill
    is that very seed, in a lesson too).
    What is shown: ``drill`` (None when it could not be made: ``failure``, the reason),
    ``position`` (the drill is a teacher's: never stored), ``shown`` (drills shown so far: a
    new number for each new drill or failure). What the learner did with it: ``tries`` (wrong
    answers), ``revealed`` (the answer has been shown), ``hints`` (how many are shown) and
    ``last`` (the last answer, until a retry).

    >>> state = DrillState("follow", link_seed=1).next(lambda: None)  # a link's drill needs no time
    >>> state.drill.seed, state.visit, state.shown, state.level
    (1, 1, 1, 1)
    >>> DrillState("chess", link_seed=1).next(lambda: None).failure
    "unknown drill kind 'chess'; choose one of points, tractor, follow, ruff, throw, trick, declare, friend, score, count, advice"
    """

    kind: str
    lang: str = "en"
    lesson: str | None = None
    progress: Progress = field(default_factory=Progress)
    link_seed: int | None = None
    link_level: int | None = None
    exact_seed: bool = False
    visit: int = 0
    drill: Drill | None = None
    failure: str | None = None
    position: bool = False
    shown: int = 0
    tries: int = 0
    revealed: bool = False
    hints: int = 0
    last: Answered | None = None

    # ------------------------------------------------------------ what it says

    @property
    def level(self) -> int:
        """The level of fresh drills: the link's on this visit, else the learner's own."""
        return self.link_level if self.link_level is not None else self.progress.level(self.kind, self.lesson)

    @property
    def counts(self) -> KindProgress:
        """This kind's streak, stars and answers, in this lesson."""
        return self.progress.kind(self.kind, self.lesson)

    @property
    def hint_texts(self) -> tuple[str, ...]:
        """The hints shown so far (the last of all is the answer)."""
        return self.drill.hints[:self.hints] if self.drill is not None else ()

    @property
    def fresh_on_sync(self) -> bool:
        """Whether the browser's stored progress, taken on the page's first sync, chooses
        the drill: not on a seeded link's visit, nor once an answer was given, nor over a
        teacher's position."""
        return self.link_seed is None and self.last is None and not self.position

    def feedback_view(self) -> FeedbackView | None:
        """What the feedback shows of the last answer (see :class:`FeedbackView`), or None
        when there is none (no answer yet, or a retry)."""
        last = self.last
        if last is None:
            return None
        feedback = last.feedback
        visible = feedback.correct or self.revealed
        return FeedbackView(
            correct=feedback.correct, rule=feedback.rule, message=feedback.message,
            answers=feedback.answers if visible else (), answer_count=feedback.answer_count if visible else 0,
            explanation=feedback.explanation if visible else "", error=feedback.error, check_id=last.check_id,
            revealed=visible, can_reveal=not visible and feedback.error is None, practice=last.practice,
            helped=last.helped)

    # ------------------------------------------------------------ which drill

    def upcoming(self, clock: Clock) -> tuple[DrillState, int, int]:
        """The state after choosing the next drill, and its seed and level: on a seeded visit,
        the drills made from the link's seed (:func:`visit_seed`; no time is read); else a due
        mistake or a fresh seed (:meth:`Progress.next_drill`).

        >>> state, seed, level = DrillState("follow", link_seed=42, link_level=2).upcoming(lambda: None)
        >>> seed, level, state.visit
        (42, 2, 1)
        """
        if self.link_seed is not None:
            return self._linked()
        seed, level = self.progress.next_drill(self.kind, clock(), self.level, self.lesson)
        return self, seed, level

    def _linked(self) -> tuple[DrillState, int, int]:
        """:meth:`upcoming` on a seeded link's visit: the next drill made from its seed."""
        assert self.link_seed is not None
        exact = self.exact_seed and self.visit == 0
        seed = self.link_seed if exact else visit_seed(self.link_seed, self.visit, self.kind, self.lesson)
        return replace(self, visit=self.visit + 1), seed, self.level

    def next(self, clock: Clock) -> DrillState:
        """The next drill (:meth:`upcoming`), shown (:meth:`made`)."""
        state, seed, level = self.upcoming(clock)
        return state.made(seed, level)

    def made(self, seed: int, level: int) -> DrillState:
        """The drill of ``seed`` and ``level`` shown, with nothing done to it yet; a drill that
        cannot be made (:class:`~tutor.teach.drills.DrillError`) is shown as its ``failure``.

        >>> DrillState("follow").made(3, 4).failure
        "level 4 is not a level of 'follow' drills; choose one of 1, 2, 3"
        """
        cleared = self._cleared()
        try:
            drill = generate(self.kind, seed, level, lang=self.lang)
        except TutorError as error:
            return replace(cleared, failure=said(error))
        return replace(cleared, drill=drill)

    def showing(self, position: Drill) -> DrillState:
        """A teacher's ``position`` (a drill of this kind made by :mod:`tutor.teach.positions`)
        shown: judged as any drill, never stored. A drill of another kind is refused with
        :class:`~tutor.core.errors.TutorError`."""
        if not isinstance(position, Drill) or position.kind != self.kind:
            given = position.kind if isinstance(position, Drill) else shown(position)
            raise TutorError(Text("the position is a {given} drill, not a {kind} drill", given=given,
                                  kind=shown(self.kind)), parameter="position")
        return replace(self._cleared(), drill=position, position=True)

    def choose_level(self, level: object) -> DrillState:
        """The learner chose ``level`` (one of :data:`tutor.teach.course.LEVELS`, else refused
        with :class:`~tutor.core.errors.TutorError`): it is stored as theirs, a link's level no
        longer applies, and a fresh drill at that level is shown."""
        chosen = level_number(level)
        state = replace(self, link_level=None, progress=self.progress.with_level(self.kind, chosen, self.lesson))
        if state.link_seed is not None:
            state, seed, _ = state._linked()
        else:
            seed = state.progress.fresh_seed(self.kind, self.lesson)
        return state.made(seed, chosen)

    def _cleared(self) -> DrillState:
        """A new drill's state: nothing shown yet, nothing answered."""
        return replace(self, drill=None, failure=None, position=False, shown=self.shown + 1, tries=0,
                       revealed=False, hints=0, last=None)

    # ------------------------------------------------------------ the learner's actions

    def check(self, answer: object, *, check_id: object = None, clock: Clock) -> DrillState:
        """The state after answering the drill shown with ``answer`` (see the module);
        ``check_id`` is the page's id of the check, kept when it is a whole number from 0 to
        :data:`~tutor.core.arguments.MAX_EXACT`. With no drill shown, nothing changes."""
        drill = self.drill
        if drill is None:
            return self
        refused = refusal(answer)
        if refused is not None:
            feedback = Feedback(False, "", "", (), 0, error=Translator(self.lang)(refused))
        else:
            feedback = drill.check(answer)
        progress, counted, practice, helped = self.progress, False, False, False
        if feedback.error is None and not self.position:  # an unreadable answer is not a mistake
            progress = self.progress.record(drill.kind, drill.seed, drill.level, feedback.correct, clock(),
                                            lesson=self.lesson, helped=self.revealed)
            counted = progress != self.progress
            practice = not counted
            helped = counted and self.revealed and feedback.correct
        tries = self.tries + (feedback.error is None and not feedback.correct)
        kept = check_id if type(check_id) is int and 0 <= check_id <= MAX_EXACT else -1
        return replace(self, progress=progress, tries=tries, last=Answered(feedback, kept, counted, practice, helped))

    def hint(self) -> DrillState:
        """One more hint shown (nothing changes when every hint is); the last one is the
        answer, so the answer is then shown."""
        drill = self.drill
        if drill is None or self.hints >= len(drill.hints):
            return self
        hints = self.hints + 1
        return replace(self, hints=hints, revealed=self.revealed or hints == len(drill.hints))

    def reveal(self) -> DrillState:
        """The correct answers shown after a wrong answer that was read ("Show answer"); from
        now on this drill's answers are helped. Otherwise nothing changes."""
        last = self.last
        if last is None or last.feedback.error is not None or last.feedback.correct:
            return self
        return replace(self, revealed=True)

    def retry(self) -> DrillState:
        """The same drill again: the last answer's feedback cleared, nothing re-dealt (the
        tries and whether the answer was shown stay)."""
        return replace(self, last=None)

    def reset(self) -> DrillState:
        """All progress forgotten (the drill shown stays)."""
        return replace(self, progress=Progress())

    def restore(self, stored: object) -> tuple[DrillState, bool, Text | None]:
        """The state after taking the progress a browser stored, whether it was taken, and
        what could not be read of it. Nothing stored (None) or what this state already holds
        is not taken; a store that cannot be read at all is not taken (this state's progress
        is kept) and the reason is given; a tampered one is taken with what is valid, and
        the reason says what was left out.

        >>> state, taken, problem = DrillState("follow").restore("[")
        >>> taken, str(problem)
        (False, 'what is saved is damaged (changed by hand, or cut short)')
        """
        if stored is None:
            return self, False, None
        if isinstance(stored, str) and stored == self.progress.to_json():
            return self, False, None
        progress, problem = read_stored(stored)
        if progress is None:
            return self, False, problem
        return replace(self, progress=progress), True, problem


__all__ = ["Answered", "Clock", "DrillState", "FeedbackView"]
