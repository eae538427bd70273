"""What the widgets share: where the front end lives, the style sheet, UI labels, and
cards turned into what the front end draws. No rules here."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from tutor.cards import Card
from tutor.display import CARD_CSS, card_face, card_name, hand_groups, lane_label
from tutor.i18n import Translator
from tutor.order import Trump

STATIC: Final = Path(__file__).with_name("static")
COMMON_JS: Final = (STATIC / "common.js").read_text("utf-8")
"""What every front end shares (element building, label templates, the card picker)."""
ESM: Final = COMMON_JS + (STATIC / "qd.js").read_text("utf-8")
CSS: Final = CARD_CSS + (STATIC / "qd.css").read_text("utf-8")

LABELS: Final = {
    "hand": "Your hand",
    "selected": "{card}: selected.",
    "deselected": "{card}: not selected.",
    "picked": "{count} picked.",
    "picked_of": "{count} of {pick} picked.",
    "answer": "Answer",
    "number": "Your answer (a whole number)",
    "check": "Check",
    "hint": "Hint",
    "retry": "Retry",
    "next": "Next",
    "reset": "Reset progress",
    "reset_ask": "Reset all your progress in this browser? Streaks and stars start again from zero.",
    "reset_yes": "Yes, reset",
    "reset_no": "Cancel",
    "dismiss": "Dismiss",
    "right": "Right.",
    "wrong": "Wrong.",
    "unreadable": "That answer could not be checked:",
    "rule": "Rule {rule}",
    "answers": "Correct answer(s):",
    "answers_some": "{shown} of {count} correct answers:",
    "practice": "Practice round: only your first answer to a drill counts for the streak.",
    "streak": "Streak: {count}",
    "stars": "Stars: {count} of {max}",
}
"""Every fixed text of the front end, as English templates for :class:`Translator`."""


def labels(tr: Translator) -> dict[str, str]:
    """The front end's texts in ``tr``'s language (placeholders stay for the front end)."""
    return {key: tr(text) for key, text in LABELS.items()}


def hand_payload(cards: Iterable[Card], trump: Trump, tr: Translator) -> tuple[list[Card], list[dict[str, Any]]]:
    """``cards`` in holding order (trumps first, each effective suit high to low, as
    :meth:`Trump.sorted` says) and what the front end needs to draw each one."""
    order: list[Card] = []
    payload: list[dict[str, Any]] = []
    for lane, group in hand_groups(cards, trump):
        label = lane_label(lane, tr)
        for card in group:
            order.append(card)
            payload.append({"text": str(card), "name": card_name(card, tr, trump=trump), "group": label,
                            "face": card_face(card, trump=trump, tr=tr, label=False)})
    return order, payload
