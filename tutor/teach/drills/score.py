"""Scoring drills (X1–X2, S1–S4): the kitty multiplier, the attackers' total with
the kitty, and each player's result.

Leads and kitties come from real deals. Level 1: singles and pairs, one
declaration; level 2: tractors, several declarations, the declarer's side winning
the last trick (X1); level 3: throws, solos, a clean sweep or a total below zero.
"""

from __future__ import annotations

import random
from functools import partial

from tutor.rules.cards import PLAYERS, Card, points
from tutor.teach.drills.base import AnswerKind, Drill, Mark, Table
from tutor.teach.drills.common import deal, pick_trump, redraw
from tutor.teach.drills.follow import choose_lead
from tutor.core.i18n import Text, Translator, capitalized
from tutor.rules.order import Trump
from tutor.rules.scoring import attackers_total, kitty_capture, kitty_multiplier, kitty_pairs, score_hand

FORMS = ("multiplier", "capture", "result")
_KINDS = {1: ("single", "pair"), 2: ("pair", "tractor"), 3: ("tractor", "throw")}


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    form = FORMS[seed % len(FORMS)]
    if form == "result":
        return _result(seed, level, rng, tr)

    def build(rng: random.Random) -> tuple[Trump, tuple[Card, ...], tuple[Card, ...], list[tuple[Card, ...]]] | None:
        trump = pick_trump(rng, level)
        hands, kitty = deal(rng)
        lead = choose_lead(rng, list(hands), rng.randrange(PLAYERS), trump, _KINDS[level])
        if lead is None or (form == "capture" and points(kitty) == 0):
            return None
        return trump, lead, kitty, list(hands)

    trump, lead, kitty, hands = redraw(rng, build, Text("a last-trick lead"))
    multiplier = kitty_multiplier(lead, trump)  # X2: the book counts the pairs of the lead
    look = tr("Count the pairs in the lead {lead}, pairs inside tractors included.", lead=lead)
    rule_hint = tr("X2: the kitty's points count 2 ^ (1 + pairs in the lead): singles ×2, one pair ×4, two pairs ×8.")
    common = partial(Drill, kind="score", level=level, seed=seed, lang=tr.language, trump=trump,
                     rules=("X1", "X2", "S1", "S2", "S3", "S4"), table=Table(((0, lead),), finished=True),
                     answer=AnswerKind.NUMBER)
    if form == "multiplier":
        pairs = kitty_pairs(lead, trump)
        why = (tr("The lead {lead} holds no pair, so the kitty counts ×{m} (X2).", lead=lead, m=multiplier)
               if pairs == 0 else
               tr(Text.plural("The lead {lead} holds one pair, so the kitty counts ×{m} (X2).",
                              "The lead {lead} holds {count} pairs, so the kitty counts ×{m} (X2).",
                              count=pairs, lead=lead, m=multiplier)))
        return common(
            question=tr("With {trump}, the attackers win the last trick, which was led with {lead}. By how much is "
                        "the kitty multiplied?", trump=str(trump), lead=lead),
            shown=lead, shown_label=tr("The lead of the last trick"), rule="X2", explain=why, number=multiplier,
            hints=(look, rule_hint, tr("The answer: ×{m}.", m=multiplier)))
    pool = [c for h in hands for c in h if c.points]
    won = points(rng.sample(pool, rng.randint(3, min(len(pool), 14))))
    declarers_win = level >= 2 and rng.random() < 0.3
    kitty_points = points(kitty)
    capture = kitty_capture(kitty, lead, None, trump, won_by="declarer" if declarers_win else "attacker")  # X1–X2
    # the attackers' trick points (as one attacker's, S4), with the kitty's capture
    total = attackers_total([won], declarer=None, friend=None, capture=capture.points if capture else 0)
    if declarers_win:
        why = tr("The declarer's side won the last trick, so the kitty ({k} points) does not count: the attackers "
                 "keep {won} points (X1).", k=kitty_points, won=won)
        who = tr("the declarer's side")
    else:
        why = tr("{won} + {k} × {m} = {total} points: the kitty's {k} points count ×{m} (X2).", won=won,
                 k=kitty_points, m=multiplier, total=total)
        who = tr("an attacker")
    return common(
        question=tr("With {trump}, the attackers have won {won} points in tricks. The last trick was led with {lead} "
                    "and won by {who}. The kitty is shown. What is the attackers' total?",
                    trump=str(trump), won=won, lead=lead, who=who),
        shown=kitty, shown_label=tr("The kitty"), rule="X1" if declarers_win else "X2", explain=why, number=total,
        unmarked=frozenset({Mark.POINTS}),  # counting the kitty's points is part of the question
        hints=(tr("Who won the last trick? Then count the kitty's points (5s, 10s, Ks)."), rule_hint,
               tr("The answer: {points} points.", points=total)))


def _result(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    hands, kitty = deal(rng)  # the attackers' total is that of a real kitty and real point cards
    pool = [c for h in hands for c in h if c.points]
    total = points(rng.sample(pool, rng.randint(0, len(pool) // 2)))
    if level == 3 and rng.random() < 0.3:
        total = rng.choice((0, -5, -10, -15, -20))
    declarations = 1 if level == 1 else rng.randint(1, 3)
    solo = level == 3 and rng.random() < 0.4
    role = rng.choice(("declarer", "attacker") if solo else ("declarer", "friend", "attacker"))
    result = score_hand(total, declarations=declarations, solo=solo)
    answer = result[role]
    role_text = {"declarer": tr("the declarer"), "friend": tr("the friend"), "attacker": tr("each attacker")}[role]
    setting = []
    if declarations > 1:
        setting.append(tr("There were {n} declarations.", n=declarations))
    if solo:
        setting.append(tr("The declarer played solo."))
    trump = pick_trump(rng, level)
    question = (tr("The attackers finish with {total} points. {setting} What does {role} score?", total=total,
                   setting=tr.sentences(*setting), role=role_text) if setting else
                tr("The attackers finish with {total} points. What does {role} score?", total=total, role=role_text))
    return Drill(
        kind="score", level=level, seed=seed, lang=tr.language, trump=trump, rules=("S1", "S2", "S3", "S4"),
        question=question, answer=AnswerKind.NUMBER,
        rule="S3" if declarations > 1 else "S2" if solo else "S1",
        explain=tr("{explain}: {role} scores {answer}.", explain=capitalized(result.explanation), role=role_text,
                   answer=answer),
        number=answer,
        hints=(tr("Find the row of the score table for {total} points.", total=total),
               tr("S1–S3: the table gives each attacker's value k; friend −k, declarer −2k; a solo doubles the "
                  "attackers' values and the declarer pays for all four; multiply by the declarations."),
               tr("The answer: {role} scores {answer}.", role=role_text, answer=answer)))
