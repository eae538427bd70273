"""The coach's drills: "Which play does the coach advise?" and "Which call does the coach
advise?" — advice, not rules.

A position from a real hand (computer players at level 1, a seeded deal): the learner
holds one seat's cards at its turn to play, or is the declarer about to call a friend.
Three choices, all legal; the correct one is the coach's: the search of
:mod:`tutor.play.search` plays each choice out on the same :data:`LAYOUTS` random layouts of
the cards the seat cannot see (seeded by the drill, so the same link gives the same
position and the same numbers), and only a position where the advised choice beats
each other one by at least the level's margin (:data:`MARGIN`), and by
:data:`SURE` standard errors, is asked. Level 1 asks about clear differences, level 3
about finer ones. Every sentence says it is advice (``Drill.advice``), and the reveal
gives the coach's numbers.

>>> import random
>>> from tutor.core.i18n import Translator
>>> drill = make(0, 1, random.Random(2), Translator("en"))
>>> drill.kind, drill.advice, drill.answer.value, len(drill.choices)
('advice', True, 'choice', 3)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from tutor.rules.cards import Card, Cards
from tutor.teach.drills.base import AnswerKind, Choice, Drill, Table
from tutor.teach.drills.common import computer_hand, redraw, with_trump
from tutor.rules.game import Call, Phase, SeatView
from tutor.core.i18n import Text, Translator
from tutor.teach.coaching import signed, situation, weighed_play
from tutor.teach.narration import you_are
from tutor.play.search import Found, PlayValue, candidate_plays, edge, search, weigh_calls
from tutor.play.strategy import next_action

FORMS: Final = ("play", "call")
LAYOUTS: Final = 48
"""Layouts the coach deals to weigh a drill's choices."""
FIRST_LOOK: Final = 12
"""Layouts of a first look at more choices, to keep the promising ones (and skip positions
where no choice stands out) before weighing them on :data:`LAYOUTS` others."""
MARGIN: Final = {1: 0.8, 2: 0.5, 3: 0.25}
"""How much better (in expected result, S1) the advised choice is than each other, by level."""
SURE: Final = 2.0
"""How many standard errors the advised choice's edge must be, at least."""
WEIGHED: Final = 6
"""Candidate plays the coach weighs for a play drill (the heuristic player's among them)."""

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Position:
    """An advice drill's position and what the coach found there: the learner's seat's
    ``view`` (the declarer's, for a call), the three ``options`` in the order they are
    shown (plays; or calls: a card, None for a solo), the index of the coach's ``best``,
    and each option's ``results`` for the seat (S1–S3) on the same :data:`LAYOUTS`
    layouts; for plays, each option's search value (``values``, with the share of
    layouts in which the seat's side took the trick)."""

    view: SeatView
    options: tuple[Cards | Card | None, ...]
    best: int
    results: tuple[tuple[int, ...], ...]
    values: tuple[PlayValue, ...] = ()

    def expected(self, index: int) -> float:
        """Option ``index``'s average result."""
        return sum(self.results[index]) / len(self.results[index])


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    found = position(seed, level, rng)
    return _play_drill(found, seed, level, tr) if found.values else _call_drill(found, seed, level, tr)


def position(seed: int, level: int, rng: random.Random) -> Position:
    """The position of the advice drill made from ``seed`` at ``level`` with ``rng`` (the
    one :func:`tutor.teach.drills.generate` gives it), and what the coach found: a play
    (``FORMS[seed % 2] == "play"``) or a call."""
    if FORMS[seed % len(FORMS)] == "play":
        return redraw(rng, lambda rng: _play_position(seed, level, rng),
                      Text("a position where one play is clearly best"), cap=60)
    return redraw(rng, lambda rng: _call_position(seed, level, rng), Text("a call that is clearly best"), cap=40)


def _clear(results: Sequence[Sequence[int]], level: int, *, loose: bool = False) -> tuple[int, list[int]] | None:
    """The index of the best result series and those it clearly beats (by the level's
    margin and :data:`SURE` standard errors; ``loose``: by half the margin, for a first
    look), or None when fewer than two are clearly beaten."""
    best = max(range(len(results)), key=lambda i: sum(results[i]))
    margin = MARGIN[level] / 2 if loose else MARGIN[level]
    beaten = []
    for index, other in enumerate(results):
        if index != best:
            gain, error = edge(results[best], other)
            if gain >= margin and (loose or gain > SURE * error):
                beaten.append(index)
    return (best, beaten) if len(beaten) >= 2 else None


