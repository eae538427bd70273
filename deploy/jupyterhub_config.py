"""JupyterHub's configuration for the course: every learner logs in and gets their own
Voila server, opened on the course's home page.

Run from anywhere (see deploy/README.md)::

    QD_HUB_USERS="ana ben chloe" QD_HUB_PASSWORD="a class password" \\
        .venv/bin/jupyterhub -f deploy/jupyterhub_config.py

As it stands this is the ONE-MACHINE TRIAL that ``tests/browser/test_jupyterhub.py``
runs: learners named in advance, one shared class password, every learner's server a
process of the hub's own OS account. Each setting a school changes is marked
``SCHOOL:`` below. Every setting can be overridden on the command line
(``--JupyterHub.bind_url=...``, command-line flags win over this file) and the ones a
trial needs by environment variables:

=====================  ===========================================================
QD_HUB_USERS           the learners' user names, separated by spaces or commas
QD_HUB_PASSWORD        the shared password (8 characters or more)
QD_HUB_TEACHERS        user names whose servers also have JupyterLab (and can edit
                       the lessons); everyone else's is Voila only
QD_HUB_URL             the address the hub listens on (default ``http://:8000``:
                       every interface, port 8000, no TLS)
QD_HUB_STATE           the folder of the hub's state: its database, cookie secret,
                       the proxy's pid file and (trial spawner) the learners' homes.
                       Default ``/srv/jupyterhub`` as root, else
                       ``~/.local/state/qidong-hub``; never the current folder
QD_HUB_LESSONS         the lessons folder every learner's server serves (default:
                       this repository's ``lessons/``)
QD_HUB_PROXY           the configurable-http-proxy command (default: the copy
                       installed by ``npm install --prefix .cache/hub
                       configurable-http-proxy@5.2.0``, else the one on PATH)
QD_HUB_CULL_TIMEOUT    seconds without activity before a learner's server is
                       stopped by jupyterhub-idle-culler (default 3600; 0: no culler)
QD_HUB_TABLES_PORT     the port on 127.0.0.1 of the service ``tables`` (tables of
                       classmates, at ``/services/tables/``; default 8870; 0: none)
QD_TABLE_PACE          passed on to the tables: their pauses scaled (0 none, 2 slower)
QD_TABLES_DATABASE     the tables' database (their journals: a restart reopens every
                       table): a URL, e.g. a school's PostgreSQL
                       ``postgresql+psycopg://USER:PASSWORD@HOST/DB``; default an SQLite
                       file in QD_HUB_STATE, ``tables.sqlite3``
=====================  ===========================================================
"""

# mypy: ignore-errors
import importlib.util
import os
import re
import signal
import sys
from pathlib import Path

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - traitlets provides get_config

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def _env(name: str, default: str = "") -> str:
    return os.environ.get(name, "").strip() or default


# A hub started in the background by a script (``nohup``, ``cmd &``) inherits an ignored
# SIGINT, and so would the processes it starts before it installs its own handlers (the
# idle culler): the hub stops them with SIGINT first, which they would then ignore for
# 30 s each. Their default is restored here.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# ------------------------------------------------------------------ the hub's own state
# JupyterHub writes its database, cookie secret and the proxy's pid file into the current
# folder unless told otherwise: all three go into one private folder instead.
_default_state = "/srv/jupyterhub" if os.geteuid() == 0 else "~/.local/state/qidong-hub"
STATE = Path(_env("QD_HUB_STATE", _default_state)).expanduser().resolve()
STATE.mkdir(mode=0o700, parents=True, exist_ok=True)
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")

# ------------------------------------------------------------------ the address
# SCHOOL: serve over HTTPS. Either put the hub behind the school's reverse proxy (nginx,
# Caddy; it must pass websockets through) and keep it on 127.0.0.1, or give it a
# certificate: c.JupyterHub.ssl_cert / c.JupyterHub.ssl_key.
c.JupyterHub.bind_url = _env("QD_HUB_URL", "http://:8000")

