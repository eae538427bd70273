"""The course as learners get it, measured on this machine in one run (a script, not a test).

    python benchmarks/app.py [--warm 2] [--checks 30] [--pages 00-welcome,05-following]
                             [--lang en,zh-Hans,zh-Hant]

Every figure is given per language: the lesson pages are opened with ``?lang=<language>``
(``--lang``, default en; several may be given, comma-separated or repeated), so
the course's prelaunch hook translates each page (``tutor/teach/localize.py``) before its
kernel starts. Each language gets its own freshly started lesson server.

(a) Time to interactive: navigation start → the first drill's Check button enabled and
    its answer (the card picker, choice buttons or number box) drawn — for the home page
    the course map, for a page without drills its first course widget — measured inside
    the page (``performance.now()``, whose origin is the navigation start). Compared with a
    bare one-button ipywidgets notebook (written to a temp dir, opened without ``?lang=``)
    served with the same ``deploy/voila.py``. Cold: the first view of a page in a fresh browser
    profile; warm: further views (browser cache warm).
(b) Click → feedback inside the page (``window.__qdTimings``): p95 over ``--checks``
    checks per lesson (Check, Retry, Check …, split over the lesson's drills). The answers
    come from the English drills (``generate(kind, seed, 1)``): a drill is the same in
    every language (same cards, same choice keys) and the page is answered through
    language-neutral attributes (``data-card``, ``data-key``); every check must be judged
    right, and the page must be in the language asked for.
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
from urllib.parse import urlencode

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "browser")]

from test_lessons import KNOWN, Plan, _give, _plan, _seed_for

from tutor.teach.drills import generate
from tutor.core.i18n import LANGUAGES

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
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
    """``voila <directory>`` from the repository root with ``deploy/voila.py``."""

    def __init__(self, directory: Path | str, *extra: str) -> None:
        self.log = Path(tempfile.mkstemp(suffix=".log", prefix="voila-bench-")[1])
        command = [str(Path(sys.executable).with_name("voila")), str(directory), "--port", str(free_port()),
                   "--no-browser", "--Voila.config_file_paths=deploy", *extra]
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


def with_lang(query: str, lang: str | None) -> str:
    """``query`` (``seed=…``, kept as is) with ``lang=…`` added when a language is asked for."""
    return "&".join(part for part in (query, urlencode({"lang": lang}) if lang else "") if part)


def interactive_ms(context: Any, url: str, mode: str, *, keep: bool = False) -> tuple[float, str, Any]:
    """Time to interactive, the page's ``<html lang>`` and (``keep``) the open page."""
    page = context.new_page()
    page.add_init_script(READY.replace("__MODE__", mode))
    page.goto(url, wait_until="commit", timeout=120_000)
    page.wait_for_function("window.__interactive !== undefined", timeout=120_000, polling=50)
    ms = float(page.evaluate("window.__interactive"))
    lang = str(page.evaluate("document.documentElement.lang"))
    if keep:
        return ms, lang, page
    close(page)
    return ms, lang, None


def close(page: Any) -> None:
    page.goto("about:blank")  # the beacon shuts the kernel down
    page.close()


def load_times(browser: Any, server: Server, notebooks: list[str], warm: int, lang: str | None,
               problems: list[str]) -> dict[str, Any]:
    """Cold (fresh profile) and warm (same profile) time to interactive per notebook,
    opened with ``?lang=`` when ``lang`` is given (and checked to be in that language)."""
    out: dict[str, Any] = {}
    for notebook in notebooks:
        url, mode = server.url(notebook, with_lang("", lang)), mode_of(notebook)
        cold_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        cold, shown, _ = interactive_ms(cold_ctx, url, mode)
        cold_ctx.close()
        ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        interactive_ms(ctx, url, mode)  # fills this profile's cache
        runs = []
        for _ in range(warm):
            ms, again, _ = interactive_ms(ctx, url, mode)
            runs.append(ms)
            shown = shown if again == shown else f"{shown}/{again}"
        ctx.close()
        if lang and shown != lang:
            problems.append(f"{notebook} ?lang={lang}: the page came in <html lang={shown!r}>")
        out[notebook] = {"cold": cold, "warm": statistics.median(runs)}
        print(f"  {notebook:22} {lang or '':8} cold {cold:7.0f} ms   warm {out[notebook]['warm']:7.0f} ms", flush=True)
    return out