Weigh = Callable[[Sequence[T], random.Random, int], tuple[Sequence[T], Sequence[Sequence[int]]]]
"""A way to weigh options on layouts dealt by a generator: the options (in any order)
and each one's results, in that order."""


def _advised(options: Sequence[T], weigh: Weigh[T], seed: int, level: int, rng: random.Random,
             name: str) -> tuple[list[T], int, list[Sequence[int]]] | None:
    """The three options a drill shows, in the order shown, the index of the coach's, and
    their results: a first look at ``options`` on :data:`FIRST_LOOK` layouts keeps the
    promising ones, weighed again on :data:`LAYOUTS` others (both seeded by the drill's
    ``seed``); None unless one clearly beats two others (:func:`_clear`)."""
    shown, first = weigh(options, random.Random(f"advice-first-{seed}"), FIRST_LOOK)
    seems = _clear(first, level, loose=True)
    if seems is None:
        return None
    shortlist = [shown[i] for i in (seems[0], *seems[1][:3])]
    shown, results = weigh(shortlist, random.Random(f"advice-{name}-{seed}"), LAYOUTS)
    clear = _clear(results, level)
    if clear is None:
        return None
    best, beaten = clear
    order = [best, *rng.sample(beaten, 2)]
    rng.shuffle(order)
    return [shown[i] for i in order], order.index(best), [results[i] for i in order]


def _play_position(seed: int, level: int, rng: random.Random) -> Position | None:
    game, bots = computer_hand(rng, Phase.PLAYING)
    for _ in range(rng.randrange(0, 75)):
        if game.phase is not Phase.PLAYING:
            return None
        game.apply(next_action(game, bots))
    if game.phase is not Phase.PLAYING or game.actor is None:
        return None
    view = game.view(game.actor)
    heuristic = bots[view.seat].play(view).cards
    plays = [p for p in candidate_plays(view, game.rules, rng=rng) if Counter(p) != Counter(heuristic)]
    if len(plays) < 2 or view.forced_options:
        return None
    weighed = [Cards(heuristic), *rng.sample(plays, min(WEIGHED - 1, len(plays)))]
    found: list[Found] = []

    def weigh(candidates: Sequence[Cards], layouts_rng: random.Random, layouts: int) -> tuple[list[Cards],
                                                                                             list[tuple[int, ...]]]:
        found.append(search(view, game.rules, rng=layouts_rng, layouts=layouts, candidates=candidates))
        return [value.play for value in found[-1].values], [value.results for value in found[-1].values]

    advised = _advised(weighed, weigh, seed, level, rng, "drill")
    if advised is None:
        return None
    chosen, best, results = advised
    values = [found[-1].value_of(play) for play in chosen]
    return Position(view, tuple(chosen), best, tuple(map(tuple, results)),
                    tuple(value for value in values if value is not None))


def _call_position(seed: int, level: int, rng: random.Random) -> Position | None:
    game, bots = computer_hand(rng, Phase.CALLING)
    if game.phase is not Phase.CALLING:
        return None  # F4: every card paired, an automatic solo
    assert game.declarer is not None and game.trump is not None
    view = game.view(game.declarer)
    trump = game.trump
    nameable = list(game.nameable_cards())
    if len(nameable) < 2:
        return None
    heuristic = bots[game.declarer].call(view)
    ranked = sorted(nameable, key=lambda c: (c.rank not in (13, 14) and c.suit is not None, -trump.order(c)))
    calls: list[Card | None] = list(dict.fromkeys(
        [heuristic.card if isinstance(heuristic, Call) else None, *ranked[:2],
         *rng.sample(nameable, min(2, len(nameable))), None]))

    def weigh(options: Sequence[Card | None], layouts_rng: random.Random, layouts: int) -> tuple[
            Sequence[Card | None], tuple[tuple[int, ...], ...]]:
        return options, weigh_calls(view, options, game.rules, rng=layouts_rng, layouts=layouts)

    advised = _advised(calls, weigh, seed, level, rng, "call")
    if advised is None:
        return None
    chosen, best, results = advised
    return Position(view, tuple(chosen), best, tuple(map(tuple, results)))


