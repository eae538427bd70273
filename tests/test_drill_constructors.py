"""Each drill kind's constructor from explicit cards (``from_cards`` of
tutor.teach.drills.follow, ruff, throw and tractor): a seeded drill is the drill its
constructor makes from the drill's own cards, a teacher's position is asked through
the same constructor (same wording, same verdicts, same message for a wrong choice),
and a position that is no question of the kind is refused with DrillError (a TutorError)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations, islice

import pytest

from tutor.teach.drills import KINDS as REGISTRY
from tutor.core.errors import TutorError
from tutor.teach.drills import AnswerKind, Drill, DrillError, follow, generate, ruff, throw, tractor
from tutor.core.i18n import Translator
from tutor.rules.notation import parse_cards
from tutor.rules.order import Trump
from tutor.teach.positions import Position, make_drill
from tutor.rules.throw import check_throw

KINDS = ("follow", "ruff", "throw", "tractor")
CASES = [(kind, level, seed) for kind in KINDS for level in (1, 2, 3) for seed in range(16)]
EN = Translator("en")


def form_of(drill: Drill) -> str:
    forms = REGISTRY[drill.kind].forms
    return forms[drill.seed % len(forms)]


def rebuilt(drill: Drill) -> Drill:
    """``drill`` made again by its kind's constructor, from the cards it shows."""
    tr = Translator(drill.lang)
    plays = [cards for _, cards in drill.table.plays]
    form = form_of(drill)
    common = {"level": drill.level, "seed": drill.seed}
    if drill.kind == "follow":
        return follow.from_cards(tr, trump=drill.trump, hand=drill.hand, leader=drill.table.plays[0][0],
                                 table=plays, form=form, ask=drill.shown, **common)
    if drill.kind == "ruff":
        return ruff.from_cards(tr, trump=drill.trump, hand=drill.hand, leader=drill.table.plays[0][0], table=plays,
                               form=form, ask=drill.shown, **common)
    if drill.kind == "throw":
        assert drill.seat is not None
        return throw.from_cards(tr, trump=drill.trump, hand=drill.hand, seat=drill.seat, throw=drill.shown,
                                others=[cards for _, cards in drill.others], form=form, **common)
    return tractor.from_cards(tr, trump=drill.trump, hand=drill.hand, seat=drill.seat, form=form, ask=drill.shown,
                              **common)


def answers(drill: Drill) -> list[object]:
    """Answers to judge: every choice, numbers around the right one, or the right picks
    and a few others of the right size."""
    if drill.answer is AnswerKind.CHOICE:
        return [c.key for c in drill.choices]
    if drill.answer is AnswerKind.NUMBER:
        assert drill.number is not None
        return [drill.number, drill.number - 5, drill.number + 5]
    picks = list(islice(combinations(drill.hand, drill.pick or 2), 0, 200, 37))
    return [*drill.solutions()[0][:3], *picks]


_CARD = r"(?:[♠♥♣♦](?:10|[2-9JQKA])|BJ|SJ|大王|小王)"
_RUN = re.compile(rf"{_CARD}(?: {_CARD})*")


def worded(text: str, kind: str) -> str:
    """``text`` with every run of cards in one order: a seeded drill's sentences list
    held cards in the order they were dealt, which the drill does not keep (it shows
    the hand in holding order). In a throw, equal trumps (the off-suit 2s) are one: of
    two that beat a part, the sentence names the one found first."""
    text = _RUN.sub(lambda m: " ".join(sorted(m.group(0).split())), text)
    return re.sub(r"[♠♥♣♦]2", "2", text) if kind == "throw" else text


def same_verdicts(ours: Drill, theirs: Drill, exact: bool = True) -> None:
    for answer in answers(theirs):
        mine, seeded = ours.check(answer), theirs.check(answer)
        if exact:
            assert mine == seeded, answer
            continue
        assert (mine.correct, mine.rule, mine.answers, mine.answer_count, mine.error) == (
            seeded.correct, seeded.rule, seeded.answers, seeded.answer_count, seeded.error), answer
        for said, told in ((mine.message, seeded.message), (mine.explanation, seeded.explanation)):
            assert worded(said, ours.kind) == worded(told, ours.kind), answer


def equal_parts(drill: Drill) -> bool:
    """A throw with two equal parts (the off-suit 2s in no-trump …): which of them is
    named first follows the order the cards were thrown in, which the drill does not
    keep (it shows the throw in holding order)."""
    if drill.kind != "throw":
        return False
    result = check_throw(drill.shown, [cards for _, cards in drill.others], drill.trump)
    parts = [(c.kind_key, c.top) for c in result.components]
    return len(set(parts)) < len(parts)


