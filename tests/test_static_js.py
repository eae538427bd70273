"""Every script the widgets send to the browser parses (a syntax error would leave a
widget blank, and only the slow browser tests would notice)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).resolve().parent.parent / "widgets" / "static").glob("*.js"))


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_the_script_parses(script: Path, tmp_path: Path) -> None:
    module = tmp_path / f"{script.stem}.mjs"  # the widgets' scripts are ES modules
    module.write_text(script.read_text("utf-8"), "utf-8")
    checked = subprocess.run(["node", "--check", str(module)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
