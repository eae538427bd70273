"""A hand as a small text file, so a teacher can share one exact deal ("play this
hand") or a whole played hand, and anyone can replay it.

>>> from tutor.play.strategy import play_computer_hand
>>> game = play_computer_hand(3)
>>> text = export_hand(game)
>>> text.splitlines()[0]
'# 启东招朋友 hand record v1'
>>> import_hand(text).events == game.events
True
>>> import_hand("# 启东招朋友 hand record v1\\nseed: x")
Traceback (most recent call last):
...
tutor.play.record.HandFileError: line 2: the seed must be a whole number, not 'x'
>>> import_hand("# 启东招朋友 hand record v1\\nseed: 2147483648")
Traceback (most recent call last):
...
tutor.play.record.HandFileError: line 2: seed must be a whole number from 0 to 2147483647, not 2147483648

A record may say at which level the computer players played (``opponents: N``,
:data:`tutor.play.strategy.LEVELS`), so that a hand opened from it goes on as it began:

>>> read_hand(export_hand(game, opponents=3)).opponents
3
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Final

from tutor.core.arguments import MAX_SEED, seed_number
from tutor.core.errors import IllegalActionError, TutorError, shown
from tutor.core.i18n import Text, said
from tutor.play.strategy import LEVELS, check_level
from tutor.rules.actions import Action, Bury, Call, CloseDeal, Deal, Declare, Play, Solo
from tutor.rules.cards import PACK, Card, format_cards
from tutor.rules.game import Game
from tutor.rules.notation import parse_cards
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset

HEADER: Final = "# 启东招朋友 hand record v1"
"""The first line of every hand record."""
MAX_LINES: Final = 2000
"""The most lines a hand record read may have."""
MAX_CHARS: Final = 100_000
"""The largest hand record read, in characters (a whole hand's record is about 3,000): the
one bound of a hand file's size. Whoever takes a hand file in (an upload at the table, a
link) asks this bound; a longer text is refused before any work."""
_SEED_DIGITS: Final = 2 * len(str(MAX_SEED))
"""The longest seed text read as a number; the seed is then held to the one seed bound
(:data:`tutor.core.arguments.MAX_SEED`, :func:`tutor.core.arguments.seed_number`)."""


class HandFileError(TutorError):
    """A hand record that cannot be read or does not replay (names the line)."""


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A hand file read: the hand replayed to where the record stops, and the computer
    players' level it names (None if it names none)."""

    game: Game
    opponents: int | None = None


def export_hand(game: Game, *, actions: bool = True, opponents: int | None = None) -> str:
    """The hand as text: its deal (seed and the order of all 108 cards), the
    rules that differ from the book's, the computer players' level (``opponents``, if
    given) and (unless ``actions`` is False, which shares only the deal) every action
    taken so far."""
    lines = [HEADER, f"seed: {game.seed}"]
    if opponents is not None:
        lines.append(f"opponents: {check_level(opponents)}")
    for field in fields(Ruleset):
        value = getattr(game.rules, field.name)
        if value != getattr(DEFAULT_RULES, field.name):
            lines.append(f"rule {field.name}: {value}")
    deck = game.deck if game.deck is not None else game.first_deal
    lines.append(f"deck: {format_cards(deck)}")
    if actions:
        deals = 0
        for action in game.history:
            if isinstance(action, Deal):
                deals += 1
                continue
            if deals:
                lines.append(f"deal {deals}")
                deals = 0
            lines.append(action_text(action))
        if deals:
            lines.append(f"deal {deals}")
    return "\n".join(lines) + "\n"


def action_text(action: Action) -> str:
    """One action as a line of a hand record (a card dealt: ``deal 1``); :func:`read_action` reads it back.

    >>> action_text(Play(2, "♠A ♠A")), read_action("play 2 ♠A ♠A") == Play(2, "♠A ♠A")
    ('play 2 ♠A ♠A', True)
    """
    if isinstance(action, Deal):
        return "deal 1"
    if isinstance(action, Declare):
        return f"declare {action.seat} {format_cards(action.cards)}"
    if isinstance(action, CloseDeal):
        return "close"
    if isinstance(action, Bury):
        return f"bury {action.seat} {format_cards(action.cards)}"
    if isinstance(action, Call):
        return f"call {action.seat} {action.card}"
    if isinstance(action, Solo):
        return f"solo {action.seat}"
    assert isinstance(action, Play)
    return f"play {action.seat} {format_cards(action.cards)}"


def import_hand(text: str) -> Game:
    """Rebuild the hand from its record, replaying and validating every action.
    Refuses a broken or tampered record with :class:`HandFileError`."""
    return read_hand(text).game


