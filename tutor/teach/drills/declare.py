"""Declaration drills (D1–D6): "Can you overturn the current declaration?",
"Show the cards that overturn it", "Which kitty card decides trump?" and "Who
becomes the declarer after the flip?". A flip's declarer rests on who holds the
twins of the kitty's cards: the question says, card by card, where each twin is.

The learner's hand is what they hold part-way through a real deal. Level 1: a
single 2 was declared; level 2: a pair of 2s or jokers was declared; level 3: also
your own declaration (D3) and equal pairs. Kitty flips: level 1 any kitty, level 2
the first card's twin is in the kitty, level 3 the first two cards are paired in it.
The kitty flips ask the trump: their kitty is drawn with no suit marked as trumps
(``Mark.TRUMP``), only the 2s and jokers, which are trumps whatever is flipped.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import partial

from tutor.rules.bidding import (
    Declaration,
    check_declaration,
    declaration_options,
    flip_trump,
    kitty_flip,
)
from tutor.rules.cards import PLAYERS, Card
from tutor.teach.drills.base import MAX_SHOWN, AnswerKind, Choice, Drill, Mark
from tutor.teach.drills.common import (
    Hand,
    deal,
    redraw,
    sentence,
    yes_no,
    yes_no_key,
)
from tutor.core.i18n import Text, Translator, capitalized
from tutor.rules.order import Trump

FORMS = ("can-overturn", "overturn-cards", "kitty-card", "flip-declarer")


def _showable(hand: Hand) -> list[tuple[Card, ...]]:
    """Every single card and every pair of ``hand``: the rules module decides which can declare."""
    counts = Counter(hand)
    return [(c,) for c in sorted(counts)] + [(c, c) for c in sorted(counts) if counts[c] == 2]


def _overturns(hand: Hand, seat: int, current: Declaration) -> list[tuple[Card, ...]]:
    return declaration_options(hand, current, seat=seat)


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    form = FORMS[seed % len(FORMS)]
    if form in ("kitty-card", "flip-declarer"):
        return _flip(form, seed, level, rng, tr)
    want_yes = form == "overturn-cards" or rng.random() < 0.5

    def build(rng: random.Random) -> tuple[Hand, int, int, Declaration] | None:
        hands, _ = deal(rng)
        dealt = rng.randint(8, 20) if level == 1 else rng.randint(18, 20)
        held = [h[:dealt] for h in hands]
        own = level == 3 and rng.random() < 0.3  # your own declaration (D3)
        pairs = [(seat, other) for seat in range(PLAYERS) for other in range(PLAYERS) if (seat == other) == own]
        rng.shuffle(pairs)
        for seat, other in pairs:
            options = declaration_options(held[other])
            if level == 1:
                options = [c for c in options if len(c) == 1]
            else:
                options = [c for c in options if len(c) == 2]
            if not options:
                continue
            current = Declaration(rng.choice(options), seat=other)
            can = bool(_overturns(held[seat], seat, current))
            if can != want_yes:
                continue
            if not can and not any(c[0].rank == 2 or c[0].is_joker for c in _showable(held[seat])):
                continue  # a "no" is only worth asking when you hold something that looks like it might
            return held[seat], seat, other, current
        return None

    hand, seat, declarer, current = redraw(rng, build, Text("a declaration to overturn"))
    ways = _overturns(hand, seat, current)
    trump = current.trump
    who = capitalized(Text("you") if declarer == seat else Text("seat {seat}", seat=declarer))
    look = tr("Find your 2s and jokers, single and paired.")
    rule_hint = tr("D2–D3: single 2 < ♦2 pair < ♣2 pair < ♥2 pair < ♠2 pair < 小王 pair < 大王 pair; an overturn must be "
                   "strictly stronger, and nobody overturns their own declaration.")
    answer_text = " / ".join(tr.cards(w) for w in ways) or tr("none")
    if ways:
        why = tr("You can overturn {current} with {ways} (D3).", current=current.cards, ways=answer_text)
    else:
        mine = [c for c in _showable(hand) if c[0].rank == 2 or c[0].is_joker]
        first = check_declaration(Declaration(mine[0], seat=seat), current) if mine else None
        reason = first.reason if first is not None else Text("you hold no 2 and no joker")
        why = tr("You cannot overturn {current}: {reason}.", current=current.cards, reason=reason)
    common = partial(Drill, kind="declare", level=level, seed=seed, lang=tr.language, trump=trump,
                     rules=("D1", "D2", "D3", "D4"), hand=Trump(None).sorted(hand), shown=current.cards,
                     seat=seat, others=((declarer, current.cards),), rule="D3", explain=why)
    if form == "can-overturn":
        return common(
            question=tr("{who} declared {cards}. Can you overturn it with the cards you hold so far?",
                        who=who, cards=current.cards),
            answer=AnswerKind.CHOICE, choices=yes_no(tr), correct=yes_no_key(bool(ways)),
            hints=(look, rule_hint, tr("The answer: {answer}.", answer=tr("Yes") if ways else tr("No"))))

    def judge(cards: tuple[Card, ...]) -> tuple[bool, str, str]:
        verdict = check_declaration(Declaration(cards, seat=seat), current)
        return verdict.legal, verdict.rule or "D3", sentence(verdict.reason, tr)

    return common(
        question=tr("{who} declared {cards}. Show the cards that overturn it.", who=who, cards=current.cards),
        answer=AnswerKind.CARDS, judge=judge, solve=lambda: (tuple(tr.cards(w) for w in ways[:MAX_SHOWN]), len(ways)),
        hints=(look, rule_hint, tr("The answer: {answer}.", answer=answer_text)))


def _flip(form: str, seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    def build(rng: random.Random) -> tuple[list[Hand], Hand] | None:
        hands, kitty = deal(rng)
        counts = Counter(kitty)
        paired_first = sum(1 for c in kitty[:2] if counts[c] == 2)
        if level == 2 and counts[kitty[0]] != 2:
            return None
        if level == 3 and paired_first < 2:
            return None
        return hands, kitty

    hands, kitty = redraw(rng, build, Text("a kitty to flip"))
    card = kitty_flip(kitty)
    look = tr("Turn the kitty over card by card and ask of each: is its twin also in the kitty?")
    rule_hint = tr("D6: the first card whose twin is not in the kitty decides trump (a joker: no-trump), and the "
                   "holder of its twin declares; four pairs: deal again.")
    # the kitty decides the trump: its cards are drawn as before any declaration (Mark.TRUMP)
    common = partial(Drill, kind="declare", level=level, seed=seed, lang=tr.language, rules=("D5", "D6"),
                     shown=kitty, answer=AnswerKind.CHOICE, rule="D6", unmarked=frozenset({Mark.TRUMP}))
    if card is None:
        why = tr("The kitty {kitty} is four pairs: the deal is void and dealt again (D6).", kitty=kitty)
        trump = Trump(None)
    else:
        trump = flip_trump(card)
        why = tr("{card} is the first card whose twin is not in the kitty; it makes {trump} (D6).", card=card,
                 trump=str(trump))
    counts = Counter(kitty)

    def not_this(chosen: Card) -> str:
        """Why the kitty card ``chosen`` does not decide trump (D6), without naming the one that does."""
        if counts[chosen] == 2:
            return tr("The twin of {card} is in the kitty too, so {card} decides nothing (D6).", card=chosen)
        return tr("The twin of {card} is not in the kitty, but a card turned over before it decides first (D6).",
                  card=chosen)

    if form == "kitty-card":
        def refute_card(key: str) -> tuple[str, str]:
            if key == "redeal":
                return "D6", tr("The kitty is not four pairs: some card's twin is not in it, so that card decides "
                                "trump and the deal stands (D6).")
            return "D6", not_this(kitty[int(key)])

        choices = tuple(Choice(str(i), tr("{n}. {card}", n=i + 1, card=c)) for i, c in enumerate(kitty))
        choices += (Choice("redeal", tr("None: deal again")),)
        key = "redeal" if card is None else str(kitty.index(card))
        return common(
            question=tr("Nobody declared. The kitty is turned over in this order: which card decides trump?"),
            trump=trump, choices=choices, explain=why, correct=frozenset({key}), refute=refute_card,
            hints=(look, rule_hint, tr("The answer: {answer}.", answer=card if card else Text("deal again"))))
    twins = _twins(kitty, hands)
    holder = next(s for c, s in twins if c == card) if card is not None else None
    where = tr.semicolons([tr("{card}: seat {seat}", card=c, seat=s) if s is not None
                           else tr("{card}: in the kitty", card=c) for c, s in twins])
    choices = tuple(Choice(str(s), tr("Seat {seat}", seat=s)) for s in range(PLAYERS))
    choices += (Choice("redeal", tr("Nobody: deal again")),)
    if holder is not None:
        why = tr.sentences(why, tr("Seat {seat} holds its twin and becomes the declarer (D6).", seat=holder))
    key = "redeal" if holder is None else str(holder)

    def refute_seat(key: str) -> tuple[str, str]:
        if key == "redeal":
            return "D6", tr("The kitty is not four pairs: some card's twin is not in it, and its holder declares "
                            "(D6).")
        seat = int(key)
        held = [c for c, s in twins if s == seat]
        if not held:
            return "D6", tr("Seat {seat} holds the twin of no kitty card, so it cannot become the declarer this way "
                            "(D6).", seat=seat)
        return "D6", tr("Seat {seat} holds the twin of {card}, but a card turned over before {card} decides first "
                        "(D6).", seat=seat, card=held[0])

    return common(refute=refute_seat,
        question=tr("Nobody declared. The kitty is turned over in this order. Where the twin of each kitty card "
                    "is: {where}. Who becomes the declarer?", where=where),
        trump=trump, choices=choices, explain=why, correct=frozenset({key}),
        others=tuple((s, (c,)) for c, s in twins if s is not None),
        hints=(look, rule_hint, tr("The answer: {answer}.", answer=Text("seat {seat}", seat=holder)
                                   if holder is not None else Text("deal again"))))


def _twins(kitty: Hand, hands: list[Hand]) -> list[tuple[Card, int | None]]:
    """Each card of ``kitty`` once, in the order turned over, with the seat holding its
    twin (None: the twin is in the kitty too). Every card has a twin (C1): it is in the
    kitty or in one hand.

    >>> from tutor.rules.notation import parse_cards
    >>> [(str(c), s) for c, s in _twins(parse_cards("♠3 ♥4 ♠3"), [parse_cards("♣A"), parse_cards("♥4")])]
    [('♠3', None), ('♥4', 1)]
    """
    counts = Counter(kitty)
    return [(c, None if counts[c] == 2 else next(s for s, h in enumerate(hands) if c in h))
            for c in dict.fromkeys(kitty)]
