"""Checks of the arguments that enter the rules module from outside.

Each refuses a wrong value — a wrong type included — with a :class:`TutorError` that
names the parameter and says what it expected, quoting at most the start of the value
(:func:`shown`), and returns the value when it is right.

>>> whole(3, "declarations", low=1)
3
>>> whole(True, "declarations", low=1)
Traceback (most recent call last):
...
tutor.core.errors.TutorError: declarations must be a whole number from 1 up, not True
>>> seat("2")
Traceback (most recent call last):
...
tutor.core.errors.TutorError: seat must be a seat number from 0 to 4, not '2'
"""

from __future__ import annotations

from typing import Final, TypeVar

from tutor.core.errors import TutorError, shown
from tutor.core.text import Text

SEATS: Final = 5
"""Seats at the table, numbered 0 to 4."""
MAX_SEED: Final = 2**31 - 1
"""The largest seed of a hand or a drill: every seed (a link's, a hand file's, a game's) is a
whole number from 0 to this."""
MAX_EXACT: Final = 2**53 - 1
"""The largest whole number a page's JSON keeps exactly (a browser's number is a double): a
count, or the id of a page's request, is a whole number from 0 to this."""

T = TypeVar("T")


def whole(value: object, name: str, *, low: int | None = None, high: int | None = None) -> int:
    """A whole number (not a bool) within ``low``…``high``."""
    if isinstance(value, int) and not isinstance(value, bool) \
            and (low is None or value >= low) and (high is None or value <= high):
        return value
    if low is not None and high is not None:
        raise TutorError(Text("{name} must be a whole number from {low} to {high}, not {value}",
                              name=name, low=low, high=high, value=shown(value)), parameter=name)
    if low is not None:
        raise TutorError(Text("{name} must be a whole number from {low} up, not {value}",
                              name=name, low=low, value=shown(value)), parameter=name)
    raise TutorError(Text("{name} must be a whole number, not {value}", name=name, value=shown(value)),
                     parameter=name)


def flag(value: object, name: str) -> bool:
    """True or False (not 0, 1 or a string)."""
    if isinstance(value, bool):
        return value
    raise TutorError(Text("{name} must be True or False, not {value}", name=name, value=shown(value)), parameter=name)


def seat(value: object, name: str = "seat") -> int:
    """A seat number, 0 to 4 (C4): the one check of a seat, whoever gives it (a caller, a
    teacher's position, a table).

    >>> seat(4)
    4
    >>> try:
    ...     seat(5, "leader")
    ... except TutorError as error:
    ...     print(f"{error} [{error.rule}, {error.parameter}]")
    leader must be a seat number from 0 to 4, not 5 [C4, leader]
    """
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < SEATS:
        return value
    raise TutorError(Text("{name} must be a seat number from 0 to {last}, not {value}", name=name, last=SEATS - 1,
                          value=shown(value)), rule="C4", parameter=name)


def seed_number(value: object, name: str = "seed") -> int:
    """A seed of a hand or a drill: a whole number from 0 to :data:`MAX_SEED`.

    >>> seed_number(2**31)
    Traceback (most recent call last):
    ...
    tutor.core.errors.TutorError: seed must be a whole number from 0 to 2147483647, not 2147483648
    """
    return whole(value, name, low=0, high=MAX_SEED)


def instance(value: object, kind: type[T], name: str) -> T:
    """A value of ``kind`` (a :class:`~tutor.rules.Ruleset`, say)."""
    if isinstance(value, kind):
        return value
    raise TutorError(Text("{name} must be a {kind}, not {value}", name=name, kind=kind.__name__, value=shown(value)),
                     parameter=name)
