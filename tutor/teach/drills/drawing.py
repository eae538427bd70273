"""A drill's cards as HTML, the way every page draws them before the drill is answered:
the cards on the table, the ``shown`` cards and the held hand, without the marks that
would give the answer away (:attr:`~tutor.teach.drills.base.Drill.unmarked`).

A drill that asks the cards' points draws them without their badges; one that asks which
suit is trump draws them as before any declaration (:data:`UNDECLARED`: only the 2s and
the jokers are trumps then, whatever the answer). The drill player draws its cards here,
and the printed sheets take their trump from here (:func:`drawn_trump`), so neither gives
away what the other hides. Cards are named in ``tr``'s language, by default the drill's.

>>> from tutor.teach.drills import generate
>>> drill = generate("points", 0, level=2)
>>> Mark.POINTS in drill.unmarked, 'class="qd-points"' in shown_html(drill)
(True, False)
>>> flip = generate("declare", 2, level=1)
>>> drawn_trump(flip) == UNDECLARED != flip.trump
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from tutor.core.faces import without_points
from tutor.core.i18n import Translator
from tutor.rules.cards import Card
from tutor.rules.order import Trump
from tutor.teach import display
from tutor.teach.drills.base import Drill, Mark

UNDECLARED: Final = Trump(None)
"""The trump a drill that asks the trump draws its cards with: nothing declared yet, so
only the cards that are trumps whatever is declared (2s, jokers) are marked."""


def drawn_trump(drill: Drill) -> Trump:
    """The trump ``drill``'s cards are drawn (marked, grouped, named) with."""
    return UNDECLARED if Mark.TRUMP in drill.unmarked else drill.trump


def unmarked(drill: Drill, markup: str) -> str:
    """``markup`` (card faces drawn with :func:`drawn_trump`) without the marks ``drill``
    keeps hidden."""
    return without_points(markup) if Mark.POINTS in drill.unmarked else markup


def table_html(drill: Drill, tr: Translator | None = None) -> str:
    """The cards already on the table, as a trick without its winner (who wins may be the
    very question); ``""`` when none."""
    if not drill.table.plays:
        return ""
    return unmarked(drill, display.trick_html(drill.table.plays, trump=drawn_trump(drill), tr=_tr(drill, tr),
                                              style=False, finished=drill.table.finished))


def shown_html(drill: Drill, tr: Translator | None = None) -> str:
    """The other cards the question is about (a kitty, a lead, a declaration …); ``""`` when none."""
    return _cards(drill, drill.shown, tr)


def hand_html(drill: Drill, tr: Translator | None = None) -> str:
    """The learner's hand, held in its groups; ``""`` when the drill has none."""
    if not drill.hand:
        return ""
    return unmarked(drill, display.hand_html(drill.hand, drawn_trump(drill), tr=_tr(drill, tr), style=False))


def _cards(drill: Drill, cards: Iterable[Card], tr: Translator | None) -> str:
    cards = tuple(cards)
    if not cards:
        return ""
    return unmarked(drill, display.cards_html(cards, trump=drawn_trump(drill), tr=_tr(drill, tr), style=False,
                                              label=drill.shown_label or None))


def _tr(drill: Drill, tr: Translator | None) -> Translator:
    return Translator(drill.lang) if tr is None else tr


__all__ = ["UNDECLARED", "drawn_trump", "hand_html", "shown_html", "table_html", "unmarked"]
