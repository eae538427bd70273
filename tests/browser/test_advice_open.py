"""The coach's drills open at once, served and static: lesson 11's practice drill of the
coach's advice, answered and then Next, again and again — each new position drawn and
usable (its choices shown, Check enabled) with nothing searched. The figures (click on
Next → the new drill usable, median and p95, in milliseconds of the learner's wait) are
printed and saved to ``test-artifacts/advice-open.json``; the goal is ≤ 50 ms of the
kernel's own work (benchmarks/advice_drills.py) and no wait a learner notices."""

from __future__ import annotations

import json
import statistics
from typing import Any

from conftest import ARTIFACTS
from test_static_site import Learner, ready

from tools.static_site import lesson_page

LESSON = "11-playing-well"
ROUNDS = 12
ADVICE = ".qd-practice [data-qd=drill]:has([data-qd=advice])"

# Click Next and wait, in the page, for the new drill to be usable: the time of the wait.
NEXT_AND_WAIT = """(selector) => new Promise((resolve) => {
  const root = document.querySelector(selector);
  const token = root.dataset.token;
  const t0 = performance.now();
  root.querySelector('[data-qd=next]').click();
  const look = () => {
    const usable = root.dataset.token !== token && root.querySelectorAll('button.qd-choice').length === 3
      && !root.querySelector('[data-qd=check]').disabled && !root.hasAttribute('aria-busy');
    if (usable) resolve(performance.now() - t0);
    else if (performance.now() - t0 > 30000) resolve(null);
    else requestAnimationFrame(look);
  };
  look();
})"""


def _rounds(page: Any) -> list[float]:
    drill = page.locator(ADVICE)
    waits = []
    questions = set()
    for _ in range(ROUNDS):
        drill.locator("button.qd-choice").first.click()
        drill.locator("[data-qd=check]").click()
        page.wait_for_selector(f'{ADVICE} [data-qd=feedback][data-result]:is([data-result="right"], '
                               '[data-result="wrong"])')
        waited = page.evaluate(NEXT_AND_WAIT, ADVICE)
        assert waited is not None, "Next on an advice drill did not show a usable new drill within 30 s"
        waits.append(waited)
        questions.add(drill.locator("[data-qd=question]").inner_text())
    assert len(questions) > ROUNDS // 2, "Next gave the same positions again and again"
    return waits


def _save(name: str, waits: list[float]) -> None:
    ordered = sorted(waits)
    figures = {"median": statistics.median(waits), "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
               "worst": ordered[-1], "rounds": len(waits)}
    print(f"\n{name}: Next → new advice drill usable: median {figures['median']:.0f} ms, p95 {figures['p95']:.0f} ms, "
          f"worst {figures['worst']:.0f} ms over {len(waits)}")
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "advice-open.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**saved, name: figures}, indent=1))


def test_advice_drills_open_at_once_served(browser: Any, lessons_server: Any) -> None:
    learner = Learner(browser)
    page = learner.open(lessons_server.url(f"{LESSON}.ipynb"), wait_for="drill", drills=2)
    page.wait_for_selector(ADVICE)
    _save("served", _rounds(page))
    learner.close()


def test_advice_drills_open_at_once_static(browser: Any, site: Any) -> None:
    learner = Learner(browser)
    page = learner.open(f"{site.base}/{lesson_page('en', LESSON)}", wait_for="drill", drills=2)
    ready(page, "drill", 2)
    _save("static", _rounds(page))
    learner.close()
