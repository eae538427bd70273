"""Verdicts: every answer of the rules module as data.

>>> v = Verdict(False, "W1", "the lead has 2 cards, so you must play 2; you played 1")
>>> bool(v), v.rule, str(v)
(False, 'W1', 'Illegal (W1): the lead has 2 cards, so you must play 2; you played 1.')
"""

from __future__ import annotations

from dataclasses import dataclass

from tutor.cards import Card, format_cards


@dataclass(frozen=True, slots=True)
class Verdict:
    """Legal or not, the rule ID broken (``None`` when legal), a reason naming the
    learner's own cards, and for an illegal play an example of a legal one."""

    legal: bool
    rule: str | None
    reason: str
    example: tuple[Card, ...] | None = None
    headline: str | None = None
    """How to say the verdict when "Legal"/"Illegal" would mislead (a legal follow
    that is not a ruff: "Not a ruff")."""

    def __bool__(self) -> bool:
        return self.legal

    def __str__(self) -> str:
        head = self.headline or ("Legal" if self.legal else "Illegal")
        head += f" ({self.rule})" if self.rule else ""
        text = f"{head}: {self.reason}."
        if self.example:
            text += f" A legal play: {format_cards(self.example)}."
        return text


def legal(reason: str) -> Verdict:
    """A legal verdict."""
    return Verdict(True, None, reason)


def illegal(rule: str, reason: str, example: tuple[Card, ...] | None = None) -> Verdict:
    """An illegal verdict citing ``rule``."""
    return Verdict(False, rule, reason, example)
