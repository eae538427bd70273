"""Counting drills (W2, C3): what a good player keeps track of during a hand.

"Which seat has just shown it is out of a suit?" — a follower who plays fewer cards of
the led suit than were led has none left (W2: who has enough must follow with them) —
and "How many points are in the cards you cannot see?" (C3: the deck holds 200 points).
The positions are real hands played by the computer players (level 1) from a seeded
deal; the answers are facts of the rules, counted by the rules module
(:func:`tutor.rules.follow.shown_out`, :func:`tutor.play.simulation.unseen_points`, :func:`tutor.points`), not
advice. Level 1 asks about single leads and gives the points played in one sum, level 2
about pairs and the points each seat won, level 3 about longer leads (or pairs, in a hand
that led none) and the points each trick held.

>>> import random
>>> from tutor.core.i18n import Translator
>>> drill = make(0, 1, random.Random(3), Translator("en"))
>>> drill.kind, drill.answer.value, drill.rule
('count', 'choice', 'W2')
>>> make(1, 2, random.Random(3), Translator("en")).answer.value
'number'
"""

from __future__ import annotations

import random
from typing import Final

from tutor.rules.cards import PACK, PLAYERS, Card, points
from tutor.teach.drills.base import AnswerKind, Choice, Drill, Mark, Table
from tutor.teach.drills.common import computer_hand, redraw, with_trump
from tutor.rules.follow import shown_out
from tutor.rules.game import Game, Phase, TrickWon
from tutor.core.i18n import Text, Translator
from tutor.rules.order import Trump
from tutor.play.simulation import unseen_points
from tutor.play.strategy import ComputerPlayer, next_action

FORMS: Final = ("void", "points-out")
TOTAL_POINTS: Final = points(PACK)
"""C3: the points in the whole pack (200)."""
NOBODY: Final = "nobody"


def _fit(lead: tuple[Card, ...], level: int) -> int:
    """How well a trick with this lead fits the level (0: not at all): level 1 asks about
    single leads, level 2 about pairs, level 3 about longer leads (tractors, throws), or
    pairs in a hand that led none."""
    pair = len(lead) == 2 and lead[0] == lead[1]
    if level == 3:
        return 2 if len(lead) > 1 and not pair else int(pair)
    return int(len(lead) == 1 if level == 1 else pair)


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    if FORMS[seed % len(FORMS)] == "void":
        return _void(seed, level, rng, tr)
    return _points_out(seed, level, rng, tr)


