"""Practice that rewards the right thing: a streak grows only from answers the learner
found alone, a wrong answer leaves room to retry before the answer is shown, a shared
link's seed and level apply to that visit only, each lesson starts on a drill of its
own and keeps its own progress (stored progress of version 1 is carried over whole).
Progress from :mod:`tutor.teach.drills.progress`; the wiring through :class:`DrillPlayer`
with messages sent as its front end sends them."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

pytest.importorskip("anywidget")

from tutor.teach.course import LESSONS  # noqa: E402
from tutor.teach.drills import AnswerKind, generate  # noqa: E402
from tutor.teach.drills.progress import (  # noqa: E402
    STREAK_PER_STAR, VERSION, KindProgress, Progress, ProgressError, read_stored, track, utc, visit_seed,
)
from tutor.rules.notation import parse_cards  # noqa: E402
from widgets import CourseMap, DrillPlayer, practice  # noqa: E402

KIND = "follow"
LESSON = "05-following"
NOW = utc(2026, 12, 1, 9)


class Clock:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def send(widget: Any, content: object) -> None:
    """Deliver a message as the front end's ``model.send(content)`` does."""
    widget._handle_custom_msg(content, [])


def answer_of(player: DrillPlayer, right: bool) -> object:
    """A right (or a readable wrong) answer to the player's drill, asked of the drill."""
    drill = player.drill
    assert drill is not None
    if drill.answer is AnswerKind.CHOICE:
        return next(c.key for c in drill.choices if drill.check(c.key).correct is right)
    if drill.answer is AnswerKind.NUMBER:
        return next(n for n in range(-300, 300) if drill.check(n).correct is right)
    held = [str(c) for c in drill.trump.sorted(drill.hand)]
    if right:
        return [str(c) for c in parse_cards(drill.solutions()[0][0])]
    size = drill.pick or 1
    for start in range(len(held) - size + 1):
        verdict = drill.check(held[start:start + size])
        if verdict.error is None and not verdict.correct:
            return held[start:start + size]
    pytest.skip("every pick of this drill is right")


def answer(player: DrillPlayer, right: bool, check_id: int = 1) -> dict[str, Any]:
    send(player, {"type": "check", "check_id": check_id, "answer": answer_of(player, right), "selected": []})
    return player.feedback


def wrong_seed(kind: str = KIND, level: int = 1) -> int:
    """A seed whose drill has a readable wrong answer with more than one choice left."""
    for seed in range(60):
        drill = generate(kind, seed, level)
        if drill.answer is AnswerKind.CARDS and drill.pick == 1:
            return seed
    raise AssertionError("no suitable seed")


# ---------------------------------------------------------------- progress: helped answers

def test_a_helped_answer_neither_grows_nor_breaks_the_streak() -> None:
    p = Progress()
    for seed in range(STREAK_PER_STAR - 1):
        p = p.record(KIND, seed, 1, True, NOW + timedelta(seconds=seed))
    helped = p.record(KIND, 50, 1, True, NOW + timedelta(minutes=1), helped=True)
    assert helped.kind(KIND) == KindProgress(attempts=STREAK_PER_STAR, correct=STREAK_PER_STAR - 1,
                                             streak=STREAK_PER_STAR - 1, stars=0)  # no star from it
    assert [(r.seed, r.level) for r in helped.reviews] == [(50, 1)]  # it comes back, to be found alone
    own = p.record(KIND, 50, 1, True, NOW + timedelta(minutes=1))
    assert own.kind(KIND).streak == STREAK_PER_STAR and own.kind(KIND).stars == 1 and not own.reviews


def test_a_helped_wrong_answer_is_wrong() -> None:
    p = Progress().record(KIND, 1, 1, True, NOW).record(KIND, 2, 1, False, NOW, helped=True)
    assert p.kind(KIND).streak == 0 and p.kind(KIND).attempts == 2


def test_a_helped_review_starts_again() -> None:
    p = Progress().record(KIND, 9, 2, False, NOW)
    due = p.reviews[0].due
    p = p.record(KIND, 9, 2, True, due)  # found alone: one of the three it needs
    assert p.reviews[0].cleared == 1
    again = p.record(KIND, 9, 2, True, p.reviews[0].due, helped=True)
    assert again.reviews[0].cleared == 0


# ---------------------------------------------------------------- progress: per lesson

def test_each_lesson_keeps_its_own_progress() -> None:
    p = Progress().record(KIND, 1, 1, True, NOW, lesson=LESSON)
    assert p.kind(KIND, LESSON).streak == 1
    assert p.kind(KIND, "00-welcome") == KindProgress() == p.kind(KIND)
    assert json.loads(p.to_json())["kinds"] == {track(KIND, LESSON): [1, 1, 1, 0]}


