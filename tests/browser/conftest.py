"""Browser tests: one real Voila server per session, one headless Chromium.

Voila is started from the repository root (so the committed ``deploy/voila.py`` applies)
serving ``tests/browser/notebooks`` (``voila_server``) or the course's ``lessons``
(``lessons_server``) on a free port, and stopped at the end. Chromium is
``/usr/bin/chromium`` (``apt-get install chromium fonts-noto-cjk``); Playwright's own
browser download is not used. Without Chromium or Playwright the tests skip with the
reason — except in CI (``CI=true``), where they fail instead.
Screenshots go to ``test-artifacts/`` (gitignored).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from static_serve import StaticSite, built_and_served
from voila_serve import REPO, VoilaServer, serve, unavailable

NOTEBOOKS = Path(__file__).with_name("notebooks").relative_to(REPO)
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def voila_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """The test notebooks of ``tests/browser/notebooks``."""
    with serve(NOTEBOOKS, tmp_path_factory.mktemp("voila-browser") / "voila.log") as server:
        yield server


@pytest.fixture(scope="session")
def lessons_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    """The course as ``./dev serve`` serves it: ``voila lessons`` from the repository root."""
    with serve("lessons", tmp_path_factory.mktemp("voila-lessons") / "voila.log") as server:
        yield server


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StaticSite]:
    """The course as ``./dev site`` builds it, behind a plain file server: built once per
    session for every test file that uses it (``static_serve.py``)."""
    with built_and_served(tmp_path_factory.mktemp("static-site") / "_site") as served:
        yield served


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} is missing (apt-get install -y chromium fonts-noto-cjk)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture()
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (its own localStorage) per test."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
    ctx.set_default_timeout(30_000)
    try:
        yield ctx
    finally:
        for page in ctx.pages:
            try:  # unload the page first, so the kernel's shutdown call is made
                page.goto("about:blank")
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        ctx.close()


@pytest.fixture()
def screenshot(request: pytest.FixtureRequest) -> Any:
    """``screenshot(page, label)`` saves ``test-artifacts/<test>-<label>.png``."""

    def save(page: Any, label: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{label}.png"), full_page=True)

    return save
