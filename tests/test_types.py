"""The type checker runs over the packages (mypy --strict, configured in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

import pytest

api = pytest.importorskip("mypy.api")


def test_mypy_strict_passes() -> None:
    root = Path(__file__).resolve().parents[1]
    stdout, stderr, status = api.run(["--config-file", str(root / "pyproject.toml"),
                                      str(root / "tutor"), str(root / "widgets")])
    assert status == 0, stdout + stderr
