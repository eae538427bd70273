"""A learner's progress: streaks, stars, attempts, the level they chose, and mistakes
brought back by spaced repetition (py-fsrs).

Progress is kept per *track*: a drill kind as one lesson practises it
(``"05-following/follow"``; :func:`track`), or the kind alone for a drill player outside
the lessons. Stars: one star for every 5 correct answers in a row in a track, at most
3; a wrong answer resets the streak but never takes stars away. An answer given after
the answer was shown (the last hint, or the player's "Show answer") is *helped*: it
counts as an attempt, but not as correct, and the streak neither grows nor breaks.
Each drill answered wrong (or helped) is kept as a *review* of its kind (kind, seed,
level and its FSRS card: a mistake in following is one, whichever lesson it was made
in); answering it again reviews it (Good when right on one's own, Again otherwise), and
a review answered right three times in a row leaves the list. ``next_drill`` gives the
most overdue review of that kind, or else a fresh seed of the track. Answering the
drill just answered again (a retry, a double click) changes nothing unless it is a
review that has come due. Time is always passed in; nothing reads a clock.

Progress stored before it was kept per lesson (no ``"per_lesson"`` in its JSON) had
counts per kind only: each kind's counts stay with the kind and are copied to every
lesson practising it that has none of its own, so the home page shows what it showed
before and nothing is lost. The stored form only gained fields, so a copy of the
course from before reads it too (and keeps every track, as it keeps any kind).

>>> from datetime import datetime, timedelta, timezone
>>> now = datetime(2025, 1, 1, tzinfo=timezone.utc)
>>> p = Progress().record("follow", 7, 2, False, now)
>>> p.next_drill("follow", now) == (7, 2), p.next_drill("follow", now + timedelta(minutes=2))
(False, (7, 2))
>>> Progress.from_json(p.to_json()) == p
True
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Final, TypeGuard, cast

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler

if TYPE_CHECKING:
    from fsrs.card import CardDict

from tutor.core.arguments import MAX_EXACT
from tutor.teach.course import LESSONS, LEVELS, level_number
from tutor.teach.drills.common import SEEDS
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text, and_list, said

STREAK_PER_STAR: Final = 5
MAX_STARS: Final = 3
CLEARED_AFTER: Final = 3
"""Correct answers in a row that clear a review."""
VERSION: Final = 1
PER_LESSON: Final = "per_lesson"
"""Stored progress with this field set keeps its counts per lesson; without it, per kind."""

MAX_REVIEWS: Final = 500
"""At most this many mistakes wait to come back (the oldest go first); about 250
characters each when stored."""
MAX_KINDS: Final = 100
"""At most this many tracks are read from stored progress (a track is a drill kind in
a lesson, or a kind alone: the eleven lessons and nine kinds make about 30)."""
MAX_STORED: Final = 400_000
"""Stored progress longer than this (characters) is refused unread: :data:`MAX_REVIEWS`
reviews and every kind take well under half of it."""
MAX_COUNT: Final = MAX_EXACT
"""Counts, seeds and the salt are at most this (:data:`tutor.core.arguments.MAX_EXACT`: what a
browser's JSON keeps exactly)."""
MAX_NAME: Final = 40
"""A track's name is at most this long."""
MAX_PROBLEMS: Final = 3
"""A note names at most this many of the problems found, then says how many more."""

SCHEDULER: Final = Scheduler(enable_fuzzing=False)
"""The one FSRS scheduler of the course: a missed drill's review (here) and a costly play kept
from the table (:mod:`tutor.teach.mistakes`) come back on the same schedule."""
DUE_FORMAT: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,6})?[+-][0-9]{2}:[0-9]{2}")
"""How a stored schedule's times are written (``2025-01-01T00:01:00+00:00``, as FSRS writes
them: a date, a time, a zone); a time written otherwise is unreadable. The static home page's
script counts what is due with this very pattern (:func:`tools.static_site.home.home_facts`),
so both readers agree on which stored times they read."""
CARD_STATES: Final = (1, 2, 3)
"""The states of a stored FSRS card: learning, review, relearning."""
CARD_FIELDS: Final = frozenset({"card_id", "state", "step", "stability", "difficulty", "due", "last_review"})
"""The fields of a stored FSRS card, each of which must be there (any other is ignored)."""

