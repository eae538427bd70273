"""Executable rule book, part 1: cards, trumps, combinations, notation, declaring.

Rules C1–C4, T1–T6, M1–M3, N1–N3, D1–D6 of shared/RULES.md. Every row is one
position written in card notation; every pytest id starts with the rule ID.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tutor import (
    PACK,
    Card,
    Declaration,
    Kind,
    Suit,
    Trump,
    can_overturn,
    is_pair,
    is_tractor,
    kitty_flip,
    parse_cards,
    split,
)
from tutor.rules import point_cards
from tutor.rules.bidding import check_declaration, declaration_options


def texts(cards) -> list[str]:
    """Canonical texts of cards, in the given order."""
    return [str(c) for c in parse_cards(cards)]


def one(text: str) -> Card:
    (card,) = parse_cards(text)
    return card


# --------------------------------------------------------------------------- C


def test_C1_pack_has_108_cards_each_in_exactly_two_copies():
    assert len(PACK) == 108
    counts = Counter(PACK)
    assert len(counts) == 54
    assert set(counts.values()) == {2}
    assert counts[one("BJ")] == 2 and counts[one("SJ")] == 2
    suited = [c for c in counts if c.suit is not None]
    assert len(suited) == 52
    assert {c.rank for c in suited} == set(range(2, 15))
    assert {c.suit for c in suited} == set(Suit)


def test_C2_five_hands_of_20_and_a_kitty_of_8_use_the_whole_pack():
    assert 5 * 20 + 8 == len(PACK)


@pytest.mark.parametrize(
    "card, value",
    [
        pytest.param("♠5", 5, id="C3-five-is-5"),
        pytest.param("♦5", 5, id="C3-any-suit-five-is-5"),
        pytest.param("♥10", 10, id="C3-ten-is-10"),
        pytest.param("♣K", 10, id="C3-king-is-10"),
        pytest.param("♠A", 0, id="C3-ace-is-0"),
        pytest.param("♥Q", 0, id="C3-queen-is-0"),
        pytest.param("♦2", 0, id="C3-two-is-0"),
        pytest.param("♣9", 0, id="C3-nine-is-0"),
        pytest.param("SJ", 0, id="C3-small-joker-is-0"),
        pytest.param("BJ", 0, id="C3-big-joker-is-0"),
    ],
)
def test_C3_point_values(card, value):
    assert one(card).points == value


def test_C3_deck_holds_200_points():
    assert sum(c.points for c in PACK) == 200


def test_C3_the_point_cards_are_every_5_10_and_K():
    scoring = point_cards(PACK)
    assert len(scoring) == 24 and {str(c)[1:] for c in scoring} == {"5", "10", "K"}
    assert list(scoring) == [c for c in PACK if c.points]  # in the order given
    assert texts(point_cards("♠5 ♥10 ♣K ♦A BJ ♠5")) == ["♠5", "♥10", "♣K", "♠5"]


@pytest.mark.parametrize(
    "plays, trump, winner",
    [
        pytest.param(["♠3", "♠4", "♠5", "♠6", "♠7"], "♥", 4, id="C4-winner-index-counts-from-the-leader"),
        pytest.param(["♠7", "♠6", "♠5", "♠4", "♠3"], "♥", 0, id="C4-lead-is-index-0"),
    ],
)
def test_C4_plays_are_in_seat_order_from_the_leader(plays, trump, winner):
    from tutor import trick_winner

    assert trick_winner(plays, trump) == winner


# --------------------------------------------------------------------------- T


@pytest.mark.parametrize(
    "card, trump, expected",
    [
        # T1: the level is always 2, so every 2 is a trump whatever the trump suit.
        pytest.param("♠2", "♥", True, id="T1-spade-2-trump-under-hearts"),
        pytest.param("♣2", "♠", True, id="T1-club-2-trump-under-spades"),
        pytest.param("♦2", None, True, id="T1-diamond-2-trump-in-no-trump"),
        pytest.param("♥3", "♠", False, id="T1-threes-are-not-level-cards"),
        # T2
        pytest.param("BJ", "♥", True, id="T2-big-joker-trump"),
        pytest.param("SJ", "♣", True, id="T2-small-joker-trump"),
        pytest.param("♥A", "♥", True, id="T2-trump-suit-ace"),
        pytest.param("♥3", "♥", True, id="T2-trump-suit-three"),
        pytest.param("♥2", "♥", True, id="T2-trump-suit-two"),
        pytest.param("♠A", "♥", False, id="T2-side-suit-ace-not-trump"),
        pytest.param("♦K", "♥", False, id="T2-side-suit-king-not-trump"),
        pytest.param("BJ", None, True, id="T2-no-trump-big-joker"),
        pytest.param("SJ", None, True, id="T2-no-trump-small-joker"),
        pytest.param("♥2", None, True, id="T2-no-trump-two"),
        pytest.param("♥A", None, False, id="T2-no-trump-ace-not-trump"),
        pytest.param("♠3", None, False, id="T2-no-trump-three-not-trump"),
    ],
)
def test_T1_T2_which_cards_are_trumps(card, trump, expected):
    assert Trump(trump).is_trump(one(card)) is expected


@pytest.mark.parametrize(
    "card, trump, lane",
    [
        pytest.param("♠3", "♥", 0, id="T3-spade-lane-0"),
        pytest.param("♣A", "♥", 2, id="T3-club-lane-2"),
        pytest.param("♦K", "♥", 3, id="T3-diamond-lane-3"),
        pytest.param("♥3", "♠", 1, id="T3-heart-lane-1-when-not-trump"),
        pytest.param("♥3", "♥", 4, id="T3-trump-suit-card-is-lane-trump"),
        pytest.param("♠2", "♥", 4, id="T3-spade-2-is-a-trump-not-a-spade"),
        pytest.param("♠2", None, 4, id="T3-spade-2-is-a-trump-in-no-trump"),
        pytest.param("♥3", None, 1, id="T3-no-trump-heart-stays-heart"),
        pytest.param("SJ", "♦", 4, id="T3-joker-lane-trump"),
        pytest.param("BJ", None, 4, id="T3-joker-lane-trump-in-no-trump"),
    ],
)
def test_T3_effective_suit(card, trump, lane):
    assert Trump(trump).lane(one(card)) == lane


def _chain(trump, texts_high_to_low):
    t = Trump(trump)
    return [t.order(one(x)) for x in texts_high_to_low]


@pytest.mark.parametrize(
    "trump, high_to_low",
    [
        pytest.param("♥", ["BJ", "SJ", "♥2", "♠2", "♥A", "♥K", "♥Q", "♥J", "♥10", "♥9", "♥8", "♥7",
                           "♥6", "♥5", "♥4", "♥3"], id="T4-heart-trumps-strictly-descending"),
        pytest.param("♠", ["BJ", "SJ", "♠2", "♦2", "♠A", "♠3"], id="T4-off-suit-2-between-trump-2-and-trump-ace"),
        pytest.param(None, ["BJ", "SJ", "♣2"], id="T4-no-trump-order"),
        pytest.param("♥", ["♠A", "♠K", "♠Q", "♠J", "♠10", "♠9", "♠8", "♠7", "♠6", "♠5", "♠4", "♠3"],
                     id="T5-side-suit-A-to-3"),
        pytest.param(None, ["♦A", "♦K", "♦10", "♦3"], id="T5-side-suit-in-no-trump"),
    ],
)
def test_T4_T5_order_strictly_descending(trump, high_to_low):
    orders = _chain(trump, high_to_low)
    assert all(a > b for a, b in zip(orders, orders[1:])), list(zip(high_to_low, orders))


@pytest.mark.parametrize(
    "trump, equal",
    [
        pytest.param("♥", ["♠2", "♣2", "♦2"], id="T6-off-suit-2s-tie"),
        pytest.param(None, ["♠2", "♥2", "♣2", "♦2"], id="T6-no-trump-all-2s-tie"),
    ],
)
def test_T4_T6_equal_orders(trump, equal):
    assert len(set(_chain(trump, equal))) == 1


@pytest.mark.parametrize(
    "trump, trumps",
    [
        pytest.param("♥", "BJ SJ ♥2 ♠2 ♣2 ♦2 ♥A ♥K ♥Q ♥J ♥10 ♥9 ♥8 ♥7 ♥6 ♥5 ♥4 ♥3", id="T2-T4-every-trump-high-to-low"),
        pytest.param(None, "BJ SJ ♠2 ♥2 ♣2 ♦2", id="T2-T4-no-trump-jokers-and-2s"),
    ],
)
def test_T2_T4_the_trumps_of_the_pack_in_order(trump, trumps):
    assert texts(Trump(trump).trumps()) == trumps.split()
    assert texts(Trump(trump).trumps(PACK)) == [text for text in trumps.split() for _ in range(2)]
    assert texts(Trump("♥").trumps(parse_cards("♠3 ♥3 ♠2 ♣A"))) == ["♠2", "♥3"]


@pytest.mark.parametrize(
    "plays, trump, winner",
    [
        pytest.param(["♠2", "♣2"], "♥", 0, id="T6-off-suit-2-tie-goes-to-first"),
        pytest.param(["♠K", "♣2", "♦2"], "♥", 1, id="T6-off-suit-2-ruffs-tie-first-ruff-wins"),
        pytest.param(["♠2", "♥2"], "♥", 1, id="T6-trump-suit-2-beats-off-suit-2"),
        pytest.param(["♠A", "♠A"], "♥", 0, id="T6-twin-single-tie-goes-to-lead"),
        pytest.param(["♠9", "♠A", "♠A"], "♥", 1, id="T6-twin-ace-second-copy-loses"),
        pytest.param(["♠2", "♥2"], None, 0, id="T6-no-trump-2s-tie"),
        pytest.param(["♣2", "♦2", "♠2", "♥2", "♣2"], None, 0, id="T6-no-trump-five-2s-first-wins"),
        pytest.param(["♥A", "♠2"], "♥", 1, id="T4-off-suit-2-beats-trump-ace"),
        pytest.param(["♠2", "♥A"], "♥", 0, id="T4-trump-ace-below-off-suit-2"),
        pytest.param(["♥2", "SJ", "BJ", "BJ"], "♥", 2, id="T4-jokers-top-twin-big-joker-ties"),
        pytest.param(["♥3", "♥4"], "♥", 1, id="T4-trump-four-over-trump-three"),
    ],
)
def test_T4_T6_single_tricks(plays, trump, winner):
    from tutor import trick_winner

    assert trick_winner(plays, trump) == winner


# --------------------------------------------------------------------------- M


@pytest.mark.parametrize(
    "cards, expected",
    [
        pytest.param("♥7 ♥7", True, id="M1-two-identical-cards-pair"),
        pytest.param("SJ SJ", True, id="M1-two-small-jokers-pair"),
        pytest.param("BJ BJ", True, id="M1-two-big-jokers-pair"),
        pytest.param("♥2 ♥2", True, id="M1-two-heart-2s-pair"),
        pytest.param("♥2 ♣2", False, id="M1-heart-2-club-2-not-pair"),
        pytest.param("SJ BJ", False, id="M1-small-and-big-joker-not-pair"),
        pytest.param("♥7 ♠7", False, id="M1-same-rank-other-suit-not-pair"),
        pytest.param("♥7 ♥8", False, id="M1-adjacent-not-pair"),
        pytest.param("♥7", False, id="M1-single-not-pair"),
        pytest.param("♥7 ♥7 ♥8", False, id="M1-three-cards-not-pair"),
    ],
)
def test_M1_is_pair(cards, expected):
    assert is_pair(cards) is expected


@pytest.mark.parametrize(
    "cards, trump, expected",
    [
        pytest.param("♠10 ♠10 ♠9 ♠9", "♥", True, id="M2-example-10-10-9-9"),
        pytest.param("♠554433", "♥", True, id="M2-example-554433"),
        pytest.param("♠AAKK", "♥", True, id="M2-ace-king"),
        pytest.param("♠4433", "♥", True, id="M2-four-three"),
        pytest.param("♠QQJJ1010", "♥", True, id="M2-three-pairs"),
        pytest.param("♦AAKKQQJJ", None, True, id="M2-side-suit-in-no-trump"),
        pytest.param("♠AA33", "♥", False, id="M2-A-does-not-follow-3"),
        pytest.param("♠AA33", None, False, id="M2-A-does-not-follow-3-no-trump"),
        pytest.param("♠554", "♥", False, id="M2-example-554-not"),
        pytest.param("♠544", "♥", False, id="M2-example-544-not"),
        pytest.param("♠5533", "♥", False, id="M2-example-5533-not"),
        pytest.param("♠55", "♥", False, id="M2-one-pair-not-tractor"),
        pytest.param("♠1010 ♥99", "♣", False, id="M2-different-suits-not"),
        pytest.param("♠AAKK", "♠", True, id="M2-trump-suit-ace-king"),
        pytest.param("♥4433", "♥", True, id="M2-trump-suit-four-three"),
        pytest.param("BJ BJ SJ SJ", "♥", True, id="M2-joker-tractor"),
        pytest.param("BJ BJ SJ SJ", None, True, id="M2-joker-tractor-no-trump"),
        pytest.param("SJ SJ ♥2 ♥2", "♥", False, id="M2-small-joker-pair-trump-2-pair-not"),
        pytest.param("♥2 ♥2 ♠2 ♠2", "♥", False, id="M2-trump-2-pair-off-suit-2-pair-not"),
        pytest.param("♠2 ♠2 ♥A ♥A", "♥", False, id="M2-off-suit-2-pair-trump-ace-pair-not"),
        pytest.param("♥2 ♥2 ♥A ♥A", "♥", False, id="M2-trump-2-pair-trump-ace-pair-not"),
        pytest.param("SJ SJ ♥A ♥A", "♥", False, id="M2-small-joker-pair-trump-ace-pair-not"),
        pytest.param("BJ BJ SJ SJ ♥2♥2", "♥", False, id="M2-jokers-plus-2-pair-not"),
        pytest.param("♠2 ♠2 ♣2 ♣2", "♥", False, id="M2-two-off-suit-2-pairs-not"),
        pytest.param("SJ SJ ♠2 ♠2", None, False, id="M2-no-trump-joker-pair-2-pair-not"),
        pytest.param("♠2 ♠2 ♥2 ♥2", None, False, id="M2-no-trump-two-2-pairs-not"),
        pytest.param("♠3 ♠3 ♠2 ♠2", "♥", False, id="M2-side-3-pair-and-its-2-pair-not"),
        pytest.param("♠AAKKQ", "♥", False, id="M2-tractor-plus-single-not"),
    ],
)
def test_M2_is_tractor(cards, trump, expected):
    assert is_tractor(cards, trump) is expected


@pytest.mark.parametrize(
    "cards, trump, length",
    [
        pytest.param("♠554433", "♥", 3, id="M3-length-3"),
        pytest.param("♠1010 ♠99", "♥", 2, id="M3-length-2"),
        pytest.param("BJ BJ SJ SJ", "♥", 2, id="M3-joker-tractor-length-2"),
        pytest.param("♥AAKKQQJJ", "♥", 4, id="M3-length-4"),
    ],
)
def test_M3_length_is_number_of_pairs(cards, trump, length):
    (component,) = split(cards, trump)
    assert component.kind is Kind.TRACTOR
    assert component.pairs == length


@pytest.mark.parametrize(
    "plays, trump, winner",
    [
        pytest.param(["♠5544", "♠7766"], "♥", 1, id="M3-higher-top-pair-wins"),
        pytest.param(["♠8877", "♠6655"], "♥", 0, id="M3-lower-top-pair-loses"),
        pytest.param(["♠8877", "♠6655", "♠1010 ♠99"], "♥", 2, id="M3-ranked-by-highest-pair"),
        pytest.param(["♥AAKK", "BJ BJ SJ SJ"], "♥", 1, id="M3-joker-tractor-beats-trump-tractor"),
        pytest.param(["♥AAKK", "SJ SJ ♥2♥2"], "♥", 0, id="M2-joker-pair-and-2-pair-do-not-beat-tractor"),
        pytest.param(["♠5544", "♠AA33"], "♥", 0, id="M2-AA33-not-a-tractor-cannot-beat"),
    ],
)
def test_M3_tractor_ranking_in_tricks(plays, trump, winner):
    from tutor import trick_winner

    assert trick_winner(plays, trump) == winner


# --------------------------------------------------------------------------- N


@pytest.mark.parametrize(
    "text, expected",
    [
        pytest.param("♠A", ["♠A"], id="N1-symbol-suit"),
        pytest.param("SA", ["♠A"], id="N1-letter-S"),
        pytest.param("sa", ["♠A"], id="N1-lower-case-letters"),
        pytest.param("H3", ["♥3"], id="N1-letter-H"),
        pytest.param("C4", ["♣4"], id="N1-letter-C"),
        pytest.param("D5", ["♦5"], id="N1-letter-D"),
        pytest.param("黑桃A", ["♠A"], id="N1-name-heitao"),
        pytest.param("红桃10", ["♥10"], id="N1-name-hongtao"),
        pytest.param("紅桃10", ["♥10"], id="N1-name-hongtao-traditional"),
        pytest.param("梅花K", ["♣K"], id="N1-name-meihua"),
        pytest.param("方块3", ["♦3"], id="N1-name-fangkuai"),
        pytest.param("方片3", ["♦3"], id="N1-name-fangpian"),
        pytest.param("方塊3", ["♦3"], id="N1-name-fangkuai-traditional"),
        pytest.param("HT", ["♥10"], id="N1-T-is-ten"),
        pytest.param("ht", ["♥10"], id="N1-t-lower-case"),
        pytest.param("♦j", ["♦J"], id="N1-rank-lower-case"),
        pytest.param("♣q ♣k ♣a", ["♣Q", "♣K", "♣A"], id="N1-face-ranks-lower-case"),
        pytest.param("BJ", ["BJ"], id="N1-big-joker"),
        pytest.param("SJ", ["SJ"], id="N1-small-joker"),
        pytest.param("bj sj", ["BJ", "SJ"], id="N1-jokers-lower-case"),
        pytest.param("大王", ["BJ"], id="N1-dawang"),
        pytest.param("小王", ["SJ"], id="N1-xiaowang"),
        pytest.param("♠2 ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♠9 ♠10 ♠J ♠Q ♠K ♠A",
                     ["♠2", "♠3", "♠4", "♠5", "♠6", "♠7", "♠8", "♠9", "♠10", "♠J", "♠Q", "♠K", "♠A"],
                     id="N1-every-rank"),
        pytest.param("♠AAK55", ["♠A", "♠A", "♠K", "♠5", "♠5"], id="N2-example-group"),
        pytest.param("♥1010", ["♥10", "♥10"], id="N2-example-two-tens"),
        pytest.param("♥10T", ["♥10", "♥10"], id="N2-ten-and-T"),
        pytest.param("♠AAK55 ♥1010 SJ BJ",
                     ["♠A", "♠A", "♠K", "♠5", "♠5", "♥10", "♥10", "SJ", "BJ"], id="N2-mixed-text"),
        pytest.param("♠J", ["♠J"], id="N2-jack-of-spades-with-symbol"),
        pytest.param("SQJ", ["♠Q", "♠J"], id="N2-jack-of-spades-inside-group"),
        pytest.param("SJ SJ", ["SJ", "SJ"], id="N2-SJ-alone-is-always-small-joker"),
        pytest.param("♠A,♥3", ["♠A", "♥3"], id="N2-comma-separator"),
        pytest.param("♠A, ♥3 ,♣4", ["♠A", "♥3", "♣4"], id="N2-comma-and-spaces"),
        pytest.param("  ♠A\t♥3\n♣4  ", ["♠A", "♥3", "♣4"], id="N2-any-white-space"),
        pytest.param("", [], id="N2-empty-text-no-cards"),
        pytest.param("红桃AK 方片1010", ["♥A", "♥K", "♦10", "♦10"], id="N2-chinese-suit-groups"),
    ],
)
def test_N1_N2_parse(text, expected):
    assert texts(text) == expected


@pytest.mark.parametrize(
    "card, text",
    [
        pytest.param(Card(Suit.SPADES, 14), "♠A", id="N3-canonical-ace"),
        pytest.param(Card(Suit.HEARTS, 10), "♥10", id="N3-canonical-ten"),
        pytest.param(Card(Suit.CLUBS, 11), "♣J", id="N3-canonical-jack"),
        pytest.param(Card(Suit.DIAMONDS, 2), "♦2", id="N3-canonical-two"),
        pytest.param(Card(None, 16), "BJ", id="N3-canonical-big-joker"),
        pytest.param(Card(None, 15), "SJ", id="N3-canonical-small-joker"),
    ],
)
def test_N3_canonical_text(card, text):
    assert str(card) == text
    assert parse_cards(text) == (card,)


@pytest.mark.parametrize(
    "alias, canonical",
    [
        pytest.param("HT", "♥10", id="N3-HT-canonical-♥10"),
        pytest.param("大王", "BJ", id="N3-dawang-canonical-BJ"),
        pytest.param("sj", "SJ", id="N3-sj-canonical-SJ"),
        pytest.param("方片q", "♦Q", id="N3-fangpian-q-canonical"),
    ],
)
def test_N3_aliases_print_canonically(alias, canonical):
    assert str(one(alias)) == canonical


# --------------------------------------------------------------------------- D


@pytest.mark.parametrize(
    "new, current, expected",
    [
        pytest.param("♥2", None, True, id="D1-first-single-2-declares"),
        pytest.param("♠2♠2", None, True, id="D1-first-pair-2-declares"),
        pytest.param("BJ BJ", None, True, id="D1-first-big-joker-pair-declares"),
        pytest.param("SJ SJ", None, True, id="D1-first-small-joker-pair-declares"),
        pytest.param("SJ", None, False, id="D1-single-joker-is-not-a-declaration"),
        pytest.param("♥3", None, False, id="D1-only-a-2-declares"),
        pytest.param("♥A ♥A", None, False, id="D1-pair-of-aces-is-not-a-declaration"),
        pytest.param("♠2", "♥2", False, id="D2-single-2-cannot-overturn-single-2"),
        pytest.param("♦2", "♠2", False, id="D2-single-2s-one-step-diamond-vs-spade"),
        pytest.param("♦2♦2", "♠2", True, id="D2-diamond-pair-over-single-spade-2"),
        pytest.param("♥2♥2", "♦2", True, id="D2-any-pair-over-single"),
        pytest.param("♣2♣2", "♦2♦2", True, id="D2-club-pair-over-diamond-pair"),
        pytest.param("♥2♥2", "♣2♣2", True, id="D2-heart-pair-over-club-pair"),
        pytest.param("♠2♠2", "♥2♥2", True, id="D2-spade-pair-over-heart-pair"),
        pytest.param("♠2♠2", "♦2♦2", True, id="D2-spade-pair-over-diamond-pair"),
        pytest.param("♦2♦2", "♣2♣2", False, id="D2-diamond-pair-under-club-pair"),
        pytest.param("♥2♥2", "♠2♠2", False, id="D2-heart-pair-under-spade-pair"),
        pytest.param("SJ SJ", "♠2♠2", True, id="D2-small-joker-pair-over-spade-pair"),
        pytest.param("SJ SJ", "♦2", True, id="D2-small-joker-pair-over-single-2"),
        pytest.param("BJ BJ", "SJ SJ", True, id="D2-big-joker-pair-over-small-joker-pair"),
        pytest.param("SJ SJ", "BJ BJ", False, id="D2-small-joker-pair-under-big-joker-pair"),
        pytest.param("♠2♠2", "SJ SJ", False, id="D2-2-pair-under-joker-pair"),
        pytest.param("♠2", "♦2♦2", False, id="D3-single-cannot-overturn-pair"),
        pytest.param("♠2♠2", "♠2", False, id="D3-pair-of-the-very-2-standing-is-never-an-overturn"),
        pytest.param("♦2♦2", "♦2", False, id="D3-pair-of-the-very-diamond-2-standing"),
        pytest.param("♦2♦2", "♠2", True, id="D3-pair-of-another-2-over-a-single-still-overturns"),
    ],
)
def test_D1_D2_D3_overturn_strength(new, current, expected):
    assert can_overturn(new, current) is expected


@pytest.mark.parametrize(
    "new, current, expected",
    [
        pytest.param(Declaration("♠2♠2", 1), Declaration("♠2", 1), False,
                     id="D3-own-single-2-into-pair-refused"),
        pytest.param(Declaration("♥2♥2", 1), Declaration("♠2", 1), False,
                     id="D3-own-declaration-other-suit-refused"),
        pytest.param(Declaration("BJ BJ", 3), Declaration("♦2♦2", 3), False,
                     id="D3-own-joker-pair-over-own-pair-refused"),
        pytest.param(Declaration("♥2♥2", 2), Declaration("♠2", 1), True, id="D3-other-seat-pair-over-single"),
        pytest.param(Declaration("♦2", 2), Declaration("♠2", 1), False, id="D3-other-seat-single-over-single"),
        pytest.param(Declaration("♣2♣2", 0), Declaration("♥2♥2", 4), False, id="D3-weaker-pair-refused"),
        pytest.param(Declaration("♥2", 0), None, True, id="D3-first-declaration-with-seat"),
        pytest.param(Declaration("♠2♠2", 2), Declaration("♠2", 1), False,
                     id="D3-pair-of-the-very-2-refused-even-from-another-seat"),
    ],
)
def test_D3_no_self_overturn(new, current, expected):
    assert can_overturn(new, current) is expected


def test_D3_the_pair_of_the_standing_2_is_refused_with_the_reason():
    verdict = check_declaration("♥2 ♥2", "♥2")
    assert not verdict.legal and verdict.rule == "D3"
    assert "only two ♥2" in verdict.reason and "own declaration" in verdict.reason
    assert declaration_options("♥2 ♥2 ♠2", "♥2") == []
    assert declaration_options("♥2 ♥2 ♠2 ♠2", "♥2") == [parse_cards("♠2 ♠2")]


@pytest.mark.parametrize(
    "kitty, expected",
    [
        pytest.param("♠3 ♠3 ♥4 ♥4 ♣5 ♣5 ♦6 ♦7", "♦6", id="D6-first-card-without-twin-decides"),
        pytest.param("♠3 ♥4 ♥4 ♣5 ♣5 ♦6 ♦6 ♦7", "♠3", id="D6-first-card-single"),
        pytest.param("♥4 ♠3 ♥4 ♠3 ♣A ♣5 ♦6 ♦6", "♣A", id="D6-twins-apart-are-skipped"),
        pytest.param("SJ ♠3 ♠3 ♥4 ♥4 ♣5 ♣5 ♦6", "SJ", id="D6-joker-decides-no-trump"),
        pytest.param("♥2 ♠3 ♠3 ♥4 ♥4 ♣5 ♣5 ♦6", "♥2", id="D6-a-2-decides-its-suit"),
        pytest.param("BJ BJ ♠3 ♥4 ♥4 ♣5 ♣5 ♦6", "♠3", id="D6-joker-pair-skipped"),
        pytest.param("♠3 ♠3 ♥4 ♥4 ♣5 ♣5 ♦6 ♦6", None, id="D6-four-pairs-redeal"),
        pytest.param("♠3 ♥4 ♠3 ♥4 BJ ♦6 BJ ♦6", None, id="D6-four-pairs-interleaved-redeal"),
    ],
)
def test_D6_kitty_flip(kitty, expected):
    result = kitty_flip(kitty)
    if expected is None:
        assert result is None
    else:
        assert result == one(expected)


@pytest.mark.parametrize(
    "cards, trump",
    [
        pytest.param("♠2 ♠2", "♠", id="D4-spade-2-pair-makes-spades-trump"),
        pytest.param("♦2 ♦2", "♦", id="D4-diamond-2-pair-makes-diamonds-trump"),
        pytest.param("♥2", "♥", id="D1-single-heart-2-declares-hearts"),
        pytest.param("SJ SJ", None, id="D4-small-joker-pair-makes-no-trump"),
        pytest.param("BJ BJ", None, id="D4-big-joker-pair-makes-no-trump"),
    ],
)
def test_D4_declaration_makes_trump(cards, trump):
    assert Declaration(cards).trump == Trump(trump)
