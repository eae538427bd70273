"""Practice that rewards the right thing, in a real browser against the course as
``./dev serve`` serves it (lesson 05, the follow drill player of its practice section): no streak from an answer
the last hint gave away, keyboard focus kept in the drill after Retry and Next, and a
``?level=`` link that applies to its visit only. Expected drills and answers are asked
of tutor (the same seeded drills the page's kernel makes)."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Any

from tutor import parse_cards
from tutor.teach.drills import AnswerKind, Drill, generate
from tutor.teach.drills.progress import Progress, visit_seed
from widgets.drill import STORAGE_KEY

SLUG = "05-following"
KIND = "follow"
PAGE_TIMEOUT = 90_000
PRACTICE = ".qd-practice"
"""The lesson's practice section: quick checks in the lesson's text have drill players too."""
DRILL = f"{PRACTICE} [data-qd=drill]"


def _seed() -> int:
    """A link seed whose lesson opens on a follow drill that picks one card and has a
    readable wrong pick."""
    for seed in range(1, 200):
        drill = generate(KIND, visit_seed(seed, 0, KIND, SLUG), 1)
        if drill.answer is AnswerKind.CARDS and drill.pick == 1 and _wrong(drill) is not None:
            return seed
    raise AssertionError("no suitable drill")


def _held(drill: Drill) -> list[str]:
    return [str(c) for c in drill.trump.sorted(drill.hand)]


def _wrong(drill: Drill) -> Any:
    """A readable wrong answer to ``drill`` (asked of the drill), or None."""
    if drill.answer is AnswerKind.CHOICE:
        return next((c.key for c in drill.choices if not drill.check(c.key).correct), None)
    if drill.answer is AnswerKind.NUMBER:
        return next(str(n) for n in range(200) if not drill.check(n).correct)
    size = drill.pick or 1
    held = _held(drill)
    for start in range(len(held) - size + 1):
        verdict = drill.check(held[start:start + size])
        if verdict.error is None and not verdict.correct:
            return held[start:start + size]
    return None


def _right(drill: Drill) -> Any:
    if drill.answer is AnswerKind.CHOICE:
        return next(c.key for c in drill.choices if drill.check(c.key).correct)
    answers, _ = drill.solutions()
    return answers[0] if drill.answer is AnswerKind.NUMBER else [str(c) for c in parse_cards(answers[0])]


SEED = _seed()


def _open(context: Any, server: Any, query: str = "") -> Any:
    """Open lesson 05 and wait until its drill player has taken the stored progress."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    page.goto(server.url(f"{SLUG}.ipynb", query), wait_until="load", timeout=PAGE_TIMEOUT)
    page.wait_for_selector(f"{DRILL}[data-synced=true] [data-qd=answer] > *", timeout=PAGE_TIMEOUT)
    page.wait_for_function("!document.querySelector('.qd-practice [data-qd=check]').disabled", timeout=PAGE_TIMEOUT)
    assert not errors, errors
    return page


def _close(page: Any) -> None:
    page.goto("about:blank")  # unload: the page's beacon shuts its kernel down
    page.close()


def _give(page: Any, drill: Drill, answer: Any) -> None:
    """Answer through the page, as a learner does, and press Check."""
    if drill.answer is AnswerKind.CARDS:
        taken: dict[str, int] = {}
        for card in answer:  # a pair is two options with the same card: take the next one
            nth = taken.get(card, 0)
            taken[card] = nth + 1
            page.locator(f'.qd-practice .qd-option[data-card="{card}"]').nth(nth).click()
    elif drill.answer is AnswerKind.CHOICE:
        page.locator(f'.qd-practice button.qd-choice[data-key="{answer}"]').click()
    else:
        page.locator(".qd-practice [data-qd=number]").fill(str(answer))
    page.click(".qd-practice [data-qd=check]")


def _result(page: Any, result: str) -> Any:
    box = page.locator(f'.qd-practice [data-qd=feedback][data-result="{result}"]')
    box.wait_for(timeout=20_000)
    return box


def _streak(page: Any) -> str:
    return str(page.locator(".qd-practice [data-qd=streak]").get_attribute("data-value"))


def _stored(page: Any) -> Progress:
    return Progress.from_json(page.evaluate(f"localStorage.getItem({json.dumps(STORAGE_KEY)})"))


def _focus_in_answer(page: Any) -> str:
    """Wait until keyboard focus is in the drill's answer; say where it is."""
    page.wait_for_function(
        "() => { const a = document.activeElement;"
        " return !!a && !!a.closest('.qd-practice [data-qd=drill] [data-qd=answer]'); }", timeout=20_000)
    return str(page.evaluate("document.activeElement.className"))


def _level(page: Any, level: int) -> None:
    """Wait until the player shows ``level``: in its title and its level buttons."""
    page.wait_for_function(
        "(n) => document.querySelector('.qd-practice .qd-title').textContent.endsWith('level ' + n)"
        " && document.querySelector('.qd-practice [data-qd=levels] [aria-pressed=true]').dataset.level === String(n)",
        arg=level, timeout=20_000)


# ---------------------------------------------------------------- tests

