"""Lessons import from the public faces only: the rules from ``tutor`` (or ``tutor.rules`` for
a name only it exports), play from ``tutor.play``, teaching from ``tutor.teach``, i18n from
``tutor.core``, widgets from ``widgets`` — besides the standard library, IPython and
ipywidgets. A module path deeper than these (``tutor.rules.game``, ``widgets.views``) ties a
lesson to where a name happens to live today.

Every code cell of every notebook in ``lessons/`` is parsed (nothing is run), and every
``import`` counts, at the top or inside a function.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import nbformat
import pytest

import tutor
import tutor.core
import tutor.play
import tutor.rules
import tutor.teach
import widgets

LESSONS = Path(__file__).resolve().parent.parent / "lessons"
NOTEBOOKS = sorted(LESSONS.glob("*.ipynb"))

PUBLIC = {"tutor": tutor, "tutor.rules": tutor.rules, "tutor.play": tutor.play, "tutor.teach": tutor.teach,
          "tutor.core": tutor.core, "widgets": widgets}
"""The project's public faces a lesson may import from, and the packages behind them."""
OTHERS = {"IPython", "ipywidgets"}
"""Packages a lesson may use besides the project's and the standard library: the notebook's own."""


def imports(source: str) -> Iterator[tuple[str, tuple[str, ...], int]]:
    """``(module, names imported from it, line)`` for every import in a cell's code (an
    ``import x.y`` imports no names)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, (), node.lineno
        elif isinstance(node, ast.ImportFrom):
            yield "." * node.level + (node.module or ""), tuple(alias.name for alias in node.names), node.lineno


def problems(source: str) -> Iterator[str]:
    """What is wrong with a cell's imports, one sentence each."""
    for module, names, line in imports(source):
        top = module.split(".")[0]
        if module in PUBLIC:
            package = PUBLIC[module]
            missing = [name for name in names if name != "*" and name not in package.__all__]
            if missing:
                yield f"line {line}: {module} does not export {', '.join(missing)} (add it to its __all__)"
            if module == "tutor.rules":
                also = [name for name in names if name in tutor.__all__]
                if also:
                    yield f"line {line}: import {', '.join(also)} from tutor, the rules' public face"
        elif top in ("tutor", "widgets") or not top:
            faces = " or ".join(face for face in PUBLIC if face.split(".")[0] == (top or "tutor"))
            yield f"line {line}: imports from {module}; import from the public face ({faces}) instead"
        elif top not in OTHERS and top not in sys.stdlib_module_names:
            yield f"line {line}: imports {module}, which is not the standard library, IPython or ipywidgets"


def cells(path: Path) -> list[nbformat.NotebookNode]:
    return [cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[path.stem for path in NOTEBOOKS])
def test_a_lesson_imports_only_public_names(path: Path) -> None:
    found = [f"{cell.id}, {problem}" for cell in cells(path) for problem in problems(cell.source)]
    assert not found, f"{path.stem} imports past the public API:\n" + "\n".join(found)


def test_every_lesson_is_read() -> None:
    assert {"00-welcome", "05-following", "11-playing-well", "index", "sheet"} <= {path.stem for path in NOTEBOOKS}
    assert all(cells(path) for path in NOTEBOOKS)


@pytest.mark.parametrize("source, wrong", [
    ("from tutor.rules.game import Phase", "public face (tutor or tutor.rules or"),
    ("from widgets.views import row", "public face (widgets)"),
    ("import tutor.teach.display", "imports from tutor.teach.display"),
    ("def f():\n    from tutor.play.coach import advise", "imports from tutor.play.coach"),
    ("from tutor.rules import Phase", "import Phase from tutor"),
    ("from tutor import shape_of", "tutor does not export shape_of"),
    ("import numpy", "not the standard library"),
    ("from . import x", "imports from ."),
])
def test_the_check_sees_a_deep_import(source: str, wrong: str) -> None:
    assert any(wrong in problem for problem in problems(source)), list(problems(source))


def test_the_check_lets_public_imports_be() -> None:
    source = ("import random\nimport ipywidgets as ipw\nfrom html import escape\nfrom IPython.display import HTML\n"
              "from tutor import Trump, check_follow\nfrom tutor.rules import shape_of\nfrom tutor.core import _\n"
              "from tutor.play import advise\nfrom tutor.teach import hand_html\nfrom widgets import Choose, quick_check")
    assert list(problems(source)) == []
