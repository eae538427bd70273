"""Class progress without a server: a learner hands in a progress code (:class:`HandIn`,
on the home page), a teacher pastes a class's codes or uploads their files and sees one
table (:class:`ClassProgress`, the teacher's page). What a code holds, and how a class's
codes are read, is :mod:`tutor.teach.classroom`'s; these widgets only show it.

:class:`HandIn`'s one message from the page is ``sync`` (``progress``: the lessons' stored
JSON or null; ``checks``: the quick checks' stored JSON or null — they keep their own
store, :data:`widgets.check.CHECKS_KEY`; ``name``: what the learner typed);
:class:`ClassProgress`'s is ``read`` (``text``:
the pasted text; ``files``: ``[{"name", "text"}]``, read in the page). Both check sizes
and types before anything is read, and say what they cannot use in a note.

>>> hand_in = HandIn()
>>> hand_in.sync(None, "Ann")
>>> hand_in.code, hand_in.filename
('QD-AgcDQW5uAAAAlqCOVQ', 'qidong-progress-Ann.txt')
>>> teacher = ClassProgress()
>>> teacher.read(hand_in.code + "\\nhello")
>>> 'data-learner="Ann"' in teacher.html, "line 2 is not a progress code" in teacher.html
(True, True)
"""

from __future__ import annotations

import re
from dataclasses import replace
from html import escape
from typing import Any, Final

import traitlets as t

from tutor.teach.course import page_link
from tutor.teach.classroom import (MAX_FILES, MAX_INPUT, MAX_NAME, ClassroomError, ClassTable, Report,
                             clean_name, encode, read_class, report_of)
from tutor.teach.drills import KINDS
from tutor.teach.drills.progress import MAX_STARS, Progress, read_stored
from tutor.core.i18n import N_, Text, said
from widgets._common import COMMON_JS, CSS, FAILED, STATIC, PageWidget, translator
from widgets.check import CHECKS_KEY
from widgets.course import link_query, notes_html
from widgets.drill import STORAGE_KEY

ESM: Final = COMMON_JS + (STATIC / "classroom.js").read_text("utf-8")
STYLE: Final = CSS + (STATIC / "classroom.css").read_text("utf-8")

HAND_IN_LABELS: Final = {
    "title": N_("Hand in your progress"),
    "name": N_("Your name (for your teacher; you may leave it empty)"),
    "code": N_("Your progress code"),
    "copy": N_("Copy"),
    "copied": N_("Copied."),
    "copy_failed": N_("Select the code and copy it yourself."),
    "download": N_("Download as a file"),
    "about": N_("Give this code, or the file, to your teacher. It holds your name and, for each lesson, your stars, "
                "how many drills you answered and how many right, and the rules you keep missing; nothing else."),
}
CLASS_LABELS: Final = {
    "codes": N_("Your learners' progress codes, one a line"),
    "files": N_("Or choose their files"),
    "show": N_("Show the class"),
}


