"""Class progress without a server: a learner's *progress code*, and the class table a
teacher reads from a class's codes.

A progress code sums up what a learner's browser keeps (:class:`~tutor.teach.drills.progress.Progress`)
in a few dozen characters the learner copies or downloads and hands in: for each lesson's
drills, the stars, attempts and correct answers; for each lesson, the quick checks in its
text answered and answered right (they keep their answers apart, in a store of their own:
:func:`report_of`'s ``checks``); the rules of the drills they answered wrong and have not
yet cleared (the rule each such drill is decided by, counted); and a name they may type.
Nothing else leaves the browser: no seeds, times, levels or salt.

The code is ``QD-`` and the base64url (no padding) of a small binary frame that every
version keeps, so a teacher's page can tell an old, cut, changed or newer code apart::

    version (1 byte) | length of the body (varint) | body | check (4 bytes)

The check is the first 4 bytes of the SHA-256 of everything before it: it catches a
mistyped, cut or edited code (it is no signature: a learner who can run Python could
make a code by hand). Body of version 1: the name (varint length, UTF-8); the tracks
(a varint count, then for each: the lesson's number, the index of its drill kind in
:data:`KIND_CODES` and the stars, a byte each, then attempts and correct answers as
varints); the rules missed (a varint count, then for each: the rule's letter and number,
a byte each, then the count as a varint). Version 2 (written since the quick checks were
counted) adds, after the rules missed, the quick checks: a varint count, then for each
lesson the lesson's number (a byte) and the checks answered and answered right (varints).
Both versions are read. A lesson or kind this version does not know can only come from a
newer course, which writes a newer version.

>>> from tutor.teach.drills.progress import Progress, utc
>>> progress = Progress().record("follow", 7, 1, False, utc(2025, 1, 1), lesson="05-following")
>>> code = encode(report_of(progress, name="Ann"))
>>> code[:3], len(code), decode(code) == report_of(progress, name="Ann")
('QD-', 31, True)
>>> decode(code).score("follow", "05-following")
Score(stars=0, attempts=1, correct=0)
>>> decode(code).missed == ((generate("follow", 7, 1).rule, 1),)  # the rule that drill is decided by
True
>>> decode(code[:-3])
Traceback (most recent call last):
...
tutor.teach.classroom.CodeError: this code is cut short
>>> table = read_class(f"{code}\\nhello\\n{code}")
>>> [row.report.name for row in table.rows]
['Ann']
>>> [str(note) for note in table.notes]  # doctest: +NORMALIZE_WHITESPACE
['line 2 is not a progress code and was ignored (“hello”)',
 'Ann is here twice (line 1 and line 3); the later code is kept']
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from tutor.teach.course import LESSONS, LessonInfo
from tutor.teach.drills import KINDS, DrillError, GenerationError, generate
from tutor.teach.drills.progress import MAX_STARS, Progress, track
from tutor.core.arguments import MAX_EXACT
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text

VERSION: Final = 2
"""The version of the code this course writes (and the newest it reads; it reads every
older one too)."""
PREFIX: Final = "QD-"
KIND_CODES: Final = ("points", "tractor", "follow", "ruff", "throw", "trick", "declare", "friend", "score", "count",
                     "advice")
"""The drill kinds by their number in a code: append only (a number, once given, stays)."""

MAX_NAME: Final = 40
"""A learner's name is at most this many characters."""
MAX_RULES: Final = 16
"""A code names at most this many rules missed (the most missed first)."""
MAX_MISTAKES_READ: Final = 100
"""The rules missed are read from at most this many of the newest mistakes waiting to come back."""
MAX_CODE: Final = 1_000
"""A code is at most this many characters (a real one is well under 400)."""
MAX_INPUT: Final = 200_000
"""At most this many characters of pasted text and files are read (a class of 200 takes under 80,000)."""
MAX_FILES: Final = 200
MAX_LEARNERS: Final = 200
MAX_NOTES: Final = 12
"""A class table lists at most this many notes, then says how many more there were."""
QUOTE: Final = 30
"""A line that is not a code is quoted by its first this many characters."""

