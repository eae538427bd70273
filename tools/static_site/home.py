"""The static site's home page as plain HTML and script: the lessons and this browser's
progress show as soon as the page arrives, with no Python in the page.

A Voici page shows nothing until Python has started in it (11–14 s), and the home page
needs Python for none of what it shows first. So the build writes
``voici/render/<language>/index.html`` itself, from ``lessons/index.ipynb`` translated as
every page is (:func:`tutor.teach.localize.localize`):

- each markdown cell rendered to HTML by nbconvert, as Voici renders it;
- the course map (the ``course-map`` cell) drawn by :class:`widgets.course.CourseMap` for
  no progress, and ``home.js`` beside it, which fills in each lesson's stars and answered
  counts from the progress this browser keeps (:data:`widgets.drill.STORAGE_KEY`), with
  pieces CourseMap drew for it (:func:`home_facts`): every word comes from the catalogs;
- the hand-in panel (the ``hand-in-panel`` cell, which makes a progress code in Python)
  replaced by a link to a page of its own, ``hand-in.html`` (:data:`HAND_IN`): a Voici page
  of that section of the home page (:func:`hand_in_notebook`), where Python runs as on any
  lesson page.

The page keeps the language switch and ``page.js`` (``?lang=``, the language cookie, the
link's parameters kept on the switch), ``<html lang>``, and the style sheet the course's
widgets bring (``widgets/static/qd.css``), inline: it loads nothing else at all. A build
error here (:class:`HomePageError`) names the cell or the piece of the map it is about.

>>> sorted(CELLS)
['course-map', 'hand-in-panel']
>>> static_links('<a href="05-following.ipynb?lang=en">', ["05-following"])
'<a href="05-following.html?lang=en">'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from html import escape, unescape
from pathlib import Path
from typing import Any, Final

from tutor.core.arguments import SEATS
from tutor.play.record import HEADER
from tutor.teach import mistakes
from tutor.teach.course import LESSONS, LEVELS, MAX_PARAMS, page_link, practice_lesson
from tutor.teach.drills.common import SEEDS
from tutor.teach.drills.progress import (CARD_FIELDS, CARD_STATES, CLEARED_AFTER, DUE_FORMAT, MAX_COUNT, MAX_KINDS, MAX_NAME,
                                         MAX_REVIEWS, MAX_STARS, MAX_STORED, PER_LESSON, VERSION, KindProgress, Progress,
                                         track)
from tutor.core.i18n import LANGUAGES, Text, Translator
from tutor.teach.localize import SWITCH_CELL, localize

HERE: Final = Path(__file__).resolve().parent

HOME: Final = "index"
"""The home page's notebook (``lessons/index.ipynb``) and page (``index.html``)."""
HAND_IN: Final = "hand-in"
"""The page that makes a learner's progress code, beside the home page in each language."""
HAND_IN_CELLS: Final = ("hand-in", "hand-in-panel")
"""The home page's hand-in section (its words and its panel): the hand-in page's cells."""
BACK: Final = ("teacher", "back")
"""The notebook and cell of the link back to the course (``[Back to the course](index.ipynb)``),
which the hand-in page ends with, in its translations."""

CELLS: Final[Mapping[str, str]] = {
    "course-map": "the course map, drawn at build time, and home.js filling in this browser's progress",
    "hand-in-panel": "a link to the hand-in page, where Python runs",
}
"""The home notebook's code cells and what the plain page shows for each. Another code cell
fails the build: it would need Python, and nothing of the home page is dropped unseen."""

SAMPLE_COUNT: Final = 1234567
"""An answered count to draw the map with: where it appears, the script puts a learner's."""

