"""A hostile link opens its page with a note, never an error cell.

Each page that reads its link (the lessons, a teacher's positions, a lesson sheet) is
executed in a real kernel (nbclient) with the query string Voila would hand it
(``QUERY_STRING``): superscript and Arabic-Indic digits, seeds of 110 and 5,000 digits, junk
parameters, a 5,000-character query. Every cell must run without an error, the ignored
parameters must show as notes, and no Python words may reach the page.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
PYTHON_WORDS = ("Traceback", "invalid literal", "Exceeds the limit", "Error", "object has no attribute")

CASES = [
    ("00-welcome", "seed=²"),
    ("05-following", "seed=٣&level=²&kind=follow"),
    ("06-ruffing", "seed=" + "9" * 5000 + "&kind=" + "x" * 3000 + "&level=3"),
    ("10-play", "seed=" + "9" * 110),
    ("10-play", "seed=²&lang=" + "%ff" * 100),
    ("index", "lang=xx&" + "a=1&" * 1200),
    ("positions", "seed=²"),
    ("positions", "seed=" + "9" * 5000 + "&position=" + "%ff" * 3000),
    ("sheet", "seed=²&level=-1&x=1"),
]


@pytest.mark.parametrize("slug, query", CASES, ids=[f"{slug}-{i}" for i, (slug, _) in enumerate(CASES)])
def test_a_hostile_link_gives_notes_not_errors(slug: str, query: str) -> None:
    notebook = nbformat.read(REPO / "lessons" / f"{slug}.ipynb", as_version=4)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(REPO / "lessons")}})
    started = time.monotonic()
    client.execute(env={**os.environ, "QUERY_STRING": query})
    assert time.monotonic() - started < 120
    shown = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            assert output.get("output_type") != "error", f"{slug}: {output.get('ename')}: {output.get('evalue')}"
            assert output.get("name") != "stderr", f"{slug}: stderr {output.get('text', '')[:300]}"
            for value in output.get("data", {}).values():
                shown.append(value if isinstance(value, str) else str(value))
    for state in notebook.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}) \
            .get("state", {}).values():
        shown.append(str({k: v for k, v in state.get("state", {}).items() if not k.startswith("_")}))  # not the JS
    page = "\n".join(shown)
    for words in PYTHON_WORDS:
        assert words not in page, f"{slug}: {words!r} on the page"
    if slug != "index":
        assert "qd-link-note" in page and "Ignored" in page, f"{slug}: no note for the ignored parameters"
