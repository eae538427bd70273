"""A whole hand as a state machine: deal and declare, flip or redeal, bury, call
the friend or go solo, play the tricks, capture the kitty and score (D1–S4).

Every action is validated first and refused with :class:`IllegalActionError`
(rule ID and reason); an accepted action returns an :class:`Event`. The actions
replay the hand exactly from its seed.

>>> game = Game(seed=7)
>>> event = game.apply(Deal())
>>> event.results[0].seat, game.phase
(0, <Phase.DEALING: 'dealing'>)
>>> game.apply(Bury(0, game.hand(0)[:8]))
Traceback (most recent call last):
...
tutor.errors.IllegalActionError: the cards are still being dealt; burying comes after the deal (K1)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from tutor.bidding import (
    Declaration,
    check_declaration,
    declaration_options,
    flip_trump,
    kitty_flip,
)
from tutor.cards import (
    HAND_SIZE,
    KITTY_SIZE,
    PACK,
    PLAYERS,
    Card,
    Cards,
    points,
)
from tutor.combos import lead_problem, shape_of
from tutor.arguments import instance
from tutor.errors import (
    CardCountError,
    IllegalActionError,
    InvalidPlayError,
    TutorError,
    shown,
)
from tutor.follow import check_follow
from tutor.i18n import N_, Text, or_list
from tutor.notation import CardsLike, parse_cards, to_cards
from tutor.order import Trump
from tutor.rules import DEFAULT_RULES, Ruleset
from tutor.scoring import HandScore, kitty_multiplier, score_hand
from tutor.throw import Beaten, check_throw
from tutor.trick import explain_trick


class Phase(Enum):
    """The phases of a hand, in order."""

    DEALING = "dealing"
    BURYING = "burying"
    CALLING = "calling"
    PLAYING = "playing"
    FINISHED = "finished"


PHASE_NAMES: Final = {Phase.DEALING: N_("dealing"), Phase.BURYING: N_("burying"), Phase.CALLING: N_("calling"),
                      Phase.PLAYING: N_("playing"), Phase.FINISHED: N_("finished")}
"""Each phase as a learner reads it ("the hand is in the {phase} phase")."""


# ---------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the next card (a chance step: the shuffled pack decides which)."""


@dataclass(frozen=True, slots=True)
class Declare:
    """Show cards to declare or overturn (D1–D3)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _check_seat_and_cards(self)


@dataclass(frozen=True, slots=True)
class CloseDeal:
    """End the deal once every card is dealt: the declaration stands, or the kitty is flipped (D5–D6)."""


@dataclass(frozen=True, slots=True)
class Bury:
    """The declarer buries 8 cards as the kitty (K1)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _check_seat_and_cards(self)


@dataclass(frozen=True, slots=True)
class Call:
    """The declarer names the friend card (F1–F3)."""

    seat: int
    card: Card

    def __post_init__(self) -> None:
        _check_seat(self.seat)
        instance(self.card, Card, "card")


@dataclass(frozen=True, slots=True)
class Solo:
    """The declarer plays alone against four (F5)."""

    seat: int

    def __post_init__(self) -> None:
        _check_seat(self.seat)


@dataclass(frozen=True, slots=True)
class Play:
    """Lead or follow with cards (L1–L5, W0–W6)."""

    seat: int
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        _check_seat_and_cards(self)


Action = Deal | Declare | CloseDeal | Bury | Call | Solo | Play


