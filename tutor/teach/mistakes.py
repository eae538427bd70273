"""The learner's own mistakes at the table, brought back on a spaced schedule.

After a hand, the coach's review (:func:`tutor.play.coach.review`) finds the learner's costly
plays. Each is *kept* here: the finished hand's record (:func:`tutor.play.record.export_hand`,
which replays the same deal), the seat, the play's index in the hand's history and the cards
played, with an FSRS card scheduled by the course's one scheduler
(:func:`tutor.teach.drills.progress.rescheduled`), as a missed drill is. The home page lists
what has come due ("5 positions to review") and links the table's review
(:data:`REVIEW_LINK`), which replays each due position and reports the outcome with
:meth:`Mistakes.answered`: Good when the learner's new play was accepted on their own, Again
otherwise; three right answers in a row (:data:`CLEARED_AFTER`) and the position is cleared.

The store lives in the browser under its own key (:data:`MISTAKES_KEY`), apart from the drills'
progress. Its stored form keeps each hand once; :meth:`Mistakes.from_json` reads whatever a
browser holds (tampered, huge, wrong-typed, from another version) without ever raising: what
cannot be read is dropped, with a note, and nothing else is lost. Time is always passed in.

>>> from tutor.play.record import export_hand
>>> from tutor.play.strategy import play_computer_hand
>>> from tutor.teach.drills.progress import utc
>>> game = play_computer_hand(3)
>>> now = utc(2025, 1, 1)
>>> kept = Mistakes().keep(export_hand(game), 0, [(60, "♦9 ♦6")], now)
>>> kept.due(now), len(kept.due(utc(2025, 1, 1, 0, 1)))
((), 1)
>>> Mistakes.from_json(kept.to_json()) == (kept, None)
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Final

from tutor.core.arguments import SEATS
from tutor.core.arguments import seat as seat_number
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text, said
from tutor.play.record import HEADER, MAX_LINES, import_hand
from tutor.rules.actions import Play
from tutor.rules.game import Game
from tutor.rules.notation import parse_cards
from tutor.teach.course import LESSONS, REVIEW_LESSON, REVIEWS, LessonInfo, lesson, practice_lesson
from tutor.teach.drills.progress import (CLEARED_AFTER, CardItems, Progress, card_due, check_time, is_due, is_int,
                                         is_name, joined_note, read_card, rescheduled)

MISTAKES_KEY: Final = "qidong-tutor/mistakes/v1"
"""Where a browser keeps the learner's positions to review (``localStorage``), apart from the
drills' progress (``qidong-tutor/progress/v1``) and the quick checks' (``qidong-tutor/checks/v1``)."""
REVIEW: Final = REVIEWS[0]
"""The value of a link's ``review=`` that replays these positions (:func:`tutor.teach.course.parse_link`)."""
REVIEW_LINK: Final = f"{lesson(REVIEW_LESSON).notebook}?review={REVIEW}"
"""The table's review of the positions that have come due, as the home page links it:
``10-play.ipynb?review=mistakes`` (lesson 10 opened with ``review=mistakes``).

>>> REVIEW_LINK
'10-play.ipynb?review=mistakes'
"""
DAMAGED: Final = Text("the saved positions to review are damaged (changed by hand, or cut short)")
"""Why stored positions that are not positions at all (not text, not JSON, not an object) cannot be
read, in a learner's words."""

VERSION: Final = 1
MAX_KEPT: Final = 50
"""At most this many positions are kept (the oldest give way), from at most as many hands."""
MAX_HAND: Final = 10_000
"""A kept hand's record is at most this long (characters): a whole hand's is about 1,200–3,000."""
MAX_PLAYED: Final = 120
"""The cards of a kept play, as text, are at most this long (a long throw is about 60)."""
MAX_INDEX: Final = MAX_LINES
"""A kept play's index in its hand's history is below this (a hand record's most lines)."""
MAX_STORED: Final = MAX_KEPT * (MAX_HAND + 1_000)
"""Stored positions longer than this (characters) are refused unread: :data:`MAX_KEPT`
positions of as many hands, each hand at its longest, fit within it."""

