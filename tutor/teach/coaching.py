"""What the coach says: advice, never a rule. The computer player's hint (while dealing, why
it would or would not declare), "What would you play?" (the best plays the search found, each
with the idea behind it in words first, then its numbers in game terms), what a player counts
before choosing (the points on the table, the known voids, the friend), and the review of a
finished hand in the same words — each a :class:`~tutor.core.i18n.Text` worded from what
:mod:`tutor.play.coach` and :mod:`tutor.play.search` found; the reasons themselves are
:mod:`tutor.teach.reasons`'. The table's sentences about the game itself are
:mod:`tutor.teach.narration`'s.

>>> from tutor.rules.game import Game
>>> hint(None, Game(7).view(0)).split(": ")
['The computer would not declare with these cards', 'it weighs a declaration once it holds 5 cards, and you hold 0 so far.']
>>> signed(1.25), signed(-0.04)
('+1.2', '0.0')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from tutor.core.i18n import Text, and_list, or_list
from tutor.play.coach import SHOWN, Advice, Decision, margin
from tutor.play.search import PlayValue
from tutor.play.simulation import shown_voids
from tutor.rules.cards import Card, Cards
from tutor.rules.game import Action, Bury, Call, CloseDeal, Deal, Declare, Phase, Play, SeatView, Solo
from tutor.rules.notation import points
from tutor.rules.order import Trump
from tutor.teach.narration import who
from tutor.teach.reasons import compared, declare_reason, joined, no_declare_reason, play_reason, share_said

# ---------------------------------------------------------------- the hint


def hint(action: Action | None, view: SeatView) -> Text:
    """What the computer player would do in ``view.seat`` now (``action``, or ``None``
    if it would not act), and while the cards are dealt, why it would or would not declare
    (:func:`tutor.teach.reasons.no_declare_reason`).

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game
    >>> from tutor.rules.notation import parse_cards
    >>> view = Game(7).view(0)
    >>> hint(Play(0, parse_cards("♠A")), view)
    'The computer would play ♠A.'
    >>> said = hint(None, replace(view, hand=parse_cards("♥2 ♥A ♠3 ♠9 ♣4 ♦6 ♦7 ♦9")))
    >>> said.split(": ", 1)
    ['The computer would not declare with these cards', '♥ trumps would make only 2 of your 8 cards trumps (♥2 ♥A); \
the computer declares with at least 3.']
    """
    match action:
        case None:
            if view.phase is Phase.DEALING:
                return Text("The computer would not declare with these cards: {why}.", why=no_declare_reason(view))
            return Text("Nothing to decide now: it is not your turn.")
        case Declare():
            if view.hand and all(card in view.hand for card in action.cards):
                return Text("The computer would declare with {cards}: {why}.", cards=action.cards,
                            why=declare_reason(view, action.cards))
            return Text("The computer would declare with {cards}.", cards=action.cards)
        case Bury():
            return Text("The computer would bury {cards}.", cards=action.cards)
        case Call():
            return Text("The computer would call {card}: whoever holds the other one becomes your friend.",
                        card=action.card)
        case Solo():
            return Text("The computer would go solo.")
        case Play():
            return Text("The computer would play {cards}.", cards=action.cards)
        case Deal() | CloseDeal():
            return Text("Nothing to decide now: it is not your turn.")
        case _:
            assert_never(action)


# ---------------------------------------------------------------- the coach (advice, not rules)


def signed(value: float) -> str:
    """An average result as the table says it: ``'+1.2'``, ``'-0.4'``, ``'0.0'``: below zero
    with the minus every other number of the course has (the score table's ``-3``, and what a
    learner types), never a second one beside it.

    >>> signed(-2.14), signed(0.04), signed(3)
    ('-2.1', '0.0', '+3.0')
    """
    text = f"{abs(value):.1f}"
    return text if text == "0.0" else ("+" if value > 0 else "-") + text


def _on_declarers_side(view: SeatView) -> bool:
    """Whether the learner plays on the declarer's side (they always know their own, F2)."""
    return view.side != "attacker"