def test_a_mistake_comes_back_in_any_lesson_of_its_kind() -> None:
    p = Progress().record(KIND, 7, 1, False, NOW, lesson=LESSON)
    later = NOW + timedelta(minutes=5)
    assert p.next_drill(KIND, later, 1, "00-welcome") == (7, 1)


def shared_kinds() -> dict[str, list[str]]:
    """Drill kind → the lessons practising it, for the kinds more than one lesson practises
    (today follow in 00 and 05, trick in 02 and 06)."""
    lessons: dict[str, list[str]] = {}
    for info in LESSONS:
        for kind in info.drills:
            lessons.setdefault(kind, []).append(info.slug)
    return {kind: slugs for kind, slugs in lessons.items() if len(slugs) > 1}


SHARED = [(kind, slugs) for kind, slugs in shared_kinds().items()]


@pytest.mark.parametrize(("kind", "slugs"), SHARED, ids=[kind for kind, _ in SHARED])
def test_lessons_of_one_kind_start_on_different_drills(kind: str, slugs: list[str]) -> None:
    seeds = [Progress().next_drill(kind, NOW, 1, slug)[0] for slug in slugs]
    assert len(set(seeds)) == len(seeds), (kind, slugs, seeds)
    questions = [generate(kind, seed, 1).question for seed in seeds]
    assert len(set(questions)) == len(questions), (kind, questions)


def old_store(**fields: object) -> str:
    """Progress as the course stored it before it kept progress per lesson."""
    body: dict[str, object] = {"version": 1, "salt": 3, "kinds": {"follow": [6, 5, 2, 1], "trick": [2, 1, 0, 0]},
                               "reviews": json.loads(Progress().record("trick", 4, 2, False, NOW).to_json())["reviews"],
                               "last": ["trick", 4, 2, NOW.isoformat()]}
    return json.dumps({**body, **fields})


def test_progress_kept_per_kind_is_carried_over_whole() -> None:
    p = Progress.from_json(old_store())
    for slug in ("00-welcome", "05-following"):
        assert p.kind("follow", slug) == KindProgress(6, 5, 2, 1)  # as the home page showed it
    for slug in ("02-trumps", "06-ruffing"):
        assert p.kind("trick", slug) == KindProgress(2, 1, 0, 0)
    assert p.kind("follow") == KindProgress(6, 5, 2, 1)  # the kind alone, outside the lessons
    assert [(r.kind, r.seed, r.level) for r in p.reviews] == [("trick", 4, 2)] and p.salt == 3
    again = json.loads(p.to_json())
    assert again["version"] == VERSION and again["per_lesson"] is True and Progress.from_json(p.to_json()) == p


def test_a_lessons_own_counts_are_never_overwritten_by_the_carried_over_ones() -> None:
    # A copy of the course from before kept the lesson's track (as any kind) and dropped the marker.
    p = Progress.from_json(old_store(kinds={"follow": [6, 5, 2, 1], "05-following/follow": [1, 0, 0, 0]}))
    assert p.kind("follow", LESSON) == KindProgress(1, 0, 0, 0)
    assert p.kind("follow", "00-welcome") == KindProgress(6, 5, 2, 1)


def test_progress_kept_per_lesson_is_not_carried_over_again() -> None:
    p = Progress().record(KIND, 1, 1, True, NOW)  # outside the lessons
    assert Progress.from_json(p.to_json()).kind(KIND, LESSON) == KindProgress()


def test_tampered_old_progress_is_still_refused() -> None:
    with pytest.raises(ProgressError):
        Progress.from_json('{"version": 1, "kinds": {"follow": [1, 5, 0, 0]}}')


# ---------------------------------------------------------------- progress: the learner's level

def test_the_learners_level_is_kept_per_lesson() -> None:
    p = Progress().with_level(KIND, 3, LESSON)
    assert p.level(KIND, LESSON) == 3 and p.level(KIND, "00-welcome") == 1
    assert Progress.from_json(p.to_json()) == p
    with pytest.raises(ProgressError, match="the levels are 1, 2 and 3"):
        p.with_level(KIND, 4, LESSON)


@pytest.mark.parametrize("levels", [{"05-following/follow": 9}, {"x" * 99: 1}, [3], {"a": True}])
def test_tampered_levels_are_left_out_with_a_note(levels: object) -> None:
    body = json.loads(Progress().record(KIND, 1, 1, True, NOW).to_json())
    body["levels"] = levels
    progress, note = read_stored(json.dumps(body))
    assert progress is not None and progress.levels == () and note
    assert progress.kind(KIND).streak == 1  # the rest is kept


def test_a_links_seed_gives_everyone_the_same_drills() -> None:
    steps = [visit_seed(42, step, KIND, LESSON) for step in range(5)]
    assert len(set(steps)) == 5 and visit_seed(42, 0, KIND) == 42  # a lesson's own seeds; a lone player's: 42
    assert steps == [visit_seed(42, step, KIND, LESSON) for step in range(5)]


