"""What the widgets share: where the front end lives, the style sheet, UI labels,
cards turned into what the front end draws, and :class:`PageWidget`, which takes from
the page only what the page may send. No rules here."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, Final, TypeGuard

import anywidget

from tutor.rules.cards import Card
from tutor.teach.display import CARD_CSS, card_face, card_name, hand_groups, lane_label
from tutor.core.i18n import N_, Text, Translator, current, said
from tutor.rules.order import Trump

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
    "advice": N_("Advice, not a rule"),
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


MAX_TYPE: Final = 40
"""A message ``type`` longer than this is no message of a page."""

FAILED: Final = N_("Something went wrong; nothing was changed. Try again.")
"""Said when handling a message failed in a way nobody foresaw (never Python's own words)."""

_log: Final = logging.getLogger("widgets")


def problem_of(error: BaseException) -> Text | None:
    """What ``error`` says to a learner: the tutor's own reason (a :class:`~tutor.core.i18n.Text`,
    to be said in the learner's language), or None when the words are Python's
    ("invalid literal for int() …"): those are never shown; say a plain sentence instead.

    >>> from tutor.core.errors import TutorError
    >>> problem_of(TutorError(Text("level {n}", n=4))), problem_of(ValueError("invalid literal"))
    ('level 4', None)
    """
    message = said(error)
    return message if isinstance(message, Text) else None


def positions_ok(raw: object, size: int) -> TypeGuard[list[int]]:
    """``raw`` is a selection a page could send: distinct positions ``0 <= i < size``
    (its length is checked before anything else is looked at)."""
    return (isinstance(raw, list) and len(raw) <= size
            and all(type(i) is int and 0 <= i < size for i in raw) and len(set(raw)) == len(raw))


class PageWidget(anywidget.AnyWidget):
    """An anywidget that takes from its page only what the page may send.

    ipywidgets hands every comm message to ``_handle_msg``: a state update (the page's
    ``model.set`` and ``save_changes``), a state request, or a custom message (its
    ``model.send``). A script on the page can send anything, and upstream a message of
    the wrong shape raises (no ``method``, a value a trait refuses, bad buffer paths)
    and ipywidgets shows the traceback on the page. Here every message is checked
    before anything is done, and what fails the check is ignored:

    - an update may set only the traits the page itself sets (:attr:`_page_sets`), to
      values :meth:`_page_value` accepts, with no binary buffers; a refused update
      changes nothing (the page is sent the kernel's own values of what it tried to set);
    - a custom message must be a dict with a short string ``type``; each handler
      registered with ``on_msg`` gets it, and a handler that fails nonetheless is logged
      (at debug level: the kernel's log, never the page) and :meth:`_failed` says so in
      the learner's words.
    """

    _page_sets: ClassVar[frozenset[str]] = frozenset()
    """The traits the page sets (see ``model.set`` in ``widgets/static/*.js``)."""

    def _page_value(self, name: str, value: object) -> bool:
        """Whether the page may set trait ``name`` to ``value`` (by default: nothing)."""
        return False

    def _failed(self) -> None:
        """Say that handling a message failed (by default nothing is said)."""

    def _handle_msg(self, msg: object) -> None:
        try:
            content = msg.get("content") if isinstance(msg, dict) else None
            data = content.get("data") if isinstance(content, dict) else None
            method = data.get("method") if isinstance(data, dict) else None
            if not isinstance(data, dict) or not isinstance(method, str):
                return
            if method == "update":
                if not data.get("buffer_paths"):  # no trait of these widgets is binary
                    self.set_state(data.get("state"))
            elif method == "request_state":
                self.send_state()
            elif method == "custom" and "content" in data:
                buffers = msg.get("buffers") if isinstance(msg, dict) else None
                self._handle_custom_msg(data["content"], buffers if isinstance(buffers, list) else [])
        except Exception:  # noqa: BLE001 - a page's message never shows a traceback
            _log.debug("a message from the page could not be handled", exc_info=True)

    def set_state(self, sync_data: object) -> None:
        """Take a state update from the page if the page may send it (see the class);
        else change nothing."""
        if not isinstance(sync_data, dict) or not sync_data or len(sync_data) > len(self._page_sets) or not all(
                isinstance(name, str) and name in self._page_sets and self._page_value(name, value)
                for name, value in sync_data.items()):
            if isinstance(sync_data, dict) and len(sync_data) <= len(self._page_sets):
                asked = [name for name in sync_data if isinstance(name, str) and name in self._page_sets]
                if asked:
                    self.send_state(asked)  # the page shows what the kernel holds again
            return
        super().set_state(sync_data)

    def _handle_custom_msg(self, content: object, buffers: list[Any]) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if not isinstance(kind, str) or len(kind) > MAX_TYPE:
            return
        for callback in list(self._msg_callbacks.callbacks):
            try:
                callback(self, content, buffers)
            except Exception:  # noqa: BLE001 - said in the learner's words, never a traceback
                _log.debug("a %r message from the page failed", kind, exc_info=True)
                try:
                    self._failed()
                except Exception:  # noqa: BLE001
                    _log.debug("saying so failed too", exc_info=True)
