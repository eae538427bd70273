"""The static site measured on this machine in one run (a script, not a test): how soon a
learner reads and answers, beside the floor of the stack, and beside an older revision.

    python benchmarks/static_site.py [--site DIR] [--before REV] [--runs 3] [--checks 30]
                                     [--learners 40] [--over 10] [--served] [--lines-only]

The site is built from the working tree into a temporary folder (``--site DIR``: that site,
served from a linked copy; nothing is written into DIR). ``--before REV`` builds revision REV
the same way, from a ``git worktree`` (its own code and lessons, this machine's packages), and
measures both in the same run, their page views interleaved. Each site gets **the floor of the
stack**: a bare Voici page with one anywidget, built by Voici with the site's own configuration
and made offline as the site's pages are (``qd-floor.html``, in the served copy only).

(a) The site: files and MB (and build seconds).
(b) A first visit: requests and MB (a fresh profile opens the home page's address and follows
    the course to lesson 05), and requests off 127.0.0.1 (refused, counted: must be 0).
(c) Times from navigation start, measured inside the page (``performance.now()``), median of
    ``--runs`` views, cold (a fresh profile each) and warm (the same profile again), with the
    browser's CPU seconds per view (every Chromium process, summed):
    home page's lessons visible; lesson 05's first text visible and first drill usable (its Check
    enabled, its answer drawn); the next lesson, 06, usable after 05 in the same tab; the floor
    page's widget. With how Python started in the page (``window.qdPython``: from the build's
    snapshot or the usual way, early or with the kernel) and when it was ready.
    Goals (the project's issue): first drill warm ≤ 4 s, cold ≤ 6 s; next lesson ≤ 2 s.
(d) Click → feedback inside the static page (``window.__qdTimings``), p95 over ``--checks``
    right answers (from the rules module). Goal ≤ 50 ms.
(e) Server CPU: ``--learners`` clients arriving over ``--over`` seconds, each fetching what a
    first visit fetched, from the plain file server.
(f) ``--served``: lesson 05 and 10 from the Voila-served course too (``voila lessons``).
(g) Over a network line (``tests/browser/line.py``: every request and byte counted, whichever part
    of the browser asked — page, kernel's worker, service worker): a phone's 4G (9 Mbit/s down,
    150 ms round trip) and a 50 Mbit/s school line (20 ms). A fresh profile opens lesson 05 (first
    visit), then lesson 06 in the same tab (the next lesson), then lesson 05 again in a new tab
    with the browser's HTTP cache emptied (a return visit the next day, from a host whose cache
    headers keep nothing: only what the site keeps itself is kept). Requests, MB over the wire,
    and ms to the heading and to the first drill usable. ``--lines-only``: (a) and (g) only.
    Goals (issue 45): first visit ≤ 12 MB, next lesson ≤ 1 MB, next day ≤ 0.5 MB; 4G: heading
    ≤ 2 s, first drill ≤ 15 s (next lesson ≤ 3 s); 50 Mbit/s: first drill ≤ 5 s.

This machine's other work moves wall times: compare the figures of one run (the ratios are
printed), and the CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests"), str(REPO / "tests" / "browser"), str(REPO / "benchmarks")]

from app import ARGS, CHROMIUM, Server, check, free_port, interactive_ms, pct
from line import Line, wait_quiet
from test_lessons import KNOWN, _plan, _seed_for
from versions import worktree

from tools.static_site import build, lesson_page

CACHE = REPO / ".cache" / "site"
LINGER = 2500
"""ms a learner stays on a page before the next one, where the next view's speed depends on it
(what the page keeps once it is up)."""
GOALS = {"warm": 4000, "cold": 6000, "next": 2000}
FLOOR = "qd-floor"
FLOOR_WIDGET = '''import anywidget
import traitlets


class Floor(anywidget.AnyWidget):
    _esm = """export default { render({ model, el }) {
        const button = document.createElement("button");
        button.className = "qd-floor";
        button.textContent = `floor ${model.get("n")}`;
        el.appendChild(button);
    } };"""
    n = traitlets.Int(1).tag(sync=True)


Floor()'''
"""The floor page's one cell: the least a page of the stack does (Python, an anywidget shown)."""