PAGE_CSS: Final = """
:root { color-scheme: light; --jp-content-font-color1: rgba(0, 0, 0, .87); --jp-content-font-color2: rgba(0, 0, 0, .54);
  --jp-layout-color1: #fff; --jp-layout-color2: #eee; --jp-border-color1: #bdbdbd; --jp-brand-color1: #1976d2;
  --jp-content-link-color: #0d47a1; }
body { margin: 0; background: #fff; color: var(--jp-content-font-color1);
  font: 14px/1.6 system-ui, -apple-system, blinkmacsystemfont, "Segoe UI", helvetica, arial, sans-serif; }
main { padding: 8px 20px 3em; max-width: 1040px; }
h1, h2, h3 { font-weight: 500; line-height: 1.2; margin: 1.2em 0 .8em; }
h1 { font-size: 2.0736em; } h2 { font-size: 1.728em; } h3 { font-size: 1.44em; }
p { margin: 0 0 1em; }
a { color: var(--jp-content-link-color); }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--jp-layout-color2);
  padding: 1px 5px; border-radius: 2px; }
.anchor-link { visibility: hidden; text-decoration: none; margin-left: .25em; }
:is(h1, h2, h3, h4):hover .anchor-link { visibility: visible; }
.qd-languages { margin: .6em 0 0; }
.qd-course { margin: 1.5em 0; }
.qd-hand-in { margin: 0 0 1.5em; }
.qd-course a { text-decoration: none; } .qd-course a:hover { text-decoration: underline; }
a.qd-button { display: inline-flex; align-items: center; text-decoration: none; }
"""
"""The page around the course's own styles, as Voici's light theme shows the other pages."""


class HomePageError(RuntimeError):
    """The home notebook cannot be made into a plain page (the message says why)."""


def read_notebook(path: Path) -> Any:
    """A notebook of the course (an ``nbformat`` node)."""
    import nbformat

    return nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]


# ----------------------------------------------------------------- the hand-in page

def write_hand_in(lessons: Path, contents: Path) -> None:
    """``contents/<language>/hand-in.ipynb`` for each language, for Voici to build beside
    the lessons (see :func:`hand_in_notebook`)."""
    import nbformat

    for language in LANGUAGES:
        folder = contents / language
        folder.mkdir(parents=True, exist_ok=True)
        page = hand_in_notebook(lessons, language)
        nbformat.write(page, folder / f"{HAND_IN}.ipynb")  # type: ignore[no-untyped-call]


def hand_in_notebook(lessons: Path, language: str) -> Any:
    """The hand-in page in ``language``: the home notebook's hand-in section (its words and
    :class:`widgets.HandIn`), translated, with the language switch and the link back to the
    course.

    >>> page = hand_in_notebook(Path(__file__).parents[2] / "lessons", "zh-Hant")
    >>> [cell.id for cell in page.cells][-4:]
    ['qd-languages', 'hand-in', 'hand-in-panel', 'back']
    >>> switch = next(cell for cell in page.cells if cell.id == "qd-languages")
    >>> 'href="../en/hand-in.html?lang=en"' in switch.source, page.cells[-1].source.endswith("(index.html)")
    (True, True)
    """
    notebook = read_notebook(lessons / f"{HOME}.ipynb")
    own = {cell.get("id") for cell in notebook.cells}
    missing = [name for name in HAND_IN_CELLS if name not in own]
    if missing:
        raise HomePageError(f"{HOME}.ipynb has no cell {', '.join(missing)} for the hand-in page")
    home = localize(notebook, HOME, language, switch=lambda other: f"../{other}/{HAND_IN}.html")
    # The cells every page gets (the language, its switch), and the hand-in section.
    home.cells = [cell for cell in home.cells if cell.get("id") not in own or cell.get("id") in HAND_IN_CELLS]
    source, cell_id = BACK
    if (lessons / f"{source}.ipynb").exists():
        other = localize(read_notebook(lessons / f"{source}.ipynb"), source, language)
        back = next((cell for cell in other.cells if cell.get("id") == cell_id), None)
        if back is not None:
            back.source = back.source.replace(f"({HOME}.ipynb)", f"({HOME}.html)")
            home.cells.append(back)
    return home


