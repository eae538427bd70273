"""The course as a static site (``./dev site``) in a real browser, offline.

The site is built once per session into a temporary folder (downloads cached in
``.cache/site/``), served by a plain file server (``python -m http.server``) on 127.0.0.1,
and opened in headless Chromium with every request off 127.0.0.1 refused **and counted**:
the tests fail on any such request, any script error, any visible code or traceback.

A learner opens the home page's address, lands on the course in their browser's
language, follows a link to a lesson, answers its drills wrong and right (the answers and
the feedback come from the rules module), switches language with the link's seed kept,
comes back to the home page in the language they chose, and plays tricks at the table.
Every lesson page renders clean. Python runs in the page (Pyodide): no server computes
anything.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from static_serve import StaticSite
from test_lessons import KNOWN, PAGES, _answer_wrong_then_right, _assert_clean, _plan, _seed_for
from voila_serve import REPO

from tutor.teach.course import LESSONS, parse_link
from tutor.teach.drills import generate
from tutor.teach.drills.progress import Progress, visit_seed
from tutor.core.i18n import LANGUAGES, negotiate
from tools.static_site import lesson_page
from widgets.drill import STORAGE_KEY

PAGE_TIMEOUT = 120_000  # a cold start downloads and starts Python in the page


class Learner:
    """One browser profile, offline: every request off 127.0.0.1 is refused and counted,
    every script error kept."""

    def __init__(self, browser: Any, locale: str = "en-GB") -> None:
        self.context = browser.new_context(viewport={"width": 1100, "height": 900}, locale=locale)
        self.context.set_default_timeout(30_000)
        self.off_host: list[str] = []
        self.errors: list[str] = []
        self.context.route(re.compile(r"^(?!https?://127\.0\.0\.1[:/]|data:|blob:).*"), self._refuse)
        self.context.on("request", self._seen)

    def _refuse(self, route: Any) -> None:
        route.abort()

    def _seen(self, request: Any) -> None:
        if not re.match(r"^(https?://127\.0\.0\.1[:/]|data:|blob:|about:)", request.url):
            self.off_host.append(request.url)

    def open(self, url: str, *, wait_for: str = "drill", drills: int = 1) -> Any:
        page = self.context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT)
        ready(page, wait_for, drills)
        return page

    def close(self) -> None:
        self.context.close()
        assert not self.off_host, f"requests off 127.0.0.1: {self.off_host[:5]}"
        assert not self.errors, f"script errors: {self.errors[:5]}"


def ready(page: Any, wait_for: str, drills: int = 1) -> None:
    """Wait until the page is usable: the course map, ``drills`` drill players in the
    lesson's practice section (the quick checks in its text come on top) with every
    drill's answer drawn and Check enabled, or the table."""
    if wait_for == "course":
        page.wait_for_selector("[data-qd=course] li a", timeout=PAGE_TIMEOUT)
    elif wait_for == "table":
        page.wait_for_selector("[data-qd=table] [data-qd=seat]", timeout=PAGE_TIMEOUT)
    elif wait_for == "widget":
        page.wait_for_selector(".qd-root", timeout=PAGE_TIMEOUT)
    else:
        page.wait_for_function("""(want) => {
            const drills = [...document.querySelectorAll('[data-qd=drill]')];
            const practice = document.querySelectorAll('.qd-practice [data-qd=drill]').length;
            return practice >= want && drills.every(d => d.querySelector('[data-qd=answer]').children.length > 0
                                     && !d.querySelector('[data-qd=check]').disabled);
        }""", arg=drills, timeout=PAGE_TIMEOUT)


@pytest.fixture()
def learner(browser: Any) -> Iterator[Learner]:
    one = Learner(browser)
    yield one
    one.close()


# ---------------------------------------------------------------- the build

