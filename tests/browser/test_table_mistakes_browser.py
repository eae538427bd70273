"""The learner's own mistakes come back, in a real browser (issue 27, item 5), both ways of
serving: this browser's store holds costly plays of a hand played days ago (made in Python:
:meth:`tutor.teach.mistakes.Mistakes.keep`); lesson 10 opened as the home page links it
(``10-play.ipynb?review=mistakes``) takes the store as the table starts and sets the first
due position ready to try again — the same deal replayed to the play, the same words as the
Python table says; the coach's best is accepted, and the page stores the position
rescheduled (not due now), nothing else changed."""

from __future__ import annotations

import json
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("anywidget")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: the careless learner

from test_learn_from_mistakes import SEED, careless_hand  # noqa: E402

from tutor.play.record import export_hand  # noqa: E402
from tutor.rules.cards import format_cards  # noqa: E402
from tutor.teach.mistakes import MISTAKES_KEY, REVIEW_LINK, Mistakes  # noqa: E402
from widgets.table import Table  # noqa: E402


def _store() -> Mistakes:
    """Two costly plays of the careless hand, kept two and three days ago: both due, the
    later one most overdue."""
    table = careless_hand(SEED)
    costly = sorted((d for d in table.review_play() if d.costly), key=lambda d: d.index)
    assert len(costly) >= 2
    now = datetime.now(timezone.utc)
    record = export_hand(table.game)
    return Mistakes().keep(record, 0, [(costly[1].index, format_cards(costly[1].played))], now - timedelta(days=3)) \
        .keep(record, 0, [(costly[0].index, format_cards(costly[0].played))], now - timedelta(days=2))


@pytest.mark.parametrize("served", ["lessons_server", "site"], ids=["served", "static"])
def test_the_due_positions_come_back_at_the_table(served: str, context: Any, request: pytest.FixtureRequest,
                                                  screenshot: Any) -> None:
    server = request.getfixturevalue(served)
    store = _store()
    expected = Table(3, pause_ms=0, deal_ms=0, review="mistakes")
    expected.sync(store.to_json())
    mistakes = expected.state["mistakes"]
    first = store.due(datetime.now(timezone.utc))[0]
    assert first is store.kept[0] and mistakes["number"] == 1 and mistakes["count"] == 2

    # The store, in this browser before the page's own script runs (once: the page writes it after).
    context.add_init_script(f"""(() => {{
        try {{
            if (location.protocol.startsWith("http") && !localStorage.getItem({json.dumps(MISTAKES_KEY)}))
                localStorage.setItem({json.dumps(MISTAKES_KEY)}, {json.dumps(store.to_json())});
        }} catch (e) {{}}
    }})();""")
    context.set_default_timeout(90_000)
    page = context.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    notebook, _, query = REVIEW_LINK.partition("?")
    page.goto(server.url(notebook, query))
    page.wait_for_selector("[data-qd=table][data-synced=true]", timeout=180_000)
    box = page.locator("[data-qd=mistakes]")
    box.wait_for(state="visible", timeout=60_000)

    # The first due position, ready to try again: the words and the hand are the Python table's.
    assert box.get_attribute("data-review") == "true"
    assert (box.get_attribute("data-number"), box.get_attribute("data-count"), box.get_attribute("data-status")) \
        == ("1", "2", "trying")
    assert page.inner_text("[data-qd=mistake-text]") == mistakes["text"]
    assert first.cards in mistakes["text"] and "position 1 of 2" in mistakes["text"]
    assert page.get_attribute("[data-qd=table]", "data-waiting") == "learner"
    shown = page.eval_on_selector_all("[data-qd=hand] .qd-option", "options => options.map(o => o.dataset.card)")
    assert shown == [card["text"] for card in expected.hand]  # the hand then, in the same order
    assert page.locator("[data-qd=play]").is_visible() and page.locator("[data-qd=hint]").is_hidden()
    assert page.inner_text("[data-qd=retry-leave]") == "Stop reviewing"
    screenshot(page, "due")

    # The coach's best, picked and played: accepted, and the page stores it rescheduled.
    decision = expected.session.retrying.decision if expected.session.retrying else None
    assert decision is not None
    for option in page.locator("[data-qd=hand] .qd-option[aria-selected=true]").all():
        option.click()
    positions = expected.positions_of(list(decision.found.best.play))
    for i in positions:
        page.click(f"[data-qd=hand] .qd-option[data-index='{i}']")
    page.wait_for_function(f"document.querySelector('[data-qd=hand]').dataset.selected === "
                           f"'{','.join(map(str, sorted(positions)))}'")
    page.click("[data-qd=play]")
    page.wait_for_function("document.querySelector('[data-qd=mistakes]').dataset.status === 'found'")
    assert "well found" in page.inner_text("[data-qd=mistake-said]")
    page.wait_for_function(f"localStorage.getItem({json.dumps(MISTAKES_KEY)}) !== {json.dumps(store.to_json())}")
    kept, note = Mistakes.from_json(page.evaluate(f"localStorage.getItem({json.dumps(MISTAKES_KEY)})"))
    now = datetime.now(timezone.utc)
    assert note is None and {k.key for k in kept.kept} == {k.key for k in store.kept}
    answered = kept.get(first.key)
    assert answered is not None and answered.due > now and [k.key for k in kept.due(now)] == [store.kept[1].key]
    screenshot(page, "found")

    # The next due position, then the end: said, and a new hand is dealt.
    page.click("[data-qd=retry-next]")
    page.wait_for_function("document.querySelector('[data-qd=mistakes]').dataset.number === '2'")
    page.click("[data-qd=retry-skip]")
    box.wait_for(state="hidden", timeout=30_000)
    reason = page.locator("[data-qd=feedback] [data-qd=reason]")
    assert "you found a good play yourself in 1 of 2 positions" in reason.inner_text()
    assert not errors, errors
    assert "Traceback" not in page.content()
    page.goto("about:blank")
    page.close()
