"""Kitty capture (X1–X2), failed-throw penalties (L5), the attackers' total (S4) and the
score of a hand (S1–S4). The game and the playouts of a search ask these functions.

>>> kitty_multiplier("♠9 ♠9 ♠8 ♠8", "♥"), kitty_multiplier("♠K ♠K ♠5 ♠3 ♠4", "♥")
(8, 4)
>>> penalty_change(15, "attacker"), penalty_change(15, "friend")
(-15, 15)
>>> dict(score_hand(75, declarations=2))
{'declarer': 4, 'friend': 2, 'attacker': -2}
>>> dict(score_hand(120, solo=True))
{'declarer': -24, 'friend': 0, 'attacker': 6}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from tutor.core.arguments import whole
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import N_, Text, Translator
from tutor.rules.cards import PLAYERS, Card
from tutor.rules.combos import shape_of
from tutor.rules.friend import SIDES, Side, side_of
from tutor.rules.notation import CardsLike, parse_cards
from tutor.rules.order import Trump, as_trump
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset

SIDE_NAMES: Final = {"declarer": N_("declarer"), "friend": N_("friend"), "attacker": N_("attacker")}
"""How each side is named to a learner (translate with ``tr(SIDE_NAMES[side])``)."""


def side_name(side: Side) -> Text:
    """A side (``"declarer"``, ``"friend"``, ``"attacker"``) as a learner reads it.

    >>> from tutor.core.i18n import Translator
    >>> side_name("attacker"), Translator("zh-Hans")(side_name("declarer"))
    ('attacker', '庄家')
    """
    if not isinstance(side, str) or side not in SIDE_NAMES:
        raise TutorError(Text("a side is one of {sides}, not {value}", sides=", ".join(SIDE_NAMES), value=shown(side)))
    return Text(SIDE_NAMES[side])


def kitty_pairs(lead: CardsLike, trump: Trump | str | None, *, winning_play: CardsLike | None = None,
                rules: Ruleset = DEFAULT_RULES) -> int:
    """X2's ``p``: the pairs in the ``lead`` of the last trick, pairs inside tractors
    included; under ``Ruleset(kitty_pairs_from="winning-play")``, the pairs of the
    ``winning_play`` instead (:func:`pairs_in`).

    >>> kitty_pairs("♠9 ♠9 ♠8 ♠8 ♠3", "♥"), kitty_pairs("♠K ♠5", "♥", winning_play="♥5 ♥5")
    (2, 0)
    >>> kitty_pairs("♠K ♠5", "♥", winning_play="♥5 ♥5", rules=Ruleset(kitty_pairs_from="winning-play"))
    1
    """
    if rules.kitty_pairs_from == "winning-play":
        if winning_play is None:
            raise TutorError(Text("the pairs of the kitty multiplier are counted in the play that won the last "
                                  "trick: name it (X2)"))
        return pairs_in(parse_cards(winning_play))
    pairs: int = shape_of(parse_cards(lead), as_trump(trump)).pairs
    return pairs


def kitty_multiplier(lead: CardsLike, trump: Trump | str | None, *, winning_play: CardsLike | None = None,
                     rules: Ruleset = DEFAULT_RULES) -> int:
    """The kitty multiplier when attackers win the last trick (X2): ``2 ** (1 + p)``
    with ``p`` the pairs in the ``lead`` of that trick, pairs inside tractors included;
    under ``Ruleset(kitty_pairs_from="winning-play")``, the pairs of the
    ``winning_play`` instead (:func:`kitty_pairs`).

    >>> kitty_multiplier("♠9 ♠8 ♠7", "♥", winning_play="♥5 ♥5 ♥4", rules=Ruleset(kitty_pairs_from="winning-play"))
    4
    """
    return int(2 ** (1 + kitty_pairs(lead, trump, winning_play=winning_play, rules=rules)))


def pairs_in(cards: Sequence[Card]) -> int:
    """How many pairs ``cards`` hold: X2's ``p`` for the play that won the last trick
    (``Ruleset(kitty_pairs_from="winning-play")``).

    >>> pairs_in(parse_cards("♠5 ♠5 ♠4 ♠4 ♠3"))
    2
    """
    counts = Counter(cards)
    return sum(k // 2 for k in counts.values())


@dataclass(frozen=True, slots=True)
class KittyCapture:
    """What the attackers add for the kitty (X2): its points × the multiplier.

    >>> capture = KittyCapture(kitty_points=25, multiplier=4)
    >>> capture.points
    100
    """

    kitty_points: int
    multiplier: int

    @property
    def points(self) -> int:
        """The points added to the attackers' total."""
        return self.kitty_points * self.multiplier