# ------------------------------------------------------------------ the proxy
# configurable-http-proxy is an npm package (Node.js): the course's copy lives in the
# repository's .cache/hub (gitignored), installed without -g.
_chp = REPO / ".cache" / "hub" / "node_modules" / ".bin" / "configurable-http-proxy"
c.ConfigurableHTTPProxy.command = [_env("QD_HUB_PROXY", str(_chp) if _chp.exists() else "configurable-http-proxy")]

# ------------------------------------------------------------------ who may log in
# SCHOOL: replace the shared password by the school's accounts (none of these was run here):
#   c.JupyterHub.authenticator_class = "google"   # pip install oauthenticator (or "azuread", "generic-oauth")
#   jupyterhub-ltiauthenticator's LTI 1.3 authenticator, for sign-in from Moodle or Canvas
#   c.JupyterHub.authenticator_class = "pam"      # the machine's own accounts (hub run as root)
# and keep an explicit list of learners (c.Authenticator.allowed_users) or an allowed
# group; teachers go in c.Authenticator.admin_users (and QD_HUB_TEACHERS below).
# The shared password lets anyone who knows it log in as any learner on the list: a
# trial, or a class where that is acceptable, only.
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = _env("QD_HUB_PASSWORD")
c.Authenticator.allowed_users = set(re.split(r"[\s,]+", _env("QD_HUB_USERS"))) - {""}
c.Authenticator.allow_all = False
if len(c.SharedPasswordAuthenticator.user_password) < 8 or not c.Authenticator.allowed_users:
    sys.exit("jupyterhub_config: set QD_HUB_USERS (the learners' names) and QD_HUB_PASSWORD (8 characters or more)")

# Teachers (QD_HUB_TEACHERS, also allowed to log in) get JupyterLab beside the course in
# their own server, and can edit the lessons there (deploy/jupyter_server_config.py,
# QD_SERVER_LAB); everyone else's server is Voila only.
TEACHERS = set(re.split(r"[\s,]+", _env("QD_HUB_TEACHERS"))) - {""}
c.Authenticator.allowed_users |= TEACHERS


def _teachers_get_jupyterlab(spawner) -> None:
    if spawner.user.name in TEACHERS:
        spawner.environment = {**spawner.environment, "QD_SERVER_LAB": "1"}


c.Spawner.pre_spawn_hook = _teachers_get_jupyterlab

# A shared classroom computer: logging out stops the learner's server (and its kernels).
c.JupyterHub.shutdown_on_logout = True

# ------------------------------------------------------------------ each learner's server
# SCHOOL: the spawner. "simple" runs every learner's server as the hub's own OS account,
# with a home folder under QD_HUB_STATE/homes: no isolation between learners beyond what
# deploy/jupyter_server_config.py allows (Voila pages only, no code of the learners' own),
# and no memory limit. On one server, for real isolation and limits use (not run here)
#   c.JupyterHub.spawner_class = "systemdspawner.SystemdSpawner"   # pip install jupyterhub-systemdspawner
#   c.SystemdSpawner.mem_limit = "512M"; c.SystemdSpawner.cpu_limit = 1.0
# or "dockerspawner.DockerSpawner" with an image built like the Kubernetes one; on
# Kubernetes (Zero to JupyterHub) KubeSpawner is configured by the helm chart's
# config.yaml instead of this file (deploy/README.md).
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = str(STATE / "homes" / "{username}")

# The single-user server comes from the environment JupyterHub runs in, where the course
# (qidong-tutor) is installed, whatever PATH says; it reads the course's Jupyter Server
# configuration, and no configuration from the learner's home.
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.args = [f"--config={HERE / 'jupyter_server_config.py'}"]
c.Spawner.disable_user_config = True
if os.geteuid() == 0 and c.JupyterHub.spawner_class == "simple":
    # The simple spawner run by root (a throwaway container, such as CI's) runs the
    # learners' servers as root too, which Jupyter Server refuses unless told.
    # SCHOOL: never run the trial as root on a real server.
    c.Spawner.args.append("--allow-root")

