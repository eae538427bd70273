"""A teacher's own positions: a few lines of card notation that open as a drill.

A position is written as ``key: value`` entries, one a line or separated by ``;``
(``key=value`` reads too; ``#`` starts a comment, and blank entries are skipped):

========  ======================================================================
key       what it holds
========  ======================================================================
kind      ``follow``, ``ruff``, ``trick``, ``throw`` or ``tractor`` (the drill kind)
form      the question (optional; see :data:`FORMS`, the first is the default, or
          the one asking about ``ask`` when it is given)
trump     the trump suit (``♥``, ``H``, ``红桃`` …) or ``none`` for no-trump (T2)
hand      the learner's cards (at most 20)
leader    the seat that led, 0–4 (follow, ruff, trick; default 0)
lead      the cards led (follow, ruff, trick)
played    the plays after the lead, in turn, separated by ``/`` (up to the learner)
ask       the cards the question asks about: a follow, a ruff, a tractor
seat      the learner's seat, 0–4 (throw, tractor; default 0; after a lead the
          learner is the next seat to play)
throw     the cards the learner throws, from the hand (throw)
others    the four other hands' cards of the thrown suit, in seat order, separated
          by ``/``, ``-`` for none (throw)
========  ======================================================================

The drill made from it is judged by the rules module exactly as a seeded drill of its
kind (:mod:`tutor.teach.drills`), and every verdict carries its rule ID:

>>> drill = read_position("kind: follow; trump: ♥; lead: ♠K ♠K; hand: ♠3 ♠3 ♠5 ♥2 ♣A")
>>> drill.question
'With ♥ trumps: Seat 0 leads ♠K ♠K. Play a legal follow from your hand (2 cards).'
>>> drill.check("♠3 ♠5").rule, drill.check("♠3 ♠5").correct, drill.check("♠3 ♠3").correct
('W3', False, True)

A position is checked whole before any drill is made; a problem is a
:class:`PositionError` that names the entry:

>>> parse_position("kind: follow; trump: ♥; lead: ♠K ♠K; hand: ♠K ♠3 ♠3")
Traceback (most recent call last):
...
tutor.teach.positions.PositionError: the position has three copies of ♠K: the pack has only two of each card (C1)

A position travels in a link as ``?position=`` (:func:`make_link`), read back by
:func:`position_from_query`, which never raises: a bad one is a note for the page, as is
every other parameter of the link the page does not use (it takes ``lang=`` too).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import partial
from typing import Final
from urllib.parse import urlencode

from tutor.core.arguments import seat
from tutor.rules.cards import HAND_SIZE, PLAYERS, Card, Cards, format_cards
from tutor.rules.combos import lead_problem, shape_of
from tutor.teach.course import STATIC_SITE, Ignored, read_lang, read_link
from tutor.teach.drills import KINDS, AnswerKind, Choice, Drill, Table, follow, ruff, throw, tractor
from tutor.teach.drills.common import refuted
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text, Translator, said
from tutor.rules.notation import check_copies, parse_cards
from tutor.rules.order import Trump
from tutor.rules.ruff import ruff_rank
from tutor.rules.throw import check_throw
from tutor.rules.trick import explain_trick, why_not

MAX_POSITION: Final = 1500
"""The longest position text read (a position with every hand of a throw is under 600). Its
link is read up to :data:`tutor.teach.course.MAX_QUERY` characters (the bound of every
link's query, sized for a position's)."""
PARAM: Final = "position"
"""The link parameter that carries a position."""

FORMS: Final = {
    "follow": ("play", "is-legal"),
    "ruff": ("play-ruff", "can-ruff", "beat-ruff"),
    "trick": ("who-wins",),
    "throw": ("stands", "lead-instead", "cost"),
    "tractor": ("pick-tractors", "is-tractor"),
}
"""Each kind a position can be and its question forms (the first is the default)."""
ASKING: Final = {"follow": "is-legal", "ruff": "can-ruff", "tractor": "is-tractor"}
"""The form a kind takes by default when the position has ``ask``."""

KEYS: Final = ("kind", "form", "trump", "leader", "seat", "hand", "lead", "played", "ask", "throw", "others")
"""Every key, in the order :func:`position_text` writes them."""
_USED: Final = {
    "follow": {"kind", "form", "trump", "hand", "leader", "lead", "played", "ask"},
    "ruff": {"kind", "form", "trump", "hand", "leader", "lead", "played", "ask"},
    "trick": {"kind", "form", "trump", "leader", "lead", "played"},
    "throw": {"kind", "form", "trump", "hand", "seat", "throw", "others"},
    "tractor": {"kind", "form", "trump", "hand", "seat", "ask"},
}
_NO_TRUMP: Final = ("none", "no-trump", "notrump", "nt", "无主", "無主", "无", "無")
_ENTRY = re.compile(r"\s*([^:=]*?)\s*[:=]\s*(.*?)\s*$", re.S)


class PositionError(TutorError):
    """A position that cannot be read or cannot be a drill; the message names the entry."""


@dataclass(frozen=True, slots=True)
class Position:
    """A position as read from its text (see the module). ``hand`` is kept in holding
    order (:meth:`Trump.sorted`); ``table`` is the plays so
    far, the lead first; ``ask`` the cards asked about (for a throw: the throw);
    ``others`` a throw's four other hands of the thrown suit, in seat order. A
    position is checked when it is made: a wrong one is refused with :class:`PositionError`.

    >>> Position("trick", "who-wins", Trump("♠"), table=(parse_cards("♥A"),))
    Traceback (most recent call last):
    ...
    tutor.teach.positions.PositionError: played: a trick drill needs the plays after the lead
    """

    kind: str
    form: str
    trump: Trump
    hand: tuple[Card, ...] = ()
    leader: int = 0
    seat: int = 0
    table: tuple[tuple[Card, ...], ...] = ()
    ask: tuple[Card, ...] = ()
    others: tuple[tuple[Card, ...], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand", self.trump.sorted(self.hand))  # held as players hold it
        kind = self.kind
        if kind not in FORMS:
            raise PositionError(Text("kind: {kind} is no kind of position; choose one of {kinds}",
                                     kind=shown(kind), kinds=", ".join(FORMS)))
        if self.form not in FORMS[kind]:
            raise PositionError(Text("form: {form} is no form of a {kind} drill; choose one of {forms}",
                                     form=shown(self.form), kind=kind, forms=", ".join(FORMS[kind])))
        for key, value in (("leader", self.leader), ("seat", self.seat)):
            _seat_of(value, key)
        if len(self.hand) > HAND_SIZE:
            raise PositionError(Text("hand: {count} cards are more than a hand holds (at most {most})",
                                     count=len(self.hand), most=HAND_SIZE))
        everything = [*self.hand, *(c for play in self.table for c in play), *(c for h in self.others for c in h)]
        try:
            check_copies(everything)
        except TutorError as error:
            raise PositionError(Text("the position has {problem}", problem=said(error))) from None
        if kind in ("follow", "ruff", "trick"):
            self._check_table()
        held = Counter(self.hand)
        if self.hand and any(held[c] < k for c, k in Counter(self.ask).items()):
            key = "throw" if kind == "throw" else "ask"
            raise PositionError(Text("{key}: {cards} must be cards of the hand", key=key, cards=self.ask))
        if kind == "throw":
            self._check_throw()
        needs = {"is-legal", "can-ruff", "beat-ruff", "is-tractor"}
        if self.form in needs and not self.ask:
            raise PositionError(Text("ask: a {form} question needs the cards it asks about", form=self.form))
        if self.form not in needs and kind != "throw" and self.ask:
            raise PositionError(Text("ask: a {form} question asks about no cards", form=self.form))
        if kind in ("follow", "ruff", "throw") or self.form == "pick-tractors":
            if not self.hand:
                raise PositionError(Text("hand: a {kind} drill needs the learner's hand", kind=kind))

    def _check_table(self) -> None:
        if not self.table or not self.table[0]:
            raise PositionError(Text("lead: a {kind} drill needs the cards led", kind=self.kind))
        lead = self.table[0]
        problem = lead_problem(lead, self.trump)
        if problem is not None:
            raise PositionError(Text("lead: {problem} (L1)", problem=problem))
        most = PLAYERS - 1 if self.kind == "trick" else PLAYERS - 2
        if len(self.table) - 1 > most:
            raise PositionError(Text("played: at most {most} plays follow the lead here, not {count}",
                                     most=most, count=len(self.table) - 1))
        if self.kind == "trick" and len(self.table) < 2:
            raise PositionError(Text("played: a trick drill needs the plays after the lead"))
        for play in self.table[1:]:
            if len(play) != len(lead):
                raise PositionError(Text("played: {cards} has {count} cards but the lead has {size}: everyone "
                                         "plays the same number of cards (W1)", cards=play or "-",
                                         count=len(play), size=len(lead)))
        if self.kind != "trick":
            if len(self.hand) < len(lead):
                raise PositionError(Text("hand: {count} cards cannot follow a lead of {size} (W1)",
                                         count=len(self.hand), size=len(lead)))
            if self.ask and len(self.ask) != len(lead):
                raise PositionError(Text("ask: {cards} has {count} cards but the lead has {size} (W1)",
                                         cards=self.ask, count=len(self.ask), size=len(lead)))

    def _check_throw(self) -> None:
        if not self.ask:
            raise PositionError(Text("throw: a throw drill needs the cards thrown"))
        problem = lead_problem(self.ask, self.trump)
        if problem is not None:
            raise PositionError(Text("throw: {problem} (L1)", problem=problem))
        if len(self.others) != PLAYERS - 1:
            raise PositionError(Text("others: give the other {count} hands' cards of the thrown suit, separated "
                                     "by /, - for none", count=PLAYERS - 1))

    @property
    def learner(self) -> int:
        """The learner's seat: after a lead, the next seat to play; else ``seat``."""
        if self.kind in ("follow", "ruff"):
            return (self.leader + len(self.table)) % PLAYERS
        return self.seat