# ----------------------------------------------------------------- the home page

def write_home_pages(site: Path, lessons: Path, slugs: Iterable[str], *, script: str,
                     page: Callable[[str, str], str]) -> None:
    """The home page of each language, over the one Voici built: ``page(language, slug)``
    is where a page is in the site, ``script`` the site's ``page.js`` and ``slugs`` every
    notebook with a page (links to them are made links to their pages)."""
    notebook = read_notebook(lessons / f"{HOME}.ipynb")
    slugs = list(slugs)
    for language in LANGUAGES:
        target = site / page(language, HOME)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(home_html(notebook, language, slugs, script), "utf-8")


def home_html(notebook: Any, language: str, slugs: Iterable[str], script: str = "") -> str:
    """The home page in ``language``, from the home notebook (an ``nbformat`` node).

    >>> notebook = read_notebook(Path(__file__).parents[2] / "lessons" / "index.ipynb")
    >>> page = home_html(notebook, "zh-Hans", [info.slug for info in LESSONS] + ["teacher"])
    >>> page.startswith('<!doctype html><html lang="zh-Hans" data-qd-language="zh-Hans">')
    True
    >>> 'href="05-following.html"' in page, 'href="teacher.html"' in page, f'href="{HAND_IN}.html"' in page
    (True, True, True)
    >>> "pyodide" in page, re.search(r'href="[^"]*\\.ipynb', page)
    (False, None)
    """
    own = {cell.get("id") for cell in notebook.cells} | {SWITCH_CELL}
    page = localize(notebook, HOME, language, switch=lambda other: f"../{other}/{HOME}.html")
    # The notebook's cells and the language switch; the other cells every page gets set up
    # its kernel and Voici's display, which the plain page has none of.
    cells = [cell for cell in page.cells if cell.get("id") in own]
    title = page_title(cells)
    body = "\n".join(cell_html(cell, language) for cell in cells)
    from widgets._common import CSS  # the course's style sheet, as its widgets bring it

    return (f'<!doctype html><html lang="{language}" data-qd-language="{language}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{escape(title)}</title><style>{CSS}{PAGE_CSS}</style>"
            + (f"<script>{script}</script>" if script else "")
            + f'</head><body data-jp-theme-light="true"><main>\n{static_links(body, slugs)}\n</main></body></html>\n')


def page_title(cells: Iterable[Any]) -> str:
    """The first heading of the markdown cells (the page's ``<title>``), else the course's name.

    >>> from nbformat.v4 import new_markdown_cell
    >>> page_title([new_markdown_cell("Some text"), new_markdown_cell("Hi\\n\\n# 启东招朋友 — *learn* it\\n")])
    '启东招朋友 — learn it'
    """
    for cell in cells:
        if cell.cell_type == "markdown":
            heading = re.search(r"^#{1,6}\s+(.+?)\s*#*\s*$", cell.source, re.MULTILINE)
            if heading:
                return re.sub(r"[*_`]", "", heading.group(1))
    return "启东招朋友"


def cell_html(cell: Any, language: str) -> str:
    """What the plain page shows for one cell of the home notebook: markdown rendered as Voici
    renders it, a code cell as :data:`CELLS` says (another one fails the build)."""
    if cell.cell_type == "markdown":
        from nbconvert.filters.markdown_mistune import markdown2html_mistune

        html = markdown2html_mistune(cell.source)
        return f'<div class="qd-cell" data-cell="{escape(cell.get("id", ""))}">{html}</div>'
    name = cell.get("id", "")
    if cell.cell_type != "code" or name not in CELLS:
        raise HomePageError(f"{HOME}.ipynb: the plain home page cannot show its {cell.cell_type} cell {name!r} "
                            f"(it shows {', '.join(CELLS)}; see tools/static_site/home.py)")
    if name == "course-map":
        return course_map_html(language)
    return hand_in_link(language)


