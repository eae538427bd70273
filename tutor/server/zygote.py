"""The kernel zygote: one process that has imported the course, and forks a kernel per page.

A fresh lesson kernel spends about half a second of CPU importing IPython, ipykernel,
ipywidgets and the course before it runs a single cell; forty learners opening a lesson
together pay it forty times over. The zygote pays it once, at the server's start: it
imports everything a lesson kernel needs, then waits. For each kernel the server asks for,
it forks — the child already holds every module — and the child becomes an ordinary
ipykernel on the connection file Jupyter wrote for it. Run by
:mod:`tutor.server.forking` as ``python -m tutor.server.zygote``; it speaks one JSON line
per request on stdin and answers one JSON line on stdout:

    {"argv": ["…/python", "-m", "ipykernel_launcher", "-f", "…/kernel-1.json"], "env": {…}, "cwd": "…"}
    {"pid": 4242}            or            {"error": "why not"}

It starts ``{"ready": true, "preloaded": [...]}`` once the imports are done. The zygote
never starts a thread (a fork copies only the thread that forks), and it stops when the
server closes its stdin, or dies: its kernels notice that their parent has gone
(ipykernel's parent poller) and stop too. The forks are reaped by the system (SIGCHLD
ignored), so none is left a zombie.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, TextIO

PRELOAD: Final = (
    "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "ipykernel.comm", "ipykernel.debugger",
    "IPython.core.interactiveshell", "IPython.display", "ipywidgets", "anywidget",
    "IPython.core.debugger", "IPython.core.completerlib", "IPython.extensions.storemagic", "sqlite3", "psutil",
    "tornado.platform.asyncio", "tutor", "tutor.teach.display", "tutor.teach.drills", "tutor.core.i18n", "widgets",
)
"""What a lesson kernel imports before its first drill (``python -X importtime`` of a
lesson's first cell, and the modules a kernel's start still imported after the fork): the
kernel itself (its debugger support too, which imports debugpy), the widget libraries and
the course."""

KERNEL_OPTIONS: Final = ("--HistoryManager.enabled=False",)
"""What a lesson kernel does without: the input history (an SQLite file and a thread per
kernel, for code no learner types)."""

KERNEL_MODULE: Final = "ipykernel_launcher"


def kernel_arguments(argv: Sequence[str]) -> list[str] | None:
    """The ipykernel arguments of a kernel command this zygote can start, else None: it
    forks only ``<this python> -m ipykernel_launcher …`` (any other kernel starts as usual).

    >>> kernel_arguments([sys.executable, "-m", "ipykernel_launcher", "-f", "k.json"])
    ['-f', 'k.json']
    >>> kernel_arguments(["/usr/bin/python2", "-m", "ipykernel_launcher", "-f", "k.json"]) is None
    True
    """
    if len(argv) < 3 or list(argv[1:3]) != ["-m", KERNEL_MODULE]:
        return None
    try:
        same = Path(argv[0]).resolve() == Path(sys.executable).resolve() or argv[0] in ("python", "python3")
    except OSError:
        return None
    return list(argv[3:]) if same else None


def _become_kernel(arguments: list[str], env: dict[str, str], cwd: str) -> None:
    """In the forked child: turn into the kernel, never return."""
    code = 1
    try:
        os.setsid()  # its own process group, as Jupyter starts kernels: interrupts reach it alone
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(2, 1)  # stdout was the zygote's answer pipe: a kernel's own prints go to the log
        os.close(devnull)
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        os.environ["JPY_PARENT_PID"] = str(os.getppid())
        sys.argv = [KERNEL_MODULE, *arguments]
        gc.unfreeze()
        from ipykernel.kernelapp import IPKernelApp

        from tutor.server.quiet import install_in_kernel

        install_in_kernel()  # the serve log without notices no teacher can act on
        app = IPKernelApp.instance()
        # Its parent is the zygote: the kernel stops if the zygote does (ipykernel's parent
        # poller; the class default was read from the zygote's environment, without one).
        watch = f"--IPKernelApp.parent_handle={os.getppid()}"
        app.initialize([*arguments, *KERNEL_OPTIONS, watch])  # type: ignore[no-untyped-call]
        _after_kernel_start()
        app.start()  # type: ignore[no-untyped-call]
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 0
    except BaseException:  # noqa: BLE001 - the log says why, the server sees the kernel die
        import traceback

        traceback.print_exc()
    finally:
        os._exit(code)


def _after_kernel_start() -> None:
    """What a preloaded module did at import when a kernel was already running: ipywidgets
    registers its comm targets then (with none, a page could not reach its widgets)."""
    if "ipywidgets" in sys.modules:
        sys.modules["ipywidgets"].register_comm_target()


def _fork(request: Any) -> dict[str, Any]:
    if not isinstance(request, dict):
        return {"error": "a request is a JSON object"}
    argv, env, cwd = request.get("argv"), request.get("env"), request.get("cwd")
    if not (isinstance(argv, list) and all(isinstance(a, str) for a in argv)):
        return {"error": "argv must be a list of strings"}
    if not (isinstance(env, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())):
        return {"error": "env must map strings to strings"}
    if not (isinstance(cwd, str) and os.path.isdir(cwd)):
        return {"error": "cwd must be a folder"}
    arguments = kernel_arguments(argv)
    if arguments is None:
        return {"error": "not an ipykernel of this Python"}
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _become_kernel(arguments, env, cwd)
    return {"pid": pid}


def main() -> None:
    """Preload, say so, then fork a kernel for each request line until stdin closes."""
    answers = sys.stdout
    if sys.path and sys.path[0] in ("", os.getcwd()):
        del sys.path[0]  # as ipykernel_launcher does: the kernel puts its own cwd back
    loaded = []
    for name in PRELOAD:
        try:
            importlib.import_module(name)
            loaded.append(name)
        except Exception as error:  # noqa: BLE001 - a kernel imports what is missing itself
            print(f"qd-zygote: could not preload {name}: {error!r}", file=sys.stderr)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # forks are reaped by the system
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the terminal is for the server
    gc.collect()
    gc.freeze()  # the preloaded objects stay shared with every fork (no GC writes to them)
    if not _answer(answers, {"ready": True, "preloaded": loaded}):
        return
    for line in sys.stdin:
        try:
            answer = _fork(json.loads(line))
        except (ValueError, OSError) as error:
            answer = {"error": repr(error)[:300]}
        if not _answer(answers, answer):
            return


def _answer(answers: TextIO, record: dict[str, Any]) -> bool:
    """Write one answer line to the server; False when the server is gone (it stopped, or
    never started, before the zygote was ready: ``./dev lab`` refused to run): the zygote
    then ends quietly, with no traceback in the teacher's terminal, and its output goes
    nowhere (so that Python's own flush at exit does not complain either)."""
    try:
        answers.write(json.dumps(record) + "\n")
        answers.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), answers.fileno())
        return False
    return True


if __name__ == "__main__":
    main()
