"""The one family of errors: every refusal of the tutor is a :class:`TutorError` (a
``ValueError``) with a plain reason.

The reason (``error.args[0]``) is a :class:`~tutor.core.text.Text` wherever the tutor
raises one, so a translator can say it in the learner's language; ``error.rule`` is the
rule ID that refuses (``"C1"``) and ``error.parameter`` the name of the input refused
(``"seed"``), each ``""`` when there is none. The layer just above :mod:`tutor.core.text`:
everything else may raise these, and every module's own errors (a drill's, a hand
file's, saved progress's …) are subclasses, so a caller catches the family in one place.

>>> issubclass(NotationError, ValueError) and issubclass(IllegalActionError, TutorError)
True
>>> error = TutorError(Text("seed must be a whole number, not {value}", value="'x'"), parameter="seed")
>>> str(error), error.parameter, error.rule
("seed must be a whole number, not 'x'", 'seed', '')
"""

from __future__ import annotations

from typing import Final

from tutor.core.text import Text

QUOTE: Final = 60
"""How much of a wrong value an error quotes."""


def shown(value: object) -> str:
    """``repr(value)``, cut to its start when it is long: an error never quotes a huge input whole.

    >>> shown("9" * 5000)[-6:], len(shown("9" * 5000))
    ("9999'…", 63)
    """
    if isinstance(value, (str, bytes)) and len(value) > QUOTE:
        return f"{value[:QUOTE]!r}…"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value whose repr fails is still refused clearly
        text = f"<{type(value).__name__}>"
    return text if len(text) <= QUOTE else text[:QUOTE] + "…"


class TutorError(ValueError):
    """Base of every error the tutor raises on bad input or a refused action: ``message``
    (a :class:`~tutor.core.text.Text` a newcomer understands), the ``rule`` ID that refuses
    and the ``parameter`` refused, when there is one."""

    def __init__(self, message: str, *, rule: str = "", parameter: str = "") -> None:
        super().__init__(message)
        self.rule = rule
        self.parameter = parameter


class NotationError(TutorError):
    """Card text that cannot be read (N1–N3); quotes the token and its 0-based offset."""

    def __init__(self, message: str, *, token: str = "", offset: int = 0) -> None:
        super().__init__(message)
        self.token = token
        self.offset = offset


class CardCountError(TutorError):
    """A set of cards that cannot exist: a third copy of a card (C1), or a wrong count."""


class InvalidPlayError(TutorError):
    """A lead or trick that is malformed in itself (for example mixing suits, L1)."""


class IllegalActionError(TutorError):
    """A game action refused by a rule; ``rule`` is its ID, ``reason`` the sentence."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(Text("{reason} ({rule})", reason=reason, rule=rule), rule=rule)
        self.reason = reason
