"""Teaching: the sentences of the table and the coach (:mod:`~tutor.teach.narration`), hands and
tricks drawn as HTML (:mod:`~tutor.teach.display`), the drills (:mod:`tutor.teach.drills`), the
course's lessons and links (:mod:`~tutor.teach.course`), shared positions, printed sheets, the
class's progress, and the lessons in each language (:mod:`~tutor.teach.localize`,
:mod:`~tutor.teach.prerender`). What a lesson shows comes from here; what is legal comes from
:mod:`tutor.rules`. The highest seed a link, a drill or a sheet takes,
:data:`~tutor.core.arguments.MAX_SEED`, is re-exported for a lesson's forms.

>>> from tutor.teach import hand_html
>>> 'aria-label="ace of spades"' in hand_html("♠A", "♥")
True
"""

from tutor.core.arguments import MAX_SEED
from tutor.teach.display import (card_html, cards_html, hand_html, scores_html, trick_html, verdicts_html,
                                 won_trick_html)
from tutor.teach.drills.count import TOTAL_POINTS
from tutor.teach.coaching import advice, signed
from tutor.teach.positions import make_link, position_from_query
from tutor.teach.sheets import make_sheet, parse_sheet_link, sheet_html, sheet_lessons

__all__ = ["MAX_SEED", "TOTAL_POINTS", "advice", "card_html", "cards_html", "hand_html", "make_link", "make_sheet",
           "parse_sheet_link", "position_from_query", "scores_html", "sheet_html", "sheet_lessons", "signed",
           "trick_html", "verdicts_html", "won_trick_html"]
