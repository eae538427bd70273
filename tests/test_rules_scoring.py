"""Executable rule book, part 3: kitty capture and scoring (X1–X2, S1–S4, D5's count).

Game-flow rules (D1/D5 seats during the deal, K1, F1–F6, B3, X1, S4) need the full
hand state machine and are tested with the Game; here are the parts the pure
functions decide.
"""

from __future__ import annotations

import pytest

from tutor import kitty_multiplier, score_hand

P = pytest.param


@pytest.mark.parametrize(
    "lead, trump, multiplier",
    [
        P("♠A", "♥", 2, id="X2-single-x2"),
        P("♠AA", "♥", 4, id="X2-one-pair-x4"),
        P("♠AA ♠77", "♥", 8, id="X2-two-pairs-x8"),
        P("♠AAKK", "♥", 8, id="X2-2-pair-tractor-x8"),
        P("♠AAKKQQ", "♥", 16, id="X2-3-pair-tractor-x16"),
        P("♠A ♠K ♠Q ♠J ♠9", "♥", 2, id="X2-source-five-singles-x2"),
        P("♠AA ♠K ♠Q ♠J", "♥", 4, id="X2-source-one-pair-three-singles-x4"),
        P("♠554433 ♠99 ♠K", "♥", 32, id="X2-tractor-and-pair-four-pairs-x32"),
        P("BJ BJ SJ SJ", "♥", 8, id="X2-joker-tractor-x8"),
        P("♠2 ♣2", "♥", 2, id="X2-off-suit-2s-are-singles-x2"),
        P("♠2♠2 ♣2♣2", "♥", 8, id="X2-two-2-pairs-x8"),
        P("♥2♥2 ♥AA", "♥", 8, id="X2-2-pair-and-ace-pair-not-a-tractor-still-two-pairs"),
        P("SJ BJ", None, 2, id="X2-no-trump-two-jokers-singles"),
        P("♦AAKKQQJJ", None, 32, id="X2-four-pair-tractor-x32"),
    ],
)
def test_X2_kitty_multiplier(lead, trump, multiplier):
    assert kitty_multiplier(lead, trump) == multiplier


def row(declarer, friend, attacker):
    return {"declarer": declarer, "friend": friend, "attacker": attacker}


def scored(result):
    return {"declarer": result["declarer"], "friend": result["friend"], "attacker": result["attacker"]}


@pytest.mark.parametrize(
    "points, expected",
    [
        P(0, row(40, 20, -20), id="S1-clean-sweep-0"),
        P(-5, row(8, 4, -4), id="S1-below-0-minus-5"),
        P(-30, row(8, 4, -4), id="S1-below-0-minus-30"),
        P(-200, row(8, 4, -4), id="S1-far-below-0"),
        P(5, row(8, 4, -4), id="S1-5"),
        P(15, row(8, 4, -4), id="S1-15"),
        P(20, row(6, 3, -3), id="S1-20"),
        P(35, row(6, 3, -3), id="S1-35"),
        P(40, row(4, 2, -2), id="S1-40"),
        P(55, row(4, 2, -2), id="S1-55"),
        P(60, row(2, 1, -1), id="S1-60"),
        P(75, row(2, 1, -1), id="S1-75"),
        P(80, row(-2, -1, 1), id="S1-80"),
        P(95, row(-2, -1, 1), id="S1-95"),
        P(100, row(-4, -2, 2), id="S1-100"),
        P(115, row(-4, -2, 2), id="S1-115"),
        P(120, row(-6, -3, 3), id="S1-120"),
        P(135, row(-6, -3, 3), id="S1-135"),
        P(140, row(-8, -4, 4), id="S1-140"),
        P(200, row(-14, -7, 7), id="S1-source-200-115-read-as-200-215"),
        P(215, row(-14, -7, 7), id="S1-215"),
        P(240, row(-18, -9, 9), id="S1-240"),
        P(255, row(-18, -9, 9), id="S1-255"),
        P(260, row(-20, -10, 10), id="S1-table-goes-on-260"),
        P(400, row(-34, -17, 17), id="S1-table-goes-on-400"),
    ],
)
def test_S1_score_table(points, expected):
    result = score_hand(points)
    assert scored(result) == expected
    assert result["declarer"] + result["friend"] + 3 * result["attacker"] == 0, "S1 every row sums to zero"


@pytest.mark.parametrize(
    "points, expected",
    [
        P(0, row(160, 0, -40), id="S2-solo-clean-sweep"),
        P(-10, row(32, 0, -8), id="S2-solo-below-0"),
        P(75, row(8, 0, -2), id="S2-solo-75"),
        P(80, row(-8, 0, 2), id="S2-solo-80"),
        P(240, row(-72, 0, 18), id="S2-solo-240"),
    ],
)
def test_S2_solo(points, expected):
    result = score_hand(points, solo=True)
    assert scored(result) == expected
    assert result["declarer"] + 4 * result["attacker"] == 0


@pytest.mark.parametrize(
    "points, declarations, solo, expected",
    [
        P(75, 2, False, row(4, 2, -2), id="S3-source-example-two-declarations-75"),
        P(75, 1, False, row(2, 1, -1), id="S3-one-declaration-75"),
        P(0, 3, False, row(120, 60, -60), id="D5-source-three-declarations-x3"),
        P(100, 3, False, row(-12, -6, 6), id="S3-three-declarations-100"),
        P(-15, 2, False, row(16, 8, -8), id="S3-negative-A-two-declarations"),
        P(100, 2, True, row(-32, 0, 8), id="S3-solo-and-two-declarations"),
        P(0, 4, True, row(640, 0, -160), id="S3-solo-sweep-four-declarations"),
    ],
)
def test_S3_D5_declaration_count_multiplies(points, declarations, solo, expected):
    assert scored(score_hand(points, declarations=declarations, solo=solo)) == expected


def test_S1_friend_scores_zero_only_in_a_solo():
    assert score_hand(60)["friend"] == 1
    assert score_hand(60, solo=True)["friend"] == 0


def test_the_row_is_named_as_the_book_labels_it() -> None:
    """The row "below 0, or 5–15" read as part of the sentence ("row below 0, or 5–15 of the
    table"): the row's label is quoted, as the Chinese does (“…”这一行)."""
    from tutor.rules.scoring import score_hand

    assert "row “below 0, or 5–15” of the table, -4 for each attacker (S1)" in str(score_hand(10).explanation)