def parse_position(text: object) -> Position:
    """The :class:`Position` written in ``text`` (see the module); refused with
    :class:`PositionError` naming the entry that is wrong.

    >>> parse_position("kind=tractor\\ntrump=♠\\nask=♥9 ♥9 ♥8 ♥8").form
    'is-tractor'
    >>> parse_position("kind: follow; colour: red")
    Traceback (most recent call last):
    ...
    tutor.teach.positions.PositionError: colour: there is no such key; the keys are kind, form, trump, leader, seat, hand, lead, played, ask, throw, others
    """
    if not isinstance(text, str):
        raise PositionError(Text("a position is text, not {value}", value=shown(text)))
    if len(text) > MAX_POSITION:
        raise PositionError(Text("a position has at most {most} characters; this one has {count}",
                                 most=MAX_POSITION, count=len(text)))
    values: dict[str, str] = {}
    entries = (entry for line in text.splitlines() for entry in line.partition("#")[0].split(";"))
    for entry in entries:  # "#" starts a comment to the end of its line (no card is written with #)
        if not entry.strip():
            continue
        match = _ENTRY.fullmatch(entry)
        if match is None:
            raise PositionError(Text("cannot read {entry}: write each entry as key: value", entry=shown(entry.strip())))
        key, value = match.group(1).lower(), match.group(2)
        if key not in KEYS:
            raise PositionError(Text("{key}: there is no such key; the keys are {keys}", key=shown(key)[1:-1],
                                     keys=", ".join(KEYS)))
        if key in values:
            raise PositionError(Text("{key}: it is given twice", key=key))
        values[key] = value.lower() if key in ("kind", "form") else value
    kind = values.get("kind")
    if kind is None:
        raise PositionError(Text("kind: the position needs its kind, one of {kinds}", kinds=", ".join(FORMS)))
    if kind not in FORMS:
        raise PositionError(Text("kind: {kind} is no kind of position; choose one of {kinds}",
                                 kind=shown(kind), kinds=", ".join(FORMS)))
    for key in values:
        if key not in _USED[kind]:
            raise PositionError(Text("{key}: a {kind} drill does not use it", key=key, kind=kind))
    if "trump" not in values:
        raise PositionError(Text("trump: the position needs its trump (a suit, or none for no-trump)"))
    trump = _trump(values["trump"])
    lead = _cards(values, "lead")
    table = (lead, *_hands(values, "played")) if "lead" in values else ()
    form = values.get("form", ASKING.get(kind, FORMS[kind][0]) if "ask" in values else FORMS[kind][0])
    ask = _cards(values, "throw" if kind == "throw" else "ask")
    lane = trump.lane(ask[0]) if kind == "throw" and ask else None
    others = tuple(trump.sorted(c for c in hand if trump.lane(c) == lane) for hand in _hands(values, "others"))
    return Position(kind, form, trump, hand=_cards(values, "hand"), leader=_seat(values, "leader"),
                    seat=_seat(values, "seat"), table=table, ask=ask, others=others)


