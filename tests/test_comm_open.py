"""A page that opens a widget's comm wrongly gets a short refusal in the kernel's log, never a
traceback on the page.

A real kernel — as JupyterLab starts one (ipykernel), and as the course's server does (forked
from the zygote, ``tutor.server.zygote``) — receives ``comm_open`` messages a script on the
page could send: ipywidgets' targets with another protocol version (ipywidgets raises), no
version, a version that is no text, a widget nobody registered, a target nobody registered,
and control messages of no known shape. Everything the kernel sends the page (iopub) is read:
no "Traceback", no Python file path, no exception's name; each comm is closed; the kernel's
own log (its process's standard error, the server's log) says the refusal in one line. The
kernels run with ipykernel's capture of file descriptor 2 on, as they do under Voila and
JupyterLab (pytest's own variable, which turns it off, is taken out of their environment).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jupyter_client import BlockingKernelClient, KernelManager
from jupyter_client.connect import write_connection_file

pytest.importorskip("ipywidgets")

ROOT = Path(__file__).resolve().parent.parent
PYTHON_WORDS = re.compile(r"Traceback|File \"|\.py\b|site-packages|Error\b|Exception\b|raise ")
"""What only Python says: never in a message to the page."""
ENV = {key: value for key, value in os.environ.items() if key != "PYTEST_CURRENT_TEST"}
"""The kernels' environment: with pytest's variable, ipykernel would not capture fd 2."""


class Kernel:
    """A running kernel, its client, and the file its process's standard error goes to."""

    def __init__(self, client: BlockingKernelClient, log: Path) -> None:
        self.client = client
        self.log = log

    def page(self, msg_id: str) -> list[dict[str, Any]]:
        """Every iopub message answering ``msg_id``, up to the kernel's idle (what the page gets)."""
        got = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            message = self.client.get_iopub_msg(timeout=30)
            if message["parent_header"].get("msg_id") != msg_id:
                continue
            got.append(message)
            if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
                return got
        raise AssertionError("the kernel did not answer")

    def send(self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None) -> str:
        message = self.client.session.msg(msg_type, content, metadata=metadata or {})
        self.client.shell_channel.send(message)
        return str(message["header"]["msg_id"])

    def run(self, code: str) -> list[dict[str, Any]]:
        return self.page(self.client.execute(code))

    def kernel_log(self) -> str:
        time.sleep(0.3)  # the log is written as the message is handled; let it reach the file
        return self.log.read_text("utf-8", errors="replace")