def test_the_build_ships_every_lesson_offline(site: StaticSite) -> None:
    for language in LANGUAGES:
        for slug in PAGES:
            page = site.folder / lesson_page(language, slug)
            assert page.exists(), page
            html = page.read_text("utf-8")
            assert f'<html lang="{language}"' in html
            assert not re.search(r'(?:src|href)\s*=\s*"(?:https?:)?//', html), f"{page.name} links off the site"
    config = json.loads((site.folder / "jupyter-lite.json").read_text("utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True and kernel["pyodideUrl"] == "./static/pyodide/pyodide.js"
    # Pyodide loads only what its lock lists, checking each sha256: the lock must match the files.
    pyodide = site.folder / "static" / "pyodide"
    lock = json.loads((pyodide / "pyodide-lock.json").read_text("utf-8"))
    assert lock["info"]["version"] == "0.27.6" and lock["info"]["python"].startswith("3.12")
    for name, entry in lock["packages"].items():
        wheel = pyodide / entry["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"], name
        assert set(entry["depends"]) <= set(lock["packages"]), name
    assert "tutor" in lock["packages"]["qidong-tutor"]["imports"]
    assert set(lock["packages"]["qidong-tutor"]["depends"]) >= {"anywidget", "babel", "fsrs", "ipywidgets"}
    assert not (site.folder / "build").exists()  # JupyterLite's own apps are left out


# ---------------------------------------------------------------- a learner's visit

def test_a_learner_goes_through_the_course(browser: Any, site: StaticSite) -> None:
    learner = Learner(browser)
    # The home page's address opens the course in the browser's language (en-GB → English).
    home = learner.open(site.base + "/", wait_for="course")
    assert home.url.endswith(lesson_page("en", "index"))
    assert home.evaluate("document.documentElement.lang") == "en"
    listed = [li.get_attribute("data-lesson") for li in home.locator("[data-qd=course] li").all()]
    assert listed == [info.slug for info in LESSONS]
    _assert_clean(home, learner.errors, "index")
    # A link of the course map opens the lesson's page.
    home.click('[data-qd=course] li[data-lesson="05-following"] a')
    ready(home, "drill", len(KNOWN["05-following"]))
    assert home.url.split("?")[0].endswith(lesson_page("en", "05-following"))
    _assert_clean(home, learner.errors, "05-following")
    home.close()

    # A seeded link: the drills the rules module makes for that seed, answered wrong then right.
    kinds = KNOWN["05-following"]
    seed = _seed_for(kinds, "05-following")
    page = learner.open(site.url("05-following.ipynb", f"seed={seed}"), drills=len(kinds))
    plans = [_plan(kind, seed, "05-following") for kind in kinds]
    assert all(plans)
    _answer_wrong_then_right(page, [p for p in plans if p is not None])
    _assert_clean(page, learner.errors, "05-following")
    # Progress is kept in the browser, in the served course's store.
    stored = page.evaluate(f"localStorage.getItem({json.dumps(STORAGE_KEY)})")
    progress = Progress.from_json(stored)
    assert progress.kind(kinds[0], "05-following").attempts >= 1

    # The switch opens the same page in Simplified Chinese, the seed kept.
    page.click(".qd-languages a[hreflang=zh-Hans]")
    ready(page, "drill", len(kinds))
    assert page.url.split("?")[0].endswith(lesson_page("zh-Hans", "05-following"))
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    question = " ".join(page.locator(".qd-practice [data-qd=question]").first.inner_text().split())
    assert question == " ".join(generate(kinds[0], visit_seed(seed, 0, kinds[0], "05-following"), 1, lang="zh-Hans").question.split())
    _assert_clean(page, learner.errors, "05-following")
    page.close()

    # Back to the home page's address: the language chosen is remembered.
    again = learner.open(site.base + "/", wait_for="course")
    assert again.url.endswith(lesson_page("zh-Hans", "index"))
    again.close()
    learner.close()


def test_the_browser_language_and_a_language_link(browser: Any, site: StaticSite) -> None:
    learner = Learner(browser, locale="zh-TW")
    page = learner.open(site.base + "/", wait_for="course")
    assert page.url.endswith(lesson_page("zh-Hant", "index"))
    page.close()
    # A teacher's link asking for a language opens that language's page.
    page = learner.open(site.url("06-ruffing.ipynb", "lang=zh-Hans&kind=trick"), drills=1)
    assert page.url.split("?")[0].endswith(lesson_page("zh-Hans", "06-ruffing"))
    assert page.locator(".qd-practice [data-qd=drill]").count() == 1  # kind=trick reached the kernel
    # The page picks the browser's language as the served course does (tutor.core.i18n.negotiate).
    for tags in (["zh-TW", "en"], ["zh-CN"], ["fr", "en-GB"], ["de"], [], ["zh-HK"], ["zh"], ["zh-Hans-HK"],
                 ["ja", "zh-Hant-TW"], ["EN-us"], ["zh-MO", "zh-CN"]):
        shown = page.evaluate("tags => window.qdSite.browserLanguage(tags)", tags)
        assert shown == negotiate(",".join(tags)), tags
    page.close()
    learner.close()


def test_bad_link_parameters_give_a_note(learner: Learner, site: StaticSite) -> None:
    slug, query = "06-ruffing", "kind=trick&level=9&seed=abc&colour=red"
    params, notes = parse_link(query, lesson=slug)
    page = learner.open(site.url(f"{slug}.ipynb", query), drills=1)
    _assert_clean(page, learner.errors, slug)
    assert [n.inner_text() for n in page.locator(".qd-link-note").all()] == list(notes)
    assert params.kind == "trick" and page.locator(".qd-practice [data-qd=drill]").count() == 1
    page.close()


@pytest.mark.parametrize("slug", [p for p in PAGES if p != "05-following"])
def test_every_page_renders_clean(slug: str, learner: Learner, site: StaticSite) -> None:
    kinds = KNOWN.get(slug)
    source = (REPO / "lessons" / f"{slug}.ipynb").read_text("utf-8")
    wait_for = "course" if slug == "index" else "drill" if kinds else "widget" if "from widgets" in source else "none"
    page = learner.context.new_page()
    page.on("pageerror", lambda e: learner.errors.append(str(e)))
    page.goto(site.url(f"{slug}.ipynb"), wait_until="load", timeout=PAGE_TIMEOUT)
    if wait_for != "none":
        ready(page, wait_for, len(kinds or ()))
    else:  # no widget: wait for the last cell's output
        page.wait_for_function("document.querySelectorAll('.jp-OutputArea-output').length > 0", timeout=PAGE_TIMEOUT)
    page.wait_for_timeout(500)
    _assert_clean(page, learner.errors, slug)
    page.close()


def test_tricks_at_the_table(learner: Learner, site: StaticSite) -> None:
    page = learner.open(site.url("10-play.ipynb", "seed=7"), wait_for="table")
    table = page.locator("[data-qd=table]")
    plays = 0
    version = 0
    for _ in range(60):
        page.wait_for_function(
            """after => { const t = document.querySelector('[data-qd=table]');
               return Number(t.dataset.version) > after && ['declare', 'learner', 'done'].includes(t.dataset.waiting); }""",
            arg=version, timeout=60_000)
        version = int(table.get_attribute("data-version") or 0)
        waiting, phase = table.get_attribute("data-waiting"), table.get_attribute("data-phase")
        if waiting == "done" or plays >= 3:
            break
        if waiting == "declare":
            page.click("[data-qd=pass]")
            continue
        page.evaluate("document.querySelector('[data-qd=hand]').dataset.selected = ''")
        page.click("[data-qd=hint]")
        page.wait_for_function("document.querySelector('[data-qd=hand]').dataset.selected !== ''")
        if phase == "burying":
            page.click("[data-qd=bury]")
        elif phase == "calling":
            page.click("[data-qd=call]")
        else:
            page.locator("[data-qd=hand] .qd-option[aria-selected=true]").first.focus()
            page.keyboard.press("Enter")
            plays += 1
    assert plays >= 3, "the learner played fewer than 3 times"
    _assert_clean(page, learner.errors, "10-play")
    page.close()
