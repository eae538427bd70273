"""Point-card drills (C3): "How many points are these cards worth?" and "Pick every
point card of your hand".

Every card, the learner's hand included, is on the screen — without its points badge,
which would be the answer (``Mark.POINTS``) — and the answer is
:func:`tutor.rules.cards.points` of them (or the cards whose ``points`` are not 0). Cards to
count: level 1, 4–5 cards of a real hand (worth nothing now and then); level 2, 6–8
cards; level 3, 10–12 cards or a real kitty. Hands to pick from: 4–5 cards, 6–8
cards, a whole hand of 20.

>>> import random
>>> from tutor.core.i18n import Translator
>>> drill = make(0, 1, random.Random(3), Translator("en"))
>>> drill.kind, drill.answer.value, drill.number == points(drill.shown)
('points', 'number', True)
"""

from __future__ import annotations

import random
from functools import partial

from tutor.rules.cards import Card, points
from tutor.teach.drills.base import AnswerKind, Drill, Mark
from tutor.teach.drills.common import deal, redraw
from tutor.core.i18n import N_, Text, Translator
from tutor.rules.order import Trump

FORMS = ("count", "pick")
_SIZES = {1: (4, 5), 2: (6, 8), 3: (10, 12)}
_RULE_HINT = N_("C3: every 5 is worth 5, every 10 and every K is worth 10; every other card is worth 0.")


def _worth(cards: tuple[Card, ...], tr: Translator) -> str:
    """The sentence saying what ``cards`` are worth, naming their point cards (C3)."""
    scoring = tuple(c for c in cards if c.points)
    if not scoring:
        return tr("{cards} hold no 5, 10 or K: they are worth 0 points (C3).", cards=cards)
    return tr(Text.plural("The point card of {cards} is {scoring}: {total} points (C3).",
                          "The point cards of {cards} are {scoring}: {total} points in all (C3).",
                          count=len(scoring), cards=cards, scoring=scoring, total=points(cards)))


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    form = FORMS[seed % len(FORMS)]
    trump = Trump(None)  # points do not depend on the trump (C3): the cards are held the plainest way
    # the cards' points are the answer: they are drawn without their badges
    common = partial(Drill, kind="points", level=level, seed=seed, lang=tr.language, trump=trump, rules=("C3",),
                     rule="C3", unmarked=frozenset({Mark.POINTS}))
    if form == "count":
        def build(rng: random.Random) -> tuple[Card, ...] | None:
            hands, kitty = deal(rng)
            if level == 3 and rng.random() < 0.3:
                cards = kitty
            else:
                cards = tuple(rng.sample(hands[0], rng.randint(*_SIZES[level])))
            return trump.sorted(cards) if points(cards) or level == 1 else None

        cards = redraw(rng, build, Text("cards to count"))
        total = points(cards)
        return common(
            question=tr("How many points are {cards} worth?", cards=cards),
            shown=cards, answer=AnswerKind.NUMBER, number=total, explain=_worth(cards, tr),
            hints=(tr("Find the 5s, the 10s and the Ks."), tr(_RULE_HINT),
                   tr("The answer: {points} points.", points=total)))

    def build_hand(rng: random.Random) -> tuple[Card, ...] | None:
        hands, _ = deal(rng)
        hand = hands[0][:rng.randint(*_SIZES[level])] if level < 3 else hands[0]
        scoring = [c for c in hand if c.points]
        return trump.sorted(hand) if 0 < len(scoring) < len(hand) else None

    hand = redraw(rng, build_hand, Text("a hand with point cards"))
    want = sorted(c for c in hand if c.points)

    def judge(cards: tuple[Card, ...]) -> tuple[bool, str, str]:
        if sorted(cards) == want:
            return True, "C3", _worth(hand, tr)
        missed = tuple(c for c in hand if c.points and cards.count(c) < hand.count(c))
        wrong = tuple(dict.fromkeys(c for c in cards if not c.points))
        if wrong:
            return False, "C3", tr(Text.plural("{cards} scores nothing: only 5s, 10s and Ks are point cards (C3).",
                                               "{cards} score nothing: only 5s, 10s and Ks are point cards (C3).",
                                               count=len(wrong), cards=wrong))
        return False, "C3", tr("You left out {cards}: every 5, 10 and K is a point card (C3).",
                               cards=tuple(dict.fromkeys(missed)))

    answer = tr.cards(tuple(c for c in hand if c.points))
    return common(
        question=tr("Pick every point card of your hand."), hand=hand, answer=AnswerKind.CARDS, judge=judge,
        solve=lambda: ((answer,), 1),
        hints=(tr("Look for the 5s, the 10s and the Ks."), tr(_RULE_HINT), tr("The answer: {cards}.", cards=answer)))
