"""A real Voila server for the tests: started from the repository root (so the
committed ``voila.py`` applies) on a free port, waited for, and stopped at the end.
Shared by the HTTP, kernel and browser tests (importable as ``voila_serve``: pytest's
``pythonpath`` setting puts ``tests/`` on the import path)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
START_TIMEOUT = 60.0
PAGE_TIMEOUT = 60.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def unavailable(reason: str) -> None:
    """Skip locally, but fail in CI, where everything the tests need is installed."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason} — CI must install it (.ci/run)")
    pytest.skip(reason)


def get(url: str, timeout: float = PAGE_TIMEOUT) -> tuple[int, str]:
    """Status and text of ``url`` (HTTP errors included, not raised)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


class VoilaServer:
    """A running server: its address, log and process id."""

    def __init__(self, base: str, log: Path, pid: int) -> None:
        self.base = base
        self.log = log
        self.pid = pid

    def log_text(self) -> str:
        return self.log.read_text("utf-8", "replace")

    def url(self, notebook: str, query: str = "") -> str:
        return f"{self.base}/voila/render/{notebook}" + (f"?{query}" if query else "")

    def get(self, path: str) -> tuple[int, str]:
        return get(self.base + path)


@contextlib.contextmanager
def serve(directory: Path | str, log: Path, *extra: str) -> Iterator[VoilaServer]:
    """Voila serving ``directory`` (relative to the repository root) with ``extra``
    command-line options. Readiness is asked of the contents API, which starts no
    kernel."""
    beside = Path(sys.executable).with_name("voila")
    voila = str(beside) if beside.exists() else shutil.which("voila")
    if voila is None:
        unavailable("voila is not installed")
    assert voila is not None
    command = [voila, str(directory), "--port", str(free_port()), "--no-browser", *extra]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=REPO, stdout=sink, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            text = log.read_text("utf-8", "replace")
            if process.poll() is not None:
                pytest.fail(f"voila exited with {process.returncode}:\n{text}")
            # Voila moves to another port if this one was taken meanwhile: follow its log.
            found = re.search(r"running at:\s*(http://127\.0\.0\.1:\d+)/", text)
            if found:
                try:
                    if get(found.group(1) + "/voila/api/contents", timeout=5)[0] == 200:
                        break
                except OSError:
                    pass
            if time.monotonic() > deadline:
                pytest.fail(f"voila did not answer within {START_TIMEOUT:.0f} s:\n{text}")
            time.sleep(0.2)
        yield VoilaServer(found.group(1), log, process.pid)
    finally:
        process.terminate()  # Voila shuts its kernels down on SIGTERM
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
