"""A printable sheet per lesson: seeded positions on a page, the answer key on the next.

The positions are the drills a class gets from the lesson's link with the same seed
and level (``05-following.ipynb?seed=3&level=2``: the drills of each kind in the
order the link shows them, the lesson's kinds taking turns), and every answer of the
key is the rules module's (:meth:`Drill.solutions` and :meth:`Drill.check`), with its
rule ID. :func:`sheet_html` draws the sheet as HTML with its print style: the eight
positions on the first page, the key from the second, every line within the page's
width, cards written in the course's notation (``♥8 ♥8``: suit symbols, printed in
black) and nothing that is a control (a button, a field, the language switch) printed.
Cards are written as the drill player draws them (:mod:`tutor.teach.drills.drawing`), so
the sheet gives nothing away that the screen hides.

>>> sheet = make_sheet("05-following", seed=3)
>>> len(sheet.drills), {drill.kind for drill in sheet.drills}
(8, {'follow'})
>>> sheet.drills[0] == generate("follow", visit_seed(3, 0, "follow", "05-following"), 1)
True
>>> parse_sheet_link("lesson=06-ruffing&seed=7&level=4")
(SheetLink(lesson='06-ruffing', seed=7, level=1), ('Ignored level=4: the levels are 1, 2 and 3.',))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Final

from tutor.core.arguments import seed_number
from tutor.teach.course import (LESSONS, Ignored, LessonInfo, lesson, level_number, read_lang, read_level, read_link,
                                read_seed)
from tutor.teach.display import hand_groups
from tutor.teach.drills import KINDS, AnswerKind, Drill, DrillError, generate
from tutor.teach.drills.drawing import drawn_trump
from tutor.teach.drills.progress import visit_seed
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import ENGLISH, Text, Translator
from tutor.rules.cards import PLAYERS, Card
from tutor.rules.notation import parse_cards
from tutor.rules.order import TRUMP, Trump

SIZE: Final = 8
"""Positions on a sheet."""
MAX_SKIPS: Final = 20
"""Seeds passed over (a drill that could not be made) before a sheet gives up."""
_MARK: Final = "\x00"
"""Stands for the cards' markup in a sentence while the sentence is said and escaped."""

