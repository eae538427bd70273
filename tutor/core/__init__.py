"""The bottom layer: a message (:mod:`~tutor.core.text`), the one family of errors
(:mod:`~tutor.core.errors`), checked arguments (:mod:`~tutor.core.arguments`), the course's
languages (:mod:`~tutor.core.i18n`) and a card's face as HTML (:mod:`~tutor.core.faces`).
Nothing here knows a rule of the game.

>>> from tutor.core import TutorError, _
>>> issubclass(TutorError, ValueError), _("Rule")
(True, 'Rule')
"""

from tutor.core.errors import CardCountError, IllegalActionError, InvalidPlayError, NotationError, TutorError
from tutor.core.i18n import LANGUAGES, Text, _, current, set_language

__all__ = ["LANGUAGES", "CardCountError", "IllegalActionError", "InvalidPlayError", "NotationError", "Text",
           "TutorError", "_", "current", "set_language"]
