"""Reading never waits for Python: a lesson's headings, text and drawn examples are on the
screen while its kernel is still starting, on the static site (Python blocked outright) and
on the served course (the kernel's start delayed on purpose), with a note where each drill
will stand; then the drills come alive and the notes are gone."""

from __future__ import annotations

import json
import shlex
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from static_serve import StaticSite
from voila_serve import VoilaServer, serve

from tutor.teach.localize import GETTING_READY
from tutor.core.i18n import Translator

KERNEL_DELAY = 12.0
"""Seconds the served test's kernel waits before it starts."""
FIRST_TEXT = "Play goes in tricks"
"""Lesson 05's first paragraph begins so."""


def _reading(page: Any, started: float) -> float:
    """Seconds from ``started`` until lesson 05's heading and first paragraph are visible."""
    page.get_by_role("heading", name="5 · Leading and following").wait_for(state="visible", timeout=30_000)
    page.get_by_text(FIRST_TEXT).first.wait_for(state="visible", timeout=30_000)
    return time.monotonic() - started


def _drills_usable(page: Any) -> bool:
    return bool(page.evaluate("""() => {
        const drills = [...document.querySelectorAll('[data-qd=drill]')];
        return drills.length > 0 && drills.every(d => !d.querySelector('[data-qd=check]').disabled);
    }"""))


def _waiting_notes(page: Any, language: str = "en") -> int:
    """How many places show the note that a drill is getting ready (a pseudo-element's text)."""
    note = json.dumps(Translator(language)(GETTING_READY), ensure_ascii=False)
    return int(page.evaluate("""(note) => [...document.querySelectorAll('#rendered_cells *')].filter(e => {
        const before = getComputedStyle(e, '::before');
        return before.content === note && e.getClientRects().length > 0;
    }).length""", note))


def _notes_shown(page: Any, at_least: int, seconds: float) -> bool:
    """Whether, within ``seconds``, at least ``at_least`` places show the getting-ready note.

    A served page arrives as a stream: its first paragraph may be on the screen before the
    cells further down, so the notes are waited for rather than counted at that instant.
    """
    note = json.dumps(Translator("en")(GETTING_READY), ensure_ascii=False)
    try:
        page.wait_for_function("""([note, atLeast]) => [...document.querySelectorAll('#rendered_cells *')]
            .filter(e => getComputedStyle(e, '::before').content === note && e.getClientRects().length > 0)
            .length >= atLeast""", arg=[note, at_least], timeout=seconds * 1000)
    except PlaywrightTimeout:
        return False
    return True


def test_static_text_and_examples_without_python(browser: Any, site: StaticSite) -> None:
    """Pyodide never loads: the lesson still reads, with its examples, and says where the
    drills will be."""
    context = browser.new_context(viewport={"width": 1000, "height": 900}, locale="en-GB")
    blocked: list[str] = []
    context.route("**/static/pyodide/**", lambda route: (blocked.append(route.request.url), route.abort()))
    page = context.new_page()
    started = time.monotonic()
    page.goto(site.url("05-following.ipynb"), wait_until="commit")
    seconds = _reading(page, started)
    print(f"static: heading and first paragraph visible {seconds:.2f} s after navigation, Python blocked")
    assert page.locator(".qd-static .qd-card").first.is_visible()  # an example drawn when the site was built
    assert "Illegal (W0)" in page.locator(".qd-static").first.inner_text()
    assert _notes_shown(page, 7, 10)  # the six quick checks and the practice
    page.wait_for_timeout(1500)
    assert blocked, "the page asks for Python (and is refused it)"
    assert not _drills_usable(page) and _waiting_notes(page) >= 7
    page.goto("about:blank")
    context.close()


def test_static_drills_come_alive(browser: Any, site: StaticSite) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.goto(site.url("05-following.ipynb"), wait_until="commit")
    _reading(page, time.monotonic())
    page.wait_for_function("""() => [...document.querySelectorAll('[data-qd=drill]')].length >= 7""", timeout=120_000)
    page.wait_for_function("""() => [...document.querySelectorAll('[data-qd=drill]')]
        .every(d => !d.querySelector('[data-qd=check]').disabled)""", timeout=60_000)
    assert _waiting_notes(page) == 0
    page.goto("about:blank")
    context.close()


@pytest.fixture(scope="module")
def slow_kernel_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """The course served with a Python kernel that waits :data:`KERNEL_DELAY` seconds before
    it starts (a kernel spec of that name, ahead on Jupyter's path; the course's zygote forks
    only the plain kernel command, so this one starts the usual way, late), one page's
    notebook run at a time."""
    folder = tmp_path_factory.mktemp("slow-kernel")
    spec = folder / "kernels" / "python3"
    spec.mkdir(parents=True)
    command = f"sleep {KERNEL_DELAY}; exec {shlex.quote(sys.executable)} -m ipykernel_launcher -f {{connection_file}}"
    spec.joinpath("kernel.json").write_text(json.dumps({
        "argv": ["/bin/sh", "-c", command], "display_name": "Python 3 (slow to start)", "language": "python"}))
    with serve("lessons", folder / "voila.log", "--Classroom.rendering=1", env={"JUPYTER_PATH": str(folder)}) as server:
        yield server


