"""Work under way, in a real browser against a real Voila server: a click that asks the
kernel for slow work (Next on one of the coach's drills, its hints, the table's "What
would you play?" and its actions) shows at once that the work is under way — the button
busy and unavailable, the old drill greyed and marked busy with a short note — a second
click sends nothing, and it all clears when the kernel's answer comes, or when the
kernel fails (with its "Something went wrong", the learner's progress kept).

"At once" is checked in the click's own task (the state read right after the click, in
the same script), never against a clock; the kernel's work is counted by the requests
the page sent (``data-requests``) and the ones the kernel carried out (``data-work``,
from its ``handled`` answer). The figures (click to busy drawn, to painted, to the label
fully shown, to the answer) are printed and saved to ``test-artifacts/busy-timings.json``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from conftest import ARTIFACTS

from tutor.teach.drills.progress import Progress
from widgets.drill import STORAGE_KEY

NOTEBOOK = "busy.ipynb"
DRILL = "[data-qd=drill]"
SEED = 2
DELAY_MS = 800
"""The kernel's extra time over each next drill (it answers in milliseconds otherwise):
long enough that the busy state can be looked at, whatever the machine."""
FIGURES: dict[str, Any] = {}

# Click, then read the state in the same task: what the learner sees at the next frame.
CLICK_AND_READ = """([selector, twice]) => {
  const root = document.querySelector('[data-qd=drill]') || document.querySelector('[data-qd=table]');
  const button = document.querySelector(selector);
  const sentBefore = Number(root.dataset.requests || 0);
  button.click();
  const read = () => ({
    disabled: button.disabled, ariaDisabled: button.getAttribute('aria-disabled'),
    ariaBusy: button.getAttribute('aria-busy'), rootBusy: root.getAttribute('aria-busy'),
    dataBusy: root.dataset.busy || '', sent: Number(root.dataset.requests || 0) - sentBefore,
  });
  const first = read();
  if (twice) button.click();  // the second click, before any answer could have come
  return { first, second: read() };
}"""

# Until the busy note is fully shown (it fades in after a tenth of a second): when it is.
WATCH_NOTE = """(selector) => new Promise((resolve) => {
  const note = document.querySelector(selector);
  const t0 = performance.now();
  const look = () => {
    if (note.textContent && Number(getComputedStyle(note).opacity) >= 0.99) resolve(performance.now());
    else if (performance.now() - t0 > 5000) resolve(null);
    else requestAnimationFrame(look);
  };
  look();
})"""


def _open(context: Any, server: Any, query: str) -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    page.goto(server.url(NOTEBOOK, query))
    page.wait_for_selector(f"{DRILL}[data-synced=true] button.qd-choice", timeout=90_000)
    page.wait_for_function("!document.querySelector('[data-qd=drill]').hasAttribute('aria-busy')")
    page.errors = errors
    return page


def _answer(page: Any) -> None:
    """Answer the drill (any choice: right or wrong, Next follows)."""
    page.locator("button.qd-choice").first.click()
    page.click("[data-qd=check]")
    page.wait_for_selector('[data-qd=feedback][data-result="right"], [data-qd=feedback][data-result="wrong"]')
    page.wait_for_function("!document.querySelector('[data-qd=check]').hasAttribute('aria-busy')")


def _counts(page: Any, root: str = DRILL) -> tuple[int, int]:
    """(requests sent, requests the kernel carried out) so far."""
    values = page.evaluate(f"(() => {{ const r = document.querySelector('{root}');"
                           " return [Number(r.dataset.requests || 0), Number(r.dataset.work || 0)]; })()")
    return int(values[0]), int(values[1])


def _busy_timing(page: Any, action: str) -> dict[str, Any]:
    return dict(page.evaluate(f"window.__qdBusy.filter(r => r.action === {json.dumps(action)}).at(-1)"))


def _save(name: str, figures: dict[str, Any]) -> None:
    FIGURES[name] = figures
    print(f"\n{name}: " + ", ".join(f"{k} {v:.1f} ms" if isinstance(v, (int, float)) else f"{k} {v}"
                                   for k, v in figures.items()))
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "busy-timings.json").write_text(json.dumps(FIGURES, indent=1))


def test_next_on_an_advice_drill_is_busy_at_once_and_sent_once(context: Any, voila_server: Any,
                                                              screenshot: Any) -> None:
    page = _open(context, voila_server, f"kind=advice&seed={SEED}&level=1&delay={DELAY_MS}")
    _answer(page)
    token = page.locator(DRILL).get_attribute("data-token")
    sent, work = _counts(page)
    page.evaluate("""() => { window.__tokens = [];
        new MutationObserver(() => window.__tokens.push(document.querySelector('[data-qd=drill]').dataset.token))
          .observe(document.querySelector('[data-qd=drill]'), { attributes: true, attributeFilter: ['data-token'] }); }""")
    # A real double click with the mouse: the second lands on a busy button.
    box = page.locator("[data-qd=next]").bounding_box()
    page.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    visible = page.evaluate(WATCH_NOTE, "[data-qd=busy]")
    state = page.evaluate("""() => { const root = document.querySelector('[data-qd=drill]');
        const next = root.querySelector('[data-qd=next]');
        return { busy: root.getAttribute('aria-busy'), data: root.dataset.busy, next: next.getAttribute('aria-busy'),
                 nextOff: next.getAttribute('aria-disabled'), note: root.querySelector('[data-qd=busy]').textContent,
                 inert: root.querySelector('[data-qd=answer]').inert, check: root.querySelector('[data-qd=check]').disabled,
                 hint: root.querySelector('[data-qd=hint]').disabled,
                 greyed: Number(getComputedStyle(root.querySelector('[data-qd=question]')).opacity),
                 token: root.dataset.token }; }""")
    assert state["token"] == token, "the kernel answered before its delay: the test cannot look at the wait"
    assert state["busy"] == "true" and state["data"] == "next", state  # the old drill is marked busy …
    assert state["next"] == "true" and state["nextOff"] == "true", state  # … Next is busy and unavailable …
    assert state["inert"] and state["check"] and state["hint"], state  # … and nothing else can be used
    assert state["note"] == "Getting the next drill…" and state["greyed"] < 0.5, state
    assert visible is not None
    screenshot(page, "busy")

    page.wait_for_function("(t) => document.querySelector('[data-qd=drill]').dataset.token !== t", arg=token,
                           timeout=60_000)
    page.wait_for_function("!document.querySelector('[data-qd=drill]').hasAttribute('aria-busy')")
    after = page.evaluate("""() => { const root = document.querySelector('[data-qd=drill]');
        const next = root.querySelector('[data-qd=next]');
        return { next: next.hasAttribute('aria-busy') || next.hasAttribute('aria-disabled'),
                 nextDisabled: next.disabled, note: root.querySelector('[data-qd=busy]').textContent,
                 inert: root.querySelector('[data-qd=answer]').inert, check: root.querySelector('[data-qd=check]').disabled,
                 tokens: window.__tokens }; }""")
    assert after == {"next": False, "nextDisabled": True, "note": "", "inert": False, "check": False,
                     "tokens": [after["tokens"][0]]}, after  # one new drill, answered next
    assert _counts(page) == (sent + 1, work + 1)  # one request sent, one carried out
    timing = _busy_timing(page, "next")
    _save("drill Next (advice)", {"click→busy set": timing["busy"], "click→painted": timing["paint"],
                                  "click→note fully shown": visible - timing["at"], "click→new drill": timing["answer"]})
    assert not page.errors, page.errors


def test_the_hint_of_an_advice_drill_is_busy_at_once_and_sent_once(context: Any, voila_server: Any) -> None:
    page = _open(context, voila_server, f"kind=advice&seed={SEED}&level=1")
    sent, work = _counts(page)
    read = page.evaluate(CLICK_AND_READ, ["[data-qd=hint]", True])
    first, second = read["first"], read["second"]
    assert first["ariaBusy"] == "true" and first["ariaDisabled"] == "true" and first["sent"] == 1, first
    assert second["sent"] == 1, second  # the second click sent nothing
    page.wait_for_function("!document.querySelector('[data-qd=hint]').hasAttribute('aria-busy')")
    assert page.locator("[data-qd=hints] li").count() == 1
    assert _counts(page) == (sent + 1, work + 1)
    timing = _busy_timing(page, "hint")
    _save("drill Hint", {"click→busy set": timing["busy"], "click→painted": timing["paint"],
                         "click→hint shown": timing["answer"]})
    assert not page.errors, page.errors


def test_a_failed_next_ends_the_wait_and_keeps_progress(context: Any, voila_server: Any, screenshot: Any) -> None:
    page = _open(context, voila_server, f"kind=advice&seed={SEED}&level=1&delay=300&fail=next")
    _answer(page)
    token = page.locator(DRILL).get_attribute("data-token")
    stored = page.evaluate(f"localStorage.getItem({json.dumps(STORAGE_KEY)})")
    streak = page.locator("[data-qd=streak]").get_attribute("data-value")
    read = page.evaluate(CLICK_AND_READ, ["[data-qd=next]", False])
    assert read["first"]["rootBusy"] == "true" and read["first"]["ariaBusy"] == "true", read
    note = page.locator("[data-qd=note]")
    note.wait_for(state="visible", timeout=60_000)
    assert note.inner_text().startswith("Something went wrong; nothing was changed. Try again.")
    page.wait_for_function("!document.querySelector('[data-qd=drill]').hasAttribute('aria-busy')")
    assert page.locator(DRILL).get_attribute("data-token") == token  # the drill answered is still shown
    next_button = page.locator("[data-qd=next]")
    assert not next_button.is_disabled() and next_button.get_attribute("aria-busy") is None
    assert page.locator("[data-qd=streak]").get_attribute("data-value") == streak
    assert page.evaluate(f"localStorage.getItem({json.dumps(STORAGE_KEY)})") == stored
    assert Progress.from_json(stored).kind("advice").attempts == 1
    screenshot(page, "failed")

    next_button.click()  # the learner tries again: it works
    page.wait_for_function("(t) => document.querySelector('[data-qd=drill]').dataset.token !== t", arg=token,
                           timeout=60_000)
    page.wait_for_function("!document.querySelector('[data-qd=drill]').hasAttribute('aria-busy')")
    assert not page.errors, page.errors


def test_what_would_you_play_is_busy_at_once_and_searched_once(context: Any, voila_server: Any,
                                                              screenshot: Any) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    page.goto(voila_server.url("table.ipynb", "seed=5&pause=300&deal=0&stop=0"))
    table = "[data-qd=table]"
    page.wait_for_selector(f"{table}[data-waiting=learner] [data-qd=hand] .qd-option", timeout=90_000)
    sent, work = _counts(page, table)
    read = page.evaluate(CLICK_AND_READ, ["[data-qd=hint]", True])
    first, second = read["first"], read["second"]
    assert first["ariaBusy"] == "true" and first["ariaDisabled"] == "true" and first["sent"] == 1, first
    assert second["sent"] == 1, second  # the second click started no second search
    assert page.evaluate("document.querySelector('[data-qd=table] [data-qd=busy]').textContent") \
        == "The coach is thinking…"
    page.wait_for_function("!document.querySelector('[data-qd=hint]').hasAttribute('aria-busy')", timeout=60_000)
    hint = page.locator("[data-qd=hint-text]")
    assert hint.get_attribute("aria-busy") is None and hint.inner_text() != ""
    assert page.locator("[data-qd=table] [data-qd=busy]").inner_text() == ""
    assert _counts(page, table) == (sent + 1, work + 1)
    timing = _busy_timing(page, "hint")
    _save("table What would you play?", {"click→busy set": timing["busy"], "click→painted": timing["paint"],
                                         "click→advice shown": timing["answer"]})

    # The advised cards are picked: the action button sends them once, and the computer
    # players' thinking shows (the table's own "Seat N is thinking…", the seat busy).
    action = page.locator("[data-qd=play]:visible, [data-qd=bury]:visible, [data-qd=call]:visible").first
    if action.count() == 0 or page.locator('[data-qd=hand] .qd-option[aria-selected="true"]').count() == 0:
        return  # the advice was to go solo: nothing picked to play
    qd = action.get_attribute("data-qd")
    history = page.locator(table).get_attribute("data-version")
    read = page.evaluate(CLICK_AND_READ, [f"[data-qd={qd}]", True])
    assert read["first"]["ariaBusy"] == "true" and read["second"]["sent"] == 1, read
    page.wait_for_function("(v) => document.querySelector('[data-qd=table]').dataset.version !== v", arg=history)
    assert page.locator("[data-qd=feedback]").is_hidden()  # no "not your turn" for the second click
    if qd == "play":
        page.wait_for_selector(".qt-seat.qt-thinking[aria-busy=true]", timeout=30_000)
        screenshot(page, "thinking")
    assert not errors, errors


def test_a_wait_that_never_ends_frees_the_buttons_and_the_kernel_ignores_the_repeat(context: Any, voila_server: Any,
                                                                                   screenshot: Any) -> None:
    """No button stays disabled for ever: past the page's limit (shortened here) the wait
    ends with a note, and Next can be pressed again; that second request reaches the
    kernel, which ignores it (the drill it was pressed on is no longer shown): one new
    drill, not two. The note goes once the kernel answers."""
    context.add_init_script("window.__qdBusyLimitMs = 400;")
    page = _open(context, voila_server, f"kind=advice&seed={SEED}&level=1&delay=4000")
    _answer(page)
    token = page.locator(DRILL).get_attribute("data-token")
    sent, work = _counts(page)
    page.click("[data-qd=next]")
    stuck = page.locator("[data-qd=busy][data-stuck]")
    stuck.wait_for(timeout=20_000)
    assert stuck.inner_text() == "This is taking longer than it should. Try again, or reload the page: your progress is kept."
    assert page.locator(DRILL).get_attribute("aria-busy") is None
    assert page.locator(DRILL).get_attribute("data-token") == token, "the kernel answered before its delay"
    screenshot(page, "stuck")
    page.click("[data-qd=next]")  # pressed again: sent, and ignored by the kernel
    assert _counts(page)[0] == sent + 2
    page.wait_for_function("(t) => document.querySelector('[data-qd=drill]').dataset.token !== t", arg=token,
                           timeout=60_000)
    page.wait_for_function("(n) => Number(document.querySelector('[data-qd=drill]').dataset.work) === n",
                           arg=work + 1)
    # Both requests answered (the second after its own delay-free refusal): one drill made.
    page.wait_for_function("() => window.__qdBusy.filter(r => r.action === 'next' && r.answer !== null).length === 2",
                           timeout=60_000)
    assert _counts(page) == (sent + 2, work + 1)
    assert page.locator("[data-qd=busy]").inner_text() == "" and page.locator("[data-qd=busy][data-stuck]").count() == 0
    assert not page.errors, page.errors
