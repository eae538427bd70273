"""What the coach says: advice, never a rule. The computer player's hint, "What would you
play?" (the best plays the search found, with the seat's average result), what a player counts
before choosing (the points on the table, the known voids, the friend), and the review of a
finished hand — each a :class:`~tutor.core.i18n.Text` worded from what :mod:`tutor.play.coach`
and :mod:`tutor.play.search` found. The table's sentences about the game itself are
:mod:`tutor.teach.narration`'s.

>>> from tutor.rules.game import Game
>>> hint(None, Game(7).view(0))
'The computer would not declare with these cards.'
>>> signed(1.25), signed(-0.04)
('+1.2', '0.0')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from tutor.core.i18n import Text, and_list
from tutor.play.coach import SHOWN, Advice, Decision
from tutor.play.search import PlayValue
from tutor.play.simulation import shown_voids
from tutor.rules.game import Action, Bury, Call, CloseDeal, Deal, Declare, Phase, Play, SeatView, Solo
from tutor.rules.notation import points
from tutor.rules.order import Trump
from tutor.teach.narration import who

# ---------------------------------------------------------------- the hint


def hint(action: Action | None, view: SeatView) -> Text:
    """What the computer player would do in ``view.seat`` now (``action``, or ``None``
    if it would not act).

    >>> from tutor.rules.game import Game
    >>> from tutor.rules.notation import parse_cards
    >>> view = Game(7).view(0)
    >>> hint(None, view), hint(Play(0, parse_cards("♠A")), view)
    ('The computer would not declare with these cards.', 'The computer would play ♠A.')
    """
    match action:
        case None:
            if view.phase is Phase.DEALING:
                return Text("The computer would not declare with these cards.")
            return Text("Nothing to decide now: it is not your turn.")
        case Declare():
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
    """An average result as the table says it: ``'+1.2'``, ``'−0.4'``, ``'0.0'``."""
    text = f"{abs(value):.1f}"
    return text if text == "0.0" else ("+" if value > 0 else "\u2212") + text


def _on_declarers_side(view: SeatView) -> bool:
    """Whether the learner plays on the declarer's side (they always know their own, F2)."""
    return view.side != "attacker"


def advice(given: Advice) -> tuple[Text, ...]:
    """The coach's sentences for "What would you play?": advice, never a rule — the
    best plays with the seat's average result over the deals tried, the learner's own
    choice beside them, the points on the table, the known voids and the friend.

    >>> from tutor.play.coach import advise
    >>> from tutor.rules.game import Game
    >>> lines = advice(advise(Game(7).view(0)))
    >>> lines
    ('The computer would not declare with these cards.',)
    """
    view, found = given.view, given.found
    if found is None:
        return (hint(given.action, view),)
    lines = [Text("Advice, not a rule: the coach played the hand out {count} times, dealing the cards "
                  "you cannot see at random as the table allows, and averaged your result (S1).",
                  count=found.layouts)]
    best = found.best
    lines.append(Text("Best: {cards} — expected {value}; your side takes this trick {share}% of the time.",
                      cards=best.play, value=signed(best.expected), share=round(100 * best.trick_share)))
    others = [v for v in found.values[1:SHOWN] if v.play != best.play]
    for other in others:
        lines.append(Text("Or {cards} — expected {value}; your side takes the trick {share}% of the time.",
                          cards=other.play, value=signed(other.expected), share=round(100 * other.trick_share)))
    chosen = given.chosen
    if chosen is not None and chosen.play not in [v.play for v in found.values[:SHOWN]]:
        lines.append(Text("Your choice {cards} — expected {value}.", cards=chosen.play,
                          value=signed(chosen.expected)))
    return (*lines, *situation(view))


