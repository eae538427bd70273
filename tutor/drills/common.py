"""What every drill kind shares: seeded deals with capped redraws, the one
concrete :class:`Question` (a :class:`~tutor.drills.base.Drill`), and reading the
learner's answer without ever raising.

>>> import random
>>> hands, kitty = deal(random.Random(1))
>>> [len(h) for h in hands], len(kitty)
([20, 20, 20, 20, 20], 8)
"""

from __future__ import annotations

import functools
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

from tutor.cards import HAND_SIZE, KITTY_SIZE, PACK, PLAYERS, SUITS, Card
from tutor.drills.base import AnswerKind, Choice, Drill, Feedback, Table
from tutor.errors import shown
from tutor.i18n import N_, Text, Translator, capitalized, or_list, said
from tutor.notation import parse_cards
from tutor.order import Trump

MAX_SHOWN: Final = 10
"""At most this many correct answers are listed in feedback (``answer_count`` has the total)."""

SEEDS: Final = range(0, 2**31)
"""The seeds a drill accepts."""

LEVELS: Final = (1, 2, 3)

MAX_TEXT: Final = 1000
"""An answer text longer than this (characters), or a list of more items, is refused unread."""
MAX_DIGITS: Final = 15
"""A typed number with more digits than this is refused unread (no answer is that large)."""
TOO_LONG: Final = N_("That answer is far too long to be a play.")

T = TypeVar("T")


class DrillError(ValueError):
    """A drill cannot be made: unknown kind, bad level, seed or language."""


class GenerationError(DrillError):
    """No natural position met a drill's constraints within the allowed redraws."""


class AnswerError(ValueError):
    """The learner's answer cannot be read (turned into ``Feedback.error``)."""


Hand = tuple[Card, ...]


