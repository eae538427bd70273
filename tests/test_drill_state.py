"""The drill player's state machine (tutor.teach.drill_state) without any widget: every
transition, when the answer is shown, what counts (helped answers, retries, a teacher's
position), what the feedback shows, and bad input."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone

import pytest

from tutor.core.errors import TutorError
from tutor.core.i18n import Text, Translator
from tutor.teach.course import LEVELS
from tutor.teach.drill_state import Answered, DrillState, FeedbackView
from tutor.teach.drills import AnswerKind, Drill, generate
from tutor.teach.drills.answers import MAX_ANSWER, MAX_DIGITS
from tutor.teach.drills.progress import Progress, visit_seed
from tutor.teach.positions import read_position

KIND = "tractor"
START = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)


class Clock:
    """A clock that counts its reads (each a second after the last)."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> datetime:
        self.reads += 1
        return START + timedelta(seconds=self.reads)


def no_clock() -> datetime:
    raise AssertionError("this transition needs no time")


def _choice_seed(kind: str = KIND) -> int:
    return next(s for s in range(50) if generate(kind, s, 1).answer is AnswerKind.CHOICE)


SEED = _choice_seed()


def right(drill: Drill) -> str:
    return sorted(drill.correct)[0]


def wrong(drill: Drill) -> str:
    return next(c.key for c in drill.choices if c.key not in drill.correct)


@pytest.fixture()
def state() -> DrillState:
    """A choice drill from a link's seed (no time is needed to choose it)."""
    shown = DrillState(KIND, link_seed=SEED).next(no_clock)
    assert shown.drill is not None and shown.drill.answer is AnswerKind.CHOICE
    return shown


# ------------------------------------------------------------------ which drill is shown

def test_a_link_gives_its_seed_then_seeds_made_from_it(state: DrillState) -> None:
    assert state.drill == generate(KIND, SEED, 1) and state.visit == 1 and state.shown == 1
    second = state.next(no_clock)
    assert second.drill == generate(KIND, visit_seed(SEED, 1, KIND), 1) and second.visit == 2 and second.shown == 2
    levelled = DrillState(KIND, link_seed=SEED, link_level=3).next(no_clock)
    assert levelled.drill is not None and levelled.drill.level == 3 and levelled.level == 3


def test_without_a_link_progress_chooses_and_a_mistake_comes_back() -> None:
    clock = Clock()
    first = DrillState(KIND).next(clock)
    assert clock.reads == 1 and first.drill is not None
    assert (first.drill.seed, first.drill.level) == Progress().next_drill(KIND, START + timedelta(seconds=1), 1)
    linked = DrillState(KIND, link_seed=SEED).next(no_clock)
    assert linked.drill is not None
    missed = linked.check(wrong(linked.drill), clock=clock)
    later = DrillState(KIND, progress=missed.progress).next(lambda: START + timedelta(days=30))
    assert later.drill == linked.drill  # the mistake came back when it was due


def test_a_new_drill_starts_afresh(state: DrillState) -> None:
    worked = state.hint().check(wrong(state.drill), clock=Clock())  # type: ignore[arg-type]
    assert worked.tries == 1 and worked.hints == 1 and worked.last is not None
    fresh = worked.next(no_clock)
    assert (fresh.tries, fresh.revealed, fresh.hints, fresh.last, fresh.position) == (0, False, 0, None, False)
    assert fresh.progress == worked.progress  # progress is kept


def test_a_coachs_drill_is_made_at_once() -> None:
    """The coach's drills come from the prepared bank: made as any other, nothing to wait for."""
    made = DrillState("advice", link_seed=2).next(no_clock)
    assert made.drill is not None and made.drill.kind == "advice" and made.shown == 1


@pytest.mark.parametrize(("kind", "seed", "level", "says"), [
    ("chess", 1, 1, "unknown drill kind 'chess'"),
    (KIND, 1, 4, "level 4 is not a level"),
    (KIND, -1, 1, "seed must be a whole number from 0 to 2147483647, not -1"),
])
def test_a_drill_that_cannot_be_made_is_shown_as_its_failure(kind: str, seed: int, level: int, says: str) -> None:
    failed = DrillState(kind).made(seed, level)
    assert failed.drill is None and isinstance(failed.failure, Text)
    assert says in failed.failure
    assert failed.check("yes", clock=no_clock) is failed and failed.hint() is failed


