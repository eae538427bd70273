"""A whole hand as a state machine: deal and declare, flip or redeal, bury, call
the friend or go solo, play the tricks, capture the kitty and score (D1–S4).

The turn API is the one place that says whose turn it is and what they may do:
:attr:`Game.actor` is the seat that must act now (``None`` while the shuffled pack
decides: a deal step); :meth:`Game.verify` refuses an action with
:class:`IllegalActionError` (rule ID and reason) and changes nothing;
:meth:`Game.can` is its yes or no; :meth:`Game.apply` verifies, then carries the
action out and returns an :class:`Event`. The actions replay the hand exactly from
its seed.

The game holds the hand and asks the rules of every fact: the actions are
:mod:`tutor.rules.actions`, what they produce :mod:`tutor.rules.events` (its record searched
and replayed: :mod:`tutor.rules.history`), what a seat sees :mod:`tutor.rules.view`, the
phases :mod:`tutor.rules.phase` (all re-exported here), a play's judgement
:func:`tutor.rules.refusal.play_refusal`, the calls and the sides :mod:`tutor.rules.friend`,
the kitty capture, the penalties and the score :mod:`tutor.rules.scoring`.

>>> game = Game(seed=7)
>>> game.actor is None, game.can(Deal()), game.can(Bury(0, game.hand(0)[:8]))
(True, True, False)
>>> event = game.apply(Deal())
>>> event.results[0].seat, game.phase
(0, <Phase.DEALING: 'dealing'>)
>>> game.apply(Bury(0, game.hand(0)[:8]))
Traceback (most recent call last):
...
tutor.core.errors.IllegalActionError: the cards are still being dealt; burying comes after the deal (K1)
>>> game
Game(seed=7, dealing, 1 of 100 cards dealt)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import assert_never

from tutor.core.arguments import instance, seed_number
from tutor.core.errors import CardCountError, IllegalActionError, InvalidPlayError, TutorError, shown
from tutor.core.i18n import N_, Text
from tutor.rules.actions import (ACTIONS, Action, Bury, Call, CloseDeal, Deal, Declare, Play, Solo,
                                 check_seat)
from tutor.rules.bidding import Declaration, check_declaration, flip_trump, kitty_flip
from tutor.rules.cards import HAND_SIZE, KITTY_SIZE, PACK, PLAYERS, Card, Cards
from tutor.rules.combos import shape_of
from tutor.rules.events import (Buried, Dealt, Declared, DeclarerChosen, Event, FriendCalled, FriendRevealed,
                                HandScored, KittyCaptured, KittyTaken, Played, Redealt, Result, SoloDeclared,
                                ThrowFailed, TrickWon, standing_declaration)
from tutor.rules.friend import Side, call_refusal, friend_of, nameable_cards, side_of
from tutor.rules.history import History
from tutor.rules.notation import CardsLike, parse_cards
from tutor.rules.order import Trump
from tutor.rules.phase import Phase, phase_name
from tutor.rules.refusal import not_held, play_refusal
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.scoring import HandScore, attackers_total, kitty_capture, penalty_change, score_seats
from tutor.rules.throw import check_throw
from tutor.rules.trick import explain_trick, winner_so_far
from tutor.rules.view import SeatView, declaration_choices

__all__ = [  # the actions, the events, the view and the phase that callers import from here, re-exported:
    # their home is their own module
    "ACTIONS", "Action", "Buried", "Bury", "Call", "CloseDeal", "Deal", "Dealt", "Declare", "Declared",
    "DeclarerChosen", "Event", "FriendCalled", "FriendRevealed", "Game", "HandScored", "KittyCaptured",
    "KittyTaken", "Phase", "Play", "Played", "Redealt", "Result", "SeatView", "Solo", "SoloDeclared",
    "ThrowFailed", "TrickWon",
]


class Game(History):
    """One hand of 启东招朋友 for five seats, dealt from ``seed`` (or from ``deck``,
    a fixed order of the 108 cards for the first deal: a shared deal).

    Its state is read-only from outside; only :meth:`apply` changes it.

    >>> game = Game(3)
    >>> game.trump = None
    Traceback (most recent call last):
    ...
    AttributeError: property 'trump' of 'Game' object has no setter
    """

    __slots__ = (
        "_seed", "_rules", "_deck", "_rng", "_phase", "_deal_number", "_history", "_events", "_first_deal",
        "_stock", "_kitty", "_hands", "_dealt", "_declarations", "_trump", "_declarer", "_declaration_count",
        "_friend_card", "_friend", "_friend_revealed", "_solo", "_trick", "_leader", "_forced", "_won_points",
        "_tricks", "_penalty_adjustment", "_kitty_capture", "_score", "_results",
    )

    def __init__(self, seed: int, rules: Ruleset = DEFAULT_RULES, deck: CardsLike | None = None) -> None:
        self._rules = instance(rules, Ruleset, "rules")
        self._seed = seed_number(seed)
        self._rng = random.Random(seed)
        self._deck: Cards | None = None
        if deck is not None:
            self._deck = parse_cards(deck)
            if Counter(self._deck) != Counter(PACK):
                raise CardCountError(Text("a deal holds all {size} cards of the pack, each exactly twice (C1); "
                                          "this one has {count} cards", size=len(PACK), count=len(self._deck)))
        self._deal_number = 0
        self._history: list[Action] = []
        self._events: list[Event] = []
        self._start_deal()

    def __repr__(self) -> str:
        where = {
            Phase.DEALING: lambda: f"{self._dealt} of {len(self._stock)} cards dealt",
            Phase.BURYING: lambda: f"seat {self._declarer} to bury",
            Phase.CALLING: lambda: f"seat {self._declarer} to call",
            Phase.PLAYING: lambda: f"trick {len(self._tricks) + 1}, seat {self.to_play} to play",
            Phase.FINISHED: lambda: f"attackers {self.attackers_points()} points",
        }[self._phase]()
        return f"Game(seed={self._seed}, {self._phase.value}, {where})"

    def _start_deal(self) -> None:
        pack = list(PACK)
        self._rng.shuffle(pack)
        if self._deck is not None and self._deal_number == 0:
            pack = list(self._deck)
        if self._deal_number == 0:
            self._first_deal = tuple(pack)
        self._phase = Phase.DEALING
        self._stock: list[Card] = pack[: PLAYERS * HAND_SIZE]
        self._kitty: list[Card] = pack[PLAYERS * HAND_SIZE:]
        self._hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
        self._dealt = 0
        self._declarations: list[Declared] = []
        self._trump: Trump | None = None
        self._declarer: int | None = None
        self._declaration_count = 0
        self._friend_card: Card | None = None
        self._friend: int | None = None
        self._friend_revealed = False
        self._solo = False
        self._trick: list[tuple[int, tuple[Card, ...]]] = []
        self._leader = 0
        self._forced: tuple[tuple[Card, ...], ...] = ()
        self._won_points = [0] * PLAYERS
        self._tricks: list[TrickWon] = []
        self._penalty_adjustment = 0  # L5, added to the attackers' total
        self._kitty_capture = 0
        self._score: HandScore | None = None
        self._results: tuple[int, ...] | None = None

    # -------------------------------------------------- the state, read-only

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def rules(self) -> Ruleset:
        return self._rules

    @property
    def deck(self) -> Cards | None:
        """The fixed first deal this hand was made from, or ``None`` if shuffled from the seed."""
        return self._deck

    @property
    def first_deal(self) -> tuple[Card, ...]:
        """The 108 cards of the first deal in dealing order (the last 8 are the kitty)."""
        return self._first_deal

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def deal_number(self) -> int:
        """0 for the first deal, 1 after one redeal (D6), …"""
        return self._deal_number

    @property
    def history(self) -> tuple[Action, ...]:
        """Every accepted action, in order: :meth:`replay` rebuilds the hand from them."""
        return tuple(self._history)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def last_event(self) -> Event | None:
        """The most recent event (without copying the whole history)."""
        return self._events[-1] if self._events else None

    @property
    def trump(self) -> Trump | None:
        return self._trump

    @property
    def declarer(self) -> int | None:
        return self._declarer

    @property
    def declaration_count(self) -> int:
        """Declarations and overturns so far: the score's multiplier (D5)."""
        return self._declaration_count

    @property
    def friend_card(self) -> Card | None:
        return self._friend_card

    @property
    def friend(self) -> int | None:
        """The friend's seat (the truth, which the other seats do not know until F6)."""
        return self._friend

    @property
    def friend_revealed(self) -> bool:
        return self._friend_revealed

    @property
    def solo(self) -> bool:
        return self._solo

    @property
    def won_points(self) -> tuple[int, ...]:
        """Trick points won by each seat so far."""
        return tuple(self._won_points)

    @property
    def tricks(self) -> tuple[TrickWon, ...]:
        return tuple(self._tricks)

    @property
    def penalty_adjustment(self) -> int:
        """Failed-throw penalties added to the attackers' total so far (L5)."""
        return self._penalty_adjustment

    @property
    def kitty_capture(self) -> int:
        """Kitty points × multiplier, once the attackers won the last trick (X1–X2)."""
        return self._kitty_capture

    @property
    def score(self) -> HandScore | None:
        return self._score

    @property
    def results(self) -> tuple[int, ...] | None:
        """Each seat's score, once the hand is finished (S1–S3)."""
        return self._results

    def hand(self, seat: int) -> Cards:
        """The cards ``seat`` holds, in holding order."""
        check_seat(seat)
        cards = self._hands[seat]
        return self._trump.sorted(cards) if self._trump else Cards(sorted(cards, key=lambda c: c.index))

    @property
    def kitty(self) -> tuple[Card, ...]:
        """The kitty: the 8 undealt cards while dealing, nothing while the declarer holds
        them, then the 8 buried cards."""
        return tuple(self._kitty)

    @property
    def actor(self) -> int | None:
        """The seat that must act now: the declarer while burying and calling, the seat
        to play during the tricks; ``None`` while dealing (the pack decides; any seat
        may declare, see :meth:`declaration_options`) and once the hand is finished.

        >>> game = Game(1)
        >>> game.actor is None
        True
        """
        if self._phase is Phase.PLAYING:
            return (self._leader + len(self._trick)) % PLAYERS
        if self._phase in (Phase.BURYING, Phase.CALLING):
            return self._declarer
        return None

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is to play, during the tricks."""
        if self._phase is not Phase.PLAYING:
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

    def side_of(self, seat: int) -> Side:
        """``"declarer"``, ``"friend"`` or ``"attacker"`` (the truth, not what others know:
        :func:`tutor.rules.friend.side_of`); a key, shown to a learner as
        :func:`tutor.rules.scoring.side_name`."""
        check_seat(seat)
        return side_of(seat, self._declarer, self._friend)

    def attackers_points(self) -> int:
        """A: attackers' trick points, plus the kitty capture, adjusted by penalties
        (S4, X2, L5: :func:`tutor.rules.scoring.attackers_total`)."""
        return attackers_total(self._won_points, self._declarer, self._friend, capture=self._kitty_capture,
                               penalties=self._penalty_adjustment)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see: their own hand, everyone's card counts, the table."""
        check_seat(seat)
        shown_points = list(self._won_points)
        if self._friend_revealed and self._friend is not None and self._declarer is not None:
            shown_points[self._declarer] += shown_points[self._friend]
            shown_points[self._friend] = 0
        knows_friend = self._friend_revealed or seat == self._friend
        to_play = self.to_play
        kitty_known = seat == self._declarer and self._phase not in (Phase.DEALING, Phase.BURYING)
        return SeatView(
            seat=seat, phase=self._phase, hand=self.hand(seat),
            hand_sizes=tuple(len(h) for h in self._hands), trump=self._trump,
            declarations=tuple(self._declarations), declarer=self._declarer, friend_card=self._friend_card,
            friend=self._friend if knows_friend else None, solo=self._solo, trick=self.trick,
            to_play=to_play, forced_options=self._forced if seat == to_play else (), actor=self.actor,
            points_shown=tuple(shown_points), kitty=self.kitty if kitty_known else None,
            tricks=tuple(self._tricks), all_dealt=self.all_dealt, declaration_count=self._declaration_count,
            penalty_adjustment=self._penalty_adjustment, friend_revealed=self._friend_revealed,
        )

    def declaration_options(self, seat: int) -> list[tuple[Card, ...]]:
        """The declarations or overturns ``seat`` may make now (D1–D3:
        :func:`tutor.rules.view.declaration_choices`, as the seat's view says)."""
        check_seat(seat)
        return declaration_choices(self._phase, self._hands[seat], self._declarations, seat)

    def nameable_cards(self) -> list[Card]:
        """Cards the declarer may call (F1, F3: :func:`tutor.rules.friend.nameable_cards`),
        in the order of the cards; none before a declarer is chosen.

        >>> game = Game(3)
        >>> game.nameable_cards()
        []
        >>> _ = game.deal_until(4, "♣2"), game.declare(4, "♣2"), game.deal_all(), game.close_deal()
        >>> _ = game.bury(4, game.hand(4)[:8])
        >>> calls = game.nameable_cards()
        >>> len(calls), " ".join(map(str, calls[:5])), game.can(Call(4, calls[0]))
        (18, '♠4 ♠6 ♠7 ♠8 ♠9', True)
        """
        if self._declarer is None:
            return []
        return sorted(nameable_cards(self._hands[self._declarer], self._kitty, self._rules), key=lambda c: c.index)

    # -------------------------------------------------- the turn API

    def verify(self, action: Action) -> None:
        """Refuse ``action`` with the rule it breaks (:class:`IllegalActionError`), or
        return if it may be taken now; nothing changes either way.

        >>> game = Game(7)
        >>> game.verify(Play(0, "♠A"))
        Traceback (most recent call last):
        ...
        tutor.core.errors.IllegalActionError: cards are played after the declarer has buried and called; the hand is in the dealing phase (K1)
        """
        if not isinstance(action, ACTIONS):
            raise InvalidPlayError(Text("{action} is not a game action", action=shown(action)))
        match action:
            case Deal():
                self._verify_deal()
            case Declare():
                self._verify_declare(action)
            case CloseDeal():
                self._verify_close_deal()
            case Bury():
                self._verify_bury(action)
            case Call():
                self._verify_call(action)
            case Solo():
                self._verify_solo(action)
            case Play():
                self._verify_play(action)
            case _:
                assert_never(action)

    def can(self, action: Action) -> bool:
        """Whether ``action`` may be taken now (:meth:`verify` as a yes or no).

        >>> game = Game(7)
        >>> game.can(Deal()), game.can(CloseDeal())
        (True, False)
        """
        try:
            self.verify(action)
        except TutorError:
            return False
        return True

    def apply(self, action: Action) -> Event:
        """Verify ``action`` and carry it out; refuse it with the rule it breaks."""
        self.verify(action)
        results: list[Result]
        match action:
            case Deal():
                results = self._deal()
            case Declare():
                results = self._declare(action)
            case CloseDeal():
                results = self._close_deal()
            case Bury():
                results = self._bury(action)
            case Call():
                results = self._call(action)
            case Solo():
                results = self._go_solo()
            case Play():
                results = self._play(action)
            case _:
                assert_never(action)
        event = Event(len(self._events), action, tuple(results))
        self._history.append(action)
        self._events.append(event)
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
            raise IllegalActionError("F1", Text("name exactly one card to call the friend, not {cards}", cards=cards)
                                     if cards else Text("name exactly one card to call the friend, not none"))
        return self.apply(Call(seat, cards[0]))

    def go_solo(self, seat: int) -> Event:
        return self.apply(Solo(seat))

    def play(self, seat: int, cards: CardsLike) -> Event:
        return self.apply(Play(seat, parse_cards(cards)))

    def deal_all(self) -> list[Event]:
        """Deal every card of this deal still to be dealt (C2), one :meth:`deal` at a time; their events."""
        return [self.deal() for _ in range(len(self._stock) - self._dealt)] if self._phase is Phase.DEALING else []

    def deal_until(self, seat: int, cards: CardsLike) -> list[Event]:
        """Deal (C2) until ``seat`` holds ``cards`` (each as many times as named); their events.
        Refused, with nothing dealt, if the rest of this deal will not give them to it.

        >>> game = Game(159)
        >>> len(game.deal_until(2, "♣2 ♣2")) + len(game.deal_all()), game.hand(2).count(parse_cards("♣2")[0])
        (100, 2)
        """
        wanted, hand = Counter(parse_cards(cards)), self._hands[check_seat(seat)]
        coming = self._stock[self._dealt:][(seat - self._dealt) % PLAYERS::PLAYERS]  # what is still to come to it
        if wanted - Counter(hand) - Counter(coming):
            raise TutorError(Text("seat {seat} will not be dealt {cards} in this deal", seat=seat,
                                  cards=Cards(wanted.elements())))
        events = []
        while wanted - Counter(hand):
            events.append(self.deal())
        return events

    @classmethod
    def replay(cls, seed: int, actions: Iterable[Action], rules: Ruleset = DEFAULT_RULES,
               deck: CardsLike | None = None) -> Game:
        """The hand rebuilt from its seed (or deck) and actions."""
        game = cls(seed, rules, deck)
        for action in actions:
            game.apply(action)
        return game

    # -------------------------------------------------- guards: may this be done now?

    def _need_phase(self, phase: Phase, rule: str, doing: str) -> None:
        """Refuse unless the hand is in ``phase``; ``doing`` is a template marked with ``N_``."""
        if self._phase is not phase:
            raise IllegalActionError(rule, Text("{doing} is not possible now: the hand is in the {phase} phase",
                                                doing=Text(doing), phase=phase_name(self._phase)))

    def _holds(self, seat: int, cards: Sequence[Card], rule: str) -> None:
        missing = not_held(self._hands[seat], cards, rule)
        if missing is not None:
            raise missing

    def _need_declarer(self, seat: int, rule: str, doing: Text) -> None:
        if seat != self._declarer:
            raise IllegalActionError(rule, doing)

    def _verify_deal(self) -> None:
        if self._phase is not Phase.DEALING:
            raise IllegalActionError("C2", Text("every card has been dealt"))
        if self.all_dealt:
            raise IllegalActionError("C2", Text("all {count} cards are dealt; close the deal to settle the "
                                                "declaration", count=len(self._stock)))

    def _verify_declare(self, action: Declare) -> None:
        self._need_phase(Phase.DEALING, "D1", N_("declaring"))
        self._holds(action.seat, action.cards, "D1")
        verdict = check_declaration(Declaration(action.cards, action.seat), standing_declaration(self._declarations))
        if not verdict.legal:
            raise IllegalActionError(verdict.rule or "D1", verdict.reason)

    def _verify_close_deal(self) -> None:
        self._need_phase(Phase.DEALING, "D6", N_("closing the deal"))
        if not self.all_dealt:
            left = len(self._stock) - self._dealt
            raise IllegalActionError("D1", Text.plural("{count} card is still to be dealt",
                                                       "{count} cards are still to be dealt", count=left))

    def _verify_bury(self, action: Bury) -> None:
        if self._phase is Phase.DEALING:
            raise IllegalActionError("K1", Text("the cards are still being dealt; burying comes after the deal"))
        self._need_phase(Phase.BURYING, "K1", N_("burying"))
        self._need_declarer(action.seat, "K1", Text("only the declarer (seat {seat}) buries the kitty",
                                                    seat=self._declarer))
        if len(action.cards) != KITTY_SIZE:
            raise IllegalActionError("K1", Text("bury exactly {size} cards, not {count}", size=KITTY_SIZE,
                                                count=len(action.cards)))
        self._holds(action.seat, action.cards, "K1")

    def _verify_call(self, action: Call) -> None:
        self._need_phase(Phase.CALLING, "F1", N_("calling the friend"))
        self._need_declarer(action.seat, "F1", Text("only the declarer (seat {seat}) calls the friend",
                                                    seat=self._declarer))
        refusal = call_refusal(self._hands[action.seat], self._kitty, action.card, self._rules)  # F1, F3
        if refusal is not None:
            raise refusal

    def _verify_solo(self, action: Solo) -> None:
        self._need_phase(Phase.CALLING, "F5", N_("going solo"))
        self._need_declarer(action.seat, "F5", Text("only the declarer (seat {seat}) may go solo",
                                                    seat=self._declarer))

    def _verify_play(self, action: Play) -> None:
        if self._phase is not Phase.PLAYING:
            raise IllegalActionError("K1", Text("cards are played after the declarer has buried and called; "
                                                "the hand is in the {phase} phase", phase=phase_name(self._phase)))
        seat, cards = action.seat, action.cards
        turn = self.to_play
        if seat != turn:
            raise IllegalActionError("C4", Text("it is seat {turn}'s turn, not seat {seat}'s", turn=turn, seat=seat))
        assert self._trump is not None
        hand = Cards(self._hands[seat]) if self._trick else self._hands[seat]
        refusal = play_refusal(hand, self._trick, self._forced, cards, self._trump, self._rules)
        if refusal is not None:
            raise refusal

    # -------------------------------------------------- effects: carry out a verified action

    def _deal(self) -> list[Result]:
        seat = self._dealt % PLAYERS
        card = self._stock[self._dealt]
        self._hands[seat].append(card)
        self._dealt += 1
        results: list[Result] = [Dealt(seat, card)]
        if self.all_dealt and not self._rules.declare_after_deal:
            results.extend(self._close_deal())
        return results

    def _declare(self, action: Declare) -> list[Result]:
        trump = Declaration(action.cards).trump
        declared = Declared(action.seat, action.cards, trump, len(self._declarations) + 1)
        self._declarations.append(declared)
        self._trump = trump
        return [declared]

    def _close_deal(self) -> list[Result]:
        if self._declarations:
            last = self._declarations[-1]
            chosen = DeclarerChosen(last.seat, last.trump, len(self._declarations), None)
        else:
            flipped = kitty_flip(self._kitty)
            if flipped is None:
                kitty = tuple(self._kitty)
                self._deal_number += 1
                self._start_deal()
                return [Redealt(kitty, self._deal_number)]
            holder = next(s for s in range(PLAYERS) if flipped in self._hands[s])
            chosen = DeclarerChosen(holder, flip_trump(flipped), self._rules.flip_declarations, flipped)
        self._declarer, self._trump, self._declaration_count = chosen.seat, chosen.trump, chosen.declarations
        self._hands[chosen.seat].extend(self._kitty)
        taken = KittyTaken(chosen.seat, tuple(self._kitty))
        self._kitty = []
        self._phase = Phase.BURYING
        return [chosen, taken]

    def _bury(self, action: Bury) -> list[Result]:
        for card in action.cards:
            self._hands[action.seat].remove(card)
        self._kitty = list(action.cards)
        results: list[Result] = [Buried(action.seat, action.cards)]
        self._leader = action.seat
        if not self.nameable_cards():
            self._solo = True
            self._phase = Phase.PLAYING
            results.append(SoloDeclared(action.seat, automatic=True))
        else:
            self._phase = Phase.CALLING
        return results

    def _call(self, action: Call) -> list[Result]:
        self._friend_card = action.card
        self._friend = friend_of(action.card, action.seat, self._hands)
        self._phase = Phase.PLAYING
        return [FriendCalled(action.seat, action.card)]

    def _go_solo(self) -> list[Result]:
        assert self._declarer is not None
        self._solo = True
        self._phase = Phase.PLAYING
        return [SoloDeclared(self._declarer, automatic=False)]

    def _play(self, action: Play) -> list[Result]:
        seat, cards = action.seat, action.cards
        if self._trick:
            return self._put(seat, cards)
        if self._forced:
            self._forced = ()
            return self._put(seat, cards)
        return self._lead(seat, cards)

    def _lead(self, seat: int, cards: tuple[Card, ...]) -> list[Result]:
        assert self._trump is not None
        if not shape_of(cards, self._trump).is_throw:
            return self._put(seat, cards)
        others = [self._hands[s] for s in range(PLAYERS) if s != seat]
        result = check_throw(cards, others, self._trump, rules=self._rules)
        if result.ok:
            return self._put(seat, cards)
        penalty = result.penalty
        self._penalty_adjustment += penalty_change(penalty, self.side_of(seat), self._rules)
        failed = ThrowFailed(seat, cards, result.options, penalty, result.beaten, result.beaten_by)
        if len(result.options) == 1:
            return [failed, *self._put(seat, result.options[0])]
        self._forced = result.options
        return [failed]

    def _put(self, seat: int, cards: tuple[Card, ...]) -> list[Result]:
        hand = self._hands[seat]
        for card in cards:
            hand.remove(card)
        self._trick.append((seat, cards))
        results: list[Result] = [Played(seat, cards)]
        called = self._friend_card
        if called is not None and not self._friend_revealed and seat == self._friend and called in cards:
            self._friend_revealed = True
            results.append(FriendRevealed(seat, called))
        if len(self._trick) == PLAYERS:
            results.extend(self._finish_trick())
        return results

    def _finish_trick(self) -> list[Result]:
        assert self._trump is not None
        trump, played = self._trump, [cards for _, cards in self._trick]
        index = winner_so_far(played, trump)  # B1, R1–R5, T6, W6: the plays were verified
        winner = self._trick[index][0]
        taken = sum(card.points for cards in played for card in cards)  # B2
        won = TrickWon.lazy(winner, taken, tuple(self._trick), lambda: explain_trick(played, trump).reason)
        self._won_points[winner] += taken
        self._tricks.append(won)
        last_lead = self._trick[0][1]
        winning_play = self._trick[index][1]
        self._trick = []
        self._leader = winner
        results: list[Result] = [won]
        if any(self._hands):
            return results
        capture = kitty_capture(self._kitty, last_lead, winning_play, self._trump, won_by=self.side_of(winner),
                                rules=self._rules)  # X1–X2
        if capture is not None:
            self._kitty_capture = capture.points
            results.append(KittyCaptured(winner, capture))
        total = self.attackers_points()
        assert self._declarer is not None
        score, self._results = score_seats(total, declarer=self._declarer, friend=self._friend, solo=self._solo,
                                           declarations=self._declaration_count)
        self._score = score
        self._phase = Phase.FINISHED
        results.append(HandScored(total, score, self._results))
        return results

