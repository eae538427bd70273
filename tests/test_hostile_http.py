"""Requests an attacker (or a careless link) sends to the served course.

Every one must get a proper status — a 4xx, a redirect, or the page itself — never a 500,
never a connection left hanging, never a file from outside what Voila serves, and the
server's log must gain no Python traceback for any of them. A lesson still renders after
all of them.

Starts ``voila lessons`` from the repository root (with ``deploy/voila.py``, the configuration
under test) once for the module. Requests go out with ``http.client`` or a bare socket,
so their paths reach the server exactly as written (no client-side normalisation of
``..``, ``%2e`` or invalid UTF-8). Every request has a time limit; a page is read to its
end, and the kernel it started is shut down with the page's own unload beacon.
Standard library + pytest only.
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from voila_serve import VoilaServer, serve, ticket_of, with_ticket

WELCOME = "/voila/render/00-welcome.ipynb"
CARDS = "/voila/render/01-cards.ipynb"
ZERO_KERNEL = "00000000-0000-0000-0000-000000000000"
TIMEOUT = 20.0  # seconds for one request, page included (a lesson renders in ~1-3 s)
# What must never come back: /etc/passwd, or the server's own configuration.
LEAKS = (b"root:x:0:0", b"root:*:0:0", b"get_config()")

PAGE = {200}
NOT_FOUND = {404}
REFUSED = {403, 404}  # out of bounds: forbidden or simply not there
REDIRECT_OR_REFUSED = {302, 403, 404}  # Voila sends non-notebooks to /voila/files/, which refuses them
BAD = {400}
NOT_ALLOWED = {405}
XSRF = {403}


@dataclass(frozen=True)
class Case:
    name: str
    method: str
    path: str
    expected: set[int]
    headers: dict[str, str] = field(default_factory=dict)


CASES = [
    # Accounts: the course has none.
    Case("logout", "GET", "/logout", NOT_FOUND),
    Case("logout-head", "HEAD", "/logout", NOT_ALLOWED),
    Case("login", "GET", "/login", NOT_FOUND),
    Case("login-post", "POST", "/login", REFUSED),
    # Voila's template assets, and ways out of them.
    Case("templates", "GET", "/voila/templates/", NOT_FOUND),
    Case("templates-head", "HEAD", "/voila/templates/", NOT_FOUND),
    Case("templates-lab", "GET", "/voila/templates/lab", NOT_FOUND),
    Case("templates-lab-slash", "GET", "/voila/templates/lab/", NOT_FOUND),
    Case("templates-static-dir", "GET", "/voila/templates/lab/static/", NOT_FOUND),
    Case("templates-not-static", "GET", "/voila/templates/lab/x/y", NOT_FOUND),
    Case("templates-dot", "GET", "/voila/templates/./static/x", NOT_FOUND),
    Case("templates-dotdot", "GET", "/voila/templates/../../etc/passwd", REFUSED),
    Case("templates-dotdot-encoded", "GET", "/voila/templates/%2e%2e/%2e%2e/etc/passwd", REFUSED),
    Case("templates-static-dotdot", "GET", "/voila/templates/lab/static/../../../../etc/passwd", REFUSED),
    Case("templates-static-dotdot-encoded", "GET",
         "/voila/templates/lab/static/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", REFUSED),
    Case("templates-static-slash-encoded", "GET",
         "/voila/templates/lab/static/..%2f..%2f..%2f..%2fetc%2fpasswd", REFUSED),
    Case("templates-nul", "GET", "/voila/templates/lab/static/%00", NOT_FOUND),
    Case("templates-unknown", "GET", "/voila/templates/nonexistent/static/x.js", NOT_FOUND),
    Case("templates-long", "GET", "/voila/templates/lab/static/" + "a" * 10_000, NOT_FOUND),
    Case("templates-post", "POST", "/voila/templates/lab/static/voila.js", NOT_ALLOWED),
    # Voila's static files, served files, themes and extensions.
    Case("static-dotdot-encoded", "GET", "/voila/static/..%2f..%2fdeploy%2fvoila.py", REFUSED),
    Case("static-dotdot", "GET", "/voila/static/../../deploy/voila.py", REFUSED),
    Case("static-nul", "GET", "/voila/static/%00", REFUSED),
    Case("static-bad-utf8", "GET", "/voila/static/%ff", BAD),
    Case("files-dotdot", "GET", "/voila/files/../deploy/voila.py", REFUSED),
    Case("files-dotdot-twice", "GET", "/voila/files/../../deploy/voila.py", REFUSED),
    Case("files-notebook", "GET", "/voila/files/00-welcome.ipynb", REFUSED),
    Case("files-nul-image", "GET", "/voila/files/%00.png", REFUSED),
    Case("files-dotdot-image", "GET", "/voila/files/../../../etc/x.png", REFUSED),
    Case("files-long-image", "GET", "/voila/files/" + "a" * 10_000 + ".png", REFUSED),
    Case("themes", "GET", "/voila/api/themes/", NOT_FOUND),
    Case("themes-dotdot", "GET", "/voila/api/themes/%2e%2e/%2e%2e/x", REFUSED),
    Case("themes-nul", "GET", "/voila/api/themes/%00", NOT_FOUND),
    Case("themes-bad-utf8", "GET", "/voila/api/themes/%ff", BAD),
    Case("labextensions-dotdot", "GET", "/voila/labextensions/../../x", REFUSED),
    Case("labextensions-bad-utf8", "GET", "/voila/labextensions/%ff", BAD),
    # Pages that are not lessons.
    Case("render-dotdot", "GET", "/voila/render/../../deploy/voila.py", REDIRECT_OR_REFUSED),
    Case("render-dotdot-encoded", "GET", "/voila/render/%2e%2e/%2e%2e/deploy/voila.py", REDIRECT_OR_REFUSED),
    Case("render-nul", "GET", "/voila/render/%00.ipynb", NOT_FOUND),
    Case("render-missing", "GET", "/voila/render/nonexistent.ipynb", NOT_FOUND),
    Case("render-below-lesson", "GET", "/voila/render/05-following.ipynb/../../x", REDIRECT_OR_REFUSED),
    Case("render-overlong-utf8", "GET", "/voila/render/%c0%af.ipynb", BAD),
    Case("render-bad-utf8", "GET", "/voila/render/%ff.ipynb", BAD),
    Case("render-bad-percent", "GET", "/voila/render/%zz.ipynb", NOT_FOUND),
    Case("render-long", "GET", "/voila/render/" + "a" * 10_000 + ".ipynb", NOT_FOUND),
    Case("root-bad-utf8", "GET", "/%ff%fe", NOT_FOUND),
    Case("root-long", "GET", "/" + "a" * 10_000, NOT_FOUND),
    Case("tree-dotdot", "GET", "/voila/tree/../..", REFUSED),
    Case("tree-dotdot-encoded", "GET", "/voila/tree/%2e%2e/%2e%2e", REFUSED),
    Case("tree-bad-utf8", "GET", "/voila/tree/%ff", BAD),
    Case("contents-dotdot", "GET", "/voila/api/contents/../../etc", REFUSED),
    Case("contents-dotdot-encoded", "GET", "/voila/api/contents/%2e%2e/%2e%2e/etc", REFUSED),
    Case("contents-long", "GET", "/voila/api/contents/" + "a" * 10_000, NOT_FOUND),
    Case("contents-bad-utf8", "GET", "/voila/api/contents/%ff", BAD),
    Case("jupyter-contents-dotdot", "GET", "/api/contents/../../etc", REFUSED),
    # Query arguments: a page with a note, or a 400, never a 500 or a page that never ends.
    Case("seed-5000-digits", "GET", WELCOME + "?seed=" + "9" * 5000, PAGE),
    Case("seed-superscript-encoded", "GET", WELCOME + "?seed=%C2%B2", PAGE),
    Case("bad-utf8-arguments", "GET", WELCOME + "?seed=%ff&lang=%ff&level=%00", PAGE),
    Case("template-unknown", "GET", WELCOME + "?template=nonexistent", PAGE),
    Case("template-path", "GET", WELCOME + "?template=../../etc", PAGE),
    Case("template-bad-utf8", "GET", WELCOME + "?template=%ff", BAD),
    Case("theme-bad-utf8", "GET", WELCOME + "?theme=%ff", BAD),
    # Methods a page does not take.
    Case("page-post", "POST", WELCOME, XSRF),
    Case("page-put", "PUT", WELCOME, XSRF),
    Case("page-delete", "DELETE", WELCOME, XSRF),
    Case("page-patch", "PATCH", WELCOME, XSRF),
    Case("page-options", "OPTIONS", WELCOME, NOT_ALLOWED),
    Case("page-head", "HEAD", WELCOME, {200, 405}),
    Case("home-head", "HEAD", "/", {200, 302, 405}),
    Case("home-post", "POST", "/", XSRF),
    Case("home-unknown-method", "FOO", "/", NOT_ALLOWED),
    Case("tree-post", "POST", "/voila/tree", XSRF),
    # Kernels: XSRF stays on; unknown ids are not found.
    Case("kernels-post", "POST", "/api/kernels", REFUSED),
    Case("kernel-bogus", "GET", "/api/kernels/bogus", NOT_FOUND),
    Case("kernel-unknown", "GET", f"/api/kernels/{ZERO_KERNEL}", NOT_FOUND),
    Case("kernel-delete-without-xsrf", "DELETE", f"/api/kernels/{ZERO_KERNEL}", XSRF),
    Case("kernel-channels-unknown", "GET", f"/api/kernels/{ZERO_KERNEL}/channels", NOT_FOUND),
    Case("kernel-websocket-unknown", "GET", f"/api/kernels/{ZERO_KERNEL}/channels", NOT_FOUND, {
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}),
    Case("shutdown-bogus", "POST", "/voila/api/shutdown/bogus", NOT_FOUND),
    Case("shutdown-unknown", "POST", f"/voila/api/shutdown/{ZERO_KERNEL}", NOT_FOUND),
    Case("shutdown-get", "GET", "/voila/api/shutdown/bogus", NOT_ALLOWED),
    Case("shutdown-bad-length", "POST", "/voila/api/shutdown/bogus", BAD, {"Content-Length": "abc"}),
    # Headers.
    Case("accept-language-huge", "GET", CARDS, PAGE, {"Accept-Language": "zh-" + "x" * 8000}),
    Case("accept-language-malformed", "GET", CARDS, PAGE, {"Accept-Language": ";;;q=abc,,,=,*;q=9e999,zh;q=nan"}),
    Case("language-cookie-garbage", "GET", CARDS, PAGE, {"Cookie": 'qd-lang="><script>; qd-lang=%ff'}),
    Case("language-cookie-long", "GET", CARDS, PAGE, {"Cookie": "qd-lang=" + "z" * 4000}),
    Case("language-cookie-control", "GET", CARDS, {200, 400}, {"Cookie": "qd-lang=\x7f\x01garbage;;=="}),
    Case("xsrf-cookie-garbage", "GET", CARDS, PAGE, {"Cookie": "_xsrf=" + "x" * 4000}),
    Case("missing-page-odd-language", "GET", "/voila/render/nonexistent.ipynb", NOT_FOUND,
         {"Accept-Language": "zh-Hans-CN;q=0.5,en;q=1e400"}),
    Case("host-evil", "GET", "/?seed=1", {302}, {"Host": "evil.example"}),
]

# Sent on a bare socket: bytes http.client will not put in a request line or header.
RAW_CASES: dict[str, tuple[bytes, set[int | None]]] = {
    "seed-superscript-raw": (b"GET " + WELCOME.encode() + b"?seed=\xc2\xb2 HTTP/1.1\r\n", {200}),
    "seed-bad-utf8-raw": (b"GET " + WELCOME.encode() + b"?seed=\xff HTTP/1.1\r\n", {200}),
    "render-utf8-name-raw": (b"GET /voila/render/\xc2\xb2.ipynb HTTP/1.1\r\n", {404}),
    "render-bad-utf8-raw": (b"GET /voila/render/\xff.ipynb HTTP/1.1\r\n", {400, 404}),
    "tree-bad-utf8-raw": (b"GET /voila/tree/\xff HTTP/1.1\r\n", {400, 404}),
    "cookie-bad-utf8-raw": (b"GET " + CARDS.encode() + b" HTTP/1.1\r\nCookie: qd-lang=\xff\xfe\r\n", {200, 400}),
    "chinese-headers-raw": (b"GET " + CARDS.encode() + b" HTTP/1.1\r\nCookie: qd-lang=\xe4\xb8\xad\r\n"
                            b"Accept-Language: \xe4\xb8\xad\xe6\x96\x87\r\n", {200, 400}),
    "absolute-uri": (b"GET http://evil.example/ HTTP/1.1\r\n", {302, 400, 404}),
    "options-star": (b"OPTIONS * HTTP/1.1\r\n", {400, 404, 405}),
    "http-9": (b"GET / HTTP/9.9\r\n", {400, 505}),
    "garbage-request-line": (b"GARBAGE\r\n", {400}),
    "header-without-colon": (b"GET / HTTP/1.1\r\nBadHeaderNoColon\r\n", {400}),
    "negative-length": (b"GET / HTTP/1.1\r\nContent-Length: -1\r\n", {400}),
    # Tornado closes the connection on a head over 64 KB (None: no reply).
    "header-70kb": (b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 70_000 + b"\r\n", {None, 400, 431}),
}

_KERNEL = re.compile(rb'"kernelId": "([0-9a-f-]{36})"')
# Voila's lab template embeds each cell output as JSON in a script tag.
_OUTPUT = re.compile(r'<script type="application/vnd\.voila\.cell-output\+json">(.*?)</script>', re.S)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    with serve("lessons", tmp_path_factory.mktemp("hostile") / "voila.log") as running:
        yield running


def _port(server: VoilaServer) -> int:
    return int(urlsplit(server.base).port or 80)


def _read_to_end(response: http.client.HTTPResponse, deadline: float) -> bytes:
    """The whole body, or a failure if it is still coming at ``deadline`` (Voila keeps a
    page that never finishes alive with heartbeats, so a read timeout alone misses it)."""
    body = b""
    while chunk := response.read1(65536):
        body += chunk
        if time.monotonic() > deadline:
            pytest.fail(f"the response was still coming after {TIMEOUT:.0f} s ({len(body)} bytes)")
    return body


def _send(server: VoilaServer, case: Case) -> tuple[int, http.client.HTTPMessage, bytes]:
    """The response to ``case``; where it is the server's opening page, the response to the
    same request again with the opening page's ticket, as its script would send it."""
    status, headers, body = _send_once(server, case.method, case.path, case.headers)
    ticket = ticket_of(body) if status == 200 else None
    if ticket is not None:
        status, headers, body = _send_once(server, case.method, case.path, with_ticket(case.headers, ticket))
    return status, headers, body