__all__ = ["CLEARED_AFTER", "MAX_HAND", "MAX_INDEX", "MAX_KEPT", "MAX_PLAYED", "MAX_STORED", "MISTAKES_KEY", "REVIEW",
           "REVIEW_LINK", "VERSION", "Kept", "Mistakes", "MistakesError", "ToReview", "position_key", "to_review"]


class MistakesError(TutorError):
    """A position that cannot be kept (a record, seat, play or time that is not one), or a
    kept position whose hand no longer replays to it."""


def position_key(hand: str, index: int) -> str:
    """The stable id of the position before the play at ``index`` in the hand recorded as
    ``hand``: its deal (seed, rules, deck) and the actions before it, whatever the hand did
    afterwards — a deal played again from a trick keeps the same positions once.

    >>> record = "# 启东招朋友 hand record v1\\nseed: 3\\ndeal 100\\nclose"
    >>> position_key(record, 60) == position_key(record + "\\nplay 0 ♠A", 60), position_key(record, 61)[-3:]
    (True, '-61')
    """
    kept: list[str] = []
    taken = 0
    for raw in hand.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "opponents:")):
            continue
        if line.startswith(("seed:", "rule ", "deck:")):
            kept.append(line)
            continue
        if taken >= index:
            break
        words = line.split()
        dealt = int(words[1]) if words[0] == "deal" and len(words) == 2 and words[1].isdigit() else 1
        if words[0] == "deal" and taken + dealt > index:
            line, dealt = f"deal {index - taken}", index - taken
        kept.append(line)
        taken += dealt
    return f"{hashlib.sha256(chr(10).join(kept).encode('utf-8')).hexdigest()[:16]}-{index}"


@dataclass(frozen=True, slots=True)
class Kept:
    """One costly play kept to come back: the finished hand's record (``hand``), the seat that
    played it, its ``index`` in the hand's history, the cards played (notation), its FSRS card
    and how many times in a row it has since been answered right (``cleared``)."""

    hand: str
    seat: int
    index: int
    cards: str
    card: CardItems
    cleared: int = 0

    @property
    def key(self) -> str:
        """The position's stable id (:func:`position_key`): the same whenever the same hand's
        same play is kept."""
        return position_key(self.hand, self.index)

    @property
    def due(self) -> datetime:
        """When the position comes back."""
        return card_due(self.card)

    def position(self) -> Game:
        """The hand replayed to just before the costly play: the same deal, the same hidden
        cards, the seat to play. A record that no longer replays to a play of the seat (from
        another version of the rules, say) is refused with :class:`MistakesError`.

        >>> from tutor.play.record import export_hand
        >>> from tutor.play.strategy import play_computer_hand
        >>> from tutor.teach.drills.progress import utc
        >>> game = play_computer_hand(3)
        >>> index = next(i for i, a in enumerate(game.history) if isinstance(a, Play) and a.seat == 0)
        >>> kept = Mistakes().keep(export_hand(game), 0, [(index, str(game.history[index].cards))], utc(2025, 1, 1))
        >>> before = kept.kept[0].position()
        >>> len(before.history) == index, before.actor
        (True, 0)
        """
        try:
            whole = import_hand(self.hand)
        except TutorError as error:
            raise MistakesError(Text("the hand of this position no longer replays: {problem}",
                                     problem=said(error))) from None
        action = whole.history[self.index] if self.index < len(whole.history) else None
        if not isinstance(action, Play) or action.seat != self.seat:
            raise MistakesError(Text("the hand of this position has no play of seat {seat} at {index}",
                                     seat=self.seat, index=self.index))
        game = Game(whole.seed, whole.rules, whole.deck)
        for earlier in whole.history[:self.index]:
            game.apply(earlier)
        return game