MARKS = """(() => {
  const marks = window.__qdMarks = {};
  const seen = (name, ok) => { if (!(name in marks) && ok()) marks[name] = performance.now(); };
  const visible = (e) => !!e && e.getClientRects().length > 0;
  const drill = (d) => {
    const check = d.querySelector('[data-qd=check]'), answer = d.querySelector('[data-qd=answer]');
    const picker = answer && answer.querySelector('.qd-picker');
    return !!check && !check.disabled && !!answer && answer.children.length > 0
           && (!picker || !!picker.querySelector('.qd-option'));
  };
  const poll = () => {
    seen("heading", () => visible(document.querySelector('h1')));
    seen("text", () => visible(document.querySelector('h1'))
                        && [...document.querySelectorAll('#rendered_cells p')].some(visible));
    seen("drill", () => { const d = document.querySelector('[data-qd=drill]'); return !!d && drill(d); });
    seen("drills", () => document.querySelectorAll('.qd-practice [data-qd=drill]').length > 0
                          && [...document.querySelectorAll('[data-qd=drill]')].every(drill));
    seen("course", () => visible(document.querySelector('[data-qd=course] li a')));
    seen("floor", () => visible(document.querySelector('.qd-floor')));
    if (window.qdPython && !marks.python) {
      marks.python = window.qdPython;
      for (const [key, at] of Object.entries(window.qdPython.marks || {})) marks["python " + key] = at - performance.timeOrigin;
    }
    const done = ["drills", "course", "floor"].find((name) => name in marks);
    if (!done || (!marks.python && performance.now() - marks[done] < 3000)) setTimeout(poll, 10);
  };
  poll();
})();"""


# ----------------------------------------------------------------- serving

class FileServer:
    """``python -m http.server`` serving a site on 127.0.0.1."""

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

    def lesson(self, slug: str) -> str:
        return f"{self.base}/{lesson_page('en', slug)}"

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


class BrowserCpu:
    """CPU seconds of every Chromium process (this script's descendants) since it was made:
    processes started meanwhile count whole, processes ended meanwhile lose their last share."""

    def __init__(self) -> None:
        self.before = self._now()

    @staticmethod
    def _now() -> dict[tuple[int, float], float]:
        found = {}
        for process in psutil.Process().children(recursive=True):
            try:
                if "chrom" in process.name():
                    times = process.cpu_times()
                    found[(process.pid, process.create_time())] = times.user + times.system
            except psutil.Error:
                continue
        return found

    def __call__(self) -> float:
        return sum(cpu - self.before.get(key, 0.0) for key, cpu in self._now().items())


# ----------------------------------------------------------------- building

def copy_site(source: Path, target: Path) -> Path:
    """A copy of ``source`` made of hard links where possible (files are never written in
    place: the floor page is a new file), so that nothing is written into ``source``."""
    def link(src: str, dst: str) -> None:
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    shutil.copytree(source, target, copy_function=link)
    return target


def build_revision(revision: str, out: Path) -> dict[str, Any]:
    """Revision ``revision``'s site, built by its own code from a ``git worktree`` into ``out``
    (with this machine's packages and download cache). Returns its build summary."""
    with worktree(revision) as tree:
        started = time.monotonic()
        env = {**os.environ, "PYTHONPATH": str(tree)}  # its tutor, for the build and the kernels it runs
        done = subprocess.run([sys.executable, "-m", "tools.static_site", "--out", str(out), "--cache", str(CACHE)],
                              cwd=tree, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"--before {revision}: the build failed:\n{(done.stdout + done.stderr)[-3000:]}")
        return {"seconds": round(time.monotonic() - started, 1)}


_CONFIG = re.compile(r'(<script id="jupyter-config-data" type="application/json">.*?</script>)(\s*<script>.*?</script>)?',
                     re.DOTALL)
_PYODIDE_URL = re.compile(r'"pyodideUrl":\s*"([^"]*)"')


