"""Following a lead (W0–W6): is a follow legal, why not, and every legal follow.

>>> v = check_follow("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♥7 ♥3", "♠")
>>> v.legal, v.rule
(False, 'W3')
>>> v.reason
'you hold the pair ♥7 ♥7; when a pair is led you must follow with a pair'
>>> [str(c) for c in v.example]
['♥7', '♥7']
>>> [" ".join(map(str, p)) for p in legal_follows("♥7 ♥7 ♥3 ♠4", "♥9", "♠")]
['♥7', '♥3']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations
from random import Random
from typing import NamedTuple

from tutor.core.arguments import instance
from tutor.rules.cards import Card, Cards
from tutor.rules.combos import Kind, Shape, max_matched, pair_runs, shape_of
from tutor.core.errors import CardCountError
from tutor.core.i18n import Text, and_list
from tutor.rules.notation import CardsLike, check_copies, copies, parse_cards, to_cards
from tutor.rules.order import TRUMP, Trump, TrumpLike, as_trump
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.verdict import Verdict, illegal


class _Score(NamedTuple):
    """How well a follow meets the duty of W5: tractor-matched pairs, then pairs."""

    tractors: int
    pairs: int


def _tractor_duty(shape: Shape, rules: Ruleset) -> tuple[int, ...]:
    if shape.is_throw and rules.throw_follow_duty == "pairs":
        return ()
    return shape.tractors


def _score(runs: list[list[Card]], shape: Shape, duty: tuple[int, ...]) -> _Score:
    lengths = tuple(len(run) for run in runs if len(run) > 1)
    matched = max_matched(duty, lengths) if duty and lengths else 0
    return _Score(matched, min(shape.pairs, sum(len(run) for run in runs)))


@lru_cache(maxsize=4096)
def _play_score(cards: tuple[Card, ...], trump: Trump, pairs: int, duty: tuple[int, ...]) -> _Score:
    """The score of a play's cards of the led suit (see :func:`_score`), kept for the
    next time they are asked about."""
    runs = pair_runs(cards, trump)
    lengths = tuple(len(run) for run in runs if len(run) > 1)
    matched = max_matched(duty, lengths) if duty and lengths else 0
    return _Score(matched, min(pairs, sum(len(run) for run in runs)))


def _pairs_text(runs: list[list[Card]], trump: Trump) -> object:
    """The pairs (tractors) of ``runs`` as a learner reads them, in holding order:
    ``♥7 ♥7, ♥5 ♥5 and ♥3 ♥3``."""
    place = trump.places.__getitem__
    return and_list([tuple(c for c in run for _ in range(2)) for run in sorted(runs, key=lambda run: place(run[0]))])


class FollowPosition:
    """A follow position (W0–W5): the hand, the lead, the trump and the ruleset, and
    what the hand can do about the lead, worked out once for every question about it.

    ``suit`` holds the hand's cards of the led effective suit, ``runs`` their pairs
    (see :func:`~tutor.rules.combos.pair_runs`), ``counts`` the copies of each card the
    hand holds, by card index (:func:`~tutor.rules.notation.copies`). :meth:`allows`
    answers "is this play legal?" by the shortest path; :meth:`check` answers with a
    :class:`Verdict` that explains. :func:`follow_position` makes one, or finds the one already made.

    >>> p = follow_position("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♠")
    >>> [str(c) for c in p.suit], p.allows(parse_cards("♥7 ♥7")), p.allows(parse_cards("♥7 ♥3"))
    (['♥7', '♥7', '♥3'], True, False)
    >>> p.check("♥7 ♥3").rule
    'W3'
    """

    __slots__ = ("hand", "lead", "trump", "rules", "shape", "suit", "duty", "_best", "_runs", "_has_pair",
                 "_choices", "_source", "_chosen", "_rest", "counts")

    def __init__(self, hand: CardsLike, lead: CardsLike, trump: TrumpLike, rules: Ruleset = DEFAULT_RULES) -> None:
        instance(rules, Ruleset, "rules")
        self.trump = trump = as_trump(trump)
        self.hand = to_cards(hand)
        self.lead = to_cards(lead)
        self.counts = held = copies(self.hand)
        for card in self.lead:  # the leader's cards and this hand come from one deal (C1)
            if held[card.index] + self.lead.count(card) > 2:
                check_copies(self.hand + self.lead)
        self.rules = rules
        self.shape = shape = shape_of(self.lead, trump)
        if len(self.hand) < shape.size:
            raise CardCountError(Text(
                "the hand has {held} cards but the lead has {size}: every player holds "
                "as many cards as the leader, so this position cannot happen (B3)", held=len(self.hand), size=shape.size))
        lanes, led = trump.lanes, shape.lane
        self.suit = suit = [c for c in self.hand if lanes[c.index] == led]
        self.duty = _tractor_duty(shape, rules)
        self._has_pair = len(set(suit)) < len(suit)
        self._runs: list[list[Card]] | None = None
        self._best: _Score | None = None
        self._choices: list[tuple[tuple[Card, ...], list[Card], int]] = []
        self._source: Iterator[tuple[tuple[Card, ...], list[Card], int]] | None = None
        self._chosen = False  # every choice made
        self._rest: list[tuple[Card, int]] | None = None

    @property
    def runs(self) -> list[list[Card]]:
        """The pairs of the led suit in the hand, as runs (see :func:`pair_runs`)."""
        if self._runs is None:
            self._runs = pair_runs(self.suit, self.trump)
        return self._runs

    @property
    def best(self) -> _Score:
        """The best score on W5's duty that the hand allows."""
        if self._best is None:
            self._best = _score(self.runs, self.shape, self.duty)
        return self._best

    @property
    def suit_name(self) -> str:
        """The led effective suit as a newcomer reads it (see :meth:`Trump.suit_name`)."""
        return Trump.suit_name(self.shape.lane)

    def allows(self, played: Sequence[Card]) -> bool:
        """Whether ``played`` (cards, not text) is legal here (W0–W5), with no verdict
        made: :meth:`check`'s answer by the shortest path."""
        shape = self.shape
        n = shape.size
        if len(played) != n:
            return False
        counts = self.counts
        lanes, led = self.trump.lanes, shape.lane
        if n == 1:  # W0–W2 for a single: a card held, of the led suit if any is held
            index = played[0].index
            return counts[index] > 0 and (lanes[index] == led or not self.suit)
        if n == 2:
            first, second = played
            if first is second:
                if counts[first.index] < 2:
                    return False
            elif not counts[first.index] or not counts[second.index]:
                return False
        else:
            seen = [0] * len(counts)
            for card in played:
                index = card.index
                seen[index] += 1
                if seen[index] > counts[index]:
                    return False
        in_suit = [c for c in played if lanes[c.index] == led]
        held = len(self.suit)
        if held >= n:
            if len(in_suit) < n:
                return False
        elif len(in_suit) < held:
            return False
        if held > n and shape.pairs:
            if n == 2:  # a pair led (W3): a pair if the hand has one in the suit
                return played[0] is played[1] or not self._has_pair
            return not _play_score(tuple(in_suit), self.trump, shape.pairs, self.duty) < self.best
        return True

    def single_follows(self) -> list[Card]:
        """Where a single is led: every card the hand may follow with (W1, W2), each once, in
        holding order — a card of the led suit, or any card when the hand has none.

        >>> [str(c) for c in follow_position("♥7 ♥7 ♥3 ♠4", "♥9", "♠").single_follows()]
        ['♥7', '♥3']
        """
        return list(self.trump.sorted(set(self.suit or self.hand)))

    def legal_rule(self, played: Sequence[Card]) -> str:
        """The rule a legal ``played`` rests on, the one its reason cites: the duty of a
        pair, tractor or throw lead (W3, W4, W5) only for a hand holding a pair of the
        led suit, else following suit (W2); a hand with none of a side suit led playing
        all trumps may ruff (R1).

        >>> p = follow_position("♥7 ♥4 ♥3 ♠4", "♥9 ♥9", "♠")
        >>> p.legal_rule(parse_cards("♥7 ♥3")), follow_position("♥7 ♥7 ♥3", "♥9 ♥9", "♠").legal_rule(parse_cards("♥7 ♥7"))
        ('W2', 'W3')
        """
        shape = self.shape
        if len(self.suit) >= shape.size:
            if not (shape.pairs and self._has_pair):
                return "W2"
            kind = shape.kind
            return "W3" if kind is Kind.PAIR else "W4" if kind is Kind.TRACTOR else "W5"
        if self.suit:
            return "W2"
        lanes = self.trump.lanes
        return "R1" if all(lanes[c.index] == TRUMP for c in played) else "W2"

    def check(self, play: CardsLike) -> Verdict:
        """The verdict on ``play`` here, naming the rule broken and the learner's cards."""
        played = parse_cards(play)
        shape, trump = self.shape, self.trump
        n = shape.size
        counts = self.counts
        for card, count in Counter(played).items():
            held = counts[card.index]
            if held < count:
                reason = (Text("{card} is not in your hand", card=card) if held == 0
                          else Text("you play {card} {count} times but hold it only once", card=card, count=count))
                return illegal("W0", reason, self.example())
        if len(played) != n:
            return illegal("W1", self._count_reason(played), self.example())
        lane = trump.lanes
        in_suit = [c for c in played if lane[c.index] == shape.lane]
        if len(self.suit) >= n and len(in_suit) < n:
            others = tuple(c for c in played if lane[c.index] != shape.lane)
            return illegal("W2", self._suit_reason(others), self.example())
        if len(self.suit) < n and len(in_suit) < len(self.suit):
            missing = tuple((Counter(self.suit) - Counter(in_suit)).elements())
            return illegal("W2", self._short_reason(missing), self.example())
        if len(self.suit) > n and shape.pairs:
            got = _score(pair_runs(in_suit, trump), shape, self.duty)
            if got < self.best:
                return self._duty_verdict(got, in_suit)
        return Verdict.lazy(True, self.legal_rule(played), lambda: self._legal_reason(played, in_suit))

    def _count_reason(self, played: Sequence[Card]) -> Text:
        """W1: the wrong number of cards."""
        n, lead, count = self.shape.size, self.trump.sorted(self.lead), len(played)
        played = self.trump.sorted(played)
        if not played:
            return Text("you played no card (0 cards), but the lead {lead} has {n}, so you must play exactly {n}",
                        lead=lead, n=n)
        return Text.plural("you played {cards} (1 card), but the lead {lead} has {n}, so you must play exactly {n}",
                           "you played {cards} ({count} cards), but the lead {lead} has {n}, so you must play exactly {n}",
                           cards=played, count=count, lead=lead, n=n)

    def _suit_reason(self, others: tuple[Card, ...]) -> Text:
        """W2: cards of another suit while the hand still holds enough of the led one."""
        held, count, others = self.trump.sorted(self.suit), len(self.suit), self.trump.sorted(others)
        if self.shape.lane == TRUMP:
            return Text.plural("trumps were led and you still hold 1 trump card ({held}), so every card you play "
                               "must be a trump card, not {others}",
                               "trumps were led and you still hold {count} trump cards ({held}), so every card you play "
                               "must be a trump card, not {others}", count=count, held=held, others=others)
        suit = self.suit_name
        return Text.plural("{suit} was led and you still hold 1 {suit} card ({held}), so every card you play "
                           "must be a {suit} card, not {others}",
                           "{suit} was led and you still hold {count} {suit} cards ({held}), so every card you play "
                           "must be a {suit} card, not {others}", suit=suit, count=count, held=held, others=others)

    def _short_reason(self, missing: tuple[Card, ...]) -> Text:
        """W2: a hand short of the led suit kept some of it."""
        held, count, missing = self.trump.sorted(self.suit), len(self.suit), self.trump.sorted(missing)
        if self.shape.lane == TRUMP:
            return Text.plural("you hold only 1 trump card ({held}); you must play all of them before any other card, "
                               "and you kept {missing}",
                               "you hold only {count} trump cards ({held}); you must play all of them before any other "
                               "card, and you kept {missing}", count=count, held=held, missing=missing)
        suit = self.suit_name
        return Text.plural("you hold only 1 {suit} card ({held}); you must play all of them before any other card, "
                           "and you kept {missing}",
                           "you hold only {count} {suit} cards ({held}); you must play all of them before any other "
                           "card, and you kept {missing}", suit=suit, count=count, held=held, missing=missing)

    def _duty_verdict(self, got: _Score, in_suit: list[Card]) -> Verdict:
        shape, best = self.shape, self.best
        if shape.kind is not None and shape.size == 2:
            pairs = [[card] for run in self.runs for card in run]
            held = _pairs_text(pairs, self.trump)
            reason = Text.plural("you hold the pair {pairs}; when a pair is led you must follow with a pair",
                                 "you hold the pairs {pairs}; when a pair is led you must follow with a pair",
                                 count=len(pairs), pairs=held)
            return illegal("W3", reason, self.example())
        rule = "W5" if shape.is_throw else "W4"
        if got.tractors < best.tractors:
            need = min(self.duty)
            runs = [run for run in self.runs if len(run) >= need]
            held = _pairs_text(runs, self.trump)
            if shape.is_throw:
                reason = self._throw_tractor_reason(len(shape.tractors), len(runs), held)
            else:
                reason = Text.plural("you hold the tractor {tractors}; when a {length}-pair tractor is led you must "
                                     "follow with a tractor of that length",
                                     "you hold the tractors {tractors}; when a {length}-pair tractor is led you must "
                                     "follow with a tractor of that length",
                                     count=len(runs), tractors=held, length=shape.tractors[0])
            return illegal(rule, reason, self.example())
        pairs = [[card] for run in self.runs for card in run]
        held = _pairs_text(pairs, self.trump)
        if shape.is_throw:
            reason = Text.plural("you hold the pair {pairs}; after the throw you must play as many pairs as you can, "
                                 "here {best}, and you played {got}",
                                 "you hold the pairs {pairs}; after the throw you must play as many pairs as you "
                                 "can, here {best}, and you played {got}",
                                 count=len(pairs), pairs=held, best=best.pairs, got=got.pairs)
        else:
            reason = Text.plural("you have no {length}-pair tractor in {suit}, but you hold the pair {pairs}; after a "
                                 "{length}-pair tractor you must play as many pairs as you can, here {best}, and you "
                                 "played {got}",
                                 "you have no {length}-pair tractor in {suit}, but you hold the pairs {pairs}; after a "
                                 "{length}-pair tractor you must play as many pairs as you can, here {best}, and you "
                                 "played {got}", count=len(pairs), length=shape.tractors[0], suit=self.suit_name,
                                 pairs=held, best=best.pairs, got=got.pairs)
        return illegal(rule, reason, self.example())

    def _throw_tractor_reason(self, led: int, held: int, tractors: object) -> Text:
        """W5: a throw with tractors, and a follower who kept back a tractor."""
        suit = self.suit_name
        if led == 1:  # two numbers in one sentence: the led one picks the message, the held one its form
            return Text.plural("the throw contains a tractor, and you hold the tractor {tractors} in {suit}; your "
                               "follow must match the throw's tractors as far as your cards allow",
                               "the throw contains a tractor, and you hold the tractors {tractors} in {suit}; your "
                               "follow must match the throw's tractors as far as your cards allow",
                               count=held, tractors=tractors, suit=suit)
        return Text.plural("the throw contains tractors, and you hold the tractor {tractors} in {suit}; your follow "
                           "must match the throw's tractors as far as your cards allow",
                           "the throw contains tractors, and you hold the tractors {tractors} in {suit}; your follow "
                           "must match the throw's tractors as far as your cards allow",
                           count=held, tractors=tractors, suit=suit)

    def _legal_reason(self, played: Sequence[Card], in_suit: list[Card]) -> Text:
        """Why a legal play is legal, citing :meth:`legal_rule` (and R1 beside W2 for a
        short follow made up with other cards, which cannot win)."""
        name, n, sort = self.suit_name, self.shape.size, self.trump.sorted
        rule = self.legal_rule(played)
        if len(self.suit) >= n:
            return Text("{cards} follows {lead} in {suit} ({rule})", cards=sort(played), lead=self.shape.describe(),
                        suit=name, rule=rule)
        others = sort(c for c in played if c not in in_suit)
        if not self.suit:
            return (Text.plural("you have no {suit}, so any card may be played — all trumps, so it may be a ruff (R1)",
                                "you have no {suit}, so any {n} cards may be played — all trumps, so it may be a "
                                "ruff (R1)", count=n, suit=name, n=n) if rule == "R1"
                    else Text.plural("you have no {suit}, so any card may be played (W2)",
                                     "you have no {suit}, so any {n} cards may be played (W2)", count=n, suit=name,
                                     n=n))
        return Text("you play all your {suit} ({held}) and make up the rest with {others}, which cannot win the "
                    "trick (W2, R1)", suit=name, held=sort(self.suit), others=others)

    def example(self) -> tuple[Card, ...] | None:
        """The first legal follow (see :class:`LegalFollows`)."""
        return next(iter(LegalFollows(self)), None)

    @property
    def rest(self) -> list[tuple[Card, int]]:
        """The hand's cards not of the led suit, each with its copies, in holding order."""
        if self._rest is None:
            place, led, lanes = self.trump.places, self.shape.lane, self.trump.lanes
            counts = Counter(c for c in self.hand if lanes[c.index] != led)
            self._rest = sorted(counts.items(), key=lambda kv: place[kv[0]])
        return self._rest

    @property
    def choices(self) -> list[tuple[tuple[Card, ...], list[Card], int]]:
        """For a hand with more cards of the led suit than the lead: each set of pairs
        a legal play can contain, doubled, with the pool of single cards (in holding
        order) and how many of them fill it up. Every legal play has exactly one such
        set (the cards it holds twice)."""
        for _ in self.each_choice():
            pass
        return self._choices

    def each_choice(self) -> Iterator[tuple[tuple[Card, ...], list[Card], int]]:
        """:attr:`choices` one by one, each worked out the first time it is asked for."""
        made = self._choices
        i = 0
        while True:
            if i < len(made):
                yield made[i]
                i += 1
                continue
            if self._chosen:
                return
            if self._source is None:
                self._source = _pair_choices(self)
            choice = next(self._source, None)
            if choice is None:
                self._source, self._chosen = None, True
                return
            made.append(choice)


