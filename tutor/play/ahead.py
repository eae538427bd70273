"""The coach weighing ahead: while a learner thinks, the judgments they may ask for next,
a layout at a time. Advice, not rules.

A page that waits for its learner has time to spare. :class:`Ahead` spends it one step at a
time (a step plays every candidate out in one layout: a few milliseconds), first on the
position the learner is to play in — what "What would you play?" weighs
(:func:`tutor.play.coach.judge_steps`) — then on the learner's plays already made, for the
review (:class:`tutor.play.coach.Reviewing`). A play the hint's judgment of its position
weighed is not weighed again for the review: the review takes that judgment, the very one it
would make (:func:`tutor.play.coach.decision_steps`). Asked for either, it gives what the coach
gives when asked (the same judgment, the same review), finishing what is not weighed yet.

>>> from tutor.play.strategy import computer_hand
>>> from tutor.rules.phase import Phase
>>> game, bots = computer_hand(3, Phase.PLAYING, tricks=2, turn=0)
>>> ahead = Ahead(game, 0, seed=3)
>>> while ahead.step(to_play=True):
...     pass
>>> from tutor.play.coach import judge
>>> ahead.judged().values == judge(game.view(0), seed=3).values
True
"""

from __future__ import annotations

from tutor.play.coach import Decision, Reviewing, judge_steps
from tutor.play.search import Found, Steps, finished
from tutor.rules.game import Game


class Ahead:
    """What the coach weighs ahead for ``seat`` in ``game`` (which goes on meanwhile): the
    judgment of the position the seat is to play in, and its plays for the review, the hand
    seeded by ``seed`` (as :func:`tutor.play.coach.judge` and :func:`tutor.play.coach.review`)."""

    def __init__(self, game: Game, seat: int, *, seed: int = 0) -> None:
        self.game, self.seat, self.seed = game, seat, seed
        self._judgments: dict[int, Found] = {}  # by the game's length then: the positions judged
        self._reviewing = Reviewing(game, seat, seed=seed, judged=self._judgments.get)
        self._judging: tuple[int, Steps[Found]] | None = None  # the game's length then, and the steps

    def step(self, *, to_play: bool) -> bool:
        """Weigh one layout: of the position the seat is to play in now (``to_play``: the
        seat's turn in the playing phase), else of a play it made, for the review. False when
        nothing is left to weigh."""
        at = len(self.game.history)
        if to_play and at not in self._judgments:
            if self._judging is None or self._judging[0] != at:
                self._judging = (at, judge_steps(self.game.view(self.seat), self.game.rules, seed=self.seed))
            try:
                next(self._judging[1])
            except StopIteration as done:
                self._judgments[at], self._judging = done.value, None
            return True
        return self._reviewing.step()

    def judged(self) -> Found | None:
        """The judgment of the position the seat is to play in now, the rest of it weighed now;
        None if it was not begun (the coach then weighs it as usual)."""
        at = len(self.game.history)
        if self._judging is not None and self._judging[0] == at:
            self._judgments[at], self._judging = finished(self._judging[1]), None
        return self._judgments.get(at)

    def keep(self, judged: Found) -> None:
        """Keep ``judged``, the coach's judgment of the position the seat is to play in now
        (:func:`tutor.play.coach.judge`'s, with the hand's seed: a hint asked for), for the review."""
        at = len(self.game.history)
        if self._judging is not None and self._judging[0] == at:
            self._judging = None
        self._judgments[at] = judged

    def review(self) -> tuple[Decision, ...]:
        """The review of the seat's plays (:func:`tutor.play.coach.review`), the rest weighed now."""
        return finished(self._reviewing.steps())

    @property
    def reviewed(self) -> bool:
        """True if every play the seat made so far is weighed for the review."""
        return self._reviewing.weighed == len(self.game.history)


__all__ = ["Ahead"]
