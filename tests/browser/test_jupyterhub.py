"""The course on JupyterHub, as ``deploy/`` configures it, in a real browser.

A real hub (``deploy/jupyterhub_config.py``: shared-password login, the simple local
spawner, configurable-http-proxy, the idle culler) is started on free ports of 127.0.0.1
with all its state in a temporary folder. Two learners and a teacher log in through the
proxy's login form at the same time, each in their own browser profile, and:

* land on the course's home page, rendered by Voila in their own server
  (``/user/<name>/voila/render/index.ipynb``, the spawner's default URL), whose links to
  the lessons work under the ``/user/<name>/`` prefix;
* open ``05-following`` seeded, directly or through ``/hub/user-redirect/`` (the link a
  teacher shares with the whole class), and answer each drill wrong, then right, with the
  feedback the rules module gives for that answer (``tutor.teach.drills.generate``, as
  ``test_lessons.py`` does, whose helpers are reused);
* have their kernel in their own single-user server (a child of the server that runs as
  that learner, listed by that server only), and cannot open another learner's server;
* a learner cannot run code: no JupyterLab, no terminals, no writing to the lessons, no
  ``execute_request`` over the kernel websocket, the page's kernel or one started through
  the REST API (``deploy/jupyter_server_config.py``);
  the teacher's server has JupyterLab;
* play at the tables of classmates, the hub's service ``tables`` (``/services/tables/``, lesson
  10's link): the hub's login on its pages and websocket (nobody logged in is sent to the login,
  and their websocket refused), two learners at one table, each seated under their hub name
  with their own hand, the teacher's page refused to a learner and shown to the teacher.

A closed page's kernel is shut down; logging out stops the learner's server; stopping the
hub while two lesson pages are still open stops everything it started (proxy, culler,
tables service, servers, kernel zygotes, kernels), and nothing of the hub is written into the
repository.
The figures (times, memory per learner) are printed at the end (``pytest -s``).

Needs ``pip install -e '.[hub]'`` (jupyterhub, jupyterhub-idle-culler) and Node.js ≥ 20
with npm: configurable-http-proxy is installed on first use into ``.cache/hub``
(gitignored). Without them the test skips, except in CI (``CI=true``), where it fails.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil  # installed with ipykernel
import pytest
from test_lessons import (  # the lesson pages' own helpers: one way to open, check and answer a lesson
    _SEND_FROM_PAGE,
    KNOWN,
    _answer_wrong_then_right,
    _assert_clean,
    _close,
    _open,
    _plan,
    _seed_for,
)
from voila_serve import REPO, free_port, unavailable

from tutor.teach.course import LESSONS

DEPLOY = REPO / "deploy"
LESSON_DIR = REPO / "lessons"
PROXY_VERSION = "5.2.0"  # configurable-http-proxy: the newest whose dependencies all support Node 20
PROXY_DIR = REPO / ".cache" / "hub"
PROXY = PROXY_DIR / "node_modules" / ".bin" / "configurable-http-proxy"
USERS = ("ana", "ben", "chen")  # two learners and a teacher (the last: JupyterLab too)
SLUG = "05-following"
START_TIMEOUT = 60.0
STOP_TIMEOUT = 60.0
PAGE_TIMEOUT = 90_000
HUB_FILES = ("jupyterhub.sqlite", "jupyterhub_cookie_secret", "jupyterhub-proxy.pid")


# ---------------------------------------------------------------- what the hub needs

def _need_jupyterhub() -> None:
    for module, package in (("jupyterhub", "jupyterhub"), ("jupyterhub_idle_culler", "jupyterhub-idle-culler")):
        if importlib.util.find_spec(module) is None:
            unavailable(f"{package} is not installed (pip install -e '.[hub]')")


def _need_proxy() -> Path:
    """configurable-http-proxy, installed into .cache/hub by npm if it is not there."""
    if PROXY.exists():
        return PROXY
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        unavailable("Node.js and npm are needed for configurable-http-proxy (apt-get install nodejs npm)")
    assert node is not None and npm is not None
    version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    found = re.match(r"v(\d+)", version)
    if not found or int(found.group(1)) < 20:
        unavailable(f"configurable-http-proxy {PROXY_VERSION} needs Node.js 20 or newer, not {version or 'unknown'}")
    PROXY_DIR.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([npm, "install", "--prefix", str(PROXY_DIR), "--no-save", "--no-audit", "--no-fund",
                           "--loglevel=error", f"configurable-http-proxy@{PROXY_VERSION}"],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0 or not PROXY.exists():
        pytest.fail(f"npm could not install configurable-http-proxy@{PROXY_VERSION}:\n{done.stdout}\n{done.stderr}")
    return PROXY


# ---------------------------------------------------------------- the hub

@dataclass
class Hub:
    base: str  # the proxy: everything a learner opens goes through it
    state: Path
    log: Path
    process: subprocess.Popen[bytes]
    hub_port: int
    proxy_port: int
    api_port: int
    password: str
    seen: dict[int, Any] = field(default_factory=dict)  # every process of the hub seen so far (psutil)
    leftovers: list[str] = field(default_factory=list)  # what still ran after the hub stopped

    def log_text(self) -> str:
        return self.log.read_text("utf-8", "replace")

    def home(self, user: str) -> Path:
        return self.state / "homes" / user

    def processes(self) -> list[Any]:
        """The hub's processes now (and everything they started), remembered for the end."""
        found = {}
        with contextlib.suppress(psutil.NoSuchProcess):
            hub = psutil.Process(self.process.pid)
            found[hub.pid] = hub
            for child in hub.children(recursive=True):
                found[child.pid] = child
        for proc in psutil.process_iter():  # a process whose parent died is re-parented: find it by its marks
            if proc.pid not in found and self._is_ours(proc):
                found[proc.pid] = proc
        for pid, proc in found.items():
            self.seen.setdefault(pid, proc)
        return list(found.values())

    def _is_ours(self, proc: Any) -> bool:
        try:
            if proc.pid == os.getpid():
                return False
            command = " ".join(proc.cmdline())
            if str(self.state) in command or f"--port {self.proxy_port}" in command:
                return True
            if proc.cwd().startswith(str(self.state)):
                return True
            return f":{self.hub_port}/" in proc.environ().get("JUPYTERHUB_API_URL", "")
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess, ProcessLookupError):
            return False

    def alive(self) -> list[str]:
        """What is still running of everything the hub ever started."""
        procs = [proc for proc in self.seen.values() if proc.is_running()]  # is_running: not a reused pid
        procs += [p for p in psutil.process_iter() if p.pid not in self.seen and self._is_ours(p)]
        left = []
        for proc in procs:
            with contextlib.suppress(psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
                if proc.status() != psutil.STATUS_ZOMBIE:
                    left.append(f"pid {proc.pid} (parent {proc.ppid()}, {proc.num_threads()} threads, user "
                                f"{proc.environ().get('JUPYTERHUB_USER')}, in {proc.cwd()}): "
                                f"{' '.join(proc.cmdline())[:160]}")
        return left

    def server(self, user: str) -> Any:
        """The user's single-user server process."""
        for proc in self.processes():
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                if "jupyterhub.singleuser" in " ".join(proc.cmdline()) and proc.environ().get("JUPYTERHUB_USER") == user:
                    return proc
        return None


def _get(url: str, timeout: float = 5) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


@contextlib.contextmanager
def running_hub(state: Path) -> Iterator[Hub]:
    """The hub of deploy/jupyterhub_config.py, its state in ``state``, stopped at the end
    (SIGTERM: the hub stops its servers, the culler and the proxy) whatever happens."""
    proxy = _need_proxy()
    state.mkdir(parents=True, exist_ok=True)
    hub_port, proxy_port, api_port = free_port(), free_port(), free_port()
    password = secrets.token_urlsafe(12)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("JUPYTERHUB_", "CONFIGPROXY_", "QD_"))}
    env.update(QD_HUB_STATE=str(state), QD_HUB_USERS=",".join(USERS[:-1]), QD_HUB_TEACHERS=USERS[-1],
               QD_HUB_PASSWORD=password, QD_HUB_PROXY=str(proxy),
               QD_HUB_TABLES_PORT=str(free_port()), QD_TABLE_PACE="0")  # the tables service: no pauses
    command = [sys.executable, "-m", "jupyterhub", "-f", str(DEPLOY / "jupyterhub_config.py"),
               f"--JupyterHub.bind_url=http://127.0.0.1:{proxy_port}",
               f"--JupyterHub.hub_bind_url=http://127.0.0.1:{hub_port}",
               f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{api_port}"]
    log = state / "hub.log"
    with log.open("wb") as sink:  # the hub's, the proxy's, the culler's and every server's log
        process = subprocess.Popen(command, cwd=state, env=env, stdout=sink, stderr=subprocess.STDOUT)
    hub = Hub(f"http://127.0.0.1:{proxy_port}", state, log, process, hub_port, proxy_port, api_port, password)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(f"jupyterhub exited with {process.returncode}:\n{hub.log_text()}")
            if "JupyterHub is now running at" in hub.log_text():
                with contextlib.suppress(OSError):
                    if _get(hub.base + "/hub/api/") == 200:
                        break
            if time.monotonic() > deadline:
                pytest.fail(f"jupyterhub did not answer within {START_TIMEOUT:.0f} s:\n{hub.log_text()}")
            time.sleep(0.2)
        hub.processes()
        yield hub
    finally:
        hub.processes()  # everything there is now, to check it stops
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        deadline = time.monotonic() + 15
        while hub.alive() and time.monotonic() < deadline:
            time.sleep(0.2)
        hub.leftovers = hub.alive()
        for proc in hub.seen.values():  # never leave one behind, whatever the test says about it
            with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                proc.kill()  # psutil checks that the pid is still that process


@dataclass
class UserServer:
    """A learner's server seen through the proxy, shaped like ``voila_serve.VoilaServer``
    for ``test_lessons._open``."""

    hub: Hub
    name: str
    shared: bool = False  # open lessons by the link a teacher shares: /hub/user-redirect/

    @property
    def prefix(self) -> str:
        return f"{self.hub.base}/user/{self.name}"

    def url(self, notebook: str, query: str = "") -> str:
        root = f"{self.hub.base}/hub/user-redirect" if self.shared else self.prefix
        return f"{root}/voila/render/{notebook}" + (f"?{query}" if query else "")


# ---------------------------------------------------------------- the learner's side

def _new_context(browser: Any) -> Any:
    ctx = browser.new_context(viewport={"width": 1100, "height": 900}, locale="en-GB")
    ctx.set_default_timeout(30_000)
    return ctx


def _log_in(ctx: Any, hub: Hub, user: str) -> tuple[Any, list[str]]:
    """Fill and send the hub's login form; the hub then starts the learner's server."""
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
    page.goto(f"{hub.base}/hub/login", wait_until="load", timeout=PAGE_TIMEOUT)
    page.fill("#username_input", user)
    page.fill("#password_input", hub.password)
    page.click("#login_submit")
    return page, errors


def _kernels(ctx: Any, server: UserServer) -> list[str]:
    """The kernels of the learner's server, asked with the learner's own cookies."""
    response = ctx.request.get(f"{server.prefix}/api/kernels", max_redirects=0, timeout=30_000)
    assert response.status == 200, (response.status, response.text()[:300])
    return [kernel["id"] for kernel in response.json()]


def _kernel_process(hub: Hub, user: str, kernel_id: str) -> Any:
    """The process of the kernel: the one listening on the shell port of its connection
    file (a kernel may be started afresh or forked from the course's kernel zygote, whose
    command line it then keeps, so its command line does not tell)."""
    found = list(hub.home(user).rglob(f"kernel-{kernel_id}.json"))
    if not found:
        return None
    port = json.loads(found[0].read_text("utf-8"))["shell_port"]
    for conn in psutil.net_connections(kind="tcp"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port and conn.pid:
            return psutil.Process(conn.pid)
    return None


def _wait(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} within {timeout:.0f} s")
        time.sleep(0.2)


def _mb(proc: Any) -> int:
    return int(proc.memory_info().rss // 2**20)


def _pss(proc: Any) -> int:
    """The process's share of memory (shared pages divided among their users); 0 for a
    process of the tree that ended meanwhile (a kernel of a page just closed)."""
    try:
        return int(proc.memory_full_info().pss // 2**20)
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return 0


def _uss(proc: Any) -> int:
    """Memory the process alone holds (a forked kernel shares the rest with its zygote)."""
    return int(proc.memory_full_info().uss // 2**20)


# ---------------------------------------------------------------- the test

def test_a_class_on_the_hub(browser: Any, tmp_path: Path) -> None:
    _need_jupyterhub()
    started = time.monotonic()
    kinds = KNOWN[SLUG]
    seed = _seed_for(kinds, SLUG)
    plans = [_plan(kind, seed, SLUG) for kind in kinds]
    assert all(plans)
    lesson_before = (LESSON_DIR / f"{SLUG}.ipynb").read_bytes()
    contexts = [_new_context(browser) for _ in USERS]
    figures: dict[str, Any] = {}
    try:
        with running_hub(tmp_path / "hub") as hub:
            servers = [UserServer(hub, user, shared=(i == 1)) for i, user in enumerate(USERS)]

            # All three log in at once: the hub starts three servers side by side.
            logins = [_log_in(ctx, hub, user) for ctx, user in zip(contexts, USERS)]
            for (page, errors), server in zip(logins, servers):
                page.wait_for_url(f"{server.prefix}/voila/render/index.ipynb*", wait_until="commit",
                                  timeout=PAGE_TIMEOUT)
                page.wait_for_selector("[data-qd=course] li", timeout=PAGE_TIMEOUT)
                _assert_clean(page, errors, "index")
                listed = [li.get_attribute("data-lesson") for li in page.locator("[data-qd=course] li").all()]
                assert listed == [info.slug for info in LESSONS]
            figures["logged in, homes drawn"] = time.monotonic() - started

            # Lesson 10's tables of classmates: the hub's service, each learner under their hub name.
            _tables_of_classmates(browser, hub, contexts)
            figures["tables played"] = time.monotonic() - started

            # The home's links work under /user/<name>/.
            page, errors = logins[0]
            page.click(f'li[data-lesson="{SLUG}"] a')
            page.wait_for_url(f"{servers[0].prefix}/voila/render/{SLUG}.ipynb", wait_until="commit",
                              timeout=PAGE_TIMEOUT)
            page.wait_for_selector("[data-qd=drill] [data-qd=check]", timeout=PAGE_TIMEOUT)
            _assert_clean(page, errors, SLUG)
            for page, _ in logins:
                _close(page)  # unload: each page's beacon shuts its kernel down

            # Each opens the lesson seeded (ben by the shared link) and answers its drills.
            lessons = []
            for ctx, server in zip(contexts, servers):
                page, errors = _open(ctx, server, SLUG, f"seed={seed}", len(kinds))
                assert page.url == f"{server.prefix}/voila/render/{SLUG}.ipynb?seed={seed}"
                _assert_clean(page, errors, SLUG)
                _answer_wrong_then_right(page, [p for p in plans if p is not None])
                _assert_clean(page, errors, SLUG)
                lessons.append((page, errors))
            figures["lessons answered"] = time.monotonic() - started

            # Each learner's kernel runs in that learner's own server, and only there.
            kernels: dict[str, list[str]] = {}
            kernel_procs: dict[str, Any] = {}
            for ctx, server in zip(contexts, servers):
                _wait(lambda: len(_kernels(ctx, server)) == 1, 20,  # noqa: B023 - called at once
                      f"{server.name}'s server did not come down to the open page's one kernel")
                kernels[server.name] = _kernels(ctx, server)
            assert len({k for ids in kernels.values() for k in ids}) == len(USERS)
            for server in servers:
                own = hub.server(server.name)
                assert own is not None, f"no single-user server runs for {server.name}"
                assert Path(own.cwd()) == hub.home(server.name)
                kernel = _kernel_process(hub, server.name, kernels[server.name][0])
                assert kernel is not None, f"{server.name}'s kernel process is not found"
                kernel_procs[server.name] = kernel
                assert kernel.pid in {p.pid for p in own.children(recursive=True)}, \
                    f"{server.name}'s kernel is not a process of their server"
                for other in servers:
                    other_server = hub.server(other.name)
                    if other is not server and other_server is not None:
                        assert kernel.pid not in {p.pid for p in other_server.children(recursive=True)}
                assert kernel.environ().get("JUPYTERHUB_USER") == server.name
                assert Path(kernel.cwd()) == LESSON_DIR  # Voila starts it beside its notebook
                tree = [own, *own.children(recursive=True)]  # the server, the kernel zygote, the kernel
                others = [_mb(p) for p in own.children() if p.pid != kernel.pid]  # the zygote (if any)
                figures[f"{server.name} MB (server RSS, zygote RSS, kernel USS; all PSS)"] = (
                    _mb(own), others, _uss(kernel), sum(_pss(p) for p in tree))

            # Nobody opens another learner's server: the hub refuses ana's token for ben's.
            response = contexts[0].request.get(f"{servers[1].prefix}/voila/render/{SLUG}.ipynb", timeout=30_000)
            assert response.status == 403, (response.status, response.url)
            assert "data-qd" not in response.text()

            # A learner's server is Voila only: no code of the learner's own. The teacher's has
            # JupyterLab too.
            response = contexts[2].request.get(servers[2].prefix + "/lab", max_redirects=0, timeout=30_000)
            assert response.status == 200 and "JupyterLab" in response.text(), response.status
            ctx, server = contexts[1], servers[1]
            for path in ("/lab", "/tree", "/api/terminals", "/terminals/websocket/1"):
                response = ctx.request.get(server.prefix + path, max_redirects=0, timeout=30_000)
                assert response.status == 404, (path, response.status)
            xsrf = next(c["value"] for c in ctx.cookies() if c["name"] == "_xsrf" and c["path"] == f"/user/{server.name}/")
            for method, path, body in (("PUT", f"/api/contents/{SLUG}.ipynb", {"type": "file", "format": "text",
                                                                                "content": "{}"}),
                                        ("POST", "/api/contents", {"type": "notebook"}),
                                        ("DELETE", f"/api/contents/{SLUG}.ipynb", None),
                                        ("POST", f"/api/contents/{SLUG}.ipynb/checkpoints", None)):
                response = ctx.request.fetch(server.prefix + path, method=method, headers={"X-XSRFToken": xsrf},
                                             data=json.dumps(body) if body else None, timeout=30_000)
                assert response.status == 403 and "read-only" in response.text(), (method, path, response.status,
                                                                                   response.text()[:300])
            assert (LESSON_DIR / f"{SLUG}.ipynb").read_bytes() == lesson_before
            marker = tmp_path / "executed.txt"
            page, errors = lessons[1]
            sent = page.evaluate(_SEND_FROM_PAGE, [str(marker)])
            assert "kernel_info_reply" in sent["info"], sent
            assert sent["execute"] == [] and not marker.exists(), sent
            # Nor in a kernel of the learner's own, started through the REST API.
            response = ctx.request.post(f"{server.prefix}/api/kernels", headers={"X-XSRFToken": xsrf},
                                        data=json.dumps({"name": "python3"}), timeout=60_000)
            assert response.status == 201, (response.status, response.text()[:300])
            started_kernel = response.json()["id"]
            sent = page.evaluate(_SEND_FROM_PAGE.replace("config.kernelId", json.dumps(started_kernel)),
                                 [str(marker)])
            assert "kernel_info_reply" in sent["info"], sent
            assert sent["execute"] == [] and not marker.exists(), sent

            # A closed page's kernel is shut down (Voila's beacon, through the hub's auth).
            page, errors = lessons[0]
            assert not errors, errors
            _close(page)
            _wait(lambda: _kernels(contexts[0], servers[0]) == [], 20, "the closed page's kernel was not shut down")
            gone = kernel_procs[USERS[0]]
            _wait(lambda: not gone.is_running() or gone.status() == psutil.STATUS_ZOMBIE, 20,
                  "the closed page's kernel process did not end")

            # Logging out stops the learner's server (a shared classroom computer).
            ana = hub.server(USERS[0])
            assert ana is not None
            page = contexts[0].new_page()
            page.goto(f"{servers[0].prefix}/logout", wait_until="load", timeout=PAGE_TIMEOUT)
            assert "/hub/login" in page.url, page.url
            _wait(lambda: not ana.is_running() or ana.status() == psutil.STATUS_ZOMBIE, 30,
                  "logging out did not stop ana's server")

            # The culler runs, and nothing went wrong in any log so far.
            names = [" ".join(p.cmdline()) for p in hub.processes()]
            assert any("jupyterhub_idle_culler" in n for n in names), names
            text = hub.log_text()
            assert re.search(r"200 GET /hub/api/users\S* \(idle-culler@", text), "the culler did not list the users"
            assert "Traceback" not in text, text[-4000:]
            expected = (f"not allowed to access Server at /user/{USERS[1]}/",  # the hub's word for the 403 above
                        "received signal 15, stopping")  # ana's server, stopped at logout
            bad = [line for line in text.splitlines()
                   if re.match(r"\[[EC] ", line) and not any(e in line for e in expected)]
            assert not bad, bad
            assert all((hub.state / name).exists() for name in HUB_FILES)  # the hub's state is in its folder
            # ben and chen stay on their lesson pages: stopping the hub must stop their
            # servers and kernels too.
            figures["checks done"] = time.monotonic() - started
        figures["hub stopped"] = time.monotonic() - started
        assert hub.leftovers == [], f"left running after the hub stopped: {hub.leftovers}"
        for name in HUB_FILES:  # nothing of the hub in the repository
            assert not (REPO / name).exists() and not (DEPLOY / name).exists()
    finally:
        for ctx in contexts:
            ctx.close()
    print(" · ".join(f"{k}: {v:.1f} s" if isinstance(v, float) else f"{k}: {v}" for k, v in figures.items()))
    assert time.monotonic() - started < 300, figures  # a hang, not a speed goal (the figures are printed)


# ---------------------------------------------------------------- tables of classmates

TABLES = "/services/tables/"  # the hub's service (deploy/jupyterhub_config.py), lesson 10's link

_WEBSOCKET = """async ([url, messages]) => await new Promise((resolve) => {
  // A websocket of this page's own: what happens to it, and every message it gets.
  const seen = [];
  const ws = new WebSocket(url);
  const done = () => { try { ws.close(); } catch (e) {} resolve(seen); };
  ws.onopen = () => { seen.push("open"); for (const m of messages) ws.send(JSON.stringify(m)); };
  ws.onmessage = (event) => {
    seen.push(JSON.parse(event.data));
    if (seen.filter((m) => m.kind === "refused" || m.kind === "seated").length === messages.length) done();
  };
  ws.onclose = (event) => { seen.push(`close ${event.code}`); resolve(seen); };
  setTimeout(done, 10000);
})"""


def _hand(page: Any) -> list[str]:
    return [o.get_attribute("aria-label") or o.inner_text() for o in page.locator("[data-qd=hand] [role=option]").all()]


def _tables_of_classmates(browser: Any, hub: Hub, contexts: list[Any]) -> None:
    """The hub's service ``tables`` (lesson 10's tables of classmates): the hub's login on every
    page and the websocket, each player seated under their hub name, two learners at one
    table, the teacher's page for teachers only. ``contexts``: ana, ben and chen (a teacher),
    each logged in to the hub."""
    tables = hub.base + TABLES
    ws = tables.replace("http://", "ws://", 1) + "ws"

    # Nobody logged in: a page sends the browser to the hub's OAuth, which sends it to the hub's
    # login; the websocket is refused before it opens. (The scripts are public code, like the
    # hub's own /hub/static/.)
    anon = _new_context(browser)
    try:
        for path in ("", "teacher", "?code=ABCDEF"):
            response = anon.request.get(tables + path, max_redirects=0, timeout=30_000)
            assert response.status == 302, (path, response.status)
            assert response.headers["location"].startswith("/hub/api/oauth2/authorize?"), response.headers
            assert "client_id=service-tables" in response.headers["location"]
        assert anon.request.get(tables + "static/client.js", max_redirects=0, timeout=30_000).status == 200
        page = anon.new_page()
        page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
        page.goto(tables, wait_until="load", timeout=PAGE_TIMEOUT)
        assert "/hub/login" in page.url, page.url
        seen = page.evaluate(_WEBSOCKET, [ws, [{"kind": "open", "level": 1}]])
        assert "open" not in seen and not [m for m in seen if isinstance(m, dict)], seen
    finally:
        anon.close()

    # Logged in to the hub: straight to the tables' lobby (the hub's OAuth, no page to confirm).
    pages: list[tuple[Any, list[str]]] = []
    for ctx in contexts:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]).*"), lambda r: r.abort())  # offline
        page.goto(tables, wait_until="load", timeout=PAGE_TIMEOUT)
        pages.append((page, errors))
    for page, _ in pages:
        page.wait_for_selector("[data-qd=open]", timeout=PAGE_TIMEOUT)
        assert page.url == tables, page.url

    # ana opens a table (the name she types is not the one she plays under), ben joins it by its
    # code (under his own name, whatever he types), ana starts the hand.
    (ana, _), (ben, _), (chen, _) = pages
    ana.fill("[data-qd=name]", "Zed")
    ana.click("[data-qd=open]")
    code = ana.locator("[data-qd=code-shown]").inner_text(timeout=30_000).strip()
    assert re.fullmatch(r"[A-Z0-9]{6}", code), code
    ben.fill("[data-qd=code]", code)
    ben.fill("[data-qd=join-name]", "ana")
    ben.click("[data-qd=join]")
    for page in (ana, ben):
        page.wait_for_function("() => [...document.querySelectorAll('[data-qd=players] li')]"
                               ".slice(0, 2).map((li) => li.textContent).join() === 'Seat 0: ana,Seat 1: ben'", timeout=30_000)
    ana.click("[data-qd=start]")
    hands = []
    for page, mine, other in ((ana, 0, "ben (Seat 1)"), (ben, 1, "ana (Seat 0)")):
        page.wait_for_function("() => document.querySelectorAll('[data-qd=hand] [role=option]').length > 0",
                               timeout=30_000)
        hands.append(_hand(page))
        # Each page's table: its own seat, and the other learner under their hub name.
        labels = {s.get_attribute("data-seat"): s.get_attribute("aria-label") or ""
                  for s in page.locator("[data-qd=seat]").all()}
        assert len(labels) == 5 and labels[str(mine)] == f"You (seat {mine})", labels
        assert other in labels.values() and not any("Zed" in x for x in labels.values()), labels
    assert hands[0] and hands[1] and hands[0] != hands[1], hands

    # A seat is its hub user's: ana's token (kept in her browser) seats ana again, not chen.
    token = ana.evaluate("(code) => JSON.parse(localStorage.getItem('qidong-tutor/tables/v1'))[code].token", code)
    rejoin = [{"kind": "rejoin", "code": code, "token": token}]
    seen = chen.evaluate(_WEBSOCKET, [ws, rejoin])
    assert [m.get("kind") for m in seen if isinstance(m, dict)] == ["refused"], seen
    seen = ana.evaluate(_WEBSOCKET, [ws, rejoin])
    assert [m for m in seen if isinstance(m, dict) and m.get("kind") == "seated"][0]["name"] == "ana", seen

    # The teacher's page: 403 for a learner, whose websocket may not send what a teacher's page
    # does either; chen (QD_HUB_TEACHERS) sees the table.
    response = contexts[1].request.get(tables + "teacher", max_redirects=0, timeout=30_000)
    assert response.status == 403, response.status
    seen = ben.evaluate(_WEBSOCKET, [ws, [{"kind": "watch"}, {"kind": "open_class", "names": ["x"]}]])
    assert seen[0] == "open" and [m.get("kind") for m in seen[1:] if isinstance(m, dict)] == ["refused"] * 2, seen
    chen.goto(tables + "teacher", wait_until="load", timeout=PAGE_TIMEOUT)
    row = chen.locator(f"[data-qd=overview] tr[data-code='{code}']")
    row.wait_for(timeout=30_000)
    assert [li.inner_text() for li in row.locator("li").all()][:2] == ["Seat 0: ana", "Seat 1: ben"]

    for page, errors in pages:
        assert not errors, errors
        _close(page)  # unload first: the websocket is closed, not dropped