_ALPHABET: Final = re.compile(r"[A-Za-z0-9_-]*")
_TOKEN: Final = re.compile(r"QD-[A-Za-z0-9_-]*")
_RULE: Final = re.compile(r"[A-Z][0-9]{1,2}")


class ClassroomError(TutorError):
    """A name or report that cannot go into a code."""


class CodeError(ClassroomError):
    """A progress code that cannot be read; the message says why in a teacher's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message, parameter="code")


def _not_ours() -> CodeError:
    """The refusal of a code whose check matches but whose body no course of this version writes."""
    return CodeError(Text("this code cannot be read: it was not made by this course"))


@dataclass(frozen=True, slots=True)
class Score:
    """One lesson's drill kind: stars (0–3), attempts and correct answers."""

    stars: int = 0
    attempts: int = 0
    correct: int = 0


@dataclass(frozen=True, slots=True)
class Report:
    """What a progress code says: the learner's name (may be empty), each track's
    :class:`Score` (named by :func:`~tutor.teach.drills.progress.track`, only those answered),
    the rules missed with how many drills of each wait to come back (most first), and each
    lesson's quick checks (by the lesson's slug, only lessons with one answered; a
    :class:`Score` without stars: the quick checks give none)."""

    name: str = ""
    scores: tuple[tuple[str, Score], ...] = ()
    missed: tuple[tuple[str, int], ...] = ()
    checks: tuple[tuple[str, Score], ...] = ()

    def score(self, kind: str, lesson: str) -> Score:
        """The score of ``kind`` in ``lesson`` (nothing answered: all zero)."""
        return dict(self.scores).get(track(kind, lesson), Score())

    def checked(self, lesson: str) -> Score:
        """The quick checks answered in ``lesson``'s text (none: all zero)."""
        return dict(self.checks).get(lesson, Score())


def clean_name(name: object) -> str:
    """A typed name as it goes into a code: spaces trimmed and runs of them made one.

    >>> clean_name("  Ann   Lee "), clean_name("")
    ('Ann Lee', '')
    >>> clean_name("x" * 41)
    Traceback (most recent call last):
    ...
    tutor.teach.classroom.ClassroomError: a name is at most 40 characters, not 41
    """
    if not isinstance(name, str):
        raise ClassroomError(Text("a name is text, not {value}", value=shown(name)), parameter="name")
    cleaned = " ".join(name.split())
    if len(cleaned) > MAX_NAME:
        raise ClassroomError(Text("a name is at most {max} characters, not {count}", max=MAX_NAME, count=len(cleaned)),
                             parameter="name")
    if not _readable(cleaned):
        raise ClassroomError(Text("a name is letters, digits, spaces and punctuation only"), parameter="name")
    return cleaned


def _readable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeError:
        return False
    return text.isprintable()


def _tracks() -> tuple[tuple[LessonInfo, str], ...]:
    """Every (lesson, drill kind) the lessons practise, in course order."""
    return tuple((info, kind) for info in LESSONS for kind in info.drills)


