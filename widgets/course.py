"""The course around the lessons: the practice section of a lesson (drill players
chosen by the lesson and the shared link), and the course map on the home page with
each learner's progress. Link parameters are validated by :mod:`tutor.teach.course`. The
language is the kernel's (:func:`tutor.core.i18n.current`: a Voila page sets it from its
link, cookie or browser before any cell runs).

>>> box = practice("05-following", query="seed=7&level=2&bogus=1")
>>> [type(child).__name__ for child in box.children]
['HTML', 'DrillPlayer']
>>> from tutor.teach.drills.progress import visit_seed
>>> box.children[1].drill.seed == visit_seed(7, 0, "follow", "05-following"), box.children[1].drill.level
(True, 2)
"""

from __future__ import annotations

import os
from html import escape
from typing import Any, Final
from urllib.parse import urlencode

import ipywidgets as ipw
import traitlets as t

from tutor.teach.course import LESSONS, LinkParams, lesson, page_link, parse_link
from tutor.teach.drills import KINDS
from tutor.teach.drills.progress import MAX_STARS, Progress, read_stored
from tutor.core.i18n import Translator
from widgets._common import CSS, ESM, FAILED, PageWidget, translator
from widgets.drill import STORAGE_KEY, DrillPlayer

_NOTE_STYLE: Final = ("border-left:4px solid #b26b00;background:rgba(178,107,0,.08);padding:.4em .8em;"
                      "margin:.5em 0;border-radius:.2em")


def link_query() -> str | None:
    """The query string of the page that runs this kernel under Voila, else None.

    Voila puts it in the kernel's environment when it starts the page's kernel (the
    course never preheats kernels: a page's language is chosen before its kernel
    starts, in the prelaunch hook of ``tutor.server``, which Voila does not combine with
    preheating; its kernels are forked from a preloaded zygote instead)."""
    return os.environ.get("QUERY_STRING")


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
    (each lesson's own: two lessons practising one drill kind show their own lines).

    Its one message from the page is ``sync`` (``progress``: the stored JSON or null);
    stored progress that cannot be read leaves the map as it was, with a note.

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
    lang = t.Unicode("en").tag(sync=True)

    def __init__(self, *, lang: str | None = None, query: str | None = None, **kwargs: Any) -> None:
        """``lang``: by default the kernel's language; ``query``: the page's query
        string (by default read from Voila)."""
        self.tr = translator(lang)
        self.link_lang, self.link_notes = page_link(link_query() if query is None else query, self.tr)
        self.progress = Progress()
        self.note: str | None = None
        super().__init__(lang=self.tr.language, **kwargs)
        self.html = self._draw()
        self.on_msg(self._on_message)

    def sync(self, stored: object) -> None:
        """Draw the progress the browser stored (what cannot be read is left out, with a
        note; when none of it can be read, the map stays as it was, with a note)."""
        if stored is None:  # nothing stored (or the store was cleared)
            self.progress, self.note = Progress(), None
        else:
            progress, problem = read_stored(stored)
            if progress is None:
                self.note = self.tr("Saved progress in this browser could not be read.")
            else:
                self.progress = progress
                self.note = self.tr("Some saved progress could not be read and was left out.") if problem else None
        self.html = self._draw()

    def _failed(self) -> None:
        self.note = self.tr(FAILED)
        self.html = self._draw()

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("type") == "sync":
            self.sync(content.get("progress"))

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
            rows.append(f'<li data-lesson="{info.slug}"><a href="{info.page}{suffix}">{escape(tr(info.title))}</a>'
                        f'<div class="qd-course-progress">{"".join(badges)}</div>'
                        f'<div class="qd-course-rules">{escape(" ".join(info.rules))}</div></li>')
        note = notes_html(self.link_notes + ((self.note,) if self.note else ()))
        return f'{note}<ol class="qd-course-list" start="0">{"".join(rows)}</ol>'


