"""The page's request protocol, one for every page that draws a flow (a drill, lesson 10's table,
a seat at a table of classmates): what a page's message may carry and what it is answered.

- ``request``: the page's id of the message (a whole number). Each message that carries one
  is answered once it is handled — done, ignored or failed — with a *handled* record
  (``request``, ``type``, ``ignored``, ``work``: the requests carried out so far), and the
  page shows the work as under way until then.
- ``version``: the state the learner acted on. An action of :attr:`Requests.once_per_state`
  made on a state no newer than the one the same action was last carried out on is a repeat
  (a second click), ignored; so is any action arriving while the same action is under way.
  A message without them is taken as it is.

Nothing here knows a widget or a socket (the tables' server uses it without ipywidgets).

>>> requests, version = Requests(frozenset({"act"})), [3]
>>> with requests.handling("act", 1, lambda: version[0]) as handling:
...     version[0], handling.done = 4, True  # carried out: the state changed
>>> handling.record
{'request': 1, 'type': 'act', 'ignored': False, 'work': 1}
>>> requests.repeated("act", 3), requests.repeated("act", 4), requests.ignored("act", 2)["ignored"]
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard

from tutor.core.arguments import MAX_EXACT
from tutor.core.i18n import N_

__all__ = ["FAILED", "GAME_ACTIONS", "MAX_CARD_TEXT", "MAX_PICK", "Handling", "Requests", "cards_ok", "positions_ok", "request_id"]

FAILED: Final = N_("Something went wrong; nothing was changed. Try again.")
"""Said when handling a message failed in a way nobody foresaw (never Python's own words)."""
GAME_ACTIONS: Final = frozenset({"act", "declare", "pass", "solo", "restart", "new", "import", "replay", "mistakes",
                                 "retry_answer", "retry_skip", "retry_next", "retry_leave"})
"""The table's actions that change the game (lesson 10's and a seat's): one per state the page
showed, and one at a time — the page is sent this list (``game_actions``) and keeps no list of its own."""
MAX_PICK: Final = 40
"""More picked cards than this are junk, refused before any check."""
MAX_CARD_TEXT: Final = 8
"""A picked card's text is at most this long (``♠10`` is three characters)."""


def positions_ok(raw: object, size: int) -> TypeGuard[list[int]]:
    """``raw`` is a selection a page could send: distinct positions ``0 <= i < size``
    (its length is checked before anything else is looked at)."""
    return (isinstance(raw, list) and len(raw) <= size
            and all(type(i) is int and 0 <= i < size for i in raw) and len(set(raw)) == len(raw))


def cards_ok(cards: object) -> TypeGuard[list[str]]:
    """``cards`` is a list of picked cards' texts as a page sends them (not yet parsed)."""
    return isinstance(cards, list) and len(cards) <= MAX_PICK and all(
        isinstance(c, str) and len(c) <= MAX_CARD_TEXT and c.isprintable() for c in cards)


def request_id(content: dict[str, Any]) -> int | None:
    """The ``request`` a page's message carries, if it is a whole number it may send."""
    raw = content.get("request")
    return raw if type(raw) is int and 0 <= raw <= MAX_EXACT else None


@dataclass(slots=True)
class Handling:
    """One message being handled: set ``done`` once it is carried out; ``record`` is the
    handled record for the page afterwards (``None`` for a message without ``request``)."""

    done: bool = False
    record: dict[str, Any] | None = None


@dataclass(slots=True)
class Requests:
    """A page's requests so far: which actions are under way, the version each action of
    :attr:`once_per_state` was last carried out on, and how many were carried out."""

    once_per_state: frozenset[str]
    work: int = 0
    acted: dict[str, int] = field(default_factory=dict)
    under_way: set[str] = field(default_factory=set)

    def repeated(self, kind: str, version: object) -> bool:
        """Whether a message of type ``kind`` made on state ``version`` repeats one: the same
        action under way, or an action of :attr:`once_per_state` already carried out on a
        state no older."""
        if kind in self.under_way:
            return True
        if type(version) is not int or kind not in self.once_per_state:
            return False
        return kind in self.acted and version <= self.acted[kind]

    def ignored(self, kind: str, request: int | None) -> dict[str, Any] | None:
        """The handled record of a repeat (``None`` for a message without ``request``)."""
        if request is None:
            return None
        return {"request": request, "type": kind, "ignored": True, "work": self.work}

    @contextmanager
    def handling(self, kind: str, request: int | None, version: Callable[[], int]) -> Iterator[Handling]:
        """Handle one message of type ``kind``: under way inside the block; ``version`` tells the
        state's version (an action that changed it was carried out, not refused)."""
        before = version()
        handling = Handling()
        self.under_way.add(kind)
        try:
            yield handling
        finally:
            if kind in self.once_per_state and version() != before:
                self.acted[kind] = before
            if request is not None:
                self.work += 1 if handling.done else 0
                handling.record = {"request": request, "type": kind, "ignored": False, "work": self.work}
            self.under_way.discard(kind)
