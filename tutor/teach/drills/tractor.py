"""Tractor drills (M1–M3): "Is this a tractor?" and "Pick every card that belongs
to a tractor in this hand".

Level 1 shows plain tractors against pair-plus-single shapes and gaps; level 2
adds off-suit neighbours, A–3 wraps and 2s; level 3 is near-misses only
(2s next to jokers or trump As, A–3 wraps, 5544 against 5533) against tricky
real tractors (trump-suit runs, 大王大王小王小王).

Every tractor drill is made by :func:`from_cards` from its cards (trump, hand, the
cards asked about): :func:`make` deals a seeded hand and asks it, and a teacher's
position (:mod:`tutor.teach.positions`) is asked the same way.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import partial
from itertools import combinations

from tutor.rules.cards import Card, Cards
from tutor.rules.combos import is_tractor, pair_runs
from tutor.teach.drills.base import AnswerKind, Drill
from tutor.teach.drills.common import (
    DrillError,
    Hand,
    deal,
    lanes_of_hand,
    pick_trump,
    redraw,
    yes_no,
    yes_no_key,
)
from tutor.core import errors
from tutor.core.i18n import Text, Translator
from tutor.rules.order import TRUMP, Trump

FORMS = ("is-tractor", "pick-tractors")
RULES = ("M1", "M2", "M3")
"""The rule IDs a tractor drill practises."""

_NO_BY_LEVEL = {1: ("shape", "gap", "offsuit"), 2: ("gap", "offsuit", "wrap", "twos"), 3: ("wrap", "twos", "gap")}


def _pairs(hand: Sequence[Card]) -> list[Card]:
    return [c for c, k in Counter(hand).items() if k == 2]


def runs_by_lane(hand: Sequence[Card], trump: Trump) -> list[list[Card]]:
    """Pair runs of ``hand``, suit by suit (:func:`tutor.rules.combos.pair_runs` wants one suit)."""
    by_lane = lanes_of_hand(hand, trump)
    return [run for lane in sorted(by_lane) for run in pair_runs(by_lane[lane], trump)]


def _candidates(hand: Hand, trump: Trump, level: int, want_yes: bool) -> dict[str, list[tuple[Card, ...]]]:
    """Cards of ``hand`` to ask about, by category (see the module doc)."""
    found: dict[str, list[tuple[Card, ...]]] = {}
    lane, order, step = trump.lane, trump.order, trump.step
    if want_yes:
        for run in runs_by_lane(hand, trump):
            if len(run) < 2:
                continue
            for size in range(2, len(run) + 1):
                for start in range(len(run) - size + 1):
                    piece = tuple(c for c in run[start:start + size] for _ in range(2))
                    tricky = lane(run[0]) == TRUMP or size > 2
                    found.setdefault("tricky" if tricky else "plain", []).append(piece)
        return found
    pairs = _pairs(hand)
    counts = Counter(hand)

    def apart(x: Card, y: Card) -> int | None:
        """How many steps of the trump order lie between ``x`` and ``y`` (None: a card off the order)."""
        sx, sy = step(x), step(y)
        return None if sx is None or sy is None else abs(sx - sy)

    for a, b in combinations(pairs, 2):
        hi, lo = (a, b) if order(a) >= order(b) else (b, a)
        cards = (hi, hi, lo, lo)
        same_lane = lane(a) == lane(b)
        if same_lane and lane(a) == TRUMP and (a.rank == 2 or b.rank == 2) and order(hi) - order(lo) <= 2:
            found.setdefault("twos", []).append(cards)
        elif same_lane and lane(a) != TRUMP and {a.rank, b.rank} == {14, 3}:
            found.setdefault("wrap", []).append(cards)
        elif same_lane and apart(a, b) == 2:
            found.setdefault("gap", []).append(cards)
        elif not same_lane and lane(a) != TRUMP and lane(b) != TRUMP and abs(a.rank - b.rank) == 1:
            found.setdefault("offsuit", []).append(cards)
    for p in pairs:
        for c, k in counts.items():
            if k == 1 and lane(c) == lane(p) and apart(p, c) == 1:
                found.setdefault("shape", []).append(trump.sorted((p, p, c)))
    return found


def _why(cards: Sequence[Card], trump: Trump, tr: Translator) -> tuple[str, str]:
    """Rule ID and sentence saying why ``cards`` is or is not a tractor; the verdict
    itself comes from :func:`tutor.is_tractor`."""
    text = tuple(cards)
    if is_tractor(cards, trump):
        return "M2", tr("{cards} is a tractor: {n} pairs of one suit in consecutive order (M2).",
                        cards=text, n=len(cards) // 2)
    counts = Counter(cards)
    if any(k != 2 for k in counts.values()):
        return "M1", tr("{cards} is not a tractor: a tractor is made only of pairs, and here not every card is "
                        "paired (M1, M2).", cards=text)
    if len(trump.lanes_of(cards)) > 1:
        return "M2", tr("{cards} is not a tractor: its pairs are of different suits; a tractor is one suit (M2).",
                        cards=text)
    if any(c.rank == 2 for c in counts):
        return "M2", tr("{cards} is not a tractor: 2s never belong to a tractor, not even next to a joker or "
                        "the trump A (M2).", cards=text)
    if {c.rank for c in counts} == {14, 3}:
        return "M2", tr("{cards} is not a tractor: nothing wraps, the A does not follow the 3 (M2).", cards=text)
    return "M2", tr("{cards} is not a tractor: the pairs are not consecutive (M2).", cards=text)


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    form = FORMS[seed % len(FORMS)]
    return _is_tractor(seed, level, rng, tr) if form == "is-tractor" else _pick(seed, level, rng, tr)


def _is_tractor(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    want_yes = rng.random() < 0.5
    category = rng.choice(("tricky", "plain") if want_yes else _NO_BY_LEVEL[level])
    if want_yes and level == 1:
        category = "plain"

    allowed = ("tricky", "plain") if want_yes and level > 1 else ("plain",) if want_yes else _NO_BY_LEVEL[level]
    tries = [0]

    def build(rng: random.Random) -> tuple[Trump, int, Hand, tuple[Card, ...]] | None:
        # the category drawn first is preferred for 10 deals, then any allowed one will do
        tries[0] += 1
        wanted = (category,) if tries[0] <= 10 else allowed
        trump = pick_trump(rng, level)
        hands, _ = deal(rng)
        seats = list(range(5))
        rng.shuffle(seats)
        for seat in seats:
            found = _candidates(hands[seat], trump, level, want_yes)
            options = [o for k in wanted for o in found.get(k, ())]
            if options:
                return trump, seat, hands[seat], rng.choice(options)
        return None

    trump, seat, hand, shown = redraw(rng, build, Text("a hand with a {category} candidate", category=category))
    return from_cards(tr, trump=trump, hand=hand, seat=seat, form="is-tractor", ask=shown, level=level, seed=seed)


def tractor_cards(hand: Sequence[Card], trump: Trump) -> tuple[list[list[Card]], tuple[Card, ...]]:
    """The tractors of ``hand`` (as pair runs) and every card belonging to one."""
    runs = [run for run in runs_by_lane(hand, trump) if len(run) > 1]
    return runs, trump.sorted(c for run in runs for c in run for _ in range(2))


def _pick(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    def build(rng: random.Random) -> tuple[Trump, int, Hand] | None:
        trump = pick_trump(rng, level)
        hands, _ = deal(rng)
        seats = list(range(5))
        rng.shuffle(seats)
        for seat in seats:
            hand = hands[seat]
            runs, _cards = tractor_cards(hand, trump)
            if not runs:
                continue
            if level >= 2 and len(_pairs(hand)) < sum(len(r) for r in runs) + 1:
                continue  # a pair outside every tractor
            if level == 3:
                near = _candidates(hand, trump, 3, False)
                if not any(near.get(k) for k in ("wrap", "twos", "gap", "offsuit")):
                    continue
            return trump, seat, hand
        return None

    trump, seat, hand = redraw(rng, build, Text("a hand holding a tractor"))
    return from_cards(tr, trump=trump, hand=hand, seat=seat, form="pick-tractors", level=level, seed=seed)


def from_cards(tr: Translator, *, trump: Trump, hand: Sequence[Card] = (), seat: int | None = None,
               form: str = "pick-tractors", ask: Sequence[Card] = (), level: int = 1, seed: int = 0) -> Drill:
    """The tractor drill of a position given card by card, said in ``tr``'s language.

    ``hand`` is the learner's cards (the learner at ``seat``, when it is known);
    ``form`` is a key of :data:`FORMS`: "is-tractor" asks whether ``ask`` is a
    tractor (yes/no; the hand is only shown, and may be empty), "pick-tractors" asks
    for every card of the hand that belongs to a tractor (CARDS). ``level`` and
    ``seed`` are the drill's own (a seeded drill's, or 1 and 0). Every verdict is
    :func:`tutor.rules.combos.is_tractor`'s, with its rule ID.

    A position that is no tractor question (an unknown form, an "is-tractor"
    question without its cards, a hand with no tractor to pick) is refused with
    :class:`~tutor.teach.drills.common.DrillError`.

    >>> from tutor.rules.notation import parse_cards
    >>> drill = from_cards(Translator("en"), trump=Trump("♠"), form="is-tractor", ask=parse_cards("♥5 ♥5 ♥3 ♥3"))
    >>> drill.question, drill.correct, drill.explain
    ('With ♠ trumps, is ♥5 ♥5 ♥3 ♥3 a tractor?', frozenset({'no'}), '♥5 ♥5 ♥3 ♥3 is not a tractor: the pairs are not consecutive (M2).')
    """
    if form not in FORMS:
        raise DrillError(Text("a tractor drill's form is one of {forms}, not {form}", forms=", ".join(FORMS),
                              form=errors.shown(form)), parameter="form")
    common = partial(Drill, kind="tractor", level=level, seed=seed, lang=tr.language, trump=trump, rules=RULES,
                     hand=trump.sorted(hand), seat=seat)
    if form == "is-tractor":
        if not ask:
            raise DrillError(Text("an is-tractor question needs the cards it asks about"), parameter="ask")
        shown = Cards(trump.sorted(ask))  # in holding order, as every card list is shown
        answer = is_tractor(shown, trump)
        rule, why = _why(shown, trump, tr)
        return common(
            question=tr("With {trump}, is {cards} a tractor?", trump=str(trump), cards=shown), shown=shown,
            answer=AnswerKind.CHOICE, choices=yes_no(tr),
            hints=(tr("Look at each pair in {cards}: are they one suit, and is each next to the other?", cards=shown),
                   tr("M2: a tractor is two or more pairs of one effective suit in consecutive order; 2s never "
                      "join one, and A does not follow 3."),
                   tr("The answer: {answer}.", answer=tr("Yes") if answer else tr("No"))),
            rule=rule, explain=why, correct=yes_no_key(answer))
    runs, answer_cards = tractor_cards(hand, trump)
    if not runs:
        raise DrillError(Text("a pick-tractors question needs a hand holding a tractor (M2)"), rule="M2",
                         parameter="hand")
    listing = tr.semicolons([tr.cards([c for c in run for _ in range(2)]) for run in runs])
    answer_text = tr.cards(answer_cards)

    def judge(cards: tuple[Card, ...]) -> tuple[bool, str, str]:
        picked, want = Counter(cards), Counter(answer_cards)
        extra = trump.sorted((picked - want).elements())
        missing = trump.sorted((want - picked).elements())
        if not extra and not missing:
            return True, "M2", tr("Your tractors: {tractors} (M2).", tractors=listing)
        parts = []  # why the pick is wrong, naming only the learner's own picks: the answer waits for the reveal
        if extra:
            parts.append(tr(Text.plural("{cards} belongs to no tractor.", "{cards} belong to no tractor.",
                                        count=len(extra), cards=extra)))
        if missing:
            parts.append(tr(Text.plural("You left out a card that belongs to a tractor.",
                                        "You left out {count} cards that belong to a tractor.",
                                        count=len(missing))))
        return False, "M2", tr.sentences(*parts)

    return common(
        question=tr("With {trump}, pick every card of your hand that belongs to a tractor.", trump=str(trump)),
        answer=AnswerKind.CARDS,
        hints=(tr("Find your pairs first, then look for pairs of one suit right next to each other."),
               tr("M2: 2s never join a tractor, A does not follow 3, and in trumps 大王大王小王小王 is a tractor."),
               tr("The answer: {cards}.", cards=answer_text)),
        rule="M2", judge=judge, solve=lambda: ((answer_text,), 1))