SHEET_CSS: Final = """
.qd-sheet{font:1em/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC",sans-serif;
 color:#1b1b1b;max-width:48em;overflow-wrap:anywhere}
.qd-sheet h2{margin:.2em 0;font-size:1.3em}
.qd-sheet p{margin:0}
.qd-sheet .qd-sheet-meta{margin:.1em 0 .5em;color:#444}
.qd-sheet ol.qd-sheet-items{padding-left:1.8em;margin:.4em 0}
.qd-sheet li.qd-sheet-item{margin:0 0 .7em;break-inside:avoid;page-break-inside:avoid}
.qd-sheet .qd-sheet-question{font-weight:600}
.qd-sheet .qd-sheet-kind{font-weight:400;color:#444}
.qd-sheet .qd-sheet-label{color:#444;font-weight:600;padding-right:.3em}
.qd-sheet .qd-sheet-cards{margin:.1em 0 0}
.qd-sheet .qd-sheet-notation{font-family:"DejaVu Sans","Noto Sans","Noto Sans CJK SC",system-ui,sans-serif;
 white-space:nowrap}
.qd-sheet .qd-sheet-red{color:#b83200}
.qd-sheet .qd-sheet-sep{color:#888;padding:0 .4em}
.qd-sheet .qd-sheet-choices{list-style:none;padding:0;margin:.15em 0 0;display:flex;flex-wrap:wrap;gap:.1em 1.4em}
.qd-sheet .qd-sheet-line{display:inline-block;min-width:14em;border-bottom:1px solid #000;height:1.2em}
.qd-sheet .qd-sheet-key{margin-top:2em}
.qd-sheet .qd-sheet-key li.qd-sheet-item{margin-bottom:.5em}
.qd-sheet .qd-sheet-rule{font-weight:600}
@media print{
 @page{size:A4;margin:12mm 14mm}
 button,input,select,textarea,.qd-no-print,.qd-languages,.jp-MarkdownCell,.jp-InputArea,.jp-OutputPrompt,
 .jp-InputPrompt,.widget-button,.widget-text,.widget-dropdown,.qd-link-note,
 .jp-OutputArea-child:not(:has(.qd-sheet)){display:none!important}
 :has(>.qd-sheet),:has(>*>.qd-sheet),:has(.qd-sheet){display:block!important;overflow:visible!important;
  position:static!important;width:auto!important;min-width:0!important;max-width:none!important;
  height:auto!important;min-height:0!important;max-height:none!important;contain:none!important;
  transform:none!important;box-shadow:none!important;border:0!important;padding:0!important;margin:0!important;
  break-inside:auto!important;break-before:auto!important;break-after:auto!important}
 .qd-sheet{max-width:none;color:#000;font-size:9.5pt;line-height:1.3}
 .qd-sheet h2{font-size:13pt}
 .qd-sheet .qd-sheet-meta,.qd-sheet .qd-sheet-kind,.qd-sheet .qd-sheet-label,.qd-sheet .qd-sheet-red,
 .qd-sheet .qd-sheet-sep{color:#000}
 .qd-sheet li.qd-sheet-item{margin-bottom:.55em}
 .qd-sheet .qd-sheet-key{break-before:page;page-break-before:always;margin-top:0}
}
"""
"""The sheet's style, on screen and in print. The whole page prints as the sheet: every
output but the sheet's is hidden, and every element around the sheet becomes a plain
block as wide as the paper. Two things of the page made the sheet start on a second page
and run off the paper's right edge: Lumino's panels around the output keep the window's
size in inline styles (``width:1280px``, set by script for the screen and never for
paper, so lines were laid out 1280 px wide and cut at the page's edge); and JupyterLab's
print style keeps each output whole (``.jp-OutputArea-child{break-inside:avoid-page}``),
so an output taller than a page that does not start at the very top of one (the empty
outputs of the notes and the form come first) moves to the next page, leaving the first
one blank. The positions are written small enough (the cards in notation, a line each)
for eight to fit on one A4 page, and the key begins the next."""


@dataclass(frozen=True, slots=True)
class Sheet:
    """A lesson's sheet: the lesson, the seed and level it was made from, and its drills."""

    lesson: LessonInfo
    seed: int
    level: int
    drills: tuple[Drill, ...]


@dataclass(frozen=True, slots=True)
class SheetLink:
    """What a sheet's link asks for (``lesson`` None: no lesson with drills was named)."""

    lesson: str | None = None
    seed: int = 0
    level: int = 1


def sheet_lessons() -> tuple[LessonInfo, ...]:
    """The lessons that have drills, so a sheet.

    >>> [info.slug for info in sheet_lessons()][:3]
    ['00-welcome', '01-cards', '02-trumps']
    """
    return tuple(info for info in LESSONS if info.drills)


def make_sheet(slug: str, seed: int = 0, level: int = 1, lang: str = "en", size: int = SIZE) -> Sheet:
    """The sheet of lesson ``slug``: ``size`` drills at ``level``, made as the lesson's
    link with ``?seed=`` and ``&level=`` makes them (see the module). Refuses a lesson
    without drills, a bad seed or level with :class:`~tutor.core.errors.TutorError`."""
    info = lesson(slug)
    if not info.drills:
        raise TutorError(Text("the lesson {slug} has no drills, so no sheet", slug=shown(slug)), parameter="lesson")
    seed_number(seed)
    level_number(level)
    drills: list[Drill] = []
    steps = dict.fromkeys(info.drills, 0)
    skipped = 0
    while len(drills) < size:
        kind = info.drills[len(drills) % len(info.drills)]
        drill_seed = visit_seed(seed, steps[kind], kind, info.slug)
        steps[kind] += 1
        try:
            drills.append(generate(kind, drill_seed, level, lang))
        except DrillError:  # no natural position within the redraws: the link's player says so; skip it
            skipped += 1
            if skipped > MAX_SKIPS:
                raise
    return Sheet(info, seed, level, tuple(drills))


