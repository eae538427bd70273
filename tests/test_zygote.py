"""The kernel zygote (``tutor/server/zygote.py``) as the server drives it: preloads, forks
real kernels that answer Jupyter's protocol with the widget comm targets in place, refuses
what is not a kernel request without dying, and takes its kernels with it when it stops."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from jupyter_client import BlockingKernelClient
from jupyter_client.connect import write_connection_file

from tutor.server.zygote import PRELOAD

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the zygote forks (POSIX)")


class Zygote:
    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "tutor.server.zygote"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        self.ready = self.answer()

    def ask(self, line: str) -> dict[str, object]:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()
        return self.answer()

    def answer(self) -> dict[str, object]:
        assert self.process.stdout is not None
        answer = json.loads(self.process.stdout.readline())
        assert isinstance(answer, dict)
        return answer


@pytest.fixture()
def zygote() -> Iterator[Zygote]:
    running = Zygote()
    try:
        yield running
    finally:
        running.process.kill()
        running.process.wait(10)


def _kernel(zygote: Zygote, tmp_path: Path) -> tuple[int, BlockingKernelClient]:
    connection = tmp_path / f"kernel-{time.monotonic_ns()}.json"
    write_connection_file(str(connection))
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", str(connection)]
    answer = zygote.ask(json.dumps({"argv": argv, "env": {**os.environ, "QUERY_STRING": "seed=7"},
                                    "cwd": str(tmp_path)}))
    assert isinstance(answer.get("pid"), int), answer
    client = BlockingKernelClient(connection_file=str(connection))
    client.load_connection_file()
    client.start_channels()
    client.wait_for_ready(timeout=30)
    return int(answer["pid"]), client  # type: ignore[call-overload]


def _run(client: BlockingKernelClient, code: str) -> str:
    """What ``code`` prints in the kernel."""
    client.execute(code)
    out = []
    while True:
        message = client.get_iopub_msg(timeout=30)
        if message["msg_type"] == "stream":
            out.append(message["content"]["text"])
        elif message["msg_type"] == "error":
            raise AssertionError("\n".join(message["content"]["traceback"]))
        elif message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
            return "".join(out)


def _gone(pid: int, timeout: float = 15) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.1)
    return False


def test_the_zygote_preloads_the_course(zygote: Zygote) -> None:
    assert zygote.ready["ready"] is True
    assert set(zygote.ready["preloaded"]) == set(PRELOAD)  # type: ignore[arg-type]


@pytest.mark.parametrize("line", [
    "not json", "[]", "null", json.dumps({"argv": "python"}), json.dumps({"argv": [1, 2]}),
    json.dumps({"argv": ["/bin/sh", "-c", "echo hi"], "env": {}, "cwd": "/"}),
    json.dumps({"argv": [sys.executable, "-m", "ipykernel_launcher"], "env": {"A": 1}, "cwd": "/"}),
    json.dumps({"argv": [sys.executable, "-m", "ipykernel_launcher"], "env": {}, "cwd": "/no/such/folder"}),
    json.dumps({"argv": [sys.executable, "-m", "ipykernel_launcher"], "env": {}, "cwd": "\x00"}),
])
def test_what_is_not_a_kernel_request_is_refused(zygote: Zygote, line: str) -> None:
    before = len(psutil.Process(zygote.process.pid).children())
    answer = zygote.ask(line)
    assert "error" in answer and "pid" not in answer, answer
    assert zygote.process.poll() is None, "the zygote died"
    assert len(psutil.Process(zygote.process.pid).children()) == before


def test_a_forked_kernel_is_a_lesson_kernel(zygote: Zygote, tmp_path: Path) -> None:
    pid, client = _kernel(zygote, tmp_path)
    try:
        assert psutil.Process(pid).ppid() == zygote.process.pid
        printed = _run(client, "import os, sys\n"
                               "targets = get_ipython().kernel.comm_manager.targets\n"
                               "print(os.environ['QUERY_STRING'], os.getcwd(), 'tutor' in sys.modules,\n"
                               "      'jupyter.widget' in targets, 'jupyter.widget.control' in targets,\n"
                               "      get_ipython().history_manager.enabled)")
        assert printed.split() == ["seed=7", str(tmp_path), "True", "True", "True", "False"]
        assert _run(client, "from tutor import check_follow\n"
                            "print(check_follow('♥7 ♥7 ♥3 ♠4', '♥9 ♥9', '♥7 ♥3', '♠').rule)").strip() == "W3"
        client.shutdown()
        assert _gone(pid), "the kernel did not stop when asked"
    finally:
        client.stop_channels()


def test_kernels_stop_with_their_zygote(zygote: Zygote, tmp_path: Path) -> None:
    pids = []
    for _ in range(2):
        pid, client = _kernel(zygote, tmp_path)
        client.stop_channels()
        pids.append(pid)
    zygote.process.send_signal(signal.SIGKILL)
    zygote.process.wait(10)
    for pid in pids:  # ipykernel's parent poller sees its parent gone
        assert _gone(pid, timeout=20), f"kernel {pid} outlived its zygote"


def test_the_zygote_stops_when_the_server_closes_its_input(zygote: Zygote) -> None:
    assert zygote.process.stdin is not None
    zygote.process.stdin.close()
    assert zygote.process.wait(10) == 0


def test_the_zygote_ends_quietly_when_the_server_is_gone() -> None:
    """A server that stops before its zygote is ready (``./dev lab`` refused to run as root)
    closes the answer pipe: the zygote ends at once, with no BrokenPipeError traceback in the
    teacher's terminal."""
    process = subprocess.Popen([sys.executable, "-m", "tutor.server.zygote"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    process.stdout.close()  # the server is gone before the zygote says it is ready
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0 and b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()
