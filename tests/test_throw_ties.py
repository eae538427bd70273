"""L4 (RULES.md): where two components of one kind tie for smallest (T6: ♣2 and ♦2
when ♠ is trump), each of them is an option and the thrower chooses."""
import pytest

from tutor import check_throw


def key(cards):
    return " ".join(map(str, cards))


TIES = [
    # throw, other hands, trump, options (each one notation string, in any order), penalty
    pytest.param("大王 ♣2 ♦2", ["小王"], "♠", ["♣2", "♦2"], 15, id="L4-book-example-tied-singles-each-an-option"),
    pytest.param("大王 大王 ♣2 ♣2 ♦2 ♦2", ["小王 小王"], "♠", ["♣2 ♣2", "♦2 ♦2"], 30,
                 id="L4-tied-pairs-each-an-option"),
    pytest.param("大王 ♥2 ♣2 ♦2", ["小王"], "♠", ["♥2", "♣2", "♦2"], 20, id="L4-three-tied-singles"),
    pytest.param("大王 ♠2 ♣2", ["小王"], "♠", ["♣2"], 15, id="L4-trump-suit-2-is-higher-no-tie"),
    pytest.param("大王 ♣2 ♦2 ♠A", ["小王"], "♠", ["♠A"], 20, id="L4-no-tie-when-one-is-smaller"),
]


@pytest.mark.parametrize("throw, others, trump, options, penalty", TIES)
def test_L4_tied_smallest_components_are_each_an_option(throw, others, trump, options, penalty):
    result = check_throw(throw, others, trump)
    assert not result
    assert sorted(key(o) for o in result.options) == sorted(key(check_throw(o, [], trump).components[0].cards)
                                                            for o in options)
    assert result.penalty == penalty
