"""The static site beside the served course, measured on this machine in one run (a script,
not a test).

    python benchmarks/static_site.py [--site _site] [--build] [--warm 2] [--checks 30]
                                     [--learners 40] [--over 10]

(a) The site: files and MB on disk (``--build`` builds it first, timed; without ``_site/`` it
    is built too).
(b) A first visit: requests and MB transferred (a fresh profile opening lesson 05 from the
    home page's address), and every request off 127.0.0.1 (refused, counted: must be 0).
(c) Time to the first usable drill (navigation start → the first drill's Check enabled and its
    answer drawn; lesson 10: the table drawn), cold (fresh profile) and warm (same profile
    again), for the static page (``python -m http.server``) and the Voila-served page
    (``voila lessons`` with ``deploy/voila.py``) in the same run. Goals: static warm ≤ 4 s, cold ≤ 10 s.
(d) Click → feedback inside the static page (``window.__qdTimings``), p95 over ``--checks``
    right answers (from the rules module). Goal ≤ 50 ms.
(e) Server CPU: ``--learners`` clients arriving over ``--over`` seconds, each fetching what a
    first visit fetched, from the plain file server — its CPU seconds in all and per learner —
    beside Voila's CPU per page view measured in (c).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "browser"), str(REPO / "benchmarks")]

from app import ARGS, CHROMIUM, Server, check, free_port, interactive_ms, pct
from test_lessons import KNOWN, _plan, _seed_for

from tutor.static_site import build, lesson_page

PAGES = ("05-following", "10-play")


class FileServer:
    """``python -m http.server`` serving the site on 127.0.0.1."""

    def __init__(self, site: Path) -> None:
        self.site = site
        self.port = free_port()
        self.process = subprocess.Popen([sys.executable, "-m", "http.server", str(self.port), "--bind", "127.0.0.1",
                                         "--directory", str(site)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(self.base + "/index.html", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def cpu(self) -> float:
        times = psutil.Process(self.process.pid).cpu_times()
        return float(times.user + times.system)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def voila_cpu(server: Server) -> float:
    """CPU seconds of the Voila server and every kernel it ever started (reaped ones included)."""
    process = psutil.Process(server.process.pid)
    times = process.cpu_times()
    total = times.user + times.system + times.children_user + times.children_system
    for child in process.children(recursive=True):
        try:
            t = child.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            continue
    return float(total)


def first_visit(browser: Any, files: FileServer) -> dict[str, Any]:
    """A fresh profile opens the home page's address and follows the course to lesson 05."""
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
    off: list[str] = []
    fetched: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        if url.startswith(files.base + "/") or url.startswith("data:") or url.startswith("blob:"):
            request_route.continue_()
        else:
            off.append(url)
            request_route.abort()

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.on("requestfinished", lambda r: fetched.append(r.url))
    page.goto(files.base + "/", wait_until="load")
    page.wait_for_selector("[data-qd=course] li a", timeout=120_000)
    page.click('[data-qd=course] li[data-lesson="05-following"] a')
    page.wait_for_selector("[data-qd=drill] [data-qd=check]:not([disabled])", timeout=120_000)
    page.wait_for_timeout(1000)
    page.close()
    ctx.close()
    urls = [u for u in dict.fromkeys(fetched) if u.startswith(files.base)]
    on_disk = [files.site / unquote(urlsplit(u).path).lstrip("/") for u in urls]
    sent = sum(p.stat().st_size for p in on_disk if p.is_file())  # what the plain file server sends
    return {"requests": len(fetched), "files": len(urls), "bytes": sent, "off_host": off, "urls": urls}