def _trump(value: str) -> Trump:
    if value.strip().lower() in _NO_TRUMP:
        return Trump(None)
    try:
        return Trump(value)
    except TutorError:
        raise PositionError(Text("trump: {value} is not a suit; write ♠ ♥ ♣ ♦ (or S H C D), or none for no-trump",
                                 value=shown(value))) from None


def _cards(values: dict[str, str], key: str) -> Cards:
    value = values.get(key, "")
    try:
        return parse_cards("" if value.strip() == "-" else value)
    except TutorError as error:
        raise PositionError(Text("{key}: {problem}", key=key, problem=said(error))) from None


def _hands(values: dict[str, str], key: str) -> tuple[Cards, ...]:
    if key not in values:
        return ()
    return tuple(_cards({key: part}, key) for part in values[key].split("/"))


def _seat(values: dict[str, str], key: str) -> int:
    value = values.get(key, "0").strip()
    return _seat_of(int(value) if value.isascii() and value.isdigit() and len(value) == 1 else value, key)


def _seat_of(value: object, key: str) -> int:
    """A seat, as :func:`tutor.core.arguments.seat` checks every seat; refused as a position's entry."""
    try:
        return seat(value, key)
    except TutorError as error:
        raise PositionError(said(error), rule=error.rule, parameter=key) from None