def follow_position(hand: CardsLike, lead: CardsLike, trump: TrumpLike,
                    rules: Ruleset = DEFAULT_RULES) -> FollowPosition:
    """The :class:`FollowPosition` of ``hand`` following ``lead``: kept for the next
    question about the same position (a player weighing its candidates, a list of
    legal follows) when its cards are given as cards.

    >>> from tutor.rules.notation import parse_cards
    >>> hand, lead = parse_cards("♥7 ♥7 ♥3 ♠4"), parse_cards("♥9 ♥9")
    >>> follow_position(hand, lead, "♠") is follow_position(hand, lead, "♠")
    True
    """
    if type(hand) is not Cards:
        hand = to_cards(hand)
    if type(lead) is not Cards:
        lead = to_cards(lead)
    if rules is DEFAULT_RULES:  # the usual case, looked up without hashing the ruleset
        return _known_position(hand, lead, as_trump(trump))
    return _variant_position(hand, lead, as_trump(trump), instance(rules, Ruleset, "rules"))


@lru_cache(maxsize=512)
def _known_position(hand: Cards, lead: Cards, trump: Trump) -> FollowPosition:
    return FollowPosition(hand, lead, trump, DEFAULT_RULES)


@lru_cache(maxsize=128)
def _variant_position(hand: Cards, lead: Cards, trump: Trump, rules: Ruleset) -> FollowPosition:
    return FollowPosition(hand, lead, trump, rules)


