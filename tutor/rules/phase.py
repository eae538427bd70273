"""The phases of a hand, in order (D1–K1, F1–F5, L1, S1): dealing and declaring, burying,
calling the friend, playing the tricks, finished.

>>> [phase.value for phase in Phase]
['dealing', 'burying', 'calling', 'playing', 'finished']
>>> phase_name(Phase.CALLING)
'calling'
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from tutor.core.i18n import N_, Text


class Phase(Enum):
    """The phases of a hand, in order."""

    DEALING = "dealing"
    BURYING = "burying"
    CALLING = "calling"
    PLAYING = "playing"
    FINISHED = "finished"


PHASE_NAMES: Final = {Phase.DEALING: N_("dealing"), Phase.BURYING: N_("burying"), Phase.CALLING: N_("calling"),
                      Phase.PLAYING: N_("playing"), Phase.FINISHED: N_("finished")}
"""Each phase as a learner reads it ("the hand is in the {phase} phase")."""


def phase_name(phase: Phase) -> Text:
    """``phase`` as a learner reads it (translatable).

    >>> from tutor.core.i18n import Translator
    >>> phase_name(Phase.PLAYING), Translator("en")(phase_name(Phase.BURYING))
    ('playing', 'burying')
    """
    return Text(PHASE_NAMES[phase])


__all__ = ["PHASE_NAMES", "Phase", "phase_name"]
