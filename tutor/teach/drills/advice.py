"""The coach's drills: "Which play does the coach advise?" and "Which call does the coach
advise?" — advice, not rules.

A position from a real hand (computer players at level 1, a seeded deal), prepared in the
bank (:mod:`tutor.play.bank`): the learner holds one seat's cards at its turn to
play, or is the declarer about to call a friend. Three choices, all legal; the correct one
is the coach's, found when the bank was made by playing each choice out on
:data:`~tutor.play.bank.DEEP` random layouts of the cards the seat cannot see. The
two others are each beaten by at least the level's margin and by two standard errors (level
1 asks about clear differences, level 3 about finer ones: :func:`~tutor.play.bank.distractors`).
A drill opens at once: nothing is searched. Every sentence says it is advice
(``Drill.advice``), and the reveal gives the coach's numbers.

>>> import random
>>> from tutor.core.i18n import Translator
>>> drill = make(0, 1, random.Random(2), Translator("en"))
>>> drill.kind, drill.advice, drill.answer.value, len(drill.choices)
('advice', True, 'choice', 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from tutor.core.i18n import Text, Translator
from tutor.play import bank
from tutor.play.bank import FORMS, Option
from tutor.rules.view import SeatView
from tutor.teach.coaching import call_named, signed, situation, weighed_play
from tutor.teach.drills.base import AnswerKind, Choice, Drill, Table
from tutor.teach.drills.common import GenerationError, with_trump
from tutor.teach.narration import you_are
from tutor.teach.reasons import play_reason


@dataclass(frozen=True, slots=True)
class Position:
    """An advice drill's position: the learner's seat's ``view`` (the declarer's, for a
    call), the bank's entry it comes from, the three ``options`` in the order they are
    shown, and the index of the coach's ``best`` among them."""

    view: SeatView
    entry: bank.Entry
    options: tuple[Option, ...]
    best: int


def position(seed: int, level: int, rng: random.Random) -> Position:
    """The position of the advice drill made from ``seed`` at ``level`` with ``rng`` (the
    one :func:`tutor.teach.drills.generate` gives it): a play (``FORMS[seed % 2] ==
    "play"``) or a call, drawn from the bank's entries for the level, the options in an
    order ``rng`` draws.

    >>> found = position(3, 2, random.Random(1))
    >>> len(found.options), found.options[found.best].gain
    (3, 0.0)
    """
    form = FORMS[seed % len(FORMS)]
    entries = bank.load().entries(level, form)
    if not entries:
        raise GenerationError(Text("the advice bank has no position for level {level}", level=level))
    entry = entries[rng.randrange(len(entries))]
    pair = bank.distractors(entry, level)
    assert pair is not None  # the bank's entries for a level serve it
    order = [0, *pair]
    rng.shuffle(order)
    return Position(entry.view(), entry, tuple(entry.options[i] for i in order), order.index(0))


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    found = position(seed, level, rng)
    return _play_drill(found, seed, level, tr) if found.entry.form == "play" else _call_drill(found, seed, level, tr)


KEYS: Final = "abc"


