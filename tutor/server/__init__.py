"""The served course: Voila's and Jupyter Server's settings for the lessons.

:func:`configure` fills a traitlets config with every setting the course needs, each with
its reason. ``deploy/voila.py`` calls it for ``./dev serve``; a
JupyterHub user's server calls it from its own config file (``deploy/``), so the course
is served the same way by one machine and by a hub. Beside it: :mod:`~tutor.server.fixes`
(what the course mends in Voila and Jupyter Server), :mod:`~tutor.server.zygote` and
:mod:`~tutor.server.forking` (lesson kernels forked from a process that has loaded the
course), :mod:`~tutor.server.admission` (a whole class at once, and no script filling
the machine).

>>> from traitlets.config import Config
>>> c = Config()
>>> configure(c)
>>> c.VoilaConfiguration.strip_sources, c.MappingKernelManager.cull_idle_timeout
(True, 300)
>>> "anywidget" in c.VoilaConfiguration.extension_allowlist
True
"""

from __future__ import annotations

from typing import Any, Final

from traitlets.config import Config

__all__ = ["LAB_EXTENSIONS", "TEMPLATE", "configure"]

TEMPLATE: Final = "qd"
"""The course's Voila template (:data:`tutor.server.fixes.SHARE`)."""

LAB_EXTENSIONS: Final = (
    "@jupyter-widgets/jupyterlab-manager",  # ipywidgets' own models (base, controls, output)
    "@voila-dashboards/widgets-manager8",  # Voila's widget manager for ipywidgets 8
    "anywidget",  # the course's widgets (widgets/static/*.js)
)
"""The JupyterLab extensions a lesson page loads: the widgets, and nothing else installed
beside them. Voila would load every federated extension of the environment, and one of
them works only inside JupyterLite: ``@jupyterlite/pyodide-kernel-extension``, installed
for the static site (``./dev site``), consumes ``@jupyterlite/server``, which no server's
page provides, and failed on every page ("Shared module @jupyterlite/server doesn't exist
in shared scope default"). ``jupyterlab_pygments`` is not needed either: its colours are
in the page's own CSS."""


def _localize(handler: Any, notebook: Any, cwd: str) -> Any:
    """Voila's prelaunch hook: the notebook in the page's language (tutor/teach/localize.py).

    The link's ``?lang=``, else the language this browser chose before (remembered in a
    cookie for a year), else the browser's own. The notebook is translated before it is
    rendered and its kernel starts in that language; a lesson's static examples come
    drawn already (:mod:`tutor.server.pages`), once they are.
    """
    from pathlib import Path, PurePosixPath
    from urllib.parse import unquote

    from tutor.teach import prerender
    from tutor.teach.localize import COOKIE, choose_language, link_language, localize
    from tutor.server.pages import drawn_pages

    query = handler.request.query
    language = choose_language(query, handler.get_cookie(COOKIE), handler.request.headers.get("Accept-Language"))
    if link_language(query):
        handler.set_cookie(COOKIE, language, path="/", expires_days=365, samesite="Lax")
    handler._qd_language = language
    # The notebook's name: Voila's own in single-notebook mode, else the page's path.
    name = handler.notebook_path or (handler.path_args[0] if handler.path_args else handler.request.path)
    slug = PurePosixPath(unquote(name)).stem
    page = localize(notebook, slug, language, query)
    if prerender.prerendered_lesson(slug):  # its examples drawn once, not on every view
        folder = Path(getattr(handler.contents_manager, "root_dir", "") or ".") / cwd
        page = prerender.apply(page, drawn_pages(folder, start=False).get(language, slug))
    return page


def configure(c: Config) -> None:
    """Put the course's settings into ``c``, and install the fixes of
    :mod:`tutor.server.fixes` and the admission of :mod:`tutor.server.admission` into
    Voila's classes."""
    from tutor.server import admission, fixes, forking, quiet
    from tutor.server.tables import web as tables

    quiet.install()  # the serve log without notices no teacher can act on
    fixes.install()
    admission.install()
    tables.install()  # tables of classmates under /tables/ (tutor/server/tables)

    # Local only, and no browser window on a server.
    c.Voila.ip = "127.0.0.1"
    c.Voila.open_browser = False

    # Learners see the lesson, never its code, and a friendly notice instead of a traceback.
    c.VoilaConfiguration.strip_sources = True
    c.VoilaConfiguration.show_tracebacks = False

    # The course's template (share/jupyter/voila/templates/qd beside this module, found by
    # the fixes): Voila's lab template, with the lesson's text sent before its kernel is
    # ready (Voila draws a cell only after every cell before it ran), and each cell's
    # output put in its place after.
    c.VoilaConfiguration.template = TEMPLATE

    # The course is drawn by its template only. A link's ?template= would otherwise
    # pick another one by name: an unknown name starts a kernel, then leaves the page loading
    # forever (the render task dies, Voila keeps sending heartbeats), and a name with a path
    # in it is a 500. ?theme= stays: the course follows the light and the dark theme.
    c.VoilaConfiguration.allow_template_override = "NO"

    # The lab extensions the pages need (LAB_EXTENSIONS), not every one that is installed.
    c.VoilaConfiguration.extension_allowlist = list(LAB_EXTENSIONS)

    # Every page in the learner's language.
    c.VoilaConfiguration.prelaunch_hook = _localize

    # Lesson kernels are forked from one process that has imported the course already
    # (tutor/server/zygote.py): a kernel ready in a few milliseconds instead of ~0.5 s of CPU.
    c.KernelProvisionerFactory.default_provisioner_name = forking.NAME

    # A whole class at once (tutor/server/admission.py): no kernel for a bare GET, at most
    # Classroom.size kernels (./dev serve --class N) and Classroom.per_client per address,
    # a friendly "class is full" page past them, and the pages' notebooks run in turn.
    c.VoilaConfiguration.multi_kernel_manager_class = admission.ClassroomKernelManager

    # The 4 s default drops widget output when the machine is busy (STACK-NOTES).
    c.VoilaExecutor.iopub_timeout = 30

    # Kernels must not pile up. Closing or reloading a page shuts its kernel down (the
    # shutdown fix in tutor.server.fixes); a kernel whose page's connection closed without a
    # shutdown (a crashed or discarded tab) is stopped 30 s later unless the page comes back
    # (tutor.server.admission.ClassroomKernelManager.gone_seconds); one whose page vanished
    # with its connection left hanging (a laptop that slept) is culled after 5 idle minutes.
    # A page that is still open keeps its kernel however long the learner reads.
    c.MappingKernelManager.cull_idle_timeout = 300
    c.MappingKernelManager.cull_interval = 60
    c.MappingKernelManager.cull_connected = False
    c.MappingKernelManager.cull_busy = False

    # /logout drew Jupyter Server's logout page (a 500). The course has no accounts, so
    # there is nothing to log out of: 404. Started with a token, it logs out and goes home.
    c.IdentityProvider.logout_handler_class = fixes.Logout
