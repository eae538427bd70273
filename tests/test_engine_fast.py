"""The rules engine's fast paths decide exactly as the explained paths, and as the
engine did before them.

Every fast path is checked against the full function on random positions (hypothesis):
``is_legal_follow`` and ``FollowPosition.allows`` against ``check_follow``, ``throw_stands``
against ``check_throw``, ``trick_winner`` against ``explain_trick``. The helpers that were
rewritten for speed (``pair_runs``, ``choose_multiset``, the legal follows in order, a
seeded random follow, ``check_throw``'s whole answer) are checked against reference
copies of the code they replaced, kept here.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import position

from tutor import PACK, Trump, check_follow, check_ruff, check_throw, legal_follows, parse_cards, trick_winner
from tutor.rules.cards import Card
from tutor.rules.combos import Component, Kind, is_tractor, max_matched, pair_runs, shape_of, tractor_top
from tutor.rules.follow import FollowPosition, choose_multiset, follow_position, is_legal_follow
from tutor.rules.order import TRUMP, EffectiveSuit
from tutor.rules.throw import Beaten, throw_stands
from tutor.rules.trick import explain_trick

TRUMPS = ["♠", "♥", "♣", "♦", None]
seeds = st.integers(min_value=0, max_value=2**32 - 1)
trumps = st.sampled_from(TRUMPS)


# --------------------------------------------------------------------------- references: the code replaced


def reference_pair_runs(cards, trump):
    counts = Counter(cards)
    step, order, lane = trump.steps, trump.orders, trump.lanes
    pairs = sorted((c for c, k in counts.items() if k >= 2),
                   key=lambda c: (lane[c.index], -(step[c.index] or 0), -order[c.index]))
    runs = []
    previous, previous_lane = None, -1
    for card in pairs:
        s = step[card.index]
        if s is not None and previous is not None and s == previous - 1 and lane[card.index] == previous_lane:
            runs[-1].append(card)
        else:
            runs.append([card])
        previous, previous_lane = s, lane[card.index]
    runs.sort(key=lambda run: (-len(run), -order[run[0].index]))
    return runs


def reference_choose_multiset(items, k, start=0):
    if k == 0:
        yield ()
        return
    for i in range(start, len(items)):
        card, count = items[i]
        for take in range(1, min(count, k) + 1):
            for rest in reference_choose_multiset(items, k - take, i + 1):
                yield (card,) * take + rest


def _reference_choices(p: FollowPosition):
    n, shape, trump = p.shape.size, p.shape, p.trump
    ordered = [card for run in sorted(reference_pair_runs(p.suit, trump), key=len, reverse=True) for card in run]
    best = p.best
    distinct = list(dict.fromkeys(sorted(p.suit, key=trump.sort_key)))
    for q in range(best.pairs, n // 2 + 1):
        for chosen in combinations(ordered, q):
            if best.tractors:
                runs = reference_pair_runs(chosen * 2, trump)
                lengths = tuple(len(run) for run in runs if len(run) > 1)
                matched = max_matched(p.duty, lengths) if p.duty and lengths else 0
                if (matched, min(shape.pairs, sum(len(r) for r in runs))) != tuple(best):
                    continue
            pool = [c for c in distinct if c not in chosen]
            if n - 2 * q <= len(pool):
                yield chosen, pool, n - 2 * q


def reference_legal_follows(p: FollowPosition):
    key, n = p.trump.sort_key, p.shape.size
    if len(p.suit) <= n:
        rest = Counter(p.hand) - Counter(p.suit)
        base = tuple(p.suit)
        for extra in reference_choose_multiset(sorted(rest.items(), key=lambda kv: key(kv[0])), n - len(base)):
            yield tuple(sorted(base + extra, key=key))
        return
    for chosen, pool, k in _reference_choices(p):
        doubled = tuple(c for c in chosen for _ in range(2))
        for fill in combinations(pool, k):
            yield tuple(sorted(doubled + fill, key=key))


def reference_random_follow(p: FollowPosition, rng: random.Random):
    n = p.shape.size
    if len(p.suit) <= n:
        rest = list((Counter(p.hand) - Counter(p.suit)).elements())
        return p.trump.sorted(tuple(p.suit) + tuple(rng.sample(rest, n - len(p.suit))))
    chosen, pool, k = rng.choice(list(_reference_choices(p)))
    return p.trump.sorted(tuple(c for c in chosen for _ in range(2)) + tuple(rng.sample(pool, k)))


def _reference_beater(component: Component, cards, trump):
    order = trump.orders
    if component.kind is Kind.SINGLE:
        best = max(cards, key=lambda c: order[c.index], default=None)
        return (best,) if best is not None and order[best.index] > component.top else None
    for run in reference_pair_runs(cards, trump):
        if len(run) >= component.pairs and order[run[0].index] > component.top:
            if component.kind is Kind.PAIR:
                best_pair = max((c for r in reference_pair_runs(cards, trump) for c in r), key=lambda c: order[c.index])
                return (best_pair, best_pair)
            return tuple(c for c in run for _ in range(2))
    return None


def reference_beaten(throw, hands, trump):
    shape = shape_of(throw, trump)
    if len(shape.components) == 1:
        return ()
    beaten = []
    for j, hand in enumerate(hands):
        suited = [c for c in hand if trump.lane(c) == shape.lane]
        for component in shape.components:
            by = _reference_beater(component, suited, trump)
            if by is not None:
                beaten.append(Beaten(component, j, by))
    return tuple(beaten)


# --------------------------------------------------------------------------- positions


def deal(seed: int) -> tuple[Trump, list[list[Card]]]:
    """A trump and five 20-card hands of one shuffled pack."""
    rng = random.Random(seed)
    deck = list(PACK)
    rng.shuffle(deck)
    return Trump(rng.choice(TRUMPS)), [deck[i * 20:(i + 1) * 20] for i in range(5)]


def lead_from(hand: list[Card], trump: Trump, rng: random.Random) -> tuple[Card, ...]:
    """A lead of one effective suit from ``hand``: often its pairs and tractors, sometimes a throw."""
    lanes: dict[EffectiveSuit, list[Card]] = {}
    for card in hand:
        lanes.setdefault(trump.lane(card), []).append(card)
    suit = rng.choice(list(lanes.values()))
    runs = pair_runs(suit, trump)
    choice = rng.random()
    if runs and choice < 0.5:
        run = rng.choice(runs)
        return tuple(c for c in run for _ in range(2))
    return tuple(rng.sample(suit, rng.randint(1, min(6, len(suit)))))


def trick(seed: int) -> tuple[Trump, list[tuple[Card, ...]], list[list[Card]]]:
    """A trump, a whole trick of legal plays (random followers) and the five hands."""
    trump, hands = deal(seed)
    rng = random.Random(seed ^ 0xBEEF)
    lead = lead_from(hands[0], trump, rng)
    plays = [lead]
    for hand in hands[1:]:
        follows = legal_follows(hand, lead, trump)
        plays.append(follows.random(rng) if rng.random() < 0.7 else follows.first())
    return trump, plays, hands


# --------------------------------------------------------------------------- the rewritten helpers


@settings(max_examples=500, deadline=None)
@given(seeds, trumps)
def test_M2_pair_runs_is_the_reference_in_any_order_of_the_cards(seed, trump):
    rng = random.Random(seed)
    t = Trump(trump)
    lane = rng.choice(sorted({t.lane(c) for c in PACK}))
    pool = [c for c in sorted(set(PACK), key=lambda c: c.index) if rng.random() < 0.6 or t.lane(c) == lane]
    cards = [c for c in rng.sample(pool, min(len(pool), rng.randint(0, 14))) for _ in range(rng.choice((1, 2, 2)))]
    rng.shuffle(cards)
    assert pair_runs(cards, t) == reference_pair_runs(cards, t)
    assert pair_runs(iter(cards), t) == reference_pair_runs(cards, t)


def test_M2_pair_runs_keeps_tied_2s_in_the_order_first_met():
    spades = Trump("♠")
    for text in ("♣2 ♦2 ♦2 ♣2", "♦2 ♣2 ♣2 ♦2", "♦2 ♥2 ♦2 ♣2 ♥2 ♣2"):
        cards = parse_cards(text)
        assert pair_runs(cards, spades) == reference_pair_runs(cards, spades), text


@settings(max_examples=500, deadline=None)
@given(seeds, trumps)
def test_M2_tractor_top_is_is_tractor(seed, trump):
    rng = random.Random(seed)
    t = Trump(trump)
    lane = rng.choice(sorted({t.lane(c) for c in PACK}))
    same = sorted((c for c in set(PACK) if t.lane(c) == lane), key=lambda c: c.index)
    start = rng.randrange(len(same))
    picks = same[start:start + rng.randint(1, 4)] if rng.random() < 0.6 else rng.sample(same, min(len(same), 3))
    cards = [c for c in picks for _ in range(2)]
    if rng.random() < 0.2:
        cards[-1] = rng.choice(list(PACK))
        if max(Counter(cards).values()) > 2:
            return
    rng.shuffle(cards)
    top = tractor_top(cards, t)
    assert (top is not None) is is_tractor(cards, t)
    if top is not None:
        assert top is reference_pair_runs(cards, t)[0][0]


@settings(max_examples=300, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=7))
def test_choose_multiset_is_the_reference(seed, k):
    rng = random.Random(seed)
    cards = sorted(rng.sample(sorted(set(PACK), key=lambda c: c.index), rng.randint(0, 9)), key=lambda c: c.index)
    items = [(c, rng.choice((1, 1, 2))) for c in cards]
    start = rng.randint(0, len(items))
    assert list(choose_multiset(items, k, start)) == list(reference_choose_multiset(items, k, start))


# --------------------------------------------------------------------------- W0–W5: the follow


@settings(max_examples=500, deadline=None)
@given(seeds, trumps)
def test_W_is_legal_follow_is_check_follow_on_random_plays(seed, trump):
    hand, lead = position(seed, trump)
    rng = random.Random(seed ^ 0x1234)
    fresh = FollowPosition(hand, lead, trump)
    candidates = [tuple(rng.sample(hand, len(lead))) for _ in range(6)]
    candidates += [legal_follows(hand, lead, trump).random(rng)]
    candidates += [tuple(rng.sample(hand, max(1, len(lead) - 1))), (hand[0],) * min(3, len(lead))]
    for play in candidates:
        if max(Counter(play).values()) > 2:
            continue
        verdict = check_follow(hand, lead, play, trump)
        assert is_legal_follow(hand, lead, play, trump) is verdict.legal, (hand, lead, play)
        assert fresh.allows(parse_cards(play)) is verdict.legal
        assert fresh.check(play) == verdict


@settings(max_examples=400, deadline=None)
@given(seeds, trumps)
def test_W_legal_follows_are_the_reference_in_the_same_order(seed, trump):
    hand, lead = position(seed, trump)
    p = follow_position(hand, lead, trump)
    expected = list(reference_legal_follows(FollowPosition(hand, lead, trump)))[:5000]
    assert list(legal_follows(hand, lead, trump))[:5000] == expected
    assert legal_follows(hand, lead, trump).first() == expected[0]
    assert list(legal_follows(hand, lead, trump))[:5000] == expected, "asked again: the same"
    for s in range(3):
        assert legal_follows(hand, lead, trump).random(random.Random(s)) == reference_random_follow(p, random.Random(s))


def test_W_a_position_asked_twice_is_analysed_once():
    hand, lead = parse_cards("♥7 ♥7 ♥3 ♠4"), parse_cards("♥9 ♥9")
    assert follow_position(hand, lead, "♠") is follow_position(hand, lead, Trump("♠"))
    assert follow_position(hand, lead, "♠") is not follow_position(hand, lead, "♥")


# --------------------------------------------------------------------------- B1, R1–R5, T6: the trick


@settings(max_examples=600, deadline=None)
@given(seeds)
def test_B1_trick_winner_is_explain_trick_on_random_tricks(seed):
    trump, plays, _ = trick(seed)
    assert trick_winner(plays, trump) == explain_trick(plays, trump).winner, plays


def test_B1_trick_winner_of_tricks_of_every_kind():
    rows = [  # plays, trump, winner
        (["♠4 ♠4 ♠3 ♠3", "♠K ♠K ♠Q ♠Q", "♥6 ♥6 ♥5 ♥5", "♥10 ♥10 ♥9 ♥9", "♣4 ♣4 ♦5 ♦6"], "♥", 3),
        (["♠4 ♠4 ♠3 ♠3", "♠K ♠K ♠Q ♠Q", "♠7 ♠7 ♠6 ♠5", "♠10 ♠10 ♠9 ♠9", "♣4 ♣4 ♦5 ♦6"], "♥", 1),
        (["♠4 ♠4 ♠3 ♠3", "♥6 ♥6 ♥4 ♥4", "♥8 ♥8 ♥7 ♥7", "♠K ♠K ♠Q ♠Q", "♣4 ♣4 ♦5 ♦6"], "♥", 2),
        (["♠A ♠K ♠K", "♠3 ♠4 ♠5", "♥4 ♥3 ♥3", "♣4 ♣5 ♣6", "♥A ♥9 ♥9"], "♥", 4),
        (["♥A ♥K ♥K", "♥3 ♥4 ♥5", "BJ BJ SJ", "♣4 ♣5 ♣6", "♦4 ♦5 ♦6"], "♥", 0),
        (["SJ SJ BJ BJ", "♥3 ♥3 ♥4 ♥4", "♠2 ♠2 ♥2 ♥2", "♣4 ♣5 ♣6 ♣7", "♦4 ♦5 ♦6 ♦7"], None, 0),
        (["♣2 ♣2", "♦2 ♦2", "♠3 ♠3", "♥2 ♥2", "SJ SJ"], "♥", 4),
    ]
    for plays, trump, winner in rows:
        assert trick_winner(plays, trump) == winner == explain_trick(plays, trump).winner, plays


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_R_check_ruff_is_legal_exactly_when_the_follow_is(seed):
    trump, plays, hands = trick(seed)
    lead = plays[0]
    rng = random.Random(seed)
    for hand, play in zip(hands[1:], plays[1:]):
        for candidate in (play, tuple(rng.sample(hand, len(lead)))):
            verdict = check_ruff(hand, lead, candidate, trump)
            assert verdict.legal is check_follow(hand, lead, candidate, trump).legal
            assert not verdict.ruff or (verdict.legal and verdict.rule in {"R2", "R4", "R5"})
            if verdict.ruff:
                assert shape_of(lead, trump).lane != TRUMP and all(trump.is_trump(c) for c in candidate)


# --------------------------------------------------------------------------- L2–L5: the throw


@settings(max_examples=500, deadline=None)
@given(seeds)
def test_L3_throw_stands_and_check_throw_are_the_reference(seed):
    trump, hands = deal(seed)
    rng = random.Random(seed ^ 0xCAFE)
    throw = lead_from(hands[0], trump, rng)
    others = hands[1:]
    result = check_throw(throw, others, trump)
    assert throw_stands(throw, others, trump) is result.ok
    assert result.beaten == reference_beaten(throw, others, trump)
    assert result.ok is (not result.beaten)
