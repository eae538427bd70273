"""Two lessons never open on the same drill: for every pair of lessons, the first drill of
each kind both practise differs — on a first visit (no progress) and on a visit by a link
with a seed (a class given one seed for the whole course: ``00-welcome.ipynb?seed=3`` and
``05-following.ipynb?seed=3``), at every level — and it is always the same one for the
same link (deterministic).

Lessons 00 and 05 both practise ``follow``, 02 and 06 ``trick``: a link's first drill used
to be the link's seed itself, whatever the lesson, so they opened on the same drills.
"""

from __future__ import annotations

from datetime import datetime, timezone
from itertools import combinations

import pytest

from tutor.teach.course import LESSONS, LEVELS
from tutor.teach.drill_state import DrillState
from tutor.teach.drills import KINDS, generate
from tutor.teach.drills.progress import Progress, visit_seed
from widgets.drill import DrillPlayer

LINK_SEEDS = range(0, 40)
NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)
DRILLS = {info.slug: info.drills for info in LESSONS}
PAIRS = [(a.slug, b.slug) for a, b in combinations(LESSONS, 2)]
SHARED = [(a, b) for a, b in PAIRS if set(DRILLS[a]) & set(DRILLS[b])]


def first(kind: str, lesson: str, seed: int | None, level: int | None = None) -> tuple[int, int]:
    """The seed and level of the first drill of ``kind`` the lesson's page shows."""
    state = DrillState(kind, lesson=lesson, progress=Progress(), link_seed=seed, link_level=level)
    _, drill_seed, drill_level = state.upcoming(lambda: NOW)
    return drill_seed, drill_level


def test_some_lessons_share_a_kind():
    """The test has something to test: 00 and 05 share ``follow``, 02 and 06 ``trick``."""
    assert {("00-welcome", "05-following"), ("02-trumps", "06-ruffing")} <= set(SHARED)


@pytest.mark.parametrize(("one", "other"), PAIRS, ids=[f"{a}+{b}" for a, b in PAIRS])
def test_two_lessons_open_on_drills_of_their_own(one, other):
    for kind in set(DRILLS[one]) & set(DRILLS[other]):
        assert first(kind, one, None) != first(kind, other, None), (kind, "first visit")
        for level in (None, *LEVELS):
            for seed in LINK_SEEDS:
                mine, theirs = first(kind, one, seed, level), first(kind, other, seed, level)
                assert mine != theirs, (kind, seed, level)
                assert mine == first(kind, one, seed, level)  # the same link, the same drill


@pytest.mark.parametrize(("one", "other"), SHARED, ids=[f"{a}+{b}" for a, b in SHARED])
def test_the_pages_show_different_drills(one, other):
    """What the pages draw (the drill player in each lesson), not only the seeds."""
    for kind in set(DRILLS[one]) & set(DRILLS[other]):
        if KINDS[kind].advice:
            continue  # the coach's drills search for seconds: their seeds are compared above
        for seed in range(0, 6):
            shown = [DrillPlayer(kind, seed=seed, lesson=slug, lang="en").drill for slug in (one, other)]
            assert shown[0] is not None and shown[1] is not None
            seen = [(d.question, d.hand, d.table, d.shown) for d in shown]
            assert seen[0] != seen[1], (kind, seed)


def test_a_player_outside_the_lessons_starts_on_the_links_seed():
    """A drill player on its own (``DrillPlayer("follow", seed=7)``) shows drill 7 first: its
    link names a drill, not a lesson's sequence."""
    assert visit_seed(7, 0, "follow") == 7
    assert DrillPlayer("follow", seed=7, lang="en").drill == generate("follow", 7, 1)
