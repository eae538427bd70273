"""What the table says about the game: every sentence about a hand in progress, as a
:class:`~tutor.core.i18n.Text` made from the game's results (:data:`tutor.rules.game.Result`) and
a seat's view (:class:`tutor.rules.game.SeatView`) — what happened, whose turn it is and what
to do, the trick, the declaration, the friend, the score and the hand's tricks in review. The
coach's sentences (advice, never a rule) are :mod:`tutor.teach.coaching`'s.

Nothing here decides a rule: the facts are the game's; this module only words them,
naming the rule each sentence is about. ``me`` (or ``view.seat``) is the seat of the
learner the table speaks to: "Seat 2 (you)".

>>> from tutor.core.i18n import Translator
>>> from tutor.rules.game import Game
>>> view = Game(7).view(0)
>>> turn(view), Translator("zh-Hans")(who(0, me=0))
('The cards are being dealt. Declare when your cards allow it (D1–D3).', '0号位（你）')
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Final, assert_never

from tutor.rules.cards import HAND_SIZE, KITTY_SIZE, PLAYERS, Card, points
from tutor.rules.game import (
    Buried,
    Dealt,
    Declared,
    DeclarerChosen,
    FriendCalled,
    FriendRevealed,
    HandScored,
    KittyCaptured,
    KittyTaken,
    Phase,
    Played,
    Redealt,
    Result,
    SeatView,
    SoloDeclared,
    ThrowFailed,
    TrickWon,
)
from tutor.core.i18n import Text, capitalized, or_list
from tutor.rules.order import Trump

# ---------------------------------------------------------------- names


_PLAYERS: Final[ContextVar[Mapping[int, Text]]] = ContextVar("players", default=MappingProxyType({}))
"""The seats named by their players while :func:`players` runs."""


@contextmanager
def players(names: Mapping[int, Text]) -> Iterator[None]:
    """Inside the block, each seat of ``names`` is named so in every sentence (:func:`who`):
    at a table of classmates, "Ana (Seat 2) wins 10 points" rather than "Seat 2 wins …".

    >>> with players({2: Text("{name} ({seat})", name="Ana", seat=Text("Seat {seat}", seat=2))}):
    ...     who(2), who(3)
    ('Ana (Seat 2)', 'Seat 3')
    >>> who(2)
    'Seat 2'
    """
    token = _PLAYERS.set(MappingProxyType(dict(names)))
    try:
        yield
    finally:
        _PLAYERS.reset(token)


def who(seat: int, me: int | None = None) -> Text:
    """A seat inside a sentence ("Seat 2 wins …"), marked when it is the learner's, or
    named by its player (:func:`players`).

    >>> who(2), who(0, me=0)
    ('Seat 2', 'Seat 0 (you)')
    """
    if seat == me:
        return Text("Seat {seat} (you)", seat=seat)
    return _PLAYERS.get().get(seat) or Text("Seat {seat}", seat=seat)


def seat_name(seat: int, me: int | None = None) -> Text:
    """A seat as a heading (above its cards, in the results), the learner's first.

    >>> seat_name(0, me=0), seat_name(3, me=0)
    ('You (seat 0)', 'Seat 3')
    """
    return Text("You (seat {seat})", seat=seat) if seat == me else Text("Seat {seat}", seat=seat)


def cards_held(count: int) -> Text:
    """How many cards a seat holds, under its name at the table (a plural message: each
    language says it in the form its count needs).

    >>> cards_held(1), cards_held(18)
    ('1 card', '18 cards')
    """
    return Text.plural("{count} card", "{count} cards", count=count)


def trump_name(trump: Trump | None) -> Text:
    """The trump, or that it is not decided yet.

    >>> trump_name(Trump("♥")), trump_name(None)
    ('♥ trumps', 'not decided yet')
    """
    if trump is None:
        return Text("not decided yet")
    said = str(trump)
    return said if isinstance(said, Text) else Text(said)


def trump_line(view: SeatView) -> Text:
    """The trump, as the table's status shows it: the trump's own name once it is decided
    ("♦ trumps", "no-trump": never "Trump: ♦ trumps").

    >>> from tutor.rules.game import Game
    >>> trump_line(Game(7).view(0))
    'Trump: not decided yet'
    """
    if view.trump is not None:
        return trump_name(view.trump)
    return Text("Trump: {trump}", trump=trump_name(None))


# ---------------------------------------------------------------- what happened


def trick_won(number: int, won: TrickWon, me: int | None = None) -> Text:
    """The one sentence for a trick that is over: its number, who wins it, its points, why.

    >>> trick_won(3, TrickWon(0, 20, (), "♠A wins: the lead wins unless beaten (B1)"), me=0)
    'Trick 3: Seat 0 (you) wins 20 points. ♠A wins: the lead wins unless beaten (B1).'
    """
    return Text("Trick {n}: {who} wins {points} points. {reason}.", n=number, who=who(won.seat, me),
                points=won.points, reason=capitalized(won.reason))


def happened(result: Result, view: SeatView) -> Text | None:
    """The log's sentence for one result of an event, told to ``view.seat`` (its view
    just after the event); ``None`` for what the table shows without words (a card
    dealt, a card played, another seat's buried cards).

    >>> from tutor.rules.game import Game
    >>> from tutor.rules.notation import parse_cards
    >>> view = Game(7).view(0)
    >>> happened(Declared(2, parse_cards("♥2"), Trump("♥"), 1), view)
    'Seat 2 declares with ♥2: ♥ trumps (declaration 1, D1–D5).'
    >>> happened(SoloDeclared(0, automatic=False), view)
    'Seat 0 (you) goes solo: alone against four (F5).'
    >>> happened(Dealt(0, parse_cards("♠3")[0]), view) is None
    True
    """
    me = view.seat
    match result:
        case Dealt() | Played():
            return None
        case Declared():
            if result.count == 1:
                return Text("{who} declares with {cards}: {trump} (declaration {count}, D1–D5).",
                            who=who(result.seat, me), cards=result.cards, trump=trump_name(result.trump),
                            count=result.count)
            return Text("{who} overturns with {cards}: {trump} (declaration {count}, D1–D5).",
                        who=who(result.seat, me), cards=result.cards, trump=trump_name(result.trump),
                        count=result.count)
        case Redealt():
            return Text("Nobody declared and the kitty holds four pairs ({cards}): the deal is void and the "
                        "cards are dealt again (D6).", cards=result.kitty)
        case DeclarerChosen():
            return declarer_chosen(result, me)
        case KittyTaken():
            if result.seat == me:
                return Text("You take the kitty: {cards}. Bury any {size} cards (K1).", cards=result.cards,
                            size=KITTY_SIZE)
            return Text("{who} takes the kitty and buries {size} cards (K1).", who=who(result.seat, me),
                        size=KITTY_SIZE)
        case Buried():
            return Text("You buried {cards}.", cards=result.cards) if result.seat == me else None
        case FriendCalled():
            if view.friend == me and result.seat != me:
                return Text("{who} calls {card}: whoever holds the other {card} is the friend (F1–F2). "
                            "You hold it: you are the friend — only you know (F2).",
                            who=who(result.seat, me), card=result.card)
            return Text("{who} calls {card}: whoever holds the other {card} is the friend (F1–F2).",
                        who=who(result.seat, me), card=result.card)
        case SoloDeclared():
            if result.automatic:
                return Text("{who} plays alone against four: every card of the hand is paired, so no card can "
                            "be called (F4).", who=who(result.seat, me))
            return Text("{who} goes solo: alone against four (F5).", who=who(result.seat, me))
        case ThrowFailed():
            return throw_failed(result, me)
        case FriendRevealed():
            return Text("{who} plays {card}: {who2} is the friend, and their points now count for the declarer's "
                        "side (F6).", who=who(result.seat, me), who2=who(result.seat, me), card=result.card)
        case TrickWon():
            return trick_won(view.tricks.index(result) + 1, result, me)
        case KittyCaptured():
            return Text("{who}, an attacker, won the last trick: the kitty's {points} points × {multiplier} = "
                        "{total} for the attackers (X2).", who=who(result.seat, me), points=result.kitty_points,
                        multiplier=result.multiplier, total=result.points)
        case HandScored():
            return Text("The hand is over: the attackers have {points} points.", points=result.attackers_points)
        case _:
            assert_never(result)


def declarer_chosen(result: DeclarerChosen, me: int | None = None) -> Text:
    """Who declares once the deal is closed, the trump, and the multiplier (D5–D6).

    >>> declarer_chosen(DeclarerChosen(3, Trump("♠"), 2, None))
    'Seat 3 is the declarer: ♠ trumps, 2 declarations, so every result counts ×2 (D5).'
    """
    trump = trump_name(result.trump)
    if result.flipped is not None:
        return Text("Nobody declared: the kitty is turned over. {card} decides: {trump}, and {who}, who holds the "
                    "other {card}, is the declarer (D6).", card=result.flipped, trump=trump,
                    who=who(result.seat, me))
    return Text.plural("{who} is the declarer: {trump}, one declaration, so every result counts ×1 (D5).",
                       "{who} is the declarer: {trump}, {count} declarations, so every result counts ×{count} (D5).",
                       who=who(result.seat, me), trump=trump, count=result.declarations)


def throw_failed(result: ThrowFailed, me: int | None = None) -> Text:
    """A failed throw, told once to each seat in its own person: what beat it, what must be
    led instead (L4), the penalty (L5).

    >>> from tutor.rules.notation import parse_cards
    >>> failed = ThrowFailed(1, parse_cards("♠A ♠3"), (parse_cards("♠3"),), 10, (), Text("♠4 beats ♠3"))
    >>> print(throw_failed(failed, me=1))  # doctest: +NORMALIZE_WHITESPACE
    Your throw of ♠A ♠3 fails: ♠4 beats ♠3. The cards are taken back: you must lead ♠3 instead (L4); it costs
    10 points (L5).
    >>> print(throw_failed(failed, me=0))  # doctest: +NORMALIZE_WHITESPACE
    Seat 1's throw of ♠A ♠3 fails: ♠4 beats ♠3. The cards are taken back: Seat 1 must lead ♠3 instead (L4); it
    costs 10 points (L5).
    """
    if result.seat == me:
        return Text("Your throw of {cards} fails: {reason}. The cards are taken back: you must lead {options} "
                    "instead (L4); it costs {penalty} points (L5).", cards=result.attempted, reason=result.reason,
                    options=or_list(result.options), penalty=result.penalty)
    return Text("{who}'s throw of {cards} fails: {reason}. The cards are taken back: {who} must lead {options} "
                "instead (L4); it costs {penalty} points (L5).", who=who(result.seat, me), cards=result.attempted,
                reason=result.reason, options=or_list(result.options), penalty=result.penalty)


# ---------------------------------------------------------------- the table now


def phase(view: SeatView) -> Text:
    """Where the hand is: the deal's progress, burying, calling, the trick's number, over.

    >>> from tutor.rules.game import Game, Deal
    >>> game = Game(7)
    >>> _ = game.apply(Deal())
    >>> phase(game.view(0))
    'Dealing: 1 of 100 cards'
    """
    match view.phase:
        case Phase.DEALING:
            return Text("Dealing: {dealt} of {total} cards", dealt=sum(view.hand_sizes), total=PLAYERS * HAND_SIZE)
        case Phase.BURYING:
            return Text("Burying the kitty")
        case Phase.CALLING:
            return Text("Calling the friend")
        case Phase.PLAYING:
            return Text("Trick {n}", n=len(view.tricks) + 1)
        case Phase.FINISHED:
            return Text("The hand is over")
        case _:
            assert_never(view.phase)


def turn(view: SeatView, *, stopped: bool = False) -> Text:
    """Whose turn it is (:attr:`SeatView.actor`) and, when it is ``view.seat``'s, what
    to do; ``stopped``: the deal waits for the learner's declaration.

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game
    >>> burying = replace(Game(7).view(0), phase=Phase.BURYING, declarer=0, actor=0)
    >>> turn(burying)
    'You are the declarer: pick 8 cards to bury as the kitty (K1).'
    >>> turn(replace(burying, seat=2))
    'Seat 0 is thinking…'
    """
    me, actor = view.seat, view.actor
    if stopped:
        return Text("You can declare now: choose a declaration, or let the deal go on (D1–D3).")
    if view.phase is Phase.DEALING:
        return Text("The cards are being dealt. Declare when your cards allow it (D1–D3).")
    if view.phase is Phase.FINISHED or actor is None:
        return Text("The hand is over. Read the score and the review below.")
    if actor != me:
        return Text("Seat {seat} is thinking…", seat=actor)
    if view.phase is Phase.BURYING:
        return Text("You are the declarer: pick {size} cards to bury as the kitty (K1).", size=KITTY_SIZE)
    if view.phase is Phase.CALLING:
        return Text("Call the friend: pick one card of which you hold exactly one copy, or go solo (F1–F5).")
    if view.forced_options:
        return Text("Your throw failed: lead {options} (L4).", options=or_list(view.forced_options))
    if not view.trick:
        return Text("Your lead: a single, a pair, a tractor or a throw (L1–L3).")
    n = len(view.trick[0][1])
    return Text.plural("Your turn: follow with one card (W1–W6).", "Your turn: follow with {n} cards (W1–W6).",
                       count=n, n=n)


def declaration(view: SeatView) -> Text:
    """The declaration so far: the declarer and the multiplier, the last one shown, or none.

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game
    >>> declaration(replace(Game(7).view(0), declarer=4, declaration_count=2))
    'Declarer: Seat 4, ×2'
    """
    if view.declarer is not None:
        return Text("Declarer: {who}, ×{count}", who=who(view.declarer, view.seat), count=view.declaration_count)
    if view.declarations:
        last = view.declarations[-1]
        return Text("{who} showed {cards} (declaration {count})", who=who(last.seat, view.seat), cards=last.cards,
                    count=last.count)
    return Text("Nobody has declared yet")


def declare_option(cards: Sequence[Card], view: SeatView) -> Text:
    """The button of one declaration the seat may make: a first one, or an overturn.

    >>> from tutor.rules.game import Game
    >>> from tutor.rules.notation import parse_cards
    >>> declare_option(parse_cards("♥2"), Game(7).view(0))
    'Declare ♥2'
    """
    if not view.declarations:
        return Text("Declare {cards}", cards=tuple(cards))
    return Text("Overturn with {cards}", cards=tuple(cards))


def friend(view: SeatView, *, revealed: bool) -> Text:
    """What ``view.seat`` knows of the friend (F2, F6); ``revealed``: the friend has
    played the called card (:attr:`tutor.rules.game.Game.friend_revealed`).

    >>> from tutor.rules.game import Game
    >>> friend(Game(7).view(0), revealed=False)
    'Not called yet'
    """
    if view.solo:
        return Text("Solo: the declarer plays alone")
    if view.friend_card is None:
        return Text("Not called yet")
    if revealed or view.phase is Phase.FINISHED:
        return Text("The friend is {who}", who=who(view.friend, view.seat)) if view.friend is not None \
            else Text("Nobody is the friend")
    if view.friend == view.seat:
        return Text("You are the friend (only you know)")
    return Text("Not revealed yet")


def roles(seat: int, view: SeatView, *, revealed: bool, side: str | None = None) -> tuple[Text, ...]:
    """The badges beside ``seat`` as ``view.seat`` sees them; ``side``: the seat's side
    (:meth:`tutor.rules.game.Game.side_of`) once the hand is over, to name the attackers.

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game
    >>> view = replace(Game(7).view(3), phase=Phase.PLAYING, declarer=4, friend=3)
    >>> roles(4, view, revealed=False), roles(3, view, revealed=False), roles(3, view, revealed=True)
    (('Declarer',), ('Friend (only you know)',), ('Friend',))
    >>> roles(0, replace(view, phase=Phase.FINISHED), revealed=True, side="attacker")
    ('Attacker',)
    """
    said = []
    if seat == view.declarer:
        said.append(Text("Declarer"))
    if view.friend is not None and seat == view.friend:
        said.append(Text("Friend") if seat != view.seat or revealed or view.phase is Phase.FINISHED
                    else Text("Friend (only you know)"))
    if side == "attacker":
        said.append(Text("Attacker"))
    return tuple(said)


def trick(view: SeatView, last: TrickWon | None = None) -> Text | None:
    """The trick on the table: who led it, or — between tricks — who won the last one
    (``last``, the trick still shown); ``None`` before the first lead.

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game
    >>> won = TrickWon(4, 10, (), "♣A wins: the lead wins unless beaten (B1)")
    >>> trick(replace(Game(7).view(0), tricks=(won,)), won)
    'Trick 1: Seat 4 wins 10 points. ♣A wins: the lead wins unless beaten (B1).'
    """
    if view.trick:
        return Text("Trick {n}: {who} led", n=len(view.tricks) + 1, who=who(view.trick[0][0], view.seat))
    if last is not None:
        return trick_won(len(view.tricks), last, view.seat)
    return None


# ---------------------------------------------------------------- the score and the review


def score_lines(scored: HandScored, view: SeatView, kitty: Sequence[Card],
                capture: KittyCaptured | None = None) -> tuple[Text, ...]:
    """How the attackers' total A was made and what it is worth (S1–S4, X1–X2, L5):
    ``kitty`` the buried cards, ``capture`` the kitty capture if there was one.

    >>> from tutor.rules.game import Game
    >>> from tutor.rules.notation import parse_cards
    >>> from tutor.rules.scoring import score_hand
    >>> scored = HandScored(85, score_hand(85, declarations=1), (1, 1, 1, -1, -2))
    >>> for line in score_lines(scored, Game(7).view(0), parse_cards("♠K ♥5 ♣3 ♣4 ♦6 ♦7 ♦8 ♦9")):
    ...     print(line)
    Points the attackers won in tricks: 85 (S4: the declarer's side's points never count).
    No kitty capture: the declarer's side won the last trick (X1); the kitty held 15 points.
    The attackers' total A = 85: row “80–95” of the table (S1).
    No solo: the table as it stands (S1).
    One declaration: every result ×1 (S3).
    """
    score = scored.score
    captured = capture.points if capture is not None else 0
    in_tricks = scored.attackers_points - captured - view.penalty_adjustment
    lines = [Text("Points the attackers won in tricks: {points} (S4: the declarer's side's points never count).",
                  points=in_tricks)]
    if capture is not None:
        lines.append(Text("Kitty capture: {points} points in the kitty × {multiplier} = {total} (X2).",
                          points=capture.kitty_points, multiplier=capture.multiplier, total=capture.points))
    else:
        lines.append(Text("No kitty capture: the declarer's side won the last trick (X1); the kitty held "
                          "{points} points.", points=points(kitty)))
    if view.penalty_adjustment:
        lines.append(Text("Failed throws: {points:+d} points (L5).", points=view.penalty_adjustment))
    lines.append(Text("The attackers' total A = {points}: row “{row}” of the table (S1).", points=score.points,
                      row=score.row))
    lines.append(Text("Solo: each attacker's value counts twice, the declarer pays for all four (S2).")
                 if score.solo else Text("No solo: the table as it stands (S1)."))
    lines.append(Text.plural("One declaration: every result ×1 (S3).",
                             "{count} declarations: every result ×{count} (S3).", count=score.declarations))
    return tuple(lines)


def verdict(scored: HandScored, me: int) -> Text:
    """What the hand is worth to seat ``me``.

    >>> from tutor.rules.scoring import score_hand
    >>> scored = HandScored(85, score_hand(85, declarations=1), (1, 1, 1, -1, -2))
    >>> verdict(scored, 0), verdict(scored, 4)
    ('You win 1.', 'You lose 2.')
    """
    mine = scored.results[me]
    return Text("You win {points}.", points=mine) if mine > 0 else Text("You lose {points}.", points=-mine)


def review(view: SeatView) -> tuple[Text, ...]:
    """Every trick played so far, one sentence each (:func:`trick_won`).

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game
    >>> tricks = (TrickWon(2, 0, (), "♠A wins: the lead wins unless beaten (B1)"), TrickWon(0, 15, (), "♥K wins"))
    >>> for line in review(replace(Game(7).view(0), tricks=tricks)):
    ...     print(line)
    Trick 1: Seat 2 wins 0 points. ♠A wins: the lead wins unless beaten (B1).
    Trick 2: Seat 0 (you) wins 15 points. ♥K wins.
    """
    return tuple(trick_won(n, won, view.seat) for n, won in enumerate(view.tricks, 1))


# ---------------------------------------------------------------- the learner's seat


def you_are(view: SeatView) -> Text:
    """Which seat the learner holds and their side, as far as they know (F2, F6).

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game
    >>> view = replace(Game(7).view(3), phase=Phase.PLAYING, declarer=4)
    >>> you_are(view), you_are(replace(view, declarer=3))
    ('You are seat 3; the declarer is seat 4.', 'You are seat 3, the declarer.')
    >>> you_are(replace(view, friend=3))
    "You are seat 3, the declarer's friend; the declarer is seat 4."
    """
    seat, declarer = view.seat, view.declarer
    if seat == declarer:
        return Text("You are seat {seat}, the declarer.", seat=seat)
    if view.friend == seat:
        return Text("You are seat {seat}, the declarer's friend; the declarer is seat {declarer}.", seat=seat,
                    declarer=declarer)
    if view.solo or view.friend is not None:
        return Text("You are seat {seat}, an attacker; the declarer is seat {declarer}.", seat=seat, declarer=declarer)
    return Text("You are seat {seat}; the declarer is seat {declarer}.", seat=seat, declarer=declarer)


__all__ = [
    "cards_held", "declaration", "declare_option", "declarer_chosen", "friend", "happened", "phase", "review", "roles",
    "score_lines", "seat_name", "throw_failed", "trick", "trick_won", "trump_line", "trump_name", "turn",
    "verdict", "who", "you_are",
]