def parse_sheet_link(query: str | None, tr: Translator = ENGLISH) -> tuple[SheetLink, tuple[str, ...]]:
    """A sheet page's link (``lesson``, ``seed``, ``level``; ``lang`` is the page's, only
    checked here), read as every page's link is (:func:`tutor.teach.course.read_link`):
    what it asks for and a note for each parameter ignored. Never raises on what a link holds."""
    slugs = [info.slug for info in sheet_lessons()]

    def read_lesson(raw: str, param: str, tr: Translator) -> str | Ignored:
        if raw in slugs:
            return raw
        return Ignored(tr("Ignored {param}: the lessons with drills are {lessons}.", param=param,
                          lessons=", ".join(slugs)))

    found, notes = read_link(query, {"lesson": read_lesson, "seed": read_seed, "level": read_level,
                                     "lang": read_lang}, tr)
    found.pop("lang", None)
    return SheetLink(**found), notes  # type: ignore[arg-type]


def answer_key(drill: Drill) -> tuple[tuple[str, ...], int, str, str]:
    """The key to one drill, all from the rules module: the correct answers as text (at
    most :data:`~tutor.teach.drills.base.MAX_SHOWN`), how many there are, the rule ID and the
    sentence saying why the first one is right.

    >>> answer_key(generate("tractor", 0))
    (('Yes',), 1, 'M2', '♦5 ♦5 ♦4 ♦4 is a tractor: 2 pairs of one suit in consecutive order (M2).')

    A pick of cards is keyed by its own sentence, not by the player's "Right." before it:

    >>> answer_key(generate("follow", 0))[3].startswith("Right")
    False
    """
    answers, count = drill.solutions()
    if drill.answer is AnswerKind.CHOICE:
        first: object = sorted(drill.correct)[0]
    elif drill.answer is AnswerKind.NUMBER:
        first = drill.number
    else:
        first = parse_cards(answers[0])
    verdict = drill.check(first)
    assert verdict.correct, "the rules module's answer is right"
    if drill.explain:
        return answers, count, verdict.rule, drill.explain
    if drill.judge is not None and isinstance(first, tuple):  # the pick's own sentence, not "Right. …"
        return answers, count, verdict.rule, drill.judge(first)[2]
    return answers, count, verdict.rule, verdict.message


def sheet_html(sheet: Sheet, tr: Translator = ENGLISH) -> str:
    """The sheet as HTML with its style sheet: the positions, then (on a new page when
    printed) the answer key, said in ``tr``'s language.

    >>> page = sheet_html(make_sheet("04-tractors", seed=1))
    >>> page.count('class="qd-sheet-item"'), page.index("qd-sheet-key") > page.index("qd-sheet-items")
    (16, True)
    """
    info = sheet.lesson
    title = escape(tr("Lesson sheet: {title}", title=tr(info.title)))
    meta = escape(tr("Seed {seed}, level {level}: the drills of the lesson's link with this seed and level.",
                     seed=sheet.seed, level=sheet.level))
    name = escape(tr("Name:"))
    items = "".join(_item(drill, tr) for drill in sheet.drills)
    keys = "".join(_key(drill, tr) for drill in sheet.drills)
    key_title = escape(tr("Answer key: {title}", title=tr(info.title)))
    return (f"<style>{SHEET_CSS}</style>"
            f'<article class="qd-root qd-sheet" lang="{tr.language}">'
            f'<section class="qd-sheet-positions"><h2>{title}</h2><p class="qd-sheet-meta">{meta}</p>'
            f'<p>{name} <span class="qd-sheet-line"></span></p><ol class="qd-sheet-items">{items}</ol></section>'
            f'<section class="qd-sheet-key"><h2>{key_title}</h2><p class="qd-sheet-meta">{meta}</p>'
            f'<ol class="qd-sheet-items">{keys}</ol></section></article>')


