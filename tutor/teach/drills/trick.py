"""Trick drills (B1, T6, R5, W6): "Who wins this trick?".

A real deal, a few single-card tricks in; the leader leads and every follower
plays a legal follow, trying to win now and then. Level 1: a single or a pair is
led and someone follows in suit with the lead's shape; level 2: there is a ruff, a
tie (T6) or a higher card discarded (W6); level 3: an over-ruff attempt (two ruffs),
or a tie, or a throw that is ruffed.
"""

from __future__ import annotations

import random

from tutor.rules.cards import PLAYERS, Card
from tutor.rules.combos import shape_of
from tutor.teach.drills.base import AnswerKind, Choice, Drill, Table
from tutor.teach.drills.common import (
    Hand,
    deal,
    pick_trump,
    play_singles,
    redraw,
    refuted,
)
from tutor.teach.drills.follow import choose_lead
from tutor.rules.follow import legal_follows
from tutor.core.i18n import Text, Translator
from tutor.rules.order import Trump
from tutor.rules.ruff import ruff_rank
from tutor.rules.trick import explain_trick, trick_winner, why_not

FORMS = ("who-wins",)
_KINDS = {1: ("single", "pair"), 2: ("single", "pair", "tractor"), 3: ("single", "pair", "tractor", "throw")}


def _features(plays: list[tuple[Card, ...]], trump: Trump) -> set[str]:
    """What makes a trick worth asking about: "shape" (a follower matches the lead's
    shape in suit), "ruff", "overruff" (two ruffs), "tie" (two equal plays), "discard-high"."""
    shape = shape_of(plays[0], trump)
    found: set[str] = set()
    ruffs = [p for p in plays[1:] if ruff_rank(shape, p, trump) is not None]
    if ruffs:
        found.add("ruff")
    if len(ruffs) > 1:
        found.add("overruff")
    def key(play: tuple[Card, ...]) -> tuple[int, ...]:
        return tuple(sorted(map(trump.order, play)))

    in_suit = [key(p) for p in plays if trump.lanes_of(p) == {shape.lane}]
    ranks = [r.order for r in (ruff_rank(shape, p, trump) for p in ruffs) if r is not None]
    if len(in_suit) != len(set(in_suit)) or len(ranks) != len(set(ranks)):
        found.add("tie")
    if any(trump.lanes_of(p) == {shape.lane} and len(set(p)) == len(set(plays[0])) for p in plays[1:]):
        found.add("shape")
    top = max(trump.order(c) for c in plays[0])
    if any(not trump.is_trump(c) and trump.lane(c) != shape.lane and trump.order(c) > top
           for p in plays[1:] for c in p):
        found.add("discard-high")
    return found


_WANT = {1: ({"shape"},), 2: ({"ruff"}, {"tie"}, {"discard-high"}), 3: ({"overruff"}, {"tie"}, {"ruff"})}


def _play(rng: random.Random, hand: Hand, lead: tuple[Card, ...], trump: Trump,
          table: list[tuple[Card, ...]]) -> tuple[Card, ...]:
    """A legal follow: one of a few random ones, the one that would take the trick
    about half the time."""
    follows = legal_follows(hand, lead, trump)
    options = [follows.random(rng) for _ in range(3)]
    if rng.random() < 0.6:
        for option in options:
            if trick_winner(table + [option], trump) == len(table):
                return option
    return options[0]


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    wanted = rng.choice(_WANT[level])

    def build(rng: random.Random) -> tuple[Trump, list[tuple[int, tuple[Card, ...]]]] | None:
        trump = pick_trump(rng, level)
        hands = play_singles(rng, deal(rng)[0], trump, rng.randint(0, 3) if level == 1 else rng.randint(6, 12) if level == 2 else rng.randint(8, 13))
        for leader in rng.sample(range(PLAYERS), PLAYERS):
            lead = choose_lead(rng, hands, leader, trump, ("single", "single", "pair") if "overruff" in wanted
                              else _KINDS[level], side_only=level > 1)
            if lead is None:
                continue
            plays = [lead]
            for i in range(1, PLAYERS):
                plays.append(_play(rng, hands[(leader + i) % PLAYERS], lead, trump, plays))
            if wanted <= _features(plays, trump):
                return trump, [((leader + i) % PLAYERS, p) for i, p in enumerate(plays)]
        return None

    trump, seated = redraw(rng, build, Text("a trick with {features}", features=", ".join(sorted(wanted))))
    outcome = explain_trick([p for _, p in seated], trump)
    winner = seated[outcome.winner][0]
    choices = tuple(Choice(str(s), tr("Seat {seat}: {cards}", seat=s, cards=p)) for s, p in seated)
    asked = "R5" if "overruff" in wanted else "T6" if "tie" in wanted else "W6" if "discard-high" in wanted else "B1"
    rule = asked if asked in outcome.rules else outcome.rules[-1]  # the rule the explanation cites
    why = tr("Seat {seat} wins the trick with {cards}: {reason}.", seat=winner, cards=seated[outcome.winner][1],
             reason=outcome.cause)
    plays = [p for _, p in seated]
    seats = [s for s, _ in seated]

    def refute(key: str) -> tuple[str, str]:
        return refuted(why_not(plays, seats.index(int(key)), trump), rule, tr)

    return Drill(
        kind="trick", level=level, seed=seed, lang=tr.language, trump=trump, rules=("B1", "T6", "R5", "W6"),
        question=tr("With {trump}, seat {leader} led {lead}. Who wins this trick?", trump=str(trump),
                    leader=seated[0][0], lead=seated[0][1]),
        table=Table(tuple(seated)), answer=AnswerKind.CHOICE, choices=choices,
        hints=(tr("Which plays are in the led suit with the lead's shape, and which are all trumps?"),
               tr("B1: only the same shape in the led suit, or a ruff, can beat the lead; ties go to the play made "
                  "first (T6); an over-ruff must be strictly higher (R5); a discard never wins (W6)."),
               tr("The answer: seat {seat}.", seat=winner)),
        rule=rule, explain=why, correct=frozenset({str(winner)}), refute=refute)