def position_text(position: Position) -> str:
    """The position as one line of text, which :func:`parse_position` reads back as it was.

    >>> position_text(parse_position("kind: trick; trump: none; lead: ♠A; played: ♠3 / ♥2"))
    'kind: trick; form: who-wins; trump: none; leader: 0; lead: ♠A; played: ♠3 / ♥2'
    """
    kind = position.kind
    parts = {"kind": kind, "form": position.form,
             "trump": position.trump.suit.value if position.trump.suit else "none"}
    if "leader" in _USED[kind]:
        parts["leader"] = str(position.leader)
    if "seat" in _USED[kind]:
        parts["seat"] = str(position.seat)
    if position.hand:
        parts["hand"] = format_cards(position.hand)
    if position.table:
        parts["lead"] = format_cards(position.table[0])
        if len(position.table) > 1:
            parts["played"] = " / ".join(format_cards(p) or "-" for p in position.table[1:])
    if position.ask:
        parts["throw" if kind == "throw" else "ask"] = format_cards(position.ask)
    if position.others:
        parts["others"] = " / ".join(format_cards(h) or "-" for h in position.others)
    return "; ".join(f"{key}: {parts[key]}" for key in KEYS if key in parts)


def read_position(text: object, lang: str = "en") -> Drill:
    """The drill of the position written in ``text``, said in ``lang`` (see :func:`make_drill`)."""
    return make_drill(parse_position(text), lang)


def make_drill(position: Position, lang: str = "en") -> Drill:
    """The drill asking ``position``'s question, made by its kind's constructor from
    the position's cards (``from_cards`` of :mod:`tutor.teach.drills.follow`, ``ruff``,
    ``throw``, ``tractor``), so it is worded and judged by the rules module exactly as
    a seeded drill of its kind is (its ``seed`` is 0, its level 1). A position with no
    right answer (a winning ruff asked for where there is none, a failed throw's cost
    where the throw stands …) is refused with :class:`PositionError`.

    >>> drill = read_position("kind: throw; trump: ♥; hand: ♠A ♠Q ♠Q ♣3; throw: ♠A ♠Q ♠Q; "
    ...                       "others: ♠K ♠K ♠3 / ♠9 / - / -")
    >>> drill.check("no").correct, drill.rule, drill.explain[:48]
    (True, 'L3', '♠A ♠Q ♠Q does not stand (L3). Another player hol')
    """
    tr = Translator(lang)
    if position.kind == "trick":
        return _trick(position, tr)
    _check_answer(position)
    try:
        return _made(position, tr)
    except PositionError:
        raise
    except TutorError as error:  # a question its kind cannot ask (a DrillError …): said as the position's problem
        raise PositionError(said(error), rule=error.rule, parameter=error.parameter) from None


