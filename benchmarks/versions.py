"""What the benchmarks' ``--before REV`` needs to measure older code: its modules, wherever
that version kept them.

>>> tutor_module("rules.game").__name__
'tutor.rules.game'
"""

from __future__ import annotations

import importlib
from types import ModuleType


def tutor_module(path: str) -> ModuleType:
    """``tutor.<path>`` (``rules.game``), or ``tutor.<name>`` (``tutor.game``) in code from
    before the rules and the players had packages of their own (issue 30's baseline, 9bfb69f)."""
    try:
        return importlib.import_module(f"tutor.{path}")
    except ImportError:
        return importlib.import_module(f"tutor.{path.rsplit('.', 1)[-1]}")