def test_a_teachers_position_is_judged_but_never_stored() -> None:
    position = read_position("kind: tractor; trump: ♠; ask: ♥9 ♥9 ♥8 ♥8")
    shown = DrillState(KIND).showing(position)
    assert shown.drill is position and shown.position and not shown.fresh_on_sync
    answered = shown.check("no", clock=no_clock)  # no time read: nothing is recorded
    view = answered.feedback_view()
    assert view is not None and not view.correct and answered.tries == 1
    assert answered.progress == Progress() and not view.practice and not view.helped
    after = answered.next(Clock())
    assert not after.position and after.drill is not None and after.drill is not position


def test_a_position_of_another_kind_is_refused() -> None:
    position = read_position("kind: tractor; trump: ♠; ask: ♥9 ♥9 ♥8 ♥8")
    with pytest.raises(TutorError, match="the position is a tractor drill, not a 'follow' drill") as refused:
        DrillState("follow").showing(position)
    assert refused.value.parameter == "position"
    with pytest.raises(TutorError):
        DrillState(KIND).showing("kind: tractor")  # type: ignore[arg-type]


# ------------------------------------------------------------------ answers

def test_a_right_answer_counts_and_says_why(state: DrillState) -> None:
    assert state.drill is not None
    clock = Clock()
    answered = state.check(right(state.drill), check_id=5, clock=clock)
    assert clock.reads == 1 and answered.tries == 0 and not answered.revealed
    view = answered.feedback_view()
    assert view is not None and view.correct and view.revealed and not view.can_reveal
    assert view.answers == state.drill.solutions()[0] and view.check_id == 5
    assert answered.counts.streak == 1 and answered.counts.correct == 1
    assert answered.last == Answered(answered.last.feedback, 5, counted=True)  # type: ignore[union-attr]


def test_a_wrong_answer_hides_the_answer_until_asked(state: DrillState) -> None:
    assert state.drill is not None
    answered = state.check(wrong(state.drill), clock=Clock())
    view = answered.feedback_view()
    assert view is not None and not view.correct and view.message
    assert (view.answers, view.answer_count, view.explanation, view.revealed) == ((), 0, "", False)
    assert view.can_reveal and answered.tries == 1 and answered.counts.streak == 0
    shown = answered.reveal()
    view = shown.feedback_view()
    assert view is not None and shown.revealed and view.revealed and not view.can_reveal
    assert view.answers == state.drill.solutions()[0] and view.answer_count >= 1


def test_wrong_tries_never_show_the_answer_unasked(state: DrillState) -> None:
    """However many wrong tries, the answer waits for "Show answer" (it used to appear by
    itself after the second, unasked)."""
    assert state.drill is not None
    clock = Clock()
    tried = state
    for n in range(1, 6):
        tried = tried.retry().check(wrong(state.drill), clock=clock)
        view = tried.feedback_view()
        assert tried.tries == n and not tried.revealed
        assert view is not None and not view.revealed and not view.answers and view.can_reveal
    shown = tried.reveal().feedback_view()
    assert shown is not None and shown.revealed and shown.answers


def test_an_answer_after_the_answer_was_shown_is_helped(state: DrillState) -> None:
    assert state.drill is not None
    hinted = state
    for _ in state.drill.hints:
        hinted = hinted.hint()
    assert hinted.revealed and hinted.hint_texts == state.drill.hints
    helped = hinted.check(right(state.drill), clock=Clock())
    view = helped.feedback_view()
    assert view is not None and view.correct and view.helped and not view.practice
    assert helped.counts.attempts == 1 and helped.counts.correct == 0 and helped.counts.streak == 0
    assert "helped" in view.as_dict() and "practice" not in view.as_dict()


def test_a_retry_of_the_drill_just_answered_is_practice(state: DrillState) -> None:
    assert state.drill is not None
    clock = Clock()
    first = state.check(wrong(state.drill), clock=clock)
    again = first.retry()
    assert again.last is None and again.feedback_view() is None and again.tries == 1  # the tries stay
    second = again.check(right(state.drill), clock=clock)
    view = second.feedback_view()
    assert view is not None and view.correct and view.practice and not view.helped
    assert second.progress == first.progress and second.last is not None and not second.last.counted


@pytest.mark.parametrize("answer", [
    pytest.param("maybe", id="no-such-choice"),
    pytest.param("", id="nothing-chosen"),
    pytest.param(None, id="none"),
    pytest.param(["yes", "no"], id="a-list"),
    pytest.param(3.5, id="a-float"),
])
def test_an_answer_the_drill_cannot_read_is_no_try(state: DrillState, answer: object) -> None:
    refused = state.check(answer, check_id=1, clock=no_clock)  # nothing is recorded: no time read
    view = refused.feedback_view()
    assert view is not None and view.error and not view.correct and not view.can_reveal
    assert refused.tries == 0 and refused.progress == state.progress and not refused.revealed