def test_no_streak_from_an_answer_the_hint_gave_away(context: Any, lessons_server: Any) -> None:
    drill = generate(KIND, visit_seed(SEED, 0, KIND, SLUG), 1)
    page = _open(context, lessons_server, f"seed={SEED}")
    for shown in range(1, len(drill.hints) + 1):
        page.click(".qd-practice [data-qd=hint]")
        page.wait_for_function("(n) => document.querySelectorAll('[data-qd=hints] li').length === n", arg=shown)
    assert page.locator(".qd-practice [data-qd=hints] li").last.inner_text() == drill.hints[-1]  # the answer itself
    _give(page, drill, _right(drill))
    box = _result(page, "right")
    assert box.locator("[data-qd=helped]").is_visible()
    assert _streak(page) == "0"
    stored = _stored(page).kind(KIND, SLUG)
    assert (stored.attempts, stored.correct, stored.streak) == (1, 0, 0)

    # The next drill (the link's next), found alone: the streak grows.
    page.click(".qd-practice [data-qd=next]")
    following = generate(KIND, visit_seed(SEED, 1, KIND, SLUG), 1)
    page.wait_for_function("(q) => document.querySelector('.qd-practice [data-qd=question]').textContent === q",
                           arg=following.question)
    _give(page, following, _right(following))
    _result(page, "right")
    page.wait_for_function("document.querySelector('.qd-practice [data-qd=streak]').dataset.value === '1'")
    assert page.locator(".qd-practice [data-qd=helped]").count() == 0
    _close(page)


def test_focus_stays_in_the_drill_after_retry_and_next(context: Any, lessons_server: Any) -> None:
    drill = generate(KIND, visit_seed(SEED, 0, KIND, SLUG), 1)
    page = _open(context, lessons_server, f"seed={SEED}")
    _give(page, drill, _wrong(drill))
    box = _result(page, "wrong")
    assert box.locator("[data-qd=try-again]").is_visible()
    assert box.locator(".qd-answers").count() == 0  # a first wrong try gives nothing away
    assert page.evaluate("document.activeElement.dataset.qd") == "retry"
    token = page.locator(DRILL).get_attribute("data-token")

    page.keyboard.press("Enter")  # Retry
    page.locator(".qd-practice [data-qd=feedback]").wait_for(state="hidden")
    assert "qd-option" in _focus_in_answer(page)
    assert page.locator(DRILL).get_attribute("data-token") == token  # the same drill
    page.keyboard.press("End")  # the keyboard works on from there, no Tab needed
    assert page.evaluate("document.activeElement.dataset.index") == str(len(_held(drill)) - 1)

    _give(page, drill, _right(drill))
    _result(page, "right")
    assert page.evaluate("document.activeElement.dataset.qd") == "next"
    page.keyboard.press("Enter")  # Next
    page.wait_for_function("(t) => document.querySelector('.qd-practice [data-qd=drill]').dataset.token !== t", arg=token)
    _focus_in_answer(page)
    _close(page)


def test_wrong_tries_leave_the_answer_to_show_answer(context: Any, lessons_server: Any) -> None:
    """Lesson 05: two, then three wrong tries at one drill, and the answer is still not on the
    page (it used to appear by itself after the second); "Show answer" shows it, and why."""
    drill = generate(KIND, visit_seed(SEED, 0, KIND, SLUG), 1)
    page = _open(context, lessons_server, f"seed={SEED}")
    for _ in range(3):
        _give(page, drill, _wrong(drill))
        box = _result(page, "wrong")
        assert box.locator(".qd-answers").count() == 0 and box.locator("[data-qd=why]").count() == 0
        assert page.locator(".qd-practice [data-qd=reveal]").is_enabled()
        page.click(".qd-practice [data-qd=retry]")
        page.locator(".qd-practice [data-qd=feedback]").wait_for(state="hidden")
    _give(page, drill, _wrong(drill))
    _result(page, "wrong")
    page.click(".qd-practice [data-qd=reveal]")
    answers = page.locator(".qd-practice [data-qd=feedback] .qd-answers li")
    answers.first.wait_for(timeout=30_000)
    assert answers.all_inner_texts() == list(drill.solutions()[0])
    _close(page)


def test_a_level_link_applies_for_that_visit_only(context: Any, lessons_server: Any) -> None:
    page = _open(context, lessons_server)
    _level(page, 1)
    page.click(".qd-practice [data-qd=levels] [data-level='2']")  # the learner's own choice, remembered
    _level(page, 2)
    page.wait_for_function(f"JSON.parse(localStorage.getItem({json.dumps(STORAGE_KEY)})).levels"
                           f"[{json.dumps(SLUG + '/' + KIND)}] === 2")
    _close(page)

    page = _open(context, lessons_server, "level=3")  # a teacher's link
    _level(page, 3)
    stored = _stored(page)
    seed, level = stored.next_drill(KIND, datetime.now(timezone.utc), 3, SLUG)
    drill = generate(KIND, seed, level)
    page.wait_for_function("(q) => document.querySelector('.qd-practice [data-qd=question]').textContent === q",
                           arg=drill.question)
    _give(page, drill, _right(drill))
    _result(page, "right")
    page.wait_for_function("document.querySelector('.qd-practice [data-qd=streak]').dataset.value === '1'")
    after = _stored(page)
    assert after.kind(KIND, SLUG).attempts == 1  # the answer counts …
    assert after.level(KIND, SLUG) == 2  # … but the link's level is not the learner's
    _close(page)

    page = _open(context, lessons_server)  # a later plain visit: the remembered level
    _level(page, 2)
    _close(page)
