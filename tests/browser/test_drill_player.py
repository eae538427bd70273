"""The drill player in a real browser against a real Voila server: pick cards by mouse
and by keyboard, check, read the feedback; progress survives a reload; tampered answers
and tampered progress get a message. Expected verdicts are asked of tutor (the same
seeded drill the page's kernel makes)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tutor.teach.drills import AnswerKind, Drill, generate
from tutor.teach.drills.progress import Progress

KIND = "follow"
NOTEBOOK = "drill_player.ipynb"
FEEDBACK = "[data-qd=feedback]"
STORE = "qidong-tutor/progress/v1"
# The Voila lab template itself links Font Awesome from a CDN; nothing else may be fetched.
VOILA_TEMPLATE_CDN = re.compile(r"^https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@")


def _seed() -> int:
    """A single-card follow drill with right and wrong picks (asked of tutor)."""
    for seed in range(100):
        drill = generate(KIND, seed, 1)
        if drill.answer is AnswerKind.CARDS and drill.pick == 1 and _wrong(drill):
            return seed
    raise AssertionError("no suitable drill")


def _held(drill: Drill) -> list[str]:
    return [str(c) for c in drill.trump.sorted(drill.hand)]


def _right(drill: Drill) -> str:
    return next(c for c in _held(drill) if drill.check([c]).correct)


def _wrong(drill: Drill) -> str | None:
    return next((c for c in _held(drill) if drill.check([c]).error is None and not drill.check([c]).correct), None)


SEED = _seed()
DRILL = generate(KIND, SEED, 1)


def _open(context: Any, server: Any, query: str = f"kind={KIND}&seed={SEED}&level=1") -> tuple[Any, list[str]]:
    page = context.new_page()
    outside: list[str] = []

    def route(r: Any) -> None:  # offline: nothing leaves the machine
        outside.append(r.request.url)
        r.abort()

    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), route)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url(NOTEBOOK, query))
    page.wait_for_selector("[data-qd=drill] .qd-option", timeout=60_000)
    assert not errors, errors
    return page, outside


def _option(page: Any, card: str, nth: int = 0) -> Any:
    return page.locator(f'.qd-option[data-card="{card}"]').nth(nth)


def _feedback(page: Any, result: str) -> Any:
    box = page.locator(FEEDBACK)
    box.and_(page.locator(f'[data-result="{result}"]')).wait_for(timeout=20_000)
    return box


def _streak(page: Any) -> str:
    return str(page.locator("[data-qd=streak]").get_attribute("data-value"))


def test_mouse_check_reload_and_tampered_answer(context: Any, voila_server: Any, screenshot: Any) -> None:
    page, outside = _open(context, voila_server)
    assert page.locator("[data-qd=question]").inner_text() == DRILL.question
    assert [o.get_attribute("data-card") for o in page.locator(".qd-option").all()] == _held(DRILL)

    right = _right(DRILL)
    _option(page, right).click()
    assert _option(page, right).get_attribute("aria-selected") == "true"
    page.click("[data-qd=check]")
    box = _feedback(page, "right")
    expected = DRILL.check([right])
    assert expected.rule in box.locator("[data-qd=rule]").inner_text()
    assert box.locator("[data-qd=reason]").inner_text() == expected.message
    assert page.locator("[data-qd=check]").is_disabled()
    page.wait_for_function(f"document.querySelector('[data-qd=streak]').dataset.value === '1'")
    timings = page.evaluate("window.__qdTimings")
    assert len(timings) == 1 and 0 < timings[0]["ms"] < 2000
    screenshot(page, "right")

    stored = page.evaluate(f"localStorage.getItem({json.dumps(STORE)})")
    assert Progress.from_json(stored).kind(KIND).streak == 1

    page.reload()  # progress lives in the browser: the new kernel gets it on load
    page.wait_for_selector("[data-qd=drill] .qd-option", timeout=60_000)
    page.wait_for_function("document.querySelector('[data-qd=streak]').dataset.value === '1'")

    # Tampered answer: a card the hand does not hold, put in the page by hand.
    missing = next(c for c in ("BJ", "SJ", "♠A", "♥A", "♣A", "♦A") if c not in _held(DRILL))
    page.evaluate(f"document.querySelector('.qd-option').dataset.card = {json.dumps(missing)}")
    page.locator(".qd-option").first.click()
    page.click("[data-qd=check]")
    box = _feedback(page, "error")
    assert missing in box.inner_text() and "Traceback" not in page.content()
    assert not page.locator("[data-qd=check]").is_disabled()  # still answering
    screenshot(page, "tampered-answer")

    # Wrong count: two cards where one is asked for.
    page.locator(".qd-option").first.click()
    page.locator(".qd-option").nth(1).click()
    page.locator(".qd-option").nth(2).click()
    page.click("[data-qd=check]")
    page.wait_for_function("window.__qdTimings.length === 2")
    assert page.locator(FEEDBACK).get_attribute("data-result") == "error"
    assert "pick exactly one card; you picked 2" in page.locator(FEEDBACK).inner_text()
    assert _streak(page) == "1"
    assert all(VOILA_TEMPLATE_CDN.match(url) for url in outside), outside


def test_keyboard_wrong_retry_right(context: Any, voila_server: Any, screenshot: Any) -> None:
    page, _ = _open(context, voila_server)
    held = _held(DRILL)
    wrong, right = _wrong(DRILL), _right(DRILL)
    assert wrong is not None
    page.locator(".qd-option").first.focus()

    def walk_to(index: int) -> None:
        page.keyboard.press("Home")
        for _ in range(index):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.index") == str(index)

    walk_to(held.index(wrong))
    page.keyboard.press("Space")
    assert _option(page, wrong).get_attribute("aria-selected") == "true"
    assert "selected" in page.locator("[data-qd=announce]").inner_text()
    page.keyboard.press("Enter")  # Enter checks
    box = _feedback(page, "wrong")
    expected = DRILL.check([wrong])
    assert box.locator("[data-qd=rule]").inner_text().endswith(expected.rule)
    assert box.locator("[data-qd=reason]").inner_text() == expected.message
    assert page.evaluate("document.activeElement.dataset.qd") == "retry"
    screenshot(page, "wrong")
    token = page.locator("[data-qd=drill]").get_attribute("data-token")

    page.keyboard.press("Enter")  # Retry: same drill, nothing re-dealt
    page.locator(FEEDBACK).wait_for(state="hidden")
    assert page.locator("[data-qd=drill]").get_attribute("data-token") == token
    assert page.locator('.qd-option[aria-selected="true"]').count() == 0
    page.locator(".qd-option").first.focus()
    walk_to(held.index(right))
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    _feedback(page, "right")
    assert _streak(page) == "0"  # the retry is practice: the first answer counted


def test_tampered_progress_and_reset(context: Any, voila_server: Any, screenshot: Any) -> None:
    page, _ = _open(context, voila_server)
    good = json.loads(Progress().to_json())
    good["kinds"] = {KIND: [3, 3, 3, 0], "ruff": ["x", -1]}
    tampered = json.dumps(good)
    kept, problem = Progress.from_json_lenient(tampered)
    assert problem and kept.kind(KIND).streak == 3
    page.evaluate(f"localStorage.setItem({json.dumps(STORE)}, {json.dumps(tampered)})")
    page.reload()
    page.wait_for_selector("[data-qd=drill] .qd-option", timeout=60_000)
    note = page.locator("[data-qd=note]")
    note.wait_for(state="visible")
    assert "ruff" in note.inner_text()
    page.wait_for_function("document.querySelector('[data-qd=streak]').dataset.value === '3'")
    stored = page.evaluate(f"localStorage.getItem({json.dumps(STORE)})")
    assert stored == kept.to_json()  # what was valid is kept, cleaned
    screenshot(page, "tampered-progress")

    page.click("[data-qd=reset]")  # the widget asks first
    page.locator("[data-qd=confirm]").wait_for(state="visible")
    page.click("[data-qd=reset-no]")
    assert _streak(page) == "3"
    page.click("[data-qd=reset]")
    page.click("[data-qd=reset-yes]")
    page.wait_for_function("document.querySelector('[data-qd=streak]').dataset.value === '0'")
    page.wait_for_function(f"localStorage.getItem({json.dumps(STORE)}) === {json.dumps(Progress().to_json())}")


def test_dark_theme_and_four_colours(context: Any, voila_server: Any, screenshot: Any) -> None:
    page, _ = _open(context, voila_server, f"kind={KIND}&seed={SEED}&level=1&four=1&theme=dark")
    assert page.evaluate("document.body.dataset.jpThemeLight") == "false"
    face = page.evaluate("getComputedStyle(document.querySelector('.qd-card')).backgroundColor")
    channels = [int(v) for v in re.findall(r"\d+", face)[:3]]
    assert max(channels) < 100, face  # a dark face with light ink, not a white card on a dark page
    colours = page.evaluate("""[...new Set([...document.querySelectorAll('.qd-option .qd-card')]
        .filter(c => !c.classList.contains('qd-joker'))
        .map(c => [...c.classList].find(k => /^qd-[shcd]$/.test(k)) + ' ' + getComputedStyle(c).color))]""")
    by_suit = {entry.split(" ", 1)[0]: entry.split(" ", 1)[1] for entry in colours}
    assert len(set(by_suit.values())) == len(by_suit), by_suit  # four colours: each suit its own
    screenshot(page, "dark-four-colour")