class HandIn(PageWidget):
    """A learner's progress code made from this browser's progress (the lessons' drills
    and the quick checks in their text) and the name they type, to copy or download (see
    :mod:`tutor.teach.classroom`)."""

    _esm = ESM
    _css = STYLE
    _view = t.Unicode("hand-in").tag(sync=True)
    labels = t.Dict().tag(sync=True)
    code = t.Unicode("").tag(sync=True)
    filename = t.Unicode("").tag(sync=True)
    note = t.Unicode("").tag(sync=True)
    storage_key = t.Unicode(STORAGE_KEY).tag(sync=True)
    checks_key = t.Unicode(CHECKS_KEY).tag(sync=True)
    max_name = t.Int(MAX_NAME).tag(sync=True)
    lang = t.Unicode("en").tag(sync=True)

    def __init__(self, *, lang: str | None = None, **kwargs: Any) -> None:
        self.tr = translator(lang)
        self._stored: object = None
        self._report: Report | None = report_of(Progress())
        """What the stored progress hands in (None: it cannot be read), kept while the
        learner types their name (remaking the drills of their mistakes takes a while)."""
        self._note = ""
        super().__init__(labels={key: self.tr(text) for key, text in HAND_IN_LABELS.items()},
                         lang=self.tr.language, **kwargs)
        self.on_msg(self._on_message)

    def sync(self, stored: object, name: object = "", checks: object = None) -> None:
        """Make the code of the progress the browser stored (``None``: nothing stored) and
        of the quick checks it stored (``checks``) under ``name``. Progress that cannot be
        read at all hands in nothing; quick checks that cannot be read are left out; a name
        that cannot go into a code leaves the code out; each with a note."""
        if (stored, checks) != self._stored:
            progress, problem = (Progress(), None) if stored is None else read_stored(stored)
            checked, unread = (Progress(), None) if checks is None else read_stored(checks)
            self._stored = (stored, checks)
            self._report = None if progress is None else report_of(progress, checks=checked)
            self._note = (self.tr("Some saved progress could not be read and was left out.")
                          if problem or unread else "")
        if self._report is None:
            self._show("", "", self.tr("Saved progress in this browser could not be read, so there is nothing to "
                                       "hand in."))
            return
        try:
            cleaned = clean_name(name)
        except ClassroomError as error:
            self._show("", "", self.tr("That name cannot be used: {problem}.", problem=self.tr(said(error))))
            return
        self._show(encode(replace(self._report, name=cleaned)), _filename(cleaned), self._note)

    def _show(self, code: str, filename: str, note: str) -> None:
        with self.hold_sync():
            self.code, self.filename, self.note = code, filename, note

    def _failed(self) -> None:
        self.note = self.tr(FAILED)

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if isinstance(content, dict) and content.get("type") == "sync":
            name = content.get("name")
            name = name[:4 * self.max_name] if isinstance(name, str) else ""  # the page sends text; else no name
            self.sync(content.get("progress"), name, content.get("checks"))  # a name cut still says it is too long


def _filename(name: str) -> str:
    """The downloaded file's name: the learner's name with what file systems refuse left out.

    >>> _filename("Ann/Lee: 3"), _filename("")
    ('qidong-progress-Ann-Lee-3.txt', 'qidong-progress.txt')
    """
    safe = "-".join(part for part in re.split(r"[\s/\\:*?\"<>|.]+", name) if part)
    return f"qidong-progress-{safe}.txt" if safe else "qidong-progress.txt"


