"""Whether a play may be made now (W0–W5, L1, L4): the one judgement of a play that the
game, the playouts of a search and the coach ask.

>>> from tutor.rules.notation import parse_cards as p
>>> from tutor.rules.order import Trump
>>> play_refusal(p("♠A ♠3"), (), (), p("♥4"), Trump("♦"))
IllegalActionError('♥4 is not in your hand (W0)')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tutor.core.errors import IllegalActionError
from tutor.core.i18n import Text, or_list
from tutor.rules.cards import Card
from tutor.rules.combos import lead_problem
from tutor.rules.follow import check_follow, is_legal_follow
from tutor.rules.order import Trump
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset


def play_refusal(hand: Sequence[Card], trick: Sequence[tuple[int, tuple[Card, ...]]],
                 forced: Sequence[Sequence[Card]], cards: Sequence[Card], trump: Trump,
                 rules: Ruleset = DEFAULT_RULES) -> IllegalActionError | None:
    """Why the rules refuse ``cards`` from ``hand`` as the next play, with the trick so far
    and the options a failed throw forces (L4), or None if they allow it: a follow must
    follow (W0–W5); a lead must be held (W0), one of the forced options, and a single
    suit's single, pair, tractor or throw (L1). The one place a play is judged: the game,
    the simulation and the coach ask it.

    >>> from tutor.rules.notation import parse_cards as p
    >>> play_refusal(p("♠A ♠3 ♥4"), (), (), p("♠A ♥4"), Trump("♦")).rule
    'L1'
    >>> play_refusal(p("♠A ♠3 ♥4"), ((1, p("♠5")),), (), p("♠A"), Trump("♦")) is None
    True
    """
    if trick:
        lead = trick[0][1]
        if is_legal_follow(hand, lead, cards, trump, rules=rules):
            return None
        verdict = check_follow(hand, lead, cards, trump, rules=rules)
        return None if verdict.legal else IllegalActionError(verdict.rule or "W1", verdict.reason)
    if not cards:
        return IllegalActionError("L1", Text("lead at least one card"))
    missing = not_held(hand, cards, "W0")
    if missing is not None:
        return missing
    if forced:
        if sorted(cards) not in [sorted(o) for o in forced]:
            return IllegalActionError("L4", Text("your throw failed; you must lead {options}", options=or_list(forced)))
        return None
    problem = lead_problem(cards, trump)
    return IllegalActionError("L1", problem) if problem is not None else None


def not_held(hand: Sequence[Card], cards: Sequence[Card], rule: str) -> IllegalActionError | None:
    """The refusal (under ``rule``: W0 for a play, K1 for a bury, …) of ``cards`` that
    ``hand`` does not hold, as many times as they are named; None if it holds them.

    >>> from tutor.rules.notation import parse_cards as p
    >>> not_held(p("♠A ♠3"), p("♠A ♠A"), "K1")
    IllegalActionError('you hold ♠A only once (K1)')
    """
    held = Counter(hand)
    for card, count in Counter(cards).items():
        if held[card] < count:
            return IllegalActionError(rule, Text("{card} is not in your hand", card=card) if not held[card]
                                      else Text("you hold {card} only once", card=card))
    return None


__all__ = ["not_held", "play_refusal"]
