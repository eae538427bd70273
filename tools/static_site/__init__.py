"""The course as a static site: every lesson runs in the learner's own browser.

``./dev site`` (``python -m tools.static_site``) builds ``_site/``: the home page
``_site/index.html`` (it opens the course in the learner's language) and every notebook of
``lessons/`` rendered by Voici in each language of the course, at
``_site/voici/render/<language>/<lesson>.html``. Python runs in the page (Pyodide, compiled
to WebAssembly), so any plain file server — a school web server, GitHub Pages, a USB stick
with ``python -m http.server`` — serves a class of any size, and nothing is fetched from
the internet, at build time or in the page:

- the Voici / JupyterLite build and the Pyodide kernel come from PyPI (the ``site`` extra);
- Pyodide's core files from the npm package ``pyodide`` (:data:`PYODIDE`);
- the Python packages the page needs, as pure wheels pinned by hash in ``requirements.txt``
  beside this module, with a Pyodide lock file made to match them (:func:`lock_entry`);
- the project itself, built into a wheel.

Every wheel is compiled to bytecode by Pyodide's own Python under Node
(:func:`compile_wheels`), so a page imports bytecode instead of compiling sources as it starts.
The build runs from the repository (``./dev site``) and needs Node.js and npm.

A page does not start Python from nothing: the build saves Pyodide's memory once every package
is loaded and the kernel's and the course's modules are imported (:func:`python_snapshot`,
``snapshot.mjs``), and the kernel's worker restores it (``start.js``, the kernel's
``pyodideUrl``), reseeds ``random`` and hands Python the page's link. The page starts that
worker as it opens, while its app is still loading (``page.js``, ``worker.js``). On any
failure Python starts the usual way, loading the wheels; ``<html data-qd-python>`` says which.

What a page downloads is kept small and kept (issue 45): Pyodide's WebAssembly and script are
shipped gzip-packed beside them too, and the kernel's worker fetches those, unpacks them in the
browser and keeps them (:func:`pack_pyodide`, ``start.js``); the site's own service worker
(``service-worker.js``, :func:`write_service_worker`) keeps every other file a page fetched,
fetching a gzip copy where the build wrote one, so the next lesson and a later day cost almost
nothing on any host, and a lesson opened once opens again offline.

What the served course does on the server, the page does itself (``page.js``): it hands
the link's query string to the kernel (``QUERY_STRING``, as Voila does), remembers the
language chosen by a link or the switch (the ``qd-lang`` cookie, as the served course), and
keeps the link's parameters on the language switch. Progress is kept in the browser under the
same key as the served course.

>>> sorted(STAND_INS)
['jedi', 'sqlite3', 'ssl']
>>> lesson_page("zh-Hant", "05-following")
'voici/render/zh-Hant/05-following.html'
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from email.parser import Parser
from functools import partial
from pathlib import Path
from typing import Any, Final

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tutor.core.i18n import LANGUAGES
from tutor.teach.localize import localize

HERE: Final = Path(__file__).resolve().parent
ROOT: Final = HERE.parents[1]
"""The repository (the build reads ``lessons/`` and ``pyproject.toml`` there)."""

PYODIDE: Final = "0.27.6"
"""The Pyodide the kernel (``jupyterlite-pyodide-kernel`` 0.6.1) expects: Python 3.12."""
PYODIDE_SHA256: Final = "b0840fd9784429dfbd65e012f61a3b64981fd88bc02d1f6b2d69867dcc16d754"
"""The npm tarball's sha256: every build ships the same Pyodide."""
PYODIDE_FILES: Final = ("pyodide.asm.js", "pyodide.asm.wasm", "pyodide.js", "pyodide.mjs", "python_stdlib.zip")
"""Pyodide's core files, from the npm package (its lock file is made here instead)."""

PYTHON: Final = "3.12"

STAND_INS: Final[Mapping[str, str]] = {
    "ssl": "the kernel installs it at start; Pyodide's wasm build of it is on no registry, and the course makes no "
           "network connection",
    "sqlite3": "the kernel installs it at start; IPython 9 runs without it (its history is not kept)",
    "jedi": "code completion in an editor: learners see no code (IPython completes without it); saves 5 MB",
}
"""Packages the Pyodide kernel installs when it starts that the course does without: a
wheel with metadata only satisfies the installer (the import fails, and nothing imports
them)."""

SERVER_ONLY: Final[Mapping[str, str]] = {
    "voila": "serves the course from a machine; the static site is its own server",
    "jupyterlab": "the served course's front end; Voici brings its own",
    "ipykernel": "the Pyodide kernel brings its own",
    "nbformat": "read by the server's lesson translation; the site is translated when it is built",
    "psutil": "the server's kernel zygote (tutor/server) watches its kernels; a page has one kernel, its own",
    "sqlalchemy": "the tables' journal (tutor/server/tables) is kept by their server; the site has no tables",
    "alembic": "migrates the tables' journal on their server",
    "platformdirs": "finds the tables' database in the server's user data folder",
}
"""Requirements of the shipped packages that the page does not need, and why. A
requirement that is neither shipped nor listed here fails the build."""

