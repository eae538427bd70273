"""The coach: advice on how to play well, and a review of a seat's hand. Advice, not rules.

The rules say what *may* be played; the coach estimates what *should* be, by the search
of :mod:`tutor.play.search` from the seat's own view (never another seat's cards). Its numbers
are the seat's average result (S1–S3) over many random layouts of the unseen cards, so
they carry a margin of error, and every sentence made from them says it is advice.

>>> from tutor.play.strategy import play_computer_hand
>>> game = play_computer_hand(2)
>>> decisions = review(game, 0, layouts=4)
>>> len(decisions) > 5, all(d.cost >= 0 for d in decisions)
(True, True)
>>> decisions == tuple(sorted(decisions, key=lambda d: -d.cost))
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from tutor.core.arguments import instance, seat as check_seat, whole
from tutor.play.search import Found, PlayValue, search
from tutor.play.strategy import ComputerPlayer
from tutor.rules.actions import Action, Play
from tutor.rules.cards import Card, Cards
from tutor.rules.game import Game
from tutor.rules.phase import Phase
from tutor.rules.refusal import play_refusal
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.view import SeatView

LAYOUTS: Final = 40
"""Layouts the coach deals for a position, for "What would you play?" and for the review
alike (:func:`judge`); the same position always gets the same advice, on any machine: the
layouts are seeded by the position, and all of them are dealt (no think-time cut-off, which
would make a busy machine advise otherwise)."""
SHOWN: Final = 3
"""The advice names this many of the best plays."""


@dataclass(frozen=True, slots=True)
class Advice:
    """What the coach says for ``view``'s seat now: in the playing phase the search's
    findings (``found``), and the learner's own choice weighed beside them (``chosen``);
    in the other phases the computer player's ``action`` (no search)."""

    view: SeatView
    found: Found | None
    chosen: PlayValue | None
    action: Action | None

    @property
    def best(self) -> PlayValue | None:
        """The best play found, or None outside the playing phase."""
        return self.found.best if self.found is not None else None


@dataclass(frozen=True, slots=True)
class Decision:
    """One play of the reviewed seat: the position (``index`` actions into the hand's
    history, in trick ``trick``), what was played, what the search found there, and the
    cost of the play (the best average minus the play's, never below 0) with its
    standard error."""

    index: int
    trick: int
    view: SeatView
    played: Cards
    found: Found
    cost: float
    error: float

    @property
    def costly(self) -> bool:
        """True if the play cost more than its margin of error (and at least 0.25)."""
        return self.cost >= max(0.25, 2 * self.error)


def judge(view: SeatView, rules: Ruleset = DEFAULT_RULES, *, seed: int = 0,
          include: Sequence[Sequence[Card]] = (), layouts: int = LAYOUTS, think: float | None = None) -> Found:
    """The coach's one judgment of the position in ``view`` (the seat to play): the search
    seeded by the hand's ``seed`` and the position, on :data:`LAYOUTS` layouts, weighing the
    computer player's choice and ``include`` beside its own candidates. The hint and the
    review both ask it, so a play gets the same numbers from both (a play's numbers do not
    depend on what else is weighed: :func:`tutor.play.search.search`), and a play the hint
    advised is the review's best too.

    >>> from tutor.play.strategy import play_computer_hand
    >>> game = play_computer_hand(3)
    >>> replay = Game(game.seed, game.rules, game.deck)
    >>> while replay.phase is not Phase.PLAYING:
    ...     _ = replay.apply(game.history[len(replay.history)])
    >>> view = replay.view(replay.actor)
    >>> judge(view, seed=3, layouts=4).best == judge(view, seed=3, layouts=4, include=[view.hand[:1]]).best
    True
    """
    rng = random.Random(f"coach-{seed}-{view.seat}-{len(view.tricks)}-{len(view.trick)}")
    heuristic = ComputerPlayer(view.seat, seed, rules).play(view).cards
    return search(view, rules, rng=rng, layouts=layouts, think=think, include=[heuristic, *include])


def advise(view: SeatView, rules: Ruleset = DEFAULT_RULES, *, seed: int = 0,
           chosen: Sequence[Card] | None = None, think: float | None = None) -> Advice:
    """The coach's advice for ``view``'s seat. ``chosen``: the play the learner has in
    mind, weighed with the others if the rules allow it (else left out); ``think``: CPU
    seconds after which to stop dealing layouts (None, the default: deal all of them, so the
    advice is the same on any machine)."""
    instance(view, SeatView, "view")
    whole(seed, "seed", low=0)
    if view.phase is not Phase.PLAYING or view.actor != view.seat:
        return Advice(view, None, None, ComputerPlayer(view.seat, seed, rules).act(view))
    include = [tuple(chosen)] if chosen is not None and _allowed(view, chosen, rules) else []
    found = judge(view, rules, seed=seed, include=include, think=think)
    mine = found.value_of(chosen) if chosen is not None else None
    return Advice(view, found, mine, Play(view.seat, found.best.play))


def review(game: Game, seat: int, *, seed: int = 0, layouts: int = LAYOUTS,
           think: float | None = None) -> tuple[Decision, ...]:
    """Every play ``seat`` made in ``game`` where the rules left a choice, weighed as the
    hint weighs it (:func:`judge`) from the seat's view at that moment, the costliest first."""
    instance(game, Game, "game")
    check_seat(seat)
    whole(seed, "seed", low=0)
    replay = Game(game.seed, game.rules, game.deck)
    decisions = []
    for index, action in enumerate(game.history):
        if isinstance(action, Play) and action.seat == seat and replay.phase is Phase.PLAYING:
            view = replay.view(seat)
            found = judge(view, game.rules, seed=seed, include=(action.cards,), layouts=layouts, think=think)
            if len(found.values) == 1:  # the rules left no choice (one legal play): nothing to review
                replay.apply(action)
                continue
            mine = found.value_of(action.cards)
            assert mine is not None  # a search weighs every play it is asked to include
            cost, error = found.edge(found.best, mine)
            decisions.append(Decision(index, len(view.tricks) + 1, view, Cards(action.cards), found,
                                      max(cost, 0.0), error))
        replay.apply(action)
    return tuple(sorted(decisions, key=lambda d: -d.cost))


def _allowed(view: SeatView, play: Sequence[Card], rules: Ruleset) -> bool:
    """True if the rules let ``view``'s seat play ``play`` now (:func:`tutor.rules.refusal.play_refusal`)."""
    assert view.trump is not None
    return play_refusal(view.hand, view.trick, view.forced_options, play, view.trump, rules) is None


__all__ = ["LAYOUTS", "SHOWN", "Advice", "Decision", "advise", "judge", "review"]
