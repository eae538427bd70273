"""A lesson's static examples, drawn once instead of on every page view.

Most code cells of a lesson only *show* something: ``follow("♠A ♠3", "♠9", "♠3")`` draws a
hand, a lead, a play and the rules engine's verdict. Their output is the same for every
learner who reads the lesson in the same language, so running them again on every page view
only makes the learner wait (in the browser, Python must start before the text they stand in
can be read) and costs the server CPU for each learner of a class.

:func:`render` runs a lesson once, in one language, and keeps the HTML of each *static*
cell: a code cell that binds no name a later cell reads and changes nothing in place
(:func:`static_candidates`), whose outputs are all HTML (no widget, no printed text, no
error). :func:`apply` turns those cells of a page into markdown cells of that HTML, which
Voila and Voici draw with the page's text, with no kernel: the page shows its text and examples
at once, and only the interactive cells (drills, the table) run for each learner.

Only the numbered lessons are prerendered (:func:`prerendered_lesson`): the home page, the
teacher's page, the sheets and the positions page draw what their link and the learner's
browser hold. An output is kept with the source it came from, so a cell edited since is
run again, never shown stale.

``python -m tutor.teach.prerender LESSONS OUT`` renders every lesson in every language into
``OUT/<language>/<slug>.json``; the static site's build and the served course
(:mod:`tutor.server.pages`) both use it.

>>> sorted(static_candidates(["hearts = Trump('♥')", 'follow("♠A ♠3", "♠9", "♠3", hearts)']))
[1]
>>> prerendered_lesson("05-following"), prerendered_lesson("index"), prerendered_lesson("sheet")
(True, False, False)
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

from tutor.core.i18n import LANGUAGES

STATIC_MIMETYPES: Final = frozenset({"text/html", "text/plain"})
"""What a static cell's outputs may hold (HTML, with its plain-text stand-in)."""

STATIC_CLASS: Final = "qd-static"
"""The class of the element around a prerendered cell's HTML."""

_LESSON: Final = re.compile(r"\d\d-[a-z0-9-]+")


def prerendered_lesson(slug: str) -> bool:
    """Whether a notebook's static cells are prerendered: the numbered lessons only."""
    return bool(_LESSON.fullmatch(slug))


def bound_and_used(source: str) -> tuple[frozenset[str], frozenset[str], bool] | None:
    """The names a cell's code binds (assigns, defines, imports, loops over), the names it
    reads, and whether it changes something in place (an attribute or an item assigned, a
    ``global``: a later cell could depend on that unseen); None for code that cannot be
    parsed.

    >>> bound_and_used("for c in cards:\\n    show(c)") == (frozenset({"c"}), frozenset({"cards", "show", "c"}), False)
    True
    >>> bound_and_used("game.seat = 2")[2], bound_and_used("def f(:") is None
    (True, True)
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    bound: set[str] = set()
    used: set[str] = set()
    in_place = False
    for node in ast.walk(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            in_place = True
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, (ast.Attribute, ast.Subscript)) for target in targets for t in ast.walk(target)):
                in_place = True
        if isinstance(node, ast.Name):
            (used if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return frozenset(bound), frozenset(used), in_place


def static_candidates(sources: list[str]) -> set[int]:
    """The positions of the code cells that may be drawn once: each binds no name that a
    later cell reads and changes nothing in place (so leaving it out of the page's run
    changes nothing after it). Code that cannot be read may read anything: no cell before
    it is a candidate.

    >>> sorted(static_candidates(["hearts = 1", "show(hearts)", "for c in 'ab':\\n    show(c)", "x = 2", "show(x)"]))
    [1, 2, 4]
    """
    later: set[str] = set()
    found = set()
    for index in range(len(sources) - 1, -1, -1):
        if not sources[index].strip():
            continue
        names = bound_and_used(sources[index])
        if names is None:
            break
        bound, used, in_place = names
        if not in_place and not bound & later:
            found.add(index)
        later |= used
    return found


def source_key(source: str) -> str:
    """A short digest of a cell's source: an output is used only for the source it came from."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


def static_html(outputs: Iterable[Mapping[str, Any]]) -> str | None:
    """The HTML of a cell's outputs if they are all HTML (else None: the cell stays code)."""
    parts = []
    for output in outputs:
        if output.get("output_type") not in ("display_data", "execute_result"):
            return None
        data = output.get("data", {})
        if "text/html" not in data or not set(data) <= STATIC_MIMETYPES:
            return None
        html = data["text/html"]
        parts.append(html if isinstance(html, str) else "".join(html))
    return "".join(parts) or None


def render(notebook: Any, *, timeout: int = 300) -> dict[str, Any]:
    """Run a page (a notebook already put in its language by :func:`tutor.teach.localize.localize`)
    once and keep its static cells' HTML: ``{"cells": {cell id: {"source": key, "html": …}}}``.

    The kernel is a fresh Python kernel with an empty link (``QUERY_STRING``), as a learner's
    page without parameters."""
    from nbclient import NotebookClient

    page = copy.deepcopy(notebook)
    code = [cell for cell in page.cells if cell.cell_type == "code"]
    candidates = {code[index].get("id") for index in static_candidates([cell.source for cell in code])}
    with tempfile.TemporaryDirectory(prefix="qd-prerender-") as cwd:
        client = NotebookClient(page, timeout=timeout, kernel_name="python3", allow_errors=False,
                                resources={"metadata": {"path": cwd}})
        env = {**os.environ, "QUERY_STRING": ""}
        client.execute(env=env, stderr=subprocess.DEVNULL)  # the kernel's own log is no lesson's error
    cells = {}
    for cell in page.cells:
        if cell.get("id") in candidates:
            html = static_html(cell.get("outputs", []))
            if html is not None:
                cells[cell["id"]] = {"source": source_key(cell.source), "html": html}
    return {"cells": cells}