def deal(rng: random.Random) -> tuple[list[Hand], Hand]:
    """Shuffle the 108-card pack with ``rng`` and deal five hands of 20 and the kitty (C2)."""
    pack = list(PACK)
    rng.shuffle(pack)
    hands = [tuple(pack[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(PLAYERS)]
    return hands, tuple(pack[PLAYERS * HAND_SIZE:PLAYERS * HAND_SIZE + KITTY_SIZE])


def redraw(rng: random.Random, build: Callable[[random.Random], T | None], what: str, cap: int = 3000) -> T:
    """Call ``build`` (which deals from ``rng`` and returns None when the deal does not
    fit) until it returns a position; after ``cap`` tries raise :class:`GenerationError`
    (``what`` names the position sought, a :class:`~tutor.i18n.Text`)."""
    for _ in range(cap):
        result = build(rng)
        if result is not None:
            return result
    raise GenerationError(Text("no deal gave {what} within {cap} redraws", what=what, cap=cap))


def sentence(reason: str, tr: Translator) -> str:
    """A reason from the rules module (a Text, said in ``tr``'s language) as a whole sentence.

    >>> sentence("you must play a pair", Translator("en"))
    'You must play a pair.'
    """
    return tr("{reason}.", reason=capitalized(reason))


def pick_trump(rng: random.Random, level: int) -> Trump:
    """A suit trump, or no-trump now and then from level 2 (T2)."""
    if level >= 2 and rng.random() < 0.2:
        return Trump(None)
    return Trump(rng.choice(SUITS))


Judge = Callable[[tuple[Card, ...]], tuple[bool, str, str]]
"""A CARDS answer's judge: (correct, rule ID, sentence naming the cards)."""
Solve = Callable[[], tuple[tuple[str, ...], int]]
"""The correct CARDS answers as text (at most :data:`MAX_SHOWN`) and their number."""


_NUMBER: Final = re.compile(r"\s*([+\-−－﹣]?)\s*(\d+)\s*")
"""A typed whole number: a sign, then decimal digits (any script's: ``\\d`` is what
``int()`` reads), spaces anywhere around them."""


def reason_of(error: BaseException, tr: Translator, template: str, plain: str) -> str:
    """A refusal in ``tr``'s language: ``template`` with the error's own reason as
    ``{problem}`` when it is the tutor's (a :class:`~tutor.i18n.Text`), else ``plain``:
    Python's own words ("invalid literal for int() …") never reach a learner."""
    problem = said(error)
    return tr(template, problem=problem) if isinstance(problem, Text) else tr(plain)


@dataclass(frozen=True, eq=False)
class Question(Drill):
    """The one concrete drill: every kind builds one of these.

    ``rule`` is the rule ID that decides the answer, ``explain`` the translated
    sentence saying why the correct answer is correct. A CHOICE drill keeps its
    correct keys in ``correct`` (several when several are right), a NUMBER drill its
    ``number``; a CARDS drill has a ``judge`` (asks the rules module about any pick)
    and ``solve`` (lists the correct picks).
    """

    kind: str
    level: int
    seed: int
    question: str
    trump: Trump
    rules: tuple[str, ...]
    hand: tuple[Card, ...]
    table: Table
    shown: tuple[Card, ...]
    answer: AnswerKind
    choices: tuple[Choice, ...]
    pick: int | None
    hints: tuple[str, ...]
    rule: str
    explain: str
    lang: str = "en"
    others: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    seat: int | None = None
    correct: frozenset[str] = frozenset()
    number: int | None = None
    judge: Judge | None = field(default=None, repr=False)
    solve: Solve | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.solve is not None:  # listing every correct pick can be slow: do it once
            object.__setattr__(self, "solve", functools.cache(self.solve))

    def _key(self) -> tuple[object, ...]:
        return (self.kind, self.level, self.seed, self.question, self.trump, self.rules, self.hand, self.table,
                self.shown, self.answer, self.choices, self.pick, self.hints, self.rule, self.explain, self.lang,
                self.others, self.seat, self.correct, self.number)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Question) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def tr(self) -> Translator:
        return Translator(self.lang)

    def solutions(self) -> tuple[tuple[str, ...], int]:
        """The correct answers as text (at most :data:`MAX_SHOWN`) and how many there are."""
        if self.answer is AnswerKind.CHOICE:
            labels = tuple(c.label for c in self.choices if c.key in self.correct)
            return labels[:MAX_SHOWN], len(labels)
        if self.answer is AnswerKind.NUMBER:
            return (str(self.number),), 1
        assert self.solve is not None
        return self.solve()

    def check(self, answer: object) -> Feedback:
        """Judge ``answer`` (see :class:`~tutor.drills.base.AnswerKind`); never raises."""
        try:
            return self._check(answer)
        except AnswerError as exc:
            return Feedback(False, self.rule, "", (), 0, error=str(exc))
        except Exception as exc:  # noqa: BLE001 - a drill never raises on an answer
            return Feedback(False, self.rule, "", (), 0, error=reason_of(
                exc, self.tr, N_("This answer cannot be read: {problem}"), N_("This answer cannot be read.")))

    def _check(self, answer: object) -> Feedback:
        tr = self.tr
        if self.answer is AnswerKind.CHOICE:
            key = read_choice(answer, self.choices, tr)
            ok = key in self.correct
            rule, why = self.rule, self.explain
        elif self.answer is AnswerKind.NUMBER:
            value = read_number(answer, tr)
            ok = value == self.number
            rule, why = self.rule, self.explain
        else:
            cards = read_cards(answer, self.hand, self.pick, tr)
            assert self.judge is not None
            ok, rule, why = self.judge(cards)
        answers, count = self.solutions()
        head = tr("Right.") if ok else tr("Not quite.")
        return Feedback(ok, rule, tr.sentences(head, why), answers, count)


def read_choice(answer: object, choices: Sequence[Choice], tr: Translator) -> str:
    if isinstance(answer, Choice):
        answer = answer.key
    keys = [c.key for c in choices]
    if answer is None or answer == "":
        raise AnswerError(tr("Choose one of the answers first, then press Check."))
    if not isinstance(answer, str) or answer not in keys:
        raise AnswerError(tr("{answer} is not one of the choices: choose {choices}", answer=shown(answer),
                             choices=or_list([c.label for c in choices])))
    return answer


def read_number(answer: object, tr: Translator) -> int:
    """A whole number from an int, a whole float, or text (``"12"``, ``" - 7 "``,
    ``"１２"``); anything else, or more than :data:`MAX_DIGITS` digits, is refused
    with :class:`AnswerError`.

    >>> en = Translator("en")
    >>> read_number(" − 7 ", en), read_number("１２", en), read_number(3.0, en)
    (-7, 12, 3)
    >>> for junk in ("+\\t5x", "9" * 40, "²"):
    ...     try:
    ...         read_number(junk, en)
    ...     except AnswerError as error:
    ...         print(error)
    answer with a whole number, not '+\\t5x'
    '9999999999999999999999999999999999999999' has far too many digits to be the answer
    answer with a whole number, not '²'
    """
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        raise AnswerError(tr("Type a whole number first, then press Check."))
    if isinstance(answer, bool):
        raise AnswerError(tr("answer with a whole number, not {answer}", answer=shown(answer)))
    if isinstance(answer, int):
        return answer
    if isinstance(answer, float) and answer.is_integer():
        return int(answer)
    match = _NUMBER.fullmatch(answer) if isinstance(answer, str) and len(answer) <= MAX_TEXT else None
    if match is not None:
        sign, digits = match.groups()
        if len(digits) > MAX_DIGITS:
            raise AnswerError(tr("{answer} has far too many digits to be the answer", answer=shown(answer)))
        try:
            value = int(digits)
        except ValueError:  # not expected: \d is what int() reads; refused all the same
            raise AnswerError(tr("answer with a whole number, not {answer}", answer=shown(answer))) from None
        return -value if sign not in ("", "+") else value
    if isinstance(answer, str) and len(answer) > MAX_TEXT:
        raise AnswerError(tr(TOO_LONG))
    raise AnswerError(tr("answer with a whole number, not {answer}", answer=shown(answer)))


def read_cards(answer: object, hand: Sequence[Card], pick: int | None, tr: Translator) -> tuple[Card, ...]:
    """Cards from a tuple of Card, notation text or a list of card strings, checked
    against ``hand`` and ``pick``."""
    cards: list[Card] = []
    if isinstance(answer, (str, tuple, list)) and (
            len(answer) > MAX_TEXT or any(isinstance(a, str) and len(a) > MAX_TEXT for a in answer)):
        raise AnswerError(tr(TOO_LONG))
    try:
        if isinstance(answer, str):
            cards.extend(parse_cards(answer))
        elif isinstance(answer, (tuple, list)):
            for item in answer:
                if isinstance(item, Card):
                    cards.append(item)
                elif isinstance(item, str):
                    cards.extend(parse_cards(item))
                else:
                    raise AnswerError(tr("{item} is not a card", item=shown(item)))
        else:
            raise AnswerError(tr("pick cards from your hand; {answer} is not a list of cards",
                                 answer=shown(answer)))
    except AnswerError:
        raise
    except ValueError as exc:
        raise AnswerError(reason_of(exc, tr, N_("These cards cannot be read: {problem}"),
                                    N_("These cards cannot be read."))) from None
    need, have = Counter(cards), Counter(hand)
    for card, k in need.items():
        if have[card] == 0:
            raise AnswerError(tr("{card} is not in your hand", card=card))
        if have[card] < k:
            raise AnswerError(tr("you picked {card} {k} times but hold it once", card=card, k=k)
                              if have[card] == 1 else
                              tr("you picked {card} {k} times but hold it {held} times", card=card, k=k,
                                 held=have[card]))
    if pick is not None and len(cards) != pick:
        raise AnswerError(tr("pick exactly one card; you picked {count}", count=len(cards)) if pick == 1 else
                          tr("pick exactly {pick} cards; you picked {count}", pick=pick, count=len(cards)))
    return tuple(cards)


def yes_no(tr: Translator) -> tuple[Choice, ...]:
    return (Choice("yes", tr("Yes")), Choice("no", tr("No")))


def yes_no_key(value: bool) -> frozenset[str]:
    return frozenset({"yes" if value else "no"})


def play_singles(rng: random.Random, hands: Sequence[Hand], trump: Trump, tricks: int) -> list[Hand]:
    """The hands after ``tricks`` tricks of single cards played from them: each
    follower plays a card of the led suit if it can, else any card (often a trump);
    the winner leads next (B1, B2). A way to reach natural mid-hand positions, where
    voids are common."""
    from tutor.trick import trick_winner

    held = [list(h) for h in hands]
    leader = rng.randrange(PLAYERS)
    for _ in range(tricks):
        lead = rng.choice(held[leader])
        lane = trump.lane(lead)
        plays = [(leader, lead)]
        for i in range(1, PLAYERS):
            seat = (leader + i) % PLAYERS
            suit = [c for c in held[seat] if trump.lane(c) == lane]
            if not suit and rng.random() < 0.5:
                suit = [c for c in held[seat] if trump.is_trump(c)]
            plays.append((seat, rng.choice(suit or held[seat])))
        for seat, card in plays:
            held[seat].remove(card)
        leader = plays[trick_winner([(c,) for _, c in plays], trump)][0]
    return [tuple(h) for h in held]


def lanes_of_hand(hand: Sequence[Card], trump: Trump) -> dict[int, list[Card]]:
    """The cards of ``hand`` by effective suit (0–3 side suits, 4 trumps)."""
    out: dict[int, list[Card]] = {}
    for c in hand:
        out.setdefault(trump.lane(c), []).append(c)
    return out