def report_of(progress: Progress, name: str = "", checks: Progress | None = None) -> Report:
    """What ``progress`` (the lessons' drills) and ``checks`` (the quick checks in the
    lessons' text, kept in a store of their own) hand in under ``name`` (see
    :func:`clean_name`): the lessons' scores, each lesson's quick checks (every kind a
    lesson's checks ask, added up; answers kept under a kind alone, with no lesson, say
    nothing about a lesson and are left out), and the rules of the newest
    :data:`MAX_MISTAKES_READ` mistakes of the drills still waiting to come back (each drill
    remade from its kind, seed and level, and asked its rule).

    >>> report_of(Progress(), "Ann")
    Report(name='Ann', scores=(), missed=(), checks=())
    >>> from tutor.teach.drills.progress import utc
    >>> quick = Progress().record("score", 7, 2, True, utc(2025, 1, 1), lesson="09-scoring")
    >>> report_of(Progress(), checks=quick).checked("09-scoring")
    Score(stars=0, attempts=1, correct=1)
    """
    scores = []
    for info, kind in _tracks():
        counts = progress.kind(kind, info.slug)
        if counts.attempts:
            scores.append((track(kind, info.slug), Score(counts.stars, counts.attempts, counts.correct)))
    checked = [(info.slug, score) for info in LESSONS if (score := checked_in(checks or Progress(), info.slug)).attempts]
    rules: Counter[str] = Counter()
    for review in progress.reviews[-MAX_MISTAKES_READ:]:
        if review.kind not in KINDS:
            continue  # a kind of a newer course: its rule is not known here
        if KINDS[review.kind].advice:
            continue  # a drill of the coach's rests on no rule (and remaking it would search)
        try:
            rule = generate(review.kind, review.seed, review.level).rule
        except (DrillError, GenerationError):
            continue  # a drill this course cannot remake says nothing about a rule
        if _RULE.fullmatch(rule):
            rules[rule] += 1
    missed = sorted(rules.items(), key=lambda item: (-item[1], item[0]))[:MAX_RULES]
    return Report(clean_name(name), tuple(sorted(scores)), tuple(missed), tuple(checked))


def checked_in(checks: Progress, slug: str) -> Score:
    """The quick checks answered in lesson ``slug``'s text, as the quick checks' own store
    (``checks``) keeps them: every kind its checks ask, added up (what the home page shows
    and a progress code hands in; answers kept under a kind alone count for no lesson).

    >>> from tutor.teach.drills.progress import utc
    >>> checks = Progress().record("follow", 1, 1, True, utc(2025, 1, 1), lesson="05-following")
    >>> checks = checks.record("trick", 9, 2, False, utc(2025, 1, 1), lesson="05-following")
    >>> checked_in(checks, "05-following"), checked_in(checks, "06-ruffing")
    (Score(stars=0, attempts=2, correct=1), Score(stars=0, attempts=0, correct=0))
    """
    answered = [counts for name, counts in checks.kinds if name.startswith(f"{slug}/")]
    attempts = min(sum(counts.attempts for counts in answered), MAX_EXACT)
    return Score(0, attempts, min(sum(counts.correct for counts in answered), attempts))


# ----------------------------------------------------------------- the code

def encode(report: Report) -> str:
    """The progress code of ``report`` (see the module); refuses with
    :class:`ClassroomError` what no code can carry (a long name, a track or rule ID this
    version does not know, impossible counts).

    >>> encode(Report())
    'QD-AgQAAAAA-dGhCw'
    """
    if (len(dict(report.scores)) != len(report.scores) or len(dict(report.missed)) != len(report.missed)
            or len(dict(report.checks)) != len(report.checks)):
        raise ClassroomError(Text("a lesson's drills or a rule is given twice"))
    name = clean_name(report.name).encode("utf-8")
    body = bytearray(_varint(len(name)) + name)
    known = {track(kind, info.slug): (int(info.slug[:2]), KIND_CODES.index(kind)) for info, kind in _tracks()}
    body += _varint(len(report.scores))
    for name_of_track, score in report.scores:
        if name_of_track not in known:
            raise ClassroomError(Text("no lesson's drills are called {track}", track=shown(name_of_track)))
        if not _possible(score):
            raise ClassroomError(Text("impossible counts {score}", score=shown(score)))
        number, kind = known[name_of_track]
        body += bytes((number, kind, score.stars)) + _varint(score.attempts) + _varint(score.correct)
    body += _varint(len(report.missed[:MAX_RULES]))
    for rule, count in report.missed[:MAX_RULES]:
        if not _RULE.fullmatch(rule) or not 0 < count <= MAX_EXACT:
            raise ClassroomError(Text("impossible rule count {rule}", rule=shown((rule, count))))
        body += bytes((ord(rule[0]), int(rule[1:]))) + _varint(count)
    numbers = {info.slug: int(info.slug[:2]) for info in LESSONS}
    body += _varint(len(report.checks))
    for slug, score in report.checks:
        if slug not in numbers:
            raise ClassroomError(Text("no lesson's drills are called {track}", track=shown(slug)))
        if not _possible(score) or score.stars:
            raise ClassroomError(Text("impossible counts {score}", score=shown(score)))
        body += bytes((numbers[slug],)) + _varint(score.attempts) + _varint(score.correct)
    frame = bytes((VERSION,)) + _varint(len(body)) + bytes(body)
    frame += hashlib.sha256(frame).digest()[:4]
    return PREFIX + base64.urlsafe_b64encode(frame).decode("ascii").rstrip("=")


