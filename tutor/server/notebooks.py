"""The lessons as the repository keeps them, and the contents manager that keeps them so in
a teacher's JupyterLab.

A lesson is stored with what its author wrote and nothing that running it made: no outputs,
no execution counts, no execution timings, no saved widget state, and its kernel's language
named by its name only (``"language_info": {"name": "python"}``) — the rest of the kernel's
``language_info``, Python's version above all, belongs to the machine that ran it, not to the
lesson. :func:`stored_form` is that form and :func:`stored_text` the file's exact text
(as Jupyter writes a notebook: one space of indent, sorted keys, a final newline);
``tests/test_lesson_format.py`` checks that every lesson is stored so.

Why JupyterLab changed the lessons: when a notebook's kernel connects, JupyterLab writes the
kernel's ``language_info`` into the notebook's metadata. The stored one differs (it has no
version), so every lesson opened marked as changed, and the autosave then wrote it, with the
outputs of whatever the teacher ran, into ``lessons/``: a clean clone turned dirty in git.
:class:`LessonContents` — the contents manager of a teacher's server
(``deploy/jupyter_server_config.py``) — hands JupyterLab each notebook with its kernel's
``language_info`` already filled in (:func:`opened_form`), so a lesson opens unchanged, and
saves every notebook in its stored form, writing nothing at all when the file already holds
exactly that. A teacher's edits are saved; outputs never are.

>>> import nbformat
>>> nb = nbformat.v4.new_notebook(metadata={"language_info": {"name": "python"}})
>>> nb.cells.append(nbformat.v4.new_code_cell("1 + 1", id="one", execution_count=3,
...     outputs=[nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=3)]))
>>> opened = opened_form(nb)
>>> opened.metadata.language_info["name"], "version" in opened.metadata.language_info
('python', True)
>>> stored = stored_form(opened)
>>> stored.cells[0].outputs, stored.cells[0].execution_count, stored.metadata.language_info
([], None, {'name': 'python'})
"""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from functools import cache
from typing import Any, Final

import nbformat
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

__all__ = ["LessonContents", "kernel_language_info", "opened_form", "stored_form", "stored_text"]

RUN_METADATA: Final = ("execution",)
"""Cell metadata that running a cell writes (JupyterLab's execution timings)."""
NOTEBOOK_RUN_METADATA: Final = ("widgets",)
"""Notebook metadata that running the notebook writes (ipywidgets' saved widget state)."""


@cache
def kernel_language_info() -> dict[str, Any]:
    """The ``language_info`` a Python kernel of this server reports: ipykernel's, in this
    Python (the course's kernels are this Python's ipykernel, forked or started afresh).
    Asked of a child process: importing ``ipykernel.ipkernel`` here would make every widget
    of this process open a kernel's comm (ipykernel replaces ``comm.create_comm`` as it loads)."""
    asked = "import json; from ipykernel.ipkernel import IPythonKernel as K; print(json.dumps(dict(K.language_info)))"
    done = subprocess.run([sys.executable, "-c", asked], capture_output=True, text=True, check=True, timeout=60)
    info: dict[str, Any] = json.loads(done.stdout)
    return info


def stored_form(notebook: Any) -> Any:
    """A copy of ``notebook`` as the repository keeps a lesson: what its author wrote, and
    nothing a run of it left (outputs, execution counts and timings, widget state, the
    kernel's version)."""
    stored = nbformat.from_dict(copy.deepcopy(notebook))  # type: ignore[no-untyped-call]
    for cell in stored.get("cells", []):
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        for key in RUN_METADATA:
            cell.get("metadata", {}).pop(key, None)
    metadata = stored.setdefault("metadata", {})
    for key in NOTEBOOK_RUN_METADATA:
        metadata.pop(key, None)
    language = metadata.get("language_info")
    if isinstance(language, dict) and "name" in language:
        metadata["language_info"] = {"name": language["name"]}
    return stored


def stored_text(notebook: Any) -> str:
    """The text of ``notebook``'s file in its stored form, exactly as Jupyter's contents
    manager writes a notebook."""
    text = io.StringIO()
    nbformat.write(stored_form(notebook), text, version=nbformat.NO_CONVERT)  # type: ignore[no-untyped-call]
    return text.getvalue()


def opened_form(notebook: Any) -> Any:
    """A copy of ``notebook`` with the ``language_info`` its kernel will report (for a
    Python notebook), so that JupyterLab finds nothing to change when the kernel connects."""
    opened = nbformat.from_dict(copy.deepcopy(notebook))  # type: ignore[no-untyped-call]
    language = opened.get("metadata", {}).get("language_info")
    kernel = kernel_language_info()
    if isinstance(language, dict) and language.get("name") == kernel["name"]:
        opened["metadata"]["language_info"] = copy.deepcopy(kernel)
    return opened


class LessonContents(AsyncLargeFileManager):
    """Jupyter Server's contents manager, with notebooks read in their opened form and
    saved in their stored form (see the module's text); everything else as usual."""

    async def get(self, path: str, content: bool = True, type: str | None = None,
                  format: str | None = None, require_hash: bool = False) -> dict[str, Any]:
        model: dict[str, Any] = await super().get(  # type: ignore[no-untyped-call]
            path, content=content, type=type, format=format, require_hash=require_hash)
        if model.get("type") == "notebook" and model.get("content") is not None:
            model["content"] = opened_form(model["content"])
        return model

    async def save(self, model: dict[str, Any], path: str = "") -> dict[str, Any]:
        if model.get("type") == "notebook" and model.get("content") is not None:
            notebook = stored_form(model["content"])
            if self._holds(path, stored_text(notebook)):
                self.log.debug("%s is unchanged: not written", path)
                unchanged: dict[str, Any] = await self.get(path, content=False)
                return unchanged
            model = {**model, "content": notebook}
        saved: dict[str, Any] = await super().save(model, path)  # type: ignore[no-untyped-call]
        return saved

    def _holds(self, path: str, text: str) -> bool:
        """Whether the file at ``path`` holds exactly ``text`` already."""
        os_path: str = self._get_os_path(path.strip("/"))  # type: ignore[no-untyped-call]
        try:
            with open(os_path, "rb") as file:
                return file.read() == text.encode("utf-8")
        except OSError:
            return False


def main(argv: list[str] | None = None) -> int:
    """``python -m tutor.server.notebooks [--check] NOTEBOOK…``: rewrite each notebook in
    its stored form (only those that are not already); with ``--check``, only list them
    and exit 1 if there are any."""
    import argparse
    from pathlib import Path

    parser = argparse.ArgumentParser(prog="python -m tutor.server.notebooks", description=main.__doc__)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a notebook is not in its stored form")
    parser.add_argument("notebooks", nargs="+", type=Path)
    options = parser.parse_args(argv)
    changed = []
    for path in options.notebooks:
        text = path.read_text("utf-8")
        stored = stored_text(nbformat.reads(text, as_version=nbformat.NO_CONVERT))  # type: ignore[no-untyped-call]
        if stored != text:
            changed.append(path)
            if not options.check:
                path.write_text(stored, "utf-8", newline="")
    for path in changed:
        print(("not in its stored form: " if options.check else "rewritten: ") + str(path))
    return 1 if options.check and changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