def _played(play: CardsLike) -> Cards:
    """``play`` as cards: :func:`parse_cards`, whose copy check (C1) a play of one or two
    cards given as cards cannot fail."""
    if type(play) is Cards and len(play) < 3:
        return play
    return parse_cards(play)


def check_follow(hand: CardsLike, lead: CardsLike, play: CardsLike, trump: TrumpLike,
                 *, rules: Ruleset = DEFAULT_RULES) -> Verdict:
    """Is ``play`` a legal follow to ``lead`` from ``hand`` (which includes the played
    cards)? W0–W5; the verdict names the rule broken and the learner's cards.

    >>> check_follow("♠K ♠4 ♥A ♥3", "♠9 ♠8 ♠7", "♠K ♥3 ♥A", "♥").reason
    'you hold only 2 ♠ cards (♠K ♠4); you must play all of them before any other card, and you kept ♠4'
    """
    position = follow_position(hand, lead, trump, rules)
    played = _played(play)
    if position.allows(played):
        return Verdict.lazy(True, position.legal_rule(played), lambda: position.check(played).reason)
    return position.check(played)


def is_legal_follow(hand: CardsLike, lead: CardsLike, play: CardsLike, trump: TrumpLike,
                    *, rules: Ruleset = DEFAULT_RULES) -> bool:
    """:func:`check_follow`'s answer without its explanation (W0–W5): the fast path
    that the game and the computer players ask.

    >>> is_legal_follow("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♥7 ♥3", "♠"), is_legal_follow("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♥7 ♥7", "♠")
    (False, True)
    """
    return follow_position(hand, lead, trump, rules).allows(_played(play))