def load_times(browser: Any, url_of: Any, cpu_of: Any, warm: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for slug in PAGES:
        mode = "drill" if KNOWN.get(slug) else "widget"
        url = url_of(slug)
        ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        before = cpu_of()
        cold, _, _ = interactive_ms(ctx, url, mode)
        cpu = cpu_of() - before
        runs = [interactive_ms(ctx, url, mode)[0] for _ in range(warm)]
        ctx.close()
        out[slug] = {"cold": cold, "warm": statistics.median(runs), "cpu": cpu}
    return out


def feedback(browser: Any, url: str, checks: int) -> dict[str, float]:
    kinds = KNOWN["05-following"]
    seed = _seed_for(kinds)
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    _, _, page = interactive_ms(ctx, f"{url}?seed={seed}", "drill", keep=True)
    plans = [p for p in (_plan(kind, seed) for kind in kinds) if p is not None]
    drills = page.locator("[data-qd=drill]").all()
    for i in range(checks):
        check(page, drills[i % len(plans)], plans[i % len(plans)])
    timings = page.evaluate("window.__qdTimings")
    ctx.close()
    times = [t["ms"] for t in timings]
    wrong = sum(t.get("result") != "right" for t in timings)
    return {"p50": pct(times, 50), "p95": pct(times, 95), "max": max(times), "checks": len(times), "wrong": wrong}


def arrivals(files: FileServer, urls: list[str], learners: int, over: float) -> dict[str, float]:
    """``learners`` light clients, evenly spread over ``over`` seconds, each fetching ``urls``."""
    done: list[float] = []
    failures = [0]

    def learner(delay: float) -> None:
        time.sleep(delay)
        started = time.monotonic()
        for url in urls:
            try:
                with urllib.request.urlopen(url, timeout=60) as response:
                    response.read()
            except OSError:
                failures[0] += 1
        done.append(time.monotonic() - started)

    before = files.cpu()
    threads = [threading.Thread(target=learner, args=(i * over / learners,)) for i in range(learners)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    cpu = files.cpu() - before
    return {"cpu": cpu, "per_learner": cpu / learners, "fetch_p50": statistics.median(done),
            "fetch_p95": pct(done, 95), "failures": failures[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, default=REPO / "_site")
    parser.add_argument("--build", action="store_true", help="build the site first (timed)")
    parser.add_argument("--warm", type=int, default=2)
    parser.add_argument("--checks", type=int, default=30)
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--over", type=float, default=10.0)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    site = args.site.resolve()
    if args.build or not (site / "index.html").exists():
        summary = build(site, cache=REPO / ".cache" / "site", quiet=True)
        print(f"build: {summary['seconds']} s")
    files_on_disk = [p for p in site.rglob("*") if p.is_file()]
    print(f"site: {len(files_on_disk)} files, {sum(p.stat().st_size for p in files_on_disk) / 1e6:.1f} MB")
    files = FileServer(site)
    voila = Server("lessons")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            visit = first_visit(browser, files)
            print(f"first visit (home → lesson 05): {visit['requests']} requests, {visit['files']} files, "
                  f"{visit['bytes'] / 1e6:.1f} MB (uncompressed); "
                  f"requests off 127.0.0.1: {len(visit['off_host'])} {visit['off_host'][:3]}")
            static = load_times(browser, lambda slug: f"{files.base}/{lesson_page('en', slug)}", files.cpu, args.warm)
            served = load_times(browser, lambda slug: voila.url(f"{slug}.ipynb"), lambda: voila_cpu(voila), args.warm)
            print("time to the first usable drill (lesson 10: the table), ms   [goal static: warm ≤ 4000, cold ≤ 10000]")
            for slug in PAGES:
                s, v = static[slug], served[slug]
                print(f"  {slug:14} static cold {s['cold']:6.0f} warm {s['warm']:6.0f}   "
                      f"served cold {v['cold']:6.0f} warm {v['warm']:6.0f}   server CPU for the page view: "
                      f"static {s['cpu'] * 1000:5.0f} ms, served {v['cpu'] * 1000:5.0f} ms")
            fb = feedback(browser, f"{files.base}/{lesson_page('en', '05-following')}", args.checks)
            print(f"click → feedback, static lesson 05: p50 {fb['p50']:.1f} p95 {fb['p95']:.1f} max {fb['max']:.1f} ms "
                  f"over {fb['checks']} checks ({fb['wrong']} not judged right)   [goal p95 ≤ 50]")
            browser.close()
        load = arrivals(files, visit["urls"], args.learners, args.over)
        print(f"{args.learners} learners arriving over {args.over:.0f} s, each fetching the first visit's "
              f"{len(visit['urls'])} files: file server CPU {load['cpu']:.2f} s in all, "
              f"{load['per_learner'] * 1000:.0f} ms per learner; fetch p50 {load['fetch_p50']:.1f} s, "
              f"p95 {load['fetch_p95']:.1f} s; {load['failures']} failures")
    finally:
        files.stop()
        voila.stop()


if __name__ == "__main__":
    main()
