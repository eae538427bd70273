"""Lesson 10's table on a phone (390 × 844, touch, Chromium), served as ``./dev serve``
serves it: after the deal the trick (the seats), the hand and Play are on one screen; every
target is at least 44 px; nothing is wider than the screen; the verdict on a play is in view
when it comes; a whole hand is played by touch to the score, which is in view at the end,
and the log numbers its lines by their place in the hand. In English and in 简体 (the
lesson's link's ``lang=``). Screenshots: ``test-artifacts/test_phone-<language>-<moment>.png``.

The expected hand is worked out on the Python side first (the same seeded table, the
learner's moves a level-1 computer player's), so the page must end with exactly its score."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("anywidget")

from conftest import ARTIFACTS

from tutor.play.strategy import ComputerPlayer
from tutor.rules.game import Bury, Call, Phase, Play, Solo
from widgets.table import Table

LESSON = "10-play.ipynb"
PHONE = {"width": 390, "height": 844}
TARGET = 44
"""The smallest touch target, in CSS px (WCAG 2.5.5, Apple's and Google's guidelines)."""


def _script(seed: int) -> tuple[Table, list[tuple[str, list[str]]]] | None:
    """The hand the page will play: the learner never declares (the page stops no deal),
    and acts as a level-1 computer player in its seat would. None unless the learner only
    plays (not the declarer) and first follows a lead (so that Play with no card is refused
    by W1)."""
    table = Table(seed, pause_ms=0, deal_ms=0, stop_to_declare=False)
    me = ComputerPlayer(0, seed, table.rules, level=1)
    moves: list[tuple[str, list[str]]] = []
    while table.run() != "done":
        view = table.game.view(0)
        if not moves and (table.game.declarer == 0 or not view.trick):
            return None
        action = me.act(view)
        if isinstance(action, Play):
            moves.append(("play", [str(c) for c in action.cards]))
            refused = table.play(action.cards)
        elif isinstance(action, (Bury, Call, Solo)):
            return None
        else:
            raise AssertionError(f"the learner's move is {action!r}")
        assert not refused, refused
    return table, moves


def _seed() -> tuple[int, Table, list[tuple[str, list[str]]]]:
    for seed in range(1, 60):
        found = _script(seed)
        if found is not None:
            return seed, *found
    raise AssertionError("no seed has the learner only playing")


SEED, EXPECTED, MOVES = _seed()


@pytest.fixture()
def phone(browser: Any) -> Any:
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2,
                              locale="en-GB")
    ctx.set_default_timeout(30_000)
    try:
        yield ctx
    finally:
        for page in ctx.pages:
            try:  # unload the page first, so the kernel's shutdown call is made
                page.goto("about:blank")
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        ctx.close()


def _shot(page: Any, language: str, moment: str) -> None:
    """What the learner sees on the phone's screen now."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"test_phone-{language}-{moment}.png"))


def _version(page: Any) -> int:
    return int(page.locator("[data-qd=table]").get_attribute("data-version") or 0)


def _wait_learner(page: Any, after: int) -> str:
    page.wait_for_function(
        """after => { const t = document.querySelector('[data-qd=table]');
           return Number(t.dataset.version) > after && ['learner', 'done'].includes(t.dataset.waiting); }""",
        arg=after, timeout=60_000)
    return str(page.locator("[data-qd=table]").get_attribute("data-waiting"))


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not shown"
    return dict(box)


def _in_view(box: dict[str, float]) -> bool:
    return box["y"] >= -1 and box["y"] + box["height"] <= PHONE["height"] + 1


def _too_wide(page: Any) -> list[str]:
    """Every element drawn past the screen's left or right edge (or a scroller wider than
    the screen), named for the message."""
    found: list[str] = page.evaluate("""() => {
        const width = window.innerWidth, out = [];
        for (const e of document.body.querySelectorAll('*')) {
          const r = e.getBoundingClientRect();
          if (!r.width || !r.height || e.closest('.qd-sr')) continue;
          if (r.left < -1 || r.right > width + 1)
            out.push(`${e.tagName}.${e.className} ${Math.round(r.left)}–${Math.round(r.right)}`);
          if (e.scrollWidth > e.clientWidth + 1 && /(auto|scroll)/.test(getComputedStyle(e).overflowX))
            out.push(`${e.tagName}.${e.className} scrolls sideways (${e.scrollWidth} > ${e.clientWidth})`);
        }
        const page = document.scrollingElement;
        if (page.scrollWidth > page.clientWidth + 1) out.push(`the page is ${page.scrollWidth} px wide`);
        return out.slice(0, 10);
    }""")
    return found


def _small_targets(page: Any, root: str = "[data-qd=table]") -> list[str]:
    """Every control in ``root`` (the table, or every drill) smaller than TARGET px either way:
    the hand's cards, the buttons, the choices (a checkbox or radio is tapped through its
    label), the disclosures."""
    found: list[str] = page.evaluate("""([size, root]) => {
        const out = [];
        const targets = [...document.querySelectorAll(root)].flatMap(r => [...r.querySelectorAll(['.qd-option', 'button', 'select', 'summary', 'input[type=text]',
          'label:has(input[type=checkbox])', 'label:has(input[type=radio])', 'label.qd-button'].join(', '))]);
        for (const e of targets) {
          const r = e.getBoundingClientRect();
          if (!r.width || !r.height) continue;  // not shown now
          if (r.width < size - 0.5 || r.height < size - 0.5)
            out.push(`${e.tagName}.${e.className} "${(e.textContent || '').trim().slice(0, 20)}" `
              + `${r.width.toFixed(1)}×${r.height.toFixed(1)}`);
        }
        return out.slice(0, 10);
    }""", [TARGET, root])
    return found


