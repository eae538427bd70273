"""What the widgets share: where the front end lives, the style sheet, UI labels,
cards turned into what the front end draws, and :class:`PageWidget`, which takes from
the page only what the page may send. No rules here.

Every message a page sends a widget goes through :func:`boundary`, the one place an error
nobody foresaw is caught: it is logged with its traceback to the kernel's log (never to
the page), and the widget says :data:`FAILED` in the learner's language. Everywhere else a
widget catches only :class:`~tutor.core.errors.TutorError` (or one of its kind): a refusal
with a reason to show.

A page can also open a widget's comm (``comm_open``) with anything in it. ipywidgets raises on
a protocol version it does not speak, and the kernel's comm manager logs every failure to
open a comm, or to handle a comm message, with its traceback to a logger nobody set up — which
Python writes to ``sys.stderr``, the page's output. So :func:`guard_widget_comms` (run at
import) refuses a wrong version with one short line in the kernel's log, and the comm
manager's loggers write to the kernel's log too (:func:`_kernel_log`): no traceback reaches
the page."""

from __future__ import annotations

import logging
import sys
from datetime import datetime, timezone
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Concatenate, Final, ParamSpec, TextIO, TypeVar

import anywidget
import ipywidgets
from IPython import get_ipython
from ipywidgets.widgets.widget import (CONTROL_PROTOCOL_VERSION_MAJOR, PROTOCOL_VERSION_MAJOR, Widget,
                                       __control_protocol_version__, __protocol_version__)

from tutor.teach.display import CARD_CSS
from tutor.core.i18n import N_, Text, Translator, current, said
from tutor.rules.order import Trump
from widgets.requests import FAILED as FAILED, positions_ok as positions_ok  # (the page request protocol's)

STATIC: Final = Path(__file__).with_name("static")
COMMON_JS: Final = (STATIC / "common.js").read_text("utf-8")
"""What every front end shares (element building, label templates, the card picker)."""
ESM: Final = COMMON_JS + (STATIC / "qd.js").read_text("utf-8")
CSS: Final = CARD_CSS + (STATIC / "qd.css").read_text("utf-8")

LABELS: Final = {
    "hand": N_("Your hand"),
    "selected": N_("{card}: selected."),
    "deselected": N_("{card}: not selected."),
    "picked": N_("{count} picked."),
    "picked_of": N_("{count} of {pick} picked."),
    "answer": N_("Answer"),
    "number": N_("Your answer (a whole number)"),
    "check": N_("Check"),
    "hint": N_("Hint"),
    "hint_count": N_("{hint} ({shown}/{total})"),
    "retry": N_("Retry"),
    "next": N_("Next"),
    "reset": N_("Reset progress"),
    "reset_ask": N_("Reset all your progress in this browser? Streaks and stars start again from zero."),
    "reset_yes": N_("Yes, reset"),
    "reset_no": N_("Cancel"),
    "dismiss": N_("Dismiss"),
    "right": N_("Right."),
    "wrong": N_("Wrong."),
    "unreadable": N_("That answer could not be checked:"),
    "rule": N_("Rule {rule}"),
    "advice": N_("Advice, not a rule"),
    "answer_one": N_("Correct answer:"),
    "answers": N_("Correct answers:"),
    "answers_some": N_("{shown} of {count} correct answers:"),
    "practice": N_("Practice round: only your first answer to a drill counts for the streak."),
    "streak": N_("Streak: {count}"),
    "stars": N_("Stars: {count} of {max}"),
}
"""Every fixed text of the front end, as English templates for :class:`Translator`."""


def labels(tr: Translator) -> dict[str, str]:
    """The front end's texts in ``tr``'s language (placeholders stay for the front end)."""
    return {key: tr(text) for key, text in LABELS.items()}


def translator(lang: str | None) -> Translator:
    """The translator of ``lang``, or of this kernel's language when no language is
    given (a Voila page sets it before any cell runs)."""
    return current() if lang is None else Translator(lang)


MAX_TYPE: Final = 40
"""A message ``type`` longer than this is no message of a page."""


LOG: Final = logging.getLogger("widgets")
"""The widgets' log: the kernel's own (the kernel process's standard error, which Jupyter and
Voila keep in the server's log), never the page. It does not pass its records on to the root
logger, which a notebook may have pointed at the page (``logging.basicConfig()`` in a kernel
writes to the cell's output)."""
COMM_LOGS: Final = ("ipykernel.comm", "Comm")
"""The loggers of the kernel's comm manager (ipykernel's and the ``comm`` package's): they
log a comm the page opened or wrote to that could not be handled, with its traceback, and
have no handler of their own, so Python would write them to ``sys.stderr`` — the page."""


