"""The learner's own mistakes come back at the table (issue 27, item 5), driven through the
messages the page sends: the browser's stored positions arrive (``sync``), the coach's review
keeps each costly play (:meth:`tutor.teach.mistakes.Mistakes.keep`) and the table sends back
what to store (``mistakes_json``), never losing what was stored; opened with
``review=mistakes``, the table replays the positions due, most overdue first, in the retry
mode, and reports each outcome (:meth:`tutor.teach.mistakes.Mistakes.answered`). A tampered
store gives a note, never a traceback, and nothing readable is lost."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest

pytest.importorskip("anywidget")

from tutor.core.errors import TutorError
from tutor.play.record import export_hand, import_hand
from tutor.rules.cards import format_cards
from tutor.rules.actions import Play
from tutor.rules.game import Game, Phase
from tutor.teach.drills.progress import utc
from tutor.teach.mistakes import MISTAKES_KEY, Kept, Mistakes, position_key
from widgets import link_params
from widgets.table import Table

from test_learn_from_mistakes import SEED, careless_hand, try_play
from test_table import send

START = utc(2025, 3, 1, 12)


class Clock:
    """The time now, as a test sets it."""

    def __init__(self, now: datetime = START) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def stored(table: Table) -> Mistakes:
    """What the page would store now (the table's ``mistakes_json``), read back."""
    positions, note = Mistakes.from_json(table.mistakes_json)
    assert note is None and table.mistakes_json
    return positions


def reviewed(clock: Callable[[], datetime], store: str | None = None, seed: int = SEED) -> Table:
    """A careless hand, the browser's store taken, then the coach's review."""
    table = careless_hand(seed, clock=clock)
    send(table, {"type": "sync", "mistakes": store})
    send(table, {"type": "coach_review", "request": 1})
    return table


@pytest.fixture(scope="module")
def hand() -> tuple[str, tuple[tuple[int, str], ...]]:
    """The careless hand's record and its costly plays (history index, cards), in the order made."""
    table = reviewed(Clock())
    costly = sorted((d for d in table.coach_review or () if d.costly), key=lambda d: d.index)
    assert len(costly) >= 3
    return export_hand(table.game), tuple((d.index, format_cards(d.played)) for d in costly)


def reviewing(store: Mistakes, clock: Clock) -> Table:
    """Lesson 10 opened with ``review=mistakes``: the stored positions arrive."""
    table = Table(3, pause_ms=0, deal_ms=0, review="mistakes", clock=clock)
    assert table.waiting == "store" and not table.synced
    send(table, {"type": "sync", "mistakes": store.to_json()})
    assert table.synced
    return table


# ------------------------------------------------------------------ keeping


def test_the_costly_plays_of_a_reviewed_hand_are_kept(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    record, costly = hand
    clock = Clock()
    table = reviewed(clock)
    assert table.mistakes_key == MISTAKES_KEY
    positions = stored(table)
    assert [(k.hand, k.seat, k.index, k.cards) for k in positions.kept] == [(record, 0, i, c) for i, c in costly]
    assert [k.key for k in positions.kept] == [position_key(record, i) for i, _ in costly]
    assert positions == Mistakes().keep(record, 0, list(costly), START)
    assert not positions.due(START) and len(positions.due(START + timedelta(hours=1))) == len(costly)
    assert table.state["coach"]["costly"] == len(costly)  # the review shows as before


def test_a_second_review_of_the_same_hand_keeps_nothing_twice(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    record, costly = hand
    clock = Clock()
    first = reviewed(clock)
    once = first.mistakes_json
    # The same hand again, a day later, opened from its file: the same positions, not again.
    clock.now = START + timedelta(days=1)
    again = Table(9, pause_ms=0, deal_ms=0, clock=clock)
    send(again, {"type": "sync", "mistakes": once})
    send(again, {"type": "import", "text": record})
    assert again.game.phase is Phase.FINISHED
    send(again, {"type": "coach_review"})
    assert again.state["coach"]["costly"] == len(costly)
    assert stored(again) == stored(first) and len(stored(again).kept) == len(costly)
    # Reviewing twice at one table changes nothing either.
    send(again, {"type": "coach_review"})
    assert stored(again) == stored(first)


def test_stored_positions_are_never_lost(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    record, costly = hand
    clock = Clock()
    other_hand = careless_hand(4)  # a hand with costly plays too
    send(other_hand, {"type": "coach_review"})
    other = Mistakes().keep(export_hand(other_hand.game), 0,
                            [(d.index, format_cards(d.played)) for d in other_hand.coach_review or () if d.costly][:2],
                            START - timedelta(days=3))
    assert len(other.kept) == 2
    # The review comes before the browser's store arrives: nothing is sent to store yet …
    table = careless_hand(SEED, clock=clock)
    send(table, {"type": "coach_review"})
    mine = table.positions.kept
    assert table.mistakes_json == "" and len(mine) == len(costly)
    # … and once it arrives, the page stores both: the stored first, then this table's.
    send(table, {"type": "sync", "mistakes": other.to_json()})
    assert stored(table).kept == other.kept + mine
    # Another tab stores its own (without this table's): taken, and both stored again.
    table.mistakes_json = ""
    send(table, {"type": "sync", "mistakes": other.to_json()})
    assert stored(table).kept == other.kept + mine
    # The same as stored: nothing new to store.
    table.mistakes_json = ""
    send(table, {"type": "sync", "mistakes": (other.kept and Mistakes(other.kept + mine)).to_json()})
    assert table.mistakes_json == ""
    # Nothing stored and nothing kept: nothing to store.
    quiet = Table(4, pause_ms=0, deal_ms=0, clock=clock)
    send(quiet, {"type": "sync", "mistakes": None})
    assert quiet.synced and quiet.mistakes_json == "" and quiet.waiting != "store"


# ------------------------------------------------------------------ coming back


def test_opened_to_review_the_due_positions_come_back_most_overdue_first(
        hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    record, costly = hand
    # The last costly play kept first: most overdue, it comes back first.
    store = Mistakes().keep(record, 0, [costly[-1]], START) \
        .keep(record, 0, list(costly[:-1]), START + timedelta(hours=1))
    clock = Clock(START + timedelta(days=1))
    table = Table(3, pause_ms=0, deal_ms=0, review="mistakes", clock=clock)
    # Until the stored positions arrive, the table waits: no card dealt, no hint.
    assert table.waiting == "store" and table.state["waiting"] == "store"
    assert "your own hands" in table.state["prompt"] and not table.state["can"]["hint"]
    history = len(table.game.history)
    send(table, {"type": "step", "version": table.state["version"]})
    assert table.step() is False and len(table.game.history) == history
    send(table, {"type": "sync", "mistakes": store.to_json()})

    due = store.due(clock.now)
    assert [k.index for k in due] == [costly[-1][0], *[i for i, _ in costly[:-1]]]
    whole = import_hand(record)
    first = due[0]
    mistakes = table.state["mistakes"]
    assert (mistakes["number"], mistakes["count"], mistakes["status"], mistakes["review"]) \
        == (1, len(due), "trying", True)
    assert "position 1 of" in mistakes["text"] and first.cards in mistakes["text"]
    assert table.game.deck == whole.deck and table.game.history == whole.history[:first.index]
    assert table.game.history == first.position().history
    assert table.waiting == "learner" and table.state["can"]["play"] and not table.state["can"]["hint"]
    assert table.mistakes_json == ""  # nothing answered yet: nothing new to store

    # The costly play again: not accepted, and the first try is the one that counts (Again,
    # as a drill's first answer); the coach's best then is found, but changes the store no more.
    decision = table.session.retrying.decision if table.session.retrying else None
    assert decision is not None and decision.costly and format_cards(decision.played) == first.cards
    try_play(table, decision.played)
    assert table.state["mistakes"]["status"] == "trying"
    assert stored(table) == store.answered(first.key, False, False, clock.now)
    try_play(table, decision.found.best.play)
    assert table.state["mistakes"]["status"] == "found"
    assert stored(table) == store.answered(first.key, False, False, clock.now)
    # Found at the first try: Good.
    table = reviewing(store, clock)
    try_play(table, decision.found.best.play)
    assert table.state["mistakes"]["status"] == "found"
    after = stored(table)
    assert after == store.answered(first.key, True, False, clock.now)
    assert first.key not in {k.key for k in after.due(clock.now)}  # rescheduled: not due now
    assert after.get(first.key) is not None and after.get(first.key).due > clock.now  # type: ignore[union-attr]

    # The next: a skip changes nothing; then the answer shown counts Again.
    send(table, {"type": "retry_next", "version": table.state["version"]})
    second = due[1]
    assert table.state["mistakes"]["number"] == 2 and table.game.history == whole.history[:second.index]
    send(table, {"type": "retry_skip"})
    assert stored(table) == after
    third = due[2]
    assert table.state["mistakes"]["number"] == 3 and table.game.history == whole.history[:third.index]
    send(table, {"type": "retry_answer"})
    assert table.state["mistakes"]["status"] == "shown"
    shown = stored(table)
    assert shown == after.answered(third.key, False, True, clock.now)
    assert shown.get(third.key).cleared == 0  # type: ignore[union-attr]  # Again: back to the start
    assert shown.get(third.key).due < shown.get(first.key).due  # type: ignore[union-attr]

    # Leaving: the review ends with what the learner did, and a new hand is dealt.
    send(table, {"type": "retry_leave", "version": table.state["version"]})
    assert "mistakes" not in table.state and table.waiting == "deal"
    assert table.feedback["kind"] == "note"
    assert f"you found a good play yourself in 1 of {len(due)} positions; the answer was shown in 1" \
        in table.feedback["reason"]
    assert stored(table) == shown
    assert table.run() in ("learner", "declare")  # a hand as usual


def test_every_due_position_in_turn_then_a_new_hand(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    record, costly = hand
    store = Mistakes().keep(record, 0, list(costly[:2]), START)
    clock = Clock(START + timedelta(days=1))
    table = reviewing(store, clock)
    send(table, {"type": "retry_skip"})
    assert table.state["mistakes"]["number"] == 2 and table.state["mistakes"]["last"]
    send(table, {"type": "retry_skip"})
    assert "mistakes" not in table.state and table.waiting == "deal"
    assert "0 of 2 positions" in table.feedback["reason"] and "2 skipped" in table.feedback["reason"]
    assert table.mistakes_json == ""  # skips change nothing


def test_nothing_due_is_said_and_a_hand_is_played(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    record, costly = hand
    clock = Clock()
    table = reviewing(Mistakes().keep(record, 0, list(costly), START), clock)  # kept just now: not due
    assert "mistakes" not in table.state and table.feedback["kind"] == "note"
    assert table.feedback["reason"].startswith("No positions from your own hands are due for review now.")
    assert table.waiting == "deal" and table.state["can"]["hint"] is not None
    assert table.run() in ("learner", "declare")
    empty = reviewing(Mistakes(), clock)  # nothing stored at all
    assert empty.feedback["reason"].startswith("No positions") and empty.waiting == "deal"


def test_the_review_follows_the_link(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lesson 10 passes its link's ``review=`` to the table (as its cell does)."""
    def table_of(query: str) -> Table:
        monkeypatch.setenv("QUERY_STRING", query)
        params, _ = link_params("10-play")
        return Table(4, pause_ms=0, deal_ms=0, review=params.review or "")

    assert table_of("review=mistakes&seed=4").waiting == "store"
    assert Table(4, pause_ms=0, deal_ms=0).waiting != "store"
    for query in ("review=all", "review=", "seed=4", ""):
        assert table_of(query).waiting != "store"
    for bad in ("all", "Mistakes", "x" * 10_000):
        with pytest.raises(TutorError, match="the table reviews mistakes, not"):
            Table(4, pause_ms=0, deal_ms=0, review=bad)


# ------------------------------------------------------------------ tampered stores


def test_a_tampered_store_gives_a_note_and_loses_nothing(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    record, costly = hand
    good = Mistakes().keep(record, 0, list(costly[:2]), START)
    body = json.loads(good.to_json())
    body["kept"].insert(1, {"hand": 7, "seat": "x"})
    body["kept"].append("junk")
    text = json.dumps(body, ensure_ascii=False)
    clock = Clock(START + timedelta(days=1))
    table = Table(3, pause_ms=0, deal_ms=0, review="mistakes", clock=clock)
    send(table, {"type": "sync", "mistakes": text})
    assert table.positions == good  # every readable position kept
    assert table.feedback["kind"] == "note" and "could not be read" in table.feedback["reason"]
    assert table.state["mistakes"]["count"] == 2  # and reviewed
    assert table.mistakes_json == ""  # the stored text is left as it is until something changes
    send(table, {"type": "retry_answer"})
    assert stored(table) == good.answered(good.due(clock.now)[0].key, False, True, clock.now)

    # Unreadable as a whole: a note, nothing to review, nothing written over.
    junks: tuple[object, ...] = ("[", "{}", '{"version": 2}', "x" * 2_000_000, "\ud800", None, 7, [], {"kept": []},
                                 True, 1.5)
    for junk in junks:
        other = Table(3, pause_ms=0, deal_ms=0, review="mistakes", clock=clock)
        send(other, {"type": "sync", "mistakes": junk})
        assert other.synced and other.waiting == "deal" and other.mistakes_json == ""
        assert other.feedback["kind"] == "note"
        if junk is not None:
            assert "could not be read" in other.feedback["reason"]


def test_a_kept_hand_that_no_longer_replays_is_left_out_with_a_note(
        hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    record, costly = hand
    broken = record.replace("seed:", "seed: 1", 1)  # another deal: the plays no longer replay
    assert broken != record
    store = Mistakes().keep(broken, 0, [costly[0]], START).keep(record, 0, [costly[1]], START + timedelta(minutes=1))
    clock = Clock(START + timedelta(days=1))
    table = reviewing(store, clock)
    assert table.state["mistakes"]["number"] == 2 and table.feedback["kind"] == "note"
    assert "could not be replayed" in table.feedback["reason"]
    assert [k.hand for k in stored(table).kept] == [record]


def test_tampered_sync_messages_never_raise(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    record, costly = hand
    table = reviewing(Mistakes().keep(record, 0, list(costly), START), Clock(START + timedelta(days=2)))
    before = table.state["mistakes"]
    for value in (True, -1, 2**70, float("nan"), "x" * 100_000, [1] * 1000, {"a": 1}, "\ud800", "[" * 100_000):
        send(table, {"type": "sync", "mistakes": value})
        send(table, {"type": "sync", "mistakes": value, "version": value, "request": value})
    assert table.state["mistakes"]["number"] == before["number"]  # a later sync does not start again
    assert len(table.positions.kept) == len(costly)


def test_the_store_is_kept_as_kept(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    """The stored text round-trips: what the page stores is what the next page reads."""
    record, costly = hand
    table = reviewed(Clock())
    again, note = Mistakes.from_json(table.mistakes_json)
    assert note is None and isinstance(again.kept[0], Kept) and again.to_json() == table.mistakes_json


# ------------------------------------------------------------------ found in review


def test_a_position_is_kept_once_whatever_the_hand_did_after_it(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    """A deal played again from a trick reaches the same positions: each is kept once."""
    record, costly = hand
    index, cards = costly[0]
    whole = import_hand(record)
    cut = Mistakes().keep(record, 0, [(index, cards)], START)
    game = Game(whole.seed, whole.rules, whole.deck)
    for action in whole.history[:index + 1]:  # the same hand up to the play, and nothing after
        game.apply(action)
    again = cut.keep(export_hand(game), 0, [(index, cards)], START + timedelta(hours=1))
    assert again == cut and position_key(record, index) == position_key(export_hand(game), index)


def test_a_position_another_page_removed_stays_removed(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    record, costly = hand
    store = Mistakes().keep(record, 0, list(costly), START)
    table = reviewing(store, Clock(START + timedelta(days=1)))
    gone = store.kept[-1].key
    send(table, {"type": "sync", "mistakes": store.forget(gone).to_json()})  # cleared in another tab
    assert gone not in {item.key for item in table.positions.kept}
    assert table.mistakes_json == "" or gone not in {k.key for k in stored(table).kept}


def test_a_kept_play_with_no_choice_is_dropped_not_a_failure(hand: tuple[str, tuple[tuple[int, str], ...]]) -> None:
    """A tampered store may name a play where the rules left one choice (the last trick):
    the review drops it with nothing raised, and goes on."""
    record, costly = hand
    whole = import_hand(record)
    last = max(i for i, action in enumerate(whole.history) if isinstance(action, Play) and action.seat == 0)
    action = whole.history[last]
    assert isinstance(action, Play)
    store = Mistakes().keep(record, 0, [(last, format_cards(action.cards)), costly[0]], START)
    table = reviewing(store, Clock(START + timedelta(days=1)))
    assert table.state["mistakes"]["number"] == 2  # the first dropped, the second under way
    assert [k.index for k in table.positions.kept] == [costly[0][0]]
