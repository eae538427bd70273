"""The test suite's two speeds.

``./dev test`` runs everything (CI does). ``./dev quick`` runs the inner loop — the rules, the
drills, the widgets' kernels, the doctests — and leaves out what is marked ``slow``: every
test in a browser (``tests/browser``), every lesson run whole by nbval (``lessons/*.ipynb``),
every test that starts a real server (the modules in :data:`SERVER_TESTS`), and the long
property runs marked ``@pytest.mark.slow`` where they are written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
SERVER_TESTS = frozenset({"test_admission.py", "test_hostile_http.py", "test_kernels.py", "test_serve.py",
                          "test_zygote.py", "test_drawn_pages.py", "test_site_build.py"})
"""Test modules that start a Voila server, a kernel zygote, or build part of the static site."""


def is_slow(path: Path) -> bool:
    """Whether every test of the file at ``path`` belongs to the full run only.

    >>> is_slow(ROOT / "tests" / "browser" / "test_lessons.py"), is_slow(ROOT / "lessons" / "05-following.ipynb")
    (True, True)
    >>> is_slow(ROOT / "tests" / "test_game.py")
    False
    """
    parts = path.resolve().relative_to(ROOT).parts
    return (parts[:2] == ("tests", "browser") or path.suffix == ".ipynb"
            or (parts[0] == "tests" and path.name in SERVER_TESTS))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(Path(str(item.path))):
            item.add_marker(pytest.mark.slow)
