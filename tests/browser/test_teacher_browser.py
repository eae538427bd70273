"""The teacher's tools in a real browser against the course served by a real Voila: a
position link opens its drill with the given cards and judges a wrong and a right
answer (verdicts asked of tutor, the same drill the page's kernel makes); a bad link
gets a note and the page's form still works; a lesson's sheet prints to A4 (read back
from the PDF Chromium makes): the positions on page 1, the key from page 2, every line
whole, no control printed."""

from __future__ import annotations

import io
import re
import unicodedata
from typing import Any
from urllib.parse import quote

import pypdf
from conftest import ARTIFACTS

from tutor.core.i18n import Translator
from tutor.teach.classroom import MAX_RULES, Report, Score, decode, encode, report_of
from tutor.teach.course import LESSONS
from tutor.teach.drills.progress import MAX_STARS, Progress, track, utc

from tutor.teach.drills import Drill, generate
from tutor.teach.positions import make_link
from tutor.teach.sheets import Sheet, answer_key, make_sheet
from widgets.check import CHECKS_KEY
from widgets.drill import STORAGE_KEY

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
    page.locator("textarea").first.fill("kind: trick; trump: ♥; lead: ♦3; played: ♣A / ♦3")
    page.get_by_role("button", name="Make the link").click()
    box = page.locator("[data-qd=share-link][data-ready]")
    box.wait_for(timeout=30_000)
    made = make_link("kind: trick; trump: ♥; lead: ♦3; played: ♣A / ♦3").href
    assert box.locator("[data-qd=share-field]").input_value() == f"{lessons_server.base}/voila/render/{made}"
    page.locator("[data-qd=drill]").wait_for(timeout=30_000)
    assert not errors, errors


THROW = ("kind: throw\ntrump: ♥\nseat: 0\nhand: ♠A ♠Q ♠Q ♠5 ♥3 ♣2\nthrow: ♠A ♠Q ♠Q\n"
         "others: ♠K ♠K ♠3 / ♠9 ♥4 / - / ♠4")
"""A throw position: one of the longest links (every other hand's cards, each suit symbol nine characters)."""


def _share(page: Any, page_base: str, page_name: str = "positions.ipynb") -> Any:
    """Make the link of :data:`THROW` on the positions page and check what it shows: the
    page's own address (origin and path) with the position, whole, wrapped inside its field
    (the served course's page is ``positions.ipynb``, the static site's ``positions.html``)."""
    page.locator("textarea").first.fill(THROW)
    page.get_by_role("button", name="Make the link").click()
    box = page.locator("[data-qd=share-link][data-ready]")
    box.wait_for(timeout=60_000)
    made = make_link(THROW).href
    assert made is not None
    field = box.locator("[data-qd=share-field]")
    url = field.input_value()
    assert url == page_base + made.replace("positions.ipynb", page_name)  # this page's origin and path, the position
    assert box.locator("[data-qd=share-open]").get_attribute("href") == url
    fits = field.evaluate("""f => ({ wide: f.scrollWidth <= f.clientWidth + 1, tall: f.scrollHeight <= f.clientHeight + 2,
        right: f.getBoundingClientRect().right, page: document.documentElement.clientWidth,
        readOnly: f.readOnly, wrap: getComputedStyle(f).overflowWrap })""")
    assert fits["readOnly"] and fits["wrap"] == "anywhere", fits
    assert fits["wide"] and fits["tall"] and fits["right"] <= fits["page"], fits  # wrapped, all of it in view
    return box


def test_a_position_link_is_whole_and_copied(browser: Any, lessons_server: Any, screenshot: Any) -> None:
    """The served page: the link to share is absolute (the kernel does not know the host:
    the page completes it), wrapped in a read-only field, and Copy — by mouse or keyboard —
    copies it and says so; without the clipboard API it copies with the browser's command."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        page, errors = _open(context, lessons_server, "positions.ipynb", "textarea")
        box = _share(page, f"{lessons_server.base}/voila/render/")
        url = box.locator("[data-qd=share-field]").input_value()
        copy = box.get_by_role("button", name="Copy")
        copy.focus()
        page.keyboard.press("Enter")
        status = box.locator("[data-qd=share-status]")
        status.filter(has_text="Copied.").wait_for(timeout=10_000)
        assert page.evaluate("navigator.clipboard.readText()") == url
        screenshot(page, "link")

        page.evaluate("""() => { Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
            window.qdCopied = []; const real = document.execCommand.bind(document);
            document.execCommand = (name) => { window.qdCopied.push([name, document.activeElement.value.slice(
                document.activeElement.selectionStart, document.activeElement.selectionEnd)]); return real(name); }; }""")
        page.evaluate("document.querySelector('[data-qd=share-status]').textContent = ''")
        copy.click()
        status.filter(has_text="Copied.").wait_for(timeout=10_000)
        assert page.evaluate("window.qdCopied") == [["copy", url]]  # the fallback copied the whole link
        assert not errors, errors
    finally:
        for page in context.pages:
            page.goto("about:blank")
        context.close()


def test_a_position_link_is_whole_on_the_static_site(browser: Any, site: Any) -> None:
    """The static site (Python in the page): the link is this page's own address too."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    context.route(re.compile(r"^(?!https?://127\.0\.0\.1[:/]|data:|blob:).*"), lambda route: route.abort())
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        address = site.url("positions.ipynb")
        page.goto(address, wait_until="load", timeout=180_000)
        page.locator(".widget-textarea textarea").first.wait_for(timeout=180_000)
        _share(page, address.rsplit("/", 1)[0] + "/", "positions.html")
        assert not errors, errors
    finally:
        context.close()