def decode(code: str) -> Report:
    """The report a progress code carries; :class:`CodeError` says why one cannot be
    read: not a code, cut short, changed (its check fails), from a newer version.

    >>> decode("QD-AgQAAAAA-dGhCw")
    Report(name='', scores=(), missed=(), checks=())
    >>> decode("QD-AQMAAADHxeSO")  # version 1, before the quick checks were counted
    Report(name='', scores=(), missed=(), checks=())
    >>> decode("QD-AQMAAADHxeSP")
    Traceback (most recent call last):
    ...
    tutor.teach.classroom.CodeError: this code was changed or mistyped (its check does not match)
    """
    if not isinstance(code, str) or not code.startswith(PREFIX):
        raise CodeError(Text("this is not a progress code (they start with {prefix})", prefix=PREFIX))
    if len(code) > MAX_CODE:
        raise CodeError(Text("this is too long to be a progress code ({count} characters)", count=len(code)))
    text = code[len(PREFIX):]
    if not _ALPHABET.fullmatch(text):
        raise CodeError(Text("this is not a progress code (they start with {prefix})", prefix=PREFIX))
    try:
        frame = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except binascii.Error:  # every character is of the alphabet: only a length no code has fails
        raise CodeError(Text("this code is cut short")) from None
    reader = _Reader(frame)
    version = reader.byte()
    length = reader.varint()
    end = reader.at + length
    if len(frame) < end + 4:
        raise CodeError(Text("this code is cut short"))
    canonical = PREFIX + base64.urlsafe_b64encode(frame).decode("ascii").rstrip("=") == code  # no stray bits
    if not canonical or len(frame) > end + 4 or hashlib.sha256(frame[:end]).digest()[:4] != frame[end:]:
        raise CodeError(Text("this code was changed or mistyped (its check does not match)"))
    if version > VERSION:
        raise CodeError(Text("this code comes from a newer version of the course (version {version}; this page "
                             "reads up to {expected}): open the teacher's page of that version",
                             version=version, expected=VERSION))
    if version < 1:
        raise CodeError(Text("this is not a progress code (they start with {prefix})", prefix=PREFIX))
    try:
        return _body(_Reader(frame[reader.at:end]), version)
    except ClassroomError:  # the body's bytes end early, or hold what no code of this version does
        raise _not_ours() from None