DAMAGED: Final = Text("what is saved is damaged (changed by hand, or cut short)")
"""Why stored progress that is not progress at all (not text, not JSON, not an object) cannot be
read, in a learner's words: how it is written is nothing a learner can act on."""

CardItems = tuple[tuple[str, Any], ...]
"""An FSRS card as kept in an immutable value: its ``to_dict()`` items, sorted."""


class ProgressError(TutorError):
    """Progress data that cannot be read (garbage, tampered or from another version), or a
    level or time that progress cannot take."""


@dataclass(frozen=True, slots=True)
class Review:
    """A drill answered wrong, waiting to come back: its FSRS card as a dict."""

    kind: str
    seed: int
    level: int
    card: tuple[tuple[str, Any], ...]
    cleared: int = 0

    @property
    def due(self) -> datetime:
        """When the review comes back (:func:`card_due`)."""
        return card_due(self.card)


def track(kind: str, lesson: str | None = None) -> str:
    """The name progress is kept under: the kind as ``lesson`` practises it, or the kind
    alone outside the lessons.

    >>> track("follow", "05-following"), track("follow")
    ('05-following/follow', 'follow')
    """
    return kind if lesson is None else f"{lesson}/{kind}"


@dataclass(frozen=True, slots=True)
class KindProgress:
    """One track: attempts, correct answers, current streak and stars."""

    attempts: int = 0
    correct: int = 0
    streak: int = 0
    stars: int = 0


