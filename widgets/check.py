"""A quick check in a lesson: one drill question, right after the idea it checks.

A lesson explains one rule, shows it on real cards, then asks one question of the kind
that rule teaches — a drill of a given kind, level and seed, judged by the rules module
like every drill (:meth:`tutor.teach.drills.base.Drill.check`), with the same feedback, hints
and "Show answer". The end-of-lesson drills stay the review. A check keeps its answers
apart from the lesson's progress (its own browser store, :data:`CHECKS_KEY`), so
answering it neither grows nor breaks a lesson's streak and stars, and a visit always
starts with the same question (Next gives more of the kind). Its answers are kept under
its lesson (``lesson``: the slug), which is what the home page counts and the learner's
progress code hands in (:func:`tutor.teach.classroom.report_of`): a check outside a lesson
counts for none.

Usage in a lesson cell::

    from widgets.check import quick_check
    quick_check("follow", level=1, seed=7, lesson="05-following")   # May you follow ♣6 ♣6 with ♣8 ♣4? (W2)

>>> player = quick_check("follow", level=1, seed=7, lesson="05-following")
>>> player.drill.rule, player.drill.seed, player.storage_key, player.lesson
('W2', 7, 'qidong-tutor/checks/v1', '05-following')
"""

from __future__ import annotations

from typing import Final

from widgets.drill import DrillPlayer

CHECKS_KEY: Final = "qidong-tutor/checks/v1"
"""Where the browser keeps the answers to quick checks (apart from the lessons' progress)."""


def quick_check(kind: str, *, level: int, seed: int, lesson: str | None = None,
                lang: str | None = None) -> DrillPlayer:
    """One drill question of ``kind`` (a key of :data:`tutor.teach.drills.KINDS`) made from
    ``seed`` at ``level``, for a cell of ``lesson`` (its slug) right after the rule it checks.
    ``lang``: by default the kernel's language. A kind, level or seed that is not one gives
    the player's own note ("This drill could not be made: …"), never an exception; a lesson
    that is not one is refused with :class:`~tutor.core.errors.TutorError`."""
    return DrillPlayer(kind, seed=seed, level=level, lang=lang, lesson=lesson, exact_seed=True,
                       storage_key=CHECKS_KEY)


__all__ = ["CHECKS_KEY", "quick_check"]