def add_floor(site: Path) -> str:
    """The floor page in ``site`` (a served copy): ``voici build`` of the one-widget notebook
    with the site's own ``jupyter-lite.json`` and Pyodide, then made as the site's lesson pages
    were made: its relative URLs resolved, Voici's CDN links dropped, the site's page script
    after its configuration, the site's ``pyodideUrl``. Returns its path in the site."""
    from tools.static_site import _CDN, voici_build

    lesson = (site / lesson_page("en", "05-following")).read_text("utf-8")
    with tempfile.TemporaryDirectory(prefix="qd-floor-") as scratch:
        work = Path(scratch)
        lite, contents, out = work / "lite", work / "contents" / "en", work / "out"
        (lite / "static").mkdir(parents=True)
        shutil.copyfile(site / "jupyter-lite.json", lite / "jupyter-lite.json")
        shutil.copytree(site / "static" / "pyodide", lite / "static" / "pyodide")
        contents.mkdir(parents=True)
        notebook = {"cells": [{"cell_type": "code", "execution_count": None, "id": "floor", "metadata": {},
                               "outputs": [], "source": FLOOR_WIDGET}],
                    "metadata": {"kernelspec": {"display_name": "Python (Pyodide)", "language": "python",
                                                "name": "python"}}, "nbformat": 4, "nbformat_minor": 5}
        (contents / f"{FLOOR}.ipynb").write_text(json.dumps(notebook), "utf-8")
        voici_build(lite, contents.parent, out)
        html = (out / lesson_page("en", FLOOR)).read_text("utf-8")
    html = _CDN.sub("", html)
    for asset in ("./static/pyodide/", "./extensions/"):
        html = html.replace(f'"{asset}', f'"../../../{asset[2:]}')
    html = re.sub(r"<html(?:\s+lang=\"[^\"]*\")?", '<html lang="en" data-qd-language="en"', html, count=1)
    found = _CONFIG.search(lesson)
    script = found.group(2) if found and found.group(2) else ""
    html = _CONFIG.sub(lambda m: m.group(1) + script, html, count=1)
    pyodide_url = _PYODIDE_URL.search(lesson)
    if pyodide_url:
        html = _PYODIDE_URL.sub(lambda m: f'"pyodideUrl": "{pyodide_url.group(1)}"', html, count=1)
    target = site / lesson_page("en", FLOOR)
    target.write_text(html, "utf-8")
    return lesson_page("en", FLOOR)


@contextmanager
def served_sites(args: argparse.Namespace) -> Iterator[dict[str, FileServer]]:
    """The sites to measure, each a linked copy with its floor page, behind a file server."""
    scratch = Path(tempfile.mkdtemp(prefix="qd-bench-site-"))
    servers: dict[str, FileServer] = {}
    try:
        sources: dict[str, tuple[Path, str]] = {}
        if args.site:
            sources["now"] = (args.site.resolve(), "given")
        else:
            summary = build(scratch / "now-built", cache=CACHE, quiet=True)
            sources["now"] = (scratch / "now-built", f"built in {summary['seconds']} s")
        if args.before:
            summary = build_revision(args.before, scratch / "before-built")
            sources["before"] = (scratch / "before-built", f"{args.before}, built in {summary['seconds']} s")
        for name, (source, how) in sources.items():
            files = [p for p in source.rglob("*") if p.is_file()]
            print(f"(a) site {name}: {len(files)} files, {sum(p.stat().st_size for p in files) / 1e6:.1f} MB ({how})",
                  flush=True)
            served = copy_site(source, scratch / f"{name}-served")
            add_floor(served)
            servers[name] = FileServer(served)
        yield servers
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


# ----------------------------------------------------------------- a page view

def view(context: Any, url: str, until: str, *, page: Any = None, linger: int = 200) -> dict[str, Any]:
    """Open ``url`` (in ``page``, else a new page) and wait for mark ``until``, then ``linger``
    ms (a learner reads on: the page may keep what it fetched); returns the page's marks (ms
    from its navigation start) and the browser's CPU seconds until ``until``."""
    cpu = BrowserCpu()
    if page is None:
        page = context.new_page()
        page.add_init_script(MARKS)
    page.goto(url, wait_until="commit", timeout=120_000)
    page.wait_for_function(f"window.__qdMarks && {json.dumps(until)} in window.__qdMarks", timeout=120_000, polling=20)
    used = cpu()
    page.wait_for_timeout(linger)  # and a report of Python's start that is on its way
    marks = page.evaluate("window.__qdMarks")
    return {"marks": marks, "cpu": used, "page": page}


def close(page: Any) -> None:
    page.goto("about:blank")
    page.close()