@dataclass(frozen=True, slots=True)
class Mistakes:
    """The positions kept to come back, oldest first. Immutable: every change returns a new value."""

    kept: tuple[Kept, ...] = ()

    def keep(self, hand_text: str, seat: int, plays: Sequence[tuple[int, str]], now: datetime) -> Mistakes:
        """The store with the costly ``plays`` (each ``(index in the hand's history, cards
        played)``) of ``seat`` in the hand recorded as ``hand_text`` kept, each due again a
        little after ``now`` (a missed answer's first step). A position already kept stays as it
        is (keeping a hand twice does not duplicate it); past :data:`MAX_KEPT` the oldest give
        way. What is not a record, a seat or a play is refused with :class:`MistakesError`.

        >>> from tutor.teach.drills.progress import utc
        >>> hand = "# 启东招朋友 hand record v1\\nseed: 3"
        >>> once = Mistakes().keep(hand, 0, [(60, "♦9 ♦6"), (70, "♠A")], utc(2025, 1, 1))
        >>> twice = once.keep(hand, 0, [(60, "♦9 ♦6")], utc(2025, 1, 2))
        >>> len(twice.kept), twice == once
        (2, True)
        >>> Mistakes().keep(hand, 5, [], utc(2025, 1, 1))
        Traceback (most recent call last):
        ...
        tutor.teach.mistakes.MistakesError: seat must be a seat number from 0 to 4, not 5
        """
        check_time(now, MistakesError)
        if not isinstance(hand_text, str) or not _is_hand(hand_text):
            raise MistakesError(Text("a kept hand is its record (at most {count} characters), not {value}",
                                     count=MAX_HAND, value=shown(hand_text)), parameter="hand_text")
        try:
            seat_number(seat)
        except TutorError as error:
            raise MistakesError(said(error), parameter="seat") from None
        kept = list(self.kept)
        known = {item.key for item in kept}
        for play in plays:
            if not (isinstance(play, tuple) and len(play) == 2 and type(play[0]) is int
                    and 0 <= play[0] < MAX_INDEX and is_name(play[1], MAX_PLAYED)):
                raise MistakesError(Text("a kept play is its index in the hand and its cards, not {value}",
                                         value=shown(play)), parameter="plays")
            index, cards = play
            try:
                parse_cards(cards)
            except TutorError as error:
                raise MistakesError(said(error), parameter="plays") from None
            key = position_key(hand_text, index)
            if key in known:
                continue
            card, cleared = rescheduled(None, key, False, now)
            kept.append(Kept(hand_text, seat, index, cards, card, cleared))
            known.add(key)
        return replace(self, kept=tuple(kept[-MAX_KEPT:]))  # the oldest give way

    def due(self, now: datetime) -> tuple[Kept, ...]:
        """The positions due at ``now`` (:func:`tutor.teach.drills.progress.is_due`), most
        overdue first (those due at once in the order they were kept)."""
        check_time(now, MistakesError)
        return tuple(sorted((item for item in self.kept if is_due(item.card, now)), key=lambda k: k.due))

    def get(self, key: str) -> Kept | None:
        """The position kept under ``key`` (:attr:`Kept.key`), or None."""
        return next((item for item in self.kept if item.key == key), None)

    def answered(self, key: str, accepted: bool, helped: bool, now: datetime) -> Mistakes:
        """The store after position ``key`` was tried again at ``now``: ``accepted``, the
        learner's play was within the coach's margin of the best; ``helped``, the answer had
        been shown first. Good when accepted on one's own, Again otherwise; right
        :data:`CLEARED_AFTER` times in a row and the position leaves the store. A position
        not (or no longer) kept, or not yet due, is left as it is: answering it early, or
        twice, changes nothing.

        >>> from tutor.teach.drills.progress import utc
        >>> now = utc(2025, 1, 1)
        >>> store = Mistakes().keep("# 启东招朋友 hand record v1\\nseed: 3", 0, [(60, "♦9")], now)
        >>> key = store.kept[0].key
        >>> store.answered(key, True, False, now) == store  # not due yet
        True
        >>> for _ in range(CLEARED_AFTER):  # right three times, each when due
        ...     store = store.answered(key, True, False, store.kept[0].due)
        >>> store.kept
        ()
        """
        check_time(now, MistakesError)
        item = self.get(key)
        if item is None or not is_due(item.card, now):
            return self
        known = accepted is True and helped is not True
        card, cleared = rescheduled(item.card, key, known, now, item.cleared)
        kept = [other for other in self.kept if other is not item]
        if cleared < CLEARED_AFTER:
            kept.append(replace(item, card=card, cleared=cleared))
        return replace(self, kept=tuple(kept))

    def forget(self, key: str) -> Mistakes:
        """The store without position ``key`` (one whose hand no longer replays: :meth:`Kept.position`)."""
        return replace(self, kept=tuple(item for item in self.kept if item.key != key))

    # ------------------------------------------------------------ JSON

    def to_json(self) -> str:
        """The stored form: each hand's record once, and the positions naming their hand by its place."""
        hands = list(dict.fromkeys(item.hand for item in self.kept))
        where = {hand: number for number, hand in enumerate(hands)}
        body = {
            "version": VERSION,
            "hands": hands,
            "kept": [{"hand": where[item.hand], "seat": item.seat, "index": item.index, "cards": item.cards,
                      "cleared": item.cleared, "card": dict(item.card)} for item in self.kept],
        }
        return json.dumps(body, sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: object) -> tuple[Mistakes, Text | None]:
        """Read what a browser stored (None: nothing stored): every readable position is kept,
        and the note (a :class:`~tutor.core.i18n.Text`, or None when all was read) says what was
        dropped. Never raises.

        >>> Mistakes.from_json(None), Mistakes.from_json("[")
        ((Mistakes(kept=()), None), (Mistakes(kept=()), 'the saved positions to review are damaged (changed by hand, or cut short)'))
        >>> Mistakes.from_json('{"version": 1, "hands": [], "kept": [7]}')[1]
        'position 7 is unreadable (not an object)'
        """
        if text is None:
            return cls(), None
        problems: list[Text] = []
        try:
            kept = _read(text, problems)
        except MistakesError as error:
            return cls(), said(error)  # type: ignore[return-value]
        return cls(tuple(kept)), joined_note(problems)


