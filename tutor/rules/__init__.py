"""The rules of the game, exact: cards and their notation, the trump's order, combinations,
following, ruffing, throws, tricks, scoring, declaring, and the game that holds a hand
(:mod:`~tutor.rules.game`). Every rule of RULES.md has its home in one module here; the
computer players, the coach and the teaching ask these functions, never restate them.

>>> from tutor.rules import check_follow
>>> check_follow("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♥7 ♥3", "♠").rule
'W3'
"""

from tutor.rules.bidding import (Declaration, can_overturn, check_declaration, declaration_strength, flip_trump,
                                 kitty_flip)
from tutor.rules.cards import PACK, Card, Cards, Suit
from tutor.rules.combos import Component, Kind, is_pair, is_tractor, shape_of, split
from tutor.rules.follow import LegalFollows, check_follow, legal_follows, shown_out
from tutor.rules.game import (Bury, Call, CloseDeal, Deal, Declare, Event, FriendRevealed, Game, KittyCaptured,
                              KittyTaken, Phase, Play, SeatView, Solo, TrickWon)
from tutor.rules.notation import parse_cards, points
from tutor.rules.order import Trump
from tutor.rules.ruff import check_ruff
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.scoring import HandScore, kitty_multiplier, score_hand, side_name
from tutor.rules.throw import ThrowResult, check_throw
from tutor.rules.trick import TrickOutcome, explain_trick, trick_winner
from tutor.rules.verdict import Verdict

__all__ = [
    "DEFAULT_RULES", "PACK", "Bury", "Call", "Card", "Cards", "CloseDeal", "Component", "Deal", "Declaration",
    "Declare", "Event", "FriendRevealed", "Game", "HandScore", "KittyCaptured", "KittyTaken", "Kind",
    "LegalFollows", "Phase", "Play", "Ruleset", "SeatView", "Solo", "Suit", "ThrowResult", "TrickOutcome",
    "TrickWon", "Trump", "Verdict", "can_overturn", "check_declaration", "check_follow", "check_ruff",
    "check_throw", "declaration_strength", "explain_trick", "flip_trump", "is_pair", "is_tractor", "kitty_flip",
    "kitty_multiplier", "legal_follows", "parse_cards", "points", "score_hand", "shape_of", "shown_out",
    "side_name", "split", "trick_winner",
]
