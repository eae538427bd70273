"""No raw Python on the page: every lesson, executed, shows its values as cards, labelled
tables or sentences, never as Python writes them.

Each lesson is run in a real kernel (nbclient), and every output is read: a result or
display with no HTML (``108``, ``([20, 20, 20, 20, 20], 8)``, ``{'declarer': -24, …}``),
anything printed, an error, and any HTML whose visible text reads like a Python value
(a list, a tuple, a dict, ``None``) or is a bare number with nothing saying what it
counts (a row's ``25``, ``×2``, ``20 × 4 = 80``) fails the lesson.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from html import unescape
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

from tools.catalogs import lesson_notebooks

NOTEBOOKS = lesson_notebooks()
_HIDDEN = re.compile(r"<(style|script)\b.*?</\1>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
_PYTHON = re.compile(r"\bNone\b|\{'|\[\s*-?\d|\(\s*-?\d+\s*,|\[\s*'")
"""Python's own writing of a value: ``None``, a dict, a list or a tuple of numbers."""
_SENTENCE = re.compile(r'<span style="max-width:38em">(.*?)</span>', re.S)
"""A sentence of a row (``widgets.views.row``)."""
_BARE = re.compile(r"[\s\d+\-−×=→.,:()%]*")
"""Text made only of numbers and signs: a value with no word saying what it is."""


def problems(cell: Any) -> Iterator[str]:
    """What in one executed cell's outputs is raw Python or an unlabelled number (these
    start with ``an unlabelled number``)."""
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream":
            yield f"printed text {output['text'][:80]!r}"
        elif kind == "error":
            yield f"an error {output['ename']}"
        elif kind in ("execute_result", "display_data"):
            data = output.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data:
                continue
            html = data.get("text/html")
            if html is None:
                yield f"a bare Python value {data.get('text/plain', '')[:80]!r}"
                continue
            for sentence in _SENTENCE.findall(html):
                text = unescape(_TAG.sub(" ", sentence)).strip()
                if text and _BARE.fullmatch(text) and any(c.isdigit() for c in text):
                    yield f"an unlabelled number {text!r}"
            visible = unescape(_TAG.sub(" ", _HIDDEN.sub(" ", html)))
            if found := _PYTHON.search(visible):
                yield f"Python's writing {visible[max(0, found.start() - 20):found.end() + 40].strip()!r}"


@cache
def run(path: Path) -> Any:
    """The lesson, executed (once for both tests)."""
    page = nbformat.read(path, as_version=4)
    NotebookClient(page, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return page


def found(path: Path, numbers: bool) -> list[str]:
    page = run(path)
    return [f"{cell.id}: {problem}" for cell in page.cells for problem in problems(cell)
            if problem.startswith("an unlabelled number") == numbers]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_lesson_shows_no_raw_python(path: Path) -> None:
    raw = found(path, numbers=False)
    assert not raw, f"raw Python in {path.stem}:\n" + "\n".join(raw)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_lesson_numbers_say_what_they_count(path: Path) -> None:
    bare = found(path, numbers=True)
    assert not bare, f"unlabelled numbers in {path.stem}:\n" + "\n".join(bare)


def test_the_check_catches_raw_python() -> None:
    def cell(*outputs: dict[str, Any]) -> dict[str, Any]:
        return {"outputs": list(outputs)}

    bare = cell({"output_type": "execute_result", "data": {"text/plain": "([20, 20, 20, 20, 20], 8)"}})
    printed = cell({"output_type": "stream", "name": "stdout", "text": "0 +40 +20 -20\n"})
    number = cell({"output_type": "display_data", "data": {
        "text/html": '<div><span style="max-width:38em">25</span></div>', "text/plain": "<HTML>"}})
    listed = cell({"output_type": "display_data", "data": {
        "text/html": '<div><span style="max-width:38em">[None, 1, None]</span></div>', "text/plain": "<HTML>"}})
    fine = cell({"output_type": "display_data", "data": {
        "text/html": '<div><span style="max-width:38em">25 points</span></div>', "text/plain": "<HTML>"}})
    assert all(list(problems(c)) for c in (bare, printed, number, listed)) and not list(problems(fine))