# ---------------------------------------------------------------- the player: hints and streaks

def test_an_answer_after_the_revealing_hint_does_not_grow_the_streak() -> None:
    player = DrillPlayer(KIND, clock=Clock())
    assert player.drill is not None
    for _ in player.drill.hints:
        send(player, {"type": "hint"})
    feedback = answer(player, right=True)
    assert feedback["correct"] is True and feedback["helped"] is True
    assert player.stats["streak"] == 0 and player.progress.kind(KIND).correct == 0


def test_an_answer_after_a_hint_that_gives_nothing_away_counts() -> None:
    player = DrillPlayer(KIND, clock=Clock())
    assert player.drill is not None and len(player.drill.hints) > 1
    send(player, {"type": "hint"})  # where to look: not the answer
    feedback = answer(player, right=True)
    assert "helped" not in feedback and player.stats["streak"] == 1


def test_a_streak_of_four_earns_no_star_from_a_revealed_answer() -> None:
    player = DrillPlayer(KIND, clock=Clock())
    for i in range(STREAK_PER_STAR - 1):
        answer(player, right=True, check_id=i)
        send(player, {"type": "next"})
    while player.hint():
        pass
    answer(player, right=True, check_id=99)
    assert player.stats == {"streak": STREAK_PER_STAR - 1, "stars": 0, "max_stars": 3}


# ---------------------------------------------------------------- the player: wrong, retry, reveal

def test_a_first_wrong_answer_leaves_room_to_retry() -> None:
    player = DrillPlayer(KIND, seed=wrong_seed(), level=1, clock=Clock())
    feedback = answer(player, right=False)
    assert feedback["correct"] is False and feedback["rule"] and feedback["message"]
    assert feedback["answers"] == [] and feedback["answer_count"] == 0
    assert feedback["revealed"] is False and feedback["can_reveal"] is True


def test_a_second_wrong_try_leaves_the_answer_to_show_answer() -> None:
    player = DrillPlayer(KIND, seed=wrong_seed(), level=1, clock=Clock())
    answer(player, right=False)
    send(player, {"type": "retry"})
    feedback = answer(player, right=False, check_id=2)
    assert feedback["revealed"] is False and feedback["answers"] == [] and feedback["can_reveal"] is True
    assert feedback["practice"] is True  # only the first answer counted


def test_show_answer_on_request() -> None:
    player = DrillPlayer(KIND, seed=wrong_seed(), level=1, clock=Clock())
    assert player.drill is not None
    answer(player, right=False, check_id=5)
    send(player, {"type": "reveal"})
    answers, count = player.drill.solutions()
    assert player.feedback["answers"] == list(answers) and player.feedback["answer_count"] == count
    assert player.feedback["check_id"] == 5 and player.feedback["revealed"] is True


@pytest.mark.parametrize("first", ["nothing", "right", "unreadable"])
def test_reveal_before_a_wrong_answer_changes_nothing(first: str) -> None:
    player = DrillPlayer(KIND, seed=wrong_seed(), level=1, clock=Clock())
    if first == "right":
        answer(player, right=True)
    elif first == "unreadable":
        send(player, {"type": "check", "check_id": 1, "answer": ["BJ", "BJ", "BJ"], "selected": []})
    before = (dict(player.feedback), player.progress_json)
    send(player, {"type": "reveal"})
    assert (player.feedback, player.progress_json) == before


def test_after_show_answer_a_right_retry_is_practice() -> None:
    player = DrillPlayer(KIND, seed=wrong_seed(), level=1, clock=Clock())
    answer(player, right=False)
    send(player, {"type": "reveal"})
    send(player, {"type": "retry"})
    feedback = answer(player, right=True, check_id=2)
    assert feedback["correct"] is True and feedback["practice"] is True and player.stats["streak"] == 0


def test_next_drill_starts_afresh() -> None:
    player = DrillPlayer(KIND, clock=Clock())
    answer(player, right=False)
    send(player, {"type": "next"})
    answer(player, right=False, check_id=2)
    assert player.feedback["revealed"] is False  # a new drill: a first wrong try again


# ---------------------------------------------------------------- the player: a link's level and seed

def stored_with_level(level: int, lesson: str | None = LESSON) -> str:
    return Progress().with_level(KIND, level, lesson).to_json()


