"""What the widgets share: where the front end lives, the style sheet, UI labels, and
cards turned into what the front end draws. No rules here."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from tutor.cards import Card
from tutor.display import CARD_CSS, card_face, card_name, hand_groups, lane_label
from tutor.i18n import N_, Translator, current
from tutor.order import Trump

STATIC: Final = Path(__file__).with_name("static")
COMMON_JS: Final = (STATIC / "common.js").read_text("utf-8")
"""What every front end shares (element building, label templates, the card picker)."""
ESM: Final = COMMON_JS + (STATIC / "qd.js").read_text("utf-8")
CSS: Final = CARD_CSS + (STATIC / "qd.css").read_text("utf-8")

LABELS: Final = {
    "hand": N_("Your hand"),
    "selected": N_("{card}: selected."),
    "deselected": N_("{card}: not selected."),
    "picked": N_("{count} picked."),
    "picked_of": N_("{count} of {pick} picked."),
    "answer": N_("Answer"),
    "number": N_("Your answer (a whole number)"),
    "check": N_("Check"),
    "hint": N_("Hint"),
    "hint_count": N_("{hint} ({shown}/{total})"),
    "retry": N_("Retry"),
    "next": N_("Next"),
    "reset": N_("Reset progress"),
    "reset_ask": N_("Reset all your progress in this browser? Streaks and stars start again from zero."),
    "reset_yes": N_("Yes, reset"),
    "reset_no": N_("Cancel"),
    "dismiss": N_("Dismiss"),
    "right": N_("Right."),
    "wrong": N_("Wrong."),
    "unreadable": N_("That answer could not be checked:"),
    "rule": N_("Rule {rule}"),
    "answer_one": N_("Correct answer:"),
    "answers": N_("Correct answers:"),
    "answers_some": N_("{shown} of {count} correct answers:"),
    "practice": N_("Practice round: only your first answer to a drill counts for the streak."),
    "streak": N_("Streak: {count}"),
    "stars": N_("Stars: {count} of {max}"),
}
"""Every fixed text of the front end, as English templates for :class:`Translator`."""


def labels(tr: Translator) -> dict[str, str]:
    """The front end's texts in ``tr``'s language (placeholders stay for the front end)."""
    return {key: tr(text) for key, text in LABELS.items()}


def translator(lang: str | None) -> Translator:
    """The translator of ``lang``, or of this kernel's language when no language is
    given (a Voila page sets it before any cell runs)."""
    return current() if lang is None else Translator(lang)


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
