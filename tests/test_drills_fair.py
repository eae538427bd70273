"""Every drill can be answered from the screen: its answer, recomputed through the rules
module from only what the drill player draws, is the drill's own.

The drill player (``widgets.drill.DrillPlayer``) draws the question, the cards on the
table, the ``shown`` cards, the learner's hand and the choices — nothing else. So a
:class:`Screen` is made of those alone: the trump, the learner's seat and the other
hands are known only where the question says them in words (``With ♥ trumps``,
``You declared``, ``The other hands' ♦ cards: seat 1: …``), and are read back from the
English text. The recomputations are the independent ones of ``test_drills``, asked
of the screen instead of the drill; a fact the answer needs and the screen does not
hold fails the test, naming it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest

from test_drills import RULE_KINDS, card_picks, expected_cards_ok, expected_choice, expected_number, multiset_picks
from tutor import Trump
from tutor.rules.cards import Card
from tutor.teach.drills import KINDS, AnswerKind, Choice, Drill, Table, generate
from tutor.rules.notation import parse_cards
from tutor.rules.ruleset import Ruleset

SEEDS = range(0, 120)

_TRUMP = re.compile(r"\bWith (no-trump|([♠♥♣♦]) trumps)\b")
_DECLARED = re.compile(r"\b(You|Seat (\d)) declared\b")
_OTHERS = re.compile(r"The other hands' \S+ cards: (.*?)\. ")
_TWINS = re.compile(r"Where the twin of each kitty card is: (.*?)\. Who")


class NotOnScreen(AssertionError):
    """The answer needs a fact the screen does not show."""


@dataclass(frozen=True)
class Screen:
    """What the drill player shows of a drill, read as a learner reads it."""

    kind: str
    question: str
    hand: tuple[Card, ...]
    table: Table
    shown: tuple[Card, ...]
    choices: tuple[Choice, ...]
    pick: int | None

    @property
    def trump(self) -> Trump:
        found = _TRUMP.search(self.question)
        if found is None:
            raise NotOnScreen(f"the trump is not on the screen: {self.question!r}")
        return Trump(found.group(2))

    @property
    def others(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """The other players' cards the question lists, by seat."""
        if (found := _OTHERS.search(self.question)) is not None:
            return tuple(_seat_cards(part) for part in found.group(1).split("; "))
        if (found := _TWINS.search(self.question)) is not None:
            held = []
            for part in found.group(1).split("; "):
                card, where = part.split(": ")
                if where != "in the kitty":
                    held.append((int(where.removeprefix("seat ")), parse_cards(card)))
            return tuple(held)
        if (found := _DECLARED.search(self.question)) is not None:
            return ((self.seat if found.group(1) == "You" else int(found.group(2)), self.shown),)
        raise NotOnScreen(f"no other hand is on the screen: {self.question!r}")

    @property
    def seat(self) -> int:
        """The learner's seat, as far as the screen tells it: only whether a declaration
        is theirs matters (D3), so any seat but the one named will do."""
        found = _DECLARED.search(self.question)
        if found is None:
            raise NotOnScreen(f"the learner's seat is not on the screen: {self.question!r}")
        return 0 if found.group(1) == "You" else (int(found.group(2)) + 1) % 5


def _seat_cards(part: str) -> tuple[int, tuple[Card, ...]]:
    seat, cards = part.removeprefix("seat ").split(": ")
    return int(seat), () if cards == "none" else parse_cards(cards)


def screen(drill: Drill) -> Screen:
    """The drill as the player draws it (see ``widgets.drill.DrillPlayer._load``)."""
    return Screen(drill.kind, drill.question, drill.hand, drill.table, drill.shown, drill.choices, drill.pick)


def picks(drill: Drill, rng: random.Random) -> list[tuple[Card, ...]]:
    """Answers to try on a cards drill: every pick of its size, or a sample of them;
    for a drill of any size, the right answer and its near misses."""
    if drill.pick is not None:
        return card_picks(drill, rng, limit=150)
    right = tuple(parse_cards(drill.solutions()[0][0]))
    extra = [c for c in drill.hand if c not in right]
    out = [right, right[1:], (), *(right + (c,) for c in extra[:3])]
    if drill.kind == "tractor":
        out += [p for p in multiset_picks(drill.hand, 4)[:40]]
    return out


def answered_from_screen(drill: Drill, rng: random.Random) -> None:
    seen = screen(drill)
    if drill.answer is AnswerKind.CHOICE:
        assert drill.correct == expected_choice(seen), drill.question
    elif drill.kind == "throw":  # "it fails": what it costs rests on its cards alone (L5)
        assert "it fails" in drill.question and drill.number == Ruleset().penalty_per_card * len(seen.shown)
    elif drill.answer is AnswerKind.NUMBER:
        assert drill.number == expected_number(seen), drill.question
    else:
        for pick in picks(drill, rng):
            assert drill.check(pick).correct == expected_cards_ok(seen, pick), (drill.question, pick)


@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("kind", RULE_KINDS)
def test_every_drill_is_answerable_from_the_screen(kind, level):
    rng = random.Random(f"fair/{kind}/{level}")
    for seed in SEEDS:
        answered_from_screen(generate(kind, seed, level), rng)


def test_a_hidden_fact_is_caught():
    """The check itself: a throw drill whose question keeps the other hands to itself
    cannot be answered from the screen."""
    drill = generate("throw", 0, 1)
    hidden = Screen(drill.kind, "You lead the throw. Does it stand?", drill.hand, drill.table, drill.shown,
                    drill.choices, drill.pick)
    with pytest.raises(NotOnScreen):
        expected_choice(hidden)
