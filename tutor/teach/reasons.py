"""Reasons a newcomer reads: the idea behind a play, in words, before any number (advice,
never a rule).

The coach's search (:mod:`tutor.play.search`) says how well a play does on average; this
module says *why* a player would choose it, from what the seat can see
(:class:`~tutor.rules.view.SeatView`) and what the search found
(:class:`~tutor.play.search.PlayValue`): who is winning the trick and on which side as far as
the seat knows (F2, F6), whether the play beats it, the points in the play and on the table,
the trumps it spends, whether a lead is the highest card still out in its suit, the seats known
to be out of a suit (W2), and how two plays compare on the score table (S1–S3) with the search's
margin of error. :mod:`tutor.teach.coaching` puts these into the hint and the review, so both
speak alike. Every sentence is a :class:`~tutor.core.i18n.Text`; cards are named in the order
the hand holds them (:meth:`~tutor.rules.order.Trump.sorted`).

>>> from dataclasses import replace
>>> from tutor.rules.game import Game, Phase
>>> from tutor.rules.notation import parse_cards as p
>>> from tutor.rules.order import Trump
>>> view = replace(Game(7).view(0), phase=Phase.PLAYING, trump=Trump("♥"), declarer=0, actor=0,
...                hand=p("♠A ♠3 ♥5"), friend_card=p("♣A")[0])
>>> play_reason(view, PlayValue(p("♠A"), 2.0, 0.5, 1.0, 40.0))
'nobody can beat it in ♠, and it keeps your trumps'
>>> compared(PlayValue(p("♠A"), 2.0, 0.5, 1.0, 40.0), PlayValue(p("♠3"), -0.1, 0.5, 0.2, 70.0))
'better by about 2.1 points of the score table'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import islice
from typing import Final, Literal

from tutor.core.i18n import Text, and_list
from tutor.play.coach import margin
from tutor.play.search import PlayValue, gain
from tutor.play.simulation import shown_voids, unseen_cards
from tutor.play.strategy import ComputerPlayer, DECLARES_FROM, sure_in_suit, trumps_to_declare
from tutor.rules.bidding import showable
from tutor.rules.cards import PLAYERS, Card, points
from tutor.rules.combos import pair_runs, shape_of
from tutor.rules.follow import legal_follows
from tutor.rules.order import TRUMP, Trump
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.trick import trick_winner
from tutor.rules.view import SeatView
from tutor.teach.narration import trump_name, who

_LOOKED_AT: Final = 400
"""Legal follows looked at to say that none of them beats the trick's winner (more: not said)."""

Standing = Literal["partner", "opponent", "unknown"]
"""A seat's side as ``view.seat`` knows it (F2, F6): its partner, an opponent, or not known yet."""


# ---------------------------------------------------------------- pieces


def joined(pieces: Sequence[Text]) -> Text:
    """Clauses of one reason, one after the other: ``'a; b; c'`` (Chinese: ``a；b；c``).

    >>> joined([Text("it beats {cards}", cards="♠K"), Text("nothing you may play beats it")])
    'it beats ♠K; nothing you may play beats it'
    """
    said = pieces[0]
    for piece in pieces[1:]:
        said = Text("{first}; {then}", first=said, then=piece)
    return said


def standing(view: SeatView, seat: int) -> Standing:
    """``seat``'s side as ``view.seat`` knows it (F2, F5, F6:
    :meth:`~tutor.rules.view.SeatView.known_sides`): a partner, an opponent, or not known
    yet (before the friend is revealed, only the declarer's side is known to an attacker,
    and nothing to the declarer).

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game
    >>> view = replace(Game(7).view(1), declarer=0)
    >>> standing(view, 0), standing(view, 2), standing(replace(view, friend=2), 3)
    ('opponent', 'unknown', 'partner')
    """
    partners, opponents = view.known_sides()
    return "partner" if seat in partners else "opponent" if seat in opponents else "unknown"