KERNEL_WHEELS: Final = ("ipykernel", "piplite", "pyodide_kernel", "widgetsnbextension-4")
"""The Pyodide kernel's own wheels (its kernel, its installer, and shims for ``ipykernel`` and
``widgetsnbextension``), shipped inside its JupyterLab extension: put in the lock too, so
that Pyodide loads every package the page needs in one batch when it starts, instead of
the kernel installing them one after another."""

BABEL_LOCALES: Final = ("root", "en", "zh", "zh_Hans", "zh_Hant")
"""Babel's locale data the course reads (plural forms of its languages); Babel's wheel
carries 1,100 locales (11 MB), and the rest are left out of the site."""

KERNEL_SETTINGS: Final = "@jupyterlite/pyodide-kernel-extension:kernel"

UNUSED: Final = ("build", "doc", "jupyter-lite.ipynb", "bootstrap.js", "config-utils.js", "service-worker.js",
                 "manifest.webmanifest", "voici/tree", "voici/index.html")
"""What JupyterLite and Voici write that no page of the course loads (JupyterLite's own
apps, 59 MB, and Voici's file browser): left out of the site, with every source map.
(JupyterLite's ``service-worker.js`` serves its file browser; the site ships its own under that
name, :func:`write_service_worker`.)"""

SERVICE_WORKER: Final = "service-worker.js"
"""The site's own service worker, at the site's root, where JupyterLite's pages register one."""
GZIP_TYPES: Final = (".html", ".js", ".css", ".json", ".svg")
GZIP_FROM: Final = 8192
"""Files of these types and at least this many bytes get a gzip copy beside them, which the
service worker fetches instead (:func:`write_service_worker`)."""


def lesson_page(language: str, slug: str) -> str:
    """Where a lesson's page is, from the site's root."""
    return f"voici/render/{language}/{slug}.html"


class BuildError(RuntimeError):
    """The site could not be built; the message says which step and why."""


# ----------------------------------------------------------------- the whole build

def build(out: Path, *, cache: Path, lessons: Path = ROOT / "lessons", quiet: bool = False) -> dict[str, Any]:
    """Build the site into ``out`` (replaced whole). Downloads go to ``cache`` and are
    reused. Returns what was built (file count, bytes, seconds)."""
    from tools.static_site import home

    started = time.monotonic()

    def say(text: str) -> None:
        if not quiet:
            print(f"site: {text}", flush=True)

    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="qd-site-") as scratch:
        work = Path(scratch)
        lite = work / "lite"
        pyodide_dir = lite / "static" / "pyodide"
        pyodide_dir.mkdir(parents=True)
        say(f"Pyodide {PYODIDE} core files (npm)")
        info = unpack_pyodide(fetch_pyodide(cache), pyodide_dir)
        say("wheels for the browser (PyPI, pinned by hash)")
        wheels = list(fetch_wheels(cache))
        wheels.extend(kernel_wheels())
        wheels.append(project_wheel(work / "project"))
        staged = work / "wheels"
        staged.mkdir()
        for wheel in wheels:
            if canonicalize_name(wheel_name(wheel)) == "babel":
                strip_babel(wheel, staged / wheel.name)
            else:
                shutil.copyfile(wheel, staged / wheel.name)
        say("wheels compiled to bytecode (Pyodide under Node)")
        compile_wheels(pyodide_dir, info, staged, pyodide_dir)
        shipped = [pyodide_dir / wheel.name for wheel in wheels]
        for name in STAND_INS:
            shipped.append(stand_in_wheel(name, pyodide_dir))
        say(f"lock file for {len(shipped)} packages")
        packages = write_lock(pyodide_dir / "pyodide-lock.json", info, shipped)
        say(f"lessons in {', '.join(LANGUAGES)}")
        contents = work / "contents"
        say("the lessons' examples, drawn once (tutor.teach.prerender)")
        drawn = prerendered(lessons, cache)
        slugs = write_lessons(lessons, contents, drawn)
        home.write_hand_in(lessons, contents)  # the home page's hand-in section, a page of its own
        say("Python's memory snapshot, the pages' start (Pyodide under Node)")
        start = python_snapshot(pyodide_dir, contents)
        say(f"snapshot: {start.details['modules']} modules, {start.details['files']} files, "
            f"{start.details['file_bytes_gzip'] / 1e6:.1f} MB"
            + "".join(f"; left out {name} ({why})" for name, why in start.details["left_out"].items()))
        (lite / "jupyter-lite.json").write_text(json.dumps(lite_config(packages, start), indent=2), "utf-8")
        say("Voici")
        built = work / "out"
        voici_build(lite, contents, built)
        say("pages made offline")
        prune(built)
        finish_pages(built, slugs)
        start_from_snapshot(built, start)
        if not (built / KERNEL_STATIC / start.kernel).is_file():
            raise BuildError(f"Voici did not ship the Pyodide kernel's worker {start.kernel}")
        say("the home page, plain HTML (no Python)")
        home.write_home_pages(built, lessons, slugs, script=page_script(), page=lesson_page)
        (built / "index.html").write_text(home_page(), "utf-8")
        (built / ".nojekyll").write_text("", "utf-8")  # GitHub Pages: every file as it is, no Jekyll
        check_offline(built)
        write_service_worker(built)
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(built, out)
    files = [p for p in out.rglob("*") if p.is_file()]
    summary = {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
               "lessons": len(slugs), "languages": len(LANGUAGES), "seconds": round(time.monotonic() - started, 1)}
    say(f"built {out}: {summary['files']} files, {summary['bytes'] / 1e6:.1f} MB, "
        f"{summary['lessons']} notebooks × {summary['languages']} languages in {summary['seconds']} s")
    return summary


