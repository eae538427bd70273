"""What has come due to review, on the home page, both ways of serving (issue 27, item 5): the
same stored progress and positions (``localStorage``) give the same count — "N positions to
review" — in Python (tutor.teach.mistakes.to_review: tutor.teach.drills.progress.is_due), in the
static home page's script (tools/static_site/home.js, in headless Chromium) and on the served
home page (the course map widget under Voila), with the link to the table's review.

The static home page is the one the build writes (``home_html``), served at a made-up address
Chromium asks the test for (so it has its own ``localStorage``), without building the whole
site. Stored times are years away from now, so the page's clock and Python's agree on what is due.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tutor.core.i18n import LANGUAGES
from tutor.teach.course import LESSONS, practice_lesson
from tutor.teach.drills.progress import Progress, read_stored, utc
from tutor.teach.mistakes import MISTAKES_KEY, Mistakes, to_review
from widgets.drill import STORAGE_KEY

from test_mistakes import TAMPERED, hand  # noqa: E402  (tests/ is on the path, as for voila_serve)

ROOT = Path(__file__).resolve().parents[2]
PAST = utc(2020, 1, 1)
FUTURE = utc(2200, 1, 1)
ORIGIN = "http://qd-home.test"


def _progress(past: tuple[str, ...], future: tuple[str, ...] = ()) -> str:
    progress = Progress()
    for seed, kind in enumerate(past):
        progress = progress.record(kind, seed, 1, False, PAST, lesson=_lesson(kind))
    for seed, kind in enumerate(future, 100):
        progress = progress.record(kind, seed, 1, False, FUTURE, lesson=_lesson(kind))
    return progress.to_json()


def _lesson(kind: str) -> str:
    found = practice_lesson(kind)
    assert found is not None
    return found.slug


def _mistakes(past: int, future: int = 0) -> str:
    text, plays = hand()
    store = Mistakes().keep(text, 0, plays[:past], PAST)
    return store.keep(hand(5)[0], 0, hand(5)[1][:future], FUTURE).to_json()


def _tampered_progress(**card: object) -> str:
    body = json.loads(_progress(("follow", "throw")))
    body["reviews"][0]["card"].update(card)
    return json.dumps(body)


def _changed_progress(**fields: object) -> str:
    body = json.loads(_progress(("follow", "throw")))
    body.update(fields)
    return json.dumps(body)


CASES: dict[str, tuple[str | None, str | None]] = {
    "nothing stored": (None, None),
    "drills and positions due": (_progress(("follow", "throw", "follow"), ("ruff",)), _mistakes(2, 3)),
    "positions only": (None, _mistakes(1, 1)),
    "drills only": (_progress(("trick", "count", "advice", "points")), None),
    "nothing due yet": (_progress((), ("follow",)), _mistakes(0, 2)),
    "a review's due on 30 February": (_tampered_progress(due="2025-02-30T00:00:00+00:00"), _mistakes(1)),
    "a review's state of 9": (_tampered_progress(state=9), None),
    "a review's schedule with a field more": (_tampered_progress(extra=1), None),
    "a review's due in another zone": (_tampered_progress(due="2019-12-31T23:00:00-05:00"), None),
    "a review's time of 24 hours": (_tampered_progress(last_review="2019-01-01T24:00:00+00:00"), None),
    "progress unreadable": ("not progress", _mistakes(2)),
    "progress with a salt of -1": (_changed_progress(salt=-1), None),
    "progress with a level of 4": (_changed_progress(levels={"05-following/follow": 4}), None),
    "progress with a last answer of 3": (_changed_progress(last=3), None),
    "progress whose reviews are no list": (_changed_progress(reviews={"a": 1}), _mistakes(1)),
    **{f"positions: {name}": (_progress(("follow",)), stored) for name, (stored, _) in TAMPERED.items()
       if isinstance(stored, str) and name != "far too long"},
}
"""Stored (progress, positions): what a learner's browser may hold."""