def _ruffers(view: SeatView, lane: int) -> list[int]:
    """The seats, other than ``view.seat`` and its known partners, known to be out of the
    side suit ``lane`` but not out of trumps (W2): they may ruff a lead of it (R1)."""
    voids = shown_voids(view)
    partners, _ = view.known_sides()
    return sorted(seat for seat, void in voids if void == lane and seat != view.seat and seat not in partners
                  and (seat, TRUMP) not in voids)


def _trumps_in(cards: Sequence[Card], trump: Trump) -> int:
    return sum(1 for card in cards if trump.is_trump(card))


# ---------------------------------------------------------------- the idea behind a play


def play_reason(view: SeatView, value: PlayValue, rules: Ruleset = DEFAULT_RULES) -> Text:
    """The idea behind playing ``value.play`` now, in ``view``'s seat, as one clause a
    newcomer reads (advice, not a rule): for a lead, whether anything still out can beat it
    (a sure winner keeps your trumps, a trump lead draws the others'), the points it risks,
    the seats known to be out of its suit, a suit it empties; for a follow, who is winning
    the trick and on which side as far as the seat knows (F6), whether the play beats it
    (ruffing, at the cost of trumps) and the points it wins or gives.

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game, Phase
    >>> from tutor.rules.notation import parse_cards as p
    >>> view = replace(Game(7).view(3), phase=Phase.PLAYING, trump=Trump("♥"), declarer=0, friend=3, actor=3,
    ...                hand=p("♠K ♠3 ♥5"), friend_card=p("♣A")[0], trick=((2, p("♠A")),))
    >>> play_reason(view, PlayValue(p("♠K"), 1.0, 0.5, 0.3, 40.0)).split("; ")
    ['Seat 2, on the other side, is winning the trick with ♠A', 'nothing you may play beats it', \
'it adds 10 points to the trick']
    >>> play_reason(replace(view, trick=((0, p("♠A")),)), PlayValue(p("♠K"), 1.0, 0.5, 1.0, 40.0))
    "feed your partner Seat 0's winning trick ♠K: 10 points"
    """
    trump = view.trump
    if trump is None:
        return Text("it is the play the coach weighed")
    play = trump.sorted(value.play)
    pieces = list(_lead_pieces(view, play, trump) if not view.trick else _follow_pieces(view, play, trump, rules))
    if view.friend == view.seat and not view.friend_revealed and view.friend_card is not None \
            and view.friend_card in play:
        pieces.append(Text("it shows everyone you are the friend (F6)"))
    return joined(pieces)


