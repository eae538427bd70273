"""Serve the lessons with Voila exactly as the README says, and look at the pages.

Starts ``voila lessons --port <free port> --no-browser`` from the repository root, so the
committed ``deploy/voila.py`` there is the configuration under test, and stops it at the end.
Standard library + pytest only.
"""

from __future__ import annotations

import html
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from voila_serve import PAGE_TIMEOUT, VoilaServer, open_page, serve

from tutor.server import LAB_EXTENSIONS

REPO = Path(__file__).resolve().parents[1]
LESSONS = REPO / "lessons"
WELCOME = "00-welcome.ipynb"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    with serve("lessons", tmp_path_factory.mktemp("voila") / "voila.log") as running:
        yield running


@pytest.fixture(scope="session")
def welcome(server: VoilaServer) -> str:
    status, page = server.get(f"/voila/render/{WELCOME}")
    assert status == 200, page[-2000:]
    return page


_OUTPUT = re.compile(r'<script type="application/vnd\.voila\.cell-output\+json">(.*?)</script>', re.S)


def _outputs_text(page: str) -> str:
    """The cell outputs of a Voila page. The lab template embeds each output as JSON in a
    script tag (drawn by the browser), so HTML outputs are not plain text in the page."""
    texts = []
    for block in _OUTPUT.findall(page):
        output = json.loads(block)
        data = output.get("data", {})
        texts += [data.get("text/html", ""), data.get("text/plain", ""), output.get("text", "")]
        texts += output.get("traceback", [])
    return "\n".join(t if isinstance(t, str) else "".join(t) for t in texts)


def _source_lines() -> list[str]:
    """Distinctive lines of the welcome notebook's code cells."""
    notebook = json.loads((LESSONS / WELCOME).read_text("utf-8"))
    lines = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            lines += [line.strip() for line in source.splitlines() if len(line.strip()) >= 20]
    return lines


def test_welcome_page_shows_outputs(welcome: str) -> None:
    # Voila streams the page while the kernel executes, so a full read holds every output;
    # an example drawn once by the server (tutor/teach/prerender.py) is HTML in the page itself.
    assert "启东招朋友" in welcome  # markdown cells are plain HTML
    outputs = _outputs_text(welcome) + welcome
    assert "<b>108</b> cards, <b>200</b> points" in outputs  # computed by the rules module
    assert "illegal (W3)" in outputs and ">legal<" in outputs  # check_follow verdicts


def test_welcome_page_hides_sources(welcome: str) -> None:
    lines = _source_lines()
    assert lines, "the welcome notebook should have code cells"
    # Shown sources are syntax-highlighted (a <span> per token): compare with the text only.
    text = html.unescape(re.sub(r"<[^>]+>", "", welcome)) + _outputs_text(welcome)
    shown = [line for line in lines if line in text]
    assert not shown, f"cell sources leaked into the page: {shown[:3]}"


def test_welcome_page_has_no_errors(welcome: str) -> None:
    assert "Traceback" not in welcome
    assert "Traceback" not in _outputs_text(welcome)
    # What Voila shows instead of a traceback when a cell fails (show_tracebacks false).
    assert "There was an error when executing cell" not in welcome


def test_config_took_effect(welcome: str, server: VoilaServer) -> None:
    # The culler starts with the first kernel, using MappingKernelManager from tutor.server.
    log = server.log_text()
    assert "Culling kernels with idle durations > 300 seconds at 60 second intervals" in log, log


def test_the_log_holds_what_a_teacher_can_act_on(welcome: str, server: VoilaServer) -> None:
    """After a page and its kernel: no "Notebook … is not trusted" (lessons are run, never
    shown from the file) and no "Kernel is running over TCP without encryption" (kernels
    listen on 127.0.0.1 beside the server); the log still says what happened."""
    log = server.log_text()
    assert "is not trusted" not in log and "without encryption" not in log, log[-3000:]
    assert "Culling kernels" in log


