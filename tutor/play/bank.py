"""The bank of prepared advice positions: positions from real hands, analysed deeply once
when the package is built (``./dev bank``, :mod:`tools.advice_bank`) and served at once by
lesson 11's advice drills (:mod:`tutor.teach.drills.advice`) — as puzzle sites analyse a
position once and serve it instantly — and by the coach itself at any of its positions
(:func:`prepared`): one judgment of a position, whoever asks.

An entry is a position of a hand the level-1 computer players played from a seeded deal
(kept as the deal's seed and the actions to the position, replayed through the rules when
the drill opens), and every option the coach weighed there on :data:`DEEP` layouts of the unseen
cards (ten times the layouts of the table's strongest level), best first, each with its
average result (S1–S3), the share of layouts in which the seat's side took the trick, the
attackers' average total (S4), and its paired gain over the option against the best with
that gain's standard error. An entry serves a level when two options are clearly beaten
(:func:`distractors`): each by at least the level's margin and by :data:`SURE` standard
errors; at levels 2 and 3 the closer one lies below the margin of the level before, so
the choice is finer.

>>> bank = load()
>>> all(len(bank.entries(level, form)) > 0 for level in (1, 2, 3) for form in FORMS)
True
>>> entry = bank.entries(1, "play")[0]
>>> best, *others = entry.options
>>> all(o.gain >= MARGIN[1] for o in (entry.options[i] for i in distractors(entry, 1)))
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any, Final

from tutor.core.errors import TutorError
from tutor.core.i18n import Text
from tutor.play.record import HEADER, export_hand, import_hand
from tutor.play.search import Found, PlayValue
from tutor.play.strategy import LEVEL_SETTINGS
from tutor.rules.cards import Card, Cards, format_cards
from tutor.rules.game import Game, Phase
from tutor.rules.notation import parse_cards
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.view import SeatView

FORMS: Final = ("play", "call")
"""The two forms of advice drill: which play, and which call (F1, F5)."""
DEEP: Final = 10 * max(level.layouts for level in LEVEL_SETTINGS.values())
"""Layouts the bank weighs each option on: ten times the table's strongest level's."""
MARGIN: Final = {1: 0.8, 2: 0.5, 3: 0.25}
"""How much better (in expected result, S1) the advised choice is than each other, by level."""
SURE: Final = 2.0
"""How many standard errors the advised choice's edge must be, at least."""
FILE: Final = "advice-bank.json"
"""The bank's file, beside this module."""
VERSION: Final = 1


@dataclass(frozen=True, slots=True)
class Option:
    """One option the coach weighed: a play (cards) or a call (a card; None for a solo),
    its average result for the seat (S1–S3), the share of layouts in which the seat's side
    took the trick (plays only), the attackers' average total (S4, plays only), and its
    gain against the best option over the same layouts with that gain's standard error
    (0 and 0 for the best)."""

    choice: Cards | Card | None
    expected: float
    gain: float
    error: float
    trick_share: float = 0.0
    attackers_points: float = 0.0


@dataclass(frozen=True, slots=True)
class Entry:
    """A prepared position: its ``number`` (:func:`tools.advice_bank.analyse` makes it
    again from it), the deal's ``hand`` seed and the ``actions`` taken from it to the
    position (the lines of its hand record, :mod:`tutor.play.record`), and the options
    weighed there, best first."""

    number: int
    form: str
    hand: int
    actions: str
    options: tuple[Option, ...]

    def view(self) -> SeatView:
        """The position, replayed and checked by the rules: the view of the seat to play (or
        of the declarer about to call).

        >>> entry = load().entries(1, "call")[0]
        >>> entry.view().phase.value
        'calling'
        """
        game = import_hand(f"{HEADER}\nseed: {self.hand}\n{self.actions}\n")
        seat = game.actor if self.form == "play" else game.declarer
        assert seat is not None
        return game.view(seat)

    def values(self) -> tuple[PlayValue, ...]:
        """A play entry's options as the coach weighs plays (:class:`~tutor.play.search.PlayValue`),
        best first: each average is the best's less the option's gain on the same deals, so
        that any option compares with the best by the very gain the bank keeps, and each
        error is that gain's (:func:`tutor.play.search.gain`). The advice drill and the coach
        (:func:`prepared`) both take an entry's numbers so.

        >>> entry = load().entries(1, "play")[0]
        >>> [round(entry.values()[0].expected - v.expected, 3) for v in entry.values()] == [o.gain for o in entry.options]
        True
        """
        assert self.form == "play"
        best = self.options[0].expected
        return tuple(PlayValue(option.choice, best - option.gain, option.error, option.trick_share,
                               option.attackers_points)
                     for option in self.options if isinstance(option.choice, Cards))


def prepared(view: SeatView, seed: int, rules: Ruleset = DEFAULT_RULES) -> Found | None:
    """The bank's judgment of the position in ``view`` (the seat to play, in the hand dealt
    from ``seed`` under ``rules``) if the bank prepared that very position — its options
    weighed on :data:`DEEP` layouts, best first, as a search answers (:meth:`Entry.values`)
    — else None. The coach's one judgment (:func:`tutor.play.coach.judge`) asks it first,
    so the hint and the review at a position of the advice drills say what the drill says.

    >>> entry = load().entries(2, "play")[0]
    >>> prepared(entry.view(), entry.hand).best.play == entry.options[0].choice
    True
    >>> prepared(entry.view(), entry.hand + 1) is None
    True
    """
    if rules != DEFAULT_RULES or view.phase is not Phase.PLAYING:
        return None
    for entry in _by_hand("play").get(seed, ()):
        if entry.view() == view:
            return Found(view.seat, entry.values(), load().layouts, 0.0)
    return None


