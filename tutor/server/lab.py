"""A teacher's JupyterLab, where the lessons are edited: what the course changes in it.

:func:`configure_lab` is called by ``deploy/jupyter_server_config.py`` for a server with
JupyterLab (``QD_SERVER_LAB=1``: a teacher's server under the hub, or ``./dev lab`` in a
clone). Two things:

- The lessons stay as the repository keeps them (:mod:`tutor.server.notebooks`): a lesson
  opens unchanged, and a save writes the teacher's edits, never outputs — and nothing at
  all when nothing was edited.
- JupyterLab loads no extension that only works inside JupyterLite. The static site's
  build (``./dev site``) installs ``jupyterlite-pyodide-kernel``, whose JupyterLab extension
  consumes ``@jupyterlite/server`` and other modules that only JupyterLite's own page shares;
  JupyterLab loaded it anyway and logged "Shared module @jupyterlite/server doesn't exist in
  shared scope default" on every page. Listing it in ``disabledExtensions`` would not help
  (JupyterLab still loads a disabled extension's code, and the error is in the loading), so
  it is left out of the page's ``federated_extensions``. That is done in JupyterLab's page
  handler (``LabHandler.get_page_config``) rather than with the ``page_config_hook`` setting,
  which ``jupyterhub-singleuser`` replaces with its own. (Voila's lesson pages load only
  :data:`tutor.server.LAB_EXTENSIONS`.)

>>> jupyterlite_only({"jupyterlab": {"sharedPackages": {"@jupyterlite/server": {"bundled": False}}}})
True
>>> jupyterlite_only({"jupyterlab": {"sharedPackages": {"@jupyterlab/services": {"bundled": False}}}})
False
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from traitlets.config import Config

from tutor.server.notebooks import LessonContents

__all__ = ["configure_lab", "jupyterlite_extensions", "jupyterlite_only", "without_jupyterlite"]

JUPYTERLITE_SCOPE = "@jupyterlite/"
"""The npm scope of JupyterLite's own packages."""


def jupyterlite_only(package: dict[str, Any]) -> bool:
    """Whether a federated extension (its ``package.json``) needs a JupyterLite package that
    it does not bundle: one that only JupyterLite's page provides."""
    shared = (package.get("jupyterlab") or {}).get("sharedPackages") or {}
    return any(name.startswith(JUPYTERLITE_SCOPE) and (options or {}).get("bundled") is False
               for name, options in shared.items())


@cache
def jupyterlite_extensions() -> frozenset[str]:
    """The names of the installed federated extensions that work only inside JupyterLite."""
    from jupyter_core.paths import jupyter_path
    from jupyterlab_server.config import get_federated_extensions

    installed = get_federated_extensions(jupyter_path("labextensions"))
    return frozenset(name for name, package in installed.items() if jupyterlite_only(package))


def without_jupyterlite(page_config: dict[str, Any]) -> dict[str, Any]:
    """``page_config`` with its federated extensions less the JupyterLite-only ones.

    >>> without_jupyterlite({"federated_extensions": [{"name": "anywidget"}]})
    {'federated_extensions': [{'name': 'anywidget'}]}
    """
    skipped = jupyterlite_extensions()
    extensions = page_config.get("federated_extensions") or []
    page_config["federated_extensions"] = [e for e in extensions if e.get("name") not in skipped]
    return page_config


def _install() -> None:
    """JupyterLab's page handler builds its page config without the JupyterLite-only extensions."""
    from jupyterlab_server.handlers import LabHandler

    built = LabHandler.get_page_config
    if getattr(built, "_qd_without_jupyterlite", False):
        return

    def get_page_config(self: Any) -> dict[str, Any]:
        return without_jupyterlite(built(self))

    get_page_config._qd_without_jupyterlite = True  # type: ignore[attr-defined]
    LabHandler.get_page_config = get_page_config  # type: ignore[method-assign,assignment]


def configure_lab(c: Config, *, root: bool | None = None) -> None:
    """Put the settings of a server with JupyterLab into ``c`` (after
    :func:`tutor.server.configure`), and leave the JupyterLite-only extensions out of
    JupyterLab's pages. Run as root (``root``: by default, whether this process is), the
    server is let run: CI and containers run as root, where Jupyter Server's refusal
    ("Running as root is not recommended") only stopped ``./dev lab``.

    >>> c = Config()
    >>> configure_lab(c, root=True)
    >>> c.ServerApp.allow_root
    True
    """
    c.ServerApp.contents_manager_class = LessonContents
    if os.geteuid() == 0 if root is None else root:
        c.ServerApp.allow_root = True
    _install()
