"""The rules of 启东招朋友 (Qidong Find Friends), exact and explained.

Every function accepts cards as notation text or as a sequence of :class:`Card`,
and a trump as a :class:`Trump` or anything it accepts (``"♥"``, ``"H"``, ``None``).

>>> from tutor import check_follow
>>> verdict = check_follow("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♥7 ♥3", "♠")
>>> print(verdict)
Illegal (W3): you hold the pair ♥7 ♥7; when a pair is led you must follow with a pair. A legal play: ♥7 ♥7.
"""

from tutor.rules.bidding import (
                           Declaration,
                           can_overturn,
                           check_declaration,
                           declaration_strength,
                           flip_trump,
                           kitty_flip,
)
from tutor.play.bots import play_random_hand, random_action
from tutor.rules.cards import PACK, Card, Cards, Suit
from tutor.rules.combos import Component, Kind, is_pair, is_tractor, split
from tutor.core.errors import (
                           CardCountError,
                           IllegalActionError,
                           InvalidPlayError,
                           NotationError,
                           TutorError,
)
from tutor.rules.follow import LegalFollows, check_follow, legal_follows
from tutor.rules.game import (
                           Bury,
                           Call,
                           CloseDeal,
                           Deal,
                           Declare,
                           Event,
                           Game,
                           Phase,
                           Play,
                           SeatView,
                           Solo,
)
from tutor.rules.notation import parse_cards, points
from tutor.rules.order import Trump
from tutor.rules.ruff import check_ruff
from tutor.rules.ruleset import Ruleset
from tutor.rules.scoring import HandScore, kitty_multiplier, score_hand
from tutor.rules.throw import ThrowResult, check_throw
from tutor.rules.trick import TrickOutcome, explain_trick, trick_winner
from tutor.rules.verdict import Verdict

__all__ = [
    "PACK", "Bury", "Call", "Card", "Cards", "CardCountError", "CloseDeal", "Component", "Deal", "Declaration",
    "Declare", "Event", "Game", "HandScore", "IllegalActionError", "InvalidPlayError", "Kind", "LegalFollows",
    "NotationError", "Phase", "Play", "Ruleset", "SeatView", "Solo", "Suit", "ThrowResult", "TrickOutcome",
    "Trump", "TutorError", "Verdict", "can_overturn", "check_declaration", "check_follow", "check_ruff",
    "check_throw", "declaration_strength", "explain_trick", "flip_trump", "is_pair", "is_tractor",
    "kitty_flip", "kitty_multiplier", "legal_follows", "parse_cards", "play_random_hand", "points",
    "random_action", "score_hand", "split", "trick_winner",
]