def _play_drill(found: Position, seed: int, level: int, tr: Translator) -> Drill:
    view = found.view
    value_of = dict(zip(found.entry.options, found.entry.values()))  # the coach's own numbers (bank.prepared)
    values = [value_of[option] for option in found.options]
    trump = view.trump
    assert trump is not None
    best = values[found.best]
    layouts = bank.load().layouts
    question = tr.sentences(
        with_trump(tr(you_are(view)), trump, tr),
        *(tr(line) for line in situation(view)),
        tr("Which of these plays does the coach advise?") if view.trick else
        tr("You lead. Which of these leads does the coach advise?"))
    ranked = sorted(range(3), key=lambda i: found.options[i].gain)
    explain = tr.sentences(
        tr("The coach played each choice out {count} times from here, dealing the cards you cannot see at random "
           "as the table allows, and averaged your result (S1).", count=layouts),
        *(tr("{line}.", line=Text("{cards}: {reason}", cards=trump.sorted(values[i].play),
                                  reason=play_reason(view, values[i]))) for i in ranked),
        *(tr("{line}.", line=weighed_play(values[i], trump)) for i in ranked),
        _leads(found, [tr.cards(trump.sorted(values[i].play)) for i in ranked[1:]], tr))

    def refute(key: str) -> tuple[str, str]:
        index = KEYS.index(key)
        return "", tr("The coach expects {cards} to do about {gain} points of the score table worse than its choice "
                  "here, over {count} deals of the cards you cannot see.", cards=values[index].play,
                  gain=format(found.options[index].gain, ".1f"), count=layouts)

    return Drill(kind="advice", level=level, seed=seed, lang=tr.language, trump=trump, rules=(), advice=True,
                 question=question, hand=trump.sorted(view.hand), seat=view.seat, table=Table(view.trick),
                 answer=AnswerKind.CHOICE,
                 choices=tuple(Choice(k, tr.cards(trump.sorted(v.play))) for k, v in zip(KEYS, values)),
                 correct=frozenset({KEYS[found.best]}), rule="", explain=explain, refute=refute,
                 hints=(tr("Who is winning the trick now, and on whose side is that seat?") if view.trick else
                        tr("Which of your cards can nobody beat? Who is out of which suit?"),
                        tr("Points go to the side that takes the trick: give them to your partner, not to the "
                           "other side; keep trumps that can win later."),
                        tr("The coach's choice: {cards}.", cards=best.play)))


def _leads(found: Position, others: Sequence[str], tr: Translator) -> str:
    """How far the coach's choice leads the two others, in game terms, and how sure it is."""
    closer, farther = sorted((o for o in found.options if o.gain > 0), key=lambda o: o.gain)
    return tr("The coach's choice does about {closer} points of the score table better than {first} and {farther} "
              "better than {second} on the same deals; each difference is beyond the coach's margin of error.",
              closer=format(closer.gain, ".1f"), farther=format(farther.gain, ".1f"), first=others[0],
              second=others[1])


def _call_drill(found: Position, seed: int, level: int, tr: Translator) -> Drill:
    view = found.view
    trump = view.trump
    assert trump is not None and view.kitty is not None

    def label(index: int) -> str:
        return tr(call_named(found.options[index].choice))

    count = bank.load().layouts
    question = tr.sentences(
        with_trump(tr("You are the declarer and have buried the 8 cards shown. Which call does the coach advise?"),
                   trump, tr))
    ranked = sorted(range(3), key=lambda i: found.options[i].gain)
    explain = tr.sentences(
        tr("Each call names a card you hold exactly once (F1). The coach played the whole hand out {count} times "
           "after each call, dealing the other hands at random, and averaged your result (S1).", count=count),
        *(tr("{choice}: expected {value}.", choice=label(i), value=signed(found.options[i].expected)) for i in ranked),
        _leads(found, [label(i) for i in ranked[1:]], tr))

    def refute(key: str) -> tuple[str, str]:
        index = KEYS.index(key)
        return "", tr("The coach expects “{choice}” to do about {gain} points of the score table worse than its "
                  "choice, over {count} deals.", choice=label(index),
                  gain=format(found.options[index].gain, ".1f"), count=count)

    return Drill(kind="advice", level=level, seed=seed, lang=tr.language, trump=trump, rules=(), advice=True,
                 question=question, hand=trump.sorted(view.hand), seat=view.seat, shown=trump.sorted(view.kitty),
                 answer=AnswerKind.CHOICE, choices=tuple(Choice(k, label(i)) for i, k in enumerate(KEYS)),
                 correct=frozenset({KEYS[found.best]}), rule="", explain=explain, refute=refute,
                 hints=(tr("A friend who holds the other copy of a high card you hold once wins tricks for you."),
                        tr("Going solo doubles the stakes (S2): only with a hand that wins alone."),
                        tr("The coach's choice: {choice}.", choice=label(found.best))))


__all__ = ["FORMS", "KEYS", "Position", "make", "position"]
