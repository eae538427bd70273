"""The static site's build steps that need no browser (the whole build and the site in
Chromium: ``tests/browser/test_static_site.py``)."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from tutor.core.i18n import LANGUAGES
from tutor.teach.localize import COOKIE
from tools.static_site import (KEPT, PACKED, SERVER_ONLY, SERVICE_WORKER, STAND_INS, BuildError, Start, lesson_page,
                               lite_config, lock_entry, pack_pyodide, page_script, read_wheel, stand_in_wheel,
                               strip_babel, write_service_worker)


def _wheel(folder: Path, name: str, requires: list[str], files: dict[str, str]) -> Path:
    path = folder / f"{name}-1.0-py3-none-any.whl"
    meta = "Metadata-Version: 2.1\nName: " + name + "\nVersion: 1.0\n" + "".join(f"Requires-Dist: {r}\n" for r in requires)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{name}-1.0.dist-info/METADATA", meta)
        for file, text in files.items():
            archive.writestr(file, text)
    return path


def test_a_wheel_read_as_pyodide_sees_it(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, "demo", ["pexpect>4.3; sys_platform != 'emscripten'", "colorama; sys_platform == 'win32'",
                                      "Typing_Extensions>=4; python_version < '3.13'", "rich; extra == 'fancy'"],
                   {"demo/__init__.py": "", "demo_tool.py": ""})
    info = read_wheel(wheel)
    assert info.name == "demo" and info.version == "1.0"
    assert info.imports == ("demo", "demo_tool")
    assert info.requires == ("typing-extensions",)  # Python 3.12 in Pyodide; not Windows, no extras


def test_the_lock_entry_names_its_real_hash_and_refuses_a_missing_dependency(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, "demo", ["traitlets", "voila"], {"demo/__init__.py": ""})
    entry = lock_entry(wheel, read_wheel(wheel), {"demo", "traitlets"})
    assert entry["depends"] == ["traitlets"]  # voila is server-only
    assert "voila" in SERVER_ONLY and len(entry["sha256"]) == 64
    with pytest.raises(BuildError, match="needs traitlets"):
        lock_entry(wheel, read_wheel(wheel), {"demo"})


def test_stand_ins_are_metadata_only(tmp_path: Path) -> None:
    for name in STAND_INS:
        wheel = stand_in_wheel(name, tmp_path)
        info = read_wheel(wheel)
        assert info.name == name and info.imports == () and info.requires == ()
        with zipfile.ZipFile(wheel) as archive:
            assert all(".dist-info/" in member for member in archive.namelist())


def test_babel_keeps_the_course_locales_only(tmp_path: Path) -> None:
    source = _wheel(tmp_path, "babel", [], {f"babel/locale-data/{n}.dat": "x" for n in ("en", "fr", "zh_Hant", "de_CH")}
                    | {"babel/core.py": ""})
    target = tmp_path / "out.whl"
    strip_babel(source, target)
    with zipfile.ZipFile(target) as archive:
        kept = {m for m in archive.namelist() if "locale-data" in m}
    assert kept == {"babel/locale-data/en.dat", "babel/locale-data/zh_Hant.dat"}


def test_the_page_script_carries_the_course_facts() -> None:
    script = page_script()
    assert "__QD_SITE__" not in script
    facts = json.loads(script.split("const SITE = ", 1)[1].split("; //", 1)[0])
    assert facts["languages"] == list(LANGUAGES) and facts["cookie"] == COOKIE
    assert facts["home"].replace("{language}", "en") == lesson_page("en", "index")


def test_the_site_never_reaches_pypi_or_a_cdn() -> None:
    settings = lite_config(["micropip", "pyodide-kernel"])["jupyter-config-data"]["litePluginSettings"]
    kernel = settings["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["disablePyPIFallback"] is True and not kernel["pyodideUrl"].startswith("http")
    assert kernel["loadPyodideOptions"]["packages"] == ["micropip", "pyodide_kernel"]


def _service_worker_facts(script: str) -> tuple[str, list[str]]:
    build = script.split('const BUILD = "', 1)[1].split('"', 1)[0]
    gzipped = json.loads(script.split("const GZIPPED = new Set(", 1)[1].split(");", 1)[0])
    return build, gzipped


def test_the_service_worker_names_its_build_and_the_files_it_fetches_packed(tmp_path: Path) -> None:
    import gzip

    (tmp_path / "voici").mkdir()
    page = "<p>" + "the lesson's text " * 2000 + "</p>"
    (tmp_path / "voici" / "05.html").write_text(page, "utf-8")
    (tmp_path / "small.js").write_text("let a = 1;", "utf-8")
    (tmp_path / "picture.png").write_bytes(bytes(20000))
    assert write_service_worker(tmp_path) == ["voici/05.html"]  # text, big enough, and gzip saves a fifth
    assert gzip.decompress((tmp_path / "voici" / "05.html.gz").read_bytes()).decode() == page
    build, gzipped = _service_worker_facts((tmp_path / SERVICE_WORKER).read_text("utf-8"))
    assert gzipped == ["voici/05.html"] and len(build) == 16
    # Another build of other files is another service worker (the browser installs it); the same files, the same.
    (tmp_path / "voici" / "05.html.gz").unlink()
    (tmp_path / SERVICE_WORKER).unlink()
    write_service_worker(tmp_path)
    assert _service_worker_facts((tmp_path / SERVICE_WORKER).read_text("utf-8"))[0] == build
    (tmp_path / "small.js").write_text("let a = 2;", "utf-8")
    for made in (tmp_path / "voici" / "05.html.gz", tmp_path / SERVICE_WORKER):
        made.unlink()
    write_service_worker(tmp_path)
    assert _service_worker_facts((tmp_path / SERVICE_WORKER).read_text("utf-8"))[0] != build


def test_pyodide_s_biggest_files_are_packed_beside_them(tmp_path: Path) -> None:
    import gzip

    for name in (*PACKED, *KEPT):
        (tmp_path / name).write_bytes(b"\0asm" + bytes(50000))
    packed = pack_pyodide(tmp_path)
    assert sorted(packed) == sorted((*PACKED, *KEPT))
    assert [packed[name].split("?")[0] for name in KEPT] == list(KEPT)  # kept as they are
    for name, address in ((name, packed[name]) for name in PACKED):
        file, version = address.split("?v=")
        assert file == f"{name}.gz" and len(version) == 16
        assert gzip.decompress((tmp_path / file).read_bytes()) == (tmp_path / name).read_bytes()
    settings = lite_config(["micropip"], Start("s.js", "snap.bin", "w.js", "k.js", {"memory": 1}, packed))
    options = settings["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert options["loadPyodideOptions"]["qdPacked"] == packed
