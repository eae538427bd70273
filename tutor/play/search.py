"""Searching for a seat's best play: advice, not a rule.

From one seat's view (its own cards and the table, nothing more), :func:`search` deals
the unseen cards many times at random, consistent with all the seat has seen
(:meth:`tutor.play.simulation.Simulation.deal`), plays every candidate out to the end of
the hand in each layout and scores it as the hand is scored (S1–S3). The candidate
with the best average is the advice; the averages, with their spread, say by how
much. This is determinized Monte Carlo search, the standard method for card games
where the other hands are hidden. The rules decide only what may be played; which
play is *good* is an estimate, and every sentence made from it says so.

>>> import random
>>> from tutor.rules.game import Game, Phase
>>> from tutor.play.strategy import ComputerPlayer, next_action
>>> game = Game(4)
>>> bots = {seat: ComputerPlayer(seat, 4) for seat in range(5)}
>>> while game.phase is not Phase.PLAYING:
...     _ = game.apply(next_action(game, bots))
>>> found = search(game.view(game.actor), game.rules, rng=random.Random(0), layouts=8)
>>> found.layouts, len(found.values) > 1, found.best is found.values[0]
(8, True, True)
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, TypeVar

from tutor.core.clock import thinking_time
from tutor.core.errors import TutorError
from tutor.core.i18n import Text
from tutor.play.simulation import Layout, Outcome, Policy, Simulation, complete_deal
from tutor.rules.actions import Action, Deal, Declare
from tutor.rules.cards import KITTY_SIZE, PLAYERS, Card, Cards
from tutor.rules.combos import pair_runs
from tutor.rules.follow import legal_follows
from tutor.rules.friend import call_refusal, nameable_cards, same_side
from tutor.rules.game import Game
from tutor.rules.order import Trump
from tutor.rules.phase import Phase
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.view import SeatView

MAX_CANDIDATES: Final = 16
"""At most this many plays are searched; more (a long void follow) are sampled."""

T = TypeVar("T")

_SCAN: Final = 400
"""Legal follows looked at before sampling the rest."""


@dataclass(frozen=True, slots=True)
class PlayValue:
    """One candidate play and what the search found: the seat's average result (S1–S3)
    over the layouts, its standard error, the share of layouts in which the seat's
    side took the trick the play is part of, and the attackers' average total (S4)."""

    play: Cards
    expected: float
    error: float
    trick_share: float
    attackers_points: float
    results: tuple[int, ...] = field(default=(), repr=False)  # the seat's result in each layout, in order


@dataclass(frozen=True, slots=True)
class Found:
    """A search's answer: every candidate, best first, from ``layouts`` layouts in
    ``seconds`` of CPU time."""

    seat: int
    values: tuple[PlayValue, ...]
    layouts: int
    seconds: float

    @property
    def best(self) -> PlayValue:
        """The candidate with the best average result."""
        return self.values[0]

    def edge(self, better: PlayValue, other: PlayValue) -> tuple[float, float]:
        """How much ``better`` gains over ``other``, with its standard error (:func:`gain`)."""
        return gain(better, other)

    def value_of(self, play: Sequence[Card]) -> PlayValue | None:
        """The value found for ``play`` (in any order), or None if it was not searched."""
        wanted = Counter(play)
        return next((value for value in self.values if Counter(value.play) == wanted), None)


def edge(better: Sequence[float], other: Sequence[float]) -> tuple[float, float]:
    """The average of the paired differences of two result series over the same layouts,
    and its standard error.

    >>> gain, error = edge([3, 1, 2], [1, 1, 0])
    >>> round(gain, 2), round(error, 2)
    (1.33, 0.67)
    """
    differences = [a - b for a, b in zip(better, other, strict=True)]
    count = len(differences)
    mean = sum(differences) / count
    variance = sum((d - mean) ** 2 for d in differences) / max(count - 1, 1)
    return mean, math.sqrt(variance / count)


