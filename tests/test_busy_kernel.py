"""Work under way, from the kernel's side: every request the page sends is answered
(``handled``) in the same update as what it changed — done, ignored or failed — and a
repeated action (a second click, sent before the first one's answer was drawn) does no
second piece of work. The page's side (busy buttons, the greyed drill) is
tests/browser/test_busy.py."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("anywidget")

import tutor.teach.drill_state as state_module  # noqa: E402
import tutor.teach.table_session as table_module  # noqa: E402
from tutor.teach.drills import AnswerKind, generate  # noqa: E402
from tutor.core.i18n import Translator  # noqa: E402
from widgets._common import FAILED, utc_now  # noqa: E402
from widgets.drill import DrillPlayer  # noqa: E402
from widgets.table import Table  # noqa: E402

KIND = "follow"


def _seed() -> int:
    """A follow drill answered with cards, with more than one hint (asked of tutor)."""
    return next(s for s in range(80)
                if (d := generate(KIND, s, 1)).answer is AnswerKind.CARDS and len(d.hints) >= 2)


SEED = _seed()


class Page:
    """A widget as its page sees it: what the kernel sends is kept, one entry per message."""

    def __init__(self, widget: Any) -> None:
        self.widget = widget
        self.sent: list[dict[str, Any]] = []
        widget._send = lambda msg, buffers=None: self.sent.append(msg)

    def send(self, content: dict[str, Any]) -> None:
        """Deliver ``content`` as the page's ``model.send(content)`` does."""
        self.sent.clear()
        self.widget._handle_custom_msg(content, [])

    def updates(self) -> list[dict[str, Any]]:
        """The state updates sent for the last message (trait name → value)."""
        return [m["state"] for m in self.sent if m.get("method") == "update"]

    def customs(self) -> list[dict[str, Any]]:
        return [m["content"] for m in self.sent if m.get("method") == "custom"]


@pytest.fixture()
def player() -> Iterator[DrillPlayer]:
    widget = DrillPlayer(KIND, seed=SEED, level=1)
    yield widget
    widget.close()


def _right(player: DrillPlayer) -> list[str]:
    assert player.drill is not None
    held = [str(c) for c in player.drill.trump.sorted(player.drill.hand)]
    for size in range(1, len(held) + 1):
        for start in range(len(held) - size + 1):
            if player.drill.check(held[start:start + size]).correct:
                return held[start:start + size]
    raise AssertionError("no right answer found")


def _counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[int]:
    """Count the calls of ``module.name`` (the kernel's work), calling it through."""
    calls: list[int] = []
    original: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


# ------------------------------------------------------------------ the drill player


def test_a_request_is_answered_with_what_it_changed(player: DrillPlayer) -> None:
    page = Page(player)
    token = player.state["token"]
    page.send({"type": "check", "check_id": 1, "answer": _right(player), "selected": [], "token": token,
               "request": 41})
    assert player.feedback["correct"]
    page.send({"type": "next", "token": token, "request": 42})
    assert player.state["token"] != token
    updates = page.updates()
    assert len(updates) == 1, updates  # the new drill and the answer in one update: no gap between them
    assert updates[0]["handled"] == {"request": 42, "type": "next", "ignored": False, "work": 2}
    assert "state" in updates[0]


