"""A learner's page when the tables' server is killed mid-hand and started again: the page
says the connection was lost, comes back by itself (its seat's token, kept in the browser),
and shows its seat as it was — the same hand, the same cards on the table, its turn — with a
note that the server was started again; then it plays on. The server is
``python -m tutor.server.tables`` as the hub runs it, its journal in a temporary SQLite file,
killed with ``kill -9``.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from test_tables_browser import _act, _close, _new_page, _open_table
from test_tables_restart import Server, free_port

from tutor.rules.cards import HAND_SIZE
from tutor.server.tables.journal import sqlite_url

pytestmark = pytest.mark.slow


def test_a_page_comes_back_to_its_hand_after_the_server_is_killed_and_started_again(
        browser: Any, tmp_path: Path, screenshot: Any) -> None:
    port, url, log = free_port(), sqlite_url(tmp_path / "tables.sqlite3"), tmp_path / "server.log"
    server = Server(port, url, log)
    contexts: list[Any] = []
    try:
        ana = _new_page(browser, f"http://127.0.0.1:{port}/tables/", "Ana", contexts)
        code = _open_table(ana)
        ana.page.click("[data-qd=start]")
        rng, plays = random.Random(5), []
        deadline = time.monotonic() + 90
        while True:  # to the middle of the hand: some tricks played, the page to play
            st = ana.state()
            if st["play"] and len(st["hand"]) <= HAND_SIZE - 4 and not st["busy"]:
                break
            assert time.monotonic() < deadline, st
            if st["busy"] or not _act(ana, st, rng, plays):
                time.sleep(0.05)
        before = ana.state()

        server.kill()
        ana.page.wait_for_selector("[data-qd=lost]", state="visible")
        server = Server(port, url, log)
        ana.page.wait_for_selector("[data-qd=lost]", state="hidden", timeout=60_000)
        ana.page.wait_for_function("() => (document.querySelector('[data-qd=feedback]') || {}).textContent"
                                   "?.includes('started again')", timeout=60_000)
        after = ana.state()
        assert ana.page.inner_text("[data-qd=code-shown]").strip() == code
        assert after["hand"] == before["hand"] and after["play"], (before, after)
        assert [(s["count"], s["points"], s["played"]) for s in after["seats"]] == \
            [(s["count"], s["points"], s["played"]) for s in before["seats"]]
        assert "nothing played was lost" in after["feedback"]["text"]
        screenshot(ana.page, "server-restarted")
        assert _act(ana, after, rng, plays)  # and it plays on
        ana.page.wait_for_function("(n) => document.querySelectorAll('[data-qd=hand] .qd-option').length < n",
                                   arg=len(after["hand"]))
        assert not ana.errors, ana.errors
        assert "1 reopened" in log.read_text("utf-8")
    finally:
        _close(contexts)
        server.stop()
