"""How a learner answers a drill, and reading that answer without ever raising
anything but :class:`AnswerError`, whose message is said in the learner's language. The
bounds of an answer (:data:`MAX_ANSWER`, :data:`MAX_DIGITS`) live here, and
:func:`refusal` applies them to what a page sends before any drill looks at it.

An answer is one of three :class:`AnswerKind`: cards picked from the hand, one of
the :class:`Choice` keys, or a whole number. Each reader takes what a page or a
notebook may send (text, a list of card strings, ``Card`` values, a number) and
returns the answer or refuses it with the reason.

>>> from tutor.core.i18n import Translator
>>> en = Translator("en")
>>> read_choice("no", (Choice("yes", "Yes"), Choice("no", "No")), en)
'no'
>>> [str(card) for card in read_cards("♠A ♠A", parse_cards("♠A ♠K ♠A"), 2, en)]
['♠A', '♠A']
>>> try:
...     read_cards("♠Q", parse_cards("♠A ♠K"), 1, en)
... except AnswerError as error:
...     print(error)
♠Q is not in your hand
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from tutor.rules.cards import Card
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import N_, Text, Translator, or_list, said
from tutor.rules.notation import parse_cards

MAX_ANSWER: Final = 200
"""An answer longer than this (characters of text, or cards of a list, or characters of one
of its items) is refused unread: a whole hand of 20 cards is well under 100 characters."""
MAX_DIGITS: Final = 15
"""A number with more digits than this is refused unread (no answer is that large)."""
TOO_LONG: Final = N_("That answer is far too long to be a play.")
TOO_LARGE: Final = N_("That number is far too large to be the answer.")
NOT_AN_ANSWER: Final = N_("That is not an answer to this drill.")


class AnswerKind(Enum):
    """How the learner answers."""

    CARDS = "cards"  # pick cards from ``Drill.hand``; the answer is a tuple of Card
    CHOICE = "choice"  # pick one of ``Drill.choices``; the answer is the choice's key
    NUMBER = "number"  # type a whole number; the answer is an int


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a multiple-choice answer: a stable key and its label (said in
    the drill's language).

    >>> Choice("yes", "Yes")
    Choice(key='yes', label='Yes')
    """

    key: str
    label: str


class AnswerError(TutorError):
    """The learner's answer cannot be read (a drill turns it into ``Feedback.error``); the
    message is already said in the learner's language."""

    def __init__(self, message: str) -> None:
        super().__init__(message, parameter="answer")


def refusal(answer: object) -> str | None:
    """Why ``answer`` is refused before any drill looks at it (an English template), or
    None. What a page sends is a string, or a list of card strings; a script may send
    anything, and its size is checked before its contents (in Python, the cards of a
    drill player's ``check`` are cards). ``None``, a bool or a float is left to the drill,
    which says why it is no answer.

    >>> refusal("♠A"), refusal(["♠A"] * 201), refusal({"a": 1}), refusal(10**15)
    (None, 'That answer is far too long to be a play.', 'That is not an answer to this drill.', 'That number is far too large to be the answer.')
    """
    if answer is None or isinstance(answer, (bool, float)):
        return None
    if isinstance(answer, int):
        return None if -10**MAX_DIGITS < answer < 10**MAX_DIGITS else TOO_LARGE
    if isinstance(answer, str):
        return TOO_LONG if len(answer) > MAX_ANSWER else None
    if isinstance(answer, (list, tuple)):
        if len(answer) > MAX_ANSWER:
            return TOO_LONG
        if not all(isinstance(a, (str, Card)) for a in answer):
            return NOT_AN_ANSWER
        return TOO_LONG if any(isinstance(a, str) and len(a) > MAX_ANSWER for a in answer) else None
    return NOT_AN_ANSWER


_NUMBER: Final = re.compile(r"\s*([+\-−－﹣]?)\s*(\d+)\s*")
"""A typed whole number: a sign, then decimal digits (any script's: ``\\d`` is what
``int()`` reads), spaces anywhere around them."""


def reason_of(error: BaseException, tr: Translator, template: str, plain: str) -> str:
    """A refusal in ``tr``'s language: ``template`` with the error's own reason as
    ``{problem}`` when it is the tutor's (a :class:`~tutor.core.i18n.Text`), else ``plain``:
    Python's own words ("invalid literal for int() …") never reach a learner.

    >>> en = Translator("en")
    >>> reason_of(TutorError(Text("no card {text}", text="'X'")), en, "Unreadable: {problem}", "Unreadable.")
    "Unreadable: no card 'X'"
    >>> reason_of(ValueError("invalid literal for int()"), en, "Unreadable: {problem}", "Unreadable.")
    'Unreadable.'
    """
    problem = said(error)
    return tr(template, problem=problem) if isinstance(problem, Text) else tr(plain)


def read_choice(answer: object, choices: Sequence[Choice], tr: Translator) -> str:
    """The key of the chosen :class:`Choice` (a key, or the choice itself); anything
    else is refused with :class:`AnswerError`.

    >>> yes_no = (Choice("yes", "Yes"), Choice("no", "No"))
    >>> read_choice(Choice("yes", "Yes"), yes_no, Translator("en"))
    'yes'
    >>> try:
    ...     read_choice("maybe", yes_no, Translator("en"))
    ... except AnswerError as error:
    ...     print(error)
    'maybe' is not one of the choices: choose Yes or No
    """
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
    match = _NUMBER.fullmatch(answer) if isinstance(answer, str) and len(answer) <= MAX_ANSWER else None
    if match is not None:
        sign, digits = match.groups()
        if len(digits) > MAX_DIGITS:
            raise AnswerError(tr("{answer} has far too many digits to be the answer", answer=shown(answer)))
        try:
            value = int(digits)
        except ValueError:  # not expected: \d is what int() reads; refused all the same
            raise AnswerError(tr("answer with a whole number, not {answer}", answer=shown(answer))) from None
        return -value if sign not in ("", "+") else value
    if isinstance(answer, str) and len(answer) > MAX_ANSWER:
        raise AnswerError(tr(TOO_LONG))
    raise AnswerError(tr("answer with a whole number, not {answer}", answer=shown(answer)))


def read_cards(answer: object, hand: Sequence[Card], pick: int | None, tr: Translator) -> tuple[Card, ...]:
    """Cards from a tuple of Card, notation text or a list of card strings, checked
    against ``hand`` (each card held as often as it is picked) and ``pick`` (how many
    cards, or None: any number); refused with :class:`AnswerError` otherwise."""
    cards: list[Card] = []
    if isinstance(answer, (str, tuple, list)) and (
            len(answer) > MAX_ANSWER or any(isinstance(a, str) and len(a) > MAX_ANSWER for a in answer)):
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
    except TutorError as exc:  # the notation's reason (N1–N3)
        raise AnswerError(reason_of(exc, tr, N_("These cards cannot be read: {problem}"),
                                    N_("These cards cannot be read."))) from None
    need, have = Counter(cards), Counter(hand)
    for card, k in need.items():
        if have[card] == 0:
            raise AnswerError(tr("{card} is not in your hand", card=card))
        if have[card] < k:
            raise AnswerError(tr(Text.plural("you picked {card} {k} times but hold it once",
                                             "you picked {card} {k} times but hold it {count} times",
                                             count=have[card], card=card, k=k)))
    if pick is not None and len(cards) != pick:
        raise AnswerError(tr(Text.plural("pick exactly one card; you picked {picked}",
                                         "pick exactly {count} cards; you picked {picked}",
                                         count=pick, picked=len(cards))))
    return tuple(cards)