def situation(view: SeatView) -> tuple[Text, ...]:
    """What a player counts before choosing a play: the points on the table, the seats
    known to be out of a suit (W2) and whether the friend is known (F6).

    >>> from tutor.rules.game import Game
    >>> [str(line) for line in situation(Game(7).view(0))]
    ['The friend is not known yet.']
    """
    lines = []
    on_table = sum(points(cards) for _, cards in view.trick)
    if view.trick:
        lines.append(Text.plural("On the table: {count} point.", "On the table: {count} points.", count=on_table))
    voids = sorted((seat, lane) for seat, lane in shown_voids(view) if seat != view.seat)
    if voids:
        out = [Text("{who} has no {suit}", who=who(seat, view.seat), suit=Trump.suit_name(lane)) for seat, lane in voids]
        lines.append(Text("Known to be out of a suit: {voids}.", voids=and_list(out)))
    if view.solo:
        lines.append(Text("The declarer plays alone (F5)."))
    elif view.friend is not None and view.friend != view.seat:
        lines.append(Text("The friend is known: {who} (F6).", who=who(view.friend, view.seat)))
    elif view.friend == view.seat:
        lines.append(Text("You are the friend: you hold the called card {card} (F6).", card=view.friend_card))
    elif view.friend_card is not None:
        lines.append(Text("The friend is not known yet: whoever plays {card} first (F6).", card=view.friend_card))
    else:
        lines.append(Text("The friend is not known yet."))
    return tuple(lines)


def why_better(decision: Decision) -> Text:
    """Why the coach's play beat the one made, in words a newcomer follows (advice).

    A play that takes the trick more often says so; else one that leaves the
    attackers fewer (or, for an attacker, more) points; else the plain average."""
    best, played = decision.found.best, decision.found.value_of(decision.played)
    assert played is not None
    if best.trick_share - played.trick_share >= 0.2:
        return Text("your side takes the trick {better}% of the time instead of {worse}%",
                    better=round(100 * best.trick_share), worse=round(100 * played.trick_share))
    difference = best.attackers_points - played.attackers_points
    if _on_declarers_side(decision.view) and difference <= -5:
        return Text("the attackers end the hand with about {points} points fewer", points=round(-difference))
    if not _on_declarers_side(decision.view) and difference >= 5:
        return Text("the attackers end the hand with about {points} points more", points=round(difference))
    return Text("it does better over the deals the coach tried")


def decision_line(decision: Decision) -> Text:
    """One reviewed play: ``'Trick 3: you played ♠K; ♠3 was better by about 1.2
    (expected −0.4 against −1.6): …'``; or, where the difference is within the search's
    margin of error, that the coach slightly prefers another play but this is no mistake;
    or that it was the coach's choice too."""
    best = decision.found.best
    played = decision.found.value_of(decision.played)
    assert played is not None
    if played == best:
        return Text("Trick {n}: you played {cards}, the coach's choice too.", n=decision.trick, cards=decision.played)
    if not decision.costly:
        return Text("Trick {n}: you played {cards}; the coach slightly prefers {better}, by about {cost} — within its "
                    "margin of error (±{error}), so this is no mistake.", n=decision.trick, cards=decision.played,
                    better=best.play, cost=format(decision.cost, ".1f"), error=format(2 * decision.error, ".1f"))
    return Text("Trick {n}: you played {cards}; {better} was better by about {cost} (expected {best} against "
                "{mine}): {why}.", n=decision.trick, cards=decision.played, better=best.play,
                cost=format(decision.cost, ".1f"), best=signed(best.expected), mine=signed(played.expected),
                why=why_better(decision))


def weighed_play(value: PlayValue) -> Text:
    """One play the coach weighed: ``'♠3: expected −0.4, the trick 20% of the time'``."""
    return Text("{cards}: expected {value}, your side takes the trick {share}% of the time", cards=value.play,
                value=signed(value.expected), share=round(100 * value.trick_share))


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


__all__ = ["advice", "decision_line", "hint", "review_heading", "review_waits", "signed", "situation",
           "weighed_play", "why_better"]
