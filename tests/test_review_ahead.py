"""The table weighs the coach's hint and review while the learner thinks.

In the browser (the static site, :attr:`widgets.table.Table.weigh_ahead`) the table
weighs one layout at a time between the page's requests, through the event loop: the
position the learner is to play in, then the plays made (:class:`tutor.play.ahead.Ahead`);
on a server, the plays made once the hand is over (:attr:`widgets.table.Table.weigh_after_hand`).
"What would you play?" and, when the hand ends, "Review my play" are then ready, and they
are the very hint and review the coach gives when asked (:func:`tutor.play.coach.advise`,
:func:`tutor.play.coach.review`). Here an
asyncio loop stands for the page's: the learner's requests come in turn, and the loop runs
between them.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

import tutor.play.coach as coach_module
from tutor.play.coach import Decision, advise, review
from tutor.play.strategy import ComputerPlayer
from tutor.rules.actions import Bury, Call, Play, Solo
from tutor.rules.phase import Phase
from tutor.teach import coaching
from widgets.table import Table

SEED = 5


def _run(main: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """``main()`` run to its end in an event loop of its own, on a thread of its own (the
    browser tests' Playwright keeps a loop running on this one)."""
    done: list[Any] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(asyncio.run(main()))
        except BaseException as error:  # noqa: BLE001 - raised again on the test's thread
            failed.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return done[0]


def _said(decisions: tuple[Decision, ...]) -> list[Any]:
    return [(d.index, d.played, d.cost, d.error, d.found.values) for d in decisions]


def _counting_searches(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Each search the coach starts from now on (until ``monkeypatch.undo()``), by what it included."""
    real = coach_module.search_steps
    searched: list[object] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        searched.append(kwargs.get("include"))
        return real(*args, **kwargs)

    monkeypatch.setattr(coach_module, "search_steps", counted)
    return searched


async def _weighed(table: Table) -> None:
    """The loop runs (the learner reads the score) until the review is weighed."""
    for _ in range(2000):
        if table.review_ready:
            break
        await asyncio.sleep(0)
    assert table.review_ready and table.review_weighed  # the page's data-review-weighed


def _not_judged(table: Table, decisions: tuple[Decision, ...]) -> tuple[int, int]:
    """How many positions the table kept a hint's judgment of, and how many of ``decisions``
    are of a play none of those weighed."""
    assert table.session.desk(0).ahead is not None
    judged = table.session.desk(0).ahead._judgments
    return len(judged), sum(1 for d in decisions if judged.get(d.index) is None or
                            judged[d.index].value_of(d.played) is None)


async def _play_hand(table: Table, *, think: int, on_turn: Callable[[Table], None] | None = None) -> None:
    """The learner (seat 0) plays the computer player's choices through the table's own
    methods, the loop running ``think`` times before each (the learner thinking), and
    ``on_turn`` called then."""
    learner = ComputerPlayer(0, SEED)
    for _ in range(500):
        waiting = table.run()
        if waiting == "done":
            return
        if waiting == "declare":
            table.pass_declaration()
            continue
        for _ in range(think):
            await asyncio.sleep(0)
        if on_turn is not None:
            on_turn(table)
        action = learner.act(table.game.view(0))
        if isinstance(action, Play):
            table.play(list(action.cards))
        elif isinstance(action, Bury):
            table.bury(list(action.cards))
        elif isinstance(action, Call):
            table.call(action.card)
        elif isinstance(action, Solo):
            table.go_solo()
    raise AssertionError("the hand did not finish")


def test_the_review_is_weighed_while_the_learner_thinks_and_is_the_coachs(monkeypatch: pytest.MonkeyPatch) -> None:
    async def main() -> tuple[Decision, ...]:
        table = Table(SEED, pause_ms=0, deal_ms=0)
        table.weigh_ahead = True
        await _play_hand(table, think=100)  # the position weighed for the hint, then the play before for the review
        for _ in range(100):
            await asyncio.sleep(0)
        assert table.review_ready and table.review_weighed  # the page's data-review-weighed
        searched: list[object] = []
        real = coach_module.search_steps

        def counted(*args: Any, **kwargs: Any) -> Any:
            searched.append(args)
            return real(*args, **kwargs)

        monkeypatch.setattr(coach_module, "search_steps", counted)
        start = time.process_time()
        decisions = table.review_play()
        print(f"review shown after the hand: {1000 * (time.process_time() - start):.0f} ms of CPU")
        assert not searched, "the review weighed plays again when it was asked for"
        assert table.state["coach"]
        monkeypatch.undo()
        assert _said(decisions) == _said(review(table.game, 0, seed=table.game.seed))
        return decisions

    decisions = _run(main)
    assert len(decisions) > 5


def test_a_play_the_hint_weighed_is_not_weighed_again_for_the_review(monkeypatch: pytest.MonkeyPatch) -> None:
    """The static table weighs each position for the hint, then each play for the review: a
    play its position's judgment weighed takes that judgment, with no search of its own."""
    async def main() -> tuple[Table, tuple[Decision, ...], list[object]]:
        table = Table(SEED, pause_ms=0, deal_ms=0)
        table.weigh_ahead = True
        searched = _counting_searches(monkeypatch)  # the whole hand's
        await _play_hand(table, think=100)
        await _weighed(table)
        return table, table.review_play(), searched

    table, decisions, searched = _run(main)
    monkeypatch.undo()
    judged, new = _not_judged(table, decisions)
    assert len(decisions) > 5 and new < len(decisions) / 2
    assert len(searched) <= judged + new, (len(searched), judged, new)  # without: a search for each, twice
    assert _said(decisions) == _said(review(table.game, 0, seed=table.game.seed))


def test_a_review_asked_before_every_play_is_weighed_finishes_the_rest() -> None:
    async def main() -> None:
        table = Table(SEED, pause_ms=0, deal_ms=0)
        table.weigh_ahead = True
        await _play_hand(table, think=3)  # a hurried learner: most plays are not weighed yet
        assert not table.review_ready
        decisions = table.review_play()
        assert _said(decisions) == _said(review(table.game, 0, seed=table.game.seed))
        assert table.review_ready

    _run(main)


def test_on_a_server_the_review_is_weighed_once_the_hand_is_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """A served table (many learners to one machine) weighs nothing while the hand is played
    — a hint is weighed when asked — and the learner's plays for the review once the hand is
    over, while the score shows: "Review my play" then runs no search, and is the coach's."""
    checked: list[int] = []

    def nothing_yet(table: Table) -> None:
        if table.game.phase is Phase.PLAYING:
            assert table.session.desk(0).ahead is None and not table.weighing, "weighed while the hand is played"
            checked.append(1)

    async def main() -> tuple[Decision, ...]:
        table = Table(SEED, pause_ms=0, deal_ms=0)
        assert not table.weigh_ahead and table.weigh_after_hand  # CPython: the served table
        await _play_hand(table, think=60, on_turn=nothing_yet)
        assert table.game.phase is Phase.FINISHED and not table.review_ready
        await _weighed(table)
        monkeypatch.setattr(coach_module, "search_steps", _refused)  # weighed: the review searches no more
        decisions = table.review_play()
        monkeypatch.undo()
        assert _said(decisions) == _said(review(table.game, 0, seed=table.game.seed))
        return decisions

    assert _run(main) and len(checked) >= 10


def test_on_a_server_a_hint_asked_for_is_not_weighed_again_for_the_review(monkeypatch: pytest.MonkeyPatch) -> None:
    """A served table weighs "What would you play?" when asked, and keeps that judgment: once
    the hand is over, a play it weighed is not weighed again for the review."""
    def ask(table: Table) -> None:
        if table.game.phase is Phase.PLAYING:
            table.hint()
            assert not table.weighing, "weighed while the hand is played"

    async def main() -> tuple[Table, tuple[Decision, ...], list[object]]:
        table = Table(SEED, pause_ms=0, deal_ms=0)
        await _play_hand(table, think=3, on_turn=ask)
        searched = _counting_searches(monkeypatch)  # once the hand is over
        await _weighed(table)
        return table, table.review_play(), searched

    table, decisions, searched = _run(main)
    monkeypatch.undo()
    judged, new = _not_judged(table, decisions)
    assert len(decisions) > 5 and judged >= len(decisions) and new < len(decisions) / 2
    assert len(searched) <= new, (len(searched), new)
    assert _said(decisions) == _said(review(table.game, 0, seed=table.game.seed))


def test_a_table_told_not_to_weighs_nothing_before_it_is_asked_for() -> None:
    """A shared hand's seat (the server weighs its review itself) weighs nothing ahead."""
    async def main() -> None:
        table = Table(SEED, pause_ms=0, deal_ms=0)
        table.weigh_after_hand = False
        await _play_hand(table, think=60)
        for _ in range(200):
            await asyncio.sleep(0)
        assert not table.review_ready and not table.review_weighed
        assert table.review_play()
        assert table.review_weighed

    _run(main)


def test_the_hint_is_weighed_while_the_learner_thinks_and_is_the_coachs(monkeypatch: pytest.MonkeyPatch) -> None:
    """At each of the learner's plays, "What would you play?" answers from the judgment weighed
    meanwhile — no search when asked — and says what the coach says: with nothing picked, and
    with the cards of a play it weighed picked."""
    real = coach_module.search_steps
    asked: list[int] = []

    def hint(table: Table) -> None:
        if table.game.phase is not Phase.PLAYING:
            return
        view = table.game.view(0)
        monkeypatch.setattr(coach_module, "search_steps", _refused)
        table.hint()
        monkeypatch.setattr(coach_module, "search_steps", real)
        said = " ".join(table.tr(line) for line in coaching.advice(advise(view, table.rules, seed=table.game.seed)))
        assert table.hint_text == said
        ahead = table.session.desk(0).ahead
        assert ahead is not None and ahead.judged() is not None
        picked = ahead.judged().values[-1].play  # the learner's cards picked: a play the hint weighed
        table.selected = table.positions_of(picked)
        monkeypatch.setattr(coach_module, "search_steps", _refused)
        table.hint()
        monkeypatch.setattr(coach_module, "search_steps", real)
        advice = advise(view, table.rules, seed=table.game.seed, chosen=picked)
        assert table.hint_text == " ".join(table.tr(line) for line in coaching.advice(advice))
        table.selected = []
        asked.append(1)

    async def main() -> None:
        table = Table(SEED, pause_ms=0, deal_ms=0)
        table.weigh_ahead = True
        await _play_hand(table, think=60, on_turn=hint)

    _run(main)
    assert len(asked) >= 10


def _refused(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("the hint searched when it was asked for")
