"""The contract every drill keeps, whatever its kind.

A :class:`Drill` is an immutable question made from a seed: the position to show
(hand, trump, cards on the table, other cards), the kind of answer expected, staged
hints, and :meth:`Drill.check`, which asks the rules module and returns
:class:`Feedback`. The widgets show a drill and pass the learner's answer to
``check``; they decide nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from tutor.cards import Card
from tutor.order import Trump


class AnswerKind(Enum):
    """How the learner answers."""

    CARDS = "cards"  # pick cards from ``Drill.hand``; the answer is a tuple of Card
    CHOICE = "choice"  # pick one of ``Drill.choices``; the answer is the choice's key
    NUMBER = "number"  # type a whole number; the answer is an int


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a multiple-choice answer: a stable key and its label."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Feedback:
    """The verdict on one answer.

    ``correct``; ``rule``: the rule ID that decides this answer; ``message``: a
    sentence naming the learner's own cards, saying why the answer is right or
    wrong; ``answers``: the correct answers as text (all of them, or the first
    ``len(answers)`` of ``answer_count``); ``error``: set instead of a verdict when
    the answer itself cannot be read (junk, cards not in the hand, wrong count) —
    then ``correct`` is False and the attempt should not count as a mistake.
    """

    correct: bool
    rule: str
    message: str
    answers: tuple[str, ...]
    answer_count: int
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """Cards already on the table: one entry per seat that has played, in order;
    the first is the lead."""

    plays: tuple[tuple[int, tuple[Card, ...]], ...] = ()


class Drill:
    """Base of every drill kind (subclasses are frozen dataclasses).

    Attributes every drill has: ``kind`` (a key of the drill registry), ``level``
    (1 easy … 3 hard), ``seed``, ``question`` (translated text), ``trump``,
    ``rules`` (the rule IDs practised), ``hand`` (the learner's cards; pickable
    when ``answer`` is CARDS), ``table``, ``shown`` (other cards the question is
    about: a candidate play, a kitty, a declaration …), ``answer``, ``choices``,
    ``pick`` (how many cards to pick, or None: any number), ``hints`` (staged:
    first where to look, last the answer); added later: ``others`` and ``seat``.
    """

    kind: str
    level: int
    seed: int
    question: str
    trump: Trump
    rules: tuple[str, ...]
    hand: tuple[Card, ...]
    table: Table
    shown: tuple[Card, ...]
    answer: AnswerKind
    choices: tuple[Choice, ...]
    pick: int | None
    hints: tuple[str, ...]
    others: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    """Other players' cards the question is about, as (seat, cards): for a throw,
    each other hand's cards of the thrown suit. Empty for most kinds."""
    seat: int | None = None
    """The learner's seat (0–4) when the question has one, else None."""

    def check(self, answer: object) -> Feedback:
        """Judge the learner's answer. Never raises on a bad answer: a malformed
        one gets ``Feedback(error=...)``."""
        raise NotImplementedError
