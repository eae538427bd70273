"""The course: its lessons in order, and the link parameters a teacher may share.

A lesson's address is stable (``/voila/render/05-following.ipynb``); query
parameters choose the drill seed (so a whole class gets the same sequence), the
drill kind, the difficulty and the language; the table's lesson also takes
``review=mistakes`` (:data:`REVIEW_LESSON`, :data:`REVIEWS`: replay the learner's own
positions that have come due, :mod:`tutor.teach.mistakes`). Every parameter is validated; a bad
one is ignored with a note for the page, never an error. Every page that reads its
link reads it with :func:`read_link`, naming the parameters it uses: every other
parameter, a value it cannot use, a parameter given twice, and whatever lies beyond the
bounds of a link (:data:`MAX_QUERY`, :data:`MAX_PARAMS`) each get a note. The pages: a
lesson (:func:`parse_link`), the table (its ``seed=``), a teacher's position
(:func:`tutor.teach.positions.position_from_query`) and a lesson sheet
(:func:`tutor.teach.sheets.parse_sheet_link`), with the readers of the parameters they
share (:func:`read_seed`, :func:`read_level`, :func:`read_lang`).

>>> params, notes = parse_link("seed=42&kind=follow&level=9", lesson="05-following")
>>> params.seed, params.kind, params.level, notes
(42, 'follow', None, ('Ignored level=9: the levels are 1, 2 and 3.',))
>>> read_link("seed=²&x=1", {"seed": read_seed})[1]
('Ignored seed=²: the seed is a whole number from 0 to 2147483647.', 'Ignored x=1: this page does not use it.')
>>> [lesson.slug for lesson in LESSONS][:3]
['00-welcome', '01-cards', '02-trumps']
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qsl

from tutor.core.arguments import MAX_SEED
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import ENGLISH, LANGUAGES, N_, Text, Translator, and_list

STATIC_SITE: Final = sys.platform == "emscripten"
"""True in a page of the static site (``./dev site``: Python runs in the browser), where
each lesson is an ``.html`` page rather than a notebook Voila renders."""
TABLES_PATH: Final = "tables/"
"""Where the course's own server serves the tables of classmates (:mod:`tutor.server.tables`),
under its base address."""
TABLES_SERVICE: Final = "services/tables/"
"""Where JupyterHub serves them: the hub-managed service ``tables``, under the hub's base address."""
LEVELS: Final = (1, 2, 3)
"""The levels of the drills, 1 easy … 3 hard: the one list a link's ``level=``, a drill
(:func:`tutor.teach.drills.generate`), a sheet, stored progress and the learner's own
choice in a drill player are checked against (:func:`level_number`)."""
MAX_QUERY: Final = 6000
"""The longest query string of a page's link that is read; the rest is ignored, with a
note (a parameter it cuts in two is not read). A lesson's link is under 100 characters; the
longest links are a teacher's positions (:func:`tutor.teach.positions.make_link`): a
position's text, percent-encoded, where a suit symbol takes nine characters. A full
throw position (a hand, the throw and four other hands) comes to about 1,000, so this
leaves room to spare, and reading this much takes well under a millisecond."""
REVIEW_LESSON: Final = "10-play"
"""The lesson whose table replays the learner's own costly plays, opened with ``review=``."""
REVIEWS: Final = ("mistakes",)
"""What a link's ``review=`` may ask of :data:`REVIEW_LESSON`: ``mistakes``, the positions of the
learner's own hands that have come due (:data:`tutor.teach.mistakes.REVIEW_LINK`)."""
MAX_PARAMS: Final = 20
"""At most this many parameters of a link are read (a real link has at most four); the
rest are ignored, with a note."""
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
                          lessons=", ".join(i.slug for i in LESSONS)), parameter="lesson")


def practice_lesson(kind: str) -> LessonInfo | None:
    """The lesson a missed drill of ``kind`` is sent back to from the home page: the last lesson
    practising the kind (any lesson practising it brings it back; the last teaches it whole).

    >>> practice_lesson("follow").slug, practice_lesson("trick").slug, practice_lesson("nothing")
    ('05-following', '06-ruffing', None)
    """
    return next((info for info in reversed(LESSONS) if kind in info.drills), None)


def level_number(value: object, name: str = "level") -> int:
    """A level of the drills (one of :data:`LEVELS`), from a caller or a page; anything
    else is refused with :class:`~tutor.core.errors.TutorError`.

    >>> level_number(2)
    2
    >>> level_number("2")
    Traceback (most recent call last):
    ...
    tutor.core.errors.TutorError: there is no level '2': the levels are 1, 2 and 3
    """
    if type(value) is int and value in LEVELS:
        return value
    raise TutorError(Text("there is no level {level}: the levels are {levels}", level=shown(value),
                          levels=and_list(LEVELS)), parameter=name)