def html_block(html: str) -> str:
    """HTML as a markdown cell's source that Markdown passes through untouched: one HTML
    block (CommonMark ends a block at a blank line, so there is none inside).

    >>> html_block("<b>♠A</b>\\n\\n<i>x</i>")
    '<div class="qd-static">\\n<b>♠A</b>\\n<i>x</i>\\n</div>'
    """
    lines = [line for line in html.splitlines() if line.strip()]
    return "\n".join([f'<div class="{STATIC_CLASS}">', *lines, "</div>"])


def apply(notebook: Any, rendered: Mapping[str, Any] | None) -> Any:
    """``notebook`` with each static cell that ``rendered`` holds (for the same source)
    turned into a markdown cell of its HTML; the notebook itself when there is nothing to apply."""
    cells = (rendered or {}).get("cells") or {}
    if not cells:
        return notebook
    import nbformat

    page = copy.copy(notebook)
    page.cells = []
    for cell in notebook.cells:
        done = cells.get(cell.get("id")) if cell.cell_type == "code" else None
        if done is not None and done.get("source") == source_key(cell.source):
            shown = nbformat.v4.new_markdown_cell(source=html_block(done["html"]))  # type: ignore[no-untyped-call]
            shown["id"] = cell["id"]
            page.cells.append(shown)
        else:
            page.cells.append(cell)
    return page


def lesson_notebooks(lessons: Path) -> list[Path]:
    """The notebooks of ``lessons`` whose static cells are prerendered."""
    return [path for path in sorted(lessons.glob("*.ipynb")) if prerendered_lesson(path.stem)]


def render_file(notebook_path: Path, language: str, out: Path) -> Path:
    """Render one lesson in one language into ``out/<language>/<slug>.json`` (written whole,
    so a reader never sees half of it)."""
    import nbformat
    from nbclient.exceptions import DeadKernelError

    from tutor.teach.localize import localize

    slug = notebook_path.stem
    page = localize(nbformat.read(notebook_path, as_version=4), slug, language)  # type: ignore[no-untyped-call]
    try:
        result = render(page)
    except DeadKernelError:  # two kernels started at once can pick the same free port: once more
        result = render(page)
    target = out / language / f"{slug}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = target.with_suffix(".part")
    scratch.write_text(json.dumps(result, ensure_ascii=False), "utf-8")
    scratch.replace(target)
    return target


class RenderError(RuntimeError):
    """Some lessons could not be drawn (each named with its reason); the others were. A
    build's and a server's error, never a learner's (so in English only, as BuildError)."""


def render_all(lessons: Path, out: Path, *, languages: Iterable[str] = LANGUAGES, workers: int = 2) -> list[Path]:
    """Every lesson of ``lessons`` in every language, ``workers`` kernels at a time. A lesson
    that cannot run is left undrawn (its page runs every cell) and named in the
    :class:`RenderError` raised once the others are drawn."""
    jobs = [(path, language) for language in languages for path in lesson_notebooks(lessons)]

    def one(job: tuple[Path, str]) -> Path | str:
        try:
            return render_file(job[0], job[1], out)
        except Exception as error:  # a lesson's own error (its cells run here): named, the others go on
            last = (str(error).strip().splitlines() or [""])[-1]
            return f"{job[0].stem} ({job[1]}): {type(error).__name__}: {last}"

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        results = list(pool.map(one, jobs))
    failed = [r for r in results if isinstance(r, str)]
    if failed:
        raise RenderError(f"lessons whose examples could not be drawn: {'; '.join(failed)}")
    return [r for r in results if isinstance(r, Path)]


def fingerprint(lessons: Path) -> str:
    """A digest of everything a lesson's output comes from: the lessons, and the code and
    catalogs of the packages that draw them (``tutor``, ``widgets``). Drawn pages kept under
    it are never used for other lessons or code."""
    from importlib.util import find_spec

    spec = find_spec("widgets")  # found, not imported: the widgets are drawn by the lessons' kernels
    drawn_by = [Path(spec.origin).resolve().parent] if spec is not None and spec.origin else []
    digest = hashlib.sha256(b"qd-prerender 1\n")
    roots = (lessons, Path(__file__).resolve().parents[1], *drawn_by)  # the whole tutor package
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".ipynb", ".po", ".js", ".css") and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(root)}\n".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def read(out: Path, language: str, slug: str) -> dict[str, Any] | None:
    """What :func:`render_file` wrote for this lesson and language, if it is there."""
    try:
        data = json.loads((out / language / f"{slug}.json").read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tutor.teach.prerender",
                                     description="Render every lesson's static examples once, in every language.")
    parser.add_argument("lessons", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        render_all(args.lessons, args.out, workers=args.workers)
    except RenderError as error:
        print(f"prerender: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
