"""The think-time clock (``tutor.core.clock``): CPU seconds in CPython, the wall clock in
the browser, where ``process_time()`` reads 0 (the static site's real Pyodide is checked by
``tests/browser/test_static_start.py``)."""

from __future__ import annotations

import importlib
import sys
import time

import pytest

import tutor.core.clock as clock


def test_cpython_counts_cpu_seconds() -> None:
    assert clock.thinking_time is time.process_time


def test_in_the_browser_the_wall_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")
    try:
        browser = importlib.reload(clock)
        assert browser.thinking_time is time.perf_counter
    finally:
        monkeypatch.undo()
        importlib.reload(clock)
    assert clock.thinking_time is time.process_time


def test_a_search_stops_by_this_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search given a think-time stops when this clock says so: here a clock that jumps
    a second at every reading stops it after the two layouts every search deals."""
    import random

    import tutor.play.search as search
    from tutor.play.strategy import ComputerPlayer, next_action
    from tutor.rules.game import Game, Phase

    game = Game(4)
    bots = {seat: ComputerPlayer(seat, 4) for seat in range(5)}
    while game.phase is not Phase.PLAYING:
        game.apply(next_action(game, bots))
    ticks = iter(range(10_000))
    monkeypatch.setattr(search, "thinking_time", lambda: float(next(ticks)))
    found = search.search(game.view(game.actor), game.rules, rng=random.Random(0), layouts=40, think=0.5)
    assert found.layouts == 2