def _send_once(server: VoilaServer, method: str, path: str,
               headers: dict[str, str]) -> tuple[int, http.client.HTTPMessage, bytes]:
    deadline = time.monotonic() + TIMEOUT
    connection = http.client.HTTPConnection("127.0.0.1", _port(server), timeout=TIMEOUT)
    try:
        connection.putrequest(method, path, skip_host="Host" in headers, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value.encode("latin-1"))
        connection.endheaders()
        response = connection.getresponse()
        body = b"" if method == "HEAD" else _read_to_end(response, deadline)
        return response.status, response.headers, body
    finally:
        connection.close()


def _send_raw(server: VoilaServer, head: bytes) -> tuple[int | None, bytes]:
    """Status (None if the server closed without a reply) and body of a request whose
    first lines are ``head``."""
    request = head + b"Host: 127.0.0.1\r\nConnection: close\r\n\r\n"
    deadline = time.monotonic() + TIMEOUT
    with socket.create_connection(("127.0.0.1", _port(server)), timeout=TIMEOUT) as sock:
        try:
            sock.sendall(request)
        except OSError:  # closed while we were still sending an oversized head
            return None, b""
        reply = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            reply += chunk
            if time.monotonic() > deadline:
                pytest.fail(f"the response was still coming after {TIMEOUT:.0f} s ({len(reply)} bytes)")
    if not reply:
        return None, b""
    found = re.match(rb"HTTP/1\.[01] (\d{3}) ", reply)
    assert found, reply[:200]
    head, _, body = reply.partition(b"\r\n\r\n")
    if re.search(rb"(?im)^transfer-encoding: *chunked", head):
        body = _unchunk(body)
    return int(found.group(1)), body


