"""Learn from your mistakes, in a real browser on the served course (lesson 10, Voila): a
finished hand with costly plays is opened from its hand file, the coach reviews it, and the
table replays the same deal to each costly decision: the same costly play again is not
accepted, an illegal one is refused with its rule, the coach's best is accepted; "Show the
answer", "Skip", the summary; then the same deal again from a trick, and "Who is the
friend?" on request. Every expected word is asked of the Python side first (the same hand,
the same table). The review's and a retry's time are measured in the page."""

from __future__ import annotations

import re
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the careless learner

from test_learn_from_mistakes import SEED, careless_hand  # noqa: E402

from tutor.rules.refusal import play_refusal  # noqa: E402
from widgets.table import Table  # noqa: E402


def _expected() -> tuple[str, Table]:
    table = careless_hand(SEED)
    record = table.export()
    table.review_play()
    return record, table


def open_hand(context: Any, server: Any, record: str) -> tuple[Any, list[str]]:
    """Lesson 10 in a new page of ``context``, offline, the finished hand of the hand file
    ``record`` loaded and its score shown; and the page's script errors, as they come."""
    context.set_default_timeout(90_000)
    page = context.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url("10-play.ipynb", f"seed={SEED}"))
    page.wait_for_selector("[data-qd=table] [data-qd=seat]", timeout=180_000)
    page.select_option("[data-qd=bot-speed]", "0")
    page.select_option("[data-qd=deal-speed]", "0")
    page.set_input_files("[data-qd=import]", files=[{"name": "careless.txt", "mimeType": "text/plain",
                                                    "buffer": record.encode("utf-8")}])
    page.locator("[data-qd=score]").wait_for(state="visible", timeout=30_000)
    return page, errors


def _pick(page: Any, positions: list[int]) -> None:
    """Pick exactly the cards at ``positions`` of the hand (by mouse), as a learner does."""
    for option in page.locator("[data-qd=hand] .qd-option[aria-selected=true]").all():
        option.click()
    for i in positions:
        page.click(f"[data-qd=hand] .qd-option[data-index='{i}']")
    want = ",".join(map(str, sorted(positions)))
    page.wait_for_function(f"document.querySelector('[data-qd=hand]').dataset.selected === '{want}'")


def _said(page: Any) -> str:
    return page.locator("[data-qd=mistake-said]").inner_text()


def _ms(page: Any, start: float) -> float:
    return float(page.evaluate("performance.now()")) - start


