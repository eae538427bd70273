"""Answers with a reason: the rules module's immutable values that say why in a sentence
(a :class:`~tutor.rules.verdict.Verdict`, a :class:`~tutor.rules.events.TrickWon`), which
may be given a function that makes the sentence instead of the sentence, made the first
time someone reads it: a caller that asks only the answer (is it legal? who won?) makes
no sentences.

>>> class Won(Reasoned):
...     __slots__ = ("seat",)
...     def __init__(self, seat: int, reason: str | None = None, make=None) -> None:
...         object.__setattr__(self, "seat", seat)
...         self._reasoned(reason, make)
...     def _fields(self) -> tuple[object, ...]:
...         return (self.seat, self.reason)
>>> made = []
>>> won = Won(2, make=lambda: made.append(1) or "♠A wins")
>>> len(made), won.reason, won.reason, len(made), won == Won(2, "♠A wins")
(0, '♠A wins', '♠A wins', 1, True)
>>> won.seat = 3
Traceback (most recent call last):
...
dataclasses.FrozenInstanceError: cannot assign to field 'seat'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import FrozenInstanceError


class Reasoned:
    """Base of an immutable answer with a ``reason``, compared and hashed by its fields
    (:meth:`_fields`, which a subclass gives) like a frozen dataclass."""

    __slots__ = ("_reason", "_make")

    _reason: str | None
    _make: Callable[[], str] | None

    def _reasoned(self, reason: str | None, make: Callable[[], str] | None = None) -> None:
        """Give the answer its ``reason``, or the function ``make`` that makes it when first read."""
        assert (reason is None) != (make is None), "a reason, or a function that makes it"
        object.__setattr__(self, "_reason", reason)
        object.__setattr__(self, "_make", make)

    @property
    def reason(self) -> str:
        """Why, naming the cards: a clause without a capital or a full stop."""
        reason = self._reason
        if reason is None:
            assert self._make is not None
            reason = self._make()
            object.__setattr__(self, "_reason", reason)
            object.__setattr__(self, "_make", None)
        return reason

    def _fields(self) -> tuple[object, ...]:
        """The values the answer is compared and hashed by, its reason among them."""
        raise NotImplementedError

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Reasoned)
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())


__all__ = ["Reasoned"]
