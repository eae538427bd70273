"""What the drill kinds share in making a :class:`~tutor.teach.drills.base.Drill`: seeded
deals with capped redraws, natural mid-hand positions, yes/no choices, and the
errors of making one.

>>> import random
>>> hands, kitty = deal(random.Random(1))
>>> [len(h) for h in hands], len(kitty)
([20, 20, 20, 20, 20], 8)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, TypeVar

from tutor.core.arguments import MAX_SEED
from tutor.core.errors import TutorError
from tutor.rules.cards import HAND_SIZE, KITTY_SIZE, PACK, PLAYERS, SUITS, Card
from tutor.teach.drills.answers import Choice
from tutor.core.i18n import Text, Translator, capitalized
from tutor.rules.order import Trump
from tutor.rules.trick import trick_winner
from tutor.rules.verdict import cited_rules

if TYPE_CHECKING:  # the game and its players come after the drills' basics: imported where used
    from tutor.rules.game import Game, Phase
    from tutor.play.strategy import ComputerPlayer

SEEDS: Final = range(0, MAX_SEED + 1)
"""The seeds a drill accepts: every seed (:data:`tutor.core.arguments.MAX_SEED`)."""

T = TypeVar("T")


class DrillError(TutorError):
    """A drill cannot be made: an unknown kind, a bad level, seed or language, or a position
    that is no question of its kind (``parameter`` names what is wrong)."""


class GenerationError(DrillError):
    """No natural position met a drill's constraints within the allowed redraws."""


Hand = tuple[Card, ...]


def deal(rng: random.Random) -> tuple[list[Hand], Hand]:
    """Shuffle the 108-card pack with ``rng`` and deal five hands of 20 and the kitty (C2)."""
    pack = list(PACK)
    rng.shuffle(pack)
    hands = [tuple(pack[i * HAND_SIZE:(i + 1) * HAND_SIZE]) for i in range(PLAYERS)]
    return hands, tuple(pack[PLAYERS * HAND_SIZE:PLAYERS * HAND_SIZE + KITTY_SIZE])


def redraw(rng: random.Random, build: Callable[[random.Random], T | None], what: str, cap: int = 3000) -> T:
    """Call ``build`` (which deals from ``rng`` and returns None when the deal does not
    fit) until it returns a position; after ``cap`` tries raise :class:`GenerationError`
    (``what`` names the position sought, a :class:`~tutor.core.i18n.Text`)."""
    for _ in range(cap):
        result = build(rng)
        if result is not None:
            return result
    raise GenerationError(Text("no deal gave {what} within {cap} redraws", what=what, cap=cap))


def sentence(reason: str, tr: Translator) -> str:
    """A reason from the rules module (a Text, said in ``tr``'s language) as a whole sentence.

    >>> sentence("you must play a pair", Translator("en"))
    'You must play a pair.'
    """
    return tr("{reason}.", reason=capitalized(reason))


def refuted(reason: Text, rule: str, tr: Translator) -> tuple[str, str]:
    """A reason from the rules module why a wrong choice is wrong, as a drill's refute gives it:
    the rule it cites (the first; ``rule`` when it cites none), and the whole sentence.

    >>> refuted(Text("♠A ties with an earlier play, and a tie goes to the play made first (T6)"), "B1",
    ...         Translator("en"))
    ('T6', '♠A ties with an earlier play, and a tie goes to the play made first (T6).')
    """
    cited = cited_rules(str(reason))
    return (cited[0] if cited else rule), sentence(reason, tr)


def about(cards: Sequence[Card], reason: str, tr: Translator) -> str:
    """A reason from the rules module about ``cards`` (the learner's play), as a whole
    sentence that names them once: after them when the reason does not name them
    itself, else alone (never "♣7: ♣7 follows …").

    >>> from tutor.core.i18n import Text
    >>> from tutor.rules.notation import parse_cards
    >>> en = Translator("en")
    >>> about(parse_cards("♣7"), Text("{cards} follows a single in ♣ (W2)", cards=parse_cards("♣7")), en)
    '♣7 follows a single in ♣ (W2).'
    >>> about(parse_cards("♦5"), Text("you must play a ♠ card (W2)"), en)
    '♦5: You must play a ♠ card (W2).'
    """
    said = sentence(reason, tr)
    return said if tr.cards(cards) in said else tr("{cards}: {reason}", cards=tuple(cards), reason=said)


