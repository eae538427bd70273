"""The static site's home page is plain HTML and script (``tools/static_site/home.py``): in
headless Chromium with Python refused altogether (every request for Pyodide, a wheel, a
``.wasm`` or the kernel's extension aborted), the lessons and the progress this browser
keeps show at once, in each language, drawn exactly as the course map widget draws them
for the same stored progress; progress that cannot be read leaves the map as it was, with
the widget's note. The hand-in panel, which needs Python, is a page of its own, reached by
the home page's link. The site is the session's (``site`` in ``conftest.py``).

The time from navigation to the lessons visible is printed for each language (run with
``-s`` or ``-rP`` to see it among the output; it is asserted only to be far below Python's).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from static_serve import StaticSite
from test_lessons import _assert_clean
from test_static_site import PAGE_TIMEOUT, Learner

from tutor.teach.course import LESSONS, page_link
from tutor.teach.drills.progress import MAX_KINDS, MAX_STORED, Progress, utc
from tutor.core.i18n import LANGUAGES, Translator
from tools.static_site import lesson_page
from tools.static_site.home import HAND_IN, drawn_map, static_links
from widgets.classroom import HandIn
from widgets.drill import STORAGE_KEY

PYTHON = ("**/static/pyodide/**", "**/*.whl", "**/*.wasm", "**/*.wasm?*", "**/pyodide-kernel-extension/**")
"""What Python in the page would load: refused, and counted."""
LOCALES = {"en": "en-GB", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW"}
SLOW = 5.0
"""Seconds: the Voici home page took 11–14 s before its lessons showed; the plain page far less."""


def progress_json() -> str:
    """A learner's progress: two stars and 11 answers in 05-following, one wrong answer in
    06-ruffing's trick drills."""
    progress = Progress()
    for i in range(11):
        progress = progress.record("follow", 100 + i, 1, True, utc(2025, 1, 1, 0, i), lesson="05-following")
    progress = progress.record("trick", 5, 1, False, utc(2025, 1, 1, 1), lesson="06-ruffing")
    return progress.to_json()


class Offline(Learner):
    """A learner whose pages may run no Python: every request for it is refused and counted."""

    def __init__(self, browser: Any, locale: str = "en-GB", stored: str | None = None) -> None:
        super().__init__(browser, locale)
        self.python: list[str] = []
        self.requests: list[str] = []
        for pattern in PYTHON:
            self.context.route(pattern, self._refuse_python)
        self.context.on("request", lambda request: self.requests.append(request.url))
        if stored is not None:
            self.context.add_init_script(f"localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(stored)})")

    def _refuse_python(self, route: Any) -> None:
        self.python.append(route.request.url)
        route.abort()

    def home(self, url: str) -> tuple[Any, float]:
        """The page at ``url`` and the seconds from navigation to its lessons visible."""
        page = self.context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        started = time.monotonic()
        page.goto(url, wait_until="commit")
        page.wait_for_selector("[data-qd=course] li a", state="visible", timeout=30_000)
        seconds = time.monotonic() - started
        page.wait_for_selector("[data-qd=course][data-qd-progress]", timeout=5_000)
        return page, seconds

    def close(self) -> None:
        super().close()
        assert not self.python, f"the home page asked for Python: {self.python[:5]}"


@pytest.fixture()
def offline(browser: Any) -> Iterator[Offline]:
    one = Offline(browser, stored=progress_json())
    yield one
    one.close()


def same_as_the_widget(page: Any, language: str, stored: str | None) -> None:
    """The map on the page is, node for node, the course map widget's for ``stored``."""
    slugs = [info.slug for info in LESSONS]
    expected = static_links(drawn_map(language, stored), slugs)
    difference = page.evaluate("""(html) => {
        const want = document.createElement("nav");
        want.innerHTML = html;
        const map = document.querySelector("[data-qd=course]");
        const shown = [...map.childNodes], drawn = [...want.childNodes];
        if (shown.length !== drawn.length) return `${shown.length} nodes, not ${drawn.length}: ${map.innerHTML.slice(0, 300)}`;
        const i = drawn.findIndex((node, k) => !node.isEqualNode(shown[k]));
        if (i < 0) return null;
        const items = (n) => n.querySelectorAll ? [...n.querySelectorAll("li")] : [];
        const j = items(drawn[i]).findIndex((li, k) => !li.isEqualNode(items(shown[i])[k]));
        return j < 0 ? `node ${i}: ${shown[i].outerHTML || shown[i].textContent}`
                     : `lesson ${j}: ${items(shown[i])[j].outerHTML} instead of ${items(drawn[i])[j].outerHTML}`;
    }""", expected)
    assert difference is None, f"{language}: {difference}"


# ---------------------------------------------------------------- without Python

