"""A teacher's position link with parameters the page does not use, in a real browser against
the course served by Voila: the drill still opens, and each ignored parameter is a note on
the page (``positions.ipynb?seed=²`` used to be ignored without one)."""

from __future__ import annotations

import re
from typing import Any

from tutor.teach.positions import make_link, position_from_query

POSITION = "kind: trick; trump: ♥; lead: ♦3; played: ♣A / ♦3"


def test_a_position_link_notes_what_it_does_not_use(context: Any, lessons_server: Any, screenshot: Any) -> None:
    made = make_link(POSITION)
    assert made.href is not None
    address = f"{made.href}&seed=%C2%B2&level=-1&lang=xx"
    _, expected = position_from_query(address.partition("?")[2])
    assert len(expected) == 3
    page = context.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{lessons_server.base}/voila/render/{address}")
    page.wait_for_selector("[data-qd=drill] [data-qd=question]", timeout=90_000)
    notes = [note.inner_text() for note in page.locator(".qd-link-note").all()]
    assert notes == list(expected), notes
    assert notes[0] == "Ignored seed=²: this page does not use it."
    assert page.locator(".qd-link-note").first.is_visible()
    screenshot(page, "notes")
    assert "Traceback" not in page.content() and not errors, errors