def gain(better: PlayValue, other: PlayValue) -> tuple[float, float]:
    """How much ``better`` gains over ``other`` on the score table (S1–S3), with the
    standard error: on the same layouts where both were played out (:func:`edge`), else
    from their averages and errors (a prepared position keeps each option's gain against
    the best as its average's difference, and that gain's error as its error:
    :func:`tutor.play.bank.prepared`).

    >>> from tutor.rules.notation import parse_cards as p
    >>> gain(PlayValue(p("♠A"), 2.0, 0.3, 1.0, 40.0, (3, 1)), PlayValue(p("♠3"), 0.0, 0.3, 0.0, 60.0, (1, -1)))
    (2.0, 0.0)
    >>> gain(PlayValue(p("♠A"), 2.0, 0.0, 1.0, 40.0), PlayValue(p("♠3"), 0.5, 0.25, 0.0, 60.0))
    (1.5, 0.25)
    """
    if better.results and len(better.results) == len(other.results):
        return edge(better.results, other.results)
    return better.expected - other.expected, math.hypot(better.error, other.error)


def _key(play: Sequence[Card]) -> Cards:
    return Cards(sorted(play, key=lambda card: card.index))


def candidate_plays(view: SeatView, rules: Ruleset = DEFAULT_RULES, *, rng: random.Random,
                    include: Sequence[Sequence[Card]] = ()) -> tuple[Cards, ...]:
    """The plays a search weighs for ``view``'s seat: the forced leads of a failed throw
    (L4); a lead's every single, pair and tractor (M1–M3); a follow's legal plays (W1–W4),
    sampled when there are more than :data:`MAX_CANDIDATES` (by ``rng`` alone, whatever is
    included). ``include`` (for example the learner's own choice, or a heuristic player's)
    is always among them: after the others, those not among them already — so including a
    play that is weighed anyway changes nothing, not even the order of exact ties.

    >>> from tutor.rules.game import Game, Phase
    >>> from tutor.play.strategy import ComputerPlayer, next_action
    >>> game = Game(4)
    >>> bots = {seat: ComputerPlayer(seat, 4) for seat in range(5)}
    >>> while game.phase is not Phase.PLAYING:
    ...     _ = game.apply(next_action(game, bots))
    >>> plays = candidate_plays(game.view(game.actor), rng=random.Random(0))
    >>> all(len(play) in (1, 2) or len(play) % 2 == 0 for play in plays)
    True
    """
    trump = view.trump
    if view.phase is not Phase.PLAYING or trump is None or view.actor != view.seat:
        raise TutorError(Text("a search weighs the plays of the seat to play, in the playing phase"))
    chosen = dict.fromkeys(_weighed_anyway(view, rules, rng, trump))
    chosen.update((_key(play), None) for play in include)
    return tuple(chosen)


def _weighed_anyway(view: SeatView, rules: Ruleset, rng: random.Random, trump: Trump) -> list[Cards]:
    """:func:`candidate_plays` before ``include``."""
    if view.forced_options:
        return [_key(option) for option in view.forced_options]
    hand = view.hand
    if not view.trick:
        chosen: dict[Cards, None] = {}
        counts = Counter(hand)
        for card in sorted(counts, key=lambda c: c.index):
            chosen.setdefault(Cards((card,)), None)
            if counts[card] == 2:
                chosen.setdefault(Cards((card, card)), None)
        by_lane: dict[int, list[Card]] = {}
        for card in hand:
            by_lane.setdefault(trump.lane(card), []).append(card)
        for cards in by_lane.values():
            for run in pair_runs(cards, trump):
                if len(run) > 1:
                    chosen.setdefault(_key([c for card in run for c in (card, card)]), None)
        return list(chosen)
    follows = legal_follows(hand, view.trick[0][1], trump, rules=rules)
    found: dict[Cards, None] = {}
    for index, play in enumerate(follows):
        found.setdefault(_key(play), None)
        if index >= _SCAN:
            break
    plays = list(found)
    if len(plays) > MAX_CANDIDATES:  # sampled whatever is included: the same sample for every caller
        plays = rng.sample(plays, MAX_CANDIDATES)
    return plays