def hand_in_link(language: str) -> str:
    """The link to the hand-in page, named as the hand-in panel names the code it makes.

    >>> hand_in_link("zh-Hans")
    '<p class="qd-root qd-hand-in"><a class="qd-button qd-primary" data-qd="hand-in-link" href="hand-in.html">你的进度码</a></p>'
    """
    from widgets.classroom import HAND_IN_LABELS

    label = Translator(language)(HAND_IN_LABELS["code"])
    return (f'<p class="qd-root qd-hand-in"><a class="qd-button qd-primary" data-qd="hand-in-link" '
            f'href="{HAND_IN}.html">{escape(label)}</a></p>')


def course_map_html(language: str) -> str:
    """The course map for no progress, as the course map widget shows it (its ``nav``), and
    the script that fills in this browser's progress."""
    return (f'<nav class="qd-root qd-course" data-qd="course" lang="{language}">{drawn_map(language)}</nav>'
            f"<script>{home_script(language)}</script>")


def static_links(html: str, slugs: Iterable[str]) -> str:
    """Links to the course's notebooks made links to their pages on the static site (as
    ``finish_pages`` does on the pages Voici builds)."""
    names = "|".join(re.escape(slug) for slug in slugs)
    return re.sub(r'href="(' + names + r')\.ipynb', r'href="\1.html', html) if names else html


# ----------------------------------------------------------------- the progress

def drawn_map(language: str, stored: str | None = None, kept: str | None = None) -> str:
    """The course map's HTML as :class:`widgets.course.CourseMap` draws it in ``language`` for
    the ``stored`` progress JSON and the ``kept`` positions to review
    (:data:`tutor.teach.mistakes.MISTAKES_KEY`; None: nothing stored), now."""
    from widgets.course import CourseMap

    course_map = CourseMap(lang=language, query="")
    if stored is not None or kept is not None:
        course_map.sync(stored, kept)
    return str(course_map.html)


_BADGE: Final = re.compile(r'<span class="qd-course-kind"><span class="qd-course-kind-title">[^<]*</span>[^<]*'
                           r'<span aria-label="([^"]*)">([^<]*)</span>([^<]*)</span>')


def home_facts(language: str) -> dict[str, Any]:
    """What ``home.js`` needs in ``language``: how progress is stored and read
    (:mod:`tutor.teach.drills.progress`), the tracks each lesson's badges show, and the pieces of a
    badge and the notes, drawn by the course map for each number of stars, for
    :data:`SAMPLE_COUNT` answers, and for progress that cannot be read (or only in part).

    >>> facts = home_facts("en")
    >>> facts["stars"], facts["labels"][1], facts["answered"]
    (['☆☆☆', '★☆☆', '★★☆', '★★★'], '1 of 3 stars', ' · {count} answered')
    >>> facts["lessons"]["06-ruffing"]
    [['06-ruffing/ruff', 'ruff'], ['06-ruffing/trick', 'trick']]
    >>> home_facts("zh-Hant")["answered"], "could not be read" in facts["notes"]["unreadable"]
    (' · 已答{count}題', True)
    """
    from widgets.drill import STORAGE_KEY

    sample = next(info for info in LESSONS if info.drills)
    badges = [_sample_badge(language, sample.slug, track(sample.drills[0], sample.slug), stars)
              for stars in range(MAX_STARS + 1)]
    answered = badges[0][2]
    if answered.count(str(SAMPLE_COUNT)) != 1:
        raise HomePageError(f"the course map's badge does not show its answered count once: {answered!r}")
    unreadable = json.dumps("not progress")
    partly = json.dumps({"version": VERSION, PER_LESSON: True, "kinds": {track(sample.drills[0], sample.slug): []}})
    return {
        "key": STORAGE_KEY, "version": VERSION, "perLesson": PER_LESSON, "maxStored": MAX_STORED,
        "maxKinds": MAX_KINDS, "maxName": MAX_NAME, "maxCount": MAX_COUNT, "maxStars": MAX_STARS,
        "lessons": {info.slug: [[track(kind, info.slug), track(kind)] for kind in info.drills] for info in LESSONS},
        "stars": [stars for _, stars, _ in badges],
        "labels": [label for label, _, _ in badges],
        "answered": answered.replace(str(SAMPLE_COUNT), "{count}"),
        "notes": {"unreadable": _drawn_note(language, unreadable), "partial": _drawn_note(language, partly)},
        "link": link_facts(language),
        "review": review_facts(language),
    }