@dataclass(frozen=True, slots=True)
class Progress:
    """Immutable: :meth:`record` returns a new value. ``kinds`` holds each track's
    counts (named by :func:`track`), ``levels`` the level a learner chose for a track."""

    kinds: tuple[tuple[str, KindProgress], ...] = ()
    reviews: tuple[Review, ...] = ()
    last: tuple[str, int, int, str] | None = None
    """The last answer recorded (track, seed, level, time), so a retry is not counted twice."""
    salt: int = field(default=0)
    levels: tuple[tuple[str, int], ...] = ()

    def kind(self, kind: str, lesson: str | None = None) -> KindProgress:
        """The counts of ``kind`` in ``lesson`` (or outside the lessons)."""
        return dict(self.kinds).get(track(kind, lesson), KindProgress())

    def level(self, kind: str, lesson: str | None = None) -> int:
        """The level the learner chose for ``kind`` in ``lesson`` (1 until they choose)."""
        return dict(self.levels).get(track(kind, lesson), 1)

    def with_level(self, kind: str, level: int, lesson: str | None = None) -> Progress:
        """The learner chose ``level`` (one of :data:`tutor.teach.course.LEVELS`) for ``kind``
        in ``lesson``; any other is refused with :class:`ProgressError`.

        >>> Progress().with_level("follow", 3, "05-following").level("follow", "05-following")
        3
        """
        try:
            level_number(level)
        except TutorError as error:
            raise ProgressError(said(error), parameter="level") from None
        name = track(kind, lesson)
        return replace(self, levels=tuple(sorted({**dict(self.levels), name: level}.items())))

    def record(self, kind: str, seed: int, level: int, correct: bool, now: datetime, *,
               lesson: str | None = None, helped: bool = False) -> Progress:
        """The progress after answering drill (kind, seed, level) in ``lesson`` at ``now``;
        ``helped``: the answer had been shown before it was given.

        >>> now = utc(2025, 1, 1)
        >>> p = Progress().record("follow", 1, 1, True, now).record("follow", 2, 1, True, now, helped=True)
        >>> p.kind("follow"), [r.seed for r in p.reviews]
        (KindProgress(attempts=2, correct=1, streak=1, stars=0), [2])
        """
        check_time(now)
        name = track(kind, lesson)
        review = next((r for r in self.reviews if (r.kind, r.seed, r.level) == (kind, seed, level)), None)
        if self.last is not None and self.last[:3] == (name, seed, level) and (review is None or review.due > now):
            return self  # a retry of the drill just answered (not a review that came due) counts once
        known = correct and not helped
        reviews = [r for r in self.reviews if r is not review]
        if review is not None or not known:
            card, cleared = rescheduled(review.card if review else None, f"{kind}/{seed}/{level}", known, now,
                                        review.cleared if review else 0)
            if cleared < CLEARED_AFTER:
                reviews.append(Review(kind, seed, level, card, cleared))
        del reviews[:-MAX_REVIEWS]  # the oldest mistakes give way
        kinds = tuple(sorted({**dict(self.kinds), name: _counted(self.kind(kind, lesson), correct, helped)}.items()))
        return replace(self, kinds=kinds, reviews=tuple(reviews), last=(name, seed, level, now.isoformat()))

    def due(self, kind: str | None, now: datetime) -> tuple[Review, ...]:
        """Reviews of ``kind`` (of every kind if None) due at ``now`` (:func:`is_due`), most
        overdue first.

        >>> now = utc(2025, 1, 1)
        >>> p = Progress().record("follow", 7, 2, False, now).record("throw", 3, 1, False, now)
        >>> len(p.due(None, now)), len(p.due(None, utc(2025, 1, 1, 0, 2))), len(p.due("throw", utc(2026, 1, 1)))
        (0, 2, 1)
        """
        check_time(now)
        return tuple(sorted((r for r in self.reviews if (kind is None or r.kind == kind) and is_due(r.card, now)),
                            key=lambda r: (r.due, r.kind, r.seed, r.level)))

    def next_drill(self, kind: str, now: datetime, level: int = 1, lesson: str | None = None) -> tuple[int, int]:
        """(seed, level) of the next drill of ``kind`` in ``lesson``: a due mistake, or a
        fresh seed at ``level`` (:meth:`fresh_seed`)."""
        due = self.due(kind, now)
        if due:
            return due[0].seed, due[0].level
        return self.fresh_seed(kind, lesson), level

    def fresh_seed(self, kind: str, lesson: str | None = None) -> int:
        """The seed of the next new drill of ``kind`` in ``lesson``: made from the track's
        name and its count of answers, so it replays, and each lesson practising a kind
        starts on a drill of its own.

        >>> Progress().fresh_seed("follow", "00-welcome") != Progress().fresh_seed("follow", "05-following")
        True
        """
        name = track(kind, lesson)
        digest = hashlib.sha256(f"{name}/{self.kind(kind, lesson).attempts}/{self.salt}".encode()).digest()
        return int.from_bytes(digest[:4], "big") % SEEDS.stop  # not len(): 2**31 is too long in Pyodide

    # ------------------------------------------------------------ JSON

    def to_json(self) -> str:
        body = {
            "version": VERSION,
            "salt": self.salt,
            "kinds": {k: [v.attempts, v.correct, v.streak, v.stars] for k, v in self.kinds},
            "reviews": [{"kind": r.kind, "seed": r.seed, "level": r.level, "cleared": r.cleared,
                         "card": dict(r.card)} for r in self.reviews],
            "last": list(self.last) if self.last else None,
            "levels": dict(self.levels),
            PER_LESSON: True,
        }
        return json.dumps(body, sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Progress:
        """Read :meth:`to_json` output; anything else raises :class:`ProgressError`."""
        progress, problems = _read(text, strict=True)
        return progress

    @classmethod
    def from_json_lenient(cls, text: str) -> tuple[Progress, str | None]:
        """Read what can be read: every valid part is kept; the note (a
        :class:`~tutor.core.i18n.Text`) says what was dropped."""
        progress, note = read_stored(text)
        if progress is None:
            return cls(), Text("progress could not be read and starts afresh: {problem}", problem=note)
        return progress, note


def read_stored(text: object) -> tuple[Progress | None, Text | None]:
    """Progress as a browser stored it, read leniently: ``(progress, None)`` when all
    of it reads; ``(progress, note)`` when some parts were dropped (every valid part
    is kept; the note says what was dropped); ``(None, note)`` when nothing can be read
    (not text, longer than :data:`MAX_STORED`, not JSON, not progress of this version).
    Never raises; the note is a :class:`~tutor.core.i18n.Text` and quotes no Python words.

    >>> read_stored('{"version": 1}')
    (Progress(kinds=(), reviews=(), last=None, salt=0, levels=()), None)
    >>> read_stored("[") , read_stored("x" * 10**6)
    ((None, 'what is saved is damaged (changed by hand, or cut short)'), (None, 'progress is far too long to be read (1000000 characters)'))
    """
    try:
        progress, problems = _read(text, strict=False)
    except ProgressError as exc:
        problem = said(exc)
        return None, problem if isinstance(problem, Text) else Text("progress could not be read")
    return progress, joined_note(problems)


def visit_seed(seed: int, step: int, kind: str, lesson: str | None = None) -> int:
    """The seed of drill number ``step`` (from 0) of a visit by a link with ``seed``: seeds
    made from the link's seed, the lesson and the step, so everyone who follows the link gets
    the same drills in the same order (whatever their progress), and two lessons practising
    one kind open on different drills for one seed (a class given ``seed=3`` for the whole
    course). A drill player outside the lessons starts on the link's seed itself.

    >>> visit_seed(42, 0, "follow"), visit_seed(42, 1, "follow") == visit_seed(42, 1, "follow") != 42
    (42, True)
    >>> visit_seed(42, 0, "follow", "00-welcome") != visit_seed(42, 0, "follow", "05-following")
    True
    """
    if step == 0 and lesson is None:
        return seed
    digest = hashlib.sha256(f"{track(kind, lesson)}/link/{seed}/{step}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % SEEDS.stop  # not len(): 2**31 is too long in Pyodide


def _counted(old: KindProgress, correct: bool, helped: bool) -> KindProgress:
    """A track's counts after one more answer: a helped one is an attempt that neither
    grows nor breaks the streak (unless it is wrong even so)."""
    if helped and correct:
        return replace(old, attempts=old.attempts + 1)
    streak = old.streak + 1 if correct else 0
    stars = min(MAX_STARS, max(old.stars, streak // STREAK_PER_STAR))
    return KindProgress(old.attempts + 1, old.correct + int(correct), streak, stars)


def _migrated(kinds: dict[str, KindProgress]) -> dict[str, KindProgress]:
    """Counts kept per kind, as tracks: each kind's counts kept under the kind alone and
    copied to every lesson practising it that has no counts of its own."""
    tracks = dict(kinds)
    for info in LESSONS:
        for kind in info.drills:
            if kind in kinds:
                tracks.setdefault(track(kind, info.slug), kinds[kind])
    return tracks


# ------------------------------------------------------------ schedules (shared)

def card_due(card: CardItems) -> datetime:
    """When a kept FSRS card comes due.

    >>> card_due((("due", "2025-01-01T00:01:00+00:00"),))
    datetime.datetime(2025, 1, 1, 0, 1, tzinfo=datetime.timezone.utc)
    """
    return datetime.fromisoformat(dict(card)["due"])


def is_due(card: CardItems, now: datetime) -> bool:
    """The course's one definition of *due*: the card's due time is at or before ``now``. The
    static home page's script says the same of the card as stored (its ``due`` text read as
    a time, compared with the page's clock).

    >>> card = (("due", "2025-01-01T00:01:00+00:00"),)
    >>> is_due(card, utc(2025, 1, 1, 0, 1)), is_due(card, utc(2025, 1, 1, 0, 0, 59))
    (True, False)
    """
    return card_due(card) <= now


def rescheduled(card: CardItems | None, name: str, known: bool, now: datetime,
                cleared: int = 0) -> tuple[CardItems, int]:
    """A card after one more answer at ``now`` (a new card named ``name`` if ``card`` is None):
    rated Good when ``known`` (answered right on one's own), else Again; and the count of
    right answers in a row, ``cleared`` one more when known, else 0 (at :data:`CLEARED_AFTER`
    the caller lets the card go). A missed drill and a costly play are scheduled by this one
    function.

    >>> card, cleared = rescheduled(None, "follow/7/2", False, utc(2025, 1, 1))
    >>> dict(card)["due"], cleared
    ('2025-01-01T00:01:00+00:00', 0)
    >>> rescheduled(card, "follow/7/2", True, utc(2025, 1, 1, 0, 1), cleared)[1]
    1
    """
    fsrs_card = FsrsCard.from_dict(cast("CardDict", dict(card))) if card is not None else new_card(name, now)
    fsrs_card, _ = SCHEDULER.review_card(fsrs_card, Rating.Good if known else Rating.Again, now)
    return tuple(sorted(fsrs_card.to_dict().items())), (cleared + 1 if known else 0)


def new_card(name: str, now: datetime) -> FsrsCard:
    """A new FSRS card due at ``now``, its id made from ``name`` (so it is the same every time)."""
    card_id = int.from_bytes(hashlib.sha256(name.encode()).digest()[:6], "big")
    return FsrsCard(card_id=card_id, due=now)


def read_card(raw: object) -> CardItems | Text:
    """A stored FSRS card, or why it cannot be read. Its fields are held to what FSRS writes
    (:data:`DUE_FORMAT` for its times, whole numbers where FSRS writes them), as the static
    home page's script holds them, so both read the same cards. Never raises.

    >>> read_card({"due": "tomorrow"})
    'its review schedule could not be read'
    """
    if not isinstance(raw, dict):
        return Text("its review schedule is missing")
    if not (set(raw) >= CARD_FIELDS
            and is_int(raw["card_id"]) and raw["state"] in CARD_STATES and type(raw["state"]) is int
            and (raw["step"] is None or is_int(raw["step"]))
            and all(raw[name] is None or _is_number(raw[name]) for name in ("stability", "difficulty"))
            and _is_time(raw["due"]) and (raw["last_review"] is None or _is_time(raw["last_review"]))):
        return Text("its review schedule could not be read")
    try:
        card = FsrsCard.from_dict(cast("CardDict", raw))
        json.dumps(card.to_dict(), allow_nan=False)
    except Exception:  # noqa: BLE001 - any malformed card is reported, never raised raw
        return Text("its review schedule could not be read")
    return tuple(sorted(card.to_dict().items()))


def _is_time(value: object) -> bool:
    """A time as a stored schedule writes it (:data:`DUE_FORMAT`, a real date and time)."""
    if not isinstance(value, str) or DUE_FORMAT.fullmatch(value) is None:
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _is_number(value: object) -> bool:
    return type(value) in (int, float) and math.isfinite(cast(float, value))


def check_time(now: object, error: type[TutorError] | None = None) -> None:
    """Refuse a time that is not a timezone-aware datetime, with ``error`` (by default
    :class:`ProgressError`)."""
    if not isinstance(now, datetime) or now.tzinfo is None:
        raise (error or ProgressError)(Text("time must be a timezone-aware datetime, not {value}", value=shown(now)),
                                       parameter="now")


def joined_note(problems: Sequence[Text]) -> Text | None:
    """One note for what could not be read: the first :data:`MAX_PROBLEMS` problems, then how
    many more (None when there are none).

    >>> joined_note([Text("a"), Text("b"), Text("c"), Text("d"), Text("e")])
    'a; b; c; and 2 more'
    """
    if not problems:
        return None
    note = problems[0]
    for problem in problems[1:MAX_PROBLEMS]:
        note = Text("{first}; {second}", first=note, second=problem)
    if len(problems) > MAX_PROBLEMS:
        note = Text("{problems}; and {count} more", problems=note, count=len(problems) - MAX_PROBLEMS)
    return note


def is_int(value: object, low: int = 0) -> TypeGuard[int]:
    """A whole number (not a bool) from ``low`` to :data:`MAX_COUNT`, as stored."""
    return type(value) is int and low <= value <= MAX_COUNT


def is_name(value: object, most: int = MAX_NAME) -> TypeGuard[str]:
    """A name as stored: text of 1 to ``most`` characters the page can show (no lone
    surrogates; printable: no control, format or separator character but the space)."""
    if not isinstance(value, str) or not 0 < len(value) <= most:
        return False
    try:
        value.encode("utf-8")
    except UnicodeError:
        return False
    return value.isprintable()


def _read(text: object, *, strict: bool) -> tuple[Progress, list[Text]]:
    if not isinstance(text, (str, bytes)):
        raise ProgressError(DAMAGED)
    if len(text) > MAX_STORED:
        raise ProgressError(Text("progress is far too long to be read ({count} characters)", count=len(text)))
    try:
        body = json.loads(text)
    except (ValueError, RecursionError):  # Python's words on why are not a learner's
        raise ProgressError(DAMAGED) from None
    if not isinstance(body, dict):
        raise ProgressError(DAMAGED)
    if body.get("version") != VERSION:
        raise ProgressError(Text("it was saved by another version of the course"))
    problems: list[Text] = []

    def bad(message: Text) -> None:
        if strict:
            raise ProgressError(message)
        problems.append(message)

    salt = body.get("salt", 0)
    if not is_int(salt):
        bad(Text("salt {value} is not a whole number", value=shown(salt)))
        salt = 0
    kinds: dict[str, KindProgress] = {}
    raw_kinds = body.get("kinds", {})
    if not isinstance(raw_kinds, dict):
        bad(Text("kinds must be an object"))
        raw_kinds = {}
    if len(raw_kinds) > MAX_KINDS:
        bad(Text("{count} kinds were left out (at most {max} are kept)", count=len(raw_kinds) - MAX_KINDS,
                 max=MAX_KINDS))
    for name, value in list(raw_kinds.items())[:MAX_KINDS]:
        if (is_name(name) and isinstance(value, list) and len(value) == 4 and all(is_int(v) for v in value)
                and value[1] <= value[0] and value[3] <= MAX_STARS and value[2] <= value[1]):
            kinds[name] = KindProgress(*value)
        else:
            bad(Text("kind {name} has unreadable counts {value}", name=shown(name), value=shown(value)))
    reviews: list[Review] = []
    raw_reviews = body.get("reviews", [])
    if not isinstance(raw_reviews, list):
        bad(Text("reviews must be a list"))
        raw_reviews = []
    if len(raw_reviews) > MAX_REVIEWS:
        bad(Text("{count} reviews were left out (at most {max} are kept)", count=len(raw_reviews) - MAX_REVIEWS,
                 max=MAX_REVIEWS))
    for item in raw_reviews[-MAX_REVIEWS:]:
        problem = _review_problem(item)
        if isinstance(problem, tuple):
            assert isinstance(item, dict)
            reviews.append(Review(item["kind"], item["seed"], item["level"], problem, item.get("cleared", 0)))
        else:
            bad(Text("review {review} is unreadable ({problem})", review=shown(item), problem=problem))
    last = body.get("last")
    if last is not None:
        if not (isinstance(last, list) and len(last) == 4 and is_name(last[0]) and is_int(last[1])
                and is_int(last[2]) and isinstance(last[3], str) and len(last[3]) <= MAX_NAME):
            bad(Text("last answer {value} is unreadable", value=shown(last)))
            last = None
        else:
            last = tuple(last)
    if body.get(PER_LESSON) is not True:
        kinds = _migrated(kinds)
    levels = _read_levels(body.get("levels", {}), bad)
    return Progress(tuple(sorted(kinds.items())), tuple(reviews), last, salt, tuple(sorted(levels.items()))), problems


def _read_levels(raw: object, bad: Callable[[Text], None]) -> dict[str, int]:
    """The levels learners chose, as stored (``{track: level}``); what is not one is left out."""
    if not isinstance(raw, dict):
        bad(Text("levels must be an object"))
        return {}
    if len(raw) > MAX_KINDS:
        bad(Text("{count} levels were left out (at most {max} are kept)", count=len(raw) - MAX_KINDS, max=MAX_KINDS))
    levels: dict[str, int] = {}
    for name, value in list(raw.items())[:MAX_KINDS]:
        if is_name(name) and type(value) is int and value in LEVELS:
            levels[name] = value
        else:
            bad(Text("level {value} of {name} is not one of the levels {levels}", value=shown(value), name=shown(name),
                     levels=and_list(LEVELS)))
    return levels


def _review_problem(item: object) -> CardItems | Text:
    """A stored review's card, or why the review cannot be read."""
    if not isinstance(item, dict):
        return Text("not an object")
    kind, seed, level, cleared = item.get("kind"), item.get("seed"), item.get("level"), item.get("cleared", 0)
    if not is_name(kind) or not is_int(seed) or seed not in SEEDS or type(level) is not int \
            or level not in LEVELS or not is_int(cleared) or cleared >= CLEARED_AFTER:
        return Text("bad kind, seed, level or count")
    return read_card(item.get("card"))


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    """A UTC datetime, for tests and examples."""
    return datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)
