"""The served lessons' static examples, drawn once per server instead of on every page view.

When ``./dev serve`` starts its server (``deploy/voila.py``), :func:`drawn_pages` runs
``python -m tutor.teach.prerender`` for the lessons in the background, at low priority, into a
cache kept between servers (``$XDG_CACHE_HOME/qidong-tutor/pages/<fingerprint>``, where the
fingerprint covers the lessons and the course's code, so a changed lesson is drawn again).
Until a lesson's examples are drawn, its pages run every cell as before; from then on the
prelaunch hook (:mod:`tutor.server`) puts them into the page as HTML, and only the
interactive cells run in the learner's kernel: less CPU per page view, and the text and
examples arrive with the page.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Final

from tutor.teach import prerender

log = logging.getLogger(__name__)

NICE: Final = 10
"""The drawing runs below the learners' kernels and the server."""


def cache_root() -> Path:
    """Where drawn pages are kept between servers."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "qidong-tutor" / "pages"


class DrawnPages:
    """The drawn static examples of one folder of lessons, drawn in the background once."""

    def __init__(self, lessons: Path, root: Path | None = None) -> None:
        self.lessons = lessons
        self.folder = (root or cache_root()) / prerender.fingerprint(lessons)
        self._started = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._memo: dict[tuple[str, str], dict[str, Any] | None] = {}

    @property
    def done(self) -> bool:
        """Whether every lesson of the folder is drawn in every language."""
        return (self.folder / "done").exists()

    def start(self) -> None:
        """Draw the lessons in the background unless they are drawn already (once)."""
        with self._lock:
            if self._started or self.done:
                return
            self._started = True
            self._thread = threading.Thread(target=self._draw, name="qd-prerender", daemon=True)
            self._thread.start()

    @property
    def drawing(self) -> bool:
        """Whether the drawing is under way."""
        return self._thread is not None and self._thread.is_alive()

    def _draw(self) -> None:
        command = [sys.executable, "-m", "tutor.teach.prerender", str(self.lessons), str(self.folder)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, check=False,
                                  preexec_fn=lambda: os.nice(NICE))
        except OSError as error:
            log.warning("The lessons' examples could not be drawn (%s); pages run every cell", error)
            return
        if done.returncode == 0 and self.folder.is_dir():
            (self.folder / "done").write_text("", "utf-8")
            log.info("The lessons' examples are drawn (%s)", self.folder)
        else:
            log.warning("The lessons' examples could not be drawn; pages run every cell:\n%s", done.stderr[-2000:])

    def get(self, language: str, slug: str) -> dict[str, Any] | None:
        """The drawn examples of one lesson in one language, once they are there."""
        key = (language, slug)
        if key not in self._memo or self._memo[key] is None:
            found = prerender.read(self.folder, language, slug)
            if found is None:
                return None
            self._memo[key] = found
        return self._memo[key]


_FOLDERS: dict[Path, DrawnPages] = {}
_FOLDERS_LOCK = threading.Lock()


def drawn_pages(lessons: str | os.PathLike[str], *, start: bool = True) -> DrawnPages:
    """The drawn pages of a folder of lessons (one per folder), their drawing started unless
    ``start`` is false: a server that draws them says so when it starts (``deploy/voila.py``);
    a page only reads what is drawn. (A JupyterHub user's server does not draw them: every
    learner's own server would spend the same minute of CPU as class begins.)"""
    folder = Path(lessons).resolve()
    with _FOLDERS_LOCK:
        pages = _FOLDERS.get(folder)
        if pages is None:
            pages = _FOLDERS[folder] = DrawnPages(folder)
    if start:
        pages.start()
    return pages
