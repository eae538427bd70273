"""The clock a think-time is measured by: CPU seconds where the platform counts them, else
seconds of the wall clock.

CPython counts a process's CPU time (:func:`time.process_time`), so a computer player's
think-time is not stretched by other work on the machine. In the browser (Pyodide, on
WebAssembly) ``process_time()`` reads 0 whatever runs, and a limit measured by it never
fires: there the clock is :func:`time.perf_counter`, which runs (the page's one Python
does nothing else while a player thinks).

>>> start = thinking_time()
>>> sum(range(100_000)) > 0 and thinking_time() - start >= 0
True
>>> counts_cpu()  # CPython
True
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Final


def counts_cpu(platform: str = sys.platform) -> bool:
    """True where :func:`time.process_time` counts the CPU time spent (not in Pyodide,
    whose ``sys.platform`` is ``"emscripten"``).

    >>> counts_cpu("linux"), counts_cpu("emscripten")
    (True, False)
    """
    return platform != "emscripten"


thinking_time: Final[Callable[[], float]] = time.process_time if counts_cpu() else time.perf_counter
"""Seconds by the clock a think-time is measured by (only differences mean anything)."""

__all__ = ["counts_cpu", "thinking_time"]
