"""A real Voila server for the tests: started from the repository root with the
course's configuration (``deploy/voila.py``, as ``./dev serve`` does) on a free port, waited for, and stopped at the end.
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
CONFIG = ("--Voila.config_file_paths=deploy",)
"""Where Voila finds the course's configuration, ``deploy/voila.py`` (relative to the
repository root, where every server is started; a folder never on Python's path, so that
``voila.py`` cannot shadow the ``voila`` package)."""
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


TICKET = re.compile(r'"qd-admit=([\w-]+);')


def ticket_of(page: str | bytes) -> str | None:
    """The admission ticket of the server's opening page (``tutor/server/admission.py``),
    or None for any other page."""
    text = page.decode("utf-8", "replace") if isinstance(page, bytes) else page
    found = TICKET.search(text) if "kernelId" not in text else None
    return found.group(1) if found else None


def with_ticket(headers: dict[str, str], ticket: str) -> dict[str, str]:
    """``headers`` with the ticket's cookie added, as the opening page's script sets it."""
    cookie = "; ".join(filter(None, [headers.get("Cookie", ""), f"qd-admit={ticket}"]))
    return {**headers, "Cookie": cookie}


def open_page(url: str, headers: dict[str, str] | None = None,
              timeout: float = PAGE_TIMEOUT) -> tuple[int, str, list[str]]:
    """Status, text and ``Set-Cookie`` headers of ``url`` as a browser gets it: the
    server's opening page is followed as its script does (HTTP errors returned, not raised)."""
    headers = dict(headers or {})
    for _ in range(2):
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=timeout) as response:
                status, text = response.status, response.read().decode("utf-8")
                cookies = response.headers.get_all("Set-Cookie") or []
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace"), error.headers.get_all("Set-Cookie") or []
        ticket = ticket_of(text)
        if ticket is None:
            break
        headers = with_ticket(headers, ticket)
    return status, text, cookies


def get(url: str, timeout: float = PAGE_TIMEOUT) -> tuple[int, str]:
    """Status and text of ``url`` (HTTP errors included, not raised), the opening page followed."""
    status, text, _ = open_page(url, timeout=timeout)
    return status, text


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

    def kernels(self) -> list[int]:
        """Process ids of this server's kernels: started as usual (``ipykernel_launcher``
        children of the server) or forked by its kernel zygote (the zygote's children)."""
        processes: dict[int, tuple[int, bytes]] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            processes[int(entry.name)] = (int(stat.rsplit(")", 1)[1].split()[1]), command)
        zygotes = {pid for pid, (parent, command) in processes.items()
                   if parent == self.pid and b"tutor.server.zygote" in command}
        return [pid for pid, (parent, command) in processes.items()
                if (parent == self.pid and b"ipykernel_launcher" in command) or parent in zygotes]

    def zygote(self) -> bool:
        """Whether the server has its kernel zygote running."""
        return any(b"tutor.server.zygote" in _command(entry)
                   for entry in Path("/proc").iterdir() if entry.name.isdigit() and _parent(entry) == self.pid)


def _parent(entry: Path) -> int:
    try:
        return int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1


def _command(entry: Path) -> bytes:
    try:
        return (entry / "cmdline").read_bytes()
    except OSError:
        return b""


@contextlib.contextmanager
def serve(directory: Path | str, log: Path, *extra: str, env: dict[str, str] | None = None) -> Iterator[VoilaServer]:
    """Voila serving ``directory`` (relative to the repository root) with ``extra``
    command-line options (and ``env`` added to its environment). Readiness is asked of the
    contents API, which starts no kernel."""
    beside = Path(sys.executable).with_name("voila")
    voila = str(beside) if beside.exists() else shutil.which("voila")
    if voila is None:
        unavailable("voila is not installed")
    assert voila is not None
    # Every test's requests come from 127.0.0.1, many pages at a time: no per-client share
    # (tests/test_admission.py tests it, with its own setting in ``extra``).
    share = [] if any(option.startswith("--Classroom.per_client") for option in extra) else ["--Classroom.per_client=0"]
    command = [voila, str(directory), "--port", str(free_port()), "--no-browser", *CONFIG, *share, *extra]
    with log.open("wb") as sink:
        process = subprocess.Popen(command, cwd=REPO, stdout=sink, stderr=subprocess.STDOUT,
                                   env={**os.environ, **(env or {})})
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