def search(view: SeatView, rules: Ruleset = DEFAULT_RULES, *, rng: random.Random, layouts: int = 40,
           think: float | None = None, candidates: Sequence[Sequence[Card]] | None = None,
           include: Sequence[Sequence[Card]] = (), policy: Policy = "greedy") -> Found:
    """Weigh ``candidates`` (default :func:`candidate_plays`, with ``include``) for the
    seat to play in ``view``: ``layouts`` random layouts of the unseen cards, each
    candidate played out in each (the same layouts for every candidate, so they are
    compared on equal cards), stopping early once ``think`` seconds are spent (CPU seconds; in the browser, seconds:
    :mod:`tutor.core.clock`)
    (after at least two layouts). The other seats, and the seat itself after this play,
    play by ``policy`` (:meth:`Simulation.playout`).

    Each playout's result for the seat (S1–S3) is what is averaged. One number drawn from
    ``rng`` decides everything: the layouts, the sample of plays, and each playout, by its
    layout and its play alone (:func:`playout_rng`) — so a play is given the same numbers
    whatever else is weighed beside it (the coach's hint, its review and its drills agree).
    """
    return finished(search_steps(view, rules, rng=rng, layouts=layouts, think=think, candidates=candidates,
                                 include=include, policy=policy))


Steps = Generator[None, None, T]
"""Work done a little at a time: each ``next()`` does one step (yielding None), and the
generator returns its answer (:func:`finished` runs it to the end)."""


def finished(steps: Steps[T]) -> T:
    """The answer of ``steps``, all of them done now.

    >>> def two() -> Steps[int]:
    ...     yield
    ...     return 2
    >>> finished(two())
    2
    """
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


def search_steps(view: SeatView, rules: Ruleset = DEFAULT_RULES, *, rng: random.Random, layouts: int = 40,
                 think: float | None = None, candidates: Sequence[Sequence[Card]] | None = None,
                 include: Sequence[Sequence[Card]] = (), policy: Policy = "greedy") -> Steps[Found]:
    """:func:`search` a layout at a time: a step plays every candidate out in one layout
    (so a page can weigh a position between the learner's clicks); the same answer."""
    _check_layouts(layouts)
    start = thinking_time()
    simulation = Simulation(view, rules)
    seed = rng.getrandbits(64)  # the layouts, the sample of plays and every playout follow from it
    dealer = random.Random(seed)
    plays = tuple(_key(play) for play in candidates) if candidates is not None \
        else candidate_plays(view, rules, rng=random.Random(seed + 1), include=include)
    if not plays:
        raise TutorError(Text("a search needs at least one play to weigh"))
    seat = view.seat
    results: list[list[int]] = [[] for _ in plays]
    tricks = [0] * len(plays)
    attackers = [0] * len(plays)
    done = 0
    for done in range(1, layouts + 1):
        layout = simulation.deal(dealer)
        for index, play in enumerate(plays):
            outcome = simulation.playout(layout, playout_rng(seed, done, play), first=play, policy=policy)
            results[index].append(outcome.results[seat])
            tricks[index] += _took_trick(outcome, seat)
            attackers[index] += outcome.attackers_points
        if think is not None and done >= 2 and thinking_time() - start > think:
            break
        if done < layouts:
            yield
    values = []
    for index, play in enumerate(plays):
        mine = results[index]
        mean = sum(mine) / done
        variance = sum((r - mean) ** 2 for r in mine) / max(done - 1, 1)
        values.append(PlayValue(play, mean, math.sqrt(variance / done), tricks[index] / done,
                                attackers[index] / done, tuple(mine)))
    order = sorted(range(len(values)), key=lambda i: -values[i].expected)  # stable: ties keep candidate order
    return Found(seat, tuple(values[i] for i in order), done, thinking_time() - start)