@pytest.mark.parametrize(("kind", "level", "seed"), CASES)
def test_a_seeded_drill_is_its_constructors_drill(kind: str, level: int, seed: int) -> None:
    """The constructor, given a seeded drill's cards, makes that drill: every field
    the same, but for the order the explanation lists held cards in (see :func:`worded`)."""
    seeded = generate(kind, seed, level)
    mine = rebuilt(seeded)
    if equal_parts(seeded):
        assert (mine.correct, mine.answer, mine.number, mine.rule) == (
            seeded.correct, seeded.answer, seeded.number, seeded.rule)
        return
    assert replace(mine, explain=seeded.explain) == seeded
    assert worded(mine.explain, kind) == worded(seeded.explain, kind)
    same_verdicts(mine, seeded, exact=False)


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_constructors_speak_the_learners_language(kind: str, lang: str) -> None:
    for seed in range(4):
        seeded = generate(kind, seed, 2, lang)
        if not equal_parts(seeded):
            mine = rebuilt(seeded)
            assert replace(mine, explain=seeded.explain) == seeded
            assert worded(mine.explain, kind) == worded(seeded.explain, kind)


def position_of(drill: Drill) -> Position:
    """The position a teacher would type to ask ``drill``'s question."""
    plays = tuple(cards for _, cards in drill.table.plays)
    return Position(drill.kind, form_of(drill), drill.trump, hand=drill.hand,
                    leader=drill.table.plays[0][0] if plays else 0,
                    seat=drill.seat if drill.kind in ("throw", "tractor") and drill.seat is not None else 0,
                    table=plays, ask=drill.shown if drill.answer is not AnswerKind.CARDS or drill.kind == "throw"
                    else (), others=tuple(cards for _, cards in drill.others))


@pytest.mark.parametrize(("kind", "level", "seed"), CASES[::2])
def test_a_position_is_asked_by_its_kinds_constructor(kind: str, level: int, seed: int) -> None:
    """A seeded drill typed in as a position is the constructor's drill of those cards:
    the same question, hints and explanation, and the same feedback on every answer,
    a wrong choice's included."""
    seeded = generate(kind, seed, level)
    made = rebuilt(seeded)
    mine = make_drill(position_of(seeded))
    assert mine == replace(made, level=1, seed=0)
    same_verdicts(mine, made)


H = Trump("♥")
C = parse_cards
REFUSED: list[tuple[Callable[[], Drill], str]] = [
    (lambda: follow.from_cards(EN, trump=H, hand=C("♠3"), leader=0, table=[C("♠K")], form="guess"), "form"),
    (lambda: follow.from_cards(EN, trump=H, hand=C("♠3"), leader=0, table=[]), "cards led"),
    (lambda: follow.from_cards(EN, trump=H, hand=C("♠3"), leader=0, table=[C("♠K ♠K")]), "as many cards"),
    (lambda: follow.from_cards(EN, trump=H, hand=C("♠3"), leader=0, table=[C("♠K")], form="is-legal"), "asks about"),
    (lambda: ruff.from_cards(EN, trump=H, hand=C("♠3 ♣4"), leader=0, table=[C("♠K")]), "no play of the hand"),
    (lambda: ruff.from_cards(EN, trump=H, hand=C("♥3"), leader=0, table=[C("♠K")], form="beat-ruff", ask=C("♥3")),
     "winning the trick"),
    (lambda: ruff.from_cards(EN, trump=H, hand=C("♥3"), leader=0, table=[C("♠K")], form="can-ruff"), "asks about"),
    (lambda: throw.from_cards(EN, trump=H, hand=C("♠A ♠K"), seat=0, throw=C("♠A ♠K"), others=[(), ()]), "other 4"),
    (lambda: throw.from_cards(EN, trump=H, hand=C("♠A ♠K"), seat=0, throw=C("♠A ♠K"), others=[()] * 4,
                              form="cost"), "fails"),
    (lambda: throw.from_cards(EN, trump=H, hand=C("♠A"), seat=0, throw=(), others=[()] * 4), "cards thrown"),
    (lambda: tractor.from_cards(EN, trump=H, hand=C("♠A ♠K ♣3")), "holding a tractor"),
    (lambda: tractor.from_cards(EN, trump=H, form="is-tractor"), "asks about"),
]


@pytest.mark.parametrize(("make", "says"), REFUSED, ids=[says for _, says in REFUSED])
def test_a_position_that_is_no_question_is_refused(make: Callable[[], Drill], says: str) -> None:
    with pytest.raises(DrillError, match=says) as refused:
        make()
    assert isinstance(refused.value, TutorError) and refused.value.parameter


def test_a_wrong_choice_is_told_the_same_in_a_position_and_a_seeded_drill() -> None:
    """The yes/no drills of a position say of a wrong choice what seeded drills say."""
    drill = make_drill(Position("follow", "is-legal", H, hand=C("♠3 ♠3 ♠5 ♥2"), table=(C("♠K ♠K"),), ask=C("♠3 ♠5")))
    made = follow.from_cards(EN, trump=H, hand=C("♠3 ♠3 ♠5 ♥2"), leader=0, table=[C("♠K ♠K")], form="is-legal",
                             ask=C("♠3 ♠5"))
    assert drill == made and drill.check("yes") == made.check("yes")
    wrong = drill.check("yes")  # told why (of two choices, the verdict names the answer anyway), by its rule
    assert not wrong.correct and wrong.rule == "W3" and "you must follow with a pair" in wrong.message
