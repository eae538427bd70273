"""The table's flow as a session of its own (:mod:`tutor.teach.table_session`) and what one
seat sees of it (:mod:`tutor.teach.table_view`), tested without a widget."""

from __future__ import annotations

import json
import random
import re
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tutor.play.search import candidate_plays
from tutor.play.strategy import ComputerPlayer
from tutor.rules.cards import PLAYERS, Card
from tutor.rules.game import Bury, Call, Game, Phase, Play, Solo
from tutor.teach import narration
from tutor.teach.mistakes import Mistakes
from tutor.teach.table_session import (Computer, Learner, Outcome, RetryStatus, Said, TableSession, Tried, Verb,
                                       Waiting)
from tutor.teach.table_view import seat_view

SEED = 5
"""A careless hand with costly plays (:func:`careless`), as ``test_learn_from_mistakes`` plays it."""
START = datetime(2026, 3, 1, tzinfo=timezone.utc)


def session_of(seed: int, *, learners: frozenset[int] = frozenset({0}), stop: bool = False) -> TableSession:
    session = TableSession(Game(seed), learners=learners, clock=lambda: START)
    for seat in learners:
        session.desk(seat).stop_to_declare = stop
    return session


def learner_acts(session: TableSession, seat: int, rng: random.Random) -> Outcome:
    """``seat`` does what a careless learner does: any play the coach would weigh, else the computer's choice."""
    view = session.game.view(seat)
    if view.phase is Phase.PLAYING:
        return session.act(seat, Verb.PLAY, rng.choice(candidate_plays(view, session.rules, rng=rng)))
    action = ComputerPlayer(seat, session.game.seed, session.rules).act(view)
    if isinstance(action, Bury):
        return session.act(seat, Verb.BURY, action.cards)
    if isinstance(action, Call):
        return session.act(seat, Verb.CALL, (action.card,))
    assert isinstance(action, Solo)
    return session.go_solo(seat)


def careless(seed: int = SEED) -> TableSession:
    session = session_of(seed)
    rng = random.Random(seed)
    while session.run() is not Waiting.DONE:
        assert learner_acts(session, 0, rng).done
    return session


# ------------------------------------------------------------------ the flow

def test_a_hand_runs_to_the_score_with_the_learner_acting_and_each_view_saying_it() -> None:
    session = careless(3)
    assert session.game.phase is Phase.FINISHED and session.waiting(0) is Waiting.DONE
    assert session.players == (Learner(), Computer(1), Computer(1), Computer(1), Computer(1))
    view = seat_view(session, 0, "en")
    assert view["waiting"] == "done" and view["score"]["results"][0]["name"] == "You (seat 0)"
    assert len(view["review"]) == len(session.game.tricks) and view["hand"] == []
    assert view["log_start"] + len(view["log"]) - 1 == len(session.desk(0).log)
    assert seat_view(session, 0, "zh-Hans")["score"]["points"] == view["score"]["points"]
    assert seat_view(session, 0, "zh-Hant")["phase_text"] != view["phase_text"]


def test_a_refused_action_changes_nothing_and_says_the_rule() -> None:
    session = session_of(3)
    assert session.run() is Waiting.LEARNER
    before = (session.game.history, seat_view(session, 0, "en")["hand"])
    refused = session.act(0, Verb.PLAY if session.game.phase is Phase.PLAYING else Verb.BURY, "♠A ♠A ♠A ♠A")
    assert not refused.done and refused.feedback is not None and refused.feedback.kind is Said.REFUSED
    assert refused.feedback.rule and (session.game.history, seat_view(session, 0, "en")["hand"]) == before
    shown = seat_view(session, 0, "en")["feedback"]
    assert shown["kind"] == "refused" and shown["rule"] == refused.feedback.rule and shown["reason"]
    unread = session.act(0, Verb.PLAY, "♠Z")
    assert not unread.done and unread.feedback is not None and unread.feedback.rule == "N3"


def test_the_deal_stops_for_a_declaration_until_the_learner_passes_or_declares() -> None:
    for seed in range(20):
        session = session_of(seed, stop=True)
        if session.run() is Waiting.DECLARE:
            break
    else:
        pytest.fail("no deal of 20 stopped for a declaration")
    assert session.game.phase is Phase.DEALING and session.game.declaration_options(0)
    assert not session.step() and session.run() is Waiting.DECLARE  # stopped: nothing moves
    assert seat_view(session, 0, "en")["can"]["pass"]
    assert session.pass_declaration(0).done and session.waiting(0) is not Waiting.DECLARE
    assert session.step()  # the deal goes on
    declared = session_of(seed, stop=True)
    declared.run()
    assert declared.declare(0, 0).done and declared.game.declarations[-1].seat == 0
    assert not declared.declare(0, 99).done


