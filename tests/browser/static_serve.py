"""The course built as a static site (``./dev site``) and served by a plain file server
(``python -m http.server``) on 127.0.0.1: the ``site`` fixture of ``conftest.py``, built
once per session for every test that needs it (``test_static_site.py``,
``test_static_home.py``). Downloads are cached in ``.cache/site/``."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from voila_serve import REPO, free_port, unavailable

from tools.static_site import BuildError, build, lesson_page


class StaticSite:
    """The built site behind a plain file server."""

    def __init__(self, folder: Path, base: str) -> None:
        self.folder = folder
        self.base = base

    def url(self, notebook: str, query: str = "", language: str = "en") -> str:
        return f"{self.base}/{lesson_page(language, Path(notebook).stem)}" + (f"?{query}" if query else "")


@contextmanager
def built_and_served(folder: Path) -> Iterator[StaticSite]:
    """The site built into ``folder`` and served from it until the block ends."""
    if not (Path(sys.executable).with_name("voici")).exists():
        unavailable("voici is not installed (pip install -e '.[site]')")
    try:
        build(folder, cache=REPO / ".cache" / "site", quiet=True)
    except BuildError as error:
        pytest.fail(f"the site did not build: {error}")
    with files_served(folder) as base:
        yield StaticSite(folder, base)


@contextmanager
def files_served(folder: Path) -> Iterator[str]:
    """``folder`` served by a plain file server on 127.0.0.1 until the block ends: its base URL."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(base + "/index.html", timeout=2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the file server did not start"
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)
