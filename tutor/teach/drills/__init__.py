"""Drills: seeded practice positions, checked by the rules module.

Every kind makes a :class:`~tutor.teach.drills.base.Drill`, the one contract the widgets
read (:mod:`tutor.teach.drills.base`).
:func:`generate` makes a drill from ``(kind, seed, level)``, always the same one;
:data:`KINDS` lists the kinds with their title, rule IDs, levels and forms (a seed
picks the form: ``FORMS[seed % len(FORMS)]``).

>>> drill = generate("tractor", 4, level=1)
>>> drill == generate("tractor", 4, level=1), drill.answer.value
(True, 'choice')
>>> drill.check("maybe").error
"'maybe' is not one of the choices: choose Yes or No"
>>> generate("chess", 1)
Traceback (most recent call last):
...
tutor.teach.drills.common.DrillError: unknown drill kind 'chess'; choose one of points, tractor, follow, ruff, throw, trick, declare, friend, score, count, advice
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from tutor.teach.drills import advice, count, declare, follow, friend, points, ruff, score, throw, tractor, trick
from tutor.teach.drills.base import AnswerKind, Choice, Drill, Feedback, Mark, Table
from tutor.core.arguments import seed_number
from tutor.teach.course import LEVELS
from tutor.teach.drills.common import DrillError, GenerationError
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import N_, Text, Translator, said


@dataclass(frozen=True, slots=True)
class KindInfo:
    """What the registry knows of a drill kind."""

    title: str
    rules: tuple[str, ...]
    levels: tuple[int, ...]
    forms: tuple[str, ...]
    make: Callable[[int, int, random.Random, Translator], Drill]
    advice: bool = False
    """True for the coach's drills: their answers are advice (the search's), not rules."""


KINDS: Final = MappingProxyType({
    "points": KindInfo(N_("Count the points"), ("C3",), LEVELS, points.FORMS, points.make),
    "tractor": KindInfo(N_("Spot the tractor"), ("M1", "M2", "M3"), LEVELS, tractor.FORMS, tractor.make),
    "follow": KindInfo(N_("Follow suit"), ("W0", "W1", "W2", "W3", "W4", "W5"), LEVELS, follow.FORMS, follow.make),
    "ruff": KindInfo(N_("Ruff and over-ruff"), ("R1", "R2", "R3", "R4", "R5"), LEVELS, ruff.FORMS, ruff.make),
    "throw": KindInfo(N_("Throws"), ("L2", "L3", "L4", "L5"), LEVELS, throw.FORMS, throw.make),
    "trick": KindInfo(N_("Who wins the trick?"), ("B1", "T6", "R5", "W6"), LEVELS, trick.FORMS, trick.make),
    "declare": KindInfo(N_("Declare and overturn"), ("D1", "D2", "D3", "D4", "D5", "D6"), LEVELS,
                        declare.FORMS, declare.make),
    "friend": KindInfo(N_("Call a friend"), ("F1", "F2", "F3", "F6"), LEVELS, friend.FORMS, friend.make),
    "score": KindInfo(N_("Kitty and score"), ("X1", "X2", "S1", "S2", "S3", "S4"), LEVELS, score.FORMS, score.make),
    "count": KindInfo(N_("Count points and voids"), ("W2", "C3"), LEVELS, count.FORMS, count.make),
    "advice": KindInfo(N_("The coach's advice"), (), LEVELS, advice.FORMS, advice.make, advice=True),
})
"""Kind key -> :class:`KindInfo` (title in English, marked for the catalog; say it with
``tr(info.title)``)."""


def generate(kind: str, seed: int, level: int = 1, lang: str = "en") -> Drill:
    """The drill of ``kind`` made from ``seed`` at ``level`` (1–3), in ``lang``.

    Deterministic: the same arguments give an equal drill. Refuses an unknown kind,
    a level that is not the kind's (:data:`tutor.teach.course.LEVELS`), a seed outside 0 …
    :data:`tutor.core.arguments.MAX_SEED` or an unknown language with :class:`DrillError`
    (its ``parameter`` names which).
    """
    info = KINDS.get(kind) if isinstance(kind, str) else None
    if info is None:
        raise DrillError(Text("unknown drill kind {kind}; choose one of {kinds}", kind=shown(kind),
                              kinds=", ".join(KINDS)), parameter="kind")
    if isinstance(level, bool) or not isinstance(level, int) or level not in info.levels:
        raise DrillError(Text("level {level} is not a level of {kind} drills; choose one of {levels}",
                              level=shown(level), kind=shown(kind), levels=", ".join(map(str, info.levels))),
                         parameter="level")
    try:
        seed_number(seed)
        tr = Translator(lang)
    except TutorError as exc:
        raise DrillError(said(exc), parameter=exc.parameter or "lang") from None
    return info.make(seed, level, drill_rng(kind, seed, level), tr)


def drill_rng(kind: str, seed: int, level: int) -> random.Random:
    """The random generator the drill of ``kind`` from ``seed`` at ``level`` is made with
    (:func:`generate`): a drill's position can be rebuilt from it.

    >>> drill_rng("follow", 3, 2).random() == drill_rng("follow", 3, 2).random()
    True
    """
    return random.Random(f"{kind}/{level}/{seed}")


__all__ = ["KINDS", "AnswerKind", "Choice", "Drill", "DrillError", "Feedback", "GenerationError", "KindInfo",
           "Mark", "Table", "drill_rng", "generate"]
