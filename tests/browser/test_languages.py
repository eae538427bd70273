"""The course in each language, in a real browser against the real server (``voila lessons``).

For English, Simplified and Traditional Chinese: a teacher's link ``?lang=`` opens a
lesson in that language — the page's ``lang``, its title and text from the lesson's
catalog, the drill's question and the feedback to a wrong answer exactly as the rules
module says them in that language (no English left in the Chinese feedback). The browser
then remembers the language for the next lesson opened without a link parameter, the
switch at the top changes it, and a browser that has chosen nothing gets its own language.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from leaks import english_words

from tutor.teach.drills import AnswerKind, Drill, generate
from tutor.teach.drills.progress import visit_seed
from tutor.core.i18n import Translator
from tutor.teach.localize import lesson_text

SLUG, KIND = "05-following", "follow"
SEED = next(s for s in range(100)  # a link whose lesson opens on a drill played with cards
            if generate(KIND, visit_seed(s, 0, KIND, SLUG), 1).answer is AnswerKind.CARDS)
PAGE_TIMEOUT = 90_000


def _title(slug: str, language: str) -> str:
    """The first heading of a lesson in ``language``, as the catalog says it."""
    import nbformat

    from tools.catalogs import LESSONS

    first = nbformat.read(LESSONS / f"{slug}.ipynb", as_version=4).cells[0]
    text = lesson_text(slug, language).get((first.id, first.source), first.source)
    return text.splitlines()[0].lstrip("# ").strip()


def _wrong_answer(drill: Drill) -> list[str]:
    assert drill.answer is AnswerKind.CARDS and drill.pick is not None
    held = [str(c) for c in drill.hand]
    for combo in itertools.combinations(range(len(held)), drill.pick):
        pick = [held[i] for i in combo]
        feedback = drill.check(pick)
        if feedback.error is None and not feedback.correct:
            return pick
    raise AssertionError("no wrong answer in this hand")


def _open(context: Any, url: str) -> Any:
    page = context.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT)
    return page


def _wait_for_drill(page: Any) -> Any:
    page.wait_for_function("""() => {
        const d = document.querySelector('.qd-practice [data-qd=drill]');
        return d && d.querySelector('[data-qd=answer]').children.length > 0 && !d.querySelector('[data-qd=check]').disabled;
    }""", timeout=PAGE_TIMEOUT)
    return page.locator(".qd-practice [data-qd=drill]").first  # the practice's, not a quick check


def _close(page: Any) -> None:
    page.goto("about:blank")
    page.close()


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_a_lesson_link_opens_in_its_language(language: str, context: Any, lessons_server: Any,
                                             screenshot: Any) -> None:
    page = _open(context, lessons_server.url(f"{SLUG}.ipynb", f"seed={SEED}&lang={language}"))
    drill_el = _wait_for_drill(page)
    assert page.evaluate("document.documentElement.lang") == language
    assert _title(SLUG, language) in page.locator("h1").first.inner_text()
    assert page.locator(".qd-languages [aria-current=page]").get_attribute("lang") == language

    drill = generate(KIND, visit_seed(SEED, 0, KIND, SLUG), 1, lang=language)
    assert drill_el.locator("[data-qd=question]").inner_text() == drill.question
    wrong = _wrong_answer(drill)
    taken: dict[str, int] = {}
    for card in wrong:
        nth = taken.get(card, 0)
        taken[card] = nth + 1
        drill_el.locator(f'.qd-option[data-card="{card}"]').nth(nth).click()
    drill_el.locator("[data-qd=check]").click()
    box = drill_el.locator('[data-qd=feedback][data-result="wrong"]')
    box.wait_for(timeout=20_000)
    expected = drill.check(wrong)
    reason = box.locator("[data-qd=reason]").inner_text()
    assert reason == expected.message
    assert box.locator("[data-qd=rule]").inner_text() == Translator(language)("Rule {rule}", rule=expected.rule)
    if language != "en":
        assert re.search(r"[\u4e00-\u9fff]", reason) and not english_words(reason), reason
        assert not english_words(drill_el.inner_text()), drill_el.inner_text()
    screenshot(page, language)
    _close(page)

    # Remembered: the next lesson, opened without ?lang=, is in the same language.
    page = _open(context, lessons_server.url("04-tractors.ipynb"))
    page.wait_for_selector("h1", timeout=PAGE_TIMEOUT)
    assert page.evaluate("document.documentElement.lang") == language
    assert _title("04-tractors", language) in page.locator("h1").first.inner_text()

    # The switch: one click opens the same page in the next language, and that is remembered.
    other = {"en": "zh-Hans", "zh-Hans": "zh-Hant", "zh-Hant": "en"}[language]
    page.locator(f'.qd-languages a[hreflang="{other}"]').click()
    page.wait_for_function("(l) => document.documentElement && document.documentElement.lang === l", arg=other,
                           timeout=PAGE_TIMEOUT)  # while the next page loads there may be no document element yet
    page.wait_for_selector("h1", timeout=PAGE_TIMEOUT)
    assert _title("04-tractors", other) in page.locator("h1").first.inner_text()
    cookies = {c["name"]: c["value"] for c in context.cookies()}
    assert cookies.get("qd-lang") == other
    _close(page)


@pytest.mark.parametrize(("locale", "language"), [("zh-TW", "zh-Hant"), ("zh-CN", "zh-Hans"), ("de-DE", "en")])
def test_a_new_browser_gets_its_own_language(locale: str, language: str, browser: Any, lessons_server: Any) -> None:
    context = browser.new_context(locale=locale)
    try:
        page = _open(context, lessons_server.url("01-cards.ipynb"))
        page.wait_for_selector("h1", timeout=PAGE_TIMEOUT)
        assert page.evaluate("document.documentElement.lang") == language
        assert _title("01-cards", language) in page.locator("h1").first.inner_text()
        _close(page)
    finally:
        context.close()

