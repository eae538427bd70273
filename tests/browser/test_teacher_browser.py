"""The teacher's tools in a real browser against the course served by a real Voila: a
position link opens its drill with the given cards and judges a wrong and a right
answer (verdicts asked of tutor, the same drill the page's kernel makes); a bad link
gets a note and the page's form still works; a lesson's sheet prints, with the answer
key on a page of its own and no control printed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from tutor.teach.drills import Drill
from tutor.teach.positions import make_link
from tutor.teach.sheets import make_sheet

POSITION = "kind: follow\ntrump: ♥\nleader: 3\nlead: ♠K ♠K\nhand: ♠3 ♠3 ♠5 ♥2 ♣A"
FEEDBACK = "[data-qd=feedback]"


def _open(context: Any, server: Any, address: str, ready: str) -> tuple[Any, list[str]]:
    page = context.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/voila/render/{address}")
    page.wait_for_selector(ready, timeout=90_000)
    return page, errors


def _answer(page: Any, drill: Drill, cards: list[str], result: str) -> Any:
    seen: dict[str, int] = {}
    for card in cards:
        page.locator(f'.qd-option[data-card="{card}"]').nth(seen.get(card, 0)).click()
        seen[card] = seen.get(card, 0) + 1
    page.wait_for_function(f"document.querySelectorAll('.qd-option[aria-selected=true]').length === {len(cards)}")
    page.click("[data-qd=check]")
    box = page.locator(FEEDBACK)
    box.and_(page.locator(f'[data-result="{result}"]')).wait_for(timeout=30_000)
    expected = drill.check(" ".join(cards))
    assert expected.correct is (result == "right")
    assert box.locator("[data-qd=rule]").inner_text().endswith(expected.rule)
    assert box.locator("[data-qd=reason]").inner_text() == expected.message
    return box


def test_a_position_link_opens_its_drill(context: Any, lessons_server: Any, screenshot: Any) -> None:
    made = make_link(POSITION)
    assert made.href is not None and made.drill is not None
    drill = made.drill
    page, errors = _open(context, lessons_server, made.href, "[data-qd=drill] .qd-option")
    assert page.locator("[data-qd=question]").inner_text() == drill.question
    assert [o.get_attribute("data-card") for o in page.locator(".qd-option").all()] == [str(c) for c in drill.hand]
    assert "teacher's position" in page.locator(".qd-title").first.inner_text()
    assert page.locator("[data-qd=table] tr[data-seat='3']").inner_text().count("K") == 2  # the lead, by seat 3

    box = _answer(page, drill, ["♠3", "♠5"], "wrong")  # a pair is led and a pair is held (W3)
    assert "W3" in box.inner_text()
    screenshot(page, "wrong")
    page.click("[data-qd=retry]")
    page.wait_for_function("!document.querySelector('[data-qd=feedback]').dataset.result")
    _answer(page, drill, ["♠3", "♠3"], "right")
    screenshot(page, "right")
    assert not errors, errors
    assert "Traceback" not in page.content()


def test_a_bad_position_gets_a_note_and_the_form_works(context: Any, lessons_server: Any) -> None:
    bad = quote("kind: follow\ntrump: ♥\nlead: ♠K ♠K\nhand: ♠K ♠3 ♠3")
    page, errors = _open(context, lessons_server, f"positions.ipynb?position={bad}", ".qd-link-note")
    note = page.locator(".qd-link-note").first.inner_text()
    assert "three copies of ♠K" in note and "Traceback" not in page.content()
    assert page.locator("[data-qd=drill]").count() == 0
    page.locator("textarea").fill("kind: trick; trump: ♥; lead: ♦3; played: ♣A / ♦3")
    page.get_by_role("button", name="Make the link").click()
    link = page.locator(".qd-position-link a")
    link.wait_for(timeout=30_000)
    assert link.get_attribute("href") == make_link("kind: trick; trump: ♥; lead: ♦3; played: ♣A / ♦3").href
    page.locator("[data-qd=drill]").wait_for(timeout=30_000)
    assert not errors, errors


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def test_a_lesson_sheet_prints(context: Any, lessons_server: Any, tmp_path: Path) -> None:
    sheet = make_sheet("05-following", seed=3)
    page, errors = _open(context, lessons_server, "sheet.ipynb?lesson=05-following&seed=3", ".qd-sheet-key")
    assert page.locator(".qd-sheet-positions .qd-sheet-question").all_inner_texts() == [
        d.question for d in sheet.drills]
    page.emulate_media(media="print")
    page.screenshot(path=str(tmp_path / "sheet-print.png"), full_page=True)
    assert (tmp_path / "sheet-print.png").stat().st_size > 10_000
    visible = page.evaluate("""() => [...document.querySelectorAll(
        'button, input, select, textarea, .qd-languages')].filter(e => e.getClientRects().length > 0).length""")
    assert visible == 0  # no control is printed
    assert page.locator(".qd-sheet-key").evaluate("e => getComputedStyle(e).breakBefore") == "page"
    whole = page.pdf(path=str(tmp_path / "sheet.pdf"))
    page.add_style_tag(content=".qd-sheet-key{display:none!important}")
    positions = page.pdf()
    page.add_style_tag(content=".qd-sheet-key{display:block!important;break-before:auto!important}"
                       ".qd-sheet-positions{display:none!important}")
    key = page.pdf()
    # The key starts on a page of its own: the whole sheet is exactly the positions' pages and the key's.
    assert _pages(whole) >= 2 and _pages(whole) == _pages(positions) + _pages(key), (
        _pages(whole), _pages(positions), _pages(key))
    assert not errors, errors