# ----------------------------------------------------------------- Pyodide

def fetch_pyodide(cache: Path) -> Path:
    """The npm package ``pyodide`` (:data:`PYODIDE`), downloaded once with ``npm pack``."""
    tarball = cache / f"pyodide-{PYODIDE}.tgz"
    if not tarball.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm is needed to fetch Pyodide's core files (the npm package 'pyodide')")
        run([npm, "pack", f"pyodide@{PYODIDE}", "--pack-destination", str(cache), "--silent"])
        if not tarball.exists():
            raise BuildError(f"npm pack did not write {tarball.name}")
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    if digest != PYODIDE_SHA256:
        tarball.unlink()
        raise BuildError(f"pyodide@{PYODIDE} from npm has sha256 {digest}, not the expected {PYODIDE_SHA256}")
    return tarball


def unpack_pyodide(tarball: Path, target: Path) -> dict[str, Any]:
    """Pyodide's core files into ``target``; returns the ``info`` of its lock file (the
    Python and ABI the wheels must fit)."""
    with tarfile.open(tarball) as archive:
        members = {Path(m.name).name: m for m in archive.getmembers() if m.isfile()}
        for name in (*PYODIDE_FILES, "pyodide-lock.json"):
            if name not in members:
                raise BuildError(f"the npm package pyodide@{PYODIDE} has no {name}")
        for name in PYODIDE_FILES:
            source = archive.extractfile(members[name])
            assert source is not None
            (target / name).write_bytes(source.read())
        lock_file = archive.extractfile(members["pyodide-lock.json"])
        assert lock_file is not None
        info: dict[str, Any] = json.load(lock_file)["info"]
    if info.get("version") != PYODIDE or not str(info.get("python", "")).startswith(PYTHON):
        raise BuildError(f"pyodide@{PYODIDE} says it is {info.get('version')} for Python {info.get('python')}")
    return info


# ----------------------------------------------------------------- wheels

def fetch_wheels(cache: Path) -> Iterator[Path]:
    """The wheels of ``requirements.txt``, downloaded once (pip checks every hash)."""
    wanted = HERE / "requirements.txt"
    folder = cache / "wheels"
    names = [line.split()[0] for line in wanted.read_text("utf-8").splitlines() if line and not line.startswith("#")]
    have = {canonicalize_name(wheel_name(p)) + "==" + wheel_version(p): p for p in folder.glob("*.whl")}
    if any(canonicalize_name(n.split("==")[0]) + "==" + n.split("==")[1] not in have for n in names):
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
             "--only-binary=:all:", "--python-version", PYTHON, "--platform", "any", "--implementation", "py",
             "--abi", "none", "-r", str(wanted), "-d", str(folder)])
        have = {canonicalize_name(wheel_name(p)) + "==" + wheel_version(p): p for p in folder.glob("*.whl")}
    for name in names:
        key = canonicalize_name(name.split("==")[0]) + "==" + name.split("==")[1]
        if key not in have:
            raise BuildError(f"pip did not download {name}")
        yield have[key]


def kernel_wheels() -> list[Path]:
    """:data:`KERNEL_WHEELS`, from the installed ``jupyterlite-pyodide-kernel``."""
    from jupyter_core.paths import jupyter_path

    for base in jupyter_path("labextensions"):
        folder = Path(base) / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
        if folder.is_dir():
            found = [next(iter(sorted(folder.glob(f"{name}*.whl"))), None) for name in KERNEL_WHEELS]
            if all(found):
                return [p for p in found if p is not None]
    raise BuildError("the Pyodide kernel's wheels were not found (pip install -e '.[site]')")


PROJECT_FILES: Final = ("pyproject.toml", "README.md", "tutor", "widgets")
"""What the project's wheel is built from (``[tool.setuptools]`` in ``pyproject.toml``)."""


def project_wheel(folder: Path) -> Path:
    """The project built into a wheel by its own build backend, from a clean copy of its
    sources: setuptools keeps what it built last in ``build/`` and would ship a module that
    has since moved or been deleted."""
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "SOURCE_DATE_EPOCH": os.environ.get("SOURCE_DATE_EPOCH", "1700000000")}
    with tempfile.TemporaryDirectory(prefix="qd-wheel-") as build_dir:
        source = Path(build_dir) / "source"
        for name in PROJECT_FILES:
            if (ROOT / name).is_dir():
                shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                source.mkdir(exist_ok=True)
                shutil.copy2(ROOT / name, source / name)
        run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
             "--wheel-dir", str(folder), str(source)], env={**env, "TMPDIR": build_dir})
    found = sorted(folder.glob("qidong_tutor-*.whl"))
    if not found:
        raise BuildError("the project's wheel was not built")
    return found[-1]


