"""Learn from your mistakes at the table (issue 27, item 4), driven through the messages the
page sends: after the coach's review, the same deal (the same hidden cards) replayed to each
costly decision in the order it was made; a try within the coach's margin of the best is
accepted, a costly one is not, an illegal one gets the rules' refusal; "show the answer",
"skip", then the next and a summary. Also the same deal again from any trick, and who is
likely the friend (item 7), on request. Every new message is checked as the page may tamper
with it: a clear note or nothing, never a traceback."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("anywidget")

from tutor.play.search import candidate_plays
from tutor.play.strategy import ComputerPlayer
from tutor.rules.cards import PACK
from tutor.rules.game import Bury, Call, Phase
from widgets.table import Table

from test_table import send


def careless_hand(seed: int, **kwargs: Any) -> Table:
    """A finished hand at the table in which the learner (seat 0) plays a random one of the
    plays the coach weighs (the computer player's choice elsewhere): some of them costly."""
    table = Table(seed, pause_ms=0, deal_ms=0, stop_to_declare=False, **kwargs)
    rng = random.Random(seed)
    player = ComputerPlayer(0, seed, table.rules)
    while table.run() != "done":
        view = table.game.view(0)
        if view.phase is Phase.PLAYING:
            refused = table.play(rng.choice(candidate_plays(view, table.rules, rng=rng)))
        else:
            action = player.act(view)
            refused = table.bury(action.cards) if isinstance(action, Bury) else table.call(action.card) \
                if isinstance(action, Call) else table.go_solo()
        assert not refused, refused
    return table


SEED = 5
"""A careless hand with four costly plays (checked below)."""


def texts(cards: Any) -> list[str]:
    return [str(card) for card in cards]


def try_play(table: Table, cards: Any) -> None:
    """The learner picks ``cards`` and presses Play, as the page sends it."""
    send(table, {"type": "act", "verb": "play", "cards": texts(cards), "selected": table.positions_of(list(cards)),
                 "version": table.state["version"], "request": 1})


@pytest.fixture()
def reviewed() -> Table:
    table = careless_hand(SEED)
    send(table, {"type": "coach_review"})
    return table


def test_the_mistakes_are_tried_again_on_the_same_deal(reviewed: Table) -> None:
    table = reviewed
    finished = table.game
    costly = sorted((d for d in table.coach_review or () if d.costly), key=lambda d: d.index)
    assert table.state["coach"]["costly"] == len(costly) >= 3
    send(table, {"type": "mistakes", "version": table.state["version"]})
    mistakes = table.state["mistakes"]
    assert (mistakes["number"], mistakes["count"], mistakes["status"]) == (1, len(costly), "trying")
    assert "advice, not rules" in mistakes["text"] and str(costly[0].played[0]) in mistakes["text"]
    # The same deal: the same hidden cards, the history up to the decision.
    first = costly[0]
    assert table.game.deck == finished.deck and table.game.history == finished.history[:first.index]
    assert table.waiting == "learner" and table.state["can"]["play"] and not table.state["can"]["hint"]
    assert table.game.view(0) == first.view

    # The same costly play again: not accepted (the review's criterion), the learner may try again.
    try_play(table, first.played)
    assert table.state["mistakes"]["status"] == "trying"
    said = table.state["mistakes"]["said"]
    assert said[0].startswith("Advice, not a rule:") and "still costs about" in said[0]
    assert f"{first.cost:.1f}" in said[0]
    # An illegal try: the rules' refusal, with its rule, and nothing else changes.
    outside = next(card for card in PACK if card not in table.game.hand(0))
    before = table.state["version"]
    try_play(table, [outside])
    assert table.feedback["kind"] == "refused" and table.feedback["rule"] == "W0"
    assert table.state["version"] == before and table.state["mistakes"]["status"] == "trying"
    # The coach's best: accepted; the hand does not go on.
    try_play(table, first.found.best.play)
    assert table.state["mistakes"]["status"] == "found" and not table.state["can"]["play"]
    assert "well found" in table.state["mistakes"]["said"][0]
    assert table.game.history == finished.history[:first.index]
    send(table, {"type": "retry_skip"})  # skip is for a mistake still being tried: ignored now
    assert table.state["mistakes"]["number"] == 1
    send(table, {"type": "retry_next"})
    assert table.state["mistakes"]["number"] == 2

    # Show the answer: the coach's best, its words and numbers, its cards picked; marked helped.
    second = costly[1]
    assert table.game.history == finished.history[:second.index]
    send(table, {"type": "retry_answer"})
    mistakes = table.state["mistakes"]
    assert mistakes["status"] == "shown" and "the coach's answer is" in mistakes["said"][0]
    assert sorted(table.order[i] for i in table.selected) == sorted(second.found.best.play)
    try_play(table, second.found.best.play)  # shown: nothing to try now
    assert table.state["mistakes"]["status"] == "shown"
    send(table, {"type": "retry_next"})
    for _ in costly[2:]:
        send(table, {"type": "retry_skip"})
    # The end: back to the reviewed hand, with the summary.
    assert "mistakes" not in table.state and table.game.phase is Phase.FINISHED
    assert table.game.history == finished.history and table.state["score"]
    summary = table.state["coach"]["summary"]
    assert summary.startswith("Learn from your mistakes (advice, not rules): you found a good play yourself in 1 of "
                              f"{len(costly)} positions; the answer was shown in 1, and {len(costly) - 2} skipped.")


def test_leaving_and_the_other_ways_out(reviewed: Table) -> None:
    table = reviewed
    send(table, {"type": "mistakes"})
    send(table, {"type": "retry_leave"})
    assert "mistakes" not in table.state and table.game.phase is Phase.FINISHED
    assert "0 of" in table.state["coach"]["summary"]
    send(table, {"type": "mistakes"})
    assert table.state["mistakes"]["number"] == 1
    send(table, {"type": "restart"})  # the same deal from the start: the lesson is over
    assert "mistakes" not in table.state and table.game.phase is Phase.DEALING


def test_no_costly_play_no_lesson() -> None:
    from test_table import SEED as HINTED, play_out

    table = Table(HINTED, pause_ms=0, deal_ms=0)
    play_out(table)  # every play as the hint advised
    send(table, {"type": "mistakes"})
    assert "mistakes" not in table.state and table.state["coach"]["costly"] == 0
    assert table.feedback["kind"] == "note" and "no costly play" in table.feedback["reason"]
    unfinished = Table(HINTED, pause_ms=0, deal_ms=0)
    send(unfinished, {"type": "mistakes"})
    assert "mistakes" not in unfinished.state and unfinished.feedback["kind"] == "note"


def test_the_deal_again_from_any_trick(reviewed: Table) -> None:
    table = reviewed
    finished = table.game
    tricks = finished.tricks
    for n in (1, 4, len(tricks)):
        send(table, {"type": "replay", "trick": n})
        game = table.game
        assert game.deck == finished.deck and game.phase is Phase.PLAYING
        assert len(game.tricks) == n - 1 and not game.trick
        assert game.history == finished.history[:len(game.history)]
        assert table.session.desk(0).log[0] == f"Playing the deal again from trick {n}."
        assert table.run() == "learner"  # the computer players play on, the learner in the same seat
        table = careless_hand(SEED)
        finished = table.game


def test_who_is_the_friend_on_request() -> None:
    table = careless_hand(2)  # seat 0 an attacker until the friend is revealed
    game = table.game
    replay = Table(2, pause_ms=0, deal_ms=0, stop_to_declare=False)
    while replay.game.phase is not Phase.PLAYING or replay.waiting != "learner":
        if replay.waiting == "learner":
            replay.game.apply(game.history[len(replay.game.history)])
            replay._publish()
        else:
            replay.step()
    view = replay.game.view(0)
    assert view.friend is None and view.friend_card is not None and not view.solo
    assert replay.state["can"]["friend_odds"]
    send(replay, {"type": "friend_odds", "request": 3})
    said = replay.hint_text
    assert said.startswith("Advice, not a rule: the friend is") and "(F2)" in said
    assert f"Each seat's chance of holding the other {view.friend_card}:" in said
    assert "Seat 0" not in said and f"Seat {view.declarer} " not in said
    assert replay.handled["request"] == 3 and not replay.handled["ignored"]
    finished = careless_hand(2)
    assert not finished.state["can"]["friend_odds"]
    send(finished, {"type": "friend_odds"})
    assert finished.hint_text == ""


HOSTILE = [None, True, False, -1, 0, 1.5, "1", "x" * 100_000, [], [1] * 100_000, {}, {"a": 1}, 2**70, float("nan"),
           "\ud800"]


@pytest.mark.parametrize("kind", ["mistakes", "retry_answer", "retry_skip", "retry_next", "retry_leave", "replay",
                                  "friend_odds"])
def test_tampered_messages_give_a_note_or_nothing(reviewed: Table, kind: str) -> None:
    table = reviewed
    for value in HOSTILE:
        for content in ({"type": kind, "trick": value}, {"type": kind, "version": value, "request": value},
                        {"type": kind, "trick": value, "cards": value, "selected": value}):
            send(table, content)  # never an exception
    if kind == "replay":
        history = len(table.game.history)
        for value in (0, -1, 10_000, 2**60, True, "3", None, 3.0):
            send(table, {"type": "replay", "trick": value})
            assert len(table.game.history) == history and table.game.phase is Phase.FINISHED
            assert table.feedback["kind"] == "refused" and "no" in table.feedback["reason"]
    # While a mistake is tried: junk tries are refused or ignored, and the lesson goes on.
    fresh = careless_hand(SEED)
    send(fresh, {"type": "mistakes"})
    for value in HOSTILE:
        send(fresh, {"type": "act", "verb": "play", "cards": value, "selected": value})
        assert fresh.state["mistakes"]["status"] == "trying"
    for cards in (["♠A"] * 3, ["BJ"] * 41, ["X"], [""], ["♠" * 8]):
        send(fresh, {"type": "act", "verb": "play", "cards": cards, "selected": []})
        assert fresh.feedback["kind"] == "refused" and fresh.feedback["rule"]
        assert fresh.state["mistakes"]["status"] == "trying"
