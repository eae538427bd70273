"""Feedback that does not give the answer away, and explanations that say things once.

- A first wrong answer is told why *it* is wrong (``Feedback.message``); why the correct
  answer is right (``Feedback.explanation``, the drill's ``explain``) waits for the
  reveal: the drill player sends it only with the answers, on "Show answer".
- No explanation repeats its subject ("♣7: ♣7 follows …", "Seat 3 wins the trick: ♠Q
  wins: …"), and every verdict carries its rule ID.
- A failed throw offers only leads of the kinds that were beaten (L4), and its sentence
  names a beaten part of every kind it offers.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import combinations, islice

import pytest

from tutor.rules.cards import PACK
from tutor.teach.drills import KINDS, AnswerKind, Drill, generate
from tutor.teach.drills.common import about
from tutor.rules.follow import check_follow, legal_follows
from tutor.core.i18n import Translator
from tutor.rules.order import Trump
from tutor.rules.throw import ThrowResult, check_throw
from tutor.rules.trick import explain_trick, why_not
from tutor.rules.verdict import cited_rules
from widgets.drill import DrillPlayer

SEEDS = range(24)
CASES = [(kind, level, seed) for kind in KINDS for level in KINDS[kind].levels
         for seed in (SEEDS if not KINDS[kind].advice else range(2))]  # the coach's drills search: fewer
_RULE_ID = re.compile(r"^[A-Z]\d$")


def wrong_answer(drill: Drill) -> object | None:
    """An answer the drill judges wrong (None when none is found quickly)."""
    if drill.answer is AnswerKind.CHOICE:
        return next((c.key for c in drill.choices if c.key not in drill.correct), None)
    if drill.answer is AnswerKind.NUMBER:
        assert drill.number is not None
        return drill.number + 5
    size = drill.pick or 1
    for cards in islice(combinations(drill.hand, size), 400):
        if not drill.check(cards).correct:
            return cards
    return None


def right_answer(drill: Drill) -> object:
    if drill.answer is AnswerKind.CHOICE:
        return next(iter(drill.correct))
    if drill.answer is AnswerKind.NUMBER:
        return drill.number
    return drill.solutions()[0][0]


@pytest.mark.parametrize(("kind", "level", "seed"), CASES)
def test_a_first_wrong_answer_keeps_the_explanation_back(kind: str, level: int, seed: int) -> None:
    drill = generate(kind, seed, level)
    answer = wrong_answer(drill)
    if answer is None:
        pytest.skip("no wrong pick among the first combinations")
    feedback = drill.check(answer)
    assert feedback.error is None and not feedback.correct
    if drill.advice:  # the coach's: no rule (its title says it is advice, once: test_advice_drills)
        assert feedback.rule == "" and "not a rule" not in feedback.message.lower(), feedback
    else:
        assert _RULE_ID.match(feedback.rule), feedback
    assert feedback.message.startswith("Not quite.") and len(feedback.message) > len("Not quite.")
    if drill.explain and _two_choices(drill):  # "no" wrong says "yes" anyway: it is told why, once
        assert drill.explain in feedback.message and feedback.explanation == ""
    elif drill.explain:
        assert drill.explain not in feedback.message
        assert feedback.explanation == drill.explain
    if drill.answer is AnswerKind.CHOICE and not _two_choices(drill):  # of two, the other is named anyway
        for choice in drill.choices:
            if choice.key in drill.correct and choice.label not in ("Yes", "No"):
                assert choice.label not in feedback.message, (choice.label, feedback.message)
    if drill.answer is AnswerKind.NUMBER:
        assert not re.search(rf"(?<![\w-]){drill.number}(?!\d)", feedback.message), feedback.message


def _two_choices(drill: Drill) -> bool:
    return drill.answer is AnswerKind.CHOICE and len(drill.choices) == 2 and drill.refute is None


@pytest.mark.parametrize(("kind", "level", "seed"), CASES)
def test_a_wrong_choice_is_told_why_by_the_rule_it_broke(kind: str, level: int, seed: int) -> None:
    """Every wrong answer's badge names a rule its sentence cites, if it cites any (the rule the answer broke, not
    the drill's topic: "Rule W6" over a reason citing B1 was wrong), and every wrong choice is told
    why, with its rule, not just that it is not the answer ("“Seat 2” is not the answer (D6)")."""
    drill = generate(kind, seed, level)
    if drill.answer is not AnswerKind.CHOICE or drill.advice:
        return
    for choice in drill.choices:
        if choice.key in drill.correct:
            continue
        feedback = drill.check(choice.key)
        cited = cited_rules(feedback.message)
        assert not cited or feedback.rule in cited, (feedback.rule, feedback.message)
        assert "is not the answer" not in feedback.message, feedback.message  # why, not just that


@pytest.mark.parametrize(("kind", "level", "seed"), CASES[::5])
def test_a_right_answer_says_why_at_once(kind: str, level: int, seed: int) -> None:
    drill = generate(kind, seed, level)
    feedback = drill.check(right_answer(drill))
    assert feedback.correct and feedback.explanation == ""
    if drill.explain and drill.answer is not AnswerKind.CARDS:  # a pick is judged by its own sentence
        assert drill.explain in feedback.message


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_the_player_shows_why_only_when_the_answer_is_shown(lang: str) -> None:
    player = DrillPlayer("trick", seed=3, level=1, lang=lang)
    drill = player.drill
    assert drill is not None and drill.explain
    wrong = wrong_answer(drill)
    first = player._check(wrong, check_id=1)
    assert first["explanation"] == "" and first["answers"] == [] and not first["revealed"]
    assert drill.explain not in first["message"]
    player.reveal()
    assert player.feedback["explanation"] == drill.explain and player.feedback["answers"]
    player.next()
    for _ in range(3):
        last = player._check(wrong_answer(player.drill), check_id=2)  # type: ignore[arg-type]
    assert not last["revealed"] and last["explanation"] == "" and last["can_reveal"]  # never unasked


def _repeats(text: str) -> str | None:
    """The subject a sentence says twice in a row ("♣7: ♣7 follows", "wins …: ♠Q wins"), or None."""
    parts = text.split(": ")
    for before, after in zip(parts, parts[1:]):
        subject = before.rsplit(". ", 1)[-1].strip()
        if subject and after.startswith(subject):
            return subject
    for sentence in re.split(r"(?<=\.) ", text):
        if sentence.count(" wins") > 1 and "wins: " in sentence:
            return "wins"
    return None


def test_the_repeat_check_catches_repeats() -> None:
    assert _repeats("♣7: ♣7 follows a single in ♣ (W2).") == "♣7"
    assert _repeats("Seat 3 wins the trick: ♠Q wins: it is the highest single in the led suit (B1).") == "wins"
    assert _repeats("Seat 3 wins the trick with ♠Q: it is the highest single in the led suit (B1).") is None


@pytest.mark.parametrize("kind", ["follow", "ruff", "trick", "throw", "tractor", "declare", "friend", "score"])
def test_no_explanation_repeats_its_subject(kind: str) -> None:
    for level in KINDS[kind].levels:
        for seed in range(40):
            drill = generate(kind, seed, level)
            wrong = wrong_answer(drill)
            texts = [drill.explain] + ([drill.check(wrong).message] if wrong is not None else [])
            for text in texts:
                assert _repeats(text) is None, (kind, level, seed, text)


def test_legal_follows_say_their_rule_and_name_the_cards_once() -> None:
    rng = random.Random(5)
    en = Translator("en")
    for _ in range(300):
        pack = list(PACK)
        rng.shuffle(pack)
        trump = Trump(rng.choice(["♠", "♥", "♣", "♦", None]))
        hand, lead = pack[:12], pack[12:12 + rng.choice([1, 1, 2])]
        if len(lead) == 2:
            lead = [lead[0], lead[0]]
        if Counter(hand + lead).most_common(1)[0][1] > 2:
            continue
        follow = next(iter(legal_follows(hand, lead, trump)))
        verdict = check_follow(hand, lead, follow, trump)
        said = en(verdict.reason)
        assert verdict.legal and re.search(r"\((?:W[0-6]|R1)", said), said
        assert _repeats(about(follow, verdict.reason, en)) is None


def test_trick_sentences_name_the_winner_once_and_cite_w6_for_a_discard() -> None:
    outcome = explain_trick(["♦3", "♣A", "♠4", "♠5", "♣6"], "♥")
    assert outcome.winner == 0 and "(W6)" in outcome.reason and "T6" not in outcome.reason
    assert "♣A is a discard" in outcome.cause and "wins:" not in outcome.cause
    drill = generate("trick", 9, 2)  # lesson 05's W6 check
    assert drill.rule == "W6" and "(W6)" in drill.explain and _repeats(drill.explain) is None


def test_why_a_play_loses_never_names_the_winner() -> None:
    for seed in range(30):
        for level in (1, 2, 3):
            drill = generate("trick", seed, level)
            plays = [cards for _, cards in drill.table.plays]
            outcome = explain_trick(plays, drill.trump)
            won = " ".join(map(str, plays[outcome.winner]))
            for index, cards in enumerate(plays):
                if index == outcome.winner:
                    continue
                text = Translator("en")(why_not(plays, index, drill.trump))
                assert re.search(r"\((?:B1|R5|T6|W6)\)$", text), text
                mine = " ".join(map(str, cards))
                assert won not in text.replace(mine, ""), (text, won)


def failed_throw(seed: int) -> ThrowResult | None:
    """A random throw against four random hands of 16 (one deal: no third copies), if it fails."""
    rng = random.Random(seed)
    pack = list(PACK)
    rng.shuffle(pack)
    trump = Trump(rng.choice(["♠", "♥", "♣", "♦"]))
    hands = [pack[16 * i:16 * (i + 1)] for i in range(4)]
    lane = trump.lane(pack[64])
    throw = [c for c in pack[64:] if trump.lane(c) == lane][:rng.randint(2, 6)]
    result = check_throw(throw, hands, trump)
    return None if result.ok else result


def test_a_failed_throw_offers_only_the_beaten_kinds_and_names_each() -> None:
    en = Translator("en")
    seen = Counter[int]()
    for seed in range(1500):
        result = failed_throw(seed)
        if result is None:
            continue
        beaten_kinds = {len(b.component.cards) for b in result.beaten}
        offered = {len(option) for option in result.options}
        assert offered == beaten_kinds, (result.options, result.beaten)
        said = en(result.reason)
        for size in offered:
            first = next(b for b in result.beaten if len(b.component.cards) == size)
            assert en(first.component.describe()) in said, (said, first)
        seen[len(offered)] += 1
    assert seen[1] and seen[2], seen  # both the one-kind and the several-kind sentences were tried
