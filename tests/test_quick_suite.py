"""The quick suite (``./dev quick``, ``-m "not slow"``) leaves out what the root ``conftest.py``
says is slow: every browser test, every whole lesson, every server, and the named long runs —
and nothing it names is stale."""

from __future__ import annotations

import importlib.util
from pathlib import Path

# The root conftest.py, by its path ("conftest" alone may name tests/browser/conftest.py).
_spec = importlib.util.spec_from_file_location("root_conftest", Path(__file__).resolve().parents[1] / "conftest.py")
assert _spec is not None and _spec.loader is not None
suites = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suites)
ROOT, SLOW_MODULES, SLOW_TESTS = suites.ROOT, suites.SLOW_MODULES, suites.SLOW_TESTS
is_slow, is_slow_test = suites.is_slow, suites.is_slow_test


def test_every_browser_test_and_whole_lesson_is_slow() -> None:
    browser = sorted((ROOT / "tests" / "browser").glob("test_*.py"))
    lessons = sorted((ROOT / "lessons").glob("*.ipynb"))
    assert browser and lessons
    assert all(is_slow(path) for path in [*browser, *lessons])


def test_the_rules_drills_and_widgets_tests_are_quick() -> None:
    for name in ("test_game.py", "test_drills.py", "test_widgets.py", "test_rules_play.py", "test_layers.py"):
        assert not is_slow(ROOT / "tests" / name), name
    assert not is_slow(ROOT / "tutor" / "rules" / "follow.py")  # its doctests


def test_every_slow_module_and_named_test_exists() -> None:
    missing = [name for name in SLOW_MODULES if not (ROOT / "tests" / name).is_file()]
    assert not missing, f"SLOW_MODULES names files that are gone: {missing}"
    for pattern in SLOW_TESTS:
        files, _, test = pattern.partition("::")
        found = list(Path(ROOT).glob(files))
        assert found, f"{pattern}: no such test file"
        stem = test.split("[")[0].rstrip("*")
        if stem and not stem.startswith("*"):
            assert any(f"def {stem}" in path.read_text("utf-8") for path in found), f"{pattern}: no such test"


def test_named_long_runs_are_matched_by_their_node_ids() -> None:
    assert is_slow_test("tests/test_drills.py::test_chinese_answer_errors_have_no_english[follow-zh-Hans]")
    assert is_slow_test("tests/test_strategy.py::test_thousands_of_bot_hands_are_legal_zero_sum_and_deterministic")
    assert not is_slow_test("tests/test_drills.py::test_chinese_drills_have_no_english[advice-zh-Hans]")
