"""The ruleset: every **[reading]** of RULES.md as a named option (defaults are the
book's choices), so a table that plays it the other way can switch.

>>> Ruleset().penalty_per_card, Ruleset(throw_follow_duty="pairs").throw_follow_duty
(5, 'pairs')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tutor.core.arguments import flag, whole
from tutor.core.errors import TutorError, shown
from tutor.core.i18n import Text

ThrowFollowDuty = Literal["tractors-then-pairs", "pairs"]
FailedThrowLead = Literal["thrower-chooses", "lowest-card"]
KittyPairsFrom = Literal["lead", "winning-play"]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Variant options of the rules, with the book's choices as defaults.

    - ``flip_declarations`` (D5): the declaration count of a hand decided by the
      kitty flip.
    - ``allow_buried_friend`` (F3): whether a call may name a card whose twin was
      buried (then nobody is the friend). The book refuses it.
    - ``failed_throw_lead`` (L4): ``"thrower-chooses"`` among the smallest component
      of every beaten kind; ``"lowest-card"``: the one of those with the lowest card.
    - ``penalty_per_card`` (L5): points per card of a failed throw.
    - ``penalty_to_declarers`` (L5): a declarer-side failed throw raises the
      attackers' total; when False, only attackers' failed throws are penalised.
    - ``throw_follow_duty`` (W5): following a throw, match its tractors then its pairs
      (``"tractors-then-pairs"``), or only its pairs (``"pairs"``).
    - ``kitty_pairs_from`` (X2): count the pairs of the multiplier in the lead of the
      last trick, or in the play that won it.
    - ``declare_after_deal`` (not settled by the book, D1): after the last card is
      dealt, players may still declare or overturn until the deal is closed.
    """

    flip_declarations: int = 1
    allow_buried_friend: bool = False
    failed_throw_lead: FailedThrowLead = "thrower-chooses"
    penalty_per_card: int = 5
    penalty_to_declarers: bool = True
    throw_follow_duty: ThrowFollowDuty = "tractors-then-pairs"
    kitty_pairs_from: KittyPairsFrom = "lead"
    declare_after_deal: bool = True

    def __post_init__(self) -> None:
        whole(self.flip_declarations, "flip_declarations", low=1, high=99)
        whole(self.penalty_per_card, "penalty_per_card", low=0, high=1000)
        for name in ("allow_buried_friend", "penalty_to_declarers", "declare_after_deal"):
            flag(getattr(self, name), name)
        choices = {
            "failed_throw_lead": ("thrower-chooses", "lowest-card"),
            "throw_follow_duty": ("tractors-then-pairs", "pairs"),
            "kitty_pairs_from": ("lead", "winning-play"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise TutorError(Text("{name} must be one of {allowed}, not {value}", name=name,
                                      allowed=", ".join(allowed), value=shown(getattr(self, name))))
        if self.flip_declarations < 1 or self.penalty_per_card < 0 or self.penalty_per_card % 5:
            raise TutorError(Text("flip_declarations must be at least 1 and penalty_per_card a multiple of 5"))


DEFAULT_RULES = Ruleset()
