"""Throw drills (L2–L5): "Does this throw stand?", "What must be led instead?" and
"What does the failed throw cost?".

The thrower is the learner, leading the first trick of a real deal. Whether a throw
stands, and which part is led instead, rests on the other hands: the question names
the trump and lists each other hand's cards of the thrown suit (``others`` holds
them too), so it can be answered from the screen. Level 1: throws of 2–3 cards;
level 2: 3–5 cards with a pair; level 3: 4–8 cards with pairs or a tractor.

Every throw drill is made by :func:`from_cards` from its cards (trump, hand, seat,
throw, the other hands): :func:`make` deals a seeded position and asks it, and a
teacher's position (:mod:`tutor.teach.positions`) is asked the same way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial

from tutor.rules.cards import PLAYERS, Card
from tutor.rules.combos import Component, Kind, split
from tutor.teach.drills.base import AnswerKind, Choice, Drill
from tutor.teach.drills.common import (
    DrillError,
    Hand,
    deal,
    holdings,
    lanes_of_hand,
    pick_trump,
    redraw,
    with_trump,
    yes_no,
    yes_no_key,
)
from tutor.core.errors import shown
from tutor.core.i18n import Text, Translator, capitalized
from tutor.rules.order import Trump
from tutor.rules.throw import ThrowResult, check_throw

FORMS = ("stands", "lead-instead", "cost")
RULES = ("L2", "L3", "L4", "L5")
"""The rule IDs a throw drill practises."""
_SIZES = {1: (2, 3), 2: (3, 5), 3: (4, 8)}

Position = tuple[Trump, int, Hand, tuple[Card, ...], list[Hand], ThrowResult]


def _throw(rng: random.Random, components: list[Component], level: int, ok: bool) -> tuple[Card, ...] | None:
    low, high = _SIZES[level]
    if ok:  # long throws that stand are rare in a full deal
        low = min(low, 3)
    rng.shuffle(components)
    chosen: list[Component] = []
    size = 0
    target = rng.randint(low, high)
    for c in components:
        if size + len(c.cards) <= high:
            chosen.append(c)
            size += len(c.cards)
        if size >= target:
            break
    if len(chosen) < 2 or size < low:
        return None
    if level >= 2 and all(c.kind is Kind.SINGLE for c in chosen):
        return None
    return tuple(card for c in chosen for card in c.cards)


def _position(form: str, level: int, rng: random.Random) -> Position:
    want_ok = form == "stands" and rng.random() < 0.5

    def build(rng: random.Random) -> Position | None:
        trump = pick_trump(rng, level)
        hands, _ = deal(rng)
        for seat in rng.sample(range(PLAYERS), PLAYERS):
            found = _from_seat(rng, trump, hands, seat)
            if found is not None:
                return found
        return None

    def _from_seat(rng: random.Random, trump: Trump, hands: list[Hand], seat: int) -> Position | None:
        by_lane = lanes_of_hand(hands[seat], trump)
        suits = sorted(by_lane)
        rng.shuffle(suits)
        others = [hands[s] for s in range(PLAYERS) if s != seat]
        for lane in suits:
            components = list(split(by_lane[lane], trump))
            if want_ok:  # a throw that stands is made of the suit's top parts
                components.sort(key=lambda c: -c.top)
                components = components[:rng.randint(2, 4)]
            throw = _throw(rng, components, level, want_ok)
            if throw is None:
                continue
            result = check_throw(throw, others, trump)
            if result.ok != want_ok:
                continue
            if form == "lead-instead" and len(result.options) == len(result.components):
                continue  # every part is an answer: nothing to ask
            kinds = [(c.kind_key, c.top) for c in result.components]
            if form == "lead-instead" and len(set(kinds)) < len(kinds):
                continue  # two equal parts (the off-suit 2s): "the smallest" would be ambiguous
            if form == "lead-instead" and level == 3 and len(result.options) < 2 and rng.random() < 0.5:
                continue  # level 3 prefers throws where the thrower may choose (L4)
            return trump, seat, hands[seat], throw, others, result
        return None

    return redraw(rng, build, Text("a throw that stands") if want_ok else Text("a throw that fails"))


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    form = FORMS[seed % len(FORMS)]
    trump, seat, hand, throw, others, _result = _position(form, level, rng)
    return from_cards(tr, trump=trump, hand=hand, seat=seat, throw=throw, others=others, form=form, level=level,
                      seed=seed)


def from_cards(tr: Translator, *, trump: Trump, hand: Sequence[Card], seat: int, throw: Sequence[Card],
               others: Sequence[Sequence[Card]], form: str = "stands", level: int = 1, seed: int = 0) -> Drill:
    """The throw drill of a position given card by card, said in ``tr``'s language.

    The learner, at ``seat`` with ``hand``, leads ``throw`` (cards of the hand);
    ``others`` are the four other hands in seat order (whole, or only their cards of
    the thrown suit: only those can beat a part, L3), and the drill shows their cards
    of the thrown suit. ``form`` is a key of :data:`FORMS`: "stands" asks whether the
    throw stands (yes/no), "lead-instead" which part must be led when it fails (a
    choice among its parts), "cost" what the failed throw costs (a number).
    ``level`` and ``seed`` are the drill's own (a seeded drill's, or 1 and 0). Every
    answer is the rules module's (:func:`tutor.rules.throw.check_throw`).

    A position that is no throw question (an unknown form, no throw, not four other
    hands, a "lead-instead" or "cost" question about a throw that stands) is refused
    with :class:`~tutor.teach.drills.common.DrillError`.

    >>> from tutor.rules.notation import parse_cards
    >>> drill = from_cards(Translator("en"), trump=Trump("♥"), hand=parse_cards("♠A ♠Q ♠Q ♣3"), seat=0,
    ...                    throw=parse_cards("♠A ♠Q ♠Q"), others=[parse_cards("♠K ♠K ♣4"), (), (), ()], form="cost")
    >>> drill.question, drill.others[0], drill.number, drill.rule
    ('With ♥ trumps: You lead the throw ♠A ♠Q ♠Q, and it fails. How many points does the failed throw cost?', (1, parse_cards('♠K ♠K')), 15, 'L5')
    """
    if form not in FORMS:
        raise DrillError(Text("a throw drill's form is one of {forms}, not {form}", forms=", ".join(FORMS),
                              form=shown(form)), parameter="form")
    if not throw:
        raise DrillError(Text("a throw drill needs the cards thrown"), parameter="throw")
    if len(others) != PLAYERS - 1:
        raise DrillError(Text("a throw drill needs the other {count} hands, not {given}", count=PLAYERS - 1,
                              given=len(others)), parameter="others")
    result = check_throw(throw, others, trump)  # before sorting: two equal parts are named in the order thrown
    throw = trump.sorted(throw)
    if form != "stands" and result.ok:
        raise DrillError(Text("a {form} question needs a throw that fails (L4)", form=form), rule="L4",
                         parameter="throw")
    lane = trump.lane(throw[0])
    shown_others = tuple((s, trump.sorted(c for c in h if trump.lane(c) == lane))
                         for s, h in zip([s for s in range(PLAYERS) if s != seat], others))
    parts = tr.semicolons([tr.cards(c.cards) for c in result.components])
    why = tr("{throw}: {reason}.", throw=throw, reason=capitalized(result.reason))
    cards = Trump.cards_name(lane)
    look = tr("Split {throw} into its parts ({parts}) and look at the other hands' {cards}.",
              throw=throw, parts=parts, cards=cards)
    held = tr("The other hands' {cards}: {holdings}.", cards=cards, holdings=holdings(shown_others, tr))
    common = partial(Drill, kind="throw", level=level, seed=seed, lang=tr.language, trump=trump,
                     rules=RULES, hand=trump.sorted(hand), shown=throw,
                     others=shown_others, seat=seat)
    if form == "stands":
        if not result.ok:  # the answer "yes" breaks L3: the sentence cites it beside what follows (L4, L5)
            why = tr("{throw} does not stand (L3). {reason}.", throw=throw, reason=capitalized(result.reason))
        return common(explain=why,
            question=with_trump(tr.sentences(tr("You lead the throw {throw}.", throw=throw), held,
                                             tr("Does it stand against them?")), trump, tr),
            answer=AnswerKind.CHOICE, choices=yes_no(tr), rule="L3", correct=yes_no_key(result.ok),
            hints=(look, tr("L3: a throw fails if one other player, alone, can beat one of its parts: a higher "
                            "single, a higher pair, or a higher tractor as long."),
                   tr("The answer: {answer}.", answer=tr("Yes") if result.ok else tr("No"))))
    if form == "lead-instead":
        choices = tuple(Choice(str(i), tr.cards(c.cards)) for i, c in enumerate(result.components))
        correct = frozenset(str(i) for i, c in enumerate(result.components) if c.cards in result.options)
        answer = " / ".join(tr.cards(o) for o in result.options)
        beaten = {len(b.component.cards) for b in result.beaten}

        def refute(key: str) -> tuple[str, str]:
            part = result.components[int(key)]
            if len(part.cards) in beaten:
                return "L4", tr("Parts like {part} were beaten, but you lead the smallest part of that kind, and "
                                "{part} is not it (L4).", part=part.describe())
            return "L4", tr("Nobody beat a part like {part}: you lead the smallest part of a kind that was beaten "
                            "(L4).", part=part.describe())

        return common(explain=why, refute=refute,
            question=with_trump(tr.sentences(tr("You lead the throw {throw}, and it fails.", throw=throw), held,
                                             tr("Which part must you lead instead?")), trump, tr),
            answer=AnswerKind.CHOICE, choices=choices, rule="L4", correct=correct,
            hints=(look, tr("L4: lead the smallest part of a kind that was beaten; if several kinds were beaten, "
                            "you choose among their smallest parts."),
                   tr("The answer: {answer}.", answer=answer)))
    return common(explain=why,
        question=with_trump(tr("You lead the throw {throw}, and it fails. How many points does the failed throw "
                               "cost?", throw=throw), trump, tr),
        answer=AnswerKind.NUMBER, rule="L5", number=result.penalty,
        hints=(tr(Text.plural("Count the cards of {throw}: there is one.", "Count the cards of {throw}: there are "
                              "{count}.", count=len(throw), throw=throw)),
               tr("L5: a failed throw costs 5 points for every card of the throw."),
               tr("The answer: {points} points.", points=result.penalty)))
