"""One idea, one try, one check: every lesson section that introduces a rule a drill can
ask about ends with a quick check — one drill question (``widgets.check.quick_check``)
right after the explanation, before the next section — and the question is about that
section's rule. The end-of-lesson drills stay as the review.

A section is a markdown cell starting ``## `` whose heading cites rule IDs, up to the
next ``## `` heading. Sections whose rules no drill asks about are listed in
:data:`NO_DRILL` with the reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from tutor.teach.course import LESSONS, lesson
from tutor.teach.drills import KINDS, generate
from widgets.check import quick_check

LESSON_DIR = Path(__file__).resolve().parent.parent / "lessons"
MAX_AFTER = 12
"""A check comes at most this many cells after its section's heading."""
_RULE = re.compile(r"\b([A-Z])(\d)\b(?:\s*[–-]\s*(?:\1)?(\d)\b)?")

NO_DRILL = {
    "C1", "C2", "C4", "N1", "N2", "N3",  # the pack, the deal, the seats, card notation: shown, typed in the picker
    "T1", "T2", "T3",  # the level, which cards are trumps, effective suit: every later check rests on them
    "D1", "D4", "D5",  # declaring and the declaration count: no drill asks them alone (D2, D3, D6 are checked)
    "M3",  # a tractor's length and rank: no drill asks it alone
    "L1", "L2",  # what may be led, the split: the throw checks (L3–L5) split every throw
    "K1", "F4", "F5",  # burying, the solo: no drill asks them
    "B2", "B3",  # after the trick: no drill asks them
}
"""Rules no drill asks about, so their sections need no check."""

RELATED = {"T4": {"B1"}, "T5": {"B1"}, "W0": {"W2"}, "W1": {"W2"}, "R4": {"R5"}, "D2": {"D3"}, "F2": {"F1"}}
"""A section's rule → the rules a drill checking it may be decided by: who wins a trick
turns on the order of cards (T4, T5); a follow picked from the hand is a follow of your
own cards, as many as led (W0, W1); a pair ruff over-ruffed is ranked as R4 says; whether
you can overturn is the ladder of D2; calling a card names the friend of F2."""


def rules_of(text: str) -> set[str]:
    """The rule IDs ``text`` cites (``N1–N3`` cites N1, N2, N3)."""
    found: set[str] = set()
    for letter, first, last in _RULE.findall(text):
        found.update(f"{letter}{n}" for n in range(int(first), int(last or first) + 1))
    return found


def sections(slug: str) -> list[tuple[int, set[str], list[nbformat.NotebookNode]]]:
    """Each ``## `` section of a lesson: its heading's index, the rules its heading cites
    and its cells (the heading first)."""
    cells = nbformat.read(LESSON_DIR / f"{slug}.ipynb", as_version=4).cells
    heads = [i for i, c in enumerate(cells) if c.cell_type == "markdown" and c.source.startswith("## ")]
    return [(i, rules_of(cells[i].source.splitlines()[0]), cells[i:end])
            for i, end in zip(heads, heads[1:] + [len(cells)])]


def quick_checks(cells: list[nbformat.NotebookNode]) -> list[tuple[int, tuple[str, int, int]]]:
    """The quick checks among ``cells``: (position, (kind, level, seed)), read from the code."""
    found = []
    for position, cell in enumerate(cells):
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "quick_check":
                kind = ast.literal_eval(node.args[0])
                options = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
                found.append((position, (kind, options["level"], options["seed"])))
    return found


CHECKED = [(info.slug, head, rules) for info in LESSONS for head, rules, _ in sections(info.slug)
           if rules - NO_DRILL]


def test_every_lesson_with_rules_has_checks() -> None:
    slugs = {slug for slug, _, _ in CHECKED}
    assert slugs == {info.slug for info in LESSONS if info.rules or info.drills} - {"10-play"}
    assert len(CHECKED) >= 30


