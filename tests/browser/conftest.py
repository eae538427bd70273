"""Browser tests: one real Voila server per session, one headless Chromium.

Voila is started from the repository root (so the committed ``voila.py`` applies)
serving ``tests/browser/notebooks`` (``voila_server``) or the course's ``lessons``
(``lessons_server``) on a free port, and stopped at the end. Chromium is
``/usr/bin/chromium`` (``apt-get install chromium fonts-noto-cjk``); Playwright's own
browser download is not used. Without Chromium or Playwright the tests skip with the
reason — except in CI (``CI=true``), where they fail instead.
Screenshots go to ``test-artifacts/`` (gitignored).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = Path(__file__).with_name("notebooks").relative_to(REPO)
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
START_TIMEOUT = 60.0
IN_CI = os.environ.get("CI", "").lower() == "true"


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason} — required in CI (CI=true); .ci/run installs it")
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class VoilaServer:
    def __init__(self, base: str, log: Path) -> None:
        self.base = base
        self.log = log
        self.pid = 0

    def log_text(self) -> str:
        return self.log.read_text("utf-8", "replace")

    def url(self, notebook: str, query: str = "") -> str:
        return f"{self.base}/voila/render/{notebook}" + (f"?{query}" if query else "")


@contextlib.contextmanager
def serve(directory: Path | str, log: Path, *extra: str) -> Iterator[VoilaServer]:
    """Voila serving ``directory`` (relative to the repository root, where ``voila.py``
    is) on a free port, with ``extra`` command-line options; stopped on exit."""
    beside = Path(sys.executable).with_name("voila")
    voila = str(beside) if beside.exists() else shutil.which("voila")
    if voila is None:
        _unavailable("voila is not installed")
    assert voila is not None
    port = _free_port()
    command = [voila, str(directory), "--port", str(port), "--no-browser", *extra]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=REPO, stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            text = log.read_text("utf-8", "replace")
            if process.poll() is not None:
                pytest.fail(f"voila exited with {process.returncode}:\n{text}")
            found = re.search(r"running at:\s*(http://127\.0\.0\.1:\d+)/", text)
            if found:
                try:
                    with urllib.request.urlopen(found.group(1) + "/", timeout=5) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
            if time.monotonic() > deadline:
                pytest.fail(f"voila did not answer within {START_TIMEOUT:.0f} s:\n{text}")
            time.sleep(0.2)
        server = VoilaServer(found.group(1), log)
        server.pid = process.pid
        yield server
    finally:
        process.terminate()  # Voila shuts its kernels down on SIGTERM
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """The test notebooks of ``tests/browser/notebooks``."""
    with serve(NOTEBOOKS, tmp_path_factory.mktemp("voila-browser") / "voila.log") as server:
        yield server


@pytest.fixture(scope="session")
def lessons_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """The course as ``./dev serve`` serves it: ``voila lessons`` from the repository root."""
    with serve("lessons", tmp_path_factory.mktemp("voila-lessons") / "voila.log") as server:
        yield server


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is missing (apt-get install -y chromium fonts-noto-cjk)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (its own localStorage) per test."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
    ctx.set_default_timeout(30_000)
    try:
        yield ctx
    finally:
        for page in ctx.pages:
            try:  # unload the page first, so the kernel's shutdown call is made
                page.goto("about:blank")
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        ctx.close()


@pytest.fixture()
def screenshot(request: pytest.FixtureRequest) -> Any:
    """``screenshot(page, label)`` saves ``test-artifacts/<test>-<label>.png``."""

    def save(page: Any, label: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{label}.png"), full_page=True)

    return save