def _pdf_pages(pdf: bytes) -> list[str]:
    """The text of each page of a PDF, white space taken out (lines may wrap anywhere)."""
    return [_squeezed(sheet.extract_text()) for sheet in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def _squeezed(text: str) -> str:
    """``text`` without white space, in NFKC (a PDF's fonts may map 无 to the radical ⽆)."""
    return "".join(unicodedata.normalize("NFKC", text).split())


def _printed(page: Any, sheet: Sheet, label: str, screenshot: Any) -> None:
    """The served sheet printed to A4: two pages, the eight positions on the first, the key
    from the top of the second, every answer's whole text on paper."""
    pdf = page.pdf(format="A4")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"sheet-{label}.pdf").write_bytes(pdf)
    pages = _pdf_pages(pdf)
    first, second = pages[0], pages[1] if len(pages) > 1 else ""
    tr = Translator(sheet.drills[0].lang)
    title = _squeezed(tr("Lesson sheet: {title}", title=tr(sheet.lesson.title)))
    key_title = _squeezed(tr("Answer key: {title}", title=tr(sheet.lesson.title)))
    assert len(pages) == 2, [text[:80] for text in pages]  # no blank page, the key on one page of its own
    assert first.startswith(title), first[:200]  # the positions begin the first page, nothing printed above them
    for drill in sheet.drills:
        assert _squeezed(drill.question) in first, drill.question
    assert key_title not in first and second.startswith(key_title), second[:200]
    for drill in sheet.drills:  # every line of the key whole: a line cut at the margin loses its end
        answers, _count, _rule, why = answer_key(drill)
        assert _squeezed(why) in second, why
        assert _squeezed(tr.semicolons(answers)) in second, answers
    size = page.viewport_size
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi: what the paper shows
    page.emulate_media(media="print")
    screenshot(page, label)
    page.emulate_media(media="no-override")
    page.set_viewport_size(size)


def test_a_lesson_sheet_prints(context: Any, lessons_server: Any, screenshot: Any) -> None:
    """The README's sheet, printed to A4 from Chromium: positions on page 1 (no blank page
    before them), the key from the top of page 2, nothing cut at the right margin; then a
    lesson whose positions are the longest (throws, with every other hand's cards in the
    question), chosen on the same page."""
    context.set_default_timeout(60_000)
    sheet = make_sheet("05-following", seed=3, level=2)
    page, errors = _open(context, lessons_server, "sheet.ipynb?lesson=05-following&seed=3&level=2", ".qd-sheet-key")
    assert page.locator(".qd-sheet-positions .qd-sheet-question").count() == len(sheet.drills)
    on_screen = page.evaluate("""() => [...document.querySelectorAll('button, input, select, textarea, .qd-languages')]
        .filter(e => e.getClientRects().length > 0).length""")
    assert on_screen > 0  # the form is there on screen …
    page.emulate_media(media="print")
    shown = page.evaluate("""() => [...document.querySelectorAll('button, input, select, textarea, .qd-languages')]
        .filter(e => e.getClientRects().length > 0).length""")
    assert shown == 0  # … and none of it on paper
    page.emulate_media(media="no-override")
    _printed(page, sheet, "05-following", screenshot)

    throws = make_sheet("07-throws", seed=3, level=2)
    page.locator(".widget-dropdown select").first.select_option(label=Translator("en")(throws.lesson.title))
    page.wait_for_function("t => document.querySelector('.qd-sheet h2').textContent.includes(t)",
                           arg=Translator("en")(throws.lesson.title))
    _printed(page, throws, "07-throws", screenshot)
    assert not errors, errors