def review_facts(language: str) -> dict[str, Any]:
    """What ``home.js`` needs to list what has come due to review as the course map does
    (:func:`widgets.course.review_html`): the pieces of its markup, its sentences for every
    count there can be (:func:`plural_facts`), the links (to the table's review, and to each
    lesson whose practice brings missed drills back, with the kinds it brings back), and how
    the positions kept to review (:mod:`tutor.teach.mistakes`), the missed drills
    (:mod:`tutor.teach.drills.progress`) and their schedules are stored and read.

    >>> facts = review_facts("en")
    >>> facts["href"], [lesson[:2] for lesson in facts["lessons"]][:2]
    ('10-play.html?review=mistakes', [['01-cards', ['points']], ['03-declaring', ['declare']]])
    >>> facts["card"]["due"] == DUE_FORMAT.pattern, facts["headline"]["forms"]
    (True, ['{count} positions to review', '{count} position to review'])
    """
    from widgets.course import (REVIEW_BOX, REVIEW_DRILLS, REVIEW_GAP, REVIEW_LESSON_LINK, REVIEW_POSITIONS,
                                review_drills, review_headline, review_positions)

    tr = Translator(language)
    slugs = [info.slug for info in LESSONS]
    lessons = []
    for info in LESSONS:
        kinds = sorted({kind for other in LESSONS for kind in other.drills if practice_lesson(kind) is info})
        if kinds:
            link = REVIEW_LESSON_LINK.format(href=escape(info.page), title=escape(tr(info.title)))
            lessons.append([info.slug, kinds, static_links(link, slugs)])
    href = static_links(f'href="{escape(mistakes.REVIEW_LINK)}"', slugs)[len('href="'):-1]
    return {
        "box": REVIEW_BOX, "positionsItem": REVIEW_POSITIONS, "drillsItem": REVIEW_DRILLS,
        "lessonLink": REVIEW_LESSON_LINK,
        "gap": REVIEW_GAP, "href": href, "lessons": lessons,
        "headline": plural_facts(tr, review_headline, mistakes.MAX_KEPT + MAX_REVIEWS),
        "positions": plural_facts(tr, review_positions, mistakes.MAX_KEPT),
        "drills": plural_facts(tr, review_drills, MAX_REVIEWS),
        "mistakes": {"key": mistakes.MISTAKES_KEY, "version": mistakes.VERSION, "maxStored": mistakes.MAX_STORED,
                     "maxKept": mistakes.MAX_KEPT, "maxHand": mistakes.MAX_HAND, "maxPlayed": mistakes.MAX_PLAYED,
                     "maxIndex": mistakes.MAX_INDEX, "header": HEADER, "seats": SEATS},
        "reviews": {"maxReviews": MAX_REVIEWS, "maxSeed": SEEDS.stop - 1, "levels": list(LEVELS)},
        "card": {"states": list(CARD_STATES), "fields": sorted(CARD_FIELDS), "due": DUE_FORMAT.pattern,
                 "clearedAfter": CLEARED_AFTER},
    }