def advice(given: Advice) -> tuple[Text, ...]:
    """The coach's sentences for "What would you play?": advice, never a rule — each of the
    best plays with the idea behind it in words first (:func:`tutor.teach.reasons.play_reason`),
    then its numbers in game terms: the seat's average result on the score table (S1) for
    the best, how much better it is than each other (or that they are about as good, within
    the search's margin of error: :func:`tutor.teach.reasons.compared`), how often the side
    takes the trick (said once when it is the same whatever is played); the learner's own
    choice beside them, the points on the table, the known voids and the friend.

    >>> from tutor.play.coach import advise
    >>> from tutor.rules.game import Game
    >>> advice(advise(Game(7).view(0))) == (hint(None, Game(7).view(0)),)
    True
    """
    view, found = given.view, given.found
    if given.calls:
        return calls_said(given)
    if found is None:
        return (hint(given.action, view),)
    lines = [Text("Advice, not a rule: the coach played the hand out {count} times, dealing the cards "
                  "you cannot see at random as the table allows, and averaged your result (S1).",
                  count=found.layouts)]
    best = found.best
    others = [v for v in found.values[1:SHOWN] if v.play != best.play]
    chosen = given.chosen
    mine = chosen if chosen is not None and chosen.play not in [v.play for v in found.values[:SHOWN]] else None
    shares = {round(100 * value.trick_share) for value in (*found.values, *([mine] if mine is not None else []))}
    each = len(shares) > 1 or len(found.values) == 1  # else said once, below: the same whatever is played
    top = _held(view, best.play)
    numbers = Text("Your average result with it: {value} on the score table, the attackers ending the hand with "
                   "about {points} points.", value=signed(best.expected), points=round(best.attackers_points))
    reason = play_reason(view, best)
    lines.append(Text("Best: {cards} — {reason}; {share}. {numbers}", cards=top, reason=reason,
                      share=share_said(best), numbers=numbers) if each
                 else Text("Best: {cards} — {reason}. {numbers}", cards=top, reason=reason, numbers=numbers))
    for other in others:
        cards, reason, said = _held(view, other.play), play_reason(view, other), compared(best, other)
        lines.append(Text("Or {cards} — {reason}; {share}. {best} is {compared}.", cards=cards, reason=reason,
                          share=share_said(other), best=top, compared=said) if each
                     else Text("Or {cards} — {reason}. {best} is {compared}.", cards=cards, reason=reason, best=top,
                               compared=said))
    if mine is not None:
        cards, reason, said = _held(view, mine.play), play_reason(view, mine), compared(best, mine)
        lines.append(Text("Your choice {cards} — {reason}; {share}. {best} is {compared}.", cards=cards,
                          reason=reason, share=share_said(mine), best=top, compared=said) if each
                     else Text("Your choice {cards} — {reason}. {best} is {compared}.", cards=cards, reason=reason,
                               best=top, compared=said))
    if not each:
        lines.append(Text("Whatever you play, {share}.", share=share_said(best)))
    return (*lines, *situation(view))


def calls_said(given: Advice) -> tuple[Text, ...]:
    """The coach's sentences for the declarer about to call (:func:`tutor.play.coach.weigh_calls`):
    advice, never a rule — how it weighed the calls, the best with its average result (S1),
    then each other with how much worse it does, or that it is about as good (within the
    coach's :func:`~tutor.play.coach.margin`), as lesson 11's call drills say them.

    >>> from tutor.play.coach import advise
    >>> from tutor.play.strategy import computer_hand
    >>> game, _ = computer_hand(4, Phase.CALLING)
    >>> said = calls_said(advise(game.view(game.declarer), seed=4))
    >>> said[0].startswith("Advice, not a rule"), said[1].startswith("Best: Call ")
    (True, True)
    """
    best, *others = given.calls
    lines = [Text("Advice, not a rule: each call names a card you hold exactly once (F1). The coach played the whole "
                  "hand out {count} times after each call, dealing the other hands at random, and averaged your "
                  "result (S1).", count=given.layouts),
             Text("Best: {choice} — expected {value}.", choice=call_named(best.choice), value=signed(best.expected))]
    for other in others:
        choice, value = call_named(other.choice), signed(other.expected)
        lines.append(Text("{choice} — expected {value}: about as good, within the coach's margin of error.",
                          choice=choice, value=value) if other.gain < margin(other.error) else
                     Text("{choice} — expected {value}: about {gain} points of the score table worse.", choice=choice,
                          value=value, gain=format(other.gain, ".1f")))
    return tuple(lines)


def call_named(choice: object) -> Text:
    """A call as the coach names it: "Call ♠A", or "Go solo" (None)."""
    assert choice is None or isinstance(choice, Card)
    return Text("Go solo") if choice is None else Text("Call {card}", card=choice)