def _check_seat(seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
        raise _refuse("C4", Text("seats are numbered 0–4, not {seat}", seat=shown(seat)))


def _check_seat_and_cards(action: Declare | Bury | Play) -> None:
    """An action's seat is a seat number and its cards are cards (notation text is read)."""
    _check_seat(action.seat)
    if type(action.cards) is not Cards:
        object.__setattr__(action, "cards", to_cards(action.cards))

# ---------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class Dealt:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Declared:
    seat: int
    cards: tuple[Card, ...]
    trump: Trump
    count: int  # declarations so far, this one included (D5)


@dataclass(frozen=True, slots=True)
class Redealt:
    """The kitty was four pairs and nobody declared: the deal is void (D6)."""

    kitty: tuple[Card, ...]
    deal_number: int


@dataclass(frozen=True, slots=True)
class DeclarerChosen:
    """Who declares, the trump, the declaration count, and the flipped card if the kitty decided (D5–D6)."""

    seat: int
    trump: Trump
    declarations: int
    flipped: Card | None


@dataclass(frozen=True, slots=True)
class KittyTaken:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Buried:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class FriendCalled:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class SoloDeclared:
    seat: int
    automatic: bool  # F4: every card of the declarer's hand is paired


@dataclass(frozen=True, slots=True)
class ThrowFailed:
    """A failed throw (L4–L5): taken back; the options the thrower must choose from."""

    seat: int
    attempted: tuple[Card, ...]
    options: tuple[tuple[Card, ...], ...]
    penalty: int
    beaten: tuple[Beaten, ...]
    reason: Text


@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class FriendRevealed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    seat: int
    points: int
    plays: tuple[tuple[int, tuple[Card, ...]], ...]
    reason: str


@dataclass(frozen=True, slots=True)
class KittyCaptured:
    """Attackers won the last trick (X2): kitty points × multiplier."""

    seat: int
    kitty_points: int
    multiplier: int
    points: int


@dataclass(frozen=True, slots=True)
class HandScored:
    attackers_points: int
    score: HandScore
    results: tuple[int, ...]  # per seat


Result = (Dealt | Declared | Redealt | DeclarerChosen | KittyTaken | Buried | FriendCalled | SoloDeclared
          | ThrowFailed | Played | FriendRevealed | TrickWon | KittyCaptured | HandScored)


@dataclass(frozen=True, slots=True)
class Event:
    """The record of one accepted action: its number, the action, what followed."""

    number: int
    action: Action
    results: tuple[Result, ...]


# ---------------------------------------------------------------- views


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see (F2: nobody knows who the friend is until F6)."""

    seat: int
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    trump: Trump | None
    declarations: tuple[Declared, ...]
    declarer: int | None
    friend_card: Card | None
    friend: int | None  # only once revealed (or to the friend themself)
    solo: bool
    trick: tuple[tuple[int, tuple[Card, ...]], ...]
    to_play: int | None
    forced_options: tuple[tuple[Card, ...], ...]
    points_shown: tuple[int, ...]  # F6: per seat; the declarer's side pooled once the friend is revealed
    kitty: tuple[Card, ...] | None  # the buried cards, for the declarer only
    tricks: tuple[TrickWon, ...]  # the tricks played so far (public)
    all_dealt: bool


# ---------------------------------------------------------------- the game


def _refuse(rule: str, reason: str) -> IllegalActionError:
    return IllegalActionError(rule, reason)


def _phase_name(phase: Phase) -> Text:
    return Text(PHASE_NAMES[phase])


@dataclass
class Game:
    """One hand of 启东招朋友 for five seats, dealt from ``seed``."""

    seed: int
    rules: Ruleset = DEFAULT_RULES
    deck: tuple[Card, ...] | None = None
    """A fixed order of the 108 cards for the first deal (a shared deal); ``None``: shuffled from ``seed``."""
    phase: Phase = field(init=False, default=Phase.DEALING)
    deal_number: int = field(init=False, default=0)
    history: list[Action] = field(init=False, default_factory=list)
    events: list[Event] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        instance(self.rules, Ruleset, "rules")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise TutorError(Text("a hand's seed is a whole number from 0 up, not {seed}", seed=shown(self.seed)))
        self._rng = random.Random(self.seed)
        if self.deck is not None:
            self.deck = parse_cards(self.deck)
            if Counter(self.deck) != Counter(PACK):
                raise CardCountError(Text("a deal holds all {size} cards of the pack, each exactly twice (C1); "
                                          "this one has {count} cards", size=len(PACK), count=len(self.deck)))
        self._start_deal()

    # -------------------------------------------------- state

    def _start_deal(self) -> None:
        pack = list(PACK)
        self._rng.shuffle(pack)
        if self.deck is not None and self.deal_number == 0:
            pack = list(self.deck)
        if self.deal_number == 0:
            self.first_deal: tuple[Card, ...] = tuple(pack)
        self._stock: list[Card] = pack[: PLAYERS * HAND_SIZE]
        self._kitty: list[Card] = pack[PLAYERS * HAND_SIZE:]
        self._hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self._dealt = 0
        self._declarations: list[Declared] = []
        self.trump: Trump | None = None
        self.declarer: int | None = None
        self.declaration_count = 0
        self.friend_card: Card | None = None
        self.friend: int | None = None
        self.friend_revealed = False
        self.solo = False
        self._trick: list[tuple[int, tuple[Card, ...]]] = []
        self._leader = 0
        self._forced: tuple[tuple[Card, ...], ...] = ()
        self.won_points = [0] * PLAYERS
        self.tricks: list[TrickWon] = []
        self.penalty_adjustment = 0  # L5, added to the attackers' total
        self.kitty_capture = 0
        self.score: HandScore | None = None
        self.results: tuple[int, ...] | None = None

    def hand(self, seat: int) -> Cards:
        """The cards ``seat`` holds, in holding order."""
        self._check_seat(seat)
        cards = self._hands[seat]
        return self.trump.sorted(cards) if self.trump else Cards(sorted(cards, key=lambda c: c.index))

    @property
    def kitty(self) -> tuple[Card, ...]:
        """The kitty: the 8 undealt cards while dealing, nothing while the declarer holds
        them, then the 8 buried cards."""
        return tuple(self._kitty)

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is to play, during the tricks."""
        if self.phase is not Phase.PLAYING:
            return None
        return (self._leader + len(self._trick)) % PLAYERS

    @property
    def trick(self) -> tuple[tuple[int, tuple[Card, ...]], ...]:
        """The current trick so far: (seat, cards) in playing order."""
        return tuple(self._trick)

    @property
    def forced_options(self) -> tuple[tuple[Card, ...], ...]:
        """After a failed throw with several options, the leads the thrower may choose (L4)."""
        return self._forced

    @property
    def declarations(self) -> tuple[Declared, ...]:
        return tuple(self._declarations)

    @property
    def all_dealt(self) -> bool:
        return self._dealt == len(self._stock)

    def side_of(self, seat: int) -> str:
        """``"declarer"``, ``"friend"`` or ``"attacker"`` (the truth, not what others know);
        a key, shown to a learner as :func:`tutor.scoring.side_name`."""
        self._check_seat(seat)
        if seat == self.declarer:
            return "declarer"
        return "friend" if seat == self.friend else "attacker"

    def attackers_points(self) -> int:
        """A: attackers' trick points, plus the kitty capture, adjusted by penalties (S4, X2, L5)."""
        won = sum(p for s, p in enumerate(self.won_points) if self.side_of(s) == "attacker")
        return won + self.kitty_capture + self.penalty_adjustment

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see: their own hand, everyone's card counts, the table."""
        self._check_seat(seat)
        shown = list(self.won_points)
        if self.friend_revealed and self.friend is not None and self.declarer is not None:
            shown[self.declarer] += shown[self.friend]
            shown[self.friend] = 0
        knows_friend = self.friend_revealed or seat == self.friend
        return SeatView(
            seat=seat, phase=self.phase, hand=self.hand(seat),
            hand_sizes=tuple(len(h) for h in self._hands), trump=self.trump,
            declarations=tuple(self._declarations), declarer=self.declarer, friend_card=self.friend_card,
            friend=self.friend if knows_friend else None, solo=self.solo, trick=self.trick,
            to_play=self.to_play, forced_options=self._forced if seat == self.to_play else (),
            points_shown=tuple(shown),
            kitty=self.kitty if seat == self.declarer and self.phase not in (Phase.DEALING, Phase.BURYING) else None,
            tricks=tuple(self.tricks), all_dealt=self.all_dealt,
        )

    # -------------------------------------------------- actions

    def apply(self, action: Action) -> Event:
        """Validate ``action`` and carry it out; refuse it with the rule it breaks."""
        handler = {
            Deal: self._deal, Declare: self._declare, CloseDeal: self._close_deal, Bury: self._bury,
            Call: self._call, Solo: self._solo, Play: self._play,
        }.get(type(action))
        if handler is None:
            raise InvalidPlayError(Text("{action} is not a game action", action=shown(action)))
        results = tuple(handler(action))  # type: ignore[operator]
        event = Event(len(self.events), action, results)
        self.history.append(action)
        self.events.append(event)
        return event

    def deal(self) -> Event:
        return self.apply(Deal())

    def declare(self, seat: int, cards: CardsLike) -> Event:
        return self.apply(Declare(seat, parse_cards(cards)))

    def close_deal(self) -> Event:
        return self.apply(CloseDeal())

    def bury(self, seat: int, cards: CardsLike) -> Event:
        return self.apply(Bury(seat, parse_cards(cards)))

    def call(self, seat: int, card: CardsLike | Card) -> Event:
        cards = (card,) if isinstance(card, Card) else parse_cards(card)
        if len(cards) != 1:
            raise _refuse("F1", Text("name exactly one card to call the friend, not {cards}", cards=cards) if cards
                          else Text("name exactly one card to call the friend, not none"))
        return self.apply(Call(seat, cards[0]))

    def go_solo(self, seat: int) -> Event:
        return self.apply(Solo(seat))

    def play(self, seat: int, cards: CardsLike) -> Event:
        return self.apply(Play(seat, parse_cards(cards)))

    @classmethod
    def replay(cls, seed: int, actions: Iterable[Action], rules: Ruleset = DEFAULT_RULES,
               deck: tuple[Card, ...] | None = None) -> Game:
        """The hand rebuilt from its seed (or deck) and actions."""
        game = cls(seed, rules, deck)
        for action in actions:
            game.apply(action)
        return game

    # -------------------------------------------------- checks

    def _check_seat(self, seat: int) -> None:
        _check_seat(seat)

    def _need_phase(self, phase: Phase, rule: str, doing: str) -> None:
        """Refuse unless the hand is in ``phase``; ``doing`` is a template marked with ``N_``."""
        if self.phase is not phase:
            raise _refuse(rule, Text("{doing} is not possible now: the hand is in the {phase} phase",
                                     doing=Text(doing), phase=_phase_name(self.phase)))

    def _holds(self, seat: int, cards: Sequence[Card], rule: str) -> None:
        held = Counter(self._hands[seat])
        for card, count in Counter(cards).items():
            if held[card] < count:
                raise _refuse(rule, Text("{card} is not in your hand", card=card) if not held[card]
                              else Text("you hold {card} only once", card=card))

    def declaration_options(self, seat: int) -> list[tuple[Card, ...]]:
        """The declarations or overturns ``seat`` may make now (D1–D3)."""
        self._check_seat(seat)
        if self.phase is not Phase.DEALING:
            return []
        return declaration_options(self._hands[seat], self._current_declaration(), seat=seat)

    def _current_declaration(self) -> Declaration | None:
        last = self._declarations[-1] if self._declarations else None
        return Declaration(last.cards, last.seat) if last else None

    def nameable_cards(self) -> list[Card]:
        """Cards the declarer may call (F1, F3): held exactly once, twin not buried."""
        if self.declarer is None:
            return []
        held = Counter(self._hands[self.declarer])
        buried = set(self._kitty) if not self.rules.allow_buried_friend else set()
        return sorted((c for c, k in held.items() if k == 1 and c not in buried), key=lambda c: c.index)

    # -------------------------------------------------- handlers

    def _deal(self, action: Deal) -> list[Result]:
        if self.phase is not Phase.DEALING:
            raise _refuse("C2", Text("every card has been dealt"))
        if self.all_dealt:
            raise _refuse("C2", Text("all {count} cards are dealt; close the deal to settle the declaration",
                                     count=len(self._stock)))
        seat = self._dealt % PLAYERS
        card = self._stock[self._dealt]
        self._hands[seat].append(card)
        self._dealt += 1
        results: list[Result] = [Dealt(seat, card)]
        if self.all_dealt and not self.rules.declare_after_deal:
            results.extend(self._close_deal(CloseDeal()))
        return results

    def _declare(self, action: Declare) -> list[Result]:
        self._need_phase(Phase.DEALING, "D1", N_("declaring"))
        self._check_seat(action.seat)
        self._holds(action.seat, action.cards, "D1")
        verdict = check_declaration(Declaration(action.cards, action.seat), self._current_declaration())
        if not verdict.legal:
            raise _refuse(verdict.rule or "D1", verdict.reason)
        trump = Declaration(action.cards).trump
        declared = Declared(action.seat, action.cards, trump, len(self._declarations) + 1)
        self._declarations.append(declared)
        self.trump = trump
        return [declared]

    def _close_deal(self, action: CloseDeal) -> list[Result]:
        self._need_phase(Phase.DEALING, "D6", N_("closing the deal"))
        if not self.all_dealt:
            left = len(self._stock) - self._dealt
            raise _refuse("D1", Text("{count} card is still to be dealt", count=left) if left == 1
                          else Text("{count} cards are still to be dealt", count=left))
        if self._declarations:
            last = self._declarations[-1]
            chosen = DeclarerChosen(last.seat, last.trump, len(self._declarations), None)
        else:
            flipped = kitty_flip(self._kitty)
            if flipped is None:
                kitty = tuple(self._kitty)
                self.deal_number += 1
                self._start_deal()
                return [Redealt(kitty, self.deal_number)]
            holder = next(s for s in range(PLAYERS) if flipped in self._hands[s])
            chosen = DeclarerChosen(holder, flip_trump(flipped), self.rules.flip_declarations, flipped)
        self.declarer, self.trump, self.declaration_count = chosen.seat, chosen.trump, chosen.declarations
        self._hands[chosen.seat].extend(self._kitty)
        taken = KittyTaken(chosen.seat, tuple(self._kitty))
        self._kitty = []
        self.phase = Phase.BURYING
        return [chosen, taken]

    def _bury(self, action: Bury) -> list[Result]:
        if self.phase is Phase.DEALING:
            raise _refuse("K1", Text("the cards are still being dealt; burying comes after the deal"))
        self._need_phase(Phase.BURYING, "K1", N_("burying"))
        if action.seat != self.declarer:
            raise _refuse("K1", Text("only the declarer (seat {seat}) buries the kitty", seat=self.declarer))
        if len(action.cards) != KITTY_SIZE:
            raise _refuse("K1", Text("bury exactly {size} cards, not {count}", size=KITTY_SIZE,
                                     count=len(action.cards)))
        self._holds(action.seat, action.cards, "K1")
        for card in action.cards:
            self._hands[action.seat].remove(card)
        self._kitty = list(action.cards)
        results: list[Result] = [Buried(action.seat, action.cards)]
        self._leader = action.seat
        if not self.nameable_cards():
            self.solo = True
            self.phase = Phase.PLAYING
            results.append(SoloDeclared(action.seat, automatic=True))
        else:
            self.phase = Phase.CALLING
        return results

    def _call(self, action: Call) -> list[Result]:
        self._need_phase(Phase.CALLING, "F1", N_("calling the friend"))
        if action.seat != self.declarer:
            raise _refuse("F1", Text("only the declarer (seat {seat}) calls the friend", seat=self.declarer))
        held = self._hands[action.seat].count(action.card)
        if held != 1:
            raise _refuse("F1", Text("you hold no {card}; call a card of which you hold exactly one copy",
                                     card=action.card) if held == 0 else
                          Text("you hold both copies of {card}; call a card of which you hold exactly one copy",
                               card=action.card))
        if action.card in self._kitty and not self.rules.allow_buried_friend:
            raise _refuse("F3", Text("the other {card} is among the cards you buried, so nobody would be "
                                     "your friend; call another card", card=action.card))
        self.friend_card = action.card
        self.friend = next((s for s in range(PLAYERS) if s != action.seat and action.card in self._hands[s]), None)
        self.phase = Phase.PLAYING
        return [FriendCalled(action.seat, action.card)]

    def _solo(self, action: Solo) -> list[Result]:
        self._need_phase(Phase.CALLING, "F5", N_("going solo"))
        if action.seat != self.declarer:
            raise _refuse("F5", Text("only the declarer (seat {seat}) may go solo", seat=self.declarer))
        self.solo = True
        self.phase = Phase.PLAYING
        return [SoloDeclared(action.seat, automatic=False)]

    def _play(self, action: Play) -> list[Result]:
        if self.phase is not Phase.PLAYING:
            raise _refuse("K1", Text("cards are played after the declarer has buried and called; "
                                     "the hand is in the {phase} phase", phase=_phase_name(self.phase)))
        seat, cards = action.seat, action.cards
        self._check_seat(seat)
        if seat != self.to_play:
            raise _refuse("C4", Text("it is seat {turn}'s turn, not seat {seat}'s", turn=self.to_play, seat=seat))
        assert self.trump is not None
        hand = self._hands[seat]
        if not self._trick:
            return self._lead(seat, cards)
        lead = self._trick[0][1]
        verdict = check_follow(hand, lead, cards, self.trump, rules=self.rules)
        if not verdict.legal:
            raise _refuse(verdict.rule or "W1", verdict.reason)
        return self._put(seat, cards)

    def _lead(self, seat: int, cards: tuple[Card, ...]) -> list[Result]:
        assert self.trump is not None
        if not cards:
            raise _refuse("L1", Text("lead at least one card"))
        self._holds(seat, cards, "W0")
        if self._forced:
            if sorted(cards) not in [sorted(o) for o in self._forced]:
                raise _refuse("L4", Text("your throw failed; you must lead {options}",
                                         options=or_list(self._forced)))
            self._forced = ()
            return self._put(seat, cards)
        problem = lead_problem(cards, self.trump)
        if problem is not None:
            raise _refuse("L1", problem)
        shape = shape_of(cards, self.trump)
        if not shape.is_throw:
            return self._put(seat, cards)
        others = [self._hands[s] for s in range(PLAYERS) if s != seat]
        result = check_throw(cards, others, self.trump, rules=self.rules)
        if result.ok:
            return self._put(seat, cards)
        penalty = result.penalty
        if self.side_of(seat) == "attacker":
            self.penalty_adjustment -= penalty
        elif self.rules.penalty_to_declarers:
            self.penalty_adjustment += penalty
        failed = ThrowFailed(seat, cards, result.options, penalty, result.beaten, result.reason)
        if len(result.options) == 1:
            return [failed, *self._put(seat, result.options[0])]
        self._forced = result.options
        return [failed]

    def _put(self, seat: int, cards: tuple[Card, ...]) -> list[Result]:
        assert self.trump is not None
        hand = self._hands[seat]
        for card in cards:
            hand.remove(card)
        self._trick.append((seat, cards))
        results: list[Result] = [Played(seat, cards)]
        called = self.friend_card
        if called is not None and not self.friend_revealed and seat == self.friend and called in cards:
            self.friend_revealed = True
            results.append(FriendRevealed(seat, called))
        if len(self._trick) == PLAYERS:
            results.extend(self._finish_trick())
        return results

    def _finish_trick(self) -> list[Result]:
        assert self.trump is not None
        outcome = explain_trick([cards for _, cards in self._trick], self.trump)
        winner = self._trick[outcome.winner][0]
        won = TrickWon(winner, outcome.points, tuple(self._trick), outcome.reason)
        self.won_points[winner] += outcome.points
        self.tricks.append(won)
        last_lead = self._trick[0][1]
        winning_play = self._trick[outcome.winner][1]
        self._trick = []
        self._leader = winner
        results: list[Result] = [won]
        if any(self._hands):
            return results
        if self.side_of(winner) == "attacker":  # X1–X2
            if self.rules.kitty_pairs_from == "lead":
                multiplier = kitty_multiplier(last_lead, self.trump)
            else:
                multiplier = 2 ** (1 + _pairs_in(winning_play))
            kitty_points = points(self._kitty)
            self.kitty_capture = kitty_points * multiplier
            results.append(KittyCaptured(winner, kitty_points, multiplier, self.kitty_capture))
        total = self.attackers_points()
        friendless = self.friend is None and not self.solo  # F3 variant: a buried twin leaves the declarer alone
        score = score_hand(total, declarations=self.declaration_count, solo=self.solo, friendless=friendless)
        self.score = score
        self.results = tuple(score[self.side_of(s)] for s in range(PLAYERS))
        self.phase = Phase.FINISHED
        results.append(HandScored(total, score, self.results))
        return results


def _pairs_in(cards: Sequence[Card]) -> int:
    counts = Counter(cards)
    return sum(k // 2 for k in counts.values())