def compile_wheels(pyodide_dir: Path, info: Mapping[str, Any], source: Path, target: Path) -> None:
    """Every wheel of ``source`` into ``target`` with its modules as bytecode for Pyodide's
    Python and no test suites (``in_pyodide.py``, run by Pyodide under Node: the
    bytecode must be Python 3.12's, and this machine's Python may be another)."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("Node.js is needed to compile the site's wheels with Pyodide (apt-get install nodejs)")
    (pyodide_dir / "pyodide-lock.json").write_text(json.dumps({"info": dict(info), "packages": {}}), "utf-8")
    run([node, str(HERE / "compile.mjs"), str(pyodide_dir), str(source), str(target)])
    for wheel in source.glob("*.whl"):
        if not (target / wheel.name).exists():
            raise BuildError(f"{wheel.name} was not compiled")


def wheel_name(wheel: Path) -> str:
    return wheel.name.split("-")[0]


def wheel_version(wheel: Path) -> str:
    return wheel.name.split("-")[1]


def strip_babel(source: Path, target: Path) -> None:
    """Babel's wheel with only the locale data of :data:`BABEL_LOCALES`."""
    keep = {f"babel/locale-data/{name}.dat" for name in BABEL_LOCALES}
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        for item in old.infolist():
            if item.filename.startswith("babel/locale-data/") and item.filename not in keep:
                continue
            new.writestr(item, old.read(item))


