"""Each lesson drills what its text teaches: the drill kinds a lesson offers
(``tutor.teach.course.LESSONS``, which its practice cell shows) are among the kinds its own
markdown teaches, and a kind is taught by a lesson only when the lesson cites at least
one rule that kind practises (``tutor.teach.drills.KINDS``)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tutor.teach.course import LESSONS, lesson
from tutor.teach.drills import KINDS

LESSON_DIR = Path(__file__).resolve().parent.parent / "lessons"

TEACHES = {
    "00-welcome": {"follow"},  # W3, the first rule, tried with the card picker
    "01-cards": {"points"},  # C3
    "02-trumps": {"trick"},  # T4–T6: which card is higher
    "03-declaring": {"declare"},  # D1–D6
    "04-tractors": {"tractor"},  # M1–M3
    "05-following": {"follow"},  # W0–W6
    "06-ruffing": {"ruff", "trick"},  # R1–R5, B1–B3
    "07-throws": {"throw"},  # L1–L5
    "08-friend": {"friend"},  # F1–F6
    "09-scoring": {"score"},  # X1–X2, S1–S4
    "10-play": set(),  # a whole hand at the table, no drills
    "11-playing-well": {"count", "advice"},  # C3, W2; the coach's advice, said to be advice
}
"""Lesson → the drill kinds its text teaches."""

_RULE = re.compile(r"\b([A-Z])(\d)\b(?:\s*[–-]\s*(?:\1)?(\d)\b)?")


def markdown(slug: str) -> str:
    """A lesson's markdown, every cell."""
    notebook = nbformat.read(LESSON_DIR / f"{slug}.ipynb", as_version=4)
    return "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")


def cited(slug: str) -> set[str]:
    """The rule IDs a lesson's markdown cites (``D1–D5`` cites D1 … D5)."""
    rules = set()
    for letter, first, last in _RULE.findall(markdown(slug)):
        rules.update(f"{letter}{n}" for n in range(int(first), int(last or first) + 1))
    return rules


def test_every_lesson_is_mapped():
    assert set(TEACHES) == {info.slug for info in LESSONS}
    assert all(kinds <= set(KINDS) for kinds in TEACHES.values())


@pytest.mark.parametrize("slug", list(TEACHES))
def test_the_mapping_is_the_notebooks(slug):
    for kind in TEACHES[slug]:
        if KINDS[kind].advice:  # the coach's drills rest on no rule: the lesson must say they are advice
            assert "advice, not a rule" in markdown(slug).lower(), f"{slug} does not say its {kind} drills are advice"
        else:
            assert cited(slug) & set(KINDS[kind].rules), f"{slug} cites none of the rules of {kind} drills"


@pytest.mark.parametrize("slug", list(TEACHES))
def test_a_lesson_drills_what_it_teaches(slug):
    offered = set(lesson(slug).drills)
    assert offered <= TEACHES[slug], f"{slug} offers {sorted(offered - TEACHES[slug])} drills it does not teach"
    notebook = nbformat.read(LESSON_DIR / f"{slug}.ipynb", as_version=4)
    practice = [cell.source for cell in notebook.cells if "practice(" in cell.source]
    assert bool(offered) == bool(practice) and all(f'practice("{slug}")' in source for source in practice)


def test_the_check_catches_a_kind_taught_later():
    assert not cited("01-cards") & set(KINDS["score"].rules)
    assert not cited("08-friend") & set(KINDS["score"].rules)