def _body(reader: _Reader, version: int) -> Report:
    """The body of a code of ``version`` (1 or 2, see the module); any departure raises
    :class:`ClassroomError`."""
    try:
        name = reader.take(reader.varint()).decode("utf-8")
    except UnicodeDecodeError:
        raise _not_ours() from None
    if name != clean_name(name):
        raise _not_ours()
    by_number = {(int(info.slug[:2]), KIND_CODES.index(kind)): track(kind, info.slug) for info, kind in _tracks()}
    scores: dict[str, Score] = {}
    for _ in range(reader.count()):
        number, kind, stars = reader.byte(), reader.byte(), reader.byte()
        score = Score(stars, reader.varint(), reader.varint())
        name_of_track = by_number.get((number, kind))
        if name_of_track is None or name_of_track in scores or not _possible(score):
            raise _not_ours()
        scores[name_of_track] = score
    missed: list[tuple[str, int]] = []
    for _ in range(reader.count()):
        rule, count = f"{chr(reader.byte())}{reader.byte()}", reader.varint()
        if not _RULE.fullmatch(rule) or count == 0 or rule in dict(missed) or len(missed) >= MAX_RULES:
            raise _not_ours()
        missed.append((rule, count))
    checks: dict[str, Score] = {}
    by_lesson = {int(info.slug[:2]): info.slug for info in LESSONS}
    for _ in range(reader.count() if version >= 2 else 0):
        slug = by_lesson.get(reader.byte())
        score = Score(0, reader.varint(), reader.varint())
        if slug is None or slug in checks or not _possible(score):
            raise _not_ours()
        checks[slug] = score
    if reader.at != len(reader.data):
        raise _not_ours()
    return Report(name, tuple(sorted(scores.items())), tuple(sorted(missed, key=lambda item: (-item[1], item[0]))),
                  tuple(sorted(checks.items())))


def _possible(score: Score) -> bool:
    return (all(type(v) is int and 0 <= v <= MAX_EXACT for v in (score.stars, score.attempts, score.correct))
            and score.stars <= MAX_STARS and score.correct <= score.attempts and 0 < score.attempts)


def _varint(value: int) -> bytes:
    """``value`` (0 … :data:`tutor.core.arguments.MAX_EXACT`) in LEB128: 7 bits a byte, low bits first."""
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


class _Reader:
    """Reads a frame or body byte by byte; bytes that end before a value does are a code cut
    short, a number larger than any count one that is not this course's (:class:`CodeError`)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise CodeError(Text("this code is cut short"))
        self.at += 1
        return self.data[self.at - 1]

    def take(self, count: int) -> bytes:
        if self.at + count > len(self.data):
            raise CodeError(Text("this code is cut short"))
        self.at += count
        return self.data[self.at - count:self.at]

    def varint(self) -> int:
        value = shift = 0
        while True:
            byte = self.byte()
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
            if shift > 56:
                raise _not_ours()
        if value > MAX_EXACT:
            raise _not_ours()
        return value

    def count(self) -> int:
        """A count of items, each at least one byte: never more than the bytes left."""
        count = self.varint()
        if count > len(self.data) - self.at:
            raise _not_ours()
        return count


# ----------------------------------------------------------------- the class

@dataclass(frozen=True, slots=True)
class Where:
    """Where a code was read: a line of the pasted text, or of an uploaded file."""

    line: int
    file: str | None = None

    def said(self) -> Text:
        """``line 3``, or ``ann.txt, line 1``."""
        if self.file is None:
            return Text("line {line}", line=self.line)
        return Text("{file}, line {line}", file=self.file[:60], line=self.line)


@dataclass(frozen=True, slots=True)
class Row:
    """One learner of the class table: their report and where their code was read."""

    report: Report
    where: Where

    def label(self) -> str:
        """The learner's name, or, without one, where their code was."""
        return self.report.name or Text("(no name, {where})", where=self.where.said())


@dataclass(frozen=True, slots=True)
class ClassTable:
    """Learners × lessons: one :class:`Row` a learner, in the order their codes came (a
    learner handed in twice keeps the later code, placed where it came), and the notes
    on what was left out."""

    rows: tuple[Row, ...] = ()
    notes: tuple[Text, ...] = ()

    @property
    def lessons(self) -> tuple[LessonInfo, ...]:
        """The lessons with drills: the table's columns."""
        return tuple(info for info in LESSONS if info.drills)