@pytest.mark.parametrize(("answer", "says"), [
    pytest.param("y" * (MAX_ANSWER + 1), "far too long", id="long-text"),
    pytest.param(["♠A"] * (MAX_ANSWER + 1), "far too long", id="long-list"),
    pytest.param(["♠A", {"x": 1}], "not an answer", id="junk-in-a-list"),
    pytest.param({"answer": "yes"}, "not an answer", id="a-dict"),
    pytest.param(10**MAX_DIGITS, "far too large", id="huge-number"),
    pytest.param(-10**MAX_DIGITS, "far too large", id="huge-negative"),
])
def test_junk_is_refused_before_the_drill_looks(state: DrillState, answer: object, says: str) -> None:
    refused = state.check(answer, clock=no_clock)
    view = refused.feedback_view()
    assert view is not None and view.error is not None and says in view.error and view.rule == ""
    assert refused.tries == 0 and refused.progress == state.progress


def test_junk_is_refused_in_the_drills_language() -> None:
    state = DrillState(KIND, lang="zh-Hans", link_seed=SEED).next(no_clock)
    view = state.check({"x": 1}, clock=no_clock).feedback_view()
    assert view is not None and view.error and "not an answer" not in view.error


@pytest.mark.parametrize(("check_id", "kept"), [
    (0, 0), (7, 7), (2**53 - 1, 2**53 - 1), (2**53, -1), (-1, -1), (True, -1), ("7", -1), (None, -1), (7.0, -1),
])
def test_a_check_id_is_kept_only_when_the_page_can_read_it(state: DrillState, check_id: object, kept: int) -> None:
    assert state.drill is not None
    view = state.check(right(state.drill), check_id=check_id, clock=Clock()).feedback_view()
    assert view is not None and view.check_id == kept


# ------------------------------------------------------------------ hints, reveal, retry

def test_hints_come_one_at_a_time_and_the_last_is_the_answer(state: DrillState) -> None:
    assert state.drill is not None and len(state.drill.hints) >= 2
    one = state.hint()
    assert one.hints == 1 and one.hint_texts == state.drill.hints[:1] and not one.revealed
    every = one
    for _ in state.drill.hints[1:]:
        every = every.hint()
    assert every.revealed and every.hint() is every  # no more hints: nothing changes


def test_reveal_needs_a_wrong_answer_that_was_read(state: DrillState) -> None:
    assert state.drill is not None
    assert state.reveal() is state  # nothing answered
    right_one = state.check(right(state.drill), clock=Clock())
    assert right_one.reveal() is right_one
    unreadable = state.check("maybe", clock=no_clock)
    assert unreadable.reveal() is unreadable
    assert state.check(wrong(state.drill), clock=Clock()).retry().reveal().revealed is False  # retried: gone


def test_a_hint_that_shows_the_answer_shows_it_in_the_feedback(state: DrillState) -> None:
    assert state.drill is not None
    answered = state.check(wrong(state.drill), clock=Clock())
    for _ in state.drill.hints:
        answered = answered.hint()
    view = answered.feedback_view()
    assert view is not None and view.revealed and view.answers


# ------------------------------------------------------------------ level, reset, stored progress

@pytest.mark.parametrize("level", LEVELS)
def test_a_chosen_level_is_stored_and_gives_a_fresh_drill(level: int) -> None:
    state = DrillState(KIND, lesson="04-tractors").next(Clock())
    chosen = state.choose_level(level)  # a fresh drill: no time is read
    assert chosen.level == level and chosen.progress.level(KIND, "04-tractors") == level
    assert chosen.drill is not None and chosen.drill.level == level and chosen.shown == state.shown + 1
    assert chosen.drill.seed == state.progress.fresh_seed(KIND, "04-tractors")


def test_a_chosen_level_wins_over_the_links(state: DrillState) -> None:
    linked = DrillState(KIND, link_seed=SEED, link_level=1).next(no_clock)
    chosen = linked.choose_level(3)
    assert chosen.link_level is None and chosen.level == 3 and chosen.visit == 2
    assert chosen.drill == generate(KIND, visit_seed(SEED, 1, KIND), 3)


@pytest.mark.parametrize("level", [0, 4, True, "2", 2.0, None])
def test_a_level_that_is_none_is_refused_and_changes_nothing(state: DrillState, level: object) -> None:
    with pytest.raises(TutorError, match="there is no level") as refused:
        state.choose_level(level)
    assert refused.value.parameter == "level"


