"""Bad input: every refusal is a clear ValueError subclass, never a crash (N3, C1, W0, W1, L1)."""

from __future__ import annotations

import pytest

from tutor import (
    CardCountError,
    InvalidPlayError,
    NotationError,
    Trump,
    TutorError,
    check_follow,
    check_ruff,
    check_throw,
    kitty_flip,
    kitty_multiplier,
    legal_follows,
    parse_cards,
    score_hand,
    split,
    trick_winner,
)

P = pytest.param


def test_errors_are_value_errors():
    for error in (TutorError, NotationError, CardCountError, InvalidPlayError):
        assert issubclass(error, ValueError)
    for error in (NotationError, CardCountError, InvalidPlayError):
        assert issubclass(error, TutorError)


@pytest.mark.parametrize(
    "text, token, offset",
    [
        P("♠A X", "X", 3, id="N3-unknown-token"),
        P("♠AX", "♠AX", 0, id="N3-bad-rank-inside-group"),
        P("♥3 ♠1", "♠1", 3, id="N3-one-is-not-a-rank"),
        P("♥3 ♠101", "♠101", 3, id="N3-stray-1-after-ten"),
        P("♥3, ♠Z", "♠Z", 4, id="N3-offset-after-comma"),
        P("♠", "♠", 0, id="N3-suit-without-rank"),
        P("♥3 ♠", "♠", 3, id="N3-suit-without-rank-later"),
        P("BJBJ", "BJBJ", 0, id="N3-jokers-must-be-separate-tokens"),
        P("♠A J", "J", 3, id="N3-rank-without-suit"),
        P("10", "10", 0, id="N3-ten-without-suit"),
        P("♠A ♠11", "♠11", 3, id="N3-eleven"),
        P("♠A ♠0", "♠0", 3, id="N3-zero"),
        P("♠A ♠1 ♥K", "♠1", 3, id="N3-first-bad-token-quoted"),
        P("XY", "XY", 0, id="N3-garbage"),
        P("♠A 大王王", "大王王", 3, id="N3-joker-name-with-extra"),
        P("♠A  ♥Q  ♣Z", "♣Z", 8, id="N3-double-spaces-count"),
        P("♠1♥2", "♠1♥2", 0, id="N3-two-suits-in-one-token"),
    ],
)
def test_N3_bad_notation_quotes_token_and_offset(text, token, offset):
    with pytest.raises(NotationError) as info:
        parse_cards(text)
    error = info.value
    assert error.token == token
    assert error.offset == offset
    message = str(error)
    assert token in message
    assert str(offset) in message


@pytest.mark.parametrize(
    "text",
    [
        P("♠AAA", id="C1-three-aces-in-a-group"),
        P("♠A ♠A ♠A", id="C1-three-aces-separate"),
        P("♠AA SA", id="C1-three-aces-mixed-notation"),
        P("BJ BJ 大王", id="C1-three-big-jokers"),
        P("sj SJ 小王", id="C1-three-small-jokers"),
        P("♥1010 HT", id="C1-three-heart-tens"),
    ],
)
def test_C1_N3_third_copy_refused(text):
    with pytest.raises(CardCountError):
        parse_cards(text)


@pytest.mark.parametrize(
    "call",
    [
        P(lambda: check_follow("♠AAA", "♠K", "♠A", "♥"), id="C1-third-copy-in-hand"),
        P(lambda: check_follow("♠A ♥3", "♠KKK", "♠A", "♥"), id="C1-third-copy-in-lead"),
        P(lambda: check_follow("♠AA ♥3", "♠33", "♠AAA", "♥"), id="C1-third-copy-in-play"),
        P(lambda: list(legal_follows("♠AAA", "♠K", "♥")), id="C1-third-copy-legal_follows"),
        P(lambda: trick_winner(["♠33", "♠3 ♠4"], "♥"), id="C1-third-copy-across-a-trick"),
        P(lambda: check_throw("♠AK", ["♠QQQ"], "♥"), id="C1-third-copy-in-other-hand"),
        P(lambda: split("♠333", "♥"), id="C1-third-copy-split"),
    ],
)
def test_C1_third_copy_in_any_argument(call):
    with pytest.raises(CardCountError):
        call()


