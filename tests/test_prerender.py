"""A lesson's static examples drawn once (tutor/teach/prerender.py): which cells, and that a page
drawn so runs to the same result as the whole lesson run for each learner."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tutor.teach import prerender
from tutor.teach.localize import LIVE_TAG, READING_CELL, localize

LESSONS = Path(__file__).resolve().parents[1] / "lessons"
NUMBERED = [path.stem for path in prerender.lesson_notebooks(LESSONS)]
_MODEL_ID = re.compile(r'"model_id": "[0-9a-f]+"|at 0x[0-9a-f]+|"execution_count": \d+')


def page(slug: str, language: str = "en") -> Any:
    return localize(nbformat.read(LESSONS / f"{slug}.ipynb", as_version=4), slug, language)


@pytest.mark.parametrize("sources, expected", [
    (["x = 1", "show(x)"], {1}),
    (["x = 1", "show(x)", "x = 2", "show(x)"], {1, 3}),  # rebinding after the last read of the first x
    (["def f():\n    return g", "show(f())"], {1}),
    (["for card in cards:\n    show(card)", "show(card)"], {1}),  # the loop's name is read later
    (["import os", "os.getcwd()"], {1}),
    (["game.seat = 2", "show(game)"], {1}),  # changed in place: never left out
    (["d['k'] = 1", "show(d)"], {1}),
    (["global x\nx = 1", "show(x)"], {1}),
    (["x = (", "show(1)", "y = 1"], {1, 2}),  # unreadable code: nothing before it is left out
    (["show(1)", "x = (", "show(2)"], {2}),
    (["y = 1", "game.seat = y", "show(3)"], {2}),  # a change in place reads y: its cell stays
    (["show(1)", "def f():\n    out.value = 2", "show(3)"], {0, 2}),  # what it reads is known
    (["", "show(1)"], {1}),
])
def test_which_cells_may_be_drawn_once(sources: list[str], expected: set[int]) -> None:
    assert prerender.static_candidates(sources) == expected


@pytest.mark.parametrize("outputs, html", [
    ([{"output_type": "display_data", "data": {"text/html": "<b>a</b>", "text/plain": "a"}}], "<b>a</b>"),
    ([{"output_type": "display_data", "data": {"text/html": ["<b>", "a</b>"]}},
      {"output_type": "execute_result", "data": {"text/html": "<i>b</i>"}}], "<b>a</b><i>b</i>"),
    ([{"output_type": "display_data", "data": {"text/plain": "a"}}], None),
    ([{"output_type": "display_data", "data": {"text/html": "w", "application/vnd.jupyter.widget-view+json": {}}}],
     None),
    ([{"output_type": "stream", "name": "stdout", "text": "a"}], None),
    ([{"output_type": "error", "ename": "E", "evalue": "", "traceback": []}], None),
    ([], None),
])
def test_only_html_outputs_are_kept(outputs: list[dict[str, Any]], html: str | None) -> None:
    assert prerender.static_html(outputs) == html


def test_an_output_is_used_only_for_the_source_it_came_from() -> None:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("show(1)", id="a"),
                                               nbformat.v4.new_code_cell("show(2)", id="b")])
    drawn = {"cells": {"a": {"source": prerender.source_key("show(1)"), "html": "<p>one</p>\n\n<p>1</p>"},
                       "b": {"source": prerender.source_key("show(2) # edited since"), "html": "<p>two</p>"}}}
    done = prerender.apply(notebook, drawn)
    assert [c.cell_type for c in done.cells] == ["markdown", "code"]
    assert done.cells[0].id == "a" and "\n\n" not in done.cells[0].source
    assert done.cells[0].source.startswith(f'<div class="{prerender.STATIC_CLASS}">')
    assert prerender.apply(notebook, None) is notebook
    assert [c.cell_type for c in notebook.cells] == ["code", "code"]  # the notebook given is left as it was


def test_a_page_reads_before_python_and_marks_where_drills_will_stand() -> None:
    lesson = page("05-following", "zh-Hant")
    assert lesson.cells[0].id == READING_CELL and "#rendered_cells{display:block!important}" in lesson.cells[0].source
    assert "準備" in lesson.cells[0].source
    live = {c.id for c in lesson.cells if LIVE_TAG in c.get("metadata", {}).get("tags", [])}
    assert {"check-w0-w1-drill", "practice-drills"} <= live
    assert "w0w1-code" not in live  # definitions only: nothing is shown there


def outputs_of(notebook: Any) -> dict[str, str]:
    """Each code cell's outputs, with what differs between runs (widget ids, addresses, the
    count of cells run before) left out."""
    return {cell.id: _MODEL_ID.sub("", json.dumps(cell.outputs, sort_keys=True))
            for cell in notebook.cells if cell.cell_type == "code"}


@pytest.mark.slow
@pytest.mark.parametrize("slug", NUMBERED)
def test_a_drawn_page_runs_as_the_whole_lesson(slug: str, tmp_path: Path) -> None:
    """The lesson drawn once, then its page run as a learner's kernel runs it: no error, and
    every cell still run shows what it shows in the whole lesson — so no cell left out
    defined anything the rest needs."""
    from nbclient import NotebookClient

    whole = page(slug)
    drawn = prerender.render(whole)
    assert slug == "10-play" or drawn["cells"], "a lesson with examples has some drawn once"
    full = page(slug)
    NotebookClient(full, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute(
        env={"QUERY_STRING": ""})
    light = prerender.apply(page(slug), drawn)
    NotebookClient(light, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute(
        env={"QUERY_STRING": ""})
    ran, whole_run = outputs_of(light), outputs_of(full)
    assert set(ran) == set(whole_run) - set(drawn["cells"])
    for cell_id, outputs in ran.items():
        assert outputs == whole_run[cell_id], cell_id
    for cell in light.cells:  # a drawn cell shows the very HTML the whole run showed
        if cell.id in drawn["cells"]:
            shown = next(c for c in full.cells if c.id == cell.id)
            assert prerender.static_html(shown.outputs) == drawn["cells"][cell.id]["html"]