def feedback_and_memory(browser: Any, server: Server, lessons: list[str], checks: int, lang: str,
                        problems: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for notebook in lessons:
        slug = notebook[:-6]
        kinds = KNOWN.get(slug)
        ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        seed = _seed_for(kinds) if kinds else 0
        _, shown, page = interactive_ms(ctx, server.url(notebook, with_lang(f"seed={seed}" if kinds else "", lang)),
                                        mode_of(notebook), keep=True)
        if shown != lang:
            problems.append(f"{notebook} ?lang={lang}: the page came in <html lang={shown!r}>")
        page.wait_for_timeout(500)
        kernels = server.kernels()
        rss = [k.memory_info().rss / 2**20 for k in kernels]
        uss = [k.memory_full_info().uss / 2**20 for k in kernels]
        times: list[float] = []
        right = 0
        if kinds:
            # The kernel speaks the page's language: its first drill asks the question in it.
            asked = " ".join(page.locator("[data-qd=question]").first.inner_text().split())
            expected = " ".join(generate(kinds[0], seed, 1, lang=lang).question.split())
            if asked != expected:
                problems.append(f"{notebook} ?lang={lang}: first question {asked!r}, expected {expected!r}")
            # The answers come from the English drills: same cards and choice keys in every language.
            plans = [p for p in (_plan(kind, seed) for kind in kinds) if p is not None]
            drills = page.locator("[data-qd=drill]").all()
            for i in range(checks):
                plan, drill = plans[i % len(plans)], drills[i % len(plans)]
                check(page, drill, plan)
            timings = page.evaluate("window.__qdTimings")
            times = [t["ms"] for t in timings]
            right = sum(t.get("result") == "right" for t in timings)
            if right != len(times):
                problems.append(f"{notebook} ?lang={lang}: {len(times) - right} of {len(times)} right answers "
                                f"not judged right")
        close(page)
        ctx.close()
        out[notebook] = {"rss": max(rss) if rss else 0.0, "uss": max(uss) if uss else 0.0, "kernels": len(kernels),
                         "checks": len(times), "right": right, "p50": pct(times, 50), "p95": pct(times, 95),
                         "max": max(times) if times else float("nan")}
        r = out[notebook]
        print(f"  {notebook:22} {lang:8} feedback p50 {r['p50']:5.1f} p95 {r['p95']:5.1f} max {r['max']:6.1f} ms "
              f"({r['right']}/{r['checks']} right)   kernel RSS {r['rss']:5.1f} MB (USS {r['uss']:5.1f})", flush=True)
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


def languages(given: list[str] | None) -> list[str]:
    chosen: list[str] = []
    for item in given or ["en"]:
        for lang in (part.strip() for part in item.split(",")):
            if lang and lang not in LANGUAGES:
                raise SystemExit(f"--lang: unknown language {lang!r}; choose from {', '.join(LANGUAGES)}")
            if lang and lang not in chosen:
                chosen.append(lang)
    return chosen or ["en"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--warm", type=int, default=2, help="warm views per page (median)")
    parser.add_argument("--checks", type=int, default=30, help="checks per lesson for the feedback p95")
    parser.add_argument("--pages", default="", help="comma-separated notebooks (default: all)")
    parser.add_argument("--lang", action="append", metavar="|".join(LANGUAGES),
                        help="language of the lesson pages (default en; repeat or comma-separate for several)")
    args = parser.parse_args()
    langs = languages(args.lang)
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
    problems: list[str] = []
    started = time.monotonic()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        print("[bare] one-button notebook, deploy/voila.py as committed, no ?lang=", flush=True)
        bare = Server(bare_dir)
        try:
            results["bare"] = load_times(browser, bare, [BARE], args.warm, None, problems)[BARE]
        finally:
            bare.stop()
        for lang in langs:
            print(f"[{lang}] lessons opened with ?lang={lang} (a freshly started server)", flush=True)
            server = Server("lessons")
            try:
                results[lang] = {
                    "load": load_times(browser, server, pages, args.warm, lang, problems),
                    "feedback": feedback_and_memory(browser, server, lessons, args.checks, lang, problems),
                    "server_rss_mb": psutil.Process(server.process.pid).memory_info().rss / 2**20,
                }
            finally:
                server.stop()
        browser.close()
    report(results, pages, langs, problems, time.monotonic() - started)
    if problems:
        raise SystemExit(1)


def report(r: dict[str, Any], pages: list[str], langs: list[str], problems: list[str], elapsed: float) -> None:
    bare = r["bare"]
    print("\nTime to interactive (ms; × = lesson / bare one-button page, target ≤ 1.3×)")
    print(f"{BARE} (no ?lang=): cold {bare['cold']:.0f} ms, warm {bare['warm']:.0f} ms")
    head = f"{'page':22}" + "".join(f" | {lang + ' cold':>13} {'×':>5} {lang + ' warm':>13} {'×':>5}" for lang in langs)
    print(head)
    print("-" * len(head))
    for page in pages:
        row = f"{page:22}"
        for lang in langs:
            v = r[lang]["load"][page]
            row += f" | {v['cold']:13.0f} {v['cold'] / bare['cold']:5.2f} {v['warm']:13.0f} {v['warm'] / bare['warm']:5.2f}"
        print(row)
    lessons = [p for p in pages if p != "index.ipynb"]
    if lessons:
        for lang in langs:
            cold = statistics.median(r[lang]["load"][p]["cold"] for p in lessons)
            warm = statistics.median(r[lang]["load"][p]["warm"] for p in lessons)
            print(f"{lang}: lessons median cold {cold:.0f} ms ({cold / bare['cold']:.2f}×), "
                  f"warm {warm:.0f} ms ({warm / bare['warm']:.2f}×)")
        print(f"\nClick → feedback inside the page (target p95 ≤ {FEEDBACK_TARGET_MS:.0f} ms) and kernel memory "
              f"(target ≤ {RSS_TARGET_MB:.0f} MB)")
        print(f"{'lesson':22} {'lang':8} | {'checks':>6} {'right':>5} {'p50':>6} {'p95':>6} {'max':>6} | "
              f"{'RSS MB':>7} {'USS MB':>7}")
        for page in lessons:
            for lang in langs:
                v = r[lang]["feedback"][page]
                print(f"{page:22} {lang:8} | {v['checks']:6d} {v['right']:5d} {v['p50']:6.1f} {v['p95']:6.1f} "
                      f"{v['max']:6.1f} | {v['rss']:7.1f} {v['uss']:7.1f}")
        for lang in langs:
            feedback = r[lang]["feedback"].values()
            p95s = [v["p95"] for v in feedback if v["checks"]]
            worst = f"{max(p95s):.1f} ms" if p95s else "n/a (no drills)"
            print(f"{lang}: worst p95 {worst}; largest kernel RSS {max(v['rss'] for v in feedback):.1f} MB; "
                  f"Voila server RSS {r[lang]['server_rss_mb']:.0f} MB")
    if problems:
        print("\nFAILED:")
        for problem in problems:
            print("  " + problem)
    print(f"\n(run took {elapsed:.0f} s on {psutil.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
