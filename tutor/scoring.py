"""Kitty capture (X1–X2) and the score of a hand (S1–S4).

>>> kitty_multiplier("♠9 ♠9 ♠8 ♠8", "♥"), kitty_multiplier("♠K ♠K ♠5 ♠3 ♠4", "♥")
(8, 4)
>>> dict(score_hand(75, declarations=2))
{'declarer': 4, 'friend': 2, 'attacker': -2}
>>> dict(score_hand(120, solo=True))
{'declarer': -24, 'friend': 0, 'attacker': 6}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from tutor.combos import shape_of
from tutor.errors import TutorError
from tutor.notation import CardsLike, parse_cards
from tutor.order import Trump, as_trump


def kitty_multiplier(lead: CardsLike, trump: Trump | str | None) -> int:
    """The kitty multiplier when attackers win the last trick (X2): ``2 ** (1 + p)``
    with ``p`` the pairs in the lead of that trick, pairs inside tractors included."""
    pairs: int = shape_of(parse_cards(lead), as_trump(trump)).pairs
    return int(2 ** (1 + pairs))


def attacker_value(points: int) -> int:
    """Each attacker's table value for attackers' total ``points`` (S1).

    >>> [attacker_value(a) for a in (0, -10, 5, 20, 75, 80, 115, 200, 255)]
    [-20, -4, -4, -3, -1, 1, 2, 7, 9]
    """
    if points == 0:
        return -20
    if points < 0:
        return -4
    if points < 80:
        return -(4 - points // 20)
    return 1 + (points - 80) // 20


def table_row(points: int) -> str:
    """The row of the S1 table that ``points`` falls in, as printed in the book.

    >>> table_row(0), table_row(-15), table_row(10), table_row(75), table_row(200)
    ('exactly 0 (clean sweep)', 'below 0, or 5–15', 'below 0, or 5–15', '60–75', '200–215')
    """
    if points == 0:
        return "exactly 0 (clean sweep)"
    if points < 20:
        return "below 0, or 5–15"
    low = points // 20 * 20
    return f"{low}–{low + 15}"


@dataclass(frozen=True, slots=True)
class HandScore(Mapping[str, int]):
    """Each player's result (S1–S4), readable as a mapping with the keys
    ``"declarer"``, ``"friend"`` (0 in a solo) and ``"attacker"`` (each attacker)."""

    declarer: int
    friend: int
    attacker: int
    points: int
    declarations: int
    solo: bool

    def __getitem__(self, key: str) -> int:
        if key not in ("declarer", "friend", "attacker"):
            raise KeyError(key)
        return int(getattr(self, key))

    def __iter__(self) -> Iterator[str]:
        return iter(("declarer", "friend", "attacker"))

    def __len__(self) -> int:
        return 3

    @property
    def row(self) -> str:
        """The S1 table row used."""
        return table_row(self.points)

    def explain(self) -> str:
        """The breakdown a newcomer reads after a hand."""
        k = attacker_value(self.points)
        parts = [f"the attackers have {self.points} points: row {self.row} of the table, "
                 f"{k:+d} for each attacker (S1)"]
        if self.solo:
            parts.append("a solo: each attacker's value counts twice, the declarer pays for all four (S2)")
        if self.declarations > 1:
            parts.append(f"{self.declarations} declarations: every result ×{self.declarations} (S3)")
        return "; ".join(parts)


def score_hand(points: int, *, declarations: int = 1, solo: bool = False, friendless: bool = False) -> HandScore:
    """Each player's result from the attackers' total ``points`` (S1), a solo (S2)
    and the number of declarations (S3, D5). ``friendless``: the declarer called a
    card whose twin was buried (only under ``Ruleset(allow_buried_friend=True)``, F3)
    and plays alone at the normal rate, paying what the four attackers win.

    >>> dict(score_hand(100, friendless=True))
    {'declarer': -8, 'friend': 0, 'attacker': 2}
    """
    if isinstance(points, bool) or not isinstance(points, int) or points % 5:
        raise TutorError(f"the attackers' total is a whole multiple of 5, not {points!r} (S1)")
    if isinstance(declarations, bool) or not isinstance(declarations, int) or declarations < 1:
        raise TutorError(f"the declaration count is at least 1, not {declarations!r} (D5)")
    k = attacker_value(points)
    if solo:
        return HandScore(-8 * k * declarations, 0, 2 * k * declarations, points, declarations, True)
    if friendless:
        return HandScore(-4 * k * declarations, 0, k * declarations, points, declarations, False)
    return HandScore(-2 * k * declarations, -k * declarations, k * declarations, points, declarations, False)