def test_a_second_next_from_the_same_drill_makes_no_second_drill(player: DrillPlayer,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    made = _counting(monkeypatch, state_module, "generate")
    page = Page(player)
    token = player.state["token"]
    page.send({"type": "check", "check_id": 1, "answer": _right(player), "selected": [], "token": token})
    page.send({"type": "next", "token": token, "request": 1})
    after = player.state
    page.send({"type": "next", "token": token, "request": 2})  # the second click, queued behind the first
    assert len(made) == 1 and player.state == after
    assert page.updates() == [{"handled": {"request": 2, "type": "next", "ignored": True, "work": 1}}]


def test_a_level_for_a_drill_no_longer_shown_is_ignored(player: DrillPlayer) -> None:
    page = Page(player)
    token = player.state["token"]
    page.send({"type": "level", "level": 2, "token": token, "request": 1})
    assert player.level == 2 and player.state["token"] != token
    page.send({"type": "level", "level": 3, "token": token, "request": 2})
    assert player.level == 2 and player.handled["ignored"] is True


def test_a_second_hint_click_gives_one_hint(player: DrillPlayer) -> None:
    page = Page(player)
    token = player.state["token"]
    page.send({"type": "hint", "token": token, "shown": 0, "request": 1})
    page.send({"type": "hint", "token": token, "shown": 0, "request": 2})
    assert player.drill is not None and player.hints == [player.drill.hints[0]]
    assert player.handled == {"request": 2, "type": "hint", "ignored": True, "work": 1}
    page.send({"type": "hint", "token": token, "shown": 1, "request": 3})  # the next one, asked for
    assert len(player.hints) == 2


def test_an_answer_to_a_drill_no_longer_shown_is_not_judged(player: DrillPlayer) -> None:
    token = player.state["token"]
    page = Page(player)
    page.send({"type": "check", "check_id": 1, "answer": _right(player), "selected": [], "token": token})
    page.send({"type": "next", "token": token})
    recorded = player.progress
    page.send({"type": "check", "check_id": 2, "answer": ["♠A"], "selected": [], "token": token, "request": 7})
    assert player.feedback == {} and player.progress == recorded
    assert player.handled == {"request": 7, "type": "check", "ignored": True, "work": 0}


def test_messages_without_request_or_token_work_as_before(player: DrillPlayer) -> None:
    page = Page(player)
    token = player.state["token"]
    page.send({"type": "hint"})
    page.send({"type": "hint"})
    assert len(player.hints) == 2
    page.send({"type": "next"})
    assert player.state["token"] != token and player.handled == {}


def test_an_action_arriving_while_the_same_is_under_way_is_ignored(player: DrillPlayer,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Were the kernel to take a message while one is being handled (a re-entrant
    handler), a repeat of the same action does nothing."""
    made = _counting(monkeypatch, state_module, "generate")
    page = Page(player)
    original = DrillPlayer.next
    inner: list[dict[str, Any]] = []

    def next_again(self: DrillPlayer) -> None:
        self._handle_custom_msg({"type": "next", "request": 2}, [])
        inner.append(dict(self.handled))
        original(self)

    monkeypatch.setattr(DrillPlayer, "next", next_again)
    page.send({"type": "next", "request": 1})
    assert len(made) == 1
    assert inner == [{"request": 2, "type": "next", "ignored": True, "work": 0}]
    assert player.handled == {"request": 1, "type": "next", "ignored": False, "work": 1}


def test_a_failure_ends_the_wait_says_so_and_keeps_progress(player: DrillPlayer,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    page = Page(player)
    token = player.state["token"]
    page.send({"type": "check", "check_id": 1, "answer": _right(player), "selected": [], "token": token})
    progress, state, stats = player.progress, player.state, player.stats

    def broken(self: state_module.DrillState, clock: Any) -> Any:
        raise RuntimeError("the kernel broke")

    monkeypatch.setattr(state_module.DrillState, "upcoming", broken)
    page.send({"type": "next", "token": token, "request": 9})
    assert player.handled == {"request": 9, "type": "next", "ignored": False, "work": 0}  # not counted as done
    assert player.progress_note == Translator("en")(FAILED)
    assert player.progress == progress and player.state == state and player.stats == stats
    updates = page.updates()
    assert len(updates) == 1 and {"handled", "progress_note"} <= set(updates[0])  # said together
    assert "kernel broke" not in str(page.sent)
    monkeypatch.undo()
    page.send({"type": "next", "token": token, "request": 10})  # the learner tries again: it works
    assert player.state["token"] != token and player.handled["work"] == 1


def test_the_first_sync_that_makes_a_new_drill_says_so_first() -> None:
    player = DrillPlayer(KIND, level=1)  # no link seed: stored progress chooses the drill
    page = Page(player)
    stored = player.progress.record(KIND, 3, 1, True, utc_now()).to_json()
    page.send({"type": "sync", "progress": stored, "request": 5})
    assert page.sent[0] == {"method": "custom", "content": {"type": "busy", "request": 5}}  # before the new drill
    assert player.handled["request"] == 5 and player.synced
    page.send({"type": "sync", "progress": stored, "request": 6})  # not the first: nothing said
    assert page.customs() == []
    player.close()


# ------------------------------------------------------------------ the table


@pytest.fixture()
def table() -> Iterator[Table]:
    widget = Table(seed=5, pause_ms=0, deal_ms=0, stop_to_declare=False)
    assert widget.run() == "learner"
    yield widget
    widget.close()


def test_a_second_hint_click_starts_no_second_search(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    searches = _counting(monkeypatch, table_module.coach, "advise")
    page = Page(table)
    version = table.state["version"]
    page.send({"type": "hint", "version": version, "selected": [], "request": 1})
    hint = table.hint_text
    assert hint and len(searches) == 1
    update = page.updates()
    assert len(update) == 1 and update[0]["handled"] == {"request": 1, "type": "hint", "ignored": False, "work": 1}
    page.send({"type": "hint", "version": version, "selected": [], "request": 2})  # the second click
    assert len(searches) == 1 and table.hint_text == hint
    assert table.handled == {"request": 2, "type": "hint", "ignored": True, "work": 1}
    page.send({"type": "hint", "version": version, "selected": [0], "request": 3})  # other cards picked: weighed
    assert len(searches) == 2


def test_a_second_play_click_is_ignored_not_refused(table: Table) -> None:
    page = Page(table)
    page.send({"type": "hint"})
    version, picked = table.state["version"], list(table.selected)
    cards = [table.hand[i]["text"] for i in picked]
    verb = "bury" if table.state["can"]["bury"] else "call" if table.state["can"]["call"] else "play"
    act = {"type": "act", "verb": verb, "cards": cards, "selected": picked, "version": version}
    history = len(table.game.history)
    page.send({**act, "request": 1})
    assert len(table.game.history) == history + 1 and table.feedback == {}
    page.send({**act, "request": 2})
    assert len(table.game.history) == history + 1
    assert table.feedback == {} and table.handled["ignored"] is True  # no "not your turn" for a double click


def test_a_refused_action_may_be_made_again_at_once(table: Table) -> None:
    page = Page(table)
    version = table.state["version"]
    history = len(table.game.history)
    page.send({"type": "act", "verb": "play", "cards": ["BJ", "BJ", "BJ"], "selected": [], "version": version,
               "request": 1})
    assert table.feedback.get("kind") == "refused"
    page.send({"type": "hint"})
    picked = list(table.selected)
    verb = "bury" if table.state["can"]["bury"] else "call" if table.state["can"]["call"] else "play"
    page.send({"type": "act", "verb": verb, "cards": [table.hand[i]["text"] for i in picked], "selected": picked,
               "version": version, "request": 2})
    assert table.handled["ignored"] is False and len(table.game.history) == history + 1


def test_a_table_failure_ends_the_wait(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    page = Page(table)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the coach broke")

    monkeypatch.setattr(table_module.coach, "advise", broken)
    page.send({"type": "hint", "version": table.state["version"], "selected": [], "request": 4})
    assert table.handled == {"request": 4, "type": "hint", "ignored": False, "work": 0}
    assert table.feedback["kind"] == "error" and table.feedback["reason"] == Translator("en")(FAILED)
    assert "coach broke" not in str(page.sent)
    updates = page.updates()
    assert len(updates) == 1 and {"handled", "feedback"} <= set(updates[0])


def test_a_second_review_click_does_no_second_review(monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(seed=5, pause_ms=0, deal_ms=0, stop_to_declare=False)
    while table.run() != "done":
        table.hint()
        can = table.state["can"]
        cards = " ".join(table.hand[i]["text"] for i in table.selected)
        if can["bury"]:
            table.bury(cards)
        elif can["call"] and cards:
            table.call(cards)
        elif can["call"]:
            table.go_solo()
        else:
            table.play(cards)
    # the review: the coach's, or the rest of what was weighed for it (the hints asked, kept)
    reviews = _counting(monkeypatch, table_module.coach, "review")
    kept = _counting(monkeypatch, table_module.Ahead, "review")
    page = Page(table)
    page.send({"type": "coach_review", "request": 1})
    page.send({"type": "coach_review", "request": 2})
    assert len(reviews) + len(kept) == 1 and "coach" in table.state
    assert table.handled["request"] == 2
    table.close()