def _scroll_to(page: Any, selector: str) -> None:
    """The learner scrolls so that ``selector`` is at the top of the screen."""
    page.locator(selector).evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(100)


def _tap_cards(page: Any, cards: list[str]) -> None:
    for card in cards:
        page.locator(f'[data-qd=hand] .qd-option[data-card="{card}"][aria-selected=false]').first.tap()


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_lesson_10_plays_on_a_phone(phone: Any, lessons_server: Any, language: str) -> None:
    page = phone.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(lessons_server.url(LESSON, f"seed={SEED}&lang={language}"))
    table = page.locator("[data-qd=table]")
    table.locator("[data-qd=seat]").first.wait_for(timeout=90_000)
    assert table.get_attribute("lang") == language
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    page.select_option("[data-qd=deal-speed]", "0")
    page.select_option("[data-qd=bot-speed]", "0")
    page.locator("[data-qd=stop-to-declare]").uncheck()
    assert _wait_learner(page, 0) == "learner"
    version = _version(page)

    # After the deal: the trick, the hand and Play on one screen, the learner's first trick.
    _scroll_to(page, "[data-qd=seats]")
    boxes = {name: _box(page, f"[data-qd={name}]") for name in ("seats", "hand", "play")}
    top = min(box["y"] for box in boxes.values())
    bottom = max(box["y"] + box["height"] for box in boxes.values())
    assert bottom - top <= PHONE["height"], boxes
    assert all(_in_view(box) for box in boxes.values()), boxes
    assert page.locator("[data-qd=hand] .qd-option").count() >= 20
    assert not _small_targets(page), _small_targets(page)
    assert not _too_wide(page), _too_wide(page)
    _shot(page, language, "dealt")

    # Play with no card picked, Play at the screen's bottom edge: refused (W1), the verdict
    # in view when it comes (it is drawn below Play).
    page.locator("[data-qd=play]").evaluate("e => e.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(100)
    page.locator("[data-qd=play]").tap()
    verdict = page.locator("[data-qd=feedback][data-result=refused]")
    verdict.wait_for(timeout=10_000)
    assert verdict.locator("[data-qd=rule]").inner_text().endswith("W1")
    page.wait_for_timeout(150)  # the verdict is brought into view in the next frame, if it must be
    assert _in_view(_box(page, "[data-qd=feedback]")), _box(page, "[data-qd=feedback]")
    assert _in_view(_box(page, "[data-qd=play]"))
    assert not _too_wide(page), _too_wide(page)
    _shot(page, language, "refused")
    assert _version(page) == version  # nothing changed

    # The first legal play: the trick it goes into and the hand are still on the screen.
    verb, cards = MOVES[0]
    _tap_cards(page, cards)
    page.locator(f"[data-qd={verb}]").tap()
    _wait_learner(page, version)
    version = _version(page)
    for name in ("seats", "play"):
        assert _in_view(_box(page, f"[data-qd={name}]")), (name, _box(page, f"[data-qd={name}]"))
    assert table.locator("[data-qd=feedback]").is_hidden()
    assert not _small_targets(page), _small_targets(page)
    _shot(page, language, "trick")
    if language != "en":
        assert not errors, errors
        return

    # The whole hand by touch, as worked out in Python: the page ends with its score in view.
    for verb, cards in MOVES[1:]:
        _tap_cards(page, cards)
        page.locator(f"[data-qd={verb}]").tap()
        waiting = _wait_learner(page, version)
        version = _version(page)
        assert table.locator("[data-qd=feedback]").is_hidden(), table.locator("[data-qd=feedback]").inner_text()
    assert waiting == "done"
    assert EXPECTED.game.phase is Phase.FINISHED
    score = table.locator("[data-qd=score]")
    score.wait_for(state="visible")
    assert score.locator("[data-qd=verdict]").inner_text() == EXPECTED.state["score"]["verdict"]
    assert _in_view(_box(page, "[data-qd=score] [data-qd=verdict]")), _box(page, "[data-qd=score] [data-qd=verdict]")
    assert not _too_wide(page), _too_wide(page)
    assert not _small_targets(page), _small_targets(page)
    _shot(page, language, "score")

    # What happened: the last lines of the hand, each numbered by its place in the whole log.
    log = table.locator("[data-qd=log]")
    lines = log.locator("li")
    assert [line.inner_text() for line in lines.all()] == EXPECTED.state["log"]
    assert int(log.evaluate("ol => ol.start")) == EXPECTED.state["log_start"] > 1
    _scroll_to(page, "[data-qd=log]")
    _shot(page, language, "log")
    assert not errors, errors


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_a_lessons_drills_fit_a_phone(phone: Any, lessons_server: Any, language: str) -> None:
    """Lesson 05's drills on the phone: every card, button and level a target of 44 px,
    nothing wider than the screen, and a card picked by a tap."""
    page = phone.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    page.goto(lessons_server.url("05-following.ipynb", f"lang={language}"))
    drill = page.locator("[data-qd=drill]").first
    drill.locator(".qd-picker .qd-option").first.wait_for(timeout=90_000)
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    assert not _small_targets(page, "[data-qd=drill]"), _small_targets(page, "[data-qd=drill]")
    assert not _too_wide(page), _too_wide(page)
    card = drill.locator(".qd-picker .qd-option").first
    card.scroll_into_view_if_needed()
    card.tap()
    assert card.get_attribute("aria-selected") == "true"
    _shot(page, language, "drill")