@dataclass(frozen=True, slots=True)
class ToReview:
    """What has come due, as the home page lists it: the kept ``positions`` due, the missed
    drills due, as ``(kind, count)`` in the order of the kinds' lessons, and the ``lessons``
    (slugs, in course order) whose practice brings them back (:func:`review_lesson`)."""

    positions: int = 0
    drills: tuple[tuple[str, int], ...] = ()
    lessons: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        """Every position to review: the table's and the drills'."""
        return self.positions + sum(count for _, count in self.drills)


def review_lesson(kind: str, progress: Progress) -> LessonInfo | None:
    """The lesson a missed drill of ``kind`` is sent back to (any lesson practising the kind
    brings it back): the last lesson practising it that the learner has answered its drills
    in, so never a lesson not reached yet; without one (the drill was missed outside the
    lessons), the lesson that teaches it whole (:func:`tutor.teach.course.practice_lesson`).
    None when no lesson practises it.

    >>> from tutor.teach.drills.progress import utc
    >>> missed = Progress().record("trick", 5, 1, False, utc(2025, 1, 1), lesson="02-trumps")
    >>> review_lesson("trick", missed).slug, review_lesson("trick", Progress()).slug
    ('02-trumps', '06-ruffing')
    >>> review_lesson("trick", missed.record("trick", 6, 1, True, utc(2025, 1, 1), lesson="06-ruffing")).slug
    '06-ruffing'
    """
    reached = [info for info in LESSONS if kind in info.drills and progress.kind(kind, info.slug).attempts]
    return reached[-1] if reached else practice_lesson(kind)