def _item(drill: Drill, tr: Translator) -> str:
    """One position: its kind and question, the cards on the table, the cards shown and the
    hand (each a line of notation), and where to answer."""
    trump = drawn_trump(drill)
    parts = [f'<p class="qd-sheet-question"><span class="qd-sheet-kind">{escape(tr(KINDS[drill.kind].title))}'
             f'</span><span class="qd-sheet-sep">·</span>{escape(drill.question)}</p>']
    if drill.table.plays:
        parts.append(_line(tr("The trick"), _trick(drill.table.plays, tr, drill.table.finished)))
    if drill.shown:
        parts.append(_line(drill.shown_label or tr("Cards shown"), _notation(drill.shown, tr)))
    if drill.hand:
        parts.append(_line(tr("Your hand"), _hand(drill.hand, trump, tr)))
    if drill.answer is AnswerKind.CHOICE:
        parts.append('<ul class="qd-sheet-choices">'
                     + "".join(f"<li>☐ {escape(c.label)}</li>" for c in drill.choices) + "</ul>")
    else:
        answer = escape(tr("Answer"))
        parts.append(f'<p class="qd-sheet-cards">{answer}: <span class="qd-sheet-line"></span></p>')
    return f'<li class="qd-sheet-item">{"".join(parts)}</li>'


def _line(label: str, markup: str) -> str:
    return f'<p class="qd-sheet-cards"><span class="qd-sheet-label">{escape(label)}</span> {markup}</p>'


def _notation(cards: Iterable[Card], tr: Translator) -> str:
    """Cards in the course's notation (``♥8 ♥8``; the jokers by name), kept on one line each
    and wrapped between cards; red suits red on screen, every card black on paper."""
    spans = []
    for card in cards:
        red = str(card) == "BJ" or (card.suit is not None and card.suit.value in "♥♦")  # as the card faces
        spans.append(f'<span class="qd-sheet-notation{" qd-sheet-red" if red else ""}">{escape(tr.cards((card,)))}'
                     "</span>")
    return " ".join(spans)


def _trick(plays: Sequence[tuple[int, Sequence[Card]]], tr: Translator, finished: bool) -> str:
    """The trick so far in playing order from the lead: each seat and its cards, the seats
    still to play with a dash (none in a ``finished`` trick, of which only ``plays`` are shown)."""
    played = dict(plays)
    lead = plays[0][0]
    seats = []
    for step in range(PLAYERS):
        seat = (lead + step) % PLAYERS
        if finished and seat not in played:
            continue
        cards = _notation(played[seat], tr) if seat in played else "—"
        said = (tr("Seat {seat} leads: {cards}", seat=seat, cards=_MARK) if step == 0
                else tr("Seat {seat}: {cards}", seat=seat, cards=_MARK))
        seats.append(escape(said).replace(_MARK, cards))
    return '<span class="qd-sheet-sep">·</span>'.join(seats)


def _hand(cards: Iterable[Card], trump: Trump, tr: Translator) -> str:
    """A hand as it is held: its trumps (labelled), then each side suit."""
    groups = []
    for lane, group in hand_groups(cards, trump):
        written = _notation(group, tr)
        groups.append(escape(tr("Trumps: {cards}", cards=_MARK)).replace(_MARK, written) if lane is TRUMP else written)
    return '<span class="qd-sheet-sep">|</span>'.join(groups)


def _key(drill: Drill, tr: Translator) -> str:
    answers, count, rule, why = answer_key(drill)
    if count > len(answers):
        listed = tr("{shown} of {count} correct answers:", shown=len(answers), count=count)
    else:
        listed = tr(Text.plural("Correct answer:", "Correct answers:", count=count))
    badge = tr("Rule {rule}", rule=rule) if rule else tr("Advice, not a rule")  # the coach's drills rest on no rule
    return (f'<li class="qd-sheet-item"><p><span class="qd-sheet-rule">{escape(badge)}</span>'
            f' · {escape(listed)} {escape(tr.semicolons(answers))}</p><p>{escape(why)}</p></li>')


__all__ = ["SHEET_CSS", "SIZE", "Sheet", "SheetLink", "answer_key", "make_sheet", "parse_sheet_link", "sheet_html",
           "sheet_lessons"]
