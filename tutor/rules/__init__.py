"""The rules of the game, exact: cards and their notation, the trump's order, combinations,
following, ruffing, throws, tricks, the friend and the sides, scoring, declaring, and the
game that holds a hand (:mod:`~tutor.rules.game`, with its :mod:`~tutor.rules.actions`,
:mod:`~tutor.rules.events` and their :mod:`~tutor.rules.history`, :mod:`~tutor.rules.phase`
and :mod:`~tutor.rules.view`). Every
rule of RULES.md has its home in one function here; the game, the computer players, the
search, the coach and the teaching ask these functions, never restate them.

>>> from tutor.rules import check_follow
>>> check_follow("♥7 ♥7 ♥3 ♠4", "♥9 ♥9", "♥7 ♥3", "♠").rule
'W3'
"""

from tutor.rules.bidding import (Declaration, can_overturn, check_declaration, declaration_strength, flip_trump,
                                 kitty_flip)
from tutor.rules.cards import PACK, Card, Cards, Suit
from tutor.rules.combos import Component, Kind, is_pair, is_tractor, shape_of, split
from tutor.rules.follow import LegalFollows, check_follow, legal_follows, shown_out
from tutor.rules.actions import Bury, Call, CloseDeal, Deal, Declare, Play, Solo
from tutor.rules.events import Event, FriendRevealed, KittyCaptured, KittyTaken, TrickWon
from tutor.rules.friend import call_refusal, known_sides, nameable_cards, same_side, side_of
from tutor.rules.game import Game
from tutor.rules.phase import Phase
from tutor.rules.refusal import play_refusal
from tutor.rules.view import SeatView
from tutor.rules.notation import parse_cards, point_cards, points
from tutor.rules.order import Trump
from tutor.rules.ruff import check_ruff
from tutor.rules.ruleset import DEFAULT_RULES, Ruleset
from tutor.rules.scoring import (HandScore, KittyCapture, attackers_total, kitty_capture, kitty_multiplier,
                                 kitty_pairs, penalty_change, score_hand, score_seats, side_name)
from tutor.rules.throw import ThrowResult, check_throw
from tutor.rules.trick import TrickOutcome, beats, explain_trick, trick_winner, winner_so_far
from tutor.rules.verdict import Verdict

__all__ = [
    "DEFAULT_RULES", "PACK", "Bury", "Call", "Card", "Cards", "CloseDeal", "Component", "Deal", "Declaration",
    "Declare", "Event", "FriendRevealed", "Game", "HandScore", "KittyCapture", "KittyCaptured", "KittyTaken", "Kind",
    "LegalFollows", "Phase", "Play", "Ruleset", "SeatView", "Solo", "Suit", "ThrowResult", "TrickOutcome",
    "TrickWon", "Trump", "Verdict", "attackers_total", "beats", "call_refusal", "can_overturn",
    "check_declaration", "check_follow", "check_ruff", "check_throw", "declaration_strength", "explain_trick",
    "flip_trump", "is_pair", "is_tractor", "kitty_capture", "kitty_flip", "kitty_multiplier", "kitty_pairs",
    "known_sides", "legal_follows", "nameable_cards",
    "parse_cards", "penalty_change", "play_refusal", "point_cards", "points", "same_side", "score_hand",
    "score_seats", "shape_of", "shown_out", "side_name", "side_of", "split", "trick_winner", "winner_so_far",
]
