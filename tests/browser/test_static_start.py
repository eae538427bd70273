"""How Python starts in a page of the static site (``tools/static_site``: ``start.js``,
``worker.js``, ``page.js``): restored from the memory snapshot the build made, in the kernel's
worker that the page started as it opened — and, when the snapshot cannot be used (missing,
cut short, corrupt, not ours), the usual way, with the same drills. The page says which
(``<html data-qd-python>``, ``window.qdPython``); the kernel itself is asked what Python holds.

The site is the session's (``static_serve.py``), offline as in ``test_static_site.py``.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from static_serve import StaticSite
from test_lessons import KNOWN, _answer_wrong_then_right, _assert_clean, _plan, _seed_for
from test_static_site import PAGE_TIMEOUT, Learner, ready

from tutor.teach.drills import generate
from tutor.teach.drills.progress import visit_seed

SNAPSHOT = "**/static/pyodide/qd-python-*.bin"
KINDS = KNOWN["05-following"]


@pytest.fixture()
def learner(browser: Any) -> Iterator[Learner]:
    one = Learner(browser)
    yield one
    one.close()


def started(page: Any) -> dict[str, Any]:
    """How the page's Python started, as the kernel's worker told the page."""
    page.wait_for_function("!!window.qdPython", timeout=PAGE_TIMEOUT)
    report: dict[str, Any] = page.evaluate("window.qdPython")
    assert page.evaluate("document.documentElement.dataset.qdPython") == report["how"]
    return report


def python(page: Any, code: str) -> str:
    """What ``code`` prints, run by the page's own kernel (as a cell would be)."""
    return str(page.evaluate("""async (code) => {
        const kernel = window.jupyterapp.widgetManager.kernel;
        const future = kernel.requestExecute({ code, silent: false, store_history: false });
        let out = "";
        future.onIOPub = (msg) => { if (msg.header.msg_type === "stream") out += msg.content.text;
                                    if (msg.header.msg_type === "error") out += msg.content.ename + ": " + msg.content.evalue; };
        await future.done;
        return out;
    }""", code)).strip()


def first_question(page: Any) -> str:
    return " ".join(page.locator(".qd-practice [data-qd=question]").first.inner_text().split())


def open_lesson(learner: Learner, site: StaticSite, query: str) -> Any:
    page = learner.open(site.url("05-following.ipynb", query), drills=len(KINDS))
    page.wait_for_function("!!(window.jupyterapp && window.jupyterapp.widgetManager)", timeout=PAGE_TIMEOUT)
    return page


def test_the_build_points_the_pages_at_the_snapshot(site: StaticSite) -> None:
    pyodide = site.folder / "static" / "pyodide"
    snapshots = list(pyodide.glob("qd-python-*.bin"))
    assert len(snapshots) == 1 and (pyodide / "qd-start.js").is_file() and (pyodide / "qd-worker.js").is_file()
    data = gzip.decompress(snapshots[0].read_bytes())
    assert data[:8] == b"QDPY0001"
    html = (site.folder / "voici" / "render" / "en" / "05-following.html").read_text("utf-8")
    assert re.search(r'"pyodideUrl": "\.\./\.\./\.\./static/pyodide/qd-start\.js\?v=\w+"', html)
    assert f'"qdSnapshotURL": "static/pyodide/{snapshots[0].name}"' in html
    kernel_worker = re.search(r'"qdEarly": \{"kernel": "([^"]+)"', html)
    assert kernel_worker and (site.folder / kernel_worker.group(1)).is_file()


