"""The fast paths decide as the explained paths on 100,000 random positions each.

The rules module answers "is this legal?" and "who wins?" by short paths on card
indices (:func:`~tutor.rules.follow.is_legal_follow`, :func:`~tutor.rules.trick.trick_winner`,
:func:`~tutor.rules.trick.winner_so_far`, :func:`~tutor.rules.throw.throw_stands`,
:func:`~tutor.rules.ruff.ruff_rank`) and, for a learner, by the explained paths that build a
verdict (``check_follow``, ``explain_trick``, ``check_throw``, ``check_ruff``;
``check_follow`` itself takes the short path for a legal play, so the follow is also asked
of :meth:`FollowPosition.check <tutor.rules.follow.FollowPosition.check>`, which goes
through every rule). Here both answer the same question on at least 100,000 positions per
function, drawn from random deals so that every rule of the follow, the ruff, the throw and
the trick comes up: leads of singles, pairs, tractors and throws (W1–W5, M1–M3, L2),
followers with and without cards of the led suit (R1–R5), legal plays, random plays and
plays one card away from legal. (Whole hands played on integers and replayed through
:class:`~tutor.rules.game.Game`: ``tests/test_rollout.py``.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tutor.rules.cards import PACK, PLAYERS, Card, Cards
from tutor.rules.combos import shape_of
from tutor.rules.follow import FollowPosition, check_follow, is_legal_follow, legal_follows
from tutor.rules.order import TRUMP, Trump
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.ruff import check_ruff, ruff_rank
from tutor.rules.throw import check_throw, throw_stands
from tutor.rules.trick import explain_trick, trick_winner, winner_so_far

pytestmark = pytest.mark.slow

POSITIONS = 100_000
CHUNKS = 4
TRUMPS = [Trump(suit) for suit in ("♠", "♥", "♣", "♦", None)]
VARIANT = Ruleset(throw_follow_duty="pairs")


def _deal(rng: random.Random) -> tuple[Trump, list[list[Card]], list[Card]]:
    """A random trump, five hands of 20 and the 8 cards left."""
    trump = rng.choice(TRUMPS)
    deck = list(PACK)
    rng.shuffle(deck)
    return trump, [deck[i * 20:(i + 1) * 20] for i in range(PLAYERS)], deck[100:]


def _void(hands: list[list[Card]], spare: list[Card], lane: int, trump: Trump, rng: random.Random) -> None:
    """Make a random follower short of ``lane`` (a side suit), its cards of it swapped for
    cards left over (``spare``, which takes them), so that ruffs and discards come up as often as follows (R1–R5, W6)."""
    seat = rng.randrange(1, PLAYERS)
    keep = [c for c in hands[seat] if trump.lane(c) != lane]
    other = [c for c in spare if trump.lane(c) != lane]
    if len(keep) + len(other) >= 20:
        given = other[:20 - len(keep)]
        spare[:] = [c for c in spare if c not in given] + [c for c in hands[seat] if trump.lane(c) == lane]
        hands[seat] = keep + given


def _lead(hand: list[Card], trump: Trump, rng: random.Random) -> tuple[Card, ...]:
    """A lead from ``hand``: one component of a suit (a single, a pair, a tractor), or a
    throw of two or three of them (L2)."""
    by_lane: dict[int, list[Card]] = {}
    for card in hand:
        by_lane.setdefault(trump.lane(card), []).append(card)
    cards = by_lane[rng.choice(sorted(by_lane))]
    components = [c.cards for c in shape_of(cards, trump).components]
    rng.shuffle(components)
    if rng.random() < 0.3 and len(components) > 1:
        return tuple(card for combo in components[:rng.randint(2, 3)] for card in combo)
    longest = max(components, key=len)
    return longest if rng.random() < 0.5 else components[0]


def _plays(hand: list[Card], lead: tuple[Card, ...], trump: Trump, rules: Ruleset,
           rng: random.Random) -> Iterator[tuple[Card, ...]]:
    """Plays to ask about: a legal follow, a random choice of as many cards, and a legal
    follow with one card changed."""
    n = len(lead)
    legal = tuple(legal_follows(hand, lead, trump, rules=rules).random(rng))
    yield legal
    yield tuple(rng.sample(hand, n))
    others = list(hand)
    for card in legal:
        others.remove(card)
    if others:
        changed = list(legal)
        changed[rng.randrange(n)] = rng.choice(others)
        yield tuple(changed)


def _positions(chunk: int) -> Iterator[tuple[Trump, list[list[Card]], tuple[Card, ...], Ruleset, random.Random]]:
    """Random positions: the trump, five hands, a lead from the first, and the rules (the
    variant of W5 one time in five)."""
    rng = random.Random(f"fast-paths-{chunk}")
    while True:
        trump, hands, spare = _deal(rng)
        lead = _lead(hands[0], trump, rng)
        lane = trump.lane(lead[0])
        if lane != TRUMP and rng.random() < 0.6:
            _void(hands, spare, lane, trump, rng)
            if rng.random() < 0.5:  # a second follower short of it too: over-ruffs (R4, R5)
                _void(hands, spare, lane, trump, rng)
        yield trump, hands, lead, VARIANT if rng.random() < 0.2 else DEFAULT_RULES, rng


def _follow(hand: list[Card], lead: tuple[Card, ...], trump: Trump, rules: Ruleset,
            rng: random.Random) -> tuple[Card, ...]:
    """A random legal follow, a ruff (all trumps) more often than at random when the hand
    is out of the led suit."""
    follows = legal_follows(hand, lead, trump, rules=rules)
    plays = [tuple(follows.random(rng)) for _ in range(8)]
    ruffs = [play for play in plays if all(trump.is_trump(card) for card in play)]
    return ruffs[0] if ruffs and rng.random() < 0.7 else plays[0]


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_is_legal_follow_is_check_follows_verdict(chunk: int) -> None:
    checked = legal = 0
    kinds: set[str] = set()
    for trump, hands, lead, rules, rng in _positions(chunk):
        kinds.add("throw" if shape_of(lead, trump).is_throw else str(shape_of(lead, trump).kind))
        for hand in hands[1:]:
            for play in _plays(hand, lead, trump, rules, rng):
                verdict = FollowPosition(hand, lead, trump, rules).check(play)  # the explained path, every step
                assert is_legal_follow(Cards(hand), lead, play, trump, rules=rules) is verdict.legal, \
                    (Cards(hand), Cards(lead), Cards(play), trump, verdict.reason)
                assert check_follow(Cards(hand), lead, play, trump, rules=rules).legal is verdict.legal
                checked += 1
                legal += verdict.legal
        if checked >= POSITIONS // CHUNKS:
            break
    assert len(kinds) == 4 and 0.3 < legal / checked < 0.9, (kinds, legal, checked)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_trick_winner_and_the_winner_so_far_are_explain_tricks(chunk: int) -> None:
    checked = ruffed = 0
    for trump, hands, lead, rules, rng in _positions(100 + chunk):
        trick = [lead] + [_follow(hand, lead, trump, rules, rng) for hand in hands[1:]]
        if shape_of(lead, trump).is_throw and not check_throw(lead, hands[1:], trump, rules=rules).ok:
            continue  # a failed throw is settled before the trick (L4)
        for size in range(2, PLAYERS + 1):
            plays = trick[:size]
            outcome = explain_trick(plays, trump)
            assert trick_winner(plays, trump) == outcome.winner, (plays, trump)
            assert winner_so_far(plays, trump) == outcome.winner, (plays, trump)
            checked += 1
            ruffed += "R" in "".join(outcome.rules)
        if checked >= POSITIONS // CHUNKS:
            break
    assert ruffed > checked // 50, (ruffed, checked)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_throw_stands_is_check_throws_answer(chunk: int) -> None:
    checked = stands = 0
    rng = random.Random(f"throws-{chunk}")
    while checked < POSITIONS // CHUNKS:
        trump, hands, _ = _deal(rng)
        for hand in hands:
            lead = _lead(hand, trump, rng)
            if len(lead) < 2:
                continue
            others = [h for h in hands if h is not hand]
            answer = check_throw(lead, others, trump).ok
            assert throw_stands(lead, others, trump) is answer, (lead, trump)
            checked += 1
            stands += answer
    assert 0.05 < stands / checked < 0.95, (stands, checked)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_ruff_rank_is_check_ruffs_verdict(chunk: int) -> None:
    """A legal play of a hand out of the led side suit: :func:`~tutor.rules.ruff.ruff_rank` (what
    the trick's winner is found by) makes it a ruff, and one over the ruff before it, exactly
    when :func:`~tutor.rules.ruff.check_ruff` says so (R1–R5)."""
    checked = ruffs = over = 0
    for trump, hands, lead, rules, rng in _positions(200 + chunk):
        shape = shape_of(lead, trump)
        if shape.lane == TRUMP:
            continue
        beat: tuple[Card, ...] | None = None
        for hand in hands[1:]:
            if any(trump.lane(card) == shape.lane for card in hand):
                continue
            play = _follow(hand, lead, trump, rules, rng)
            rank = ruff_rank(shape, play, trump)
            verdict = check_ruff(hand, lead, play, trump, rules=rules)
            assert verdict.legal and verdict.ruff is (rank is not None), (Cards(hand), Cards(lead), Cards(play))
            if beat is not None and rank is not None:
                higher = rank.order > ruff_rank(shape, beat, trump).order  # type: ignore[union-attr]
                assert check_ruff(hand, lead, play, trump, beat=beat, rules=rules).ruff is higher, (play, beat)
                over += 1
            if rank is not None and beat is None:
                beat = play
            checked += 1
            ruffs += rank is not None
        if checked >= POSITIONS // CHUNKS:
            break
    assert ruffs > checked // 5 and over > checked // 200, (ruffs, over, checked)