@cache
def _writer(fd: int) -> TextIO:
    return open(fd, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115 - kept open


def own_stderr() -> TextIO:
    """The kernel process's own standard error (the server's log). In a kernel ``sys.stderr``
    is the page's output, and ipykernel also sends the page whatever is written to file
    descriptor 2 (its ``capture_fd_output``, on by default), keeping the process's own
    standard error open as ``sys.stderr._original_stdstream_copy``: that one when there is
    one (ipykernel's own log writes there too), else ``sys.__stderr__``."""
    copy = getattr(sys.stderr, "_original_stdstream_copy", None)
    if type(copy) is int:
        return _writer(copy)
    return sys.__stderr__ if sys.__stderr__ is not None else _writer(2)


class _OwnStderr(logging.StreamHandler):  # type: ignore[type-arg]
    """A handler writing to :func:`own_stderr`, looked up for each record (a zygote's kernel
    is set up after this module is imported)."""

    @property
    def stream(self) -> TextIO:
        return own_stderr()

    @stream.setter
    def stream(self, value: object) -> None:
        """Always :func:`own_stderr` (``StreamHandler`` sets its stream when it is made)."""

    def handleError(self, record: logging.LogRecord) -> None:
        """Say nothing: a record the kernel's log cannot take has nowhere else to go but the page."""


def _kernel_log(log: logging.Logger) -> logging.Logger:
    """``log``, writing to the kernel process's own standard error (:func:`own_stderr`) and
    not to its parents."""
    if not any(isinstance(handler, _OwnStderr) for handler in log.handlers):
        handler = _OwnStderr()
        handler.setFormatter(logging.Formatter("[%(name)s] %(levelname)s %(message)s"))
        log.addHandler(handler)
    log.propagate = False
    return log


_kernel_log(LOG)
for _name in COMM_LOGS:
    _kernel_log(logging.getLogger(_name))

CommOpener = Callable[[Any, Any], None]
"""A comm target's handler: called with the comm and the ``comm_open`` message the page sent."""


def _checked_version(open_comm: CommOpener, major: str, version: str, what: str) -> CommOpener:
    """``open_comm``, refusing a ``comm_open`` whose metadata names another protocol version
    than ``major`` (``version`` in full): one line in :data:`LOG` and the comm closed, never a
    traceback (ipywidgets raises, and the kernel logs it with its traceback)."""
    def opened(comm: Any, msg: Any) -> None:
        metadata = msg.get("metadata") if isinstance(msg, dict) else None
        asked = metadata.get("version") if isinstance(metadata, dict) else None
        if isinstance(asked, str) and asked.split(".")[0] == major:
            open_comm(comm, msg)
            return
        LOG.warning("refused a %s comm the page opened: it speaks protocol version %s, this kernel %s",
                    what, repr(asked)[:40], version)
        comm.close()

    opened.__doc__ = open_comm.__doc__
    setattr(opened, "qd_guarded", True)
    return opened


def guard_widget_comms() -> None:
    """Guard the two comm targets of ipywidgets (anywidget's widgets use them too) against a
    ``comm_open`` of another protocol version (:func:`_checked_version`); once, however
    often it is called. The guard is put on ipywidgets' own handlers, so every registration
    of the targets takes it: ipywidgets' own when it is imported in a running kernel, the
    one made again here, and the kernel zygote's (``tutor.server.zygote``, which imports
    this module before a kernel runs and registers the targets once its kernel starts)."""
    if getattr(Widget.handle_comm_opened, "qd_guarded", False):
        return
    Widget.handle_comm_opened = staticmethod(_checked_version(
        Widget.handle_comm_opened, PROTOCOL_VERSION_MAJOR, __protocol_version__, "widget"))
    Widget.handle_control_comm_opened = staticmethod(_checked_version(
        Widget.handle_control_comm_opened, CONTROL_PROTOCOL_VERSION_MAJOR, __control_protocol_version__,
        "widget control"))
    if get_ipython() is not None:
        ipywidgets.register_comm_target()  # as ipywidgets does at import in a kernel: now with the guard


guard_widget_comms()

W = TypeVar("W", bound="PageWidget")
P = ParamSpec("P")


def boundary(handle: Callable[Concatenate[W, P], None]) -> Callable[Concatenate[W, P], None]:
    """The one boundary of a widget's message handling: ``handle`` runs with the widget's
    updates held (what it changes, and what it says, reaches the page in one update); an
    error nobody foresaw is logged with its traceback to :data:`LOG` and the widget says
    :data:`FAILED` (:meth:`PageWidget._failed`), never a traceback. Every message of a page
    comes in through the two handlers of :class:`PageWidget` that wear it; nothing else in
    the widgets catches more than a :class:`~tutor.core.errors.TutorError`.

    >>> class Broken(PageWidget):
    ...     note = ""
    ...     def _failed(self):
    ...         self.note = "failed"
    >>> widget = Broken()
    >>> widget.on_msg(lambda *args: 1 / 0)
    >>> widget._handle_custom_msg({"type": "go"}, [])  # logged: ZeroDivisionError, with its traceback
    >>> widget.note
    'failed'
    """
    def guarded(widget: W, /, *args: P.args, **kwargs: P.kwargs) -> None:
        with widget.hold_sync():
            try:
                handle(widget, *args, **kwargs)
            except Exception:  # noqa: BLE001 - the one boundary: logged for the kernel, said in the learner's words
                LOG.error("%s: a message from the page could not be handled; the page was told nothing changed",
                          type(widget).__name__, exc_info=True)
                widget._failed()

    guarded.__name__, guarded.__qualname__, guarded.__doc__ = handle.__name__, handle.__qualname__, handle.__doc__
    return guarded


def problem_of(error: BaseException) -> Text | None:
    """What ``error`` says to a learner: the tutor's own reason (a :class:`~tutor.core.i18n.Text`,
    to be said in the learner's language), or None when the words are Python's
    ("invalid literal for int() …"): those are never shown; say a plain sentence instead.

    >>> from tutor.core.errors import TutorError
    >>> problem_of(TutorError(Text("level {n}", n=4))), problem_of(ValueError("invalid literal"))
    ('level 4', None)
    """
    message = said(error)
    return message if isinstance(message, Text) else None


class PageWidget(anywidget.AnyWidget):
    """An anywidget that takes from its page only what the page may send.

    ipywidgets hands every comm message to ``_handle_msg``: a state update (the page's
    ``model.set`` and ``save_changes``), a state request, or a custom message (its
    ``model.send``). A script on the page can send anything, and upstream a message of
    the wrong shape raises (no ``method``, a value a trait refuses, bad buffer paths)
    and ipywidgets shows the traceback on the page. Here every message is checked
    before anything is done, and what fails the check is ignored:

    - an update may set only the traits the page itself sets (:attr:`_page_sets`), to
      values :meth:`_page_value` accepts, with no binary buffers; a refused update
      changes nothing (the page is sent the kernel's own values of what it tried to set);
    - a custom message must be a dict with a short string ``type``; each handler
      registered with ``on_msg`` gets it.

    Both handlers go through :func:`boundary`: a failure nobody foresaw is logged (the
    kernel's log, never the page) and :meth:`_failed` says so in the learner's words.
    """

    _page_sets: ClassVar[frozenset[str]] = frozenset()
    """The traits the page sets (see ``model.set`` in ``widgets/static/*.js``)."""

    def _page_value(self, name: str, value: object) -> bool:
        """Whether the page may set trait ``name`` to ``value`` (by default: nothing)."""
        return False

    def _failed(self) -> None:
        """Say that handling a message failed (by default nothing is said)."""

    @boundary
    def _handle_msg(self, msg: object) -> None:
        content = msg.get("content") if isinstance(msg, dict) else None
        data = content.get("data") if isinstance(content, dict) else None
        method = data.get("method") if isinstance(data, dict) else None
        if not isinstance(data, dict) or not isinstance(method, str):
            return
        if method == "update":
            if not data.get("buffer_paths"):  # no trait of these widgets is binary
                self.set_state(data.get("state"))
        elif method == "request_state":
            self.send_state()
        elif method == "custom" and "content" in data:
            buffers = msg.get("buffers") if isinstance(msg, dict) else None
            self._handle_custom_msg(data["content"], buffers if isinstance(buffers, list) else [])

    def set_state(self, sync_data: object) -> None:
        """Take a state update from the page if the page may send it (see the class);
        else change nothing."""
        if not isinstance(sync_data, dict) or not sync_data or len(sync_data) > len(self._page_sets) or not all(
                isinstance(name, str) and name in self._page_sets and self._page_value(name, value)
                for name, value in sync_data.items()):
            if isinstance(sync_data, dict) and len(sync_data) <= len(self._page_sets):
                asked = [name for name in sync_data if isinstance(name, str) and name in self._page_sets]
                if asked:
                    self.send_state(asked)  # the page shows what the kernel holds again
            return
        super().set_state(sync_data)

    @boundary
    def _handle_custom_msg(self, content: object, buffers: list[Any]) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if not isinstance(kind, str) or len(kind) > MAX_TYPE:
            return
        for callback in list(self._msg_callbacks.callbacks):
            callback(self, content, buffers)


def utc_now() -> datetime:
    """The time now in UTC: the widgets' clock when none is given (tests pass their own)."""
    return datetime.now(timezone.utc)