def _unbeatable(cards: Sequence[Card], lane: int, unseen: Counter[Card], trump: Trump) -> bool:
    """True if no combination of the unseen cards of ``cards``' own shape can beat it in its
    suit (L3): for a single or a pair, :func:`tutor.play.strategy.sure_in_suit`; a tractor is
    beaten only by a higher tractor as long (M2), both copies of each of its pairs unseen.

    >>> from tutor.rules.notation import parse_cards as p
    >>> hearts = Trump("♥")
    >>> _unbeatable(p("♠Q ♠Q ♠J ♠J"), 0, Counter(p("♠A ♠A ♠5")), hearts)
    True
    >>> _unbeatable(p("♠Q ♠Q ♠J ♠J"), 0, Counter(p("♠A ♠A ♠K ♠K")), hearts)
    False
    """
    if len(cards) < 4:
        return sure_in_suit(cards, lane, unseen, trump)
    top = max(trump.order(card) for card in cards)
    doubled = [card for card, count in unseen.items() if count == 2 and trump.lane(card) == lane for _ in range(2)]
    return not any(len(run) >= len(cards) // 2 and trump.order(run[0]) > top for run in pair_runs(doubled, trump))


def _lead_pieces(view: SeatView, play: Sequence[Card], trump: Trump) -> list[Text]:
    """What a lead does: sure or not, points at risk, ruffs to fear, a suit emptied."""
    lane = trump.lane(play[0])
    unseen = unseen_cards(view)
    components = shape_of(play, trump).components
    sure = all(_unbeatable(component.cards, lane, unseen, trump) for component in components)
    pieces: list[Text] = []
    if len(components) > 1:
        if sure:
            pieces.append(Text("no hand can beat any part of this throw, so it stands (L3)"))
        else:
            pieces.append(Text("higher {cards} still out can make this throw fail, costing {points} points (L4, L5)",
                               cards=Trump.cards_name(lane), points=5 * len(play)))
    elif sure and lane == TRUMP:
        pieces.append(Text("no trump still out is higher, so nobody can beat it, and it draws trumps from the "
                           "other hands"))
    elif sure:
        pieces.append(Text("nobody can beat it in {suit}, and it keeps your trumps", suit=Trump.suit_name(lane)))
    elif lane == TRUMP:
        pieces.append(Text("it draws trumps from the other hands, but higher trumps still out can beat it"))
        if points(play):
            pieces.append(Text("it puts {points} points at risk", points=points(play)))
    elif points(play):
        pieces.append(Text("higher {cards} still out can beat it, and it puts {points} points at risk",
                           cards=Trump.cards_name(lane), points=points(play)))
    else:
        pieces.append(Text("higher {cards} still out can beat it, but it risks no points",
                           cards=Trump.cards_name(lane)))
    if lane != TRUMP:
        ruffers = _ruffers(view, lane)
        if ruffers:
            pieces.append(Text.plural("but {seats} has shown no {suit} and may ruff it",
                                      "but {seats} have shown no {suit} and may ruff it", count=len(ruffers),
                                      seats=and_list([who(seat, view.seat) for seat in ruffers]),
                                      suit=Trump.suit_name(lane)))
        left = Counter(view.hand) - Counter(play)
        if not any(trump.lane(card) == lane for card in left.elements()):
            pieces.append(Text("after it you hold no {suit}, so you may ruff {suit} later (R1)",
                               suit=Trump.suit_name(lane)))
    return pieces


def _follow_pieces(view: SeatView, play: Sequence[Card], trump: Trump, rules: Ruleset) -> list[Text]:
    """What a follow does: the trick's winner and side, beaten or not, points, trumps spent."""
    plays = [cards for _, cards in view.trick]
    current = trick_winner(plays, trump)
    seat, winning = view.trick[current][0], trump.sorted(plays[current])
    side = standing(view, seat)
    lane = trump.lane(plays[0][0])
    wins = trick_winner([*plays, play], trump) == len(plays)
    table = sum(points(cards) for cards in plays)
    mine = points(play)
    trumps = _trumps_in(play, trump)
    ruff = lane != TRUMP and trumps == len(play)
    pieces: list[Text] = []
    if wins:
        was_ruff = lane != TRUMP and _trumps_in(winning, trump) == len(winning)
        if side == "partner":
            pieces.append(Text("it takes the trick from your partner {who}", who=who(seat, view.seat)))
        elif ruff and was_ruff:
            pieces.append(Text("it over-ruffs {cards}, spending {count} of your trumps (R5)", count=trumps,
                               cards=winning))
        elif ruff:
            pieces.append(Text("you have no {suit}: ruffing beats {cards}, spending {count} of your trumps (R1)",
                               count=trumps, suit=Trump.suit_name(lane), cards=winning))
        else:
            pieces.append(Text("it beats {cards}", cards=winning))
        after = PLAYERS - 1 - len(plays)
        if not after:
            pieces.append(Text("you play last, so your side takes the trick and its {points} points",
                               points=table + mine) if table + mine
                          else Text("you play last, so your side takes the trick (no points in it)"))
        elif table + mine:
            pieces.append(Text.plural("{points} points are at stake, and {count} more seat plays after you",
                                      "{points} points are at stake, and {count} more seats play after you",
                                      count=after, points=table + mine))
        else:
            pieces.append(Text.plural("{count} more seat plays after you", "{count} more seats play after you",
                                      count=after))
        return pieces
    if side == "partner" and mine:
        return [Text("feed your partner {who}'s winning trick {cards}: {points} points", who=who(seat, view.seat),
                     cards=trump.sorted(c for c in play if c.points), points=mine)]
    if side == "partner":
        pieces.append(Text("your partner {who} is winning the trick with {cards}", who=who(seat, view.seat),
                           cards=winning))
    elif side == "opponent":
        pieces.append(Text("{who}, on the other side, is winning the trick with {cards}", who=who(seat, view.seat),
                           cards=winning))
    else:
        pieces.append(Text("{who}, whose side you do not know yet (F6), is winning the trick with {cards}",
                           who=who(seat, view.seat), cards=winning))
    if side != "partner" and not _any_beats(view, plays, trump, rules):
        pieces.append(Text("nothing you may play beats it"))
    if lane != TRUMP and trumps:
        pieces.append(Text.plural("it spends {count} trump without winning", "it spends {count} trumps without winning",
                                  count=trumps))
    pieces.append(Text("it adds {points} points to the trick", points=mine) if mine
                  else Text("it adds no points to the trick"))
    return pieces


def _any_beats(view: SeatView, plays: Sequence[Sequence[Card]], trump: Trump, rules: Ruleset) -> bool:
    """True if some legal follow of ``view``'s seat would beat the trick's winner (or if
    there are too many to look at them all)."""
    follows = legal_follows(view.hand, plays[0], trump, rules=rules)
    looked = 0
    for follow in islice(follows, _LOOKED_AT):
        looked += 1
        if trick_winner([*plays, follow], trump) == len(plays):
            return True
    return looked >= _LOOKED_AT


# ---------------------------------------------------------------- two plays compared


def compared(best: PlayValue, other: PlayValue) -> Text:
    """How ``best`` compares with ``other``, in game terms (advice): better (or worse) by
    about so many points of the score table (the seat's average result, S1–S3), or about
    as good, where the difference is within the coach's margin of error
    (:func:`tutor.play.coach.margin`, the review's too).

    >>> from tutor.rules.notation import parse_cards as p
    >>> compared(PlayValue(p("♠A"), 2.0, 0.2, 1.0, 40.0), PlayValue(p("♠3"), 0.0, 0.2, 0.0, 60.0))
    'better by about 2 points of the score table'
    >>> compared(PlayValue(p("♠A"), 0.5, 0.4, 1.0, 40.0), PlayValue(p("♠3"), 0.2, 0.4, 0.0, 60.0))
    "about as good: within the coach's margin of error"
    >>> compared(PlayValue(p("♠A"), 1.25, 0.0, 1.0, 40.0, (2, 1)), PlayValue(p("♠3"), 0.0, 0.0, 0.0, 60.0, (0, 0)))
    'better by about 1.5 points of the score table'
    """
    edge, error = gain(best, other)
    if abs(edge) < margin(error):
        return Text("about as good: within the coach's margin of error")
    size = round(abs(edge), 1)
    if size == int(size):
        if edge > 0:
            return Text.plural("better by about {count} point of the score table",
                               "better by about {count} points of the score table", count=int(size))
        return Text.plural("worse by about {count} point of the score table",
                           "worse by about {count} points of the score table", count=int(size))
    if edge > 0:
        return Text("better by about {value} points of the score table", value=format(size, ".1f"))
    return Text("worse by about {value} points of the score table", value=format(size, ".1f"))


def share_said(value: PlayValue) -> Text:
    """How often the seat's side took the trick of the play, over the deals the coach tried.

    >>> from tutor.rules.notation import parse_cards as p
    >>> share_said(PlayValue(p("♠A"), 1.0, 0.1, 1.0, 0.0)), share_said(PlayValue(p("♠A"), 1.0, 0.1, 0.25, 0.0))
    ('your side takes this trick in every deal tried', 'your side takes this trick in 25% of the deals tried')
    """
    share = round(100 * value.trick_share)
    if share == 100:
        return Text("your side takes this trick in every deal tried")
    if share == 0:
        return Text("your side takes this trick in none of the deals tried")
    return Text("your side takes this trick in {share}% of the deals tried", share=share)


# ---------------------------------------------------------------- declaring


def declare_reason(view: SeatView, cards: Sequence[Card]) -> Text:
    """Why a computer player declares (D1) or overturns (D3) with ``cards`` now: how many of
    the seat's cards the trump would make trumps (:meth:`ComputerPlayer.declarations`).

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game
    >>> from tutor.rules.notation import parse_cards as p
    >>> view = replace(Game(7).view(0), hand=p("BJ ♥2 ♥A ♥9 ♥5 ♠3 ♣4 ♦6 ♦7"))
    >>> declare_reason(view, p("♥2"))
    '♥ trumps would make 5 of your 9 cards trumps (BJ ♥2 ♥A ♥9 ♥5)'
    """
    trump = Trump(cards[0].suit)
    trumps = trump.trumps(view.hand)
    return Text.plural("{trump} would make {count} of your {held} cards a trump ({cards})",
                       "{trump} would make {count} of your {held} cards trumps ({cards})", count=len(trumps),
                       trump=trump_name(trump), held=len(view.hand), cards=trumps)


def no_declare_reason(view: SeatView) -> Text:
    """Why a computer player would not declare now (D1–D4), with the seat's own cards: it
    holds too few yet, no 2 nor pair of jokers to show, nothing stronger than the standing
    declaration, or too few cards that the trump would make trumps — its bar
    (:func:`tutor.play.strategy.trumps_to_declare`).

    >>> from dataclasses import replace
    >>> from tutor.rules.game import Game
    >>> from tutor.rules.notation import parse_cards as p
    >>> view = Game(7).view(0)
    >>> no_declare_reason(view)
    'it weighs a declaration once it holds 5 cards, and you hold 0 so far'
    >>> no_declare_reason(replace(view, hand=p("♥2 ♥A ♠3 ♠9 ♣4 ♦6 ♦7 ♦9")))
    '♥ trumps would make only 2 of your 8 cards trumps (♥2 ♥A); the computer declares with at least 3'
    >>> no_declare_reason(replace(view, hand=p("SJ ♥A ♠3 ♠9 ♣4 ♦6 ♦7 ♦9")))
    'you hold no 2 and no pair of jokers to show (D1, D4)'
    """
    hand = view.hand
    if len(hand) < DECLARES_FROM:
        return Text("it weighs a declaration once it holds {least} cards, and you hold {count} so far",
                    least=DECLARES_FROM, count=len(hand))
    options = ComputerPlayer(view.seat).declarations(view)
    if not options:
        shown = [card for card, count in Counter(hand).items() if showable(card) and (card.suit or count == 2)]
        standing_one = view.declarations[-1] if view.declarations else None
        if not shown:
            return Text("you hold no 2 and no pair of jokers to show (D1, D4)")
        if standing_one is not None and standing_one.seat == view.seat:
            return Text("the standing declaration is yours, and nobody may overturn their own (D3)")
        if standing_one is not None:
            held = Trump(None).sorted(card for card in hand if card in shown)
            return Text("your {cards} cannot overturn {who}'s {standing} (D2, D3)", cards=held,
                        who=who(standing_one.seat, view.seat), standing=standing_one.cards)
        return Text("the computer sees nothing it may declare with")
    strength, _, cards = max(options, key=lambda option: option[0])
    trump = Trump(cards[0].suit)
    trumps = trump.trumps(hand)
    least = trumps_to_declare(len(hand), overturn=bool(view.declarations), no_trump=cards[0].suit is None)
    if view.declarations:
        return Text.plural("{trump} would make only {count} of your {held} cards a trump ({cards}); the computer "
                           "overturns with at least {least}",
                           "{trump} would make only {count} of your {held} cards trumps ({cards}); the computer "
                           "overturns with at least {least}", count=len(trumps), trump=trump_name(trump),
                           held=len(hand), cards=trumps, least=least)
    return Text.plural("{trump} would make only {count} of your {held} cards a trump ({cards}); the computer "
                       "declares with at least {least}",
                       "{trump} would make only {count} of your {held} cards trumps ({cards}); the computer "
                       "declares with at least {least}", count=len(trumps), trump=trump_name(trump), held=len(hand),
                       cards=trumps, least=least)


__all__ = ["Standing", "compared", "declare_reason", "joined", "no_declare_reason", "play_reason",
           "share_said", "standing"]