def kitty_capture(kitty: Sequence[Card], lead: Sequence[Card], winning_play: Sequence[Card] | None, trump: Trump, *,
                  won_by: Side, rules: Ruleset = DEFAULT_RULES) -> KittyCapture | None:
    """The kitty capture of a hand whose last trick was led with ``lead`` and won with
    ``winning_play`` by a seat of side ``won_by``: None if the declarer's side won it
    (X1), else the kitty's points × :func:`kitty_multiplier` (X2). ``winning_play`` may be
    None where the rules count the pairs of the lead (the book's reading).

    >>> from tutor.rules.notation import parse_cards as p
    >>> kitty_capture(p("♠K ♠5 ♥3"), p("♣4 ♣4"), p("♣9 ♣9"), Trump("♥"), won_by="attacker").points
    60
    >>> kitty_capture(p("♠K ♠5 ♥3"), p("♣4 ♣4"), p("♣9 ♣9"), Trump("♥"), won_by="friend") is None
    True
    """
    if won_by != "attacker":
        return None
    multiplier = kitty_multiplier(lead, trump, winning_play=winning_play, rules=rules)
    return KittyCapture(sum(card.points for card in kitty), multiplier)


def throw_penalty(cards: int, rules: Ruleset = DEFAULT_RULES) -> int:
    """The points a failed throw of ``cards`` cards costs (L5): ``rules.penalty_per_card`` each.

    >>> throw_penalty(6)
    30
    """
    return rules.penalty_per_card * cards


def penalty_change(penalty: int, thrower: Side, rules: Ruleset = DEFAULT_RULES) -> int:
    """How a failed throw's ``penalty`` (:func:`throw_penalty`) changes the attackers'
    total (L5): it falls by the penalty when an attacker threw; it rises by it when the
    declarer or the friend threw, unless ``rules.penalty_to_declarers`` is False.

    >>> penalty_change(30, "declarer", Ruleset(penalty_to_declarers=False))
    0
    """
    if thrower == "attacker":
        return -penalty
    return penalty if rules.penalty_to_declarers else 0


def attackers_total(won: Sequence[int], declarer: int | None, friend: int | None, *, capture: int = 0,
                    penalties: int = 0) -> int:
    """A, the attackers' total (S4): the trick points ``won`` by each seat that is an
    attacker (:func:`tutor.rules.friend.side_of`; never the declarer's or the friend's,
    whenever won), plus the kitty ``capture`` (X2), plus the failed-throw ``penalties``
    (the sum of :func:`penalty_change`, L5).

    >>> attackers_total([10, 20, 5, 0, 30], declarer=0, friend=2, capture=40, penalties=-15)
    75
    """
    return sum(points for seat, points in enumerate(won) if side_of(seat, declarer, friend) == "attacker") \
        + capture + penalties