def to_review(progress: Progress, mistakes: Mistakes, now: datetime) -> ToReview:
    """What the home page lists at ``now``: the positions of ``mistakes`` due, and the reviews
    of ``progress`` due (missed drills), counted by kind, with the lessons they are sent back to.

    >>> from tutor.teach.drills.progress import utc
    >>> progress = Progress().record("trick", 5, 1, False, utc(2025, 1, 1), lesson="06-ruffing")
    >>> due = to_review(progress, Mistakes(), utc(2025, 1, 2))
    >>> due.total, due.drills, due.lessons
    (1, (('trick', 1),), ('06-ruffing',))
    """
    counts: dict[str, int] = {}
    for review in progress.due(None, now):
        counts[review.kind] = counts.get(review.kind, 0) + 1
    order = [kind for info in LESSONS for kind in info.drills]
    drills = sorted(counts.items(), key=lambda item: (order.index(item[0]) if item[0] in order else len(order), item[0]))
    sent = {info.slug for kind in counts if (info := review_lesson(kind, progress)) is not None}
    lessons = tuple(info.slug for info in LESSONS if info.slug in sent)
    return ToReview(len(mistakes.due(now)), tuple(drills), lessons)


# ------------------------------------------------------------ reading

def _is_hand(value: object) -> bool:
    """A kept hand's record as stored: text of at most :data:`MAX_HAND` characters that starts
    as a record does (:data:`tutor.play.record.HEADER`) and has no lone surrogate. Whether it
    replays is asked when it is replayed (:meth:`Kept.position`)."""
    if not isinstance(value, str) or len(value) > MAX_HAND or not value.startswith(HEADER):
        return False
    try:
        value.encode("utf-8")
    except UnicodeError:
        return False
    return True


def _read(text: object, problems: list[Text]) -> list[Kept]:
    if not isinstance(text, str):
        raise MistakesError(DAMAGED)
    if len(text) > MAX_STORED:
        raise MistakesError(Text("the positions to review are far too long to be read ({count} characters)",
                                 count=len(text)))
    try:
        body = json.loads(text)
    except (ValueError, RecursionError):  # Python's words on why are not a learner's
        raise MistakesError(DAMAGED) from None
    if not isinstance(body, dict):
        raise MistakesError(DAMAGED)
    if type(body.get("version")) is not int or body.get("version") != VERSION:
        raise MistakesError(Text("the positions to review were saved by another version of the course"))
    raw_hands = body.get("hands", [])
    if not isinstance(raw_hands, list):
        problems.append(Text("the hands of the positions to review must be a list"))
        raw_hands = []
    hands = [hand if _is_hand(hand) else None for hand in raw_hands[:MAX_KEPT]]
    raw_kept = body.get("kept", [])
    if not isinstance(raw_kept, list):
        problems.append(Text("the positions to review must be a list"))
        raw_kept = []
    if len(raw_kept) > MAX_KEPT:
        problems.append(Text("{count} positions were left out (at most {max} are kept)",
                             count=len(raw_kept) - MAX_KEPT, max=MAX_KEPT))
    kept: list[Kept] = []
    seen: set[tuple[str, int]] = set()
    for item in raw_kept[-MAX_KEPT:]:
        found = _position(item, hands)
        if isinstance(found, Kept):
            if (found.hand, found.index) in seen:
                problems.append(Text("position {position} is kept twice", position=shown(item)))
                continue
            seen.add((found.hand, found.index))
            kept.append(found)
        else:
            problems.append(Text("position {position} is unreadable ({problem})", position=shown(item),
                                 problem=found))
    return kept


def _position(item: object, hands: list[str | None]) -> Kept | Text:
    """A stored position, or why it cannot be read."""
    if not isinstance(item, dict):
        return Text("not an object")
    number, seat, index = item.get("hand"), item.get("seat"), item.get("index")
    cards, cleared = item.get("cards"), item.get("cleared", 0)
    if not (is_int(number) and number < len(hands) and is_int(seat) and seat < SEATS and is_int(index)
            and index < MAX_INDEX and is_name(cards, MAX_PLAYED) and is_int(cleared) and cleared < CLEARED_AFTER):
        return Text("bad hand, seat, play or count")
    hand = hands[number]
    if hand is None:
        return Text("its hand's record is unreadable")
    card = read_card(item.get("card"))
    if isinstance(card, Text):
        return card
    return Kept(hand, seat, index, cards, card, cleared)