def test_a_lesson_sheet_prints_in_chinese(context: Any, lessons_server: Any, screenshot: Any) -> None:
    sheet = make_sheet("05-following", seed=3, level=2, lang="zh-Hans")
    page, errors = _open(context, lessons_server, "sheet.ipynb?lesson=05-following&seed=3&level=2&lang=zh-Hans",
                         ".qd-sheet-key")
    assert page.locator(".qd-sheet").get_attribute("lang") == "zh-Hans"
    _printed(page, sheet, "05-following-zh-Hans", screenshot)
    screenshot(page, "screen")
    assert not errors, errors


def _class() -> str:
    """A class's codes as a teacher pastes them: learners who answered drills in every lesson
    (quick checks too), one with as many rules missed as a code carries, names long and short."""
    scores, checks = [], []
    for number, info in enumerate(LESSONS):
        for kind in info.drills:
            scores.append((track(kind, info.slug), Score(number % (MAX_STARS + 1), 137, 99)))
        checks.append((info.slug, Score(0, 8, 6)))
    rules = [f"{letter}{n}" for letter in "WRLSXFCM" for n in range(1, 10)][:MAX_RULES]
    missed = tuple((rule, 40 - i) for i, rule in enumerate(rules))
    names = ["Ann Lee", "Chen Xiaoming-Wang", "欧阳小明", "Bo"]
    return "\n".join(f"{name}: {encode(Report(name, tuple(sorted(scores)), missed if i == 1 else missed[:2], tuple(checks)))}"
                     for i, name in enumerate(names))


def _class_table(page: Any) -> None:
    page.locator("[data-qd=codes]").wait_for(timeout=90_000)
    page.wait_for_selector("[data-qd=class-empty]", timeout=90_000)
    page.locator("[data-qd=codes]").fill(_class())
    page.locator("[data-qd=show]").click()
    page.locator("[data-qd=class-table] tbody tr").nth(3).wait_for(timeout=30_000)


def test_the_class_table_fits_a_laptop_screen(browser: Any, lessons_server: Any, screenshot: Any) -> None:
    """At 1280×800 the teacher's table takes the page's width, every column — lesson 11 and
    the rules missed too — inside the window, no row more than a few lines high, and each
    lesson's quick checks counted; below that width it scrolls sideways in its own box."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    try:
        page, errors = _open(context, lessons_server, "teacher.ipynb", "[data-qd=codes]")
        _class_table(page)
        seen = page.evaluate("""() => {
            const table = document.querySelector('[data-qd=class-table]');
            const box = document.querySelector('[data-qd=class]');
            const heads = [...table.querySelectorAll('thead th')].map(th => {
                const r = th.getBoundingClientRect(); return [th.textContent, r.left, r.right]; });
            const cells = [...table.querySelectorAll('tbody td, tbody th')].map(c => c.getBoundingClientRect().right);
            return { right: table.getBoundingClientRect().right, width: innerWidth, heads, cells,
                     scrolls: box.scrollWidth > box.clientWidth, page: document.scrollingElement.scrollWidth,
                     rows: [...table.querySelectorAll('tbody tr')].map(tr => tr.getBoundingClientRect().height),
                     line: parseFloat(getComputedStyle(table).lineHeight) }; }""")
        assert seen["right"] <= seen["width"], seen  # the table's right edge inside the window
        assert [head for head, _, _ in seen["heads"]] == ["Learner", *[info.slug[:2] for info in LESSONS
                                                                      if info.drills], "Rules missed"]
        assert all(0 <= left and right <= seen["width"] for _, left, right in seen["heads"]), seen["heads"]
        assert max(seen["cells"]) <= seen["width"] and not seen["scrolls"] and seen["page"] <= seen["width"]
        rows = seen["rows"]  # compact: a row a line a kind of drill, the most rules a code carries in a few more
        assert max(rows[:1] + rows[2:]) <= 4 * seen["line"] and rows[1] <= 8 * seen["line"], rows
        cell = page.locator('tr[data-learner="Ann Lee"] td[data-lesson="09-scoring"]')
        assert cell.inner_text().split()[-2:] == ["✓", "6/8"]  # the quick checks, right of answered
        screenshot(page, "1280")

        page.set_viewport_size({"width": 900, "height": 800})
        page.wait_for_function("() => { const b = document.querySelector('[data-qd=class]');"
                               " return b.scrollWidth > b.clientWidth; }")
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 900  # the box scrolls, not the page
        page.locator("[data-qd=class]").evaluate("b => { b.scrollLeft = b.scrollWidth; }")
        name = page.locator('tr[data-learner="Ann Lee"] th').bounding_box()
        assert name is not None and name["x"] >= 0  # the learner's name stays in view
        screenshot(page, "900")
        assert not errors, errors
    finally:
        for page in context.pages:
            page.goto("about:blank")
        context.close()


def test_the_hand_in_counts_the_quick_checks(context: Any, lessons_server: Any) -> None:
    """The home page's code counts the quick checks this browser answered (their own store)."""
    checks = Progress()
    for seed in range(6):
        checks = checks.record("score", seed, 1, seed != 2, utc(2025, 1, 1, seed), lesson="09-scoring")
    drills = Progress().record("score", 9, 1, True, utc(2025, 1, 2), lesson="09-scoring")
    page, errors = _open(context, lessons_server, "index.ipynb", "[data-qd=hand-in] [data-qd=name]")
    page.evaluate("([k1, v1, k2, v2]) => { localStorage.setItem(k1, v1); localStorage.setItem(k2, v2); }",
                  [STORAGE_KEY, drills.to_json(), CHECKS_KEY, checks.to_json()])
    page.reload()
    page.locator("[data-qd=hand-in] [data-qd=name]").wait_for(timeout=90_000)
    page.locator("[data-qd=hand-in] [data-qd=name]").fill("Ann")
    page.wait_for_function("() => { const c = document.querySelector('[data-qd=hand-in]').dataset.code || '';"
                           " return c.startsWith('QD-') && c.length > 20; }", timeout=30_000)
    page.wait_for_timeout(500)  # the name's code, not an earlier one
    report = decode(page.locator("[data-qd=hand-in]").get_attribute("data-code") or "")
    assert report == report_of(drills, "Ann", checks)
    assert report.checked("09-scoring") == Score(0, 6, 5) and report.score("score", "09-scoring") == Score(0, 1, 1)
    assert not errors, errors


