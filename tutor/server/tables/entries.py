"""What a table's journal holds (:mod:`tutor.server.tables.journal`): the table as it was
opened (:class:`Opened`), then, in order, each thing that changed it — a learner seated, the
hand started, the next hand dealt, a seat's language, a seat's stop for its declarations,
and every action of the hand (the deal's cards, the computer's moves and the learners' own).
Replayed through the table's session (:meth:`tutor.server.tables.shared.SharedTable.reopen`),
they make the table again as it was.

Each entry is stored as a ``kind`` and a ``text`` (:func:`entry_row`), read back by
:func:`read_entry`, which refuses anything that is not an entry this module writes with a
:class:`JournalError` naming it (a corrupt or foreign row is never half read).

>>> from tutor.rules.actions import Play
>>> entry_row(Acted(Play(2, "♠A ♠A")))
('act', 'play 2 ♠A ♠A')
>>> read_entry(*entry_row(Seated(1, "Ben", "zh-Hans", "ab" * 32))) == Seated(1, "Ben", "zh-Hans", "ab" * 32)
True
>>> read_entry("act", "fly 2 ♠A")
Traceback (most recent call last):
...
tutor.server.tables.entries.JournalError: entry 'act' 'fly 2 ♠A' cannot be read: cannot read 'fly 2 ♠A': expected deal, declare, close, bury, call, solo or play
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Final

from tutor.core.arguments import seed_number
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import LANGUAGES
from tutor.play.record import action_text, read_action
from tutor.play.strategy import LEVELS
from tutor.rules.actions import Action
from tutor.rules.cards import PLAYERS
from tutor.rules.ruleset import Ruleset

__all__ = ["Acted", "Dealt", "Entry", "JournalError", "Opened", "Seated", "Spoke", "Started", "Stopped", "check_opened",
           "entry_row", "read_entry", "read_rules", "rules_text", "token_hash"]

MAX_TEXT: Final = 2_000
"""The longest entry text read (a whole declaration or play is a few dozen characters)."""


class JournalError(TutorError):
    """A row of a table's journal that cannot be read, or a journal whose replay the rules refuse.
    Said to whoever runs the server (its log, the table's note in the database), in English."""


@dataclass(frozen=True, slots=True)
class Opened:
    """A table as it was opened: its code, the computer players' level, the first deal's seed, the rules."""

    code: str
    level: int
    seed: int
    rules: Ruleset


@dataclass(frozen=True, slots=True)
class Seated:
    """A learner took ``seat``: their name, language and the hash of their seat's token (:func:`token_hash`)."""

    seat: int
    name: str
    lang: str
    token: str


@dataclass(frozen=True, slots=True)
class Started:
    """The opener started the hand."""


@dataclass(frozen=True, slots=True)
class Dealt:
    """The next hand was dealt from ``seed``."""

    seed: int


@dataclass(frozen=True, slots=True)
class Spoke:
    """Seat ``seat``'s page is now in ``lang``."""

    seat: int
    lang: str


@dataclass(frozen=True, slots=True)
class Stopped:
    """Whether the deal stops when seat ``seat`` can newly declare."""

    seat: int
    value: bool


@dataclass(frozen=True, slots=True)
class Acted:
    """One action of the hand, as the rules carried it out."""

    action: Action


Entry = Seated | Started | Dealt | Spoke | Stopped | Acted


def token_hash(token: str) -> str:
    """What the journal keeps of a seat's token: its SHA-256, in hex (the token itself is the browser's only).

    >>> len(token_hash("abc")), token_hash("abc") == token_hash("abc")
    (64, True)
    """
    return hashlib.sha256(token.encode()).hexdigest()


def entry_row(entry: Entry) -> tuple[str, str]:
    """The ``(kind, text)`` an entry is stored as."""
    if isinstance(entry, Acted):
        return "act", action_text(entry.action)
    if isinstance(entry, Seated):
        return "seat", json.dumps(dataclasses.asdict(entry), ensure_ascii=False)
    if isinstance(entry, Started):
        return "start", ""
    if isinstance(entry, Dealt):
        return "again", str(entry.seed)
    if isinstance(entry, Spoke):
        return "speak", json.dumps(dataclasses.asdict(entry), ensure_ascii=False)
    return "stop", json.dumps(dataclasses.asdict(entry))


def read_entry(kind: object, text: object) -> Entry:
    """The entry a stored ``(kind, text)`` is (:func:`entry_row`), else :class:`JournalError`."""
    try:
        if not isinstance(kind, str) or not isinstance(text, str) or len(text) > MAX_TEXT:
            raise JournalError("it is not text of a journal")
        if kind == "act":
            return Acted(read_action(text))
        if kind == "start" and text == "":
            return Started()
        if kind == "again":
            if not (text.isascii() and text.isdigit() and len(text) <= 12):
                raise JournalError("a seed is a whole number")
            return Dealt(seed_number(int(text)))
        if kind in ("seat", "speak", "stop"):
            return _read_fields(kind, json.loads(text))
        raise JournalError("there is no entry of this kind")
    except (TutorError, ValueError) as error:  # JSON's ValueError too
        problem = _problem(error, "it is not JSON")
        raise JournalError(f"entry {shown(kind)} {shown(text)} cannot be read: {problem}") from None


def _read_fields(kind: str, data: object) -> Entry:
    if not isinstance(data, dict):
        raise JournalError("it is not an object")
    seat = data.get("seat")
    if type(seat) is not int or not 0 <= seat < PLAYERS:
        raise JournalError("a seat is 0 to 4")
    if kind == "stop":
        value = data.get("value")
        if set(data) != {"seat", "value"} or not isinstance(value, bool):
            raise JournalError("a stop is a seat and true or false")
        return Stopped(seat, value)
    lang = data.get("lang")
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise JournalError("a language is one of the course's")
    if kind == "speak":
        if set(data) != {"seat", "lang"}:
            raise JournalError("a language change is a seat and a language")
        return Spoke(seat, lang)
    name, token = data.get("name"), data.get("token")
    if set(data) != {"seat", "name", "lang", "token"} or not isinstance(name, str) or len(name) > 200 or \
            not isinstance(token, str) or len(token) != 64 or any(c not in "0123456789abcdef" for c in token):
        raise JournalError("a seat is a number, a name, a language and a token's hash")
    return Seated(seat, name, lang, token)


def rules_text(rules: Ruleset) -> str:
    """The rules as the journal keeps them (JSON of every option).

    >>> read_rules(rules_text(Ruleset(penalty_per_card=10))).penalty_per_card
    10
    """
    return json.dumps(dataclasses.asdict(rules), sort_keys=True)


def read_rules(text: object) -> Ruleset:
    """The rules :func:`rules_text` wrote, else :class:`JournalError`."""
    try:
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise JournalError("it is not text")
        data: Any = json.loads(text)
        names = {field.name for field in dataclasses.fields(Ruleset)}
        if not isinstance(data, dict) or not set(data) <= names:
            raise JournalError("it names options the rules do not have")
        return Ruleset(**data)
    except (TutorError, ValueError, TypeError) as error:
        problem = _problem(error, "it is not JSON of the rules")
        raise JournalError(f"the rules {shown(text)} cannot be read: {problem}") from None


def check_opened(code: object, level: object, seed: object, rules: object) -> Opened:
    """A table's row read back, else :class:`JournalError`."""
    if not isinstance(code, str) or not code.isascii() or not code.isalnum() or not 1 <= len(code) <= 12:
        raise JournalError(f"a table's code {shown(code)} is not one of this server's")
    if type(level) is not int or level not in LEVELS:
        raise JournalError(f"table {code}: the level {shown(level)} is none")
    try:
        number = seed_number(seed)
    except TutorError:
        raise JournalError(f"table {code}: the seed {shown(seed)} is none") from None
    return Opened(code, level, number, read_rules(rules))


def _problem(error: Exception, plain: str) -> str:
    """What went wrong, in English: the tutor's own reason, else ``plain``."""
    return str(error.args[0]) if isinstance(error, TutorError) and error.args else plain
