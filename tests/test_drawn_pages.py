"""The served course draws its lessons' examples once, in the background (tutor/server/pages.py):
a lesson's page uses them once they are there, runs every cell before, and a lesson that
cannot run leaves its pages as they were."""

from __future__ import annotations

import time
from pathlib import Path

import nbformat

from tutor.teach import prerender
from tutor.server.pages import DrawnPages


def lesson(folder: Path, slug: str, *sources: str) -> Path:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source, id=f"c{i}")
                                               for i, source in enumerate(sources)])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = folder / f"{slug}.ipynb"
    nbformat.write(notebook, path)
    return path


def wait_for(pages: DrawnPages, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds
    while not pages.done and pages.drawing:
        assert time.monotonic() < deadline, "the drawing did not end"
        time.sleep(0.2)


def test_examples_are_drawn_in_the_background_once(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    lesson(lessons, "01-one", "from IPython.display import HTML", "HTML('<b>♠A</b>')", "x = 1")
    lesson(lessons, "index", "from IPython.display import HTML", "HTML('<b>home</b>')")  # not a numbered lesson
    pages = DrawnPages(lessons, tmp_path / "cache")
    assert pages.get("en", "01-one") is None  # nothing drawn yet: the page runs every cell
    pages.start()
    pages.start()  # once
    wait_for(pages)
    assert pages.done
    drawn = pages.get("zh-Hant", "01-one")
    assert drawn is not None and drawn["cells"]["c1"]["html"] == "<b>♠A</b>"
    assert set(drawn["cells"]) == {"c1"}
    assert pages.get("en", "index") is None
    # A server started later finds them drawn, and draws nothing.
    again = DrawnPages(lessons, tmp_path / "cache")
    assert again.done and again.folder == pages.folder
    again.start()
    assert not again.drawing
    # A changed lesson is another fingerprint: drawn anew, never shown stale.
    lesson(lessons, "01-one", "from IPython.display import HTML", "HTML('<b>♥K</b>')")
    assert DrawnPages(lessons, tmp_path / "cache").folder != pages.folder


def test_a_lesson_that_cannot_run_is_left_to_run_as_before(tmp_path: Path) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    lesson(lessons, "01-good", "from IPython.display import HTML", "HTML('<i>fine</i>')")
    lesson(lessons, "02-bad", "raise RuntimeError('broken lesson')")
    pages = DrawnPages(lessons, tmp_path / "cache")
    pages.start()
    wait_for(pages)
    assert not pages.done  # tried again at the next server's start
    assert pages.get("en", "02-bad") is None
    good = pages.get("en", "01-good")
    assert good is not None and good["cells"]["c1"]["html"] == "<i>fine</i>"
    assert prerender.apply(nbformat.v4.new_notebook(), None).cells == []
