"""Every kind of page audited by axe-core for WCAG 2.1 A and AA (``axe.py``): served and static,
in the three languages, after answering and mid-hand. No page may have a critical or serious
violation; the moderate and minor ones found are written to ``test-artifacts/a11y-*.json`` (and
listed in the README).

Each language audits a few pages, every kind of page in at least one: the home page (the
course map), a lesson after its first drill was answered, lesson 09 (the score's controls),
lesson 10's table and the tables' (their deal under way), the teacher's page, the positions
page, the printable sheet and the tables' lobby. English audits every kind; each Chinese one
the home page, an answered lesson and the tables (served) — the words differ, the page is
the same; a phone (English) the home page and two lessons, and the tables.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from axe import Violation, audit, blocking
from static_serve import StaticSite
from voila_serve import REPO, VoilaServer

from tools.static_site import lesson_page

pytestmark = pytest.mark.slow

ARTIFACTS = REPO / "test-artifacts"
PAGE_TIMEOUT = 120_000
EVERY_KIND = ("index", "05-following", "09-scoring", "10-play", "teacher", "positions", "sheet")
"""The notebooks English audits (the tables besides, when served)."""
SOME = ("index", "05-following")
"""The notebooks each Chinese language audits."""
ON_A_PHONE = ("index", "05-following", "09-scoring")
"""The notebooks a phone audits (in English)."""
PHONE = {"width": 390, "height": 844}

READY = {
    "index": "[data-qd=course] li",
    "teacher": ".qd-class",
    "positions": "textarea",
    "sheet": ".qd-sheet-key",
    "10-play": "[data-qd=table] [data-qd=seat]",
}
"""What shows once a page without a lesson's drills is drawn."""
QUERY = {"sheet": "lesson=05-following&seed=3&level=2"}
"""A page's link beyond its language (the sheet of a lesson, its key printed)."""

DRILLS_READY = """() => {
  const drills = [...document.querySelectorAll('[data-qd=drill]')];
  return drills.length > 0 && drills.every((d) => d.querySelector('[data-qd=answer]').children.length > 0
    && !d.querySelector('[data-qd=check]').disabled);
}"""


def _ready(page: Any, slug: str) -> None:
    if slug in READY:
        page.wait_for_selector(READY[slug], timeout=PAGE_TIMEOUT)
    else:
        page.wait_for_function(DRILLS_READY, timeout=PAGE_TIMEOUT)


def _cards_dealt(page: Any) -> None:
    """Wait until the deal is under way: cards in the learner's hand (the deal may stop at
    the first for the learner to declare)."""
    page.wait_for_function("() => document.querySelectorAll('[data-qd=hand] .qd-option').length > 0",
                           timeout=PAGE_TIMEOUT)


def _answer_first(page: Any) -> None:
    """Answer the page's first drill as a hurried learner would (any answer): its feedback shown."""
    drill = page.locator("[data-qd=drill]").first
    choice = drill.locator("button.qd-choice")
    if choice.count():
        choice.first.click()
    elif drill.locator("[data-qd=number]").count():
        drill.locator("[data-qd=number]").fill("1")
    else:
        drill.locator(".qd-option").first.click()
    drill.locator("[data-qd=check]").click()
    drill.locator("[data-qd=feedback]:not([hidden])").wait_for(timeout=30_000)


class Audits:
    """What each page audited broke, kept for the artifact and the test's verdict."""

    def __init__(self, name: str, screenshot: Any) -> None:
        self.name, self.screenshot = name, screenshot
        self.pages: dict[str, list[Violation]] = {}

    def add(self, label: str, page: Any) -> None:
        """Audit ``page``, and keep a screenshot of the whole of it (``test-artifacts``)."""
        self.pages[label] = audit(page, lambda tall: self.screenshot(tall, label))

    def verdict(self) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        found = {label: [{"rule": v.rule, "impact": v.impact, "help": v.help, "nodes": len(v.targets),
                          "targets": list(v.targets[:5])} for v in violations]
                 for label, violations in self.pages.items()}
        (ARTIFACTS / f"a11y-{self.name}.json").write_text(json.dumps(found, indent=1, ensure_ascii=False), "utf-8")
        bad = {label: [str(v) for v in blocking(violations)] for label, violations in self.pages.items()}
        bad = {label: found for label, found in bad.items() if found}
        assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)


@contextmanager
def offline(browser: Any, phone: bool) -> Iterator[Any]:
    """A fresh profile, a desktop's window or a phone's, whose requests off this machine are refused."""
    context = browser.new_context(viewport=PHONE if phone else {"width": 1100, "height": 900}, is_mobile=phone,
                                  has_touch=phone, locale="en-GB")
    context.set_default_timeout(30_000)
    context.route(re.compile(r"^(?!https?://127\.0\.0\.1[:/]|data:|blob:).*"), lambda route: route.abort())
    try:
        yield context
    finally:
        for page in context.pages:
            try:
                page.goto("about:blank")
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        context.close()


def _visit(context: Any, url: str, slug: str, audits: Audits, label: str) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT)
    _ready(page, slug)
    if slug not in READY:
        _answer_first(page)
    elif slug == "10-play":
        _cards_dealt(page)
    audits.add(label, page)
    assert not errors, (label, errors)
    page.goto("about:blank")
    page.close()


RUNS = [("en", False), ("zh-Hans", False), ("zh-Hant", False), ("en", True)]
"""Each language on a desktop's window; English on a phone too."""
RUN_IDS = ["en", "zh-Hans", "zh-Hant", "phone"]


def _slugs(language: str, phone: bool) -> tuple[str, ...]:
    return ON_A_PHONE if phone else EVERY_KIND if language == "en" else SOME


@pytest.mark.parametrize("language, phone", RUNS, ids=RUN_IDS)
def test_served_pages_have_no_serious_violation(language: str, phone: bool, browser: Any,
                                                lessons_server: VoilaServer, screenshot: Any) -> None:
    audits = Audits(f"served-{language}{'-phone' if phone else ''}", screenshot)
    with offline(browser, phone) as context:
        for slug in _slugs(language, phone):
            query = "&".join(q for q in (f"lang={language}", QUERY.get(slug)) if q)
            _visit(context, lessons_server.url(f"{slug}.ipynb", query), slug, audits, slug)
        # the tables: the lobby, then a table of one learner and four computers, its deal under way
        page = context.new_page()
        page.goto(f"{lessons_server.base}/tables/?lang={language}")
        page.wait_for_selector("[data-qd=open-form]")
        audits.add("tables-lobby", page)
        page.fill("[data-qd=name]", "Ana")
        page.click("[data-qd=open]")
        page.wait_for_selector("[data-qd=table] [data-qd=seat]")
        page.click("[data-qd=start]")
        _cards_dealt(page)
        audits.add("tables-mid-hand", page)
    audits.verdict()


@pytest.mark.parametrize("language, phone", RUNS, ids=RUN_IDS)
def test_static_pages_have_no_serious_violation(language: str, phone: bool, browser: Any, site: StaticSite,
                                                screenshot: Any) -> None:
    audits = Audits(f"static-{language}{'-phone' if phone else ''}", screenshot)
    with offline(browser, phone) as context:
        for slug in _slugs(language, phone):
            query = f"?{QUERY[slug]}" if slug in QUERY else ""
            _visit(context, f"{site.base}/{lesson_page(language, slug)}{query}", slug, audits, slug)
    audits.verdict()
