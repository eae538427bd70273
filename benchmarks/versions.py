"""What the benchmarks' ``--before REV`` needs to measure older code: a checkout of it, a
script's figures measured on it, and its modules, wherever that version kept them.

>>> tutor_module("rules.game").__name__
'tutor.rules.game'
>>> with worktree("HEAD") as tree:
...     (tree / "tutor" / "rules" / "game.py").is_file()
True
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
"""This checkout: the code measured as "after"."""


@contextmanager
def worktree(rev: str) -> Iterator[Path]:
    """A detached checkout of git revision ``rev`` (a worktree in a temporary directory),
    removed with its directory afterwards."""
    with tempfile.TemporaryDirectory(prefix="qd-before-") as tmp:
        tree = Path(tmp) / "repo"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), rev], check=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)


def measured_in(tree: Path, script: str, *args: str) -> Any:
    """What ``script`` (this checkout's file) prints with ``--json`` and ``args``, run in a
    subprocess on the code in ``tree``: ``tree`` comes first on its path, ahead of the
    installed project, so its ``tutor`` is the one measured."""
    out = subprocess.run([sys.executable, str(Path(script).resolve()), "--json", *args], cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)),
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def tutor_module(path: str) -> ModuleType:
    """``tutor.<path>`` (``rules.game``), or ``tutor.<name>`` (``tutor.game``) in code from
    before the rules and the players had packages of their own (issue 30's baseline, 9bfb69f)."""
    try:
        return importlib.import_module(f"tutor.{path}")
    except ImportError:
        return importlib.import_module(f"tutor.{path.rsplit('.', 1)[-1]}")