def prepared_calls(view: SeatView, seed: int, rules: Ruleset = DEFAULT_RULES) -> tuple[Option, ...] | None:
    """The bank's calls weighed at the declarer's position in ``view`` (about to call, in the
    hand dealt from ``seed``), best first, if the bank prepared that very position (lesson 11's
    call drills), else None: the table's hint then says what the drill says.

    >>> entry = load().entries(1, "call")[0]
    >>> prepared_calls(entry.view(), entry.hand) == entry.options
    True
    """
    if rules != DEFAULT_RULES or view.phase is not Phase.CALLING:
        return None
    return next((entry.options for entry in _by_hand("call").get(seed, ()) if entry.view() == view), None)


@cache
def _by_hand(form: str) -> dict[int, tuple[Entry, ...]]:
    """The bank's entries of ``form`` by the seed of their hand."""
    found: dict[int, list[Entry]] = {}
    for entry in load().by_form[form]:
        found.setdefault(entry.hand, []).append(entry)
    return {hand: tuple(entries) for hand, entries in found.items()}


def actions_of(game: Game) -> str:
    """The lines of ``game``'s hand record that follow its deal (:func:`Entry.view` replays
    them on the deal's seed).

    >>> from tutor.play.strategy import computer_hand
    >>> actions_of(computer_hand(4, Phase.CALLING)[0]).splitlines()[-1].split()[0]
    'bury'
    """
    lines = export_hand(game).splitlines()
    return "\n".join(line for line in lines if line != HEADER and not line.startswith(("seed:", "deck:")))


def distractors(entry: Entry, level: int) -> tuple[int, int] | None:
    """The indices of the two options an entry shows beside the best at ``level``: the two
    closest to the best among those it beats by at least the level's margin and by
    :data:`SURE` standard errors; at levels 2 and 3 the closer must lie below the margin of
    the level before (a finer choice). None if the entry does not serve the level."""
    beaten = sorted((option.gain, index) for index, option in enumerate(entry.options)
                    if index and option.gain >= MARGIN[level] and option.gain > SURE * option.error)
    if len(beaten) < 2 or (level > 1 and beaten[0][0] >= MARGIN[level - 1]):
        return None
    return beaten[0][1], beaten[1][1]


@dataclass(frozen=True, slots=True, eq=False)
class Bank:
    """The prepared positions, by form."""

    layouts: int
    by_form: dict[str, tuple[Entry, ...]]

    def entries(self, level: int, form: str) -> tuple[Entry, ...]:
        """The entries that serve ``level`` in ``form``, in the bank's order."""
        return _serving(self, level, form)


@cache
def _serving(bank: Bank, level: int, form: str) -> tuple[Entry, ...]:
    return tuple(entry for entry in bank.by_form[form] if distractors(entry, level) is not None)


# ---------------------------------------------------------------- the file


def _option_json(option: Option, form: str) -> list[Any]:
    choice = option.choice
    text = None if choice is None else str(choice) if isinstance(choice, Card) else format_cards(choice)
    row: list[Any] = [text, round(option.expected, 3), round(option.gain, 3), round(option.error, 3)]
    if form == "play":
        row += [round(option.trick_share, 3), round(option.attackers_points, 1)]
    return row


def _option(row: Sequence[Any], form: str) -> Option:
    text = row[0]
    choice: Cards | Card | None
    if form == "play":
        choice = parse_cards(text)
    else:
        choice = None if text is None else parse_cards(text)[0]
    return Option(choice, *map(float, row[1:]))


def as_stored(entry: Entry) -> Entry:
    """``entry`` with its numbers as the file keeps them (rounded): the builder decides what
    an entry serves on these, so the file serves exactly what the builder counted."""
    return replace(entry, options=tuple(_option(_option_json(o, entry.form), entry.form) for o in entry.options))


def to_json(bank: Bank) -> str:
    """The bank as its file's text: compact, one entry a line, the same bytes for the same
    bank."""
    lines = [f'{{"version": {VERSION}, "layouts": {bank.layouts}, "forms": {{']
    for number, form in enumerate(FORMS):
        rows = [json.dumps([e.number, e.hand, e.actions, [_option_json(o, form) for o in e.options]],
                           ensure_ascii=False, separators=(",", ":")) for e in bank.by_form[form]]
        lines.append(f'"{form}": [\n' + ",\n".join(rows) + "\n]" + ("," if number < len(FORMS) - 1 else ""))
    lines.append("}}")
    return "\n".join(lines) + "\n"


def from_json(text: str) -> Bank:
    """The bank read from its file's text."""
    body = json.loads(text)
    if body.get("version") != VERSION:
        raise TutorError(Text("the advice bank's file is of another version; make it again (./dev bank)"))
    by_form = {form: tuple(Entry(number, form, hand, actions, tuple(_option(row, form) for row in options))
                           for number, hand, actions, options in body["forms"][form]) for form in FORMS}
    return Bank(int(body["layouts"]), by_form)


@cache
def load() -> Bank:
    """The bank shipped with the package (read once)."""
    return from_json(resources.files(__package__).joinpath(FILE).read_text("utf-8"))


__all__ = ["DEEP", "FILE", "FORMS", "MARGIN", "SURE", "Bank", "Entry", "Option", "actions_of", "as_stored", "distractors",
           "from_json", "load", "prepared", "prepared_calls", "to_json"]
