"""A learner's progress: streaks, stars, attempts, and mistakes brought back by
spaced repetition (py-fsrs).

Stars: one star for every 5 correct answers in a row in a kind, at most 3; a
wrong answer resets the streak but never takes stars away. Each drill answered
wrong is kept as a *review* (kind, seed, level and its FSRS card); answering it
again reviews it (Good when right, Again when wrong), and a review answered right
three times in a row leaves the list. ``next_drill`` gives the most overdue
review of that kind, or else a fresh seed. Answering the drill just answered
again (a retry, a double click) changes nothing unless it is a review that has
come due. Time is always passed in; nothing reads a clock.

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
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Final

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler

from tutor.i18n import Text, said

STREAK_PER_STAR: Final = 5
MAX_STARS: Final = 3
CLEARED_AFTER: Final = 3
"""Correct answers in a row that clear a review."""
VERSION: Final = 1

_SCHEDULER: Final = Scheduler(enable_fuzzing=False)


class ProgressError(ValueError):
    """Progress data that cannot be read (garbage, tampered or from another version)."""


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
        return datetime.fromisoformat(dict(self.card)["due"])


@dataclass(frozen=True, slots=True)
class KindProgress:
    """One kind: attempts, correct answers, current streak and stars."""

    attempts: int = 0
    correct: int = 0
    streak: int = 0
    stars: int = 0


@dataclass(frozen=True, slots=True)
class Progress:
    """Immutable: :meth:`record` returns a new value."""

    kinds: tuple[tuple[str, KindProgress], ...] = ()
    reviews: tuple[Review, ...] = ()
    last: tuple[str, int, int, str] | None = None
    """The last answer recorded (kind, seed, level, time), so a retry is not counted twice."""
    salt: int = field(default=0)

    def kind(self, kind: str) -> KindProgress:
        return dict(self.kinds).get(kind, KindProgress())

    def record(self, kind: str, seed: int, level: int, correct: bool, now: datetime) -> Progress:
        """The progress after answering drill (kind, seed, level) at ``now``."""
        _check_time(now)
        stamp = now.isoformat()
        review = next((r for r in self.reviews if (r.kind, r.seed, r.level) == (kind, seed, level)), None)
        if self.last is not None and self.last[:3] == (kind, seed, level) and (review is None or review.due > now):
            return self  # a retry of the drill just answered (not a review that came due) counts once
        old = self.kind(kind)
        streak = old.streak + 1 if correct else 0
        stars = min(MAX_STARS, max(old.stars, streak // STREAK_PER_STAR))
        updated = KindProgress(old.attempts + 1, old.correct + int(correct), streak, stars)
        kinds = tuple(sorted({**dict(self.kinds), kind: updated}.items()))
        reviews = [r for r in self.reviews if r is not review]
        if review is not None or not correct:
            card = FsrsCard.from_dict(dict(review.card)) if review else _new_card(kind, seed, level, now)  # type: ignore[arg-type]
            card, _ = _SCHEDULER.review_card(card, Rating.Good if correct else Rating.Again, now)
            cleared = (review.cleared + 1 if review else 1) if correct else 0
            if cleared < CLEARED_AFTER:
                reviews.append(Review(kind, seed, level, tuple(sorted(card.to_dict().items())), cleared))
        return replace(self, kinds=kinds, reviews=tuple(reviews), last=(kind, seed, level, stamp))

    def due(self, kind: str, now: datetime) -> tuple[Review, ...]:
        """Reviews of ``kind`` due at ``now``, most overdue first."""
        _check_time(now)
        return tuple(sorted((r for r in self.reviews if r.kind == kind and r.due <= now),
                            key=lambda r: (r.due, r.seed, r.level)))

    def next_drill(self, kind: str, now: datetime, level: int = 1) -> tuple[int, int]:
        """(seed, level) of the next drill of ``kind``: a due mistake, or a fresh seed
        at ``level`` (fresh seeds come from the progress itself, so they replay)."""
        due = self.due(kind, now)
        if due:
            return due[0].seed, due[0].level
        k = self.kind(kind)
        digest = hashlib.sha256(f"{kind}/{k.attempts}/{self.salt}".encode()).digest()
        seed = int.from_bytes(digest[:4], "big") % 2**31
        return seed, level

    # ------------------------------------------------------------ JSON

    def to_json(self) -> str:
        body = {
            "version": VERSION,
            "salt": self.salt,
            "kinds": {k: [v.attempts, v.correct, v.streak, v.stars] for k, v in self.kinds},
            "reviews": [{"kind": r.kind, "seed": r.seed, "level": r.level, "cleared": r.cleared,
                         "card": dict(r.card)} for r in self.reviews],
            "last": list(self.last) if self.last else None,
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
        :class:`~tutor.i18n.Text`) says what was dropped."""
        try:
            progress, problems = _read(text, strict=False)
        except ProgressError as exc:
            return cls(), Text("progress could not be read and starts afresh: {problem}", problem=said(exc))
        if not problems:
            return progress, None
        note = problems[0]
        for problem in problems[1:]:
            note = Text("{first}; {second}", first=note, second=problem)
        return progress, note


