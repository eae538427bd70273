"""The course around the lessons: the practice section of a lesson (drill players
chosen by the lesson and the shared link), and the course map on the home page with
each learner's progress and what has come due to review (the positions of the learner's
own hands kept by the table, :mod:`tutor.teach.mistakes`, and the missed drills). Link
parameters are validated by :mod:`tutor.teach.course`. The language is the kernel's
(:func:`tutor.core.i18n.current`: a Voila page sets it from its link, cookie or browser
before any cell runs).

>>> box = practice("05-following", query="seed=7&level=2&bogus=1")
>>> [type(child).__name__ for child in box.children]
['HTML', 'DrillPlayer']
>>> from tutor.teach.drills.progress import visit_seed
>>> box.children[1].drill.seed == visit_seed(7, 0, "follow", "05-following"), box.children[1].drill.level
(True, 2)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from datetime import datetime
from html import escape
from typing import Any, Final
from urllib.parse import urlencode

import ipywidgets as ipw
import traitlets as t

from tutor.teach.course import (LESSONS, STATIC_SITE, TABLES_PATH, TABLES_SERVICE, LinkParams, lesson, page_link,
                                parse_link)
from tutor.teach.classroom import checked_in
from tutor.teach.drills import KINDS
from tutor.teach.drills.progress import MAX_STARS, Progress, read_stored
from tutor.teach.mistakes import MISTAKES_KEY, REVIEW_LINK, Mistakes, ToReview, to_review
from tutor.core.i18n import N_, Text, Translator
from widgets._common import CSS, ESM, FAILED, PageWidget, translator, utc_now
from widgets.check import CHECKS_KEY
from widgets.drill import STORAGE_KEY, DrillPlayer

REVIEW_BOX: Final = ('<div class="qd-review" data-qd="review" data-count="{total}" style="border-left:4px solid '
                      '#1976d2;background:rgba(25,118,210,.06);padding:.4em .8em;margin:.5em 0 1em;border-radius:.2em">'
                      '<p class="qd-review-count"><strong>{headline}</strong></p>{items}</div>')
"""The home page's list of what has come due to review (above the lessons); the static home
page's script draws it from these very pieces (:func:`tools.static_site.home.home_facts`)."""
REVIEW_POSITIONS: Final = '<p class="qd-review-item" data-qd="review-positions"><a href="{href}">{text}</a></p>'
"""Its line for the positions of the learner's own hands, linking the table's review."""
REVIEW_DRILLS: Final = '<p class="qd-review-item" data-qd="review-drills">{text} {lessons}</p>'
"""Its line for the missed drills, with a link to each lesson whose practice brings them back."""
REVIEW_LESSON_LINK: Final = '<a href="{href}">{title}</a>'
REVIEW_GAP: Final = " · "
"""Between two lessons' links on the drills' line."""


def review_headline(count: int) -> Text:
    """How many positions there are to review (the table's and the missed drills')."""
    return Text.plural("{count} position to review", "{count} positions to review", count=count)


def review_positions(count: int) -> Text:
    """The link to the table's review of the learner's own positions that have come due."""
    return Text.plural("Replay {count} position from your own hands at the table",
                       "Replay {count} positions from your own hands at the table", count=count)


def review_drills(count: int) -> Text:
    """What the missed drills' line says before the links to their lessons."""
    return Text.plural("{count} missed drill comes back in practice:",
                       "{count} missed drills come back in practice:", count=count)


