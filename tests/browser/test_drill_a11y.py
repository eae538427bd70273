"""The drill player as a screen reader reads it, in a real browser: every choice is named
by its label alone (the chosen one's bullet is decoration, not part of its name), and the
feedback is read as words — the rule badge, the verdict and the reason apart, not run
together ("Rule M1Right."). Names and text are the browser's accessibility view of the
page (Playwright's ``aria_snapshot`` and accessible-name check), and what the page shows
(``inner_text``); expected texts are asked of tutor."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tutor.teach.drills import AnswerKind, generate

expect = pytest.importorskip("playwright.sync_api").expect

NOTEBOOK = "drill_player.ipynb"
KIND = "tractor"
FEEDBACK = "[data-qd=feedback]"


def _drills() -> tuple[int, int]:
    """Two yes/no tractor drills: one whose answer is No, one whose answer is Yes."""
    found: dict[str, int] = {}
    for seed in range(60):
        drill = generate(KIND, seed, 1)
        if drill.answer is AnswerKind.CHOICE:
            found.setdefault(next(iter(drill.correct)), seed)
    return found["no"], found["yes"]


NO_SEED, YES_SEED = _drills()


def _open(context: Any, server: Any, seed: int) -> Any:
    page = context.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())
    page.goto(server.url(NOTEBOOK, f"kind={KIND}&seed={seed}&level=1"))
    page.wait_for_selector("[data-qd=drill] button.qd-choice", timeout=60_000)
    return page


def _choice(page: Any, key: str) -> Any:
    return page.locator(f'[data-qd=answer] button.qd-choice[data-key="{key}"]')


def _answer(page: Any, key: str, result: str) -> Any:
    choice = _choice(page, key)
    choice.click()
    expect(choice).to_have_attribute("aria-checked", "true")
    page.click("[data-qd=check]")
    box = page.locator(FEEDBACK)
    box.and_(page.locator(f'[data-result="{result}"]')).wait_for(timeout=20_000)
    return box


def _words(text: str) -> str:
    return " ".join(text.split())


def _paragraphs(snapshot: str) -> list[str]:
    """The texts of the paragraphs in an ARIA snapshot (YAML: quoted when they hold a colon)."""
    texts = re.findall(r'^\s*- paragraph: (.*)$', snapshot, re.M)
    return [t[1:-1].replace('\\"', '"') if t.startswith('"') else t for t in texts]


def test_a_chosen_choice_is_named_by_its_label(context: Any, voila_server: Any, screenshot: Any) -> None:
    page = _open(context, voila_server, NO_SEED)
    no = _choice(page, "no")
    expect(no).to_have_accessible_name("No")
    no.click()
    expect(no).to_have_attribute("aria-checked", "true")
    expect(no).to_have_accessible_name("No")  # not "● No"
    expect(no.locator(".qd-choice-mark")).to_be_visible()  # the bullet is still seen
    group = page.locator("[data-qd=answer] [role=radiogroup]").aria_snapshot()
    assert re.search(r'- radio "No" \[checked\]', group), group
    assert re.search(r'- radio "Yes"$', group, re.M), group
    assert "●" not in group, group
    screenshot(page, "chosen")


def test_feedback_is_read_as_words(context: Any, voila_server: Any, screenshot: Any) -> None:
    for seed, result in ((NO_SEED, "right"), (YES_SEED, "wrong")):
        drill = generate(KIND, seed, 1)
        expected = drill.check("no")
        page = _open(context, voila_server, seed)
        box = _answer(page, "no", result)
        spoken = f"Rule {expected.rule} {expected.message}"
        verdict = box.locator(".qd-verdict")
        # What is seen: the icon, then the badge and the message apart.
        assert _words(verdict.inner_text()) == f"{'✓' if expected.correct else '✗'} {spoken}"
        # What is read (the icon is not): the live region's first paragraph, word for word —
        # the verdict once (the message begins with it), apart from the badge.
        snapshot = box.aria_snapshot()
        assert snapshot.startswith("- status:"), snapshot
        assert _paragraphs(snapshot)[0] == spoken, snapshot
        assert "✓" not in snapshot and "✗" not in snapshot, snapshot
        screenshot(page, result)
        page.goto("about:blank")
        page.close()


def test_the_page_shows_no_answer_on_its_cards(context: Any, voila_server: Any, screenshot: Any) -> None:
    """The drills that used to give their answer away, as the browser draws them: lesson
    03's kitty flip (no suit drawn as trumps: only 2s and jokers) and lesson 01's point
    drills (no point badges). The full check of every kind is tests/test_drill_answer_hidden.py."""
    shown = (("declare", 2, "kitty-flip"), ("points", 1, "points-pick"), ("points", 0, "points-count"))
    for kind, seed, label in shown:
        drill = generate(kind, seed, 1)
        page = context.new_page()
        page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())
        page.goto(voila_server.url(NOTEBOOK, f"kind={kind}&seed={seed}&level=1"))
        root = page.locator("[data-qd=drill]")
        root.locator("[data-qd=question]").filter(has_text=drill.question[:20]).wait_for(timeout=60_000)
        drawn = root.locator(".qd-card")
        assert drawn.count() == len(drill.shown) + len(drill.hand)
        if kind == "points":
            assert root.locator(".qd-points").count() == 0
        trumps = root.locator(".qd-card.qd-trump").evaluate_all("cards => cards.map(c => c.dataset.card)")
        assert all(card[-1] == "2" or card in ("BJ", "SJ") for card in trumps), trumps
        screenshot(page, label)
        page.goto("about:blank")
        page.close()


def test_a_pair_is_never_split_between_two_lines(context: Any, voila_server: Any, screenshot: Any) -> None:
    """On a narrow screen every pair a drill's sentences name ("♠J ♠J") stays on one line,
    the text unchanged (common.js keeps each in a span that does not wrap)."""
    page = _open(context, voila_server, NO_SEED)
    page.set_viewport_size({"width": 300, "height": 900})
    _answer(page, "no", "right")
    drill = page.locator("[data-qd=drill]")
    shown = drill.inner_text()
    named = re.findall(r"((?:[♠♥♣♦](?:10|[2-9JQKA])|BJ|SJ)) \1(?![0-9])", shown.replace("\n", " "))
    pairs = drill.locator(".qd-pair")
    assert named and pairs.count() == len(named), (shown, pairs.all_inner_texts())
    assert all(len(set(text.split())) == 1 and len(text.split()) == 2 for text in pairs.all_inner_texts())
    assert [page.evaluate("node => node.getClientRects().length", node) for node in pairs.element_handles()] == \
        [1] * len(named)
    assert "Right. ♠Q ♠J ♠J is not a tractor" in _words(shown)  # the words themselves unchanged
    screenshot(page, "narrow")
