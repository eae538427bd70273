"""The course inside JupyterLab: a real JupyterLab server, notebooks run in chromium.

* The drill player works the same as in Voila: an answer checked by the kernel (a plain
  JupyterLab, nothing of the course's configuration).
* A teacher's JupyterLab (``./dev lab``: ``deploy/jupyter_server_config.py`` with
  ``QD_SERVER_LAB=1``, as a teacher's server under the hub has it) opens a lesson
  unchanged (its tab not marked as changed once the kernel is connected), and after Run All
  and Save every lesson file is byte for byte what it was, not even rewritten; the page
  logs no error (no JupyterLite-only extension loaded).
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from voila_serve import REPO, free_port

from tutor.teach.drills import generate

SEED = 3  # a yes/no follow drill: "May you follow with …?"
LESSON = "05-following.ipynb"


@contextlib.contextmanager
def _jupyterlab(root: Path, log: Path, *launcher: str) -> Iterator[str]:
    """A JupyterLab server on ``root`` (started from the repository root by ``launcher``, a
    plain ``jupyter lab`` by default), its base URL. Its workspace and settings are its own
    (beside ``log``): JupyterLab would otherwise reopen another server's notebooks, and 404 on them."""
    port = free_port()
    state = log.with_suffix(".state")
    lab = list(launcher) or [str(Path(sys.executable).with_name("jupyter-lab"))]
    # A plain jupyter lab is told it may run as root (CI and containers run as root); ./dev lab
    # is not: the course's own configuration lets it (tutor.server.lab), as a teacher runs it.
    root_flag = [] if launcher else ["--allow-root"]
    command = [*lab, *root_flag, "--no-browser", f"--port={port}", "--ServerApp.token=", "--ServerApp.password=",
               f"--ServerApp.root_dir={root}", "--ip=127.0.0.1",
               f"--LabApp.workspaces_dir={state / 'workspaces'}", f"--LabApp.user_settings_dir={state / 'settings'}",
               "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, cwd=REPO)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(base + "/api/status", timeout=5):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("JupyterLab did not start:\n" + log.read_text("utf-8", "replace"))
                time.sleep(0.5)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("lab")
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                       "language": "python"}
    notebook.cells.append(nbformat.v4.new_code_cell(f'from widgets import DrillPlayer\nDrillPlayer("follow", seed={SEED})'))
    nbformat.write(notebook, root / "drill.ipynb")
    with _jupyterlab(root, root / "lab.log") as base:
        yield base


@pytest.fixture(scope="module")
def teachers_lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A teacher's JupyterLab on a copy of the lessons (the repository's own are never
    opened here: others may be editing them): its base URL and the copy's folder."""
    root = tmp_path_factory.mktemp("teachers-lab") / "lessons"
    shutil.copytree(REPO / "lessons", root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    with _jupyterlab(root, root.parent / "lab.log", str(REPO / "dev"), "lab") as base:  # as the README says
        yield base, root


def test_drill_player_in_jupyterlab(lab: str, context: Any, screenshot: Any) -> None:
    drill = generate("follow", SEED, 1)
    right = next(iter(drill.correct))  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{lab}/lab/tree/drill.ipynb", timeout=90_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell .jp-InputArea-editor", timeout=90_000)
    # Run the cell once the kernel is idle (the status bar says so).
    page.wait_for_function("document.querySelector('.jp-StatusBar-Widget') !== null && "
                           "/Idle/.test(document.body.innerText)", timeout=90_000)
    for _ in range(3):
        page.click(".jp-Cell .jp-InputArea-editor")
        page.keyboard.press("Shift+Enter")
        try:
            page.wait_for_selector("[data-qd=drill]", timeout=20_000)
            break
        except Exception:  # noqa: BLE001 - the first keypress can land before the editor is ready
            continue
    page.wait_for_selector("[data-qd=drill]", timeout=10_000)
    question = page.locator("[data-qd=question]").inner_text()
    assert question == drill.question
    label = next(c.label for c in drill.choices if c.key == right)
    page.locator(f"[data-qd=drill] .qd-choice[data-key=\"{right}\"]").click()
    assert label
    page.click("[data-qd=check]")
    feedback = page.locator("[data-qd=feedback]")
    feedback.wait_for(state="visible")
    page.wait_for_function("document.querySelector('[data-qd=drill]').dataset.checked !== undefined")
    text = feedback.inner_text()
    assert f"Rule {drill.rule}" in text, text  # type: ignore[attr-defined]
    assert "Right." in text, text
    screenshot(page, "jupyterlab")


def _files(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every notebook under ``root``: its bytes and its modification time."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(root.glob("*.ipynb"))}


def _dirty(page: Any) -> bool:
    tab = page.locator(f"li.lm-TabBar-tab:has-text('{LESSON}')").first
    return "jp-mod-dirty" in (tab.get_attribute("class") or "")


def _menu(page: Any, menu: str, command: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=menu).first.click()
    page.locator(f"li.lm-Menu-item[data-command='{command}']").first.click()


def test_lesson_opens_runs_and_saves_unchanged_in_a_teachers_jupyterlab(
        teachers_lab: tuple[str, Path], context: Any, screenshot: Any) -> None:
    base, root = teachers_lab
    before = _files(root)
    page = context.new_page()
    messages: list[tuple[str, str]] = []
    page.on("console", lambda message: messages.append((message.type, message.text)))
    page.on("pageerror", lambda error: messages.append(("pageerror", str(error))))
    page.goto(f"{base}/lab/tree/{LESSON}", timeout=90_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
    # Opened: the kernel connected (its language_info is what JupyterLab would write), and then some.
    page.wait_for_function("document.querySelector('.jp-StatusBar-Widget') !== null && "
                           "/Idle/.test(document.body.innerText)", timeout=90_000)
    page.wait_for_timeout(3000)
    assert not _dirty(page), "the lesson opened marked as changed"

    # Run every cell: the teacher's tab now holds outputs (marked changed), then save it.
    _menu(page, "Run", "runmenu:run-all")
    page.wait_for_function("""() => {
        const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
        return prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
    }""", timeout=120_000)
    page.wait_for_function("/Idle/.test(document.querySelector('.jp-StatusBar-Widget')?.innerText ?? '')"
                           " || /Idle/.test(document.body.innerText)", timeout=60_000)
    assert page.locator(".jp-OutputArea-output").count() > 0, "Run All showed nothing"
    assert _dirty(page), "running the lesson should mark the tab changed (its outputs)"
    screenshot(page, "ran")
    _menu(page, "File", "docmanager:save")
    deadline = time.monotonic() + 30
    while _dirty(page) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert not _dirty(page), "the save did not go through"
    screenshot(page, "saved")

    after = _files(root)
    changed = [name for name in before if after.get(name) != before[name]]
    assert not changed, f"JupyterLab changed (or rewrote) {changed}"
    assert set(after) == set(before)
    assert not [t for _, t in messages if "Shared module" in t]
    errors = [f"{kind}: {text[:300]}" for kind, text in messages if kind in ("error", "pageerror")]
    assert not errors, errors
