"""The coach's drills take a search of a second or more to make: a page does not wait for it
while it opens. The drill is made at the page's first sync (the page is up), and says until
then that it is being prepared; every other kind is made at once."""

from __future__ import annotations

import time

from tutor.teach.drills import generate
from widgets.drill import DrillPlayer


def test_a_coach_drill_is_made_once_the_page_is_up() -> None:
    started = time.process_time()
    player = DrillPlayer("advice", seed=1, level=1, lang="zh-Hans")
    made_in = time.process_time() - started
    assert player.drill is None and player.state["pending"] and player.state["advice"]
    assert "教练" in player.labels["busy_first"]
    sent: list[object] = []
    player.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]
    player._on_message(player, {"type": "sync", "progress": None, "request": 3}, None)
    assert player.drill == generate("advice", 1, 1, "zh-Hans")  # the link's drill, as before
    assert "pending" not in player.state and player.state["question"]
    assert sent == [{"type": "busy", "request": 3}]  # the page is told the sync is slow work
    assert player.handled["request"] == 3 and not player.handled["ignored"]
    # Made at once it takes a search; waiting, the constructor takes none.
    started = time.process_time()
    generate("advice", 1, 1, "zh-Hans")
    assert made_in < (time.process_time() - started) / 5


def test_a_coach_drill_waits_for_stored_progress() -> None:
    """Without a link's seed, the drill is the one the stored progress chooses: made once."""
    player = DrillPlayer("advice", lang="en")
    assert player.drill is None
    player.sync(None)
    assert player.drill is not None and player.drill.kind == "advice"
    first = player.drill
    player.sync(None)  # a second sync makes nothing new
    assert player.drill is first


def test_other_drills_are_made_at_once() -> None:
    player = DrillPlayer("follow", seed=4, level=2, lang="en")
    assert player.drill == generate("follow", 4, 2, "en") and "pending" not in player.state


def test_actions_before_the_drill_is_made_do_nothing() -> None:
    player = DrillPlayer("advice", seed=0, level=1, lang="en")
    before = dict(player.state)
    player._on_message(player, {"type": "check", "answer": "a", "check_id": 1}, None)
    player._on_message(player, {"type": "hint"}, None)
    assert player.drill is None and player.state == before and player.hints == []