def review_html(due: ToReview, tr: Translator, suffix: str = "") -> str:
    """The list of what has come due (:data:`REVIEW_BOX`), or nothing when nothing has;
    ``suffix``: the query the links keep (``?lang=…``), as the lessons' links do.

    >>> from tutor.teach.mistakes import ToReview
    >>> from tutor.core.i18n import ENGLISH
    >>> review_html(ToReview(), ENGLISH)
    ''
    >>> html = review_html(ToReview(2, (("trick", 1),), ("06-ruffing",)), ENGLISH)
    >>> "3 positions to review" in html, 'href="10-play.ipynb?review=mistakes"' in html, 'href="06-ruffing.ipynb"' in html
    (True, True, True)
    """
    if not due.total:
        return ""
    items = ""
    if due.positions:
        href = REVIEW_LINK + ("&" + suffix[1:] if suffix else "")
        items += REVIEW_POSITIONS.format(href=escape(href), text=escape(tr(review_positions(due.positions))))
    drills = sum(count for _, count in due.drills)
    if drills:
        links = REVIEW_GAP.join(REVIEW_LESSON_LINK.format(href=escape(lesson(slug).page + suffix),
                                                     title=escape(tr(lesson(slug).title))) for slug in due.lessons)
        items += REVIEW_DRILLS.format(text=escape(tr(review_drills(drills))), lessons=links)
    return REVIEW_BOX.format(total=due.total, headline=escape(tr(review_headline(due.total))), items=items)


_NOTE_STYLE: Final = ("border-left:4px solid #b26b00;background:rgba(178,107,0,.08);padding:.4em .8em;"
                      "margin:.5em 0;border-radius:.2em")


def link_query() -> str | None:
    """The query string of the page that runs this kernel under Voila, else None.

    Voila puts it in the kernel's environment when it starts the page's kernel (the
    course never preheats kernels: a page's language is chosen before its kernel
    starts, in the prelaunch hook of ``tutor.server``, which Voila does not combine with
    preheating; its kernels are forked from a preloaded zygote instead)."""
    return os.environ.get("QUERY_STRING")


TABLES_BOX: Final = ('<div class="qd-tables-link" data-qd="tables-link" style="border-left:4px solid #2e7d32;'
                     'background:rgba(46,125,50,.06);padding:.4em .8em;margin:.5em 0 1em;border-radius:.2em">'
                     '<p>{text}</p>{link}</div>')


def tables_html(tr: Translator | None = None, *, static: bool = STATIC_SITE,
                environ: Mapping[str, str] | None = None) -> str:
    """Lesson 10's way to a table of classmates (:mod:`tutor.server.tables`): on the course's own
    server its ``tables/`` page (from a lesson's page, ``voila/render/…``, two folders up); on
    JupyterHub the hub's service (every learner's server is apart, the tables are the hub's);
    on the static site, which has no server, a note that tables need the served course, and
    a link to the tables of the served course it was built to point to
    (``./dev site --served URL``, which its pages give their kernel as ``QD_SERVED_COURSE``).

    >>> "../../tables/" in tables_html(Translator("en"), static=False, environ={})
    True
    >>> "/course/services/tables/" in tables_html(Translator("en"), static=False,
    ...     environ={"JUPYTERHUB_SERVICE_PREFIX": "/course/user/ana/", "JUPYTERHUB_BASE_URL": "/course/"})
    True
    >>> "<a " in tables_html(Translator("en"), static=True, environ={})
    False
    >>> 'href="https://class.example/tables/"' in tables_html(Translator("en"), static=True,
    ...     environ={"QD_SERVED_COURSE": "https://class.example/"})
    True
    """
    tr = tr or translator(None)
    env = os.environ if environ is None else environ
    if static:
        served = env.get("QD_SERVED_COURSE", "")
        href = f"{served.rstrip('/')}/{TABLES_PATH}" if served.startswith(("https://", "http://")) else ""
        return TABLES_BOX.format(text=escape(tr(STATIC_TABLES)), link=_tables_link(href, tr(SERVED_TABLES))
                                 if href else "")
    hub = env.get("JUPYTERHUB_BASE_URL", "/") if env.get("JUPYTERHUB_SERVICE_PREFIX") else None
    href = f"{hub.rstrip('/')}/{TABLES_SERVICE}" if hub is not None else f"../../{TABLES_PATH}"
    return TABLES_BOX.format(text=escape(tr(TABLES_TEXT)), link=_tables_link(href, tr(OPEN_TABLES)))


def _tables_link(href: str, text: str) -> str:
    return f'<p><a href="{escape(href)}" target="_blank" rel="noopener" data-qd="tables-open">{escape(text)}</a></p>'


TABLES_TEXT: Final = N_("Five of you, one hand: open a table, share its code, and play together — the tutor referees "
                        "every seat and tells each of you, in your own language, the rule behind any refusal. Seats "
                        "nobody takes are played by the computer.")
