"""Property tests: notation round-trips, legal_follows vs check_follow, trick winners
against a reference for single leads, split, throws, kitty and score invariants."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tutor import (
    PACK,
    Kind,
    Trump,
    check_follow,
    check_throw,
    kitty_multiplier,
    legal_follows,
    parse_cards,
    score_hand,
    split,
    trick_winner,
)

TRUMPS = ["♠", "♥", "♣", "♦", None]
seeds = st.integers(min_value=0, max_value=2**32 - 1)
trumps = st.sampled_from(TRUMPS)
LETTER = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}


def deal(seed: int, k: int) -> list:
    """``k`` cards from a shuffled pack: never more than two copies of a card."""
    deck = list(PACK)
    random.Random(seed).shuffle(deck)
    return deck[:k]


# --------------------------------------------------------------------------- N1–N3


@settings(max_examples=400, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=30))
def test_N3_format_then_parse_round_trips(seed, k):
    cards = deal(seed, k)
    text = " ".join(str(c) for c in cards)
    assert parse_cards(text) == tuple(cards)
    for c in cards:
        s = str(c)
        assert s in ("BJ", "SJ") or (s[0] in "♠♥♣♦" and s[1:] in
                                    {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"})


@settings(max_examples=400, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=30), st.booleans(), st.booleans())
def test_N2_grouped_letters_lower_case_parse_to_the_same_multiset(seed, k, letters, lower):
    cards = deal(seed, k)
    groups: dict[str, list[str]] = {}
    words = []
    for c in cards:
        s = str(c)
        if s in ("BJ", "SJ"):
            words.append(s.lower() if lower else s)
        else:
            groups.setdefault(s[0], []).append("T" if s[1:] == "10" and letters else s[1:])
    for suit, ranks in groups.items():
        word = (LETTER[suit] if letters else suit) + "".join(ranks)
        if word == "SJ":  # N2: the token SJ on its own is the small joker
            word = "♠J"
        words.append(word.lower() if lower else word)
    random.Random(seed).shuffle(words)
    assert Counter(parse_cards(", ".join(words))) == Counter(cards)


# --------------------------------------------------------------------------- W: legal_follows


def position(seed: int, trump):
    """A lead of 1–6 cards of one effective suit and a follower's hand of 4–14 cards,
    both rich in pairs and runs (cards are drawn with their twins half the time)."""
    rng = random.Random(seed)
    t = Trump(trump)
    left = Counter(PACK)
    lane = rng.choice(sorted({t.lane(c) for c in left}))

    def draw(pool, size):
        pool = sorted(pool, key=lambda c: (t.order(c), str(c)))
        start = rng.randrange(len(pool))
        window = pool[start:start + 8] or pool
        out = []
        while len(out) < size and any(left[c] for c in pool):
            c = rng.choice(window if rng.random() < 0.7 else pool)
            if not left[c]:
                continue
            k = 2 if rng.random() < 0.5 and left[c] == 2 and len(out) + 2 <= size else 1
            out += [c] * k
            left[c] -= k
        return out

    same = [c for c in left if t.lane(c) == lane]
    lead = draw(same, rng.randint(1, 6))
    size = rng.randint(max(4, len(lead)), 14)
    hand = draw([c for c in left if t.lane(c) == lane], rng.randint(0, min(size, 10)))
    hand += draw([c for c in left if t.lane(c) != lane], size - len(hand))
    rng.shuffle(hand)
    return tuple(hand), tuple(lead)


@settings(max_examples=400, deadline=None)
@given(seeds, trumps)
def test_W_every_yielded_play_passes_check_follow_and_one_exists(seed, trump):
    hand, lead = position(seed, trump)
    plays = list(legal_follows(hand, lead, trump))
    assert plays, "a legal follow always exists"
    keys = [tuple(sorted(p)) for p in plays]
    assert len(keys) == len(set(keys)), "each legal play is yielded once"
    held = Counter(hand)
    for p in plays[:40]:
        assert len(p) == len(lead)
        assert not Counter(p) - held
        assert check_follow(hand, lead, p, trump).legal


@settings(max_examples=400, deadline=None)
@given(seeds, trumps)
def test_W_check_follow_agrees_with_legal_follows_on_random_plays(seed, trump):
    hand, lead = position(seed, trump)
    follows = legal_follows(hand, lead, trump)
    rng = random.Random(seed ^ 0x5A5A)
    for _ in range(8):
        play = tuple(rng.sample(hand, len(lead)))
        verdict = check_follow(hand, lead, play, trump)
        assert verdict.legal == (play in follows)
        if not verdict.legal:
            assert verdict.rule in {"W2", "W3", "W4", "W5"}
            assert verdict.example is not None
            assert check_follow(hand, lead, verdict.example, trump).legal


# --------------------------------------------------------------------------- B1, T6


def reference_single_winner(cards, trump) -> int:
    """Single lead: the highest trump if any trump was played to a side-suit lead,
    else the highest card of the led suit; ties go to the earlier card (T4–T6, B1, R2)."""
    t = Trump(trump)
    led = t.lane(cards[0])
    def counts(i):
        c = cards[i]
        return t.lane(c) == led or t.is_trump(c)
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if not counts(i):
            continue
        if t.is_trump(c) and not t.is_trump(b):
            best = i
        elif t.lane(c) == t.lane(b) and t.order(c) > t.order(b):
            best = i
    return best


@settings(max_examples=600, deadline=None)
@given(seeds, trumps, st.booleans())
def test_B1_single_trick_matches_reference_and_later_twin_never_wins(seed, trump, twin):
    cards = deal(seed, 5)
    if twin:
        # the lead's twin is played later (both copies exist in the pack)
        cards[random.Random(seed).randint(1, 4)] = cards[0]
        if Counter(cards)[cards[0]] > 2:
            return
    winner = trick_winner([[c] for c in cards], trump)
    assert winner == reference_single_winner(cards, trump)
    for j in range(1, 5):
        if cards[j] in cards[:j]:
            assert winner != j, "T6: a card identical to an earlier one never wins"


# --------------------------------------------------------------------------- L2, L4, L5


@settings(max_examples=400, deadline=None)
@given(seeds, trumps)
def test_L2_split_is_a_partition_in_canonical_order(seed, trump):
    hand, lead = position(seed, trump)
    comps = split(lead, trump)
    assert Counter(c for comp in comps for c in comp.cards) == Counter(lead)
    rank = [(0, -c.pairs) if c.kind is Kind.TRACTOR else (1 if c.kind is Kind.PAIR else 2, 0) for c in comps]
    assert rank == sorted(rank)
    for comp in comps:
        assert len(comp.cards) == {Kind.SINGLE: 1, Kind.PAIR: 2}.get(comp.kind, 2 * comp.pairs)


@settings(max_examples=400, deadline=None)
@given(seeds, trumps)
def test_L4_L5_throw_result_is_consistent(seed, trump):
    rng = random.Random(seed)
    deck = list(PACK)
    rng.shuffle(deck)
    t = Trump(trump)
    lane = t.lane(deck[0])
    same = [c for c in deck if t.lane(c) == lane]
    throw = same[: rng.randint(2, 6)]
    rest = [c for c in deck]
    for c in throw:
        rest.remove(c)
    others = [rest[i * 20:(i + 1) * 20] for i in range(4)]
    result = check_throw(throw, others, trump)
    if result.ok:
        assert result.penalty == 0 and result.options == ()
    else:
        assert result.penalty == 5 * len(throw)
        assert result.options
        for option in result.options:
            assert not Counter(option) - Counter(throw)
            assert len(split(option, trump)) == 1, "each option is one component of the throw"


# --------------------------------------------------------------------------- X2, S1–S3


@settings(max_examples=400, deadline=None)
@given(seeds, trumps)
def test_X2_multiplier_is_two_to_one_plus_pairs(seed, trump):
    _, lead = position(seed, trump)
    pairs = sum(k // 2 for k in Counter(lead).values())
    assert kitty_multiplier(lead, trump) == 2 ** (1 + pairs)


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=-60, max_value=120).map(lambda x: 5 * x), st.integers(min_value=1, max_value=6),
       st.booleans())
def test_S1_S2_S3_rows_sum_to_zero_and_scale(points, declarations, solo):
    base = score_hand(points, solo=solo)
    result = score_hand(points, declarations=declarations, solo=solo)
    for who in ("declarer", "friend", "attacker"):
        assert result[who] == declarations * base[who]
    if solo:
        assert result["friend"] == 0
        assert result["declarer"] + 4 * result["attacker"] == 0
    else:
        assert result["declarer"] + result["friend"] + 3 * result["attacker"] == 0
        assert result["declarer"] == -2 * result["attacker"] and result["friend"] == -result["attacker"]


def test_S1_attacker_value_never_falls_as_A_rises_from_zero():
    values = [score_hand(a)["attacker"] for a in range(0, 605, 5)]
    assert values == sorted(values)
