"""Lesson kernels forked from the zygote (:mod:`tutor.server.zygote`) instead of started afresh.

:class:`ForkingProvisioner` is a Jupyter kernel provisioner (``qd-fork``, registered in
``pyproject.toml``): where Jupyter's own would start ``python -m ipykernel_launcher -f …``
as a new process, it asks the zygote — which imported IPython, ipywidgets and the course
once, when the server started — to fork one. The kernel is the same ipykernel on the same
connection file; it only skips the ~0.5 s of CPU every fresh kernel spends importing, and
shares the imported modules' memory with the zygote. Anything else (another kernel, a
zygote that cannot start) starts the usual way, so a kernel is never refused for it.

``configure`` in :mod:`tutor.server` makes it the default provisioner; :func:`warm` starts
the zygote ahead of the first learner.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import psutil
from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.provisioning.local_provisioner import LocalProvisioner

log = logging.getLogger(__name__)

NAME = "qd-fork"
"""The provisioner's name (the ``jupyter_client.kernel_provisioners`` entry point)."""

READY_TIMEOUT = 60.0


class ZygoteError(RuntimeError):
    """The zygote could not fork a kernel (the kernel is then started the usual way)."""


class Zygote:
    """The server's side of the zygote process: started once, asked for one fork at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self.preloaded: tuple[str, ...] = ()

    def start(self) -> None:
        """Start the zygote if it is not running (it preloads in the background)."""
        with self._lock:
            self._ensure_started()

    def fork(self, argv: list[str], env: dict[str, str], cwd: str) -> int:
        """The process id of a kernel forked for ``argv`` in ``cwd`` with ``env``."""
        with self._lock:
            process = self._ensure_started()
            assert process.stdin is not None and process.stdout is not None
            if not self.preloaded:
                self._await_ready(process)
            try:
                process.stdin.write((json.dumps({"argv": argv, "env": env, "cwd": cwd}) + "\n").encode())
                process.stdin.flush()
                answer = json.loads(process.stdout.readline() or b"{}")
            except (OSError, ValueError) as error:
                self._stop()
                raise ZygoteError(f"the zygote stopped answering: {error!r}") from None
            if not isinstance(answer, dict) or not isinstance(answer.get("pid"), int):
                if not answer:
                    self._stop()
                raise ZygoteError(str(answer.get("error", "the zygote ended")) if isinstance(answer, dict) else "?")
            return int(answer["pid"])

    def stop(self) -> None:
        with self._lock:
            self._stop()

    # -------------------------------------------------------------- internals

    def _ensure_started(self) -> subprocess.Popen[bytes]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        self.preloaded = ()
        self._process = subprocess.Popen([sys.executable, "-m", "tutor.server.zygote"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE)
        return self._process

    def _await_ready(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        deadline = time.monotonic() + READY_TIMEOUT
        line = process.stdout.readline()  # the zygote's first line, once it has preloaded
        try:
            ready = json.loads(line or b"{}")
        except ValueError:
            ready = {}
        if not (isinstance(ready, dict) and ready.get("ready")) or time.monotonic() > deadline:
            self._stop()
            raise ZygoteError("the zygote did not start")
        self.preloaded = tuple(ready.get("preloaded", ()))
        log.info("Kernel zygote %d ready, preloaded: %s", process.pid, ", ".join(self.preloaded))

    def _stop(self) -> None:
        if self._process is not None:
            try:
                if self._process.stdin:
                    self._process.stdin.close()
                self._process.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
            self._process = None
        self.preloaded = ()


ZYGOTE = Zygote()
"""The one zygote of this server process."""


def warm() -> None:
    """Start the zygote now, so that the first learner's kernel is forked too."""
    ZYGOTE.start()


class ForkedKernel:
    """What Jupyter's provisioner needs of a ``Popen`` for a kernel the zygote forked
    (a child of the zygote, not of this process: its exit is seen by polling)."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        try:
            self._process: psutil.Process | None = psutil.Process(pid)
        except psutil.NoSuchProcess:
            self._process, self.returncode = None, 0

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                alive = self._process is not None and self._process.status() != psutil.STATUS_ZOMBIE
            except psutil.NoSuchProcess:
                alive = False
            if not alive:
                self.returncode = 0
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while (code := self.poll()) is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0)
            time.sleep(0.05)
        return code

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, signum)
            except ProcessLookupError:
                self.returncode = 0

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkingProvisioner(LocalProvisioner):
    """Jupyter's local provisioner, with the kernel forked from the zygote."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        env = {str(k): str(v) for k, v in (kwargs.get("env") or os.environ).items()}
        cwd = str(kwargs.get("cwd") or os.getcwd())
        try:
            pid = await asyncio.to_thread(ZYGOTE.fork, list(cmd), env, cwd)
        except ZygoteError as error:
            log.warning("Starting a kernel the usual way: %s", error)
            return await super().launch_kernel(cmd, **kwargs)
        self.process = ForkedKernel(pid)  # type: ignore[assignment]  # all of Popen the provisioner uses
        self.pid = self.pgid = pid  # the fork leads its own session and process group
        self.cwd = cwd
        return self.connection_info