OPEN_TABLES: Final = N_("Open or join a table of classmates")
SERVED_TABLES: Final = N_("Open or join a table of classmates on the served course")
STATIC_TABLES: Final = N_("Tables of classmates need the course served from a computer (ask your teacher for its link, or use your class's JupyterHub): "
                          "this copy of the course runs in your browser alone, with no server to seat you together.")


def link_params(slug: str | None, query: str | None = None,
                tr: Translator | None = None) -> tuple[LinkParams, tuple[str, ...]]:
    """The validated parameters of the page's link (see :func:`tutor.teach.course.parse_link`),
    the notes said in ``tr``'s language (by default the kernel's)."""
    return parse_link(link_query() if query is None else query, lesson=slug, tr=tr or translator(None))


def notes_html(notes: tuple[str, ...]) -> str:
    """Ignored link parameters, as a visible note."""
    return "".join(f'<div class="qd-link-note" role="note" style="{_NOTE_STYLE}">{escape(n)}</div>' for n in notes)


def practice(slug: str, *, query: str | None = None, lang: str | None = None, **options: Any) -> ipw.VBox:
    """The practice section of a lesson: a drill player for each drill kind of the
    lesson (or the one the link asks for), its progress kept for this lesson, seeded
    and levelled by the link for this visit only, with a note for every link parameter
    that was ignored. The language is ``lang``, by
    default the kernel's (the page has already taken the link's ``lang=``, which is
    only validated here)."""
    tr = translator(lang)
    params, notes = link_params(slug, query, tr)
    kinds = (params.kind,) if params.kind else lesson(slug).drills
    lang = tr.language
    children: list[ipw.Widget] = [ipw.HTML(notes_html(notes))]
    for kind in kinds:
        children.append(DrillPlayer(kind, seed=params.seed, level=params.level, lang=lang, lesson=slug, **options))
    box = ipw.VBox(children)
    box.add_class("qd-practice")
    return box


