"""The lessons are stored as the repository keeps them, and a teacher's JupyterLab keeps
them so (``tutor/server/notebooks.py``).

* Every notebook in ``lessons/`` is byte for byte its stored form: what Jupyter writes, with
  no outputs, execution counts or timings, widget state, or the kernel's version. (A
  notebook that is not: ``python -m tutor.server.notebooks lessons/NAME.ipynb`` rewrites it.)
* The teacher's contents manager hands out a lesson with exactly the ``language_info`` a
  kernel of this server reports (a real kernel is asked), so JupyterLab has nothing to
  change when the kernel connects and the lesson opens unchanged.
* Saving a lesson that was run but not edited writes nothing (the file's bytes and mtime
  stay); saving an edit writes the edit and no output.

The browser's side of it (the tab not marked changed, Run All then Save) is
``tests/browser/test_jupyterlab.py``.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
import copy
import os
import shutil
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tutor.server.notebooks import LessonContents, kernel_language_info, main, stored_text

REPO = Path(__file__).resolve().parents[1]
LESSONS = sorted((REPO / "lessons").glob("*.ipynb"))
LESSON = "05-following.ipynb"


def run(coroutine: Any) -> Any:
    """``coroutine``'s result, run on a thread of its own (another test may leave this
    thread's event loop running)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.mark.parametrize("path", LESSONS, ids=[p.name for p in LESSONS])
def test_lesson_is_stored_in_its_stored_form(path: Path) -> None:
    raw = path.read_bytes()
    text = raw.decode("utf-8")
    notebook = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
    assert (notebook.nbformat, notebook.nbformat_minor) == (4, 5), "JupyterLab would upgrade it"
    assert all("id" in cell for cell in notebook.cells), "JupyterLab would give its cells ids"
    assert stored_text(notebook).encode("utf-8") == raw, (
        f"{path.name} is not in its stored form: python -m tutor.server.notebooks lessons/{path.name}")


def _ran(notebook: Any) -> Any:
    """``notebook`` as JupyterLab holds it after Run All: outputs, counts, timings, widget state."""
    ran = copy.deepcopy(notebook)
    count = 0
    for cell in ran.cells:
        if cell.cell_type == "code":
            count += 1
            cell.execution_count = count
            cell.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": str(count)}, execution_count=count)]
            cell.metadata["execution"] = {"iopub.status.busy": "2026-12-04T10:00:00.000Z"}
    ran.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}, "version_major": 2,
                                                                             "version_minor": 0}}
    return ran


@pytest.fixture()
def contents(tmp_path: Path) -> LessonContents:
    shutil.copy(REPO / "lessons" / LESSON, tmp_path / LESSON)
    return LessonContents(root_dir=str(tmp_path))


def test_lesson_opens_with_its_kernels_language_info(contents: LessonContents) -> None:
    model = run(contents.get(LESSON))
    assert model["content"]["metadata"]["language_info"] == kernel_language_info()
    assert model["content"]["metadata"]["kernelspec"]["name"] == "python3"


@pytest.mark.slow
def test_kernel_reports_the_language_info_the_lesson_opens_with() -> None:
    # What JupyterLab writes into the notebook when its kernel connects: the kernel_info reply's.
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        reply = client.kernel_info(reply=True, timeout=60)
        assert reply["content"]["language_info"] == kernel_language_info()
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_saving_a_run_lesson_writes_nothing(contents: LessonContents, tmp_path: Path) -> None:
    path = tmp_path / LESSON
    before, stamp = path.read_bytes(), path.stat().st_mtime_ns
    opened = run(contents.get(LESSON))
    model = {"type": "notebook", "format": "json", "content": _ran(opened["content"])}
    saved = run(contents.save(model, LESSON))
    assert path.read_bytes() == before
    assert path.stat().st_mtime_ns == stamp, "the file was written"
    assert saved["last_modified"] == opened["last_modified"]
    assert not (tmp_path / ".ipynb_checkpoints").exists() or not os.listdir(tmp_path / ".ipynb_checkpoints")


def test_saving_an_edit_writes_the_edit_without_outputs(contents: LessonContents, tmp_path: Path) -> None:
    opened = run(contents.get(LESSON))
    edited = _ran(opened["content"])
    markdown = next(cell for cell in edited.cells if cell.cell_type == "markdown")
    markdown.source += "\n\nA teacher's note."
    run(contents.save({"type": "notebook", "format": "json", "content": edited}, LESSON))
    text = (tmp_path / LESSON).read_text("utf-8")
    assert "A teacher's note." in text
    stored = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
    assert stored_text(stored) == text
    assert all(cell.outputs == [] and cell.execution_count is None for cell in stored.cells if cell.cell_type == "code")
    assert stored.metadata.language_info == {"name": "python"}
    assert "widgets" not in stored.metadata


def test_normaliser_rewrites_only_what_is_not_stored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = tmp_path / "good.ipynb", tmp_path / "bad.ipynb"
    shutil.copy(REPO / "lessons" / LESSON, good)
    notebook = nbformat.read(good, as_version=nbformat.NO_CONVERT)
    bad.write_text(nbformat.writes(_ran(notebook)) + "\n", "utf-8")
    stamp = good.stat().st_mtime_ns
    assert main(["--check", str(good), str(bad)]) == 1
    assert "bad.ipynb" in capsys.readouterr().out
    assert main([str(good), str(bad)]) == 0
    assert good.stat().st_mtime_ns == stamp
    assert bad.read_text("utf-8") == good.read_text("utf-8")