def with_trump(question: str, trump: Trump, tr: Translator) -> str:
    """``question`` (already said in ``tr``'s language) after the trump it is asked
    under, for a question whose answer depends on the trump and does not say it.

    >>> with_trump("Who wins?", Trump("♥"), Translator("en"))
    'With ♥ trumps: Who wins?'
    """
    return tr("With {trump}: {question}", trump=str(trump), question=question)


def holdings(seats: Sequence[tuple[int, Sequence[Card]]], tr: Translator) -> str:
    """Each seat's cards, as a learner reads them: ``seat 1: ♦K ♦9; seat 2: none``.

    >>> from tutor.rules.notation import parse_cards
    >>> holdings(((1, parse_cards("♦K ♦9")), (2, ())), Translator("en"))
    'seat 1: ♦K ♦9; seat 2: none'
    """
    return tr.semicolons([tr("seat {seat}: {cards}", seat=seat, cards=tuple(cards)) if cards
                          else tr("seat {seat}: none", seat=seat) for seat, cards in seats])


def pick_trump(rng: random.Random, level: int) -> Trump:
    """A suit trump, or no-trump now and then from level 2 (T2)."""
    if level >= 2 and rng.random() < 0.2:
        return Trump(None)
    return Trump(rng.choice(SUITS))


def yes_no(tr: Translator) -> tuple[Choice, ...]:
    """The choices of a yes/no question, said in ``tr``'s language.

    >>> yes_no(Translator("zh-Hans"))
    (Choice(key='yes', label='是'), Choice(key='no', label='否'))
    """
    return (Choice("yes", tr("Yes")), Choice("no", tr("No")))


def yes_no_key(value: bool) -> frozenset[str]:
    """The correct key of a yes/no question whose answer is ``value``.

    >>> yes_no_key(False)
    frozenset({'no'})
    """
    return frozenset({"yes" if value else "no"})


def play_singles(rng: random.Random, hands: Sequence[Hand], trump: Trump, tricks: int) -> list[Hand]:
    """The hands after ``tricks`` tricks of single cards played from them: each
    follower plays a card of the led suit if it can, else any card (often a trump);
    the winner leads next (B1, B2). A way to reach natural mid-hand positions, where
    voids are common."""
    held = [list(h) for h in hands]
    leader = rng.randrange(PLAYERS)
    for _ in range(tricks):
        lead = rng.choice(held[leader])
        lane = trump.lane(lead)
        plays = [(leader, lead)]
        for i in range(1, PLAYERS):
            seat = (leader + i) % PLAYERS
            suit = [c for c in held[seat] if trump.lane(c) == lane]
            if not suit and rng.random() < 0.5:
                suit = [c for c in held[seat] if trump.is_trump(c)]
            plays.append((seat, rng.choice(suit or held[seat])))
        for seat, card in plays:
            held[seat].remove(card)
        leader = plays[trick_winner([(c,) for _, c in plays], trump)][0]
    return [tuple(h) for h in held]


def lanes_of_hand(hand: Sequence[Card], trump: Trump) -> dict[int, list[Card]]:
    """The cards of ``hand`` by effective suit (0–3 side suits, 4 trumps), in the
    order held.

    >>> from tutor.rules.notation import parse_cards
    >>> {int(lane): " ".join(map(str, cards)) for lane, cards in lanes_of_hand(parse_cards("♠A ♥3 ♠K"), Trump("♥")).items()}
    {0: '♠A ♠K', 4: '♥3'}
    """
    out: dict[int, list[Card]] = {}
    for c in hand:
        out.setdefault(trump.lane(c), []).append(c)
    return out



def computer_hand(rng: random.Random, until: Phase) -> tuple[Game, dict[int, ComputerPlayer]]:
    """A real hand from a seed ``rng`` draws, played by the computer players (level 1) to
    the ``until`` phase (or its end), and those players, to play it on
    (:func:`tutor.play.strategy.computer_hand`)."""
    from tutor.play.strategy import computer_hand as hand_at

    return hand_at(rng.randrange(SEEDS.stop), until)
