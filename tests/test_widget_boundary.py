"""One family of errors, one boundary: every refusal of the tutor is a TutorError, the
widgets catch nothing wider except at one place (widgets._common.boundary), and there an
error nobody foresaw is logged with its traceback to the kernel's log, never the page,
while the widget says "Something went wrong; nothing was changed" in its language."""

from __future__ import annotations

import ast
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")

from tutor.core.errors import TutorError  # noqa: E402
from tutor.core.i18n import Translator  # noqa: E402
from tutor.play.record import HandFileError  # noqa: E402
from tutor.teach.classroom import ClassroomError, CodeError  # noqa: E402
from tutor.teach.drills import DrillError, GenerationError  # noqa: E402
from tutor.teach.drills.answers import AnswerError  # noqa: E402
from tutor.teach.drills.progress import ProgressError  # noqa: E402
from tutor.teach.positions import PositionError  # noqa: E402
from widgets import ClassProgress, CourseMap, DrillPlayer, HandIn, Table  # noqa: E402
from widgets._common import COMM_LOGS, FAILED, LOG, PageWidget, own_stderr  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def test_every_error_of_the_tutor_is_a_tutor_error() -> None:
    for error in (DrillError, GenerationError, ProgressError, AnswerError, ClassroomError, CodeError, PositionError,
                  HandFileError):
        assert issubclass(error, TutorError) and issubclass(error, ValueError), error


def _broad_handlers(path: Path) -> list[tuple[str, int]]:
    """``(function, line)`` of every handler in ``path`` that catches more than an error of the
    tutor: a bare ``except``, ``Exception`` or ``BaseException``."""
    found = []
    tree = ast.parse(path.read_text("utf-8"))
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ExceptHandler):
                names = [] if node.type is None else [ast.unparse(t) for t in (
                    node.type.elts if isinstance(node.type, ast.Tuple) else [node.type])]
                if node.type is None or {"Exception", "BaseException"} & set(names):
                    found.append((function.name, node.lineno))
    return found


def test_the_widgets_catch_nothing_wider_than_the_tutors_errors_but_at_the_boundary() -> None:
    broad = {(path.name, line) for path in sorted((ROOT / "widgets").glob("*.py")) for _, line in _broad_handlers(path)}
    assert len(broad) == 1 and next(iter(broad))[0] == "_common.py", broad
    assert "guarded" in {name for name, _ in _broad_handlers(ROOT / "widgets" / "_common.py")}  # in boundary()


@pytest.fixture()
def kernel_log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """What the widgets log (their records go to the kernel's log only, so the capture is
    put on their logger)."""
    LOG.addHandler(caplog.handler)
    try:
        yield caplog
    finally:
        LOG.removeHandler(caplog.handler)


def comm(content: object) -> dict[str, Any]:
    return {"content": {"data": {"method": "custom", "content": content}}, "buffers": []}


def test_an_unforeseen_error_is_logged_and_said_never_shown(kernel_log: pytest.LogCaptureFixture,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    player = DrillPlayer("follow", seed=1, lang="zh-Hans")
    sent: list[Any] = []
    player._send = lambda msg, buffers=None: sent.append(msg)
    before = (player.progress, dict(player.state), dict(player.stats))

    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("the kernel's own words")

    monkeypatch.setattr(DrillPlayer, "next", broken)
    player._handle_msg(comm({"type": "next", "request": 4}))
    assert player.progress_note == Translator("zh-Hans")(FAILED)
    assert (player.progress, dict(player.state), dict(player.stats)) == before
    assert player.handled == {"request": 4, "type": "next", "ignored": False, "work": 0}
    assert "kernel's own words" not in str(sent) and "Traceback" not in str(sent)
    assert len(sent) == 1  # the note and the answer to the request: one update
    record = next(r for r in kernel_log.records if r.name == "widgets")
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert "kernel's own words" in kernel_log.text and "Traceback" in kernel_log.text


def test_the_kernels_log_is_not_the_pages() -> None:
    """The widgets' log and the comm manager's write to the kernel process's own standard
    error (a real kernel: tests/test_comm_open.py)."""
    import sys

    for log in (LOG, *map(logging.getLogger, COMM_LOGS)):
        assert log.propagate is False and log.handlers  # a notebook's root handler (the page) never sees it
        assert any(getattr(handler, "stream", None) is own_stderr() for handler in log.handlers)
    assert own_stderr() is sys.__stderr__  # outside a kernel: the process's own


class _Comm:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("metadata", [{"version": "0.1.0"}, {"version": 2}, {}, {"version": "x" * 5000}, None, "junk"],
                         ids=["old", "number", "none", "huge", "no-metadata", "junk-metadata"])
@pytest.mark.parametrize("target", ["jupyter.widget", "jupyter.widget.control"])
def test_a_comm_of_another_protocol_version_is_refused_in_one_line(kernel_log: pytest.LogCaptureFixture,
                                                                   metadata: object, target: str) -> None:
    from ipywidgets.widgets.widget import Widget

    opener = Widget.handle_comm_opened if target == "jupyter.widget" else Widget.handle_control_comm_opened
    comm = _Comm()
    opener(comm, {"metadata": metadata, "content": {"data": {"state": {}}}})  # ipywidgets would raise
    assert comm.closed
    (record,) = kernel_log.records
    assert record.levelno == logging.WARNING and record.exc_info is None and len(record.getMessage()) < 200
    assert "refused a widget" in record.getMessage()


@pytest.mark.parametrize("make", [lambda: Table(seed=3, pause_ms=0, deal_ms=0), lambda: CourseMap(query=""),
                                  lambda: HandIn(), lambda: ClassProgress()], ids=["table", "map", "hand-in", "class"])
def test_every_widget_says_an_unforeseen_error_in_its_own_way(make: Any, kernel_log: pytest.LogCaptureFixture) -> None:
    widget: PageWidget = make()

    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    widget.on_msg(broken)
    widget._handle_msg(comm({"type": "whatever"}))
    said = str(widget.get_state())
    assert Translator("en")(FAILED) in said and "boom" not in said
    assert "boom" in kernel_log.text


def test_a_refusal_is_not_an_unforeseen_error(kernel_log: pytest.LogCaptureFixture) -> None:
    player = DrillPlayer("follow", seed=1)
    player._handle_msg(comm({"type": "level", "level": 9}))
    assert "cannot be chosen" in player.progress_note and not kernel_log.records
    table = Table(seed=3, pause_ms=0, deal_ms=0)
    table._handle_msg(comm({"type": "import", "text": "# not a hand file"}))
    assert table.load_error and not kernel_log.records