def _python_count(stored: str | None, kept: str | None) -> int:
    progress = read_stored(stored)[0] if stored is not None else Progress()
    return to_review(progress or Progress(), Mistakes.from_json(kept)[0], utc(2100, 1, 1)).total


@pytest.fixture(scope="module")
def static_home() -> dict[str, str]:
    pytest.importorskip("nbconvert")
    from tools.static_site.home import home_html, read_notebook

    notebook = read_notebook(ROOT / "lessons" / "index.ipynb")
    slugs = [info.slug for info in LESSONS] + ["teacher"]
    return {language: home_html(notebook, language, slugs) for language in LANGUAGES}


def _open(context: Any, pages: dict[str, str], language: str = "en") -> Any:
    context.route(f"{ORIGIN}/**", lambda route: route.fulfill(
        status=200, content_type="text/html; charset=utf-8",
        body=pages.get(route.request.url.split("?")[0].rsplit("/", 2)[-2], "")))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{ORIGIN}/{language}/index.html")
    page.wait_for_selector("[data-qd=course][data-qd-progress]")
    return page


def _store(page: Any, stored: str | None, kept: str | None) -> None:
    page.evaluate("""([entries]) => {
        for (const [key, value] of entries) {
            if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
        }
    }""", [[[STORAGE_KEY, stored], [MISTAKES_KEY, kept]]])
    page.reload()
    page.wait_for_selector("[data-qd=course][data-qd-progress]")


def _same_as_the_widget(page: Any, language: str, stored: str | None, kept: str | None) -> None:
    from tools.static_site.home import drawn_map, static_links

    expected = static_links(drawn_map(language, stored, kept), [info.slug for info in LESSONS])
    difference = page.evaluate("""(html) => {
        const want = document.createElement("nav");
        want.innerHTML = html;
        const map = document.querySelector("[data-qd=course]");
        const shown = [...map.childNodes], drawn = [...want.childNodes];
        if (shown.length !== drawn.length) return `${shown.length} nodes, not ${drawn.length}: ${map.innerHTML.slice(0, 400)}`;
        const i = drawn.findIndex((node, k) => !node.isEqualNode(shown[k]));
        return i < 0 ? null : `node ${i}: ${shown[i].outerHTML} instead of ${drawn[i].outerHTML}`;
    }""", expected)
    assert difference is None, difference


def test_the_static_home_counts_what_is_due_as_python_does(context: Any, static_home: dict[str, str]) -> None:
    page = _open(context, static_home)
    counted = {}
    for case, (stored, kept) in CASES.items():
        _store(page, stored, kept)
        shown = int(page.locator("[data-qd=course]").get_attribute("data-qd-review") or "-1")
        counted[case] = (shown, _python_count(stored, kept))
        _same_as_the_widget(page, "en", stored, kept)  # the same list, link and notes, node for node
    differ = {case: pair for case, pair in counted.items() if pair[0] != pair[1]}
    assert not differ, differ
    assert counted["drills and positions due"] == (5, 5) and counted["nothing due yet"] == (0, 0)
    assert counted["a review's due on 30 February"] == (2, 2)  # the one readable review and the position
    assert not page.errors, page.errors


def test_the_static_home_links_the_tables_review_and_the_drills_lessons(context: Any,
                                                                       static_home: dict[str, str]) -> None:
    page = _open(context, static_home)
    stored, kept = CASES["drills and positions due"]
    _store(page, stored, kept)
    review = page.locator("[data-qd=review]")
    assert review.is_visible()
    assert review.locator("strong").inner_text() == "5 positions to review"
    link = review.locator("[data-qd=review-positions] a")
    assert link.inner_text() == "Replay 2 positions from your own hands at the table"
    assert link.get_attribute("href") == "10-play.html?review=mistakes"
    drills = review.locator("[data-qd=review-drills]")
    assert drills.inner_text().startswith("3 missed drills come back in practice:")
    assert [a.get_attribute("href") for a in drills.locator("a").all()] == ["05-following.html", "07-throws.html"]
    # The lessons are listed as ever (the list of what is due holds no lesson item).
    assert [li.get_attribute("data-lesson") for li in page.locator("[data-qd=course] li").all()] \
        == [info.slug for info in LESSONS]
    # Positions kept in another tab show at once.
    other = context.new_page()
    other.goto(f"{ORIGIN}/en/index.html")
    other.evaluate("([key, value]) => localStorage.setItem(key, value)", [MISTAKES_KEY, _mistakes(4)])
    page.wait_for_function("() => document.querySelector('[data-qd=course]').dataset.qdReview === '7'")
    assert not page.errors, page.errors


