"""The serve log holds what a teacher can act on: the notices no teacher can are left out.

Two warnings came with every page a learner opened, drowning what matters (a kernel that
died, a class that is full):

- Jupyter Server's "Notebook 05-following.ipynb is not trusted": a lesson's outputs are
  never shown from the file (the course saves lessons without outputs and runs them), so
  trust decides nothing here.
- ipykernel's "Kernel is running over TCP without encryption …": the course's kernels
  listen on 127.0.0.1 only, beside the server that talks to them.

:func:`install` leaves them out of the server's log (Voila's logger, which Jupyter Server's
contents manager logs to), :func:`install_in_kernel` out of a kernel's (the zygote calls it
in each forked kernel, :mod:`tutor.server.zygote`). Everything else is logged as before.

>>> import logging
>>> record = logging.LogRecord("Voila", logging.WARNING, "", 0, "Notebook %s is not trusted", ("index.ipynb",), None)
>>> Unhelpful().filter(record)
False
>>> Unhelpful().filter(logging.LogRecord("Voila", logging.WARNING, "", 0, "Kernel died", (), None))
True
"""

from __future__ import annotations

import logging
from typing import Final

__all__ = ["NOISE", "Unhelpful", "install", "install_in_kernel"]

NOISE: Final = ("Kernel is running over TCP without encryption.",)
"""How the messages left out begin (besides the notebook's trust, :meth:`Unhelpful.filter`)."""


class Unhelpful(logging.Filter):
    """Leaves out the records no teacher can act on (see the module)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a record that cannot be formatted is kept: the handler says so
            return True
        if message.startswith("Notebook ") and message.endswith(" is not trusted"):
            return False
        return not message.startswith(NOISE)


def _add(name: str) -> None:
    logger = logging.getLogger(name)
    if not any(isinstance(f, Unhelpful) for f in logger.filters):
        logger.addFilter(Unhelpful())


def install() -> None:
    """The server's log (Voila's, and Jupyter Server's when Voila is its extension) without the noise."""
    for name in ("Voila", "ServerApp"):
        _add(name)


def install_in_kernel() -> None:
    """A kernel's log (ipykernel's application) without the noise."""
    _add("IPKernelApp")
