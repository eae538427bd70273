"""Following drills (W0–W5): "Play a legal follow" and "Is this follow legal?".

Level 1: a single or a pair is led and the learner holds the led suit; level 2:
a pair or a tractor is led and the learner holds pairs in the led suit (W3, W4);
level 3: a tractor or a standing throw is led, and the learner holds pairs in the
suit or is short of it (W2, W4, W5).

Every follow drill is made by :func:`from_cards` from its cards (trump, hand,
table, the cards asked about): :func:`make` deals a seeded position and asks it, and
a teacher's position (:mod:`tutor.teach.positions`) is asked the same way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial
from itertools import islice

from tutor.rules.cards import PLAYERS, Card, Cards
from tutor.rules.combos import Kind, pair_runs, shape_of, split
from tutor.teach.drills.base import MAX_SHOWN, AnswerKind, Drill, Table
from tutor.teach.drills.common import (
    DrillError,
    Hand,
    about,
    deal,
    lanes_of_hand,
    pick_trump,
    redraw,
    sentence,
    with_trump,
    yes_no,
    yes_no_key,
)
from tutor.rules.follow import check_follow, legal_follows
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text, Translator, said
from tutor.rules.order import TRUMP, Trump
from tutor.rules.throw import check_throw

FORMS = ("play", "is-legal")
RULES = ("W0", "W1", "W2", "W3", "W4", "W5")
"""The rule IDs a follow drill practises."""


def choose_lead(rng: random.Random, hands: list[Hand], leader: int, trump: Trump, kinds: tuple[str, ...],
                side_only: bool = False) -> tuple[Card, ...] | None:
    """A natural lead of one of ``kinds`` ("single", "pair", "tractor", "throw")
    from the leader's hand; a throw is made of the suit's top parts, with a pair or
    a tractor in it, and only if it stands (L3)."""
    by_lane = lanes_of_hand(hands[leader], trump)
    if side_only:
        by_lane.pop(TRUMP, None)
    kind = rng.choice(kinds)
    suits = sorted(by_lane)
    rng.shuffle(suits)
    for lane in suits:
        cards = by_lane[lane]
        options: list[tuple[Card, ...]] = []
        if kind == "single":
            options.extend((c,) for c in sorted(set(cards)))
        elif kind in ("pair", "tractor"):
            for run in pair_runs(cards, trump):
                if kind == "pair":
                    options.extend((c, c) for c in run)
                    continue
                for start in range(len(run) - 1):
                    options.append(tuple(c for c in run[start:start + 2] for _ in range(2)))
                if len(run) > 2:
                    options.append(tuple(c for c in run for _ in range(2)))
        else:
            components = sorted(split(cards, trump), key=lambda c: -c.top)
            combined = [c for c in components if c.kind is not Kind.SINGLE]
            if len(components) < 2 or not combined:
                continue
            k = rng.randint(2, min(4, len(components)))
            chosen = components[:k]
            if all(c.kind is Kind.SINGLE for c in chosen):
                chosen[-1] = rng.choice(combined)
            throw = tuple(card for c in chosen for card in c.cards)
            others = [hands[s] for s in range(PLAYERS) if s != leader]
            if check_throw(throw, others, trump).ok:
                options.append(throw)
        if options:
            return trump.sorted(rng.choice(options))
    return None


def duty_rule(lead: tuple[Card, ...], trump: Trump) -> str:
    """The W-rule a lead puts on its followers."""
    shape = shape_of(lead, trump)
    return {Kind.SINGLE: "W2", Kind.PAIR: "W3", Kind.TRACTOR: "W4", None: "W5"}[shape.kind]


def _position(seed: int, level: int, rng: random.Random) -> tuple[Trump, int, int, Hand, tuple[Card, ...], Table]:
    kinds = {1: ("single", "pair"), 2: ("pair", "pair", "tractor"), 3: ("tractor", "throw", "throw")}[level]

    def build(rng: random.Random) -> tuple[Trump, int, int, Hand, tuple[Card, ...], Table] | None:
        trump = pick_trump(rng, level)
        hands, _ = deal(rng)
        leaders = list(range(PLAYERS))
        rng.shuffle(leaders)
        for leader in leaders:
            found = _follower(rng, hands, leader, trump)
            if found is not None:
                return found
        return None

    def _follower(rng: random.Random, hands: list[Hand], leader: int,
                  trump: Trump) -> tuple[Trump, int, int, Hand, tuple[Card, ...], Table] | None:
        lead = choose_lead(rng, hands, leader, trump, kinds)
        if lead is None:
            return None
        n = len(lead)
        lane = trump.lane(lead[0])
        followers = [(leader + i) % PLAYERS for i in range(1, PLAYERS)]
        rng.shuffle(followers)
        for seat in followers:
            hand = hands[seat]
            suit = [c for c in hand if trump.lane(c) == lane]
            if not suit:
                continue
            has_pairs = bool(pair_runs(suit, trump))
            if level == 2 and not (len(suit) > n and has_pairs):
                continue
            if level == 3 and not ((len(suit) > n and has_pairs) or len(suit) < n):
                continue
            plays: list[tuple[int, tuple[Card, ...]]] = [(leader, lead)]
            s = (leader + 1) % PLAYERS
            while s != seat:
                plays.append((s, legal_follows(hands[s], lead, trump).random(rng)))
                s = (s + 1) % PLAYERS
            return trump, seat, leader, hand, lead, Table(tuple(plays))
        return None

    return redraw(rng, build, Text("a level-{level} follow position", level=level))


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    form = FORMS[seed % len(FORMS)]
    trump, _seat, leader, hand, lead, table = _position(seed, level, rng)
    ask: tuple[Card, ...] = ()
    if form == "is-legal":
        want_legal = rng.random() < 0.5
        ask = _candidate(rng, hand, lead, trump, want_legal)
    return from_cards(tr, trump=trump, hand=hand, leader=leader, table=[cards for _, cards in table.plays],
                      form=form, ask=ask, level=level, seed=seed)


def from_cards(tr: Translator, *, trump: Trump, hand: Sequence[Card], leader: int,
               table: Sequence[Sequence[Card]], form: str = "play", ask: Sequence[Card] = (),
               level: int = 1, seed: int = 0) -> Drill:
    """The follow drill of a position given card by card, said in ``tr``'s language.

    ``hand`` is the learner's cards; ``table`` the plays so far, the lead first, made
    by the seats from ``leader`` on (at most four); the learner is the next seat to
    play. ``form`` is a key of :data:`FORMS`: "play" asks for a legal follow (CARDS),
    "is-legal" whether ``ask`` (cards of the hand, as many as the lead) may follow
    (yes/no). ``level`` and ``seed`` are the drill's own (a seeded drill's, or 1 and
    0). Every answer is the rules module's (:func:`tutor.rules.follow.check_follow`), and
    the duty the lead puts on the learner (:func:`duty_rule`) is the drill's rule.

    A position that is no follow question (an unknown form, no lead, a hand with
    fewer cards than the lead, an "is-legal" question without its cards) is refused
    with :class:`~tutor.teach.drills.common.DrillError`.

    >>> from tutor.rules.notation import parse_cards
    >>> drill = from_cards(Translator("en"), trump=Trump("♥"), hand=parse_cards("♠3 ♠3 ♠5 ♥2"), leader=2,
    ...                    table=[parse_cards("♠K ♠K")], form="is-legal", ask=parse_cards("♠3 ♠5"))
    >>> drill.question, drill.seat, drill.correct, drill.rule
    ('With ♥ trumps: Seat 2 leads ♠K ♠K. May you follow with ♠3 ♠5?', 3, frozenset({'no'}), 'W3')
    """
    if form not in FORMS:
        raise DrillError(Text("a follow drill's form is one of {forms}, not {form}", forms=", ".join(FORMS),
                              form=shown(form)), parameter="form")
    if not table or not table[0]:
        raise DrillError(Text("a follow drill needs the cards led"), parameter="table")
    if form == "is-legal" and not ask:
        raise DrillError(Text("an is-legal question needs the cards it asks about"), parameter="ask")
    hand, lead, candidate = tuple(hand), Cards(table[0]), Cards(ask)
    try:
        first = legal_follows(hand, lead, trump).first()
    except TutorError as error:  # a hand that cannot follow this lead at all (B3)
        raise DrillError(said(error), rule=error.rule, parameter="hand") from None
    if first is None:
        raise DrillError(Text("a follow drill's hand must hold as many cards as the lead (W1)"), rule="W1",
                         parameter="hand")
    rule = duty_rule(lead, trump)
    shape = shape_of(lead, trump)
    suit = Trump.suit_name(shape.lane)
    look = tr("Seat {leader} led {lead} ({what} in {suit}). Count your {cards} and your pairs in {suit}.",
              leader=leader, lead=lead, what=shape.describe(), suit=suit, cards=Trump.cards_name(shape.lane))
    rule_hint = {
        "W2": tr("W2: play the led suit while you can; if you have fewer cards of it than the lead, play them all."),
        "W3": tr("W3: when a pair is led and you hold a pair in that suit, you must play a pair."),
        "W4": tr("W4: follow a tractor with a tractor of that length if you hold one, else with as many pairs as "
                 "you can."),
        "W5": tr("W5: follow a throw part by part: match its tractors, then as many pairs as you can."),
    }[rule]
    seated = Table(tuple(((leader + i) % PLAYERS, Cards(play)) for i, play in enumerate(table)))
    common = partial(Drill, kind="follow", level=level, seed=seed, lang=tr.language, trump=trump, rules=RULES,
                     hand=trump.sorted(hand), table=seated, seat=(leader + len(table)) % PLAYERS)
    if form == "play":
        def judge(cards: tuple[Card, ...]) -> tuple[bool, str, str]:
            verdict = check_follow(hand, lead, cards, trump)
            return verdict.legal, verdict.rule or rule, sentence(verdict.reason, tr)

        def solve() -> tuple[tuple[str, ...], int]:
            follows = legal_follows(hand, lead, trump)
            shown = tuple(tr.cards(p) for p in islice(follows, MAX_SHOWN))
            return shown, follows.count()

        return common(
            question=with_trump(tr(Text.plural("Seat {leader} leads {lead}. Play a legal follow from your hand "
                                               "(one card).", "Seat {leader} leads {lead}. Play a legal follow "
                                               "from your hand ({count} cards).", count=len(lead), leader=leader,
                                               lead=lead)), trump, tr),
            answer=AnswerKind.CARDS, pick=len(lead),
            hints=(look, rule_hint, tr("For example: {cards}.", cards=first)),
            rule=rule, judge=judge, solve=solve)
    verdict = check_follow(hand, lead, candidate, trump)
    why = about(candidate, verdict.reason, tr)
    if verdict.example and not verdict.legal:
        why = tr.sentences(why, tr("A legal play: {cards}.", cards=verdict.example))
    return common(
        question=with_trump(tr("Seat {leader} leads {lead}. May you follow with {cards}?", leader=leader, lead=lead,
                               cards=candidate), trump, tr),
        shown=candidate, answer=AnswerKind.CHOICE, choices=yes_no(tr),
        hints=(look, rule_hint, tr("The answer: {answer}.", answer=tr("Yes") if verdict.legal else tr("No"))),
        rule=verdict.rule or rule, explain=why, correct=yes_no_key(verdict.legal))


def _candidate(rng: random.Random, hand: Hand, lead: tuple[Card, ...], trump: Trump,
               want_legal: bool) -> tuple[Card, ...]:
    """A candidate follow: a legal one, or a plausible illegal one (a legal play with
    one card swapped, or cards of the led suit that break a pair)."""
    follows = legal_follows(hand, lead, trump)
    if want_legal:
        return follows.random(rng)
    lane = trump.lane(lead[0])
    suit = [c for c in hand if trump.lane(c) == lane]
    for attempt in range(60):
        base = list(follows.random(rng))
        if attempt % 2 and len(suit) >= len(lead):
            play = rng.sample(suit, len(lead))
        else:
            rest = list(hand)
            for c in base:
                rest.remove(c)
            i = rng.randrange(len(base))
            base[i] = rng.choice(rest)
            play = base
        if not check_follow(hand, lead, play, trump).legal:
            return trump.sorted(play)
    return follows.random(rng)  # no plausible illegal play: ask about a legal one
