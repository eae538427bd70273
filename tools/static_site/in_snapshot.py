"""Run by Pyodide itself at build time (``snapshot.mjs``, under Node), just before its memory
is saved as the snapshot the pages start from (``start.js``): the kernel's start-up imports
and the course's modules imported, so that a page finds them in memory.

``prepare(settings)`` takes JSON: ``imports`` (modules the pages import: each must import),
``packages`` (packages whose modules are all imported, but ``skip``), ``skip`` and ``warm``
(code run then, that reads what pages would read each time: the same for every page). It returns
JSON: how many modules are in memory, those of ``packages`` that did not import (left out), and
the bytecode files of every module in memory (``imported``: the snapshot needs no copy of them).
Nothing may be left open towards a page (a widget, a comm): the snapshot is every page's
start, made before any page exists."""

import importlib
import json
import pkgutil
import sys


def prepare(settings_json: str) -> str:
    settings = json.loads(settings_json)
    # What the kernel's worker imports as it starts (in Pyodide only), then the kernel itself
    # (IPython's shell, made once here).
    import piplite.piplite  # type: ignore[import-not-found]  # noqa: F401
    import pyodide_kernel  # type: ignore[import-not-found]  # noqa: F401

    for name in settings["imports"]:
        importlib.import_module(name)
    left_out: dict[str, str] = {}
    skip = tuple(settings["skip"])

    def walk(package: str) -> None:
        try:
            module = importlib.import_module(package)
        except Exception as error:  # noqa: BLE001 - a module the pages cannot import is left out
            left_out[package] = f"{type(error).__name__}: {error}"
            return
        for info in pkgutil.iter_modules(getattr(module, "__path__", []), package + "."):
            if not (info.name + ".").startswith(skip):
                walk(info.name)

    for package in settings["packages"]:
        walk(package)
    exec(settings["warm"], {})  # what every page would read again: data of the wheels, read once here
    from comm import get_comm_manager
    from ipywidgets.widgets import widget

    if get_comm_manager().comms or widget._instances:
        raise RuntimeError("a widget was made while the snapshot was prepared: it would be every page's")
    imported = sorted({str(getattr(module, "__file__", None)) for module in list(sys.modules.values())
                       if str(getattr(module, "__file__", None)).endswith(".pyc")})
    return json.dumps({"modules": len(sys.modules), "left_out": left_out, "imported": imported})