@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lessons_and_progress_show_at_once_without_python(language: str, browser: Any, site: StaticSite,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    stored = progress_json()
    learner = Offline(browser, locale=LOCALES[language], stored=stored)
    # The site's address opens the home page in the browser's language.
    page, seconds = learner.home(site.base + "/")
    assert page.url.endswith(lesson_page(language, "index"))
    timing = page.evaluate("""() => {
        const navigation = performance.getEntriesByType("navigation")[0];
        const paint = performance.getEntriesByName("first-contentful-paint")[0];
        return [paint ? paint.startTime : null, navigation.domContentLoadedEventEnd];
    }""")
    page.close()
    # Opened directly (a bookmark, a lesson's way back): navigation → the lessons visible.
    page, direct = learner.home(site.url("index.ipynb", language=language))
    with capsys.disabled():
        print(f"\n[static home {language}] navigation → lessons visible: {direct * 1000:.0f} ms "
              f"(from the site's address, one redirect: {seconds * 1000:.0f} ms; first contentful paint "
              f"{timing[0] or 0:.0f} ms, DOMContentLoaded {timing[1]:.0f} ms)")
    assert direct < SLOW and seconds < SLOW
    assert page.evaluate("document.documentElement.lang") == language
    listed = [li.get_attribute("data-lesson") for li in page.locator("[data-qd=course] li").all()]
    assert listed == [info.slug for info in LESSONS]
    assert page.locator("[data-qd=course]").get_attribute("data-qd-progress") == "shown"
    badge = page.locator('[data-qd=course] li[data-lesson="05-following"] .qd-course-kind')
    assert "★★☆" in badge.inner_text() and "11" in badge.inner_text()
    same_as_the_widget(page, language, stored)
    _assert_clean(page, learner.errors, "index")
    # The page loads nothing but itself: no script, no style sheet, no font, no Python.
    others = [url for url in learner.requests if not url.split("?")[0].endswith((".html", "/", "favicon.ico"))]
    assert not others, f"the home page loaded {others[:5]}"
    page.close()
    learner.close()


def test_nothing_stored_draws_the_empty_map(browser: Any, site: StaticSite) -> None:
    learner = Offline(browser)
    page, _ = learner.home(site.url("index.ipynb", language="zh-Hans"))
    assert page.locator("[data-qd=course]").get_attribute("data-qd-progress") == "none"
    same_as_the_widget(page, "zh-Hans", None)
    page.close()
    learner.close()


LINKS = ["seed=3&lang=xx&kind=%3Cb%3Ebold%3C%2Fb%3E", "lang=zh-Hans&lang=en&" + "&".join(f"p{i}=v" for i in range(25))]


@pytest.mark.parametrize("query", LINKS)
def test_every_parameter_the_home_page_does_not_use_is_noted(query: str, browser: Any, site: StaticSite) -> None:
    """The notes the served home page gives (``page_link``, in the page's language), each in
    its own note before the lessons, said as text (never markup)."""
    learner = Offline(browser)
    page, _ = learner.home(site.url("index.ipynb", query, language="zh-Hans"))
    shown = page.locator("[data-qd=link-notes] .qd-link-note").all_inner_texts()
    assert shown == list(page_link(query, Translator("zh-Hans"))[1]) and shown
    assert page.locator("[data-qd=link-notes] b").count() == 0
    assert page.locator("[data-qd=course]").get_attribute("data-qd-progress") == "none"  # the map as ever
    page.close()
    learner.close()


BAD = {
    "not JSON": "{progress",
    "another version": json.dumps({"version": 2, "kinds": {}}),
    "a list": "[1, 2]",
    "far too long": "x" * (MAX_STORED + 1),
    "empty": "",
    "bad counts beside good": json.dumps({"version": 1, "per_lesson": True, "kinds": {
        "05-following/follow": [11, 11, 11, 2], "06-ruffing/trick": [1, 2, 0, 0], "06-ruffing/ruff": [3, 3, 3, 4],
        "04-tractors/tractor": [2, True, 0, 0]}}),
    "kinds not an object": json.dumps({"version": 1, "kinds": [1]}),
    "a name no page can show": json.dumps({"version": 1, "per_lesson": True, "kinds": {
        "bad\u0007": [1, 1, 1, 0], "05-following/follow": [5, 5, 5, 1]}}),
    "too many kinds": json.dumps({"version": 1, "per_lesson": True, "kinds": {
        **{f"k{i}": [1, 1, 1, 0] for i in range(MAX_KINDS)}, "05-following/follow": [5, 5, 5, 1]}}),
    "kept per kind (before lessons had their own)": json.dumps({"version": 1, "kinds": {
        "follow": [7, 7, 7, 1], "06-ruffing/trick": [2, 1, 0, 0]}}),
}
"""Stored progress the course map reads in part or not at all (and one it migrates)."""


@pytest.mark.parametrize("case", list(BAD))
def test_progress_that_cannot_be_read_gives_the_widgets_note(case: str, browser: Any, site: StaticSite) -> None:
    stored = BAD[case]
    learner = Offline(browser, stored=stored)
    page, _ = learner.home(site.url("index.ipynb", language="en"))
    same_as_the_widget(page, "en", stored)  # the same note (or none), the same map
    state = page.locator("[data-qd=course]").get_attribute("data-qd-progress")
    notes = page.locator("[data-qd=course] .qd-link-note").count()
    assert (state in ("unreadable", "partial")) == (notes == 1), (state, notes)
    assert [li.get_attribute("data-lesson") for li in page.locator("[data-qd=course] li").all()] \
        == [info.slug for info in LESSONS]
    page.close()
    learner.close()  # no script error


def test_progress_from_another_tab_is_shown(offline: Offline, site: StaticSite) -> None:
    page, _ = offline.home(site.url("index.ipynb", language="en"))
    other = offline.context.new_page()
    other.goto(site.url("index.ipynb", language="en"), wait_until="commit")
    newer = Progress().record("throw", 9, 1, True, utc(2025, 2, 1), lesson="07-throws").to_json()
    other.evaluate("([key, value]) => localStorage.setItem(key, value)", [STORAGE_KEY, newer])
    page.wait_for_function("""() => document.querySelector('[data-qd=course] li[data-lesson="07-throws"]')
                              .textContent.includes("1 answered")""", timeout=5_000)
    same_as_the_widget(page, "en", newer)
    other.close()
    page.close()


# ---------------------------------------------------------------- the page's links

def test_the_language_switch_keeps_the_link(offline: Offline, site: StaticSite) -> None:
    page, _ = offline.home(site.url("index.ipynb", "seed=3", language="en"))
    href = page.locator(".qd-languages a[hreflang=zh-Hant]").get_attribute("href") or ""
    assert href.split("?")[0] == "../zh-Hant/index.html" and "seed=3" in href and "lang=zh-Hant" in href
    page.click(".qd-languages a[hreflang=zh-Hant]")
    page.wait_for_selector("[data-qd=course][data-qd-progress=shown]")
    assert page.url.split("?")[0].endswith(lesson_page("zh-Hant", "index"))
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    page.close()
    # A link asking for a language opens that language's home page, and the choice is remembered.
    page, _ = offline.home(site.url("index.ipynb", "lang=zh-Hans", language="en"))
    page.wait_for_url(re.compile(re.escape(lesson_page("zh-Hans", "index")) + r"\?lang=zh-Hans$"))
    page.close()
    page, _ = offline.home(site.base + "/")
    assert page.url.endswith(lesson_page("zh-Hans", "index"))
    page.close()


def test_every_lesson_link_leads_to_its_page(offline: Offline, site: StaticSite) -> None:
    page, _ = offline.home(site.url("index.ipynb", language="zh-Hant"))
    links = page.evaluate("() => [...document.querySelectorAll('[data-qd=course] li a')].map(a => a.href)")
    assert links == [site.url(info.notebook, language="zh-Hant") for info in LESSONS]
    hand_in = page.locator("[data-qd=hand-in-link]").evaluate("a => a.href")
    assert hand_in == site.url(f"{HAND_IN}.ipynb", language="zh-Hant")
    for url in [*links, hand_in]:  # each page is there (followed in a browser: test_static_site.py, below)
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200 and "jupyter-config-data" in response.read().decode("utf-8")
    page.close()


def test_the_hand_in_page_makes_the_code(browser: Any, site: StaticSite) -> None:
    """The home page's link opens the hand-in page, where Python runs and makes the progress
    code of this browser's progress (the code the widget makes in Python for it)."""
    stored = progress_json()
    learner = Learner(browser, locale="zh-CN")
    learner.context.add_init_script(f"localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(stored)})")
    page = learner.open(site.url("index.ipynb", language="zh-Hans"), wait_for="course")
    link = page.locator("[data-qd=hand-in-link]")
    assert link.is_visible() and link.inner_text().strip()
    link.click()
    page.wait_for_function("() => (document.querySelector('[data-qd=hand-in] [data-qd=code]') || {}).value",
                           timeout=PAGE_TIMEOUT)
    assert page.url.split("?")[0].endswith(lesson_page("zh-Hans", HAND_IN))
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    expected = HandIn(lang="zh-Hans")
    expected.sync(stored, "")
    assert page.locator("[data-qd=hand-in] [data-qd=code]").input_value() == expected.code
    _assert_clean(page, learner.errors, "index")
    back = page.locator("a", has_text=re.compile("课程"))
    assert (back.first.get_attribute("href") or "").startswith("index.html")
    page.close()
    learner.close()
