"""The drill player works the same inside JupyterLab as in Voila: a real JupyterLab
server, a notebook run in chromium, an answer checked by the kernel."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from voila_serve import free_port

from tutor.teach.drills import generate

SEED = 3  # a yes/no follow drill: "May you follow with …?"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("lab")
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                       "language": "python"}
    notebook.cells.append(nbformat.v4.new_code_cell(f'from widgets import DrillPlayer\nDrillPlayer("follow", seed={SEED})'))
    nbformat.write(notebook, root / "drill.ipynb")
    port = free_port()
    log = root / "lab.log"
    lab = Path(sys.executable).with_name("jupyter-lab")
    command = [str(lab), "--allow-root", "--no-browser", f"--port={port}", "--ServerApp.token=",
               "--ServerApp.password=", f"--ServerApp.root_dir={root}", "--ip=127.0.0.1",
               "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT)
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