KEYS: Final = "abc"


def _play_drill(found: Position, seed: int, level: int, tr: Translator) -> Drill:
    view, values = found.view, found.values
    trump = view.trump
    assert trump is not None
    best = values[found.best]
    question = tr.sentences(
        tr("Advice, not a rule."), with_trump(tr(you_are(view)), trump, tr),
        *(tr(line) for line in situation(view)),
        tr("Which of these plays does the coach advise?") if view.trick else
        tr("You lead. Which of these leads does the coach advise?"))
    layouts = len(best.results)
    explain = tr.sentences(
        tr("The coach played each choice out {count} times from here, dealing the cards you cannot see at random "
           "as the table allows, and averaged your result (S1): this is advice, not a rule.", count=layouts),
        *(tr("{line}.", line=weighed_play(value)) for value in sorted(values, key=lambda v: -v.expected)))

    def refute(key: str) -> str:
        value = values[KEYS.index(key)]
        return tr("Advice, not a rule: the coach expects {cards} to do worse here (expected {value}, over {count} "
                  "deals).", cards=value.play, value=signed(value.expected), count=layouts)

    return Drill(kind="advice", level=level, seed=seed, lang=tr.language, trump=trump, rules=(), advice=True,
                 question=question, hand=trump.sorted(view.hand), seat=view.seat, table=Table(view.trick),
                 answer=AnswerKind.CHOICE, choices=tuple(Choice(k, tr.cards(v.play)) for k, v in zip(KEYS, values)),
                 correct=frozenset({KEYS[found.best]}), rule="", explain=explain, refute=refute,
                 hints=(tr("Who is winning the trick now, and on whose side is that seat?") if view.trick else
                        tr("Which of your cards can nobody beat? Who is out of which suit?"),
                        tr("Points go to the side that takes the trick: give them to your partner, not to the "
                           "other side; keep trumps that can win later."),
                        tr("The coach's choice: {cards}.", cards=best.play)))


def _call_drill(found: Position, seed: int, level: int, tr: Translator) -> Drill:
    view = found.view
    trump = view.trump
    assert trump is not None and view.kitty is not None

    def label(index: int) -> str:
        call = found.options[index]
        return tr("Go solo") if call is None else tr("Call {card}", card=call)

    count = len(found.results[0])
    question = tr.sentences(
        tr("Advice, not a rule."),
        with_trump(tr("You are the declarer and have buried the 8 cards shown. Which call does the coach advise?"),
                   trump, tr))
    ranked = sorted(range(len(found.options)), key=lambda i: -found.expected(i))
    explain = tr.sentences(
        tr("Each call names a card you hold exactly once (F1). The coach played the whole hand out {count} times "
           "after each call, dealing the other hands at random, and averaged your result (S1): this is advice, not a "
           "rule.", count=count),
        *(tr("{choice}: expected {value}.", choice=label(i), value=signed(found.expected(i))) for i in ranked))

    def refute(key: str) -> str:
        index = KEYS.index(key)
        return tr("Advice, not a rule: the coach expects “{choice}” to do worse (expected {value}, over {count} "
                  "deals).", choice=label(index), value=signed(found.expected(index)), count=count)

    return Drill(kind="advice", level=level, seed=seed, lang=tr.language, trump=trump, rules=(), advice=True,
                 question=question, hand=trump.sorted(view.hand), seat=view.seat, shown=trump.sorted(view.kitty),
                 answer=AnswerKind.CHOICE, choices=tuple(Choice(k, label(i)) for i, k in enumerate(KEYS)),
                 correct=frozenset({KEYS[found.best]}), rule="", explain=explain, refute=refute,
                 hints=(tr("A friend who holds the other copy of a high card you hold once wins tricks for you."),
                        tr("Going solo doubles the stakes (S2): only with a hand that wins alone."),
                        tr("The coach's choice: {choice}.", choice=label(found.best))))