@pytest.mark.parametrize("language", ["zh-Hans", "zh-Hant"])
def test_the_static_home_says_it_in_the_pages_language(language: str, context: Any,
                                                       static_home: dict[str, str]) -> None:
    page = _open(context, static_home, language)
    stored, kept = CASES["positions only"]
    _store(page, stored, kept)
    _same_as_the_widget(page, language, stored, kept)
    assert page.locator("[data-qd=review]").count() == 1


def test_the_served_home_lists_what_has_come_due(context: Any, lessons_server: Any, static_home: dict[str, str],
                                                 screenshot: Any) -> None:
    stored, kept = CASES["drills and positions due"]
    context.add_init_script(f"localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(stored)});"
                            f"localStorage.setItem({json.dumps(MISTAKES_KEY)}, {json.dumps(kept)});")
    page = context.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(lessons_server.url("index.ipynb"))
    review = page.locator("[data-qd=course] [data-qd=review]")
    review.wait_for(timeout=90_000)
    assert review.get_attribute("data-count") == str(_python_count(stored, kept)) == "5"
    assert review.locator("strong").inner_text() == "5 positions to review"
    link = review.locator("[data-qd=review-positions] a")
    assert link.get_attribute("href") == "10-play.ipynb?review=mistakes"
    assert [a.get_attribute("href") for a in review.locator("[data-qd=review-drills] a").all()] \
        == ["05-following.ipynb", "07-throws.ipynb"]
    screenshot(page, "served")
    # The served page and the static one show the same words.
    served = review.inner_text()
    static = context.new_page()
    static.route(f"{ORIGIN}/**", lambda route: route.fulfill(status=200, content_type="text/html; charset=utf-8",
                                                             body=static_home["en"]))
    static.goto(f"{ORIGIN}/en/index.html")
    static.wait_for_selector("[data-qd=course][data-qd-progress]")
    assert static.locator("[data-qd=review]").inner_text() == served
    # Positions kept in another tab (the table's review) show on the served page too.
    other = context.new_page()
    other.goto(lessons_server.url("index.ipynb"))
    other.wait_for_selector("[data-qd=course] li a", timeout=90_000)
    other.evaluate("([key, value]) => localStorage.setItem(key, value)", [MISTAKES_KEY, _mistakes(4)])
    page.wait_for_function("() => document.querySelector('[data-qd=review]')?.dataset.count === '7'",
                           timeout=30_000)
    assert not errors, errors
    assert "Traceback" not in page.content()


def test_the_served_home_shows_nothing_when_nothing_is_due(context: Any, lessons_server: Any) -> None:
    stored, kept = CASES["nothing due yet"]
    context.add_init_script(f"localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(stored)});"
                            f"localStorage.setItem({json.dumps(MISTAKES_KEY)}, {json.dumps(kept)});")
    page = context.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())
    page.goto(lessons_server.url("index.ipynb"))
    page.wait_for_function("""() => document.querySelector('[data-qd=course] li[data-lesson="05-following"]')
                              ?.textContent.includes("1 answered")""", timeout=90_000)  # the kernel read the store
    assert page.locator("[data-qd=review]").count() == 0
    assert _python_count(stored, kept) == 0