@dataclass(frozen=True, slots=True)
class LinkParams:
    """What a shared link asks for; ``None`` where it asks nothing (or asked badly)."""

    seed: int | None = None
    kind: str | None = None
    level: int | None = None
    lang: str | None = None
    review: str | None = None
    """``"mistakes"`` (one of :data:`REVIEWS`) when the table's lesson is to replay the learner's
    own positions that have come due."""


def query_pairs(query: object) -> list[tuple[str, str]]:
    """The ``(key, value)`` pairs of a link's query string that a page reads: the
    parameters wholly within its first :data:`MAX_QUERY` characters, at most
    :data:`MAX_PARAMS` of them; anything but text reads as no parameters. A page reads
    its link with :func:`read_link`, which also notes what this leaves out.

    >>> query_pairs("seed=42&lang=zh-Hans&x"), query_pairs(None), len(query_pairs("a=1&" * 1000))
    ([('seed', '42'), ('lang', 'zh-Hans'), ('x', '')], [], 20)
    """
    return _pairs(query)[0][:MAX_PARAMS]


def _pairs(query: object) -> tuple[list[tuple[str, str]], bool]:
    """Every parameter wholly within the first :data:`MAX_QUERY` characters of ``query``,
    and whether the query goes on beyond them."""
    text = query if isinstance(query, str) else ""
    cut = len(text) > MAX_QUERY
    if cut:
        text = text[:MAX_QUERY] if text[MAX_QUERY] == "&" else text[:MAX_QUERY].rpartition("&")[0]
    return parse_qsl(text, keep_blank_values=True), cut


@dataclass(frozen=True, slots=True)
class Ignored:
    """What a :data:`LinkReader` gives for a value its page cannot use: the note saying why."""

    note: str


LinkReader = Callable[[str, str, Translator], object]
"""How a page reads one parameter of its link: given the raw value, the parameter as a note
quotes it (:func:`quoted`) and the page's translator, the value the page uses, or
:class:`Ignored` with the note saying why it cannot use it."""


def read_link(query: object, readers: Mapping[str, LinkReader],
              tr: Translator = ENGLISH) -> tuple[dict[str, object], tuple[str, ...]]:
    """Read a page's link: the value of each parameter in ``readers`` that the page can
    use, and one note for each parameter it does not use, said in ``tr``'s language: a
    parameter the page has no reader for, a value its reader refuses, a parameter given
    again after its value was taken, the parameters after the first :data:`MAX_PARAMS`
    and whatever lies beyond :data:`MAX_QUERY` characters. Anything but text reads as
    no parameters. Never raises on what a link holds (a reader never does either).

    >>> read_link("level=2&level=3&lang=xx", {"level": read_level, "lang": read_lang})
    ({'level': 2}, ('Ignored level=3: it was given twice.', 'Ignored lang=xx: the languages are en, zh-Hans, zh-Hant.'))
    """
    pairs, cut = _pairs(query)
    values: dict[str, object] = {}
    notes: list[str] = []
    for key, raw in pairs[:MAX_PARAMS]:
        param = quoted(key, raw)
        reader = readers.get(key)
        if reader is None:
            notes.append(tr("Ignored {param}: this page does not use it.", param=param))
        elif key in values:
            notes.append(tr("Ignored {param}: it was given twice.", param=param))
        else:
            value = reader(raw, param, tr)
            if isinstance(value, Ignored):
                notes.append(value.note)
            else:
                values[key] = value
    if len(pairs) > MAX_PARAMS:
        notes.append(tr("Ignored {param} and every parameter after it: a page reads at most {most} parameters "
                        "of its link.", param=quoted(*pairs[MAX_PARAMS]), most=MAX_PARAMS))
    elif cut:
        notes.append(tr("Ignored the rest of the link: a page reads its first {most} characters.", most=MAX_QUERY))
    return values, tuple(notes)


def link_seed(raw: str) -> int | None:
    """A link's ``seed=``: a whole number from 0 to :data:`~tutor.core.arguments.MAX_SEED`
    written in ASCII digits, else None.

    >>> link_seed("0042"), link_seed("2147483648"), link_seed("٣"), link_seed("9" * 5000)
    (42, None, None, None)
    """
    if raw.isascii() and raw.isdigit() and len(raw) <= len(str(MAX_SEED)) and int(raw) <= MAX_SEED:
        return int(raw)
    return None


def link_level(raw: str) -> int | None:
    """A link's ``level=``: one of :data:`LEVELS` written in ASCII digits, else None.

    >>> link_level("3"), link_level("4"), link_level("²")
    (3, None, None)
    """
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 2 and int(raw) in LEVELS else None


def quoted(key: str, raw: str) -> str:
    """A parameter as a note quotes it: its key and value, each cut to 30 characters."""
    return f"{key[:30]}={raw[:30]}"