def plural_facts(tr: Translator, message: Callable[[int], Text], most: int) -> dict[str, Any]:
    """A count's sentence for every count from 0 to ``most``, as ``home.js`` says it: the
    different templates (``forms``, HTML-escaped, ``{count}`` for the number), and for each
    count the index of its form (``formOf``: one digit per count). Checked here against the
    sentence ``tr`` says for each count, so the page says exactly what the course map does.

    >>> facts = plural_facts(Translator("en"), lambda n: Text.plural("{count} card", "{count} cards", count=n), 3)
    >>> facts
    {'forms': ['{count} cards', '{count} card'], 'formOf': '0100'}
    """
    forms: list[str] = []
    form_of = ""
    for count in range(most + 1):
        form = escape(tr.template(message(count)))
        if form not in forms:
            forms.append(form)
        if len(forms) > 10:
            raise HomePageError(f"{message(1).template!r} has more forms than home.js can tell apart")
        form_of += str(forms.index(form))
        if form.replace("{count}", str(count)) != escape(tr(message(count))):
            raise HomePageError(f"{message(count)!r} is not its template with the count put in")
    return {"forms": forms, "formOf": form_of}


def link_facts(language: str) -> dict[str, Any]:
    """What ``home.js`` needs to note the parameters of the page's link it does not use as
    the served home page notes them (:func:`tutor.teach.course.page_link`): each kind of
    note, made by ``page_link`` with ``{param}`` where the parameter goes, the bounds, the
    languages, and a note's markup (:func:`widgets.course.notes_html`, ``{note}`` for its text).

    >>> facts = link_facts("en")
    >>> facts["unused"], facts["maxParams"], facts["languages"]
    ('Ignored {param}: this page does not use it.', 20, ['en', 'zh-Hans', 'zh-Hant'])
    """
    from widgets.course import notes_html

    tr = Translator(language)

    def made(query: str, param: str) -> str:
        note = page_link(query, tr)[1][-1]
        if note.count(param) != 1:
            raise HomePageError(f"page_link's note does not quote {param!r} once: {note!r}")
        return note.replace(param, "{param}")

    many = "&".join(f"p{i}=v" for i in range(MAX_PARAMS + 1))
    return {"unused": made("qdkey=qdvalue", "qdkey=qdvalue"), "twice": made("lang=en&lang=en", "lang=en"),
            "language": made("lang=qdvalue", "lang=qdvalue"), "beyond": made(many, f"p{MAX_PARAMS}=v"),
            "maxParams": MAX_PARAMS, "languages": list(LANGUAGES), "note": notes_html(("{note}",))}


def _sample_badge(language: str, slug: str, name: str, stars: int) -> tuple[str, str, str]:
    """(label, stars, what follows them) of the badge of track ``name`` in lesson ``slug``,
    drawn for :data:`SAMPLE_COUNT` answers and ``stars`` stars."""
    stored = Progress(kinds=((name, KindProgress(SAMPLE_COUNT, 0, 0, stars)),)).to_json()
    html = drawn_map(language, stored)
    start = html.find(f'data-lesson="{slug}"')
    badge = _BADGE.search(html, start) if start >= 0 else None
    if badge is None:
        raise HomePageError(f"the course map's badge of {name} is not drawn as home.js expects")
    label, shown, tail = (unescape(part) for part in badge.groups())
    return label, shown, tail


def _drawn_note(language: str, stored: str) -> str:
    """The note the course map shows above itself for ``stored`` progress."""
    html = drawn_map(language, stored)
    note = html[:html.find("<ol")]
    if not note:
        raise HomePageError(f"the course map shows no note for progress {stored[:60]}")
    return note


def home_script(language: str) -> str:
    """``home.js`` with its facts (:func:`home_facts`), safe inside ``<script>``."""
    facts = json.dumps(home_facts(language), ensure_ascii=False).replace("<", "\\u003c")
    return (HERE / "home.js").read_text("utf-8").replace("__QD_HOME__", facts)


__all__ = ["CELLS", "HAND_IN", "HomePageError", "drawn_map", "hand_in_notebook", "home_facts", "home_html", "plural_facts",
           "read_notebook", "review_facts", "static_links", "write_hand_in", "write_home_pages"]