def test_served_text_while_the_kernel_starts(browser: Any, slow_kernel_server: VoilaServer) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 900}, locale="en-GB")
    context.set_default_timeout(60_000)
    page = context.new_page()
    started = time.monotonic()
    page.goto(slow_kernel_server.url("05-following.ipynb"), wait_until="commit")
    seconds = _reading(page, started)
    print(f"served: heading and first paragraph visible {seconds:.2f} s after navigation, "
          f"the kernel starting {KERNEL_DELAY:.0f} s late")
    assert seconds < KERNEL_DELAY - 2, "the text came only once the kernel was up"
    assert _notes_shown(page, 7, KERNEL_DELAY - 2 - seconds), "no note where each drill will stand"
    assert not _drills_usable(page)
    assert time.monotonic() - started < KERNEL_DELAY, "the notes came only once the kernel was up"
    page.wait_for_function("""() => {
        const drills = [...document.querySelectorAll('[data-qd=drill]')];
        return drills.length >= 7 && drills.every(d => !d.querySelector('[data-qd=check]').disabled);
    }""", timeout=90_000)
    assert time.monotonic() - started >= KERNEL_DELAY - 1  # the kernel really was late
    assert _waiting_notes(page) == 0
    # Each output is in its own place: the first quick check follows its heading.
    order = page.evaluate("""() => {
        const check = [...document.querySelectorAll('p')].find(p => p.textContent.startsWith('Quick check (W0, W1)'));
        const drill = document.querySelector('[data-qd=drill]');
        return !!check && !!drill && !!(check.compareDocumentPosition(drill) & Node.DOCUMENT_POSITION_FOLLOWING);
    }""")
    assert order
    page.goto("about:blank")
    context.close()


def test_a_page_waiting_its_turn_reads_already(browser: Any, slow_kernel_server: VoilaServer) -> None:
    """Pages run their notebooks in turn (one at a time here); a page waiting for its turn
    shows its text meanwhile."""
    context = browser.new_context(viewport={"width": 1000, "height": 900}, locale="en-GB")
    context.set_default_timeout(90_000)
    first, second = context.new_page(), context.new_page()
    first.goto(slow_kernel_server.url("05-following.ipynb"), wait_until="commit")
    _reading(first, time.monotonic())
    started = time.monotonic()
    second.goto(slow_kernel_server.url("06-ruffing.ipynb"), wait_until="commit")
    second.get_by_role("heading", name="6 · Ruffing").wait_for(state="visible", timeout=30_000)
    waited = time.monotonic() - started
    print(f"served: a page waiting its turn shows its heading {waited:.2f} s after navigation")
    assert not _drills_usable(first), "the first page's kernel was still starting"
    note = json.dumps(Translator("en")(GETTING_READY), ensure_ascii=False)
    second.wait_for_function("""(note) => [...document.querySelectorAll('#rendered_cells .qd-waiting')]
        .filter(e => getComputedStyle(e, '::before').content === note).length >= 5""", arg=note, timeout=10_000)
    first.wait_for_function("""() => [...document.querySelectorAll('[data-qd=drill]')].length >= 7""", timeout=90_000)
    second.wait_for_function("""() => [...document.querySelectorAll('[data-qd=drill]')].length >= 5""",
                             timeout=90_000)
    for page in (first, second):
        page.goto("about:blank")
    context.close()


def test_served_chinese_page_reads_first(browser: Any, lessons_server: VoilaServer) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 900}, locale="zh-CN")
    page = context.new_page()
    page.goto(lessons_server.url("05-following.ipynb", "lang=zh-Hant"), wait_until="commit")
    page.locator("h1").first.wait_for(state="visible", timeout=30_000)
    page.wait_for_function("""() => [...document.querySelectorAll('[data-qd=drill]')].length >= 7""", timeout=60_000)
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert _waiting_notes(page, "zh-Hant") == 0
    page.goto("about:blank")
    context.close()


def test_served_examples_are_drawn_once(lessons_server: VoilaServer) -> None:
    """Once the server has drawn the lessons (in the background, at start), a lesson's page
    brings its examples as HTML: those cells no longer run in the learner's kernel."""
    from voila_serve import open_page

    deadline = time.monotonic() + 240
    while True:
        status, text, _ = open_page(lessons_server.url("05-following.ipynb"))
        assert status == 200
        if 'class="qd-static"' in text:
            break
        assert time.monotonic() < deadline, "the lessons' examples were not drawn"
        time.sleep(5)
    assert "Illegal (W0)" in text and text.count('class="qd-static"') >= 10