def seed_note(param: str, tr: Translator) -> str:
    """The note for a ``seed=`` that is no seed (``param`` as :func:`quoted` gives it)."""
    return tr("Ignored {param}: the seed is a whole number from 0 to {max}.", param=param, max=MAX_SEED)


def level_note(param: str, tr: Translator) -> str:
    """The note for a ``level=`` that is no level."""
    return tr("Ignored {param}: the levels are {levels}.", param=param, levels=and_list(LEVELS))


def read_seed(raw: str, param: str, tr: Translator) -> int | Ignored:
    """The :data:`LinkReader` of ``seed=`` (:func:`link_seed`)."""
    seed = link_seed(raw)
    return Ignored(seed_note(param, tr)) if seed is None else seed


def read_level(raw: str, param: str, tr: Translator) -> int | Ignored:
    """The :data:`LinkReader` of ``level=`` (:func:`link_level`)."""
    level = link_level(raw)
    return Ignored(level_note(param, tr)) if level is None else level


def read_lang(raw: str, param: str, tr: Translator) -> str | Ignored:
    """The :data:`LinkReader` of ``lang=``: one of the course's languages. Every page takes
    it (the server has already chosen the page's language from it); it is only checked here."""
    if raw in LANGUAGES:
        return raw
    return Ignored(tr("Ignored {param}: the languages are {languages}.", param=param, languages=", ".join(LANGUAGES)))


def read_review(raw: str, param: str, tr: Translator) -> str | Ignored:
    """The :data:`LinkReader` of ``review=`` (on :data:`REVIEW_LESSON` only): one of :data:`REVIEWS`.

    >>> read_review("mistakes", "review=mistakes", ENGLISH), read_review("all", "review=all", ENGLISH).note
    ('mistakes', 'Ignored review=all: the table reviews only review=mistakes.')
    """
    if raw in REVIEWS:
        return raw
    return Ignored(tr("Ignored {param}: the table reviews only {reviews}.", param=param,
                      reviews=", ".join(f"review={review}" for review in REVIEWS)))


def kind_reader(kinds: tuple[str, ...]) -> LinkReader:
    """The :data:`LinkReader` of ``kind=`` on a page whose drills are ``kinds``."""
    def read_kind(raw: str, param: str, tr: Translator) -> str | Ignored:
        if raw in kinds:
            return raw
        return Ignored(tr("Ignored {param}: the drills here are {kinds}.", param=param, kinds=", ".join(kinds)))

    return read_kind


def parse_link(query: str | None, *, lesson: str | None = None,
               tr: Translator = ENGLISH) -> tuple[LinkParams, tuple[str, ...]]:
    """Validate a lesson's query string (:func:`read_link`). Returns the usable parameters
    and one note per ignored parameter, for the page to show. The table
    (:mod:`widgets.table`) reads its ``seed=`` here too.

    >>> parse_link("lang=xx&seed=-1&foo=1")[1]
    ('Ignored lang=xx: the languages are en, zh-Hans, zh-Hant.', 'Ignored seed=-1: the seed is a whole number from 0 to 2147483647.', 'Ignored foo=1: this page does not use it.')

    The table's lesson (:data:`REVIEW_LESSON`) also reads ``review=``; no other page does:

    >>> parse_link("review=mistakes", lesson="10-play")[0].review, parse_link("review=mistakes", lesson="05-following")[1]
    ('mistakes', ('Ignored review=mistakes: this page does not use it.',))
    """
    if query is not None and not isinstance(query, str):
        raise TutorError(Text("a link's query is text, not {value}", value=shown(query)), parameter="query")
    readers: dict[str, LinkReader] = {"seed": read_seed, "level": read_level, "lang": read_lang}
    kinds = _drill_kinds(lesson)
    if kinds:
        readers["kind"] = kind_reader(kinds)
    if lesson == REVIEW_LESSON:
        readers["review"] = read_review
    values, notes = read_link(query, readers, tr)
    return LinkParams(**values), notes  # type: ignore[arg-type]


def page_link(query: object, tr: Translator = ENGLISH) -> tuple[str | None, tuple[str, ...]]:
    """The link of a page that reads only ``lang=`` (the home page, the teacher's table):
    the language it asks for (or None) and a note for every other parameter.

    >>> page_link("lang=zh-Hant&seed=3")
    ('zh-Hant', ('Ignored seed=3: this page does not use it.',))
    """
    values, notes = read_link(query, {"lang": read_lang}, tr)
    lang = values.get("lang")
    return (lang if isinstance(lang, str) else None), notes


def _drill_kinds(slug: str | None) -> tuple[str, ...]:
    if slug is not None:
        return lesson(slug).drills
    return tuple(dict.fromkeys(kind for info in LESSONS for kind in info.drills))