def situation(view: SeatView) -> tuple[Text, ...]:
    """What a player counts before choosing a play: the points on the table, the seats
    known to be out of a suit (W2) and whether the friend is known (F6).

    >>> from tutor.rules.game import Game
    >>> [str(line) for line in situation(Game(7).view(0))]
    ['The friend is not known yet.']

    Each seat's voids are named together: "Seat 1 has no ♠ or trumps and Seat 3 has no ♥".
    """
    lines = []
    on_table = sum(points(cards) for _, cards in view.trick)
    if view.trick:
        lines.append(Text.plural("On the table: {count} point.", "On the table: {count} points.", count=on_table))
    out = voids_said(view)
    if out is not None:
        lines.append(Text("Known to be out of a suit: {voids}.", voids=out))
    if view.solo:
        lines.append(Text("The declarer plays alone (F5)."))
    elif view.friend is not None and view.friend != view.seat:
        lines.append(Text("The friend is known: {who} (F6).", who=who(view.friend, view.seat)))
    elif view.friend == view.seat:
        lines.append(Text("You are the friend: you hold the called card {card} (F6).", card=view.friend_card))
    elif view.friend_card is not None:
        lines.append(Text("The friend is not known yet: whoever holds the other {card}. Playing it shows who they are; "
                          "the declarer's own {card} shows nothing (F6).", card=view.friend_card))
    else:
        lines.append(Text("The friend is not known yet."))
    return tuple(lines)


def voids_said(view: SeatView) -> object | None:
    """The seats other than ``view.seat`` known to be out of a suit (W2:
    :func:`tutor.play.simulation.shown_voids`), grouped: the seats out of the same suits
    together, each seat's suits together; None if none is known.

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game, TrickWon
    >>> from tutor.rules.notation import parse_cards as p
    >>> plays = ((1, p("♠A")), (2, p("♥3")), (3, p("♠4")), (4, p("♣5")), (0, p("♠6")))
    >>> view = replace(Game(7).view(0), trump=Trump("♦"), tricks=(TrickWon(1, 0, plays, ""),),
    ...                trick=((1, p("♥A")), (2, p("♣3")), (3, p("♥4")), (4, p("♥6"))))
    >>> voids_said(view)
    'Seat 2 has no ♠ or ♥ and Seat 4 has no ♠'
    >>> voids_said(replace(view, trick=()))
    'Seat 2 and Seat 4 have no ♠'
    """
    lanes: dict[int, list[int]] = {}
    for seat, lane in sorted(shown_voids(view)):
        if seat != view.seat:
            lanes.setdefault(seat, []).append(lane)
    if not lanes:
        return None
    groups: dict[tuple[int, ...], list[int]] = {}
    for seat, held in lanes.items():
        groups.setdefault(tuple(held), []).append(seat)
    return and_list([Text.plural("{seats} has no {suits}", "{seats} have no {suits}", count=len(seats),
                                 seats=and_list([who(seat, view.seat) for seat in seats]),
                                 suits=or_list([Trump.suit_name(lane) for lane in held]))
                     for held, seats in groups.items()])


def why_better(decision: Decision) -> Text:
    """Why the coach's play beat the one made, in words a newcomer follows (advice): the idea
    behind the coach's play (:func:`tutor.teach.reasons.play_reason`, as the hint says it),
    unless it is the same as the played one's, then what the search saw it do better — the side
    takes the trick more often, or the attackers end with fewer (for an attacker, more) points —
    where the difference is large.

    >>> from tutor.play.coach import review
    >>> from tutor.play.strategy import play_computer_hand
    >>> costly = [d for d in review(play_computer_hand(2), 0, layouts=4) if d.costly]
    >>> all("{" not in why_better(d) for d in costly)
    True
    """
    best, played = decision.found.best, decision.found.value_of(decision.played)
    assert played is not None
    reason = play_reason(decision.view, best)
    said: list[Text] = [] if reason == play_reason(decision.view, played) else [reason]  # the same idea: not twice
    difference = best.attackers_points - played.attackers_points
    if best.trick_share - played.trick_share >= 0.2:
        said.append(Text("your side takes the trick {better}% of the time instead of {worse}%",
                         better=round(100 * best.trick_share), worse=round(100 * played.trick_share)))
    elif _on_declarers_side(decision.view) and difference <= -5:
        said.append(Text("the attackers end the hand with about {points} points fewer", points=round(-difference)))
    elif not _on_declarers_side(decision.view) and difference >= 5:
        said.append(Text("the attackers end the hand with about {points} points more", points=round(difference)))
    return joined(said) if said else Text("it does better over the deals the coach tried")