def _unchunk(data: bytes) -> bytes:
    body = b""
    while data:
        size, _, data = data.partition(b"\r\n")
        length = int(size.split(b";")[0], 16)
        if length == 0:
            break
        body, data = body + data[:length], data[length + 2:]
    return body


def _close_page(server: VoilaServer, body: bytes) -> None:
    """Shut down the kernel a rendered page started, as the page does when it unloads."""
    found = _KERNEL.search(body)
    if found:
        connection = http.client.HTTPConnection("127.0.0.1", _port(server), timeout=TIMEOUT)
        try:
            connection.request("POST", f"/voila/api/shutdown/{found.group(1).decode()}", body=b"")
            connection.getresponse().read()
        finally:
            connection.close()


def _outputs_text(page: str) -> str:
    texts = []
    for block in _OUTPUT.findall(page):
        output = json.loads(block)
        data = output.get("data", {})
        for text in (data.get("text/html", ""), data.get("text/plain", ""), output.get("text", "")):
            texts.append(text if isinstance(text, str) else "".join(text))
    return "\n".join(texts)


def _tracebacks(server: VoilaServer) -> int:
    return server.log_text().count("Traceback")


def _check_body(status: int | None, body: bytes) -> None:
    assert not any(leak in body for leak in LEAKS), body[:500]
    if status == 200 and body:  # a page is whole: it did not stop half-way or hang
        assert body.rstrip().endswith(b"</html>"), body[-300:]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_hostile_request(server: VoilaServer, case: Case) -> None:
    before = _tracebacks(server)
    status, headers, body = _send(server, case)
    _close_page(server, body)
    assert status < 500 and status in case.expected, (status, body[:500])
    _check_body(status, body)
    if 300 <= status < 400:  # a redirect stays on this server
        location = headers.get("Location", "")
        assert location.startswith("/") and not location.startswith("//"), location
    assert _tracebacks(server) == before, server.log_text()[-5000:]


@pytest.mark.parametrize("name", list(RAW_CASES))
def test_hostile_raw_request(server: VoilaServer, name: str) -> None:
    head, expected = RAW_CASES[name]
    before = _tracebacks(server)
    status, body = _send_raw(server, head)
    _close_page(server, body)
    assert (status is None or status < 500) and status in expected, (status, body[:500])
    _check_body(status, body)
    assert _tracebacks(server) == before, server.log_text()[-5000:]


def test_log_has_no_traceback(server: VoilaServer) -> None:
    # After every request above (this module's tests run in order): not one traceback.
    log = server.log_text()
    assert "Traceback" not in log, log[-5000:]
    assert "Uncaught exception" not in log, log[-5000:]


def test_a_lesson_still_renders(server: VoilaServer) -> None:
    status, _, body = _send(server, Case("welcome", "GET", WELCOME, PAGE))
    _close_page(server, body)
    assert status == 200
    page = body.decode("utf-8")  # computed by its kernel, or drawn once by the server (tutor/teach/prerender.py)
    assert "<b>108</b> cards, <b>200</b> points" in _outputs_text(page) + page
    assert body.rstrip().endswith(b"</html>")