def attacker_value(points: int) -> int:
    """Each attacker's table value for attackers' total ``points`` (S1).

    >>> [attacker_value(a) for a in (0, -10, 5, 20, 75, 80, 115, 200, 255)]
    [-20, -4, -4, -3, -1, 1, 2, 7, 9]
    """
    whole(points, "points")
    if points == 0:
        return -20
    if points < 0:
        return -4
    if points < 80:
        return -(4 - points // 20)
    return 1 + (points - 80) // 20


def table_row(points: int) -> Text:
    """The row of the S1 table that ``points`` falls in, as printed in the book.

    >>> table_row(0), table_row(-15), table_row(10), table_row(75), table_row(200)
    ('exactly 0 (clean sweep)', 'below 0, or 5–15', 'below 0, or 5–15', '60–75', '200–215')
    """
    whole(points, "points")
    if points == 0:
        return Text("exactly 0 (clean sweep)")
    if points < 20:
        return Text("below 0, or 5–15")
    low = points // 20 * 20
    return Text("{low}–{high}", low=low, high=low + 15)


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
        if key not in SIDES:
            raise KeyError(key)
        return int(getattr(self, key))

    def __iter__(self) -> Iterator[str]:
        return iter(SIDES)

    def __len__(self) -> int:
        return 3

    @property
    def row(self) -> Text:
        """The S1 table row used."""
        return table_row(self.points)

    @property
    def explanation(self) -> Text:
        """The breakdown a newcomer reads after a hand, as a translatable message."""
        text = Text("the attackers have {points} points: row “{row}” of the table, {k:+d} for each attacker (S1)",
                    points=self.points, row=self.row, k=attacker_value(self.points))
        if self.solo:
            text = Text("{first}; {second}", first=text, second=Text(
                "a solo: each attacker's value counts twice, the declarer pays for all four (S2)"))
        if self.declarations > 1:
            text = Text("{first}; {second}", first=text, second=Text(
                "{count} declarations: every result ×{count} (S3)", count=self.declarations))
        return text

    def explain(self, tr: Translator | None = None) -> str:
        """The breakdown a newcomer reads after a hand, in ``tr``'s language; without
        ``tr`` (or in English), the translatable :attr:`explanation`, which whoever
        shows it says in their own language.

        >>> score = score_hand(100, declarations=2, solo=True)
        >>> score.explain(Translator("en"))
        "the attackers have 100 points: row “100–115” of the table, +2 for each attacker (S1); a solo: each attacker's value counts twice, the declarer pays for all four (S2); 2 declarations: every result ×2 (S3)"
        >>> Translator("zh-Hans")(score.explanation) == score.explain(Translator("zh-Hans"))
        True
        """
        return self.explanation if tr is None or tr.language == "en" else tr(self.explanation)


def score_hand(points: int, *, declarations: int = 1, solo: bool = False, friendless: bool = False) -> HandScore:
    """Each player's result from the attackers' total ``points`` (S1), a solo (S2)
    and the number of declarations (S3, D5). ``friendless``: the declarer called a
    card whose twin was buried (only under ``Ruleset(allow_buried_friend=True)``, F3)
    and plays alone at the normal rate, paying what the four attackers win.

    >>> dict(score_hand(100, friendless=True))
    {'declarer': -8, 'friend': 0, 'attacker': 2}
    """
    if isinstance(points, bool) or not isinstance(points, int) or points % 5:
        raise TutorError(Text("the attackers' total is a whole multiple of 5, not {points} (S1)", points=shown(points)))
    if isinstance(declarations, bool) or not isinstance(declarations, int) or declarations < 1:
        raise TutorError(Text("the declaration count is at least 1, not {count} (D5)", count=shown(declarations)))
    k = attacker_value(points)
    if solo:
        return HandScore(-8 * k * declarations, 0, 2 * k * declarations, points, declarations, True)
    if friendless:
        return HandScore(-4 * k * declarations, 0, k * declarations, points, declarations, False)
    return HandScore(-2 * k * declarations, -k * declarations, k * declarations, points, declarations, False)


def score_seats(points: int, *, declarer: int, friend: int | None, solo: bool,
                declarations: int = 1) -> tuple[HandScore, tuple[int, ...]]:
    """The score of a hand (:func:`score_hand`) and each seat's result, seat by seat
    (S1–S3), with ``declarer`` and ``friend`` the true seats: a hand with neither a
    friend nor a solo is friendless (F3 variant).

    >>> score, results = score_seats(100, declarer=1, friend=None, solo=False)
    >>> results, score.friend
    ((2, -8, 2, 2, 2), 0)
    """
    score = score_hand(points, declarations=declarations, solo=solo, friendless=friend is None and not solo)
    return score, tuple(score[side_of(seat, declarer, friend)] for seat in range(PLAYERS))


__all__ = ["SIDES", "SIDE_NAMES", "HandScore", "KittyCapture", "attacker_value", "attackers_total",
           "kitty_capture", "kitty_multiplier", "kitty_pairs", "pairs_in", "penalty_change", "score_hand",
           "score_seats", "side_name", "table_row", "throw_penalty"]