def test_a_hand_file_opens_where_it_stopped_and_a_broken_one_changes_nothing() -> None:
    session = session_of(8)
    session.run()
    learner_acts(session, 0, random.Random(1))
    session.run()
    saved = session.export(0)
    assert saved.download is not None and saved.download.name == "qidong-hand-8.txt"
    other = session_of(9)
    assert other.load(saved.download.text).done
    assert other.game.history == session.game.history
    mine, theirs = seat_view(session, 0, "en"), seat_view(other, 0, "en")
    assert theirs["log"][0] == "Opened a hand file (seed 8)."
    assert {k: v for k, v in mine.items() if k != "log" and k != "log_start"} == \
        {k: v for k, v in theirs.items() if k != "log" and k != "log_start"}
    for broken in ("not a hand file", 3, "x" * 1_000_000, "\ud800"):
        history = other.game.history
        refused = other.load(broken)
        assert not refused.done and refused.load_error is not None and other.game.history == history


def test_a_level_chosen_applies_from_the_next_hand_dealt() -> None:
    session = session_of(2)
    assert session.choose_level(3).done and session.level == 1
    assert "from the next hand" in seat_view(session, 0, "en")["opponents"]["note"]
    session.restart()
    assert session.level == 3 and session.players[1] == Computer(3)


def test_the_same_deal_again_from_a_trick() -> None:
    session = careless(4)
    history = session.game.history
    assert session.replay_from(0, 3).done
    assert len(session.game.tricks) == 2 and session.game.history == history[:len(session.game.history)]
    assert seat_view(session, 0, "en")["log"][0] == "Playing the deal again from trick 3."
    assert not session.replay_from(0, 99).done and not session.replay_from(0, True).done


# ------------------------------------------------------------------ the coach

def test_the_review_keeps_costly_plays_and_the_mistakes_are_tried_again() -> None:
    session = careless()
    assert session.review(0).done
    decisions = session.desk(0).coach
    assert decisions is not None and any(d.costly for d in decisions)
    assert session.desk(0).positions.kept  # kept to come back
    assert "coach" in seat_view(session, 0, "en")
    assert session.learn_from_mistakes(0).done
    lesson = session.retrying
    assert lesson is not None and lesson.status is RetryStatus.TRYING
    assert len(session.game.history) == lesson.decision.index  # replayed to the costly play
    assert seat_view(session, 0, "en")["mistakes"]["number"] == 1
    answer = session.show_answer(0)
    assert answer.done and answer.picks is not None and lesson.outcomes == [Tried.SHOWN]
    assert not session.next_mistake(0, skip=True).done  # shown: go on, not skip
    assert session.next_mistake(0, skip=False).done
    assert session.leave_mistakes(0).done and session.retrying is None
    assert lesson.outcomes[0] is Tried.SHOWN
    assert "found a good play yourself in 0 of" in seat_view(session, 0, "en")["coach"]["summary"]


def test_kept_positions_come_back_when_due() -> None:
    played = careless()
    played.review(0)
    stored = played.desk(0).positions.to_json()
    later = TableSession(Game(1), learners={0}, clock=lambda: START + timedelta(days=30))
    later.wait_for_store()
    assert later.waiting(0) is Waiting.STORE and not later.step()
    assert later.sync(0, stored).done
    assert later.due is not None and later.retrying is not None
    assert seat_view(later, later.learner, "en")["mistakes"]["review"]
    while later.due is not None:
        later.next_mistake(later.learner, skip=True)
    assert later.learner == later.home and later.retrying is None
    assert "A new hand is dealt" in seat_view(later, 0, "en")["feedback"]["reason"]
    nothing = TableSession(Game(1), learners={0}, clock=lambda: START)
    nothing.wait_for_store()
    assert nothing.sync(0, None).done and nothing.due is None and nothing.waiting(0) is not Waiting.STORE
    assert "No positions" in seat_view(nothing, 0, "en")["feedback"]["reason"]
    broken = TableSession(Game(1), learners={0}, clock=lambda: START)
    taken = broken.sync(0, "{not json")
    assert taken.feedback is not None and taken.feedback.kind is Said.NOTE and broken.desk(0).positions == Mistakes()