def test_python_starts_from_the_snapshot_with_the_same_drills(learner: Learner, site: StaticSite) -> None:
    seed = _seed_for(KINDS, "05-following")
    page = open_lesson(learner, site, f"seed={seed}")
    report = started(page)
    assert report["how"] == "snapshot" and report["error"] is None, report
    assert report["early"] is True, "Python was not started as the page opened"
    # The drills are the rules module's for the link's seed, and answered as they should be.
    assert first_question(page) == " ".join(generate(KINDS[0], visit_seed(seed, 0, KINDS[0], "05-following"), 1).question.split())
    plans = [_plan(kind, seed, "05-following") for kind in KINDS]
    _answer_wrong_then_right(page, [p for p in plans if p is not None])
    _assert_clean(page, learner.errors, "05-following")
    # What Python holds is this page's: its link, a random state of its own, the course in memory.
    state = json.loads(python(page, "import os, sys, json, random\n"
                                    "print(json.dumps([os.environ['QUERY_STRING'], 'tutor.rules.game' in sys.modules,"
                                    " random.random()]))"))
    assert state[0] == f"seed={seed}" and state[1] is True
    # The think-time clock runs in the browser, where process_time() reads 0 (tutor.core.clock).
    clock = json.loads(python(page, "import json, time\nfrom tutor.core.clock import thinking_time\n"
                                    "start = thinking_time(), time.process_time()\nsum(range(3_000_000))\n"
                                    "print(json.dumps([thinking_time() - start[0], time.process_time() - start[1]]))"))
    assert clock[0] > 0, clock
    page.close()
    # The next page reads the snapshot unpacked, as the first page kept it in the browser.
    again = open_lesson(learner, site, f"seed={seed}")
    report = started(again)
    assert report["how"] == "snapshot" and report["marks"].get("kept") is True, report
    assert json.loads(python(again, "import random, json\nprint(json.dumps(random.random()))")) != state[2], \
        "two pages drew the same random number: random was not seeded again after the restore"
    assert first_question(again) == " ".join(generate(KINDS[0], visit_seed(seed, 0, KINDS[0], "05-following"), 1).question.split())
    again.close()


def test_a_damaged_copy_kept_in_the_browser_is_fetched_again(learner: Learner, site: StaticSite) -> None:
    page = open_lesson(learner, site, "")
    assert started(page)["how"] == "snapshot"
    page.wait_for_function("""async () => {  // kept once the page is up
        const cache = await caches.open("qd-python");
        return (await cache.keys()).length === 1;
    }""", timeout=30_000, polling=200)
    page.evaluate("""async () => {
        const cache = await caches.open("qd-python");
        const [key] = await cache.keys();
        await cache.put(key, new Response(new Uint8Array(1000)));
    }""")
    page.close()
    again = open_lesson(learner, site, "")
    report = started(again)
    assert report["how"] == "snapshot" and not report["marks"].get("kept"), report
    ready(again, "drill", len(KINDS))
    _assert_clean(again, learner.errors, "05-following")
    again.close()


BROKEN = {
    "missing": lambda body: {"status": 404, "body": "not here"},
    "cut short": lambda body: {"status": 200, "body": body[: len(body) // 3]},
    "corrupt": lambda body: {"status": 200, "body": body[:4096] + bytes(b ^ 0x5A for b in body[4096:8192]) + body[8192:]},
    "not ours": lambda body: {"status": 200, "body": gzip.compress(b"QDPY0002" + bytes(4096))},
}


@pytest.mark.parametrize("how", list(BROKEN))
def test_without_a_usable_snapshot_python_starts_the_usual_way(how: str, learner: Learner, site: StaticSite) -> None:
    served: list[str] = []

    def broken(route: Any) -> None:
        served.append(route.request.url)
        body = (site.folder / "static" / "pyodide" / route.request.url.rsplit("/", 1)[1]).read_bytes()
        route.fulfill(content_type="application/octet-stream", **BROKEN[how](body))

    learner.context.route(SNAPSHOT, broken)
    seed = _seed_for(KINDS, "05-following")
    page = open_lesson(learner, site, f"seed={seed}")
    report = started(page)
    assert served, "the page did not ask for the snapshot"
    assert report["how"] == "usual" and report["error"], report
    assert first_question(page) == " ".join(generate(KINDS[0], visit_seed(seed, 0, KINDS[0], "05-following"), 1).question.split())
    assert python(page, "import os\nprint(os.environ['QUERY_STRING'])") == f"seed={seed}"
    _assert_clean(page, learner.errors, "05-following")
    page.close()


def test_without_the_early_worker_the_kernel_starts_its_own(learner: Learner, site: StaticSite) -> None:
    """The worker page.js starts cannot load: the kernel gets its own worker, which still
    starts Python from the snapshot."""
    learner.context.route("**/static/pyodide/qd-worker.js*", lambda route: route.fulfill(status=404, body=""))
    page = open_lesson(learner, site, "")
    report = started(page)
    assert report["how"] == "snapshot" and report["early"] is False, report
    ready(page, "drill", len(KINDS))
    _assert_clean(page, learner.errors, "05-following")
    page.close()


def test_the_table_and_another_language_start_from_the_snapshot(learner: Learner, site: StaticSite) -> None:
    page = learner.open(site.url("10-play.ipynb", "seed=7", language="zh-Hant"), wait_for="table")
    assert started(page)["how"] == "snapshot"
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    _assert_clean(page, learner.errors, "10-play")
    page.close()
