"""The served course's pages log no error in the browser's console.

Every Voila page used to log "Shared module @jupyterlite/server doesn't exist in shared
scope default": Voila loaded every lab extension installed in the environment, including
the static site's JupyterLite-only ``@jupyterlite/pyodide-kernel-extension``. The course's
pages now load only ``tutor.server.LAB_EXTENSIONS``. Here the home page, a lesson with
drills and the playing table are opened as ``./dev serve`` serves them, and every console
message and uncaught error is read.

(Voila 0.5's own JupyterLab is older than the widget extensions' builds, so the console
still warns "Unsatisfied version … of shared singleton module …": warnings, and the
widgets work; they are not counted here.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest

PAGE_TIMEOUT = 90_000
PAGES = {  # page → what shows once it is usable
    "index": "[data-qd=course] li",
    "05-following": "[data-qd=drill] [data-qd=answer] > *",
    "10-play": ".qd-root",
}


@pytest.mark.parametrize("slug", sorted(PAGES))
def test_served_page_console_is_clean(lessons_server: Any, context: Any, screenshot: Any, slug: str) -> None:
    page = context.new_page()
    messages: list[tuple[str, str]] = []
    page.on("console", lambda message: messages.append((message.type, message.text)))
    page.on("pageerror", lambda error: messages.append(("pageerror", str(error))))
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda route: route.abort())  # offline
    page.goto(lessons_server.url(f"{slug}.ipynb"), wait_until="load", timeout=PAGE_TIMEOUT)
    page.wait_for_selector(PAGES[slug], timeout=PAGE_TIMEOUT)
    page.wait_for_timeout(2000)  # the widgets' late messages
    screenshot(page, slug)
    shared = [text for _, text in messages if "Shared module" in text]
    assert not shared, f"{slug}: {shared}"
    errors = [f"{kind}: {text[:300]}" for kind, text in messages if kind in ("error", "pageerror")]
    assert not errors, f"{slug}: console errors {errors}"