@pytest.mark.parametrize("served", ["lessons_server", "site"], ids=["served", "static"])
def test_learn_from_mistakes(served: str, context: Any, request: pytest.FixtureRequest, screenshot: Any) -> None:
    """Both ways of serving the course: Voila (``lessons_server``) and the static site (``site``, Pyodide)."""
    server = request.getfixturevalue(served)
    RECORD, EXPECTED = _expected()  # noqa: N806 - the hand and the table the page must match
    page, errors = open_hand(context, server, RECORD)

    # The review, then "Learn from your mistakes".
    start = page.evaluate("performance.now()")
    page.click("[data-qd=coach-review]")
    page.locator("[data-qd=coach-heading]").wait_for(timeout=60_000)
    review_ms = _ms(page, start)
    assert page.inner_text("[data-qd=coach-heading]") == EXPECTED.state["coach"]["heading"]
    page.click("[data-qd=learn]")
    box = page.locator("[data-qd=mistakes]")
    box.wait_for(state="visible")
    send = EXPECTED._handle
    send("mistakes", {})
    mistakes = EXPECTED.state["mistakes"]
    assert page.inner_text("[data-qd=mistake-text]") == mistakes["text"]
    assert box.get_attribute("data-number") == "1" and box.get_attribute("data-status") == "trying"
    assert page.locator("[data-qd=hint]").is_hidden()  # the answer is the learner's to find, or to ask for
    screenshot(page, "mistake")
    # On a 390 × 844 phone the mistake, its buttons and the hand fit the width of the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("document.querySelector('[data-qd=mistakes]').getBoundingClientRect().width <= 390")
    for qd in ("mistakes", "retry-answer", "retry-skip", "retry-leave", "play"):
        right = page.evaluate(f"document.querySelector('[data-qd={qd}]').getBoundingClientRect().right")
        assert right <= 390, (qd, right)
    screenshot(page, "mistake-phone")
    page.set_viewport_size({"width": 1100, "height": 900})

    # The same costly play again: not accepted.
    decision = EXPECTED.session.retrying.decision if EXPECTED.session.retrying else None
    assert decision is not None
    _pick(page, EXPECTED.positions_of(list(decision.played)))
    page.click("[data-qd=play]")
    page.wait_for_function("document.querySelector('[data-qd=mistake-said]').innerText.includes('still costs')",
                           timeout=90_000)
    EXPECTED.try_again(decision.played)
    assert _said(page).splitlines()[0] == EXPECTED.state["mistakes"]["said"][0]
    assert box.get_attribute("data-status") == "trying"

    # An illegal try: the rules' refusal, with its rule.
    view = decision.view
    assert view.trump is not None
    illegal = next(list(c) for size in (len(decision.played), len(decision.played) + 1)
                   for c in combinations(range(len(view.hand)), size)
                   if play_refusal(view.hand, view.trick, view.forced_options,
                                   [EXPECTED.order[i] for i in c], view.trump, EXPECTED.rules) is not None)
    refusal = play_refusal(view.hand, view.trick, view.forced_options, [EXPECTED.order[i] for i in illegal],
                           view.trump, EXPECTED.rules)
    assert refusal is not None
    _pick(page, illegal)
    page.click("[data-qd=play]")
    verdict = page.locator("[data-qd=feedback][data-result=refused]")
    verdict.wait_for(timeout=10_000)
    assert verdict.locator("[data-qd=rule]").inner_text() == f"Rule {refusal.rule}"
    assert box.get_attribute("data-status") == "trying"

    # The coach's best: accepted.
    best = decision.found.best.play
    _pick(page, EXPECTED.positions_of(list(best)))
    start = page.evaluate("performance.now()")
    page.click("[data-qd=play]")
    page.wait_for_function("document.querySelector('[data-qd=mistakes]').dataset.status === 'found'")
    retry_ms = _ms(page, start)
    assert "well found" in _said(page)
    assert page.locator("[data-qd=feedback]").is_hidden()
    screenshot(page, "found")

    # The next: show the answer; the next: skip; … the summary.
    page.click("[data-qd=retry-next]")
    page.wait_for_function("document.querySelector('[data-qd=mistakes]').dataset.number === '2'")
    page.click("[data-qd=retry-answer]")
    page.wait_for_function("document.querySelector('[data-qd=mistakes]').dataset.status === 'shown'")
    assert "the coach's answer is" in _said(page)
    count = mistakes["count"]
    page.click("[data-qd=retry-next]")
    for number in range(3, count + 1):
        page.wait_for_function(f"document.querySelector('[data-qd=mistakes]').dataset.number === '{number}'")
        page.keyboard.press("Tab")  # the buttons are reached by keyboard as well
        page.focus("[data-qd=retry-skip]")
        page.keyboard.press("Enter")
    summary = page.locator("[data-qd=mistakes-summary]")
    summary.wait_for(timeout=30_000)
    assert summary.inner_text().startswith("Learn from your mistakes (advice, not rules): you found a good play "
                                           f"yourself in 1 of {count} positions; the answer was shown in 1, and "
                                           f"{count - 2} skipped.")
    assert box.is_hidden()
    screenshot(page, "summary")

    # The same deal again from trick 1 (the learner in the same seat), and who is the friend.
    page.click("[data-qd=review] summary")
    page.click("[data-qd=replay-from][data-n='1']")
    page.wait_for_function("document.querySelector('[data-qd=table]').dataset.waiting === 'learner'", timeout=30_000)
    assert page.locator("[data-qd=score]").is_hidden()
    odds = page.locator("[data-qd=friend-odds]")
    assert odds.is_visible()
    start = page.evaluate("performance.now()")
    odds.click()
    page.wait_for_function("document.querySelector('[data-qd=hint-text]').innerText.startsWith('Advice, not a rule')")
    friend_ms = _ms(page, start)
    said = page.inner_text("[data-qd=hint-text]")
    assert "the friend is" in said and "Each seat's chance of holding the other" in said
    screenshot(page, "friend")
    assert not errors, errors
    assert "Traceback" not in page.content()
    print(f"\n{served}: the coach's review: {review_ms:.0f} ms; a retry weighed: {retry_ms:.0f} ms; "
          f"who is the friend: {friend_ms:.0f} ms")
    page.goto("about:blank")
    page.close()
