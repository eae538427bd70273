"""Executable rule book, part 2: leading, throwing, following, ruffing, winning tricks.

Rules L1–L5, W0–W6, R1–R5, B1–B3 of shared/RULES.md. Rows look like the position:
hand, lead, play and trump in card notation. Every pytest id starts with the rule ID.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tutor import (
    InvalidPlayError,
    Kind,
    check_follow,
    check_ruff,
    check_throw,
    legal_follows,
    parse_cards,
    split,
    trick_winner,
)
from tutor.rules.verdict import cited_rules

P = pytest.param


def key(cards) -> tuple[str, ...]:
    """A multiset of cards as a sorted tuple of canonical texts."""
    return tuple(sorted(str(c) for c in parse_cards(cards)))


def rules_ok(actual, expected) -> bool:
    """``expected`` is one rule ID, or a tuple of IDs when RULES.md lets either be named."""
    return actual in expected if isinstance(expected, tuple) else actual == expected


# --------------------------------------------------------------------------- L1, L2


@pytest.mark.parametrize(
    "call",
    [
        P(lambda: check_follow("♥3 ♣4", "♠A ♥A", "♥3 ♣4", "♣"), id="L1-check_follow-lead-two-side-suits"),
        P(lambda: check_follow("♥3 ♣4", "♠A ♠2", "♥3 ♣4", "♥"), id="L1-check_follow-side-card-with-a-2"),
        P(lambda: check_follow("♥3 ♣4", "BJ ♠A", "♥3 ♣4", "♥"), id="L1-check_follow-joker-with-side-card"),
        P(lambda: check_follow("♠3 ♣4", "♥A ♠K", "♠3 ♣4", None), id="L1-check_follow-no-trump-mixed"),
        P(lambda: list(legal_follows("♥3 ♣4", "♠A ♥A", "♣")), id="L1-legal_follows-mixed"),
        P(lambda: trick_winner(["♠A ♥A", "♣3 ♣4"], "♦"), id="L1-trick_winner-mixed"),
        P(lambda: check_throw("♠A ♥A", ["♣3"], "♦"), id="L1-check_throw-mixed"),
        P(lambda: check_ruff("♥3 ♥4", "♠A ♣A", "♥3 ♥4", "♥"), id="L1-check_ruff-mixed"),
    ],
)
def test_L1_lead_mixing_effective_suits_is_refused(call):
    with pytest.raises(InvalidPlayError):
        call()


@pytest.mark.parametrize(
    "hand, lead, trump",
    [
        P("♦3 ♦4", "♥A ♠2", "♥", id="L1-trump-ace-and-off-suit-2-one-suit"),
        P("♦3 ♦4 ♦5", "BJ ♥A ♣2", "♥", id="L1-joker-trump-ace-club-2-one-suit"),
        P("♦3 ♦4 ♦5", "BJ ♥2 ♠2", None, id="L1-no-trump-jokers-and-2s-one-suit"),
    ],
)
def test_L1_all_trumps_is_one_effective_suit(hand, lead, trump):
    # The lead is accepted; a follower void in trumps may play anything.
    assert check_follow(hand, lead, hand, trump).legal


def components(cards, trump):
    return [(c.kind, key(c.cards)) for c in split(cards, trump)]


@pytest.mark.parametrize(
    "cards, trump, expected",
    [
        P("♠3", "♥", [(Kind.SINGLE, "♠3")], id="L2-single"),
        P("♠33", "♥", [(Kind.PAIR, "♠33")], id="L2-pair"),
        P("♠4433", "♥", [(Kind.TRACTOR, "♠4433")], id="L2-tractor"),
        P("♠AAK", "♥", [(Kind.PAIR, "♠AA"), (Kind.SINGLE, "♠K")], id="L2-pair-and-single"),
        P("♠AAKK5", "♥", [(Kind.TRACTOR, "♠AAKK"), (Kind.SINGLE, "♠5")], id="L2-tractor-and-single"),
        P("♠QQ1010", "♥", [(Kind.PAIR, "♠QQ"), (Kind.PAIR, "♠1010")], id="L2-gap-makes-two-pairs"),
        P("♠AA33", "♥", [(Kind.PAIR, "♠AA"), (Kind.PAIR, "♠33")], id="L2-A-and-3-two-pairs"),
        P("♠554433 ♠K", "♥", [(Kind.TRACTOR, "♠554433"), (Kind.SINGLE, "♠K")], id="L2-3-tractor-and-single"),
        P("♥AAKQQJJ5", "♠", [(Kind.TRACTOR, "♥QQJJ"), (Kind.PAIR, "♥AA"), (Kind.SINGLE, "♥K"),
                             (Kind.SINGLE, "♥5")], id="L2-tractor-pair-singles"),
        P("♠AAKKQQ ♠7766 ♠3", "♥", [(Kind.TRACTOR, "♠AAKKQQ"), (Kind.TRACTOR, "♠7766"), (Kind.SINGLE, "♠3")],
          id="L2-longest-tractor-first"),
        P("BJ BJ SJ SJ ♥2♥2 ♠2", "♥", [(Kind.TRACTOR, "BJ BJ SJ SJ"), (Kind.PAIR, "♥2♥2"), (Kind.SINGLE, "♠2")],
          id="L2-trump-joker-tractor-2-pair-2-single"),
        P("♥2♥2 ♠2♠2", "♥", [(Kind.PAIR, "♥2♥2"), (Kind.PAIR, "♠2♠2")], id="L2-2-pairs-never-a-tractor"),
        P("♠2 ♣2", "♥", [(Kind.SINGLE, "♠2"), (Kind.SINGLE, "♣2")], id="L2-off-suit-2s-two-singles"),
    ],
)
def test_L2_canonical_split(cards, trump, expected):
    got = components(cards, trump)
    want = [(kind, key(text)) for kind, text in expected]
    assert sorted(got, key=repr) == sorted(want, key=repr)
    # longest tractors first, then pairs, then singles
    rank = [(0, -c.pairs) if c.kind is Kind.TRACTOR else (1 if c.kind is Kind.PAIR else 2, 0)
            for c in split(cards, trump)]
    assert rank == sorted(rank)
    assert Counter(c for comp in split(cards, trump) for c in comp.cards) == Counter(parse_cards(cards))


# --------------------------------------------------------------------------- L2–L5 throws


def options_key(options):
    return sorted(key(o) for o in options)


THROWS = [
    # throw, other hands, trump, ok, options (each one notation string), penalty
    P("♠3", ["♠AK", "♠QQ"], "♥", True, [], 0, id="L2-single-lead-always-stands"),
    P("♠33", ["♠AA", "♠KK"], "♥", True, [], 0, id="L2-pair-lead-always-stands"),
    P("♠4433", ["♠AAKK", "♠QQJJ"], "♥", True, [], 0, id="L2-tractor-lead-always-stands"),
    P("♠AK", ["♠QJ", "♥AA"], "♥", True, [], 0, id="L3-top-singles-succeed"),
    P("♠AK", ["♣3", "♥AA BJ"], "♥", True, [], 0, id="L3-trumps-do-not-fail-a-side-throw"),
    P("♠AK", ["♠A"], "♥", False, ["♠K"], 10, id="L3-higher-single-fails-it"),
    P("♠AAK", ["♠QQ", "♠J"], "♥", True, [], 0, id="L3-pair-and-single-unbeatable"),
    P("♠1010 ♠99 ♠A", ["♠KK", "♠QQ", "♠A"], "♥", True, [], 0, id="L3-alone-two-players-pairs-not-a-tractor"),
    P("♠1010 ♠99 ♠A", ["♠KKQQ"], "♥", False, ["♠101099"], 25, id="L3-one-player-higher-tractor"),
    P("♠1010 ♠99 ♠3", ["♠KKQQJJ"], "♥", False, ["♠3", "♠101099"], 25, id="L3-longer-tractor-beats-and-single"),
    P("♠AA ♠6655", ["♠1010 ♠9988"], "♥", False, ["♠6655"], 30, id="L3-longer-higher-tractor-beats-tractor"),
    P("♠AA ♠6655", ["♠4433", "♠77"], "♥", True, [], 0, id="L3-lower-tractor-and-pair-do-not-beat"),
    P("♠A ♠QQ", ["♠KK"], "♥", False, ["♠QQ"], 15, id="L4-only-pairs-beaten-smallest-pair"),
    P("♠A ♠K ♠3", ["♠4"], "♥", False, ["♠3"], 15, id="L4-only-singles-beaten"),
    P("♠A ♠K ♠Q ♠9 ♠8 ♠7", ["♠10"], "♥", False, ["♠7"], 30, id="L4-source-6-card-throw-30-points"),
    P("♠A ♠QQ ♠3", ["♠KK"], "♥", False, ["♠3", "♠QQ"], 20, id="L4-singles-and-pairs-beaten-either"),
    P("♠A ♠QQ ♠3", ["♠K", "♠4"], "♥", False, ["♠3"], 20, id="L4-pair-holder-none-single-beaten"),
    P("♠AA ♠88 ♠33", ["♠99"], "♥", False, ["♠33"], 30, id="L4-smallest-pair-of-three"),
    P("♠AA ♠88 ♠33", ["♠44"], "♥", False, ["♠33"], 30, id="L4-only-smallest-pair-beaten"),
    P("♠AA ♠8877", ["♠1010 ♠99"], "♥", False, ["♠8877"], 30, id="L4-tractor-beaten-smallest-tractor"),
    P("♠AAKK ♠8877", ["♠QQJJ"], "♥", False, ["♠8877"], 40, id="L4-smallest-tractor-of-that-length"),
    P("♠AAKKQQ ♠6655", ["♠10 ♠10 ♠99 ♠88"], "♥", False, ["♠6655"], 50, id="L4-3-tractor-beats-2-tractor-only"),
    P("♠QQJJ ♠99", ["♠AAKK"], "♥", False, ["♠QQJJ", "♠99"], 30, id="L4-tractor-and-pair-both-beaten"),
    P("BJ BJ ♥A", ["SJ SJ"], "♥", False, ["♥A"], 15, id="L3-trump-throw-single-beaten-by-joker"),
    P("BJ ♥A", ["BJ"], "♥", False, ["♥A"], 10, id="L3-twin-big-joker-ties-joker-beats-ace"),
    P("♥AA ♥K", ["♠2♠2"], "♥", False, ["♥K", "♥AA"], 15, id="L3-off-suit-2-pair-beats-trump-pair"),
    P("♥AA ♥K", ["♠2 ♣2"], "♥", False, ["♥K"], 15, id="L3-two-off-suit-2s-are-not-a-pair"),
    P("♥2 ♠2", ["♣2"], "♥", True, [], 0, id="L3-off-suit-2-ties-not-beats"),
    P("♥2 ♠2", ["SJ"], "♥", False, ["♠2"], 10, id="L4-smallest-single-off-suit-2"),
    P("♠KK ♠Q", ["♠AA"], "♥", False, ["♠Q", "♠KK"], 15, id="L4-ace-pair-beats-pair-and-single"),
    P("♠JJ1010 ♠99 ♠3", ["♠AAKK"], "♥", False, ["♠3"], 35, id="L3-shorter-tractor-cannot-beat-longer"),
    P("♠AA ♠3", ["♠KKQQ"], "♥", False, ["♠3"], 15, id="L3-tractor-does-not-beat-a-pair"),
    P("♠887766 ♠KKQQ", ["♠JJ1010 ♠99"], "♥", False, ["♠887766"], 50, id="L4-3-tractor-beaten-by-higher-3-run"),
    P("BJ BJ SJ", ["SJ"], None, True, [], 0, id="L3-no-trump-twin-small-joker-ties"),
    P("♠KQ", ["♠A", "♥AA", "BJ BJ"], "♣", False, ["♠Q"], 10, id="L3-one-higher-single-anywhere"),
]


@pytest.mark.parametrize("throw, others, trump, ok, options, penalty", THROWS)
def test_L2_L5_throws(throw, others, trump, ok, options, penalty):
    result = check_throw(throw, others, trump)
    assert result.ok is ok
    assert options_key(result.options) == options_key(options)
    assert result.penalty == penalty


@pytest.mark.parametrize(
    "throw, others, trump",
    [P(t.values[0], t.values[1], t.values[2], id=t.id.replace("L3", "L5", 1).replace("L4", "L5", 1))
     for t in THROWS if not t.values[3]],
)
def test_L5_penalty_is_5_per_card_of_the_attempted_throw(throw, others, trump):
    assert check_throw(throw, others, trump).penalty == 5 * len(parse_cards(throw))


# --------------------------------------------------------------------------- W0–W5 following

FOLLOWS = [
    # hand (includes the play), lead, play, trump, legal, rule broken
    # W0
    P("♠AK ♥3", "♠3", "♠Q", "♥", False, "W0", id="W0-card-not-in-hand"),
    P("♠A ♠K ♠Q", "♠33", "♠AA", "♥", False, "W0", id="W0-second-copy-not-held"),
    P("♠A ♥3", "♠K", "BJ", "♥", False, "W0", id="W0-joker-not-in-hand"),
    # W1 and B3
    P("♠A ♠K ♠Q", "♠33", "♠A", "♥", False, "W1", id="W1-too-few-cards"),
    P("♠A ♠K ♠Q", "♠33", "♠AKQ", "♥", False, "W1", id="W1-too-many-cards"),
    P("♠AKQJ10", "♠5544", "♠AKQ", "♥", False, "W1", id="B3-tractor-lead-needs-four-cards"),
    P("♠AKQJ10", "♠5544", "♠AKQJ", "♥", True, None, id="B3-four-cards-to-a-four-card-lead"),
    # W2
    P("♠A ♥3", "♠5", "♥3", "♥", False, "W2", id="W2-must-follow-suit-not-ruff"),
    P("♠A ♥3", "♠5", "♠A", "♥", True, None, id="W2-follow-suit"),
    P("♣4 ♥3", "♠5", "♥3", "♥", True, None, id="W2-void-may-ruff"),
    P("♣4 ♥3", "♠5", "♣4", "♥", True, None, id="W2-void-may-discard"),
    P("♠2 ♠A", "♥3", "♠A", "♥", False, "W2", id="W2-off-suit-2-must-follow-trump-lead"),
    P("♠2 ♠A", "♥3", "♠2", "♥", True, None, id="W2-off-suit-2-follows-trump-lead"),
    P("♠2 ♣3", "♠K", "♠2", "♥", True, None, id="W2-spade-2-is-not-a-spade"),
    P("♠2 ♣3", "♠K", "♣3", "♥", True, None, id="W2-only-spade-2-means-void-in-spades"),
    P("♥A ♠2", "♣2", "♥A", None, False, "W2", id="W2-no-trump-2-lead-must-follow-with-2"),
    P("♥A ♠2", "♣2", "♠2", None, True, None, id="W2-no-trump-2-follows-2"),
    P("♥A ♥3 SJ", "♥K", "SJ", None, False, "W2", id="W2-no-trump-hearts-are-a-side-suit"),
    P("♥A ♥3 SJ", "♥K", "♥3", None, True, None, id="W2-no-trump-follow-hearts"),
    P("♠A ♥3 ♥4", "♠K ♠Q", "♠A ♥3", "♣", True, None, id="W2-short-play-all-then-any"),
    P("♠A ♥3 ♥4", "♠K ♠Q", "♥3 ♥4", "♣", False, "W2", id="W2-short-must-play-its-suit-card"),
    P("♠9 ♥A ♣3", "♠QQ", "♠9 ♣3", "♦", True, None, id="W2-short-pair-lead-one-card"),
    P("♠9 ♥A ♣3", "♠QQ", "♥A ♣3", "♦", False, "W2", id="W2-short-pair-lead-must-play-the-spade"),
    P("♠9 ♠8 ♥A", "♠QQ", "♠98", "♦", True, None, id="W2-exactly-n-cards-in-suit"),
    P("♠9 ♠8 ♥A", "♠QQ", "♠9 ♥A", "♦", False, "W2", id="W2-exactly-n-must-play-both"),
    P("♠88 ♠7 ♥3 ♥4", "♠QQJJ", "♠887 ♥3", "♦", True, None, id="W2-short-tractor-lead-all-three-then-any"),
    P("♠88 ♠7 ♥3 ♥4", "♠QQJJ", "♠88 ♥34", "♦", False, "W2", id="W2-short-tractor-lead-kept-a-spade"),
    P("♠8 ♠7 ♥33", "♠QQJJ", "♠87 ♥33", "♥", True, None, id="W2-short-follow-with-trump-pair-is-legal"),
    # W3
    P("♥7♥7♠3", "♥9♥9", "♥7♠3", "♥", False, ("W2", "W3"), id="W3-brief-example-pair-must-follow-with-pair"),
    P("♥77 ♥5 ♠3", "♥99", "♥7 ♥5", "♠", False, "W3", id="W3-pair-must-follow-with-pair"),
    P("♥77 ♥5 ♠3", "♥99", "♥77", "♠", True, None, id="W3-follows-with-pair"),
    P("♠8877 ♠A", "♠QQ", "♠8 ♠7", "♥", False, "W3", id="W3-pair-inside-tractor-counts"),
    P("♠8877 ♠A", "♠QQ", "♠A ♠8", "♥", False, "W3", id="W3-pair-inside-tractor-counts-ace"),
    P("♠8877 ♠A", "♠QQ", "♠88", "♥", True, None, id="W3-either-pair-of-the-tractor-88"),
    P("♠8877 ♠A", "♠QQ", "♠77", "♥", True, None, id="W3-either-pair-of-the-tractor-77"),
    P("♠A ♠K ♥3", "♠QQ", "♠AK", "♥", True, None, id="W3-no-pair-any-two-of-suit"),
    P("♠2 ♣2 ♥3 ♦4", "♥99", "♠2 ♣2", "♥", True, None, id="W3-off-suit-2s-not-a-pair-no-duty"),
    P("♠2 ♣2 ♥3 ♦4", "♥99", "♠2 ♥3", "♥", True, None, id="W3-no-trump-pair-any-two-trumps"),
    P("♠2♠2 ♣2 ♥3", "♥99", "♠2 ♣2", "♥", False, "W3", id="W3-off-suit-2-pair-must-be-played"),
    P("♠2♠2 ♣2 ♥3", "♥99", "♠2♠2", "♥", True, None, id="W3-plays-the-2-pair"),
    P("SJ BJ ♥3", "♥99", "SJ ♥3", "♥", True, None, id="W3-two-different-jokers-not-a-pair"),
    P("SJ SJ ♥3", "♥99", "SJ ♥3", "♥", False, "W3", id="W3-joker-pair-must-be-played"),
    P("♠2 ♥2 ♣A", "SJ SJ", "♠2♥2", None, True, None, id="W3-no-trump-two-2s-no-pair"),
    P("♠2 ♥2 ♣A", "SJ SJ", "♠2 ♣A", None, False, "W2", id="W3-no-trump-must-play-both-2s"),
    # W4
    P("♠8877 ♠A ♠3", "♠QQJJ", "♠8877", "♥", True, None, id="W4-tractor-follows-tractor"),
    P("♠8877 ♠A ♠3", "♠QQJJ", "♠88 ♠A ♠3", "♥", False, "W4", id="W4-must-play-tractor-not-pair"),
    P("♠8877 ♠A ♠3", "♠QQJJ", "♠8 ♠7 ♠A ♠3", "♥", False, "W4", id="W4-must-play-tractor-not-singles"),
    P("♠998877 ♠3", "♠QQJJ", "♠9988", "♥", True, None, id="W4-part-of-longer-run-9988"),
    P("♠998877 ♠3", "♠QQJJ", "♠8877", "♥", True, None, id="W4-part-of-longer-run-8877"),
    P("♠998877 ♠3", "♠QQJJ", "♠99 ♠77", "♥", False, "W4", id="W4-99-77-is-not-a-tractor"),
    P("♠99 ♠77 ♠5 ♠3", "♠QQJJ", "♠9977", "♥", True, None, id="W4-no-tractor-two-pairs"),
    P("♠99 ♠77 ♠5 ♠3", "♠QQJJ", "♠99 ♠5 ♠3", "♥", False, "W4", id="W4-no-tractor-must-play-both-pairs"),
    P("♠99 ♠77 ♠5 ♠3", "♠QQJJ", "♠9 ♠7 ♠5 ♠3", "♥", False, "W4", id="W4-no-tractor-pairs-before-singles"),
    P("♠99 ♠7 ♠5 ♠3", "♠QQJJ", "♠99 ♠7 ♠5", "♥", True, None, id="W4-one-pair-then-any-of-suit"),
    P("♠99 ♠7 ♠5 ♠3", "♠QQJJ", "♠9 ♠7 ♠5 ♠3", "♥", False, "W4", id="W4-one-pair-must-be-played"),
    P("♠AA ♠33 ♠K ♠Q", "♠5544", "♠AA33", "♥", True, None, id="W4-AA33-two-pairs"),
    P("♠AA ♠33 ♠K ♠Q", "♠5544", "♠AA ♠K ♠Q", "♥", False, "W4", id="W4-A-not-after-3-still-two-pairs-due"),
    P("SJ SJ ♥2♥2 ♥3 ♥4 ♠5", "♥AAKK", "SJ SJ ♥2♥2", "♥", True, None, id="W4-joker-pair-2-pair-as-two-pairs"),
    P("SJ SJ ♥2♥2 ♥3 ♥4 ♠5", "♥AAKK", "SJ SJ ♥3♥4", "♥", False, "W4", id="W4-must-play-the-2-pair-too"),
    P("BJ BJ SJ SJ ♥3 ♥4", "♥QQJJ", "BJ BJ SJ SJ", "♥", True, None, id="W4-joker-tractor-follows"),
    P("BJ BJ SJ SJ ♥3 ♥4", "♥QQJJ", "BJ BJ ♥3♥4", "♥", False, "W4", id="W4-joker-tractor-must-be-played"),
    P("♠2♠2 ♣2♣2 ♥5 ♥6", "♥AAKK", "♠2♠2♣2♣2", "♥", True, None, id="W4-two-off-suit-2-pairs"),
    P("♠2♠2 ♣2♣2 ♥5 ♥6", "♥AAKK", "♠2 ♣2 ♥5 ♥6", "♥", False, "W4", id="W4-split-2-pairs-illegal"),
    P("♠2♠2 ♣2♣2 ♥5 ♥6", "♥AAKK", "♠2♠2 ♥5♥6", "♥", False, "W4", id="W4-one-2-pair-of-two-illegal"),
    P("♥2♥2 ♥AA ♥3 ♥4", "♥QQJJ", "♥2♥2♥A♥A", "♥", True, None, id="W4-trump-2-pair-and-ace-pair"),
    P("♥2♥2 ♥AA ♥3 ♥4", "♥QQJJ", "♥2♥2 ♥3♥4", "♥", False, "W4", id="W4-must-add-ace-pair"),
    P("♠8877 ♠44 ♠3", "♠QQJJ1010", "♠887744", "♥", True, None, id="W4-3-tractor-lead-three-pairs"),
    P("♠8877 ♠44 ♠3", "♠QQJJ1010", "♠8877 ♠4 ♠3", "♥", False, "W4", id="W4-3-tractor-lead-pairs-due"),
    P("♠9988 ♠5544 ♠3", "♠QQJJ1010", "♠9988 ♠55", "♥", True, None, id="W4-two-short-tractors-no-3-run"),
    P("♠9988 ♠5544 ♠3", "♠QQJJ1010", "♠9988 ♠5 ♠4", "♥", False, "W4", id="W4-two-short-tractors-three-pairs-due"),
    P("♠QQ ♠1010 ♠6655 ♠3", "♠AAKK", "♠6655", "♥", True, None, id="W4-low-tractor-must-be-played"),
    P("♠QQ ♠1010 ♠6655 ♠3", "♠AAKK", "♠QQ1010", "♥", False, "W4", id="W4-two-high-pairs-are-not-the-tractor"),
    P("♥3 ♠2 ♣5 ♣6 ♣7", "♥AAKK", "♥3 ♠2 ♣5 ♣6", "♥", True, None, id="W2-short-in-trumps-play-all-trumps"),
    P("♥3 ♠2 ♣5 ♣6 ♣7", "♥AAKK", "♥3 ♣5 ♣6 ♣7", "♥", False, "W2", id="W2-short-in-trumps-kept-the-spade-2"),
    P("♠2♠2 ♥2♥2 ♣3", "BJ BJ SJ SJ", "♠2♠2♥2♥2", None, True, None, id="W4-no-trump-two-2-pairs-follow-jokers"),
    P("♠2♠2 ♥2♥2 ♣3", "BJ BJ SJ SJ", "♠2♠2 ♥2 ♣3", None, False, "W2", id="W4-no-trump-2s-are-all-trumps"),
    # W5
    P("♠88 ♠7 ♠6", "♠AA ♠K", "♠8 ♠7 ♠6", "♥", False, "W5", id="W5-throw-pair-component-needs-pair"),
    P("♠88 ♠7 ♠6", "♠AA ♠K", "♠88 ♠6", "♥", True, None, id="W5-throw-pair-and-single"),
    P("♠998877 ♠5 ♥4", "♠AAKK ♠3", "♠9988 ♠5", "♥", True, None, id="W5-3-run-matches-2-tractor"),
    P("♠998877 ♠5 ♥4", "♠AAKK ♠3", "♠8877 ♠9", "♥", True, None, id="W5-lower-piece-of-run-also-matches"),
    P("♠998877 ♠5 ♥4", "♠AAKK ♠3", "♠99 ♠77 ♠8", "♥", False, "W5", id="W5-tractor-must-be-matched"),
    P("♠998877 ♠5 ♥4", "♠AAKK ♠3", "♠9988 ♥4", "♥", False, "W2", id="W5-suit-cards-first"),
    P("♠99 ♠77 ♠5 ♠4", "♠AAKK ♠3", "♠9977 ♠5", "♥", True, None, id="W5-tractor-pairs-count-as-pairs"),
    P("♠99 ♠77 ♠5 ♠4", "♠AAKK ♠3", "♠99 ♠7 ♠5 ♠4", "♥", False, "W5", id="W5-both-pairs-due-for-tractor"),
    P("♠9977 ♠5 ♠4", "♠AA ♠K ♠Q", "♠9977", "♥", True, None, id="W5-extra-pair-allowed"),
    P("♠9977 ♠5 ♠4", "♠AA ♠K ♠Q", "♠99 ♠5 ♠4", "♥", True, None, id="W5-pairs-counted-up-to-lead"),
    P("♠9977 ♠5 ♠4", "♠AA ♠K ♠Q", "♠9 ♠7 ♠5 ♠4", "♥", False, "W5", id="W5-one-pair-due"),
    P("♠66554433 ♠10 ♠9", "♠AAKK ♠8877", "♠66554433", "♥", True, None, id="W5-4-run-matches-two-tractors"),
    P("♠66554433 ♠10 ♠9", "♠AAKK ♠8877", "♠665544 ♠10 ♠9", "♥", False, "W5", id="W5-4-run-must-match-both"),
    P("♠JJ ♠7766 ♠5 ♠3", "♠AAKK ♠99", "♠JJ7766", "♥", True, None, id="W5-tractor-and-pair-follow"),
    P("♠JJ ♠7766 ♠5 ♠3", "♠AAKK ♠99", "♠7766 ♠5 ♠3", "♥", False, "W5", id="W5-pair-after-tractor-due"),
    P("♠JJ ♠7766 ♠5 ♠3", "♠AAKK ♠99", "♠JJ ♠77 ♠5 ♠3", "♥", False, "W5", id="W5-tractor-before-pairs"),
    P("♠99 ♠5", "♠A ♠K", "♠9 ♠5", "♥", True, None, id="W5-singles-throw-no-pair-duty"),
    P("♠99 ♠5", "♠A ♠K", "♠99", "♥", True, None, id="W5-singles-throw-pair-allowed"),
    P("♥2♥2 ♠2 ♠5", "BJ SJ", "♥2 ♠2", "♥", True, None, id="W5-trump-singles-throw"),
    P("♥2♥2 ♠2 ♠5", "BJ SJ", "♠2 ♠5", "♥", False, "W2", id="W5-trump-throw-must-follow-trumps"),
    P("BJ BJ SJ SJ ♥2 ♦2", "♠2♠2♣2♣2", "BJ BJ SJ SJ", None, True, None, id="W5-no-trump-2-pairs-throw"),
    P("BJ BJ SJ SJ ♥2 ♦2", "♠2♠2♣2♣2", "BJ SJ ♥2 ♦2", None, False, "W5", id="W5-no-trump-2-pairs-due"),
    P("♠8 ♠7 ♥3 ♥4", "♠AA ♠K", "♠87 ♥3", "♥", True, None, id="W5-short-throw-follow"),
    P("♠QQ ♠1010 ♠6655 ♠3 ♠4", "♠AAKK ♠8 ♠7", "♠6655 ♠3 ♠4", "♥", True, None, id="W5-tractor-then-any"),
    P("♠QQ ♠1010 ♠6655 ♠3 ♠4", "♠AAKK ♠8 ♠7", "♠6655 ♠QQ", "♥", True, None, id="W5-tractor-and-extra-pair"),
    P("♠QQ ♠1010 ♠6655 ♠3 ♠4", "♠AAKK ♠8 ♠7", "♠QQ1010 ♠3 ♠4", "♥", False, "W5",
      id="W5-tractor-matched-before-pairs"),
]


@pytest.mark.parametrize("hand, lead, play, trump, legal, rule", FOLLOWS)
def test_W_check_follow(hand, lead, play, trump, legal, rule):
    verdict = check_follow(hand, lead, play, trump)
    assert verdict.legal is legal
    assert bool(verdict) is legal
    if legal:
        assert verdict.rule in cited_rules(verdict.reason), verdict  # the rule its reason cites (W2–W5, R1)
        assert verdict.example is None
    else:
        assert rules_ok(verdict.rule, rule), (verdict.rule, rule, verdict.reason)
        assert isinstance(verdict.reason, str) and verdict.reason.strip()
        # the reason names the learner's own cards
        mine = set(parse_cards(hand)) | set(parse_cards(play))
        assert any(str(c) in verdict.reason for c in mine), verdict.reason
        # the example is itself a legal play from this hand
        assert verdict.example is not None
        assert check_follow(hand, lead, verdict.example, trump).legal


@pytest.mark.parametrize("hand, lead, play, trump, legal, rule", FOLLOWS)
def test_W_legal_follows_agrees_with_the_table(hand, lead, play, trump, legal, rule):
    follows = legal_follows(hand, lead, trump)
    cards = parse_cards(play)
    assert (cards in follows) is legal
    assert (tuple(reversed(cards)) in follows) is legal


@pytest.mark.parametrize(
    "hand, lead, trump, expected",
    [
        P("♠8877 ♠A ♠3", "♠QQJJ", "♥", ["♠8877"], id="W4-only-the-tractor"),
        P("♠99 ♠7 ♠5 ♠3", "♠QQJJ", "♥", ["♠99 ♠75", "♠99 ♠73", "♠99 ♠53"], id="W4-pair-plus-any-two"),
        P("♠998877 ♠3", "♠QQJJ", "♥", ["♠9988", "♠8877"], id="W4-either-piece-of-the-run"),
        P("♠66554433 ♠10 ♠9", "♠AAKK ♠8877", "♥", ["♠66554433"], id="W5-only-the-4-run"),
        P("♥3 ♥3 ♣4", "♠5", "♦", ["♥3", "♣4"], id="W2-each-multiset-once"),
        P("♠9 ♥A ♣3", "♠QQ", "♦", ["♠9 ♥A", "♠9 ♣3"], id="W2-short-suit-all-completions"),
        P("♠2 ♣2 ♥3 ♦4", "♥99", "♥", ["♠2 ♣2", "♠2 ♥3", "♣2 ♥3"], id="W3-no-pair-any-two-trumps"),
        P("♠2♠2 ♣2 ♥3", "♥99", "♥", ["♠2♠2"], id="W3-only-the-2-pair"),
        P("♠A", "♠K", "♥", ["♠A"], id="W1-one-card-hand"),
    ],
)
def test_W_legal_follows_exact(hand, lead, trump, expected):
    follows = legal_follows(hand, lead, trump)
    got = [key(p) for p in follows]
    assert sorted(got) == sorted(key(e) for e in expected)
    assert len(got) == len(set(got)), "each legal play once"
    assert follows.count() == len(expected)


# --------------------------------------------------------------------------- R1–R5 ruffing

RUFFS = [
    # hand (includes the play), lead, play, trump, beat (earlier ruff), a winning ruff?, rule
    P("♥3 ♣4", "♠K", "♥3", "♥", None, True, None, id="R1-void-follower-ruffs-a-single"),
    P("♠A ♥3 ♥4", "♠K ♠Q", "♠A ♥3", "♥", None, False, "R1", id="R1-trumps-in-a-short-follow-never-win"),
    P("♠A ♥3", "♠K", "♥3", "♥", None, False, "W2", id="R1-holding-the-led-suit-W2"),
    P("BJ ♠3", "♥5", "BJ", "♥", None, False, "R1", id="R1-trump-lead-cannot-be-ruffed"),
    P("♥3 ♣4", "♠KQ", "♥3 ♣4", "♥", None, False, "R1", id="R1-not-all-trumps-is-a-discard"),
    P("♣3 ♣4", "♠K", "♣3", "♥", None, False, "R1", id="R1-side-card-is-a-discard"),
    P("♣2 ♣4", "♠A", "♣2", "♥", None, True, None, id="R1-off-suit-2-ruffs"),
    P("♣2 ♣4", "♠A", "♣2", None, None, True, None, id="R1-2-ruffs-in-no-trump"),
    P("♣2 ♣4", "♠A", "♣4", None, None, False, "R1", id="R1-club-in-no-trump-is-a-discard"),
    P("SJ ♥3", "♠A", "SJ", None, None, True, None, id="R1-joker-ruffs-in-no-trump"),
    P("♠2 ♣3", "♠K", "♠2", "♥", None, True, None, id="R1-spade-2-ruffs-spades"),
    P("♥977 ♣3", "♠765", "♥977", "♥", None, True, None, id="R2-example-977-ruffs-567"),
    P("♥884 ♣3", "♠765", "♥884", "♥", "♥977", False, "R5", id="R2-example-884-cannot-overruff-977"),
    P("♥KKQ ♣3", "♠753", "♥KKQ", "♥", "♥A43", False, "R5", id="R2-singles-lead-ranked-by-highest-card"),
    P("♥3 SJ", "♠AK", "♥3 SJ", "♥", "♥AK", True, None, id="R2-joker-overruffs-trump-ace"),
    P("♥A43 ♣3", "♠753", "♥A43", "♥", "♥KKQ", True, None, id="R2-ace-high-overruffs-king-pair"),
    P("♥998872 ♣3", "♠AK5544", "♥998872", "♥", None, True, None, id="R3-example-998872-ruffs-AK5544"),
    P("♥998872 ♣3", "♠AA5544", "♥998872", "♥", None, False, "R3", id="R3-example-not-AA5544"),
    P("♥34 ♣5", "♠QQ", "♥34", "♥", None, False, "R3", id="R3-pair-lead-two-trump-singles-discard"),
    P("♥33 ♣5", "♠QQ", "♥33", "♥", None, True, None, id="R3-trump-pair-ruffs-pair"),
    P("♣2 ♦2 ♥5", "♠QQ", "♣2 ♦2", "♥", None, False, "R3", id="R3-two-off-suit-2s-not-a-pair"),
    P("♠2♠2 ♣3", "♠QQ", "♠2♠2", "♥", None, True, None, id="R3-spade-2-pair-ruffs-spade-pair"),
    P("♥3344 ♣5", "♠QQJJ", "♥3344", "♥", None, True, None, id="R3-trump-tractor-ruffs-tractor"),
    P("♥3355 ♣6", "♠QQJJ", "♥3355", "♥", None, False, "R3", id="R3-two-trump-pairs-not-a-tractor"),
    P("SJ SJ ♥2♥2", "♠QQJJ", "SJ SJ ♥2♥2", "♥", None, False, "R3", id="R3-joker-pair-2-pair-not-a-tractor"),
    P("BJ BJ SJ SJ ♣3", "♠QQJJ", "BJ BJ SJ SJ", "♥", None, True, None, id="R3-joker-tractor-ruffs"),
    P("♥665544 ♣3", "♠AAKK ♠33", "♥665544", "♥", None, True, None, id="R3-3-run-split-tractor-plus-pair"),
    P("♥66554433 ♣3", "♠AAKK ♠7766", "♥66554433", "♥", None, True, None, id="R3-4-run-matches-two-tractors"),
    P("♥9988 SJ SJ", "♠QQJJ1010", "♥9988 SJ SJ", "♥", None, False, "R3", id="R3-3-tractor-needs-3-run"),
    P("♥6655 ♥9 ♣3", "♠QQJJ ♠3", "♥6655 ♥9", "♥", None, True, None, id="R3-tractor-plus-single"),
    P("♥66 ♥44 ♥9", "♠QQJJ ♠3", "♥66 ♥44 ♥9", "♥", None, False, "R3", id="R3-two-pairs-do-not-match-a-tractor"),
    P("♥977 ♣3", "♠544", "♥977", "♥", None, True, None, id="R4-example-977-ruffs-544"),
    P("♥884 ♣3", "♠544", "♥884", "♥", "♥977", True, None, id="R4-example-884-overruffs-977"),
    P("♥44 ♥5", "♠544", "♥44 ♥5", "♥", "SJ ♥33", True, None, id="R4-ranked-by-pair-not-highest-card"),
    P("SJ ♥33", "♠544", "SJ ♥33", "♥", "♥44 ♥5", False, "R5", id="R4-joker-does-not-lift-lower-pair"),
    P("♥AKQ ♣3", "♠544", "♥AKQ", "♥", "♥977", False, "R3", id="R4-no-pair-is-no-ruff-of-a-pair-lead"),
    P("♥4433 BJ", "♠QQJJ ♠3", "♥4433 BJ", "♥", "♥6655 ♥A", False, "R5", id="R4-ranked-by-tractor-not-joker"),
    P("♥9988 ♥3", "♠QQJJ ♠4", "♥9988 ♥3", "♥", "♥6655 ♥A", True, None, id="R4-higher-tractor-overruffs"),
    P("♥998833 ♣4", "♠AAKK ♠33", "♥998833", "♥", "♥665544", True, None, id="R4-tractor-piece-99-over-66"),
    P("♥665544 ♣4", "♠AAKK ♠33", "♥665544", "♥", "♥998833", False, "R5", id="R4-tractor-piece-66-under-99"),
    P("♥QQJJ1010", "♠AAKK ♠33", "♥QQJJ1010", "♥", "♥998833", True, None, id="R4-highest-piece-QQJJ"),
    P("♥AAKK ♥665544", "♠AAKKQQ ♠7766", "♥AAKK ♥665544", "♥", "♥QQJJ1010 ♥9988", False, "R5",
      id="R4-ranked-by-3-piece-66-not-ace-pair"),
    P("♣2♣2 ♦3", "♠QQ", "♣2♣2", "♥", "♠2♠2", False, "R5", id="R5-equal-2-pairs-tie-to-earlier"),
    P("♦2 ♣3", "♠K", "♦2", "♥", "♣2", False, "R5", id="R5-off-suit-2s-tie"),
    P("♥9 ♣3", "♠K", "♥9", "♥", "♥9", False, "R5", id="R5-identical-card-ties"),
    P("♥10 ♣3", "♠K", "♥10", "♥", "♥9", True, None, id="R5-higher-card-overruffs"),
    P("♥2 ♣3", "♠K", "♥2", "♥", "♣2", True, None, id="R5-trump-2-overruffs-off-suit-2"),
    P("♥2 ♣3", "♠K", "♥2", None, "♣2", False, "R5", id="R5-no-trump-2s-tie"),
    P("SJ ♣3", "♠K", "SJ", None, "♣2", True, None, id="R5-joker-overruffs-2-in-no-trump"),
    P("♥3 ♣3", "♠K", "♥3", "♥", "♥4", False, "R5", id="R5-lower-trump-cannot-overruff"),
    P("♥33 ♥4", "♠AAK", "♥33 ♥4", "♥", None, True, None, id="R3-pair-throw-ruffed-with-pair"),
    P("♥3 ♥4 ♥5", "♠AAK", "♥3 ♥4 ♥5", "♥", None, False, "R3", id="R3-pair-throw-needs-a-trump-pair"),
]


@pytest.mark.parametrize("hand, lead, play, trump, beat, ruff, rule", RUFFS)
def test_R_check_ruff(hand, lead, play, trump, beat, ruff, rule):
    """``ruff``: a ruff that wins (R1–R5); ``legal`` keeps meaning a legal follow, so only
    the W-rules make it false (a legal follow that is not a ruff is legal)."""
    verdict = check_ruff(hand, lead, play, trump, beat=beat)
    assert verdict.ruff is ruff, verdict.reason
    follows = not (rule or "").startswith("W")
    assert verdict.legal is follows and bool(verdict) is follows, verdict.reason
    assert verdict.legal is check_follow(hand, lead, play, trump).legal
    if ruff:
        assert verdict.rule in {"R2", "R4", "R5"} and verdict.rule in cited_rules(verdict.reason), verdict
    else:
        assert rules_ok(verdict.rule, rule), (verdict.rule, rule, verdict.reason)
        assert verdict.headline or not verdict.legal, "a legal play that is not a ruff says so in its headline"
        assert isinstance(verdict.reason, str) and verdict.reason.strip()


# --------------------------------------------------------------------------- B1, B2, W6, R: who wins

TRICKS = [
    # plays (the lead first), trump, index of the winner
    P(["♠9", "♠K"], "♥", 1, id="B1-higher-single-in-suit"),
    P(["♠9", "♠K", "♠A", "♠Q"], "♥", 2, id="B1-highest-single-in-suit"),
    P(["♠9", "♠8", "♠7"], "♥", 0, id="B1-lead-wins-unless-beaten"),
    P(["♠99", "♠KQ"], "♥", 0, id="B1-pair-lead-two-singles-do-not-beat"),
    P(["♠99", "♠KK"], "♥", 1, id="B1-higher-pair-beats-pair"),
    P(["♠99", "♠KK", "♠AA", "♠33"], "♥", 2, id="B1-highest-pair-wins"),
    P(["♠9988", "♠KKQJ"], "♥", 0, id="B1-tractor-lead-pair-and-singles-do-not-beat"),
    P(["♠9988", "♠KK1010"], "♥", 0, id="B1-tractor-lead-two-pairs-do-not-beat"),
    P(["♠9988", "♠KKQQ"], "♥", 1, id="B1-higher-tractor-beats-tractor"),
    P(["♥3", "♠A"], "♥", 0, id="B1-trump-lead-side-ace-is-a-discard"),
    P(["♥3", "♠2"], "♥", 1, id="B1-trump-lead-off-suit-2-follows-higher"),
    P(["♥A", "♠2", "♣2", "♥2"], "♥", 3, id="B1-trump-2-over-off-suit-2s"),
    P(["♥9♥9", "♠2 ♣2"], "♥", 0, id="B1-trump-pair-lead-off-suit-2s-not-a-pair"),
    P(["♥33", "♠2♠2"], "♥", 1, id="B1-off-suit-2-pair-beats-trump-pair"),
    P(["♥33", "♠2♠2", "♣2♣2"], "♥", 1, id="B1-equal-2-pairs-tie"),
    P(["♥33", "♠2♠2", "♥2♥2"], "♥", 2, id="B1-trump-2-pair-beats-off-suit-2-pair"),
    P(["♥33", "SJ SJ", "BJ BJ"], "♥", 2, id="B1-big-joker-pair-top"),
    P(["♠2", "♥2", "♣2", "♦2", "SJ"], None, 4, id="B1-no-trump-joker-over-2s"),
    P(["♠2", "♥2", "♣2", "♦2", "♠3"], None, 0, id="B1-no-trump-2s-tie-first-wins"),
    P(["♠3", "BJ"], None, 1, id="B1-no-trump-joker-ruffs"),
    P(["SJ", "BJ"], None, 1, id="B1-no-trump-big-over-small"),
    P(["♠K", "♥A"], "♣", 0, id="B1-other-side-suit-never-wins"),
    P(["♠K", "♥3", "♠A"], "♥", 1, id="B1-after-a-ruff-higher-suit-card-loses"),
    P(["♠QQ", "♠AA", "♥33"], "♥", 2, id="B1-ruff-beats-in-suit-winner"),
    P(["♠AK", "♠QQ"], "♥", 0, id="B1-throw-beaten-only-by-ruff-pair"),
    P(["♠KQ", "♠AJ"], "♥", 0, id="B1-throw-not-beaten-by-higher-singles"),
    P(["♠KQ", "♠AA"], "♥", 0, id="B1-throw-not-beaten-by-ace-pair"),
    P(["♠AK", "♥34"], "♥", 1, id="B1-throw-beaten-by-ruff"),
    P(["♠AAK", "♥33 ♥4"], "♥", 1, id="B1-pair-throw-ruffed"),
    P(["♠AAK", "♥3 ♥4 ♥5"], "♥", 0, id="B1-pair-throw-no-trump-pair-is-discard"),
    P(["♦3", "♣A"], "♠", 0, id="W6-source-example-diamond-3-beats-discarded-club-ace"),
    P(["♦3", "♣A", "♥A", "♦4"], "♠", 3, id="W6-discards-never-win"),
    P(["♠KQ", "♠3♥A"], "♥", 0, id="R1-short-follow-trump-never-wins"),
    P(["♠KQ", "♠3 ♥A", "♥3 ♥4"], "♥", 2, id="R1-real-ruff-wins-over-short-follow"),
    P(["♠A", "♥3"], "♥", 1, id="R1-ruff-beats-side-ace"),
    P(["♠A", "♣2"], None, 1, id="R1-2-ruffs-in-no-trump"),
    P(["♠765", "♥977", "♥884"], "♥", 1, id="R2-example-884-cannot-overruff-977"),
    P(["♠753", "♥A43", "♥KKQ"], "♥", 1, id="R2-ranked-by-highest-card"),
    P(["♠AK", "♥AK", "♥3 SJ"], "♥", 2, id="R2-joker-overruffs"),
    P(["♠K", "♣2", "♦2"], "♥", 1, id="R2-off-suit-2-ruffs-tie"),
    P(["♠K", "♣2", "♥2"], "♥", 2, id="R2-trump-2-overruffs-off-suit-2"),
    P(["♠AK5544", "♥998872"], "♥", 1, id="R3-example-998872-ruffs-AK5544"),
    P(["♠AA5544", "♥998872"], "♥", 0, id="R3-example-998872-cannot-ruff-AA5544"),
    P(["♠QQ", "♥34"], "♥", 0, id="R3-two-trump-singles-on-a-pair-are-a-discard"),
    P(["♠QQ", "♥33"], "♥", 1, id="R3-trump-pair-ruffs-pair"),
    P(["♠QQ", "♣2 ♦2"], "♥", 0, id="R3-two-2s-are-a-discard"),
    P(["♠QQJJ", "♥3355"], "♥", 0, id="R3-two-pairs-no-ruff-of-tractor"),
    P(["♠QQJJ", "SJ SJ ♥2♥2"], "♥", 0, id="R3-joker-pair-2-pair-no-ruff"),
    P(["♠QQJJ", "♥3344", "BJ BJ SJ SJ"], "♥", 2, id="R3-joker-tractor-overruffs"),
    P(["♠QQJJ", "♥QQJJ", "♥3344"], "♥", 1, id="R4-lower-tractor-no-overruff"),
    P(["♠544", "♥977", "♥884"], "♥", 2, id="R4-example-884-overruffs-977"),
    P(["♠544", "SJ ♥33", "♥44 ♥5"], "♥", 2, id="R4-pair-not-highest-card"),
    P(["♠544", "♥977", "♥AKQ"], "♥", 1, id="R4-no-pair-cannot-overruff"),
    P(["♠AAK", "♥33 ♥4"], "♥", 1, id="R3-pair-throw-ruffed-by-pair"),
    P(["♠QQJJ", "BJ BJ SJ SJ"], None, 1, id="R3-no-trump-joker-tractor-ruffs"),
    P(["SJ SJ", "♠2♠2"], None, 0, id="B1-no-trump-2-pair-under-joker-pair"),
    P(["♠2♠2", "♥2♥2"], None, 0, id="T6-no-trump-2-pairs-tie"),
    P(["♠2♠2", "SJ SJ"], None, 1, id="B1-no-trump-joker-pair-over-2-pair"),
    P(["♠2♠2", "♣2♣2"], "♥", 0, id="T6-off-suit-2-pairs-tie-lead-wins"),
    P(["♥33", "♠AA"], "♥", 0, id="W6-side-pair-on-trump-lead-is-a-discard"),
    P(["♠QQJJ ♠3", "♥6655 ♥A", "♥4433 BJ"], "♥", 1, id="R4-tractor-ranks-not-joker"),
    P(["♠AAKK ♠33", "♥665544", "♥998833"], "♥", 2, id="R4-99-piece-over-66-piece"),
    P(["♠AAKK ♠33", "♥998833", "♥665544"], "♥", 1, id="R4-66-piece-under-99-piece"),
    P(["♠QQ", "♥33", "♠2♠2"], "♥", 2, id="R4-spade-2-pair-overruffs"),
    P(["♠AAKKQQ ♠7766", "♥AAKK ♥665544", "♥QQJJ1010 ♥9988"], "♥", 2,
      id="R4-ranked-by-piece-matching-the-longest-lead-tractor"),
    P(["♠AAKKQQ ♠7766", "♥QQJJ1010 ♥9988", "♥AAKK ♥665544"], "♥", 1,
      id="R4-higher-2-piece-does-not-rank-a-3-tractor-ruff"),
    P(["♠QQ", "♥33", "♠2♠2", "♣2♣2"], "♥", 2, id="R5-equal-2-pairs-earlier-ruff-wins"),
    P(["♠K", "♥9", "♥9"], "♥", 1, id="R5-identical-ruffs-earlier-wins"),
    P(["♠K", "♥9", "♥10"], "♥", 2, id="R5-higher-overruff"),
    P(["♠K", "♣2", "♥2"], None, 1, id="R5-no-trump-2s-tie"),
    P(["♠K", "♣2", "SJ"], None, 2, id="R5-no-trump-joker-overruffs"),
]


@pytest.mark.parametrize("plays, trump, winner", TRICKS)
def test_B1_trick_winner(plays, trump, winner):
    assert trick_winner(plays, trump) == winner


@pytest.mark.parametrize(
    "plays, trump, winner, points",
    [
        P(["♠5", "♠K", "♠10", "♥3", "♠A"], "♥", 3, 25, id="B2-ruffer-takes-25-points"),
        P(["♦K", "♦5", "♣10", "♦3", "♦A"], "♠", 4, 25, id="B2-discarded-10-goes-to-the-winner"),
    ],
)
def test_B2_winner_takes_every_point_card(plays, trump, winner, points):
    assert trick_winner(plays, trump) == winner
    assert sum(c.points for play in plays for c in parse_cards(play)) == points
