"""The contract every drill keeps, whatever its kind: one immutable :class:`Drill`.

A drill is a question made from a seed: the position to show (hand, trump, cards on
the table, other cards), the kind of answer expected, staged hints, and
:meth:`Drill.check`, which asks the rules module and returns :class:`Feedback`.
Every kind (``tutor.teach.drills.points``, ``follow``, ``ruff``, ``throw``, ``tractor``,
``trick``, ``declare``, ``friend``, ``score``, ``count``, ``advice``) makes a :class:`Drill`; the widgets show one and pass the
learner's answer to ``check``; they decide nothing.

>>> from dataclasses import replace
>>> from tutor.rules.notation import parse_cards
>>> drill = Drill(kind="score", level=1, seed=0, question="What are ♠K ♠5 worth?", trump=Trump("♥"),
...               rules=("S1",), answer=AnswerKind.NUMBER, rule="S1", number=15,
...               shown=parse_cards("♠K ♠5"), explain="A K counts 10, a 5 counts 5.",
...               hints=("Count the Ks, 10s and 5s.", "The answer: 15."))
>>> drill.check("15").correct, drill.check("15").message
(True, 'Right. A K counts 10, a 5 counts 5.')
>>> wrong = drill.check(" 12 ")
>>> wrong.message, wrong.explanation
('Not quite. 12 is too low (S1).', 'A K counts 10, a 5 counts 5.')
>>> drill.check("fifteen").error
"answer with a whole number, not 'fifteen'"
>>> drill == replace(drill, hints=drill.hints), drill == replace(drill, number=20)
(True, False)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from tutor.rules.cards import Card
from tutor.core.errors import TutorError
from tutor.teach.drills.answers import AnswerError, AnswerKind, Choice, read_cards, read_choice, read_number, reason_of
from tutor.teach.drills.common import DrillError
from tutor.core.i18n import N_, Text, Translator
from tutor.rules.order import Trump

MAX_SHOWN: Final = 10
"""At most this many correct answers are listed in feedback (``answer_count`` has the total)."""

Judge = Callable[[tuple[Card, ...]], tuple[bool, str, str]]
"""A CARDS answer's judge: (correct, rule ID, sentence naming the cards)."""
Solve = Callable[[], tuple[tuple[str, ...], int]]
"""The correct CARDS answers as text (at most :data:`MAX_SHOWN`) and their number."""
Refute = Callable[[str], tuple[str, str]]
"""Why the choice of a CHOICE drill with this key is wrong: the rule ID it breaks (empty for
advice, which rests on no rule) and the sentence saying so, which cites that rule — never why
the correct one is right."""


class Mark(Enum):
    """A mark a card's face carries besides the card, which a drill may ask and so must not
    show before it is answered (:attr:`Drill.unmarked`)."""

    POINTS = "points"
    """The badge with the card's points (C3)."""
    TRUMP = "trump"
    """That the card is a trump: its edge, ", trump" in its name, its place among a hand's
    trumps."""


@dataclass(frozen=True, slots=True)
class Feedback:
    """The verdict on one answer.

    ``correct``; ``rule``: the rule ID that decides this answer; ``message``: what
    is shown at once — for a right answer, why it is right; for a wrong one, why
    *that* answer is wrong (naming the learner's own cards or choice), never why the
    correct one is right, so a second try is still a try; ``explanation``: why the
    correct answer is right, for a wrong answer only (empty otherwise, or when the
    drill has no more to say than its answers): the player shows it with the answers,
    when they are revealed; ``answers``: the correct answers as text (all of them,
    or the first ``len(answers)`` of ``answer_count``); ``error``: set instead of a
    verdict when the answer itself cannot be read (junk, cards not in the hand,
    wrong count) — then ``correct`` is False and the attempt should not count as a
    mistake.

    >>> Feedback(True, "W3", "Right.", ("♥7 ♥7",), 1)
    Feedback(correct=True, rule='W3', message='Right.', answers=('♥7 ♥7',), answer_count=1, error=None, explanation='')
    """

    correct: bool
    rule: str
    message: str
    answers: tuple[str, ...]
    answer_count: int
    error: str | None = None
    explanation: str = ""