def measure(browser: Any, servers: dict[str, FileServer], runs: int) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Every view of (c), ``runs`` times, the sites interleaved."""
    out: dict[str, dict[str, list[dict[str, Any]]]] = {name: {} for name in servers}

    def keep(name: str, what: str, seen: dict[str, Any]) -> None:
        out[name].setdefault(what, []).append({k: v for k, v in seen.items() if k != "page"})

    warm_contexts = {name: browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
                     for name in servers}
    for name, files in servers.items():  # the warm profiles' first views (their caches filled)
        for url, until in ((files.base + "/", "course"), (files.lesson("05-following"), "drills"),
                           (files.lesson("06-ruffing"), "drills"), (files.lesson(FLOOR), "floor")):
            close(view(warm_contexts[name], url, until, linger=LINGER)["page"])
    for _ in range(runs):
        for name, files in servers.items():
            # cold: a fresh profile; lesson 05, then the next lesson in the same tab
            context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
            seen = view(context, files.lesson("05-following"), "drills", linger=LINGER)
            keep(name, "05 cold", seen)
            keep(name, "05 → 06", view(context, files.lesson("06-ruffing"), "drills", page=seen["page"]))
            close(seen["page"])
            context.close()
            for what, url, until in (("home cold", files.base + "/", "course"),
                                     ("floor cold", files.lesson(FLOOR), "floor")):
                context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
                seen = view(context, url, until)
                keep(name, what, seen)
                close(seen["page"])
                context.close()
            # warm: the same profile again
            warm = warm_contexts[name]
            for what, url, until in (("home warm", files.base + "/", "course"),
                                     ("05 warm", files.lesson("05-following"), "drills"),
                                     ("floor warm", files.lesson(FLOOR), "floor")):
                seen = view(warm, url, until)
                keep(name, what, seen)
                close(seen["page"])
    for context in warm_contexts.values():
        context.close()
    return out


def median(views: list[dict[str, Any]], mark: str) -> float:
    found = [v["marks"][mark] for v in views if mark in v["marks"]]
    return statistics.median(found) if found else float("nan")


def report(results: dict[str, dict[str, list[dict[str, Any]]]]) -> None:
    names = list(results)
    print("(c) ms from navigation start, median (browser CPU s per view, median)   "
          f"[goals: 05 warm ≤ {GOALS['warm']}, cold ≤ {GOALS['cold']}; 05 → 06 ≤ {GOALS['next']}]")
    rows: list[tuple[str, str, str]] = [
        ("home: lessons visible, cold", "home cold", "course"), ("home: lessons visible, warm", "home warm", "course"),
        ("05: first text visible, cold", "05 cold", "text"), ("05: first text visible, warm", "05 warm", "text"),
        ("05: first drill usable, cold", "05 cold", "drill"), ("05: first drill usable, warm", "05 warm", "drill"),
        ("05: every drill usable, cold", "05 cold", "drills"), ("05: every drill usable, warm", "05 warm", "drills"),
        ("05 → 06: first drill usable", "05 → 06", "drill"), ("05 → 06: every drill usable", "05 → 06", "drills"),
        ("floor: widget shown, cold", "floor cold", "floor"), ("floor: widget shown, warm", "floor warm", "floor"),
        ("05: Python asked for (kernel), warm", "05 warm", "python asked"),
        ("05: Python ready, warm", "05 warm", "python ready"),
    ]
    print(f"  {'':40}" + "".join(f"{name:>22}" for name in names) + ("   now/before" if len(names) == 2 else ""))
    table: dict[str, dict[str, float]] = {}
    for label, what, mark in rows:
        cells = []
        for name in names:
            views = results[name].get(what, [])
            ms = median(views, mark)
            cpu = statistics.median([v["cpu"] for v in views]) if views else float("nan")
            table.setdefault(label, {})[name] = ms
            cells.append(f"{ms:8.0f} ({cpu:4.1f} s)" if ms == ms else f"{'—':>8} {'':8}")
        ratio = ""
        if len(names) == 2 and table[label][names[0]] == table[label][names[0]] and table[label][names[1]]:
            ratio = f"   {table[label][names[0]] / table[label][names[1]]:.2f}"
        print(f"  {label:40}" + "".join(f"{c:>22}" for c in cells) + ratio)
    for name in names:
        warm, floor = table["05: first drill usable, warm"][name], table["floor: widget shown, warm"][name]
        cold, floor_cold = table["05: first drill usable, cold"][name], table["floor: widget shown, cold"][name]
        starts = sorted({f"{v['marks']['python']['how']}{', early' if v['marks']['python'].get('early') else ''}"
                         for views in results[name].values() for v in views if "python" in v["marks"]})
        print(f"  {name}: lesson 05 / floor: warm {warm / floor:.2f}, cold {cold / floor_cold:.2f}; "
              f"Python started: {', '.join(starts) or 'not reported (a site without start.js)'}")


# ----------------------------------------------------------------- the rest, as before

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
    failed: set[str] = set()
    ctx.on("requestfinished", lambda r: fetched.append(r.url))  # the page's and its workers'
    ctx.on("response", lambda r: failed.add(r.url) if r.status >= 400 else None)  # JupyterLite's service worker
    page = ctx.new_page()
    page.goto(files.base + "/", wait_until="load")
    page.wait_for_selector("[data-qd=course] li a", timeout=120_000)
    page.click('[data-qd=course] li[data-lesson="05-following"] a')
    page.wait_for_selector("[data-qd=drill] [data-qd=check]:not([disabled])", timeout=120_000)
    page.wait_for_timeout(1000)
    page.close()
    ctx.close()
    urls = [u for u in dict.fromkeys(fetched) if u.startswith(files.base) and u not in failed]
    on_disk = [files.site / unquote(urlsplit(u).path).lstrip("/") for u in urls]
    sent = sum(p.stat().st_size for p in on_disk if p.is_file())  # what the plain file server sends
    return {"requests": len(fetched), "files": len(urls), "bytes": sent, "off_host": off, "urls": urls}


def served_times(browser: Any, server: Server, warm: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for slug in ("05-following", "10-play"):
        mode = "drill" if KNOWN.get(slug) else "widget"
        ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        before = voila_cpu(server)
        cold, _, _ = interactive_ms(ctx, server.url(f"{slug}.ipynb"), mode)
        cpu = voila_cpu(server) - before
        runs = [interactive_ms(ctx, server.url(f"{slug}.ipynb"), mode)[0] for _ in range(warm)]
        ctx.close()
        out[slug] = {"cold": cold, "warm": statistics.median(runs), "cpu": cpu}
    return out


def feedback(browser: Any, url: str, checks: int) -> dict[str, float]:
    kinds = KNOWN["05-following"]
    seed = _seed_for(kinds, "05-following")
    ctx = browser.new_context(viewport={"width": 1100, "height": 900})
    page = view(ctx, f"{url}?seed={seed}", "drills")["page"]
    plans = [p for p in (_plan(kind, seed, "05-following") for kind in kinds) if p is not None]
    drills = page.locator(".qd-practice [data-qd=drill]").all()  # the practice's (quick checks come first)
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


LINE_GOALS = {"first MB": 12.0, "next MB": 1.0, "day MB": 0.5, "4g heading": 2000, "4g drill": 15000,
              "4g next drill": 3000, "50mbit drill": 5000}


def over_line(browser: Any, files: FileServer, speed: str) -> dict[str, Any]:
    """(g): a first visit to lesson 05, the next lesson, and a return visit the next day, over a
    line of ``speed`` (:attr:`Line.SPEEDS`) in front of ``files``."""
    line = Line(("127.0.0.1", files.port))
    line.slow(speed)
    out: dict[str, Any] = {}
    try:
        context = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
        lesson = lambda slug: line.base + "/" + lesson_page("en", slug)  # noqa: E731
        first = view(context, lesson("05-following"), "drill", linger=0)
        wait_quiet(line)
        out["first"] = {"marks": first["marks"], "traffic": line.read()}
        following = view(context, lesson("06-ruffing"), "drill", page=first["page"], linger=0)
        wait_quiet(line)
        out["next"] = {"marks": following["marks"], "traffic": line.read()}
        close(first["page"])
        page = context.new_page()
        page.add_init_script(MARKS)
        context.new_cdp_session(page).send("Network.clearBrowserCache")
        line.read()
        day = view(context, lesson("05-following"), "drill", page=page, linger=0)
        wait_quiet(line)
        out["day"] = {"marks": day["marks"], "traffic": line.read()}
        close(page)
        context.close()
    finally:
        line.stop()
    return out


def report_lines(found: dict[str, dict[str, dict[str, Any]]]) -> None:
    names = list(found)
    print("(g) over a network line, every request counted (fresh profile: lesson 05, then 06, then 05 the next day)")
    print(f"  {'':44}" + "".join(f"{name:>26}" for name in names) + ("   now/before" if len(names) == 2 else ""))

    def row(label: str, values: dict[str, float], shown: Any, goal: str) -> None:
        ratio = ""
        if len(names) == 2 and values[names[1]]:
            ratio = f"   {values[names[0]] / values[names[1]]:.2f}"
        print(f"  {label:44}" + "".join(f"{shown(name):>26}" for name in names) + ratio + (f"   [goal {goal}]" if goal else ""))

    for speed in Line.SPEEDS:
        for visit, label in (("first", "first visit"), ("next", "next lesson"), ("day", "next day")):
            traffic = {n: found[n][speed][visit]["traffic"] for n in names}
            goal = {"first": "≤ 12 MB", "next": "≤ 1 MB", "day": "≤ 0.5 MB"}[visit] if speed == "4g" else ""
            row(f"{speed}, {label}: MB (requests)", {n: traffic[n].megabytes for n in names},
                lambda n: f"{traffic[n].megabytes:7.2f} MB ({len(traffic[n].requests):3d})", goal)
            for mark, what in (("heading", "heading"), ("drill", "first drill usable")):
                ms = {n: float(found[n][speed][visit]["marks"].get(mark, float("nan"))) for n in names}
                goal = {("4g", "first", "heading"): "≤ 2000", ("4g", "first", "drill"): "≤ 15000",
                        ("4g", "next", "drill"): "≤ 3000", ("50mbit", "first", "drill"): "≤ 5000"}.get((speed, visit, mark), "")
                row(f"{speed}, {label}: {what}, ms", ms, lambda n: f"{ms[n]:8.0f}", goal)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, help="measure this built site (default: build the working tree's)")
    parser.add_argument("--before", metavar="REV", help="build revision REV too and measure both in the same run")
    parser.add_argument("--runs", type=int, default=3, help="views of each kind per site (medians)")
    parser.add_argument("--checks", type=int, default=30)
    parser.add_argument("--learners", type=int, default=40)
    parser.add_argument("--over", type=float, default=10.0)
    parser.add_argument("--served", action="store_true", help="measure the Voila-served course too")
    parser.add_argument("--lines-only", action="store_true", help="measure only (a) and (g), the network lines")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    with served_sites(args) as servers, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        lines: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in servers}
        for speed in Line.SPEEDS:
            for name, files in servers.items():
                lines[name][speed] = over_line(browser, files, speed)
        report_lines(lines)
        if args.lines_only:
            browser.close()
            print(f"({time.monotonic() - started:.0f} s in all)")
            return
        visits = {}
        for name, files in servers.items():
            visits[name] = visit = first_visit(browser, files)
            print(f"(b) first visit, {name} (home → lesson 05): {visit['requests']} requests, {visit['files']} files, "
                  f"{visit['bytes'] / 1e6:.1f} MB (uncompressed); requests off 127.0.0.1: {len(visit['off_host'])} "
                  f"{visit['off_host'][:3]}", flush=True)
        report(measure(browser, servers, args.runs))
        now = servers["now"]
        fb = feedback(browser, now.lesson("05-following"), args.checks)
        print(f"(d) click → feedback, static lesson 05: p50 {fb['p50']:.1f} p95 {fb['p95']:.1f} max {fb['max']:.1f} ms "
              f"over {fb['checks']} checks ({fb['wrong']} not judged right)   [goal p95 ≤ 50]")
        if args.served:
            voila = Server("lessons")
            try:
                served = served_times(browser, voila, max(1, args.runs))
            finally:
                voila.stop()
            for slug, s in served.items():
                print(f"(f) served {slug}: cold {s['cold']:6.0f} ms, warm {s['warm']:6.0f} ms; "
                      f"server CPU for the first view {s['cpu'] * 1000:5.0f} ms")
        browser.close()
        load = arrivals(now, visits["now"]["urls"], args.learners, args.over)
        print(f"(e) {args.learners} learners arriving over {args.over:.0f} s, each fetching the first visit's "
              f"{len(visits['now']['urls'])} files: file server CPU {load['cpu']:.2f} s in all, "
              f"{load['per_learner'] * 1000:.0f} ms per learner; fetch p50 {load['fetch_p50']:.1f} s, "
              f"p95 {load['fetch_p95']:.1f} s; {load['failures']} failures")
    print(f"({time.monotonic() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