def test_reset_forgets_progress_but_keeps_the_drill(state: DrillState) -> None:
    assert state.drill is not None
    answered = state.check(right(state.drill), clock=Clock())
    reset = answered.reset()
    assert reset.progress == Progress() and reset.drill is answered.drill and reset.counts.attempts == 0


def test_stored_progress_is_taken_when_it_reads() -> None:
    state = DrillState(KIND)
    stored = Progress().record(KIND, 3, 2, True, START).with_level(KIND, 2)
    taken, read, problem = state.restore(stored.to_json())
    assert read and problem is None and taken.progress == stored and taken.level == 2
    assert state.restore(None) == (state, False, None)
    assert taken.restore(stored.to_json()) == (taken, False, None)  # what it already holds


@pytest.mark.parametrize("stored", ["[", "x" * 500_000, 42, b"\xff", '{"version": 99}'])
def test_stored_progress_that_cannot_be_read_changes_nothing(stored: object) -> None:
    state = DrillState(KIND, progress=Progress().record(KIND, 1, 1, True, START))
    after, read, problem = state.restore(stored)
    assert after is state and not read and isinstance(problem, Text)


def test_tampered_progress_keeps_what_is_valid() -> None:
    good = Progress().record(KIND, 1, 1, True, START)
    tampered = good.to_json().replace('"levels": {}', '"levels": {"tractor": 9}')
    after, read, problem = DrillState(KIND).restore(tampered)
    assert read and problem is not None and "level 9" in problem and after.progress.kind(KIND) == good.kind(KIND)


def test_stored_progress_chooses_the_drill_only_when_nothing_was_done(state: DrillState) -> None:
    plain = DrillState(KIND).next(Clock())
    assert plain.fresh_on_sync
    assert plain.drill is not None and not plain.check(right(plain.drill), clock=Clock()).fresh_on_sync
    assert not state.fresh_on_sync  # a link's seed wins


# ------------------------------------------------------------------ the value itself

def test_transitions_return_new_values_and_change_nothing(state: DrillState) -> None:
    drill = state.drill
    assert drill is not None
    before = dataclasses.replace(state)
    steps: list[Callable[[DrillState], DrillState]] = [
        lambda s: s.hint(), lambda s: s.check(wrong(drill), clock=Clock()), lambda s: s.reveal(),
        lambda s: s.retry(), lambda s: s.reset(), lambda s: s.next(no_clock), lambda s: s.choose_level(2)]
    for step in steps:
        step(state)
    assert state == before
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.tries = 3  # type: ignore[misc]


def test_the_feedback_view_is_what_the_page_reads(state: DrillState) -> None:
    assert state.drill is not None
    view = state.check(wrong(state.drill), check_id=2, clock=Clock()).feedback_view()
    assert view is not None
    assert set(view.as_dict()) == {"correct", "rule", "message", "answers", "answer_count", "explanation",
                                   "check_id", "revealed", "can_reveal"}
    refused = state.check({"x": 1}, clock=no_clock).feedback_view()
    assert refused is not None and "error" in refused.as_dict()
    assert FeedbackView(True, "M2", "Right.", ("Yes",), 1, "", None, -1, True, False, practice=True).as_dict()[
        "practice"] is True


def test_every_clock_read_is_needed() -> None:
    """A link's drill, a refused answer, a teacher's position, a chosen level and stored
    progress read no time; recording an answer and choosing from progress read it once."""
    clock: Callable[[], datetime] = Clock()
    state = DrillState(KIND, link_seed=SEED).next(no_clock).check({"x": 1}, clock=no_clock)
    state.choose_level(2)
    state.restore(Progress().to_json())
    assert state.drill is not None
    state.check(right(state.drill), clock=clock)
    assert isinstance(clock, Clock) and clock.reads == 1


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("stored", ["{broken", "[1, 2]", '"text"', '{"version": 99}', 5])
def test_a_damaged_store_is_said_in_a_learners_words(lang: str, stored: object) -> None:
    """Saved progress that is not progress at all gets a reason a learner can read (the drill
    player's note quotes it): what happened, not how it is written (no "JSON", no "object",
    no version numbers)."""
    _, taken, problem = DrillState("follow").restore(stored)
    note = Translator(lang)(problem)
    assert not taken and note and not any(word in note for word in ("JSON", "object", "99", "expected", "int"))
    if lang != "en":
        assert not re.search("[a-z]{3}", note), note  # said in Chinese, every word of it