@pytest.fixture(scope="module", params=["ipykernel", "zygote"])
def kernel(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kernel]:
    folder = tmp_path_factory.mktemp(str(request.param))
    log = folder / "kernel-stderr.txt"
    with log.open("w") as stderr:
        if request.param == "ipykernel":
            manager = KernelManager(kernel_name="python3")
            manager.start_kernel(env=ENV, stderr=stderr, cwd=str(ROOT / "lessons"))
            client = manager.client()
            stop = manager.shutdown_kernel
        else:
            zygote = subprocess.Popen([sys.executable, "-m", "tutor.server.zygote"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=stderr, cwd=ROOT)
            assert zygote.stdin is not None and zygote.stdout is not None
            assert json.loads(zygote.stdout.readline())["ready"] is True
            connection = folder / "kernel.json"
            write_connection_file(str(connection))
            argv = [sys.executable, "-m", "ipykernel_launcher", "-f", str(connection)]
            zygote.stdin.write(json.dumps({"argv": argv, "env": ENV, "cwd": str(ROOT / "lessons")}).encode() + b"\n")
            zygote.stdin.flush()
            assert "pid" in json.loads(zygote.stdout.readline())
            client = BlockingKernelClient(connection_file=str(connection))
            client.load_connection_file()

            def stop(now: bool = True) -> None:
                zygote.kill()
                zygote.wait(10)
        client.start_channels()
        client.wait_for_ready(timeout=60)
        running = Kernel(client, log)
        try:
            assert running.run("import widgets")[-1]["content"]["execution_state"] == "idle"
            yield running
        finally:
            client.stop_channels()
            stop(now=True)


def _open(kernel: Kernel, target: str, metadata: dict[str, Any], data: object) -> list[dict[str, Any]]:
    comm_id = uuid.uuid4().hex
    answer = kernel.page(kernel.send("comm_open", {"comm_id": comm_id, "target_name": target, "data": data},
                                     metadata))
    _clean(answer)
    return [m for m in answer if m["msg_type"] == "comm_close" and m["content"]["comm_id"] == comm_id]


def _clean(messages: list[dict[str, Any]]) -> None:
    for message in messages:
        if message["msg_type"] == "execute_input":
            continue  # the page's own code, sent back to it
        said = json.dumps(message["content"], ensure_ascii=False)
        assert not PYTHON_WORDS.search(said), f"Python's own words reached the page: {said[:500]}"


STATE = {"_model_module": "@jupyter-widgets/controls", "_model_module_version": "2.0.0", "_model_name": "HTMLModel",
         "_view_module": "@jupyter-widgets/controls", "_view_module_version": "2.0.0", "_view_name": "HTMLView",
         "value": "made by the page"}
"""A widget the page may make (anywidget's widgets are made by the kernel only, but open their
comms with the same target and protocol version)."""


@pytest.mark.parametrize(("target", "version"), [
    ("jupyter.widget", "1.0.0"), ("jupyter.widget", "3.0"), ("jupyter.widget", ""), ("jupyter.widget", 2),
    ("jupyter.widget", None), ("jupyter.widget", "x" * 5000), ("jupyter.widget.control", "2.0.0"),
    ("jupyter.widget.control", None),
], ids=["old", "newer", "empty", "number", "none", "huge", "control", "control-none"])
def test_a_wrong_protocol_version_is_refused_in_one_line(kernel: Kernel, target: str, version: object) -> None:
    metadata = {} if version is None else {"version": version}
    closed = _open(kernel, target, metadata, {"state": STATE, "buffer_paths": []})
    assert closed, "the comm was not closed"
    log = kernel.kernel_log()
    refusals = [line for line in log.splitlines() if "refused a widget" in line]
    assert refusals and len(refusals[-1]) < 200 and repr(version)[:40] in refusals[-1], log[-2000:]
    assert "Incompatible widget" not in log and "Traceback" not in log, log[-2000:]


def test_other_hostile_comms_never_reach_the_page(kernel: Kernel) -> None:
    """A widget nobody registered, a target nobody registered, no state at all, and control
    messages of no known shape: what fails is logged for the kernel, the page gets nothing
    of Python's (the comm manager's own log is the kernel's)."""
    assert _open(kernel, "jupyter.widget", {"version": "2.1.0"}, {"state": {**STATE, "_model_name": "NoSuchModel"}})
    assert _open(kernel, "jupyter.widget", {"version": "2.1.0"}, {"nothing": 1})
    assert _open(kernel, "jupyter.widget", {"version": "2.1.0"}, "not a dict")
    assert _open(kernel, "no.such.target", {}, {})
    control = uuid.uuid4().hex
    _clean(kernel.page(kernel.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                                 "data": {}}, {"version": "1.0.0"})))
    for data in ({}, {"method": 5}, "junk"):
        _clean(kernel.page(kernel.send("comm_msg", {"comm_id": control, "data": data})))
    assert "Exception opening comm" in kernel.kernel_log()  # logged where the teacher's server keeps it


def test_the_right_versions_still_open(kernel: Kernel) -> None:
    """The guard lets the page's own comms through: the control comm answers a request for
    the widgets' states, and a widget the page opens with the right version is made."""
    control = uuid.uuid4().hex
    answer = kernel.page(kernel.send("comm_open", {"comm_id": control, "target_name": "jupyter.widget.control",
                                                   "data": {}}, {"version": "1.0.0"}))
    assert not [m for m in answer if m["msg_type"] == "comm_close"]
    answer = kernel.page(kernel.send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}}))
    assert any(m["msg_type"] == "comm_msg" and m["content"]["data"].get("method") == "update_states"
               for m in answer), answer
    made = uuid.uuid4().hex
    answer = kernel.page(kernel.send("comm_open", {"comm_id": made, "target_name": "jupyter.widget",
                                                   "data": {"state": STATE, "buffer_paths": []}}, {"version": "2.1.0"}))
    assert not [m for m in answer if m["msg_type"] == "comm_close"], answer
    printed = kernel.run("from ipywidgets.widgets.widget import _instances\n"
                         f"print(type(_instances[{made!r}]).__name__)")
    assert any(m["msg_type"] == "stream" and "HTML" in m["content"]["text"] for m in printed), printed


def test_the_widgets_log_is_the_kernels_not_the_pages(kernel: Kernel) -> None:
    """The widgets' log (a failure nobody foresaw) goes to the kernel's own standard error,
    which ipykernel does not send the page."""
    answer = kernel.run("from widgets._common import LOG\nLOG.error('qd-log-check: Traceback (most recent call last)')")
    _clean(answer)
    assert "qd-log-check" in kernel.kernel_log()
