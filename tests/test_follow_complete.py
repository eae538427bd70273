"""legal_follows is exactly the set of plays check_follow accepts (W1–W5).

Brute force: every multiset of n cards from the hand, checked one by one, must
agree with the lazy enumeration, which must yield each legal play once.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from tutor import PACK, Trump, check_follow, legal_follows
from tutor.rules.combos import shape_of
from tutor.core.errors import InvalidPlayError

TRUMPS = [Trump(s) for s in ("♠", "♥", "♣", "♦", None)]


def _all_multisets(hand: tuple, n: int) -> set[tuple]:
    return {tuple(sorted(c, key=lambda card: card.index)) for c in combinations(hand, n)}


def _random_position(rng: random.Random):
    trump = rng.choice(TRUMPS)
    deck = list(PACK)
    rng.shuffle(deck)
    # a lead of 1-6 cards from one effective suit, then a hand that often shares it
    lane = trump.lane(deck[0])
    same = [c for c in deck if trump.lane(c) == lane]
    lead_size = rng.choice([1, 2, 2, 3, 4, 4, 6])
    while True:
        lead = tuple(rng.sample(same, lead_size))
        try:
            shape_of(lead, trump)
            break
        except InvalidPlayError:
            pass
    # bias hands towards the led suit and towards pairs
    pool = [c for c in PACK] + same * 2
    rng.shuffle(pool)
    hand: list = []
    counts: Counter = Counter(lead)
    hand_size = rng.randint(lead_size, 11)
    for card in pool:
        if len(hand) == hand_size:
            break
        if counts[card] < 2:
            counts[card] += 1
            hand.append(card)
    return tuple(hand), lead, trump


@pytest.mark.parametrize("seed", range(300))
def test_legal_follows_is_exactly_the_legal_set(seed: int) -> None:
    hand, lead, trump = _random_position(random.Random(seed))
    n = len(lead)
    expected = {p for p in _all_multisets(hand, n) if check_follow(hand, lead, p, trump).legal}
    produced = [tuple(sorted(p, key=lambda card: card.index)) for p in legal_follows(hand, lead, trump)]
    assert len(produced) == len(set(produced)), "a legal follow was yielded twice"
    assert set(produced) == expected
    assert expected, "a legal follow always exists"
