"""The errors of the rules module: every one a ``ValueError`` with a plain reason.

The reason (``error.args[0]``) is a :class:`~tutor.core.text.Text` wherever the tutor
raises one, so a translator can say it in the learner's language. The layer just above
:mod:`tutor.core.text`: everything else may raise these.

>>> issubclass(NotationError, ValueError) and issubclass(IllegalActionError, ValueError)
True
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
    """Base of every error the rules module raises on bad input or a refused action."""


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
        super().__init__(Text("{reason} ({rule})", reason=reason, rule=rule))
        self.rule = rule
        self.reason = reason