def playout_rng(seed: int, layout: int, play: Sequence[Card]) -> random.Random:
    """The random numbers of the playout of ``play`` in layout number ``layout`` of the
    search drawn from ``seed``: the same on every machine (integer arithmetic only, no
    ``hash``), whatever else the search weighs.

    >>> from tutor.rules.notation import parse_cards
    >>> a, b = playout_rng(7, 1, parse_cards("♠A")), playout_rng(7, 1, parse_cards("♠A"))
    >>> a.random() == b.random(), playout_rng(7, 2, parse_cards("♠A")).random() == playout_rng(7, 1, parse_cards("♠A")).random()
    (True, False)
    """
    number = 0
    for card in play:
        number = number * 55 + card.index + 1
    return random.Random(((seed * 65_537 + layout) << 128) + number)


def _check_layouts(layouts: object) -> None:
    """Refuse a number of layouts that is not a whole number from 1 up."""
    if isinstance(layouts, bool) or not isinstance(layouts, int) or layouts < 1:
        raise TutorError(Text("a search needs at least one layout, not {value}", value=repr(layouts)[:40]))


def weigh_calls(view: SeatView, calls: Sequence[Card | None], rules: Ruleset = DEFAULT_RULES, *,
                rng: random.Random, layouts: int = 40, think: float | None = None) -> tuple[tuple[int, ...], ...]:
    """The declarer's result (S1–S3) in each of ``layouts`` random layouts, for each of
    ``calls`` (a card the rules let the declarer call as the friend's, F1, F3:
    :func:`tutor.rules.friend.nameable_cards`, or None for a solo, F5), the hand
    played out from the first lead by the greedy policy: the same layouts for each call.
    ``view`` is the declarer's, in the calling phase (the kitty buried)."""
    if view.phase is not Phase.CALLING or view.seat != view.declarer or view.kitty is None:
        raise TutorError(Text("calls are weighed from the declarer's view once the kitty is buried"))
    _check_calls(view.hand, view.kitty, calls, rules)
    return _weigh_openings([_opening(view, view.hand, view.kitty, card) for card in calls], rules, rng, layouts, think)


def calls_to_weigh(view: SeatView, rules: Ruleset = DEFAULT_RULES) -> list[Card | None]:
    """A few calls that span the declarer's choice, for :func:`weigh_calls` to compare: the
    two highest aces it may call, its highest and its lowest card it may call (F1, F3:
    :func:`tutor.rules.friend.nameable_cards`), and a solo (None, F5); each once.
    ``view`` is the declarer's, the kitty buried.

    >>> from tutor.play.strategy import computer_hand
    >>> game, _ = computer_hand(4, Phase.CALLING)
    >>> calls = calls_to_weigh(game.view(game.declarer))
    >>> calls[-1] is None, all(card in game.nameable_cards() for card in calls[:-1])
    (True, True)
    """
    if view.trump is None or view.kitty is None:
        raise TutorError(Text("calls are weighed from the declarer's view once the kitty is buried"))
    order = view.trump.order
    nameable = sorted(nameable_cards(view.hand, view.kitty, rules), key=lambda card: card.index)
    if not nameable:
        return [None]
    aces = sorted((card for card in nameable if card.rank == 14 and card.suit is not None), key=order)[-2:]
    return list(dict.fromkeys([*aces, max(nameable, key=order), min(nameable, key=order), None]))