def test_a_hint_weighs_the_learners_play_and_picks_the_advice() -> None:
    session = session_of(3)
    session.run()
    outcome = session.hint(0)
    assert not outcome.done and seat_view(session, 0, "en")["hint_text"]  # words only: the table is as it was
    assert outcome.picks is None or all(card in session.game.hand(0) for card in outcome.picks)


# ------------------------------------------------------------------ a table of classmates

def test_classmates_are_named_in_every_sentence_without_a_context_variable() -> None:
    session = session_of(6, learners=frozenset({0, 2}))
    while session.game.phase is not Phase.FINISHED:
        if not session.step():
            actor = session.game.actor
            assert actor in (0, 2)
            learner_acts(session, actor, random.Random(actor))
    names = ("Ana", "", "Ben", "", "")
    ben = seat_view(session, 2, "en", names)
    assert [s["name"] for s in ben["seats"]] == ["Ana (Seat 0)", "Seat 1 (computer)", "You (seat 2)",
                                                 "Seat 3 (computer)", "Seat 4 (computer)"]
    said = json.dumps(ben, ensure_ascii=False)
    assert "Ana (Seat 0)" in said and "Seat 0 (you)" not in said
    assert "Ben" not in said.replace('"player": "Ben"', "")  # Ben is "you" at his own seat
    assert narration.who(0) == "Seat 0"  # nothing was left set for anyone else
    assert seat_view(session, 2, "en")["seats"][0]["name"] == "Seat 0"


def test_a_computer_plays_for_a_classmate_who_left_only_when_asked() -> None:
    session = session_of(3, learners=frozenset({0, 1}))
    while session.step():
        pass
    actor = session.game.actor
    assert actor in (0, 1) and not session.step()
    assert session.step(for_seats=frozenset({actor}))


# ------------------------------------------------------------------ properties

def hidden_cards(session: TableSession, seat: int) -> set[Card]:
    """Cards only other seats hold and nobody has shown ``seat`` (two decks: a card ``seat``
    holds or has seen shown is not hidden)."""
    game = session.game
    view = game.view(seat)
    others = {card for s in range(PLAYERS) if s != seat for card in game.hand(s)}
    if view.kitty is None and game.phase is not Phase.FINISHED:
        others |= set(game.kitty)
    shown = set(view.hand) | {card for action in game.history if isinstance(action, Play) for card in action.cards}
    shown |= {card for declared in game.declarations for card in declared.cards}
    shown |= {view.friend_card} if view.friend_card is not None else set()
    shown |= set(view.kitty or ())
    return others - shown


def strings(value: object) -> list[str]:
    """Every text in a view (its keys and values, however deep)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (*strings(key), *strings(item))]
    if isinstance(value, (list, tuple)):
        return [text for item in value for text in strings(item)]
    return []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), learners=st.sets(st.integers(0, PLAYERS - 1), min_size=1, max_size=PLAYERS),
       choices=st.lists(st.integers(0, 1_000), min_size=1, max_size=400),
       language=st.sampled_from(["en", "zh-Hans", "zh-Hant"]), stop=st.booleans())
def test_random_legal_actions_keep_each_view_consistent_and_private(
        seed: int, learners: set[int], choices: list[int], language: str, stop: bool) -> None:
    session = session_of(seed, learners=frozenset(learners), stop=stop)
    game = session.game
    for choice in choices:
        if not session.step():
            actor = game.actor
            stopped = [s for s in learners if session.desk(s).offer]
            if stopped:
                seat = stopped[choice % len(stopped)]
                options = game.declaration_options(seat)
                outcome = session.declare(seat, choice % len(options)) if options and choice % 2 else \
                    session.pass_declaration(seat)
            elif actor is None:
                break  # the hand is over
            else:
                outcome = learner_acts(session, actor, random.Random(choice))
            assert outcome.done
        for seat in learners:
            view = seat_view(session, seat, language)
            assert sorted(card["text"] for card in view["hand"]) == sorted(str(c) for c in game.hand(seat))
            assert [s["count"] for s in view["seats"]] == [len(game.hand(s)) for s in range(PLAYERS)]
            assert view["waiting"] == session.waiting(seat).value
            assert view["can"]["play"] == (game.actor == seat and game.phase is Phase.PLAYING)
            assert bool(view["kitty_html"]) == (game.view(seat).kitty is not None and bool(game.view(seat).kitty))
            said = "\n".join(strings(view))
            leaked = [card for card in hidden_cards(session, seat)
                      if re.search(re.escape(str(card)) + r"(?![0-9A-Z])", said)]
            assert not leaked, (seat, leaked)