def test_xsrf_protection_kept_and_unload_shutdown_works(server: VoilaServer) -> None:
    # XSRF stays on: deleting a kernel through the REST API without the token is refused.
    # Only the page's own unload beacon (which cannot carry the token) may shut down the
    # kernel it names (tutor.server.fixes, Voila issue #1458).
    status, page = server.get(f"/voila/render/{WELCOME}")
    found = re.search(r'"kernelId": "([0-9a-f-]+)"', page)
    assert status == 200 and found, "the page should name its kernel"
    kernel = found.group(1)
    delete = urllib.request.Request(f"{server.base}/api/kernels/{kernel}", method="DELETE")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(delete, timeout=PAGE_TIMEOUT)
    assert refused.value.code == 403
    beacon = urllib.request.Request(f"{server.base}/voila/api/shutdown/{kernel}", data=b"", method="POST")
    with urllib.request.urlopen(beacon, timeout=PAGE_TIMEOUT) as reply:
        assert reply.status == 204
    assert f"Kernel shutdown: {kernel}" in server.log_text()


def test_no_external_stylesheets_or_scripts(welcome: str) -> None:
    assert not re.search(r'<link[^>]+href="https?://', welcome)
    assert not re.search(r'<script[^>]+src="https?://', welcome)


def test_page_loads_only_the_course_lab_extensions(welcome: str) -> None:
    # Voila would load every lab extension installed beside it, including the static site's
    # JupyterLite-only @jupyterlite/pyodide-kernel-extension, which fails on a served page
    # ("Shared module @jupyterlite/server doesn't exist in shared scope default").
    found = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', welcome, re.S)
    assert found, "the page has no page config"
    names = {extension["name"] for extension in json.loads(found.group(1))["federated_extensions"]}
    assert names == set(LAB_EXTENSIONS), names


def test_home_is_the_course(server: VoilaServer) -> None:
    # The server's root redirects to the course's landing page (tutor.server.fixes), keeping the query.
    status, page = server.get("/?seed=3")
    assert status == 200
    assert "learn Qidong" in page
    # Voila's contents API still lists the lessons.
    status, listing = server.get("/voila/api/contents")
    assert status == 200
    names = [item["name"] for item in json.loads(listing)["content"]]
    assert WELCOME in names and "index.ipynb" in names


def _fetch(server: VoilaServer, path: str, headers: dict[str, str]) -> tuple[str, str]:
    """The page and the ``Set-Cookie`` header it came with."""
    _, page, cookies = open_page(server.base + path, headers)
    return page, ", ".join(cookies)


@pytest.mark.parametrize(("query", "headers", "language", "remembered"), [
    ("?lang=zh-Hant", {}, "zh-Hant", True),  # a teacher's link: served in it, and remembered
    ("", {"Cookie": "qd-lang=zh-Hans"}, "zh-Hans", False),  # remembered from before
    ("", {"Accept-Language": "zh-TW,zh;q=0.9"}, "zh-Hant", False),  # the browser's own language
    ("?lang=zh-Hans", {"Cookie": "qd-lang=zh-Hant", "Accept-Language": "en"}, "zh-Hans", True),  # the link wins
    ("?lang=%22%3E%3Cscript%3E", {"Cookie": "qd-lang=\\u0022x", "Accept-Language": "';x"}, "en", False),
])
def test_the_page_is_served_in_its_language(server: VoilaServer, query: str, headers: dict[str, str],
                                            language: str, remembered: bool) -> None:
    page, cookie = _fetch(server, f"/voila/render/01-cards.ipynb{query}", headers)
    assert re.search(rf'<html lang="{language}"', page), page[:300]
    assert ("qd-lang=" + language in cookie) is remembered, cookie
    switch = re.search(r'<nav class="qd-languages".*?</nav>', page)
    assert switch and f'aria-current="page" lang="{language}"' in switch.group()
    assert f"set_language({language!r})" not in _outputs_text(page)  # the language cell shows nothing
    assert "<script>" not in page.split("qd-languages", 1)[1].split("</nav>", 1)[0]
    intro = _first_paragraph("01-cards.ipynb")
    assert (html.escape(intro, quote=False) in page) is (language == "en")  # the lesson's text is in the language


def _first_paragraph(notebook: str) -> str:
    """The start of the first paragraph under a lesson's title, in English."""
    cells = json.loads((LESSONS / notebook).read_text("utf-8"))["cells"]
    text = "".join(next(c for c in cells if c["cell_type"] == "markdown")["source"])
    return text.split("\n\n")[1].split("\n")[0][:40]