class LegalFollows:
    """Every legal follow, lazily (W1–W5): iterating yields each legal play once, as
    a tuple of cards in holding order; ``in`` asks :meth:`FollowPosition.allows`.

    >>> follows = legal_follows("♠A ♠A ♠K ♠K ♠3 ♥4", "♠8 ♠8 ♠7 ♠7", "♥")
    >>> follows.count(), "♠AAKK" in follows, "♠AAK3" in follows
    (1, True, False)
    """

    def __init__(self, position: FollowPosition) -> None:
        self._position = position

    def __iter__(self) -> Iterator[tuple[Card, ...]]:
        p = self._position
        n = p.shape.size
        if len(p.suit) <= n:
            extras = choose_multiset(p.rest, n - len(p.suit))
            if not p.suit:  # the extras come in holding order already
                yield from extras
                return
            base, place = tuple(p.suit), p.trump.places.__getitem__
            for extra in extras:
                yield tuple(sorted(base + extra, key=place))
            return
        place = p.trump.places.__getitem__
        for doubled, pool, k in p.each_choice():
            if not doubled:  # the pool is in holding order
                yield from combinations(pool, k)
                continue
            for fill in combinations(pool, k):
                yield tuple(sorted(doubled + fill, key=place))

    def __contains__(self, play: object) -> bool:
        try:
            return self._position.allows(parse_cards(play))  # type: ignore[arg-type]
        except ValueError:
            return False

    def first(self) -> tuple[Card, ...] | None:
        """The first legal follow (cheap), or None if there is none."""
        return next(iter(self), None)

    def count(self) -> int:
        """How many legal follows there are (enumerates them all)."""
        return sum(1 for _ in self)

    def random(self, rng: Random) -> tuple[Card, ...]:
        """One legal follow drawn with ``rng``, without enumerating them all."""
        p = self._position
        n = p.shape.size
        if len(p.suit) <= n:
            lanes, led = p.trump.lanes, p.shape.lane  # the rest in the order first held, as ever: the same draws
            rest = list(Counter(c for c in p.hand if lanes[c.index] != led).elements())
            return p.trump.sorted(tuple(p.suit) + tuple(rng.sample(rest, n - len(p.suit))))
        doubled, pool, k = rng.choice(p.choices)
        return p.trump.sorted(doubled + tuple(rng.sample(pool, k)))