def _made(position: Position, tr: Translator) -> Drill:
    """:func:`make_drill` of a position of a kind with a constructor (all but a trick)."""
    trump, hand, form = position.trump, position.hand, position.form
    if position.kind == "follow":
        return follow.from_cards(tr, trump=trump, hand=hand, leader=position.leader, table=position.table, form=form,
                                 ask=position.ask)
    if position.kind == "ruff":
        return ruff.from_cards(tr, trump=trump, hand=hand, leader=position.leader, table=position.table, form=form,
                               ask=position.ask)
    if position.kind == "throw":
        return throw.from_cards(tr, trump=trump, hand=hand, seat=position.seat, throw=trump.sorted(position.ask),
                                others=position.others, form=form)
    return tractor.from_cards(tr, trump=trump, hand=hand, seat=position.seat, form=form, ask=position.ask)


def _check_answer(position: Position) -> None:
    """Refuse, naming the entry, a position whose question has no right answer."""
    trump, hand, table, form = position.trump, position.hand, position.table, position.form
    if position.kind == "ruff":
        beat = ruff.ruff_to_beat(table, trump)
        if form == "play-ruff" and next(ruff.each_ruff(hand, table[0], trump, beat), None) is None:
            raise PositionError(Text("hand: no play from it is a ruff that wins, so the question has no answer"))
        if form == "beat-ruff" and beat is None:
            raise PositionError(Text("played: a beat-ruff question needs a ruff winning the trick so far"))
    elif position.kind == "throw":
        cards = trump.sorted(position.ask)
        if form != "stands" and check_throw(cards, position.others, trump).ok:
            raise PositionError(Text("throw: {cards} stands against the other hands, so a {form} question has no "
                                     "answer", cards=cards, form=form))
    elif position.kind == "tractor" and form == "pick-tractors" and not tractor.tractor_cards(hand, trump)[0]:
        raise PositionError(Text("hand: it holds no tractor, so there is nothing to pick"))


def _common(position: Position, tr: Translator) -> partial[Drill]:
    return partial(Drill, kind=position.kind, level=1, seed=0, lang=tr.language, trump=position.trump,
                   rules=KINDS[position.kind].rules, hand=position.hand, seat=position.learner,
                   table=Table(tuple(((position.leader + i) % PLAYERS, play) for i, play in enumerate(position.table))))


def trick_rule(plays: tuple[tuple[Card, ...], ...], trump: Trump) -> str:
    """The rule a trick is a lesson in: R5 when two plays ruff (an over-ruff is tried),
    T6 when a later play ties the winner, W6 when a discard outranks the lead, else B1.

    >>> trick_rule(tuple(map(parse_cards, ("♦3", "♣A", "♦3", "♠4", "♠5"))), Trump("♥"))
    'T6'
    """
    shape = shape_of(plays[0], trump)
    ruffs = [rank.order for rank in (ruff_rank(shape, p, trump) for p in plays[1:]) if rank is not None]
    if len(ruffs) > 1:
        return "R5"
    in_suit = [tuple(sorted(map(trump.order, p))) for p in plays if trump.lanes_of(p) == {shape.lane}]
    if len(in_suit) != len(set(in_suit)):
        return "T6"
    top = max(map(trump.order, plays[0]))
    if any(not trump.is_trump(c) and trump.lane(c) != shape.lane and trump.order(c) > top
           for p in plays[1:] for c in p):
        return "W6"
    return "B1"