@pytest.mark.parametrize(
    "hand, lead, play, trump, rule",
    [
        P("♠A ♥3", "♠K", "♠Q", "♥", "W0", id="W0-card-not-in-hand-is-a-verdict"),
        P("♠A ♠K", "♠33", "♠A ♠A", "♥", "W0", id="W0-two-copies-one-held"),
        P("♠A ♠K", "♠3", "BJ", "♥", "W0", id="W0-joker-not-held"),
        P("♠A ♠K ♠Q", "♠33", "♠A", "♥", "W1", id="W1-too-few"),
        P("♠A ♠K ♠Q", "♠3", "♠A ♠K", "♥", "W1", id="W1-too-many"),
        P("♠A ♠K ♠Q", "♠3", "", "♥", "W1", id="W1-empty-play"),
    ],
)
def test_W0_W1_are_verdicts_not_exceptions(hand, lead, play, trump, rule):
    verdict = check_follow(hand, lead, play, trump)
    assert not verdict.legal
    assert verdict.rule == rule
    assert verdict.reason
    assert verdict.example is not None
    assert check_follow(hand, lead, verdict.example, trump).legal


@pytest.mark.parametrize(
    "call",
    [
        P(lambda: check_follow("♥3 ♣4", "♠A ♥A", "♥3 ♣4", "♣"), id="L1-check_follow"),
        P(lambda: check_follow("♥3 ♣4", "♠A ♠2", "♥3 ♣4", "♥"), id="L1-2-is-not-a-spade"),
        P(lambda: check_follow("♥3", "", "♥3", "♣"), id="L1-empty-lead"),
        P(lambda: list(legal_follows("♥3 ♣4", "♠A ♥A", "♣")), id="L1-legal_follows"),
        P(lambda: trick_winner(["♠A ♥A", "♣3 ♣4"], "♦"), id="L1-trick_winner"),
        P(lambda: check_throw("♠A ♥A", ["♣3"], "♦"), id="L1-check_throw"),
        P(lambda: check_ruff("♥3 ♥4", "♠A ♣A", "♥3 ♥4", "♥"), id="L1-check_ruff"),
        P(lambda: kitty_multiplier("♠A ♥A", "♦"), id="L1-kitty_multiplier"),
    ],
)
def test_L1_mixed_leads_raise_invalid_play(call):
    with pytest.raises(InvalidPlayError):
        call()


@pytest.mark.parametrize(
    "value",
    [
        P("X", id="T2-unknown-letter"),
        P("", id="T2-empty-string"),
        P("♠♥", id="T2-two-suits"),
        P("10", id="T2-a-rank"),
        P("BJ", id="T2-a-joker-is-not-a-suit"),
        P("spades!", id="T2-word"),
        P(5, id="T2-an-int"),
    ],
)
def test_T2_bad_trump_is_a_value_error(value):
    with pytest.raises(ValueError):
        Trump(value)
    with pytest.raises(ValueError):
        check_follow("♠A", "♠K", "♠A", value)


@pytest.mark.parametrize(
    "value, suit",
    [
        P("♥", "♥", id="T2-symbol"),
        P("H", "♥", id="T2-letter"),
        P("h", "♥", id="T2-lower-case-letter"),
        P("红桃", "♥", id="T2-chinese-name"),
        P("方片", "♦", id="T2-fangpian"),
        P("黑桃", "♠", id="T2-heitao"),
    ],
)
def test_T2_trump_spellings(value, suit):
    assert Trump(value) == Trump(suit)
    assert Trump(value).is_trump(parse_cards(suit + "3")[0])


@pytest.mark.parametrize(
    "value",
    [P(42, id="N3-int-is-not-cards"), P(3.5, id="N3-float-is-not-cards"), P([42], id="N3-list-of-int")],
)
def test_N3_non_card_input_is_a_value_error(value):
    with pytest.raises(ValueError):
        parse_cards(value)


@pytest.mark.parametrize(
    "plays",
    [
        P([], id="B1-empty-trick"),
        P(["♠A", "♠K ♠Q"], id="W1-trick-with-unequal-play-sizes"),
    ],
)
def test_B1_malformed_trick_is_a_value_error(plays):
    with pytest.raises(ValueError):
        trick_winner(plays, "♥")


@pytest.mark.parametrize(
    "call",
    [
        P(lambda: score_hand(7), id="S1-A-not-a-multiple-of-5"),
        P(lambda: kitty_flip("♠3 ♠4"), id="C2-kitty-of-two-cards"),
        P(lambda: kitty_flip("♠3 ♠3 ♠3 ♥4 ♥4 ♣5 ♣5 ♦6"), id="C1-kitty-third-copy"),
    ],
)
def test_other_refusals_are_value_errors(call):
    with pytest.raises(ValueError):
        call()