@dataclass(frozen=True, slots=True)
class Table:
    """Cards already on the table: one entry per seat that has played, in order;
    the first is the lead.

    >>> from tutor.rules.notation import parse_cards
    >>> Table(((3, parse_cards("♠A")), (4, parse_cards("♠3")))).plays[0][0]
    3
    """

    plays: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    finished: bool = False
    """The trick is over and only ``plays`` are shown (the lead of a hand's last trick):
    no seat is waiting to play."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Drill:
    """One drill, made by a kind's ``make`` (see :func:`tutor.teach.drills.generate`).

    What it is: ``kind`` (a key of the drill registry), ``level`` (1 easy … 3 hard),
    ``seed``, ``lang`` (the language every text is said in), ``rules`` (the rule IDs
    practised). What it shows: ``question`` (translated text), ``trump``, ``hand``
    (the learner's cards; pickable when ``answer`` is CARDS), ``seat`` (the
    learner's, when the question has one), ``table``, ``shown`` (other cards the
    question is about: a candidate play, a kitty, a declaration …), ``others``
    (other players' cards the answer rests on, as (seat, cards): for a throw, each
    other hand's cards of the thrown suit) and ``hints`` (staged: first where to
    look, last the answer). How it is answered: ``answer`` (an :class:`AnswerKind`),
    ``choices`` and ``pick`` (how many cards to pick, or None: any number).

    A drill is answerable from the screen: the player draws the question, the table,
    the shown cards, the hand and the choices, so every other fact the answer rests
    on — the trump, whose declaration it is, ``others`` — is said in the question
    (``tests/test_drills_fair.py`` recomputes every answer from those alone). Nor does the
    screen give the answer away: ``unmarked`` lists the marks of a card's face (a
    :class:`Mark`) that rest on what the drill asks, and its cards are drawn without them
    until it is answered (:mod:`tutor.teach.drills.drawing`) — no point badges on the
    cards whose points are asked, and, where the trump is what is asked, the cards drawn
    as before any declaration (only 2s and jokers are trumps then);
    ``tests/test_drill_answer_hidden.py`` reads the page for both.

    How it is judged: ``rule`` is the rule ID that decides the answer and
    ``explain`` the sentence saying why the correct answer is correct (shown when the
    answer is right, or revealed). A CHOICE drill keeps its correct keys in
    ``correct`` (several when several are right) and may have a ``refute`` (the rule a
    wrong key breaks and the sentence saying why, citing it; without one, a wrong answer
    to a question of two choices — yes or no — is told why the other is right, ``explain``,
    since the verdict gives the answer away anyway, and a wrong choice among more is named
    with the drill's rule), a NUMBER drill its ``number`` (a
    wrong number is told too low or too high); a CARDS drill has a ``judge`` (asks
    the rules module about any pick: its sentence is about the pick) and ``solve``
    (lists the correct picks, asked once). Two drills are equal when everything but
    ``judge``, ``solve`` and ``refute`` is (those are made from the rest).

    An ``advice`` drill (:mod:`tutor.teach.drills.advice`) asks what plays *well*: its correct
    choice is the coach's search's, not a rule's, so its ``rule`` is empty and every
    sentence it says is marked as advice.

    A drill that breaks this (a CARDS drill without a judge, a correct key that is no
    choice …) is refused with :class:`~tutor.teach.drills.common.DrillError` when it is made.

    >>> Drill(kind="x", level=1, seed=0, question="?", trump=Trump(None), rules=(), rule="M2", hints=(),
    ...       answer=AnswerKind.CHOICE, choices=(Choice("yes", "Yes"),), correct=frozenset({"no"}))
    Traceback (most recent call last):
    ...
    tutor.teach.drills.common.DrillError: a choice drill's correct keys must be keys of its choices, not ['no']
    """

    kind: str
    level: int
    seed: int
    question: str
    trump: Trump
    rules: tuple[str, ...]
    answer: AnswerKind
    rule: str
    hints: tuple[str, ...]
    lang: str = "en"
    hand: tuple[Card, ...] = ()
    seat: int | None = None
    table: Table = Table()
    shown: tuple[Card, ...] = ()
    others: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    choices: tuple[Choice, ...] = ()
    pick: int | None = None
    explain: str = ""
    correct: frozenset[str] = frozenset()
    number: int | None = None
    judge: Judge | None = field(default=None, repr=False, compare=False)
    solve: Solve | None = field(default=None, repr=False, compare=False)
    refute: Refute | None = field(default=None, repr=False, compare=False)
    advice: bool = False
    unmarked: frozenset[Mark] = frozenset()
    shown_label: str = ""
    """What the ``shown`` cards are (``The kitty``), said in the drill's language; empty when
    the question says it."""

    def __post_init__(self) -> None:
        if self.answer is AnswerKind.CARDS and (self.judge is None or self.solve is None):
            raise DrillError(Text("a cards drill needs a judge and a solve"), parameter="judge")
        if self.answer is AnswerKind.CHOICE:
            keys = {c.key for c in self.choices}
            if not self.correct or not self.correct <= keys:
                raise DrillError(Text("a choice drill's correct keys must be keys of its choices, not {keys}",
                                      keys=str(sorted(self.correct - keys))), parameter="correct")
        if self.answer is AnswerKind.NUMBER and self.number is None:
            raise DrillError(Text("a number drill needs its number"), parameter="number")
        if self.solve is not None:  # listing every correct pick can be slow: do it once
            object.__setattr__(self, "solve", functools.cache(self.solve))

    def solutions(self) -> tuple[tuple[str, ...], int]:
        """The correct answers as text (at most :data:`MAX_SHOWN`) and how many there are."""
        if self.answer is AnswerKind.CHOICE:
            labels = tuple(c.label for c in self.choices if c.key in self.correct)
            return labels[:MAX_SHOWN], len(labels)
        if self.answer is AnswerKind.NUMBER:
            return (str(self.number),), 1
        assert self.solve is not None  # __post_init__ saw to it
        return self.solve()

    def check(self, answer: object) -> Feedback:
        """Judge ``answer`` (see :class:`AnswerKind`). Never raises on a bad answer:
        one that cannot be read, or that the rules module refuses
        (:class:`~tutor.core.errors.TutorError`), gets ``Feedback(error=...)``."""
        try:
            return self._check(answer)
        except AnswerError as exc:
            return Feedback(False, self.rule, "", (), 0, error=str(exc))
        except TutorError as exc:
            return Feedback(False, self.rule, "", (), 0, error=reason_of(
                exc, Translator(self.lang), N_("This answer cannot be read: {problem}"),
                N_("This answer cannot be read.")))

    def _check(self, answer: object) -> Feedback:
        tr = Translator(self.lang)
        explanation = self.explain
        if self.answer is AnswerKind.CHOICE:
            key = read_choice(answer, self.choices, tr)
            ok = key in self.correct
            rule, why = (self.rule, self.explain) if ok else self._refuted(key, tr)
            if not ok and why == self.explain:
                explanation = ""  # said already
        elif self.answer is AnswerKind.NUMBER:
            number, rule = read_number(answer, tr), self.rule
            assert self.number is not None  # __post_init__ saw to it
            ok = number == self.number
            if ok:
                why = self.explain
            elif number < self.number:
                why = tr("{number} is too low ({rule}).", number=number, rule=rule)
            else:
                why = tr("{number} is too high ({rule}).", number=number, rule=rule)
        else:
            cards = read_cards(answer, self.hand, self.pick, tr)
            assert self.judge is not None  # __post_init__ saw to it
            ok, rule, why = self.judge(cards)
        answers, count = self.solutions()
        head = tr("Right.") if ok else tr("Not quite.")
        return Feedback(ok, rule, tr.sentences(head, why), answers, count, explanation="" if ok else explanation)

    def _refuted(self, key: str, tr: Translator) -> tuple[str, str]:
        """The rule the choice ``key`` (a wrong one) breaks, and why it is wrong: the drill's
        ``refute``; else, of two choices, why the other one is right (``explain``: the
        verdict names it anyway); else the choice named with the drill's rule."""
        if self.refute is not None:
            return self.refute(key)
        if len(self.choices) == 2 and self.explain:
            return self.rule, self.explain
        label = next(c.label for c in self.choices if c.key == key)
        return self.rule, tr("“{choice}” is not the answer ({rule}).", choice=label, rule=self.rule)


__all__ = ["MAX_SHOWN", "AnswerKind", "Choice", "Drill", "Feedback", "Judge", "Mark", "Refute", "Solve", "Table"]