def test_a_links_level_wins_for_the_visit_and_is_not_stored() -> None:
    clock = Clock()
    stored = stored_with_level(2)
    linked = DrillPlayer(KIND, level=3, lesson=LESSON, clock=clock)
    send(linked, {"type": "sync", "progress": stored})
    assert linked.level == 3 and linked.state["level"] == 3
    answer(linked, right=True)
    send(linked, {"type": "next"})
    assert linked.state["level"] == 3
    after = Progress.from_json(linked.progress_json)
    assert after.level(KIND, LESSON) == 2 and after.kind(KIND, LESSON).attempts == 1  # the answer counts
    plain = DrillPlayer(KIND, lesson=LESSON, clock=clock)  # a later visit without the link
    send(plain, {"type": "sync", "progress": linked.progress_json})
    assert plain.level == 2 and plain.state["level"] == 2


def test_a_links_seed_wins_for_the_visit() -> None:
    clock = Clock()
    stored = Progress().record(KIND, 3, 1, True, NOW, lesson=LESSON).to_json()
    linked = DrillPlayer(KIND, seed=42, lesson=LESSON, clock=clock)
    send(linked, {"type": "sync", "progress": stored})
    seeds = [linked.state["seed"]]
    for i in range(2):
        answer(linked, right=True, check_id=i)
        send(linked, {"type": "next"})
        seeds.append(linked.state["seed"])
    assert seeds == [visit_seed(42, step, KIND, LESSON) for step in range(3)]
    plain = DrillPlayer(KIND, lesson=LESSON, clock=clock)
    send(plain, {"type": "sync", "progress": linked.progress_json})
    progress = Progress.from_json(linked.progress_json)
    assert plain.state["seed"] == progress.fresh_seed(KIND, LESSON) and plain.state["seed"] not in seeds


def test_a_level_the_learner_chooses_is_stored() -> None:
    player = DrillPlayer(KIND, level=3, lesson=LESSON, clock=Clock())  # a link's level …
    token = player.state["token"]
    send(player, {"type": "level", "level": 2})  # … and then the learner's own choice
    assert player.level == 2 and player.state["level"] == 2 and player.state["token"] != token
    assert Progress.from_json(player.progress_json).level(KIND, LESSON) == 2


@pytest.mark.parametrize("level", [0, 4, "3", 2.0, None, True, [1], 10**100])
def test_an_impossible_level_message_gets_a_note(level: object) -> None:
    player = DrillPlayer(KIND, lesson=LESSON, clock=Clock())
    before = (player.state, player.progress_json, player.level)
    send(player, {"type": "level", "level": level})
    assert (player.state, player.progress_json, player.level) == before
    assert player.progress_note.startswith("That level cannot be chosen") and "Traceback" not in player.progress_note


def test_an_unknown_lesson_is_refused_clearly() -> None:
    from tutor.core.errors import TutorError
    with pytest.raises(TutorError, match="no lesson"):
        DrillPlayer(KIND, lesson="99-nothing")


# ---------------------------------------------------------------- lessons and the home page

def first_drill(slug: str, kind: str) -> tuple[int, str]:
    box = practice(slug, query="", lang="en", clock=Clock())
    player = next(c for c in box.children if isinstance(c, DrillPlayer) and c.kind == kind)
    assert player.drill is not None
    return player.drill.seed, player.drill.question


@pytest.mark.parametrize(("kind", "slugs"), SHARED, ids=[kind for kind, _ in SHARED])
def test_lessons_of_one_kind_open_on_different_drills(kind: str, slugs: list[str]) -> None:
    firsts = [first_drill(slug, kind) for slug in slugs]
    assert len(set(firsts)) == len(firsts), (kind, slugs, firsts)


@pytest.mark.parametrize(("kind", "slugs"), SHARED, ids=[kind for kind, _ in SHARED])
def test_the_home_page_shows_each_lessons_own_progress(kind: str, slugs: list[str]) -> None:
    answered, other = slugs[-1], slugs[0]
    lesson = next(c for c in practice(answered, query="", lang="en", clock=Clock()).children
                  if isinstance(c, DrillPlayer) and c.kind == kind)
    answer(lesson, right=True)
    course = CourseMap(lang="en", query="")
    send(course, {"type": "sync", "progress": lesson.progress_json})
    assert "1 answered" in _line(course.html, answered) and "1 answered" not in _line(course.html, other)


def _line(html: str, slug: str) -> str:
    start = html.index(f'data-lesson="{slug}"')
    return html[start:html.index("</li>", start)]


def test_the_counts_a_lesson_keeps_are_its_own() -> None:
    clock = Clock()
    welcome = DrillPlayer(KIND, lesson="00-welcome", clock=clock)
    answer(welcome, right=True)
    following = DrillPlayer(KIND, lesson=LESSON, clock=clock)
    send(following, {"type": "sync", "progress": welcome.progress_json})
    assert following.stats["streak"] == 0 and welcome.stats["streak"] == 1
    kept = Counter(name for name, _ in Progress.from_json(welcome.progress_json).kinds)
    assert kept == Counter({"00-welcome/follow": 1})