def _trick(position: Position, tr: Translator) -> Drill:
    trump, table, leader = position.trump, position.table, position.leader
    seated = [((leader + i) % PLAYERS, play) for i, play in enumerate(table)]
    try:
        outcome = explain_trick(table, trump)
    except TutorError as error:
        raise PositionError(Text("played: {problem}", problem=said(error))) from None
    winner = seated[outcome.winner][0]
    asked = trick_rule(table, trump)

    def refute(key: str) -> tuple[str, str]:
        return refuted(why_not(table, [s for s, _ in seated].index(int(key)), trump), asked, tr)

    return _common(position, tr)(
        question=tr("With {trump}, seat {leader} led {lead}. Who wins this trick?", trump=str(trump),
                    leader=leader, lead=table[0]),
        answer=AnswerKind.CHOICE, seat=None,
        choices=tuple(Choice(str(s), tr("Seat {seat}: {cards}", seat=s, cards=p)) for s, p in seated),
        hints=(tr("Which plays are in the led suit with the lead's shape, and which are all trumps?"),
               tr("B1: only the same shape in the led suit, or a ruff, can beat the lead; ties go to the play made "
                  "first (T6); an over-ruff must be strictly higher (R5); a discard never wins (W6)."),
               tr("The answer: seat {seat}.", seat=winner)),
        rule=asked if asked in outcome.rules else outcome.rules[-1],  # the rule the explanation cites
        explain=tr("Seat {seat} wins the trick with {cards}: {reason}.", seat=winner, cards=table[outcome.winner],
                   reason=outcome.cause),
        correct=frozenset({str(winner)}), refute=refute)


@dataclass(frozen=True, slots=True)
class MadeLink:
    """What the "make a position link" form shows: the link (relative to the course's
    pages) and the drill it opens, or neither and the note saying what is wrong."""

    href: str | None
    drill: Drill | None
    note: str


def make_link(text: object, lang: str = "en") -> MadeLink:
    """Check the position written in ``text`` and make its link (the page
    ``positions.ipynb``, or ``positions.html`` on the static site); never raises.

    >>> made = make_link("kind: tractor; trump: ♠; ask: ♥9 ♥9 ♥8 ♥8")
    >>> made.href[:40], made.drill.correct, made.note
    ('positions.ipynb?position=kind%3A+tractor', frozenset({'yes'}), '')
    >>> make_link("kind: tractor; trump: ♠; ask: ♥9 ♥9 ♥9").note
    'This position cannot be opened: ask: three copies of ♥9: the pack has only two of each card (C1).'
    """
    tr = Translator(lang)
    try:
        position = parse_position(text)
        drill = make_drill(position, lang)
    except TutorError as error:
        return MadeLink(None, None, tr("This position cannot be opened: {problem}.", problem=said(error)))
    page = "positions.html" if STATIC_SITE else "positions.ipynb"
    return MadeLink(f"{page}?{urlencode({PARAM: position_text(position)})}", drill, "")


def position_from_query(query: str | None, lang: str = "en") -> tuple[Drill | None, tuple[str, ...]]:
    """The drill a link's ``position=`` asks for (None when it asks for none or a bad
    one), and the notes for the page, said in ``lang``: one for a position that cannot be
    opened and one for every other parameter the page does not use, as
    :func:`tutor.teach.course.read_link` reads every page's link. Never raises on what a
    link holds.

    >>> drill, notes = position_from_query("position=kind%3Atrick%3Btrump%3AH%3Blead%3ASA%3Bplayed%3AS3")
    >>> drill.correct, notes
    (frozenset({'0'}), ())
    >>> position_from_query("position=kind%3Achess&seed=3")[1]
    ("This position cannot be opened: kind: 'chess' is no kind of position; choose one of follow, ruff, trick, throw, tractor.", 'Ignored seed=3: this page does not use it.')
    """
    tr = Translator(lang)
    found, notes = read_link(query, {PARAM: _read_position, "lang": read_lang}, tr)
    drill = found.get(PARAM)
    return (drill if isinstance(drill, Drill) else None), notes


def _read_position(raw: str, param: str, tr: Translator) -> Drill | Ignored:
    """The :data:`~tutor.teach.course.LinkReader` of ``position=``: its drill, said in ``tr``'s language."""
    try:
        return read_position(raw, tr.language)
    except TutorError as error:
        return Ignored(tr("This position cannot be opened: {problem}.", problem=said(error)))


__all__ = ["FORMS", "KEYS", "MAX_POSITION", "PARAM", "MadeLink", "Position", "PositionError", "make_drill", "make_link", "parse_position",
           "position_from_query", "position_text", "read_position", "trick_rule"]
