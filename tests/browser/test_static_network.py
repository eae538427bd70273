"""What a lesson of the static site costs over the network, and what it keeps (issue 45; issue
43 item 15): the built site behind a plain file server, reached through a counting line
(``line.py``: every request and byte, the page's, its workers' and the service worker's), in
real Chromium.

- a first visit to a lesson fits :data:`FIRST_VISIT_MB` and asks nothing that is not there
  (JupyterLite's pages asked for a ``service-worker.js`` the site did not have: a 404 on every
  lesson);
- the next lesson, and the same lesson a day later from a host whose cache headers keep
  nothing (the browser's HTTP cache emptied), come from what the site keeps itself (its
  service worker, and the kernel's worker for Python's files);
- a lesson opened once opens again, and judges a drill, with the line down.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from line import Line, Traffic, wait_quiet
from static_serve import StaticSite
from test_lessons import KNOWN, _answer_wrong_then_right, _assert_clean, _plan, _seed_for
from test_static_site import PAGE_TIMEOUT, ready

from tools.static_site import lesson_page

pytestmark = pytest.mark.slow

FIRST_VISIT_MB = 31.0
"""A first visit to lesson 05, every request counted: 41.4 MB before the site packed Pyodide's
files and left out of Python's snapshot the files Python never reads again; 25.9–28.5 MB since,
by when the service worker starts on a busy machine (a file the page asked for before it may be
fetched once more). Issue 45's goal, 12 MB, is not reached yet: Python's memory in the snapshot
is 14 MB of it."""
NEXT_LESSON_MB = 1.0
NEXT_DAY_MB = 0.5


class Visitor:
    """A fresh browser profile reaching the site through a :class:`Line`: every response
    that failed, and every request that left the line's host, kept."""

    def __init__(self, browser: Any, site: StaticSite) -> None:
        self.line = Line(("127.0.0.1", urlsplit(site.base).port or 80))
        self.context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
        self.context.set_default_timeout(30_000)
        self.failed: list[str] = []
        self.off_host: list[str] = []
        self.context.on("response", lambda r: self.failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        self.context.on("request", self._seen)

    def _seen(self, request: Any) -> None:
        if not request.url.startswith((self.line.base + "/", "data:", "blob:", "about:")):
            self.off_host.append(request.url)

    def url(self, slug: str, query: str = "") -> str:
        return f"{self.line.base}/{lesson_page('en', slug)}" + (f"?{query}" if query else "")

    def open(self, url: str, page: Any = None) -> tuple[Any, Traffic]:
        """``url`` opened (in ``page``, else a new page) until its first drill is usable and
        nothing more crosses the line: the page, and what crossed the line meanwhile."""
        page = page or self.context.new_page()
        self.line.read()
        page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT)
        ready(page, "drill")
        wait_quiet(self.line, 1.5)
        return page, self.line.read()

    def close(self) -> None:
        self.context.close()
        self.line.stop()


@pytest.fixture()
def visitor(browser: Any, site: StaticSite) -> Iterator[Visitor]:
    one = Visitor(browser, site)
    yield one
    one.close()
    assert not one.off_host, f"requests off the site's host: {one.off_host[:5]}"


def test_a_first_visit_fits_the_budget_and_asks_for_nothing_missing(visitor: Visitor) -> None:
    _, traffic = visitor.open(visitor.url("05-following"))
    assert traffic.megabytes <= FIRST_VISIT_MB, f"a first visit: {traffic.megabytes:.1f} MB in {len(traffic.requests)} requests"
    assert not visitor.failed, f"failed requests: {visitor.failed}"
    assert any("/service-worker.js" in r for r in traffic.requests), "the site's service worker was not asked for"


def test_the_next_lesson_and_the_next_day_come_from_what_the_site_keeps(visitor: Visitor) -> None:
    page, first = visitor.open(visitor.url("05-following"))
    _, following = visitor.open(visitor.url("06-ruffing"), page)
    assert following.megabytes <= NEXT_LESSON_MB, f"the next lesson: {following.megabytes:.2f} MB, {following.requests}"
    page.goto("about:blank")
    page.close()
    page = visitor.context.new_page()
    visitor.context.new_cdp_session(page).send("Network.clearBrowserCache")  # a host that lets nothing be kept
    _, day = visitor.open(visitor.url("05-following"), page)
    assert day.megabytes <= NEXT_DAY_MB, f"the next day: {day.megabytes:.2f} MB, {day.requests}"
    assert first.megabytes > 20 * (following.megabytes + day.megabytes)  # (the line counts what it carries)
    assert not visitor.failed, f"failed requests: {visitor.failed}"


def test_a_lesson_opened_once_works_offline(visitor: Visitor) -> None:
    kinds = KNOWN["05-following"]
    seed = _seed_for(kinds, "05-following")
    page, _ = visitor.open(visitor.url("05-following", f"seed={seed}"))
    page.wait_for_selector("html[data-qd-kept]", timeout=PAGE_TIMEOUT)  # the page says it is kept
    visitor.line.cut()  # the network is gone: nothing reaches the file server any more
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.reload(wait_until="load", timeout=PAGE_TIMEOUT)
    ready(page, "drill")
    assert page.evaluate("document.documentElement.dataset.qdPython") == "snapshot"
    plans = [_plan(kind, seed, "05-following") for kind in kinds]
    _answer_wrong_then_right(page, [p for p in plans if p is not None])  # judged, with every rule ID
    _assert_clean(page, errors, "05-following")
