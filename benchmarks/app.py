"""The course as learners get it, measured on this machine in one run (a script, not a test).

    python benchmarks/app.py [--warm 2] [--checks 30] [--pages 00-welcome,05-following] [--only preheated]

(a) Time to interactive: navigation start → the first drill's Check button enabled and
    its answer (the card picker, choice buttons or number box) drawn — for the home page
    the course map, for a page without drills its first course widget — measured inside
    the page (``performance.now()``, whose origin is the navigation start). Compared with a
    bare one-button ipywidgets notebook (written to a temp dir) served with the same
    ``voila.py``. Cold: the first view of a page in a fresh browser profile on a freshly
    started server; warm: further views (browser cache warm). Then the same with
    ``--preheat_kernel=True --pool_size=2``, measured once the pool is filled and the
    machine idle (a learner arriving at a quiet server), including a check that the
    seeded link still reaches a preheated kernel (the lessons read the query string with
    ``voila.utils.get_query_string``).
(b) Click → feedback inside the page (``window.__qdTimings``): p95 over ``--checks``
    checks per lesson (Check, Retry, Check …, split over the lesson's drills).
(c) Memory per learner: RSS (and USS) of the page's kernel after the lesson has loaded.
Targets: interactive ≤ 1.3× the bare page, feedback p95 ≤ 50 ms, kernel RSS ≤ 150 MB.
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "browser")]

from test_lessons import KNOWN, Plan, _give, _plan, _seed_for  # noqa: E402

from tutor.drills import generate  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PREHEAT = ["--preheat_kernel=True", "--pool_size=2"]
BARE = "bare.ipynb"
RATIO_TARGET, FEEDBACK_TARGET_MS, RSS_TARGET_MB = 1.3, 50.0, 150.0

READY = """(() => {
  const mode = "__MODE__";
  const ready = () => {
    if (mode === "drill") {
      const d = document.querySelector('[data-qd=drill]');
      if (!d) return false;
      const check = d.querySelector('[data-qd=check]'), answer = d.querySelector('[data-qd=answer]');
      const picker = answer && answer.querySelector('.qd-picker');
      return !!check && !check.disabled && !!answer && answer.children.length > 0
             && (!picker || !!picker.querySelector('.qd-option'));
    }
    if (mode === "course") return !!document.querySelector('[data-qd=course] li');
    if (mode === "widget") return !!document.querySelector('.qd-root');
    const b = document.querySelector('button.jupyter-button, .widget-button');
    return !!b && b.getClientRects().length > 0;
  };
  const poll = () => {
    if (window.__interactive === undefined && ready()) window.__interactive = performance.now();
    if (window.__interactive === undefined) setTimeout(poll, 5);
  };
  poll();
})();"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``voila <directory>`` from the repository root (so ``voila.py`` applies)."""

    def __init__(self, directory: Path | str, *extra: str) -> None:
        self.log = Path(tempfile.mkstemp(suffix=".log", prefix="voila-bench-")[1])
        command = [str(Path(sys.executable).with_name("voila")), str(directory), "--port", str(free_port()),
                   "--no-browser", *extra]
        self.process = subprocess.Popen(command, cwd=REPO, stdout=self.log.open("wb"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            found = re.search(r"running at:\s*(http://127\.0\.0\.1:\d+)/", self.log.read_text("utf-8", "replace"))
            if found:
                try:
                    urllib.request.urlopen(found.group(1) + "/voila/api/contents", timeout=5).close()
                    self.base = found.group(1)
                    break
                except OSError:
                    pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(self.log.read_text("utf-8", "replace"))
            time.sleep(0.2)

    def url(self, notebook: str, query: str = "") -> str:
        return f"{self.base}/voila/render/{notebook}" + (f"?{query}" if query else "")

    def kernels(self) -> list[psutil.Process]:
        found = []
        for child in psutil.Process(self.process.pid).children():
            try:
                if any("ipykernel_launcher" in part for part in child.cmdline()):
                    found.append(child)
            except psutil.Error:  # a kernel just shut down (zombie or gone)
                continue
        return found

    def settle(self, kernels: int = 0, timeout: float = 20) -> None:
        """Wait for ``kernels`` kernels and a quiet machine (a preheated pool filled)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.kernels()) >= kernels and psutil.cpu_percent(interval=1.0) < 15:
                return
        print(f"  (server not settled after {timeout:.0f} s)", file=sys.stderr)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def mode_of(notebook: str) -> str:
    if notebook == BARE:
        return "button"
    if notebook == "index.ipynb":
        return "course"
    return "drill" if KNOWN.get(notebook[:-6]) else "widget"


def interactive_ms(context: Any, url: str, mode: str, *, keep: bool = False) -> tuple[float, Any]:
    page = context.new_page()
    page.add_init_script(READY.replace("__MODE__", mode))
    page.goto(url, wait_until="commit", timeout=120_000)
    page.wait_for_function("window.__interactive !== undefined", timeout=120_000, polling=50)
    ms = float(page.evaluate("window.__interactive"))
    if keep:
        return ms, page
    close(page)
    return ms, None


def close(page: Any) -> None:
    page.goto("about:blank")  # the beacon shuts the kernel down
    page.close()


def load_times(browser: Any, server: Server, notebooks: list[str], warm: int, settle: int = 0) -> dict[str, Any]:
    """Cold (fresh profile) and warm (same profile) time to interactive per notebook."""
    out: dict[str, Any] = {}
    for notebook in notebooks:
        cold_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        if settle:
            server.settle(settle)
        cold, _ = interactive_ms(cold_ctx, server.url(notebook), mode_of(notebook))
        cold_ctx.close()
        ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        interactive_ms(ctx, server.url(notebook), mode_of(notebook))  # fills this profile's cache
        runs = []
        for _ in range(warm):
            if settle:
                server.settle(settle)
            runs.append(interactive_ms(ctx, server.url(notebook), mode_of(notebook))[0])
        ctx.close()
        out[notebook] = {"cold": cold, "warm": statistics.median(runs)}
        print(f"  {notebook:22} cold {cold:7.0f} ms   warm {out[notebook]['warm']:7.0f} ms", flush=True)
    return out


def feedback_and_memory(browser: Any, server: Server, lessons: list[str], checks: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for notebook in lessons:
        slug = notebook[:-6]
        kinds = KNOWN.get(slug)
        ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        seed = _seed_for(kinds) if kinds else 0
        _, page = interactive_ms(ctx, server.url(notebook, f"seed={seed}" if kinds else ""), mode_of(notebook),
                                 keep=True)
        page.wait_for_timeout(500)
        kernels = server.kernels()
        rss = [k.memory_info().rss / 2**20 for k in kernels]
        uss = [k.memory_full_info().uss / 2**20 for k in kernels]
        times: list[float] = []
        if kinds:
            plans = [p for p in (_plan(kind, seed) for kind in kinds) if p is not None]
            drills = page.locator("[data-qd=drill]").all()
            for i in range(checks):
                plan, drill = plans[i % len(plans)], drills[i % len(plans)]
                check(page, drill, plan)
            times = [t["ms"] for t in page.evaluate("window.__qdTimings")]
        close(page)
        ctx.close()
        out[notebook] = {"rss": max(rss) if rss else 0.0, "uss": max(uss) if uss else 0.0, "kernels": len(kernels),
                         "checks": len(times), "p50": pct(times, 50), "p95": pct(times, 95),
                         "max": max(times) if times else float("nan")}
        r = out[notebook]
        print(f"  {notebook:22} feedback p50 {r['p50']:5.1f} p95 {r['p95']:5.1f} max {r['max']:6.1f} ms "
              f"({r['checks']} checks)   kernel RSS {r['rss']:5.1f} MB (USS {r['uss']:5.1f})", flush=True)
    return out


def check(page: Any, drill: Any, plan: Plan) -> None:
    before = page.evaluate("(window.__qdTimings || []).length")
    _give(drill, plan, plan.right)
    page.wait_for_function(f"(window.__qdTimings || []).length > {before}", polling=10)
    drill.locator("[data-qd=retry]").click()
    drill.locator("[data-qd=feedback]").wait_for(state="hidden")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def preheat_link_works(browser: Any, server: Server) -> str:
    """A seeded link and a bad parameter on a preheated kernel."""
    ctx = browser.new_context()
    _, page = interactive_ms(ctx, server.url("05-following.ipynb", "seed=123&level=9"), "drill", keep=True)
    question = page.locator("[data-qd=question]").first.inner_text()
    notes = page.locator(".qd-link-note").all_inner_texts()
    used = "Using pre-heated kernel" in server.log.read_text("utf-8", "replace")
    close(page)
    ctx.close()
    ok = question == generate("follow", 123, 1).question and len(notes) == 1 and "level=9" in notes[0]
    return f"{'OK' if ok and used else 'FAILED'} (pre-heated kernel used: {used}; seeded question matches: " \
           f"{question == generate('follow', 123, 1).question}; note: {notes})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warm", type=int, default=2, help="warm views per page (median)")
    parser.add_argument("--checks", type=int, default=30, help="checks per lesson for the feedback p95")
    parser.add_argument("--pages", default="", help="comma-separated notebooks (default: all)")
    parser.add_argument("--only", choices=("default", "preheated"), help="one configuration only")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    pages = sorted(p.name for p in (REPO / "lessons").glob("*.ipynb"))
    if args.pages:
        pages = [p if p.endswith(".ipynb") else p + ".ipynb" for p in args.pages.split(",")]
    lessons = [p for p in pages if p != "index.ipynb"]
    bare_dir = Path(tempfile.mkdtemp(prefix="voila-bare-"))
    (bare_dir / BARE).write_text(json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": "b", "metadata": {}, "outputs": [],
                   "source": ["import ipywidgets as w\n", "w.Button(description='Check')"]}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}))
    results: dict[str, Any] = {}
    started = time.monotonic()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for label, extra in (("default", []), ("preheated", PREHEAT)):
            if args.only and label != args.only:
                continue
            print(f"[{label}] {' '.join(extra) or 'voila.py as committed'}", flush=True)
            bare = Server(bare_dir, *extra)
            lesson_server = Server("lessons", *extra)
            try:
                want = 2 * len(list((REPO / "lessons").glob("*.ipynb"))) if extra else 0
                if extra:
                    t0 = time.monotonic()
                    lesson_server.settle(want, timeout=240)
                    bare.settle(2)
                    results["pool_fill_s"] = time.monotonic() - t0
                    results["pool_kernels"] = len(lesson_server.kernels()) + len(bare.kernels())
                    results["pool_rss_mb"] = sum(k.memory_info().rss for k in lesson_server.kernels()) / 2**20
                settle = 2 if extra else 0
                results[label] = load_times(browser, bare, [BARE], args.warm, settle)
                results[label].update(load_times(browser, lesson_server, pages, args.warm,
                                                 want if extra else 0))
                if extra:
                    results["preheat_check"] = preheat_link_works(browser, lesson_server)
                    print("  preheated link check:", results["preheat_check"], flush=True)
                else:
                    results["feedback"] = feedback_and_memory(browser, lesson_server, lessons, args.checks)
                    results["server_rss_mb"] = psutil.Process(lesson_server.process.pid).memory_info().rss / 2**20
            finally:
                bare.stop()
                lesson_server.stop()
        browser.close()
    report(results, pages, time.monotonic() - started)


def report(r: dict[str, Any], pages: list[str], elapsed: float) -> None:
    print("\nTime to interactive (ms; ratio = lesson / bare one-button page, target ≤ 1.3×)")
    modes = [m for m in ("default", "preheated") if m in r]
    head = f"{'page':22}" + "".join(f" | {m + ' cold':>15} {'×':>5} {m + ' warm':>15} {'×':>5}" for m in modes)
    print(head)
    print("-" * len(head))
    for page in [BARE, *pages]:
        row = f"{page:22}"
        for m in modes:
            bare = r[m][BARE]
            v = r[m][page]
            row += (f" | {v['cold']:15.0f} {v['cold'] / bare['cold']:5.2f} {v['warm']:15.0f} "
                    f"{v['warm'] / bare['warm']:5.2f}")
        print(row)
    lessons = [p for p in pages if p != "index.ipynb"]
    for m in modes:
        warm = [r[m][p]["warm"] for p in lessons]
        cold = [r[m][p]["cold"] for p in lessons]
        print(f"{m}: lessons median cold {statistics.median(cold):.0f} ms ({statistics.median(cold) / r[m][BARE]['cold']:.2f}×),"
              f" warm {statistics.median(warm):.0f} ms ({statistics.median(warm) / r[m][BARE]['warm']:.2f}×)")
    if "pool_fill_s" in r:
        print(f"preheated pool: {r['pool_kernels']} kernels (2 per notebook), filled in {r['pool_fill_s']:.0f} s, "
              f"{r['pool_rss_mb']:.0f} MB RSS in all; link check {r['preheat_check']}")
    if "feedback" in r:
        print(f"\nClick → feedback inside the page (target p95 ≤ {FEEDBACK_TARGET_MS:.0f} ms) and kernel memory "
              f"(target ≤ {RSS_TARGET_MB:.0f} MB)")
        print(f"{'lesson':22} | {'checks':>6} {'p50':>6} {'p95':>6} {'max':>6} | {'RSS MB':>7} {'USS MB':>7}")
        for page, v in r["feedback"].items():
            print(f"{page:22} | {v['checks']:6d} {v['p50']:6.1f} {v['p95']:6.1f} {v['max']:6.1f} | "
                  f"{v['rss']:7.1f} {v['uss']:7.1f}")
        every = [v for v in r["feedback"].values() if v["checks"]]
        print(f"worst p95 {max(v['p95'] for v in every):.1f} ms; largest kernel RSS "
              f"{max(v['rss'] for v in r['feedback'].values()):.1f} MB; Voila server RSS {r['server_rss_mb']:.0f} MB")
    print(f"\n(run took {elapsed:.0f} s on {psutil.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
