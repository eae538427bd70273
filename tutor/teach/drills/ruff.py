"""Ruff drills (R1–R5): "Can this play ruff?", "Does it beat the ruff already on
the table?" and "Play a ruff that wins".

Positions come from a real deal a few single-card tricks in, where voids are
common. Level 1: a single or a pair is led; level 2: a pair or a tractor; level 3:
a tractor or a throw with pairs (R3's "enough pairs and tractors").

Every ruff drill is made by :func:`from_cards` from its cards (trump, hand, table,
the cards asked about): :func:`make` deals a seeded position and asks it, and a
teacher's position (:mod:`tutor.teach.positions`) is asked the same way.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import partial
from itertools import islice

from tutor.rules.cards import PLAYERS, Card, Cards
from tutor.rules.combos import shape_of
from tutor.teach.drills.base import MAX_SHOWN, AnswerKind, Drill, Table
from tutor.teach.drills.common import (
    DrillError,
    Hand,
    about,
    deal,
    pick_trump,
    play_singles,
    redraw,
    sentence,
    with_trump,
    yes_no,
    yes_no_key,
)
from tutor.teach.drills.follow import choose_lead
from tutor.rules.follow import choose_multiset, legal_follows
from tutor.core.errors import shown
from tutor.core.i18n import Text, Translator
from tutor.rules.order import Trump
from tutor.rules.ruff import check_ruff
from tutor.rules.trick import trick_winner

FORMS = ("can-ruff", "beat-ruff", "play-ruff")
RULES = ("R1", "R2", "R3", "R4", "R5")
"""The rule IDs a ruff drill practises."""
_KINDS = {1: ("single", "single", "pair"), 2: ("pair", "tractor"), 3: ("pair", "tractor", "throw")}
_PLAY_KINDS = {1: ("single", "single", "pair"), 2: ("pair", "tractor"), 3: ("pair", "throw")}
_BEAT_KINDS = {1: ("single",), 2: ("single", "pair"), 3: ("single", "pair")}  # two voids with trump pairs are rare


def _ruffs(hand: Hand, lead: tuple[Card, ...], trump: Trump, beat: tuple[Card, ...] | None) -> list[tuple[Card, ...]]:
    """Every all-trump play from ``hand`` that :func:`check_ruff` accepts (against ``beat``)."""
    return list(each_ruff(hand, lead, trump, beat))


def each_ruff(hand: Sequence[Card], lead: Sequence[Card], trump: Trump,
              beat: Sequence[Card] | None) -> Iterator[tuple[Card, ...]]:
    """Every all-trump play of ``hand`` that ruffs ``lead`` (and beats the ruff
    ``beat`` when it is given), as :func:`tutor.rules.ruff.check_ruff` judges, one by one
    in the order of the pack.

    >>> from tutor.rules.notation import parse_cards
    >>> [" ".join(map(str, p)) for p in each_ruff(parse_cards("♥3 ♥K ♣4"), parse_cards("♠A"), Trump("♥"),
    ...                                           parse_cards("♥5"))]
    ['♥K']
    """
    hand, lead = tuple(hand), Cards(lead)
    against = None if beat is None else Cards(beat)
    trumps = [c for c in hand if trump.is_trump(c)]
    items = sorted(Counter(trumps).items(), key=lambda kv: kv[0].index)
    for play in choose_multiset(items, len(lead)):
        if check_ruff(hand, lead, play, trump, beat=against).ruff:
            yield trump.sorted(play)


def ruff_to_beat(table: Sequence[Sequence[Card]], trump: Trump) -> tuple[Card, ...] | None:
    """The ruff winning the trick so far (``table``: the plays, the lead first), which
    a later ruff must beat (R5); None when the lead, or a play in its suit, is winning.

    >>> from tutor.rules.notation import parse_cards
    >>> hearts = Trump("♥")
    >>> ruff_to_beat([parse_cards("♠A"), parse_cards("♥5")], hearts), ruff_to_beat([parse_cards("♠A")], hearts)
    (parse_cards('♥5'), None)
    """
    plays = [Cards(play) for play in table]
    winner = trick_winner(plays, trump)
    return plays[winner] if winner and all(trump.is_trump(c) for c in plays[winner]) else None


Position = tuple[Trump, int, Hand, tuple[Card, ...], Table, "tuple[Card, ...] | None"]


def _position(form: str, level: int, rng: random.Random) -> Position:
    def build(rng: random.Random) -> Position | None:
        trump = pick_trump(rng, level)
        hands = play_singles(rng, deal(rng)[0], trump, rng.randint(8, 12) if form == "beat-ruff" else
                             rng.randint(4, 9))
        leaders = list(range(PLAYERS))
        rng.shuffle(leaders)
        for leader in leaders:
            found = _from(rng, hands, trump, leader)
            if found is not None:
                return found
        return None

    def _from(rng: random.Random, hands: list[Hand], trump: Trump, leader: int) -> Position | None:
        lead = choose_lead(rng, hands, leader, trump, {"beat-ruff": _BEAT_KINDS, "play-ruff": _PLAY_KINDS}.get(form, _KINDS)[level],
                           side_only=True)
        if lead is None:
            return None
        lane, n = trump.lane(lead[0]), len(lead)
        plays: list[tuple[int, tuple[Card, ...]]] = [(leader, lead)]
        ruffed_before = False
        for i in range(1, PLAYERS):
            seat = (leader + i) % PLAYERS
            hand = hands[seat]
            void = not any(trump.lane(c) == lane for c in hand)
            trumps = sum(trump.is_trump(c) for c in hand)
            if void and trumps >= n:
                need_earlier = form == "beat-ruff"
                if ruffed_before or not need_earlier:
                    beat = ruff_to_beat([p for _, p in plays], trump)
                    if need_earlier and beat is None:
                        return None
                    chosen_beat = beat if form == "play-ruff" else None
                    if form == "can-ruff" or next(each_ruff(hand, lead, trump, chosen_beat), None):
                        return trump, seat, hand, lead, Table(tuple(plays)), beat
                    return None
                if need_earlier:  # this earlier seat ruffs, if it can
                    options = _ruffs(hand, lead, trump, None)
                    if options:
                        plays.append((seat, rng.choice(options)))
                        ruffed_before = True
                        continue
            plays.append((seat, legal_follows(hand, lead, trump).random(rng)))
        return None

    return redraw(rng, build, Text("a void follower for a {form} drill", form=form))


def make(seed: int, level: int, rng: random.Random, tr: Translator) -> Drill:
    form = FORMS[seed % len(FORMS)]
    trump, _seat, hand, lead, table, beat = _position(form, level, rng)
    ask: tuple[Card, ...] = ()
    if form != "play-ruff":
        want_yes = rng.random() < 0.5
        ask = _candidate(rng, hand, lead, trump, beat if form == "beat-ruff" else None, want_yes)
    return from_cards(tr, trump=trump, hand=hand, leader=table.plays[0][0], table=[p for _, p in table.plays],
                      form=form, ask=ask, level=level, seed=seed)


def from_cards(tr: Translator, *, trump: Trump, hand: Sequence[Card], leader: int,
               table: Sequence[Sequence[Card]], form: str = "play-ruff", ask: Sequence[Card] = (),
               level: int = 1, seed: int = 0) -> Drill:
    """The ruff drill of a position given card by card, said in ``tr``'s language.

    ``hand`` is the learner's cards (with no card of the led side suit, for a real
    question); ``table`` the plays so far, the lead first, made by the seats from
    ``leader`` on (at most four); the learner is the next seat to play, and the ruff
    winning the trick so far, if any, is the one to beat (:func:`ruff_to_beat`).
    ``form`` is a key of :data:`FORMS`: "play-ruff" asks for a ruff that wins
    (CARDS), "can-ruff" whether ``ask`` (cards of the hand, as many as the lead) is a
    ruff, "beat-ruff" whether ``ask`` beats the ruff on the table (yes/no).
    ``level`` and ``seed`` are the drill's own (a seeded drill's, or 1 and 0). Every
    answer is the rules module's (:func:`tutor.rules.ruff.check_ruff`).

    A position that is no ruff question (an unknown form, no lead, a "can-ruff" or
    "beat-ruff" question without its cards, "beat-ruff" with no ruff winning the
    trick, "play-ruff" where no play of the hand is a ruff that wins) is refused
    with :class:`~tutor.teach.drills.common.DrillError`.

    >>> from tutor.rules.notation import parse_cards
    >>> drill = from_cards(Translator("en"), trump=Trump("♥"), hand=parse_cards("♥3 ♥K ♣4"), leader=0,
    ...                    table=[parse_cards("♠A"), parse_cards("♥5")], form="beat-ruff", ask=parse_cards("♥3"))
    >>> drill.question, drill.seat, drill.correct, drill.rule
    ('With ♥ trumps: Seat 0 leads ♠A and ♥5 is winning with a ruff. Does ♥3 beat it?', 2, frozenset({'no'}), 'R5')
    """
    if form not in FORMS:
        raise DrillError(Text("a ruff drill's form is one of {forms}, not {form}", forms=", ".join(FORMS),
                              form=shown(form)), parameter="form")
    if not table or not table[0]:
        raise DrillError(Text("a ruff drill needs the cards led"), parameter="table")
    if form != "play-ruff" and not ask:
        raise DrillError(Text("a {form} question needs the cards it asks about", form=form), parameter="ask")
    hand, lead, candidate = tuple(hand), Cards(table[0]), Cards(ask)
    beat = ruff_to_beat(table, trump)
    if form == "beat-ruff" and beat is None:
        raise DrillError(Text("a beat-ruff question needs a ruff winning the trick so far (R5)"), rule="R5",
                         parameter="table")
    suit = Trump.suit_name(trump.lane(lead[0]))
    look = tr("Seat {leader} led {lead} in {suit}, and you have no {suit} left. Look at your trumps.",
              leader=leader, lead=lead, suit=suit)
    rule_hint = tr("R1–R4: with no card of the led side suit you may ruff with as many trumps, holding at least "
                   "the lead's pairs and tractors; R5: an over-ruff must rank strictly higher.")
    seated = Table(tuple(((leader + i) % PLAYERS, Cards(play)) for i, play in enumerate(table)))
    common = partial(Drill, kind="ruff", level=level, seed=seed, lang=tr.language, trump=trump, rules=RULES,
                     hand=trump.sorted(hand), table=seated, seat=(leader + len(table)) % PLAYERS)
    if form == "play-ruff":
        winning = _ruffs(hand, lead, trump, beat)
        if not winning:
            raise DrillError(Text("no play of the hand is a ruff that wins"), parameter="hand")
        deciding = "R5" if beat else "R3" if shape_of(lead, trump).pairs else "R2"

        def judge(cards: tuple[Card, ...]) -> tuple[bool, str, str]:
            verdict = check_ruff(hand, lead, cards, trump, beat=beat)
            return verdict.ruff, verdict.rule or deciding, sentence(verdict.reason, tr)

        def solve() -> tuple[tuple[str, ...], int]:
            return tuple(tr.cards(p) for p in islice(winning, MAX_SHOWN)), len(winning)

        question = (tr(Text.plural("Seat {leader} leads {lead}; {ruffer} is winning with a ruff. Play a ruff "
                                   "that wins (one card).", "Seat {leader} leads {lead}; {ruffer} is winning with "
                                   "a ruff. Play a ruff that wins ({count} cards).", count=len(lead),
                                   leader=leader, lead=lead, ruffer=beat)) if beat else
                    tr(Text.plural("Seat {leader} leads {lead}. Play a ruff that wins (one card).",
                                   "Seat {leader} leads {lead}. Play a ruff that wins ({count} cards).",
                                   count=len(lead), leader=leader, lead=lead)))
        return common(question=with_trump(question, trump, tr), answer=AnswerKind.CARDS, pick=len(lead),
                      hints=(look, rule_hint, tr("For example: {cards}.", cards=winning[0])),
                      rule=deciding, judge=judge, solve=solve)
    against = beat if form == "beat-ruff" else None
    verdict = check_ruff(hand, lead, candidate, trump, beat=against)
    why = about(candidate, verdict.reason, tr)
    if against is not None:
        question = tr("Seat {leader} leads {lead} and {ruffer} is winning with a ruff. Does {cards} beat it?",
                      leader=leader, lead=lead, ruffer=against, cards=candidate)
    else:
        question = tr("Seat {leader} leads {lead}. Is {cards} from your hand a ruff?",
                      leader=leader, lead=lead, cards=candidate)
    return common(question=with_trump(question, trump, tr), shown=candidate, answer=AnswerKind.CHOICE, choices=yes_no(tr),
                  hints=(look, rule_hint, tr("The answer: {answer}.", answer=tr("Yes") if verdict.ruff
                                             else tr("No"))),
                  rule=verdict.rule or ("R5" if against else "R3" if len(lead) > 1 else "R2"), explain=why,
                  correct=yes_no_key(verdict.ruff))


def _candidate(rng: random.Random, hand: Hand, lead: tuple[Card, ...], trump: Trump,
               beat: tuple[Card, ...] | None, want_yes: bool) -> tuple[Card, ...]:
    """A play to ask about: mostly all trumps (a real question for R3–R5), sometimes
    with a side card in it (a discard, W6); the rules module decides."""
    trumps = [c for c in hand if trump.is_trump(c)]
    n = len(lead)
    if beat is not None:  # the candidate is a valid ruff; the question is whether it ranks higher
        pool = _ruffs(hand, lead, trump, None)
        wins = [p for p in pool if check_ruff(hand, lead, p, trump, beat=beat).ruff]
        loses = [p for p in pool if p not in wins]
        side = wins if (want_yes and wins) or not loses else loses
        return rng.choice(side)
    last: tuple[Card, ...] = tuple(rng.sample(trumps, n))
    for attempt in range(40):
        if attempt % 3 == 2:
            play = legal_follows(hand, lead, trump).random(rng)
        else:
            play = tuple(rng.sample(trumps, n))
        last = trump.sorted(play)
        if check_ruff(hand, lead, last, trump).ruff == want_yes:
            return last
    return last
