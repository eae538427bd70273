"""Class progress in a real browser, against the course as ``./dev serve`` serves it.

A learner answers lesson 05's drill (wrong, then right after Retry), opens the home page,
types their name and takes their progress code, as text and as the downloaded file. A
teacher, in a browser of their own, pastes the code (with a junk line and a tampered copy)
into the teacher's page and sees one table with the learner's lesson-05 row and the rule
they missed, and notes naming the bad lines; the downloaded file gives the same table.
What the code must say is asked of ``tutor`` (the progress the learner's browser stored);
screenshots go to ``test-artifacts/``. The same again on the static site (``./dev site``,
built once per session by ``test_static_site``'s fixture), where Python runs in the page
and no request may leave 127.0.0.1.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from test_lessons import _assert_clean, _expect_feedback, _give, _plan, _seed_for
from static_serve import StaticSite
from test_static_site import Learner

from tutor.teach.classroom import decode, encode, read_class, report_of
from tutor.teach.drills.progress import Progress, utc
from tutor.core.i18n import Translator
from widgets.drill import STORAGE_KEY

SLUG = "05-following"
NAME = "Mei Lin"
PAGE_TIMEOUT = 120_000  # a static page starts Python in the page


def _page(context: Any, url: str) -> tuple[Any, list[str]]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT)
    return page, errors


def _close(page: Any) -> None:
    page.goto("about:blank")  # unload: the page's beacon shuts its kernel down
    page.close()


def answer_lesson_05(context: Any, url: str) -> str:
    """Answer lesson 05's drill wrong, then right; the rule the drill is decided by."""
    seed = _seed_for(("follow",), SLUG)
    plan = _plan("follow", seed, SLUG)
    assert plan is not None
    page, errors = _page(context, url + f"?seed={seed}")
    page.wait_for_function("""() => { const d = document.querySelector('.qd-practice [data-qd=drill]');
        return d && d.querySelector('[data-qd=answer]').children.length > 0
               && !d.querySelector('[data-qd=check]').disabled; }""", timeout=PAGE_TIMEOUT)
    drill = page.locator(".qd-practice [data-qd=drill]").first  # the lesson's practice, not a drill in its text
    _give(drill, plan, plan.wrong)
    _expect_feedback(drill, plan, plan.wrong, "wrong")
    drill.locator("[data-qd=retry]").click()
    drill.locator("[data-qd=feedback]").wait_for(state="hidden")
    _give(drill, plan, plan.right)
    _expect_feedback(drill, plan, plan.right, "right")
    page.wait_for_function("(key) => (localStorage.getItem(key) || '').includes('05-following/follow')",
                           arg=STORAGE_KEY, timeout=20_000)
    _assert_clean(page, errors, SLUG)
    _close(page)
    return plan.drill.rule


def hand_in(context: Any, url: str, tmp_path: Path, shot: Any) -> tuple[str, Path, Progress]:
    """The learner's code from the home page (typed name, Copy's text, the downloaded
    file) and the progress their browser stored."""
    page, errors = _page(context, url)
    panel = page.locator("[data-qd=hand-in]")
    panel.locator('[data-qd=name]').wait_for(timeout=PAGE_TIMEOUT)
    page.wait_for_function("() => (document.querySelector('[data-qd=hand-in]').dataset.code || '').startsWith('QD-')",
                           timeout=PAGE_TIMEOUT)
    first = panel.get_attribute("data-code")
    panel.locator("[data-qd=name]").fill(NAME)
    page.wait_for_function("(first) => document.querySelector('[data-qd=hand-in]').dataset.code !== first",
                           arg=first, timeout=20_000)
    code = panel.locator("[data-qd=code]").input_value()
    with page.expect_download() as download:
        panel.locator("[data-qd=download]").click()
    assert download.value.suggested_filename == "qidong-progress-Mei-Lin.txt"
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.read_text("utf-8") == code + "\n"
    stored = Progress.from_json(page.evaluate(f"localStorage.getItem({json.dumps(STORAGE_KEY)})"))
    _assert_clean(page, errors, "index")
    panel.scroll_into_view_if_needed()
    shot(page, "hand-in")
    _close(page)
    return code, path, stored


