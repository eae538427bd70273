"""The coach's drills (``tutor.teach.drills.advice``): advice that says it is advice, whose
answer is the coach's search — and holds when the coach deals other layouts, twice as
many — never a rule."""

from __future__ import annotations

import random

import pytest

from tutor.teach.drills import KINDS, drill_rng, generate
from tutor.teach.drills.advice import KEYS, LAYOUTS, Position, position
from tutor.play.search import edge, search, weigh_calls
from widgets.drill import DrillPlayer

CASES = [(seed, level) for seed in range(4) for level in (1, 2, 3)]


def _position(seed: int, level: int) -> Position:
    return position(seed, level, drill_rng("advice", seed, level))  # as generate makes it


def _fresh(found: Position) -> list[tuple[int, ...]]:
    """Each option's results on other layouts, twice as many as the drill's."""
    rng = random.Random("other layouts")
    if found.values:
        again = search(found.view, rng=rng, layouts=2 * LAYOUTS, candidates=found.options)  # type: ignore[arg-type]
        return [again.value_of(play).results for play in found.options]  # type: ignore[union-attr, arg-type]
    return list(weigh_calls(found.view, found.options, rng=rng, layouts=2 * LAYOUTS))  # type: ignore[arg-type]


def test_the_coachs_choice_holds_on_other_deals():
    """The drill's answer is the search's best, and on fresh layouts it is still the best
    (or, once in a while, level with the best: never clearly worse)."""
    agree = 0
    for seed, level in CASES:
        found = _position(seed, level)
        drill = generate("advice", seed, level)
        assert drill.correct == {KEYS[found.best]}
        assert max(range(3), key=found.expected) == found.best
        results = _fresh(found)
        best = max(range(3), key=lambda i: sum(results[i]))
        agree += best == found.best
        for index in set(range(3)) - {found.best}:
            gain, error = edge(results[found.best], results[index])
            assert gain > -2 * error, (seed, level, index, gain, error)
    assert agree >= len(CASES) - 1, f"the coach's choice held in {agree} of {len(CASES)} positions"


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_an_advice_drill_says_it_is_advice_and_never_names_a_rule(lang):
    marks = {"en": "advice, not a rule", "zh-Hans": "这是建议，不是规则", "zh-Hant": "這是建議，不是規則"}

    def said(text: str) -> bool:
        return marks[lang] in text.lower()

    for seed in (0, 1):
        drill = generate("advice", seed, 1, lang=lang)
        assert drill.advice and drill.rule == "" and KINDS["advice"].advice
        assert said(drill.question) and said(drill.explain)
        for choice in drill.choices:
            feedback = drill.check(choice.key)
            assert feedback.rule == "" and feedback.error is None
            if choice.key in drill.correct:
                assert feedback.correct and said(feedback.message)
            else:
                assert not feedback.correct and said(feedback.message)
                assert not any(c.label in feedback.message for c in drill.choices if c.key in drill.correct)


def test_the_same_link_gives_the_same_position_and_numbers():
    first, again = generate("advice", 3, 2), generate("advice", 3, 2)
    assert first == again and first.explain == again.explain


def test_the_drill_player_marks_an_advice_drill():
    player = DrillPlayer("advice", seed=0, level=1, lang="en")
    assert player.state["advice"] is True
    assert player.labels["advice"] == "Advice, not a rule"
    assert DrillPlayer("follow", seed=0, level=1, lang="en").state["advice"] is False