def stand_in_wheel(name: str, folder: Path) -> Path:
    """A wheel with metadata only (see :data:`STAND_INS`)."""
    version = "1.0.0"
    path = folder / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    files = {
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                            f"Summary: stand-in: {STAND_INS[name]}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tools.static_site\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = "".join(f"{file},sha256={_b64_digest(text.encode())},{len(text.encode())}\n" for file, text in files.items())
    files[f"{info}/RECORD"] = record + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file, text in files.items():
            archive.writestr(zipfile.ZipInfo(file, date_time=(2020, 1, 1, 0, 0, 0)), text)
    return path


def _b64_digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


# ----------------------------------------------------------------- the lock file

@dataclass(frozen=True)
class WheelInfo:
    """What the lock says of one shipped wheel."""

    name: str
    version: str
    imports: tuple[str, ...]
    requires: tuple[str, ...]


def read_wheel(path: Path) -> WheelInfo:
    """A wheel's name, version, top-level imports and requirements (those that apply in
    Pyodide: ``sys_platform == "emscripten"``, Python :data:`PYTHON`, no extras)."""
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        meta_name = next((n for n in names if n.endswith(".dist-info/METADATA")), None)
        if meta_name is None:
            raise BuildError(f"{path.name} has no METADATA")
        meta = Parser().parsestr(archive.read(meta_name).decode("utf-8"))
        tops = next((n for n in names if n.endswith(".dist-info/top_level.txt")), None)
        if tops is not None:
            imports = tuple(line.strip() for line in archive.read(tops).decode().splitlines() if line.strip())
        else:
            imports = tuple(sorted({_top_level(n) for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
                                   - {""}))
    environment: dict[str, str] = {key: str(value) for key, value in default_environment().items()}
    environment.update(sys_platform="emscripten", platform_system="Emscripten", python_version=PYTHON,
                       python_full_version=f"{PYTHON}.7", implementation_name="cpython",
                       platform_python_implementation="CPython", os_name="posix", extra="")
    requires = []
    for line in meta.get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(environment):
            requires.append(canonicalize_name(requirement.name))
    return WheelInfo(canonicalize_name(str(meta["Name"])), str(meta["Version"]), imports, tuple(requires))


def _top_level(member: str) -> str:
    first = member.split("/")[0]
    if first.endswith(".py"):
        return first[:-3]
    return first if "/" in member and not first.startswith("__") else ""


def lock_entry(path: Path, wheel: WheelInfo, shipped: set[str]) -> dict[str, Any]:
    """The lock file's entry for one wheel: its real sha256, import names and the
    shipped packages it depends on."""
    missing = [r for r in wheel.requires if r not in shipped and r not in SERVER_ONLY]
    if missing:
        raise BuildError(f"{wheel.name} needs {', '.join(missing)}, which the site does not ship "
                         "(add it to tools/static_site/requirements.txt, or to SERVER_ONLY with the reason)")
    return {
        "name": wheel.name, "version": wheel.version, "file_name": path.name, "install_dir": "site",
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "package_type": "package",
        "imports": list(wheel.imports), "depends": sorted({r for r in wheel.requires if r in shipped}),
        "unvendored_tests": False, "shared_library": False,
    }


def write_lock(path: Path, info: Mapping[str, Any], wheels: Iterable[Path]) -> list[str]:
    """Pyodide's ``pyodide-lock.json`` listing exactly the shipped wheels; returns their names."""
    read = {wheel: read_wheel(wheel) for wheel in wheels}
    shipped = {w.name for w in read.values()}
    packages = {w.name: lock_entry(p, w, shipped) for p, w in sorted(read.items(), key=lambda item: item[1].name)}
    path.write_text(json.dumps({"info": dict(info), "packages": packages}, indent=1, sort_keys=True), "utf-8")
    return sorted(packages)


def lite_config(packages: Iterable[str], start: Start | None = None) -> dict[str, Any]:
    """``jupyter-lite.json``: Pyodide from the site itself, never from PyPI or a CDN, loading
    every shipped package as it starts (fetched in parallel, no installer round trips) — or,
    with ``start`` (:func:`python_snapshot`), restoring Python from the build's snapshot and
    loading them only if that fails."""
    kernel: dict[str, Any] = {
        "pyodideUrl": "./static/pyodide/pyodide.js", "disablePyPIFallback": True,
        # Named as the kernel names what it would install otherwise (pyodide_kernel);
        # Pyodide reads either spelling.
        "loadPyodideOptions": {"packages": [name.replace("-", "_") for name in packages]}}
    if start is not None:  # the pages' pyodideUrl is start.js (:func:`start_from_snapshot`)
        # The kernel resolves an option named *URL against the site's root (not the page).
        kernel["loadPyodideOptions"]["qdSnapshotURL"] = f"static/pyodide/{start.snapshot}"
        # Its memory's size: Pyodide starts its WebAssembly while the file is read (start.js).
        kernel["loadPyodideOptions"]["qdSnapshotSize"] = start.details["memory"]
        # page.js starts the kernel's worker (worker.js) as the page opens; both from the root.
        kernel["qdEarly"] = {"worker": f"static/pyodide/{start.worker}", "kernel": f"{KERNEL_STATIC}/{start.kernel}"}
        # Pyodide's biggest files as gzip copies beside them, content-named (start.js unpacks them).
        kernel["loadPyodideOptions"]["qdPacked"] = dict(start.packed)
    return {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "appName": "启东招朋友", "disabledExtensions": [],
        "litePluginSettings": {KERNEL_SETTINGS: kernel}}}


# ----------------------------------------------------------------- Python's start

@dataclass(frozen=True)
class Start:
    """What a page's kernel starts Python from (in ``static/pyodide/``): ``script`` (the
    kernel's ``pyodideUrl``, ``start.js``, with its version), ``snapshot`` (the file it
    restores Python from, named by its content), ``worker`` (``worker.js``, the kernel's worker
    as page.js starts it early) and ``kernel`` (the Pyodide kernel's own worker script, in
    :data:`KERNEL_STATIC`, which ``worker.js`` loads); ``packed``: Pyodide's files that
    ``start.js`` fetches as gzip copies, by name (:func:`pack_pyodide`)."""

    script: str
    snapshot: str
    worker: str
    kernel: str
    details: Mapping[str, Any]
    packed: Mapping[str, str] = field(default_factory=dict)


KERNEL_STATIC: Final = "extensions/@jupyterlite/pyodide-kernel-extension/static"
"""The Pyodide kernel's scripts in the site."""


SNAPSHOT_PACKAGES: Final = ("tutor", "widgets")
"""The course's packages: every module of them is in the snapshot (but :data:`SNAPSHOT_SKIP`)."""
SNAPSHOT_SKIP: Final[Mapping[str, str]] = {
    "tutor.server": "the served course's server (Voila, Tornado): not in a page",
    "tutor.teach.prerender": "runs at the build and on the server, never in a page",
}
"""Modules of the course's packages that no page imports, and why."""
SNAPSHOT_WARM: Final = "from tutor.core.i18n import LANGUAGES, Translator\nfor language in LANGUAGES:\n    Translator(language)"
"""Run before the snapshot is made: what a page would read each time, read once (each language's
translation catalogs: 0.15 s of a Chinese page's start)."""
SNAPSHOT_CHECK: Final = 'from widgets.check import quick_check\nquick_check("follow", level=1, seed=0)'
"""A lesson's cell, run by the build on Python restored from the snapshot (it must show a
widget, and load no package)."""


def python_snapshot(pyodide_dir: Path, contents: Path) -> Start:
    """Python's memory snapshot for every page (``snapshot.mjs``, Pyodide under Node; the
    page's side is ``start.js``): made once the site's lock is written, holding every shipped
    package loaded, what the kernel imports as it starts, every module of the course and every
    module a page of ``contents`` imports. It is checked here as a page will use it (restored,
    the kernel started, a lesson's cell run), then written beside Pyodide with ``start.js``.
    A page that cannot use it starts Python the usual way."""
    node = shutil.which("node")
    if node is None:
        raise BuildError("Node.js is needed to make Python's snapshot (apt-get install nodejs)")
    with tempfile.TemporaryDirectory(prefix="qd-snapshot-") as scratch:
        settings = Path(scratch) / "settings.json"
        settings.write_text(json.dumps({
            "imports": page_imports(contents), "packages": list(SNAPSHOT_PACKAGES),
            "skip": [name + "." for name in SNAPSHOT_SKIP], "warm": SNAPSHOT_WARM, "check": SNAPSHOT_CHECK}), "utf-8")
        made = Path(scratch) / "snapshot.bin"
        details = json.loads(run_output([node, str(HERE / "snapshot.mjs"), "make", str(pyodide_dir), str(settings),
                                         str(made)]).strip().splitlines()[-1])
        run([node, str(HERE / "snapshot.mjs"), "check", str(pyodide_dir), str(settings), str(made)])
        data = made.read_bytes()
    snapshot = f"qd-python-{hashlib.sha256(data).hexdigest()[:16]}.bin"
    (pyodide_dir / snapshot).write_bytes(data)
    versions = {}
    for source, target in (("start.js", "qd-start.js"), ("worker.js", "qd-worker.js")):
        script = (HERE / source).read_bytes()
        (pyodide_dir / target).write_bytes(script)
        versions[target] = f"{target}?v={hashlib.sha256(script).hexdigest()[:16]}"
    return Start(versions["qd-start.js"], snapshot, versions["qd-worker.js"], kernel_worker(),
                 {**details, "file_bytes_gzip": len(data)}, pack_pyodide(pyodide_dir))


PACKED: Final = ("pyodide.asm.wasm", "pyodide.asm.js")
"""Pyodide's files that ``start.js`` fetches as gzip copies (a plain file server sends files as
they are; the browser unpacks gzip itself): 10.1 MB → 3.2 MB and 1.3 MB → 0.2 MB. Its
``python_stdlib.zip`` is compressed already."""


KEPT: Final = ("python_stdlib.zip", "pyodide-lock.json")
"""Pyodide's other files of every start, which ``start.js`` keeps as it keeps :data:`PACKED`."""


def pack_pyodide(pyodide_dir: Path) -> dict[str, str]:
    """A gzip copy of each of :data:`PACKED` beside it; returns the address from Pyodide's
    folder of each of them and of :data:`KEPT`, with its content's hash
    (``pyodide.asm.wasm.gz?v=…``: the browser keeps it as long as it is the same file)."""
    packed = {}
    for name in PACKED:
        data = (pyodide_dir / name).read_bytes()
        (pyodide_dir / f"{name}.gz").write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
        packed[name] = f"{name}.gz?v={hashlib.sha256(data).hexdigest()[:16]}"
    for name in KEPT:
        packed[name] = f"{name}?v={hashlib.sha256((pyodide_dir / name).read_bytes()).hexdigest()[:16]}"
    return packed


def kernel_worker() -> str:
    """The Pyodide kernel's worker script (the one it starts where pages are not
    cross-origin isolated, which the site's are not), from the installed extension: the one
    script of it that speaks Comlink, sends the kernel's messages and imports Pyodide. The
    kernel is pinned (pyproject.toml); a kernel made otherwise fails the build here."""
    from jupyter_core.paths import jupyter_path

    for base in jupyter_path("labextensions"):
        folder = Path(base) / KERNEL_STATIC.removeprefix("extensions/")
        if folder.is_dir():
            scripts = {p.name: p.read_text("utf-8", errors="replace") for p in sorted(folder.glob("*.js"))}
            found = [name for name, text in scripts.items() if "new Worker(" not in text
                     and all(mark in text for mark in ("Comlink.proxy", "_kernelMessage", "importScripts(", "loadPyodide"))]
            # ... and the kernel starts it: new Worker(new URL(<chunk>)) in another of its scripts.
            started = [name for name in found
                       if any(re.search(r"new Worker\(new URL\(\w+\.p\+\w+\.u\(" + re.escape(name.split(".")[0]) + r"\)", text)
                              for text in scripts.values())]
            if len(started) != 1:
                raise BuildError(f"the Pyodide kernel's worker script is not one of {folder}: {found}")
            return started[0]
    raise BuildError("the Pyodide kernel's extension was not found (pip install -e '.[site]')")


def page_imports(contents: Path) -> list[str]:
    """Every module the code cells of the notebooks in ``contents`` import (relative imports
    and cells that do not parse aside).

    >>> import tempfile, nbformat
    >>> folder = Path(tempfile.mkdtemp())
    >>> cell = nbformat.v4.new_code_cell("import html\\nfrom widgets.check import quick_check\\nfrom . import x")
    >>> nbformat.write(nbformat.v4.new_notebook(cells=[cell]), folder / "a.ipynb")
    >>> page_imports(folder)
    ['html', 'widgets.check']
    """
    import ast

    import nbformat

    found: set[str] = set()
    for path in sorted(contents.rglob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
        for cell in notebook.cells:
            if cell.cell_type != "code":
                continue
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    found.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    found.add(node.module)
    return sorted(found)


# ----------------------------------------------------------------- lessons

def prerendered(lessons: Path, cache: Path) -> Path:
    """The lessons' static examples in every language (:mod:`tutor.teach.prerender`), drawn once
    for these lessons and this code and kept in ``cache`` for the next build."""
    from tutor.teach import prerender

    folder = cache / "pages" / prerender.fingerprint(lessons)
    if not (folder / "done").exists():
        try:
            prerender.render_all(lessons, folder)
        except prerender.RenderError as error:
            raise BuildError(str(error)) from None
        (folder / "done").write_text("", "utf-8")
    return folder


def write_lessons(lessons: Path, contents: Path, drawn: Path | None = None) -> list[str]:
    """Every notebook of ``lessons`` in every language, translated now (a static page has
    no server to translate it), each with its language switch and, where ``drawn`` holds
    them, its static examples drawn already (:func:`prerendered`). Returns the slugs."""
    import nbformat

    from tutor.teach import prerender

    slugs = []
    for notebook_path in sorted(lessons.glob("*.ipynb")):
        slug = notebook_path.stem
        notebook = nbformat.read(notebook_path, as_version=4)  # type: ignore[no-untyped-call]
        for language in LANGUAGES:
            folder = contents / language
            folder.mkdir(parents=True, exist_ok=True)
            page = localize(notebook, slug, language, switch=partial(_page_beside, slug))
            if drawn is not None:
                page = prerender.apply(page, prerender.read(drawn, language, slug))
            nbformat.write(page, folder / notebook_path.name)  # type: ignore[no-untyped-call]
        slugs.append(slug)
    if not slugs:
        raise BuildError(f"no notebooks in {lessons}")
    return slugs


def _page_beside(slug: str, language: str) -> str:
    """The page of lesson ``slug`` in ``language``, from a lesson page of another language."""
    return f"../{language}/{slug}.html"


def voici_build(lite: Path, contents: Path, out: Path) -> None:
    """Voici's static build (JupyterLite and the Pyodide kernel, no other add-on)."""
    (lite / ".jupyterlite.doit.db").unlink(missing_ok=True)  # a stale one once skipped the pyodideUrl patch
    voici = Path(sys.executable).with_name("voici")
    run([str(voici), "build", "--lite-dir", str(lite), "--contents", str(contents), "--output-dir", str(out),
         "--apps", "voici", "--strip_sources=True", "--show_tracebacks=False", "--log-level=WARN"], cwd=lite)


# ----------------------------------------------------------------- after the build

_CDN = re.compile(r'<link[^>]+href="https?://[^"]*"[^>]*>\s*|<script[^>]+src="https?://[^"]*"[^>]*>\s*</script>\s*'
                  r'|<script\b[^>]*>(?:(?!</script>).)*?\bimport\(\s*"https?://(?:(?!</script>).)*</script>\s*', re.DOTALL)
"""Voici's links to CDNs: Font Awesome (the course uses no icons from it) and the script that
imports mermaid for diagrams (the course has none)."""
_CONFIG = re.compile(r'(<script id="jupyter-config-data" type="application/json">.*?</script>)', re.DOTALL)


def finish_pages(site: Path, slugs: Iterable[str]) -> None:
    """Each rendered page made to work offline from any folder: Voici's CDN links
    dropped, its relative URLs resolved, ``<html lang>`` set, links between lessons
    pointed at pages, and ``page.js`` run just after the page's configuration, before the
    app reads it."""
    script = page_script()
    lessons = "|".join(re.escape(s) for s in slugs)
    for other in site.rglob("*.html"):
        other.write_text(_CDN.sub("", other.read_text("utf-8")), "utf-8")
    for language in LANGUAGES:
        folder = site / "voici" / "render" / language
        for page in folder.glob("*.html"):
            html = page.read_text("utf-8")
            # Voici writes these relative to the site's root; the page is three folders down.
            for asset in ("./static/pyodide/", "./extensions/"):
                html = html.replace(f'"{asset}', f'"../../../{asset[2:]}')
            html = re.sub(r'href="(' + lessons + r')\.ipynb', r'href="\1.html', html)
            html = re.sub(r"<html(?:\s+lang=\"[^\"]*\")?", f'<html lang="{language}" data-qd-language="{language}"',
                          html, count=1)
            if not _CONFIG.search(html):
                raise BuildError(f"{page.name}: no jupyter-config-data to hand the link to the kernel")
            html = _CONFIG.sub(lambda m: f"{m.group(1)}\n<script>{script}</script>", html, count=1)
            page.write_text(html, "utf-8")


_PYODIDE_URL = re.compile(r'("pyodideUrl":\s*")((?:\.\./)*)static/pyodide/pyodide\.js"')


def start_from_snapshot(site: Path, start: Start) -> None:
    """Each lesson page's kernel pointed at ``start.js`` (:func:`python_snapshot`) instead of
    Pyodide's ``pyodide.js``: the kernel's worker loads it as it would Pyodide, and it restores
    Python from the snapshot (or starts it the usual way). Voici writes ``pyodideUrl`` after
    the course's configuration is read, so it is changed in the pages, where the kernel reads
    it (``jupyter-lite.json`` keeps Voici's)."""
    for language in LANGUAGES:
        for page in (site / "voici" / "render" / language).glob("*.html"):
            html = page.read_text("utf-8")
            if "jupyter-config-data" not in html:
                continue  # the home pages: no Python
            html, found = _PYODIDE_URL.subn(lambda m: f'{m.group(1)}{m.group(2)}static/pyodide/{start.script}"', html)
            if found != 1:
                raise BuildError(f"{page.name}: {found} places name Pyodide's pyodide.js (expected 1)")
            page.write_text(html, "utf-8")


def prune(site: Path) -> None:
    """Remove :data:`UNUSED` and source maps."""
    for name in UNUSED:
        target = site / name
        if target.is_dir():
            shutil.rmtree(target)
        else:
            target.unlink(missing_ok=True)
    for source_map in site.rglob("*.map"):
        source_map.unlink()


def write_service_worker(site: Path) -> list[str]:
    """The site's own service worker (``service-worker.js``, :data:`SERVICE_WORKER`) with the
    build's name (a hash of every file of the site) and the files that have a gzip copy beside
    them, written here (:data:`GZIP_TYPES`, :data:`GZIP_FROM`, and only where gzip saves a fifth).
    Returns those files, from the site's root."""
    files = sorted(p for p in site.rglob("*") if p.is_file())
    build_hash = hashlib.sha256()
    gzipped = []
    for path in files:
        data = path.read_bytes()
        name = path.relative_to(site).as_posix()
        build_hash.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        if path.suffix in GZIP_TYPES and len(data) >= GZIP_FROM:
            packed = gzip.compress(data, compresslevel=9, mtime=0)
            if len(packed) < 0.8 * len(data):
                path.with_name(path.name + ".gz").write_bytes(packed)
                gzipped.append(name)
    script = ((HERE / SERVICE_WORKER).read_text("utf-8").replace("__QD_BUILD__", build_hash.hexdigest()[:16])
              .replace("__QD_GZIPPED__", json.dumps(gzipped)))
    (site / SERVICE_WORKER).write_text(script, "utf-8")
    return gzipped


SERVED: Final = "QD_SERVED_COURSE"
"""The address of the served course this site points to for what needs a server (the tables of
classmates, :func:`widgets.course.tables_html`): ``./dev site --served URL`` sets it for the build,
and each page hands it to its kernel as it hands the link."""


def served_course() -> str:
    """The served course's address given for this build (``""``: none, or one that is no http(s) address)."""
    address = os.environ.get(SERVED, "").strip()
    return address if re.fullmatch(r"https?://[^\s\"'<>]{1,300}", address) else ""


def page_script() -> str:
    """``page.js`` with the course's facts it needs (languages, the language cookie, where
    the kernel's settings are, the home page of each language)."""
    from tutor.teach.localize import COOKIE

    facts = {"languages": list(LANGUAGES), "cookie": COOKIE, "kernel": KERNEL_SETTINGS,
             "home": lesson_page("{language}", "index"), "served": served_course(), "worker": SERVICE_WORKER}
    return (HERE / "page.js").read_text("utf-8").replace("__QD_SITE__", json.dumps(facts))


def home_page() -> str:
    """``index.html``: opens the course's home in the learner's language (the link's
    ``?lang=``, else the one chosen before in this browser, else the browser's own)."""
    script = page_script()
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>启东招朋友 · Qidong Find Friends</title>'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<script>{script}</script></head><body>"
            '<main style="font-family:sans-serif;max-width:36em;margin:3em auto;line-height:1.6">'
            "<h1>启东招朋友 · Qidong Find Friends</h1><ul>"
            + "".join(f'<li><a href="{lesson_page(lang, "index")}" hreflang="{lang}" lang="{lang}">{name}</a></li>'
                      for lang, name in _language_names())
            + "</ul></main></body></html>")


def _language_names() -> list[tuple[str, str]]:
    from tutor.core.i18n import LANGUAGE_NAMES
    return [(lang, LANGUAGE_NAMES[lang]) for lang in LANGUAGES]


_EXTERNAL = re.compile(r'''(?:\b(?:src|href)\s*=|\burl\(|\bimport\(|\bfetch\()\s*["']?(?:https?:)?//''', re.IGNORECASE)


def check_offline(site: Path) -> None:
    """Fail the build if a page would load anything from another host."""
    for page in site.rglob("*.html"):
        text = page.read_text("utf-8", errors="replace")
        match = _EXTERNAL.search(text)
        if match:
            start = max(0, match.start() - 60)
            raise BuildError(f"{page.relative_to(site)} loads from another host: …{text[start:match.end() + 60]}…")


# ----------------------------------------------------------------- helpers

def run(command: list[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None) -> None:
    try:
        done = subprocess.run(command, cwd=cwd, env=dict(env) if env is not None else None,
                              capture_output=True, text=True, check=False)
    except OSError as error:
        raise BuildError(f"could not run {command[0]}: {error}") from None
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise BuildError(f"{Path(command[0]).name} {' '.join(command[1:3])} failed ({done.returncode}):\n{tail}")


def run_output(command: list[str]) -> str:
    """``command``'s standard output (as :func:`run`, which it is but for the output)."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:
        raise BuildError(f"could not run {command[0]}: {error}") from None
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise BuildError(f"{Path(command[0]).name} {' '.join(command[1:3])} failed ({done.returncode}):\n{tail}")
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="./dev site", description="Build the course as a static site.")
    parser.add_argument("--out", type=Path, default=ROOT / "_site", help="where to write the site (default _site/)")
    parser.add_argument("--cache", type=Path, default=ROOT / ".cache" / "site",
                        help="where downloads are kept between builds (default .cache/site/)")
    parser.add_argument("--served", metavar="URL", default=None,
                        help="the address of the served course (./dev serve, or the class's hub), for the tables of "
                             "classmates, which need a server")
    args = parser.parse_args(argv)
    if args.served is not None:
        os.environ[SERVED] = args.served
    try:
        build(args.out.resolve(), cache=args.cache.resolve())
    except BuildError as error:
        print(f"site: {error}", file=sys.stderr)
        return 1
    return 0


__all__ = ["BuildError", "PYODIDE", "STAND_INS", "build", "lesson_page", "main"]