@pytest.mark.parametrize(("slug", "head", "rules"), CHECKED, ids=[f"{s}-{'-'.join(sorted(r))}" for s, _, r in CHECKED])
def test_a_rule_section_ends_with_a_check_of_its_rule(slug: str, head: int, rules: set[str]) -> None:
    _, _, cells = next(s for s in sections(slug) if s[0] == head)
    checks = quick_checks(cells)
    assert checks, f"{slug}: the section {cells[0].source.splitlines()[0]!r} has no quick check"
    position, (kind, level, seed) = checks[-1]
    assert position <= MAX_AFTER, f"{slug}: the check comes {position} cells after the heading"
    lead_in = cells[position - 1]
    assert lead_in.cell_type == "markdown" and lead_in.source.startswith("**Quick check (")
    assert rules_of(lead_in.source) & rules, lead_in.source
    allowed = set(rules).union(*(RELATED.get(r, set()) for r in rules))
    assert kind in lesson(slug).drills or set(KINDS[kind].rules) & allowed
    for lang in ("en", "zh-Hans", "zh-Hant"):
        drill = generate(kind, seed, level, lang=lang)
        cited = rules_of(drill.explain) | {drill.rule}
        assert cited & allowed, (slug, sorted(rules), drill.rule, drill.explain)


@pytest.mark.parametrize("slug", [info.slug for info in LESSONS])
def test_a_check_keeps_its_answers_under_its_lesson(slug: str) -> None:
    """Every quick check of a lesson names that lesson, so its answers reach the home page
    and the teacher's table (an answer kept under its kind alone counts for no lesson), and
    it still opens on the very drill the lesson's text chose (its seed, its rule)."""
    cells = nbformat.read(LESSON_DIR / f"{slug}.ipynb", as_version=4).cells
    for cell in cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "quick_check":
                options = {k.arg: ast.literal_eval(k.value) for k in node.keywords}
                assert options.get("lesson") == slug, cell.source
                kind = ast.literal_eval(node.args[0])
                player = quick_check(kind, level=options["level"], seed=options["seed"], lesson=slug)
                assert player.lesson == slug and player.drill == generate(kind, options["seed"], options["level"])


@pytest.mark.parametrize("slug", [info.slug for info in LESSONS if info.drills])
def test_a_lessons_checks_never_show_the_same_question_twice(slug: str) -> None:
    """A lesson's quick checks open on different drills, and stay different when the
    learner asks each for another at a level of their choice (two checks of one kind with
    one seed made the same drills from there: lesson 03 showed one kitty flip twice)."""
    cells = nbformat.read(LESSON_DIR / f"{slug}.ipynb", as_version=4).cells
    checks = [spec for _, spec in quick_checks(cells)]
    for level in (None, 1, 2, 3):
        shown = []
        for kind, first, seed in checks:
            player = quick_check(kind, level=first, seed=seed, lesson=slug)
            if level is not None:
                player.choose_level(level)
            assert player.drill is not None
            shown.append(player.drill)
        assert all(a != b for i, a in enumerate(shown) for b in shown[i + 1:]), (slug, level)


def test_checks_come_after_the_explanation_not_instead() -> None:
    """A check follows at least one cell of explanation or example in its section, and the
    lesson still ends with its practice (the review)."""
    for slug, head, _ in CHECKED:
        _, _, cells = next(s for s in sections(slug) if s[0] == head)
        position, _ = quick_checks(cells)[-1]
        assert position >= 2, f"{slug}: a check straight under its heading"
    for info in LESSONS:
        if info.drills:
            source = nbformat.read(LESSON_DIR / f"{info.slug}.ipynb", as_version=4).cells
            assert any(f'practice("{info.slug}")' in c.source for c in source)


def test_the_reader_catches_a_section_without_a_check() -> None:
    cells = [nbformat.v4.new_markdown_cell("## Follow suit (W2)\n\nPlay the led suit."),
             nbformat.v4.new_code_cell('follow("♠A ♥3", "♠5", "♥3")')]
    assert rules_of(cells[0].source.splitlines()[0]) == {"W2"} and quick_checks(cells) == []
