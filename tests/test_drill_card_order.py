"""Every card list a drill says is in the order the learner sees cards (issue 28): the
question, the hints, the explanation and the feedback to answers, right and wrong, of every
kind of drill at every level.

A list of the learner's own cards is in the order their hand is drawn; any other list (a
seat's play, the cards a question asks about) in holding order (the trump's). A trick's
plays are drawn in holding order too.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

import pytest
from test_rules_reasons import card_lists

from tutor.rules.cards import Card
from tutor.rules.notation import parse_cards
from tutor.rules.order import Trump
from tutor.teach import display
from tutor.teach.drills import KINDS, AnswerKind, Drill, generate

SEEDS = range(30)
RULE_KINDS = [kind for kind, info in KINDS.items() if not info.advice]


def out_of_order(cards: Sequence[Card], drill: Drill) -> bool:
    """Whether ``cards`` are not in the order the learner sees them in ``drill``."""
    shown = list(drill.hand)
    if all(card in shown for card in cards):
        places = [shown.index(card) for card in cards]
    else:
        trump = drill.trump if isinstance(drill.trump, Trump) else Trump(None)
        places = [trump.places[card] for card in cards]
    return places != sorted(places)


def said(drill: Drill, seed: int) -> list[str]:
    """What ``drill`` says: question, hints, explanation, and its feedback to a few answers."""
    texts = [str(drill.question), *map(str, drill.hints), str(drill.explain)]
    if drill.answer is AnswerKind.CARDS and drill.hand:
        rng = random.Random(seed)
        size = len(drill.solutions()[0][0].split())
        for _ in range(3):  # picks sent as a page sends them: in the hand's order
            picked = sorted(rng.sample(range(len(drill.hand)), min(size, len(drill.hand))))
            texts.append(str(drill.check(" ".join(str(drill.hand[i]) for i in picked)).message))
        texts.append(str(drill.check(drill.solutions()[0][0]).message))
    elif drill.answer is AnswerKind.CHOICE:
        texts += [str(drill.check(choice.key).message) for choice in drill.choices]
    return texts


@pytest.mark.parametrize("kind", RULE_KINDS)
def test_every_card_list_a_drill_says_is_in_the_order_seen(kind: str) -> None:
    wrong = []
    for level in KINDS[kind].levels:
        for seed in SEEDS:
            drill = generate(kind, seed, level)
            for text in said(drill, seed):
                wrong += [(level, seed, " ".join(map(str, cards)), text[:120])
                          for cards in card_lists(text) if out_of_order(cards, drill)]
    assert not wrong, f"{len(wrong)} card lists out of order, first: {wrong[:3]}"


def test_a_tricks_plays_are_drawn_in_holding_order() -> None:
    plays = [(0, parse_cards("♣7 ♣J")), (1, parse_cards("♦3 BJ"))]
    page = display.trick_html(plays, trump=Trump("♦"), style=False)
    assert re.findall(r'data-card="([^"]+)"', page) == ["♣J", "♣7", "BJ", "♦3"]