def weigh_buries(view: SeatView, options: Sequence[tuple[Sequence[Card], Card | None]],
                 rules: Ruleset = DEFAULT_RULES, *, rng: random.Random, layouts: int = 40,
                 think: float | None = None) -> tuple[tuple[int, ...], ...]:
    """As :func:`weigh_calls`, for the declarer about to bury (K1): each option is 8 of
    its 28 cards to bury and the call it would then make (a card the rules would let it
    call, or None, a solo).

    >>> from tutor.rules.game import Game
    >>> from tutor.play.strategy import ComputerPlayer, next_action
    >>> game = Game(4)
    >>> bots = {seat: ComputerPlayer(seat, 4) for seat in range(5)}
    >>> while game.phase is not Phase.BURYING:
    ...     _ = game.apply(next_action(game, bots))
    >>> view = game.view(game.actor)
    >>> low, high = sorted(view.hand, key=lambda c: c.index)[:8], sorted(view.hand, key=lambda c: c.index)[-8:]
    >>> [len(r) for r in weigh_buries(view, [(low, None), (high, None)], rng=random.Random(0), layouts=3)]
    [3, 3]
    """
    if view.phase is not Phase.BURYING or view.seat != view.declarer:
        raise TutorError(Text("buries are weighed from the declarer's view, before burying"))
    held = Counter(view.hand)
    for bury, _ in options:
        if len(bury) != KITTY_SIZE or Counter(bury) - held:
            raise TutorError(Text("a bury is {count} of the declarer's cards, not {cards}", count=KITTY_SIZE,
                                  cards=Cards(bury)))
    openings = [_opening(view, tuple((held - Counter(bury)).elements()), bury, card) for bury, card in options]
    for opening, (_, card) in zip(openings, options):
        assert opening.kitty is not None
        _check_calls(opening.hand, opening.kitty, (card,), rules)
    return _weigh_openings(openings, rules, rng, layouts, think)


def weigh_declarations(view: SeatView, options: Sequence[Sequence[Card] | None], table: Callable[[Game], Action],
                       rules: Ruleset = DEFAULT_RULES, *, rng: random.Random, layouts: int = 20,
                       think: float | None = None) -> tuple[tuple[int, ...], ...]:
    """The seat's result (S1–S3) in each of ``layouts`` random deals, for each of
    ``options``: cards to declare or overturn with now (D1–D3), or None, not now. Each
    deal is completed at random as far as the seat has seen
    (:func:`tutor.play.simulation.complete_deal`); the rest of the deal, the declarations,
    the bury and the call are ``table``'s (the next action of a table of players, for a
    game), the tricks the greedy policy's. The same deals for each option.

    >>> from tutor.rules.game import Game
    >>> from tutor.play.strategy import ComputerPlayer, next_action
    >>> game = Game(4)
    >>> bots = {seat: ComputerPlayer(seat, 4) for seat in range(5)}
    >>> while not any(game.declaration_options(seat) for seat in range(5)):
    ...     _ = game.apply(Deal())
    >>> seat = next(seat for seat in range(5) if game.declaration_options(seat))
    >>> option = game.declaration_options(seat)[0]
    >>> results = weigh_declarations(game.view(seat), [option, None], lambda g: next_action(g, bots),
    ...                              rng=random.Random(0), layouts=3)
    >>> [len(r) for r in results]
    [3, 3]
    """
    if not isinstance(view, SeatView) or view.phase is not Phase.DEALING:
        raise TutorError(Text("declarations are weighed while the cards are dealt"))
    if not options:
        raise TutorError(Text("a search needs at least one play to weigh"))
    _check_layouts(layouts)
    start = thinking_time()
    seat, dealt = view.seat, sum(view.hand_sizes)
    results: list[list[int]] = [[] for _ in options]
    for done in range(1, layouts + 1):
        deck = complete_deal(view, rng)
        for mine, option in zip(results, options):
            game = Game(0, rules, deck=deck)
            for _ in range(dealt):
                game.apply(Deal())
            for declared in view.declarations:
                game.apply(Declare(declared.seat, declared.cards))
            if option is not None:
                game.apply(Declare(seat, tuple(option)))
            while game.phase is not Phase.PLAYING:
                game.apply(table(game))
            declarer = game.declarer
            assert declarer is not None
            layout = Layout(tuple(game.hand(s) for s in range(PLAYERS)), Cards(game.kitty))
            mine.append(Simulation(game.view(declarer), rules).playout(layout, rng, policy="greedy").results[seat])
        if think is not None and done >= 2 and thinking_time() - start > think:
            break
    return tuple(tuple(mine) for mine in results)