def _pair_choices(p: FollowPosition) -> Iterator[tuple[tuple[Card, ...], list[Card], int]]:
    """See :attr:`FollowPosition.choices`."""
    n, shape = p.shape.size, p.shape
    ordered = [card for run in sorted(p.runs, key=len, reverse=True) for card in run]
    need = p.best.pairs
    distinct = list(dict.fromkeys(sorted(p.suit, key=p.trump.places.__getitem__)))
    for q in range(need, n // 2 + 1):
        for chosen in combinations(ordered, q):
            if p.best.tractors and _play_score(chosen * 2, p.trump, shape.pairs, p.duty) != p.best:
                continue
            taken = set(chosen)
            pool = [c for c in distinct if c not in taken]
            k = n - 2 * q
            if k <= len(pool):
                yield tuple(c for c in chosen for _ in range(2)), pool, k


def choose_multiset(items: list[tuple[Card, int]], k: int, start: int = 0) -> Iterator[tuple[Card, ...]]:
    """Each distinct choice of ``k`` cards from ``items`` (card, copies held), lazily, in
    order: by the first item chosen, then one copy of it before two, then the rest alike.

    >>> from tutor.rules.notation import parse_cards
    >>> a, b, c = parse_cards("♠A ♠K ♠Q")
    >>> [" ".join(map(str, p)) for p in choose_multiset([(a, 2), (b, 1), (c, 1)], 2)]
    ['♠A ♠K', '♠A ♠Q', '♠A ♠A', '♠K ♠Q']
    """
    if k == 0:
        yield ()
        return
    if all(copies == 1 for _, copies in items[start:]):  # a plain choice of k of them, in the same order
        yield from combinations([card for card, _ in items[start:]], k)
        return
    for i in range(start, len(items)):
        card, count = items[i]
        for take in range(1, min(count, k) + 1):
            for rest in choose_multiset(items, k - take, i + 1):
                yield (card,) * take + rest


def shown_out(plays: Sequence[tuple[int, Sequence[Card]]], trump: Trump) -> list[int]:
    """The seats that followed the first of ``plays`` (the lead, as (seat, cards)) with
    fewer cards of the led suit than were led: they have none of it left (W2: who has
    enough must follow with them).

    >>> from tutor.rules.notation import parse_cards as p
    >>> shown_out([(0, p("♠A")), (1, p("♠3")), (2, p("♥4")), (3, p("♠5")), (4, p("♣6"))], Trump("♦"))
    [2, 4]
    >>> shown_out([(3, p("♠A ♠A")), (4, p("♠3 ♥4"))], Trump("♦"))
    [4]
    """
    if not plays:
        return []
    lanes = trump.lanes
    lead = plays[0][1]
    lane = lanes[lead[0].index]
    return [seat for seat, cards in plays[1:] if sum(1 for c in cards if lanes[c.index] == lane) < len(lead)]


def legal_follows(hand: CardsLike, lead: CardsLike, trump: TrumpLike,
                  *, rules: Ruleset = DEFAULT_RULES) -> LegalFollows:
    """Every legal follow to ``lead`` from ``hand``, lazily (see :class:`LegalFollows`)."""
    return LegalFollows(follow_position(hand, lead, trump, rules))