def read_by_teacher(context: Any, url: str, code: str, file: Path, rule: str, shot: Any) -> None:
    """The teacher's page: the pasted codes, then the file, shown as one table."""
    page, errors = _page(context, url)
    page.locator("[data-qd=codes]").wait_for(timeout=PAGE_TIMEOUT)
    page.wait_for_selector("[data-qd=class-empty]", timeout=PAGE_TIMEOUT)
    tampered = code[:-5] + ("B" if code[-5] == "A" else "A") + code[-4:]
    page.locator("[data-qd=codes]").fill(f"{NAME}: {code}\nhello there\n{tampered}\n{code}")
    page.locator("[data-qd=show]").click()
    row = page.locator(f'[data-qd=class-table] tr[data-learner="{NAME}"]')
    row.wait_for(timeout=20_000)
    assert page.locator("[data-qd=class-table] tbody tr").count() == 1
    cell = row.locator('td[data-lesson="05-following"]')
    assert cell.inner_text().split() == ["☆☆☆", "0/1"]
    assert row.locator(f'[data-qd=missed] [data-rule="{rule}"]').inner_text() == f"{rule} ×1"
    notes = page.locator("[data-qd=class-note]").all_inner_texts()
    assert notes == ["line 2 is not a progress code and was ignored (“hello there”)",
                     "line 3: this code was changed or mistyped (its check does not match)",
                     f"{NAME} is here twice (line 1 and line 4); the later code is kept"]
    _assert_clean(page, errors, "teacher")
    shot(page, "teacher")
    page.locator("[data-qd=codes]").fill("")
    page.locator("[data-qd=files]").set_input_files(str(file))
    page.wait_for_function("() => document.querySelectorAll('[data-qd=class-note]').length === 0"
                           " && !!document.querySelector('[data-qd=class-table] tr[data-learner]')", timeout=20_000)
    assert row.locator('td[data-lesson="05-following"]').inner_text().split() == ["☆☆☆", "0/1"]
    _close(page)


def test_a_learners_code_reaches_the_teachers_table(browser: Any, lessons_server: Any, tmp_path: Path,
                                                    screenshot: Any) -> None:
    learner = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB", accept_downloads=True)
    teacher = browser.new_context(viewport={"width": 1300, "height": 900}, locale="en-GB")
    try:
        rule = answer_lesson_05(learner, lessons_server.url(f"{SLUG}.ipynb"))
        code, file, stored = hand_in(learner, lessons_server.url("index.ipynb"), tmp_path, screenshot)
        assert decode(code) == report_of(stored, NAME)
        assert decode(code).score("follow", SLUG).attempts == 1 and dict(decode(code).missed) == {rule: 1}
        read_by_teacher(teacher, lessons_server.url("teacher.ipynb"), code, file, rule, screenshot)
    finally:
        learner.close()
        teacher.close()


def test_the_teachers_page_in_chinese(context: Any, lessons_server: Any, screenshot: Any) -> None:
    progress = Progress().record("ruff", 5, 1, False, utc(2025, 1, 1), lesson="06-ruffing")
    paste = f"{encode(report_of(progress, '小明'))}\n你好\nQD-AQMAAADHxeSP"
    page, errors = _page(context, lessons_server.url("teacher.ipynb", "lang=zh-Hant"))
    page.wait_for_selector("[data-qd=class-empty]", timeout=PAGE_TIMEOUT)
    page.locator("[data-qd=codes]").fill(paste)
    page.locator("[data-qd=show]").click()
    page.locator('tr[data-learner="小明"]').wait_for(timeout=20_000)
    said = [Translator("zh-Hant")(note) for note in read_class(paste).notes]
    assert page.locator("[data-qd=class-note]").all_inner_texts() == said
    assert said[0].startswith("第 2 行不是進度碼")
    assert page.locator("[data-qd=class-table] caption").inner_text() == "1 名學生"
    assert page.locator("[data-qd=class-table] thead th").first.inner_text() == "學生"
    assert page.locator('tr[data-learner="小明"] td[data-lesson="06-ruffing"]').inner_text().split() == [
        "☆☆☆", "0/1", "–"]  # ruffing's two drill kinds: ruff answered once, trick not yet
    _assert_clean(page, errors, "teacher")
    screenshot(page, "zh-Hant")
    _close(page)


def test_the_same_on_the_static_site(browser: Any, site: StaticSite, tmp_path: Path,  # noqa: F811
                                     screenshot: Any) -> None:
    learner, teacher = Learner(browser), Learner(browser)
    try:
        rule = answer_lesson_05(learner.context, site.url(f"{SLUG}.ipynb"))
        # The static home page is plain HTML: its hand-in link opens a page of its own with Python.
        code, file, stored = hand_in(learner.context, site.url("hand-in.ipynb"), tmp_path, screenshot)
        assert decode(code) == report_of(stored, NAME) and dict(decode(code).missed) == {rule: 1}
        read_by_teacher(teacher.context, site.url("teacher.ipynb"), code, file, rule, screenshot)
    finally:
        learner.close()  # no request left 127.0.0.1, no script error
        teacher.close()