class CourseMap(PageWidget):
    """The lessons in order, each with a link and this browser's progress in its drills
    (each lesson's own: two lessons practising one drill kind show their own lines) and in
    the quick checks of its text (their own store, :data:`widgets.check.CHECKS_KEY`; a line
    once one is answered), and above them what has come due to review (:func:`review_html`):
    the positions of the learner's own hands (:data:`tutor.teach.mistakes.MISTAKES_KEY`) and
    the missed drills.

    Its one message from the page is ``sync`` (``progress``, ``mistakes`` and ``checks``: the
    stored JSON or null); stored progress that cannot be read leaves the map as it was, with a
    note.

    The links keep the page's own ``lang=`` when its link has one (else the server's
    cookie or the browser's language decides, as it did for this page).

    >>> 'href="05-following.ipynb?lang=zh-Hant"' in CourseMap(lang="zh-Hant", query="lang=zh-Hant").html
    True
    >>> 'href="05-following.ipynb"' in CourseMap(query="").html
    True

    Every other parameter of its link gets a note:

    >>> "Ignored seed=3: this page does not use it." in CourseMap(lang="en", query="seed=3").html
    True
    """

    _esm = ESM
    _css = CSS
    _view = t.Unicode("course").tag(sync=True)
    html = t.Unicode("").tag(sync=True)
    storage_key = t.Unicode(STORAGE_KEY).tag(sync=True)
    mistakes_key = t.Unicode(MISTAKES_KEY).tag(sync=True)
    checks_key = t.Unicode(CHECKS_KEY).tag(sync=True)
    lang = t.Unicode("en").tag(sync=True)

    def __init__(self, *, lang: str | None = None, query: str | None = None,
                 clock: Callable[[], datetime] | None = None, **kwargs: Any) -> None:
        """``lang``: by default the kernel's language; ``query``: the page's query
        string (by default read from Voila); ``clock``: what *now* is when counting what
        has come due (by default the kernel's clock, in UTC)."""
        self.tr = translator(lang)
        self.link_lang, self.link_notes = page_link(link_query() if query is None else query, self.tr)
        self.progress = Progress()
        self.checks = Progress()
        self.mistakes = Mistakes()
        self.note: str | None = None
        self.mistakes_note: str | None = None
        self._clock = clock or utc_now
        super().__init__(lang=self.tr.language, **kwargs)
        self.html = self._draw()
        self.on_msg(self._on_message)

    def sync(self, stored: object, mistakes: object = None, checks: object = None) -> None:
        """Draw the progress the browser stored (what cannot be read is left out, with a
        note; when none of it can be read, the map stays as it was, with a note), the
        positions it keeps to review (``mistakes``: what cannot be read is left out, with
        a note) and the quick checks' answers (``checks``: what cannot be read is left out,
        with a note).

        >>> from tutor.teach.drills.progress import utc
        >>> course = CourseMap(lang="en", query="", clock=lambda: utc(2025, 1, 2))
        >>> course.sync(Progress().record("trick", 5, 1, False, utc(2025, 1, 1), lesson="06-ruffing").to_json())
        >>> "1 position to review" in course.html
        True
        >>> course.sync(None, None, Progress().record("points", 4, 1, True, utc(2025, 1, 1), lesson="01-cards").to_json())
        >>> "Quick checks</span> · 1 answered, 1 right" in course.html
        True
        """
        if stored is None:  # nothing stored (or the store was cleared)
            self.progress, self.note = Progress(), None
        else:
            progress, problem = read_stored(stored)
            if progress is None:
                self.note = self.tr("Saved progress in this browser could not be read.")
            else:
                self.progress = progress
                self.note = self.tr("Some saved progress could not be read and was left out.") if problem else None
        self.mistakes, dropped = Mistakes.from_json(mistakes)
        kept, problem = read_stored(checks) if checks is not None else (Progress(), None)
        self.checks = kept or Progress()
        left_out = dropped is not None or problem is not None
        self.mistakes_note = self.tr("Some saved progress could not be read and was left out.") if left_out else None
        self.html = self._draw()

    def _failed(self) -> None:
        self.note = self.tr(FAILED)
        self.html = self._draw()

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("type") == "sync":
            self.sync(content.get("progress"), content.get("mistakes"), content.get("checks"))

    def _draw(self) -> str:
        tr = self.tr
        suffix = "?" + urlencode({"lang": self.link_lang}) if self.link_lang else ""
        rows = []
        for info in LESSONS:
            badges = []
            for kind in info.drills:
                stats = self.progress.kind(kind, info.slug)
                title = tr(KINDS[kind].title) if kind in KINDS else kind
                stars = "★" * stats.stars + "☆" * (MAX_STARS - stats.stars)
                label = tr("{count} of {total} stars", count=stats.stars, total=MAX_STARS)
                answered = tr("{count} answered", count=stats.attempts)
                # The title is set apart by its own element, not by a colon after it: a title
                # may end in its own punctuation ("Who wins the trick?"), in any language.
                badges.append(f'<span class="qd-course-kind"><span class="qd-course-kind-title">{escape(title)}</span> '
                              f'<span aria-label="{escape(label)}">{stars}</span> · {escape(answered)}</span>')
            checked = checked_in(self.checks, info.slug)
            if checked.attempts:
                said = tr("{count} answered, {right} right", count=checked.attempts, right=checked.correct)
                badges.append(f'<span class="qd-course-kind qd-course-checks" data-qd="checks"><span class='
                              f'"qd-course-kind-title">{escape(tr("Quick checks"))}</span> · {escape(said)}</span>')
            rows.append(f'<li data-lesson="{info.slug}"><a href="{info.page}{suffix}">{escape(tr(info.title))}</a>'
                        f'<div class="qd-course-progress">{"".join(badges)}</div>'
                        f'<div class="qd-course-rules">{escape(" ".join(info.rules))}</div></li>')
        notes = self.link_notes + tuple(dict.fromkeys(n for n in (self.note, self.mistakes_note) if n))
        review = review_html(to_review(self.progress, self.mistakes, self._clock()), tr, suffix)
        return f'{notes_html(notes)}{review}<ol class="qd-course-list" start="0">{"".join(rows)}</ol>'