def decision_line(decision: Decision) -> Text:
    """One reviewed play, with the idea behind it and behind the coach's choice in words, as
    the hint says them (:func:`tutor.teach.reasons.play_reason`): ``'Trick 3: you played ♠K
    (…); ♠3 was better by about 1.2 points of the score table — the coach is sure of it (its
    margin of error is ±0.5): …'``
    (:func:`tutor.teach.reasons.compared`); or, where the difference is within the search's
    margin of error, that the coach slightly prefers another play but this is no mistake;
    or that it was the coach's choice too."""
    best = decision.found.best
    played = decision.found.value_of(decision.played)
    assert played is not None
    view = decision.view
    cards, better = _held(view, decision.played), _held(view, best.play)
    if played == best:
        return Text("Trick {n}: you played {cards} ({reason}), the coach's choice too.", n=decision.trick,
                    cards=cards, reason=play_reason(view, played))
    if not decision.costly:
        return Text("Trick {n}: you played {cards} ({reason}); the coach slightly prefers {better} ({theirs}), by "
                    "about {cost} — within its margin of error (±{error}), so this is no mistake.", n=decision.trick,
                    cards=cards, reason=play_reason(view, played), better=better, theirs=play_reason(view, best),
                    cost=format(decision.cost, ".1f"), error=format(margin(decision.error), ".1f"))
    return Text("Trick {n}: you played {cards} ({reason}); {better} was {compared} — {sure} (its margin of "
                "error is ±{error}): {why}.", n=decision.trick, cards=cards, reason=play_reason(view, played),
                better=better, compared=compared(best, played), sure=sureness(decision.cost, decision.error),
                error=format(margin(decision.error), ".1f"), why=why_better(decision))


def sureness(cost: float, error: float) -> Text:
    """How sure the coach is that a costly play (:func:`tutor.play.coach.costly`) cost
    ``cost``, whose standard error is ``error``: sure when the cost is at least twice the
    coach's margin of error (:func:`tutor.play.coach.margin`), else fairly sure.

    >>> sureness(2.0, 0.3), sureness(0.9, 0.3)
    ('the coach is sure of it', 'the coach is fairly sure of it')
    """
    if cost >= 2 * margin(error):
        return Text("the coach is sure of it")
    return Text("the coach is fairly sure of it")


def _held(view: SeatView, cards: Sequence[Card]) -> Cards:
    """``cards`` in the order the hand holds them (:meth:`tutor.rules.order.Trump.sorted`)."""
    return view.trump.sorted(cards) if view.trump is not None else Cards(cards)


def weighed_play(value: PlayValue, trump: Trump | None = None) -> Text:
    """One play the coach weighed, its numbers in game terms (its cards in the order a hand
    holds them, given the ``trump``).

    >>> from tutor.rules.notation import parse_cards as p
    >>> weighed_play(PlayValue(p("♥7 ♥J"), -0.4, 0.2, 0.2, 60.0), Trump("♠"))
    '♥J ♥7: -0.4 on the score table on average, your side takes this trick in 20% of the deals tried'
    """
    cards = trump.sorted(value.play) if trump is not None else value.play
    return Text("{cards}: {value} on the score table on average, {share}", cards=cards,
                value=signed(value.expected), share=share_said(value))


def review_waits() -> Text:
    """Said when the coach's review is asked for before the hand is over."""
    return Text("The coach reviews your play once the hand is over.")


def review_heading(decisions: Sequence[Decision]) -> Text:
    """The review's first lines (advice, not rules): how often the learner chose as the coach
    would, and how many plays cost points, with their total, the costliest first."""
    matched = sum(1 for d in decisions if d.found.value_of(d.played) == d.found.best)
    rate = Text.plural("You chose as the coach would in {matched} of your {count} decision.",
                       "You chose as the coach would in {matched} of your {count} decisions.",
                       count=len(decisions), matched=matched)
    costly = [d for d in decisions if d.costly]
    if not costly:
        said = Text("None of your plays cost you anything it can measure.")
    else:
        said = Text.plural("One of your plays cost you about {total} points of the score table.",
                           "{count} of your plays cost you about {total} points of the score table in all, the "
                           "costliest first.", count=len(costly),
                           total=format(sum(d.cost for d in costly), ".1f"))
    return Text("The coach's review (advice, not rules): {rate} {said}", rate=rate, said=said)


__all__ = ["advice", "call_named", "calls_said", "decision_line", "hint", "review_heading", "review_waits", "signed", "situation", "sureness",
           "voids_said", "weighed_play", "why_better"]