class ClassProgress(PageWidget):
    """The teacher's table: a class's progress codes pasted or uploaded, read into
    learners × lessons (stars, answers right of answered, the quick checks answered) and
    the rules each learner keeps missing, with a note for everything left out
    (:func:`tutor.teach.classroom.read_class`). It takes the page's whole width, its rows a
    line or two high; on a screen too narrow for it, it scrolls sideways, the learners'
    names staying in view."""

    _esm = ESM
    _css = STYLE
    _view = t.Unicode("class").tag(sync=True)
    labels = t.Dict().tag(sync=True)
    html = t.Unicode("").tag(sync=True)
    max_input = t.Int(MAX_INPUT).tag(sync=True)
    max_files = t.Int(MAX_FILES).tag(sync=True)
    lang = t.Unicode("en").tag(sync=True)

    def __init__(self, *, lang: str | None = None, query: str | None = None, **kwargs: Any) -> None:
        """``lang``: by default the kernel's language; ``query``: the page's query string (by
        default read from Voila), whose every parameter but ``lang=`` gets a note.

        >>> "Ignored seed=3: this page does not use it." in ClassProgress(lang="en", query="seed=3").html
        True
        """
        self.tr = translator(lang)
        self.link_notes = page_link(link_query() if query is None else query, self.tr)[1]
        self.table = ClassTable()
        super().__init__(labels={key: self.tr(text) for key, text in CLASS_LABELS.items()},
                         lang=self.tr.language, **kwargs)
        self.html = self._draw()
        self.on_msg(self._on_message)

    def read(self, text: str, files: list[tuple[str, str]] | None = None) -> None:
        """Read the codes in ``text`` and in ``files`` (``(name, text)``) and draw the table."""
        self.table = read_class(text, files or [])
        self.html = self._draw()

    def _failed(self) -> None:
        self.html = _notes_html([self.tr(FAILED)]) + self._draw()

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict) or content.get("type") != "read":
            return
        text = content.get("text")
        raw_files = content.get("files")
        files: list[tuple[str, str]] = []
        if isinstance(raw_files, list):
            for item in raw_files[:MAX_FILES + 1]:
                if isinstance(item, dict) and isinstance(item.get("name"), str) and isinstance(item.get("text"), str):
                    files.append((item["name"], item["text"][:MAX_INPUT + 1]))  # read_class cuts the name
        self.read(text[:MAX_INPUT + 1] if isinstance(text, str) else "", files)

    def _draw(self) -> str:
        tr = self.tr
        table = self.table
        notes = notes_html(self.link_notes) + _notes_html([tr(note) for note in table.notes])
        if not table.rows:
            empty = tr("No progress codes yet.") if not table.notes else tr("No progress code could be read.")
            return f'{notes}<p class="qd-class-empty" data-qd="class-empty">{escape(empty)}</p>'
        head = "".join(f'<th scope="col" title="{escape(tr(info.title))}" data-lesson="{info.slug}">'
                       f'{escape(info.slug[:2])}</th>' for info in table.lessons)
        rows = []
        for row in table.rows:
            cells = "".join(f'<td data-lesson="{info.slug}">{self._cell(row.report, info.slug, info.drills)}</td>'
                            for info in table.lessons)
            label = row.report.name or tr(row.label())  # a name is said as typed, never translated
            rows.append(f'<tr data-learner="{escape(row.report.name)}"><th scope="row">{escape(label)}</th>'
                        f'{cells}<td data-qd="missed">{self._missed(row.report)}</td></tr>')
        caption = tr(Text.plural("{count} learner", "{count} learners", count=len(table.rows)))
        key = tr("Each lesson: for each kind of its drills, stars (★ out of {max}), then answers right / answered; "
                 "✓ its quick checks, right / answered. Rules missed: the rule, and how many drills of it wait to "
                 "come back.", max=MAX_STARS)
        learner, missed = tr("Learner"), tr("Rules missed")
        return (f'{notes}<table class="qd-class-table" data-qd="class-table"><caption>{escape(caption)}</caption>'
                f'<thead><tr><th scope="col">{escape(learner)}</th>{head}'
                f'<th scope="col">{escape(missed)}</th></tr></thead>'
                f'<tbody>{"".join(rows)}</tbody></table><p class="qd-class-key">{escape(key)}</p>')

    def _cell(self, report: Report, slug: str, kinds: tuple[str, ...]) -> str:
        tr = self.tr
        not_started = tr("not started")
        lines = []
        for kind in kinds:
            score = report.score(kind, slug)
            title = tr(KINDS[kind].title) if kind in KINDS else kind
            if not score.attempts:
                lines.append(f'<div class="qd-class-kind qd-class-none" title="{escape(title)}">'
                             f'<span aria-label="{escape(not_started)}">–</span></div>')
                continue
            stars = "★" * score.stars + "☆" * (MAX_STARS - score.stars)
            label = tr("{count} of {total} stars", count=score.stars, total=MAX_STARS)
            answered = tr("{right} right of {count} answered", right=score.correct, count=score.attempts)
            lines.append(f'<div class="qd-class-kind" title="{escape(title)}" data-kind="{kind}">'
                         f'<span class="qd-stars" aria-label="{escape(label)}">{stars}</span> '
                         f'<span class="qd-class-count" title="{escape(answered)}" aria-label="{escape(answered)}">'
                         f'{score.correct}/{score.attempts}</span></div>')
        checked = report.checked(slug)
        if checked.attempts:
            title = tr("Quick checks")
            answered = tr("{right} right of {count} answered", right=checked.correct, count=checked.attempts)
            lines.append(f'<div class="qd-class-kind qd-class-checks" title="{escape(title)}" data-kind="checks">'
                         f'<span aria-label="{escape(title)}">✓</span> '
                         f'<span class="qd-class-count" title="{escape(answered)}" aria-label="{escape(answered)}">'
                         f'{checked.correct}/{checked.attempts}</span></div>')
        return "".join(lines)

    def _missed(self, report: Report) -> str:
        spans = []
        for rule, count in report.missed:
            waiting = self.tr(Text.plural("{count} drill of rule {rule} waits to come back",
                                          "{count} drills of rule {rule} wait to come back", count=count, rule=rule))
            spans.append(f'<span class="qd-class-rule" data-rule="{rule}" title="{escape(waiting)}">'
                         f'{rule} ×{count}</span>')
        return " ".join(spans)


def _notes_html(notes: list[str]) -> str:
    return "".join(f'<div class="qd-note qd-class-note" role="note" data-qd="class-note">{escape(note)}</div>'
                   for note in notes)


__all__ = ["ClassProgress", "HandIn"]