def test_quick_checks_answered_in_a_lesson_reach_the_teachers_table(context: Any, lessons_server: Any,
                                                                   screenshot: Any) -> None:
    """What a learner and their teacher do: answer three of lesson 05's quick checks (one
    wrong), see them on the home page, hand in the progress code, and the teacher pastes it:
    the table's lesson 05 cell shows the quick checks, 2 right of 3 answered. Every answer is
    given in the page, nothing is written into the browser's store by the test."""
    slug = "05-following"
    wanted = [(generate("follow", 1, 1), "wrong"), (generate("follow", 53, 3), "right"),
              (generate("trick", 9, 2), "right")]  # the notebook's quick_check(…) of these seeds
    page, errors = _open(context, lessons_server, f"{slug}.ipynb", "[data-qd=drill][data-synced] [data-qd=check]")
    page.locator(".qd-practice [data-qd=drill][data-synced]").first.wait_for(timeout=90_000)
    for drill, result in wanted:
        check = page.locator("[data-qd=drill]").filter(
            has=page.locator("[data-qd=question]", has_text=drill.question)).first
        key = next(c.key for c in drill.choices if (c.key in drill.correct) is (result == "right"))
        check.locator(f'button.qd-choice[data-key="{key}"]').click()
        check.locator("[data-qd=check]").click()
        check.locator(f'[data-qd=feedback][data-result="{result}"]').wait_for(timeout=30_000)
    page.goto("about:blank")

    home, home_errors = _open(context, lessons_server, "index.ipynb", "[data-qd=hand-in] [data-qd=name]")
    line = home.locator(f'[data-qd=course] li[data-lesson="{slug}"] [data-qd=checks]')
    line.wait_for(timeout=30_000)
    assert line.inner_text() == "Quick checks · 3 answered, 2 right"
    screenshot(home, "home")
    home.locator("[data-qd=hand-in] [data-qd=name]").fill("Ann")
    home.wait_for_function("() => { const c = document.querySelector('[data-qd=hand-in]').dataset.code || '';"
                           " return c.startsWith('QD-') && c.length > 20; }", timeout=30_000)
    code = ""
    for _ in range(300):  # the code made with the name typed (an earlier one has none)
        code = home.locator("[data-qd=hand-in]").get_attribute("data-code") or ""
        if decode(code).name == "Ann":
            break
        home.wait_for_timeout(100)
    assert decode(code).name == "Ann" and decode(code).checked(slug) == Score(0, 3, 2)
    home.goto("about:blank")

    teacher, teacher_errors = _open(context, lessons_server, "teacher.ipynb", "[data-qd=codes]")
    teacher.wait_for_selector("[data-qd=class-empty]", timeout=90_000)
    teacher.locator("[data-qd=codes]").fill(f"Ann: {code}")
    teacher.locator("[data-qd=show]").click()
    cell = teacher.locator(f'[data-qd=class-table] tr[data-learner="Ann"] td[data-lesson="{slug}"]')
    cell.wait_for(timeout=30_000)
    assert cell.inner_text().split()[-2:] == ["✓", "2/3"]  # the quick checks, right of answered
    screenshot(teacher, "teacher")
    assert not errors and not home_errors and not teacher_errors, (errors, home_errors, teacher_errors)