def read_hand(text: str) -> HandRecord:
    """:func:`import_hand`, with the computer players' level the record names."""
    if not isinstance(text, str):
        raise HandFileError(Text("a hand record is text"))
    if len(text) > MAX_CHARS:  # refused before any work: a real record is a few kilobytes
        raise HandFileError(Text("a hand record has at most {count} characters; this file has {size}",
                                 count=MAX_CHARS, size=len(text)))
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise HandFileError(Text("a hand record has at most {count} lines", count=MAX_LINES))
    if not lines or lines[0].strip() != HEADER:
        raise HandFileError(Text("line 1: a hand record starts with {header}", header=shown(HEADER)))
    seed: int | None = None
    opponents: int | None = None
    options: dict[str, bool | int | str] = {}
    deck: tuple[Card, ...] | None = None
    game: Game | None = None
    for number, raw in enumerate(lines[1:], 2):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            if game is None and line.startswith("seed:"):
                value = line.removeprefix("seed:").strip()
                if not _digits(value, _SEED_DIGITS):
                    raise HandFileError(Text("the seed must be a whole number, not {value}", value=shown(value)))
                seed = seed_number(int(value))  # the one seed bound: a hand file's seed is one a link accepts
            elif game is None and line.startswith("opponents:"):
                opponents = _level(line.removeprefix("opponents:").strip())
            elif game is None and line.startswith("rule "):
                name, _, value = line.removeprefix("rule ").partition(":")
                options[name.strip()] = _option(name.strip(), value.strip())
            elif game is None and line.startswith("deck:"):
                deck = parse_cards(line.removeprefix("deck:"))
            else:
                if game is None:
                    if seed is None:
                        raise HandFileError(Text("the record names no seed before its actions"))
                    game = Game(seed, Ruleset(**options), deck)  # type: ignore[arg-type]
                _replay_line(game, line)
        except IllegalActionError as error:
            raise HandFileError(Text("line {number}: this action is refused: {problem}", number=number,
                                     problem=said(error))) from None
        except TutorError as error:
            raise HandFileError(Text("line {number}: {problem}", number=number, problem=said(error))) from None
    if game is None:
        if seed is None:
            raise HandFileError(Text("the record names no seed"))
        try:
            game = Game(seed, Ruleset(**options), deck)  # type: ignore[arg-type]
        except TutorError as error:
            raise HandFileError(said(error)) from None
    return HandRecord(game, opponents)


def _level(text: str) -> int:
    """The level an ``opponents:`` line names (:func:`tutor.play.strategy.check_level`)."""
    return check_level(int(text) if _digits(text, 1) and int(text) in LEVELS else text)


def _option(name: str, value: str) -> bool | int | str:
    known = {field.name: field.type for field in fields(Ruleset)}
    if name not in known:
        raise HandFileError(Text("unknown rule option {name}", name=shown(name)))
    default = getattr(DEFAULT_RULES, name)
    if isinstance(default, bool):
        if value not in ("True", "False"):
            raise HandFileError(Text("rule {name} is True or False, not {value}", name=name, value=shown(value)))
        return value == "True"
    if isinstance(default, int):
        if not _digits(value, 6):
            raise HandFileError(Text("rule {name} is a whole number, not {value}", name=name, value=shown(value)))
        return int(value)
    return value


def _digits(text: str, most: int) -> bool:
    """``text`` is a whole number in ASCII digits (not '²' or '٣'), at most ``most`` long."""
    return text.isascii() and text.isdigit() and len(text) <= most


def _seat(text: str) -> int:
    if text not in ("0", "1", "2", "3", "4"):
        raise HandFileError(Text("a seat is 0–4, not {seat}", seat=shown(text)))
    return int(text)


def _replay_line(game: Game, line: str) -> None:
    verb, _, rest = line.partition(" ")
    if verb == "deal":
        if not _digits(rest.strip(), 3) or not 0 < int(rest) <= len(PACK):
            raise HandFileError(Text("'deal' takes a number of cards, not {value}", value=shown(rest.strip())))
        for _ in range(int(rest)):
            game.apply(Deal())
    else:
        game.apply(read_action(line))


def read_action(line: str) -> Action:
    """The action a line of a hand record names (:func:`action_text`; ``deal 1`` is one card
    dealt), refused with :class:`HandFileError` (or the rules' own error for a seat or cards
    that are none) when it names none."""
    verb, _, rest = line.strip().partition(" ")
    seat_text, _, cards_text = rest.strip().partition(" ")
    if verb == "deal" and rest.strip() == "1":
        return Deal()
    if verb == "close" and not rest.strip():
        return CloseDeal()
    if verb == "declare":
        return Declare(_seat(seat_text), parse_cards(cards_text))
    if verb == "bury":
        return Bury(_seat(seat_text), parse_cards(cards_text))
    if verb == "call":
        cards = parse_cards(cards_text)
        if len(cards) != 1:
            raise HandFileError(Text("'call' names exactly one card"))
        return Call(_seat(seat_text), cards[0])
    if verb == "solo" and not cards_text:
        return Solo(_seat(seat_text))
    if verb == "play":
        return Play(_seat(seat_text), parse_cards(cards_text))
    raise HandFileError(Text("cannot read {line}: expected deal, declare, close, bury, call, solo or play",
                             line=shown(line[:40])))


__all__ = ["HEADER", "MAX_CHARS", "MAX_LINES", "HandFileError", "HandRecord", "action_text", "export_hand",
           "import_hand", "read_action", "read_hand"]