class _Notes:
    """The notes of a class table: the first :data:`MAX_NOTES` made, the rest only counted
    (a paste of 100,000 junk lines makes 12 notes, not 100,000)."""

    def __init__(self) -> None:
        self.made: list[Text] = []
        self.more = 0

    def add(self, make: Callable[[], Text]) -> None:
        if len(self.made) < MAX_NOTES:
            self.made.append(make())
        else:
            self.more += 1

    def said(self) -> tuple[Text, ...]:
        if not self.more:
            return tuple(self.made)
        return (*self.made[:MAX_NOTES - 1], Text("and {count} more notes", count=self.more + 1))


def read_class(paste: str = "", files: Sequence[tuple[str, str]] = ()) -> ClassTable:
    """The class table of the codes in ``paste`` and in ``files`` (``(file name, text)``).

    Each line may hold codes among other words (``Ann: QD-…``); a blank line is skipped,
    and any other line without a code is ignored with a note naming it. A code that
    cannot be read gets a note saying why. The same learner twice (the same name, any
    case; or the same code without a name) keeps the later code, with a note. At most
    :data:`MAX_INPUT` characters, :data:`MAX_FILES` files and :data:`MAX_LEARNERS`
    learners are read, and the notes say what was left. Never raises on its input.

    >>> read_class("QD-AQMAAADHxeSP").notes
    ('line 1: this code was changed or mistyped (its check does not match)',)
    """
    notes = _Notes()
    rows: list[Row] = []
    keys: list[str] = []
    if len(files) > MAX_FILES:
        notes.add(lambda: Text("only the first {max} files were read ({count} were given)", max=MAX_FILES,
                               count=len(files)))
    sources: list[tuple[str | None, str]] = [(None, paste if isinstance(paste, str) else "")]
    sources += [(item[0][:60], item[1]) for item in list(files)[:MAX_FILES]
                if isinstance(item, tuple | list) and len(item) == 2 and all(isinstance(v, str) for v in item)]
    budget = MAX_INPUT
    crowded = False
    for file, text in sources:
        if len(text) > budget:
            text = text[:budget]
            text = text[:text.rfind("\n") + 1]  # the line the limit cuts is left out whole
            lines = text.count("\n")
            notes.add(lambda: Text("the pasted text is too long: only its first {lines} lines were read (at most "
                                   "{max} characters in all)", lines=lines, max=MAX_INPUT) if file is None else
                      Text("{file} is too long: only its first {lines} lines were read (at most {max} "
                           "characters in all)", file=file, lines=lines, max=MAX_INPUT))
        budget -= len(text)
        for number, line in enumerate(text.splitlines(), start=1):
            where = Where(number, file)
            codes = _TOKEN.findall(line)
            if not codes and line.strip():
                start = line.strip()
                start = start[:QUOTE] + ("…" if len(start) > QUOTE else "")
                notes.add(lambda: Text("{where} is not a progress code and was ignored (“{start}”)",
                                       where=where.said(), start=start))
            for code in codes:
                try:
                    report = decode(code)
                except CodeError as error:
                    problem = error.args[0]
                    notes.add(lambda: Text("{where}: {problem}", where=where.said(), problem=problem))
                    continue
                key = report.name.casefold() if report.name else code
                if key in keys:
                    index = keys.index(key)
                    earlier = rows[index]
                    notes.add(lambda: Text("{name} is here twice ({first} and {second}); the later code is kept",
                                           name=earlier.label(), first=earlier.where.said(), second=where.said()))
                    del rows[index], keys[index]
                elif len(rows) >= MAX_LEARNERS:
                    if not crowded:
                        notes.add(lambda: Text("{where}: more than {max} learners; the rest were left out",
                                               where=where.said(), max=MAX_LEARNERS))
                    crowded = True
                    continue
                rows.append(Row(report, where))
                keys.append(key)
    return ClassTable(tuple(rows), notes.said())
