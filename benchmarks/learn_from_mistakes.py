"""The coach's review and "learn from your mistakes" in a real browser, measured on this
machine (a script, not a test), both ways of serving: the Voila-served course and the static
site (Pyodide in the page).

    python benchmarks/learn_from_mistakes.py [--runs 3] [--site DIR] [--no-served] [--no-static]

Lesson 10 (``10-play.ipynb``) is opened in a fresh browser profile each run and a finished
hand with costly plays is loaded from its hand file (the careless learner's hand of
``tests/test_learn_from_mistakes.py``). Then, timed inside the page (``performance.now()``,
wall milliseconds of the learner's wait):

(a) the review: click on the coach's review → its heading shown;
(b) learn from your mistakes: click on it → the first costly decision playable (the same deal
    replayed to it, the mistake box trying, the table waiting for the learner, Play shown);
(c) a retry weighed: the coach's best picked, click on Play → accepted ("found").

With the CPU seconds of the same review in this process (CPython, ``coach.review``) beside
them. ``--site DIR``: a site built by ``./dev site`` (default ``_site``), served by a plain file
server on 127.0.0.1. Other work on the machine moves wall times: compare figures of one run.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "browser"), str(REPO / "benchmarks")]

from app import ARGS, CHROMIUM, Server, close  # noqa: E402
from static_serve import files_served  # noqa: E402
from test_learn_from_mistakes import SEED, careless_hand  # noqa: E402

from tools.static_site import lesson_page  # noqa: E402
from tutor.play import coach  # noqa: E402

LESSON = "10-play"

PLAYABLE = """() => {
  const box = document.querySelector('[data-qd=mistakes]');
  const table = document.querySelector('[data-qd=table]');
  const play = document.querySelector('[data-qd=play]');
  return !!box && !box.hidden && box.dataset.status === 'trying' && table.dataset.waiting === 'learner'
    && !!play && !play.hidden && play.getClientRects().length > 0
    && document.querySelectorAll('[data-qd=hand] .qd-option').length > 0;
}"""


def expected() -> dict[str, Any]:
    """The hand file, and what the Python table says of it: the first mistake's best play's
    positions in the hand, and the CPU seconds of its review."""
    table = careless_hand(SEED)
    record = table.export()
    start = time.process_time()
    coach.review(table.game, table.seat, seed=table.game.seed)
    review_cpu = time.process_time() - start
    costly = sum(1 for d in table.review_play() if d.costly)
    table._handle("mistakes", {})
    decision = table._mistakes.decision if table._mistakes else None
    assert decision is not None, "the careless hand has no costly play"
    return {"record": record, "best": table._positions(list(decision.found.best.play)), "review_cpu": review_cpu,
            "costly": costly}


def since(page: Any, start: float) -> float:
    return float(page.evaluate("performance.now()")) - start


def one_run(browser: Any, url: str, want: dict[str, Any], think: float) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
    context.set_default_timeout(180_000)
    page = context.new_page()
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    try:
        opened = time.monotonic()
        page.goto(url)
        page.wait_for_selector("[data-qd=table] [data-qd=seat]")
        ready_s = time.monotonic() - opened
        page.select_option("[data-qd=bot-speed]", "0")
        page.select_option("[data-qd=deal-speed]", "0")
        page.set_input_files("[data-qd=import]", files=[{"name": "careless.txt", "mimeType": "text/plain",
                                                        "buffer": want["record"].encode("utf-8")}])
        page.locator("[data-qd=score]").wait_for(state="visible")
        page.wait_for_timeout(1000 * think)  # the learner reads the score (the static table weighs meanwhile)

        start = page.evaluate("performance.now()")
        page.click("[data-qd=coach-review]")
        page.locator("[data-qd=coach-heading]").wait_for()
        review_ms = since(page, start)

        start = page.evaluate("performance.now()")
        page.click("[data-qd=learn]")
        page.wait_for_function(PLAYABLE, polling="raf")
        learn_ms = since(page, start)

        for option in page.locator("[data-qd=hand] .qd-option[aria-selected=true]").all():
            option.click()
        for i in want["best"]:
            page.click(f"[data-qd=hand] .qd-option[data-index='{i}']")
        page.wait_for_function("document.querySelector('[data-qd=hand]').dataset.selected === "
                               f"'{','.join(map(str, sorted(want['best'])))}'")
        start = page.evaluate("performance.now()")
        page.click("[data-qd=play]")
        page.wait_for_function("document.querySelector('[data-qd=mistakes]').dataset.status === 'found'",
                               polling="raf")
        retry_ms = since(page, start)
        return {"page": 1000 * ready_s, "review": review_ms, "learn": learn_ms, "retry": retry_ms}
    finally:
        close(page)
        context.close()


def report(name: str, runs: list[dict[str, float]]) -> None:
    for key, what in (("page", "lesson 10 open → table drawn"), ("review", "review: click → heading shown"),
                      ("learn", "learn from your mistakes: click → 1st mistake playable"),
                      ("retry", "a retry: Play → accepted")):
        values = sorted(run[key] for run in runs)
        print(f"  {name:7} {what:55} median {statistics.median(values):7.0f} ms   worst {values[-1]:7.0f} ms   "
              f"({', '.join(f'{v:.0f}' for v in values)})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="fresh pages per way of serving")
    parser.add_argument("--site", type=Path, default=REPO / "_site", help="a site built by ./dev site")
    parser.add_argument("--no-served", action="store_true")
    parser.add_argument("--no-static", action="store_true")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds between the hand loaded and the click on the review (default 0); in the "
                             "static site the table weighs the plays for the review meanwhile, as it does while "
                             "a hand is played")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    want = expected()
    print(f"Python {sys.version.split()[0]}: the careless hand (seed {SEED}), {want['costly']} costly plays; its review "
          f"{want['review_cpu']:.2f} s CPU here (coach.review, {coach.LAYOUTS} layouts)")
    print("Wall times inside the page (performance.now()), each run a fresh browser profile:", flush=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            if not args.no_served:
                server = Server("lessons")
                try:
                    report("served", [one_run(browser, server.url(f"{LESSON}.ipynb", f"seed={SEED}"), want, args.think)
                                      for _ in range(args.runs)])
                finally:
                    server.stop()
            if not args.no_static:
                if not (args.site / "index.html").exists():
                    raise SystemExit(f"{args.site} holds no built site: ./dev site first (or --no-static)")
                with files_served(args.site) as base:
                    url = f"{base}/{lesson_page('en', LESSON)}?seed={SEED}"
                    report("static", [one_run(browser, url, want, args.think) for _ in range(args.runs)])
        finally:
            browser.close()


if __name__ == "__main__":
    main()
