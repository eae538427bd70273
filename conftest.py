"""The test suite's two speeds.

``./dev test`` runs everything (CI does). ``./dev quick`` runs the inner loop — the rules, the
drills, the widgets' kernels, the doctests — and leaves out what is marked ``slow``: every
test in a browser (``tests/browser``), every lesson run whole by nbval (``lessons/*.ipynb``),
every test that starts a real server or runs a whole lesson (the modules in :data:`SLOW_MODULES`),
the long runs named in :data:`SLOW_TESTS`, and those marked ``@pytest.mark.slow`` where they are
written.
"""

from __future__ import annotations

import os
import tempfile
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
collect_ignore_glob = ["tutor/server/tables/migrations/*"]  # Alembic's scripts: run by the journal, not imported
SLOW_MODULES = frozenset({"test_admission.py", "test_hostile_http.py", "test_kernels.py", "test_serve.py",
                          "test_zygote.py", "test_drawn_pages.py", "test_site_build.py",
                          "test_lesson_outputs.py", "test_lessons_in_chinese.py", "test_prerender.py"})
"""Test modules that start a Voila server or a kernel zygote, build part of the static site, or
run every lesson whole."""
SLOW_TESTS = (
    "tests/test_strategy.py::test_thousands_of_*",
    "tests/test_game.py::test_thousands_of_*",
    "tests/test_drills.py::test_a_drill_speaks_its_own_language_whatever_the_kernels*",
    "tests/test_sheets.py::test_the_key_of_a_coachs_drill_says_advice_not_a_rule",
    "tests/test_sheets.py::test_every_lesson_with_drills_has_a_sheet[[]11-*",
    "tests/test_inline_checks.py::*[[]11-*",
    # the exhaustive runs: thousands of generated inputs, every drill answered every way
    "tests/test_fuzz_api.py::test_every_public_function_answers_or_refuses_clearly",
    "tests/test_drills.py::test_every_answer_is_recomputed*",
    "tests/test_drills.py::test_chinese_answer_errors_have_no_english*",
    "tests/test_drills_fair.py::test_every_drill_is_answerable_from_the_screen*",
    "tests/test_hostile_widgets.py::test_drill_messages*",
    "tests/test_hostile_links.py::test_a_hostile_link_gives_notes_not_errors*",
    "tests/test_table.py::test_a_tampered_import_shows_an_error_and_keeps_the_hand*",
    "tests/test_table.py::test_a_table_speaks_its_own_language_whatever_the_kernels*",
    "tests/test_table.py::test_export_import_replay_reproduces_the_hand",
)
"""Single tests (``fnmatch`` patterns of node ids) that take seconds each."""


def is_slow(path: Path) -> bool:
    """Whether every test of the file at ``path`` belongs to the full run only.

    >>> is_slow(ROOT / "tests" / "browser" / "test_lessons.py"), is_slow(ROOT / "lessons" / "05-following.ipynb")
    (True, True)
    >>> is_slow(ROOT / "tests" / "test_game.py")
    False
    """
    parts = path.resolve().relative_to(ROOT).parts
    return (parts[:2] == ("tests", "browser") or path.suffix == ".ipynb"
            or (parts[0] == "tests" and path.name in SLOW_MODULES))


def is_slow_test(nodeid: str) -> bool:
    """Whether the test ``nodeid`` is one of :data:`SLOW_TESTS`.

    >>> is_slow_test("tests/test_drills.py::test_same_seed_same_drill[advice]")
    True
    >>> is_slow_test("tests/test_drills.py::test_same_seed_same_drill[follow]")
    False
    """
    return any(fnmatchcase(nodeid, pattern) for pattern in SLOW_TESTS)


def pytest_configure(config: pytest.Config) -> None:
    """Every tables' server the tests start keeps its journal in a database of this run's own
    (never the user's data folder), unless a test names another."""
    if "QD_TABLES_DATABASE" not in os.environ:
        folder = Path(tempfile.mkdtemp(prefix="qd-tables-db-"))
        os.environ["QD_TABLES_DATABASE"] = f"sqlite:///{folder / 'tables-{port}.sqlite3'}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if is_slow(Path(str(item.path))) or is_slow_test(item.nodeid):
            item.add_marker(pytest.mark.slow)