# The lessons: one shared folder served as every learner's root, so a change to the
# course reaches everyone at once (the course stores nothing there: progress is kept in
# the learner's browser) and nobody's server can write to it (jupyter_server_config.py).
# With per-user OS accounts it must be readable by them (e.g. root-owned, mode 755).
LESSONS = Path(_env("QD_HUB_LESSONS", str(REPO / "lessons"))).expanduser().resolve()
c.Spawner.notebook_dir = str(LESSONS)

# The learner lands on the course's home page, rendered by Voila.
c.Spawner.default_url = "/voila/render/index.ipynb"

# SCHOOL: memory. A learner's server is ~150 MB with its kernel zygote ~50 MB beside it,
# and each open lesson page adds a kernel of ~22 MB (measured, deploy/README.md); the
# simple spawner ignores these two, systemd, Docker and Kubernetes enforce them.
c.Spawner.mem_guarantee = "256M"
c.Spawner.mem_limit = "512M"

# A busy machine starting 30 servers at the bell: give each time.
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 60

# ------------------------------------------------------------------ idle servers
# Inside a learner's server, the kernel of a page that vanished is stopped after 5 idle
# minutes (tutor.server.configure). jupyterhub-idle-culler stops a whole server that has
# had no activity for QD_HUB_CULL_TIMEOUT seconds (a learner who left without logging
# out); its next login starts a fresh one.
CULL_TIMEOUT = int(_env("QD_HUB_CULL_TIMEOUT", "3600"))
SERVICES: list[dict] = []
ROLES: list[dict] = []
if CULL_TIMEOUT > 0 and importlib.util.find_spec("jupyterhub_idle_culler") is None:
    print("jupyterhub_config: jupyterhub-idle-culler is not installed, idle servers are not stopped", file=sys.stderr)
elif CULL_TIMEOUT > 0:
    SERVICES.append({
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={CULL_TIMEOUT}",
                    f"--cull-every={max(60, min(600, CULL_TIMEOUT // 4))}"],
    })
    ROLES.append({
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    })

# ------------------------------------------------------------------ tables of classmates
# Lesson 10's tables of five learners (tutor/server/tables): every learner's server is apart,
# so the tables are the hub's, a service it starts and proxies at /services/tables/ (the
# lesson links there: JUPYTERHUB_BASE_URL + "services/tables/"). Only the hub's users get
# in, through the hub's own login (OAuth, no page to confirm), each seated under their hub
# name; its teacher's page (/services/tables/teacher) is for hub admins and QD_HUB_TEACHERS.
# Every table is kept as its journal in a database (QD_TABLES_DATABASE, else QD_HUB_STATE/
# tables.sqlite3): the service started again (a restart of the hub, an upgrade, a crash)
# reopens every open table where it was, and each page comes back to its seat.
TABLES_PORT = int(_env("QD_HUB_TABLES_PORT", "8870"))
if TABLES_PORT > 0:
    SERVICES.append({
        "name": "tables",
        "url": f"http://127.0.0.1:{TABLES_PORT}",
        "command": [sys.executable, "-m", "tutor.server.tables"],
        "oauth_no_confirm": True,
        "environment": {"QD_HUB_TEACHERS": " ".join(sorted(TEACHERS)),
                        "QD_TABLES_DATABASE": _env("QD_TABLES_DATABASE", f"sqlite:///{STATE / 'tables.sqlite3'}"),
                        **({"QD_TABLE_PACE": _env("QD_TABLE_PACE")} if _env("QD_TABLE_PACE") else {})},
    })
    # Every user may open the service (the default "user" role, plus the service's access).
    ROLES.append({"name": "user", "scopes": ["self", "access:services!service=tables"]})

c.JupyterHub.services = SERVICES
c.JupyterHub.load_roles = ROLES
