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

After the review, a learner may try a costly decision again (:func:`retry`: accepted
within the coach's margin of the best, :func:`costly`), and at any time of the play ask
who is likely the friend (:func:`friend_chances`), from the very layouts the coach deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from tutor.core.arguments import instance, seat as check_seat, whole
from tutor.core.errors import TutorError
from tutor.core.i18n import Text
from tutor.play.bank import Option, load, prepared, prepared_calls
from tutor.play.search import Found, PlayValue, Steps, calls_to_weigh, edge, finished, search_steps
from tutor.play.search import weigh_calls as weigh
from tutor.play.simulation import Simulation
from tutor.play.strategy import ComputerPlayer
from tutor.rules.actions import Action, Call, Play, Solo
from tutor.rules.cards import PLAYERS, Card, Cards
from tutor.rules.friend import friend_of
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
    the declarer about to call, the calls weighed (``calls``, best first, on ``layouts``
    layouts: :func:`weigh_calls`); in the other phases the computer player's ``action`` (no search)."""

    view: SeatView
    found: Found | None
    chosen: PlayValue | None
    action: Action | None
    calls: tuple[Option, ...] = ()
    layouts: int = 0

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
        """True if the play cost more than its margin of error (and at least 0.25): :func:`costly`."""
        return costly(self.cost, self.error)


def margin(error: float) -> float:
    """The coach's margin of error for a difference whose standard error is ``error``: twice
    that, and at least 0.25 of the score table. Within it two plays are about as good; the
    hint, the review and a retry all say and use this one margin.

    >>> margin(0.2), margin(0.01)
    (0.4, 0.25)
    """
    return max(0.25, 2 * error)


def costly(cost: float, error: float) -> bool:
    """The coach's one criterion for a mistake: a play that cost ``cost`` against the best
    (on the same layouts, with standard error ``error``) is costly if the cost is beyond the
    coach's :func:`margin`. The review's :attr:`Decision.costly` and a retry's acceptance
    (:func:`retry`) both ask it.

    >>> costly(0.9, 0.2), costly(0.3, 0.2), costly(0.2, 0.01)
    (True, False, False)
    """
    return cost >= margin(error)


@dataclass(frozen=True, slots=True)
class Retry:
    """A learner's second try at a position (:func:`retry`): the play ``tried``, the coach's
    judgment of the position (``found``, which weighs it), and its cost against the best on
    the same layouts, with its standard error. ``accepted`` unless the cost is costly
    (:func:`costly`): any play within the coach's margin of the best counts."""

    tried: Cards
    found: Found
    value: PlayValue
    cost: float
    error: float

    @property
    def best(self) -> PlayValue:
        """The coach's best play here."""
        return self.found.best

    @property
    def accepted(self) -> bool:
        """True if the try is within the coach's margin of the best (not :func:`costly`)."""
        return not costly(self.cost, self.error)


def judge(view: SeatView, rules: Ruleset = DEFAULT_RULES, *, seed: int = 0,
          include: Sequence[Sequence[Card]] = (), layouts: int = LAYOUTS, think: float | None = None) -> Found:
    """The coach's one judgment of the position in ``view`` (the seat to play): the search
    seeded by the hand's ``seed`` and the position, on :data:`LAYOUTS` layouts, weighing the
    computer player's choice and ``include`` beside its own candidates. The hint and the
    review both ask it, so a play gets the same numbers from both (a play's numbers do not
    depend on what else is weighed: :func:`tutor.play.search.search`), and a play the hint
    advised is the review's best too. At a position of lesson 11's advice drills (the bank,
    :func:`tutor.play.bank.prepared`) it is the bank's deeper judgment, the drill's own —
    unless ``include`` asks about a play the bank did not weigh.

    >>> from tutor.play.strategy import play_computer_hand
    >>> game = play_computer_hand(3)
    >>> replay = Game(game.seed, game.rules, game.deck)
    >>> while replay.phase is not Phase.PLAYING:
    ...     _ = replay.apply(game.history[len(replay.history)])
    >>> view = replay.view(replay.actor)
    >>> judge(view, seed=3, layouts=4).best == judge(view, seed=3, layouts=4, include=[view.hand[:1]]).best
    True
    """
    return finished(judge_steps(view, rules, seed=seed, include=include, layouts=layouts, think=think))


def judge_steps(view: SeatView, rules: Ruleset = DEFAULT_RULES, *, seed: int = 0,
                include: Sequence[Sequence[Card]] = (), layouts: int = LAYOUTS,
                think: float | None = None) -> Steps[Found]:
    """:func:`judge` a layout at a time (:func:`tutor.play.search.search_steps`): the same judgment."""
    known = prepared(view, seed, rules)  # a position the bank analysed deeply: its numbers, as its drills say them
    if known is not None and all(known.value_of(play) is not None for play in include):
        return known
    rng = _position_rng(view, seed)
    heuristic = ComputerPlayer(view.seat, seed, rules).play(view).cards
    return (yield from search_steps(view, rules, rng=rng, layouts=layouts, think=think,
                                    include=[heuristic, *include]))


def advise(view: SeatView, rules: Ruleset = DEFAULT_RULES, *, seed: int = 0,
           chosen: Sequence[Card] | None = None, think: float | None = None, judged: Found | None = None) -> Advice:
    """The coach's advice for ``view``'s seat. ``chosen``: the play the learner has in
    mind, weighed with the others if the rules allow it (else left out); ``think``: CPU
    seconds after which to stop dealing layouts (None, the default: deal all of them, so the
    advice is the same on any machine); ``judged``: the coach's judgment of this very position
    made already (:func:`judge`'s, asked with ``seed`` and nothing included), taken when nothing
    is ``chosen`` or it weighed the play ``chosen`` (including a play weighed anyway changes
    nothing: :func:`tutor.play.search.candidate_plays`) — the advice is the same."""
    instance(view, SeatView, "view")
    whole(seed, "seed", low=0)
    if judged is not None:
        instance(judged, Found, "judged")
    if view.phase is Phase.CALLING and view.actor == view.seat == view.declarer:
        calls, layouts = weigh_calls(view, rules, seed=seed)
        best = calls[0].choice
        assert best is None or isinstance(best, Card)
        return Advice(view, None, None, Solo(view.seat) if best is None else Call(view.seat, best), calls, layouts)
    if view.phase is not Phase.PLAYING or view.actor != view.seat:
        return Advice(view, None, None, ComputerPlayer(view.seat, seed, rules).act(view))
    include = [tuple(chosen)] if chosen is not None and _allowed(view, chosen, rules) else []
    found = judged if judged is not None and (not include or judged.value_of(include[0]) is not None) else \
        judge(view, rules, seed=seed, include=include, think=think)
    mine = found.value_of(chosen) if chosen is not None else None
    return Advice(view, found, mine, Play(view.seat, found.best.play))


def weigh_calls(view: SeatView, rules: Ruleset = DEFAULT_RULES, *, seed: int = 0,
                layouts: int = LAYOUTS) -> tuple[tuple[Option, ...], int]:
    """The coach's judgment of the declarer's call in ``view`` (the kitty buried): a few calls
    that span the choice and a solo (:func:`tutor.play.search.calls_to_weigh`), each played
    out to the end of the hand on the same ``layouts`` layouts of the other hands, seeded by
    the position — best first, each with its average result (S1) and its gain against the
    best with that gain's standard error — and the layouts. At a position of lesson 11's call
    drills, the bank's deeper judgment (:func:`tutor.play.bank.prepared_calls`), the drill's own.

    >>> from tutor.play.strategy import computer_hand
    >>> game, _ = computer_hand(4, Phase.CALLING)
    >>> calls, layouts = weigh_calls(game.view(game.declarer), layouts=8)
    >>> layouts, calls[0].gain, calls[-1].gain >= 0, calls == weigh_calls(game.view(game.declarer), layouts=8)[0]
    (8, 0.0, True, True)
    """
    known = prepared_calls(view, seed, rules)
    if known is not None:
        return known, load().layouts
    calls = calls_to_weigh(view, rules)
    results = weigh(view, calls, rules, rng=_position_rng(view, seed), layouts=layouts)
    order = sorted(range(len(calls)), key=lambda i: -sum(results[i]))
    best = results[order[0]]
    return tuple(Option(calls[i], sum(results[i]) / layouts, *edge(best, results[i])) for i in order), layouts


def review(game: Game, seat: int, *, seed: int = 0, layouts: int = LAYOUTS,
           think: float | None = None) -> tuple[Decision, ...]:
    """Every play ``seat`` made in ``game`` where the rules left a choice, weighed as the
    hint weighs it (:func:`judge`) from the seat's view at that moment, the costliest first."""
    instance(game, Game, "game")
    check_seat(seat)
    whole(seed, "seed", low=0)
    return finished(Reviewing(game, seat, seed=seed, layouts=layouts, think=think).steps())


class Reviewing:
    """The coach's :func:`review` of ``seat``'s plays in ``game``, made a little at a time:
    each step weighs one layout of one play (:func:`judge_steps`), so a page can weigh the
    plays already made while the learner thinks, and finish the rest when the review is
    asked for (:meth:`steps`). The game may go on meanwhile (its later plays are weighed as
    they come); the decisions are those :func:`review` makes.

    >>> from tutor.play.strategy import play_computer_hand
    >>> game = play_computer_hand(2)
    >>> reviewing = Reviewing(game, 0, layouts=4)
    >>> [reviewing.step() for _ in range(3)]
    [True, True, True]
    >>> said = lambda decisions: [(d.index, d.played, d.cost, d.found.values) for d in decisions]
    >>> said(finished(reviewing.steps())) == said(review(game, 0, layouts=4))
    True
    """

    def __init__(self, game: Game, seat: int, *, seed: int = 0, layouts: int = LAYOUTS,
                 think: float | None = None, judged: Callable[[int], Found | None] | None = None) -> None:
        self.game, self.seat, self.seed, self.layouts, self.think = game, seat, seed, layouts, think
        self._judged = judged  # the hint's judgment of the position before action number i, if made
        self._replay = Game(game.seed, game.rules, game.deck)
        self._decisions: list[Decision] = []
        self._weighing: Steps[Decision | None] | None = None

    def step(self) -> bool:
        """Weigh one more layout of a play made; False when every play made so far is weighed."""
        game, replay = self.game, self._replay
        while self._weighing is None:
            done = len(replay.history)
            if done == len(game.history):
                return False
            action = game.history[done]
            if isinstance(action, Play) and action.seat == self.seat and replay.phase is Phase.PLAYING:
                self._weighing = decision_steps(replay.view(self.seat), action.cards, done, game.rules,
                                                seed=self.seed, layouts=self.layouts, think=self.think,
                                                judged=self._judged(done) if self._judged is not None else None)
            replay.apply(action)
        try:
            next(self._weighing)
        except StopIteration as made:
            self._weighing = None
            if made.value is not None:
                self._decisions.append(made.value)
        return True

    @property
    def weighed(self) -> int:
        """How many actions of the game are weighed (those not the seat's plays count at once)."""
        return len(self._replay.history) - (self._weighing is not None)

    def steps(self) -> Steps[tuple[Decision, ...]]:
        """The rest of the review, a step at a time; returns every decision, the costliest first."""
        while self.step():
            yield
        return tuple(sorted(self._decisions, key=lambda d: -d.cost))


def decision(view: SeatView, played: Sequence[Card], index: int, rules: Ruleset = DEFAULT_RULES, *,
             seed: int = 0, layouts: int = LAYOUTS, think: float | None = None,
             judged: Found | None = None) -> Decision | None:
    """The play ``played`` that ``view``'s seat made there (``index`` actions into the hand),
    weighed as the hint weighs it (:func:`judge`, seeded by the hand's ``seed``); None where
    the rules left no choice (one legal play). The review weighs each play so, and the table's
    positions to review weigh a kept one again alike. ``judged``: see :func:`decision_steps`."""
    return finished(decision_steps(view, played, index, rules, seed=seed, layouts=layouts, think=think,
                                   judged=judged))


def decision_steps(view: SeatView, played: Sequence[Card], index: int, rules: Ruleset = DEFAULT_RULES, *,
                   seed: int = 0, layouts: int = LAYOUTS, think: float | None = None,
                   judged: Found | None = None) -> Steps[Decision | None]:
    """:func:`decision` a layout at a time (:func:`judge_steps`). ``judged``: the hint's
    judgment of this very position (:func:`judge`'s, with ``seed`` and ``layouts``, nothing
    included), taken if it weighed ``played`` — the decision is the same."""
    if judged is not None and judged.value_of(played) is not None:
        found = judged
    else:
        found = yield from judge_steps(view, rules, seed=seed, include=(tuple(played),), layouts=layouts,
                                       think=think)
    if len(found.values) == 1:
        return None
    mine = found.value_of(played)
    assert mine is not None  # a search weighs every play it is asked to include
    cost, error = found.edge(found.best, mine)
    return Decision(index, len(view.tricks) + 1, view, Cards(played), found, max(cost, 0.0), error)


def retry(view: SeatView, tried: Sequence[Card], rules: Ruleset = DEFAULT_RULES, *, seed: int = 0,
          found: Found | None = None) -> Retry:
    """Weigh a learner's new try ``tried`` at the position in ``view`` (the seat to play) as the
    review weighed the first (:func:`judge`, seeded by the hand's ``seed``): accepted if it is
    within the coach's margin of the best (:attr:`Retry.accepted`). ``found``: the coach's
    judgment of this position already made (a :class:`Decision`'s), reused when it weighs
    ``tried`` — the numbers are the same either way. A play the rules refuse is refused with
    the rules' own reason (:class:`~tutor.core.errors.IllegalActionError`, its rule ID).

    >>> from tutor.play.strategy import play_computer_hand
    >>> game = play_computer_hand(3)
    >>> decision = review(game, 0, seed=3, layouts=4)[0]
    >>> again = retry(decision.view, decision.found.best.play, game.rules, seed=3, found=decision.found)
    >>> again.accepted, again.cost
    (True, 0.0)
    """
    instance(view, SeatView, "view")
    whole(seed, "seed", low=0)
    if view.phase is not Phase.PLAYING or view.actor != view.seat or view.trump is None:
        raise TutorError(Text("a play is tried again by the seat to play, in the playing phase"))
    play = tuple(tried)
    if not all(isinstance(card, Card) for card in play):
        raise TutorError(Text("a play is cards, not {value}", value=repr(tried)[:40]))
    refusal = play_refusal(view.hand, view.trick, view.forced_options, play, view.trump, rules)
    if refusal is not None:
        raise refusal
    mine = found.value_of(play) if found is not None else None
    if found is None or mine is None:
        found = judge(view, rules, seed=seed, include=[play])
        mine = found.value_of(play)
    assert mine is not None  # a search weighs every play it is asked to include
    cost, error = found.edge(found.best, mine)
    return Retry(Cards(play), found, mine, max(cost, 0.0), error)


def friend_chances(view: SeatView, rules: Ruleset = DEFAULT_RULES, *, seed: int = 0,
                   layouts: int = LAYOUTS) -> tuple[float, ...]:
    """Each seat's chance, as ``view``'s seat may estimate it, of being the friend (F2: the
    seat other than the declarer that holds the other copy of the called card): the share
    of the coach's layouts of the unseen cards in which it holds it — the very layouts
    :func:`judge` deals for this position (seeded alike), each consistent with the seat's
    view (its own cards, the counts, the suits seats have shown they are out of, the
    declarer's own copy: :meth:`tutor.play.simulation.Simulation.deal`). Advice, not a rule.

    One number a seat (five); they sum to 1 unless the rules let the twin be buried (F3
    variant: the rest is the chance that nobody is the friend). A seat shown out of the
    called card's suit, the declarer, and the seat asking (unless it holds the card) get 0.
    Once the friend is known to the seat (revealed, F6, or the seat itself), that seat
    gets 1; in a solo (F5), or before the call, every seat 0.

    >>> from tutor.play.strategy import play_computer_hand
    >>> game = play_computer_hand(3)
    >>> replay = Game(game.seed, game.rules, game.deck)
    >>> while replay.phase is not Phase.PLAYING:
    ...     _ = replay.apply(game.history[len(replay.history)])
    >>> seat = next(s for s in range(5) if s != replay.declarer and replay.friend != s)
    >>> chances = friend_chances(replay.view(seat), game.rules, seed=3)
    >>> round(sum(chances), 6), chances[seat], chances[replay.declarer]
    (1.0, 0.0, 0.0)
    """
    instance(view, SeatView, "view")
    whole(seed, "seed", low=0)
    whole(layouts, "layouts", low=1)
    card, declarer = view.friend_card, view.declarer
    if view.solo or card is None or declarer is None or view.phase is not Phase.PLAYING:
        return (0.0,) * PLAYERS
    if view.friend is not None:
        return tuple(1.0 if seat == view.friend else 0.0 for seat in range(PLAYERS))
    simulation = Simulation(view, rules)
    dealer = random.Random(_position_rng(view, seed).getrandbits(64))  # as search() draws its layouts
    counts = [0] * PLAYERS
    for _ in range(layouts):
        friend = friend_of(card, declarer, simulation.deal(dealer).hands)
        if friend is not None:
            counts[friend] += 1
    return tuple(count / layouts for count in counts)


def _position_rng(view: SeatView, seed: int) -> random.Random:
    """The random numbers of the coach's judgment of ``view``'s position in the hand dealt
    from ``seed``: one position, one set of layouts (:func:`judge`, :func:`friend_chances`)."""
    return random.Random(f"coach-{seed}-{view.seat}-{len(view.tricks)}-{len(view.trick)}")


def _allowed(view: SeatView, play: Sequence[Card], rules: Ruleset) -> bool:
    """True if the rules let ``view``'s seat play ``play`` now (:func:`tutor.rules.refusal.play_refusal`)."""
    assert view.trump is not None
    return play_refusal(view.hand, view.trick, view.forced_options, play, view.trump, rules) is None


__all__ = ["LAYOUTS", "SHOWN", "Advice", "Decision", "Retry", "Reviewing", "advise", "costly", "decision",
           "decision_steps", "friend_chances", "judge", "judge_steps", "margin", "retry", "review", "weigh_calls"]