def _check_calls(hand: Sequence[Card], kitty: Sequence[Card], calls: Sequence[Card | None], rules: Ruleset) -> None:
    """Refuse a call the rules would refuse the declarer holding ``hand`` with ``kitty``
    buried, saying why as the game does (F1, F3: :func:`tutor.rules.friend.call_refusal`);
    None, a solo, is always open (F5).

    >>> from tutor.rules.notation import parse_cards as p
    >>> _check_calls(p("♠A ♥K ♥K"), p("♠A ♦4"), [None, p("♥K")[0]], DEFAULT_RULES)
    Traceback (most recent call last):
    ...
    tutor.core.errors.IllegalActionError: you hold both copies of ♥K; call a card of which you hold exactly one copy (F1)
    >>> _check_calls(p("♠A ♥K ♥K"), p("♠A ♦4"), [p("♠A")[0]], Ruleset(allow_buried_friend=True))
    """
    for card in calls:
        refusal = None if card is None else call_refusal(hand, kitty, card, rules)
        if refusal is not None:
            raise refusal


def _opening(view: SeatView, hand: Sequence[Card], kitty: Sequence[Card], call: Card | None) -> SeatView:
    """The declarer's view at the first lead, holding ``hand``, having buried ``kitty``
    and called ``call`` (None: a solo)."""
    sizes = tuple(len(hand) if seat == view.seat else size for seat, size in enumerate(view.hand_sizes))
    return replace(view, phase=Phase.PLAYING, hand=tuple(hand), hand_sizes=sizes, kitty=tuple(kitty),
                   actor=view.seat, to_play=view.seat, trick=(), tricks=(), forced_options=(), friend_card=call,
                   solo=call is None, friend=None, friend_revealed=False)


def _weigh_openings(openings: Sequence[SeatView], rules: Ruleset, rng: random.Random, layouts: int,
                    think: float | None) -> tuple[tuple[int, ...], ...]:
    """The seat's result in each layout, for each opening view (the same seat, the same
    unseen cards), each played out from the first lead by the greedy policy on the same
    layouts of the other hands."""
    if not openings:
        raise TutorError(Text("a search needs at least one play to weigh"))
    start = thinking_time()
    seat = openings[0].seat
    simulations = [Simulation(opening, rules) for opening in openings]
    results: list[list[int]] = [[] for _ in openings]
    for done in range(1, layouts + 1):
        layout = simulations[0].deal(rng)  # the other hands do not depend on the opening
        for mine, opening, simulation in zip(results, openings, simulations):
            hands = tuple(Cards(opening.hand) if s == seat else hand for s, hand in enumerate(layout.hands))
            assert opening.kitty is not None
            mine.append(simulation.playout(Layout(hands, Cards(opening.kitty)), rng,
                                           policy="greedy").results[seat])
        if think is not None and done >= 2 and thinking_time() - start > think:
            break
    return tuple(tuple(mine) for mine in results)


def _took_trick(outcome: Outcome, seat: int) -> bool:
    """True if the seat's side (in this playout's layout: :func:`tutor.rules.friend.same_side`)
    took the trick the searched play belongs to."""
    return outcome.trick_winner is not None and \
        same_side(outcome.trick_winner, seat, outcome.declarer, outcome.friend)


__all__ = ["MAX_CANDIDATES", "Found", "PlayValue", "Steps", "candidate_plays", "edge", "finished", "playout_rng",
           "search", "search_steps", "weigh_buries", "weigh_calls", "weigh_declarations"]