def _new_card(kind: str, seed: int, level: int, now: datetime) -> FsrsCard:
    card_id = int.from_bytes(hashlib.sha256(f"{kind}/{seed}/{level}".encode()).digest()[:6], "big")
    return FsrsCard(card_id=card_id, due=now)


def _check_time(now: object) -> None:
    if not isinstance(now, datetime) or now.tzinfo is None:
        raise ProgressError(Text("time must be a timezone-aware datetime, not {value}", value=repr(now)[:60]))


def _is_int(value: object, low: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _read(text: object, *, strict: bool) -> tuple[Progress, list[str]]:
    if not isinstance(text, (str, bytes)):
        raise ProgressError(Text("progress is JSON text, not {type}", type=type(text).__name__))
    try:
        body = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProgressError(Text("progress is not valid JSON: {problem}", problem=str(exc)[:200])) from None
    if not isinstance(body, dict):
        raise ProgressError(Text("progress JSON must be an object"))
    if body.get("version") != VERSION:
        raise ProgressError(Text("unknown progress version {version} (expected {expected})",
                                 version=repr(body.get("version"))[:40], expected=VERSION))
    problems: list[str] = []

    def bad(message: str) -> None:
        if strict:
            raise ProgressError(message)
        problems.append(message)

    salt = body.get("salt", 0)
    if not _is_int(salt):
        bad(Text("salt {value} is not a whole number", value=repr(salt)[:40]))
        salt = 0
    kinds: dict[str, KindProgress] = {}
    raw_kinds = body.get("kinds", {})
    if not isinstance(raw_kinds, dict):
        bad(Text("kinds must be an object"))
        raw_kinds = {}
    for name, value in raw_kinds.items():
        if (isinstance(value, list) and len(value) == 4 and all(_is_int(v) for v in value)
                and value[1] <= value[0] and value[3] <= MAX_STARS and value[2] <= value[1]):
            kinds[name] = KindProgress(*value)
        else:
            bad(Text("kind {name} has unreadable counts {value}", name=repr(name)[:40], value=repr(value)[:60]))
    reviews: list[Review] = []
    raw_reviews = body.get("reviews", [])
    if not isinstance(raw_reviews, list):
        bad(Text("reviews must be a list"))
        raw_reviews = []
    for item in raw_reviews:
        try:
            if not isinstance(item, dict):
                raise ValueError(Text("not an object"))
            kind, seed, level, cleared = item["kind"], item["seed"], item["level"], item.get("cleared", 0)
            if not isinstance(kind, str) or not _is_int(seed) or level not in (1, 2, 3) or not _is_int(cleared):
                raise ValueError(Text("bad kind, seed, level or count"))
            raw_card = item["card"]
            card = FsrsCard.from_dict(raw_card)
            if card.due.tzinfo is None:
                raise ValueError(Text("due time without a time zone"))
            reviews.append(Review(kind, seed, level, tuple(sorted(card.to_dict().items())), cleared))
        except Exception as exc:  # noqa: BLE001 - any malformed review is reported, never raised raw
            problem = said(exc)
            if not isinstance(problem, Text):  # not one of ours: name the error too
                problem = f"{exc.__class__.__name__}: {exc}"[:200]
            bad(Text("review {review} is unreadable ({problem})", review=str(item)[:60], problem=problem))
    last = body.get("last")
    if last is not None:
        if not (isinstance(last, list) and len(last) == 4 and isinstance(last[0], str) and _is_int(last[1])
                and _is_int(last[2]) and isinstance(last[3], str)):
            bad(Text("last answer {value} is unreadable", value=repr(last)[:60]))
            last = None
        else:
            last = tuple(last)
    return Progress(tuple(sorted(kinds.items())), tuple(reviews), last, salt), problems


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> datetime:
    """A UTC datetime, for tests and examples."""
    return datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)