def _void(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    want_nobody = rng.random() < 0.25

    def build(rng: random.Random) -> tuple[Game, TrickWon, list[int]] | None:
        game, bots = computer_hand(rng, Phase.PLAYING)
        trump = game.trump
        assert trump is not None
        want = 0 if want_nobody else 1
        shown = [(t, short) for t in _tricks(game, bots) if len(short := shown_out(t.plays, trump)) == want]
        best = max((_fit(t.plays[0][1], level) for t, _ in shown), default=0)
        fitting = [(t, short) for t, short in shown if best and _fit(t.plays[0][1], level) == best]
        if not fitting:
            return None
        won, short = rng.choice(fitting)
        return game, won, short

    game, won, short = redraw(rng, build, Text("a trick that shows a void"), cap=200)
    trump = game.trump
    assert trump is not None
    lead_seat, lead = won.plays[0]
    suit = Trump.suit_name(trump.lane(lead[0]))
    choices = tuple(Choice(str(s), tr("Seat {seat}", seat=s)) for s, _ in won.plays[1:])
    choices += (Choice(NOBODY, tr("Nobody")),)
    if short:
        out = short[0]
        played = trump.sorted(next(cards for s, cards in won.plays if s == out))  # in holding order
        shown = sum(1 for c in played if trump.lane(c) == trump.lane(lead[0]))
        if shown:
            why = tr(Text.plural("Seat {seat} played {played}: only {count} card of {suit} to a lead of {size}. "
                                 "Whoever holds enough {suit} must play them (W2), so seat {seat} has no {suit} left.",
                                 "Seat {seat} played {played}: only {count} cards of {suit} to a lead of {size}. "
                                 "Whoever holds enough {suit} must play them (W2), so seat {seat} has no {suit} left.",
                                 count=shown, size=len(lead), seat=out, played=played, suit=suit))
        else:
            why = tr("Seat {seat} played {played} to a lead of {suit}: whoever holds {suit} must play it (W2), so "
                     "seat {seat} has no {suit} left.", seat=out, played=played, suit=suit)
        correct = frozenset({str(out)})
        answer = tr("Seat {seat}", seat=out)
    else:
        why = tr("Every seat played as many {suit} as were led: nobody has shown they are out of {suit} (W2).",
                 suit=suit)
        correct = frozenset({NOBODY})
        answer = tr("Nobody")
    def refute(key: str) -> tuple[str, str]:
        if key == NOBODY:
            return "W2", tr("A seat played fewer {suit} than were led: whoever holds enough {suit} must play them "
                            "(W2).", suit=suit)
        seat = int(key)
        cards = trump.sorted(next(c for s, c in won.plays if s == seat))
        # a wrong seat played as many of the led suit as were led (only the answer played fewer)
        return "W2", tr("Seat {seat} played {played}: as many {suit} as were led, so seat {seat} may still hold "
                        "{suit} (W2).", seat=seat, played=cards, suit=suit)

    question = with_trump(tr("Seat {seat} led {lead}. Which seat has shown, in this trick, that it has no {suit} "
                             "left?", seat=lead_seat, lead=trump.sorted(lead), suit=suit), trump, tr)
    return Drill(kind="count", level=level, seed=seed, lang=tr.language, trump=trump, rules=("W2",),
                 question=question, table=Table(won.plays), answer=AnswerKind.CHOICE, choices=choices,
                 correct=correct, rule="W2", explain=why, refute=refute,
                 hints=(tr("Count the {suit} each seat played.", suit=suit),
                        tr("W2: a follower plays cards of the led suit while they have them."),
                        tr("The answer: {answer}.", answer=answer)))


def _points_out(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    def build(rng: random.Random) -> tuple[Game, int] | None:
        game, bots = computer_hand(rng, Phase.PLAYING)
        stop = rng.randrange(3, 16)
        _tricks(game, bots, stop=stop)
        if len(game.tricks) != stop or game.phase is not Phase.PLAYING:
            return None  # the hand was over before (or at) that trick: every hand is empty (B3)
        return game, rng.randrange(PLAYERS)

    game, seat = redraw(rng, build, Text("a hand some tricks in"), cap=200)
    view = game.view(seat)
    trump = game.trump
    assert trump is not None
    unseen = unseen_points(view)
    played = sum(game.won_points)  # every trick's points, as the game counted them (B2)
    mine = points(view.hand)
    tricks = len(view.tricks)
    match level:  # level 1: one sum; 2: each seat's points won; 3: each trick's points
        case 1:
            counted = tr("The {count} tricks played so far held {points} points.", count=tricks, points=played)
        case 2:
            won = [tr("seat {seat} {points}", seat=s, points=game.won_points[s]) for s in range(PLAYERS)]
            counted = tr("In the {count} tricks played so far, the points won: {each}.", count=tricks,
                         each=", ".join(won))
        case _:
            counted = tr("The {count} tricks played so far held these points, trick by trick: {each}.",
                         count=tricks, each=", ".join(str(t.points) for t in view.tricks))
    buried = ""
    kitty = 0
    if view.kitty is not None:
        kitty = points(view.kitty)
        buried = tr("You are the declarer: the kitty you buried (shown) holds {points} points.", points=kitty)
        where = tr("in the other four hands")
    else:
        where = tr("in the other four hands and the kitty")
    question = tr.sentences(tr("You are seat {seat}.", seat=seat), counted,
                            buried, tr("How many points are in the cards you cannot see ({where})?", where=where))
    why = tr("The deck holds {total} points (C3): {total} − {played} played − {mine} in your hand{kitty} = {left}.",
             total=TOTAL_POINTS, played=played, mine=mine,
             kitty=tr(" − {points} in the kitty", points=kitty) if view.kitty is not None else "", left=unseen)
    return Drill(kind="count", level=level, seed=seed, lang=tr.language, trump=trump, rules=("C3",),
                 question=question, hand=trump.sorted(view.hand), seat=seat,
                 shown=trump.sorted(view.kitty) if view.kitty is not None else (),
                 answer=AnswerKind.NUMBER, number=unseen, rule="C3", explain=why,
                 unmarked=frozenset({Mark.POINTS}),  # counting the points seen is the question
                 hints=(tr("Count the points in your own hand: every 5 is 5, every 10 and K is 10."),
                        tr("C3: the deck holds {total} points; take away every point you have seen.",
                           total=TOTAL_POINTS),
                        tr("The answer: {answer}.", answer=unseen)))


def _tricks(game: Game, bots: dict[int, ComputerPlayer], stop: int | None = None) -> list[TrickWon]:
    """Play the hand on (computer players), returning each trick won, up to ``stop`` tricks."""
    won: list[TrickWon] = []
    while game.phase is Phase.PLAYING and (stop is None or len(won) < stop):
        event = game.apply(next_action(game, bots))
        won += [r for r in event.results if isinstance(r, TrickWon)]
    return won
