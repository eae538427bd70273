"""The course: its lessons in order, and the link parameters a teacher may share.

A lesson's address is stable (``/voila/render/05-following.ipynb``); query
parameters choose the drill seed (so a whole class gets the same sequence), the
drill kind, the difficulty and the language. Every parameter is validated; a bad
one is ignored with a note for the page, never an error.

>>> params, notes = parse_link("seed=42&kind=follow&level=9", lesson="05-following")
>>> params.seed, params.kind, params.level, notes
(42, 'follow', None, ('Ignored level=9: the level is 1, 2 or 3.',))
>>> [lesson.slug for lesson in LESSONS][:3]
['00-welcome', '01-cards', '02-trumps']
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qsl

from tutor.core.errors import TutorError, shown
from tutor.core.i18n import ENGLISH, LANGUAGES, N_, Text, Translator

MAX_SEED: Final = 2**31 - 1
STATIC_SITE: Final = sys.platform == "emscripten"
"""True in a page of the static site (``./dev site``: Python runs in the browser), where
each lesson is an ``.html`` page rather than a notebook Voila renders."""
LEVELS: Final = (1, 2, 3)
MAX_QUERY: Final = 2000
"""The longest query string read (a real link's is under 100 characters); the rest is ignored."""


@dataclass(frozen=True, slots=True)
class LessonInfo:
    """One lesson of the course: its address, title (English; shown as ``tr(title)``),
    the rules it teaches and the drill kinds it practises."""

    slug: str
    title: str
    rules: tuple[str, ...]
    drills: tuple[str, ...]

    @property
    def notebook(self) -> str:
        return f"{self.slug}.ipynb"

    @property
    def page(self) -> str:
        """The lesson's address beside the course's other pages: its notebook where Voila
        serves the course, its ``.html`` page on the static site.

        >>> lesson("05-following").page
        '05-following.ipynb'
        """
        return f"{self.slug}.html" if STATIC_SITE else self.notebook


LESSONS: Final[tuple[LessonInfo, ...]] = (
    LessonInfo("00-welcome", N_("Welcome"), (), ("follow",)),
    LessonInfo("01-cards", N_("Cards, points and the deal"), ("C1", "C2", "C3", "C4", "N1", "N2", "N3"), ("points",)),
    LessonInfo("02-trumps", N_("Trumps and the order of cards"), ("T1", "T2", "T3", "T4", "T5", "T6"), ("trick",)),
    LessonInfo("03-declaring", N_("Declaring, overturning and the kitty flip"),
               ("D1", "D2", "D3", "D4", "D5", "D6"), ("declare",)),
    LessonInfo("04-tractors", N_("Pairs and tractors"), ("M1", "M2", "M3"), ("tractor",)),
    LessonInfo("05-following", N_("Leading and following"), ("W0", "W1", "W2", "W3", "W4", "W5", "W6"), ("follow",)),
    LessonInfo("06-ruffing", N_("Ruffing, over-ruffing and who wins a trick"),
               ("R1", "R2", "R3", "R4", "R5", "B1", "B2", "B3"), ("ruff", "trick")),
    LessonInfo("07-throws", N_("Throws"), ("L1", "L2", "L3", "L4", "L5"), ("throw",)),
    LessonInfo("08-friend", N_("The friend and the solo"), ("K1", "F1", "F2", "F3", "F4", "F5", "F6"), ("friend",)),
    LessonInfo("09-scoring", N_("The last trick, kitty capture and scoring"),
               ("X1", "X2", "S1", "S2", "S3", "S4"), ("score",)),
    LessonInfo("10-play", N_("Play a hand"), ("D1", "K1", "F1", "L3", "W2", "R1", "B1", "X2", "S1"), ()),
    LessonInfo("11-playing-well", N_("Playing well: counting, the friend and the coach"),
               ("W2", "C3", "F1", "F5", "S2"), ("count", "advice")),
)


def lesson(slug: str) -> LessonInfo:
    """The lesson with this slug (``"05-following"``)."""
    for info in LESSONS:
        if info.slug == slug:
            return info
    raise TutorError(Text("no lesson {slug}; the lessons are {lessons}", slug=shown(slug),
                          lessons=", ".join(i.slug for i in LESSONS)))


@dataclass(frozen=True, slots=True)
class LinkParams:
    """What a shared link asks for; ``None`` where it asks nothing (or asked badly)."""

    seed: int | None = None
    kind: str | None = None
    level: int | None = None
    lang: str | None = None


def parse_link(query: str | None, *, lesson: str | None = None,
               tr: Translator = ENGLISH) -> tuple[LinkParams, tuple[str, ...]]:
    """Validate a query string. Returns the usable parameters and one note per
    ignored parameter, for the page to show.

    >>> parse_link("lang=xx&seed=-1&foo=1")[1]
    ('Ignored lang=xx: the languages are en, zh-Hans, zh-Hant.', 'Ignored seed=-1: the seed is a whole number from 0 to 2147483647.', 'Ignored foo=1: this page does not use it.')
    """
    if query is not None and not isinstance(query, str):
        raise TutorError(Text("a link's query is text, not {value}", value=shown(query)))
    kinds = _drill_kinds(lesson)
    values: dict[str, object] = {}
    notes: list[str] = []
    for key, raw in parse_qsl((query or "")[:MAX_QUERY], keep_blank_values=True)[:20]:
        quoted = f"{key[:30]}={raw[:30]}"
        if key in values:
            notes.append(tr("Ignored {param}: it was given twice.", param=quoted))
        elif key == "seed":
            if raw.isascii() and raw.isdigit() and len(raw) <= 10 and int(raw) <= MAX_SEED:
                values[key] = int(raw)
            else:
                notes.append(tr("Ignored {param}: the seed is a whole number from 0 to {max}.",
                                param=quoted, max=MAX_SEED))
        elif key == "level":
            if raw in ("1", "2", "3"):
                values[key] = int(raw)
            else:
                notes.append(tr("Ignored {param}: the level is 1, 2 or 3.", param=quoted))
        elif key == "kind" and not kinds:
            notes.append(tr("Ignored {param}: this page does not use it.", param=quoted))
        elif key == "kind":
            if raw in kinds:
                values[key] = raw
            else:
                notes.append(tr("Ignored {param}: the drills here are {kinds}.", param=quoted, kinds=", ".join(kinds)))
        elif key == "lang":
            if raw in LANGUAGES:
                values[key] = raw
            else:
                notes.append(tr("Ignored {param}: the languages are {languages}.",
                                param=quoted, languages=", ".join(LANGUAGES)))
        else:
            notes.append(tr("Ignored {param}: this page does not use it.", param=quoted))
    return LinkParams(**values), tuple(notes)  # type: ignore[arg-type]


def _drill_kinds(slug: str | None) -> tuple[str, ...]:
    if slug is not None:
        return lesson(slug).drills
    return tuple(dict.fromkeys(kind for info in LESSONS for kind in info.drills))
